/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-rules.c: rule sets and their runs.  A run is the loop that
 * `fx-reference rewrite --rules` runs and that a pass written by
 * `--to pass` runs in torch:
 *
 *     for n in range(1, N + 1):
 *         replaced = sum(len(replace_pattern(gm, p, r)) for p, r in RULES)
 *         if replaced == 0:
 *             break
 *
 * Each call finds the matches on the graph as the previous call left it,
 * so a rule sees what the rules before it made.  A run keeps every call's
 * rewrite (and so its edit), in order: the editor makes each one a step of
 * its history, and a failed call undoes the whole run, so that the graph is
 * as it was.  Dead-code removal is not part of a run (graft-dce.h): it
 * runs once, after the last pass, when asked.
 */
#include "config.h"

#include "graft-rules.h"
#include "graft-edit.h"
#include "graft-graph.h"
#include "graft-pattern.h"

typedef struct
{
  /* Owned */
  char         *pattern_name;
  char         *replacement_name;
  GraftPattern *pattern;
  GraftGraph   *replacement;
} Rule;

struct _GraftRuleSet
{
  GArray *rules; /* Rule */
};

static void
rule_clear (gpointer data)
{
  Rule *rule = data;

  g_free (rule->pattern_name);
  g_free (rule->replacement_name);
  graft_pattern_unref (rule->pattern);
  graft_graph_free (rule->replacement);
}

/**
 * graft_rule_set_new:
 *
 * Returns: (transfer full): an empty rule set
 */
GraftRuleSet *
graft_rule_set_new (void)
{
  GraftRuleSet *self = g_new0 (GraftRuleSet, 1);

  self->rules = g_array_new (FALSE, TRUE, sizeof (Rule));
  g_array_set_clear_func (self->rules, rule_clear);
  return self;
}

void
graft_rule_set_free (GraftRuleSet *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->rules);
  g_free (self);
}

/**
 * graft_rule_set_add:
 * @pattern_name: the pattern's name, as the rules file calls it
 * @pattern: (transfer none): the pattern (a reference is taken)
 * @replacement_name: the replacement's name
 * @replacement: (transfer full): the replacement's graph
 *
 * Appends a rule.
 */
void
graft_rule_set_add (GraftRuleSet *self,
                    const char   *pattern_name,
                    GraftPattern *pattern,
                    const char   *replacement_name,
                    GraftGraph   *replacement)
{
  Rule rule;

  g_return_if_fail (self != NULL && pattern != NULL && replacement != NULL);
  rule.pattern_name = g_strdup (pattern_name);
  rule.replacement_name = g_strdup (replacement_name);
  rule.pattern = graft_pattern_ref (pattern);
  rule.replacement = replacement;
  g_array_append_val (self->rules, rule);
}

guint
graft_rule_set_get_n_rules (GraftRuleSet *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->rules->len;
}

static Rule *
get_rule (GraftRuleSet *self,
          guint         i)
{
  g_return_val_if_fail (self != NULL && i < self->rules->len, NULL);
  return &g_array_index (self->rules, Rule, i);
}

const char *
graft_rule_set_get_pattern_name (GraftRuleSet *self,
                                 guint         i)
{
  Rule *rule = get_rule (self, i);

  return rule != NULL ? rule->pattern_name : NULL;
}

const char *
graft_rule_set_get_replacement_name (GraftRuleSet *self,
                                     guint         i)
{
  Rule *rule = get_rule (self, i);

  return rule != NULL ? rule->replacement_name : NULL;
}

GraftPattern *
graft_rule_set_get_pattern (GraftRuleSet *self,
                            guint         i)
{
  Rule *rule = get_rule (self, i);

  return rule != NULL ? rule->pattern : NULL;
}

GraftGraph *
graft_rule_set_get_replacement (GraftRuleSet *self,
                                guint         i)
{
  Rule *rule = get_rule (self, i);

  return rule != NULL ? rule->replacement : NULL;
}

/* Runs ------------------------------------------------------------------- */

struct _GraftRulesRun
{
  /* Owned */
  GArray    *steps;    /* GraftRuleStep */
  GPtrArray *rewrites; /* GraftRewrite *, one per step */
  /* What the run found */
  guint    n_passes;
  guint    n_replaced;
  gboolean bound_reached;
};

/**
 * graft_rules_options_init:
 *
 * One pass, with the matcher options `replace_pattern` uses.
 */
void
graft_rules_options_init (GraftRulesOptions *options)
{
  g_return_if_fail (options != NULL);
  graft_match_options_init (&options->match);
  options->fixpoint = 0;
}

static GraftRulesRun *
run_new (void)
{
  GraftRulesRun *self = g_new0 (GraftRulesRun, 1);

  self->steps = g_array_new (FALSE, FALSE, sizeof (GraftRuleStep));
  self->rewrites = g_ptr_array_new_with_free_func ((GDestroyNotify) graft_rewrite_free);
  return self;
}

/**
 * graft_rules_apply:
 * @graph: the graph to rewrite
 * @rules: the rules, in the order they run
 * @options: (nullable): %NULL for one pass with `replace_pattern`'s matcher
 * @error: return location for an error; it names the pass and the rule
 *
 * Runs the rules over @graph as cli.md's "Rules" says.  On failure the
 * graph is as it was before the run.
 *
 * Returns: (transfer full) (nullable): the run, with each call's rewrite
 */
GraftRulesRun *
graft_rules_apply (GraftGraph              *graph,
                   GraftRuleSet            *rules,
                   const GraftRulesOptions *options,
                   GError                 **error)
{
  g_autoptr (GraftRulesRun) self = NULL;
  GraftRulesOptions defaults;
  guint             max_passes;

  g_return_val_if_fail (graph != NULL && rules != NULL, NULL);
  if (options == NULL)
    {
      graft_rules_options_init (&defaults);
      options = &defaults;
    }
  self = run_new ();
  max_passes = MAX (options->fixpoint, 1);
  for (guint pass = 1; pass <= max_passes; pass++)
    {
      guint replaced = 0;

      self->n_passes = pass;
      for (guint i = 0; i < rules->rules->len; i++)
        {
          Rule         *rule = get_rule (rules, i);
          GraftRewrite *rewrite;
          GraftRuleStep step;

          rewrite = graft_replace_pattern (graph, rule->pattern, rule->replacement,
                                           &options->match, error);
          if (rewrite == NULL)
            {
              g_prefix_error (error, "pass %u, rule %u (%s -> %s): ", pass, i + 1,
                              rule->pattern_name, rule->replacement_name);
              graft_rules_run_undo (self);
              return NULL;
            }
          step.pass = pass;
          step.rule = i;
          step.n_replaced = graft_rewrite_get_n_replaced (rewrite);
          g_array_append_val (self->steps, step);
          g_ptr_array_add (self->rewrites, rewrite);
          replaced += step.n_replaced;
        }
      self->n_replaced += replaced;
      if (replaced == 0)
        break;
      if (pass == max_passes && options->fixpoint > 0)
        self->bound_reached = TRUE;
    }
  return g_steal_pointer (&self);
}

guint
graft_rules_run_get_n_steps (GraftRulesRun *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->steps->len;
}

const GraftRuleStep *
graft_rules_run_get_step (GraftRulesRun *self,
                          guint          i)
{
  g_return_val_if_fail (self != NULL && i < self->steps->len, NULL);
  return &g_array_index (self->steps, GraftRuleStep, i);
}

/**
 * graft_rules_run_get_rewrite:
 *
 * Returns: (transfer none): step @i's rewrite (its edit, added nodes and
 *   warnings)
 */
GraftRewrite *
graft_rules_run_get_rewrite (GraftRulesRun *self,
                             guint          i)
{
  g_return_val_if_fail (self != NULL && i < self->rewrites->len, NULL);
  return self->rewrites->pdata[i];
}

/**
 * graft_rules_run_get_n_passes:
 *
 * Returns: how many passes ran (the last may have replaced nothing)
 */
guint
graft_rules_run_get_n_passes (GraftRulesRun *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_passes;
}

guint
graft_rules_run_get_n_replaced (GraftRulesRun *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_replaced;
}

/**
 * graft_rules_run_get_bound_reached:
 *
 * Returns: whether a `--fixpoint N` run stopped after its Nth pass with
 *   matches still replaced in it
 */
gboolean
graft_rules_run_get_bound_reached (GraftRulesRun *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->bound_reached;
}

/**
 * graft_rules_run_undo:
 *
 * Undoes every step of the run, the last first: the graph is as it was
 * before the run.  The steps' edits that the caller has stolen are not
 * undone.
 */
void
graft_rules_run_undo (GraftRulesRun *self)
{
  g_return_if_fail (self != NULL);
  for (guint i = self->rewrites->len; i-- > 0;)
    {
      GraftEdit *edit = graft_rewrite_get_edit (self->rewrites->pdata[i]);

      if (edit != NULL && graft_edit_is_applied (edit))
        graft_edit_undo (edit);
    }
}

void
graft_rules_run_free (GraftRulesRun *self)
{
  if (self == NULL)
    return;
  /* Edits go before the graph, the last first. */
  while (self->rewrites->len > 0)
    g_ptr_array_remove_index (self->rewrites, self->rewrites->len - 1);
  g_ptr_array_unref (self->rewrites);
  g_array_unref (self->steps);
  g_free (self);
}
