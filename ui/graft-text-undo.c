/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-text-undo.c: the undo of the last replacement of the editors'
 * texts.  A command that fills the pattern and replacement editors
 * (restoring unsaved work, opening a rewrite's texts) must not lose what
 * was written by hand: graft_text_undo_replace() puts the new texts in as
 * one step of each editor's own undo history and remembers which editors
 * it changed; graft_text_undo_undo() then undoes that step in each of
 * them, as long as nothing else has changed their texts since (after
 * that, the editor's own undo still has it).  A text's undo puts its
 * cursor back where it was before the step; its redo would leave it at
 * the end of the text, so graft_text_undo_redo() puts it back where it
 * was when the step was undone (in the replacement, at the body where
 * the command left it).  The window shows the toast
 * that offers the undo and hands it over with graft_text_undo_set_toast();
 * the toast's Undo is withdrawn as soon as the offer is stale (the toast
 * is left to go by itself: see show_toast() in graft-window.c).
 */
#include "config.h"

#include "graft-text-undo.h"

#include <string.h>

struct _GraftTextUndo
{
  /* Borrowed: the window's, which outlives this */
  GraftPatternEditor *editors[2]; /* the pattern's and the replacement's */
  GraftDocument      *document;
  AdwToast           *toast; /* offers the undo, or NULL; NULL once it no longer does */

  /* Owned: the buffers the last replacement changed (a rule set gives each
   * rule its own, and another rule may be shown when the undo comes) */
  GtkTextBuffer *buffers[2];

  gboolean replaced[2]; /* which editors (pattern, replacement) the last replacement changed */
  gint     cursor[2];   /* where each one's cursor was (a character offset) when it was undone */
  gboolean undoable;    /* and nothing else has changed them since */
  gboolean redoable;    /* undone, and nothing has changed them since */
  gboolean replacing;   /* the texts are being replaced: their changes are ours */
};

/**
 * graft_text_undo_new:
 * @pattern_editor: the pattern's editor
 * @replacement_editor: the replacement's editor
 * @document: the document the editors' texts go to
 *
 * All three are borrowed and must outlive the result.
 *
 * Returns: (transfer full): nothing to undo yet
 */
GraftTextUndo *
graft_text_undo_new (GraftPatternEditor *pattern_editor,
                     GraftPatternEditor *replacement_editor,
                     GraftDocument      *document)
{
  GraftTextUndo *self = g_new0 (GraftTextUndo, 1);

  self->editors[0] = pattern_editor;
  self->editors[1] = replacement_editor;
  self->document = document;
  return self;
}

void
graft_text_undo_free (GraftTextUndo *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->buffers[0]);
  g_clear_object (&self->buffers[1]);
  g_free (self);
}

/* The offer is stale: the toast keeps its message and loses its Undo. */
static void
withdraw_offer (GraftTextUndo *self)
{
  if (self->toast == NULL)
    return;
  adw_toast_set_button_label (self->toast, NULL);
  adw_toast_set_action_name (self->toast, NULL);
  self->toast = NULL;
}

/**
 * graft_text_undo_replace:
 * @self: a text undo
 * @pattern: (nullable): the pattern's new text, or %NULL to keep it
 * @replacement: (nullable): the replacement's new text, or %NULL to keep it
 *
 * Puts new texts in the editors and the document, each as one step of its
 * editor's undo history, and remembers which changed for
 * graft_text_undo_undo().  Withdraws the offer of the replacement before.
 *
 * Returns: whether a text changed, so that there is something to undo
 */
gboolean
graft_text_undo_replace (GraftTextUndo *self,
                         const char    *pattern,
                         const char    *replacement)
{
  g_autofree char *old_pattern = graft_pattern_editor_dup_text (self->editors[0]);
  g_autofree char *old_replacement = graft_pattern_editor_dup_text (self->editors[1]);

  withdraw_offer (self);
  self->replacing = TRUE;
  self->replaced[0] = pattern != NULL && strcmp (pattern, old_pattern) != 0;
  self->replaced[1] = replacement != NULL && strcmp (replacement, old_replacement) != 0;
  /* A pending edit of the old text is applied first, so that it does not
   * land after the new one. */
  graft_pattern_editor_flush (self->editors[0]);
  graft_pattern_editor_flush (self->editors[1]);
  for (guint i = 0; i < 2; i++)
    g_set_object (&self->buffers[i], graft_pattern_editor_get_buffer (self->editors[i]));
  if (self->replaced[1])
    {
      graft_pattern_editor_replace_text (self->editors[1], replacement);
      graft_document_set_replacement_text (self->document, replacement);
    }
  if (self->replaced[0])
    {
      graft_pattern_editor_replace_text (self->editors[0], pattern);
      graft_document_set_pattern_text (self->document, pattern);
    }
  self->replacing = FALSE;
  self->undoable = self->replaced[0] || self->replaced[1];
  self->redoable = FALSE;
  return self->undoable;
}

/* @toast (borrowed) offers the undo of the last replacement; the window
 * reports with graft_text_undo_toast_dismissed() that it no longer does
 * (dismissed, or showing another message). */
void
graft_text_undo_set_toast (GraftTextUndo *self,
                           AdwToast      *toast)
{
  self->toast = toast;
}

/* @toast no longer offers what it did: if it was the one that offers the
 * undo, there is no offer to withdraw any more. */
void
graft_text_undo_toast_dismissed (GraftTextUndo *self,
                                 AdwToast      *toast)
{
  if (self->toast == toast)
    self->toast = NULL;
}

/* An editor's text changed (its buffer's ::changed).  Any change but the
 * replacement's own makes the offer stale: the editor's own undo still
 * has the replacement. */
void
graft_text_undo_texts_changed (GraftTextUndo *self)
{
  if (self->replacing)
    return;
  self->undoable = FALSE;
  self->redoable = FALSE;
  withdraw_offer (self);
}

/* Whether @buffer is one of the texts the last replacement was of (the
 * same rule's: another rule's editor keeps its own undo). */
static gboolean
of_replacement (GraftTextUndo *self,
                GtkTextBuffer *buffer)
{
  return buffer != NULL && (buffer == self->buffers[0] || buffer == self->buffers[1]);
}

/**
 * graft_text_undo_get_undoable:
 * @self: a text undo
 * @buffer: the text being edited
 *
 * Returns: whether the last replacement of the texts, of @buffer's rule,
 *   is the last change of the editors, so that graft_text_undo_undo()
 *   gives them back
 */
gboolean
graft_text_undo_get_undoable (GraftTextUndo *self,
                              GtkTextBuffer *buffer)
{
  return self->undoable && of_replacement (self, buffer);
}

/**
 * graft_text_undo_get_redoable:
 * @self: a text undo
 * @buffer: the text being edited
 *
 * Returns: whether graft_text_undo_undo() of @buffer's rule was the last
 *   change of the editors, so that graft_text_undo_redo() puts the
 *   replacement back
 */
gboolean
graft_text_undo_get_redoable (GraftTextUndo *self,
                              GtkTextBuffer *buffer)
{
  return self->redoable && of_replacement (self, buffer);
}

/* Undoes (@redo FALSE) or redoes the replacement's step in each buffer it
 * changed, shown or not (the window sends a buffer not shown to the
 * document itself). */
static void
step_buffers (GraftTextUndo *self,
              gboolean       redo)
{
  self->replacing = TRUE;
  for (guint i = 0; i < 2; i++)
    if (self->replaced[i] && self->buffers[i] != NULL)
      {
        GtkTextBuffer *buffer = self->buffers[i];
        gboolean       shown = graft_pattern_editor_get_buffer (self->editors[i]) == buffer;
        GtkTextIter    cursor;

        if (redo)
          {
            gtk_text_buffer_redo (buffer);
            gtk_text_buffer_get_iter_at_offset (buffer, &cursor, self->cursor[i]);
            gtk_text_buffer_place_cursor (buffer, &cursor);
          }
        else
          {
            gtk_text_buffer_get_iter_at_mark (buffer, &cursor, gtk_text_buffer_get_insert (buffer));
            self->cursor[i] = gtk_text_iter_get_offset (&cursor);
            gtk_text_buffer_undo (buffer);
          }
        if (shown)
          {
            graft_pattern_editor_flush (self->editors[i]);
            graft_pattern_editor_scroll_to_cursor (self->editors[i]);
          }
      }
  self->replacing = FALSE;
  self->undoable = redo;
  self->redoable = !redo;
}

/**
 * graft_text_undo_redo:
 * @self: a text undo
 *
 * After graft_text_undo_undo(), if nothing has changed the editors'
 * texts since: puts the replacement back in both, undoable again.
 */
void
graft_text_undo_redo (GraftTextUndo *self)
{
  if (self->redoable)
    step_buffers (self, TRUE);
}

/**
 * graft_text_undo_undo:
 * @self: a text undo
 *
 * The toast's Undo after graft_text_undo_replace(): gives the editors back
 * the texts they had, if nothing has changed them since (each editor's own
 * undo history then still ends with the replacement).  Withdraws the
 * toast's offer either way.
 *
 * Returns: whether it undid the replacement while the toast still
 *   offered it (so that the toast's message is about texts gone now)
 */
gboolean
graft_text_undo_undo (GraftTextUndo *self)
{
  gboolean offered = self->toast != NULL && self->undoable;
  gboolean undone = self->undoable;

  withdraw_offer (self);
  if (undone)
    step_buffers (self, FALSE);
  return offered;
}
