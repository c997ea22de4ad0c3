/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-layout.h: a graph laid out by Graphviz, as plain geometry that
 * Graft owns (boxes, edge splines, the drawing's size), and the hit test
 * the canvas uses.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"
#include "graft-scope.h"

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _GraftLayout        GraftLayout;
typedef struct _GraftLayoutRequest GraftLayoutRequest;

/**
 * GraftLayoutDirection:
 * @GRAFT_LAYOUT_TOP_TO_BOTTOM: inputs at the top, results below (dot's
 *   `rankdir=TB`)
 * @GRAFT_LAYOUT_LEFT_TO_RIGHT: inputs on the left, results to the right
 *   (`rankdir=LR`), for graphs that are wider than they are deep
 *
 * Which way the data flows in a drawing.
 */
typedef enum {
  GRAFT_LAYOUT_TOP_TO_BOTTOM,
  GRAFT_LAYOUT_LEFT_TO_RIGHT,
} GraftLayoutDirection;

/**
 * GraftLayoutRole:
 * @GRAFT_LAYOUT_ROLE_NODE: any node (a traced graph's inputs included)
 * @GRAFT_LAYOUT_ROLE_INPUT: a program's user input
 * @GRAFT_LAYOUT_ROLE_PARAMETER: a program's parameter (drawn as a pill
 *   labelled with its target, `lin.weight`)
 * @GRAFT_LAYOUT_ROLE_BUFFER: a program's buffer
 * @GRAFT_LAYOUT_ROLE_CONSTANT: a program's lifted constant or script object
 *
 * What a box stands for, as a program's signature says.
 */
typedef enum {
  GRAFT_LAYOUT_ROLE_NODE,
  GRAFT_LAYOUT_ROLE_INPUT,
  GRAFT_LAYOUT_ROLE_PARAMETER,
  GRAFT_LAYOUT_ROLE_BUFFER,
  GRAFT_LAYOUT_ROLE_CONSTANT,
} GraftLayoutRole;

/**
 * GraftLayoutNode:
 * @box: where the box is drawn
 * @name: the graph node's name
 * @caption: what the node does (`operator.add`, `torch.stack`, `input`)
 * @op: the graph node's op
 * @node_index: the graph node's position in graph order
 * @is_stub: a small copy of an input or attribute that feeds many nodes,
 *   drawn beside one of its users instead of a long edge from the original
 * @n_members: 0 for a node's box; for a collapsed scope's box, how many
 *   graph nodes it holds (see graft_layout_get_members()); its @name is then
 *   the scope's path and @node_index its first node
 * @first_member: where its nodes start in the layout's member list
 * @label: what the first line of the box shows: @name, or a program
 *   weight's target (`lin.weight`), or a folded module's path and class
 *   (`layer1.0 · BasicBlock`)
 * @annotation: (nullable): the value the node computes (`f32[2, 3]`), as a
 *   program records it, drawn on the edges that leave the box; %NULL when
 *   nothing is known (traced graphs, new nodes, folded boxes)
 * @role: what the box stands for in a program's signature
 *
 * One box of a layout.  Strings live as long as the layout.
 */
typedef struct
{
  GraftRect       box;
  const char     *name;
  const char     *caption;
  GraftOp         op;
  guint           node_index;
  gboolean        is_stub;
  guint           n_members;
  guint           first_member;
  const char     *label;
  const char     *annotation;
  GraftLayoutRole role;
} GraftLayoutNode;

/**
 * GraftLayoutEdge:
 * @tail: the layout node the value comes from
 * @head: the layout node that uses it
 * @n_points: 1 + 3k
 * @points: a chain of cubic Bezier segments from @tail's box towards @head's
 * @arrow_tip: the arrowhead runs from the last point to here, at @head's box
 *
 * One data dependency of a layout: one per use, in argument order.
 */
typedef struct
{
  guint             tail;
  guint             head;
  guint             n_points;
  const GraftPoint *points;
  GraftPoint        arrow_tip;
} GraftLayoutEdge;

/**
 * GraftLayoutFrame:
 * @box: where the frame is drawn; its label is in its top
 *   %GRAFT_LAYOUT_FRAME_LABEL_HEIGHT points
 * @scope: the module it holds, open (`layer2`)
 * @label: what its label says: the module's path, and its class when
 *   known (`layer2 · Sequential`)
 * @depth: how many frames hold it (0: the outermost)
 *
 * A frame around the boxes of a module that is drawn open (its nodes, or
 * the boxes of its folded modules).  A module cut by the segments of a
 * large drawing has one frame per segment.  Strings live as long as the
 * layout.
 */
typedef struct
{
  GraftRect   box;
  const char *scope;
  const char *label;
  guint       depth;
} GraftLayoutFrame;

/* The height of a frame's label band, in points; its control (a square
 * button at the band's right end) is as tall. */
#define GRAFT_LAYOUT_FRAME_LABEL_HEIGHT 14.0

GraftLayoutRequest *graft_layout_request_new (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;

GraftLayoutRequest *graft_layout_request_new_folded (GraftGraph     *graph,
                                                     GraftScopes    *scopes,
                                                     GHashTable     *collapsed,
                                                     const gboolean *shown)
    G_GNUC_WARN_UNUSED_RESULT;

typedef struct _GraftLayoutRequestBuilder GraftLayoutRequestBuilder;

GraftLayoutRequestBuilder *graft_layout_request_builder_new (GraftGraph     *graph,
                                                             GraftScopes    *scopes,
                                                             GHashTable     *collapsed,
                                                             const gboolean *shown)
    G_GNUC_WARN_UNUSED_RESULT;
gboolean            graft_layout_request_builder_step (GraftLayoutRequestBuilder *self,
                                                       guint                      max_nodes);
GraftLayoutRequest *graft_layout_request_builder_finish (GraftLayoutRequestBuilder *self)
    G_GNUC_WARN_UNUSED_RESULT;
void     graft_layout_request_builder_free (GraftLayoutRequestBuilder *self);
gboolean graft_layout_request_builder_share_names (GraftLayoutRequestBuilder *self,
                                                   GraftLayout               *layout);

void         graft_layout_request_get_progress (GraftLayoutRequest *self,
                                                guint              *out_done,
                                                guint              *out_total);
GraftLayout *graft_layout_request_run (GraftLayoutRequest *self,
                                       GError            **error) G_GNUC_WARN_UNUSED_RESULT;
gboolean     graft_layout_check_n_nodes (guint    n_nodes,
                                         GError **error);
void         _graft_layout_set_max_nodes (guint max_nodes);
void         graft_layout_request_set_cancellable (GraftLayoutRequest *self,
                                                   GCancellable       *cancellable);
void         graft_layout_request_set_direction (GraftLayoutRequest  *self,
                                                 GraftLayoutDirection direction);
void         graft_layout_request_set_label (GraftLayoutRequest *self,
                                             guint               node_index,
                                             const char         *label);
void         graft_layout_request_set_previous (GraftLayoutRequest *self,
                                                GraftLayout        *previous,
                                                gboolean            reuse);
void         graft_layout_request_free (GraftLayoutRequest *self);

GraftLayout            *graft_layout_new (GraftGraph *graph,
                                          GError    **error) G_GNUC_WARN_UNUSED_RESULT;
GraftLayout            *graft_layout_ref (GraftLayout *self);
void                    graft_layout_free (GraftLayout *self);
guint                   graft_layout_get_n_nodes (GraftLayout *self);
const GraftLayoutNode  *graft_layout_get_node (GraftLayout *self,
                                               guint        i);
void                    graft_layout_get_node_extent (GraftLayout *self,
                                                      guint        i,
                                                      GraftRect   *out_rect);
guint                   graft_layout_get_n_edges (GraftLayout *self);
const GraftLayoutEdge  *graft_layout_get_edge (GraftLayout *self,
                                               guint        i);
guint                   graft_layout_get_n_graph_nodes (GraftLayout *self);
gint                    graft_layout_lookup (GraftLayout *self,
                                             guint        node_index);
gint                    graft_layout_find_node (GraftLayout *self,
                                                const char  *name);
gint                    graft_layout_find_graph_node (GraftLayout *self,
                                                      const char  *name);
gboolean                graft_layout_has_shared_names (GraftLayout *self);
void                    graft_layout_find_graph_nodes (GraftLayout       *self,
                                                       const char *const *names,
                                                       guint              n,
                                                       gint              *out);
const char             *graft_layout_get_node_name (GraftLayout *self,
                                                    guint        node_index);
const guint            *graft_layout_get_members (GraftLayout *self,
                                                  guint        box,
                                                  guint       *out_n);
void                    graft_layout_query (GraftLayout *self,
                                            double       x1,
                                            double       y1,
                                            double       x2,
                                            double       y2,
                                            GArray      *out_boxes,
                                            GArray      *out_edges);
void                    graft_layout_get_size (GraftLayout *self,
                                               double      *out_width,
                                               double      *out_height);
gint                    graft_layout_hit_test (GraftLayout *self,
                                               double       x,
                                               double       y);
guint                   graft_layout_get_n_segments (GraftLayout *self);
guint                   graft_layout_get_n_reused_segments (GraftLayout *self);
gboolean                graft_layout_get_segment (GraftLayout *self,
                                                  guint        s,
                                                  guint       *out_first,
                                                  guint       *out_end);
guint                   graft_layout_get_n_frames (GraftLayout *self);
const GraftLayoutFrame *graft_layout_get_frame (GraftLayout *self,
                                                guint        i);
void                    graft_layout_get_frame_control (const GraftLayoutFrame *frame,
                                                        GraftRect              *out_rect);
gboolean                graft_layout_get_box_control (GraftLayout *self,
                                                      guint        box,
                                                      GraftRect   *out_rect);
gboolean                graft_layout_hit_control (GraftLayout *self,
                                                  double       x,
                                                  double       y,
                                                  const char **out_scope,
                                                  gboolean    *out_expand);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftLayout, graft_layout_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftLayoutRequest, graft_layout_request_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftLayoutRequestBuilder, graft_layout_request_builder_free)

G_END_DECLS
