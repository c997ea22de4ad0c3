/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * example.c: where the bundled example is, and what the core alone makes
 * of it, for the editor tests to compare the window's results with.
 */
#include "config.h"

#include "example.h"
#include "graft-view.h"

#include <string.h>

/**
 * example_path:
 *
 * Returns: (transfer full): data/examples/subgraph_rewriter_basic_use.py
 */
char *
example_path (void)
{
  return g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "data", "examples",
                           "subgraph_rewriter_basic_use.py", NULL);
}

/**
 * example_code:
 *
 * Returns: (transfer full): the example's code, unchanged
 */
char *
example_code (void)
{
  g_autofree char *path = example_path ();
  g_autoptr (GraftInputSet) set = graft_input_set_new (graft_dialect_get_default ());
  g_autoptr (GraftGraph) graph = graft_input_set_load (set, path, NULL, FALSE, NULL);

  return graft_codegen_python (graph);
}

/**
 * example_rewrite:
 * @only: the match to replace, or -1 for all of them
 * @then_all: afterwards, replace every match that is left (exactly one)
 *
 * Returns: (transfer full): the code `replace_pattern` gives
 */
char *
example_rewrite (gint     only,
                 gboolean then_all)
{
  g_autofree char *path = example_path ();
  g_autoptr (GraftInputSet) set = graft_input_set_new (graft_dialect_get_default ());
  g_autoptr (GraftGraph) graph = graft_input_set_load (set, path, NULL, FALSE, NULL);
  g_autoptr (GraftGraph) pattern_graph = graft_input_set_load (set, path, "pattern", TRUE, NULL);
  g_autoptr (GraftGraph) replacement = graft_input_set_load (set, path, "replacement", TRUE, NULL);
  g_autoptr (GraftPattern) pattern = graft_pattern_new (g_steal_pointer (&pattern_graph), NULL);
  g_autoptr (GPtrArray) matches = graft_matcher_find (pattern, graph, NULL, NULL);
  g_autoptr (GPtrArray) chosen = g_ptr_array_new ();
  g_autoptr (GraftRewrite) rewrite = NULL;

  for (guint i = 0; i < matches->len; i++)
    if (only < 0 || (guint) only == i)
      g_ptr_array_add (chosen, matches->pdata[i]);
  rewrite = graft_rewriter_apply (graph, pattern, replacement, chosen, NULL);
  g_assert_nonnull (rewrite);
  if (then_all)
    {
      g_autoptr (GPtrArray) rest = graft_matcher_find (pattern, graph, NULL, NULL);
      g_autoptr (GraftRewrite) second =
          graft_rewriter_apply (graph, pattern, replacement, rest, NULL);

      g_assert_nonnull (second);
      g_assert_cmpuint (rest->len, ==, 1);
    }
  return graft_codegen_python (graph);
}

/**
 * example_python_file:
 * @code: code as torch writes it (graft_codegen_python())
 *
 * Returns: (transfer full): the Python file the editor exports for @code:
 *   `import torch` (and `operator`, `math` when used), two blank lines,
 *   the code with no blank line at its start, no whitespace at the end
 *   of a line, one final newline
 */
char *
example_python_file (const char *code)
{
  g_auto (GStrv) lines = g_strsplit (code, "\n", -1);
  GString *out = g_string_new ("import torch\n");
  guint    first = 0;
  guint    last;

  if (strstr (code, "operator.") != NULL)
    g_string_append (out, "import operator\n");
  if (strstr (code, "math.") != NULL)
    g_string_append (out, "import math\n");
  g_string_append (out, "\n\n");
  for (guint i = 0; lines[i] != NULL; i++)
    g_strchomp (lines[i]);
  last = g_strv_length (lines);
  while (first < last && lines[first][0] == '\0')
    first++;
  while (last > first && lines[last - 1][0] == '\0')
    last--;
  for (guint i = first; i < last; i++)
    g_string_append_printf (out, "%s\n", lines[i]);
  return g_string_free (out, FALSE);
}

/**
 * example_copy:
 * @dir: a directory
 *
 * Returns: (transfer full): the path of a copy of the example as
 *   @dir/model.py, for tests that write next to the file or autosave it
 */
char *
example_copy (const char *dir)
{
  g_autofree char *example = example_path ();
  g_autofree char *contents = NULL;
  char            *path = g_build_filename (dir, "model.py", NULL);
  gsize            length;

  g_assert_true (g_file_get_contents (example, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) length, NULL));
  return path;
}
