/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-overview.h: the overview map in a corner of the canvas: the whole
 * graph small, the visible area on it, and a click or a drag there moves
 * the view.
 */
#pragma once

#include <gtk/gtk.h>

#include "graft-canvas.h"

G_BEGIN_DECLS

#define GRAFT_TYPE_OVERVIEW (graft_overview_get_type ())

G_DECLARE_FINAL_TYPE (GraftOverview, graft_overview, GRAFT, OVERVIEW, GtkWidget)

GtkWidget   *graft_overview_new (void) G_GNUC_WARN_UNUSED_RESULT;
void         graft_overview_set_canvas (GraftOverview *self,
                                        GraftCanvas   *canvas);
GraftCanvas *graft_overview_get_canvas (GraftOverview *self);
gboolean     graft_overview_get_needed (GraftOverview *self);
gboolean     graft_overview_get_map (GraftOverview *self,
                                     GraftMap      *out_map);
void         graft_overview_move_to (GraftOverview *self,
                                     double         x,
                                     double         y);
guint        graft_overview_get_n_renders (GraftOverview *self);

G_END_DECLS
