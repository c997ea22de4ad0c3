/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-gv.h: what a program that links Graphviz switches on with it.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft-view.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

void graft_gv_enable_dot_reader (void);

G_END_DECLS
