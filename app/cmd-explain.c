/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cmd-explain.c: `graft explain`: one sentence on why the pattern does, or
 * does not, match with its result at a given node of the input's graph.
 */
#include "config.h"

#include <string.h>

#include "cmd.h"

static int
run (const GraftCliOptions *o,
     const char            *input)
{
  g_autoptr (GraftInputSet) inputs = graft_cli_input_set_new (o->dialect);
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char  *pattern_file = NULL;
  g_autofree char  *sentence = NULL;
  GraftMatchOptions options;
  GraftNode        *node;
  int               status;

  if (o->at == NULL)
    return graft_cli_usage_error ("explain", "--at NODE is required");
  status = graft_cli_load_pattern (inputs, input, o->entry, o->pattern,
                                   &graph, &pattern, &pattern_file);
  if (status != GRAFT_EXIT_OK)
    return status;
  node = graft_graph_find_node (graph, o->at);
  if (node == NULL)
    {
      graft_set_error_at (&error, input, 1, 1, GRAFT_PARSE_ERROR_NAME,
                          "the graph has no node named '%s'", o->at);
      return graft_cli_report (error, input);
    }
  graft_match_options_init (&options);
  options.ignore_literals = o->ignore_literals;
  sentence = graft_matcher_explain (pattern, graph, node, &options, NULL);
  return graft_cli_finish (graft_cli_emit_text (sentence, strlen (sentence), NULL));
}

static const GraftCliOptionUse command_options[] = {
  { GRAFT_CLI_OPTION_ENTRY, NULL },
  { GRAFT_CLI_OPTION_PATTERN, NULL },
  { GRAFT_CLI_OPTION_IGNORE_LITERALS, NULL },
  { GRAFT_CLI_OPTION_AT, NULL },
  { GRAFT_CLI_OPTION_END, NULL },
};

const GraftCommand graft_cmd_explain = {
  "explain",
  "say why the pattern does (not) match at a node",
  "Say why the pattern does (not) match with its result at NODE.",
  command_options,
  run,
};
