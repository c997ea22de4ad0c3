/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-window-open.c: opening a file from a window (Open, Open Recent, a
 * drop).  A window that shows nothing, or whose graph has no unsaved
 * changes, no rule set and no work under way that changes it or holds it
 * (a Replace All or Run All by steps, a move in the history, a switch of
 * torch, a comparison), shows the new file in its place, as GNOME's
 * document apps reuse a window they would lose nothing in; otherwise the
 * file opens in a new window, and the old one keeps its work.  Either way
 * the pattern and replacement the user was working on come along: once
 * the new file is read, they replace the file's own (a file that defines
 * `pattern` and `replacement` fills the editors with them) as one step of
 * each editor's undo history, which the toast's Undo takes back.  Texts
 * nobody wrote (a new window's) stay behind, so that a file's own pattern
 * shows.
 */
#include "config.h"

#include "graft-window-private.h"

/* Whether @self would lose nothing by showing another file. */
static gboolean
can_replace (GraftWindow *self)
{
  if (graft_window_is_empty (self))
    return TRUE;
  /* A Replace All under way is no change yet (the history moves at its
   * end), but the file's reading would finish it at once (at a million
   * nodes a turn of 22-34 ms) only to throw it away. */
  return !self->loading && !graft_document_get_modified (self->document) &&
         !graft_document_get_holding (self->document) &&
         graft_document_get_n_rules (self->document) == 1 &&
         !graft_document_get_keeps_rules (self->document);
}

/**
 * _graft_window_open_from:
 * @self: the window the user opened @file from
 * @file: a graph to open
 *
 * Opens @file in @self or in a new window (see the file's comment),
 * bringing the pattern and replacement along.
 *
 * Returns: (transfer none): the window that shows @file
 */
GraftWindow *
_graft_window_open_from (GraftWindow *self,
                         GFile       *file)
{
  GraftWindow *target = self;

  _graft_window_flush_editors (self);
  if (!can_replace (self))
    {
      GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

      target = g_object_new (GRAFT_TYPE_WINDOW, "application", app, NULL);
      gtk_window_present (GTK_WINDOW (target));
    }
  g_clear_pointer (&target->carry_pattern, g_free);
  g_clear_pointer (&target->carry_replacement, g_free);
  if (!graft_document_get_texts_are_default (self->document))
    {
      target->carry_pattern = g_strdup (graft_document_get_pattern_text (self->document));
      target->carry_replacement = g_strdup (graft_document_get_replacement_text (self->document));
    }
  graft_window_open_file (target, file);
  return target;
}

/**
 * _graft_window_apply_carried:
 * @self: a window that has just read a file
 *
 * Puts the texts _graft_window_open_from() brought along in the editors,
 * undoably, when they differ from what the file gave them.
 */
void
_graft_window_apply_carried (GraftWindow *self)
{
  g_autofree char *pattern = g_steal_pointer (&self->carry_pattern);
  g_autofree char *replacement = g_steal_pointer (&self->carry_replacement);
  gboolean         same_pattern;
  gboolean         same_replacement;

  /* A session brings its own rule set, which stays as it was saved. */
  if (pattern == NULL || replacement == NULL || graft_document_get_keeps_rules (self->document))
    return;
  same_pattern = g_strcmp0 (pattern, graft_document_get_pattern_text (self->document)) == 0;
  same_replacement =
      g_strcmp0 (replacement, graft_document_get_replacement_text (self->document)) == 0;
  if (same_pattern && same_replacement)
    return;
  _graft_window_replace_texts (self, same_pattern ? NULL : pattern,
                               same_replacement ? NULL : replacement,
                               "Kept the pattern and replacement you were working on");
}
