/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-cli.c: the `graft` command line (cli.md).  This file holds the
 * command table, the option handling every command shares, the mapping of
 * errors to exit statuses, and the only writes to stdout and stderr.
 */
#define _GNU_SOURCE 1 /* memfd_create */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cmd.h"

static const GraftCommand commands[] = {
  { "code", "print the traced graph as torch.fx's GraphModule.code", graft_cmd_code },
  { "graph", "print the graph listing, as print(gm.graph)", graft_cmd_graph },
  { "match", "list the matches replace_pattern would replace", graft_cmd_match },
  { "rewrite", "print the graph after replace_pattern(gm, pattern, replacement)", graft_cmd_rewrite },
  { "render", "draw the graph laid out by Graphviz, matches highlighted", graft_cmd_render },
  { "explain", "say why the pattern does (not) match at a node", graft_cmd_explain },
};

static void
print_usage (FILE *stream)
{
  fprintf (stream, "usage: graft COMMAND INPUT [OPTIONS]\n\ncommands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stream, "  %-8s %s\n", commands[i].name, commands[i].summary);
  fprintf (stream, "\nINPUT is a Python module, an FX graph listing, a DOT graph, or - for standard input.\n"
                   "Run 'graft COMMAND --help' for the options of a command.\n");
}

/**
 * graft_cli_parse:
 *
 * Parses a command's options; a usage error is reported here.
 *
 * Returns: %GRAFT_EXIT_OK, or %GRAFT_EXIT_USAGE after printing the problem
 */
int
graft_cli_parse (GOptionContext *context,
                 int            *argc,
                 char         ***argv,
                 const char     *command)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      fprintf (stderr, "graft %s: %s\n", command, error->message);
      return GRAFT_EXIT_USAGE;
    }
  return GRAFT_EXIT_OK;
}

/**
 * graft_cli_one_input:
 *
 * Checks that exactly one INPUT remains after the options.
 *
 * Returns: %GRAFT_EXIT_OK with @out_input set, or %GRAFT_EXIT_USAGE
 */
int
graft_cli_one_input (int          argc,
                     char       **argv,
                     const char  *command,
                     const char **out_input)
{
  if (argc != 2)
    {
      fprintf (stderr, "graft %s: %s\n", command,
               argc < 2 ? "missing INPUT (a file, or - for standard input)"
                        : "expected one INPUT, got more");
      return GRAFT_EXIT_USAGE;
    }
  *out_input = argv[1];
  return GRAFT_EXIT_OK;
}

#ifdef GRAFT_CLI_LEAN
/* A copy: GOption rewrites argv as it takes options out. */
static char         **original_argv;
static GraftInputSet *current_inputs; /* what the command reads through */
static int            exec_view (char **argv);
#endif

/**
 * graft_cli_input_set_new:
 *
 * A new input set for a command, which the CLI remembers: when an input
 * turns out to be DOT, which the lean `graft` does not read, the command
 * line goes to graft-render, with a copy of standard input if it was read.
 *
 * Returns: (transfer full): the set
 */
GraftInputSet *
graft_cli_input_set_new (void)
{
  GraftInputSet *inputs = graft_input_set_new ();

#ifdef GRAFT_CLI_LEAN
  current_inputs = inputs;
#endif
  return inputs;
}

#ifdef GRAFT_CLI_LEAN
/* Runs the whole command line again as graft-render, which reads DOT.
 * Standard input was consumed: a memory file with what was read stands in
 * for it.  Returns only on failure. */
static int
hand_over_dot (void)
{
  GraftSource *stdin_source = current_inputs != NULL ? graft_input_set_peek_source (current_inputs, "-") : NULL;

  if (stdin_source != NULL)
    {
      int fd = memfd_create ("graft-stdin", 0);
      FILE *copy = fd >= 0 ? fdopen (fd, "w") : NULL;
      gboolean ok = copy != NULL &&
                    fwrite (graft_source_get_text (stdin_source), 1, graft_source_get_length (stdin_source), copy) ==
                      graft_source_get_length (stdin_source) &&
                    fflush (copy) == 0 && lseek (fd, 0, SEEK_SET) == 0 && dup2 (fd, STDIN_FILENO) >= 0;
      int saved_errno = errno;

      if (copy != NULL)
        fclose (copy);
      else if (fd >= 0)
        close (fd);
      if (!ok)
        {
          fprintf (stderr, "graft: cannot keep standard input for graft-render: %s\n", g_strerror (saved_errno));
          return GRAFT_EXIT_INPUT;
        }
    }
  return exec_view (original_argv);
}
#endif

/**
 * graft_cli_report:
 *
 * Prints `FILE:LINE:COL: error: TEXT` for an input error.  In `graft`, a
 * DOT input instead hands the command line to graft-render.
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
  if (g_error_matches (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_NO_DOT_READER))
    return hand_over_dot ();
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

/**
 * graft_cli_load_pattern:
 * @inputs: the files read so far
 * @input: INPUT
 * @entry: (nullable): `--entry`
 * @pattern_ref: (nullable): `--pattern`
 * @out_graph: (out) (transfer full): INPUT's graph
 * @out_pattern: (out) (transfer full): the pattern
 * @out_pattern_file: (out) (transfer full): the pattern's file, where the
 *   replacement is looked up by default
 *
 * Loads INPUT's graph and the pattern by cli.md's REF rules: the
 * pattern's file defaults to INPUT, its name to `pattern`.
 *
 * Returns: an exit status; errors are reported
 */
int
graft_cli_load_pattern (GraftInputSet *inputs,
                        const char    *input,
                        const char    *entry,
                        const char    *pattern_ref,
                        GraftGraph   **out_graph,
                        GraftPattern **out_pattern,
                        char         **out_pattern_file)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GraftGraph) graph = NULL;
  g_autoptr(GraftGraph) pattern_graph = NULL;
  g_autofree char *file = NULL;
  g_autofree char *name = NULL;
  GraftPattern *pattern;

  graph = graft_input_set_load (inputs, input, entry, FALSE, &error);
  if (graph == NULL)
    return graft_cli_report (error, input);
  graft_input_parse_ref (pattern_ref, input, "pattern", &file, &name);
  pattern_graph = graft_input_set_load (inputs, file, name, TRUE, &error);
  if (pattern_graph == NULL)
    return graft_cli_report (error, file);
  pattern = graft_pattern_new (g_steal_pointer (&pattern_graph), &error);
  if (pattern == NULL)
    return graft_cli_report (error, file);
  *out_graph = g_steal_pointer (&graph);
  *out_pattern = pattern;
  *out_pattern_file = g_steal_pointer (&file);
  return GRAFT_EXIT_OK;
}

/**
 * graft_cli_emit_text:
 * @text: the output (may hold NUL bytes)
 * @length: its length
 * @output_path: (nullable): a file to write atomically, or %NULL for stdout
 *
 * Writes @text stripped of surrounding white space plus one newline, the
 * form cli.md compares (and fx-reference prints).
 *
 * Returns: an exit status
 */
int
graft_cli_emit_text (const char *text,
                     gsize       length,
                     const char *output_path)
{
  g_autoptr(GString) out = NULL;
  gsize start = 0, end = length;

  while (start < end && is_py_space (text[start]))
    start++;
  while (end > start && is_py_space (text[end - 1]))
    end--;
  out = g_string_new_len (text + start, end - start);
  g_string_append_c (out, '\n');

  if (output_path != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!graft_export_write_file (output_path, out->str, out->len, &error))
        return graft_cli_report (error, output_path);
      return GRAFT_EXIT_OK;
    }
  if (fwrite (out->str, 1, out->len, stdout) != out->len || fflush (stdout) != 0)
    {
      fprintf (stderr, "graft: cannot write to standard output\n");
      return GRAFT_EXIT_INPUT;
    }
  return GRAFT_EXIT_OK;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GRAFT_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define GRAFT_SANITIZED 1
#endif

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

/* A graph of 10,000 nodes touches about 10 MB, and on the virtual machines
 * Graft is measured on a first touch of a 4 KiB page costs about ten
 * microseconds: page faults took more than half of `graft code`'s time.
 * Keeping the heap in one region (no trimming, no separate mappings for
 * mid-size blocks) and asking for transparent huge pages there makes one
 * fault out of 512.  The heap starts where the program's data ends, which
 * is not on a huge page boundary, and a huge page can only back a whole
 * aligned 2 MiB: the stretch below the first boundary is taken by a block
 * that is never used (nor touched, so it costs no memory), so that every
 * allocation lands in the aligned part.  Sanitizer builds replace malloc,
 * so this is left to normal builds. */
/* Never freed; volatile, or the compiler drops a malloc whose block is
 * never read. */
static void *volatile heap_filler;

static void
prepare_heap (void)
{
#if !defined(GRAFT_SANITIZED) && defined(M_MMAP_THRESHOLD) && defined(MADV_HUGEPAGE)
  /* Address space only: nothing is touched until it is used.  A module of
   * 100,000 nodes uses about 100 MB; past the reserve, the heap grows in
   * 4 KiB pages again (64 MB here made 100,000 nodes take 255 ms rather
   * than 90). */
  const size_t reserve = 512u << 20, page = 2u << 20;
  char *block;

  /* Blocks up to 1 GiB come from the heap (the reserve among them, which
   * would otherwise be a mapping of its own, gone once freed). */
  mallopt (M_MMAP_THRESHOLD, 1024 << 20);
  mallopt (M_TRIM_THRESHOLD, 1024 << 20);
  block = malloc (reserve);
  if (block != NULL)
    {
      char *start = (char *) (((guintptr) block + page - 1) & ~(guintptr) (page - 1));
      size_t gap = start - block;

      madvise (start, reserve - gap - page, MADV_HUGEPAGE);
      free (block);
      /* The block merged back into the free top of the heap, so the next
       * allocation starts where it started: this one fills the gap. */
      if (gap > 64)
        heap_filler = malloc (gap - 32);
    }
#endif
}

#ifdef GRAFT_CLI_LEAN
/* Whether the command line asks for a picture: `render`, or `rewrite
 * --to png|svg|pdf`.  Those need the Graphviz/cairo view, which this
 * binary does not link. */
static gboolean
needs_view (int    argc,
            char **argv)
{
  static const char *const pictures[] = { "png", "svg", "pdf" };

  if (strcmp (argv[1], "render") == 0)
    return TRUE;
  if (strcmp (argv[1], "rewrite") != 0)
    return FALSE;
  for (int i = 2; i < argc; i++)
    {
      const char *to = NULL;

      if (strcmp (argv[i], "--") == 0)
        break;
      if (strcmp (argv[i], "--to") == 0 && i + 1 < argc)
        to = argv[i + 1];
      else if (g_str_has_prefix (argv[i], "--to="))
        to = argv[i] + strlen ("--to=");
      for (guint k = 0; to != NULL && k < G_N_ELEMENTS (pictures); k++)
        if (strcmp (to, pictures[k]) == 0)
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
  const char *path = beside != NULL && g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE) ? beside : installed;

  fflush (stdout);
  execv (path, argv);
  fprintf (stderr, "graft: cannot run %s: %s\n", path, g_strerror (errno));
  return GRAFT_EXIT_INPUT;
}
#endif

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
      if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0 || strcmp (argv[i], "-?") == 0 ||
          g_str_has_prefix (argv[i], "--help-"))
        return TRUE;
      for (const char *p = argv[i]; *p != '\0'; p++)
        if ((guchar) *p >= 0x80)
          return TRUE;
    }
  return FALSE;
}

/**
 * graft_cli_report_timings:
 * @load_start: when reading the input began (g_get_monotonic_time)
 * @print_start: when printing the graph began
 * @emit_start: when writing the output began
 *
 * With GRAFT_CLI_TIMINGS set, prints what each step took inside the
 * process, in seconds, for tests/bench/bench-trace (which compares these
 * with torch's own in-process times).  Not part of the CLI contract.
 */
void
graft_cli_report_timings (gint64 load_start,
                          gint64 print_start,
                          gint64 emit_start)
{
  if (g_getenv ("GRAFT_CLI_TIMINGS") == NULL)
    return;
  fprintf (stderr, "graft-timings: start=%.6f load=%.6f print=%.6f emit=%.6f\n", (load_start - started_at) / 1e6,
           (print_start - load_start) / 1e6, (emit_start - print_start) / 1e6,
           (g_get_monotonic_time () - emit_start) / 1e6);
}

int
main (int    argc,
      char **argv)
{
  started_at = g_get_monotonic_time ();
  prepare_heap ();
  if (needs_locale (argc, argv))
    {
      /* The character set and the language of messages follow the user;
       * the rest of the C locale stays, so that no number is ever written
       * with a decimal comma. */
      setlocale (LC_CTYPE, "");
      setlocale (LC_MESSAGES, "");
    }

  if (argc < 2)
    {
      print_usage (stderr);
      return GRAFT_EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_usage (stdout);
      return GRAFT_EXIT_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("graft %s\n", PACKAGE_VERSION);
      return GRAFT_EXIT_OK;
    }
#ifdef GRAFT_CLI_LEAN
  if (needs_view (argc, argv))
    return exec_view (argv);
#else
  graft_gv_enable_dot_reader ();
#endif
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      {
        int status;

#ifdef GRAFT_CLI_LEAN
        original_argv = g_strdupv (argv);
#endif
        status = commands[i].run (argc - 1, argv + 1);
#ifdef GRAFT_CLI_LEAN
        g_clear_pointer (&original_argv, g_strfreev);
#endif
        return status;
      }

  fprintf (stderr, "graft: unknown command '%s'\n\n", argv[1]);
  print_usage (stderr);
  return GRAFT_EXIT_USAGE;
}
