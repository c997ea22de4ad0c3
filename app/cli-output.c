/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cli-output.c: every write of the `graft` CLI.  Results go to standard
 * output or, with -o, to a file written atomically; usage errors, input
 * errors (`FILE:LINE:COL: error: TEXT`), notes such as `replaced 2
 * matches` and the timings line go to standard error.  Each helper that
 * ends a command returns its exit status (cli.md): 2 for usage, 1 for
 * input and I/O.  Commands write nothing but through these.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "cmd.h"

static void
print_usage (FILE                      *stream,
             const GraftCommand *const *commands,
             guint                      n_commands)
{
  fprintf (stream, "usage: graft COMMAND INPUT [OPTIONS]\n\ncommands:\n");
  for (guint i = 0; i < n_commands; i++)
    fprintf (stream, "  %-8s %s\n", commands[i]->name, commands[i]->summary);
  fprintf (stream, "\nINPUT is a Python module, an FX graph listing, a DOT graph, a torch.export "
                   "program\n(a .pt2 archive, or the text print(ep) or print_readable() writes), "
                   "or - for standard input.\n"
                   "Run 'graft COMMAND --help' for the options of a command.\n");
}

/**
 * graft_cli_print_help:
 * @commands: the command table
 * @n_commands: its length
 *
 * Prints the usage and the commands on standard output (`graft --help`).
 *
 * Returns: %GRAFT_EXIT_OK
 */
int
graft_cli_print_help (const GraftCommand *const *commands,
                      guint                      n_commands)
{
  print_usage (stdout, commands, n_commands);
  return GRAFT_EXIT_OK;
}

/**
 * graft_cli_print_usage_error:
 * @commands: the command table
 * @n_commands: its length
 * @unknown_command: (nullable): the command name that is not one, or
 *   %NULL when none was given
 *
 * Prints the usage and the commands on standard error.
 *
 * Returns: %GRAFT_EXIT_USAGE
 */
int
graft_cli_print_usage_error (const GraftCommand *const *commands,
                             guint                      n_commands,
                             const char                *unknown_command)
{
  if (unknown_command != NULL)
    fprintf (stderr, "graft: unknown command '%s'\n\n", unknown_command);
  print_usage (stderr, commands, n_commands);
  return GRAFT_EXIT_USAGE;
}

/**
 * graft_cli_print_version:
 *
 * Returns: %GRAFT_EXIT_OK, after printing `graft VERSION`
 */
int
graft_cli_print_version (void)
{
  printf ("graft %s\n", PACKAGE_VERSION);
  return GRAFT_EXIT_OK;
}

/**
 * graft_cli_usage_error:
 * @command: the command
 * @format: the problem, printf-style, without a newline
 *
 * Prints `graft COMMAND: PROBLEM`.
 *
 * Returns: %GRAFT_EXIT_USAGE
 */
int
graft_cli_usage_error (const char *command,
                       const char *format,
                       ...)
{
  va_list args;

  fprintf (stderr, "graft %s: ", command);
  va_start (args, format);
  vfprintf (stderr, format, args);
  va_end (args);
  fputc ('\n', stderr);
  return GRAFT_EXIT_USAGE;
}

/**
 * graft_cli_fail:
 * @format: what failed, printf-style, without a newline
 *
 * Prints `graft: PROBLEM` for a failure that is no input's fault (standard
 * output closed, graft-render missing).
 *
 * Returns: %GRAFT_EXIT_INPUT
 */
int
graft_cli_fail (const char *format,
                ...)
{
  va_list args;

  fputs ("graft: ", stderr);
  va_start (args, format);
  vfprintf (stderr, format, args);
  va_end (args);
  fputc ('\n', stderr);
  return GRAFT_EXIT_INPUT;
}

/**
 * graft_cli_note:
 * @format: the line, printf-style, without a newline
 *
 * Prints one line on standard error beside the result: a count, a warning.
 */
void
graft_cli_note (const char *format,
                ...)
{
  va_list args;

  va_start (args, format);
  vfprintf (stderr, format, args);
  va_end (args);
  fputc ('\n', stderr);
}

/**
 * graft_cli_report:
 * @error: an error of reading an input or writing an output
 * @fallback_filename: the file to name when @error carries no place
 *
 * Prints `FILE:LINE:COL: error: TEXT`.  In `graft`, a DOT input or a
 * `.pt2` archive instead hands the command line to graft-render.
 *
 * Returns: %GRAFT_EXIT_INPUT
 */
int
graft_cli_report (const GError *error,
                  const char   *fallback_filename)
{
  g_autofree char *line = NULL;

#ifdef GRAFT_CLI_LEAN
  /* Nothing has been written yet: inputs are read before any output. */
  if (g_error_matches (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_NO_DOT_READER) ||
      g_error_matches (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_NO_ARCHIVE_READER))
    return graft_cli_hand_over_dot ();
#endif
  line = graft_error_format (error, fallback_filename);

  fprintf (stderr, "%s\n", line);
  return GRAFT_EXIT_INPUT;
}

/* Python's str.strip(): the white space it removes at either end. */
static gboolean
is_py_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' ||
         c == '\x1c' || c == '\x1d' || c == '\x1e' || c == '\x1f';
}

/* Writes @text and then @tail to standard output, whatever it takes:
 * a pipe takes a large write in parts, a signal may cut one short.
 * Whether all was written (else errno says why). */
static gboolean
write_stdout (const char *text,
              gsize       length,
              const char *tail,
              gsize       tail_length)
{
  struct iovec parts[2] = {
    { (void *) text, length },
    { (void *) tail, tail_length },
  };
  struct iovec *part = parts;
  int           n_parts = 2;

  /* Anything printed through stdio before goes first. */
  if (fflush (stdout) != 0)
    return FALSE;
  while (n_parts > 0)
    {
      ssize_t written = writev (STDOUT_FILENO, part, n_parts);

      if (written < 0 && errno == EINTR)
        continue;
      /* Nothing written of what is left (never seen): no way forward. */
      if (written == 0)
        errno = EIO;
      if (written <= 0)
        return FALSE;
      while (n_parts > 0 && (gsize) written >= part->iov_len)
        {
          written -= part->iov_len;
          part++;
          n_parts--;
        }
      if (n_parts > 0)
        {
          part->iov_base = (char *) part->iov_base + written;
          part->iov_len -= written;
        }
    }
  return TRUE;
}

/**
 * graft_cli_emit_text:
 * @text: the output (may hold NUL bytes)
 * @length: its length
 * @output_path: (nullable): a file to write atomically, or %NULL for stdout
 *
 * Writes @text stripped of surrounding white space plus one newline, the
 * form cli.md compares (and fx-reference prints).  On standard output
 * the stripped text is written from where it is, the newline after it:
 * the code of 10,000 nodes is 600 KB, and a copy of it was fresh memory
 * (a huge page more for `graft code` and `graft rewrite` on 10,000 nodes)
 * and a copy's time.
 *
 * Returns: an exit status
 */
int
graft_cli_emit_text (const char *text,
                     gsize       length,
                     const char *output_path)
{
  gsize start = 0, end = length;

  while (start < end && is_py_space (text[start]))
    start++;
  while (end > start && is_py_space (text[end - 1]))
    end--;

  if (output_path != NULL)
    {
      g_autoptr (GString) out = g_string_new_len (text + start, end - start);

      g_string_append_c (out, '\n');
      return graft_cli_emit_file (out->str, out->len, output_path);
    }
  if (!write_stdout (text + start, end - start, "\n", 1))
    return graft_cli_fail ("cannot write to standard output: %s", g_strerror (errno));
  return GRAFT_EXIT_OK;
}

/**
 * graft_cli_emit_file:
 * @data: the file's bytes
 * @length: their number
 * @output_path: the file, written atomically (a partial file never
 *   appears)
 *
 * Returns: an exit status; an error is reported
 */
int
graft_cli_emit_file (const char *data,
                     gsize       length,
                     const char *output_path)
{
  g_autoptr (GError) error = NULL;

  if (!graft_output_write_file (output_path, data, length, &error))
    return graft_cli_report (error, output_path);
  return GRAFT_EXIT_OK;
}

/**
 * graft_cli_format_phrase:
 * @format: a format
 *
 * Returns: what a file of @format holds, for a sentence: `Python code`,
 *   `a PNG image` ("wrote Python code, not a PNG image")
 */
const char *
graft_cli_format_phrase (GraftFormat format)
{
  switch (format)
    {
    case GRAFT_FORMAT_CODE:
      return "Python code";
    case GRAFT_FORMAT_READABLE:
      return "readable Python code";
    case GRAFT_FORMAT_GRAPH:
      return "an FX graph listing";
    case GRAFT_FORMAT_JSON:
      return "a JSON graph";
    case GRAFT_FORMAT_DOT:
      return "a DOT graph";
    case GRAFT_FORMAT_PNG:
      return "a PNG image";
    case GRAFT_FORMAT_SVG:
      return "an SVG image";
    case GRAFT_FORMAT_PDF:
      return "a PDF document";
    default:
      g_return_val_if_reached ("a file");
    }
}

/**
 * graft_cli_output_names_other_format:
 * @output: (nullable): the -o PATH
 * @written: the format written there
 * @out_named: (out): the format @output's extension names
 *
 * Whether -o's extension names another format than the one written, as
 * `graft rewrite m.py -o out.png` does: cli.md (and the oracle, which
 * writes the same file) make code the default whatever -o says.  Both
 * code forms end in `.py`.
 *
 * Returns: %TRUE if the file's name promises another format
 */
gboolean
graft_cli_output_names_other_format (const char  *output,
                                     GraftFormat  written,
                                     GraftFormat *out_named)
{
  const char *base = output != NULL ? strrchr (output, G_DIR_SEPARATOR) : NULL;
  GraftFormat named;

  base = base != NULL ? base + 1 : output;
  if (!graft_format_from_path (base, &named) || named == written)
    return FALSE;
  if (named == GRAFT_FORMAT_CODE && written == GRAFT_FORMAT_READABLE)
    return FALSE;
  *out_named = named;
  return TRUE;
}

/**
 * graft_cli_warn_output_name:
 * @output: the -o PATH
 * @written: what was written there (`Python code`, `the matches as
 *   text`)
 * @promised: what @output's extension promises (`a PNG image`)
 * @hint: (nullable): how to get that instead (`--to png writes one`)
 *
 * Prints `PATH: warning: wrote WHAT, not PROMISED (HINT)` on standard
 * error, once the file is written as the contract has it: the output
 * stays the oracle's, and the user learns why out.png holds no picture.
 */
void
graft_cli_warn_output_name (const char *output,
                            const char *written,
                            const char *promised,
                            const char *hint)
{
  if (hint != NULL)
    graft_cli_note ("%s: warning: wrote %s, not %s (%s)", output, written, promised, hint);
  else
    graft_cli_note ("%s: warning: wrote %s, not %s", output, written, promised);
}

/**
 * graft_cli_report_timings:
 * @phases: the steps of the command, in order, each with when it began
 *   (g_get_monotonic_time)
 * @n_phases: their number
 *
 * With GRAFT_CLI_TIMINGS set, prints what each step took inside the
 * process, in seconds: `start` (from the process's start to the first
 * step), then each step until the next began, the last until now.  For
 * the benches (tests/bench/bench-trace, bench-program: `load`, `print`,
 * `emit`; bench-rewrite: `match` and `rewrite` too), which compare these
 * with torch's own in-process times.  Not part of the CLI contract.
 */
void
graft_cli_report_timings (const GraftCliPhase *phases,
                          guint                n_phases)
{
  gint64 end = g_get_monotonic_time ();

  if (g_getenv ("GRAFT_CLI_TIMINGS") == NULL || n_phases == 0)
    return;
  fprintf (stderr, "graft-timings: start=%.6f",
           (phases[0].start - graft_cli_process_get_start_time ()) / 1e6);
  for (guint i = 0; i < n_phases; i++)
    fprintf (stderr, " %s=%.6f", phases[i].name,
             ((i + 1 < n_phases ? phases[i + 1].start : end) - phases[i].start) / 1e6);
  fputc ('\n', stderr);
}
