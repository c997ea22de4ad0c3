/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cmd-match.c: `graft match` (cli.md): the matches of a pattern in the
 * input's graph that `replace_pattern` would replace, in its order, as
 * torch.fx's SubgraphMatcher finds them: a readable listing, or JSON.
 */
#include "config.h"

#include <string.h>

#include "cmd.h"

/* `graft match m.py -o m.png` writes the matches as text, as the oracle
 * does; a name that promises a picture or JSON gets a line that says
 * what was written and how to get that. */
static void
warn_output_name (const char *output,
                  gboolean    json)
{
  GraftFormat named;

  /* JSON stands for the matches' JSON here, not a graph's. */
  if (!graft_cli_output_names_other_format (output, json ? GRAFT_FORMAT_JSON : GRAFT_FORMAT_CODE,
                                            &named))
    return;
  if (named == GRAFT_FORMAT_JSON)
    graft_cli_warn_output_name (output, "the matches as text", "JSON",
                                "--json writes them as JSON");
  else if (graft_cli_format_is_drawing (named))
    graft_cli_warn_output_name (output, json ? "the matches as JSON" : "the matches as text",
                                graft_cli_format_phrase (named),
                                "graft render --pattern draws them");
}

static int
run (const GraftCliOptions *o,
     const char            *input)
{
  g_autoptr (GraftInputSet) inputs = graft_cli_input_set_new (o->dialect);
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GPtrArray) matches = NULL;
  g_autoptr (GString) text = NULL;
  g_autofree char *pattern_file = NULL;
  g_autoptr (GError) error = NULL;
  GraftMatchOptions options;
  int               status;

  status = graft_cli_load_pattern (inputs, input, o->entry, o->pattern,
                                   &graph, &pattern, &pattern_file);
  if (status != GRAFT_EXIT_OK)
    return status;

  graft_match_options_init (&options);
  options.ignore_literals = o->ignore_literals;
  matches = graft_matcher_find_full (pattern, graph, &options, NULL, &error);
  if (matches == NULL)
    return graft_cli_report (error, input);

  if (o->json)
    {
      g_autofree char *json = graft_matches_to_json (matches);

      status = graft_cli_emit_text (json, strlen (json), o->output);
      if (status == GRAFT_EXIT_OK)
        warn_output_name (o->output, TRUE);
      return graft_cli_finish (status);
    }
  text = g_string_new (NULL);
  for (guint i = 0; i < matches->len; i++)
    {
      g_autofree char *line = graft_match_to_text (matches->pdata[i]);

      g_string_append_printf (text, "match %u: %s\n", i + 1, line);
    }
  if (matches->len == 0)
    g_string_append (text, "no matches\n");
  status = graft_cli_emit_text (text->str, text->len, o->output);
  if (status == GRAFT_EXIT_OK)
    warn_output_name (o->output, FALSE);
  return graft_cli_finish (status);
}

static const GraftCliOptionUse command_options[] = {
  { GRAFT_CLI_OPTION_ENTRY, NULL },
  { GRAFT_CLI_OPTION_PATTERN, NULL },
  { GRAFT_CLI_OPTION_IGNORE_LITERALS, NULL },
  { GRAFT_CLI_OPTION_JSON, NULL },
  { GRAFT_CLI_OPTION_REPLACEMENT, "Accepted and ignored, so that match takes rewrite's options" },
  { GRAFT_CLI_OPTION_OUTPUT, NULL },
  { GRAFT_CLI_OPTION_END, NULL },
};

const GraftCommand graft_cmd_match = {
  "match",
  "list the matches replace_pattern would replace",
  "List the matches that replace_pattern would replace, in its order.",
  command_options,
  run,
};
