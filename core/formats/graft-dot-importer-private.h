/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-dot-importer-private.h: the state shared by the two DOT importers,
 * of Graft's own DOT (graft-dot-import-graft.c) and of plain DOT
 * (graft-dot-import-plain.c), which graft_dot_parse() (graft-dot-reader.c)
 * chooses between.
 */
#pragma once

#include "graft-dot-scanner-private.h"
#include "graft-dialect.h"
#include "graft-error.h"
#include "graft-gv-private.h"

G_BEGIN_DECLS

/* A DOT document that cgraph has read, being made a graph. */
typedef struct
{
  /* Borrowed */
  GraftSource        *source;
  GraftGvDoc         *doc;
  const GraftDialect *dialect; /* static */

  /* Owned */
  GHashTable *index; /* document node name -> index + 1 */
  Span       *spans; /* per document node: its first appearance */
} Importer;

static inline GraftGvDocNode *
doc_node (Importer *im,
          guint     i)
{
  return g_ptr_array_index (im->doc->nodes, i);
}

void        _graft_dot_node_error (Importer           *im,
                                   guint               i,
                                   GError            **error,
                                   GraftParseErrorCode code,
                                   const char         *format,
                                   ...) G_GNUC_PRINTF (5, 6);
GraftGraph *_graft_dot_import_graft (Importer *im,
                                     GError  **error);
GraftGraph *_graft_dot_import_plain (Importer *im,
                                     GError  **error);

G_END_DECLS
