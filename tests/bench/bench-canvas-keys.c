/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-canvas-keys.c: built as `_build/tests/bench-canvas-keys FILE...`
 * (needs a display; run it under xvfb-run).  For each file it opens an
 * editor window with every module expanded, gives the canvas the focus,
 * and reports what the canvas's keys cost on that graph: the mean and the
 * longest of a walk of arrow and Page keys, of Tab (which also selects the
 * match's node) and of Menu (which opens the context menu).  (The index of
 * inputs and users the keys use is built when the layout arrives, as the
 * canvas has the focus.)  Each key is
 * pressed by activating the canvas's shortcut for it, as GTK does, and
 * the time is the handler's, drawing excluded.  Figures, not a pass/fail
 * test.
 */
#include "config.h"

#include "graft-canvas.h"
#include "graft-window.h"
#include "ui/window-util.h"

#include <stdio.h>
#include <string.h>

static void
wait_ready (GraftWindow *window)
{
  GraftCanvas *canvas = graft_window_get_canvas (window);

  while (graft_window_get_busy (window) || graft_canvas_get_layout (canvas) == NULL)
    g_main_context_iteration (NULL, TRUE);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

typedef struct
{
  double total;
  double longest;
  guint  n;
} Times;

/* Presses @accel and adds the time it took to @times. */
static void
timed_press (GtkWidget  *canvas,
             const char *accel,
             Times      *times)
{
  gint64 t0 = g_get_monotonic_time ();
  double ms;

  press_shortcut (canvas, accel);
  ms = (g_get_monotonic_time () - t0) / 1e3;
  times->total += ms;
  times->longest = MAX (times->longest, ms);
  times->n++;
}

static void
report (const char  *what,
        const Times *times)
{
  printf ("  %-34s %6u keys  mean %7.3f ms  longest %7.3f ms\n", what, times->n,
          times->n > 0 ? times->total / times->n : 0, times->longest);
}

int
main (int    argc,
      char **argv)
{
  static const char *const walk[] = { "Down", "Right", "Down", "Left", "Up", "Page_Down" };

  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  g_set_prgname ("graft-editor");
  g_set_application_name ("Graft");
  gtk_init ();
  adw_init ();
  for (int i = 1; i < argc; i++)
    {
      g_autoptr (GFile) file = g_file_new_for_path (argv[i]);
      GraftWindow *window =
          g_object_new (GRAFT_TYPE_WINDOW, "default-width", 1400, "default-height", 900, NULL);
      GtkWidget *canvas = GTK_WIDGET (graft_window_get_canvas (window));
      Times      first = { 0, 0, 0 };
      Times      arrows = { 0, 0, 0 };
      Times      tabs = { 0, 0, 0 };
      Times      menus = { 0, 0, 0 };

      gtk_window_present (GTK_WINDOW (window));
      graft_window_open_file (window, file);
      wait_ready (window);
      g_action_group_activate_action (G_ACTION_GROUP (window), "expand-all", NULL);
      wait_ready (window);
      gtk_widget_grab_focus (canvas);
      printf ("%s: %u boxes\n", argv[i],
              graft_layout_get_n_nodes (graft_canvas_get_layout (GRAFT_CANVAS (canvas))));

      timed_press (canvas, "Home", &first);
      report ("Home, the first key", &first);
      for (guint k = 0; k < 3000; k++)
        timed_press (canvas, walk[k % G_N_ELEMENTS (walk)], &arrows);
      report ("arrows and Page Down", &arrows);
      press_shortcut (canvas, "Home");
      for (guint k = 0; k < 200; k++)
        timed_press (canvas, "Tab", &tabs);
      report ("Tab (selects the match's node)", &tabs);
      for (guint k = 0; k < 20; k++)
        {
          GtkWidget *popover;

          timed_press (canvas, "Menu", &menus);
          for (popover = gtk_widget_get_first_child (canvas); popover != NULL;
               popover = gtk_widget_get_next_sibling (popover))
            if (GTK_IS_POPOVER (popover))
              gtk_popover_popdown (GTK_POPOVER (popover));
        }
      report ("Menu (opens the context menu)", &menus);
      gtk_window_destroy (GTK_WINDOW (window));
    }
  return 0;
}
