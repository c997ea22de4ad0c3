/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-namespace-private.h: namespace internals shared with graft-graph.c.
 */
#pragma once

#include "graft-namespace.h"

G_BEGIN_DECLS

const char *_graft_namespace_create_name_stable (GraftNamespace *self,
                                                 const char     *candidate);
const char *_graft_namespace_create_name_bound (GraftNamespace *self,
                                                const char     *candidate,
                                                GraftNode      *node);
const char *_graft_namespace_create_name_bound_unstable (GraftNamespace *self,
                                                         const char     *candidate,
                                                         GraftNode      *node);
const char *_graft_namespace_add_verbatim (GraftNamespace *self,
                                           const char     *name);
const char *_graft_namespace_add_new (GraftNamespace *self,
                                      const char     *name);
void        _graft_namespace_reserve (GraftNamespace *self,
                                      guint           n);
const char *_graft_namespace_add_new_canonical (GraftNamespace *self,
                                                const char     *name,
                                                gboolean       *out_canonical);
const char *_graft_namespace_add_if_canonical (GraftNamespace *self,
                                               const char     *name);
void        _graft_namespace_add_back (GraftNamespace *self,
                                       const char     *stored);
void        _graft_namespace_remove (GraftNamespace *self,
                                     const char     *name);
void        _graft_namespace_bind (GraftNamespace *self,
                                   const char     *name,
                                   GraftNode      *node);
GraftNode  *_graft_namespace_lookup_bound (GraftNamespace *self,
                                           const char     *name);
guint       _graft_namespace_get_n_bound (GraftNamespace *self);
gsize       _graft_namespace_get_memory_size (GraftNamespace *self,
                                              gsize          *out_strings);

G_END_DECLS
