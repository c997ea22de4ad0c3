/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-window-rules.c: the window's actions on its rules: add, remove,
 * move, rename (a dialog) and leave out a rule; open and save a rules
 * file; export the enabled rules as a torch.fx pass; Run All, Next, Next
 * Match and Skip; go to a change of the history.  Each says in a toast
 * what it did, with Undo where there is something to undo; after a step,
 * the rule (and the match) the next step applies is chosen, so the canvas
 * shows what it will change.  The keys are the application's
 * (graft-application.c) and the rule list's own (graft-rules-panel.c).
 */
#include "config.h"

#include "graft-window-private.h"

/* The chosen rule's position. */
static guint
chosen_rule (GraftWindow *self)
{
  return graft_document_get_selected_rule (self->document);
}

static void
rule_add_cb (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  GraftWindow     *self = user_data;
  g_autofree char *title = NULL;
  g_autofree char *text = NULL;
  guint            position;

  _graft_window_flush_editors (self);
  position = graft_document_add_rule (self->document, NULL, NULL);
  title = graft_rule_dup_title (graft_document_get_rule (self->document, position));
  text = g_strdup_printf ("Added rule %s: edit its pattern and replacement", title);
  _graft_window_toast (self, text, TRUE);
}

static void
rule_remove_cb (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  GraftWindow     *self = user_data;
  guint            i = chosen_rule (self);
  g_autofree char *title = graft_rule_dup_title (graft_document_get_rule (self->document, i));
  g_autofree char *text = NULL;

  _graft_window_flush_editors (self);
  if (!graft_document_remove_rule (self->document, i))
    return;
  text = g_strdup_printf ("Removed rule %s", title);
  _graft_window_toast (self, text, TRUE);
}

static void
move_rule (GraftWindow *self,
           gint         by)
{
  guint i = chosen_rule (self);
  guint n = graft_document_get_n_rules (self->document);

  if ((by < 0 && i == 0) || (by > 0 && i + 1 >= n))
    return;
  _graft_window_flush_editors (self);
  graft_document_move_rule (self->document, i, (guint) ((gint) i + by));
}

static void
rule_move_up_cb (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       user_data)
{
  move_rule (user_data, -1);
}

static void
rule_move_down_cb (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  move_rule (user_data, 1);
}

static void
rule_toggle_cb (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  GraftWindow     *self = user_data;
  guint            i = chosen_rule (self);
  GraftRule       *rule = graft_document_get_rule (self->document, i);
  gboolean         enabled = !graft_rule_get_enabled (rule);
  g_autofree char *title = graft_rule_dup_title (rule);
  g_autofree char *text = NULL;

  graft_document_set_rule_enabled (self->document, i, enabled);
  text = g_strdup_printf ("%s rule %s", enabled ? "Took in" : "Left out", title);
  _graft_window_toast (self, text, TRUE);
}

/* The rename dialog's answer: the rule's functions take the new names. */
static void
rename_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    GraftWindow      *self)
{
  GtkEditable *pattern = g_object_get_data (G_OBJECT (dialog), "pattern-entry");
  GtkEditable *replacement = g_object_get_data (G_OBJECT (dialog), "replacement-entry");
  guint        i = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dialog), "rule"));
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *pattern_name = NULL;
  g_autofree char *replacement_name = NULL;

  if (g_strcmp0 (response, "rename") != 0 || i >= graft_document_get_n_rules (self->document))
    return;
  pattern_name = g_strstrip (g_strdup (gtk_editable_get_text (pattern)));
  replacement_name = g_strstrip (g_strdup (gtk_editable_get_text (replacement)));
  _graft_window_flush_editors (self);
  if (!graft_document_rename_rule (self->document, i, pattern_name, replacement_name, &error))
    {
      if (error != NULL)
        _graft_window_report_error (self, "The rule was not renamed", error);
      return;
    }
  text = g_strdup_printf ("Renamed the rule %s → %s", pattern_name, replacement_name);
  _graft_window_toast (self, text, TRUE);
}

static GtkWidget *
name_entry (const char *label,
            const char *name)
{
  GtkWidget *entry = gtk_entry_new ();

  gtk_editable_set_text (GTK_EDITABLE (entry), name != NULL ? name : "");
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
  return entry;
}

/* F2: the pattern's function names the rule, as the CLI and a pass name
 * it: renaming renames the definitions in the texts (one change of the
 * history). */
static void
rule_rename_cb (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  GraftWindow      *self = user_data;
  guint             i = chosen_rule (self);
  GraftRule        *rule = graft_document_get_rule (self->document, i);
  AdwMessageDialog *dialog;
  GtkWidget        *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget        *pattern = name_entry ("Pattern function", graft_rule_get_name (rule));
  GtkWidget        *replacement =
      name_entry ("Replacement function", graft_rule_get_replacement_name (rule));
  GtkWidget *pattern_label = gtk_label_new ("Pattern function (names the rule)");
  GtkWidget *replacement_label = gtk_label_new ("Replacement function");

  _graft_window_flush_editors (self);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), "Rename Rule", NULL));
  adw_message_dialog_format_body (dialog,
                                  "Rule %u is named by its functions, as a rules file, the CLI and "
                                  "a pass name it. Renaming renames their definitions.",
                                  i + 1);
  gtk_label_set_xalign (GTK_LABEL (pattern_label), 0);
  gtk_label_set_xalign (GTK_LABEL (replacement_label), 0);
  gtk_widget_add_css_class (pattern_label, "caption-heading");
  gtk_widget_add_css_class (replacement_label, "caption-heading");
  gtk_label_set_mnemonic_widget (GTK_LABEL (pattern_label), pattern);
  gtk_label_set_mnemonic_widget (GTK_LABEL (replacement_label), replacement);
  gtk_box_append (GTK_BOX (box), pattern_label);
  gtk_box_append (GTK_BOX (box), pattern);
  gtk_box_append (GTK_BOX (box), replacement_label);
  gtk_box_append (GTK_BOX (box), replacement);
  adw_message_dialog_set_extra_child (dialog, box);
  adw_message_dialog_add_responses (dialog, "cancel", "_Cancel", "rename", "_Rename", NULL);
  adw_message_dialog_set_response_appearance (dialog, "rename", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "rename");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_object_set_data (G_OBJECT (dialog), "pattern-entry", pattern);
  g_object_set_data (G_OBJECT (dialog), "replacement-entry", replacement);
  g_object_set_data (G_OBJECT (dialog), "rule", GUINT_TO_POINTER (i));
  g_signal_connect_object (dialog, "response", G_CALLBACK (rename_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (pattern);
}

/* The side panel, slid out for Ctrl+L, is mapped a frame later: the
 * chosen rule takes the focus then, if the Rules page is still shown. */
static void
rules_side_mapped_cb (GtkWidget   *flap,
                      GraftWindow *self)
{
  g_signal_handlers_disconnect_by_func (flap, rules_side_mapped_cb, self);
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->editor_stack), "rules") == 0)
    graft_rules_panel_focus_rules (self->rules_panel);
}

/* Ctrl+L: the Rules page, its chosen rule focused.  A side panel hidden
 * (folded away on a narrow window, or by Shift+F9) is shown first: the
 * page changed behind it, and the focus went nowhere. */
static void
show_rules_cb (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  GraftWindow *self = user_data;
  GtkWidget   *flap = adw_flap_get_flap (self->side_flap);

  gtk_stack_set_visible_child_name (self->editor_stack, "rules");
  if (!adw_flap_get_reveal_flap (self->side_flap) || !gtk_widget_get_mapped (flap))
    {
      g_signal_handlers_disconnect_by_func (flap, rules_side_mapped_cb, self);
      g_signal_connect (flap, "map", G_CALLBACK (rules_side_mapped_cb), self);
      adw_flap_set_reveal_flap (self->side_flap, TRUE);
      if (!gtk_widget_get_mapped (flap))
        return;
      g_signal_handlers_disconnect_by_func (flap, rules_side_mapped_cb, self);
    }
  graft_rules_panel_focus_rules (self->rules_panel);
}

/* What a file chooser of the Rules page does with the chosen file. */
typedef gboolean (*FileChosenFunc) (GraftWindow *self,
                                    GFile       *file);

typedef struct
{
  GraftWindow   *window; /* Borrowed: it outlives its dialogs */
  FileChosenFunc func;
} Chooser;

static void
chooser_response_cb (GtkNativeDialog *dialog,
                     int              response,
                     gpointer         user_data)
{
  Chooser *chooser = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      chooser->func (chooser->window, file);
    }
  g_free (chooser);
  g_object_unref (dialog);
}

/* Shows a file chooser for Python files (and, to open, any file) that
 * hands the chosen file to @func; @name, when saving, is the name offered. */
static void
choose_python_file (GraftWindow         *self,
                    const char          *title,
                    GtkFileChooserAction action,
                    const char          *accept_label,
                    const char          *name,
                    FileChosenFunc       func)
{
  static const char *const python[] = { "*.py", NULL };
  GtkFileChooserNative    *dialog =
      gtk_file_chooser_native_new (title, GTK_WINDOW (self), action, accept_label, "_Cancel");
  Chooser *chooser = g_new0 (Chooser, 1);

  chooser->window = self;
  chooser->func = func;
  _graft_window_add_filter (GTK_FILE_CHOOSER (dialog), "Python Modules", python);
  if (action == GTK_FILE_CHOOSER_ACTION_OPEN)
    _graft_window_add_filter (GTK_FILE_CHOOSER (dialog), "All Files", NULL);
  if (name != NULL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  g_signal_connect (dialog, "response", G_CALLBACK (chooser_response_cb), chooser);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
rules_open_cb (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  choose_python_file (user_data, "Open a Rules File", GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", NULL,
                      graft_window_open_rules);
}

/**
 * graft_window_open_rules:
 * @self: a window
 * @file: a rules file
 *
 * Makes @file's rules the window's (one change of the history, with Undo
 * in a toast) and puts the keyboard focus on the chosen rule; if it cannot
 * be read, a toast says where and why.
 *
 * Returns: whether the rules were read
 */
gboolean
graft_window_open_rules (GraftWindow *self,
                         GFile       *file)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *base = g_file_get_basename (file);
  g_autofree char *text = NULL;
  guint            n;

  g_return_val_if_fail (GRAFT_IS_WINDOW (self), FALSE);
  _graft_window_flush_editors (self);
  if (!graft_document_load_rules (self->document, file, &error))
    {
      g_autofree char *message = graft_error_format (error, NULL);

      text = g_strdup_printf ("The rules were not read: %s", message);
      _graft_window_toast (self, text, FALSE);
      return FALSE;
    }
  n = graft_document_get_n_rules (self->document);
  text = g_strdup_printf ("%u rule%s read from %s", n, n == 1 ? "" : "s", base);
  gtk_stack_set_visible_child_name (self->editor_stack, "rules");
  _graft_window_toast (self, text, TRUE);
  _graft_window_follow_next (self, FALSE);
  /* The keyboard goes on where the rules are: the file chooser, when it
   * closes, leaves the window with no focus, and Tab would start again in
   * the header bar (Open, Undo, Replace All). */
  graft_rules_panel_focus_rules (self->rules_panel);
  return TRUE;
}

/* Writes @file with @write (a document's save or export), then says in
 * a toast what came of it: @failure and the located error, or the file's
 * name between @before and @after. */
static gboolean
write_with_toast (GraftWindow *self,
                  GFile       *file,
                  gboolean (*write) (GraftDocument *, GFile *, GError **),
                  const char *failure,
                  const char *before,
                  const char *after)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *base = g_file_get_basename (file);
  g_autofree char *text = NULL;

  _graft_window_flush_editors (self);
  if (!write (self->document, file, &error))
    {
      g_autofree char *message = graft_error_format (error, NULL);

      text = g_strdup_printf ("%s: %s", failure, message);
      _graft_window_toast (self, text, FALSE);
      return FALSE;
    }
  text = g_strconcat (before, base, after, NULL);
  _graft_window_toast (self, text, FALSE);
  return TRUE;
}

/**
 * graft_window_save_rules_to:
 * @self: a window
 * @file: where to write the rules file
 *
 * Returns: whether the rules were saved (if not, a toast says why)
 */
gboolean
graft_window_save_rules_to (GraftWindow *self,
                            GFile       *file)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), FALSE);
  return write_with_toast (self, file, graft_document_save_rules, "The rules were not saved",
                           "Rules saved as ", "");
}

static void
rules_save_cb (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  choose_python_file (user_data, "Save the Rules File", GTK_FILE_CHOOSER_ACTION_SAVE, "_Save",
                      "rules.py", graft_window_save_rules_to);
}

/**
 * graft_window_export_pass_to:
 * @self: a window
 * @file: where to write the pass
 *
 * Returns: whether the pass was written (if not, a toast says why)
 */
gboolean
graft_window_export_pass_to (GraftWindow *self,
                             GFile       *file)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), FALSE);
  return write_with_toast (self, file, graft_document_export_pass, "The pass was not written",
                           "Exported ", ": run(gm) applies the rules");
}

static void
export_pass_cb (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  choose_python_file (user_data, "Export as a torch.fx Pass", GTK_FILE_CHOOSER_ACTION_SAVE,
                      "_Export", "graft_pass.py", graft_window_export_pass_to);
}

/* After a step or a run: the toast, the warnings, a layout that keeps the
 * view, and the rule (and match) the next step applies chosen. */
static void
after_step (GraftWindow *self,
            const char  *text)
{
  _graft_window_toast (self, text, TRUE);
  _graft_window_show_warnings (self);
  _graft_window_relayout (self, TRUE);
  _graft_window_follow_next (self, TRUE);
}

static void
run_all_cb (GSimpleAction *action,
            GVariant      *param,
            gpointer       user_data)
{
  GraftWindow *self = user_data;
  g_autoptr (GError) error = NULL;

  _graft_window_flush_editors (self);
  graft_document_settle (self->document);
  self->run_from = graft_document_get_position (self->document);
  /* The run goes over the turns to come (a million-node graph's took
   * seconds in one): the window shows the graph as it was until
   * ::ran-all. */
  if (!graft_document_begin_run_all (self->document, &error))
    _graft_window_report_error (self, "The rules did not run", error);
}

/* Run All is over (graft_document_begin_run_all()). */
static void
ran_all_cb (GraftDocument *document,
            guint          n,
            const GError  *error,
            gpointer       user_data)
{
  GraftWindow     *self = user_data;
  g_autofree char *text = NULL;
  guint            before = self->run_from;
  guint            steps = graft_document_get_position (self->document) - before;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      _graft_window_toast (self, "Run All cancelled: nothing changed", FALSE);
      return;
    }
  if (error != NULL)
    {
      _graft_window_report_error (self, "The rules did not run", error);
      return;
    }
  if (steps == 0)
    {
      _graft_window_toast (self, "The rules replaced nothing", FALSE);
      return;
    }
  text = g_strdup_printf ("Ran the rules: replaced %u match%s in %u step%s", n, n == 1 ? "" : "es",
                          steps, steps == 1 ? "" : "s");
  /* The toast's Undo takes the whole run back, as Ctrl+Z does (the
   * run's steps are joined in the history). */
  after_step (self, text);
}

static void
step_cb (GSimpleAction *action,
         GVariant      *param,
         gpointer       user_data)
{
  GraftWindow *self = user_data;
  g_autoptr (GError) error = NULL;

  _graft_window_flush_editors (self);
  if (!graft_document_step (self->document, &error))
    {
      _graft_window_report_error (self, "No step", error);
      return;
    }
  after_step (self, graft_document_get_history_label (
                        self->document, graft_document_get_position (self->document) - 1));
}

static void
step_match_cb (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  GraftWindow *self = user_data;
  g_autoptr (GError) error = NULL;

  _graft_window_flush_editors (self);
  if (!graft_document_step_match (self->document, &error))
    {
      _graft_window_report_error (self, "No step", error);
      return;
    }
  after_step (self, graft_document_get_history_label (
                        self->document, graft_document_get_position (self->document) - 1));
}

static void
skip_match_cb (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  GraftWindow *self = user_data;

  _graft_window_flush_editors (self);
  if (graft_document_skip_match (self->document))
    {
      _graft_window_toast (self, "Skipped: the rule’s call leaves that match alone", FALSE);
      _graft_window_follow_next (self, TRUE);
    }
}

/* A row of the History list chosen: the document goes there, undoing or
 * redoing each change in between. */
static void
history_go_to_cb (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       user_data)
{
  GraftWindow *self = user_data;
  guint        position = g_variant_get_uint32 (param);
  char        *text;

  graft_document_settle (self->document);
  if (position > graft_document_get_history_length (self->document) ||
      position == graft_document_get_position (self->document))
    return;
  _graft_window_flush_editors (self);
  /* Flushing the editors may have recorded a change, dropping the rest. */
  if (position > graft_document_get_history_length (self->document))
    return;
  if (position == 0)
    text = g_strdup ("The graph as opened");
  else
    text = g_strdup_printf ("After: %s",
                            graft_document_get_history_label (self->document, position - 1));
  /* Over the turns to come: the toast and the rest at ::moved. */
  _graft_window_begin_move (self, position, text, TRUE);
}

static const GActionEntry rule_entries[] = {
  { "show-rules", show_rules_cb },
  { "rule-add", rule_add_cb },
  { "rule-remove", rule_remove_cb },
  { "rule-move-up", rule_move_up_cb },
  { "rule-move-down", rule_move_down_cb },
  { "rule-rename", rule_rename_cb },
  { "rule-toggle", rule_toggle_cb },
  { "rules-open", rules_open_cb },
  { "rules-save", rules_save_cb },
  { "export-pass", export_pass_cb },
  { "run-all", run_all_cb },
  { "step", step_cb },
  { "step-match", step_match_cb },
  { "skip-match", skip_match_cb },
  { "history-go-to", history_go_to_cb, "u" },
};

/**
 * _graft_window_init_rule_actions:
 * @self: a window
 *
 * Adds the rules' win.* actions.
 */
void
_graft_window_init_rule_actions (GraftWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), rule_entries,
                                   G_N_ELEMENTS (rule_entries), self);
  /* Disconnected with the window's other handlers at dispose. */
  g_signal_connect (self->document, "ran-all", G_CALLBACK (ran_all_cb), self);
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
 * _graft_window_update_rule_actions:
 * @self: a window
 * @has_graph: there is a graph to rewrite
 *
 * Enables the rules' actions that can run now.
 */
void
_graft_window_update_rule_actions (GraftWindow *self,
                                   gboolean     has_graph)
{
  guint         n_rules = graft_document_get_n_rules (self->document);
  guint         chosen = graft_document_get_selected_rule (self->document);
  GraftNextStep next;

  set_enabled (self, "rule-remove", n_rules > 1);
  set_enabled (self, "rule-move-up", chosen > 0);
  set_enabled (self, "rule-move-down", chosen + 1 < n_rules);
  set_enabled (self, "run-all", has_graph);
  /* The next step depends on the matches: while they are found again,
   * the steps stay as they were until `rules-changed` says it is known. */
  if (graft_document_get_matches_pending (self->document))
    return;
  graft_document_get_next_step (self->document, &next);
  set_enabled (self, "step",
               has_graph && (next.kind == GRAFT_NEXT_RULE || next.kind == GRAFT_NEXT_DCE));
  set_enabled (self, "step-match",
               has_graph && (next.kind == GRAFT_NEXT_RULE || next.kind == GRAFT_NEXT_DCE));
  set_enabled (self, "skip-match", has_graph && next.kind == GRAFT_NEXT_RULE);
}
