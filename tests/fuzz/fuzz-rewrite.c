/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fuzz-rewrite.c: the matcher and the rewriter.  The input is a Python
 * file as `graft rewrite FILE` takes it: the model (first class with a
 * forward, or `forward`), `pattern` and `replacement`.  What traces is
 * matched and rewritten, in each dialect; the result must pass the lint,
 * print, undo back to the original code, and rewrite again to the same
 * code.
 */
#include "config.h"

#include "fuzz.h"
#include "graft-view.h"

#include <string.h>

/* One input in one dialect. */
static int
fuzz_one (const uint8_t      *data,
          size_t              size,
          const GraftDialect *dialect)
{
  g_autoptr (GraftSource) source = graft_source_new ("fuzz.py", (const char *) data, (gssize) size);
  g_autoptr (GraftPyProgram) program =
      graft_py_program_new (source, dialect, NULL);
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftGraph) pattern_graph = NULL;
  g_autoptr (GraftGraph) replacement = NULL;
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autoptr (GraftEdit) edit = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *undone = NULL;
  g_autoptr (GraftRewrite) again = NULL;
  g_autofree char *redone = NULL;

  if (program == NULL || !graft_py_program_has_entry (program, "pattern") ||
      !graft_py_program_has_entry (program, "replacement"))
    return 0;
  graph = graft_py_program_trace (program, NULL, NULL);
  pattern_graph = graft_py_program_trace (program, "pattern", NULL);
  replacement = graft_py_program_trace (program, "replacement", NULL);
  if (graph == NULL || pattern_graph == NULL || replacement == NULL)
    return 0;
  pattern = graft_pattern_new (g_steal_pointer (&pattern_graph), NULL);
  if (pattern == NULL)
    return 0;
  before = graft_codegen_python (graph);
  rewrite = graft_replace_pattern (graph, pattern, replacement, NULL, NULL);
  if (rewrite == NULL)
    {
      g_autofree char *same = graft_codegen_python (graph);

      if (strcmp (same, before) != 0)
        fuzz_fail ("a failed rewrite changed the graph");
      return 0;
    }
  if (!graft_graph_lint (graph, GRAFT_LINT_DEFAULT, NULL))
    fuzz_fail ("a rewritten graph fails the lint");
  after = graft_codegen_python (graph);
  edit = graft_rewrite_steal_edit (rewrite);
  if (edit != NULL)
    {
      graft_edit_undo (edit);
      undone = graft_codegen_python (graph);
      if (strcmp (undone, before) != 0)
        fuzz_fail ("undo does not restore the code");
      /* Undo leaves the names as they were (torch 2.x's per-base counts
       * too): rewriting again names every node as the first time. */
      again = graft_replace_pattern (graph, pattern, replacement, NULL, NULL);
      redone = again != NULL ? graft_codegen_python (graph) : NULL;
      if (g_strcmp0 (redone, after) != 0)
        fuzz_fail ("rewriting again after undo gives other code");
    }
  return 0;
}

/* Every input runs in each dialect. */
int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  for (guint t = 0; t < GRAFT_N_TORCHES; t++)
    fuzz_one (data, size, graft_dialect_get (t));
  return 0;
}
