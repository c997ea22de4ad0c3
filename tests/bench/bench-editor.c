/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-editor.c: built as `_build/tests/bench-editor FILE...` (needs a
 * display; run it under xvfb-run).  For each file it opens an editor
 * window, and reports how long until the graph is laid out and first drawn,
 * and the longest time the main loop did not run meanwhile (a 5 ms tick
 * measures the gaps; the synchronous part of opening, reading and tracing
 * the file, counts as one).  Then it does Replace All and reports the same
 * for the relayout.  Each stall is also given without GTK's frames: "own"
 * is the most processor time the main thread spent between two ticks,
 * less what it spent in the window's frames meanwhile (the frame clock's
 * paint, from before-paint to after-paint: GTK's layout and drawing, less
 * the editor's list factories' callbacks in it, whose rows are the
 * editor's), so what is left is Graft's own work in one main-loop turn
 * (events and what their handlers do count as own).  It is measured in the thread's
 * processor time, so other processes competing for the cores (the gaps
 * grow with the load of a shared machine) do not count.
 * After Replace All, "reused" says how many segments of the new layout
 * were not laid out by dot but taken from an identical one (of the old
 * layout, or a repeated block of the new).  With `--one`, the rewrite is
 * Replace of the one match in the middle of the graph instead of Replace
 * All: a local edit.  A graph that cannot be drawn (too many boxes)
 * prints the window's reason and when it gave it.  Figures, not a pass/fail test.  With `--gaps`
 * first, it also prints every gap over 30 ms and when it began, and every own turn over 16 ms
 * (`--turns MS`: over MS) with its span in the monotonic clock's seconds, which `perf record -k
 * CLOCK_MONOTONIC` shares (`perf script --time` picks the turn's samples); with `--code`, the
 * longest stall in the 3 s after showing the code view (the graph's whole code in a GtkSourceView)
 * once the graph is drawn; with `--changes`, after Replace All, how long Show Changes takes: until
 * its window holds the whole comparison and has drawn it, with the longest stall and own turn
 * meanwhile;
 * `--forget` first makes Show Changes make the code before the change too (as after a run of
 * the rules, which keeps no code); with `--context`, once the graph is drawn, the same for Match in
 * Context (the middle match); with
 * `--split`, after Replace All, how long Compare Graphs takes: to its
 * window's first frame, and until both graphs are laid out and drawn.
 * `--complete`, once the graph is drawn, what the pattern's completion
 * after `torch.ops.aten.` costs: the graph's names counted whole (the
 * popup counts them in steps) and a second completion from the count.
 * `--overview`, once the graph is drawn, what the overview map's picture
 * costs to draw (the map at the window's size, at 1 and 2 device pixels
 * per pixel, best and mean of 20) and how many pictures the map draws
 * while the view pans over 40 frames (0: panning only moves its
 * rectangle); with `--export`, once the graph is drawn, how long exports
 * take, from the call (the dialog's response) to the written file, and the
 * longest stall meanwhile: the visible area as PNG and SVG, then the whole
 * graph as SVG and PNG (a refused PNG prints the toast's reason).
 * `--export-text LIST` does the same, once the graph is drawn, for the
 * text exports LIST names, comma-separated: `code`, `graph` (the
 * listing), `json`, `dot`, `matches` (Export Match List); `--md5` prints
 * each exported file's MD5 too (and `--save-code`'s, `--save-session`'s).
 * `--save-session`, once the graph is drawn, times File > Save As of a
 * session (`*.graft`), from the call to the written file, with the
 * longest stall and own turn meanwhile; `--save-code` the same of the
 * graph as Python code (a `.py`), before the session.
 * `--rule FILE` gives the windows opened after it the pattern and the
 * replacement FILE defines (`pattern` and `replacement`) instead of the
 * default ones, whose `torch.relu` a torch.export program has none of.
 * `--run-all RULES`, once the graph is drawn, reads the rules file RULES
 * into the document and times, as `--ops` times its edits, Run All, the
 * toast's Undo of the whole run and Run All again, the autosave's timer
 * held off (`--run-all-autosave RULES`: not).
 *
 * With `--pan`, once the graph is drawn: the frame times of panning (40
 * steps across the drawing, each from the call that moves the view to
 * the frame that shows it) and of zooming (20 steps in and out), mean and
 * worst; then the same after opening the first folded module one level
 * (`expand-scope`, timed to its redrawn layout), and its folding again
 * (`collapse-scope`).  `--pan` alone on a
 * program of a million nodes is the check that the folded graph stays
 * responsive.
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

#include "graft-autosave.h"
#include "graft-canvas.h"
#include "graft-comparison.h"
#include "graft-context-window.h"
#include "graft-document-private.h"
#include "graft-match-model.h"
#include "graft-pattern-editor.h"
#include "graft-diff-window.h"
#include "graft-split-window.h"
#include "graft-window-private.h"
#include "graft-window.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* The main thread's processor time, in microseconds. */
static gint64
thread_time (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

typedef struct
{
  gint64   last_tick;
  gint64   longest;
  gint64   last_cpu;      /* thread_time() at the last tick */
  gint64   longest_own;   /* the most processor time between ticks, frames left out */
  gint64   frame_start;   /* processor time at the start of the frame in progress, or 0 */
  gint64   frames;        /* processor time in frames since the last tick */
  gint64   ours_in_frame; /* processor time of list factories' callbacks in the frame */
  gint64   item_start;    /* processor time at a factory callback's start in a frame, or 0 */
  gboolean sizing;        /* the frame's time is a toplevel's compute-size, outside a paint */
  gint64   sizes;         /* of frames: processor time in those compute-sizes */
  gint64   start;         /* of the measurement */
  gboolean show_gaps;     /* --gaps: print every gap over 30 ms */
  gint64   turn_limit;    /* --gaps: print every own turn over this, in microseconds */
  gboolean paused;        /* the bench's own bookkeeping runs: not measured */
} Watchdog;

static gboolean
tick_cb (gpointer data)
{
  Watchdog *w = data;
  gint64    now = g_get_monotonic_time ();
  gint64    cpu = thread_time ();

  if (w->paused)
    {
      w->last_tick = now;
      w->last_cpu = cpu;
      w->frames = 0;
      w->sizes = 0;
      return G_SOURCE_CONTINUE;
    }
  if (w->last_tick > 0 && now - w->last_tick > w->longest)
    w->longest = now - w->last_tick;
  if (w->last_cpu > 0 && cpu - w->last_cpu - w->frames > w->longest_own)
    w->longest_own = cpu - w->last_cpu - w->frames;
  if (w->show_gaps && w->last_cpu > 0 &&
      cpu - w->last_cpu - w->frames > w->turn_limit)
    printf ("  turn of %.1f ms of own work (%.0f ms in frames, %.0f of them sizing the window), "
            "%.0f ms after the start [%.3f-%.3f]\n",
            (cpu - w->last_cpu - w->frames) / 1e3, w->frames / 1e3, w->sizes / 1e3,
            (w->last_tick - w->start) / 1e3,
            w->last_tick / 1e6, now / 1e6);
  if (w->show_gaps && w->last_tick > 0 && now - w->last_tick > 30000)
    printf ("  gap of %.0f ms (%.0f ms in frames), %.0f ms after the start\n",
            (now - w->last_tick) / 1e3, w->frames / 1e3, (w->last_tick - w->start) / 1e3);
  w->last_tick = now;
  w->last_cpu = cpu;
  w->frames = 0;
  w->sizes = 0;
  return G_SOURCE_CONTINUE;
}

/* The Watchdog whose clocks' frames are counted (main()'s): GLib's
 * emission hooks, which run before any handler, have no user data of
 * their own instance. */
static Watchdog *hooked;

/* GTK's work begins, unless it is inside GTK's work already (@sizing: a
 * toplevel's compute-size outside a paint, size_begin_hook()). */
static void
frame_begin (gboolean sizing)
{
  if (hooked->frame_start != 0)
    return;
  hooked->frame_start = thread_time ();
  hooked->ours_in_frame = 0;
  hooked->sizing = sizing;
}

/* Connects @end after the handlers of @instance's @signals, once: returns
 * whether it did now.  An emission hook that does so does not measure the
 * emission under way, which a handler connected during it may miss. */
static gboolean
connect_end_once (GObject           *instance,
                  const char *const *signals,
                  guint              n_signals,
                  GCallback          end)
{
  if (g_object_get_data (instance, "bench-watched") != NULL)
    return FALSE;
  for (guint i = 0; i < n_signals; i++)
    g_signal_connect_after (instance, signals[i], end, hooked);
  g_object_set_data (instance, "bench-watched", GINT_TO_POINTER (1));
  return TRUE;
}

/* A phase of a frame of a watched clock begins: before any handler, GTK's
 * own included (an emission hook). */
static gboolean
frame_phase_hook (GSignalInvocationHint *hint,
                  guint                  n_values,
                  const GValue          *values,
                  gpointer               data)
{
  GObject *clock = g_value_get_object (&values[0]);

  if (hooked != NULL && g_object_get_data (clock, "bench-watchdog") == hooked)
    frame_begin (FALSE);
  return TRUE;
}

/* The end of a frame: after-paint's handlers run.  What the editor's list
 * factories did meanwhile is the editor's. */
static void
frame_end_cb (GdkFrameClock *clock,
              gpointer       data)
{
  Watchdog *w = data;

  if (w->frame_start > 0)
    w->frames += thread_time () - w->frame_start - w->ours_in_frame;
  w->frame_start = 0;
  w->ours_in_frame = 0;
  w->sizing = FALSE;
}

/* GDK's X11 toplevel asks its size (GdkToplevel::compute-size, GtkWindow
 * measuring its whole content) from an idle of its own at a high priority
 * whenever a widget queues a resize, outside the frame clock's paint: a
 * match list's new rows are measured there, Pango shaping their text.
 * That is GTK's layout, the work a frame's layout phase would do, and is
 * counted with the frames (the editor's list factories' callbacks in it
 * excepted). */
static void size_end_cb (GdkToplevel *toplevel, GdkToplevelSize *size, gpointer data);

static gboolean
size_begin_hook (GSignalInvocationHint *hint,
                 guint                  n_values,
                 const GValue          *values,
                 gpointer               data)
{
  static const char *const signals[] = { "compute-size" };
  GObject                 *surface = g_value_get_object (&values[0]);

  if (hooked == NULL ||
      g_object_get_data (G_OBJECT (gdk_surface_get_frame_clock (GDK_SURFACE (surface))),
                         "bench-watchdog") != hooked)
    return TRUE;
  if (!connect_end_once (surface, signals, G_N_ELEMENTS (signals), G_CALLBACK (size_end_cb)))
    frame_begin (TRUE);
  return TRUE;
}

static void
size_end_cb (GdkToplevel     *toplevel,
             GdkToplevelSize *size,
             gpointer         data)
{
  Watchdog *w = data;

  if (w->sizing)
    {
      gint64 frames = w->frames;

      frame_end_cb (NULL, w);
      w->sizes += w->frames - frames;
    }
  w->sizing = FALSE;
}

/* A list item factory's setup, bind, unbind or teardown begins (an
 * emission hook: before the editor's handler).  Inside a frame GTK makes
 * and binds rows as it lays out a list, but the row widgets are the
 * editor's factory callbacks' work, so it is counted as the editor's
 * (item_end_cb(), connected after the editor's handlers). */
static void item_end_cb (GObject *factory, GObject *item, gpointer data);

static gboolean
item_begin_hook (GSignalInvocationHint *hint,
                 guint                  n_values,
                 const GValue          *values,
                 gpointer               data)
{
  static const char *const signals[] = { "setup", "bind", "unbind", "teardown" };
  GObject                 *factory = g_value_get_object (&values[0]);

  if (hooked == NULL)
    return TRUE;
  if (connect_end_once (factory, signals, G_N_ELEMENTS (signals), G_CALLBACK (item_end_cb)))
    hooked->item_start = 0;
  else
    hooked->item_start = hooked->frame_start > 0 ? thread_time () : 0;
  return TRUE;
}

static void
item_end_cb (GObject *factory,
             GObject *item,
             gpointer data)
{
  Watchdog *w = data;

  if (w->item_start > 0 && w->frame_start > 0)
    w->ours_in_frame += thread_time () - w->item_start;
  w->item_start = 0;
}

/* Counts @clock's frames as GTK's work, not the editor's: from the first
 * of its paint's phases (before-paint, update, layout, paint) to the end
 * of after-paint.  Not flush-events: GdkFrameClockIdle runs it from an
 * idle of its own, before the paint's (what runs between the two, the
 * editor's steps at the frames' priority among it, is not the frame's),
 * and the handlers of the events it delivers are the editor's. */
static void
watch_clock (Watchdog      *w,
             GdkFrameClock *clock)
{
  if (hooked == NULL)
    {
      static const char *const phases[] = { "before-paint", "update", "layout", "paint",
                                            "after-paint" };
      static const char *const items[] = { "setup", "bind", "unbind", "teardown" };

      hooked = w;
      for (guint i = 0; i < G_N_ELEMENTS (phases); i++)
        g_signal_add_emission_hook (g_signal_lookup (phases[i], GDK_TYPE_FRAME_CLOCK), 0,
                                    frame_phase_hook, NULL, NULL);
      g_signal_add_emission_hook (g_signal_lookup ("compute-size", GDK_TYPE_TOPLEVEL), 0,
                                  size_begin_hook, NULL, NULL);
      for (guint i = 0; i < G_N_ELEMENTS (items); i++)
        g_signal_add_emission_hook (
            g_signal_lookup (items[i], GTK_TYPE_SIGNAL_LIST_ITEM_FACTORY), 0, item_begin_hook,
            NULL, NULL);
    }
  g_assert (w == hooked);
  g_object_set_data (G_OBJECT (clock), "bench-watchdog", w);
  g_signal_connect_after (clock, "after-paint", G_CALLBACK (frame_end_cb), w);
}

static void
unwatch_clock (Watchdog      *w,
               GdkFrameClock *clock)
{
  g_object_set_data (G_OBJECT (clock), "bench-watchdog", NULL);
  g_signal_handlers_disconnect_by_func (clock, frame_end_cb, w);
}

static void
watchdog_reset (Watchdog *w,
                gint64    start,
                gint64    start_cpu)
{
  w->start = start;
  w->last_tick = start;
  w->last_cpu = start_cpu;
  w->longest = 0;
  w->longest_own = 0;
  w->frames = 0;
  w->sizes = 0;
  w->paused = FALSE;
}

/* Waits for the autosave thread to have written its file: the bench's own
 * wait, which the editor never makes on its main loop, so neither a gap
 * nor own work (the ticks go on from its end). */
static void
watchdog_skip_flush (Watchdog *w)
{
  graft_autosave_flush ();
  w->last_tick = g_get_monotonic_time ();
  w->last_cpu = thread_time ();
  w->frames = 0;
  w->sizes = 0;
}

/* The bench's own work follows (not the editor's): not measured until the
 * next watchdog_reset(). */
static void
watchdog_pause (Watchdog *w)
{
  w->paused = TRUE;
}

static gboolean drawn;
static gboolean changes_painted;

static void
changes_paint_cb (GdkFrameClock *clock,
                  gpointer       data)
{
  changes_painted = TRUE;
}

/* The toplevel of @type just opened, its frames counted as GTK's work,
 * not the editor's (its clock in *@out_clock); NULL if there is none. */
static GtkWidget *
watch_new_window (Watchdog       *w,
                  GType           type,
                  GdkFrameClock **out_clock)
{
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
  GtkWidget *found = NULL;

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (G_TYPE_CHECK_INSTANCE_TYPE (l->data, type))
      found = l->data;
  if (found == NULL)
    return NULL;
  *out_clock = gtk_widget_get_frame_clock (found);
  watch_clock (w, *out_clock);
  return found;
}

/* Shows the last change and returns the time until its window has drawn
 * the comparison, its first change in view; *built_s gets the time until
 * the comparison was made and in its list.  Prints the longest stall and
 * own turn meanwhile. */
static double
time_show_changes (GraftWindow *window,
                   Watchdog    *w,
                   double      *built_s)
{
  gint64           start = g_get_monotonic_time ();
  GraftDiffWindow *diff = NULL;
  GdkFrameClock   *clock;
  double           shown_s;
  double           opened_s;

  watchdog_reset (w, start, thread_time ());
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-changes", NULL);
  opened_s = (g_get_monotonic_time () - start) / 1e6;
  diff = (gpointer) watch_new_window (w, GRAFT_TYPE_DIFF_WINDOW, &clock);
  if (diff == NULL)
    return -1;
  while (!gtk_widget_get_mapped (GTK_WIDGET (diff)))
    g_main_context_iteration (NULL, TRUE);
  while (!graft_diff_window_get_ready (diff))
    g_main_context_iteration (NULL, TRUE);
  *built_s = (g_get_monotonic_time () - start) / 1e6;
  /* Its list scrolls to the first change once it has placed its rows. */
  while (!graft_diff_window_get_settled (diff))
    g_main_context_iteration (NULL, TRUE);
  changes_painted = FALSE;
  g_signal_connect (clock, "after-paint", G_CALLBACK (changes_paint_cb), NULL);
  while (!changes_painted)
    g_main_context_iteration (NULL, TRUE);
  shown_s = (g_get_monotonic_time () - start) / 1e6;
  watchdog_pause (w);
  g_signal_handlers_disconnect_by_func (clock, changes_paint_cb, NULL);
  unwatch_clock (w, clock);
  printf ("  show changes: %u removed, %u added; window opened in %.3fs, built in %.3fs, "
          "drawn (first change in view) after %.3fs; longest stall %.0f ms, own %.1f ms\n",
          graft_diff_window_get_n_removed (diff), graft_diff_window_get_n_added (diff), opened_s,
          *built_s, shown_s, w->longest / 1e3, w->longest_own / 1e3);
  gtk_window_destroy (GTK_WINDOW (diff));
  return shown_s;
}

/* Shows the middle match in context and prints the time until its window
 * has drawn the picture, with the longest stall and own turn meanwhile. */
static void
time_context (GraftWindow *window,
              Watchdog    *w)
{
  gint64              start = g_get_monotonic_time ();
  guint               n_matches = graft_document_get_n_matches (graft_window_get_document (window));
  GraftContextWindow *context = NULL;
  GdkFrameClock      *clock;
  double              opened_s;
  double              ready_s;

  if (n_matches == 0)
    return;
  watchdog_reset (w, start, thread_time ());
  g_action_group_activate_action (G_ACTION_GROUP (window), "match-in-context",
                                  g_variant_new_uint32 (n_matches / 2));
  opened_s = (g_get_monotonic_time () - start) / 1e6;
  context = (gpointer) watch_new_window (w, GRAFT_TYPE_CONTEXT_WINDOW, &clock);
  if (context == NULL)
    return;
  while (!graft_context_window_get_ready (context))
    g_main_context_iteration (NULL, TRUE);
  ready_s = (g_get_monotonic_time () - start) / 1e6;
  changes_painted = FALSE;
  g_signal_connect (clock, "after-paint", G_CALLBACK (changes_paint_cb), NULL);
  while (!changes_painted)
    g_main_context_iteration (NULL, TRUE);
  watchdog_pause (w);
  g_signal_handlers_disconnect_by_func (clock, changes_paint_cb, NULL);
  unwatch_clock (w, clock);
  printf ("  match %u in context: %u nodes; window opened in %.3fs, laid out in %.3fs, "
          "drawn after %.3fs; longest stall %.0f ms, own %.1f ms\n",
          n_matches / 2 + 1, graft_context_window_get_n_shown (context), opened_s, ready_s,
          (g_get_monotonic_time () - start) / 1e6, w->longest / 1e3, w->longest_own / 1e3);
  gtk_window_destroy (GTK_WINDOW (context));
}

static guint n_paints;

static void
count_paint_cb (GdkFrameClock *clock,
                gpointer       data)
{
  n_paints++;
}

/* --complete: the pattern's completion after `torch.ops.aten.`, counted
 * in the main thread's processor time. */
static void
time_complete (GraftWindow *window)
{
  GraftPatternEditor *editor =
      GRAFT_PATTERN_EDITOR (graft_window_get_pattern_editor (window, FALSE));
  GraftCompletion *completion = graft_pattern_editor_get_completion (editor);
  GtkTextBuffer   *buffer = graft_pattern_editor_get_buffer (editor);
  GtkTextIter      end;
  g_auto (GStrv) first = NULL;
  g_auto (GStrv) again = NULL;
  gint64 start;
  gint64 counted;

  gtk_text_buffer_set_text (buffer, "import torch\n\n\ndef pattern(x):\n    return torch.ops.aten.",
                            -1);
  gtk_text_buffer_get_end_iter (buffer, &end);
  start = thread_time ();
  first = graft_completion_dup_texts (completion, buffer, &end);
  counted = thread_time ();
  again = graft_completion_dup_texts (completion, buffer, &end);
  printf ("  complete: %u overloads (first %s), counted in %.1f ms own, again %.2f ms\n",
          g_strv_length (first), first[0] != NULL ? first[0] : "-", (counted - start) / 1e3,
          (thread_time () - counted) / 1e3);
}

/* The overview map's figures for the graph on screen. */
static void
time_overview (GraftWindow *window,
               Watchdog    *w)
{
  GraftOverview     *overview = graft_window_get_overview (window);
  GraftCanvas       *canvas = graft_window_get_canvas (window);
  GraftLayout       *layout = graft_canvas_get_layout (canvas);
  GdkFrameClock     *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  GraftRenderOptions options;
  GraftMap           map;
  guint              renders;
  double             width;
  double             height;

  if (!graft_overview_get_map (overview, &map))
    {
      printf ("  overview: no map (the whole graph is in view)\n");
      return;
    }
  /* The bench's own drawing of maps is not the editor's work. */
  watchdog_pause (w);
  graft_render_options_init (&options);
  options.node_match = graft_canvas_get_marks (canvas);
  options.chosen_match = 0;
  for (int scale = 1; scale <= 2; scale++)
    {
      double best = G_MAXDOUBLE;
      double total = 0;

      for (int k = 0; k < 20; k++)
        {
          cairo_surface_t *surface = cairo_image_surface_create (
              CAIRO_FORMAT_ARGB32, (int) (map.width * scale) + 1, (int) (map.height * scale) + 1);
          cairo_t *cr = cairo_create (surface);
          gint64   t0 = g_get_monotonic_time ();
          double   ms;

          cairo_scale (cr, scale, scale);
          graft_map_draw (&map, layout, cr, &options);
          cairo_surface_flush (surface);
          ms = (g_get_monotonic_time () - t0) / 1e3;
          best = MIN (best, ms);
          total += ms;
          cairo_destroy (cr);
          cairo_surface_destroy (surface);
        }
      printf ("  overview: %u boxes on a %.0fx%.0f map at scale %d: best %.1f ms, mean %.1f ms\n",
              graft_layout_get_n_nodes (layout), map.width, map.height, scale, best, total / 20);
    }

  /* Pan down the graph one frame at a time. */
  watchdog_reset (w, g_get_monotonic_time (), thread_time ());
  graft_layout_get_size (layout, &width, &height);
  renders = graft_overview_get_n_renders (overview);
  g_signal_connect (clock, "after-paint", G_CALLBACK (count_paint_cb), NULL);
  for (int k = 0; k < 40; k++)
    {
      guint painted = n_paints;

      graft_canvas_set_center (canvas, width / 2, height * (k + 1) / 41);
      while (n_paints == painted)
        g_main_context_iteration (NULL, TRUE);
    }
  g_signal_handlers_disconnect_by_func (clock, count_paint_cb, NULL);
  watchdog_pause (w);
  printf ("  overview: %u pictures drawn over 40 frames of panning; longest stall %.0f ms, "
          "own %.1f ms\n",
          graft_overview_get_n_renders (overview) - renders, w->longest / 1e3,
          w->longest_own / 1e3);
}

/* Waits for the export running to end and prints the time since @start,
 * the longest stall and own turn meanwhile, and the size of @path (or the
 * toast, when it was not written). */
static gboolean print_md5; /* --md5 */

/* With --md5, the MD5 of the file at @path, as "  WHAT NAME md5 ...". */
static void
print_file_md5 (const char *what,
                const char *name,
                const char *path)
{
  g_autofree char *text = NULL;
  g_autofree char *md5 = NULL;
  gsize            len = 0;

  if (!print_md5)
    return;
  if (g_file_get_contents (path, &text, &len, NULL))
    md5 = g_compute_checksum_for_data (G_CHECKSUM_MD5, (const guchar *) text, len);
  printf ("  %s %-18s md5 %s\n", what, name, md5 != NULL ? md5 : "(unread)");
}

static void
wait_export (GraftWindow *window,
             Watchdog    *w,
             const char  *name,
             const char  *path,
             gint64       start)
{
  GStatBuf st;

  while (graft_window_get_export (window) != NULL)
    g_main_context_iteration (NULL, TRUE);
  watchdog_pause (w);
  if (g_stat (path, &st) != 0)
    {
      printf ("  export %-18s %8.3fs %6.0fms stall %6.1fms own  %s\n", name,
              (g_get_monotonic_time () - start) / 1e6, w->longest / 1e3, w->longest_own / 1e3,
              graft_window_get_last_toast (window));
      fflush (stdout);
      return;
    }
  printf ("  export %-18s %8.3fs %6.0fms stall %6.1fms own %10.1f MB\n", name,
          (g_get_monotonic_time () - start) / 1e6, w->longest / 1e3, w->longest_own / 1e3,
          st.st_size / 1e6);
  print_file_md5 ("export", name, path);
  fflush (stdout);
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
  gint64 start = g_get_monotonic_time ();

  watchdog_reset (w, start, thread_time ());
  if (!graft_window_export (window, file, format, scope, TRUE, &error))
    {
      printf ("  export %-18s not started: %s\n", name, error->message);
      return;
    }
  wait_export (window, w, name, path, start);
  g_unlink (path);
  g_rmdir (dir);
}

/* --export-text: each text export LIST names, as time_export() times the
 * pictures. */
static void
time_export_texts (GraftWindow *window,
                   Watchdog    *w,
                   const char  *list)
{
  g_auto (GStrv) names = g_strsplit (list, ",", -1);

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *dir = g_dir_make_tmp ("bench-export-XXXXXX", NULL);
      g_autofree char *name = NULL;
      g_autofree char *path = NULL;
      g_autoptr (GFile) file = NULL;
      g_autoptr (GError) error = NULL;
      gboolean    matches = strcmp (names[i], "matches") == 0;
      GraftFormat format = GRAFT_FORMAT_CODE;
      gint64      start;

      if (!matches && !graft_format_from_string (names[i], &format))
        g_error ("--export-text: no format %s", names[i]);
      name = g_strdup_printf ("%s.%s", names[i],
                              matches ? "json" : graft_format_get_extension (format));
      path = g_build_filename (dir, name, NULL);
      file = g_file_new_for_path (path);
      start = g_get_monotonic_time ();
      watchdog_reset (w, start, thread_time ());
      if (matches ? !graft_window_export_matches (window, file, &error)
                  : !graft_window_export (window, file, format, GRAFT_EXPORT_SCOPE_WHOLE, TRUE,
                                          &error))
        {
          printf ("  export %-18s not started: %s\n", name, error->message);
          continue;
        }
      wait_export (window, w, name, path, start);
      g_unlink (path);
      g_rmdir (dir);
    }
}

/* --save-session: File > Save As of a session, until the file is
 * written; --save-code (@what "code"): the same of the graph as Python
 * code (File > Save As of a `.py`). */
static void
time_save_session (GraftWindow *window,
                   Watchdog    *w,
                   const char  *what)
{
  g_autofree char *dir = g_dir_make_tmp ("bench-session-XXXXXX", NULL);
  g_autofree char *path =
      g_build_filename (dir, strcmp (what, "code") == 0 ? "saved.py" : "saved.graft", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  gint64   start = g_get_monotonic_time ();
  gint64   called;
  GStatBuf st;

  watchdog_reset (w, start, thread_time ());
  graft_window_save_to (window, file);
  called = g_get_monotonic_time ();
  /* Until the session is written, and a tick after the call (which, when
   * it writes at once, is the stall). */
  while (graft_window_get_saving (window) || w->last_tick < called)
    g_main_context_iteration (NULL, TRUE);
  watchdog_pause (w);
  if (g_stat (path, &st) == 0)
    {
      printf ("  save %-7s %8.3fs %6.0fms stall %6.1fms own %10.1f MB\n", what,
              (g_get_monotonic_time () - start) / 1e6, w->longest / 1e3, w->longest_own / 1e3,
              st.st_size / 1e6);
      print_file_md5 ("save", what, path);
    }
  else
    printf ("  save %-7s %8.3fs %6.0fms stall %6.1fms own  %s\n", what,
            (g_get_monotonic_time () - start) / 1e6, w->longest / 1e3, w->longest_own / 1e3,
            graft_window_get_last_toast (window));
  fflush (stdout);
  g_unlink (path);
  g_rmdir (dir);
}

/* No edit by steps under way: since frames are painted between their
 * steps, a frame painted is no longer the edit's end. */
static gboolean
document_at_rest (GraftWindow *window)
{
  GraftDocument *document = graft_window_get_document (window);

  return !graft_document_get_rewriting (document) && !graft_document_get_moving (document) &&
         !graft_document_get_running_all (document);
}

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       data)
{
  GraftWindow *window = data;
  const char  *toast = graft_window_get_last_toast (window);

  if (!graft_window_get_busy (window) && document_at_rest (window) &&
      graft_canvas_get_layout (graft_window_get_canvas (window)) != NULL)
    drawn = TRUE;
  /* A layout that failed: nothing more will come. */
  if (!graft_window_get_busy (window) && toast != NULL &&
      g_str_has_prefix (toast, "The graph cannot be drawn"))
    drawn = TRUE;
}

/* Runs the loop until the window has drawn a laid-out graph.  The
 * watchdog counts from @start (and the thread's processor time from
 * @start_cpu), so the call that started the work (run on the main loop's
 * thread before this) counts as a stall too. */
static double
wait_drawn (GraftWindow *window,
            Watchdog    *w,
            gint64       start,
            gint64       start_cpu)
{
  drawn = FALSE;
  watchdog_reset (w, start, start_cpu);
  while (!drawn)
    g_main_context_iteration (NULL, TRUE);
  return (g_get_monotonic_time () - start) / 1e6;
}

/* Opens the split view of the last change; prints the time to its first
 * frame (both sides still being laid out) and until both sides are laid
 * out and drawn. */
static void
time_split (GraftWindow *window,
            Watchdog    *w)
{
  gint64            start = g_get_monotonic_time ();
  GraftSplitWindow *split = NULL;
  GdkFrameClock    *clock;
  double            built_s;
  double            first_s;
  double            compared_s = 0;

  watchdog_reset (w, start, thread_time ());
  g_action_group_activate_action (G_ACTION_GROUP (window), "compare", NULL);
  built_s = (g_get_monotonic_time () - start) / 1e6;
  split = (gpointer) watch_new_window (w, GRAFT_TYPE_SPLIT_WINDOW, &clock);
  if (split == NULL)
    return;
  while (!gtk_widget_get_mapped (GTK_WIDGET (split)))
    g_main_context_iteration (NULL, TRUE);
  changes_painted = FALSE;
  g_signal_connect (clock, "after-paint", G_CALLBACK (changes_paint_cb), NULL);
  while (!changes_painted)
    {
      if (compared_s == 0 && graft_split_window_get_compared (split))
        compared_s = (g_get_monotonic_time () - start) / 1e6;
      g_main_context_iteration (NULL, TRUE);
    }
  first_s = (g_get_monotonic_time () - start) / 1e6;
  while (!graft_split_window_get_ready (split))
    {
      if (compared_s == 0 && graft_split_window_get_compared (split))
        compared_s = (g_get_monotonic_time () - start) / 1e6;
      g_main_context_iteration (NULL, TRUE);
    }
  changes_painted = FALSE;
  while (!changes_painted)
    g_main_context_iteration (NULL, TRUE);
  watchdog_pause (w);
  g_signal_handlers_disconnect_by_func (clock, changes_paint_cb, NULL);
  unwatch_clock (w, clock);
  printf ("  split view: %u removed, %u added; window opened in %.3fs, first frame after %.3fs, "
          "compared after %.3fs, both sides drawn after %.3fs; longest stall %.0f ms, "
          "own %.1f ms\n",
          graft_split_window_get_n_changed (split, GRAFT_CHANGE_REMOVED),
          graft_split_window_get_n_changed (split, GRAFT_CHANGE_ADDED), built_s, first_s,
          compared_s, (g_get_monotonic_time () - start) / 1e6, w->longest / 1e3,
          w->longest_own / 1e3);
  gtk_window_destroy (GTK_WINDOW (split));
}

/* Moves the view @steps times by @move and prints the mean and the worst
 * time from each move to the frame that shows it. */
static void
time_frames (GraftWindow *window,
             const char  *what,
             guint        steps,
             void (*move) (GraftCanvas *canvas,
                           guint        k,
                           guint        steps))
{
  GraftCanvas   *canvas = graft_window_get_canvas (window);
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  double         worst = 0;
  double         total = 0;

  g_signal_connect (clock, "after-paint", G_CALLBACK (count_paint_cb), NULL);
  for (guint k = 0; k < steps; k++)
    {
      guint  painted = n_paints;
      gint64 t0 = g_get_monotonic_time ();
      double ms;

      move (canvas, k, steps);
      while (n_paints == painted)
        g_main_context_iteration (NULL, TRUE);
      ms = (g_get_monotonic_time () - t0) / 1e3;
      worst = MAX (worst, ms);
      total += ms;
    }
  g_signal_handlers_disconnect_by_func (clock, count_paint_cb, NULL);
  printf ("  %-28s %3u frames: mean %.1f ms, worst %.1f ms\n", what, steps, total / steps, worst);
}

static void
pan_step (GraftCanvas *canvas,
          guint        k,
          guint        steps)
{
  double width;
  double height;

  graft_layout_get_size (graft_canvas_get_layout (canvas), &width, &height);
  graft_canvas_set_center (canvas, width * (k + 1) / (steps + 1), height * (k + 1) / (steps + 1));
}

static void
zoom_step (GraftCanvas *canvas,
           guint        k,
           guint        steps)
{
  double zoom = graft_canvas_get_zoom (canvas);

  graft_canvas_set_zoom (canvas, k < steps / 2 ? zoom * 1.25 : zoom / 1.25);
}

/* Panning and zooming on the graph drawn, then after opening its first
 * folded module one level. */
static void
time_pan (GraftWindow *window,
          Watchdog    *w)
{
  GraftLayout *layout = graft_canvas_get_layout (graft_window_get_canvas (window));
  const char  *scope = NULL;
  gint64       start;
  double       s;

  time_frames (window, "pan", 40, pan_step);
  time_frames (window, "zoom", 20, zoom_step);
  for (guint b = 0; b < graft_layout_get_n_nodes (layout) && scope == NULL; b++)
    if (graft_layout_get_node (layout, b)->n_members > 0)
      scope = graft_layout_get_node (layout, b)->name;
  if (scope == NULL)
    {
      printf ("  nothing folded to open\n");
      return;
    }
  {
    g_autofree char *name = g_strdup (scope);

    start = g_get_monotonic_time ();
    g_action_group_activate_action (G_ACTION_GROUP (window), "expand-scope",
                                    g_variant_new_string (name));
    s = wait_drawn (window, w, start, thread_time ());
    printf ("  opened %s: %u boxes, drawn after %.3fs, longest stall %.0f ms, own %.1f ms\n",
            name,
            graft_layout_get_n_nodes (graft_canvas_get_layout (graft_window_get_canvas (window))),
            s, w->longest / 1e3, w->longest_own / 1e3);
    time_frames (window, "pan, one module open", 40, pan_step);
    time_frames (window, "zoom, one module open", 20, zoom_step);
    /* And folded again. */
    start = g_get_monotonic_time ();
    g_action_group_activate_action (G_ACTION_GROUP (window), "collapse-scope",
                                    g_variant_new_string (name));
    s = wait_drawn (window, w, start, thread_time ());
    printf ("  folded %s: %u boxes, drawn after %.3fs, longest stall %.0f ms, own %.1f ms\n",
            name,
            graft_layout_get_n_nodes (graft_canvas_get_layout (graft_window_get_canvas (window))),
            s, w->longest / 1e3, w->longest_own / 1e3);
  }
}

/* --ops: each edit of the graph in turn, with the longest turn of the
 * editor's own work and what moved on the canvas.  An edit's turns count
 * until 150 ms after the window has settled (deferred work after the
 * picture), the bench's own bookkeeping between edits not.  Last, the
 * autosave of an edit whose code is not known yet, the old way (the texts
 * gathered at once) and as the timer does it (the code made in turns),
 * then the longest own turn of all the edits, the old way left out.  The
 * bench's wait for the autosave thread's write (graft_autosave_flush())
 * is not the editor's: neither is counted. */

/* A box of the layout on screen before an edit: where it was, in the
 * layout and in the canvas. */
typedef struct
{
  double      x; /* layout points, the box's centre */
  double      y;
  double      wx; /* canvas pixels */
  double      wy;
  gboolean    visible; /* inside the canvas */
  const char *caption;
} BoxBefore;

typedef struct
{
  GraftLayout *layout; /* the layout before, a reference */
  GHashTable  *boxes;  /* name -> BoxBefore */
} Picture;

static void
picture_take (Picture     *p,
              GraftCanvas *canvas)
{
  GraftLayout *layout = graft_canvas_get_layout (canvas);
  double       w = gtk_widget_get_width (GTK_WIDGET (canvas));
  double       h = gtk_widget_get_height (GTK_WIDGET (canvas));

  p->layout = graft_layout_ref (layout);
  p->boxes = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    {
      const GraftLayoutNode *node = graft_layout_get_node (layout, b);
      BoxBefore             *box;

      if (node->is_stub || node->n_members > 0)
        continue;
      box = g_new0 (BoxBefore, 1);
      box->x = node->box.x + node->box.width / 2;
      box->y = node->box.y + node->box.height / 2;
      graft_canvas_layout_to_widget (canvas, box->x, box->y, &box->wx, &box->wy);
      box->visible = box->wx >= 0 && box->wx < w && box->wy >= 0 && box->wy < h;
      box->caption = node->caption;
      g_hash_table_insert (p->boxes, (gpointer) node->name, box);
    }
}

static void
picture_clear (Picture *p)
{
  g_clear_pointer (&p->boxes, g_hash_table_unref);
  g_clear_pointer (&p->layout, graft_layout_free);
}

/* What moved from @before to the canvas's layout now: boxes of the same
 * node (same name and caption) in both are "kept"; "moved" counts those
 * whose place in the layout changed, in segments reused as they were
 * (of which "whole" is those of segments that moved as one, every kept box
 * by the same vector) and in segments dot laid out again; "jumped" counts
 * those of the visible ones whose place on screen changed. */
static void
picture_compare (Picture     *before,
                 GraftCanvas *canvas,
                 char        *out,
                 gsize        size)
{
  GraftLayout *layout = graft_canvas_get_layout (canvas);
  guint        kept = 0, moved_reused = 0, moved_whole = 0, moved_dot = 0, visible = 0, jumped = 0;
  double       most = 0;

  for (guint s = 0; s < graft_layout_get_n_segments (layout); s++)
    {
      guint    first;
      guint    end;
      gboolean reused = graft_layout_get_segment (layout, s, &first, &end);
      gboolean have = FALSE;
      gboolean whole = TRUE;
      double   sdx = 0;
      double   sdy = 0;
      guint    moved = 0;

      for (guint b = first; b < end; b++)
        {
          const GraftLayoutNode *node = graft_layout_get_node (layout, b);
          BoxBefore             *old;
          double                 x;
          double                 y;
          double                 wx;
          double                 wy;

          if (node->is_stub || node->n_members > 0)
            continue;
          old = g_hash_table_lookup (before->boxes, node->name);
          if (old == NULL || g_strcmp0 (old->caption, node->caption) != 0)
            continue;
          kept++;
          x = node->box.x + node->box.width / 2;
          y = node->box.y + node->box.height / 2;
          if (!have)
            {
              sdx = x - old->x;
              sdy = y - old->y;
              have = TRUE;
            }
          else if (fabs (x - old->x - sdx) > 0.5 || fabs (y - old->y - sdy) > 0.5)
            whole = FALSE;
          if (fabs (x - old->x) > 0.5 || fabs (y - old->y) > 0.5)
            moved++;
          if (old->visible)
            {
              visible++;
              graft_canvas_layout_to_widget (canvas, x, y, &wx, &wy);
              if (fabs (wx - old->wx) > 0.5 || fabs (wy - old->wy) > 0.5)
                {
                  jumped++;
                  most = MAX (most, hypot (wx - old->wx, wy - old->wy));
                }
            }
        }
      if (!reused)
        moved_dot += moved;
      else
        {
          moved_reused += moved;
          if (whole)
            moved_whole += moved;
        }
    }
  g_snprintf (out, size,
              "kept %u, moved %u in reused segments (%u as whole segments) + %u in redone; "
              "visible %u, jumped %u (%.0f px)",
              kept, moved_reused, moved_whole, moved_dot, visible, jumped, most);
}

static gboolean op_painted;
static guint    op_frames; /* painted from an edit's start to its picture */

static void
op_frame_cb (GdkFrameClock *clock,
             gpointer       data)
{
  op_frames++;
}

static void
op_paint_cb (GdkFrameClock *clock,
             gpointer       data)
{
  op_painted = TRUE;
}

/* Runs the loop until the window has nothing left to do for the last
 * edit (no layout running or due) and has drawn a frame since. */
static void
wait_settled (GraftWindow *window)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));

  g_signal_connect (clock, "after-paint", G_CALLBACK (op_paint_cb), NULL);
  for (;;)
    {
      op_painted = FALSE;
      gtk_widget_queue_draw (GTK_WIDGET (window));
      while (!op_painted)
        g_main_context_iteration (NULL, TRUE);
      if (!graft_window_get_busy (window) && !graft_window_get_pending (window) &&
          document_at_rest (window))
        break;
    }
  g_signal_handlers_disconnect_by_func (clock, op_paint_cb, NULL);
}

/* Waits for the window to settle, then 150 ms more (what an edit left to
 * do after its picture, deferred work, counts too), and stops measuring.
 * Returns the seconds from @start to the settled picture. */
static double
settle_and_linger (GraftWindow *window,
                   Watchdog    *w,
                   gint64       start)
{
  double drawn_s;
  gint64 settled;

  wait_settled (window);
  drawn_s = (g_get_monotonic_time () - start) / 1e6;
  /* The frames of an edit of --ops are counted to its picture. */
  g_signal_handlers_disconnect_by_func (gtk_widget_get_frame_clock (GTK_WIDGET (window)),
                                        op_frame_cb, NULL);
  settled = g_get_monotonic_time ();
  while (g_get_monotonic_time () - settled < 150000)
    g_main_context_iteration (NULL, FALSE);
  watchdog_pause (w);
  return drawn_s;
}

typedef enum {
  OP_AUTOSAVE_AT_ONCE,
  OP_AUTOSAVE,
  OP_REPLACE_ONE,
  OP_REPLACE_ALL,
  OP_UNDO,
  OP_REDO,
  OP_TYPE,
  OP_FIND,
  OP_RUN_ALL,
  OP_UNDO_RUN,
  OP_LOAD_RULES,
  OP_CHOOSE_RULE,
  OP_ACTION,
  OP_TYPE_LINE,
} OpKind;

/* The pattern editor's text with the first `relu(` turned into `rel(`,
 * or back. */
static void
type_in_pattern (GraftWindow *window)
{
  GraftPatternEditor *editor =
      GRAFT_PATTERN_EDITOR (graft_window_get_pattern_editor (window, FALSE));
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (graft_pattern_editor_get_buffer (editor));
  GtkTextIter    start;
  GtkTextIter    end;
  GtkTextIter    at;
  GtkTextIter    match_end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  if (gtk_text_iter_forward_search (&start, "relu(", 0, &at, &match_end, NULL))
    {
      gtk_text_iter_forward_chars (&at, 3);
      match_end = at;
      gtk_text_iter_forward_char (&match_end);
      gtk_text_buffer_delete (buffer, &at, &match_end);
    }
  else if (gtk_text_iter_forward_search (&start, "rel(", 0, &at, &match_end, NULL))
    {
      gtk_text_iter_forward_chars (&at, 3);
      gtk_text_buffer_insert (buffer, &at, "u", 1);
    }
  graft_pattern_editor_flush (editor);
}

/* A keystroke at the end of the chosen rule's pattern: a newline typed,
 * or taken away if the last keystroke typed one. */
static void
type_line (GraftWindow *window)
{
  GraftPatternEditor *editor =
      GRAFT_PATTERN_EDITOR (graft_window_get_pattern_editor (window, FALSE));
  GtkTextBuffer   *buffer = GTK_TEXT_BUFFER (graft_pattern_editor_get_buffer (editor));
  g_autofree char *text = NULL;
  GtkTextIter      start;
  GtkTextIter      end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  if (g_str_has_suffix (text, "\n\n"))
    {
      start = end;
      gtk_text_iter_backward_char (&start);
      gtk_text_buffer_delete (buffer, &start, &end);
    }
  else
    gtk_text_buffer_insert (buffer, &end, "\n", 1);
  graft_pattern_editor_flush (editor);
}

/* The Find bar's entry, shown. */
static GtkEditable *
find_entry (GraftWindow *window)
{
  GtkWidget *focus;

  g_action_group_activate_action (G_ACTION_GROUP (window), "find", NULL);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  while (focus != NULL && !GTK_IS_SEARCH_ENTRY (focus))
    focus = gtk_widget_get_parent (focus);
  return GTK_EDITABLE (focus);
}

/* The longest own turn of the edits so far, and which edit it was. */
static gint64 ops_longest_own;
static char   ops_longest_label[64];

static void
run_op (GraftWindow *window,
        Watchdog    *w,
        OpKind       kind,
        const char  *label,
        const char  *text)
{
  GraftDocument *document = graft_window_get_document (window);
  GraftCanvas   *canvas = graft_window_get_canvas (window);
  Picture        before = { 0 };
  char           moves[256] = "";
  gint64         start;
  gint64         start_cpu;
  guint          n_matches;
  GtkEditable   *entry = kind == OP_FIND ? find_entry (window) : NULL;
  double         drawn_s;

  /* Asked before the window settled, the count finished a search by steps
   * (a rules file's, just read) at once, in a turn of the bench's own. */
  wait_settled (window);
  n_matches = graft_document_get_n_matches (document);
  picture_take (&before, canvas);
  start = g_get_monotonic_time ();
  start_cpu = thread_time ();
  watchdog_reset (w, start, start_cpu);
  op_frames = 0;
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint",
                    G_CALLBACK (op_frame_cb), NULL);
  switch (kind)
    {
    case OP_REPLACE_ONE:
      g_action_group_activate_action (G_ACTION_GROUP (window), "replace-match",
                                      g_variant_new_uint32 (n_matches / 2));
      break;
    case OP_REPLACE_ALL:
      g_action_group_activate_action (G_ACTION_GROUP (window), "replace-all", NULL);
      break;
    case OP_UNDO:
      g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);
      break;
    case OP_REDO:
      g_action_group_activate_action (G_ACTION_GROUP (window), "redo", NULL);
      break;
    case OP_TYPE:
      type_in_pattern (window);
      break;
    case OP_RUN_ALL:
      g_action_group_activate_action (G_ACTION_GROUP (window), "run-all", NULL);
      break;
    case OP_UNDO_RUN:
      /* The toast's Undo, which takes the whole run back. */
      g_action_group_activate_action (
          G_ACTION_GROUP (window), "undo-change",
          g_variant_new_uint32 (graft_document_get_last_change_serial (document)));
      break;
    case OP_LOAD_RULES:
      {
        g_autoptr (GFile) file = g_file_new_for_path (text);

        if (!graft_window_open_rules (window, file))
          g_error ("%s", graft_window_get_last_toast (window));
      }
      break;
    case OP_CHOOSE_RULE:
      graft_document_select_rule (document, (guint) atoi (text));
      break;
    case OP_ACTION:
      /* The window's action named by @text, without a parameter. */
      g_action_group_activate_action (G_ACTION_GROUP (window), text, NULL);
      break;
    case OP_TYPE_LINE:
      type_line (window);
      break;
    case OP_FIND:
      gtk_editable_set_text (entry, text);
      /* The entry waits before it says the text changed: not counted. */
      while (g_get_monotonic_time () - start < 400000)
        g_main_context_iteration (NULL, FALSE);
      break;
    case OP_AUTOSAVE_AT_ONCE:
      /* What the autosave's timer did before its code was made in turns:
       * the texts gathered in one go (the code made if not known). */
      graft_autosave_write_take (graft_document_get_file (document),
                                 graft_document_dup_recovery (document));
      watchdog_skip_flush (w);
      break;
    case OP_AUTOSAVE:
      /* The timer's autosave, without waiting the two seconds. */
      graft_window_autosave_start (window);
      while (graft_window_get_autosave_pending (window))
        g_main_context_iteration (NULL, TRUE);
      watchdog_skip_flush (w);
      break;
    }
  drawn_s = settle_and_linger (window, w, start);
  if (kind != OP_AUTOSAVE_AT_ONCE && w->longest_own > ops_longest_own)
    {
      ops_longest_own = w->longest_own;
      g_strlcpy (ops_longest_label, label, sizeof ops_longest_label);
    }
  if (graft_canvas_get_layout (canvas) != before.layout)
    picture_compare (&before, canvas, moves, sizeof moves);
  printf ("  %-22s %8.3fs %6.0fms %5.0fms  frames %u (%.0f/s)  matches %u  %s%s%u/%u reused\n",
          label, drawn_s, w->longest / 1e3, w->longest_own / 1e3, op_frames,
          drawn_s > 0 ? op_frames / drawn_s : 0.0,
          graft_document_get_n_matches (document), moves, *moves != '\0' ? "; " : "",
          graft_layout_get_n_reused_segments (graft_canvas_get_layout (canvas)),
          graft_layout_get_n_segments (graft_canvas_get_layout (canvas)));
  picture_clear (&before);
  if (kind == OP_FIND)
    {
      gtk_editable_set_text (entry, "");
      wait_settled (window);
    }
}

/* --ops: the edits a user makes, one after the other, each timed. */
static void
time_ops (GraftWindow *window,
          Watchdog    *w)
{
  GraftCanvas *canvas = graft_window_get_canvas (window);
  GraftLayout *layout = graft_canvas_get_layout (canvas);
  double       width;
  double       height;

  if (!g_action_group_get_action_enabled (G_ACTION_GROUP (window), "replace-all"))
    return;
  /* Look at the middle of the graph, at 100 %. */
  graft_layout_get_size (layout, &width, &height);
  graft_canvas_set_zoom (canvas, 1.0);
  graft_canvas_set_center (canvas, width / 2, height / 2);
  printf ("  %-22s %9s %8s %7s\n", "edit", "to drawn", "stall", "own");
  run_op (window, w, OP_REPLACE_ONE, "replace one (middle)", NULL);
  run_op (window, w, OP_UNDO, "undo", NULL);
  run_op (window, w, OP_REDO, "redo", NULL);
  run_op (window, w, OP_UNDO, "undo", NULL);
  run_op (window, w, OP_REPLACE_ALL, "replace all", NULL);
  run_op (window, w, OP_UNDO, "undo replace all", NULL);
  run_op (window, w, OP_REDO, "redo replace all", NULL);
  run_op (window, w, OP_UNDO, "undo replace all", NULL);
  run_op (window, w, OP_TYPE, "type: relu( -> rel(", NULL);
  run_op (window, w, OP_TYPE, "type: rel( -> relu(", NULL);
  run_op (window, w, OP_FIND, "find \"relu\"", "relu");
  run_op (window, w, OP_FIND, "find \"add\"", "add");
  /* The autosave of an edit whose code is not known yet: at once as the
   * timer did before, then in turns as it does. */
  run_op (window, w, OP_REPLACE_ONE, "replace one (middle)", NULL);
  run_op (window, w, OP_AUTOSAVE_AT_ONCE, "autosave, at once", NULL);
  run_op (window, w, OP_REPLACE_ONE, "replace one (middle)", NULL);
  run_op (window, w, OP_AUTOSAVE, "autosave", NULL);
  printf ("  longest own turn: %.1f ms (%s; \"autosave, at once\", the old way, left out)\n",
          ops_longest_own / 1e3, ops_longest_label);
}

/* Frames painted while a Run All went on, those of them with the rules
 * panel's row for it shown (its Cancel button mapped and given room), and
 * the last text the row showed. */
static guint run_frames;
static guint run_row_frames;
static char  run_row_last[128];

static void
run_row_paint_cb (GdkFrameClock *clock,
                  GraftWindow   *window)
{
  const char *text = graft_rules_panel_get_run_text (window->rules_panel);
  GtkWidget  *cancel = graft_rules_panel_get_cancel_button (window->rules_panel);

  if (graft_document_get_running_all (graft_window_get_document (window)))
    run_frames++;
  if (text == NULL || !gtk_widget_get_mapped (cancel) || gtk_widget_get_width (cancel) == 0)
    return;
  run_row_frames++;
  g_strlcpy (run_row_last, text, sizeof run_row_last);
}

/* --run-all RULES: the rules panel's Run All of the rules of RULES (read
 * into the document first, not timed), the toast's Undo of the whole run,
 * and Run All again, each timed as an edit of --ops. */
static void
time_run_all (GraftWindow *window,
              Watchdog    *w,
              const char  *path,
              gboolean     autosave_too)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  GraftDocument *document = graft_window_get_document (window);

  /* The rules make the document a session, whose autosave writes the
   * input with it (a .pt2 in base64, seconds at a million nodes, on the
   * main thread): not Run All's, timed by --run-all-autosave. */
  if (!autosave_too)
    _graft_window_set_autosave_delay (3600);
  if (!graft_document_load_rules (document, file, &error))
    g_error ("%s", error->message);
  /* Where Run All is: its progress row is drawn with the rest. */
  graft_window_show_page (window, "rules");
  printf ("  %-22s %9s %8s %7s\n", "edit", "to drawn", "stall", "own");
  ops_longest_own = 0;
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint",
                    G_CALLBACK (run_row_paint_cb), window);
  run_op (window, w, OP_RUN_ALL, "run all", NULL);
  printf ("    %u changes: %s\n", graft_document_get_position (document),
          graft_window_get_last_toast (window));
  printf ("    frames painted during the run: %u, with its row shown: %u%s%s\n", run_frames,
          run_row_frames, run_row_frames > 0 ? ", the last: " : "", run_row_last);
  g_signal_handlers_disconnect_by_func (gtk_widget_get_frame_clock (GTK_WIDGET (window)),
                                        run_row_paint_cb, window);
  run_op (window, w, OP_UNDO_RUN, "undo run all (toast)", NULL);
  printf ("    at change %u: %s\n", graft_document_get_position (document),
          graft_window_get_last_toast (window));
  run_op (window, w, OP_RUN_ALL, "run all again", NULL);
  printf ("  longest own turn: %.1f ms (%s)\n", ops_longest_own / 1e3, ops_longest_label);
}

/* --rules-panel RULES: what a user does on the Rules page, each timed as
 * an edit of --ops: reading RULES, choosing each rule, adding a rule and
 * removing it, leaving one out and taking it in, a keystroke in the
 * chosen rule's pattern and its undoing by hand. */
static void
time_rules_panel (GraftWindow *window,
                  Watchdog    *w,
                  const char  *path)
{
  GraftDocument *document = graft_window_get_document (window);

  /* The rules make the document a session: its autosave is not timed. */
  _graft_window_set_autosave_delay (3600);
  printf ("  %-22s %9s %8s %7s\n", "edit", "to drawn", "stall", "own");
  ops_longest_own = 0;
  run_op (window, w, OP_LOAD_RULES, "open rules file", path);
  printf ("    %s; %s\n", graft_window_get_last_toast (window),
          graft_rules_panel_get_next_text (window->rules_panel));
  for (guint i = graft_document_get_n_rules (document); i-- > 0;)
    {
      char label[64];
      char number[16];

      g_snprintf (label, sizeof label, "choose rule %u", i + 1);
      g_snprintf (number, sizeof number, "%u", i);
      run_op (window, w, OP_CHOOSE_RULE, label, number);
    }
  run_op (window, w, OP_ACTION, "add rule", "rule-add");
  run_op (window, w, OP_ACTION, "remove rule", "rule-remove");
  run_op (window, w, OP_ACTION, "leave rule out", "rule-toggle");
  run_op (window, w, OP_ACTION, "take rule in", "rule-toggle");
  run_op (window, w, OP_TYPE_LINE, "type: newline", NULL);
  run_op (window, w, OP_TYPE_LINE, "type: backspace", NULL);
  printf ("    %s\n", graft_rules_panel_get_next_text (window->rules_panel));
  printf ("  longest own turn: %.1f ms (%s)\n", ops_longest_own / 1e3, ops_longest_label);
}

/* --actions LIST: each of the window's actions named in LIST (separated by
 * commas), timed as an edit of --ops: from the call to the window settled
 * and 150 ms more, the longest stall and own turn meanwhile.  What an
 * action needs first (a match chosen, a node selected, a search hit, a
 * folded module's name) is set up before it, untimed.  Besides the
 * window's actions: `dark` and `light` (the style manager's colour
 * scheme), `resize` (the window 1000x700, then back to 1400x900 as
 * `resize-back`), `torch-1.13` and `torch-2.6` (the dialect's choice),
 * `properties` and `properties-off` (the properties panel), `reopen` (the
 * same file opened again while a layout runs), and `close-busy` (the
 * window closed while a Replace All runs: last, it ends the file's run). */

static gint64 actions_longest_own;
static char   actions_longest_label[64];

/* A node of @graph that nothing uses and is not the output, near the
 * middle; NULL if there is none. */
static GraftNode *
unused_node (GraftGraph *graph)
{
  guint      n = graft_graph_get_n_nodes (graph);
  guint      i = 0;
  GraftNode *found = NULL;

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node), i++)
    if (graft_node_get_n_users (node) == 0 && graft_node_get_op (node) != GRAFT_OP_OUTPUT &&
        graft_node_get_op (node) != GRAFT_OP_PLACEHOLDER)
      {
        found = node;
        if (i >= n / 2)
          break;
      }
  return found;
}

/* The middle node of @graph. */
static GraftNode *
middle_node (GraftGraph *graph)
{
  guint      n = graft_graph_get_n_nodes (graph) / 2;
  GraftNode *node = graft_graph_get_first (graph);

  while (n-- > 0 && graft_node_get_next (node) != NULL)
    node = graft_node_get_next (node);
  return node;
}

/* The first folded module's name in the layout on screen, or NULL. */
static char *
folded_scope_dup (GraftWindow *window)
{
  GraftLayout *layout = graft_canvas_get_layout (graft_window_get_canvas (window));

  for (guint b = 0; layout != NULL && b < graft_layout_get_n_nodes (layout); b++)
    if (graft_layout_get_node (layout, b)->n_members > 0)
      return g_strdup (graft_layout_get_node (layout, b)->name);
  return NULL;
}

static void
run_action (GraftWindow   *window,
            Watchdog      *w,
            const char    *name,
            GFile         *file,
            GdkFrameClock *clock,
            gboolean      *out_closed)
{
  GActionGroup    *group = G_ACTION_GROUP (window);
  GraftDocument   *document = graft_window_get_document (window);
  GraftGraph      *graph = graft_document_get_graph (document);
  guint            n_matches = graft_document_get_n_matches (document);
  g_autofree char *scope = NULL;
  GVariant        *param = NULL;
  GraftWindow     *other = NULL;
  const char      *action = name;
  gint64           start;
  double           drawn_s;

  wait_settled (window);
  /* What the action works on, set up untimed. */
  if (strcmp (name, "replace-selected") == 0 || strcmp (name, "pattern-from-selection") == 0)
    {
      if (n_matches > 0)
        graft_window_select_match (window, n_matches / 2);
    }
  else if (strcmp (name, "replace-match") == 0)
    param = g_variant_new_uint32 (n_matches / 2);
  else if (strcmp (name, "delete-selected") == 0)
    {
      GraftNode  *node = unused_node (graph);
      const char *names[2] = { node != NULL ? graft_node_get_name (node) : NULL, NULL };

      graft_canvas_set_selection (graft_window_get_canvas (window), names);
    }
  else if (strcmp (name, "explain-at") == 0)
    param = g_variant_new_string (graft_node_get_name (middle_node (graph)));
  else if (strcmp (name, "expand-scope") == 0 || strcmp (name, "collapse-scope") == 0)
    {
      if (strcmp (name, "collapse-scope") == 0)
        scope = g_strdup (graft_node_get_name (middle_node (graph)));
      else
        scope = folded_scope_dup (window);
      if (scope == NULL)
        {
          printf ("  %-22s nothing folded\n", name);
          return;
        }
      param = g_variant_new_string (scope);
    }
  else if (strcmp (name, "search-to-pattern") == 0)
    {
      GtkEditable *entry = find_entry (window);
      gint64       t0 = g_get_monotonic_time ();

      gtk_editable_set_text (entry, "relu");
      while (g_get_monotonic_time () - t0 < 400000)
        g_main_context_iteration (NULL, FALSE);
      wait_settled (window);
    }
  else if (strcmp (name, "undo-change") == 0)
    param = g_variant_new_uint32 (graft_document_get_last_change_serial (document));
  else if (g_str_has_prefix (name, "torch-"))
    {
      action = "torch";
      param = g_variant_new_string (name + strlen ("torch-"));
    }

  start = g_get_monotonic_time ();
  watchdog_reset (w, start, thread_time ());
  if (strcmp (name, "dark") == 0 || strcmp (name, "light") == 0)
    adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                        strcmp (name, "dark") == 0 ? ADW_COLOR_SCHEME_FORCE_DARK
                                                                   : ADW_COLOR_SCHEME_FORCE_LIGHT);
  else if (strcmp (name, "resize") == 0 || strcmp (name, "resize-back") == 0)
    {
      gboolean small = strcmp (name, "resize") == 0;

      gtk_window_set_default_size (GTK_WINDOW (window), small ? 1000 : 1400, small ? 700 : 900);
    }
  else if (strcmp (name, "properties") == 0 || strcmp (name, "properties-off") == 0)
    g_action_group_change_action_state (
        group, "show-properties", g_variant_new_boolean (strcmp (name, "properties") == 0));
  else if (strcmp (name, "reopen") == 0)
    {
      /* A second file (here the same) opened as Open, Open Recent, a drop
       * or Reload open it, while the first's Replace All runs: in a new
       * window, as the window is held by work under way. */
      g_action_group_activate_action (group, "replace-all", NULL);
      g_main_context_iteration (NULL, FALSE);
      other = _graft_window_open_from (window, file);
    }
  else if (strcmp (name, "close-busy") == 0)
    {
      /* As the Save Changes dialog's Discard closes it; the frames of a
       * window gone are no longer counted apart. */
      g_action_group_activate_action (group, "replace-all", NULL);
      g_main_context_iteration (NULL, FALSE);
      g_signal_handlers_disconnect_by_func (clock, after_paint_cb, window);
      unwatch_clock (w, clock);
      gtk_window_destroy (GTK_WINDOW (window));
      *out_closed = TRUE;
      /* What the closing left to run. */
      while (g_get_monotonic_time () - start < 3000000)
        g_main_context_iteration (NULL, FALSE);
      watchdog_pause (w);
      printf ("  %-22s %8.3fs %6.0fms %5.0fms\n", name, (g_get_monotonic_time () - start) / 1e6,
              w->longest / 1e3, w->longest_own / 1e3);
      return;
    }
  else if (g_action_group_has_action (group, action))
    g_action_group_activate_action (group, action, param);
  else
    {
      printf ("  %-22s no such action\n", name);
      if (param != NULL)
        g_variant_unref (g_variant_ref_sink (param));
      return;
    }
  if (strcmp (name, "reopen") == 0)
    {
      drawn = FALSE;
      while (!drawn)
        g_main_context_iteration (NULL, TRUE);
    }
  if (other != NULL && other != window)
    {
      /* The new window's reading and first picture, then the window
       * closed; all of it timed with the action. */
      while (graft_canvas_get_layout (graft_window_get_canvas (other)) == NULL)
        g_main_context_iteration (NULL, TRUE);
      printf ("  %-22s %8.3fs to the new window's first picture\n", "",
              (g_get_monotonic_time () - start) / 1e6);
      wait_settled (other);
      gtk_window_destroy (GTK_WINDOW (other));
    }
  drawn_s = settle_and_linger (window, w, start);
  if (w->longest_own > actions_longest_own)
    {
      actions_longest_own = w->longest_own;
      g_strlcpy (actions_longest_label, name, sizeof actions_longest_label);
    }
  printf ("  %-22s %8.3fs %6.0fms %5.0fms  matches %u (%u rows made), %u boxes%s%s\n", name,
          drawn_s, w->longest / 1e3, w->longest_own / 1e3, graft_document_get_n_matches (document),
          graft_match_model_get_n_created (
              GRAFT_MATCH_MODEL (graft_document_get_matches (document))),
          graft_canvas_get_layout (graft_window_get_canvas (window)) != NULL
              ? graft_layout_get_n_nodes (
                    graft_canvas_get_layout (graft_window_get_canvas (window)))
              : 0,
          graft_window_get_last_toast (window) != NULL ? "; toast: " : "",
          graft_window_get_last_toast (window) != NULL ? graft_window_get_last_toast (window) : "");
}

static void
time_actions (GraftWindow   *window,
              Watchdog      *w,
              const char    *list,
              GFile         *file,
              GdkFrameClock *clock,
              gboolean      *out_closed)
{
  g_auto (GStrv) names = g_strsplit (list, ",", -1);

  printf ("  %-22s %9s %8s %7s\n", "action", "to drawn", "stall", "own");
  actions_longest_own = 0;
  for (guint i = 0; names[i] != NULL && !*out_closed; i++)
    {
      run_action (window, w, names[i], file, clock, out_closed);
      fflush (stdout);
    }
  printf ("  longest own turn: %.1f ms (%s)\n", actions_longest_own / 1e3, actions_longest_label);
}

int
main (int    argc,
      char **argv)
{
  Watchdog w = { 0 };
  gboolean code_page = FALSE;
  gboolean changes = FALSE;
  gboolean context = FALSE;
  gboolean forget = FALSE;
  gboolean split = FALSE;
  gboolean overview = FALSE;
  gboolean complete = FALSE;
  gboolean exports = FALSE;
  gboolean one = FALSE;
  gboolean pan = FALSE;
  gboolean ops = FALSE;
  char    *rule = NULL;
  char    *run_all = NULL;
  gboolean run_all_autosave = FALSE;
  char    *rules_panel = NULL;
  char    *actions = NULL;
  char    *export_text = NULL;
  gboolean save_session = FALSE;
  gboolean save_code = FALSE;

  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  g_set_prgname ("graft-editor");
  g_set_application_name ("Graft");
  gtk_init ();
  adw_init ();
  w.turn_limit = 16000;
  g_timeout_add (5, tick_cb, &w);
  printf ("GSK_RENDERER=%s\n", g_getenv ("GSK_RENDERER"));
  printf ("%-20s %7s %10s %7s %7s %10s %7s %7s %9s\n", "file", "nodes", "open+draw", "stall", "own",
          "replace", "stall", "own", "reused");
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--gaps") == 0)
        {
          w.show_gaps = TRUE;
          continue;
        }
      if (strcmp (argv[i], "--turns") == 0 && i + 1 < argc)
        {
          w.turn_limit = (gint64) (g_ascii_strtod (argv[++i], NULL) * 1000);
          continue;
        }
      if (strcmp (argv[i], "--changes") == 0)
        {
          changes = TRUE;
          continue;
        }
      if (strcmp (argv[i], "--forget") == 0)
        {
          forget = TRUE;
          continue;
        }
      if (strcmp (argv[i], "--context") == 0)
        {
          context = TRUE;
          continue;
        }
      if (strcmp (argv[i], "--split") == 0)
        {
          split = TRUE;
          continue;
        }
      if (strcmp (argv[i], "--overview") == 0)
        {
          overview = TRUE;
          continue;
        }
      if (strcmp (argv[i], "--complete") == 0)
        {
          complete = TRUE;
          continue;
        }
      if (strcmp (argv[i], "--export") == 0)
        {
          exports = TRUE;
          continue;
        }
      if (strcmp (argv[i], "--export-text") == 0 && i + 1 < argc)
        {
          export_text = argv[++i];
          continue;
        }
      if (strcmp (argv[i], "--save-code") == 0)
        {
          save_code = TRUE;
          continue;
        }
      if (strcmp (argv[i], "--md5") == 0)
        {
          print_md5 = TRUE;
          continue;
        }
      if (strcmp (argv[i], "--save-session") == 0)
        {
          save_session = TRUE;
          continue;
        }
      if (strcmp (argv[i], "--one") == 0)
        {
          one = TRUE;
          continue;
        }
      if (strcmp (argv[i], "--pan") == 0)
        {
          pan = TRUE;
          continue;
        }
      if (strcmp (argv[i], "--ops") == 0)
        {
          ops = TRUE;
          continue;
        }
      if (strcmp (argv[i], "--code") == 0)
        {
          code_page = TRUE;
          continue;
        }
      if ((strcmp (argv[i], "--run-all") == 0 || strcmp (argv[i], "--run-all-autosave") == 0) &&
          i + 1 < argc)
        {
          run_all_autosave = strcmp (argv[i], "--run-all-autosave") == 0;
          run_all = argv[++i];
          continue;
        }
      if (strcmp (argv[i], "--rules-panel") == 0 && i + 1 < argc)
        {
          rules_panel = argv[++i];
          continue;
        }
      if (strcmp (argv[i], "--actions") == 0 && i + 1 < argc)
        {
          actions = argv[++i];
          continue;
        }
      if (strcmp (argv[i], "--rule") == 0 && i + 1 < argc)
        {
          g_autoptr (GError) error = NULL;

          g_clear_pointer (&rule, g_free);
          if (!g_file_get_contents (argv[++i], &rule, NULL, &error))
            g_error ("%s", error->message);
          continue;
        }
      g_autoptr (GFile) file = g_file_new_for_path (argv[i]);
      g_autofree char *base = g_path_get_basename (argv[i]);
      GraftWindow     *window =
          g_object_new (GRAFT_TYPE_WINDOW, "default-width", 1400, "default-height", 900, NULL);
      GdkFrameClock *clock;
      gint64         start;
      gint64         start_cpu;
      double         open_s;
      double         open_stall;
      double         open_own;
      double         replace_s = 0;
      double         replace_stall = 0;
      double         replace_own = 0;
      guint          n_reused = 0;
      guint          n_segments = 0;
      guint          n;

      if (rule != NULL)
        {
          graft_document_set_replacement_text (graft_window_get_document (window), rule);
          graft_document_set_pattern_text (graft_window_get_document (window), rule);
        }
      gtk_window_present (GTK_WINDOW (window));
      while (gtk_widget_get_width (GTK_WIDGET (window)) == 0)
        g_main_context_iteration (NULL, TRUE);
      clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
      g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), window);
      watch_clock (&w, clock);

      start = g_get_monotonic_time ();
      start_cpu = thread_time ();
      graft_window_open_file (window, file);
      open_s = wait_drawn (window, &w, start, start_cpu);
      if (graft_canvas_get_layout (graft_window_get_canvas (window)) == NULL)
        {
          printf ("%-20s not drawn after %.3fs: %s\n", base, open_s,
                  graft_window_get_last_toast (window));
          g_signal_handlers_disconnect_by_func (clock, after_paint_cb, window);
          unwatch_clock (&w, clock);
          gtk_window_destroy (GTK_WINDOW (window));
          continue;
        }
      open_stall = w.longest / 1e3;
      open_own = w.longest_own / 1e3;
      n = graft_graph_get_n_nodes (graft_document_get_graph (graft_window_get_document (window)));

      if (overview)
        time_overview (window, &w);
      if (complete)
        time_complete (window);
      if (context)
        time_context (window, &w);
      if (pan)
        {
          printf ("%s: %u nodes, drawn after %.3fs (longest stall %.0f ms)\n", base, n, open_s,
                  open_stall);
          time_pan (window, &w);
        }
      if (code_page)
        {
          gint64 t0 = g_get_monotonic_time ();

          watchdog_reset (&w, t0, thread_time ());
          graft_window_show_page (window, "code");
          while (g_get_monotonic_time () - t0 < 3000000)
            g_main_context_iteration (NULL, FALSE);
          watchdog_pause (&w);
          printf ("  code page: longest stall %.0f ms, own %.1f ms\n", w.longest / 1e3,
                  w.longest_own / 1e3);
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
      if (actions != NULL)
        {
          gboolean closed = FALSE;

          printf ("%s, %u nodes, opened in %.3fs, stall %.0f ms, own %.0f ms\n", base, n, open_s,
                  open_stall, open_own);
          _graft_window_set_autosave_delay (3600);
          time_actions (window, &w, actions, file, clock, &closed);
          fflush (stdout);
          if (!closed)
            {
              g_signal_handlers_disconnect_by_func (clock, after_paint_cb, window);
              unwatch_clock (&w, clock);
              gtk_window_destroy (GTK_WINDOW (window));
            }
          continue;
        }
      if (export_text != NULL || save_session || save_code)
        {
          printf ("%s, %u nodes, once drawn:\n", base, n);
          if (export_text != NULL)
            time_export_texts (window, &w, export_text);
          if (save_code)
            time_save_session (window, &w, "code");
          if (save_session)
            time_save_session (window, &w, "session");
        }
      if (ops || run_all != NULL || rules_panel != NULL)
        {
          printf ("%s, %u nodes, opened in %.3fs, stall %.0f ms, own %.0f ms\n", base, n, open_s,
                  open_stall, open_own);
          if (rules_panel != NULL)
            time_rules_panel (window, &w, rules_panel);
          else if (run_all != NULL)
            time_run_all (window, &w, run_all, run_all_autosave);
          else
            time_ops (window, &w);
          fflush (stdout);
          g_signal_handlers_disconnect_by_func (clock, after_paint_cb, window);
          unwatch_clock (&w, clock);
          gtk_window_destroy (GTK_WINDOW (window));
          continue;
        }
      if (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "replace-all"))
        {
          guint n_matches = graft_document_get_n_matches (graft_window_get_document (window));

          start = g_get_monotonic_time ();
          start_cpu = thread_time ();
          if (one)
            g_action_group_activate_action (G_ACTION_GROUP (window), "replace-match",
                                            g_variant_new_uint32 (n_matches / 2));
          else
            g_action_group_activate_action (G_ACTION_GROUP (window), "replace-all", NULL);
          replace_s = wait_drawn (window, &w, start, start_cpu);
          replace_stall = w.longest / 1e3;
          replace_own = w.longest_own / 1e3;
          n_reused = graft_layout_get_n_reused_segments (
              graft_canvas_get_layout (graft_window_get_canvas (window)));
          n_segments = graft_layout_get_n_segments (
              graft_canvas_get_layout (graft_window_get_canvas (window)));
        }
      printf ("%-20s %7u %9.3fs %5.0fms %5.0fms %9.3fs %5.0fms %5.0fms %5u/%-4u\n", base, n, open_s,
              open_stall, open_own, replace_s, replace_stall, replace_own, n_reused, n_segments);
      if (changes && replace_s > 0)
        {
          double         built_s;
          GraftDocument *document = graft_window_get_document (window);

          /* As a run of the rules leaves it: the code before the change
           * is made when asked for, the change undone in each turn. */
          if (forget)
            g_clear_pointer (&((HistoryEntry *) document->history
                                   ->pdata[graft_document_get_compared_change (document)])
                                  ->before,
                             g_free);
          time_show_changes (window, &w, &built_s);
        }
      if (split && replace_s > 0)
        time_split (window, &w);
      fflush (stdout);
      g_signal_handlers_disconnect_by_func (clock, after_paint_cb, window);
      unwatch_clock (&w, clock);
      gtk_window_destroy (GTK_WINDOW (window));
    }
  return 0;
}
