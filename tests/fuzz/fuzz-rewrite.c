/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fuzz-rewrite.c: the matcher and the rewriter.  The input is a Python
 * file as `graft rewrite FILE` takes it: the model (first class with a
 * forward, or `forward`), `pattern` and `replacement`.  What traces is
 * matched and rewritten; the result must pass the lint, print, and undo
 * back to the original code.
 */
#include "config.h"

#include "fuzz.h"
#include "graft-view.h"

#include <string.h>

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr (GraftSource) source = graft_source_new ("fuzz.py", (const char *) data, (gssize) size);
  g_autoptr (GraftPyProgram) program =
      graft_py_program_new (source, graft_dialect_get (GRAFT_TORCH_1_13), NULL);
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftGraph) pattern_graph = NULL;
  g_autoptr (GraftGraph) replacement = NULL;
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autoptr (GraftEdit) edit = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *undone = NULL;

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
    }
  return 0;
}
