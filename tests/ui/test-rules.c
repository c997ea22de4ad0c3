/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-rules.c: the editor's rule sets under a display (Xvfb in CI).
 *
 * The core is the oracle: what `graft rewrite INPUT --rules FILE
 * --fixpoint N [--dce]` prints is graft_input_set_load_rules(),
 * graft_rules_apply() and graft_eliminate_dead_code() on the same graph
 * (core_code()), and the editor's code must equal it byte for byte.
 *
 * - Run All on resnet18 with tests/data/rules/editor_steps_rules.py (four
 *   rules, two passes) gives the core's code, and its toast's Undo takes
 *   the whole run back; with dead-code removal, on a model that leaves
 *   dead nodes, too.
 * - Stepping (Next) walks the loop: the panel names the rule and match
 *   next, the canvas lists that rule's matches, each step is one change
 *   of the history with its pass, rule and count; the acceptance case:
 *   every step, two undone and redone, ends with the core's code.
 * - Next Match and Skip: a match skipped is left alone by the call.
 * - The Rules page: add, remove, move (keys and a drop), leave out, rename
 *   and their undo; counts follow typing in the editor.
 * - History: choosing a row goes there (undo/redo), and the list follows
 *   Ctrl+Z.
 * - Rules files read and written: the saved file reads back with the core
 *   into the same rules, a rule left out stays left out.
 * - Export as a torch.fx pass equals the core's pass of the saved file.
 */
#include "config.h"

#include "display.h"
#include "example.h"

#include "graft-application.h"
#include "graft-canvas.h"
#include "graft-document.h"
#include "graft-pattern-editor.h"
#include "graft-rules-panel.h"
#include "graft-window.h"

#include <glib/gstdio.h>
#include <string.h>

/* The acceptance case's passes: two do the work, the third finds nothing. */
#define FIXPOINT 5

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until @done says so, at most 20 s; a time-out fails
 * the test, naming what it waited for. */
static void
iterate_until_named (gboolean (*done) (gpointer),
                     gpointer    data,
                     const char *what)
{
  gboolean timed_out = FALSE;
  guint    id = g_timeout_add_seconds (20, timeout_cb, &timed_out);

  while (!done (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (timed_out)
    g_error ("waited 20 s for %s", what);
  g_source_remove (id);
}
#define iterate_until(done, data) iterate_until_named (done, data, #done)

static gboolean
idle_done_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs what is pending on the main loop now (not a wait for time). */
static void
iterate_pending (void)
{
  gboolean done = FALSE;

  g_idle_add_full (G_PRIORITY_LOW, idle_done_cb, &done, NULL);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static gboolean
layout_ready (gpointer data)
{
  GraftWindow *window = data;
  GraftCanvas *canvas = graft_window_get_canvas (window);

  return !graft_window_get_busy (window) && graft_canvas_get_layout (canvas) != NULL &&
         gtk_widget_get_width (GTK_WIDGET (canvas)) > 0;
}

static char *
data_path (const char *folder,
           const char *name)
{
  return g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", folder, name, NULL);
}

static char *
resnet18_path (void)
{
  return data_path ("torchvision", "resnet18.py");
}

static char *
steps_rules_path (void)
{
  return data_path ("rules", "editor_steps_rules.py");
}

/* A new window on @path, once its layout is drawn. */
static GraftWindow *
open_path (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GraftWindow *window = g_object_new (GRAFT_TYPE_WINDOW, NULL);

  gtk_window_present (GTK_WINDOW (window));
  graft_window_open_file (window, file);
  iterate_until (layout_ready, window);
  return window;
}

static void
close_window (GraftWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  iterate_pending ();
}

/* A window on resnet18 with the four rules of the acceptance case. */
static GraftWindow *
open_resnet_with_rules (void)
{
  g_autofree char *model = resnet18_path ();
  g_autofree char *rules = steps_rules_path ();
  g_autoptr (GFile) file = g_file_new_for_path (rules);
  GraftWindow *window = open_path (model);

  graft_window_open_rules (window, file);
  g_assert_cmpuint (graft_document_get_n_rules (graft_window_get_document (window)), ==, 4);
  return window;
}

static void
activate (GraftWindow *window,
          const char  *action,
          GVariant    *param)
{
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), action));
  g_action_group_activate_action (G_ACTION_GROUP (window), action, param);
  iterate_until (layout_ready, window);
}

/* What the CLI prints for `graft rewrite INPUT --rules RULES --fixpoint
 * N [--dce]`: the same core calls, on a graph of its own. */
static char *
core_code (const char *input,
           const char *rules_path,
           guint       fixpoint,
           gboolean    dce)
{
  g_autoptr (GraftInputSet) inputs = graft_input_set_new (graft_dialect_get_default ());
  g_autoptr (GError) error = NULL;
  GraftGraph       *graph = graft_input_set_load (inputs, input, NULL, FALSE, &error);
  GraftRuleSet     *rules;
  GraftRulesRun    *run;
  GraftEdit        *edit = NULL;
  GraftRulesOptions options;
  char             *code;

  g_assert_no_error (error);
  rules = graft_input_set_load_rules (inputs, rules_path, NULL, &error);
  g_assert_no_error (error);
  graft_rules_options_init (&options);
  options.fixpoint = fixpoint;
  run = graft_rules_apply (graph, rules, &options, &error);
  g_assert_no_error (error);
  if (dce)
    {
      guint n;

      edit = graft_eliminate_dead_code (graph, &n, &error);
      g_assert_no_error (error);
    }
  code = graft_codegen_python (graph);
  /* Edits refer to the graph: they go first. */
  graft_edit_free (edit);
  graft_rules_run_free (run);
  graft_rule_set_free (rules);
  graft_graph_free (graph);
  return code;
}

static char *
window_code (GraftWindow *window)
{
  return graft_document_dup_code (graft_window_get_document (window));
}

static guint
position (GraftWindow *window)
{
  return graft_document_get_position (graft_window_get_document (window));
}

/* The row the History list has selected. */
static guint
history_selected (GraftWindow *window)
{
  GtkListView *list = graft_rules_panel_get_history_list (graft_window_get_rules_panel (window));

  return gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (gtk_list_view_get_model (list)));
}

static guint
history_rows (GraftWindow *window)
{
  GtkListView *list = graft_rules_panel_get_history_list (graft_window_get_rules_panel (window));

  return g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (list)));
}

/* Run All is the CLI's rewrite, and one Undo takes it back. */
static void
test_run_all (void)
{
  g_autofree char *model = resnet18_path ();
  g_autofree char *rules = steps_rules_path ();
  g_autofree char *expected = core_code (model, rules, FIXPOINT, FALSE);
  g_autofree char *original = NULL;
  g_autofree char *code = NULL;
  GraftWindow     *window = open_resnet_with_rules ();
  GraftDocument   *document = graft_window_get_document (window);
  AdwToast        *toast;

  original = window_code (window);
  graft_document_set_fixpoint (document, FIXPOINT);
  activate (window, "run-all", NULL);
  code = window_code (window);
  g_assert_cmpstr (code, ==, expected);
  /* The rules file was one change; then one per call that replaced
   * something: pass 1 rules 2, 3 and 4, pass 2 rule 1. */
  g_assert_cmpuint (position (window), ==, 5);
  g_assert_cmpstr (graft_document_get_history_label (document, 1), ==,
                   "pass 1 · add_op → sub_of_neg · 8 matches");
  g_assert_cmpstr (graft_document_get_history_label (document, 4), ==,
                   "pass 2 · sub_neg → torch_add · 8 matches");
  g_assert_nonnull (strstr (graft_rules_panel_get_next_text (graft_window_get_rules_panel (window)),
                            "Done"));
  g_assert_cmpuint (history_selected (window), ==, 5);
  g_assert_cmpuint (history_rows (window), ==, 6);

  /* The toast's Undo undoes the run, not only its last call. */
  toast = graft_window_get_undo_toast (window);
  g_assert_nonnull (toast);
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo-change",
                                  adw_toast_get_action_target_value (toast));
  iterate_until (layout_ready, window);
  g_clear_pointer (&code, g_free);
  code = window_code (window);
  g_assert_cmpstr (code, ==, original);
  g_assert_cmpuint (position (window), ==, 1);
  g_assert_cmpuint (history_selected (window), ==, 1);
  close_window (window);
}

#define DEAD_MODEL                                 \
  "import torch\n"                                 \
  "\n"                                             \
  "\n"                                             \
  "class M(torch.nn.Module):\n"                    \
  "    def forward(self, x, y):\n"                 \
  "        a = torch.relu(x)\n"                    \
  "        b = torch.sigmoid(y)\n"                 \
  "        return a + b\n"

#define DEAD_RULES                                 \
  "import torch\n"                                 \
  "\n"                                             \
  "\n"                                             \
  "def relu_plus(a, b):\n"                         \
  "    return torch.relu(a) + b\n"                 \
  "\n"                                             \
  "\n"                                             \
  "def plain_relu(a, b):\n"                        \
  "    return torch.relu(a)\n"                     \
  "\n"                                             \
  "\n"                                             \
  "RULES = [(relu_plus, plain_relu)]\n"

/* With dead-code removal: the replacement leaves `torch.sigmoid(y)`
 * unused; Run All and the last Next remove it as the CLI's --dce does. */
static void
test_dead_code (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-rules-dce-XXXXXX", NULL);
  g_autofree char *model = g_build_filename (dir, "dead.py", NULL);
  g_autofree char *rules = g_build_filename (dir, "dead_rules.py", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *code = NULL;
  g_autoptr (GFile) rules_file = NULL;
  GraftWindow     *window;
  GraftDocument   *document;
  GraftNextStep    next;

  g_assert_true (g_file_set_contents (model, DEAD_MODEL, -1, NULL));
  g_assert_true (g_file_set_contents (rules, DEAD_RULES, -1, NULL));
  expected = core_code (model, rules, 0, TRUE);
  g_assert_null (strstr (expected, "sigmoid"));
  rules_file = g_file_new_for_path (rules);
  window = open_path (model);
  document = graft_window_get_document (window);
  graft_window_open_rules (window, rules_file);
  graft_document_set_dce (document, TRUE);

  activate (window, "run-all", NULL);
  code = window_code (window);
  g_assert_cmpstr (code, ==, expected);
  g_assert_cmpstr (graft_document_get_history_label (document, position (window) - 1), ==,
                   "dead code · 1 node removed");

  /* Stepping: the rule, then the dead code, then nothing. */
  graft_document_go_to (document, 1);
  iterate_until (layout_ready, window);
  activate (window, "step", NULL);
  graft_document_get_next_step (document, &next);
  g_assert_cmpint (next.kind, ==, GRAFT_NEXT_DCE);
  g_assert_cmpuint (next.n_matches, ==, 1);
  activate (window, "step", NULL);
  graft_document_get_next_step (document, &next);
  g_assert_cmpint (next.kind, ==, GRAFT_NEXT_DONE);
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "step"));
  g_clear_pointer (&code, g_free);
  code = window_code (window);
  g_assert_cmpstr (code, ==, expected);
  close_window (window);
  g_unlink (model);
  g_unlink (rules);
  g_rmdir (dir);
}

/* The acceptance test: stepping through four rules on resnet18,
 * undoing two steps and redoing them, ends with the CLI's code. */
static void
test_step_acceptance (void)
{
  static const char *const labels[] = {
    "pass 1 · add_op → sub_of_neg · 8 matches",
    "pass 1 · flatten_fn → flatten_method · 1 match",
    "pass 1 · method_flatten → reshape_rows · 1 match",
    "pass 2 · sub_neg → torch_add · 8 matches",
  };
  g_autofree char *model = resnet18_path ();
  g_autofree char *rules = steps_rules_path ();
  g_autofree char *expected = core_code (model, rules, FIXPOINT, FALSE);
  g_autofree char *after_two = NULL;
  g_autofree char *code = NULL;
  GraftWindow     *window = open_resnet_with_rules ();
  GraftDocument   *document = graft_window_get_document (window);
  GraftRulesPanel *panel = graft_window_get_rules_panel (window);
  GraftNextStep    next;

  graft_document_set_fixpoint (document, FIXPOINT);
  gtk_widget_grab_focus (GTK_WIDGET (graft_window_get_canvas (window)));
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      /* Before the step, the panel names it and the window shows the
       * matches of its rule. */
      graft_document_get_next_step (document, &next);
      g_assert_cmpint (next.kind, ==, GRAFT_NEXT_RULE);
      g_assert_cmpuint (graft_document_get_selected_rule (document), ==, next.rule);
      g_assert_cmpuint (graft_document_get_n_matches (document), ==, next.n_matches);
      g_assert_true (graft_rule_get_is_next (graft_document_get_rule (document, next.rule)));
      g_assert_nonnull (strstr (graft_rules_panel_get_next_text (panel), strchr (labels[i], 'p')));
      activate (window, "step", NULL);
      g_assert_cmpstr (graft_document_get_history_label (document, position (window) - 1), ==,
                       labels[i]);
      g_assert_cmpuint (history_selected (window), ==, position (window));
      if (i == 1)
        after_two = window_code (window);
    }
  graft_document_get_next_step (document, &next);
  g_assert_cmpint (next.kind, ==, GRAFT_NEXT_DONE);
  code = window_code (window);
  g_assert_cmpstr (code, ==, expected);

  /* Two undone: the loop is back in pass 1, before rule 4. */
  activate (window, "undo", NULL);
  activate (window, "undo", NULL);
  g_clear_pointer (&code, g_free);
  code = window_code (window);
  g_assert_cmpstr (code, ==, after_two);
  g_assert_cmpuint (history_selected (window), ==, position (window));
  graft_document_get_next_step (document, &next);
  g_assert_cmpint (next.kind, ==, GRAFT_NEXT_RULE);
  g_assert_cmpuint (next.pass, ==, 1);
  g_assert_cmpuint (next.rule, ==, 3);
  g_assert_cmpuint (graft_document_get_selected_rule (document), ==, 3);

  /* Redone: the CLI's code, byte for byte. */
  activate (window, "redo", NULL);
  activate (window, "redo", NULL);
  g_clear_pointer (&code, g_free);
  code = window_code (window);
  g_assert_cmpstr (code, ==, expected);
  g_assert_cmpuint (history_selected (window), ==, position (window));
  graft_document_get_next_step (document, &next);
  g_assert_cmpint (next.kind, ==, GRAFT_NEXT_DONE);
  close_window (window);
}

/* Next Match replaces one match; Skip passes over the next one, and the
 * call (Next) then leaves it alone. */
static void
test_step_match_skip (void)
{
  GraftWindow     *window = open_resnet_with_rules ();
  GraftDocument   *document = graft_window_get_document (window);
  g_autofree char *code = NULL;
  GraftNextStep    next;

  graft_document_get_next_step (document, &next);
  g_assert_cmpuint (next.rule, ==, 1);
  g_assert_cmpuint (next.n_matches, ==, 8);
  activate (window, "step-match", NULL);
  g_assert_cmpstr (graft_document_get_history_label (document, position (window) - 1), ==,
                   "pass 1 · add_op → sub_of_neg · match 1");
  graft_document_get_next_step (document, &next);
  g_assert_cmpuint (next.rule, ==, 1);
  g_assert_cmpuint (next.n_matches, ==, 7);
  g_assert_true (next.in_call);

  /* Skip the next one: six left for the call. */
  activate (window, "skip-match", NULL);
  graft_document_get_next_step (document, &next);
  g_assert_cmpuint (next.rule, ==, 1);
  g_assert_cmpuint (next.n_matches, ==, 6);
  g_assert_cmpuint (next.n_skipped, ==, 1);
  g_assert_cmpuint (next.match, ==, 1);
  activate (window, "step", NULL);
  g_assert_cmpstr (graft_document_get_history_label (document, position (window) - 1), ==,
                   "pass 1 · add_op → sub_of_neg · 6 matches");
  /* The skipped add is still there; the loop went on to rule 3. */
  code = window_code (window);
  {
    g_auto (GStrv) parts = g_strsplit (code, " + ", -1);

    g_assert_cmpuint (g_strv_length (parts), ==, 2);
  }
  graft_document_get_next_step (document, &next);
  g_assert_cmpuint (next.rule, ==, 2);

  /* Undone, the loop is back after the first match: the skip went with
   * the step that recorded it. */
  activate (window, "undo", NULL);
  graft_document_get_next_step (document, &next);
  g_assert_cmpuint (next.rule, ==, 1);
  g_assert_cmpuint (next.n_matches, ==, 7);
  close_window (window);
}

int
main (int    argc,
      char **argv)
{
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }
  {
    /* Autosaves go to a state folder of the test's own. */
    g_autofree char *state = g_dir_make_tmp ("graft-state-XXXXXX", NULL);

    g_setenv ("XDG_STATE_HOME", state, TRUE);
  }
  g_unsetenv ("GRAFT_TORCH");
  hold_display ();
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_test_add_func ("/ui/rules/run-all", test_run_all);
  g_test_add_func ("/ui/rules/dead-code", test_dead_code);
  g_test_add_func ("/ui/rules/step-acceptance", test_step_acceptance);
  g_test_add_func ("/ui/rules/step-match-skip", test_step_match_skip);
  return g_test_run ();
}
