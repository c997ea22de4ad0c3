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
 * placeholder, a literal found where the pattern has that placeholder
 * (then the literal is the match's literals[] at the node's position).
 * 16 bytes: a search's matches are fresh memory, a page fault for every
 * 4 KB, and literals are rare. */
typedef struct
{
  GraftNode *node;  /* when state is BOUND_NODE; else NULL */
  guint8     state; /* BOUND_* */
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
  GraftArg            *literals; /* owned: one per pattern node, valid where its
                                  * binding is BOUND_LITERAL; NULL when none is */
  GraftBinding bindings[];       /* one per pattern node */
};

/* Whether searches run their compiled walks (graft-matcher.c, "The
 * compiled walk"); TRUE but for the tests that compare them with the
 * general walk. */
extern gboolean _graft_matcher_compiled_enabled;

G_END_DECLS
