/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-map.h: an overview map of a layout: a small picture of the whole
 * drawing (boxes as rectangles, matches in their colours) and the mapping
 * between its points and the layout's.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"
#include "graft-layout.h"
#include "graft-render.h"

#include <cairo.h>

G_BEGIN_DECLS

/**
 * GraftMap:
 * @scale_x: map units per layout point, across
 * @scale_y: map units per layout point, down
 * @width: the map's width, in map units (pixels at scale 1)
 * @height: its height
 *
 * Where an overview map puts a layout.  The scale is the same both ways
 * unless that would make the map thinner than its minimum side: a graph
 * a thousand times taller than wide is then stretched across, so its
 * columns and its matches can still be told apart and clicked.
 */
typedef struct
{
  double scale_x;
  double scale_y;
  double width;
  double height;
} GraftMap;

void graft_map_init (GraftMap    *self,
                     GraftLayout *layout,
                     double       max_width,
                     double       max_height,
                     double       min_side);
void graft_map_to_layout (const GraftMap *self,
                          double          x,
                          double          y,
                          double         *out_x,
                          double         *out_y);
void graft_map_from_layout (const GraftMap *self,
                            double          x,
                            double          y,
                            double         *out_x,
                            double         *out_y);
void graft_map_draw (const GraftMap           *self,
                     GraftLayout              *layout,
                     cairo_t                  *cr,
                     const GraftRenderOptions *options);

G_END_DECLS
