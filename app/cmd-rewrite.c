/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cmd-rewrite.c: `graft rewrite` (cli.md): replace a pattern in the input's
 * graph as torch.fx's `replace_pattern` does, or run the rules of a rules
 * file (`--rules`, `--fixpoint`), remove dead code if asked (`--dce`), and
 * write the graph after it in any GraftFormat (code by default, the
 * readable form, a listing, JSON, DOT or a picture), or the rewrite itself
 * as a torch.fx pass (`--to pass`).
 */
#include "config.h"

#include <string.h>

#include "cmd.h"

/* What the command applies: one pair, or the rules of a file. */
typedef struct
{
  /* Owned */
  GraftPattern *pattern; /* one pair: */
  GraftGraph   *replacement;
  char         *pattern_file;
  char         *pattern_name;
  char         *replacement_file;
  char         *replacement_name;
  GraftRuleSet *rules; /* or rules: */
  GPtrArray    *refs;  /* GraftPyRuleRef */
} Rewriting;

static void
rewriting_clear (Rewriting *rw)
{
  g_clear_pointer (&rw->pattern, graft_pattern_unref);
  g_clear_pointer (&rw->replacement, graft_graph_free);
  g_free (rw->pattern_file);
  g_free (rw->pattern_name);
  g_free (rw->replacement_file);
  g_free (rw->replacement_name);
  g_clear_pointer (&rw->rules, graft_rule_set_free);
  g_clear_pointer (&rw->refs, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Rewriting, rewriting_clear)

/* --style with a format that is no drawing (it was ignored without a
 * word). */
static void
warn_style_ignored (const GraftCliOptions *o,
                    const char            *format)
{
  if (o->style != NULL)
    graft_cli_note ("graft rewrite: warning: --style %s is ignored: it styles pictures and DOT "
                    "(--to png, svg, pdf or dot), not %s",
                    o->style, format);
}

/* The options that go together, as cli.md and the oracle have them. */
static int
check_options (const GraftCliOptions *o,
               gboolean               to_pass,
               GraftFormat            format)
{
  if (o->rules != NULL && (o->pattern != NULL || o->replacement != NULL))
    return graft_cli_usage_error ("rewrite", "--rules takes the place of --pattern and "
                                             "--replacement");
  if (o->fixpoint != -1 && o->rules == NULL)
    return graft_cli_usage_error ("rewrite", "--fixpoint N goes with --rules");
  if (o->fixpoint != -1 && o->fixpoint < 1)
    return graft_cli_usage_error ("rewrite", "--fixpoint %s: N must be 1 or more",
                                  o->fixpoint_arg);
  if (to_pass)
    {
      if (o->ignore_literals && !o->dialect->has_ignore_literals)
        return graft_cli_usage_error ("rewrite",
                                      "--to pass --ignore-literals: torch %s's replace_pattern "
                                      "has no ignore_literals (use --torch 2.6)",
                                      o->dialect->version);
      warn_style_ignored (o, "pass");
      return GRAFT_EXIT_OK;
    }
  if (format == GRAFT_FORMAT_READABLE &&
      graft_cli_check_readable ("rewrite", o->dialect) != GRAFT_EXIT_OK)
    return GRAFT_EXIT_USAGE;
  if (graft_cli_format_is_drawing (format))
    return graft_cli_check_picture_args ("rewrite", format, o->style, o->output);
  warn_style_ignored (o, graft_format_get_name (format));
  return GRAFT_EXIT_OK;
}

/* Loads INPUT's graph and what rewrites it. */
static int
load (const GraftCliOptions *o,
      GraftInputSet         *inputs,
      const char            *input,
      GraftGraph           **out_graph,
      Rewriting             *rw)
{
  g_autoptr (GError) error = NULL;

  if (o->rules == NULL)
    {
      int status = graft_cli_load_pattern (inputs, input, o->entry, o->pattern, out_graph,
                                           &rw->pattern, &rw->pattern_file);

      if (status != GRAFT_EXIT_OK)
        return status;
      g_autofree char *ignored = NULL;
      graft_input_parse_ref (o->pattern, input, "pattern", &ignored, &rw->pattern_name);
      graft_input_parse_ref (o->replacement, rw->pattern_file, "replacement",
                             &rw->replacement_file, &rw->replacement_name);
      rw->replacement =
          graft_input_set_load (inputs, rw->replacement_file, rw->replacement_name, TRUE, &error);
      if (rw->replacement == NULL)
        return graft_cli_report (error, rw->replacement_file);
      graft_cli_warn_ref_name_ignored (inputs, "--replacement", o->replacement,
                                       rw->replacement_file, rw->replacement_name, "replacement");
      return GRAFT_EXIT_OK;
    }
  *out_graph = graft_cli_load_input (inputs, input, o->entry, &error);
  if (*out_graph == NULL)
    return graft_cli_report (error, input);
  rw->rules = graft_input_set_load_rules (inputs, o->rules, &rw->refs, &error);
  if (rw->rules == NULL)
    return graft_cli_report (error, o->rules);
  return GRAFT_EXIT_OK;
}

/* The source of a pattern or replacement @path, which a pass copies: it
 * must be Python. */
static GraftSource *
pass_source (GraftInputSet *inputs,
             const char    *path,
             GError       **error)
{
  GraftSource *source = graft_input_set_get_source (inputs, path, error);

  if (source != NULL && graft_input_detect (source) != GRAFT_INPUT_PYTHON)
    {
      graft_set_error_at (error, path, 1, 1, GRAFT_PARSE_ERROR_NAME,
                          "a pass holds the pattern and replacement as Python; this file is "
                          "not Python");
      return NULL;
    }
  return source;
}

/* `--to pass`: the rewrite as a standalone torch.fx pass. */
static int
emit_pass (const GraftCliOptions *o,
           GraftInputSet         *inputs,
           Rewriting             *rw,
           gint64                *emit_start)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) rules = g_array_new (FALSE, TRUE, sizeof (GraftPassRule));
  g_autofree char *origin = NULL;
  g_autofree char *text = NULL;
  GraftPassOptions options = { 0 };
  GraftPassRule    rule;

  if (rw->rules != NULL)
    {
      GraftSource *source = pass_source (inputs, o->rules, &error);

      if (source == NULL)
        return graft_cli_report (error, o->rules);
      for (guint i = 0; i < rw->refs->len; i++)
        {
          GraftPyRuleRef *ref = rw->refs->pdata[i];

          rule.pattern_source = source;
          rule.pattern = ref->pattern_entry;
          rule.replacement_source = source;
          rule.replacement = ref->replacement_entry;
          g_array_append_val (rules, rule);
        }
      origin = g_path_get_basename (o->rules);
    }
  else
    {
      rule.pattern_source = pass_source (inputs, rw->pattern_file, &error);
      if (rule.pattern_source == NULL)
        return graft_cli_report (error, rw->pattern_file);
      rule.replacement_source = pass_source (inputs, rw->replacement_file, &error);
      if (rule.replacement_source == NULL)
        return graft_cli_report (error, rw->replacement_file);
      rule.pattern = rw->pattern_name;
      rule.replacement = rw->replacement_name;
      g_array_append_val (rules, rule);
      origin = g_path_get_basename (rw->pattern_file);
    }
  options.dialect = o->dialect;
  options.origin = origin;
  options.fixpoint = o->fixpoint > 0 ? (guint) o->fixpoint : 0;
  options.dce = o->dce;
  options.ignore_literals = o->ignore_literals;
  text = graft_pass_write ((const GraftPassRule *) (gpointer) rules->data, rules->len, &options,
                           &error);
  if (text == NULL)
    return graft_cli_report (error, o->rules != NULL ? o->rules : rw->pattern_file);
  *emit_start = g_get_monotonic_time ();
  return graft_cli_emit_text (text, strlen (text), o->output);
}

/* The graph after the rewrite, in @format; @emit_start: when writing
 * began, after printing (pictures: when drawing began). */
static int
emit_graph (const GraftCliOptions *o,
            GraftGraph            *graph,
            GraftFormat            format,
            const char            *input,
            gint64                *emit_start)
{
  g_autofree char *text = NULL;
  g_autoptr (GString) listing = NULL;

  if (graft_cli_format_is_drawing (format))
    {
      *emit_start = g_get_monotonic_time ();
      return graft_cli_emit_picture (graph, NULL, format, o->style, input, o->output);
    }
  if (format == GRAFT_FORMAT_GRAPH)
    {
      listing = graft_listing_to_gstring (graph);
      *emit_start = g_get_monotonic_time ();
      return graft_cli_emit_text (listing->str, listing->len, o->output);
    }
  text = format == GRAFT_FORMAT_JSON       ? graft_json_graph (graph)
         : format == GRAFT_FORMAT_READABLE ? graft_codegen_readable (graph)
                                           : graft_codegen_python (graph);
  *emit_start = g_get_monotonic_time ();
  return graft_cli_emit_text (text, strlen (text), o->output);
}

static void
note_warnings (GraftRewrite *rewrite,
               const char   *input)
{
  GPtrArray *warnings = graft_rewrite_get_warnings (rewrite);

  for (guint i = 0; i < warnings->len; i++)
    graft_cli_note ("%s: warning: %s", input, (const char *) warnings->pdata[i]);
}

static int
run (const GraftCliOptions *o,
     const char            *input)
{
  g_autoptr (GraftInputSet) inputs = graft_cli_input_set_new (o->dialect);
  g_autoptr (GraftGraph) graph = NULL;
  g_auto (Rewriting) rw = { 0 };
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autoptr (GraftRulesRun) rules_run = NULL;
  g_autoptr (GraftEdit) dce = NULL;
  g_autoptr (GError) error = NULL;
  GraftRulesOptions options;
  GraftFormat       format = GRAFT_FORMAT_CODE;
  GraftFormat       named;
  gboolean          to_pass = o->to != NULL && strcmp (o->to, "pass") == 0;
  int               status;
  guint             n;
  /* For GRAFT_CLI_TIMINGS: load, match and rewrite (or rules), dce,
   * print, emit. */
  GraftCliPhase phases[6];
  guint         n_phases = 0;
  gint64        emit_start;

  if (o->to != NULL && !to_pass && !graft_format_from_string (o->to, &format))
    return graft_cli_usage_error ("rewrite",
                                  "unknown format '%s' (use code, readable, graph, json, dot, "
                                  "pass, png, svg or pdf)",
                                  o->to);
  status = check_options (o, to_pass, format);
  if (status != GRAFT_EXIT_OK)
    return status;
  phases[n_phases++] = (GraftCliPhase){ "load", g_get_monotonic_time () };
  status = load (o, inputs, input, &graph, &rw);
  if (status != GRAFT_EXIT_OK)
    return status;

  graft_rules_options_init (&options);
  options.match.ignore_literals = o->ignore_literals;
  options.fixpoint = o->fixpoint > 0 ? (guint) o->fixpoint : 0;
  if (rw.rules != NULL)
    {
      phases[n_phases++] = (GraftCliPhase){ "rules", g_get_monotonic_time () };
      rules_run = graft_rules_apply (graph, rw.rules, &options, &error);
      if (rules_run == NULL)
        return graft_cli_report (error, input);
      for (guint i = 0; i < graft_rules_run_get_n_steps (rules_run); i++)
        note_warnings (graft_rules_run_get_rewrite (rules_run, i), input);
      n = graft_rules_run_get_n_replaced (rules_run);
    }
  else
    {
      /* graft_replace_pattern() in its two steps, each timed. */
      g_autoptr (GPtrArray) matches = NULL;

      phases[n_phases++] = (GraftCliPhase){ "match", g_get_monotonic_time () };
      matches = graft_matcher_find_full (rw.pattern, graph, &options.match, NULL, &error);
      if (matches == NULL)
        return graft_cli_report (error, input);
      phases[n_phases++] = (GraftCliPhase){ "rewrite", g_get_monotonic_time () };
      rewrite = graft_rewriter_apply (graph, rw.pattern, rw.replacement, matches, &error);
      if (rewrite == NULL)
        return graft_cli_report (error, input);
      note_warnings (rewrite, input);
      n = graft_rewrite_get_n_replaced (rewrite);
    }
  if (o->dce)
    {
      phases[n_phases++] = (GraftCliPhase){ "dce", g_get_monotonic_time () };
      dce = graft_eliminate_dead_code (graph, NULL, &error);
      if (dce == NULL)
        {
          g_clear_pointer (&rewrite, graft_rewrite_free);
          g_clear_pointer (&rules_run, graft_rules_run_free);
          return graft_cli_report (error, input);
        }
    }

  /* torch's replace_pattern ends in gm.recompile(), which fails on code
   * that does not compile: a program's inputs are named by its archive
   * (a traced graph's names are Python's already). */
  if (!graft_codegen_check_module (graph, &error))
    {
      g_clear_pointer (&dce, graft_edit_free);
      g_clear_pointer (&rewrite, graft_rewrite_free);
      g_clear_pointer (&rules_run, graft_rules_run_free);
      return graft_cli_finish (graft_cli_report (error, input));
    }
  phases[n_phases++] = (GraftCliPhase){ "print", g_get_monotonic_time () };
  emit_start = 0;
  status = to_pass ? emit_pass (o, inputs, &rw, &emit_start)
                   : emit_graph (o, graph, format, input, &emit_start);
  if (status != GRAFT_EXIT_OK)
    {
      /* The error said it all: no "replaced N matches" after it, as if
       * the command had done its work. */
      g_clear_pointer (&dce, graft_edit_free);
      g_clear_pointer (&rewrite, graft_rewrite_free);
      g_clear_pointer (&rules_run, graft_rules_run_free);
      return graft_cli_finish (status);
    }

  /* -o out.png without --to: code, as cli.md and the oracle have it,
   * and a line that says so. */
  if (o->to == NULL && graft_cli_output_names_other_format (o->output, format, &named))
    {
      g_autofree char *hint = g_strdup_printf ("--to %s writes one", graft_format_get_name (named));

      graft_cli_warn_output_name (o->output, graft_cli_format_phrase (format),
                                  graft_cli_format_phrase (named), hint);
    }

  /* After the output, as fx-reference prints them: a line per call, the
   * bound's warning, the total. */
  for (guint i = 0; rules_run != NULL && i < graft_rules_run_get_n_steps (rules_run); i++)
    {
      const GraftRuleStep *step = graft_rules_run_get_step (rules_run, i);

      graft_cli_note ("pass %u, rule %u (%s -> %s): replaced %u match%s", step->pass,
                      step->rule + 1, graft_rule_set_get_pattern_name (rw.rules, step->rule),
                      graft_rule_set_get_replacement_name (rw.rules, step->rule),
                      step->n_replaced, step->n_replaced == 1 ? "" : "es");
    }
  if (rules_run != NULL && graft_rules_run_get_bound_reached (rules_run))
    graft_cli_note ("warning: stopped after %d passes with matches still replaced in the last",
                    o->fixpoint);
  graft_cli_note ("replaced %u match%s", n, n == 1 ? "" : "es");
  phases[n_phases++] = (GraftCliPhase){ "emit", emit_start };
  graft_cli_report_timings (phases, n_phases);
  /* Edits go before the graph. */
  g_clear_pointer (&dce, graft_edit_free);
  g_clear_pointer (&rewrite, graft_rewrite_free);
  g_clear_pointer (&rules_run, graft_rules_run_free);
  return graft_cli_finish (status);
}

static const GraftCliOptionUse command_options[] = {
  { GRAFT_CLI_OPTION_ENTRY, NULL },
  { GRAFT_CLI_OPTION_PATTERN, NULL },
  { GRAFT_CLI_OPTION_REPLACEMENT, NULL },
  { GRAFT_CLI_OPTION_RULES, NULL },
  { GRAFT_CLI_OPTION_FIXPOINT, NULL },
  { GRAFT_CLI_OPTION_IGNORE_LITERALS, NULL },
  { GRAFT_CLI_OPTION_DCE, NULL },
  { GRAFT_CLI_OPTION_TO,
    "The output format: code (default), readable, graph, json, dot, pass (the rewrite as a "
    "torch.fx pass), png, svg or pdf" },
  { GRAFT_CLI_OPTION_STYLE, "Pictures: light (default) or dark" },
  { GRAFT_CLI_OPTION_OUTPUT, NULL },
  { GRAFT_CLI_OPTION_END, NULL },
};

const GraftCommand graft_cmd_rewrite = {
  "rewrite",
  "print the graph after replace_pattern(gm, pattern, replacement) or a rules file",
  "Print the graph after replace_pattern(gm, pattern, replacement), or after the rules\n"
  "of a rules file (--rules), optionally without dead code (--dce), or the rewrite as a\n"
  "torch.fx pass (--to pass).",
  command_options,
  run,
};
