/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-small.c: the editor's smaller conveniences, under a display (Xvfb
 * in CI).  Left to right: the menu's choice lays the graph out with its
 * edges pointing right and GSettings (the memory backend) remembers it
 * for the next window.  The side panel's open and save buttons are
 * gone on the Code tab, and the panel keeps its width.  A replacement that does not fit the pattern
 * is flagged as it is typed (underlined at its def, said above the matches, Replace and Replace All
 * disabled with a tooltip saying why), and toasts leave the zoom controls uncovered.  Why Not Here?
 * on an inner node reports the alignment that got furthest.  A file opened from a window with
 * nothing unsaved takes its place, and from one with unsaved changes or a Replace All under way
 * opens in a new window, the Replace All going on by steps there; the
 * typed pattern comes along either way, undoably when the file brought its own.  The file changing
 * on disk shows a bar whose Reload keeps the typed pattern; the window's own save does not; a
 * deleted file is said.  A file with two models offers the choice (remembered per file, kept in a
 * session).
 */
#include "config.h"

#include "example.h"
#include "window-util.h"

#include "graft-document-private.h"
#include "graft-window-private.h"

#include <glib/gstdio.h>
#include <string.h>

static gboolean
action_state (GraftWindow *window,
              const char  *name)
{
  g_autoptr (GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (window), name);

  return g_variant_get_boolean (state);
}

/* Whether every edge of the canvas's layout points right (@right) or
 * down. */
static gboolean
edges_point (GraftWindow *window,
             gboolean     right)
{
  GraftLayout *layout = graft_canvas_get_layout (graft_window_get_canvas (window));

  g_assert_cmpuint (graft_layout_get_n_edges (layout), >, 0);
  for (guint e = 0; e < graft_layout_get_n_edges (layout); e++)
    {
      const GraftLayoutEdge *edge = graft_layout_get_edge (layout, e);
      const GraftRect       *tail = &graft_layout_get_node (layout, edge->tail)->box;
      const GraftRect       *head = &graft_layout_get_node (layout, edge->head)->box;

      if (right ? tail->x + tail->width >= head->x : tail->y + tail->height >= head->y)
        return FALSE;
    }
  return TRUE;
}

static void
test_left_to_right (void)
{
  g_autoptr (GSettings) settings = g_settings_new (APPLICATION_ID);
  GraftWindow *window = open_example ();
  GraftWindow *second;

  g_assert_false (action_state (window, "left-to-right"));
  g_assert_true (edges_point (window, FALSE));
  g_action_group_activate_action (G_ACTION_GROUP (window), "left-to-right", NULL);
  g_assert_true (action_state (window, "left-to-right"));
  g_assert_true (g_settings_get_boolean (settings, "left-to-right"));
  iterate_until (layout_ready, window);
  g_assert_true (edges_point (window, TRUE));

  /* The next window starts left to right. */
  second = open_example ();
  g_assert_true (action_state (second, "left-to-right"));
  g_assert_true (edges_point (second, TRUE));
  g_action_group_activate_action (G_ACTION_GROUP (second), "left-to-right", NULL);
  iterate_until (layout_ready, second);
  g_assert_true (edges_point (second, FALSE));
  g_assert_false (g_settings_get_boolean (settings, "left-to-right"));
  close_window (second);
  close_window (window);
}

/* The side panel's open and save buttons belong to the pattern, the
 * replacement and the rules: the Code tab, which shows the graph's code,
 * has none, and its code fills the panel's height. */
static void
test_side_buttons (void)
{
  static const struct
  {
    const char *page;
    const char *open_action;
  } pages[] = {
    { "pattern", "win.load-patterns" },
    { "code", NULL },
    { "replacement", "win.load-patterns" },
    { "rules", "win.rules-open" },
    { "code", NULL },
    { "pattern", "win.load-patterns" },
  };
  GraftWindow *window = open_example_sized (1100, 700);
  int          width = -1;

  g_assert_false (adw_flap_get_folded (window->side_flap));
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      GtkWidget *open = GTK_WIDGET (window->side_open_button);
      GtkWidget *save = GTK_WIDGET (window->side_save_button);

      graft_window_show_page (window, pages[i].page);
      iterate_until_drawn (GTK_WIDGET (window));
      g_assert_cmpint (gtk_widget_get_mapped (open), ==, pages[i].open_action != NULL);
      g_assert_cmpint (gtk_widget_get_mapped (save), ==, pages[i].open_action != NULL);
      if (pages[i].open_action != NULL)
        g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (open)), ==,
                         pages[i].open_action);
      /* The panel keeps its width: without the buttons, the Code tab's
       * row was narrower, and so was the panel beside the canvas (461
       * and 400 pixels). */
      if (width < 0)
        width = gtk_widget_get_width (window->sidebar);
      g_assert_cmpint (gtk_widget_get_width (window->sidebar), ==, width);
      /* The code takes the page's height, the matches go (the code
       * view was 8 lines tall, 137 of 600 pixels, over an empty match
       * list); the other pages keep the matches. */
      g_assert_cmpint (gtk_widget_get_mapped (GTK_WIDGET (window->match_list)), ==,
                       pages[i].open_action != NULL);
      if (pages[i].open_action == NULL)
        {
          GtkWidget *code = gtk_widget_get_parent (GTK_WIDGET (window->code_view));
          GtkWidget *paned = gtk_widget_get_ancestor (code, GTK_TYPE_PANED);

          g_assert_cmpint (gtk_widget_get_height (code), >=, gtk_widget_get_height (paned) - 10);
        }
    }
  close_window (window);
}

/* Appends the titles of the shortcut groups in @widget, in the order of
 * the widget tree. */
static void
collect_groups (GtkWidget *widget,
                GPtrArray *titles)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_SHORTCUTS_GROUP (child))
        {
          char *title = NULL;

          g_object_get (child, "title", &title, NULL);
          g_ptr_array_add (titles, title);
        }
      else
        collect_groups (child, titles);
    }
}

/* The keyboard shortcuts window shows its groups in their order, Files
 * first, each section on one page: GTK 4.8 reverses the pages of a
 * section each time it lays them out again, and with one section of
 * three pages the window opened on Steps and Graph from the Keyboard,
 * Files and Rewriting on the last page. */
static void
test_shortcuts_window (void)
{
  static const char *const order[] = {
    "Files",
    "Rewriting",
    "Rules",
    "Steps",
    "Canvas",
    "Graph from the keyboard",
    "Panes and Pages",
    NULL,
  };
  g_autoptr (GtkBuilder) builder =
      gtk_builder_new_from_resource ("/org/graft/Editor/shortcuts.ui");
  GtkWindow *overlay = GTK_WINDOW (gtk_builder_get_object (builder, "help_overlay"));
  g_autoptr (GPtrArray) titles = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) sections = g_ptr_array_new ();
  GtkWidget *stack;

  g_assert_nonnull (overlay);
  gtk_window_present (overlay);
  iterate_until_drawn (GTK_WIDGET (overlay));
  /* The window's sections are the pages of its own stack. */
  stack = find_widget (GTK_WIDGET (overlay), GTK_TYPE_STACK);
  g_assert_nonnull (stack);
  for (GtkWidget *child = gtk_widget_get_first_child (stack); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_SHORTCUTS_SECTION (child))
      g_ptr_array_add (sections, child);
  g_assert_cmpuint (sections->len, >, 0);
  for (guint i = 0; i < sections->len; i++)
    {
      GtkWidget       *section = sections->pdata[i];
      g_autofree char *name = NULL;
      g_autoptr (GListModel) pages = NULL;

      g_object_get (section, "section-name", &name, NULL);
      g_object_set (overlay, "section-name", name, NULL);
      iterate_until_drawn (GTK_WIDGET (overlay));
      g_assert_true (gtk_widget_get_mapped (section));
      /* Its pages: the stack inside the section. */
      pages =
          G_LIST_MODEL (gtk_stack_get_pages (GTK_STACK (find_widget (section, GTK_TYPE_STACK))));
      g_assert_cmpuint (g_list_model_get_n_items (pages), ==, 1);
      collect_groups (section, titles);
    }
  g_ptr_array_add (titles, NULL);
  g_assert_cmpstrv ((const char *const *) titles->pdata, order);
  gtk_window_destroy (overlay);
}

/* Types @text over the window's replacement (@replacement) or pattern,
 * and sends it as the editor's debounce would a moment later. */
static void
type_code (GraftWindow *window,
           gboolean     replacement,
           const char  *text)
{
  GtkWidget     *editor = graft_window_get_pattern_editor (window, replacement);
  GtkTextBuffer *buffer = graft_pattern_editor_get_buffer (GRAFT_PATTERN_EDITOR (editor));
  GtkTextIter    start;
  GtkTextIter    end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_delete (buffer, &start, &end);
  gtk_text_buffer_insert_at_cursor (buffer, text, -1);
  graft_pattern_editor_flush (GRAFT_PATTERN_EDITOR (editor));
}

static gboolean
enabled (GraftWindow *window,
         const char  *action)
{
  return g_action_group_get_action_enabled (G_ACTION_GROUP (window), action);
}

/* A replacement that takes fewer parameters than the pattern is flagged as
 * it is typed: underlined at its def, said above the matches, and Replace
 * and Replace All are disabled with a tooltip that says why; fixing it
 * gives them back. */
static void
test_replacement_fit (void)
{
  GraftWindow     *window = open_example ();
  GtkWidget       *editor = graft_window_get_pattern_editor (window, TRUE);
  g_autofree char *good = graft_pattern_editor_dup_text (GRAFT_PATTERN_EDITOR (editor));
  const char      *error;
  const char      *tooltip;

  g_assert_true (enabled (window, "replace-all"));
  g_assert_cmpuint (graft_document_get_n_matches (graft_window_get_document (window)), ==, 2);
  type_code (window, TRUE, "import torch\n\n\ndef replacment(x):\n    return torch.relu(x)\n");
  error = graft_pattern_editor_get_error_text (GRAFT_PATTERN_EDITOR (editor));
  g_assert_nonnull (error);
  /* At the name of the def, line 4. */
  g_assert_true (g_str_has_prefix (error, "replacement:4:5: error: the pattern takes 2 parameters "
                                          "but the replacement takes 1"));
  g_assert_false (enabled (window, "replace-all"));
  g_assert_false (enabled (window, "replace-selected"));
  g_assert_false (enabled (window, "replace-match"));
  g_assert_cmpstr (gtk_label_get_text (window->match_count), ==, "Replacement Does Not Fit");
  tooltip = gtk_widget_get_tooltip_text (window->replace_all_button);
  g_assert_true (g_str_has_prefix (tooltip, "Cannot replace: the replacement does not fit"));
  g_assert_nonnull (strstr (tooltip, "takes 1"));
  tooltip = gtk_widget_get_tooltip_text (window->replace_button);
  g_assert_true (g_str_has_prefix (tooltip, "Cannot replace:"));

  type_code (window, TRUE, good);
  g_assert_null (graft_pattern_editor_get_error_text (GRAFT_PATTERN_EDITOR (editor)));
  g_assert_true (enabled (window, "replace-all"));
  g_assert_cmpstr (gtk_label_get_text (window->match_count), ==, "2 Matches");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (window->replace_all_button), ==,
                   "Replace every match, as replace_pattern does (Ctrl+R)");
  close_window (window);
}

/* A pattern typed without its imports fails as Python does ("name
 * 'torch' is not defined", the error's text kept) and the editor says
 * under it which import is missing, for a module Graft knows; a name of
 * the user's own gets no hint, and the hint goes with the error. */
static void
test_import_hint (void)
{
  static const struct
  {
    const char *code;
    const char *hint;
  } cases[] = {
    { "def pattern(x):\n    return torch.relu(x)\n", "Add “import torch” at the top of the text." },
    { "import torch\n\n\ndef pattern(x):\n    return F.relu(x)\n",
      "Add “import torch.nn.functional as F” at the top of the text." },
    { "import torch\n\n\ndef pattern(x):\n    return nn.functional.relu(x)\n",
      "Add “import torch.nn as nn” at the top of the text." },
    { "import torch\n\n\ndef pattern(x):\n    return frobnicate(x)\n", NULL },
  };
  GraftWindow        *window = open_example ();
  GraftPatternEditor *editor =
      GRAFT_PATTERN_EDITOR (graft_window_get_pattern_editor (window, FALSE));
  g_autofree char *good = graft_pattern_editor_dup_text (editor);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *error;

      type_code (window, FALSE, cases[i].code);
      error = graft_pattern_editor_get_error_text (editor);
      g_assert_nonnull (error);
      g_assert_true (g_str_has_suffix (error, "' is not defined"));
      g_assert_null (strstr (error, "import"));
      g_assert_cmpstr (graft_pattern_editor_get_error_hint (editor), ==, cases[i].hint);
    }
  type_code (window, FALSE, good);
  g_assert_null (graft_pattern_editor_get_error_text (editor));
  g_assert_null (graft_pattern_editor_get_error_hint (editor));
  close_window (window);
}

/* A toast, even a long one in a narrow window, leaves the zoom controls
 * uncovered. */
static void
test_toast_spares_zoom (void)
{
  static const int widths[] = { 1200, 800 };

  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      GraftWindow    *window = open_example_sized (widths[i], 700);
      GtkWidget      *toast;
      graphene_rect_t toast_bounds;
      graphene_rect_t zoom_bounds;

      _graft_window_toast (window,
                           "A message long enough to reach across most of the window, as an "
                           "error about a replacement that did not happen can",
                           FALSE);
      iterate_until (toast_shown, window);
      toast = find_toast (window);
      g_assert_true (gtk_widget_compute_bounds (toast, GTK_WIDGET (window), &toast_bounds));
      g_assert_true (gtk_widget_compute_bounds (window->zoom_box, GTK_WIDGET (window),
                                                &zoom_bounds));
      g_assert_true (gtk_widget_get_mapped (window->zoom_box));
      if (graphene_rect_intersection (&toast_bounds, &zoom_bounds, NULL))
        g_error ("at %d px the toast (%g,%g %gx%g) covers the zoom controls (%g,%g %gx%g)",
                 widths[i], toast_bounds.origin.x, toast_bounds.origin.y, toast_bounds.size.width,
                 toast_bounds.size.height, zoom_bounds.origin.x, zoom_bounds.origin.y,
                 zoom_bounds.size.width, zoom_bounds.size.height);
      close_window (window);
    }
}

/* Beside the canvas, a toast is centred over the canvas, not the window:
 * at 1120x700 (a 1400x900 screen's first window) the "Replaced 2
 * matches" toast centred in the window covered the History list's last
 * row on the Rules page. */
static void
test_toast_beside_panel (void)
{
  GraftWindow    *window = open_example_sized (1120, 700);
  GtkWidget      *toast;
  graphene_rect_t toast_bounds;
  graphene_rect_t side_bounds;
  graphene_rect_t column_bounds;

  g_assert_false (adw_flap_get_folded (window->side_flap));
  g_assert_true (adw_flap_get_reveal_flap (window->side_flap));
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-rules", NULL);
  activate (window, "replace-all", NULL);
  iterate_until (toast_shown, window);
  toast = find_toast (window);
  g_assert_true (gtk_widget_compute_bounds (toast, GTK_WIDGET (window), &toast_bounds));
  g_assert_true (
      gtk_widget_compute_bounds (window->sidebar, GTK_WIDGET (window), &side_bounds));
  g_assert_true (gtk_widget_compute_bounds (adw_flap_get_content (window->side_flap),
                                            GTK_WIDGET (window), &column_bounds));
  if (graphene_rect_intersection (&toast_bounds, &side_bounds, NULL))
    g_error ("the toast (%g,%g %gx%g) covers the side panel (%g,%g %gx%g)",
             toast_bounds.origin.x, toast_bounds.origin.y, toast_bounds.size.width,
             toast_bounds.size.height, side_bounds.origin.x, side_bounds.origin.y,
             side_bounds.size.width, side_bounds.size.height);
  /* Centred over the canvas's column, within a pixel. */
  g_assert_cmpfloat_with_epsilon (toast_bounds.origin.x + toast_bounds.size.width / 2,
                                  column_bounds.origin.x + column_bounds.size.width / 2, 1.0);
  close_window (window);
}

/* Whether the focus is in the Rules page's list of rules. */
static gboolean
rules_focused (gpointer window)
{
  GtkWidget *list =
      GTK_WIDGET (graft_rules_panel_get_rule_list (((GraftWindow *) window)->rules_panel));
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  return focus != NULL && (focus == list || gtk_widget_is_ancestor (focus, list));
}

/* Ctrl+L with the side panel hidden, folded away at 800x600 or by
 * Shift+F9 on a wide window: the panel comes out on the Rules page with
 * the chosen rule focused (it changed the page behind the hidden panel,
 * and the focus stayed where it was). */
static void
test_show_rules_hidden (void)
{
  static const int sizes[][2] = { { 800, 600 }, { 1120, 700 } };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      GraftWindow *window = open_example_sized (sizes[i][0], sizes[i][1]);

      g_assert_true (adw_flap_get_folded (window->side_flap) == (i == 0));
      if (i == 1)
        {
          g_action_group_change_action_state (G_ACTION_GROUP (window), "show-side-panel",
                                              g_variant_new_boolean (FALSE));
          iterate_until (flap_settled, window->side_flap);
        }
      g_assert_false (adw_flap_get_reveal_flap (window->side_flap));
      activate (window, "show-rules", NULL);
      g_assert_true (adw_flap_get_reveal_flap (window->side_flap));
      iterate_until (rules_focused, window);
      g_assert_cmpstr (gtk_stack_get_visible_child_name (window->editor_stack), ==, "rules");
      iterate_until (flap_settled, window->side_flap);
      g_assert_true (rules_focused (window));
      close_window (window);
    }
}

/* Whether the toast on screen is centred over the canvas's column,
 * within a pixel. */
static gboolean
toast_over_column (gpointer data)
{
  GraftWindow    *window = data;
  GtkWidget      *toast = find_toast (window);
  graphene_rect_t toast_bounds;
  graphene_rect_t column_bounds;

  return toast != NULL &&
         gtk_widget_compute_bounds (toast, GTK_WIDGET (window), &toast_bounds) &&
         gtk_widget_compute_bounds (adw_flap_get_content (window->side_flap),
                                    GTK_WIDGET (window), &column_bounds) &&
         fabs (toast_bounds.origin.x + toast_bounds.size.width / 2 -
               (column_bounds.origin.x + column_bounds.size.width / 2)) <= 1.0;
}

/* The side panel hidden, then shown again (Shift+F9) while a toast is up:
 * the toast follows the canvas's column each time (it kept the margins it
 * was shown with). */
static void
test_toast_follows_panel (void)
{
  GraftWindow *window = open_example_sized (1120, 700);

  g_assert_false (adw_flap_get_folded (window->side_flap));
  g_assert_true (adw_flap_get_reveal_flap (window->side_flap));
  _graft_window_toast (window, "Replaced 2 matches", FALSE);
  iterate_until (toast_shown, window);
  iterate_until (toast_over_column, window);
  for (guint i = 0; i < 2; i++)
    {
      g_action_group_activate_action (G_ACTION_GROUP (window), "show-side-panel", NULL);
      g_assert_true (adw_flap_get_reveal_flap (window->side_flap) == (i == 1));
      iterate_until (flap_settled, window->side_flap);
      iterate_until_drawn (GTK_WIDGET (window));
      iterate_until (toast_over_column, window);
    }
  close_window (window);
}

/* Why Not Here? on a node that is not the pattern's result tries the
 * pattern's other nodes there: the bar says which walk got furthest, and
 * the nodes it got through are selected. */
static void
test_why_not_here_inner (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "explain",
                                            "inner_literal_differs.py", NULL);
  g_autofree char *expected_path = g_build_filename (
      g_getenv ("G_TEST_SRCDIR"), "data", "explain", "inner_literal_differs.torch26.explain", NULL);
  g_autofree char *expected = NULL;
  GraftWindow     *window = open_path (path);
  g_auto (GStrv) selection = NULL;

  g_action_group_activate_action (G_ACTION_GROUP (window), "explain-at",
                                  g_variant_new_string ("relu"));
  g_assert_true (g_file_get_contents (expected_path, &expected, NULL, NULL));
  g_assert_cmpstr (graft_window_get_notice (window), ==, g_strchomp (expected));
  g_assert_nonnull (strstr (expected, "the pattern's 'relu' there and its result at 'neg'"));
  selection = graft_canvas_dup_selection (graft_window_get_canvas (window));
  g_assert_cmpuint (g_strv_length (selection), ==, 3);
  g_assert_true (g_strv_contains ((const char *const *) selection, "relu"));
  g_assert_true (g_strv_contains ((const char *const *) selection, "add"));
  g_assert_true (g_strv_contains ((const char *const *) selection, "neg"));
  close_window (window);
}

#define TYPED_PATTERN \
  "import torch\n\n\ndef pattern(x):\n    return torch.sigmoid(x)\n"

/* The Graft windows on screen. */
static GPtrArray *
list_windows (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  GPtrArray  *windows = g_ptr_array_new ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) window = g_list_model_get_item (toplevels, i);

      if (GRAFT_IS_WINDOW (window))
        g_ptr_array_add (windows, window);
    }
  return windows;
}

/* Open Recent, as the menu does it. */
static void
open_recent (GraftWindow *window,
             const char  *path)
{
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);

  g_action_group_activate_action (G_ACTION_GROUP (window), "open-recent",
                                  g_variant_new_string (uri));
}

static gboolean
shows_path (GraftWindow *window,
            const char  *path)
{
  GFile *file = graft_document_get_file (graft_window_get_document (window));
  g_autoptr (GFile) expected = g_file_new_for_path (path);

  return file != NULL && g_file_equal (file, expected);
}

typedef struct
{
  GraftWindow *window;
  const char  *path;
} Showing;

static gboolean
showing (gpointer data)
{
  Showing *s = data;

  return shows_path (s->window, s->path) && layout_ready (s->window);
}

static char *
pattern_text (GraftWindow *window)
{
  return graft_pattern_editor_dup_text (
      GRAFT_PATTERN_EDITOR (graft_window_get_pattern_editor (window, FALSE)));
}

/* A window with nothing unsaved shows the file opened from it in its
 * place, and the typed pattern stays in the editor; a file that brings a
 * pattern of its own gives way to the typed one, undoably (the toast's
 * Undo, and the editor's own undo). */
static void
test_open_in_place (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-open-XXXXXX", NULL);
  g_autofree char *plain = g_build_filename (dir, "plain.py", NULL);
  g_autofree char *example = example_path ();
  g_autofree char *own = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GPtrArray) windows = NULL;
  GraftWindow   *window = g_object_new (GRAFT_TYPE_WINDOW, NULL);
  GraftDocument *document = graft_window_get_document (window);
  Showing        wait = { window, NULL };

  g_assert_true (g_file_set_contents (plain,
                                      "import torch\n\n\ndef forward(x):\n"
                                      "    return torch.sigmoid(torch.neg(x))\n",
                                      -1, NULL));
  /* A new window, which shows nothing, opens it in its place. */
  gtk_window_present (GTK_WINDOW (window));
  open_recent (window, plain);
  wait.path = plain;
  iterate_until (showing, &wait);
  type_code (window, FALSE, TYPED_PATTERN);
  g_assert_false (graft_document_get_modified (document));

  /* The example defines its own pattern: the typed one wins, undoably. */
  open_recent (window, example);
  wait.path = example;
  iterate_until (showing, &wait);
  windows = list_windows ();
  g_assert_cmpuint (windows->len, ==, 1);
  text = pattern_text (window);
  g_assert_cmpstr (text, ==, TYPED_PATTERN);
  g_assert_cmpstr (graft_document_get_pattern_text (document), ==, TYPED_PATTERN);
  g_assert_cmpstr (graft_window_get_last_toast (window), ==,
                   "Kept the pattern and replacement you were working on");
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo-texts", NULL);
  own = pattern_text (window);
  g_assert_nonnull (strstr (own, "def pattern(a1, a2):"));
  g_assert_cmpstr (graft_document_get_pattern_text (document), ==, own);
  close_window (window);
  g_unlink (plain);
  g_rmdir (dir);
}

/* A window with unsaved changes keeps them: the file opens in a new
 * window, with the pattern typed in the first. */
static void
test_open_in_new_window (void)
{
  g_autofree char *example = example_path ();
  g_autofree char *other = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "explain",
                                             "literal_differs.py", NULL);
  g_autofree char *before = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GPtrArray) windows = NULL;
  GraftWindow   *window = open_example ();
  GraftDocument *document = graft_window_get_document (window);
  GraftWindow   *second;
  Showing        wait = { NULL, other };

  g_action_group_activate_action (G_ACTION_GROUP (window), "replace-all", NULL);
  g_assert_true (graft_document_get_modified (document));
  before = graft_document_dup_code (document);
  type_code (window, FALSE, TYPED_PATTERN);

  open_recent (window, other);
  windows = list_windows ();
  g_assert_cmpuint (windows->len, ==, 2);
  second = windows->pdata[windows->pdata[0] == window ? 1 : 0];
  wait.window = second;
  iterate_until (showing, &wait);
  text = pattern_text (second);
  g_assert_cmpstr (text, ==, TYPED_PATTERN);
  /* The first window is as it was, its change still undoable. */
  g_assert_true (shows_path (window, example));
  g_assert_true (graft_document_get_modified (document));
  g_assert_true (graft_document_get_can_undo (document));
  {
    g_autofree char *after = graft_document_dup_code (document);

    g_assert_cmpstr (after, ==, before);
  }
  close_window (second);
  close_window (window);
}

static gboolean
not_rewriting (gpointer data)
{
  return !graft_document_get_rewriting (data);
}

/* A Replace All by steps under way is no unsaved change yet, but the
 * window keeps it: the file opens in a new window, and the Replace All
 * goes on by steps (not finished at once in the call, which at a million
 * nodes took a turn of 22-34 ms, for a graph then thrown away). */
static void
test_open_during_replace_all (void)
{
  g_autofree char *example = example_path ();
  g_autofree char *other = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "explain",
                                             "literal_differs.py", NULL);
  g_autoptr (GPtrArray) windows = NULL;
  GraftWindow   *window = open_example ();
  GraftDocument *document = graft_window_get_document (window);
  GraftWindow   *second;
  Showing        wait = { NULL, other };

  _graft_document_set_rewrite_step (1);
  g_action_group_activate_action (G_ACTION_GROUP (window), "replace-all", NULL);
  g_main_context_iteration (NULL, FALSE);
  g_assert_true (graft_document_get_rewriting (document));
  g_assert_false (graft_document_get_modified (document));

  open_recent (window, other);
  g_assert_true (graft_document_get_rewriting (document));
  windows = list_windows ();
  g_assert_cmpuint (windows->len, ==, 2);
  second = windows->pdata[windows->pdata[0] == window ? 1 : 0];
  wait.window = second;
  iterate_until (showing, &wait);
  _graft_document_set_rewrite_step (0);
  iterate_until (not_rewriting, document);
  /* The first window shows its file, the Replace All done and undoable. */
  g_assert_true (shows_path (window, example));
  g_assert_true (graft_document_get_modified (document));
  g_assert_true (graft_document_get_can_undo (document));
  close_window (second);
  close_window (window);
}

static void
disk_event_cb (GFileMonitor     *monitor,
               GFile            *file,
               GFile            *other,
               GFileMonitorEvent event,
               gpointer          user_data)
{
  *(gboolean *) user_data = TRUE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

typedef struct
{
  GraftWindow *window;
  guint        n_nodes;
} NodeCount;

static gboolean
reloaded (gpointer data)
{
  NodeCount *c = data;

  return layout_ready (c->window) &&
         graft_graph_get_n_nodes (graft_document_get_graph (
             graft_window_get_document (c->window))) == c->n_nodes;
}

/* The file changing on disk shows the bar, and Reload reads it again in
 * place keeping the typed pattern; the window's own save shows nothing;
 * deleting the file says so. */
static void
test_file_changed_on_disk (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-watch-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "model.py", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileMonitor) monitor = NULL;
  g_autofree char *text = NULL;
  GraftWindow     *window;
  NodeCount        count = { NULL, 4 };
  gboolean         seen = FALSE;

  g_assert_true (g_file_set_contents (path,
                                      "import torch\n\n\ndef forward(x):\n"
                                      "    return torch.neg(x)\n",
                                      -1, NULL));
  window = open_path (path);
  count.window = window;
  g_assert_null (graft_window_get_file_notice (window));
  type_code (window, FALSE, TYPED_PATTERN);

  /* Another program writes a new version. */
  g_assert_true (g_file_set_contents (path,
                                      "import torch\n\n\ndef forward(x):\n"
                                      "    return torch.sigmoid(torch.neg(x))\n",
                                      -1, NULL));
  iterate_until (has_file_notice, window);
  g_assert_cmpstr (graft_window_get_file_notice (window), ==, "“model.py” changed on disk.");
  g_action_group_activate_action (G_ACTION_GROUP (window), "reload-file", NULL);
  iterate_until (reloaded, &count);
  g_assert_null (graft_window_get_file_notice (window));
  text = pattern_text (window);
  g_assert_cmpstr (text, ==, TYPED_PATTERN);

  /* The window's own save is no change from elsewhere: once the test's
   * own monitor has seen it, and the events are all dispatched, no bar. */
  monitor = g_file_monitor_file (file, G_FILE_MONITOR_WATCH_MOVES, NULL, NULL);
  g_signal_connect (monitor, "changed", G_CALLBACK (disk_event_cb), &seen);
  g_assert_true (graft_window_save_to (window, file));
  iterate_until (flag_set, &seen);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_null (graft_window_get_file_notice (window));

  g_assert_cmpint (g_unlink (path), ==, 0);
  iterate_until (has_file_notice, window);
  g_assert_nonnull (strstr (graft_window_get_file_notice (window), "was deleted or moved away"));
  close_window (window);
  g_rmdir (dir);
}

static gboolean
traced_neg (gpointer data)
{
  GraftWindow *window = data;

  return layout_ready (window) &&
         graft_graph_find_node (graft_document_get_graph (graft_window_get_document (window)),
                                "neg") != NULL;
}

/* A file with two models offers the choice in the header; choosing the
 * second traces it, keeps the typed pattern, is remembered for the file
 * (a window opened on it later traces it too) and saved with a session. */
static void
test_entry_choice (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-entry-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "two.py", NULL);
  g_autofree char *session_path = g_build_filename (dir, "two.graft", NULL);
  g_autoptr (GFile) session = g_file_new_for_path (session_path);
  g_autofree char *text = NULL;
  GraftWindow     *window;
  GraftWindow     *again;
  GtkDropDown     *dropdown;
  GraftDocument   *document;

  g_assert_true (g_file_set_contents (path,
                                      "import torch\n\n\n"
                                      "class A(torch.nn.Module):\n"
                                      "    def forward(self, x):\n"
                                      "        return torch.relu(x)\n\n\n"
                                      "class B(torch.nn.Module):\n"
                                      "    def forward(self, x):\n"
                                      "        return torch.sigmoid(torch.neg(x))\n",
                                      -1, NULL));
  window = open_path (path);
  document = graft_window_get_document (window);
  dropdown = GTK_DROP_DOWN (window->entry_dropdown);
  g_assert_true (gtk_widget_get_visible (window->entry_dropdown));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)), ==, 2);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);
  g_assert_nonnull (graft_graph_find_node (graft_document_get_graph (document), "relu"));
  type_code (window, FALSE, TYPED_PATTERN);

  gtk_drop_down_set_selected (dropdown, 1);
  iterate_until (traced_neg, window);
  g_assert_cmpstr (graft_document_get_entry (document), ==, "B");
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 1);
  text = pattern_text (window);
  g_assert_cmpstr (text, ==, TYPED_PATTERN);

  /* Remembered for the file. */
  again = open_path (path);
  g_assert_nonnull (
      graft_graph_find_node (graft_document_get_graph (graft_window_get_document (again)), "neg"));
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (again->entry_dropdown)), ==, 1);
  close_window (again);

  /* A session keeps it with its input. */
  g_assert_true (graft_window_save_to (window, session));
  iterate_until (session_written, window);
  close_window (window);
  window = open_path (session_path);
  g_assert_cmpstr (graft_document_get_entry (graft_window_get_document (window)), ==, "B");
  g_assert_nonnull (
      graft_graph_find_node (graft_document_get_graph (graft_window_get_document (window)), "neg"));
  close_window (window);

  /* A file with one model shows no choice. */
  window = open_example ();
  g_assert_false (gtk_widget_get_visible (window->entry_dropdown));
  close_window (window);
  g_unlink (session_path);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  if (!ui_test_init (&argc, &argv))
    return 0;
  /* The style sheet AdwApplication loads from the resource base path. */
  {
    GtkCssProvider *provider = gtk_css_provider_new ();

    gtk_css_provider_load_from_resource (provider, RESOURCE_PATH "/style.css");
    gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                                GTK_STYLE_PROVIDER (provider),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    g_object_unref (provider);
  }
  /* Toasts and revealers take their final place at once. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  g_test_add_func ("/ui/window/left-to-right", test_left_to_right);
  g_test_add_func ("/ui/window/side-buttons", test_side_buttons);
  g_test_add_func ("/ui/window/shortcuts-window", test_shortcuts_window);
  g_test_add_func ("/ui/window/replacement-fit", test_replacement_fit);
  g_test_add_func ("/ui/window/import-hint", test_import_hint);
  g_test_add_func ("/ui/window/toast-spares-zoom", test_toast_spares_zoom);
  g_test_add_func ("/ui/window/toast-beside-panel", test_toast_beside_panel);
  g_test_add_func ("/ui/window/show-rules-hidden", test_show_rules_hidden);
  g_test_add_func ("/ui/window/toast-follows-panel", test_toast_follows_panel);
  g_test_add_func ("/ui/window/why-not-here-inner", test_why_not_here_inner);
  g_test_add_func ("/ui/window/open-in-place", test_open_in_place);
  g_test_add_func ("/ui/window/open-in-new-window", test_open_in_new_window);
  g_test_add_func ("/ui/window/open-during-replace-all", test_open_during_replace_all);
  g_test_add_func ("/ui/window/file-changed-on-disk", test_file_changed_on_disk);
  g_test_add_func ("/ui/window/entry-choice", test_entry_choice);
  return g_test_run ();
}
