/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cmd-rewrite.c: `graft match` and `graft rewrite` (cli.md): find a pattern
 * in the input's graph as torch.fx's SubgraphMatcher does, and replace it
 * as `replace_pattern` does.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd.h"

typedef struct
{
  char    *entry;
  char    *pattern;
  char    *replacement;
  char    *to;
  char    *style;
  char    *output;
  gboolean ignore_literals;
  gboolean json;
} Options;

static void
options_clear (Options *o)
{
  g_free (o->entry);
  g_free (o->pattern);
  g_free (o->replacement);
  g_free (o->to);
  g_free (o->style);
  g_free (o->output);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

int
graft_cmd_match (int    argc,
                 char **argv)
{
  g_auto(Options) o = { 0 };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GraftInputSet) inputs = graft_cli_input_set_new ();
  g_autoptr(GraftGraph) graph = NULL;
  g_autoptr(GraftPattern) pattern = NULL;
  g_autoptr(GPtrArray) matches = NULL;
  g_autoptr(GString) text = NULL;
  g_autofree char *pattern_file = NULL;
  GraftMatchOptions options;
  const char *input = NULL;
  int status;
  const GOptionEntry entries[] = {
    { "entry", 0, 0, G_OPTION_ARG_STRING, &o.entry, "The class or function to trace", "NAME" },
    { "pattern", 0, 0, G_OPTION_ARG_STRING, &o.pattern, "The pattern: FILE:NAME, NAME or FILE (default: INPUT:pattern)", "REF" },
    { "ignore-literals", 0, 0, G_OPTION_ARG_NONE, &o.ignore_literals, "A literal in the pattern matches any literal", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, "Print the matches as JSON", NULL },
    { "replacement", 0, 0, G_OPTION_ARG_STRING, &o.replacement, "Accepted and ignored, so that match takes rewrite's options", "REF" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, "Write to PATH instead of standard output", "PATH" },
    { NULL },
  };

  context = g_option_context_new ("INPUT");
  g_option_context_set_summary (context, "List the matches that replace_pattern would replace, in its order.");
  g_option_context_add_main_entries (context, entries, NULL);
  if ((status = graft_cli_parse (context, &argc, &argv, "match")) != GRAFT_EXIT_OK)
    return status;
  if ((status = graft_cli_one_input (argc, argv, "match", &input)) != GRAFT_EXIT_OK)
    return status;
  if ((status = graft_cli_load_pattern (inputs, input, o.entry, o.pattern, &graph, &pattern, &pattern_file)) != GRAFT_EXIT_OK)
    return status;

  graft_match_options_init (&options);
  options.ignore_literals = o.ignore_literals;
  matches = graft_matcher_find (pattern, graph, &options, NULL);

  if (o.json)
    {
      g_autofree char *json = graft_matches_to_json (matches);

      return graft_cli_finish (graft_cli_emit_text (json, strlen (json), o.output));
    }
  text = g_string_new (NULL);
  for (guint i = 0; i < matches->len; i++)
    {
      g_autofree char *line = graft_match_to_text (matches->pdata[i]);

      g_string_append_printf (text, "match %u: %s\n", i + 1, line);
    }
  if (matches->len == 0)
    g_string_append (text, "no matches\n");
  return graft_cli_finish (graft_cli_emit_text (text->str, text->len, o.output));
}

int
graft_cmd_explain (int    argc,
                   char **argv)
{
  g_auto(Options) o = { 0 };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GraftInputSet) inputs = graft_cli_input_set_new ();
  g_autoptr(GraftGraph) graph = NULL;
  g_autoptr(GraftPattern) pattern = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *pattern_file = NULL;
  g_autofree char *at = NULL;
  g_autofree char *sentence = NULL;
  GraftMatchOptions options;
  GraftNode *node;
  const char *input = NULL;
  int status;
  const GOptionEntry entries[] = {
    { "entry", 0, 0, G_OPTION_ARG_STRING, &o.entry, "The class or function to trace", "NAME" },
    { "pattern", 0, 0, G_OPTION_ARG_STRING, &o.pattern, "The pattern: FILE:NAME, NAME or FILE (default: INPUT:pattern)", "REF" },
    { "ignore-literals", 0, 0, G_OPTION_ARG_NONE, &o.ignore_literals, "A literal in the pattern matches any literal", NULL },
    { "at", 0, 0, G_OPTION_ARG_STRING, &at, "The graph node where the pattern's result should match", "NODE" },
    { NULL },
  };

  context = g_option_context_new ("INPUT");
  g_option_context_set_summary (context, "Say why the pattern does (not) match with its result at NODE.");
  g_option_context_add_main_entries (context, entries, NULL);
  if ((status = graft_cli_parse (context, &argc, &argv, "explain")) != GRAFT_EXIT_OK)
    return status;
  if ((status = graft_cli_one_input (argc, argv, "explain", &input)) != GRAFT_EXIT_OK)
    return status;
  if (at == NULL)
    {
      fprintf (stderr, "graft explain: --at NODE is required\n");
      return GRAFT_EXIT_USAGE;
    }
  if ((status = graft_cli_load_pattern (inputs, input, o.entry, o.pattern, &graph, &pattern, &pattern_file)) != GRAFT_EXIT_OK)
    return status;
  node = graft_graph_find_node (graph, at);
  if (node == NULL)
    {
      graft_set_error_at (&error, input, 1, 1, GRAFT_PARSE_ERROR_NAME, "the graph has no node named '%s'", at);
      return graft_cli_report (error, input);
    }
  graft_match_options_init (&options);
  options.ignore_literals = o.ignore_literals;
  sentence = graft_matcher_explain (pattern, graph, node, &options, NULL);
  return graft_cli_finish (graft_cli_emit_text (sentence, strlen (sentence), NULL));
}

int
graft_cmd_rewrite (int    argc,
                   char **argv)
{
  g_auto(Options) o = { 0 };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GraftInputSet) inputs = graft_cli_input_set_new ();
  g_autoptr(GraftGraph) graph = NULL;
  g_autoptr(GraftPattern) pattern = NULL;
  g_autoptr(GraftGraph) replacement = NULL;
  g_autoptr(GraftRewrite) rewrite = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *pattern_file = NULL;
  g_autofree char *file = NULL;
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GString) listing = NULL;
  GraftMatchOptions options;
  const char *input = NULL;
  const char *to;
  int status;
  guint n;
  const GOptionEntry entries[] = {
    { "entry", 0, 0, G_OPTION_ARG_STRING, &o.entry, "The class or function to trace", "NAME" },
    { "pattern", 0, 0, G_OPTION_ARG_STRING, &o.pattern, "The pattern: FILE:NAME, NAME or FILE (default: INPUT:pattern)", "REF" },
    { "replacement", 0, 0, G_OPTION_ARG_STRING, &o.replacement, "The replacement (default: the pattern's file:replacement)", "REF" },
    { "ignore-literals", 0, 0, G_OPTION_ARG_NONE, &o.ignore_literals, "A literal in the pattern matches any literal", NULL },
    { "to", 0, 0, G_OPTION_ARG_STRING, &o.to, "The output format: code (default), graph, json, dot, png, svg or pdf", "FORMAT" },
    { "style", 0, 0, G_OPTION_ARG_STRING, &o.style, "Pictures: light (default) or dark", "STYLE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, "Write to PATH instead of standard output", "PATH" },
    { NULL },
  };

  context = g_option_context_new ("INPUT");
  g_option_context_set_summary (context, "Print the graph after replace_pattern(gm, pattern, replacement).");
  g_option_context_add_main_entries (context, entries, NULL);
  if ((status = graft_cli_parse (context, &argc, &argv, "rewrite")) != GRAFT_EXIT_OK)
    return status;
  if ((status = graft_cli_one_input (argc, argv, "rewrite", &input)) != GRAFT_EXIT_OK)
    return status;
  to = o.to != NULL ? o.to : "code";
  if (strcmp (to, "code") != 0 && strcmp (to, "graph") != 0 && strcmp (to, "json") != 0)
    {
      if (strcmp (to, "dot") != 0 && strcmp (to, "png") != 0 && strcmp (to, "svg") != 0 && strcmp (to, "pdf") != 0)
        {
          fprintf (stderr, "graft rewrite: unknown format '%s' (use code, graph, json, dot, png, svg or pdf)\n", to);
          return GRAFT_EXIT_USAGE;
        }
      if ((status = graft_cli_check_picture_args ("rewrite", to, o.style, o.output)) != GRAFT_EXIT_OK)
        return status;
    }
  if ((status = graft_cli_load_pattern (inputs, input, o.entry, o.pattern, &graph, &pattern, &pattern_file)) != GRAFT_EXIT_OK)
    return status;
  graft_input_parse_ref (o.replacement, pattern_file, "replacement", &file, &name);
  replacement = graft_input_set_load (inputs, file, name, TRUE, &error);
  if (replacement == NULL)
    return graft_cli_report (error, file);

  graft_match_options_init (&options);
  options.ignore_literals = o.ignore_literals;
  rewrite = graft_replace_pattern (graph, pattern, replacement, &options, &error);
  if (rewrite == NULL)
    return graft_cli_report (error, input);

  /* The rewrite's own words go to stderr, before the result is written. */
  for (guint i = 0; i < graft_rewrite_get_warnings (rewrite)->len; i++)
    fprintf (stderr, "%s: warning: %s\n", input, (const char *) graft_rewrite_get_warnings (rewrite)->pdata[i]);

  if (strcmp (to, "dot") == 0 || strcmp (to, "png") == 0 || strcmp (to, "svg") == 0 || strcmp (to, "pdf") == 0)
    status = graft_cli_emit_picture (graph, NULL, to, o.style, input, o.output);
  else if (strcmp (to, "graph") == 0)
    {
      listing = graft_listing_to_gstring (graph);
      status = graft_cli_emit_text (listing->str, listing->len, o.output);
    }
  else
    {
      text = strcmp (to, "json") == 0 ? graft_json_graph (graph) : graft_codegen_python (graph);
      status = graft_cli_emit_text (text, strlen (text), o.output);
    }
  n = graft_rewrite_get_n_replaced (rewrite);
  fprintf (stderr, "replaced %u match%s\n", n, n == 1 ? "" : "es");
  return graft_cli_finish (status);
}
