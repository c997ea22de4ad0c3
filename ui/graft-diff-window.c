/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-diff-window.c: "Show Changes": the code before the last change on
 * the left and after it on the right, lines aligned (graft_diff_lines()),
 * removed lines tinted red, added ones green, blank filler where one side
 * has nothing, each side's line numbers beside it.  Built in code: one
 * list of rows (a GtkListView: only the rows in view are widgets, so a
 * million changed lines cost what forty do), each row a line of both
 * sides, under a header bar that says what changed and whose arrows (and
 * Alt+Down, Alt+Up) go to the next and previous change.  Rows are
 * selected as in any list; Ctrl+C copies them as a unified diff would
 * show them ("-" removed, "+" added, " " the same), the text written
 * when pasted, on a worker (graft_rows_provider_new()).
 *
 * Opened on a document (graft_diff_window_new_for_document()) it never
 * stops the main loop for long: the document makes the two texts in steps
 * (graft-document-changes.c) and hands them over; a worker thread strips
 * them, splits them into lines in place and aligns them into rows, and
 * the list then takes all the rows at once (no text is copied into a
 * widget: a row (graft-code-rows.c) is given its lines when it scrolls
 * into view).  A spinner says it is at work when it takes more than a
 * moment.  A change of the
 * document meanwhile starts it all again, so what it shows is the
 * document's last change when it is done; after that it stays as it is.
 * Closing the window cancels the work: the worker's task has no source
 * object and holds only the texts, which it owns.
 */
#include "config.h"

#include "graft-diff-window.h"
#include "graft-code-rows.h"
#include "graft-document-changes.h"
#include "graft-toplevel.h"
#include "graft-turns.h"

#include <gtksourceview/gtksource.h>
#include <string.h>

/* The spinner shows once the work takes longer than this. */
#define BUSY_DELAY_MS 200

/* A row: a line of each side (its index in that side's lines, or -1 for
 * filler), and whether it is in a run of changed lines (a line removed
 * faces a line added there, if any) or the same on both sides. */
typedef struct
{
  gint32 line[2];
  gint32 changed;
} Row;

/* Both sides as rows, made from the two texts without GTK: on a worker.
 * The lines point into the texts, split in place. */
typedef struct
{
  gatomicrefcount ref;      /* a copy to the clipboard holds them too */
  char           *texts[2]; /* before, after */
  char          **lines[2]; /* NULL-terminated */
  char           *ends[2];  /* where each text's last line ends */
  GArray         *rows;     /* of Row */
  GArray         *hunks;    /* of guint: the first row of each run of changed rows */
  guint           n_removed;
  guint           n_added;
} DiffRows;

struct _GraftDiffWindow
{
  AdwWindow parent_instance;

  /* Owned */
  GraftDocument *document; /* the document shown, or NULL for fixed texts */
  GCancellable  *cancellable;
  DiffRows      *rows; /* shown, or NULL */
  GraftRowModel *model;
  char          *what;

  /* Borrowed: children */
  AdwWindowTitle    *title;
  GtkWidget         *busy;
  GtkWidget         *list;
  GtkMultiSelection *selection;

  GraftHighlightStyle styles[GRAFT_N_HIGHLIGHTS];

  guint    busy_timeout; /* shows the spinner, or 0 */
  guint    fill_turn;    /* gives the list its rows (graft-turns.c), or 0 */
  guint    scroll_to;    /* the row to scroll to once the list is placed, or G_MAXUINT */
  guint    scroll_tick;  /* the list's tick callback that scrolls, or 0 */
  gboolean ready;
  guint    n_removed;
  guint    n_added;
};

G_DEFINE_FINAL_TYPE (GraftDiffWindow, graft_diff_window, ADW_TYPE_WINDOW)

static void
diff_rows_free (DiffRows *rows)
{
  if (rows == NULL || !g_atomic_ref_count_dec (&rows->ref))
    return;
  for (guint s = 0; s < 2; s++)
    {
      g_free (rows->texts[s]);
      g_free (rows->lines[s]);
    }
  g_clear_pointer (&rows->rows, g_array_unref);
  g_clear_pointer (&rows->hunks, g_array_unref);
  g_free (rows);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DiffRows, diff_rows_free)

/* The lines of @text as g_strsplit (g_strstrip (@text), "\n", -1) gives
 * them, made in place: @text's newlines become ends of strings and the
 * lines point into it.  No copy: a side's text of 150 MB is split in a
 * pass over it. */
static char **
split_in_place (char  *text,
                char **out_end)
{
  char  *start = text;
  char  *end = text + strlen (text);
  char **lines;
  guint  n = 1;
  guint  k = 0;

  while (start < end && g_ascii_isspace (*start))
    start++;
  while (end > start && g_ascii_isspace (end[-1]))
    end--;
  *end = '\0';
  *out_end = end;
  if (start == end)
    return g_new0 (char *, 1);
  for (char *at = start; (at = memchr (at, '\n', (gsize) (end - at))) != NULL; at++)
    n++;
  lines = g_new (char *, n + 1);
  lines[k++] = start;
  for (char *at = start; (at = memchr (at, '\n', (gsize) (end - at))) != NULL;)
    {
      *at++ = '\0';
      lines[k++] = at;
    }
  lines[k] = NULL;
  return lines;
}

static void
add_row (GArray *rows,
         gint32  before,
         gint32  after,
         gint32  changed)
{
  Row row = { { before, after }, changed };

  g_array_append_val (rows, row);
}

/* The rows of the code @before and @after a change; takes both texts.
 * Uses no GTK: runs on a worker. */
static DiffRows *
diff_rows_new (char *before,
               char *after)
{
  DiffRows *self = g_new0 (DiffRows, 1);
  g_autoptr (GArray) lines = NULL;

  g_atomic_ref_count_init (&self->ref);
  self->texts[0] = before;
  self->texts[1] = after;
  for (guint s = 0; s < 2; s++)
    self->lines[s] = split_in_place (self->texts[s], &self->ends[s]);
  lines = graft_diff_lines ((const char *const *) self->lines[0],
                            (const char *const *) self->lines[1]);
  self->rows = g_array_sized_new (FALSE, FALSE, sizeof (Row), lines->len);
  self->hunks = g_array_new (FALSE, FALSE, sizeof (guint));

  /* Each run of changed lines is one hunk: its removed lines face its
   * added ones row by row, filler pads the shorter side. */
  for (guint i = 0; i < lines->len;)
    {
      GraftDiffLine *line = &g_array_index (lines, GraftDiffLine, i);
      guint          first = i;
      guint          n_gone = 0;
      guint          n_come = 0;
      guint          gone = 0;
      guint          come = 0;

      if (line->kind == GRAFT_DIFF_SAME)
        {
          add_row (self->rows, line->before, line->after, FALSE);
          i++;
          continue;
        }
      for (; i < lines->len && g_array_index (lines, GraftDiffLine, i).kind != GRAFT_DIFF_SAME; i++)
        {
          if (g_array_index (lines, GraftDiffLine, i).kind == GRAFT_DIFF_REMOVED)
            n_gone++;
          else
            n_come++;
        }
      g_array_append_val (self->hunks, self->rows->len);
      /* The hunk's removed lines in order, and its added ones, walked
       * side by side. */
      for (guint k = 0; k < MAX (n_gone, n_come); k++)
        {
          gint32 left = -1;
          gint32 right = -1;

          if (k < n_gone)
            {
              while (g_array_index (lines, GraftDiffLine, first + gone).kind != GRAFT_DIFF_REMOVED)
                gone++;
              left = g_array_index (lines, GraftDiffLine, first + gone++).before;
            }
          if (k < n_come)
            {
              while (g_array_index (lines, GraftDiffLine, first + come).kind != GRAFT_DIFF_ADDED)
                come++;
              right = g_array_index (lines, GraftDiffLine, first + come++).after;
            }
          add_row (self->rows, left, right, TRUE);
        }
      self->n_removed += n_gone;
      self->n_added += n_come;
    }
  return self;
}

/* The tint of @row's side @s. */
static GraftRowTint
row_tint (const Row *row,
          guint      s)
{
  if (!row->changed)
    return GRAFT_ROW_TINT_NONE;
  if (row->line[s] < 0)
    return GRAFT_ROW_TINT_FILLER;
  return s == 0 ? GRAFT_ROW_TINT_REMOVED : GRAFT_ROW_TINT_ADDED;
}

static const char *const tint_names[] = {
  [GRAFT_ROW_TINT_NONE] = NULL,
  [GRAFT_ROW_TINT_REMOVED] = "removed",
  [GRAFT_ROW_TINT_ADDED] = "added",
  [GRAFT_ROW_TINT_FILLER] = "filler",
};

static void
stop (GraftDiffWindow *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->fill_turn != 0)
    graft_turns_remove (self->fill_turn);
  self->fill_turn = 0;
  g_clear_handle_id (&self->busy_timeout, g_source_remove);
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

  /* The list is gone: no row reads the rows any more. */
  g_clear_pointer (&self->rows, diff_rows_free);
  g_clear_object (&self->model);
  g_free (self->what);
  G_OBJECT_CLASS (graft_diff_window_parent_class)->finalize (object);
}

/* The first row of the hunk after (@forward) or before the selected row,
 * or G_MAXUINT. */
static guint
other_hunk (GraftDiffWindow *self,
            gboolean         forward)
{
  g_autoptr (GtkBitset) selected = NULL;
  guint   at = G_MAXUINT;
  GArray *hunks;

  if (self->rows == NULL || self->rows->hunks->len == 0)
    return G_MAXUINT;
  hunks = self->rows->hunks;
  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  if (!gtk_bitset_is_empty (selected))
    at = forward ? gtk_bitset_get_maximum (selected) : gtk_bitset_get_minimum (selected);
  if (forward)
    {
      /* The first hunk that starts after the selection. */
      guint lo = 0;
      guint hi = hunks->len;

      if (at == G_MAXUINT)
        return g_array_index (hunks, guint, 0);
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (g_array_index (hunks, guint, mid) <= at)
            lo = mid + 1;
          else
            hi = mid;
        }
      return lo < hunks->len ? g_array_index (hunks, guint, lo) : G_MAXUINT;
    }
  else
    {
      /* The last hunk that starts before it. */
      guint lo = 0;
      guint hi = hunks->len;

      if (at == G_MAXUINT)
        return G_MAXUINT;
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (g_array_index (hunks, guint, mid) < at)
            lo = mid + 1;
          else
            hi = mid;
        }
      return lo > 0 ? g_array_index (hunks, guint, lo - 1) : G_MAXUINT;
    }
}

/* The rows of the hunk that starts at @first selected, in view, and the
 * keyboard's focus on it. */
/* Scrolls to the row asked for once the list has an allocation: GTK
 * scrolls to a row it has placed, or whose place it can estimate. */
static gboolean
scroll_tick_cb (GtkWidget     *list,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  GraftDiffWindow *self = user_data;
  guint            row = self->scroll_to;

  if (gtk_widget_get_height (list) <= 0)
    return G_SOURCE_CONTINUE;
  self->scroll_tick = 0;
  self->scroll_to = G_MAXUINT;
  if (self->rows != NULL && row < self->rows->rows->len)
    gtk_widget_activate_action (list, "list.scroll-to-item", "u", row);
  return G_SOURCE_REMOVE;
}

static void
scroll_later (GraftDiffWindow *self)
{
  if (self->scroll_to != G_MAXUINT && self->scroll_tick == 0 && gtk_widget_get_mapped (self->list))
    self->scroll_tick = gtk_widget_add_tick_callback (self->list, scroll_tick_cb, self, NULL);
}

/* The rows of the hunk that starts at @first selected, and in view. */
static void
go_to_row (GraftDiffWindow *self,
           guint            first)
{
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), first, TRUE);
  self->scroll_to = first;
  scroll_later (self);
}

static void
list_mapped_cb (GtkWidget       *list,
                GraftDiffWindow *self)
{
  scroll_later (self);
}

static void
list_unmapped_cb (GtkWidget       *list,
                  GraftDiffWindow *self)
{
  if (self->scroll_tick != 0)
    gtk_widget_remove_tick_callback (list, self->scroll_tick);
  self->scroll_tick = 0;
}

static void
update_arrows (GraftDiffWindow *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "diff.next-change",
                                 other_hunk (self, TRUE) != G_MAXUINT);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "diff.previous-change",
                                 other_hunk (self, FALSE) != G_MAXUINT);
}

static void
go_cb (GtkWidget  *widget,
       const char *action_name,
       GVariant   *parameter)
{
  GraftDiffWindow *self = GRAFT_DIFF_WINDOW (widget);
  guint            first = other_hunk (self, g_str_equal (action_name, "diff.next-change"));

  if (first != G_MAXUINT)
    go_to_row (self, first);
}

/* The rows @selected of @rows as Ctrl+C copies them (see
 * graft_diff_window_dup_selected_text()), appended to @out, and written
 * to @stream as they come if it is not NULL.  Uses no GTK but the
 * bitset: runs on a worker. */
static gboolean
write_rows (gpointer       source,
            GtkBitset     *selected,
            GString       *out,
            GOutputStream *stream,
            GCancellable  *cancellable,
            GError       **error)
{
  DiffRows *rows = source;
  g_autoptr (GString) added = g_string_new (NULL);
  GtkBitsetIter iter;
  guint         r;
  guint         previous = G_MAXUINT;

  for (gboolean more = gtk_bitset_iter_init_first (&iter, selected, &r); more;
       more = gtk_bitset_iter_next (&iter, &r))
    {
      const Row *row;

      if (r >= rows->rows->len)
        break;
      row = &g_array_index (rows->rows, Row, r);
      /* A hunk's added lines follow its removed ones, at its end or where
       * the selection leaves it. */
      if (!row->changed || (previous != G_MAXUINT && r != previous + 1))
        {
          g_string_append_len (out, added->str, (gssize) added->len);
          g_string_truncate (added, 0);
          if (!graft_rows_flush (out, FALSE, stream, cancellable, error))
            return FALSE;
        }
      previous = r;
      if (!row->changed)
        {
          g_string_append_printf (out, " %s\n", rows->lines[1][row->line[1]]);
          continue;
        }
      if (row->line[0] >= 0)
        g_string_append_printf (out, "-%s\n", rows->lines[0][row->line[0]]);
      if (row->line[1] >= 0)
        g_string_append_printf (added, "+%s\n", rows->lines[1][row->line[1]]);
    }
  g_string_append_len (out, added->str, (gssize) added->len);
  return graft_rows_flush (out, TRUE, stream, cancellable, error);
}

static void
copy_cb (GtkWidget  *widget,
         const char *action_name,
         GVariant   *parameter)
{
  GraftDiffWindow *self = GRAFT_DIFF_WINDOW (widget);
  g_autoptr (GtkBitset) selected = NULL;
  g_autoptr (GdkContentProvider) content = NULL;

  if (self->rows == NULL)
    return;
  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  if (gtk_bitset_is_empty (selected))
    return;
  /* Written when pasted, on a worker: all of a million rows are 300 MB. */
  g_atomic_ref_count_inc (&self->rows->ref);
  content = graft_rows_provider_new (selected, self->rows, (GDestroyNotify) diff_rows_free,
                                     write_rows);
  gdk_clipboard_set_content (gtk_widget_get_clipboard (widget), content);
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
  gtk_widget_class_install_action (widget_class, "diff.next-change", NULL, go_cb);
  gtk_widget_class_install_action (widget_class, "diff.previous-change", NULL, go_cb);
  gtk_widget_class_install_action (widget_class, "diff.copy", NULL, copy_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, GDK_ALT_MASK,
                                       "diff.next-change", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, GDK_ALT_MASK,
                                       "diff.previous-change", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "diff.copy",
                                       NULL);
  /* A window to glance at: Escape and Ctrl+W close it. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close",
                                       NULL);
}

static void
graft_diff_window_init (GraftDiffWindow *self)
{
  self->scroll_to = G_MAXUINT;
}

/* Line @k of side @s as a row shows it (graft_code_rows_shorten()). */
static char *
shown_line (DiffRows *rows,
            guint     s,
            gint32    k)
{
  const char *line = rows->lines[s][k];
  const char *next = rows->lines[s][k + 1];

  return graft_code_rows_shorten (line, (gsize) ((next != NULL ? next - 1 : rows->ends[s]) - line));
}

/* A row's widget: one GraftCodeRow for both sides, which draws their
 * lines, numbers and tints itself: the list makes up to 200 rows at once
 * when the comparison comes in, all in one turn. */
static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  user_data)
{
  GraftDiffWindow *self = user_data;

  gtk_list_item_set_child (item, graft_code_row_new (2, self->styles));
}

/* The width of the line numbers' column, in characters. */
#define NUMBER_CHARS 7
/* Between a line's number and the line. */
#define NUMBER_GAP 3

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  user_data)
{
  GraftDiffWindow *self = user_data;
  GraftRowItem    *row_item = gtk_list_item_get_item (item);
  GraftCodeRow    *widget = GRAFT_CODE_ROW (gtk_list_item_get_child (item));
  const Row       *row;
  g_autoptr (GString) label = g_string_new (NULL);

  if (self->rows == NULL || graft_row_item_get_row (row_item) >= self->rows->rows->len)
    return;
  row = &g_array_index (self->rows->rows, Row, graft_row_item_get_row (row_item));
  for (guint s = 0; s < 2; s++)
    {
      GraftRowTint tint = row_tint (row, s);

      if (row->line[s] >= 0)
        {
          g_autofree char *line = shown_line (self->rows, s, row->line[s]);
          char            *shown =
              g_strdup_printf ("%*d%*s%s", NUMBER_CHARS, row->line[s] + 1, NUMBER_GAP, "", line);

          graft_code_row_set_side (widget, s, shown, NUMBER_CHARS, NUMBER_CHARS + NUMBER_GAP, tint);
          g_string_append_printf (label, "%s%s %d: %s. ", s == 0 ? "Before" : "After",
                                  tint != GRAFT_ROW_TINT_NONE ? (s == 0 ? ", removed," : ", added,")
                                                              : "",
                                  row->line[s] + 1, line);
        }
      else
        graft_code_row_set_side (widget, s, NULL, 0, 0, tint);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  label->str, -1);
}

static gboolean
show_busy_cb (gpointer user_data)
{
  GraftDiffWindow *self = user_data;

  self->busy_timeout = 0;
  gtk_widget_set_visible (self->busy, TRUE);
  return G_SOURCE_REMOVE;
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

/* The rows are in the list: the title says what changed, the first
 * change is selected and scrolled to. */
static void
finish (GraftDiffWindow *self)
{
  g_autofree char *subtitle = NULL;

  g_clear_handle_id (&self->busy_timeout, g_source_remove);
  gtk_widget_set_visible (self->busy, FALSE);
  subtitle = g_strdup_printf ("%s: %u line%s removed, %u added", self->what, self->n_removed,
                              self->n_removed == 1 ? "" : "s", self->n_added);
  adw_window_title_set_subtitle (self->title, subtitle);
  if (self->rows->hunks->len > 0)
    go_to_row (self, g_array_index (self->rows->hunks, guint, 0));
  update_arrows (self);
  self->ready = TRUE;
}

/* Gives the list its rows, in a turn of its own: it makes the widgets of
 * the rows it may show then (up to 200 in GTK 4.8), a few milliseconds
 * with rows that draw themselves (graft-code-rows.c). */
static gboolean
fill_cb (gpointer user_data)
{
  GraftDiffWindow *self = user_data;

  graft_row_model_grow (self->model, self->rows->rows->len);
  self->fill_turn = 0;
  finish (self);
  return G_SOURCE_REMOVE;
}

/* The rows are made: the list takes them in the next turn. */
static void
take_rows (GraftDiffWindow *self,
           DiffRows        *rows)
{
  graft_row_model_set_n_items (self->model, 0);
  g_clear_pointer (&self->rows, diff_rows_free);
  self->rows = rows;
  self->n_removed = rows->n_removed;
  self->n_added = rows->n_added;
  if (self->fill_turn != 0)
    graft_turns_remove (self->fill_turn);
  self->fill_turn = graft_turns_add (fill_cb, self, NULL);
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
  g_task_return_pointer (task,
                         diff_rows_new (g_steal_pointer (&texts->before),
                                        g_steal_pointer (&texts->after)),
                         (GDestroyNotify) diff_rows_free);
}

/* Called on the main thread.  The window is not referenced: its dispose
 * cancels the work first, and then the window is not read. */
static void
diff_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GTask *task = G_TASK (result);
  g_autoptr (DiffRows) rows = g_task_propagate_pointer (task, NULL);
  GraftDiffWindow *self = user_data;

  if (rows == NULL || g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    return;
  take_rows (self, g_steal_pointer (&rows));
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
  /* The texts are stripped and split on the worker: they are the size of
   * the graph's code. */
  task = g_task_new (NULL, self->cancellable, diff_done_cb, self);
  g_task_set_source_tag (task, texts_cb);
  g_task_set_task_data (task, g_steal_pointer (&texts), (GDestroyNotify) graft_change_texts_free);
  g_task_run_in_thread (task, diff_thread_cb);
}

/* Starts again from the document's last change. */
static void
start (GraftDiffWindow *self)
{
  stop (self);
  self->ready = FALSE;
  self->cancellable = g_cancellable_new ();
  graft_row_model_set_n_items (self->model, 0);
  g_clear_pointer (&self->rows, diff_rows_free);
  update_arrows (self);
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

static void
selection_changed_cb (GtkSelectionModel *model,
                      guint              position,
                      guint              n_items,
                      GraftDiffWindow   *self)
{
  update_arrows (self);
}

static GtkWidget *
arrow_button (const char *icon,
              const char *action,
              const char *tooltip)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip,
                                  -1);
  return button;
}

static void
style_changed_cb (AdwStyleManager *manager,
                  GParamSpec      *pspec,
                  GraftDiffWindow *self)
{
  graft_code_rows_load_styles (self->styles);
  graft_code_rows_restyle (self->list);
}

static GraftDiffWindow *
diff_window_new (GtkWindow *parent)
{
  GraftDiffWindow    *self = g_object_new (GRAFT_TYPE_DIFF_WINDOW,
                                           "transient-for", parent,
                                           "default-width", 1100,
                                           "default-height", 700,
                                           "title", "Changes",
                                           NULL);
  GtkWidget          *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget          *header = adw_header_bar_new ();
  GtkWidget          *overlay = gtk_overlay_new ();
  GtkWidget          *spinner = gtk_spinner_new ();
  GtkWidget          *scroller = gtk_scrolled_window_new ();
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkWidget          *arrows = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  self->title = ADW_WINDOW_TITLE (adw_window_title_new ("Changes", ""));
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), GTK_WIDGET (self->title));
  gtk_widget_add_css_class (arrows, "linked");
  gtk_box_append (GTK_BOX (arrows), arrow_button ("go-up-symbolic", "diff.previous-change",
                                                  "Previous change (Alt+Up)"));
  gtk_box_append (GTK_BOX (arrows), arrow_button ("go-down-symbolic", "diff.next-change",
                                                  "Next change (Alt+Down)"));
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), arrows);

  graft_code_rows_load_styles (self->styles);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (style_changed_cb), self, 0);
  self->model = graft_row_model_new ();
  self->selection = gtk_multi_selection_new (G_LIST_MODEL (g_object_ref (self->model)));
  g_signal_connect (self->selection, "selection-changed", G_CALLBACK (selection_changed_cb), self);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), self);
  self->list = gtk_list_view_new (GTK_SELECTION_MODEL (self->selection), factory);
  gtk_widget_add_css_class (self->list, "graft-diff");
  g_signal_connect (self->list, "map", G_CALLBACK (list_mapped_cb), self);
  g_signal_connect (self->list, "unmap", G_CALLBACK (list_unmapped_cb), self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  "The code before and after the change", -1);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->list);
  gtk_widget_set_hexpand (scroller, TRUE);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_overlay_set_child (GTK_OVERLAY (overlay), scroller);

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
  update_arrows (self);
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
  take_rows (self, diff_rows_new (g_strdup (before), g_strdup (after)));
  graft_turns_remove (self->fill_turn);
  self->fill_turn = 0;
  graft_row_model_set_n_items (self->model, self->rows->rows->len);
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
 * graft_diff_window_get_settled:
 * @self: a diff window
 *
 * Returns: whether it is ready and its list is where it goes: at the
 * first change once it is made, or where the keys sent it
 */
gboolean
graft_diff_window_get_settled (GraftDiffWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_DIFF_WINDOW (self), FALSE);
  return self->ready && self->scroll_to == G_MAXUINT;
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
 * graft_diff_window_dup_side:
 * @self: a diff window
 * @after: the side after the change, else the side before
 *
 * That side's rows as the list shows them, one line each: its tint in
 * brackets (`[removed]`, `[added]`, `[filler]`; none for a line the same
 * on both sides), a bar, and the line's text.
 *
 * Returns: (transfer full): the rows, empty before the comparison is made
 */
char *
graft_diff_window_dup_side (GraftDiffWindow *self,
                            gboolean         after)
{
  GString *out;
  guint    s = after ? 1 : 0;

  g_return_val_if_fail (GRAFT_IS_DIFF_WINDOW (self), NULL);
  out = g_string_new (NULL);
  for (guint r = 0; self->rows != NULL && r < self->rows->rows->len; r++)
    {
      const Row  *row = &g_array_index (self->rows->rows, Row, r);
      const char *tint = tint_names[row_tint (row, s)];

      if (tint != NULL)
        g_string_append_printf (out, "[%s]", tint);
      g_string_append_c (out, '|');
      if (row->line[s] >= 0)
        g_string_append (out, self->rows->lines[s][row->line[s]]);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

/**
 * graft_diff_window_dup_selected_text:
 * @self: a diff window
 *
 * The selected rows as Ctrl+C copies them: each run of changed lines as
 * its removed lines, each after a `-`, then its added ones after a `+`;
 * a line the same on both sides after a space.
 *
 * Returns: (transfer full): the text, empty when no row is selected
 */
char *
graft_diff_window_dup_selected_text (GraftDiffWindow *self)
{
  g_autoptr (GtkBitset) selected = NULL;
  GString *out;

  g_return_val_if_fail (GRAFT_IS_DIFF_WINDOW (self), NULL);
  out = g_string_new (NULL);
  if (self->rows == NULL)
    return g_string_free (out, FALSE);
  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  write_rows (self->rows, selected, out, NULL, NULL, NULL);
  return g_string_free (out, FALSE);
}

/**
 * graft_diff_window_get_list:
 * @self: a diff window
 *
 * Returns: (transfer none): the list of rows
 */
GtkListView *
graft_diff_window_get_list (GraftDiffWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_DIFF_WINDOW (self), NULL);
  return GTK_LIST_VIEW (self->list);
}

/**
 * graft_diff_window_get_n_changes:
 * @self: a diff window
 *
 * Returns: the runs of changed lines shown
 */
guint
graft_diff_window_get_n_changes (GraftDiffWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_DIFF_WINDOW (self), 0);
  return self->rows != NULL ? self->rows->hunks->len : 0;
}

/**
 * graft_diff_window_get_change_row:
 * @self: a diff window
 * @change: a run of changed lines, below graft_diff_window_get_n_changes()
 *
 * Returns: the row it starts at
 */
guint
graft_diff_window_get_change_row (GraftDiffWindow *self,
                                  guint            change)
{
  g_return_val_if_fail (GRAFT_IS_DIFF_WINDOW (self), 0);
  g_return_val_if_fail (change < graft_diff_window_get_n_changes (self), 0);
  return g_array_index (self->rows->hunks, guint, change);
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
