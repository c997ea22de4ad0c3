/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-scopes-steps.c: built as `_build/tests/bench-scopes-steps FILE
 * [NODES]`.  Makes FILE's scopes as the editor's layout runner makes them
 * after an edit: a GraftScopesBuilder stepped NODES nodes at a time (256
 * by default, the runner's step), three times (the later ones with the
 * room the first left to the allocator, as after an edit), and prints,
 * in the thread's processor time, the longest step (and which), the
 * steps over 4 and 8 ms, and the whole.  The runner's turn is several
 * steps up to 6 ms, so a step over a few milliseconds is a turn over
 * budget.  Figures, not a test.
 */
#include "config.h"

#include "bench-steps.h"

#include <stdio.h>

static void
run (GraftGraph *graph,
     guint       n_nodes,
     guint       round)
{
  GraftScopesBuilder *builder;
  GraftScopes        *scopes;
  double              t, dt, longest = 0, second = 0, total = 0;
  guint               steps = 0, over4 = 0, over8 = 0, longest_at = 0;
  gboolean            done = FALSE;

  t = bench_thread_ms ();
  builder = graft_scopes_builder_new (graph);
  total += bench_thread_ms () - t;
  while (!done)
    {
      t = bench_thread_ms ();
      done = graft_scopes_builder_step (builder, n_nodes);
      dt = bench_thread_ms () - t;
      total += dt;
      steps++;
      if (dt > longest)
        {
          second = longest;
          longest = dt, longest_at = steps;
        }
      else if (dt > second)
        second = dt;
      over4 += dt > 4;
      over8 += dt > 8;
    }
  t = bench_thread_ms ();
  scopes = graft_scopes_builder_finish (builder);
  graft_scopes_free (scopes);
  total += bench_thread_ms () - t;
  printf ("round=%u steps=%u longest=%.1f@%u second=%.1f over4=%u over8=%u total=%.0f\n", round,
          steps, longest, longest_at, second, over4, over8, total);
  fflush (stdout);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GraftSource) source = NULL;
  guint       n_nodes;
  GraftGraph *graph =
      bench_open_graph (argc, argv, "bench-scopes-steps", 256, &n_nodes, &source);

  for (guint i = 1; i <= 3; i++)
    run (graph, n_nodes, i);
  graft_graph_free (graph);
  return 0;
}
