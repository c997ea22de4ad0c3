/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-dot-import-graft.c: Graft's own DOT (graft-dot-writer.c) back into
 * the graph it was written from: every node's graft_* attributes, values
 * read by the shared value reader (graft-value-reader.c), escaped text by
 * graft-dot-escape.c.  graft-dot-reader.c gives the rules.  A program's
 * node metadata and its signature (graph attributes) come back too, as
 * graft-dot-writer.c describes them.
 */
#include "config.h"

#include "graft-dot-importer-private.h"
#include "graft-arg.h"
#include "graft-dot-escape-private.h"
#include "graft-graph.h"
#include "graft-graph-private.h"
#include "graft-limits.h"
#include "graft-meta-values-private.h"
#include "graft-program-text-private.h"
#include "graft-namespace.h"
#include "graft-source.h"
#include "graft-value-reader-private.h"

#include <string.h>

/* A `%name` in a value: a GRAFT_ARG_NODE with a NULL node and `n` the
 * referenced document node's index, linked once every node exists. */
static gboolean
find_ref (GraftValueReader *vr,
          gsize             start,
          gsize             name_start,
          gsize             end,
          GraftArg         *out)
{
  GHashTable      *index = vr->user_data;
  g_autofree char *name = NULL;
  guint            found;

  if (end - name_start > GRAFT_MAX_NAME_LENGTH)
    return _graft_value_fail (vr, start, start, GRAFT_PARSE_ERROR_SYNTAX,
                              "the node name is too long");
  name = g_strndup (vr->text + name_start, end - name_start);
  found = GPOINTER_TO_UINT (g_hash_table_lookup (index, name));
  if (found == 0)
    return _graft_value_fail (vr, start, start, GRAFT_PARSE_ERROR_SYNTAX,
                              "'%%%s' is not a node of the graph", name);
  graft_arg_init_node (out, NULL);
  out->n = found - 1;
  return TRUE;
}

/* Where an attribute is: document node @i, or the graph when @i < 0. */
#define GRAPH_ATTR (-1)

/* A located error about attribute @attr of document node @i (at the
 * node), or of the graph (at the attribute), the message starting with
 * `ATTR of 'NODE'` or `ATTR of the graph`. */
static void
attr_error (Importer           *im,
            gint                i,
            const char         *attr,
            GError            **error,
            GraftParseErrorCode code,
            const char         *format,
            ...) G_GNUC_PRINTF (6, 7);

static void
attr_error (Importer           *im,
            gint                i,
            const char         *attr,
            GError            **error,
            GraftParseErrorCode code,
            const char         *format,
            ...)
{
  va_list          ap;
  g_autofree char *rest = NULL;
  Span             span = { 0 };

  va_start (ap, format);
  rest = g_strdup_vprintf (format, ap);
  va_end (ap);
  if (i >= 0)
    {
      _graft_dot_node_error (im, (guint) i, error, code, "%s of '%s'%s", attr,
                             doc_node (im, (guint) i)->name, rest);
      return;
    }
  _graft_dot_find_graph_attr_span (graft_source_get_text (im->source),
                                   graft_source_get_length (im->source), attr, &span);
  graft_set_error_at_offset (error, im->source, span.start, span.end, code, "%s of the graph%s",
                             attr, rest);
}

/* A `%name` in a graph attribute, which names no node. */
static gboolean
refuse_ref (GraftValueReader *vr,
            gsize             start,
            gsize             name_start,
            gsize             end,
            GraftArg         *out)
{
  (void) name_start;
  (void) end;
  (void) out;
  return _graft_value_fail (vr, start, start, GRAFT_PARSE_ERROR_SYNTAX,
                            "a graph attribute names no node");
}

/* Reads attribute @attr of document node @i (or of the graph) as a
 * value. */
static gboolean
read_attr_value (Importer   *im,
                 gint        i,
                 const char *attr,
                 const char *text,
                 GraftArg   *out,
                 GError    **error)
{
  GraftValueReader vr;
  GraftArg         value;
  gboolean         ok = FALSE;

  _graft_value_reader_init (&vr, text, i >= 0 ? find_ref : refuse_ref, im->index);
  vr.end = strlen (text);
  if (!_graft_value_read (&vr, GRAFT_VALUE_DOT, &value))
    attr_error (im, i, attr, error, GRAFT_PARSE_ERROR_SYNTAX, ": %s at character %ld", vr.message,
                g_utf8_strlen (text, (gssize) vr.fail_start) + 1);
  else
    {
      _graft_value_skip_blanks (&vr);
      if (vr.pos < vr.end)
        {
          graft_arg_clear (&value);
          attr_error (im, i, attr, error, GRAFT_PARSE_ERROR_SYNTAX,
                      ": unexpected text at character %ld",
                      g_utf8_strlen (text, (gssize) vr.pos) + 1);
        }
      else
        {
          *out = value;
          ok = TRUE;
        }
    }
  _graft_value_reader_clear (&vr);
  return ok;
}

/* Reads the escaped text of attribute @attr of document node @i (or of
 * the graph). */
static char *
read_attr_text (Importer   *im,
                gint        i,
                const char *attr,
                const char *text,
                GError    **error)
{
  g_autoptr (GString) buf = g_string_new (NULL);
  const char *end = NULL;
  const char *message = NULL;

  if (!_graft_dot_read_escaped (text, text + strlen (text), 0, buf, &end, &message))
    {
      attr_error (im, i, attr, error, GRAFT_PARSE_ERROR_SYNTAX, ": %s at character %ld", message,
                  g_utf8_strlen (text, end - text) + 1);
      return NULL;
    }
  if (strlen (buf->str) != buf->len)
    {
      attr_error (im, i, attr, error, GRAFT_PARSE_ERROR_SYNTAX, " holds a NUL character");
      return NULL;
    }
  return g_string_free (g_steal_pointer (&buf), FALSE);
}

/* Points the references in @arg at the nodes they name. */
static void
link_refs (GraftArg   *arg,
           GraftNode **nodes)
{
  guint n_items;

  if (arg->kind == GRAFT_ARG_NODE)
    {
      arg->node = nodes[arg->n];
      arg->n = 0;
      return;
    }
  n_items = graft_arg_count_items (arg);
  for (guint i = 0; i < n_items; i++)
    link_refs (&arg->items[i], nodes);
}

/* The text attributes of a node's metadata, in the order they are read,
 * with where each goes in a #GraftNodeMeta. */
static const struct
{
  const char *attr;
  gsize       offset;
} meta_texts[] = {
  { "graft_dtype", G_STRUCT_OFFSET (GraftNodeMeta, dtype) },
  { "graft_shape", G_STRUCT_OFFSET (GraftNodeMeta, shape) },
  { "graft_stride", G_STRUCT_OFFSET (GraftNodeMeta, stride) },
  { "graft_device", G_STRUCT_OFFSET (GraftNodeMeta, device) },
  { "graft_symbol", G_STRUCT_OFFSET (GraftNodeMeta, symbol) },
  { "graft_stack_trace", G_STRUCT_OFFSET (GraftNodeMeta, stack_trace) },
  { "graft_source_fn_stack", G_STRUCT_OFFSET (GraftNodeMeta, source_fn_stack) },
  { "graft_torch_fn", G_STRUCT_OFFSET (GraftNodeMeta, torch_fn) },
};

/* One Graft node, read but not yet made. */
typedef struct
{
  /* Owned */
  char    *target;
  char    *type;        /* nullable */
  char    *shared_name; /* nullable: graft_name, the name the node shares */
  GraftArg args;
  GraftArg kwargs;
  /* The metadata: texts (each nullable), the module stack's value (or
   * None) and its frames (nullable; strings borrowed from modules). */
  char             *meta_texts[G_N_ELEMENTS (meta_texts)];
  GraftArg          modules;
  GraftModuleFrame *frames;

  GraftOp        op;
  gboolean       is_wrapped;
  gboolean       has_meta;
  GraftValueKind kind;
  guint          n_frames;
} Record;

static void
record_clear (Record *rec)
{
  g_free (rec->target);
  g_free (rec->type);
  g_free (rec->shared_name);
  graft_arg_clear (&rec->args);
  graft_arg_clear (&rec->kwargs);
  for (guint i = 0; i < G_N_ELEMENTS (meta_texts); i++)
    g_free (rec->meta_texts[i]);
  graft_arg_clear (&rec->modules);
  g_free (rec->frames);
}

/* Reads the metadata attributes of document node @i (graft-dot-writer.c):
 * none at all, or `graft_kind` and any of the others. */
static gboolean
read_meta (Importer *im,
           guint     i,
           Record   *rec,
           GError  **error)
{
  GraftGvDocNode  *dn = doc_node (im, i);
  const char      *kind = _graft_gv_doc_node_get (dn, "graft_kind");
  const char      *modules = _graft_gv_doc_node_get (dn, "graft_module_stack");
  g_autofree char *message = NULL;

  graft_arg_init_none (&rec->modules);
  if (kind == NULL)
    {
      const char *other = modules != NULL ? "graft_module_stack" : NULL;

      for (guint k = 0; k < G_N_ELEMENTS (meta_texts) && other == NULL; k++)
        if (_graft_gv_doc_node_get (dn, meta_texts[k].attr) != NULL)
          other = meta_texts[k].attr;
      if (other == NULL)
        return TRUE;
      _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                             "%s of '%s' needs graft_kind (the kind of value its metadata "
                             "describes)",
                             other, dn->name);
      return FALSE;
    }
  if (!_graft_value_kind_from_string (kind, &rec->kind))
    {
      _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_SYNTAX,
                             "graft_kind of '%s' must be tensor, symbol, other or unknown, not "
                             "'%s'",
                             dn->name, kind);
      return FALSE;
    }
  rec->has_meta = TRUE;
  for (guint k = 0; k < G_N_ELEMENTS (meta_texts); k++)
    {
      const char *text = _graft_gv_doc_node_get (dn, meta_texts[k].attr);

      if (text != NULL && (rec->meta_texts[k] = read_attr_text (im, (gint) i, meta_texts[k].attr,
                                                                text, error)) == NULL)
        return FALSE;
    }
  if (modules == NULL)
    return TRUE;
  if (!read_attr_value (im, (gint) i, "graft_module_stack", modules, &rec->modules, error))
    return FALSE;
  if (!_graft_meta_modules_from_arg (&rec->modules, &rec->frames, &rec->n_frames, &message))
    {
      _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                             "graft_module_stack of '%s'%s%s", dn->name,
                             g_str_has_prefix (message, "must ") ? " " : ": ", message);
      return FALSE;
    }
  return TRUE;
}

/* The metadata @rec read, for graft_node_set_meta(). */
static void
record_get_meta (const Record  *rec,
                 GraftNodeMeta *meta)
{
  memset (meta, 0, sizeof *meta);
  meta->kind = rec->kind;
  for (guint k = 0; k < G_N_ELEMENTS (meta_texts); k++)
    G_STRUCT_MEMBER (const char *, meta, meta_texts[k].offset) = rec->meta_texts[k];
  meta->n_modules = rec->n_frames;
  meta->modules = rec->frames;
}

/* graft_name of document node @i: the name it shares with the node whose
 * DOT id it is (graft-dot-writer.c gives a second node of one name an id
 * of its own). */
static gboolean
read_shared_name (Importer   *im,
                  guint       i,
                  const char *text,
                  Record     *rec,
                  GError    **error)
{
  GraftGvDocNode *dn = doc_node (im, i);
  guint           owner;

  rec->shared_name = read_attr_text (im, (gint) i, "graft_name", text, error);
  if (rec->shared_name == NULL)
    return FALSE;
  owner = GPOINTER_TO_UINT (g_hash_table_lookup (im->index, rec->shared_name));
  if (owner == 0 || owner - 1 == i ||
      _graft_gv_doc_node_get (doc_node (im, owner - 1), "graft_name") != NULL)
    {
      _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                             "graft_name of '%s' is '%s', the id of no other node that goes by "
                             "its own name (a second node of one name has an id of its own, "
                             "and the first's id as graft_name)",
                             dn->name, rec->shared_name);
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_record (Importer *im,
             guint     i,
             Record   *rec,
             GError  **error)
{
  GraftGvDocNode *dn = doc_node (im, i);
  const char     *op = _graft_gv_doc_node_get (dn, "graft_op");
  const char     *target = _graft_gv_doc_node_get (dn, "graft_target");
  const char     *args = _graft_gv_doc_node_get (dn, "graft_args");
  const char     *kwargs = _graft_gv_doc_node_get (dn, "graft_kwargs");
  const char     *type = _graft_gv_doc_node_get (dn, "graft_type");
  const char     *wrapped = _graft_gv_doc_node_get (dn, "graft_wrapped");
  const char     *shared = _graft_gv_doc_node_get (dn, "graft_name");
  gsize           name_len = strlen (dn->name);

  graft_arg_init_seq (&rec->args, GRAFT_ARG_TUPLE, 0);
  graft_arg_init_dict (&rec->kwargs, 0);
  if (!graft_op_from_string (op, strlen (op), &rec->op))
    {
      _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH, "unknown graft_op '%s' of '%s'",
                             op, dn->name);
      return FALSE;
    }
  if (name_len > GRAFT_MAX_NAME_LENGTH)
    {
      _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_LIMIT,
                             "the node name is longer than %u bytes", GRAFT_MAX_NAME_LENGTH);
      return FALSE;
    }
  if (!graft_is_python_identifier (dn->name) || graft_is_python_keyword (dn->name))
    {
      _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                             "'%s' cannot name a node (a Graft node name is a Python identifier)",
                             dn->name);
      return FALSE;
    }
  if (shared != NULL && !read_shared_name (im, i, shared, rec, error))
    return FALSE;
  rec->target =
      target != NULL ? read_attr_text (im, (gint) i, "graft_target", target, error) : g_strdup ("");
  if (rec->target == NULL)
    return FALSE;
  if (type != NULL &&
      (rec->type = read_attr_text (im, (gint) i, "graft_type", type, error)) == NULL)
    return FALSE;
  if (wrapped != NULL)
    {
      if (strcmp (wrapped, "true") != 0 && strcmp (wrapped, "false") != 0)
        {
          _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_SYNTAX,
                                 "graft_wrapped of '%s' must be true or false", dn->name);
          return FALSE;
        }
      rec->is_wrapped = wrapped[0] == 't';
    }
  if (args != NULL)
    {
      graft_arg_clear (&rec->args);
      if (!read_attr_value (im, (gint) i, "graft_args", args, &rec->args, error))
        return FALSE;
      if (rec->args.kind != GRAFT_ARG_TUPLE)
        {
          _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                                 "graft_args of '%s' must be a tuple", dn->name);
          return FALSE;
        }
    }
  if (!read_meta (im, i, rec, error))
    return FALSE;
  if (kwargs != NULL)
    {
      graft_arg_clear (&rec->kwargs);
      if (!read_attr_value (im, (gint) i, "graft_kwargs", kwargs, &rec->kwargs, error))
        return FALSE;
      if (rec->kwargs.kind != GRAFT_ARG_DICT)
        {
          _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                                 "graft_kwargs of '%s' must be a dict", dn->name);
          return FALSE;
        }
      for (guint k = 0; k < rec->kwargs.n; k++)
        if (rec->kwargs.items[2 * k].kind != GRAFT_ARG_STR)
          {
            _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                                   "graft_kwargs of '%s' must have str keys", dn->name);
            return FALSE;
          }
    }
  return TRUE;
}

/* Reads a list-of-dicts signature attribute into @program. */
static gboolean
read_signature (Importer     *im,
                const char   *attr,
                const char   *text,
                GraftProgram *program,
                GError      **error)
{
  GraftArg         value;
  g_autofree char *message = NULL;
  gboolean         ok;

  if (!read_attr_value (im, GRAPH_ATTR, attr, text, &value, error))
    return FALSE;
  ok = strcmp (attr, "graft_inputs") == 0
           ? _graft_program_inputs_from_arg (program, &value, &message)
           : _graft_program_outputs_from_arg (program, &value, &message);
  graft_arg_clear (&value);
  if (!ok)
    attr_error (im, GRAPH_ATTR, attr, error, GRAFT_PARSE_ERROR_GRAPH, "%s%s",
                g_str_has_prefix (message, "must ") ? " " : ": ", message);
  return ok;
}

/* The graph's own attributes: the class name, and a program's signature
 * (both lists or neither). */
static gboolean
read_graph_attrs (Importer   *im,
                  GraftGraph *graph,
                  GError    **error)
{
  const GraftGvDocNode *attrs = im->doc->graph_attrs;
  const char           *module, *inputs, *outputs, *ranges;
  GraftProgram         *program;

  if (attrs == NULL)
    return TRUE;
  module = _graft_gv_doc_node_get (attrs, "graft_module");
  inputs = _graft_gv_doc_node_get (attrs, "graft_inputs");
  outputs = _graft_gv_doc_node_get (attrs, "graft_outputs");
  ranges = _graft_gv_doc_node_get (attrs, "graft_range_constraints");
  if (module != NULL)
    {
      g_autofree char *name = read_attr_text (im, GRAPH_ATTR, "graft_module", module, error);

      if (name == NULL)
        return FALSE;
      graft_graph_set_module_name (graph, name);
    }
  if (inputs == NULL && outputs == NULL && ranges == NULL)
    return TRUE;
  if (inputs == NULL || outputs == NULL)
    {
      const char *given = inputs != NULL    ? "graft_inputs"
                          : outputs != NULL ? "graft_outputs"
                                            : "graft_range_constraints";

      attr_error (im, GRAPH_ATTR, given, error, GRAFT_PARSE_ERROR_GRAPH,
                  " needs %s (a program's signature has both graft_inputs and graft_outputs)",
                  inputs == NULL ? "graft_inputs" : "graft_outputs");
      return FALSE;
    }
  if (!im->dialect->has_export)
    {
      /* The readers' one message (graft_program_check_dialect()), at the
       * signature that makes the graph a program. */
      Span span = { 0 };

      _graft_dot_find_graph_attr_span (graft_source_get_text (im->source),
                                       graft_source_get_length (im->source), "graft_inputs", &span);
      graft_set_error_at_offset (error, im->source, span.start, span.end,
                                 GRAFT_PARSE_ERROR_UNSUPPORTED,
                                 "a torch.export program needs torch 2.6 (--torch 2.6)");
      return FALSE;
    }
  program = graft_graph_ensure_program (graph);
  if (!read_signature (im, "graft_inputs", inputs, program, error) ||
      !read_signature (im, "graft_outputs", outputs, program, error))
    return FALSE;
  if (ranges != NULL)
    {
      g_autofree char *text =
          read_attr_text (im, GRAPH_ATTR, "graft_range_constraints", ranges, error);

      if (text == NULL)
        return FALSE;
      graft_program_set_range_constraints (program, text);
    }
  return TRUE;
}

GraftGraph *
_graft_dot_import_graft (Importer *im,
                         GError  **error)
{
  guint                  n = im->doc->nodes->len;
  g_autofree Record     *records = g_new0 (Record, MAX (n, 1));
  g_autofree GraftNode **nodes = g_new0 (GraftNode *, MAX (n, 1));
  g_autoptr (GraftGraph) graph = NULL;
  gint     output = -1;
  gboolean ok = TRUE;

  for (guint i = 0; i < n && ok; i++)
    {
      if (_graft_gv_doc_node_get (doc_node (im, i), "graft_op") == NULL)
        {
          guint other = 0;

          while (_graft_gv_doc_node_get (doc_node (im, other), "graft_op") == NULL)
            other++;
          _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                                 "node '%s' has no graft_op, though node '%s' has one (a Graft DOT "
                                 "file sets it on every node)",
                                 doc_node (im, i)->name, doc_node (im, other)->name);
          ok = FALSE;
          break;
        }
      ok = read_record (im, i, &records[i], error);
      if (ok && records[i].op == GRAFT_OP_OUTPUT)
        {
          if (output >= 0)
            {
              _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                                     "a second output node (the first is '%s')",
                                     doc_node (im, (guint) output)->name);
              ok = FALSE;
            }
          output = (gint) i;
        }
      else if (ok && output >= 0)
        {
          _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                                 "node '%s' comes after the output node", doc_node (im, i)->name);
          ok = FALSE;
        }
    }
  if (ok && output < 0)
    {
      gsize end = graft_source_get_length (im->source);

      graft_set_error_at_offset (error, im->source, end, end, GRAFT_PARSE_ERROR_GRAPH,
                                 "the graph has no output node");
      ok = FALSE;
    }

  if (ok)
    {
      graph = graft_graph_new (im->dialect);
      graft_graph_set_source (graph, im->source);
      for (guint i = 0; i < n; i++)
        {
          Record     *rec = &records[i];
          const char *name = doc_node (im, i)->name;

          /* A fresh namespace holds nothing, and cgraph's names are
           * unique; checked all the same. */
          if (graft_namespace_contains (graft_graph_get_namespace (graph), name))
            {
              _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                                     "'%s' cannot name a node", name);
              ok = FALSE;
              break;
            }
          if (rec->shared_name != NULL)
            nodes[i] =
                _graft_graph_append_node_sharing (graph, rec->op, rec->target, rec->shared_name);
          else
            nodes[i] = graft_graph_create_node_named (graph, rec->op, rec->target, NULL, NULL,
                                                      name, NULL);
          graft_node_set_type_annotation (nodes[i], rec->type);
          graft_node_set_is_wrapped (nodes[i], rec->is_wrapped);
          graft_node_set_span (nodes[i], im->spans[i].start, im->spans[i].end);
          if (rec->has_meta)
            {
              GraftNodeMeta meta;

              record_get_meta (rec, &meta);
              graft_node_set_meta (nodes[i], &meta);
            }
        }
      for (guint i = 0; i < n && ok; i++)
        {
          link_refs (&records[i].args, nodes);
          link_refs (&records[i].kwargs, nodes);
          graft_graph_set_args (graph, nodes[i], &records[i].args, &records[i].kwargs);
        }
      ok = ok && read_graph_attrs (im, graph, error);
      /* A program's names are torch's: its namespace comes back from
       * them, as from a program's text, so that a rewrite of the graph
       * read back names its new nodes as one of the program read first. */
      if (ok && graft_graph_get_program (graph) != NULL)
        _graft_program_follow_torch_names (graph);
    }
  for (guint i = 0; i < n; i++)
    record_clear (&records[i]);
  return ok ? g_steal_pointer (&graph) : NULL;
}
