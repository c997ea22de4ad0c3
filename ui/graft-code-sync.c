/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-code-sync.c: the Code tab.
 *
 * Contract: the code view shows `graft code` of the document's graph
 * (nothing after a load error), highlighted as Python.  When that is not
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
 */
#include "config.h"

#include "graft-code-sync.h"
#include "graft-pattern-editor.h"

#include <gtksourceview/gtksource.h>
#include <string.h>

#define NAME_START "_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
#define NAME_CHARS NAME_START "0123456789"

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
};

G_DEFINE_FINAL_TYPE (GraftCodeSync, graft_code_sync, G_TYPE_OBJECT)

/* The code of the graph, and which node each line defines (`    name =
 * ...`; the def line for placeholders, the return line for the output). */
static void
update_code (GraftCodeSync *self)
{
  GraftGraph   *graph = graft_document_get_graph (self->document);
  const char   *text = graft_document_get_load_error (self->document) == NULL
                           ? graft_document_get_code (self->document)
                           : "";
  const GError *code_error = graft_document_get_load_error (self->document) == NULL
                                 ? graft_document_get_code_error (self->document)
                                 : NULL;
  g_auto (GStrv) lines = NULL;

  if (code_error != NULL)
    {
      g_autofree char *note = g_strdup_printf (
          "torch could not compile the generated code: %s.\n"
          "Its graph module keeps an empty forward, shown here as graft code prints it and "
          "Export writes it; the canvas shows the program's graph. A rewrite is refused, as "
          "torch's recompile() fails.",
          code_error->message);

      gtk_label_set_text (self->note, note);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->note), code_error != NULL);
  while (*text == '\n')
    text++;
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->code_view), text, -1);
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
              graft_graph_find_node (graph, candidate) != NULL)
            name = g_steal_pointer (&candidate);
        }
      else if (g_str_has_prefix (line, "    return ") && graft_graph_get_output (graph) != NULL)
        name = g_strdup (graft_node_get_name (graft_graph_get_output (graph)));
      g_ptr_array_add (self->lines, name);
    }
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
      update_code (self);
      self->stale = FALSE;
    }
  else
    self->stale = TRUE;
}

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
  GtkTextBuffer *buffer;
  GtkTextIter    iter;

  g_return_if_fail (GRAFT_IS_CODE_SYNC (self));
  if (self->syncing)
    return;
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
  self->syncing = TRUE;
  graft_canvas_select (self->canvas, name, FALSE);
  graft_canvas_center_on (self->canvas, name);
  self->syncing = FALSE;
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
  GraftCodeSync     *self;
  GtkSourceLanguage *python;
  GtkTextBuffer     *buffer;

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
  return self;
}

static void
graft_code_sync_finalize (GObject *object)
{
  GraftCodeSync *self = GRAFT_CODE_SYNC (object);

  g_clear_pointer (&self->lines, g_ptr_array_unref);
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
}
