/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-document.h: what one editor window edits: a graph, a set of rules
 * (each a pattern and a replacement), their matches, the steps that apply
 * them, and the undo history.
 */
#pragma once

#include <gio/gio.h>

#include "graft-view.h"
#include "graft-autosave.h"
#include "graft-rule.h"

G_BEGIN_DECLS

#define GRAFT_TYPE_DOCUMENT (graft_document_get_type ())

G_DECLARE_FINAL_TYPE (GraftDocument, graft_document, GRAFT, DOCUMENT, GObject)

/**
 * GraftNextKind:
 * @GRAFT_NEXT_RULE: a rule's `replace_pattern` call, with matches
 * @GRAFT_NEXT_DCE: the passes are over; dead code is left to remove
 * @GRAFT_NEXT_DONE: nothing is left to do
 * @GRAFT_NEXT_BLOCKED: the next rule to run cannot (see its problem)
 */
typedef enum {
  GRAFT_NEXT_RULE,
  GRAFT_NEXT_DCE,
  GRAFT_NEXT_DONE,
  GRAFT_NEXT_BLOCKED,
} GraftNextKind;

/**
 * GraftNextStep:
 * @kind: what comes next
 * @pass: the pass it is in, from 1
 * @rule: the rule (%GRAFT_NEXT_RULE, %GRAFT_NEXT_BLOCKED), from 0
 * @n_matches: %GRAFT_NEXT_RULE: the matches its call replaces (those not
 *   skipped); %GRAFT_NEXT_DCE: the nodes dead-code removal removes
 * @match: %GRAFT_NEXT_RULE: the match Next Match replaces, its index in
 *   the rule's matches
 * @n_skipped: %GRAFT_NEXT_RULE: matches of this call skipped so far
 * @in_call: %GRAFT_NEXT_RULE: the call has begun (a match of it was
 *   replaced or skipped)
 * @bound_reached: the passes ended at the bound while the last one still
 *   replaced matches (`--fixpoint N`'s warning)
 *
 * Where the loop of passes stands (graft_document_get_next_step()).
 */
typedef struct
{
  GraftNextKind kind;
  guint         pass;
  guint         rule;
  guint         n_matches;
  guint         match;
  guint         n_skipped;
  gboolean      in_call;
  gboolean      bound_reached;
} GraftNextStep;

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
GraftScopes        *graft_document_steal_scopes (GraftDocument *self) G_GNUC_WARN_UNUSED_RESULT;
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
const char         *graft_document_get_entry (GraftDocument *self);
void                graft_document_set_entry (GraftDocument *self,
                                              const char    *entry);
const char *const  *graft_document_get_models (GraftDocument *self);
const char         *graft_document_get_title (GraftDocument *self);
const GraftDialect *graft_document_get_dialect (GraftDocument *self);
void                graft_document_set_dialect (GraftDocument      *self,
                                                const GraftDialect *dialect);
gboolean            graft_document_begin_set_dialect (GraftDocument      *self,
                                                      const GraftDialect *dialect);
gboolean            graft_document_get_switching (GraftDocument *self);
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
gboolean      graft_document_get_texts_are_default (GraftDocument *self);
const GError *graft_document_get_pattern_error (GraftDocument *self);
const GError *graft_document_get_replacement_error (GraftDocument *self);
GraftGraph   *graft_document_get_pattern_graph (GraftDocument *self);
GraftPattern *graft_document_get_pattern (GraftDocument *self);
GraftGraph   *graft_document_get_replacement_graph (GraftDocument *self);

GListModel       *graft_document_get_matches (GraftDocument *self);
guint             graft_document_get_n_matches (GraftDocument *self);
guint             graft_document_get_n_matches_shown (GraftDocument *self);
gboolean          graft_document_get_matches_pending (GraftDocument *self);
const GraftMatch *graft_document_get_match (GraftDocument *self,
                                            guint          i);
gint              graft_document_get_match_of_node (GraftDocument *self,
                                                    const char    *name);
gint              graft_document_get_match_of_graph_node (GraftDocument *self,
                                                          GraftNode     *node);
guint             graft_document_get_n_dropped (GraftDocument *self);

gboolean *graft_document_dup_layout_dropped (GraftDocument *self,
                                             GraftLayout   *layout) G_GNUC_WARN_UNUSED_RESULT;

gboolean    graft_document_replace (GraftDocument *self,
                                    guint          match,
                                    GError       **error);
gboolean    graft_document_begin_replace_all (GraftDocument *self,
                                              GError       **error);
gboolean    graft_document_get_rewriting (GraftDocument *self);
gboolean    graft_document_replace_all (GraftDocument *self,
                                        GError       **error);
guint       graft_document_delete_nodes (GraftDocument     *self,
                                         const char *const *names,
                                         GError           **error);
guint       graft_document_delete_graph_nodes (GraftDocument *self,
                                               GPtrArray     *nodes,
                                               GError       **error);
GPtrArray  *graft_document_get_warnings (GraftDocument *self);
GPtrArray  *graft_document_get_added_names (GraftDocument *self);
char       *graft_document_dup_last_change (GraftDocument *self,
                                            const char   **out_label) G_GNUC_WARN_UNUSED_RESULT;
guint       graft_document_get_last_change_serial (GraftDocument *self);
gboolean    graft_document_get_can_undo (GraftDocument *self);
gboolean    graft_document_get_can_redo (GraftDocument *self);
const char *graft_document_undo (GraftDocument *self);
const char *graft_document_redo (GraftDocument *self);
guint       graft_document_get_undo_position (GraftDocument *self);
guint       graft_document_get_redo_position (GraftDocument *self);

guint       graft_document_get_history_length (GraftDocument *self);
const char *graft_document_get_history_label (GraftDocument *self,
                                              guint          i);
gint        graft_document_get_history_match (GraftDocument *self,
                                              guint          i);
guint       graft_document_get_position (GraftDocument *self);
void        graft_document_go_to (GraftDocument *self,
                                  guint          position);
gboolean    graft_document_begin_go_to (GraftDocument *self,
                                        guint          position);
gboolean    graft_document_get_moving (GraftDocument *self);
gboolean    graft_document_get_holding (GraftDocument *self);
void        graft_document_settle (GraftDocument *self);

GListModel *graft_document_get_rules (GraftDocument *self);
guint       graft_document_get_n_rules (GraftDocument *self);
GraftRule  *graft_document_get_rule (GraftDocument *self,
                                     guint          i);
guint       graft_document_get_selected_rule (GraftDocument *self);
void        graft_document_select_rule (GraftDocument *self,
                                        guint          i);
void        graft_document_set_rule_texts (GraftDocument *self,
                                           GraftRule     *rule,
                                           const char    *pattern_text,
                                           const char    *replacement_text);
guint       graft_document_add_rule (GraftDocument *self,
                                     const char    *pattern_text,
                                     const char    *replacement_text);
gboolean    graft_document_remove_rule (GraftDocument *self,
                                        guint          i);
gboolean    graft_document_move_rule (GraftDocument *self,
                                      guint          from,
                                      guint          to);
void        graft_document_set_rule_enabled (GraftDocument *self,
                                             guint          i,
                                             gboolean       enabled);
gboolean    graft_document_rename_rule (GraftDocument *self,
                                        guint          i,
                                        const char    *pattern_name,
                                        const char    *replacement_name,
                                        GError       **error);
gboolean    graft_document_load_rules (GraftDocument *self,
                                       GFile         *file,
                                       GError       **error);
char       *graft_document_dup_rules_text (GraftDocument *self,
                                           GError       **error) G_GNUC_WARN_UNUSED_RESULT;
gboolean    graft_document_save_rules (GraftDocument *self,
                                       GFile         *file,
                                       GError       **error);
char       *graft_document_dup_pass (GraftDocument *self,
                                     GError       **error) G_GNUC_WARN_UNUSED_RESULT;
gboolean    graft_document_export_pass (GraftDocument *self,
                                        GFile         *file,
                                        GError       **error);
gboolean    graft_document_get_keeps_rules (GraftDocument *self);
gboolean    graft_document_get_is_session (GraftDocument *self);
gboolean    graft_document_save_session (GraftDocument *self,
                                         GFile         *file,
                                         GError       **error);
void        graft_document_save_session_async (GraftDocument      *self,
                                               GFile              *file,
                                               GAsyncReadyCallback callback,
                                               gpointer            user_data);
gboolean    graft_document_save_session_finish (GraftDocument *self,
                                                GAsyncResult  *result,
                                                GError       **error);

guint    graft_document_get_fixpoint (GraftDocument *self);
void     graft_document_set_fixpoint (GraftDocument *self,
                                      guint          fixpoint);
gboolean graft_document_get_dce (GraftDocument *self);
void     graft_document_set_dce (GraftDocument *self,
                                 gboolean       dce);
void     graft_document_get_next_step (GraftDocument *self,
                                       GraftNextStep *out_next);
char    *graft_document_dup_next_text (GraftDocument *self) G_GNUC_WARN_UNUSED_RESULT;
gboolean graft_document_step (GraftDocument *self,
                              GError       **error);
gboolean graft_document_step_match (GraftDocument *self,
                                    GError       **error);
gboolean graft_document_skip_match (GraftDocument *self);
gboolean graft_document_run_all (GraftDocument *self,
                                 guint         *out_n_replaced,
                                 GError       **error);
gboolean graft_document_begin_run_all (GraftDocument *self,
                                       GError       **error);
gboolean graft_document_get_running_all (GraftDocument *self);
void     graft_document_cancel_run_all (GraftDocument *self);
gboolean graft_document_get_run_progress (GraftDocument *self,
                                          guint         *pass,
                                          guint         *rule,
                                          guint         *n_rules);

char          *graft_document_dup_code (GraftDocument *self) G_GNUC_WARN_UNUSED_RESULT;
void           graft_document_code_async (GraftDocument      *self,
                                          GCancellable       *cancellable,
                                          GAsyncReadyCallback callback,
                                          gpointer            user_data);
gboolean       graft_document_code_finish (GraftDocument *self,
                                           GAsyncResult  *result,
                                           GError       **error);
gboolean       graft_document_get_code_pending (GraftDocument *self);
char          *graft_document_code_to_file_text (const char *code) G_GNUC_WARN_UNUSED_RESULT;
const char    *graft_document_get_code (GraftDocument *self);
const char    *graft_document_peek_code (GraftDocument *self);
GraftNode     *graft_document_find_code_node (GraftDocument *self,
                                              const char    *code_name);
const char    *graft_document_get_code_name (GraftDocument *self,
                                             GraftNode     *node);
const GError  *graft_document_get_code_error (GraftDocument *self);
char          *graft_document_dup_file_text (GraftDocument *self) G_GNUC_WARN_UNUSED_RESULT;
GraftRecovery *graft_document_dup_recovery (GraftDocument *self) G_GNUC_WARN_UNUSED_RESULT;
GraftRecovery *graft_document_dup_recovery_code (GraftDocument *self) G_GNUC_WARN_UNUSED_RESULT;
gboolean       graft_document_save (GraftDocument *self,
                                    GFile         *file,
                                    GError       **error);
void           graft_document_save_async (GraftDocument      *self,
                                          GFile              *file,
                                          GAsyncReadyCallback callback,
                                          gpointer            user_data);
gboolean       graft_document_save_finish (GraftDocument *self,
                                           GAsyncResult  *result,
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
