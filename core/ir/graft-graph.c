/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-graph.c: the graph IR, modelled on torch.fx's Graph and Node
 * (`torch/fx/graph.py`, `torch/fx/node.py`).  Nodes form a doubly linked
 * list in execution order; each carries a 48-bit order key so that two nodes
 * compare in O(1).  Users are kept as an array per node, one entry per using
 * node (a node that uses a value twice is its user once, as in torch).
 *
 * The graph owns its nodes, their argument values and every string: targets
 * are interned in a string chunk and names live in the graph's namespace,
 * which keeps an erased node's name reserved, as torch does.
 *
 * While an edit records (graft-edit.c), each change is reported to it
 * before it is made, and erased nodes are kept in a trash so that an undo
 * can bring them back; the edit replays changes through the primitives at
 * the end of this file.
 */
#include "config.h"

#include "graft-graph.h"
#include "graft-error.h"
#include "graft-limits.h"
#include "graft-source.h"
#include "graft-namespace-private.h"
#include "graft-dialect.h"
/* The public accessors defined here, not their inline forms. */
#define GRAFT_NODE_OUT_OF_LINE
#include "graft-graph-private.h"
#include "graft-edit-private.h"
#include "graft-meta.h"
#include "graft-name-table-private.h"
#include "graft-arg-pool-private.h"
#include "graft-memory-private.h"

#include <string.h>

/* Order keys leave this gap between neighbours so that insertions rarely
 * need a relabelling. */
#define ORDER_GAP ((gint64) 1 << 16)

/* A value's users once it has more than one: the array and, for values
 * with many, an index into it.  The index is an open-addressing table of
 * positions + 1 in the array (0: empty), hashed by the user at that
 * position: four bytes a slot, the users themselves read from the array.
 * It is probed inline, with no tombstones (a removal shifts the run after
 * it back), so it costs a fraction of a GHashTable's insert and removal. */

static inline guint
user_hash (const GraftNode *key)
{
  return (guint) ((((guintptr) key >> 4) * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 32);
}

/* The index slot of @key, or the empty slot where it would go. */
static inline guint32 *
user_index_slot (UserArray       *array,
                 const GraftNode *key)
{
  for (guint i = user_hash (key) & array->index_mask;; i = (i + 1) & array->index_mask)
    {
      guint32 pos = array->index[i];

      if (pos == 0 || array->items[pos - 1] == key)
        return &array->index[i];
    }
}

/* (Re)builds the index for the @n users of @array, at most 3/4 full (a
 * value read by 20,000 nodes keeps 32,768 slots, not 65,536).  The slot
 * past the last (index[index_mask + 1]) holds how many users the index
 * covers: users are appended without it (user_index_sync()); the one after
 * it, which of the graph's deferred lists the users are in, + 1, or 0
 * (defer_removal()). */
static void
user_index_build (UserArray *array,
                  guint      n)
{
  guint   size = 64;
  guint32 deferred = array->index != NULL ? array->index[array->index_mask + 2] : 0;

  while (3 * size < 4 * (n + 1))
    size *= 2;
  g_free (array->index);
  array->index = g_new0 (guint32, size + 2);
  array->index_mask = size - 1;
  for (guint p = 0; p < n; p++)
    *user_index_slot (array, array->items[p]) = p + 1;
  array->index[size] = n;
  array->index[size + 1] = deferred;
}

/* Brings the index of @array up to its users: add_user() appends without
 * it, so that the users of a value only ever read (as every value of a
 * traced program is until something is erased) are not indexed one by
 * one; a removal first indexes the users added since the last, or
 * rebuilds the index larger. */
static G_GNUC_NO_INLINE void
user_index_sync (UserArray *array)
{
  guint n = array->n;
  guint size;

  if (4 * n > 3 * (array->index_mask + 1))
    {
      user_index_build (array, n);
      return;
    }
  size = array->index_mask + 1;
  for (guint p = array->index[size]; p < n; p++)
    *user_index_slot (array, array->items[p]) = p + 1;
  array->index[size] = n;
}

/* Removes the index slot @slot (user_index_slot()'s answer for a present
 * user), moving back the slots after it in its run that may no longer be
 * reached past the hole; the users array must be as the index says. */
static void
user_index_remove (UserArray *array,
                   guint32   *slot)
{
  guint32 *slots = array->index;
  guint    mask = array->index_mask;
  guint    i = (guint) (slot - slots);
  guint    j = i;

  for (;;)
    {
      guint k;

      j = (j + 1) & mask;
      if (slots[j] == 0)
        break;
      k = user_hash (array->items[slots[j] - 1]) & mask;
      /* Leave the slot if its home lies cyclically in (i, j]. */
      if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
        continue;
      slots[i] = slots[j];
      i = j;
    }
  slots[i] = 0;
}

/* What few nodes have: kept out of the node, in an array of the graph
 * (GraftGraph.extras) that the node indexes. */
typedef struct
{
  GraftNodeMeta *meta; /* nullable; its strings and frames are the graph's */
  const char    *type; /* interned, nullable: the annotation as printed */
} NodeExtra;

G_STATIC_ASSERT (GRAFT_MAX_NODES < (1u << 24));
/* 56 nodes a 4 KiB page on 64-bit systems: a byte more costs five nodes
 * a page. */
G_STATIC_ASSERT (sizeof (GraftNode) <= 72);
/* The extras index, 25 bits: a node has at most one, and GRAFT_MAX_NODES
 * are alive at once, with those an undo history keeps (extras_index()). */
#define MAX_EXTRAS ((1u << 25) - 1)
/* The order key stays below this (link_node(), relabel_around()). */
#define ORDER_LIMIT ((gint64) 1 << (GRAFT_NODE_ORDER_BITS - 1))
G_STATIC_ASSERT (GRAFT_OP_OUTPUT < 8);

/* The keyword arguments of every node that has none (most): never
 * written, as every walk of it stops at its zero items. */
GraftArg _graft_no_kwargs = { .kind = GRAFT_ARG_DICT, .n = 0, .items = NULL };

/* A user that left a long users list while removals were deferred: a
 * UserDeparture (graft-edit-private.h), whose next is an index in
 * GraftGraph.departures or NO_DEPARTURE. */
typedef UserDeparture Departure;

#define NO_DEPARTURE G_MAXUINT32

/* A users list with deferred departures: its length when the first was
 * deferred, and the departures in order. */
typedef struct
{
  GraftNode *used; /* NULL once settled */
  guint32    n0;
  guint32    first;
  guint32    last;
} DeferredList;

struct _GraftGraph
{
  const GraftDialect *dialect; /* static */

  /* Owned */
  GraftNamespace *names;
  GStringChunk   *chunk;
  GraftArgPool   *args_pool;        /* every node's arguments, and those edits keep */
  GHashTable     *derived_names[2]; /* interned target -> the name it gives
                                     * (index 1: call_function), in chunk */
  /* The last few of them, in slots picked by the target's address: a
   * hit costs no hash table lookup. */
  struct
  {
    const char *target;
    const char *name;
  } derived_cache[2][32];
  /* Recently interned targets, in slots picked by length and end bytes: a
   * graph has a few dozen targets and thousands of nodes, and a hit
   * (checked by comparing the text) saves hashing the whole string. */
  const char *intern_cache[128];
  /* The same by the caller's address (the tracer's targets are strings of
   * its tables, the rewriter's those of its templates): a hit is checked
   * by comparing the text, but needs no length or hash of it first.  Two
   * ways a set, the newer first, so that two targets of one set (a static
   * table's `torch.max` and `operator.add`, where the layout puts them)
   * do not drive each other out.  Index 0 of each pair: the caller's
   * address; 1: the interned copy. */
  const char *intern_by_address[64][2][2];
  /* Whether each way's caller said its text was static: only then is its
   * address alone trusted.  A caller's passing text (a reader's buffer,
   * freed) may leave its address here, and a static text (the rewriter's
   * interned copy) come to lie at the same address later: trusted by
   * address, the static text was given the other's copy (a
   * `torch.ops.aten.mul.Tensor` target printed as `_tensor_constant1_1`). */
  gboolean intern_by_address_static[64][2];
  /* Every string interned in chunk, by its text (keys borrowed from the
   * chunk, each its own value): hashed eight bytes at a time, where the
   * chunk's own table (g_string_chunk_insert_const()) hashes a byte at a
   * time.  Empty (no slots) until the first string. */
  GraftNameTable interned;

  /* Detached nodes an edit may bring back; a node's order is its index
   * here while it is in it.  Appended inline (a rewrite erases thousands). */
  GraftNode  **trash;
  guint        trash_len;
  guint        trash_size;
  guint        n_trash_bound; /* of those, erased: their names bound to them */
  GraftSource *source;        /* where node spans point, or NULL */
  GraftEdit   *recording;     /* the edit being recorded, or NULL */
  GPtrArray   *edits;         /* every edit of the graph not yet freed
                               * (borrowed), told when the graph goes */

  /* Owned: interned get_attr target -> GraftAttrKind, or NULL */
  GHashTable *attr_kinds;
  /* Owned: interned call_module target -> interned constructor, or NULL */
  GHashTable *module_constructors;

  GraftProgram *program;     /* Owned, nullable: a torch.export program's signature */
  const char   *module_name; /* interned, nullable: the class print_readable names */

  /* Owned, nullable: torch's own namespace of a program read whose node
   * names torch overwrote without telling it (the `.pt2` reader's shadow:
   * it holds `sym_size_int` where the node is named `sym_size_int_1`).
   * Then every name the graph makes comes from it, as torch's would, and
   * `torch_made` maps each node so named to its name there (for undo).
   * A name it gives that the graph's namespace already has (a node named
   * over by the reader still carries it) is given to a second node:
   * `sharers` holds those nodes, whose name is the torch namespace's
   * stored copy, neither in the graph's namespace nor bound. */
  GraftNamespace *torch_names;
  GHashTable     *torch_made;    /* node -> its name in torch_names */
  GHashTable     *sharers;       /* node -> its link in sharers_named's queue */
  GHashTable     *sharers_named; /* Owned, with sharers: a name (owned) -> GQueue of its
                                  * sharers, made first first */

  /* Borrowed (the nodes themselves are owned through the list) */
  GraftNode *first;
  GraftNode *last;
  guint      n_nodes;
  guint32    epoch;        /* the last mark handed out */
  guint      marks_held;   /* algorithms using marks now (_graft_graph_hold_marks()) */
  GPtrArray *marked_pages; /* NodePage: those with marks, or NULL */
  GPtrArray *marks_blocks; /* their arrays, MARKS_BLOCK_PAGES a block, owned; or NULL */
  guint32   *marks_next;   /* in the newest block */
  guint      marks_left;   /* pages' arrays left in it */
  /* Clear while the graph is known to be in topological order: nodes
   * only appended (as a tracer or reader builds it), or checked since
   * (_graft_graph_is_topological()).  Set by what may break the order: an
   * insertion or a move, arguments changed to another node. */
  gboolean maybe_unordered;

  /* Node memory: nodes are carved in creation order out of pages (see
   * NodePage), so a walk of a traced graph reads memory in order; erased
   * nodes are reused. */
  GPtrArray *node_blocks;    /* runs of pages, owned */
  char      *next_page;      /* in the newest run */
  guint      pages_left;     /* in it */
  GraftNode *page_next;      /* in the newest page */
  guint      page_left;      /* nodes left in it */
  guint      pages_expected; /* of runs not made yet, to fault in as they
                              * are (_graft_graph_expect_changes()) */
  GraftNode *free_nodes;     /* linked through next */
  gsize      node_bytes;     /* of every run */

  /* Users arrays of two (a value's second user makes one): carved out of
   * blocks of the graph, as malloc would take about as many instructions
   * as the rest of linking the user, and bytes of its own. */
  GPtrArray *pair_blocks; /* PAIR_BLOCK bytes each, owned; or NULL */
  char      *pair_next;   /* in the newest block */
  guint      pairs_left;  /* in it */
  UserArray *free_pairs;  /* linked through index */

  GArray *extras; /* NodeExtra, owned: what few nodes have; its length
                   * is its room, the first n_extras used or free */
  guint   n_extras;
  GArray *free_extras; /* guint: indexes of extras no node has */

  /* Owned, nullable: node -> the end of its span, for the spans whose
   * length is GRAFT_NODE_SPAN_LONG in the node */
  GHashTable *long_spans;

  /* While a rewrite runs (_graft_graph_defer_user_removals()): users that
   * left long users lists, not yet taken out of them (defer_removal()).
   * Owned */
  gboolean      deferring;
  gboolean      never_defer; /* for tests: removals made at once */
  DeferredList *deferred;    /* one per list with departures */
  guint         n_deferred;
  guint         deferred_size;
  Departure    *departures; /* in the order they happened */
  guint         n_departures;
  guint         departures_size;
};

#define PAIR_SIZE  (sizeof (UserArray) + 2 * sizeof (GraftNode *))
#define PAIR_BLOCK 4096

#ifdef GRAFT_NODES_EACH_ALONE
#define NODES_EACH_ALONE 1
#endif
#define NODE_PAGE_SIZE GRAFT_NODE_PAGE_SIZE
#define NODES_PER_PAGE GRAFT_NODES_PER_PAGE

G_STATIC_ASSERT (NODES_PER_PAGE >= 1);
G_STATIC_ASSERT (sizeof (NodePage) % G_ALIGNOF (GraftNode) == 0);

/* Read only (in .rodata): a set of a mark on a page without its own array
 * (_graft_node_set_mark_held() on a graph that does not hold its marks)
 * faults rather than marking every page. */
const guint32 _graft_no_marks[GRAFT_PAGE_MARKS] = { 0 };

/* Pages' mark arrays are carved out of blocks of this many (8 KiB): one
 * allocation for 896 nodes. */
#define MARKS_BLOCK_PAGES 16

/* Runs of pages grow with the graph, up to this many pages (64 KiB: the
 * newest run is partly empty, and a longer one would waste more). */
#define MAX_PAGES_PER_RUN 16

static inline GraftGraph *
node_graph (const GraftNode *node)
{
  return node_page (node)->graph;
}

/* @node's extra part, or NULL; valid until another node gets one. */
static inline NodeExtra *
get_extra (const GraftNode *node)
{
  if (node->extra == 0)
    return NULL;
  return &g_array_index (node_graph (node)->extras, NodeExtra, node->extra - 1);
}

/* @node's extra part, made if it has none. */
static NodeExtra *
node_extra (GraftNode *node)
{
  GraftGraph *graph = node_graph (node);

  if (node->extra == 0)
    {
      guint i;

      if (graph->free_extras->len > 0)
        {
          i = g_array_index (graph->free_extras, guint, graph->free_extras->len - 1);
          g_array_set_size (graph->free_extras, graph->free_extras->len - 1);
        }
      else
        {
          i = graph->n_extras;
          /* 2^25 nodes alive or kept for undo at once take more than 2.5
           * GB of nodes alone: the process is out of memory. */
          if (G_UNLIKELY (i >= MAX_EXTRAS))
            g_error ("graph: more than %u nodes with metadata", MAX_EXTRAS);
          /* Grown by doubling, zeroed (a `.pt2` program's every node has
           * metadata: g_array_set_size() by one cost about 90 instructions
           * a node); a freed extra is zeroed as it is freed. */
          if (i == graph->extras->len)
            g_array_set_size (graph->extras, MAX (2 * i, 64u));
          graph->n_extras = i + 1;
        }
      node->extra = i + 1;
    }
  return get_extra (node);
}

static const char *const op_names[] = {
  "placeholder",
  "get_attr",
  "call_function",
  "call_method",
  "call_module",
  "output",
};

const char *
graft_op_to_string (GraftOp op)
{
  if ((guint) op < G_N_ELEMENTS (op_names))
    return op_names[op];
  return "?";
}

/**
 * graft_op_from_string:
 * @text: an op name such as `call_function`
 * @len: its length
 * @out_op: (out): the op
 *
 * Returns: whether @text names an op
 */
gboolean
graft_op_from_string (const char *text,
                      gsize       len,
                      GraftOp    *out_op)
{
  for (guint i = 0; i < G_N_ELEMENTS (op_names); i++)
    if (strlen (op_names[i]) == len && memcmp (op_names[i], text, len) == 0)
      {
        *out_op = (GraftOp) i;
        return TRUE;
      }
  return FALSE;
}

/**
 * graft_graph_new:
 * @dialect: the torch whose rules the graph follows: how its nodes are
 *   named, printed, matched and rewritten
 *
 * Returns: (transfer full): an empty graph
 */
GraftGraph *
graft_graph_new (const GraftDialect *dialect)
{
  GraftGraph *self = g_new0 (GraftGraph, 1);

  g_return_val_if_fail (dialect != NULL, self);

  self->dialect = dialect;
  self->names = graft_namespace_new (dialect);
  self->chunk = g_string_chunk_new (4096);
  self->args_pool = _graft_arg_pool_new ();
  self->edits = g_ptr_array_new ();
  self->node_blocks = g_ptr_array_new_with_free_func (g_aligned_free);
  self->extras = g_array_new (FALSE, TRUE, sizeof (NodeExtra));
  self->free_extras = g_array_new (FALSE, FALSE, sizeof (guint));
  return self;
}

#ifndef NODES_EACH_ALONE
/* node_alloc() when no node is free and the page is used up: the next
 * page of the run, or a new run of pages. */
static G_GNUC_NO_INLINE void
node_page_next (GraftGraph *self)
{
  NodePage *page;
  guint     n_run = 0;

  if (self->pages_left == 0)
    {
      guint n = CLAMP (self->n_nodes / NODES_PER_PAGE, 1, MAX_PAGES_PER_RUN);

      self->next_page = g_aligned_alloc (n, NODE_PAGE_SIZE, NODE_PAGE_SIZE);
      self->pages_left = n;
      n_run = n;
      if (G_UNLIKELY (self->pages_expected > 0))
        {
          guint now = MIN (self->pages_expected, n);

          _graft_memory_prefault (self->next_page, (gsize) now * NODE_PAGE_SIZE);
          self->pages_expected -= now;
        }
      self->node_bytes += n * NODE_PAGE_SIZE;
      g_ptr_array_add (self->node_blocks, self->next_page);
    }
  page = (NodePage *) self->next_page;
  page->graph = self;
  node_page_set_marks (page, (guint32 *) _graft_no_marks);
  page->run_pages = n_run; /* 0 but in a run's first page */
  /* While marks are held, every page has its array. */
  if (self->marks_held > 0)
    _graft_node_page_add_marks (page);
  self->next_page += NODE_PAGE_SIZE;
  self->pages_left--;
  self->page_next = (GraftNode *) (page + 1);
  self->page_left = NODES_PER_PAGE;
}
#endif

/* A node's memory, uninitialised: a free one, or the page's next
 * (inline: most graphs only grow). */
static inline G_ALWAYS_INLINE GraftNode *
node_alloc_raw (GraftGraph *self)
{
  GraftNode *node;

#ifdef NODES_EACH_ALONE
  {
    NodePage *page = g_aligned_alloc (1, NODE_PAGE_SIZE, NODE_PAGE_SIZE);

    page->graph = self;
    node_page_set_marks (page, (guint32 *) _graft_no_marks);
    if (self->marks_held > 0)
      _graft_node_page_add_marks (page);
    node = (GraftNode *) (page + 1);
    self->node_bytes += NODE_PAGE_SIZE;
  }
#else
  if (G_UNLIKELY (self->free_nodes != NULL))
    {
      node = self->free_nodes;
      self->free_nodes = node->next;
      /* New nodes carry no mark. */
      if (G_UNLIKELY (node_page (node)->marks != _graft_no_marks))
        node_marks (node)[0] = node_marks (node)[1] = 0;
    }
  else
    {
      if (G_UNLIKELY (self->page_left == 0))
        node_page_next (self);
      node = self->page_next++;
      self->page_left--;
    }
#endif
  return node;
}

/* A node of zeros (node_alloc_raw()). */
static inline G_ALWAYS_INLINE GraftNode *
node_alloc (GraftGraph *self)
{
  GraftNode *node = node_alloc_raw (self);

  memset (node, 0, sizeof *node);
  return node;
}

/* A users array of capacity two, uninitialised (pair_free() gives it
 * back). */
static UserArray *
pair_alloc (GraftGraph *self)
{
#ifdef NODES_EACH_ALONE
  return g_malloc (PAIR_SIZE);
#else
  UserArray *pair;

  if (self->free_pairs != NULL)
    {
      pair = self->free_pairs;
      self->free_pairs = (UserArray *) pair->index;
      return pair;
    }
  if (self->pairs_left == 0)
    {
      if (self->pair_blocks == NULL)
        self->pair_blocks = g_ptr_array_new_with_free_func (g_free);
      self->pair_next = g_malloc (PAIR_BLOCK);
      g_ptr_array_add (self->pair_blocks, self->pair_next);
      self->pairs_left = PAIR_BLOCK / PAIR_SIZE;
    }
  pair = (UserArray *) self->pair_next;
  self->pair_next += PAIR_SIZE;
  self->pairs_left--;
  return pair;
#endif
}

static void
pair_free (GraftGraph *self,
           UserArray  *pair)
{
#ifdef NODES_EACH_ALONE
  g_free (pair);
#else
  pair->index = (guint32 *) self->free_pairs;
  self->free_pairs = pair;
#endif
}

/* Frees @array, a node's users. */
static void
user_array_free (GraftGraph *self,
                 UserArray  *array)
{
  g_free (array->index);
  if (array->capacity_log2 == 1)
    pair_free (self, array);
  else
    g_free (array);
}

/* Gives @node, which has none, the keyword arguments @value (in the
 * pool's form; moved, and left `None`): unless there are none, in an
 * array one item longer than its args' that holds them after the args'
 * items. */
static void
put_kwargs (GraftGraph *self,
            GraftNode  *node,
            GraftArg   *value)
{
  guint     n = node->args.n;
  GraftArg *items;

  g_assert (!node->has_kwargs);
  if (value->n == 0)
    {
      _graft_arg_pool_release (self->args_pool, value);
      return;
    }
  _graft_arg_pool_share (self->args_pool, value);
  items = _graft_arg_pool_new_items (self->args_pool, n + 1);
  if (n > 0)
    {
      memcpy (items, node->args.items, n * sizeof (GraftArg));
      _graft_arg_pool_free_items (self->args_pool, node->args.items, n);
    }
  items[n] = *value;
  node->args.items = items;
  node->has_kwargs = TRUE;
  graft_arg_init_none (value);
}

/* Moves @node's keyword arguments to @out (in the pool's form), leaving it
 * none, and its args in an array of their own. */
static void
take_kwargs (GraftGraph *self,
             GraftNode  *node,
             GraftArg   *out)
{
  guint     n = node->args.n;
  GraftArg *items = NULL;

  if (!node->has_kwargs)
    {
      *out = _graft_no_kwargs;
      return;
    }
  *out = node->args.items[n];
  if (n > 0)
    {
      items = _graft_arg_pool_new_items (self->args_pool, n);
      memcpy (items, node->args.items, n * sizeof (GraftArg));
    }
  _graft_arg_pool_free_items (self->args_pool, node->args.items, n + 1);
  node->args.items = items;
  node->has_kwargs = FALSE;
}

/* Gives back @node's args and keyword arguments, leaving them none. */
static void
release_node_args (GraftGraph *self,
                   GraftNode  *node)
{
  /* The keyword arguments are one more item of the array. */
  node->args.n += node->has_kwargs;
  _graft_arg_pool_release (self->args_pool, &node->args);
  graft_arg_init_seq (&node->args, GRAFT_ARG_TUPLE, 0);
  node->has_kwargs = FALSE;
}

/* Frees what @node owns (its arguments too if @release_args: when the
 * graph goes, its pool goes whole); its own memory goes back to the
 * graph. */
static void
node_clear (GraftGraph *self,
            GraftNode  *node,
            gboolean    release_args)
{
  if (node->extra != 0)
    {
      NodeExtra *extra = get_extra (node);
      guint      i = node->extra - 1;

      g_free (extra->meta);
      *extra = (NodeExtra){ NULL, NULL };
      g_array_append_val (self->free_extras, i);
      node->extra = 0;
    }
  if (node->span_len == GRAFT_NODE_SPAN_LONG)
    {
      g_hash_table_remove (self->long_spans, node);
      node->span_len = 0;
    }
  if (release_args)
    release_node_args (self, node);
  if (node->users_many)
    {
      user_array_free (self, node->users.many);
      node->users_many = FALSE;
    }
  node->users.one = NULL;
}

#ifdef NODES_EACH_ALONE
/* Forgets @page's marks (it has some), before the page itself goes: its
 * array stays in its block until the marks are dropped. */
static void
page_drop_marks (GraftGraph *self,
                 NodePage   *page)
{
  NodePage *last = g_ptr_array_steal_index_fast (self->marked_pages, page->marked_pos);

  g_assert (last == page);
  if (page->marked_pos < self->marked_pages->len)
    ((NodePage *) self->marked_pages->pdata[page->marked_pos])->marked_pos = page->marked_pos;
  node_page_set_marks (page, (guint32 *) _graft_no_marks);
}
#endif

/* Gives back every page's marks: each node's read as 0 after. */
static void
drop_marks (GraftGraph *self)
{
  if (self->marked_pages == NULL)
    return;
  for (guint i = 0; i < self->marked_pages->len; i++)
    node_page_set_marks (self->marked_pages->pdata[i], (guint32 *) _graft_no_marks);
  g_ptr_array_set_size (self->marked_pages, 0);
  g_ptr_array_set_size (self->marks_blocks, 0);
  self->marks_next = NULL;
  self->marks_left = 0;
}

/* Gives every page of the graph its own array of marks (those that have
 * one keep it): while marks are held, _graft_node_set_mark_held() needs
 * no check.  Under AddressSanitizer (a page a node, no list of pages)
 * that accessor checks, as _graft_node_set_mark() does. */
static void
add_all_marks (GraftGraph *self)
{
#ifndef NODES_EACH_ALONE
  for (guint b = 0; b < self->node_blocks->len; b++)
    {
      char *run = self->node_blocks->pdata[b];
      guint n = ((NodePage *) run)->run_pages;

      /* The newest run: only its pages handed out so far. */
      if (b + 1 == self->node_blocks->len)
        n -= self->pages_left;
      for (guint i = 0; i < n; i++)
        {
          NodePage *page = (NodePage *) (run + (gsize) i * NODE_PAGE_SIZE);

          if (page->marks == _graft_no_marks)
            _graft_node_page_add_marks (page);
        }
    }
#endif
}

/* Marks start over (every slot cleared), as when they wrap around. */
static void
restart_marks (GraftGraph *self)
{
  drop_marks (self);
  if (self->marks_held > 0)
    add_all_marks (self);
  self->epoch = 0;
}

/* _graft_node_shares_name(), inlined: one test of a field for a graph
 * without torch's namespace. */
static inline G_ALWAYS_INLINE gboolean
shares_name (GraftGraph *self,
             GraftNode  *node)
{
  return G_UNLIKELY (self->sharers != NULL) && g_hash_table_contains (self->sharers, node);
}

/* The tables of sharers, made at the first. */
static void
ensure_sharers (GraftGraph *self)
{
  if (self->sharers != NULL)
    return;
  self->sharers = g_hash_table_new (NULL, NULL);
  self->sharers_named =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_queue_free);
}

/* Makes @node, to be called @name, a sharer: kept by its name too, so
 * that graft_graph_find_node() finds a sharer without a walk of them all. */
static void
add_sharer (GraftGraph *self,
            GraftNode  *node,
            const char *name)
{
  GQueue *queue = g_hash_table_lookup (self->sharers_named, name);

  if (queue == NULL)
    {
      queue = g_queue_new ();
      g_hash_table_insert (self->sharers_named, g_strdup (name), queue);
    }
  g_queue_push_tail (queue, node);
  g_hash_table_insert (self->sharers, node, queue->tail);
}

/* Forgets @node in the tables of torch's namespace, as it is freed. */
static void
forget_torch_made (GraftGraph *self,
                   GraftNode  *node)
{
  GList *link;

  if (self->torch_made != NULL)
    g_hash_table_remove (self->torch_made, node);
  if (g_hash_table_steal_extended (self->sharers, node, NULL, (gpointer *) &link))
    {
      GQueue *queue = g_hash_table_lookup (self->sharers_named, node->name);

      g_queue_delete_link (queue, link);
      if (g_queue_is_empty (queue))
        g_hash_table_remove (self->sharers_named, node->name);
    }
}

static void
node_free (GraftGraph *self,
           GraftNode  *node,
           gboolean    release_args)
{
  if (G_UNLIKELY (self->sharers != NULL))
    forget_torch_made (self, node);
  node_clear (self, node, release_args);
#ifdef NODES_EACH_ALONE
  if (node_page (node)->marks != _graft_no_marks)
    page_drop_marks (self, node_page (node));
  g_aligned_free ((NodePage *) node - 1);
  self->node_bytes -= NODE_PAGE_SIZE;
#else
  node->next = self->free_nodes;
  self->free_nodes = node;
#endif
}

void
graft_graph_free (GraftGraph *self)
{
  GraftNode *node, *next;

  if (self == NULL)
    return;
  for (node = self->first; node != NULL; node = next)
    {
      next = node->next;
      node_free (self, node, FALSE);
    }
  for (guint i = 0; i < self->trash_len; i++)
    node_free (self, self->trash[i], FALSE);
  g_free (self->trash);
  g_clear_pointer (&self->attr_kinds, g_hash_table_unref);
  g_clear_pointer (&self->module_constructors, g_hash_table_unref);
  /* Edits may outlive the graph: they forget it, and the arguments they
   * keep in its pool. */
  for (guint i = 0; i < self->edits->len; i++)
    _graft_edit_forget_graph (self->edits->pdata[i]);
  g_ptr_array_unref (self->edits);
  g_clear_pointer (&self->source, graft_source_unref);
  g_clear_pointer (&self->program, _graft_program_free);
  g_clear_pointer (&self->derived_names[0], g_hash_table_unref);
  g_clear_pointer (&self->derived_names[1], g_hash_table_unref);
  g_string_chunk_free (self->chunk);
  if (self->interned.slots != NULL)
    _graft_name_table_clear (&self->interned);
  _graft_arg_pool_free (self->args_pool);
  graft_namespace_free (self->names);
  g_clear_pointer (&self->torch_names, graft_namespace_free);
  g_clear_pointer (&self->torch_made, g_hash_table_unref);
  g_clear_pointer (&self->sharers, g_hash_table_unref);
  g_clear_pointer (&self->sharers_named, g_hash_table_unref);
  drop_marks (self);
  g_clear_pointer (&self->marked_pages, g_ptr_array_unref);
  g_clear_pointer (&self->marks_blocks, g_ptr_array_unref);
  g_ptr_array_unref (self->node_blocks);
  g_clear_pointer (&self->pair_blocks, g_ptr_array_unref);
  g_array_unref (self->extras);
  g_array_unref (self->free_extras);
  g_clear_pointer (&self->long_spans, g_hash_table_unref);
  g_free (self->deferred);
  g_free (self->departures);
  g_free (self);
}

/**
 * graft_graph_has_edits:
 * @self: a graph
 *
 * Whether edits of @self are alive: graft_graph_free() tells them it
 * goes, so it may only run on another thread than theirs when there are
 * none.
 *
 * Returns: %TRUE if an edit of @self has not been freed
 */
gboolean
graft_graph_has_edits (GraftGraph *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->edits->len > 0;
}

guint
graft_graph_get_n_nodes (GraftGraph *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_nodes;
}

GraftNode *
graft_graph_get_first (GraftGraph *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->first;
}

GraftNode *
graft_graph_get_last (GraftGraph *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->last;
}

/**
 * graft_graph_get_output:
 *
 * Returns: (transfer none) (nullable): the last output node
 */
GraftNode *
graft_graph_get_output (GraftGraph *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  for (GraftNode *node = self->last; node != NULL; node = node->prev)
    if (node->op == GRAFT_OP_OUTPUT)
      return node;
  return NULL;
}

/**
 * graft_graph_find_node:
 *
 * Returns: (transfer none) (nullable): the live node called @name
 */
GraftNode *
graft_graph_find_node (GraftGraph *self,
                       const char *name)
{
  g_return_val_if_fail (self != NULL, NULL);
  GraftNode *node;

  /* The namespace binds each live node's name to the node, and that of
   * an erased node kept for undo to it (trash_add()). */
  node = _graft_namespace_lookup_bound (self->names, name);
  if (node != NULL && _graft_node_is_attached (self, node))
    return node;
  if (G_UNLIKELY (self->sharers != NULL))
    {
      GQueue *queue = g_hash_table_lookup (self->sharers_named, name);

      /* A node that shares its name with one erased (or unbound): the
       * first made of those in the list (the others of the name are kept
       * for undo). */
      for (GList *l = queue != NULL ? queue->head : NULL; l != NULL; l = l->next)
        if (_graft_node_is_attached (self, l->data))
          return l->data;
    }
  return NULL;
}

/* Whether @node has the name of another node (see `sharers`): its name
 * is not bound to it. */
gboolean
_graft_node_shares_name (GraftGraph *self,
                         GraftNode  *node)
{
  return shares_name (self, node);
}

/* How many nodes in @self's list have the name of another node. */
guint
_graft_graph_get_n_live_sharers (GraftGraph *self)
{
  GHashTableIter iter;
  gpointer       key;
  guint          n = 0;

  if (G_LIKELY (self->sharers == NULL))
    return 0;
  g_hash_table_iter_init (&iter, self->sharers);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    n += _graft_node_is_attached (self, key);
  return n;
}

/**
 * graft_graph_has_shared_names:
 *
 * Returns: whether two nodes in @self's list may have one name (a read
 *   program's copy named by torch's namespace while the program's node
 *   stays, docs/programs.md): a name is then not known to be unique
 *   (code generation renames the second), and graft_graph_find_node()
 *   finds one of them, the program's while it is in the list
 */
gboolean
graft_graph_has_shared_names (GraftGraph *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return _graft_graph_get_n_live_sharers (self) > 0;
}

/**
 * graft_graph_find_nodes:
 * @names: (array zero-terminated=1): node names
 * @out: (element-type GraftNode): where the nodes go
 *
 * Appends to @out the live nodes called by @names: graft_graph_find_node()
 * of each name, in the order of @names; in a graph where two nodes have
 * one name (graft_graph_has_shared_names()), every node of each name, in
 * graph order.  A name of no node is skipped.
 */
void
graft_graph_find_nodes (GraftGraph        *self,
                        const char *const *names,
                        GPtrArray         *out)
{
  g_autoptr (GHashTable) wanted = NULL;

  g_return_if_fail (self != NULL);
  g_return_if_fail (out != NULL);

  if (names == NULL)
    return;
  if (G_LIKELY (!graft_graph_has_shared_names (self)))
    {
      for (guint i = 0; names[i] != NULL; i++)
        {
          GraftNode *node = graft_graph_find_node (self, names[i]);

          if (node != NULL)
            g_ptr_array_add (out, node);
        }
      return;
    }
  wanted = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; names[i] != NULL; i++)
    g_hash_table_add (wanted, (gpointer) names[i]);
  for (GraftNode *node = self->first; node != NULL; node = node->next)
    if (g_hash_table_contains (wanted, node->name))
      g_ptr_array_add (out, node);
}

/* Gives @self torch's namespace @torch_names (consumed) to make its
 * names from (see `torch_names`). */
void
_graft_graph_set_torch_names (GraftGraph     *self,
                              GraftNamespace *torch_names)
{
  g_return_if_fail (self->torch_names == NULL);

  self->torch_names = torch_names;
  self->torch_made = g_hash_table_new (NULL, NULL);
  /* A DOT reader may have made sharers already. */
  ensure_sharers (self);
}

/* torch's namespace, when @self has one (_graft_graph_set_torch_names()). */
GraftNamespace *
_graft_graph_get_torch_names (GraftGraph *self)
{
  return self->torch_names;
}

/* Whether @node, a node of @self that may have been erased (and kept for
 * undo), is in the graph's list now: what graft_graph_find_node() of its
 * name answers, without a lookup.  A detached node has no neighbours. */
gboolean
_graft_node_is_attached (GraftGraph *self,
                         GraftNode  *node)
{
  return node_graph (node) == self && (node->prev != NULL || self->first == node);
}

/**
 * graft_graph_get_dialect:
 *
 * Returns: (transfer none): the torch the graph follows
 */
const GraftDialect *
graft_graph_get_dialect (GraftGraph *self)
{
  g_return_val_if_fail (self != NULL, graft_dialect_get_default ());
  return self->dialect;
}

/**
 * graft_graph_get_namespace:
 *
 * Returns: (transfer none): the namespace node names are made in
 */
GraftNamespace *
graft_graph_get_namespace (GraftGraph *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->names;
}

/* The graph's one copy of the @len bytes at @text (no NUL among them),
 * made if there is none: the same text always gives the same address. */
static const char *
intern_hashed (GraftGraph *self,
               const char *text,
               gsize       len,
               guint       hash)
{
  GraftNameSlot *slot;
  char          *copy;

  if (G_UNLIKELY (self->interned.slots == NULL))
    _graft_name_table_init (&self->interned, FALSE);
  slot = _graft_name_table_find (&self->interned, text, len, hash);
  if (slot != NULL)
    return slot->key;
  copy = g_string_chunk_insert_len (self->chunk, text, (gssize) len);
  _graft_name_table_insert_len (&self->interned, copy, (guint) len, hash, copy);
  return copy;
}

static const char *
intern_len (GraftGraph *self,
            const char *text,
            gsize       len)
{
  return intern_hashed (self, text, len, _graft_graph_hash_text (text, len));
}

/**
 * _graft_graph_intern_hashed:
 * @text: (array length=len): bytes without a NUL among them, which need
 *   not end after them
 * @hash: _graft_graph_hash_text() of them
 *
 * graft_graph_intern() of @len bytes whose hash the caller made (the
 * `.pt2` reader hashes every text for its caches first).
 *
 * Returns: (transfer none): the graph's one copy of the text
 */
const char *
_graft_graph_intern_hashed (GraftGraph *self,
                            const char *text,
                            gsize       len,
                            guint       hash)
{
  return intern_hashed (self, text, len, hash);
}

/**
 * _graft_graph_prefetch_interned:
 * @hash: _graft_graph_hash_text() of a text about to be interned
 *
 * Brings the slot where the interned texts' table looks for @hash toward
 * the processor, so that a reader can overlap the cache misses of several
 * texts before it interns them.
 */
void
_graft_graph_prefetch_interned (GraftGraph *self,
                                guint       hash)
{
  if (self->interned.slots != NULL)
    __builtin_prefetch (&self->interned.slots[hash & self->interned.mask]);
}

/**
 * _graft_graph_reserve_interned:
 *
 * Makes room for @n more interned texts at once, so that a reader that
 * knows about how many it will intern does not grow the table step by
 * step (each step copies the table whole).
 */
void
_graft_graph_reserve_interned (GraftGraph *self,
                               guint       n)
{
  if (G_UNLIKELY (self->interned.slots == NULL))
    _graft_name_table_init (&self->interned, FALSE);
  _graft_name_table_reserve (&self->interned, n);
}

/**
 * graft_graph_intern:
 *
 * Returns: (transfer none): a copy of @text that lives as long as the
 *   graph: one per distinct text, so interned strings compare by address
 */
const char *
graft_graph_intern (GraftGraph *self,
                    const char *text)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (text == NULL)
    return NULL;
  return intern_len (self, text, strlen (text));
}

/**
 * _graft_graph_lookup_interned:
 *
 * Returns: (nullable): the graph's interned copy of @text, or %NULL if the
 *   graph has none (so no node's target is @text); interns nothing
 */
const char *
_graft_graph_lookup_interned (GraftGraph *self,
                              const char *text)
{
  gsize          len = strlen (text);
  GraftNameSlot *slot;

  if (self->interned.slots == NULL)
    return NULL;
  slot = _graft_name_table_find (&self->interned, text, len, _graft_graph_hash_text (text, len));
  return slot != NULL ? slot->key : NULL;
}

/**
 * graft_graph_get_attr_kind:
 * @target: a get_attr target (`w`, `sub.weight`)
 *
 * Returns: what the attribute holds, as whoever built the graph said
 *   (graft_graph_set_attr_kind()), or %GRAFT_ATTR_UNKNOWN
 */
GraftAttrKind
graft_graph_get_attr_kind (GraftGraph *self,
                           const char *target)
{
  g_return_val_if_fail (self != NULL && target != NULL, GRAFT_ATTR_UNKNOWN);
  if (self->attr_kinds == NULL)
    return GRAFT_ATTR_UNKNOWN;
  return (GraftAttrKind) GPOINTER_TO_INT (g_hash_table_lookup (self->attr_kinds, target));
}

/**
 * graft_graph_set_attr_kind:
 * @target: a get_attr target
 * @kind: what the module attribute @target holds
 *
 * Records what a module attribute holds (the tracer knows; a listing does
 * not).  It describes the module the graph belongs to, not its nodes, so
 * edits do not undo it.
 */
void
graft_graph_set_attr_kind (GraftGraph   *self,
                           const char   *target,
                           GraftAttrKind kind)
{
  g_return_if_fail (self != NULL && target != NULL);
  if (self->attr_kinds == NULL)
    self->attr_kinds = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (self->attr_kinds, (gpointer) graft_graph_intern (self, target),
                       GINT_TO_POINTER (kind));
}

/**
 * graft_graph_get_module_constructor:
 * @target: a call_module target (`bn1`, `layer1.0.relu`)
 *
 * Returns: (nullable): Python that builds the module @target names again,
 *   as whoever built the graph recorded it
 *   (graft_graph_set_module_constructor()), or %NULL when the graph does
 *   not know; valid as long as the graph
 */
const char *
graft_graph_get_module_constructor (GraftGraph *self,
                                    const char *target)
{
  g_return_val_if_fail (self != NULL && target != NULL, NULL);
  if (self->module_constructors == NULL)
    return NULL;
  return g_hash_table_lookup (self->module_constructors, target);
}

/**
 * graft_graph_set_module_constructor:
 * @target: a call_module target
 * @constructor: a Python expression that builds the module at @target
 *   (`torch.nn.BatchNorm2d(64)`)
 *
 * Records how a module of the graph was built (the tracer knows for the
 * torch.nn layers it built from plain values; a listing does not).  Like
 * graft_graph_set_attr_kind(), it describes the module the graph belongs
 * to, so edits do not undo it.
 */
void
graft_graph_set_module_constructor (GraftGraph *self,
                                    const char *target,
                                    const char *constructor)
{
  g_return_if_fail (self != NULL && target != NULL && constructor != NULL);
  if (self->module_constructors == NULL)
    self->module_constructors = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (self->module_constructors, (gpointer) graft_graph_intern (self, target),
                       (gpointer) graft_graph_intern (self, constructor));
}

/* Above this many users a node indexes them, so that removing one user of
 * a value read by thousands of nodes (a weight, an input) stays O(1). */
#define USER_INDEX_THRESHOLD 16

/* While an edit records: @used's users list changed in a way undo does
 * not invert by itself (UserRecord), in the operation being made (@next:
 * or the one about to be recorded, for an index made while a node is
 * added, which is recorded after). */
static G_GNUC_NO_INLINE void
record_user (GraftNode     *used,
             guint          pos,
             UserRecordKind kind,
             gboolean       next)
{
  GraftEdit *edit = node_graph (used)->recording;

  if (edit == NULL)
    return;
  _graft_edit_record_user (edit, used, next || edit->n_ops == 0 ? edit->n_ops : edit->n_ops - 1,
                           pos, kind);
}

/* add_user() when @used's users are an array. */
static G_GNUC_NO_INLINE void
add_user_many (GraftNode *used,
               GraftNode *user)
{
  UserArray *array;

  if (!used->users_many)
    {
      array = pair_alloc (node_graph (used));
      array->n = 1;
      array->capacity_log2 = 1;
      array->index_mask = 0;
      array->index = NULL;
      array->items[0] = used->users.one;
      used->users.many = array;
      used->users_many = TRUE;
    }
  array = used->users.many;
  if (array->n == 1u << array->capacity_log2)
    {
      gsize size = sizeof (UserArray) + ((gsize) 2 << array->capacity_log2) * sizeof (GraftNode *);

      if (array->capacity_log2 == 1)
        {
          /* Out of the graph's pairs into the heap. */
          UserArray *pair = array;

          array = g_malloc (size);
          memcpy (array, pair, PAIR_SIZE);
          pair_free (node_graph (used), pair);
        }
      else
        array = g_realloc (array, size);
      array->capacity_log2++;
      used->users.many = array;
    }
  array->items[array->n++] = user;
  /* Past USER_INDEX_THRESHOLD users the array has an index; it catches
   * up with the users added after it when one is next removed. */
  if (G_UNLIKELY (array->n > USER_INDEX_THRESHOLD && array->index == NULL))
    {
      user_index_build (array, array->n);
      record_user (used, 0, USER_INDEX_MADE, TRUE);
    }
}

static inline G_ALWAYS_INLINE void
add_user (GraftNode *used,
          GraftNode *user)
{
  /* Most values have one user: it lives in the node. */
  if (!used->users_many && used->users.one == NULL)
    used->users.one = user;
  else
    add_user_many (used, user);
}

/* add_user() unless @user is @used's last user already: while a node's
 * uses are linked (it used nothing before), that is exactly when
 * @used was met before among its arguments. */
static inline G_ALWAYS_INLINE void
add_user_once (GraftNode *used,
               GraftNode *user)
{
  if (!used->users_many)
    {
      if (used->users.one == NULL)
        {
          used->users.one = user;
          return;
        }
      if (used->users.one == user)
        return;
    }
  else
    {
      UserArray *array = used->users.many;
      guint      n = array->n;

      if (n > 0 && array->items[n - 1] == user)
        return;
      /* Room, and no index to make (add_user_many()). */
      if (G_LIKELY (n < 1u << array->capacity_log2 &&
                    (n < USER_INDEX_THRESHOLD || array->index != NULL)))
        {
          array->items[n] = user;
          array->n = n + 1;
          return;
        }
    }
  add_user_many (used, user);
}

static void settle_list (GraftGraph   *self,
                         DeferredList *list);

/* Whether @array, a long users list, holds users that left it: its
 * departures are deferred (defer_removal()). */
static inline gboolean
has_departures (const UserArray *array)
{
  return array->index[array->index_mask + 2] != 0;
}

/* Removes @user.  A short list keeps its order; an indexed one moves its
 * last user into the gap (the order of users is a set's, as in torch, and
 * nothing depends on it). */
static void
remove_user (GraftNode *used,
             GraftNode *user)
{
  GraftNode **users;
  guint       n;

  if (!used->users_many)
    {
      g_assert (used->users.one == user);
      used->users.one = NULL;
      return;
    }
  if (used->users.many->index != NULL && G_UNLIKELY (has_departures (used->users.many)))
    {
      GraftGraph *graph = node_graph (used);

      settle_list (graph,
                   &graph->deferred[used->users.many->index[used->users.many->index_mask + 2] - 1]);
    }
  users = used->users.many->items;
  n = used->users.many->n;
  if (used->users.many->index != NULL)
    {
      UserArray *array = used->users.many;
      guint32   *slot;
      guint32    pos;
      GraftNode *last;

      if (array->index[array->index_mask + 1] != n || 4 * n > 3 * (array->index_mask + 1))
        user_index_sync (array);
      slot = user_index_slot (array, user);
      pos = *slot;
      g_assert (pos > 0);
      user_index_remove (array, slot);
      last = users[--array->n];
      if (pos - 1 < array->n)
        {
          record_user (used, pos - 1, USER_SWAPPED, FALSE);
          /* The last user moves into the gap: its slot (found while the
           * array still has it last) says so. */
          *user_index_slot (array, last) = pos;
          users[pos - 1] = last;
        }
      array->index[array->index_mask + 1] = array->n;
      return;
    }
  /* Search from the end: the most recent user is the likeliest to go. */
  for (guint i = n; i > 0; i--)
    if (users[i - 1] == user)
      {
        if (i < n)
          record_user (used, i - 1, USER_SHIFTED, FALSE);
        memmove (&users[i - 1], &users[i], (n - i) * sizeof (GraftNode *));
        used->users.many->n = n - 1;
        return;
      }
  g_assert_not_reached ();
}

/* Deferred removals.  A rewrite erases thousands of nodes that read a
 * few busy values (a weight, an input), and takes each out of its value's
 * indexed users list: two probes of the index and the shift of a run
 * each.  While the graph defers removals (a rewrite), a user leaving such
 * a list is only recorded, with the list's length then, and the list is
 * put right once: when it is next read through _graft_node_settle_users()
 * or a removal, or when the rewrite ends (_graft_graph_settle_users()).
 * Settling replays the departures in order, each one's gap taken by the
 * list's last user then, as remove_user() does: the users end in the same
 * order as if each had been removed at once.  Until then the list holds
 * the users that left (they stay in the graph's trash): its count is too
 * large, and only users are appended to it. */

/* Records that @user leaves the users of @used, which has an index. */
static inline G_ALWAYS_INLINE void
defer_removal (GraftGraph *self,
               GraftNode  *used,
               GraftNode  *user)
{
  UserArray    *array = used->users.many;
  guint32      *which = &array->index[array->index_mask + 2];
  DeferredList *list;
  guint32       d;

  if (*which == 0)
    {
      if (G_UNLIKELY (self->n_deferred == self->deferred_size))
        {
          self->deferred_size = MAX (2 * self->deferred_size, 8);
          self->deferred = g_renew (DeferredList, self->deferred, self->deferred_size);
        }
      self->deferred[self->n_deferred] = (DeferredList){
        .used = used, .n0 = array->n, .first = NO_DEPARTURE, .last = NO_DEPARTURE
      };
      *which = ++self->n_deferred;
    }
  list = &self->deferred[*which - 1];
  if (G_UNLIKELY (self->n_departures == self->departures_size))
    {
      g_assert (self->departures_size < NO_DEPARTURE / 2);
      self->departures_size = MAX (2 * self->departures_size, 64);
      self->departures = g_renew (Departure, self->departures, self->departures_size);
    }
  d = self->n_departures++;
  self->departures[d] = (Departure){
    .node = user, .pos_kind = array->n, .next = NO_DEPARTURE, .op = self->recording->n_ops - 1
  };
  if (list->last == NO_DEPARTURE)
    list->first = d;
  else
    self->departures[list->last].next = d;
  list->last = d;
}

/* Whether removing a user of @used may be deferred now: a long list (it
 * has an index) while the graph defers, not so long that the users that
 * left and those that came could overflow its count. */
static inline gboolean
may_defer (GraftNode *used)
{
  return used->users_many && used->users.many->index != NULL && node_graph (used)->deferring &&
         used->users.many->n < (1u << 23);
}

/* Takes out of @list's users, in order, those that left it.  Their places
 * are found through scratch slot 1 of the users (the position from a base
 * of fresh marks); the index then starts over, filled again at the next
 * removal (user_index_sync()). */
static void
settle_list (GraftGraph   *self,
             DeferredList *list)
{
  UserArray  *array = list->used->users.many;
  GraftNode **items = array->items;
  guint       n = array->n;
  guint32     base = _graft_graph_reserve_marks (self, n);
  guint       len = list->n0;
  guint       next = list->n0;

  g_assert (array->index[array->index_mask + 2] == (guint32) (list - self->deferred) + 1);
  /* Removals are deferred while an edit records, which holds their records. */
  g_assert (self->recording != NULL);
  /* Held by the rewrite that defers, in practice: then only a count. */
  _graft_graph_hold_marks (self);
  for (guint p = 0; p < list->n0; p++)
    _graft_node_set_mark_held (items[p], 1, base + p);
  for (guint32 d = list->first, following; d != NO_DEPARTURE; d = following)
    {
      Departure *departure = &self->departures[d];
      guint      n_then = departure->pos_kind;
      GraftNode *last;
      guint      pos;

      following = departure->next;
      /* The users that came before it, after those that stay. */
      for (; next < n_then; next++, len++)
        {
          items[len] = items[next];
          _graft_node_set_mark_held (items[len], 1, base + len);
        }
      pos = _graft_node_get_mark (departure->node, 1) - base;
      g_assert (pos < len && items[pos] == departure->node);
      last = items[--len];
      /* Now the edit's record: undo puts it back at @pos, unless it was
       * last. */
      departure->node = list->used;
      departure->pos_kind = pos < len ? (guint32) pos << 2 | USER_SWAPPED : USER_LEFT_LAST;
      items[pos] = last;
      _graft_node_set_mark_held (last, 1, base + pos);
    }
  for (; next < n; next++, len++)
    items[len] = items[next];
  array->n = len;
  _graft_graph_release_marks (self);
  /* Positions moved: the index is empty, its count (users covered) 0,
   * and the list is no longer deferred. */
  memset (array->index, 0, (array->index_mask + 3) * sizeof (guint32));
  list->used = NULL;
}

/*
 * _graft_graph_restore_user:
 * @used: whose users list changed in an operation an undo has just
 *   undone
 * @pos_kind: how (UserRecord's)
 *
 * Puts the list as it was before the operation: the user it removed from
 * the position, which the inverse appended, goes back there (the users
 * after it shifted on, or the user that took its place last again), or
 * the index it got goes.
 */
void
_graft_graph_restore_user (GraftNode *used,
                           guint32    pos_kind)
{
  UserArray  *array;
  GraftNode **items;
  GraftNode  *back;
  guint       pos = pos_kind >> 2;
  guint       n;

  if (pos_kind == USER_LEFT_LAST)
    return;
  g_assert (used->users_many);
  array = used->users.many;
  items = array->items;
  n = array->n;
  if ((pos_kind & USER_RECORD_KIND_MASK) == USER_INDEX_MADE)
    {
      g_assert (array->index != NULL && !has_departures (array));
      g_clear_pointer (&array->index, g_free);
      array->index_mask = 0;
      return;
    }
  g_assert (pos < n - 1);
  back = items[n - 1];
  if ((pos_kind & USER_RECORD_KIND_MASK) == USER_SHIFTED)
    {
      memmove (&items[pos + 1], &items[pos], (n - 1 - pos) * sizeof (GraftNode *));
      items[pos] = back;
      /* A list indexed since (within the operation): indexed again. */
      if (array->index != NULL)
        {
          memset (array->index, 0, (array->index_mask + 2) * sizeof (guint32));
          user_index_sync (array);
        }
      return;
    }
  /* USER_SWAPPED: the user in the gap goes last again.  The index covers
   * the first users: those of the two it covers change places in it. */
  {
    GraftNode *moved = items[pos];
    guint      covered = array->index != NULL ? array->index[array->index_mask + 1] : 0;
    guint32   *moved_slot = pos < covered ? user_index_slot (array, moved) : NULL;
    guint32   *back_slot = n - 1 < covered ? user_index_slot (array, back) : NULL;

    if (back_slot != NULL)
      {
        /* Both covered: their slots stay, their positions swap. */
        *moved_slot = n;
        *back_slot = pos + 1;
      }
    else if (moved_slot != NULL)
      {
        /* @back is not covered, @moved is no longer. */
        user_index_remove (array, moved_slot);
        items[pos] = back;
        *user_index_slot (array, back) = pos + 1;
      }
    items[pos] = back;
    items[n - 1] = moved;
  }
}

/**
 * _graft_graph_defer_user_removals:
 *
 * @n_erasures: about how many nodes will be erased meanwhile
 *
 * From now until _graft_graph_settle_users(), a user leaving a long
 * users list of an input as it is erased, or moving to its end, is only
 * recorded.  Before a node's users are read, _graft_node_settle_users().
 * For a rewrite, which records an edit: the users that left are kept in
 * the trash meanwhile.
 */
void
_graft_graph_defer_user_removals (GraftGraph *self,
                                  guint       n_erasures)
{
  g_return_if_fail (self->recording != NULL);
  self->deferring = !self->never_defer;
  /* Room for the nodes the rewrite erases and (about) one departure
   * each, made once rather than by doublings that copy what they hold. */
  n_erasures = MIN (n_erasures, 1u << 24);
  if (self->trash_size - self->trash_len < n_erasures)
    {
      self->trash_size = self->trash_len + n_erasures;
      self->trash = g_renew (GraftNode *, self->trash, self->trash_size);
    }
  /* Each erasure fills a slot: faulted in at once.  (None: the trash may
   * still be NULL, and NULL plus nothing is no pointer C allows.) */
  if (n_erasures > 0)
    _graft_memory_prefault (self->trash + self->trash_len, n_erasures * sizeof (GraftNode *));
  if (self->deferring && self->departures_size - self->n_departures < n_erasures)
    {
      self->departures_size = self->n_departures + n_erasures;
      self->departures = g_renew (Departure, self->departures, self->departures_size);
    }
}

/*
 * _graft_graph_expect_changes:
 * @n_nodes: how many nodes are about to be created (an estimate)
 * @n_ops: how many operations the edit being recorded is about to get
 *
 * Faults in the memory the new nodes and the records will fill, in a few
 * calls rather than a page fault each (_graft_memory_prefault()): a
 * rewrite knows both from its matches.
 */
void
_graft_graph_expect_changes (GraftGraph *self,
                             guint       n_nodes,
                             guint       n_ops)
{
  if (self->recording != NULL)
    _graft_edit_reserve (self->recording, n_ops);
#ifndef NODES_EACH_ALONE
  {
    guint pages = n_nodes > self->page_left
                      ? (n_nodes - self->page_left + (guint) NODES_PER_PAGE - 1) / NODES_PER_PAGE
                      : 0;
    guint now = MIN (pages, self->pages_left);

    /* The rest of the newest run; node_page_next() does the next runs. */
    _graft_memory_prefault (self->next_page, (gsize) now * NODE_PAGE_SIZE);
    self->pages_expected = pages - now;
  }
#endif
}

/* For tests, which compare the users lists a rewrite leaves with those
 * of removals made at once. */
void
_graft_graph_set_never_defer (GraftGraph *self,
                              gboolean    never)
{
  self->never_defer = never;
}

/**
 * _graft_graph_settle_users:
 *
 * Takes every user that left a list out of it, and stops deferring.
 */
void
_graft_graph_settle_users (GraftGraph *self)
{
  for (guint i = 0; i < self->n_deferred; i++)
    if (self->deferred[i].used != NULL)
      settle_list (self, &self->deferred[i]);
  /* The departures are the edit's records now: the next rewrite makes
   * its own. */
  if (self->n_departures > 0)
    {
      g_assert (self->recording != NULL);
      _graft_edit_take_departures (self->recording, g_steal_pointer (&self->departures),
                                   self->n_departures);
      self->departures_size = 0;
    }
  self->n_deferred = 0;
  self->n_departures = 0;
  self->deferring = FALSE;
}

/* _graft_node_settle_users() for a list with departures. */
void
_graft_node_settle_users_now (GraftNode *node)
{
  GraftGraph *self = node_graph (node);
  UserArray  *array = node->users.many;

  settle_list (self, &self->deferred[array->index[array->index_mask + 2] - 1]);
}

/*
 * _graft_node_get_last_user:
 * @node: a node
 * @graph: a graph
 *
 * Returns: (nullable): of @node's users in @graph (a broken graph's node
 *   may have users in another), the last in graph order, or %NULL when it
 *   has none there
 */
GraftNode *
_graft_node_get_last_user (GraftNode  *node,
                           GraftGraph *graph)
{
  GraftNode **users;
  GraftNode  *last = NULL;
  guint       n;

  _graft_node_settle_users (node);
  users = node_users (node);
  n = node_n_users (node);
  for (guint i = 0; i < n; i++)
    if (node_graph (users[i]) == graph && (last == NULL || users[i]->order > last->order))
      last = users[i];
  return last;
}

static void
collect_inputs (const GraftArg *arg,
                GPtrArray      *out)
{
  guint n_items;

  if (arg->kind == GRAFT_ARG_NODE)
    {
      /* Argument lists are short; a linear check keeps the order of first
       * appearance, as torch's `all_input_nodes` does. */
      for (guint i = 0; i < out->len; i++)
        if (out->pdata[i] == arg->node)
          return;
      g_ptr_array_add (out, arg->node);
      return;
    }
  n_items = graft_arg_count_items (arg);
  for (guint i = 0; i < n_items; i++)
    collect_inputs (&arg->items[i], out);
}

/**
 * graft_node_dup_input_nodes:
 *
 * torch.fx's `Node.all_input_nodes`: the distinct nodes that @node's args
 * and then kwargs reference, in order of first appearance.
 *
 * Returns: (transfer full) (element-type GraftNode): the nodes, borrowed
 */
GPtrArray *
graft_node_dup_input_nodes (GraftNode *node)
{
  GPtrArray *out = g_ptr_array_new ();

  graft_node_get_input_nodes (node, out);
  return out;
}

/**
 * graft_node_get_input_nodes:
 * @node: a node
 * @out: (element-type GraftNode): an array without a free function,
 *   emptied, then filled with the nodes (borrowed)
 *
 * graft_node_dup_input_nodes() into an array the caller reuses, for loops
 * over every node that should not allocate once per node.
 */
void
graft_node_get_input_nodes (GraftNode *node,
                            GPtrArray *out)
{
  g_return_if_fail (node != NULL && out != NULL);
  g_ptr_array_set_size (out, 0);
  collect_inputs (&node->args, out);
  collect_inputs (node_kwargs (node), out);
}

/* How many distinct inputs foreach_input_simple() handles. */
#define SIMPLE_INPUTS 8

/* The distinct nodes an argument walk has met (foreach_input()). */
typedef struct
{
  GraftNode *user;
  void (*func) (GraftNode *used, GraftNode *user);
  guint      n_seen;
  GraftNode *seen[8];
  GPtrArray *many; /* past seen[], or NULL */
} InputWalk;

/* Calls the walk's function for @used unless it was met before. */
static inline G_ALWAYS_INLINE void
walk_visit (InputWalk *walk,
            GraftNode *used)
{
  for (guint i = 0; i < walk->n_seen; i++)
    if (walk->seen[i] == used)
      return;
  if (walk->many != NULL)
    for (guint i = 0; i < walk->many->len; i++)
      if (walk->many->pdata[i] == used)
        return;
  if (walk->n_seen < G_N_ELEMENTS (walk->seen))
    walk->seen[walk->n_seen++] = used;
  else
    {
      if (walk->many == NULL)
        walk->many = g_ptr_array_new ();
      g_ptr_array_add (walk->many, used);
    }
  walk->func (used, walk->user);
}

/* Visits the nodes in @n items (a dict's keys are strings: no node). */
static void
walk_items (InputWalk      *walk,
            const GraftArg *items,
            guint           n)
{
  for (guint i = 0; i < n; i++)
    {
      const GraftArg *arg = &items[i];

      if (arg->kind == GRAFT_ARG_NODE)
        walk_visit (walk, arg->node);
      else if (arg->kind >= GRAFT_ARG_TUPLE)
        {
          guint n_items = _graft_arg_count_items (arg);

          /* Nesting is as deep as the parser allows at most. */
          if (n_items > 0)
            walk_items (walk, arg->items, n_items);
        }
    }
}

/* Calls @func once for each distinct node @node's arguments reference,
 * without allocating for the usual few inputs.  The order of the calls is
 * not that of first appearance: @func (adding or removing @node as a
 * user of each) touches each node's own list alone.  Inline, so that
 * each caller's @func is called directly for the top level's items. */
static inline G_ALWAYS_INLINE void
foreach_input (GraftNode *node,
               void (*func) (GraftNode *used, GraftNode *user))
{
  InputWalk walk;

  walk.user = node;
  walk.func = func;
  walk.n_seen = 0;
  walk.many = NULL;
  for (guint i = 0; i < node->args.n; i++)
    {
      const GraftArg *arg = &node->args.items[i];

      if (arg->kind == GRAFT_ARG_NODE)
        walk_visit (&walk, arg->node);
      else if (arg->kind >= GRAFT_ARG_TUPLE && _graft_arg_count_items (arg) > 0)
        walk_items (&walk, arg->items, _graft_arg_count_items (arg));
    }
  if (node->has_kwargs)
    {
      const GraftArg *kwargs = &node->args.items[node->args.n];

      walk_items (&walk, kwargs->items, 2 * kwargs->n);
    }
  if (walk.many != NULL)
    g_ptr_array_unref (walk.many);
}

/* Adds @node to the @n distinct nodes in @seen unless it is there; FALSE
 * when it is not and @seen is full. */
static inline G_ALWAYS_INLINE gboolean
seen_add (GraftNode **seen,
          guint      *n,
          GraftNode  *node)
{
  for (guint i = 0; i < *n; i++)
    if (seen[i] == node)
      return TRUE;
  if (*n == SIMPLE_INPUTS)
    return FALSE;
  seen[(*n)++] = node;
  return TRUE;
}

/* For the usual node, whose arguments hold a few nodes at the top level
 * or in a container of the top level (`torch.cat([a, b])`), without
 * keyword arguments: calls @visit with each node among them (a node met
 * twice, twice) while it returns TRUE, and returns TRUE; else FALSE. */
static inline G_ALWAYS_INLINE gboolean
walk_inputs_simple (GraftNode  *node,
                    GraftNode **seen,
                    guint      *n_seen,
                    gboolean (*visit) (GraftNode **seen, guint *n_seen, GraftNode *input))
{
  const GraftArg *items = node->args.items;

  *n_seen = 0;
  if (node->has_kwargs)
    return FALSE;
  for (guint i = 0; i < node->args.n; i++)
    {
      if (items[i].kind == GRAFT_ARG_NODE)
        {
          if (!visit (seen, n_seen, items[i].node))
            return FALSE;
        }
      else if (items[i].kind >= GRAFT_ARG_TUPLE)
        {
          const GraftArg *inner = items[i].items;
          guint           n_inner = _graft_arg_count_items (&items[i]);

          for (guint j = 0; j < n_inner; j++)
            {
              if (inner[j].kind == GRAFT_ARG_NODE)
                {
                  if (!visit (seen, n_seen, inner[j].node))
                    return FALSE;
                }
              else if (inner[j].kind >= GRAFT_ARG_TUPLE && _graft_arg_count_items (&inner[j]) > 0)
                return FALSE;
            }
        }
    }
  return TRUE;
}

/* walk_inputs_simple() putting the distinct nodes among the inputs in
 * @seen (room for SIMPLE_INPUTS), their count in *@n_seen. */
static inline G_ALWAYS_INLINE gboolean
collect_inputs_simple (GraftNode  *node,
                       GraftNode **seen,
                       guint      *n_seen)
{
  return walk_inputs_simple (node, seen, n_seen, seen_add);
}

/* For the usual node (collect_inputs_simple()): calls @func for each
 * distinct node among its inputs and returns TRUE; else FALSE, having
 * called nothing. */
static inline G_ALWAYS_INLINE gboolean
foreach_input_simple (GraftNode *node,
                      void (*func) (GraftNode *used, GraftNode *user))
{
  GraftNode *seen[SIMPLE_INPUTS];
  guint      n_seen;

  if (!collect_inputs_simple (node, seen, &n_seen))
    return FALSE;
  for (guint i = 0; i < n_seen; i++)
    func (seen[i], node);
  return TRUE;
}

/* Links @node as a user of each node in @n items (a dict's keys are
 * strings: no node), once each (add_user_once()). */
static void
link_items (GraftNode      *node,
            const GraftArg *items,
            guint           n)
{
  for (guint i = 0; i < n; i++)
    {
      if (items[i].kind == GRAFT_ARG_NODE)
        add_user_once (items[i].node, node);
      else if (items[i].kind >= GRAFT_ARG_TUPLE)
        {
          guint n_inner = _graft_arg_count_items (&items[i]);

          /* Nesting is as deep as the parser allows at most. */
          if (n_inner > 0)
            link_items (node, items[i].items, n_inner);
        }
    }
}

/* Adds @node, which uses nothing yet, to the users of each distinct node
 * its arguments reference, in one walk: a node met before has @node as
 * its last user already.  The top level and its containers inline. */
static void
link_uses (GraftNode *node)
{
  const GraftArg *items = node->args.items;

  for (guint i = 0; i < node->args.n; i++)
    {
      if (items[i].kind == GRAFT_ARG_NODE)
        add_user_once (items[i].node, node);
      else if (items[i].kind >= GRAFT_ARG_TUPLE)
        {
          const GraftArg *inner = items[i].items;
          guint           n_inner = _graft_arg_count_items (&items[i]);

          for (guint j = 0; j < n_inner; j++)
            {
              if (inner[j].kind == GRAFT_ARG_NODE)
                add_user_once (inner[j].node, node);
              else if (inner[j].kind >= GRAFT_ARG_TUPLE && _graft_arg_count_items (&inner[j]) > 0)
                link_items (node, inner[j].items, _graft_arg_count_items (&inner[j]));
            }
        }
    }
  if (node->has_kwargs)
    link_items (node, node_kwargs (node)->items, 2 * node_kwargs (node)->n);
}

static void
unlink_uses (GraftNode *node)
{
  if (!foreach_input_simple (node, remove_user))
    foreach_input (node, remove_user);
}

/* Gives every node a key again, ORDER_GAP apart: when appending has used
 * up the keys (a graph that appends and erases 2^31 nodes in its life). */
static G_GNUC_NO_INLINE void
renumber (GraftGraph *self)
{
  gint64 order = 0;

  for (GraftNode *n = self->first; n != NULL; n = n->next)
    n->order = order += ORDER_GAP;
}

/* Gives @node, just linked between two nodes whose keys leave no room, a
 * key by spreading out the keys around it.  Renumbering the whole list
 * would make repeated insertions at one place quadratic; instead this
 * relabels the smallest aligned key range around the node that is sparse
 * enough (a range of 2^i keys holds fewer than 1.5^i nodes), as in Bender
 * et al., "Two simplified algorithms for maintaining order in a list"
 * (2002), which is O(log n) amortised.  Keys stay below ORDER_LIMIT
 * (2^47): a range of 2^46 keys is sparse enough for 1.5^46 (10^8) nodes,
 * more than a graph holds. */
static void
relabel_around (GraftGraph *self,
                GraftNode  *node)
{
  gint64 base = node->prev != NULL ? (gint64) node->prev->order : (gint64) node->next->order;
  double limit = 1.0;

  for (guint bits = 1; bits < GRAFT_NODE_ORDER_BITS - 1; bits++)
    {
      gint64     lo = base & ~(((gint64) 1 << bits) - 1);
      gint64     hi = lo + ((gint64) 1 << bits);
      GraftNode *first = node, *last = node;
      gint64     count = 1, step;

      limit *= 1.5;
      /* The nodes whose keys fall in [lo, hi), plus @node itself. */
      while (first->prev != NULL && (gint64) first->prev->order >= lo && count < limit)
        {
          first = first->prev;
          count++;
        }
      while (last->next != NULL && (gint64) last->next->order < hi && count < limit)
        {
          last = last->next;
          count++;
        }
      if ((double) count >= limit)
        continue;
      step = (hi - lo) / (count + 1);
      for (GraftNode *n = first;; n = n->next)
        {
          lo += step;
          n->order = lo;
          if (n == last)
            break;
        }
      return;
    }
  /* Unreachable: a range of 2^46 keys holds 1.5^46 nodes, far more than
   * GRAFT_MAX_NODES.  Still, never leave a key unset. */
  renumber (self);
}

/* link_node() before @before. */
static G_GNUC_NO_INLINE void
link_node_before (GraftGraph *self,
                  GraftNode  *node,
                  GraftNode  *before)
{
  GraftNode *prev = before->prev;
  gint64     lo = prev != NULL ? (gint64) prev->order : 0;
  gint64     hi = before->order;

  node->prev = prev;
  node->next = before;
  if (prev != NULL)
    prev->next = node;
  else
    self->first = node;
  before->prev = node;
  if (hi - lo < 2)
    relabel_around (self, node);
  else
    node->order = lo + (hi - lo) / 2;
}

/* Links @node into the list before @before (at the end if NULL) and gives it
 * an order key between its neighbours.  Appending, the usual case, inline. */
static inline G_ALWAYS_INLINE void
link_node (GraftGraph *self,
           GraftNode  *node,
           GraftNode  *before)
{
  GraftNode *prev = self->last;
  gint64     order;

  if (before != NULL)
    {
      self->maybe_unordered = TRUE;
      link_node_before (self, node, before);
      return;
    }
  node->prev = prev;
  node->next = NULL;
  if (prev != NULL)
    prev->next = node;
  else
    self->first = node;
  self->last = node;
  order = (prev != NULL ? (gint64) prev->order : 0) + ORDER_GAP;
  if (G_LIKELY (order < ORDER_LIMIT))
    node->order = order;
  else
    renumber (self);
}

static void
unlink_node (GraftGraph *self,
             GraftNode  *node)
{
  if (node->prev != NULL)
    node->prev->next = node->next;
  else
    self->first = node->next;
  if (node->next != NULL)
    node->next->prev = node->prev;
  else
    self->last = node->prev;
  node->prev = node->next = NULL;
}

/* Gives @node the caller's @args and @kwargs, moved from the heap into
 * the graph's pool (and left `None`). */
static inline G_ALWAYS_INLINE void
take_args (GraftGraph *self,
           GraftNode  *node,
           GraftArg   *args,
           GraftArg   *kwargs)
{
  if (args != NULL && args->kind == GRAFT_ARG_TUPLE)
    {
      /* Containers of plain values among the args are shared. */
      node->args = *args;
      graft_arg_init_none (args);
      _graft_arg_pool_adopt_args (self->args_pool, &node->args);
    }
  else
    {
      g_warn_if_fail (args == NULL);
      graft_arg_init_seq (&node->args, GRAFT_ARG_TUPLE, 0);
    }
  if (kwargs != NULL && kwargs->kind == GRAFT_ARG_DICT)
    {
      GraftArg value = *kwargs;

      graft_arg_init_none (kwargs);
      _graft_arg_pool_adopt (self->args_pool, &value);
      put_kwargs (self, node, &value);
    }
  else
    g_warn_if_fail (kwargs == NULL);
}

/* The caller's @args and @kwargs (either may be NULL) copied into the
 * graph's pool for @node (which has no arguments yet) and linked in one
 * walk: the keyword arguments into the same array after the args' items
 * (no second array), and @node made a user of each node they hold as it
 * is met.  Nodes and numbers are copied inline; what owns memory (text,
 * containers) through the pool, its containers of plain values shared;
 * with @laid_out (GRAFT_ARGS_LAID_OUT), that is taken as it is but for
 * the containers outside the pool's frozen chunks. */
static inline void
copy_args_linked (GraftGraph     *self,
                  GraftNode      *node,
                  const GraftArg *args,
                  const GraftArg *kwargs,
                  gboolean        laid_out)
{
  guint           n = 0, n_kw = 0;
  const GraftArg *src = NULL;
  GraftArg       *items;

  if (G_LIKELY (args != NULL && args->kind == GRAFT_ARG_TUPLE))
    {
      n = args->n;
      src = args->items;
    }
  else
    g_warn_if_fail (args == NULL);
  if (kwargs != NULL && kwargs->kind == GRAFT_ARG_DICT)
    n_kw = kwargs->n > 0;
  else
    g_warn_if_fail (kwargs == NULL);
  node->args.kind = GRAFT_ARG_TUPLE;
  node->args.n = n;
  if (n + n_kw == 0)
    return;
  items = _graft_arg_pool_new_items_inline (self->args_pool, n + n_kw);
  node->args.items = items;
  for (guint i = 0; i < n; i++)
    {
      items[i] = src[i];
      if (src[i].kind == GRAFT_ARG_NODE)
        add_user_once (src[i].node, node);
      else if ((src[i].kind == GRAFT_ARG_LIST || src[i].kind == GRAFT_ARG_TUPLE) && src[i].n > 0 &&
               src[i].items[0].kind == GRAFT_ARG_NODE)
        {
          /* A container of nodes (`torch.cat([a, b])`), never shared:
           * copied and linked here as the pool would copy it. */
          const GraftArg *from = src[i].items;
          guint           m = src[i].n;
          GraftArg       *inner = _graft_arg_pool_new_items_inline (self->args_pool, m);

          items[i].items = inner;
          for (guint j = 0; j < m; j++)
            {
              inner[j] = from[j];
              if (from[j].kind == GRAFT_ARG_NODE)
                add_user_once (from[j].node, node);
              else if (from[j].kind > GRAFT_ARG_FLOAT)
                {
                  _graft_arg_pool_copy (self->args_pool, &inner[j], &from[j]);
                  if (inner[j].kind >= GRAFT_ARG_TUPLE)
                    link_items (node, inner[j].items, _graft_arg_count_items (&inner[j]));
                }
            }
        }
      else if (src[i].kind > GRAFT_ARG_FLOAT)
        {
          /* Text, a complex number or a container: its own memory.  A
           * shared container holds no node. */
          if (laid_out)
            _graft_arg_pool_copy_laid_out (self->args_pool, &items[i], &src[i]);
          else if (_graft_arg_pool_copy_shared (self->args_pool, &items[i], &src[i]))
            continue;
          if (items[i].kind >= GRAFT_ARG_TUPLE)
            link_items (node, items[i].items, _graft_arg_count_items (&items[i]));
        }
    }
  if (n_kw > 0)
    {
      /* put_kwargs() as it would lay them out. */
      node->has_kwargs = TRUE;
      if (laid_out)
        _graft_arg_pool_copy_laid_out (self->args_pool, &items[n], kwargs);
      else if (_graft_arg_pool_copy_shared (self->args_pool, &items[n], kwargs))
        return;
      link_items (node, items[n].items, 2 * items[n].n);
    }
}

/* Binds a live node's name to it in the namespace (which has the name),
 * so that graft_graph_find_node() finds it. */
static void
index_name (GraftGraph *self,
            GraftNode  *node)
{
  if (G_UNLIKELY (shares_name (self, node)))
    return;
  _graft_namespace_bind (self->names, node->name, node);
}

/* Unbinds the name of a node leaving the graph; the name stays reserved. */
static void
unindex_name (GraftGraph *self,
              GraftNode  *node)
{
  if (G_UNLIKELY (shares_name (self, node)))
    return;
  _graft_namespace_bind (self->names, node->name, NULL);
}

/* A node of a name given verbatim (graft_graph_create_node_named()), its
 * @args and @kwargs moved from the heap.  @target must be interned in the
 * graph's chunk. */
static GraftNode *
insert_node (GraftGraph *self,
             GraftOp     op,
             const char *target,
             GraftArg   *args,
             GraftArg   *kwargs,
             const char *name,
             gboolean    name_canonical,
             gboolean    sharer,
             GraftNode  *before)
{
  GraftNode *node = node_alloc (self);

  node->op = op;
  node->target = target;
  node->name = name;
  node->name_canonical = name_canonical;
  if (G_UNLIKELY (sharer))
    add_sharer (self, node, name);
  take_args (self, node, args, kwargs);
  link_node (self, node, before);
  link_uses (node);
  index_name (self, node);
  self->n_nodes++;
  if (self->recording != NULL)
    _graft_edit_record (self->recording, GRAFT_EDIT_ADD, node);
  return node;
}

/* `Graph._target_to_str`, remembered per target: a graph has few distinct
 * targets and many nodes. */
static const char *
derived_name (GraftGraph *self,
              GraftOp     op,
              const char *interned_target)
{
  guint        which = op == GRAFT_OP_CALL_FUNCTION;
  GHashTable **table = &self->derived_names[which];
  guint        slot =
      (guint) (((guintptr) interned_target * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 59);
  const char *name;

  /* Interned targets never move or change: the address is the text. */
  if (self->derived_cache[which][slot].target == interned_target)
    return self->derived_cache[which][slot].name;
  if (*table == NULL)
    *table = g_hash_table_new (NULL, NULL);
  name = g_hash_table_lookup (*table, interned_target);
  if (name == NULL)
    {
      g_autofree char *derived = graft_name_for_target (op, interned_target, self->dialect);

      name = g_string_chunk_insert (self->chunk, derived);
      g_hash_table_insert (*table, (gpointer) interned_target, (gpointer) name);
    }
  self->derived_cache[which][slot].target = interned_target;
  self->derived_cache[which][slot].name = name;
  return name;
}

/* intern_target() past the newer way of the set @at: the older way, or
 * the text found by its length and end bytes (or interned), which then
 * takes the newer way. */
static G_GNUC_NO_INLINE const char *
intern_target_slow (GraftGraph *self,
                    const char *target,
                    gboolean    static_text,
                    guint       at)
{
  const char **newer = self->intern_by_address[at][0];
  const char **older = self->intern_by_address[at][1];
  gboolean    *is_static = self->intern_by_address_static[at];
  gsize        len;
  guint        hash = 0;
  guint        slot;
  const char  *cached;

  if (older[0] == target && ((static_text && is_static[1]) || older[1] == target ||
                             strcmp (older[1], target) == 0))
    return older[1];
  len = strlen (target);
  if (len > 0)
    hash = (guint) (len * 31 + (guchar) target[0] * 7 + (guchar) target[len - 1]);
  slot = hash % G_N_ELEMENTS (self->intern_cache);
  cached = self->intern_cache[slot];
  if (cached == NULL || strcmp (cached, target) != 0)
    cached = self->intern_cache[slot] = intern_len (self, target, len);
  older[0] = newer[0];
  older[1] = newer[1];
  is_static[1] = is_static[0];
  newer[0] = target;
  newer[1] = cached;
  is_static[0] = static_text;
  return cached;
}

/* @target's interned copy; with @static_text, @target's text never
 * changes nor is freed, so that its address alone finds it.  The newer
 * way of its set inline. */
static inline const char *
intern_target (GraftGraph *self,
               const char *target,
               gboolean    static_text)
{
  guint        at = (guint) (((guintptr) target * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 58);
  const char **newer = self->intern_by_address[at][0];
  const char **older = self->intern_by_address[at][1];

  /* The caller's text may have changed since: compared all the same,
   * unless both this caller's text and the one that left it were static.
   * Both ways inline: two targets a graph alternates between may share
   * a set. */
  if (newer[0] == target &&
      ((static_text && self->intern_by_address_static[at][0]) || newer[1] == target ||
       strcmp (newer[1], target) == 0))
    return newer[1];
  if (older[0] == target && static_text && self->intern_by_address_static[at][1])
    return older[1];
  return intern_target_slow (self, target, static_text, at);
}

static inline void set_span (GraftNode *node,
                             guint32    start,
                             guint32    end);

/* The name torch's namespace gives @candidate, for @node (not yet
 * cleared): added to the graph's namespace and bound to @node, or, when
 * the graph's namespace has it (a node the reader named over still
 * carries it), torch's stored copy, @node then a sharer. */
static G_GNUC_NO_INLINE const char *
name_from_torch (GraftGraph *self,
                 const char *candidate,
                 GraftNode  *node)
{
  const char *made = graft_namespace_create_name (self->torch_names, candidate, GRAFT_NAME_DEFAULT);
  const char *name;

  g_hash_table_insert (self->torch_made, node, (gpointer) made);
  if (graft_namespace_contains (self->names, made))
    {
      add_sharer (self, node, made);
      return made;
    }
  name = _graft_namespace_add_verbatim (self->names, made);
  _graft_namespace_bind (self->names, name, node);
  return name;
}

/**
 * _graft_graph_create_node_request:
 * @request: the node: its op, target, arguments and how they are taken,
 *   name candidate, place and span
 *
 * torch.fx's `Graph.create_node` (graft_graph_create_node()) for every
 * caller that lets the namespace name the node: a fresh name from the
 * namespace, bound to the node as it is made; the arguments copied (or
 * consumed, GRAFT_ARGS_MOVED) and linked; the node put in the list.
 *
 * Returns: (transfer none): the node, owned by the graph
 */
GraftNode *
_graft_graph_create_node_request (GraftGraph             *self,
                                  const GraftNodeRequest *request)
{
  gboolean    static_text = request->static_text;
  const char *target = intern_target (self, request->target, static_text);
  const char *candidate = request->name_candidate;
  GraftNode  *node = node_alloc_raw (self);
  const char *name;
  gboolean    stable = static_text;

  /* The namespace binds the name to the node's address (it reads nothing
   * of it): the node is cleared after, with its fields, so that they are
   * written into known zeros (no read of the flags' word, no check of an
   * earlier span). */

  if (candidate == NULL)
    {
      /* In the graph's chunk: its text never changes. */
      candidate = derived_name (self, request->op, target);
      stable = TRUE;
    }
  if (G_UNLIKELY (self->torch_names != NULL))
    name = name_from_torch (self, candidate, node);
  else if (stable)
    name = _graft_namespace_create_name_bound (self->names, candidate, node);
  else
    name = _graft_namespace_create_name_bound_unstable (self->names, candidate, node);
  /* A name the namespace made is canonical: clean, and not reserved.
   * Most spans are a line or less (set_span()): the node is written
   * whole, its flags' word and its span's as constants and two fields
   * rather than field by field after a clear. */
  if (G_LIKELY (request->span_end >= request->span_start &&
                request->span_end - request->span_start < GRAFT_NODE_SPAN_LONG))
    *node = (GraftNode){ .name = name,
                         .target = target,
                         .op = request->op,
                         .name_canonical = TRUE,
                         .span_start = request->span_start,
                         .span_len = request->span_end - request->span_start };
  else
    {
      memset (node, 0, sizeof *node);
      node->name = name;
      node->op = request->op;
      node->name_canonical = TRUE;
      node->target = target;
      set_span (node, request->span_start, request->span_end);
    }
  if (G_LIKELY (request->how != GRAFT_ARGS_MOVED))
    {
      copy_args_linked (self, node, request->args, request->kwargs,
                        request->how == GRAFT_ARGS_LAID_OUT);
      link_node (self, node, request->before);
    }
  else
    {
      take_args (self, node, (GraftArg *) request->args, (GraftArg *) request->kwargs);
      link_node (self, node, request->before);
      link_uses (node);
    }
  self->n_nodes++;
  if (self->recording != NULL)
    _graft_edit_record (self->recording, GRAFT_EDIT_ADD, node);
  return node;
}

/**
 * graft_graph_create_node:
 * @op: the op
 * @target: the target (for call_function, the function's qualified name as
 *   listings print it, e.g. `operator.add`, `torch.cat`)
 * @args: (transfer full) (nullable): a tuple, consumed (left `None`)
 * @kwargs: (transfer full) (nullable): a dict, consumed (left `None`)
 * @name_candidate: (nullable): the wanted name; %NULL derives it from the
 *   target as `Graph._target_to_str` does
 * @before: (nullable): insert before this node; %NULL appends
 *
 * torch.fx's `Graph.create_node`: makes a node with a fresh name from the
 * graph's namespace and records it as a user of the nodes it references.
 *
 * Returns: (transfer none): the node, owned by the graph
 */
GraftNode *
graft_graph_create_node (GraftGraph *self,
                         GraftOp     op,
                         const char *target,
                         GraftArg   *args,
                         GraftArg   *kwargs,
                         const char *name_candidate,
                         GraftNode  *before)
{
  GraftNodeRequest request = { .op = op,
                               .how = GRAFT_ARGS_MOVED,
                               .target = target,
                               .args = args,
                               .kwargs = kwargs,
                               .name_candidate = name_candidate,
                               .before = before };

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (target != NULL, NULL);

  return _graft_graph_create_node_request (self, &request);
}

/**
 * graft_graph_create_node_copy:
 * @args: (transfer none) (nullable): a tuple, copied
 * @kwargs: (transfer none) (nullable): a dict, copied
 *
 * Like graft_graph_create_node(), but copies @args and @kwargs into the
 * graph instead of consuming them: a caller can build them in its own
 * scratch memory (items on its stack, strings it keeps), which costs no
 * allocation.
 *
 * Returns: (transfer none): the node, owned by the graph
 */
GraftNode *
graft_graph_create_node_copy (GraftGraph     *self,
                              GraftOp         op,
                              const char     *target,
                              const GraftArg *args,
                              const GraftArg *kwargs,
                              const char     *name_candidate,
                              GraftNode      *before)
{
  GraftNodeRequest request = { .op = op,
                               .target = target,
                               .args = args,
                               .kwargs = kwargs,
                               .name_candidate = name_candidate,
                               .before = before };

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (target != NULL, NULL);

  return _graft_graph_create_node_request (self, &request);
}

/**
 * _graft_graph_lay_out_args:
 * @args: (out caller-allocates): a copy of @src_args in the graph's pool,
 *   its plain containers shared as a node's are
 * @kwargs: (out caller-allocates): the same of @src_kwargs
 *
 * For GRAFT_ARGS_LAID_OUT requests (_graft_graph_create_node_request()):
 * give them back with
 * _graft_graph_release_arg().
 */
void
_graft_graph_lay_out_args (GraftGraph     *self,
                           GraftArg       *args,
                           GraftArg       *kwargs,
                           const GraftArg *src_args,
                           const GraftArg *src_kwargs)
{
  _graft_arg_pool_copy_args (self->args_pool, args, src_args);
  _graft_arg_pool_copy_shared (self->args_pool, kwargs, src_kwargs);
}

/**
 * graft_graph_create_node_named:
 * @exact_name: the name, which must be legal and not yet used (a listing's
 *   or a DOT file's own name)
 *
 * Like graft_graph_create_node(), but keeps a name read from a file as it
 * is.  The caller checks graft_namespace_contains() first.
 *
 * Returns: (transfer none): the node
 */
GraftNode *
graft_graph_create_node_named (GraftGraph *self,
                               GraftOp     op,
                               const char *target,
                               GraftArg   *args,
                               GraftArg   *kwargs,
                               const char *exact_name,
                               GraftNode  *before)
{
  const char *name;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (!graft_namespace_contains (self->names, exact_name), NULL);

  /* The namespace would rename a suffixed or builtin name (`x_01`,
   * `sum`); a name read from a file is registered verbatim instead. */
  name = _graft_namespace_add_verbatim (self->names, exact_name);
  return insert_node (self, op, graft_graph_intern (self, target), args, kwargs, name,
                      graft_namespace_is_canonical (name, GRAFT_NAME_DEFAULT), FALSE, before);
}

/* graft_graph_create_node_named() at the end of the graph, for a reader
 * that has asked the namespace whether @exact_name is taken (it is not):
 * the name is not looked up twice more (the `.pt2` reader: pt2m). */
GraftNode *
_graft_graph_append_node_new_name (GraftGraph *self,
                                   GraftOp     op,
                                   const char *target,
                                   GraftArg   *args,
                                   GraftArg   *kwargs,
                                   const char *exact_name)
{
  gboolean    canonical;
  const char *name = _graft_namespace_add_new_canonical (self->names, exact_name, &canonical);

  return insert_node (self, op, target, args, kwargs, name, canonical, FALSE, NULL);
}

/* _graft_graph_append_node_new_name() for a name that is free and
 * canonical (one pass over it: _graft_namespace_add_if_canonical()), or
 * %NULL with nothing changed. */
GraftNode *
_graft_graph_append_node_if_canonical (GraftGraph *self,
                                       GraftOp     op,
                                       const char *target,
                                       GraftArg   *args,
                                       GraftArg   *kwargs,
                                       const char *name)
{
  const char *stored = _graft_namespace_add_if_canonical (self->names, name);

  if (stored == NULL)
    return NULL;
  return insert_node (self, op, target, args, kwargs, stored, TRUE, FALSE, NULL);
}

/* A node at the end of the graph that shares @name with another node of
 * the graph, made before or after it (a DOT file's second node of one
 * name, graft-dot-writer.c): a sharer (see `sharers`), its name neither
 * added to the namespace nor bound, as a rewrite's copy named by torch's
 * namespace is.  The name is copied as it is. */
GraftNode *
_graft_graph_append_node_sharing (GraftGraph *self,
                                  GraftOp     op,
                                  const char *target,
                                  const char *name)
{
  ensure_sharers (self);
  return insert_node (self, op, graft_graph_intern (self, target), NULL, NULL,
                      graft_graph_intern (self, name),
                      graft_namespace_is_canonical (name, GRAFT_NAME_DEFAULT), TRUE, NULL);
}

/**
 * graft_graph_set_args:
 * @args: (transfer full) (nullable): the new args tuple, consumed
 * @kwargs: (transfer full) (nullable): the new kwargs dict, consumed
 *
 * Replaces a node's arguments and updates the users of what it referenced
 * before and references now.  %NULL keeps that part as it is.
 */
void
graft_graph_set_args (GraftGraph *self,
                      GraftNode  *node,
                      GraftArg   *args,
                      GraftArg   *kwargs)
{
  g_return_if_fail (self != NULL && node != NULL && node_graph (node) == self);

  if (self->recording != NULL)
    _graft_edit_record_args (self->recording, node);
  self->maybe_unordered = TRUE;
  unlink_uses (node);
  {
    GraftArg old_kwargs;

    /* The args alone first, then the keyword arguments after them. */
    take_kwargs (self, node, &old_kwargs);
    if (args != NULL)
      {
        _graft_arg_pool_release (self->args_pool, &node->args);
        node->args = *args;
        graft_arg_init_none (args);
        _graft_arg_pool_adopt_args (self->args_pool, &node->args);
      }
    if (kwargs != NULL)
      {
        GraftArg value = *kwargs;

        _graft_arg_pool_release (self->args_pool, &old_kwargs);
        graft_arg_init_none (kwargs);
        _graft_arg_pool_adopt (self->args_pool, &value);
        put_kwargs (self, node, &value);
      }
    else
      put_kwargs (self, node, &old_kwargs);
  }
  link_uses (node);
}

static void replace_in_items_nested (GraftArg  *items,
                                     guint      n,
                                     GraftNode *old_node,
                                     GraftNode *new_node);

/* Every @old_node among @n @items, at any depth, becomes @new_node: the
 * top level inline, the containers' items by replace_in_items_nested(). */
static inline G_ALWAYS_INLINE void
replace_in_items (GraftArg  *items,
                  guint      n,
                  GraftNode *old_node,
                  GraftNode *new_node)
{
  for (guint i = 0; i < n; i++)
    {
      if (items[i].kind == GRAFT_ARG_NODE)
        {
          if (items[i].node == old_node)
            items[i].node = new_node;
        }
      else if (items[i].kind >= GRAFT_ARG_TUPLE && _graft_arg_count_items (&items[i]) > 0)
        replace_in_items_nested (items[i].items, _graft_arg_count_items (&items[i]), old_node,
                                 new_node);
    }
}

/* replace_in_items() out of line, for items in containers. */
static void
replace_in_items_nested (GraftArg  *items,
                         guint      n,
                         GraftNode *old_node,
                         GraftNode *new_node)
{
  replace_in_items (items, n, old_node, new_node);
}

static void
put_value_in_arg (GraftGraph     *self,
                  GraftArg       *arg,
                  GraftNode      *old_node,
                  const GraftArg *value)
{
  guint n_items;

  if (arg->kind == GRAFT_ARG_NODE)
    {
      if (arg->node == old_node)
        _graft_arg_pool_copy (self->args_pool, arg, value);
      return;
    }
  n_items = graft_arg_count_items (arg);
  for (guint i = 0; i < n_items; i++)
    put_value_in_arg (self, &arg->items[i], old_node, value);
}

/* Whether a node in @n items is @node. */
static gboolean
items_refer_to (const GraftArg  *items,
                guint            n,
                const GraftNode *node)
{
  for (guint i = 0; i < n; i++)
    {
      if (items[i].kind == GRAFT_ARG_NODE)
        {
          if (items[i].node == node)
            return TRUE;
        }
      else if (items[i].kind >= GRAFT_ARG_TUPLE &&
               items_refer_to (items[i].items, _graft_arg_count_items (&items[i]), node))
        return TRUE;
    }
  return FALSE;
}

static gboolean
node_refers_to (GraftNode       *user,
                const GraftNode *node)
{
  const GraftArg *kwargs = node_kwargs (user);

  return items_refer_to (user->args.items, user->args.n, node) ||
         items_refer_to (kwargs->items, 2 * kwargs->n, node);
}

/* Moves @user to the end of @used's users, as removing it and adding it
 * again does (torch's `_replace_input_with` pops a user from every input
 * and adds it back); most users are last already. */
static G_GNUC_NO_INLINE void
move_user_last_now (GraftNode *used,
                    GraftNode *user)
{
  if (may_defer (used))
    defer_removal (node_graph (used), used, user);
  else
    remove_user (used, user);
  add_user (used, user);
}

static inline G_ALWAYS_INLINE void
move_user_last (GraftNode *used,
                GraftNode *user)
{
  /* A short list holds @user alone.  A list with departures may hold
   * others after @user; leaving and coming back leaves a last user where
   * it was. */
  if (!used->users_many ||
      (used->users.many->items[used->users.many->n - 1] == user &&
       !(used->users.many->index != NULL && has_departures (used->users.many))))
    return;
  move_user_last_now (used, user);
}

/* Every use of @old_node in @user becomes @new_node (@had_new: whether
 * @user used @new_node already), and the users lists change as
 * unlinking @user's uses and linking them again would change them: @user
 * leaves @old_node's and goes last in every other input's. */
static inline G_ALWAYS_INLINE void
replace_input (GraftNode *user,
               GraftNode *old_node,
               GraftNode *new_node,
               gboolean   had_new)
{
  if (new_node->order >= user->order)
    node_graph (user)->maybe_unordered = TRUE;
  replace_in_items (user->args.items, user->args.n, old_node, new_node);
  if (user->has_kwargs)
    replace_in_items (node_kwargs (user)->items, 2 * node_kwargs (user)->n, old_node, new_node);
  if (!old_node->users_many)
    {
      g_assert (old_node->users.one == user);
      old_node->users.one = NULL;
    }
  else
    remove_user (old_node, user);
  if (!had_new)
    add_user (new_node, user);
  if (!foreach_input_simple (user, move_user_last))
    foreach_input (user, move_user_last);
}

/* Every use of @old_node becomes @new_node, or (@new_node NULL) a copy of
 * @value. */
static void
replace_uses (GraftGraph     *self,
              GraftNode      *old_node,
              GraftNode      *new_node,
              const GraftArg *value)
{
  GraftNode             *few[8];
  g_autofree GraftNode **many = NULL;
  GraftNode            **users;
  guint                  n_users;

  /* The users as they are now (the loop changes the list): most values
   * have a few. */
  _graft_node_settle_users (old_node);
  n_users = node_n_users (old_node);
  if (n_users <= G_N_ELEMENTS (few))
    users = few;
  else
    users = many = g_new (GraftNode *, n_users);
  if (n_users == 1)
    users[0] = node_users (old_node)[0];
  else if (n_users > 1)
    memcpy (users, node_users (old_node), n_users * sizeof (GraftNode *));
  for (guint i = 0; i < n_users; i++)
    {
      GraftNode *user = users[i];

      if (new_node != NULL)
        {
          /* A node nothing uses yet (a fresh copy) is in no one's
           * arguments. */
          gboolean had_new = node_n_users (new_node) > 0 && node_refers_to (user, new_node);

          /* A user that did not use @new_node before is changed back by
           * replacing @new_node with @old_node: the edit need not keep a
           * copy of its arguments. */
          if (self->recording != NULL)
            {
              if (had_new)
                _graft_edit_record_args (self->recording, user);
              else
                _graft_edit_record_replace (self->recording, user, old_node, new_node);
            }
          replace_input (user, old_node, new_node, had_new);
          continue;
        }
      if (self->recording != NULL)
        _graft_edit_record_args (self->recording, user);
      unlink_uses (user);
      put_value_in_arg (self, &user->args, old_node, value);
      put_value_in_arg (self, node_kwargs (user), old_node, value);
      link_uses (user);
    }
}

/* Replaces every use of @old_node in @node, which does not use @new_node,
 * with @new_node: how an edit replays a replacement it recorded (with
 * _graft_edit_record_replace()) or undoes it (the two nodes swapped). */
void
_graft_node_replace_input (GraftNode *node,
                           GraftNode *old_node,
                           GraftNode *new_node)
{
  replace_input (node, old_node, new_node, FALSE);
}

/**
 * graft_graph_replace_all_uses:
 *
 * torch.fx's `Node.replace_all_uses_with`: every user of @old_node refers to
 * @new_node instead, in place (positions and containers stay the same).
 */
void
graft_graph_replace_all_uses (GraftGraph *self,
                              GraftNode  *old_node,
                              GraftNode  *new_node)
{
  g_return_if_fail (self != NULL && old_node != NULL && new_node != NULL);
  if (old_node == new_node)
    return;
  /* The usual rewrite: a value with one user replaced by a fresh copy,
   * which nothing uses yet (replace_uses() in short). */
  if (!old_node->users_many && old_node->users.one != NULL && !new_node->users_many &&
      new_node->users.one == NULL)
    {
      GraftNode *user = old_node->users.one;

      if (self->recording != NULL)
        _graft_edit_record_replace (self->recording, user, old_node, new_node);
      replace_input (user, old_node, new_node, FALSE);
      return;
    }
  replace_uses (self, old_node, new_node, NULL);
}

/**
 * graft_graph_replace_all_uses_with_value:
 * @value: a literal (no node inside)
 *
 * `Node.replace_all_uses_with(literal)`: every use of @old_node becomes
 * @value, as torch.fx does when a replacement returns a parameter bound
 * to a literal.
 */
void
graft_graph_replace_all_uses_with_value (GraftGraph     *self,
                                         GraftNode      *old_node,
                                         const GraftArg *value)
{
  g_return_if_fail (self != NULL && old_node != NULL && value != NULL);
  replace_uses (self, old_node, NULL, value);
}

/* Takes @node, its uses already unlinked, out of the list; its name stays
 * bound to it (trash_add(), discard()). */
static inline void
unlist (GraftGraph *self,
        GraftNode  *node)
{
  unlink_node (self, node);
  self->n_nodes--;
}

/* Takes a node out of the list and its inputs' users; the name stays in
 * the namespace, bound to it. */
static void
detach (GraftGraph *self,
        GraftNode  *node)
{
  unlink_uses (node);
  unlist (self, node);
}

/* Puts a detached node back before @next (at the end if NULL). */
static void
attach (GraftGraph *self,
        GraftNode  *node,
        GraftNode  *next)
{
  link_node (self, node, next);
  link_uses (node);
  index_name (self, node);
  self->n_nodes++;
}

/* Keeps detached @node in the trash.  Its order means nothing until it is
 * linked again, so it holds the node's index in the trash: taking it back
 * out costs no search.  Its name stays bound to it (as it stays reserved,
 * no other node takes it): a rewrite that erases thousands does not
 * unbind each, and graft_graph_find_node() checks that the node it finds
 * is in the list. */
static inline void
trash_add (GraftGraph *self,
           GraftNode  *node)
{
  if (G_UNLIKELY (self->trash_len == self->trash_size))
    {
      self->trash_size = MAX (2 * self->trash_size, 64);
      self->trash = g_renew (GraftNode *, self->trash, self->trash_size);
    }
  node->order = self->trash_len;
  self->trash[self->trash_len++] = node;
}

/* Detached @node: while an edit records, kept so that undo can bring it
 * back; otherwise gone for good. */
static inline G_ALWAYS_INLINE void
discard (GraftGraph *self,
         GraftNode  *node)
{
  if (G_LIKELY (self->recording != NULL))
    {
      trash_add (self, node);
      self->n_trash_bound += !shares_name (self, node);
    }
  else
    {
      unindex_name (self, node);
      node_free (self, node, TRUE);
    }
}

static void
trash_remove (GraftGraph *self,
              GraftNode  *node)
{
  guint i = (guint) node->order;

  g_return_if_fail (i < self->trash_len && self->trash[i] == node);
  /* The last node moves into the gap. */
  self->trash[i] = self->trash[--self->trash_len];
  if (i < self->trash_len)
    self->trash[i]->order = i;
}

/**
 * _graft_graph_take_out:
 * @release_name: also free the node's name in the namespace
 *
 * Detaches @node and keeps it in the trash, for an edit that undoes its
 * addition or redoes its erasure.
 */
void
_graft_graph_take_out (GraftGraph *self,
                       GraftNode  *node,
                       gboolean    release_name)
{
  detach (self, node);
  if (release_name)
    {
      const char *made;

      if (!shares_name (self, node))
        {
          unindex_name (self, node);
          _graft_namespace_remove (self->names, node->name);
        }
      if (G_UNLIKELY (self->torch_made != NULL) &&
          (made = g_hash_table_lookup (self->torch_made, node)) != NULL)
        _graft_namespace_remove (self->torch_names, made);
    }
  else
    self->n_trash_bound += !shares_name (self, node);
  trash_add (self, node);
}

/**
 * _graft_graph_put_back:
 * @next: (nullable): the node to put @node before, %NULL for the end
 * @reserve_name: reserve the node's name in the namespace again first
 *
 * Brings @node back from the trash, the inverse of _graft_graph_take_out().
 */
void
_graft_graph_put_back (GraftGraph *self,
                       GraftNode  *node,
                       GraftNode  *next,
                       gboolean    reserve_name)
{
  trash_remove (self, node);
  if (reserve_name)
    {
      const char *made;

      if (G_UNLIKELY (self->torch_made != NULL) &&
          (made = g_hash_table_lookup (self->torch_made, node)) != NULL)
        _graft_namespace_add_back (self->torch_names, made);
      if (!shares_name (self, node))
        _graft_namespace_add_back (self->names, node->name);
    }
  else
    self->n_trash_bound -= !shares_name (self, node);
  attach (self, node, next);
}

/* For the lint: how many nodes in the trash have their name bound to
 * them (those erased, not those whose addition was undone). */
guint
_graft_graph_get_n_trash_bound (GraftGraph *self)
{
  return self->n_trash_bound;
}

/* Exchanges @node's arguments with @args and @kwargs, updating users. */
void
_graft_node_swap_args (GraftNode *node,
                       GraftArg  *args,
                       GraftArg  *kwargs)
{
  GraftGraph *self = node_graph (node);
  GraftArg    old_args, old_kwargs;

  self->maybe_unordered = TRUE;
  unlink_uses (node);
  take_kwargs (self, node, &old_kwargs);
  old_args = node->args;
  node->args = *args;
  put_kwargs (self, node, kwargs);
  *args = old_args;
  *kwargs = old_kwargs;
  link_uses (node);
}

/* A copy of @src (in either form) in the graph's pool, for an edit. */
void
_graft_graph_copy_arg (GraftGraph     *self,
                       GraftArg       *dest,
                       const GraftArg *src)
{
  _graft_arg_pool_copy (self->args_pool, dest, src);
}

/* Gives back an argument in the graph's pool (an edit's), leaving it
 * `None`. */
void
_graft_graph_release_arg (GraftGraph *self,
                          GraftArg   *arg)
{
  _graft_arg_pool_release (self->args_pool, arg);
}

/* Registers a new @edit of the graph, told when the graph goes.  Returns
 * its place for _graft_graph_remove_edit(). */
guint
_graft_graph_add_edit (GraftGraph *self,
                       GraftEdit  *edit)
{
  g_ptr_array_add (self->edits, edit);
  return self->edits->len - 1;
}

/* Forgets the edit at @index (being freed); the last edit takes its place
 * and is told its new one. */
void
_graft_graph_remove_edit (GraftGraph *self,
                          guint       index)
{
  g_ptr_array_remove_index_fast (self->edits, index);
  if (index < self->edits->len)
    _graft_edit_set_index (self->edits->pdata[index], index);
}

GraftEdit *
_graft_graph_get_recording (GraftGraph *self)
{
  return self->recording;
}

void
_graft_graph_set_recording (GraftGraph *self,
                            GraftEdit  *edit)
{
  self->recording = edit;
}

/**
 * graft_graph_erase_node:
 *
 * torch.fx's `Graph.erase_node`: removes a node that has no users.  Its name
 * stays reserved in the namespace.
 */
void
graft_graph_erase_node (GraftGraph *self,
                        GraftNode  *node)
{
  g_return_if_fail (self != NULL && node != NULL && node_graph (node) == self);
  g_return_if_fail (node_n_users (node) == 0);

  if (self->recording != NULL)
    _graft_edit_record (self->recording, GRAFT_EDIT_ERASE, node);
  detach (self, node);
  discard (self, node);
}

/* Whether @node is one of the @n @nodes. */
static inline gboolean
is_among (const GraftNode  *node,
          GraftNode *const *nodes,
          guint             n)
{
  for (guint i = 0; i < n; i++)
    if (nodes[i] == node)
      return TRUE;
  return FALSE;
}

/* For leave_short_inputs_simple(): @input, which @node being erased
 * reads, leaves a short users list at once (it holds @node alone, or
 * nothing once @node met it before); a long one is added to @seen. */
static inline G_ALWAYS_INLINE gboolean
leave_or_see (GraftNode **seen,
              guint      *n_seen,
              GraftNode  *input)
{
  if (!input->users_many)
    {
      input->users.one = NULL;
      return TRUE;
    }
  return seen_add (seen, n_seen, input);
}

/* collect_inputs_simple() for @node being erased: the inputs with a short
 * users list are left as they are met, @seen gets those with a long one.
 * When it returns FALSE, some short lists may be left already: leaving
 * one again changes nothing. */
static inline G_ALWAYS_INLINE gboolean
leave_short_inputs_simple (GraftNode  *node,
                           GraftNode **seen,
                           guint      *n_seen)
{
  return walk_inputs_simple (node, seen, n_seen, leave_or_see);
}

/**
 * _graft_graph_erase_dying:
 * @nodes: (array length=n): the nodes to erase, in this order: each in
 *   the graph, with no users but nodes before it in @nodes
 *
 * graft_graph_erase_node() on each of @nodes in turn, with the same
 * result and the same edit records, in one pass that knows they die
 * together: an input's short users list holds the node alone, and is
 * emptied as the node goes (whether the input dies too or not).
 */
void
_graft_graph_erase_dying (GraftGraph       *self,
                          GraftNode *const *nodes,
                          guint             n)
{
  GPtrArray *many = NULL;

  for (guint k = 0; k < n; k++)
    {
      GraftNode        *node = nodes[k];
      GraftNode        *seen[SIMPLE_INPUTS];
      GraftNode *const *inputs = seen;
      guint             n_inputs;

      g_assert (node_graph (node) == self);
      if (self->recording != NULL)
        _graft_edit_record (self->recording, GRAFT_EDIT_ERASE, node);
      /* Its users, erased before it, left a short list empty; a long one
       * may hold departures. */
      if (!node->users_many)
        node->users.one = NULL;
      else
        _graft_node_settle_users (node);
      g_assert (node_n_users (node) == 0);
      if (!leave_short_inputs_simple (node, seen, &n_inputs))
        {
          if (many == NULL)
            many = g_ptr_array_new ();
          graft_node_get_input_nodes (node, many);
          inputs = (GraftNode *const *) many->pdata;
          n_inputs = many->len;
        }
      for (guint i = 0; i < n_inputs; i++)
        {
          GraftNode *input = inputs[i];

          if (!input->users_many)
            input->users.one = NULL;
          /* A user of a long list that stays leaves it later, at once. */
          else if (is_among (input, nodes + k + 1, n - k - 1))
            remove_user (input, node);
          else if (self->deferring && input->users.many->index != NULL &&
                   input->users.many->n < (1u << 23))
            defer_removal (self, input, node);
          else
            remove_user (input, node);
        }
      unlist (self, node);
      discard (self, node);
    }
  if (many != NULL)
    g_ptr_array_unref (many);
}

/**
 * graft_graph_move_before:
 * @before: (nullable): the node to move @node before; %NULL moves it last
 *
 * Moves @node within the list (torch.fx's `Node.prepend` on @before).
 */
void
graft_graph_move_before (GraftGraph *self,
                         GraftNode  *node,
                         GraftNode  *before)
{
  g_return_if_fail (self != NULL && node != NULL && node != before);

  if (self->recording != NULL)
    _graft_edit_record (self->recording, GRAFT_EDIT_MOVE, node);
  self->maybe_unordered = TRUE;
  unlink_node (self, node);
  link_node (self, node, before);
}

/* What @node holds outside its struct. */
static gsize
node_memory (GraftNode *node)
{
  gsize size = 0;

  if (node->users_many)
    {
      UserArray *array = node->users.many;

      /* Pairs are counted by their blocks (memory_size()). */
      if (array->capacity_log2 > 1)
        size += sizeof (UserArray) + ((gsize) 1 << array->capacity_log2) * sizeof (GraftNode *);
      if (array->index != NULL)
        size += (array->index_mask + 3) * sizeof (guint32);
    }
  if (node->extra != 0 && get_extra (node)->meta != NULL)
    size += sizeof (GraftNodeMeta) + get_extra (node)->meta->n_modules * sizeof (GraftModuleFrame);
  return size;
}

static gsize
memory_size (GraftGraph *self,
             gsize      *out_strings)
{
  gsize size = sizeof (GraftGraph);
  gsize names_text = 0, args_text = 0;

  /* Node memory as allocated (the free nodes and those kept for undo
   * too), and what each node holds apart. */
  size += self->node_bytes + self->node_blocks->len * sizeof (gpointer);
  if (self->pair_blocks != NULL)
    size += self->pair_blocks->len * (PAIR_BLOCK + sizeof (gpointer));
  size += self->n_extras * sizeof (NodeExtra) + self->free_extras->len * sizeof (guint);
  for (GraftNode *node = self->first; node != NULL; node = node->next)
    size += node_memory (node);
  size += self->trash_size * sizeof (GraftNode *);
  if (self->long_spans != NULL)
    size += g_hash_table_size (self->long_spans) * 3 * sizeof (gpointer);
  /* Scratch marks: from the first holder (or mark set) on. */
  if (self->marked_pages != NULL)
    size += self->marked_pages->len * sizeof (gpointer) +
            self->marks_blocks->len *
                (MARKS_BLOCK_PAGES * GRAFT_PAGE_MARKS * sizeof (guint32) + sizeof (gpointer));
  for (guint i = 0; i < self->trash_len; i++)
    size += node_memory (self->trash[i]);
  /* Arguments in their pool, names in the namespace, each with the text
   * they intern; the table of interned strings and the derived-name
   * tables.  Not counted: the string chunk
   * of targets, annotations and metadata text (one copy per distinct
   * string, as GStringChunk does not tell its size). */
  size += _graft_arg_pool_get_size (self->args_pool, &args_text);
  size += _graft_namespace_get_memory_size (self->names, &names_text);
  if (self->interned.slots != NULL)
    size += (self->interned.mask + 1) * sizeof (GraftNameSlot);
  for (guint i = 0; i < G_N_ELEMENTS (self->derived_names); i++)
    if (self->derived_names[i] != NULL)
      size += g_hash_table_size (self->derived_names[i]) * 3 * sizeof (gpointer);
  if (out_strings != NULL)
    *out_strings = names_text + args_text;
  return size;
}

/**
 * graft_graph_get_memory_size:
 *
 * Counts the heap bytes the graph holds as it allocated them: node blocks
 * (free slots included), users arrays and their indexes, node metadata,
 * the argument pool with its interned strings, and the namespace's tables
 * at their capacity with the names' text.  Not counted: malloc's own
 * overhead, and the string chunk of targets, type annotations and
 * metadata text (one copy of each distinct string).  Used by the memory
 * benchmark.
 *
 * Returns: bytes
 */
gsize
graft_graph_get_memory_size (GraftGraph *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return memory_size (self, NULL);
}

/**
 * graft_graph_get_string_memory_size:
 *
 * Returns: of graft_graph_get_memory_size(), the bytes of interned text:
 *   node names (with their undo headers), and the strings of arguments
 *   (keyword names, string literals), one copy per distinct string
 */
gsize
graft_graph_get_string_memory_size (GraftGraph *self)
{
  gsize strings = 0;

  g_return_val_if_fail (self != NULL, 0);
  memory_size (self, &strings);
  return strings;
}

GraftOp
graft_node_get_op (GraftNode *node)
{
  return (GraftOp) node->op;
}

const char *
graft_node_get_name (GraftNode *node)
{
  return node->name;
}

const char *
graft_node_get_target (GraftNode *node)
{
  return node->target;
}

/**
 * graft_node_get_args:
 *
 * Returns: (transfer none): the args tuple, valid until the node changes
 */
const GraftArg *
graft_node_get_args (GraftNode *node)
{
  return &node->args;
}

/**
 * graft_node_get_kwargs:
 *
 * Returns: (transfer none): the kwargs dict, valid until the node changes
 */
const GraftArg *
graft_node_get_kwargs (GraftNode *node)
{
  return node_kwargs (node);
}

guint
graft_node_get_n_users (GraftNode *node)
{
  return node_n_users (node);
}

GraftNode *
graft_node_get_user (GraftNode *node,
                     guint      i)
{
  g_return_val_if_fail (i < node_n_users (node), NULL);
  return node_users (node)[i];
}

GraftNode *
graft_node_get_next (GraftNode *node)
{
  return node->next;
}

GraftNode *
graft_node_get_prev (GraftNode *node)
{
  return node->prev;
}

GraftGraph *
graft_node_get_graph (GraftNode *node)
{
  return node_graph (node);
}

/**
 * graft_node_compare_order:
 *
 * Returns: negative, 0 or positive as @a comes before, is, or comes after @b
 */
gint
graft_node_compare_order (GraftNode *a,
                          GraftNode *b)
{
  return a->order < b->order ? -1 : a->order > b->order ? 1
                                                        : 0;
}

const char *
graft_node_get_type_annotation (GraftNode *node)
{
  return node->extra != 0 ? get_extra (node)->type : NULL;
}

/**
 * graft_node_set_type_annotation:
 * @type_repr: (nullable): the annotation as code prints it (`torch.Tensor`)
 */
void
graft_node_set_type_annotation (GraftNode  *node,
                                const char *type_repr)
{
  if (type_repr == NULL && node->extra == 0)
    return;
  node_extra (node)->type =
      type_repr != NULL ? graft_graph_intern (node_graph (node), type_repr) : NULL;
}

gboolean
graft_node_get_is_wrapped (GraftNode *node)
{
  return node->is_wrapped;
}

/**
 * graft_node_set_is_wrapped:
 *
 * Marks a call_function node made by a function that torch.fx wraps (the
 * `math` functions, `torch.fx.wrap`ped ones): code generation then emits a
 * `torch.fx._symbolic_trace.wrap(...)` line for its global.
 */
void
graft_node_set_is_wrapped (GraftNode *node,
                           gboolean   is_wrapped)
{
  node->is_wrapped = is_wrapped ? 1 : 0;
}

/* The end of @node's span: a short one's from its length, a long one's
 * kept apart. */
static guint32
node_span_end (GraftNode *node)
{
  if (G_LIKELY (node->span_len != GRAFT_NODE_SPAN_LONG))
    return node->span_start + (guint32) node->span_len;
  return GPOINTER_TO_UINT (g_hash_table_lookup (node_graph (node)->long_spans, node));
}

void
graft_node_get_span (GraftNode *node,
                     guint32   *out_start,
                     guint32   *out_end)
{
  if (out_start != NULL)
    *out_start = node->span_start;
  if (out_end != NULL)
    *out_end = node_span_end (node);
}

/* graft_node_set_span() of a span whose length does not fit the node, or
 * of a node whose span did not: out of the usual path's way. */
static G_GNUC_NO_INLINE void
set_span_apart (GraftNode *node,
                guint32    start,
                guint32    end)
{
  GraftGraph *graph = node_graph (node);

  node->span_start = start;
  if (end >= start && end - start < GRAFT_NODE_SPAN_LONG)
    {
      g_hash_table_remove (graph->long_spans, node);
      node->span_len = end - start;
      return;
    }
  if (graph->long_spans == NULL)
    graph->long_spans = g_hash_table_new (NULL, NULL);
  g_hash_table_insert (graph->long_spans, node, GUINT_TO_POINTER (end));
  node->span_len = GRAFT_NODE_SPAN_LONG;
}

static inline void
set_span (GraftNode *node,
          guint32    start,
          guint32    end)
{
  /* Most spans are a line or less: their length fits the node. */
  if (G_LIKELY (end >= start && end - start < GRAFT_NODE_SPAN_LONG &&
                node->span_len != GRAFT_NODE_SPAN_LONG))
    {
      node->span_start = start;
      node->span_len = end - start;
      return;
    }
  set_span_apart (node, start, end);
}

void
graft_node_set_span (GraftNode *node,
                     guint32    start,
                     guint32    end)
{
  set_span (node, start, end);
}

/**
 * _graft_graph_new_mark:
 *
 * A fresh mark for the scratch slots of the graph's nodes: no node carries
 * it yet, so "is marked" starts false for every node without clearing
 * anything.
 *
 * Returns: the mark
 */
guint32
_graft_graph_new_mark (GraftGraph *self)
{
  if (self->epoch == G_MAXUINT32)
    {
      /* After 4 billion marks, start over with every slot cleared. */
      restart_marks (self);
    }
  return ++self->epoch;
}

/*
 * _graft_node_page_add_marks:
 *
 * Gives @page an array of marks, all 0 (_graft_node_set_mark(), for the
 * first mark set on one of its nodes).
 */
void
_graft_node_page_add_marks (NodePage *page)
{
  GraftGraph *graph = page->graph;

  if (graph->marked_pages == NULL)
    {
      graph->marked_pages = g_ptr_array_new ();
      graph->marks_blocks = g_ptr_array_new_with_free_func (g_free);
    }
  if (graph->marks_left == 0)
    {
      /* Not cleared here: a page's array is, as it is handed out. */
      graph->marks_next = g_new (guint32, MARKS_BLOCK_PAGES * GRAFT_PAGE_MARKS);
      graph->marks_left = MARKS_BLOCK_PAGES;
      g_ptr_array_add (graph->marks_blocks, graph->marks_next);
    }
  node_page_set_marks (page, graph->marks_next);
  memset (page->marks, 0, GRAFT_PAGE_MARKS * sizeof (guint32));
  graph->marks_next += GRAFT_PAGE_MARKS;
  graph->marks_left--;
  page->marked_pos = graph->marked_pages->len;
  g_ptr_array_add (graph->marked_pages, page);
}

/**
 * _graft_graph_hold_marks:
 *
 * Tells the graph that an algorithm uses its nodes' marks until it calls
 * _graft_graph_release_marks(): the marks set meanwhile stay.  Each page
 * of nodes then has its array of marks, kept after the release for the
 * next holder.
 */
void
_graft_graph_hold_marks (GraftGraph *self)
{
  if (self->marks_held++ == 0)
    add_all_marks (self);
}

/**
 * _graft_graph_release_marks:
 *
 * Ends a _graft_graph_hold_marks().  The pages keep their arrays of marks
 * for the next holder, whatever marks they hold: every mark handed out
 * later (_graft_graph_new_mark(), _graft_graph_reserve_marks()) is past
 * them, and a wrap of the marks clears them all (restart_marks()).
 * Giving the arrays back here made the next hold give every page its
 * array again: at a million nodes a turn of 18-44 ms of fresh pages in
 * the editor's Replace All after a saved session.  They go with the
 * graph (an eighth of its nodes' memory).
 */
void
_graft_graph_release_marks (GraftGraph *self)
{
  g_assert (self->marks_held > 0);
  self->marks_held--;
}

/**
 * _graft_graph_is_topological:
 *
 * For the matcher's cycle check, which walks every use once per search:
 * here, without a call per use.
 *
 * Returns: whether every node comes before each of its users
 */
gboolean
_graft_graph_is_topological (GraftGraph *self)
{
  if (!self->maybe_unordered)
    return TRUE;
  for (GraftNode *node = self->first; node != NULL; node = node->next)
    {
      GraftNode *const *users = node_users (node);

      guint n = node_n_users (node);

      for (guint u = 0; u < n; u++)
        if (users[u]->order <= node->order)
          return FALSE;
    }
  /* Known until the next change that may break it. */
  self->maybe_unordered = FALSE;
  return TRUE;
}

/**
 * _graft_graph_check_order_step:
 * @next: (inout): the next node to look at, the graph's first at the start
 * @work: (inout): about how much to do (a node and each of its uses count 1);
 *   what is left when the answer is known
 *
 * _graft_graph_is_topological() by steps, for a caller that must not walk
 * a million nodes in one go (the editor's search, graft_match_search_step()).
 * The graph must not change between two steps of one check.
 *
 * Returns: 1 when every node comes before each of its users, 0 when one
 *   does not, -1 when not known yet (@next is where to go on)
 */
int
_graft_graph_check_order_step (GraftGraph *self,
                               GraftNode **next,
                               guint      *work)
{
  GraftNode *node = *next;
  guint      left = *work;

  if (!self->maybe_unordered)
    return 1;
  while (node != NULL)
    {
      GraftNode *const *users = node_users (node);
      guint             n = node_n_users (node);

      if (left == 0)
        {
          *next = node;
          *work = 0;
          return -1;
        }
      for (guint u = 0; u < n; u++)
        if (users[u]->order <= node->order)
          {
            *next = NULL;
            *work = left;
            return 0;
          }
      left -= MIN (left, n + 1);
      node = node->next;
    }
  *next = NULL;
  *work = left;
  /* Known until the next change that may break it. */
  self->maybe_unordered = FALSE;
  return 1;
}

/**
 * _graft_graph_get_epoch:
 *
 * Returns: the last mark handed out: it changes whenever marks are handed
 *   out again (_graft_graph_new_mark(), _graft_graph_index_nodes()), so
 *   work spread over time can tell whether the numbers it made still hold
 */
guint32
_graft_graph_get_epoch (GraftGraph *self)
{
  return self->epoch;
}

/**
 * _graft_graph_index_nodes:
 * @nodes: (out caller-allocates) (array) (nullable): gets the nodes in
 *   graph order, one entry per node
 *
 * Numbers the graph's nodes in scratch slot 0, for algorithms that map
 * nodes to their position without a hash table: the node at position k
 * gets the mark base + k, from a range of fresh marks that no node
 * carries yet.  Slot 1 is left alone (a pattern keeps its positions
 * there).  Valid until the next use of slot 0.
 *
 * Returns: the base, for _graft_node_get_index()
 */
guint32
_graft_graph_index_nodes (GraftGraph *self,
                          GraftNode **nodes)
{
  guint32 base;
  guint   k = 0;

  if (G_MAXUINT32 - self->epoch <= (guint32) self->n_nodes + 1)
    {
      /* Start over with every slot cleared, as _graft_graph_new_mark()
       * does. */
      restart_marks (self);
    }
  base = self->epoch + 1;
  for (GraftNode *node = self->first; node != NULL; node = node->next, k++)
    {
      _graft_node_set_mark (node, 0, base + k);
      if (nodes != NULL)
        nodes[k] = node;
    }
  self->epoch = base + k;
  return base;
}

/**
 * _graft_graph_reserve_marks:
 * @n: how many marks
 *
 * Hands out @n fresh marks at once, base to base + @n - 1, for work that
 * numbers the nodes in steps (slot 0, node at position k: base + k) while
 * other work may use the marks between its steps: marks handed out later
 * are past the range.
 *
 * Returns: the base, for _graft_node_find_index()
 */
guint32
_graft_graph_reserve_marks (GraftGraph *self,
                            guint       n)
{
  guint32 base;

  if (G_MAXUINT32 - self->epoch <= (guint32) n + 1)
    {
      restart_marks (self);
    }
  base = self->epoch + 1;
  self->epoch = base + n;
  return base;
}

/**
 * _graft_node_find_index:
 * @node: a node, of any graph
 * @base: what _graft_graph_reserve_marks() or _graft_graph_index_nodes()
 *   returned
 * @nodes: (array length=n): the graph's nodes in graph order, all of them
 * @n: how many
 * @index: (out): the node's position in graph order
 *
 * As _graft_node_get_index(), for numbers that other work may have
 * overwritten since they were set, in a graph that has not changed:
 * @node's mark is only a hint, and when it is not @node's number the
 * position is found from the order keys (a binary search) and marked
 * again.
 *
 * Returns: whether @node is one of @nodes
 */
gboolean
_graft_node_find_index (GraftNode        *node,
                        guint32           base,
                        GraftNode *const *nodes,
                        guint             n,
                        guint            *index)
{
  guint32 k = _graft_node_get_mark (node, 0) - base;
  guint   lo = 0;
  guint   hi = n;

  if (k < n && nodes[k] == node)
    {
      *index = k;
      return TRUE;
    }
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (nodes[mid]->order < node->order)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo >= n || nodes[lo] != node)
    return FALSE;
  _graft_node_set_mark (node, 0, base + lo);
  *index = lo;
  return TRUE;
}

/**
 * graft_graph_set_source:
 * @source: (nullable): the text the graph was read from
 *
 * Records the source that node spans (graft_node_get_span()) point into, so
 * that problems found later (by the matcher, the rewriter, an editor) can be
 * reported at a line and column.
 */
void
graft_graph_set_source (GraftGraph  *self,
                        GraftSource *source)
{
  g_return_if_fail (self != NULL);

  if (source != NULL)
    graft_source_ref (source);
  g_clear_pointer (&self->source, graft_source_unref);
  self->source = source;
}

/**
 * graft_graph_get_source:
 *
 * Returns: (transfer none) (nullable): the source node spans point into
 */
GraftSource *
graft_graph_get_source (GraftGraph *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->source;
}

/**
 * graft_node_set_error:
 * @node: the node the problem is about
 * @error: return location for the error
 * @code: its code
 * @format: printf-style message
 *
 * Sets a #GRAFT_ERROR placed at @node's place in its graph's source (or at
 * the source's first line when the node has no span, or without a place
 * when the graph has no source).
 */
void
graft_node_set_error (GraftNode     *node,
                      GError       **error,
                      GraftErrorCode code,
                      const char    *format,
                      ...)
{
  va_list          ap;
  g_autofree char *message = NULL;
  GraftSource     *source = node != NULL ? node_graph (node)->source : NULL;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  if (source == NULL)
    {
      g_set_error_literal (error, GRAFT_ERROR, code, message);
      return;
    }
  graft_set_error_in_source (error, source, node->span_start, node_span_end (node), code, "%s",
                             message);
}

/**
 * _graft_node_append_caption:
 * @out: where to append
 * @node: a node
 *
 * Appends what @node does, as drawings caption it under its name:
 * `input`, `self.lin.weight`, `torch.cat`, `.sum()`, `self.layers.0()`,
 * `output`.
 */
void
_graft_node_append_caption (GString   *out,
                            GraftNode *node)
{
  const char *target = graft_node_get_target (node);

  switch (graft_node_get_op (node))
    {
    case GRAFT_OP_PLACEHOLDER:
      g_string_append (out, "input");
      return;
    case GRAFT_OP_GET_ATTR:
      g_string_append_printf (out, "self.%s", target);
      return;
    case GRAFT_OP_CALL_METHOD:
      g_string_append_printf (out, ".%s()", target);
      return;
    case GRAFT_OP_CALL_MODULE:
      g_string_append_printf (out, "self.%s()", target);
      return;
    case GRAFT_OP_OUTPUT:
      g_string_append (out, "output");
      return;
    case GRAFT_OP_CALL_FUNCTION:
    default:
      g_string_append (out, target);
      return;
    }
}

/* Whether the node's name is one a fresh namespace gives back unchanged
 * (graft_namespace_is_canonical), known since the node was made. */
gboolean
_graft_node_name_is_canonical (GraftNode *node)
{
  return node->name_canonical;
}

/**
 * graft_node_get_meta:
 *
 * Returns: (transfer none) (nullable): what the program that @node came from
 *   recorded of it, or %NULL when nothing is known
 */
const GraftNodeMeta *
graft_node_get_meta (GraftNode *node)
{
  return node->extra != 0 ? get_extra (node)->meta : NULL;
}

/**
 * graft_node_set_meta:
 * @meta: (nullable): the metadata; its strings and frames are copied into
 *   the graph.  %NULL clears it.
 *
 * Sets what is known of @node.  Not an undoable edit: readers call it.
 */
void
graft_node_set_meta (GraftNode           *node,
                     const GraftNodeMeta *meta)
{
  GraftGraph       *graph = node_graph (node);
  GraftModuleFrame *frames;
  GraftNodeMeta    *copy;

  if (node->extra != 0)
    g_clear_pointer (&get_extra (node)->meta, g_free);
  if (meta == NULL)
    return;
  /* One block: the struct, then its frames. */
  copy = g_malloc0 (sizeof (GraftNodeMeta) + meta->n_modules * sizeof (GraftModuleFrame));
  node_extra (node)->meta = copy;
  frames = (GraftModuleFrame *) (copy + 1);
#define COPY(field) \
  copy->field = meta->field != NULL ? graft_graph_intern (graph, meta->field) : NULL
  copy->kind = meta->kind;
  COPY (dtype);
  COPY (shape);
  COPY (stride);
  COPY (device);
  COPY (symbol);
  COPY (stack_trace);
  COPY (source_fn_stack);
  COPY (torch_fn);
#undef COPY
  for (guint i = 0; i < meta->n_modules; i++)
    {
      frames[i].key =
          graft_graph_intern (graph, meta->modules[i].key != NULL ? meta->modules[i].key : "");
      frames[i].path =
          graft_graph_intern (graph, meta->modules[i].path != NULL ? meta->modules[i].path : "");
      frames[i].type =
          graft_graph_intern (graph, meta->modules[i].type != NULL ? meta->modules[i].type : "");
    }
  copy->n_modules = meta->n_modules;
  copy->modules = meta->n_modules > 0 ? frames : NULL;
}

/* graft_node_set_meta() for a reader whose strings are all already in
 * the graph's string chunk (graft_graph_intern()): they are taken as they
 * are, without hashing them again. */
void
_graft_node_set_meta_interned (GraftNode           *node,
                               const GraftNodeMeta *meta)
{
  GraftModuleFrame *frames;
  GraftNodeMeta    *copy;

  if (node->extra != 0)
    g_clear_pointer (&get_extra (node)->meta, g_free);
  copy = g_malloc (sizeof (GraftNodeMeta) + meta->n_modules * sizeof (GraftModuleFrame));
  node_extra (node)->meta = copy;
  frames = (GraftModuleFrame *) (copy + 1);
  *copy = *meta;
  if (meta->n_modules > 0)
    memcpy (frames, meta->modules, meta->n_modules * sizeof (GraftModuleFrame));
  copy->modules = meta->n_modules > 0 ? frames : NULL;
}

/**
 * graft_graph_get_program:
 *
 * Returns: (transfer none) (nullable): the signature of the torch.export
 *   program the graph is, or %NULL when it is not one
 */
GraftProgram *
graft_graph_get_program (GraftGraph *self)
{
  return self->program;
}

/**
 * graft_graph_ensure_program:
 *
 * Makes the graph a torch.export program (with an empty signature) unless it
 * is one.
 *
 * Returns: (transfer none): its program
 */
GraftProgram *
graft_graph_ensure_program (GraftGraph *self)
{
  if (self->program == NULL)
    self->program = _graft_program_new (self);
  return self->program;
}

/**
 * graft_graph_get_module_name:
 *
 * Returns: (nullable): the class name `print_readable` gives the graph's
 *   module (`GraphModule` for a program, the traced class otherwise), or
 *   %NULL when none was set
 */
const char *
graft_graph_get_module_name (GraftGraph *self)
{
  return self->module_name;
}

/**
 * graft_graph_set_module_name:
 * @name: (nullable): as graft_graph_get_module_name() returns it
 */
void
graft_graph_set_module_name (GraftGraph *self,
                             const char *name)
{
  self->module_name = name != NULL ? graft_graph_intern (self, name) : NULL;
}
