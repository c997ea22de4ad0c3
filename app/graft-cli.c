/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-cli.c: the `graft` command line (cli.md): the command table and
 * the dispatch to a command.  The commands are in cmd-*.c, their shared
 * options in cli-options.c, every write in cli-output.c and the process
 * (start-up, the hand-over to graft-render, the exit) in cli-process.c.
 */
#include "config.h"

#include <string.h>

#include "cmd.h"

static const GraftCommand *const commands[] = {
  &graft_cmd_code,
  &graft_cmd_graph,
  &graft_cmd_match,
  &graft_cmd_rewrite,
  &graft_cmd_render,
  &graft_cmd_explain,
};

int
main (int    argc,
      char **argv)
{
  int status;

  graft_cli_process_start (argc, argv);
  if (argc < 2)
    return graft_cli_print_usage_error (commands, G_N_ELEMENTS (commands), NULL);
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 ||
      strcmp (argv[1], "help") == 0)
    return graft_cli_print_help (commands, G_N_ELEMENTS (commands));
  if (strcmp (argv[1], "--version") == 0)
    return graft_cli_print_version ();
  if (graft_cli_prepare_view (argc, argv, &status))
    return status;

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i]->name) == 0)
      {
        graft_cli_keep_command_line (argv);
        status = graft_cli_run_command (commands[i], argc - 1, argv + 1);
        graft_cli_forget_command_line ();
        return status;
      }
  return graft_cli_print_usage_error (commands, G_N_ELEMENTS (commands), argv[1]);
}
