/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-diff.h: a line diff, for showing code before and after a change.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

typedef enum {
  GRAFT_DIFF_SAME,    /* the line is in both texts */
  GRAFT_DIFF_REMOVED, /* only in the first */
  GRAFT_DIFF_ADDED,   /* only in the second */
} GraftDiffKind;

/**
 * GraftDiffLine:
 * @kind: where the line is
 * @before: its index in the first text's lines, or -1
 * @after: its index in the second text's lines, or -1
 */
typedef struct
{
  GraftDiffKind kind;
  gint          before;
  gint          after;
} GraftDiffLine;

GArray *graft_diff_lines (const char *const *before,
                          const char *const *after) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
