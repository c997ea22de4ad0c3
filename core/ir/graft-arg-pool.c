/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-arg-pool.c: see graft-arg-pool-private.h.  Item arrays of up to
 * MAX_POOLED items are carved out of blocks and kept, once let go, on a
 * free list per length; longer ones are allocated alone and linked, so
 * that freeing the pool frees them too.  Nothing here frees an argument
 * piece by piece when the graph goes: the blocks go whole.
 */
#include "config.h"

#include "graft-arg-pool-private.h"
#include "graft-name-table-private.h"

#include <string.h>

#define MAX_POOLED GRAFT_ARG_POOL_MAX_POOLED

/* Containers of plain values (keyword dicts such as `dim=1`, index
 * tuples such as `(slice(None, None, None), slice(None, 16, None))`) are
 * shared: one frozen copy of each, in chunks of this many bytes, for
 * those of at most MAX_SHARED_ITEMS items at every level, and at most
 * MAX_SHARED distinct ones (a frozen copy lives as long as the pool). */
#define FROZEN_CHUNK 4096
/* The first chunk's bytes: a graph shares a few trees (gen-module six). */
#define FROZEN_FIRST     1024
#define MAX_SHARED_ITEMS 32
#define MAX_SHARED       1024
/* Slots of the recently shared trees found by their words
 * (GraftArgPool.recent_shared): a power of two. */
#define RECENT_SHARED 32

#ifdef GRAFT_ARG_POOL_ARRAYS_EACH_ALONE
#define ARRAYS_EACH_ALONE 1
#endif

/* The header of an array allocated alone: the pool's list of them. */
typedef struct Alone Alone;
struct Alone
{
  Alone *prev;
  Alone *next;
};

G_STATIC_ASSERT (sizeof (Alone) % G_ALIGNOF (GraftArg) == 0);

/* A block of memory with a link to the block before, kept until the pool
 * goes. */
typedef struct
{
  char *head;  /* the newest block; starts with a link to the one before */
  gsize used;  /* bytes of it handed out, the link included */
  gsize size;  /* its size */
  gsize total; /* bytes of every block */
} Blocks;

/* A shared tree's slot: its hash and its header. */
typedef struct
{
  guint64   hash;
  GraftArg *header; /* NULL: empty */
} SharedSlot;

/* A tree shared recently, by recent_key() of the tree it was found for
 * (texts by their address, not their bytes). */
typedef struct
{
  guint64   key;
  GraftArg *header; /* NULL: empty */
} RecentShared;

struct _GraftArgPool
{
  GraftArg *free_lists[MAX_POOLED + 1]; /* by length; linked through the first word */
  Blocks    items;                      /* item arrays */
  Alone     alone;                      /* sentinel of the list of arrays allocated alone */
  gsize     alone_bytes;

  GraftNameTable strings; /* interned text (keys in string_blocks) -> NULL */
  Blocks         string_blocks;
  /* Recently interned strings, in slots picked by length and end bytes:
   * a graph has a few distinct keyword names and many nodes, and a hit
   * (checked by comparing the text) saves hashing it. */
  const char *recent[64];
  guint       recent_len[64];

  /* Shared containers: each a header item (the container, whose items at
   * every level follow it) in a frozen chunk; the table's keys are the
   * headers. */
  GPtrArray  *frozen_chunks; /* frozen_chunk_size() bytes each, owned */
  gsize       frozen_used;   /* bytes of the newest chunk handed out */
  SharedSlot *shared;        /* open addressing, or NULL */
  guint       shared_mask;
  guint       n_shared;
  /* The shared trees met recently, direct-mapped by recent_key(): a
   * graph's few keyword dicts come again and again from the same caller
   * with the same texts (a module's interned keyword names), and a hit,
   * checked by comparing the trees, saves hashing the texts' bytes and
   * looking in the table. */
  RecentShared recent_shared[RECENT_SHARED];
};

/* The kinds of plain values, and of containers, as bit sets. */
#define PLAIN_KINDS                                                               \
  ((1u << GRAFT_ARG_NONE) | (1u << GRAFT_ARG_ELLIPSIS) | (1u << GRAFT_ARG_BOOL) | \
   (1u << GRAFT_ARG_INT) | (1u << GRAFT_ARG_FLOAT) | (1u << GRAFT_ARG_STR) |      \
   (1u << GRAFT_ARG_SYMBOL) | (1u << GRAFT_ARG_DEVICE))
#define TEXT_KINDS ((1u << GRAFT_ARG_STR) | (1u << GRAFT_ARG_SYMBOL) | (1u << GRAFT_ARG_DEVICE))
#define CONTAINER_KINDS                                                        \
  ((1u << GRAFT_ARG_TUPLE) | (1u << GRAFT_ARG_LIST) | (1u << GRAFT_ARG_DICT) | \
   (1u << GRAFT_ARG_SLICE))
/* The kinds whose value may be memory of their own. */
#define OWNING_KINDS (TEXT_KINDS | (1u << GRAFT_ARG_COMPLEX) | CONTAINER_KINDS)

G_STATIC_ASSERT (GRAFT_ARG_SLICE < 32);

/* The inline allocation (_graft_arg_pool_new_items_inline()) reads the
 * pool as its head: the same layout. */
G_STATIC_ASSERT (G_STRUCT_OFFSET (GraftArgPool, free_lists) ==
                 G_STRUCT_OFFSET (GraftArgPoolHead, free_lists));
G_STATIC_ASSERT (G_STRUCT_OFFSET (GraftArgPool, items) + G_STRUCT_OFFSET (Blocks, head) ==
                 G_STRUCT_OFFSET (GraftArgPoolHead, head));
G_STATIC_ASSERT (G_STRUCT_OFFSET (GraftArgPool, items) + G_STRUCT_OFFSET (Blocks, used) ==
                 G_STRUCT_OFFSET (GraftArgPoolHead, used));
G_STATIC_ASSERT (G_STRUCT_OFFSET (GraftArgPool, items) + G_STRUCT_OFFSET (Blocks, size) ==
                 G_STRUCT_OFFSET (GraftArgPoolHead, size));
G_STATIC_ASSERT (sizeof (GraftArg) % G_ALIGNOF (GraftArg) == 0);

/* Whether @arg owns memory beyond its struct: a string, a complex number
 * or a container's items (a dict's count is of its pairs: n > 0 all the
 * same).  Most items are nodes and numbers: one test of a bit set. */
static inline gboolean
owns_memory (const GraftArg *arg)
{
  guint bit = 1u << arg->kind;

  if (G_LIKELY ((bit & OWNING_KINDS) == 0))
    return FALSE;
  return (bit & CONTAINER_KINDS) == 0 || arg->n > 0;
}

/* A new block for blocks_alloc() that has room for @size bytes. */
static void
blocks_grow (Blocks *blocks,
             gsize   size)
{
  /* Blocks grow with the graph, up to 16 KiB (or what one needs): the
   * newest is partly empty, and a larger one would waste more (64 KiB
   * left 3.8 bytes a node unused in a graph of 10,000). */
  gsize block_size = MAX (MIN (blocks->size * 2, 16u << 10), 4096u);
  char *block;

  block_size = MAX (block_size, size + sizeof (GraftArg));
  block = g_malloc (block_size);
  memcpy (block, &blocks->head, sizeof (char *));
  blocks->head = block;
  blocks->size = block_size;
  /* The link takes a whole GraftArg, so that what follows is aligned. */
  blocks->used = sizeof (GraftArg);
  blocks->total += block_size;
}

/* @size bytes from @blocks, aligned for a GraftArg.  Inline: every node's
 * arguments take an array from here. */
static inline gpointer
blocks_alloc (Blocks *blocks,
              gsize   size)
{
  gpointer p;

  size = (size + G_ALIGNOF (GraftArg) - 1) & ~(gsize) (G_ALIGNOF (GraftArg) - 1);
  if (G_UNLIKELY (blocks->head == NULL || blocks->used + size > blocks->size))
    blocks_grow (blocks, size);
  p = blocks->head + blocks->used;
  blocks->used += size;
  return p;
}

static void
blocks_clear (Blocks *blocks)
{
  while (blocks->head != NULL)
    {
      char *block = blocks->head;

      memcpy (&blocks->head, block, sizeof (char *));
      g_free (block);
    }
  blocks->used = blocks->size = blocks->total = 0;
}

GraftArgPool *
_graft_arg_pool_new (void)
{
  GraftArgPool *pool = g_new0 (GraftArgPool, 1);

  pool->alone.prev = pool->alone.next = &pool->alone;
  _graft_name_table_init (&pool->strings, FALSE);
  return pool;
}

void
_graft_arg_pool_free (GraftArgPool *pool)
{
  if (pool == NULL)
    return;
  while (pool->alone.next != &pool->alone)
    {
      Alone *alone = pool->alone.next;

      pool->alone.next = alone->next;
      g_free (alone);
    }
  blocks_clear (&pool->items);
  blocks_clear (&pool->string_blocks);
  g_clear_pointer (&pool->shared, g_free);
  g_clear_pointer (&pool->frozen_chunks, g_ptr_array_unref);
  _graft_name_table_clear (&pool->strings);
  g_free (pool);
}

/* The bytes of the frozen chunk @i. */
static inline gsize
frozen_chunk_size (guint i)
{
  return i == 0 ? FROZEN_FIRST : FROZEN_CHUNK;
}

/* Whether @items is a shared container's, in a frozen chunk: never
 * freed. */
static inline gboolean
is_frozen (GraftArgPool   *pool,
           const GraftArg *items)
{
  if (G_LIKELY (pool->frozen_chunks == NULL))
    return FALSE;
  for (guint i = 0; i < pool->frozen_chunks->len; i++)
    if ((guintptr) items - (guintptr) pool->frozen_chunks->pdata[i] < frozen_chunk_size (i))
      return TRUE;
  return FALSE;
}

/* Whether @arg, a container with items, may be a tree of plain values:
 * most containers among a node's args hold nodes (`[a, b]`), and are told
 * at once by their first item (or value). */
static inline gboolean
may_share (const GraftArg *arg)
{
  return _graft_arg_is_container (arg) && arg->items[0].kind != GRAFT_ARG_NODE &&
         (arg->kind != GRAFT_ARG_DICT || arg->items[1].kind != GRAFT_ARG_NODE);
}

/* items_alloc() of an array allocated alone. */
static G_GNUC_NO_INLINE GraftArg *
items_alloc_alone (GraftArgPool *pool,
                   guint         n)
{
  Alone *alone = g_malloc (sizeof (Alone) + n * sizeof (GraftArg));

  alone->prev = &pool->alone;
  alone->next = pool->alone.next;
  alone->next->prev = alone;
  pool->alone.next = alone;
  pool->alone_bytes += sizeof (Alone) + n * sizeof (GraftArg);
  return (GraftArg *) (alone + 1);
}

/* An array of @n items (n > 0), uninitialised.  Inline: every node's
 * arguments take one. */
static inline G_ALWAYS_INLINE GraftArg *
items_alloc (GraftArgPool *pool,
             guint         n)
{
#ifndef ARRAYS_EACH_ALONE
  if (n <= MAX_POOLED)
    {
      GraftArg *items = pool->free_lists[n];

      if (items != NULL)
        {
          memcpy (&pool->free_lists[n], items, sizeof (GraftArg *));
          return items;
        }
      return blocks_alloc (&pool->items, n * sizeof (GraftArg));
    }
#endif
  return items_alloc_alone (pool, n);
}

/* Lets go of an array from items_alloc (@items, @n items). */
static void
items_free (GraftArgPool *pool,
            GraftArg     *items,
            guint         n)
{
  Alone *alone;

  if (G_UNLIKELY (is_frozen (pool, items)))
    return;
#ifndef ARRAYS_EACH_ALONE
  if (n <= MAX_POOLED)
    {
      memcpy (items, &pool->free_lists[n], sizeof (GraftArg *));
      pool->free_lists[n] = items;
      return;
    }
#endif
  alone = (Alone *) items - 1;
  alone->prev->next = alone->next;
  alone->next->prev = alone->prev;
  pool->alone_bytes -= sizeof (Alone) + n * sizeof (GraftArg);
  g_free (alone);
}

/* The interned copy of @len bytes at @text, NUL-terminated (the bytes
 * may hold NULs). */
static char *
intern (GraftArgPool *pool,
        const char   *text,
        gsize         len)
{
  guint          r = 0;
  guint          hash;
  GraftNameSlot *slot;
  char          *copy;

  if (len > 0)
    r = (guint) (len * 31 + (guchar) text[0] * 7 + (guchar) text[len - 1]);
  r %= G_N_ELEMENTS (pool->recent);
  if (pool->recent[r] != NULL && pool->recent_len[r] == len &&
      memcmp (pool->recent[r], text, len) == 0)
    return (char *) pool->recent[r];
  hash = _graft_name_hash (text, len);
  slot = _graft_name_table_find (&pool->strings, text, len, hash);
  if (slot != NULL)
    copy = (char *) slot->key;
  else
    {
      copy = blocks_alloc (&pool->string_blocks, len + 1);
      memcpy (copy, text, len);
      copy[len] = '\0';
      _graft_name_table_insert_len (&pool->strings, copy, (guint) len, hash, NULL);
    }
  pool->recent[r] = copy;
  pool->recent_len[r] = (guint) len;
  return copy;
}

/**
 * _graft_arg_pool_adopt:
 * @arg: an argument in the heap's form (graft-arg.c's)
 *
 * Moves @arg into the pool, in place: its arrays and strings are the
 * pool's afterwards and the heap's copies are freed.
 */
static void     pool_adopt (GraftArgPool *pool,
                            GraftArg     *arg,
                            gboolean      share);
static void     pool_copy (GraftArgPool   *pool,
                           GraftArg       *dest,
                           const GraftArg *src,
                           gboolean        share);
static gboolean copy_shared (GraftArgPool   *pool,
                             GraftArg       *dest,
                             const GraftArg *src);
static void     copy_owning (GraftArgPool   *pool,
                             GraftArg       *dest,
                             const GraftArg *src,
                             gboolean        share);

/* Copies the @n items at @src to @dest (room for them): most are nodes
 * and numbers, their struct alone (no call to memcpy() for a few); the
 * others through copy_owning(). */
static inline G_ALWAYS_INLINE void
copy_items (GraftArgPool   *pool,
            GraftArg       *dest,
            const GraftArg *src,
            guint           n,
            gboolean        share)
{
  for (guint i = 0; i < n; i++)
    {
      dest[i] = src[i];
      if (G_UNLIKELY (owns_memory (&src[i])))
        copy_owning (pool, &dest[i], &src[i], share);
    }
}

void
_graft_arg_pool_adopt (GraftArgPool *pool,
                       GraftArg     *arg)
{
  pool_adopt (pool, arg, FALSE);
}

/**
 * _graft_arg_pool_adopt_args:
 * @arg: a node's arguments, a tuple in the heap's form
 *
 * _graft_arg_pool_adopt(), and the tuple's items that are containers of
 * plain values shared (_graft_arg_pool_share()).
 */
void
_graft_arg_pool_adopt_args (GraftArgPool *pool,
                            GraftArg     *arg)
{
  pool_adopt (pool, arg, TRUE);
}

/* Adopts @arg; with @share, shares those of its items that can be. */
static void
pool_adopt (GraftArgPool *pool,
            GraftArg     *arg,
            gboolean      share)
{
  guint     n_items;
  GraftArg *heap;
  char     *s;
  double   *c;

  switch (arg->kind)
    {
    case GRAFT_ARG_STR:
    case GRAFT_ARG_SYMBOL:
    case GRAFT_ARG_DEVICE:
      s = arg->s;
      arg->s = intern (pool, s, arg->n);
      g_free (s);
      return;
    case GRAFT_ARG_COMPLEX:
      c = arg->c;
      arg->c = (double *) items_alloc (pool, 1);
      arg->c[0] = c[0];
      arg->c[1] = c[1];
      g_free (c);
      return;
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_LIST:
    case GRAFT_ARG_DICT:
    case GRAFT_ARG_SLICE:
      n_items = _graft_arg_count_items (arg);
      if (n_items == 0)
        {
          g_clear_pointer (&arg->items, g_free);
          return;
        }
      heap = arg->items;
      arg->items = items_alloc (pool, n_items);
      memcpy (arg->items, heap, n_items * sizeof (GraftArg));
      g_free (heap);
      for (guint i = 0; i < n_items; i++)
        if (owns_memory (&arg->items[i]))
          {
            pool_adopt (pool, &arg->items[i], FALSE);
            if (share)
              _graft_arg_pool_share (pool, &arg->items[i]);
          }
      return;
    case GRAFT_ARG_NONE:
    case GRAFT_ARG_ELLIPSIS:
    case GRAFT_ARG_BOOL:
    case GRAFT_ARG_INT:
    case GRAFT_ARG_FLOAT:
    case GRAFT_ARG_NODE:
    default:
      return;
    }
}

/**
 * _graft_arg_pool_copy:
 * @dest: (out caller-allocates): where the copy goes, in the pool's form
 * @src: an argument in either form, borrowed
 */
void
_graft_arg_pool_copy (GraftArgPool   *pool,
                      GraftArg       *dest,
                      const GraftArg *src)
{
  pool_copy (pool, dest, src, FALSE);
}

/**
 * _graft_arg_pool_copy_args:
 * @dest: (out caller-allocates): where the copy goes, in the pool's form
 * @src: a node's arguments, a tuple in either form, borrowed
 *
 * _graft_arg_pool_copy(), and the tuple's items that are containers of
 * plain values shared (_graft_arg_pool_share()).
 */
void
_graft_arg_pool_copy_args (GraftArgPool   *pool,
                           GraftArg       *dest,
                           const GraftArg *src)
{
  guint n_items = _graft_arg_count_items (src);

  /* A node's arguments (a tuple of nodes and numbers, most often) at the
   * top level inline: pool_copy() as it would copy them. */
  if (G_UNLIKELY (src->kind != GRAFT_ARG_TUPLE))
    {
      pool_copy (pool, dest, src, TRUE);
      return;
    }
  *dest = *src;
  if (n_items == 0)
    {
      dest->items = NULL;
      return;
    }
  dest->items = items_alloc (pool, n_items);
  copy_items (pool, dest->items, src->items, n_items, TRUE);
}

/* Copies @src (which owns memory) to @dest, which holds @src's struct;
 * with @share, a container shared if it can be. */
static G_GNUC_NO_INLINE void
copy_owning (GraftArgPool   *pool,
             GraftArg       *dest,
             const GraftArg *src,
             gboolean        share)
{
  if (share && _graft_arg_is_container (src) && may_share (src))
    copy_shared (pool, dest, src);
  else
    pool_copy (pool, dest, src, FALSE);
}

/* Copies @src to @dest; with @share, shares those of its items that can
 * be. */
static void
pool_copy (GraftArgPool   *pool,
           GraftArg       *dest,
           const GraftArg *src,
           gboolean        share)
{
  guint n_items;

  *dest = *src;
  switch (src->kind)
    {
    case GRAFT_ARG_STR:
    case GRAFT_ARG_SYMBOL:
    case GRAFT_ARG_DEVICE:
      dest->s = intern (pool, src->s, src->n);
      return;
    case GRAFT_ARG_COMPLEX:
      dest->c = (double *) items_alloc (pool, 1);
      dest->c[0] = src->c[0];
      dest->c[1] = src->c[1];
      return;
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_LIST:
    case GRAFT_ARG_DICT:
    case GRAFT_ARG_SLICE:
      n_items = _graft_arg_count_items (src);
      if (n_items == 0)
        {
          dest->items = NULL;
          return;
        }
      dest->items = items_alloc (pool, n_items);
      copy_items (pool, dest->items, src->items, n_items, share);
      return;
    case GRAFT_ARG_NONE:
    case GRAFT_ARG_ELLIPSIS:
    case GRAFT_ARG_BOOL:
    case GRAFT_ARG_INT:
    case GRAFT_ARG_FLOAT:
    case GRAFT_ARG_NODE:
    default:
      return;
    }
}

/* The complex number at @c, in the pool. */
static double *
copy_complex (GraftArgPool *pool,
              const double *c)
{
  double *copy = (double *) items_alloc (pool, 1);

  copy[0] = c[0];
  copy[1] = c[1];
  return copy;
}

/* _graft_arg_pool_copy_laid_out() of @n items (n > 0). */
static GraftArg *
copy_items_laid_out (GraftArgPool   *pool,
                     const GraftArg *src,
                     guint           n)
{
  GraftArg *items = items_alloc (pool, n);

  /* Items one by one: most arrays hold one to three (a call's args). */
  for (guint i = 0; i < n; i++)
    {
      items[i] = src[i];
      if (src[i].kind >= GRAFT_ARG_TUPLE)
        {
          guint m = src[i].kind == GRAFT_ARG_DICT ? 2 * src[i].n : src[i].n;

          if (m > 0 && !is_frozen (pool, src[i].items))
            items[i].items = copy_items_laid_out (pool, src[i].items, m);
        }
      else if (G_UNLIKELY (src[i].kind == GRAFT_ARG_COMPLEX))
        items[i].c = copy_complex (pool, src[i].c);
    }
  return items;
}

/**
 * _graft_arg_pool_copy_laid_out:
 * @dest: (out caller-allocates): where the copy goes, in the pool's form
 * @src: an argument in the pool's form, borrowed, but for containers
 *   (outside the frozen chunks) that may be anyone's memory: the rewriter
 *   lays a replacement node's arguments out in the pool once and fills
 *   their nodes in for each copy
 *
 * _graft_arg_pool_copy() without interning: strings and shared containers
 * are taken as they are, the other containers copied.
 */
void
_graft_arg_pool_copy_laid_out (GraftArgPool   *pool,
                               GraftArg       *dest,
                               const GraftArg *src)
{
  *dest = *src;
  if (src->kind >= GRAFT_ARG_TUPLE)
    {
      guint n = src->kind == GRAFT_ARG_DICT ? 2 * src->n : src->n;

      if (n > 0 && !is_frozen (pool, src->items))
        dest->items = copy_items_laid_out (pool, src->items, n);
    }
  else if (src->kind == GRAFT_ARG_COMPLEX)
    dest->c = copy_complex (pool, src->c);
}

/**
 * _graft_arg_pool_release:
 * @arg: an argument in the pool's form
 *
 * Gives @arg's arrays back to the pool (its strings stay interned) and
 * leaves it `None`.
 */
void
_graft_arg_pool_release (GraftArgPool *pool,
                         GraftArg     *arg)
{
  guint n_items;

  switch (arg->kind)
    {
    case GRAFT_ARG_COMPLEX:
      items_free (pool, (GraftArg *) arg->c, 1);
      break;
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_LIST:
    case GRAFT_ARG_DICT:
    case GRAFT_ARG_SLICE:
      n_items = _graft_arg_count_items (arg);
      /* A shared container's items stay as they are. */
      if (n_items == 0 || G_UNLIKELY (is_frozen (pool, arg->items)))
        break;
      for (guint i = 0; i < n_items; i++)
        if (owns_memory (&arg->items[i]))
          _graft_arg_pool_release (pool, &arg->items[i]);
      items_free (pool, arg->items, n_items);
      break;
    case GRAFT_ARG_STR:
    case GRAFT_ARG_SYMBOL:
    case GRAFT_ARG_DEVICE:
    case GRAFT_ARG_NONE:
    case GRAFT_ARG_ELLIPSIS:
    case GRAFT_ARG_BOOL:
    case GRAFT_ARG_INT:
    case GRAFT_ARG_FLOAT:
    case GRAFT_ARG_NODE:
    default:
      break;
    }
  graft_arg_init_none (arg);
}

/**
 * _graft_arg_pool_new_items:
 * @n: how many items, at least one
 *
 * Returns: (transfer full): an array of @n items (uninitialised), for a
 *   caller that lays out arguments itself (a node keeps its keyword
 *   arguments after its args' items); give it back with
 *   _graft_arg_pool_free_items()
 */
GraftArg *
_graft_arg_pool_new_items (GraftArgPool *pool,
                           guint         n)
{
  return items_alloc (pool, n);
}

/* Gives back an array of @n items from _graft_arg_pool_new_items() or from
 * an argument in the pool's form (what it holds is the caller's to release
 * or keep). */
void
_graft_arg_pool_free_items (GraftArgPool *pool,
                            GraftArg     *items,
                            guint         n)
{
  items_free (pool, items, n);
}

/**
 * _graft_arg_pool_get_size:
 * @out_strings: (out) (optional): of the bytes returned, those that hold
 *   interned text and its table
 *
 * Returns: the bytes the pool holds: its blocks (free lists included),
 *   the arrays allocated alone, its interned strings and their table
 */
gsize
_graft_arg_pool_get_size (GraftArgPool *pool,
                          gsize        *out_strings)
{
  gsize strings = pool->string_blocks.total + (pool->strings.mask + 1) * sizeof (GraftNameSlot);

  if (out_strings != NULL)
    *out_strings = strings;
  gsize frozen = 0;

  if (pool->frozen_chunks != NULL)
    frozen = pool->frozen_chunks->len * FROZEN_CHUNK - (FROZEN_CHUNK - FROZEN_FIRST) +
             (pool->shared_mask + 1) * sizeof (SharedSlot);
  return sizeof (GraftArgPool) + pool->items.total + pool->alone_bytes + frozen + strings;
}

/* An item's two words: its kind and count, and its value.  Every
 * graft_arg_init_*() zeroes the whole item first, so a plain value's
 * words are its value (a text's are its address: texts are hashed and
 * compared by their bytes, in the pool's form or the caller's); an item
 * whose unused bytes were left otherwise only fails to be shared. */
static inline void
item_words (const GraftArg *item,
            guint64        *head,
            guint64        *value)
{
  memcpy (head, item, sizeof *head);
  memcpy (value, (const char *) item + sizeof *head, sizeof *value);
}

G_STATIC_ASSERT (sizeof (GraftArg) == 2 * sizeof (guint64));

#define MIX(h, v) (((h) ^ (v)) * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15))

/* The hash of the items of @arg (a container) at every level, adding
 * their count to @total; FALSE if one is not plain, or there are more
 * than MAX_SHARED_ITEMS, or the tree is deeper than four. */
static gboolean
tree_hash (const GraftArg *arg,
           guint           depth,
           guint          *total,
           guint64        *hash)
{
  guint   n_items = _graft_arg_count_items (arg);
  guint64 h = MIX ((guint64) arg->kind << 56, arg->n);

  *total += n_items;
  if (*total > MAX_SHARED_ITEMS || depth > 4)
    return FALSE;
  for (guint i = 0; i < n_items; i++)
    {
      const GraftArg *item = &arg->items[i];
      guint           bit = 1u << item->kind;
      guint64         head, value;

      item_words (item, &head, &value);
      if (bit & TEXT_KINDS)
        h = MIX (MIX (h, head), _graft_name_hash (item->s, item->n));
      else if (bit & PLAIN_KINDS)
        h = MIX (MIX (h, head), value);
      else if ((bit & CONTAINER_KINDS) && item->n > 0)
        {
          if (!tree_hash (item, depth + 1, total, &value))
            return FALSE;
          h = MIX (MIX (h, head), value);
        }
      else if (bit & CONTAINER_KINDS)
        h = MIX (h, head);
      else
        return FALSE;
    }
  *hash = h;
  return TRUE;
}

/* Whether the @n bytes at @a and @b are equal: short ones (keyword
 * names) compared here, in two words that may overlap, without a call. */
static inline gboolean
text_equal (const char *a,
            const char *b,
            gsize       n)
{
  if (n >= 8 && n <= 16)
    {
      guint64 a0, a1, b0, b1;

      memcpy (&a0, a, 8);
      memcpy (&b0, b, 8);
      memcpy (&a1, a + n - 8, 8);
      memcpy (&b1, b + n - 8, 8);
      return ((a0 ^ b0) | (a1 ^ b1)) == 0;
    }
  if (n >= 4 && n < 8)
    {
      guint32 a0, a1, b0, b1;

      memcpy (&a0, a, 4);
      memcpy (&b0, b, 4);
      memcpy (&a1, a + n - 4, 4);
      memcpy (&b1, b + n - 4, 4);
      return ((a0 ^ b0) | (a1 ^ b1)) == 0;
    }
  if (n < 4)
    {
      for (gsize i = 0; i < n; i++)
        if (a[i] != b[i])
          return FALSE;
      return TRUE;
    }
  return memcmp (a, b, n) == 0;
}

/* Whether the @n items at @x and @y, of plain trees, are equal.  The
 * kinds in the order of how often they come: numbers and None, then
 * containers (an index tuple's slices), then texts. */
static gboolean
items_equal (const GraftArg *x,
             const GraftArg *y,
             guint           n)
{
  G_STATIC_ASSERT (GRAFT_ARG_NONE == 0 && GRAFT_ARG_ELLIPSIS < GRAFT_ARG_FLOAT &&
                   GRAFT_ARG_BOOL < GRAFT_ARG_FLOAT && GRAFT_ARG_INT < GRAFT_ARG_FLOAT);
  G_STATIC_ASSERT (GRAFT_ARG_TUPLE > GRAFT_ARG_NODE && GRAFT_ARG_LIST > GRAFT_ARG_TUPLE &&
                   GRAFT_ARG_DICT > GRAFT_ARG_TUPLE && GRAFT_ARG_SLICE > GRAFT_ARG_TUPLE);
  for (guint i = 0; i < n; i++)
    {
      guint64 xh, xv, yh, yv;

      item_words (&x[i], &xh, &xv);
      item_words (&y[i], &yh, &yv);
      if (xh != yh)
        return FALSE;
      if (x[i].kind <= GRAFT_ARG_FLOAT)
        {
          if (xv != yv)
            return FALSE;
        }
      else if (x[i].kind >= GRAFT_ARG_TUPLE)
        {
          guint m = _graft_arg_count_items (&x[i]);

          if (m > 0 && !items_equal (x[i].items, y[i].items, m))
            return FALSE;
        }
      else if ((1u << x[i].kind) & TEXT_KINDS)
        {
          if (x[i].s != y[i].s && !text_equal (x[i].s, y[i].s, x[i].n))
            return FALSE;
        }
    }
  return TRUE;
}

/* Whether @a and @b, plain trees, are equal. */
static inline gboolean
tree_equal (const GraftArg *a,
            const GraftArg *b)
{
  guint64 ah, av, bh, bv;

  item_words (a, &ah, &av);
  item_words (b, &bh, &bv);
  return ah == bh && items_equal (a->items, b->items, _graft_arg_count_items (a));
}

/* Gives back the arrays of @arg, a plain tree of the pool's (its texts
 * are interned: nothing else to release). */
static void
free_plain_tree (GraftArgPool   *pool,
                 const GraftArg *arg)
{
  guint n_items = _graft_arg_count_items (arg);

  if (n_items == 0)
    return;
  for (guint i = 0; i < n_items; i++)
    if (_graft_arg_count_items (&arg->items[i]) > 0)
      free_plain_tree (pool, &arg->items[i]);
  items_free (pool, arg->items, n_items);
}

/* Copies @src's items at every level to @cursor on (room for them all),
 * into @dest; returns the cursor past them. */
static GraftArg *
freeze_into (GraftArg       *cursor,
             GraftArg       *dest,
             const GraftArg *src)
{
  guint n_items = _graft_arg_count_items (src);

  *dest = *src;
  if (n_items == 0)
    return cursor;
  dest->items = cursor;
  cursor += n_items;
  for (guint i = 0; i < n_items; i++)
    cursor = freeze_into (cursor, &dest->items[i], &src->items[i]);
  return cursor;
}

/* Adds @header (with @hash) to the table of shared trees, growing it at
 * 1/2 load. */
static void
shared_add (GraftArgPool *pool,
            GraftArg     *header,
            guint64       hash)
{
  if (2 * (pool->n_shared + 1) > pool->shared_mask + 1)
    {
      SharedSlot *old = pool->shared;
      guint       old_size = old != NULL ? pool->shared_mask + 1 : 0;
      guint       size = MAX (2 * old_size, 16u);

      pool->shared = g_new0 (SharedSlot, size);
      pool->shared_mask = size - 1;
      for (guint i = 0; i < old_size; i++)
        if (old[i].header != NULL)
          {
            guint j = (guint) old[i].hash & pool->shared_mask;

            while (pool->shared[j].header != NULL)
              j = (j + 1) & pool->shared_mask;
            pool->shared[j] = old[i];
          }
      g_free (old);
    }
  {
    guint j = (guint) hash & pool->shared_mask;

    while (pool->shared[j].header != NULL)
      j = (j + 1) & pool->shared_mask;
    pool->shared[j].hash = hash;
    pool->shared[j].header = header;
    pool->n_shared++;
  }
}

/* The shared tree equal to @arg (of @hash), or NULL. */
static GraftArg *
shared_find (GraftArgPool   *pool,
             const GraftArg *arg,
             guint64         hash)
{
  if (pool->shared == NULL)
    return NULL;
  for (guint j = (guint) hash & pool->shared_mask; pool->shared[j].header != NULL;
       j = (j + 1) & pool->shared_mask)
    if (pool->shared[j].hash == hash && tree_equal (pool->shared[j].header, arg))
      return pool->shared[j].header;
  return NULL;
}

/* A frozen copy of @arg (a plain tree of @total items, of @hash), made
 * shared; or NULL when MAX_SHARED are. */
static GraftArg *
freeze (GraftArgPool   *pool,
        const GraftArg *arg,
        guint           total,
        guint64         hash)
{
  GraftArg *header;
  gsize     size = (total + 1) * sizeof (GraftArg);

  G_STATIC_ASSERT ((MAX_SHARED_ITEMS + 1) * sizeof (GraftArg) <= FROZEN_FIRST);
  if (pool->n_shared >= MAX_SHARED)
    return NULL;
  if (pool->frozen_chunks == NULL)
    pool->frozen_chunks = g_ptr_array_new_with_free_func (g_free);
  if (pool->frozen_chunks->len == 0 ||
      pool->frozen_used + size > frozen_chunk_size (pool->frozen_chunks->len - 1))
    {
      g_ptr_array_add (pool->frozen_chunks,
                       g_malloc (frozen_chunk_size (pool->frozen_chunks->len)));
      pool->frozen_used = 0;
    }
  header = (GraftArg *) ((char *) g_ptr_array_index (pool->frozen_chunks,
                                                     pool->frozen_chunks->len - 1) +
                         pool->frozen_used);
  pool->frozen_used += size;
  freeze_into (header + 1, header, arg);
  shared_add (pool, header, hash);
  return header;
}

/**
 * _graft_arg_pool_share:
 * @arg: an argument in the pool's form
 *
 * Gives @arg, if it is a container of plain values (numbers, text,
 * `None`, and containers of them: `dim=1`, `(slice(None, None, None),
 * slice(None, 16, None))`), the items of the pool's one frozen copy of
 * it, giving back its own: ten thousand `dim=1` share one.  The shared
 * items must never be written (nothing writes a value without nodes in
 * place); releasing @arg leaves them be.
 */
void
_graft_arg_pool_share (GraftArgPool *pool,
                       GraftArg     *arg)
{
  GraftArg *header;
  guint     total = 0;
  guint64   hash;

  if (_graft_arg_count_items (arg) == 0 || !may_share (arg) || is_frozen (pool, arg->items) ||
      !tree_hash (arg, 0, &total, &hash))
    return;
  header = shared_find (pool, arg, hash);
  if (header == NULL)
    header = freeze (pool, arg, total, hash);
  if (header == NULL)
    return;
  free_plain_tree (pool, arg);
  *arg = *header;
}

/* A hash of @arg's (a container's) kind and count and of the words of
 * its first items (a text by its address; a container by its kind and
 * count alone): it only picks GraftArgPool.recent_shared's slot, whose
 * tree is then compared whole, so equal trees may hash apart (their texts
 * elsewhere) and unequal ones alike.  Not a walk: the dicts and index
 * tuples of a graph's calls differ in their first few items. */
static inline guint64
recent_key (const GraftArg *arg)
{
  guint   n_items = MIN (_graft_arg_count_items (arg), 4u);
  guint64 h = MIX ((guint64) arg->kind << 56, arg->n);

  for (guint i = 0; i < n_items; i++)
    {
      const GraftArg *item = &arg->items[i];
      guint64         head, value;

      item_words (item, &head, &value);
      h = MIX (h, head);
      if (item->kind < GRAFT_ARG_TUPLE)
        h = MIX (h, value);
    }
  return h;
}

/* pool_copy() of @src (a container with items), shared if it can be: a
 * tree met before is not copied at all.  Returns whether it was shared
 * (the copy then holds no node). */
static gboolean
copy_shared (GraftArgPool   *pool,
             GraftArg       *dest,
             const GraftArg *src)
{
  guint64       key = recent_key (src);
  RecentShared *recent = &pool->recent_shared[key >> (64 - 5)];
  GraftArg     *header;
  guint         total = 0;
  guint64       hash;

  G_STATIC_ASSERT (RECENT_SHARED == 1u << 5);
  /* A tree equal to a shared one is shared (tree_hash() takes it, and
   * shared_find() would find that one). */
  if (recent->key == key && recent->header != NULL && tree_equal (recent->header, src))
    {
      *dest = *recent->header;
      return TRUE;
    }
  if (!may_share (src) || !tree_hash (src, 0, &total, &hash))
    {
      pool_copy (pool, dest, src, FALSE);
      return FALSE;
    }
  header = shared_find (pool, src, hash);
  if (header == NULL)
    {
      pool_copy (pool, dest, src, FALSE);
      header = freeze (pool, dest, total, hash);
      if (header == NULL)
        return FALSE;
      free_plain_tree (pool, dest);
    }
  *dest = *header;
  recent->key = key;
  recent->header = header;
  return TRUE;
}

/**
 * _graft_arg_pool_copy_shared:
 * @dest: (out caller-allocates): where the copy goes, in the pool's form
 * @src: an argument in either form, borrowed
 *
 * _graft_arg_pool_copy(), shared as _graft_arg_pool_share() would share
 * the copy.
 *
 * Returns: whether the copy is a shared container's (which holds no
 *   node)
 */
gboolean
_graft_arg_pool_copy_shared (GraftArgPool   *pool,
                             GraftArg       *dest,
                             const GraftArg *src)
{
  if (_graft_arg_count_items (src) > 0)
    return copy_shared (pool, dest, src);
  pool_copy (pool, dest, src, FALSE);
  return FALSE;
}
