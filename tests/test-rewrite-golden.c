/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-rewrite-golden.c: `graft match --json` and `graft rewrite` against
 * torch.fx 1.13.1, case by case, in process.  A case is
 * `tests/data/rewrite/NAME.py` (a model with `pattern` and `replacement`,
 * options on a first line `# graft-args: ...`) or
 * `tests/data/rewrite-torchvision/NAME.args` (the arguments of a rewrite of
 * a real model); its expected outputs `NAME.match.json`, `NAME.code`,
 * `NAME.graph` and `NAME.stderr` were written by shared/tools/fx-reference
 * (tests/tools/regen-rewrite); those of `tests/data/rewrite-deviations`,
 * where torch fails, were written by Graft and checked by hand (see the
 * README there).  The rewritten graph must lint; it may break
 * "defined before use" only where Graft warned about the insertion-point
 * hazard, and it warns exactly then.  Every rewrite is then undone, which
 * must give back the traced graph.
 */
#include "config.h"

#include "graft-view.h"

#include <glib/gstdio.h>
#include <string.h>

typedef struct
{
  char *dir;
  char *args_line; /* the command line after INPUT's options */
  char *stem;
} Case;

static void
case_free (gpointer data)
{
  Case *c = data;

  g_free (c->dir);
  g_free (c->args_line);
  g_free (c->stem);
  g_free (c);
}

/* Python's str.strip() plus one newline: fx-reference's output form. */
static char *
stripped (const char *text,
          gsize       len)
{
  gsize start = 0, end = len;

  while (start < end && g_ascii_isspace (text[start]))
    start++;
  while (end > start && g_ascii_isspace (text[end - 1]))
    end--;
  return g_strdup_printf ("%.*s\n", (int) (end - start), text + start);
}

static char *
read_expected (const Case *c,
               const char *suffix)
{
  g_autofree char *path = g_strdup_printf ("%s/%s.%s", c->dir, c->stem, suffix);
  g_autofree char *text = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &text, &len, NULL))
    return NULL;
  return stripped (text, len);
}

typedef struct
{
  char    *input;
  char    *entry;
  char    *pattern;
  char    *replacement;
  gboolean ignore_literals;
} Args;

static void
args_clear (Args *a)
{
  g_free (a->input);
  g_free (a->entry);
  g_free (a->pattern);
  g_free (a->replacement);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Args, args_clear)

static void
parse_args (const char *line,
            Args       *a)
{
  g_auto(GStrv) argv = NULL;

  g_assert_true (g_shell_parse_argv (line, NULL, &argv, NULL));
  for (guint i = 0; argv[i] != NULL; i++)
    {
      if (g_str_equal (argv[i], "--ignore-literals"))
        a->ignore_literals = TRUE;
      else if (g_str_equal (argv[i], "--entry") && argv[i + 1] != NULL)
        a->entry = g_strdup (argv[++i]);
      else if (g_str_equal (argv[i], "--pattern") && argv[i + 1] != NULL)
        a->pattern = g_strdup (argv[++i]);
      else if (g_str_equal (argv[i], "--replacement") && argv[i + 1] != NULL)
        a->replacement = g_strdup (argv[++i]);
      else if (argv[i][0] != '-' && a->input == NULL)
        a->input = g_strdup (argv[i]);
      else
        g_error ("unknown argument in a test case: %s", argv[i]);
    }
}

static void
test_case (gconstpointer data)
{
  const Case *c = data;
  g_auto(Args) a = { 0 };
  g_autoptr(GraftInputSet) inputs = graft_input_set_new ();
  g_autofree char *cwd = g_get_current_dir ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GraftGraph) graph = NULL;
  g_autoptr(GraftGraph) replacement = NULL;
  g_autoptr(GraftPattern) pattern = NULL;
  g_autoptr(GPtrArray) matches = NULL;
  g_autoptr(GraftRewrite) rewrite = NULL;
  g_autofree char *pfile = NULL, *pname = NULL, *rfile = NULL, *rname = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *before = NULL;
  GraftMatchOptions options;

  g_assert_true (g_chdir (c->dir) == 0);
  parse_args (c->args_line, &a);

  graph = graft_input_set_load (inputs, a.input, a.entry, FALSE, &error);
  g_assert_no_error (error);
  if (graph == NULL)
    {
      g_assert_true (g_chdir (cwd) == 0);
      return;
    }
  graft_input_parse_ref (a.pattern, a.input, "pattern", &pfile, &pname);
  {
    GraftGraph *pattern_graph = graft_input_set_load (inputs, pfile, pname, TRUE, &error);

    if (pattern_graph != NULL)
      pattern = graft_pattern_new (pattern_graph, &error);
  }
  g_assert_no_error (error);
  if (pattern == NULL)
    {
      g_assert_true (g_chdir (cwd) == 0);
      return;
    }
  graft_input_parse_ref (a.replacement, pfile, "replacement", &rfile, &rname);
  replacement = graft_input_set_load (inputs, rfile, rname, TRUE, &error);
  g_assert_no_error (error);
  g_assert_true (g_chdir (cwd) == 0);
  if (graph == NULL || pattern == NULL || replacement == NULL)
    return;
  before = graft_listing_print (graph);

  graft_match_options_init (&options);
  options.ignore_literals = a.ignore_literals;
  matches = graft_matcher_find (pattern, graph, &options, NULL);

  expected = read_expected (c, "match.json");
  if (expected != NULL)
    {
      g_autofree char *json = graft_matches_to_json (matches);
      g_autofree char *got = stripped (json, strlen (json));

      g_assert_cmpstr (got, ==, expected);
    }

  rewrite = graft_rewriter_apply (graph, pattern, replacement, matches, &error);
  g_assert_no_error (error);
  if (rewrite == NULL)
    return;
  {
    g_autofree char *code = graft_codegen_python (graph);
    g_autofree char *got = stripped (code, strlen (code));
    g_autofree char *want = read_expected (c, "code");

    g_assert_cmpstr (got, ==, want);
  }
  {
    g_autoptr(GString) listing = graft_listing_to_gstring (graph);
    g_autofree char *got = stripped (listing->str, listing->len);
    g_autofree char *want = read_expected (c, "graph");

    g_assert_cmpstr (got, ==, want);
  }
  {
    guint n = graft_rewrite_get_n_replaced (rewrite);
    g_autofree char *got = g_strdup_printf ("replaced %u match%s\n", n, n == 1 ? "" : "es");
    g_autofree char *want = read_expected (c, "stderr");

    g_assert_cmpstr (got, ==, want);
  }
  {
    g_autoptr(GError) lint_error = NULL;
    gboolean ordered;

    graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &lint_error);
    g_assert_no_error (lint_error);
    ordered = graft_graph_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE, NULL);
    /* A warning is given exactly when the rewrite left a use before its
     * definition. */
    g_assert_cmpint (ordered, ==, graft_rewrite_get_warnings (rewrite)->len == 0);
  }
  graft_edit_undo (graft_rewrite_get_edit (rewrite));
  {
    g_autofree char *after_undo = graft_listing_print (graph);

    g_assert_cmpstr (after_undo, ==, before);
  }
}

static char *
first_line_args (const char *path)
{
  g_autofree char *text = NULL;
  const char *prefix = "# graft-args:";
  char *nl;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return g_strdup ("");
  if (!g_str_has_prefix (text, prefix))
    return g_strdup ("");
  nl = strchr (text, '\n');
  if (nl != NULL)
    *nl = '\0';
  return g_strstrip (g_strdup (text + strlen (prefix)));
}

static void
add_suite (const char *suite)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "data", suite, NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if ((g_str_has_suffix (name, ".py") && !g_str_has_suffix (name, "_rules.py") &&
         !g_str_equal (name, "patterns.py")) ||
        g_str_has_suffix (name, ".args"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_ascii_strcasecmp);
  g_assert_cmpuint (names->len, >, 0);
  for (guint i = 0; i < names->len; i++)
    {
      const char *file = names->pdata[i];
      Case *c = g_new0 (Case, 1);
      g_autofree char *path = g_build_filename (dir, file, NULL);
      g_autofree char *test_path = NULL;

      c->dir = g_strdup (dir);
      c->stem = g_strndup (file, strrchr (file, '.') - file);
      if (g_str_has_suffix (file, ".args"))
        {
          g_autofree char *text = NULL;

          g_file_get_contents (path, &text, NULL, NULL);
          c->args_line = g_strstrip (g_strdup (text != NULL ? text : ""));
        }
      else
        {
          g_autofree char *options = first_line_args (path);

          c->args_line = g_strdup_printf ("%s %s", file, options);
        }
      test_path = g_strdup_printf ("/rewrite/%s/%s", suite, c->stem);
      g_test_add_data_func_full (test_path, c, test_case, case_free);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  graft_gv_enable_dot_reader ();
  g_test_set_nonfatal_assertions ();
  add_suite ("rewrite");
  add_suite ("rewrite-deviations");
  {
    g_autofree char *tv = g_test_build_filename (G_TEST_DIST, "data", "rewrite-torchvision", NULL);

    if (g_file_test (tv, G_FILE_TEST_IS_DIR))
      add_suite ("rewrite-torchvision");
  }
  return g_test_run ();
}
