/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pattern.h: a pattern graph prepared for matching, as torch.fx
 * 1.13.1's `SubgraphMatcher.__init__` prepares it: its nodes in order, its
 * placeholders, the nodes it returns and the anchors a search starts from.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

typedef struct _GraftPattern GraftPattern;

GraftPattern *graft_pattern_new (GraftGraph *graph,
                                 GError    **error) G_GNUC_WARN_UNUSED_RESULT;
GraftPattern *graft_pattern_ref (GraftPattern *self);
void          graft_pattern_unref (GraftPattern *self);
GraftGraph   *graft_pattern_get_graph (GraftPattern *self);
guint         graft_pattern_get_n_nodes (GraftPattern *self);
GraftNode    *graft_pattern_get_node (GraftPattern *self,
                                      guint         i);
guint         graft_pattern_get_n_anchors (GraftPattern *self);
GraftNode    *graft_pattern_get_anchor (GraftPattern *self,
                                        guint         i);
guint         graft_pattern_get_n_placeholders (GraftPattern *self);
guint         graft_pattern_get_n_returning (GraftPattern *self);
guint         graft_pattern_get_placeholder_position (GraftPattern *self,
                                                      guint         i);
guint         graft_pattern_get_returning_position (GraftPattern *self,
                                                    guint         i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftPattern, graft_pattern_unref)

G_END_DECLS
