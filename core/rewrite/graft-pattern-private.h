/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pattern-private.h: the pattern's fields, for the matcher, whose
 * search reads them on every step.  Only graft-pattern.c writes them.
 */
#pragma once

#include "graft-pattern.h"
#include "graft-graph-private.h"

G_BEGIN_DECLS

struct _GraftPattern
{
  gatomicrefcount ref_count;

  /* Owned */
  GraftGraph *graph;
  GPtrArray  *nodes;        /* every node in graph order, output last */
  GHashTable *index;        /* GraftNode * -> position + 1 in nodes */
  GArray     *placeholders; /* guint positions */
  GArray     *returning;    /* guint positions: output.all_input_nodes */
  GArray     *anchors;      /* guint positions */
};

/* A pattern node's position.  The pattern graph is the pattern's own, so
 * its nodes keep their position + 1 in scratch slot 1 (set once in
 * graft_pattern_new()) and the lookup is a field read. */
static inline guint
_graft_pattern_position_of (GraftPattern *self,
                            GraftNode    *node)
{
  (void) self;
  return _graft_node_get_mark (node, 1) - 1;
}

G_END_DECLS
