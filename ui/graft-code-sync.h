/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-code-sync.h: fills the side panel's Code tab with the graph's
 * code and keeps its cursor and the canvas's selection in step.
 */
#pragma once

#include "graft-canvas.h"
#include "graft-document.h"

G_BEGIN_DECLS

#define GRAFT_TYPE_CODE_SYNC (graft_code_sync_get_type ())

G_DECLARE_FINAL_TYPE (GraftCodeSync, graft_code_sync, GRAFT, CODE_SYNC, GObject)

GraftCodeSync *graft_code_sync_new (GraftDocument *document,
                                    GraftCanvas   *canvas,
                                    GtkTextView   *code_view,
                                    GtkLabel      *note,
                                    GtkStack      *pages) G_GNUC_WARN_UNUSED_RESULT;
void           graft_code_sync_refresh (GraftCodeSync *self);
void           graft_code_sync_select (GraftCodeSync *self,
                                       const char    *name);
void           graft_code_sync_select_node (GraftCodeSync *self,
                                            GraftNode     *node);
GtkWidget     *graft_code_sync_get_list (GraftCodeSync *self);
gboolean       graft_code_sync_get_filling (GraftCodeSync *self);
char          *graft_code_sync_dup_rows_text (GraftCodeSync *self) G_GNUC_WARN_UNUSED_RESULT;
void           _graft_code_sync_set_fill_step (gsize  bytes,
                                               gint64 usec);

G_END_DECLS
