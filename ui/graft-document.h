/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-document.h: what one editor window edits: a graph, a pattern and a
 * replacement, their matches, and the undo history.
 */
#pragma once

#include <gio/gio.h>

#include "graft-view.h"
#include "graft-autosave.h"

G_BEGIN_DECLS

#define GRAFT_TYPE_DOCUMENT (graft_document_get_type ())

G_DECLARE_FINAL_TYPE (GraftDocument, graft_document, GRAFT, DOCUMENT, GObject)

GraftDocument      *graft_document_new (void) G_GNUC_WARN_UNUSED_RESULT;
gboolean            graft_document_load_file (GraftDocument *self,
                                              GFile         *file,
                                              GError       **error);
void                graft_document_load_file_async (GraftDocument      *self,
                                                    GFile              *file,
                                                    GCancellable       *cancellable,
                                                    GAsyncReadyCallback callback,
                                                    gpointer            user_data);
GraftRecovery      *graft_document_steal_recovery (GraftDocument *self) G_GNUC_WARN_UNUSED_RESULT;
gboolean            graft_document_load_file_finish (GraftDocument *self,
                                                     GAsyncResult  *result,
                                                     GError       **error);
gboolean            graft_document_load_text (GraftDocument *self,
                                              const char    *filename,
                                              const char    *text,
                                              GError       **error);
gboolean            graft_document_restore_text (GraftDocument *self,
                                                 const char    *filename,
                                                 const char    *text,
                                                 const char    *label,
                                                 GError       **error);
GFile              *graft_document_get_file (GraftDocument *self);
const char         *graft_document_get_title (GraftDocument *self);
const GraftDialect *graft_document_get_dialect (GraftDocument *self);
void                graft_document_set_dialect (GraftDocument      *self,
                                                const GraftDialect *dialect);
gboolean            graft_document_get_modified (GraftDocument *self);
const GError       *graft_document_get_load_error (GraftDocument *self);
GraftGraph         *graft_document_get_graph (GraftDocument *self);
guint               graft_document_get_revision (GraftDocument *self);

const char   *graft_document_get_pattern_text (GraftDocument *self);
void          graft_document_set_pattern_text (GraftDocument *self,
                                               const char    *text);
const char   *graft_document_get_replacement_text (GraftDocument *self);
void          graft_document_set_replacement_text (GraftDocument *self,
                                                   const char    *text);
const GError *graft_document_get_pattern_error (GraftDocument *self);
const GError *graft_document_get_replacement_error (GraftDocument *self);
GraftGraph   *graft_document_get_pattern_graph (GraftDocument *self);
GraftPattern *graft_document_get_pattern (GraftDocument *self);
GraftGraph   *graft_document_get_replacement_graph (GraftDocument *self);

GListModel       *graft_document_get_matches (GraftDocument *self);
guint             graft_document_get_n_matches (GraftDocument *self);
const GraftMatch *graft_document_get_match (GraftDocument *self,
                                            guint          i);
gint              graft_document_get_match_of_node (GraftDocument *self,
                                                    const char    *name);
guint             graft_document_get_n_dropped (GraftDocument *self);

gboolean *graft_document_dup_layout_dropped (GraftDocument *self,
                                             GraftLayout   *layout) G_GNUC_WARN_UNUSED_RESULT;

gboolean    graft_document_replace (GraftDocument *self,
                                    guint          match,
                                    GError       **error);
gboolean    graft_document_replace_all (GraftDocument *self,
                                        GError       **error);
guint       graft_document_delete_nodes (GraftDocument     *self,
                                         const char *const *names,
                                         GError           **error);
GPtrArray  *graft_document_get_warnings (GraftDocument *self);
GPtrArray  *graft_document_get_added_names (GraftDocument *self);
char       *graft_document_dup_last_change (GraftDocument *self,
                                            const char   **out_label) G_GNUC_WARN_UNUSED_RESULT;
guint       graft_document_get_last_change_serial (GraftDocument *self);
gboolean    graft_document_get_can_undo (GraftDocument *self);
gboolean    graft_document_get_can_redo (GraftDocument *self);
const char *graft_document_undo (GraftDocument *self);
const char *graft_document_redo (GraftDocument *self);

char          *graft_document_dup_code (GraftDocument *self) G_GNUC_WARN_UNUSED_RESULT;
const char    *graft_document_get_code (GraftDocument *self);
char          *graft_document_dup_file_text (GraftDocument *self) G_GNUC_WARN_UNUSED_RESULT;
GraftRecovery *graft_document_dup_recovery (GraftDocument *self) G_GNUC_WARN_UNUSED_RESULT;
gboolean       graft_document_save (GraftDocument *self,
                                    GFile         *file,
                                    GError       **error);
gboolean       graft_document_export (GraftDocument *self,
                                      GFile         *file,
                                      GraftFormat    format,
                                      gboolean       highlights,
                                      gboolean       dark,
                                      GError       **error);
gint          *graft_document_dup_layout_marks (GraftDocument *self,
                                                GraftLayout   *layout) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
