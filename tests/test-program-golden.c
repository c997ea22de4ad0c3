/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-program-golden.c: torch.export programs, read in each of their three
 * forms, print as torch 2.6 prints them.
 *
 * tests/data/programs holds, per program NAME (tests/tools/gen-programs.py
 * made them with torch 2.6): the archive torch.export.save wrote
 * (NAME.pt2), the text of print(ep) (NAME.ep.txt) and the text of
 * ep.graph_module.print_readable() (NAME.readable.txt); and what torch
 * prints for the program torch.export.load(NAME.pt2) returns: its graph
 * module's code (NAME.torch26.code), its graph listing (NAME.torch26.graph)
 * and its readable form (NAME.torch26.readable), all from the oracle.  Each
 * form is read with graft_input_load_graph() in the torch 2.6 dialect, as
 * `graft code`, `graft graph` and `graft code --to readable` read it, and
 * each of the three outputs must equal torch's byte for byte after
 * stripping (cli.md): a case per form, program and output,
 * /programs/FORM/NAME/OUTPUT.  The graph must also pass the lint, and the
 * two forms that hold the graph signature (the archive and the print(ep)
 * text) must give a graph that is a program.
 *
 * tests/data/programs-renamed holds archives only, made from linear.pt2
 * by renaming its input (a keyword, a name that is no identifier, `self`,
 * `*x`): their code is graft_codegen_module_code_string()'s, an empty
 * graph's where torch cannot compile the program's.  /programs/check-module
 * checks graft_codegen_check_module(), which decides it for the command
 * line and the editor, on them, a program that compiles and a traced
 * graph.
 *
 * Until the corpus is in the tree (tests/data/programs), the program
 * reports a TAP skip; a form that no input of is recognised as a program
 * (graft_input_detect() takes every one for Python) has no reader in this
 * build, and its cases are skipped.  Once a form has a reader, every input
 * of it must read.
 */
#include "config.h"

#include "golden.h"
#include "graft.h"

#include <string.h>

/* The three forms: an input of each is a case of its own suite. */
static struct
{
  const char *name;        /* of the suite: /programs/NAME */
  const char *suffix;      /* the input's name is PROGRAM + this */
  gboolean    signed_form; /* it holds the graph signature */
  gboolean    has_reader;  /* some input of the form is recognised */
} forms[] = {
  { "pt2", ".pt2", TRUE, FALSE },
  { "ep", ".ep.txt", TRUE, FALSE },
  { "readable", ".readable.txt", FALSE, FALSE },
};

/* Whether graft_input_detect() recognises some input of @dir that ends in
 * @suffix as something other than Python. */
static gboolean
form_has_reader (const char *dir,
                 const char *suffix)
{
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr (GraftSource) source = NULL;

      if (!g_str_has_suffix (name, suffix))
        continue;
      source = graft_input_read_file (path, NULL);
      if (source != NULL && graft_input_detect (source) != GRAFT_INPUT_PYTHON)
        return TRUE;
    }
  return FALSE;
}

/* One output (`code`, `graph` or `readable`) of one form of one program. */
static void
test_program (const GoldenCase *gcase)
{
  const char      *variant = golden_case_get_variant (gcase);
  const char      *path = golden_case_get_input (gcase);
  g_autofree char *suffix = g_strconcat ("torch26.", variant, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GString) text = NULL;
  gboolean signed_form = FALSE;
  gboolean has_reader = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    if (g_str_has_suffix (golden_case_get_input_name (gcase), forms[i].suffix))
      {
        signed_form = forms[i].signed_form;
        has_reader = forms[i].has_reader;
      }
  if (!has_reader)
    {
      g_test_skip ("no reader for this form of program in this build");
      return;
    }

  source = graft_input_read_file (path, &error);
  g_assert_no_error (error);
  if (source == NULL)
    return;
  graph = graft_input_load_graph (source, graft_dialect_get (GRAFT_TORCH_2_6), NULL, &error);
  if (graph == NULL)
    {
      /* Fail this case only: one form that does not read must not hide
       * the state of the others. */
      g_autofree char *line = graft_error_format (error, path);

      g_test_message ("%s", line);
      g_test_fail ();
      return;
    }
  graft_graph_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE, &error);
  g_assert_no_error (error);
  if (signed_form && graft_graph_get_program (graph) == NULL)
    {
      g_test_message ("%s: the graph has no program signature", path);
      g_test_fail ();
    }

  if (strcmp (variant, "code") == 0)
    text = graft_codegen_module_code_string (graph);
  else if (strcmp (variant, "graph") == 0)
    text = graft_listing_to_gstring (graph);
  else
    text = graft_codegen_readable_string (graph, GRAFT_READABLE_DEFAULT);
  golden_case_check (gcase, suffix, text->str, (gssize) text->len);
}

/* graft_codegen_check_module() of the graph in @path (under tests/data). */
static gboolean
check_module (const char *dir,
              const char *name,
              GError    **error)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", dir, name, NULL);
  g_autoptr (GError) read_error = NULL;
  g_autoptr (GraftSource) source = graft_input_read_file (path, &read_error);
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GString) code = NULL;
  g_autoptr (GString) empty = NULL;
  gboolean holds;

  g_assert_no_error (read_error);
  graph =
      graft_input_load_graph (source, graft_dialect_get (GRAFT_TORCH_2_6), NULL, &read_error);
  g_assert_no_error (read_error);
  holds = graft_codegen_check_module (graph, error);
  /* `graft code` prints the empty forward exactly when it does not hold. */
  code = graft_codegen_module_code_string (graph);
  empty = graft_codegen_empty_module_code_string (graph);
  g_assert_cmpint (g_string_equal (code, empty), ==, !holds);
  return holds;
}

static void
test_check_module (void)
{
  static const char *const failing[] = {
    "placeholder_keyword.pt2",
    "placeholder_not_identifier.pt2",
    "placeholder_self.pt2",
  };

  g_autofree char *renamed = g_test_build_filename (G_TEST_DIST, "data", "programs-renamed", NULL);

  if (!form_has_reader (renamed, ".pt2"))
    {
      g_test_skip ("no reader for archives in this build");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (failing); i++)
    {
      g_autoptr (GError) error = NULL;

      g_assert_false (check_module ("programs-renamed", failing[i], &error));
      g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH);
      g_assert_true (g_str_has_prefix (error->message, "SyntaxError: placeholder "));
    }
  g_assert_true (check_module ("programs-renamed", "placeholder_star.pt2", NULL));
  g_assert_true (check_module ("programs", "linear.pt2", NULL));
  /* A traced graph's names are Python's: never checked. */
  g_assert_true (check_module ("golden", "annotation_return_none.py", NULL));
}

/* graft_codegen_check_module_added(): what a rewrite added, alone. */
static void
test_check_module_added (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "programs", "linear.pt2",
                                                 NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = graft_input_read_file (path, &error);
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GPtrArray) added = g_ptr_array_new ();
  g_autoptr (GraftEdit) edit = NULL;
  GraftNode *output;
  GraftNode *node;

  g_assert_no_error (error);
  graph = graft_input_load_graph (source, graft_dialect_get (GRAFT_TORCH_2_6), NULL, &error);
  if (graph == NULL && g_error_matches (error, GRAFT_PARSE_ERROR,
                                        GRAFT_PARSE_ERROR_NO_ARCHIVE_READER))
    {
      g_test_skip ("no reader for archives in this build");
      return;
    }
  g_assert_no_error (error);
  output = graft_graph_get_output (graph);
  /* Recorded, as a rewrite is: a node erased is kept for undo. */
  graft_graph_begin_edit (graph);
  g_assert_true (graft_codegen_check_module_added (graph, added, NULL));
  node = graft_graph_create_node (graph, GRAFT_OP_GET_ATTR, "sub.weight", NULL, NULL, "sub_weight",
                                  output);
  g_ptr_array_add (added, node);
  g_assert_true (graft_codegen_check_module_added (graph, added, NULL));
  node = graft_graph_create_node (graph, GRAFT_OP_GET_ATTR, "sub.for", NULL, NULL, "sub_for",
                                  output);
  g_ptr_array_add (added, node);
  g_assert_false (graft_codegen_check_module_added (graph, added, &error));
  g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH);
  g_assert_true (g_str_has_prefix (error->message, "SyntaxError: sub_for's target 'sub.for' "));
  g_clear_error (&error);
  /* The whole check says the same. */
  g_assert_false (graft_codegen_check_module (graph, NULL));
  /* Gone again (a rewrite erases what it added), it counts no more. */
  graft_graph_erase_node (graph, node);
  g_assert_true (graft_codegen_check_module_added (graph, added, NULL));
  g_assert_true (graft_codegen_check_module (graph, NULL));
  /* Two that break it, added in the other order than the graph's: the
   * error names the first in graph order, as the whole check does (and
   * `graft rewrite` says). */
  node = graft_graph_create_node (graph, GRAFT_OP_GET_ATTR, "sub.in", NULL, NULL, "sub_in", output);
  g_ptr_array_add (added, node);
  node = graft_graph_create_node (graph, GRAFT_OP_GET_ATTR, "sub.if", NULL, NULL, "sub_if",
                                  added->pdata[0]);
  g_ptr_array_add (added, node);
  g_assert_false (graft_codegen_check_module_added (graph, added, &error));
  g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH);
  g_assert_true (g_str_has_prefix (error->message, "SyntaxError: sub_if's target 'sub.if' "));
  {
    g_autoptr (GError) whole = NULL;

    g_assert_false (graft_codegen_check_module (graph, &whole));
    g_assert_cmpstr (whole->message, ==, error->message);
  }
  g_clear_error (&error);
  edit = graft_graph_end_edit (graph);
}

int
main (int    argc,
      char **argv)
{
  static const char *const variants[] = { "code", "graph", "readable", NULL };
  g_autofree char         *dir = NULL;

  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  dir = g_test_build_filename (G_TEST_DIST, "data", "programs", NULL);
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_print ("1..0 # SKIP no program corpus (tests/data/programs)\n");
      return 0;
    }
  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autofree char *test_path = g_strconcat ("/programs/", forms[i].name, NULL);
      g_autofree char *glob = g_strconcat ("*", forms[i].suffix, NULL);
      const char      *inputs[] = { glob, NULL };

      forms[i].has_reader = form_has_reader (dir, forms[i].suffix);

      golden_suite_add (&(GoldenSuite){
          .test_path = test_path,
          .input_dir = dir,
          .inputs = inputs,
          .variants = variants,
          /* torch's outputs: GRAFT_TEST_REGENERATE never rewrites them. */
          .origin = GOLDEN_FROM_ORACLE,
          .compare = GOLDEN_STRIPPED,
          .func = test_program,
          .input_suffix = forms[i].suffix,
      });
    }
  {
    /* Programs made by renaming an input of programs/linear.pt2, only as
     * archives (tests/data/programs-renamed): torch 2.6 cannot compile the
     * code of most, whose `gm.code` is then an empty graph's. */
    g_autofree char *renamed =
        g_test_build_filename (G_TEST_DIST, "data", "programs-renamed", NULL);
    const char *const inputs[] = { "*.pt2", NULL };

    golden_suite_add (&(GoldenSuite){
        .test_path = "/programs/renamed",
        .input_dir = renamed,
        .inputs = inputs,
        .variants = variants,
        .origin = GOLDEN_FROM_ORACLE,
        .compare = GOLDEN_STRIPPED,
        .func = test_program,
        .input_suffix = ".pt2",
    });
  }
  g_test_add_func ("/programs/check-module", test_check_module);
  g_test_add_func ("/programs/check-module-added", test_check_module_added);
  return g_test_run ();
}
