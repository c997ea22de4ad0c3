/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-e2e.c: the real graft-editor, driven as a user drives it, with
 * xdotool on the X display the suite runs under (Xvfb in CI).
 *
 * It opens the example from the command line, finds the first match on
 * screen by its colour (Okabe-Ito orange, the renderer's first match
 * colour) and clicks its middle node, presses Shift+Ctrl+R (replace the
 * chosen match) and exports through Ctrl+E and the file chooser as Python
 * code, which must equal what the core makes of replacing the first match
 * alone; then Ctrl+R (Replace All) and another export, which must equal
 * the core's result for the rest; then a PNG.  With a session of resnet18
 * and four rules it presses Shift+F5 four times (Next), Ctrl+Z twice and
 * Shift+Ctrl+Z twice, and exports after each, against the core's
 * `replace_pattern` calls.  From the keyboard alone, an empty editor opens
 * the example through Ctrl+O, walks the canvas to the second match (Home,
 * Tab, Tab, Up), replaces it through the context menu (Menu, Return) and
 * exports the code through Ctrl+E, which must equal the core's result for
 * that match.  Without a display or xdotool the test reports a TAP skip.
 */
#include "config.h"

#include "display.h"
#include "example.h"

#include "graft-view.h"

#include <X11/Xlib.h>
#include <json-glib/json-glib.h>
#include <X11/Xutil.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define FIRST_MATCH_RGB  0xe69f00
#define SECOND_MATCH_RGB 0x0072b2
#define WINDOW_WIDTH     1200
#define WINDOW_HEIGHT    800
#define SIDEBAR          400

/* Runs xdotool with @args; returns its stdout, stripped. */
static char *
xdotool (const char *first,
         ...)
{
  g_autoptr (GPtrArray) argv = NULL;
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  int     status = 0;
  va_list ap;

  va_start (ap, first);
  argv = xdotool_argv_new (first, ap);
  va_end (ap);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  return g_strstrip (g_steal_pointer (&out));
}

static void
pause_ms (guint ms)
{
  g_usleep (ms * 1000);
}

/* The longest any wait below lasts before it fails.  Each ends as soon as
 * what it waits for is there, so the bound only has to hold a slow
 * machine: the editor under AddressSanitizer, on two cores shared with
 * other builds, took more than 10 s to write an exported file. */
#define WAIT_MS 120000

/* Waits up to WAIT_MS for a visible window whose name matches @name. */
static char *
wait_window (const char *name)
{
  for (int i = 0; i < WAIT_MS / 100; i++)
    {
      g_autofree char *id = xdotool ("search", "--onlyvisible", "--name", name, NULL);

      if (*id != '\0')
        {
          char *nl = strchr (id, '\n');

          if (nl != NULL)
            *nl = '\0';
          return g_steal_pointer (&id);
        }
      pause_ms (100);
    }
  g_error ("no window named %s appeared", name);
  return NULL;
}

static gboolean
wait_file (const char *path)
{
  for (int i = 0; i < WAIT_MS / 100; i++)
    {
      if (g_file_test (path, G_FILE_TEST_EXISTS))
        {
          pause_ms (200);
          return TRUE;
        }
      pause_ms (100);
    }
  return FALSE;
}

/* The bounding box of the on-screen pixels of colour @rgb, left of the
 * side panel. */
static gboolean
find_colour (guint32 rgb,
             int    *out_x0,
             int    *out_y0,
             int    *out_x1,
             int    *out_y1)
{
  Display *display = XOpenDisplay (NULL);
  Window   root;
  XImage  *image;
  int      min_x = G_MAXINT, min_y = G_MAXINT, max_x = -1, max_y = -1;

  g_assert_nonnull (display);
  root = DefaultRootWindow (display);
  image =
      XGetImage (display, root, 0, 0, WINDOW_WIDTH - SIDEBAR, WINDOW_HEIGHT, AllPlanes, ZPixmap);
  g_assert_nonnull (image);
  for (int y = 60; y < WINDOW_HEIGHT; y++)
    for (int x = 0; x < WINDOW_WIDTH - SIDEBAR; x++)
      if ((XGetPixel (image, x, y) & 0xffffff) == rgb)
        {
          min_x = MIN (min_x, x);
          max_x = MAX (max_x, x);
          min_y = MIN (min_y, y);
          max_y = MAX (max_y, y);
        }
  XDestroyImage (image);
  XCloseDisplay (display);
  if (max_x < 0)
    return FALSE;
  *out_x0 = min_x;
  *out_y0 = min_y;
  *out_x1 = max_x;
  *out_y1 = max_y;
  return TRUE;
}

/* Like find_colour, but waits up to 20 s for the colour to be drawn: the
 * editor lays the graph out on a worker, and a loaded machine can take a
 * while. */
static gboolean
wait_colour (guint32 rgb,
             int    *out_x0,
             int    *out_y0,
             int    *out_x1,
             int    *out_y1)
{
  for (int i = 0; i < WAIT_MS / 200; i++)
    {
      if (find_colour (rgb, out_x0, out_y0, out_x1, out_y1))
        return TRUE;
      pause_ms (200);
    }
  return FALSE;
}

/* The middle of the first match's colour on screen, once it is drawn. */
static gboolean
find_first_match (int *out_x,
                  int *out_y)
{
  int x0, y0, x1, y1;

  if (!wait_colour (FIRST_MATCH_RGB, &x0, &y0, &x1, &y1))
    return FALSE;
  *out_x = (x0 + x1) / 2;
  *out_y = (y0 + y1) / 2;
  return TRUE;
}

/* Ctrl+E, then the file chooser: type @path as the name and accept. */
static void
export_to (const char *path)
{
  g_autofree char *dialog = NULL;
  g_autofree char *geometry = NULL;

  g_free (xdotool ("key", "ctrl+e", NULL));
  dialog = wait_window ("Export the Graph");
  g_free (xdotool ("mousemove", "--window", dialog, "100", "100", NULL));
  g_free (xdotool ("windowfocus", "--sync", dialog, NULL));
  pause_ms (500);
  g_free (xdotool ("key", "ctrl+a", NULL));
  g_free (xdotool ("type", "--delay", "20", path, NULL));
  pause_ms (300);
  g_free (xdotool ("key", "Return", NULL));
  g_assert_true (wait_file (path));
}

/* Runs in the editor's process before it starts: the editor is killed
 * when this test dies, by a failed assertion's abort too, which skips the
 * g_subprocess_force_exit() at a test's end (meson waited 12 minutes on
 * an editor left running). */
static void
die_with_test (gpointer test_pid)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  /* The test died before the line above. */
  if (getppid () != GPOINTER_TO_INT (test_pid))
    _exit (1);
}

/* A launcher for the editor, which dies with the test. */
static GSubprocessLauncher *
editor_launcher (void)
{
  GSubprocessLauncher *launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);

  g_subprocess_launcher_set_child_setup (launcher, die_with_test, GINT_TO_POINTER (getpid ()),
                                         NULL);
  return launcher;
}

/* Copies @source to @model in @dir, starts the real editor on it there,
 * drawing with @renderer (%NULL: GTK's own choice), and waits for its
 * window, moved to the corner and sized 1200x800. */
static GSubprocess *
launch_editor_with (const char *dir,
                    const char *source,
                    const char *model,
                    const char *renderer)
{
  g_autoptr (GSubprocessLauncher) launcher = editor_launcher ();
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *window = NULL;
  GSubprocess     *editor;
  gsize            length;

  g_assert_true (g_file_get_contents (source, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (model, contents, (gssize) length, NULL));
  g_subprocess_launcher_set_cwd (launcher, dir);
  g_subprocess_launcher_setenv (launcher, "GSETTINGS_BACKEND", "memory", TRUE);
  /* The editor speaks the default torch, as example_rewrite() does. */
  g_subprocess_launcher_unsetenv (launcher, "GRAFT_TORCH");
  if (renderer != NULL)
    g_subprocess_launcher_setenv (launcher, "GSK_RENDERER", renderer, TRUE);
  else
    g_subprocess_launcher_unsetenv (launcher, "GSK_RENDERER");
  g_subprocess_launcher_setenv (launcher, "GTK_A11Y", "none", TRUE);
  editor = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("GRAFT_EDITOR"), model, NULL);
  g_assert_no_error (error);
  {
    g_autofree char *title = g_path_get_basename (model);

    window = wait_window (title);
  }
  g_free (xdotool ("windowmove", window, "0", "0", NULL));
  g_free (xdotool ("windowsize", window, "1200", "800", NULL));
  pause_ms (1500);
  return editor;
}

/* The tests draw with cairo, which is quick and the same everywhere. */
static GSubprocess *
launch_editor (const char *dir,
               const char *source,
               const char *model)
{
  return launch_editor_with (dir, source, model, "cairo");
}

static void
test_drive_editor (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-e2e-XXXXXX", NULL);
  g_autofree char *source = example_path ();
  g_autofree char *model = g_build_filename (dir, "example.py", NULL);
  g_autofree char *code_path = g_build_filename (dir, "out.py", NULL);
  g_autofree char *png_path = g_build_filename (dir, "out.png", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *code_all_path = g_build_filename (dir, "all.py", NULL);
  g_autofree char *expected_code = example_rewrite (0, FALSE);
  g_autofree char *expected_all_code = example_rewrite (0, TRUE);
  g_autofree char *expected = example_python_file (expected_code);
  g_autofree char *expected_all = example_python_file (expected_all_code);
  g_autofree char *x_text = NULL;
  g_autofree char *y_text = NULL;
  g_autoptr (GSubprocess) editor = NULL;
  gsize length;
  int   x = 0;
  int   y = 0;

  editor = launch_editor (dir, source, model);

  /* Click the middle node of the first match, then replace its match. */
  g_assert_true (find_first_match (&x, &y));
  x_text = g_strdup_printf ("%d", x);
  y_text = g_strdup_printf ("%d", y);
  g_free (xdotool ("mousemove", x_text, y_text, NULL));
  g_free (xdotool ("click", "1", NULL));
  pause_ms (500);
  g_free (xdotool ("key", "ctrl+shift+r", NULL));
  pause_ms (1500);

  export_to (code_path);
  g_assert_true (g_file_get_contents (code_path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, expected);
  g_clear_pointer (&contents, g_free);

  /* Ctrl+R: Replace All, which replaces the match that is left. */
  g_free (xdotool ("key", "ctrl+r", NULL));
  pause_ms (1500);
  export_to (code_all_path);
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (code_all_path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, expected_all);
  g_clear_pointer (&contents, g_free);

  export_to (png_path);
  g_assert_true (g_file_get_contents (png_path, &contents, &length, NULL));
  g_assert_cmpuint (length, >, 8);
  g_assert_true (memcmp (contents, "\x89PNG", 4) == 0);

  g_subprocess_force_exit (editor);
  g_subprocess_wait (editor, NULL, NULL);
  g_unlink (code_path);
  g_unlink (code_all_path);
  g_unlink (png_path);
  g_unlink (model);
  g_rmdir (dir);
}

static char *
int_text (int value)
{
  return g_strdup_printf ("%d", value);
}

/* A rubber band dragged around the second match (blue) selects its nodes;
 * Shift+Ctrl+R then replaces that match alone. */
static void
test_rubber_band (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-e2e-XXXXXX", NULL);
  g_autofree char *source = example_path ();
  g_autofree char *model = g_build_filename (dir, "example.py", NULL);
  g_autofree char *code_path = g_build_filename (dir, "band.py", NULL);
  g_autofree char *expected_code = example_rewrite (1, FALSE);
  g_autofree char *expected = example_python_file (expected_code);
  g_autofree char *contents = NULL;
  g_autoptr (GSubprocess) editor = NULL;
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;

  editor = launch_editor (dir, source, model);

  g_assert_true (wait_colour (SECOND_MATCH_RGB, &x0, &y0, &x1, &y1));
  {
    g_autofree char *sx = int_text (x0 - 8);
    g_autofree char *sy = int_text (y0 - 8);
    g_autofree char *mx = int_text ((x0 + x1) / 2);
    g_autofree char *my = int_text ((y0 + y1) / 2);
    g_autofree char *ex = int_text (x1 + 8);
    g_autofree char *ey = int_text (y1 + 8);

    g_free (xdotool ("mousemove", sx, sy, NULL));
    g_free (xdotool ("mousedown", "1", NULL));
    pause_ms (100);
    g_free (xdotool ("mousemove", mx, my, NULL));
    pause_ms (100);
    g_free (xdotool ("mousemove", ex, ey, NULL));
    pause_ms (100);
    g_free (xdotool ("mouseup", "1", NULL));
  }
  pause_ms (500);
  g_free (xdotool ("key", "ctrl+shift+r", NULL));
  pause_ms (1500);
  export_to (code_path);
  g_assert_true (g_file_get_contents (code_path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, expected);

  g_subprocess_force_exit (editor);
  g_subprocess_wait (editor, NULL, NULL);
  g_unlink (code_path);
  g_unlink (model);
  g_rmdir (dir);
}

/* With GTK's own renderer (GL, which under Xvfb is Mesa's software
 * rasterizer) the graph is drawn too.  There the busy spinner's frames
 * take longer than the frame interval and follow each other without a
 * pause; a layout started below the redraw's priority never ran. */
/* Gives the X input focus to @window and waits until it has it.  Xvfb
 * runs no window manager, which would focus a new window by itself; this
 * stands in for it, and is no mouse event. */
static void
focus_window (const char *window)
{
  g_free (xdotool ("windowfocus", "--sync", window, NULL));
}

/* Waits up to WAIT_MS until no visible window's name matches @name. */
static gboolean
wait_window_gone (const char *name)
{
  for (int i = 0; i < WAIT_MS / 100; i++)
    {
      g_autofree char *id = xdotool ("search", "--onlyvisible", "--name", name, NULL);

      if (*id == '\0')
        return TRUE;
      pause_ms (100);
    }
  return FALSE;
}

/* Waits up to WAIT_MS until colour @rgb is no longer drawn left of the
 * side panel. */
static gboolean
wait_colour_gone (guint32 rgb)
{
  int x0, y0, x1, y1;

  for (int i = 0; i < WAIT_MS / 200; i++)
    {
      if (!find_colour (rgb, &x0, &y0, &x1, &y1))
        return TRUE;
      pause_ms (200);
    }
  return FALSE;
}

/* The keyboard-only path, no mouse event anywhere: Ctrl+O in an empty
 * editor, the example's path typed into the file chooser; on the canvas
 * (which has the focus once the graph opens) Home goes to the first node
 * (x), Tab to the first match (its returning node sum_1), Tab to the
 * second (sum_2), Up to its input cat_1; Menu opens cat_1's context menu,
 * whose first item is Replace Match 2, and Return takes it; Ctrl+E and a
 * typed name export the code, which must be the core's for replacing the
 * second match alone. */
static void
test_keyboard_only (void)
{
  g_autoptr (GSubprocessLauncher) launcher = editor_launcher ();
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("graft-e2e-XXXXXX", NULL);
  g_autofree char *source = example_path ();
  g_autofree char *model = g_build_filename (dir, "example.py", NULL);
  g_autofree char *code_path = g_build_filename (dir, "keys.py", NULL);
  g_autofree char *expected_code = example_rewrite (1, FALSE);
  g_autofree char *expected = example_python_file (expected_code);
  g_autofree char *contents = NULL;
  g_autofree char *window = NULL;
  g_autofree char *chooser = NULL;
  g_autofree char *dialog = NULL;
  g_autoptr (GSubprocess) editor = NULL;
  int x0, y0, x1, y1;

  g_assert_true (g_file_get_contents (source, &contents, NULL, NULL));
  g_assert_true (g_file_set_contents (model, contents, -1, NULL));
  g_clear_pointer (&contents, g_free);
  g_subprocess_launcher_set_cwd (launcher, dir);
  g_subprocess_launcher_setenv (launcher, "GSETTINGS_BACKEND", "memory", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "GRAFT_TORCH");
  g_subprocess_launcher_setenv (launcher, "GSK_RENDERER", "cairo", TRUE);
  g_subprocess_launcher_setenv (launcher, "GTK_A11Y", "none", TRUE);
  editor = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("GRAFT_EDITOR"), NULL);
  g_assert_no_error (error);

  /* An empty window; Ctrl+O, and the path typed (a leading / opens the
   * chooser's location entry). */
  window = wait_window ("^Graft$");
  g_free (xdotool ("windowmove", window, "0", "0", NULL));
  g_free (xdotool ("windowsize", window, "1200", "800", NULL));
  focus_window (window);
  g_free (xdotool ("key", "ctrl+o", NULL));
  chooser = wait_window ("Open a Graph");
  focus_window (chooser);
  g_free (xdotool ("type", "--delay", "20", model, NULL));
  g_free (xdotool ("key", "Return", NULL));
  g_assert_true (wait_window_gone ("Open a Graph"));
  g_free (wait_window ("example.py"));
  focus_window (window);
  g_assert_true (wait_colour (SECOND_MATCH_RGB, &x0, &y0, &x1, &y1));

  /* To the second match and up one node; its menu; its first item. */
  g_free (xdotool ("key", "Home", "Tab", "Tab", "Up", "Menu", NULL));
  g_free (wait_window ("^Graft$"));
  g_free (xdotool ("key", "Return", NULL));
  g_assert_true (wait_colour_gone (SECOND_MATCH_RGB));
  /* The first match is still there, once the window is at rest: frames
   * are painted while the replacement's work goes on by steps, and one of
   * them may show neither match's colour. */
  g_assert_true (wait_colour (FIRST_MATCH_RGB, &x0, &y0, &x1, &y1));

  focus_window (window);
  g_free (xdotool ("key", "ctrl+e", NULL));
  dialog = wait_window ("Export the Graph");
  focus_window (dialog);
  g_free (xdotool ("key", "ctrl+a", NULL));
  g_free (xdotool ("type", "--delay", "20", code_path, NULL));
  g_free (xdotool ("key", "Return", NULL));
  g_assert_true (wait_file (code_path));
  g_assert_true (g_file_get_contents (code_path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, expected);

  g_subprocess_force_exit (editor);
  g_subprocess_wait (editor, NULL, NULL);
  g_unlink (code_path);
  g_unlink (model);
  g_rmdir (dir);
}

static void
test_default_renderer (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-e2e-XXXXXX", NULL);
  g_autofree char *source = example_path ();
  g_autofree char *model = g_build_filename (dir, "example.py", NULL);
  g_autoptr (GSubprocess) editor = NULL;
  gboolean drawn = FALSE;
  int      x = 0;
  int      y = 0;

  editor = launch_editor_with (dir, source, model, NULL);
  drawn = find_first_match (&x, &y);
  /* Stopped before asserting, so that a failure does not leave it
   * running. */
  g_subprocess_force_exit (editor);
  g_subprocess_wait (editor, NULL, NULL);
  g_unlink (model);
  g_rmdir (dir);
  g_assert_true (drawn);
}

/* The rules' keys in the real editor: a session of resnet18 and the four
 * rules of tests/data/rules/editor_steps_rules.py, made here, opens on the
 * Rules page; Shift+F5 four times steps through both passes, Ctrl+Z twice and
 * Shift+Ctrl+Z twice go back and forth, and the code exported after each
 * is the core's. */
static char *
steps_session (const char *model_text,
               const char *rules_path)
{
  g_autoptr (GraftInputSet) inputs = graft_input_set_new (graft_dialect_get_default ());
  g_autoptr (GraftRuleSet) rules = NULL;
  g_autoptr (GPtrArray) refs = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  GraftSource *source;

  rules = graft_input_set_load_rules (inputs, rules_path, &refs, &error);
  g_assert_no_error (error);
  source = graft_input_set_get_source (inputs, rules_path, &error);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "graft-session");
  json_builder_add_int_value (builder, 1);
  json_builder_set_member_name (builder, "torch");
  json_builder_add_string_value (builder, graft_dialect_get_default ()->name);
  json_builder_set_member_name (builder, "input");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, "resnet18.py");
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, model_text);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "rules");
  json_builder_begin_array (builder);
  for (guint i = 0; i < refs->len; i++)
    {
      GraftPyRuleRef  *ref = refs->pdata[i];
      g_autofree char *pattern = graft_pass_dup_definition (source, ref->pattern_entry, &error);
      g_autofree char *replacement =
          graft_pass_dup_definition (source, ref->replacement_entry, &error);

      g_assert_no_error (error);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "pattern");
      json_builder_add_string_value (builder, pattern);
      json_builder_set_member_name (builder, "replacement");
      json_builder_add_string_value (builder, replacement);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "options");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "fixpoint");
  json_builder_add_int_value (builder, 5);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "position");
  json_builder_add_int_value (builder, 0);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

/* The core's code after `replace_pattern` calls of the rules numbered in
 * @calls (from 0), in that order. */
static char *
calls_code (const char  *model,
            const char  *rules_path,
            const guint *calls,
            guint        n_calls)
{
  g_autoptr (GraftInputSet) inputs = graft_input_set_new (graft_dialect_get_default ());
  g_autoptr (GError) error = NULL;
  GraftGraph   *graph = graft_input_set_load (inputs, model, NULL, FALSE, &error);
  GraftRuleSet *rules = graft_input_set_load_rules (inputs, rules_path, NULL, &error);
  GPtrArray    *rewrites = g_ptr_array_new ();
  char         *code;

  g_assert_no_error (error);
  for (guint i = 0; i < n_calls; i++)
    {
      GraftRewrite *rewrite =
          graft_replace_pattern (graph, graft_rule_set_get_pattern (rules, calls[i]),
                                 graft_rule_set_get_replacement (rules, calls[i]), NULL, &error);

      g_assert_no_error (error);
      g_ptr_array_add (rewrites, rewrite);
    }
  code = graft_codegen_python (graph);
  /* Edits refer to the graph: they go first, the last first. */
  for (guint i = rewrites->len; i-- > 0;)
    graft_rewrite_free (rewrites->pdata[i]);
  g_ptr_array_unref (rewrites);
  graft_rule_set_free (rules);
  graft_graph_free (graph);
  return code;
}

static void
test_rule_keys (void)
{
  g_autofree char   *dir = g_dir_make_tmp ("graft-e2e-XXXXXX", NULL);
  g_autofree char   *model = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "torchvision",
                                               "resnet18.py", NULL);
  g_autofree char   *rules = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "rules",
                                               "editor_steps_rules.py", NULL);
  g_autofree char   *session_source = g_build_filename (dir, "source.graft", NULL);
  g_autofree char   *session = g_build_filename (dir, "example.graft", NULL);
  g_autofree char   *model_text = NULL;
  g_autofree char   *text = NULL;
  static const guint all_calls[] = { 1, 2, 3, 0 };
  g_autofree char   *expected_code = calls_code (model, rules, all_calls, 4);
  g_autofree char   *undone_code = calls_code (model, rules, all_calls, 2);
  g_autofree char   *expected = example_python_file (expected_code);
  g_autofree char   *undone = example_python_file (undone_code);
  g_autoptr (GSubprocess) editor = NULL;
  static const char *const names[] = { "after.py", "undone.py", "redone.py" };

  g_assert_true (g_file_get_contents (model, &model_text, NULL, NULL));
  text = steps_session (model_text, rules);
  g_assert_true (g_file_set_contents (session_source, text, -1, NULL));
  editor = launch_editor (dir, session_source, session);

  /* Shift+F5 (Next), four times: pass 1's three calls, pass 2's one. */
  for (guint i = 0; i < 4; i++)
    g_free (xdotool ("key", "shift+F5", NULL));
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autofree char *path = g_build_filename (dir, names[k], NULL);
      g_autofree char *contents = NULL;

      if (k == 1)
        g_free (xdotool ("key", "ctrl+z", "ctrl+z", NULL));
      if (k == 2)
        g_free (xdotool ("key", "ctrl+shift+z", "ctrl+shift+z", NULL));
      export_to (path);
      g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
      /* Undone twice: pass 1's first two calls. */
      g_assert_cmpstr (contents, ==, k == 1 ? undone : expected);
      g_unlink (path);
    }

  g_subprocess_force_exit (editor);
  g_subprocess_wait (editor, NULL, NULL);
  g_unlink (session_source);
  g_unlink (session);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *xdotool_path = g_find_program_in_path ("xdotool");

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("DISPLAY") == NULL || xdotool_path == NULL)
    {
      g_print ("1..0 # SKIP no X display or no xdotool\n");
      return 0;
    }
  /* The editors started inherit them: no autosave or recent file of an
   * earlier run or of the user's shows up. */
  own_user_dirs ();
  hold_display ();
  g_test_add_func ("/ui/e2e/drive-editor", test_drive_editor);
  g_test_add_func ("/ui/e2e/rubber-band", test_rubber_band);
  g_test_add_func ("/ui/e2e/default-renderer", test_default_renderer);
  g_test_add_func ("/ui/e2e/rule-keys", test_rule_keys);
  g_test_add_func ("/ui/e2e/keyboard-only", test_keyboard_only);
  return g_test_run ();
}
