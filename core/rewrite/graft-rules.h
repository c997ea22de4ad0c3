/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-rules.h: a rule set, the ordered (pattern, replacement) pairs of a
 * rules file, and running it as torch.fx users write the loop: each rule
 * once per pass as one `replace_pattern` call, passes repeated until one
 * replaces nothing (cli.md, "Rules").
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"
#include "graft-matcher.h"
#include "graft-rewriter.h"

G_BEGIN_DECLS

typedef struct _GraftRuleSet GraftRuleSet;

GraftRuleSet *graft_rule_set_new (void) G_GNUC_WARN_UNUSED_RESULT;
void          graft_rule_set_free (GraftRuleSet *self);
void          graft_rule_set_add (GraftRuleSet *self,
                                  const char   *pattern_name,
                                  GraftPattern *pattern,
                                  const char   *replacement_name,
                                  GraftGraph   *replacement);
guint         graft_rule_set_get_n_rules (GraftRuleSet *self);
const char   *graft_rule_set_get_pattern_name (GraftRuleSet *self,
                                               guint         i);
const char   *graft_rule_set_get_replacement_name (GraftRuleSet *self,
                                                   guint         i);
GraftPattern *graft_rule_set_get_pattern (GraftRuleSet *self,
                                          guint         i);
GraftGraph   *graft_rule_set_get_replacement (GraftRuleSet *self,
                                              guint         i);

/**
 * GraftRulesOptions:
 * @match: the matcher's options, for every rule
 * @fixpoint: 0 for one pass; N for passes until one replaces nothing, at
 *   most N (`--fixpoint N`)
 *
 * How a rule set runs; graft_rules_options_init() sets one pass with
 * `replace_pattern`'s matcher.
 */
typedef struct
{
  GraftMatchOptions match;
  guint             fixpoint;
} GraftRulesOptions;

/**
 * GraftRuleStep:
 * @pass: the pass, from 1
 * @rule: the rule's index in the set, from 0
 * @n_replaced: how many matches its `replace_pattern` call replaced
 *
 * One `replace_pattern` call of a run.
 */
typedef struct
{
  guint pass;
  guint rule;
  guint n_replaced;
} GraftRuleStep;

typedef struct _GraftRulesRun GraftRulesRun;

void                 graft_rules_options_init (GraftRulesOptions *options);
GraftRulesRun       *graft_rules_apply (GraftGraph              *graph,
                                        GraftRuleSet            *rules,
                                        const GraftRulesOptions *options,
                                        GError                 **error) G_GNUC_WARN_UNUSED_RESULT;
guint                graft_rules_run_get_n_steps (GraftRulesRun *self);
const GraftRuleStep *graft_rules_run_get_step (GraftRulesRun *self,
                                               guint          i);
GraftRewrite        *graft_rules_run_get_rewrite (GraftRulesRun *self,
                                                  guint          i);
guint                graft_rules_run_get_n_passes (GraftRulesRun *self);
guint                graft_rules_run_get_n_replaced (GraftRulesRun *self);
gboolean             graft_rules_run_get_bound_reached (GraftRulesRun *self);
void                 graft_rules_run_undo (GraftRulesRun *self);
void                 graft_rules_run_free (GraftRulesRun *self);

/**
 * GraftRulesJob:
 *
 * graft_rules_apply() as work done by steps (graft-rules.c).
 */
typedef struct _GraftRulesJob GraftRulesJob;

GraftRulesJob *graft_rules_job_new (GraftGraph              *graph,
                                    GraftRuleSet            *rules,
                                    const GraftRulesOptions *options) G_GNUC_WARN_UNUSED_RESULT;
gboolean       graft_rules_job_step (GraftRulesJob *self,
                                     guint          work);
GraftRulesRun *graft_rules_job_finish (GraftRulesJob *self,
                                       GError       **error) G_GNUC_WARN_UNUSED_RESULT;
void           graft_rules_job_get_position (GraftRulesJob *self,
                                             guint         *pass,
                                             guint         *rule);
void           graft_rules_job_free (GraftRulesJob *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftRuleSet, graft_rule_set_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftRulesRun, graft_rules_run_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftRulesJob, graft_rules_job_free)

G_END_DECLS
