/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-window-adaptive.c: the window on small and large screens.
 *
 * libadwaita 1.2 has no breakpoints; its adaptive containers fold when
 * their children's minimum sizes no longer fit side by side.  The window
 * is built of two AdwFlaps (graft-window.ui): the side panel (Pattern,
 * Replacement, Rules, Code and the matches) is the flap of the outer one,
 * the properties panel the flap of the inner one around the canvas.  When
 * the window is wide enough for the canvas's minimum (MIN_CANVAS_WIDTH)
 * and the panels beside it, they sit beside it; narrower, the panel folds
 * and slides over the canvas when shown, so a 800x600 window (or a
 * 1600x1000 screen at twice the scale) has the whole canvas and every
 * panel within reach, nothing clipped.  The side panel shows and hides
 * with win.show-side-panel (Shift+F9, the header bar's toggle); folding
 * hides it, unfolding shows it again.  Beside the canvas, its width
 * follows a drag of the handle between them (GSettings `sidebar-width`).
 * A first window on a large screen opens at a share of it
 * (_graft_window_screen_size()), not at the default meant for a laptop's.
 */
#include "config.h"

#include "graft-window-private.h"

/* The canvas never gets narrower than this beside the side panel, nor
 * than MIN_CANVAS_BESIDE_PROPERTIES beside the properties panel: below
 * that the panel folds over the canvas instead (pixels). */
#define MIN_CANVAS_WIDTH             440
#define MIN_CANVAS_BESIDE_PROPERTIES 360
/* The side panel's narrowest and widest (pixels). */
#define MIN_SIDEBAR_WIDTH 300
#define MAX_SIDEBAR_WIDTH 800

/* A first window's share of the screen, in both directions, as the
 * default size's proportions allow (percent). */
#define SCREEN_SHARE 75

/**
 * _graft_window_share_screen:
 * @screen_width: the screen's width
 * @screen_height: the screen's height
 * @width: (inout): the default width
 * @height: (inout): the default height
 *
 * Grows the default size @width x @height, proportions kept, until it
 * covers SCREEN_SHARE percent of the screen's width or height, whichever
 * comes first: 1120x700 is a laptop's window, and on a 1920x1080 screen
 * it left half the screen unused (1296x810 there).  Never shrinks it (a
 * smaller screen keeps the default, which the window manager fits).
 */
void
_graft_window_share_screen (int  screen_width,
                            int  screen_height,
                            int *width,
                            int *height)
{
  double scale;

  if (*width <= 0 || *height <= 0)
    return;
  scale = MIN ((double) screen_width * SCREEN_SHARE / 100 / *width,
               (double) screen_height * SCREEN_SHARE / 100 / *height);
  if (scale <= 1)
    return;
  *width = (int) (*width * scale);
  *height = (int) (*height * scale);
}

/**
 * _graft_window_screen_size:
 * @self: a window
 * @width: (inout): the default width
 * @height: (inout): the default height
 *
 * _graft_window_share_screen() of the display's first monitor (GTK 4.8
 * says no more before the window is shown).
 */
void
_graft_window_screen_size (GraftWindow *self,
                           int         *width,
                           int         *height)
{
  GListModel *monitors = gdk_display_get_monitors (gtk_widget_get_display (GTK_WIDGET (self)));
  g_autoptr (GdkMonitor) monitor = NULL;
  GdkRectangle geometry;

  if (monitors == NULL || g_list_model_get_n_items (monitors) == 0)
    return;
  monitor = g_list_model_get_item (monitors, 0);
  gdk_monitor_get_geometry (monitor, &geometry);
  _graft_window_share_screen (geometry.width, geometry.height, width, height);
}

static void
set_sidebar_width (GraftWindow *self,
                   int          width)
{
  width = CLAMP (width, MIN_SIDEBAR_WIDTH, MAX_SIDEBAR_WIDTH);
  gtk_widget_set_size_request (self->sidebar, width, -1);
}

/**
 * _graft_window_get_sidebar_width:
 * @self: a window
 *
 * Returns: the width the side panel has beside the canvas (pixels)
 */
int
_graft_window_get_sidebar_width (GraftWindow *self)
{
  int width;

  gtk_widget_get_size_request (self->sidebar, &width, NULL);
  return width;
}

static void
handle_drag_begin_cb (GtkGestureDrag *gesture,
                      double          x,
                      double          y,
                      GraftWindow    *self)
{
  /* Folded, the panel lies over the canvas and keeps its width. */
  if (adw_flap_get_folded (self->side_flap))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  self->handle_start_width = _graft_window_get_sidebar_width (self);
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
handle_drag_update_cb (GtkGestureDrag *gesture,
                       double          dx,
                       double          dy,
                       GraftWindow    *self)
{
  int content_min;
  int room;

  /* The panel grows to the left, as far as the canvas keeps its minimum
   * (a wider panel would fold it away under the pointer). */
  gtk_widget_measure (adw_flap_get_content (self->side_flap), GTK_ORIENTATION_HORIZONTAL, -1,
                      &content_min, NULL, NULL, NULL);
  room = gtk_widget_get_width (GTK_WIDGET (self->side_flap)) - content_min -
         gtk_widget_get_width (self->side_handle);
  set_sidebar_width (self, MIN (self->handle_start_width - (int) dx, room));
}

static void
show_side_panel_cb (GSimpleAction *action,
                    GVariant      *state,
                    gpointer       user_data)
{
  GraftWindow *self = user_data;
  GtkWidget   *focus = gtk_root_get_focus (GTK_ROOT (self));

  /* Hidden from inside (Shift+F9 in the pattern): the keyboard goes to
   * the canvas, as when the properties panel hides; GTK gave it to the
   * header bar's Open button. */
  if (!g_variant_get_boolean (state) && focus != NULL &&
      gtk_widget_is_ancestor (focus, self->sidebar))
    gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
  adw_flap_set_reveal_flap (self->side_flap, g_variant_get_boolean (state));
}

/* The flap shows or hides the panel on its own too (folding, unfolding,
 * Escape or a click on the canvas while it lies over it): the toggle
 * follows. */
static void
side_revealed_cb (AdwFlap     *flap,
                  GParamSpec  *pspec,
                  GraftWindow *self)
{
  gboolean shown = adw_flap_get_reveal_flap (flap);
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "show-side-panel");
  g_autoptr (GVariant) state = g_action_get_state (action);

  if (g_variant_get_boolean (state) != shown)
    g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (shown));
  /* Shown over the canvas from the keyboard: the focus goes into it. */
  if (shown && adw_flap_get_folded (flap) && gtk_widget_get_mapped (GTK_WIDGET (self)))
    gtk_widget_child_focus (self->sidebar, GTK_DIR_TAB_FORWARD);
}

static const GActionEntry adaptive_entries[] = {
  { "show-side-panel", NULL, NULL, "true", show_side_panel_cb },
};

/**
 * _graft_window_init_adaptive:
 * @self: a window
 * @sidebar_width: the side panel's width beside the canvas (pixels)
 *
 * Sets the side panel's width, its handle and win.show-side-panel.
 */
void
_graft_window_init_adaptive (GraftWindow *self,
                             int          sidebar_width)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  g_action_map_add_action_entries (G_ACTION_MAP (self), adaptive_entries,
                                   G_N_ELEMENTS (adaptive_entries), self);
  set_sidebar_width (self, sidebar_width);
  /* The minimums decide when the panels fold. */
  gtk_widget_set_size_request (adw_flap_get_content (self->side_flap), MIN_CANVAS_WIDTH, -1);
  gtk_widget_set_size_request (GTK_WIDGET (self->content_stack), MIN_CANVAS_BESIDE_PROPERTIES, -1);
  gtk_widget_set_cursor_from_name (self->side_handle, "col-resize");
  g_signal_connect (drag, "drag-begin", G_CALLBACK (handle_drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (handle_drag_update_cb), self);
  gtk_widget_add_controller (self->side_handle, GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (self->side_flap, "notify::reveal-flap", G_CALLBACK (side_revealed_cb), self);
}
