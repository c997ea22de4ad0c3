/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-render.c: what the renderer says about matches, and the overview
 * map.  The chosen match gets a halo, wide in device pixels even at 5 %,
 * and the other matches are drawn quieter; files (no match chosen) draw
 * every match alike.  The current Find hit's selection ring gets a halo
 * too.  A folded box's badge names the matches it holds ("match 4",
 * "matches 715–717", "2 matches"), a node's badge its number, in a pill
 * when the number is too long for a disc, rimmed under a halo.  The map
 * keeps the layout's proportions unless that makes it thinner than its
 * minimum side, maps points both ways, and draws matches in their colours
 * and the chosen match with a rim.  The pictures are compared by pixel:
 * cairo's image backend draws the same pixels for the same input.
 */
#include "config.h"

#include "graft-view.h"
#include "test-util.h"

#include <string.h>

/* As graft-palette-private.h defines them (Okabe-Ito), and the light
 * theme's background and text. */
#define FIRST_MATCH_RGB  0xe69f00
#define SECOND_MATCH_RGB 0x0072b2
#define BACKGROUND_RGB   0xfafafa
#define TEXT_RGB         0x141414

static GraftGraph *
load_resnet18 (void)
{
  g_autofree char *path = test_data_path ("torchvision", "resnet18.py");

  return test_load_graph (path);
}

/* The box of the node called @name. */
static const GraftLayoutNode *
box_of (GraftLayout *layout,
        const char  *name)
{
  gint b = graft_layout_find_node (layout, name);

  g_assert_cmpint (b, >=, 0);
  return graft_layout_get_node (layout, (guint) b);
}

/* @layout drawn at @scale with @options; the caller frees the surface. */
static cairo_surface_t *
draw (GraftLayout              *layout,
      double                    scale,
      const GraftRenderOptions *options)
{
  double             width;
  double             height;
  cairo_surface_t   *surface;
  cairo_t           *cr;
  GraftRenderOptions opts = *options;

  graft_layout_get_size (layout, &width, &height);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) (width * scale) + 1,
                                        (int) (height * scale) + 1);
  cr = cairo_create (surface);
  cairo_scale (cr, scale, scale);
  opts.draw_background = TRUE;
  graft_render_draw (layout, cr, &opts);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* The colour at layout point (@x, @y) of a picture drawn at @scale. */
static guint32
pixel_at (cairo_surface_t *surface,
          double           scale,
          double           x,
          double           y)
{
  const guchar *data = cairo_image_surface_get_data (surface);
  int           stride = cairo_image_surface_get_stride (surface);
  int           px = (int) (x * scale);
  int           py = (int) (y * scale);

  g_assert_cmpint (px, >=, 0);
  g_assert_cmpint (py, >=, 0);
  g_assert_cmpint (px, <, cairo_image_surface_get_width (surface));
  g_assert_cmpint (py, <, cairo_image_surface_get_height (surface));
  return *(const guint32 *) (gconstpointer) (data + py * stride + px * 4) & 0xffffff;
}

static guint
count_color (cairo_surface_t *surface,
             guint32          rgb)
{
  const guchar *data = cairo_image_surface_get_data (surface);
  int           stride = cairo_image_surface_get_stride (surface);
  guint         count = 0;

  for (int y = 0; y < cairo_image_surface_get_height (surface); y++)
    for (int x = 0; x < cairo_image_surface_get_width (surface); x++)
      if ((*(const guint32 *) (gconstpointer) (data + y * stride + x * 4) & 0xffffff) == rgb)
        count++;
  return count;
}

/* conv1 is match 0 and bn1 match 1.  Left of conv1's box, within the
 * halo's width, there is only background unless match 0 is chosen; at 5 %
 * the halo still spans several pixels there. */
static void
test_chosen_match (void)
{
  g_autoptr (GraftGraph) graph = load_resnet18 ();
  g_autoptr (GraftLayout) layout = graft_layout_new (graph, NULL);
  guint                  n = graft_layout_get_n_graph_nodes (layout);
  g_autofree gint       *marks = g_new (gint, n);
  const GraftLayoutNode *conv1 = box_of (layout, "conv1");
  const GraftLayoutNode *bn1 = box_of (layout, "bn1");
  double                 hx = conv1->box.x - 5;
  double                 hy = conv1->box.y + conv1->box.height / 2;
  GraftRenderOptions     options;

  for (guint i = 0; i < n; i++)
    marks[i] = -1;
  marks[conv1->node_index] = 0;
  marks[bn1->node_index] = 1;
  graft_render_options_init (&options);
  g_assert_cmpint (options.chosen_match, ==, -1);
  g_assert_cmpint (options.current, ==, -1);
  options.node_match = marks;

  {
    cairo_surface_t *plain = draw (layout, 1, &options);
    cairo_surface_t *chosen;
    cairo_surface_t *other;
    guint32          border_plain = pixel_at (plain, 1, bn1->box.x + 0.5,
                                              bn1->box.y + bn1->box.height / 2);

    g_assert_cmphex (pixel_at (plain, 1, hx, hy), ==, BACKGROUND_RGB);
    g_assert_cmphex (border_plain, ==, SECOND_MATCH_RGB);

    options.chosen_match = 0;
    chosen = draw (layout, 1, &options);
    g_assert_cmphex (pixel_at (chosen, 1, hx, hy), !=, BACKGROUND_RGB);
    /* bn1, not chosen, steps back: its outline is no longer full colour. */
    g_assert_cmphex (pixel_at (chosen, 1, bn1->box.x + 0.5, bn1->box.y + bn1->box.height / 2), !=,
                     border_plain);

    options.chosen_match = 1;
    other = draw (layout, 1, &options);
    g_assert_cmphex (pixel_at (other, 1, hx, hy), ==, BACKGROUND_RGB);
    cairo_surface_destroy (plain);
    cairo_surface_destroy (chosen);
    cairo_surface_destroy (other);
  }

  /* At 5 %, three device pixels left of the box are in the halo. */
  {
    cairo_surface_t *chosen;
    cairo_surface_t *plain;

    options.chosen_match = 0;
    chosen = draw (layout, 0.05, &options);
    options.chosen_match = -1;
    plain = draw (layout, 0.05, &options);
    g_assert_cmphex (pixel_at (chosen, 0.05, conv1->box.x - 3 / 0.05, hy), !=, BACKGROUND_RGB);
    g_assert_cmphex (pixel_at (plain, 0.05, conv1->box.x - 3 / 0.05, hy), ==, BACKGROUND_RGB);
    cairo_surface_destroy (chosen);
    cairo_surface_destroy (plain);
  }
}

/* How many pixels of @a and @b differ within 6 units around @box (its
 * inside left out), both drawn at scale 1. */
static guint
ring_differences (cairo_surface_t       *a,
                  cairo_surface_t       *b,
                  const GraftLayoutNode *box)
{
  guint count = 0;

  for (double y = box->box.y - 6; y < box->box.y + box->box.height + 6; y++)
    for (double x = box->box.x - 6; x < box->box.x + box->box.width + 6; x++)
      if ((x < box->box.x || x >= box->box.x + box->box.width || y < box->box.y ||
           y >= box->box.y + box->box.height) &&
          pixel_at (a, 1, x, y) != pixel_at (b, 1, x, y))
        count++;
  return count;
}

/* The nodes the last rewrite added are a set of one bit each
 * (graft_render_bits_new(): an array of gboolean was 4 MB to zero in one
 * turn at a million nodes): the box of a node in it, and only that box,
 * has the added ring, whichever byte and bit the node falls on. */
static void
test_added_ring (void)
{
  g_autoptr (GraftGraph) graph = load_resnet18 ();
  g_autoptr (GraftLayout) layout = graft_layout_new (graph, NULL);
  guint                  n = graft_layout_get_n_graph_nodes (layout);
  const GraftLayoutNode *first = NULL;
  const GraftLayoutNode *later = NULL;
  GraftRenderOptions     options;
  cairo_surface_t       *plain;

  /* A box in the first byte and one past it, on another bit. */
  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    {
      const GraftLayoutNode *box = graft_layout_get_node (layout, b);

      if (box->is_stub || box->n_members > 0)
        continue;
      if (first == NULL && box->node_index < 8)
        first = box;
      else if (later == NULL && box->node_index >= 8 && box->node_index % 8 == 5)
        later = box;
    }
  g_assert_nonnull (first);
  g_assert_nonnull (later);
  graft_render_options_init (&options);
  plain = draw (layout, 1, &options);
  for (guint k = 0; k < 2; k++)
    {
      const GraftLayoutNode *in = k == 0 ? first : later;
      const GraftLayoutNode *out = k == 0 ? later : first;
      g_autofree guint8     *bits = graft_render_bits_new (n);
      cairo_surface_t       *added;

      g_assert_cmpuint (bits[(n - 1) / 8], ==, 0);
      graft_render_bits_set (bits, in->node_index);
      options.node_added = bits;
      added = draw (layout, 1, &options);
      g_assert_cmpuint (ring_differences (plain, added, in), >, 20);
      g_assert_cmpuint (ring_differences (plain, added, out), ==, 0);
      cairo_surface_destroy (added);
    }
  /* No node at all: one byte, empty. */
  {
    g_autofree guint8 *none = graft_render_bits_new (0);

    g_assert_cmpuint (none[0], ==, 0);
  }
  cairo_surface_destroy (plain);
}

/* The current Find hit, selected, has a halo beyond its selection ring;
 * a hit that is only selected has not. */
static void
test_current_hit (void)
{
  g_autoptr (GraftGraph) graph = load_resnet18 ();
  g_autoptr (GraftLayout) layout = graft_layout_new (graph, NULL);
  guint                  n = graft_layout_get_n_graph_nodes (layout);
  g_autofree gboolean   *selected = g_new0 (gboolean, n);
  const GraftLayoutNode *conv1 = box_of (layout, "conv1");
  double                 hx = conv1->box.x - 8;
  double                 hy = conv1->box.y + conv1->box.height / 2;
  GraftRenderOptions     options;
  cairo_surface_t       *plain;
  cairo_surface_t       *current;

  selected[conv1->node_index] = TRUE;
  graft_render_options_init (&options);
  options.node_selected = selected;
  plain = draw (layout, 1, &options);
  options.current = (gint) conv1->node_index;
  current = draw (layout, 1, &options);
  g_assert_cmphex (pixel_at (plain, 1, hx, hy), ==, BACKGROUND_RGB);
  g_assert_cmphex (pixel_at (current, 1, hx, hy), !=, BACKGROUND_RGB);
  cairo_surface_destroy (plain);
  cairo_surface_destroy (current);
}

/* A node's badge holds its number: a disc for a short one, a pill as wide
 * as the number for a long one ("1301" overflowed the disc).  Under a
 * halo (the chosen match, the current Find hit) the badge is rimmed in
 * the background, apart from the halo. */
static void
test_badge (void)
{
  g_autoptr (GraftGraph) graph = load_resnet18 ();
  g_autoptr (GraftLayout) layout = graft_layout_new (graph, NULL);
  guint                  n = graft_layout_get_n_graph_nodes (layout);
  g_autofree gint       *marks = g_new (gint, n);
  const GraftLayoutNode *conv1 = box_of (layout, "conv1");
  double                 bx = conv1->box.x + conv1->box.width;
  double                 by = conv1->box.y;
  GraftRenderOptions     options;
  cairo_surface_t       *surface;

  for (guint i = 0; i < n; i++)
    marks[i] = -1;
  graft_render_options_init (&options);
  options.node_match = marks;

  /* Match 1 (the first colour): a disc; 10 points left of its centre
   * and 4 up, outside a disc of radius 7.5, is background. */
  marks[conv1->node_index] = 0;
  surface = draw (layout, 4, &options);
  g_assert_cmphex (pixel_at (surface, 4, bx - 10, by - 4), ==, BACKGROUND_RGB);
  g_assert_cmphex (pixel_at (surface, 4, bx, by - 8.2), ==, BACKGROUND_RGB);
  cairo_surface_destroy (surface);

  /* Match 1198, of the first colour again: a pill reaching there. */
  marks[conv1->node_index] = 1197;
  surface = draw (layout, 4, &options);
  g_assert_cmphex (pixel_at (surface, 4, bx - 10, by - 4), ==, FIRST_MATCH_RGB);
  cairo_surface_destroy (surface);

  /* Chosen: just outside the disc (8.1 points from its centre), over
   * the halo, the rim; farther out the halo. */
  marks[conv1->node_index] = 0;
  options.chosen_match = 0;
  surface = draw (layout, 4, &options);
  g_assert_cmphex (pixel_at (surface, 4, bx - 6, by - 5.5), ==, BACKGROUND_RGB);
  g_assert_cmphex (pixel_at (surface, 4, bx - 7, by - 7), !=, BACKGROUND_RGB);
  cairo_surface_destroy (surface);
  /* The current Find hit's too, and the rim is the badge's alone (it
   * was once joined by a line to where the caption was written). */
  options.chosen_match = -1;
  options.current = (gint) conv1->node_index;
  surface = draw (layout, 4, &options);
  g_assert_cmphex (pixel_at (surface, 4, bx - 6, by - 5.5), ==, BACKGROUND_RGB);
  g_assert_cmphex (pixel_at (surface, 4, bx - 7, by - 7), !=, BACKGROUND_RGB);
  for (double y = by + 3; y < by + conv1->box.height - 3; y += 0.25)
    for (double x = conv1->box.x + 3; x < bx - 3; x += 0.25)
      if ((x - bx) * (x - bx) + (y - by) * (y - by) > 10 * 10)
        g_assert_cmphex (pixel_at (surface, 4, x, y), !=, BACKGROUND_RGB);
  cairo_surface_destroy (surface);
}

/* A folded box of resnet18's overview with at least three nodes. */
static void
folded_layout (GraftGraph   *graph,
               GraftLayout **out_layout,
               guint        *out_box)
{
  g_autoptr (GraftScopes) scopes = graft_scopes_new (graph);
  g_autoptr (GHashTable) collapsed = graft_scopes_new_overview (scopes, 0);
  g_autoptr (GraftLayoutRequest) req = graft_layout_request_new_folded (graph, scopes, collapsed,
                                                                        NULL);
  g_autoptr (GError) error = NULL;
  GraftLayout *layout = graft_layout_request_run (req, &error);

  g_assert_no_error (error);
  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    if (graft_layout_get_node (layout, b)->n_members >= 3)
      {
        *out_layout = layout;
        *out_box = b;
        return;
      }
  g_assert_not_reached ();
}

static void
assert_label (GraftLayout *layout,
              const gint  *marks,
              guint        box,
              const char  *expected)
{
  g_autofree char *label = graft_render_dup_match_label (layout, marks, box);

  g_assert_cmpstr (label, ==, expected);
}

static void
test_fold_label (void)
{
  g_autoptr (GraftGraph) graph = load_resnet18 ();
  g_autoptr (GraftLayout) layout = NULL;
  guint            box;
  guint            n_members;
  const guint     *members;
  guint            n;
  g_autofree gint *marks = NULL;
  gint             node = -1;

  folded_layout (graph, &layout, &box);
  members = graft_layout_get_members (layout, box, &n_members);
  n = graft_layout_get_n_graph_nodes (layout);
  marks = g_new (gint, n);
  for (guint i = 0; i < n; i++)
    marks[i] = -1;
  assert_label (layout, NULL, box, NULL);
  assert_label (layout, marks, box, NULL);

  /* One match, however many of the fold's nodes it holds. */
  marks[members[0]] = 3;
  marks[members[2]] = 3;
  assert_label (layout, marks, box, "match 4");
  /* A run of matches, whatever their order in the graph. */
  marks[members[0]] = 716;
  marks[members[1]] = 714;
  marks[members[2]] = 715;
  assert_label (layout, marks, box, "matches 715\u2013717");
  /* A gap: only the count. */
  marks[members[0]] = 2;
  marks[members[1]] = 8;
  marks[members[2]] = 2;
  assert_label (layout, marks, box, "2 matches");

  /* A node's box: its number alone. */
  for (guint b = 0; b < graft_layout_get_n_nodes (layout) && node < 0; b++)
    if (graft_layout_get_node (layout, b)->n_members == 0 &&
        !graft_layout_get_node (layout, b)->is_stub)
      node = (gint) b;
  g_assert_cmpint (node, >=, 0);
  assert_label (layout, marks, (guint) node, NULL);
  marks[graft_layout_get_node (layout, (guint) node)->node_index] = 6;
  assert_label (layout, marks, (guint) node, "7");

  /* Drawn: the fold's badge is a pill wider than a number's disc. */
  {
    GraftRenderOptions options;
    cairo_surface_t   *surface;
    const GraftRect   *r = &graft_layout_get_node (layout, box)->box;

    for (guint i = 0; i < n; i++)
      marks[i] = -1;
    marks[members[0]] = 0;
    marks[members[1]] = 1;
    graft_render_options_init (&options);
    options.node_match = marks;
    surface = draw (layout, 1, &options);
    /* "matches 1–2" in the first match's colour reaches well left of
     * where a disc of radius 7.5 would end. */
    g_assert_cmphex (pixel_at (surface, 1, r->x + r->width - 20, r->y - 4), ==, FIRST_MATCH_RGB);
    cairo_surface_destroy (surface);
  }
}

static void
test_map_geometry (void)
{
  g_autoptr (GraftGraph) graph = load_resnet18 ();
  g_autoptr (GraftLayout) layout = graft_layout_new (graph, NULL);
  GraftMap map;
  double   width;
  double   height;
  double   x;
  double   y;

  graft_layout_get_size (layout, &width, &height);
  /* resnet18 is tall: a 200 x 200 map is 200 tall, in proportion. */
  g_assert_cmpfloat (height, >, 4 * width);
  graft_map_init (&map, layout, 200, 200, 10);
  g_assert_cmpfloat_with_epsilon (map.height, 200, 1e-9);
  g_assert_cmpfloat_with_epsilon (map.scale_x, map.scale_y, 1e-12);
  g_assert_cmpfloat (map.width, <=, 200);
  graft_map_to_layout (&map, map.width / 2, map.height / 4, &x, &y);
  g_assert_cmpfloat_with_epsilon (x, width / 2, 1e-6);
  g_assert_cmpfloat_with_epsilon (y, height / 4, 1e-6);
  graft_map_from_layout (&map, x, y, &x, &y);
  g_assert_cmpfloat_with_epsilon (x, map.width / 2, 1e-6);
  g_assert_cmpfloat_with_epsilon (y, map.height / 4, 1e-6);

  /* In proportion it would be thinner than 40: stretched across. */
  graft_map_init (&map, layout, 200, 40, 30);
  g_assert_cmpfloat_with_epsilon (map.height, 40, 1e-9);
  g_assert_cmpfloat_with_epsilon (map.width, 30, 1e-9);
  g_assert_cmpfloat (map.scale_x, >, map.scale_y);
}

static void
test_map_draw (void)
{
  g_autoptr (GraftGraph) graph = load_resnet18 ();
  g_autoptr (GraftLayout) layout = graft_layout_new (graph, NULL);
  guint                  n = graft_layout_get_n_graph_nodes (layout);
  g_autofree gint       *marks = g_new (gint, n);
  const GraftLayoutNode *conv1 = box_of (layout, "conv1");
  const GraftLayoutNode *fc = box_of (layout, "fc");
  GraftRenderOptions     options;
  GraftMap               map;

  for (guint i = 0; i < n; i++)
    marks[i] = -1;
  marks[conv1->node_index] = 0;
  marks[fc->node_index] = 1;
  graft_map_init (&map, layout, 60, 200, 20);
  graft_render_options_init (&options);

  for (int scale = 1; scale <= 2; scale++)
    {
      cairo_surface_t *surface = cairo_image_surface_create (
          CAIRO_FORMAT_ARGB32, (int) (map.width * scale) + 1, (int) (map.height * scale) + 1);
      cairo_t *cr = cairo_create (surface);

      cairo_scale (cr, scale, scale);
      options.node_match = NULL;
      options.chosen_match = -1;
      graft_map_draw (&map, layout, cr, &options);
      cairo_surface_flush (surface);
      g_assert_cmpuint (count_color (surface, FIRST_MATCH_RGB), ==, 0);
      g_assert_cmpuint (count_color (surface, BACKGROUND_RGB), >, 0);

      /* Each match shows, a box of a few points tall at least a pixel. */
      options.node_match = marks;
      graft_map_draw (&map, layout, cr, &options);
      cairo_surface_flush (surface);
      g_assert_cmpuint (count_color (surface, FIRST_MATCH_RGB), >, 0);
      g_assert_cmpuint (count_color (surface, SECOND_MATCH_RGB), >, 0);
      g_assert_cmpuint (count_color (surface, TEXT_RGB), ==, 0);

      /* The chosen one is rimmed in the text colour. */
      options.chosen_match = 1;
      graft_map_draw (&map, layout, cr, &options);
      cairo_surface_flush (surface);
      g_assert_cmpuint (count_color (surface, TEXT_RGB), >, 0);
      g_assert_cmpuint (count_color (surface, SECOND_MATCH_RGB), >, 0);
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/render/chosen-match", test_chosen_match);
  g_test_add_func ("/core/render/current-hit", test_current_hit);
  g_test_add_func ("/core/render/added-ring", test_added_ring);
  g_test_add_func ("/core/render/badge", test_badge);
  g_test_add_func ("/core/render/fold-label", test_fold_label);
  g_test_add_func ("/core/map/geometry", test_map_geometry);
  g_test_add_func ("/core/map/draw", test_map_draw);
  return g_test_run ();
}
