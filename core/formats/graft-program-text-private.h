/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-program-text-private.h: what the program text reader
 * (graft-program-text.c) shares with the other readers of a program's
 * printed names: torch's namespace rebuilt from them.
 */
#pragma once

#include "graft-graph.h"

G_BEGIN_DECLS

void _graft_program_follow_torch_names (GraftGraph *graph);

G_END_DECLS
