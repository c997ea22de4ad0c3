/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-scope.h: the module scopes of a graph's nodes (`layer1.0`), for
 * folding a large graph into one box per module, from targets or from a
 * program's module frames; and the order drawings list nodes in.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

typedef struct _GraftScopes        GraftScopes;
typedef struct _GraftScopesBuilder GraftScopesBuilder;

guint *graft_draw_order_new (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;

GraftScopesBuilder *graft_draw_order_builder_new (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;
G_GNUC_WARN_UNUSED_RESULT
guint *graft_draw_order_builder_finish (GraftScopesBuilder *self);

GraftScopes *graft_scopes_new (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;

GraftScopesBuilder *graft_scopes_builder_new (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;
gboolean            graft_scopes_builder_step (GraftScopesBuilder *self,
                                               guint               max_nodes);
GraftScopes        *graft_scopes_builder_finish (GraftScopesBuilder *self)
    G_GNUC_WARN_UNUSED_RESULT;
void graft_scopes_builder_free (GraftScopesBuilder *self);

void         graft_scopes_free (GraftScopes *self);
guint        graft_scopes_get_n_nodes (GraftScopes *self);
const char  *graft_scopes_get_node_scope (GraftScopes *self,
                                          guint        node_index);
const guint *graft_scopes_get_order (GraftScopes *self);
gboolean     graft_scopes_get_from_frames (GraftScopes *self);
const char  *graft_scopes_get_type_name (GraftScopes *self,
                                         const char  *scope);
guint        graft_scopes_count_nodes (GraftScopes *self,
                                       const char  *scope);
char       **graft_scopes_dup_children (GraftScopes *self,
                                        const char  *scope) G_GNUC_WARN_UNUSED_RESULT;
const char  *graft_scopes_find_folder (GraftScopes *self,
                                       guint        node_index,
                                       GHashTable  *collapsed);
const char  *graft_scopes_get_innermost (GraftScopes *self,
                                         guint        node_index);
guint        graft_scopes_get_depth (GraftScopes *self,
                                     const char  *scope);
guint        graft_scopes_get_n_depths (GraftScopes *self);
const char  *graft_scopes_get_outer (GraftScopes *self,
                                     const char  *scope);
GHashTable  *graft_scopes_new_folded_at (GraftScopes *self,
                                         guint        depth) G_GNUC_WARN_UNUSED_RESULT;
guint        graft_scopes_count_boxes_at (GraftScopes *self,
                                          guint        depth);
GHashTable  *graft_scopes_new_overview (GraftScopes *self,
                                        guint        max_boxes) G_GNUC_WARN_UNUSED_RESULT;
guint        graft_scopes_get_top_depth (GraftScopes *self);
void         graft_scopes_expand_level (GraftScopes *self,
                                        GHashTable  *collapsed);
void         graft_scopes_expand (GraftScopes *self,
                                  GHashTable  *collapsed,
                                  const char  *scope);
void         graft_scopes_collapse (GHashTable *collapsed,
                                    const char *scope);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftScopes, graft_scopes_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftScopesBuilder, graft_scopes_builder_free)

G_END_DECLS
