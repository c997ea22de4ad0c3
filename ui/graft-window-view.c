/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-window-view.c: how the window draws its graph, as chosen in the
 * primary menu: top to bottom or left to right (win.left-to-right, which
 * the `left-to-right` GSettings key remembers for the next window).  The
 * layout runner does the drawing; this file only says which way.
 */
#include "config.h"

#include "graft-window-private.h"

/* Lays the graph out the way @state says, and remembers the choice. */
static void
left_to_right_cb (GSimpleAction *action,
                  GVariant      *state,
                  gpointer       user_data)
{
  GraftWindow *self = user_data;
  gboolean     left_to_right = g_variant_get_boolean (state);

  g_simple_action_set_state (action, state);
  graft_layout_runner_set_direction (self->layout_runner, left_to_right
                                                              ? GRAFT_LAYOUT_LEFT_TO_RIGHT
                                                              : GRAFT_LAYOUT_TOP_TO_BOTTOM);
  if (self->settings != NULL &&
      g_settings_get_boolean (self->settings, "left-to-right") != left_to_right)
    g_settings_set_boolean (self->settings, "left-to-right", left_to_right);
  /* A graph on screen is drawn again, fitted: the old view means nothing
   * once the drawing has turned. */
  if (graft_canvas_get_layout (self->canvas) != NULL)
    _graft_window_relayout (self, FALSE);
}

static const GActionEntry view_entries[] = {
  { "left-to-right", NULL, NULL, "false", left_to_right_cb },
};

/**
 * _graft_window_init_view_actions:
 * @self: a window
 *
 * Adds the view's actions, in the state the last window left them.
 */
void
_graft_window_init_view_actions (GraftWindow *self)
{
  gboolean left_to_right =
      self->settings != NULL && g_settings_get_boolean (self->settings, "left-to-right");

  g_action_map_add_action_entries (G_ACTION_MAP (self), view_entries, G_N_ELEMENTS (view_entries),
                                   self);
  g_simple_action_set_state (
      G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "left-to-right")),
      g_variant_new_boolean (left_to_right));
  graft_layout_runner_set_direction (self->layout_runner, left_to_right
                                                              ? GRAFT_LAYOUT_LEFT_TO_RIGHT
                                                              : GRAFT_LAYOUT_TOP_TO_BOTTOM);
}
