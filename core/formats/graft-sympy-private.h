/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-sympy-private.h: symbolic sizes as torch prints them.  A `.pt2`
 * stores a symbolic size as sympy's `srepr` (`Mul(Integer(2),
 * Symbol('s0', positive=True, integer=True))`); torch prints it with
 * sympy's str printer (`2*s0`).  graft-sympy.c turns the one into the
 * other without sympy.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean _graft_sympy_print_srepr (const char  *srepr,
                                   gsize        length,
                                   GString     *out,
                                   GHashTable  *symbols,
                                   const char **out_problem);

G_END_DECLS
