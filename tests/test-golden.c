/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-golden.c: Graft's output against torch.fx's, file by file.  Each
 * `tests/data/<suite>/NAME.py` is traced in process; its generated code and
 * graph listing must equal `NAME.code` and `NAME.graph` byte for byte (after
 * stripping, as cli.md compares).  Those files were written once by torch
 * 1.13.1 through shared/tools/fx-reference (tests/tools/regen-golden), so
 * this test needs no torch.  Every traced graph must also pass the lint,
 * and its listing must read back into a graph with the same code.
 */
#include "config.h"

#include "graft-view.h"

#include <string.h>

typedef struct
{
  char *py_path;
  char *expected_path;
  gboolean listing;
} GoldenCase;

static void
golden_case_free (gpointer data)
{
  GoldenCase *c = data;

  g_free (c->py_path);
  g_free (c->expected_path);
  g_free (c);
}

/* Python's str.strip() plus one newline: fx-reference's output form. */
static char *
stripped (const char *text,
          gsize       len,
          gsize      *out_len)
{
  gsize start = 0, end = len;
  char *out;

  while (start < end && g_ascii_isspace (text[start]))
    start++;
  while (end > start && g_ascii_isspace (text[end - 1]))
    end--;
  out = g_malloc (end - start + 2);
  memcpy (out, text + start, end - start);
  out[end - start] = '\n';
  out[end - start + 1] = '\0';
  *out_len = end - start + 1;
  return out;
}

static void
assert_same_text (const char *what,
                  const char *got,
                  gsize       got_len,
                  const char *expected,
                  gsize       expected_len)
{
  if (got_len != expected_len || memcmp (got, expected, got_len) != 0)
    {
      /* Show the first differing line for a readable failure. */
      gsize i = 0, line_start = 0;

      while (i < got_len && i < expected_len && got[i] == expected[i])
        {
          if (got[i] == '\n')
            line_start = i + 1;
          i++;
        }
      g_test_message ("%s differs at byte %" G_GSIZE_FORMAT ":\n got: %.*s\nwant: %.*s", what, i,
                      (int) MIN (got_len - line_start, 200), got + line_start,
                      (int) MIN (expected_len - line_start, 200), expected + line_start);
      g_test_fail ();
    }
}

/* Listings print strings without quotes, so a string holding a delimiter,
 * a line break or surrounding spaces, or a device, cannot be read back
 * unambiguously. */
static gboolean
arg_has_lossy_string (const GraftArg *arg)
{
  guint n = graft_arg_count_items (arg);

  /* A device prints as its bare str form too (`cpu`). */
  if (arg->kind == GRAFT_ARG_DEVICE)
    return TRUE;
  if (arg->kind == GRAFT_ARG_STR)
    {
      if (arg->n == 0 || g_ascii_isspace (arg->s[0]) || g_ascii_isspace (arg->s[arg->n - 1]))
        return TRUE;
      for (guint i = 0; i < arg->n; i++)
        if (strchr ("\n\r,()[]{}:%'\"", arg->s[i]) != NULL || arg->s[i] == '\0')
          return TRUE;
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    if (arg_has_lossy_string (&arg->items[i]))
      return TRUE;
  return FALSE;
}

static gboolean
graph_has_lossy_strings (GraftGraph *graph)
{
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL; node = graft_node_get_next (node))
    if (arg_has_lossy_string (graft_node_get_args (node)) || arg_has_lossy_string (graft_node_get_kwargs (node)))
      return TRUE;
  return FALSE;
}

static void
test_golden (gconstpointer data)
{
  const GoldenCase *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GraftSource) source = NULL;
  g_autoptr(GraftGraph) graph = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *want = NULL;
  g_autofree char *got = NULL;
  gsize expected_len = 0, want_len = 0, got_len = 0;

  source = graft_input_read_file (c->py_path, &error);
  g_assert_no_error (error);
  if (source == NULL)
    return;
  graph = graft_trace_source (source, NULL, &error);
  if (graph == NULL)
    {
      /* Fail this case only, so that one broken case does not hide the
       * state of the others. */
      g_autofree char *line = graft_error_format (error, c->py_path);

      g_test_message ("%s", line);
      g_test_fail ();
      return;
    }
  graft_graph_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE, &error);
  g_assert_no_error (error);

  if (!g_file_get_contents (c->expected_path, &expected, &expected_len, &error))
    {
      g_assert_no_error (error);
      return;
    }
  want = stripped (expected, expected_len, &want_len);

  if (c->listing)
    {
      g_autoptr(GString) listing = graft_listing_to_gstring (graph);
      g_autoptr(GraftSource) reread_source = NULL;
      g_autoptr(GraftGraph) reread = NULL;
      g_autofree char *code = NULL;
      g_autofree char *recode = NULL;

      got = stripped (listing->str, listing->len, &got_len);
      assert_same_text ("listing", got, got_len, want, want_len);

      /* The listing reads back into the same graph, unless it holds
       * strings that the listing format cannot carry. */
      if (graph_has_lossy_strings (graph))
        return;
      reread_source = graft_source_new (c->py_path, listing->str, listing->len);
      reread = graft_listing_parse (reread_source, &error);
      g_assert_no_error (error);
      if (reread == NULL)
        return;
      {
        g_autoptr(GString) relisting = graft_listing_to_gstring (reread);

        g_assert_cmpuint (relisting->len, ==, listing->len);
        g_assert_true (memcmp (relisting->str, listing->str, listing->len) == 0);
      }
      /* The listing does not show a return annotation; otherwise the code
       * of the graph read back is the same. */
      if (graft_node_get_type_annotation (graft_graph_get_output (graph)) == NULL)
        {
          code = graft_codegen_python (graph);
          recode = graft_codegen_python (reread);
          g_assert_cmpstr (recode, ==, code);
        }
    }
  else
    {
      g_autofree char *code = graft_codegen_python (graph);

      got = stripped (code, strlen (code), &got_len);
      assert_same_text ("code", got, got_len, want, want_len);
    }
}

/* Registers a case per `*.py` of @dir_path, expecting its outputs in
 * @expected_dir. */
static void
add_cases (const char *suite,
           const char *dir_path,
           const char *expected_dir)
{
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".py"))
      g_ptr_array_add (names, g_strndup (name, strlen (name) - 3));
  g_ptr_array_sort (names, (GCompareFunc) g_ascii_strcasecmp);
  /* A suite with no cases means the data went missing: say so. */
  g_assert_cmpuint (names->len, >, 0);

  for (guint i = 0; i < names->len; i++)
    {
      const char *stem = names->pdata[i];

      for (int listing = 0; listing <= 1; listing++)
        {
          GoldenCase *c = g_new0 (GoldenCase, 1);
          g_autofree char *file = g_strconcat (stem, ".py", NULL);
          g_autofree char *expected = g_strconcat (stem, listing ? ".graph" : ".code", NULL);
          g_autofree char *test_path = g_strdup_printf ("/golden/%s/%s/%s", suite, stem, listing ? "graph" : "code");

          c->py_path = g_build_filename (dir_path, file, NULL);
          c->expected_path = g_build_filename (expected_dir, expected, NULL);
          c->listing = listing;
          g_test_add_data_func_full (test_path, c, test_golden, golden_case_free);
        }
    }
}

static void
add_suite (const char *suite)
{
  g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, "data", suite, NULL);

  add_cases (suite, dir_path, dir_path);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  graft_gv_enable_dot_reader ();
  g_test_set_nonfatal_assertions ();
  add_suite ("golden");
  add_suite ("torchvision");
  add_suite ("aten");
  {
    /* The bundled example, whose expected outputs live with the tests. */
    g_autofree char *examples = g_test_build_filename (G_TEST_DIST, "..", "data", "examples", NULL);
    g_autofree char *expected = g_test_build_filename (G_TEST_DIST, "data", "examples", NULL);

    add_cases ("examples", examples, expected);
  }
  return g_test_run ();
}
