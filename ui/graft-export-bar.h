/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-export-bar.h: the running export's progress over the canvas, with
 * a Cancel button.
 */
#pragma once

#include <gtk/gtk.h>

#include "graft-export.h"

G_BEGIN_DECLS

#define GRAFT_TYPE_EXPORT_BAR (graft_export_bar_get_type ())

G_DECLARE_FINAL_TYPE (GraftExportBar, graft_export_bar, GRAFT, EXPORT_BAR, GtkWidget)

GtkWidget   *graft_export_bar_new (void) G_GNUC_WARN_UNUSED_RESULT;
void         graft_export_bar_set_export (GraftExportBar *self,
                                          GraftExport *export);
GraftExport *graft_export_bar_get_export (GraftExportBar *self);
GtkButton   *graft_export_bar_get_cancel_button (GraftExportBar *self);
double       graft_export_bar_get_shown_fraction (GraftExportBar *self);

G_END_DECLS
