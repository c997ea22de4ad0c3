/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-comparison.h: a document's graph before and after one change of
 * its history, ready to lay out side by side, with what the change did to
 * each node.
 */
#pragma once

#include "graft-document.h"

G_BEGIN_DECLS

typedef struct _GraftComparison GraftComparison;

gint             graft_document_get_compared_change (GraftDocument *self);
GraftComparison *graft_document_compare (GraftDocument *self,
                                         guint          change,
                                         guint          overview_boxes,
                                         GError       **error) G_GNUC_WARN_UNUSED_RESULT;

guint       graft_comparison_get_change (GraftComparison *self);
const char *graft_comparison_get_label (GraftComparison *self);
G_GNUC_WARN_UNUSED_RESULT
GraftLayoutRequest *graft_comparison_steal_request (GraftComparison *self,
                                                    gboolean         after);
guint8             *graft_comparison_steal_node_changes (GraftComparison *self,
                                                         gboolean         after)
    G_GNUC_WARN_UNUSED_RESULT;
const char *const *graft_comparison_get_names (GraftComparison *self,
                                               GraftChange      change);
void               graft_comparison_free (GraftComparison *self);

typedef struct _GraftComparisonBuilder GraftComparisonBuilder;

GraftComparisonBuilder *graft_comparison_builder_new (GraftDocument *document,
                                                      guint          change,
                                                      guint          overview_boxes,
                                                      GError       **error)
    G_GNUC_WARN_UNUSED_RESULT;
gboolean         graft_comparison_builder_step (GraftComparisonBuilder *self,
                                                gint64                  usec,
                                                guint                   n_nodes);
gboolean         graft_comparison_builder_get_away (GraftComparisonBuilder *self);
GraftComparison *graft_comparison_builder_finish (GraftComparisonBuilder *self)
    G_GNUC_WARN_UNUSED_RESULT;
void graft_comparison_builder_free (GraftComparisonBuilder *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftComparison, graft_comparison_free)

G_END_DECLS
