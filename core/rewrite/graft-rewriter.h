/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-rewriter.h: `replace_pattern` with torch.fx 1.13.1's semantics.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"
#include "graft-matcher.h"

G_BEGIN_DECLS

typedef struct _GraftRewrite GraftRewrite;

GraftRewrite *graft_rewriter_apply (GraftGraph   *graph,
                                    GraftPattern *pattern,
                                    GraftGraph   *replacement,
                                    GPtrArray    *matches,
                                    GError      **error) G_GNUC_WARN_UNUSED_RESULT;
GraftRewrite *graft_replace_pattern (GraftGraph              *graph,
                                     GraftPattern            *pattern,
                                     GraftGraph              *replacement,
                                     const GraftMatchOptions *options,
                                     GError                 **error) G_GNUC_WARN_UNUSED_RESULT;
guint         graft_rewrite_get_n_replaced (GraftRewrite *self);
GPtrArray    *graft_rewrite_get_added_nodes (GraftRewrite *self);
GPtrArray    *graft_rewrite_get_warnings (GraftRewrite *self);
GraftEdit    *graft_rewrite_get_edit (GraftRewrite *self);
GraftEdit    *graft_rewrite_steal_edit (GraftRewrite *self) G_GNUC_WARN_UNUSED_RESULT;
void          graft_rewrite_free (GraftRewrite *self);
gboolean      graft_rewriter_check_node (GraftNode *node,
                                         GError   **error);

typedef struct _GraftRewriteJob GraftRewriteJob;

GraftRewriteJob *graft_rewrite_job_new (GraftGraph   *graph,
                                        GraftPattern *pattern,
                                        GraftGraph   *replacement,
                                        GPtrArray    *matches) G_GNUC_WARN_UNUSED_RESULT;
gboolean         graft_rewrite_job_step (GraftRewriteJob *self,
                                         guint            work);
GraftRewrite    *graft_rewrite_job_finish (GraftRewriteJob *self,
                                           GError         **error) G_GNUC_WARN_UNUSED_RESULT;
void             graft_rewrite_job_set_checked (GraftRewriteJob *self,
                                                gboolean         checked);
guint            graft_rewrite_job_get_n_replaced (GraftRewriteJob *self);
void             graft_rewrite_job_free (GraftRewriteJob *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftRewrite, graft_rewrite_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftRewriteJob, graft_rewrite_job_free)

G_END_DECLS
