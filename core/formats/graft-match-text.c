/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-match-text.c: a match as cli.md's JSON object or as one line of
 * `pattern=graph` pairs.  Everything it knows of a match comes through the
 * matcher's accessors: a binding is a graph node (written by name) or a
 * literal (written as torch's code writes it).
 */
#include "config.h"

#include "graft-match-text.h"
#include "graft-arg.h"
#include "graft-graph.h"
#include "graft-json.h"
#include "graft-strbuf-private.h"

/* The binding of pattern node @position: a name, or `{"literal": repr}`. */
static void
append_binding_json (GString          *out,
                     const GraftMatch *match,
                     guint             position)
{
  GraftNode      *node = NULL;
  const GraftArg *literal = NULL;

  graft_match_get_binding (match, position, &node, &literal);
  if (node != NULL)
    graft_json_append_string (out, graft_node_get_name (node), -1);
  else
    {
      g_autofree char *repr =
          literal != NULL ? graft_arg_repr (literal, GRAFT_REPR_CODE) : g_strdup ("None");

      g_string_append (out, "{\"literal\": ");
      graft_json_append_string (out, repr, -1);
      g_string_append_c (out, '}');
    }
}

static void
append_match_json (GString          *out,
                   const GraftMatch *match)
{
  GraftPattern *p = graft_match_get_pattern (match);
  gboolean      first = TRUE;

  g_string_append (out, "{\"anchors\": [");
  for (guint i = 0; i < graft_pattern_get_n_anchors (p); i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      graft_json_append_string (out, graft_node_get_name (graft_pattern_get_anchor (p, i)), -1);
    }
  g_string_append (out, "],\n   \"nodes_map\": {");
  for (guint i = 0; i < graft_pattern_get_n_nodes (p); i++)
    {
      if (!graft_match_get_binding (match, i, NULL, NULL))
        continue;
      if (!first)
        g_string_append (out, ", ");
      first = FALSE;
      graft_json_append_string (out, graft_node_get_name (graft_pattern_get_node (p, i)), -1);
      g_string_append (out, ": ");
      append_binding_json (out, match, i);
    }
  g_string_append (out, "},\n   \"placeholder_nodes\": [");
  for (guint i = 0; i < graft_pattern_get_n_placeholders (p); i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      append_binding_json (out, match, graft_pattern_get_placeholder_position (p, i));
    }
  g_string_append (out, "],\n   \"returning_nodes\": [");
  for (guint i = 0; i < graft_pattern_get_n_returning (p); i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      append_binding_json (out, match, graft_pattern_get_returning_position (p, i));
    }
  g_string_append (out, "]}");
}

/**
 * graft_match_to_json:
 *
 * Returns: (transfer full): one match as cli.md's JSON object
 */
char *
graft_match_to_json (const GraftMatch *match)
{
  GString *out = g_string_new (NULL);

  append_match_json (out, match);
  return g_string_free (out, FALSE);
}

/* `{"matches": [...]}` written a few matches at a time
 * (graft_matches_json_job_step()). */
struct _GraftMatchesJsonJob
{
  GString   *out;     /* Owned: the text since the last piece */
  GPtrArray *pieces;  /* Owned: the text's pieces before @out, or NULL */
  GPtrArray *matches; /* Borrowed */
  guint      next;    /* the next match to write */
};

/**
 * graft_matches_json_job_new:
 * @matches: (element-type GraftMatch): matches, held unchanged by the
 *   caller (and their graph) until the job is finished or freed
 *
 * Begins graft_matches_to_json() of @matches, to be written by steps: a
 * hundred thousand matches take tens of milliseconds.
 *
 * Returns: (transfer full): the job
 */
GraftMatchesJsonJob *
graft_matches_json_job_new (GPtrArray *matches)
{
  GraftMatchesJsonJob *job;

  g_return_val_if_fail (matches != NULL, NULL);

  job = g_new0 (GraftMatchesJsonJob, 1);
  job->out = g_string_new ("{\"matches\": [");
  job->matches = matches;
  return job;
}

/**
 * graft_matches_json_job_step:
 * @job: a job
 * @n_matches: how many matches to write at most
 *
 * Returns: whether every match is written
 */
gboolean
graft_matches_json_job_step (GraftMatchesJsonJob *job,
                             guint                n_matches)
{
  g_return_val_if_fail (job != NULL, TRUE);

  _graft_text_cut (&job->pieces, &job->out);
  for (guint k = 0; k < n_matches && job->next < job->matches->len; k++, job->next++)
    {
      g_string_append (job->out, job->next > 0 ? ",\n  " : "\n  ");
      append_match_json (job->out, job->matches->pdata[job->next]);
    }
  return job->next == job->matches->len;
}

/**
 * graft_matches_json_job_finish:
 * @job: (transfer full): a job whose steps are all done
 *
 * Returns: (transfer full): the text graft_matches_to_json() returns
 */
char *
graft_matches_json_job_finish (GraftMatchesJsonJob *job)
{
  GString *out;

  g_return_val_if_fail (job != NULL, NULL);
  g_return_val_if_fail (job->next == job->matches->len, NULL);

  g_string_append (job->out, job->matches->len > 0 ? "\n]}" : "]}");
  _graft_text_rejoin (&job->pieces, &job->out);
  out = g_steal_pointer (&job->out);
  g_free (job);
  return g_string_free (out, FALSE);
}

/**
 * graft_matches_json_job_finish_pieces:
 * @job: (transfer full): a job whose steps are all done
 * @tail: (nullable): text to add after it (the CLI's final newline)
 *
 * As graft_matches_json_job_finish() followed by @tail, without joining
 * what the steps wrote: graft_output_join_pieces() joins them, on any
 * thread.
 *
 * Returns: (transfer full) (element-type GBytes): the text in pieces
 */
GPtrArray *
graft_matches_json_job_finish_pieces (GraftMatchesJsonJob *job,
                                      const char          *tail)
{
  GPtrArray *pieces;

  g_return_val_if_fail (job != NULL, NULL);
  g_return_val_if_fail (job->next == job->matches->len, NULL);

  g_string_append (job->out, job->matches->len > 0 ? "\n]}" : "]}");
  if (tail != NULL)
    g_string_append (job->out, tail);
  pieces = _graft_text_take_pieces (&job->pieces, &job->out);
  g_free (job);
  return pieces;
}

/**
 * graft_matches_json_job_free:
 * @job: (transfer full): a job, finished or not
 */
void
graft_matches_json_job_free (GraftMatchesJsonJob *job)
{
  if (job == NULL)
    return;
  if (job->out != NULL)
    g_string_free (job->out, TRUE);
  g_clear_pointer (&job->pieces, g_ptr_array_unref);
  g_free (job);
}

/**
 * graft_matches_to_json:
 * @matches: (element-type GraftMatch): matches
 *
 * Returns: (transfer full): `{"matches": [...]}` as cli.md shows it
 */
char *
graft_matches_to_json (GPtrArray *matches)
{
  GraftMatchesJsonJob *job = graft_matches_json_job_new (matches);

  graft_matches_json_job_step (job, G_MAXUINT);
  return graft_matches_json_job_finish (job);
}

/**
 * graft_match_to_text:
 *
 * Returns: (transfer full): `pattern=graph` pairs of @match, one line
 */
char *
graft_match_to_text (const GraftMatch *match)
{
  GraftPattern *p = graft_match_get_pattern (match);
  GString      *out = g_string_new (NULL);

  for (guint i = 0; i < graft_pattern_get_n_nodes (p); i++)
    {
      GraftNode      *node = NULL;
      const GraftArg *literal = NULL;

      if (!graft_match_get_binding (match, i, &node, &literal))
        continue;
      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append_printf (out, "%s=", graft_node_get_name (graft_pattern_get_node (p, i)));
      if (node != NULL)
        g_string_append (out, graft_node_get_name (node));
      else
        {
          g_autofree char *repr = graft_arg_repr (literal, GRAFT_REPR_CODE);

          g_string_append (out, repr);
        }
    }
  return g_string_free (out, FALSE);
}
