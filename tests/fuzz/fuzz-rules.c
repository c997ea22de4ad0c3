/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fuzz-rules.c: rules files, their runs and their passes.  The input is a
 * rules file (cli.md, "Rules"); the model is the input's own entry when it
 * has one, else a fixed model (the tutorial's).  What reads is run to a
 * fixpoint of three passes and cleared of dead code, in each dialect; the
 * result must pass the lint and undo back to the original code, and the
 * rules must write a pass.  Reading a rules file must never crash, and a
 * refusal must be a located error.
 */
#include "config.h"

#include "fuzz.h"
#include "graft-view.h"

#include <string.h>

static const char model_text[] = "import torch\n"
                                 "class M(torch.nn.Module):\n"
                                 "    def forward(self, x, w1, w2):\n"
                                 "        m1 = torch.cat([torch.neg(w1), w2]).sum()\n"
                                 "        m2 = torch.cat([torch.neg(w1), w2]).sum()\n"
                                 "        return x + torch.max(m1) + torch.relu(torch.max(m2))\n";

/* The rules of @program as a rule set, or NULL; a refusal must be located. */
static GraftRuleSet *
read_rules (GraftPyProgram *program,
            GPtrArray     **out_refs)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) refs = graft_py_program_get_rules (program, &error);
  g_autoptr (GraftRuleSet) rules = graft_rule_set_new ();

  if (refs == NULL)
    {
      if (!graft_error_get_location (error, NULL, NULL, NULL, NULL, NULL))
        fuzz_fail ("a refused rules file has no location");
      return NULL;
    }
  for (guint i = 0; i < refs->len; i++)
    {
      GraftPyRuleRef *ref = refs->pdata[i];
      g_autoptr (GraftGraph) pattern_graph = graft_py_program_trace (program, ref->pattern_entry,
                                                                     NULL);
      g_autoptr (GraftPattern) pattern = NULL;
      g_autoptr (GraftGraph) replacement = NULL;

      if (pattern_graph == NULL)
        return NULL;
      pattern = graft_pattern_new (g_steal_pointer (&pattern_graph), NULL);
      if (pattern == NULL)
        return NULL;
      replacement = graft_py_program_trace (program, ref->replacement_entry, NULL);
      if (replacement == NULL || !graft_rule_check_fit (pattern, replacement, NULL))
        return NULL;
      graft_rule_set_add (rules, ref->pattern_name, pattern, ref->replacement_name,
                          g_steal_pointer (&replacement));
    }
  *out_refs = g_steal_pointer (&refs);
  return g_steal_pointer (&rules);
}

/* One input in one dialect. */
static int
fuzz_one (const uint8_t      *data,
          size_t              size,
          const GraftDialect *dialect)
{
  g_autoptr (GraftSource) source =
      graft_source_new ("rules.py", (const char *) data, (gssize) size);
  g_autoptr (GraftSource) model = graft_source_new ("model.py", model_text, -1);
  g_autoptr (GraftPyProgram) program = graft_py_program_new (source, dialect, NULL);
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftRuleSet) rules = NULL;
  g_autoptr (GPtrArray) refs = NULL;
  g_autoptr (GraftRulesRun) run = NULL;
  g_autoptr (GraftEdit) dce = NULL;
  g_autoptr (GArray) pass_rules = g_array_new (FALSE, TRUE, sizeof (GraftPassRule));
  g_autofree char  *before = NULL;
  g_autofree char  *undone = NULL;
  g_autofree char  *pass = NULL;
  GraftRulesOptions options;
  GraftPassOptions  pass_options = { 0 };

  if (program == NULL)
    return 0;
  rules = read_rules (program, &refs);
  if (rules == NULL)
    return 0;
  graph = graft_py_program_trace (program, NULL, NULL);
  if (graph == NULL)
    graph = graft_trace_source (model, dialect, NULL, NULL);
  if (graph == NULL)
    fuzz_fail ("the fixed model does not trace");
  before = graft_codegen_python (graph);
  graft_rules_options_init (&options);
  options.fixpoint = 3;
  run = graft_rules_apply (graph, rules, &options, NULL);
  if (run == NULL)
    {
      g_autofree char *same = graft_codegen_python (graph);

      if (strcmp (same, before) != 0)
        fuzz_fail ("a failed run changed the graph");
      return 0;
    }
  if (graft_graph_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE, NULL))
    {
      dce = graft_eliminate_dead_code (graph, NULL, NULL);
      if (dce == NULL)
        fuzz_fail ("dead-code removal refused an ordered graph");
    }
  if (!graft_graph_lint (graph, GRAFT_LINT_DEFAULT, NULL))
    fuzz_fail ("a graph after the rules fails the lint");
  g_free (graft_codegen_python (graph));
  if (dce != NULL)
    graft_edit_undo (dce);
  graft_rules_run_undo (run);
  undone = graft_codegen_python (graph);
  if (strcmp (undone, before) != 0)
    fuzz_fail ("undoing the run does not restore the code");
  g_clear_pointer (&dce, graft_edit_free);
  g_clear_pointer (&run, graft_rules_run_free);

  for (guint i = 0; i < refs->len; i++)
    {
      GraftPyRuleRef *ref = refs->pdata[i];
      GraftPassRule   rule = { source, ref->pattern_entry, source, ref->replacement_entry };

      g_array_append_val (pass_rules, rule);
    }
  pass_options.dialect = dialect;
  pass_options.fixpoint = 3;
  pass_options.dce = TRUE;
  pass = graft_pass_write ((const GraftPassRule *) (gpointer) pass_rules->data, pass_rules->len,
                           &pass_options, NULL);
  /* A pass refuses only names it defines itself or two files. */
  (void) pass;
  return 0;
}

/* Every input runs in each dialect. */
int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  for (guint t = 0; t < GRAFT_N_TORCHES; t++)
    fuzz_one (data, size, graft_dialect_get (t));
  return 0;
}
