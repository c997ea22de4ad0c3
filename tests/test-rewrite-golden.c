/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-rewrite-golden.c: the matcher and the rewriter against torch.fx, as
 * `graft match --json` and `graft rewrite` give them, case by case, in
 * process, once per dialect: torch 1.13.1's expected files are NAME.SUFFIX,
 * torch 2.6's NAME.torch26.SUFFIX (golden.h).  A case is `tests/data/rewrite/NAME.py` (a model with
 * `pattern` and `replacement`, options on a first line `# graft-args: ...`)
 * or `NAME.args` (the arguments of a rewrite of a model elsewhere, such as
 * those of `tests/data/rewrite-torchvision` or the bundled example); its
 * expected outputs `NAME.match.json`, `NAME.code`, `NAME.graph` and
 * `NAME.stderr` were written by shared/tools/fx-reference
 * (tests/tools/regen-rewrite), and GRAFT_TEST_REGENERATE never rewrites
 * them; those of `tests/data/rewrite-deviations`, where torch 1.13.1 fails,
 * were written by Graft and checked by hand (see the README there), and
 * the switch does rewrite them (golden.h), except the torch 2.6 files of
 * the cases where torch 2.6 succeeds, which its oracle wrote.  The rewritten graph must lint; it
 * may break "defined before use" only where Graft warned about the
 * insertion-point hazard, and it warns exactly then.  With `--dce` among a
 * case's options (the `dce_*` cases, and program rewrites), the oracle ran
 * `gm.graph.eliminate_dead_code()` after the rewrite, and so does the case:
 * graft_eliminate_dead_code(), as a second edit.  Every rewrite (and
 * elimination) is then undone, which must give back the traced graph (in
 * `tests/data/rewrite`, a rewrite with `--dce` is then redone too, which
 * must give the result again).
 *
 * `tests/data/program-rewrites` rewrites torch.export programs: each
 * `NAME.args` names a program of `tests/data/programs` and patterns over
 * aten ops (paths relative to tests/data), and the oracle, reading the
 * `.pt2` under torch 2.6, wrote `NAME.torch26.{match.json,code,graph,
 * readable,stderr}`, all compared.  Programs are torch 2.6's only: the 2.6 case of each
 * form (the `.pt2`, and the `ExportedProgram:` and print_readable texts
 * beside it, which must rewrite the same) compares those files, checks
 * that the nodes the rewrite made carry no metadata while every other node
 * keeps its own and the signature stays, that the rewritten program goes
 * out as DOT and comes back identical, and that undo gives back the
 * program, metadata included; the 1.13 case checks that reading the
 * program is the error torch 1.13.1 gives (it has no torch.export).
 */
#include "config.h"

#include "golden.h"
#include "graft-view.h"
#include "test-util.h"

#include <glib/gstdio.h>
#include <string.h>

static char *
first_line_args (const char *path)
{
  g_autofree char *text = NULL;
  const char      *prefix = "# graft-args:";
  char            *nl;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return g_strdup ("");
  if (!g_str_has_prefix (text, prefix))
    return g_strdup ("");
  nl = strchr (text, '\n');
  if (nl != NULL)
    *nl = '\0';
  return g_strstrip (g_strdup (text + strlen (prefix)));
}

/* The arguments of a case, as `graft rewrite` gets them: the text of
 * `NAME.args`, or `NAME.py` followed by the options of its first line. */
static char *
case_args (const GoldenCase *gcase)
{
  const char *path = golden_case_get_input (gcase);
  const char *file = golden_case_get_input_name (gcase);

  if (g_str_has_suffix (file, ".args"))
    {
      g_autofree char *text = NULL;

      g_file_get_contents (path, &text, NULL, NULL);
      return g_strstrip (g_strdup (text != NULL ? text : ""));
    }
  else
    {
      g_autofree char *options = first_line_args (path);

      return g_strdup_printf ("%s %s", file, options);
    }
}

/* `--dce`: torch's `gm.graph.eliminate_dead_code()` after the rewrite, as
 * its own edit.  Returns it (%NULL without `--dce`); the count of erased
 * nodes is checked against the graph. */
static GraftEdit *
eliminate_dead_code (const GoldenArgs *a,
                     GraftGraph       *graph)
{
  g_autoptr (GError) error = NULL;
  guint      n_before = graft_graph_get_n_nodes (graph);
  guint      n_removed = G_MAXUINT;
  GraftEdit *edit;

  if (!a->dce)
    return NULL;
  edit = graft_eliminate_dead_code (graph, &n_removed, &error);
  g_assert_no_error (error);
  g_assert_nonnull (edit);
  g_assert_cmpuint (n_removed, ==, n_before - graft_graph_get_n_nodes (graph));
  g_assert_cmpuint (graft_edit_get_n_operations (edit), ==, n_removed);
  return edit;
}

/* Undoes the dead code elimination, then the rewrite, and checks that the
 * graph is @before again; redoes both and checks that it is @after. */
static void
check_undo_redo (GraftGraph   *graph,
                 GraftRewrite *rewrite,
                 GraftEdit    *dce,
                 const char   *before)
{
  g_autofree char *after = graft_listing_print (graph);

  if (dce != NULL)
    graft_edit_undo (dce);
  graft_edit_undo (graft_rewrite_get_edit (rewrite));
  {
    g_autofree char *after_undo = graft_listing_print (graph);

    g_assert_cmpstr (after_undo, ==, before);
  }
  if (dce == NULL)
    return;
  graft_edit_redo (graft_rewrite_get_edit (rewrite));
  graft_edit_redo (dce);
  {
    g_autofree char *after_redo = graft_listing_print (graph);

    g_assert_cmpstr (after_redo, ==, after);
  }
  graft_edit_undo (dce);
  graft_edit_undo (graft_rewrite_get_edit (rewrite));
}

/* Every node's users, in the order of its users list (the listing does
 * not show them): what an undo must give back exactly. */
static char *
users_text (GraftGraph *graph)
{
  GString *out = g_string_new (NULL);

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      g_string_append (out, graft_node_get_name (node));
      for (guint u = 0; u < graft_node_get_n_users (node); u++)
        g_string_append_printf (out, " %s", graft_node_get_name (graft_node_get_user (node, u)));
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

/* Undoes, then redoes, @edit by steps of @work operations (a step of the
 * other kind never in between): the graph, its users lists and its code
 * as at once.  @before and @users_before: the listing and users before the
 * edit; @code: the graph's code after it. */
static void
check_replay_in_steps (GraftGraph *graph,
                       GraftEdit  *edit,
                       guint       work,
                       const char *before,
                       const char *users_before,
                       const char *code)
{
  g_autofree char *users_after = users_text (graph);
  guint            steps = 0;

  while (!graft_edit_undo_step (edit, work))
    {
      g_assert_true (graft_edit_is_replaying (edit));
      g_assert_true (graft_edit_is_applied (edit));
      steps++;
    }
  g_assert_false (graft_edit_is_replaying (edit));
  g_assert_false (graft_edit_is_applied (edit));
  g_assert_cmpuint ((steps + 1) * work, >=, graft_edit_get_n_operations (edit));
  {
    g_autofree char *listing = graft_listing_print (graph);
    g_autofree char *users = users_text (graph);

    g_assert_cmpstr (listing, ==, before);
    g_assert_cmpstr (users, ==, users_before);
  }
  while (!graft_edit_redo_step (edit, work))
    g_assert_false (graft_edit_is_applied (edit));
  g_assert_true (graft_edit_is_applied (edit));
  {
    g_autofree char *got = graft_codegen_python (graph);
    g_autofree char *users = users_text (graph);

    g_assert_cmpstr (got, ==, code);
    g_assert_cmpstr (users, ==, users_after);
  }
}

/* The rewrite by steps of one match (graft_rewrite_job_step()) on a graph
 * read again, @cwd the test's and @dir the case's folder: the same code as
 * at once (@code), or the same error; and a job freed half-way leaves the
 * graph as it was. */
static void
check_in_steps (GraftInputSet    *inputs,
                const GoldenArgs *a,
                const char       *cwd,
                const char       *dir,
                GraftPattern     *pattern,
                GraftGraph       *replacement,
                const char       *code,
                const GError     *at_once_error)
{
  for (guint half = 0; half < 2; half++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GraftGraph) graph = NULL;
      g_autoptr (GPtrArray) matches = NULL;
      g_autoptr (GraftRewriteJob) job = NULL;
      g_autoptr (GraftRewrite) rewrite = NULL;
      g_autofree char  *before = NULL;
      g_autofree char  *users_before = NULL;
      GraftMatchOptions options;
      guint             steps = 0;

      g_assert_true (g_chdir (dir) == 0);
      graph = graft_input_set_load (inputs, a->input, a->entry, FALSE, &error);
      g_assert_true (g_chdir (cwd) == 0);
      g_assert_no_error (error);
      before = graft_listing_print (graph);
      users_before = users_text (graph);
      graft_match_options_init (&options);
      options.ignore_literals = a->ignore_literals;
      matches = graft_matcher_find (pattern, graph, &options, NULL);
      job = graft_rewrite_job_new (graph, pattern, replacement, matches);
      if (half)
        {
          /* Freed after half the matches: rolled back. */
          for (guint i = 0; i < matches->len / 2; i++)
            if (graft_rewrite_job_step (job, 1))
              break;
          g_clear_pointer (&job, graft_rewrite_job_free);
          {
            g_autofree char *after = graft_listing_print (graph);

            g_assert_cmpstr (after, ==, before);
          }
          continue;
        }
      while (!graft_rewrite_job_step (job, 1))
        steps++;
      g_assert_cmpuint (steps + 1, >=, matches->len);
      rewrite = graft_rewrite_job_finish (job, &error);
      if (at_once_error != NULL)
        {
          g_assert_null (rewrite);
          g_assert_error (error, at_once_error->domain, at_once_error->code);
          g_assert_cmpstr (error->message, ==, at_once_error->message);
          {
            g_autofree char *after = graft_listing_print (graph);

            g_assert_cmpstr (after, ==, before);
          }
          continue;
        }
      g_assert_no_error (error);
      g_assert_nonnull (rewrite);
      {
        g_autofree char *got = graft_codegen_python (graph);

        g_assert_cmpstr (got, ==, code);
      }
      /* Undone and redone by steps of one, two and seven operations. */
      check_replay_in_steps (graph, graft_rewrite_get_edit (rewrite), 1, before, users_before,
                             code);
      check_replay_in_steps (graph, graft_rewrite_get_edit (rewrite), 2, before, users_before,
                             code);
      check_replay_in_steps (graph, graft_rewrite_get_edit (rewrite), 7, before, users_before,
                             code);
      graft_edit_undo (graft_rewrite_get_edit (rewrite));
      {
        g_autofree char *after = graft_listing_print (graph);
        g_autofree char *users = users_text (graph);

        g_assert_cmpstr (after, ==, before);
        g_assert_cmpstr (users, ==, users_before);
      }
    }
}

static void
test_case (const GoldenCase *gcase)
{
  g_autofree char *args_line = case_args (gcase);
  g_auto (GoldenArgs) a = { 0 };
  g_autoptr (GraftInputSet) inputs = graft_input_set_new (golden_case_get_dialect (gcase));
  g_autofree char *cwd = g_get_current_dir ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftGraph) replacement = NULL;
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GPtrArray) matches = NULL;
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autoptr (GraftEdit) dce = NULL;
  g_autofree char  *pfile = NULL, *pname = NULL, *rfile = NULL, *rname = NULL;
  g_autofree char  *before = NULL;
  GraftMatchOptions options;

  g_assert_true (g_chdir (golden_case_get_input_dir (gcase)) == 0);
  golden_args_parse (args_line, &a);

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

  /* The rewrites of other folders' models show no matches. */
  if (golden_case_has_expected (gcase, "match.json"))
    {
      g_autofree char *json = graft_matches_to_json (matches);

      golden_case_check (gcase, "match.json", json, -1);
    }

  rewrite = graft_rewriter_apply (graph, pattern, replacement, matches, &error);
  {
    g_autofree char *code = rewrite != NULL ? graft_codegen_python (graph) : NULL;

    check_in_steps (inputs, &a, cwd, golden_case_get_input_dir (gcase), pattern, replacement,
                    code, error);
  }
  g_assert_no_error (error);
  if (rewrite == NULL)
    return;
  dce = eliminate_dead_code (&a, graph);
  {
    g_autofree char *code = graft_codegen_python (graph);

    golden_case_check (gcase, "code", code, -1);
  }
  {
    g_autoptr (GString) listing = graft_listing_to_gstring (graph);

    golden_case_check (gcase, "graph", listing->str, (gssize) listing->len);
  }
  {
    guint            n = graft_rewrite_get_n_replaced (rewrite);
    g_autofree char *got = g_strdup_printf ("replaced %u match%s\n", n, n == 1 ? "" : "es");

    golden_case_check (gcase, "stderr", got, -1);
  }
  {
    g_autoptr (GError) lint_error = NULL;
    gboolean ordered;

    graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &lint_error);
    g_assert_no_error (lint_error);
    ordered = graft_graph_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE, NULL);
    /* A warning is given exactly when the rewrite left a use before its
     * definition. */
    g_assert_cmpint (ordered, ==, graft_rewrite_get_warnings (rewrite)->len == 0);
  }
  check_undo_redo (graph, rewrite, dce, before);
}

/* Programs ------------------------------------------------------------------ */

/* The file of @form of the program at @pt2 (a path ending in `.pt2`):
 * the archive itself, `NAME.ep.txt` (print(ep)) or `NAME.readable.txt`
 * (print_readable), transfer full. */
static char *
program_form_path (const char *pt2,
                   const char *form)
{
  g_autofree char *stem = g_strndup (pt2, strlen (pt2) - strlen (".pt2"));

  if (strcmp (form, "pt2") == 0)
    return g_strdup (pt2);
  return g_strconcat (stem, strcmp (form, "ep") == 0 ? ".ep.txt" : ".readable.txt", NULL);
}

/* The text of every node's metadata whose node is still in @graph, from a
 * description made before a rewrite (test_describe_program()): a line per
 * node, `NAME: ...`.  @kept_names: the names of the nodes in @graph that
 * the rewrite did not add (a copy may take the name of a node it
 * replaced: torch names a program's nodes so, docs/programs.md). */
static gboolean
line_is_kept (const char *line,
              GHashTable *kept_names)
{
  const char      *colon = strchr (line, ':');
  g_autofree char *name = colon != NULL ? g_strndup (line, (gsize) (colon - line)) : NULL;

  return name == NULL || g_hash_table_contains (kept_names, name) ||
         g_str_has_prefix (line, "module name:") || g_str_has_prefix (line, "range constraints:");
}

/* After a rewrite: the copies have no metadata (torch's copies have their
 * replacement nodes' empty meta), and every other line of the description
 * is what it was.  The description's first lines are the nodes', in
 * order: a copy's line is known by its node, not its name, which a node
 * kept may have too. */
static void
check_rewritten_meta (GraftGraph   *graph,
                      GraftRewrite *rewrite,
                      const char   *before)
{
  GPtrArray       *added = graft_rewrite_get_added_nodes (rewrite);
  g_autofree char *after = test_describe_program (graph);
  g_auto (GStrv) before_lines = g_strsplit (before, "\n", -1);
  g_autoptr (GString) kept = g_string_new (NULL);
  g_autoptr (GString) after_kept = g_string_new (NULL);
  g_auto (GStrv) after_lines = g_strsplit (after, "\n", -1);
  g_autoptr (GHashTable) added_set = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) kept_names = g_hash_table_new (g_str_hash, g_str_equal);
  GraftNode *node = graft_graph_get_first (graph);

  for (guint i = 0; i < added->len; i++)
    {
      g_assert_null (graft_node_get_meta (added->pdata[i]));
      g_hash_table_add (added_set, added->pdata[i]);
    }
  for (GraftNode *n = node; n != NULL; n = graft_node_get_next (n))
    if (!g_hash_table_contains (added_set, n))
      g_hash_table_add (kept_names, (gpointer) graft_node_get_name (n));
  for (guint i = 0; before_lines[i] != NULL; i++)
    if (line_is_kept (before_lines[i], kept_names))
      g_string_append_printf (kept, "%s\n", before_lines[i]);
  for (guint i = 0; after_lines[i] != NULL; i++)
    {
      gboolean is_added = node != NULL && g_hash_table_contains (added_set, node);

      if (node != NULL)
        node = graft_node_get_next (node);
      if (!is_added)
        g_string_append_printf (after_kept, "%s\n", after_lines[i]);
    }
  g_assert_cmpstr (after_kept->str, ==, kept->str);
}

/* @back has @graph's code and listing. */
static void
assert_same_code_and_listing (GraftGraph *back,
                              GraftGraph *graph)
{
  g_autofree char *code = graft_codegen_python (graph);
  g_autofree char *back_code = graft_codegen_python (back);
  g_autofree char *listing = graft_listing_print (graph);
  g_autofree char *back_listing = graft_listing_print (back);

  g_assert_cmpstr (back_code, ==, code);
  g_assert_cmpstr (back_listing, ==, listing);
}

/* The rewritten program goes out as DOT and comes back the same. */
static void
check_dot_round_trip (GraftGraph *graph)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dot = graft_dot_print (graph, NULL);
  g_autoptr (GraftSource) source = graft_source_new ("program.dot", dot, -1);
  g_autoptr (GraftGraph) back = graft_dot_parse (source, graft_graph_get_dialect (graph), &error);
  g_autofree char *described = NULL, *back_described = NULL;

  g_assert_no_error (error);
  if (back == NULL)
    return;
  assert_same_code_and_listing (back, graph);
  described = test_describe_program (graph);
  back_described = test_describe_program (back);
  g_assert_cmpstr (back_described, ==, described);
  {
    g_autofree char *readable = graft_codegen_readable (graph);
    g_autofree char *back_readable = graft_codegen_readable (back);

    g_assert_cmpstr (back_readable, ==, readable);
  }
}

/* The program as DOT (@dot, written before the rewrite), read back and
 * rewritten alike, names its new nodes as @rewritten's: the reader gives
 * it torch's namespace back (graft-dot-import-graft.c). */
static void
check_dot_rewrite (const GoldenArgs        *a,
                   const char              *dot,
                   GraftGraph              *rewritten,
                   GraftPattern            *pattern,
                   GraftGraph              *replacement,
                   const GraftMatchOptions *options)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = graft_source_new ("program.dot", dot, -1);
  g_autoptr (GraftGraph) back = graft_dot_parse (source, graft_graph_get_dialect (rewritten),
                                                 &error);
  g_autoptr (GPtrArray) matches = NULL;
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autoptr (GraftEdit) dce = NULL;

  g_assert_no_error (error);
  if (back == NULL)
    return;
  matches = graft_matcher_find (pattern, back, options, NULL);
  rewrite = graft_rewriter_apply (back, pattern, replacement, matches, &error);
  g_assert_no_error (error);
  if (rewrite == NULL)
    return;
  dce = eliminate_dead_code (a, back);
  assert_same_code_and_listing (back, rewritten);
}

static void
test_program_case (const GoldenCase *gcase)
{
  g_autofree char *args_line = case_args (gcase);
  g_auto (GoldenArgs) a = { 0 };
  const GraftDialect *dialect = golden_case_get_dialect (gcase);
  g_autoptr (GraftInputSet) inputs = graft_input_set_new (dialect);
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *data_dir = g_path_get_dirname (golden_case_get_input_dir (gcase));
  g_autofree char *input = NULL;
  g_autofree char *base = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftGraph) replacement = NULL;
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GPtrArray) matches = NULL;
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autoptr (GraftEdit) dce = NULL;
  g_autofree char  *pfile = NULL, *pname = NULL, *rfile = NULL, *rname = NULL;
  g_autofree char  *before = NULL, *before_meta = NULL, *dot_before = NULL;
  g_autofree char  *code_after = NULL, *listing_after = NULL;
  GraftMatchOptions options;

  golden_args_parse (args_line, &a);
  g_assert_true (g_str_has_suffix (a.input, ".pt2"));
  input = program_form_path (a.input, golden_case_get_variant (gcase));
  g_assert_true (g_chdir (data_dir) == 0);
  base = g_path_get_basename (input);
  if (!g_file_test (input, G_FILE_TEST_IS_REGULAR) ||
      !test_program_form_has_reader (strchr (base, '.')))
    {
      g_assert_true (g_chdir (cwd) == 0);
      g_test_skip ("no such form of the program, or no reader for it in this build");
      return;
    }
  graph = graft_input_set_load (inputs, input, NULL, FALSE, &error);
  if (!dialect->has_export)
    {
      /* torch 1.13.1 has no torch.export: every form is an error. */
      g_assert_true (g_chdir (cwd) == 0);
      g_assert_null (graph);
      g_assert_nonnull (error);
      if (error != NULL)
        {
          g_assert_true (error->domain == GRAFT_PARSE_ERROR);
          g_assert_nonnull (strstr (error->message, "needs torch 2.6 (--torch 2.6)"));
        }
      return;
    }
  g_assert_no_error (error);
  if (graph != NULL)
    {
      GraftGraph *pattern_graph;

      graft_input_parse_ref (a.pattern, a.input, "pattern", &pfile, &pname);
      pattern_graph = graft_input_set_load (inputs, pfile, pname, TRUE, &error);
      if (pattern_graph != NULL)
        pattern = graft_pattern_new (pattern_graph, &error);
      g_assert_no_error (error);
    }
  if (pattern != NULL)
    {
      graft_input_parse_ref (a.replacement, pfile, "replacement", &rfile, &rname);
      replacement = graft_input_set_load (inputs, rfile, rname, TRUE, &error);
      g_assert_no_error (error);
    }
  g_assert_true (g_chdir (cwd) == 0);
  if (graph == NULL || pattern == NULL || replacement == NULL)
    return;
  g_assert_nonnull (graft_graph_get_program (graph));
  dot_before = graft_dot_print (graph, NULL);
  before = graft_listing_print (graph);
  before_meta = test_describe_program (graph);

  graft_match_options_init (&options);
  options.ignore_literals = a.ignore_literals;
  matches = graft_matcher_find (pattern, graph, &options, NULL);
  {
    g_autofree char *json = graft_matches_to_json (matches);

    golden_case_check (gcase, "match.json", json, -1);
  }
  rewrite = graft_rewriter_apply (graph, pattern, replacement, matches, &error);
  g_assert_no_error (error);
  if (rewrite == NULL)
    return;
  dce = eliminate_dead_code (&a, graph);
  {
    g_autofree char *code = graft_codegen_python (graph);

    golden_case_check (gcase, "code", code, -1);
  }
  {
    g_autoptr (GString) listing = graft_listing_to_gstring (graph);

    golden_case_check (gcase, "graph", listing->str, (gssize) listing->len);
  }
  {
    /* Shapes only on the nodes that kept them, the copies under `# No
     * stacktrace found for following nodes`. */
    g_autoptr (GString) readable = graft_codegen_readable_string (graph, GRAFT_READABLE_DEFAULT);

    golden_case_check (gcase, "readable", readable->str, (gssize) readable->len);
  }
  {
    guint            n = graft_rewrite_get_n_replaced (rewrite);
    g_autofree char *got = g_strdup_printf ("replaced %u match%s\n", n, n == 1 ? "" : "es");

    golden_case_check (gcase, "stderr", got, -1);
  }
  g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &error));
  g_assert_no_error (error);
  check_rewritten_meta (graph, rewrite, before_meta);
  /* Two nodes of one name (a copy named as torch names it while the
   * program's node stays) go through DOT too: the second by an id of its
   * own (graft-dot-writer.c). */
  check_dot_round_trip (graph);
  check_dot_rewrite (&a, dot_before, graph, pattern, replacement, &options);
  code_after = graft_codegen_python (graph);
  listing_after = graft_listing_print (graph);
  if (dce != NULL)
    graft_edit_undo (dce);
  graft_edit_undo (graft_rewrite_get_edit (rewrite));
  {
    g_autofree char *after_undo = graft_listing_print (graph);
    g_autofree char *meta_after_undo = test_describe_program (graph);

    g_assert_cmpstr (after_undo, ==, before);
    g_assert_cmpstr (meta_after_undo, ==, before_meta);
  }
  g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &error));
  g_assert_no_error (error);
  /* Redone, then undone again, then the same rewrite anew: the names
   * the copies took (torch's namespace's too) come back and go again. */
  graft_edit_redo (graft_rewrite_get_edit (rewrite));
  if (dce != NULL)
    graft_edit_redo (dce);
  g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &error));
  g_assert_no_error (error);
  {
    g_autofree char *listing = graft_listing_print (graph);

    g_assert_cmpstr (listing, ==, listing_after);
  }
  if (dce != NULL)
    graft_edit_undo (dce);
  graft_edit_undo (graft_rewrite_get_edit (rewrite));
  g_clear_pointer (&dce, graft_edit_free);
  g_clear_pointer (&rewrite, graft_rewrite_free);
  g_clear_pointer (&matches, g_ptr_array_unref);
  matches = graft_matcher_find (pattern, graph, &options, NULL);
  rewrite = graft_rewriter_apply (graph, pattern, replacement, matches, &error);
  g_assert_no_error (error);
  if (rewrite == NULL)
    return;
  dce = eliminate_dead_code (&a, graph);
  g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &error));
  g_assert_no_error (error);
  {
    g_autofree char *code = graft_codegen_python (graph);
    g_autofree char *listing = graft_listing_print (graph);

    g_assert_cmpstr (code, ==, code_after);
    g_assert_cmpstr (listing, ==, listing_after);
  }
  /* And a second rewrite on top of the first. */
  {
    g_autoptr (GPtrArray) more = graft_matcher_find (pattern, graph, &options, NULL);
    g_autoptr (GraftRewrite) second = graft_rewriter_apply (graph, pattern, replacement, more,
                                                            &error);

    g_assert_no_error (error);
    g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &error));
    g_assert_no_error (error);
    if (second != NULL)
      {
        graft_edit_undo (graft_rewrite_get_edit (second));
        g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &error));
        g_assert_no_error (error);
        graft_edit_redo (graft_rewrite_get_edit (second));
        g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &error));
        g_assert_no_error (error);
      }
  }
}

/* The program rewrites: torch's outputs, 2.6 only, each case once per
 * form of its program (and once per torch, for 1.13's error). */
static void
add_program_suite (void)
{
  static const char *const inputs[] = { "*.args", NULL };
  static const char *const skip[] = { "patterns.py", NULL };
  static const char *const forms[] = { "pt2", "ep", "readable", NULL };
  g_autofree char         *dir = g_test_build_filename (G_TEST_DIST, "data", "program-rewrites",
                                                        NULL);
  GoldenSuite              golden = {
                 .test_path = "/rewrite/program-rewrites",
                 .input_dir = dir,
                 .inputs = inputs,
                 .skip = skip,
                 .variants = forms,
                 .per_dialect = TRUE,
                 .origin = GOLDEN_FROM_ORACLE,
                 .compare = GOLDEN_STRIPPED,
                 .func = test_program_case,
  };

  if (g_file_test (dir, G_FILE_TEST_IS_DIR))
    golden_suite_add (&golden);
}

/* rewrite-deviations: torch 1.13.1 fails on every case, so Graft wrote
 * their NAME.* files; torch 2.6 succeeds on these, and its oracle wrote
 * their NAME.torch26.* (tests/tools/regen-rewrite; the README there). */
static GoldenOrigin
deviation_origin (const char         *stem,
                  const GraftDialect *dialect)
{
  static const char *const torch26_succeeds[] = {
    "getattr_replacement_class",
    "slice_placeholder_unhashable",
  };

  if (dialect->torch == GRAFT_TORCH_2_6)
    for (guint i = 0; i < G_N_ELEMENTS (torch26_succeeds); i++)
      if (strcmp (stem, torch26_succeeds[i]) == 0)
        return GOLDEN_FROM_ORACLE;
  return GOLDEN_FROM_GRAFT;
}

/* The cases of tests/data/@suite, whose expected files come from @origin,
 * or from what @origin_of says per case. */
static void
add_suite (const char  *suite,
           GoldenOrigin origin,
           GoldenOrigin (*origin_of) (const char *, const GraftDialect *))
{
  static const char *const inputs[] = { "*.py", "*.args", NULL };
  /* Pattern files that cases name, not cases. */
  static const char *const skip[] = { "*_rules.py", "patterns.py", NULL };
  g_autofree char         *test_path = g_strconcat ("/rewrite/", suite, NULL);
  g_autofree char         *dir = g_test_build_filename (G_TEST_DIST, "data", suite, NULL);
  GoldenSuite              golden = {
                 .test_path = test_path,
                 .input_dir = dir,
                 .inputs = inputs,
                 .skip = skip,
                 .per_dialect = TRUE,
                 .origin = origin,
                 .compare = GOLDEN_STRIPPED,
                 .func = test_case,
                 .origin_of = origin_of,
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
  /* torch's outputs: GRAFT_TEST_REGENERATE never rewrites them. */
  add_suite ("rewrite", GOLDEN_FROM_ORACLE, NULL);
  /* Graft's outputs where torch fails, checked by hand; torch 2.6's where
   * it succeeds. */
  add_suite ("rewrite-deviations", GOLDEN_FROM_GRAFT, deviation_origin);
  {
    g_autofree char *tv = g_test_build_filename (G_TEST_DIST, "data", "rewrite-torchvision", NULL);

    if (g_file_test (tv, G_FILE_TEST_IS_DIR))
      add_suite ("rewrite-torchvision", GOLDEN_FROM_ORACLE, NULL);
  }
  add_program_suite ();
  return g_test_run ();
}
