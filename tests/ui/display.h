/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * display.h: the editor tests' own connection to the X display and their
 * own user folders, and the command line of xdotool, which sends keys and
 * moves the pointer there.
 */
#pragma once

#include <glib.h>

void       hold_display (void);
void       own_user_dirs (void);
GPtrArray *xdotool_argv_new (const char *first,
                             va_list     ap) G_GNUC_WARN_UNUSED_RESULT;
