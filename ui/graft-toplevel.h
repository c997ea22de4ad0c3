/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-toplevel.h: what every toplevel window of the editor needs from
 * GTK 4.8 that GTK does not do itself.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void graft_toplevel_init (void);

G_END_DECLS
