/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-layout-runner.h: lays a document's graph out on a worker thread,
 * folded by module as asked, and hands each layout to a canvas.
 */
#pragma once

#include "graft-canvas.h"
#include "graft-document.h"

G_BEGIN_DECLS

#define GRAFT_TYPE_LAYOUT_RUNNER (graft_layout_runner_get_type ())

G_DECLARE_FINAL_TYPE (GraftLayoutRunner, graft_layout_runner, GRAFT, LAYOUT_RUNNER, GObject)

GraftLayoutRunner *graft_layout_runner_new (GraftDocument *document,
                                            GraftCanvas   *canvas)
    G_GNUC_WARN_UNUSED_RESULT;
void         graft_layout_runner_queue (GraftLayoutRunner *self,
                                        gboolean           keep_view);
gboolean     graft_layout_runner_get_pending (GraftLayoutRunner *self);
void         graft_layout_runner_stop (GraftLayoutRunner *self);
GraftScopes *graft_layout_runner_get_scopes (GraftLayoutRunner *self);
GraftScopes *graft_layout_runner_peek_scopes (GraftLayoutRunner *self);
gboolean     graft_layout_runner_is_folded (GraftLayoutRunner *self,
                                            const char        *name);
void         graft_layout_runner_fold_new_graph (GraftLayoutRunner *self);
void         graft_layout_runner_reset_folding (GraftLayoutRunner *self,
                                                gboolean           overview);
gboolean     graft_layout_runner_expand_level (GraftLayoutRunner *self);
gboolean     graft_layout_runner_expand (GraftLayoutRunner *self,
                                         const char        *scope);
void         graft_layout_runner_collapse (GraftLayoutRunner *self,
                                           const char        *scope);

void graft_layout_runner_set_direction (GraftLayoutRunner   *self,
                                        GraftLayoutDirection direction);

void                graft_layout_runner_run_in_thread (GTask *task);
GraftLayoutRequest *graft_layout_runner_new_first_request (GraftGraph  *graph,
                                                           GraftScopes *scopes,
                                                           GHashTable **out_collapsed,
                                                           guint       *out_overview_boxes)
    G_GNUC_WARN_UNUSED_RESULT;

void          _graft_layout_runner_set_scope_turn (GraftLayoutRunner *self,
                                                   gint64             usec,
                                                   guint              step_nodes);
gboolean      _graft_layout_runner_is_making_scopes (GraftLayoutRunner *self);
gboolean      _graft_layout_runner_is_making_request (GraftLayoutRunner *self);
GCancellable *_graft_layout_runner_get_cancellable (GraftLayoutRunner *self);

gint    *graft_layout_runner_steal_marks (GraftLayoutRunner *self,
                                          GraftLayout       *layout);
void     _graft_layout_runner_set_marks_step (guint n_names);
gboolean _graft_layout_runner_get_holding (GraftLayoutRunner *self);

G_END_DECLS
