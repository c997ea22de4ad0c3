/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-match-text.h: matches written out, as cli.md's `graft match`
 * prints them (JSON, or one line of `pattern=graph` pairs).  The matcher
 * finds; this file only writes.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"
#include "graft-matcher.h"

G_BEGIN_DECLS

char *graft_match_to_json (const GraftMatch *match) G_GNUC_WARN_UNUSED_RESULT;
char *graft_matches_to_json (GPtrArray *matches) G_GNUC_WARN_UNUSED_RESULT;

typedef struct _GraftMatchesJsonJob GraftMatchesJsonJob;

GraftMatchesJsonJob *graft_matches_json_job_new (GPtrArray *matches) G_GNUC_WARN_UNUSED_RESULT;
gboolean             graft_matches_json_job_step (GraftMatchesJsonJob *job,
                                                  guint                n_matches);
char                *graft_matches_json_job_finish (GraftMatchesJsonJob *job)
    G_GNUC_WARN_UNUSED_RESULT;
GPtrArray *graft_matches_json_job_finish_pieces (GraftMatchesJsonJob *job,
                                                 const char          *tail)
    G_GNUC_WARN_UNUSED_RESULT;
void graft_matches_json_job_free (GraftMatchesJsonJob *job);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftMatchesJsonJob, graft_matches_json_job_free)
char *graft_match_to_text (const GraftMatch *match) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
