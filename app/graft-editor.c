/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-editor.c: the main of the Graft Editor: makes the application and
 * runs it.
 */
#include "config.h"

#include "graft-application.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr (GraftApplication) app = NULL;

  g_set_application_name ("Graft");
  app = graft_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
