/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cmd-render.c: `graft render` (cli.md): a picture of the input's graph
 * laid out by Graphviz, with every match of a pattern highlighted, as PNG,
 * SVG, PDF or DOT.  Also the picture writer that `graft rewrite --to
 * png|svg|pdf|dot` shares.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd.h"

/* The formats `--to` takes for pictures; DOT is text. */
static gboolean
is_picture_format (const char *to)
{
  return g_strcmp0 (to, "png") == 0 || g_strcmp0 (to, "svg") == 0 ||
         g_strcmp0 (to, "pdf") == 0 || g_strcmp0 (to, "dot") == 0;
}

/**
 * graft_cli_check_picture_args:
 * @command: the command, for messages
 * @to: the format
 * @style: (nullable): `light` or `dark`
 * @output: (nullable): the -o path
 *
 * Returns: an exit status: usage errors for a picture without -o or an
 *   unknown style
 */
int
graft_cli_check_picture_args (const char *command,
                              const char *to,
                              const char *style,
                              const char *output)
{
  if (!is_picture_format (to))
    {
      fprintf (stderr, "graft %s: unknown format '%s' (use png, svg, pdf or dot)\n", command, to);
      return GRAFT_EXIT_USAGE;
    }
  if (strcmp (to, "dot") != 0 && output == NULL)
    {
      fprintf (stderr, "graft %s: --to %s needs -o PATH\n", command, to);
      return GRAFT_EXIT_USAGE;
    }
  if (style != NULL && strcmp (style, "light") != 0 && strcmp (style, "dark") != 0)
    {
      fprintf (stderr, "graft %s: unknown style '%s' (use light or dark)\n", command, style);
      return GRAFT_EXIT_USAGE;
    }
  return GRAFT_EXIT_OK;
}

/**
 * graft_cli_emit_picture:
 * @graph: the graph to draw
 * @marks: (nullable): per graph node, the match it belongs to or -1
 * @to: `png`, `svg`, `pdf` or `dot`
 * @style: (nullable): `light` (default) or `dark`
 * @input: the input's name, for errors
 * @output: (nullable): where to write; DOT goes to stdout without it
 *
 * Returns: an exit status
 */
int
graft_cli_emit_picture (GraftGraph *graph,
                        const gint *marks,
                        const char *to,
                        const char *style,
                        const char *input,
                        const char *output)
{
  if (strcmp (to, "dot") == 0)
    {
      GraftDotOptions dot_options;
      g_autofree char *dot = NULL;

      graft_dot_options_init (&dot_options);
      dot_options.style = g_strcmp0 (style, "dark") == 0 ? GRAFT_DOT_DARK : GRAFT_DOT_LIGHT;
      dot_options.node_match = marks;
      dot = graft_dot_print (graph, &dot_options);
      return graft_cli_emit_text (dot, strlen (dot), output);
    }
#ifdef GRAFT_CLI_LEAN
  /* graft-cli.c hands pictures to graft-render before any of this. */
  g_return_val_if_reached (GRAFT_EXIT_USAGE);
#else
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftLayout) layout = NULL;
  g_autoptr (GBytes) bytes = NULL;
  GraftRenderOptions options;
  GraftFormat format;
  gsize length;
  const char *data;

  if (!graft_format_from_string (to, &format) || !graft_format_is_picture (format))
    g_return_val_if_reached (GRAFT_EXIT_USAGE);
  layout = graft_layout_new (graph, &error);
  if (layout == NULL)
    return graft_cli_report (error, input);
  graft_render_options_init (&options);
  options.style = g_strcmp0 (style, "dark") == 0 ? GRAFT_RENDER_DARK : GRAFT_RENDER_LIGHT;
  options.node_match = marks;
  bytes = graft_render_to_bytes (layout, format, &options, &error);
  if (bytes == NULL)
    return graft_cli_report (error, input);
  data = g_bytes_get_data (bytes, &length);
  if (!graft_export_write_file (output, data, length, &error))
    return graft_cli_report (error, output);
  return GRAFT_EXIT_OK;
#endif
}

typedef struct
{
  char    *entry;
  char    *pattern;
  char    *to;
  char    *style;
  char    *output;
  gboolean ignore_literals;
} Options;

static void
options_clear (Options *o)
{
  g_free (o->entry);
  g_free (o->pattern);
  g_free (o->to);
  g_free (o->style);
  g_free (o->output);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

/* The format named by -o's extension, when --to is not given. */
static const char *
format_from_path (const char *path)
{
  static const char *const formats[] = { "png", "svg", "pdf", "dot" };
  const char *dot = path != NULL ? strrchr (path, '.') : NULL;

  if (dot == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (g_ascii_strcasecmp (dot + 1, formats[i]) == 0)
      return formats[i];
  return NULL;
}

int
graft_cmd_render (int    argc,
                  char **argv)
{
  g_auto (Options) o = { 0 };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GraftInputSet) inputs = graft_input_set_new ();
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree gint *marks = NULL;
  const char *input = NULL;
  const char *to;
  int status;
  const GOptionEntry entries[] = {
    { "entry", 0, 0, G_OPTION_ARG_STRING, &o.entry, "The class or function to trace", "NAME" },
    { "pattern", 0, 0, G_OPTION_ARG_STRING, &o.pattern, "Highlight every match of this pattern: FILE:NAME, NAME or FILE", "REF" },
    { "ignore-literals", 0, 0, G_OPTION_ARG_NONE, &o.ignore_literals, "A literal in the pattern matches any literal", NULL },
    { "to", 0, 0, G_OPTION_ARG_STRING, &o.to, "png, svg, pdf or dot (default: from -o's extension)", "FORMAT" },
    { "style", 0, 0, G_OPTION_ARG_STRING, &o.style, "light (default) or dark", "STYLE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, "Write to PATH (DOT: standard output without it)", "PATH" },
    { NULL },
  };

  context = g_option_context_new ("INPUT");
  g_option_context_set_summary (context, "Draw the graph laid out by Graphviz, with every match of a pattern highlighted.");
  g_option_context_add_main_entries (context, entries, NULL);
  if ((status = graft_cli_parse (context, &argc, &argv, "render")) != GRAFT_EXIT_OK)
    return status;
  if ((status = graft_cli_one_input (argc, argv, "render", &input)) != GRAFT_EXIT_OK)
    return status;
  to = o.to != NULL ? o.to : format_from_path (o.output);
  if (to == NULL)
    {
      fprintf (stderr, "graft render: --to png|svg|pdf|dot is required\n");
      return GRAFT_EXIT_USAGE;
    }
  if ((status = graft_cli_check_picture_args ("render", to, o.style, o.output)) != GRAFT_EXIT_OK)
    return status;

  if (o.pattern == NULL)
    {
      graph = graft_input_set_load (inputs, input, o.entry, FALSE, &error);
      if (graph == NULL)
        return graft_cli_report (error, input);
    }
  else
    {
      g_autoptr (GraftPattern) pattern = NULL;
      g_autoptr (GPtrArray) matches = NULL;
      g_autofree char *pattern_file = NULL;
      GraftMatchOptions match_options;

      status = graft_cli_load_pattern (inputs, input, o.entry, o.pattern, &graph, &pattern, &pattern_file);
      if (status != GRAFT_EXIT_OK)
        return status;
      graft_match_options_init (&match_options);
      match_options.ignore_literals = o.ignore_literals;
      matches = graft_matcher_find (pattern, graph, &match_options, NULL);
      marks = graft_matches_dup_node_marks (matches, graph);
      fprintf (stderr, "%u match%s\n", matches->len, matches->len == 1 ? "" : "es");
    }
  return graft_cli_finish (graft_cli_emit_picture (graph, marks, to, o.style, input, o.output));
}
