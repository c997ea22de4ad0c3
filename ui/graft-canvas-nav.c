/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-canvas-nav.c: the canvas from the keyboard.  One box of the
 * layout has the keyboard focus (a node, or a folded module); it is drawn
 * with a dashed ring while the focus is visible, kept in view, and told to
 * assistive technologies as the canvas's accessible label and description.
 *
 * The keys, while the canvas has the focus:
 *
 *  - Down goes to a user of the focused node, Up to one of its inputs:
 *    back to the node the last opposite step came from when it is one,
 *    otherwise to the one drawn nearest in x.  Left and Right then walk
 *    the other nodes of that step, in their order on screen: after Down
 *    from P, the users of P; after Up from C, the inputs of C.  Before any
 *    step they walk the users of the node's first input (the inputs of its
 *    first user when it has none).  From any node every node connected to
 *    it is so reachable; Home and End go to the first and the last node in
 *    graph order, Page Up and Page Down to the previous and the next one,
 *    so that unconnected nodes are too.  A move that has nowhere to go
 *    rings the bell and leaves the focus where it is.
 *  - Tab and Shift+Tab go to the next and the previous match, in graph
 *    order of their returning nodes (their last node), and select that
 *    node, as a click on it does (the match list follows); Tab inside a
 *    match that is not chosen chooses that one.  Past the last
 *    (first) match, or with no match, they let GTK move the focus out of
 *    the canvas, as Ctrl+Tab and Shift+Ctrl+Tab always do: the keyboard
 *    is never trapped here.
 *  - Menu and Shift+F10 open the context menu of the focused node (the one
 *    a right click opens), pointing at it.
 *  - Return selects the focused node and activates it, as a double click
 *    does (a folded module expands); Space selects it alone, Ctrl+Space
 *    adds it to the selection or takes it out.
 *
 * Moving costs the degree of the nodes involved, not the graph's size: the
 * inputs and users of every box are indexed once per layout, in linear
 * time, and the matches' returning nodes once per set of marks.  The focus
 * is kept by node name, so it survives a new layout (a rewrite, folding).
 */
#include "config.h"

#include "graft-canvas-private.h"

#include <adwaita.h>
#include <math.h>

/* Names listed in the accessible description before "and N more". */
#define MAX_LISTED 6
/* Room kept between a focused box and the edge of the view, in pixels. */
#define VIEW_MARGIN 16.0

typedef struct
{
  guint position; /* the returning node's position in graph order */
  guint match;
} Anchor;

struct _GraftCanvasNav
{
  /* Borrowed */
  GraftCanvas *canvas;
  GraftLayout *indexed; /* the layout the index was built for, or NULL */

  /* Owned */
  guint                  *in_start;   /* per box, and one past: where its inputs start */
  guint                  *in_boxes;   /* the inputs' boxes, in argument order */
  guint                  *out_start;  /* per box, and one past: where its users start */
  guint                  *out_boxes;  /* the users' boxes, in graph order */
  GArray                 *anchors;    /* Anchor, by position; NULL until needed */
  GArray                 *match_last; /* gint: per match, its returning node's position */
  GArray                 *row;        /* guint: the boxes Left and Right walk, or NULL */
  char                   *focus_name; /* a graph node the focused box holds */
  GraftCanvasDescribeFunc describe;
  gpointer                describe_data;
  GDestroyNotify          describe_destroy;

  gint  focus;     /* the focused box, or -1 */
  gint  came_from; /* the box the last vertical step left, or -1 */
  gint  came_up;   /* that step went up */
  guint row_pos;   /* the focused box's place in row */
  /* The last thing done on the canvas was a key of this file's, not a
   * click: the ring shows.  (GTK shows the focus only after a key that
   * moved it from one widget to another.) */
  gboolean keyboard;
  gboolean selecting; /* a key of this file's is changing the selection */
};

static void update_accessible (GraftCanvasNav *nav);

static GraftCanvasNav *
nav_of (GtkWidget *widget)
{
  return _graft_canvas_get_nav (GRAFT_CANVAS (widget));
}

static GraftLayout *
layout_of (GraftCanvasNav *nav)
{
  return graft_canvas_get_layout (nav->canvas);
}

static void
drop_index (GraftCanvasNav *nav)
{
  g_clear_pointer (&nav->in_start, g_free);
  g_clear_pointer (&nav->in_boxes, g_free);
  g_clear_pointer (&nav->out_start, g_free);
  g_clear_pointer (&nav->out_boxes, g_free);
  nav->indexed = NULL;
}

/* The box that stands for box @b: a stub stands for its node's own box. */
static gint
main_box (GraftLayout *layout,
          guint        b)
{
  const GraftLayoutNode *node = graft_layout_get_node (layout, b);

  return node->is_stub ? graft_layout_lookup (layout, node->node_index) : (gint) b;
}

/* Indexes the inputs and users of every box of the current layout, from
 * its edges (a stub's edge counts as its node's). */
static void
ensure_index (GraftCanvasNav *nav)
{
  GraftLayout      *layout = layout_of (nav);
  guint             n;
  guint             n_edges;
  g_autofree guint *in_fill = NULL;
  g_autofree guint *out_fill = NULL;

  if (layout == nav->indexed)
    return;
  drop_index (nav);
  if (layout == NULL)
    return;
  n = graft_layout_get_n_nodes (layout);
  n_edges = graft_layout_get_n_edges (layout);
  nav->in_start = g_new0 (guint, n + 1);
  nav->out_start = g_new0 (guint, n + 1);
  nav->in_boxes = g_new (guint, MAX (n_edges, 1));
  nav->out_boxes = g_new (guint, MAX (n_edges, 1));
  for (guint e = 0; e < n_edges; e++)
    {
      const GraftLayoutEdge *edge = graft_layout_get_edge (layout, e);
      gint                   tail = main_box (layout, edge->tail);

      if (tail < 0)
        continue;
      nav->in_start[edge->head + 1]++;
      nav->out_start[tail + 1]++;
    }
  for (guint b = 0; b < n; b++)
    {
      nav->in_start[b + 1] += nav->in_start[b];
      nav->out_start[b + 1] += nav->out_start[b];
    }
  in_fill = g_memdup2 (nav->in_start, n * sizeof (guint));
  out_fill = g_memdup2 (nav->out_start, n * sizeof (guint));
  for (guint e = 0; e < n_edges; e++)
    {
      const GraftLayoutEdge *edge = graft_layout_get_edge (layout, e);
      gint                   tail = main_box (layout, edge->tail);

      if (tail < 0)
        continue;
      nav->in_boxes[in_fill[edge->head]++] = (guint) tail;
      nav->out_boxes[out_fill[tail]++] = edge->head;
    }
  nav->indexed = layout;
}

static const guint *
inputs_of (GraftCanvasNav *nav,
           guint           box,
           guint          *out_n)
{
  *out_n = nav->in_start[box + 1] - nav->in_start[box];
  return nav->in_boxes + nav->in_start[box];
}

static const guint *
users_of (GraftCanvasNav *nav,
          guint           box,
          guint          *out_n)
{
  *out_n = nav->out_start[box + 1] - nav->out_start[box];
  return nav->out_boxes + nav->out_start[box];
}

static double
center_x (GraftLayout *layout,
          guint        box)
{
  const GraftRect *r = &graft_layout_get_node (layout, box)->box;

  return r->x + r->width / 2;
}

static double
center_y (GraftLayout *layout,
          guint        box)
{
  const GraftRect *r = &graft_layout_get_node (layout, box)->box;

  return r->y + r->height / 2;
}

/* Boxes in their order on screen: left to right, then top to bottom. */
static int
compare_on_screen (gconstpointer a,
                   gconstpointer b,
                   gpointer      data)
{
  GraftLayout *layout = data;
  guint        ba = *(const guint *) a;
  guint        bb = *(const guint *) b;
  double       dx = center_x (layout, ba) - center_x (layout, bb);
  double       dy = center_y (layout, ba) - center_y (layout, bb);

  if (dx != 0)
    return dx < 0 ? -1 : 1;
  if (dy != 0)
    return dy < 0 ? -1 : 1;
  return ba < bb ? -1 : ba > bb;
}

/* The graph node by which box @box is found again in a new layout: its
 * own, or a folded module's first. */
static const char *
node_name_of (GraftLayout *layout,
              guint        box)
{
  const GraftLayoutNode *node = graft_layout_get_node (layout, box);

  return node->n_members > 0 ? graft_layout_get_node_name (layout, node->node_index)
                             : node->name;
}

/* Where box @box's drawing reaches at the canvas's zoom: with its type
 * under it where the type is drawn, the box alone where it is too small
 * to be (the ring left a blank band under the box at 48 %). */
static void
drawn_extent (GraftCanvasNav *nav,
              guint           box,
              GraftRect      *out_rect)
{
  GraftLayout *layout = layout_of (nav);

  if (graft_render_shows_annotations (graft_canvas_get_zoom (nav->canvas)))
    graft_layout_get_node_extent (layout, box, out_rect);
  else
    *out_rect = graft_layout_get_node (layout, box)->box;
}

/* Brings box @box (its type under it too) into view when it is not
 * whole in it: centred, or as near the centre as the graph filling the
 * view allows. */
static void
scroll_to (GraftCanvasNav *nav,
           guint           box)
{
  GraftLayout *layout = layout_of (nav);
  GraftRect    r;
  double       x0;
  double       y0;
  double       x1;
  double       y1;
  double       width = gtk_widget_get_width (GTK_WIDGET (nav->canvas));
  double       height = gtk_widget_get_height (GTK_WIDGET (nav->canvas));

  drawn_extent (nav, box, &r);
  graft_canvas_layout_to_widget (nav->canvas, r.x, r.y, &x0, &y0);
  graft_canvas_layout_to_widget (nav->canvas, r.x + r.width, r.y + r.height, &x1, &y1);
  if (width <= 0 || height <= 0 ||
      (x0 >= VIEW_MARGIN && y0 >= VIEW_MARGIN && x1 <= width - VIEW_MARGIN &&
       y1 <= height - VIEW_MARGIN))
    return;
  graft_canvas_center_on (nav->canvas, node_name_of (layout, box));
  /* A box near the graph's edge, centred, had blank canvas up to half a
   * view beside it (Home on a tall graph): the graph fills the view, as
   * when a match is chosen (graft_canvas_show_node()). */
  graft_canvas_fill_view (nav->canvas);
}

/* Moves the focus to box @box (a stub: its node's box), or nowhere; with
 * @scroll, brings it into view. */
static void
set_focus (GraftCanvasNav *nav,
           gint            box,
           gboolean        scroll)
{
  GraftLayout *layout = layout_of (nav);

  if (layout != NULL && box >= 0)
    box = main_box (layout, (guint) box);
  if (layout == NULL)
    box = -1;
  if (box != nav->focus)
    {
      nav->focus = box;
      g_clear_pointer (&nav->focus_name, g_free);
      if (box >= 0)
        nav->focus_name = g_strdup (node_name_of (layout, (guint) box));
      update_accessible (nav);
      gtk_widget_queue_draw (GTK_WIDGET (nav->canvas));
    }
  if (box >= 0 && scroll)
    scroll_to (nav, (guint) box);
}

/* Forgets the last step: Left, Right, Up and Down start afresh. */
static void
forget_step (GraftCanvasNav *nav)
{
  g_clear_pointer (&nav->row, g_array_unref);
  nav->came_from = -1;
}

/* Focus moved by something else than a step (a click, Tab, Home...). */
static void
jump_to (GraftCanvasNav *nav,
         gint            box,
         gboolean        scroll)
{
  forget_step (nav);
  set_focus (nav, box, scroll);
}

/* The row Left and Right walk after a step from @from: its users (@up
 * false) or its inputs, in their order on screen. */
static void
set_row (GraftCanvasNav *nav,
         guint           from,
         gboolean        up)
{
  guint        n;
  const guint *boxes = up ? inputs_of (nav, from, &n) : users_of (nav, from, &n);

  g_clear_pointer (&nav->row, g_array_unref);
  nav->row = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  g_array_append_vals (nav->row, boxes, n);
  g_array_sort_with_data (nav->row, compare_on_screen, layout_of (nav));
  nav->row_pos = 0;
  for (guint k = 0; k < n; k++)
    if (g_array_index (nav->row, guint, k) == (guint) nav->focus)
      nav->row_pos = k;
}

/* Up (@up) or Down from the focused box. */
static gboolean
step_vertically (GraftCanvasNav *nav,
                 gboolean        up)
{
  GraftLayout *layout = layout_of (nav);
  guint        from = (guint) nav->focus;
  guint        n;
  const guint *next = up ? inputs_of (nav, from, &n) : users_of (nav, from, &n);
  gint         to = -1;
  double       best_dx = G_MAXDOUBLE;
  double       best_dy = G_MAXDOUBLE;

  if (n == 0)
    return FALSE;
  /* Back where the last opposite step came from. */
  if (nav->came_from >= 0 && nav->came_up != up)
    for (guint k = 0; k < n && to < 0; k++)
      if (next[k] == (guint) nav->came_from)
        to = nav->came_from;
  if (to < 0)
    for (guint k = 0; k < n; k++)
      {
        double dx = fabs (center_x (layout, next[k]) - center_x (layout, from));
        double dy = fabs (center_y (layout, next[k]) - center_y (layout, from));

        if (dx < best_dx || (dx == best_dx && dy < best_dy))
          {
            best_dx = dx;
            best_dy = dy;
            to = (gint) next[k];
          }
      }
  set_focus (nav, to, TRUE);
  set_row (nav, from, up);
  nav->came_from = (gint) from;
  nav->came_up = up;
  return TRUE;
}

/* Left (@delta -1) or Right (+1) along the row of the last step. */
static gboolean
step_sideways (GraftCanvasNav *nav,
               gint            delta)
{
  guint n;

  if (nav->row == NULL)
    {
      guint        focus = (guint) nav->focus;
      const guint *inputs = inputs_of (nav, focus, &n);

      /* No step yet: as if it had come down from its first input, or up
       * from its first user. */
      if (n > 0)
        {
          set_row (nav, inputs[0], FALSE);
          nav->came_from = (gint) inputs[0];
          nav->came_up = FALSE;
        }
      else
        {
          const guint *users = users_of (nav, focus, &n);

          if (n == 0)
            return FALSE;
          set_row (nav, users[0], TRUE);
          nav->came_from = (gint) users[0];
          nav->came_up = TRUE;
        }
    }
  if ((delta < 0 && nav->row_pos == 0) || (delta > 0 && nav->row_pos + 1 >= nav->row->len))
    return FALSE;
  nav->row_pos += delta;
  set_focus (nav, (gint) g_array_index (nav->row, guint, nav->row_pos), TRUE);
  return TRUE;
}

/* The box before (@delta -1) or after (+1) box @box in graph order,
 * stubs skipped, or -1. */
static gint
graph_order_step (GraftLayout *layout,
                  gint         box,
                  gint         delta)
{
  gint n = (gint) graft_layout_get_n_nodes (layout);

  for (gint b = box + delta; b >= 0 && b < n; b += delta)
    if (!graft_layout_get_node (layout, (guint) b)->is_stub)
      return b;
  return -1;
}

static int
compare_anchors (gconstpointer a,
                 gconstpointer b)
{
  const Anchor *aa = a;
  const Anchor *ab = b;

  return aa->position < ab->position ? -1 : aa->position > ab->position;
}

static void
drop_anchors (GraftCanvasNav *nav)
{
  g_clear_pointer (&nav->anchors, g_array_unref);
  g_clear_pointer (&nav->match_last, g_array_unref);
}

/* The matches' returning nodes (the last node of each in graph order),
 * from the marks, in graph order; linear in the graph, once per set of
 * marks. */
static void
ensure_anchors (GraftCanvasNav *nav)
{
  GraftLayout *layout = layout_of (nav);
  const gint  *marks = _graft_canvas_get_marks (nav->canvas);
  guint        n;
  GArray      *last;

  if (nav->anchors != NULL)
    return;
  nav->anchors = g_array_new (FALSE, FALSE, sizeof (Anchor));
  last = nav->match_last = g_array_new (FALSE, TRUE, sizeof (gint));
  if (layout == NULL || marks == NULL)
    return;
  n = graft_layout_get_n_graph_nodes (layout);
  for (guint i = 0; i < n; i++)
    if (marks[i] >= 0)
      {
        if ((guint) marks[i] >= last->len)
          {
            guint old = last->len;

            g_array_set_size (last, (guint) marks[i] + 1);
            for (guint m = old; m < last->len; m++)
              g_array_index (last, gint, m) = -1;
          }
        g_array_index (last, gint, marks[i]) = (gint) i;
      }
  for (guint m = 0; m < last->len; m++)
    if (g_array_index (last, gint, m) >= 0)
      {
        Anchor anchor = { (guint) g_array_index (last, gint, m), m };

        g_array_append_val (nav->anchors, anchor);
      }
  g_array_sort (nav->anchors, compare_anchors);
}

/* The match graph node @node belongs to, or -1. */
static gint
match_of_node (GraftCanvasNav *nav,
               guint           node)
{
  const gint *marks = _graft_canvas_get_marks (nav->canvas);

  return marks != NULL ? marks[node] : -1;
}

/* The match the focused box is in, or -1 (a folded module is in none). */
static gint
focused_match (GraftCanvasNav *nav)
{
  const GraftLayoutNode *node;

  if (nav->focus < 0)
    return -1;
  node = graft_layout_get_node (layout_of (nav), (guint) nav->focus);
  return node->n_members > 0 ? -1 : match_of_node (nav, node->node_index);
}

/* Tab (@forward) or Shift+Tab: the next or the previous match's returning
 * node's box, or -1. */
static gint
match_step (GraftCanvasNav *nav,
            gboolean        forward)
{
  GraftLayout *layout = layout_of (nav);
  GArray      *anchors;
  gint         match = focused_match (nav);
  guint        reference = 0;
  guint        lo = 0;
  guint        hi;

  ensure_anchors (nav);
  anchors = nav->anchors;
  if (anchors->len == 0)
    return -1;
  /* Inside a match that is not the chosen one (where the focus lands when
   * the canvas takes it, in the middle of the view), Tab chooses that
   * match rather than passing over it to the next. */
  if (forward && match >= 0 && (guint) match < nav->match_last->len &&
      match != graft_canvas_get_chosen_match (nav->canvas))
    {
      gint box = graft_layout_lookup (layout, (guint) g_array_index (nav->match_last, gint, match));

      if (box >= 0)
        return box;
    }
  if (match >= 0 && (guint) match < nav->match_last->len)
    reference = (guint) g_array_index (nav->match_last, gint, match);
  else if (nav->focus >= 0)
    reference = graft_layout_get_node (layout, (guint) nav->focus)->node_index;
  else
    return forward ? graft_layout_lookup (layout, g_array_index (anchors, Anchor, 0).position)
                   : graft_layout_lookup (
                         layout, g_array_index (anchors, Anchor, anchors->len - 1).position);
  /* The first anchor after the reference. */
  hi = anchors->len;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (g_array_index (anchors, Anchor, mid).position <= reference)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (forward)
    {
      for (guint k = lo; k < anchors->len; k++)
        {
          gint box = graft_layout_lookup (layout, g_array_index (anchors, Anchor, k).position);

          if (box >= 0 && box != nav->focus)
            return box;
        }
      return -1;
    }
  for (guint k = lo; k-- > 0;)
    {
      guint position = g_array_index (anchors, Anchor, k).position;
      gint  box = graft_layout_lookup (layout, position);

      if (position < reference && box >= 0 && box != nav->focus)
        return box;
    }
  return -1;
}

/* The names of boxes @boxes, at most MAX_LISTED of them. */
static void
append_names (GString     *text,
              GraftLayout *layout,
              const guint *boxes,
              guint        n)
{
  for (guint k = 0; k < n && k < MAX_LISTED; k++)
    g_string_append_printf (text, "%s%s", k > 0 ? ", " : "",
                            graft_layout_get_node (layout, boxes[k])->name);
  if (n > MAX_LISTED)
    g_string_append_printf (text, " and %u more", n - MAX_LISTED);
}

/* What the canvas tells assistive technologies: the focused box as its
 * label ("relu_1, call_function torch.relu"), what it is as its role
 * description, and its value (a program's type, as the box shows it), inputs,
 * users and match as its description. */
static void
update_accessible (GraftCanvasNav *nav)
{
  GtkAccessible         *accessible = GTK_ACCESSIBLE (nav->canvas);
  GraftLayout           *layout = layout_of (nav);
  const GraftLayoutNode *node;
  g_autoptr (GString) label = NULL;
  g_autoptr (GString) description = NULL;
  g_autofree char *extra = NULL;
  const guint     *boxes;
  guint            n;
  gint             match;

  /* A preview is a picture, with the label its owner gave it. */
  if (!gtk_widget_get_focusable (GTK_WIDGET (nav->canvas)))
    return;
  if (nav->focus < 0 || layout == NULL)
    {
      gtk_accessible_update_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, "Graph",
                                      GTK_ACCESSIBLE_PROPERTY_ROLE_DESCRIPTION, "graph",
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      layout == NULL ? "no graph" : "no node focused", -1);
      gtk_accessible_reset_state (accessible, GTK_ACCESSIBLE_STATE_SELECTED);
      return;
    }
  ensure_index (nav);
  node = graft_layout_get_node (layout, (guint) nav->focus);
  label = g_string_new (node->n_members > 0 ? node->label : node->name);
  if (node->n_members > 0)
    g_string_append_printf (label, ", folded module of %u nodes", node->n_members);
  else
    {
      const char *op = graft_op_to_string (node->op);

      g_string_append_printf (label, ", %s", op);
      if (node->caption != NULL && *node->caption != '\0' && g_strcmp0 (node->caption, op) != 0)
        g_string_append_printf (label, " %s", node->caption);
    }

  description = g_string_new (NULL);
  /* What the box shows under it (a program's `f32[2, 3]`). */
  if (node->annotation != NULL)
    g_string_append_printf (description, "value %s; ", node->annotation);
  boxes = inputs_of (nav, (guint) nav->focus, &n);
  if (n == 0)
    g_string_append (description, "no inputs");
  else
    {
      g_string_append (description, n == 1 ? "input " : "inputs ");
      append_names (description, layout, boxes, n);
    }
  boxes = users_of (nav, (guint) nav->focus, &n);
  if (n == 0)
    g_string_append (description, "; no users");
  else
    {
      g_string_append (description, n == 1 ? "; user " : "; users ");
      append_names (description, layout, boxes, n);
    }
  if (nav->describe != NULL)
    extra = nav->describe (node->name, nav->describe_data);
  else if ((match = focused_match (nav)) >= 0)
    extra = g_strdup_printf ("in match %d", match + 1);
  if (extra != NULL && *extra != '\0')
    g_string_append_printf (description, "; %s", extra);

  gtk_accessible_update_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, label->str,
                                  GTK_ACCESSIBLE_PROPERTY_ROLE_DESCRIPTION,
                                  node->n_members > 0 ? "folded module" : "graph node",
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description->str, -1);
  /* A folded module counts as selected when its first node is; of two
   * nodes of one name, the box's own node. */
  gtk_accessible_update_state (accessible, GTK_ACCESSIBLE_STATE_SELECTED,
                               _graft_canvas_is_box_selected (nav->canvas, (guint) nav->focus),
                               -1);
}

/* The key handlers: each returns FALSE to let the key go on to the
 * window (no graph, or nothing to do that is the canvas's). */

/* A key that moves needs a focused box: the first press focuses one. */
static gboolean
ready (GraftCanvasNav *nav)
{
  GraftLayout *layout = layout_of (nav);

  if (layout == NULL || !gtk_widget_get_focusable (GTK_WIDGET (nav->canvas)) ||
      graft_layout_get_n_nodes (layout) == 0)
    return FALSE;
  ensure_index (nav);
  if (!nav->keyboard)
    {
      nav->keyboard = TRUE;
      gtk_widget_queue_draw (GTK_WIDGET (nav->canvas));
    }
  if (nav->focus < 0)
    jump_to (nav, graph_order_step (layout, -1, 1), TRUE);
  return nav->focus >= 0;
}

static gboolean
moved_or_bell (GraftCanvasNav *nav,
               gboolean        moved)
{
  if (!moved)
    gtk_widget_error_bell (GTK_WIDGET (nav->canvas));
  return TRUE;
}

/* Up (@args "up"), Down ("down"), Left ("left"), Right ("right"): along
 * the edges. */
static gboolean
arrow_cb (GtkWidget *widget,
          GVariant  *args,
          gpointer   data)
{
  GraftCanvasNav *nav = nav_of (widget);
  const char     *way = g_variant_get_string (args, NULL);
  gboolean        moved;

  if (!ready (nav))
    return FALSE;
  if (g_str_equal (way, "up") || g_str_equal (way, "down"))
    moved = step_vertically (nav, g_str_equal (way, "up"));
  else
    moved = step_sideways (nav, g_str_equal (way, "left") ? -1 : 1);
  return moved_or_bell (nav, moved);
}

/* Home (@args "first"), End ("last"), Page Up ("previous"), Page Down
 * ("next"): graph order. */
static gboolean
graph_order_cb (GtkWidget *widget,
                GVariant  *args,
                gpointer   data)
{
  GraftCanvasNav *nav = nav_of (widget);
  GraftLayout    *layout = layout_of (nav);
  const char     *where = g_variant_get_string (args, NULL);
  gint            n;
  gint            to;

  if (!ready (nav))
    return FALSE;
  n = (gint) graft_layout_get_n_nodes (layout);
  if (g_str_equal (where, "first"))
    to = graph_order_step (layout, -1, 1);
  else if (g_str_equal (where, "last"))
    to = graph_order_step (layout, n, -1);
  else
    to = graph_order_step (layout, nav->focus, g_str_equal (where, "next") ? 1 : -1);
  if (to >= 0 && to != nav->focus)
    jump_to (nav, to, TRUE);
  return moved_or_bell (nav, to >= 0);
}

/* Selects box @box alone (or toggles it, with @toggle), as a click does: a
 * folded module's nodes; of two nodes of one name, this one
 * (graft_canvas_get_picked()). */
static void
select_box (GraftCanvasNav *nav,
            guint           box,
            gboolean        toggle)
{
  /* The focus stays where it is, whatever is left selected. */
  nav->selecting = TRUE;
  _graft_canvas_select_box (nav->canvas, box, toggle);
  nav->selecting = FALSE;
}

static gboolean
match_cb (GtkWidget *widget,
          GVariant  *args,
          gpointer   data)
{
  GraftCanvasNav *nav = nav_of (widget);
  GraftLayout    *layout = layout_of (nav);
  gint            to;

  if (layout == NULL || !gtk_widget_get_focusable (widget))
    return FALSE;
  ensure_index (nav);
  nav->keyboard = TRUE;
  to = match_step (nav, g_variant_get_boolean (args));
  /* Past the last match: out of the canvas, through GTK. */
  if (to < 0)
    return FALSE;
  jump_to (nav, to, TRUE);
  if (graft_layout_get_node (layout, (guint) to)->n_members == 0)
    select_box (nav, (guint) to, FALSE);
  return TRUE;
}

static gboolean
menu_cb (GtkWidget *widget,
         GVariant  *args,
         gpointer   data)
{
  GraftCanvasNav        *nav = nav_of (widget);
  GraftLayout           *layout = layout_of (nav);
  const GraftLayoutNode *node;
  double                 x;
  double                 y;

  if (!gtk_widget_get_focusable (widget))
    return FALSE;
  if (layout == NULL || !ready (nav))
    {
      g_signal_emit_by_name (widget, "context-menu", NULL, gtk_widget_get_width (widget) / 2.0,
                             gtk_widget_get_height (widget) / 2.0);
      return TRUE;
    }
  node = graft_layout_get_node (layout, (guint) nav->focus);
  /* As a right click: the node joins the selection unless it is in it. */
  if (node->n_members > 0 || !_graft_canvas_is_box_selected (nav->canvas, (guint) nav->focus))
    select_box (nav, (guint) nav->focus, FALSE);
  scroll_to (nav, (guint) nav->focus);
  graft_canvas_layout_to_widget (nav->canvas, node->box.x + node->box.width / 2,
                                 node->box.y + node->box.height, &x, &y);
  x = CLAMP (x, 0, gtk_widget_get_width (widget));
  y = CLAMP (y, 0, gtk_widget_get_height (widget));
  g_signal_emit_by_name (widget, "context-menu", node->name, x, y);
  return TRUE;
}

static gboolean
activate_cb (GtkWidget *widget,
             GVariant  *args,
             gpointer   data)
{
  GraftCanvasNav *nav = nav_of (widget);
  char           *name;

  if (!ready (nav))
    return FALSE;
  select_box (nav, (guint) nav->focus, FALSE);
  /* Activating may replace the layout (a module expands). */
  name = g_strdup (graft_layout_get_node (layout_of (nav), (guint) nav->focus)->name);
  g_signal_emit_by_name (widget, "node-activated", name);
  g_free (name);
  return TRUE;
}

static gboolean
select_cb (GtkWidget *widget,
           GVariant  *args,
           gpointer   data)
{
  GraftCanvasNav *nav = nav_of (widget);

  if (!ready (nav))
    return FALSE;
  select_box (nav, (guint) nav->focus, g_variant_get_boolean (args));
  return TRUE;
}

/* Whether the window's focus widget is the canvas or in it (its context
 * menu), the window active or not. */
static gboolean
focus_inside (GraftCanvasNav *nav)
{
  GtkWidget *widget = GTK_WIDGET (nav->canvas);
  GtkRoot   *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* Whether the ring shows: the focus is on the canvas or in its context
 * menu, and the window shows where the keyboard focus is. */
static gboolean
ring_shown (GraftCanvasNav *nav)
{
  GtkWidget *widget = GTK_WIDGET (nav->canvas);
  GtkRoot   *root = gtk_widget_get_root (widget);

  return nav->focus >= 0 &&
         (nav->keyboard ||
          (GTK_IS_WINDOW (root) && gtk_window_get_focus_visible (GTK_WINDOW (root)))) &&
         (gtk_widget_get_state_flags (widget) & GTK_STATE_FLAG_FOCUS_WITHIN) != 0;
}

/**
 * _graft_canvas_nav_get_ring:
 * @nav: a canvas's navigation
 * @out_rect: (out): where the focus ring is drawn, in layout coordinates
 *
 * The focus ring goes around the focused box and what is drawn with it (a
 * program node's type, under the box, at zooms where it is drawn:
 * graft_render_shows_annotations()), outside the selection's ring.  It
 * shows only while the keyboard is on the canvas (_graft_canvas_nav_draw()).
 *
 * Returns: whether a box has the focus
 */
gboolean
_graft_canvas_nav_get_ring (GraftCanvasNav *nav,
                            GraftRect      *out_rect)
{
  GraftLayout *layout = layout_of (nav);
  double       pad = MAX (8.0, 5.0 / graft_canvas_get_zoom (nav->canvas));
  GraftRect    r;

  if (layout == NULL || nav->focus < 0)
    return FALSE;
  drawn_extent (nav, (guint) nav->focus, &r);
  out_rect->x = r.x - pad;
  out_rect->y = r.y - pad;
  out_rect->width = r.width + 2 * pad;
  out_rect->height = r.height + 2 * pad;
  return TRUE;
}

/**
 * _graft_canvas_nav_draw:
 * @nav: a canvas's navigation
 * @cr: the canvas's cairo context, in layout coordinates
 *
 * Draws the focus ring, when it shows: dashed, two pixels wide at any
 * zoom (_graft_canvas_nav_get_ring()).
 */
void
_graft_canvas_nav_draw (GraftCanvasNav *nav,
                        cairo_t        *cr)
{
  double    zoom = graft_canvas_get_zoom (nav->canvas);
  GraftRect r;
  double    dash[2];
  gboolean  dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  if (!ring_shown (nav) || !_graft_canvas_nav_get_ring (nav, &r))
    return;
  dash[0] = 5.0 / zoom;
  dash[1] = 3.0 / zoom;
  cairo_save (cr);
  cairo_new_path (cr);
  cairo_rectangle (cr, r.x, r.y, r.width, r.height);
  cairo_set_line_width (cr, 2.0 / zoom);
  cairo_set_dash (cr, dash, 2, 0);
  if (dark)
    cairo_set_source_rgba (cr, 1, 1, 1, 0.9);
  else
    cairo_set_source_rgba (cr, 0, 0, 0, 0.85);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* The box nearest the middle of the view, among those in view; the first
 * in graph order when none is.  Costs what the view shows. */
static gint
box_in_view (GraftCanvasNav *nav)
{
  GraftLayout *layout = layout_of (nav);
  double       width = gtk_widget_get_width (GTK_WIDGET (nav->canvas));
  double       height = gtk_widget_get_height (GTK_WIDGET (nav->canvas));
  double       x0;
  double       y0;
  double       x1;
  double       y1;
  double       best = G_MAXDOUBLE;
  gint         found = -1;
  g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (guint));

  graft_canvas_widget_to_layout (nav->canvas, 0, 0, &x0, &y0);
  graft_canvas_widget_to_layout (nav->canvas, width, height, &x1, &y1);
  graft_layout_query (layout, x0, y0, x1, y1, boxes, NULL);
  for (guint k = 0; k < boxes->len; k++)
    {
      guint                  b = g_array_index (boxes, guint, k);
      const GraftLayoutNode *node = graft_layout_get_node (layout, b);
      double                 dx = center_x (layout, b) - (x0 + x1) / 2;
      double                 dy = center_y (layout, b) - (y0 + y1) / 2;

      if (!node->is_stub && dx * dx + dy * dy < best && center_x (layout, b) >= x0 &&
          center_x (layout, b) <= x1 && center_y (layout, b) >= y0 && center_y (layout, b) <= y1)
        {
          best = dx * dx + dy * dy;
          found = (gint) b;
        }
    }
  return found >= 0 ? found : graph_order_step (layout, -1, 1);
}

/* The canvas got the keyboard focus: a node gets it, the one in the
 * middle of the view unless one had it, so that a screen reader has
 * something to say at once. */
static void
focus_enter_cb (GtkEventControllerFocus *controller,
                GraftCanvasNav          *nav)
{
  GraftLayout *layout = layout_of (nav);

  if (nav->focus < 0 && layout != NULL && graft_layout_get_n_nodes (layout) > 0 &&
      gtk_widget_get_focusable (GTK_WIDGET (nav->canvas)))
    jump_to (nav, box_in_view (nav), FALSE);
  gtk_widget_queue_draw (GTK_WIDGET (nav->canvas));
}

static void
state_flags_changed_cb (GtkWidget      *widget,
                        GtkStateFlags   previous,
                        GraftCanvasNav *nav)
{
  GtkStateFlags mask = GTK_STATE_FLAG_FOCUSED | GTK_STATE_FLAG_FOCUS_WITHIN |
                       GTK_STATE_FLAG_FOCUS_VISIBLE;

  if (((previous ^ gtk_widget_get_state_flags (widget)) & mask) != 0)
    gtk_widget_queue_draw (widget);
}

/**
 * _graft_canvas_nav_new:
 * @canvas: the canvas it drives
 *
 * Returns: (transfer full): the keyboard navigation of @canvas, with
 *   nothing focused
 */
GraftCanvasNav *
_graft_canvas_nav_new (GraftCanvas *canvas)
{
  GraftCanvasNav     *nav = g_new0 (GraftCanvasNav, 1);
  GtkEventController *focus = gtk_event_controller_focus_new ();

  nav->canvas = canvas;
  nav->focus = -1;
  nav->came_from = -1;
  g_signal_connect (focus, "enter", G_CALLBACK (focus_enter_cb), nav);
  gtk_widget_add_controller (GTK_WIDGET (canvas), focus);
  g_signal_connect (canvas, "state-flags-changed", G_CALLBACK (state_flags_changed_cb), nav);
  return nav;
}

/**
 * _graft_canvas_nav_free:
 * @nav: (transfer full): a canvas's navigation, which the canvas no longer
 *   uses
 */
void
_graft_canvas_nav_free (GraftCanvasNav *nav)
{
  g_signal_handlers_disconnect_by_data (nav->canvas, nav);
  drop_index (nav);
  drop_anchors (nav);
  g_clear_pointer (&nav->row, g_array_unref);
  g_clear_pointer (&nav->focus_name, g_free);
  if (nav->describe_destroy != NULL)
    nav->describe_destroy (nav->describe_data);
  g_free (nav);
}

/**
 * _graft_canvas_nav_layout_changed:
 * @nav: a canvas's navigation
 *
 * The canvas shows another layout (or none), its view set: the index goes,
 * and the focus goes to the box holding the node it was on.  When none
 * does (a rewrite replaced it) and the canvas has the keyboard focus, it
 * goes to the node in the middle of the view, where the user looks.
 */
void
_graft_canvas_nav_layout_changed (GraftCanvasNav *nav)
{
  GraftLayout     *layout = layout_of (nav);
  g_autofree char *name = g_steal_pointer (&nav->focus_name);

  drop_index (nav);
  drop_anchors (nav);
  forget_step (nav);
  nav->focus = -1;
  set_focus (nav, layout != NULL && name != NULL ? graft_layout_find_node (layout, name) : -1,
             FALSE);
  if (nav->focus < 0 && layout != NULL && graft_layout_get_n_nodes (layout) > 0 &&
      focus_inside (nav))
    set_focus (nav, box_in_view (nav), FALSE);
  /* Nothing held it: keep the name for a later layout (an undo). */
  if (nav->focus < 0 && layout != NULL && name != NULL)
    nav->focus_name = g_steal_pointer (&name);
  update_accessible (nav);
}

/**
 * _graft_canvas_nav_marks_changed:
 * @nav: a canvas's navigation
 *
 * The matches changed: Tab follows the new ones, and the description the
 * new match of the focused node.
 */
void
_graft_canvas_nav_marks_changed (GraftCanvasNav *nav)
{
  drop_anchors (nav);
  update_accessible (nav);
}

/**
 * _graft_canvas_nav_selection_changed:
 * @nav: a canvas's navigation
 * @selection: the selected node names
 * @picked: the one node selected, picked (graft_canvas_get_picked()), or -1
 *
 * A node selected alone (by a click, the properties panel, Find) gets the
 * focus, so the keyboard goes on from there: of two nodes of one name,
 * the one picked.
 */
void
_graft_canvas_nav_selection_changed (GraftCanvasNav *nav,
                                     GHashTable     *selection,
                                     gint            picked)
{
  GraftLayout   *layout = layout_of (nav);
  GHashTableIter iter;
  gpointer       name;
  gint           box;

  if (layout == NULL || nav->selecting || g_hash_table_size (selection) != 1)
    {
      update_accessible (nav);
      return;
    }
  g_hash_table_iter_init (&iter, selection);
  g_hash_table_iter_next (&iter, &name, NULL);
  box = picked >= 0 ? graft_layout_lookup (layout, (guint) picked) : -1;
  if (box < 0)
    box = graft_layout_find_node (layout, name);
  if (box >= 0 && box != nav->focus)
    jump_to (nav, box, FALSE);
  else
    update_accessible (nav);
}

/**
 * _graft_canvas_nav_clicked:
 * @nav: a canvas's navigation
 * @box: the box clicked (a stub: its node's is focused), or -1 for empty
 *   space
 *
 * A click: the focus goes to the box clicked, without scrolling, and the
 * ring hides until the next key.
 */
void
_graft_canvas_nav_clicked (GraftCanvasNav *nav,
                           gint            box)
{
  nav->keyboard = FALSE;
  if (box >= 0 && box != nav->focus)
    jump_to (nav, box, FALSE);
  gtk_widget_queue_draw (GTK_WIDGET (nav->canvas));
}

/**
 * graft_canvas_get_focus_node:
 * @self: a canvas
 *
 * Returns: (nullable) (transfer none): the name of the box with the
 *   keyboard focus (a node's name, or a folded module's path), valid until
 *   the layout changes
 */
const char *
graft_canvas_get_focus_node (GraftCanvas *self)
{
  GraftCanvasNav *nav;

  g_return_val_if_fail (GRAFT_IS_CANVAS (self), NULL);
  nav = _graft_canvas_get_nav (self);
  if (nav->focus < 0)
    return NULL;
  return graft_layout_get_node (layout_of (nav), (guint) nav->focus)->name;
}

/**
 * graft_canvas_select_focus_node:
 * @self: a canvas
 *
 * When nothing is selected and the keyboard's ring is on a box (the
 * canvas has the window's focus and keys moved it there: Ctrl+G, the
 * arrows), selects that box, as space would: F9 then shows its
 * properties, not "Select a node".
 *
 * Returns: whether a box was selected
 */
gboolean
graft_canvas_select_focus_node (GraftCanvas *self)
{
  GraftCanvasNav *nav;
  GtkRoot        *root;

  g_return_val_if_fail (GRAFT_IS_CANVAS (self), FALSE);
  nav = _graft_canvas_get_nav (self);
  /* The window's focus rather than the focus-within state: a window in
   * the background keeps its focus widget. */
  root = gtk_widget_get_root (GTK_WIDGET (self));
  if (graft_canvas_get_n_selected (self) > 0 || nav->focus < 0 || layout_of (nav) == NULL ||
      !focus_inside (nav) ||
      !(nav->keyboard ||
        (GTK_IS_WINDOW (root) && gtk_window_get_focus_visible (GTK_WINDOW (root)))))
    return FALSE;
  select_box (nav, (guint) nav->focus, FALSE);
  return TRUE;
}

/* Gives the keyboard focus to the box of the node at @position when the
 * layout has the node called @name there (of two nodes of one name, that
 * one), else to the box of the name (its last node's): both public
 * functions below. */
static gboolean
focus_placed (GraftCanvas *self,
              const char  *name,
              guint        position)
{
  GraftCanvasNav *nav = _graft_canvas_get_nav (self);
  GraftLayout    *layout = layout_of (nav);
  gint            box = -1;

  if (layout == NULL)
    return FALSE;
  if (position < graft_layout_get_n_graph_nodes (layout) &&
      strcmp (graft_layout_get_node_name (layout, position), name) == 0)
    box = graft_layout_lookup (layout, position);
  if (box < 0 && (box = graft_layout_find_node (layout, name)) < 0)
    return FALSE;
  jump_to (nav, box, TRUE);
  return TRUE;
}

/**
 * graft_canvas_focus_node:
 * @self: a canvas
 * @name: a graph node's name
 *
 * Gives the keyboard focus among the nodes to the box holding the node
 * called @name (its folded module's, when folded) and brings it into
 * view.  The canvas itself does not grab the focus.
 *
 * Returns: whether a box holds it
 */
gboolean
graft_canvas_focus_node (GraftCanvas *self,
                         const char  *name)
{
  g_return_val_if_fail (GRAFT_IS_CANVAS (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  return focus_placed (self, name, G_MAXUINT);
}

/**
 * graft_canvas_focus_node_placed:
 * @self: a canvas
 * @name: a graph node's name
 * @position: where that node is in graph order, or %G_MAXUINT
 *
 * graft_canvas_focus_node(), of two nodes of one name the one at
 * @position (Find's hit) when the layout has it there.
 *
 * Returns: whether a box holds it
 */
gboolean
graft_canvas_focus_node_placed (GraftCanvas *self,
                                const char  *name,
                                guint        position)
{
  g_return_val_if_fail (GRAFT_IS_CANVAS (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  return focus_placed (self, name, position);
}

/**
 * graft_canvas_set_accessible_func:
 * @self: a canvas
 * @func: (nullable): writes, as plain text, what the focused node's
 *   accessible description ends with (its match, say); %NULL: the match
 *   number from the marks
 * @user_data: for @func
 * @destroy: frees @user_data
 */
void
graft_canvas_set_accessible_func (GraftCanvas            *self,
                                  GraftCanvasDescribeFunc func,
                                  gpointer                user_data,
                                  GDestroyNotify          destroy)
{
  GraftCanvasNav *nav;

  g_return_if_fail (GRAFT_IS_CANVAS (self));
  nav = _graft_canvas_get_nav (self);
  if (nav->describe_destroy != NULL)
    nav->describe_destroy (nav->describe_data);
  nav->describe = func;
  nav->describe_data = user_data;
  nav->describe_destroy = destroy;
  update_accessible (nav);
}

/**
 * graft_canvas_update_accessible:
 * @self: a canvas
 *
 * Writes the focused node's accessible description again, after what the
 * accessible function says about it changed (the chosen match).
 */
void
graft_canvas_update_accessible (GraftCanvas *self)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  update_accessible (_graft_canvas_get_nav (self));
}

/**
 * _graft_canvas_nav_class_init:
 * @widget_class: the canvas's class
 *
 * Binds the keys (see the top of this file).
 */
void
_graft_canvas_nav_class_init (GtkWidgetClass *widget_class)
{
  static const struct
  {
    guint       key;
    guint       keypad;
    const char *way;
  } arrows[] = {
    { GDK_KEY_Up, GDK_KEY_KP_Up, "up" },
    { GDK_KEY_Down, GDK_KEY_KP_Down, "down" },
    { GDK_KEY_Left, GDK_KEY_KP_Left, "left" },
    { GDK_KEY_Right, GDK_KEY_KP_Right, "right" },
  };
  static const struct
  {
    guint       key;
    guint       keypad;
    const char *where;
  } order[] = {
    { GDK_KEY_Home, GDK_KEY_KP_Home, "first" },
    { GDK_KEY_End, GDK_KEY_KP_End, "last" },
    { GDK_KEY_Page_Up, GDK_KEY_KP_Page_Up, "previous" },
    { GDK_KEY_Page_Down, GDK_KEY_KP_Page_Down, "next" },
  };

  for (guint k = 0; k < G_N_ELEMENTS (arrows); k++)
    {
      gtk_widget_class_add_binding (widget_class, arrows[k].key, 0, arrow_cb, "s", arrows[k].way);
      gtk_widget_class_add_binding (widget_class, arrows[k].keypad, 0, arrow_cb, "s",
                                    arrows[k].way);
    }
  for (guint k = 0; k < G_N_ELEMENTS (order); k++)
    {
      gtk_widget_class_add_binding (widget_class, order[k].key, 0, graph_order_cb, "s",
                                    order[k].where);
      gtk_widget_class_add_binding (widget_class, order[k].keypad, 0, graph_order_cb, "s",
                                    order[k].where);
    }
  /* Ctrl+Tab is left to GtkWindow, which moves the focus on. */
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Tab, 0, match_cb, "b", TRUE);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_KP_Tab, 0, match_cb, "b", TRUE);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Tab, GDK_SHIFT_MASK, match_cb, "b", FALSE);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_KP_Tab, GDK_SHIFT_MASK, match_cb, "b",
                                FALSE);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_ISO_Left_Tab, GDK_SHIFT_MASK, match_cb, "b",
                                FALSE);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Menu, 0, menu_cb, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, menu_cb, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Return, 0, activate_cb, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_ISO_Enter, 0, activate_cb, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_KP_Enter, 0, activate_cb, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_space, 0, select_cb, "b", FALSE);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_KP_Space, 0, select_cb, "b", FALSE);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_space, GDK_CONTROL_MASK, select_cb, "b",
                                TRUE);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_KP_Space, GDK_CONTROL_MASK, select_cb, "b",
                                TRUE);
}
