/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-listing.h: the graph listing that `print(gm.graph)` writes, out and
 * back in.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"
#include "graft-dialect.h"

G_BEGIN_DECLS

char       *graft_listing_print (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;
GString    *graft_listing_to_gstring (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;
GraftGraph *graft_listing_parse (GraftSource        *source,
                                 const GraftDialect *dialect,
                                 GError            **error) G_GNUC_WARN_UNUSED_RESULT;
gboolean    graft_listing_detect (GraftSource *source);

typedef struct _GraftListingJob GraftListingJob;

GraftListingJob *graft_listing_job_new (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;
gboolean         graft_listing_job_step (GraftListingJob *job,
                                         guint            n_nodes);
GString         *graft_listing_job_finish (GraftListingJob *job) G_GNUC_WARN_UNUSED_RESULT;
GPtrArray       *graft_listing_job_finish_pieces (GraftListingJob *job) G_GNUC_WARN_UNUSED_RESULT;
void             graft_listing_job_free (GraftListingJob *job);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftListingJob, graft_listing_job_free)

G_END_DECLS
