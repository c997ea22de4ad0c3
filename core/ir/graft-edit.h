/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-edit.h: GraftEdit, the changes made to a graph between
 * graft_graph_begin_edit() and graft_graph_end_edit(), as one step that can
 * be undone and redone (a rewrite is one edit).
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

/**
 * GraftChange:
 * @GRAFT_CHANGE_KEPT: the node is on both sides of the change, with the
 *   same arguments
 * @GRAFT_CHANGE_ADDED: the change added the node
 * @GRAFT_CHANGE_REMOVED: the change erased the node
 * @GRAFT_CHANGE_REWIRED: the node is on both sides, but its arguments
 *   changed (it now uses what replaced a removed node)
 *
 * What a change did to one node (graft_edit_dup_changes()).
 */
typedef enum {
  GRAFT_CHANGE_KEPT,
  GRAFT_CHANGE_ADDED,
  GRAFT_CHANGE_REMOVED,
  GRAFT_CHANGE_REWIRED,
} GraftChange;

void        graft_graph_begin_edit (GraftGraph *self);
GraftEdit  *graft_graph_end_edit (GraftGraph *self) G_GNUC_WARN_UNUSED_RESULT;
void        graft_edit_undo (GraftEdit *edit);
void        graft_edit_redo (GraftEdit *edit);
gboolean    graft_edit_undo_step (GraftEdit *edit,
                                  guint      work);
gboolean    graft_edit_redo_step (GraftEdit *edit,
                                  guint      work);
gboolean    graft_edit_is_replaying (GraftEdit *edit);
gboolean    graft_edit_is_applied (GraftEdit *edit);
guint       graft_edit_get_n_operations (GraftEdit *edit);
GHashTable *graft_edit_dup_changes (GraftEdit *edit) G_GNUC_WARN_UNUSED_RESULT;
guint       graft_edit_add_changes (GraftEdit  *edit,
                                    GHashTable *changes,
                                    guint       from,
                                    guint       n);
void        graft_edit_free (GraftEdit *edit);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftEdit, graft_edit_free)

G_END_DECLS
