/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-program.h: reading torch.export programs: the texts torch prints
 * for one (graft-program-text.c: `print(ep)` and `gm.print_readable()`).
 * Every form becomes a graph of the torch 2.6 dialect whose nodes carry
 * their metadata (graft-meta.h); the 1.13 dialect refuses them all with
 * the one message below.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"
#include "graft-dialect.h"

G_BEGIN_DECLS

/**
 * GRAFT_PROGRAM_NEEDS_TORCH_2_6:
 *
 * The message (at `FILE:1:1`) for a program read with a dialect other than
 * torch 2.6's, which every program reader gives.
 */
#define GRAFT_PROGRAM_NEEDS_TORCH_2_6 "a torch.export program needs torch 2.6 (--torch 2.6)"

/**
 * GraftProgramTextForm:
 * @GRAFT_PROGRAM_TEXT_NONE: not a program's text
 * @GRAFT_PROGRAM_TEXT_EXPORTED: the text `print(ep)` writes (`ExportedProgram:`)
 * @GRAFT_PROGRAM_TEXT_READABLE: the text `gm.print_readable()` writes
 *   (`class GraphModule(torch.nn.Module):` with annotated lines)
 */
typedef enum {
  GRAFT_PROGRAM_TEXT_NONE,
  GRAFT_PROGRAM_TEXT_EXPORTED,
  GRAFT_PROGRAM_TEXT_READABLE,
} GraftProgramTextForm;

GraftProgramTextForm graft_program_text_detect (GraftSource *source);
GraftGraph          *graft_program_text_parse (GraftSource        *source,
                                               const GraftDialect *dialect,
                                               GError            **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
