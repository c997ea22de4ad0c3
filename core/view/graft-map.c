/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-map.c: the overview map's geometry and picture.  graft_map_init()
 * chooses the map's size and scale for a layout; graft_map_draw() draws
 * the whole layout into it as rectangles snapped to device pixels (no
 * text, no edges, no antialiasing), every box at least one pixel so that
 * a lone match on a 50,000-node graph still shows.  The pixels are written
 * directly into an image that is then painted once: a cairo path of
 * 50,000 rectangles costs many times more.  Unmatched boxes go first,
 * then the matched ones in layout order (so on a dense map no colour
 * covers the others), then the chosen match on top with a dark rim.  The editor draws this once per
 * layout or match change into a cached texture (ui/graft-overview.c) and adds the visible area on
 * top each frame.
 */
#include "config.h"

#include "graft-map.h"
#include "graft-palette-private.h"

#include <math.h>

/**
 * graft_map_init:
 * @self: (out caller-allocates): the map to set up
 * @layout: the layout it shows
 * @max_width: the widest the map may be
 * @max_height: the tallest
 * @min_side: the narrowest either side may be (at most @max_width and
 *   @max_height)
 *
 * Fits @layout in @max_width × @max_height keeping its proportions, then
 * stretches the map to @min_side along a side that came out thinner.
 */
void
graft_map_init (GraftMap    *self,
                GraftLayout *layout,
                double       max_width,
                double       max_height,
                double       min_side)
{
  double width;
  double height;
  double scale;

  g_return_if_fail (self != NULL);
  g_return_if_fail (layout != NULL);
  graft_layout_get_size (layout, &width, &height);
  width = MAX (width, 1);
  height = MAX (height, 1);
  min_side = MIN (min_side, MIN (max_width, max_height));
  scale = MIN (max_width / width, max_height / height);
  self->scale_x = MAX (scale, min_side / width);
  self->scale_y = MAX (scale, min_side / height);
  self->width = width * self->scale_x;
  self->height = height * self->scale_y;
}

/**
 * graft_map_to_layout:
 * @self: a map
 * @x: a point on the map
 * @y: its y
 * @out_x: (out): the layout point it shows
 * @out_y: (out): its y
 */
void
graft_map_to_layout (const GraftMap *self,
                     double          x,
                     double          y,
                     double         *out_x,
                     double         *out_y)
{
  *out_x = x / self->scale_x;
  *out_y = y / self->scale_y;
}

/**
 * graft_map_from_layout:
 * @self: a map
 * @x: a layout point
 * @y: its y
 * @out_x: (out): where the map shows it
 * @out_y: (out): its y
 */
void
graft_map_from_layout (const GraftMap *self,
                       double          x,
                       double          y,
                       double         *out_x,
                       double         *out_y)
{
  *out_x = x * self->scale_x;
  *out_y = y * self->scale_y;
}

/* A picture being drawn: premultiplied ARGB32 pixels, written directly
 * (a path of 50,000 rectangles costs cairo far more than this). */
typedef struct
{
  guint32 *data;
  int      stride; /* in pixels */
  int      width;
  int      height;
} Picture;

/* @hex, @alpha over @under, opaque, as a pixel. */
static guint32
pixel_over (guint32 hex,
            double  alpha,
            guint32 under)
{
  guint32 out = 0xff000000;

  for (int shift = 0; shift <= 16; shift += 8)
    {
      double c = ((hex >> shift) & 0xff) * alpha + ((under >> shift) & 0xff) * (1 - alpha);

      out |= (guint32) CLAMP (c + 0.5, 0, 255) << shift;
    }
  return out;
}

/* Paints @r, scaled by @scale device pixels per map unit, as whole pixels
 * (@grow more on each side, never less than one) in @pixel. */
static void
put_rect (Picture         *picture,
          const GraftMap  *map,
          double           scale,
          const GraftRect *r,
          double           grow,
          guint32          pixel)
{
  int x0 = (int) floor (r->x * map->scale_x * scale - grow);
  int y0 = (int) floor (r->y * map->scale_y * scale - grow);
  int x1 = MAX ((int) ceil ((r->x + r->width) * map->scale_x * scale + grow), x0 + 1);
  int y1 = MAX ((int) ceil ((r->y + r->height) * map->scale_y * scale + grow), y0 + 1);

  x0 = CLAMP (x0, 0, picture->width);
  x1 = CLAMP (x1, 0, picture->width);
  y0 = CLAMP (y0, 0, picture->height);
  y1 = CLAMP (y1, 0, picture->height);
  for (int y = y0; y < y1; y++)
    {
      guint32 *row = picture->data + (gsize) y * (gsize) picture->stride;

      for (int x = x0; x < x1; x++)
        row[x] = pixel;
    }
}

/**
 * graft_map_draw:
 * @self: a map of @layout
 * @layout: a layout
 * @cr: where to draw, with (0, 0) at the map's top-left corner and one
 *   unit per map unit (scale it for high-resolution screens; no rotation)
 * @options: (nullable): the style, the match marks and the chosen match;
 *   the rest is not drawn
 *
 * Draws the whole of @layout on the map, over the background.
 */
void
graft_map_draw (const GraftMap           *self,
                GraftLayout              *layout,
                cairo_t                  *cr,
                const GraftRenderOptions *options)
{
  GraftRenderOptions      defaults;
  cairo_matrix_t          m;
  guint                   n;
  const guint             n_colors = GRAFT_PALETTE_N_MATCH_COLORS;
  double                  scale;
  cairo_surface_t        *surface;
  Picture                 picture;
  const GraftThemeColors *theme;
  guint32                 background;
  guint32                 unmatched;

  g_return_if_fail (self != NULL);
  g_return_if_fail (layout != NULL);
  g_return_if_fail (cr != NULL);
  if (options == NULL)
    {
      graft_render_options_init (&defaults);
      options = &defaults;
    }
  n = graft_layout_get_n_nodes (layout);
  theme = &graft_palette_themes[options->style == GRAFT_RENDER_DARK ? 1 : 0];
  background = 0xff000000 | theme->background;
  unmatched =
      pixel_over (theme->edge, options->style == GRAFT_RENDER_DARK ? 0.55 : 0.45, background);

  cairo_get_matrix (cr, &m);
  scale = m.xx;
  picture.width = (int) ceil (self->width * scale);
  picture.height = (int) ceil (self->height * scale);
  if (picture.width <= 0 || picture.height <= 0)
    return;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, picture.width, picture.height);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return;
    }
  cairo_surface_flush (surface);
  picture.data = (guint32 *) (gpointer) cairo_image_surface_get_data (surface);
  picture.stride = cairo_image_surface_get_stride (surface) / 4;
  for (int y = 0; y < picture.height; y++)
    for (int x = 0; x < picture.width; x++)
      picture.data[(gsize) y * (gsize) picture.stride + (gsize) x] = background;

  /* Unmatched boxes, then matched ones in layout order (on a dense map no
   * colour covers the others), then the chosen match, rimmed in the
   * text colour.  Stubs are copies and left out. */
  for (guint i = 0; i < n; i++)
    {
      const GraftLayoutNode *box = graft_layout_get_node (layout, i);

      if (!box->is_stub &&
          (options->node_match == NULL || graft_render_box_match (layout, options, i) < 0))
        put_rect (&picture, self, scale, &box->box, 0, unmatched);
    }
  if (options->node_match != NULL)
    for (guint pass = 0; pass < 3; pass++)
      for (guint i = 0; i < n; i++)
        {
          const GraftLayoutNode *box = graft_layout_get_node (layout, i);
          gint                   match = -1;
          gboolean               chosen;

          if (!box->is_stub)
            match = graft_render_box_match (layout, options, i);
          chosen = match >= 0 && match == options->chosen_match;
          if (match < 0 || (pass == 0) == chosen)
            continue;
          if (pass == 0)
            put_rect (&picture, self, scale, &box->box, 0,
                      0xff000000 | graft_palette_matches[(guint) match % n_colors]);
          else if (pass == 1)
            put_rect (&picture, self, scale, &box->box, 2 * scale,
                      0xff000000 | theme->text);
          else
            put_rect (&picture, self, scale, &box->box, scale,
                      0xff000000 | graft_palette_matches[(guint) match % n_colors]);
        }
  cairo_surface_mark_dirty (surface);

  cairo_save (cr);
  cairo_identity_matrix (cr);
  cairo_set_source_surface (cr, surface, m.x0, m.y0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_paint (cr);
  cairo_restore (cr);
  cairo_surface_destroy (surface);
}
