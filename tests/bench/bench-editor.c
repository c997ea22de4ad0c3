/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-editor.c: built as `_build/tests/bench-editor FILE...` (needs a
 * display; run it under xvfb-run).  For each file it opens an editor
 * window, and reports how long until the graph is laid out and first drawn,
 * and the longest time the main loop did not run meanwhile (a 5 ms tick
 * measures the gaps; the synchronous part of opening, reading and tracing
 * the file, counts as one).  Then it does Replace All and reports the same
 * for the relayout.  Figures, not a pass/fail test.  With `--gaps` first,
 * it also prints every gap over 30 ms and when it began; with `--code`, the
 * longest stall in the 3 s after showing the code view (the graph's whole
 * code in a GtkSourceView) once the graph is drawn; with `--changes`,
 * after Replace All, how long Show Changes takes: building the Changes
 * window (the diff included) and until it has drawn its first frame;
 * with `--export`, once the graph is drawn, how long exports take, from
 * the call (the dialog's response) to the written file, and the longest
 * stall meanwhile: the visible area as PNG and SVG, then the whole graph
 * as SVG and PNG (a refused PNG prints the toast's reason).
 *
 * GTK draws with the cairo renderer here unless GSK_RENDERER says
 * otherwise.  Under Xvfb there is no GPU, and GTK's default GL renderer
 * then runs on Mesa's software rasterizer, whose threads compete with the
 * layout worker for the cores: on a 2-core machine every frame then waits
 * 40-60 ms for them, whatever the editor does, which says nothing about
 * the editor on a machine with a GPU.  `GSK_RENDERER=gl` measures that
 * case anyway.
 */
#include "config.h"

#include "graft-canvas.h"
#include "graft-diff-window.h"
#include "graft-window.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

typedef struct
{
  gint64   last_tick;
  gint64   longest;
  gint64   start;     /* of the measurement */
  gboolean show_gaps; /* --gaps: print every gap over 30 ms */
} Watchdog;

static gboolean
tick_cb (gpointer data)
{
  Watchdog *w = data;
  gint64    now = g_get_monotonic_time ();

  if (w->last_tick > 0 && now - w->last_tick > w->longest)
    w->longest = now - w->last_tick;
  if (w->show_gaps && w->last_tick > 0 && now - w->last_tick > 30000)
    printf ("  gap of %.0f ms, %.0f ms after the start\n", (now - w->last_tick) / 1e3,
            (w->last_tick - w->start) / 1e3);
  w->last_tick = now;
  return G_SOURCE_CONTINUE;
}

static gboolean drawn;
static gboolean changes_painted;

static void
changes_paint_cb (GdkFrameClock *clock,
                  gpointer       data)
{
  changes_painted = TRUE;
}

/* Shows the last change and returns the time until its window has drawn
 * once; *built_s gets the time until it was built. */
static double
time_show_changes (GraftWindow *window,
                   double      *built_s)
{
  gint64 start = g_get_monotonic_time ();
  g_autoptr (GList) toplevels = NULL;
  GraftDiffWindow *diff = NULL;
  GdkFrameClock   *clock;
  double           shown_s;

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-changes", NULL);
  *built_s = (g_get_monotonic_time () - start) / 1e6;
  toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l != NULL; l = l->next)
    if (GRAFT_IS_DIFF_WINDOW (l->data))
      diff = l->data;
  if (diff == NULL)
    return -1;
  while (!gtk_widget_get_mapped (GTK_WIDGET (diff)))
    g_main_context_iteration (NULL, TRUE);
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (diff));
  changes_painted = FALSE;
  g_signal_connect (clock, "after-paint", G_CALLBACK (changes_paint_cb), NULL);
  while (!changes_painted)
    g_main_context_iteration (NULL, TRUE);
  shown_s = (g_get_monotonic_time () - start) / 1e6;
  g_signal_handlers_disconnect_by_func (clock, changes_paint_cb, NULL);
  printf ("  show changes: %u removed, %u added; built in %.3fs, drawn after %.3fs\n",
          graft_diff_window_get_n_removed (diff), graft_diff_window_get_n_added (diff),
          *built_s, shown_s);
  gtk_window_destroy (GTK_WINDOW (diff));
  return shown_s;
}

/* Exports @scope of the graph as @name in a folder of its own and prints
 * the time until the file is written, the longest stall meanwhile, and
 * the file's size (or the toast, when it was not written). */
static void
time_export (GraftWindow     *window,
             Watchdog        *w,
             const char      *name,
             GraftFormat      format,
             GraftExportScope scope)
{
  g_autofree char *dir = g_dir_make_tmp ("bench-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  gint64   start = g_get_monotonic_time ();
  GStatBuf st;

  w->start = start;
  w->last_tick = start;
  w->longest = 0;
  if (!graft_window_export (window, file, format, scope, TRUE, &error))
    {
      printf ("  export %-18s not started: %s\n", name, error->message);
      return;
    }
  while (graft_window_get_export (window) != NULL)
    g_main_context_iteration (NULL, TRUE);
  if (g_stat (path, &st) == 0)
    printf ("  export %-18s %8.3fs %6.0fms stall %10.1f MB\n", name,
            (g_get_monotonic_time () - start) / 1e6, w->longest / 1e3, st.st_size / 1e6);
  else
    printf ("  export %-18s %8.3fs %6.0fms stall  %s\n", name,
            (g_get_monotonic_time () - start) / 1e6, w->longest / 1e3,
            graft_window_get_last_toast (window));
  g_unlink (path);
  g_rmdir (dir);
}

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       data)
{
  GraftWindow *window = data;

  if (!graft_window_get_busy (window) &&
      graft_canvas_get_layout (graft_window_get_canvas (window)) != NULL)
    drawn = TRUE;
}

/* Runs the loop until the window has drawn a laid-out graph.  The
 * watchdog counts from @start, so the call that started the work (run on
 * the main loop's thread before this) counts as a stall too. */
static double
wait_drawn (GraftWindow *window,
            Watchdog    *w,
            gint64       start)
{
  drawn = FALSE;
  w->start = start;
  w->last_tick = start;
  w->longest = 0;
  while (!drawn)
    g_main_context_iteration (NULL, TRUE);
  return (g_get_monotonic_time () - start) / 1e6;
}

int
main (int    argc,
      char **argv)
{
  Watchdog w = { 0, 0, 0, FALSE };
  gboolean code_page = FALSE;
  gboolean changes = FALSE;
  gboolean exports = FALSE;

  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  g_set_prgname ("graft-editor");
  g_set_application_name ("Graft");
  gtk_init ();
  adw_init ();
  g_timeout_add (5, tick_cb, &w);
  printf ("GSK_RENDERER=%s\n", g_getenv ("GSK_RENDERER"));
  printf ("%-28s %7s %10s %10s %10s %10s\n", "file", "nodes", "open+draw", "stall", "replace",
          "stall");
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--gaps") == 0)
        {
          w.show_gaps = TRUE;
          continue;
        }
      if (strcmp (argv[i], "--changes") == 0)
        {
          changes = TRUE;
          continue;
        }
      if (strcmp (argv[i], "--export") == 0)
        {
          exports = TRUE;
          continue;
        }
      if (strcmp (argv[i], "--code") == 0)
        {
          code_page = TRUE;
          continue;
        }
      g_autoptr (GFile) file = g_file_new_for_path (argv[i]);
      g_autofree char *base = g_path_get_basename (argv[i]);
      GraftWindow     *window =
          g_object_new (GRAFT_TYPE_WINDOW, "default-width", 1400, "default-height", 900, NULL);
      GdkFrameClock *clock;
      gint64         start;
      double         open_s;
      double         open_stall;
      double         replace_s = 0;
      double         replace_stall = 0;
      guint          n;

      gtk_window_present (GTK_WINDOW (window));
      while (gtk_widget_get_width (GTK_WIDGET (window)) == 0)
        g_main_context_iteration (NULL, TRUE);
      clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
      g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), window);

      start = g_get_monotonic_time ();
      graft_window_open_file (window, file);
      open_s = wait_drawn (window, &w, start);
      open_stall = w.longest / 1e3;
      n = graft_graph_get_n_nodes (graft_document_get_graph (graft_window_get_document (window)));

      if (code_page)
        {
          gint64 t0 = g_get_monotonic_time ();

          w.start = t0;
          w.last_tick = t0;
          w.longest = 0;
          graft_window_show_page (window, "code");
          while (g_get_monotonic_time () - t0 < 3000000)
            g_main_context_iteration (NULL, FALSE);
          printf ("  code page: longest stall %.0f ms\n", w.longest / 1e3);
          graft_window_show_page (window, "pattern");
        }
      if (exports)
        {
          printf ("%s, once drawn:\n", base);
          time_export (window, &w, "view.png", GRAFT_FORMAT_PNG, GRAFT_EXPORT_SCOPE_VIEW);
          time_export (window, &w, "view.svg", GRAFT_FORMAT_SVG, GRAFT_EXPORT_SCOPE_VIEW);
          time_export (window, &w, "whole.svg", GRAFT_FORMAT_SVG, GRAFT_EXPORT_SCOPE_WHOLE);
          time_export (window, &w, "whole.png", GRAFT_FORMAT_PNG, GRAFT_EXPORT_SCOPE_WHOLE);
        }
      if (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "replace-all"))
        {
          start = g_get_monotonic_time ();
          g_action_group_activate_action (G_ACTION_GROUP (window), "replace-all", NULL);
          replace_s = wait_drawn (window, &w, start);
          replace_stall = w.longest / 1e3;
        }
      printf ("%-28s %7u %9.3fs %8.0fms %9.3fs %8.0fms\n", base, n, open_s, open_stall, replace_s,
              replace_stall);
      if (changes && replace_s > 0)
        {
          double built_s;

          time_show_changes (window, &built_s);
        }
      fflush (stdout);
      g_signal_handlers_disconnect_by_func (clock, after_paint_cb, window);
      gtk_window_destroy (GTK_WINDOW (window));
    }
  return 0;
}
