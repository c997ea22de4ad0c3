/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-code-sync.c: the Code tab.
 *
 * Contract: the code view shows `graft code` of the document's graph
 * (nothing after a load error, and the note above it says why),
 * highlighted as Python.  When that is not
 * the graph's code (an exported program whose code torch cannot compile
 * has torch's empty forward), a note above it says so and why
 * (graft_document_get_code_error()).  It is filled when
 * the tab is shown, after graft_code_sync_refresh() said the graph changed:
 * generating and highlighting the code of a 50,000-node graph takes a
 * noticeable part of a second.  Each line knows the node it defines
 * (`    name = ...`; the return line stands for the output).  Moving the
 * cursor onto such a line selects that node on the canvas and centres it;
 * graft_code_sync_select() (the window calls it when one node is selected
 * on the canvas) puts the cursor on the node's line.  Neither echoes the
 * other.
 *
 * Big code (over BIG_CODE_BYTES: 5 MB at 50,000 nodes, 153 MB at a
 * million, one line of it 42 MB) never goes into the text view, whose
 * colouring and layout of it took seconds in one turn: the tab shows it
 * as a list of rows instead (a GtkListView: only the rows in view are
 * widgets), coloured and shortened as the Changes window's rows
 * (graft-code-rows.c), a row selected alone standing for the cursor's
 * line; rows are selected as in any list and Ctrl+C copies their lines.
 * The code is waited for (graft_document_code_async()), then copied,
 * split into lines and its lines' nodes found, and the list given its
 * rows (graft_row_model_grow(), in a turn of its own), a few
 * milliseconds a turn (graft-turns.c), into a copy of its own: the document's code may go at
 * any change.  A change meanwhile starts it all again.
 */
#include "config.h"

#include "graft-code-sync.h"
#include "graft-code-rows.h"
#include "graft-pattern-editor.h"
#include "graft-turns.h"

#include <adwaita.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#define NAME_START "_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
#define NAME_CHARS NAME_START "0123456789"

/* Code longer than this is shown as rows. */
#define BIG_CODE_BYTES (512 * 1024)
/* A graph of more nodes has its code waited for while it is made. */
#define BIG_GRAPH_NODES 5000
/* Bytes copied at a time, and the time a turn spends at most. */
#define COPY_BYTES     (1024 * 1024)
#define FILL_TURN_USEC 5000
static gsize  copy_bytes = COPY_BYTES;
static gint64 fill_turn_usec = FILL_TURN_USEC;

struct _GraftCodeSync
{
  GObject parent_instance;

  GraftDocument *document;  /* Owned: whose graph's code is shown */
  GraftCanvas   *canvas;    /* Owned: follows the cursor */
  GtkTextView   *code_view; /* Owned: shows the code */
  GtkLabel      *note;      /* Owned: why the code is not the graph's, when it is not */
  GtkStack      *pages;     /* Owned: the side panel, whose "code" page holds @code_view */
  GPtrArray     *lines;     /* Owned: per line of the code view, the node's name or NULL */
  gboolean       syncing;   /* the canvas and the code view are following each other */
  gboolean       stale;     /* the graph changed while the tab was hidden */

  /* Big code, as rows */
  GtkScrolledWindow  *scroller;  /* Owned: @code_view's parent, or the list's */
  GtkWidget          *list;      /* Owned: the rows */
  GtkMultiSelection  *selection; /* Borrowed: the list's; one row selected is the cursor's line */
  GraftRowModel      *model;     /* Owned */
  GraftHighlightStyle styles[GRAFT_N_HIGHLIGHTS];
  GCancellable       *waiting;      /* Owned: waits for the code, or NULL */
  guint               fill_job;     /* copies and splits it (graft-turns.c), or 0 */
  guint               revision;     /* the document's, of the code copied */
  char               *copy;         /* Owned: the code, its lines ended by NULs, or NULL */
  GBytes             *copied;       /* Owned: holds @copy once a Ctrl+C holds it too, or NULL */
  gsize               length;       /* the code's length, as far as it is measured */
  gboolean            measured;     /* @length is the code's, and @copy made */
  gsize               n_copied;     /* bytes of @copy copied */
  gsize               parsed;       /* bytes of @copy split into lines */
  gboolean            split;        /* all of it */
  GArray             *starts;       /* Owned: of gsize, each line's start in @copy */
  GHashTable         *line_of;      /* Owned: a node's name (in @copy) -> its line + 1 */
  gint64              output_line;  /* the first return line, or -1 */
  guint               number_chars; /* the line numbers' width */
};

G_DEFINE_FINAL_TYPE (GraftCodeSync, graft_code_sync, G_TYPE_OBJECT)

/* Whether @c may be in a name. */
static gboolean
name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* A name that ends at its first character that may not be in one: in
 * @copy, where it goes on with ` = ...`. */
static guint
name_hash (gconstpointer key)
{
  guint h = 5381;

  for (const char *p = key; name_char (*p); p++)
    h = h * 33 + (guchar) *p;
  return h;
}

static gboolean
name_equal (gconstpointer a,
            gconstpointer b)
{
  const char *p = a;
  const char *q = b;

  for (; name_char (*p) && *p == *q; p++, q++)
    ;
  return !name_char (*p) && !name_char (*q);
}

/* The length of the name @line (`    name = ...`) defines, or 0. */
static gsize
defined_name (const char *line)
{
  gsize n;

  if (strncmp (line, "    ", 4) != 0 || strchr (NAME_START, line[4]) == NULL || line[4] == '\0')
    return 0;
  n = strspn (line + 4, NAME_CHARS);
  return strncmp (line + 4 + n, " = ", 3) == 0 ? n : 0;
}

/* Forgets the rows and stops making them. */
static void
rows_clear (GraftCodeSync *self)
{
  if (self->waiting != NULL)
    {
      g_cancellable_cancel (self->waiting);
      g_clear_object (&self->waiting);
    }
  if (self->fill_job != 0)
    graft_turns_remove (self->fill_job);
  self->fill_job = 0;
  graft_row_model_set_n_items (self->model, 0);
  /* 150 MB, a million lines and names at a million nodes: freed off the
   * main thread. */
  if (self->starts->len > 0)
    {
      graft_turns_free_later (g_steal_pointer (&self->starts), (GDestroyNotify) g_array_unref);
      self->starts = g_array_new (FALSE, FALSE, sizeof (gsize));
    }
  if (g_hash_table_size (self->line_of) > 0)
    {
      graft_turns_free_later (g_steal_pointer (&self->line_of),
                              (GDestroyNotify) g_hash_table_unref);
      self->line_of = g_hash_table_new (name_hash, name_equal);
    }
  if (self->copied != NULL)
    {
      /* A Ctrl+C may still write from it: the last reference frees it. */
      graft_turns_free_later (g_steal_pointer (&self->copied), (GDestroyNotify) g_bytes_unref);
      self->copy = NULL;
    }
  else
    graft_turns_free_later (g_steal_pointer (&self->copy), g_free);
  self->length = 0;
  self->measured = FALSE;
  self->n_copied = 0;
  self->parsed = 0;
  self->split = FALSE;
  self->output_line = -1;
}

static void
show_child (GraftCodeSync *self,
            GtkWidget     *child)
{
  if (gtk_scrolled_window_get_child (self->scroller) != child)
    gtk_scrolled_window_set_child (self->scroller, child);
}

static void rows_start (GraftCodeSync *self);

/* Splits what is copied and not yet split into lines, and finds the
 * nodes they define, until @deadline; whether it is all split. */
static gboolean
rows_split (GraftCodeSync *self,
            gint64         deadline)
{
  GraftGraph *graph = graft_document_get_graph (self->document);
  GraftNode  *output = graft_graph_get_output (graph);
  char       *text = self->copy;
  gboolean    copied = self->n_copied == self->length;

  for (guint n = 0;; n++)
    {
      char *line = text + self->parsed;
      char *end = memchr (line, '\n', self->n_copied - self->parsed);
      gsize name_len;
      guint index = self->starts->len;

      if (end == NULL && !copied)
        return FALSE;
      if (end != NULL)
        *end = '\0';
      g_array_append_val (self->starts, self->parsed);
      if ((name_len = defined_name (line)) != 0)
        {
          char      *name = line + 4;
          GraftNode *node;

          name[name_len] = '\0';
          node = graft_document_find_code_node (self->document, name);
          name[name_len] = ' ';
          if (node != NULL && !g_hash_table_contains (self->line_of, name))
            g_hash_table_insert (self->line_of, name, GUINT_TO_POINTER (index + 1));
        }
      else if (self->output_line < 0 && output != NULL && g_str_has_prefix (line, "    return "))
        self->output_line = index;
      if (end == NULL)
        return TRUE;
      self->parsed = (gsize) (end + 1 - text);
      if (n % 256 == 255 && g_get_monotonic_time () > deadline)
        return FALSE;
    }
}

/* A step of the rows' making: copies a part of the document's code, and
 * splits what it copied. */
static gboolean
rows_fill_cb (gpointer user_data)
{
  GraftCodeSync *self = user_data;
  gint64         deadline = g_get_monotonic_time () + fill_turn_usec;
  const char    *code = graft_document_peek_code (self->document);

  if (graft_document_get_revision (self->document) != self->revision || code == NULL)
    {
      /* The graph changed, and no one said: make them again. */
      self->fill_job = 0;
      rows_start (self);
      return G_SOURCE_REMOVE;
    }
  /* The view leaves out the newlines it starts with. */
  code += strspn (code, "\n");
  do
    {
      if (!self->measured)
        {
          gsize n = strnlen (code + self->length, 8 * copy_bytes);

          self->length += n;
          self->measured = n < 8 * copy_bytes;
          if (self->measured)
            self->copy = g_malloc (self->length + 1);
          continue;
        }
      if (self->n_copied < self->length)
        {
          gsize n = MIN (copy_bytes, self->length - self->n_copied);

          memcpy (self->copy + self->n_copied, code + self->n_copied, n);
          self->n_copied += n;
          self->copy[self->n_copied] = '\0';
        }
      if (self->split)
        {
          guint lines = self->starts->len;

          self->number_chars = 1;
          for (; lines >= 10; lines /= 10)
            self->number_chars++;
          /* The list makes its rows' widgets then: in a turn of its own. */
          graft_row_model_grow (self->model, self->starts->len);
          self->fill_job = 0;
          return G_SOURCE_REMOVE;
        }
      if ((self->split = rows_split (self, deadline)))
        return G_SOURCE_CONTINUE;
    }
  while (g_get_monotonic_time () < deadline);
  return G_SOURCE_CONTINUE;
}

static void
code_ready_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr (GraftCodeSync) self = user_data;
  g_autoptr (GError) error = NULL;

  if (!graft_document_code_finish (GRAFT_DOCUMENT (object), result, &error))
    return;
  g_clear_object (&self->waiting);
  rows_start (self);
}

static void update_code (GraftCodeSync *self);

/* The note above the code: why it is not the graph's, if it is not. */
static void
update_note (GraftCodeSync *self)
{
  const GError *load_error = graft_document_get_load_error (self->document);
  const GError *code_error =
      load_error == NULL ? graft_document_get_code_error (self->document) : NULL;

  /* An empty page with a cursor looked like code yet to come. */
  if (load_error != NULL)
    {
      g_autofree char *message = graft_error_format (load_error, NULL);
      g_autofree char *note = g_strdup_printf ("No code: the file could not be read.\n%s",
                                               message);

      gtk_label_set_text (self->note, note);
    }
  else if (code_error != NULL)
    {
      g_autofree char *note = g_strdup_printf (
          "torch could not compile the generated code: %s.\n"
          "Its graph module keeps an empty forward, shown here as graft code prints it and "
          "Export writes it; the canvas shows the program's graph. A rewrite is refused, as "
          "torch's recompile() fails.",
          code_error->message);

      gtk_label_set_text (self->note, note);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->note), load_error != NULL || code_error != NULL);
}

/* The code, whole, or as rows when it is big (once it is made). */
static void
rows_start (GraftCodeSync *self)
{
  const char *code;

  rows_clear (self);
  /* A small graph's code is made at once, as the tab always had it. */
  if (graft_document_peek_code (self->document) == NULL &&
      graft_graph_get_n_nodes (graft_document_get_graph (self->document)) > BIG_GRAPH_NODES)
    {
      self->waiting = g_cancellable_new ();
      graft_document_code_async (self->document, self->waiting, code_ready_cb,
                                 g_object_ref (self));
      return;
    }
  code = graft_document_get_code (self->document);
  code += strspn (code, "\n");
  update_note (self);
  if (strnlen (code, BIG_CODE_BYTES + 1) <= BIG_CODE_BYTES)
    {
      update_code (self);
      return;
    }
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->code_view), "", -1);
  g_ptr_array_set_size (self->lines, 0);
  show_child (self, self->list);
  self->revision = graft_document_get_revision (self->document);
  self->fill_job = graft_turns_add (rows_fill_cb, self, NULL);
}

/* The code of the graph, and which node each line defines (`    name =
 * ...`; the def line for placeholders, the return line for the output). */
static void
update_code (GraftCodeSync *self)
{
  GraftGraph *graph = graft_document_get_graph (self->document);
  gboolean    read = graft_document_get_load_error (self->document) == NULL;
  const char *text = read ? graft_document_get_code (self->document) : "";
  g_auto (GStrv) lines = NULL;

  show_child (self, GTK_WIDGET (self->code_view));
  /* Under the note that there is no code, a line 1 with a cursor still
   * looked like code yet to come: the view is blank. */
  gtk_source_view_set_show_line_numbers (GTK_SOURCE_VIEW (self->code_view), read);
  gtk_source_view_set_highlight_current_line (GTK_SOURCE_VIEW (self->code_view), read);
  gtk_text_view_set_cursor_visible (self->code_view, read);
  while (*text == '\n')
    text++;
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->code_view), text, -1);
  /* GtkTextView validates new text in an idle below the redraws'
   * priority; a frame painted before it validated the shown lines in the
   * view's snapshot and changed the scrollbars' adjustments while they
   * were painted ("Trying to snapshot GtkGizmo without a current
   * allocation", fatal in the tests: ui-view's shared-names-code failed
   * 3 runs in 20).  A resize makes the next frame's layout do it. */
  gtk_widget_queue_resize (GTK_WIDGET (self->code_view));
  g_ptr_array_set_size (self->lines, 0);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *eq = strstr (line, " = ");
      char       *name = NULL;

      if (g_str_has_prefix (line, "    ") && eq != NULL && strchr (NAME_START, line[4]) != NULL)
        {
          g_autofree char *candidate = g_strndup (line + 4, (gsize) (eq - line - 4));

          if (strspn (candidate, NAME_CHARS) == strlen (candidate) &&
              graft_document_find_code_node (self->document, candidate) != NULL)
            name = g_steal_pointer (&candidate);
        }
      else if (g_str_has_prefix (line, "    return ") && graft_graph_get_output (graph) != NULL)
        name = g_strdup (graft_node_get_name (graft_graph_get_output (graph)));
      g_ptr_array_add (self->lines, name);
    }
}

/* The code, or nothing after a load error. */
static void
fill (GraftCodeSync *self)
{
  if (graft_document_get_load_error (self->document) != NULL)
    {
      rows_clear (self);
      update_note (self);
      update_code (self);
    }
  else
    rows_start (self);
}

/**
 * graft_code_sync_refresh:
 * @self: a code sync
 *
 * The document's graph has changed: fills the code view now if the Code
 * tab is shown, else when it is.
 */
void
graft_code_sync_refresh (GraftCodeSync *self)
{
  g_return_if_fail (GRAFT_IS_CODE_SYNC (self));
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->pages), "code") == 0)
    {
      fill (self);
      self->stale = FALSE;
    }
  else
    {
      self->stale = TRUE;
      /* Not made for a hidden tab. */
      if (self->fill_job != 0 || self->waiting != NULL)
        rows_clear (self);
    }
}

static void select_line (GraftCodeSync *self,
                         const char    *name);

/**
 * graft_code_sync_select:
 * @self: a code sync
 * @name: the node selected alone on the canvas
 *
 * Puts the code's cursor on the line of @name, if it has one.
 */
void
graft_code_sync_select (GraftCodeSync *self,
                        const char    *name)
{
  GraftNode *node;

  g_return_if_fail (GRAFT_IS_CODE_SYNC (self));
  /* The code may call the node otherwise, if another has its name. */
  node = graft_graph_find_node (graft_document_get_graph (self->document), name);
  select_line (self, node != NULL ? graft_document_get_code_name (self->document, node) : name);
}

/**
 * graft_code_sync_select_node:
 * @self: a code sync
 * @node: the node picked alone on the canvas, of the document's graph
 *
 * Puts the code's cursor on the line of @node, if it has one: of two nodes
 * of one name, that one's.
 */
void
graft_code_sync_select_node (GraftCodeSync *self,
                             GraftNode     *node)
{
  g_return_if_fail (GRAFT_IS_CODE_SYNC (self));
  g_return_if_fail (node != NULL);
  select_line (self, graft_document_get_code_name (self->document, node));
}

/* Puts the code's cursor on the line that defines @name, a name of the
 * code. */
static void
select_line (GraftCodeSync *self,
             const char    *name)
{
  GtkTextBuffer *buffer;
  GtkTextIter    iter;

  if (self->syncing)
    return;
  if (self->starts->len > 0)
    {
      GraftNode *output = graft_graph_get_output (graft_document_get_graph (self->document));
      gint64     line = GPOINTER_TO_UINT (g_hash_table_lookup (self->line_of, name)) - (gint64) 1;

      if (line < 0 && output != NULL && g_strcmp0 (graft_node_get_name (output), name) == 0)
        line = self->output_line;
      if (line < 0)
        return;
      self->syncing = TRUE;
      gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), (guint) line, TRUE);
      if (gtk_widget_get_mapped (self->list))
        gtk_widget_activate_action (self->list, "list.scroll-to-item", "u", (guint) line);
      self->syncing = FALSE;
      return;
    }
  buffer = gtk_text_view_get_buffer (self->code_view);
  for (guint i = 0; i < self->lines->len; i++)
    if (g_strcmp0 (self->lines->pdata[i], name) == 0)
      {
        self->syncing = TRUE;
        gtk_text_buffer_get_iter_at_line (buffer, &iter, (int) i);
        gtk_text_buffer_place_cursor (buffer, &iter);
        gtk_text_view_scroll_to_iter (self->code_view, &iter, 0.1, FALSE, 0, 0.3);
        self->syncing = FALSE;
        return;
      }
}

/* Selects the node the code calls @name (the output's name for the return
 * line) on the canvas, and centres it: of two nodes of one name, the box
 * of the line's. */
static void
select_on_canvas (GraftCodeSync *self,
                  const char    *name)
{
  GraftGraph *graph = graft_document_get_graph (self->document);
  GraftNode  *node = graft_document_find_code_node (self->document, name);

  self->syncing = TRUE;
  if (node != NULL && graft_graph_has_shared_names (graph))
    {
      guint i = 0;

      for (GraftNode *n = graft_graph_get_first (graph); n != node; n = graft_node_get_next (n))
        i++;
      graft_canvas_select_graph_node (self->canvas, i);
    }
  else
    {
      graft_canvas_select (self->canvas, name, FALSE);
      graft_canvas_center_on (self->canvas, name);
    }
  self->syncing = FALSE;
}

/* A click in the code selects the line's node on the canvas. */
static void
code_cursor_cb (GtkTextBuffer *buffer,
                GParamSpec    *pspec,
                GraftCodeSync *self)
{
  GtkTextIter iter;
  int         line;
  const char *name;

  if (self->syncing)
    return;
  gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  line = gtk_text_iter_get_line (&iter);
  if (line < 0 || (guint) line >= self->lines->len || (name = self->lines->pdata[line]) == NULL)
    return;
  select_on_canvas (self, name);
}

/* The node line @line of the rows defines, or NULL. */
static char *
row_node (GraftCodeSync *self,
          guint          line)
{
  GraftGraph *graph = graft_document_get_graph (self->document);
  const char *text;
  gsize       n;

  if (line >= self->starts->len)
    return NULL;
  text = self->copy + g_array_index (self->starts, gsize, line);
  if ((n = defined_name (text)) != 0)
    {
      g_autofree char *name = g_strndup (text + 4, n);

      return graft_document_find_code_node (self->document, name) != NULL
                 ? g_steal_pointer (&name)
                 : NULL;
    }
  if (g_str_has_prefix (text, "    return ") && graft_graph_get_output (graph) != NULL)
    return g_strdup (graft_node_get_name (graft_graph_get_output (graph)));
  return NULL;
}

/* A row selected alone selects its line's node on the canvas. */
static void
rows_selected_cb (GtkSelectionModel *selection,
                  guint              position,
                  guint              n_items,
                  GraftCodeSync     *self)
{
  g_autoptr (GtkBitset) selected = NULL;
  g_autofree char *name = NULL;

  if (self->syncing)
    return;
  selected = gtk_selection_model_get_selection (selection);
  if (gtk_bitset_get_size (selected) != 1 ||
      (name = row_node (self, gtk_bitset_get_minimum (selected))) == NULL)
    return;
  select_on_canvas (self, name);
}

/* What a Ctrl+C of rows writes from: the code (its lines ended by NULs)
 * and its lines' starts, which no longer change. */
typedef struct
{
  GBytes *code;
  GArray *starts;
  gsize   length;
} RowsCopy;

static void
rows_copy_free (RowsCopy *copy)
{
  g_bytes_unref (copy->code);
  g_array_unref (copy->starts);
  g_free (copy);
}

/* The rows @selected of @source (a RowsCopy), a line each; appended to
 * @out and written to @stream as they come if it is not NULL.  Uses no
 * GTK but the bitset: runs on a worker. */
static gboolean
write_rows (gpointer       source,
            GtkBitset     *selected,
            GString       *out,
            GOutputStream *stream,
            GCancellable  *cancellable,
            GError       **error)
{
  const RowsCopy *copy = source;
  const char     *code = g_bytes_get_data (copy->code, NULL);
  GtkBitsetIter   iter;
  guint           r;

  for (gboolean more = gtk_bitset_iter_init_first (&iter, selected, &r);
       more && r < copy->starts->len; more = gtk_bitset_iter_next (&iter, &r))
    {
      gsize start = g_array_index (copy->starts, gsize, r);
      gsize end = r + 1 < copy->starts->len ? g_array_index (copy->starts, gsize, r + 1) - 1
                                            : copy->length;

      g_string_append_len (out, code + start, (gssize) (end - start));
      g_string_append_c (out, '\n');
      if (!graft_rows_flush (out, FALSE, stream, cancellable, error))
        return FALSE;
    }
  return graft_rows_flush (out, TRUE, stream, cancellable, error);
}

/* What the rows' Ctrl+C reads from, shared with the rows: NULL while
 * they are made. */
static RowsCopy *
rows_copy (GraftCodeSync *self)
{
  RowsCopy *copy;

  if (self->copy == NULL || graft_code_sync_get_filling (self))
    return NULL;
  if (self->copied == NULL)
    self->copied = g_bytes_new_take (self->copy, self->length + 1);
  copy = g_new (RowsCopy, 1);
  copy->code = g_bytes_ref (self->copied);
  copy->starts = g_array_ref (self->starts);
  copy->length = self->length;
  return copy;
}

/* Ctrl+C: the selected rows' lines, written when pasted, on a worker (all
 * of a million nodes' code is 150 MB). */
static gboolean
copy_rows_cb (GtkWidget *list,
              GVariant  *args,
              gpointer   user_data)
{
  GraftCodeSync *self = user_data;
  g_autoptr (GtkBitset) selected =
      gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  g_autoptr (GdkContentProvider) content = NULL;
  RowsCopy *copy;

  if (gtk_bitset_is_empty (selected) || (copy = rows_copy (self)) == NULL)
    return FALSE;
  content = graft_rows_provider_new (selected, copy, (GDestroyNotify) rows_copy_free,
                                     write_rows);
  gdk_clipboard_set_content (gtk_widget_get_clipboard (list), content);
  return TRUE;
}

/* A row draws its line itself (graft-code-rows.c): the list makes up to
 * 200 of them at once. */
static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  user_data)
{
  GraftCodeSync *self = user_data;

  gtk_list_item_set_child (item, graft_code_row_new (1, self->styles));
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  user_data)
{
  GraftCodeSync   *self = user_data;
  guint            row = graft_row_item_get_row (gtk_list_item_get_item (item));
  g_autofree char *line = NULL;
  gsize            start;
  gsize            end;

  if (row >= self->starts->len)
    return;
  start = g_array_index (self->starts, gsize, row);
  end = row + 1 < self->starts->len ? g_array_index (self->starts, gsize, row + 1) - 1
                                    : self->length;
  line = graft_code_rows_shorten (self->copy + start, end - start);
  graft_code_row_set_side (GRAFT_CODE_ROW (gtk_list_item_get_child (item)), 0,
                           g_strdup_printf ("%*u  %s", (int) self->number_chars, row + 1, line),
                           self->number_chars, self->number_chars + 2, GRAFT_ROW_TINT_NONE);
}

static void
style_changed_cb (AdwStyleManager *manager,
                  GParamSpec      *pspec,
                  GraftCodeSync   *self)
{
  graft_code_rows_load_styles (self->styles);
  graft_code_rows_restyle (self->list);
}

static void
page_shown_cb (GtkStack      *stack,
               GParamSpec    *pspec,
               GraftCodeSync *self)
{
  if (self->stale)
    graft_code_sync_refresh (self);
}

/**
 * graft_code_sync_new:
 * @document: the document whose graph's code is shown
 * @canvas: the canvas whose selection follows the cursor
 * @code_view: the code view, on a GtkSourceBuffer
 * @note: a label above it, hidden, that says why the code is not the
 *   graph's when it is not
 * @pages: the stack whose page named "code" holds @code_view
 *
 * Returns: (transfer full): a code sync; call graft_code_sync_refresh()
 *   when the graph changes
 */
GraftCodeSync *
graft_code_sync_new (GraftDocument *document,
                     GraftCanvas   *canvas,
                     GtkTextView   *code_view,
                     GtkLabel      *note,
                     GtkStack      *pages)
{
  GraftCodeSync      *self;
  GtkSourceLanguage  *python;
  GtkTextBuffer      *buffer;
  GtkListItemFactory *factory;
  GtkEventController *shortcuts;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (GRAFT_IS_CANVAS (canvas), NULL);
  g_return_val_if_fail (GTK_IS_TEXT_VIEW (code_view), NULL);
  g_return_val_if_fail (GTK_IS_LABEL (note), NULL);
  g_return_val_if_fail (GTK_IS_STACK (pages), NULL);
  self = g_object_new (GRAFT_TYPE_CODE_SYNC, NULL);
  self->document = g_object_ref (document);
  self->canvas = g_object_ref (canvas);
  self->code_view = g_object_ref (code_view);
  self->note = g_object_ref (note);
  self->pages = g_object_ref (pages);
  python = gtk_source_language_manager_get_language (gtk_source_language_manager_get_default (),
                                                     "python3");
  buffer = gtk_text_view_get_buffer (code_view);
  if (python != NULL)
    gtk_source_buffer_set_language (GTK_SOURCE_BUFFER (buffer), python);
  g_signal_connect_object (buffer, "notify::cursor-position", G_CALLBACK (code_cursor_cb), self, 0);
  graft_source_buffer_follow_style (GTK_SOURCE_BUFFER (buffer));
  g_signal_connect_object (pages, "notify::visible-child", G_CALLBACK (page_shown_cb), self, 0);
  graft_text_view_stop_scroll_on_unmap (code_view);

  self->scroller = GTK_SCROLLED_WINDOW (
      g_object_ref (gtk_widget_get_ancestor (GTK_WIDGET (code_view), GTK_TYPE_SCROLLED_WINDOW)));
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), self);
  /* Rows are selected as in any list (click, Shift+click, Shift+arrows,
   * Ctrl+A), and Ctrl+C copies their lines. */
  self->selection = gtk_multi_selection_new (G_LIST_MODEL (g_object_ref (self->model)));
  g_signal_connect_object (self->selection, "selection-changed", G_CALLBACK (rows_selected_cb),
                           self, 0);
  self->list = g_object_ref_sink (
      gtk_list_view_new (GTK_SELECTION_MODEL (self->selection), factory));
  shortcuts = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_add_shortcut (
      GTK_SHORTCUT_CONTROLLER (shortcuts),
      gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_c, GDK_CONTROL_MASK),
                        gtk_callback_action_new (copy_rows_cb, self, NULL)));
  gtk_widget_add_controller (self->list, shortcuts);
  gtk_widget_add_css_class (self->list, "code-rows");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  "Generated code of the graph", -1);
  graft_code_rows_load_styles (self->styles);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (style_changed_cb), self, 0);
  return self;
}

static void
graft_code_sync_finalize (GObject *object)
{
  GraftCodeSync *self = GRAFT_CODE_SYNC (object);

  rows_clear (self);
  g_clear_pointer (&self->lines, g_ptr_array_unref);
  g_clear_pointer (&self->starts, g_array_unref);
  g_clear_pointer (&self->line_of, g_hash_table_unref);
  g_clear_object (&self->list);
  g_clear_object (&self->model);
  g_clear_object (&self->scroller);
  g_clear_object (&self->pages);
  g_clear_object (&self->code_view);
  g_clear_object (&self->note);
  g_clear_object (&self->canvas);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (graft_code_sync_parent_class)->finalize (object);
}

static void
graft_code_sync_class_init (GraftCodeSyncClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = graft_code_sync_finalize;
}

static void
graft_code_sync_init (GraftCodeSync *self)
{
  self->lines = g_ptr_array_new_with_free_func (g_free);
  self->model = graft_row_model_new ();
  self->starts = g_array_new (FALSE, FALSE, sizeof (gsize));
  self->line_of = g_hash_table_new (name_hash, name_equal);
  self->output_line = -1;
}

/**
 * graft_code_sync_get_list:
 * @self: a code sync
 *
 * Returns: (transfer none): the list view that shows big code as rows
 *   (in the tab only when the code is big)
 */
GtkWidget *
graft_code_sync_get_list (GraftCodeSync *self)
{
  g_return_val_if_fail (GRAFT_IS_CODE_SYNC (self), NULL);
  return self->list;
}

/**
 * graft_code_sync_get_filling:
 * @self: a code sync
 *
 * Returns: whether the tab waits for the code or is making its rows
 */
gboolean
graft_code_sync_get_filling (GraftCodeSync *self)
{
  g_return_val_if_fail (GRAFT_IS_CODE_SYNC (self), FALSE);
  return self->waiting != NULL || self->fill_job != 0;
}

/**
 * graft_code_sync_dup_rows_text:
 * @self: a code sync
 *
 * Returns: (transfer full) (nullable): the code the rows show, whole
 *   (no line shortened), or %NULL when the code is not shown as rows
 */
char *
graft_code_sync_dup_rows_text (GraftCodeSync *self)
{
  char *text;

  g_return_val_if_fail (GRAFT_IS_CODE_SYNC (self), NULL);
  if (self->copy == NULL || graft_code_sync_get_filling (self))
    return NULL;
  text = g_memdup2 (self->copy, self->length + 1);
  for (gsize i = 0; i < self->length; i++)
    if (text[i] == '\0')
      text[i] = '\n';
  return text;
}

/**
 * _graft_code_sync_set_fill_step:
 * @bytes: how many bytes of code a step copies, 0 for the default
 * @usec: how long a turn runs steps at most, 0 for one step
 *
 * For tests: makes the rows' filling take more turns.
 */
void
_graft_code_sync_set_fill_step (gsize  bytes,
                                gint64 usec)
{
  copy_bytes = bytes != 0 ? bytes : COPY_BYTES;
  fill_turn_usec = usec;
}
