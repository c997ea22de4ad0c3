/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-document-private.h: the document's instance struct and history,
 * shared by the document's own files: graft-document.c (graph, matches,
 * history), graft-document-loader.c (reading a file or a text into it),
 * graft-document-rules.c (the rule set and its steps) and graft-session.c
 * (saving and reopening it all).  No other file includes it.
 */
#pragma once

#include "graft-document.h"
#include "graft-learner.h"
#include "graft-match-model.h"

G_BEGIN_DECLS

/* What a search for the chosen rule's matches found on the graph, with the
 * list's rows and the lookups (graft-document.c): made by a search in
 * steps over the turns of the main loop, or by the loading worker, and made
 * the document's in a turn of its own. */
typedef struct _FoundMatches FoundMatches;

FoundMatches *_graft_found_matches_new (GraftPattern *pattern,
                                        GraftGraph   *graph);
void          _graft_found_matches_free (FoundMatches *found);
void          _graft_document_set_match_step (guint work);

/**
 * GraftStepKind:
 * @GRAFT_STEP_RULE: a rule applied: `replace_pattern`, one match of it,
 *   or every match but those skipped
 * @GRAFT_STEP_DCE: dead code removed
 * @GRAFT_STEP_DELETE: nodes deleted by hand
 * @GRAFT_STEP_RESTORE: unsaved work restored (the graph read from a text)
 * @GRAFT_STEP_TORCH: a switch of dialect
 * @GRAFT_STEP_RULES: a change of the rule set (the graph stays)
 *
 * What a change of the history did, described so that it can be done again
 * on the graph it started from (graft-session.c replays them).
 */
typedef enum {
  GRAFT_STEP_RULE,
  GRAFT_STEP_DCE,
  GRAFT_STEP_DELETE,
  GRAFT_STEP_RESTORE,
  GRAFT_STEP_TORCH,
  GRAFT_STEP_RULES,
} GraftStepKind;

/* The rule set before and after a GRAFT_STEP_RULES change (see
 * graft-document-rules.c). */
typedef struct _GraftRulesChange GraftRulesChange;

void _graft_rules_change_free (GraftRulesChange *change);

/* One change of the history: an edit of the graph, or (edit NULL) the
 * replacement of the whole graph by another, as restoring unsaved work
 * and switching the dialect do; @graph, @source and @load_error then hold
 * the graph that is not installed, the text it was read from and why
 * reading failed (those before while the change is applied, those after
 * while it is undone), and the changes on either side keep referring to
 * their own graph.  A switch of dialect is no change of what a save
 * writes: it does not make the document modified.  A change of the rule
 * set (@rules) has neither edit nor graph.
 *
 * The step fields say what the change did.  A rule's step keeps the texts
 * it was applied with (the rule may change later), which matches it
 * replaced (@match, or all but @except) and, when it is a step of the
 * loop of passes (@looped: Next, Next Match, Run All), where in the loop
 * it stands: @pass and @rule, what the pass had replaced with it
 * (@pass_replaced), whether the rule's call of that pass is over
 * (@call_done) and the matches skipped in it so far (@skipped, keys as
 * match_key() makes them).  @joined: a later step of one Run All, undone
 * and redone by the window with the steps before it
 * (graft_document_get_undo_position()). */
typedef struct
{
  /* Owned */
  GraftEdit        *edit;
  GraftGraph       *graph;
  GraftSource      *source;
  GError           *load_error;
  GraftRulesChange *rules;
  char             *label;
  char             *before; /* the graph's code before the change, or NULL if not known */
  guint             serial; /* names this change for as long as the document lives */
  gboolean          switch_dialect;
  /* The graph before the change, after it, was known to hold its code
   * (graft_codegen_check_module()): undone or redone to it, the document
   * keeps that answer instead of checking the graph again. */
  gboolean holds_before;
  gboolean holds_after;

  /* What the change did */
  GraftStepKind kind;
  char         *pattern_text;
  char         *replacement_text;
  char         *pattern_name;
  char         *replacement_name;
  gint          match;      /* -1: every match but @except */
  GArray       *except;     /* guint, or NULL */
  guint         n_replaced; /* matches replaced, or nodes removed */
  gboolean      looped;
  guint         pass; /* from 1 */
  guint         rule; /* from 0 */
  guint         pass_replaced;
  gboolean      call_done;
  GStrv         skipped;
  gboolean      joined;
  GStrv         names;              /* GRAFT_STEP_DELETE */
  GArray       *ranks;              /* guint per name: which node of it, by rank in graph
                                     * order; NULL: every node of each name */
  char               *restore_name; /* GRAFT_STEP_RESTORE */
  char               *restore_text;
  const GraftDialect *torch; /* GRAFT_STEP_TORCH: the dialect switched to */
} HistoryEntry;

/* A document's code copied by steps, a piece a step (graft-document-code.c); zero-filled
 * when empty. */
typedef struct
{
  GPtrArray  *pieces; /* GBytes, owned, or NULL */
  gsize       len;    /* bytes copied */
  const char *from;   /* Borrowed: the code copied */
} GraftCodeCopy;

typedef struct _GraftRewriting GraftRewriting;
typedef struct _GraftRunning   GraftRunning;
typedef struct _GraftSwitching GraftSwitching;

struct _GraftDocument
{
  GObject parent_instance;

  const GraftDialect *dialect;      /* static: the torch the document speaks */
  const GraftDialect *root_dialect; /* static: the torch the file was read in */

  /* Owned */
  GFile         *file;
  char          *title;
  GError        *load_error;
  GraftGraph    *graph;
  GraftSource   *source;         /* what the graph was read from (load, restore, switch), or NULL */
  GraftSource   *root_source;    /* what the file read was, before any change */
  GListStore    *rules;          /* GraftRule, at least one */
  GPtrArray     *matches;        /* GraftMatch, owned: the selected rule's */
  GPtrArray     *dropped;        /* GraftMatch, owned: candidates torch's rules drop */
  GHashTable    *dropped_of;     /* node name -> dropped candidate + 1 */
  GHashTable    *match_of;       /* node name (the graph's string) -> match + 1 */
  guint          matches_serial; /* counts changes of @match_of */
  GPtrArray     *history;        /* HistoryEntry, owned */
  GPtrArray     *warnings;       /* char *, of the last rewrite */
  GPtrArray     *added_names;    /* char *, nodes the last rewrite added */
  GPtrArray     *pending_skips;  /* char *: matches skipped since the last change */
  guint          pending_pass;   /* the pass and rule they were skipped in */
  guint          pending_rule;
  guint          selected;     /* the rule the editors show */
  guint          fixpoint;     /* 0: one pass; N: passes until nothing changes, at most N */
  gboolean       dce;          /* remove dead code after the last pass */
  gboolean       is_session;   /* read from or saved as a session (graft-session.c) */
  guint          position;     /* entries of history that are applied */
  gint           saved;        /* the position the file was saved at, -1 if lost */
  guint          revision;     /* counts changes of the graph */
  guint          last_serial;  /* of the newest history entry made */
  guint          text_changes; /* counts edits of the rules' texts and options */
  guint          saved_text_changes;
  char          *rules_name; /* the rules file read or saved last, or NULL */
  char          *code;       /* the graph's code, or NULL until asked for */
  GraftRecovery *recovery;   /* what the last load found of an autosave, or NULL */
  char          *read_etag;  /* the file's etag as the last load began reading it, or NULL */

  /* The code's names of the nodes not found by them (graft_codegen_job_dup_renamed(): owned,
   * NULL when there are none, as in a graph without shared names) and each such node's code
   * name (owned, its keys borrowed), of the graph and revision they were read at
   * (graft-document-code.c).  A change for a moment at one revision frees no node. */
  GHashTable *code_renamed;
  GHashTable *code_names;
  GraftGraph *code_renamed_graph; /* compared only */
  guint       code_renamed_revision;

  /* Why torch's module of the graph does not hold its code (graft_codegen_check_module();
   * owned, NULL if it does), of the revision code_learner knows; learnt in turns
   * (graft-document-code.c) with a GraftCodegenCheck as its walk. */
  GError      *code_error;
  GraftLearner code_learner;
  gboolean     code_holds_next;  /* a rewrite checked the graph it records next: it holds */
  guint        pushed_unchanged; /* changes of the graph recorded since the revision changed */
  guint        n_code_checks;    /* graft_codegen_check_module() of the whole graph (tests) */

  /* The matches as the list shows them (owned), and finding them again after a change: deferred
   * work (graft-turns.c), a step per turn, which whatever asks for them first finishes at once
   * (_graft_document_ensure_matches()). */
  GraftMatchModel  *match_items;
  guint             match_job;      /* the job, or 0 */
  gboolean          matches_stale;  /* the chosen rule's matches are to be found again */
  FoundMatches     *found;          /* Owned: found or being found, not shown yet, or NULL */
  GraftMatchSearch *search;         /* Owned: the search by steps for found, or NULL */
  GraftPattern     *search_pattern; /* Owned: its pattern, or NULL */
  GraftMatchSearch *count_search;   /* Owned: the count by steps of rule count_at, or NULL */
  GraftPattern     *count_pattern;  /* Owned: its pattern, or NULL */
  guint             count_at;       /* the rule the count of the others is at */
  gboolean          recount_due;    /* the other rules are to be counted again */
  gboolean          next_due;       /* the next step is to be worked out again */

  /* The code made in steps (graft-document-code.c): the job of graft-turns.c or 0, the
   * half-made code (owned) and the revision it is of, the tasks that wait (owned, or NULL). */
  guint                    code_job;
  struct _GraftCodegenJob *codegen;
  guint                    codegen_revision;
  /* Counts _graft_document_code_drop(): what walks the graph by steps begins again when it
   * moved, even at the same revision (the graph changed for a moment, or is elsewhere). */
  guint code_drops;
  /* The export of a save as code under way (graft_document_save_async()), once its code
   * check is known, or NULL; Borrowed: for tests. */
  gpointer saving_export;
  /* Whether every node of the graph passes the rewriter's own check (graft_rewriter_check_node()),
   * of the revision rewrite_learner knows: its next rewrite then checks only what it adds.  A
   * rewrite or a deletion tells the revision it records next (rewrite_ok_next); else a
   * program's is learnt in turns, a walk of the nodes. */
  gboolean     rewrite_ok;
  gboolean     rewrite_ok_next;
  GraftLearner rewrite_learner;
  GPtrArray   *code_waiting;

  /* The graph's scopes, made while its file was read, and the revision they are of (owned,
   * or NULL): graft_document_steal_scopes() hands them to the layout runner. */
  GraftScopes *loaded_scopes;
  guint        loaded_scopes_revision;
  /* The request of the graph's first layout, made of those scopes while its file was read, the
   * scopes it folds and the overview they were chosen as (owned, or NULL), with the revision they
   * are of: _graft_document_steal_loaded_request() hands them to the layout runner. */
  GraftLayoutRequest *loaded_request;
  GHashTable         *loaded_collapsed;
  guint               loaded_overview_boxes;
  guint               loaded_request_revision;

  /* Replace All by steps: the job of graft-turns.c that runs alone, or 0, and the rewrite
   * under way (owned, or NULL). */
  guint           rewrite_job;
  GraftRewriting *rewriting;
  /* Run All by steps (graft-document-steps.c): the job of graft-turns.c that runs alone, or
   * 0, and the run under way (owned, or NULL). */
  guint         run_job;
  GraftRunning *running;
  /* A switch of torch whose graph is read on a worker
   * (graft_document_begin_set_dialect()), or NULL: shared with the worker. */
  GraftSwitching *switching;

  /* A move in the history by steps (graft_document_begin_go_to()): the job of graft-turns.c
   * that runs alone, or 0; the position it goes to and the one its edits are replayed to so
   * far (self->position stays the one it left until its end, with all the document shows);
   * whether only its end is left. */
  guint    move_job;
  gboolean moving;
  guint    move_to;
  guint    move_at;
  gboolean move_replayed;

  /* A comparison that holds the graph at another position of the history across turns
   * (graft-comparison-builder.c), or NULL: _graft_document_settle() calls away_back (away_data)
   * first, which brings the graph back to self->position at once. */
  void (*away_back) (gpointer data);
  gpointer away_data;

  char *entry;  /* the class the file was traced from (`--entry`), NULL for the first */
  GStrv models; /* the file's classes that define forward, which the entry chooses between */
};

const char *_graft_document_get_read_etag (GraftDocument *self);
void        _graft_document_set_loaded_file (GraftDocument *self,
                                             GFile         *file,
                                             GraftRecovery *recovery);
void        _graft_document_set_models (GraftDocument *self,
                                        char          *entry,
                                        GStrv          models);
void        _graft_document_set_loaded_scopes (GraftDocument *self,
                                               GraftScopes   *scopes);
void        _graft_document_set_loaded_matches (GraftDocument *self,
                                                const char    *pattern_text,
                                                const char    *pattern_entry,
                                                FoundMatches  *found);
char       *_graft_document_dup_default_texts (GraftInputKind kind,
                                               GraftGraph    *graph,
                                               char         **out_replacement);
void        _graft_document_load_graph (GraftDocument *self,
                                        GraftSource   *source,
                                        GraftGraph    *graph,
                                        GError        *error,
                                        char          *code,
                                        char          *pattern,
                                        char          *replacement);

/* The first layout of a large file, requested while it was read. */
void                _graft_document_set_loaded_request (GraftDocument      *self,
                                                        GraftLayoutRequest *request,
                                                        GHashTable         *collapsed,
                                                        guint               overview_boxes);
GraftLayoutRequest *_graft_document_steal_loaded_request (GraftDocument *self,
                                                          guint          overview_boxes,
                                                          GHashTable   **out_collapsed);
gboolean            _graft_document_get_marks_need_names (GraftDocument *self);

/* How long a turn of the main loop rewrites (Replace All, Run All by steps), in the main
 * thread's processor time: with GTK's frame beside it a turn stays under 16 ms, and a loaded
 * machine, whose wall clock runs on while other processes have the cores, does not make the
 * rewrite take more turns.  The jobs are stepped by _GRAFT_DOCUMENT_STEP_WORK (about as many
 * nodes added or erased, a fraction of a millisecond) between looks at the clock. */
#define _GRAFT_DOCUMENT_STEP_USEC 8000
#define _GRAFT_DOCUMENT_STEP_WORK 1024

gint64 _graft_document_thread_time (void);
void   _graft_document_emit_run_progress (GraftDocument *self);
void   _graft_document_emit_ran_all (GraftDocument *self,
                                     guint          n_replaced,
                                     const GError  *error);

/* graft-document-steps.c */
void _graft_document_ran_all (GraftDocument *self);
void _graft_document_running_drop (GraftDocument *self);
void _graft_document_set_run_step (guint work);

/* graft-document-code.c */
const GError *_graft_document_code_error (GraftDocument *self);
void          _graft_document_set_code_error (GraftDocument *self,
                                              GError        *error);
char         *_graft_document_make_code (GraftDocument *self) G_GNUC_WARN_UNUSED_RESULT;
gboolean      _graft_document_check_rewritten (GraftDocument *self,
                                               GPtrArray     *added,
                                               GError       **error);
void          _graft_document_learners_init (GraftDocument *self);
void          _graft_document_learners_told (GraftDocument *self);
void          _graft_document_learners_due (GraftDocument *self);
void          _graft_document_learners_forget (GraftDocument *self);
gboolean      _graft_document_learn_code_holds (GraftDocument *self,
                                                gboolean       at_once);
gboolean      _graft_document_code_learning (GraftDocument *self);
void          _graft_document_set_code_step (guint n_nodes);
guint         _graft_document_get_n_code_checks (GraftDocument *self);
gboolean      _graft_document_rewrite_ok (GraftDocument *self);
guint         _graft_document_get_n_rewrite_walks (GraftDocument *self);
gboolean      _graft_document_code_holds (GraftDocument *self);
const char   *_graft_document_peek_code (GraftDocument *self);
void          _graft_document_code_drop (GraftDocument *self);
void          _graft_document_code_names_clear (GraftDocument *self);
GHashTable   *_graft_document_get_code_names (GraftDocument *self);
void          _graft_document_code_finish_now (GraftDocument *self);
void          _graft_document_code_begin (GraftDocument *self);
void          _graft_code_copy_clear (GraftCodeCopy *copy);
gboolean      _graft_code_copy_step (GraftCodeCopy *copy,
                                     const char    *code,
                                     gsize          chunk);
char         *_graft_code_copy_join (GraftCodeCopy *copy) G_GNUC_WARN_UNUSED_RESULT;
void          _graft_document_code_dispose (GraftDocument *self);

/* graft-document.c */
gpointer       _graft_document_get_saving_export (GraftDocument *self);
void           _graft_document_set_switch_copy_step (gsize n_bytes);
GraftRecovery *_graft_document_dup_recovery_take_code (GraftDocument *self,
                                                       char          *code);
GraftRule     *_graft_document_get_selected (GraftDocument *self);
void           _graft_document_trace_rule (GraftDocument *self,
                                           GraftRule     *rule,
                                           const char    *pattern_text,
                                           const char    *replacement_text);
void           _graft_document_rules_changed (GraftDocument *self);
void           _graft_document_recount (GraftDocument *self);
void           _graft_document_ensure_matches (GraftDocument *self);
void           _graft_document_settle (GraftDocument *self);
gboolean       _graft_document_replay (GraftDocument *self,
                                       guint         *at,
                                       guint          to,
                                       guint          work,
                                       gboolean       each,
                                       gint64 (*clock) (void),
                                       gint64 deadline);
void           _graft_document_set_rewrite_step (guint work);
void           _graft_document_set_move_step (guint work);
GPtrArray     *_graft_document_get_rule_matches (GraftDocument *self,
                                                 GraftRule     *rule);
HistoryEntry  *_graft_document_new_entry (GraftStepKind kind);
guint          _graft_document_delete_ranked (GraftDocument     *self,
                                              const char *const *names,
                                              GArray            *ranks,
                                              GError           **error);
void           _graft_document_free_entry (HistoryEntry *entry);
void           _graft_document_push (GraftDocument *self,
                                     HistoryEntry  *entry,
                                     const char    *label,
                                     char          *before,
                                     gboolean       quiet);
void           _graft_document_changed (GraftDocument *self);
void           _graft_document_history_changed (GraftDocument *self);
void           _graft_document_notify_modified (GraftDocument *self);
gboolean       _graft_document_apply_rewrite (GraftDocument *self,
                                              GraftPattern  *pattern,
                                              GraftGraph    *replacement,
                                              GPtrArray     *matches,
                                              HistoryEntry  *entry,
                                              const char    *label,
                                              GError       **error);
void           _graft_document_emit_rule_texts_changed (GraftDocument *self,
                                                        GraftRule     *rule);
void           _graft_document_set_rules_snapshot (GraftDocument *self,
                                                   GPtrArray     *rules,
                                                   GArray        *enabled,
                                                   guint          selected);

void _graft_document_speak (GraftDocument      *self,
                            const GraftDialect *dialect);
void _graft_document_install_rules (GraftDocument *self,
                                    GPtrArray     *rules,
                                    guint          selected,
                                    guint          fixpoint,
                                    gboolean       dce);
void _graft_document_reset_rules (GraftDocument *self);
void _graft_document_mark_saved (GraftDocument *self,
                                 gboolean       is_session);

/* graft-document-rules.c */
gboolean _graft_document_replay_dce (GraftDocument *self,
                                     gboolean       looped,
                                     guint          pass,
                                     GError       **error);
void     _graft_rules_change_apply (GraftDocument    *self,
                                    GraftRulesChange *change,
                                    gboolean          redo);
char    *_graft_match_key (const GraftMatch *match) G_GNUC_WARN_UNUSED_RESULT;
gboolean _graft_document_replay_rule (GraftDocument *self,
                                      HistoryEntry  *entry,
                                      const char    *label,
                                      GError       **error);
void     _graft_document_update_next (GraftDocument *self);

/* A layout's match marks made by steps (graft_document_dup_layout_marks()'s,
 * for the layout runner). */
typedef struct _GraftLayoutMarks GraftLayoutMarks;

GraftLayoutMarks *_graft_document_layout_marks_new (GraftDocument *self,
                                                    GraftLayout   *layout);
gboolean          _graft_document_layout_marks_step (GraftLayoutMarks *marks,
                                                     guint             n_names);
gboolean          _graft_document_layout_marks_get_waiting (GraftLayoutMarks *marks);
gint             *_graft_document_layout_marks_finish (GraftLayoutMarks *marks);
void              _graft_document_layout_marks_free (GraftLayoutMarks *marks);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftLayoutMarks, _graft_document_layout_marks_free)

G_END_DECLS
