/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-editor.c: the main of the Graft Editor: makes the application and
 * runs it.
 */
#include "config.h"

#include "graft-application.h"

#include <stdio.h>
#include <string.h>

static const GOptionEntry editor_options[] = {
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL, "Print the version and exit", NULL },
  { NULL },
};

/* Whether @name, up to an "=" (GOption takes `--version=1` as
 * `--version`), is the long name of one of @entries. */
static gboolean
is_long_option (const GOptionEntry *entries,
                const char         *name)
{
  size_t len = strcspn (name, "=");

  for (const GOptionEntry *e = entries; e->long_name != NULL; e++)
    if (strlen (e->long_name) == len && strncmp (e->long_name, name, len) == 0)
      return TRUE;
  return FALSE;
}

/* Whether GOption, parsing @argv with @entries (flags all) as GApplication
 * will, meets a request for help before an option it refuses: it reads
 * the arguments in order up to a "--", and the letters of a short-option
 * argument in order, and stops at the first it does not know.  Help is
 * --help, --help-all, --help-gapplication (GApplication's group), -h and
 * -?; the editor has no short option of its own, so any other letter is
 * unknown: `-qh` is refused at its q, as are `--bogus -h` and `-q -h`
 * (GApplication answered them with "Unknown option -qh" and status 1),
 * while `-hq` and `-h --bogus` are help. */
static gboolean
asks_for_help (char              **argv,
               const GOptionEntry *entries)
{
  for (int i = 1; argv[i] != NULL && strcmp (argv[i], "--") != 0; i++)
    {
      const char *arg = argv[i];
      const char *name = arg + 2;

      if (arg[0] != '-' || arg[1] == '\0')
        continue; /* a file, or "-" */
      if (arg[1] != '-')
        return arg[1] == 'h' || arg[1] == '?';
      if (strcmp (name, "help") == 0 || strcmp (name, "help-all") == 0 ||
          strcmp (name, "help-gapplication") == 0)
        return TRUE;
      if (!is_long_option (entries, name))
        return FALSE;
    }
  return FALSE;
}

/* GOption's message (`Unknown option --bogus`) in the form of graft's
 * (`graft code: unknown option --bogus`): lower case, whatever the
 * language. */
static char *
lower_first (const char *message)
{
  char first[8] = { 0 };

  if (*message == '\0')
    return g_strdup (message);
  g_unichar_to_utf8 (g_unichar_tolower (g_utf8_get_char (message)), first);
  return g_strconcat (first, g_utf8_next_char (message), NULL);
}

/* A wrong option answers as graft's do: `graft-editor: unknown option
 * --bogus`, a hint to --help and status 2 (GApplication printed GOption's
 * "Unknown option --bogus" and returned 1).  The options are parsed here
 * first as GApplication will parse them: the editor's own and
 * GApplication's --gapplication-service (the editor is neither a service
 * nor a launcher); a request for help is left to GApplication, whose
 * --help says what the editor opens.  Returns the status to exit with, or
 * -1 to run. */
static int
check_options (int    argc,
               char **argv)
{
  static const GOptionEntry service[] = {
    { "gapplication-service", 0, 0, G_OPTION_ARG_NONE, NULL, NULL, NULL },
    { NULL },
  };
  GOptionEntry entries[G_N_ELEMENTS (editor_options) + G_N_ELEMENTS (service)];
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) args = NULL;
  g_autofree char *message = NULL;
  gboolean         ignored = FALSE;
  guint            n = 0;

  for (const GOptionEntry *e = editor_options; e->long_name != NULL; e++)
    entries[n++] = *e;
  for (const GOptionEntry *e = service; e->long_name != NULL; e++)
    entries[n++] = *e;
  entries[n] = (GOptionEntry){ NULL };
  if (asks_for_help (argv, entries))
    return -1;
  for (guint i = 0; i < n; i++)
    {
      /* Parsed for their errors alone: flags, whose values GApplication
       * keeps. */
      g_assert (entries[i].arg == G_OPTION_ARG_NONE);
      entries[i].arg_data = &ignored;
    }
  g_option_context_set_help_enabled (context, FALSE);
  g_option_context_add_main_entries (context, entries, NULL);
  args = g_new0 (char *, argc + 1);
  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);
  if (g_option_context_parse_strv (context, &args, &error))
    return -1;
  message = lower_first (error->message);
  fprintf (stderr, "graft-editor: %s\nRun 'graft-editor --help' for its options.\n", message);
  return 2;
}

/* --version, as `graft --version` prints it: then nothing is opened. */
static int
handle_local_options_cb (GApplication *app,
                         GVariantDict *options,
                         gpointer      data)
{
  if (g_variant_dict_contains (options, "version"))
    {
      printf ("graft-editor %s\n", PACKAGE_VERSION);
      return 0;
    }
  return -1;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GraftApplication) app = NULL;
  int status = check_options (argc, argv);

  if (status >= 0)
    return status;
  g_set_application_name ("Graft");
  app = graft_application_new ();
  /* What --help says: the files it opens (GApplication's own usage line
   * named only options). */
  g_application_set_option_context_parameter_string (G_APPLICATION (app), "[FILE…]");
  g_application_set_option_context_summary (
      G_APPLICATION (app),
      "Opens each FILE in the Graft editor: a Python module, an FX graph listing, a DOT\n"
      "graph, a torch.export program (a .pt2 archive, or the text print(ep) or\n"
      "print_readable() writes), or a session the editor saved (.graft).  A FILE given\n"
      "while the editor runs opens in it.  'graft --help' lists the command-line tool's\n"
      "commands.");
  g_application_add_main_option_entries (G_APPLICATION (app), editor_options);
  g_signal_connect (app, "handle-local-options", G_CALLBACK (handle_local_options_cb), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
