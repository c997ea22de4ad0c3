/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-util.c: see test-util.h.
 */
#include "config.h"

#include "test-util.h"

/* tests/data/@dir/@name (@name may be NULL for the folder itself). */
char *
test_data_path (const char *dir,
                const char *name)
{
  return g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", dir, name, NULL);
}

/* The graph of the file at @path, which must load. */
GraftGraph *
test_load_graph (const char *path)
{
  g_autoptr (GraftInputSet) set = graft_input_set_new (graft_dialect_get (GRAFT_TORCH_1_13));
  g_autoptr (GError) error = NULL;
  GraftGraph *graph = graft_input_set_load (set, path, NULL, FALSE, &error);

  g_assert_no_error (error);
  g_assert_nonnull (graph);
  return graph;
}
