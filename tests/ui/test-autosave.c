/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-autosave.c: the autosave's code made in main-loop turns
 * (graft_document_code_async(), graft-document-code.c) rather than in
 * one stop of the window: what is written is the graph as it is when the
 * code is done, an edit made while the code is being made is what the
 * autosave (and a save) keeps, and asking for the code at once finishes
 * the job.  The code is made one node per turn here, so that a small
 * graph takes many turns; every wait is on a condition, bounded.
 */
#include "config.h"

#include "example.h"
#include "graft-autosave.h"
#include "graft-document-private.h"
#include "graft-window-private.h"
#include "window-util.h"

#include <glib/gstdio.h>
#include <string.h>

/* The code the autosave of @file holds. */
static char *
autosaved_code (GFile *file)
{
  g_autofree char *path = graft_autosave_path_for (file);
  g_autoptr (GKeyFile) keys = g_key_file_new ();

  graft_autosave_flush ();
  g_assert_true (g_key_file_load_from_file (keys, path, G_KEY_FILE_NONE, NULL));
  return g_key_file_get_string (keys, "autosave", "code", NULL);
}

/* As a file: the example rewritten at @only (-1: every match). */
static char *
expected_file (gint only)
{
  g_autofree char *code = example_rewrite (only, FALSE);

  return graft_document_code_to_file_text (code);
}

static gboolean
autosave_done (gpointer window)
{
  return !graft_window_get_autosave_pending (window);
}

/* Runs at most @turns turns of the main loop, without blocking. */
static void
run_turns (guint turns)
{
  for (guint i = 0; i < turns; i++)
    g_main_context_iteration (NULL, FALSE);
}

typedef struct
{
  gboolean window_ready;
  gboolean done;
  gboolean ok;
} Waiter;

static void
code_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Waiter *waiter = user_data;

  g_assert_null (source);
  waiter->ok = graft_document_code_finish (NULL, result, NULL);
  waiter->done = TRUE;
}

static gboolean
waiter_done (gpointer data)
{
  return ((Waiter *) data)->done;
}

/* The timer's autosave, started at once: the code is made over many
 * turns, then the texts are written, the edit in them. */
static void
test_in_turns (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-autosave-XXXXXX", NULL);
  g_autofree char *path = example_copy (dir);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *expected = expected_file (0);
  g_autofree char *saved = NULL;
  GraftWindow     *window = open_path (path);
  GraftDocument   *document = graft_window_get_document (window);

  activate (window, "replace-match", g_variant_new_uint32 (0));
  g_assert_true (graft_window_get_autosave_pending (window));
  graft_window_autosave_start (window);
  g_assert_true (graft_window_get_autosave_pending (window));
  g_assert_true (graft_document_get_code_pending (document));
  /* A turn makes part of the code: more than one is needed. */
  run_turns (1);
  g_assert_true (graft_document_get_code_pending (document));
  iterate_until (autosave_done, window);
  g_assert_false (graft_document_get_code_pending (document));
  saved = autosaved_code (file);
  g_assert_cmpstr (saved, ==, expected);

  close_last_window (window);
  graft_autosave_discard (file);
  graft_autosave_flush ();
  g_unlink (path);
  g_rmdir (dir);
}

/* Replaces the first match and starts the autosave, whose code is half
 * made two turns later. */
static void
replace_one_and_half_autosave (GraftWindow *window)
{
  activate (window, "replace-match", g_variant_new_uint32 (0));
  graft_window_autosave_start (window);
  run_turns (2);
  g_assert_true (graft_document_get_code_pending (graft_window_get_document (window)));
}

/* Takes @half_way's step (the first match replaced, the autosave's job
 * half done), then, when @edit, an edit: that replacement undone and
 * every match replaced.  The autosave then finishes, at once when
 * @at_once, else as its timer's would: it wrote @expected. */
static void
assert_autosave_after (GraftWindow *window,
                       void (*half_way) (GraftWindow *window),
                       gboolean    edit,
                       gboolean    at_once,
                       GFile      *file,
                       const char *expected)
{
  g_autofree char *saved = NULL;

  half_way (window);
  if (edit)
    {
      activate (window, "undo", NULL);
      activate (window, "replace-all", NULL);
    }
  if (at_once)
    graft_window_autosave_now (window);
  else
    {
      graft_window_autosave_start (window);
      iterate_until (autosave_done, window);
    }
  g_assert_false (graft_window_get_autosave_pending (window));
  saved = autosaved_code (file);
  g_assert_cmpstr (saved, ==, expected);
}

/* An edit while the autosave's code is being made: the autosave that
 * follows, whether its timer runs out or it is asked for at once, keeps
 * the edit; so does Save, and its autosave goes. */
static void
test_edit_while_made (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-autosave-XXXXXX", NULL);
  g_autofree char *path = example_copy (dir);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *autosave = graft_autosave_path_for (file);
  g_autofree char *after_all = expected_file (-1);
  g_autofree char *after_one = expected_file (0);
  GraftWindow     *window = open_path (path);
  GraftDocument   *document = graft_window_get_document (window);

  /* The edit, right before the autosave is written. */
  assert_autosave_after (window, replace_one_and_half_autosave, TRUE, TRUE, file, after_all);
  /* Again, the timer's way: started, then an edit half-way. */
  activate (window, "undo", NULL);
  assert_autosave_after (window, replace_one_and_half_autosave, TRUE, FALSE, file, after_all);

  /* Save, with the autosave's code half-made: the file has the edit made
   * last, and the autosave goes. */
  activate (window, "undo", NULL);
  replace_one_and_half_autosave (window);
  g_assert_true (graft_document_save (document, file, NULL));
  {
    g_autofree char *contents = NULL;

    g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
    g_assert_cmpstr (contents, ==, after_one);
  }
  g_assert_false (graft_window_get_autosave_pending (window));
  graft_autosave_flush ();
  g_assert_false (g_file_test (autosave, G_FILE_TEST_EXISTS));

  close_last_window (window);
  g_unlink (path);
  g_rmdir (dir);
}

/* Starts waiting for the code, with the code unknown (an edit just made),
 * and runs two turns of the job. */
static void
start_waiting (GraftDocument *document,
               Waiter        *waiter)
{
  waiter->done = FALSE;
  waiter->ok = FALSE;
  graft_document_code_async (document, NULL, code_cb, waiter);
  g_assert_true (graft_document_get_code_pending (document));
  run_turns (2);
  g_assert_false (waiter->done);
  g_assert_true (graft_document_get_code_pending (document));
}

/* The document's own contract: the code that completes is that of the
 * graph when it completes, though the graph changed half-way (to a graph
 * whose code is known, or not: the job starts again); a synchronous
 * request finishes the job, and the waiter is told. */
static void
test_document_code (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-autosave-XXXXXX", NULL);
  g_autofree char *path = example_copy (dir);
  GraftWindow     *window = open_path (path);
  GraftDocument   *document = graft_window_get_document (window);
  g_autofree char *original = example_code ();
  g_autofree char *all = example_rewrite (-1, FALSE);
  g_autofree char *one = example_rewrite (0, FALSE);
  Waiter           waiter = { 0 };

  /* Made in turns. */
  activate (window, "replace-all", NULL);
  start_waiting (document, &waiter);
  iterate_until (waiter_done, &waiter);
  g_assert_true (waiter.ok);
  g_assert_false (graft_document_get_code_pending (document));
  g_assert_cmpstr (graft_document_get_code (document), ==, all);

  /* Undone half-way: the code before the edit, known, completes it. */
  activate (window, "undo", NULL);
  activate (window, "redo", NULL);
  start_waiting (document, &waiter);
  activate (window, "undo", NULL);
  iterate_until (waiter_done, &waiter);
  g_assert_true (waiter.ok);
  g_assert_cmpstr (graft_document_get_code (document), ==, original);

  /* Changed half-way to a graph whose code is not known: made again. */
  activate (window, "replace-match", g_variant_new_uint32 (0));
  start_waiting (document, &waiter);
  /* In one turn: activate() lets the loop run. */
  g_assert_nonnull (graft_document_undo (document));
  g_assert_nonnull (graft_document_redo (document));
  g_assert_true (graft_document_get_code_pending (document));
  iterate_until (waiter_done, &waiter);
  g_assert_true (waiter.ok);
  g_assert_cmpstr (graft_document_get_code (document), ==, one);

  /* Asked for at once, half-way: finished, and the waiter told. */
  activate (window, "undo", NULL);
  activate (window, "replace-all", NULL);
  start_waiting (document, &waiter);
  g_assert_cmpstr (graft_document_get_code (document), ==, all);
  g_assert_false (graft_document_get_code_pending (document));
  iterate_until (waiter_done, &waiter);
  g_assert_true (waiter.ok);

  /* Known already: no job, the waiter told on a later turn. */
  waiter.done = FALSE;
  graft_document_code_async (document, NULL, code_cb, &waiter);
  g_assert_false (graft_document_get_code_pending (document));
  iterate_until (waiter_done, &waiter);
  g_assert_true (waiter.ok);

  close_last_window (window);
  {
    g_autoptr (GFile) file = g_file_new_for_path (path);

    graft_autosave_discard (file);
  }
  graft_autosave_flush ();
  g_unlink (path);
  g_rmdir (dir);
}

static gboolean
pointer_cleared (gpointer data)
{
  return *(gpointer *) data == NULL;
}

/* A window that goes while its autosave waits for the code takes its
 * document along: the wait holds no reference (the window's handlers on
 * the document would outlive the window), and the job stops. */
static void
test_window_goes (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-autosave-XXXXXX", NULL);
  g_autofree char *path = example_copy (dir);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GraftWindow   *window = open_path (path);
  GraftDocument *document = graft_window_get_document (window);

  g_object_add_weak_pointer (G_OBJECT (document), (gpointer *) &document);
  replace_one_and_half_autosave (window);
  gtk_window_destroy (GTK_WINDOW (window));
  iterate_until (pointer_cleared, &document);
  iterate_for (10);

  graft_autosave_discard (file);
  graft_autosave_flush ();
  g_unlink (path);
  g_rmdir (dir);
}

/* Replaces the first match and starts the autosave, then runs the turns
 * until the code is made and the autosave copies it (16 bytes a turn). */
static void
replace_one_and_half_copied (GraftWindow *window)
{
  GraftDocument *document = graft_window_get_document (window);

  activate (window, "replace-match", g_variant_new_uint32 (0));
  graft_window_autosave_start (window);
  iterate_until (code_made, document);
  run_turns (2);
  g_assert_true (graft_window_get_autosave_pending (window));
}

/* The code made, the autosave copies it over turns: what is written is
 * the graph's code whole; an edit while it copies is what the autosave
 * keeps (it waits for the new code and copies that); asked for at once,
 * it writes the graph as it is; a window that goes while it copies stops
 * the copy. */
static void
test_copy_in_turns (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-autosave-XXXXXX", NULL);
  g_autofree char *path = example_copy (dir);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *after_all = expected_file (-1);
  g_autofree char *after_one = expected_file (0);
  GraftWindow     *window = open_path (path);
  GraftDocument   *document = graft_window_get_document (window);

  _graft_window_set_autosave_step (16);
  assert_autosave_after (window, replace_one_and_half_copied, FALSE, FALSE, file, after_one);
  /* An edit while the code is copied. */
  activate (window, "undo", NULL);
  assert_autosave_after (window, replace_one_and_half_copied, TRUE, FALSE, file, after_all);
  /* At once, while the code is copied. */
  activate (window, "undo", NULL);
  assert_autosave_after (window, replace_one_and_half_copied, FALSE, TRUE, file, after_one);

  /* The window goes while the code is copied. */
  activate (window, "undo", NULL);
  replace_one_and_half_copied (window);
  g_object_add_weak_pointer (G_OBJECT (document), (gpointer *) &document);
  gtk_window_destroy (GTK_WINDOW (window));
  iterate_until (pointer_cleared, &document);
  iterate_for (10);
  _graft_window_set_autosave_step (0);

  graft_autosave_discard (file);
  graft_autosave_flush ();
  g_unlink (path);
  g_rmdir (dir);
}

/* A window of the example gone with unsaved work, as in a crash, after
 * its autosave was written (by its timer: a test slowed by ASan keeps an
 * edited window past the two seconds): the next test's example opens as
 * on disk, not offering that autosave (open_example()), whichever test
 * left it. */
static void
test_example_opens_clean (void)
{
  g_autofree char *path = example_path ();
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *autosave = graft_autosave_path_for (file);
  GraftWindow     *window = open_example ();

  g_assert_null (graft_window_get_notice (window));
  activate (window, "replace-all", NULL);
  graft_window_autosave_now (window);
  g_assert_true (g_file_test (autosave, G_FILE_TEST_EXISTS));
  gtk_window_destroy (GTK_WINDOW (window));
  iterate_pending ();
  g_assert_true (g_file_test (autosave, G_FILE_TEST_EXISTS));

  window = open_example ();
  g_assert_null (graft_window_get_notice (window));
  g_assert_false (graft_document_get_modified (graft_window_get_document (window)));
  g_assert_false (g_file_test (autosave, G_FILE_TEST_EXISTS));
  close_last_window (window);
}

int
main (int    argc,
      char **argv)
{
  if (!ui_test_init (&argc, &argv))
    return 0;
  _graft_document_set_code_step (1);
  /* Every autosave here is started by the test (an hour is never reached). */
  _graft_window_set_autosave_delay (3600);
  g_test_add_func ("/autosave/in-turns", test_in_turns);
  g_test_add_func ("/autosave/edit-while-made", test_edit_while_made);
  g_test_add_func ("/autosave/document-code", test_document_code);
  g_test_add_func ("/autosave/window-goes", test_window_goes);
  g_test_add_func ("/autosave/copy-in-turns", test_copy_in_turns);
  g_test_add_func ("/autosave/example-opens-clean", test_example_opens_clean);
  return g_test_run ();
}
