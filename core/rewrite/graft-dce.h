/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-dce.h: dead code elimination as torch.fx's
 * `Graph.eliminate_dead_code()` does it, with `Node.is_impure` deciding
 * what stays, both in the graph's dialect.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

gboolean   graft_node_is_impure (GraftNode *node);
GraftEdit *graft_eliminate_dead_code (GraftGraph *graph,
                                      guint      *out_n_removed,
                                      GError    **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
