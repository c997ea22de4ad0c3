/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-render.c: the one renderer of laid-out graphs.  The editor's
 * canvas calls graft_render_draw() from its snapshot; PNG, SVG and PDF
 * files are drawn by the same function on a cairo surface of the format,
 * so a file looks like the screen.
 *
 * Boxes are rounded rectangles tinted by op (graft-palette-private.h), the
 * node's name in bold over what it does; stubs (copies of a much-used
 * input, see graft-layout.c) are small pills.  Each match gets its colour
 * as a thick outline and a tint, a numbered badge, and an outline dash
 * that changes every seven matches, so matches stay apart without colour.
 * The chosen match (the one Replace rewrites) and the current Find hit
 * get a halo whose width has a floor in device pixels, so they stand out
 * at any zoom; the other matches are then drawn quieter.  A folded box
 * says which matches it holds ("matches 4–6") rather than a bare number.
 * Only what intersects the clip is drawn, which keeps the canvas fast on
 * large graphs.
 *
 * Files show the whole drawing or a part of it (the editor's visible
 * area), at a scale that graft_render_fit() holds to the format's limits,
 * and are written as they are drawn (graft_render_to_output()), with
 * progress and cancellation for a worker thread.
 */
#include "config.h"

#include "graft-render.h"
#include "graft-edit.h"
#include "graft-error.h"
#include "graft-limits.h"
#include "graft-output.h"
#include "graft-palette-private.h"
#include "graft-text-private.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <math.h>
#include <string.h>

#define BOX_RADIUS  5.0
#define EDGE_WIDTH  1.1
#define MATCH_WIDTH 3.0
/* The halo of the chosen match and of the current Find hit: this wide in
 * points, and never under HALO_PIXELS device pixels. */
#define HALO_WIDTH  9.0
#define HALO_PIXELS 7.0
#define ARROW_HALF  3.2
#define PNG_SCALE   2.0
/* Below this zoom an annotation's 7 points are under 4 pixels. */
#define MIN_ANNOTATION_SCALE 0.55

typedef struct
{
  double r, g, b, a;
} Rgba;

typedef struct
{
  Rgba                 background;
  Rgba                 edge;
  Rgba                 text;
  Rgba                 caption;
  Rgba                 selection;
  Rgba                 hover;
  Rgba                 added;
  Rgba                 dropped;
  Rgba                 annotation;
  Rgba                 frame;        /* a module frame's fill, and its label band's */
  Rgba                 frame_border; /* its outline, its label and its control */
  Rgba                 removed;
  Rgba                 rewired;
  const GraftOpColors *ops;
} Theme;

static Rgba
rgb (guint32 hex,
     double  alpha)
{
  return (Rgba){ ((hex >> 16) & 0xff) / 255.0, ((hex >> 8) & 0xff) / 255.0, (hex & 0xff) / 255.0,
                 alpha };
}

static void
get_theme (GraftRenderStyle style,
           Theme           *theme)
{
  if (style == GRAFT_RENDER_DARK)
    {
      theme->background = rgb (graft_palette_themes[1].background, 1);
      theme->edge = rgb (graft_palette_themes[1].edge, 1);
      theme->text = rgb (graft_palette_themes[1].text, 1);
      theme->caption = rgb (0xc4c4c4, 1);
      theme->selection = rgb (0x78aeed, 1);
      theme->hover = rgb (0xffffff, 0.12);
      theme->added = rgb (0x57e389, 1);
      theme->dropped = rgb (0x9a9996, 1);
      theme->annotation = rgb (0xb8b8b8, 1);
      theme->frame = rgb (0xffffff, 0.035);
      theme->frame_border = rgb (0x9a9996, 1);
      theme->removed = rgb (0xff7b63, 1);
      theme->rewired = rgb (0xf8e45c, 1);
      theme->ops = graft_palette_dark;
    }
  else
    {
      theme->background = rgb (graft_palette_themes[0].background, 1);
      theme->edge = rgb (graft_palette_themes[0].edge, 1);
      theme->text = rgb (graft_palette_themes[0].text, 1);
      theme->caption = rgb (0x3d3d3d, 1);
      theme->selection = rgb (0x1c71d8, 1);
      theme->hover = rgb (0x000000, 0.07);
      theme->added = rgb (0x26a269, 1);
      theme->dropped = rgb (0x5e5c64, 1);
      theme->annotation = rgb (0x505050, 1);
      theme->frame = rgb (0x3d6ab0, 0.045);
      theme->frame_border = rgb (0x77767b, 1);
      theme->removed = rgb (0xc01c28, 1);
      theme->rewired = rgb (0xc64600, 1);
      theme->ops = graft_palette_light;
    }
}

static void
set_source (cairo_t *cr,
            Rgba     c)
{
  cairo_set_source_rgba (cr, c.r, c.g, c.b, c.a);
}

/**
 * graft_render_options_init:
 * @options: (out caller-allocates): options to fill with the defaults
 *
 * Light style, nothing highlighted, no background.
 */
void
graft_render_options_init (GraftRenderOptions *options)
{
  memset (options, 0, sizeof *options);
  options->style = GRAFT_RENDER_LIGHT;
  options->hovered = -1;
  options->chosen_match = -1;
  options->current = -1;
}

static void
rounded_rect (cairo_t         *cr,
              const GraftRect *r,
              double           radius)
{
  double rad = MIN (radius, MIN (r->width, r->height) / 2);

  cairo_new_sub_path (cr);
  cairo_arc (cr, r->x + r->width - rad, r->y + rad, rad, -G_PI / 2, 0);
  cairo_arc (cr, r->x + r->width - rad, r->y + r->height - rad, rad, 0, G_PI / 2);
  cairo_arc (cr, r->x + rad, r->y + r->height - rad, rad, G_PI / 2, G_PI);
  cairo_arc (cr, r->x + rad, r->y + rad, rad, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

static gboolean
intersects (const GraftRect *r,
            double           x1,
            double           y1,
            double           x2,
            double           y2)
{
  return r->x <= x2 && r->x + r->width >= x1 && r->y <= y2 && r->y + r->height >= y1;
}

/**
 * graft_render_box_match:
 * @layout: a layout
 * @options: the options it is drawn with
 * @box: a box of @layout
 *
 * Returns: the match @box is drawn in: its node's
 *   (@options->node_match), or for a folded scope the chosen match if the
 *   scope holds part of it, else the first of its nodes' matches; -1 for
 *   none, or without @options->node_match
 */
gint
graft_render_box_match (GraftLayout              *layout,
                        const GraftRenderOptions *options,
                        guint                     box)
{
  guint        n;
  const guint *members;
  gint         first = -1;

  if (options->node_match == NULL)
    return -1;
  members = graft_layout_get_members (layout, box, &n);
  if (n == 0)
    return options->node_match[graft_layout_get_node (layout, box)->node_index];
  for (guint k = 0; k < n; k++)
    {
      gint match = options->node_match[members[k]];

      if (match >= 0 && match == options->chosen_match)
        return match;
      if (first < 0)
        first = match;
    }
  return first;
}

static gboolean
is_current (GraftLayout              *layout,
            const GraftRenderOptions *options,
            guint                     b)
{
  const GraftLayoutNode *box = graft_layout_get_node (layout, b);

  return options->current >= 0 && !box->is_stub &&
         (guint) options->current < graft_layout_get_n_graph_nodes (layout) &&
         graft_layout_lookup (layout, (guint) options->current) == (gint) b;
}

/**
 * graft_render_bits_new:
 * @n: how many graph nodes
 *
 * A set of graph nodes, one bit each, none in it: what
 * #GraftRenderOptions.node_added takes.  A byte for eight nodes: 128 KB at
 * a million nodes, where an array of #gboolean was 4 MB of fresh pages to
 * zero in one turn of the editor.
 *
 * Returns: (transfer full): the set, free with g_free()
 */
guint8 *
graft_render_bits_new (guint n)
{
  return g_new0 (guint8, MAX ((n + 7) / 8, 1));
}

/**
 * graft_render_bits_set:
 * @bits: a set from graft_render_bits_new()
 * @i: a graph node in it
 *
 * Puts node @i in @bits.
 */
void
graft_render_bits_set (guint8 *bits,
                       guint   i)
{
  bits[i / 8] |= (guint8) (1u << (i % 8));
}

/* Whether node @i is flagged: in @bits (a set from
 * graft_render_bits_new()) when given, else by @flags. */
static gboolean
node_flag (const gboolean *flags,
           const guint8   *bits,
           guint           i)
{
  return bits != NULL ? (bits[i / 8] >> (i % 8)) & 1 : flags[i];
}

/* Whether box @b's node is flagged by @flags or in @bits (at most one
 * given), or for a folded box one of its members. */
static gboolean
flag_of (GraftLayout    *layout,
         const gboolean *flags,
         const guint8   *bits,
         guint           b)
{
  guint        n;
  const guint *members;

  if (flags == NULL && bits == NULL)
    return FALSE;
  members = graft_layout_get_members (layout, b, &n);
  if (n == 0)
    return node_flag (flags, bits, graft_layout_get_node (layout, b)->node_index);
  for (guint k = 0; k < n; k++)
    if (node_flag (flags, bits, members[k]))
      return TRUE;
  return FALSE;
}

/* What a change did to box @b: its node's change, or for a collapsed
 * scope the one change all its nodes share, else rewired (something in
 * it changed). */
static GraftChange
change_of (GraftLayout              *layout,
           const GraftRenderOptions *options,
           guint                     b)
{
  guint        n;
  const guint *members;
  GraftChange  first;

  if (options->node_change == NULL)
    return GRAFT_CHANGE_KEPT;
  members = graft_layout_get_members (layout, b, &n);
  if (n == 0)
    return options->node_change[graft_layout_get_node (layout, b)->node_index];
  first = options->node_change[members[0]];
  for (guint k = 1; k < n; k++)
    if (options->node_change[members[k]] != first)
      return GRAFT_CHANGE_REWIRED;
  return first;
}

static void
set_match_dash (cairo_t *cr,
                gint     match)
{
  static const double dashed[] = { 7.0, 3.5 };
  static const double dotted[] = { 2.0, 2.5 };

  switch ((match / (gint) GRAFT_PALETTE_N_MATCH_COLORS) % 3)
    {
    case 1:
      cairo_set_dash (cr, dashed, G_N_ELEMENTS (dashed), 0);
      break;
    case 2:
      cairo_set_dash (cr, dotted, G_N_ELEMENTS (dotted), 0);
      break;
    default:
      cairo_set_dash (cr, NULL, 0, 0);
      break;
    }
}

/* Adds @edge's curve to the path. */
static void
trace_edge (cairo_t               *cr,
            const GraftLayoutEdge *edge)
{
  const GraftPoint *p = edge->points;

  cairo_move_to (cr, p[0].x, p[0].y);
  for (guint k = 1; k + 2 < edge->n_points; k += 3)
    cairo_curve_to (cr, p[k].x, p[k].y, p[k + 1].x, p[k + 1].y, p[k + 2].x, p[k + 2].y);
}

/* Adds @edge's arrowhead, for an edge @width wide, to the path. */
static void
trace_arrow (cairo_t               *cr,
             const GraftLayoutEdge *edge,
             double                 width)
{
  GraftPoint last = edge->points[edge->n_points - 1];
  GraftPoint tip = edge->arrow_tip;
  double     dx = tip.x - last.x;
  double     dy = tip.y - last.y;
  double     len = sqrt (dx * dx + dy * dy);

  if (len > 0.01)
    {
      double ux = dx / len;
      double uy = dy / len;
      double half = ARROW_HALF * MAX (1.0, width / EDGE_WIDTH * 0.7);

      cairo_move_to (cr, tip.x, tip.y);
      cairo_line_to (cr, last.x - uy * half, last.y + ux * half);
      cairo_line_to (cr, last.x + uy * half, last.y - ux * half);
      cairo_close_path (cr);
    }
}

static void
draw_edge (cairo_t               *cr,
           const GraftLayoutEdge *edge,
           Rgba                   color,
           double                 width)
{
  set_source (cr, color);
  cairo_set_line_width (cr, width);
  trace_edge (cr, edge);
  cairo_stroke (cr);
  trace_arrow (cr, edge, width);
  cairo_fill (cr);
}

static void
show_centered (cairo_t       *cr,
               GraftText     *text,
               GraftTextStyle style,
               const char    *s,
               double         cx,
               double         cy)
{
  PangoLayout   *layout;
  PangoRectangle logical;

  _graft_text_enter ();
  layout = _graft_text_layout (text, style, s);
  pango_layout_get_extents (layout, NULL, &logical);
  cairo_move_to (cr,
                 cx - (double) logical.width / PANGO_SCALE / 2,
                 cy - (double) logical.height / PANGO_SCALE / 2);
  pango_cairo_show_layout (cr, layout);
  _graft_text_leave ();
}

/* A square control with a minus (collapse) or a plus (expand). */
static void
draw_control (cairo_t         *cr,
              const Theme     *theme,
              const GraftRect *r,
              gboolean         plus)
{
  double cx = r->x + r->width / 2;
  double cy = r->y + r->height / 2;
  double arm = r->width / 2 - 2.5;

  rounded_rect (cr, r, 2.0);
  set_source (cr, theme->background);
  cairo_fill_preserve (cr);
  set_source (cr, theme->frame_border);
  cairo_set_line_width (cr, 0.9);
  cairo_stroke (cr);
  cairo_set_line_width (cr, 1.3);
  cairo_move_to (cr, cx - arm, cy);
  cairo_line_to (cr, cx + arm, cy);
  if (plus)
    {
      cairo_move_to (cr, cx, cy - arm);
      cairo_line_to (cr, cx, cy + arm);
    }
  cairo_stroke (cr);
}

static gboolean
is_weight (const GraftLayoutNode *box)
{
  return box->role == GRAFT_LAYOUT_ROLE_PARAMETER || box->role == GRAFT_LAYOUT_ROLE_BUFFER ||
         box->role == GRAFT_LAYOUT_ROLE_CONSTANT;
}

static double
box_radius (const GraftLayoutNode *box)
{
  return box->is_stub || is_weight (box) ? box->box.height / 2 : BOX_RADIUS;
}

/* A wide translucent ring around @box, under the boxes; @pixel is the size
 * of a device pixel in points. */
static void
draw_halo (cairo_t               *cr,
           const GraftLayoutNode *box,
           Rgba                   color,
           double                 pixel)
{
  double width = MAX (HALO_WIDTH, HALO_PIXELS * pixel);

  rounded_rect (cr, &box->box, box_radius (box));
  color.a = 0.5;
  set_source (cr, color);
  cairo_set_dash (cr, NULL, 0, 0);
  /* Half the stroke lies under the box, which covers it. */
  cairo_set_line_width (cr, 2 * width);
  cairo_stroke (cr);
}

/* What flows out of @box, written under it on its edges, over a patch of
 * background so the edges do not run through the text. */
static void
draw_annotation (cairo_t               *cr,
                 GraftText             *text,
                 const Theme           *theme,
                 const GraftLayoutNode *box)
{
  PangoLayout   *layout;
  PangoRectangle logical;
  double         w;
  double         h;
  double         x;
  /* Below the cards of a folded box. */
  double y = box->box.y + box->box.height + GRAFT_EDGE_LABEL_GAP + (box->n_members > 0 ? 6 : 0);

  _graft_text_enter ();
  layout = _graft_text_layout (text, GRAFT_TEXT_EDGE, box->annotation);
  pango_layout_get_extents (layout, NULL, &logical);
  w = (double) logical.width / PANGO_SCALE;
  h = (double) logical.height / PANGO_SCALE;
  x = box->box.x + (box->box.width - w) / 2;
  cairo_rectangle (cr, x - 1.5, y, w + 3, MIN (h, GRAFT_EDGE_LABEL_HEIGHT));
  set_source (cr, theme->background);
  cairo_fill (cr);
  set_source (cr, theme->annotation);
  cairo_move_to (cr, x, y + (GRAFT_EDGE_LABEL_HEIGHT - h) / 2);
  pango_cairo_show_layout (cr, layout);
  _graft_text_leave ();
}

/**
 * graft_render_shows_annotations:
 * @scale: device pixels per layout point (the canvas's zoom)
 *
 * Whether graft_render_draw() writes the annotations under the boxes (a
 * program's `f32[2, 3]`) at @scale: below it their 7 points would be
 * under 4 pixels.  What is drawn around a box (the canvas's keyboard ring)
 * leaves room for them only where they are drawn.
 *
 * Returns: whether annotations are drawn at @scale
 */
gboolean
graft_render_shows_annotations (double scale)
{
  return scale >= MIN_ANNOTATION_SCALE;
}

static gint
compare_ints (gconstpointer a,
              gconstpointer b)
{
  gint x = *(const gint *) a;
  gint y = *(const gint *) b;

  return (x > y) - (x < y);
}

static void
draw_box (cairo_t                  *cr,
          GraftText                *text,
          const Theme              *theme,
          GraftLayout              *layout,
          guint                     b,
          const GraftRenderOptions *options,
          double                    pixel)
{
  const GraftLayoutNode *box = graft_layout_get_node (layout, b);
  const GraftOpColors   *colors = &theme->ops[is_weight (box) ? GRAFT_OP_GET_ATTR : box->op];
  gint                   match = graft_render_box_match (layout, options, b);
  /* With a match chosen, the others step back. */
  gboolean    chosen = match >= 0 && match == options->chosen_match;
  gboolean    quiet = match >= 0 && options->chosen_match >= 0 && !chosen;
  gboolean    selected = flag_of (layout, options->node_selected, NULL, b);
  gint        hovered_node = options->hovered;
  gboolean    hovered = hovered_node >= 0 && (guint) hovered_node == box->node_index;
  gboolean    weight = is_weight (box);
  GraftChange change = change_of (layout, options, b);
  double      radius = box_radius (box);
  double      cx = box->box.x + box->box.width / 2;
  double      cy = box->box.y + box->box.height / 2;

  if (box->n_members > 0)
    {
      /* A collapsed scope: a stack of cards. */
      for (int k = 2; k >= 1; k--)
        {
          GraftRect card = { box->box.x + 3 * k, box->box.y + 3 * k, box->box.width,
                             box->box.height };

          rounded_rect (cr, &card, radius);
          set_source (cr, rgb (colors->fill, 1));
          cairo_fill_preserve (cr);
          set_source (cr, rgb (colors->border, 1));
          cairo_set_line_width (cr, 1.0);
          cairo_stroke (cr);
        }
    }
  if (flag_of (layout, NULL, options->node_added, b))
    {
      static const double dash[] = { 4.0, 3.0 };
      const GraftRect    *r = &box->box;
      GraftRect           ring = { r->x - 3, r->y - 3, r->width + 6, r->height + 6 };

      rounded_rect (cr, &ring, radius + 3);
      set_source (cr, theme->added);
      cairo_set_line_width (cr, 2.0);
      cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }
  if (selected)
    {
      GraftRect ring = { box->box.x - 4, box->box.y - 4, box->box.width + 8, box->box.height + 8 };

      rounded_rect (cr, &ring, radius + 4);
      set_source (cr, theme->selection);
      cairo_set_line_width (cr, is_current (layout, options, b) ? MAX (4.0, 2.5 * pixel) : 2.5);
      cairo_set_dash (cr, NULL, 0, 0);
      cairo_stroke (cr);
    }

  rounded_rect (cr, &box->box, radius);
  set_source (cr, rgb (colors->fill, 1));
  cairo_fill_preserve (cr);
  if (match >= 0)
    {
      Rgba mc = rgb (graft_palette_matches[match % GRAFT_PALETTE_N_MATCH_COLORS],
                     quiet ? 0.10 : chosen ? 0.30
                                           : 0.22);

      set_source (cr, mc);
      cairo_fill_preserve (cr);
    }
  if (change == GRAFT_CHANGE_ADDED || change == GRAFT_CHANGE_REMOVED)
    {
      Rgba tint = change == GRAFT_CHANGE_ADDED ? theme->added : theme->removed;

      tint.a = 0.28;
      set_source (cr, tint);
      cairo_fill_preserve (cr);
    }
  if (hovered)
    {
      set_source (cr, theme->hover);
      cairo_fill_preserve (cr);
    }
  if (change != GRAFT_CHANGE_KEPT && match < 0)
    {
      /* Told apart without colour too: removed dashed, rewired dotted. */
      static const double removed_dash[] = { 6.0, 3.0 };
      static const double rewired_dash[] = { 2.0, 2.5 };

      switch (change)
        {
        case GRAFT_CHANGE_ADDED:
          set_source (cr, theme->added);
          cairo_set_line_width (cr, 2.6);
          cairo_set_dash (cr, NULL, 0, 0);
          break;
        case GRAFT_CHANGE_REMOVED:
          set_source (cr, theme->removed);
          cairo_set_line_width (cr, 2.6);
          cairo_set_dash (cr, removed_dash, G_N_ELEMENTS (removed_dash), 0);
          break;
        case GRAFT_CHANGE_REWIRED:
        case GRAFT_CHANGE_KEPT:
        default:
          set_source (cr, theme->rewired);
          cairo_set_line_width (cr, 2.2);
          cairo_set_dash (cr, rewired_dash, G_N_ELEMENTS (rewired_dash), 0);
          break;
        }
    }
  else if (match >= 0)
    {
      set_source (cr, rgb (graft_palette_matches[match % GRAFT_PALETTE_N_MATCH_COLORS],
                           quiet ? 0.6 : 1));
      cairo_set_line_width (cr, quiet    ? MATCH_WIDTH * 0.6
                                : chosen ? MAX (MATCH_WIDTH * 1.5, 2.5 * pixel)
                                         : MATCH_WIDTH);
      set_match_dash (cr, match);
    }
  else if (flag_of (layout, options->node_dropped, NULL, b))
    {
      static const double dash[] = { 5.0, 3.0 };

      set_source (cr, theme->dropped);
      cairo_set_line_width (cr, 2.2);
      cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
    }
  else
    {
      static const double buffer_dash[] = { 3.0, 2.0 };
      static const double constant_dash[] = { 1.0, 2.0 };

      set_source (cr, rgb (colors->border, 1));
      cairo_set_line_width (cr, box->is_stub ? 0.8 : box->n_members > 0 ? 1.6
                                                                        : 1.0);
      /* Buffers dashed, constants dotted: told apart from parameters
       * without colour. */
      if (box->role == GRAFT_LAYOUT_ROLE_BUFFER)
        cairo_set_dash (cr, buffer_dash, G_N_ELEMENTS (buffer_dash), 0);
      else if (box->role == GRAFT_LAYOUT_ROLE_CONSTANT)
        cairo_set_dash (cr, constant_dash, G_N_ELEMENTS (constant_dash), 0);
      else
        cairo_set_dash (cr, NULL, 0, 0);
    }
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);

  set_source (cr, theme->text);
  if (weight)
    show_centered (cr, text, GRAFT_TEXT_CAPTION, box->label, cx, cy);
  else if (box->is_stub)
    show_centered (cr, text, GRAFT_TEXT_STUB, box->name, cx, cy);
  else
    {
      show_centered (cr, text, GRAFT_TEXT_NAME, box->label, cx,
                     box->box.y + box->box.height * 0.32);
      set_source (cr, theme->caption);
      show_centered (cr, text, GRAFT_TEXT_CAPTION, box->caption, cx,
                     box->box.y + box->box.height * 0.70);
    }

  {
    GraftRect control;

    if (!options->no_controls && graft_layout_get_box_control (layout, b, &control))
      draw_control (cr, theme, &control, TRUE);
  }
  if (match >= 0 && !box->is_stub)
    {
      g_autofree char *label = graft_render_dup_match_label (layout, options->node_match, b);
      double           bx = box->box.x + box->box.width;
      double           by = box->box.y;
      guint32          hex = graft_palette_matches[match % GRAFT_PALETTE_N_MATCH_COLORS];
      double           luminance =
          0.2126 * ((hex >> 16) & 0xff) + 0.7152 * ((hex >> 8) & 0xff) + 0.0722 * (hex & 0xff);
      double alpha = quiet ? 0.6 : 1;

      /* The captions leave a current point: an arc would be joined to it. */
      cairo_new_path (cr);
      if (box->n_members > 0)
        {
          /* A pill that ends where a node's badge would be centred. */
          double    w = _graft_text_width (text, GRAFT_TEXT_BADGE, label) + 10;
          GraftRect pill = { bx + 7.5 - w, by - 7.5, w, 15 };

          rounded_rect (cr, &pill, 7.5);
          bx = pill.x + w / 2;
        }
      else
        {
          /* A disc, or where the number is wider than a disc holds
           * ("1301"), a pill as wide as it, centred at the same place. */
          double    w = _graft_text_width (text, GRAFT_TEXT_BADGE, label) + 6;
          GraftRect pill = { bx - w / 2, by - 7.5, w, 15 };

          if (w > 15)
            rounded_rect (cr, &pill, 7.5);
          else
            cairo_arc (cr, bx, by, 7.5, 0, 2 * G_PI);
        }
      if (chosen || is_current (layout, options, b))
        {
          /* Rimmed in the background, apart from the halo under it. */
          set_source (cr, theme->background);
          cairo_set_line_width (cr, 3.0);
          cairo_set_dash (cr, NULL, 0, 0);
          cairo_stroke_preserve (cr);
        }
      set_source (cr, rgb (hex, alpha));
      cairo_fill (cr);
      set_source (cr, luminance > 140 ? rgb (0x000000, alpha) : rgb (0xffffff, alpha));
      show_centered (cr, text, GRAFT_TEXT_BADGE, label, bx, by);
    }
}

/* The frame of an open module: a tinted rounded area (tints add up, so
 * nested frames read as depth), an outline, its label at the top left and
 * its collapse control at the top right. */
static void
draw_frame (cairo_t                *cr,
            GraftText              *text,
            const Theme            *theme,
            const GraftLayoutFrame *frame,
            gboolean                with_control)
{
  PangoLayout   *layout;
  PangoRectangle logical;
  GraftRect      control;

  rounded_rect (cr, &frame->box, 6.0);
  set_source (cr, theme->frame);
  cairo_fill_preserve (cr);
  set_source (cr, theme->frame_border);
  cairo_set_line_width (cr, 0.8);
  cairo_stroke (cr);
  graft_layout_get_frame_control (frame, &control);
  cairo_save (cr);
  cairo_rectangle (cr, frame->box.x, frame->box.y, MAX (control.x - frame->box.x - 2, 0),
                   GRAFT_LAYOUT_FRAME_LABEL_HEIGHT);
  cairo_clip (cr);
  _graft_text_enter ();
  layout = _graft_text_layout (text, GRAFT_TEXT_CAPTION, frame->label);
  pango_layout_get_extents (layout, NULL, &logical);
  set_source (cr, theme->caption);
  cairo_move_to (cr, frame->box.x + 6,
                 frame->box.y +
                     (GRAFT_LAYOUT_FRAME_LABEL_HEIGHT - (double) logical.height / PANGO_SCALE) / 2 +
                     1);
  pango_cairo_show_layout (cr, layout);
  _graft_text_leave ();
  cairo_restore (cr);
  if (with_control)
    draw_control (cr, theme, &control, FALSE);
}

/* The halos of the chosen match and of the current Find hit, under every
 * box: those whose halo reaches into the clip (@x1, @y1)–(@x2, @y2). */
static void
draw_halos (GraftLayout              *layout,
            cairo_t                  *cr,
            const GraftRenderOptions *options,
            const Theme              *theme,
            double                    pixel,
            double                    x1,
            double                    y1,
            double                    x2,
            double                    y2)
{
  double reach = MAX (HALO_WIDTH, HALO_PIXELS * pixel);
  g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (guint));

  graft_layout_query (layout, x1 - reach, y1 - reach, x2 + reach, y2 + reach, boxes, NULL);
  for (guint k = 0; k < boxes->len; k++)
    {
      guint                  b = g_array_index (boxes, guint, k);
      const GraftLayoutNode *box = graft_layout_get_node (layout, b);
      gint                   match = graft_render_box_match (layout, options, b);

      if (box->is_stub)
        continue;
      if (match >= 0 && match == options->chosen_match)
        draw_halo (cr, box, rgb (graft_palette_matches[match % GRAFT_PALETTE_N_MATCH_COLORS], 1),
                   pixel);
      if (is_current (layout, options, b))
        draw_halo (cr, box, theme->selection, pixel);
    }
}

/**
 * graft_render_dup_match_label:
 * @layout: a layout
 * @node_match: (nullable): one entry per graph node: its match, or -1
 * @box: a box of @layout
 *
 * What the badge of box @box says: a node's match number ("4"), or for a
 * folded box the matches it holds parts of ("match 4", "matches 4–6" for
 * a run, "3 matches" otherwise), so a number on a fold does not read as a
 * count.  Numbers count from 1, as the match list does.
 *
 * Returns: (transfer full) (nullable): the label, or %NULL when the box
 *   holds no match
 */
char *
graft_render_dup_match_label (GraftLayout *layout,
                              const gint  *node_match,
                              guint        box)
{
  const GraftLayoutNode *node;
  const guint           *members;
  guint                  n;
  gint                   lowest = G_MAXINT;
  gint                   highest = -1;
  guint                  distinct = 0;
  g_autoptr (GArray) found = NULL;

  g_return_val_if_fail (layout != NULL, NULL);
  g_return_val_if_fail (box < graft_layout_get_n_nodes (layout), NULL);
  if (node_match == NULL)
    return NULL;
  node = graft_layout_get_node (layout, box);
  members = graft_layout_get_members (layout, box, &n);
  if (n == 0)
    return node_match[node->node_index] >= 0
               ? g_strdup_printf ("%d", node_match[node->node_index] + 1)
               : NULL;
  found = g_array_sized_new (FALSE, FALSE, sizeof (gint), n);
  for (guint k = 0; k < n; k++)
    if (node_match[members[k]] >= 0)
      g_array_append_val (found, node_match[members[k]]);
  g_array_sort (found, compare_ints);
  for (guint k = 0; k < found->len; k++)
    {
      gint match = g_array_index (found, gint, k);

      if (k == 0 || match != g_array_index (found, gint, k - 1))
        distinct++;
      lowest = MIN (lowest, match);
      highest = MAX (highest, match);
    }
  if (distinct == 0)
    return NULL;
  if (distinct == 1)
    return g_strdup_printf ("match %d", lowest + 1);
  if ((guint) (highest - lowest + 1) == distinct)
    return g_strdup_printf ("matches %d\u2013%d", lowest + 1, highest + 1);
  return g_strdup_printf ("%u matches", distinct);
}

/* Reports drawing progress and checks for cancellation every
 * PROGRESS_STEP items, so neither costs anything measurable. */
#define PROGRESS_STEP 512

typedef struct
{
  GraftRenderProgressFunc func;
  gpointer                data;
  GCancellable           *cancellable;
  double                  from; /* the fraction at the first item */
  double                  to;   /* at the last */
  guint                   done;
  guint                   total;
  gboolean                cancelled;
} Progress;

/* One more item drawn; FALSE once the work is cancelled. */
static gboolean
progress_step (Progress *p)
{
  if (p == NULL)
    return TRUE;
  p->done++;
  if (p->done % PROGRESS_STEP != 0)
    return !p->cancelled;
  if (g_cancellable_is_cancelled (p->cancellable))
    p->cancelled = TRUE;
  else if (p->func != NULL && p->total > 0)
    p->func (p->from + (p->to - p->from) * p->done / p->total, p->data);
  return !p->cancelled;
}

/* Whether @edge is drawn plain (the edge colour and width), as most are:
 * not inside a match (then *@out_match is that match, else -1), nor inside
 * what a change removed or added. */
static gboolean
is_plain_edge (GraftLayout              *layout,
               const GraftRenderOptions *options,
               const GraftLayoutEdge    *edge,
               gint                     *out_match)
{
  gint        mt = graft_render_box_match (layout, options, edge->tail);
  gint        mh = graft_render_box_match (layout, options, edge->head);
  GraftChange change;

  if (mt >= 0 && mt == mh && !graft_layout_get_node (layout, edge->tail)->is_stub)
    {
      *out_match = mt;
      return FALSE;
    }
  *out_match = -1;
  if (options->node_change == NULL)
    return TRUE;
  change = change_of (layout, options, edge->head);
  return change != change_of (layout, options, edge->tail) ||
         (change != GRAFT_CHANGE_ADDED && change != GRAFT_CHANGE_REMOVED);
}

static gboolean
edge_visible (const GraftLayoutEdge *edge,
              double                 x1,
              double                 y1,
              double                 x2,
              double                 y2)
{
  GraftRect bounds = { edge->points[0].x, edge->points[0].y, 0, 0 };
  double    bx2 = bounds.x;
  double    by2 = bounds.y;

  for (guint p = 1; p < edge->n_points; p++)
    {
      bounds.x = MIN (bounds.x, edge->points[p].x);
      bounds.y = MIN (bounds.y, edge->points[p].y);
      bx2 = MAX (bx2, edge->points[p].x);
      by2 = MAX (by2, edge->points[p].y);
    }
  bounds.width = bx2 - bounds.x + ARROW_HALF * 4;
  bounds.height = by2 - bounds.y + ARROW_HALF * 4;
  bounds.x -= ARROW_HALF * 2;
  bounds.y -= ARROW_HALF * 2;
  return intersects (&bounds, x1, y1, x2, y2);
}

/* Draws what @layout has in @cr's clip; with @progress, reports it and
 * stops early (returning FALSE) once cancelled. */
static gboolean
draw_clip (GraftLayout              *layout,
           cairo_t                  *cr,
           const GraftRenderOptions *options,
           Progress                 *progress)
{
  GraftRenderOptions defaults;
  g_autoptr (GraftText) text = NULL;
  Theme    theme;
  double   x1, y1, x2, y2;
  gboolean readable;
  double   pixel; /* a device pixel, in points */
  g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) edges = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) plain = g_array_new (FALSE, FALSE, sizeof (guint));

  if (options == NULL)
    {
      graft_render_options_init (&defaults);
      options = &defaults;
    }
  get_theme (options->style, &theme);
  text = _graft_text_new_for_cairo (cr);

  cairo_save (cr);
  cairo_clip_extents (cr, &x1, &y1, &x2, &y2);
  if (options->draw_background)
    {
      set_source (cr, theme.background);
      cairo_paint (cr);
    }

  /* Annotations are small: drawn only where they can be read (files are
   * drawn at 1 or more). */
  {
    double dx = 1;
    double dy = 0;

    cairo_user_to_device_distance (cr, &dx, &dy);
    readable = graft_render_shows_annotations (sqrt (dx * dx + dy * dy));
    pixel = 1 / MAX (sqrt (dx * dx + dy * dy), 1e-6);
  }
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  graft_layout_query (layout, x1, y1, x2, y2, boxes, edges);
  for (guint f = 0; f < graft_layout_get_n_frames (layout); f++)
    {
      const GraftLayoutFrame *frame = graft_layout_get_frame (layout, f);

      if (intersects (&frame->box, x1, y1, x2, y2))
        draw_frame (cr, text, &theme, frame, !options->no_controls);
    }
  if (progress != NULL)
    progress->total = edges->len + boxes->len;

  /* Plain edges first, as one path and one fill of arrowheads: most
   * edges are plain, and one path each made a large graph's SVG twice as
   * large as its strokes.  Edges of a match go over them, in its colour. */
  for (guint k = 0; k < edges->len; k++)
    {
      guint                  e = g_array_index (edges, guint, k);
      const GraftLayoutEdge *edge = graft_layout_get_edge (layout, e);
      gint                   match;

      if (edge_visible (edge, x1, y1, x2, y2) && is_plain_edge (layout, options, edge, &match))
        g_array_append_val (plain, e);
    }
  if (plain->len > 0)
    {
      set_source (cr, theme.edge);
      cairo_set_line_width (cr, EDGE_WIDTH);
      for (guint k = 0; k < plain->len; k++)
        {
          const GraftLayoutEdge *edge =
              graft_layout_get_edge (layout, g_array_index (plain, guint, k));

          trace_edge (cr, edge);
          if (!progress_step (progress))
            goto out;
        }
      cairo_stroke (cr);
      for (guint k = 0; k < plain->len; k++)
        trace_arrow (cr, graft_layout_get_edge (layout, g_array_index (plain, guint, k)),
                     EDGE_WIDTH);
      cairo_fill (cr);
    }
  for (guint k = 0; k < edges->len; k++)
    {
      const GraftLayoutEdge *edge = graft_layout_get_edge (layout, g_array_index (edges, guint, k));
      gint                   match;

      if (!edge_visible (edge, x1, y1, x2, y2) || is_plain_edge (layout, options, edge, &match))
        continue;
      if (match >= 0)
        {
          gboolean quiet = options->chosen_match >= 0 && match != options->chosen_match;

          draw_edge (cr, edge,
                     rgb (graft_palette_matches[match % GRAFT_PALETTE_N_MATCH_COLORS],
                          quiet ? 0.6 : 1),
                     quiet                            ? 1.6
                     : match == options->chosen_match ? 3.2
                                                      : 2.2);
        }
      else
        /* An edge inside what a change removed or added. */
        draw_edge (cr, edge,
                   change_of (layout, options, edge->head) == GRAFT_CHANGE_ADDED ? theme.added
                                                                                 : theme.removed,
                   1.8);
      if (!progress_step (progress))
        goto out;
    }

  if (options->chosen_match >= 0 || options->current >= 0)
    draw_halos (layout, cr, options, &theme, pixel, x1, y1, x2, y2);
  for (guint k = 0; k < boxes->len; k++)
    {
      guint                  b = g_array_index (boxes, guint, k);
      const GraftLayoutNode *box = graft_layout_get_node (layout, b);
      GraftRect              grown = { box->box.x - 10, box->box.y - 10, box->box.width + 20,
                                       box->box.height + 30 };

      if (intersects (&grown, x1, y1, x2, y2))
        {
          draw_box (cr, text, &theme, layout, b, options, pixel);
          if (box->annotation != NULL && readable)
            draw_annotation (cr, text, &theme, box);
        }
      if (!progress_step (progress))
        goto out;
    }
out:
  cairo_restore (cr);
  return progress == NULL || !progress->cancelled;
}

/**
 * graft_render_draw:
 * @layout: a layout
 * @cr: where to draw, in layout coordinates (points; scale @cr to zoom)
 * @options: (nullable): what to highlight; %NULL for the defaults
 *
 * Draws the boxes and edges of @layout that intersect @cr's clip.
 */
void
graft_render_draw (GraftLayout              *layout,
                   cairo_t                  *cr,
                   const GraftRenderOptions *options)
{
  g_return_if_fail (layout != NULL);
  g_return_if_fail (cr != NULL);

  draw_clip (layout, cr, options, NULL);
}

static void
format_percent (char  *buf,
                gsize  size,
                double scale)
{
  double percent = scale * 100;

  if (percent >= 9.95)
    g_snprintf (buf, size, "%.0f %%", percent);
  else
    {
      char number[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (number, sizeof number, percent >= 0.095 ? "%.1f" : "%.2f", percent);
      g_snprintf (buf, size, "%s %%", number);
    }
}

/**
 * graft_render_fit:
 * @format: a picture format (graft_format_is_picture())
 * @width: the width of what is drawn, in layout points
 * @height: its height
 * @scale: file units (PNG pixels, SVG or PDF points) per layout point
 *   asked for; 0 for the format's own: two pixels a point for PNG, one
 *   point for SVG and PDF
 * @out_fit: (out caller-allocates): the size the file gets
 * @error: return location for a #GRAFT_ERROR_LIMIT error
 *
 * How a picture of @width x @height points fits the format's limits: a
 * PNG has at most GRAFT_MAX_PNG_SIDE pixels a side and
 * GRAFT_MAX_PNG_PIXELS pixels, an SVG or PDF page GRAFT_MAX_VECTOR_SIDE
 * points a side; a larger drawing is scaled down to fit.  A PNG whose
 * boxes would be under two pixels (GRAFT_MIN_PNG_SCALE) shows nothing and
 * is refused.
 *
 * Returns: %TRUE when the format can hold the drawing
 */
gboolean
graft_render_fit (GraftFormat     format,
                  double          width,
                  double          height,
                  double          scale,
                  GraftRenderFit *out_fit,
                  GError        **error)
{
  double asked;

  g_return_val_if_fail (graft_format_is_picture (format), FALSE);
  g_return_val_if_fail (out_fit != NULL, FALSE);

  width = MAX (width, 1);
  height = MAX (height, 1);
  memset (out_fit, 0, sizeof *out_fit);
  if (format == GRAFT_FORMAT_PNG)
    {
      if (scale <= 0)
        scale = PNG_SCALE;
      asked = scale;
      scale = MIN (scale, MIN (GRAFT_MAX_PNG_SIDE / width, GRAFT_MAX_PNG_SIDE / height));
      scale = MIN (scale, sqrt (GRAFT_MAX_PNG_PIXELS / (width * height)));
      if (scale < GRAFT_MIN_PNG_SCALE)
        {
          char percent[32];

          format_percent (percent, sizeof percent, scale);
          g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_LIMIT,
                       "the drawing is too large for PNG (%.0f x %.0f points): it would be drawn "
                       "at %s, where boxes are under two pixels; use SVG or PDF",
                       width, height, percent);
          return FALSE;
        }
      out_fit->scale = scale;
      /* Whole pixels, not one more for a rounding error (a view's area
       * converted to layout points and back). */
      out_fit->width = MIN (ceil (width * scale - 1e-6), GRAFT_MAX_PNG_SIDE);
      out_fit->height = MIN (ceil (height * scale - 1e-6), GRAFT_MAX_PNG_SIDE);
      out_fit->readable = scale >= GRAFT_MIN_READABLE_PNG_SCALE;
    }
  else
    {
      if (scale <= 0)
        scale = 1.0;
      asked = scale;
      scale = MIN (scale, MIN (GRAFT_MAX_VECTOR_SIDE / width, GRAFT_MAX_VECTOR_SIDE / height));
      out_fit->scale = scale;
      out_fit->width = width * scale;
      out_fit->height = height * scale;
      /* Text in a vector file stays sharp when the viewer zooms in. */
      out_fit->readable = TRUE;
    }
  out_fit->scaled = scale < asked;
  return TRUE;
}

/**
 * graft_render_fit_describe:
 * @fit: a fit from graft_render_fit()
 *
 * Returns: (transfer full): the fit's scale as the canvas's zoom shows it
 *   (`12 %`), with `text unreadable` after it when it is
 */
char *
graft_render_fit_describe (const GraftRenderFit *fit)
{
  char percent[32];

  g_return_val_if_fail (fit != NULL, NULL);
  format_percent (percent, sizeof percent, fit->scale);
  if (!fit->readable)
    return g_strdup_printf ("%s, text unreadable", percent);
  return g_strdup (percent);
}

/* Where the file's bytes go: a byte array or a file being written. */
typedef struct
{
  GByteArray      *bytes;
  GraftOutputFile *file;
  GCancellable    *cancellable;
  GError          *error; /* the first write error */
  /* Vector files are written when the surface is finished: their
   * progress runs with the bytes written, against an estimate. */
  Progress *progress;
  guint64   written;
  guint64   expected;
} Sink;

static cairo_status_t
sink_write_cb (void                *closure,
               const unsigned char *data,
               unsigned int         length)
{
  Sink *sink = closure;

  if (sink->error != NULL)
    return CAIRO_STATUS_WRITE_ERROR;
  if (g_cancellable_set_error_if_cancelled (sink->cancellable, &sink->error))
    return CAIRO_STATUS_WRITE_ERROR;
  if (sink->bytes != NULL)
    g_byte_array_append (sink->bytes, data, length);
  else if (!graft_output_file_write (sink->file, data, length, &sink->error))
    return CAIRO_STATUS_WRITE_ERROR;
  if (sink->progress != NULL && sink->progress->func != NULL && sink->expected > 0)
    {
      guint64 before = sink->written / (1 << 20);

      sink->written += length;
      /* Each megabyte; never the end, which only the finish reports. */
      if (sink->written / (1 << 20) != before)
        sink->progress->func (MIN (0.99, sink->progress->to +
                                             (1 - sink->progress->to) * sink->written /
                                                 sink->expected),
                              sink->progress->data);
    }
  return CAIRO_STATUS_SUCCESS;
}

/* cairo records a vector drawing and writes the file when the surface is
 * finished, which takes most of the time.  For the progress of that part,
 * the bytes written against about how many a drawn item (a box with its
 * text, an edge) makes, and the share of the time drawing takes; measured
 * on the 50,000-node generated graph (tests/bench/gen-module.py). */
#define SVG_BYTES_PER_ITEM 1050
#define SVG_DRAWING_SHARE  0.15
#define PDF_BYTES_PER_ITEM 65
#define PDF_DRAWING_SHARE  0.25

static gboolean
render (GraftLayout              *layout,
        GraftFormat               format,
        const GraftRenderOptions *options,
        const GraftRenderArea    *area,
        Sink                     *sink,
        Progress                 *progress,
        GraftRenderFit           *out_fit,
        GError                  **error)
{
  GraftRenderOptions opts;
  GraftRenderFit     fit;
  GraftRect          region;
  cairo_surface_t   *surface = NULL;
  cairo_status_t     status;
  cairo_t           *cr;
  gboolean           drawn;

  if (options != NULL)
    opts = *options;
  else
    graft_render_options_init (&opts);
  opts.draw_background = TRUE;
  if (area != NULL && area->region.width > 0 && area->region.height > 0)
    region = area->region;
  else
    {
      region.x = region.y = 0;
      graft_layout_get_size (layout, &region.width, &region.height);
      region.width = MAX (region.width, 1);
      region.height = MAX (region.height, 1);
    }
  if (!graft_render_fit (format, region.width, region.height, area != NULL ? area->scale : 0,
                         &fit, error))
    return FALSE;
  if (out_fit != NULL)
    *out_fit = fit;

  if (format == GRAFT_FORMAT_PNG)
    {
      progress->to = 0.9;
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) fit.width,
                                            (int) fit.height);
    }
  else
    {
      progress->to = format == GRAFT_FORMAT_SVG ? SVG_DRAWING_SHARE : PDF_DRAWING_SHARE;
      sink->progress = progress;
      if (format == GRAFT_FORMAT_SVG)
        surface = cairo_svg_surface_create_for_stream (sink_write_cb, sink, fit.width,
                                                       fit.height);
      else
        surface = cairo_pdf_surface_create_for_stream (sink_write_cb, sink, fit.width,
                                                       fit.height);
    }

  cr = cairo_create (surface);
  cairo_scale (cr, fit.scale, fit.scale);
  cairo_translate (cr, -region.x, -region.y);
  cairo_rectangle (cr, region.x, region.y, region.width, region.height);
  cairo_clip (cr);
  drawn = draw_clip (layout, cr, &opts, progress);
  if (sink->progress != NULL)
    sink->expected = (guint64) progress->total *
                     (format == GRAFT_FORMAT_SVG ? SVG_BYTES_PER_ITEM : PDF_BYTES_PER_ITEM);
  status = cairo_status (cr);
  cairo_destroy (cr);
  /* Cancelled while drawing: a vector surface must not write what it
   * recorded when it is destroyed. */
  if (!drawn && sink->error == NULL)
    g_cancellable_set_error_if_cancelled (progress->cancellable, &sink->error);
  if (drawn && status == CAIRO_STATUS_SUCCESS && format == GRAFT_FORMAT_PNG)
    status = cairo_surface_write_to_png_stream (surface, sink_write_cb, sink);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (sink->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&sink->error));
      return FALSE;
    }
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_DRAW, "cairo could not draw the graph: %s",
                   cairo_status_to_string (status));
      return FALSE;
    }
  if (progress->func != NULL)
    progress->func (1.0, progress->data);
  return TRUE;
}

/**
 * graft_render_to_bytes:
 * @layout: a layout
 * @format: the file format: a picture (graft_format_is_picture())
 * @options: (nullable): what to highlight; the background is always drawn
 * @error: return location for an error
 *
 * Draws @layout into a PNG (two pixels per point, less for very large
 * drawings), SVG or PDF file held in memory.  Vector pages larger than
 * PDF's 200-inch limit are scaled down to fit (graft_render_fit()).
 *
 * Returns: (transfer full) (nullable): the file's bytes
 */
GBytes *
graft_render_to_bytes (GraftLayout              *layout,
                       GraftFormat               format,
                       const GraftRenderOptions *options,
                       GError                  **error)
{
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  Sink     sink = { 0 };
  Progress progress = { 0 };

  g_return_val_if_fail (layout != NULL, NULL);
  g_return_val_if_fail (graft_format_is_picture (format), NULL);

  sink.bytes = bytes;
  if (!render (layout, format, options, NULL, &sink, &progress, NULL, error))
    return NULL;
  return g_byte_array_free_to_bytes (g_steal_pointer (&bytes));
}

/**
 * graft_render_to_output:
 * @layout: a layout
 * @format: the file format: a picture (graft_format_is_picture())
 * @options: (nullable): what to highlight; the background is always drawn
 * @area: (nullable): the part drawn and its scale; %NULL for the whole
 *   drawing at the format's scale
 * @output: the file to write to, as it is drawn; the caller commits it, or
 *   abandons it on failure
 * @progress: (nullable) (scope call): called, on this thread, with the
 *   fraction of the work done, from 0 to 1
 * @progress_data: its data
 * @cancellable: (nullable): stops the work early, with %G_IO_ERROR_CANCELLED
 * @out_fit: (out caller-allocates) (optional): the size and scale the file
 *   got
 * @error: return location for an error
 *
 * graft_render_to_bytes() for a part of the drawing, written as it is
 * drawn, for a worker thread: @layout and @options must not change
 * meanwhile.
 *
 * Returns: %TRUE when the whole file is written
 */
gboolean
graft_render_to_output (GraftLayout              *layout,
                        GraftFormat               format,
                        const GraftRenderOptions *options,
                        const GraftRenderArea    *area,
                        GraftOutputFile          *output,
                        GraftRenderProgressFunc   progress,
                        gpointer                  progress_data,
                        GCancellable             *cancellable,
                        GraftRenderFit           *out_fit,
                        GError                  **error)
{
  Sink     sink = { 0 };
  Progress p = { 0 };

  g_return_val_if_fail (layout != NULL, FALSE);
  g_return_val_if_fail (graft_format_is_picture (format), FALSE);
  g_return_val_if_fail (output != NULL, FALSE);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  sink.file = output;
  sink.cancellable = cancellable;
  p.func = progress;
  p.data = progress_data;
  p.cancellable = cancellable;
  return render (layout, format, options, area, &sink, &p, out_fit, error);
}

/**
 * graft_render_get_match_color:
 * @match: a match number
 * @out_red: (out): red, 0 to 1
 * @out_green: (out): green
 * @out_blue: (out): blue
 *
 * The colour the renderer draws match @match in, for legends and lists.
 */
void
graft_render_get_match_color (guint   match,
                              double *out_red,
                              double *out_green,
                              double *out_blue)
{
  Rgba c = rgb (graft_palette_matches[match % GRAFT_PALETTE_N_MATCH_COLORS], 1);

  *out_red = c.r;
  *out_green = c.g;
  *out_blue = c.b;
}

/**
 * graft_render_get_background:
 * @style: light or dark
 * @out_red: (out): red, 0 to 1
 * @out_green: (out): green
 * @out_blue: (out): blue
 *
 * The colour the renderer fills the background with, for widgets that
 * show it before there is anything to draw.
 */
void
graft_render_get_background (GraftRenderStyle style,
                             double          *out_red,
                             double          *out_green,
                             double          *out_blue)
{
  Rgba c = rgb (graft_palette_themes[style == GRAFT_RENDER_DARK ? 1 : 0].background, 1);

  *out_red = c.r;
  *out_green = c.g;
  *out_blue = c.b;
}
