/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cli-process.c: the `graft` process around its commands.  At start-up,
 * the heap is laid out for huge pages (graft_heap_prepare_huge_pages(),
 * core/base/graft-heap.c) and the user's locale is loaded only when GLib
 * needs it (measured: see below).  The lean `graft` links no
 * view, no DOT reader and no `.pt2` reader, so it runs a command line that
 * draws, or whose input turns out to be DOT or an archive, again as
 * graft-render, the same program with the view linked in.  At the end, normal builds exit without
 * freeing. What fails here is reported through cli-output.c.
 */
#define _GNU_SOURCE 1 /* memfd_create */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h> /* memfd_create */
#include <unistd.h>

#include "cmd.h"

static gint64 started_at;

/* Whether GLib will need the user's locale: to convert an argument that is
 * not ASCII into UTF-8, or to print its (translated) help.  Graft's own
 * messages are UTF-8 written as they are.  Loading the locale costs about
 * half a millisecond here, which is a thirtieth of `graft code` on a module
 * of 10,000 nodes, so the usual command line does without. */
static gboolean
needs_locale (int    argc,
              char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0 ||
          strcmp (argv[i], "-?") == 0 || g_str_has_prefix (argv[i], "--help-"))
        return TRUE;
      for (const char *p = argv[i]; *p != '\0'; p++)
        if ((guchar) *p >= 0x80)
          return TRUE;
    }
  return FALSE;
}

/**
 * graft_cli_process_start:
 * @argc: main()'s
 * @argv: main()'s
 *
 * Notes the start time, prepares the heap and, if the command line needs
 * it, loads the user's locale.
 */
void
graft_cli_process_start (int    argc,
                         char **argv)
{
  started_at = g_get_monotonic_time ();
  graft_heap_prepare_huge_pages ();
  if (needs_locale (argc, argv))
    {
      /* The character set and the language of messages follow the user;
       * the rest of the C locale stays, so that no number is ever written
       * with a decimal comma. */
      setlocale (LC_CTYPE, "");
      setlocale (LC_MESSAGES, "");
    }
}

/**
 * graft_cli_process_get_start_time:
 *
 * Returns: when the process started, in g_get_monotonic_time()'s units
 */
gint64
graft_cli_process_get_start_time (void)
{
  return started_at;
}

#ifdef GRAFT_CLI_LEAN
/* A copy: GOption rewrites argv as it takes options out. */
static char         **original_argv;
static GraftInputSet *current_inputs; /* what the command reads through */

/* Whether the command line asks for a picture: `render`, or `rewrite
 * --to png|svg|pdf`.  Those need the Graphviz/cairo view, which this
 * binary does not link. */
static gboolean
needs_view (int    argc,
            char **argv)
{
  if (strcmp (argv[1], "render") == 0)
    return TRUE;
  if (strcmp (argv[1], "rewrite") != 0)
    return FALSE;
  for (int i = 2; i < argc; i++)
    {
      const char *to = NULL;
      GraftFormat format;

      if (strcmp (argv[i], "--") == 0)
        break;
      if (strcmp (argv[i], "--to") == 0 && i + 1 < argc)
        to = argv[i + 1];
      else if (g_str_has_prefix (argv[i], "--to="))
        to = argv[i] + strlen ("--to=");
      if (graft_format_from_string (to, &format) && graft_format_is_picture (format))
        return TRUE;
    }
  return FALSE;
}

/* Runs the same command line as graft-render: next to this program (the
 * build tree, or an installation that keeps them together), else in
 * libexecdir.  Returns only on failure. */
static int
exec_view (char **argv)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = self != NULL ? g_path_get_dirname (self) : NULL;
  g_autofree char *beside = dir != NULL ? g_build_filename (dir, "graft-render", NULL) : NULL;
  g_autofree char *installed = g_build_filename (GRAFT_LIBEXECDIR, "graft-render", NULL);
  const char      *path =
      beside != NULL && g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE) ? beside : installed;
  int saved_errno;

  fflush (stdout);
  execv (path, argv);
  saved_errno = errno;
  return graft_cli_fail ("cannot run %s: %s", path, g_strerror (saved_errno));
}

/**
 * graft_cli_hand_over_dot:
 *
 * Runs the whole command line again as graft-render, which reads DOT and
 * `.pt2` archives, for an input that turned out to be one.  Standard input was consumed: a
 * memory file with what was read stands in for it.
 *
 * Returns: an exit status, only on failure
 */
int
graft_cli_hand_over_dot (void)
{
  GraftSource *stdin_source =
      current_inputs != NULL ? graft_input_set_peek_source (current_inputs, "-") : NULL;

  if (stdin_source != NULL)
    {
      int      fd = memfd_create ("graft-stdin", 0);
      FILE    *copy = fd >= 0 ? fdopen (fd, "w") : NULL;
      gboolean ok =
          copy != NULL &&
          fwrite (graft_source_get_text (stdin_source), 1, graft_source_get_length (stdin_source),
                  copy) == graft_source_get_length (stdin_source) &&
          fflush (copy) == 0 && lseek (fd, 0, SEEK_SET) == 0 && dup2 (fd, STDIN_FILENO) >= 0;
      int saved_errno = errno;

      if (copy != NULL)
        fclose (copy);
      else if (fd >= 0)
        close (fd);
      if (!ok)
        return graft_cli_fail ("cannot keep standard input for graft-render: %s",
                               g_strerror (saved_errno));
    }
  return exec_view (original_argv);
}
#endif

/**
 * graft_cli_prepare_view:
 * @argc: main()'s
 * @argv: main()'s
 * @out_status: (out): the exit status, when the command line did not run
 *   here
 *
 * In graft-render, switches the DOT reader on.  In the lean `graft`, runs
 * a command line that draws as graft-render instead.
 *
 * Returns: %TRUE if running it as graft-render failed (@out_status set);
 *   %FALSE if the command runs here
 */
gboolean
graft_cli_prepare_view (int    argc,
                        char **argv,
                        int   *out_status)
{
#ifdef GRAFT_CLI_LEAN
  if (needs_view (argc, argv))
    {
      *out_status = exec_view (argv);
      return TRUE;
    }
#else
  graft_gv_enable_dot_reader ();
#endif
  return FALSE;
}

/**
 * graft_cli_keep_command_line:
 * @argv: main()'s
 *
 * Keeps a copy of the command line, which a DOT input hands to
 * graft-render as it was (GOption takes options out of @argv).
 */
void
graft_cli_keep_command_line (char **argv)
{
#ifdef GRAFT_CLI_LEAN
  original_argv = g_strdupv (argv);
#endif
}

/**
 * graft_cli_forget_command_line:
 *
 * Frees graft_cli_keep_command_line()'s copy.
 */
void
graft_cli_forget_command_line (void)
{
#ifdef GRAFT_CLI_LEAN
  g_clear_pointer (&original_argv, g_strfreev);
#endif
}

/**
 * graft_cli_input_set_new:
 * @dialect: the torch the command speaks
 *
 * A new input set for a command, which the CLI remembers: when an input
 * turns out to be DOT, which the lean `graft` does not read, the command
 * line goes to graft-render, with a copy of standard input if it was read.
 *
 * Returns: (transfer full): the set
 */
GraftInputSet *
graft_cli_input_set_new (const GraftDialect *dialect)
{
  GraftInputSet *inputs = graft_input_set_new (dialect);

#ifdef GRAFT_CLI_LEAN
  current_inputs = inputs;
#endif
  return inputs;
}

/**
 * graft_cli_finish:
 * @status: the command's exit status, its output written
 *
 * Ends the process.  Freeing a large graph and its syntax tree piece by
 * piece takes a tenth of a run and serves nobody once the output is
 * written, so normal builds exit here; sanitizer builds return and free
 * everything, so that leak checks keep their meaning.
 *
 * Returns: @status (only in sanitizer builds)
 */
int
graft_cli_finish (int status)
{
#ifndef GRAFT_SANITIZED
  /* GRAFT_CLI_FREE_ON_EXIT: free everything, for leak checks under
   * valgrind (the `valgrind` test setup). */
  if (g_getenv ("GRAFT_CLI_FREE_ON_EXIT") == NULL)
    {
      fflush (stdout);
      fflush (stderr);
      exit (status);
    }
#endif
  return status;
}
