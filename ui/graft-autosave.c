/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-autosave.c: while a document has unsaved changes, its graph (as
 * code, which Graft reads back), its pattern and its replacement (and,
 * for a document with rules, the whole document as a session) are
 * written every few seconds to one key file per document in
 * `$XDG_STATE_HOME/graft/autosave/`, named after a hash of the document's
 * path (or "untitled").  Saving, or closing and discarding, removes it;
 * a crash leaves it, and opening the same file again offers to restore it
 * when it is newer than the file.  Writes are atomic (graft_output_write_file).
 */
#include "config.h"

#include "graft-autosave.h"
#include "graft-document.h"
#include "graft-session.h"
#include "graft.h"

#include <glib/gstdio.h>
#include <string.h>

/**
 * graft_recovery_free:
 * @recovery: (nullable): the texts of unsaved work
 *
 * Frees @recovery and its texts.
 */
void
graft_recovery_free (GraftRecovery *recovery)
{
  if (recovery == NULL)
    return;
  g_free (recovery->code);
  g_free (recovery->pattern);
  g_free (recovery->replacement);
  g_free (recovery->session);
  graft_session_draft_free (recovery->session_draft);
  g_free (recovery);
}

/**
 * graft_autosave_path_for:
 * @file: (nullable): a document's file
 *
 * Returns: (transfer full): where its autosave lives
 */
char *
graft_autosave_path_for (GFile *file)
{
  g_autofree char *uri = file != NULL ? g_file_get_uri (file) : g_strdup ("untitled");
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, uri, -1);
  g_autofree char *name = g_strdup_printf ("%.24s.autosave", hash);

  return g_build_filename (g_get_user_state_dir (), "graft", "autosave", name, NULL);
}

/* Writes and removals run on one worker thread, in the order asked, so a
 * removal never overtakes a write still in progress; the main loop only
 * gathers the texts (a session's input is written here, from its draft).
 * Writing a large graph (escaping a megabyte of code
 * into the key file, fsync) would otherwise stop the window for tens of
 * milliseconds every time it autosaves. */
typedef struct
{
  char          *path;  /* Owned */
  char          *uri;   /* Owned: of the document's file, "" for none */
  GraftRecovery *texts; /* Owned: what to write, or NULL to remove @path */
  gboolean       tidy;  /* texts->code is the graph's code, to be made a file's text */
} Job;

static void
job_free (Job *job)
{
  g_free (job->path);
  g_free (job->uri);
  graft_recovery_free (job->texts);
  g_free (job);
}

static GMutex       queue_lock;
static GCond        queue_cond;
static GThreadPool *queue;
static guint64      n_pushed;
static guint64      n_done;
static gboolean     held; /* for tests: jobs wait (_graft_autosave_hold()) */

/**
 * _graft_autosave_hold:
 * @hold: whether the autosave thread waits before its next job
 *
 * For tests: writes asked for wait, as if the thread were busy, until
 * released (graft_autosave_flush() would wait for ever meanwhile).
 */
void
_graft_autosave_hold (gboolean hold)
{
  g_mutex_lock (&queue_lock);
  held = hold;
  g_cond_broadcast (&queue_cond);
  g_mutex_unlock (&queue_lock);
}

static void
run_job (gpointer job_data,
         gpointer user_data)
{
  Job *job = job_data;
  g_autoptr (GError) error = NULL;

  g_mutex_lock (&queue_lock);
  while (held)
    g_cond_wait (&queue_cond, &queue_lock);
  g_mutex_unlock (&queue_lock);
  if (job->texts == NULL)
    g_unlink (job->path);
  else
    {
      g_autofree char *dir = g_path_get_dirname (job->path);
      g_autoptr (GKeyFile) keys = g_key_file_new ();
      g_autofree char *data = NULL;
      gsize            length;

      if (job->tidy)
        {
          char *text = graft_document_code_to_file_text (job->texts->code);

          g_free (job->texts->code);
          job->texts->code = text;
        }
      /* The input of a session (100 MB of base64 at a million nodes). */
      if (job->texts->session_draft != NULL)
        {
          g_free (job->texts->session);
          job->texts->session =
              graft_session_draft_finish (g_steal_pointer (&job->texts->session_draft));
        }
      g_key_file_set_string (keys, "autosave", "uri", job->uri);
      g_key_file_set_string (keys, "autosave", "code", job->texts->code);
      g_key_file_set_string (keys, "autosave", "pattern", job->texts->pattern);
      g_key_file_set_string (keys, "autosave", "replacement", job->texts->replacement);
      if (job->texts->session != NULL)
        g_key_file_set_string (keys, "autosave", "session", job->texts->session);
      data = g_key_file_to_data (keys, &length, NULL);
      if (g_mkdir_with_parents (dir, 0700) != 0)
        g_warning ("cannot autosave: cannot create %s", dir);
      else if (!graft_output_write_file (job->path, data, length, &error))
        g_warning ("cannot autosave: %s", error->message);
    }
  job_free (job);
  g_mutex_lock (&queue_lock);
  n_done++;
  g_cond_broadcast (&queue_cond);
  g_mutex_unlock (&queue_lock);
}

/* Takes @job. */
static void
push_job (Job *job)
{
  g_mutex_lock (&queue_lock);
  if (queue == NULL)
    queue = g_thread_pool_new (run_job, NULL, 1, FALSE, NULL);
  n_pushed++;
  g_mutex_unlock (&queue_lock);
  g_thread_pool_push (queue, job, NULL);
}

/**
 * graft_autosave_flush:
 *
 * Waits until every write and removal asked for so far is done.
 */
void
graft_autosave_flush (void)
{
  g_mutex_lock (&queue_lock);
  while (n_done < n_pushed)
    g_cond_wait (&queue_cond, &queue_lock);
  g_mutex_unlock (&queue_lock);
}

static void
push_write (GFile         *file,
            GraftRecovery *recovery,
            gboolean       tidy)
{
  Job *job = g_new0 (Job, 1);

  job->path = graft_autosave_path_for (file);
  job->uri = file != NULL ? g_file_get_uri (file) : g_strdup ("");
  job->texts = recovery;
  job->tidy = tidy;
  push_job (job);
}

/**
 * graft_autosave_write_take:
 * @file: (nullable): the file of a document with unsaved changes
 * @recovery: (transfer full): its graph's code, pattern and replacement
 *
 * Writes @recovery to @file's autosave, on the autosave thread: the file
 * is there after graft_autosave_flush().  Failures are logged as warnings.
 */
void
graft_autosave_write_take (GFile         *file,
                           GraftRecovery *recovery)
{
  g_return_if_fail (recovery != NULL);
  push_write (file, recovery, FALSE);
}

/**
 * graft_autosave_write_code_take:
 * @file: (nullable): the file of a document with unsaved changes
 * @recovery: (transfer full): its pattern and replacement, and in @code
 *   its graph's code as graft_document_get_code() returns it
 *
 * Like graft_autosave_write_take(), but the code is made a file's text
 * (graft_document_code_to_file_text()) on the autosave thread, which
 * takes a few milliseconds off the main loop at 50,000 nodes.
 */
void
graft_autosave_write_code_take (GFile         *file,
                                GraftRecovery *recovery)
{
  g_return_if_fail (recovery != NULL && recovery->code != NULL);
  push_write (file, recovery, TRUE);
}

/**
 * graft_autosave_discard:
 * @file: (nullable): a document's file
 *
 * Removes its autosave, if any, on the autosave thread, after any write
 * still on its way: the file is gone after graft_autosave_flush().
 */
void
graft_autosave_discard (GFile *file)
{
  Job *job = g_new0 (Job, 1);

  job->path = graft_autosave_path_for (file);
  push_job (job);
}

/**
 * graft_autosave_find:
 * @file: a file being opened
 *
 * Waits for the writes and removals asked for before, so it belongs on a
 * worker thread (the editor calls it where it reads the file).
 *
 * Returns: (transfer full) (nullable): the texts of @file's autosave, or
 *   %NULL when it has none newer than itself
 */
GraftRecovery *
graft_autosave_find (GFile *file)
{
  g_autofree char *path = graft_autosave_path_for (file);
  g_autofree char *file_path = g_file_get_path (file);
  g_autoptr (GKeyFile) keys = g_key_file_new ();
  g_autoptr (GraftRecovery) recovery = NULL;
  GStatBuf saved;
  GStatBuf original;

  /* What was asked for before counts: a removal on its way means none. */
  graft_autosave_flush ();
  /* Older than the file: not read (150 MB for a million-node graph). */
  if (g_stat (path, &saved) != 0 ||
      (file_path != NULL && g_stat (file_path, &original) == 0 &&
       original.st_mtime > saved.st_mtime) ||
      !g_key_file_load_from_file (keys, path, G_KEY_FILE_NONE, NULL))
    return NULL;
  recovery = g_new0 (GraftRecovery, 1);
  recovery->code = g_key_file_get_string (keys, "autosave", "code", NULL);
  recovery->pattern = g_key_file_get_string (keys, "autosave", "pattern", NULL);
  recovery->replacement = g_key_file_get_string (keys, "autosave", "replacement", NULL);
  recovery->session = g_key_file_get_string (keys, "autosave", "session", NULL);
  if (recovery->code == NULL || recovery->pattern == NULL || recovery->replacement == NULL)
    return NULL;
  return g_steal_pointer (&recovery);
}
