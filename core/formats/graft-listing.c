/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-listing.c: writes the graph listing exactly as torch.fx 1.13.1's
 * `Graph.__str__` and `Node.format_node` do (`torch/fx/graph.py`,
 * `torch/fx/node.py`).  The reader lives in graft-listing-reader.c.
 */
#include "config.h"

#include "graft-listing.h"
#include "graft-arg.h"
#include "graft-strbuf-private.h"
#include "graft-graph.h"
#include "graft-type-text-private.h"

#include <string.h>

/* Python's `str(value)`: a string or device as its bare text, anything
 * else as its repr (so strings nested in a tuple keep their quotes). */
static void
append_python_str (GString        *out,
                   const GraftArg *arg)
{
  if (arg->kind == GRAFT_ARG_STR || arg->kind == GRAFT_ARG_DEVICE)
    _graft_buf_append_len (out, arg->s, arg->n);
  else
    graft_arg_append_repr (out, arg, GRAFT_REPR_CODE, NULL, NULL);
}

/* One node's line, after `"\n    "`. */
static void
append_node (GString    *out,
             GraftNode  *node,
             const char *users_field)
{
  GraftOp         op = graft_node_get_op (node);
  const GraftArg *args = graft_node_get_args (node);
  const char     *type = graft_node_get_type_annotation (node);

  _graft_buf_append (out, "\n    ");
  if (op == GRAFT_OP_OUTPUT)
    {
      _graft_buf_append (out, "return ");
      if (args->n > 0)
        append_python_str (out, &args->items[0]);
      else
        _graft_buf_append (out, "None");
      return;
    }
  g_string_append_c (out, '%');
  _graft_buf_append (out, graft_node_get_name (node));
  _graft_buf_append (out, " : ");
  if (type != NULL)
    {
      _graft_type_text_append_listing (out, type);
      g_string_append_c (out, ' ');
    }
  g_string_append_c (out, '[');
  _graft_buf_append (out, users_field);
  g_string_append_c (out, '=');
  graft_append_int (out, graft_node_get_n_users (node));
  _graft_buf_append (out, "] = ");
  _graft_buf_append (out, graft_op_to_string (op));
  _graft_buf_append (out, "[target=");
  _graft_buf_append (out, graft_node_get_target (node));
  g_string_append_c (out, ']');
  if (op == GRAFT_OP_PLACEHOLDER)
    {
      if (args->n > 0)
        {
          _graft_buf_append (out, "(default=");
          append_python_str (out, &args->items[0]);
          g_string_append_c (out, ')');
        }
      return;
    }
  if (op == GRAFT_OP_GET_ATTR)
    return;
  _graft_buf_append (out, "(args = ");
  graft_arg_append_repr (out, args, GRAFT_REPR_LISTING, NULL, NULL);
  _graft_buf_append (out, ", kwargs = ");
  graft_arg_append_repr (out, graft_node_get_kwargs (node), GRAFT_REPR_LISTING, NULL, NULL);
  g_string_append_c (out, ')');
}

/* A listing written a few nodes at a time (graft_listing_job_step()). */
struct _GraftListingJob
{
  GString    *out;         /* Owned: the listing since the last piece */
  GPtrArray  *pieces;      /* Owned: the listing's pieces before @out, or NULL */
  GraftNode  *next;        /* Borrowed: the next node to write, or NULL */
  const char *users_field; /* Borrowed: the dialect's */
};

/**
 * graft_listing_job_new:
 * @graph: a graph, unchanged until the job is finished or freed
 *
 * Begins graft_listing_to_gstring() of @graph, to be written by steps:
 * at a million nodes the whole listing takes a few hundred milliseconds.
 * The job holds the node it writes next, so @graph must not change
 * between its steps.
 *
 * Returns: (transfer full): the job
 */
GraftListingJob *
graft_listing_job_new (GraftGraph *graph)
{
  GraftListingJob *job;

  g_return_val_if_fail (graph != NULL, NULL);

  job = g_new0 (GraftListingJob, 1);
  job->out = g_string_new ("graph():");
  job->users_field = graft_graph_get_dialect (graph)->users_field;
  job->next = graft_graph_get_first (graph);
  return job;
}

/**
 * graft_listing_job_step:
 * @job: a listing job
 * @n_nodes: how many nodes to write at most
 *
 * Returns: whether the whole listing is written
 */
gboolean
graft_listing_job_step (GraftListingJob *job,
                        guint            n_nodes)
{
  g_return_val_if_fail (job != NULL, TRUE);

  _graft_text_cut (&job->pieces, &job->out);
  for (guint k = 0; k < n_nodes && job->next != NULL; k++)
    {
      append_node (job->out, job->next, job->users_field);
      job->next = graft_node_get_next (job->next);
    }
  return job->next == NULL;
}

/**
 * graft_listing_job_finish:
 * @job: (transfer full): a listing job whose steps are all done
 *
 * Returns: (transfer full): the listing, as graft_listing_to_gstring()
 *   returns it
 */
GString *
graft_listing_job_finish (GraftListingJob *job)
{
  GString *out;

  g_return_val_if_fail (job != NULL, NULL);
  g_return_val_if_fail (job->next == NULL, NULL);

  _graft_text_rejoin (&job->pieces, &job->out);
  out = g_steal_pointer (&job->out);
  g_free (job);
  return out;
}

/**
 * graft_listing_job_finish_pieces:
 * @job: (transfer full): a listing job whose steps are all done
 *
 * As graft_listing_job_finish(), without joining what the steps wrote:
 * graft_output_join_pieces() joins them, on any thread.
 *
 * Returns: (transfer full) (element-type GBytes): the listing in pieces
 */
GPtrArray *
graft_listing_job_finish_pieces (GraftListingJob *job)
{
  GPtrArray *pieces;

  g_return_val_if_fail (job != NULL, NULL);
  g_return_val_if_fail (job->next == NULL, NULL);

  pieces = _graft_text_take_pieces (&job->pieces, &job->out);
  g_free (job);
  return pieces;
}

/**
 * graft_listing_job_free:
 * @job: (transfer full): a listing job, finished or not
 */
void
graft_listing_job_free (GraftListingJob *job)
{
  if (job == NULL)
    return;
  if (job->out != NULL)
    g_string_free (job->out, TRUE);
  g_clear_pointer (&job->pieces, g_ptr_array_unref);
  g_free (job);
}

/**
 * graft_listing_to_gstring:
 * @graph: a graph
 *
 * Returns: (transfer full): `str(graph)` of the graph's torch: `graph():`, then
 *   one line per node, each after `"\n    "`; no trailing newline.  A string
 *   argument is printed raw, so the text may hold NUL bytes: use the
 *   GString's length.
 */
GString *
graft_listing_to_gstring (GraftGraph *graph)
{
  GraftListingJob *job;

  g_return_val_if_fail (graph != NULL, NULL);

  job = graft_listing_job_new (graph);
  graft_listing_job_step (job, G_MAXUINT);
  return graft_listing_job_finish (job);
}

/**
 * graft_listing_print:
 * @graph: a graph
 *
 * Like graft_listing_to_gstring(), as a NUL-terminated string (which ends
 * early if a string argument holds a NUL byte).
 *
 * Returns: (transfer full): the listing
 */
char *
graft_listing_print (GraftGraph *graph)
{
  return g_string_free (graft_listing_to_gstring (graph), FALSE);
}
