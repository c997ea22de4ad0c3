/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-undo-steps.c: built as `_build/tests/bench-undo-steps FILE RULE
 * [WORK]`.  Replaces every match of RULE's pattern in FILE (a rules file's
 * `pattern` and `replacement`, as the editor's Replace All does), then
 * undoes and redoes that edit three times by steps of WORK operations
 * (1,024 by default, the editor's step between looks at the clock:
 * graft_edit_undo_step()), or at once with WORK 0 (graft_edit_undo(),
 * graft_edit_redo()), and prints each in the thread's processor time: the
 * whole, and for steps their number and the longest.  For callgrind,
 * `--toggle-collect=graft_edit_undo* --toggle-collect=graft_edit_redo*`
 * counts the replays alone.  Figures, not a test (the tests check that
 * both give the same graph).
 */
#include "config.h"

#include "bench-steps.h"

#include <stdio.h>
#include <stdlib.h>

/* Undoes (@redo FALSE) or redoes @edit by steps of @work, or at once
 * (@work 0), and prints how long it took. */
static void
replay (GraftEdit *edit,
        gboolean   redo,
        guint      work)
{
  double   start = bench_thread_ms ();
  double   longest = 0;
  guint    steps = 0;
  gboolean done = FALSE;

  if (work == 0)
    {
      if (redo)
        graft_edit_redo (edit);
      else
        graft_edit_undo (edit);
      printf ("%s at once %.1f ms\n", redo ? "redo" : "undo", bench_thread_ms () - start);
      return;
    }
  while (!done)
    {
      double t = bench_thread_ms ();

      done = redo ? graft_edit_redo_step (edit, work) : graft_edit_undo_step (edit, work);
      longest = MAX (longest, bench_thread_ms () - t);
      steps++;
    }
  printf ("%s by steps %.1f ms (%u steps, longest %.2f ms)\n", redo ? "redo" : "undo",
          bench_thread_ms () - start, steps, longest);
}

static GraftGraph *
trace_rule (GraftSource *rule,
            const char  *name)
{
  g_autoptr (GError) error = NULL;
  GraftGraph *graph = graft_trace_source (rule, graft_dialect_get (GRAFT_TORCH_2_6), name, &error);

  if (graph == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      exit (1);
    }
  return graph;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftSource) rule = NULL;
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GraftGraph) replacement = NULL;
  g_autoptr (GPtrArray) matches = NULL;
  g_autoptr (GraftRewrite) rewrite = NULL;
  GraftGraph *graph;
  GraftEdit  *edit;
  guint       work = argc > 3 ? (guint) atoi (argv[3]) : 1024;

  if (argc < 3)
    {
      fprintf (stderr, "usage: bench-undo-steps FILE RULE [WORK]\n");
      return 2;
    }
  source = bench_read_source (argv[1]);
  rule = bench_read_source (argv[2]);
  graph = bench_load_graph (source);
  pattern = graft_pattern_new (trace_rule (rule, "pattern"), NULL);
  replacement = trace_rule (rule, "replacement");
  matches = graft_matcher_find (pattern, graph, NULL, NULL);
  rewrite = graft_rewriter_apply (graph, pattern, replacement, matches, &error);
  if (rewrite == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  edit = graft_rewrite_get_edit (rewrite);
  printf ("nodes=%u matches=%u operations=%u\n", graft_graph_get_n_nodes (graph), matches->len,
          graft_edit_get_n_operations (edit));
  for (guint round = 0; round < 3; round++)
    {
      replay (edit, FALSE, work);
      replay (edit, TRUE, work);
    }
  fflush (stdout);
  g_clear_pointer (&rewrite, graft_rewrite_free);
  g_clear_pointer (&matches, g_ptr_array_unref);
  graft_graph_free (graph);
  return 0;
}
