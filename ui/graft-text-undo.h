/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-text-undo.h: undoing a replacement of the pattern and replacement
 * editors' texts by a command that fills them (see graft-text-undo.c).
 */
#pragma once

#include <adwaita.h>

#include "graft-document.h"
#include "graft-pattern-editor.h"

G_BEGIN_DECLS

typedef struct _GraftTextUndo GraftTextUndo;

GraftTextUndo *graft_text_undo_new (GraftPatternEditor *pattern_editor,
                                    GraftPatternEditor *replacement_editor,
                                    GraftDocument      *document) G_GNUC_WARN_UNUSED_RESULT;
void           graft_text_undo_free (GraftTextUndo *self);
gboolean       graft_text_undo_replace (GraftTextUndo *self,
                                        const char    *pattern,
                                        const char    *replacement);
void           graft_text_undo_set_toast (GraftTextUndo *self,
                                          AdwToast      *toast);
void           graft_text_undo_toast_dismissed (GraftTextUndo *self,
                                                AdwToast      *toast);
void           graft_text_undo_texts_changed (GraftTextUndo *self);
gboolean       graft_text_undo_get_undoable (GraftTextUndo *self,
                                             GtkTextBuffer *buffer);
gboolean       graft_text_undo_get_redoable (GraftTextUndo *self,
                                             GtkTextBuffer *buffer);
gboolean       graft_text_undo_undo (GraftTextUndo *self);
void           graft_text_undo_redo (GraftTextUndo *self);

G_END_DECLS
