/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-explain.c: "Why not here?" on a table of hand-made near misses
 * (tests/data/explain/NAME.py, whose first line `# at: NODE` names where
 * the pattern's result should match), once per dialect: each sentence must
 * equal NAME.explain (torch 1.13.1's rules) or NAME.torch26.explain (torch
 * 2.6's), checked by hand (the README there says which torch matches
 * where); GRAFT_TEST_REGENERATE=1 rewrites them for review.
 */
#include "config.h"

#include "graft-view.h"

#include <string.h>

typedef struct
{
  char      *path;
  GraftTorch torch;
} Case;

static void
case_free (gpointer data)
{
  Case *c = data;

  g_free (c->path);
  g_free (c);
}

static void
test_case (gconstpointer data)
{
  const Case *c = data;
  const char *path = c->path;
  g_autoptr (GraftInputSet) set = graft_input_set_new (graft_dialect_get (c->torch));
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = graft_input_set_load (set, path, NULL, FALSE, &error);
  g_autoptr (GraftGraph) pattern_graph = NULL;
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GPtrArray) bound = NULL;
  g_autofree char *text = NULL;
  g_autofree char *at = NULL;
  g_autofree char *sentence = NULL;
  g_autofree char *expected_path = NULL;
  g_autofree char *expected = NULL;
  char            *nl;

  g_assert_no_error (error);
  pattern_graph = graft_input_set_load (set, path, "pattern", TRUE, &error);
  g_assert_no_error (error);
  pattern = graft_pattern_new (g_steal_pointer (&pattern_graph), &error);
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "# at: "));
  at = g_strdup (text + strlen ("# at: "));
  if ((nl = strchr (at, '\n')) != NULL)
    *nl = '\0';
  g_assert_nonnull (graft_graph_find_node (graph, at));

  sentence =
      graft_matcher_explain (pattern, graph, graft_graph_find_node (graph, at), NULL, &bound);
  g_assert_nonnull (sentence);
  /* The walk bound at least the node it started from, unless that failed. */
  g_assert_true (bound->len > 0 || g_str_has_prefix (sentence, "No match"));

  expected_path = g_strdup_printf ("%.*s%s.explain", (int) (strlen (path) - 3), path,
                                   c->torch == GRAFT_TORCH_1_13 ? "" : ".torch26");
  if (g_strcmp0 (g_getenv ("GRAFT_TEST_REGENERATE"), "1") == 0)
    {
      g_autofree char *line = g_strconcat (sentence, "\n", NULL);

      g_assert_true (g_file_set_contents (expected_path, line, -1, NULL));
    }
  g_assert_true (g_file_get_contents (expected_path, &expected, NULL, NULL));
  g_assert_cmpstr (g_strchomp (expected), ==, sentence);
}

/* g_ptr_array_sort() hands the comparator pointers to the elements. */
static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *dir = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "explain", NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_test_init (&argc, &argv, NULL);
  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".py"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    for (guint t = 0; t < GRAFT_N_TORCHES; t++)
      {
        Case            *c = g_new0 (Case, 1);
        g_autofree char *test = NULL;

        c->path = g_build_filename (dir, names->pdata[i], NULL);
        c->torch = (GraftTorch) t;
        test = g_strdup_printf ("/core/explain/%s/torch%s", (char *) names->pdata[i],
                                graft_dialect_get (c->torch)->name);
        g_test_add_data_func_full (test, c, test_case, case_free);
      }
  return g_test_run ();
}
