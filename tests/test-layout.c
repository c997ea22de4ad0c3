/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-layout.c: Graphviz layout and the cairo renderer.  Geometry sanity
 * on the example, the torchvision and aten corpora and synthetic graphs
 * large enough to be cut into segments (no two boxes overlap, every edge
 * leaves its source's box and ends at its user's box, every node lies
 * below its inputs, one box per node plus one stub per use of a hub); hit
 * testing; laying out left to right (edges point right, boxes keep their
 * size); layout on a worker thread; and the files the renderer writes:
 * the example's PNG shows its two matches in two colours, PNG/SVG/PDF
 * files are accepted by their own readers.
 */
#include "config.h"

#include "graft-view.h"
#include "test-util.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#define TOLERANCE 3.0

/* Match colours, as graft-palette-private.h defines them (Okabe-Ito). */
#define FIRST_MATCH_RGB  0xe69f00
#define SECOND_MATCH_RGB 0x0072b2
#define THIRD_MATCH_RGB  0x009e73

static char *
example_path (void)
{
  return g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "data", "examples",
                           "subgraph_rewriter_basic_use.py", NULL);
}

static GraftNode *
add_call (GraftGraph *graph,
          const char *target,
          GraftNode  *a,
          GraftNode  *b)
{
  GraftArg args;

  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, b != NULL ? 2 : 1);
  graft_arg_init_node (&args.items[0], a);
  if (b != NULL)
    graft_arg_init_node (&args.items[1], b);
  return graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, graft_graph_intern (graph, target),
                                  &args, NULL, NULL, NULL);
}

/* A chain of @n calls shaped like a real model: a residual add every 8
 * nodes, a long skip every 300 (which crosses more than one segment), and
 * with @hubs, a weight read by every tenth node. */
static GraftGraph *
make_synthetic (guint    n,
                gboolean hubs)
{
  GraftGraph *graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  g_autoptr (GPtrArray) nodes = g_ptr_array_new ();
  GraftNode *x = graft_graph_create_node (graph, GRAFT_OP_PLACEHOLDER, "x", NULL, NULL, "x", NULL);
  GraftNode *w = graft_graph_create_node (graph, GRAFT_OP_PLACEHOLDER, "w", NULL, NULL, "w", NULL);
  GraftNode *prev = x;
  GraftArg   out;

  for (guint i = 0; i < n; i++)
    {
      if (i % 300 == 299 && i >= 450)
        prev = add_call (graph, "operator.add", prev, nodes->pdata[i - 450]);
      else if (i % 8 == 7)
        prev = add_call (graph, "operator.add", prev, nodes->pdata[i - 7]);
      else if (hubs && i % 10 == 3)
        prev = add_call (graph, "operator.mul", prev, w);
      else
        prev = add_call (graph, "torch.relu", prev, NULL);
      g_ptr_array_add (nodes, prev);
    }
  graft_arg_init_seq (&out, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&out.items[0], prev);
  graft_graph_create_node (graph, GRAFT_OP_OUTPUT, "output", &out, NULL, "output", NULL);
  return graph;
}

static double
distance_to_box (GraftPoint       p,
                 const GraftRect *r)
{
  double dx = MAX (MAX (r->x - p.x, 0), p.x - (r->x + r->width));
  double dy = MAX (MAX (r->y - p.y, 0), p.y - (r->y + r->height));

  return sqrt (dx * dx + dy * dy);
}

static gboolean
boxes_overlap (const GraftRect *a,
               const GraftRect *b)
{
  return a->x < b->x + b->width && b->x < a->x + a->width &&
         a->y < b->y + b->height && b->y < a->y + a->height;
}

/* The checks every layout must pass.  @downward: the graph is in
 * topological order, so every edge must point down. */
static void
check_geometry (GraftLayout *layout,
                GraftGraph  *graph,
                gboolean     downward)
{
  guint             n_boxes = graft_layout_get_n_nodes (layout);
  guint             n_graph = graft_graph_get_n_nodes (graph);
  g_autofree guint *mains = g_new0 (guint, MAX (n_graph, 1));
  g_autofree guint *order = g_new0 (guint, MAX (n_boxes, 1));
  double            width;
  double            height;
  guint             n_edges_expected = 0;
  guint             i = 0;

  graft_layout_get_size (layout, &width, &height);
  g_assert_cmpuint (graft_layout_get_n_graph_nodes (layout), ==, n_graph);

  /* One main box per graph node, in graph order, named after it. */
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node), i++)
    {
      gint box = graft_layout_lookup (layout, i);
      g_autoptr (GPtrArray) inputs = graft_node_dup_input_nodes (node);

      g_assert_cmpint (box, >=, 0);
      g_assert_cmpstr (graft_layout_get_node (layout, box)->name, ==, graft_node_get_name (node));
      g_assert_false (graft_layout_get_node (layout, box)->is_stub);
      g_assert_cmpint (graft_layout_find_node (layout, graft_node_get_name (node)), ==, box);
      n_edges_expected += inputs->len;
    }
  /* The names looked up together: each its place in graph order, in any
   * order of asking, twice over, and a name of no node -1. */
  {
    g_autoptr (GPtrArray) names = g_ptr_array_new ();
    g_autofree gint *at = NULL;

    for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
         node = graft_node_get_next (node))
      g_ptr_array_add (names, (gpointer) graft_node_get_name (node));
    for (guint k = n_graph; k-- > 0;)
      g_ptr_array_add (names, names->pdata[k]);
    g_ptr_array_add (names, (gpointer) "no_such_node");
    at = g_new (gint, names->len);
    graft_layout_find_graph_nodes (layout, (const char *const *) names->pdata, names->len, at);
    for (guint k = 0; k < n_graph; k++)
      {
        g_assert_cmpint (at[k], ==, (gint) k);
        g_assert_cmpint (at[2 * n_graph - 1 - k], ==, (gint) k);
      }
    g_assert_cmpint (at[2 * n_graph], ==, -1);
  }
  for (guint b = 0; b < n_boxes; b++)
    if (!graft_layout_get_node (layout, b)->is_stub)
      mains[graft_layout_get_node (layout, b)->node_index]++;
  for (guint k = 0; k < n_graph; k++)
    g_assert_cmpuint (mains[k], ==, 1);
  g_assert_cmpuint (graft_layout_get_n_edges (layout), ==, n_edges_expected);

  /* Inside the drawing, no overlaps (sweep over boxes sorted by top). */
  for (guint b = 0; b < n_boxes; b++)
    {
      const GraftRect *r = &graft_layout_get_node (layout, b)->box;

      g_assert_cmpfloat (r->x, >=, 0);
      g_assert_cmpfloat (r->y, >=, 0);
      g_assert_cmpfloat (r->x + r->width, <=, width + 0.01);
      g_assert_cmpfloat (r->y + r->height, <=, height + 0.01);
      g_assert_cmpfloat (r->width, >, 0);
      order[b] = b;
    }
  for (guint a = 0; a < n_boxes; a++)
    {
      const GraftRect *ra = &graft_layout_get_node (layout, a)->box;

      for (guint b = a + 1; b < n_boxes; b++)
        {
          const GraftRect *rb = &graft_layout_get_node (layout, b)->box;

          if (boxes_overlap (ra, rb))
            g_error ("boxes %s and %s overlap", graft_layout_get_node (layout, a)->name,
                     graft_layout_get_node (layout, b)->name);
        }
    }

  /* Edges run from the tail's box to the head's box, downwards. */
  for (guint e = 0; e < graft_layout_get_n_edges (layout); e++)
    {
      const GraftLayoutEdge *edge = graft_layout_get_edge (layout, e);
      const GraftRect       *tail = &graft_layout_get_node (layout, edge->tail)->box;
      const GraftRect       *head = &graft_layout_get_node (layout, edge->head)->box;

      g_assert_cmpuint (edge->n_points, >=, 4);
      g_assert_cmpuint ((edge->n_points - 1) % 3, ==, 0);
      g_assert_cmpfloat (distance_to_box (edge->points[0], tail), <=, TOLERANCE);
      g_assert_cmpfloat (distance_to_box (edge->arrow_tip, head), <=, TOLERANCE);
      if (downward)
        g_assert_cmpfloat (tail->y + tail->height, <, head->y);
      /* Control points may stray outside; the curve's ends may not. */
      for (guint k = 0; k < edge->n_points; k++)
        {
          g_assert_true (isfinite (edge->points[k].x) && isfinite (edge->points[k].y));
          if (k % 3 == 0)
            {
              g_assert_cmpfloat (edge->points[k].x, >=, -1);
              g_assert_cmpfloat (edge->points[k].x, <=, width + 1);
              g_assert_cmpfloat (edge->points[k].y, >=, -1);
              g_assert_cmpfloat (edge->points[k].y, <=, height + 1);
            }
        }
    }
}

static void
test_example_geometry (void)
{
  g_autofree char *path = example_path ();
  g_autoptr (GraftGraph) graph = test_load_graph (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftLayout) layout = graft_layout_new (graph, &error);

  g_assert_no_error (error);
  check_geometry (layout, graph, TRUE);
  /* Small graph: one segment, no stubs (w1 feeds two nodes). */
  g_assert_cmpuint (graft_layout_get_n_segments (layout), ==, 1);
  g_assert_cmpuint (graft_layout_get_n_nodes (layout), ==, graft_graph_get_n_nodes (graph));
  g_assert_cmpstr (graft_layout_get_node (layout, graft_layout_find_node (layout, "cat"))->caption,
                   ==, "torch.cat");
  g_assert_cmpstr (graft_layout_get_node (layout, graft_layout_find_node (layout, "sum_1"))
                       ->caption,
                   ==, ".sum()");
  g_assert_cmpstr (graft_layout_get_node (layout, graft_layout_find_node (layout, "x"))->caption,
                   ==, "input");
  g_assert_cmpint (graft_layout_find_node (layout, "no_such_node"), ==, -1);
}

static void
test_corpus_geometry (gconstpointer data)
{
  const char *path = data;
  g_autoptr (GraftGraph) graph = test_load_graph (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftLayout) layout = graft_layout_new (graph, &error);

  g_assert_no_error (error);
  check_geometry (layout, graph, TRUE);
}

/* Every edge runs from left to right, and each box has the size it has
 * top to bottom. */
static void
check_left_to_right (GraftLayout *layout,
                     GraftLayout *top_down)
{
  double width;
  double height;
  double tb_width;
  double tb_height;

  g_assert_cmpuint (graft_layout_get_n_nodes (layout), ==, graft_layout_get_n_nodes (top_down));
  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    {
      const GraftRect *r = &graft_layout_get_node (layout, b)->box;
      const GraftRect *t = &graft_layout_get_node (top_down, b)->box;

      g_assert_cmpfloat_with_epsilon (r->width, t->width, 0.01);
      g_assert_cmpfloat_with_epsilon (r->height, t->height, 0.01);
    }
  for (guint e = 0; e < graft_layout_get_n_edges (layout); e++)
    {
      const GraftLayoutEdge *edge = graft_layout_get_edge (layout, e);
      const GraftRect       *tail = &graft_layout_get_node (layout, edge->tail)->box;
      const GraftRect       *head = &graft_layout_get_node (layout, edge->head)->box;

      g_assert_cmpfloat (tail->x + tail->width, <, head->x);
    }
  /* A long chain is wide, not tall. */
  graft_layout_get_size (layout, &width, &height);
  graft_layout_get_size (top_down, &tb_width, &tb_height);
  g_assert_cmpfloat (width / height, >, tb_width / tb_height);
}

/* rankdir=LR: the example, and a graph cut into segments (they run left
 * to right, the lanes between distant ones above the drawing). */
static void
test_left_to_right (void)
{
  g_autofree char *path = example_path ();
  GraftGraph      *graphs[2] = { test_load_graph (path), make_synthetic (1500, TRUE) };

  for (guint i = 0; i < G_N_ELEMENTS (graphs); i++)
    {
      g_autoptr (GraftLayoutRequest) request = graft_layout_request_new (graphs[i]);
      g_autoptr (GraftLayout) top_down = graft_layout_new (graphs[i], NULL);
      g_autoptr (GraftLayout) layout = NULL;
      g_autoptr (GError) error = NULL;

      graft_layout_request_set_direction (request, GRAFT_LAYOUT_LEFT_TO_RIGHT);
      layout = graft_layout_request_run (request, &error);
      g_assert_no_error (error);
      check_geometry (layout, graphs[i], FALSE);
      check_left_to_right (layout, top_down);
      g_assert_cmpuint (graft_layout_get_n_segments (layout), ==,
                        graft_layout_get_n_segments (top_down));
      graft_graph_free (graphs[i]);
    }
}

static void
test_segments (void)
{
  g_autoptr (GraftGraph) graph = make_synthetic (1500, TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftLayout) layout = graft_layout_new (graph, &error);
  guint n_stubs = 0;

  g_assert_no_error (error);
  check_geometry (layout, graph, TRUE);
  g_assert_cmpuint (graft_layout_get_n_segments (layout), >=, 5);
  /* `w` feeds over 100 nodes: a stub beside each, its own box unconnected. */
  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    if (graft_layout_get_node (layout, b)->is_stub)
      {
        g_assert_cmpstr (graft_layout_get_node (layout, b)->name, ==, "w");
        n_stubs++;
      }
  g_assert_cmpuint (n_stubs, ==, graft_node_get_n_users (graft_graph_find_node (graph, "w")));
  g_assert_cmpuint (n_stubs, >, 100);
  for (guint e = 0; e < graft_layout_get_n_edges (layout); e++)
    g_assert_cmpint (graft_layout_get_edge (layout, e)->tail, !=,
                     graft_layout_find_node (layout, "w"));
}

/* A computed value used by 600 nodes keeps its edges to the users right
 * after it; the others get stubs, as inputs do. */
static void
test_computed_hub (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  g_autoptr (GraftLayout) layout = NULL;
  g_autoptr (GError) error = NULL;
  GraftNode *x = graft_graph_create_node (graph, GRAFT_OP_PLACEHOLDER, "x", NULL, NULL, "x", NULL);
  GraftNode *hub = add_call (graph, "torch.relu", x, NULL);
  GraftNode *prev = hub;
  GraftArg   out;

  for (guint i = 0; i < 600; i++)
    prev = add_call (graph, "operator.add", prev, hub);
  graft_arg_init_seq (&out, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&out.items[0], prev);
  graft_graph_create_node (graph, GRAFT_OP_OUTPUT, "output", &out, NULL, "output", NULL);

  layout = graft_layout_new (graph, &error);
  g_assert_no_error (error);
  check_geometry (layout, graph, TRUE);
  g_assert_cmpuint (graft_layout_get_n_segments (layout), >, 1);
  /* The first user of `relu` is the chain's first add, 12 more follow
   * close enough for an edge. */
  g_assert_cmpuint (graft_layout_get_n_nodes (layout), ==,
                    graft_graph_get_n_nodes (graph) + 600 - 12);
  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    if (graft_layout_get_node (layout, b)->is_stub)
      g_assert_cmpstr (graft_layout_get_node (layout, b)->name, ==, graft_node_get_name (hub));
}

static void
test_hit_test (void)
{
  g_autoptr (GraftGraph) graph = make_synthetic (400, TRUE);
  g_autoptr (GraftLayout) layout = graft_layout_new (graph, NULL);
  double width;
  double height;

  g_assert_nonnull (layout);
  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    {
      const GraftRect *r = &graft_layout_get_node (layout, b)->box;

      g_assert_cmpint (graft_layout_hit_test (layout, r->x + r->width / 2, r->y + r->height / 2),
                       ==, b);
      g_assert_cmpint (graft_layout_hit_test (layout, r->x + 1, r->y + 1), ==, b);
    }
  graft_layout_get_size (layout, &width, &height);
  g_assert_cmpint (graft_layout_hit_test (layout, -5, -5), ==, -1);
  g_assert_cmpint (graft_layout_hit_test (layout, width + 5, height / 2), ==, -1);
}

static gpointer
run_request_cb (gpointer data)
{
  return graft_layout_request_run (data, NULL);
}

static void
assert_same_layout (GraftLayout *a,
                    GraftLayout *b)
{
  g_assert_cmpuint (graft_layout_get_n_nodes (a), ==, graft_layout_get_n_nodes (b));
  g_assert_cmpuint (graft_layout_get_n_edges (a), ==, graft_layout_get_n_edges (b));
  for (guint i = 0; i < graft_layout_get_n_nodes (a); i++)
    g_assert_true (memcmp (&graft_layout_get_node (a, i)->box, &graft_layout_get_node (b, i)->box,
                           sizeof (GraftRect)) == 0);
  for (guint i = 0; i < graft_layout_get_n_edges (a); i++)
    {
      const GraftLayoutEdge *ea = graft_layout_get_edge (a, i);
      const GraftLayoutEdge *eb = graft_layout_get_edge (b, i);

      g_assert_cmpuint (ea->n_points, ==, eb->n_points);
      g_assert_true (memcmp (ea->points, eb->points, ea->n_points * sizeof (GraftPoint)) == 0);
    }
}

/* The editor's way: copy on the graph's thread, lay out on workers, two
 * at once (Graphviz calls are serialised inside), and free the graph
 * meanwhile.  The result is the same as laying out in one call. */
static void
test_worker_thread (void)
{
  g_autoptr (GraftGraph) graph = make_synthetic (600, TRUE);
  g_autoptr (GraftLayout) direct = graft_layout_new (graph, NULL);
  g_autoptr (GraftLayoutRequest) req1 = graft_layout_request_new (graph);
  g_autoptr (GraftLayoutRequest) req2 = graft_layout_request_new (graph);
  g_autoptr (GraftLayout) from1 = NULL;
  g_autoptr (GraftLayout) from2 = NULL;
  GThread *t1;
  GThread *t2;

  g_clear_pointer (&graph, graft_graph_free);
  t1 = g_thread_new ("layout-1", run_request_cb, req1);
  t2 = g_thread_new ("layout-2", run_request_cb, req2);
  from1 = g_thread_join (t1);
  from2 = g_thread_join (t2);
  g_assert_nonnull (from1);
  g_assert_nonnull (from2);
  assert_same_layout (direct, from1);
  assert_same_layout (direct, from2);
}

/* A cancelled request stops before laying out, with G_IO_ERROR_CANCELLED. */
static void
test_cancel (void)
{
  g_autoptr (GraftGraph) graph = make_synthetic (600, TRUE);
  g_autoptr (GraftLayoutRequest) req = graft_layout_request_new (graph);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftLayout) layout = NULL;

  graft_layout_request_set_cancellable (req, cancellable);
  g_cancellable_cancel (cancellable);
  layout = graft_layout_request_run (req, &error);
  g_assert_null (layout);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
test_too_large (void)
{
  g_autoptr (GraftGraph) graph = make_synthetic (GRAFT_MAX_LAYOUT_NODES + 10, FALSE);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftLayout) layout = graft_layout_new (graph, &error);

  g_autoptr (GError) checked = NULL;
  guint            n = graft_graph_get_n_nodes (graph);
  g_autofree char *message =
      g_strdup_printf ("the graph has %u nodes; graft draws at most %u", n, GRAFT_MAX_LAYOUT_NODES);

  g_assert_null (layout);
  g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_LIMIT);
  g_assert_cmpstr (error->message, ==, message);
  /* The same refusal, asked before a request is made (an export of the
   * whole graph). */
  g_assert_true (graft_layout_check_n_nodes (GRAFT_MAX_LAYOUT_NODES, NULL));
  g_assert_false (graft_layout_check_n_nodes (n, &checked));
  g_assert_error (checked, GRAFT_ERROR, GRAFT_ERROR_LIMIT);
  g_assert_cmpstr (checked->message, ==, error->message);
}

/* Counts the pixels of a PNG that have exactly the colour @rgb. */
static guint
count_pixels (GBytes  *png,
              guint32  rgb,
              guint32 *out_corner)
{
  gsize            size;
  gconstpointer    bytes = g_bytes_get_data (png, &size);
  cairo_surface_t *surface = test_png_read (bytes, size);
  guint            count = 0;
  int              width;
  int              height;
  int              stride;
  const guint8    *data;

  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  width = cairo_image_surface_get_width (surface);
  height = cairo_image_surface_get_height (surface);
  stride = cairo_image_surface_get_stride (surface);
  data = cairo_image_surface_get_data (surface);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        guint32 px = *(const guint32 *) (gconstpointer) (data + y * stride + x * 4);

        if ((px & 0xffffff) == rgb && (px >> 24) == 0xff)
          count++;
      }
  if (out_corner != NULL)
    *out_corner = *(const guint32 *) (gconstpointer) data & 0xffffff;
  cairo_surface_destroy (surface);
  return count;
}

static GBytes *
render_example (GraftFormat      format,
                gboolean         with_matches,
                GraftRenderStyle style)
{
  g_autofree char *path = example_path ();
  g_autoptr (GraftInputSet) set = graft_input_set_new (graft_dialect_get (GRAFT_TORCH_1_13));
  g_autoptr (GraftGraph) graph = graft_input_set_load (set, path, NULL, FALSE, NULL);
  g_autoptr (GraftLayout) layout = graft_layout_new (graph, NULL);
  g_autofree gint *marks = NULL;
  g_autoptr (GError) error = NULL;
  GraftRenderOptions options;
  GBytes            *bytes;

  g_assert_nonnull (layout);
  graft_render_options_init (&options);
  options.style = style;
  if (with_matches)
    {
      g_autoptr (GraftGraph) pattern_graph =
          graft_input_set_load (set, path, "pattern", TRUE, NULL);
      g_autoptr (GraftPattern) pattern = graft_pattern_new (g_steal_pointer (&pattern_graph), NULL);
      g_autoptr (GPtrArray) matches = graft_matcher_find (pattern, graph, NULL, NULL);

      g_assert_cmpuint (matches->len, ==, 2);
      marks = graft_matches_dup_node_marks (matches, graph);
      options.node_match = marks;
    }
  bytes = graft_render_to_bytes (layout, format, &options, &error);
  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  return bytes;
}

/* The example's picture shows two matches, each in its own colour, and no
 * third; without a pattern, neither colour appears. */
static void
test_png_matches (void)
{
  g_autoptr (GBytes) with = render_example (GRAFT_FORMAT_PNG, TRUE, GRAFT_RENDER_LIGHT);
  g_autoptr (GBytes) without = render_example (GRAFT_FORMAT_PNG, FALSE, GRAFT_RENDER_LIGHT);
  g_autoptr (GBytes) dark = render_example (GRAFT_FORMAT_PNG, TRUE, GRAFT_RENDER_DARK);
  guint32 corner = 0;

  g_assert_cmpuint (count_pixels (with, FIRST_MATCH_RGB, &corner), >, 500);
  g_assert_cmpuint (corner, ==, 0xfafafa);
  g_assert_cmpuint (count_pixels (with, SECOND_MATCH_RGB, NULL), >, 500);
  g_assert_cmpuint (count_pixels (with, THIRD_MATCH_RGB, NULL), ==, 0);
  g_assert_cmpuint (count_pixels (without, FIRST_MATCH_RGB, NULL), ==, 0);
  g_assert_cmpuint (count_pixels (without, SECOND_MATCH_RGB, NULL), ==, 0);
  g_assert_cmpuint (count_pixels (dark, FIRST_MATCH_RGB, &corner), >, 500);
  g_assert_cmpuint (corner, ==, 0x1e1e1e);
}

/* The graphs before and after a change: removed nodes drawn in red, added
 * ones in green, rewired ones in amber; none of it without changes. */
static void
test_png_changes (void)
{
  g_autofree char *path = example_path ();
  g_autoptr (GraftInputSet) set = graft_input_set_new (graft_dialect_get (GRAFT_TORCH_1_13));
  g_autoptr (GraftGraph) graph = graft_input_set_load (set, path, NULL, FALSE, NULL);
  g_autoptr (GraftLayout) layout = graft_layout_new (graph, NULL);
  g_autofree guint8 *change = g_new0 (guint8, graft_graph_get_n_nodes (graph));
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) plain = NULL;
  g_autoptr (GBytes) marked = NULL;
  GraftRenderOptions options;
  guint              i = 0;

  g_assert_nonnull (layout);
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node), i++)
    {
      if (g_str_equal (graft_node_get_name (node), "neg"))
        change[i] = GRAFT_CHANGE_REMOVED;
      else if (g_str_equal (graft_node_get_name (node), "cat"))
        change[i] = GRAFT_CHANGE_ADDED;
      else if (g_str_equal (graft_node_get_name (node), "max_1"))
        change[i] = GRAFT_CHANGE_REWIRED;
    }
  graft_render_options_init (&options);
  plain = graft_render_to_bytes (layout, GRAFT_FORMAT_PNG, &options, &error);
  g_assert_no_error (error);
  options.node_change = change;
  marked = graft_render_to_bytes (layout, GRAFT_FORMAT_PNG, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_pixels (marked, 0xc01c28, NULL), >, 100);
  g_assert_cmpuint (count_pixels (marked, 0x26a269, NULL), >, 100);
  g_assert_cmpuint (count_pixels (marked, 0xc64600, NULL), >, 50);
  g_assert_cmpuint (count_pixels (plain, 0xc01c28, NULL), ==, 0);
  g_assert_cmpuint (count_pixels (plain, 0x26a269, NULL), ==, 0);
  g_assert_cmpuint (count_pixels (plain, 0xc64600, NULL), ==, 0);
}

static void
test_svg_parses (void)
{
  g_autoptr (GBytes) svg = render_example (GRAFT_FORMAT_SVG, TRUE, GRAFT_RENDER_LIGHT);
  g_autoptr (GMarkupParseContext) context = NULL;
  g_autoptr (GError) error = NULL;
  static const GMarkupParser parser = { NULL, NULL, NULL, NULL, NULL };
  gsize                      size;
  const char                *text = g_bytes_get_data (svg, &size);

  g_assert_true (g_str_has_prefix (text, "<?xml"));
  g_assert_nonnull (g_strstr_len (text, (gssize) size, "<svg"));
  context = g_markup_parse_context_new (&parser, 0, NULL, NULL);
  g_assert_true (g_markup_parse_context_parse (context, text, (gssize) size, &error));
  g_assert_true (g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
}

static void
test_pdf (void)
{
  g_autoptr (GBytes) pdf = render_example (GRAFT_FORMAT_PDF, TRUE, GRAFT_RENDER_LIGHT);
  g_autofree char *pdfinfo = g_find_program_in_path ("pdfinfo");
  g_autoptr (GError) error = NULL;
  gsize       size;
  const char *data = g_bytes_get_data (pdf, &size);

  g_assert_cmpuint (size, >, 100);
  g_assert_true (memcmp (data, "%PDF", 4) == 0);
  if (pdfinfo != NULL)
    {
      g_autofree char *tmp = NULL;
      g_autofree char *out = NULL;
      char            *argv[] = { pdfinfo, NULL, NULL };
      int              fd = g_file_open_tmp ("graft-XXXXXX.pdf", &tmp, &error);
      int              status = 0;

      g_assert_no_error (error);
      close (fd);
      g_assert_true (g_file_set_contents (tmp, data, (gssize) size, &error));
      argv[1] = tmp;
      g_assert_true (g_spawn_sync (NULL, argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out,
                                   NULL, &status, &error));
      g_assert_no_error (error);
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      g_assert_nonnull (strstr (out, "Pages:"));
      g_remove (tmp);
    }
}

/* A drawing taller than cairo's 32,767-pixel images is scaled to fit. */
static void
test_png_large (void)
{
  g_autoptr (GraftGraph) graph = make_synthetic (1200, TRUE);
  g_autoptr (GraftLayout) layout = graft_layout_new (graph, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) png = NULL;
  double           height;
  cairo_surface_t *surface;
  gconstpointer    data;
  gsize            size;

  graft_layout_get_size (layout, NULL, &height);
  g_assert_cmpfloat (height * 2, >, 32767);
  png = graft_render_to_bytes (layout, GRAFT_FORMAT_PNG, NULL, &error);
  g_assert_no_error (error);
  data = g_bytes_get_data (png, &size);
  surface = test_png_read (data, size);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_height (surface), <=, 32000);
  cairo_surface_destroy (surface);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
add_corpus (const char *dir,
            const char *suffix)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", dir, NULL);
  g_autoptr (GDir) d = g_dir_open (path, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, suffix))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      const char      *file = g_ptr_array_index (names, i);
      g_autofree char *test_path = g_strdup_printf ("/core/layout/corpus/%s/%s", dir, file);

      g_test_add_data_func_full (test_path, test_data_path (dir, file), test_corpus_geometry,
                                 g_free);
    }
}

/* Modules ---------------------------------------------------------------- */

/* tests/data/@dir/@file in @torch's dialect. */
static GraftGraph *
load_model (const char *dir,
            const char *file,
            GraftTorch  torch)
{
  g_autofree char *path = test_data_path (dir, file);

  return test_load_graph_as (path, torch);
}

static guint
node_index (GraftGraph *graph,
            const char *name)
{
  guint i = 0;

  for (GraftNode *n = graft_graph_get_first (graph); n != NULL; n = graft_node_get_next (n), i++)
    if (strcmp (graft_node_get_name (n), name) == 0)
      return i;
  g_assert_not_reached ();
  return 0;
}

static gboolean
rect_holds (const GraftRect *outer,
            const GraftRect *inner)
{
  return inner->x >= outer->x - 0.5 && inner->y >= outer->y - 0.5 &&
         inner->x + inner->width <= outer->x + outer->width + 0.5 &&
         inner->y + inner->height <= outer->y + outer->height + 0.5;
}

/* Lays @graph out folded as @collapsed says and checks the folding: every
 * folded box holds exactly the nodes of its module at any depth (a module
 * folds whole), every module that is open and can fold has a frame
 * labelled with its path that holds the boxes of what it holds, frames
 * nest inside the frames of the modules that hold them, and a box's or
 * frame's control says what it folds or opens.  Returns the layout. */
static GraftLayout *
check_modules (GraftGraph  *graph,
               GraftScopes *scopes,
               GHashTable  *collapsed)
{
  g_autoptr (GraftLayoutRequest) req =
      graft_layout_request_new_folded (graph, scopes, collapsed, NULL);
  g_autoptr (GError) error = NULL;
  GraftLayout *layout = graft_layout_request_run (req, &error);
  g_autoptr (GHashTable) framed = g_hash_table_new (g_str_hash, g_str_equal);

  g_assert_no_error (error);
  for (guint f = 0; f < graft_layout_get_n_frames (layout); f++)
    {
      const GraftLayoutFrame *frame = graft_layout_get_frame (layout, f);
      const char             *outer = graft_scopes_get_outer (scopes, frame->scope);
      GraftRect               control;
      const char             *scope = NULL;
      gboolean                expand = TRUE;

      g_assert_true (g_str_has_prefix (frame->label, frame->scope));
      g_assert_false (g_hash_table_contains (collapsed, frame->scope));
      g_hash_table_add (framed, (gpointer) frame->scope);
      /* Inside the frame of the module that holds it, in the same
       * segment (a frame comes after the frames that hold it). */
      if (outer != NULL)
        {
          gboolean inside = FALSE;

          for (guint o = 0; o < f && !inside; o++)
            inside = strcmp (graft_layout_get_frame (layout, o)->scope, outer) == 0 &&
                     rect_holds (&graft_layout_get_frame (layout, o)->box, &frame->box);
          g_assert_true (inside);
        }
      graft_layout_get_frame_control (frame, &control);
      g_assert_true (rect_holds (&frame->box, &control));
      g_assert_true (graft_layout_hit_control (layout, control.x + control.width / 2,
                                               control.y + control.height / 2, &scope, &expand));
      g_assert_cmpstr (scope, ==, frame->scope);
      g_assert_false (expand);
    }
  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    {
      const GraftLayoutNode *box = graft_layout_get_node (layout, b);
      const char            *frame_scope;
      gboolean               inside = FALSE;

      if (box->is_stub)
        continue;
      if (box->n_members > 0)
        {
          GraftRect   control;
          const char *scope = NULL;
          gboolean    expand = FALSE;

          g_assert_true (g_hash_table_contains (collapsed, box->name));
          g_assert_cmpuint (box->n_members, ==, graft_scopes_count_nodes (scopes, box->name));
          g_assert_true (graft_layout_get_box_control (layout, b, &control));
          g_assert_true (graft_layout_hit_control (layout, control.x + 1, control.y + 1, &scope,
                                                   &expand));
          g_assert_cmpstr (scope, ==, box->name);
          g_assert_true (expand);
          frame_scope = graft_scopes_get_outer (scopes, box->name);
        }
      else
        frame_scope = graft_scopes_get_innermost (scopes, box->node_index);
      if (frame_scope == NULL)
        continue;
      for (guint f = 0; f < graft_layout_get_n_frames (layout) && !inside; f++)
        inside = strcmp (graft_layout_get_frame (layout, f)->scope, frame_scope) == 0 &&
                 rect_holds (&graft_layout_get_frame (layout, f)->box, &box->box);
      g_assert_true (inside);
    }
  return layout;
}

/* Folding at a depth folds every module at that depth, and only those,
 * and draws as many boxes as graft_scopes_count_boxes_at() says. */
static void
check_depth (GraftGraph  *graph,
             GraftScopes *scopes,
             guint        depth)
{
  g_autoptr (GHashTable) collapsed = graft_scopes_new_folded_at (scopes, depth);
  g_autoptr (GraftLayout) layout = check_modules (graph, scopes, collapsed);
  GHashTableIter iter;
  gpointer       key;
  guint          boxes = 0;

  g_hash_table_iter_init (&iter, collapsed);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_assert_cmpuint (graft_scopes_get_depth (scopes, key), ==, depth);
  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    boxes += !graft_layout_get_node (layout, b)->is_stub;
  g_assert_cmpuint (boxes, ==, graft_scopes_count_boxes_at (scopes, depth));
}

/* resnet50: Collapse Modules folds layer1 to layer4 whole; one level
 * deeper, every block of every layer is a box (layer2 no longer splits
 * from layer1), inside a frame labelled with its layer; each block's add
 * is in its block. */
static void
test_modules_resnet50 (void)
{
  g_autoptr (GraftGraph) graph = load_model ("torchvision", "resnet50.py", GRAFT_TORCH_1_13);
  g_autoptr (GraftScopes) scopes = graft_scopes_new (graph);
  g_autoptr (GHashTable) top = NULL;
  g_autoptr (GraftLayout) layout = NULL;
  static const char *const layers[] = { "layer1", "layer2", "layer3", "layer4" };

  g_assert_cmpuint (graft_scopes_get_top_depth (scopes), ==, 1);
  top = graft_scopes_new_folded_at (scopes, 1);
  g_assert_cmpuint (g_hash_table_size (top), ==, 4);
  for (guint i = 0; i < G_N_ELEMENTS (layers); i++)
    g_assert_true (g_hash_table_contains (top, layers[i]));
  g_assert_cmpstr (graft_scopes_get_node_scope (scopes, node_index (graph, "add")), ==, "layer1.0");
  g_assert_cmpstr (graft_scopes_get_node_scope (scopes, node_index (graph, "add_4")), ==,
                   "layer2.1");
  g_assert_cmpstr (graft_scopes_get_node_scope (scopes, node_index (graph, "flatten")), ==, "");
  for (guint d = 1; d <= graft_scopes_get_n_depths (scopes); d++)
    check_depth (graph, scopes, d);

  /* Expand One Level from the top: the four layers framed, their 16
   * blocks folded. */
  graft_scopes_expand_level (scopes, top);
  g_assert_cmpuint (g_hash_table_size (top), ==, 16);
  layout = check_modules (graph, scopes, top);
  g_assert_cmpuint (graft_layout_get_n_frames (layout), ==, 4);
  g_assert_cmpstr (graft_layout_get_frame (layout, 1)->label, ==, "layer2");
  g_assert_cmpint (graft_layout_find_node (layout, "layer2_0_conv1"), ==,
                   graft_layout_find_node (layout, "layer2_0_relu_2"));
}

/* densenet121: the `cat` that joins the earlier features before each
 * dense layer is in that layer, so all 58 dense layers hold seven nodes
 * and fold alike; all modules sit in `features`, so the top level is the
 * one inside it. */
static void
test_modules_densenet121 (void)
{
  g_autoptr (GraftGraph) graph = load_model ("torchvision", "densenet121.py", GRAFT_TORCH_1_13);
  g_autoptr (GraftScopes) scopes = graft_scopes_new (graph);
  g_autoptr (GHashTable) top = NULL;
  static const guint layers[] = { 6, 12, 24, 16 };
  guint              i = 0;

  /* Every cat is in a block but the last: the flat code cannot tell that
   * it ended denseblock4 rather than started `features`' norm5, and the
   * rule puts code that prepares a module's input with that module. */
  for (GraftNode *n = graft_graph_get_first (graph); n != NULL; n = graft_node_get_next (n), i++)
    if (g_str_has_prefix (graft_node_get_name (n), "cat") &&
        strcmp (graft_node_get_name (n), "cat_61") != 0)
      g_assert_true (g_str_has_prefix (graft_scopes_get_node_scope (scopes, i), "features."));
  g_assert_cmpstr (graft_scopes_get_node_scope (scopes, node_index (graph, "cat_61")), ==,
                   "features");
  g_assert_cmpstr (graft_scopes_get_node_scope (scopes, node_index (graph, "cat")), ==,
                   "features.denseblock1.denselayer1");
  g_assert_cmpstr (graft_scopes_get_node_scope (scopes, node_index (graph, "cat_7")), ==,
                   "features.denseblock2.denselayer1");
  for (guint b = 0; b < G_N_ELEMENTS (layers); b++)
    for (guint l = 1; l <= layers[b]; l++)
      {
        g_autofree char *path =
            g_strdup_printf ("features.denseblock%u.denselayer%u", b + 1, l);

        g_assert_cmpuint (graft_scopes_count_nodes (scopes, path), ==, 7);
        g_assert_cmpuint (graft_scopes_get_depth (scopes, path), ==, 3);
      }
  g_assert_cmpuint (graft_scopes_get_top_depth (scopes), ==, 2);
  top = graft_scopes_new_folded_at (scopes, 2);
  g_assert_true (g_hash_table_contains (top, "features.denseblock1"));
  g_assert_true (g_hash_table_contains (top, "features.transition3"));
  for (guint d = 1; d <= graft_scopes_get_n_depths (scopes); d++)
    check_depth (graph, scopes, d);
}

/* shufflenet: each block's concatenation and channel shuffle are in the
 * block, so every stage and every block folds (before, only conv1 did). */
static void
test_modules_shufflenet (void)
{
  g_autoptr (GraftGraph) graph =
      load_model ("torchvision", "shufflenet_v2_x1_0.py", GRAFT_TORCH_1_13);
  g_autoptr (GraftScopes) scopes = graft_scopes_new (graph);
  g_autoptr (GHashTable) top = graft_scopes_new_folded_at (scopes, 1);
  static const struct
  {
    const char *stage;
    guint       blocks;
  } stages[] = { { "stage2", 4 }, { "stage3", 8 }, { "stage4", 4 } };
  guint i = 0;

  for (GraftNode *n = graft_graph_get_first (graph); n != NULL; n = graft_node_get_next (n), i++)
    {
      const char *name = graft_node_get_name (n);

      if (g_str_has_prefix (name, "cat") || g_str_has_prefix (name, "transpose") ||
          g_str_has_prefix (name, "chunk"))
        g_assert_true (g_str_has_prefix (graft_scopes_get_node_scope (scopes, i), "stage"));
    }
  g_assert_cmpstr (graft_scopes_get_node_scope (scopes, node_index (graph, "cat_1")), ==,
                   "stage2.1");
  for (guint s = 0; s < G_N_ELEMENTS (stages); s++)
    {
      g_auto (GStrv) children = graft_scopes_dup_children (scopes, stages[s].stage);

      g_assert_true (g_hash_table_contains (top, stages[s].stage));
      g_assert_cmpuint (g_strv_length (children), ==, stages[s].blocks);
    }
  for (guint d = 1; d <= graft_scopes_get_n_depths (scopes); d++)
    check_depth (graph, scopes, d);
}

/* A torch.export program folds by its module stack: a node's scope is its
 * innermost nn_module_stack frame, and frames and folded boxes carry the
 * module's class. */
static void
test_modules_program (void)
{
  g_autoptr (GraftGraph) graph = load_model ("programs", "resnet18.pt2", GRAFT_TORCH_2_6);
  g_autoptr (GraftScopes) scopes = graft_scopes_new (graph);
  g_autoptr (GHashTable) collapsed = NULL;
  g_autoptr (GraftLayout) layout = NULL;
  guint    i = 0;
  gboolean labelled = FALSE;

  g_assert_true (graft_scopes_get_from_frames (scopes));
  for (GraftNode *n = graft_graph_get_first (graph); n != NULL; n = graft_node_get_next (n), i++)
    {
      const GraftNodeMeta *meta = graft_node_get_meta (n);

      if (meta != NULL && meta->n_modules > 0 && graft_node_get_op (n) != GRAFT_OP_PLACEHOLDER)
        g_assert_cmpstr (graft_scopes_get_node_scope (scopes, i), ==,
                         meta->modules[meta->n_modules - 1].path);
    }
  collapsed = graft_scopes_new_folded_at (scopes, 1);
  graft_scopes_expand (scopes, collapsed, "layer1");
  layout = check_modules (graph, scopes, collapsed);
  for (guint f = 0; f < graft_layout_get_n_frames (layout); f++)
    if (strcmp (graft_layout_get_frame (layout, f)->scope, "layer1") == 0)
      {
        g_assert_cmpstr (graft_layout_get_frame (layout, f)->label, ==, "layer1 \u00b7 Sequential");
        labelled = TRUE;
      }
  g_assert_true (labelled);
  for (guint d = 1; d <= graft_scopes_get_n_depths (scopes); d++)
    check_depth (graph, scopes, d);
}

/* A graph cut into segments: a module cut by a segment has a frame in
 * each, and every frame still holds its boxes. */
static void
test_modules_segments (void)
{
  g_autofree char *path = test_data_path ("torchvision", "regnet_y_400mf.py");
  g_autoptr (GraftGraph) graph = test_load_graph (path);
  g_autoptr (GraftScopes) scopes = graft_scopes_new (graph);
  g_autoptr (GHashTable) none = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GraftLayout) layout = check_modules (graph, scopes, none);

  g_assert_cmpuint (graft_layout_get_n_segments (layout), >, 1);
  g_assert_cmpuint (graft_layout_get_n_frames (layout), >, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/layout/example", test_example_geometry);
  add_corpus ("golden", ".py");
  add_corpus ("torchvision", ".py");
  add_corpus ("aten", ".graph");
  g_test_add_func ("/core/layout/segments", test_segments);
  g_test_add_func ("/core/layout/left-to-right", test_left_to_right);
  g_test_add_func ("/core/layout/computed-hub", test_computed_hub);
  g_test_add_func ("/core/layout/hit-test", test_hit_test);
  g_test_add_func ("/core/layout/worker-thread", test_worker_thread);
  g_test_add_func ("/core/layout/too-large", test_too_large);
  g_test_add_func ("/core/layout/cancel", test_cancel);
  g_test_add_func ("/core/layout/modules/resnet50", test_modules_resnet50);
  g_test_add_func ("/core/layout/modules/densenet121", test_modules_densenet121);
  g_test_add_func ("/core/layout/modules/shufflenet", test_modules_shufflenet);
  g_test_add_func ("/core/layout/modules/program", test_modules_program);
  g_test_add_func ("/core/layout/modules/segments", test_modules_segments);
  g_test_add_func ("/core/render/png-matches", test_png_matches);
  g_test_add_func ("/core/render/png-changes", test_png_changes);
  g_test_add_func ("/core/render/svg", test_svg_parses);
  g_test_add_func ("/core/render/pdf", test_pdf);
  g_test_add_func ("/core/render/png-large", test_png_large);
  return g_test_run ();
}
