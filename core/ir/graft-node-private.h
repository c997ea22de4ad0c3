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

typedef struct _GraftUserArray
{
  guint32    n : 24;            /* the node's users: at most GRAFT_MAX_NODES */
  guint32    capacity_log2 : 8; /* of items */
  guint      index_mask;        /* the index's capacity - 1, a power of two; load at most 3/4 */
  guint32   *index;             /* every user's position + 1, once there are many; or NULL */
  GraftNode *items[];
} UserArray;

/* The order key's bits (see relabel_around() in graft-graph.c): keys stay
 * below 2^47. */
#define GRAFT_NODE_ORDER_BITS 48
/* span_len of a span whose length does not fit: its end is kept apart, in
 * the graph's long_spans. */
#define GRAFT_NODE_SPAN_LONG 0xffffu

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
    GraftNode *one;  /* the only user (borrowed), or NULL for none */
    UserArray *many; /* when users_many is set: holds the count too */
  } users;
  guint32 op : 3;
  guint32 is_wrapped : 1;
  guint32 name_canonical : 1; /* graft_namespace_is_canonical (name, DEFAULT) */
  guint32 users_many : 1;
  guint32 has_kwargs : 1; /* the dict after the args' items; else none */
  guint32 extra : 25;     /* 1 + its index in the graph's extras, or 0 */
  guint32 span_start;     /* where the node came from in its source */

  guint64 order : GRAFT_NODE_ORDER_BITS;
  guint64 span_len : 16; /* end - start, or GRAFT_NODE_SPAN_LONG */
  /* The scratch marks of algorithms are kept apart, by page (NodePage):
   * 72 bytes, 56 nodes a page rather than 51. */
};

/* Under AddressSanitizer every node is its own allocation, so that a use
 * of an erased node is caught rather than reading a reused one (and so is
 * every users array). */
#if defined(__SANITIZE_ADDRESS__)
#define GRAFT_NODES_EACH_ALONE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GRAFT_NODES_EACH_ALONE 1
#endif
#endif

#ifdef GRAFT_NODES_EACH_ALONE
#define GRAFT_NODE_PAGE_SIZE 256
#else
#define GRAFT_NODE_PAGE_SIZE 4096
#endif

/* Nodes live in aligned pages that start with this header: a node finds
 * its graph from its own address, which saves a pointer per node, and its
 * scratch marks (two a node, by its place in the page) in an array the
 * page gets when a mark is first set on one of its nodes: the graph gives
 * them back when the last algorithm that holds marks is done
 * (_graft_graph_release_marks()).  Under AddressSanitizer, a page holds
 * one node. */
typedef struct
{
  GraftGraph *graph;
  guint32    *marks;      /* _graft_no_marks, or owned: GRAFT_PAGE_MARKS */
  guintptr    marks_base; /* marks, less 8 bytes for every 64 before the page */
  guint32     marked_pos; /* in the graph's marked pages, if it has marks */
  guint32     run_pages;  /* in a run's first page: how many it has */
} NodePage;

#define GRAFT_NODES_PER_PAGE ((GRAFT_NODE_PAGE_SIZE - sizeof (NodePage)) / sizeof (GraftNode))

/* The marks of a page whose nodes have none: all zero, never written. */
extern const guint32 _graft_no_marks[];

static inline NodePage *
node_page (const GraftNode *node)
{
  return (NodePage *) ((guintptr) node & ~(guintptr) (GRAFT_NODE_PAGE_SIZE - 1));
}

/* A node's marks are found from its address without a multiplication:
 * nodes are at least 64 bytes, so that no two of a page share its offset
 * over 64, which places its two marks in the page's array (8 bytes for
 * every 64 of the page, 512 for 56 nodes where 448 would do).  The page
 * keeps its array's address less the page's own address over 64 (times
 * 8): a node's marks are then that plus its address over 64 (times 8),
 * a load, a shift and an add (the page's header is 64 bytes at most, so
 * 56 nodes still fit). */
#define GRAFT_PAGE_MARKS (2 * (GRAFT_NODE_PAGE_SIZE / 64))
G_STATIC_ASSERT (sizeof (GraftNode) >= 64);

static inline void
node_page_set_marks (NodePage *page,
                     guint32  *marks)
{
  page->marks = marks;
  page->marks_base = (guintptr) marks - ((guintptr) page >> 6) * 8;
}

/* @node's two marks in its page's array (shared zeros if it has none). */
static inline guint32 *
node_marks (const GraftNode *node)
{
  return (guint32 *) (node_page (node)->marks_base + ((guintptr) node >> 6) * 8);
}

extern GraftArg _graft_no_kwargs;

/* The node's keyword arguments: the item after its args' items, or
 * _graft_no_kwargs.  Kept there rather than behind a pointer of their
 * own, a node is eight bytes smaller. */
static inline GraftArg *
node_kwargs (const GraftNode *node)
{
  return node->has_kwargs ? &node->args.items[node->args.n] : &_graft_no_kwargs;
}

/* The node's users as an array (a single user is its own array of one). */
static inline GraftNode **
node_users (GraftNode *node)
{
  return node->users_many ? node->users.many->items : &node->users.one;
}

/* How many users @node has: kept with them, not in the node. */
static inline guint
node_n_users (const GraftNode *node)
{
  return node->users_many ? node->users.many->n : node->users.one != NULL;
}

/* The node's order key: a node comes before another in the graph's list
 * exactly when its key is smaller (graft_node_compare_order()). */
static inline guint64
node_order (const GraftNode *node)
{
  return node->order;
}

/* The accessors of graft-graph.h that the core's algorithms call for
 * every node they visit, inline: a file that includes this header calls
 * these under the public names (graft-graph.c, which defines the public
 * functions, defines GRAFT_NODE_OUT_OF_LINE first).  The same answers as
 * the functions. */
static inline GraftOp
_graft_node_get_op_inline (GraftNode *node)
{
  return (GraftOp) node->op;
}

static inline const char *
_graft_node_get_name_inline (GraftNode *node)
{
  return node->name;
}

static inline const char *
_graft_node_get_target_inline (GraftNode *node)
{
  return node->target;
}

static inline GraftNode *
_graft_node_get_next_inline (GraftNode *node)
{
  return node->next;
}

static inline GraftNode *
_graft_node_get_prev_inline (GraftNode *node)
{
  return node->prev;
}

static inline const GraftArg *
_graft_node_get_args_inline (GraftNode *node)
{
  return &node->args;
}

static inline const GraftArg *
_graft_node_get_kwargs_inline (GraftNode *node)
{
  return node_kwargs (node);
}

static inline guint
_graft_node_get_n_users_inline (GraftNode *node)
{
  return node_n_users (node);
}

/* Unlike the function, no check of @i: the core's loops keep it below
 * the count (and a NULL for a bad index would only move the fault). */
static inline GraftNode *
_graft_node_get_user_inline (GraftNode *node,
                             guint      i)
{
  g_assert (i < node_n_users (node));
  return node_users (node)[i];
}

static inline gboolean
_graft_node_get_is_wrapped_inline (GraftNode *node)
{
  return node->is_wrapped;
}

/* _graft_node_name_is_canonical(), for a walk over every node. */
static inline gboolean
_graft_node_name_is_canonical_inline (GraftNode *node)
{
  return node->name_canonical;
}

/* Whether @node may have a type annotation or metadata (its extra part):
 * without one, graft_node_get_type_annotation() is %NULL. */
static inline gboolean
_graft_node_has_extra (GraftNode *node)
{
  return node->extra != 0;
}

/* Whether @node has more than one user; if not, its user (or %NULL) is
 * _graft_node_get_sole_user(), which is only to be asked then. */
static inline gboolean
_graft_node_has_many_users (GraftNode *node)
{
  return node->users_many;
}

static inline GraftNode *
_graft_node_get_sole_user (GraftNode *node)
{
  return node->users.one;
}

static inline int
_graft_node_compare_order_inline (GraftNode *a,
                                  GraftNode *b)
{
  guint64 x = a->order, y = b->order;

  return x < y ? -1 : x > y ? 1
                            : 0;
}

#ifndef GRAFT_NODE_OUT_OF_LINE
#define graft_node_get_op(node)         _graft_node_get_op_inline (node)
#define graft_node_get_name(node)       _graft_node_get_name_inline (node)
#define graft_node_get_target(node)     _graft_node_get_target_inline (node)
#define graft_node_get_next(node)       _graft_node_get_next_inline (node)
#define graft_node_get_prev(node)       _graft_node_get_prev_inline (node)
#define graft_node_get_args(node)       _graft_node_get_args_inline (node)
#define graft_node_get_kwargs(node)     _graft_node_get_kwargs_inline (node)
#define graft_node_get_n_users(node)    _graft_node_get_n_users_inline (node)
#define graft_node_get_user(node, i)    _graft_node_get_user_inline ((node), (i))
#define graft_node_compare_order(a, b)  _graft_node_compare_order_inline ((a), (b))
#define graft_node_get_is_wrapped(node) _graft_node_get_is_wrapped_inline (node)
#endif

G_END_DECLS
