/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-window.h: an editor window: one graph, its pattern and replacement,
 * and what can be done with them.
 */
#pragma once

#include <adwaita.h>

#include "graft-application.h"
#include "graft-canvas.h"
#include "graft-properties.h"
#include "graft-document.h"
#include "graft-overview.h"
#include "graft-export-bar.h"
#include "graft-rules-panel.h"

G_BEGIN_DECLS

#define GRAFT_TYPE_WINDOW (graft_window_get_type ())

G_DECLARE_FINAL_TYPE (GraftWindow, graft_window, GRAFT, WINDOW, AdwApplicationWindow)

GraftWindow     *graft_window_new (GraftApplication *application) G_GNUC_WARN_UNUSED_RESULT;
void             graft_window_open_file (GraftWindow *self,
                                         GFile       *file);
gboolean         graft_window_is_empty (GraftWindow *self);
GraftDocument   *graft_window_get_document (GraftWindow *self);
GraftCanvas     *graft_window_get_canvas (GraftWindow *self);
GraftOverview   *graft_window_get_overview (GraftWindow *self);
gboolean         graft_window_get_busy (GraftWindow *self);
gboolean         graft_window_get_pending (GraftWindow *self);
const char      *graft_window_get_notice (GraftWindow *self);
const char      *graft_window_get_file_notice (GraftWindow *self);
void             graft_window_autosave_now (GraftWindow *self);
void             graft_window_autosave_start (GraftWindow *self);
gboolean         graft_window_get_autosave_pending (GraftWindow *self);
gboolean         graft_window_get_watch_pending (GraftWindow *self);
gboolean         graft_window_save_to (GraftWindow *self,
                                       GFile       *file);
gboolean         graft_window_get_saving (GraftWindow *self);
void             graft_window_select_match (GraftWindow *self,
                                            guint        match);
gint             graft_window_get_selected_match (GraftWindow *self);
GtkTextBuffer   *graft_window_get_code_buffer (GraftWindow *self);
void             graft_window_show_page (GraftWindow *self,
                                         const char  *page);
GtkWidget       *graft_window_get_pattern_editor (GraftWindow *self,
                                                  gboolean     replacement);
AdwToast        *graft_window_get_undo_toast (GraftWindow *self);
const char      *graft_window_get_last_toast (GraftWindow *self);
GraftProperties *graft_window_get_properties (GraftWindow *self);
gboolean         graft_window_get_properties_shown (GraftWindow *self);
GraftRulesPanel *graft_window_get_rules_panel (GraftWindow *self);
gboolean         graft_window_open_rules (GraftWindow *self,
                                          GFile       *file);
gboolean         graft_window_save_rules_to (GraftWindow *self,
                                             GFile       *file);
gboolean         graft_window_export_pass_to (GraftWindow *self,
                                              GFile       *file);
gboolean         graft_window_export (GraftWindow     *self,
                                      GFile           *file,
                                      GraftFormat      format,
                                      GraftExportScope scope,
                                      gboolean         highlights,
                                      GError         **error);
gboolean         graft_window_export_matches (GraftWindow *self,
                                              GFile       *file,
                                              GError     **error);
GraftExport     *graft_window_get_export (GraftWindow *self);
GraftExportBar  *graft_window_get_export_bar (GraftWindow *self);

G_END_DECLS
