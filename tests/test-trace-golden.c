/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-trace-golden.c: the tracer, code generator and listing writer against
 * torch.fx, file by file.  Each `tests/data/<suite>/NAME.py` (and the bundled
 * example of data/examples) is traced in process, once per dialect; its
 * generated code and graph listing must equal torch's byte for byte (after
 * stripping, as cli.md compares): `NAME.code` and `NAME.graph` for torch
 * 1.13.1, `NAME.torch26.code` and `NAME.torch26.graph` for torch 2.6.  In
 * golden, torchvision26 and examples, the readable form must also equal
 * torch 2.6's `gm.print_readable(print_output=False)`, `NAME.torch26.readable`
 * (torch 1.13.1 has none: its print_readable takes no print_output).  Those
 * files were written by each torch through shared/tools/fx-reference
 * (tests/tools/regen-golden), so this test needs no torch, and
 * GRAFT_TEST_REGENERATE never rewrites them (golden.h).  Every traced graph
 * must also pass the lint, and its listing must read back into a graph with
 * the same code.  The bad inputs of tests/data/errors that torch 2.6 accepts
 * (ACCEPTED.torch26) are checked here too, in torch 2.6 only.
 */
#include "config.h"

#include "golden.h"
#include "graft-view.h"

#include <string.h>

/* Listings print strings without quotes, so a string holding a delimiter,
 * a line break or surrounding spaces, a device, a range or an enum member,
 * cannot be read back unambiguously. */
static gboolean
arg_has_lossy_string (const GraftArg *arg)
{
  guint n = graft_arg_count_items (arg);

  /* A device prints as its bare str form too (`cpu`); so do the literals
   * only torch 2.6 records, a range (`range(0, 2)`) and an enum member
   * (`Mode.SUM`), which the reader cannot tell from strings. */
  if (arg->kind == GRAFT_ARG_DEVICE ||
      (arg->kind == GRAFT_ARG_SYMBOL && !g_str_has_prefix (arg->s, "torch.")))
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
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    if (arg_has_lossy_string (graft_node_get_args (node)) ||
        arg_has_lossy_string (graft_node_get_kwargs (node)))
      return TRUE;
  return FALSE;
}

/* One variant of one model: its code, or its listing (which must also read
 * back). */
static void
test_golden (const GoldenCase *gcase)
{
  const char *py_path = golden_case_get_input (gcase);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftGraph) graph = NULL;

  /* tests/data/errors: the bad inputs that only torch 1.13.1 rejects (its
   * ACCEPTED.torch26) have expected outputs for torch 2.6 only. */
  if (g_str_has_suffix (golden_case_get_input_dir (gcase), G_DIR_SEPARATOR_S "errors") &&
      golden_case_get_dialect (gcase)->torch == GRAFT_TORCH_1_13)
    {
      g_test_skip ("torch 1.13.1 rejects this input (tests/data/errors/ORACLE.txt)");
      return;
    }
  /* tests/data/aten26: torch 2.6's make_fx graphs may call operators that
   * torch 1.13.1 lacks (regen-golden notes which); those have no 1.13.1
   * outputs. */
  if (g_str_has_suffix (golden_case_get_input_dir (gcase), G_DIR_SEPARATOR_S "aten26") &&
      golden_case_get_dialect (gcase)->torch == GRAFT_TORCH_1_13 &&
      !golden_case_has_expected (gcase, golden_case_get_variant (gcase)))
    {
      g_test_skip ("torch 1.13.1 cannot run this input (it lacks an operator)");
      return;
    }
  if (g_str_equal (golden_case_get_variant (gcase), "readable") &&
      !golden_case_get_dialect (gcase)->prints_readable)
    {
      g_test_skip ("this torch has no print_readable(print_output=False)");
      return;
    }
  source = graft_input_read_file (py_path, &error);
  g_assert_no_error (error);
  if (source == NULL)
    return;
  graph = graft_trace_source (source, golden_case_get_dialect (gcase), NULL, &error);
  if (graph == NULL)
    {
      /* Fail this case only, so that one broken case does not hide the
       * state of the others. */
      g_autofree char *line = graft_error_format (error, py_path);

      g_test_message ("%s", line);
      g_test_fail ();
      return;
    }
  graft_graph_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE, &error);
  g_assert_no_error (error);

  if (g_str_equal (golden_case_get_variant (gcase), "readable"))
    {
      g_autofree char *readable = graft_codegen_readable (graph);

      golden_case_check (gcase, "readable", readable, -1);
    }
  else if (g_str_equal (golden_case_get_variant (gcase), "graph"))
    {
      g_autoptr (GString) listing = graft_listing_to_gstring (graph);
      g_autoptr (GraftSource) reread_source = NULL;
      g_autoptr (GraftGraph) reread = NULL;
      g_autofree char *code = NULL;
      g_autofree char *recode = NULL;

      golden_case_check (gcase, "graph", listing->str, (gssize) listing->len);

      /* The listing reads back into the same graph, unless it holds
       * strings that the listing format cannot carry. */
      if (graph_has_lossy_strings (graph))
        return;
      reread_source = graft_source_new (py_path, listing->str, listing->len);
      reread = graft_listing_parse (reread_source, golden_case_get_dialect (gcase), &error);
      g_assert_no_error (error);
      if (reread == NULL)
        return;
      {
        g_autoptr (GString) relisting = graft_listing_to_gstring (reread);

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

      golden_case_check (gcase, "code", code, -1);
    }
}

/* The models of tests/data/@suite (or of @input_dir), with torch's
 * outputs in @expected_dir: a case per model (@inputs: globs of their
 * names, or NULL for every `*.py`) for its code, one for its listing and,
 * if @readable, one for its readable form. */
static void
add_suite (const char        *suite,
           const char        *input_dir,
           const char        *expected_dir,
           const char *const *inputs,
           gboolean           readable)
{
  static const char *const every[] = { "*.py", NULL };
  static const char *const plain[] = { "code", "graph", NULL };
  static const char *const with_readable[] = { "code", "graph", "readable", NULL };
  g_autofree char         *test_path = g_strconcat ("/golden/", suite, NULL);
  g_autofree char         *data_dir = g_test_build_filename (G_TEST_DIST, "data", suite, NULL);
  GoldenSuite              golden = {
                 .test_path = test_path,
                 .input_dir = input_dir != NULL ? input_dir : data_dir,
                 .expected_dir = expected_dir,
                 .inputs = inputs != NULL ? inputs : every,
                 .variants = readable ? with_readable : plain,
                 .per_dialect = TRUE,
                 /* torch's outputs: GRAFT_TEST_REGENERATE never rewrites them. */
                 .origin = GOLDEN_FROM_ORACLE,
                 .compare = GOLDEN_STRIPPED,
                 .func = test_golden,
  };

  golden_suite_add (&golden);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  graft_gv_enable_dot_reader ();
  g_test_set_nonfatal_assertions ();
  add_suite ("golden", NULL, NULL, NULL, TRUE);
  add_suite ("torchvision", NULL, NULL, NULL, FALSE);
  add_suite ("torchvision26", NULL, NULL, NULL, TRUE);
  add_suite ("aten", NULL, NULL, NULL, FALSE);
  add_suite ("aten26", NULL, NULL, NULL, FALSE);
  {
    /* The bad inputs that torch 2.6 accepts, as regen-golden lists them. */
    g_autofree char *list = g_test_build_filename (G_TEST_DIST, "data", "errors",
                                                   "ACCEPTED.torch26", NULL);
    g_autofree char *text = NULL;
    g_auto (GStrv) lines = NULL;
    g_autoptr (GPtrArray) names = g_ptr_array_new ();

    g_assert_true (g_file_get_contents (list, &text, NULL, NULL));
    lines = g_strsplit (text, "\n", -1);
    for (guint i = 0; lines[i] != NULL; i++)
      if (lines[i][0] != '\0' && lines[i][0] != '#')
        g_ptr_array_add (names, lines[i]);
    g_ptr_array_add (names, NULL);
    add_suite ("errors", NULL, NULL, (const char *const *) names->pdata, FALSE);
  }
  {
    /* The bundled example, whose expected outputs live with the tests. */
    g_autofree char *examples = g_test_build_filename (G_TEST_DIST, "..", "data", "examples", NULL);
    g_autofree char *expected = g_test_build_filename (G_TEST_DIST, "data", "examples", NULL);

    add_suite ("examples", examples, expected, NULL, TRUE);
  }
  return g_test_run ();
}
