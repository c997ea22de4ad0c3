/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * window-util.c: the helpers every editor widget test uses, written once.
 *
 * Nothing here waits for a time to pass where a condition can be waited
 * for: iterate_until() runs the main loop until a condition holds and
 * fails the test, naming the condition, when it hangs (see
 * iterate_until_named()); iterate_pending() runs what the main loop has
 * ready.  Windows open on a file and are returned
 * once their layout is on the canvas; they close with whatever their
 * destruction left pending run.
 */
#include "config.h"

#include "window-util.h"

#include "display.h"
#include "example.h"

#include "graft-autosave.h"
#include "graft-canvas.h"
#include "graft-code-rows.h"
#include "graft-context-window.h"
#include "graft-diff-window.h"
#include "graft-split-window.h"
#include "graft-window-private.h"

#include <gdk/x11/gdkx.h>
#include <string.h>
#include <time.h>

/* The processor time iterate_until() lets the process spend on a wait,
 * in seconds: only a runaway should reach it. */
static guint wait_limit = 120;

/* A wait during which the process uses less than IDLE_CPU_USEC of
 * processor time in IDLE_S seconds has nothing left to do: it hangs. */
#define IDLE_S        60
#define IDLE_CPU_USEC 20000

/**
 * ui_test_init:
 * @argc: main()'s
 * @argv: main()'s
 *
 * Starts a widget test program: without a display, prints TAP's skip
 * line and returns %FALSE (main() then returns 0).  Otherwise autosaves
 * and recent files go to new folders of the program's own
 * (own_user_dirs()), windows speak the
 * default torch (GRAFT_TORCH unset), the display is held (display.c),
 * GTK and libadwaita are initialised for tests, and toasts stay until
 * dismissed.
 *
 * Returns: whether to go on and run the tests
 */
gboolean
ui_test_init (int    *argc,
              char ***argv)
{
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display\n");
      return FALSE;
    }
  own_user_dirs ();
  g_unsetenv ("GRAFT_TORCH");
  hold_display ();
  gtk_test_init (argc, argv, NULL);
  adw_init ();
  /* Toasts stay until dismissed: a test checks one after work that takes
   * longer than a toast's seconds on a loaded machine under ASan. */
  _graft_window_set_toast_seconds (0);
  return TRUE;
}

/**
 * set_wait_limit:
 * @seconds: the most processor time iterate_until() lets the process
 *   spend on a wait from now on
 *
 * For a program whose waits are long by nature (exports of large
 * graphs); the default is 120 s.
 */
void
set_wait_limit (guint seconds)
{
  g_assert_cmpuint (seconds, >, 0);
  wait_limit = seconds;
}

static gboolean
flag_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* The processor time the process (all its threads) has used, in
 * microseconds. */
static gint64
process_cpu_usec (void)
{
  struct timespec now;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &now);
  return (gint64) now.tv_sec * G_USEC_PER_SEC + now.tv_nsec / 1000;
}

typedef struct
{
  gint64   cpu_start;  /* process_cpu_usec() when the wait began */
  gint64   cpu_active; /* at the last check that found work done */
  gint64   active;     /* the monotonic time of that check */
  gboolean hung;
  guint    idle_s; /* when hung: seconds without work, else 0 */
} Watch;

static gboolean
watch_cb (gpointer data)
{
  Watch *watch = data;
  gint64 cpu = process_cpu_usec ();
  gint64 now = g_get_monotonic_time ();

  if (cpu - watch->cpu_active >= IDLE_CPU_USEC)
    {
      watch->cpu_active = cpu;
      watch->active = now;
    }
  if (cpu - watch->cpu_start > (gint64) wait_limit * G_USEC_PER_SEC)
    watch->hung = TRUE;
  else if (now - watch->active > IDLE_S * G_USEC_PER_SEC)
    {
      watch->hung = TRUE;
      watch->idle_s = IDLE_S;
    }
  return G_SOURCE_CONTINUE;
}

/**
 * iterate_until_named:
 * @done: the condition, called with @data before each iteration
 * @data: its data
 * @what: what is waited for, for the failure's message
 *
 * Runs the main loop until @done returns %TRUE.  Fails the test program
 * when the wait hangs: the process spent the wait limit's processor time
 * on it (set_wait_limit()), or used almost none for a minute (nothing
 * left to do: an event that never comes).  The wait is not bounded in
 * wall time: a loaded machine stretches the work's time, not the work
 * (layouts under ASan at load 20-30 took over the 120 s this limit was in
 * wall time), and meson's own timeout still ends a program that never
 * stops.  iterate_until() names the condition by its function.
 */
void
iterate_until_named (gboolean (*done) (gpointer),
                     gpointer    data,
                     const char *what)
{
  Watch watch = { 0 };
  guint id;

  watch.cpu_start = watch.cpu_active = process_cpu_usec ();
  watch.active = g_get_monotonic_time ();
  id = g_timeout_add_seconds (1, watch_cb, &watch);
  while (!done (data))
    {
      if (watch.hung && watch.idle_s > 0)
        g_error ("waited for %s with the process idle for %u s", what, watch.idle_s);
      if (watch.hung)
        g_error ("spent %u s of processor time waiting for %s", wait_limit, what);
      g_main_context_iteration (NULL, TRUE);
    }
  g_source_remove (id);
}

/**
 * iterate_for:
 * @ms: milliseconds
 *
 * Runs the main loop for @ms: only for what is a matter of time itself
 * (an animation, a toast seen for a while), never as a wait for work.
 */
void
iterate_for (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, flag_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/**
 * iterate_pending:
 *
 * Runs what is pending on the main loop now, down to its lowest-priority
 * idles (not a wait for time, nor for work on other threads).
 */
void
iterate_pending (void)
{
  gboolean done = FALSE;

  g_idle_add_full (G_PRIORITY_LOW, flag_cb, &done, NULL);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static void
count_paint_cb (GdkFrameClock *clock,
                guint         *painted)
{
  (*painted)++;
}

static gboolean
painted_once (gpointer painted)
{
  return *(guint *) painted > 0;
}

/**
 * iterate_until_drawn:
 * @widget: a realized widget
 *
 * Runs the main loop until @widget's window has drawn a frame begun
 * after this call: what was changed before is measured, allocated, mapped
 * and painted by then.  A wait for work (iterate_until()), not for time,
 * so a loaded machine cannot make it look done early.
 */
void
iterate_until_drawn (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  guint          painted = 0;
  gulong         id;

  g_assert_nonnull (clock);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (count_paint_cb), &painted);
  gtk_widget_queue_draw (widget);
  iterate_until (painted_once, &painted);
  g_signal_handler_disconnect (clock, id);
}

/**
 * layout_ready:
 * @window: (type GraftWindow): a window
 *
 * A condition for iterate_until().
 *
 * Returns: whether @window is not busy, has no deferred work left (the
 *   matches found again after a change), and its canvas, allocated, shows a
 *   layout
 */
gboolean
layout_ready (gpointer window)
{
  GraftCanvas *canvas = graft_window_get_canvas (window);

  return !graft_window_get_busy (window) && !graft_window_get_pending (window) &&
         graft_canvas_get_layout (canvas) != NULL && gtk_widget_get_width (GTK_WIDGET (canvas)) > 0;
}

static gboolean
watch_ready (gpointer window)
{
  return !graft_window_get_watch_pending (window);
}

/**
 * open_path_sized:
 * @path: a model file
 * @width: the window's default width, or 0 or less for the window's own
 * @height: its default height (with @width)
 *
 * Returns: (transfer none): a new window on @path, presented, once its
 *   layout is ready (layout_ready())
 */
GraftWindow *
open_path_sized (const char *path,
                 int         width,
                 int         height)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GraftWindow *window = g_object_new (GRAFT_TYPE_WINDOW, NULL);

  if (width > 0)
    gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  graft_window_open_file (window, file);
  iterate_until (layout_ready, window);
  /* The file is watched from a worker's monitor: a test that changes it
   * next must not change it before. */
  iterate_until (watch_ready, window);
  return window;
}

/**
 * open_path:
 * @path: a model file
 *
 * Returns: (transfer none): open_path_sized() at the window's default size
 */
GraftWindow *
open_path (const char *path)
{
  return open_path_sized (path, 0, 0);
}

/**
 * open_example_sized:
 * @width: as open_path_sized()'s
 * @height: as open_path_sized()'s
 *
 * Returns: (transfer none): open_path_sized() on the bundled example,
 *   any autosave of it removed first
 */
GraftWindow *
open_example_sized (int width,
                    int height)
{
  g_autofree char *path = example_path ();
  g_autoptr (GFile) file = g_file_new_for_path (path);

  /* As on disk: an earlier test's window of the example, edited and
   * destroyed (no close-request), keeps its autosave if the timer wrote
   * it meanwhile (two seconds: under ASan, often), and the window would
   * offer it in a notice that depended on that test's timing. */
  graft_autosave_discard (file);
  graft_autosave_flush ();
  return open_path_sized (path, width, height);
}

/**
 * open_example:
 *
 * Returns: (transfer none): open_path() on the bundled example
 */
GraftWindow *
open_example (void)
{
  return open_example_sized (0, 0);
}

/**
 * activate:
 * @window: a window
 * @action: one of its actions, which must be enabled
 * @param: (nullable): the action's parameter
 *
 * Activates @action and waits until the layout is ready again.
 */
void
activate (GraftWindow *window,
          const char  *action,
          GVariant    *param)
{
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), action));
  g_action_group_activate_action (G_ACTION_GROUP (window), action, param);
  iterate_until (layout_ready, window);
}

/**
 * close_window:
 * @window: (type GtkWindow): a window
 *
 * Destroys @window and runs what that left pending (iterate_pending()).
 */
void
close_window (gpointer window)
{
  g_assert_true (GTK_IS_WINDOW (window));
  gtk_window_destroy (GTK_WINDOW (window));
  iterate_pending ();
}

/**
 * no_windows:
 * @data: unused
 *
 * A condition for iterate_until().
 *
 * Returns: whether no toplevel window is left
 */
gboolean
no_windows (gpointer data)
{
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();

  return toplevels == NULL;
}

/**
 * close_last_window:
 * @window: (type GtkWindow): the last window a test has open
 *
 * close_window(), then waits until no window is left: nothing the test
 * opened outlives it.
 */
void
close_last_window (gpointer window)
{
  close_window (window);
  iterate_until (no_windows, NULL);
}

/**
 * page_fitted:
 * @data: (type GraftWindow): a window
 *
 * A condition for iterate_until().
 *
 * Returns: whether the Rules page's scroller has nothing more to scroll
 *   to: the split fitted
 */
gboolean
page_fitted (gpointer data)
{
  GraftWindow   *window = data;
  GtkWidget     *scroller = gtk_widget_get_ancestor (GTK_WIDGET (window->rules_panel),
                                                     GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));

  return gtk_widget_get_mapped (scroller) &&
         gtk_adjustment_get_upper (adj) <= gtk_adjustment_get_page_size (adj) + 0.5;
}

/**
 * flap_settled:
 * @flap: (type AdwFlap): a flap
 *
 * A condition for iterate_until().
 *
 * Returns: whether @flap has finished showing or hiding its flap: the
 *   reveal progress at its end, and the flap mapped when revealed only
 */
gboolean
flap_settled (gpointer flap)
{
  return adw_flap_get_reveal_progress (flap) == (adw_flap_get_reveal_flap (flap) ? 1.0 : 0.0) &&
         gtk_widget_get_mapped (adw_flap_get_flap (flap)) == adw_flap_get_reveal_flap (flap);
}

/**
 * find_widget_where:
 * @widget: a widget
 * @test: what the widget sought is
 * @data: @test's second argument
 *
 * Returns: (transfer none) (nullable): the first widget in @widget,
 *   itself included, depth first, for which @test is TRUE
 */
GtkWidget *
find_widget_where (GtkWidget *widget,
                   gboolean (*test) (GtkWidget *widget, gconstpointer data),
                   gconstpointer data)
{
  if (test (widget, data))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget_where (child, test, data);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
is_of_type (GtkWidget    *widget,
            gconstpointer type)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, GPOINTER_TO_SIZE (type));
}

/**
 * find_widget:
 * @widget: a widget
 * @type: a widget type
 *
 * Returns: (transfer none) (nullable): the first widget of @type in
 *   @widget, itself included, depth first
 */
GtkWidget *
find_widget (GtkWidget *widget,
             GType      type)
{
  return find_widget_where (widget, is_of_type, GSIZE_TO_POINTER (type));
}

/**
 * find_child:
 * @widget: a widget
 * @type: a widget type
 *
 * Returns: (transfer none) (nullable): the first child of @widget (not
 *   deeper) of @type: a widget's own popover
 */
GtkWidget *
find_child (GtkWidget *widget,
            GType      type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
      return child;
  return NULL;
}

static gboolean
is_styled_label (GtkWidget    *widget,
                 gconstpointer css_class)
{
  return GTK_IS_LABEL (widget) && gtk_widget_has_css_class (widget, css_class);
}

/**
 * find_styled:
 * @widget: a widget
 * @css_class: a style class
 *
 * Returns: (transfer none) (nullable): the first label in @widget that
 *   has @css_class
 */
GtkWidget *
find_styled (GtkWidget  *widget,
             const char *css_class)
{
  return find_widget_where (widget, is_styled_label, css_class);
}

static gboolean
is_label_showing (GtkWidget    *widget,
                  gconstpointer text)
{
  return GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) &&
         g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

/**
 * find_label_showing:
 * @widget: a widget
 * @text: a label's text
 *
 * Returns: (transfer none) (nullable): the first mapped label in @widget
 *   whose text is @text
 */
GtkWidget *
find_label_showing (GtkWidget  *widget,
                    const char *text)
{
  return find_widget_where (widget, is_label_showing, text);
}

static gboolean
has_action (GtkWidget    *widget,
            gconstpointer action)
{
  return GTK_IS_ACTIONABLE (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0;
}

/**
 * find_action_widget:
 * @widget: a widget
 * @action: a detailed action name ("win.replace-all")
 *
 * Returns: (transfer none) (nullable): the first widget under @widget
 *   (not itself) whose action is @action
 */
GtkWidget *
find_action_widget (GtkWidget  *widget,
                    const char *action)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget_where (child, has_action, action);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* What find_code_row_ending() looks for, and what it found. */
typedef struct
{
  const char  *suffix;
  const char **text;
} RowEnding;

static gboolean
is_row_ending (GtkWidget    *widget,
               gconstpointer data)
{
  const RowEnding *ending = data;

  if (!GRAFT_IS_CODE_ROW (widget))
    return FALSE;
  for (guint side = 0; side < 2; side++)
    {
      const char *shown = graft_code_row_get_text (GRAFT_CODE_ROW (widget), side);

      if (shown != NULL && g_str_has_suffix (shown, ending->suffix))
        {
          if (ending->text != NULL)
            *ending->text = shown;
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * find_code_row_ending:
 * @widget: a widget
 * @suffix: how a side's text ends
 * @text: (out) (optional): that side's text
 *
 * Returns: (transfer none) (nullable): the first code row (GraftCodeRow)
 *   in @widget one of whose sides' text ends with @suffix
 */
GtkWidget *
find_code_row_ending (GtkWidget   *widget,
                      const char  *suffix,
                      const char **text)
{
  RowEnding ending = { suffix, text };

  return find_widget_where (widget, is_row_ending, &ending);
}

static gboolean
is_row_starting (GtkWidget    *widget,
                 gconstpointer prefix)
{
  const char *text;

  if (!GRAFT_IS_CODE_ROW (widget))
    return FALSE;
  text = graft_code_row_get_text (GRAFT_CODE_ROW (widget), 0);
  /* After the line's number. */
  return text != NULL && g_str_has_prefix (text + strspn (text, " 0123456789"), prefix);
}

/**
 * find_code_row:
 * @widget: a widget
 * @prefix: how a line starts
 *
 * Returns: (transfer none) (nullable): the first code row in @widget
 *   whose line (its first side's, after the line number) starts with
 *   @prefix
 */
GtkWidget *
find_code_row (GtkWidget  *widget,
               const char *prefix)
{
  return find_widget_where (widget, is_row_starting, prefix);
}

/**
 * find_text_view:
 * @widget: a widget
 *
 * Returns: (transfer none) (nullable): the first GtkTextView in @widget
 */
GtkWidget *
find_text_view (GtkWidget *widget)
{
  return find_widget (widget, GTK_TYPE_TEXT_VIEW);
}

/**
 * find_layout_box:
 * @layout: a layout
 * @name: a node's name, or a folded scope's path
 *
 * Returns: the first box of @layout (not a stub) named @name, or -1
 */
gint
find_layout_box (GraftLayout *layout,
                 const char  *name)
{
  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    if (!graft_layout_get_node (layout, b)->is_stub &&
        strcmp (graft_layout_get_node (layout, b)->name, name) == 0)
      return (gint) b;
  return -1;
}

/**
 * find_toplevel:
 * @type: a window type
 *
 * Returns: (transfer none) (nullable): the first toplevel window of @type
 */
GtkWidget *
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (item, type))
        return GTK_WIDGET (item);
    }
  return NULL;
}

/**
 * open_toplevel:
 * @window: a window
 * @action: the action of @window that opens a window of @type (enabled)
 * @param: (nullable): the action's parameter
 * @type: a window type
 *
 * Activates @action (activate(): the layout is ready again after it).
 *
 * Returns: (transfer none): the window of @type it opened
 */
GtkWidget *
open_toplevel (GraftWindow *window,
               const char  *action,
               GVariant    *param,
               GType        type)
{
  GtkWidget *opened;

  activate (window, action, param);
  opened = find_toplevel (type);
  g_assert_nonnull (opened);
  return opened;
}

/**
 * diff_ready:
 * @diff: a GraftDiffWindow
 *
 * A condition for iterate_until().
 *
 * Returns: whether @diff shows its lines
 */
gboolean
diff_ready (gpointer diff)
{
  return graft_diff_window_get_ready (diff);
}

/**
 * context_ready:
 * @context: a GraftContextWindow
 *
 * A condition for iterate_until().
 *
 * Returns: whether @context shows its match
 */
gboolean
context_ready (gpointer context)
{
  return graft_context_window_get_ready (context);
}

/**
 * split_ready:
 * @split: a GraftSplitWindow
 *
 * A condition for iterate_until().
 *
 * Returns: whether @split shows both graphs
 */
gboolean
split_ready (gpointer split)
{
  return graft_split_window_get_ready (split);
}

/**
 * matches_known:
 * @window: a window
 *
 * A condition for iterate_until().
 *
 * Returns: whether @window's layout is ready and its document's matches
 *   are found (not pending)
 */
gboolean
matches_known (gpointer window)
{
  return layout_ready (window) &&
         !graft_document_get_matches_pending (graft_window_get_document (window));
}

/**
 * has_file_notice:
 * @window: a window
 *
 * A condition for iterate_until().
 *
 * Returns: whether @window shows a bar about its file on disk
 */
gboolean
has_file_notice (gpointer window)
{
  return graft_window_get_file_notice (window) != NULL;
}

/**
 * code_made:
 * @document: a document
 *
 * A condition for iterate_until().
 *
 * Returns: whether @document's code is made (not pending)
 */
gboolean
code_made (gpointer document)
{
  return !graft_document_get_code_pending (document);
}

/**
 * shown_file_chooser:
 *
 * Returns: (transfer none) (nullable): the file dialog on screen
 *   (GtkFileChooserNative's own dialog, as without a portal)
 */
GtkFileChooser *
shown_file_chooser (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER_DIALOG (item) && gtk_widget_get_visible (GTK_WIDGET (item)))
        return GTK_FILE_CHOOSER (item);
    }
  return NULL;
}

/**
 * file_chooser_shown:
 * @data: unused
 *
 * Returns: whether a file dialog is on screen (a condition for
 *   iterate_until())
 */
gboolean
file_chooser_shown (gpointer data)
{
  return shown_file_chooser () != NULL;
}

/**
 * buffer_text:
 * @buffer: a text buffer
 *
 * Returns: (transfer full): all of @buffer's text
 */
char *
buffer_text (GtkTextBuffer *buffer)
{
  GtkTextIter start;
  GtkTextIter end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/**
 * find_toast:
 * @window: a window
 *
 * Returns: (transfer none) (nullable): the toast on screen in @window's
 *   toast overlay: mapped, given a height, and not one going away (those
 *   no longer take clicks)
 */
GtkWidget *
find_toast (GraftWindow *window)
{
  GtkWidget *overlay = find_widget (GTK_WIDGET (window), ADW_TYPE_TOAST_OVERLAY);

  g_assert_nonnull (overlay);
  for (GtkWidget *child = gtk_widget_get_first_child (overlay); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (strcmp (gtk_widget_get_css_name (child), "toast") == 0 &&
        gtk_widget_get_can_target (child) && gtk_widget_get_mapped (child) &&
        gtk_widget_get_height (child) > 0)
      return child;
  return NULL;
}

/**
 * shown_toast:
 * @window: a window
 *
 * Returns: (transfer none) (nullable): the title of find_toast()
 */
const char *
shown_toast (GraftWindow *window)
{
  GtkWidget *toast = find_toast (window);

  return toast != NULL ? gtk_label_get_label (GTK_LABEL (find_widget (toast, GTK_TYPE_LABEL)))
                       : NULL;
}

/**
 * toast_shown:
 * @window: (type GraftWindow): a window
 *
 * Returns: whether a toast is on screen in @window (find_toast(); a
 *   condition for iterate_until())
 */
gboolean
toast_shown (gpointer window)
{
  return find_toast (window) != NULL;
}

/**
 * session_written:
 * @window: a window
 *
 * For iterate_until(): nothing of @window is being written (Save and
 * Save As write a session, or the graph as code, off the main loop).
 */
gboolean
session_written (gpointer window)
{
  return !graft_window_get_saving (window);
}

/* Whether @trigger is @wanted, or one of its alternatives is (GtkWindow
 * binds Tab|KP_Tab as one trigger). */
static gboolean
trigger_has (GtkShortcutTrigger *trigger,
             GtkShortcutTrigger *wanted)
{
  if (GTK_IS_ALTERNATIVE_TRIGGER (trigger))
    return trigger_has (gtk_alternative_trigger_get_first (GTK_ALTERNATIVE_TRIGGER (trigger)),
                        wanted) ||
           trigger_has (gtk_alternative_trigger_get_second (GTK_ALTERNATIVE_TRIGGER (trigger)),
                        wanted);
  return gtk_shortcut_trigger_equal (trigger, wanted);
}

/**
 * press_shortcut:
 * @widget: a widget
 * @accel: keys, as gtk_shortcut_trigger_parse_string() reads them
 *
 * Activates the shortcut of @widget (its class's bindings, or its own
 * controllers) whose trigger is @accel, or has it as an alternative, as
 * pressing those keys does.
 *
 * Returns: whether @widget took the keys (%FALSE: they would go on to its
 *   parents, and to the window's bindings)
 */
gboolean
press_shortcut (GtkWidget  *widget,
                const char *accel)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);
  g_autoptr (GtkShortcutTrigger) wanted = gtk_shortcut_trigger_parse_string (accel);

  g_assert_nonnull (wanted);
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr (GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);

          if (trigger_has (gtk_shortcut_get_trigger (shortcut), wanted))
            return gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, widget,
                                                 gtk_shortcut_get_arguments (shortcut));
        }
    }
  return FALSE;
}

/**
 * node_in_view:
 * @canvas: a canvas
 * @name: a node of its layout (the test fails if it has none)
 *
 * Returns: whether the node @name is drawn whole inside @canvas's view
 */
gboolean
node_in_view (GraftCanvas *canvas,
              const char  *name)
{
  g_assert_cmpint (graft_layout_find_node (graft_canvas_get_layout (canvas), name), >=, 0);
  return graft_canvas_node_in_view (canvas, name);
}

/**
 * assert_view_filled:
 * @canvas: a canvas with a layout and a size
 *
 * Fails unless @canvas's view shows no blank beyond its graph (but Fit's
 * margin of 24 pixels) along an axis where the graph is longer than the
 * view, and shows the graph centred along one where it is shorter
 * (graft_canvas_fill_view()).
 */
void
assert_view_filled (GraftCanvas *canvas)
{
  double    pad = 24.0 / graft_canvas_get_zoom (canvas);
  double    extent[2];
  GraftRect view;

  graft_layout_get_size (graft_canvas_get_layout (canvas), &extent[0], &extent[1]);
  graft_canvas_get_visible_area (canvas, &view);
  g_assert_cmpfloat (view.width, >, 0);
  for (guint axis = 0; axis < 2; axis++)
    {
      double start = axis == 0 ? view.x : view.y;
      double length = axis == 0 ? view.width : view.height;

      if (extent[axis] + 2 * pad <= length)
        g_assert_cmpfloat (fabs (start - (extent[axis] - length) / 2), <, 1e-6);
      else
        {
          g_assert_cmpfloat (start, >=, -pad - 1e-6);
          g_assert_cmpfloat (start + length, <=, extent[axis] + pad + 1e-6);
        }
    }
}

static void
read_text_cb (GObject      *clipboard,
              GAsyncResult *result,
              gpointer      user_data)
{
  char **out = user_data;
  g_autoptr (GError) error = NULL;

  *out = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (clipboard), result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (*out);
}

static gboolean
text_read (gpointer data)
{
  return *(char **) data != NULL;
}

/**
 * clipboard_text:
 * @clipboard: a clipboard
 *
 * Reads @clipboard's text as a paste reads it (the test fails if it
 * cannot), running the main loop meanwhile.
 *
 * Returns: (transfer full): the text
 */
char *
clipboard_text (GdkClipboard *clipboard)
{
  char *text = NULL;

  gdk_clipboard_read_text_async (clipboard, NULL, read_text_cb, &text);
  iterate_until (text_read, &text);
  return text;
}

/* The colours of the text under @node, as "#rrggbb" strings in @out. */
static void
collect_text_colors (GskRenderNode *node,
                     GHashTable    *out)
{
  GskRenderNodeType type = gsk_render_node_get_node_type (node);

  if (type == GSK_TEXT_NODE)
    {
      const GdkRGBA *c = gsk_text_node_get_color (node);

      g_hash_table_add (out, g_strdup_printf ("#%02x%02x%02x", (guint) (c->red * 255 + 0.5),
                                              (guint) (c->green * 255 + 0.5),
                                              (guint) (c->blue * 255 + 0.5)));
    }
  else if (type == GSK_CONTAINER_NODE)
    for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
      collect_text_colors (gsk_container_node_get_child (node, i), out);
  else if (type == GSK_TRANSFORM_NODE)
    collect_text_colors (gsk_transform_node_get_child (node), out);
  else if (type == GSK_CLIP_NODE)
    collect_text_colors (gsk_clip_node_get_child (node), out);
  else if (type == GSK_ROUNDED_CLIP_NODE)
    collect_text_colors (gsk_rounded_clip_node_get_child (node), out);
  else if (type == GSK_OPACITY_NODE)
    collect_text_colors (gsk_opacity_node_get_child (node), out);
  else if (type == GSK_DEBUG_NODE)
    collect_text_colors (gsk_debug_node_get_child (node), out);
}

/**
 * widget_text_colors:
 * @widget: a widget, drawn
 *
 * Returns: (transfer full): the colours of the text @widget draws, as
 *   "#rrggbb" strings (a set)
 */
GHashTable *
widget_text_colors (GtkWidget *widget)
{
  GtkSnapshot   *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  GHashTable    *colors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  gtk_widget_snapshot_child (gtk_widget_get_parent (widget), widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  collect_text_colors (node, colors);
  gsk_render_node_unref (node);
  return colors;
}

/**
 * keyword_color:
 *
 * Returns: (transfer full): the colour of a Python keyword in the source
 *   style of the style manager's mode (light or dark), as "#rrggbb"
 */
char *
keyword_color (void)
{
  GraftHighlightStyle styles[GRAFT_N_HIGHLIGHTS];

  graft_code_rows_load_styles (styles);
  /* The first highlight is the keywords'. */
  g_assert_true (styles[0].set);
  return g_strdup_printf ("#%02x%02x%02x", (guint) (styles[0].color.red * 255 + 0.5),
                          (guint) (styles[0].color.green * 255 + 0.5),
                          (guint) (styles[0].color.blue * 255 + 0.5));
}

static void
child_exited_cb (GPid     pid,
                 int      status,
                 gpointer data)
{
  g_spawn_close_pid (pid);
  *(gboolean *) data = TRUE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

/* Runs xdotool with @first and the arguments after it (up to NULL) while
 * the main loop turns, so that the keys it sends reach this program's
 * window as a user's keys do. */
void
xdotool (const char *first,
         ...)
{
  g_autoptr (GPtrArray) argv = NULL;
  g_autoptr (GError) error = NULL;
  gboolean exited = FALSE;
  GPid     pid = 0;
  va_list  ap;

  va_start (ap, first);
  argv = xdotool_argv_new (first, ap);
  va_end (ap);
  g_assert_true (g_spawn_async (NULL, (char **) argv->pdata, NULL,
                                G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD |
                                    G_SPAWN_STDOUT_TO_DEV_NULL,
                                NULL, NULL, &pid, &error));
  g_assert_no_error (error);
  g_child_watch_add (pid, child_exited_cb, &exited);
  iterate_until (flag_set, &exited);
}

static gboolean
window_active (gpointer window)
{
  return gtk_window_is_active (window);
}

/* @window given the X keyboard focus, as a click on it would. */
void
focus_window (GraftWindow *window)
{
  GdkSurface      *surface = gtk_native_get_surface (GTK_NATIVE (window));
  g_autofree char *xid = NULL;

  g_assert_true (GDK_IS_X11_SURFACE (surface));
  xid = g_strdup_printf ("%lu", (unsigned long) gdk_x11_surface_get_xid (surface));
  xdotool ("windowfocus", "--sync", xid, NULL);
  /* The keys typed next go where GTK has the focus: wait until it knows. */
  iterate_until (window_active, window);
}
