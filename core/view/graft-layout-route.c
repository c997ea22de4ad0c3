/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-layout-route.c: the edges of a layout, once dot has laid out each
 * segment and the boxes are placed (graft-layout.c).  An edge within a
 * segment is dot's spline, shifted to the drawing.  An edge that crosses a
 * cut is dot's spline to the tail segment's out-port, a join, and dot's
 * spline from the head segment's in-port: an S-curve between neighbouring
 * segments, otherwise straight pieces through a vertical lane left of the
 * drawing (one lane per source box, reused where lanes do not overlap).
 */
#include "config.h"

#include "graft-layout-private.h"

/* Between the drawing and its first lane, and between lanes, in points. */
#define LANE_GAP     24.0
#define LANE_SPACING 7.0

/* Appends the Bezier points of edge @e of @segment, shifted to the
 * drawing, skipping the first point when @skip_first. */
static void
append_segment_points (GArray        *points,
                       const Segment *segment,
                       guint          e,
                       gboolean       skip_first)
{
  const GraftGvGeometry *g = segment->geometry;

  for (guint k = g->edge_start[e] + (skip_first ? 1 : 0); k < g->edge_start[e + 1]; k++)
    {
      GraftPoint p = g_array_index (g->points, GraftPoint, k);

      p.x += segment->x;
      p.y += segment->y;
      g_array_append_val (points, p);
    }
}

static GraftPoint
last_point (GArray *points)
{
  return g_array_index (points, GraftPoint, points->len - 1);
}

/* Appends a straight piece from the last point to @to, as one Bezier
 * segment. */
static void
append_line (GArray    *points,
             GraftPoint to)
{
  GraftPoint from = last_point (points);
  GraftPoint seg[3] = {
    { from.x + (to.x - from.x) / 3, from.y + (to.y - from.y) / 3 },
    { from.x + 2 * (to.x - from.x) / 3, from.y + 2 * (to.y - from.y) / 3 },
    to,
  };

  g_array_append_vals (points, seg, 3);
}

static GraftPoint
segment_first_point (const Segment *segment,
                     guint          e)
{
  GraftPoint p =
      g_array_index (segment->geometry->points, GraftPoint, segment->geometry->edge_start[e]);

  p.x += segment->x;
  p.y += segment->y;
  return p;
}

typedef struct
{
  guint  source; /* box */
  double top;
  double bottom;
  guint  lane;
} LaneUse;

static int
compare_lane_uses (const void *a,
                   const void *b)
{
  const LaneUse *x = a;
  const LaneUse *y = b;

  if (x->top != y->top)
    return x->top < y->top ? -1 : 1;
  return x->source < y->source ? -1 : x->source > y->source;
}

/* Lanes for edges between segments that are not neighbours: one per
 * source box, spanning from its out-port to its lowest (or highest)
 * in-port, packed greedily. */
void
_graft_layout_assign_lanes (Run *run)
{
  GArray      *edges = run->edges;
  const guint *segment_of = run->segment_of;
  g_autoptr (GArray) lane_uses = g_array_new (FALSE, FALSE, sizeof (LaneUse));
  g_autoptr (GArray) lane_bottom = NULL;
  g_autoptr (GHashTable) lane_of_source = NULL;
  guint k = 0;

  for (guint e = 0; e < edges->len; e++)
    {
      Edge *edge = &g_array_index (edges, Edge, e);
      guint st = segment_of[edge->tail];
      guint sh = segment_of[edge->head];

      if (st != sh && sh != st + 1)
        {
          Segment *ts = &run->segments[st];
          Segment *hs = &run->segments[sh];
          double   a = ts->y + ts->geometry->height;
          double   b = hs->y;
          LaneUse  use = { edge->tail, MIN (a, b) - SEGMENT_GAP, MAX (a, b) + SEGMENT_GAP, 0 };

          g_array_append_val (lane_uses, use);
        }
    }
  if (lane_uses->len == 0)
    return;

  lane_bottom = g_array_new (FALSE, FALSE, sizeof (double));
  lane_of_source = g_hash_table_new (NULL, NULL);
  /* Merge the uses of one source into one span. */
  g_array_sort (lane_uses, compare_lane_uses);
  for (guint i = 0; i < lane_uses->len; i++)
    {
      LaneUse *use = &g_array_index (lane_uses, LaneUse, i);
      gpointer found;

      if (g_hash_table_lookup_extended (lane_of_source, GUINT_TO_POINTER (use->source), NULL,
                                        &found))
        {
          LaneUse *first = &g_array_index (lane_uses, LaneUse, GPOINTER_TO_UINT (found));

          first->bottom = MAX (first->bottom, use->bottom);
          first->top = MIN (first->top, use->top);
        }
      else
        {
          g_hash_table_insert (lane_of_source, GUINT_TO_POINTER (use->source),
                               GUINT_TO_POINTER (k));
          g_array_index (lane_uses, LaneUse, k++) = *use;
        }
    }
  g_array_set_size (lane_uses, k);
  for (guint i = 0; i < lane_uses->len; i++)
    {
      LaneUse *use = &g_array_index (lane_uses, LaneUse, i);
      guint    lane = 0;

      while (lane < lane_bottom->len && g_array_index (lane_bottom, double, lane) >= use->top)
        lane++;
      if (lane == lane_bottom->len)
        g_array_append_val (lane_bottom, use->bottom);
      else
        g_array_index (lane_bottom, double, lane) = use->bottom;
      use->lane = lane;
      g_hash_table_insert (lane_of_source, GUINT_TO_POINTER (use->source), GUINT_TO_POINTER (i));
    }
  run->n_lanes = lane_bottom->len;
  run->lane_x = g_new0 (double, run->n_lanes);
  for (guint l = 0; l < run->n_lanes; l++)
    run->lane_x[l] = run->min_x - LANE_GAP - l * LANE_SPACING;
  if (run->n_lanes > 0)
    run->min_x = run->lane_x[run->n_lanes - 1];

  /* Each source box's lane, for the edges below. */
  run->lane_of = g_new0 (guint, MAX (run->n_boxes, 1));
  for (guint e = 0; e < edges->len; e++)
    {
      Edge *edge = &g_array_index (edges, Edge, e);

      if (segment_of[edge->tail] != segment_of[edge->head] &&
          segment_of[edge->head] != segment_of[edge->tail] + 1)
        {
          guint use = GPOINTER_TO_UINT (g_hash_table_lookup (lane_of_source,
                                                             GUINT_TO_POINTER (edge->tail)));

          run->lane_of[edge->tail] = g_array_index (lane_uses, LaneUse, use).lane;
        }
    }
}

/* Edges: dot's splines, joined across segments. */
void
_graft_layout_route_edges (Run    *run,
                           GArray *points,
                           GArray *edges)
{
  for (guint e = 0; e < run->edges->len; e++)
    {
      Edge           *edge = &g_array_index (run->edges, Edge, e);
      guint           st = run->segment_of[edge->tail];
      guint           sh = run->segment_of[edge->head];
      Segment        *hs = &run->segments[sh];
      GraftLayoutEdge out = { edge->tail, edge->head, 0, NULL, { 0, 0 } };
      guint           start = points->len;

      if (st != sh)
        {
          Segment   *ts = &run->segments[st];
          GraftPoint from;
          GraftPoint to = segment_first_point (hs, edge->in_edge);

          append_segment_points (points, ts, edge->out_edge, FALSE);
          from = last_point (points);
          if (sh == st + 1)
            {
              double     dy = (to.y - from.y) / 2;
              GraftPoint seg[3] = { { from.x, from.y + dy }, { to.x, to.y - dy }, to };

              g_array_append_vals (points, seg, 3);
            }
          else
            {
              double x = run->lane_x[run->lane_of[edge->tail]];
              double jitter = (run->lane_of[edge->tail] % 5) * 3.0 - 6.0;
              double below = ts->y + ts->geometry->height + SEGMENT_GAP / 2 + jitter;
              double above = hs->y - SEGMENT_GAP / 2 + jitter;

              append_line (points, (GraftPoint){ from.x, below });
              append_line (points, (GraftPoint){ x, below });
              append_line (points, (GraftPoint){ x, above });
              append_line (points, (GraftPoint){ to.x, above });
              append_line (points, to);
            }
          append_segment_points (points, hs, edge->in_edge, TRUE);
        }
      else
        append_segment_points (points, hs, edge->in_edge, FALSE);

      out.n_points = points->len - start;
      if (hs->geometry->has_arrow[edge->in_edge])
        {
          out.arrow_tip = hs->geometry->arrow_tip[edge->in_edge];
          out.arrow_tip.x += hs->x;
          out.arrow_tip.y += hs->y;
        }
      else
        out.arrow_tip = last_point (points);
      /* Points are resolved once the array stops growing. */
      out.points = GUINT_TO_POINTER (start);
      g_array_append_val (edges, out);
    }
}
