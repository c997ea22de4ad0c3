/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-json.h: a small deterministic JSON writer.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

void  graft_json_append_string (GString    *out,
                                const char *s,
                                gssize      len);
char *graft_json_graph (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;

typedef struct _GraftJsonJob GraftJsonJob;

GraftJsonJob *graft_json_job_new (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;
gboolean      graft_json_job_step (GraftJsonJob *job,
                                   guint         n_nodes);
char         *graft_json_job_finish (GraftJsonJob *job) G_GNUC_WARN_UNUSED_RESULT;
GPtrArray    *graft_json_job_finish_pieces (GraftJsonJob *job) G_GNUC_WARN_UNUSED_RESULT;
void          graft_json_job_free (GraftJsonJob *job);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftJsonJob, graft_json_job_free)

G_END_DECLS
