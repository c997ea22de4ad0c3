/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cli-options.c: from a command's line to what it runs on.  Every option
 * of the CLI is one row here, defined once; a command lists the rows it
 * takes (and may word a row's help for itself).  graft_cli_run_command()
 * parses the line by those rows, checks that one INPUT remains and runs
 * the command; graft_cli_load_pattern() reads INPUT and the pattern by
 * cli.md's REF rules, which several commands share.
 */
#include "config.h"

#include "cmd.h"

typedef struct
{
  const char *long_name;
  char        short_name;
  GOptionArg  arg;
  gsize       offset;      /* of the value in GraftCliOptions */
  const char *description; /* unless the command words its own */
  const char *arg_description;
} OptionRow;

#define VALUE(field) G_STRUCT_OFFSET (GraftCliOptions, field)

static const OptionRow rows[] = {
  [GRAFT_CLI_OPTION_ENTRY] = { "entry", 0, G_OPTION_ARG_STRING, VALUE (entry),
                               "The class or function to trace (in Python INPUT)", "NAME" },
  [GRAFT_CLI_OPTION_PATTERN] = { "pattern", 0, G_OPTION_ARG_STRING, VALUE (pattern),
                                 "The pattern: FILE:NAME, NAME or FILE (default: INPUT:pattern)",
                                 "REF" },
  [GRAFT_CLI_OPTION_REPLACEMENT] = { "replacement", 0, G_OPTION_ARG_STRING, VALUE (replacement),
                                     "The replacement (default: the pattern's file:replacement)",
                                     "REF" },
  [GRAFT_CLI_OPTION_IGNORE_LITERALS] = { "ignore-literals", 0, G_OPTION_ARG_NONE,
                                         VALUE (ignore_literals),
                                         "A literal in the pattern matches any literal", NULL },
  [GRAFT_CLI_OPTION_JSON] = { "json", 0, G_OPTION_ARG_NONE, VALUE (json),
                              "Print the matches as JSON", NULL },
  [GRAFT_CLI_OPTION_AT] = { "at", 0, G_OPTION_ARG_STRING, VALUE (at),
                            "The graph node where the pattern's result should match", "NODE" },
  [GRAFT_CLI_OPTION_TO] = { "to", 0, G_OPTION_ARG_STRING, VALUE (to),
                            "The output format: code (default), readable, graph, json, dot, png, "
                            "svg or pdf",
                            "FORMAT" },
  [GRAFT_CLI_OPTION_STYLE] = { "style", 0, G_OPTION_ARG_STRING, VALUE (style),
                               "light (default) or dark", "STYLE" },
  [GRAFT_CLI_OPTION_OUTPUT] = { "output", 'o', G_OPTION_ARG_FILENAME, VALUE (output),
                                "Write to PATH instead of standard output", "PATH" },
  [GRAFT_CLI_OPTION_TORCH] = { "torch", 0, G_OPTION_ARG_STRING, VALUE (torch),
                               "The torch to speak: 2.6 (default, or GRAFT_TORCH) or 1.13",
                               "VERSION" },
  [GRAFT_CLI_OPTION_RULES] = { "rules", 0, G_OPTION_ARG_FILENAME, VALUE (rules),
                               "Rewrite with the RULES list of FILE, in order, as one pass",
                               "FILE" },
  [GRAFT_CLI_OPTION_FIXPOINT] = { "fixpoint", 0, G_OPTION_ARG_STRING, VALUE (fixpoint_arg),
                                  "With --rules: passes until one replaces nothing, at most N",
                                  "N" },
  [GRAFT_CLI_OPTION_DCE] = { "dce", 0, G_OPTION_ARG_NONE, VALUE (dce),
                             "Remove dead code afterwards, as gm.graph.eliminate_dead_code()",
                             NULL },
};

#undef VALUE

static void
options_clear (GraftCliOptions *o)
{
  g_free (o->entry);
  g_free (o->pattern);
  g_free (o->replacement);
  g_free (o->at);
  g_free (o->to);
  g_free (o->style);
  g_free (o->output);
  g_free (o->torch);
  g_free (o->rules);
  g_free (o->fixpoint_arg);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (GraftCliOptions, options_clear)

/* The GOption entries of @uses, storing into @o; ends with a zeroed
 * entry.  Free with g_free(). */
static GOptionEntry *
entries_new (const GraftCliOptionUse *uses,
             GraftCliOptions         *o)
{
  GOptionEntry    *entries = g_new0 (GOptionEntry, G_N_ELEMENTS (rows) + 2);
  guint            n = 0;
  const OptionRow *row;

  for (const GraftCliOptionUse *use = uses; use->id != GRAFT_CLI_OPTION_END; use++)
    {
      g_return_val_if_fail ((guint) use->id < G_N_ELEMENTS (rows) && n < G_N_ELEMENTS (rows),
                            entries);
      row = &rows[use->id];
      entries[n].long_name = row->long_name;
      entries[n].short_name = row->short_name;
      entries[n].arg = row->arg;
      entries[n].arg_data = (char *) o + row->offset;
      entries[n].description = use->description != NULL ? use->description : row->description;
      entries[n].arg_description = row->arg_description;
      n++;
    }
  /* Every command speaks a torch. */
  row = &rows[GRAFT_CLI_OPTION_TORCH];
  entries[n].long_name = row->long_name;
  entries[n].arg = row->arg;
  entries[n].arg_data = (char *) o + row->offset;
  entries[n].description = row->description;
  entries[n].arg_description = row->arg_description;
  return entries;
}

/* `--fixpoint N` as Python's int() reads the oracle's: decimal digits,
 * white space around them and a `+` allowed.  N is a bound, so one beyond
 * G_MAXINT is G_MAXINT (no rule set runs that many passes); 0 passes the
 * parse, for the command to refuse with its own words. */
static gboolean
parse_fixpoint (const char *text,
                gint       *out_n)
{
  g_autofree char *digits = g_strstrip (g_strdup (text));
  const char      *p = digits[0] == '+' ? digits + 1 : digits;
  guint64          n = 0;

  if (*p == '\0')
    return FALSE;
  for (; *p != '\0'; p++)
    {
      if (!g_ascii_isdigit (*p))
        return FALSE;
      n = MIN (n * 10 + (guint64) (*p - '0'), (guint64) G_MAXINT);
    }
  *out_n = (gint) n;
  return TRUE;
}

/* GOption's message (`Unknown option --bogus`, `Missing argument for
 * --entry`) in the CLI's own form: lower case, as every other line the
 * CLI writes.  Its first character, whatever the language: GLib's own
 * messages may be translated. */
static char *
lower_first (const char *message)
{
  const char *rest = g_utf8_next_char (message);
  char        first[8] = { 0 };

  if (*message == '\0')
    return g_strdup (message);
  g_unichar_to_utf8 (g_unichar_tolower (g_utf8_get_char (message)), first);
  return g_strconcat (first, rest, NULL);
}

/* The first option of @uses (and --torch) given an empty value, a
 * usage error rather than a file or a name called '' (it was ":1:1:
 * error: cannot read the file"); %NULL if none. */
static const OptionRow *
find_empty_value (const GraftCliOptionUse *uses,
                  const GraftCliOptions   *o)
{
  for (const GraftCliOptionUse *use = uses;; use++)
    {
      const OptionRow *row =
          &rows[use->id != GRAFT_CLI_OPTION_END ? use->id : GRAFT_CLI_OPTION_TORCH];

      if (row->arg == G_OPTION_ARG_STRING || row->arg == G_OPTION_ARG_FILENAME)
        {
          const char *value = *(char *const *) ((const char *) o + row->offset);

          if (value != NULL && *value == '\0')
            return row;
        }
      if (use->id == GRAFT_CLI_OPTION_END)
        return NULL;
    }
}

/**
 * graft_cli_run_command:
 * @command: the command
 * @argc: the number of @argv
 * @argv: the command line from the command's name on
 *
 * Parses @command's options, checks that exactly one INPUT remains and
 * runs the command.  A usage error is reported here.
 *
 * Returns: an exit status
 */
int
graft_cli_run_command (const GraftCommand *command,
                       int                 argc,
                       char              **argv)
{
  g_auto (GraftCliOptions) o = { .fixpoint = -1 };
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree GOptionEntry *entries = entries_new (command->options, &o);
  g_autofree char         *prgname = g_strdup_printf ("graft %s", command->name);
  const OptionRow         *empty;

  /* --help's usage line names the program by its prgname, which GOption
   * would take from argv[0], the command's name alone ("code [OPTION…]
   * INPUT"). */
  g_set_prgname (prgname);
  context = g_option_context_new ("INPUT");
  g_option_context_set_summary (context, command->description);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_autofree char *problem = lower_first (error->message);

      return graft_cli_usage_error (command->name, "%s", problem);
    }
  empty = find_empty_value (command->options, &o);
  if (empty != NULL)
    {
      g_autofree char *name = empty->short_name != 0 ? g_strdup_printf ("-%c/--%s",
                                                                        empty->short_name,
                                                                        empty->long_name)
                                                     : g_strdup_printf ("--%s", empty->long_name);

      return graft_cli_usage_error (command->name, "%s: empty %s", name, empty->arg_description);
    }
  if (o.fixpoint_arg != NULL && !parse_fixpoint (o.fixpoint_arg, &o.fixpoint))
    return graft_cli_usage_error (command->name,
                                  "--fixpoint %s: N must be a whole number, 1 or more",
                                  o.fixpoint_arg);
  if (argc != 2)
    return graft_cli_usage_error (command->name, "%s",
                                  argc < 2 ? "missing INPUT (a file, or - for standard input)"
                                           : "expected one INPUT, got more");
  if (argv[1][0] == '\0')
    return graft_cli_usage_error (command->name,
                                  "empty INPUT (a file, or - for standard input)");
  if (o.torch != NULL)
    {
      o.dialect = graft_dialect_from_name (o.torch);
      if (o.dialect == NULL)
        return graft_cli_usage_error (command->name, "--torch %s: unknown torch (use %s)", o.torch,
                                      graft_dialect_list_names ());
    }
  else
    {
      o.dialect = graft_dialect_from_environment ();
      if (o.dialect == NULL)
        return graft_cli_usage_error (command->name, "GRAFT_TORCH=%s: unknown torch (use %s)",
                                      g_getenv ("GRAFT_TORCH"), graft_dialect_list_names ());
    }
  return command->run (&o, argv[1]);
}

/* What an input that is not Python is, for a sentence. */
static const char *
input_kind_phrase (GraftInputKind kind)
{
  switch (kind)
    {
    case GRAFT_INPUT_LISTING:
      return "an FX graph listing";
    case GRAFT_INPUT_DOT:
      return "a DOT file";
    case GRAFT_INPUT_EXPORTED_PROGRAM:
      return "a torch.export program's text";
    case GRAFT_INPUT_READABLE_PROGRAM:
      return "a program's print_readable() text";
    case GRAFT_INPUT_ARCHIVE:
      return "a torch.export archive";
    case GRAFT_INPUT_PYTHON:
    default:
      return "Python";
    }
}

/* A name given for @path (`--entry NAME`: @what) that is not Python and
 * holds one graph, which was read: a warning, as the oracle reads a
 * `.pt2` whatever --entry says (the name was ignored silently). */
static void
warn_name_ignored (GraftInputSet *inputs,
                   const char    *path,
                   const char    *what,
                   const char    *hint)
{
  GraftSource   *source = graft_input_set_peek_source (inputs, path);
  GraftInputKind kind = source != NULL ? graft_input_detect (source) : GRAFT_INPUT_PYTHON;

  if (kind != GRAFT_INPUT_PYTHON)
    graft_cli_note ("%s: warning: %s is ignored: %s holds one graph, read as printed (%s)", path,
                    what, input_kind_phrase (kind), hint);
}

/**
 * graft_cli_load_input:
 * @inputs: the files read so far
 * @input: INPUT
 * @entry: (nullable): `--entry`
 * @error: return location for a located error
 *
 * Loads INPUT's graph.  `--entry` chooses among a Python file's classes
 * and functions; any other kind of input holds one graph, which is
 * loaded, as the oracle loads a `.pt2` whatever --entry says, with a
 * warning that names the option and the kind (it was ignored silently).
 *
 * Returns: (transfer full) (nullable): the graph
 */
GraftGraph *
graft_cli_load_input (GraftInputSet *inputs,
                      const char    *input,
                      const char    *entry,
                      GError       **error)
{
  GraftGraph *graph = graft_input_set_load (inputs, input, entry, FALSE, error);

  if (graph != NULL && entry != NULL)
    {
      g_autofree char *what = g_strdup_printf ("--entry %s", entry);

      warn_name_ignored (inputs, input, what, "--entry picks what to trace in Python");
    }
  return graph;
}

/**
 * graft_cli_warn_ref_name_ignored:
 * @inputs: the files read so far, @file among them
 * @option: `--pattern` or `--replacement`
 * @ref: (nullable): the option's value
 * @file: the file @ref names, loaded
 * @name: the name @ref names
 * @default_name: the name it has when @ref gives none
 *
 * The warning of graft_cli_load_input() for a REF whose NAME was given
 * (`--pattern p.graph:foo`) but is not Python's to choose from.
 */
void
graft_cli_warn_ref_name_ignored (GraftInputSet *inputs,
                                 const char    *option,
                                 const char    *ref,
                                 const char    *file,
                                 const char    *name,
                                 const char    *default_name)
{
  g_autofree char *what = NULL;

  if (ref == NULL || g_strcmp0 (name, default_name) == 0)
    return;
  what = g_strdup_printf ("the name '%s' of %s %s", name, option, ref);
  warn_name_ignored (inputs, file, what, "a REF's name picks a definition in Python");
}

/**
 * graft_cli_load_pattern:
 * @inputs: the files read so far
 * @input: INPUT
 * @entry: (nullable): `--entry`
 * @pattern_ref: (nullable): `--pattern`
 * @out_graph: (out) (transfer full): INPUT's graph
 * @out_pattern: (out) (transfer full): the pattern
 * @out_pattern_file: (out) (transfer full): the pattern's file, where the
 *   replacement is looked up by default
 *
 * Loads INPUT's graph and the pattern by cli.md's REF rules: the
 * pattern's file defaults to INPUT, its name to `pattern`.
 *
 * Returns: an exit status; errors are reported
 */
int
graft_cli_load_pattern (GraftInputSet *inputs,
                        const char    *input,
                        const char    *entry,
                        const char    *pattern_ref,
                        GraftGraph   **out_graph,
                        GraftPattern **out_pattern,
                        char         **out_pattern_file)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftGraph) pattern_graph = NULL;
  g_autofree char *file = NULL;
  g_autofree char *name = NULL;
  GraftPattern    *pattern;

  graph = graft_cli_load_input (inputs, input, entry, &error);
  if (graph == NULL)
    return graft_cli_report (error, input);
  graft_input_parse_ref (pattern_ref, input, "pattern", &file, &name);
  pattern_graph = graft_input_set_load (inputs, file, name, TRUE, &error);
  if (pattern_graph == NULL)
    return graft_cli_report (error, file);
  graft_cli_warn_ref_name_ignored (inputs, "--pattern", pattern_ref, file, name, "pattern");
  pattern = graft_pattern_new (g_steal_pointer (&pattern_graph), &error);
  if (pattern == NULL)
    return graft_cli_report (error, file);
  *out_graph = g_steal_pointer (&graph);
  *out_pattern = pattern;
  *out_pattern_file = g_steal_pointer (&file);
  return GRAFT_EXIT_OK;
}
