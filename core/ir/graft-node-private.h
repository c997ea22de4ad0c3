/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-node-private.h: the node's layout, for graft-graph.c and for the
 * inline accessors of graft-graph-private.h that the core's algorithms
 * call in their inner loops (scratch marks: a call across units cost
 * more than the read it makes).  Nothing outside core/ir reads a field
 * directly.
 */
#pragma once

#include "graft-graph.h"

G_BEGIN_DECLS

struct _GraftNode
{
  /* Borrowed (the graph is the one of the node's page: node_graph()) */
  GraftNode  *prev;
  GraftNode  *next;
  const char *name;   /* in the graph's namespace */
  const char *target; /* interned in the graph's chunk */

  /* Owned */
  GraftArg args; /* always a tuple; with has_kwargs, its items array holds
                  * one more item after them: the keyword arguments, a dict
                  * with str keys (see node_kwargs()) */
  union
  {
    GraftNode *one;  /* the only user (borrowed), for the many nodes with one */
    struct _GraftUserArray *many; /* when users_many is set (graft-graph.c) */
  } users;
  guint32 n_users : 24; /* at most GRAFT_MAX_NODES */
  guint32 op : 3;
  guint32 is_wrapped : 1;
  guint32 name_canonical : 1; /* graft_namespace_is_canonical (name, DEFAULT) */
  guint32 users_many : 1;
  guint32 has_kwargs : 1; /* the dict after the args' items; else none */
  guint32 extra;          /* 1 + its index in the graph's extras, or 0 */

  gint64  order;
  guint32 marks[2];   /* scratch marks for algorithms (graft-graph-private.h) */
  guint32 span_start; /* where the node came from in its source */
  guint32 span_end;
};

G_END_DECLS
