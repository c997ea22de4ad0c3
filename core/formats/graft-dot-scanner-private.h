/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-dot-scanner-private.h: where the nodes and graph attributes of a
 * DOT text are, and the checks of a text before cgraph reads it
 * (graft-dot-scanner.c).
 */
#pragma once

#include "graft-types.h"

G_BEGIN_DECLS

/* Where a node first appears in the text. */
typedef struct
{
  guint32  start;
  guint32  end;
  gboolean found;
} Span;

void     _graft_dot_find_node_spans (const char *text,
                                     gsize       length,
                                     GHashTable *index,
                                     Span       *spans);
gboolean _graft_dot_find_graph_attr_span (const char *text,
                                          gsize       length,
                                          const char *name,
                                          Span       *span);
gboolean _graft_dot_check_text (GraftSource *source,
                                GError     **error);

G_END_DECLS
