/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-diff-window.h: the graph's code before and after a change, side by
 * side.
 */
#pragma once

#include "graft-document.h"

#include <adwaita.h>

G_BEGIN_DECLS

#define GRAFT_TYPE_DIFF_WINDOW (graft_diff_window_get_type ())

G_DECLARE_FINAL_TYPE (GraftDiffWindow, graft_diff_window, GRAFT, DIFF_WINDOW, AdwWindow)

GtkWidget *graft_diff_window_new (GtkWindow  *parent,
                                  const char *what,
                                  const char *before,
                                  const char *after) G_GNUC_WARN_UNUSED_RESULT;
G_GNUC_WARN_UNUSED_RESULT
GtkWidget   *graft_diff_window_new_for_document (GtkWindow     *parent,
                                                 GraftDocument *document);
gboolean     graft_diff_window_get_ready (GraftDiffWindow *self);
gboolean     graft_diff_window_get_settled (GraftDiffWindow *self);
gboolean     graft_diff_window_get_busy (GraftDiffWindow *self);
char        *graft_diff_window_dup_side (GraftDiffWindow *self,
                                         gboolean         after) G_GNUC_WARN_UNUSED_RESULT;
char        *graft_diff_window_dup_selected_text (GraftDiffWindow *self) G_GNUC_WARN_UNUSED_RESULT;
GtkListView *graft_diff_window_get_list (GraftDiffWindow *self);
guint        graft_diff_window_get_n_changes (GraftDiffWindow *self);
guint        graft_diff_window_get_change_row (GraftDiffWindow *self,
                                               guint            change);
const char  *graft_diff_window_get_subtitle (GraftDiffWindow *self);
guint        graft_diff_window_get_n_removed (GraftDiffWindow *self);
guint        graft_diff_window_get_n_added (GraftDiffWindow *self);

G_END_DECLS
