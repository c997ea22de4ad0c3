/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-completion.h: what the pattern and replacement editors offer to
 * complete after a dot: the tracer's names, the graph's aten overloads,
 * the loaded module's submodules.
 */
#pragma once

#include <gtksourceview/gtksource.h>

#include "graft-document.h"

G_BEGIN_DECLS

#define GRAFT_TYPE_COMPLETION (graft_completion_get_type ())

G_DECLARE_FINAL_TYPE (GraftCompletion, graft_completion, GRAFT, COMPLETION, GObject)

GraftCompletion *graft_completion_new (void) G_GNUC_WARN_UNUSED_RESULT;
void             graft_completion_set_document (GraftCompletion *self,
                                                GraftDocument   *document);
gboolean         graft_completion_get_collected (GraftCompletion *self);
char           **graft_completion_dup_texts (GraftCompletion   *self,
                                             GtkTextBuffer     *buffer,
                                             const GtkTextIter *at) G_GNUC_WARN_UNUSED_RESULT;

#define GRAFT_TYPE_COMPLETION_WORDS (graft_completion_words_get_type ())

G_DECLARE_FINAL_TYPE (GraftCompletionWords,
                      graft_completion_words,
                      GRAFT,
                      COMPLETION_WORDS,
                      GtkSourceCompletionWords)

GtkSourceCompletionWords *graft_completion_words_new (GraftCompletion *graft)
    G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
