/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-busy-views.c: Show Changes and Match in Context do their work over
 * main-loop turns and on workers (graft-diff-window.c,
 * graft-document-changes.c, graft-context-window.c).  What they show is
 * what the synchronous work shows; a change of the document while they
 * work starts them again, so nothing stale is shown; closing a window or
 * the editor while they work is safe, and the document goes on the main
 * thread.  The code is made one node per turn here, so a small graph
 * takes many turns; nothing waits on time.
 */
#include "config.h"

#include "example.h"
#include "graft-comparison-private.h"
#include "graft-comparison.h"
#include "graft-context-window.h"
#include "graft-code-rows.h"
#include "graft-diff-window.h"
#include "graft-split-window.h"
#include "graft-window-private.h"
#include "graft-document-changes.h"
#include "graft-document-private.h"
#include "window-util.h"

#include <glib/gstdio.h>
#include <string.h>

/* Runs at most @turns turns of the main loop, without blocking. */
static void
run_turns (guint turns)
{
  for (guint i = 0; i < turns; i++)
    g_main_context_iteration (NULL, FALSE);
}

/* The example with its forward made longer: 32 matches of its rule in a
 * chain, so a neighbourhood has rings to grow and a change many lines. */
static char *
long_example_path (const char *dir)
{
  g_autofree char *example = example_path ();
  g_autofree char *text = NULL;
  g_autoptr (GString) body = g_string_new (NULL);
  const char *ret = "        return x + torch.max(m1) + torch.max(m2)\n";
  char       *at;
  char       *path = g_build_filename (dir, "long.py", NULL);
  g_autoptr (GString) out = g_string_new (NULL);

  g_assert_true (g_file_get_contents (example, &text, NULL, NULL));
  at = strstr (text, ret);
  g_assert_nonnull (at);
  g_string_append (body, "        x = x + torch.max(m1) + torch.max(m2)\n");
  for (guint i = 3; i <= 32; i++)
    g_string_append_printf (body,
                            "        val%u = torch.neg(w1)\n"
                            "        m%u = torch.cat([val%u, w2]).sum()\n"
                            "        x = torch.relu(x + torch.max(m%u))\n",
                            i, i, i, i);
  g_string_append (body, "        return x\n");
  g_string_append_len (out, text, at - text);
  g_string_append (out, body->str);
  g_string_append (out, at + strlen (ret));
  g_assert_true (g_file_set_contents (path, out->str, -1, NULL));
  return path;
}

static GraftDiffWindow *
open_changes (GraftWindow *window)
{
  GtkWidget *diff = open_toplevel (window, "show-changes", NULL, GRAFT_TYPE_DIFF_WINDOW);

  /* Not drawn: GTK 4.8 warns, at random, that it draws one of its two
   * scrolled windows (which share their vertical adjustment) without a
   * current allocation, as it did before this work (bench-editor
   * --changes); the warnings are fatal here.  The work goes on hidden. */
  gtk_widget_set_visible (diff, FALSE);
  return GRAFT_DIFF_WINDOW (diff);
}

/* @diff shows what the window made at once from the document's texts
 * shows: the same lines, tints and counts. */
static void
assert_same_as_sync (GraftDiffWindow *diff,
                     GraftDocument   *document)
{
  const char      *what = NULL;
  g_autofree char *before = graft_document_dup_last_change (document, &what);
  g_autofree char *after = graft_document_dup_code (document);
  GtkWidget       *sync =
      graft_diff_window_new (NULL, what, g_strstrip (before), g_strstrip (after));

  g_assert_cmpuint (graft_diff_window_get_n_removed (diff), ==,
                    graft_diff_window_get_n_removed (GRAFT_DIFF_WINDOW (sync)));
  g_assert_cmpuint (graft_diff_window_get_n_added (diff), ==,
                    graft_diff_window_get_n_added (GRAFT_DIFF_WINDOW (sync)));
  g_assert_cmpstr (graft_diff_window_get_subtitle (diff), ==,
                   graft_diff_window_get_subtitle (GRAFT_DIFF_WINDOW (sync)));
  for (guint s = 0; s < 2; s++)
    {
      g_autofree char *got = graft_diff_window_dup_side (diff, s == 1);
      g_autofree char *want = graft_diff_window_dup_side (GRAFT_DIFF_WINDOW (sync), s == 1);

      g_assert_cmpstr (got, ==, want);
    }
  gtk_window_destroy (GTK_WINDOW (sync));
}

/* Forgets the code before the last change, as a run of the rules leaves
 * it: the window makes it over turns, the change undone in each. */
static void
forget_code_before (GraftDocument *document)
{
  gint change = graft_document_get_compared_change (document);

  g_assert_cmpint (change, >=, 0);
  g_clear_pointer (&((HistoryEntry *) document->history->pdata[change])->before, g_free);
}

/* Replace All, then Show Changes: the same as at once, whether the code
 * before the change is known or made over turns, on two graphs. */
static void
test_changes_same (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-busy-XXXXXX", NULL);
  g_autofree char *long_path = long_example_path (dir);
  g_autofree char *example = example_path ();
  const char      *paths[] = { example, long_path };

  for (guint p = 0; p < G_N_ELEMENTS (paths); p++)
    for (guint forget = 0; forget < 2; forget++)
      {
        GraftWindow     *window = open_path (paths[p]);
        GraftDocument   *document = graft_window_get_document (window);
        GraftDiffWindow *diff;

        activate (window, "replace-all", NULL);
        if (forget)
          forget_code_before (document);
        diff = open_changes (window);
        /* The window opens at once and works over the next turns. */
        g_assert_false (graft_diff_window_get_ready (diff));
        iterate_until (diff_ready, diff);
        g_assert_false (graft_diff_window_get_busy (diff));
        g_assert_cmpuint (graft_diff_window_get_n_removed (diff), >, 0);
        assert_same_as_sync (diff, document);
        gtk_window_destroy (GTK_WINDOW (diff));
        close_window (window);
      }
  g_unlink (long_path);
  g_rmdir (dir);
}

/* The graph's code, as the document holds it now. */
static char *
graph_code (GraftDocument *document)
{
  return g_string_free (graft_codegen_module_code_string (graft_document_get_graph (document)),
                        FALSE);
}

static gboolean
edit_put_back (gpointer edit)
{
  return !graft_edit_is_replaying (edit);
}

/* How a test of a view that takes the graph away from the document's
 * position (to read the change it shows) meddles at the third step it
 * sees the change's edit half replayed. */
typedef enum {
  AWAY_WAIT,  /* not at all */
  AWAY_READ,  /* it reads the graph */
  AWAY_CLOSE, /* it closes the view, then reads the graph */
} Away;

/* The start of a test of wait_away(): the example after Replace All,
 * @change (its place in the history) and @entry, its code as Replace All
 * left it, and the edit replayed one operation a step from now on. */
static GraftWindow *
start_away (guint         *change,
            HistoryEntry **entry,
            char         **code)
{
  GraftWindow   *window = open_example ();
  GraftDocument *document = graft_window_get_document (window);

  activate (window, "replace-all", NULL);
  *change = (guint) graft_document_get_compared_change (document);
  *entry = document->history->pdata[*change];
  g_assert_nonnull ((*entry)->edit);
  *code = graph_code (document);
  _graft_comparison_set_travel_step (1);
  return window;
}

/* Runs the main loop until @ready says @view is done, with @entry's edit
 * replayed one operation a step (_graft_comparison_set_travel_step (1)),
 * meddling as @how says; after a close, the document gets its graph back.
 * What reads the graph gets it back, as @code, and the edit applied.
 * Returns @view, or %NULL once closed. */
static gpointer
wait_away (gpointer view,
           gboolean (*ready) (gpointer view),
           GraftDocument *document,
           HistoryEntry  *entry,
           const char    *code,
           Away           how)
{
  guint n_half = 0;

  while (view != NULL && !ready (view))
    {
      g_autofree char *code_after = NULL;

      g_main_context_iteration (NULL, TRUE);
      if (!graft_edit_is_replaying (entry->edit) || ++n_half != 3 || how == AWAY_WAIT)
        continue;
      if (how == AWAY_CLOSE)
        {
          gtk_window_destroy (GTK_WINDOW (view));
          view = NULL;
          /* The task goes in a turn to come (its steps wait for input
           * and frames). */
          iterate_until (edit_put_back, entry->edit);
        }
      code_after = graph_code (document);
      g_assert_false (graft_edit_is_replaying (entry->edit));
      g_assert_true (graft_edit_is_applied (entry->edit));
      g_assert_cmpstr (code_after, ==, code);
    }
  /* The edit, one operation a step: undone then redone by steps. */
  g_assert_cmpuint (n_half, >=, 3);
  return view;
}

/* The end of a test of wait_away(): the graph as it was, @code, and the
 * travel step and @window gone. */
static void
end_away (GraftWindow  *window,
          HistoryEntry *entry,
          const char   *code)
{
  g_autofree char *code_after = graph_code (graft_window_get_document (window));

  g_assert_false (graft_edit_is_replaying (entry->edit));
  g_assert_cmpstr (code_after, ==, code);
  _graft_comparison_set_travel_step (0);
  close_window (window);
}

/* Show Changes of a change whose code before it is not known holds the
 * graph with the change undone across turns, replaying the edit by steps
 * (here of one operation), not undone and redone whole in every turn:
 * between two turns the edit is seen half replayed.  What reads the graph
 * meanwhile (how 1) gets it back at once, as it is at the document's
 * position; closing the window half-way (how 2) brings it back too.  The
 * texts are those graft_document_dup_last_change() gives. */
static void
test_changes_away (void)
{
  for (Away how = AWAY_WAIT; how <= AWAY_CLOSE; how++)
    {
      g_autofree char *code = NULL;
      HistoryEntry    *entry;
      guint            change;
      GraftWindow     *window = start_away (&change, &entry, &code);
      GraftDocument   *document = graft_window_get_document (window);
      GraftDiffWindow *diff;

      forget_code_before (document);
      diff = wait_away (open_changes (window), diff_ready, document, entry, code, how);
      if (diff != NULL)
        {
          assert_same_as_sync (diff, document);
          gtk_window_destroy (GTK_WINDOW (diff));
        }
      end_away (window, entry, code);
    }
}

/* An undo while the window works: it shows the change that is last when
 * it is done, not the one it began with. */
static void
test_changes_superseded (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-busy-XXXXXX", NULL);
  g_autofree char *path = long_example_path (dir);

  for (guint turns = 0; turns < 4; turns += 3)
    {
      GraftWindow     *window = open_path (path);
      GraftDocument   *document = graft_window_get_document (window);
      GraftDiffWindow *diff;

      activate (window, "replace-match", g_variant_new_uint32 (0));
      activate (window, "replace-all", NULL);
      forget_code_before (document);
      diff = open_changes (window);
      /* One node per turn: the code before Replace All is still being
       * made after a few turns. */
      run_turns (turns);
      g_assert_false (graft_diff_window_get_ready (diff));
      activate (window, "undo", NULL);
      iterate_until (diff_ready, diff);
      /* The replacement of match 1. */
      g_assert_true (g_str_has_prefix (
          graft_diff_window_get_subtitle (diff),
          graft_document_get_history_label (
              document, (guint) graft_document_get_compared_change (document))));
      assert_same_as_sync (diff, document);
      gtk_window_destroy (GTK_WINDOW (diff));
      close_window (window);
    }
  g_unlink (path);
  g_rmdir (dir);
}

static void
texts_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  GraftChangeTexts **out = user_data;
  g_autoptr (GError) error = NULL;

  *out = graft_document_last_change_finish (result, &error);
  g_assert_no_error (error);
}

static gboolean
texts_made (gpointer data)
{
  return *(GraftChangeTexts **) data != NULL;
}

/* The document's texts for Show Changes, with an undo while the code
 * before the change is made in turns: the texts of the change that is
 * last when they come, not of the one they began with. */
static void
test_changes_document (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-busy-XXXXXX", NULL);
  g_autofree char *path = long_example_path (dir);
  GraftWindow     *window = open_path (path);
  GraftDocument   *document = graft_window_get_document (window);
  g_autoptr (GraftChangeTexts) texts = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  const char      *label = NULL;

  activate (window, "replace-match", g_variant_new_uint32 (0));
  forget_code_before (document);
  activate (window, "replace-all", NULL);
  forget_code_before (document);
  graft_document_last_change_async (document, NULL, texts_cb, &texts);
  run_turns (5);
  g_assert_null (texts);
  graft_document_undo (document);
  iterate_until (texts_made, &texts);
  before = graft_document_dup_last_change (document, &label);
  after = graft_document_dup_code (document);
  g_assert_cmpstr (texts->label, ==, label);
  g_assert_cmpstr (texts->before, ==, before);
  g_assert_cmpstr (texts->after, ==, after);
  close_window (window);
  g_unlink (path);
  g_rmdir (dir);
}

typedef struct
{
  GThread *main_thread;
  gboolean gone;
  gboolean on_main;
} Gone;

static void
document_gone_cb (gpointer data,
                  GObject *object)
{
  Gone *gone = data;

  gone->gone = TRUE;
  gone->on_main = g_thread_self () == gone->main_thread;
}

static gboolean
is_gone (gpointer data)
{
  return ((Gone *) data)->gone;
}

/* Closing the Changes window while it works, or the editor window and then
 * the Changes window (the document changed in between): nothing runs on
 * what is gone, and the document is finalized on the main thread. */
static void
test_changes_close (void)
{
  for (guint editor_first = 0; editor_first < 2; editor_first++)
    for (guint turns = 0; turns < 8; turns += 4)
      {
        GraftWindow     *window = open_example ();
        GraftDocument   *document = graft_window_get_document (window);
        Gone             gone = { g_thread_self (), FALSE, FALSE };
        GraftDiffWindow *diff;

        activate (window, "replace-all", NULL);
        forget_code_before (document);
        diff = open_changes (window);
        g_object_weak_ref (G_OBJECT (document), document_gone_cb, &gone);
        run_turns (turns);
        if (editor_first)
          {
            close_window (window);
            run_turns (turns);
            /* The Changes window holds the document after the editor
             * window went: a change of it then (its signals, the
             * matches found again) reaches nothing of the editor's. */
            graft_document_undo (document);
            run_turns (turns);
            gtk_window_destroy (GTK_WINDOW (diff));
          }
        else
          {
            gtk_window_destroy (GTK_WINDOW (diff));
            iterate_until (code_made, document);
            run_turns (8);
            close_window (window);
          }
        iterate_until (is_gone, &gone);
        g_assert_true (gone.on_main);
        iterate_until (no_windows, NULL);
      }
}

/* The texts copied a few bytes a turn: closing the Changes window, or an
 * undo, at every point of the copy and of the worker's comparison after
 * it.  Closed, nothing is left running and the document goes on the main
 * thread; undone, the window shows the change that is last then. */
static void
test_changes_copy (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-busy-XXXXXX", NULL);
  g_autofree char *path = long_example_path (dir);

  _graft_document_set_change_copy_piece (256);
  for (guint how = 0; how < 2; how++)
    for (guint turns = 0; turns < 64; turns += 7)
      {
        GraftWindow     *window = open_path (path);
        GraftDocument   *document = graft_window_get_document (window);
        Gone             gone = { g_thread_self (), FALSE, FALSE };
        GraftDiffWindow *diff;

        activate (window, "replace-match", g_variant_new_uint32 (0));
        activate (window, "replace-all", NULL);
        diff = open_changes (window);
        g_object_weak_ref (G_OBJECT (document), document_gone_cb, &gone);
        run_turns (turns);
        if (how == 0)
          {
            gtk_window_destroy (GTK_WINDOW (diff));
            run_turns (turns);
            close_window (window);
            iterate_until (is_gone, &gone);
            g_assert_true (gone.on_main);
            iterate_until (no_windows, NULL);
            continue;
          }
        if (graft_diff_window_get_ready (diff))
          {
            /* Done: it stays as it is. */
            g_autofree char *shown = graft_diff_window_dup_side (diff, TRUE);
            g_autofree char *still = NULL;

            activate (window, "undo", NULL);
            g_assert_true (graft_diff_window_get_ready (diff));
            g_assert_true (g_str_has_prefix (graft_diff_window_get_subtitle (diff), "Replace all"));
            still = graft_diff_window_dup_side (diff, TRUE);
            g_assert_cmpstr (still, ==, shown);
          }
        else
          {
            activate (window, "undo", NULL);
            iterate_until (diff_ready, diff);
            g_assert_false (
                g_str_has_prefix (graft_diff_window_get_subtitle (diff), "Replace all"));
            assert_same_as_sync (diff, document);
          }
        gtk_window_destroy (GTK_WINDOW (diff));
        close_window (window);
        iterate_until (is_gone, &gone);
      }
  _graft_document_set_change_copy_piece (0);
  g_unlink (path);
  g_rmdir (dir);
}

static const char rows_before[] = "def forward(self, x):\n"
                                  "    a = torch.relu(x)\n"
                                  "    b = a + 1\n"
                                  "    c = b * 2\n"
                                  "    return c";
static const char rows_after[] = "def forward(self, x):\n"
                                 "    a = F.relu(x)\n"
                                 "    b = a + 1\n"
                                 "    return b";

/* A small comparison, row by row: lines the same on both sides face each
 * other, a run of changed lines puts its removed lines beside its added
 * ones and pads the shorter side; each change's first row is known. */
static void
test_changes_rows (void)
{
  GtkWidget       *widget = graft_diff_window_new (NULL, "Edit", rows_before, rows_after);
  GraftDiffWindow *diff = GRAFT_DIFF_WINDOW (widget);
  g_autofree char *left = graft_diff_window_dup_side (diff, FALSE);
  g_autofree char *right = graft_diff_window_dup_side (diff, TRUE);

  g_assert_cmpstr (left, ==,
                   "|def forward(self, x):\n"
                   "[removed]|    a = torch.relu(x)\n"
                   "|    b = a + 1\n"
                   "[removed]|    c = b * 2\n"
                   "[removed]|    return c\n");
  g_assert_cmpstr (right, ==,
                   "|def forward(self, x):\n"
                   "[added]|    a = F.relu(x)\n"
                   "|    b = a + 1\n"
                   "[added]|    return b\n"
                   "[filler]|\n");
  g_assert_cmpuint (graft_diff_window_get_n_removed (diff), ==, 3);
  g_assert_cmpuint (graft_diff_window_get_n_added (diff), ==, 2);
  g_assert_cmpstr (graft_diff_window_get_subtitle (diff), ==, "Edit: 3 lines removed, 2 added");
  g_assert_cmpuint (graft_diff_window_get_n_changes (diff), ==, 2);
  g_assert_cmpuint (graft_diff_window_get_change_row (diff, 0), ==, 1);
  g_assert_cmpuint (graft_diff_window_get_change_row (diff, 1), ==, 3);
  gtk_window_destroy (GTK_WINDOW (widget));
}

/* The rows selected, as a set of positions. */
static char *
selected_rows (GraftDiffWindow *diff)
{
  GtkSelectionModel *model = gtk_list_view_get_model (graft_diff_window_get_list (diff));
  g_autoptr (GtkBitset) selected = gtk_selection_model_get_selection (model);
  GString      *out = g_string_new (NULL);
  GtkBitsetIter iter;
  guint         r;

  for (gboolean more = gtk_bitset_iter_init_first (&iter, selected, &r); more;
       more = gtk_bitset_iter_next (&iter, &r))
    g_string_append_printf (out, "%s%u", out->len > 0 ? " " : "", r);
  return g_string_free (out, FALSE);
}

/* The row under @widget showing @text after a line number, or NULL. */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  g_autofree char *numbered = g_strconcat ("   ", text, NULL);

  return find_code_row_ending (widget, numbered, NULL);
}

/* Whether a row showing @text is drawn inside the list's view. */
static gboolean
row_in_view (GraftDiffWindow *diff,
             const char      *text)
{
  GtkWidget      *list = GTK_WIDGET (graft_diff_window_get_list (diff));
  GtkWidget      *scroller = gtk_widget_get_parent (list);
  GtkWidget      *label = find_label (list, text);
  graphene_rect_t bounds;

  if (label == NULL || !gtk_widget_get_mapped (label) ||
      !gtk_widget_compute_bounds (label, scroller, &bounds))
    return FALSE;
  return bounds.origin.y >= 0 &&
         bounds.origin.y + bounds.size.height <= gtk_widget_get_height (scroller);
}

typedef struct
{
  GraftDiffWindow *diff;
  const char      *text;
} RowWanted;

static gboolean
row_shown (gpointer data)
{
  RowWanted *wanted = data;

  return row_in_view (wanted->diff, wanted->text);
}

/* Waits until the row showing @text is in view: the list scrolls to a
 * row in its next frames, once it knows where the row is. */
static void
wait_row_in_view (GraftDiffWindow *diff,
                  const char      *text)
{
  RowWanted wanted = { diff, text };

  iterate_until (row_shown, &wanted);
}

/* Presses @accel, which does something if @done, and then the rows
 * @rows are selected. */
static void
press_and_select (GraftDiffWindow *diff,
                  const char      *accel,
                  gboolean         done,
                  const char      *rows)
{
  g_autofree char *selected = NULL;

  g_assert_true (press_shortcut (GTK_WIDGET (diff), accel) == done);
  selected = selected_rows (diff);
  g_assert_cmpstr (selected, ==, rows);
}

/* Appends @n lines `    NAMEi = i` to @text, i from @first. */
static void
append_lines (GString    *text,
              guint       first,
              guint       n,
              const char *name)
{
  for (guint i = first; i < first + n; i++)
    g_string_append_printf (text, "    %s%u = %u\n", name, i, i);
}

/* Alt+Down and Alt+Up go from change to change: the change's first row
 * selected and in view, the arrows off where there is none further.
 * Ctrl+C copies the selected rows as a unified diff shows them. */
static void
test_changes_keys (void)
{
  g_autoptr (GString) before = g_string_new ("def forward(self, x):\n");
  g_autoptr (GString) after = g_string_new ("def forward(self, x):\n");
  GraftDiffWindow *diff;
  g_autofree char *rows = NULL;
  g_autofree char *copied = NULL;

  /* Changes at rows 201 and 402 of 603: far apart. */
  for (guint k = 0; k < 3; k++)
    {
      append_lines (before, k * 200, 200, "l");
      append_lines (after, k * 200, 200, "l");
      if (k < 2)
        {
          append_lines (before, k, 1, "old_");
          append_lines (after, k, 1, "changed_");
        }
    }
  diff = GRAFT_DIFF_WINDOW (graft_diff_window_new (NULL, "Edit", before->str, after->str));
  gtk_window_set_default_size (GTK_WINDOW (diff), 900, 400);
  gtk_window_present (GTK_WINDOW (diff));
  iterate_until_drawn (GTK_WIDGET (diff));
  g_assert_cmpuint (graft_diff_window_get_n_changes (diff), ==, 2);
  g_assert_cmpuint (graft_diff_window_get_change_row (diff, 0), ==, 201);
  g_assert_cmpuint (graft_diff_window_get_change_row (diff, 1), ==, 402);

  /* Opened on the first change. */
  rows = selected_rows (diff);
  g_assert_cmpstr (rows, ==, "201");
  g_clear_pointer (&rows, g_free);
  wait_row_in_view (diff, "    changed_0 = 0");

  press_and_select (diff, "<Alt>Down", TRUE, "402");
  wait_row_in_view (diff, "    changed_1 = 1");
  g_assert_false (row_in_view (diff, "    changed_0 = 0"));
  /* The last change: no further (the action is off, and its arrow). */
  press_and_select (diff, "<Alt>Down", FALSE, "402");

  press_and_select (diff, "<Alt>Up", TRUE, "201");
  wait_row_in_view (diff, "    changed_0 = 0");
  g_assert_false (row_in_view (diff, "    changed_1 = 1"));
  press_and_select (diff, "<Alt>Up", FALSE, "201");

  /* A change and the line after it. */
  gtk_selection_model_select_range (gtk_list_view_get_model (graft_diff_window_get_list (diff)),
                                    200, 3, TRUE);
  g_assert_true (press_shortcut (GTK_WIDGET (diff), "<Control>c"));
  copied = clipboard_text (gtk_widget_get_clipboard (GTK_WIDGET (diff)));
  g_assert_cmpstr (copied, ==,
                   "     l199 = 199\n"
                   "-    old_0 = 0\n"
                   "+    changed_0 = 0\n"
                   "     l200 = 200\n");
  gtk_window_destroy (GTK_WINDOW (diff));
}

typedef struct
{
  GtkWidget  *list;
  const char *suffix;
} LabelWanted;

static gboolean
label_ending_shown (gpointer data)
{
  LabelWanted *wanted = data;

  return find_code_row_ending (wanted->list, wanted->suffix, NULL) != NULL;
}

static void
first_rows_cb (GListModel *model,
               guint       position,
               guint       removed,
               guint       added,
               gpointer    user_data)
{
  guint *first = user_data;

  if (*first == 0)
    *first = g_list_model_get_n_items (model);
}

/* A small change's rows come to the list all at once, in one turn (its
 * first frame shows them), not a few a turn. */
static void
test_changes_first_frame (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-busy-XXXXXX", NULL);
  g_autofree char *path = long_example_path (dir);
  GraftWindow     *window = open_path (path);
  GraftDiffWindow *diff;
  GListModel      *rows;
  guint            first = 0;

  activate (window, "replace-all", NULL);
  iterate_until (layout_ready, window);
  diff = open_changes (window);
  rows = G_LIST_MODEL (gtk_list_view_get_model (graft_diff_window_get_list (diff)));
  g_signal_connect (rows, "items-changed", G_CALLBACK (first_rows_cb), &first);
  iterate_until (diff_ready, diff);
  /* More rows than the 8 a turn the list had. */
  g_assert_cmpuint (g_list_model_get_n_items (rows), >, 30);
  g_assert_cmpuint (first, ==, g_list_model_get_n_items (rows));
  g_signal_handlers_disconnect_by_data (rows, &first);
  gtk_window_destroy (GTK_WINDOW (diff));
  close_window (window);
  g_unlink (path);
  g_rmdir (dir);
}

/* The colours of the text the row under @list showing @text draws. */
static GHashTable *
drawn_colors (GtkWidget  *list,
              const char *text)
{
  GtkWidget *row = find_label (list, text);

  g_assert_nonnull (row);
  return widget_text_colors (row);
}

/* Rows in view take the dark style's colours when dark mode is switched
 * on, and the light one's back. */
static void
test_changes_dark (void)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  GtkWidget       *widget = graft_diff_window_new (NULL, "Edit", rows_before, rows_after);
  GtkWidget       *list = GTK_WIDGET (graft_diff_window_get_list (GRAFT_DIFF_WINDOW (widget)));
  g_autofree char *light = NULL;
  g_autofree char *dark = NULL;

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  light = keyword_color ();
  gtk_window_present (GTK_WINDOW (widget));
  iterate_until_drawn (list);
  for (guint mode = 0; mode < 3; mode++)
    {
      g_autoptr (GHashTable) colors = NULL;

      if (mode > 0)
        {
          adw_style_manager_set_color_scheme (manager, mode == 1 ? ADW_COLOR_SCHEME_FORCE_DARK
                                                                 : ADW_COLOR_SCHEME_FORCE_LIGHT);
          iterate_until_drawn (list);
        }
      if (mode == 1)
        dark = keyword_color ();
      colors = drawn_colors (list, "return c");
      g_assert_true (g_hash_table_contains (colors, mode == 1 ? dark : light));
      g_assert_false (g_hash_table_contains (colors, mode == 1 ? light : dark != NULL ? dark
                                                                                      : ""));
    }
  g_assert_cmpstr (light, !=, dark);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
  gtk_window_destroy (GTK_WINDOW (widget));
}

/* Ctrl+A then Ctrl+C copies all the rows without making their text in
 * that turn (a million rows are 300 MB): the clipboard's content is
 * written when a paste asks for it, and it is the rows' text. */
static void
test_changes_copy_later (void)
{
  g_autoptr (GString) before = g_string_new ("def forward(self, x):\n");
  g_autoptr (GString) after = g_string_new ("def forward(self, x):\n");
  GraftDiffWindow    *diff;
  GtkWidget          *list;
  GdkContentProvider *content;
  GValue              value = G_VALUE_INIT;
  g_autofree char    *copied = NULL;
  g_autofree char    *expected = NULL;

  append_lines (before, 0, 30000, "same");
  append_lines (before, 0, 3000, "old");
  append_lines (after, 0, 30000, "same");
  append_lines (after, 0, 2000, "new");
  diff = GRAFT_DIFF_WINDOW (graft_diff_window_new (NULL, "Edit", before->str, after->str));
  list = GTK_WIDGET (graft_diff_window_get_list (diff));
  g_assert_true (press_shortcut (list, "<Control>a"));
  g_assert_true (press_shortcut (GTK_WIDGET (diff), "<Control>c"));
  content = gdk_clipboard_get_content (gtk_widget_get_clipboard (GTK_WIDGET (diff)));
  g_assert_nonnull (content);
  /* Not made as the keys were pressed. */
  g_value_init (&value, G_TYPE_STRING);
  g_assert_false (gdk_content_provider_get_value (content, &value, NULL));
  g_value_unset (&value);
  expected = graft_diff_window_dup_selected_text (diff);
  g_assert_cmpuint (strlen (expected), >, 500000);
  /* The selection changes, the window goes: what was copied stays. */
  gtk_selection_model_unselect_all (gtk_list_view_get_model (GTK_LIST_VIEW (list)));
  gtk_window_destroy (GTK_WINDOW (diff));
  copied = clipboard_text (gdk_display_get_clipboard (gdk_display_get_default ()));
  g_assert_cmpstr (copied, ==, expected);
}

/* A line too long to lay out (a program's outputs at a million nodes: 42
 * MB) is shown shortened, with its length; copied, it is whole. */
static void
test_changes_long_line (void)
{
  g_autoptr (GString) before = g_string_new ("def forward(self, x):\n    a = 1\n    return (");
  g_autoptr (GString) after = NULL;
  GraftDiffWindow *diff;
  LabelWanted      wanted = { NULL, NULL };
  g_autofree char *suffix = NULL;
  const char      *label = NULL;
  g_autofree char *copied = NULL;
  g_autofree char *expected = NULL;

  for (guint i = 0; i < 1000; i++)
    g_string_append (before, "xé, ");
  g_string_append (before, ")");
  after = g_string_new (before->str);
  g_string_replace (after, "a = 1", "a = 2", 1);
  g_string_replace (after, "(xé", "(yé", 1);
  diff = GRAFT_DIFF_WINDOW (graft_diff_window_new (NULL, "Edit", before->str, after->str));
  gtk_window_present (GTK_WINDOW (diff));
  suffix = g_strdup_printf ("(the line goes on: %zu bytes in all)",
                            strlen (strrchr (after->str, '\n') + 1));
  wanted.suffix = suffix;
  wanted.list = GTK_WIDGET (graft_diff_window_get_list (diff));
  iterate_until (label_ending_shown, &wanted);
  g_assert_nonnull (find_code_row_ending (wanted.list, wanted.suffix, &label));
  /* Its number, then its start. */
  g_assert_true (g_str_has_prefix (label, "      3       return (xé, xé"));
  g_assert_cmpuint (strlen (label), <, 2100);
  g_assert_true (g_utf8_validate (label, -1, NULL));
  gtk_selection_model_select_range (gtk_list_view_get_model (GTK_LIST_VIEW (wanted.list)), 1, 2,
                                    TRUE);
  copied = graft_diff_window_dup_selected_text (diff);
  expected = g_strdup_printf ("-    a = 1\n-%s\n+    a = 2\n+%s\n", strrchr (before->str, '\n') + 1,
                              strrchr (after->str, '\n') + 1);
  g_assert_cmpstr (copied, ==, expected);
  gtk_window_destroy (GTK_WINDOW (diff));
}

/* The small comparison's copy: a run of changed rows gives its removed
 * lines, then its added ones. */
static void
test_changes_copy_text (void)
{
  GraftDiffWindow *diff =
      GRAFT_DIFF_WINDOW (graft_diff_window_new (NULL, "Edit", rows_before, rows_after));
  GtkSelectionModel *model = gtk_list_view_get_model (graft_diff_window_get_list (diff));
  g_autofree char   *text = NULL;

  gtk_selection_model_select_range (model, 1, 4, TRUE);
  text = graft_diff_window_dup_selected_text (diff);
  g_assert_cmpstr (text, ==,
                   "-    a = torch.relu(x)\n"
                   "+    a = F.relu(x)\n"
                   "     b = a + 1\n"
                   "-    c = b * 2\n"
                   "-    return c\n"
                   "+    return b\n");
  g_clear_pointer (&text, g_free);
  /* Part of a run: its rows only. */
  gtk_selection_model_select_range (model, 4, 1, TRUE);
  text = graft_diff_window_dup_selected_text (diff);
  g_assert_cmpstr (text, ==, "-    return c\n");
  gtk_window_destroy (GTK_WINDOW (diff));
}

/* What Match in Context showed when it worked at once: the nodes within
 * @hops edges of match @match, found by looking at every node of the
 * graph, whole rings while under 400. */
static GHashTable *
expected_neighbourhood (GraftDocument *document,
                        guint          match,
                        guint          hops)
{
  GraftGraph *graph = graft_document_get_graph (document);
  GHashTable *shown = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) queued = g_hash_table_new (NULL, NULL);
  g_autoptr (GPtrArray) ring = g_ptr_array_new ();

  for (GraftNode *n = graft_graph_get_first (graph); n != NULL; n = graft_node_get_next (n))
    if (graft_document_get_match_of_node (document, graft_node_get_name (n)) == (gint) match)
      {
        g_hash_table_add (shown, (gpointer) graft_node_get_name (n));
        g_ptr_array_add (ring, n);
      }
  for (guint h = 0; h < hops && ring->len > 0; h++)
    {
      g_autoptr (GPtrArray) next = g_ptr_array_new ();

      for (guint k = 0; k < ring->len; k++)
        {
          g_autoptr (GPtrArray) around = graft_node_dup_input_nodes (ring->pdata[k]);

          for (guint u = 0; u < graft_node_get_n_users (ring->pdata[k]); u++)
            g_ptr_array_add (around, graft_node_get_user (ring->pdata[k], u));
          for (guint a = 0; a < around->len; a++)
            if (!g_hash_table_contains (shown, graft_node_get_name (around->pdata[a])) &&
                g_hash_table_add (queued, around->pdata[a]))
              g_ptr_array_add (next, around->pdata[a]);
        }
      if (g_hash_table_size (shown) + next->len > 400)
        break;
      for (guint k = 0; k < next->len; k++)
        g_hash_table_add (shown, (gpointer) graft_node_get_name (next->pdata[k]));
      g_ptr_array_set_size (ring, 0);
      g_ptr_array_extend (ring, next, NULL, NULL);
    }
  return shown;
}

static GraftContextWindow *
open_context (GraftWindow *window,
              guint        match)
{
  return GRAFT_CONTEXT_WINDOW (open_toplevel (window, "match-in-context",
                                              g_variant_new_uint32 (match),
                                              GRAFT_TYPE_CONTEXT_WINDOW));
}

/* The picture shows exactly the expected nodes, with the match marked. */
static void
assert_context (GraftContextWindow *context,
                GraftDocument      *document,
                guint               match,
                guint               hops)
{
  g_autoptr (GHashTable) expected = expected_neighbourhood (document, match, hops);
  GraftCanvas *canvas = graft_context_window_get_canvas (context);
  GraftLayout *layout = graft_canvas_get_layout (canvas);
  guint        n_boxes = 0;

  g_assert_nonnull (layout);
  g_assert_cmpuint (graft_context_window_get_n_shown (context), ==,
                    g_hash_table_size (expected));
  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    {
      const GraftLayoutNode *box = graft_layout_get_node (layout, b);

      if (box->is_stub)
        continue;
      g_assert_true (g_hash_table_contains (expected, box->name));
      n_boxes++;
    }
  g_assert_cmpuint (n_boxes, ==, g_hash_table_size (expected));
}

/* Match in Context: the picture as the synchronous walk of every node
 * found it, at several widths, on two graphs. */
static void
test_context_same (void)
{
  g_autofree char   *dir = g_dir_make_tmp ("graft-busy-XXXXXX", NULL);
  g_autofree char   *long_path = long_example_path (dir);
  g_autofree char   *example = example_path ();
  const char        *paths[] = { example, long_path };
  static const guint hops[] = { 1, 2, 3, 8 };

  for (guint p = 0; p < G_N_ELEMENTS (paths); p++)
    {
      GraftWindow        *window = open_path (paths[p]);
      GraftDocument      *document = graft_window_get_document (window);
      guint               match = graft_document_get_n_matches (document) / 2;
      GraftContextWindow *context = open_context (window, match);

      g_assert_false (graft_context_window_get_ready (context));
      for (guint h = 0; h < G_N_ELEMENTS (hops); h++)
        {
          graft_context_window_set_hops (context, hops[h]);
          iterate_until (context_ready, context);
          g_assert_false (graft_context_window_get_busy (context));
          assert_context (context, document, match, hops[h]);
        }
      gtk_window_destroy (GTK_WINDOW (context));
      close_window (window);
    }
  g_unlink (long_path);
  g_rmdir (dir);
}

/* A neighbourhood too big to read whole (resnet18.pt2's first ReLU, eight
 * edges out: 66 nodes) shows the match readable, in view. */
static void
test_context_readable (void)
{
  g_autofree char    *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "programs",
                                               "resnet18.pt2", NULL);
  GraftWindow        *window = open_path (path);
  GraftContextWindow *context = open_context (window, 0);
  GraftCanvas        *canvas = graft_context_window_get_canvas (context);
  GraftLayout        *layout;
  const GraftRect    *r;
  GraftRect           view;

  iterate_until (context_ready, context);
  graft_context_window_set_hops (context, 8);
  iterate_until (context_ready, context);
  g_assert_cmpuint (graft_context_window_get_n_shown (context), >, 50);
  g_assert_true (graft_canvas_get_readable (canvas));
  layout = graft_canvas_get_layout (canvas);
  r = &graft_layout_get_node (layout, (guint) graft_layout_find_node (layout, "relu"))->box;
  graft_canvas_get_visible_area (canvas, &view);
  g_assert_cmpfloat (r->x, >=, view.x);
  g_assert_cmpfloat (r->y, >=, view.y);
  g_assert_cmpfloat (r->x + r->width, <=, view.x + view.width);
  g_assert_cmpfloat (r->y + r->height, <=, view.y + view.height);
  gtk_window_destroy (GTK_WINDOW (context));
  close_window (window);
}

/* A Replace All while the picture is made: it is made again for the graph
 * as it is then (the match is gone), not shown for the graph before. */
static void
test_context_superseded (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-busy-XXXXXX", NULL);
  g_autofree char *path = long_example_path (dir);

  for (guint turns = 0; turns < 4; turns += 3)
    {
      GraftWindow        *window = open_path (path);
      GraftDocument      *document = graft_window_get_document (window);
      GraftContextWindow *context;

      activate (window, "replace-match", g_variant_new_uint32 (0));
      /* Match 2 of 31 left: the 30 after it shift down by one after an
       * undo. */
      context = open_context (window, 1);
      run_turns (turns);
      g_assert_false (graft_context_window_get_ready (context));
      activate (window, "undo", NULL);
      iterate_until (context_ready, context);
      assert_context (context, document, 1, 2);
      gtk_window_destroy (GTK_WINDOW (context));

      /* Opened while the matches are found again after an edit: it waits
       * for them rather than finding them at once. */
      g_assert_true (graft_document_replace (document, 0, NULL));
      g_assert_true (graft_document_get_matches_pending (document));
      g_action_group_activate_action (G_ACTION_GROUP (window), "match-in-context",
                                      g_variant_new_uint32 (1));
      g_assert_true (graft_document_get_matches_pending (document));
      context = GRAFT_CONTEXT_WINDOW (find_toplevel (GRAFT_TYPE_CONTEXT_WINDOW));
      g_assert_nonnull (context);
      g_assert_false (graft_context_window_get_ready (context));
      iterate_until (context_ready, context);
      assert_context (context, document, 1, 2);
      gtk_window_destroy (GTK_WINDOW (context));
      close_window (window);
    }
  g_unlink (path);
  g_rmdir (dir);
}

/* Match in Context shows its layout once the layout's match marks are
 * made over turns (here one matched node a turn), not before, with the
 * marks graft_document_dup_layout_marks() gives.  A replace while they are
 * made (edit 1) starts the picture again, of the graph then. */
static void
test_context_marks (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-busy-XXXXXX", NULL);
  g_autofree char *path = long_example_path (dir);
  GraftWindow     *window = open_path (path);
  GraftDocument   *document = graft_window_get_document (window);

  _graft_context_window_set_step (1);
  for (guint edit = 0; edit < 2; edit++)
    {
      GraftContextWindow *context = open_context (window, 1);
      GraftCanvas        *canvas = graft_context_window_get_canvas (context);
      g_autofree gint    *want = NULL;
      const gint         *got;
      GraftLayout        *layout;
      guint               n_turns = 0;
      guint               n_marked = 0;

      while (!graft_context_window_get_ready (context) &&
             !_graft_context_window_get_marking (context))
        g_main_context_iteration (NULL, TRUE);
      g_assert_true (_graft_context_window_get_marking (context));
      while (_graft_context_window_get_marking (context))
        {
          g_assert_false (graft_context_window_get_ready (context));
          g_assert_null (graft_canvas_get_layout (canvas));
          if (edit == 1 && n_turns == 2)
            {
              g_autoptr (GError) error = NULL;

              g_assert_true (graft_document_replace (document, 0, &error));
              g_assert_no_error (error);
              g_assert_false (_graft_context_window_get_marking (context));
            }
          g_main_context_iteration (NULL, TRUE);
          n_turns++;
        }
      g_assert_cmpuint (n_turns, >=, 3);
      iterate_until (context_ready, context);
      assert_context (context, document, 1, 2);
      layout = graft_canvas_get_layout (canvas);
      want = graft_document_dup_layout_marks (document, layout);
      got = graft_canvas_get_marks (canvas);
      g_assert_nonnull (got);
      for (guint i = 0; i < graft_layout_get_n_graph_nodes (layout); i++)
        {
          g_assert_cmpint (got[i], ==, want[i]);
          n_marked += got[i] == 1;
        }
      g_assert_cmpuint (n_marked, >, 0);
      gtk_window_destroy (GTK_WINDOW (context));
    }
  _graft_context_window_set_step (0);
  close_window (window);
  g_unlink (path);
  g_rmdir (dir);
}

/* Closing Match in Context, or the editor window first, while it works. */
static void
test_context_close (void)
{
  for (guint editor_first = 0; editor_first < 2; editor_first++)
    for (guint turns = 0; turns < 4; turns += 2)
      {
        GraftWindow        *window = open_example ();
        GraftDocument      *document = graft_window_get_document (window);
        Gone                gone = { g_thread_self (), FALSE, FALSE };
        GraftContextWindow *context = open_context (window, 1);

        g_object_weak_ref (G_OBJECT (document), document_gone_cb, &gone);
        run_turns (turns);
        if (editor_first)
          {
            close_window (window);
            run_turns (turns);
            gtk_window_destroy (GTK_WINDOW (context));
          }
        else
          {
            gtk_window_destroy (GTK_WINDOW (context));
            run_turns (8);
            close_window (window);
          }
        iterate_until (is_gone, &gone);
        g_assert_true (gone.on_main);
        iterate_until (no_windows, NULL);
      }
}

/* The boxes of a layout, by name, in order, with each graph node's change
 * (@changes, per graph node) for those that are one node. */
static char *
describe_side (GraftLayout  *layout,
               const guint8 *changes)
{
  GString *out = g_string_new (NULL);

  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    {
      const GraftLayoutNode *box = graft_layout_get_node (layout, b);

      g_string_append_printf (out, "%s%s:%d\n", box->name, box->is_stub ? " (stub)" : "",
                              box->n_members > 0 || box->is_stub ? -1
                                                                 : changes[box->node_index]);
    }
  return g_string_free (out, FALSE);
}

/* The sides of @comparison laid out, as @split should show them. */
static void
assert_split_as (GraftSplitWindow *split,
                 GraftComparison  *comparison)
{
  for (guint c = 0; c < 4; c++)
    {
      const char *const *names = graft_comparison_get_names (comparison, c);

      g_assert_cmpuint (graft_split_window_get_n_changed (split, c), ==,
                        g_strv_length ((char **) names));
    }
  for (guint s = 0; s < 2; s++)
    {
      g_autoptr (GraftLayoutRequest) request = graft_comparison_steal_request (comparison, s == 1);
      g_autofree guint8 *changes = graft_comparison_steal_node_changes (comparison, s == 1);
      g_autoptr (GError) error = NULL;
      GraftLayout     *want = graft_layout_request_run (request, &error);
      GraftCanvas     *canvas = graft_split_window_get_canvas (split, s == 1);
      GraftLayout     *got = graft_canvas_get_layout (canvas);
      g_autofree char *want_text = NULL;
      g_autofree char *got_text = NULL;

      g_assert_no_error (error);
      want_text = describe_side (want, changes);
      /* The window's node changes, read back box by box. */
      {
        GString *out = g_string_new (NULL);

        for (guint b = 0; b < graft_layout_get_n_nodes (got); b++)
          {
            const GraftLayoutNode *box = graft_layout_get_node (got, b);

            g_string_append_printf (
                out, "%s%s:%d\n", box->name, box->is_stub ? " (stub)" : "",
                box->n_members > 0 || box->is_stub
                    ? -1
                    : graft_split_window_get_node_change (split, s == 1, box->name));
          }
        got_text = g_string_free (out, FALSE);
      }
      g_assert_cmpstr (got_text, ==, want_text);
      graft_layout_free (want);
    }
}

static GraftSplitWindow *
open_split (GraftWindow *window)
{
  return GRAFT_SPLIT_WINDOW (open_toplevel (window, "compare", NULL, GRAFT_TYPE_SPLIT_WINDOW));
}

/* Compare Graphs over turns: the comparison graft_document_compare()
 * makes at once, on two graphs, unfolded and folded into an overview. */
static void
test_split_same (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-busy-XXXXXX", NULL);
  g_autofree char *long_path = long_example_path (dir);
  g_autofree char *example = example_path ();
  g_autofree char *resnet =
      g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "data", "examples",
                        "resnet18_bn_relu.py", NULL);
  const char *paths[] = { example, long_path, resnet };

  /* resnet18 has modules: 8 boxes fold it into an overview. */
  for (guint p = 0; p < G_N_ELEMENTS (paths); p++)
    for (guint boxes = 0; boxes <= 8; boxes += 8)
      {
        GraftWindow      *window = open_path (paths[p]);
        GraftDocument    *document = graft_window_get_document (window);
        GraftSplitWindow *split;
        g_autoptr (GraftComparison) comparison = NULL;
        g_autoptr (GError) error = NULL;
        gint change;

        activate (window, "replace-match", g_variant_new_uint32 (0));
        if (graft_document_get_n_matches (document) > 0)
          activate (window, "replace-all", NULL);
        change = graft_document_get_compared_change (document);
        split = GRAFT_SPLIT_WINDOW (graft_split_window_new_for_document (
            GTK_WINDOW (window), document, (guint) change, boxes));
        gtk_window_present (GTK_WINDOW (split));
        g_assert_false (graft_split_window_get_compared (split));
        iterate_until (split_ready, split);
        comparison = graft_document_compare (document, (guint) change, boxes, &error);
        g_assert_no_error (error);
        assert_split_as (split, comparison);
        if (p == 2 && boxes > 0)
          {
            GraftLayout *layout =
                graft_canvas_get_layout (graft_split_window_get_canvas (split, FALSE));
            guint n_folded = 0;

            for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
              n_folded += graft_layout_get_node (layout, b)->n_members > 0;
            g_assert_cmpuint (n_folded, >, 0);
          }
        gtk_window_destroy (GTK_WINDOW (split));

        if (change == 0)
          {
            close_window (window);
            continue;
          }
        /* The change before it, the newer one undone for each visit. */
        split = GRAFT_SPLIT_WINDOW (graft_split_window_new_for_document (
            GTK_WINDOW (window), document, (guint) change - 1, boxes));
        iterate_until (split_ready, split);
        g_clear_pointer (&comparison, graft_comparison_free);
        comparison = graft_document_compare (document, (guint) change - 1, boxes, &error);
        g_assert_no_error (error);
        assert_split_as (split, comparison);
        gtk_window_destroy (GTK_WINDOW (split));
        close_window (window);
      }
  g_unlink (long_path);
  g_rmdir (dir);
}

static gboolean
has_size (gpointer widget)
{
  return gtk_widget_get_width (widget) > 0 && gtk_widget_get_height (widget) > 0;
}

/* Replace All in @path, and Compare Graphs of it, laid out. */
static GraftSplitWindow *
compare_replace_all (GraftWindow *window)
{
  GraftDocument    *document = graft_window_get_document (window);
  GraftSplitWindow *split;

  activate (window, "replace-all", NULL);
  split = GRAFT_SPLIT_WINDOW (graft_split_window_new_for_document (
      GTK_WINDOW (window), document, (guint) graft_document_get_compared_change (document), 0));
  gtk_window_present (GTK_WINDOW (split));
  for (guint s = 0; s < 2; s++)
    iterate_until (has_size, graft_split_window_get_canvas (split, s == 1));
  iterate_until (split_ready, split);
  return split;
}

/* A graph shown whole and readable, its first change in sight, stays
 * shown whole: centring the change would push half of the graph out of
 * view. */
static void
test_split_fitted (void)
{
  g_autofree char  *example = example_path ();
  GraftWindow      *window = open_path (example);
  GraftSplitWindow *split = compare_replace_all (window);

  for (guint s = 0; s < 2; s++)
    {
      GraftCanvas *canvas = graft_split_window_get_canvas (split, s == 1);
      GraftRect    view;
      double       width;
      double       height;

      g_assert_true (graft_canvas_get_readable (canvas));
      graft_layout_get_size (graft_canvas_get_layout (canvas), &width, &height);
      graft_canvas_get_visible_area (canvas, &view);
      g_assert_cmpfloat (view.height, >=, height);
      g_assert_cmpfloat (view.y, <=, 0);
      g_assert_cmpfloat (view.y + view.height, >=, height);
      g_assert_cmpfloat (view.x, <=, 0);
      g_assert_cmpfloat (view.x + view.width, >=, width);
    }
  gtk_window_destroy (GTK_WINDOW (split));
  close_window (window);
}

/* A graph too big to read whole (resnet18_bn_relu.py fitted at 8 %) shows
 * its first change (bn1, removed) readable, and the other side at the
 * same zoom.  The change is near the graph's top: the graph's top is at
 * the view's, not halfway down it under blank canvas, on both sides.
 * Both sides draw the module frames the main canvas draws (they had
 * none). */
static void
test_split_readable (void)
{
  g_autofree char *resnet =
      g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "data", "examples",
                        "resnet18_bn_relu.py", NULL);
  GraftWindow      *window = open_path (resnet);
  GraftSplitWindow *split = compare_replace_all (window);
  GraftCanvas      *before = graft_split_window_get_canvas (split, FALSE);
  GraftCanvas      *after = graft_split_window_get_canvas (split, TRUE);
  GraftLayout      *layout = graft_canvas_get_layout (before);
  const GraftRect  *r = &graft_layout_get_node (layout, (guint) graft_layout_find_node (layout,
                                                                                        "bn1"))
                            ->box;
  GraftRect          view;
  guint              n_frames;
  GraftRenderOptions options;
  g_autoptr (GBytes) with_controls = NULL;
  g_autoptr (GBytes) without_controls = NULL;

  g_assert_true (graft_canvas_get_readable (before));
  g_assert_cmpfloat (graft_canvas_get_zoom (after), ==, graft_canvas_get_zoom (before));
  graft_canvas_get_visible_area (before, &view);
  g_assert_cmpfloat (r->x, >=, view.x);
  g_assert_cmpfloat (r->y, >=, view.y);
  g_assert_cmpfloat (r->x + r->width, <=, view.x + view.width);
  g_assert_cmpfloat (r->y + r->height, <=, view.y + view.height);
  assert_view_filled (before);
  assert_view_filled (after);
  n_frames = graft_layout_get_n_frames (graft_canvas_get_layout (graft_window_get_canvas (window)));
  g_assert_cmpuint (n_frames, >, 0);
  g_assert_cmpuint (graft_layout_get_n_frames (layout), ==, n_frames);
  g_assert_cmpuint (graft_layout_get_n_frames (graft_canvas_get_layout (after)), ==, n_frames);
  /* Without their fold controls, which did nothing in this window: a
   * click on one is not taken as one, and they are not drawn. */
  graft_render_options_init (&options);
  with_controls = graft_render_to_bytes (layout, GRAFT_FORMAT_PNG, &options, NULL);
  options.no_controls = TRUE;
  without_controls = graft_render_to_bytes (layout, GRAFT_FORMAT_PNG, &options, NULL);
  g_assert_false (g_bytes_equal (with_controls, without_controls));
  for (guint f = 0; f < n_frames; f++)
    {
      GraftRect   control;
      const char *scope;
      gboolean    expand;
      double      wx;
      double      wy;

      graft_layout_get_frame_control (graft_layout_get_frame (layout, f), &control);
      g_assert_true (graft_layout_hit_control (layout, control.x + control.width / 2,
                                               control.y + control.height / 2, &scope, &expand));
      graft_canvas_layout_to_widget (before, control.x + control.width / 2,
                                     control.y + control.height / 2, &wx, &wy);
      g_assert_true (graft_canvas_get_fixed (before));
      g_assert_false (graft_canvas_activate_control (before, wx, wy));
    }
  gtk_window_destroy (GTK_WINDOW (split));
  close_window (window);
}

static gboolean
split_compared (gpointer split)
{
  return graft_split_window_get_compared (split);
}

/* An undo while the comparison is made: it is made again, of the change
 * as the history holds it then; an undo of everything says there is
 * nothing left to compare. */
static void
test_split_superseded (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-busy-XXXXXX", NULL);
  g_autofree char *path = long_example_path (dir);

  for (guint turns = 0; turns < 6; turns += 5)
    {
      GraftWindow      *window = open_path (path);
      GraftDocument    *document = graft_window_get_document (window);
      GraftSplitWindow *split;
      g_autoptr (GraftComparison) comparison = NULL;
      g_autoptr (GError) error = NULL;

      activate (window, "replace-match", g_variant_new_uint32 (0));
      activate (window, "replace-all", NULL);
      split = open_split (window);
      run_turns (turns);
      g_assert_false (graft_split_window_get_compared (split));
      /* Replace All undone: compared, it is an undone change. */
      activate (window, "undo", NULL);
      iterate_until (split_ready, split);
      comparison = graft_document_compare (document, 1, 0, &error);
      g_assert_no_error (error);
      assert_split_as (split, comparison);
      gtk_window_destroy (GTK_WINDOW (split));

      /* Redone, then the window opened and both changes undone and one
       * of them dropped by a new edit: the change compared is gone. */
      activate (window, "redo", NULL);
      split = open_split (window);
      run_turns (turns);
      /* Without waiting between (activate() waits for the layout): the
       * comparison of the undone change would finish meanwhile. */
      graft_document_undo (document);
      graft_document_undo (document);
      g_assert_true (graft_document_replace (document, 3, &error));
      g_assert_cmpuint (graft_document_get_history_length (document), ==, 1);
      iterate_until (split_compared, split);
      g_assert_false (graft_split_window_get_ready (split));
      gtk_window_destroy (GTK_WINDOW (split));
      close_window (window);
    }
  g_unlink (path);
  g_rmdir (dir);
}

/* Closing Compare Graphs, or the editor window first, while it works. */
static void
test_split_close (void)
{
  for (guint editor_first = 0; editor_first < 2; editor_first++)
    for (guint turns = 0; turns < 6; turns += 5)
      {
        GraftWindow      *window = open_example ();
        GraftDocument    *document = graft_window_get_document (window);
        Gone              gone = { g_thread_self (), FALSE, FALSE };
        GraftSplitWindow *split;

        activate (window, "replace-all", NULL);
        split = open_split (window);
        g_object_weak_ref (G_OBJECT (document), document_gone_cb, &gone);
        run_turns (turns);
        if (editor_first)
          {
            close_window (window);
            run_turns (turns);
            gtk_window_destroy (GTK_WINDOW (split));
          }
        else
          {
            gtk_window_destroy (GTK_WINDOW (split));
            run_turns (8);
            close_window (window);
          }
        iterate_until (is_gone, &gone);
        g_assert_true (gone.on_main);
        iterate_until (no_windows, NULL);
      }
}

/* Compare Graphs of a Replace All holds the graph at the position before
 * it across turns and replays the edit by steps (here of one operation),
 * not undone and redone whole in every step: between two turns the edit
 * is seen half replayed.  What reads the graph meanwhile (how 1) gets it
 * back at once, as it is at the document's position, and the comparison
 * goes on; closing the window half-way (how 2) brings it back too.  The
 * comparison is the one graft_document_compare() makes. */
static void
test_split_away (void)
{
  for (Away how = AWAY_WAIT; how <= AWAY_CLOSE; how++)
    {
      g_autofree char  *code = NULL;
      HistoryEntry     *entry;
      guint             change;
      GraftWindow      *window = start_away (&change, &entry, &code);
      GraftDocument    *document = graft_window_get_document (window);
      GraftSplitWindow *split;

      split = GRAFT_SPLIT_WINDOW (
          graft_split_window_new_for_document (GTK_WINDOW (window), document, change, 0));
      gtk_window_present (GTK_WINDOW (split));
      /* Closed, the graph is back at once. */
      split = wait_away (split, split_compared, document, entry, code, how);
      if (split != NULL)
        {
          g_autoptr (GraftComparison) comparison = NULL;
          g_autoptr (GError) error = NULL;

          iterate_until (split_ready, split);
          comparison = graft_document_compare (document, change, 0, &error);
          g_assert_no_error (error);
          assert_split_as (split, comparison);
          gtk_window_destroy (GTK_WINDOW (split));
        }
      end_away (window, entry, code);
    }
}

/* Compare Graphs reads what the change did from its edit by steps (here
 * of one operation each), the graph left where it is meanwhile, and then
 * makes the comparison graft_document_compare() makes.  A new edit while
 * the edit is read (the change compared undone and dropped from the
 * history, its edit freed) starts the comparison again, of the change at
 * that place of the history then. */
static void
test_split_changes_read (void)
{
  GraftWindow     *window = open_example ();
  GraftDocument   *document = graft_window_get_document (window);
  g_autofree char *code = NULL;
  g_autoptr (GraftComparison) want = NULL;
  g_autoptr (GraftComparison) got = NULL;
  g_autoptr (GError) error = NULL;
  GraftComparisonBuilder *builder;
  GraftSplitWindow       *split;
  HistoryEntry           *entry;
  guint                   change;
  guint                   n_ops;
  guint                   n_steps = 0;

  activate (window, "replace-all", NULL);
  change = (guint) graft_document_get_compared_change (document);
  entry = document->history->pdata[change];
  g_assert_nonnull (entry->edit);
  n_ops = graft_edit_get_n_operations (entry->edit);
  g_assert_cmpuint (n_ops, >, 4);
  code = graph_code (document);
  _graft_comparison_set_travel_step (1);
  builder = graft_comparison_builder_new (document, change, 0, &error);
  g_assert_no_error (error);
  for (guint k = 1; k <= n_ops; k++)
    {
      g_assert_false (graft_comparison_builder_step (builder, 0, 1));
      g_assert_cmpuint (_graft_comparison_builder_get_n_read (builder), ==, k);
      g_assert_false (graft_comparison_builder_get_away (builder));
      g_assert_false (graft_edit_is_replaying (entry->edit));
      g_assert_true (graft_edit_is_applied (entry->edit));
    }
  while (!graft_comparison_builder_step (builder, 0, 1))
    n_steps++;
  /* Then the graph went away to the position before the change. */
  g_assert_cmpuint (n_steps, >, n_ops);
  got = graft_comparison_builder_finish (builder);
  want = graft_document_compare (document, change, 0, &error);
  g_assert_no_error (error);
  for (guint c = 0; c < 4; c++)
    g_assert_cmpstrv (graft_comparison_get_names (got, c), graft_comparison_get_names (want, c));
  g_clear_pointer (&want, graft_comparison_free);
  {
    g_autofree char *code_after = graph_code (document);

    g_assert_cmpstr (code_after, ==, code);
  }

  /* The window, its change dropped while it reads the edit. */
  split = open_split (window);
  run_turns (2);
  g_assert_false (graft_split_window_get_compared (split));
  graft_document_undo (document);
  g_assert_true (graft_document_replace (document, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (graft_document_get_history_length (document), ==, 1);
  iterate_until (split_ready, split);
  want = graft_document_compare (document, 0, 0, &error);
  g_assert_no_error (error);
  assert_split_as (split, want);
  gtk_window_destroy (GTK_WINDOW (split));
  _graft_comparison_set_travel_step (0);
  close_window (window);
}

/* Destroys @window, holding its surface as X11's display may hold it
 * until the server confirms the destruction, and checks that no handler
 * of the surface has the window as its data any more.  GTK 4.8 left
 * GtkWindow's "compute-size" handler there: an event of the closed window
 * then made GDK emit it into the finalized window ("invalid unclassed
 * pointer in cast to 'GtkWindow'" in changes/close, with other clients on
 * the display); graft-toplevel.c disconnects it. */
static void
destroy_leaving_surface_clean (GtkWidget *window)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));
  gpointer    data = window;

  g_assert_nonnull (surface);
  g_object_ref (surface);
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  /* Connected while the window is realized. */
  g_assert_cmpuint (g_signal_handler_find (surface, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, data),
                    !=, 0);
  close_window (window);
  g_assert_cmpuint (g_signal_handler_find (surface, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, data),
                    ==, 0);
  g_object_unref (surface);
  if (window != NULL)
    g_object_remove_weak_pointer (G_OBJECT (window), (gpointer *) &window);
}

/* Each of the editor's windows, closed, leaves nothing of itself on its
 * surface: Match in Context, the Changes window (hidden, as the tests
 * keep it) and Compare Graphs before the editor window, then the editor
 * window. */
static void
test_closed_surfaces (void)
{
  GraftWindow   *window = open_example ();
  GraftDocument *document = graft_window_get_document (window);
  GtkWidget     *split;

  destroy_leaving_surface_clean (GTK_WIDGET (open_context (window, 0)));
  activate (window, "replace-all", NULL);
  destroy_leaving_surface_clean (GTK_WIDGET (open_changes (window)));
  split = graft_split_window_new_for_document (
      GTK_WINDOW (window), document, (guint) graft_document_get_compared_change (document), 0);
  gtk_window_present (GTK_WINDOW (split));
  destroy_leaving_surface_clean (split);
  destroy_leaving_surface_clean (GTK_WIDGET (window));
  iterate_until (no_windows, NULL);
}

/* The autosave's timer running out while Show Changes holds the graph
 * away (its edit replayed by steps): the autosave waits for the graph to
 * come back by the steps, rather than bringing it back at once (at a
 * million nodes, a turn of 68-131 ms), and is written once it is back. */
static void
test_changes_away_autosave (void)
{
  GraftWindow     *window;
  GraftDocument   *document;
  g_autofree char *code = NULL;
  g_autofree char *code_after = NULL;
  HistoryEntry    *entry;
  GraftDiffWindow *diff;
  guint            n_half = 0;

  _graft_window_set_autosave_delay (3600);
  window = open_example ();
  document = graft_window_get_document (window);
  activate (window, "replace-all", NULL);
  entry = document->history->pdata[graft_document_get_compared_change (document)];
  code = graph_code (document);
  forget_code_before (document);
  _graft_comparison_set_travel_step (1);
  diff = open_changes (window);
  while (!graft_diff_window_get_ready (diff))
    {
      g_main_context_iteration (NULL, TRUE);
      if (!graft_edit_is_replaying (entry->edit) || ++n_half != 3)
        continue;
      g_assert_true (graft_document_get_holding (document));
      graft_window_autosave_start (window);
      g_assert_true (graft_edit_is_replaying (entry->edit));
      g_assert_true (graft_document_get_holding (document));
      g_assert_true (graft_window_get_autosave_pending (window));
    }
  g_assert_cmpuint (n_half, >=, 3);
  g_assert_false (graft_document_get_holding (document));
  g_assert_true (graft_window_get_autosave_pending (window));
  /* Back: the autosave goes on when its timer runs out again. */
  graft_window_autosave_start (window);
  while (graft_window_get_autosave_pending (window))
    g_main_context_iteration (NULL, TRUE);
  code_after = graph_code (document);
  g_assert_cmpstr (code_after, ==, code);
  gtk_window_destroy (GTK_WINDOW (diff));
  _graft_comparison_set_travel_step (0);
  _graft_window_set_autosave_delay (0);
  close_window (window);
}

int
main (int    argc,
      char **argv)
{
  if (!ui_test_init (&argc, &argv))
    return 0;
  _graft_document_set_change_step (1);
  _graft_context_window_set_step (2);
  _graft_split_window_set_build_step (3);
  g_test_add_func ("/busy-views/changes/same", test_changes_same);
  g_test_add_func ("/busy-views/changes/superseded", test_changes_superseded);
  g_test_add_func ("/busy-views/changes/close", test_changes_close);
  g_test_add_func ("/busy-views/changes/document", test_changes_document);
  g_test_add_func ("/busy-views/changes/away", test_changes_away);
  g_test_add_func ("/busy-views/changes/copy", test_changes_copy);
  g_test_add_func ("/busy-views/changes/rows", test_changes_rows);
  g_test_add_func ("/busy-views/changes/keys", test_changes_keys);
  g_test_add_func ("/busy-views/changes/copy-text", test_changes_copy_text);
  g_test_add_func ("/busy-views/changes/long-line", test_changes_long_line);
  g_test_add_func ("/busy-views/changes/first-frame", test_changes_first_frame);
  g_test_add_func ("/busy-views/changes/dark", test_changes_dark);
  g_test_add_func ("/busy-views/changes/copy-later", test_changes_copy_later);
  g_test_add_func ("/busy-views/context/same", test_context_same);
  g_test_add_func ("/busy-views/context/superseded", test_context_superseded);
  g_test_add_func ("/busy-views/context/close", test_context_close);
  g_test_add_func ("/busy-views/split/same", test_split_same);
  g_test_add_func ("/busy-views/context-readable", test_context_readable);
  g_test_add_func ("/busy-views/context-marks", test_context_marks);
  g_test_add_func ("/busy-views/split/fitted", test_split_fitted);
  g_test_add_func ("/busy-views/split/readable", test_split_readable);
  g_test_add_func ("/busy-views/split/superseded", test_split_superseded);
  g_test_add_func ("/busy-views/split/close", test_split_close);
  g_test_add_func ("/busy-views/split/away", test_split_away);
  g_test_add_func ("/busy-views/split/changes-read", test_split_changes_read);
  g_test_add_func ("/busy-views/closed-surfaces", test_closed_surfaces);
  g_test_add_func ("/busy-views/changes/away-autosave", test_changes_away_autosave);
  return g_test_run ();
}
