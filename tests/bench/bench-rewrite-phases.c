/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-rewrite-phases.c: times one `replace_pattern` in process, phase by phase:
 * parsing and tracing the model, the pattern and the replacement, matching,
 * rewriting and generating the code.  Prints `key=value` pairs (seconds,
 * counts) for tests/bench/bench-rewrite to tabulate.
 *
 *   bench-rewrite-phases [--plain-heap] FILE [TORCH]
 *
 * FILE holds the model, `pattern` and `replacement`; TORCH is the dialect
 * (2.6, the default, or 1.13).  The heap is laid out as `graft rewrite`
 * lays out its own (graft_heap_prepare_huge_pages()), so that the phases
 * are timed as they run in the CLI; `--plain-heap` leaves it as the editor
 * has it, where a phase's fresh memory is faulted in 4 KiB at a time.
 */
#include "config.h"

#include "graft-view.h"

#include <stdio.h>
#include <sys/resource.h>

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* Minor page faults so far: fresh memory touched for the first time costs
 * a fault each page, which counts in a phase's time. */
static long
minor_faults (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftPyProgram) program = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftGraph) replacement = NULL;
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GPtrArray) matches = NULL;
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autofree char *code = NULL;
  double           t0, t_parse, t_trace, t_match, t_rewrite, t_code;
  long             f_trace, f_match, f_rewrite;
  guint            n_nodes;

  const GraftDialect *dialect = graft_dialect_get_default ();
  gboolean            plain_heap = argc > 1 && g_str_equal (argv[1], "--plain-heap");
  gboolean            huge_heap = FALSE;

  if (plain_heap)
    {
      argc--;
      argv++;
    }
  if (argc == 3)
    dialect = graft_dialect_from_name (argv[2]);
  if ((argc != 2 && argc != 3) || dialect == NULL)
    {
      fprintf (stderr, "usage: bench-rewrite-phases [--plain-heap] FILE [2.6|1.13]\n");
      return 2;
    }
  if (!plain_heap)
    huge_heap = graft_heap_prepare_huge_pages ();
  t0 = now ();
  source = graft_input_read_file (argv[1], &error);
  if (source != NULL)
    program = graft_py_program_new (source, dialect, &error);
  t_parse = now ();
  if (program != NULL)
    graph = graft_py_program_trace (program, NULL, &error);
  if (graph != NULL)
    pattern = graft_pattern_new (graft_py_program_trace (program, "pattern", &error), &error);
  if (pattern != NULL)
    replacement = graft_py_program_trace (program, "replacement", &error);
  t_trace = now ();
  if (replacement == NULL)
    {
      g_autofree char *line = graft_error_format (error, argv[1]);

      fprintf (stderr, "%s\n", line);
      return 1;
    }
  n_nodes = graft_graph_get_n_nodes (graph);
  f_trace = minor_faults ();
  matches = graft_matcher_find (pattern, graph, NULL, NULL);
  t_match = now ();
  f_match = minor_faults ();
  rewrite = graft_rewriter_apply (graph, pattern, replacement, matches, &error);
  t_rewrite = now ();
  f_rewrite = minor_faults ();
  if (rewrite == NULL)
    {
      g_autofree char *line = graft_error_format (error, argv[1]);

      fprintf (stderr, "%s\n", line);
      return 1;
    }
  code = graft_codegen_python (graph);
  t_code = now ();
  printf ("nodes=%u matches=%u parse=%.6f trace=%.6f match=%.6f rewrite=%.6f code=%.6f "
          "match_faults=%ld rewrite_faults=%ld heap=%s\n",
          n_nodes, matches->len, t_parse - t0, t_trace - t_parse, t_match - t_trace,
          t_rewrite - t_match, t_code - t_rewrite, f_match - f_trace, f_rewrite - f_match,
          huge_heap ? "huge" : "plain");
  return 0;
}
