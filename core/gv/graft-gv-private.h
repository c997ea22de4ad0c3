/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-gv-private.h: the narrow door to Graphviz's cgraph.  graft-gv.c
 * (DOT reading, the lock, error capture) and graft-gv-layout.c (gvc: dot
 * layout, behind graft-gv-layout-private.h) are the only files that
 * include Graphviz headers; everything they give back is in Graft-owned
 * plain structs, so no Graphviz type leaks out.  graft-gv-doc.c holds the
 * parts of this door that need no Graphviz (freeing documents, wording
 * messages), so that the text core can use them without linking cgraph.
 */
#pragma once

#if !defined(GRAFT_COMPILATION)
#error "graft-gv-private.h is internal to the core."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

/* Graphviz keeps global state (its error sink, the current graph's
 * attribute dictionaries): every call into it runs between these two, under
 * one lock.  _graft_gv_leave() returns what Graphviz said meanwhile. */
void  _graft_gv_enter (void);
char *_graft_gv_leave (void) G_GNUC_WARN_UNUSED_RESULT;
char *_graft_gv_first_message_line (const char *messages) G_GNUC_WARN_UNUSED_RESULT;

/* As the process exits (graft-text.c): waits for the call under way to
 * end, and lets no other start. */
gboolean _graft_gv_close (gint64 deadline);

/* One node of a DOT file read by cgraph, with its attributes in the order
 * cgraph declares them (only attributes with a value other than the
 * declared default, which is how DOT files set them). */
typedef struct
{
  char      *name;
  GPtrArray *attr_names;  /* char *, owned */
  GPtrArray *attr_values; /* char *, owned */
} GraftGvDocNode;

/* One edge of a DOT file: node indices, in the order of the file. */
typedef struct
{
  guint tail;
  guint head;
} GraftGvDocEdge;

/* A DOT graph as cgraph read it: nodes in the order they first appear,
 * edges in file order, the graph's name, and the root graph's own
 * attributes (as a node named after the graph, for
 * _graft_gv_doc_node_get()). */
typedef struct
{
  /* Owned */
  char           *name;
  GPtrArray      *nodes; /* GraftGvDocNode *, owned */
  GArray         *edges; /* GraftGvDocEdge */
  gboolean        is_strict;
  GraftGvDocNode *graph_attrs; /* Owned: the root graph's attributes */
} GraftGvDoc;

GraftGvDoc *_graft_gv_doc_read (GraftSource *source,
                                GError     **error) G_GNUC_WARN_UNUSED_RESULT;

/* The DOT reader the text core uses: %NULL until a program that links
 * cgraph calls graft_gv_enable_dot_reader() (the lean `graft` CLI never
 * does, and hands DOT inputs to graft-render). */
typedef GraftGvDoc *(*GraftGvDocReader) (GraftSource *source,
                                         GError     **error);
GraftGvDocReader _graft_gv_get_doc_reader (void);
void             _graft_gv_set_doc_reader (GraftGvDocReader reader);
const char      *_graft_gv_doc_node_get (const GraftGvDocNode *node,
                                         const char           *attr);
void             _graft_gv_doc_free (GraftGvDoc *doc);
void             _graft_gv_doc_node_free (gpointer data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftGvDoc, _graft_gv_doc_free)

G_END_DECLS
