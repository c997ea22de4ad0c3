/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * example.h: the editor tests' shared facts about the bundled example.
 */
#pragma once

#include <glib.h>

char *example_path (void);
char *example_copy (const char *dir);
char *example_code (void);
char *example_rewrite (gint     only,
                       gboolean then_all);
char *example_python_file (const char *code);
