/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-canvas.h: the widget that shows a laid-out graph.
 */
#pragma once

#include <gtk/gtk.h>

#include "graft-view.h"

G_BEGIN_DECLS

#define GRAFT_TYPE_CANVAS (graft_canvas_get_type ())

G_DECLARE_FINAL_TYPE (GraftCanvas, graft_canvas, GRAFT, CANVAS, GtkWidget)

/* Returns the tooltip text for the node called @name, or NULL. */
typedef char *(*GraftCanvasDescribeFunc) (const char *name,
                                          gpointer    user_data);

GtkWidget   *graft_canvas_new (void) G_GNUC_WARN_UNUSED_RESULT;
void         graft_canvas_set_layout (GraftCanvas *self,
                                      GraftLayout *layout,
                                      gboolean     keep_view);
GraftLayout *graft_canvas_get_layout (GraftCanvas *self);
void         graft_canvas_set_marks (GraftCanvas *self,
                                     gint        *marks);
void         graft_canvas_free_layout (GraftLayout *layout);
void         graft_canvas_set_added (GraftCanvas *self,
                                     guint8      *added);
void         graft_canvas_set_dropped (GraftCanvas *self,
                                       gboolean    *dropped);
void         graft_canvas_set_fixed (GraftCanvas *self,
                                     gboolean     fixed);
gboolean     graft_canvas_get_fixed (GraftCanvas *self);
void         graft_canvas_set_changes (GraftCanvas *self,
                                       guint8      *changes);
void         graft_canvas_show_point (GraftCanvas *self,
                                      double       zoom,
                                      double       x,
                                      double       y,
                                      double       widget_x,
                                      double       widget_y);
void         graft_canvas_set_describe_func (GraftCanvas            *self,
                                             GraftCanvasDescribeFunc func,
                                             gpointer                user_data,
                                             GDestroyNotify          destroy);
void         graft_canvas_set_accessible_func (GraftCanvas            *self,
                                               GraftCanvasDescribeFunc func,
                                               gpointer                user_data,
                                               GDestroyNotify          destroy);
void         graft_canvas_update_accessible (GraftCanvas *self);
const char  *graft_canvas_get_focus_node (GraftCanvas *self);
gboolean     graft_canvas_select_focus_node (GraftCanvas *self);
gboolean     graft_canvas_focus_node (GraftCanvas *self,
                                      const char  *name);
gboolean     graft_canvas_focus_node_placed (GraftCanvas *self,
                                             const char  *name,
                                             guint        position);
void         graft_canvas_set_interactive (GraftCanvas *self,
                                           gboolean     interactive);
double       graft_canvas_get_zoom (GraftCanvas *self);
void         graft_canvas_set_zoom (GraftCanvas *self,
                                    double       zoom);
void         graft_canvas_zoom_to_fit (GraftCanvas *self);
void         graft_canvas_set_start_readable (GraftCanvas *self,
                                              gboolean     readable);
void         graft_canvas_center_on (GraftCanvas *self,
                                     const char  *name);
void         graft_canvas_show_node (GraftCanvas *self,
                                     const char  *name);
void         graft_canvas_center_on_placed (GraftCanvas *self,
                                            const char  *name,
                                            guint        node_index);
void         graft_canvas_show_node_placed (GraftCanvas *self,
                                            const char  *name,
                                            guint        node_index);
gboolean     graft_canvas_get_readable (GraftCanvas *self);
void         graft_canvas_fill_view (GraftCanvas *self);
gboolean     graft_canvas_node_in_view (GraftCanvas *self,
                                        const char  *name);
void         graft_canvas_set_center (GraftCanvas *self,
                                      double       x,
                                      double       y);
void         graft_canvas_get_visible_area (GraftCanvas *self,
                                            GraftRect   *out_area);
const gint  *graft_canvas_get_marks (GraftCanvas *self);
void         graft_canvas_set_chosen_match (GraftCanvas *self,
                                            gint         match);
gint         graft_canvas_get_chosen_match (GraftCanvas *self);
void         graft_canvas_set_current_hit (GraftCanvas *self,
                                           const char  *name);
void         graft_canvas_set_current_hit_placed (GraftCanvas *self,
                                                  const char  *name,
                                                  guint        node_index);
const char  *graft_canvas_get_current_hit (GraftCanvas *self);
void         graft_canvas_widget_to_layout (GraftCanvas *self,
                                            double       x,
                                            double       y,
                                            double      *out_x,
                                            double      *out_y);
void         graft_canvas_layout_to_widget (GraftCanvas *self,
                                            double       x,
                                            double       y,
                                            double      *out_x,
                                            double      *out_y);
const char  *graft_canvas_pick (GraftCanvas *self,
                                double       x,
                                double       y);
gint         graft_canvas_pick_graph_node (GraftCanvas *self,
                                           double       x,
                                           double       y);
gint         graft_canvas_get_picked (GraftCanvas *self);
gint         graft_canvas_get_described_node (GraftCanvas *self);
char        *graft_canvas_describe_at (GraftCanvas *self,
                                       double       x,
                                       double       y) G_GNUC_WARN_UNUSED_RESULT;
gboolean     graft_canvas_is_node_selected (GraftCanvas *self,
                                            guint        position);
void         graft_canvas_select_graph_node (GraftCanvas *self,
                                             guint        node_index);
void         graft_canvas_select (GraftCanvas *self,
                                  const char  *name,
                                  gboolean     extend);
void         graft_canvas_clear_selection (GraftCanvas *self);
void         graft_canvas_select_rect (GraftCanvas *self,
                                       double       x0,
                                       double       y0,
                                       double       x1,
                                       double       y1,
                                       gboolean     extend);
void         graft_canvas_set_selection (GraftCanvas       *self,
                                         const char *const *names);
void         graft_canvas_set_selection_placed (GraftCanvas       *self,
                                                const char *const *names,
                                                const guint       *places,
                                                guint              n);
void         graft_canvas_popup_menu (GraftCanvas *self,
                                      GMenuModel  *menu,
                                      double       x,
                                      double       y);
char       **graft_canvas_dup_selection (GraftCanvas *self) G_GNUC_WARN_UNUSED_RESULT;
guint        graft_canvas_get_n_selected (GraftCanvas *self);

gboolean graft_canvas_activate_control (GraftCanvas *self,
                                        double       x,
                                        double       y);

G_END_DECLS
