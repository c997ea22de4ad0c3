/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-document-changes.c: the code before and after the last change of
 * the graph, for Show Changes, made without stopping the main loop.
 *
 * Contract: graft_document_last_change_async() completes with the texts
 * graft_document_dup_last_change() and graft_document_dup_code() give,
 * for the document as it is when the callback runs.  The code after the
 * change is the document's own, made in steps (graft-document-code.c).
 * The code before it is usually known (kept when the change was made);
 * a run of the rules keeps its steps without it, and then it is made a
 * few thousand nodes per main-loop turn, the change undone meanwhile: the
 * graph is taken there by steps of the edit and held there across turns
 * (GraftVisit, graft-comparison.c: the job then runs alone, and whatever
 * reads the document brings the graph back at once first), then brought
 * back by steps, so nothing else ever sees the graph as it was.  Undoing
 * costs the size of the change, not of the graph, once, not in every
 * turn.  A change of the graph meanwhile (an edit, an undo)
 * starts the work again from the new last change, so what completes is
 * never stale.  The task holds a reference to the document and drops it
 * on the main thread; it has no source object.
 *
 * The texts handed over are copies (the caller's to keep, the document's
 * stay its own), and at a million nodes each is 150 MB: copying one took
 * half a second of one turn.  They are copied a few megabytes a turn,
 * each turn first making sure that the texts copied from are still the
 * document's (the same revision, history entry and strings): if not, the
 * work starts again.
 */
#include "config.h"

#include "graft-document-changes.h"
#include "graft-comparison-private.h"
#include "graft-document-private.h"
#include "graft-turns.h"

#include <string.h>

/* Nodes of the code made before the change per turn: about a millisecond
 * or two, beside undoing and redoing the change. */
#define DEFAULT_STEP_NODES 2000

static guint step_nodes = DEFAULT_STEP_NODES;

/**
 * _graft_document_set_change_step:
 * @n_nodes: nodes per main-loop turn, or 0 for the default
 *
 * For tests: a small graph's code before a change made in several turns.
 */
void
_graft_document_set_change_step (guint n_nodes)
{
  step_nodes = n_nodes > 0 ? n_nodes : DEFAULT_STEP_NODES;
}

typedef struct
{
  GraftDocument   *document; /* Owned */
  GraftCodegenJob *job;      /* Owned: the code before the change, in steps, or NULL */
  guint            revision; /* of the graph the work is for */
  guint            change;   /* the change of the history shown */
  guint            turn;     /* the job's turn in graft-turns.c, or 0 */
  gboolean         alone;    /* it runs alone: the graph is away */
  GraftVisit       visit;    /* the graph taken to the position before the change */
  HistoryEntry    *entry;    /* Borrowed: the change's entry, while the texts are copied */
  const char      *from[2];  /* Borrowed: the texts being copied (the entry's, the document's) */
  char            *to[2];    /* Owned: their copies so far */
  gsize            copied[2];
  gsize            room[2]; /* bytes to copy, the end of string's included, once known (to[] made);
                             * until then how many were looked at */
  gboolean whole[2];        /* copied up to their end */
} ChangeJob;

/* Replaying the change and making its code: this much a turn, at most. */
#define TURN_USEC 8000
/* Copying the texts: this much a turn, in pieces of copy_piece bytes. */
#define COPY_USEC          4000
#define DEFAULT_COPY_PIECE (256 * 1024)

static gsize    copy_piece = DEFAULT_COPY_PIECE;
static gboolean copy_one_piece; /* a turn, for tests */

/**
 * _graft_document_set_change_copy_piece:
 * @n_bytes: bytes copied at a time, or 0 for the default
 *
 * For tests: a small graph's texts copied over several turns, a piece a
 * turn.
 */
void
_graft_document_set_change_copy_piece (gsize n_bytes)
{
  copy_piece = n_bytes > 0 ? n_bytes : DEFAULT_COPY_PIECE;
  copy_one_piece = n_bytes > 0;
}

static void
change_job_free (ChangeJob *job)
{
  /* A queued turn holds the task: none is queued when this runs. */
  _graft_visit_come_back (&job->visit);
  g_clear_pointer (&job->job, graft_codegen_job_free);
  for (guint s = 0; s < 2; s++)
    graft_turns_free_later (g_steal_pointer (&job->to[s]), g_free);
  g_object_unref (job->document);
  g_free (job);
}

void
graft_change_texts_free (GraftChangeTexts *texts)
{
  if (texts == NULL)
    return;
  g_free (texts->label);
  g_free (texts->before);
  g_free (texts->after);
  g_free (texts);
}

static void start (GTask *task);

/* Whether the texts being copied are still the document's. */
static gboolean
copy_still_valid (ChangeJob *job)
{
  GraftDocument *self = job->document;

  return self->revision == job->revision && job->change < self->history->len &&
         self->history->pdata[job->change] == job->entry && job->entry->before == job->from[0] &&
         self->code == job->from[1] && self->code_job == 0;
}

/* Copies more of text @s until its end or @deadline; returns whether it
 * is whole.  Its length is found first, a piece at a time too (finding
 * it at once would read it all in one turn), and then the copy is made
 * into a block of that size: a copy grown as it goes was moved by
 * realloc() (up to 32 MB, under glibc's mmap threshold), 17 ms a turn. */
static gboolean
copy_some (ChangeJob *job,
           guint      s,
           gint64     deadline)
{
  while (!job->whole[s])
    {
      if (job->to[s] == NULL)
        {
          const char *end = memchr (job->from[s] + job->room[s], '\0', copy_piece);

          if (end != NULL)
            {
              job->room[s] = (gsize) (end - job->from[s]) + 1;
              job->to[s] = g_malloc (job->room[s]);
            }
          else
            job->room[s] += copy_piece;
        }
      else
        {
          gsize n = MIN (copy_piece, job->room[s] - job->copied[s]);

          memcpy (job->to[s] + job->copied[s], job->from[s] + job->copied[s], n);
          job->copied[s] += n;
          job->whole[s] = job->copied[s] == job->room[s];
        }
      if (copy_one_piece || g_get_monotonic_time () >= deadline)
        break;
    }
  return job->whole[s];
}

static void
copy_drop (ChangeJob *job)
{
  for (guint s = 0; s < 2; s++)
    {
      graft_turns_free_later (g_steal_pointer (&job->to[s]), g_free);
      job->from[s] = NULL;
      job->copied[s] = job->room[s] = 0;
      job->whole[s] = FALSE;
    }
  job->entry = NULL;
}

/* A turn of copying the texts; at their end, hands them over. */
static gboolean
copy_step_cb (gpointer user_data)
{
  GTask            *task = user_data;
  ChangeJob        *job = g_task_get_task_data (task);
  gint64            deadline = g_get_monotonic_time () + COPY_USEC;
  GraftChangeTexts *texts;

  if (g_task_return_error_if_cancelled (task))
    {
      job->turn = 0;
      return G_SOURCE_REMOVE;
    }
  if (!copy_still_valid (job))
    {
      job->turn = 0;
      copy_drop (job);
      start (g_object_ref (task));
      return G_SOURCE_REMOVE;
    }
  if (!copy_some (job, 0, deadline) || !copy_some (job, 1, deadline))
    return G_SOURCE_CONTINUE;
  job->turn = 0;
  texts = g_new0 (GraftChangeTexts, 1);
  texts->label = g_strdup (job->entry->label);
  texts->before = g_steal_pointer (&job->to[0]);
  texts->after = g_steal_pointer (&job->to[1]);
  copy_drop (job);
  g_task_return_pointer (task, texts, (GDestroyNotify) graft_change_texts_free);
  return G_SOURCE_REMOVE;
}

/* The change's code before it is known now, and the code after it: hands
 * copies of them over, made over the next turns. */
static void
complete (GTask *task)
{
  ChangeJob *job = g_task_get_task_data (task);

  copy_drop (job);
  job->entry = job->document->history->pdata[job->change];
  job->from[0] = job->entry->before;
  job->from[1] = job->document->code;
  job->turn = graft_turns_add (copy_step_cb, g_object_ref (task), g_object_unref);
}

static gboolean before_step_cb (gpointer user_data);

/* Queues the next turn of @task's code before the change, alone while the
 * graph is away; returns what the turn that runs now returns. */
static gboolean
before_again (GTask *task)
{
  ChangeJob *job = g_task_get_task_data (task);

  if (job->visit.away == job->alone)
    return G_SOURCE_CONTINUE;
  job->alone = job->visit.away;
  job->turn = job->alone
                  ? graft_turns_add_alone (before_step_cb, g_object_ref (task), g_object_unref)
                  : graft_turns_add (before_step_cb, g_object_ref (task), g_object_unref);
  return G_SOURCE_REMOVE;
}

/* One turn of the code before the change: the graph taken to the position
 * before it (or on its way), a step of the code, and at the end the graph
 * brought back. */
static gboolean
before_step_cb (gpointer user_data)
{
  GTask         *task = user_data;
  ChangeJob     *job = g_task_get_task_data (task);
  GraftDocument *self = job->document;
  gint64         deadline = g_get_monotonic_time () + TURN_USEC;
  HistoryEntry  *entry;

  if (g_task_get_cancellable (task) != NULL &&
      g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      _graft_visit_come_back (&job->visit);
      g_task_return_error_if_cancelled (task);
      job->turn = 0;
      return G_SOURCE_REMOVE;
    }
  if (!job->visit.away)
    {
      if (self->revision != job->revision)
        {
          /* Superseded: the last change may be another one now. */
          job->turn = 0;
          g_clear_pointer (&job->job, graft_codegen_job_free);
          /* The turn's reference goes when it is removed. */
          start (g_object_ref (task));
          return G_SOURCE_REMOVE;
        }
      /* Their jobs hold the graph: this waits for their end. */
      if (self->moving || self->rewriting != NULL || self->running != NULL)
        return before_again (task);
      /* The document's own job keeps nothing in the graph between its
       * steps, but its half-made code is of the graph as it is. */
      _graft_document_code_drop (self);
      _graft_visit_start (&job->visit, self);
    }
  entry = self->history->pdata[job->change];
  if (entry->before == NULL)
    {
      if (!_graft_visit_travel (&job->visit, job->change, deadline))
        return before_again (task);
      if (job->job == NULL)
        job->job = graft_codegen_job_new (self->graph);
      else if (graft_codegen_job_step (job->job, step_nodes))
        entry->before = graft_codegen_job_finish (g_steal_pointer (&job->job));
      if (entry->before == NULL || g_get_monotonic_time () >= deadline)
        return before_again (task);
    }
  if (!_graft_visit_travel (&job->visit, self->position, deadline))
    return before_again (task);
  job->turn = 0;
  job->alone = FALSE;
  complete (task);
  return G_SOURCE_REMOVE;
}

static void
code_ready_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  ChangeJob     *job = g_task_get_task_data (task);
  GraftDocument *self = job->document;
  GError        *error = NULL;
  HistoryEntry  *entry;

  if (!graft_document_code_finish (NULL, result, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;
  if (self->revision != job->revision)
    {
      start (g_steal_pointer (&task));
      return;
    }
  entry = self->history->pdata[job->change];
  if (entry->before != NULL)
    {
      complete (task);
      return;
    }
  job->alone = FALSE;
  job->turn = graft_turns_add (before_step_cb, g_object_ref (task), g_object_unref);
}

/* Starts from the document as it is now; takes @task's reference. */
static void
start (GTask *task)
{
  ChangeJob     *job = g_task_get_task_data (task);
  GraftDocument *self = job->document;
  gint           change = graft_document_get_compared_change (self);
  HistoryEntry  *entry;

  if (change < 0 || self->graph == NULL)
    {
      g_task_return_new_error (task, GRAFT_ERROR, GRAFT_ERROR_REWRITE,
                               "No change of the graph to show");
      g_object_unref (task);
      return;
    }
  entry = self->history->pdata[change];
  /* A switch of torch keeps the graph it left, not its code (made at once
   * here: a graph of a history step is never changed). */
  if (entry->before == NULL && entry->edit == NULL && entry->switch_dialect)
    entry->before = g_string_free (graft_codegen_module_code_string (entry->graph), FALSE);
  if (entry->before == NULL && entry->edit == NULL)
    {
      g_task_return_new_error (task, GRAFT_ERROR, GRAFT_ERROR_REWRITE,
                               "The code before '%s' is not known", entry->label);
      g_object_unref (task);
      return;
    }
  job->change = (guint) change;
  job->revision = self->revision;
  graft_document_code_async (self, g_task_get_cancellable (task), code_ready_cb, task);
}

/**
 * graft_document_last_change_async:
 * @self: a document
 * @cancellable: (nullable): stops the work
 * @callback: called on the main thread with the texts or an error
 * @user_data: for @callback
 *
 * Makes the code before and after the most recent applied change of the
 * graph, in steps over main-loop turns.  The texts are those of the
 * document as it is when @callback runs: a change of the graph meanwhile
 * starts the work again.
 */
void
graft_document_last_change_async (GraftDocument      *self,
                                  GCancellable       *cancellable,
                                  GAsyncReadyCallback callback,
                                  gpointer            user_data)
{
  GTask     *task;
  ChangeJob *job;

  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  _graft_document_settle (self);
  job = g_new0 (ChangeJob, 1);
  job->document = g_object_ref (self);
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, graft_document_last_change_async);
  g_task_set_task_data (task, job, (GDestroyNotify) change_job_free);
  start (task);
}

/**
 * graft_document_last_change_finish:
 * @result: the result
 * @error: return location for an error: cancelled, or no change to show
 *
 * Returns: (transfer full) (nullable): the texts, or %NULL with @error set
 */
GraftChangeTexts *
graft_document_last_change_finish (GAsyncResult *result,
                                   GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (
      g_task_get_source_tag (G_TASK (result)) == graft_document_last_change_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
