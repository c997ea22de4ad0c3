/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-window-private.h: the window's instance struct, shared by
 * graft-window.c (widgets, document, autosave) and graft-window-actions.c
 * (the win.* actions).  Laying out and folding belong to the
 * GraftLayoutRunner, the search to the GraftSearch, the Code tab to the
 * GraftCodeSync, undoing a replacement of the editors' texts to the
 * GraftTextUndo.
 */
#pragma once

#include "graft-window.h"
#include "graft-code-sync.h"
#include "graft-export-bar.h"
#include "graft-layout-runner.h"
#include "graft-pattern-editor.h"
#include "graft-properties.h"
#include "graft-rules-panel.h"
#include "graft-search.h"
#include "graft-text-undo.h"

G_BEGIN_DECLS

struct _GraftWindow
{
  AdwApplicationWindow parent_instance;

  /* Template widgets */
  AdwToastOverlay    *toasts;
  AdwWindowTitle     *window_title;
  GtkSpinner         *spinner;
  GtkRevealer        *warning_revealer;
  GtkLabel           *warning_label;
  AdwFlap            *side_flap;
  GtkWidget          *side_handle;
  GtkWidget          *sidebar;
  GtkStack           *content_stack;
  AdwStatusPage      *error_page;
  GraftCanvas        *canvas;
  GtkWidget          *overview;
  GtkButton          *zoom_label;
  GtkWidget          *zoom_box;
  GtkPaned           *side_paned;       /* the page above, the matches below */
  gboolean            side_split_taken; /* while the Rules page sets the split */
  int                 side_split_saved; /* the split it took over, -1: GtkPaned's share */
  guint               side_split_tick;  /* a fit asked for the next frame */
  int                 side_split_rules; /* where the user put it on the Rules page, -1: nowhere */
  gboolean            side_split_held;  /* the pointer is down on the split's handle */
  gboolean            side_split_own;   /* the window is moving the split */
  int                 side_split_keyed; /* side_split_rules before Ctrl+F8, for Escape */
  GtkStack           *editor_stack;
  GraftPatternEditor *pattern_editor;
  GraftPatternEditor *replacement_editor;
  GtkLabel           *match_count;
  GtkListView        *match_list;
  GtkWidget          *match_box; /* the list and its header, under the side panel's page */
  GMenu              *recent_section;
  GtkSearchBar       *search_bar;
  GtkSearchEntry     *search_entry;
  GtkLabel           *search_count;
  GtkTextView        *code_view;
  GtkLabel           *code_note;
  GtkWidget          *restore_button;
  GtkProgressBar     *layout_progress;
  AdwFlap            *properties_flap;
  GraftProperties    *properties;
  GraftRulesPanel    *rules_panel;
  GtkButton          *side_open_button;
  GtkButton          *side_save_button;
  GtkStack           *side_file_stack;
  GtkWidget          *replace_all_button;
  GtkWidget          *replace_button;

  /* Owned */
  GraftDocument      *document;
  GtkSingleSelection *match_selection;
  guint               match_focus; /* the matches list's focused row, while its rows change */
  GraftLayoutRunner  *layout_runner;
  GraftSearch        *search;
  GraftCodeSync      *code_sync;
  GSettings          *settings;    /* NULL when the schema is not installed */
  gboolean            loading;     /* a file is being read on a worker */
  guint               autosave_id; /* pending autosave */
  /* The marks of the layout on screen made again by steps after the matches changed
   * (graft-turns.c job, or 0), and those marks, begun (owned, or NULL). */
  guint                     marks_job;
  struct _GraftLayoutMarks *marks;
  GCancellable             *autosave_code; /* an autosave waiting for the graph's code, or NULL */
  /* The autosave copying the graph's code a few megabytes a turn (graft-turns.c job, or 0):
   * the document's code at the revision it is of, how long it is (G_MAXSIZE until its end is
   * found), how much is copied into the copy (owned). */
  guint          autosave_copy;
  const char    *autosave_from;
  guint          autosave_revision;
  gsize          autosave_length;
  gsize          autosave_done;
  char          *autosave_text;
  GraftRecovery *recovery;  /* an autosave offered for restoring, or NULL */
  GraftTextUndo *text_undo; /* undoes the last replacement of the editors' texts */

  /* Of two nodes of one name, the one the context menu is of (its position in graph order), or
   * -1; and the document's revision then. */
  gint  menu_node;
  guint menu_revision;

  gboolean  busy;
  gboolean  close_confirmed;
  gboolean  following_canvas;   /* the list selection follows a click */
  AdwToast *toast;              /* the toast on screen (the overlay's), or NULL */
  gboolean  toast_offers;       /* its message came with an Undo */
  AdwToast *undo_toast;         /* the toast offering to undo a change, or NULL */
  guint     undo_toast_serial;  /* the change it undoes */
  guint     restore_serial;     /* the change that restored unsaved work */
  char     *last_toast;         /* the title of the toast shown last */
  gboolean  syncing_texts;      /* the rules' buffers are being set from the document */
  guint     run_from;           /* the position before the Run All under way */
  gboolean  follow_due;         /* the next step's rule is to be chosen once matches are known */
  gboolean  follow_match;       /* and its match shown */
  gint      choose_after;       /* after a Replace: the match to choose once found, or -1 */
  gboolean  show_match_due;     /* the chosen match is to be shown once laid out */
  int       handle_start_width; /* the side panel's width when a drag of its handle began */

  /* What choose_after's number is of: the graph a Replace made (the document's revision)
   * and the pattern it replaced with (owned), or NULL. */
  guint         choose_revision;
  GraftPattern *choose_pattern;
  char         *choose_anchor; /* or the anchor of the match the user chose meanwhile (owned) */
  gboolean      rows_changing; /* the matches' rows are changing (the selection follows them) */

  GdkFrameClock *toast_clock; /* the frame clock toasts_layout_cb() follows (weak) */

  /* A move in the history by steps the window began (graft_document_begin_go_to()): the
   * toast to show at its end (owned, or NULL), the document's revision before it, and
   * whether the next step is followed even when the graph did not move. */
  char    *move_toast;
  guint    move_revision;
  gboolean move_follow;
  gint     move_choose; /* the match to choose once the move is over (an undone Replace's), or -1 */

  char *carry_pattern;     /* texts to put in the editors once the file being read is in */
  char *carry_replacement; /* (graft-window-open.c), or NULL */

  /* The file on disk (graft-window-watch.c) */
  GFileMonitor *file_monitor;
  GFile        *watched;
  GCancellable *watch_start; /* the monitor being made on a worker, or NULL */
  guint         recent_job;  /* refills the recent files' menu: a job of graft-turns.c, or 0 */
  char         *file_etag;   /* as read or saved last, or NULL */
  guint         reread_id;   /* a file that could not be read, read again soon: a timeout, or 0 */
  GtkWidget    *file_bar;    /* a revealer under the warning bar */
  GtkWidget    *file_bar_label;
  GtkWidget    *file_bar_reload;

  GtkWidget *entry_dropdown; /* the model to trace (graft-window-entry.c) */
  gboolean   updating_entry;

  GraftExport *export;           /* Owned: the export running, or NULL */
  guint           saving;        /* sessions being written (graft_window_get_saving()) */
  GFile          *export_folder; /* Owned: where the last export went, or NULL */
  guint           export_format; /* the last export's, as an index of the dialog's formats */
  GraftExportBar *export_bar;    /* Borrowed: shows it, over the canvas */
};

void          _graft_window_class_add_actions (GtkWidgetClass *widget_class);
void          _graft_window_init_actions (GraftWindow *self);
void          _graft_window_update_actions (GraftWindow *self);
void          _graft_window_update_torch (GraftWindow *self);
void          _graft_window_fit_side_page (GraftWindow *self);
void          _graft_window_init_side_split (GraftWindow *self);
void          _graft_window_toast (GraftWindow *self,
                                   const char  *title,
                                   gboolean     with_undo);
void          _graft_window_relayout (GraftWindow *self,
                                      gboolean     keep_view);
void          _graft_window_relayout_or_clear (GraftWindow *self);
void          _graft_window_begin_move (GraftWindow *self,
                                        guint        position,
                                        char        *toast,
                                        gboolean     follow);
void          _graft_window_show_warnings (GraftWindow *self);
void          _graft_window_restore_autosave (GraftWindow *self);
void          _graft_window_set_autosave_step (gsize n_bytes);
void          _graft_window_set_autosave_delay (guint seconds);
void          _graft_window_set_marks_step (guint n_names);
void          _graft_window_replace_texts (GraftWindow *self,
                                           const char  *pattern,
                                           const char  *replacement,
                                           const char  *title);
void          _graft_window_undo_texts (GraftWindow *self);
void          _graft_window_redo_texts (GraftWindow *self);
void          _graft_window_expand_level (GraftWindow *self);
void          _graft_window_get_selected_nodes (GraftWindow *self,
                                                GPtrArray   *out);
GraftNode    *_graft_window_node_at (GraftWindow *self,
                                     guint        position);
void          _graft_window_select_nodes (GraftWindow *self,
                                          GPtrArray   *nodes);
void          _graft_window_expand_scope (GraftWindow *self,
                                          const char  *scope);
void          _graft_window_collapse_scope (GraftWindow *self,
                                            const char  *scope);
void          _graft_window_set_folding (GraftWindow *self,
                                         gboolean     overview);
void          _graft_window_show_properties (GraftWindow *self,
                                             gboolean     show,
                                             gboolean     move_focus);
void          _graft_window_follow_next (GraftWindow *self,
                                         gboolean     show_match);
void          _graft_window_choose_after_replace (GraftWindow *self,
                                                  guint        match);
void          _graft_window_flush_editors (GraftWindow *self);
void          _graft_window_report_error (GraftWindow  *self,
                                          const char   *what,
                                          const GError *error);
void          _graft_window_add_filter (GtkFileChooser    *chooser,
                                        const char        *name,
                                        const char *const *patterns);
void          _graft_window_init_rule_actions (GraftWindow *self);
void          _graft_window_update_rule_actions (GraftWindow *self,
                                                 gboolean     has_graph);
void          _graft_window_init_compare_actions (GraftWindow *self);
void          _graft_window_share_screen (int  screen_width,
                                          int  screen_height,
                                          int *width,
                                          int *height);
void          _graft_window_screen_size (GraftWindow *self,
                                         int         *width,
                                         int         *height);
void          _graft_window_init_adaptive (GraftWindow *self,
                                           int          sidebar_width);
int           _graft_window_get_sidebar_width (GraftWindow *self);
void          _graft_window_update_compare_actions (GraftWindow *self,
                                                    gboolean     has_graph);
void          _graft_window_init_view_actions (GraftWindow *self);
void          _graft_window_init_panes (GraftWindow *self);
const GError *_graft_window_get_fit_error (GraftWindow *self);
GraftWindow  *_graft_window_open_from (GraftWindow *self,
                                       GFile       *file);
void          _graft_window_apply_carried (GraftWindow *self);
void          _graft_window_init_watch (GraftWindow *self);
void          _graft_window_watch_file (GraftWindow *self);
void          _graft_window_watch_read_file (GraftWindow *self);
void          _graft_window_unwatch_file (GraftWindow *self);
void          _graft_window_init_entry (GraftWindow *self);
void          _graft_window_update_entry (GraftWindow *self);
const char   *_graft_window_entry_for (GFile *file);
void          _graft_window_explain_replace (GraftWindow  *self,
                                             const GError *fit_error);
void          _graft_window_init_export (GraftWindow *self);
void          _graft_window_update_export (GraftWindow *self,
                                           gboolean     has_graph);
void          _graft_window_dispose_export (GraftWindow *self);

void _graft_window_set_toast_seconds (guint seconds);

G_END_DECLS
