/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cmd-rewrite.c: `graft rewrite` (cli.md): replace a pattern in the input's
 * graph as torch.fx's `replace_pattern` does, and write the graph after it
 * in any GraftFormat: code (the default), the readable form, a listing,
 * JSON, DOT or a picture.
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
  g_autoptr (GraftGraph) replacement = NULL;
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *pattern_file = NULL;
  g_autofree char *file = NULL;
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GString) listing = NULL;
  GraftMatchOptions options;
  GraftFormat       format = GRAFT_FORMAT_CODE;
  GPtrArray        *warnings;
  int               status;
  guint             n;

  if (o->to != NULL && !graft_format_from_string (o->to, &format))
    return graft_cli_usage_error ("rewrite",
                                  "unknown format '%s' (use code, readable, graph, json, dot, "
                                  "png, svg or pdf)",
                                  o->to);
  if (format == GRAFT_FORMAT_READABLE &&
      graft_cli_check_readable ("rewrite", o->dialect) != GRAFT_EXIT_OK)
    return GRAFT_EXIT_USAGE;
  if (graft_cli_format_is_drawing (format))
    {
      status = graft_cli_check_picture_args ("rewrite", format, o->style, o->output);
      if (status != GRAFT_EXIT_OK)
        return status;
    }
  status = graft_cli_load_pattern (inputs, input, o->entry, o->pattern,
                                   &graph, &pattern, &pattern_file);
  if (status != GRAFT_EXIT_OK)
    return status;
  graft_input_parse_ref (o->replacement, pattern_file, "replacement", &file, &name);
  replacement = graft_input_set_load (inputs, file, name, TRUE, &error);
  if (replacement == NULL)
    return graft_cli_report (error, file);

  graft_match_options_init (&options);
  options.ignore_literals = o->ignore_literals;
  rewrite = graft_replace_pattern (graph, pattern, replacement, &options, &error);
  if (rewrite == NULL)
    return graft_cli_report (error, input);

  /* The rewrite's own words go to stderr, before the result is written. */
  warnings = graft_rewrite_get_warnings (rewrite);
  for (guint i = 0; i < warnings->len; i++)
    graft_cli_note ("%s: warning: %s", input, (const char *) warnings->pdata[i]);

  if (graft_cli_format_is_drawing (format))
    status = graft_cli_emit_picture (graph, NULL, format, o->style, input, o->output);
  else if (format == GRAFT_FORMAT_GRAPH)
    {
      listing = graft_listing_to_gstring (graph);
      status = graft_cli_emit_text (listing->str, listing->len, o->output);
    }
  else
    {
      text = format == GRAFT_FORMAT_JSON       ? graft_json_graph (graph)
             : format == GRAFT_FORMAT_READABLE ? graft_codegen_readable (graph)
                                               : graft_codegen_python (graph);
      status = graft_cli_emit_text (text, strlen (text), o->output);
    }
  n = graft_rewrite_get_n_replaced (rewrite);
  graft_cli_note ("replaced %u match%s", n, n == 1 ? "" : "es");
  return graft_cli_finish (status);
}

static const GraftCliOptionUse command_options[] = {
  { GRAFT_CLI_OPTION_ENTRY, NULL },
  { GRAFT_CLI_OPTION_PATTERN, NULL },
  { GRAFT_CLI_OPTION_REPLACEMENT, NULL },
  { GRAFT_CLI_OPTION_IGNORE_LITERALS, NULL },
  { GRAFT_CLI_OPTION_TO, NULL },
  { GRAFT_CLI_OPTION_STYLE, "Pictures: light (default) or dark" },
  { GRAFT_CLI_OPTION_OUTPUT, NULL },
  { GRAFT_CLI_OPTION_END, NULL },
};

const GraftCommand graft_cmd_rewrite = {
  "rewrite",
  "print the graph after replace_pattern(gm, pattern, replacement)",
  "Print the graph after replace_pattern(gm, pattern, replacement).",
  command_options,
  run,
};
