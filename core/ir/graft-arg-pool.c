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

/* Arrays up to this many items come from blocks: argument lists, lists,
 * slices and keyword dicts are short. */
#define MAX_POOLED 16

/* Under AddressSanitizer every array is its own allocation, so that a use
 * of a released one is caught rather than reading a reused one. */
#if defined(__SANITIZE_ADDRESS__)
#define ARRAYS_EACH_ALONE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARRAYS_EACH_ALONE 1
#endif
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
};

/* Whether @arg owns memory beyond its struct: a string, a complex number
 * or a container's items. */
static inline gboolean
owns_memory (const GraftArg *arg)
{
  switch (arg->kind)
    {
    case GRAFT_ARG_COMPLEX:
    case GRAFT_ARG_STR:
    case GRAFT_ARG_SYMBOL:
    case GRAFT_ARG_DEVICE:
      return TRUE;
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_LIST:
    case GRAFT_ARG_DICT:
    case GRAFT_ARG_SLICE:
      return _graft_arg_count_items (arg) > 0;
    case GRAFT_ARG_NONE:
    case GRAFT_ARG_ELLIPSIS:
    case GRAFT_ARG_BOOL:
    case GRAFT_ARG_INT:
    case GRAFT_ARG_FLOAT:
    case GRAFT_ARG_NODE:
    default:
      return FALSE;
    }
}

/* A new block for blocks_alloc() that has room for @size bytes. */
static void
blocks_grow (Blocks *blocks,
             gsize   size)
{
  /* Blocks grow with the graph, up to 256 KiB (or what one needs). */
  gsize block_size = MAX (MIN (blocks->size * 2, 256u << 10), 4096u);
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
  _graft_name_table_clear (&pool->strings);
  g_free (pool);
}

/* An array of @n items (n > 0), uninitialised. */
static GraftArg *
items_alloc (GraftArgPool *pool,
             guint         n)
{
  Alone *alone;

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
  alone = g_malloc (sizeof (Alone) + n * sizeof (GraftArg));
  alone->prev = &pool->alone;
  alone->next = pool->alone.next;
  alone->next->prev = alone;
  pool->alone.next = alone;
  pool->alone_bytes += sizeof (Alone) + n * sizeof (GraftArg);
  return (GraftArg *) (alone + 1);
}

/* Lets go of an array from items_alloc (@items, @n items). */
static void
items_free (GraftArgPool *pool,
            GraftArg     *items,
            guint         n)
{
  Alone *alone;

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
void
_graft_arg_pool_adopt (GraftArgPool *pool,
                       GraftArg     *arg)
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
          _graft_arg_pool_adopt (pool, &arg->items[i]);
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
      /* Most items (nodes, numbers) are their struct: copied at once. */
      dest->items = items_alloc (pool, n_items);
      memcpy (dest->items, src->items, n_items * sizeof (GraftArg));
      for (guint i = 0; i < n_items; i++)
        if (owns_memory (&src->items[i]))
          _graft_arg_pool_copy (pool, &dest->items[i], &src->items[i]);
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
      if (n_items == 0)
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
  return sizeof (GraftArgPool) + pool->items.total + pool->alone_bytes + strings;
}
