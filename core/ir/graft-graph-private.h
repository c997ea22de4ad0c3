/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-graph-private.h: scratch marks on nodes, for algorithms of the core
 * that need sets of nodes without building hash tables (the matcher).
 * Each node has two slots; a mark from _graft_graph_new_mark() is on no
 * node until set, so a set starts empty in O(1).  An algorithm holds the
 * marks while it uses them (_graft_graph_hold_marks()): the slots' memory
 * is given back when the last holder releases them.  Also the caption every
 * drawing of a node shows (boxes, DOT labels).
 */
#pragma once

#include "graft-graph.h"
#include "graft-meta.h"
#include "graft-node-private.h"

#include <string.h>

G_BEGIN_DECLS

/* For the matcher: a target's address, if a node may have it. */
const char *_graft_graph_lookup_interned (GraftGraph *self,
                                          const char *text);

/* How _graft_graph_create_node_request() takes a request's arguments. */
typedef enum {
  /* Copied into the graph's pool, the caller's left as they are: built
   * in scratch memory (items on the stack, strings the caller keeps). */
  GRAFT_ARGS_COPIED = 0,
  /* In the graph's pool's form (_graft_graph_lay_out_args()) but for the
   * containers that hold nodes: strings and shared containers are taken
   * as they are, the other containers copied. */
  GRAFT_ARGS_LAID_OUT,
  /* From the heap, consumed (left `None`): graft_graph_create_node(). */
  GRAFT_ARGS_MOVED,
} GraftArgsHow;

/* A node to create (_graft_graph_create_node_request()), filled in by the
 * caller on its stack: the fields a designated initializer leaves out
 * are the usual case (arguments copied, a name derived from the target,
 * appended, text that may change, no span). */
typedef struct _GraftNodeRequest
{
  GraftOp         op;
  GraftArgsHow    how;
  const char     *target;
  const GraftArg *args;   /* (nullable): a tuple */
  const GraftArg *kwargs; /* (nullable): a dict */
  /* (nullable): the wanted name; NULL derives it from the target as
   * `Graph._target_to_str` does */
  const char *name_candidate;
  GraftNode  *before; /* (nullable): insert before it; NULL appends */
  /* @target and @name_candidate are text that never changes nor is freed
   * while the graph lives (a table's, compiled in; the graph's chunk):
   * each is known by its address once seen, its text not compared again */
  gboolean static_text;
  guint32  span_start; /* graft_node_set_span() */
  guint32  span_end;
} GraftNodeRequest;

guint32         _graft_graph_new_mark (GraftGraph *self);
guint32         _graft_graph_get_epoch (GraftGraph *self);
gboolean        _graft_node_name_is_canonical (GraftNode *node);
gboolean        _graft_node_is_attached (GraftGraph *self,
                                         GraftNode  *node);
gboolean        _graft_graph_is_topological (GraftGraph *self);
int             _graft_graph_check_order_step (GraftGraph *self,
                                               GraftNode **next,
                                               guint      *work);
guint32         _graft_graph_index_nodes (GraftGraph *self,
                                          GraftNode **nodes);
guint32         _graft_graph_reserve_marks (GraftGraph *self,
                                            guint       n);
void            _graft_graph_erase_dying (GraftGraph       *self,
                                          GraftNode *const *nodes,
                                          guint             n);
void            _graft_graph_defer_user_removals (GraftGraph *self,
                                                  guint       n_erasures);
void            _graft_graph_expect_changes (GraftGraph *self,
                                             guint       n_nodes,
                                             guint       n_ops);
void            _graft_graph_settle_users (GraftGraph *self);
void            _graft_node_settle_users_now (GraftNode *node);
GraftNode      *_graft_node_get_last_user (GraftNode  *node,
                                           GraftGraph *graph);
guint           _graft_graph_get_n_trash_bound (GraftGraph *self);
gboolean        _graft_node_shares_name (GraftGraph *self,
                                         GraftNode  *node);
guint           _graft_graph_get_n_live_sharers (GraftGraph *self);
void            _graft_graph_set_torch_names (GraftGraph     *self,
                                              GraftNamespace *torch_names);
GraftNamespace *_graft_graph_get_torch_names (GraftGraph *self);
GraftNode      *_graft_graph_append_node_sharing (GraftGraph *self,
                                                  GraftOp     op,
                                                  const char *target,
                                                  const char *name);
void            _graft_graph_set_never_defer (GraftGraph *self,
                                              gboolean    never);
GraftNode      *_graft_graph_create_node_request (GraftGraph             *self,
                                                  const GraftNodeRequest *request);
void            _graft_graph_lay_out_args (GraftGraph     *self,
                                           GraftArg       *args,
                                           GraftArg       *kwargs,
                                           const GraftArg *src_args,
                                           const GraftArg *src_kwargs);
gboolean        _graft_node_find_index (GraftNode        *node,
                                        guint32           base,
                                        GraftNode *const *nodes,
                                        guint             n,
                                        guint            *index);

/*
 * _graft_node_settle_users:
 *
 * While the graph defers removals (_graft_graph_defer_user_removals()),
 * what makes @node's users what they are before they are read.
 */
static inline void
_graft_node_settle_users (GraftNode *node)
{
  if (node->users_many && node->users.many->index != NULL &&
      G_UNLIKELY (node->users.many->index[node->users.many->index_mask + 2] != 0))
    _graft_node_settle_users_now (node);
}

/* Whether every user of @node is one of the @n @nodes (a rewrite's
 * check that a matched node dies with those erased before it). */
static inline gboolean
_graft_node_users_among (GraftNode        *node,
                         GraftNode *const *nodes,
                         guint             n)
{
  GraftNode *const *users;
  guint             n_users;

  if (!node->users_many)
    {
      if (node->users.one == NULL)
        return TRUE;
      for (guint i = 0; i < n; i++)
        if (nodes[i] == node->users.one)
          return TRUE;
      return FALSE;
    }
  _graft_node_settle_users (node);
  users = node->users.many->items;
  n_users = node->users.many->n;
  for (guint u = 0; u < n_users; u++)
    {
      guint i = 0;

      while (i < n && nodes[i] != users[u])
        i++;
      if (i == n)
        return FALSE;
    }
  return TRUE;
}

/* graft_node_set_span() of @to to @from's span (a rewrite's copy takes
 * its first user's), inline when both fit their node. */
static inline void
_graft_node_copy_span (GraftNode       *to,
                       const GraftNode *from)
{
  guint32 start, end;

  if (G_LIKELY (from->span_len != GRAFT_NODE_SPAN_LONG && to->span_len != GRAFT_NODE_SPAN_LONG))
    {
      to->span_start = from->span_start;
      to->span_len = from->span_len;
      return;
    }
  graft_node_get_span ((GraftNode *) from, &start, &end);
  graft_node_set_span (to, start, end);
}

void _graft_graph_hold_marks (GraftGraph *self);
void _graft_graph_release_marks (GraftGraph *self);
void _graft_node_page_add_marks (NodePage *page);

/* The scratch marks, inline: the matcher reads and sets them for every
 * node it tries.  They are kept by page, apart from the nodes: a page
 * gets its array when a mark is first set on one of its nodes, and gives
 * it back when the graph's last holder of marks releases them (a mark
 * then reads as 0, which no new mark is). */
static inline void
_graft_node_set_mark (GraftNode *node,
                      guint      slot,
                      guint32    mark)
{
  NodePage *page = node_page (node);

  if (G_UNLIKELY (page->marks == _graft_no_marks))
    _graft_node_page_add_marks (page);
  node_marks (node)[slot] = mark;
}

/* The same, for an algorithm that holds the graph's marks
 * (_graft_graph_hold_marks()): then every page has its own array, and a
 * set needs no check (_graft_no_marks is read only: a set on a graph that
 * is not held faults). */
static inline void
_graft_node_set_mark_held (GraftNode *node,
                           guint      slot,
                           guint32    mark)
{
#ifdef GRAFT_NODES_EACH_ALONE
  _graft_node_set_mark (node, slot, mark);
#else
  node_marks (node)[slot] = mark;
#endif
}

static inline guint32
_graft_node_get_mark (GraftNode *node,
                      guint      slot)
{
  return node_marks (node)[slot];
}

static inline gboolean
_graft_node_has_mark (GraftNode *node,
                      guint      slot,
                      guint32    mark)
{
  return node_marks (node)[slot] == mark;
}

/*
 * _graft_node_get_index:
 * @node: a node, of any graph
 * @base: what _graft_graph_index_nodes() returned
 * @nodes: (array length=n): the nodes it listed
 * @n: how many
 * @index: (out): the node's position in graph order
 *
 * Returns: whether @node was numbered from @base (else it is not of the
 *   graph, or was added since)
 */
static inline gboolean
_graft_node_get_index (GraftNode        *node,
                       guint32           base,
                       GraftNode *const *nodes,
                       guint             n,
                       guint            *index)
{
  guint32 k = node_marks (node)[0] - base;

  /* Marks are per graph: a node of another graph may carry the same one. */
  if (k >= n || nodes[k] != node)
    return FALSE;
  *index = k;
  return TRUE;
}

void _graft_node_append_caption (GString   *out,
                                 GraftNode *node);
void _graft_node_set_meta_interned (GraftNode           *node,
                                    const GraftNodeMeta *meta);

/* For the `.pt2` reader (pt2m): a name the caller found free; @target
 * the graph's interned copy (graft_graph_intern()), taken as it is. */
GraftNode *_graft_graph_append_node_new_name (GraftGraph *self,
                                              GraftOp     op,
                                              const char *target,
                                              GraftArg   *args,
                                              GraftArg   *kwargs,
                                              const char *exact_name);
/* The same for a name that the graph's namespace would give as it is
 * (free and canonical), else %NULL: nothing is added and @args and
 * @kwargs are not consumed. */
GraftNode *_graft_graph_append_node_if_canonical (GraftGraph *self,
                                                  GraftOp     op,
                                                  const char *target,
                                                  GraftArg   *args,
                                                  GraftArg   *kwargs,
                                                  const char *name);

static inline guint64
_graft_graph_hash_mix (guint64 h,
                       guint64 w)
{
  h = (h ^ w) * G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  return h ^ (h >> 32);
}

/* The hash of the graph's interned texts: the @len bytes at @p, eight at
 * a time.  The `.pt2` reader's caches use it too, so that a text they
 * miss is interned without hashing it again
 * (_graft_graph_intern_hashed()). */
static inline guint
_graft_graph_hash_text (const char *p,
                        gsize       len)
{
  guint64 h = G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^ len;
  guint64 w;

  for (; len >= 8; len -= 8, p += 8)
    {
      memcpy (&w, p, 8);
      h = _graft_graph_hash_mix (h, w);
    }
  if (len > 0)
    {
      w = 0;
      memcpy (&w, p, len);
      h = _graft_graph_hash_mix (h, w);
    }
  h *= G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  return (guint) (h ^ (h >> 29));
}

const char *_graft_graph_intern_hashed (GraftGraph *self,
                                        const char *text,
                                        gsize       len,
                                        guint       hash);
void        _graft_graph_reserve_interned (GraftGraph *self,
                                           guint       n);
void        _graft_graph_prefetch_interned (GraftGraph *self,
                                            guint       hash);

/* graft-meta.c, for the graph */
GraftProgram *_graft_program_new (GraftGraph *graph);
void          _graft_program_free (GraftProgram *self);
void          _graft_program_add_input_interned (GraftProgram         *self,
                                                 const GraftInputSpec *spec);

/* Shared by graft-graph.c and graft-edit.c. */

/* A recorded change (graft-edit.c) */
typedef enum {
  GRAFT_EDIT_ADD,
  GRAFT_EDIT_ERASE,
  GRAFT_EDIT_SET_ARGS,
  GRAFT_EDIT_MOVE,
  GRAFT_EDIT_REPLACE_INPUT,
} GraftEditKind;

/* graft-edit.c, for the graph */
void _graft_edit_record_args (GraftEdit *edit,
                              GraftNode *node);
void _graft_edit_forget_graph (GraftEdit *edit);
void _graft_edit_set_index (GraftEdit *edit,
                            guint      index);

/* graft-graph.c, for the edit */
GraftEdit *_graft_graph_get_recording (GraftGraph *self);
guint      _graft_graph_add_edit (GraftGraph *self,
                                  GraftEdit  *edit);
void       _graft_graph_remove_edit (GraftGraph *self,
                                     guint       index);
void       _graft_graph_set_recording (GraftGraph *self,
                                       GraftEdit  *edit);
void       _graft_graph_take_out (GraftGraph *self,
                                  GraftNode  *node,
                                  gboolean    release_name);
void       _graft_graph_put_back (GraftGraph *self,
                                  GraftNode  *node,
                                  GraftNode  *next,
                                  gboolean    reserve_name);
void       _graft_node_replace_input (GraftNode *node,
                                      GraftNode *old_node,
                                      GraftNode *new_node);
void       _graft_node_swap_args (GraftNode *node,
                                  GraftArg  *args,
                                  GraftArg  *kwargs);
void       _graft_graph_copy_arg (GraftGraph     *self,
                                  GraftArg       *dest,
                                  const GraftArg *src);
void       _graft_graph_release_arg (GraftGraph *self,
                                     GraftArg   *arg);

G_END_DECLS
