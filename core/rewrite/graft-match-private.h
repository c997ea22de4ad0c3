/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-match-private.h: a match's bindings, for the rewriter, which reads
 * them for every match it replaces.  Only graft-matcher.c makes matches.
 */
#pragma once

#include "graft-matcher.h"
#include "graft-pattern-private.h"

G_BEGIN_DECLS

/* What a pattern node is bound to in a match: a graph node, or, for a
 * placeholder, a literal found where the pattern has that placeholder. */
typedef struct
{
  GraftNode *node;
  GraftArg   literal; /* valid only when state is BOUND_LITERAL */
  guint8     state;   /* BOUND_* */
} GraftBinding;

enum {
  GRAFT_UNBOUND,
  GRAFT_BOUND_NODE,
  GRAFT_BOUND_LITERAL,
};

/* The memory of the matches one search found, allocated at once: freed
 * with the last of them (graft_match_free()), and with it the block's
 * reference to their pattern. */
typedef struct
{
  gint          n_live;  /* matches, plus one while the search is allocating */
  GraftPattern *pattern; /* owned */
} GraftMatchBlock;

struct _GraftMatch
{
  GraftPattern        *pattern; /* the block's */
  GraftMatchBlock     *block;   /* where the match lives, counted */
  GraftMatchDropReason reason;
  gboolean             literals;   /* some binding is BOUND_LITERAL (owned) */
  GraftBinding         bindings[]; /* one per pattern node */
};

/* Whether searches run their compiled walks (graft-matcher.c, "The
 * compiled walk"); TRUE but for the tests that compare them with the
 * general walk. */
extern gboolean _graft_matcher_compiled_enabled;

G_END_DECLS
