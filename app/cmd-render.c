/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cmd-render.c: `graft render` (cli.md): a picture of the input's graph
 * laid out by Graphviz, with every match of a pattern highlighted, as PNG,
 * SVG, PDF or DOT.  Also the picture writer that `graft rewrite --to
 * png|svg|pdf|dot` shares.
 */
#include "config.h"

#include <string.h>

#include "cmd.h"

/**
 * graft_cli_format_is_drawing:
 * @format: a format
 *
 * Returns: whether `render` draws @format: a picture, or DOT (the text
 *   Graphviz lays out)
 */
gboolean
graft_cli_format_is_drawing (GraftFormat format)
{
  return format == GRAFT_FORMAT_DOT || graft_format_is_picture (format);
}

/**
 * graft_cli_check_picture_args:
 * @command: the command, for messages
 * @format: a drawing (graft_cli_format_is_drawing())
 * @style: (nullable): `light` or `dark`
 * @output: (nullable): the -o path
 *
 * Returns: an exit status: usage errors for a picture without -o or an
 *   unknown style
 */
int
graft_cli_check_picture_args (const char *command,
                              GraftFormat format,
                              const char *style,
                              const char *output)
{
  if (graft_format_is_picture (format) && output == NULL)
    return graft_cli_usage_error (command, "--to %s needs -o PATH", graft_format_get_name (format));
  if (style != NULL && strcmp (style, "light") != 0 && strcmp (style, "dark") != 0)
    return graft_cli_usage_error (command, "unknown style '%s' (use light or dark)", style);
  return GRAFT_EXIT_OK;
}

/**
 * graft_cli_emit_picture:
 * @graph: the graph to draw
 * @marks: (nullable): per graph node, the match it belongs to or -1
 * @format: a drawing (graft_cli_format_is_drawing())
 * @style: (nullable): `light` (default) or `dark`
 * @input: the input's name, for errors
 * @output: (nullable): where to write; DOT goes to stdout without it
 *
 * Returns: an exit status
 */
int
graft_cli_emit_picture (GraftGraph *graph,
                        const gint *marks,
                        GraftFormat format,
                        const char *style,
                        const char *input,
                        const char *output)
{
  if (format == GRAFT_FORMAT_DOT)
    {
      GraftDotOptions  dot_options;
      g_autofree char *dot = NULL;

      graft_dot_options_init (&dot_options);
      dot_options.style = g_strcmp0 (style, "dark") == 0 ? GRAFT_DOT_DARK : GRAFT_DOT_LIGHT;
      dot_options.node_match = marks;
      dot = graft_dot_print (graph, &dot_options);
      return graft_cli_emit_text (dot, strlen (dot), output);
    }
#ifdef GRAFT_CLI_LEAN
  /* cli-process.c hands pictures to graft-render before any of this. */
  g_return_val_if_reached (GRAFT_EXIT_USAGE);
#else
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftLayout) layout = NULL;
  g_autoptr (GBytes) bytes = NULL;
  GraftRenderOptions options;
  gsize              length;
  const char        *data;

  g_return_val_if_fail (graft_format_is_picture (format), GRAFT_EXIT_USAGE);
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
  return graft_cli_emit_file (data, length, output);
#endif
}

/* Without --to, the format is -o's extension: says what is wrong with
 * @output (NULL: no -o either) as the way to name one. */
static int
refuse_output_name (const char *output)
{
  const char *base = output != NULL ? strrchr (output, G_DIR_SEPARATOR) : NULL;
  const char *dot;

  base = base != NULL ? base + 1 : output;
  dot = base != NULL ? strrchr (base, '.') : NULL;
  if (output == NULL)
    return graft_cli_usage_error ("render", "missing the format: give --to png|svg|pdf|dot, or -o "
                                            "PATH ending in .png, .svg, .pdf or .dot");
  if (dot == NULL || dot[1] == '\0')
    return graft_cli_usage_error ("render",
                                  "-o %s: no extension to take the format from; give --to "
                                  "png|svg|pdf|dot, or end PATH in .png, .svg, .pdf or .dot",
                                  output);
  return graft_cli_usage_error ("render",
                                "-o %s: render writes .png, .svg, .pdf or .dot, not %s (or give "
                                "--to png|svg|pdf|dot)",
                                output, dot);
}

static int
run (const GraftCliOptions *o,
     const char            *input)
{
  g_autoptr (GraftInputSet) inputs = graft_cli_input_set_new (o->dialect);
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree gint *marks = NULL;
  GraftFormat      format;
  int              status;

  if (o->to != NULL)
    {
      if (!graft_format_from_string (o->to, &format) || !graft_cli_format_is_drawing (format))
        return graft_cli_usage_error ("render", "unknown format '%s' (use png, svg, pdf or dot)",
                                      o->to);
    }
  else if (!graft_format_from_path (o->output, &format) || !graft_cli_format_is_drawing (format))
    return refuse_output_name (o->output);
  status = graft_cli_check_picture_args ("render", format, o->style, o->output);
  if (status != GRAFT_EXIT_OK)
    return status;

  if (o->pattern == NULL)
    {
      graph = graft_cli_load_input (inputs, input, o->entry, &error);
      if (graph == NULL)
        return graft_cli_report (error, input);
    }
  else
    {
      g_autoptr (GraftPattern) pattern = NULL;
      g_autoptr (GPtrArray) matches = NULL;
      g_autofree char  *pattern_file = NULL;
      GraftMatchOptions match_options;

      status = graft_cli_load_pattern (inputs, input, o->entry, o->pattern,
                                       &graph, &pattern, &pattern_file);
      if (status != GRAFT_EXIT_OK)
        return status;
      graft_match_options_init (&match_options);
      match_options.ignore_literals = o->ignore_literals;
      matches = graft_matcher_find (pattern, graph, &match_options, NULL);
      marks = graft_matches_dup_node_marks (matches, graph);
      graft_cli_note ("%u match%s", matches->len, matches->len == 1 ? "" : "es");
    }
  status = graft_cli_emit_picture (graph, marks, format, o->style, input, o->output);
  return graft_cli_finish (status);
}

static const GraftCliOptionUse command_options[] = {
  { GRAFT_CLI_OPTION_ENTRY, NULL },
  { GRAFT_CLI_OPTION_PATTERN, "Highlight every match of this pattern: FILE:NAME, NAME or FILE" },
  { GRAFT_CLI_OPTION_IGNORE_LITERALS, NULL },
  { GRAFT_CLI_OPTION_TO, "png, svg, pdf or dot (default: from -o's extension)" },
  { GRAFT_CLI_OPTION_STYLE, NULL },
  { GRAFT_CLI_OPTION_OUTPUT, "Write to PATH (DOT: standard output without it)" },
  { GRAFT_CLI_OPTION_END, NULL },
};

const GraftCommand graft_cmd_render = {
  "render",
  "draw the graph laid out by Graphviz, matches highlighted",
  "Draw the graph laid out by Graphviz, with every match of a pattern highlighted.",
  command_options,
  run,
};
