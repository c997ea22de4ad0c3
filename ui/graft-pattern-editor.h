/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pattern-editor.h: a Python editor for a pattern or a replacement,
 * with its errors underlined and a preview of its graph.
 */
#pragma once

#include <gtk/gtk.h>
#include <gtksourceview/gtksource.h>

#include "graft-view.h"
#include "graft-completion.h"
#include "graft-document.h"

G_BEGIN_DECLS

#define GRAFT_TYPE_PATTERN_EDITOR (graft_pattern_editor_get_type ())

G_DECLARE_FINAL_TYPE (GraftPatternEditor, graft_pattern_editor, GRAFT, PATTERN_EDITOR, GtkWidget)

GtkWidget       *graft_pattern_editor_new (void) G_GNUC_WARN_UNUSED_RESULT;
char            *graft_pattern_editor_dup_text (GraftPatternEditor *self) G_GNUC_WARN_UNUSED_RESULT;
void             graft_pattern_editor_set_text (GraftPatternEditor *self,
                                                const char         *text);
void             graft_pattern_editor_replace_text (GraftPatternEditor *self,
                                                    const char         *text);
void             graft_pattern_editor_edit_body (GraftPatternEditor *self);
void             graft_pattern_editor_scroll_to_cursor (GraftPatternEditor *self);
void             graft_pattern_editor_set_error (GraftPatternEditor *self,
                                                 const GError       *error);
void             graft_pattern_editor_set_graph (GraftPatternEditor *self,
                                                 GraftGraph         *graph);
const char      *graft_pattern_editor_get_error_text (GraftPatternEditor *self);
const char      *graft_pattern_editor_get_error_hint (GraftPatternEditor *self);
GtkTextBuffer   *graft_pattern_editor_get_buffer (GraftPatternEditor *self);
GtkTextBuffer   *graft_pattern_editor_new_buffer (const char *text) G_GNUC_WARN_UNUSED_RESULT;
void             graft_pattern_editor_set_buffer (GraftPatternEditor *self,
                                                  GtkTextBuffer      *buffer);
void             graft_source_buffer_follow_style (GtkSourceBuffer *buffer);
void             graft_text_view_stop_scroll_on_unmap (GtkTextView *view);
void             graft_pattern_editor_flush (GraftPatternEditor *self);
void             graft_pattern_editor_set_document (GraftPatternEditor *self,
                                                    GraftDocument      *document);
GraftCompletion *graft_pattern_editor_get_completion (GraftPatternEditor *self);
void             graft_pattern_editor_set_caption (GraftPatternEditor *self,
                                                   const char         *caption);

G_END_DECLS
