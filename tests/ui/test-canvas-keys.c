/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-canvas-keys.c: the canvas from the keyboard, under a display (Xvfb
 * in CI), on the bundled example (x, w1, w2; neg, cat, sum_1 and neg_1,
 * cat_1, sum_2 the two matches; max_1, add, max_2, add_1, output).  Each
 * key is pressed as GTK does it, by activating the canvas's shortcut for
 * it: the arrows follow edges (back where they came from, Left and Right
 * along the last step's row, a bell where there is nowhere to go), Home,
 * End, Page Up and Page Down follow graph order, the focused node comes
 * into view; Tab and Shift+Tab go from match to match and choose it, and
 * past the last let GTK move the focus out of the canvas, as Ctrl+Tab
 * always does; a match chosen by Ctrl+G or the list takes the focus; Menu and Shift+F10 open the
 * node's context menu at the node; Return and Space select, Return shows the properties, Ctrl+Space
 * adds to the selection; a folded module is a node too and Return opens
 * it; the ring goes around a program node's type under its box.  What
 * the canvas tells assistive technologies (GTK's test AT
 * context, GTK_A11Y=test) follows the focus: role, label, role
 * description, description with the match and whether it is chosen, and
 * the selected state.
 */
#include "config.h"

#include "example.h"
#include "window-util.h"

#include "graft-document-private.h"

#include "graft-application.h"
#include "graft-canvas-private.h"
#include "graft-canvas.h"
#include "graft-document.h"
#include "graft-search.h"
#include "graft-window-private.h"
#include "graft-window.h"

#include <string.h>

/* Presses @accel on the canvas, which must take it, and checks where the
 * focus went. */
static void
assert_key (GraftCanvas *canvas,
            const char  *accel,
            const char  *focus)
{
  g_assert_true (press_shortcut (GTK_WIDGET (canvas), accel));
  g_assert_cmpstr (graft_canvas_get_focus_node (canvas), ==, focus);
}

static GraftCanvas *
focused_canvas (GraftWindow *window)
{
  GraftCanvas *canvas = graft_window_get_canvas (window);

  /* The window's focus widget: other test programs' windows may have the
   * display's focus meanwhile. */
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (canvas)));
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == GTK_WIDGET (canvas));
  return canvas;
}

/* Up, Down, Left and Right follow the edges; Home, End, Page Up and Page
 * Down graph order. */
static void
test_arrows (void)
{
  GraftWindow *window = open_example ();
  GraftCanvas *canvas = focused_canvas (window);

  assert_key (canvas, "Home", "x");
  /* No step yet: Left and Right walk the inputs of x's first user, add
   * (x, then max_1 on screen); at either end the focus stays. */
  assert_key (canvas, "Right", "max_1");
  assert_key (canvas, "Right", "max_1");
  assert_key (canvas, "Left", "x");
  assert_key (canvas, "Left", "x");
  assert_key (canvas, "Up", "x");
  assert_key (canvas, "Down", "add");
  /* Up goes back where Down came from, though max_1 is an input too. */
  assert_key (canvas, "Up", "x");
  assert_key (canvas, "Down", "add");
  assert_key (canvas, "Down", "add_1");
  assert_key (canvas, "Down", "output");
  assert_key (canvas, "Down", "output");

  /* w1's users, neg (left) and neg_1 (right): Left and Right walk them,
   * Up goes back to w1 from either, Down back to where Up came from. */
  assert_key (canvas, "Home", "x");
  assert_key (canvas, "Page_Down", "w1");
  g_assert_true (press_shortcut (GTK_WIDGET (canvas), "Down"));
  assert_key (canvas, "Left", "neg");
  assert_key (canvas, "Right", "neg_1");
  assert_key (canvas, "Right", "neg_1");
  assert_key (canvas, "Up", "w1");
  assert_key (canvas, "Down", "neg_1");
  assert_key (canvas, "Down", "cat_1");
  /* Up goes back to neg_1 (not w2, cat_1's other input). */
  assert_key (canvas, "Up", "neg_1");
  assert_key (canvas, "Down", "cat_1");
  assert_key (canvas, "Left", "cat_1");
  /* After a jump, Up goes to the input drawn nearest in x: neg_1 rather
   * than w2; Left and Right then walk cat_1's inputs. */
  assert_key (canvas, "Page_Down", "sum_2");
  assert_key (canvas, "Up", "cat_1");
  assert_key (canvas, "Up", "neg_1");
  assert_key (canvas, "Left", "w2");
  assert_key (canvas, "Right", "neg_1");

  assert_key (canvas, "End", "output");
  assert_key (canvas, "Page_Down", "output");
  assert_key (canvas, "Page_Up", "add_1");
  assert_key (canvas, "KP_Up", "add");
  assert_key (canvas, "KP_Home", "x");
  close_window (window);
}

/* The focused node comes into view: zoomed in at 400 %, End scrolls to
 * the output, Home back to x. */
static void
test_scrolls_into_view (void)
{
  GraftWindow *window = open_example ();
  GraftCanvas *canvas = focused_canvas (window);
  GraftLayout *layout = graft_canvas_get_layout (canvas);
  const char  *names[] = { "output", "x", "w1" };
  const char  *keys[] = { "End", "Home", "Page_Down" };

  graft_canvas_set_zoom (canvas, 4.0);
  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      const GraftRect *r;
      double           x0, y0, x1, y1;

      assert_key (canvas, keys[k], names[k]);
      r = &graft_layout_get_node (layout, graft_layout_find_node (layout, names[k]))->box;
      graft_canvas_layout_to_widget (canvas, r->x, r->y, &x0, &y0);
      graft_canvas_layout_to_widget (canvas, r->x + r->width, r->y + r->height, &x1, &y1);
      g_assert_cmpfloat (x0, >=, 0);
      g_assert_cmpfloat (y0, >=, 0);
      g_assert_cmpfloat (x1, <=, gtk_widget_get_width (GTK_WIDGET (canvas)));
      g_assert_cmpfloat (y1, <=, gtk_widget_get_height (GTK_WIDGET (canvas)));
    }
  close_window (window);
}

static gboolean
focus_outside (gpointer data)
{
  GraftWindow *window = data;
  GtkWidget   *focus = gtk_root_get_focus (GTK_ROOT (window));

  return focus != NULL && focus != GTK_WIDGET (graft_window_get_canvas (window));
}

/* Tab and Shift+Tab go from match to match, selecting the returning node
 * and choosing the match; past the ends the key is GTK's, which moves the
 * focus out, and Ctrl+Tab always leaves: no trap. */
static void
test_tab_matches (void)
{
  GraftWindow *window = open_example ();
  GraftCanvas *canvas = focused_canvas (window);
  g_auto (GStrv) selection = NULL;

  /* Inside a match not chosen (where the canvas may put the focus when
   * it takes it), Tab chooses that match: it went on to match 2. */
  g_assert_cmpint (graft_window_get_selected_match (window), ==, -1);
  g_assert_true (graft_canvas_focus_node (canvas, "cat"));
  assert_key (canvas, "Tab", "sum_1");
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 0);
  graft_canvas_clear_selection (canvas);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, -1);

  assert_key (canvas, "Home", "x");
  assert_key (canvas, "Tab", "sum_1");
  selection = graft_canvas_dup_selection (canvas);
  g_assert_cmpstrv (selection, ((const char *const[]){ "sum_1", NULL }));
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 0);
  /* From inside the chosen match, Tab goes to the next one. */
  assert_key (canvas, "Up", "cat");
  assert_key (canvas, "Tab", "sum_2");
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 1);
  /* Past the last match: not the canvas's. */
  g_assert_false (press_shortcut (GTK_WIDGET (canvas), "Tab"));
  g_assert_cmpstr (graft_canvas_get_focus_node (canvas), ==, "sum_2");
  assert_key (canvas, "<Shift>Tab", "sum_1");
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 0);
  g_assert_false (press_shortcut (GTK_WIDGET (canvas), "<Shift>Tab"));
  /* From a node after both matches, Shift+Tab goes to the last. */
  assert_key (canvas, "End", "output");
  assert_key (canvas, "<Shift>Tab", "sum_2");

  /* Ctrl+Tab is never the canvas's: the window's binding moves the focus
   * on, as it does for Tab past the last match. */
  g_assert_false (press_shortcut (GTK_WIDGET (canvas), "<Control>Tab"));
  g_assert_true (press_shortcut (GTK_WIDGET (window), "<Control>Tab"));
  iterate_until (focus_outside, window);
  gtk_widget_grab_focus (GTK_WIDGET (canvas));
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD));
  iterate_until (focus_outside, window);

  /* With no match Tab is GTK's at once. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "replace-all", NULL);
  iterate_until (layout_ready, window);
  g_assert_cmpuint (graft_document_get_n_matches (graft_window_get_document (window)), ==, 0);
  gtk_widget_grab_focus (GTK_WIDGET (canvas));
  g_assert_false (press_shortcut (GTK_WIDGET (canvas), "Tab"));
  g_assert_false (press_shortcut (GTK_WIDGET (canvas), "<Shift>Tab"));
  close_window (window);
}

typedef struct
{
  char  *name;
  double x;
  double y;
  guint  count;
} MenuAsked;

static void
context_menu_cb (GraftCanvas *canvas,
                 const char  *name,
                 double       x,
                 double       y,
                 MenuAsked   *asked)
{
  g_free (asked->name);
  asked->name = g_strdup (name);
  asked->x = x;
  asked->y = y;
  asked->count++;
}

/* The context popover the canvas shows, or NULL. */
static GtkPopover *
find_popover (GraftCanvas *canvas)
{
  return GTK_POPOVER (find_child (GTK_WIDGET (canvas), GTK_TYPE_POPOVER_MENU));
}

/* Attribute @attribute of item @item of section @section of @menu, or
 * NULL. */
static GVariant *
menu_attribute (GMenuModel *menu,
                gint        section,
                gint        item,
                const char *attribute)
{
  g_autoptr (GMenuModel) part = g_menu_model_get_item_link (menu, section, G_MENU_LINK_SECTION);

  if (part == NULL || item >= g_menu_model_get_n_items (part))
    return NULL;
  return g_menu_model_get_item_attribute_value (part, item, attribute, NULL);
}

/* The label of item @item of section @section of @menu, or NULL. */
static char *
menu_label (GMenuModel *menu,
            gint        section,
            gint        item)
{
  g_autoptr (GVariant) label = menu_attribute (menu, section, item, G_MENU_ATTRIBUTE_LABEL);

  return label != NULL ? g_variant_dup_string (label, NULL) : NULL;
}

/* The action of item @item of section @section of @menu, with its
 * target if it has one (`win.replace-match(uint32 1)`), or NULL. */
static char *
menu_action (GMenuModel *menu,
             gint        section,
             gint        item)
{
  g_autoptr (GVariant) action = menu_attribute (menu, section, item, G_MENU_ATTRIBUTE_ACTION);
  g_autoptr (GVariant) target = menu_attribute (menu, section, item, G_MENU_ATTRIBUTE_TARGET);

  if (action == NULL)
    return NULL;
  return g_action_print_detailed_name (g_variant_get_string (action, NULL), target);
}

/* Menu and Shift+F10 open the focused node's context menu (the one a
 * right click opens: Replace Match N first on a matched node, Why Not
 * Here? on another), pointing at the node, which is then selected. */
static void
test_menu_key (void)
{
  GraftWindow *window = open_example ();
  GraftCanvas *canvas = focused_canvas (window);
  GraftLayout *layout = graft_canvas_get_layout (canvas);
  MenuAsked    asked = { NULL, 0, 0, 0 };
  const char  *keys[] = { "Menu", "<Shift>F10" };

  g_signal_connect (canvas, "context-menu", G_CALLBACK (context_menu_cb), &asked);
  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      const GraftRect *r;
      GtkPopover      *popover;
      g_autofree char *first = NULL;
      g_auto (GStrv) selection = NULL;
      double x0, y0, x1, y1;

      assert_key (canvas, "Home", "x");
      assert_key (canvas, "Tab", "sum_1");
      assert_key (canvas, "Up", "cat");
      g_assert_true (press_shortcut (GTK_WIDGET (canvas), keys[k]));
      g_assert_cmpuint (asked.count, ==, k + 1);
      g_assert_cmpstr (asked.name, ==, "cat");
      r = &graft_layout_get_node (layout, graft_layout_find_node (layout, "cat"))->box;
      graft_canvas_layout_to_widget (canvas, r->x, r->y, &x0, &y0);
      graft_canvas_layout_to_widget (canvas, r->x + r->width, r->y + r->height, &x1, &y1);
      g_assert_cmpfloat (asked.x, >=, x0);
      g_assert_cmpfloat (asked.x, <=, x1);
      g_assert_cmpfloat (asked.y, >=, y0);
      g_assert_cmpfloat (asked.y, <=, y1 + 1);
      selection = graft_canvas_dup_selection (canvas);
      g_assert_cmpstrv (selection, ((const char *const[]){ "cat", NULL }));
      popover = find_popover (canvas);
      g_assert_nonnull (popover);
      g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));
      first = menu_label (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover)), 0, 0);
      g_assert_cmpstr (first, ==, "Replace Match 1");
      /* The node's match is the chosen one: the item is Shift+Ctrl+R's
       * action, whose key the menu shows (test_menu_other_match() checks
       * the key), as Replace All shows Ctrl+R. */
      {
        g_autofree char *action =
            menu_action (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover)), 0, 0);

        g_assert_cmpint (graft_window_get_selected_match (window), ==, 0);
        g_assert_cmpstr (action, ==, "win.replace-selected");
      }
      gtk_popover_popdown (popover);
    }

  /* A node in no match: Why Not Here? is offered. */
  assert_key (canvas, "End", "output");
  assert_key (canvas, "Page_Up", "add_1");
  g_assert_true (press_shortcut (GTK_WIDGET (canvas), "Menu"));
  g_assert_cmpstr (asked.name, ==, "add_1");
  {
    GtkPopover      *popover = find_popover (canvas);
    GMenuModel      *menu = gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover));
    g_autofree char *first = menu_label (menu, 0, 0);
    g_autofree char *why = menu_label (menu, 1, 1);

    g_assert_cmpstr (first, ==, "Replace _All");
    g_assert_cmpstr (why, ==, "_Why Not Here?");
    gtk_popover_popdown (popover);
  }
  g_free (asked.name);
  close_window (window);
}

/* The context menu of a node in a match other than the chosen one offers
 * to replace that match, without a key: Shift+Ctrl+R replaces the chosen
 * one.  (Before, no Replace Match item showed a key, the chosen match's
 * neither.) */
static void
test_menu_other_match (void)
{
  GraftWindow     *window = open_example ();
  GraftCanvas     *canvas = focused_canvas (window);
  GtkPopover      *popover;
  GMenuModel      *menu;
  g_autofree char *first = NULL;
  g_autofree char *action = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) chosen_keys = NULL;
  g_auto (GStrv) other_keys = NULL;
  GraftApplication *app;

  graft_window_select_match (window, 0);
  g_assert_cmpint (graft_canvas_get_chosen_match (canvas), ==, 0);
  g_signal_emit_by_name (canvas, "context-menu", "sum_2", 10.0, 10.0);
  popover = find_popover (canvas);
  g_assert_nonnull (popover);
  menu = gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover));
  first = menu_label (menu, 0, 0);
  action = menu_action (menu, 0, 0);
  g_assert_cmpstr (first, ==, "Replace Match 2");
  g_assert_cmpstr (action, ==, "win.replace-match(uint32 1)");
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 0);
  gtk_popover_popdown (popover);
  close_window (window);

  /* The keys a menu shows are the application's for the item's action:
   * Shift+Ctrl+R for the chosen match's item, none for another's. */
  app = graft_application_new ();
  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  chosen_keys = gtk_application_get_accels_for_action (GTK_APPLICATION (app),
                                                       "win.replace-selected");
  other_keys = gtk_application_get_accels_for_action (GTK_APPLICATION (app), action);
  g_assert_cmpstrv (chosen_keys, ((const char *const[]){ "<Shift><Control>r", NULL }));
  g_assert_cmpstrv (other_keys, ((const char *const[]){ NULL }));
  g_application_set_default (NULL);
  g_object_unref (app);
}

/* Choosing a match by Ctrl+G, Shift+Ctrl+G or the list brings the
 * keyboard's focus to it (its returning node, as Tab does), so that Menu
 * offers to replace it and Return shows it: before, the focus stayed
 * where it was, out of view after the canvas centred the match. */
static void
test_chosen_match (void)
{
  GraftWindow     *window = open_example ();
  GraftCanvas     *canvas = focused_canvas (window);
  MenuAsked        asked = { NULL, 0, 0, 0 };
  GtkPopover      *popover;
  g_autofree char *first = NULL;

  g_signal_connect (canvas, "context-menu", G_CALLBACK (context_menu_cb), &asked);
  assert_key (canvas, "Home", "x");
  g_action_group_activate_action (G_ACTION_GROUP (window), "next-match", NULL);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 0);
  g_assert_cmpstr (graft_canvas_get_focus_node (canvas), ==, "sum_1");
  g_action_group_activate_action (G_ACTION_GROUP (window), "next-match", NULL);
  g_assert_cmpstr (graft_canvas_get_focus_node (canvas), ==, "sum_2");
  g_assert_true (press_shortcut (GTK_WIDGET (canvas), "Menu"));
  g_assert_cmpstr (asked.name, ==, "sum_2");
  popover = find_popover (canvas);
  g_assert_nonnull (popover);
  first = menu_label (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover)), 0, 0);
  g_assert_cmpstr (first, ==, "Replace Match 2");
  gtk_popover_popdown (popover);
  g_action_group_activate_action (G_ACTION_GROUP (window), "previous-match", NULL);
  g_assert_cmpstr (graft_canvas_get_focus_node (canvas), ==, "sum_1");
  /* The list's choice too. */
  graft_window_select_match (window, 1);
  g_assert_cmpstr (graft_canvas_get_focus_node (canvas), ==, "sum_2");
  /* A match chosen from the canvas leaves the focus where the keys put
   * it: Up from sum_2 to cat_1 chose nothing, Tab chooses match 1 at
   * its returning node. */
  assert_key (canvas, "Up", "cat_1");
  assert_key (canvas, "<Shift>Tab", "sum_1");
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 0);
  g_free (asked.name);
  close_window (window);
}

/* A match chosen in a view too small to read (resnet18_bn_relu.py fitted,
 * by Fit, at 14 %, its match a dot) is shown zoomed in to be read; from a
 * readable zoom, the zoom stays. */
static void
test_match_readable (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "data",
                                            "examples", "resnet18_bn_relu.py", NULL);
  GraftWindow     *window = open_path_sized (path, 1100, 690);
  GraftCanvas     *canvas = graft_window_get_canvas (window);

  /* It opens readable (test-view.c's /ui/view/start-readable): Fit makes
   * the view a dot. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-fit", NULL);
  g_assert_cmpfloat (graft_canvas_get_zoom (canvas), <, 0.35);
  g_action_group_activate_action (G_ACTION_GROUP (window), "next-match", NULL);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 0);
  g_assert_cmpfloat (graft_canvas_get_zoom (canvas), >=, 0.35);
  g_assert_true (node_in_view (canvas, "relu"));
  g_assert_true (node_in_view (canvas, "bn1"));
  /* The match is near the graph's top: the view starts at the top. */
  assert_view_filled (canvas);
  /* A zoom the user chose, readable, is kept. */
  graft_canvas_set_zoom (canvas, 1.5);
  graft_canvas_set_center (canvas, 0, 100000);
  g_assert_false (node_in_view (canvas, "relu"));
  g_action_group_activate_action (G_ACTION_GROUP (window), "previous-match", NULL);
  g_assert_cmpfloat (graft_canvas_get_zoom (canvas), ==, 1.5);
  g_assert_true (node_in_view (canvas, "relu"));
  close_window (window);
}

/* The keyboard's move to a box out of view centres it as far as the
 * graph filling the view allows: Home on a tall graph (resnet18_bn_relu.py
 * at 150 %) showed x in the middle of the view under half a view of blank
 * canvas.  End then shows the output at the bottom, the graph under it
 * filling the view too. */
static void
test_keys_fill_view (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "data",
                                            "examples", "resnet18_bn_relu.py", NULL);
  GraftWindow     *window = open_path_sized (path, 1100, 690);
  GraftCanvas     *canvas = focused_canvas (window);

  graft_canvas_set_zoom (canvas, 1.5);
  graft_canvas_set_center (canvas, 0, 100000);
  assert_key (canvas, "Home", "x");
  g_assert_true (node_in_view (canvas, "x"));
  assert_view_filled (canvas);
  assert_key (canvas, "End", "output");
  g_assert_true (node_in_view (canvas, "output"));
  assert_view_filled (canvas);
  close_window (window);
}

/* Return selects the focused node and shows its properties, the focus
 * staying on the canvas; Space selects it alone, Ctrl+Space adds it or
 * takes it out. */
static void
test_return_and_space (void)
{
  GraftWindow *window = open_example ();
  GraftCanvas *canvas = focused_canvas (window);
  g_auto (GStrv) selection = NULL;

  if (graft_window_get_properties_shown (window))
    g_action_group_activate_action (G_ACTION_GROUP (window), "show-properties", NULL);
  gtk_widget_grab_focus (GTK_WIDGET (canvas));
  g_assert_false (graft_window_get_properties_shown (window));
  assert_key (canvas, "Home", "x");
  assert_key (canvas, "Down", "add");
  assert_key (canvas, "Return", "add");
  selection = graft_canvas_dup_selection (canvas);
  g_assert_cmpstrv (selection, ((const char *const[]){ "add", NULL }));
  g_clear_pointer (&selection, g_strfreev);
  g_assert_true (graft_window_get_properties_shown (window));
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == GTK_WIDGET (canvas));

  assert_key (canvas, "Up", "x");
  assert_key (canvas, "space", "x");
  selection = graft_canvas_dup_selection (canvas);
  g_assert_cmpstrv (selection, ((const char *const[]){ "x", NULL }));
  g_clear_pointer (&selection, g_strfreev);
  assert_key (canvas, "Right", "max_1");
  assert_key (canvas, "<Control>space", "max_1");
  selection = graft_canvas_dup_selection (canvas);
  g_assert_cmpstrv (selection, ((const char *const[]){ "x", "max_1", NULL }));
  g_clear_pointer (&selection, g_strfreev);
  assert_key (canvas, "<Control>space", "max_1");
  selection = graft_canvas_dup_selection (canvas);
  g_assert_cmpstrv (selection, ((const char *const[]){ "x", NULL }));
  g_clear_pointer (&selection, g_strfreev);
  /* Escape still clears the selection; the focus stays. */
  assert_key (canvas, "Escape", "max_1");
  selection = graft_canvas_dup_selection (canvas);
  g_assert_cmpuint (g_strv_length (selection), ==, 0);
  /* With nothing to clear, Escape goes on to the window. */
  g_assert_false (press_shortcut (GTK_WIDGET (canvas), "Escape"));
  close_window (window);
}

static gboolean
search_done (gpointer search)
{
  return !graft_search_get_pending (search) && graft_search_get_current (search) != NULL;
}

static gboolean
search_over (gpointer search)
{
  return !graft_search_get_pending (search);
}

/* Ctrl+F, a name, Enter to the second hit, then Escape: the keyboard is
 * back on the canvas at the node found, so that Return, Menu and the
 * arrows go on from there (the bar, closing, cleared the hits and the
 * canvas's focused node was the one it had before Find: Return showed
 * another node's properties). */
static void
test_find_then_escape (void)
{
  GraftWindow *window = open_example ();
  GraftCanvas *canvas = focused_canvas (window);
  GtkWidget   *entry;

  assert_key (canvas, "Home", "x");
  g_action_group_activate_action (G_ACTION_GROUP (window), "find", NULL);
  entry = gtk_widget_get_ancestor (gtk_root_get_focus (GTK_ROOT (window)), GTK_TYPE_SEARCH_ENTRY);
  g_assert_nonnull (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), "add");
  g_signal_emit_by_name (entry, "search-changed");
  iterate_until (search_done, window->search);
  g_assert_cmpstr (graft_search_get_current (window->search), ==, "add");
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpstr (graft_search_get_current (window->search), ==, "add_1");

  g_assert_true (press_shortcut (entry, "Escape"));
  g_assert_false (gtk_search_bar_get_search_mode (window->search_bar));
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == GTK_WIDGET (canvas));
  g_assert_cmpstr (graft_canvas_get_focus_node (canvas), ==, "add_1");
  g_assert_true (node_in_view (canvas, "add_1"));
  assert_key (canvas, "Up", "add");

  /* A text that found nothing leaves the canvas's focus where it was. */
  activate (window, "find", NULL);
  gtk_editable_set_text (GTK_EDITABLE (entry), "no_such_node");
  g_signal_emit_by_name (entry, "search-changed");
  iterate_until (search_over, window->search);
  g_assert_true (press_shortcut (entry, "Escape"));
  g_assert_cmpstr (graft_canvas_get_focus_node (canvas), ==, "add");
  close_window (window);
}

/* What assistive technologies are told follows the focus; a preview
 * stays a picture with its own label. */
static void
test_accessible (void)
{
  GraftWindow   *window = open_example ();
  GraftCanvas   *canvas = graft_window_get_canvas (window);
  GtkAccessible *accessible = GTK_ACCESSIBLE (canvas);

  gtk_test_accessible_assert_role (accessible, GTK_ACCESSIBLE_ROLE_GROUP);
  /* Taking the focus focuses a node at once, for a screen reader to say. */
  gtk_widget_grab_focus (GTK_WIDGET (canvas));
  g_assert_nonnull (graft_canvas_get_focus_node (canvas));
  g_assert_true (gtk_test_accessible_has_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL));

  assert_key (canvas, "Home", "x");
  gtk_test_accessible_assert_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "x, placeholder input");
  gtk_test_accessible_assert_property (accessible, GTK_ACCESSIBLE_PROPERTY_ROLE_DESCRIPTION,
                                       "graph node");
  gtk_test_accessible_assert_property (accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "no inputs; user add; in no match");
  gtk_test_accessible_assert_state (accessible, GTK_ACCESSIBLE_STATE_SELECTED, FALSE);

  assert_key (canvas, "Tab", "sum_1");
  gtk_test_accessible_assert_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "sum_1, call_method .sum()");
  gtk_test_accessible_assert_property (accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "input cat; user max_1; in match 1 of 2 (chosen)");
  gtk_test_accessible_assert_state (accessible, GTK_ACCESSIBLE_STATE_SELECTED, TRUE);

  assert_key (canvas, "Up", "cat");
  gtk_test_accessible_assert_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "cat, call_function torch.cat");
  gtk_test_accessible_assert_property (accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "inputs neg, w2; user sum_1; in match 1 of 2 (chosen)");
  gtk_test_accessible_assert_state (accessible, GTK_ACCESSIBLE_STATE_SELECTED, FALSE);

  /* Choosing the other match in the list brings the focus to it; the
   * first match's nodes are no longer "(chosen)". */
  graft_window_select_match (window, 1);
  gtk_test_accessible_assert_property (accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "input cat_1; user max_2; in match 2 of 2 (chosen)");
  assert_key (canvas, "Home", "x");
  assert_key (canvas, "Page_Down", "w1");
  assert_key (canvas, "Page_Down", "w2");
  assert_key (canvas, "Page_Down", "neg");
  gtk_test_accessible_assert_property (accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "input w1; user cat; in match 1 of 2");

  /* After Replace All, the matches are gone from the description; the
   * focus went to a node in view. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "replace-all", NULL);
  iterate_until (layout_ready, window);
  g_assert_nonnull (graft_canvas_get_focus_node (canvas));
  assert_key (canvas, "Home", "x");
  gtk_test_accessible_assert_property (accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "no inputs; user add");

  {
    GraftCanvas *preview =
        GRAFT_CANVAS (
            find_widget (graft_window_get_pattern_editor (window, FALSE), GRAFT_TYPE_CANVAS));

    g_assert_nonnull (preview);
    g_assert_nonnull (graft_canvas_get_layout (preview));
    gtk_test_accessible_assert_role (preview, GTK_ACCESSIBLE_ROLE_IMG);
    gtk_test_accessible_assert_property (preview, GTK_ACCESSIBLE_PROPERTY_LABEL,
                                         "Preview of the graph");
  }
  close_window (window);
}

/* A folded module is a node too: the arrows reach it, it says what it is,
 * Return opens it and the focus goes to its first node. */
static void
test_folded_module (void)
{
  g_autofree char *path =
      g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "torchvision", "resnet18.py", NULL);
  GraftWindow           *window = open_path (path);
  GraftCanvas           *canvas;
  GtkAccessible         *accessible;
  GraftLayout           *layout;
  const GraftLayoutNode *box;
  gint                   b;

  g_action_group_activate_action (G_ACTION_GROUP (window), "collapse-all", NULL);
  iterate_until (layout_ready, window);
  canvas = focused_canvas (window);
  accessible = GTK_ACCESSIBLE (canvas);
  layout = graft_canvas_get_layout (canvas);
  b = graft_layout_find_node (layout, "layer1_0_conv1");
  g_assert_cmpint (b, >=, 0);
  box = graft_layout_get_node (layout, (guint) b);
  g_assert_cmpuint (box->n_members, >, 0);
  g_assert_cmpstr (box->name, ==, "layer1");

  /* Down from the stem's last node, maxpool, reaches the module. */
  g_assert_true (graft_canvas_focus_node (canvas, "maxpool"));
  assert_key (canvas, "Down", "layer1");
  gtk_test_accessible_assert_property (accessible, GTK_ACCESSIBLE_PROPERTY_ROLE_DESCRIPTION,
                                       "folded module");
  {
    g_autofree char *label = g_strdup_printf ("%s, folded module of %u nodes", box->label,
                                              box->n_members);

    gtk_test_accessible_assert_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, label);
  }
  assert_key (canvas, "Up", "maxpool");
  assert_key (canvas, "Down", "layer1");
  g_assert_true (press_shortcut (GTK_WIDGET (canvas), "Return"));
  iterate_until (layout_ready, window);
  layout = graft_canvas_get_layout (canvas);
  g_assert_cmpstr (graft_layout_get_node (layout, graft_layout_find_node (layout, "layer1_0_conv1"))
                       ->name,
                   !=, "layer1");
  /* The focus is on the box that now holds the module's first node. */
  g_assert_cmpstr (graft_canvas_get_focus_node (canvas), ==,
                   graft_layout_get_node (layout, graft_layout_find_node (layout, "layer1_0_conv1"))
                       ->name);
  close_window (window);
}

/* F9 with nothing selected and the keyboard's ring on a node (a match
 * chosen by Ctrl+G) shows that node's properties: it showed "Select a
 * node ...".  With a selection, the selection's. */
static void
test_properties_on_ring (void)
{
  GraftWindow     *window = open_example ();
  GraftCanvas     *canvas = focused_canvas (window);
  GraftProperties *panel = graft_window_get_properties (window);
  g_autofree char *text = NULL;
  g_autofree char *again = NULL;

  /* As after a key pressed. */
  gtk_window_set_focus_visible (GTK_WINDOW (window), TRUE);
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-properties",
                                      g_variant_new_boolean (FALSE));
  g_action_group_activate_action (G_ACTION_GROUP (window), "next-match", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (window), "next-match", NULL);
  g_assert_cmpstr (graft_canvas_get_focus_node (canvas), ==, "sum_2");
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 0);
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-properties", NULL);
  g_assert_true (graft_window_get_properties_shown (window));
  text = graft_properties_dup_text (panel);
  g_assert_true (g_str_has_prefix (text, "sum_2\n"));
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 1);

  /* Hidden, the ring moved: shown again, the selection's node. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-properties", NULL);
  g_assert_false (graft_window_get_properties_shown (window));
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (canvas)));
  g_action_group_activate_action (G_ACTION_GROUP (window), "previous-match", NULL);
  g_assert_cmpstr (graft_canvas_get_focus_node (canvas), ==, "sum_1");
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-properties", NULL);
  again = graft_properties_dup_text (panel);
  g_assert_true (g_str_has_prefix (again, "sum_2\n"));
  g_assert_cmpuint (graft_canvas_get_n_selected (canvas), ==, 1);
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-properties",
                                      g_variant_new_boolean (FALSE));
  close_window (window);
}

/* The keyboard's ring on a program's node goes around the type written
 * under its box (`f32[2, 5, 5]`, GRAFT_EDGE_LABEL_GAP + _HEIGHT = 12
 * points under it): it ran through that text, 8 points under the box.
 * A node without a type (the output) keeps its ring 8 points out.  What
 * assistive technologies are told says the type too, as the box shows
 * it. */
static void
test_ring_around_type (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "programs",
                                            "attention_manual.pt2", NULL);
  GraftWindow     *window = open_path (path);
  GraftCanvas     *canvas;
  GraftLayout     *layout;
  guint            n_typed = 0;
  gboolean         said = FALSE;

  iterate_until (layout_ready, window);
  canvas = focused_canvas (window);
  layout = graft_canvas_get_layout (canvas);
  g_assert_true (press_shortcut (GTK_WIDGET (canvas), "Home"));
  for (guint steps = 0; steps < graft_layout_get_n_nodes (layout); steps++)
    {
      const char            *name = graft_canvas_get_focus_node (canvas);
      const GraftLayoutNode *node = graft_layout_get_node (layout, find_layout_box (layout, name));
      const GraftRect       *box = &node->box;
      GraftRect              ring;

      g_assert_true (_graft_canvas_nav_get_ring (_graft_canvas_get_nav (canvas), &ring));
      g_assert_cmpfloat (ring.x, <=, box->x - 8);
      g_assert_cmpfloat (ring.y, <=, box->y - 8);
      g_assert_cmpfloat (ring.x + ring.width, >=, box->x + box->width + 8);
      if (node->annotation != NULL)
        {
          g_assert_cmpfloat (ring.y + ring.height, >=, box->y + box->height + 12 + 8);
          n_typed++;
        }
      else
        g_assert_cmpfloat (ring.y + ring.height, ==, box->y + box->height + 8);
      /* And what the box shows under it is said too. */
      if (g_str_equal (name, "softmax"))
        {
          gtk_test_accessible_assert_property (GTK_ACCESSIBLE (canvas),
                                               GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                               "value f32[2, 5, 5]; input mul; user matmul_1");
          said = TRUE;
        }
      if (g_str_equal (name, "output"))
        break;
      g_assert_true (press_shortcut (GTK_WIDGET (canvas), "Page_Down"));
    }
  g_assert_cmpstr (graft_canvas_get_focus_node (canvas), ==, "output");
  g_assert_cmpuint (n_typed, >=, 10);
  g_assert_true (said);
  close_window (window);
}

/* At a zoom where the type under a box is too small to be drawn
 * (graft_render_shows_annotations()), the ring goes around the box alone:
 * it kept the type's 12 points, a blank band between the box and the
 * ring's bottom (attention_manual.pt2 at 48 %).  Zoomed in again, it goes
 * around the type once more. */
static void
test_ring_without_type_drawn (void)
{
  g_autofree char       *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "programs",
                                                  "attention_manual.pt2", NULL);
  GraftWindow           *window = open_path (path);
  GraftCanvasNav        *nav;
  GraftCanvas           *canvas;
  GraftLayout           *layout;
  const GraftLayoutNode *node;
  GraftRect              ring;
  double                 pad;

  iterate_until (layout_ready, window);
  canvas = focused_canvas (window);
  nav = _graft_canvas_get_nav (canvas);
  layout = graft_canvas_get_layout (canvas);
  node = graft_layout_get_node (layout, find_layout_box (layout, "softmax"));
  g_assert_nonnull (node->annotation);
  g_assert_true (graft_canvas_focus_node (canvas, "softmax"));

  graft_canvas_set_zoom (canvas, 0.48);
  g_assert_false (graft_render_shows_annotations (graft_canvas_get_zoom (canvas)));
  pad = MAX (8.0, 5.0 / graft_canvas_get_zoom (canvas));
  g_assert_true (_graft_canvas_nav_get_ring (nav, &ring));
  g_assert_cmpfloat_with_epsilon (ring.y + ring.height, node->box.y + node->box.height + pad,
                                  1e-9);
  g_assert_cmpfloat_with_epsilon (ring.y, node->box.y - pad, 1e-9);

  graft_canvas_set_zoom (canvas, 1.0);
  g_assert_true (graft_render_shows_annotations (graft_canvas_get_zoom (canvas)));
  g_assert_true (_graft_canvas_nav_get_ring (nav, &ring));
  g_assert_cmpfloat (ring.y + ring.height, >=, node->box.y + node->box.height + 12 + 8);
  close_window (window);
}

/* Undoing a Replace chooses the match it had replaced again, and the
 * keyboard's ring goes to it as a match chosen by Ctrl+G does: it stayed
 * on the node the Replace had left it on. */
static void
test_undo_replace_ring (void)
{
  GraftWindow *window = open_example ();
  GraftCanvas *canvas = focused_canvas (window);

  g_action_group_activate_action (G_ACTION_GROUP (window), "next-match", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (window), "next-match", NULL);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 1);
  g_assert_cmpstr (graft_canvas_get_focus_node (canvas), ==, "sum_2");
  g_action_group_activate_action (G_ACTION_GROUP (window), "replace-selected", NULL);
  iterate_until (matches_known, window);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 0);
  g_assert_cmpstr (graft_canvas_get_focus_node (canvas), ==, "sum_1");
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);
  iterate_until (matches_known, window);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 1);
  g_assert_cmpstr (graft_canvas_get_focus_node (canvas), ==, "sum_2");
  close_window (window);
}

/* A node's tooltip while the matches are found again by steps (a large
 * graph) leaves the search to its steps, as its accessible description
 * does: hovering a box found them all in that turn.  It says the node's
 * match once they are in. */
static void
test_tooltip_pending (void)
{
  GraftWindow           *window = open_example ();
  GraftCanvas           *canvas = graft_window_get_canvas (window);
  GraftDocument         *document = graft_window_get_document (window);
  GraftLayout           *layout = graft_canvas_get_layout (canvas);
  gint                   b = find_layout_box (layout, "sum_1");
  const GraftLayoutNode *box;
  g_autofree char       *pattern = NULL;
  g_autofree char       *pending = NULL;
  g_autofree char       *known = NULL;
  double                 x;
  double                 y;

  g_assert_cmpint (b, >=, 0);
  box = graft_layout_get_node (layout, (guint) b);
  graft_canvas_center_on (canvas, "sum_1");
  graft_canvas_layout_to_widget (canvas, box->box.x + box->box.width / 2,
                                 box->box.y + box->box.height / 2, &x, &y);
  _graft_document_set_match_step (1);
  /* The same matches, found again. */
  pattern = g_strconcat (graft_document_get_pattern_text (document), "\n# again\n", NULL);
  graft_document_set_pattern_text (document, pattern);
  g_assert_true (graft_document_get_matches_pending (document));
  pending = graft_canvas_describe_at (canvas, x, y);
  g_assert_nonnull (pending);
  g_assert_true (graft_document_get_matches_pending (document));
  g_assert_null (strstr (pending, "match"));
  iterate_until (matches_known, window);
  /* Found, the matches may have moved the view (and the layout be
   * another): the node is found again. */
  layout = graft_canvas_get_layout (canvas);
  b = find_layout_box (layout, "sum_1");
  g_assert_cmpint (b, >=, 0);
  box = graft_layout_get_node (layout, (guint) b);
  graft_canvas_center_on (canvas, "sum_1");
  graft_canvas_layout_to_widget (canvas, box->box.x + box->box.width / 2,
                                 box->box.y + box->box.height / 2, &x, &y);
  known = graft_canvas_describe_at (canvas, x, y);
  g_assert_nonnull (known);
  g_assert_nonnull (strstr (known, "Part of match 1: right-click to replace it"));
  _graft_document_set_match_step (0);
  close_window (window);
}

/* Choosing a match while the matches are found again by steps (a large
 * graph) leaves the search to its steps: the description of the focused
 * node asked for the matches, which found them all in that turn.  It
 * says the node's match once they are in. */
static void
test_accessible_pending (void)
{
  GraftWindow   *window = open_example ();
  GraftCanvas   *canvas = graft_window_get_canvas (window);
  GraftDocument *document = graft_window_get_document (window);
  GtkAccessible *accessible = GTK_ACCESSIBLE (canvas);

  _graft_document_set_match_step (1);
  gtk_widget_grab_focus (GTK_WIDGET (canvas));
  graft_window_select_match (window, 1);
  g_action_group_activate_action (G_ACTION_GROUP (window), "replace-selected", NULL);
  g_assert_true (graft_document_get_matches_pending (document));
  graft_window_select_match (window, 0);
  g_assert_true (graft_document_get_matches_pending (document));
  iterate_until (matches_known, window);
  gtk_test_accessible_assert_property (accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "input cat; user max_1; in match 1 of 1 (chosen)");
  _graft_document_set_match_step (0);
  close_window (window);
}

int
main (int    argc,
      char **argv)
{
  /* GTK's test AT context records what the canvas tells assistive
   * technologies (tests/meson.build sets it too). */
  g_setenv ("GTK_A11Y", "test", TRUE);
  if (!ui_test_init (&argc, &argv))
    return 0;
  g_test_add_func ("/ui/canvas-keys/arrows", test_arrows);
  g_test_add_func ("/ui/canvas-keys/scrolls-into-view", test_scrolls_into_view);
  g_test_add_func ("/ui/canvas-keys/tab-matches", test_tab_matches);
  g_test_add_func ("/ui/canvas-keys/match-readable", test_match_readable);
  g_test_add_func ("/ui/canvas-keys/menu-key", test_menu_key);
  g_test_add_func ("/ui/canvas-keys/menu-other-match", test_menu_other_match);
  g_test_add_func ("/ui/canvas-keys/chosen-match", test_chosen_match);
  g_test_add_func ("/ui/canvas-keys/return-and-space", test_return_and_space);
  g_test_add_func ("/ui/canvas-keys/find-then-escape", test_find_then_escape);
  g_test_add_func ("/ui/canvas-keys/accessible", test_accessible);
  g_test_add_func ("/ui/canvas-keys/accessible-pending", test_accessible_pending);
  g_test_add_func ("/ui/canvas-keys/tooltip-pending", test_tooltip_pending);
  g_test_add_func ("/ui/canvas-keys/folded-module", test_folded_module);
  g_test_add_func ("/ui/canvas-keys/properties-on-ring", test_properties_on_ring);
  g_test_add_func ("/ui/canvas-keys/undo-replace-ring", test_undo_replace_ring);
  g_test_add_func ("/ui/canvas-keys/ring-around-type", test_ring_around_type);
  g_test_add_func ("/ui/canvas-keys/ring-without-type-drawn", test_ring_without_type_drawn);
  g_test_add_func ("/ui/canvas-keys/keys-fill-view", test_keys_fill_view);
  return g_test_run ();
}
