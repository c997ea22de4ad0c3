/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-gv-layout-private.h: the door to Graphviz's gvc, for the view's
 * layout: graphs given as plain specs, geometry given back in points.
 * graft-gv-layout.c is its only implementation and runs dot under the lock
 * of graft-gv-private.h.
 */
#pragma once

#if !defined(GRAFT_COMPILATION)
#error "graft-gv-layout-private.h is internal to the core."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

/* Where dot must put a node. */
typedef enum {
  GRAFT_GV_RANK_ANY,
  GRAFT_GV_RANK_SOURCE, /* on the top rank (an in-port of a segment) */
  GRAFT_GV_RANK_SINK,   /* on the bottom rank (an out-port) */
} GraftGvRank;

/* One box to lay out, sized by the caller in points. */
typedef struct
{
  double      width;
  double      height;
  GraftGvRank rank;
  gboolean    is_point; /* an invisible junction, not a box */
  guint       cluster;  /* the innermost cluster holding it, or G_MAXUINT */
} GraftGvNodeSpec;

/* A cluster: a frame dot keeps its nodes inside, nested in another one
 * (a cluster's parent comes before it), with room on top for a label of
 * @label's length in an 8-point monospace font. */
typedef struct
{
  guint       parent; /* or G_MAXUINT */
  const char *label;
} GraftGvClusterSpec;

/* One edge, by node index. */
typedef struct
{
  guint tail;
  guint head;
} GraftGvEdgeSpec;

/* A graph for dot.  Node and edge indices are positions in these arrays. */
typedef struct
{
  const GraftGvNodeSpec    *nodes;
  guint                     n_nodes;
  const GraftGvEdgeSpec    *edges;
  guint                     n_edges;
  double                    nodesep; /* points */
  double                    ranksep; /* points */
  gboolean                  budget;  /* bound dot's iterations (large or dense graphs) */
  const GraftGvClusterSpec *clusters;
  guint                     n_clusters;
} GraftGvGraphSpec;

/* What dot made of a GraftGvGraphSpec, y down, origin at the top-left of
 * the bounding box, in points.  Edge i's spline is the cubic Bezier chain
 * points[edge_start[i] .. edge_start[i + 1]) (1 + 3k points); when
 * has_arrow[i], an arrowhead runs from its last point to arrow_tip[i]. */
typedef struct
{
  /* Owned */
  GraftPoint *centers;    /* n_nodes */
  GArray     *points;     /* GraftPoint */
  guint      *edge_start; /* n_edges + 1 */
  gboolean   *has_arrow;  /* n_edges */
  GraftPoint *arrow_tip;  /* n_edges */
  GraftRect  *clusters;   /* n_clusters: each cluster's frame */
  double      width;
  double      height;
} GraftGvGeometry;

gboolean _graft_gv_layout (const GraftGvGraphSpec *spec,
                           GraftGvGeometry        *out,
                           GError                **error);
void     _graft_gv_geometry_clear (GraftGvGeometry *geometry);

G_END_DECLS
