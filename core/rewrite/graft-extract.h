/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-extract.h: a pattern function from selected nodes of a graph.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

GraftGraph *graft_extract_pattern_graph (GraftGraph *graph,
                                         GPtrArray  *nodes,
                                         GError    **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
