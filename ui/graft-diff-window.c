/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-diff-window.c: "Show Changes": the code before the last change on
 * the left and after it on the right, lines aligned (graft_diff_lines()),
 * removed lines tinted red, added ones green, blank filler where one side
 * has nothing; both sides scroll together.  Built in code: two read-only
 * source views in a paned, under a header bar that says what changed.
 *
 * Opened on a document (graft_diff_window_new_for_document()) it never
 * stops the main loop for long: the document makes the two texts in steps
 * (graft-document-changes.c), a worker thread splits and aligns them into
 * the two sides' texts and tints, and the sides go into their buffers a
 * few thousand lines per main-loop turn, their tints after them, one tag
 * per run of tinted lines.  A spinner says it is at work when it takes
 * more than a moment.  A change of the document meanwhile starts it all
 * again, so what it shows is the document's last change when it is done;
 * after that it stays as it is.  Closing the window cancels the work: the
 * worker's task has no source object and holds only texts.
 */
#include "config.h"

#include "graft-diff-window.h"
#include "graft-document-changes.h"
#include "graft-pattern-editor.h"
#include "graft-toplevel.h"
#include "graft-turns.h"
#include "graft-view.h"

#include <gtksourceview/gtksource.h>
#include <string.h>

/* Filling the buffers takes about this much of a turn, in chunks of about
 * FILL_CHUNK bytes or FILL_RUNS tinted runs. */
#define FILL_TURN_USEC 4000
#define FILL_CHUNK     4096
#define FILL_RUNS      16
/* The spinner shows once the work takes longer than this. */
#define BUSY_DELAY_MS 200

typedef enum {
  TINT_REMOVED,
  TINT_ADDED,
  TINT_FILLER,
  N_TINTS,
} Tint;

/* A run of lines [first, end) with one tint. */
typedef struct
{
  guint first;
  guint end;
  Tint  tint;
} Run;

/* One side as it is built: its text, and the runs of lines each tint
 * covers (one insertion and one tag per run, not per line: a 50,000-line
 * diff stays fast). */
typedef struct
{
  GString *text;
  guint    n_lines;
  GArray  *runs; /* of Run */
} Side;

/* Both sides, made from the two texts without GTK: on a worker. */
typedef struct
{
  Side  sides[2]; /* before, after */
  guint n_removed;
  guint n_added;
} DiffText;

struct _GraftDiffWindow
{
  AdwWindow parent_instance;

  /* Owned */
  GraftDocument *document; /* the document shown, or NULL for fixed texts */
  GCancellable  *cancellable;
  DiffText      *text; /* going into the buffers, or NULL */
  char          *what;

  /* Borrowed: children */
  AdwWindowTitle *title;
  GtkWidget      *busy;
  GtkWidget      *paned;
  GtkTextBuffer  *buffers[2];
  GtkTextTag     *tags[2][N_TINTS]; /* per side; NULL where the side has no such tint */

  guint    fill_turn;    /* the filling's turn (graft-turns.c), or 0 */
  guint    busy_timeout; /* shows the spinner, or 0 */
  gsize    filled[2];    /* bytes of each side's text in its buffer */
  guint    tinted[2];    /* runs of each side tinted */
  gboolean ready;
  guint    n_removed;
  guint    n_added;
};

G_DEFINE_FINAL_TYPE (GraftDiffWindow, graft_diff_window, ADW_TYPE_WINDOW)

static void
diff_text_free (DiffText *text)
{
  if (text == NULL)
    return;
  for (guint s = 0; s < 2; s++)
    {
      g_string_free (text->sides[s].text, TRUE);
      g_array_unref (text->sides[s].runs);
    }
  g_free (text);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DiffText, diff_text_free)

static void
stop (GraftDiffWindow *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->fill_turn != 0)
    graft_turns_remove (self->fill_turn);
  self->fill_turn = 0;
  g_clear_handle_id (&self->busy_timeout, g_source_remove);
  g_clear_pointer (&self->text, diff_text_free);
}

static void
graft_diff_window_dispose (GObject *object)
{
  GraftDiffWindow *self = GRAFT_DIFF_WINDOW (object);

  stop (self);
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (graft_diff_window_parent_class)->dispose (object);
}

static void
graft_diff_window_finalize (GObject *object)
{
  GraftDiffWindow *self = GRAFT_DIFF_WINDOW (object);

  g_free (self->what);
  G_OBJECT_CLASS (graft_diff_window_parent_class)->finalize (object);
}

static void
graft_diff_window_class_init (GraftDiffWindowClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  /* No window is left on its surface once closed (graft-toplevel.c). */
  graft_toplevel_init ();

  object_class->dispose = graft_diff_window_dispose;
  object_class->finalize = graft_diff_window_finalize;
  /* A window to glance at: Escape and Ctrl+W close it. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close",
                                       NULL);
}

static void
graft_diff_window_init (GraftDiffWindow *self)
{
}

static GtkWidget *
make_view (GtkTextBuffer **out_buffer,
           GtkAdjustment  *vadjustment)
{
  GtkSourceLanguage *python =
      gtk_source_language_manager_get_language (gtk_source_language_manager_get_default (),
                                                "python3");
  GtkSourceBuffer *buffer = gtk_source_buffer_new_with_language (python);
  GtkWidget       *view = gtk_source_view_new_with_buffer (buffer);
  GtkWidget       *scroller = gtk_scrolled_window_new ();

  graft_source_buffer_follow_style (buffer);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (view), 6);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (view), 6);
  gtk_source_view_set_show_line_numbers (GTK_SOURCE_VIEW (view), FALSE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), view);
  if (vadjustment != NULL)
    gtk_scrolled_window_set_vadjustment (GTK_SCROLLED_WINDOW (scroller), vadjustment);
  gtk_widget_set_hexpand (scroller, TRUE);
  gtk_widget_set_vexpand (scroller, TRUE);
  *out_buffer = GTK_TEXT_BUFFER (buffer);
  g_object_unref (buffer);
  return scroller;
}

static void
append_line (Side       *side,
             const char *text,
             gint        tint)
{
  Run *last = side->runs->len > 0 ? &g_array_index (side->runs, Run, side->runs->len - 1) : NULL;

  g_string_append (side->text, text);
  g_string_append_c (side->text, '\n');
  if (tint >= 0)
    {
      if (last != NULL && last->tint == (Tint) tint && last->end == side->n_lines)
        last->end++;
      else
        {
          Run run = { side->n_lines, side->n_lines + 1, (Tint) tint };

          g_array_append_val (side->runs, run);
        }
    }
  side->n_lines++;
}

/* The two sides of the code @before and @after a change.  Uses no GTK:
 * runs on a worker. */
static DiffText *
diff_text_new (const char *before,
               const char *after)
{
  g_auto (GStrv) a = g_strsplit (before, "\n", -1);
  g_auto (GStrv) b = g_strsplit (after, "\n", -1);
  g_autoptr (GArray) lines = graft_diff_lines ((const char *const *) a, (const char *const *) b);
  DiffText *self = g_new0 (DiffText, 1);
  Side     *left = &self->sides[0];
  Side     *right = &self->sides[1];

  left->text = g_string_sized_new (strlen (before) + 1024);
  left->runs = g_array_new (FALSE, FALSE, sizeof (Run));
  right->text = g_string_sized_new (strlen (after) + 1024);
  right->runs = g_array_new (FALSE, FALSE, sizeof (Run));

  /* Each run of changed lines is one hunk: its removed lines face its
   * added ones row by row, filler pads the shorter side. */
  for (guint i = 0; i < lines->len;)
    {
      GraftDiffLine *line = &g_array_index (lines, GraftDiffLine, i);
      g_autoptr (GPtrArray) gone = NULL;
      g_autoptr (GPtrArray) come = NULL;

      if (line->kind == GRAFT_DIFF_SAME)
        {
          append_line (left, a[line->before], -1);
          append_line (right, b[line->after], -1);
          i++;
          continue;
        }
      gone = g_ptr_array_new ();
      come = g_ptr_array_new ();
      for (; i < lines->len && g_array_index (lines, GraftDiffLine, i).kind != GRAFT_DIFF_SAME; i++)
        {
          line = &g_array_index (lines, GraftDiffLine, i);
          if (line->kind == GRAFT_DIFF_REMOVED)
            g_ptr_array_add (gone, a[line->before]);
          else
            g_ptr_array_add (come, b[line->after]);
        }
      for (guint k = 0; k < MAX (gone->len, come->len); k++)
        {
          if (k < gone->len)
            append_line (left, gone->pdata[k], TINT_REMOVED);
          else
            append_line (left, "", TINT_FILLER);
          if (k < come->len)
            append_line (right, come->pdata[k], TINT_ADDED);
          else
            append_line (right, "", TINT_FILLER);
        }
      self->n_removed += gone->len;
      self->n_added += come->len;
    }
  return self;
}

/* Puts more of side @s of self->text into its buffer: a chunk of its text
 * while there is text left, else a batch of its tints.  Returns whether
 * the side is all in. */
static gboolean
fill_some (GraftDiffWindow *self,
           guint            s,
           gsize            max_bytes,
           guint            max_runs)
{
  Side          *side = &self->text->sides[s];
  GtkTextBuffer *buffer = self->buffers[s];
  GtkTextIter    start;
  GtkTextIter    end;

  if (self->filled[s] < side->text->len)
    {
      gsize       from = self->filled[s];
      gsize       to = from + MIN (max_bytes, side->text->len - from);
      const char *newline;

      /* Whole lines: a chunk never splits a character. */
      if (to < side->text->len &&
          (newline = memchr (side->text->str + to, '\n', side->text->len - to)) != NULL)
        to = (gsize) (newline - side->text->str) + 1;
      else
        to = side->text->len;
      gtk_text_buffer_get_end_iter (buffer, &end);
      gtk_text_buffer_insert (buffer, &end, side->text->str + from, (int) (to - from));
      self->filled[s] = to;
      return FALSE;
    }
  for (guint k = 0; k < max_runs && self->tinted[s] < side->runs->len; k++, self->tinted[s]++)
    {
      Run *run = &g_array_index (side->runs, Run, self->tinted[s]);

      gtk_text_buffer_get_iter_at_line (buffer, &start, (int) run->first);
      gtk_text_buffer_get_iter_at_line (buffer, &end, (int) run->end);
      gtk_text_buffer_apply_tag (buffer, self->tags[s][run->tint], &start, &end);
    }
  return self->tinted[s] == side->runs->len;
}

/* The texts are in: the title says what changed. */
static void
finish (GraftDiffWindow *self)
{
  g_autofree char *subtitle = NULL;

  g_clear_pointer (&self->text, diff_text_free);
  g_clear_handle_id (&self->busy_timeout, g_source_remove);
  gtk_widget_set_visible (self->busy, FALSE);
  gtk_widget_set_visible (self->paned, TRUE);
  subtitle = g_strdup_printf ("%s: %u line%s removed, %u added", self->what, self->n_removed,
                              self->n_removed == 1 ? "" : "s", self->n_added);
  adw_window_title_set_subtitle (self->title, subtitle);
  self->ready = TRUE;
}

static gboolean
fill_cb (gpointer user_data)
{
  GraftDiffWindow *self = user_data;
  gint64           start = g_get_monotonic_time ();
  gboolean         done;

  do
    done = fill_some (self, 0, FILL_CHUNK, FILL_RUNS) & fill_some (self, 1, FILL_CHUNK, FILL_RUNS);
  while (!done && g_get_monotonic_time () - start < FILL_TURN_USEC);
  if (!done)
    return G_SOURCE_CONTINUE;
  self->fill_turn = 0;
  finish (self);
  return G_SOURCE_REMOVE;
}

static void
take_text (GraftDiffWindow *self,
           DiffText        *text)
{
  self->text = text;
  self->n_removed = text->n_removed;
  self->n_added = text->n_added;
  self->filled[0] = self->filled[1] = 0;
  self->tinted[0] = self->tinted[1] = 0;
}

static void
diff_thread_cb (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GraftChangeTexts *texts = task_data;

  if (g_task_return_error_if_cancelled (task))
    return;
  g_task_return_pointer (task, diff_text_new (texts->before, texts->after),
                         (GDestroyNotify) diff_text_free);
}

/* Called on the main thread.  The window is not referenced: its dispose
 * cancels the work first, and then the window is not read. */
static void
diff_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GTask *task = G_TASK (result);
  g_autoptr (DiffText) text = g_task_propagate_pointer (task, NULL);
  GraftDiffWindow *self = user_data;

  if (text == NULL || g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    return;
  take_text (self, g_steal_pointer (&text));
  self->fill_turn = graft_turns_add (fill_cb, self, NULL);
}

static void
show_error (GraftDiffWindow *self,
            const char      *message)
{
  g_clear_handle_id (&self->busy_timeout, g_source_remove);
  gtk_widget_set_visible (self->busy, FALSE);
  adw_window_title_set_subtitle (self->title, message);
  self->ready = TRUE;
}

static void
texts_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftChangeTexts) texts = graft_document_last_change_finish (result, &error);
  GraftDiffWindow *self = user_data;
  g_autoptr (GTask) task = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;
  if (texts == NULL)
    {
      show_error (self, error->message);
      return;
    }
  g_free (self->what);
  self->what = g_strdup (texts->label);
  g_strstrip (texts->before);
  g_strstrip (texts->after);
  task = g_task_new (NULL, self->cancellable, diff_done_cb, self);
  g_task_set_source_tag (task, texts_cb);
  g_task_set_task_data (task, g_steal_pointer (&texts), (GDestroyNotify) graft_change_texts_free);
  g_task_run_in_thread (task, diff_thread_cb);
}

static gboolean
show_busy_cb (gpointer user_data)
{
  GraftDiffWindow *self = user_data;

  self->busy_timeout = 0;
  gtk_widget_set_visible (self->busy, TRUE);
  return G_SOURCE_REMOVE;
}

/* Starts again from the document's last change. */
static void
start (GraftDiffWindow *self)
{
  stop (self);
  self->ready = FALSE;
  self->cancellable = g_cancellable_new ();
  /* The texts are shown whole: views that grow as they are filled get
   * drawn before they are allocated again. */
  gtk_widget_set_visible (self->paned, FALSE);
  for (guint s = 0; s < 2; s++)
    gtk_text_buffer_set_text (self->buffers[s], "", 0);
  adw_window_title_set_subtitle (self->title, "Comparing the code before and after…");
  if (!gtk_widget_get_visible (self->busy))
    self->busy_timeout = g_timeout_add (BUSY_DELAY_MS, show_busy_cb, self);
  graft_document_last_change_async (self->document, self->cancellable, texts_cb, self);
}

static void
document_changed_cb (GraftDocument   *document,
                     GraftDiffWindow *self)
{
  /* Done, it shows the change it was opened for, as it was. */
  if (!self->ready)
    start (self);
}

static GraftDiffWindow *
diff_window_new (GtkWindow *parent)
{
  GraftDiffWindow *self = g_object_new (GRAFT_TYPE_DIFF_WINDOW,
                                        "transient-for", parent,
                                        "default-width", 1100,
                                        "default-height", 700,
                                        "title", "Changes",
                                        NULL);
  GtkWidget       *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget       *header = adw_header_bar_new ();
  GtkWidget       *overlay = gtk_overlay_new ();
  GtkWidget       *spinner = gtk_spinner_new ();
  GtkWidget       *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget       *left_view = make_view (&self->buffers[0], NULL);
  GtkWidget       *right_view =
      make_view (&self->buffers[1],
                 gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (left_view)));
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  self->tags[0][TINT_REMOVED] = gtk_text_buffer_create_tag (
      self->buffers[0], "removed", "paragraph-background", dark ? "#5c2a2a" : "#fbdada", NULL);
  self->tags[1][TINT_ADDED] = gtk_text_buffer_create_tag (
      self->buffers[1], "added", "paragraph-background", dark ? "#1f4a2c" : "#d6f2dd", NULL);
  for (guint s = 0; s < 2; s++)
    self->tags[s][TINT_FILLER] = gtk_text_buffer_create_tag (
        self->buffers[s], "filler", "paragraph-background", dark ? "#2a2a2a" : "#efefef", NULL);

  self->title = ADW_WINDOW_TITLE (adw_window_title_new ("Changes", ""));
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), GTK_WIDGET (self->title));
  gtk_paned_set_start_child (GTK_PANED (paned), left_view);
  gtk_paned_set_end_child (GTK_PANED (paned), right_view);
  gtk_paned_set_position (GTK_PANED (paned), 550);
  self->paned = paned;
  gtk_overlay_set_child (GTK_OVERLAY (overlay), paned);

  /* The spinner on an OSD backdrop, as the split view's bars. */
  self->busy = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_spinner_start (GTK_SPINNER (spinner));
  gtk_box_append (GTK_BOX (self->busy), spinner);
  gtk_box_append (GTK_BOX (self->busy), gtk_label_new ("Comparing…"));
  gtk_widget_add_css_class (self->busy, "osd");
  gtk_widget_add_css_class (self->busy, "toolbar");
  gtk_widget_set_halign (self->busy, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (self->busy, GTK_ALIGN_CENTER);
  gtk_widget_set_can_target (self->busy, FALSE);
  gtk_widget_set_visible (self->busy, FALSE);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), self->busy);

  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), overlay);
  adw_window_set_content (ADW_WINDOW (self), box);
  return self;
}

/**
 * graft_diff_window_new:
 * @parent: (nullable): the editor window
 * @what: the change (`Replace all`)
 * @before: the code before it
 * @after: the code after it
 *
 * Compares the two texts at once, before it returns.
 *
 * Returns: (transfer full): the window, not shown yet
 */
GtkWidget *
graft_diff_window_new (GtkWindow  *parent,
                       const char *what,
                       const char *before,
                       const char *after)
{
  GraftDiffWindow *self = diff_window_new (parent);

  self->what = g_strdup (what);
  take_text (self, diff_text_new (before, after));
  while (!(fill_some (self, 0, G_MAXSIZE, G_MAXUINT) & fill_some (self, 1, G_MAXSIZE, G_MAXUINT)))
    ;
  finish (self);
  return GTK_WIDGET (self);
}

/**
 * graft_diff_window_new_for_document:
 * @parent: (nullable): the editor window
 * @document: a document with a change of its graph
 *
 * Shows the code before and after @document's last change of the graph,
 * made over the main loop's next turns and on a worker; a change of the
 * document meanwhile starts the work again.
 *
 * Returns: (transfer full): the window, not shown yet, at work
 */
GtkWidget *
graft_diff_window_new_for_document (GtkWindow     *parent,
                                    GraftDocument *document)
{
  GraftDiffWindow *self;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (document), NULL);
  self = diff_window_new (parent);
  self->document = g_object_ref (document);
  g_signal_connect (document, "history-changed", G_CALLBACK (document_changed_cb), self);
  g_signal_connect (document, "graph-changed", G_CALLBACK (document_changed_cb), self);
  start (self);
  return GTK_WIDGET (self);
}

/**
 * graft_diff_window_get_ready:
 * @self: a diff window
 *
 * Returns: whether it shows the whole comparison (or why there is none)
 */
gboolean
graft_diff_window_get_ready (GraftDiffWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_DIFF_WINDOW (self), FALSE);
  return self->ready;
}

/**
 * graft_diff_window_get_busy:
 * @self: a diff window
 *
 * Returns: whether it shows that it is at work
 */
gboolean
graft_diff_window_get_busy (GraftDiffWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_DIFF_WINDOW (self), FALSE);
  return gtk_widget_get_visible (self->busy);
}

/**
 * graft_diff_window_get_buffer:
 * @self: a diff window
 * @after: the side after the change, else the side before
 *
 * Returns: (transfer none): that side's text, with its tints
 */
GtkTextBuffer *
graft_diff_window_get_buffer (GraftDiffWindow *self,
                              gboolean         after)
{
  g_return_val_if_fail (GRAFT_IS_DIFF_WINDOW (self), NULL);
  return self->buffers[after ? 1 : 0];
}

/**
 * graft_diff_window_get_subtitle:
 * @self: a diff window
 *
 * Returns: (transfer none): what the header says under the title
 */
const char *
graft_diff_window_get_subtitle (GraftDiffWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_DIFF_WINDOW (self), NULL);
  return adw_window_title_get_subtitle (self->title);
}

guint
graft_diff_window_get_n_removed (GraftDiffWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_DIFF_WINDOW (self), 0);
  return self->n_removed;
}

guint
graft_diff_window_get_n_added (GraftDiffWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_DIFF_WINDOW (self), 0);
  return self->n_added;
}
