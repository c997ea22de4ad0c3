/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-context-window.c: "Show Match in Context".  In a graph of tens of
 * thousands of nodes a match is a few boxes lost in a long drawing; this
 * window lays out only the match and the nodes within a chosen number of
 * edges of it (inputs and users alike, in both directions), with the
 * match highlighted as on the main canvas.  The neighbourhood stops
 * growing at MAX_SHOWN nodes, so a match next to a hub stays readable;
 * a picture too big to read whole shows the match zoomed in.
 * It shows the document as it was when opened or when the number of hops
 * last changed.
 *
 * It never stops the main loop for long: the neighbourhood is walked from
 * the match (its size, not the graph's), then a few thousand nodes per
 * main-loop turn say which are shown and go into the layout request
 * (GraftLayoutRequestBuilder), Graphviz runs on a worker
 * (graft_layout_runner_run_in_thread(); its task has no source object),
 * and the layout is shown once its match marks are made, a thousand
 * matched nodes a step (_graft_document_layout_marks_step()).
 * A spinner says it is at work when that takes more than a moment.  A
 * change of the graph before the picture is there starts the work again
 * on the new graph (once its matches are found), so what it shows is
 * never of a graph that is gone; closing the window cancels the work.
 */
#include "config.h"

#include "graft-context-window.h"
#include "graft-canvas.h"
#include "graft-document-private.h"
#include "graft-layout-runner.h"
#include "graft-toplevel.h"
#include "graft-turns.h"
#include "graft-view.h"

#define MAX_SHOWN    400
#define DEFAULT_HOPS 2
#define MAX_HOPS     8

/* Each turn of the work takes about this long at most, in steps of
 * STEP_NODES nodes. */
#define TURN_USEC  5000
#define STEP_NODES 256
/* Matched nodes looked up in the layout between looks at the clock. */
#define STEP_NAMES 1024
/* The spinner shows once the work takes longer than this. */
#define BUSY_DELAY_MS 200

/* For tests: one step of this many nodes per turn, if not 0. */
static guint test_step_nodes;

/**
 * _graft_context_window_set_step:
 * @n_nodes: nodes (and matched nodes looked up for the marks) per
 *   main-loop turn, or 0 for the default (as many steps as fit in a few
 *   milliseconds)
 *
 * For tests: a small graph's picture made in several turns.
 */
void
_graft_context_window_set_step (guint n_nodes)
{
  test_step_nodes = n_nodes;
}

/* Whether a turn that began at @start may do another step. */
static gboolean
turn_left (gint64 start,
           guint  steps)
{
  if (test_step_nodes > 0)
    return steps == 0;
  return g_get_monotonic_time () - start < TURN_USEC;
}

struct _GraftContextWindow
{
  AdwWindow parent_instance;

  /* Owned */
  GraftDocument             *document;
  GCancellable              *cancellable; /* of the work in progress, or NULL */
  GHashTable                *chosen;      /* GraftNode: shown, while they are listed */
  gboolean                  *shown;       /* per graph node, while the request is made */
  GraftLayoutRequestBuilder *builder;     /* the request, over turns, or NULL */
  GraftLayout               *held;        /* laid out, shown once its marks are made */
  GraftLayoutMarks          *marks;       /* @held's, over turns */

  /* Borrowed: children */
  GraftCanvas    *canvas;
  AdwWindowTitle *title;
  GtkSpinButton  *hops;
  GtkWidget      *busy;

  GraftNode *cursor;   /* the next node to list, while listing */
  guint      position; /* its place in the graph */
  guint      revision; /* of the graph the work is for */
  guint      turn;     /* the work's turn (graft-turns.c), or 0 */
  guint      busy_timeout;
  guint      match;
  guint      n_shown;
  guint      shown_hops;
  gboolean   limited;
  gboolean   ready;
};

G_DEFINE_FINAL_TYPE (GraftContextWindow, graft_context_window, ADW_TYPE_WINDOW)

/**
 * _graft_context_window_get_marking:
 * @self: a context window
 *
 * For tests: whether the picture is laid out and its match marks are
 * being made (it is not shown yet).
 */
gboolean
_graft_context_window_get_marking (GraftContextWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_CONTEXT_WINDOW (self), FALSE);
  return self->marks != NULL;
}

/* Drops the work in progress. */
static void
stop (GraftContextWindow *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->turn != 0)
    graft_turns_remove (self->turn);
  self->turn = 0;
  g_clear_handle_id (&self->busy_timeout, g_source_remove);
  g_clear_pointer (&self->builder, graft_layout_request_builder_free);
  g_clear_pointer (&self->held, graft_layout_free);
  g_clear_pointer (&self->marks, _graft_document_layout_marks_free);
  g_clear_pointer (&self->shown, g_free);
  g_clear_pointer (&self->chosen, g_hash_table_unref);
  self->cursor = NULL;
}

static void
graft_context_window_dispose (GObject *object)
{
  GraftContextWindow *self = GRAFT_CONTEXT_WINDOW (object);

  stop (self);
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (graft_context_window_parent_class)->dispose (object);
}

static void
graft_context_window_class_init (GraftContextWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  /* No window is left on its surface once closed (graft-toplevel.c). */
  graft_toplevel_init ();

  G_OBJECT_CLASS (klass)->dispose = graft_context_window_dispose;
  /* A window to glance at: Escape and Ctrl+W close it. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close",
                                       NULL);
}

static void
graft_context_window_init (GraftContextWindow *self)
{
}

/* The nodes within @hops edges of the match, breadth first, whole rings
 * at a time while they fit under MAX_SHOWN: from the match's own nodes,
 * so it costs the neighbourhood, not the graph.  Returns the set. */
static GHashTable *
mark_neighbourhood (GraftDocument *document,
                    guint          match,
                    guint          hops,
                    gboolean      *out_limited)
{
  GHashTable *shown = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) queued = g_hash_table_new (NULL, NULL);
  g_autoptr (GPtrArray) ring = g_ptr_array_new ();
  g_autoptr (GPtrArray) next = g_ptr_array_new ();
  g_autoptr (GPtrArray) seeds = graft_match_dup_nodes (graft_document_get_match (document, match));

  *out_limited = FALSE;
  /* The nodes the document counts as this match's (where matches overlap,
   * a node is the first one's). */
  for (guint k = 0; k < seeds->len; k++)
    {
      GraftNode *n = seeds->pdata[k];

      if (graft_document_get_match_of_node (document, graft_node_get_name (n)) == (gint) match &&
          g_hash_table_add (shown, n))
        g_ptr_array_add (ring, n);
    }
  for (guint h = 0; h < hops && ring->len > 0; h++)
    {
      g_ptr_array_set_size (next, 0);
      for (guint k = 0; k < ring->len; k++)
        {
          GraftNode *n = ring->pdata[k];
          g_autoptr (GPtrArray) neighbours = graft_node_dup_input_nodes (n);

          for (guint u = 0; u < graft_node_get_n_users (n); u++)
            g_ptr_array_add (neighbours, graft_node_get_user (n, u));
          for (guint a = 0; a < neighbours->len; a++)
            if (!g_hash_table_contains (shown, neighbours->pdata[a]) &&
                g_hash_table_add (queued, neighbours->pdata[a]))
              g_ptr_array_add (next, neighbours->pdata[a]);
        }
      if (g_hash_table_size (shown) + next->len > MAX_SHOWN)
        {
          *out_limited = TRUE;
          break;
        }
      for (guint k = 0; k < next->len; k++)
        g_hash_table_add (shown, next->pdata[k]);
      g_ptr_array_set_size (ring, 0);
      g_ptr_array_extend (ring, next, NULL, NULL);
    }
  return shown;
}

static void
set_busy (GraftContextWindow *self,
          gboolean            busy)
{
  g_clear_handle_id (&self->busy_timeout, g_source_remove);
  gtk_widget_set_visible (self->busy, busy);
}

static gboolean
show_busy_cb (gpointer user_data)
{
  GraftContextWindow *self = user_data;

  self->busy_timeout = 0;
  gtk_widget_set_visible (self->busy, TRUE);
  return G_SOURCE_REMOVE;
}

/* A neighbourhood too big to read whole (up to MAX_SHOWN nodes, fitted
 * at a few per cent): the match is shown readable, as the main window
 * shows a chosen match. */
static void
show_match (GraftContextWindow *self,
            GraftLayout        *layout)
{
  const gint *marks = graft_canvas_get_marks (self->canvas);

  for (guint i = 0; marks != NULL && i < graft_layout_get_n_graph_nodes (layout); i++)
    if (marks[i] == (gint) self->match)
      {
        graft_canvas_show_node (self->canvas, graft_layout_get_node_name (layout, i));
        return;
      }
}

/* The held layout, with its marks made, to the canvas. */
static void
show_held (GraftContextWindow *self)
{
  GraftLayout     *layout = g_steal_pointer (&self->held);
  g_autofree char *title = g_strdup_printf ("Match %u in Context", self->match + 1);
  g_autofree char *subtitle =
      g_strdup_printf (self->limited ? "%u nodes (the next ring would pass %u)"
                                     : "%u nodes within %u edges",
                       self->n_shown, self->limited ? MAX_SHOWN : self->shown_hops);

  set_busy (self, FALSE);
  self->ready = TRUE;
  adw_window_title_set_title (self->title, title);
  adw_window_title_set_subtitle (self->title, subtitle);
  graft_canvas_set_layout (self->canvas, layout, FALSE);
  graft_canvas_set_marks (self->canvas,
                          _graft_document_layout_marks_finish (g_steal_pointer (&self->marks)));
  gtk_window_set_title (GTK_WINDOW (self), title);
  if (!graft_canvas_get_readable (self->canvas))
    show_match (self, layout);
}

/* A turn of the held layout's marks: the matched nodes looked up in it
 * (at a million nodes, a hundred thousand of them took 15-20 ms in one). */
static gboolean
marks_cb (gpointer user_data)
{
  GraftContextWindow *self = user_data;
  gint64              start = g_get_monotonic_time ();
  guint               size = test_step_nodes > 0 ? test_step_nodes : STEP_NAMES;

  for (guint steps = 0; turn_left (start, steps); steps++)
    if (_graft_document_layout_marks_step (self->marks, size))
      {
        self->turn = 0;
        show_held (self);
        return G_SOURCE_REMOVE;
      }
  return G_SOURCE_CONTINUE;
}

/* Called on the main thread.  The window is not referenced: its dispose
 * cancels the work first, and then the window is not read. */
static void
layout_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GTask *task = G_TASK (result);
  g_autoptr (GError) error = NULL;
  GraftLayout        *layout = g_task_propagate_pointer (task, &error);
  GraftContextWindow *self = user_data;

  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      g_clear_pointer (&layout, graft_layout_free);
      return;
    }
  g_clear_object (&self->cancellable);
  if (layout == NULL)
    {
      g_autofree char *title = g_strdup_printf ("Match %u in Context", self->match + 1);

      set_busy (self, FALSE);
      self->ready = TRUE;
      adw_window_title_set_title (self->title, title);
      adw_window_title_set_subtitle (self->title, error->message);
      return;
    }
  /* Shown with its marks, made first over turns. */
  self->held = layout;
  self->marks = _graft_document_layout_marks_new (self->document, layout);
  self->turn = graft_turns_add (marks_cb, self, NULL);
}

/* The request is made: Graphviz lays it out on a worker. */
static void
start_layout (GraftContextWindow *self)
{
  GraftLayoutRequest *request =
      graft_layout_request_builder_finish (g_steal_pointer (&self->builder));
  g_autoptr (GTask) task = NULL;

  g_clear_pointer (&self->shown, g_free);
  graft_layout_request_set_cancellable (request, self->cancellable);
  task = g_task_new (NULL, self->cancellable, layout_done_cb, self);
  g_task_set_source_tag (task, start_layout);
  g_task_set_task_data (task, request, (GDestroyNotify) graft_layout_request_free);
  graft_layout_runner_run_in_thread (task);
}

/* A turn of the work: listing which nodes are shown, then the request. */
static gboolean
step_cb (gpointer user_data)
{
  GraftContextWindow *self = user_data;
  gint64              start = g_get_monotonic_time ();
  guint               size = test_step_nodes > 0 ? test_step_nodes : STEP_NODES;
  guint               steps = 0;

  for (; self->chosen != NULL && turn_left (start, steps); steps++)
    {
      for (guint k = 0; k < size && self->cursor != NULL; k++)
        {
          self->shown[self->position++] = g_hash_table_contains (self->chosen, self->cursor);
          self->cursor = graft_node_get_next (self->cursor);
        }
      if (self->cursor == NULL)
        {
          g_clear_pointer (&self->chosen, g_hash_table_unref);
          self->builder = graft_layout_request_builder_new (
              graft_document_get_graph (self->document), NULL, NULL, self->shown);
        }
    }
  for (; self->builder != NULL && turn_left (start, steps); steps++)
    if (graft_layout_request_builder_step (self->builder, size))
      {
        self->turn = 0;
        start_layout (self);
        return G_SOURCE_REMOVE;
      }
  return G_SOURCE_CONTINUE;
}

static gboolean wait_matches_cb (gpointer user_data);

/* Starts again from the document as it is, once its matches are found
 * (asking for them now would find them at once). */
static void
refresh (GraftContextWindow *self)
{
  GraftGraph      *graph = graft_document_get_graph (self->document);
  g_autofree char *title = g_strdup_printf ("Match %u in Context", self->match + 1);
  g_autoptr (GHashTable) chosen = NULL;

  stop (self);
  self->ready = FALSE;
  if (graft_document_get_matches_pending (self->document))
    {
      if (!gtk_widget_get_visible (self->busy))
        self->busy_timeout = g_timeout_add (BUSY_DELAY_MS, show_busy_cb, self);
      self->turn = graft_turns_add (wait_matches_cb, self, NULL);
      return;
    }
  self->shown_hops = (guint) gtk_spin_button_get_value_as_int (self->hops);
  chosen = graph != NULL && self->match < graft_document_get_n_matches (self->document)
               ? mark_neighbourhood (self->document, self->match, self->shown_hops,
                                     &self->limited)
               : NULL;
  self->n_shown = chosen != NULL ? g_hash_table_size (chosen) : 0;
  if (self->n_shown == 0)
    {
      adw_window_title_set_title (self->title, title);
      adw_window_title_set_subtitle (self->title, "This match is gone: the graph has changed");
      graft_canvas_set_layout (self->canvas, NULL, FALSE);
      set_busy (self, FALSE);
      self->ready = TRUE;
      return;
    }
  self->revision = graft_document_get_revision (self->document);
  self->chosen = g_steal_pointer (&chosen);
  self->shown = g_new0 (gboolean, MAX (graft_graph_get_n_nodes (graph), 1));
  self->cursor = graft_graph_get_first (graph);
  self->position = 0;
  self->cancellable = g_cancellable_new ();
  if (!gtk_widget_get_visible (self->busy))
    self->busy_timeout = g_timeout_add (BUSY_DELAY_MS, show_busy_cb, self);
  self->turn = graft_turns_add (step_cb, self, NULL);
}

/* Waits for the matches of a changed graph. */
static gboolean
wait_matches_cb (gpointer user_data)
{
  GraftContextWindow *self = user_data;

  if (graft_document_get_matches_pending (self->document))
    return G_SOURCE_CONTINUE;
  self->turn = 0;
  refresh (self);
  return G_SOURCE_REMOVE;
}

/* The graph or its matches changed: work in progress starts again. */
static void
document_changed_cb (GraftDocument      *document,
                     GraftContextWindow *self)
{
  if (!self->ready)
    refresh (self);
}

static void
hops_changed_cb (GtkSpinButton      *button,
                 GraftContextWindow *self)
{
  refresh (self);
}

/**
 * graft_context_window_new:
 * @parent: (nullable): the window it belongs to
 * @document: the document whose graph and matches to show
 * @match: a match of @document
 *
 * Returns: (transfer full): a window that shows match @match and the
 *   nodes within two edges of it once they are laid out
 */
GtkWidget *
graft_context_window_new (GtkWindow     *parent,
                          GraftDocument *document,
                          guint          match)
{
  GraftContextWindow *self = g_object_new (GRAFT_TYPE_CONTEXT_WINDOW,
                                           "transient-for", parent,
                                           "default-width", 900,
                                           "default-height", 700,
                                           NULL);
  GtkWidget          *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget          *header = adw_header_bar_new ();
  GtkWidget          *hops_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget          *label = gtk_label_new_with_mnemonic ("_Hops");
  GtkWidget          *spinner = gtk_spinner_new ();
  GtkWidget          *overlay;

  self->document = g_object_ref (document);
  self->match = match;
  self->title = ADW_WINDOW_TITLE (adw_window_title_new ("", ""));
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), GTK_WIDGET (self->title));
  self->hops = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (1, MAX_HOPS, 1));
  gtk_spin_button_set_value (self->hops, DEFAULT_HOPS);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->hops),
                               "How many edges away from the match to show");
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (self->hops));
  gtk_box_append (GTK_BOX (hops_box), label);
  gtk_box_append (GTK_BOX (hops_box), GTK_WIDGET (self->hops));
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), hops_box);
  /* A graph to walk from the keyboard, not a picture (graft-canvas-nav.c). */
  self->canvas = GRAFT_CANVAS (
      g_object_new (GRAFT_TYPE_CANVAS, "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP, NULL));
  /* This window folds nothing: no controls that would do nothing. */
  graft_canvas_set_fixed (self->canvas, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->canvas), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->canvas), TRUE);
  gtk_box_append (GTK_BOX (box), header);
  overlay = gtk_overlay_new ();
  gtk_overlay_set_child (GTK_OVERLAY (overlay), GTK_WIDGET (self->canvas));
  /* The spinner on an OSD backdrop, as the split view's bars. */
  self->busy = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_spinner_start (GTK_SPINNER (spinner));
  gtk_box_append (GTK_BOX (self->busy), spinner);
  gtk_box_append (GTK_BOX (self->busy), gtk_label_new ("Laying out…"));
  gtk_widget_add_css_class (self->busy, "osd");
  gtk_widget_add_css_class (self->busy, "toolbar");
  gtk_widget_set_halign (self->busy, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (self->busy, GTK_ALIGN_CENTER);
  gtk_widget_set_can_target (self->busy, FALSE);
  gtk_widget_set_visible (self->busy, FALSE);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), self->busy);
  gtk_box_append (GTK_BOX (box), overlay);
  adw_window_set_content (ADW_WINDOW (self), box);
  refresh (self);
  g_signal_connect (self->hops, "value-changed", G_CALLBACK (hops_changed_cb), self);
  g_signal_connect (document, "graph-changed", G_CALLBACK (document_changed_cb), self);
  g_signal_connect (document, "matches-changed", G_CALLBACK (document_changed_cb), self);
  return GTK_WIDGET (self);
}

/**
 * graft_context_window_get_n_shown:
 * @self: a context window
 *
 * Returns: how many graph nodes it shows
 */
guint
graft_context_window_get_n_shown (GraftContextWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_CONTEXT_WINDOW (self), 0);
  return self->n_shown;
}

/**
 * graft_context_window_set_hops:
 * @self: a context window
 * @hops: how many edges around the match to show
 */
void
graft_context_window_set_hops (GraftContextWindow *self,
                               guint               hops)
{
  g_return_if_fail (GRAFT_IS_CONTEXT_WINDOW (self));
  /* value-changed refreshes, when the value changes. */
  if ((guint) gtk_spin_button_get_value_as_int (self->hops) == hops)
    refresh (self);
  else
    gtk_spin_button_set_value (self->hops, hops);
}

/**
 * graft_context_window_get_ready:
 * @self: a context window
 *
 * Returns: whether it shows the picture of its match (or why there is
 *   none), not at work on it
 */
gboolean
graft_context_window_get_ready (GraftContextWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_CONTEXT_WINDOW (self), FALSE);
  return self->ready;
}

/**
 * graft_context_window_get_busy:
 * @self: a context window
 *
 * Returns: whether it shows that it is at work
 */
gboolean
graft_context_window_get_busy (GraftContextWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_CONTEXT_WINDOW (self), FALSE);
  return gtk_widget_get_visible (self->busy);
}

/**
 * graft_context_window_get_canvas:
 * @self: a context window
 *
 * Returns: (transfer none): where it draws
 */
GraftCanvas *
graft_context_window_get_canvas (GraftContextWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_CONTEXT_WINDOW (self), NULL);
  return self->canvas;
}
