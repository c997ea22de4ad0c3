/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-match-model.h: the match list's model, whose items are made when
 * asked for and whose changes are reported as the smallest range.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define GRAFT_TYPE_MATCH_MODEL (graft_match_model_get_type ())

G_DECLARE_FINAL_TYPE (GraftMatchModel, graft_match_model, GRAFT, MATCH_MODEL, GObject)

typedef struct _GraftMatchRows GraftMatchRows;

GraftMatchModel *graft_match_model_new (void) G_GNUC_WARN_UNUSED_RESULT;
void             graft_match_model_set_rows (GraftMatchModel *self,
                                             GraftMatchRows  *rows);
guint            graft_match_model_get_n_matches (GraftMatchModel *self);
guint            graft_match_model_get_n_created (GraftMatchModel *self);
guint            graft_match_model_get_n_coming (GraftMatchModel *self);

GraftMatchRows *graft_match_rows_new (void) G_GNUC_WARN_UNUSED_RESULT;
void            graft_match_rows_add (GraftMatchRows *self,
                                      const char     *reason,
                                      const char     *nodes,
                                      const char     *anchor);
guint           graft_match_rows_get_n_rows (GraftMatchRows *self);
void            graft_match_rows_free (GraftMatchRows *self);
guint           graft_match_rows_get_n_alive (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftMatchRows, graft_match_rows_free)

G_END_DECLS
