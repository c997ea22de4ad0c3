/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-document-private.h: what graft-document-loader.c needs of a
 * document to put a graph it read into it.  Only the document's own files
 * include it.
 */
#pragma once

#include "graft-document.h"

G_BEGIN_DECLS

void _graft_document_set_loaded_file (GraftDocument *self,
                                      GFile         *file,
                                      GraftRecovery *recovery);
void _graft_document_load_graph (GraftDocument *self,
                                 GraftSource   *source,
                                 GraftGraph    *graph,
                                 GError        *error,
                                 char          *code,
                                 char          *pattern,
                                 char          *replacement);

G_END_DECLS
