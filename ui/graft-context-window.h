/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-context-window.h: one match and the nodes a few edges around it,
 * laid out on their own.
 */
#pragma once

#include <adwaita.h>

#include "graft-canvas.h"
#include "graft-document.h"

G_BEGIN_DECLS

#define GRAFT_TYPE_CONTEXT_WINDOW (graft_context_window_get_type ())

G_DECLARE_FINAL_TYPE (GraftContextWindow, graft_context_window, GRAFT, CONTEXT_WINDOW, AdwWindow)

GtkWidget   *graft_context_window_new (GtkWindow     *parent,
                                       GraftDocument *document,
                                       guint          match) G_GNUC_WARN_UNUSED_RESULT;
guint        graft_context_window_get_n_shown (GraftContextWindow *self);
void         graft_context_window_set_hops (GraftContextWindow *self,
                                            guint               hops);
gboolean     graft_context_window_get_ready (GraftContextWindow *self);
gboolean     graft_context_window_get_busy (GraftContextWindow *self);
GraftCanvas *graft_context_window_get_canvas (GraftContextWindow *self);

void     _graft_context_window_set_step (guint n_nodes);
gboolean _graft_context_window_get_marking (GraftContextWindow *self);

G_END_DECLS
