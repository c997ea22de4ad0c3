/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-json.c: JSON strings.  Callers write objects and arrays themselves,
 * keys in the order they choose, so output never depends on hash order.
 */
#include "config.h"

#include "graft-json.h"
#include "graft-arg.h"
#include "graft-graph.h"
#include "graft-meta.h"
#include "graft-meta-values-private.h"
#include "graft-strbuf-private.h"
#include "graft-type-text-private.h"

#include <math.h>
#include <string.h>

/**
 * graft_json_append_string:
 * @out: where to append
 * @s: UTF-8 text (may hold NUL bytes when @len is given)
 * @len: its length, or -1 if NUL-terminated
 *
 * Appends @s as a JSON string, as Python's `json.dumps` writes it: quotes,
 * backslashes and control characters escaped, non-ASCII characters as
 * `\uXXXX`.  Bytes that are not UTF-8 become U+FFFD, so the output is
 * always valid JSON.
 */
void
graft_json_append_string (GString    *out,
                          const char *s,
                          gssize      len)
{
  const char *end;

  if (len < 0)
    len = strlen (s);
  end = s + len;
  g_string_append_c (out, '"');
  for (const char *p = s; p < end;)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append (out, "\xEF\xBF\xBD");
          p++;
          continue;
        }
      switch (c)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        default:
          /* Like Python's json.dumps: ASCII out, everything else escaped
           * (as a surrogate pair beyond the BMP). */
          if (c < 0x20 || (c >= 0x7f && c <= 0xffff))
            g_string_append_printf (out, "\\u%04x", c);
          else if (c > 0xffff)
            g_string_append_printf (out, "\\u%04x\\u%04x", 0xd800 + ((c - 0x10000) >> 10),
                                    0xdc00 + ((c - 0x10000) & 0x3ff));
          else
            g_string_append_c (out, (char) c);
          break;
        }
      p = g_utf8_next_char (p);
    }
  g_string_append_c (out, '"');
}

static void
append_arg (GString        *out,
            const GraftArg *arg)
{
  switch (arg->kind)
    {
    case GRAFT_ARG_NONE:
      g_string_append (out, "null");
      return;
    case GRAFT_ARG_BOOL:
      g_string_append (out, arg->b ? "true" : "false");
      return;
    case GRAFT_ARG_INT:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, arg->i);
      return;
    case GRAFT_ARG_FLOAT:
      if (isfinite (arg->f))
        graft_append_float_repr (out, arg->f);
      else
        g_string_append_printf (out, "{\"float\": \"%s\"}",
                                isnan (arg->f) ? "nan"
                                : arg->f < 0   ? "-inf"
                                               : "inf");
      return;
    case GRAFT_ARG_COMPLEX:
      g_string_append (out, "{\"complex\": [");
      graft_append_float_repr (out, arg->c[0]);
      g_string_append (out, ", ");
      graft_append_float_repr (out, arg->c[1]);
      g_string_append (out, "]}");
      return;
    case GRAFT_ARG_STR:
      graft_json_append_string (out, arg->s, arg->n);
      return;
    case GRAFT_ARG_ELLIPSIS:
      g_string_append (out, "{\"ellipsis\": true}");
      return;
    case GRAFT_ARG_SYMBOL:
      g_string_append (out, "{\"symbol\": ");
      graft_json_append_string (out, arg->s, arg->n);
      g_string_append_c (out, '}');
      return;
    case GRAFT_ARG_DEVICE:
      g_string_append (out, "{\"device\": ");
      graft_json_append_string (out, arg->s, arg->n);
      g_string_append_c (out, '}');
      return;
    case GRAFT_ARG_NODE:
      g_string_append (out, "{\"node\": ");
      graft_json_append_string (out, graft_node_get_name (arg->node), -1);
      g_string_append_c (out, '}');
      return;
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_SLICE:
      g_string_append (out, arg->kind == GRAFT_ARG_TUPLE ? "{\"tuple\": [" : "{\"slice\": [");
      for (guint i = 0; i < arg->n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          append_arg (out, &arg->items[i]);
        }
      g_string_append (out, "]}");
      return;
    case GRAFT_ARG_LIST:
      g_string_append_c (out, '[');
      for (guint i = 0; i < arg->n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          append_arg (out, &arg->items[i]);
        }
      g_string_append_c (out, ']');
      return;
    case GRAFT_ARG_DICT:
      g_string_append (out, "{\"dict\": [");
      for (guint i = 0; i < arg->n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          g_string_append_c (out, '[');
          append_arg (out, &arg->items[2 * i]);
          g_string_append (out, ", ");
          append_arg (out, &arg->items[2 * i + 1]);
          g_string_append_c (out, ']');
        }
      g_string_append (out, "]}");
      return;
    default:
      g_assert_not_reached ();
    }
}

/* `, "KEY": "TEXT"` when @text is set. */
static void
append_text_member (GString    *out,
                    const char *key,
                    const char *text)
{
  if (text == NULL)
    return;
  g_string_append (out, ", ");
  graft_json_append_string (out, key, -1);
  g_string_append (out, ": ");
  graft_json_append_string (out, text, -1);
}

/* A node's metadata as an object: `kind`, the fields that are set, and
 * `nn_module_stack` as a list of {key, path, type} objects. */
static void
append_meta (GString             *out,
             const GraftNodeMeta *meta)
{
  g_string_append (out, "{\"kind\": ");
  graft_json_append_string (out, _graft_value_kind_to_string (meta->kind), -1);
  append_text_member (out, "dtype", meta->dtype);
  append_text_member (out, "shape", meta->shape);
  append_text_member (out, "stride", meta->stride);
  append_text_member (out, "device", meta->device);
  append_text_member (out, "symbol", meta->symbol);
  append_text_member (out, "stack_trace", meta->stack_trace);
  if (meta->n_modules > 0)
    {
      g_string_append (out, ", \"nn_module_stack\": [");
      for (guint i = 0; i < meta->n_modules; i++)
        {
          g_string_append (out, i > 0 ? ", {\"key\": " : "{\"key\": ");
          graft_json_append_string (out, meta->modules[i].key, -1);
          g_string_append (out, ", \"path\": ");
          graft_json_append_string (out, meta->modules[i].path, -1);
          g_string_append (out, ", \"type\": ");
          graft_json_append_string (out, meta->modules[i].type, -1);
          g_string_append_c (out, '}');
        }
      g_string_append_c (out, ']');
    }
  append_text_member (out, "source_fn_stack", meta->source_fn_stack);
  append_text_member (out, "torch_fn", meta->torch_fn);
  g_string_append_c (out, '}');
}

/* The program's signature: `{"inputs": [...], "outputs": [...]}`, an
 * object per entry with torch's field names, written by entries: entry
 * @k of the inputs and then the outputs (@k from 0 to their number), its
 * opening before the first and its end after the last. */
static void
append_signature_entry (GString      *out,
                        GraftProgram *program,
                        guint         k)
{
  guint n_inputs = graft_program_get_n_inputs (program);

  if (k == 0)
    g_string_append (out, "{\"inputs\": [");
  if (k < n_inputs)
    {
      const GraftInputSpec *spec = graft_program_get_input (program, k);

      g_string_append (out, k > 0 ? ",\n    {\"kind\": " : "\n    {\"kind\": ");
      graft_json_append_string (out, graft_input_spec_kind_to_string (spec->kind), -1);
      append_text_member (out, "name", spec->name);
      append_text_member (out, "target", spec->target);
      if (spec->persistent >= 0)
        g_string_append_printf (out, ", \"persistent\": %s", spec->persistent ? "true" : "false");
      append_text_member (out, "argument", spec->argument);
      append_text_member (out, "value", spec->value);
      g_string_append_c (out, '}');
      return;
    }
  if (k == n_inputs)
    g_string_append (out, "],\n  \"outputs\": [");
  if (k - n_inputs < graft_program_get_n_outputs (program))
    {
      const GraftOutputSpec *spec = graft_program_get_output (program, k - n_inputs);

      g_string_append (out, k > n_inputs ? ",\n    {\"kind\": " : "\n    {\"kind\": ");
      graft_json_append_string (out, graft_output_spec_kind_to_string (spec->kind), -1);
      append_text_member (out, "name", spec->name);
      append_text_member (out, "target", spec->target);
      append_text_member (out, "argument", spec->argument);
      append_text_member (out, "value", spec->value);
      g_string_append_c (out, '}');
      return;
    }
  g_string_append_c (out, ']');
  append_text_member (out, "range_constraints", graft_program_get_range_constraints (program));
  g_string_append_c (out, '}');
}

/* Entries of append_signature_entry(), the end included. */
static guint
signature_n_entries (GraftProgram *program)
{
  return graft_program_get_n_inputs (program) + graft_program_get_n_outputs (program) + 1;
}

/* One node's object, after the separator that @first says. */
static void
append_node (GString   *out,
             GraftNode *node,
             gboolean   first)
{
  const GraftArg *args = graft_node_get_args (node);
  const GraftArg *kwargs = graft_node_get_kwargs (node);
  const char     *type = graft_node_get_type_annotation (node);

  g_string_append (out, first ? "\n  " : ",\n  ");
  g_string_append (out, "{\"name\": ");
  graft_json_append_string (out, graft_node_get_name (node), -1);
  g_string_append (out, ", \"op\": ");
  graft_json_append_string (out, graft_op_to_string (graft_node_get_op (node)), -1);
  g_string_append (out, ", \"target\": ");
  graft_json_append_string (out, graft_node_get_target (node), -1);
  g_string_append (out, ", \"args\": [");
  for (guint i = 0; i < args->n; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      append_arg (out, &args->items[i]);
    }
  g_string_append (out, "], \"kwargs\": [");
  for (guint i = 0; i < kwargs->n; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      g_string_append_c (out, '[');
      append_arg (out, &kwargs->items[2 * i]);
      g_string_append (out, ", ");
      append_arg (out, &kwargs->items[2 * i + 1]);
      g_string_append_c (out, ']');
    }
  g_string_append (out, "], \"users\": [");
  for (guint i = 0; i < graft_node_get_n_users (node); i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      graft_json_append_string (out, graft_node_get_name (graft_node_get_user (node, i)), -1);
    }
  g_string_append_c (out, ']');
  if (type != NULL)
    {
      g_autoptr (GString) listed = g_string_new (NULL);

      /* As the listing shows it. */
      _graft_type_text_append_listing (listed, type);
      g_string_append (out, ", \"type\": ");
      graft_json_append_string (out, listed->str, listed->len);
    }
  if (graft_node_get_meta (node) != NULL)
    {
      g_string_append (out, ", \"meta\": ");
      append_meta (out, graft_node_get_meta (node));
    }
  g_string_append_c (out, '}');
}

/* The graph as JSON written a few nodes at a time (graft_json_job_step()). */
struct _GraftJsonJob
{
  GString    *out;    /* Owned: the text since the last piece */
  GPtrArray  *pieces; /* Owned: the text's pieces before @out, or NULL */
  GraftGraph *graph;  /* Borrowed */
  GraftNode  *next;   /* Borrowed: the next node to write, or NULL */
  gboolean    first;  /* no node is written yet */
  gboolean    tail;   /* the nodes' list is closed: the program's signature follows */
  guint       entry;  /* the signature's next entry (append_signature_entry()) */
};

/**
 * graft_json_job_new:
 * @graph: a graph, unchanged until the job is finished or freed
 *
 * Begins graft_json_graph() of @graph, to be written by steps (at a
 * million nodes the whole text takes most of a second).  The job holds
 * the node it writes next, so @graph must not change between its steps.
 *
 * Returns: (transfer full): the job
 */
GraftJsonJob *
graft_json_job_new (GraftGraph *graph)
{
  GraftJsonJob *job;

  g_return_val_if_fail (graph != NULL, NULL);

  job = g_new0 (GraftJsonJob, 1);
  job->out = g_string_new ("{\"nodes\": [");
  job->graph = graph;
  job->next = graft_graph_get_first (graph);
  job->first = TRUE;
  return job;
}

/**
 * graft_json_job_step:
 * @job: a JSON job
 * @n_nodes: how many nodes to write at most
 *
 * Returns: whether every node is written
 */
gboolean
graft_json_job_step (GraftJsonJob *job,
                     guint         n_nodes)
{
  g_return_val_if_fail (job != NULL, TRUE);

  guint         k = 0;
  GraftProgram *program = graft_graph_get_program (job->graph);

  _graft_text_cut (&job->pieces, &job->out);
  for (; k < n_nodes && job->next != NULL; k++)
    {
      append_node (job->out, job->next, job->first);
      job->first = FALSE;
      job->next = graft_node_get_next (job->next);
    }
  if (job->next != NULL)
    return FALSE;
  if (!job->tail)
    {
      job->tail = TRUE;
      g_string_append (job->out, job->first ? "]" : "\n]");
      if (graft_graph_get_module_name (job->graph) != NULL)
        {
          g_string_append (job->out, ",\n \"module\": ");
          graft_json_append_string (job->out, graft_graph_get_module_name (job->graph), -1);
        }
      if (program != NULL)
        g_string_append (job->out, ",\n \"signature\": ");
    }
  /* A program of a million nodes has a signature of hundreds of
   * thousands of entries: by steps too. */
  for (; program != NULL && k < n_nodes && job->entry < signature_n_entries (program); k++)
    append_signature_entry (job->out, program, job->entry++);
  return program == NULL || job->entry == signature_n_entries (program);
}

/**
 * graft_json_job_finish:
 * @job: (transfer full): a JSON job whose steps are all done
 *
 * Returns: (transfer full): the text graft_json_graph() returns
 */
char *
graft_json_job_finish (GraftJsonJob *job)
{
  GString *out;

  g_return_val_if_fail (job != NULL, NULL);
  g_return_val_if_fail (job->next == NULL && job->tail, NULL);

  g_string_append_c (job->out, '}');
  _graft_text_rejoin (&job->pieces, &job->out);
  out = g_steal_pointer (&job->out);
  g_free (job);
  return g_string_free (out, FALSE);
}

/**
 * graft_json_job_finish_pieces:
 * @job: (transfer full): a JSON job whose steps are all done
 *
 * As graft_json_job_finish(), without joining what the steps wrote:
 * graft_output_join_pieces() joins them, on any thread.
 *
 * Returns: (transfer full) (element-type GBytes): the text in pieces
 */
GPtrArray *
graft_json_job_finish_pieces (GraftJsonJob *job)
{
  GPtrArray *pieces;

  g_return_val_if_fail (job != NULL, NULL);
  g_return_val_if_fail (job->next == NULL && job->tail, NULL);

  g_string_append_c (job->out, '}');
  pieces = _graft_text_take_pieces (&job->pieces, &job->out);
  g_free (job);
  return pieces;
}

/**
 * graft_json_job_free:
 * @job: (transfer full): a JSON job, finished or not
 */
void
graft_json_job_free (GraftJsonJob *job)
{
  if (job == NULL)
    return;
  if (job->out != NULL)
    g_string_free (job->out, TRUE);
  g_clear_pointer (&job->pieces, g_ptr_array_unref);
  g_free (job);
}

/**
 * graft_json_graph:
 * @graph: a graph
 *
 * The graph as JSON: `{"nodes": [...]}`, one object per node in order
 * with its name, op, target, args, kwargs (as `[key, value]` pairs, in
 * order), users and type.  Values that JSON has no form for are objects
 * with one key saying what they are (`{"node": "add"}`, `{"tuple": [...]}`,
 * `{"symbol": "torch.float32"}`, `{"float": "inf"}`), so nothing is lost.
 * A node of a torch.export program also has `meta` (`{"kind": "tensor",
 * "dtype": "f32", "shape": "[2, 4]", "stack_trace": ..., "nn_module_stack":
 * [{"key": ..., "path": ..., "type": ...}], ...}`: the fields of
 * #GraftNodeMeta that are set), and the graph `module` (the class
 * print_readable names) and `signature` (`{"inputs": [{"kind":
 * "PARAMETER", "name": "p_lin_weight", "target": "lin.weight"}, ...],
 * "outputs": [...], "range_constraints": "{}"}`) after `nodes`.
 *
 * Returns: (transfer full): the JSON text
 */
char *
graft_json_graph (GraftGraph *graph)
{
  GraftJsonJob *job = graft_json_job_new (graph);

  graft_json_job_step (job, G_MAXUINT);
  return graft_json_job_finish (job);
}
