/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-small.c: the editor's smaller conveniences, under a display (Xvfb
 * in CI).  Left to right: the menu's choice lays the graph out with its
 * edges pointing right and GSettings (the memory backend) remembers it
 * for the next window.  The side panel's open and save buttons are
 * gone on the Code tab.
 */
#include "config.h"

#include "display.h"
#include "example.h"

#include "graft-window-private.h"

#include <glib/gstdio.h>
#include <string.h>

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until @done says so, at most 20 s; a time-out fails
 * the test, naming what it waited for. */
static void
iterate_until_named (gboolean (*done) (gpointer),
                     gpointer    data,
                     const char *what)
{
  gboolean timed_out = FALSE;
  guint    id = g_timeout_add_seconds (20, timeout_cb, &timed_out);

  while (!done (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (timed_out)
    g_error ("waited 20 s for %s", what);
  g_source_remove (id);
}
#define iterate_until(done, data) iterate_until_named (done, data, #done)

static void
iterate_for (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, timeout_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static gboolean
layout_ready (gpointer data)
{
  GraftWindow *window = data;
  GraftCanvas *canvas = graft_window_get_canvas (window);

  return !graft_window_get_busy (window) && graft_canvas_get_layout (canvas) != NULL &&
         gtk_widget_get_width (GTK_WIDGET (canvas)) > 0;
}

/* A new window on @path, once its layout is drawn. */
static GraftWindow *
open_path (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GraftWindow *window = g_object_new (GRAFT_TYPE_WINDOW, NULL);

  gtk_window_present (GTK_WINDOW (window));
  graft_window_open_file (window, file);
  iterate_until (layout_ready, window);
  return window;
}

static GraftWindow *
open_example (void)
{
  g_autofree char *path = example_path ();

  return open_path (path);
}

static void
close_window (GraftWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  iterate_for (10);
}

static gboolean
action_state (GraftWindow *window,
              const char  *name)
{
  g_autoptr (GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (window), name);

  return g_variant_get_boolean (state);
}

/* Whether every edge of the canvas's layout points right (@right) or
 * down. */
static gboolean
edges_point (GraftWindow *window,
             gboolean     right)
{
  GraftLayout *layout = graft_canvas_get_layout (graft_window_get_canvas (window));

  g_assert_cmpuint (graft_layout_get_n_edges (layout), >, 0);
  for (guint e = 0; e < graft_layout_get_n_edges (layout); e++)
    {
      const GraftLayoutEdge *edge = graft_layout_get_edge (layout, e);
      const GraftRect       *tail = &graft_layout_get_node (layout, edge->tail)->box;
      const GraftRect       *head = &graft_layout_get_node (layout, edge->head)->box;

      if (right ? tail->x + tail->width >= head->x : tail->y + tail->height >= head->y)
        return FALSE;
    }
  return TRUE;
}

static void
test_left_to_right (void)
{
  g_autoptr (GSettings) settings = g_settings_new (APPLICATION_ID);
  GraftWindow *window = open_example ();
  GraftWindow *second;

  g_assert_false (action_state (window, "left-to-right"));
  g_assert_true (edges_point (window, FALSE));
  g_action_group_activate_action (G_ACTION_GROUP (window), "left-to-right", NULL);
  g_assert_true (action_state (window, "left-to-right"));
  g_assert_true (g_settings_get_boolean (settings, "left-to-right"));
  iterate_until (layout_ready, window);
  g_assert_true (edges_point (window, TRUE));

  /* The next window starts left to right. */
  second = open_example ();
  g_assert_true (action_state (second, "left-to-right"));
  g_assert_true (edges_point (second, TRUE));
  g_action_group_activate_action (G_ACTION_GROUP (second), "left-to-right", NULL);
  iterate_until (layout_ready, second);
  g_assert_true (edges_point (second, FALSE));
  g_assert_false (g_settings_get_boolean (settings, "left-to-right"));
  close_window (second);
  close_window (window);
}

/* The side panel's open and save buttons belong to the pattern, the
 * replacement and the rules: the Code tab, which shows the graph's code,
 * has none. */
static void
test_side_buttons (void)
{
  static const struct
  {
    const char *page;
    const char *open_action;
  } pages[] = {
    { "pattern", "win.load-patterns" },
    { "code", NULL },
    { "replacement", "win.load-patterns" },
    { "rules", "win.rules-open" },
    { "code", NULL },
    { "pattern", "win.load-patterns" },
  };
  GraftWindow *window = open_example ();

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      GtkWidget *open = GTK_WIDGET (window->side_open_button);
      GtkWidget *save = GTK_WIDGET (window->side_save_button);

      graft_window_show_page (window, pages[i].page);
      g_assert_cmpint (gtk_widget_get_visible (open), ==, pages[i].open_action != NULL);
      g_assert_cmpint (gtk_widget_get_visible (save), ==, pages[i].open_action != NULL);
      if (pages[i].open_action != NULL)
        g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (open)), ==,
                         pages[i].open_action);
    }
  close_window (window);
}

int
main (int    argc,
      char **argv)
{
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }
  {
    /* Autosaves go to a state folder of the test's own. */
    g_autofree char *state = g_dir_make_tmp ("graft-state-XXXXXX", NULL);

    g_setenv ("XDG_STATE_HOME", state, TRUE);
  }
  g_unsetenv ("GRAFT_TORCH");
  hold_display ();
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_test_add_func ("/ui/window/left-to-right", test_left_to_right);
  g_test_add_func ("/ui/window/side-buttons", test_side_buttons);
  return g_test_run ();
}
