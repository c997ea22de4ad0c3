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
#include "graft-error.h"
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

/* A run by steps --------------------------------------------------------- */

/* Where a GraftRulesJob stands: in a call, its search, then its rewrite. */
enum {
  JOB_SEARCHING,
  JOB_REWRITING,
  JOB_DONE,
  JOB_FAILED,
};

struct _GraftRulesJob
{
  /* Borrowed */
  GraftGraph   *graph;
  GraftRuleSet *rules;
  /* Owned */
  GraftRulesOptions options; /* a copy */
  GraftRulesRun    *run;
  GraftMatchSearch *search;  /* the call's search, or NULL */
  GPtrArray        *matches; /* what it found, which rewrite borrows */
  GraftRewriteJob  *rewrite; /* the call's rewrite, or NULL */
  GError           *error;
  /* Where the loop stands */
  guint phase;
  guint pass;
  guint rule;
  guint replaced; /* in the pass so far */
  guint max_passes;
};

/**
 * graft_rules_job_new:
 * @graph: the graph to rewrite
 * @rules: the rules, in the order they run
 * @options: (nullable): %NULL for one pass with `replace_pattern`'s matcher
 *
 * Begins graft_rules_apply() by steps (graft_rules_job_step()): each
 * `replace_pattern` call is its search (graft_match_search_step()) and
 * its rewrite (graft_rewrite_job_step()), each by steps.  @graph and
 * @rules are borrowed until the job is freed; nothing else may change
 * @graph meanwhile.
 *
 * Returns: (transfer full): the job
 */
GraftRulesJob *
graft_rules_job_new (GraftGraph              *graph,
                     GraftRuleSet            *rules,
                     const GraftRulesOptions *options)
{
  GraftRulesJob *self;

  g_return_val_if_fail (graph != NULL && rules != NULL, NULL);
  self = g_new0 (GraftRulesJob, 1);
  self->graph = graph;
  self->rules = rules;
  if (options != NULL)
    self->options = *options;
  else
    graft_rules_options_init (&self->options);
  self->run = run_new ();
  self->max_passes = MAX (self->options.fixpoint, 1);
  self->pass = 1;
  self->run->n_passes = 1;
  self->phase = rules->rules->len > 0 ? JOB_SEARCHING : JOB_DONE;
  return self;
}

/* The run failed in the call under way (the error set): every call
 * before it undone. */
static void
job_fail (GraftRulesJob *self)
{
  Rule *rule = &g_array_index (self->rules->rules, Rule, self->rule);

  g_prefix_error (&self->error, "pass %u, rule %u (%s -> %s): ", self->pass, self->rule + 1,
                  rule->pattern_name, rule->replacement_name);
  graft_rules_run_undo (self->run);
  self->phase = JOB_FAILED;
}

/* The call under way is over with @rewrite (taken): the next call, or
 * the next pass, or the end of the run. */
static void
job_called (GraftRulesJob *self,
            GraftRewrite  *rewrite)
{
  GraftRuleStep step;

  step.pass = self->pass;
  step.rule = self->rule;
  step.n_replaced = graft_rewrite_get_n_replaced (rewrite);
  g_array_append_val (self->run->steps, step);
  g_ptr_array_add (self->run->rewrites, rewrite);
  self->replaced += step.n_replaced;
  self->phase = JOB_SEARCHING;
  if (++self->rule < self->rules->rules->len)
    return;
  self->run->n_replaced += self->replaced;
  if (self->replaced == 0)
    {
      self->phase = JOB_DONE;
      return;
    }
  if (self->pass == self->max_passes)
    {
      if (self->options.fixpoint > 0)
        self->run->bound_reached = TRUE;
      self->phase = JOB_DONE;
      return;
    }
  self->pass++;
  self->run->n_passes = self->pass;
  self->rule = 0;
  self->replaced = 0;
}

/**
 * graft_rules_job_get_position:
 * @self: a job
 * @pass: (out): the pass under way, from 1
 * @rule: (out): the rule of the call under way, from 0 (the number of
 *   rules once the run is over)
 *
 * Where the run stands, for a progress report.
 */
void
graft_rules_job_get_position (GraftRulesJob *self,
                              guint         *pass,
                              guint         *rule)
{
  g_return_if_fail (self != NULL && pass != NULL && rule != NULL);
  *pass = self->pass;
  *rule = self->phase == JOB_SEARCHING || self->phase == JOB_REWRITING
              ? self->rule
              : self->rules->rules->len;
}

/**
 * graft_rules_job_step:
 * @self: a job
 * @work: about how much to do, as the matcher's and the rewriter's
 *   steps count it; %G_MAXUINT for all
 *
 * Goes on with the run, for about @work (a call's search and its rewrite
 * each take at least one step of their own).
 *
 * Returns: whether the job is done (graft_rules_job_finish()), or failed,
 *   the graph as it was
 */
gboolean
graft_rules_job_step (GraftRulesJob *self,
                      guint          work)
{
  g_return_val_if_fail (self != NULL, TRUE);
  while (self->phase == JOB_SEARCHING || self->phase == JOB_REWRITING)
    {
      Rule *rule = &g_array_index (self->rules->rules, Rule, self->rule);

      if (self->phase == JOB_SEARCHING)
        {
          if (self->search == NULL)
            self->search = graft_match_search_new (rule->pattern, self->graph,
                                                   &self->options.match);
          if (!graft_match_search_step (self->search, work))
            return FALSE;
          self->matches = graft_match_search_finish (self->search, NULL, &self->error);
          g_clear_pointer (&self->search, graft_match_search_free);
          if (self->matches == NULL)
            {
              job_fail (self);
              return TRUE;
            }
          self->rewrite = graft_rewrite_job_new (self->graph, rule->pattern, rule->replacement,
                                                 self->matches);
          self->phase = JOB_REWRITING;
          if (work != G_MAXUINT)
            return FALSE;
        }
      if (!graft_rewrite_job_step (self->rewrite, work))
        return FALSE;
      {
        GraftRewrite *rewrite = graft_rewrite_job_finish (self->rewrite, &self->error);

        g_clear_pointer (&self->rewrite, graft_rewrite_job_free);
        g_clear_pointer (&self->matches, g_ptr_array_unref);
        if (rewrite == NULL)
          {
            job_fail (self);
            return TRUE;
          }
        job_called (self, rewrite);
      }
      if (work != G_MAXUINT)
        return self->phase == JOB_DONE;
    }
  return TRUE;
}

/**
 * graft_rules_job_finish:
 * @self: a job
 * @error: return location for an error; it names the pass and the rule
 *
 * Does what is left of the run at once, if anything.
 *
 * Returns: (transfer full) (nullable): the run, with each call's rewrite;
 *   %NULL if it failed, the graph as it was
 */
GraftRulesRun *
graft_rules_job_finish (GraftRulesJob *self,
                        GError       **error)
{
  g_return_val_if_fail (self != NULL, NULL);
  graft_rules_job_step (self, G_MAXUINT);
  if (self->phase == JOB_FAILED)
    {
      if (self->error != NULL)
        g_propagate_error (error, g_steal_pointer (&self->error));
      else
        g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, "the run was finished");
      return NULL;
    }
  self->phase = JOB_FAILED;
  return g_steal_pointer (&self->run);
}

/**
 * graft_rules_job_free:
 * @self: (nullable): a job
 *
 * Frees the job; one not done undoes what it did first (its calls, and the
 * call under way), the graph as it was.
 */
void
graft_rules_job_free (GraftRulesJob *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->search, graft_match_search_free);
  /* Rolls back the call under way. */
  g_clear_pointer (&self->rewrite, graft_rewrite_job_free);
  g_clear_pointer (&self->matches, g_ptr_array_unref);
  if (self->run != NULL)
    {
      graft_rules_run_undo (self->run);
      graft_rules_run_free (self->run);
    }
  g_clear_error (&self->error);
  g_free (self);
}

/**
 * graft_rules_apply:
 * @graph: the graph to rewrite
 * @rules: the rules, in the order they run
 * @options: (nullable): %NULL for one pass with `replace_pattern`'s matcher
 * @error: return location for an error; it names the pass and the rule
 *
 * Runs the rules over @graph as cli.md's "Rules" says: a GraftRulesJob
 * finished at once.  On failure the graph is as it was before the run.
 *
 * Returns: (transfer full) (nullable): the run, with each call's rewrite
 */
GraftRulesRun *
graft_rules_apply (GraftGraph              *graph,
                   GraftRuleSet            *rules,
                   const GraftRulesOptions *options,
                   GError                 **error)
{
  GraftRulesJob *job;
  GraftRulesRun *run;

  g_return_val_if_fail (graph != NULL && rules != NULL, NULL);
  job = graft_rules_job_new (graph, rules, options);
  run = graft_rules_job_finish (job, error);
  graft_rules_job_free (job);
  return run;
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
