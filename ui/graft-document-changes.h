/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-document-changes.h: the code before and after the last change of
 * the graph, made without stopping the main loop (Show Changes).
 */
#pragma once

#include "graft-document.h"

G_BEGIN_DECLS

typedef struct _GraftChangeTexts GraftChangeTexts;

struct _GraftChangeTexts
{
  char *label;  /* what the history calls the change */
  char *before; /* the graph's code before it */
  char *after;  /* and after it */
};

void              graft_change_texts_free (GraftChangeTexts *texts);
void              graft_document_last_change_async (GraftDocument      *self,
                                                    GCancellable       *cancellable,
                                                    GAsyncReadyCallback callback,
                                                    gpointer            user_data);
GraftChangeTexts *graft_document_last_change_finish (GAsyncResult *result,
                                                     GError      **error) G_GNUC_WARN_UNUSED_RESULT;

void _graft_document_set_change_step (guint n_nodes);
void _graft_document_set_change_copy_piece (gsize n_bytes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftChangeTexts, graft_change_texts_free)

G_END_DECLS
