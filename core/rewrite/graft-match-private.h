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

struct _GraftMatch
{
  /* Owned */
  GraftPattern        *pattern;
  GraftMatchDropReason reason;
  GraftBinding         bindings[]; /* one per pattern node */
};

G_END_DECLS
