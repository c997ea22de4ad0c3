/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-turns.c: the editor's deferred work, one step per main-loop turn.
 *
 * Contract: a job added with graft_turns_add() runs on the default main
 * context's thread, a step at a time: each turn of the main loop runs at
 * most one step of all the jobs queued, in the order they were queued (a
 * step that returns %G_SOURCE_CONTINUE goes to the back of the queue), so
 * work that several parts of the editor defer after one change (finding
 * the matches again, making the scopes, copying the graph for the layout
 * worker) never adds up in one turn.  Idle sources of their own would not
 * do: GLib dispatches every ready source of the highest priority in the
 * same iteration.  The steps run at GTK's priority for frames
 * (GDK_PRIORITY_REDRAW), below input events and the default priority:
 * GLib dispatches a source only in an iteration where none of a higher
 * priority is ready, and at the default priority the steps, always ready
 * while a job is queued, kept GTK's frames from being painted until the
 * last step (a Run All of seconds at a million nodes painted no frame,
 * its progress row never seen).  At the frames' own priority a frame due
 * and a step run in the same iteration, so neither starves the other.  A
 * job is removed when its step returns %G_SOURCE_REMOVE or by
 * graft_turns_remove(); either way its @notify runs.
 *
 * A job added with graft_turns_add_alone() runs alone: while it is queued
 * the others wait, their steps not run (a rewrite by steps, between whose
 * steps the graph is half rewritten and no other job may read it).
 *
 * graft_turns_free_later() hands memory that is large to free (a million
 * nodes' code: 150 MB unmapped in 11-17 ms; a code job's tables, 9-12
 * ms) to a thread of its own, so that no turn waits for it.  What it
 * frees must be the caller's alone, and its free function read nothing
 * the main thread may change.
 */
#include "config.h"

#include "graft-turns.h"

#include <gdk/gdk.h>

typedef struct
{
  guint          id;
  GSourceFunc    step;
  gpointer       data;
  GDestroyNotify notify;
  gboolean       alone;
} Job;

static GQueue   jobs = G_QUEUE_INIT; /* Job *, owned, next first */
static guint    source_id;           /* the idle that runs them, or 0 */
static guint    last_id;
static guint    running_id;      /* the job whose step runs now, or 0 */
static gboolean running_removed; /* it was removed from inside its step */
static guint    n_alone;         /* jobs queued that run alone */

static void
job_free (Job *job)
{
  if (job->alone)
    n_alone--;
  if (job->notify != NULL)
    job->notify (job->data);
  g_free (job);
}

/* The first job that runs alone, taken out of the queue. */
static Job *
pop_alone (void)
{
  for (GList *l = jobs.head; l != NULL; l = l->next)
    {
      Job *job = l->data;

      if (job->alone)
        {
          g_queue_delete_link (&jobs, l);
          return job;
        }
    }
  g_return_val_if_reached (NULL);
}

static gboolean
dispatch_cb (gpointer user_data)
{
  Job     *job = n_alone > 0 ? pop_alone () : g_queue_pop_head (&jobs);
  gboolean again;

  if (job == NULL)
    {
      source_id = 0;
      return G_SOURCE_REMOVE;
    }
  running_id = job->id;
  running_removed = FALSE;
  again = job->step (job->data);
  running_id = 0;
  if (again && !running_removed)
    g_queue_push_tail (&jobs, job);
  else
    job_free (job);
  if (g_queue_is_empty (&jobs))
    {
      source_id = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static guint
add (GSourceFunc    step,
     gpointer       data,
     GDestroyNotify notify,
     gboolean       alone)
{
  Job *job = g_new0 (Job, 1);

  job->alone = alone;
  if (alone)
    n_alone++;
  job->id = ++last_id;
  if (job->id == 0)
    job->id = ++last_id;
  job->step = step;
  job->data = data;
  job->notify = notify;
  g_queue_push_tail (&jobs, job);
  if (source_id == 0)
    {
      source_id = g_idle_add_full (GDK_PRIORITY_REDRAW, dispatch_cb, NULL, NULL);
      g_source_set_static_name (g_main_context_find_source_by_id (NULL, source_id),
                                "[graft] deferred work");
    }
  return job->id;
}

/**
 * graft_turns_add:
 * @step: runs one step of the job; returns %G_SOURCE_CONTINUE for more
 * @data: its data
 * @notify: (nullable): frees @data when the job is removed
 *
 * Queues a job whose steps run one per main-loop turn, after the steps
 * queued before them.
 *
 * Returns: the job's id, never 0
 */
guint
graft_turns_add (GSourceFunc    step,
                 gpointer       data,
                 GDestroyNotify notify)
{
  g_return_val_if_fail (step != NULL, 0);
  return add (step, data, notify, FALSE);
}

/**
 * graft_turns_add_alone:
 * @step: runs one step of the job; returns %G_SOURCE_CONTINUE for more
 * @data: its data
 * @notify: (nullable): frees @data when the job is removed
 *
 * Queues a job whose steps run one per main-loop turn while every other
 * job waits, until it is removed (jobs that run alone run in the order
 * they were queued).
 *
 * Returns: the job's id, never 0
 */
guint
graft_turns_add_alone (GSourceFunc    step,
                       gpointer       data,
                       GDestroyNotify notify)
{
  g_return_val_if_fail (step != NULL, 0);
  return add (step, data, notify, TRUE);
}

/**
 * graft_turns_remove:
 * @id: a job's id, or 0
 *
 * Removes a job (its steps still to run are not run), if it is still
 * queued; from inside its own step, once the step returns.
 */
void
graft_turns_remove (guint id)
{
  if (id == 0)
    return;
  if (id == running_id)
    {
      running_removed = TRUE;
      return;
    }
  for (GList *l = jobs.head; l != NULL; l = l->next)
    {
      Job *job = l->data;

      if (job->id == id)
        {
          g_queue_delete_link (&jobs, l);
          job_free (job);
          return;
        }
    }
}

/**
 * graft_turns_is_queued:
 * @id: a job's id, or 0
 *
 * Returns: whether the job has steps still to run
 */
gboolean
graft_turns_is_queued (guint id)
{
  if (id == 0)
    return FALSE;
  if (id == running_id)
    return !running_removed;
  for (GList *l = jobs.head; l != NULL; l = l->next)
    if (((Job *) l->data)->id == id)
      return TRUE;
  return FALSE;
}

typedef struct
{
  gpointer       data;
  GDestroyNotify free_func;
} ToFree;

static GThreadPool *freeing;       /* frees what graft_turns_free_later() takes */
static guint        n_freed_later; /* what it took, for the tests */

static void
free_one (gpointer item_data,
          gpointer user_data)
{
  ToFree *item = item_data;

  item->free_func (item->data);
  g_free (item);
}

/**
 * graft_turns_free_later:
 * @data: (transfer full) (nullable): what to free
 * @free_func: frees @data; called on another thread
 *
 * Frees @data off the main thread, soon.
 */
void
graft_turns_free_later (gpointer       data,
                        GDestroyNotify free_func)
{
  static gsize made;
  ToFree      *item;

  if (data == NULL)
    return;
  if (g_once_init_enter (&made))
    {
      freeing = g_thread_pool_new (free_one, NULL, 1, FALSE, NULL);
      g_once_init_leave (&made, 1);
    }
  g_atomic_int_inc (&n_freed_later);
  item = g_new (ToFree, 1);
  item->data = data;
  item->free_func = free_func;
  g_thread_pool_push (freeing, item, NULL);
}

/* How many things graft_turns_free_later() has taken, for the tests. */
guint
_graft_turns_get_n_freed_later (void)
{
  return g_atomic_int_get (&n_freed_later);
}
