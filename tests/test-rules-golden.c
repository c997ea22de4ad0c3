/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-rules-golden.c: rule sets against torch.fx, as `graft rewrite
 * --rules` gives them, in process, once per dialect.  A case is
 * `tests/data/rules/NAME.args`: the arguments after `rewrite` (an input, `--rules
 * FILE`, `--fixpoint N`, `--dce`, `--ignore-literals`, `--entry NAME`),
 * paths relative to that folder.  Its expected `NAME.code`, `NAME.graph`
 * and `NAME.stderr` (torch 1.13.1) and `NAME.torch26.*` (torch 2.6, with
 * `.readable`) were written by shared/tools/fx-reference
 * (tests/tools/regen-rules), which runs the loop cli.md's "Rules" describes;
 * GRAFT_TEST_REGENERATE never rewrites them.  A case without 1.13.1 files
 * reads a torch.export program: in 1.13 it checks that reading it is the
 * error.  Each run is then undone, dead-code removal included, which must
 * give back the graph as read.
 *
 * The same cases' passes (`--to pass`) are Graft's output, compared with
 * `NAME.pass.py` and `NAME.torch26.pass.py`; tests/tools/check-passes
 * runs each of them in real torch on the model torch traces and compares
 * `run(gm).code` with torch's expected code above, so the switch may
 * rewrite them only with that check run again.
 *
 * `tests/data/rules/errors/NAME_rules.py` is a bad rules file, run on
 * `model.py` there; its `NAME_rules.errors` holds Graft's located
 * diagnostic, checked by hand (`ORACLE.txt` and `ORACLE.torch26.txt` say
 * what torch did with each: torch finds most of these only when it
 * applies the rule, after the rules before it, or never).
 */
#include "config.h"

#include "golden.h"
#include "graft-view.h"
#include "test-util.h"

#include <glib/gstdio.h>
#include <string.h>

/* A rules case always names its input. */
static void
parse_args (const char *line,
            GoldenArgs *a)
{
  golden_args_parse (line, a);
  g_assert_nonnull (a->input);
}

static char *
read_args (const GoldenCase *gcase)
{
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents (golden_case_get_input (gcase), &text, NULL, NULL));
  return g_strstrip (g_strdup (text));
}

/* What `graft rewrite --rules` writes to stderr after its output. */
static char *
stderr_text (GraftRulesRun    *run,
             GraftRuleSet     *rules,
             const GoldenArgs *a)
{
  GString *out = g_string_new (NULL);
  guint    n = graft_rules_run_get_n_replaced (run);

  for (guint i = 0; i < graft_rules_run_get_n_steps (run); i++)
    {
      const GraftRuleStep *step = graft_rules_run_get_step (run, i);

      g_string_append_printf (out, "pass %u, rule %u (%s -> %s): replaced %u match%s\n",
                              step->pass, step->rule + 1,
                              graft_rule_set_get_pattern_name (rules, step->rule),
                              graft_rule_set_get_replacement_name (rules, step->rule),
                              step->n_replaced, step->n_replaced == 1 ? "" : "es");
    }
  if (graft_rules_run_get_bound_reached (run))
    g_string_append_printf (out,
                            "warning: stopped after %u passes with matches still replaced in the "
                            "last\n",
                            a->fixpoint);
  g_string_append_printf (out, "replaced %u match%s\n", n, n == 1 ? "" : "es");
  return g_string_free (out, FALSE);
}

/* Loads the case's graph and rules, from the case's folder. */
static gboolean
load_case (const GoldenCase *gcase,
           GraftInputSet    *inputs,
           const GoldenArgs *a,
           GraftGraph      **out_graph,
           GraftRuleSet    **out_rules,
           GPtrArray       **out_refs,
           GError          **error)
{
  g_autofree char *cwd = g_get_current_dir ();
  gboolean         ok;

  g_assert_true (g_chdir (golden_case_get_input_dir (gcase)) == 0);
  *out_graph = graft_input_set_load (inputs, a->input, a->entry, FALSE, error);
  *out_rules = *out_graph != NULL ? graft_input_set_load_rules (inputs, a->rules, out_refs, error)
                                  : NULL;
  ok = *out_rules != NULL;
  g_assert_true (g_chdir (cwd) == 0);
  return ok;
}

static void
test_case (const GoldenCase *gcase)
{
  g_autofree char *line = read_args (gcase);
  g_auto (GoldenArgs) a = { 0 };
  const GraftDialect *dialect = golden_case_get_dialect (gcase);
  g_autoptr (GraftInputSet) inputs = graft_input_set_new (dialect);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftRuleSet) rules = NULL;
  g_autoptr (GPtrArray) refs = NULL;
  g_autoptr (GraftRulesRun) run = NULL;
  g_autoptr (GraftEdit) dce = NULL;
  g_autofree char  *before = NULL;
  GraftRulesOptions options;

  parse_args (line, &a);
  if (!golden_case_has_expected (gcase, "code"))
    {
      /* A program: torch 1.13.1 cannot read it. */
      g_assert_false (dialect->has_export);
      g_assert_false (load_case (gcase, inputs, &a, &graph, &rules, &refs, &error));
      g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_UNSUPPORTED);
      return;
    }
  if (!load_case (gcase, inputs, &a, &graph, &rules, &refs, &error))
    {
      g_assert_no_error (error);
      return;
    }
  before = graft_listing_print (graph);
  graft_rules_options_init (&options);
  options.match.ignore_literals = a.ignore_literals;
  options.fixpoint = a.fixpoint;
  run = graft_rules_apply (graph, rules, &options, &error);
  g_assert_no_error (error);
  if (run == NULL)
    return;
  if (a.dce)
    {
      dce = graft_eliminate_dead_code (graph, NULL, &error);
      g_assert_no_error (error);
    }
  {
    g_autofree char *code = graft_codegen_python (graph);

    golden_case_check (gcase, "code", code, -1);
  }
  {
    g_autoptr (GString) listing = graft_listing_to_gstring (graph);

    golden_case_check (gcase, "graph", listing->str, (gssize) listing->len);
  }
  if (golden_case_has_expected (gcase, "readable"))
    {
      g_autofree char *readable = graft_codegen_readable (graph);

      golden_case_check (gcase, "readable", readable, -1);
    }
  {
    g_autofree char *got = stderr_text (run, rules, &a);

    golden_case_check (gcase, "stderr", got, -1);
  }
  {
    g_autoptr (GError) lint_error = NULL;

    graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &lint_error);
    g_assert_no_error (lint_error);
  }
  /* Undone, dead code first, the run back to the graph as read. */
  if (dce != NULL)
    graft_edit_undo (dce);
  graft_rules_run_undo (run);
  {
    g_autofree char *after_undo = graft_listing_print (graph);

    g_assert_cmpstr (after_undo, ==, before);
  }
  g_clear_pointer (&dce, graft_edit_free);
  g_clear_pointer (&run, graft_rules_run_free);
}

/* The case's pass, as `--to pass` writes it. */
static void
test_pass (const GoldenCase *gcase)
{
  g_autofree char *line = read_args (gcase);
  g_auto (GoldenArgs) a = { 0 };
  const GraftDialect *dialect = golden_case_get_dialect (gcase);
  g_autoptr (GraftInputSet) inputs = graft_input_set_new (dialect);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftRuleSet) rules = NULL;
  g_autoptr (GPtrArray) refs = NULL;
  g_autoptr (GArray) pass_rules = g_array_new (FALSE, TRUE, sizeof (GraftPassRule));
  g_autofree char *origin = NULL;
  g_autofree char *text = NULL;
  GraftPassOptions options = { 0 };
  GraftSource     *source;

  parse_args (line, &a);
  if (!golden_case_has_expected (gcase, "pass.py") && !golden_regenerating ())
    {
      g_test_skip ("no pass for this torch (the program cannot be read)");
      return;
    }
  if (!load_case (gcase, inputs, &a, &graph, &rules, &refs, &error))
    {
      g_test_skip ("the input cannot be read in this torch");
      return;
    }
  source = graft_input_set_peek_source (inputs, a.rules);
  g_assert_nonnull (source);
  for (guint i = 0; i < refs->len; i++)
    {
      GraftPyRuleRef *ref = refs->pdata[i];
      GraftPassRule   rule = { source, ref->pattern_entry, source, ref->replacement_entry };

      g_array_append_val (pass_rules, rule);
    }
  origin = g_path_get_basename (a.rules);
  options.dialect = dialect;
  options.origin = origin;
  options.fixpoint = a.fixpoint;
  options.dce = a.dce;
  options.ignore_literals = a.ignore_literals;
  text = graft_pass_write ((const GraftPassRule *) (gpointer) pass_rules->data, pass_rules->len,
                           &options, &error);
  if (a.ignore_literals && !dialect->has_ignore_literals)
    {
      /* torch 1.13.1 has no ignore_literals for a pass to ask for. */
      g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE);
      g_assert_null (text);
      g_assert_false (golden_case_has_expected (gcase, "pass.py"));
      return;
    }
  g_assert_no_error (error);
  if (text != NULL)
    golden_case_check (gcase, "pass.py", text, -1);
}

/* A bad rules file, `NAME_rules.py` run on the folder's `model.py`: the
 * located error, before anything is applied.  A file that torch and
 * Graft both accept (RULES as a tuple) has no `.errors` and must run. */
static void
test_error (const GoldenCase *gcase)
{
  g_auto (GoldenArgs) a = { 0 };
  g_autoptr (GraftInputSet) inputs = graft_input_set_new (golden_case_get_dialect (gcase));
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftRuleSet) rules = NULL;
  g_autoptr (GPtrArray) refs = NULL;
  g_autofree char *message = NULL;
  g_autofree char *with_newline = NULL;

  a.input = g_strdup ("model.py");
  a.rules = g_strdup (golden_case_get_input_name (gcase));
  if (load_case (gcase, inputs, &a, &graph, &rules, &refs, &error))
    {
      g_assert_false (golden_case_has_expected (gcase, "errors"));
      return;
    }
  g_assert_nonnull (error);
  if (error == NULL)
    return;
  message = graft_error_format (error, a.rules);
  with_newline = g_strconcat (message, "\n", NULL);
  golden_case_check (gcase, "errors", with_newline, -1);
}

static void
add_suites (void)
{
  static const char *const inputs[] = { "*.args", NULL };
  static const char *const pass_variant[] = { "pass", NULL };
  static const char *const bad_inputs[] = { "*_rules.py", NULL };
  g_autofree char         *dir = g_test_build_filename (G_TEST_DIST, "data", "rules", NULL);
  g_autofree char         *errors = g_build_filename (dir, "errors", NULL);
  GoldenSuite              runs = {
                 .test_path = "/rules/run",
                 .input_dir = dir,
                 .inputs = inputs,
                 .per_dialect = TRUE,
                 .origin = GOLDEN_FROM_ORACLE,
                 .compare = GOLDEN_STRIPPED,
                 .func = test_case,
  };
  GoldenSuite passes = {
    .test_path = "/rules/pass",
    .input_dir = dir,
    .inputs = inputs,
    .variants = pass_variant,
    .per_dialect = TRUE,
    .origin = GOLDEN_FROM_GRAFT,
    .compare = GOLDEN_EXACT,
    .func = test_pass,
  };
  GoldenSuite bad = {
    .test_path = "/rules/errors",
    .input_dir = errors,
    .inputs = bad_inputs,
    .per_dialect = TRUE,
    .origin = GOLDEN_FROM_GRAFT,
    .compare = GOLDEN_EXACT,
    .func = test_error,
  };

  golden_suite_add (&runs);
  golden_suite_add (&passes);
  if (g_file_test (errors, G_FILE_TEST_IS_DIR))
    golden_suite_add (&bad);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  add_suites ();
  return g_test_run ();
}
