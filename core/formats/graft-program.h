/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-program.h: the readers of torch.export programs.  A program comes
 * as a `.pt2` archive (graft-pt2-reader.c), as the text `print(ep)`
 * writes, or as the text `gm.print_readable()` writes; each reader builds
 * the graph torch 2.6 holds for it, with node metadata and the graph
 * signature (graft-meta.h).  Programs exist only in torch 2.x: every reader
 * refuses a dialect without them with the one message of
 * graft_program_check_dialect().
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"
#include "graft-dialect.h"

G_BEGIN_DECLS

gboolean graft_program_check_dialect (const GraftDialect *dialect,
                                      const char         *filename,
                                      GError            **error);

/* A .pt2 archive, torch.export.save's zip (graft-pt2-reader.c). */
gboolean    graft_pt2_detect (GraftSource *source);
GraftGraph *graft_pt2_read (GraftSource        *source,
                            const GraftDialect *dialect,
                            GError            **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
