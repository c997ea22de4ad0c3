/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-split-window.h: the graph before and after one change of the
 * history, side by side, panning and zooming together.
 */
#pragma once

#include <adwaita.h>

#include "graft-canvas.h"
#include "graft-comparison.h"

G_BEGIN_DECLS

#define GRAFT_TYPE_SPLIT_WINDOW (graft_split_window_get_type ())

G_DECLARE_FINAL_TYPE (GraftSplitWindow, graft_split_window, GRAFT, SPLIT_WINDOW, AdwWindow)

GtkWidget *graft_split_window_new (GtkWindow       *parent,
                                   GraftComparison *comparison) G_GNUC_WARN_UNUSED_RESULT;
GtkWidget *graft_split_window_new_for_document (GtkWindow     *parent,
                                                GraftDocument *document,
                                                guint          change,
                                                guint          overview_boxes)
    G_GNUC_WARN_UNUSED_RESULT;
gboolean     graft_split_window_get_compared (GraftSplitWindow *self);
GraftCanvas *graft_split_window_get_canvas (GraftSplitWindow *self,
                                            gboolean          after);
gboolean     graft_split_window_get_ready (GraftSplitWindow *self);
gint         graft_split_window_get_node_change (GraftSplitWindow *self,
                                                 gboolean          after,
                                                 const char       *name);
gint         graft_split_window_get_twin (GraftSplitWindow *self,
                                          gboolean          after,
                                          guint             position);
guint        graft_split_window_get_n_changed (GraftSplitWindow *self,
                                               GraftChange       change);

void _graft_split_window_set_build_step (guint n_nodes);

G_END_DECLS
