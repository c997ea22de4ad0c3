/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-workflow.c: the editor's round trip as a user makes it, under a
 * display (Xvfb in CI).
 *
 * - A file that could not be read is read again by itself when it
 *   changes on disk (no bar to press: there was nothing to lose), so that
 *   fixing its syntax error in another editor shows the graph; meanwhile
 *   the Code page says why it has no code.
 * - Replace goes on to the next match, as a text editor's does: the match
 *   that took the replaced one's place is chosen, so Shift+Ctrl+R again
 *   replaces it, down to the last.
 * - Alt+1 to Alt+4 show the Pattern, Replacement, Rules and Code pages
 *   with the keyboard in them, sliding a folded side panel out.
 */
#include "config.h"

#include "example.h"
#include "window-util.h"

#include "graft-application.h"
#include "graft-document-private.h"
#include "graft-rules-panel.h"
#include "graft-turns.h"
#include "graft-window-private.h"

#include <glib/gstdio.h>
#include <string.h>

static gboolean
load_failed (gpointer window)
{
  return !graft_window_get_busy (window) && !graft_window_get_pending (window) &&
         !graft_window_get_watch_pending (window) &&
         graft_document_get_load_error (graft_window_get_document (window)) != NULL;
}

static gboolean
graph_read (gpointer window)
{
  GraftDocument *document = graft_window_get_document (window);

  return layout_ready (window) && graft_document_get_load_error (document) == NULL &&
         graft_graph_get_n_nodes (graft_document_get_graph (document)) > 0;
}

#define BROKEN_MODEL                                                         \
  "import torch\n\n\nclass M(torch.nn.Module):\n    def forward(self, x):\n" \
  "        y = torch.relu(x\n        return y\n"
#define FIXED_MODEL                                                          \
  "import torch\n\n\nclass M(torch.nn.Module):\n    def forward(self, x):\n" \
  "        y = torch.relu(x)\n        return y\n"

/* A file that could not be read, fixed on disk, is read again by itself;
 * once read, a change of it asks first (the bar), as before. */
static void
test_unread_file_read_again (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-reread-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "model.py", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *code = NULL;
  GraftWindow     *window = g_object_new (GRAFT_TYPE_WINDOW, NULL);
  GraftDocument   *document = graft_window_get_document (window);
  guint            line = 0;

  g_assert_true (g_file_set_contents (path, BROKEN_MODEL, -1, NULL));
  gtk_window_present (GTK_WINDOW (window));
  graft_window_open_file (window, file);
  iterate_until (load_failed, window);
  g_assert_true (graft_error_get_location (graft_document_get_load_error (document), NULL, &line,
                                           NULL, NULL, NULL));
  g_assert_cmpuint (line, ==, 6);
  /* The Code page says why it is empty: it was a blank text with a
   * cursor, as if the code were still to come. */
  gtk_stack_set_visible_child_name (window->editor_stack, "code");
  iterate_pending ();
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->code_note)));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (window->code_note),
                                   "No code: the file could not be read.\n"));
  g_assert_nonnull (strstr (gtk_label_get_text (window->code_note), "model.py:6:"));
  /* Under the note, no line 1 with a cursor either. */
  g_assert_false (gtk_source_view_get_show_line_numbers (GTK_SOURCE_VIEW (window->code_view)));
  g_assert_false (gtk_text_view_get_cursor_visible (window->code_view));
  g_assert_false (
      gtk_source_view_get_highlight_current_line (GTK_SOURCE_VIEW (window->code_view)));

  /* Fixed in another editor: the graph shows, no bar, and its code. */
  g_assert_true (g_file_set_contents (path, FIXED_MODEL, -1, NULL));
  iterate_until (graph_read, window);
  g_assert_null (graft_window_get_file_notice (window));
  g_assert_nonnull (graft_graph_find_node (graft_document_get_graph (document), "relu"));
  g_assert_false (graft_document_get_modified (document));
  iterate_pending ();
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->code_note)));
  code = buffer_text (gtk_text_view_get_buffer (window->code_view));
  g_assert_nonnull (strstr (code, "relu = torch.relu(x)"));
  g_assert_true (gtk_source_view_get_show_line_numbers (GTK_SOURCE_VIEW (window->code_view)));
  g_assert_true (gtk_text_view_get_cursor_visible (window->code_view));
  g_assert_true (gtk_source_view_get_highlight_current_line (GTK_SOURCE_VIEW (window->code_view)));

  /* A graph that was read is not thrown away unasked. */
  g_assert_true (g_file_set_contents (path, BROKEN_MODEL, -1, NULL));
  iterate_until (has_file_notice, window);
  g_assert_null (graft_document_get_load_error (document));
  g_assert_nonnull (graft_graph_find_node (graft_document_get_graph (document), "relu"));
  iterate_pending ();
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->code_note)));

  /* Read again when asked (the bar's Reload), broken: the note and the
   * blank view are back, the code of the graph read before gone. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "reload-file", NULL);
  iterate_until (load_failed, window);
  iterate_pending ();
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->code_note)));
  g_assert_nonnull (strstr (gtk_label_get_text (window->code_note), "model.py:6:"));
  g_clear_pointer (&code, g_free);
  code = buffer_text (gtk_text_view_get_buffer (window->code_view));
  g_assert_cmpstr (code, ==, "");
  g_assert_false (gtk_source_view_get_show_line_numbers (GTK_SOURCE_VIEW (window->code_view)));
  close_window (window);
  g_unlink (path);
  g_rmdir (dir);
}

/* The page of a file that cannot be read shows the error as it is (the
 * status page's description is markup: `<class 'range'>` was a markup
 * error, and the page showed no message), says the file is read again
 * when it changes, and offers to open another. */
static void
test_error_page (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "errors",
                                            "trace_range_argument.py", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GSettings) settings = g_settings_new (APPLICATION_ID);
  GraftWindow *window;
  GtkWidget   *description;
  GtkWidget   *button;
  const char  *text;

  /* torch 1.13 refuses a range as an argument, in those words. */
  g_settings_set_string (settings, "torch", "1.13");
  window = g_object_new (GRAFT_TYPE_WINDOW, NULL);
  g_settings_reset (settings, "torch");
  gtk_window_present (GTK_WINDOW (window));
  graft_window_open_file (window, file);
  iterate_until (load_failed, window);
  iterate_until_drawn (GTK_WIDGET (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->content_stack), ==, "error");
  description = find_styled (GTK_WIDGET (window->error_page), "description");
  g_assert_nonnull (description);
  text = gtk_label_get_text (GTK_LABEL (description));
  g_assert_true (g_str_has_suffix (
      text, "trace_range_argument.py:6:16: error: NotImplementedError: argument of type: "
            "<class 'range'>\n\nThe window reads the file again when it changes on disk."));
  button = find_widget (GTK_WIDGET (window->error_page), GTK_TYPE_BUTTON);
  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, "win.open");
  close_window (window);
}

/* A program read as torch 1.13 speaks: the file is fine, the torch is
 * not, and the page says which to choose instead of waiting for the
 * file to change. */
static void
test_error_page_torch (void)
{
  g_autofree char *path =
      g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "programs", "resnet18.pt2", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GSettings) settings = g_settings_new (APPLICATION_ID);
  GraftWindow *window;
  GtkWidget   *description;

  g_settings_set_string (settings, "torch", "1.13");
  window = g_object_new (GRAFT_TYPE_WINDOW, NULL);
  g_settings_reset (settings, "torch");
  gtk_window_present (GTK_WINDOW (window));
  graft_window_open_file (window, file);
  iterate_until (load_failed, window);
  description = find_styled (GTK_WIDGET (window->error_page), "description");
  g_assert_nonnull (description);
  g_assert_true (
      g_str_has_suffix (gtk_label_get_text (GTK_LABEL (description)),
                        "a torch.export program needs torch 2.6 (--torch 2.6)\n\n"
                        "Switch to torch 2.6 in the main menu (F10, then 2) to read it."));
  close_window (window);
}

/* A new window's Rules page says there is no graph, not "Opened
 * Untitled" and "Done: no rule has a match" as if the rules had looked;
 * once a file is open, as before. */
static void
test_rules_page_empty (void)
{
  GraftWindow     *window = g_object_new (GRAFT_TYPE_WINDOW, NULL);
  GraftDocument   *document = graft_window_get_document (window);
  GtkListView     *list;
  g_autofree char *next = NULL;
  g_autofree char *path = example_path ();
  g_autoptr (GFile) file = g_file_new_for_path (path);

  gtk_window_present (GTK_WINDOW (window));
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-rules", NULL);
  iterate_until_drawn (GTK_WIDGET (window));
  list = graft_rules_panel_get_history_list (graft_window_get_rules_panel (window));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (list))), ==,
                    1);
  {
    g_autoptr (GtkStringObject) row =
        g_list_model_get_item (G_LIST_MODEL (gtk_list_view_get_model (list)), 0);

    g_assert_cmpstr (gtk_string_object_get_string (row), ==, "No graph open");
  }
  next = graft_document_dup_next_text (document);
  g_assert_cmpstr (next, ==, "Nothing to run: no graph is open");
  g_clear_pointer (&next, g_free);

  graft_window_open_file (window, file);
  iterate_until (layout_ready, window);
  {
    g_autoptr (GtkStringObject) row =
        g_list_model_get_item (G_LIST_MODEL (gtk_list_view_get_model (list)), 0);

    g_assert_cmpstr (gtk_string_object_get_string (row), ==,
                     "Opened subgraph_rewriter_basic_use.py");
  }
  next = graft_document_dup_next_text (document);
  g_assert_true (g_str_has_prefix (next, "Next: pass 1"));
  close_window (window);
}

/* A file that could not be read, deleted: the bar says so, without
 * "the window keeps the graph" (there is none); put back fixed, it is
 * read. */
static void
test_unread_file_deleted (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-reread-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "model.py", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GraftWindow *window = g_object_new (GRAFT_TYPE_WINDOW, NULL);

  g_assert_true (g_file_set_contents (path, BROKEN_MODEL, -1, NULL));
  gtk_window_present (GTK_WINDOW (window));
  graft_window_open_file (window, file);
  iterate_until (load_failed, window);
  g_assert_cmpint (g_unlink (path), ==, 0);
  iterate_until (has_file_notice, window);
  g_assert_cmpstr (graft_window_get_file_notice (window), ==,
                   "“model.py” was deleted or moved away on disk.");
  g_assert_true (g_file_set_contents (path, FIXED_MODEL, -1, NULL));
  iterate_until (graph_read, window);
  g_assert_null (graft_window_get_file_notice (window));
  close_window (window);
  g_unlink (path);
  g_rmdir (dir);
}

/* A file fixed on disk while the window reads it (broken) again: the
 * change, its event dropped during the read, is not lost: the window
 * reads it once more and shows the graph.  It stayed on the error, the
 * fixed file's etag taken as the version read. */
static void
test_changed_while_read (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-reread-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "model.py", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GraftWindow *window = g_object_new (GRAFT_TYPE_WINDOW, NULL);

  g_assert_true (g_file_set_contents (path, BROKEN_MODEL, -1, NULL));
  gtk_window_present (GTK_WINDOW (window));
  graft_window_open_file (window, file);
  iterate_until (load_failed, window);
  /* Read again; the worker reads the broken text while the main loop
   * does not run, and the fixed one is written before the read is
   * installed. */
  graft_window_open_file (window, file);
  g_usleep (G_USEC_PER_SEC);
  g_assert_true (g_file_set_contents (path, FIXED_MODEL, -1, NULL));
  iterate_until (graph_read, window);
  g_assert_null (graft_window_get_file_notice (window));
  close_window (window);
  g_unlink (path);
  g_rmdir (dir);
}

/* Replace chooses the match after the one it replaced (or the last), so
 * that Replace again goes on down the list. */
static void
test_replace_goes_on (void)
{
  GraftWindow   *window = open_example ();
  GraftDocument *document = graft_window_get_document (window);

  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 2);
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "replace-selected"));

  /* The first of two: the second, now the first, is chosen. */
  graft_window_select_match (window, 0);
  activate (window, "replace-selected", NULL);
  iterate_until (matches_known, window);
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 1);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 0);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "replace-selected"));
  activate (window, "replace-selected", NULL);
  iterate_until (matches_known, window);
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 0);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, -1);

  /* Undone, the Replace chooses the match it had replaced again. */
  activate (window, "undo", NULL);
  iterate_until (matches_known, window);
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 1);
  activate (window, "undo", NULL);
  iterate_until (matches_known, window);
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 2);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 0);
  activate (window, "redo", NULL);
  iterate_until (matches_known, window);
  activate (window, "redo", NULL);
  iterate_until (matches_known, window);
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 0);

  /* The last of two: the one before it is chosen. */
  graft_document_undo (document);
  graft_document_undo (document);
  iterate_until (matches_known, window);
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 2);
  graft_window_select_match (window, 1);
  activate (window, "replace-selected", NULL);
  iterate_until (matches_known, window);
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 1);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 0);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "replace-selected"));
  activate (window, "undo", NULL);
  iterate_until (matches_known, window);
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 2);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 1);

  /* Undone while another rule is chosen, the Replace of the second match
   * chooses no match of that rule (not its second): its matches are not
   * the ones the Replace knew. */
  {
    GraftRule       *first = graft_document_get_rule (document, 0);
    g_autofree char *replacement =
        g_strconcat (graft_rule_get_replacement_text (first), "\n# another rule\n", NULL);
    guint other =
        graft_document_add_rule (document, graft_rule_get_pattern_text (first), replacement);

    graft_document_select_rule (document, 0);
    iterate_until (matches_known, window);
    graft_window_select_match (window, 1);
    activate (window, "replace-selected", NULL);
    iterate_until (matches_known, window);
    g_assert_cmpuint (graft_document_get_n_matches (document), ==, 1);
    graft_document_select_rule (document, other);
    iterate_until (matches_known, window);
    /* The match list keeps its choice (the first) across the switch. */
    g_assert_cmpint (graft_window_get_selected_match (window), ==, 0);
  }
  activate (window, "undo", NULL);
  iterate_until (matches_known, window);
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 2);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 0);
  close_window (window);
}

static gboolean
moved (gpointer window)
{
  return GRAFT_WINDOW (window)->move_toast == NULL;
}

/* A job that runs alone, so that no other runs while the window reads a
 * file. */
static gboolean
hold_while_loading_cb (gpointer window)
{
  return GRAFT_WINDOW (window)->loading ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

#define MAX_PATTERN "import torch\n\n\ndef pattern(x):\n    return torch.max(x)\n"

/* The choice a Replace (or an undone one) leaves for the matches to come
 * is of the graph it made and of its pattern.  Where they are found by
 * steps (a large graph; here one step of work a turn), the matches of a
 * pattern typed meanwhile, or of a file opened meanwhile, had their match
 * N chosen (0, 1 and 0 here on main). */
static void
test_replace_choice_dropped (void)
{
  GraftWindow     *window = open_example ();
  GraftDocument   *document = graft_window_get_document (window);
  g_autofree char *path = example_path ();
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *pattern = g_strdup (graft_document_get_pattern_text (document));

  _graft_document_set_match_step (1);
  /* A pattern typed while the matches after a Replace are found. */
  graft_window_select_match (window, 0);
  g_action_group_activate_action (G_ACTION_GROUP (window), "replace-selected", NULL);
  g_assert_true (graft_document_get_matches_pending (document));
  graft_document_set_pattern_text (document, MAX_PATTERN);
  iterate_until (matches_known, window);
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 2);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, -1);

  /* The same after an undone Replace, which chooses its match again. */
  graft_document_undo (document);
  graft_document_undo (document);
  graft_document_set_pattern_text (document, pattern);
  iterate_until (matches_known, window);
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 2);
  graft_window_select_match (window, 1);
  activate (window, "replace-selected", NULL);
  iterate_until (matches_known, window);
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);
  iterate_until (moved, window);
  g_assert_true (graft_document_get_matches_pending (document));
  graft_document_set_pattern_text (document, MAX_PATTERN);
  iterate_until (matches_known, window);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, -1);

  /* A file opened while the matches after a Replace are found, none
   * chosen (a row's Replace button). */
  graft_document_set_pattern_text (document, pattern);
  iterate_until (matches_known, window);
  gtk_single_selection_set_selected (window->match_selection, GTK_INVALID_LIST_POSITION);
  g_action_group_activate_action (G_ACTION_GROUP (window), "replace-match",
                                  g_variant_new_uint32 (0));
  g_assert_true (graft_document_get_matches_pending (document));
  /* Read on a worker, and installed before the search goes on. */
  graft_turns_add_alone (hold_while_loading_cb, window, NULL);
  graft_window_open_file (window, file);
  iterate_until (matches_known, window);
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 2);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, -1);
  _graft_document_set_match_step (0);
  close_window (window);
}

#define RELUS_MODEL                                                                   \
  "import torch\n\n\nclass M(torch.nn.Module):\n    def forward(self, x):\n"          \
  "        a = torch.relu(x)\n        b = torch.relu(a)\n        c = torch.relu(b)\n" \
  "        return torch.relu(c)\n\n\ndef pattern(x):\n    return torch.relu(x)\n\n\n" \
  "def replacement(x):\n    return torch.sigmoid(x)\n"

/* A match the user chooses while the matches after a Replace are found
 * by steps is the one chosen once they are in: the Replace's choice (the
 * match that took the replaced one's place) came after and took its
 * place.  Here the fourth of four relus is chosen after the first is
 * replaced: the third of three once found, not the first. */
static void
test_replace_choice_yields (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-relus-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "relus.py", NULL);
  GraftWindow     *window;
  GraftDocument   *document;

  g_assert_true (g_file_set_contents (path, RELUS_MODEL, -1, NULL));
  window = open_path (path);
  document = graft_window_get_document (window);
  iterate_until (matches_known, window);
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 4);
  _graft_document_set_match_step (1);
  graft_window_select_match (window, 0);
  g_action_group_activate_action (G_ACTION_GROUP (window), "replace-selected", NULL);
  g_assert_true (graft_document_get_matches_pending (document));
  graft_window_select_match (window, 3);
  g_assert_true (graft_document_get_matches_pending (document));
  iterate_until (matches_known, window);
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 3);
  g_assert_cmpint (graft_window_get_selected_match (window), ==, 2);
  _graft_document_set_match_step (0);
  close_window (window);
  g_unlink (path);
  g_rmdir (dir);
}

static gboolean
focus_in_widget (GraftWindow *window,
                 GtkWidget   *widget)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

typedef struct
{
  GraftWindow *window;
  GtkWidget   *widget;
} FocusWait;

static gboolean
focus_reached (gpointer data)
{
  FocusWait *wait = data;

  return focus_in_widget (wait->window, wait->widget);
}

/* Shows page @name as Alt+N does, and waits for the keyboard to be in
 * @widget. */
static void
show_page (GraftWindow *window,
           const char  *name,
           GtkWidget   *widget)
{
  FocusWait wait = { window, widget };

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-page",
                                  g_variant_new_string (name));
  iterate_until (focus_reached, &wait);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->editor_stack), ==, name);
}

/* Shift+F9 from inside the side panel hides it and leaves the keyboard
 * on the canvas: it went to the header bar's Open button. */
static void
test_hide_panel_focus (void)
{
  GraftWindow *window = open_example ();

  show_page (window, "pattern",
             find_text_view (graft_window_get_pattern_editor (window, FALSE)));
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-side-panel",
                                      g_variant_new_boolean (FALSE));
  iterate_until (flap_settled, window->side_flap);
  g_assert_false (adw_flap_get_reveal_flap (window->side_flap));
  g_assert_true (focus_in_widget (window, GTK_WIDGET (graft_window_get_canvas (window))));
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-side-panel",
                                      g_variant_new_boolean (TRUE));
  close_window (window);
}

/* Alt+1 to Alt+4: each page shown with the keyboard in it, from the
 * canvas, from another page, and with the side panel folded away. */
static void
test_page_keys (void)
{
  static const struct
  {
    const char *accel;
    const char *page;
  } keys[] = {
    { "<Alt>1", "pattern" },
    { "<Alt>2", "replacement" },
    { "<Alt>3", "rules" },
    { "<Alt>4", "code" },
  };
  g_autoptr (GError) error = NULL;
  GraftApplication *app = graft_application_new ();
  GraftWindow      *window;
  GtkWidget        *pattern_text;
  GtkWidget        *replacement_text;

  /* The keys are the application's. */
  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_auto (GStrv) actions = gtk_application_get_actions_for_accel (GTK_APPLICATION (app),
                                                                      keys[i].accel);
      g_autofree char *wanted = g_strdup_printf ("win.show-page::%s", keys[i].page);

      g_assert_nonnull (actions);
      g_assert_cmpstr (actions[0], ==, wanted);
      g_assert_null (actions[1]);
    }

  window = open_example ();
  pattern_text = find_text_view (GTK_WIDGET (window->pattern_editor));
  replacement_text = find_text_view (GTK_WIDGET (window->replacement_editor));
  gtk_widget_grab_focus (GTK_WIDGET (window->canvas));
  show_page (window, "replacement", replacement_text);
  show_page (window, "code", GTK_WIDGET (window->code_view));
  show_page (window, "pattern", pattern_text);
  show_page (window, "rules", GTK_WIDGET (window->rules_panel));
  show_page (window, "replacement", replacement_text);
  close_window (window);

  /* Folded away on a narrow window, the panel slides out. */
  window = open_example_sized (800, 600);
  iterate_until (flap_settled, window->side_flap);
  g_assert_true (adw_flap_get_folded (window->side_flap));
  g_assert_false (adw_flap_get_reveal_flap (window->side_flap));
  gtk_widget_grab_focus (GTK_WIDGET (window->canvas));
  show_page (window, "replacement",
             replacement_text = find_text_view (GTK_WIDGET (window->replacement_editor)));
  g_assert_true (adw_flap_get_reveal_flap (window->side_flap));
  close_window (window);
  g_application_set_default (NULL);
  g_object_unref (app);
}

/* A pattern typed whose parameters the replacement does not take: the
 * replacement's page, hidden, says so in a wrapped label, and GtkStack
 * measured that page's width at its least height (the label on one
 * line, 910 pixels): the side panel no longer fitted beside the canvas
 * of a 1120x700 window and folded away under the typing, the keyboard
 * going to the header bar's Open button. */
static void
test_typing_keeps_panel (void)
{
  g_autofree char *path = example_path ();
  GraftWindow     *window = open_path_sized (path, 1120, 700);
  GtkWidget       *editor = graft_window_get_pattern_editor (window, FALSE);
  GtkTextBuffer   *buffer = graft_pattern_editor_get_buffer (GRAFT_PATTERN_EDITOR (editor));
  GtkWidget       *text = find_text_view (editor);
  const char      *error;
  GtkTextIter      start;
  GtkTextIter      end;

  iterate_until (flap_settled, window->side_flap);
  g_assert_false (adw_flap_get_folded (window->side_flap));
  g_assert_true (adw_flap_get_reveal_flap (window->side_flap));
  gtk_widget_grab_focus (text);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_delete (buffer, &start, &end);
  gtk_text_buffer_insert_at_cursor (buffer,
                                    "import torch\n\n\ndef pattern(x):\n"
                                    "    return torch.neg(x)\n",
                                    -1);
  graft_pattern_editor_flush (GRAFT_PATTERN_EDITOR (editor));
  iterate_until (layout_ready, window);
  error = graft_pattern_editor_get_error_text (
      GRAFT_PATTERN_EDITOR (graft_window_get_pattern_editor (window, TRUE)));
  g_assert_nonnull (strstr (error, "the pattern takes 1 parameter"));
  iterate_until_drawn (GTK_WIDGET (window));
  iterate_until (flap_settled, window->side_flap);
  g_assert_false (adw_flap_get_folded (window->side_flap));
  g_assert_true (adw_flap_get_reveal_flap (window->side_flap));
  /* The window's focus widget: gtk_widget_has_focus() also wants the
   * window active, which another suite's window on the display may be
   * (it failed so under ASan beside ui-canvas-keys). */
  g_assert_true (focus_in_widget (window, text));

  /* Shown, the page wraps its error to the panel's width. */
  show_page (window, "replacement",
             find_text_view (graft_window_get_pattern_editor (window, TRUE)));
  iterate_until_drawn (GTK_WIDGET (window));
  iterate_until (flap_settled, window->side_flap);
  g_assert_false (adw_flap_get_folded (window->side_flap));
  close_window (window);
}

/* The shortcuts window (Ctrl+?) fits a 1000-pixel-wide screen: its
 * titles, on one line, made it ask 1,516 pixels. */
static void
test_shortcuts_width (void)
{
  GraftWindow *window = open_example ();
  GtkWindow   *overlay;
  int          width = 0;

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-help-overlay", NULL);
  overlay = GTK_WINDOW (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_assert_nonnull (overlay);
  iterate_until_drawn (GTK_WIDGET (overlay));
  gtk_widget_measure (GTK_WIDGET (overlay), GTK_ORIENTATION_HORIZONTAL, -1, &width, NULL, NULL,
                      NULL);
  g_assert_cmpint (width, <=, 1000);
  gtk_window_close (overlay);
  close_window (window);
}

/* Each page of the shortcuts window fits a 1366x768 laptop's screen
 * under its top bar and the window's own title bar: it was 854 pixels
 * tall, the Canvas page's one column of 19 wrapped titles. */
static void
test_shortcuts_height (void)
{
  static const char *const sections[] = { "shortcuts", "rules", "canvas", "panes" };
  GraftWindow             *window = open_example ();
  GtkWindow               *overlay;

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-help-overlay", NULL);
  overlay = GTK_WINDOW (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_assert_nonnull (overlay);
  for (guint i = 0; i < G_N_ELEMENTS (sections); i++)
    {
      int width = 0;
      int height = 0;

      g_object_set (overlay, "section-name", sections[i], NULL);
      iterate_until_drawn (GTK_WIDGET (overlay));
      gtk_widget_measure (GTK_WIDGET (overlay), GTK_ORIENTATION_HORIZONTAL, -1, NULL, &width, NULL,
                          NULL);
      gtk_widget_measure (GTK_WIDGET (overlay), GTK_ORIENTATION_VERTICAL, width, &height, NULL,
                          NULL, NULL);
      g_test_message ("%s: %d x %d", sections[i], width, height);
      g_assert_cmpint (height, <=, 680);
    }
  gtk_window_close (overlay);
  close_window (window);
}

/* Whether @widget is a label shown whose text runs past @section's right
 * edge. */
static gboolean
is_label_past (GtkWidget    *widget,
               gconstpointer section)
{
  graphene_rect_t bounds;
  int             width = 0;

  if (!GTK_IS_LABEL (widget) || !gtk_widget_get_mapped (widget) ||
      !gtk_widget_compute_bounds (widget, GTK_WIDGET (section), &bounds))
    return FALSE;
  pango_layout_get_pixel_size (gtk_label_get_layout (GTK_LABEL (widget)), &width, NULL);
  return bounds.origin.x + width > gtk_widget_get_width (GTK_WIDGET (section));
}

/* Every title of the shortcuts window is inside its page: GTK 4.8's
 * GtkShortcutsShortcut gives a title more width than its column has,
 * and "Compare the graphs before and after the last change", wrapped at
 * that width, ran 45 pixels past the window's edge (1366x768). */
static void
test_shortcuts_titles_inside (void)
{
  static const char *const sections[] = { "shortcuts", "rules", "canvas", "panes" };
  GraftWindow             *window = open_example ();
  GtkWindow               *overlay;

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-help-overlay", NULL);
  overlay = GTK_WINDOW (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_assert_nonnull (overlay);
  for (guint i = 0; i < G_N_ELEMENTS (sections); i++)
    {
      GtkWidget *section = find_widget (GTK_WIDGET (overlay), GTK_TYPE_SHORTCUTS_SECTION);
      GtkWidget *past;

      g_object_set (overlay, "section-name", sections[i], NULL);
      iterate_until_drawn (GTK_WIDGET (overlay));
      /* The section shown. */
      while (section != NULL && !gtk_widget_get_mapped (section))
        section = gtk_widget_get_next_sibling (section);
      g_assert_nonnull (section);
      past = find_widget_where (section, is_label_past, section);
      g_assert_cmpstr (past != NULL ? gtk_label_get_text (GTK_LABEL (past)) : NULL, ==, NULL);
    }
  gtk_window_close (overlay);
  close_window (window);
}

int
main (int    argc,
      char **argv)
{
  if (!ui_test_init (&argc, &argv))
    return 0;
  /* Revealers and the side panel take their final place at once. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  g_test_add_func ("/ui/workflow/unread-file-read-again", test_unread_file_read_again);
  g_test_add_func ("/ui/workflow/unread-file-deleted", test_unread_file_deleted);
  g_test_add_func ("/ui/workflow/changed-while-read", test_changed_while_read);
  g_test_add_func ("/ui/workflow/error-page", test_error_page);
  g_test_add_func ("/ui/workflow/error-page-torch", test_error_page_torch);
  g_test_add_func ("/ui/workflow/rules-page-empty", test_rules_page_empty);
  g_test_add_func ("/ui/workflow/replace-goes-on", test_replace_goes_on);
  g_test_add_func ("/ui/workflow/replace-choice-dropped", test_replace_choice_dropped);
  g_test_add_func ("/ui/workflow/replace-choice-yields", test_replace_choice_yields);
  g_test_add_func ("/ui/workflow/page-keys", test_page_keys);
  g_test_add_func ("/ui/workflow/hide-panel-focus", test_hide_panel_focus);
  g_test_add_func ("/ui/workflow/typing-keeps-panel", test_typing_keeps_panel);
  g_test_add_func ("/ui/workflow/shortcuts-width", test_shortcuts_width);
  g_test_add_func ("/ui/workflow/shortcuts-height", test_shortcuts_height);
  g_test_add_func ("/ui/workflow/shortcuts-titles-inside", test_shortcuts_titles_inside);
  return g_test_run ();
}
