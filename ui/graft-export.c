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
 * A text of the document (its code as Save writes it, the listing, JSON,
 * DOT, the match list) is made on the main loop by steps instead, over
 * turns of a few milliseconds (at a million nodes each took a few hundred
 * milliseconds to seconds at once): the core's jobs for the listing, JSON,
 * DOT and the match list (graft_listing_job_new() and the like), a few
 * hundred nodes a step; for the code, the document's own code by steps
 * (graft_document_code_async()), copied a few megabytes a turn, then made
 * a file on the worker (graft_document_code_to_file_text()).  The text is
 * of the graph as it was when the making began: a change of the graph (or
 * of the matches, for the match list and DOT's marks) while it is made
 * cancels the export (graft_export_get_graph_changed()); a Replace All, a
 * run or a move by steps under way when the export starts is waited for,
 * and so is a graph held elsewhere in the history for a comparison.  A
 * graph changed for a moment and put back (_graft_document_code_drop())
 * makes the job begin again, as the nodes it held may have moved.
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

/* A text is made over main-loop turns of about TEXT_TURN_USEC
 * microseconds, TEXT_STEP_NODES nodes (or matches) a step between looks at
 * the clock, and the code copied TEXT_CODE_CHUNK bytes a step (8 MB at
 * once, the fresh pages faulted in, took 9-12 ms of a 16 ms turn at a
 * million nodes). */
#define TEXT_TURN_USEC  4000
#define TEXT_STEP_NODES 256
#define TEXT_CODE_CHUNK (1 << 20)

/* For tests: one step of this many names (or nodes, or matches, or bytes
 * of code) per turn, if not 0. */
static guint test_marks_step;

/**
 * _graft_export_set_marks_step:
 * @n_names: matched or added nodes looked up per main-loop turn, or 0
 *   for the default (as many steps as fit in a few milliseconds); also the
 *   nodes, matches or bytes of code a text export takes per turn
 *
 * For tests: a small graph's marks, or a text, made in several turns.
 */
void
_graft_export_set_marks_step (guint n_names)
{
  test_marks_step = n_names;
}

/* What a text made by steps is. */
typedef enum {
  TEXT_NONE, /* given whole, or a picture */
  TEXT_CODE,
  TEXT_LISTING,
  TEXT_JSON,
  TEXT_DOT,
  TEXT_MATCH_LIST,
} TextKind;

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
  guint8             *added;
  gboolean           *dropped;
  GCancellable       *cancellable;
  GTask              *task; /* the caller's, while running */

  /* A text made by steps (TEXT_NONE otherwise) */
  gpointer       text_job;      /* the core's job under way, or NULL */
  GDestroyNotify text_job_free; /* @text_job's */
  GPtrArray     *matches;       /* the array; the document's matches Borrowed, while current */
  GHashTable    *match_table;   /* DOT's marks: graph node to match + 1, or NULL */
  GraftCodeCopy  code;          /* the document's code copied so far */
  char          *made;          /* the text made (the code, to be made a file) */
  GPtrArray     *made_pieces;   /* or the text in pieces (GBytes), joined on the worker */
  TextKind       text_kind;
  guint          text_turn;  /* the turn making the text (graft-turns.c), or 0 */
  guint          match_next; /* the next match put in @match_table */
  guint          units_done; /* nodes, edges' nodes and matches, for the progress */
  guint          units;
  guint          begun_revision; /* the document's when the text was begun */
  guint          begun_serial;   /* its matches_serial, likewise */
  guint          begun_drops;    /* its code_drops, likewise */
  gboolean       begun;
  gboolean       code_waiting;  /* for graft_document_code_async() */
  gboolean       graph_changed; /* cancelled by a change of the graph */

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
  if (self->text_turn != 0)
    graft_turns_remove (self->text_turn);
  self->text_turn = 0;
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
  if (self->text_job != NULL)
    self->text_job_free (self->text_job);
  g_clear_pointer (&self->matches, g_ptr_array_unref);
  g_clear_pointer (&self->match_table, g_hash_table_unref);
  _graft_code_copy_clear (&self->code);
  g_free (self->made);
  g_clear_pointer (&self->made_pieces, g_ptr_array_unref);
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
 * graft_export_new_graph_text:
 * @document: the document whose graph is written
 * @file: where to write
 * @format: %GRAFT_FORMAT_CODE (the graph as a Python file, as Save
 *   writes it: graft_document_dup_file_text()), %GRAFT_FORMAT_GRAPH (the
 *   listing), %GRAFT_FORMAT_JSON or %GRAFT_FORMAT_DOT
 * @highlights: DOT: mark the document's matches
 *
 * The text is made by steps on the main loop when the export runs, of
 * the graph as it is then; a change of the graph meanwhile cancels the
 * export.
 *
 * Returns: (transfer full): an export of @document's graph as text
 */
GraftExport *
graft_export_new_graph_text (GraftDocument *document,
                             GFile         *file,
                             GraftFormat    format,
                             gboolean       highlights)
{
  GraftExport *self;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (format == GRAFT_FORMAT_CODE || format == GRAFT_FORMAT_GRAPH ||
                            format == GRAFT_FORMAT_JSON || format == GRAFT_FORMAT_DOT,
                        NULL);

  self = export_new (file, format);
  self->document = g_object_ref (document);
  self->highlights = highlights && format == GRAFT_FORMAT_DOT;
  self->text_kind = format == GRAFT_FORMAT_CODE    ? TEXT_CODE
                    : format == GRAFT_FORMAT_GRAPH ? TEXT_LISTING
                    : format == GRAFT_FORMAT_JSON  ? TEXT_JSON
                                                   : TEXT_DOT;
  return self;
}

/**
 * graft_export_new_match_list:
 * @document: the document whose matches are written
 * @file: where to write
 *
 * The matches as `graft match --json` prints them (with its final
 * newline), made by steps as graft_export_new_graph_text()'s text is; a
 * change of the graph or of the matches meanwhile cancels the export.
 *
 * Returns: (transfer full): an export of @document's matches
 */
GraftExport *
graft_export_new_match_list (GraftDocument *document,
                             GFile         *file)
{
  GraftExport *self;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  self = export_new (file, GRAFT_FORMAT_JSON);
  self->document = g_object_ref (document);
  self->text_kind = TEXT_MATCH_LIST;
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
 * graft_export_get_graph_changed:
 * @self: an export
 *
 * Returns: whether the export was cancelled because the graph (or the
 *   matches it writes) changed while its text was made
 */
gboolean
graft_export_get_graph_changed (GraftExport *self)
{
  g_return_val_if_fail (GRAFT_IS_EXPORT (self), FALSE);
  return self->graph_changed;
}

/**
 * _graft_export_get_making:
 * @self: an export
 *
 * For tests: whether the export is making its text over turns (the
 * writing has not started).
 */
gboolean
_graft_export_get_making (GraftExport *self)
{
  g_return_val_if_fail (GRAFT_IS_EXPORT (self), FALSE);
  return self->text_turn != 0;
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
  const char *data;

  /* A text made by steps: the code is made a file here, and the length
   * is the text's up to a NUL, as a text given whole has it
   * (graft_export_new_text()). */
  if (self->text == NULL)
    {
      char *text;

      if (self->text_kind == TEXT_CODE)
        {
          g_autofree char *code = _graft_code_copy_join (&self->code);

          text = graft_document_code_to_file_text (code);
        }
      else if (self->made_pieces != NULL)
        {
          /* The jobs' text in pieces: one string grown by doubling copied
           * all it held in a turn (8-16 MB at a million nodes). */
          text = graft_output_join_pieces (self->made_pieces, NULL);
          g_clear_pointer (&self->made_pieces, g_ptr_array_unref);
        }
      else
        text = g_steal_pointer (&self->made);

      g_clear_pointer (&self->made, g_free);
      self->text = g_bytes_new_take (text, strlen (text));
    }
  data = g_bytes_get_data (self->text, &length);

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
  /* Written: let go here, not on the main loop, where unmapping the
   * hundreds of megabytes of a text at a million nodes took a turn of
   * 0.3-1 s. */
  g_clear_pointer (&self->text, g_bytes_unref);
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
    self->added = graft_render_bits_new (n);
  while (self->added_next < added_names->len)
    {
      guint end = self->added_next + MIN (size, added_names->len - self->added_next);

      for (; self->added_next < end; self->added_next++)
        {
          gint i = graft_layout_find_graph_node (self->layout,
                                                 added_names->pdata[self->added_next]);

          if (i >= 0)
            graft_render_bits_set (self->added, (guint) i);
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

/* The export ends with @error, on the main loop, before its worker. */
static void
fail (GraftExport *self,
      GError      *error)
{
  g_autoptr (GTask) task = g_steal_pointer (&self->task);

  self->running = FALSE;
  g_task_return_error (task, error);
}

static void
set_text_job (GraftExport   *self,
              gpointer       job,
              GDestroyNotify free_func)
{
  if (self->text_job != NULL)
    self->text_job_free (self->text_job);
  self->text_job = job;
  self->text_job_free = free_func;
}

/* Whether the text uses the document's matches. */
static gboolean
text_uses_matches (GraftExport *self)
{
  return self->text_kind == TEXT_MATCH_LIST || (self->text_kind == TEXT_DOT && self->highlights);
}

static void
code_ready_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr (GraftExport) self = user_data;

  /* A cancelled wait is the turn's to report; the code is read there. */
  graft_document_code_finish (NULL, result, NULL);
  self->code_waiting = FALSE;
}

/* (Again) from the start, the graph as it is now. */
static void
begin_text (GraftExport *self)
{
  GraftDocument *document = self->document;
  GraftGraph    *graph = graft_document_get_graph (document);
  guint          n_nodes = graft_graph_get_n_nodes (graph);

  if (!self->begun && text_uses_matches (self))
    {
      /* The matches as the export was asked for, found now if they are
       * not yet, as before. */
      guint n = graft_document_get_n_matches (document);

      self->matches = g_ptr_array_sized_new (n);
      for (guint i = 0; i < n; i++)
        g_ptr_array_add (self->matches, (gpointer) graft_document_get_match (document, i));
    }
  if (!self->begun)
    {
      self->begun = TRUE;
      self->begun_revision = document->revision;
      self->begun_serial = document->matches_serial;
    }
  self->begun_drops = document->code_drops;
  self->units_done = 0;
  self->match_next = 0;
  g_clear_pointer (&self->match_table, g_hash_table_unref);
  set_text_job (self, NULL, NULL);
  switch (self->text_kind)
    {
    case TEXT_CODE:
      self->units = 1;
      _graft_code_copy_clear (&self->code);
      if (graft_document_peek_code (document) == NULL && !self->code_waiting)
        {
          self->code_waiting = TRUE;
          graft_document_code_async (document, self->cancellable, code_ready_cb,
                                     g_object_ref (self));
        }
      break;
    case TEXT_LISTING:
      self->units = n_nodes;
      set_text_job (self, graft_listing_job_new (graph), (GDestroyNotify) graft_listing_job_free);
      break;
    case TEXT_JSON:
      self->units = n_nodes;
      set_text_job (self, graft_json_job_new (graph), (GDestroyNotify) graft_json_job_free);
      break;
    case TEXT_DOT:
      self->units = 2 * n_nodes + (self->highlights ? self->matches->len : 0);
      if (self->highlights)
        self->match_table = g_hash_table_new (NULL, NULL);
      break;
    case TEXT_MATCH_LIST:
      self->units = self->matches->len;
      set_text_job (self, graft_matches_json_job_new (self->matches),
                    (GDestroyNotify) graft_matches_json_job_free);
      break;
    case TEXT_NONE:
    default:
      g_assert_not_reached ();
    }
}

/* One step of the text's making: whether it is made. */
static gboolean
text_step (GraftExport *self,
           guint        size)
{
  GraftDocument *document = self->document;

  switch (self->text_kind)
    {
    case TEXT_CODE:
      {
        const char *code = graft_document_peek_code (document);
        gsize       chunk = test_marks_step > 0 ? test_marks_step : TEXT_CODE_CHUNK;

        if (self->code_waiting)
          return FALSE;
        if (code == NULL)
          {
            /* Dropped since: made again. */
            begin_text (self);
            return FALSE;
          }
        /* Joined on the worker. */
        return _graft_code_copy_step (&self->code, code, chunk);
      }
    case TEXT_LISTING:
      self->units_done += size;
      if (!graft_listing_job_step (self->text_job, size))
        return FALSE;
      self->made_pieces = graft_listing_job_finish_pieces (g_steal_pointer (&self->text_job));
      return TRUE;
    case TEXT_JSON:
      self->units_done += size;
      if (!graft_json_job_step (self->text_job, size))
        return FALSE;
      self->made_pieces = graft_json_job_finish_pieces (g_steal_pointer (&self->text_job));
      return TRUE;
    case TEXT_DOT:
      if (self->highlights && self->match_next < self->matches->len)
        {
          guint end = MIN (self->matches->len, self->match_next + size);

          /* A node's first match marks it, as graft_matches_dup_node_marks()
           * does. */
          for (; self->match_next < end; self->match_next++)
            {
              g_autoptr (GPtrArray) nodes =
                  graft_match_dup_nodes (self->matches->pdata[self->match_next]);

              for (guint k = 0; k < nodes->len; k++)
                if (!g_hash_table_contains (self->match_table, nodes->pdata[k]))
                  g_hash_table_insert (self->match_table, nodes->pdata[k],
                                       GUINT_TO_POINTER (self->match_next + 1));
            }
          self->units_done += size;
          return FALSE;
        }
      if (self->text_job == NULL)
        {
          GraftDotOptions options;

          graft_dot_options_init (&options);
          options.node_matches = self->match_table;
          set_text_job (self, graft_dot_job_new (graft_document_get_graph (document), &options),
                        (GDestroyNotify) graft_dot_job_free);
        }
      self->units_done += size;
      if (!graft_dot_job_step (self->text_job, size))
        return FALSE;
      self->made = graft_dot_job_finish (g_steal_pointer (&self->text_job));
      return TRUE;
    case TEXT_MATCH_LIST:
      self->units_done += size;
      if (!graft_matches_json_job_step (self->text_job, size))
        return FALSE;
      /* The CLI writes its output with one final newline (cli.md); a
       * g_strconcat() here copied the whole text in a turn. */
      self->made_pieces =
          graft_matches_json_job_finish_pieces (g_steal_pointer (&self->text_job), "\n");
      return TRUE;
    case TEXT_NONE:
    default:
      g_assert_not_reached ();
    }
  return FALSE;
}

static void
start_text_worker (GraftExport *self)
{
  g_autoptr (GTask) worker = worker_new (self, written_cb, self);

  set_fraction (self, 0.5);
  self->base = 0.5;
  g_task_run_in_thread (worker, text_thread_cb);
}

/* Whether work by steps holds @document's graph, or it is elsewhere in
 * the history for a comparison. */
static gboolean
document_busy (GraftDocument *document)
{
  return document->away_back != NULL || document->rewriting != NULL ||
         document->running != NULL || document->moving;
}

static gboolean
text_turn_cb (gpointer user_data)
{
  GraftExport   *self = user_data;
  GraftDocument *document = self->document;
  GError        *error = NULL;
  gint64         start = g_get_monotonic_time ();
  guint          size = test_marks_step > 0 ? test_marks_step : TEXT_STEP_NODES;
  gboolean       busy;

  if (g_cancellable_set_error_if_cancelled (self->cancellable, &error))
    {
      self->text_turn = 0;
      fail (self, error);
      return G_SOURCE_REMOVE;
    }
  /* The graph held elsewhere for a comparison comes back by itself. */
  if (document->away_back != NULL)
    return G_SOURCE_CONTINUE;
  busy = document->rewriting != NULL || document->running != NULL || document->moving;
  if (!self->begun && busy)
    return G_SOURCE_CONTINUE;
  if (self->begun &&
      (busy || document->revision != self->begun_revision ||
       (text_uses_matches (self) && document->matches_serial != self->begun_serial)))
    {
      self->text_turn = 0;
      self->graph_changed = TRUE;
      g_cancellable_cancel (self->cancellable);
      fail (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                       "the graph changed while it was written"));
      return G_SOURCE_REMOVE;
    }
  if (!self->begun || document->code_drops != self->begun_drops)
    begin_text (self);
  do
    {
      if (text_step (self, size))
        {
          self->text_turn = 0;
          start_text_worker (self);
          return G_SOURCE_REMOVE;
        }
    }
  while (test_marks_step == 0 && !self->code_waiting &&
         g_get_monotonic_time () - start < TEXT_TURN_USEC);
  if (self->units > 0)
    set_fraction (self, 0.5 * MIN (self->units_done, self->units) / self->units);
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
  else if (self->text_kind != TEXT_NONE)
    {
      /* Of the graph as it is now, unless work by steps holds it: then
       * as that work leaves it. */
      if (!document_busy (self->document))
        begin_text (self);
      self->text_turn = graft_turns_add (text_turn_cb, self, NULL);
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
