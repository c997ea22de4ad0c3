/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-export.c: one export of the editor, off the main loop.
 *
 * An export is made on the main loop from what it writes, copied or held
 * unchanging: the text of a code, listing, DOT or match-list file; for a
 * picture, a reference to a layout (layouts never change once made, see
 * graft_layout_ref()), the part of it drawn and its scale, and the match
 * marks, computed on the main loop before the drawing starts (over
 * turns of a few milliseconds: at a million nodes the matched and added
 * nodes are a hundred thousand each) and then only read.  A picture of
 * the whole unfolded graph, when the canvas shows another layout, first
 * lays the graph out from a copy of it (graft_layout_request_new()), on a
 * worker too; a graph too big to draw is refused before it is copied.
 *
 * graft_export_run_async() writes the file on a worker thread (GTask) to a
 * temporary file beside the target (GraftOutputFile), flushed to disk
 * there; the rename over the target happens back on the main loop, and
 * only if the export was not cancelled meanwhile.  So a cancelled or
 * failed export leaves neither the file nor a temporary file, whenever
 * the cancel comes before the result is handed over.
 *
 * The worker reports progress through an atomic value; each change of a
 * thousandth is handed to the main loop by an idle of its own, so the
 * :fraction property takes each value the worker reported, in order,
 * however busy the main loop is.  While a layout runs first, its progress
 * is polled instead (it is half of the work).
 */
#include "config.h"

#include "graft-export.h"
#include "graft-document-private.h"
#include "graft-turns.h"

#include <string.h>

/* Text is written in pieces of this size, each a step of progress and a
 * chance to cancel. */
#define TEXT_CHUNK (1 << 20)

/* A picture's marks are made over main-loop turns of about MARKS_TURN_USEC
 * microseconds, MARKS_STEP_NAMES matched or added nodes looked up in the
 * layout between looks at the clock: at a million nodes, the hundred
 * thousand of each took 15-20 ms at once. */
#define MARKS_TURN_USEC  4000
#define MARKS_STEP_NAMES 1024

/* For tests: one step of this many names per turn, if not 0. */
static guint test_marks_step;

/**
 * _graft_export_set_marks_step:
 * @n_names: matched or added nodes looked up per main-loop turn, or 0
 *   for the default (as many steps as fit in a few milliseconds)
 *
 * For tests: a small graph's marks made in several turns.
 */
void
_graft_export_set_marks_step (guint n_names)
{
  test_marks_step = n_names;
}

struct _GraftExport
{
  GObject parent_instance;

  /* Owned */
  GFile              *file;
  char               *path;
  GBytes             *text;      /* a text file's contents, or NULL */
  GraftDocument      *document;  /* a picture's marks come from it */
  GraftLayout        *layout;    /* what a picture draws, once known */
  GraftLayoutRequest *request;   /* lays the whole graph out first, or NULL */
  GError             *refusal;   /* the whole graph is too big to draw, or NULL */
  gint               *marks;     /* per graph node of @layout, or NULL */
  GraftLayoutMarks   *marks_job; /* @marks, while made over turns */
  gboolean           *added;
  gboolean           *dropped;
  GCancellable       *cancellable;
  GTask              *task; /* the caller's, while running */

  GraftFormat     format;
  GraftRenderArea area;
  GraftRenderFit  fit;
  gboolean        has_fit;
  gboolean        highlights;
  gboolean        dark;
  double          fraction;
  double          base;           /* where the drawing's progress starts */
  gint            reported;       /* atomic: the worker's last thousandth */
  guint           poll_id;        /* polls @request while it runs */
  guint           marks_turn;     /* the turn making the marks (graft-turns.c), or 0 */
  guint           added_next;     /* the next added node to look up */
  guint           added_revision; /* the document's, when the added nodes were begun */
  gboolean        running;
};

G_DEFINE_FINAL_TYPE (GraftExport, graft_export, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_FRACTION,
  N_PROPS,
};

static GParamSpec *properties[N_PROPS];

static void
graft_export_dispose (GObject *object)
{
  GraftExport *self = GRAFT_EXPORT (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->poll_id, g_source_remove);
  if (self->marks_turn != 0)
    graft_turns_remove (self->marks_turn);
  self->marks_turn = 0;
  g_clear_pointer (&self->marks_job, _graft_document_layout_marks_free);
  G_OBJECT_CLASS (graft_export_parent_class)->dispose (object);
}

static void
graft_export_finalize (GObject *object)
{
  GraftExport *self = GRAFT_EXPORT (object);

  g_clear_object (&self->file);
  g_free (self->path);
  g_clear_pointer (&self->text, g_bytes_unref);
  g_clear_object (&self->document);
  g_clear_pointer (&self->layout, graft_layout_free);
  g_clear_pointer (&self->request, graft_layout_request_free);
  g_clear_error (&self->refusal);
  g_free (self->marks);
  g_free (self->added);
  g_free (self->dropped);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (graft_export_parent_class)->finalize (object);
}

static void
graft_export_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  GraftExport *self = GRAFT_EXPORT (object);

  switch (prop_id)
    {
    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
graft_export_class_init (GraftExportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = graft_export_dispose;
  object_class->finalize = graft_export_finalize;
  object_class->get_property = graft_export_get_property;

  /**
   * GraftExport:fraction:
   *
   * How much of the file is written, from 0 to 1.
   */
  properties[PROP_FRACTION] =
      g_param_spec_double ("fraction", NULL, NULL, 0, 1, 0,
                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
graft_export_init (GraftExport *self)
{
  self->cancellable = g_cancellable_new ();
  self->reported = -1;
}

static GraftExport *
export_new (GFile      *file,
            GraftFormat format)
{
  GraftExport *self = g_object_new (GRAFT_TYPE_EXPORT, NULL);

  self->file = g_object_ref (file);
  self->path = g_file_get_path (file);
  self->format = format;
  return self;
}

/**
 * graft_export_new_text:
 * @file: where to write
 * @format: what @text is, for the caller
 * @text: the file's contents, copied
 *
 * Returns: (transfer full): an export of @text to @file
 */
GraftExport *
graft_export_new_text (GFile      *file,
                       GraftFormat format,
                       const char *text)
{
  GraftExport *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  self = export_new (file, format);
  self->text = g_bytes_new (text, strlen (text));
  return self;
}

/**
 * graft_export_new_picture:
 * @document: the document @layout shows, for its match marks
 * @file: where to write
 * @format: a picture format
 * @layout: the layout to draw, held until the export ends
 * @area: (nullable): the part drawn and its scale; %NULL for the whole
 *   drawing at the format's own scale
 * @highlights: draw the matches, and the nodes the last rewrite added or
 *   left alone, as the canvas does
 * @dark: the dark style
 *
 * Returns: (transfer full): an export of a picture of @layout
 */
GraftExport *
graft_export_new_picture (GraftDocument         *document,
                          GFile                 *file,
                          GraftFormat            format,
                          GraftLayout           *layout,
                          const GraftRenderArea *area,
                          gboolean               highlights,
                          gboolean               dark)
{
  GraftExport *self;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (graft_format_is_picture (format), NULL);
  g_return_val_if_fail (layout != NULL, NULL);

  self = export_new (file, format);
  self->document = g_object_ref (document);
  self->layout = graft_layout_ref (layout);
  if (area != NULL)
    self->area = *area;
  self->highlights = highlights;
  self->dark = dark;
  return self;
}

/**
 * graft_export_new_whole:
 * @document: the document whose graph is drawn
 * @file: where to write
 * @format: a picture format
 * @highlights: as graft_export_new_picture()'s
 * @dark: the dark style
 *
 * The graph is copied now and laid out unfolded by the export; a graph
 * with more nodes than graft draws (graft_layout_check_n_nodes()) is not
 * copied, and the export fails as its layout would.
 *
 * Returns: (transfer full): an export of a picture of the whole graph
 */
GraftExport *
graft_export_new_whole (GraftDocument *document,
                        GFile         *file,
                        GraftFormat    format,
                        gboolean       highlights,
                        gboolean       dark)
{
  GraftExport *self;
  GraftGraph  *graph;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (graft_format_is_picture (format), NULL);

  self = export_new (file, format);
  self->document = g_object_ref (document);
  graph = graft_document_get_graph (document);
  /* A graph too big to draw is refused as its layout would refuse it,
   * without the copy (half a second at a million nodes). */
  if (graft_layout_check_n_nodes (graft_graph_get_n_nodes (graph), &self->refusal))
    {
      self->request = graft_layout_request_new (graph);
      graft_layout_request_set_cancellable (self->request, self->cancellable);
    }
  self->highlights = highlights;
  self->dark = dark;
  return self;
}

/**
 * graft_export_get_file:
 * @self: an export
 *
 * Returns: (transfer none): where it writes
 */
GFile *
graft_export_get_file (GraftExport *self)
{
  g_return_val_if_fail (GRAFT_IS_EXPORT (self), NULL);
  return self->file;
}

/**
 * graft_export_get_format:
 * @self: an export
 *
 * Returns: what it writes
 */
GraftFormat
graft_export_get_format (GraftExport *self)
{
  g_return_val_if_fail (GRAFT_IS_EXPORT (self), GRAFT_FORMAT_CODE);
  return self->format;
}

/**
 * graft_export_get_fraction:
 * @self: an export
 *
 * Returns: how much of the file is written, from 0 to 1
 */
double
graft_export_get_fraction (GraftExport *self)
{
  g_return_val_if_fail (GRAFT_IS_EXPORT (self), 0);
  return self->fraction;
}

/**
 * graft_export_get_fit:
 * @self: an export
 * @out_fit: (out caller-allocates): the size and scale of the picture
 *
 * Returns: whether @self drew a picture (and @out_fit is set)
 */
gboolean
graft_export_get_fit (GraftExport    *self,
                      GraftRenderFit *out_fit)
{
  g_return_val_if_fail (GRAFT_IS_EXPORT (self), FALSE);
  if (self->has_fit)
    *out_fit = self->fit;
  return self->has_fit;
}

/**
 * _graft_export_get_marking:
 * @self: an export
 *
 * For tests: whether the export is making its picture's marks over turns
 * (the drawing has not started).
 */
gboolean
_graft_export_get_marking (GraftExport *self)
{
  g_return_val_if_fail (GRAFT_IS_EXPORT (self), FALSE);
  return self->marks_turn != 0;
}

/**
 * graft_export_cancel:
 * @self: an export
 *
 * Stops the export: it finishes with %G_IO_ERROR_CANCELLED and leaves no
 * file, unless it has already finished.
 */
void
graft_export_cancel (GraftExport *self)
{
  g_return_if_fail (GRAFT_IS_EXPORT (self));
  g_cancellable_cancel (self->cancellable);
}

static void
set_fraction (GraftExport *self,
              double       fraction)
{
  fraction = CLAMP (fraction, 0, 1);
  if (fraction == self->fraction)
    return;
  self->fraction = fraction;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
}

typedef struct
{
  GraftExport *self;
  double       fraction;
} Report;

static gboolean
report_cb (gpointer data)
{
  Report *report = data;

  if (report->self->running)
    set_fraction (report->self, report->fraction);
  return G_SOURCE_REMOVE;
}

static void
report_free (gpointer data)
{
  Report *report = data;

  g_object_unref (report->self);
  g_free (report);
}

/* On the worker: hands each new thousandth to the main loop. */
static void
worker_progress_cb (double   fraction,
                    gpointer user_data)
{
  GraftExport *self = user_data;
  gint         thousandth = (gint) (fraction * 1000);
  gint         last = g_atomic_int_get (&self->reported);
  Report      *report;

  if (thousandth <= last || !g_atomic_int_compare_and_exchange (&self->reported, last, thousandth))
    return;
  report = g_new (Report, 1);
  report->self = g_object_ref (self);
  report->fraction = self->base + (1 - self->base) * thousandth / 1000.0;
  g_idle_add_full (G_PRIORITY_DEFAULT, report_cb, report, report_free);
}

/* What a worker returns: the file written, not yet renamed. */
static void
output_free (gpointer data)
{
  graft_output_file_abandon (data);
}

static void
text_thread_cb (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GraftExport *self = task_data;
  g_autoptr (GraftOutputFile) out = NULL;
  GError     *error = NULL;
  gsize       length;
  const char *data = g_bytes_get_data (self->text, &length);

  out = graft_output_file_open (self->path, &error);
  if (out == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  for (gsize done = 0; done < length; done += TEXT_CHUNK)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, &error) ||
          !graft_output_file_write (out, data + done, MIN (TEXT_CHUNK, length - done), &error))
        {
          g_task_return_error (task, error);
          return;
        }
      worker_progress_cb ((double) (done + MIN (TEXT_CHUNK, length - done)) / length, self);
    }
  if (!graft_output_file_sync (out, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, g_steal_pointer (&out), output_free);
}

static void
draw_thread_cb (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GraftExport *self = task_data;
  g_autoptr (GraftOutputFile) out = NULL;
  GraftRenderOptions options;
  GError            *error = NULL;

  graft_render_options_init (&options);
  options.style = self->dark ? GRAFT_RENDER_DARK : GRAFT_RENDER_LIGHT;
  options.node_match = self->marks;
  options.node_added = self->added;
  options.node_dropped = self->dropped;
  out = graft_output_file_open (self->path, &error);
  if (out == NULL ||
      !graft_render_to_output (self->layout, self->format, &options, &self->area, out,
                               worker_progress_cb, self, cancellable, &self->fit, &error) ||
      !graft_output_file_sync (out, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, g_steal_pointer (&out), output_free);
}

/* The worker is done: the file is renamed over the target, unless the
 * export was cancelled meanwhile. */
static void
written_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr (GraftExport) self = user_data;
  g_autoptr (GTask) task = g_steal_pointer (&self->task);
  GraftOutputFile *out;
  GError          *error = NULL;

  self->has_fit = self->layout != NULL && self->fit.scale > 0;
  out = g_task_propagate_pointer (G_TASK (result), &error);
  self->running = FALSE;
  if (out != NULL && g_cancellable_set_error_if_cancelled (self->cancellable, &error))
    g_clear_pointer (&out, graft_output_file_abandon);
  if (out != NULL && !graft_output_file_commit (out, &error))
    out = NULL;
  if (out == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  set_fraction (self, 1);
  g_task_return_boolean (task, TRUE);
}

/* Whether a step of the marks that began at @start may be followed by
 * another. */
static gboolean
marks_time_left (gint64 start)
{
  return test_marks_step == 0 && g_get_monotonic_time () - start < MARKS_TURN_USEC;
}

/* The marks the canvas draws for @layout, computed on the main loop (the
 * workers only read them), over turns: goes on for about
 * MARKS_TURN_USEC (at least one step) and returns whether they are made.
 * The match marks start again by themselves when the graph or the
 * matches change meanwhile; the added nodes likewise. */
static gboolean
compute_marks (GraftExport *self)
{
  gint64     start = g_get_monotonic_time ();
  guint      size = test_marks_step > 0 ? test_marks_step : MARKS_STEP_NAMES;
  GPtrArray *added_names;
  guint      n;

  if (!self->highlights)
    return TRUE;
  if (self->marks == NULL)
    {
      if (self->marks_job == NULL)
        {
          self->marks_job = _graft_document_layout_marks_new (self->document, self->layout);
          self->added_revision = graft_document_get_revision (self->document);
        }
      while (!_graft_document_layout_marks_step (self->marks_job, size))
        if (!marks_time_left (start))
          return FALSE;
      self->marks = _graft_document_layout_marks_finish (g_steal_pointer (&self->marks_job));
      if (!marks_time_left (start))
        return FALSE;
    }
  added_names = graft_document_get_added_names (self->document);
  n = graft_layout_get_n_graph_nodes (self->layout);
  if (self->added_revision != graft_document_get_revision (self->document))
    {
      /* The graph changed: the marks are made again too. */
      g_clear_pointer (&self->marks, g_free);
      g_clear_pointer (&self->added, g_free);
      self->added_next = 0;
      return FALSE;
    }
  if (added_names->len > 0 && self->added == NULL)
    self->added = g_new0 (gboolean, MAX (n, 1));
  while (self->added_next < added_names->len)
    {
      guint end = self->added_next + MIN (size, added_names->len - self->added_next);

      for (; self->added_next < end; self->added_next++)
        {
          gint i = graft_layout_find_graph_node (self->layout,
                                                 added_names->pdata[self->added_next]);

          if (i >= 0)
            self->added[i] = TRUE;
        }
      if (self->added_next < added_names->len && !marks_time_left (start))
        return FALSE;
    }
  if (graft_document_get_n_dropped (self->document) > 0)
    self->dropped = graft_document_dup_layout_dropped (self->document, self->layout);
  return TRUE;
}

/* A worker's task, run on a thread: it has no source object, as a GTask
 * may be finalized on its worker thread and would then drop the last
 * reference to its source there.  The export is its data, for the
 * worker, and its callback's, referenced: the callback, on the main loop,
 * drops that reference. */
static GTask *
worker_new (GraftExport        *self,
            GAsyncReadyCallback callback,
            gpointer            task_data)
{
  GTask *worker = g_task_new (NULL, self->cancellable, callback, g_object_ref (self));

  g_task_set_task_data (worker, task_data, NULL);
  return worker;
}

static void start_drawing (GraftExport *self);

static void
start_worker (GraftExport *self)
{
  g_autoptr (GTask) worker = worker_new (self, written_cb, self);

  g_task_set_source_tag (worker, start_drawing);
  g_task_run_in_thread (worker, draw_thread_cb);
}

static gboolean
marks_turn_cb (gpointer user_data)
{
  GraftExport *self = user_data;
  GError      *error = NULL;

  if (g_cancellable_set_error_if_cancelled (self->cancellable, &error))
    {
      g_autoptr (GTask) task = g_steal_pointer (&self->task);

      self->marks_turn = 0;
      self->running = FALSE;
      g_task_return_error (task, error);
      return G_SOURCE_REMOVE;
    }
  if (!compute_marks (self))
    return G_SOURCE_CONTINUE;
  self->marks_turn = 0;
  start_worker (self);
  return G_SOURCE_REMOVE;
}

/* The marks first, over turns if they take more than a few milliseconds,
 * then the drawing on a worker. */
static void
start_drawing (GraftExport *self)
{
  if (compute_marks (self))
    start_worker (self);
  else
    self->marks_turn = graft_turns_add (marks_turn_cb, self, NULL);
}

static void
layout_thread_cb (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  GraftLayoutRequest *request = task_data;
  GError             *error = NULL;
  GraftLayout        *layout = graft_layout_request_run (request, &error);

  if (layout == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, layout, (GDestroyNotify) graft_layout_free);
}

static void
laid_out_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr (GraftExport) self = user_data;
  GError *error = NULL;

  g_clear_handle_id (&self->poll_id, g_source_remove);
  self->layout = g_task_propagate_pointer (G_TASK (result), &error);
  if (self->layout == NULL)
    {
      g_autoptr (GTask) task = g_steal_pointer (&self->task);

      self->running = FALSE;
      g_task_return_error (task, error);
      return;
    }
  set_fraction (self, 0.5);
  self->base = 0.5;
  start_drawing (self);
}

/* Laying out is the first half of the work. */
static gboolean
poll_layout_cb (gpointer user_data)
{
  GraftExport *self = user_data;
  guint        done;
  guint        total;

  graft_layout_request_get_progress (self->request, &done, &total);
  if (total > 0)
    set_fraction (self, 0.5 * done / total);
  return G_SOURCE_CONTINUE;
}

/**
 * graft_export_run_async:
 * @self: an export, not yet run
 * @callback: called on the main loop when the file is written, or not
 * @user_data: its data
 *
 * Writes the file on a worker thread; :fraction follows the work.
 */
void
graft_export_run_async (GraftExport        *self,
                        GAsyncReadyCallback callback,
                        gpointer            user_data)
{
  g_return_if_fail (GRAFT_IS_EXPORT (self));
  g_return_if_fail (!self->running && self->task == NULL);

  self->task = g_task_new (self, self->cancellable, callback, user_data);
  g_task_set_source_tag (self->task, graft_export_run_async);
  self->running = TRUE;
  if (self->path == NULL)
    {
      g_autoptr (GTask) task = g_steal_pointer (&self->task);

      self->running = FALSE;
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               "only local files can be written");
      return;
    }
  if (self->refusal != NULL)
    {
      g_autoptr (GTask) task = g_steal_pointer (&self->task);

      self->running = FALSE;
      g_task_return_error (task, g_error_copy (self->refusal));
      return;
    }
  if (self->text != NULL)
    {
      g_autoptr (GTask) worker = worker_new (self, written_cb, self);

      g_task_run_in_thread (worker, text_thread_cb);
    }
  else if (self->request != NULL)
    {
      /* The task holds the request while it runs; the export keeps it
       * for the progress and frees it last. */
      g_autoptr (GTask) worker = worker_new (self, laid_out_cb, self->request);

      self->poll_id = g_timeout_add (100, poll_layout_cb, self);
      g_task_run_in_thread (worker, layout_thread_cb);
    }
  else
    start_drawing (self);
}

/**
 * graft_export_run_finish:
 * @self: an export
 * @result: the result given to the callback
 * @error: return location for an error; %G_IO_ERROR_CANCELLED when
 *   cancelled
 *
 * Returns: whether the file is written
 */
gboolean
graft_export_run_finish (GraftExport  *self,
                         GAsyncResult *result,
                         GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
