/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-diff.c: times the line diff behind the editor's Show Changes on
 * a large rewrite, in process, without GTK.  It reads FILE (a model, e.g.
 * `tests/bench/gen-module.py 50000`), generates its code, replaces every
 * match of the pattern, generates the code again, and times
 * graft_diff_lines() on the two texts (split into lines as the Changes
 * window splits them), best of REPEAT runs.  Prints `key=value` pairs.
 *
 *   bench-diff FILE [REPEAT] [PATTERN-FILE]
 *
 * PATTERN-FILE defines `pattern` and `replacement`; without it the
 * editor's default pair is used (torch.relu -> F.relu).
 */
#include "config.h"

#include "graft-view.h"

#include <stdio.h>
#include <stdlib.h>

#define DEFAULT_RULE           \
  "import torch\n"             \
  "\n"                         \
  "\n"                         \
  "def pattern(x):\n"          \
  "    return torch.relu(x)\n" \
  "\n"                         \
  "\n"                         \
  "def replacement(x):\n"      \
  "    return torch.nn.functional.relu(x)\n"

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

static void
die (GError     *error,
     const char *where)
{
  g_autofree char *line = graft_error_format (error, where);

  fprintf (stderr, "%s\n", line);
  exit (1);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftSource) rule_source = NULL;
  g_autoptr (GraftPyProgram) program = NULL;
  g_autoptr (GraftPyProgram) rule = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftGraph) replacement = NULL;
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GPtrArray) matches = NULL;
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  const char      *rule_name = argc > 3 ? argv[3] : "(the editor's default)";
  guint            repeat = argc > 2 ? (guint) atoi (argv[2]) : 5;
  double           best_split = G_MAXDOUBLE;
  double           best_diff = G_MAXDOUBLE;
  guint            removed = 0;
  guint            added = 0;
  guint            n_before = 0;
  guint            n_after = 0;

  const GraftDialect *dialect = graft_dialect_get_default ();

  if (argc < 2 || argc > 4 || repeat == 0)
    {
      fprintf (stderr, "usage: bench-diff FILE [REPEAT] [PATTERN-FILE]\n");
      return 2;
    }
  source = graft_input_read_file (argv[1], &error);
  if (source != NULL)
    program = graft_py_program_new (source, dialect, &error);
  if (program != NULL)
    graph = graft_py_program_trace (program, NULL, &error);
  if (graph == NULL)
    die (error, argv[1]);
  if (argc > 3)
    rule_source = graft_input_read_file (argv[3], &error);
  else
    rule_source = graft_source_new ("rule.py", DEFAULT_RULE, -1);
  if (rule_source != NULL)
    rule = graft_py_program_new (rule_source, dialect, &error);
  if (rule != NULL)
    pattern = graft_pattern_new (graft_py_program_trace (rule, "pattern", &error), &error);
  if (pattern != NULL)
    replacement = graft_py_program_trace (rule, "replacement", &error);
  if (replacement == NULL)
    die (error, rule_name);

  before = graft_codegen_python (graph);
  matches = graft_matcher_find (pattern, graph, NULL, NULL);
  rewrite = graft_rewriter_apply (graph, pattern, replacement, matches, &error);
  if (rewrite == NULL)
    die (error, argv[1]);
  after = graft_codegen_python (graph);

  for (guint r = 0; r < repeat; r++)
    {
      double t0 = now ();
      g_auto (GStrv) a = g_strsplit (g_strstrip (before), "\n", -1);
      g_auto (GStrv) b = g_strsplit (g_strstrip (after), "\n", -1);
      double t1 = now ();
      g_autoptr (GArray) lines =
          graft_diff_lines ((const char *const *) a, (const char *const *) b);
      double t2 = now ();

      best_split = MIN (best_split, t1 - t0);
      best_diff = MIN (best_diff, t2 - t1);
      n_before = g_strv_length (a);
      n_after = g_strv_length (b);
      removed = added = 0;
      for (guint i = 0; i < lines->len; i++)
        {
          GraftDiffKind kind = g_array_index (lines, GraftDiffLine, i).kind;

          removed += kind == GRAFT_DIFF_REMOVED;
          added += kind == GRAFT_DIFF_ADDED;
        }
    }
  printf ("nodes=%u matches=%u lines_before=%u lines_after=%u removed=%u added=%u "
          "split=%.6f diff=%.6f repeat=%u\n",
          graft_graph_get_n_nodes (graph), matches->len, n_before, n_after, removed, added,
          best_split, best_diff, repeat);
  return 0;
}
