/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-view.h: the umbrella header of the whole core: the text core
 * (<graft.h>) with Graphviz layout and the cairo renderer.  The editor,
 * graft-render and the tests include it; they link graft_core_dep, and
 * call graft_gv_enable_dot_reader() at start-up to read DOT.
 */
#pragma once

#include "graft.h"

#define GRAFT_INSIDE
#include "graft-gv.h"
#include "graft-layout.h"
#include "graft-render.h"
#include "graft-map.h"
#undef GRAFT_INSIDE
