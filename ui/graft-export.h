/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-export.h: one export of the editor, run off the main loop on a
 * copy of what it writes, with progress and cancellation.
 */
#pragma once

#include <gio/gio.h>

#include "graft-document.h"

G_BEGIN_DECLS

/**
 * GraftExportScope:
 * @GRAFT_EXPORT_SCOPE_WHOLE: every node of the graph, unfolded
 * @GRAFT_EXPORT_SCOPE_FOLDED: the whole graph as the canvas folds it
 * @GRAFT_EXPORT_SCOPE_VIEW: what the canvas shows: its visible area at its
 *   zoom
 *
 * What a picture shows.
 */
typedef enum {
  GRAFT_EXPORT_SCOPE_WHOLE,
  GRAFT_EXPORT_SCOPE_FOLDED,
  GRAFT_EXPORT_SCOPE_VIEW,
} GraftExportScope;

#define GRAFT_TYPE_EXPORT (graft_export_get_type ())

G_DECLARE_FINAL_TYPE (GraftExport, graft_export, GRAFT, EXPORT, GObject)

GraftExport *graft_export_new_text (GFile      *file,
                                    GraftFormat format,
                                    const char *text) G_GNUC_WARN_UNUSED_RESULT;
GraftExport *graft_export_new_graph_text (GraftDocument *document,
                                          GFile         *file,
                                          GraftFormat    format,
                                          gboolean       highlights) G_GNUC_WARN_UNUSED_RESULT;
GraftExport *graft_export_new_match_list (GraftDocument *document,
                                          GFile         *file) G_GNUC_WARN_UNUSED_RESULT;
GraftExport *graft_export_new_picture (GraftDocument         *document,
                                       GFile                 *file,
                                       GraftFormat            format,
                                       GraftLayout           *layout,
                                       const GraftRenderArea *area,
                                       gboolean               highlights,
                                       gboolean               dark) G_GNUC_WARN_UNUSED_RESULT;
GraftExport *graft_export_new_whole (GraftDocument *document,
                                     GFile         *file,
                                     GraftFormat    format,
                                     gboolean       highlights,
                                     gboolean       dark) G_GNUC_WARN_UNUSED_RESULT;

GFile      *graft_export_get_file (GraftExport *self);
GraftFormat graft_export_get_format (GraftExport *self);
double      graft_export_get_fraction (GraftExport *self);
void        graft_export_cancel (GraftExport *self);
gboolean    graft_export_get_graph_changed (GraftExport *self);

void     _graft_export_set_marks_step (guint n_names);
gboolean _graft_export_get_marking (GraftExport *self);
gboolean _graft_export_get_making (GraftExport *self);
gboolean graft_export_get_fit (GraftExport    *self,
                               GraftRenderFit *out_fit);
void     graft_export_run_async (GraftExport        *self,
                                 GAsyncReadyCallback callback,
                                 gpointer            user_data);
gboolean graft_export_run_finish (GraftExport  *self,
                                  GAsyncResult *result,
                                  GError      **error);

G_END_DECLS
