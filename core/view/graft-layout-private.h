/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-layout-private.h: the state of one run of a layout request, shared
 * by graft-layout.c, which runs the phases up to placing the boxes, and
 * graft-layout-route.c, which gives the edges between segments their lanes
 * and joins every edge's points.  Internal to core/view.
 */
#pragma once

#if !defined(GRAFT_COMPILATION)
#error "graft-layout-private.h is internal to the core."
#endif

#include "graft-layout.h"
#include "graft-gv-layout-private.h"
#include "graft-text-private.h"

G_BEGIN_DECLS

/* Between stacked segments, in points. */
#define SEGMENT_GAP 40.0

/* An edge of the drawing, before geometry: between boxes, and where its
 * halves are in the segments' dot graphs. */
typedef struct
{
  guint tail;     /* box */
  guint head;     /* box */
  guint out_edge; /* cross edges: the tail -> out-port edge in the tail's segment */
  guint in_edge;  /* the edge into head in head's segment (tail -> head, or in-port -> head) */
} Edge;

/* What dot made of one segment's graph, shared by the layouts that hold
 * the segment unchanged (an incremental run reuses it, see
 * graft_layout_request_set_previous()).  Immutable once made; freed by
 * whichever layout drops the last reference, on any thread. */
typedef struct
{
  gatomicrefcount ref_count;
  guint8          key[32]; /* SHA-256 of the dot graph it was made from */
  GraftGvGeometry geometry;
} LaidSegment;

/* One segment's dot graph under construction. */
typedef struct
{
  GArray          *nodes;         /* GraftGvNodeSpec */
  GArray          *edges;         /* GraftGvEdgeSpec */
  GHashTable      *in_ports;      /* box + 1 of a source in another segment -> local index + 1 */
  GArray          *box_local;     /* guint: each of its boxes' local index, in box order */
  GArray          *clusters;      /* GraftGvClusterSpec: the frames it holds boxes of */
  GArray          *cluster_frame; /* guint: each cluster's frame in the request */
  guint            first_box;
  LaidSegment     *laid;     /* Owned: its geometry, made or reused */
  GraftGvGeometry *geometry; /* &laid->geometry */
  double           x;        /* offset of the segment's geometry in the drawing */
  double           y;
} Segment;

/* One run of a request, phase by phase: each phase (graft_layout_request_run()
 * lists them) reads what the earlier ones left here and fills in its own part. */
typedef struct
{
  /* Borrowed */
  GraftLayoutRequest *req;
  /* Owned */
  GraftLayout *layout; /* the result, until it is handed out */
  GraftText   *text;
  guint8      *hub;         /* per unit: HUB_* (graft-layout.c) */
  guint       *unit_box;    /* per unit: its box */
  guint       *group_start; /* per unit, and one past: its first box (stubs come first) */
  GArray      *edges;       /* Edge */
  guint       *segment_of;  /* per box */
  Segment     *segments;    /* n_segments of them */
  double      *lane_x;      /* n_lanes of them */
  guint       *lane_of;     /* per box with a lane: its lane */
  guint       *box_frame;   /* per box: the request frame it is in, or G_MAXUINT */
  guint        n_boxes;
  guint        n_segments;
  guint        n_lanes;
  double       min_x; /* the drawing's extent, before the final shift */
  double       max_x;
  double       y; /* where the next segment goes */
} Run;

/* Lanes for the edges between segments that are not neighbours
 * (graft-layout-route.c): fills in @run's lanes and widens its extent. */
void _graft_layout_assign_lanes (Run *run);
/* Appends each edge of @run to @edges, its points to @points. */
void _graft_layout_route_edges (Run    *run,
                                GArray *points,
                                GArray *edges);

G_END_DECLS
