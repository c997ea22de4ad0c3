/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cmd-code.c: `graft code` and `graft graph`: trace (or read) the input and
 * print its generated code or its graph listing, as torch.fx 1.13.1 does.
 */
#include "config.h"

#include "cmd.h"

typedef GString *(*PrintFunc) (GraftGraph *graph);

static int
run_print (int         argc,
           char      **argv,
           const char *command,
           const char *what,
           PrintFunc   print)
{
  g_autofree char *entry = NULL;
  g_autofree char *output = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GraftInputSet) inputs = NULL;
  g_autoptr(GraftGraph) graph = NULL;
  g_autoptr(GString) text = NULL;
  const char *input = NULL;
  int status;
  gint64 t_load, t_print, t_emit;
  const GOptionEntry entries[] = {
    { "entry", 0, 0, G_OPTION_ARG_STRING, &entry, "The class or function to trace", "NAME" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write to PATH instead of standard output", "PATH" },
    { NULL },
  };

  context = g_option_context_new ("INPUT");
  g_option_context_set_summary (context, what);
  g_option_context_add_main_entries (context, entries, NULL);
  if ((status = graft_cli_parse (context, &argc, &argv, command)) != GRAFT_EXIT_OK)
    return status;
  if ((status = graft_cli_one_input (argc, argv, command, &input)) != GRAFT_EXIT_OK)
    return status;

  /* Through an input set, which keeps the syntax tree and the tracer's
   * state until the process ends (graft_cli_finish skips freeing them). */
  t_load = g_get_monotonic_time ();
  inputs = graft_cli_input_set_new ();
  graph = graft_input_set_load (inputs, input, entry, FALSE, &error);
  if (graph == NULL)
    return graft_cli_report (error, input);
  t_print = g_get_monotonic_time ();
  text = print (graph);
  t_emit = g_get_monotonic_time ();
  status = graft_cli_emit_text (text->str, text->len, output);
  graft_cli_report_timings (t_load, t_print, t_emit);
  return graft_cli_finish (status);
}

int
graft_cmd_code (int    argc,
                char **argv)
{
  return run_print (argc, argv, "code",
                    "Print the traced graph's code, exactly as torch.fx's GraphModule.code.",
                    graft_codegen_python_string);
}

int
graft_cmd_graph (int    argc,
                 char **argv)
{
  return run_print (argc, argv, "graph",
                    "Print the graph listing, exactly as print(gm.graph) in torch.fx.",
                    graft_listing_to_gstring);
}
