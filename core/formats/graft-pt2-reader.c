/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pt2-reader.c: reads a `.pt2` archive, the zip torch.export.save
 * writes, into the graph `torch.export.load(path).graph_module` holds in
 * torch 2.6 (torch/_export/serde/serialize.py, GraphModuleDeserializer;
 * the schema is torch/_export/serde/schema.py).  docs/programs.md says
 * what each rule comes from, with examples.
 *
 * Only the member `serialized_exported_program.json` is read, and `version`
 * beside it: weights, constants and example inputs are never opened
 * (graft-pt2-archive.c, through libzip).  The member's text is checked
 * as Python's json reads it and then read into a tree (graft-pt2-json.c,
 * graft-pt2-tree.c); values and arguments are read in
 * graft-pt2-values.c.  Errors are located in the member, as
 * `ARCHIVE:MEMBER:LINE:COL`: a syntax error where Python's json would
 * stop, any other error at the start of the value it is about (a missing
 * key at its object); errors of the archive itself are at `ARCHIVE:1:1`.
 *
 * The graph is built as the deserializer builds it.  Placeholders come
 * from the graph's inputs, call_function nodes from its nodes, with their
 * arguments placed by the operator's schema (graft-aten-schema.h);
 * operators with several outputs get a getitem node per output, and one
 * output node ends the graph.  torch makes each node with a name from the
 * graph's namespace and then overwrites the name with the serialized one
 * (`sync_fx_node`) without telling the namespace: the names FX itself
 * gives (`chunk_default`, `as_none`, the getitem of a list) depend on the
 * names the namespace made, not on the nodes' names.  So the reader keeps
 * a second namespace that follows torch's exactly, names the nodes as
 * torch does, and at the end reserves in the graph's namespace the names
 * torch's holds that no node has, so that later edits do not reuse them.
 *
 * Every node gets a #GraftNodeMeta from its value (tensor_values and the
 * symbolic values) and its metadata, and the graph its signature (its
 * #GraftProgram), its range constraints and the class name `GraphModule`.
 * What torch 2.6 cannot load is refused: a schema version other than 8,
 * an operator outside the aten schema table or the symbolic operators, a
 * name used before it is defined or defined twice; so are higher-order
 * operators (graphs inside graphs), which Graft does not represent.
 */
#include "config.h"

#include "graft-program.h"
#include "graft-pt2-private.h"
#include "graft-arg.h"
#include "graft-aten-schema.h"
#include "graft-graph-private.h"
#include "graft-limits.h"
#include "graft-meta.h"
#include "graft-namespace-private.h"
#include "graft-source-private.h"

#include <string.h>

/* serialize.py: _SYM_INT_OPS, _SYM_BOOL_OPS and _SYM_FLOAT_OPS as
 * serialized, with the target the graph prints. */
static const struct
{
  const char *serialized;
  const char *target;
} sym_ops[] = {
  { "_operator.mul", "operator.mul" },
  { "_operator.add", "operator.add" },
  { "_operator.sub", "operator.sub" },
  { "_operator.floordiv", "operator.floordiv" },
  { "_operator.mod", "operator.mod" },
  { "_operator.pow", "operator.pow" },
  { "_operator.truediv", "operator.truediv" },
  { "_operator.eq", "operator.eq" },
  { "_operator.ne", "operator.ne" },
  { "_operator.le", "operator.le" },
  { "_operator.ge", "operator.ge" },
  { "_operator.lt", "operator.lt" },
  { "_operator.gt", "operator.gt" },
  { "_operator.neg", "operator.neg" },
  { "_operator.pos", "operator.pos" },
  { "torch.sym_int", "torch.sym_int" },
  { "torch.sym_float", "torch.sym_float" },
  { "torch.sym_ite", "torch.sym_ite" },
  { "torch.sym_max", "torch.sym_max" },
  { "torch.sym_min", "torch.sym_min" },
  { "torch.sym_sqrt", "torch.sym_sqrt" },
  { "torch.sym_not", "torch.sym_not" },
  /* Not a symbolic operator, but the deserializer treats it as one. */
  { "torch.ops.aten.item.default", "torch.ops.aten.item.default" },
};

/* A node's metadata, as deserialize_metadata reads it; strings interned
 * in the graph (graft-pt2-strings.c). */
typedef struct
{
  const char             *stack_trace;
  const char             *source_fn_stack;
  const char             *torch_fn;
  const GraftModuleFrame *modules;
  guint                   n_modules;
} NodeInfo;

/* ------------------------------------------------------------------ */
/* Nodes */

/* torch's namespace (r->shadow), made when it is first needed: until
 * then every node was named what torch's create_name() gave it (its
 * candidate, clean and free), so torch's namespace holds what the graph's
 * does and is made again by asking it for the nodes' names in order,
 * which gives it the state those same requests gave torch's.  A program
 * torch wrote names nearly every node so (each placeholder and each
 * operator named by its output), and the namespace of a million names was
 * a table as large again as the graph's, missed in the cache twice a
 * node. */
static GraftNamespace *
shadow_namespace (Reader *r)
{
  if (r->shadow == NULL)
    {
      r->shadow = graft_namespace_new (r->dialect);
      for (GraftNode *node = graft_graph_get_first (r->graph); node != NULL;
           node = graft_node_get_next (node))
        {
          const char *made G_GNUC_UNUSED =
              graft_namespace_create_name (r->shadow, graft_node_get_name (node),
                                           GRAFT_NAME_DEFAULT);

          g_assert (strcmp (made, graft_node_get_name (node)) == 0);
        }
    }
  return r->shadow;
}

/* The node's name is checked and made as torch makes it: @candidate
 * through torch's namespace, then @synced over it when given (and then
 * recorded under that name).  Its metadata is the value's (@synced's, or
 * @other when not synced) with @info's, when either is given.  @target is
 * the graph's interned copy.  Consumes @args and @kwargs. */
static GraftNode *
add_node (Reader              *r,
          GraftOp              op,
          const char          *target,
          GraftArg            *args,
          GraftArg            *kwargs,
          const char          *candidate,
          const char          *synced,
          const GraftNodeMeta *other,
          const NodeInfo      *info,
          Pt2Value            *where)
{
  GraftNamespace      *names = graft_graph_get_namespace (r->graph);
  const GraftNodeMeta *value = other;
  GraftNodeMeta        found;
  const char          *made, *name;
  GraftNode           *node;
  gboolean             synced_taken;

  /* Every node found by name is in the graph's namespace: the table is
   * asked only of a name the graph has.  Whether the graph has it is
   * asked once: nothing below adds to the graph's namespace before the
   * node is made. */
  synced_taken = synced != NULL && graft_namespace_contains (names, synced);
  if (synced_taken && _graft_pt2_nodes_find (&r->by_name, synced, strlen (synced)) != NULL)
    {
      _graft_pt2_fail (r, where, GRAFT_PARSE_ERROR_GRAPH, "the value '%s' is defined twice",
                       synced);
      goto fail;
    }
  if (synced != NULL && (synced[0] == '\0' || strlen (synced) > GRAFT_MAX_NAME_LENGTH))
    {
      _graft_pt2_fail (r, where, GRAFT_PARSE_ERROR_GRAPH,
                       synced[0] == '\0' ? "a value without a name" : "a name longer than %u bytes",
                       GRAFT_MAX_NAME_LENGTH);
      goto fail;
    }
  if (synced != NULL && !_graft_pt2_values_find (&r->values, synced, &found))
    {
      _graft_pt2_fail (r, where, GRAFT_PARSE_ERROR_GRAPH, "the value '%s' has no metadata",
                       synced);
      goto fail;
    }
  if (synced != NULL)
    value = &found;
  if (graft_graph_get_n_nodes (r->graph) >= GRAFT_MAX_NODES)
    {
      _graft_pt2_fail (r, where, GRAFT_PARSE_ERROR_LIMIT, "the program has more than %u nodes",
                       GRAFT_MAX_NODES);
      goto fail;
    }
  /* While torch's namespace holds what the graph's does (shadow_namespace()),
   * a candidate that is the node's name, clean and free in the graph's, is
   * what torch's create_name() gives: torch's namespace is not asked, and
   * the graph adds the name in the pass that finds it free and clean. */
  node = NULL;
  if (r->shadow == NULL &&
      (synced == NULL || candidate == synced || strcmp (candidate, synced) == 0) &&
      !synced_taken)
    node = _graft_graph_append_node_if_canonical (r->graph, op, target, args, kwargs,
                                                  synced != NULL ? synced : candidate);
  if (node != NULL)
    made = name = synced != NULL ? synced : candidate;
  else
    {
      made = graft_namespace_create_name (shadow_namespace (r), candidate, GRAFT_NAME_DEFAULT);
      name = synced != NULL ? synced : made;
      if (synced != NULL ? synced_taken : graft_namespace_contains (names, name))
        {
          /* torch would hold two nodes of this name, which Graft cannot. */
          _graft_pt2_fail (r, where, GRAFT_PARSE_ERROR_GRAPH, "two nodes would be named '%s'",
                           name);
          goto fail;
        }
      /* The graph's namespace was asked just above. */
      node = _graft_graph_append_node_new_name (r->graph, op, target, args, kwargs, name);
    }
  if (synced != NULL)
    {
      if (strcmp (made, synced) != 0)
        g_ptr_array_add (r->reserved, (gpointer) made);
      _graft_pt2_nodes_add (&r->by_name, node);
    }
  if (value != NULL || info != NULL)
    {
      GraftNodeMeta meta = { 0 };

      if (value != NULL)
        meta = *value;
      if (info != NULL)
        {
          meta.stack_trace = info->stack_trace;
          meta.source_fn_stack = info->source_fn_stack;
          meta.torch_fn = info->torch_fn;
          meta.modules = info->modules;
          meta.n_modules = info->n_modules;
        }
      _graft_node_set_meta_interned (node, &meta);
    }
  return node;

fail:
  if (args != NULL)
    graft_arg_clear (args);
  if (kwargs != NULL)
    graft_arg_clear (kwargs);
  return NULL;
}

/* metadata_split: parenthesised runs removed, then split at commas
 * with the white space around them. */
static gboolean
split_module_frame (Reader           *r,
                    const char       *item,
                    gsize             len,
                    GraftModuleFrame *out)
{
  GString    *text = r->frame_text;
  const char *src = item;
  gsize       n = len;
  const char *parts[3];
  gsize       part_len[3];
  guint       hashes[3];
  guint       n_parts = 0;
  gsize       start = 0;

  /* Without a parenthesis (nearly every frame) the text is split where it
   * is. */
  if (memchr (item, '(', len) != NULL)
    {
      g_string_truncate (text, 0);
      for (gsize i = 0; i < len; i++)
        {
          if (item[i] == '(')
            {
              const char *close = memchr (item + i, ')', len - i);

              if (close != NULL)
                {
                  i = close - item;
                  continue;
                }
            }
          g_string_append_c (text, item[i]);
        }
      src = text->str;
      n = text->len;
    }
  for (gsize i = 0; i <= n; i++)
    {
      gsize a, b;

      /* To the next comma, or the end. */
      if (i < n)
        {
          const char *comma = memchr (src + i, ',', n - i);

          i = comma != NULL ? (gsize) (comma - src) : n;
        }
      if (i < n)
        {
          /* `(?<!\()\s*,\s*(?!\()`: not next to an opening parenthesis. */
          a = i;
          while (a > start && g_ascii_isspace (src[a - 1]))
            a--;
          b = i + 1;
          while (b < n && g_ascii_isspace (src[b]))
            b++;
          if ((a > 0 && src[a - 1] == '(') || (b < n && src[b] == '('))
            continue;
        }
      else
        a = b = i;
      if (n_parts == 3)
        return FALSE;
      parts[n_parts] = src + start;
      part_len[n_parts++] = a - start;
      if (i == n)
        break;
      start = b;
      i = b - 1;
    }
  if (n_parts != 3)
    return FALSE;
  /* A NUL in the text ends the part, as it ended the copy interned.  The
   * three hashed first, their misses overlapping. */
  for (guint k = 0; k < 3; k++)
    {
      part_len[k] = strnlen (parts[k], part_len[k]);
      hashes[k] = _graft_pt2_intern_prepare (r, parts[k], part_len[k]);
    }
  out->key = _graft_pt2_intern_hashed (r, parts[0], part_len[0], hashes[0]);
  out->path = _graft_pt2_intern_hashed (r, parts[1], part_len[1], hashes[1]);
  out->type = _graft_pt2_intern_hashed (r, parts[2], part_len[2], hashes[2]);
  return TRUE;
}

/* The frames of an nn_module_stack text, in r->node_frames (each frame
 * split once: nodes share their outer modules). */
static GArray *
module_stack (Reader     *r,
              Pt2Value   *node,
              const char *text,
              gsize       text_len)
{
  GArray     *frames = r->node_frames;
  const char *p = text;
  const char *end = text + text_len;

  g_array_set_size (frames, 0);
  for (;;)
    {
      const char      *semi = memchr (p, ';', end - p);
      gsize            len = semi != NULL ? (gsize) (semi - p) : (gsize) (end - p);
      guint            hash;
      gboolean         hit;
      GraftNameSlot   *slot = _graft_pt2_cache_slot (r->frame_cache, p, len, &hash, &hit);
      guint            index = hit ? GPOINTER_TO_UINT (slot->value) : 0;
      GraftModuleFrame frame;

      if (index == 0)
        {
          if (!split_module_frame (r, p, len, &frame))
            {
              _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX,
                               "an nn_module_stack entry is not 'key,path,type': '%.*s'",
                               (int) MIN (len, 200), p);
              return NULL;
            }
          g_array_append_val (r->frame_pool, frame);
          index = r->frame_pool->len;
          *slot = (GraftNameSlot){ p, hash, (guint) len, GUINT_TO_POINTER (index) };
        }
      g_array_append_val (frames, g_array_index (r->frame_pool, GraftModuleFrame, index - 1));
      if (semi == NULL)
        break;
      p = semi + 1;
    }
  return frames;
}

/* An optional string of a node's metadata, "" read as absent: its bytes
 * (not NUL-terminated in a text read in place) and *@out_len. */
static gboolean
metadata_string (Reader      *r,
                 Pt2Value    *metadata,
                 const char  *key,
                 const char **out,
                 gsize       *out_len)
{
  Pt2Value *value = _graft_pt2_opt (metadata, key);

  *out = NULL;
  *out_len = 0;
  if (value == NULL)
    return TRUE;
  if (value->type != PT2_STRING)
    {
      g_autofree char *what = g_strdup_printf ("'%s'", key);

      return _graft_pt2_check_string (r, value, what) != NULL;
    }
  if (value->len > 0)
    {
      *out = value->v.s;
      *out_len = value->len;
    }
  return TRUE;
}

/* _graft_pt2_intern_prepare() of @text, when there is one. */
static guint
prepare_or_null (Reader     *r,
                 const char *text,
                 gsize       len)
{
  return text != NULL ? _graft_pt2_intern_prepare (r, text, len) : 0;
}

/* _graft_pt2_intern_hashed(); %NULL stays %NULL. */
static const char *
intern_or_null (Reader     *r,
                const char *text,
                gsize       len,
                guint       hash)
{
  return text != NULL ? _graft_pt2_intern_hashed (r, text, len, hash) : NULL;
}

/* deserialize_metadata. */
static gboolean
read_info (Reader   *r,
           Pt2Value *metadata,
           NodeInfo *out)
{
  const char *stack = NULL, *trace = NULL, *source_fn = NULL, *torch_fn = NULL;
  gsize       stack_len, trace_len, source_fn_len, torch_fn_len;
  guint       trace_hash, source_fn_hash, torch_fn_hash;

  memset (out, 0, sizeof *out);
  if (!_graft_pt2_check_object (r, metadata, "'metadata'") ||
      !metadata_string (r, metadata, "stack_trace", &trace, &trace_len) ||
      !metadata_string (r, metadata, "nn_module_stack", &stack, &stack_len) ||
      !metadata_string (r, metadata, "source_fn_stack", &source_fn, &source_fn_len) ||
      !metadata_string (r, metadata, "torch_fn", &torch_fn, &torch_fn_len))
    return FALSE;
  /* Hashed first: the graph's slots of the texts the cache will miss come
   * in while the module stack is read. */
  trace_hash = prepare_or_null (r, trace, trace_len);
  source_fn_hash = prepare_or_null (r, source_fn, source_fn_len);
  torch_fn_hash = prepare_or_null (r, torch_fn, torch_fn_len);
  if (stack != NULL)
    {
      GArray *frames =
          module_stack (r, _graft_pt2_opt (metadata, "nn_module_stack"), stack, stack_len);

      if (frames == NULL)
        return FALSE;
      out->modules = (const GraftModuleFrame *) (gpointer) frames->data;
      out->n_modules = frames->len;
    }
  if (source_fn != NULL)
    {
      /* Each entry is `name,target`, split at its one comma. */
      const char *end = source_fn + source_fn_len;
      guint       commas = 0;

      for (const char *p = source_fn;; p++)
        {
          while (p < end && *p != ',' && *p != ';')
            p++;
          if (p < end && *p == ',')
            commas++;
          else
            {
              if (commas != 1)
                return _graft_pt2_fail (r, _graft_pt2_opt (metadata, "source_fn_stack"),
                                        GRAFT_PARSE_ERROR_SYNTAX,
                                        "a source_fn_stack entry is not 'name,target'");
              if (p == end)
                break;
              commas = 0;
            }
        }
    }
  out->stack_trace = intern_or_null (r, trace, trace_len, trace_hash);
  out->source_fn_stack = intern_or_null (r, source_fn, source_fn_len, source_fn_hash);
  out->torch_fn = intern_or_null (r, torch_fn, torch_fn_len, torch_fn_hash);
  return TRUE;
}

/* The name of a TensorArgument, or of a SymIntArgument or SymFloatArgument
 * (`as_name`); @nested: the item of a list (a bare argument class) rather
 * than an Argument's value. */
static const char *
output_name (Reader     *r,
             Pt2Value   *arg,
             const char *type,
             Pt2Value  **out_node)
{
  const char *sym_type;
  Pt2Value   *value;

  if (strcmp (type, "as_tensor") == 0 || strcmp (type, "as_tensors") == 0)
    {
      if (!_graft_pt2_check_object (r, arg, "a TensorArgument") ||
          (value = _graft_pt2_req (r, arg, "name")) == NULL)
        return NULL;
    }
  else
    {
      if (!_graft_pt2_read_union (r, arg, "a symbolic output", &sym_type, &value))
        return NULL;
      if (strcmp (sym_type, "as_name") != 0)
        {
          _graft_pt2_fail (r, arg, GRAFT_PARSE_ERROR_SYNTAX,
                           "an output must be named ('as_name'), not '%s'", sym_type);
          return NULL;
        }
    }
  if (out_node != NULL)
    *out_node = value;
  return _graft_pt2_check_string (r, value, "a name");
}

static gboolean generate_getitems (Reader         *r,
                                   GraftNode      *from,
                                   Pt2Value       *items,
                                   const char     *list_type,
                                   const NodeInfo *info);

/* getitem(@from, @idx) named @name, with that value's metadata. */
static gboolean
generate_getitem (Reader         *r,
                  GraftNode      *from,
                  guint           idx,
                  const char     *name,
                  Pt2Value       *where,
                  const NodeInfo *info)
{
  GraftArg   args;
  GraftNode *node;

  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 2);
  graft_arg_init_node (&args.items[0], from);
  graft_arg_init_int (&args.items[1], idx);
  node = add_node (r, GRAFT_OP_CALL_FUNCTION, graft_graph_intern (r->graph, "operator.getitem"),
                   &args, NULL, name, name, NULL, info, where);
  return node != NULL;
}

/* deserialize_multiple_outputs' generate_getitems.  @list_type: the
 * Argument type of @items when they are the items of a list output
 * (`as_tensors`: TensorArguments), %NULL for a node's outputs
 * (Arguments). */
static gboolean
generate_getitems (Reader         *r,
                   GraftNode      *from,
                   Pt2Value       *items,
                   const char     *list_type,
                   const NodeInfo *info)
{
  static const GraftNodeMeta other = { .kind = GRAFT_VALUE_OTHER };
  guint                      len = items->len;

  for (guint idx = 0; idx < len; idx++)
    {
      Pt2Value   *item = &items->v.items[idx];
      const char *type, *name;
      Pt2Value   *value, *at = NULL;

      if (list_type != NULL)
        {
          if (strcmp (list_type, "as_tensors") != 0 && strcmp (list_type, "as_sym_ints") != 0 &&
              strcmp (list_type, "as_sym_floats") != 0)
            return _graft_pt2_fail (r, item, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                    "an output list of type '%s' is not supported", list_type);
          if ((name = output_name (r, item, list_type, &at)) == NULL ||
              !generate_getitem (r, from, idx, name, at, info))
            return FALSE;
          continue;
        }
      if (!_graft_pt2_read_union (r, item, "an output", &type, &value))
        return FALSE;
      if (strcmp (type, "as_tensor") == 0 || strcmp (type, "as_sym_int") == 0 ||
          strcmp (type, "as_sym_float") == 0)
        {
          if ((name = output_name (r, value, type, &at)) == NULL ||
              !generate_getitem (r, from, idx, name, at, info))
            return FALSE;
        }
      else if (strcmp (type, "as_tensors") == 0 || strcmp (type, "as_sym_ints") == 0 ||
               strcmp (type, "as_sym_floats") == 0 || strcmp (type, "as_ints") == 0 ||
               strcmp (type, "as_floats") == 0 || strcmp (type, "as_strings") == 0 ||
               strcmp (type, "as_bools") == 0 || strcmp (type, "as_sym_bools") == 0)
        {
          Pt2Value  *sub = _graft_pt2_check_array (r, value, type);
          GraftArg   args;
          GraftNode *list_node;

          if (sub == NULL)
            return FALSE;
          graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 2);
          graft_arg_init_node (&args.items[0], from);
          graft_arg_init_int (&args.items[1], idx);
          list_node = add_node (r, GRAFT_OP_CALL_FUNCTION,
                                graft_graph_intern (r->graph, "operator.getitem"), &args, NULL,
                                "getitem", NULL, &other, info, item);
          if (list_node == NULL)
            return FALSE;
          if (!generate_getitems (r, list_node, sub, type, info))
            return FALSE;
        }
      else if (strcmp (type, "as_none") == 0)
        {
          GraftArg   args;
          GraftNode *none_node;

          graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 2);
          graft_arg_init_node (&args.items[0], from);
          graft_arg_init_int (&args.items[1], idx);
          none_node = add_node (r, GRAFT_OP_CALL_FUNCTION,
                                graft_graph_intern (r->graph, "operator.getitem"), &args, NULL,
                                "as_none", NULL, &other, info, item);
          if (none_node == NULL)
            return FALSE;
        }
      else
        return _graft_pt2_fail (r, item, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                "an output of type '%s' is not supported", type);
    }
  return TRUE;
}

/* deserialize_inputs: the node's named inputs placed by the schema. */
static gboolean
place_inputs (Reader                *r,
              const GraftAtenSchema *schema,
              const char            *target,
              Pt2Value              *inputs_node,
              Pt2Value              *inputs,
              GraftArg              *out_args,
              GraftArg              *out_kwargs)
{
  guint      len = inputs->len;
  guint      n_schema = graft_aten_schema_get_n_arguments (schema);
  GraftArg  *values;
  Pt2Value **names;
  GArray    *args = r->place_args, *kwargs = r->place_kwargs;
  gsize      name_len;
  gboolean   ok = TRUE;

  /* The reader's buffers, cleared: a node makes no allocation of its own
   * here. */
  g_array_set_size (r->place_values, 0);
  g_array_set_size (r->place_values, MAX (len, 1));
  g_ptr_array_set_size (r->place_names, 0);
  g_ptr_array_set_size (r->place_names, MAX (len, 1));
  g_array_set_size (args, 0);
  g_array_set_size (kwargs, 0);
  values = (GraftArg *) (gpointer) r->place_values->data;
  names = (Pt2Value **) r->place_names->pdata;

  for (guint k = 0; k < len && ok; k++)
    {
      Pt2Value *input = &inputs->v.items[k];
      Pt2Value *arg;

      ok = _graft_pt2_check_object (r, input, "a NamedArgument") &&
           _graft_pt2_req_string_len (r, input, "name", &name_len) != NULL &&
           (names[k] = _graft_pt2_opt (input, "name")) != NULL &&
           (arg = _graft_pt2_req (r, input, "arg")) != NULL &&
           _graft_pt2_read_argument (r, arg, &values[k]);
    }
  for (guint i = 0; i < n_schema && ok; i++)
    {
      GraftAtenArgument sa;
      int               found = -1;
      GraftArg          copy;
      gboolean          keyword;

      graft_aten_schema_get_argument (schema, i, &sa);
      for (guint k = 0; k < len; k++)
        if ((names[k]->len == 0 || names[k]->v.s[0] == sa.name[0]) &&
            strncmp (names[k]->v.s, sa.name, names[k]->len) == 0 && sa.name[names[k]->len] == '\0')
          found = (int) k;
      keyword = graft_is_python_keyword (sa.name);
      if ((sa.default_repr == NULL && !sa.kwarg_only) || keyword)
        {
          if (found < 0)
            {
              ok = _graft_pt2_fail (r, inputs_node, GRAFT_PARSE_ERROR_GRAPH,
                                    "missing argument '%s' of %s", sa.name, target);
              break;
            }
          if (keyword && !(sa.default_repr == NULL && !sa.kwarg_only))
            {
              /* The keyword-named case drops the keywords collected so
               * far, as torch's deserialize_inputs does. */
              for (guint k = 0; k < kwargs->len; k++)
                graft_arg_clear (&g_array_index (kwargs, GraftArg, k));
              g_array_set_size (kwargs, 0);
            }
          /* Moved: each input is placed at most once (the schema's
           * names differ). */
          copy = values[found];
          graft_arg_init_none (&values[found]);
          g_array_append_val (args, copy);
        }
      else if (found >= 0)
        {
          GraftArg key;

          graft_arg_init_str (&key, sa.name, -1);
          g_array_append_val (kwargs, key);
          copy = values[found];
          graft_arg_init_none (&values[found]);
          g_array_append_val (kwargs, copy);
        }
    }
  for (guint k = 0; k < len; k++)
    graft_arg_clear (&values[k]);
  if (!ok)
    {
      for (guint k = 0; k < args->len; k++)
        graft_arg_clear (&g_array_index (args, GraftArg, k));
      for (guint k = 0; k < kwargs->len; k++)
        graft_arg_clear (&g_array_index (kwargs, GraftArg, k));
      return FALSE;
    }
  graft_arg_init_seq (out_args, GRAFT_ARG_TUPLE, args->len);
  if (args->len > 0)
    memcpy (out_args->items, args->data, args->len * sizeof (GraftArg));
  graft_arg_init_dict (out_kwargs, kwargs->len / 2);
  if (kwargs->len > 0)
    memcpy (out_kwargs->items, kwargs->data, kwargs->len * sizeof (GraftArg));
  return TRUE;
}

static const char *
sym_op_target (const char *serialized)
{
  if (!g_str_has_prefix (serialized, "_operator.") &&
      !g_str_has_prefix (serialized, "torch.sym_") &&
      strcmp (serialized, "torch.ops.aten.item.default") != 0)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (sym_ops); i++)
    if (strcmp (serialized, sym_ops[i].serialized) == 0)
      return sym_ops[i].target;
  return NULL;
}

/* deserialize_node, symbolic branch: named after its one output, every
 * input positional. */
static gboolean
read_sym_node (Reader         *r,
               Pt2Value       *snode,
               const char     *target,
               Pt2Value       *inputs,
               Pt2Value       *outputs,
               const NodeInfo *info)
{
  guint       len = inputs->len;
  Pt2Value   *out0;
  const char *type, *name;
  Pt2Value   *value, *at = NULL;
  GraftArg    args;
  GraftNode  *node;

  if (outputs->len == 0)
    return _graft_pt2_fail (r, _graft_pt2_req (r, snode, "outputs"), GRAFT_PARSE_ERROR_GRAPH,
                            "the symbolic operator %s has no output", target);
  out0 = &outputs->v.items[0];
  if (!_graft_pt2_read_union (r, out0, "an output", &type, &value))
    return FALSE;
  if (strcmp (type, "as_sym_int") != 0 && strcmp (type, "as_sym_bool") != 0 &&
      strcmp (type, "as_sym_float") != 0)
    return _graft_pt2_fail (r, out0, GRAFT_PARSE_ERROR_GRAPH,
                            "the output of the symbolic operator %s must be symbolic, not '%s'",
                            target, type);
  if ((name = output_name (r, value, type, &at)) == NULL)
    return FALSE;
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, len);
  for (guint k = 0; k < len; k++)
    {
      Pt2Value *input = &inputs->v.items[k];
      Pt2Value *arg;

      if (!_graft_pt2_check_object (r, input, "a NamedArgument") ||
          (arg = _graft_pt2_req (r, input, "arg")) == NULL ||
          !_graft_pt2_read_argument (r, arg, &args.items[k]))
        {
          graft_arg_clear (&args);
          return FALSE;
        }
    }
  node = add_node (r, GRAFT_OP_CALL_FUNCTION, graft_graph_intern (r->graph, target), &args, NULL,
                   name, name, NULL, info, at);
  return node != NULL;
}

/* deserialize_node, OpOverload branch, with deserialize_outputs; @target
 * is the graph's copy (node_target()). */
static gboolean
read_op_node (Reader                *r,
              Pt2Value              *snode,
              const char            *target,
              const GraftAtenSchema *schema,
              Pt2Value              *inputs,
              Pt2Value              *outputs,
              const NodeInfo        *info)
{
  static const GraftNodeMeta other = { .kind = GRAFT_VALUE_OTHER };
  guint                      n_outputs = outputs->len;
  Pt2Value                  *out0 = n_outputs > 0 ? &outputs->v.items[0] : NULL;
  const char                *type = NULL, *single_name = NULL, *synced = NULL;
  Pt2Value                  *value = NULL, *at = NULL;
  gboolean                   multiple;
  GraftArg                   args, kwargs;
  GraftNode                 *node;
  g_autofree char           *derived = NULL;

  if (out0 != NULL && !_graft_pt2_read_union (r, out0, "an output", &type, &value))
    return FALSE;
  /* _is_single_tensor_return: then the node is made with that name. */
  if (graft_aten_schema_get_n_returns (schema) == 1)
    {
      if (graft_aten_schema_returns_one_tensor (schema))
        {
          if (out0 == NULL || strcmp (type, "as_tensor") != 0)
            return _graft_pt2_fail (r, out0 != NULL ? out0 : _graft_pt2_req (r, snode, "outputs"),
                                    GRAFT_PARSE_ERROR_GRAPH,
                                    "%s returns one tensor: its output must be "
                                    "'as_tensor'",
                                    target);
          if ((single_name = output_name (r, value, type, &at)) == NULL)
            return FALSE;
        }
    }
  if (!place_inputs (r, schema, target, _graft_pt2_req (r, snode, "inputs"), inputs, &args,
                     &kwargs))
    return FALSE;
  if (single_name == NULL)
    derived = graft_snake_case (graft_aten_schema_get_name (schema), r->dialect);
  if (n_outputs == 1 && strcmp (type, "as_tensor") == 0)
    synced = single_name != NULL ? single_name : output_name (r, value, type, &at);
  else if (n_outputs == 1 && (strcmp (type, "as_sym_int") == 0 ||
                              strcmp (type, "as_sym_bool") == 0 ||
                              strcmp (type, "as_sym_float") == 0))
    synced = output_name (r, value, type, &at);
  if (n_outputs == 1 && synced == NULL &&
      (strcmp (type, "as_tensor") == 0 || strcmp (type, "as_sym_int") == 0 ||
       strcmp (type, "as_sym_bool") == 0 || strcmp (type, "as_sym_float") == 0))
    {
      graft_arg_clear (&args);
      graft_arg_clear (&kwargs);
      return FALSE;
    }
  /* Several outputs (deserialize_multiple_outputs): the node holds a tuple,
   * and a getitem each follows it. */
  multiple = n_outputs > 0 && synced == NULL;
  node = add_node (r, GRAFT_OP_CALL_FUNCTION, target, &args, &kwargs,
                   single_name != NULL ? single_name : derived, synced, multiple ? &other : NULL,
                   info, synced != NULL ? at : snode);
  if (node == NULL)
    return FALSE;
  if (!multiple)
    return TRUE;
  _graft_pt2_nodes_add (&r->by_name, node);
  if (n_outputs == 1)
    {
      Pt2Value *items;

      if (strcmp (type, "as_tensors") != 0)
        return _graft_pt2_fail (r, out0, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                "an output of type '%s' is not supported", type);
      if ((items = _graft_pt2_check_array (r, value, "'as_tensors'")) == NULL)
        return FALSE;
      if (items->len == 0)
        return _graft_pt2_fail (r, value, GRAFT_PARSE_ERROR_GRAPH, "an empty list of outputs");
      return generate_getitems (r, node, items, "as_tensors", info);
    }
  return generate_getitems (r, node, outputs, NULL, info);
}

/* A node's target (the string @value) as a C string, and
 * graft_aten_schema_lookup() of it (%NULL for a symbolic operator, which
 * is not looked up), remembered: a program has few operators and many
 * nodes.  The key is the graph's copy of an operator's target, which is
 * also what is given for it. */
static const char *
node_target (Reader                 *r,
             Pt2Value               *value,
             const GraftAtenSchema **out_schema)
{
  gsize                  len = value->len;
  guint                  hash = _graft_pt2_hash (value->v.s, len);
  GraftNameSlot         *slot = &r->schema_cache[hash & (PT2_SCHEMA_CACHE_SIZE - 1)];
  const GraftAtenSchema *schema;
  const char            *serialized;

  if (slot->key != NULL && slot->hash == hash && slot->len == len &&
      memcmp (slot->key, value->v.s, len) == 0)
    {
      *out_schema = slot->value;
      return slot->key;
    }
  serialized = _graft_pt2_string (r, value);
  *out_schema = NULL;
  if (sym_op_target (serialized) == NULL &&
      (schema = graft_aten_schema_lookup (serialized)) != NULL)
    {
      serialized = graft_graph_intern (r->graph, serialized);
      *slot = (GraftNameSlot){ serialized, hash, (guint) len, (gpointer) schema };
      *out_schema = schema;
    }
  return serialized;
}

static gboolean
read_node (Reader   *r,
           Pt2Value *snode)
{
  const char            *serialized, *target;
  const GraftAtenSchema *schema;
  Pt2Value              *inputs, *outputs;
  Pt2Value              *metadata, *target_value;
  NodeInfo               info;
  gsize                  target_len;

  _graft_pt2_strings_release (r);
  if (!_graft_pt2_check_object (r, snode, "a Node") ||
      _graft_pt2_req_string_len (r, snode, "target", &target_len) == NULL ||
      (inputs = _graft_pt2_req_array (r, snode, "inputs")) == NULL ||
      (outputs = _graft_pt2_req_array (r, snode, "outputs")) == NULL ||
      (metadata = _graft_pt2_req (r, snode, "metadata")) == NULL || !read_info (r, metadata, &info))
    return FALSE;
  target_value = _graft_pt2_opt (snode, "target");
  serialized = node_target (r, target_value, &schema);
  if ((target = sym_op_target (serialized)) != NULL)
    return read_sym_node (r, snode, target, inputs, outputs, &info);
  if (schema != NULL)
    return read_op_node (r, snode, serialized, schema, inputs, outputs, &info);
  if (g_str_has_prefix (serialized, "torch.ops.higher_order."))
    return _graft_pt2_fail (r, _graft_pt2_opt (snode, "target"), GRAFT_PARSE_ERROR_UNSUPPORTED,
                            "higher-order operators such as %s are not supported", serialized);
  if (g_str_has_prefix (serialized, "torch.ops.aten."))
    return _graft_pt2_fail (r, _graft_pt2_opt (snode, "target"), GRAFT_PARSE_ERROR_UNSUPPORTED,
                            "%s is not an operator of torch 2.6's aten schema table", serialized);
  return _graft_pt2_fail (r, _graft_pt2_opt (snode, "target"), GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "unknown operator %s (Graft reads aten operators and symbolic "
                          "arithmetic)",
                          serialized);
}

/* ------------------------------------------------------------------ */
/* Inputs, outputs and the signature */

/* graft_name_for_target() of the placeholder @name: @name itself when
 * snake-casing leaves it as it is (ASCII without an upper-case letter,
 * not wrapped in `__`), as torch's placeholder names nearly always are;
 * otherwise a new string, in *@out_made. */
static const char *
placeholder_candidate (Reader     *r,
                       const char *name,
                       char      **out_made)
{
  const guint64 high = G_GUINT64_CONSTANT (0x8080808080808080);
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  gsize         len = strlen (name), k = 0;

  *out_made = NULL;
  /* Eight bytes at a time: none at or above 0x80, then none from 'A' to
   * 'Z' (each byte's high bit set by adding 0x80 - 'A', not by adding
   * 0x80 - 'Z' - 1; the sums carry into no other byte). */
  for (; k + 8 <= len; k += 8)
    {
      guint64 w;

      memcpy (&w, name + k, 8);
      if ((w & high) != 0 ||
          ((w + (0x80 - 'A') * ones) & ~(w + (0x80 - 'Z' - 1) * ones) & high) != 0)
        return *out_made = graft_name_for_target (GRAFT_OP_PLACEHOLDER, name, r->dialect);
    }
  for (; k < len; k++)
    if ((guchar) name[k] >= 0x80 || g_ascii_isupper (name[k]))
      return *out_made = graft_name_for_target (GRAFT_OP_PLACEHOLDER, name, r->dialect);
  if (len >= 2 && name[0] == '_' && name[1] == '_' && name[len - 2] == '_' &&
      name[len - 1] == '_')
    return *out_made = graft_name_for_target (GRAFT_OP_PLACEHOLDER, name, r->dialect);
  return name;
}

/* The graph's copy of the @i-th graph input's name, the @len bytes at
 * @text: the @i-th input spec's, which the signature has interned, when
 * it is the same (torch names them alike). */
static const char *
input_name (Reader     *r,
            guint       i,
            const char *text,
            gsize       len)
{
  const char *spec = i < r->input_names->len ? r->input_names->pdata[i] : NULL;

  if (spec != NULL && strncmp (spec, text, len) == 0 && spec[len] == '\0')
    return spec;
  return _graft_graph_intern_hashed (r->graph, text, len, _graft_pt2_hash (text, len));
}

static gboolean
read_inputs (Reader   *r,
             Pt2Value *inputs)
{
  guint len = inputs->len;

  for (guint i = 0; i < len; i++)
    {
      Pt2Value        *input = &inputs->v.items[i];
      const char      *type, *name;
      Pt2Value        *value;
      g_autofree char *candidate = NULL;
      gsize            name_len;

      _graft_pt2_strings_release (r);
      if (!_graft_pt2_read_union (r, input, "a graph input", &type, &value))
        return FALSE;
      if (strcmp (type, "as_tensor") == 0 || strcmp (type, "as_custom_obj") == 0)
        {
          if (!_graft_pt2_check_object (r, value, "a graph input") ||
              (name = _graft_pt2_req_string_len (r, value, "name", &name_len)) == NULL)
            return FALSE;
          name = input_name (r, i, name, name_len);
          if (add_node (r, GRAFT_OP_PLACEHOLDER, name, NULL, NULL,
                        placeholder_candidate (r, name, &candidate), name, NULL, NULL,
                        _graft_pt2_opt (value, "name")) == NULL)
            return FALSE;
        }
      else if (strcmp (type, "as_int") == 0 || strcmp (type, "as_float") == 0 ||
               strcmp (type, "as_bool") == 0 || strcmp (type, "as_none") == 0 ||
               strcmp (type, "as_string") == 0)
        {
          /* A constant input: named by its input spec, not synced. */
          GraftNodeMeta    meta = { .kind = GRAFT_VALUE_OTHER };
          GraftArg         constant;
          g_autofree char *text = NULL;

          if (i >= r->input_names->len)
            return _graft_pt2_fail (r, input, GRAFT_PARSE_ERROR_GRAPH,
                                    "graph input %u has no input spec", i);
          name = r->input_names->pdata[i];
          if (strcmp (type, "as_none") == 0)
            graft_arg_init_none (&constant);
          else if (!_graft_pt2_read_scalar (r, value, &constant))
            return FALSE;
          candidate = graft_name_for_target (GRAFT_OP_PLACEHOLDER, name, r->dialect);
          text = graft_arg_repr (&constant, GRAFT_REPR_CODE);
          graft_arg_clear (&constant);
          meta.symbol = _graft_pt2_intern (r, text);
          if (add_node (r, GRAFT_OP_PLACEHOLDER, name, NULL, NULL, candidate, NULL, &meta, NULL,
                        input) == NULL)
            return FALSE;
        }
      else if (strcmp (type, "as_sym_int") == 0 || strcmp (type, "as_sym_float") == 0)
        return _graft_pt2_fail (r, input, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                "a symbolic graph input ('%s'), which torch 2.6 cannot load either",
                                type);
      else
        return _graft_pt2_fail (r, input, GRAFT_PARSE_ERROR_SYNTAX, "invalid graph input type '%s'",
                                type);
    }
  return TRUE;
}

/* deserialize_graph_output: one output as a value of the output node. */
static gboolean
read_output (Reader   *r,
             Pt2Value *output,
             GraftArg *out)
{
  const char *type, *sym_type;
  Pt2Value   *value, *name;

  graft_arg_init_none (out);
  if (!_graft_pt2_read_union (r, output, "a graph output", &type, &value))
    return FALSE;
  if (strcmp (type, "as_tensor") == 0)
    return _graft_pt2_read_tensor_ref (r, value, out);
  if (strcmp (type, "as_sym_int") == 0 || strcmp (type, "as_sym_bool") == 0 ||
      strcmp (type, "as_sym_float") == 0)
    {
      if (!_graft_pt2_read_union (r, value, "a symbolic output", &sym_type, &name))
        return FALSE;
      if (strcmp (sym_type, "as_name") != 0)
        return _graft_pt2_fail (r, value, GRAFT_PARSE_ERROR_SYNTAX,
                                "a graph output must be named ('as_name')");
      return _graft_pt2_lookup_node (r, name, out);
    }
  if (strcmp (type, "as_int") == 0 || strcmp (type, "as_float") == 0)
    return _graft_pt2_read_scalar (r, value, out);
  if (strcmp (type, "as_none") == 0)
    return TRUE;
  return _graft_pt2_fail (r, output, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "a graph output of type '%s' is not supported", type);
}

static gboolean
read_outputs (Reader   *r,
              Pt2Value *graph,
              Pt2Value *outputs)
{
  static const GraftNodeMeta other = { .kind = GRAFT_VALUE_OTHER };
  guint                      len = outputs->len;
  Pt2Value                  *single_node = _graft_pt2_opt (graph, "is_single_tensor_return");
  gboolean                   single = FALSE;
  GraftArg                   args, result;
  GraftNode                 *node;

  if (single_node != NULL &&
      !_graft_pt2_check_bool (r, single_node, "'is_single_tensor_return'", &single))
    return FALSE;
  if (single && len != 1)
    return _graft_pt2_fail (r, single_node, GRAFT_PARSE_ERROR_GRAPH,
                            "a single tensor return with %u outputs", len);
  if (single)
    {
      if (!read_output (r, &outputs->v.items[0], &result))
        return FALSE;
    }
  else
    {
      graft_arg_init_seq (&result, GRAFT_ARG_TUPLE, len);
      for (guint k = 0; k < len; k++)
        if (!read_output (r, &outputs->v.items[k], &result.items[k]))
          {
            graft_arg_clear (&result);
            return FALSE;
          }
    }
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  args.items[0] = result;
  node = add_node (r, GRAFT_OP_OUTPUT, graft_graph_intern (r->graph, "output"), &args, NULL,
                   "output", NULL, NULL, NULL, _graft_pt2_opt (graph, "outputs"));
  if (node == NULL)
    return FALSE;
  if (single && graft_node_get_args (node)->items[0].kind == GRAFT_ARG_NODE)
    graft_node_set_meta (node, graft_node_get_meta (graft_node_get_args (node)->items[0].node));
  else
    graft_node_set_meta (node, &other);
  return TRUE;
}

/* deserialize_argument_spec: an Argument of the signature as torch's
 * ArgumentSpec: its name, its class (%NULL for a TensorArgument) and, for
 * a ConstantArgument, its value. */
static gboolean
read_argument_spec (Reader      *r,
                    Pt2Value    *node,
                    const char **out_name,
                    const char **out_class,
                    char       **out_value)
{
  const char *type;
  Pt2Value   *value;

  *out_name = NULL;
  *out_class = NULL;
  *out_value = NULL;
  if (!_graft_pt2_read_union (r, node, "an Argument", &type, &value))
    return FALSE;
  if (strcmp (type, "as_tensor") == 0)
    return _graft_pt2_check_object (r, value, "a TensorArgument") &&
           (*out_name = _graft_pt2_req_interned (r, value, "name")) != NULL;
  if (strcmp (type, "as_sym_int") == 0 || strcmp (type, "as_sym_float") == 0)
    {
      *out_class = strcmp (type, "as_sym_int") == 0 ? "SymIntArgument" : "SymFloatArgument";
      return (*out_name = output_name (r, value, type, NULL)) != NULL;
    }
  if (strcmp (type, "as_custom_obj") == 0)
    return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_UNSUPPORTED,
                            "a script object as a user input or output is not supported");
  {
    GraftArg arg;

    if (!_graft_pt2_read_argument (r, node, &arg))
      return FALSE;
    *out_name = "";
    *out_class = "ConstantArgument";
    *out_value = graft_arg_repr (&arg, GRAFT_REPR_CODE);
    graft_arg_clear (&arg);
  }
  return TRUE;
}

/* The `name` of the argument object `arg` of a spec. */
static const char *
spec_arg_name (Reader   *r,
               Pt2Value *spec)
{
  Pt2Value *arg = _graft_pt2_req_object (r, spec, "arg");

  return arg != NULL ? _graft_pt2_req_interned (r, arg, "name") : NULL;
}

static gboolean
read_input_spec (Reader       *r,
                 GraftProgram *program,
                 Pt2Value     *node)
{
  static const struct
  {
    const char        *type;
    GraftInputSpecKind kind;
    const char        *target_key;
    const char        *argument;
  } kinds[] = {
    { "parameter", GRAFT_INPUT_SPEC_PARAMETER, "parameter_name", NULL },
    { "buffer", GRAFT_INPUT_SPEC_BUFFER, "buffer_name", NULL },
    { "tensor_constant", GRAFT_INPUT_SPEC_CONSTANT_TENSOR, "tensor_constant_name", NULL },
    { "custom_obj", GRAFT_INPUT_SPEC_CUSTOM_OBJ, "custom_obj_name", "CustomObjArgument" },
    { "token", GRAFT_INPUT_SPEC_TOKEN, NULL, "TokenArgument" },
  };
  GraftInputSpec   spec = { .persistent = -1 };
  g_autofree char *value_text = NULL;
  const char      *type;
  Pt2Value        *value;

  _graft_pt2_strings_release (r);
  if (!_graft_pt2_read_union (r, node, "an InputSpec", &type, &value) ||
      !_graft_pt2_check_object (r, value, "an InputSpec"))
    return FALSE;
  if (strcmp (type, "user_input") == 0)
    {
      Pt2Value *arg = _graft_pt2_req (r, value, "arg");

      spec.kind = GRAFT_INPUT_SPEC_USER_INPUT;
      if (arg == NULL ||
          !read_argument_spec (r, arg, &spec.name, &spec.argument, &value_text))
        return FALSE;
      /* A symbolic input's name is a copy, a constant's "". */
      spec.name = graft_graph_intern (r->graph, spec.name);
    }
  else if (strcmp (type, "constant_input") == 0)
    {
      Pt2Value   *constant = _graft_pt2_req (r, value, "value");
      const char *ctype;
      Pt2Value   *cvalue;
      GraftArg    arg;

      spec.kind = GRAFT_INPUT_SPEC_USER_INPUT;
      spec.argument = "ConstantArgument";
      if ((spec.name = _graft_pt2_req_interned (r, value, "name")) == NULL || constant == NULL ||
          !_graft_pt2_read_union (r, constant, "a ConstantValue", &ctype, &cvalue))
        return FALSE;
      if (strcmp (ctype, "as_none") == 0)
        graft_arg_init_none (&arg);
      else if (strcmp (ctype, "as_int") == 0 || strcmp (ctype, "as_float") == 0 ||
               strcmp (ctype, "as_string") == 0 || strcmp (ctype, "as_bool") == 0)
        {
          if (!_graft_pt2_read_scalar (r, cvalue, &arg))
            return FALSE;
        }
      else
        return _graft_pt2_fail (r, constant, GRAFT_PARSE_ERROR_SYNTAX,
                                "a ConstantValue has no field '%s'", ctype);
      value_text = graft_arg_repr (&arg, GRAFT_REPR_CODE);
      graft_arg_clear (&arg);
    }
  else
    {
      guint       k;
      Pt2Value   *arg;
      const char *name, *target = NULL;
      gsize       name_len, target_len = 0;
      guint       name_hash, target_hash = 0;

      for (k = 0; k < G_N_ELEMENTS (kinds); k++)
        if (strcmp (type, kinds[k].type) == 0)
          break;
      if (k == G_N_ELEMENTS (kinds))
        return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "unknown input spec '%s'", type);
      spec.kind = kinds[k].kind;
      spec.argument = kinds[k].argument;
      if ((arg = _graft_pt2_req_object (r, value, "arg")) == NULL ||
          (name = _graft_pt2_req_string_len (r, arg, "name", &name_len)) == NULL)
        return FALSE;
      if (kinds[k].target_key != NULL &&
          (target = _graft_pt2_req_string_len (r, value, kinds[k].target_key, &target_len)) ==
              NULL)
        return FALSE;
      /* Both met once in the program: their misses in the graph's table
       * overlap. */
      name_hash = _graft_pt2_intern_prepare (r, name, name_len);
      if (target != NULL)
        target_hash = _graft_pt2_intern_prepare (r, target, target_len);
      spec.name = _graft_pt2_intern_hashed (r, name, name_len, name_hash);
      if (target != NULL)
        spec.target = _graft_pt2_intern_hashed (r, target, target_len, target_hash);
      if (spec.kind == GRAFT_INPUT_SPEC_CUSTOM_OBJ &&
          (spec.value =
               _graft_pt2_req_interned (r, _graft_pt2_req (r, value, "arg"), "class_fqn")) == NULL)
        return FALSE;
      if (spec.kind == GRAFT_INPUT_SPEC_BUFFER)
        {
          Pt2Value *persistent = _graft_pt2_req (r, value, "persistent");
          gboolean  b;

          if (persistent == NULL || !_graft_pt2_check_bool (r, persistent, "'persistent'", &b))
            return FALSE;
          spec.persistent = b ? 1 : 0;
        }
    }
  /* Every string the graph's copy: the name, target and class interned
   * as read, a constant's text here. */
  spec.argument = spec.argument != NULL ? graft_graph_intern (r->graph, spec.argument) : NULL;
  if (value_text != NULL)
    spec.value = graft_graph_intern (r->graph, value_text);
  _graft_program_add_input_interned (program, &spec);
  /* The name as the program interned it in the graph. */
  g_ptr_array_add (r->input_names,
                   (gpointer) graft_program_get_input (program,
                                                       graft_program_get_n_inputs (program) - 1)
                       ->name);
  return TRUE;
}

static gboolean
read_output_spec (Reader       *r,
                  GraftProgram *program,
                  Pt2Value     *node)
{
  static const struct
  {
    const char         *type;
    GraftOutputSpecKind kind;
    const char         *target_key;
    const char         *argument;
  } kinds[] = {
    { "loss_output", GRAFT_OUTPUT_SPEC_LOSS_OUTPUT, NULL, NULL },
    { "buffer_mutation", GRAFT_OUTPUT_SPEC_BUFFER_MUTATION, "buffer_name", NULL },
    { "gradient_to_parameter", GRAFT_OUTPUT_SPEC_GRADIENT_TO_PARAMETER, "parameter_name", NULL },
    { "gradient_to_user_input", GRAFT_OUTPUT_SPEC_GRADIENT_TO_USER_INPUT, "user_input_name",
      NULL },
    { "user_input_mutation", GRAFT_OUTPUT_SPEC_USER_INPUT_MUTATION, "user_input_name", NULL },
    { "token", GRAFT_OUTPUT_SPEC_TOKEN, NULL, "TokenArgument" },
  };
  GraftOutputSpec  spec = { 0 };
  g_autofree char *value_text = NULL;
  const char      *type;
  Pt2Value        *value;

  if (!_graft_pt2_read_union (r, node, "an OutputSpec", &type, &value) ||
      !_graft_pt2_check_object (r, value, "an OutputSpec"))
    return FALSE;
  if (strcmp (type, "user_output") == 0)
    {
      Pt2Value *arg = _graft_pt2_req (r, value, "arg");

      spec.kind = GRAFT_OUTPUT_SPEC_USER_OUTPUT;
      if (arg == NULL ||
          !read_argument_spec (r, arg, &spec.name, &spec.argument, &value_text))
        return FALSE;
      spec.value = value_text;
    }
  else
    {
      guint k;

      for (k = 0; k < G_N_ELEMENTS (kinds); k++)
        if (strcmp (type, kinds[k].type) == 0)
          break;
      if (k == G_N_ELEMENTS (kinds))
        return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "unknown output spec '%s'",
                                type);
      spec.kind = kinds[k].kind;
      spec.argument = kinds[k].argument;
      if ((spec.name = spec_arg_name (r, value)) == NULL)
        return FALSE;
      if (kinds[k].target_key != NULL &&
          (spec.target = _graft_pt2_req_interned (r, value, kinds[k].target_key)) == NULL)
        return FALSE;
    }
  graft_program_add_output (program, &spec);
  return TRUE;
}

static gboolean
read_signature (Reader   *r,
                Pt2Value *graph_module)
{
  GraftProgram *program = graft_graph_ensure_program (r->graph);
  Pt2Value     *signature = _graft_pt2_req_object (r, graph_module, "signature");
  Pt2Value     *specs;

  if (signature == NULL || (specs = _graft_pt2_req_array (r, signature, "input_specs")) == NULL)
    return FALSE;
  for (guint k = 0; k < specs->len; k++)
    if (!read_input_spec (r, program, &specs->v.items[k]))
      return FALSE;
  if ((specs = _graft_pt2_req_array (r, signature, "output_specs")) == NULL)
    return FALSE;
  for (guint k = 0; k < specs->len; k++)
    if (!read_output_spec (r, program, &specs->v.items[k]))
      return FALSE;
  return TRUE;
}

/* One end of a range: the number, or torch's `int_oo` for none. */
static gboolean
append_bound (Reader     *r,
              Pt2Value   *range,
              const char *key,
              const char *unbounded)
{
  Pt2Value *bound = _graft_pt2_opt (range, key);
  GraftArg  arg;

  if (bound == NULL || (bound)->type == PT2_NULL)
    {
      g_string_append (r->scratch, unbounded);
      return TRUE;
    }
  if (!_graft_pt2_read_scalar (r, bound, &arg))
    return FALSE;
  graft_arg_append_repr (r->scratch, &arg, GRAFT_REPR_CODE, NULL, NULL);
  graft_arg_clear (&arg);
  return TRUE;
}

/* `{s0: VR[2, 64]}`: the ranges of the expressions the graph uses (its
 * symbols, `4*s4`), as
 * `print(ep)` shows them (ExportedProgramDeserializer drops the others). */
static gboolean
read_range_constraints (Reader   *r,
                        Pt2Value *ranges)
{
  gboolean first = TRUE, ok = TRUE;

  g_string_assign (r->scratch, "{");
  for (guint m = 0; m < ranges->len && ok; m++)
    {
      const char *key = ranges->v.members[m].key;
      Pt2Value   *range = &ranges->v.members[m].value;

      if (!g_hash_table_contains (r->symbols, key))
        continue;
      if (!_graft_pt2_check_object (r, range, "a RangeConstraint"))
        {
          ok = FALSE;
          break;
        }
      if (!first)
        g_string_append (r->scratch, ", ");
      first = FALSE;
      g_string_append_printf (r->scratch, "%s: VR[", key);
      ok = append_bound (r, range, "min_val", "-int_oo");
      g_string_append (r->scratch, ", ");
      ok = ok && append_bound (r, range, "max_val", "int_oo");
      g_string_append_c (r->scratch, ']');
    }
  if (!ok)
    return FALSE;
  g_string_append_c (r->scratch, '}');
  graft_program_set_range_constraints (graft_graph_get_program (r->graph), r->scratch->str);
  return TRUE;
}

static gboolean
check_schema_version (Reader   *r,
                      Pt2Value *root)
{
  Pt2Value *version = _graft_pt2_req_object (r, root, "schema_version");
  gint64    major, minor;

  if (version == NULL || !_graft_pt2_req_int (r, version, "major", &major) ||
      !_graft_pt2_req_int (r, version, "minor", &minor))
    return FALSE;
  if (major != SCHEMA_MAJOR && !(major == 0 && minor == 0))
    return _graft_pt2_fail (r, _graft_pt2_opt (version, "major"), GRAFT_PARSE_ERROR_UNSUPPORTED,
                            "serialized schema version SchemaVersion(major=%" G_GINT64_FORMAT
                            ", minor=%" G_GINT64_FORMAT
                            ") does not match our current schema version "
                            "(%d, %d)",
                            major, minor, SCHEMA_MAJOR, SCHEMA_MINOR);
  return TRUE;
}

/* The number of items of the list @key of the object @obj, or 0. */
static guint
list_len (Pt2Value   *obj,
          const char *key)
{
  Pt2Value *list = obj != NULL && obj->type == PT2_OBJECT ? _graft_pt2_opt (obj, key) : NULL;

  return list != NULL && list->type == PT2_ARRAY ? list->len : 0;
}

/* Room made at once in the graph's namespace and interned texts for what
 * the program will put there (nothing is checked: the readers do that):
 * a node's name each; each placeholder's name and target, and about three
 * unique texts of each operator's metadata (`torch_fn`, `source_fn_stack`,
 * its own module frame's key and path).  Grown one step at a time, each
 * table was copied whole some twenty times, its entries read again at
 * random places. */
static void
reserve_tables (Reader   *r,
                Pt2Value *graph_module)
{
  Pt2Value *graph = _graft_pt2_opt (graph_module, "graph");
  Pt2Value *signature = _graft_pt2_opt (graph_module, "signature");
  guint     n_inputs = list_len (graph, "inputs");
  guint     n_nodes = list_len (graph, "nodes");
  guint     n_specs = list_len (signature, "input_specs");
  /* A file that only says it has many (`[{}, {}, ...]`) does not get a
   * table much larger than its text. */
  guint64 most = MIN (graft_source_get_length (r->member) / 32, GRAFT_MAX_NODES);

  _graft_namespace_reserve (graft_graph_get_namespace (r->graph),
                            (guint) MIN (n_inputs + (guint64) n_nodes + 1, most));
  _graft_graph_reserve_interned (r->graph,
                                 (guint) MIN (2 * (guint64) n_specs + 3 * (guint64) n_nodes, most));
}

/* ExportedProgramDeserializer.deserialize, as far as the graph module. */
static gboolean
read_program (Reader   *r,
              Pt2Value *root)
{
  Pt2Value *ranges, *graph_module, *graph;
  Pt2Value *inputs, *nodes, *outputs;

  if (!_graft_pt2_check_object (r, root, "the program") || !check_schema_version (r, root) ||
      (ranges = _graft_pt2_req_object (r, root, "range_constraints")) == NULL ||
      (graph_module = _graft_pt2_req_object (r, root, "graph_module")) == NULL)
    return FALSE;
  reserve_tables (r, graph_module);
  /* The tensors' texts are made meanwhile. */
  _graft_pt2_values_start (r, graph_module);
  if (!read_signature (r, graph_module) ||
      (graph = _graft_pt2_req_object (r, graph_module, "graph")) == NULL ||
      !_graft_pt2_read_values (r, graph) ||
      (inputs = _graft_pt2_req_array (r, graph, "inputs")) == NULL ||
      (nodes = _graft_pt2_req_array (r, graph, "nodes")) == NULL ||
      (outputs = _graft_pt2_req_array (r, graph, "outputs")) == NULL || !read_inputs (r, inputs))
    return FALSE;
  for (guint k = 0; k < nodes->len; k++)
    {
      if (!read_node (r, &nodes->v.items[k]))
        return FALSE;
      /* The nodes read are not read again: their values' memory goes as
       * the graph grows.  The caches keyed by texts of the tree forget. */
      if (k + 1 < nodes->len &&
          _graft_pt2_tree_release (r->tree, nodes, nodes->v.items[k + 1].offset))
        {
          memset (r->frame_cache, 0, PT2_CACHE_SIZE * sizeof (GraftNameSlot));
          memset (r->schema_cache, 0, PT2_SCHEMA_CACHE_SIZE * sizeof (GraftNameSlot));
        }
    }
  if (!read_outputs (r, graph, outputs))
    return FALSE;

  /* What torch's namespace holds and no node is named stays taken. */
  for (guint k = 0; k < r->reserved->len; k++)
    {
      GraftNamespace *names = graft_graph_get_namespace (r->graph);

      if (!graft_namespace_contains (names, r->reserved->pdata[k]))
        graft_namespace_create_name (names, r->reserved->pdata[k], GRAFT_NAME_DEFAULT);
    }
  if (!read_range_constraints (r, ranges))
    return FALSE;
  /* torch's namespace no longer holds what the graph's does: the names the
   * graph makes from now on come from it. */
  if (r->shadow != NULL)
    _graft_graph_set_torch_names (r->graph, g_steal_pointer (&r->shadow));
  graft_graph_set_module_name (r->graph, "GraphModule");
  return TRUE;
}

/* The JSON member parsed while its CRC is checked: a syntax error counts
 * only once the member is known to be read right; otherwise the error is
 * the archive's, as when the member was read whole before parsing. */
static Pt2Value *
parse_checked (Reader *r)
{
  GError  **outer = r->error;
  GError   *parse_error = NULL;
  Pt2Value *root;

  r->error = &parse_error;
  root = _graft_pt2_parse_json (r);
  r->error = outer;
  switch (_graft_pt2_archive_wait (r))
    {
    case PT2_CHECKED:
      if (parse_error != NULL)
        g_propagate_error (outer, parse_error);
      return root;
    case PT2_REREAD:
      g_clear_error (&parse_error);
      g_clear_pointer (&r->tree, _graft_pt2_tree_free);
      return _graft_pt2_parse_json (r);
    case PT2_CHECK_FAILED:
    default:
      g_clear_error (&parse_error);
      return NULL;
    }
}

/* graft_pt2_read(); with @out_kept, the parsed JSON tree is not freed but
 * handed over (to _graft_pt2_tree_free()), for callers that would only
 * free it just before they exit. */
GraftGraph *
_graft_pt2_read_keeping (GraftSource        *source,
                         const GraftDialect *dialect,
                         Pt2Tree           **out_kept,
                         GError            **error)
{
  Reader      r = { 0 };
  Pt2Value   *root;
  GraftGraph *result = NULL;

  g_return_val_if_fail (source != NULL && dialect != NULL, NULL);

  if (!graft_program_check_dialect (dialect, graft_source_get_filename (source), error))
    return NULL;
  r.dialect = dialect;
  r.archive_name = graft_source_get_filename (source);
  r.error = error;
  r.graph = graft_graph_new (dialect);
  r.expr_texts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r.symbols = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r.frame_pool = g_array_new (FALSE, FALSE, sizeof (GraftModuleFrame));
  r.node_frames = g_array_new (FALSE, FALSE, sizeof (GraftModuleFrame));
  r.frame_text = g_string_new (NULL);
  r.reserved = g_ptr_array_new ();
  r.input_names = g_ptr_array_new ();
  r.scratch = g_string_new (NULL);
  r.place_values = g_array_new (FALSE, TRUE, sizeof (GraftArg));
  r.place_names = g_ptr_array_new ();
  r.place_args = g_array_new (FALSE, TRUE, sizeof (GraftArg));
  r.place_kwargs = g_array_new (FALSE, TRUE, sizeof (GraftArg));
  _graft_pt2_nodes_init (&r.by_name);
  _graft_pt2_values_init (&r.values);
  r.string_cache = g_new0 (GraftNameSlot, PT2_CACHE_SIZE);
  r.frame_cache = g_new0 (GraftNameSlot, PT2_CACHE_SIZE);
  r.schema_cache = g_new0 (GraftNameSlot, PT2_SCHEMA_CACHE_SIZE);

  if (_graft_pt2_read_archive (&r, source) && (root = parse_checked (&r)) != NULL &&
      read_program (&r, root))
    {
      result = g_steal_pointer (&r.graph);
      if (out_kept != NULL)
        *out_kept = g_steal_pointer (&r.tree);
    }

  _graft_pt2_values_stop (&r);
  _graft_pt2_archive_clear (&r);
  if (!_graft_source_is_intact (source))
    {
      /* A mapped archive that shrank (part of it read as zeros) or was
       * written since it was mapped: whatever came of it may not be the
       * file's as it was opened. */
      g_clear_pointer (&result, graft_graph_free);
      if (out_kept != NULL)
        g_clear_pointer (out_kept, _graft_pt2_tree_free);
      g_clear_error (error);
      graft_set_file_error (error, r.archive_name, GRAFT_ERROR_IO,
                            "cannot read the file: it changed on disk after it was opened");
    }
  g_string_free (r.scratch, TRUE);
  g_array_unref (r.place_kwargs);
  g_array_unref (r.place_args);
  g_ptr_array_unref (r.place_names);
  g_array_unref (r.place_values);
  g_ptr_array_unref (r.input_names);
  g_ptr_array_unref (r.reserved);
  g_string_free (r.frame_text, TRUE);
  g_array_unref (r.node_frames);
  g_array_unref (r.frame_pool);
  g_free (r.schema_cache);
  g_free (r.frame_cache);
  g_free (r.string_cache);
  g_hash_table_unref (r.symbols);
  g_hash_table_unref (r.expr_texts);
  _graft_pt2_values_clear (&r.values);
  _graft_pt2_nodes_clear (&r.by_name);
  g_clear_pointer (&r.shadow, graft_namespace_free);
  g_clear_pointer (&r.graph, graft_graph_free);
  /* A large tree's memory is given back on a thread: the graph is wanted. */
  if (r.tree != NULL && r.member != NULL &&
      graft_source_get_length (r.member) >= PT2_FREE_ASIDE_BYTES)
    _graft_pt2_tree_free_aside (g_steal_pointer (&r.tree));
  g_clear_pointer (&r.tree, _graft_pt2_tree_free);
  g_clear_pointer (&r.member, graft_source_unref);
  g_clear_pointer (&r.strings, g_ptr_array_unref);
  return result;
}

/**
 * graft_pt2_read:
 * @source: the bytes of a `.pt2` archive
 * @dialect: the torch to read for: one with torch.export (2.6)
 * @error: return location for a #GRAFT_PARSE_ERROR, placed in the JSON
 *   member (`m.pt2:serialized_exported_program.json:LINE:COL`) or, for
 *   the archive itself, at `m.pt2:1:1`
 *
 * Reads the program the archive holds into the graph torch 2.6's
 * `torch.export.load(path).graph_module` holds, with node metadata, the
 * graph signature and the range constraints (graft-meta.h).
 *
 * Returns: (transfer full) (nullable): the graph, or %NULL with @error set
 */
GraftGraph *
graft_pt2_read (GraftSource        *source,
                const GraftDialect *dialect,
                GError            **error)
{
  return _graft_pt2_read_keeping (source, dialect, NULL, error);
}
