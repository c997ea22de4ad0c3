/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-matcher.h: finding a pattern graph in a graph, with the semantics of
 * torch.fx's `SubgraphMatcher` in the graph's dialect (1.13.1 or 2.6).
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"
#include "graft-arg.h"
#include "graft-pattern.h"

G_BEGIN_DECLS

typedef struct _GraftMatch GraftMatch;

/**
 * GraftMatchFilter:
 * @match: a match that survived torch's own filters
 * @graph: the graph it is in
 * @user_data: the data given with the filter
 *
 * A match filter, as torch 2.x's `replace_pattern_with_filters` takes them.
 *
 * Returns: %TRUE to keep the match
 */
typedef gboolean (*GraftMatchFilter) (const GraftMatch *match,
                                      GraftGraph       *graph,
                                      gpointer          user_data);

/**
 * GraftMatchOptions:
 * @match_output: the pattern's output node must match the graph's output
 * @match_placeholder: pattern placeholders must match placeholders
 * @remove_overlapping_matches: keep only the first of overlapping matches
 * @ignore_literals: a literal in the pattern matches any literal (torch 2.x)
 * @filter: (nullable): a filter applied after torch's own filters
 * @filter_data: data for @filter
 *
 * The options of `SubgraphMatcher`; graft_match_options_init() sets the
 * values `replace_pattern` uses.
 */
typedef struct
{
  gboolean         match_output;
  gboolean         match_placeholder;
  gboolean         remove_overlapping_matches;
  gboolean         ignore_literals;
  GraftMatchFilter filter;
  gpointer         filter_data;
} GraftMatchOptions;

/**
 * GraftMatchDropReason:
 * @GRAFT_MATCH_KEPT: the match is kept
 * @GRAFT_MATCH_DROPPED_LEAK: an internal node of the match is used outside it
 * @GRAFT_MATCH_DROPPED_CYCLE: replacing the match would make a cycle
 * @GRAFT_MATCH_DROPPED_OVERLAP: it shares nodes with an earlier kept match
 * @GRAFT_MATCH_DROPPED_FILTER: the caller's filter dropped it
 *
 * Why a complete candidate match is not among the results.
 */
typedef enum {
  GRAFT_MATCH_KEPT,
  GRAFT_MATCH_DROPPED_LEAK,
  GRAFT_MATCH_DROPPED_CYCLE,
  GRAFT_MATCH_DROPPED_OVERLAP,
  GRAFT_MATCH_DROPPED_FILTER,
} GraftMatchDropReason;

void graft_match_options_init (GraftMatchOptions *options);

GPtrArray *graft_matcher_find (GraftPattern            *pattern,
                               GraftGraph              *graph,
                               const GraftMatchOptions *options,
                               GPtrArray              **out_dropped) G_GNUC_WARN_UNUSED_RESULT;

GPtrArray *graft_matcher_find_full (GraftPattern            *pattern,
                                    GraftGraph              *graph,
                                    const GraftMatchOptions *options,
                                    GPtrArray              **out_dropped,
                                    GError                 **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * GraftMatchSearch:
 *
 * graft_matcher_find_full() as work done by steps (graft-matcher.c).
 */
typedef struct _GraftMatchSearch GraftMatchSearch;

GraftMatchSearch *graft_match_search_new (GraftPattern            *pattern,
                                          GraftGraph              *graph,
                                          const GraftMatchOptions *options);
gboolean          graft_match_search_step (GraftMatchSearch *self,
                                           guint             work);
GPtrArray        *graft_match_search_finish (GraftMatchSearch *self,
                                             GPtrArray       **out_dropped,
                                             GError          **error);
void              graft_match_search_free (GraftMatchSearch *self);

char *graft_matcher_explain (GraftPattern            *pattern,
                             GraftGraph              *graph,
                             GraftNode               *at,
                             const GraftMatchOptions *options,
                             GPtrArray              **out_bound) G_GNUC_WARN_UNUSED_RESULT;

GraftPattern        *graft_match_get_pattern (const GraftMatch *match);
GraftMatchDropReason graft_match_get_drop_reason (const GraftMatch *match);
gboolean             graft_match_get_binding (const GraftMatch *match,
                                              guint             pattern_index,
                                              GraftNode       **out_node,
                                              const GraftArg  **out_literal);
gboolean             graft_match_get_placeholder (const GraftMatch *match,
                                                  guint             i,
                                                  GraftNode       **out_node,
                                                  const GraftArg  **out_literal);
GraftNode           *graft_match_get_returning_node (const GraftMatch *match,
                                                     guint             i);
GPtrArray           *graft_match_dup_nodes (const GraftMatch *match) G_GNUC_WARN_UNUSED_RESULT;
void                 graft_match_free (GraftMatch *match);
gint                *graft_matches_dup_node_marks (GPtrArray  *matches,
                                                   GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftMatch, graft_match_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftMatchSearch, graft_match_search_free)

G_END_DECLS
