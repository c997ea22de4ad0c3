/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-render.h: draws a laid-out graph on any cairo context (the
 * editor's canvas, PNG, SVG and PDF files), with matches, selection and
 * hover drawn over it.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"
#include "graft-format.h"
#include "graft-layout.h"
#include "graft-output.h"

#include <cairo.h>
#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum {
  GRAFT_RENDER_LIGHT,
  GRAFT_RENDER_DARK,
} GraftRenderStyle;

/**
 * GraftRenderOptions:
 * @style: light or dark colours
 * @node_match: (nullable): one entry per graph node (graph order): the
 *   number of the match it belongs to, or -1
 * @node_selected: (nullable): one entry per graph node: whether it is
 *   selected
 * @hovered: the graph node under the pointer, or -1
 * @draw_background: fill the background (files); the canvas draws its own
 * @node_added: (nullable): one bit per graph node (see
 *   graft_render_bits_new()): whether the last rewrite added it (drawn with
 *   a green dashed ring)
 * @node_dropped: (nullable): one entry per graph node: whether it is part
 *   of an occurrence that torch's rules leave alone (a grey dashed outline)
 * @node_change: (nullable): one entry per graph node: what a change did to
 *   it, a #GraftChange (removed: red, dashed; added: green; rewired: an
 *   amber outline; kept: as usual), for the graphs before and after a
 *   change side by side
 * @chosen_match: the match Replace would rewrite, or -1: drawn with a halo
 *   at least a few pixels wide at any zoom, the other matches quieter
 *   (files leave it at -1 and show every match alike)
 * @current: the graph node of the current Find hit, or -1: its selection
 *   ring is drawn thicker, with a halo
 * @no_controls: leave out the frames' collapse controls and the folded
 *   boxes' expand controls (a view that cannot fold: Compare Graphs)
 *
 * What to draw besides the graph.  Initialise with
 * graft_render_options_init(); later fields may be added.
 */
typedef struct
{
  GraftRenderStyle style;
  const gint      *node_match;
  const gboolean  *node_selected;
  gint             hovered;
  gboolean         draw_background;
  const guint8    *node_added;
  const gboolean  *node_dropped;
  const guint8    *node_change;
  gint             chosen_match;
  gint             current;
  gboolean         no_controls;
} GraftRenderOptions;

/**
 * GraftRenderArea:
 * @region: the part of the drawing a file shows, in layout points; empty
 *   (zero width or height) for the whole drawing
 * @scale: file units (PNG pixels, SVG or PDF points) per layout point; 0
 *   for the format's own (graft_render_fit())
 *
 * What a file shows of a layout, and how large.
 */
typedef struct
{
  GraftRect region;
  double    scale;
} GraftRenderArea;

/**
 * GraftRenderFit:
 * @scale: file units per layout point, once the format's limits are met
 * @width: the file's width in its units (PNG pixels, SVG or PDF points)
 * @height: its height
 * @readable: whether the text in it can be read (a PNG drawn at less than
 *   GRAFT_MIN_READABLE_PNG_SCALE cannot)
 * @scaled: whether the limits made it smaller than asked
 *
 * How a drawing fits a picture format.
 */
typedef struct
{
  double   scale;
  double   width;
  double   height;
  gboolean readable;
  gboolean scaled;
} GraftRenderFit;

/**
 * GraftRenderProgressFunc:
 * @fraction: how much of the file is done, from 0 to 1
 * @user_data: the data given with the function
 *
 * Told how far a file has got, on the thread that draws it.
 */
typedef void (*GraftRenderProgressFunc) (double   fraction,
                                         gpointer user_data);

void    graft_render_options_init (GraftRenderOptions *options);
guint8 *graft_render_bits_new (guint n);
void    graft_render_bits_set (guint8 *bits,
                               guint   i);
void    graft_render_draw (GraftLayout              *layout,
                           cairo_t                  *cr,
                           const GraftRenderOptions *options);
void    graft_render_get_match_color (guint   match,
                                      double *out_red,
                                      double *out_green,
                                      double *out_blue);
void    graft_render_get_background (GraftRenderStyle style,
                                     double          *out_red,
                                     double          *out_green,
                                     double          *out_blue);
char   *graft_render_dup_match_label (GraftLayout *layout,
                                      const gint  *node_match,
                                      guint        box) G_GNUC_WARN_UNUSED_RESULT;
GBytes *graft_render_to_bytes (GraftLayout              *layout,
                               GraftFormat               format,
                               const GraftRenderOptions *options,
                               GError                  **error) G_GNUC_WARN_UNUSED_RESULT;

gboolean graft_render_fit (GraftFormat     format,
                           double          width,
                           double          height,
                           double          scale,
                           GraftRenderFit *out_fit,
                           GError        **error);
char    *graft_render_fit_describe (const GraftRenderFit *fit) G_GNUC_WARN_UNUSED_RESULT;
gboolean graft_render_shows_annotations (double scale);
gint     graft_render_box_match (GraftLayout              *layout,
                                 const GraftRenderOptions *options,
                                 guint                     box);
gboolean graft_render_to_output (GraftLayout              *layout,
                                 GraftFormat               format,
                                 const GraftRenderOptions *options,
                                 const GraftRenderArea    *area,
                                 GraftOutputFile          *output,
                                 GraftRenderProgressFunc   progress,
                                 gpointer                  progress_data,
                                 GCancellable             *cancellable,
                                 GraftRenderFit           *out_fit,
                                 GError                  **error);

G_END_DECLS
