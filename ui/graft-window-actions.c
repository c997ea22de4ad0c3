/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-window-actions.c: the win.* actions of an editor window: opening
 * (file chooser, recent files), saving the graph as code, replacing one
 * match or all of them, undo and redo, moving between matches, zooming,
 * and loading or saving the pattern and the replacement.
 *
 * Save never overwrites the file a graph was opened from (a model, a
 * listing or a DOT file, which the generated code would replace): until
 * the graph has been saved somewhere, Save asks where, like Save As.  A
 * document with a rule set, or read from a session, saves as a session
 * (`.graft`: the input, the rules, the history); Save As offers both.
 *
 * The actions on the rules are graft-window-rules.c's, the exports
 * graft-window-export.c's.
 */
#include "config.h"

#include "graft-window-private.h"
#include "graft-canvas-private.h"
#include "graft-turns.h"
#include "graft-autosave.h"
#include "graft-context-window.h"
#include "graft-comparison.h"
#include "graft-diff-window.h"

#include <string.h>

static void
activate_canvas_action (GraftWindow *self,
                        const char  *name)
{
  gtk_widget_activate_action (GTK_WIDGET (self->canvas), name, NULL);
}

static void
zoom_in_cb (GSimpleAction *action,
            GVariant      *param,
            gpointer       user_data)
{
  activate_canvas_action (user_data, "canvas.zoom-in");
}

static void
zoom_out_cb (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  activate_canvas_action (user_data, "canvas.zoom-out");
}

static void
zoom_reset_cb (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  activate_canvas_action (user_data, "canvas.zoom-reset");
}

static void
zoom_fit_cb (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  activate_canvas_action (user_data, "canvas.zoom-fit");
}

static const char *const all_files[] = { "*", NULL };

/**
 * _graft_window_add_filter:
 * @chooser: a file chooser
 * @name: what the filter shows
 * @patterns: (array zero-terminated=1): the file names it shows; %NULL
 *   for every file
 *
 * Adds a filter to @chooser.
 */
void
_graft_window_add_filter (GtkFileChooser    *chooser,
                          const char        *name,
                          const char *const *patterns)
{
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  if (patterns == NULL)
    patterns = all_files;
  gtk_file_filter_set_name (filter, name);
  for (guint i = 0; patterns[i] != NULL; i++)
    gtk_file_filter_add_pattern (filter, patterns[i]);
  gtk_file_chooser_add_filter (chooser, filter);
}

static void
add_graph_filters (GtkFileChooser *chooser)
{
  static const char *const graphs[] = { "*.py", "*.graph", "*.txt", "*.dot", "*.gv", "*.pt2",
                                        "*.graft", NULL };
  static const char *const sessions[] = { "*.graft", NULL };
  static const char *const python[] = { "*.py", NULL };
  static const char *const programs[] = { "*.pt2", "*.txt", NULL };
  static const char *const listings[] = { "*.graph", "*.txt", NULL };
  static const char *const dot[] = { "*.dot", "*.gv", NULL };

  _graft_window_add_filter (chooser, "Graphs", graphs);
  _graft_window_add_filter (chooser, "Python Modules", python);
  /* torch.export.save's archives, and the texts print(ep) and
   * print_readable() write. */
  _graft_window_add_filter (chooser, "torch.export Programs", programs);
  _graft_window_add_filter (chooser, "FX Graph Listings", listings);
  _graft_window_add_filter (chooser, "DOT Graphs", dot);
  _graft_window_add_filter (chooser, "Graft Sessions", sessions);
  _graft_window_add_filter (chooser, "All Files", all_files);
}

static void
open_file (GraftWindow *self,
           GFile       *file)
{
  _graft_window_open_from (self, file);
}

static void
open_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  GraftWindow     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      open_file (self, file);
    }
  g_object_unref (dialog);
}

static void
open_cb (GSimpleAction *action,
         GVariant      *param,
         gpointer       user_data)
{
  GraftWindow          *self = user_data;
  GtkFileChooserNative *dialog =
      gtk_file_chooser_native_new ("Open a Graph", GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                   "_Open", "_Cancel");

  add_graph_filters (GTK_FILE_CHOOSER (dialog));
  g_signal_connect (dialog, "response", G_CALLBACK (open_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
open_recent_cb (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  g_autoptr (GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));

  open_file (user_data, file);
}

static int
compare_recent (gconstpointer a,
                gconstpointer b)
{
  GtkRecentInfo *x = *(GtkRecentInfo *const *) a;
  GtkRecentInfo *y = *(GtkRecentInfo *const *) b;
  GDateTime     *tx = gtk_recent_info_get_modified (x);
  GDateTime     *ty = gtk_recent_info_get_modified (y);

  return g_date_time_compare (ty, tx);
}

/* @text with its underscores doubled, so that a menu, which reads one
 * underscore as a mnemonic, shows them. */
static char *
escape_underscores (const char *text)
{
  g_auto (GStrv) parts = g_strsplit (text, "_", -1);

  return g_strjoinv ("__", parts);
}

/* Longest folder a recent file's item shows whole; a longer one keeps its
 * start and its end, the end being what tells two folders apart. */
#define RECENT_FOLDER_MAX 48

/* What Open Recent shows for @uri: the file's name as it is, then its
 * folder (the home folder as ~), as GNOME's editors do, so that two files
 * of one name are told apart. */
static char *
recent_label (const char *uri)
{
  g_autoptr (GFile) file = g_file_new_for_uri (uri);
  g_autoptr (GFile) parent = g_file_get_parent (file);
  g_autofree char *base = g_file_get_basename (file);
  g_autofree char *name = g_filename_display_name (base);
  g_autofree char *path = parent != NULL ? g_file_get_path (parent) : NULL;
  g_autofree char *folder = NULL;
  g_autofree char *label = NULL;
  const char      *home = g_get_home_dir ();
  glong            length;

  if (path == NULL)
    return escape_underscores (name);
  folder = g_filename_display_name (path);
  if (g_str_has_prefix (folder, home) &&
      (folder[strlen (home)] == '\0' || folder[strlen (home)] == G_DIR_SEPARATOR))
    {
      char *shorter = g_strconcat ("~", folder + strlen (home), NULL);

      g_free (folder);
      folder = shorter;
    }
  length = g_utf8_strlen (folder, -1);
  if (length > RECENT_FOLDER_MAX)
    {
      const char      *tail = g_utf8_offset_to_pointer (folder, length - (RECENT_FOLDER_MAX - 12));
      g_autofree char *head = g_utf8_substring (folder, 0, 11);
      char            *shorter = g_strconcat (head, "…", tail, NULL);

      g_free (folder);
      folder = shorter;
    }
  label = g_strdup_printf ("%s — %s", name, folder);
  return escape_underscores (label);
}

/* The eight most recent graph files that still exist. */
static void
update_recent (GraftWindow *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  g_autoptr (GPtrArray) sorted = g_ptr_array_new ();
  guint shown = 0;

  g_menu_remove_all (self->recent_section);
  for (GList *l = items; l != NULL; l = l->next)
    {
      const char *uri = gtk_recent_info_get_uri (l->data);

      if (gtk_recent_info_is_local (l->data) && gtk_recent_info_exists (l->data) &&
          (g_str_has_suffix (uri, ".py") || g_str_has_suffix (uri, ".dot") ||
           g_str_has_suffix (uri, ".gv") || g_str_has_suffix (uri, ".graph") ||
           g_str_has_suffix (uri, ".graft")))
        g_ptr_array_add (sorted, l->data);
    }
  g_ptr_array_sort (sorted, compare_recent);
  for (guint i = 0; i < sorted->len && shown < 8; i++, shown++)
    {
      g_autofree char *label = recent_label (gtk_recent_info_get_uri (sorted->pdata[i]));
      g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target (item, "win.open-recent", "s",
                                         gtk_recent_info_get_uri (sorted->pdata[i]));
      g_menu_append_item (self->recent_section, item);
    }
  if (shown == 0)
    g_menu_append (self->recent_section, "No Recent Files", "win.no-recent");
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

static gboolean
recent_step_cb (gpointer user_data)
{
  GraftWindow *self = user_data;

  self->recent_job = 0;
  update_recent (self);
  return G_SOURCE_REMOVE;
}

/* The manager says so after it has read its file again, in the same turn
 * as whatever else is due (a graph just read): the menu is filled in a
 * turn of its own (graft-turns.c), which takes milliseconds with a
 * history of thousands of files. */
static void
recent_changed_cb (GtkRecentManager *manager,
                   GraftWindow      *self)
{
  if (self->recent_job == 0)
    self->recent_job = graft_turns_add (recent_step_cb, self, NULL);
}

/**
 * _graft_window_report_error:
 * @self: a window
 * @what: what did not happen
 * @error: why
 *
 * Says it in a toast.
 */
void
_graft_window_report_error (GraftWindow  *self,
                            const char   *what,
                            const GError *error)
{
  g_autofree char *text = g_strdup_printf ("%s: %s", what, error->message);

  _graft_window_toast (self, text, FALSE);
}

typedef enum {
  AFTER_SAVE_NOTHING,
  AFTER_SAVE_CLOSE,
} AfterSave;

/* Whether @file is named as a session. */
static gboolean
is_session_file (GFile *file)
{
  g_autofree char *base = file != NULL ? g_file_get_basename (file) : NULL;

  return base != NULL && g_str_has_suffix (base, ".graft");
}

/* A session, or the graph as code, being written
 * (graft_document_save_session_async(), graft_document_save_async()). */
typedef struct
{
  GWeakRef  window;   /* a window closed meanwhile is told nothing */
  GFile    *file;     /* Owned */
  GFile    *previous; /* Owned: the window's file before, or NULL */
  AfterSave after;
  gboolean  toast; /* say so when saved */
} SessionSaving;

static SessionSaving *
saving_new (GraftWindow *self,
            GFile       *file,
            AfterSave    after,
            gboolean     toast)
{
  SessionSaving *saving = g_new0 (SessionSaving, 1);
  GFile         *previous = graft_document_get_file (self->document);

  g_weak_ref_init (&saving->window, self);
  saving->file = g_object_ref (file);
  saving->previous = previous != NULL ? g_object_ref (previous) : NULL;
  saving->after = after;
  saving->toast = toast;
  self->saving++;
  _graft_window_update_actions (self);
  return saving;
}

static void
saving_free (SessionSaving *saving)
{
  g_weak_ref_clear (&saving->window);
  g_clear_object (&saving->file);
  g_clear_object (&saving->previous);
  g_free (saving);
}

/* The file is written (@ok) or not (@error): the window (if still there)
 * says so, makes it its file, and closes if it was asked to; @what and
 * @done name what was saved in the toasts. */
static void
saving_done (SessionSaving *saving,
             gboolean       ok,
             const GError  *error,
             const char    *what,
             const char    *done)
{
  g_autoptr (GraftWindow) self = g_weak_ref_get (&saving->window);

  if (self != NULL)
    {
      self->saving--;
      _graft_window_update_actions (self);
      if (!ok)
        {
          g_autofree char *base = g_file_get_basename (saving->file);
          g_autofree char *text = g_strdup_printf ("%s was not saved to %s", what, base);

          _graft_window_report_error (self, text, error);
        }
      else
        {
          /* The unsaved work is in the new file now: the old file's
           * autosave would offer it again when that file is opened. */
          if (saving->previous != NULL && !g_file_equal (saving->previous, saving->file))
            graft_autosave_discard (saving->previous);
          g_object_set_data (G_OBJECT (self->document), "graft-saved-here", GINT_TO_POINTER (TRUE));
          _graft_window_watch_file (self);
          if (saving->toast)
            _graft_window_toast (self, done, FALSE);
          if (saving->after == AFTER_SAVE_CLOSE)
            gtk_window_destroy (GTK_WINDOW (self));
        }
    }
  saving_free (saving);
}

static void
session_saved_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr (GError) error = NULL;
  gboolean ok = graft_document_save_session_finish (GRAFT_DOCUMENT (object), result, &error);

  saving_done (user_data, ok, error, "The session",
               "Saved the session: graph, rules and history");
}

/* Writes the session to @file off the main loop; @after and a toast once
 * it is written, a toast naming the file if not. */
static void
save_session (GraftWindow *self,
              GFile       *file,
              AfterSave    after,
              gboolean     toast)
{
  SessionSaving *saving = saving_new (self, file, after, toast);

  graft_document_save_session_async (self->document, file, session_saved_cb, saving);
}

static void
code_saved_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr (GError) error = NULL;
  gboolean ok = graft_document_save_finish (GRAFT_DOCUMENT (object), result, &error);

  saving_done (user_data, ok, error, "The graph", "Saved as Python code");
}

/* Writes the graph as code to @file by steps and off the main loop
 * (graft_document_save_async()); @after and, if @toast, a toast once it
 * is written, a toast naming the file if not. */
static void
save_code (GraftWindow *self,
           GFile       *file,
           AfterSave    after,
           gboolean     toast)
{
  SessionSaving *saving = saving_new (self, file, after, toast);

  graft_document_save_async (self->document, file, code_saved_cb, saving);
}

/**
 * graft_window_get_saving:
 * @self: a window
 *
 * Returns: whether a session is being written (Save, Save As)
 */
gboolean
graft_window_get_saving (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), FALSE);
  return self->saving > 0;
}

/* graft_window_save_to(), then @after once saved. */
static gboolean
save_to (GraftWindow *self,
         GFile       *file,
         AfterSave    after)
{
  _graft_window_flush_editors (self);
  if (is_session_file (file))
    save_session (self, file, after, TRUE);
  else
    save_code (self, file, after, TRUE);
  return TRUE;
}

/**
 * graft_window_save_to:
 * @self: a window
 * @file: where to save, as the Save As file chooser answered
 *
 * Saves to @file, which becomes the window's file: a session (the input,
 * the rules, the history and where it stands) when @file is named
 * `*.graft`, else the graph as code.  Either is written off the main
 * loop (the code made and copied by steps): graft_window_get_saving()
 * says so meanwhile, and a toast when it is written (or why not: a change
 * of the graph while its code is written ends the save, the file as it
 * was).
 *
 * Returns: whether the writing started (if not, a toast says why)
 */
gboolean
graft_window_save_to (GraftWindow *self,
                      GFile       *file)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  return save_to (self, file, AFTER_SAVE_NOTHING);
}

static void
save_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  GraftWindow     *self)
{
  AfterSave after = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "after-save"));

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *base = g_file_get_basename (file);
      const char      *format = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "format");

      /* A name without .graft or .py takes the format chosen. */
      if (g_strcmp0 (format, "session") == 0 && !g_str_has_suffix (base, ".graft") &&
          !g_str_has_suffix (base, ".py"))
        {
          g_autoptr (GFile) parent = g_file_get_parent (file);
          g_autofree char *named = g_strconcat (base, ".graft", NULL);

          g_set_object (&file, g_file_get_child (parent, named));
        }
      save_to (self, file, after);
    }
  g_object_unref (dialog);
}

static void
save_as (GraftWindow *self,
         AfterSave    after)
{
  gboolean              session = graft_document_get_keeps_rules (self->document);
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (
      session ? "Save the Session" : "Save the Graph as Code", GTK_WINDOW (self),
      GTK_FILE_CHOOSER_ACTION_SAVE, "_Save", "_Cancel");
  GFile           *file = graft_document_get_file (self->document);
  g_autofree char *name = NULL;
  /* The format the document saves as first: GTK 4.8's own dialog ignores
   * gtk_file_chooser_set_choice() for a choice of options and shows the
   * first (it said "Graft session" over "Save the Graph as Code" and a
   * name ending in .py, and a name typed without one became a session). */
  const char *session_id = "session";
  const char *session_label = "Graft session: graph, rules and history (.graft)";
  const char *code_id = "code";
  const char *code_label = "The graph as Python code (.py)";
  const char *ids[] = { session ? session_id : code_id, session ? code_id : session_id, NULL };
  const char *labels[] = { session ? session_label : code_label,
                           session ? code_label : session_label, NULL };
  static const char *const saved[] = { "*.graft", "*.py", NULL };

  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (dialog), "format", "Format", ids, labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (dialog), "format", ids[0]);
  /* The files Save writes: without a filter GTK 4.8's dialog showed an
   * empty filter list, "(None)", beside the format. */
  _graft_window_add_filter (GTK_FILE_CHOOSER (dialog), "Sessions and Python Code", saved);
  if (file != NULL)
    {
      g_autofree char *base = g_file_get_basename (file);
      char            *dot = strrchr (base, '.');
      g_autoptr (GFile) parent = g_file_get_parent (file);

      if (dot != NULL)
        *dot = '\0';
      name = session ? g_strdup_printf ("%s.graft", base)
                     : g_strdup_printf ("%s-rewritten.py", base);
      if (parent != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), parent, NULL);
    }
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog),
                                     name != NULL ? name
                                     : session    ? "session.graft"
                                                  : "graph.py");
  g_object_set_data (G_OBJECT (dialog), "after-save", GINT_TO_POINTER (after));
  g_signal_connect (dialog, "response", G_CALLBACK (save_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
save (GraftWindow *self,
      AfterSave    after)
{
  GFile *file = graft_document_get_file (self->document);

  _graft_window_flush_editors (self);
  /* A document with a rule set saves as a session (a file of code would
   * lose the rules and the history): into its own session file, or
   * wherever Save As says. */
  if (graft_document_get_keeps_rules (self->document))
    {
      if (!graft_document_get_is_session (self->document) || !is_session_file (file))
        {
          save_as (self, after);
          return;
        }
      save_session (self, file, after, FALSE);
      return;
    }
  if (file == NULL || g_object_get_data (G_OBJECT (self->document), "graft-saved-here") == NULL)
    {
      save_as (self, after);
      return;
    }
  save_code (self, file, after, FALSE);
}

static void
save_cb (GSimpleAction *action,
         GVariant      *param,
         gpointer       user_data)
{
  save (user_data, AFTER_SAVE_NOTHING);
}

static void
save_as_cb (GSimpleAction *action,
            GVariant      *param,
            gpointer       user_data)
{
  save_as (user_data, AFTER_SAVE_NOTHING);
}

static void
save_and_close_cb (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  save (user_data, AFTER_SAVE_CLOSE);
}

static void
after_rewrite (GraftWindow *self,
               guint        n)
{
  g_autofree char *text = NULL;

  if (n == 1)
    text = g_strdup ("Replaced 1 match");
  else
    text = g_strdup_printf ("Replaced %u matches", n);
  _graft_window_toast (self, text, TRUE);
  _graft_window_show_warnings (self);
  _graft_window_relayout (self, TRUE);
}

static void
replace_all_cb (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  GraftWindow *self = user_data;
  g_autoptr (GError) error = NULL;
  guint n = graft_document_get_n_matches (self->document);

  graft_pattern_editor_flush (self->pattern_editor);
  graft_pattern_editor_flush (self->replacement_editor);
  n = graft_document_get_n_matches (self->document);
  if (n == 0)
    {
      _graft_window_toast (self, "No matches to replace", FALSE);
      return;
    }
  /* The rewrite runs over the turns to come (a million-node graph's
   * would stop the window for most of a tenth of a second): the window
   * shows the graph as it was until ::replaced-all. */
  if (!graft_document_begin_replace_all (self->document, &error))
    _graft_window_report_error (self, "Nothing was replaced", error);
}

/* Replace All is over (graft_document_begin_replace_all()). */
static void
replaced_all_cb (GraftDocument *document,
                 guint          n,
                 const GError  *error,
                 gpointer       user_data)
{
  GraftWindow *self = user_data;

  if (error != NULL)
    _graft_window_report_error (self, "Nothing was replaced", error);
  else
    after_rewrite (self, n);
}

static void
replace_match (GraftWindow *self,
               guint        match)
{
  g_autoptr (GError) error = NULL;

  if (match >= graft_document_get_n_matches (self->document))
    return;
  if (!graft_document_replace (self->document, match, &error))
    _graft_window_report_error (self, "Nothing was replaced", error);
  else
    {
      after_rewrite (self, 1);
      _graft_window_choose_after_replace (self, match);
    }
}

static void
replace_match_cb (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       user_data)
{
  replace_match (user_data, g_variant_get_uint32 (param));
}

/* The chosen match: the one selected in the list, else the one a node
 * selected on the canvas belongs to. */
static gint
chosen_match (GraftWindow *self)
{
  gint        match = graft_window_get_selected_match (self);
  const char *name;
  guint       at = 0;

  /* While the matches are being found again, the list's choice, as the
   * list shows it: asking the document would find them at once. */
  if (graft_document_get_matches_pending (self->document))
    return match < (gint) graft_document_get_n_matches_shown (self->document) ? match : -1;
  if (match >= (gint) graft_document_get_n_matches (self->document))
    return -1;
  if (match >= 0)
    return match;
  while ((name = _graft_canvas_next_selected (self->canvas, &at)) != NULL)
    if ((match = graft_document_get_match_of_node (self->document, name)) >= 0)
      return match;
  return -1;
}

static void
replace_selected_cb (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  gint match = chosen_match (user_data);

  if (match >= 0)
    replace_match (user_data, (guint) match);
}

/* After an undo or redo that did @what (NULL: nothing to do): the toast
 * says which change it was, since the graph may be out of sight.  When
 * the graph moved (the document's revision is no longer @revision), the
 * rule the next step applies is chosen; a change of the rule set keeps
 * the choice it restored. */
static void
history_stepped (GraftWindow *self,
                 const char  *verb,
                 const char  *what,
                 guint        revision)
{
  if (what != NULL)
    {
      g_autofree char *text = g_strdup_printf ("%s: %s", verb, what);

      _graft_window_toast (self, text, FALSE);
      _graft_window_show_warnings (self);
      _graft_window_relayout_or_clear (self);
      if (revision != graft_document_get_revision (self->document))
        _graft_window_follow_next (self, FALSE);
    }
}

/**
 * _graft_window_begin_move:
 * @self: a window
 * @position: where the document's history goes
 * @toast: (transfer full): what the toast says once it is there
 * @follow: choose the rule of the next step even if the graph did not move
 *
 * Undoes or redoes the changes up to @position over the turns to come
 * (graft_document_begin_go_to(): a million-node Replace All takes 60-100 ms
 * to undo), the window showing the graph as it was until ::moved, then
 * says so as history_stepped() does.  The caller settled the document
 * (graft_document_settle()) before it read the position and labels.
 */
void
_graft_window_begin_move (GraftWindow *self,
                          guint        position,
                          char        *toast,
                          gboolean     follow)
{
  g_free (self->move_toast);
  self->move_toast = toast;
  self->move_revision = graft_document_get_revision (self->document);
  self->move_follow = follow;
  graft_document_begin_go_to (self->document, position);
}

/* A move in the history by steps is over. */
static void
moved_cb (GraftDocument *document,
          guint          from,
          guint          to,
          gpointer       user_data)
{
  GraftWindow     *self = user_data;
  g_autofree char *text = g_steal_pointer (&self->move_toast);

  if (text == NULL)
    return;
  _graft_window_toast (self, text, FALSE);
  _graft_window_show_warnings (self);
  _graft_window_relayout_or_clear (self);
  if (self->move_follow || self->move_revision != graft_document_get_revision (document))
    _graft_window_follow_next (self, FALSE);
  if (self->move_choose >= 0)
    _graft_window_choose_after_replace (self, (guint) self->move_choose);
  self->move_choose = -1;
}

/* Undoes (@redo FALSE) or redoes one change by steps, a Run All whole;
 * nothing if there is none.  Ctrl+Z, the menu's Undo and a toast's come
 * here, so that they agree. */
static void
begin_step (GraftWindow *self,
            gboolean     redo)
{
  guint position;
  guint to;
  char *text;

  graft_document_settle (self->document);
  position = graft_document_get_position (self->document);
  to = redo ? graft_document_get_redo_position (self->document)
            : graft_document_get_undo_position (self->document);
  if (to == position)
    return;
  if (MAX (to, position) - MIN (to, position) > 1)
    text = g_strdup_printf ("%s: Run all · %u steps", redo ? "Redone" : "Undone",
                            MAX (to, position) - MIN (to, position));
  else
    text = g_strdup_printf ("%s: %s", redo ? "Redone" : "Undone",
                            graft_document_get_history_label (self->document, MIN (to, position)));
  /* An undone Replace of the rule chosen now chooses the match it had
   * replaced again, found anew once the graph is back, so that the
   * choice can be made again.  Set first: a short move may be over
   * before _graft_window_begin_move() returns. */
  self->move_choose = -1;
  if (!redo && position - to == 1)
    self->move_choose = graft_document_get_history_match (self->document, to);
  _graft_window_begin_move (self, to, text, FALSE);
}

/* The widget with the focus when it is text the user edits (the pattern
 * and replacement editors, the search entry): there, Ctrl+Z and the redo
 * keys belong to the text.  The application's accelerators run before
 * the focused widget sees the key, so the window hands them over. */
static GtkWidget *
focused_text (GraftWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  if (GTK_IS_TEXT_VIEW (focus) && gtk_text_view_get_editable (GTK_TEXT_VIEW (focus)))
    return focus;
  if (GTK_IS_TEXT (focus) && gtk_editable_get_editable (GTK_EDITABLE (focus)))
    return focus;
  return NULL;
}

/* The text of @text when it is the pattern's or the replacement's
 * editor, else NULL. */
static GtkTextBuffer *
editor_text (GraftWindow *self,
             GtkWidget   *text)
{
  if (!GTK_IS_TEXT_VIEW (text) ||
      !(gtk_widget_is_ancestor (text, GTK_WIDGET (self->pattern_editor)) ||
        gtk_widget_is_ancestor (text, GTK_WIDGET (self->replacement_editor))))
    return NULL;
  return gtk_text_view_get_buffer (GTK_TEXT_VIEW (text));
}

/* In an editor, the last change of the editors' texts is undone: when a
 * command filled both (Use as Pattern, a pattern from the selection,
 * unsaved work restored), both, as the toast's Undo does, not half of
 * it. */
static void
undo_cb (GSimpleAction *action,
         GVariant      *param,
         gpointer       user_data)
{
  GraftWindow *self = user_data;
  GtkWidget   *text = focused_text (self);

  if (graft_text_undo_get_undoable (self->text_undo, editor_text (self, text)))
    _graft_window_undo_texts (self);
  else if (text != NULL)
    gtk_widget_activate_action (text, "text.undo", NULL);
  else
    begin_step (self, FALSE);
}

static void
redo_cb (GSimpleAction *action,
         GVariant      *param,
         gpointer       user_data)
{
  GraftWindow *self = user_data;
  GtkWidget   *text = focused_text (self);

  if (graft_text_undo_get_redoable (self->text_undo, editor_text (self, text)))
    _graft_window_redo_texts (self);
  else if (text != NULL)
    gtk_widget_activate_action (text, "text.redo", NULL);
  else
    begin_step (self, TRUE);
}

/* Ctrl+Z and the redo keys in an editor when win.undo or win.redo is
 * disabled (nothing in the graph's history) reach the editor, not
 * undo_cb(): caught before the text view sees them, so that a command's
 * filling of both editors is undone and redone whole there too. */
static gboolean
editor_key_pressed_cb (GtkEventControllerKey *controller,
                       guint                  keyval,
                       guint                  keycode,
                       GdkModifierType        state,
                       GraftWindow           *self)
{
  GdkModifierType mods = state & gtk_accelerator_get_default_mod_mask ();
  guint           key = gdk_keyval_to_lower (keyval);
  gboolean        undo = key == GDK_KEY_z && mods == GDK_CONTROL_MASK;
  gboolean        redo = (key == GDK_KEY_z && mods == (GDK_CONTROL_MASK | GDK_SHIFT_MASK)) ||
                  (key == GDK_KEY_y && mods == GDK_CONTROL_MASK);
  /* The text, not the pattern's preview under it. */
  GtkTextBuffer *buffer = editor_text (self, gtk_root_get_focus (GTK_ROOT (self)));

  if (undo && graft_text_undo_get_undoable (self->text_undo, buffer))
    _graft_window_undo_texts (self);
  else if (redo && graft_text_undo_get_redoable (self->text_undo, buffer))
    _graft_window_redo_texts (self);
  else
    return FALSE;
  return TRUE;
}

static void
undo_texts_cb (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  _graft_window_undo_texts (user_data);
}

/* A toast's Undo: undoes the change of that serial, if it is still the
 * last one applied; otherwise nothing (the toast is being dismissed). */
static void
undo_change_cb (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  GraftWindow *self = user_data;

  guint serial = g_variant_get_uint32 (param);

  graft_document_settle (self->document);
  if (graft_document_get_last_change_serial (self->document) != serial)
    return;
  /* Restoring unsaved work also filled the editors: that undo at once. */
  if (serial == self->restore_serial)
    {
      guint revision = graft_document_get_revision (self->document);

      history_stepped (self, "Undone", graft_document_undo (self->document), revision);
      _graft_window_undo_texts (self);
      return;
    }
  /* The toast of Replace All undoes it by steps, as Ctrl+Z does, and that
   * of Run All the whole run (a million-node run's edits took seconds to
   * undo in one turn). */
  begin_step (self, FALSE);
}

/* The primary menu's choice of torch: the document reads its graph and
 * traces the editors' texts again in it, as one step of the history. */
static void
torch_cb (GSimpleAction *action,
          GVariant      *value,
          gpointer       user_data)
{
  GraftWindow        *self = user_data;
  const GraftDialect *dialect = graft_dialect_from_name (g_variant_get_string (value, NULL));
  g_autofree char    *text = NULL;

  if (dialect == NULL || dialect == graft_document_get_dialect (self->document))
    return;
  /* What is being typed goes in first, to be traced in the new torch. */
  graft_pattern_editor_flush (self->pattern_editor);
  graft_pattern_editor_flush (self->replacement_editor);
  /* The graph is read again on a worker (a million-node program's took
   * four seconds of the main loop): ::switched says when it is in. */
  if (graft_document_begin_set_dialect (self->document, dialect))
    {
      text = g_strdup_printf ("Reading the graph in torch %s…", dialect->name);
      _graft_window_toast (self, text, FALSE);
      return;
    }
  text = g_strdup_printf ("Now speaking torch %s", dialect->name);
  _graft_window_toast (self, text, FALSE);
  _graft_window_show_warnings (self);
  _graft_window_relayout_or_clear (self);
}

/* The switch of torch torch_cb() began is over: its step can be undone. */
static void
switched_cb (GraftDocument *document,
             gpointer       user_data)
{
  GraftWindow     *self = user_data;
  g_autofree char *text = g_strdup_printf ("Now speaking torch %s",
                                           graft_document_get_dialect (document)->name);

  _graft_window_toast (self, text, TRUE);
  _graft_window_show_warnings (self);
  _graft_window_relayout_or_clear (self);
}

static void
step_match (GraftWindow *self,
            int          step)
{
  guint n = graft_document_get_n_matches (self->document);
  gint  current = graft_window_get_selected_match (self);
  guint next;

  if (n == 0)
    return;
  if (current < 0)
    next = step > 0 ? 0 : n - 1;
  else
    next = (guint) (((gint) current + step + (gint) n) % (gint) n);
  graft_window_select_match (self, next);
}

static void
next_match_cb (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  step_match (user_data, 1);
}

static void
previous_match_cb (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  step_match (user_data, -1);
}

static void
dismiss_warnings_cb (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  GraftWindow *self = user_data;

  gtk_revealer_set_reveal_child (self->warning_revealer, FALSE);
  /* Dismissing the offer to restore drops the autosave. */
  if (self->recovery != NULL)
    {
      g_clear_pointer (&self->recovery, graft_recovery_free);
      gtk_widget_set_visible (self->restore_button, FALSE);
      graft_autosave_discard (graft_document_get_file (self->document));
    }
}

static void
load_patterns_response_cb (GtkNativeDialog *dialog,
                           int              response,
                           GraftWindow     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr (GError) error = NULL;
      g_autoptr (GraftSource) source = path != NULL ? graft_input_read_file (path, &error) : NULL;

      if (source == NULL)
        {
          if (error == NULL)
            g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "not a local file");
          _graft_window_report_error (self, "The file cannot be read", error);
        }
      else
        {
          g_autofree char *pattern = graft_input_dup_definition (source, "pattern");
          g_autofree char *replacement = graft_input_dup_definition (source, "replacement");

          if (pattern == NULL && replacement == NULL)
            _graft_window_toast (self, "The file defines neither pattern nor replacement", FALSE);
          else
            {
              g_autofree char *base = g_file_get_basename (file);
              g_autofree char *title =
                  g_strdup_printf ("%s loaded from %s",
                                   pattern == NULL       ? "Replacement"
                                   : replacement == NULL ? "Pattern"
                                                         : "Pattern and replacement",
                                   base);

              _graft_window_replace_texts (self, pattern, replacement, title);
            }
        }
    }
  g_object_unref (dialog);
}

static void
load_patterns_cb (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       user_data)
{
  GraftWindow          *self = user_data;
  GtkFileChooserNative *dialog =
      gtk_file_chooser_native_new ("Open a Pattern File", GTK_WINDOW (self),
                                   GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", "_Cancel");
  static const char *const python[] = { "*.py", NULL };

  _graft_window_add_filter (GTK_FILE_CHOOSER (dialog), "Python Modules", python);
  g_signal_connect (dialog, "response", G_CALLBACK (load_patterns_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
save_patterns_response_cb (GtkNativeDialog *dialog,
                           int              response,
                           GraftWindow     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      g_autofree char *pattern = graft_pattern_editor_dup_text (self->pattern_editor);
      g_autofree char *replacement = graft_pattern_editor_dup_text (self->replacement_editor);
      g_autofree char *text = g_strdup_printf ("%s\n\n%s", g_strchomp (pattern), replacement);
      g_autoptr (GError) error = NULL;

      if (path == NULL)
        g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "not a local file");
      if (error != NULL || !graft_output_write_file (path, text, strlen (text), &error))
        _graft_window_report_error (self, "The patterns were not saved", error);
    }
  g_object_unref (dialog);
}

static void
save_patterns_cb (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       user_data)
{
  GraftWindow          *self = user_data;
  GtkFileChooserNative *dialog =
      gtk_file_chooser_native_new ("Save Pattern and Replacement", GTK_WINDOW (self),
                                   GTK_FILE_CHOOSER_ACTION_SAVE, "_Save", "_Cancel");

  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "rules.py");
  g_signal_connect (dialog, "response", G_CALLBACK (save_patterns_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Issue 6's "Create Pattern from Selection": the selected nodes become
 * the pattern, written as a person would write it (a function, or a
 * torch.nn.Module class whose submodules sit at the graph's paths when
 * the nodes call modules), and the replacement starts as a copy for the
 * user to edit. */
static void
pattern_from_selection_cb (GSimpleAction *action,
                           GVariant      *param,
                           gpointer       user_data)
{
  GraftWindow *self = user_data;
  GraftGraph  *graph = graft_document_get_graph (self->document);
  g_autoptr (GPtrArray) nodes = g_ptr_array_new ();
  g_autoptr (GraftGraph) extracted = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *pattern = NULL;
  g_autofree char *replacement = NULL;
  g_autofree char *text = NULL;

  /* Of two nodes of one name, the one selected. */
  _graft_window_get_selected_nodes (self, nodes);
  extracted = graft_extract_pattern_graph (graph, nodes, &error);
  if (extracted == NULL)
    {
      _graft_window_report_error (self, "No pattern", error);
      return;
    }
  pattern = graft_codegen_pattern_source (extracted, "pattern");
  replacement = graft_codegen_pattern_source (extracted, "replacement");
  text = g_strdup_printf ("Pattern made from %u node%s: edit the replacement", nodes->len,
                          nodes->len == 1 ? "" : "s");
  _graft_window_replace_texts (self, pattern, replacement, text);
  /* As the toast says: the replacement is shown, and the keyboard goes on
   * in it (from Find's bar, the canvas or a menu alike), at its body. */
  adw_flap_set_reveal_flap (self->side_flap, TRUE);
  gtk_stack_set_visible_child_name (self->editor_stack, "replacement");
  graft_pattern_editor_edit_body (self->replacement_editor);
}

static void
find_cb (GSimpleAction *action,
         GVariant      *param,
         gpointer       user_data)
{
  GraftWindow *self = user_data;

  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/* The current search hit as a one-node pattern. */
static void
search_to_pattern_cb (GSimpleAction *action,
                      GVariant      *param,
                      gpointer       user_data)
{
  GraftWindow *self = user_data;
  const char  *names[1] = { graft_search_get_current (self->search) };
  guint        places[1] = { graft_search_get_current_place (self->search) };

  if (names[0] == NULL)
    return;
  /* The hit's own node, of two of its name. */
  graft_canvas_set_selection_placed (self->canvas, names, places, 1);
  g_action_group_activate_action (G_ACTION_GROUP (self), "pattern-from-selection", NULL);
}

/* "Why not here?": the explainer's sentence in the bar under the header,
 * and the nodes the walk got through selected on the canvas. */
static void
explain_at_cb (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  GraftWindow  *self = user_data;
  GraftGraph   *graph = graft_document_get_graph (self->document);
  const char   *name = g_variant_get_string (param, NULL);
  GraftNode    *node = NULL;
  GraftPattern *pattern = graft_document_get_pattern (self->document);
  g_autoptr (GPtrArray) bound = NULL;
  g_autofree char *sentence = NULL;

  /* Of two nodes of one name, the one whose context menu asked. */
  if (self->menu_node >= 0 && self->menu_revision == graft_document_get_revision (self->document))
    node = _graft_window_node_at (self, (guint) self->menu_node);
  self->menu_node = -1;
  if (node == NULL || strcmp (graft_node_get_name (node), name) != 0)
    node = graft_graph_find_node (graph, name);
  if (node == NULL || pattern == NULL)
    return;
  sentence = graft_matcher_explain (pattern, graph, node, NULL, &bound);
  /* The nodes bound, not their names: of two nodes of one name, the one
   * the pattern bound. */
  _graft_window_select_nodes (self, bound);
  gtk_label_set_text (self->warning_label, sentence);
  gtk_revealer_set_reveal_child (self->warning_revealer, TRUE);
}

/* Delete (on the canvas): the selected nodes nothing else uses. */
static void
delete_selected_cb (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  GraftWindow *self = user_data;
  g_autoptr (GPtrArray) nodes = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  guint n;

  if (graft_canvas_get_n_selected (self->canvas) == 0)
    return;
  /* The nodes whose boxes are selected: of two nodes of one name, the
   * one selected (by names, every unused node of the name went). */
  _graft_window_get_selected_nodes (self, nodes);
  if (nodes->len == 0)
    return;
  n = graft_document_delete_graph_nodes (self->document, nodes, &error);
  if (n == 0)
    _graft_window_report_error (self, "Nothing deleted", error);
  else
    {
      g_autofree char *text = g_strdup_printf ("Deleted %u node%s", n, n == 1 ? "" : "s");

      graft_canvas_clear_selection (self->canvas);
      _graft_window_toast (self, text, TRUE);
      _graft_window_relayout (self, TRUE);
    }
}

/* The code before and after the last change, side by side: the window
 * opens at once and compares without stopping the main loop. */
static void
show_changes_cb (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       user_data)
{
  GraftWindow *self = user_data;
  GtkWidget   *window;

  if (graft_document_get_compared_change (self->document) < 0)
    return;
  window = graft_diff_window_new_for_document (GTK_WINDOW (self), self->document);
  gtk_window_present (GTK_WINDOW (window));
}

static void
restore_autosave_cb (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  _graft_window_restore_autosave (user_data);
}

static void
match_in_context_cb (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  GraftWindow *self = user_data;
  guint        match = g_variant_get_uint32 (param);
  GtkWidget   *window;

  /* The matches the list shows: asking for the count would find them at
   * once if they are being found again. */
  if (match >= graft_document_get_n_matches_shown (self->document))
    return;
  window = graft_context_window_new (GTK_WINDOW (self), self->document, match);
  gtk_window_present (GTK_WINDOW (window));
}

static void
expand_scope_cb (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       user_data)
{
  _graft_window_expand_scope (user_data, g_variant_get_string (param, NULL));
}

static void
collapse_scope_cb (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  _graft_window_collapse_scope (user_data, g_variant_get_string (param, NULL));
}

static void
expand_level_cb (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       user_data)
{
  _graft_window_expand_level (user_data);
}

static void
expand_all_cb (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  _graft_window_set_folding (user_data, FALSE);
}

static void
collapse_all_cb (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       user_data)
{
  _graft_window_set_folding (user_data, TRUE);
}

/* The shortcuts' titles wrap (at most 32 characters a line): GTK 4.8's
 * GtkShortcutsShortcut keeps its title on one line, and the longest
 * ("Move the split above the matches: then Up, Down, ...") made each
 * column so wide that the window asked 1,516 pixels, wider than a
 * 1366x768 laptop's screen, its second column cut off.  Wrapped, it asks
 * 713.  The labels of the keys themselves (GtkShortcutLabel's) stay.
 * A title keeps its own width at the start of its place: GtkShortcutsShortcut
 * gives it more than its column has, and "Compare the graphs ..." wrapped
 * at that width ran past the window's edge. */
static void
wrap_shortcut_titles (GtkWidget *widget,
                      gboolean   in_shortcut)
{
  if (GTK_IS_SHORTCUT_LABEL (widget))
    return;
  if (in_shortcut && GTK_IS_LABEL (widget))
    {
      gtk_label_set_wrap (GTK_LABEL (widget), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (widget), 28);
      gtk_widget_set_halign (widget, GTK_ALIGN_START);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    wrap_shortcut_titles (child, in_shortcut || GTK_IS_SHORTCUTS_SHORTCUT (widget));
}

/* F1 or Ctrl+?: the keyboard shortcuts, a window made the first time it
 * is asked for.  GtkApplication made one for every window it was given
 * (its resource at gtk/help-overlay.ui): 60 shortcuts in the turn that
 * made each editor window. */
static void
show_help_overlay_cb (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  GraftWindow        *self = user_data;
  GtkShortcutsWindow *overlay =
      gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (self));

  if (overlay == NULL)
    {
      g_autoptr (GtkBuilder) builder =
          gtk_builder_new_from_resource (RESOURCE_PATH "/shortcuts.ui");

      overlay = GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay"));
      wrap_shortcut_titles (GTK_WIDGET (overlay), FALSE);
      gtk_application_window_set_help_overlay (GTK_APPLICATION_WINDOW (self), overlay);
    }
  gtk_widget_set_visible (GTK_WIDGET (overlay), TRUE);
}

/* F9 or Ctrl+I: the properties panel shows or hides; the focus follows.
 * Shown from the canvas with nothing selected, it shows the node the
 * keyboard's ring is on (a match chosen by Ctrl+G), not "Select a node". */
static void
show_properties_cb (GSimpleAction *action,
                    GVariant      *state,
                    gpointer       user_data)
{
  GraftWindow *self = user_data;
  gboolean     show = g_variant_get_boolean (state);

  g_simple_action_set_state (action, state);
  if (show)
    graft_canvas_select_focus_node (self->canvas);
  _graft_window_show_properties (self, show, TRUE);
}

static const GActionEntry entries[] = {
  { "open", open_cb },
  { "open-recent", open_recent_cb, "s" },
  { "no-recent", NULL },
  { "save", save_cb },
  { "save-as", save_as_cb },
  { "save-and-close", save_and_close_cb },
  { "undo", undo_cb },
  { "redo", redo_cb },
  { "undo-change", undo_change_cb, "u" },
  { "undo-texts", undo_texts_cb },
  { "replace-all", replace_all_cb },
  { "replace-selected", replace_selected_cb },
  { "replace-match", replace_match_cb, "u" },
  { "next-match", next_match_cb },
  { "previous-match", previous_match_cb },
  { "zoom-in", zoom_in_cb },
  { "zoom-out", zoom_out_cb },
  { "zoom-reset", zoom_reset_cb },
  { "zoom-fit", zoom_fit_cb },
  { "dismiss-warnings", dismiss_warnings_cb },
  { "pattern-from-selection", pattern_from_selection_cb },
  { "find", find_cb },
  { "restore-autosave", restore_autosave_cb },
  { "show-changes", show_changes_cb },
  { "delete-selected", delete_selected_cb },
  { "explain-at", explain_at_cb, "s" },
  { "match-in-context", match_in_context_cb, "u" },
  { "expand-scope", expand_scope_cb, "s" },
  { "collapse-scope", collapse_scope_cb, "s" },
  { "expand-level", expand_level_cb },
  { "expand-all", expand_all_cb },
  { "collapse-all", collapse_all_cb },
  { "search-to-pattern", search_to_pattern_cb },
  { "load-patterns", load_patterns_cb },
  { "save-patterns", save_patterns_cb },
  { "torch", NULL, "s", "'2.6'", torch_cb },
  { "show-properties", NULL, NULL, "false", show_properties_cb },
  { "show-help-overlay", show_help_overlay_cb },
};

/**
 * _graft_window_class_add_actions:
 * @widget_class: the window class
 *
 * Nothing class-wide yet: the actions are per window (see
 * _graft_window_init_actions()), so that their enabled state is too.
 */
void
_graft_window_class_add_actions (GtkWidgetClass *widget_class)
{
}

/**
 * _graft_window_init_actions:
 * @self: a window
 *
 * Adds the win.* actions and keeps the recent-files menu current.
 */
void
_graft_window_init_actions (GraftWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  for (guint i = 0; i < 2; i++)
    {
      GtkEventController *keys = gtk_event_controller_key_new ();

      gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
      g_signal_connect_object (keys, "key-pressed", G_CALLBACK (editor_key_pressed_cb), self,
                               0);
      gtk_widget_add_controller (
          GTK_WIDGET (i == 0 ? self->pattern_editor : self->replacement_editor), keys);
    }
  /* Disconnected with the window's other handlers at dispose. */
  g_signal_connect (self->document, "replaced-all", G_CALLBACK (replaced_all_cb), self);
  g_signal_connect (self->document, "switched", G_CALLBACK (switched_cb), self);
  g_signal_connect (self->document, "moved", G_CALLBACK (moved_cb), self);
  _graft_window_init_rule_actions (self);
  _graft_window_init_compare_actions (self);
  _graft_window_init_export (self);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (
                                   g_action_map_lookup_action (G_ACTION_MAP (self), "no-recent")),
                               FALSE);
  g_signal_connect_object (gtk_recent_manager_get_default (), "changed",
                           G_CALLBACK (recent_changed_cb), self, 0);
  /* Filled in a turn of its own, not in the one that makes the window:
   * every file of the history is looked at (734 here, 3 ms). */
  recent_changed_cb (gtk_recent_manager_get_default (), self);
}

static void
set_enabled (GraftWindow *self,
             const char  *name,
             gboolean     enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

/**
 * _graft_window_update_torch:
 * @self: a window
 *
 * Makes the primary menu's choice of torch the document's.
 */
void
_graft_window_update_torch (GraftWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "torch");

  g_simple_action_set_state (G_SIMPLE_ACTION (action),
                             g_variant_new_string (
                                 graft_document_get_dialect (self->document)->name));
}

/**
 * _graft_window_update_actions:
 * @self: a window
 *
 * Enables what can be done now.
 */
void
_graft_window_update_actions (GraftWindow *self)
{
  gboolean has_graph = graft_document_get_load_error (self->document) == NULL &&
                       graft_graph_get_n_nodes (graft_document_get_graph (self->document)) > 0;
  const GError *fit_error = _graft_window_get_fit_error (self);
  gboolean      can_replace = has_graph &&
                         graft_document_get_n_matches_shown (self->document) > 0 &&
                         graft_document_get_replacement_error (self->document) == NULL &&
                         fit_error == NULL;
  /* Which match Replace would rewrite, asked once: a Find of many nodes
   * selects them all. */
  gint chosen = has_graph ? chosen_match (self) : -1;

  set_enabled (self, "save", has_graph && self->saving == 0);
  set_enabled (self, "save-as", has_graph && self->saving == 0);
  _graft_window_update_export (self, has_graph);
  set_enabled (self, "undo", graft_document_get_can_undo (self->document));
  set_enabled (self, "show-changes", graft_document_get_can_undo (self->document));
  set_enabled (self, "redo", graft_document_get_can_redo (self->document));
  set_enabled (self, "replace-all", can_replace);
  set_enabled (self, "replace-match", can_replace);
  set_enabled (self, "replace-selected", can_replace && chosen >= 0);
  _graft_window_explain_replace (self, fit_error);
  /* The canvas shows which match Replace would rewrite. */
  graft_canvas_set_chosen_match (self->canvas, chosen);
  set_enabled (self, "next-match", graft_document_get_n_matches_shown (self->document) > 0);
  set_enabled (self, "previous-match", graft_document_get_n_matches_shown (self->document) > 0);
  set_enabled (self, "pattern-from-selection",
               has_graph && graft_canvas_get_n_selected (self->canvas) > 0);
  set_enabled (self, "delete-selected",
               has_graph && graft_canvas_get_n_selected (self->canvas) > 0);
  set_enabled (self, "find", has_graph);
  set_enabled (self, "explain-at",
               has_graph && graft_document_get_pattern (self->document) != NULL);
  set_enabled (self, "search-to-pattern",
               has_graph && self->search != NULL &&
                   graft_search_get_current (self->search) != NULL);
  set_enabled (self, "zoom-in", has_graph);
  set_enabled (self, "zoom-out", has_graph);
  set_enabled (self, "zoom-reset", has_graph);
  set_enabled (self, "zoom-fit", has_graph);
  /* Folding and the context of a match need a graph to act on. */
  set_enabled (self, "expand-all", has_graph);
  set_enabled (self, "expand-level", has_graph);
  set_enabled (self, "collapse-all", has_graph);
  set_enabled (self, "expand-scope", has_graph);
  set_enabled (self, "collapse-scope", has_graph);
  set_enabled (self, "match-in-context",
               has_graph && graft_document_get_n_matches_shown (self->document) > 0);
  _graft_window_update_rule_actions (self, has_graph);
  _graft_window_update_compare_actions (self, has_graph);
}
