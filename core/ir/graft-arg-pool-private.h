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
void          _graft_arg_pool_copy_shared (GraftArgPool   *pool,
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

G_END_DECLS
