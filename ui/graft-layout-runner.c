/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-layout-runner.c: lays the document's graph out for the canvas.
 *
 * Contract: graft_layout_runner_queue() asks for a layout of the graph the
 * document holds then; it starts on the main loop's next turn and runs on
 * a worker thread (GTask), and a newer request supersedes an older one at
 * once: the older one is cancelled between segments and whatever it still
 * returns is dropped.  A finished layout goes to the canvas (keeping the
 * view, when every request since the last start asked for that) once its
 * match marks are made (a few milliseconds of lookups a turn; a newer
 * request drops it meanwhile), then ::done is emitted, during which the
 * window takes the marks (graft_layout_runner_steal_marks()); a failed one emits ::done with its
 * error.  While a layout of more than one segment runs, ::progress says how far it has got.  Each
 * turn of the main loop the runner takes stays short: a request first makes the graph's scopes, a
 * few milliseconds of work per turn (graft_scopes_builder_step()), then copies the graph for the
 * worker in the next turn (steps of graft-turns.c, so that they never share a turn with other
 * deferred work, such as the matching); the scopes a large file's loading worker made of the graph
 * are taken instead, while the graph is the one read (graft_document_steal_scopes()).  A change of
 * the graph drops scopes half made: they are started again from the graph as it is now.  A request
 * of the graph the last layout was made of shares that layout's node names
 * (graft_layout_request_builder_share_names()). A layout that keeps the view, with the folding and
 * direction of the one the canvas shows, is laid out incrementally from it: only the segments a
 * change touched go to dot (graft_layout_request_set_previous()).  The
 * runner also keeps the folding: the graph's scopes (rebuilt on every
 * request, so the menus can read them before the layout starts) and
 * which scopes are drawn as one box.  It touches no widget but the
 * canvas; the window shows the busy state, the progress and the errors.
 */
#include "config.h"

#include "graft-layout-runner.h"
#include "graft-document-private.h"
#include "graft-turns.h"

/* Graphs larger than this open folded by module, as an overview of at most
 * OVERVIEW_BOXES boxes. */
#define FOLD_ABOVE_NODES 2000
#define OVERVIEW_BOXES   300

/* Making scopes takes about this many microseconds of a turn at most (a
 * frame is 16 ms), in steps of SCOPE_STEP_NODES nodes. */
#define SCOPE_TURN_USEC  6000
#define SCOPE_STEP_NODES 256

/* A finished layout's match marks are made for about this many
 * microseconds a turn, MARKS_STEP_NAMES matched nodes between looks at the
 * clock, before the layout goes to the canvas with them. */
#define MARKS_TURN_USEC  4000
#define MARKS_STEP_NAMES 1024

/* For tests: when not 0, each turn looks this many up, whatever the clock
 * says (_graft_layout_runner_set_marks_step()). */
static guint marks_step_names;

struct _GraftLayoutRunner
{
  GObject parent_instance;

  GraftDocument *document;    /* Owned: whose graph is laid out */
  GraftCanvas   *canvas;      /* Owned: where layouts go */
  GCancellable  *cancellable; /* Owned: of the layout running, or NULL */
  GraftScopes   *scopes;      /* Owned: of the graph last queued, or NULL */
  /* @scopes are to be made again for the graph (queued) */
  gboolean                   scopes_stale;
  guint                      scopes_revision; /* the document's revision @scopes are of */
  GraftScopesBuilder        *builder;         /* Owned: making them, over turns, or NULL */
  GraftLayoutRequestBuilder *request_builder; /* Owned: the next request, made over turns
                                               * once the scopes are, or NULL */
  GraftLayoutRequest *loaded_request;         /* Owned: the next request, made while the file
                                               * was read, or NULL */
  gint64      scope_turn_usec;                /* SCOPE_TURN_USEC, but for tests */
  guint       scope_step_nodes;               /* SCOPE_STEP_NODES, but for tests */
  GHashTable *collapsed;                      /* Owned: scope paths drawn as one box; NULL: choose
                                               * on the next start */
  gint overview_boxes;                        /* what to choose then: an overview of at most this
                                               * many boxes, or none (-1) */
  GraftLayoutRequest *request;                /* Borrowed: the layout running, owned by its task,
                                               * or NULL */
  guint    progress_id;                       /* polls @request */
  guint    start_id;                          /* starts the next layout: a job of graft-turns.c */
  gboolean start_keep_view;
  guint    generation;  /* counts requests: a task of an older one is dropped */
  guint    shape;       /* counts changes of folding and direction */
  guint    shown_shape; /* @shape when the canvas's layout was made */
  /* The last layout done, while the graph is the one it was made of: the
   * next request shares its names of the nodes */
  GraftLayout *named;
  guint        named_revision;

  /* A layout done, held back while its match marks are made over turns
   * (the job: marks_id), then shown with them; the marks are the window's
   * to take (graft_layout_runner_steal_marks()) while it handles ::done */
  GraftLayout      *held; /* Owned */
  gboolean          held_keep_view;
  guint             held_shape;    /* its Job's */
  guint             held_revision; /* likewise */
  GraftLayoutMarks *held_marks;    /* Owned */
  guint             marks_id;
  GraftLayout      *shown;       /* Borrowed: the canvas's, that @shown_marks are of */
  gint             *shown_marks; /* Owned, or NULL once taken */

  GraftLayoutDirection direction; /* which way the drawing runs */
};

G_DEFINE_FINAL_TYPE (GraftLayoutRunner, graft_layout_runner, G_TYPE_OBJECT)

enum {
  SIGNAL_PROGRESS,
  SIGNAL_DONE,
  N_SIGNALS,
};

static guint signals[N_SIGNALS];

/* What a task was started for. */
typedef struct
{
  GraftLayoutRunner *runner; /* unreferenced: read only while the task is not cancelled */
  guint              generation;
  guint              shape;
  guint              revision; /* the document's, when the request was made */
  gboolean           keep_view;
} Job;

/* What the runner's worker is given. */
typedef struct
{
  GraftLayoutRequest *request; /* Owned */
  /* The layout is shown before its index by name is made: nothing looks a
   * name up in it at once */
  gboolean index_later;
} Work;

static void
work_free (gpointer data)
{
  Work *work = data;

  graft_layout_request_free (work->request);
  g_free (work);
}

/* A request half made reads the graph, scopes and folding as they were
 * when it was started: it starts again. */
static void
drop_request (GraftLayoutRunner *self)
{
  g_clear_pointer (&self->request_builder, graft_layout_request_builder_free);
  g_clear_pointer (&self->loaded_request, graft_layout_request_free);
}

/* Scopes, made or half made, and a request half made read the graph as
 * it was: they are made again. */
static void
graph_changed_cb (GraftLayoutRunner *self)
{
  g_clear_pointer (&self->builder, graft_scopes_builder_free);
  self->scopes_stale = self->scopes != NULL || self->scopes_stale;
  drop_request (self);
  g_clear_pointer (&self->named, graft_layout_free);
}

/**
 * graft_layout_runner_new:
 * @document: the document whose graph is laid out
 * @canvas: the canvas that shows each layout
 *
 * Returns: (transfer full): a runner with no layout asked for yet
 */
GraftLayoutRunner *
graft_layout_runner_new (GraftDocument *document,
                         GraftCanvas   *canvas)
{
  GraftLayoutRunner *self;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (GRAFT_IS_CANVAS (canvas), NULL);
  self = g_object_new (GRAFT_TYPE_LAYOUT_RUNNER, NULL);
  self->document = g_object_ref (document);
  self->canvas = g_object_ref (canvas);
  g_signal_connect_object (document, "graph-changed", G_CALLBACK (graph_changed_cb), self,
                           G_CONNECT_SWAPPED);
  return self;
}

/* Lays @request out for @task; the layout's index by name is made before
 * it is returned, or with @index_later after. */
static void
run_request (GTask              *task,
             GraftLayoutRequest *request,
             gboolean            index_later)
{
  GError      *error = NULL;
  GraftLayout *layout;
  GraftLayout *kept;

  if (g_task_return_error_if_cancelled (task))
    return;
  layout = graft_layout_request_run (request, &error);
  if (layout == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* The canvas looks boxes up by name at once (an anchor kept in view, the
   * match marks): the index is built here, off the main loop.  When
   * nothing will, the layout is shown meanwhile: at a million nodes the
   * index takes about 0.15 s, and a name looked up before it is made
   * waits for it (graft_layout_find_node() makes it under a lock). */
  if (!index_later)
    {
      graft_layout_find_node (layout, "");
      g_task_return_pointer (task, layout, (GDestroyNotify) graft_layout_free);
      return;
    }
  kept = graft_layout_ref (layout);
  g_task_return_pointer (task, layout, (GDestroyNotify) graft_layout_free);
  graft_layout_find_node (kept, "");
  graft_layout_free (kept);
}

static void
layout_thread_cb (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  run_request (task, task_data, FALSE);
}

static void
work_thread_cb (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Work *work = task_data;

  run_request (task, work->request, work->index_later);
}

/**
 * graft_layout_runner_run_in_thread:
 * @task: a task whose data is a #GraftLayoutRequest
 *
 * Runs @task on a worker thread: it lays the request out and returns the
 * #GraftLayout (free it with graft_layout_free()) or the error; a task
 * cancelled before the thread starts returns %G_IO_ERROR_CANCELLED without
 * laying out.  For the split view, which lays out two graphs of its own
 * as the runner does one.
 */
void
graft_layout_runner_run_in_thread (GTask *task)
{
  g_return_if_fail (G_IS_TASK (task));
  g_task_run_in_thread (task, layout_thread_cb);
}

/* Drops a layout held back for its marks. */
static void
drop_held (GraftLayoutRunner *self)
{
  graft_turns_remove (self->marks_id);
  self->marks_id = 0;
  graft_canvas_free_layout (g_steal_pointer (&self->held));
  g_clear_pointer (&self->held_marks, _graft_document_layout_marks_free);
}

/* Goes on making the held layout's marks for about @usec microseconds (at
 * least one step).  Returns whether they are made. */
static gboolean
make_marks (GraftLayoutRunner *self,
            gint64             usec)
{
  gint64 start = g_get_monotonic_time ();
  guint  n = marks_step_names > 0 ? marks_step_names : MARKS_STEP_NAMES;

  while (!_graft_document_layout_marks_step (self->held_marks, n))
    if (marks_step_names > 0 || g_get_monotonic_time () - start >= usec ||
        _graft_document_layout_marks_get_waiting (self->held_marks))
      return FALSE;
  return TRUE;
}

/* The held layout to the canvas, its marks for the window to take, and
 * ::done. */
static void
show_held (GraftLayoutRunner *self)
{
  self->marks_id = 0;
  self->shown_shape = self->held_shape;
  g_clear_pointer (&self->named, graft_layout_free);
  if (self->held_revision == graft_document_get_revision (self->document))
    {
      self->named = graft_layout_ref (self->held);
      self->named_revision = self->held_revision;
    }
  g_free (self->shown_marks);
  self->shown_marks = _graft_document_layout_marks_finish (g_steal_pointer (&self->held_marks));
  self->shown = self->held;
  graft_canvas_set_layout (self->canvas, g_steal_pointer (&self->held), self->held_keep_view);
  g_signal_emit (self, signals[SIGNAL_DONE], 0, NULL);
  /* Not taken: the window makes them again when it wants them. */
  g_clear_pointer (&self->shown_marks, g_free);
}

static gboolean
marks_step_cb (gpointer user_data)
{
  GraftLayoutRunner *self = user_data;

  if (!make_marks (self, MARKS_TURN_USEC))
    return G_SOURCE_CONTINUE;
  show_held (self);
  return G_SOURCE_REMOVE;
}

static void
layout_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autofree Job *job = user_data;
  g_autoptr (GError) error = NULL;
  GTask             *task = G_TASK (result);
  GraftLayout       *layout = g_task_propagate_pointer (task, &error);
  GraftLayoutRunner *self;

  /* Superseded or stopped: the runner may be gone. */
  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      g_clear_pointer (&layout, graft_layout_free);
      return;
    }
  self = GRAFT_LAYOUT_RUNNER (job->runner);
  if (job->generation != self->generation)
    {
      /* A newer layout is on its way. */
      g_clear_pointer (&layout, graft_layout_free);
      return;
    }
  self->request = NULL;
  g_clear_handle_id (&self->progress_id, g_source_remove);
  if (layout != NULL)
    {
      /* Shown with its match marks, made first (over turns if they take
       * longer than a few milliseconds). */
      drop_held (self);
      self->held = layout;
      self->held_keep_view = job->keep_view;
      self->held_shape = job->shape;
      self->held_revision = job->revision;
      self->held_marks = _graft_document_layout_marks_new (self->document, layout);
      if (make_marks (self, MARKS_TURN_USEC))
        show_held (self);
      else
        self->marks_id = graft_turns_add (marks_step_cb, self, NULL);
      return;
    }
  g_signal_emit (self, signals[SIGNAL_DONE], 0, error);
}

/**
 * graft_layout_runner_steal_marks:
 * @self: a runner
 * @layout: the layout the canvas shows
 *
 * While ::done is emitted for @layout: its match marks, made before it was
 * shown (graft_document_dup_layout_marks()'s, for the matches as they are).
 *
 * Returns: (transfer full) (nullable): the marks, or %NULL (not made here,
 *   or already taken)
 */
gint *
graft_layout_runner_steal_marks (GraftLayoutRunner *self,
                                 GraftLayout       *layout)
{
  g_return_val_if_fail (GRAFT_IS_LAYOUT_RUNNER (self), NULL);
  if (layout == NULL || layout != self->shown)
    return NULL;
  return g_steal_pointer (&self->shown_marks);
}

/**
 * _graft_layout_runner_set_marks_step:
 * @n_names: matched nodes looked up a turn, or 0 for the usual time budget
 *
 * For tests: a small graph's marks made over several turns.
 */
void
_graft_layout_runner_set_marks_step (guint n_names)
{
  marks_step_names = n_names;
}

/**
 * _graft_layout_runner_get_holding:
 * @self: a runner
 *
 * Returns: whether a layout done waits for its marks, not shown yet
 */
gboolean
_graft_layout_runner_get_holding (GraftLayoutRunner *self)
{
  g_return_val_if_fail (GRAFT_IS_LAYOUT_RUNNER (self), FALSE);
  return self->held != NULL;
}

/* Says how far the running layout has got, once it has more than one
 * segment to do. */
static gboolean
poll_progress_cb (gpointer user_data)
{
  GraftLayoutRunner *self = user_data;
  guint              done;
  guint              total;

  if (self->request == NULL)
    {
      self->progress_id = 0;
      return G_SOURCE_REMOVE;
    }
  graft_layout_request_get_progress (self->request, &done, &total);
  if (total >= 2)
    g_signal_emit (self, signals[SIGNAL_PROGRESS], 0, done, total);
  return G_SOURCE_CONTINUE;
}

/* Goes on making the scopes of the graph queued, for at most about
 * @usec microseconds (at least one step); G_MAXINT64 finishes them.
 * Returns whether they are made. */
static gboolean
make_scopes (GraftLayoutRunner *self,
             gint64             usec)
{
  gint64       start = g_get_monotonic_time ();
  gboolean     done;
  GraftScopes *loaded;

  if (!self->scopes_stale)
    return TRUE;
  /* Made while the file was read, of the graph as it is. */
  if (self->builder == NULL && (loaded = graft_document_steal_scopes (self->document)) != NULL)
    {
      g_clear_pointer (&self->scopes, graft_scopes_free);
      self->scopes = loaded;
      self->scopes_revision = graft_document_get_revision (self->document);
      self->scopes_stale = FALSE;
      return TRUE;
    }
  if (self->builder == NULL)
    self->builder = graft_scopes_builder_new (graft_document_get_graph (self->document));
  do
    done = graft_scopes_builder_step (self->builder,
                                      usec == G_MAXINT64 ? G_MAXUINT : self->scope_step_nodes);
  while (!done && g_get_monotonic_time () - start < usec);
  if (!done)
    return FALSE;
  g_clear_pointer (&self->scopes, graft_scopes_free);
  self->scopes = graft_scopes_builder_finish (g_steal_pointer (&self->builder));
  /* A change of the graph meanwhile would have dropped the builder. */
  self->scopes_revision = graft_document_get_revision (self->document);
  self->scopes_stale = FALSE;
  return TRUE;
}

/* The scopes of the graph queued, made at once when first needed (when
 * the menus read them before the layout has made them). */
static GraftScopes *
ensure_scopes (GraftLayoutRunner *self)
{
  make_scopes (self, G_MAXINT64);
  return self->scopes;
}

/* Goes on making the request of the layout queued, for at most about
 * @usec microseconds (at least one step).  Returns whether it is made. */
static gboolean
make_request (GraftLayoutRunner *self,
              gint64             usec)
{
  gint64   start = g_get_monotonic_time ();
  gboolean done;

  if (self->loaded_request != NULL)
    return TRUE;
  /* The first layout of a graph read on a worker, its request made there. */
  if (self->request_builder == NULL && self->collapsed == NULL && self->overview_boxes >= 0 &&
      self->scopes_revision == graft_document_get_revision (self->document))
    self->loaded_request = _graft_document_steal_loaded_request (
        self->document, (guint) self->overview_boxes, &self->collapsed);
  if (self->loaded_request != NULL)
    return TRUE;
  if (self->request_builder == NULL)
    {
      if (self->collapsed == NULL)
        self->collapsed =
            self->overview_boxes >= 0
                ? graft_scopes_new_overview (self->scopes, (guint) self->overview_boxes)
                : g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      self->request_builder =
          graft_layout_request_builder_new (graft_document_get_graph (self->document),
                                            self->scopes, self->collapsed, NULL);
      /* The graph has not changed since @named was made of it. */
      if (self->named != NULL &&
          self->named_revision == graft_document_get_revision (self->document))
        graft_layout_request_builder_share_names (self->request_builder, self->named);
    }
  do
    done = graft_layout_request_builder_step (self->request_builder, self->scope_step_nodes);
  while (!done && g_get_monotonic_time () - start < usec);
  return done;
}

/* Two nodes of one name: each box says the name the code gives its node
 * (the copy `sym_size_int_2`, as the Code tab and Why Not Here? call it),
 * not both the name they share.  A walk of the graph, only for a graph
 * with shared names (a program's). */
static void
label_as_code (GraftLayoutRunner  *self,
               GraftLayoutRequest *request)
{
  GHashTable *names = _graft_document_get_code_names (self->document);
  guint       i = 0;

  if (names == NULL || g_hash_table_size (names) == 0)
    return;
  for (GraftNode *node = graft_graph_get_first (graft_document_get_graph (self->document));
       node != NULL; node = graft_node_get_next (node), i++)
    {
      const char *name = g_hash_table_lookup (names, node);

      if (name != NULL)
        graft_layout_request_set_label (request, i, name);
    }
}

/* Starts the layout graft_layout_runner_queue() asked for.  Making the
 * scopes takes about 15 ms at 50,000 nodes and 1.5 s at a million, and
 * copying what the worker needs of the graph (the request) about 10 ms and
 * 0.3 s, so both are made a few milliseconds per turn, apart from the
 * change that asked for them: events and frames due meanwhile are handled
 * between them.  The worker never reads the graph, which edits change on
 * the main loop. */
static gboolean
start_cb (gpointer user_data)
{
  GraftLayoutRunner *self = user_data;
  g_autoptr (GTask) task = NULL;
  Job                *job;
  Work               *work;
  GraftLayoutRequest *request;
  GraftLayout        *shown = graft_canvas_get_layout (self->canvas);

  if (self->scopes_stale)
    {
      make_scopes (self, self->scope_turn_usec);
      return G_SOURCE_CONTINUE;
    }
  if (!make_request (self, self->scope_turn_usec))
    return G_SOURCE_CONTINUE;
  job = g_new0 (Job, 1);
  self->start_id = 0;
  job->generation = self->generation;
  job->shape = self->shape;
  job->revision = graft_document_get_revision (self->document);
  job->keep_view = self->start_keep_view;
  self->start_keep_view = FALSE;
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  job->runner = self;
  /* No source object: a GTask may be finalized on its worker thread, and
   * it would then drop the last reference to a runner disposed meanwhile
   * there, and with it the canvas's and the document's, outside GTK's
   * thread.  The runner is the job's, unreferenced: whatever supersedes
   * or stops this layout (the runner's dispose included) cancels the task
   * first, and then the runner is not read. */
  task = g_task_new (NULL, self->cancellable, layout_done_cb, job);
  g_task_set_source_tag (task, graft_layout_runner_queue);
  request = self->loaded_request != NULL
                ? g_steal_pointer (&self->loaded_request)
                : graft_layout_request_builder_finish (g_steal_pointer (&self->request_builder));
  graft_layout_request_set_direction (request, self->direction);
  label_as_code (self, request);
  /* After an edit, what it did not touch keeps its place. */
  if (job->keep_view && shown != NULL && self->shown_shape == self->shape)
    graft_layout_request_set_previous (request, shown, TRUE);
  /* A newer layout stops this one between segments. */
  graft_layout_request_set_cancellable (request, self->cancellable);
  work = g_new0 (Work, 1);
  work->request = request;
  /* Fitted to the view, no marks to look up: nothing asks for a name. */
  work->index_later =
      !job->keep_view && !_graft_document_get_marks_need_names (self->document);
  g_task_set_task_data (task, work, work_free);
  self->request = request;
  if (self->progress_id == 0)
    self->progress_id = g_timeout_add (100, poll_progress_cb, self);
  g_task_run_in_thread (task, work_thread_cb);
  return G_SOURCE_REMOVE;
}

/**
 * graft_layout_runner_queue:
 * @self: a runner
 * @keep_view: keep looking at the same place rather than fitting the graph
 *
 * Lays the document's graph out on a worker thread, starting from the
 * main loop's next turn; supersedes any layout still running.
 */
void
graft_layout_runner_queue (GraftLayoutRunner *self,
                           gboolean           keep_view)
{
  g_return_if_fail (GRAFT_IS_LAYOUT_RUNNER (self));

  /* The running layout is superseded at once: whatever it returns now is
   * dropped, and so is one done but not shown yet. */
  g_cancellable_cancel (self->cancellable);
  self->generation++;
  drop_held (self);
  self->request = NULL;
  /* Two requests before the start: fitting wins over keeping the view. */
  self->start_keep_view = self->start_id != 0 ? self->start_keep_view && keep_view : keep_view;
  /* Scopes follow the graph: when it has changed since they were made
   * (or is new), they are made again before the layout starts, or when
   * the menus read them first; a folding changed alone keeps them (they
   * take a second at a million nodes).  Scopes half made go on: a change
   * of the graph would have dropped them. */
  if (self->scopes == NULL ||
      self->scopes_revision != graft_document_get_revision (self->document) ||
      graft_scopes_get_n_nodes (self->scopes) !=
          graft_graph_get_n_nodes (graft_document_get_graph (self->document)))
    self->scopes_stale = TRUE;
  drop_request (self);
  /* A step of graft-turns.c, at the default priority: below the redraw's,
   * an animation whose frames take longer than the frame interval (the busy
   * spinner under a software GL renderer) would keep it from ever running. */
  if (self->start_id == 0)
    self->start_id = graft_turns_add (start_cb, self, NULL);
}

/**
 * graft_layout_runner_set_direction:
 * @self: a runner
 * @direction: which way the layouts run from now on
 *
 * The next layout queued runs that way; the caller queues one.
 */
void
graft_layout_runner_set_direction (GraftLayoutRunner   *self,
                                   GraftLayoutDirection direction)
{
  g_return_if_fail (GRAFT_IS_LAYOUT_RUNNER (self));
  self->direction = direction;
  self->shape++;
  drop_request (self);
}

/**
 * graft_layout_runner_get_pending:
 * @self: a runner
 *
 * Returns: whether a layout has been asked for that has not started yet
 */
gboolean
graft_layout_runner_get_pending (GraftLayoutRunner *self)
{
  g_return_val_if_fail (GRAFT_IS_LAYOUT_RUNNER (self), FALSE);
  return self->start_id != 0;
}

/**
 * graft_layout_runner_stop:
 * @self: a runner
 *
 * Cancels the running layout and forgets the ones asked for: nothing goes
 * to the canvas any more and no signal is emitted, until the next
 * graft_layout_runner_queue().  The window calls it when it goes.
 */
void
graft_layout_runner_stop (GraftLayoutRunner *self)
{
  g_return_if_fail (GRAFT_IS_LAYOUT_RUNNER (self));
  g_cancellable_cancel (self->cancellable);
  self->generation++;
  self->request = NULL;
  g_clear_handle_id (&self->progress_id, g_source_remove);
  graft_turns_remove (self->start_id);
  self->start_id = 0;
  drop_request (self);
  drop_held (self);
}

/**
 * graft_layout_runner_get_scopes:
 * @self: a runner
 *
 * Returns: (transfer none) (nullable): the scopes of the graph last
 *   queued, or %NULL before the first request
 */
GraftScopes *
graft_layout_runner_get_scopes (GraftLayoutRunner *self)
{
  g_return_val_if_fail (GRAFT_IS_LAYOUT_RUNNER (self), NULL);
  return ensure_scopes (self);
}

/**
 * graft_layout_runner_peek_scopes:
 * @self: a runner
 *
 * As graft_layout_runner_get_scopes(), without making them: for what is
 * refreshed on every change of the graph (making them at a million nodes
 * takes a second, which the layout spreads over turns), and refreshed again
 * when the layout is done.
 *
 * Returns: (transfer none) (nullable): the scopes of the graph as it is,
 *   or %NULL while they are to be made
 */
GraftScopes *
graft_layout_runner_peek_scopes (GraftLayoutRunner *self)
{
  g_return_val_if_fail (GRAFT_IS_LAYOUT_RUNNER (self), NULL);
  return self->scopes_stale ? NULL : self->scopes;
}

/**
 * graft_layout_runner_is_folded:
 * @self: a runner
 * @name: (nullable): a box's name on the canvas
 *
 * Returns: whether @name is a folded scope's path rather than a node's
 *   name
 */
gboolean
graft_layout_runner_is_folded (GraftLayoutRunner *self,
                               const char        *name)
{
  g_return_val_if_fail (GRAFT_IS_LAYOUT_RUNNER (self), FALSE);
  return name != NULL && self->collapsed != NULL && g_hash_table_contains (self->collapsed, name) &&
         graft_graph_find_node (graft_document_get_graph (self->document), name) == NULL;
}

/**
 * graft_layout_runner_fold_new_graph:
 * @self: a runner
 *
 * For a graph just read: forgets what was collapsed, and lets the graph's
 * size decide whether the next layout folds it into an overview.
 */
void
graft_layout_runner_fold_new_graph (GraftLayoutRunner *self)
{
  GraftGraph *graph;

  g_return_if_fail (GRAFT_IS_LAYOUT_RUNNER (self));
  graph = graft_document_get_graph (self->document);
  g_clear_pointer (&self->collapsed, g_hash_table_unref);
  self->overview_boxes = graft_graph_get_n_nodes (graph) > FOLD_ABOVE_NODES ? OVERVIEW_BOXES : -1;
  self->shape++;
  drop_request (self);
}

/**
 * graft_layout_runner_new_first_request:
 * @graph: a graph just read, no document's yet
 * @scopes: its scopes
 * @out_collapsed: (out) (transfer full): the scopes the request folds
 * @out_overview_boxes: (out): the overview they are (at most this many boxes)
 *
 * The request a runner makes for @graph's first layout once it is a
 * document's (graft_layout_runner_fold_new_graph(), then
 * graft_layout_runner_queue()), for the worker that reads a large file to
 * make while the graph is still its own (the document keeps it for the
 * runner: _graft_document_set_loaded_request()).  Any thread.
 *
 * Returns: (transfer full) (nullable): the request, or %NULL when the
 *   first layout is not folded
 */
GraftLayoutRequest *
graft_layout_runner_new_first_request (GraftGraph  *graph,
                                       GraftScopes *scopes,
                                       GHashTable **out_collapsed,
                                       guint       *out_overview_boxes)
{
  g_return_val_if_fail (graph != NULL && scopes != NULL, NULL);
  g_return_val_if_fail (out_collapsed != NULL && out_overview_boxes != NULL, NULL);

  *out_collapsed = NULL;
  *out_overview_boxes = OVERVIEW_BOXES;
  if (graft_graph_get_n_nodes (graph) <= FOLD_ABOVE_NODES)
    return NULL;
  *out_collapsed = graft_scopes_new_overview (scopes, OVERVIEW_BOXES);
  return graft_layout_request_new_folded (graph, scopes, *out_collapsed, NULL);
}

/**
 * graft_layout_runner_reset_folding:
 * @self: a runner
 * @overview: fold the graph into an overview; %FALSE expands everything
 *
 * Chooses what the next layout collapses.
 */
void
graft_layout_runner_reset_folding (GraftLayoutRunner *self,
                                   gboolean           overview)
{
  GraftGraph *graph;

  g_return_if_fail (GRAFT_IS_LAYOUT_RUNNER (self));
  graph = graft_document_get_graph (self->document);
  g_clear_pointer (&self->collapsed, g_hash_table_unref);
  self->overview_boxes = -1;
  self->shape++;
  drop_request (self);
  /* The top level, whatever the size (before the first layout, an
   * overview chosen when it starts). */
  if (overview && ensure_scopes (self) != NULL)
    self->collapsed =
        graft_scopes_new_folded_at (self->scopes, graft_scopes_get_top_depth (self->scopes));
  else if (overview)
    self->overview_boxes = (gint) MIN (OVERVIEW_BOXES, graft_graph_get_n_nodes (graph));
}

/**
 * graft_layout_runner_expand_level:
 * @self: a runner
 *
 * Opens every folded module one level in the next layout: a graph folded
 * at one depth is then folded at the next.
 *
 * Returns: whether something was folded (else nothing changes)
 */
gboolean
graft_layout_runner_expand_level (GraftLayoutRunner *self)
{
  g_return_val_if_fail (GRAFT_IS_LAYOUT_RUNNER (self), FALSE);
  if (self->collapsed == NULL || ensure_scopes (self) == NULL ||
      g_hash_table_size (self->collapsed) == 0)
    return FALSE;
  graft_scopes_expand_level (self->scopes, self->collapsed);
  self->shape++;
  drop_request (self);
  return TRUE;
}

/**
 * graft_layout_runner_expand:
 * @self: a runner
 * @scope: a collapsed scope
 *
 * Opens @scope one level in the next layout.
 *
 * Returns: whether @scope was collapsed (else nothing changes)
 */
gboolean
graft_layout_runner_expand (GraftLayoutRunner *self,
                            const char        *scope)
{
  g_return_val_if_fail (GRAFT_IS_LAYOUT_RUNNER (self), FALSE);
  if (self->collapsed == NULL || ensure_scopes (self) == NULL ||
      !g_hash_table_contains (self->collapsed, scope))
    return FALSE;
  graft_scopes_expand (self->scopes, self->collapsed, scope);
  self->shape++;
  drop_request (self);
  return TRUE;
}

/**
 * graft_layout_runner_collapse:
 * @self: a runner
 * @scope: a scope of the graph
 *
 * Folds @scope into one box in the next layout.
 */
void
graft_layout_runner_collapse (GraftLayoutRunner *self,
                              const char        *scope)
{
  g_return_if_fail (GRAFT_IS_LAYOUT_RUNNER (self));
  if (self->collapsed == NULL)
    self->collapsed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  graft_scopes_collapse (self->collapsed, scope);
  self->shape++;
  drop_request (self);
}

/**
 * _graft_layout_runner_set_scope_turn:
 * @self: a runner
 * @usec: how long making scopes may take in one turn (0: one step a turn)
 * @step_nodes: how many nodes a step goes through
 *
 * For tests, which need scopes half made for a few turns.
 */
void
_graft_layout_runner_set_scope_turn (GraftLayoutRunner *self,
                                     gint64             usec,
                                     guint              step_nodes)
{
  g_return_if_fail (GRAFT_IS_LAYOUT_RUNNER (self));
  self->scope_turn_usec = usec;
  self->scope_step_nodes = MAX (step_nodes, 1);
}

/**
 * _graft_layout_runner_is_making_scopes:
 * @self: a runner
 *
 * Returns: whether scopes are half made, between turns
 */
gboolean
_graft_layout_runner_is_making_scopes (GraftLayoutRunner *self)
{
  g_return_val_if_fail (GRAFT_IS_LAYOUT_RUNNER (self), FALSE);
  return self->builder != NULL;
}

/**
 * _graft_layout_runner_is_making_request:
 * @self: a runner
 *
 * Returns: whether the next layout's request is half made, between turns
 */
gboolean
_graft_layout_runner_is_making_request (GraftLayoutRunner *self)
{
  g_return_val_if_fail (GRAFT_IS_LAYOUT_RUNNER (self), FALSE);
  return self->request_builder != NULL;
}

/**
 * _graft_layout_runner_get_cancellable:
 * @self: a runner
 *
 * Returns: (transfer none) (nullable): the cancellable of the layout last
 *   started, for tests that wait for its task to go
 */
GCancellable *
_graft_layout_runner_get_cancellable (GraftLayoutRunner *self)
{
  g_return_val_if_fail (GRAFT_IS_LAYOUT_RUNNER (self), NULL);
  return self->cancellable;
}

static void
graft_layout_runner_dispose (GObject *object)
{
  GraftLayoutRunner *self = GRAFT_LAYOUT_RUNNER (object);

  graft_layout_runner_stop (self);
  G_OBJECT_CLASS (graft_layout_runner_parent_class)->dispose (object);
}

static void
graft_layout_runner_finalize (GObject *object)
{
  GraftLayoutRunner *self = GRAFT_LAYOUT_RUNNER (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->builder, graft_scopes_builder_free);
  drop_request (self);
  g_clear_pointer (&self->scopes, graft_scopes_free);
  g_clear_pointer (&self->collapsed, g_hash_table_unref);
  graft_canvas_free_layout (g_steal_pointer (&self->named));
  drop_held (self);
  g_clear_object (&self->canvas);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (graft_layout_runner_parent_class)->finalize (object);
}

static void
graft_layout_runner_class_init (GraftLayoutRunnerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = graft_layout_runner_dispose;
  object_class->finalize = graft_layout_runner_finalize;

  /**
   * GraftLayoutRunner::progress:
   * @self: the runner
   * @done: segments laid out
   * @total: segments of the running layout, at least 2
   *
   * Emitted every tenth of a second while a layout of several segments
   * runs.
   */
  signals[SIGNAL_PROGRESS] = g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
  /**
   * GraftLayoutRunner::done:
   * @self: the runner
   * @error: (nullable): why the newest layout failed or stopped, or %NULL
   *   when the canvas shows it
   *
   * Emitted when the newest layout asked for has finished.
   */
  signals[SIGNAL_DONE] = g_signal_new ("done", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL,
                                       G_TYPE_NONE, 1, G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
graft_layout_runner_init (GraftLayoutRunner *self)
{
  self->overview_boxes = -1;
  self->scope_turn_usec = SCOPE_TURN_USEC;
  self->scope_step_nodes = SCOPE_STEP_NODES;
}
