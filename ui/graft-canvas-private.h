/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-canvas-private.h: what graft-canvas.c and graft-canvas-nav.c (the
 * keyboard focus on nodes, and what the canvas tells assistive
 * technologies about it) share.  Internal to ui/.
 */
#pragma once

#include "graft-canvas.h"

G_BEGIN_DECLS

typedef struct _GraftCanvasNav GraftCanvasNav;

/* graft-canvas.c */
GraftCanvasNav *_graft_canvas_get_nav (GraftCanvas *self);
const gint     *_graft_canvas_get_marks (GraftCanvas *self);
const guint8   *_graft_canvas_get_added (GraftCanvas *self);
void            _graft_canvas_select_picked (GraftCanvas *self,
                                             guint        node_index);
const char     *_graft_canvas_next_selected (GraftCanvas *self,
                                             guint       *index);
gboolean        _graft_canvas_is_selected (GraftCanvas *self,
                                           const char  *name);
gboolean        _graft_canvas_is_box_selected (GraftCanvas *self,
                                               guint        box);
void            _graft_canvas_select_box (GraftCanvas *self,
                                          guint        box,
                                          gboolean     toggle);

/* graft-canvas-nav.c */
void            _graft_canvas_nav_class_init (GtkWidgetClass *widget_class);
GraftCanvasNav *_graft_canvas_nav_new (GraftCanvas *canvas);
void            _graft_canvas_nav_free (GraftCanvasNav *nav);
void            _graft_canvas_nav_layout_changed (GraftCanvasNav *nav);
void            _graft_canvas_nav_marks_changed (GraftCanvasNav *nav);
void            _graft_canvas_nav_selection_changed (GraftCanvasNav *nav,
                                                     GHashTable     *selection,
                                                     gint            picked);
void            _graft_canvas_nav_clicked (GraftCanvasNav *nav,
                                           gint            box);
void            _graft_canvas_nav_draw (GraftCanvasNav *nav,
                                        cairo_t        *cr);
gboolean        _graft_canvas_nav_get_ring (GraftCanvasNav *nav,
                                            GraftRect      *out_rect);

G_END_DECLS
