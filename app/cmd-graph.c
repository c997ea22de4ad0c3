/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cmd-graph.c: `graft graph` (cli.md): trace (or read) the input and print
 * its graph listing, as print(gm.graph); `graft code`'s pipeline with the
 * listing printer.
 */
#include "config.h"

#include "cmd.h"

static int
run (const GraftCliOptions *options,
     const char            *input)
{
  return graft_cli_print_graph (options, input, graft_listing_to_gstring, GRAFT_FORMAT_GRAPH);
}

static const GraftCliOptionUse command_options[] = {
  { GRAFT_CLI_OPTION_ENTRY, NULL },
  { GRAFT_CLI_OPTION_OUTPUT, NULL },
  { GRAFT_CLI_OPTION_END, NULL },
};

const GraftCommand graft_cmd_graph = {
  "graph",
  "print the graph listing, as print(gm.graph)",
  "Print the graph listing, exactly as print(gm.graph) in torch.fx.",
  command_options,
  run,
};
