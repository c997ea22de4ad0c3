/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-gv-private.h: the narrow door to Graphviz.  graft-gv.c (cgraph:
 * DOT reading, the lock, error capture) and graft-gv-layout.c (gvc: dot
 * layout, in the view library) are the only files that include Graphviz
 * headers; everything they give back is in Graft-owned plain structs
 * declared here, so no Graphviz type leaks out.
 */
#pragma once

#if !defined(GRAFT_COMPILATION)
#error "graft-gv-private.h is internal to the core."
#endif

#include "graft-types.h"
#include "graft-layout.h"

G_BEGIN_DECLS

/* Where dot must put a node. */
typedef enum {
  GRAFT_GV_RANK_ANY,
  GRAFT_GV_RANK_SOURCE, /* on the top rank (an in-port of a segment) */
  GRAFT_GV_RANK_SINK,   /* on the bottom rank (an out-port) */
} GraftGvRank;

/* One box to lay out, sized by the caller in points. */
typedef struct {
  double      width;
  double      height;
  GraftGvRank rank;
  gboolean    is_point; /* an invisible junction, not a box */
} GraftGvNodeSpec;

/* One edge, by node index. */
typedef struct {
  guint tail;
  guint head;
} GraftGvEdgeSpec;

/* A graph for dot.  Node and edge indices are positions in these arrays. */
typedef struct {
  const GraftGvNodeSpec *nodes;
  guint                  n_nodes;
  const GraftGvEdgeSpec *edges;
  guint                  n_edges;
  double                 nodesep; /* points */
  double                 ranksep; /* points */
  gboolean               budget;  /* bound dot's iterations (large or dense graphs) */
} GraftGvGraphSpec;

/* What dot made of a GraftGvGraphSpec, y down, origin at the top-left of
 * the bounding box, in points.  Edge i's spline is the cubic Bezier chain
 * points[edge_start[i] .. edge_start[i + 1]) (1 + 3k points); when
 * has_arrow[i], an arrowhead runs from its last point to arrow_tip[i]. */
typedef struct {
  /* Owned */
  GraftPoint *centers;    /* n_nodes */
  GArray     *points;     /* GraftPoint */
  guint      *edge_start; /* n_edges + 1 */
  gboolean   *has_arrow;  /* n_edges */
  GraftPoint *arrow_tip;  /* n_edges */
  double      width;
  double      height;
} GraftGvGeometry;

void     _graft_gv_enter          (void);
char    *_graft_gv_leave          (void) G_GNUC_WARN_UNUSED_RESULT;
char    *_graft_gv_first_message_line (const char *messages) G_GNUC_WARN_UNUSED_RESULT;

gboolean _graft_gv_layout         (const GraftGvGraphSpec *spec,
                                   GraftGvGeometry        *out,
                                   GError                **error);
void     _graft_gv_geometry_clear (GraftGvGeometry *geometry);

/* One node of a DOT file read by cgraph, with its attributes in the order
 * cgraph declares them (only attributes with a value other than the
 * declared default, which is how DOT files set them). */
typedef struct {
  char      *name;
  GPtrArray *attr_names;  /* char *, owned */
  GPtrArray *attr_values; /* char *, owned */
} GraftGvDocNode;

/* One edge of a DOT file: node indices, in the order of the file. */
typedef struct {
  guint tail;
  guint head;
} GraftGvDocEdge;

/* A DOT graph as cgraph read it: nodes in the order they first appear,
 * edges in file order, and the graph's name. */
typedef struct {
  /* Owned */
  char      *name;
  GPtrArray *nodes; /* GraftGvDocNode *, owned */
  GArray    *edges; /* GraftGvDocEdge */
  gboolean   is_strict;
} GraftGvDoc;

GraftGvDoc  *_graft_gv_doc_read        (GraftSource *source,
                                        GError     **error) G_GNUC_WARN_UNUSED_RESULT;
const char  *_graft_gv_doc_node_get    (const GraftGvDocNode *node,
                                        const char           *attr);
void         _graft_gv_doc_free        (GraftGvDoc *doc);
void         _graft_gv_doc_node_free   (gpointer data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftGvDoc, _graft_gv_doc_free)

G_END_DECLS
