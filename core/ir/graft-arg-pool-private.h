/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-arg-pool-private.h: where a graph keeps its nodes' arguments.
 *
 * A node's arguments are the graph's, not the heap's: item arrays are
 * carved out of the pool's blocks (and go back to a free list of their
 * size when a node lets them go), and strings (keyword names, string
 * literals, symbols, devices) are interned, so that ten thousand `dim=`
 * keywords share one `dim`.  An argument in this form must never reach
 * graft_arg_clear(): only the pool frees it (_graft_arg_pool_release(), or
 * all at once with the pool).  graft_arg_copy() of it makes an ordinary
 * heap copy.
 */
#pragma once

#include "graft-arg.h"

#include <string.h>

G_BEGIN_DECLS

typedef struct _GraftArgPool GraftArgPool;

/* graft_arg_is_container(), inline: the walks over every argument ask it
 * of every item. */
static inline gboolean
_graft_arg_is_container (const GraftArg *arg)
{
  return arg->kind == GRAFT_ARG_TUPLE || arg->kind == GRAFT_ARG_LIST ||
         arg->kind == GRAFT_ARG_DICT || arg->kind == GRAFT_ARG_SLICE;
}

/* The number of items a container stores: graft_arg_count_items(), inline
 * (copying an argument list asks it of every item). */
static inline guint
_graft_arg_count_items (const GraftArg *arg)
{
  if (arg->kind == GRAFT_ARG_DICT)
    return 2 * arg->n;
  return _graft_arg_is_container (arg) ? arg->n : 0;
}

GraftArgPool *_graft_arg_pool_new (void);
void          _graft_arg_pool_free (GraftArgPool *pool);
void          _graft_arg_pool_adopt (GraftArgPool *pool,
                                     GraftArg     *arg);
void          _graft_arg_pool_adopt_args (GraftArgPool *pool,
                                          GraftArg     *arg);
void          _graft_arg_pool_copy_args (GraftArgPool   *pool,
                                         GraftArg       *dest,
                                         const GraftArg *src);
gboolean      _graft_arg_pool_copy_shared (GraftArgPool   *pool,
                                           GraftArg       *dest,
                                           const GraftArg *src);
void          _graft_arg_pool_copy_laid_out (GraftArgPool   *pool,
                                             GraftArg       *dest,
                                             const GraftArg *src);
void          _graft_arg_pool_copy (GraftArgPool   *pool,
                                    GraftArg       *dest,
                                    const GraftArg *src);
void          _graft_arg_pool_release (GraftArgPool *pool,
                                       GraftArg     *arg);
GraftArg     *_graft_arg_pool_new_items (GraftArgPool *pool,
                                         guint         n);
void          _graft_arg_pool_free_items (GraftArgPool *pool,
                                          GraftArg     *items,
                                          guint         n);
void          _graft_arg_pool_share (GraftArgPool *pool,
                                     GraftArg     *arg);
gsize         _graft_arg_pool_get_size (GraftArgPool *pool,
                                        gsize        *out_strings);

/* Arrays up to this many items come from the pool's blocks: argument
 * lists, lists, slices and keyword dicts are short. */
#define GRAFT_ARG_POOL_MAX_POOLED 16

/* Under AddressSanitizer every array is its own allocation, so that a use
 * of a released one is caught rather than reading a reused one. */
#if defined(__SANITIZE_ADDRESS__)
#define GRAFT_ARG_POOL_ARRAYS_EACH_ALONE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GRAFT_ARG_POOL_ARRAYS_EACH_ALONE 1
#endif
#endif

/* How a pool starts (graft-arg-pool.c checks its layout against this):
 * the free lists of arrays by length, linked through their first word,
 * and the newest block arrays are carved out of. */
typedef struct
{
  GraftArg *free_lists[GRAFT_ARG_POOL_MAX_POOLED + 1];
  char     *head; /* the newest block, or NULL */
  gsize     used; /* bytes of it handed out */
  gsize     size; /* its size */
} GraftArgPoolHead;

/* _graft_arg_pool_new_items(), its usual case inline (every new node
 * takes an array): a free array of the length, or room in the newest
 * block; else the function. */
static inline GraftArg *
_graft_arg_pool_new_items_inline (GraftArgPool *pool,
                                  guint         n)
{
#ifndef GRAFT_ARG_POOL_ARRAYS_EACH_ALONE
  GraftArgPoolHead *head = (GraftArgPoolHead *) pool;
  gsize             size = (gsize) n * sizeof (GraftArg);
  GraftArg         *items;

  if (G_LIKELY (n <= GRAFT_ARG_POOL_MAX_POOLED))
    {
      items = head->free_lists[n];
      if (items != NULL)
        {
          memcpy (&head->free_lists[n], items, sizeof (GraftArg *));
          return items;
        }
      if (G_LIKELY (head->head != NULL && head->used + size <= head->size))
        {
          items = (GraftArg *) (head->head + head->used);
          head->used += size;
          return items;
        }
    }
#endif
  return _graft_arg_pool_new_items (pool, n);
}

G_END_DECLS
