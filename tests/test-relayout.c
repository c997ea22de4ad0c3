/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-relayout.c: laying a graph out again after a change, reusing the
 * segments the change did not touch (graft_layout_request_set_previous()).
 * On a synthetic graph of several segments: a node swapped for one with a
 * wider box, and a chain of nodes inserted in the middle.  The incremental
 * layout must equal a layout with the same cuts made by dot alone, box for
 * box and point for point; the untouched segments must be reused and keep
 * their boxes' places (those before the change exactly, those after it
 * moved together); the result must answer hit tests and queries.  A
 * segment mostly deleted stays a segment.  A fresh
 * layout of a graph of repeated blocks reuses its repeated segments, and
 * equals one where dot lays out every segment.
 */
#include "config.h"

#include "graft-view.h"
#include "test-util.h"

#include <math.h>
#include <string.h>

static GraftNode *
add_call (GraftGraph *graph,
          const char *target,
          GraftNode  *a,
          GraftNode  *b,
          GraftNode  *before)
{
  GraftArg args;

  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, b != NULL ? 2 : 1);
  graft_arg_init_node (&args.items[0], a);
  if (b != NULL)
    graft_arg_init_node (&args.items[1], b);
  return graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, graft_graph_intern (graph, target),
                                  &args, NULL, NULL, before);
}

/* A chain of @n calls: a residual add every 8 nodes, a long skip every
 * 300 (across segments), a weight read by every tenth node (stubs). */
static GraftGraph *
make_chain (guint n)
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
        prev = add_call (graph, "operator.add", prev, nodes->pdata[i - 450], NULL);
      else if (i % 8 == 7)
        prev = add_call (graph, "operator.add", prev, nodes->pdata[i - 7], NULL);
      else if (i % 10 == 3)
        prev = add_call (graph, "operator.mul", prev, w, NULL);
      else
        prev = add_call (graph, "torch.relu", prev, NULL, NULL);
      g_ptr_array_add (nodes, prev);
    }
  graft_arg_init_seq (&out, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&out.items[0], prev);
  graft_graph_create_node (graph, GRAFT_OP_OUTPUT, "output", &out, NULL, "output", NULL);
  return graph;
}

static guint
node_index (GraftGraph *graph,
            GraftNode  *node)
{
  guint i = 0;

  for (GraftNode *n = graft_graph_get_first (graph); n != node; n = graft_node_get_next (n))
    i++;
  return i;
}

/* The segment holding box @box. */
static guint
segment_of_box (GraftLayout *layout,
                guint        box)
{
  for (guint s = 0; s < graft_layout_get_n_segments (layout); s++)
    {
      guint first;
      guint end;

      graft_layout_get_segment (layout, s, &first, &end);
      if (box >= first && box < end)
        return s;
    }
  g_assert_not_reached ();
}

static GraftLayout *
relayout (GraftGraph  *graph,
          GraftLayout *previous,
          gboolean     reuse)
{
  g_autoptr (GraftLayoutRequest) req = graft_layout_request_new (graph);
  g_autoptr (GError) error = NULL;
  GraftLayout *layout;

  graft_layout_request_set_previous (req, previous, reuse);
  layout = graft_layout_request_run (req, &error);
  g_assert_no_error (error);
  return layout;
}

/* A layout answers for every box: a hit test at its centre finds it, a
 * query of its rectangle lists it, find_node and lookup agree. */
static void
assert_valid (GraftLayout *layout,
              GraftGraph  *graph)
{
  g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) edges = g_array_new (FALSE, FALSE, sizeof (guint));
  guint i = 0;

  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    {
      const GraftRect *r = &graft_layout_get_node (layout, b)->box;
      gboolean         listed = FALSE;

      g_assert_cmpint (graft_layout_hit_test (layout, r->x + r->width / 2, r->y + r->height / 2),
                       ==, b);
      g_array_set_size (boxes, 0);
      graft_layout_query (layout, r->x, r->y, r->x + r->width, r->y + r->height, boxes, edges);
      for (guint k = 0; k < boxes->len; k++)
        listed |= g_array_index (boxes, guint, k) == b;
      g_assert_true (listed);
    }
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node), i++)
    {
      gint box = graft_layout_lookup (layout, i);

      g_assert_cmpint (box, >=, 0);
      g_assert_cmpint (graft_layout_find_node (layout, graft_node_get_name (node)), ==, box);
    }
}

/* Shifts are sums of the same coordinates with other offsets: equal up to
 * rounding. */
#define SAME 1e-6

/* The segments of @after that reuse geometry and hold no changed node
 * keep their boxes where @before had them, relative to each other: one
 * shift per segment, the same across the drawing (dx), and none at all
 * (dy) before the first changed segment.  Returns how many there are. */
static guint
check_unchanged_in_place (GraftLayout *before,
                          GraftLayout *after,
                          guint        first_changed)
{
  guint  n = 0;
  double dx = NAN;

  for (guint s = 0; s < graft_layout_get_n_segments (after); s++)
    {
      guint  first;
      guint  end;
      double sdx = NAN;
      double sdy = NAN;

      if (s == first_changed || !graft_layout_get_segment (after, s, &first, &end))
        continue;
      for (guint b = first; b < end; b++)
        {
          const GraftLayoutNode *box = graft_layout_get_node (after, b);
          const GraftLayoutNode *old;
          gint                   ob;

          if (box->is_stub)
            continue;
          ob = graft_layout_find_node (before, box->name);
          g_assert_cmpint (ob, >=, 0);
          old = graft_layout_get_node (before, ob);
          if (isnan (sdx))
            {
              sdx = box->box.x - old->box.x;
              sdy = box->box.y - old->box.y;
            }
          g_assert_cmpfloat_with_epsilon (box->box.x - old->box.x, sdx, SAME);
          g_assert_cmpfloat_with_epsilon (box->box.y - old->box.y, sdy, SAME);
        }
      if (isnan (dx))
        dx = sdx;
      g_assert_cmpfloat_with_epsilon (sdx, dx, SAME);
      if (s < first_changed)
        g_assert_cmpfloat (sdy, ==, 0);
      n++;
    }
  return n;
}

/* A node swapped for one with a wider box, as Replace All swaps
 * `torch.relu` for `torch.nn.functional.relu`: only its segment is laid
 * out again, the cuts stay, the result is a fresh layout's. */
static void
test_swap (void)
{
  g_autoptr (GraftGraph) graph = make_chain (1500);
  g_autoptr (GraftLayout) before = graft_layout_new (graph, NULL);
  g_autoptr (GraftLayout) after = NULL;
  g_autoptr (GraftLayout) fresh = NULL;
  g_autoptr (GraftLayout) same_cuts = NULL;
  GraftNode *old = graft_graph_find_node (graph, "relu_600");
  GraftNode *swapped;
  guint      changed;
  guint      n_segments;

  g_assert_nonnull (before);
  g_assert_nonnull (old);
  n_segments = graft_layout_get_n_segments (before);
  g_assert_cmpuint (n_segments, >=, 5);
  swapped = add_call (graph, "torch.nn.functional.relu",
                      graft_node_get_args (old)->items[0].node, NULL, old);
  graft_graph_replace_all_uses (graph, old, swapped);
  graft_graph_erase_node (graph, old);

  after = relayout (graph, before, TRUE);
  same_cuts = relayout (graph, before, FALSE);
  fresh = graft_layout_new (graph, NULL);
  /* Same box count, same costs: the cuts are a fresh layout's. */
  test_assert_layouts_equal (after, fresh);
  g_assert_cmpuint (graft_layout_get_n_reused_segments (same_cuts), ==, 0);
  test_assert_layouts_equal (after, same_cuts);
  assert_valid (after, graph);
  changed = segment_of_box (after, graft_layout_lookup (after, node_index (graph, swapped)));
  g_assert_false (graft_layout_get_segment (after, changed, NULL, NULL));
  g_assert_cmpuint (graft_layout_get_n_reused_segments (after), ==, n_segments - 1);
  g_assert_cmpuint (check_unchanged_in_place (before, after, changed), ==, n_segments - 1);
}

/* A chain of 40 nodes inserted in the middle: the segment that holds them
 * grows (and is cut again), the later ones move down together. */
static void
test_insert (void)
{
  g_autoptr (GraftGraph) graph = make_chain (1500);
  g_autoptr (GraftLayout) before = graft_layout_new (graph, NULL);
  g_autoptr (GraftLayout) after = NULL;
  g_autoptr (GraftLayout) same_cuts = NULL;
  GraftNode *at = graft_graph_find_node (graph, "relu_700");
  GraftNode *next = graft_node_get_next (at);
  GraftNode *prev = at;
  GraftNode *first_new = NULL;
  GraftArg   args;
  guint      first_changed;
  guint      last_changed;
  guint      n_untouched = 0;
  double     h_before;
  double     h_after;

  g_assert_nonnull (at);
  for (guint k = 0; k < 40; k++)
    {
      prev = add_call (graph, k % 2 == 0 ? "torch.sigmoid" : "torch.tanh", prev, NULL, next);
      if (first_new == NULL)
        first_new = prev;
    }
  graft_graph_replace_all_uses (graph, at, prev);
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&args.items[0], at);
  graft_graph_set_args (graph, first_new, &args, NULL);

  after = relayout (graph, before, TRUE);
  same_cuts = relayout (graph, before, FALSE);
  g_assert_cmpuint (graft_layout_get_n_reused_segments (same_cuts), ==, 0);
  test_assert_layouts_equal (after, same_cuts);
  assert_valid (after, graph);
  first_changed = segment_of_box (after, graft_layout_lookup (after, node_index (graph, at)));
  last_changed = segment_of_box (after, graft_layout_lookup (after, node_index (graph, prev)));
  /* Every segment but the changed ones (and those a changed edge reaches:
   * the long skips' ports) comes from the previous layout. */
  for (guint s = 0; s < graft_layout_get_n_segments (after); s++)
    if (s < first_changed || s > last_changed + 1)
      {
        g_assert_true (graft_layout_get_segment (after, s, NULL, NULL));
        n_untouched++;
      }
  g_assert_cmpuint (n_untouched, >=, graft_layout_get_n_segments (before) - 3);
  g_assert_cmpuint (check_unchanged_in_place (before, after, first_changed), >=, n_untouched);
  /* The drawing grew by what the new nodes take. */
  graft_layout_get_size (before, NULL, &h_before);
  graft_layout_get_size (after, NULL, &h_after);
  g_assert_cmpfloat (h_after, >, h_before);
}

/* Most of a segment deleted: what is left stays a segment of its own
 * (joining it to the next would move every later cut), and every other
 * segment is reused. */
static void
test_delete (void)
{
  g_autoptr (GraftGraph) graph = make_chain (1500);
  g_autoptr (GraftLayout) before = graft_layout_new (graph, NULL);
  g_autoptr (GraftLayout) after = NULL;
  g_autoptr (GraftLayout) same_cuts = NULL;
  g_autoptr (GPtrArray) doomed = g_ptr_array_new ();
  guint      first;
  guint      end;
  guint      k = 0;
  GraftNode *node;

  g_assert_nonnull (before);
  g_assert_cmpuint (graft_layout_get_n_segments (before), >=, 6);
  graft_layout_get_segment (before, 3, &first, &end);
  /* The segment's nodes but its first 10 and last 5. */
  for (node = graft_graph_get_first (graph); node != NULL; node = graft_node_get_next (node), k++)
    {
      gint box = graft_layout_lookup (before, k);

      if (box >= (gint) first + 10 && box + 5 < (gint) end &&
          !graft_layout_get_node (before, box)->is_stub)
        g_ptr_array_add (doomed, node);
    }
  g_assert_cmpuint (doomed->len, >, 100);
  for (guint i = 0; i < doomed->len; i++)
    {
      GraftNode *gone = doomed->pdata[i];

      graft_graph_replace_all_uses (graph, gone, graft_node_get_args (gone)->items[0].node);
      graft_graph_erase_node (graph, gone);
    }

  after = relayout (graph, before, TRUE);
  same_cuts = relayout (graph, before, FALSE);
  g_assert_cmpuint (graft_layout_get_n_reused_segments (same_cuts), ==, 0);
  test_assert_layouts_equal (after, same_cuts);
  assert_valid (after, graph);
  g_assert_cmpuint (graft_layout_get_n_segments (after), ==, graft_layout_get_n_segments (before));
  g_assert_false (graft_layout_get_segment (after, 3, NULL, NULL));
  /* And the segment after it, whose edges from the deleted nodes now
   * come from others. */
  g_assert_cmpuint (graft_layout_get_n_reused_segments (after), >=,
                    graft_layout_get_n_segments (after) - 2);
  g_assert_cmpuint (check_unchanged_in_place (before, after, 3), >=,
                    graft_layout_get_n_segments (after) - 2);
}

/* Repeated blocks make repeated segments: a fresh layout reuses them,
 * and is the same as one laid out segment by segment. */
static void
test_repeated_segments (void)
{
  g_autoptr (GraftGraph) graph = make_chain (3000);
  g_autoptr (GraftLayout) layout = graft_layout_new (graph, NULL);
  g_autoptr (GraftLayout) again = relayout (graph, layout, TRUE);
  g_autoptr (GraftLayout) by_dot = relayout (graph, NULL, FALSE);

  g_assert_nonnull (layout);
  g_assert_cmpuint (graft_layout_get_n_reused_segments (layout), >, 0);
  assert_valid (layout, graph);
  /* What dot makes of each segment, repeated or not. */
  g_assert_cmpuint (graft_layout_get_n_reused_segments (by_dot), ==, 0);
  test_assert_layouts_equal (layout, by_dot);
  /* Nothing changed: everything is reused, nothing moves. */
  g_assert_cmpuint (graft_layout_get_n_reused_segments (again), ==,
                    graft_layout_get_n_segments (layout));
  test_assert_layouts_equal (layout, again);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/relayout/swap", test_swap);
  g_test_add_func ("/core/relayout/insert", test_insert);
  g_test_add_func ("/core/relayout/delete", test_delete);
  g_test_add_func ("/core/relayout/repeated-segments", test_repeated_segments);
  return g_test_run ();
}
