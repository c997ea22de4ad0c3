/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-codegen-steps.c: built as `_build/tests/bench-codegen-steps FILE
 * [NODES]`.  Makes FILE's code as the editor makes it for the autosave
 * and the Code page: a GraftCodegenJob stepped NODES nodes at a time
 * (2,000 by default, the editor's step), three times (the later ones with
 * the room the first code left to the allocator, as after an edit), and prints, in
 * the thread's processor time, the job's start, its longest step and the
 * steps over 8 and 12 ms, taking its code, freeing the job (its tables)
 * and freeing the code; then the check that the code compiles, at once
 * and by steps of 25 times NODES (the editor's).  With BENCH_SPANS set, each step over 12 ms is
 * printed as its span in the monotonic clock's seconds, for
 * `perf script --time` of a `perf record -k CLOCK_MONOTONIC`.  Figures, not
 * a test.
 */
#include "config.h"

#include "bench-steps.h"

#include <stdio.h>

static void
run (GraftGraph *graph,
     guint       n_nodes,
     guint       round)
{
  GraftCodegenJob *job;
  double           t, dt, longest = 0;
  guint            steps = 0, over8 = 0, over12 = 0, longest_at = 0;
  char            *code;
  gboolean         done = FALSE;

  t = bench_thread_ms ();
  job = graft_codegen_job_new (graph);
  printf ("round=%u new=%.1f ", round, bench_thread_ms () - t);
  while (!done)
    {
      t = bench_thread_ms ();
      done = graft_codegen_job_step (job, n_nodes);
      dt = bench_thread_ms () - t;
      if (dt > 12 && g_getenv ("BENCH_SPANS") != NULL)
        printf ("span=%.6f,%.6f ", (g_get_monotonic_time () - dt * 1e3) / 1e6,
                g_get_monotonic_time () / 1e6);
      steps++;
      if (dt > longest)
        longest = dt, longest_at = steps;
      over8 += dt > 8;
      over12 += dt > 12;
    }
  printf ("steps=%u longest=%.1f@%u over8=%u over12=%u ", steps, longest, longest_at, over8,
          over12);
  t = bench_thread_ms ();
  code = graft_codegen_job_take_code (job);
  printf ("take=%.1f len=%zu ", bench_thread_ms () - t, strlen (code));
  t = bench_thread_ms ();
  graft_codegen_job_free (job);
  printf ("free_job=%.1f ", bench_thread_ms () - t);
  t = bench_thread_ms ();
  g_free (code);
  printf ("free_code=%.1f\n", bench_thread_ms () - t);
  fflush (stdout);
}

/* The check that the code compiles (graft_codegen_check_module()) at
 * once, then by steps of @n_nodes as the editor's document makes it
 * (25 nodes per node of a code step: 50,000). */
static void
run_check (GraftGraph *graph,
           guint       n_nodes,
           guint       round)
{
  GraftCodegenCheck *check;
  double             t, dt, longest = 0;
  guint              steps = 1;
  gboolean           holds;

  t = bench_thread_ms ();
  holds = graft_codegen_check_module (graph, NULL);
  printf ("check round=%u at_once=%.1f holds=%d ", round, bench_thread_ms () - t, holds);
  t = bench_thread_ms ();
  check = graft_codegen_check_new (graph);
  while (!graft_codegen_check_step (check, n_nodes))
    {
      dt = bench_thread_ms () - t;
      longest = MAX (longest, dt);
      steps++;
      t = bench_thread_ms ();
    }
  holds = graft_codegen_check_finish (check, NULL);
  dt = bench_thread_ms () - t;
  longest = MAX (longest, dt);
  printf ("steps=%u longest=%.1f holds=%d\n", steps, longest, holds);
  fflush (stdout);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GraftSource) source = NULL;
  guint       n_nodes;
  GraftGraph *graph =
      bench_open_graph (argc, argv, "bench-codegen-steps", 2000, &n_nodes, &source);

  for (guint i = 1; i <= 3; i++)
    run (graph, n_nodes, i);
  for (guint i = 1; i <= 3; i++)
    run_check (graph, n_nodes * 25, i);
  graft_graph_free (graph);
  return 0;
}
