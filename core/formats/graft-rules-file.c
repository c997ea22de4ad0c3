/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-rules-file.c: a rules file is Python that defines `RULES`, a list
 * of (pattern, replacement) pairs naming its own functions or torch.nn
 * classes (cli.md, "Rules").  Reading one traces every pattern and
 * replacement and checks that each replacement fits its pattern (as many
 * parameters, as many returned values), so that a bad file is a located
 * error before any rule runs.  torch itself finds a misfit only when it
 * replaces a match, after the rules before it have changed the graph;
 * with no match it never finds it.  A single `replace_pattern` keeps
 * torch's behaviour (graft-rewriter.c); a rule set does better.
 */
#include "config.h"

#include "graft-rules-file.h"
#include "graft-error.h"
#include "graft-graph.h"
#include "graft-pattern.h"
#include "graft-source.h"

/* How many values @replacement returns, or -1 for a constant. */
static gint
count_returned (GraftGraph *replacement)
{
  GraftNode      *output = graft_graph_get_output (replacement);
  const GraftArg *args;

  if (output == NULL)
    return 0;
  args = graft_node_get_args (output);
  if (args->kind != GRAFT_ARG_TUPLE || args->n != 1)
    return -1;
  if (args->items[0].kind == GRAFT_ARG_NODE)
    return 1;
  if (args->items[0].kind == GRAFT_ARG_TUPLE || args->items[0].kind == GRAFT_ARG_LIST)
    return (gint) args->items[0].n;
  return -1;
}

/**
 * graft_rule_check_fit:
 * @out_problem: (out) (transfer full) (optional): what does not fit, when
 *   something does not
 *
 * Whether @replacement can stand for a match of @pattern: it takes as many
 * parameters as the pattern and returns as many values (torch.fx asserts
 * both when it replaces a match).
 *
 * Returns: %TRUE if it fits
 */
gboolean
graft_rule_check_fit (GraftPattern *pattern,
                      GraftGraph   *replacement,
                      char        **out_problem)
{
  guint n_params = 0;
  guint n_pattern = graft_pattern_get_n_placeholders (pattern);
  guint n_returning = graft_pattern_get_n_returning (pattern);
  gint  n_returned = count_returned (replacement);

  for (GraftNode *n = graft_graph_get_first (replacement); n != NULL; n = graft_node_get_next (n))
    if (graft_node_get_op (n) == GRAFT_OP_PLACEHOLDER)
      n_params++;
  if (n_params != n_pattern)
    {
      if (out_problem != NULL)
        *out_problem = g_strdup_printf (
            "the pattern takes %u parameter%s but the replacement takes %u; they must take the "
            "same number (torch.fx asserts this)",
            n_pattern, n_pattern == 1 ? "" : "s", n_params);
      return FALSE;
    }
  if (n_returned >= 0 && (guint) n_returned != n_returning)
    {
      if (out_problem != NULL)
        *out_problem =
            g_strdup_printf ("the pattern returns %u value%s but the replacement returns %d",
                             n_returning, n_returning == 1 ? "" : "s", n_returned);
      return FALSE;
    }
  return TRUE;
}

/**
 * graft_input_set_load_rules:
 * @path: the rules file
 * @out_refs: (out) (optional) (transfer full) (element-type GraftPyRuleRef):
 *   the pairs as the file names them
 * @error: return location for an error located in the rules file
 *
 * Reads the rules of @path, each pattern and replacement traced in the
 * set's dialect.
 *
 * Returns: (transfer full) (nullable): the rule set
 */
GraftRuleSet *
graft_input_set_load_rules (GraftInputSet *self,
                            const char    *path,
                            GPtrArray    **out_refs,
                            GError       **error)
{
  GraftSource    *source = graft_input_set_get_source (self, path, error);
  GraftPyProgram *program;
  g_autoptr (GPtrArray) refs = NULL;
  g_autoptr (GraftRuleSet) rules = NULL;

  if (source == NULL)
    return NULL;
  if (graft_input_detect (source) != GRAFT_INPUT_PYTHON)
    {
      graft_set_error_at (error, path, 1, 1, GRAFT_PARSE_ERROR_NAME,
                          "a rules file is Python that defines RULES, a list of (pattern, "
                          "replacement) pairs");
      return NULL;
    }
  program = graft_input_set_get_program (self, path, error);
  if (program == NULL)
    return NULL;
  refs = graft_py_program_get_rules (program, error);
  if (refs == NULL)
    return NULL;
  rules = graft_rule_set_new ();
  for (guint i = 0; i < refs->len; i++)
    {
      GraftPyRuleRef *ref = refs->pdata[i];
      g_autoptr (GraftGraph) pattern_graph = NULL;
      g_autoptr (GraftPattern) pattern = NULL;
      g_autoptr (GraftGraph) replacement = NULL;
      g_autofree char *problem = NULL;

      pattern_graph = graft_py_program_trace (program, ref->pattern_entry, error);
      if (pattern_graph != NULL)
        pattern = graft_pattern_new (g_steal_pointer (&pattern_graph), error);
      if (pattern != NULL)
        replacement = graft_py_program_trace (program, ref->replacement_entry, error);
      if (replacement == NULL)
        {
          /* Where the trace failed, with the rule it was for. */
          g_prefix_error (error, "rule %u (%s -> %s): ", i + 1, ref->pattern_name,
                          ref->replacement_name);
          return NULL;
        }
      if (!graft_rule_check_fit (pattern, replacement, &problem))
        {
          graft_set_error_at_offset (error, source, ref->start, ref->end, GRAFT_PARSE_ERROR_NAME,
                                     "rule %u (%s -> %s): %s", i + 1, ref->pattern_name,
                                     ref->replacement_name, problem);
          return NULL;
        }
      graft_rule_set_add (rules, ref->pattern_name, pattern, ref->replacement_name,
                          g_steal_pointer (&replacement));
    }
  if (out_refs != NULL)
    *out_refs = g_steal_pointer (&refs);
  return g_steal_pointer (&rules);
}
