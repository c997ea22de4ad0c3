/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * display.c: keeps one connection to the X display open for the whole
 * test program, and gives the program user folders of its own (and makes
 * xdotool's command lines, for the tests that send real keys).
 *
 * Xvfb (as xvfb-run starts it) resets itself whenever its last client
 * disconnects, and refuses the clients that connect while it resets.  A
 * test that starts an editor right after another one has exited, or a
 * test program that starts right after the previous one, would then meet
 * "cannot open display" now and then.  A connection held from the start
 * means the server is never without a client while the program runs; the
 * first connection is retried for a while, in case the program itself
 * starts during a reset.
 */
#include "config.h"

#include "display.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <xcb/xcb.h>

/* How long the first connection is retried: a reset takes milliseconds,
 * but a loaded machine can stretch it. */
#define CONNECT_TIMEOUT_MS 20000
#define CONNECT_STEP_MS    50

static xcb_connection_t *held;

static void
release_display (void)
{
  g_clear_pointer (&held, xcb_disconnect);
}

/**
 * hold_display:
 *
 * Opens a connection to `$DISPLAY`, retrying while the server refuses,
 * and keeps it open until the process exits.  Without `$DISPLAY` (a
 * Wayland session) it does nothing.  Fails the test program when no
 * connection can be made.
 */
void
hold_display (void)
{
  const char *name = g_getenv ("DISPLAY");

  if (held != NULL || name == NULL)
    return;
  /* xcb, not Xlib: a bare connection, nothing cached with it. */
  for (int waited = 0; held == NULL; waited += CONNECT_STEP_MS)
    {
      held = xcb_connect (name, NULL);
      if (xcb_connection_has_error (held))
        {
          g_clear_pointer (&held, xcb_disconnect);
          if (waited >= CONNECT_TIMEOUT_MS)
            g_error ("cannot open display %s for %d s", name, CONNECT_TIMEOUT_MS / 1000);
          g_usleep (CONNECT_STEP_MS * 1000);
        }
    }
  /* Closed at exit, after the tests. */
  atexit (release_display);
}

/**
 * own_user_dirs:
 *
 * Points `$XDG_STATE_HOME` (the editor's autosaves) and `$XDG_DATA_HOME`
 * (GTK's list of recent files, `recently-used.xbel`) at new folders of the
 * test program's own, inherited by the editors it starts.  Otherwise a test
 * would meet what earlier runs and the user left there: an autosave that
 * offers to restore, or a recent-files list grown to thousands of entries
 * that Open Recent takes seconds to read.  The cache folder stays shared:
 * fontconfig keeps its cache there, and without it each program would
 * scan the fonts again.  Call it before GLib reads the folders (before
 * GTK starts).
 */
void
own_user_dirs (void)
{
  g_autofree char *home = g_dir_make_tmp ("graft-user-XXXXXX", NULL);
  g_autofree char *state = NULL;
  g_autofree char *data = NULL;

  g_assert_nonnull (home);
  state = g_build_filename (home, "state", NULL);
  data = g_build_filename (home, "data", NULL);
  g_assert_cmpint (g_mkdir (state, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (data, 0700), ==, 0);
  g_setenv ("XDG_STATE_HOME", state, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
}

/**
 * xdotool_argv_new:
 * @first: xdotool's first argument
 * @ap: the others, up to NULL
 *
 * Returns: (transfer full): the command line `xdotool FIRST ...`, NULL
 *   at its end, for g_spawn_*()
 */
GPtrArray *
xdotool_argv_new (const char *first,
                  va_list     ap)
{
  GPtrArray *argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (gpointer) "xdotool");
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (argv, (gpointer) a);
  g_ptr_array_add (argv, NULL);
  return argv;
}
