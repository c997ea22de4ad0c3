/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-comparison-private.h: what graft-comparison.c and
 * graft-comparison-builder.c share: the comparison's fields and the
 * visits of the history's positions.
 */
#pragma once

#include "graft-comparison.h"
#include "graft-document-private.h"

G_BEGIN_DECLS

struct _GraftComparison
{
  /* Owned */
  char               *label;
  GraftLayoutRequest *requests[2]; /* before, after */
  guint8             *changes[2];  /* per graph node of each side: a GraftChange */
  GStrv               names[4];    /* per GraftChange: the nodes it names */

  guint change;
};

/* The document's graph taken to another position of its history and held
 * there across turns (_graft_visit_travel()). */
typedef struct
{
  GraftDocument *document; /* not owned */
  guint          at;       /* the position the graph is at, or going to or from (`to`) */
  guint          to;       /* where it goes */
  gboolean       away;     /* the graph is not (all) at the document's position */
} GraftVisit;

void     _graft_visit_start (GraftVisit    *visit,
                             GraftDocument *document);
gboolean _graft_visit_travel (GraftVisit *visit,
                              guint       to,
                              gint64      deadline);
void     _graft_visit_come_back (GraftVisit *visit);

GraftGraph *_graft_comparison_graph_at (GraftDocument *self,
                                        guint          position);
GraftGraph *_graft_comparison_visit (GraftDocument *self,
                                     guint          position);
void        _graft_comparison_leave (GraftDocument *self,
                                     guint          position);
gboolean    _graft_comparison_travel (GraftDocument *self,
                                      guint         *at,
                                      guint          to,
                                      gint64         deadline);
void        _graft_comparison_set_travel_step (guint work);
guint       _graft_comparison_get_travel_step (void);
guint       _graft_comparison_builder_get_n_read (GraftComparisonBuilder *self);
void        _graft_comparison_label_as_code (GraftLayoutRequest *request,
                                             GraftGraph         *graph,
                                             GHashTable         *renamed);
GHashTable *_graft_comparison_changes_by_name (GraftGraph *before,
                                               GraftGraph *after) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
