/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cmd-code.c: `graft code` (cli.md): trace (or read) the input and print
 * its generated code, as torch.fx's GraphModule.code, or with `--to
 * readable` as `gm.print_readable(print_output=False)` (`--to graph`, as
 * the oracle takes it: the listing `graft graph` prints).  Also the pipeline
 * that `graft graph` shares: load one graph, print it, write it.
 */
#include "config.h"

#include <string.h>

#include "cmd.h"

/* `graft code m.py -o out.png` writes code, as the oracle does; says so,
 * and which command writes what the name promised. */
static void
warn_output_name (const char *output,
                  GraftFormat written)
{
  GraftFormat named;
  const char *hint;

  if (!graft_cli_output_names_other_format (output, written, &named))
    return;
  if (named == GRAFT_FORMAT_CODE)
    hint = "graft code writes it";
  else if (named == GRAFT_FORMAT_GRAPH)
    hint = "graft graph writes one";
  else if (graft_cli_format_is_drawing (named))
    hint = "graft render draws one";
  else
    hint = NULL;
  graft_cli_warn_output_name (output, graft_cli_format_phrase (written),
                              graft_cli_format_phrase (named), hint);
}

/**
 * graft_cli_print_graph:
 * @options: the command's options: --entry and -o
 * @input: INPUT
 * @print: prints the graph
 * @written: the format @print writes
 *
 * Loads INPUT's graph and writes what @print makes of it.  A -o PATH
 * whose extension names another format, the format not chosen with
 * --to, gets a warning.
 *
 * Returns: an exit status
 */
int
graft_cli_print_graph (const GraftCliOptions *options,
                       const char            *input,
                       GString *(*print) (GraftGraph *graph),
                       GraftFormat written)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftInputSet) inputs = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GString) text = NULL;
  int           status;
  GraftCliPhase phases[] = { { "load", 0 }, { "print", 0 }, { "emit", 0 } };

  /* Through an input set, which keeps the syntax tree and the tracer's
   * state until the process ends (graft_cli_finish skips freeing them). */
  phases[0].start = g_get_monotonic_time ();
  inputs = graft_cli_input_set_new (options->dialect);
  graph = graft_cli_load_input (inputs, input, options->entry, &error);
  if (graph == NULL)
    return graft_cli_report (error, input);
  phases[1].start = g_get_monotonic_time ();
  text = print (graph);
  phases[2].start = g_get_monotonic_time ();
  status = graft_cli_emit_text (text->str, text->len, options->output);
  if (status == GRAFT_EXIT_OK && options->to == NULL)
    warn_output_name (options->output, written);
  graft_cli_report_timings (phases, G_N_ELEMENTS (phases));
  return graft_cli_finish (status);
}

/**
 * graft_cli_check_readable:
 * @command: the command's name, for the message
 * @dialect: the torch spoken
 *
 * The readable form is torch 2.x's: torch 1.13.1's `print_readable` takes
 * no `print_output` and returns nothing (it only prints), so
 * `print_readable(print_output=False)` fails there.
 *
 * Returns: an exit status: a usage error when @dialect has no readable form
 */
int
graft_cli_check_readable (const char         *command,
                          const GraftDialect *dialect)
{
  if (dialect->prints_readable)
    return GRAFT_EXIT_OK;
  return graft_cli_usage_error (command,
                                "--to readable: torch %s has no "
                                "print_readable(print_output=False) (use --torch 2.6)",
                                dialect->version);
}

static GString *
print_readable (GraftGraph *graph)
{
  return graft_codegen_readable_string (graph, GRAFT_READABLE_DEFAULT);
}

static int
run (const GraftCliOptions *options,
     const char            *input)
{
  GraftFormat format;

  if (options->to == NULL || strcmp (options->to, "code") == 0)
    return graft_cli_print_graph (options, input, graft_codegen_module_code_string,
                                  GRAFT_FORMAT_CODE);
  /* As the oracle's `code --to graph`: what `graft graph` prints. */
  if (strcmp (options->to, "graph") == 0)
    return graft_cli_print_graph (options, input, graft_listing_to_gstring, GRAFT_FORMAT_GRAPH);
  if (graft_format_from_string (options->to, &format) && graft_cli_format_is_drawing (format))
    return graft_cli_usage_error ("code",
                                  "--to %s: code writes code, readable or graph; graft render "
                                  "--to %s draws the graph",
                                  options->to, options->to);
  if (strcmp (options->to, "readable") != 0)
    return graft_cli_usage_error ("code", "unknown format '%s' (use code, readable or graph)",
                                  options->to);
  if (graft_cli_check_readable ("code", options->dialect) != GRAFT_EXIT_OK)
    return GRAFT_EXIT_USAGE;
  return graft_cli_print_graph (options, input, print_readable, GRAFT_FORMAT_READABLE);
}

static const GraftCliOptionUse command_options[] = {
  { GRAFT_CLI_OPTION_ENTRY, NULL },
  { GRAFT_CLI_OPTION_TO, "code (default), readable (print_readable) or graph (print(gm.graph))" },
  { GRAFT_CLI_OPTION_OUTPUT, NULL },
  { GRAFT_CLI_OPTION_END, NULL },
};

const GraftCommand graft_cmd_code = {
  "code",
  "print the traced graph as torch.fx's GraphModule.code",
  "Print the traced graph's code, exactly as torch.fx's GraphModule.code (--to readable: as "
  "gm.print_readable(print_output=False); --to graph: as print(gm.graph)).",
  command_options,
  run,
};
