/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * driver.c: replays saved fuzz inputs through a fuzz target without
 * libFuzzer, one TAP case per file, so the normal suite (and CI, without
 * clang's fuzzer runtime) runs every seed and every input that once
 * crashed.  Usage: fuzz-replay-NAME DIR...
 */
#include "config.h"

#include "fuzz.h"
#include "graft-view.h"

#include <glib.h>

static void
replay (gconstpointer data)
{
  const char      *path = data;
  g_autofree char *contents = NULL;
  gsize            length = 0;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_no_error (error);
  LLVMFuzzerTestOneInput ((const uint8_t *) contents, length);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  /* Nothing set up here that the libFuzzer binary (no driver) lacks: a
   * target needing the DOT reader enables it itself (fuzz-dot.c). */
  g_test_init (&argc, &argv, NULL);
  for (int i = 1; i < argc; i++)
    {
      g_autoptr (GDir) dir = g_dir_open (argv[i], 0, NULL);
      const char *name;

      if (dir == NULL)
        continue;
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (argv[i], name, NULL);

          if (name[0] != '.' && g_strcmp0 (name, "README") != 0 &&
              g_file_test (path, G_FILE_TEST_IS_REGULAR))
            g_ptr_array_add (paths, g_steal_pointer (&path));
        }
    }
  g_ptr_array_sort (paths, compare_names);
  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *base = g_path_get_basename (paths->pdata[i]);
      g_autofree char *dir = g_path_get_dirname (paths->pdata[i]);
      g_autofree char *suite = g_path_get_basename (dir);
      g_autofree char *test = g_strdup_printf ("/fuzz/%s/%s", suite, base);

      g_test_add_data_func (test, paths->pdata[i], replay);
    }
  return g_test_run ();
}
