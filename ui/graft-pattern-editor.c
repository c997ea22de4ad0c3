/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pattern-editor.c: a GtkSourceView for the Python text of a pattern
 * or a replacement, with a preview of the graph traced from it.
 *
 * Typing is debounced: `changed` is emitted 250 ms after the last edit, and
 * the window traces the text then.  An error from tracing is underlined at
 * the line and column the core located it (the same fields `graft` prints
 * as FILE:LINE:COL), its message shown under the text and as the
 * underline's tooltip; nothing is modal.
 *
 * The editor shows one buffer at a time, and a rule set gives each rule
 * buffers of its own (graft_pattern_editor_new_buffer()), so that each
 * keeps its own undo history: graft_pattern_editor_set_buffer() swaps
 * them, first emitting a `changed` still pending for the buffer it
 * leaves.
 *
 * Return indents as Python wants: one level more after a statement
 * ending in `:`, one less after `return`, `pass`, `raise`, `continue` or
 * `break`, the statement's indentation otherwise; inside open brackets
 * and after a `\` the line goes on (GraftPythonIndenter).
 *
 * Completion: after a dot, what the tracer and the document's graph know
 * there (GraftCompletion, given the document with
 * graft_pattern_editor_set_document()), shown as the dot is typed or on
 * Ctrl+Space (GtkSourceView's own binding); otherwise the words of the
 * text shown (GraftCompletionWords, which follows the buffer swaps), not
 * those Graft offers already.  None in a string or a comment.
 */
#include "config.h"

#include "graft-pattern-editor.h"
#include "graft-canvas.h"
#include "graft-completion.h"

#include <adwaita.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#define DEBOUNCE_MS 250

struct _GraftPatternEditor
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkLabel      *caption;
  GtkSourceView *view;
  GtkRevealer   *error_revealer;
  GtkLabel      *error_label;
  GtkLabel      *error_hint;
  GtkStack      *preview_stack;
  GraftCanvas   *preview;

  /* Owned */
  char                     *error_text;
  GraftCompletion          *completion;
  GtkSourceCompletionWords *words;

  guint    debounce_id;
  gboolean setting_text;
  /* The text's height in view, at its last allocation */
  double page_size;
  /* The tick that brings the cursor's line back in view, or 0 */
  guint keep_cursor_id;
  /* The completion popup's natural size last asked of its surface (-1:
   * not since it was shown), and the tick that asks it, or 0 */
  GtkRequisition popup_asked;
  guint          popup_tick_id;
};

G_DEFINE_FINAL_TYPE (GraftPatternEditor, graft_pattern_editor, GTK_TYPE_WIDGET)

enum {
  SIGNAL_CHANGED,
  N_SIGNALS,
};

static guint signals[N_SIGNALS];

/* The editor's indenter: Return indents the new line as Python reads
 * the text before it, as Python's editors do.  Once the line Return
 * ended closes its statement (no bracket left open, no `\` at its end),
 * the statement's indentation (that of its first line) counts: one
 * level more (the view's indent width, 4) after a statement ending in
 * `:`, one level less after one that ends its block (`return`, `pass`,
 * `raise`, `continue`, `break`), the same otherwise.  Inside brackets
 * left open, the line's own indentation, one level more after the
 * bracket that ends it (a hanging indent); after a `\`, one level more
 * than the statement's first line, then the line's own.  In a string of
 * three quotes left open, the line's own.  Strings and comments do not
 * count: a `:` or `return` in them changes nothing.  The line split off
 * by Return loses the blanks it started with, which the indentation
 * replaces; but where only blanks came before the cursor (Return at the
 * start of a line, or in its indentation, opens a line above it), those
 * blanks go before the line's own: it keeps its indentation. */
#define GRAFT_TYPE_PYTHON_INDENTER (graft_python_indenter_get_type ())
G_DECLARE_FINAL_TYPE (GraftPythonIndenter, graft_python_indenter, GRAFT, PYTHON_INDENTER, GObject)

struct _GraftPythonIndenter
{
  GObject parent_instance;
};

static gboolean
python_indenter_is_trigger (GtkSourceIndenter *indenter,
                            GtkSourceView     *view,
                            const GtkTextIter *location,
                            GdkModifierType    state,
                            guint              keyval)
{
  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SUPER_MASK)) != 0)
    return FALSE;
  return keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter;
}

/* Where the text before the new line leaves Python's reading of it. */
typedef struct
{
  const char *statement; /* the first line of the last statement */
  const char *line;      /* the last line */
  char        last;      /* the last character of the statement, strings and comments aside */
  gboolean    in_string; /* a string of three quotes is open */
  gboolean    continued; /* the last line ends in `\` */
  gboolean    hanging;   /* the last line ends with a bracket left open */
  guint       depth;     /* the brackets left open */
} Reading;

/* Reads @text (the text before the new line, without the newline) as
 * Python's tokenizer does, as far as the indentation needs. */
static void
read_python (const char *text,
             Reading    *reading)
{
  char     quote = 0;
  gboolean triple = FALSE;
  guint    depth = 0;
  gboolean continued = FALSE;
  gboolean hanging = FALSE;

  memset (reading, 0, sizeof (*reading));
  reading->statement = text;
  reading->line = text;
  for (const char *p = text; *p != '\0'; p++)
    {
      if (quote != 0)
        {
          if (*p == '\\' && p[1] != '\0')
            {
              if (p[1] == '\n')
                reading->line = p + 2;
              p++;
            }
          else if (*p == quote && (!triple || (p[1] == quote && p[2] == quote)))
            {
              p += triple ? 2 : 0;
              quote = 0;
              reading->last = *p;
              hanging = FALSE;
            }
          else if (*p == '\n')
            {
              reading->line = p + 1;
              if (!triple)
                quote = 0; /* not closed on its line: an error, the line is over */
            }
          continue;
        }
      if (*p == '\n')
        {
          reading->line = p + 1;
          if (depth == 0 && !continued)
            {
              reading->statement = p + 1;
              reading->last = 0;
            }
          continued = FALSE;
          hanging = FALSE;
          continue;
        }
      continued = FALSE;
      if (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\r')
        continue;
      if (*p == '#')
        {
          while (p[1] != '\0' && p[1] != '\n')
            p++;
          continue;
        }
      if (*p == '\\' && (p[1] == '\n' || p[1] == '\0'))
        {
          continued = TRUE;
          continue;
        }
      hanging = FALSE;
      reading->last = *p;
      if (*p == '\'' || *p == '"')
        {
          quote = *p;
          triple = p[1] == quote && p[2] == quote;
          p += triple ? 2 : 0;
        }
      else if (*p == '(' || *p == '[' || *p == '{')
        {
          depth++;
          hanging = TRUE;
        }
      else if ((*p == ')' || *p == ']' || *p == '}') && depth > 0)
        depth--;
    }
  reading->in_string = quote != 0 && triple;
  reading->continued = continued;
  reading->hanging = hanging && depth > 0;
  reading->depth = depth;
}

/* Whether @statement (a statement without its indentation) ends the
 * block it is in: `return`, `pass`, `raise`, `continue` or `break`. */
static gboolean
ends_block (const char *statement)
{
  static const char *const keywords[] = { "return", "pass", "raise", "continue", "break" };

  for (guint i = 0; i < G_N_ELEMENTS (keywords); i++)
    {
      gsize       length = strlen (keywords[i]);
      const char *after = statement + length;

      if (strncmp (statement, keywords[i], length) == 0 && !g_ascii_isalnum (*after) &&
          *after != '_')
        return TRUE;
    }
  return FALSE;
}

/* The blanks @line starts with, in @indent. */
static void
take_indentation (GString    *indent,
                  const char *line)
{
  g_string_truncate (indent, 0);
  for (const char *p = line; *p == ' ' || *p == '\t'; p++)
    g_string_append_c (indent, *p);
}

static void
python_indenter_indent (GtkSourceIndenter *indenter,
                        GtkSourceView     *view,
                        GtkTextIter       *iter)
{
  GtkTextBuffer   *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextIter      start;
  GtkTextIter      end = *iter;
  g_autofree char *before = NULL;
  g_autoptr (GString) indent = g_string_new (NULL);
  int     width = gtk_source_view_get_indent_width (view);
  Reading reading;

  if (gtk_text_iter_get_line (iter) == 0)
    return;
  if (width <= 0)
    width = (int) gtk_source_view_get_tab_width (view);
  /* The text before the line Return made, without the newline. */
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_iter_set_line_offset (&end, 0);
  gtk_text_iter_backward_char (&end);
  before = gtk_text_iter_get_slice (&start, &end);
  read_python (before, &reading);

  if (reading.line[strspn (reading.line, " \t")] == '\0')
    {
      /* Return in the line's indentation (a blank line's end too) opened
       * a line above: the line split off keeps its own blanks, after
       * those before the cursor, the whole indentation it had. */
      gtk_text_iter_set_line_offset (iter, 0);
      gtk_text_buffer_insert (buffer, iter, reading.line, -1);
      return;
    }
  if (reading.in_string || (reading.depth > 0 && !reading.hanging))
    take_indentation (indent, reading.line);
  else if (reading.depth > 0)
    {
      take_indentation (indent, reading.line);
      g_string_append_printf (indent, "%*s", width, "");
    }
  else if (reading.continued)
    {
      /* The first line of a statement going on: one level more. */
      take_indentation (indent, reading.line);
      if (reading.line == reading.statement)
        g_string_append_printf (indent, "%*s", width, "");
    }
  else
    {
      take_indentation (indent, reading.statement);
      if (reading.last == ':')
        g_string_append_printf (indent, "%*s", width, "");
      else if (ends_block (reading.statement + indent->len))
        {
          /* One level less: a tab, or up to a level's spaces. */
          if (indent->len > 0 && indent->str[indent->len - 1] == '\t')
            g_string_truncate (indent, indent->len - 1);
          else
            for (int i = 0;
                 i < width && indent->len > 0 && indent->str[indent->len - 1] == ' '; i++)
              g_string_truncate (indent, indent->len - 1);
        }
    }
  /* The blanks the new line starts with give way to the indentation. */
  gtk_text_iter_set_line_offset (iter, 0);
  end = *iter;
  while (!gtk_text_iter_ends_line (&end) &&
         (gtk_text_iter_get_char (&end) == ' ' || gtk_text_iter_get_char (&end) == '\t'))
    gtk_text_iter_forward_char (&end);
  gtk_text_buffer_delete (buffer, iter, &end);
  gtk_text_buffer_insert (buffer, iter, indent->str, (int) indent->len);
}

static void
graft_python_indenter_iface_init (GtkSourceIndenterInterface *iface)
{
  iface->is_trigger = python_indenter_is_trigger;
  iface->indent = python_indenter_indent;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (GraftPythonIndenter,
                               graft_python_indenter,
                               G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GTK_SOURCE_TYPE_INDENTER,
                                                      graft_python_indenter_iface_init))

static void
graft_python_indenter_class_init (GraftPythonIndenterClass *klass)
{
}

static void
graft_python_indenter_init (GraftPythonIndenter *self)
{
}

/**
 * graft_pattern_editor_new:
 *
 * Returns: (transfer full): an empty editor
 */
GtkWidget *
graft_pattern_editor_new (void)
{
  return g_object_new (GRAFT_TYPE_PATTERN_EDITOR, NULL);
}

/* The error underline of the buffer shown (each buffer has its own). */
static GtkTextTag *
error_tag (GraftPatternEditor *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  GtkTextTag    *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "error");

  if (tag == NULL)
    tag = gtk_text_buffer_create_tag (buffer, "error", "underline", PANGO_UNDERLINE_ERROR, NULL);
  return tag;
}

static gboolean
debounce_cb (gpointer user_data)
{
  GraftPatternEditor *self = user_data;

  self->debounce_id = 0;
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
  return G_SOURCE_REMOVE;
}

static void
buffer_changed_cb (GtkTextBuffer      *buffer,
                   GraftPatternEditor *self)
{
  /* The changed lines measured at the next frame's layout, not in the
   * view's snapshot, where GtkTextView would change its scrollbars while
   * they are painted (graft-code-sync.c's update_code()). */
  gtk_widget_queue_resize (GTK_WIDGET (self->view));
  if (self->setting_text)
    return;
  g_clear_handle_id (&self->debounce_id, g_source_remove);
  self->debounce_id = g_timeout_add (DEBOUNCE_MS, debounce_cb, self);
}

/**
 * graft_pattern_editor_get_buffer:
 * @self: an editor
 *
 * Returns: (transfer none): the text buffer the user types into
 */
GtkTextBuffer *
graft_pattern_editor_get_buffer (GraftPatternEditor *self)
{
  g_return_val_if_fail (GRAFT_IS_PATTERN_EDITOR (self), NULL);
  return gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
}

/**
 * graft_pattern_editor_new_buffer:
 * @text: the buffer's text (not a step of its undo history)
 *
 * Returns: (transfer full): a buffer for a pattern or a replacement:
 *   Python, coloured in the system's style, with no undo history yet,
 *   its cursor at the start (as graft_pattern_editor_set_text() puts it)
 */
GtkTextBuffer *
graft_pattern_editor_new_buffer (const char *text)
{
  GtkSourceLanguage *python =
      gtk_source_language_manager_get_language (gtk_source_language_manager_get_default (),
                                                "python3");
  GtkSourceBuffer *buffer = gtk_source_buffer_new (NULL);
  GtkTextIter      start;

  if (python != NULL)
    gtk_source_buffer_set_language (buffer, python);
  graft_source_buffer_follow_style (buffer);
  gtk_text_buffer_begin_irreversible_action (GTK_TEXT_BUFFER (buffer));
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (buffer), text, -1);
  gtk_text_buffer_end_irreversible_action (GTK_TEXT_BUFFER (buffer));
  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (buffer), &start);
  gtk_text_buffer_place_cursor (GTK_TEXT_BUFFER (buffer), &start);
  return GTK_TEXT_BUFFER (buffer);
}

/**
 * graft_pattern_editor_set_buffer:
 * @self: an editor
 * @buffer: a buffer from graft_pattern_editor_new_buffer()
 *
 * Shows and edits @buffer.  A `changed` still pending for the buffer shown
 * before is emitted first, while that buffer is still the editor's.  The
 * error and the preview are the caller's to set again.
 */
void
graft_pattern_editor_set_buffer (GraftPatternEditor *self,
                                 GtkTextBuffer      *buffer)
{
  GtkTextBuffer *old;

  g_return_if_fail (GRAFT_IS_PATTERN_EDITOR (self));
  g_return_if_fail (GTK_SOURCE_IS_BUFFER (buffer));
  /* What the flush sets off may switch the buffer itself. */
  graft_pattern_editor_flush (self);
  old = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  if (old == buffer)
    return;
  g_signal_handlers_disconnect_by_func (old, buffer_changed_cb, self);
  gtk_source_completion_words_unregister (self->words, old);
  gtk_text_view_set_buffer (GTK_TEXT_VIEW (self->view), buffer);
  gtk_widget_queue_resize (GTK_WIDGET (self->view));
  gtk_source_completion_words_register (self->words, buffer);
  g_signal_connect_object (buffer, "changed", G_CALLBACK (buffer_changed_cb), self, 0);
  g_clear_pointer (&self->error_text, g_free);
  gtk_revealer_set_reveal_child (self->error_revealer, FALSE);
}

/**
 * graft_pattern_editor_set_document:
 * @self: an editor
 * @document: (nullable): the document whose graph and torch the
 *   completion offers names of (not kept alive)
 */
void
graft_pattern_editor_set_document (GraftPatternEditor *self,
                                   GraftDocument      *document)
{
  g_return_if_fail (GRAFT_IS_PATTERN_EDITOR (self));
  graft_completion_set_document (self->completion, document);
}

/**
 * graft_pattern_editor_get_completion:
 * @self: an editor
 *
 * Returns: (transfer none): the editor's completion of names
 */
GraftCompletion *
graft_pattern_editor_get_completion (GraftPatternEditor *self)
{
  g_return_val_if_fail (GRAFT_IS_PATTERN_EDITOR (self), NULL);
  return self->completion;
}

/**
 * graft_pattern_editor_set_caption:
 * @self: an editor
 * @caption: (nullable): a line above the text (which rule of a set it
 *   is), or %NULL for none
 */
void
graft_pattern_editor_set_caption (GraftPatternEditor *self,
                                  const char         *caption)
{
  g_return_if_fail (GRAFT_IS_PATTERN_EDITOR (self));
  gtk_label_set_text (self->caption, caption != NULL ? caption : "");
  gtk_widget_set_visible (GTK_WIDGET (self->caption), caption != NULL);
}

/**
 * graft_pattern_editor_flush:
 * @self: an editor
 *
 * Emits a pending `changed` now.
 */
void
graft_pattern_editor_flush (GraftPatternEditor *self)
{
  g_return_if_fail (GRAFT_IS_PATTERN_EDITOR (self));
  if (self->debounce_id != 0)
    {
      g_clear_handle_id (&self->debounce_id, g_source_remove);
      g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
    }
}

/**
 * graft_pattern_editor_dup_text:
 * @self: an editor
 *
 * Returns: (transfer full): the text
 */
char *
graft_pattern_editor_dup_text (GraftPatternEditor *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter    start;
  GtkTextIter    end;

  g_return_val_if_fail (GRAFT_IS_PATTERN_EDITOR (self), NULL);
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/**
 * graft_pattern_editor_set_text:
 * @self: an editor
 * @text: the new text
 *
 * Replaces the text without emitting `changed` (the caller already knows)
 * and without an undo step of the text view.  The cursor goes to the
 * start, where an editor opens a file (gtk_text_buffer_set_text() leaves
 * it at the end, where a text's undo then put it back).
 */
void
graft_pattern_editor_set_text (GraftPatternEditor *self,
                               const char         *text)
{
  GtkSourceBuffer *buffer;
  GtkTextIter      start;

  g_return_if_fail (GRAFT_IS_PATTERN_EDITOR (self));
  buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view)));
  self->setting_text = TRUE;
  gtk_text_buffer_begin_irreversible_action (GTK_TEXT_BUFFER (buffer));
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (buffer), text, -1);
  gtk_text_buffer_end_irreversible_action (GTK_TEXT_BUFFER (buffer));
  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (buffer), &start);
  gtk_text_buffer_place_cursor (GTK_TEXT_BUFFER (buffer), &start);
  self->setting_text = FALSE;
}

/**
 * graft_pattern_editor_replace_text:
 * @self: an editor
 * @text: the new text
 *
 * Replaces the whole text as one step of the text view's undo history, so
 * that Ctrl+Z in the editor (or gtk_text_buffer_undo()) brings back what
 * was there.  Like graft_pattern_editor_set_text(), it emits no `changed`:
 * the caller already knows.
 */
void
graft_pattern_editor_replace_text (GraftPatternEditor *self,
                                   const char         *text)
{
  GtkTextBuffer *buffer;
  GtkTextIter    start;
  GtkTextIter    end;

  g_return_if_fail (GRAFT_IS_PATTERN_EDITOR (self));
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  self->setting_text = TRUE;
  gtk_text_buffer_begin_user_action (buffer);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_delete (buffer, &start, &end);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_insert (buffer, &start, text, -1);
  gtk_text_buffer_end_user_action (buffer);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_place_cursor (buffer, &start);
  self->setting_text = FALSE;
}

/**
 * graft_pattern_editor_scroll_to_cursor:
 * @self: an editor
 *
 * Scrolls the text so that its cursor is in view.
 */
void
graft_pattern_editor_scroll_to_cursor (GraftPatternEditor *self)
{
  GtkTextBuffer *buffer;

  g_return_if_fail (GRAFT_IS_PATTERN_EDITOR (self));
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  gtk_text_view_scroll_mark_onscreen (GTK_TEXT_VIEW (self->view),
                                      gtk_text_buffer_get_insert (buffer));
}

/**
 * graft_pattern_editor_edit_body:
 * @self: an editor
 *
 * Gives the editor the keyboard focus with the cursor at the first
 * statement of the text's first function, or of its forward() when the
 * text is a torch.nn.Module (where a pattern or a replacement made by a
 * command is edited), or at the start of the text when it has no
 * function, and scrolls the cursor into view.
 */
void
graft_pattern_editor_edit_body (GraftPatternEditor *self)
{
  GtkTextBuffer   *buffer;
  GtkTextIter      iter;
  gboolean         in_def = FALSE;
  g_autofree char *all = NULL;
  const char      *def = "def ";

  g_return_if_fail (GRAFT_IS_PATTERN_EDITOR (self));
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  all = graft_pattern_editor_dup_text (self);
  if (strstr (all, "\n    def forward(") != NULL)
    def = "def forward(";
  gtk_text_buffer_get_start_iter (buffer, &iter);
  for (GtkTextIter line = iter; !gtk_text_iter_is_end (&line);)
    {
      GtkTextIter      text = line;
      GtkTextIter      end = line;
      g_autofree char *head = NULL;

      while (!gtk_text_iter_ends_line (&text) &&
             g_unichar_isspace (gtk_text_iter_get_char (&text)))
        gtk_text_iter_forward_char (&text);
      if (!gtk_text_iter_ends_line (&end))
        gtk_text_iter_forward_to_line_end (&end);
      head = gtk_text_iter_get_text (&text, &end);
      /* The first line with text after the def (its docstring, if any,
       * is a statement too). */
      if (in_def && head[0] != '\0' && head[0] != '#')
        {
          iter = text;
          break;
        }
      if (g_str_has_prefix (head, "def ") || g_str_has_prefix (head, "class "))
        in_def = g_str_has_prefix (head, def);
      if (!gtk_text_iter_forward_line (&line))
        break;
    }
  gtk_text_buffer_place_cursor (buffer, &iter);
  gtk_text_view_scroll_mark_onscreen (GTK_TEXT_VIEW (self->view),
                                      gtk_text_buffer_get_insert (buffer));
  gtk_widget_grab_focus (GTK_WIDGET (self->view));
}

/* The modules Graft's tracer imports, by the names code uses them under,
 * and the line that binds each name. */
static const struct
{
  const char *name;
  const char *import;
} module_imports[] = {
  { "torch", "import torch" },
  { "nn", "import torch.nn as nn" },
  { "F", "import torch.nn.functional as F" },
  { "math", "import math" },
  { "operator", "import operator" },
};

/* What to do about @error, or %NULL: a name of a module Graft knows not
 * defined (a pattern typed without `import torch` fails as Python does,
 * "name 'torch' is not defined") asks for its import.  The error's text
 * stays Python's; this is said under it. */
static char *
error_hint (const GError *error)
{
  static const char prefix[] = "name '";
  static const char suffix[] = "' is not defined";
  const char       *name = strstr (error->message, prefix);
  const char       *end;

  if (name == NULL || !g_str_has_suffix (error->message, suffix))
    return NULL;
  name += strlen (prefix);
  end = error->message + strlen (error->message) - strlen (suffix);
  for (guint i = 0; i < G_N_ELEMENTS (module_imports); i++)
    if (strlen (module_imports[i].name) == (gsize) (end - name) &&
        strncmp (name, module_imports[i].name, end - name) == 0)
      return g_strdup_printf ("Add “%s” at the top of the text.", module_imports[i].import);
  return NULL;
}

/**
 * graft_pattern_editor_set_error:
 * @self: an editor
 * @error: (nullable): the located error of the text, or %NULL
 *
 * Underlines the place of @error and shows its message.
 */
void
graft_pattern_editor_set_error (GraftPatternEditor *self,
                                const GError       *error)
{
  GtkTextBuffer *buffer;
  GtkTextIter    start;
  GtkTextIter    end;
  guint          line = 0;
  guint          column = 0;
  guint          end_line = 0;
  guint          end_column = 0;

  g_return_if_fail (GRAFT_IS_PATTERN_EDITOR (self));
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag (buffer, error_tag (self), &start, &end);
  g_clear_pointer (&self->error_text, g_free);

  if (error == NULL)
    {
      gtk_revealer_set_reveal_child (self->error_revealer, FALSE);
      return;
    }

  self->error_text = graft_error_format (error, NULL);
  gtk_label_set_text (self->error_label, self->error_text);
  {
    g_autofree char *hint = error_hint (error);

    gtk_label_set_text (self->error_hint, hint != NULL ? hint : "");
    gtk_widget_set_visible (GTK_WIDGET (self->error_hint), hint != NULL);
  }
  gtk_revealer_set_reveal_child (self->error_revealer, TRUE);
  if (!graft_error_get_location (error, NULL, &line, &column, &end_line, &end_column) || line == 0)
    return;

  /* Lines and columns count from 1; columns are characters. */
  if (!gtk_text_buffer_get_iter_at_line_offset (buffer, &start, (int) line - 1, (int) column - 1))
    gtk_text_buffer_get_iter_at_line (buffer, &start, (int) line - 1);
  end = start;
  if (end_line > line || (end_line == line && end_column > column))
    {
      if (!gtk_text_buffer_get_iter_at_line_offset (buffer, &end, (int) end_line - 1,
                                                    (int) end_column - 1))
        gtk_text_iter_forward_to_line_end (&end);
    }
  else if (!gtk_text_iter_ends_word (&end) && gtk_text_iter_inside_word (&end))
    gtk_text_iter_forward_word_end (&end);
  else
    gtk_text_iter_forward_char (&end);
  if (gtk_text_iter_equal (&start, &end))
    {
      /* At the end of a line: underline what comes before. */
      gtk_text_iter_backward_char (&start);
    }
  gtk_text_buffer_apply_tag (buffer, error_tag (self), &start, &end);
}

/**
 * graft_pattern_editor_get_error_hint:
 * @self: an editor
 *
 * Returns: (nullable): what the editor says to do about its error
 * (`Add “import torch” at the top of the text.`), if anything
 */
const char *
graft_pattern_editor_get_error_hint (GraftPatternEditor *self)
{
  g_return_val_if_fail (GRAFT_IS_PATTERN_EDITOR (self), NULL);
  if (self->error_text == NULL || !gtk_widget_get_visible (GTK_WIDGET (self->error_hint)))
    return NULL;
  return gtk_label_get_text (self->error_hint);
}

/**
 * graft_pattern_editor_get_error_text:
 * @self: an editor
 *
 * Returns: (nullable): the error line shown, `pattern:3:12: error: ...`
 */
const char *
graft_pattern_editor_get_error_text (GraftPatternEditor *self)
{
  g_return_val_if_fail (GRAFT_IS_PATTERN_EDITOR (self), NULL);
  return self->error_text;
}

/**
 * graft_pattern_editor_set_graph:
 * @self: an editor
 * @graph: (nullable): the graph to preview
 *
 * Lays @graph out (patterns are small) and shows it whole.
 */
void
graft_pattern_editor_set_graph (GraftPatternEditor *self,
                                GraftGraph         *graph)
{
  GraftLayout *layout = NULL;

  g_return_if_fail (GRAFT_IS_PATTERN_EDITOR (self));
  if (graph != NULL && graft_graph_get_n_nodes (graph) <= GRAFT_MAX_SEGMENT_NODES)
    layout = graft_layout_new (graph, NULL);
  graft_canvas_set_layout (self->preview, layout, FALSE);
  gtk_stack_set_visible_child_name (self->preview_stack, layout != NULL ? "preview" : "empty");
}

static gboolean
query_tooltip_cb (GtkWidget          *widget,
                  int                 x,
                  int                 y,
                  gboolean            keyboard,
                  GtkTooltip         *tooltip,
                  GraftPatternEditor *self)
{
  GtkTextIter iter;
  int         bx;
  int         by;

  if (self->error_text == NULL)
    return FALSE;
  gtk_text_view_window_to_buffer_coords (GTK_TEXT_VIEW (self->view), GTK_TEXT_WINDOW_WIDGET, x, y,
                                         &bx, &by);
  if (!gtk_text_view_get_iter_at_location (GTK_TEXT_VIEW (self->view), &iter, bx, by))
    return FALSE;
  if (!gtk_text_iter_has_tag (&iter, error_tag (self)))
    return FALSE;
  gtk_tooltip_set_text (tooltip, self->error_text);
  return TRUE;
}

static void
follow_style_cb (AdwStyleManager *manager,
                 GParamSpec      *pspec,
                 GtkSourceBuffer *buffer)
{
  GtkSourceStyleScheme *scheme =
      gtk_source_style_scheme_manager_get_scheme (gtk_source_style_scheme_manager_get_default (),
                                                  adw_style_manager_get_dark (manager)
                                                      ? "Adwaita-dark"
                                                      : "Adwaita");

  if (scheme != NULL)
    gtk_source_buffer_set_style_scheme (buffer, scheme);
}

static void
stop_scroll_cb (GtkWidget *view,
                gpointer   user_data)
{
  GtkScrollable *scrollable = GTK_SCROLLABLE (view);
  GtkAdjustment *adjustments[2] = { gtk_scrollable_get_hadjustment (scrollable),
                                    gtk_scrollable_get_vadjustment (scrollable) };

  /* Set without animation: the animation's tick goes. */
  for (guint i = 0; i < G_N_ELEMENTS (adjustments); i++)
    if (adjustments[i] != NULL)
      gtk_adjustment_set_value (adjustments[i], gtk_adjustment_get_value (adjustments[i]));
}

/**
 * graft_text_view_stop_scroll_on_unmap:
 * @view: a text view, the child of a scrolled window
 *
 * Stops a scroll of @view still animated (gtk_text_view_scroll_to_iter(),
 * _scroll_mark_onscreen()) where it is when @view is unmapped (its window
 * closing, its page left).  GTK 4.8's scrolled window, unmapped after its
 * child, ends the animation by setting its target value, whose
 * ::value-changed reaches the text view, which sets the value again and
 * ends the animation under it: the scrolled window then disconnects a
 * tick handler of id 0, a critical (fatal in the tests: seen once frames
 * were painted while jobs run by steps).  Stopped first, there is none.
 */
void
graft_text_view_stop_scroll_on_unmap (GtkTextView *view)
{
  g_return_if_fail (GTK_IS_SCROLLABLE (view));
  g_signal_connect (view, "unmap", G_CALLBACK (stop_scroll_cb), NULL);
}

/**
 * graft_source_buffer_follow_style:
 * @buffer: a source buffer
 *
 * Colours @buffer with the Adwaita scheme of the system's light or dark
 * style, now and whenever the style changes, for as long as @buffer
 * lives.  Every code view of the editor uses it.
 */
void
graft_source_buffer_follow_style (GtkSourceBuffer *buffer)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();

  follow_style_cb (manager, NULL, buffer);
  g_signal_connect_object (manager, "notify::dark", G_CALLBACK (follow_style_cb), buffer, 0);
}

/* Where the line of the cursor is, in the vertical adjustment's units
 * (counted from the text's top margin). */
static void
cursor_line_extent (GraftPatternEditor *self,
                    double             *top,
                    double             *bottom)
{
  GtkTextView   *view = GTK_TEXT_VIEW (self->view);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextIter    cursor;
  GdkRectangle   line;

  gtk_text_buffer_get_iter_at_mark (buffer, &cursor, gtk_text_buffer_get_insert (buffer));
  gtk_text_view_get_iter_location (view, &cursor, &line);
  *top = line.y + gtk_text_view_get_top_margin (view);
  *bottom = *top + line.height;
}

/* The frame after the allocation that shrank the view: the cursor's
 * line, gone under its bottom, comes back in view. */
static gboolean
keep_cursor_tick_cb (GtkWidget     *widget,
                     GdkFrameClock *clock,
                     gpointer       user_data)
{
  GraftPatternEditor *self = user_data;
  GtkAdjustment      *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->view));
  double              value = gtk_adjustment_get_value (adjustment);
  double              page_size = gtk_adjustment_get_page_size (adjustment);
  double              top;
  double              bottom;

  self->keep_cursor_id = 0;
  cursor_line_extent (self, &top, &bottom);
  if (top >= value && bottom > value + page_size)
    gtk_adjustment_set_value (adjustment, MIN (top, bottom - page_size));
  return G_SOURCE_REMOVE;
}

/* The text's view grew shorter (the error shown under it, the window
 * made smaller) while the text is its window's focus: the line of the
 * cursor, whole in view before, is brought back in view rather than left
 * under the error's bar.  It is moved from a tick callback, in the next
 * frame's update, never in this allocation: a value set while the
 * scrolled window allocates has its scrollbar's slider snapshotted
 * unallocated (GTK's fatal "Trying to snapshot GtkGizmo without a
 * current allocation", the first version's, reverted). */
static void
page_size_cb (GtkAdjustment      *adjustment,
              GParamSpec         *pspec,
              GraftPatternEditor *self)
{
  double old_page_size = self->page_size;
  double page_size = gtk_adjustment_get_page_size (adjustment);
  double value = gtk_adjustment_get_value (adjustment);
  double top;
  double bottom;

  self->page_size = page_size;
  if (page_size >= old_page_size || self->keep_cursor_id != 0 ||
      !gtk_widget_is_focus (GTK_WIDGET (self->view)))
    return;
  cursor_line_extent (self, &top, &bottom);
  if (top >= value && bottom <= value + old_page_size && bottom > value + page_size)
    self->keep_cursor_id =
        gtk_widget_add_tick_callback (GTK_WIDGET (self->view), keep_cursor_tick_cb, self, NULL);
}

/* The completion popup (a GtkPopover, child of the view) was one row
 * high when shown before its list had its rows.  GtkSourceView 5.6's list
 * updates its rows in a tick callback after the popup is shown (after
 * Escape they are all hidden, the context emptied), so the popup is first
 * presented at the height of no rows (64 pixels, one row showing).  The
 * rows made visible then queue a resize, but GTK 4.8 allocates the popup
 * at its surface's old size from the window's layout (the view itself
 * not being allocated again: its size is the same), and
 * gtk_popover_present(), which the view calls in its size_allocate, sizes
 * the surface again only for a popup still waiting for its allocation.
 * Typing allocated the view anyway (a character typed changes the text,
 * so `torch.` typed showed five rows); Ctrl+Space, or a dot typed with the
 * view's height settled under the error's bar, did not.
 *
 * So each time the popup's surface is laid out with a natural size other
 * than the one last asked, the next frame queues the popup's resize and
 * the view's allocation, which presents the popup at its natural size.
 * Once per size: a surface the screen's edge keeps smaller than asked is
 * not asked again. */
static gboolean
popup_tick_cb (GtkWidget     *widget,
               GdkFrameClock *clock,
               gpointer       user_data)
{
  GraftPatternEditor *self = user_data;

  self->popup_tick_id = 0;
  /* gtk_popover_present() measures the popup again only if the popup
   * waits for its allocation; the view's allocation presents it. */
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER (child) && gtk_widget_get_mapped (child))
      gtk_widget_queue_resize (child);
  gtk_widget_queue_allocate (widget);
  return G_SOURCE_REMOVE;
}

static void
popup_layout_cb (GdkSurface         *surface,
                 int                 width,
                 int                 height,
                 GraftPatternEditor *self)
{
  GtkWidget     *popup = GTK_WIDGET (gtk_native_get_for_surface (surface));
  GtkRequisition natural;

  if (popup == NULL || !gtk_widget_get_mapped (popup))
    return;
  gtk_widget_get_preferred_size (popup, NULL, &natural);
  if ((natural.width == width && natural.height == height) ||
      (natural.width == self->popup_asked.width && natural.height == self->popup_asked.height))
    return;
  self->popup_asked = natural;
  if (self->popup_tick_id == 0)
    self->popup_tick_id =
        gtk_widget_add_tick_callback (GTK_WIDGET (self->view), popup_tick_cb, self, NULL);
}

static void
popup_realized_cb (GtkWidget          *popup,
                   GraftPatternEditor *self)
{
  g_signal_connect_object (gtk_native_get_surface (GTK_NATIVE (popup)), "layout",
                           G_CALLBACK (popup_layout_cb), self, G_CONNECT_AFTER);
}

/* The completion shows its popup: the popups of the view (created when
 * first shown) are watched from then on. */
static void
completion_shown_cb (GtkSourceCompletion *completion,
                     GraftPatternEditor  *self)
{
  self->popup_asked = (GtkRequisition){ -1, -1 };
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->view)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (!GTK_IS_POPOVER (child) || g_object_get_data (G_OBJECT (child), "graft-watched") != NULL)
        continue;
      g_object_set_data (G_OBJECT (child), "graft-watched", GINT_TO_POINTER (TRUE));
      g_signal_connect_object (child, "realize", G_CALLBACK (popup_realized_cb), self,
                               G_CONNECT_AFTER);
      if (gtk_widget_get_realized (child))
        popup_realized_cb (child, self);
    }
}

static void
graft_pattern_editor_dispose (GObject *object)
{
  GraftPatternEditor *self = GRAFT_PATTERN_EDITOR (object);

  GtkWidget *child;

  g_clear_handle_id (&self->debounce_id, g_source_remove);
  if (self->keep_cursor_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self->view), self->keep_cursor_id);
      self->keep_cursor_id = 0;
    }
  if (self->popup_tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self->view), self->popup_tick_id);
      self->popup_tick_id = 0;
    }
  if (self->completion != NULL)
    graft_completion_set_document (self->completion, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), GRAFT_TYPE_PATTERN_EDITOR);
  /* Children the template does not name (the separator) go too. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (graft_pattern_editor_parent_class)->dispose (object);
}

static void
graft_pattern_editor_finalize (GObject *object)
{
  GraftPatternEditor *self = GRAFT_PATTERN_EDITOR (object);

  g_free (self->error_text);
  g_clear_object (&self->completion);
  g_clear_object (&self->words);
  G_OBJECT_CLASS (graft_pattern_editor_parent_class)->finalize (object);
}

static void
graft_pattern_editor_class_init (GraftPatternEditorClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = graft_pattern_editor_dispose;
  object_class->finalize = graft_pattern_editor_finalize;

  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /* GtkSourceView's own style sheet (the completion popup's background
   * and rows) and icons come with its initialization. */
  gtk_source_init ();
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  g_type_ensure (GRAFT_TYPE_CANVAS);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_PATH "/graft-pattern-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, GraftPatternEditor, caption);
  gtk_widget_class_bind_template_child (widget_class, GraftPatternEditor, view);
  gtk_widget_class_bind_template_child (widget_class, GraftPatternEditor, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, GraftPatternEditor, error_label);
  gtk_widget_class_bind_template_child (widget_class, GraftPatternEditor, error_hint);
  gtk_widget_class_bind_template_child (widget_class, GraftPatternEditor, preview_stack);
  gtk_widget_class_bind_template_child (widget_class, GraftPatternEditor, preview);
  gtk_widget_class_set_css_name (widget_class, "graftpatterneditor");
}

static void
graft_pattern_editor_init (GraftPatternEditor *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  GtkSourceLanguage        *python;
  GtkTextBuffer            *buffer;

  gtk_widget_init_template (GTK_WIDGET (self));
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
  python = gtk_source_language_manager_get_language (languages, "python3");
  if (python != NULL)
    gtk_source_buffer_set_language (GTK_SOURCE_BUFFER (buffer), python);
  {
    g_autoptr (GtkSourceIndenter) indenter = g_object_new (GRAFT_TYPE_PYTHON_INDENTER, NULL);

    gtk_source_view_set_indenter (self->view, indenter);
  }
  {
    GtkSourceCompletion *completion = gtk_source_view_get_completion (self->view);

    self->completion = graft_completion_new ();
    self->words = graft_completion_words_new (self->completion);
    gtk_source_completion_words_register (self->words, buffer);
    gtk_source_completion_add_provider (completion,
                                        GTK_SOURCE_COMPLETION_PROVIDER (self->completion));
    gtk_source_completion_add_provider (completion, GTK_SOURCE_COMPLETION_PROVIDER (self->words));
    g_signal_connect_object (completion, "show", G_CALLBACK (completion_shown_cb), self,
                             G_CONNECT_AFTER);
  }
  graft_canvas_set_interactive (self->preview, FALSE);
  gtk_stack_set_visible_child_name (self->preview_stack, "empty");
  graft_source_buffer_follow_style (GTK_SOURCE_BUFFER (buffer));
  graft_text_view_stop_scroll_on_unmap (GTK_TEXT_VIEW (self->view));
  g_signal_connect (buffer, "changed", G_CALLBACK (buffer_changed_cb), self);
  g_signal_connect (self->view, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
  g_signal_connect_object (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->view)),
                           "notify::page-size", G_CALLBACK (page_size_cb), self, 0);
}
