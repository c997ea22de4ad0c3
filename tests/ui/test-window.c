/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-window.c: the editor window on small and large screens, and the
 * split view of the graphs before and after a change (under Xvfb).
 *
 * Small screens: the window's content needs no more than 800x600 (its
 * minimum size, measured), its default size fits a 1366x768 screen, and
 * at 800x600 no widget is allocated less than its own minimum; the side
 * panel sits beside the canvas in a wide window and folds over it in a
 * narrow one, where win.show-side-panel (Shift+F9) shows and hides it.
 *
 * The split view: after Replace All on the tutorial, the nodes drawn
 * removed, added, rewired and kept are exactly what the rewrite did (the
 * matched nodes gone, the nodes the document reports added, the users of
 * the matches' outputs rewired, everything else kept); the two views zoom
 * and pan together, keeping a shared node at the same place on screen; a
 * History step compares too; Escape and Ctrl+W close the window.
 */
#include "config.h"

#include "example.h"
#include "window-util.h"

#include "graft-canvas.h"
#include "graft-comparison.h"
#include "graft-document.h"
#include "graft-match-model.h"
#include "graft-split-window.h"
#include "graft-window.h"
#include "graft-window-private.h"

#include <math.h>
#include <string.h>

/* The flap that holds the side panel: the outermost one. */
static AdwFlap *
side_flap (GraftWindow *window)
{
  return ADW_FLAP (find_widget (GTK_WIDGET (window), ADW_TYPE_FLAP));
}

typedef struct
{
  GtkWidget *window;
  int        width;
  int        height;
} Size;

static gboolean
allocated (gpointer data)
{
  Size *size = data;

  /* The window's own widget leaves out the frame around it (the shadow
   * and resize border of client-side decorations). */
  return gtk_widget_get_width (size->window) <= size->width &&
         gtk_widget_get_width (size->window) > size->width - 24 &&
         gtk_widget_get_height (size->window) <= size->height &&
         gtk_widget_get_height (size->window) > size->height - 24;
}

/* @widget, when mapped, is allocated at least its minimum width (a
 * measure counts the margins, an allocation's width does not). */
static gboolean
fits (GtkWidget *widget)
{
  int min_width;

  if (widget == NULL || !gtk_widget_get_mapped (widget))
    return TRUE;
  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
  return gtk_widget_get_width (widget) + gtk_widget_get_margin_start (widget) +
             gtk_widget_get_margin_end (widget) >=
         min_width;
}

/* The parts of the window's layout: the content, the side panel's flap
 * with the canvas side and the panel, the properties panel's flap with
 * the canvas and the panel. */
static gboolean
nothing_squeezed (gpointer data)
{
  GraftWindow *window = data;
  AdwFlap     *side = side_flap (window);
  AdwFlap     *properties =
      ADW_FLAP (find_widget (adw_flap_get_content (side), ADW_TYPE_FLAP));

  return fits (adw_application_window_get_content (ADW_APPLICATION_WINDOW (window))) &&
         fits (GTK_WIDGET (side)) && fits (adw_flap_get_content (side)) &&
         fits (adw_flap_get_flap (side)) && fits (GTK_WIDGET (properties)) &&
         fits (adw_flap_get_content (properties)) && fits (adw_flap_get_flap (properties)) &&
         fits (GTK_WIDGET (graft_window_get_canvas (window)));
}

/* Every part of the window's layout got at least its minimum width, once
 * the last change of a label or a zoom has been laid out. */
static void
assert_no_squeeze (GraftWindow *window)
{
  iterate_until (nothing_squeezed, window);
}

static void
resize (GraftWindow *window,
        int          width,
        int          height)
{
  Size size = { GTK_WIDGET (window), width, height };

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  iterate_until (allocated, &size);
}

/* The window needs no more than 800x600; its default fits a 1366x768
 * screen with room for a top bar; at 800x600 nothing is squeezed below
 * its minimum, with the side panel shown over the canvas or not. */
static void
test_small_screen (void)
{
  GraftWindow *window = open_example_sized (-1, -1);
  GtkWidget   *content = adw_application_window_get_content (ADW_APPLICATION_WINDOW (window));
  AdwFlap     *flap = side_flap (window);
  int          width;
  int          height;
  int          min_width;
  int          min_height;

  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, <=, 1366);
  g_assert_cmpint (height, <=, 768 - 48);
  gtk_widget_measure (content, GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
  gtk_widget_measure (content, GTK_ORIENTATION_VERTICAL, 800, &min_height, NULL, NULL, NULL);
  g_test_message ("minimum content size: %dx%d", min_width, min_height);
  g_assert_cmpint (min_width, <=, 800);
  g_assert_cmpint (min_height, <=, 600);
  /* A 1600x1000 screen at twice the scale is 800x500. */
  gtk_widget_measure (content, GTK_ORIENTATION_VERTICAL, 800, &min_height, NULL, NULL, NULL);
  g_assert_cmpint (min_height, <=, 500 - 40);

  resize (window, 800, 600);
  iterate_until (flap_settled, flap);
  g_assert_true (adw_flap_get_folded (flap));
  assert_no_squeeze (window);
  gtk_widget_measure (content, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (content),
                      &min_height, NULL, NULL, NULL);
  g_assert_cmpint (gtk_widget_get_height (content), >=, min_height);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (graft_window_get_canvas (window))), ==,
                   gtk_widget_get_width (content));

  /* Shift+F9 activates it: a toggle. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-side-panel", NULL);
  iterate_until (flap_settled, flap);
  g_assert_true (adw_flap_get_reveal_flap (flap));
  assert_no_squeeze (window);
  /* The side panel is there, over the canvas. */
  g_assert_true (gtk_widget_get_mapped (adw_flap_get_flap (flap)));
  close_window (GTK_WIDGET (window));
}

/* A first window on a large screen opens at a share of it, the default's
 * proportions kept (it kept 1120x700 on 1920x1080); on the test's screen
 * (1280x1024, as xvfb-run makes it) and smaller ones, at the default. */
static void
test_screen_share (void)
{
  static const struct
  {
    int screen_width;
    int screen_height;
    int width;
    int height;
  } cases[] = {
    { 1920, 1080, 1296, 810 },
    { 2560, 1440, 1728, 1080 },
    { 3840, 2160, 2592, 1620 },
    { 1280, 1024, 1120, 700 },
    { 1366, 768, 1120, 700 },
    { 800, 600, 1120, 700 },
  };
  GraftWindow *window = g_object_new (GRAFT_TYPE_WINDOW, NULL);
  GdkRectangle geometry;
  g_autoptr (GdkMonitor) monitor = NULL;
  int width = 1120;
  int height = 700;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      int w = 1120;
      int h = 700;

      _graft_window_share_screen (cases[i].screen_width, cases[i].screen_height, &w, &h);
      g_assert_cmpint (w, ==, cases[i].width);
      g_assert_cmpint (h, ==, cases[i].height);
      /* Within the share, in both directions. */
      g_assert_cmpint (w, <=, MAX (1120, cases[i].screen_width * 3 / 4));
      g_assert_cmpint (h, <=, MAX (700, cases[i].screen_height * 3 / 4));
    }
  /* The window itself asks its screen. */
  monitor = g_list_model_get_item (gdk_display_get_monitors (gdk_display_get_default ()), 0);
  gdk_monitor_get_geometry (monitor, &geometry);
  _graft_window_screen_size (window, &width, &height);
  g_test_message ("screen %dx%d: %dx%d", geometry.width, geometry.height, width, height);
  g_assert_cmpint (width, >=, 1120);
  g_assert_cmpint (width, <=, MAX (1120, geometry.width * 3 / 4));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* At the default size, the application's style sheet loaded as the
 * application loads it: the side panel sits beside the canvas at about
 * its default width, and the properties panel (F9), folded over the
 * canvas, covers part of it, not all of it. */
static void
test_properties_default_size (void)
{
  g_autoptr (GtkCssProvider) css = gtk_css_provider_new ();
  GraftWindow *window;
  AdwFlap     *flap;
  GtkWidget   *properties;
  AdwFlap     *properties_flap;
  GtkWidget   *canvas;
  int          panel_min;

  gtk_css_provider_load_from_resource (css, "/org/graft/Editor/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  window = open_example_sized (-1, -1);
  flap = side_flap (window);
  properties = GTK_WIDGET (graft_window_get_properties (window));
  properties_flap = ADW_FLAP (gtk_widget_get_ancestor (properties, ADW_TYPE_FLAP));
  canvas = GTK_WIDGET (graft_window_get_canvas (window));
  iterate_until (flap_settled, flap);
  g_assert_false (adw_flap_get_folded (flap));
  gtk_widget_measure (adw_flap_get_flap (flap), GTK_ORIENTATION_HORIZONTAL, -1, &panel_min, NULL,
                      NULL, NULL);
  g_test_message ("side panel at least %d, canvas %d", panel_min, gtk_widget_get_width (canvas));
  /* Its four tabs each as wide as their titles, not all as "Replacement". */
  g_assert_cmpint (panel_min, <=, 480);
  g_assert_cmpint (gtk_widget_get_width (canvas), >=, 560);

  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-properties",
                                      g_variant_new_boolean (TRUE));
  iterate_until (flap_settled, properties_flap);
  g_assert_true (gtk_widget_get_mapped (properties));
  g_test_message ("properties %d over a canvas of %d", gtk_widget_get_width (properties),
                  gtk_widget_get_width (canvas));
  g_assert_cmpint (gtk_widget_get_width (properties), <=, 360);
  g_assert_cmpint (gtk_widget_get_width (canvas) - gtk_widget_get_width (properties), >=, 200);
  close_window (GTK_WIDGET (window));
  gtk_style_context_remove_provider_for_display (gdk_display_get_default (),
                                                 GTK_STYLE_PROVIDER (css));
}

/* At the default size the side panel, on its Pattern page, fits the
 * window: the matches below the editor are in view, not under the
 * window's edge (every page as tall as the Rules page had pushed them
 * there). */
static void
test_matches_in_view (void)
{
  GraftWindow    *window = open_example_sized (-1, -1);
  GtkWidget      *editor = graft_window_get_pattern_editor (window, FALSE);
  GtkWidget      *paned = gtk_widget_get_ancestor (editor, GTK_TYPE_PANED);
  GtkWidget      *scroller = gtk_widget_get_ancestor (paned, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment  *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  GtkWidget      *list = gtk_paned_get_end_child (GTK_PANED (paned));
  graphene_rect_t bounds;

  iterate_until (flap_settled, side_flap (window));
  g_test_message ("side panel %.0f of %.0f pixels", gtk_adjustment_get_upper (adjustment),
                  gtk_adjustment_get_page_size (adjustment));
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), <=,
                     gtk_adjustment_get_page_size (adjustment));
  g_assert_true (gtk_widget_compute_bounds (list, scroller, &bounds));
  g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (scroller));
  g_assert_cmpfloat (bounds.size.height, >=, 120);
  close_window (GTK_WIDGET (window));
}

static gboolean
side_state_is (GraftWindow *window,
               gboolean     shown)
{
  g_autoptr (GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (window),
                                                                "show-side-panel");

  return g_variant_get_boolean (state) == shown;
}

/* Wide, the side panel sits beside the canvas; narrow, it folds away and
 * its toggle (the action and its Shift+F9) shows it over the canvas and
 * hides it again; wide again, it is back beside the canvas. */
static void
test_side_flap (void)
{
  GraftWindow    *window = open_example_sized (1200, 700);
  AdwFlap        *flap = side_flap (window);
  GraftCanvas    *canvas = graft_window_get_canvas (window);
  GtkApplication *app = NULL;

  iterate_until (flap_settled, flap);
  {
    int content_min;
    int panel_min;

    gtk_widget_measure (adw_flap_get_content (flap), GTK_ORIENTATION_HORIZONTAL, -1, &content_min,
                        NULL, NULL, NULL);
    gtk_widget_measure (adw_flap_get_flap (flap), GTK_ORIENTATION_HORIZONTAL, -1, &panel_min, NULL,
                        NULL, NULL);
    g_test_message ("canvas side at least %d, side panel %d, window %d", content_min, panel_min,
                    gtk_widget_get_width (GTK_WIDGET (flap)));
  }
  g_assert_false (adw_flap_get_folded (flap));
  g_assert_true (adw_flap_get_reveal_flap (flap));
  g_assert_true (side_state_is (window, TRUE));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (canvas)), <, 1200 - 300);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (canvas)), >=, 440);

  resize (window, 800, 600);
  iterate_until (flap_settled, flap);
  g_assert_true (adw_flap_get_folded (flap));
  g_assert_false (adw_flap_get_reveal_flap (flap));
  g_assert_true (side_state_is (window, FALSE));

  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-side-panel",
                                      g_variant_new_boolean (TRUE));
  iterate_until (flap_settled, flap);
  g_assert_true (adw_flap_get_reveal_flap (flap));
  /* Over the canvas, which keeps the whole width. */
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (canvas)), ==,
                   gtk_widget_get_width (
                       adw_application_window_get_content (ADW_APPLICATION_WINDOW (window))));
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-side-panel",
                                      g_variant_new_boolean (FALSE));
  iterate_until (flap_settled, flap);
  g_assert_false (adw_flap_get_reveal_flap (flap));

  resize (window, 1200, 700);
  iterate_until (flap_settled, flap);
  g_assert_false (adw_flap_get_folded (flap));
  g_assert_true (adw_flap_get_reveal_flap (flap));
  g_assert_true (side_state_is (window, TRUE));

  app = gtk_window_get_application (GTK_WINDOW (window));
  if (app != NULL)
    {
      g_auto (GStrv) accels = gtk_application_get_accels_for_action (app, "win.show-side-panel");

      g_assert_cmpstr (accels[0], ==, "<Shift>F9");
    }
  close_window (GTK_WIDGET (window));
}

/* The pane the window's focus is in: "canvas", "properties", "page",
 * "matches", or "elsewhere". */
static const char *
focused_pane (GraftWindow *window)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  if (focus == NULL)
    return "elsewhere";
  if (focus == GTK_WIDGET (window->canvas))
    return "canvas";
  if (gtk_widget_is_ancestor (focus, GTK_WIDGET (window->properties)))
    return "properties";
  if (gtk_widget_is_ancestor (focus, window->match_box))
    return "matches";
  if (GTK_IS_TEXT_VIEW (focus) &&
      gtk_widget_is_ancestor (focus, GTK_WIDGET (window->pattern_editor)))
    return "page";
  return "elsewhere";
}

/* Activates win.focus-next-pane (@forward) or win.focus-previous-pane and
 * checks where the focus went. */
static void
assert_pane_after (GraftWindow *window,
                   gboolean     forward,
                   const char  *expected)
{
  g_action_group_activate_action (G_ACTION_GROUP (window),
                                  forward ? "focus-next-pane" : "focus-previous-pane", NULL);
  /* A panel that slides out takes the focus once it is on screen. */
  iterate_until (flap_settled, window->side_flap);
  g_assert_cmpstr (focused_pane (window), ==, expected);
}

/* F6 and Shift+F6 move the focus between the window's panes, as GNOME's
 * applications do, and do nothing else: F6 was Next (a rewrite step),
 * which a user trying to reach the side panel applied to the graph.
 * Folded away, the side panel slides out for the focus and back after. */
static void
test_focus_panes (void)
{
  GraftWindow             *window = open_example_sized (1200, 700);
  AdwFlap                 *flap = side_flap (window);
  guint                    serial = graft_document_get_last_change_serial (window->document);
  static const char *const forward[] = { "page", "matches", "canvas" };

  iterate_until (flap_settled, flap);
  g_assert_false (adw_flap_get_folded (flap));
  g_assert_cmpstr (focused_pane (window), ==, "canvas");
  for (guint i = 0; i < G_N_ELEMENTS (forward); i++)
    assert_pane_after (window, TRUE, forward[i]);
  assert_pane_after (window, FALSE, "matches");
  assert_pane_after (window, FALSE, "page");
  assert_pane_after (window, FALSE, "canvas");
  /* The properties panel, shown, comes after the canvas. */
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-properties",
                                      g_variant_new_boolean (TRUE));
  iterate_until (flap_settled, window->properties_flap);
  gtk_widget_grab_focus (GTK_WIDGET (window->canvas));
  assert_pane_after (window, TRUE, "properties");
  assert_pane_after (window, TRUE, "page");
  assert_pane_after (window, FALSE, "properties");
  assert_pane_after (window, FALSE, "canvas");
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-properties",
                                      g_variant_new_boolean (FALSE));
  iterate_until (flap_settled, window->properties_flap);

  /* Folded: the panel slides out as the focus enters it, back as it leaves. */
  resize (window, 800, 600);
  iterate_until (flap_settled, flap);
  g_assert_true (adw_flap_get_folded (flap));
  g_assert_false (adw_flap_get_reveal_flap (flap));
  gtk_widget_grab_focus (GTK_WIDGET (window->canvas));
  assert_pane_after (window, TRUE, "page");
  g_assert_true (adw_flap_get_reveal_flap (flap));
  assert_pane_after (window, TRUE, "matches");
  assert_pane_after (window, TRUE, "canvas");
  g_assert_false (adw_flap_get_reveal_flap (flap));
  assert_pane_after (window, FALSE, "matches");
  g_assert_true (adw_flap_get_reveal_flap (flap));
  iterate_until (flap_settled, flap);

  /* Nothing was rewritten. */
  g_assert_cmpuint (graft_document_get_last_change_serial (window->document), ==, serial);
  close_window (GTK_WIDGET (window));
}

static gboolean
page_is (GraftWindow *window,
         const char  *name)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (window->content_stack), name) == 0;
}

static gboolean
error_shown (gpointer window)
{
  return !graft_window_get_pending (window) && page_is (window, "error");
}

static gboolean
graph_shown (gpointer window)
{
  return page_is (window, "graph") && layout_ready (window);
}

/* attention_manual.pt2 at 1120x700, the properties panel shown (laid
 * over the canvas: the window is too narrow for both). */
static GraftWindow *
open_program_with_properties (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "programs",
                                            "attention_manual.pt2", NULL);
  GraftWindow     *window = open_path_sized (path, 1120, 700);

  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-properties",
                                      g_variant_new_boolean (TRUE));
  iterate_until (flap_settled, window->properties_flap);
  g_assert_true (adw_flap_get_folded (window->properties_flap));
  return window;
}

/* Hides the panel again (the choice is remembered) and closes @window. */
static void
close_with_properties (GraftWindow *window)
{
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-properties",
                                      g_variant_new_boolean (FALSE));
  iterate_until (flap_settled, window->properties_flap);
  close_window (GTK_WIDGET (window));
}

/* The properties panel, laid over a narrow canvas, left the message of a
 * file that cannot be read (a program in torch 1.13) half hidden: it
 * stays away from that page, its choice kept, and comes back with the
 * graph. */
static void
test_properties_spare_error (void)
{
  GraftWindow    *window = open_program_with_properties ();
  graphene_rect_t message;

  g_assert_true (adw_flap_get_reveal_flap (window->properties_flap));

  g_action_group_activate_action (G_ACTION_GROUP (window), "torch", g_variant_new_string ("1.13"));
  iterate_until (error_shown, window);
  iterate_until (flap_settled, window->properties_flap);
  g_assert_false (adw_flap_get_reveal_flap (window->properties_flap));
  g_assert_false (graft_window_get_properties_shown (window));
  {
    g_autoptr (GVariant) state =
        g_action_group_get_action_state (G_ACTION_GROUP (window), "show-properties");

    g_assert_true (g_variant_get_boolean (state));
  }
  /* The message is whole on screen, nothing over it. */
  g_assert_true (
      gtk_widget_compute_bounds (GTK_WIDGET (window->error_page), GTK_WIDGET (window), &message));
  g_assert_cmpfloat (message.size.width, ==,
                     gtk_widget_get_width (adw_flap_get_content (window->side_flap)));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (window->properties)));

  g_action_group_activate_action (G_ACTION_GROUP (window), "torch", g_variant_new_string ("2.6"));
  iterate_until (graph_shown, window);
  iterate_until (flap_settled, window->properties_flap);
  g_assert_true (adw_flap_get_reveal_flap (window->properties_flap));
  close_with_properties (window);
}

/* Whether the focused node of @window's canvas is drawn left of the
 * properties panel. */
static gboolean
focus_beside_properties (gpointer data)
{
  GraftWindow     *window = data;
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  GraftLayout     *layout = graft_canvas_get_layout (canvas);
  gint             box = graft_layout_find_node (layout, graft_canvas_get_focus_node (canvas));
  const GraftRect *r = &graft_layout_get_node (layout, (guint) box)->box;
  graphene_rect_t  panel;
  double           left;
  double           right;
  double           y;

  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (window->properties), GTK_WIDGET (canvas),
                                            &panel));
  graft_canvas_layout_to_widget (canvas, r->x, r->y, &left, &y);
  graft_canvas_layout_to_widget (canvas, r->x + r->width, r->y, &right, &y);
  return left >= 0 && right <= panel.origin.x;
}

/* The properties panel slides over a narrow canvas: the node it is about
 * (the focused one, as Return shows it) was left under it, half hidden. */
static void
test_properties_spare_node (void)
{
  GraftWindow *window;

  /* The node focused first, then the panel shown, as Return does. */
  window = open_program_with_properties ();
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-properties",
                                      g_variant_new_boolean (FALSE));
  iterate_until (flap_settled, window->properties_flap);
  g_assert_true (graft_canvas_focus_node (graft_window_get_canvas (window), "matmul"));
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-properties",
                                      g_variant_new_boolean (TRUE));
  iterate_until (flap_settled, window->properties_flap);
  iterate_until (focus_beside_properties, window);
  close_with_properties (window);
}

/* Whether @widget is in a toast. */
static gboolean
in_toast (GtkWidget *widget)
{
  for (; widget != NULL; widget = gtk_widget_get_parent (widget))
    if (g_strcmp0 (gtk_widget_get_css_name (widget), "toast") == 0)
      return TRUE;
  return FALSE;
}

/* Counts the focus's moves onto a toast (@data, a guint). */
static void
focus_on_toast_cb (GtkWindow  *window,
                   GParamSpec *pspec,
                   gpointer    data)
{
  if (in_toast (gtk_root_get_focus (GTK_ROOT (window))))
    (*(guint *) data)++;
}

/* The step's work over, the matches list empty and the step's toast
 * on screen. */
static gboolean
step_shown (gpointer data)
{
  GraftWindow *window = data;

  return layout_ready (window) &&
         g_list_model_get_n_items (G_LIST_MODEL (window->match_selection)) == 0 &&
         toast_shown (window);
}

/* A step (Shift+F5) taken from the matches list takes its last match:
 * the focused row left the window, and GTK, at its next frame, gave the
 * focus to the first widget that takes it, the toast's Undo, where the
 * next Space or Return undid the step.  The focus goes to the canvas as
 * the list empties, and never onto the toast, through the frames after
 * (GTK moves a focus left without a widget at a frame: one drawn after
 * the toast is on screen comes after the list emptied). */
static void
test_focus_after_step (void)
{
  GraftWindow *window = open_example_sized (1200, 700);
  guint        on_toast = 0;
  gulong       id;

  iterate_until (flap_settled, side_flap (window));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->match_selection)), >, 0);
  assert_pane_after (window, FALSE, "matches");
  id = g_signal_connect (window, "notify::focus-widget", G_CALLBACK (focus_on_toast_cb),
                         &on_toast);
  g_action_group_activate_action (G_ACTION_GROUP (window), "step", NULL);
  iterate_until (step_shown, window);
  iterate_until_drawn (GTK_WIDGET (window));
  iterate_until_drawn (GTK_WIDGET (window));
  g_signal_handler_disconnect (window, id);
  g_assert_cmpuint (on_toast, ==, 0);
  g_assert_cmpstr (focused_pane (window), ==, "canvas");
  close_window (GTK_WIDGET (window));
}

/* @n matches of one node each, named @prefix_0, @prefix_1... (none in
 * the graph: the list only shows them). */
static GraftMatchRows *
named_rows (const char *prefix,
            guint       n)
{
  GraftMatchRows *rows = graft_match_rows_new ();

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s_%u", prefix, i);

      graft_match_rows_add (rows, NULL, name, name);
    }
  return rows;
}

/* The matches list's row at @position if it is made, else NULL. */
static GtkWidget *
match_row_at (GraftWindow *window,
              guint        position)
{
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (window->match_list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget   *label = gtk_widget_get_first_child (row);
      GtkListItem *item = label != NULL ? g_object_get_data (G_OBJECT (label), "graft-list-item")
                                        : NULL;

      if (item != NULL && gtk_list_item_get_position (item) == position &&
          gtk_widget_get_mapped (row))
        return row;
    }
  return NULL;
}

static gboolean
fourth_row_made (gpointer window)
{
  return match_row_at (window, 3) != NULL;
}

/* A change of more than 4,096 matches is said to the list as all its rows
 * going, then the new rows coming (graft-match-model.c): the focus on a
 * row of the list stays in it, on the row at the same place, through the
 * frames after (it went to the canvas, the list seen empty for a
 * moment). */
static void
test_focus_in_big_change (void)
{
  GraftWindow     *window = open_example_sized (1200, 700);
  GraftMatchModel *matches =
      GRAFT_MATCH_MODEL (graft_document_get_matches (graft_window_get_document (window)));
  GtkWidget *focus;
  GtkWidget *row;

  iterate_until (flap_settled, side_flap (window));
  graft_match_model_set_rows (matches, named_rows ("a", 5000));
  iterate_until (fourth_row_made, window);
  g_assert_true (gtk_widget_grab_focus (match_row_at (window, 3)));
  graft_match_model_set_rows (matches, named_rows ("b", 5000));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->match_selection)), ==, 5000);
  /* GTK moves a focus left without its widget at a frame's after-paint. */
  iterate_until_drawn (GTK_WIDGET (window));
  iterate_until_drawn (GTK_WIDGET (window));
  g_assert_cmpstr (focused_pane (window), ==, "matches");
  focus = gtk_root_get_focus (GTK_ROOT (window));
  row = match_row_at (window, 3);
  g_assert_nonnull (row);
  g_assert_true (focus == row || gtk_widget_is_ancestor (focus, row));
  close_window (GTK_WIDGET (window));
}

static gboolean
split_shown (gpointer data)
{
  GraftSplitWindow *split = data;

  return graft_split_window_get_ready (split) &&
         gtk_widget_get_width (GTK_WIDGET (graft_split_window_get_canvas (split, TRUE))) > 0;
}

static GraftSplitWindow *
open_split (GraftWindow *window,
            const char  *action,
            GVariant    *param)
{
  GraftSplitWindow *split =
      GRAFT_SPLIT_WINDOW (open_toplevel (window, action, param, GRAFT_TYPE_SPLIT_WINDOW));

  iterate_until (split_shown, split);
  return split;
}

static gboolean
in_names (const char *const *names,
          const char        *name)
{
  return names != NULL && g_strv_contains (names, name);
}

/* The split view after Replace All on the tutorial: removed, added,
 * rewired and kept are what the rewrite did, on each side. */
static void
test_split_classes (void)
{
  static const char *const removed[] = { "neg", "cat", "sum_1", "neg_1", "cat_1", "sum_2", NULL };
  static const char *const rewired[] = { "max_1", "max_2", NULL };
  GraftWindow             *window = open_example_sized (1200, 700);
  GraftDocument           *document = graft_window_get_document (window);
  g_autoptr (GPtrArray) matched = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) added = g_ptr_array_new_with_free_func (g_free);
  GraftSplitWindow *split;
  GraftLayout      *before;
  GraftLayout      *after;

  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "compare"));
  /* What the rewrite will remove: the nodes of the matches that are not
   * their placeholders' values. */
  for (guint m = 0; m < graft_document_get_n_matches (document); m++)
    for (guint k = 0; removed[k] != NULL; k++)
      if (graft_document_get_match_of_node (document, removed[k]) == (gint) m &&
          !g_ptr_array_find_with_equal_func (matched, removed[k], g_str_equal, NULL))
        g_ptr_array_add (matched, g_strdup (removed[k]));
  g_assert_cmpuint (matched->len, ==, 6);
  g_action_group_activate_action (G_ACTION_GROUP (window), "replace-all", NULL);
  iterate_until (layout_ready, window);
  for (guint k = 0; k < graft_document_get_added_names (document)->len; k++)
    g_ptr_array_add (added, g_strdup (graft_document_get_added_names (document)->pdata[k]));
  g_assert_cmpuint (added->len, ==, 2);

  split = open_split (window, "compare", NULL);
  before = graft_canvas_get_layout (graft_split_window_get_canvas (split, FALSE));
  after = graft_canvas_get_layout (graft_split_window_get_canvas (split, TRUE));
  for (guint b = 0; b < graft_layout_get_n_nodes (before); b++)
    {
      const GraftLayoutNode *box = graft_layout_get_node (before, b);
      gint                   change = graft_split_window_get_node_change (split, FALSE, box->name);

      if (box->is_stub)
        continue;
      if (g_ptr_array_find_with_equal_func (matched, box->name, g_str_equal, NULL))
        g_assert_cmpint (change, ==, GRAFT_CHANGE_REMOVED);
      else if (in_names (rewired, box->name))
        g_assert_cmpint (change, ==, GRAFT_CHANGE_REWIRED);
      else
        g_assert_cmpint (change, ==, GRAFT_CHANGE_KEPT);
      /* What is not removed is on the other side too. */
      g_assert_cmpint (change == GRAFT_CHANGE_REMOVED, ==,
                       graft_layout_find_node (after, box->name) < 0);
    }
  for (guint b = 0; b < graft_layout_get_n_nodes (after); b++)
    {
      const GraftLayoutNode *box = graft_layout_get_node (after, b);
      gint                   change = graft_split_window_get_node_change (split, TRUE, box->name);

      if (box->is_stub)
        continue;
      if (g_ptr_array_find_with_equal_func (added, box->name, g_str_equal, NULL))
        g_assert_cmpint (change, ==, GRAFT_CHANGE_ADDED);
      else if (in_names (rewired, box->name))
        g_assert_cmpint (change, ==, GRAFT_CHANGE_REWIRED);
      else
        g_assert_cmpint (change, ==, GRAFT_CHANGE_KEPT);
    }
  g_assert_cmpuint (graft_split_window_get_n_changed (split, GRAFT_CHANGE_REMOVED), ==, 6);
  g_assert_cmpuint (graft_split_window_get_n_changed (split, GRAFT_CHANGE_ADDED), ==, 2);
  g_assert_cmpuint (graft_split_window_get_n_changed (split, GRAFT_CHANGE_REWIRED), ==, 2);
  /* x, w1, w2, add, add_1, output. */
  g_assert_cmpuint (graft_split_window_get_n_changed (split, GRAFT_CHANGE_KEPT), ==, 6);
  /* The document's graph is as it was. */
  g_assert_cmpuint (graft_graph_get_n_nodes (graft_document_get_graph (document)), ==, 10);
  close_window (GTK_WIDGET (split));
  close_window (GTK_WIDGET (window));
}

/* Where the middle of @canvas's box @b is, in widget coordinates. */
static void
box_on_screen (GraftCanvas *canvas,
               gint         b,
               double      *out_x,
               double      *out_y)
{
  const GraftLayoutNode *box;

  g_assert_cmpint (b, >=, 0);
  box = graft_layout_get_node (graft_canvas_get_layout (canvas), (guint) b);
  graft_canvas_layout_to_widget (canvas, box->box.x + box->box.width / 2,
                                 box->box.y + box->box.height / 2, out_x, out_y);
}

/* Where node @name is drawn on @canvas, in widget coordinates. */
static void
node_on_screen (GraftCanvas *canvas,
                const char  *name,
                double      *out_x,
                double      *out_y)
{
  box_on_screen (canvas, graft_layout_find_node (graft_canvas_get_layout (canvas), name), out_x,
                 out_y);
}

/* The two views zoom and pan together: a zoom on one side is the other's
 * zoom, and the kept node nearest the middle is at the same place on
 * both; the views stay linked whichever side moves. */
static void
test_split_linked (void)
{
  GraftWindow      *window = open_example_sized (1200, 700);
  GraftSplitWindow *split;
  GraftCanvas      *left;
  GraftCanvas      *right;
  double            lx, ly, rx, ry;

  g_action_group_activate_action (G_ACTION_GROUP (window), "replace-all", NULL);
  iterate_until (layout_ready, window);
  split = open_split (window, "compare", NULL);
  left = graft_split_window_get_canvas (split, FALSE);
  right = graft_split_window_get_canvas (split, TRUE);

  graft_canvas_set_zoom (left, 2.5);
  g_assert_cmpfloat_with_epsilon (graft_canvas_get_zoom (right), 2.5, 1e-9);
  /* Put the kept `add` in the middle of the left view: the right view
   * shows it at the same place. */
  {
    GraftLayout           *layout = graft_canvas_get_layout (left);
    const GraftLayoutNode *box =
        graft_layout_get_node (layout, (guint) graft_layout_find_node (layout, "add"));

    graft_canvas_show_point (left, 2.0, box->box.x + box->box.width / 2,
                             box->box.y + box->box.height / 2,
                             gtk_widget_get_width (GTK_WIDGET (left)) / 2.0,
                             gtk_widget_get_height (GTK_WIDGET (left)) / 2.0);
  }
  g_assert_cmpfloat_with_epsilon (graft_canvas_get_zoom (right), 2.0, 1e-9);
  node_on_screen (left, "add", &lx, &ly);
  node_on_screen (right, "add", &rx, &ry);
  g_assert_cmpfloat (fabs (lx - rx), <, 1.0);
  g_assert_cmpfloat (fabs (ly - ry), <, 1.0);

  /* The other way round, with another kept node. */
  graft_canvas_set_zoom (right, 0.5);
  g_assert_cmpfloat_with_epsilon (graft_canvas_get_zoom (left), 0.5, 1e-9);
  graft_canvas_center_on (right, "x");
  node_on_screen (left, "x", &lx, &ly);
  node_on_screen (right, "x", &rx, &ry);
  g_assert_cmpfloat (fabs (lx - rx), <, 1.0);
  g_assert_cmpfloat (fabs (ly - ry), <, 1.0);

  /* A node selected on one side is selected on the other. */
  graft_canvas_select (left, "add_1", FALSE);
  {
    g_auto (GStrv) selected = graft_canvas_dup_selection (right);

    g_assert_cmpstrv (selected, ((const char *const[]){ "add_1", NULL }));
  }
  close_window (GTK_WIDGET (split));
  close_window (GTK_WIDGET (window));
}

/* The position in graph order of @layout's node called @name (the first
 * of that name), or -1. */
static gint
position_named (GraftLayout *layout,
                const char  *name)
{
  for (guint i = 0; i < graft_layout_get_n_graph_nodes (layout); i++)
    if (strcmp (graft_layout_get_node_name (layout, i), name) == 0)
      return (gint) i;
  return -1;
}

/* Where a node both sides show is on screen, by its position. */
static void
position_on_screen (GraftCanvas *canvas,
                    guint        position,
                    double      *out_x,
                    double      *out_y)
{
  box_on_screen (canvas, graft_layout_lookup (graft_canvas_get_layout (canvas), position), out_x,
                 out_y);
}

/* Compare Graphs after a rewrite that adds a copy named as the program's
 * node it keeps (dynamic_batch's view_size rule: two sym_size_int_1 after,
 * docs/programs.md).  The copy's box says `sym_size_int_2`, as the code
 * and the main canvas call it.  The sides pair nodes by what the change
 * did, not by name: the program's node before is the program's node after, the copy
 * has no twin (by name, the program's node before was the copy's twin,
 * the copy the last box of the name).  A selection follows node by node,
 * and the views line the program's node up on both sides. */
/* dynamic_batch.pt2 after its view_size rewrite (a copy named as the
 * program's node it keeps), in a window. */
static GraftWindow *
open_shared_names (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "programs",
                                            "dynamic_batch.pt2", NULL);
  GraftWindow     *window = open_path_sized (path, 1200, 700);
  GraftDocument   *document = graft_window_get_document (window);

  iterate_until (layout_ready, window);
  graft_document_set_pattern_text (document, "import torch\n\naten = torch.ops.aten\n\n\n"
                                             "def pattern(x, s):\n"
                                             "    return aten.view.default(x, [s, -1, 4])\n");
  graft_document_set_replacement_text (document,
                                       "import torch\n\naten = torch.ops.aten\n\n\n"
                                       "def replacement(x, s):\n"
                                       "    return aten.view.default(x, [aten.sym_size.int(x, 0), "
                                       "-1, 4])\n");
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 1);
  g_action_group_activate_action (G_ACTION_GROUP (window), "replace-all", NULL);
  iterate_until (layout_ready, window);
  return window;
}

static void
test_split_shared_names (void)
{
  GraftWindow      *window = open_shared_names ();
  GraftSplitWindow *split;
  GraftCanvas      *left, *right;
  gint              before_at, owner_at, copy_at;
  double            lx, ly, rx, ry;

  split = open_split (window, "compare", NULL);
  left = graft_split_window_get_canvas (split, FALSE);
  right = graft_split_window_get_canvas (split, TRUE);
  g_assert_true (graft_layout_has_shared_names (graft_canvas_get_layout (right)));
  before_at = position_named (graft_canvas_get_layout (left), "sym_size_int_1");
  owner_at = position_named (graft_canvas_get_layout (right), "sym_size_int_1");
  g_assert_cmpint (before_at, >=, 0);
  g_assert_cmpint (owner_at, >=, 0);
  copy_at = owner_at + 1;
  g_assert_cmpstr (graft_layout_get_node_name (graft_canvas_get_layout (right), (guint) copy_at),
                   ==, "sym_size_int_1");

  /* Each box says the code's name of its node, as the main canvas does:
   * the copy `sym_size_int_2` (both said `sym_size_int_1`). */
  {
    GraftLayout *layout = graft_canvas_get_layout (right);

    g_assert_cmpstr (graft_layout_get_node (layout,
                                            (guint) graft_layout_lookup (layout, (guint) copy_at))
                         ->label,
                     ==, "sym_size_int_2");
    g_assert_cmpstr (graft_layout_get_node (layout,
                                            (guint) graft_layout_lookup (layout, (guint) owner_at))
                         ->label,
                     ==, "sym_size_int_1");
  }

  /* The program's node selected before: the program's node after, alone. */
  graft_canvas_select_graph_node (left, (guint) before_at);
  g_assert_cmpuint (graft_canvas_get_n_selected (right), ==, 1);
  g_assert_true (graft_canvas_is_node_selected (right, (guint) owner_at));
  /* The copy selected after: nothing before. */
  graft_canvas_select_graph_node (right, (guint) copy_at);
  g_assert_cmpuint (graft_canvas_get_n_selected (left), ==, 0);

  g_assert_cmpint (graft_split_window_get_twin (split, FALSE, (guint) before_at), ==, owner_at);
  g_assert_cmpint (graft_split_window_get_twin (split, TRUE, (guint) owner_at), ==, before_at);
  g_assert_cmpint (graft_split_window_get_twin (split, TRUE, (guint) copy_at), ==, -1);

  /* The tooltips of the two boxes after: each its own node's. */
  {
    g_autofree char *copy_tip = NULL;
    g_autofree char *owner_tip = NULL;

    position_on_screen (right, (guint) copy_at, &rx, &ry);
    copy_tip = graft_canvas_describe_at (right, rx, ry);
    position_on_screen (right, (guint) owner_at, &rx, &ry);
    owner_tip = graft_canvas_describe_at (right, rx, ry);
    g_assert_cmpstr (copy_tip, ==, "sym_size_int_2: added by the change");
    g_assert_cmpstr (owner_tip, ==, "sym_size_int_1: kept");
  }

  /* The program's node in the middle of the left view: the right view
   * shows the program's node there, not the copy. */
  graft_canvas_set_zoom (left, 2.0);
  {
    GraftLayout           *layout = graft_canvas_get_layout (left);
    const GraftLayoutNode *box =
        graft_layout_get_node (layout, (guint) graft_layout_lookup (layout, (guint) before_at));

    graft_canvas_show_point (left, 2.0, box->box.x + box->box.width / 2,
                             box->box.y + box->box.height / 2,
                             gtk_widget_get_width (GTK_WIDGET (left)) / 2.0,
                             gtk_widget_get_height (GTK_WIDGET (left)) / 2.0);
  }
  position_on_screen (left, (guint) before_at, &lx, &ly);
  position_on_screen (right, (guint) owner_at, &rx, &ry);
  g_assert_cmpfloat (fabs (lx - rx), <, 1.0);
  g_assert_cmpfloat (fabs (ly - ry), <, 1.0);
  close_window (GTK_WIDGET (split));
  close_window (GTK_WIDGET (window));
}

/* Compare Graphs with shared names (test_split_shared_names()): a node
 * selected before both sides are laid out (here before either is, in the
 * place of a click on the side laid out first while the other is still
 * being laid out) selects its own twin once both are: the program's node
 * after, alone.  The other side was given the names selected then: none
 * here (the side had no layout to say them), the name after a click (both
 * boxes, once laid out). */
static void
test_split_shared_names_early (void)
{
  GraftWindow      *window = open_shared_names ();
  GraftSplitWindow *split;
  GraftCanvas      *left, *right;
  gint              before_at, owner_at;

  g_action_group_activate_action (G_ACTION_GROUP (window), "compare", NULL);
  split = GRAFT_SPLIT_WINDOW (find_toplevel (GRAFT_TYPE_SPLIT_WINDOW));
  g_assert_nonnull (split);
  left = graft_split_window_get_canvas (split, FALSE);
  right = graft_split_window_get_canvas (split, TRUE);
  g_assert_null (graft_canvas_get_layout (right));
  graft_canvas_select (left, "sym_size_int_1", FALSE);
  iterate_until (split_shown, split);
  before_at = position_named (graft_canvas_get_layout (left), "sym_size_int_1");
  owner_at = position_named (graft_canvas_get_layout (right), "sym_size_int_1");
  g_assert_true (graft_canvas_is_node_selected (left, (guint) before_at));
  g_assert_cmpuint (graft_canvas_get_n_selected (right), ==, 1);
  g_assert_true (graft_canvas_is_node_selected (right, (guint) owner_at));
  close_window (GTK_WIDGET (split));
  close_window (GTK_WIDGET (window));
}

/* A History step compares too, and a change undone can still be
 * compared; the comparison leaves the graph as it was. */
static void
test_split_history_step (void)
{
  GraftWindow      *window = open_example_sized (1200, 700);
  GraftDocument    *document = graft_window_get_document (window);
  GraftSplitWindow *split;
  g_autofree char  *code = NULL;
  g_autofree char  *after = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftComparison) comparison = NULL;

  /* The second match first (`neg_1` and company), then the first. */
  graft_document_replace (document, 1, &error);
  g_assert_no_error (error);
  iterate_until (layout_ready, window);
  graft_document_replace (document, 0, &error);
  g_assert_no_error (error);
  iterate_until (layout_ready, window);
  g_assert_cmpuint (graft_document_get_history_length (document), ==, 2);
  graft_document_undo (document);
  iterate_until (layout_ready, window);
  code = graft_document_dup_code (document);

  /* The undone second replacement: `neg` and company. */
  comparison = graft_document_compare (document, 1, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstrv (graft_comparison_get_names (comparison, GRAFT_CHANGE_REMOVED),
                    ((const char *const[]){ "neg", "cat", "sum_1", NULL }));
  g_assert_cmpuint (g_strv_length ((char **) graft_comparison_get_names (comparison,
                                                                         GRAFT_CHANGE_ADDED)),
                    ==, 1);
  after = graft_document_dup_code (document);
  g_assert_cmpstr (after, ==, code);

  split = open_split (window, "compare-step", g_variant_new_uint32 (0));
  g_assert_cmpint (graft_split_window_get_node_change (split, FALSE, "neg_1"), ==,
                   GRAFT_CHANGE_REMOVED);
  g_assert_cmpint (graft_split_window_get_node_change (split, FALSE, "neg"), ==,
                   GRAFT_CHANGE_KEPT);
  g_assert_cmpint (graft_split_window_get_node_change (split, TRUE, "neg_1"), ==, -1);
  g_clear_pointer (&after, g_free);
  after = graft_document_dup_code (document);
  g_assert_cmpstr (after, ==, code);
  close_window (GTK_WIDGET (split));
  close_window (GTK_WIDGET (window));
}

static gboolean
split_gone (gpointer data)
{
  return find_toplevel (GRAFT_TYPE_SPLIT_WINDOW) == NULL;
}

/* Escape and Ctrl+W close the split view, as the Changes window. */
static void
test_split_closes (void)
{
  static const char *const keys[] = { "Escape", "<Control>w" };
  GraftWindow             *window = open_example_sized (1200, 700);

  g_action_group_activate_action (G_ACTION_GROUP (window), "replace-all", NULL);
  iterate_until (layout_ready, window);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      GraftSplitWindow *split = open_split (window, "compare", NULL);

      if (i == 0)
        {
          /* On a canvas (the focus is there after a click or a key),
           * Escape clears the selection, and with none it goes on to the
           * window: the canvas took every Escape, and the window stayed. */
          GraftCanvas *before = graft_split_window_get_canvas (split, FALSE);

          graft_canvas_select (before, "neg", FALSE);
          g_assert_true (press_shortcut (GTK_WIDGET (before), "Escape"));
          g_assert_cmpuint (graft_canvas_get_n_selected (before), ==, 0);
          g_assert_false (press_shortcut (GTK_WIDGET (before), "Escape"));
        }
      g_assert_true (press_shortcut (GTK_WIDGET (split), keys[i]));
      iterate_until_named (split_gone, NULL, keys[i]);
    }
  close_window (GTK_WIDGET (window));
}

int
main (int    argc,
      char **argv)
{
  if (!ui_test_init (&argc, &argv))
    return 0;
  g_test_add_func ("/ui/window/small-screen", test_small_screen);
  g_test_add_func ("/ui/window/screen-share", test_screen_share);
  g_test_add_func ("/ui/window/side-flap", test_side_flap);
  g_test_add_func ("/ui/window/focus-panes", test_focus_panes);
  g_test_add_func ("/ui/window/focus-after-step", test_focus_after_step);
  g_test_add_func ("/ui/window/focus-in-big-change", test_focus_in_big_change);
  g_test_add_func ("/ui/window/properties-spare-error", test_properties_spare_error);
  g_test_add_func ("/ui/window/properties-spare-node", test_properties_spare_node);
  g_test_add_func ("/ui/window/properties-default-size", test_properties_default_size);
  g_test_add_func ("/ui/window/matches-in-view", test_matches_in_view);
  g_test_add_func ("/ui/split/classes", test_split_classes);
  g_test_add_func ("/ui/split/linked", test_split_linked);
  g_test_add_func ("/ui/split/shared-names", test_split_shared_names);
  g_test_add_func ("/ui/split/shared-names-early", test_split_shared_names_early);
  g_test_add_func ("/ui/split/history-step", test_split_history_step);
  g_test_add_func ("/ui/split/closes", test_split_closes);
  return g_test_run ();
}
