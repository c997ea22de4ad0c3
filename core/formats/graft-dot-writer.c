/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-dot-writer.c: graphs as Graphviz DOT, written so that Graphviz
 * draws them and graft_dot_parse() reads them back into the same graph
 * (graft-dot-reader.c).
 *
 * Graft's DOT.  One DOT node per graph node, in graph order, named by the
 * node's name, then one edge per use of a node, in argument order (a node
 * that uses `x` twice gets two edges).  Edges are for viewers: on reading,
 * a node's arguments come from its attributes alone.  A node whose name
 * another node has too (a read program's copy that torch's namespace named
 * while the program's node stays, docs/programs.md) has an id of its own,
 * `NAME__K` with the least K that names no node, by which edges and `%`
 * references know it; graphs without such a node are written as before.
 * The attributes:
 *
 *  - `graft_name`: that node's name, first of its attributes (only on it);
 *    the reader makes it a node of the same name as the node whose id it
 *    is.
 *  - `graft_op`: `placeholder`, `get_attr`, `call_function`, `call_method`,
 *    `call_module` or `output`.  A node with it is a Graft node.
 *  - `graft_target`: the target as text (absent when empty).
 *  - `graft_args`: the args tuple; `graft_kwargs`: the kwargs dict (absent
 *    when empty).  Values are written in a Python-like syntax that reads
 *    back exactly: `None`, `Ellipsis`, `True`, `False`; ints (`-3`); floats
 *    as Python's repr (`1.0`, `1e-05`, `-0.0`, `inf`, `-inf`, `nan`,
 *    `-nan` for a NaN with its sign bit set); `complex(RE, IM)` with float
 *    parts; strings in single quotes (escapes below); torch symbols bare
 *    (`torch.float32`), and so are ints too big for 64 bits (Graft keeps
 *    those as symbols of their digits, graft-value-reader.c); any other
 *    symbol as `symbol('TEXT')`;
 *    `device('cuda:0')` (the device's str form); `slice(A, B, C)`; tuples
 *    (`(x,)`), lists and dicts as in Python; a node as `%name`, as graph
 *    listings write it.
 *  - `graft_type`: the type annotation as text, when there is one.
 *  - `graft_wrapped=true` for a call to a wrapped function.
 *  - `graft_match=N` for a node of match N when the caller highlights
 *    matches (written, never read).
 *
 * A node of a torch.export program carries its metadata (graft-meta.h),
 * each field that is set as one attribute: `graft_kind` (`tensor`,
 * `symbol`, `other` or `unknown`; written whenever the node has metadata,
 * and required by the others), then as text `graft_dtype` (`f32`),
 * `graft_shape` (`[2, 4]`), `graft_stride`, `graft_device`,
 * `graft_symbol`, `graft_stack_trace`, then `graft_module_stack`, a list
 * of `(key, path, type)` tuples of strings, outermost first, then as text
 * `graft_source_fn_stack` and `graft_torch_fn`.  An empty text is not
 * written (cgraph reads an empty value as an unset one), so it reads back
 * as unset, which is how every printer treats it: torch prints no source
 * line for an empty stack trace, and its serializer drops one.  The
 * graph's own
 * attributes give the class name print_readable uses (`graft_module`,
 * text) and, for a program, its signature: `graft_inputs` and
 * `graft_outputs`, lists of dicts with the keys `kind` (torch's name,
 * `PARAMETER`), `name`, and when set `target`, `persistent` (inputs: True
 * or False), `argument` and `value` (graft-meta-values.c), and
 * `graft_range_constraints` (text).  Each is written in a `graph [...]`
 * statement of its own, before the nodes.
 *
 * Strings and text are escaped as graft-dot-escape.c says.  For viewers,
 * each node also has `label="NAME\nCAPTION"` (an escString, so its
 * backslashes are doubled) and op colours from graft-palette-private.h;
 * shape and style are node defaults.  In a program, labels follow the
 * renderer (core/view): a parameter, buffer or constant placeholder shows
 * its target over its role (`lin.weight\nparameter`), an operator's caption
 * drops `torch.ops.` (`aten.add.Tensor`), and an edge from a node whose
 * metadata has an annotation (`f32[2, 4]`, `Sym(s0)`) carries it as its
 * `label`, so that `dot -Tpng` shows what flows.
 */
#include "config.h"

#include "graft-dot.h"
#include "graft-arg.h"
#include "graft-dot-escape-private.h"
#include "graft-graph.h"
#include "graft-graph-private.h"
#include "graft-meta-values-private.h"
#include "graft-palette-private.h"
#include "graft-strbuf-private.h"
#include "graft-value-reader-private.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Writing values                                                      */
/* ------------------------------------------------------------------ */

static gboolean
is_ascii_identifier (const char *s,
                     gsize       len)
{
  if (len == 0 || !(g_ascii_isalpha (s[0]) || s[0] == '_'))
    return FALSE;
  for (gsize i = 1; i < len; i++)
    if (!(g_ascii_isalnum (s[i]) || s[i] == '_'))
      return FALSE;
  return TRUE;
}

static gboolean
is_digits (const char *s,
           gsize       len)
{
  gsize i = len > 0 && s[0] == '-' ? 1 : 0;

  if (i >= len)
    return FALSE;
  for (; i < len; i++)
    if (!g_ascii_isdigit (s[i]))
      return FALSE;
  return TRUE;
}

static void
append_float (GString *out,
              double   value)
{
  if (isnan (value))
    _graft_buf_append (out, signbit (value) ? "-nan" : "nan");
  else
    graft_append_float_repr (out, value);
}

/* The DOT id of @node: its name, or in a graph where it shares its name
 * with another node, the id @ids gives it (make_ids()). */
static const char *
node_id (GHashTable *ids,
         GraftNode  *node)
{
  const char *id;

  if (G_UNLIKELY (ids != NULL) && (id = g_hash_table_lookup (ids, node)) != NULL)
    return id;
  return graft_node_get_name (node);
}

static void
append_value (GString        *out,
              const GraftArg *arg,
              GHashTable     *ids)
{
  switch (arg->kind)
    {
    case GRAFT_ARG_NONE:
      _graft_buf_append (out, "None");
      return;
    case GRAFT_ARG_ELLIPSIS:
      _graft_buf_append (out, "Ellipsis");
      return;
    case GRAFT_ARG_BOOL:
      _graft_buf_append (out, arg->b ? "True" : "False");
      return;
    case GRAFT_ARG_INT:
      graft_append_int (out, arg->i);
      return;
    case GRAFT_ARG_FLOAT:
      append_float (out, arg->f);
      return;
    case GRAFT_ARG_COMPLEX:
      _graft_buf_append (out, "complex(");
      append_float (out, arg->c[0]);
      _graft_buf_append (out, ", ");
      append_float (out, arg->c[1]);
      g_string_append_c (out, ')');
      return;
    case GRAFT_ARG_STR:
      g_string_append_c (out, '\'');
      _graft_dot_append_escaped (out, arg->s, arg->n, '\'');
      g_string_append_c (out, '\'');
      return;
    case GRAFT_ARG_SYMBOL:
      if (_graft_value_symbol_is_bare (arg->s, arg->n))
        {
          _graft_buf_append_len (out, arg->s, arg->n);
          return;
        }
      _graft_buf_append (out, "symbol('");
      _graft_dot_append_escaped (out, arg->s, arg->n, '\'');
      _graft_buf_append (out, "')");
      return;
    case GRAFT_ARG_DEVICE:
      _graft_buf_append (out, "device('");
      _graft_dot_append_escaped (out, arg->s, arg->n, '\'');
      _graft_buf_append (out, "')");
      return;
    case GRAFT_ARG_NODE:
      g_string_append_c (out, '%');
      _graft_buf_append (out, node_id (ids, arg->node));
      return;
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_LIST:
      g_string_append_c (out, arg->kind == GRAFT_ARG_TUPLE ? '(' : '[');
      for (guint i = 0; i < arg->n; i++)
        {
          if (i > 0)
            _graft_buf_append (out, ", ");
          append_value (out, &arg->items[i], ids);
        }
      if (arg->kind == GRAFT_ARG_TUPLE && arg->n == 1)
        g_string_append_c (out, ',');
      g_string_append_c (out, arg->kind == GRAFT_ARG_TUPLE ? ')' : ']');
      return;
    case GRAFT_ARG_DICT:
      g_string_append_c (out, '{');
      for (guint i = 0; i < arg->n; i++)
        {
          if (i > 0)
            _graft_buf_append (out, ", ");
          append_value (out, &arg->items[2 * i], ids);
          _graft_buf_append (out, ": ");
          append_value (out, &arg->items[2 * i + 1], ids);
        }
      g_string_append_c (out, '}');
      return;
    case GRAFT_ARG_SLICE:
      _graft_buf_append (out, "slice(");
      for (guint i = 0; i < 3; i++)
        {
          if (i > 0)
            _graft_buf_append (out, ", ");
          append_value (out, &arg->items[i], ids);
        }
      g_string_append_c (out, ')');
      return;
    default:
      g_assert_not_reached ();
    }
}

/* ------------------------------------------------------------------ */
/* Writing DOT                                                         */
/* ------------------------------------------------------------------ */

static gboolean
is_dot_keyword (const char *s,
                gsize       len)
{
  static const char *const keywords[] = {
    "node", "edge", "graph", "digraph", "subgraph", "strict"
  };

  for (guint i = 0; i < G_N_ELEMENTS (keywords); i++)
    if (strlen (keywords[i]) == len && g_ascii_strncasecmp (keywords[i], s, len) == 0)
      return TRUE;
  return FALSE;
}

/* Appends @len bytes of @s to a DOT string in double quotes, `"`
 * escaped; *@run counts the backslashes just before @s, so that a long
 * string can be written in pieces (end it with end_dot_quoted()). */
static void
append_dot_quoted (GString    *out,
                   const char *s,
                   gsize       len,
                   gsize      *run)
{
  for (const char *p = s; p < s + len; p++)
    {
      if (*p == '\\')
        {
          (*run)++;
          g_string_append_c (out, '\\');
          continue;
        }
      if ((*run % 2 == 1) && (*p == '"' || *p == '\n'))
        g_string_append_c (out, '\\');
      *run = 0;
      if (*p == '"')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
}

/* Ends a DOT string append_dot_quoted() wrote. */
static void
end_dot_quoted (GString *out,
                gsize    run)
{
  if (run % 2 == 1)
    g_string_append_c (out, '\\');
  g_string_append_c (out, '"');
}

/* Appends @s as a DOT string: bare when it is a plain ID or a whole
 * number, else in double quotes with `"` escaped.  @s holds no line break
 * and no odd run of backslashes before a quote or at its end (see the file
 * comment); should one slip through, its last backslash is doubled so
 * the DOT stays well-formed. */
static void
append_dot_string (GString    *out,
                   const char *s)
{
  gsize len = strlen (s);
  gsize run = 0;

  if ((is_ascii_identifier (s, len) && !is_dot_keyword (s, len)) ||
      (len > 0 && len < 16 && is_digits (s, len) && s[0] != '-'))
    {
      _graft_buf_append_len (out, s, len);
      return;
    }
  g_string_append_c (out, '"');
  append_dot_quoted (out, s, len, &run);
  end_dot_quoted (out, run);
}

static void
append_attr (GString    *out,
             gboolean   *first,
             const char *name,
             const char *value)
{
  _graft_buf_append (out, *first ? " [" : ", ");
  *first = FALSE;
  _graft_buf_append (out, name);
  g_string_append_c (out, '=');
  append_dot_string (out, value);
}

/* Appends @s to an escString (a label): backslashes doubled, line breaks
 * as `\n`, other control characters as spaces. */
static void
append_label_text (GString    *out,
                   const char *s)
{
  for (const char *p = s; *p != '\0'; p++)
    {
      if (*p == '\\')
        _graft_buf_append (out, "\\\\");
      else if (*p == '\n')
        _graft_buf_append (out, "\\n");
      else if ((guchar) *p < 0x20 || *p == 0x7f)
        g_string_append_c (out, ' ');
      else
        g_string_append_c (out, *p);
    }
}

/* Appends attribute @name with @text escaped, when @text is set. */
static void
append_text_attr (GString    *out,
                  GString    *value,
                  gboolean   *first,
                  const char *name,
                  const char *text)
{
  /* cgraph cannot tell an empty value from an unset one. */
  if (text == NULL || *text == '\0')
    return;
  g_string_truncate (value, 0);
  _graft_dot_append_escaped (value, text, strlen (text), 0);
  append_attr (out, first, name, value->str);
}

/* The attributes of a node's metadata, in the order the file comment
 * gives. */
static void
append_meta_attrs (GString             *out,
                   GString             *value,
                   gboolean            *first,
                   const GraftNodeMeta *meta)
{
  append_attr (out, first, "graft_kind", _graft_value_kind_to_string (meta->kind));
  append_text_attr (out, value, first, "graft_dtype", meta->dtype);
  append_text_attr (out, value, first, "graft_shape", meta->shape);
  append_text_attr (out, value, first, "graft_stride", meta->stride);
  append_text_attr (out, value, first, "graft_device", meta->device);
  append_text_attr (out, value, first, "graft_symbol", meta->symbol);
  append_text_attr (out, value, first, "graft_stack_trace", meta->stack_trace);
  if (meta->n_modules > 0)
    {
      GraftArg frames;

      _graft_meta_modules_to_arg (meta, &frames);
      g_string_truncate (value, 0);
      append_value (value, &frames, NULL);
      graft_arg_clear (&frames);
      append_attr (out, first, "graft_module_stack", value->str);
    }
  append_text_attr (out, value, first, "graft_source_fn_stack", meta->source_fn_stack);
  append_text_attr (out, value, first, "graft_torch_fn", meta->torch_fn);
}

/* Appends `  graph [@name=VALUE];` for a graph attribute. */
static void
append_graph_attr (GString    *out,
                   const char *name,
                   const char *value)
{
  gboolean first = TRUE;

  _graft_buf_append (out, "  graph");
  append_attr (out, &first, name, value);
  _graft_buf_append (out, "];\n");
}

/* The class name, as a graph attribute. */
static void
append_module (GString    *out,
               GraftGraph *graph)
{
  const char *module = graft_graph_get_module_name (graph);
  g_autoptr (GString) value = NULL;

  if (module == NULL)
    return;
  value = g_string_new (NULL);
  _graft_dot_append_escaped (value, module, strlen (module), 0);
  append_graph_attr (out, "graft_module", value->str);
}

/* A program's input specs by name, the first of each, as
 * graft_program_find_input() finds it: open addressing in a table sized
 * for all the inputs at once, as a GHashTable grown entry by entry
 * rehashed all of them at each doubling (turns of 24-33 ms at a million
 * nodes). */
typedef struct
{
  const char           **names; /* Owned array: NULL for a free slot */
  const GraftInputSpec **specs; /* Owned array */
  gsize                  mask;
} InputIndex;

static void
input_index_init (InputIndex *index,
                  guint       n_inputs)
{
  gsize size = 16;

  while (size < 2 * (gsize) n_inputs)
    size *= 2;
  /* Zeroed pages from calloc: no pass over them now. */
  index->names = g_new0 (const char *, size);
  index->specs = g_new0 (const GraftInputSpec *, size);
  index->mask = size - 1;
}

static void
input_index_clear (InputIndex *index)
{
  g_free (index->names);
  g_free (index->specs);
}

/* The slot of @name: where it is, or the free slot it would go in. */
static gsize
input_index_slot (const InputIndex *index,
                  const char       *name)
{
  gsize i = g_str_hash (name) & index->mask;

  while (index->names[i] != NULL && strcmp (index->names[i], name) != 0)
    i = (i + 1) & index->mask;
  return i;
}

/* Adds @spec unless a spec of its name is in already. */
static void
input_index_add (InputIndex           *index,
                 const GraftInputSpec *spec)
{
  gsize i = input_index_slot (index, spec->name);

  if (index->names[i] != NULL)
    return;
  index->names[i] = spec->name;
  index->specs[i] = spec;
}

static const GraftInputSpec *
input_index_lookup (const InputIndex *index,
                    const char       *name)
{
  return index->specs[input_index_slot (index, name)];
}

/* The role word the renderer captions a program's placeholder with
 * (`parameter`, `buffer`, `constant`), or %NULL for a user input and a
 * node that is no such placeholder. */
static const char *
placeholder_role (GraftNode             *node,
                  const InputIndex      *inputs,
                  const GraftInputSpec **out_spec)
{
  GraftProgram         *program = graft_graph_get_program (graft_node_get_graph (node));
  const GraftInputSpec *spec;

  if (program == NULL || graft_node_get_op (node) != GRAFT_OP_PLACEHOLDER)
    return NULL;
  spec = input_index_lookup (inputs, graft_node_get_name (node));
  *out_spec = spec;
  if (spec == NULL)
    return NULL;
  switch (spec->kind)
    {
    case GRAFT_INPUT_SPEC_PARAMETER:
      return "parameter";
    case GRAFT_INPUT_SPEC_BUFFER:
      return "buffer";
    case GRAFT_INPUT_SPEC_CONSTANT_TENSOR:
    case GRAFT_INPUT_SPEC_CUSTOM_OBJ:
      return "constant";
    case GRAFT_INPUT_SPEC_USER_INPUT:
    case GRAFT_INPUT_SPEC_TOKEN:
    default:
      return NULL;
    }
}

/* The label viewers show, as the renderer draws the box: the name (for a
 * program's parameter, buffer or constant, its target) over the caption
 * (for those, the role; for a program's operator, without `torch.ops.`). */
static void
append_label (GString          *out,
              GraftNode        *node,
              const InputIndex *inputs)
{
  const GraftInputSpec *spec = NULL;
  const char           *role = placeholder_role (node, inputs, &spec);
  g_autoptr (GString) caption = g_string_new (NULL);

  append_label_text (out, role != NULL && spec->target != NULL ? spec->target
                                                               : graft_node_get_name (node));
  _graft_buf_append (out, "\\n");
  if (role != NULL)
    {
      append_label_text (out, role);
      return;
    }
  _graft_node_append_caption (caption, node);
  if (graft_graph_get_program (graft_node_get_graph (node)) != NULL &&
      graft_node_get_op (node) == GRAFT_OP_CALL_FUNCTION &&
      g_str_has_prefix (caption->str, "torch.ops."))
    g_string_erase (caption, 0, strlen ("torch.ops."));
  append_label_text (out, caption->str);
}

/**
 * graft_dot_options_init:
 * @options: (out caller-allocates): options to set to the defaults
 *
 * Light style, nothing highlighted.
 */
void
graft_dot_options_init (GraftDotOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->style = GRAFT_DOT_LIGHT;
}

/* What of a program's signature is written: the input list (each entry
 * also put in the job's index of the inputs), the output list, all. */
typedef enum {
  DOT_SIGNATURE_INPUTS,
  DOT_SIGNATURE_OUTPUTS,
  DOT_SIGNATURE_DONE,
} DotSignature;

/* DOT written a few nodes at a time (graft_dot_job_step()): a program's
 * signature entries, the nodes, then the edges, each a walk of the
 * graph. */
struct _GraftDotJob
{
  GString                *out;       /* Owned: the text so far */
  GString                *value;     /* Owned: scratch for an attribute's value */
  GraftGraph             *graph;     /* Borrowed */
  GraftNode              *next;      /* Borrowed: the next node of the walk, or NULL */
  GraftDotOptions         options;   /* its tables Borrowed */
  InputIndex              inputs;    /* Owned: a program's input specs */
  GHashTable             *ids;       /* Owned, nullable: node -> DOT id (make_ids()) */
  GraftProgram           *program;   /* Borrowed: the graph's, or NULL */
  DotSignature            signature; /* what of a program's signature is written */
  guint                   entry;     /* the next entry of that list */
  gsize                   run;       /* backslashes at the end of its value so far */
  const GraftOpColors    *palette;
  const GraftThemeColors *theme;
  guint                   index; /* of @next in the graph, in the nodes' walk */
  gboolean                edges; /* the nodes are written: the edges' walk */
};

/* Appends `  TAIL -> @node;` for each node @arg refers to, in order,
 * labelled with the tail's annotation when its metadata has one. */
static void
append_edges (GraftDotJob    *job,
              const GraftArg *arg,
              GraftNode      *node)
{
  GString *out = job->out;
  guint    n_items;

  if (arg->kind == GRAFT_ARG_NODE)
    {
      g_autofree char *annotation =
          graft_node_meta_dup_annotation (graft_node_get_meta (arg->node), FALSE, FALSE);

      _graft_buf_append (out, "  ");
      append_dot_string (out, node_id (job->ids, arg->node));
      _graft_buf_append (out, " -> ");
      append_dot_string (out, node_id (job->ids, node));
      if (annotation != NULL)
        {
          g_autoptr (GString) label = g_string_new (NULL);

          append_label_text (label, annotation);
          _graft_buf_append (out, " [label=");
          append_dot_string (out, label->str);
          g_string_append_c (out, ']');
        }
      _graft_buf_append (out, ";\n");
      return;
    }
  n_items = graft_arg_count_items (arg);
  for (guint i = 0; i < n_items; i++)
    append_edges (job, &arg->items[i], node);
}

/* The match @node is drawn in, or -1. */
static gint
node_match (GraftDotJob *job,
            GraftNode   *node)
{
  if (job->options.node_matches != NULL)
    return (gint) GPOINTER_TO_UINT (g_hash_table_lookup (job->options.node_matches, node)) - 1;
  return job->options.node_match != NULL ? job->options.node_match[job->index] : -1;
}

/* One node's statement. */
static void
append_node (GraftDotJob *job,
             GraftNode   *node)
{
  GraftOp              op = graft_node_get_op (node);
  const GraftArg      *kwargs = graft_node_get_kwargs (node);
  const char          *type = graft_node_get_type_annotation (node);
  const GraftOpColors *colors = &job->palette[(guint) op < 6 ? op : GRAFT_OP_CALL_FUNCTION];
  gint                 match = node_match (job, node);
  char                 color[8];
  gboolean             first = TRUE;

  _graft_buf_append (job->out, "  ");
  append_dot_string (job->out, node_id (job->ids, node));

  if (G_UNLIKELY (job->ids != NULL) && g_hash_table_contains (job->ids, node))
    append_text_attr (job->out, job->value, &first, "graft_name", graft_node_get_name (node));
  append_attr (job->out, &first, "graft_op", graft_op_to_string (op));
  g_string_truncate (job->value, 0);
  _graft_dot_append_escaped (job->value, graft_node_get_target (node),
                             strlen (graft_node_get_target (node)), 0);
  append_attr (job->out, &first, "graft_target", job->value->str);
  g_string_truncate (job->value, 0);
  append_value (job->value, graft_node_get_args (node), job->ids);
  append_attr (job->out, &first, "graft_args", job->value->str);
  if (kwargs->n > 0)
    {
      g_string_truncate (job->value, 0);
      append_value (job->value, kwargs, job->ids);
      append_attr (job->out, &first, "graft_kwargs", job->value->str);
    }
  if (type != NULL)
    {
      g_string_truncate (job->value, 0);
      _graft_dot_append_escaped (job->value, type, strlen (type), 0);
      append_attr (job->out, &first, "graft_type", job->value->str);
    }
  if (graft_node_get_is_wrapped (node))
    append_attr (job->out, &first, "graft_wrapped", "true");
  if (graft_node_get_meta (node) != NULL)
    append_meta_attrs (job->out, job->value, &first, graft_node_get_meta (node));

  g_string_truncate (job->value, 0);
  append_label (job->value, node, &job->inputs);
  append_attr (job->out, &first, "label", job->value->str);
  g_snprintf (color, sizeof color, "#%06x", colors->fill);
  append_attr (job->out, &first, "fillcolor", color);
  if (match >= 0)
    {
      char number[16];

      g_snprintf (number, sizeof number, "%d", match);
      append_attr (job->out, &first, "graft_match", number);
      g_snprintf (color, sizeof color, "#%06x",
                  graft_palette_matches[match % GRAFT_PALETTE_N_MATCH_COLORS]);
      append_attr (job->out, &first, "color", color);
      append_attr (job->out, &first, "penwidth", "3");
    }
  else
    {
      g_snprintf (color, sizeof color, "#%06x", colors->border);
      append_attr (job->out, &first, "color", color);
    }
  _graft_buf_append (job->out, "];\n");
}

/* Begins `  graph [@name="[`, a list of signature entries as one value
 * written by pieces. */
static void
open_list_attr (GraftDotJob *job,
                const char  *name)
{
  _graft_buf_append (job->out, "  graph [");
  _graft_buf_append (job->out, name);
  _graft_buf_append (job->out, "=\"");
  job->run = 0;
  append_dot_quoted (job->out, "[", 1, &job->run);
  job->entry = 0;
}

/* Ends the list open_list_attr() began. */
static void
close_list_attr (GraftDotJob *job)
{
  append_dot_quoted (job->out, "]", 1, &job->run);
  end_dot_quoted (job->out, job->run);
  _graft_buf_append (job->out, "];\n");
}

/* Appends @entry (a signature entry's dict) to the list being written. */
static void
append_entry (GraftDotJob *job,
              GraftArg    *entry)
{
  g_string_truncate (job->value, 0);
  if (job->entry > 0)
    _graft_buf_append (job->value, ", ");
  append_value (job->value, entry, NULL);
  graft_arg_clear (entry);
  append_dot_quoted (job->out, job->value->str, job->value->len, &job->run);
  job->entry++;
}

/* Writes @n_entries more of the program's signature, the same text as
 * one append_graph_attr() of each whole list (`graft_inputs`,
 * `graft_outputs`), then the range constraints: at a million nodes the
 * input list has hundreds of thousands of entries.  Returns whether the
 * signature is all written. */
static gboolean
step_signature (GraftDotJob *job,
                guint        n_entries)
{
  GraftProgram *program = job->program;

  for (guint k = 0; k < n_entries && job->signature != DOT_SIGNATURE_DONE; k++)
    {
      GraftArg entry;

      if (job->signature == DOT_SIGNATURE_INPUTS)
        {
          if (job->entry < graft_program_get_n_inputs (program))
            {
              const GraftInputSpec *spec = graft_program_get_input (program, job->entry);

              /* The first of a name, as graft_program_find_input() finds it. */
              if (spec->name != NULL)
                input_index_add (&job->inputs, spec);
              _graft_program_input_to_arg (program, job->entry, &entry);
              append_entry (job, &entry);
              continue;
            }
          close_list_attr (job);
          open_list_attr (job, "graft_outputs");
          job->signature = DOT_SIGNATURE_OUTPUTS;
        }
      if (job->entry < graft_program_get_n_outputs (program))
        {
          _graft_program_output_to_arg (program, job->entry, &entry);
          append_entry (job, &entry);
          continue;
        }
      close_list_attr (job);
      if (graft_program_get_range_constraints (program) != NULL)
        {
          const char *text = graft_program_get_range_constraints (program);

          g_string_truncate (job->value, 0);
          _graft_dot_append_escaped (job->value, text, strlen (text), 0);
          append_graph_attr (job->out, "graft_range_constraints", job->value->str);
        }
      job->signature = DOT_SIGNATURE_DONE;
    }
  return job->signature == DOT_SIGNATURE_DONE;
}

/* The DOT ids of the nodes that do not go by their name, or %NULL: a
 * node that shares its name with another live node (a copy a rewrite
 * named by torch's namespace while the program's node of that name stays,
 * graft-graph.c) gets `NAME__K`, the least K that names no node, with its
 * name in `graft_name`, so that no two DOT nodes are one.  The node that
 * owns the name keeps it as its id, or when it was erased, the first
 * node of the name.  A graph without such a node pays one test. */
static GHashTable *
make_ids (GraftGraph *graph)
{
  g_autoptr (GHashTable) count = NULL;
  g_autoptr (GHashTable) last_k = NULL;
  g_autoptr (GHashTable) owned = NULL;
  GHashTable *ids;

  if (G_LIKELY (!graft_graph_has_shared_names (graph)))
    return NULL;
  count = g_hash_table_new (g_str_hash, g_str_equal);
  owned = g_hash_table_new (g_str_hash, g_str_equal);
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      const char *name = graft_node_get_name (node);

      g_hash_table_insert (count, (gpointer) name,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (count, name)) +
                                             1));
      if (!_graft_node_shares_name (graph, node))
        g_hash_table_add (owned, (gpointer) name);
    }
  /* The K of a name's last id: the next sharer of the name starts past
   * it, since only that name makes ids `NAME__K` (K is digits), so that
   * a name many nodes share does not cost a search from 1 each. */
  last_k = g_hash_table_new (g_str_hash, g_str_equal);
  ids = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      const char *name = graft_node_get_name (node);
      char       *id = NULL;
      guint       k;

      if (!_graft_node_shares_name (graph, node))
        continue;
      /* The owner of the name erased: the first of its sharers goes by
       * it, so that the others' graft_name is the id of a node. */
      if (!g_hash_table_contains (owned, name))
        {
          g_hash_table_add (owned, (gpointer) name);
          continue;
        }
      for (k = GPOINTER_TO_UINT (g_hash_table_lookup (last_k, name)) + 1;
           id == NULL || g_hash_table_contains (count, id); k++)
        {
          g_free (id);
          id = g_strdup_printf ("%s__%u", name, k);
        }
      g_hash_table_insert (last_k, (gpointer) name, GUINT_TO_POINTER (k - 1));
      /* Taken from now on, as a name is. */
      g_hash_table_insert (count, id, GUINT_TO_POINTER (1));
      g_hash_table_insert (ids, node, id);
    }
  return ids;
}

/**
 * graft_dot_job_new:
 * @graph: a graph, unchanged until the job is finished or freed
 * @options: (nullable): as graft_dot_print()'s; its tables are borrowed
 *   for as long
 *
 * Begins graft_dot_print() of @graph, to be written by steps (at a
 * million nodes the whole text takes most of a second).  The job holds
 * the node it writes next, so @graph must not change between its steps.
 *
 * Returns: (transfer full): the job
 */
GraftDotJob *
graft_dot_job_new (GraftGraph            *graph,
                   const GraftDotOptions *options)
{
  GraftDotJob *job;
  GString     *out;

  g_return_val_if_fail (graph != NULL, NULL);

  job = g_new0 (GraftDotJob, 1);
  if (options != NULL)
    job->options = *options;
  else
    graft_dot_options_init (&job->options);
  job->graph = graph;
  job->value = g_string_new (NULL);
  /* graft_program_find_input() for each placeholder was a walk of the
   * signature: at a million nodes, hours.  The index is made by the first
   * steps, as they write the signature. */
  job->program = graft_graph_get_program (graph);
  job->ids = make_ids (graph);
  input_index_init (&job->inputs,
                    job->program != NULL ? graft_program_get_n_inputs (job->program) : 0);
  job->palette = job->options.style == GRAFT_DOT_DARK ? graft_palette_dark : graft_palette_light;
  /* The renderer's colours, so a drawing by dot looks like Graft's own. */
  job->theme = &graft_palette_themes[job->options.style == GRAFT_DOT_DARK ? 1 : 0];

  out = g_string_sized_new (256 + 160 * (gsize) graft_graph_get_n_nodes (graph));
  _graft_buf_append (out, "digraph graft {\n");
  g_string_append_printf (out, "  graph [rankdir=TB, bgcolor=\"#%06x\", graft_torch=\"%s\"];\n",
                          job->theme->background, graft_graph_get_dialect (graph)->name);
  g_string_append_printf (out,
                          "  node [shape=box, style=\"rounded,filled\", fontname=\"DejaVu Sans "
                          "Mono\", "
                          "fontsize=9, fontcolor=\"#%06x\"];\n",
                          job->theme->text);
  g_string_append_printf (out,
                          "  edge [color=\"#%06x\", arrowsize=0.7, fontname=\"DejaVu Sans Mono\", "
                          "fontsize=8, fontcolor=\"#%06x\"];\n",
                          job->theme->edge, job->theme->text);
  append_module (out, graph);
  job->out = out;
  if (job->program != NULL)
    open_list_attr (job, "graft_inputs");
  else
    job->signature = DOT_SIGNATURE_DONE;
  job->next = graft_graph_get_first (graph);
  if (job->next == NULL)
    job->edges = TRUE;
  return job;
}

/**
 * graft_dot_job_step:
 * @job: a DOT job
 * @n_nodes: how many nodes to write (or whose edges to write) at most
 *
 * Returns: whether the whole text is written
 */
gboolean
graft_dot_job_step (GraftDotJob *job,
                    guint        n_nodes)
{
  g_return_val_if_fail (job != NULL, TRUE);

  if (job->signature != DOT_SIGNATURE_DONE && !step_signature (job, MAX (n_nodes, 1)))
    return FALSE;
  for (guint k = 0; k < n_nodes && job->next != NULL; k++)
    {
      if (!job->edges)
        {
          append_node (job, job->next);
          job->index++;
          job->next = graft_node_get_next (job->next);
          if (job->next == NULL)
            {
              job->edges = TRUE;
              job->next = graft_graph_get_first (job->graph);
            }
          continue;
        }
      append_edges (job, graft_node_get_args (job->next), job->next);
      append_edges (job, graft_node_get_kwargs (job->next), job->next);
      job->next = graft_node_get_next (job->next);
    }
  return job->edges && job->next == NULL;
}

/**
 * graft_dot_job_finish:
 * @job: (transfer full): a DOT job whose steps are all done
 *
 * Returns: (transfer full): the text graft_dot_print() returns
 */
char *
graft_dot_job_finish (GraftDotJob *job)
{
  GString *out;

  g_return_val_if_fail (job != NULL, NULL);
  g_return_val_if_fail (job->signature == DOT_SIGNATURE_DONE && job->edges && job->next == NULL,
                        NULL);

  out = g_steal_pointer (&job->out);
  graft_dot_job_free (job);
  _graft_buf_append (out, "}\n");
  return g_string_free (out, FALSE);
}

/**
 * graft_dot_job_free:
 * @job: (transfer full): a DOT job, finished or not
 */
void
graft_dot_job_free (GraftDotJob *job)
{
  if (job == NULL)
    return;
  if (job->out != NULL)
    g_string_free (job->out, TRUE);
  g_string_free (job->value, TRUE);
  input_index_clear (&job->inputs);
  g_clear_pointer (&job->ids, g_hash_table_unref);
  g_free (job);
}

/**
 * graft_dot_print:
 * @graph: a graph
 * @options: (nullable): style and highlighted matches; %NULL for the
 *   defaults
 *
 * Writes @graph as DOT that Graphviz draws and graft_dot_parse() reads
 * back into the same graph (same names, order, ops, targets, arguments,
 * annotations and wrapped flags).  The file comment of
 * graft-dot-writer.c describes the format.
 *
 * Returns: (transfer full): the DOT text
 */
char *
graft_dot_print (GraftGraph            *graph,
                 const GraftDotOptions *options)
{
  GraftDotJob *job;

  g_return_val_if_fail (graph != NULL, NULL);

  job = graft_dot_job_new (graph, options);
  graft_dot_job_step (job, G_MAXUINT);
  return graft_dot_job_finish (job);
}
