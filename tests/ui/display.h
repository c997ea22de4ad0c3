/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * display.h: the editor tests' own connection to the X display and their
 * own user folders.
 */
#pragma once

#include <glib.h>

void hold_display (void);
void own_user_dirs (void);
