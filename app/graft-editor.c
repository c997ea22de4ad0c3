/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-editor.c: the main of the Graft Editor: makes the application and
 * runs it.
 */
#include "config.h"

#include "graft-application.h"

#include <stdio.h>

static const GOptionEntry editor_options[] = {
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL, "Print the version and exit", NULL },
  { NULL },
};

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
