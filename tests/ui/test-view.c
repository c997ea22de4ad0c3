/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-view.c: where the canvas looks, under a display (Xvfb in CI).  A
 * graph too big to read whole opens readable from its input, a small one
 * fitted.  Fit puts every box of resnet50 (177 nodes) inside the canvas,
 * and stays
 * fitted as the canvas changes size until the view is moved; after that a
 * new size keeps the layout point at the centre of the view there, for a
 * narrower side panel and for a smaller window.  The overview map shows
 * while part of the graph is out of view, centres the view where it is
 * clicked, draws its picture once per content change and not per frame,
 * and the window's show-overview action hides and shows it.  The canvas
 * is told which match Replace would rewrite (the one chosen in the list
 * or on the canvas) and which node Find shows, for the renderer to draw
 * them apart (test-render.c checks the drawing).
 */
#include "config.h"

#include "example.h"
#include "window-util.h"

#include "graft-canvas.h"
#include "graft-canvas-private.h"
#include "graft-comparison-private.h"
#include "graft-overview.h"
#include "graft-properties.h"
#include "graft-session.h"
#include "graft-window.h"
#include "graft-window-private.h"

#include <adwaita.h>

#include <string.h>

/* The default size of the windows these tests open. */
#define WIDTH  1400
#define HEIGHT 900

static GraftWindow *
open_resnet50 (void)
{
  g_autofree char *path =
      g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "torchvision", "resnet50.py", NULL);

  return open_path_sized (path, WIDTH, HEIGHT);
}

/* The canvas's size, once it differs from the one recorded. */
typedef struct
{
  GraftCanvas *canvas;
  int          width;
  int          height;
} Size;

static gboolean
size_changed (gpointer data)
{
  Size *size = data;

  return gtk_widget_get_width (GTK_WIDGET (size->canvas)) != size->width ||
         gtk_widget_get_height (GTK_WIDGET (size->canvas)) != size->height;
}

static Size
size_of (GraftCanvas *canvas)
{
  return (Size){ canvas, gtk_widget_get_width (GTK_WIDGET (canvas)),
                 gtk_widget_get_height (GTK_WIDGET (canvas)) };
}

static gboolean
panel_settled (gpointer data)
{
  GraftCanvas *canvas = data;

  return flap_settled (gtk_widget_get_ancestor (GTK_WIDGET (canvas), ADW_TYPE_FLAP));
}

/* Hides the side panel, so that the properties panel sits beside the
 * canvas, changing its size, rather than folding over it (Xvfb's screen
 * keeps the window at about 1270 pixels, where both panels would not fit
 * beside the canvas). */
static void
hide_side_panel (GraftWindow *window)
{
  GraftCanvas *canvas = graft_window_get_canvas (window);
  AdwFlap     *properties = ADW_FLAP (gtk_widget_get_ancestor (GTK_WIDGET (canvas), ADW_TYPE_FLAP));
  AdwFlap     *side = ADW_FLAP (
          gtk_widget_get_ancestor (gtk_widget_get_parent (GTK_WIDGET (properties)), ADW_TYPE_FLAP));
  Size before;

  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-side-panel",
                                      g_variant_new_boolean (FALSE));
  iterate_until (flap_settled, side);
  before = (Size){ canvas, -1, -1 };
  iterate_until (size_changed, &before);
  g_assert_false (adw_flap_get_folded (properties));
}

/* While the properties panel slides: the canvas's size last checked, and
 * the check to make at each new one. */
typedef struct
{
  Size last;
  void (*check) (GraftCanvas *canvas, gpointer data);
  gpointer data;
} Sliding;

/* Checks the canvas at a new size; whether the panel has settled. */
static gboolean
checked_until_settled (gpointer data)
{
  Sliding *sliding = data;

  if (size_changed (&sliding->last))
    {
      sliding->check (sliding->last.canvas, sliding->data);
      sliding->last = size_of (sliding->last.canvas);
    }
  return panel_settled (sliding->last.canvas);
}

/* Shows or hides the properties panel beside the canvas (F9), checking
 * @check at each new size of the canvas while the panel slides, and
 * once it has. */
static void
toggle_panel (GraftWindow *window,
              void (*check) (GraftCanvas *canvas, gpointer data),
              gpointer data)
{
  GraftCanvas *canvas = graft_window_get_canvas (window);
  Size         before = size_of (canvas);
  Sliding      sliding;

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-properties", NULL);
  iterate_until (size_changed, &before);
  check (canvas, data);
  sliding = (Sliding){ size_of (canvas), check, data };
  iterate_until_named (checked_until_settled, &sliding, "the properties panel");
  check (canvas, data);
}

static void
assert_all_boxes_inside (GraftCanvas *canvas)
{
  GraftLayout *layout = graft_canvas_get_layout (canvas);
  double       width = gtk_widget_get_width (GTK_WIDGET (canvas));
  double       height = gtk_widget_get_height (GTK_WIDGET (canvas));

  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    {
      const GraftRect *r = &graft_layout_get_node (layout, b)->box;
      double           x0;
      double           y0;
      double           x1;
      double           y1;

      graft_canvas_layout_to_widget (canvas, r->x, r->y, &x0, &y0);
      graft_canvas_layout_to_widget (canvas, r->x + r->width, r->y + r->height, &x1, &y1);
      g_assert_cmpfloat (x0, >=, 0);
      g_assert_cmpfloat (y0, >=, 0);
      g_assert_cmpfloat (x1, <=, width);
      g_assert_cmpfloat (y1, <=, height);
    }
}

static void
check_inside (GraftCanvas *canvas,
              gpointer     data)
{
  assert_all_boxes_inside (canvas);
}

static void
assert_center_at (GraftCanvas *canvas,
                  double       x,
                  double       y)
{
  double cx;
  double cy;

  graft_canvas_widget_to_layout (canvas, gtk_widget_get_width (GTK_WIDGET (canvas)) / 2.0,
                                 gtk_widget_get_height (GTK_WIDGET (canvas)) / 2.0, &cx, &cy);
  g_assert_cmpfloat_with_epsilon (cx, x, 1e-6);
  g_assert_cmpfloat_with_epsilon (cy, y, 1e-6);
}

static void
check_center (GraftCanvas *canvas,
              gpointer     data)
{
  const double *point = data;

  assert_center_at (canvas, point[0], point[1]);
}

/* Fit shows all of resnet50, below the 35 % it once stopped at, and
 * follows a new size of the canvas. */
static void
test_fit (void)
{
  GraftWindow *window = open_resnet50 ();
  GraftCanvas *canvas = graft_window_get_canvas (window);
  double       zoom;

  graft_canvas_set_zoom (canvas, 1.0);
  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-fit", NULL);
  zoom = graft_canvas_get_zoom (canvas);
  g_assert_cmpfloat (zoom, <, 0.35);
  assert_all_boxes_inside (canvas);

  /* Sticky: at each step of the properties panel sliding in, and for a
   * lower window, it fits again. */
  hide_side_panel (window);
  assert_all_boxes_inside (canvas);
  toggle_panel (window, check_inside, NULL);
  {
    Size before = size_of (canvas);

    gtk_window_set_default_size (GTK_WINDOW (window), gtk_widget_get_width (GTK_WIDGET (window)),
                                 gtk_widget_get_height (GTK_WIDGET (window)) - 150);
    iterate_until (size_changed, &before);
  }
  assert_all_boxes_inside (canvas);
  g_assert_cmpfloat (graft_canvas_get_zoom (canvas), <, zoom);
  toggle_panel (window, check_inside, NULL);
  close_last_window (window);
}

/* The start view of a graph too tall to read whole: from its top, its
 * input in view, at a readable zoom (35 % to 60 %), not all of it. */
static void
assert_start_view (GraftCanvas *canvas)
{
  GraftRect area;

  g_assert_cmpfloat (graft_canvas_get_zoom (canvas), >=, 0.35);
  g_assert_cmpfloat (graft_canvas_get_zoom (canvas), <=, 0.6);
  g_assert_true (node_in_view (canvas, "x"));
  g_assert_false (node_in_view (canvas, "output"));
  graft_canvas_get_visible_area (canvas, &area);
  g_assert_cmpfloat (area.y, <, 0);
}

static void
check_start_view (GraftCanvas *canvas,
                  gpointer     data)
{
  assert_start_view (canvas);
}

/* A graph that Fit would show below a readable zoom (resnet50 at 7 %)
 * opens readable, from its input; that view follows new sizes of the
 * canvas as Fit's does, until Fit shows all of it.  A graph readable
 * whole (the tutorial) opens fitted; one too wide at 35 % opens there,
 * across from its input. */
static void
test_start_readable (void)
{
  GraftWindow     *window = open_resnet50 ();
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  g_autofree char *path = example_path ();

  assert_start_view (canvas);
  hide_side_panel (window);
  assert_start_view (canvas);
  toggle_panel (window, check_start_view, NULL);
  toggle_panel (window, check_start_view, NULL);
  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-fit", NULL);
  g_assert_cmpfloat (graft_canvas_get_zoom (canvas), <, 0.35);
  assert_all_boxes_inside (canvas);
  close_last_window (window);

  window = open_path_sized (path, WIDTH, HEIGHT);
  canvas = graft_window_get_canvas (window);
  assert_all_boxes_inside (canvas);
  g_assert_cmpfloat (graft_canvas_get_zoom (canvas), >=, 0.35);
  close_last_window (window);

  /* Wider than the view even at 35 % (resnet18.pt2, its parameters
   * side by side): across from its first placeholder (conv1's weight,
   * beside the input x), which is not at the left. */
  g_free (path);
  path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "programs", "resnet18.pt2", NULL);
  window = open_path_sized (path, WIDTH, HEIGHT);
  canvas = graft_window_get_canvas (window);
  {
    GraftLayout *layout = graft_canvas_get_layout (canvas);
    GraftRect    area;
    double       width;
    double       height;

    graft_layout_get_size (layout, &width, &height);
    graft_canvas_get_visible_area (canvas, &area);
    g_assert_cmpfloat_with_epsilon (graft_canvas_get_zoom (canvas), 0.35, 1e-9);
    g_assert_cmpfloat (area.width, <, width);
    g_assert_cmpfloat (area.x, >, 0);
    g_assert_true (node_in_view (canvas, "x"));
  }
  close_last_window (window);
}

/* A moved view keeps its centre while the properties panel slides in and
 * out, and when the window gets smaller. */
static void
test_resize_keeps_center (void)
{
  GraftWindow     *window = open_resnet50 ();
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  GraftLayout     *layout = graft_canvas_get_layout (canvas);
  const GraftRect *r = &graft_layout_get_node (
                            layout, (guint) graft_layout_find_node (layout, "layer2_0_conv1"))
                            ->box;
  double cx = r->x + r->width / 2;
  double cy = r->y + r->height / 2;
  Size   before;

  graft_canvas_set_zoom (canvas, 1.0);
  graft_canvas_set_center (canvas, cx, cy);
  assert_center_at (canvas, cx, cy);

  hide_side_panel (window);
  assert_center_at (canvas, cx, cy);
  {
    double point[2] = { cx, cy };

    toggle_panel (window, check_center, point);
    toggle_panel (window, check_center, point);
  }

  before = size_of (canvas);
  gtk_window_set_default_size (GTK_WINDOW (window), gtk_widget_get_width (GTK_WIDGET (window)) - 90,
                               gtk_widget_get_height (GTK_WIDGET (window)) - 70);
  iterate_until (size_changed, &before);
  assert_center_at (canvas, cx, cy);
  g_assert_cmpfloat (graft_canvas_get_zoom (canvas), ==, 1.0);
  close_last_window (window);
}

static gboolean
overview_needed (gpointer data)
{
  GraftMap map;

  return graft_overview_get_needed (data) && graft_overview_get_map (data, &map);
}

static gboolean
overview_drawn (gpointer data)
{
  return graft_overview_get_n_renders (data) > 0;
}

static guint n_paints;

static void
paint_cb (GdkFrameClock *clock,
          gpointer       data)
{
  n_paints++;
}

static gboolean
painted (gpointer data)
{
  return n_paints >= GPOINTER_TO_UINT (data);
}

typedef struct
{
  GraftOverview *overview;
  guint          renders;
} Renders;

static gboolean
rendered_again (gpointer data)
{
  Renders *r = data;

  return graft_overview_get_n_renders (r->overview) > r->renders;
}

/* The map shows at 100 %, a click moves the view there, panning draws no
 * new picture but a new chosen match does, and it goes when all is in
 * view. */
static void
test_overview (void)
{
  GraftWindow   *window = open_resnet50 ();
  GraftCanvas   *canvas = graft_window_get_canvas (window);
  GraftOverview *overview = graft_window_get_overview (window);
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  GraftMap       map;
  GraftRect      area;
  double         lx;
  double         ly;
  Renders        renders;

  g_assert_true (graft_overview_get_canvas (overview) == canvas);
  graft_canvas_set_zoom (canvas, 1.0);
  iterate_until (overview_needed, overview);
  g_assert_true (gtk_widget_get_can_target (GTK_WIDGET (overview)));
  g_assert_true (graft_overview_get_map (overview, &map));
  iterate_until (overview_drawn, overview);

  /* A click at three quarters of the way down. */
  graft_overview_move_to (overview, map.width / 2, map.height * 0.75);
  graft_map_to_layout (&map, map.width / 2, map.height * 0.75, &lx, &ly);
  graft_canvas_get_visible_area (canvas, &area);
  g_assert_cmpfloat_with_epsilon (area.x, lx - area.width / 2, 1e-6);
  g_assert_cmpfloat_with_epsilon (area.y, ly - area.height / 2, 1e-6);

  /* Ten frames of panning draw no new picture. */
  renders.overview = overview;
  renders.renders = graft_overview_get_n_renders (overview);
  g_signal_connect (clock, "after-paint", G_CALLBACK (paint_cb), NULL);
  for (guint k = 0; k < 10; k++)
    {
      guint target = n_paints + 1;

      graft_canvas_set_center (canvas, lx, ly - 40.0 * k);
      iterate_until (painted, GUINT_TO_POINTER (target));
    }
  g_signal_handlers_disconnect_by_func (clock, paint_cb, NULL);
  g_assert_cmpuint (graft_overview_get_n_renders (overview), ==, renders.renders);
  /* A new chosen match does: the map shows it. */
  graft_canvas_set_chosen_match (canvas, 0);
  iterate_until (rendered_again, &renders);

  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-fit", NULL);
  g_assert_false (graft_overview_get_needed (overview));
  g_assert_false (gtk_widget_get_can_target (GTK_WIDGET (overview)));
  close_last_window (window);
}

/* The menu's check item hides and shows the map. */
static void
test_overview_action (void)
{
  GraftWindow *window = open_resnet50 ();
  GtkWidget   *overview = GTK_WIDGET (graft_window_get_overview (window));
  g_autoptr (GVariant) shown = NULL;
  g_autoptr (GVariant) hidden = NULL;
  g_autoptr (GVariant) again = NULL;

  shown = g_action_group_get_action_state (G_ACTION_GROUP (window), "show-overview");
  g_assert_true (g_variant_get_boolean (shown));
  g_assert_true (gtk_widget_get_visible (overview));
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-overview", NULL);
  hidden = g_action_group_get_action_state (G_ACTION_GROUP (window), "show-overview");
  g_assert_false (g_variant_get_boolean (hidden));
  g_assert_false (gtk_widget_get_visible (overview));
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-overview", NULL);
  again = g_action_group_get_action_state (G_ACTION_GROUP (window), "show-overview");
  g_assert_true (g_variant_get_boolean (again));
  g_assert_true (gtk_widget_get_visible (overview));
  close_last_window (window);
}

/* The canvas draws apart the match Replace would rewrite: the one chosen
 * in the list, or the match of the node selected on the canvas. */
static void
test_chosen_match (void)
{
  g_autofree char *path = example_path ();
  GraftWindow     *window = open_path_sized (path, WIDTH, HEIGHT);
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  GraftDocument   *document = graft_window_get_document (window);
  const char      *node = NULL;
  GraftGraph      *graph = graft_document_get_graph (document);

  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 2);
  g_assert_cmpint (graft_canvas_get_chosen_match (canvas), ==, -1);
  graft_window_select_match (window, 1);
  g_assert_cmpint (graft_canvas_get_chosen_match (canvas), ==, 1);

  for (GraftNode *n = graft_graph_get_first (graph); n != NULL && node == NULL;
       n = graft_node_get_next (n))
    if (graft_document_get_match_of_node (document, graft_node_get_name (n)) == 0)
      node = graft_node_get_name (n);
  g_assert_nonnull (node);
  graft_canvas_select (canvas, node, FALSE);
  g_assert_cmpint (graft_canvas_get_chosen_match (canvas), ==, 0);
  graft_canvas_clear_selection (canvas);
  g_assert_cmpint (graft_canvas_get_chosen_match (canvas), ==, -1);
  close_last_window (window);
}

static gboolean
has_current_hit (gpointer data)
{
  return graft_canvas_get_current_hit (data) != NULL;
}

/* Find's current hit is the canvas's, and follows Next. */
static void
test_find_current (void)
{
  g_autofree char *path = example_path ();
  GraftWindow     *window = open_path_sized (path, WIDTH, HEIGHT);
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  GtkWidget       *entry;

  g_action_group_activate_action (G_ACTION_GROUP (window), "find", NULL);
  entry = gtk_widget_get_ancestor (gtk_window_get_focus (GTK_WINDOW (window)),
                                   GTK_TYPE_SEARCH_ENTRY);
  g_assert_nonnull (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), "torch.cat");
  iterate_until (has_current_hit, canvas);
  g_assert_cmpstr (graft_canvas_get_current_hit (canvas), ==, "cat");
  g_signal_emit_by_name (entry, "next-match");
  g_assert_cmpstr (graft_canvas_get_current_hit (canvas), ==, "cat_1");
  close_last_window (window);
}

/* Find's hits in a view too small to read (resnet50 fitted at 7 %): the
 * hit found as the text is typed is centred at that zoom (the view does
 * not jump at each key), the next one asked for is shown readable, and
 * a readable zoom is kept. */
static void
test_find_readable (void)
{
  GraftWindow *window = open_resnet50 ();
  GraftCanvas *canvas = graft_window_get_canvas (window);
  GtkWidget   *entry;

  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-fit", NULL);
  g_assert_cmpfloat (graft_canvas_get_zoom (canvas), <, 0.35);
  g_action_group_activate_action (G_ACTION_GROUP (window), "find", NULL);
  entry = gtk_widget_get_ancestor (gtk_window_get_focus (GTK_WINDOW (window)),
                                   GTK_TYPE_SEARCH_ENTRY);
  g_assert_nonnull (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), "layer3_2_relu");
  iterate_until (has_current_hit, canvas);
  g_assert_cmpstr (graft_canvas_get_current_hit (canvas), ==, "layer3_2_relu");
  g_assert_cmpfloat (graft_canvas_get_zoom (canvas), <, 0.35);
  g_signal_emit_by_name (entry, "next-match");
  g_assert_cmpstr (graft_canvas_get_current_hit (canvas), ==, "layer3_2_relu_1");
  g_assert_cmpfloat (graft_canvas_get_zoom (canvas), >=, 0.35);
  g_assert_true (node_in_view (canvas, "layer3_2_relu_1"));
  /* Enter shows the next, at the zoom the user chose. */
  graft_canvas_set_zoom (canvas, 1.5);
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpstr (graft_canvas_get_current_hit (canvas), ==, "layer3_2_relu_2");
  g_assert_cmpfloat (graft_canvas_get_zoom (canvas), ==, 1.5);
  g_assert_true (node_in_view (canvas, "layer3_2_relu_2"));
  close_last_window (window);
}

/* The canvas's selection, as graft_canvas_dup_selection() and
 * graft_canvas_get_n_selected() give it, is what a fresh scan of the
 * layout's nodes against the selected names finds: after Find, after a
 * selection of more names than the graph has (one not in it), and after a
 * relayout. */
static void
assert_selection_scanned (GraftCanvas *canvas,
                          guint        expected)
{
  GraftLayout *layout = graft_canvas_get_layout (canvas);
  g_auto (GStrv) selection = graft_canvas_dup_selection (canvas);
  guint k = 0;

  for (guint i = 0; i < graft_layout_get_n_graph_nodes (layout); i++)
    {
      const char *name = graft_layout_get_node_name (layout, i);

      if (_graft_canvas_is_selected (canvas, name))
        g_assert_cmpstr (selection[k++], ==, name);
    }
  g_assert_null (selection[k]);
  g_assert_cmpuint (k, ==, expected);
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, expected);
}

static void
test_selection_scan (void)
{
  g_autofree char *path = example_path ();
  GraftWindow     *window = open_path_sized (path, WIDTH, HEIGHT);
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  GraftGraph      *graph = graft_document_get_graph (graft_window_get_document (window));
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) all = NULL;
  guint      n_found = 0;
  GtkWidget *entry;

  iterate_until (layout_ready, window);
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    if (strstr (graft_node_get_name (node), "cat") != NULL ||
        strstr (graft_node_get_target (node), "cat") != NULL)
      n_found++;
  g_assert_cmpuint (n_found, >=, 2);
  g_action_group_activate_action (G_ACTION_GROUP (window), "find", NULL);
  entry = gtk_widget_get_ancestor (gtk_window_get_focus (GTK_WINDOW (window)),
                                   GTK_TYPE_SEARCH_ENTRY);
  gtk_editable_set_text (GTK_EDITABLE (entry), "cat");
  iterate_until (has_current_hit, canvas);
  assert_selection_scanned (canvas, n_found);

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    g_strv_builder_add (builder, graft_node_get_name (node));
  g_strv_builder_add (builder, "no_such_node");
  all = g_strv_builder_end (builder);
  graft_canvas_set_selection (canvas, (const char *const *) all);
  assert_selection_scanned (canvas, graft_graph_get_n_nodes (graph));

  /* An input, which the rule leaves as it is. */
  graft_canvas_select (canvas, graft_node_get_name (graft_graph_get_first (graph)), FALSE);
  g_action_group_activate_action (G_ACTION_GROUP (window), "replace-all", NULL);
  iterate_until (layout_ready, window);
  assert_selection_scanned (canvas, 1);
  close_last_window (window);
}

static gboolean
search_done (gpointer data)
{
  return !graft_search_get_pending (data);
}

/* The names of @graph's nodes whose name or target contains @text, in
 * graph order (as Find's hits are, for an ASCII text in lower case). */
static GStrv
scan_graph (GraftGraph *graph,
            const char *text)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    if (strstr (graft_node_get_name (node), text) != NULL ||
        strstr (graft_node_get_target (node), text) != NULL)
      g_strv_builder_add (builder, graft_node_get_name (node));
  return g_strv_builder_end (builder);
}

/* A selection placed (Find's: each name with its position in graph order)
 * is the selection of those names, whatever the places say: right, wrong,
 * out of range, or of another graph (the layout shown older than the
 * graph Find read). */
static void
test_selection_placed (void)
{
  g_autofree char *path = example_path ();
  GraftWindow     *window = open_path_sized (path, WIDTH, HEIGHT);
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  GraftDocument   *document = graft_window_get_document (window);
  GraftLayout     *layout;
  g_auto (GStrv) all = NULL;
  g_autofree guint *right = NULL;
  g_autofree guint *wrong = NULL;
  guint             n;

  iterate_until (layout_ready, window);
  layout = graft_canvas_get_layout (canvas);
  all = scan_graph (graft_document_get_graph (document), "");
  n = g_strv_length (all);
  g_assert_cmpuint (n, ==, graft_layout_get_n_graph_nodes (layout));
  right = g_new (guint, n);
  wrong = g_new (guint, n);
  for (guint i = 0; i < n; i++)
    {
      right[i] = i;
      wrong[i] = i % 3 == 0 ? n - 1 - i : i % 3 == 1 ? G_MAXUINT
                                                     : n + i;
    }
  /* Every other node, at its place, then at wrong ones. */
  for (guint pass = 0; pass < 2; pass++)
    {
      g_autoptr (GPtrArray) names = g_ptr_array_new ();
      g_autoptr (GArray) places = g_array_new (FALSE, FALSE, sizeof (guint));
      g_auto (GStrv) selection = NULL;
      g_autoptr (GStrvBuilder) expected = g_strv_builder_new ();
      g_auto (GStrv) expected_names = NULL;

      for (guint i = 0; i < n; i += 2)
        {
          guint place = pass == 0 ? right[i] : wrong[i];

          g_ptr_array_add (names, all[i]);
          g_array_append_val (places, place);
          g_strv_builder_add (expected, all[i]);
        }
      graft_canvas_set_selection_placed (canvas, (const char *const *) names->pdata,
                                         (const guint *) (gpointer) places->data, names->len);
      selection = graft_canvas_dup_selection (canvas);
      expected_names = g_strv_builder_end (expected);
      g_assert_cmpstrv (selection, expected_names);
      g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, names->len);
    }
  /* A name the layout does not have: kept in the selection, not drawn. */
  {
    const char *names[] = { "no_such_node", all[1] };
    guint       places[] = { 1, 0 };
    g_auto (GStrv) selection = NULL;

    graft_canvas_set_selection_placed (canvas, names, places, 2);
    selection = graft_canvas_dup_selection (canvas);
    g_assert_cmpuint (g_strv_length (selection), ==, 1);
    g_assert_cmpstr (selection[0], ==, all[1]);
  }
  /* Escape clears a selection Find made, as any other (its action is
   * enabled only while there is a selection). */
  {
    g_auto (GStrv) selection = NULL;

    g_assert_true (
        gtk_widget_activate_action (GTK_WIDGET (canvas), "canvas.clear-selection", NULL));
    selection = graft_canvas_dup_selection (canvas);
    g_assert_cmpuint (g_strv_length (selection), ==, 0);
  }
  close_last_window (window);
}

/* Find reads the graph over several turns (here a node a turn): the
 * earlier hits stay until the last node is read; a change of the graph
 * meanwhile starts the reading again on the graph as it is, and Next
 * finishes it at once. */
static void
test_find_in_turns (void)
{
  g_autofree char *path = example_path ();
  GraftWindow     *window = open_path_sized (path, WIDTH, HEIGHT);
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  GraftDocument   *document = graft_window_get_document (window);
  GraftSearch     *search = window->search;
  GtkWidget       *entry;
  g_auto (GStrv) cats = NULL;
  g_auto (GStrv) stacks = NULL;
  g_auto (GStrv) selection = NULL;
  g_auto (GStrv) none = NULL;

  iterate_until (layout_ready, window);
  _graft_search_set_step (1);
  cats = scan_graph (graft_document_get_graph (document), "cat");
  g_assert_cmpuint (g_strv_length (cats), ==, 2);
  g_action_group_activate_action (G_ACTION_GROUP (window), "find", NULL);
  entry = gtk_widget_get_ancestor (gtk_window_get_focus (GTK_WINDOW (window)),
                                   GTK_TYPE_SEARCH_ENTRY);
  gtk_editable_set_text (GTK_EDITABLE (entry), "cat");
  g_signal_emit_by_name (entry, "search-changed");
  g_assert_true (graft_search_get_pending (search));
  g_assert_null (graft_search_get_current (search));
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 0);
  iterate_until (search_done, search);
  selection = graft_canvas_dup_selection (canvas);
  g_assert_cmpstrv (selection, cats);
  g_assert_cmpstr (graft_search_get_current (search), ==, "cat");

  /* The earlier hits stay until the graph is read. */
  {
    int end = -1;

    gtk_editable_insert_text (GTK_EDITABLE (entry), "_1", -1, &end);
  }
  g_signal_emit_by_name (entry, "search-changed");
  g_assert_true (graft_search_get_pending (search));
  g_assert_cmpstr (graft_search_get_current (search), ==, "cat");
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 2);
  iterate_until (search_done, search);
  g_assert_cmpstr (graft_search_get_current (search), ==, "cat_1");
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 1);

  /* No stack before Replace All, two after it. */
  none = scan_graph (graft_document_get_graph (document), "stack");
  g_assert_cmpuint (g_strv_length (none), ==, 0);
  gtk_editable_set_text (GTK_EDITABLE (entry), "stack");
  g_signal_emit_by_name (entry, "search-changed");
  g_main_context_iteration (NULL, FALSE);
  g_main_context_iteration (NULL, FALSE);
  g_assert_true (graft_search_get_pending (search));
  g_action_group_activate_action (G_ACTION_GROUP (window), "replace-all", NULL);
  stacks = scan_graph (graft_document_get_graph (document), "stack");
  g_assert_cmpuint (g_strv_length (stacks), ==, 2);
  iterate_until (search_done, search);
  /* The canvas finds the names in the new layout. */
  iterate_until (layout_ready, window);
  g_clear_pointer (&selection, g_strfreev);
  selection = graft_canvas_dup_selection (canvas);
  g_assert_cmpstrv (selection, stacks);
  g_assert_cmpstr (graft_search_get_current (search), ==, stacks[0]);

  /* Next while the graph is being read: the new text's second hit. */
  graft_document_undo (document);
  g_clear_pointer (&cats, g_strfreev);
  cats = scan_graph (graft_document_get_graph (document), "cat");
  g_assert_cmpuint (g_strv_length (cats), ==, 2);
  gtk_editable_set_text (GTK_EDITABLE (entry), "cat");
  g_signal_emit_by_name (entry, "search-changed");
  g_assert_true (graft_search_get_pending (search));
  g_signal_emit_by_name (entry, "next-match");
  g_assert_false (graft_search_get_pending (search));
  g_assert_cmpstr (graft_search_get_current (search), ==, "cat_1");
  _graft_search_set_step (0);
  close_last_window (window);
}

static gboolean
n_graph_nodes_is (GraftWindow *window,
                  guint        n)
{
  GraftLayout *layout = graft_canvas_get_layout (graft_window_get_canvas (window));

  return layout_ready (window) && layout != NULL && graft_layout_get_n_graph_nodes (layout) == n;
}

static gboolean
ten_nodes_laid_out (gpointer window)
{
  return n_graph_nodes_is (window, 10);
}

static gboolean
nine_nodes_laid_out (gpointer window)
{
  return n_graph_nodes_is (window, 9);
}

/* Replace All of dynamic_batch.pt2's view by one that asks for the size
 * again: a second node named sym_size_int_1 (docs/programs.md). */
static void
replace_view_size (GraftWindow *window)
{
  GraftDocument *document = graft_window_get_document (window);

  graft_document_set_pattern_text (document, "import torch\n\naten = torch.ops.aten\n\n\n"
                                             "def pattern(x, s):\n"
                                             "    return aten.view.default(x, [s, -1, 4])\n");
  graft_document_set_replacement_text (document,
                                       "import torch\n\naten = torch.ops.aten\n\n\n"
                                       "def replacement(x, s):\n"
                                       "    return aten.view.default(x, [aten.sym_size.int(x, 0), "
                                       "-1, 4])\n");
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 1);
  activate (window, "replace-all", NULL);
  iterate_until (ten_nodes_laid_out, window);
}

/* The boxes of @canvas's layout named @name, at most 4, in @boxes. */
static guint
boxes_named (GraftCanvas *canvas,
             const char  *name,
             gint        *boxes)
{
  GraftLayout *layout = graft_canvas_get_layout (canvas);
  guint        n = 0;

  for (guint i = 0; i < graft_layout_get_n_nodes (layout) && n < 4; i++)
    if (strcmp (graft_layout_get_node (layout, i)->name, name) == 0)
      boxes[n++] = (gint) i;
  return n;
}

/* A Replace All that keeps dynamic_batch's sym_size_int_1 and makes a
 * second node that torch names so (docs/programs.md): two boxes are
 * drawn, a click on either selects the name, and both boxes are then
 * selected (the layout's index knew the last only: a click on the first
 * ringed the second); undo leaves one. */
static void
test_shared_names (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "programs",
                                            "dynamic_batch.pt2", NULL);
  GraftWindow     *window = open_path_sized (path, WIDTH, HEIGHT);
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  GraftDocument   *document = graft_window_get_document (window);
  gint             boxes[4];

  iterate_until (layout_ready, window);
  g_assert_cmpuint (boxes_named (canvas, "sym_size_int_1", boxes), ==, 1);
  replace_view_size (window);
  g_assert_cmpuint (boxes_named (canvas, "sym_size_int_1", boxes), ==, 2);
  g_assert_cmpuint (graft_layout_get_node (graft_canvas_get_layout (canvas), boxes[0])->node_index,
                    !=,
                    graft_layout_get_node (graft_canvas_get_layout (canvas), boxes[1])->node_index);
  for (guint k = 0; k < 2; k++)
    {
      const GraftRect *r = &graft_layout_get_node (graft_canvas_get_layout (canvas), boxes[k])->box;
      double           x, y;

      graft_canvas_clear_selection (canvas);
      graft_canvas_layout_to_widget (canvas, r->x + r->width / 2, r->y + r->height / 2, &x, &y);
      g_assert_cmpstr (graft_canvas_pick (canvas, x, y), ==, "sym_size_int_1");
      graft_canvas_select (canvas, graft_canvas_pick (canvas, x, y), FALSE);
      g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 2);
    }
  {
    const char *names[] = { "sym_size_int_1", NULL };
    guint       places[] = { G_MAXUINT };

    graft_canvas_set_selection_placed (canvas, names, places, 1);
    g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 2);
  }

  /* Compared by name (a change without an edit), the copy is added and
   * the program's node kept: it was taken for the copy's twin. */
  {
    g_autoptr (GraftDocument) loaded = graft_document_new ();
    g_autoptr (GFile) file = g_file_new_for_path (path);
    g_autoptr (GError) error = NULL;
    g_autoptr (GHashTable) changes = NULL;
    GraftGraph *after = graft_document_get_graph (document);
    GraftNode  *owner = graft_graph_find_node (after, "sym_size_int_1");
    GraftNode  *copy = NULL;

    g_assert_true (graft_document_load_file (loaded, file, &error));
    g_assert_no_error (error);
    g_assert_true (graft_graph_has_shared_names (after));
    for (GraftNode *node = graft_graph_get_first (after); node != NULL;
         node = graft_node_get_next (node))
      if (node != owner && strcmp (graft_node_get_name (node), "sym_size_int_1") == 0)
        copy = node;
    g_assert_nonnull (copy);
    changes = _graft_comparison_changes_by_name (graft_document_get_graph (loaded), after);
    g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (changes, copy)), ==,
                     GRAFT_CHANGE_ADDED);
    g_assert_false (g_hash_table_contains (changes, owner));
  }
  /* The properties of the name are those of both nodes. */
  {
    GtkWidget       *panel = g_object_ref_sink (graft_properties_new ());
    const char      *names[] = { "sym_size_int_1", NULL };
    g_autofree char *text = NULL;

    graft_properties_show (GRAFT_PROPERTIES (panel), graft_document_get_graph (document), NULL,
                           names, NULL);
    text = graft_properties_dup_text (GRAFT_PROPERTIES (panel));
    g_assert_nonnull (strstr (text, "2 Nodes Selected"));
    g_object_unref (panel);
  }

  activate (window, "undo", NULL);
  iterate_until (nine_nodes_laid_out, window);
  g_assert_cmpuint (boxes_named (canvas, "sym_size_int_1", boxes), ==, 1);
  graft_canvas_select (canvas, "sym_size_int_1", FALSE);
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 1);
  close_last_window (window);
}

/* The Code tab shows the text of the view_size rewrite's code. */
static gboolean
copy_line_shown (gpointer data)
{
  GraftWindow     *window = data;
  g_autofree char *text = buffer_text (gtk_text_view_get_buffer (window->code_view));

  return strstr (text, "    sym_size_int_2 = ") != NULL;
}

/* The line of the code view that starts with @start, or -1. */
static gint
code_line (GraftWindow *window,
           const char  *start)
{
  g_autofree char *text = buffer_text (gtk_text_view_get_buffer (window->code_view));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], start))
      return (gint) i;
  return -1;
}

/* Puts the code view's cursor on line @line. */
static void
place_code_cursor (GraftWindow *window,
                   gint         line)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (window->code_view);
  GtkTextIter    iter;

  g_assert_cmpint (line, >=, 0);
  gtk_text_buffer_get_iter_at_line (buffer, &iter, line);
  gtk_text_buffer_place_cursor (buffer, &iter);
}

/* The line of the code view's cursor. */
static gint
code_cursor_line (GraftWindow *window)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (window->code_view);
  GtkTextIter    iter;

  gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  return gtk_text_iter_get_line (&iter);
}

/* The position in graph order of @node. */
static guint
graph_position (GraftGraph *graph,
                GraftNode  *node)
{
  guint i = 0;

  for (GraftNode *n = graft_graph_get_first (graph); n != node; n = graft_node_get_next (n))
    i++;
  return i;
}

/* dynamic_batch.pt2 after replace_view_size(): its window, the program's
 * sym_size_int_1 and the copy right after it, and their positions in
 * graph order. */
typedef struct
{
  GraftWindow *window;
  GraftNode   *owner;
  GraftNode   *copy;
  guint        owner_at;
  guint        copy_at;
} SharedCase;

static SharedCase
shared_case_open (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "programs",
                                            "dynamic_batch.pt2", NULL);
  SharedCase       c = { open_path_sized (path, WIDTH, HEIGHT) };
  GraftGraph      *graph;

  iterate_until (layout_ready, c.window);
  replace_view_size (c.window);
  graph = graft_document_get_graph (graft_window_get_document (c.window));
  c.owner = graft_graph_find_node (graph, "sym_size_int_1");
  c.copy = graft_node_get_next (c.owner);
  g_assert_cmpstr (graft_node_get_name (c.copy), ==, "sym_size_int_1");
  c.owner_at = graph_position (graph, c.owner);
  c.copy_at = graph_position (graph, c.copy);
  return c;
}

/* Right-clicks the box of the graph node at @position ("context-menu" at
 * its centre), chooses Why Not Here? and returns the sentence. */
static char *
why_not_at (GraftWindow *window,
            guint        position)
{
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  GraftLayout     *layout = graft_canvas_get_layout (canvas);
  gint             box = graft_layout_lookup (layout, position);
  const GraftRect *r;
  double           x, y;

  g_assert_cmpint (box, >=, 0);
  r = &graft_layout_get_node (layout, (guint) box)->box;
  graft_canvas_center_on (canvas, graft_layout_get_node_name (layout, position));
  graft_canvas_layout_to_widget (canvas, r->x + r->width / 2, r->y + r->height / 2, &x, &y);
  g_assert_cmpint (graft_canvas_pick_graph_node (canvas, x, y), ==, (gint) position);
  g_signal_emit_by_name (canvas, "context-menu", graft_layout_get_node_name (layout, position), x,
                         y);
  /* Choosing an item closes the menu. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (canvas)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER_MENU (child))
      gtk_popover_popdown (GTK_POPOVER (child));
  activate (window, "explain-at",
            g_variant_new_string (graft_layout_get_node_name (layout, position)));
  return g_strdup (gtk_label_get_text (window->warning_label));
}

/* Two nodes of one name (test_shared_names()): the code calls the copy
 * sym_size_int_2, and its line is the copy's both ways (the cursor on it
 * picks the copy's box, a pick of the copy's box puts the cursor on it);
 * the context menu's Why Not Here? explains the node clicked. */
static void
test_shared_names_code (void)
{
  SharedCase       c = shared_case_open ();
  GraftWindow     *window = c.window;
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  GraftDocument   *document = graft_window_get_document (window);
  guint            owner_at = c.owner_at, copy_at = c.copy_at;
  gint             owner_line, copy_line;
  g_autofree char *owner_why = NULL;
  g_autofree char *copy_why = NULL;

  gtk_stack_set_visible_child_name (window->editor_stack, "code");
  iterate_until (copy_line_shown, window);
  owner_line = code_line (window, "    sym_size_int_1 = ");
  copy_line = code_line (window, "    sym_size_int_2 = ");
  g_assert_cmpint (owner_line, >=, 0);
  g_assert_cmpint (copy_line, >=, 0);

  /* Code to canvas: the line's node picked, its box alone selected. */
  graft_canvas_clear_selection (canvas);
  place_code_cursor (window, copy_line);
  g_assert_cmpint (graft_canvas_get_picked (canvas), ==, (gint) copy_at);
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 1);
  place_code_cursor (window, owner_line);
  g_assert_cmpint (graft_canvas_get_picked (canvas), ==, (gint) owner_at);
  place_code_cursor (window, 0);

  /* Canvas to code. */
  graft_canvas_select_graph_node (canvas, copy_at);
  g_assert_cmpint (code_cursor_line (window), ==, copy_line);
  graft_canvas_select_graph_node (canvas, owner_at);
  g_assert_cmpint (code_cursor_line (window), ==, owner_line);
  graft_canvas_select (canvas, "view_default", FALSE);
  graft_canvas_select_graph_node (canvas, copy_at);
  g_assert_cmpint (code_cursor_line (window), ==, copy_line);

  /* The keyboard: Space on the copy's box (the focus a name gives goes to
   * the last box of the name, the copy's) picks it, as a click does. */
  place_code_cursor (window, 0);
  graft_canvas_clear_selection (canvas);
  g_assert_true (graft_canvas_focus_node (canvas, "sym_size_int_1"));
  g_assert_true (press_shortcut (GTK_WIDGET (canvas), "space"));
  g_assert_cmpint (graft_canvas_get_picked (canvas), ==, (gint) copy_at);
  g_assert_cmpint (code_cursor_line (window), ==, copy_line);

  /* Why Not Here? of each: the program's node is used by mul (which
   * passes 2), the copy by the view only. */
  graft_document_set_pattern_text (document, "import torch\n\naten = torch.ops.aten\n\n\n"
                                             "def pattern(x):\n"
                                             "    return aten.sym_size.int(x, 0) * 3\n");
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 0);
  owner_why = why_not_at (window, owner_at);
  copy_why = why_not_at (window, copy_at);
  g_test_message ("owner: %s", owner_why);
  g_test_message ("copy: %s", copy_why);
  g_assert_cmpstr (owner_why, !=, copy_why);
  g_assert_nonnull (strstr (owner_why, "'mul' passes 2"));
  g_assert_null (strstr (copy_why, "'mul' passes 2"));

  /* Undone and redone, the code comes back from the history, not from a
   * code job: the lines still go by node. */
  activate (window, "undo", NULL);
  iterate_until (nine_nodes_laid_out, window);
  activate (window, "redo", NULL);
  iterate_until (ten_nodes_laid_out, window);
  iterate_until (copy_line_shown, window);
  place_code_cursor (window, 0);
  place_code_cursor (window, copy_line);
  g_assert_cmpint (graft_canvas_get_picked (canvas), ==, (gint) copy_at);
  close_last_window (window);
}

/* Whether the canvas has marks for the layout on screen, with the node
 * `mul` (a unique name) in match 1. */
static gboolean
mul_marked (gpointer data)
{
  GraftWindow *window = data;
  GraftCanvas *canvas = graft_window_get_canvas (window);
  const gint  *marks = _graft_canvas_get_marks (canvas);
  GraftGraph  *graph = graft_document_get_graph (graft_window_get_document (window));

  return marks != NULL && layout_ready (window) &&
         marks[graph_position (graph, graft_graph_find_node (graph, "mul"))] == 0;
}

/* Whether the canvas draws the nodes the last rewrite added (the marks
 * made after the layout). */
static gboolean
added_shown (gpointer data)
{
  GraftWindow *window = data;

  return layout_ready (window) &&
         _graft_canvas_get_added (graft_window_get_canvas (window)) != NULL;
}

/* Whether the last rewrite added the graph node at @position, as drawn. */
static gboolean
drawn_added (GraftCanvas *canvas,
             guint        position)
{
  const guint8 *added = _graft_canvas_get_added (canvas);

  return added != NULL && (added[position / 8] >> (position % 8)) & 1;
}

/* The label of the box of the graph node at @position. */
static const char *
box_label (GraftWindow *window,
           guint        position)
{
  GraftLayout *layout = graft_canvas_get_layout (graft_window_get_canvas (window));
  gint         box = graft_layout_lookup (layout, position);

  g_assert_cmpint (box, >=, 0);
  return graft_layout_get_node (layout, (guint) box)->label;
}

/* Two nodes of one name (test_shared_names()): each box says the name the
 * code gives its node, the copy's `sym_size_int_2` as the Code tab and
 * Why Not Here? call it (both boxes said sym_size_int_1), the name the
 * boxes stand for still the nodes' own; undone and redone alike. */
static void
test_shared_names_labels (void)
{
  SharedCase c = shared_case_open ();

  g_assert_cmpstr (box_label (c.window, c.owner_at), ==, "sym_size_int_1");
  g_assert_cmpstr (box_label (c.window, c.copy_at), ==, "sym_size_int_2");
  g_assert_cmpstr (graft_layout_get_node_name (
                       graft_canvas_get_layout (graft_window_get_canvas (c.window)), c.copy_at),
                   ==, "sym_size_int_1");
  activate (c.window, "undo", NULL);
  iterate_until (nine_nodes_laid_out, c.window);
  g_assert_cmpstr (box_label (c.window, c.owner_at), ==, "sym_size_int_1");
  activate (c.window, "redo", NULL);
  iterate_until (ten_nodes_laid_out, c.window);
  g_assert_cmpstr (box_label (c.window, c.owner_at), ==, "sym_size_int_1");
  g_assert_cmpstr (box_label (c.window, c.copy_at), ==, "sym_size_int_2");
  close_last_window (c.window);
}

/* Whether the middle of @canvas's view lies in the box of the graph node
 * at @position. */
static gboolean
view_centred_on (GraftCanvas *canvas,
                 guint        position)
{
  GraftLayout     *layout = graft_canvas_get_layout (canvas);
  gint             box = graft_layout_lookup (layout, position);
  const GraftRect *r;
  GraftRect        area;
  double           x, y;

  g_assert_cmpint (box, >=, 0);
  r = &graft_layout_get_node (layout, (guint) box)->box;
  graft_canvas_get_visible_area (canvas, &area);
  x = area.x + area.width / 2;
  y = area.y + area.height / 2;
  return x >= r->x && x <= r->x + r->width && y >= r->y && y <= r->y + r->height;
}

/* Types @text in Find and waits for its hits. */
static void
find_text (GraftWindow *window,
           const char  *text)
{
  GtkWidget *entry;

  if (!gtk_search_bar_get_search_mode (window->search_bar))
    g_action_group_activate_action (G_ACTION_GROUP (window), "find", NULL);
  entry = gtk_widget_get_ancestor (gtk_window_get_focus (GTK_WINDOW (window)),
                                   GTK_TYPE_SEARCH_ENTRY);
  g_assert_nonnull (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  /* Now, not after the entry's delay. */
  g_signal_emit_by_name (entry, "search-changed");
  iterate_until (search_done, window->search);
  graft_search_step (window->search, 0);
}

/* Two nodes of one name (test_shared_names()): Find goes by node.  The
 * copy is found by the name its box and the code give it
 * (`sym_size_int_2` found nothing), the program's node alone by its
 * name, and of the two hits of `sym_size_int` each is shown, centred and
 * picked as its own box (both hits showed the same box). */
static void
test_shared_names_find (void)
{
  SharedCase   c = shared_case_open ();
  GraftCanvas *canvas = graft_window_get_canvas (c.window);
  GraftSearch *search = c.window->search;

  /* Zoomed in, so that the view can be centred on either box. */
  graft_canvas_set_zoom (canvas, 4.0);
  find_text (c.window, "sym_size_int_2");
  g_assert_cmpstr (graft_search_get_current (search), ==, "sym_size_int_1");
  g_assert_cmpuint (graft_search_get_current_place (search), ==, c.copy_at);
  g_assert_cmpint (graft_canvas_get_picked (canvas), ==, (gint) c.copy_at);
  g_assert_true (view_centred_on (canvas, c.copy_at));

  find_text (c.window, "sym_size_int_1");
  g_assert_cmpuint (graft_search_get_current_place (search), ==, c.owner_at);
  g_assert_cmpint (graft_canvas_get_picked (canvas), ==, (gint) c.owner_at);
  g_assert_true (view_centred_on (canvas, c.owner_at));

  find_text (c.window, "sym_size_int");
  g_assert_cmpuint (graft_search_get_current_place (search), ==, c.owner_at);
  g_assert_true (view_centred_on (canvas, c.owner_at));
  graft_search_step (search, 1);
  g_assert_cmpuint (graft_search_get_current_place (search), ==, c.copy_at);
  g_assert_true (view_centred_on (canvas, c.copy_at));
  close_last_window (c.window);
}

/* Whether the properties panel is on screen. */
static gboolean
properties_shown (gpointer data)
{
  return graft_window_get_properties_shown (data);
}

/* Asserts that of the two nodes of one name, only the one at @at is
 * selected (one box ringed), and that it is the one picked. */
static void
assert_selected_alone (GraftCanvas *canvas,
                       guint        at,
                       guint        other)
{
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 1);
  g_assert_true (graft_canvas_is_node_selected (canvas, at));
  g_assert_false (graft_canvas_is_node_selected (canvas, other));
  g_assert_cmpint (graft_canvas_get_picked (canvas), ==, (gint) at);
}

/* Two nodes of one name (test_shared_names()): the canvas selects by
 * node.  Find's hit of the copy (`sym_size_int_2`) rings the copy's box
 * alone, and the program's node's (`sym_size_int_1`) its own (both boxes
 * were ringed: the selection was a set of names), and Escape leaves the
 * keyboard on that box; the properties panel
 * shows the one node, and a pattern made from the selection holds it
 * alone.  The keyboard's Space picks the focused box alone and
 * Ctrl+Space adds the other and takes it out again.  Undo keeps the
 * program's node selected (the node of the same rank in its name), and
 * drops the copy it takes away; the name selected as a name is both. */
static void
test_shared_names_select (void)
{
  SharedCase       c = shared_case_open ();
  GraftWindow     *window = c.window;
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  GraftDocument   *document = graft_window_get_document (window);
  GraftLayout     *layout;
  g_autofree char *text = NULL;
  const char      *pattern;

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-properties", NULL);
  iterate_until (properties_shown, window);

  find_text (window, "sym_size_int_2");
  assert_selected_alone (canvas, c.copy_at, c.owner_at);
  text = graft_properties_dup_text (graft_window_get_properties (window));
  g_test_message ("%s", text);
  g_assert_null (strstr (text, "Nodes Selected"));
  /* Named as the code and its box name it. */
  g_assert_true (g_str_has_prefix (text, "sym_size_int_2\n"));
  g_assert_cmpstr (graft_properties_get_value (graft_window_get_properties (window), "users"), ==,
                   "view_default");

  find_text (window, "sym_size_int_1");
  assert_selected_alone (canvas, c.owner_at, c.copy_at);
  /* Escape gives the keyboard to the canvas at the hit's own box (the
   * last box of the name was focused): Space there selects it. */
  g_signal_emit_by_name (gtk_widget_get_ancestor (gtk_window_get_focus (GTK_WINDOW (window)),
                                                  GTK_TYPE_SEARCH_ENTRY),
                         "stop-search");
  graft_canvas_clear_selection (canvas);
  g_assert_true (press_shortcut (GTK_WIDGET (canvas), "space"));
  assert_selected_alone (canvas, c.owner_at, c.copy_at);
  find_text (window, "sym_size_int");
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 2);
  g_action_group_activate_action (G_ACTION_GROUP (window), "find", NULL);
  gtk_search_bar_set_search_mode (window->search_bar, FALSE);

  /* The tooltip of each box is its own node's: the copy by its code
   * name, used by the view; the program's node used by mul. */
  {
    GraftLayout     *shown = graft_canvas_get_layout (canvas);
    g_autofree char *copy_tip = NULL;
    g_autofree char *owner_tip = NULL;
    const GraftRect *r;
    double           x, y;

    graft_canvas_set_zoom (canvas, 1.0);
    graft_canvas_center_on_placed (canvas, "sym_size_int_1", c.copy_at);
    r = &graft_layout_get_node (shown, (guint) graft_layout_lookup (shown, c.copy_at))->box;
    graft_canvas_layout_to_widget (canvas, r->x + r->width / 2, r->y + r->height / 2, &x, &y);
    copy_tip = graft_canvas_describe_at (canvas, x, y);
    r = &graft_layout_get_node (shown, (guint) graft_layout_lookup (shown, c.owner_at))->box;
    graft_canvas_layout_to_widget (canvas, r->x + r->width / 2, r->y + r->height / 2, &x, &y);
    owner_tip = graft_canvas_describe_at (canvas, x, y);
    g_test_message ("%s\n%s", copy_tip, owner_tip);
    g_assert_true (g_str_has_prefix (copy_tip, "<b>sym_size_int_2</b>"));
    g_assert_nonnull (strstr (copy_tip, "<tt>users</tt>  view_default"));
    g_assert_true (g_str_has_prefix (owner_tip, "<b>sym_size_int_1</b>"));
    g_assert_nonnull (strstr (owner_tip, "<tt>users</tt>  mul"));
  }

  /* The keyboard, on the copy's box (the focus a name gives goes to the
   * last box of the name). */
  graft_canvas_clear_selection (canvas);
  g_assert_true (graft_canvas_focus_node (canvas, "sym_size_int_1"));
  g_assert_true (press_shortcut (GTK_WIDGET (canvas), "space"));
  assert_selected_alone (canvas, c.copy_at, c.owner_at);
  layout = graft_canvas_get_layout (canvas);
  g_assert_cmpint (graft_layout_lookup (layout, c.copy_at), >=, 0);
  graft_canvas_select_graph_node (canvas, c.owner_at);
  assert_selected_alone (canvas, c.owner_at, c.copy_at);
  g_assert_true (graft_canvas_focus_node (canvas, "sym_size_int_1"));
  g_assert_true (press_shortcut (GTK_WIDGET (canvas), "<Control>space"));
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 2);
  g_assert_true (press_shortcut (GTK_WIDGET (canvas), "<Control>space"));
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 1);
  g_assert_true (graft_canvas_is_node_selected (canvas, c.owner_at));

  /* Undo and redo: the program's node stays selected, alone. */
  gtk_widget_grab_focus (GTK_WIDGET (canvas));
  activate (window, "undo", NULL);
  iterate_until (nine_nodes_laid_out, window);
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 1);
  g_assert_true (graft_canvas_is_node_selected (canvas, c.owner_at));
  activate (window, "redo", NULL);
  iterate_until (ten_nodes_laid_out, window);
  assert_selected_alone (canvas, c.owner_at, c.copy_at);
  /* The copy selected, its undo takes it away with its node. */
  graft_canvas_select_graph_node (canvas, c.copy_at);
  activate (window, "undo", NULL);
  iterate_until (nine_nodes_laid_out, window);
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 0);
  activate (window, "redo", NULL);
  iterate_until (ten_nodes_laid_out, window);
  /* A name selected as a name is every node of it. */
  graft_canvas_select (canvas, "sym_size_int_1", FALSE);
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 2);
  /* The copy and another node: the panel lists two nodes (it listed
   * every node of the copy's name: three). */
  graft_canvas_select_graph_node (canvas, c.copy_at);
  graft_canvas_select (canvas, "view_default", TRUE);
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 2);
  g_free (text);
  text = graft_properties_dup_text (graft_window_get_properties (window));
  g_assert_true (g_str_has_prefix (text, "2 Nodes Selected\n"));

  /* A pattern from the copy selected alone: one call (both nodes made
   * two). */
  graft_canvas_select_graph_node (canvas, c.copy_at);
  activate (window, "pattern-from-selection", NULL);
  pattern = graft_document_get_pattern_text (document);
  g_test_message ("%s", pattern);
  g_assert_nonnull (strstr (pattern, "sym_size.int("));
  g_assert_null (strstr (strstr (pattern, "sym_size.int(") + 1, "sym_size.int("));
  close_last_window (window);
}

/* Whether the canvas has selected the graph node at *@data. */
static guint        selected_wanted;
static GraftCanvas *selected_canvas;

static gboolean
wanted_selected (gpointer data)
{
  return graft_canvas_is_node_selected (selected_canvas, selected_wanted);
}

/* Two nodes of one name (test_shared_names()): a link of the properties
 * panel selects the node it stands for (by its name, both boxes were
 * selected): view_default's size links the copy, x's users link both;
 * Why Not Here? selects the nodes the pattern bound, the program's node
 * without the copy. */
static void
test_shared_names_links (void)
{
  SharedCase       c = shared_case_open ();
  GraftWindow     *window = c.window;
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  GraftDocument   *document = graft_window_get_document (window);
  GraftProperties *panel = graft_window_get_properties (window);
  g_autofree char *why = NULL;

  selected_canvas = canvas;
  /* Shown or hidden, as the last test left it. */
  if (!graft_window_get_properties_shown (window))
    g_action_group_activate_action (G_ACTION_GROUP (window), "show-properties", NULL);
  iterate_until (properties_shown, window);
  graft_canvas_select (canvas, "view_default", FALSE);
  g_test_message ("%s", graft_properties_get_value (panel, "size"));
  g_assert_true (graft_properties_activate_link (panel, "size", "sym_size_int_1#1"));
  selected_wanted = c.copy_at;
  iterate_until (wanted_selected, NULL);
  assert_selected_alone (canvas, c.copy_at, c.owner_at);

  graft_canvas_select (canvas, "x", FALSE);
  g_test_message ("%s", graft_properties_get_value (panel, "users"));
  g_assert_true (graft_properties_activate_link (panel, "users", "sym_size_int_1"));
  selected_wanted = c.owner_at;
  iterate_until (wanted_selected, NULL);
  assert_selected_alone (canvas, c.owner_at, c.copy_at);
  graft_canvas_select (canvas, "x", FALSE);
  g_assert_true (graft_properties_activate_link (panel, "users", "sym_size_int_1#1"));
  selected_wanted = c.copy_at;
  iterate_until (wanted_selected, NULL);
  assert_selected_alone (canvas, c.copy_at, c.owner_at);

  /* Why Not Here? at the program's node: what the pattern bound, mul
   * and the program's node, not the copy. */
  graft_document_set_pattern_text (document, "import torch\n\naten = torch.ops.aten\n\n\n"
                                             "def pattern(x):\n"
                                             "    return aten.sym_size.int(x, 0) * 3\n");
  why = why_not_at (window, c.owner_at);
  g_test_message ("%s", why);
  g_assert_true (graft_canvas_is_node_selected (canvas, c.owner_at));
  g_assert_false (graft_canvas_is_node_selected (canvas, c.copy_at));
  close_last_window (window);
}

/* The properties panel names the copy as its box and the code do,
 * `sym_size_int_2` (its title, and view_default's link to it), where it
 * said `sym_size_int_1`; the link still selects the copy. */
static void
test_shared_names_properties (void)
{
  SharedCase       c = shared_case_open ();
  GraftWindow     *window = c.window;
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  GraftDocument   *document = graft_window_get_document (window);
  GraftProperties *panel = graft_window_get_properties (window);
  g_autofree char *code = NULL;
  g_autofree char *text = NULL;

  code = graft_document_dup_code (document);
  g_assert_nonnull (strstr (code, "sym_size_int_2 = "));
  g_assert_cmpstr (graft_document_get_code_name (document, c.copy), ==, "sym_size_int_2");
  selected_canvas = canvas;
  if (!graft_window_get_properties_shown (window))
    g_action_group_activate_action (G_ACTION_GROUP (window), "show-properties", NULL);
  iterate_until (properties_shown, window);
  graft_canvas_select_graph_node (canvas, c.copy_at);
  text = graft_properties_dup_text (panel);
  g_test_message ("%s", text);
  g_assert_true (g_str_has_prefix (text, "sym_size_int_2\n"));
  graft_canvas_select (canvas, "view_default", FALSE);
  g_assert_nonnull (strstr (graft_properties_get_value (panel, "size"), "sym_size_int_2"));
  g_assert_null (strstr (graft_properties_get_value (panel, "size"), "sym_size_int_1"));
  g_assert_true (graft_properties_activate_link (panel, "size", "sym_size_int_1#1"));
  selected_wanted = c.copy_at;
  iterate_until (wanted_selected, NULL);
  assert_selected_alone (canvas, c.copy_at, c.owner_at);
  close_last_window (window);
}

static guint wanted_nodes;

static gboolean
wanted_nodes_laid_out (gpointer window)
{
  return n_graph_nodes_is (window, wanted_nodes);
}

/* Replace All of `return PATTERN` by `return REPLACEMENT`, both functions
 * of x and s over aten, then waits for a layout of @n graph nodes. */
static void
replace_all_with (GraftWindow *window,
                  const char  *pattern,
                  const char  *replacement,
                  guint        n)
{
  GraftDocument   *document = graft_window_get_document (window);
  g_autofree char *p = g_strdup_printf ("import torch\n\naten = torch.ops.aten\n\n\n"
                                        "def pattern(x, s):\n    return %s\n",
                                        pattern);
  g_autofree char *r = g_strdup_printf ("import torch\n\naten = torch.ops.aten\n\n\n"
                                        "def replacement(x, s):\n    return %s\n",
                                        replacement);

  graft_document_set_pattern_text (document, p);
  graft_document_set_replacement_text (document, r);
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 1);
  activate (window, "replace-all", NULL);
  wanted_nodes = n;
  iterate_until (wanted_nodes_laid_out, window);
}

/* The names of @graph's nodes, in graph order, joined by spaces. */
static char *
graph_names (GraftGraph *graph)
{
  GString *names = g_string_new (NULL);

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    g_string_append_printf (names, "%s%s", names->len > 0 ? " " : "", graft_node_get_name (node));
  return g_string_free (names, FALSE);
}

/* The session @document would save, read into a new document: the
 * graph's node names, in graph order, after its steps. */
static char *
session_names (const char *text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSession) session = graft_session_parse ("s.graft", text, strlen (text), &error);
  g_autoptr (GraftDocument) document = graft_document_new ();

  g_assert_no_error (error);
  g_assert_true (graft_session_install (session, document, &error));
  g_assert_no_error (error);
  return graph_names (graft_document_get_graph (document));
}

/* Two nodes of one name (test_shared_names()), neither used (two more
 * rewrites take their users away): Delete of the copy selected deletes
 * the copy alone (both went: the document deleted by name), in one
 * undoable step, and a session saved then does the same when read again;
 * a session of an older Graft (no "ranks") deletes every unused node of
 * the name, as it did. */
static void
test_shared_names_delete (void)
{
  SharedCase     c = shared_case_open ();
  GraftWindow   *window = c.window;
  GraftCanvas   *canvas = graft_window_get_canvas (window);
  GraftDocument *document = graft_window_get_document (window);
  GraftGraph    *graph;
  g_autoptr (GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *text = NULL;
  g_autofree char *restored = NULL;
  g_autofree char *old = NULL;
  char            *ranks;

  replace_all_with (window, "aten.view.default(x, [s, -1, 4])",
                    "aten.view.default(x, [-1, 2, 4])", 10);
  replace_all_with (window, "aten.reshape.default(x, [s * 2, 4])",
                    "aten.reshape.default(x, [-1, 4])", 9);
  graph = graft_document_get_graph (document);
  c.owner = graft_graph_find_node (graph, "sym_size_int_1");
  c.copy = graft_node_get_next (c.owner);
  g_assert_cmpstr (graft_node_get_name (c.copy), ==, "sym_size_int_1");
  g_assert_cmpuint (graft_node_get_n_users (c.owner), ==, 0);
  g_assert_cmpuint (graft_node_get_n_users (c.copy), ==, 0);
  c.copy_at = graph_position (graph, c.copy);
  before = graph_names (graph);

  graft_canvas_select_graph_node (canvas, c.copy_at);
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 1);
  activate (window, "delete-selected", NULL);
  graph = graft_document_get_graph (document);
  after = graph_names (graph);
  g_test_message ("%s\n%s", before, after);
  g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, 8);
  /* The program's node is left: the copy was the one after it. */
  g_assert_true (graft_graph_find_node (graph, "sym_size_int_1") == c.owner);
  g_assert_cmpstr (graft_window_get_last_toast (window), ==, "Deleted 1 node");

  /* A session: the step says which node of the name, and reading it
   * again deletes that one. */
  text = graft_session_write (document, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "\"ranks\""));
  restored = session_names (text);
  g_assert_cmpstr (restored, ==, after);

  /* Ranks that are not ranks, or not one a node: a located error. */
  {
    static const char *const bad[][2] = {
      { "[-1]", "'ranks' must hold ranks (0, 1, ...)" },
      { "[\"1\"]", "'ranks' must hold ranks (0, 1, ...)" },
      { "[0, 1]", "'ranks' must hold a rank for each of 'nodes'" },
    };
    g_autoptr (GRegex) regex = g_regex_new ("\"ranks\"\\s*:\\s*\\[[^]]*\\]", 0, 0, NULL);

    for (guint k = 0; k < G_N_ELEMENTS (bad); k++)
      {
        g_autofree char *with = g_strdup_printf ("\"ranks\" : %s", bad[k][0]);
        g_autofree char *broken = g_regex_replace_literal (regex, text, -1, 0, with, 0, NULL);
        g_autoptr (GError) bad_error = NULL;
        g_autoptr (GraftSession) session =
            graft_session_parse ("s.graft", broken, strlen (broken), &bad_error);

        const char *where = NULL;
        guint       line = 0, column = 0;

        g_assert_null (session);
        g_test_message ("%s", bad_error->message);
        g_assert_nonnull (strstr (bad_error->message, bad[k][1]));
        /* At the step. */
        g_assert_true (graft_error_get_location (bad_error, &where, &line, &column, NULL, NULL));
        g_assert_cmpstr (where, ==, "s.graft");
        g_assert_cmpuint (line, >, 1);
      }
  }

  /* A rank past the nodes of the name: said so (it was skipped, and the
   * step failed as "the selected nodes are used by other nodes"). */
  {
    g_autoptr (GRegex) regex = g_regex_new ("\"ranks\"\\s*:\\s*\\[[^]]*\\]", 0, 0, NULL);
    g_autofree char *past =
        g_regex_replace_literal (regex, text, -1, 0, "\"ranks\" : [2]", 0, NULL);
    g_autoptr (GError) past_error = NULL;
    g_autoptr (GraftSession) session = graft_session_parse ("s.graft", past, strlen (past), &error);
    g_autoptr (GraftDocument) restoring = graft_document_new ();

    g_assert_no_error (error);
    g_assert_false (graft_session_install (session, restoring, &past_error));
    g_test_message ("%s", past_error->message);
    g_assert_true (g_str_has_suffix (
        past_error->message,
        "does not apply: no node 'sym_size_int_1' of rank 2: the graph has 2 of that name"));
  }

  /* An older session, without the ranks: every unused node of the name. */
  ranks = strstr (text, "\"ranks\"");
  g_assert_nonnull (ranks);
  {
    char *end = strchr (ranks, ']');

    g_assert_nonnull (end);
    /* `"ranks" : [ 1 ]` (and the comma before it) made blanks. */
    while (ranks > text && ranks[-1] != ',')
      ranks--;
    memset (ranks - 1, ' ', (gsize) (end - ranks + 2));
  }
  g_test_message ("%s", text);
  g_assert_null (strstr (text, "\"ranks\""));
  old = session_names (text);
  g_assert_null (strstr (old, "sym_size_int_1"));

  /* Undone: both again; redone: the copy alone goes. */
  activate (window, "undo", NULL);
  g_free (after);
  after = graph_names (graft_document_get_graph (document));
  g_assert_cmpstr (after, ==, before);
  activate (window, "redo", NULL);
  g_assert_cmpuint (graft_graph_get_n_nodes (graft_document_get_graph (document)), ==, 8);
  g_assert_nonnull (graft_graph_find_node (graft_document_get_graph (document), "sym_size_int_1"));
  close_last_window (window);
}

/* Whether the canvas takes Escape (its clear-selection action is enabled
 * only while there is a selection; else Escape goes on to the window). */
static gboolean
escape_taken (GraftCanvas *canvas)
{
  return press_shortcut (GTK_WIDGET (canvas), "Escape");
}

/* Two nodes of one name (test_shared_names()): a new graph takes out of
 * the canvas's selection the nodes it no longer has.  The copy selected,
 * its undo takes it away: nothing is left selected, Escape goes on to the
 * window, and the redo does not select it again (the name stayed in the
 * table, with the copy's rank); both nodes selected, the undo leaves the
 * program's node, and the redo selects it alone; a node a rewrite removed
 * (the view the rewrite added, undone) is forgotten the same way. */
static void
test_shared_names_prune (void)
{
  SharedCase   c = shared_case_open ();
  GraftWindow *window = c.window;
  GraftCanvas *canvas = graft_window_get_canvas (window);
  GraftGraph  *graph = graft_document_get_graph (graft_window_get_document (window));
  guint        view_at = graph_position (graph, graft_graph_find_node (graph, "view_default"));

  gtk_widget_grab_focus (GTK_WIDGET (canvas));
  graft_canvas_select_graph_node (canvas, c.copy_at);
  g_assert_true (graft_canvas_is_node_selected (canvas, c.copy_at));
  activate (window, "undo", NULL);
  iterate_until (nine_nodes_laid_out, window);
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 0);
  g_assert_false (escape_taken (canvas));
  activate (window, "redo", NULL);
  iterate_until (ten_nodes_laid_out, window);
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 0);
  g_assert_false (escape_taken (canvas));

  /* Both: the program's node is left, alone after the redo too. */
  graft_canvas_select_graph_node (canvas, c.copy_at);
  g_assert_true (graft_canvas_focus_node_placed (canvas, "sym_size_int_1", c.owner_at));
  g_assert_true (press_shortcut (GTK_WIDGET (canvas), "<Control>space"));
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 2);
  activate (window, "undo", NULL);
  iterate_until (nine_nodes_laid_out, window);
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 1);
  g_assert_true (graft_canvas_is_node_selected (canvas, c.owner_at));
  activate (window, "redo", NULL);
  iterate_until (ten_nodes_laid_out, window);
  assert_selected_alone (canvas, c.owner_at, c.copy_at);

  /* A node the undo removes, of a name of its own. */
  graft_canvas_select_graph_node (canvas, view_at);
  activate (window, "undo", NULL);
  iterate_until (nine_nodes_laid_out, window);
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 0);
  g_assert_false (escape_taken (canvas));
  activate (window, "redo", NULL);
  iterate_until (ten_nodes_laid_out, window);
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 0);
  close_last_window (window);
}

/* Two nodes of one name (test_shared_names()): the ring of Replace All's
 * added nodes is the copy's, and a match of the program's node rings its
 * box, not the copy's; a pick of either box chooses its own match, or
 * none, as does its context menu. */
static void
test_shared_names_marks (void)
{
  SharedCase     c = shared_case_open ();
  GraftWindow   *window = c.window;
  GraftCanvas   *canvas = graft_window_get_canvas (window);
  GraftDocument *document = graft_window_get_document (window);
  GraftGraph    *graph = graft_document_get_graph (document);
  guint          owner_at = c.owner_at, copy_at = c.copy_at;
  const gint    *marks;

  iterate_until (added_shown, window);
  g_assert_true (drawn_added (canvas, copy_at));
  g_assert_false (drawn_added (canvas, owner_at));
  g_assert_true (
      drawn_added (canvas, graph_position (graph, graft_graph_find_node (graph, "view_default"))));

  graft_document_set_pattern_text (document, "import torch\n\naten = torch.ops.aten\n\n\n"
                                             "def pattern(x):\n"
                                             "    return aten.sym_size.int(x, 0) * 2\n");
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 1);
  iterate_until (mul_marked, window);
  marks = _graft_canvas_get_marks (canvas);
  g_assert_cmpint (marks[owner_at], ==, 0);
  g_assert_cmpint (marks[copy_at], ==, -1);
  g_assert_cmpint (graft_document_get_match_of_graph_node (document, c.owner), ==, 0);
  g_assert_cmpint (graft_document_get_match_of_graph_node (document, c.copy), ==, -1);
  graft_canvas_select_graph_node (canvas, owner_at);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 0);
  graft_canvas_select_graph_node (canvas, copy_at);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, -1);
  close_last_window (window);
}

int
main (int    argc,
      char **argv)
{
  if (!ui_test_init (&argc, &argv))
    return 0;
  g_test_add_func ("/ui/view/fit", test_fit);
  g_test_add_func ("/ui/view/start-readable", test_start_readable);
  g_test_add_func ("/ui/view/resize-keeps-center", test_resize_keeps_center);
  g_test_add_func ("/ui/view/overview", test_overview);
  g_test_add_func ("/ui/view/overview-action", test_overview_action);
  g_test_add_func ("/ui/view/chosen-match", test_chosen_match);
  g_test_add_func ("/ui/view/find-current", test_find_current);
  g_test_add_func ("/ui/view/find-readable", test_find_readable);
  g_test_add_func ("/ui/view/selection-scan", test_selection_scan);
  g_test_add_func ("/ui/view/find-in-turns", test_find_in_turns);
  g_test_add_func ("/ui/view/selection-placed", test_selection_placed);
  g_test_add_func ("/ui/view/shared-names", test_shared_names);
  g_test_add_func ("/ui/view/shared-names-code", test_shared_names_code);
  g_test_add_func ("/ui/view/shared-names-labels", test_shared_names_labels);
  g_test_add_func ("/ui/view/shared-names-select", test_shared_names_select);
  g_test_add_func ("/ui/view/shared-names-find", test_shared_names_find);
  g_test_add_func ("/ui/view/shared-names-marks", test_shared_names_marks);
  g_test_add_func ("/ui/view/shared-names-prune", test_shared_names_prune);
  g_test_add_func ("/ui/view/shared-names-delete", test_shared_names_delete);
  g_test_add_func ("/ui/view/shared-names-links", test_shared_names_links);
  g_test_add_func ("/ui/view/shared-names-properties", test_shared_names_properties);
  return g_test_run ();
}
