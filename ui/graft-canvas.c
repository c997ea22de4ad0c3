/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-canvas.c: shows a GraftLayout.  Drawing is the core's renderer
 * (graft_render_draw() on the cairo context of gtk_snapshot_append_cairo(),
 * clipped to the visible part); geometry and hit testing are the core's
 * too.  What the canvas owns is the view: zoom and scroll offset, the
 * selection (by node, kept by name so that it survives a new layout), the
 * hovered node, and the per-node match marks it is given.
 *
 * The selection is a table of node names, each with the nodes of that name
 * it holds: every node of it (a name selected as a name), or some of them,
 * told apart by their rank among the nodes of that name in graph order.
 * Where two nodes share a name (graft_layout_has_shared_names(): a
 * program's copy named as the program's node is) a click, Find's hit or
 * the keyboard selects one node, one box, and a new layout selects the
 * node of the same rank again: the program's node, first in graph order,
 * stays selected across the rewrite that adds its copy, and its undo.
 *
 * Interaction: dragging with the middle button pans, and so does
 * scrolling; dragging on empty space draws a rubber band that selects what
 * it meets; Ctrl+scroll and pinching zoom around the pointer; `+`,
 * `-`, `0` (100 %) and `f` (fit) zoom from the keyboard.  A click selects a
 * node (Shift or Ctrl adds or removes it), a click on empty space or
 * Escape clears the selection, a right click asks for a context menu
 * (the `context-menu` signal), and hovering shows the tooltip that the
 * describe function writes.
 *
 * When a new layout replaces the old one (after a rewrite), the view keeps
 * the node nearest the centre of the window where it was on screen, so the
 * user keeps looking at the same place.
 *
 * The keyboard focus on nodes, its ring and what assistive technologies
 * are told of it are graft-canvas-nav.c's.
 *
 * Fit shows the whole graph at whatever zoom that takes, down to the
 * minimum zoom; a graph too large even then is shown from its top at a
 * readable zoom, and the overview map (graft-overview.c) is the way
 * around it.  A new layout is fitted, or, on a canvas that asks for it
 * (graft_canvas_set_start_readable(): the window's), shown at the start
 * view: fitted if that is readable, else from its top at a readable zoom.
 * Both are sticky: until the user pans or zooms, a new size of the canvas
 * (or a new layout) shows the same kind of view again.  Otherwise a
 * resize keeps the layout point at the centre of the view where it is.
 * ::view-changed says the visible area moved, ::content-changed that the
 * layout, the marks or the chosen match did, for the overview map.
 */
#include "config.h"

#include "graft-canvas.h"
#include "graft-canvas-private.h"
#include "graft-turns.h"

#include <string.h>

#include <adwaita.h>
#include <math.h>

#define MIN_ZOOM  0.02
#define MAX_ZOOM  8.0
#define ZOOM_STEP 1.2
#define FIT_PAD   24.0
/* Text is still legible at this zoom. */
#define READABLE_ZOOM 0.35
/* A node shown from a view too small to read it (a match chosen in a
 * fitted view of a big graph) is shown at this zoom: its text reads
 * without effort, and a few nodes around it are in view. */
#define SHOW_ZOOM 0.6

struct _GraftCanvas
{
  GtkWidget parent_instance;

  /* Owned */
  GraftLayout *layout;
  gint        *marks;      /* per graph node of the layout, or NULL */
  guint8      *added;      /* a bit per graph node of the layout, or NULL */
  gboolean    *dropped;    /* per graph node of the layout, or NULL */
  guint8      *changes;    /* per graph node of the layout: a GraftChange, or NULL */
  gboolean     fixed;      /* its folding cannot change: no fold controls */
  gboolean    *selected;   /* per graph node of the layout: in @selection */
  guint        n_selected; /* how many are */
  GHashTable  *selection;  /* node name -> which of its nodes (a rank mask, or 0: all) */
  guint       *ranks;      /* per graph node of a layout with shared names: its rank
                            * among the nodes of its name, or NULL (not made yet) */
  GtkWidget     *menu;     /* the context popover, a child */
  gpointer       describe_data;
  GDestroyNotify describe_destroy;

  /* Owned: the keyboard focus on nodes (graft-canvas-nav.c) */
  GraftCanvasNav *nav;

  /* Borrowed */
  GraftCanvasDescribeFunc describe;

  double   zoom;
  double   offset_x; /* layout point at the widget's left edge */
  double   offset_y;
  double   drag_start_x; /* offsets when a pan started */
  double   drag_start_y;
  double   pinch_zoom; /* zoom when a pinch started */
  double   pointer_x;  /* where the pointer was last seen */
  double   pointer_y;
  gint     hovered; /* layout box, or -1 */
  gboolean panning;
  gboolean banding;      /* a rubber band is being dragged */
  gboolean band_extends; /* Shift or Ctrl was down: add to the selection */
  double   band_x0;      /* its corners, widget coordinates */
  double   band_y0;
  double   band_x1;
  double   band_y1;
  gboolean fit_pending; /* fit once the widget has a size */
  gboolean interactive;
  gboolean fitted;         /* the view is Fit's or the start view, until the user moves it */
  gboolean at_start;       /* which: the start view (fit_view()) */
  gboolean start_readable; /* a new layout is shown at the start view */
  int      last_width;     /* the size the offsets were set for */
  int      last_height;
  gint     chosen_match; /* drawn emphasised, or -1 */
  char    *current_hit;  /* the Find hit drawn emphasised, while selected */
  gint     current_at;   /* its graph node's position, or -1: the box of its name */
  gint     picked;       /* the graph node whose box made the selection, or -1 */
  gint     describing;   /* the graph node the describe function is asked about, or -1 */
};

G_DEFINE_FINAL_TYPE (GraftCanvas, graft_canvas, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_ZOOM,
  N_PROPS,
};

enum {
  SIGNAL_SELECTION_CHANGED,
  SIGNAL_CONTEXT_MENU,
  SIGNAL_NODE_ACTIVATED,
  SIGNAL_DELETE_SELECTION,
  SIGNAL_VIEW_CHANGED,
  SIGNAL_CONTENT_CHANGED,
  N_SIGNALS,
};

static GParamSpec *properties[N_PROPS];
static guint       signals[N_SIGNALS];

static void refit (GraftCanvas *self);

/**
 * graft_canvas_new:
 *
 * Returns: (transfer full): a canvas showing nothing
 */
GtkWidget *
graft_canvas_new (void)
{
  return g_object_new (GRAFT_TYPE_CANVAS, NULL);
}

/* The visible area moved; @by_user: the view is no longer Fit's. */
static void
view_changed (GraftCanvas *self,
              gboolean     by_user)
{
  if (by_user)
    self->fitted = FALSE;
  g_signal_emit (self, signals[SIGNAL_VIEW_CHANGED], 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
content_changed (GraftCanvas *self)
{
  g_signal_emit (self, signals[SIGNAL_CONTENT_CHANGED], 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A node's rank among the nodes of its name, as a bit of a selection's
 * mask: ranks past the mask's bits count as the whole name. */
#define RANK_BIT(rank) ((rank) < 32 ? 1u << (rank) : 0u)

/* The rank of the graph node at @position among the nodes of its name, in
 * graph order: 0 but where two nodes share a name.  The ranks of a layout
 * with shared names are made once, at the first need. */
static guint
node_rank (GraftCanvas *self,
           guint        position)
{
  guint n;

  if (G_LIKELY (!graft_layout_has_shared_names (self->layout)))
    return 0;
  n = graft_layout_get_n_graph_nodes (self->layout);
  if (self->ranks == NULL)
    {
      g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

      self->ranks = g_new (guint, MAX (n, 1));
      for (guint i = 0; i < n; i++)
        {
          const char *name = graft_layout_get_node_name (self->layout, i);
          guint       rank = GPOINTER_TO_UINT (g_hash_table_lookup (seen, name));

          self->ranks[i] = rank;
          g_hash_table_insert (seen, (gpointer) name, GUINT_TO_POINTER (rank + 1));
        }
    }
  return position < n ? self->ranks[position] : 0;
}

/* Whether the selection holds the graph node at @position, by its name and
 * rank (@selected says it for the layout shown). */
static gboolean
holds_node (GraftCanvas *self,
            guint        position)
{
  gpointer value;
  guint    mask;

  if (!g_hash_table_lookup_extended (self->selection,
                                     graft_layout_get_node_name (self->layout, position), NULL,
                                     &value))
    return FALSE;
  mask = GPOINTER_TO_UINT (value);
  return mask == 0 || (mask & RANK_BIT (node_rank (self, position))) != 0;
}

/* Adds the graph node at @position to the selection: that node, not every
 * node of its name. */
static void
add_node (GraftCanvas *self,
          guint        position)
{
  const char *name = graft_layout_get_node_name (self->layout, position);
  guint       bit = RANK_BIT (node_rank (self, position));
  gpointer    value;

  if (g_hash_table_lookup_extended (self->selection, name, NULL, &value))
    {
      if (GPOINTER_TO_UINT (value) != 0 && bit != 0)
        g_hash_table_insert (self->selection, g_strdup (name),
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (value) | bit));
      else
        g_hash_table_insert (self->selection, g_strdup (name), GUINT_TO_POINTER (0));
    }
  else
    g_hash_table_insert (self->selection, g_strdup (name), GUINT_TO_POINTER (bit));
}

/* Takes the graph node at @position out of the selection, the other nodes
 * of its name staying as they are. */
static void
remove_node (GraftCanvas *self,
             guint        position)
{
  const char *name = graft_layout_get_node_name (self->layout, position);
  guint       bit = RANK_BIT (node_rank (self, position));
  guint       mask;
  gpointer    value;

  if (!g_hash_table_lookup_extended (self->selection, name, NULL, &value))
    return;
  mask = GPOINTER_TO_UINT (value);
  if (mask == 0 && bit != 0)
    {
      /* Every node of the name, less this one: the others by their ranks. */
      if (graft_layout_has_shared_names (self->layout))
        for (guint i = 0; i < graft_layout_get_n_graph_nodes (self->layout); i++)
          if (strcmp (graft_layout_get_node_name (self->layout, i), name) == 0)
            mask |= RANK_BIT (node_rank (self, i));
    }
  mask &= ~bit;
  if (mask == 0 || bit == 0)
    g_hash_table_remove (self->selection, name);
  else
    g_hash_table_insert (self->selection, g_strdup (name), GUINT_TO_POINTER (mask));
}

/* Makes @selected say again which of the layout's nodes @selection holds.
 * A selection smaller than the graph (Find's hits, a click) is looked up
 * name by name in the layout's index rather than each node's name in the
 * selection. */
static void
update_selected (GraftCanvas *self)
{
  guint n;

  g_clear_pointer (&self->selected, g_free);
  self->n_selected = 0;
  if (self->layout == NULL)
    return;
  n = graft_layout_get_n_graph_nodes (self->layout);
  self->selected = g_new0 (gboolean, MAX (n, 1));
  /* With two nodes of one name the index knows only the last: each node's
   * name and rank are looked up instead. */
  if (g_hash_table_size (self->selection) < n && !graft_layout_has_shared_names (self->layout))
    {
      GHashTableIter iter;
      gpointer       name;
      gpointer       mask;

      g_hash_table_iter_init (&iter, self->selection);
      while (g_hash_table_iter_next (&iter, &name, &mask))
        {
          gint i = graft_layout_find_graph_node (self->layout, name);

          /* The only node of its name has rank 0. */
          if (i >= 0 && (GPOINTER_TO_UINT (mask) == 0 || (GPOINTER_TO_UINT (mask) & 1) != 0))
            self->selected[i] = TRUE;
        }
    }
  else
    for (guint i = 0; i < n; i++)
      self->selected[i] = holds_node (self, i);
  for (guint i = 0; i < n; i++)
    self->n_selected += self->selected[i] ? 1 : 0;
  /* One node selected is the one picked (graft_canvas_get_picked()),
   * however it came to be alone: Ctrl+click took the other out, a new
   * layout moved it. */
  if (self->n_selected == 1 &&
      (self->picked < 0 || (guint) self->picked >= n || !self->selected[self->picked]))
    for (guint i = 0; i < n; i++)
      if (self->selected[i])
        {
          self->picked = (gint) i;
          break;
        }
}

/* After a new layout: takes out of the selection what it holds of no node
 * now (a copy an undo took away, a node a rewrite removed), so that
 * nothing is kept that is not drawn selected: Escape would clear nothing
 * instead of going on to the window, and a redo would select the node
 * again.  A name selected as a name (mask 0) stays while a node has it.
 * Without shared names a name is one node of rank 0 at most; where every
 * entry holds a node (as many as are selected) none is looked up.
 * Returns whether anything was taken out. */
static gboolean
prune_selection (GraftCanvas *self)
{
  GHashTableIter iter;
  gpointer       name;
  gpointer       value;
  guint          before = g_hash_table_size (self->selection);

  if (self->layout == NULL || before == 0)
    return FALSE;
  g_hash_table_iter_init (&iter, self->selection);
  if (G_LIKELY (!graft_layout_has_shared_names (self->layout)))
    {
      gboolean all_held = before == self->n_selected;

      while (g_hash_table_iter_next (&iter, &name, &value))
        {
          guint mask = GPOINTER_TO_UINT (value);

          if ((mask != 0 && (mask & 1) == 0) ||
              (!all_held && graft_layout_find_graph_node (self->layout, name) < 0))
            g_hash_table_iter_remove (&iter);
          else if (mask > 1)
            g_hash_table_iter_replace (&iter, GUINT_TO_POINTER (1));
        }
    }
  else
    {
      g_autoptr (GHashTable) held = g_hash_table_new (g_str_hash, g_str_equal);
      guint n = graft_layout_get_n_graph_nodes (self->layout);

      /* Which ranks of each name are selected: they are what is left. */
      for (guint i = 0; i < n; i++)
        if (self->selected[i])
          {
            const char *own = graft_layout_get_node_name (self->layout, i);
            guint       mask = GPOINTER_TO_UINT (g_hash_table_lookup (held, own));

            g_hash_table_insert (held, (gpointer) own,
                                 GUINT_TO_POINTER (mask | RANK_BIT (node_rank (self, i))));
          }
      while (g_hash_table_iter_next (&iter, &name, &value))
        {
          gpointer ranks;

          if (!g_hash_table_lookup_extended (held, name, NULL, &ranks))
            g_hash_table_iter_remove (&iter);
          else if (GPOINTER_TO_UINT (value) != 0)
            g_hash_table_iter_replace (&iter, GUINT_TO_POINTER (GPOINTER_TO_UINT (ranks) &
                                                                GPOINTER_TO_UINT (value)));
        }
    }
  return g_hash_table_size (self->selection) != before;
}

static void
clamp_offsets (GraftCanvas *self)
{
  double width = 0;
  double height = 0;
  double view_w = gtk_widget_get_width (GTK_WIDGET (self)) / self->zoom;
  double view_h = gtk_widget_get_height (GTK_WIDGET (self)) / self->zoom;

  if (self->layout != NULL)
    graft_layout_get_size (self->layout, &width, &height);
  /* Keep at least a quarter of the view on the drawing. */
  self->offset_x =
      CLAMP (self->offset_x, -view_w * 0.75, MAX (width - view_w * 0.25, -view_w * 0.75));
  self->offset_y =
      CLAMP (self->offset_y, -view_h * 0.75, MAX (height - view_h * 0.25, -view_h * 0.75));
}

/* Zooms to @zoom, keeping the layout point under widget point (@x, @y)
 * where it is. */
static void
zoom_at (GraftCanvas *self,
         double       zoom,
         double       x,
         double       y)
{
  double lx;
  double ly;

  zoom = CLAMP (zoom, MIN_ZOOM, MAX_ZOOM);
  if (zoom == self->zoom)
    return;
  graft_canvas_widget_to_layout (self, x, y, &lx, &ly);
  self->zoom = zoom;
  self->offset_x = lx - x / zoom;
  self->offset_y = ly - y / zoom;
  clamp_offsets (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
  view_changed (self, TRUE);
}

/**
 * graft_canvas_widget_to_layout:
 * @self: a canvas
 * @x: a point in widget coordinates
 * @y: its y
 * @out_x: (out): the layout point there
 * @out_y: (out): its y
 */
void
graft_canvas_widget_to_layout (GraftCanvas *self,
                               double       x,
                               double       y,
                               double      *out_x,
                               double      *out_y)
{
  *out_x = self->offset_x + x / self->zoom;
  *out_y = self->offset_y + y / self->zoom;
}

/**
 * graft_canvas_layout_to_widget:
 * @self: a canvas
 * @x: a point in layout coordinates
 * @y: its y
 * @out_x: (out): where it is in the widget
 * @out_y: (out): its y
 */
void
graft_canvas_layout_to_widget (GraftCanvas *self,
                               double       x,
                               double       y,
                               double      *out_x,
                               double      *out_y)
{
  *out_x = (x - self->offset_x) * self->zoom;
  *out_y = (y - self->offset_y) * self->zoom;
}

/* The box at widget point (@x, @y), or -1. */
static gint
pick_box (GraftCanvas *self,
          double       x,
          double       y)
{
  double lx;
  double ly;

  if (self->layout == NULL)
    return -1;
  graft_canvas_widget_to_layout (self, x, y, &lx, &ly);
  return graft_layout_hit_test (self->layout, lx, ly);
}

/* Adds what box @box stands for to the selection: its node (of two nodes
 * of one name, that one), or every node of a collapsed scope.  With
 * @toggle, a box already wholly selected is removed instead. */
static void
select_box (GraftCanvas *self,
            guint        box,
            gboolean     toggle)
{
  const GraftLayoutNode *b = graft_layout_get_node (self->layout, box);
  guint                  n;
  const guint           *members = graft_layout_get_members (self->layout, box, &n);
  gboolean               all = TRUE;

  if (n == 0)
    {
      if (toggle && holds_node (self, b->node_index))
        remove_node (self, b->node_index);
      else
        add_node (self, b->node_index);
      return;
    }
  for (guint k = 0; k < n && all; k++)
    all = holds_node (self, members[k]);
  for (guint k = 0; k < n; k++)
    {
      if (toggle && all)
        remove_node (self, members[k]);
      else
        add_node (self, members[k]);
    }
}

/**
 * graft_canvas_pick:
 * @self: a canvas
 * @x: a point in widget coordinates
 * @y: its y
 *
 * Returns: (nullable): the name of the node drawn at (@x, @y) (a stub
 *   stands for the node it copies)
 */
const char *
graft_canvas_pick (GraftCanvas *self,
                   double       x,
                   double       y)
{
  gint box;

  g_return_val_if_fail (GRAFT_IS_CANVAS (self), NULL);
  box = pick_box (self, x, y);
  return box >= 0 ? graft_layout_get_node (self->layout, box)->name : NULL;
}

/* The box of Find's hit: its node's, of two nodes of its name, when the
 * layout has the hit's name at its place. */
static gint
hit_box (GraftCanvas *self)
{
  if (self->current_at >= 0 &&
      (guint) self->current_at < graft_layout_get_n_graph_nodes (self->layout) &&
      strcmp (graft_layout_get_node_name (self->layout, (guint) self->current_at),
              self->current_hit) == 0)
    return graft_layout_lookup (self->layout, (guint) self->current_at);
  return graft_layout_find_node (self->layout, self->current_hit);
}

static void
graft_canvas_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  GraftCanvas       *self = GRAFT_CANVAS (widget);
  int                width = gtk_widget_get_width (widget);
  int                height = gtk_widget_get_height (widget);
  GraftRenderOptions options;
  cairo_t           *cr;

  if (width <= 0 || height <= 0)
    return;
  if (self->layout == NULL)
    {
      double r;
      double g;
      double b;

      graft_render_get_background (adw_style_manager_get_dark (adw_style_manager_get_default ())
                                       ? GRAFT_RENDER_DARK
                                       : GRAFT_RENDER_LIGHT,
                                   &r, &g, &b);
      gtk_snapshot_append_color (snapshot, &(GdkRGBA){ (float) r, (float) g, (float) b, 1 },
                                 &GRAPHENE_RECT_INIT (0, 0, width, height));
      return;
    }
  if (self->fit_pending)
    refit (self);

  graft_render_options_init (&options);
  options.style = adw_style_manager_get_dark (adw_style_manager_get_default ())
                      ? GRAFT_RENDER_DARK
                      : GRAFT_RENDER_LIGHT;
  /* The renderer's background, so the canvas looks like an exported
   * picture in both styles. */
  options.draw_background = TRUE;
  options.node_match = self->marks;
  options.node_selected = self->selected;
  options.node_added = self->added;
  options.node_dropped = self->dropped;
  options.node_change = self->changes;
  options.hovered = self->hovered >= 0
                        ? (gint) graft_layout_get_node (self->layout, self->hovered)->node_index
                        : -1;
  options.chosen_match = self->chosen_match;
  options.no_controls = self->fixed;
  if (self->current_hit != NULL && self->selected != NULL &&
      g_hash_table_contains (self->selection, self->current_hit))
    {
      gint box = hit_box (self);

      /* Drawn so while its own node is selected, not another of its name. */
      if (box >= 0 && self->selected[graft_layout_get_node (self->layout, box)->node_index])
        options.current = (gint) graft_layout_get_node (self->layout, box)->node_index;
    }
  /* Of the boxes of a name two nodes share, the one picked, as Find's. */
  else if (G_UNLIKELY (graft_layout_has_shared_names (self->layout)))
    options.current = graft_canvas_get_picked (self);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_save (cr);
  cairo_scale (cr, self->zoom, self->zoom);
  cairo_translate (cr, -self->offset_x, -self->offset_y);
  graft_render_draw (self->layout, cr, &options);
  _graft_canvas_nav_draw (self->nav, cr);
  cairo_restore (cr);
  if (self->banding)
    {
      cairo_rectangle (cr, MIN (self->band_x0, self->band_x1) + 0.5,
                       MIN (self->band_y0, self->band_y1) + 0.5,
                       fabs (self->band_x1 - self->band_x0), fabs (self->band_y1 - self->band_y0));
      cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 0.15);
      cairo_fill_preserve (cr);
      cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 0.9);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
    }
  cairo_destroy (cr);
}

/* The x of the graph's first node drawn (its first input), or the middle
 * of the graph if it has none: looked up in graph order, not searched
 * for among the boxes (a million in a big program). */
static double
first_node_x (GraftCanvas *self,
              double       width)
{
  for (guint i = 0; i < graft_layout_get_n_graph_nodes (self->layout); i++)
    {
      gint b = graft_layout_lookup (self->layout, i);

      if (b >= 0)
        {
          const GraftLayoutNode *box = graft_layout_get_node (self->layout, (guint) b);

          return box->box.x + box->box.width / 2;
        }
    }
  return width / 2;
}

/* Fit's view (@start FALSE) or the start view (TRUE), and the view follows
 * it until the user moves it.  Both show the whole graph, centred, at
 * 100 % at most; where that is too small to read (the start view: below
 * READABLE_ZOOM; Fit: below MIN_ZOOM, where nodes are specks) the graph
 * is shown from its top instead, as wide as the view takes (between
 * READABLE_ZOOM and SHOW_ZOOM for the start view, 100 % for Fit), and
 * across from its first input when it is wider than that. */
static void
fit_view (GraftCanvas *self,
          gboolean     start)
{
  double width;
  double height;
  double view_w = gtk_widget_get_width (GTK_WIDGET (self));
  double view_h = gtk_widget_get_height (GTK_WIDGET (self));
  double zoom;
  double width_zoom;

  if (self->layout == NULL)
    return;
  self->at_start = start;
  if (view_w <= 0 || view_h <= 0)
    {
      self->fit_pending = TRUE;
      return;
    }
  graft_layout_get_size (self->layout, &width, &height);
  width_zoom = (MAX (view_w - 2 * FIT_PAD, 1)) / MAX (width, 1);
  zoom = MIN (width_zoom, (MAX (view_h - 2 * FIT_PAD, 1)) / MAX (height, 1));
  if (start && zoom < READABLE_ZOOM)
    zoom = CLAMP (width_zoom, READABLE_ZOOM, SHOW_ZOOM);
  else if (zoom < MIN_ZOOM)
    zoom = CLAMP (width_zoom, READABLE_ZOOM, 1.0);
  zoom = MIN (zoom, 1.0);
  if (width * zoom <= view_w)
    self->offset_x = (width - view_w / zoom) / 2;
  else if (start)
    self->offset_x = CLAMP (first_node_x (self, width) - view_w / zoom / 2, -FIT_PAD / zoom,
                            width + FIT_PAD / zoom - view_w / zoom);
  else
    self->offset_x = -FIT_PAD / zoom;
  if (height * zoom <= view_h)
    self->offset_y = (height - view_h / zoom) / 2;
  else
    self->offset_y = -FIT_PAD / zoom;
  self->fitted = TRUE;
  if (zoom != self->zoom)
    {
      self->zoom = zoom;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
    }
  view_changed (self, FALSE);
}

/* The view follows Fit's or the start view: shows it again. */
static void
refit (GraftCanvas *self)
{
  self->fit_pending = FALSE;
  fit_view (self, self->at_start);
}

/**
 * graft_canvas_zoom_to_fit:
 * @self: a canvas
 *
 * Shows the whole graph, centred, at 100 % at most, however small that
 * makes it.  A graph that does not fit even at the minimum zoom (tens of
 * thousands of nodes) would only be specks there, so it is shown from its
 * top at a readable zoom instead (its width, between READABLE_ZOOM and
 * 100 %), and the overview map is the way around it.  The view stays
 * fitted across resizes and new layouts until the user pans or zooms.
 */
void
graft_canvas_zoom_to_fit (GraftCanvas *self)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  fit_view (self, FALSE);
}

/**
 * graft_canvas_set_start_readable:
 * @self: a canvas
 * @readable: whether a new graph is shown at a readable zoom
 *
 * How a new layout (graft_canvas_set_layout() without @keep_view) is
 * first shown.  By default it is fitted (graft_canvas_zoom_to_fit()).
 * With @readable, a graph whose fitted view is too small to read
 * (`resnet18_bn_relu.py` fitted at 13 %, a `.pt2` ResNet at 9 %) is
 * shown instead from its top, its inputs, at a readable zoom; a graph
 * readable whole is still fitted.  Like Fit's, that view follows resizes
 * until the user moves it; Fit (`f`) then shows the whole graph.
 */
void
graft_canvas_set_start_readable (GraftCanvas *self,
                                 gboolean     readable)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  self->start_readable = readable;
}

static void emit_selection_changed (GraftCanvas *self);

/* The graph node (its position in graph order) box @box draws, or -1 for
 * a collapsed scope's. */
static gint
box_graph_node (GraftCanvas *self,
                gint         box)
{
  const GraftLayoutNode *b;

  if (box < 0)
    return -1;
  b = graft_layout_get_node (self->layout, (guint) box);
  return b->n_members > 0 ? -1 : (gint) b->node_index;
}

/**
 * graft_canvas_pick_graph_node:
 * @self: a canvas
 * @x: a point in widget coordinates
 * @y: its y
 *
 * Which of the nodes of one name is drawn at a point (graft_canvas_pick()
 * gives the name), where two nodes share a name
 * (graft_layout_has_shared_names()).
 *
 * Returns: the position in graph order of the node drawn at (@x, @y) (a
 *   stub stands for the node it copies), or -1 (none, or a collapsed
 *   scope)
 */
gint
graft_canvas_pick_graph_node (GraftCanvas *self,
                              double       x,
                              double       y)
{
  g_return_val_if_fail (GRAFT_IS_CANVAS (self), -1);
  return box_graph_node (self, pick_box (self, x, y));
}

/**
 * graft_canvas_get_picked:
 * @self: a canvas
 *
 * Which node the user picked (a click on its box, the keyboard, Find's
 * hit, or graft_canvas_select_graph_node()) when it is the one node
 * selected: of two nodes of one name, the one whose box is selected.
 *
 * Returns: its position in graph order, or -1 when the selection is not
 *   one node picked so
 */
gint
graft_canvas_get_picked (GraftCanvas *self)
{
  g_return_val_if_fail (GRAFT_IS_CANVAS (self), -1);
  if (self->picked < 0 || self->layout == NULL ||
      (guint) self->picked >= graft_layout_get_n_graph_nodes (self->layout) ||
      self->n_selected != 1 || !self->selected[self->picked])
    return -1;
  return self->picked;
}

/**
 * graft_canvas_describe_at:
 * @self: a canvas
 * @x: a point in widget coordinates
 * @y: its y
 *
 * What the tooltip says of the box at (@x, @y): the describe function's
 * text (graft_canvas_set_describe_func()), asked while
 * graft_canvas_get_described_node() says which node the box draws.
 *
 * Returns: (transfer full) (nullable): the text, or %NULL
 */
char *
graft_canvas_describe_at (GraftCanvas *self,
                          double       x,
                          double       y)
{
  const char *name;
  char       *text;

  g_return_val_if_fail (GRAFT_IS_CANVAS (self), NULL);
  if (self->describe == NULL || (name = graft_canvas_pick (self, x, y)) == NULL)
    return NULL;
  /* Of two nodes of one name, which. */
  self->describing = box_graph_node (self, pick_box (self, x, y));
  text = self->describe (name, self->describe_data);
  self->describing = -1;
  return text;
}

/**
 * graft_canvas_get_described_node:
 * @self: a canvas
 *
 * Which node the describe function (graft_canvas_set_describe_func()) is
 * asked about, while it is: of two nodes of one name, the one whose box
 * the pointer is on.
 *
 * Returns: its position in graph order, or -1 (not asked now, or a folded
 *   module's box)
 */
gint
graft_canvas_get_described_node (GraftCanvas *self)
{
  g_return_val_if_fail (GRAFT_IS_CANVAS (self), -1);
  return self->describing;
}

/**
 * graft_canvas_is_node_selected:
 * @self: a canvas
 * @position: a graph node's position in graph order, in the layout shown
 *
 * Returns: whether that node is selected (of two nodes of one name, each
 *   is selected or not on its own)
 */
gboolean
graft_canvas_is_node_selected (GraftCanvas *self,
                               guint        position)
{
  g_return_val_if_fail (GRAFT_IS_CANVAS (self), FALSE);
  return self->layout != NULL && self->selected != NULL &&
         position < graft_layout_get_n_graph_nodes (self->layout) && self->selected[position];
}

/* Selects the graph node at @node_index (of the layout) alone, as picked
 * (graft_canvas_get_picked()): a click or the keyboard on its box. */
void
_graft_canvas_select_picked (GraftCanvas *self,
                             guint        node_index)
{
  g_hash_table_remove_all (self->selection);
  add_node (self, node_index);
  self->picked = (gint) node_index;
  emit_selection_changed (self);
}

/* What a click on box @box does to the selection, with Shift or Ctrl if
 * @toggle: the keyboard's Space and Ctrl+Space. */
void
_graft_canvas_select_box (GraftCanvas *self,
                          guint        box,
                          gboolean     toggle)
{
  const GraftLayoutNode *b = graft_layout_get_node (self->layout, box);

  self->picked = b->n_members > 0 ? -1 : (gint) b->node_index;
  if (!toggle)
    g_hash_table_remove_all (self->selection);
  select_box (self, box, toggle);
  emit_selection_changed (self);
}

/* The box of the node called @name, of two nodes of that name the one at
 * @node_index (G_MAXUINT: not known) when the layout has it there. */
static gint
named_box (GraftCanvas *self,
           const char  *name,
           guint        node_index)
{
  if (node_index < graft_layout_get_n_graph_nodes (self->layout) &&
      strcmp (graft_layout_get_node_name (self->layout, node_index), name) == 0)
    return graft_layout_lookup (self->layout, node_index);
  return graft_layout_find_node (self->layout, name);
}

/**
 * graft_canvas_select_graph_node:
 * @self: a canvas
 * @node_index: a graph node's position in graph order
 *
 * Selects that node's name alone, as picked (graft_canvas_get_picked()),
 * and scrolls so that the node's box is in the middle of the view: of two
 * nodes of one name, that one's.
 */
void
graft_canvas_select_graph_node (GraftCanvas *self,
                                guint        node_index)
{
  gint             box;
  const GraftRect *r;

  g_return_if_fail (GRAFT_IS_CANVAS (self));
  if (self->layout == NULL || node_index >= graft_layout_get_n_graph_nodes (self->layout))
    return;
  _graft_canvas_select_picked (self, node_index);
  if ((box = graft_layout_lookup (self->layout, node_index)) < 0)
    return;
  r = &graft_layout_get_node (self->layout, (guint) box)->box;
  graft_canvas_set_center (self, r->x + r->width / 2, r->y + r->height / 2);
}

/**
 * graft_canvas_center_on:
 * @self: a canvas
 * @name: a node's name
 *
 * Scrolls so that the node called @name is in the middle of the view.
 */
void
graft_canvas_center_on (GraftCanvas *self,
                        const char  *name)
{
  graft_canvas_center_on_placed (self, name, G_MAXUINT);
}

/**
 * graft_canvas_center_on_placed:
 * @self: a canvas
 * @name: a node's name
 * @node_index: where that node is in graph order, or %G_MAXUINT
 *
 * graft_canvas_center_on(), of two nodes of one name the one at
 * @node_index (Find's hit).
 */
void
graft_canvas_center_on_placed (GraftCanvas *self,
                               const char  *name,
                               guint        node_index)
{
  gint             box;
  const GraftRect *r;

  g_return_if_fail (GRAFT_IS_CANVAS (self));
  if (self->layout == NULL || name == NULL || (box = named_box (self, name, node_index)) < 0)
    return;
  r = &graft_layout_get_node (self->layout, box)->box;
  graft_canvas_set_center (self, r->x + r->width / 2, r->y + r->height / 2);
}

/* Where a view of @view layout units along one axis starts so as to show
 * no blank beyond a graph @extent long but a margin of @pad: as near
 * @offset as that allows, or the graph centred when it is shorter than
 * the view. */
static double
filled_offset (double offset,
               double extent,
               double view,
               double pad)
{
  if (extent + 2 * pad <= view)
    return (extent - view) / 2;
  return CLAMP (offset, -pad, extent + pad - view);
}

/* graft_canvas_fill_view()'s offsets; FALSE if the canvas has nothing to
 * fill (no layout, no size yet). */
static gboolean
fill_offsets (GraftCanvas *self)
{
  double width;
  double height;
  double pad;

  if (self->layout == NULL || gtk_widget_get_width (GTK_WIDGET (self)) <= 0 ||
      gtk_widget_get_height (GTK_WIDGET (self)) <= 0)
    return FALSE;
  graft_layout_get_size (self->layout, &width, &height);
  pad = FIT_PAD / self->zoom;
  self->offset_x = filled_offset (self->offset_x, width,
                                  gtk_widget_get_width (GTK_WIDGET (self)) / self->zoom, pad);
  self->offset_y = filled_offset (self->offset_y, height,
                                  gtk_widget_get_height (GTK_WIDGET (self)) / self->zoom, pad);
  return TRUE;
}

/**
 * graft_canvas_fill_view:
 * @self: a canvas
 *
 * Moves the view as little as it takes to show no blank canvas beyond the
 * graph's edges (but Fit's margin), across and down; along an axis where
 * the whole graph fits in the view, the graph is centred on it instead.
 * A node put in view near the graph's top is then shown with the top at
 * the top of the view, not halfway down it under blank canvas.
 */
void
graft_canvas_fill_view (GraftCanvas *self)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  if (fill_offsets (self))
    view_changed (self, TRUE);
}

/**
 * graft_canvas_show_node:
 * @self: a canvas
 * @name: a node's name
 *
 * Shows the node called @name: zooms in to a readable zoom when the view
 * is too small to read it (a big graph's fitted view, at 9 %, showed a
 * chosen match as a dot), centres the node, as graft_canvas_center_on()
 * does, and then fills the view with the graph (graft_canvas_fill_view()):
 * a node near an edge of the graph is shown off centre, towards that edge,
 * rather than with blank canvas between the view's edge and the graph's.
 * A view at a readable zoom keeps its zoom.
 */
void
graft_canvas_show_node (GraftCanvas *self,
                        const char  *name)
{
  graft_canvas_show_node_placed (self, name, G_MAXUINT);
}

/**
 * graft_canvas_show_node_placed:
 * @self: a canvas
 * @name: a node's name
 * @node_index: where that node is in graph order, or %G_MAXUINT
 *
 * graft_canvas_show_node(), of two nodes of one name the one at
 * @node_index (Find's hit).
 */
void
graft_canvas_show_node_placed (GraftCanvas *self,
                               const char  *name,
                               guint        node_index)
{
  gint             box;
  const GraftRect *r;

  g_return_if_fail (GRAFT_IS_CANVAS (self));
  if (self->layout == NULL || name == NULL || (box = named_box (self, name, node_index)) < 0)
    return;
  if (self->zoom < READABLE_ZOOM && gtk_widget_get_width (GTK_WIDGET (self)) > 0)
    {
      self->fit_pending = FALSE;
      self->zoom = SHOW_ZOOM;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
    }
  r = &graft_layout_get_node (self->layout, (guint) box)->box;
  self->offset_x = r->x + r->width / 2 - gtk_widget_get_width (GTK_WIDGET (self)) / self->zoom / 2;
  self->offset_y =
      r->y + r->height / 2 - gtk_widget_get_height (GTK_WIDGET (self)) / self->zoom / 2;
  if (!fill_offsets (self))
    clamp_offsets (self);
  view_changed (self, TRUE);
}

/**
 * graft_canvas_get_readable:
 * @self: a canvas
 *
 * Returns: whether the view's zoom is one at which a node's text can be
 *   read (graft_canvas_show_node() zooms in to one)
 */
gboolean
graft_canvas_get_readable (GraftCanvas *self)
{
  g_return_val_if_fail (GRAFT_IS_CANVAS (self), FALSE);
  return self->zoom >= READABLE_ZOOM;
}

/**
 * graft_canvas_node_in_view:
 * @self: a canvas
 * @name: a node's name
 *
 * Returns: whether the box called @name is wholly in the view (a canvas
 *   not yet given its size shows nothing; a name without a box is not)
 */
gboolean
graft_canvas_node_in_view (GraftCanvas *self,
                           const char  *name)
{
  GraftLayout     *layout;
  gint             box;
  const GraftRect *r;
  GraftRect        view;

  g_return_val_if_fail (GRAFT_IS_CANVAS (self), FALSE);
  layout = graft_canvas_get_layout (self);
  box = layout != NULL ? graft_layout_find_node (layout, name) : -1;
  if (box < 0)
    return FALSE;
  r = &graft_layout_get_node (layout, (guint) box)->box;
  graft_canvas_get_visible_area (self, &view);
  return view.width > 0 && view.height > 0 && r->x >= view.x && r->y >= view.y &&
         r->x + r->width <= view.x + view.width && r->y + r->height <= view.y + view.height;
}

/**
 * graft_canvas_set_center:
 * @self: a canvas
 * @x: a layout point
 * @y: its y
 *
 * Scrolls so that layout point (@x, @y) is in the middle of the view (as
 * near as the canvas lets the drawing go).
 */
void
graft_canvas_set_center (GraftCanvas *self,
                         double       x,
                         double       y)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  self->offset_x = x - gtk_widget_get_width (GTK_WIDGET (self)) / self->zoom / 2;
  self->offset_y = y - gtk_widget_get_height (GTK_WIDGET (self)) / self->zoom / 2;
  clamp_offsets (self);
  view_changed (self, TRUE);
}

/**
 * graft_canvas_get_visible_area:
 * @self: a canvas
 * @out_area: (out): the part of the layout in view, in layout coordinates
 */
void
graft_canvas_get_visible_area (GraftCanvas *self,
                               GraftRect   *out_area)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  out_area->x = self->offset_x;
  out_area->y = self->offset_y;
  out_area->width = gtk_widget_get_width (GTK_WIDGET (self)) / self->zoom;
  out_area->height = gtk_widget_get_height (GTK_WIDGET (self)) / self->zoom;
}

/* The node nearest the middle of the view, and where it is on screen. */
static const char *
node_at_center (GraftCanvas *self,
                double      *out_x,
                double      *out_y)
{
  double      cx;
  double      cy;
  double      best = G_MAXDOUBLE;
  const char *name = NULL;

  graft_canvas_widget_to_layout (self, gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
                                 gtk_widget_get_height (GTK_WIDGET (self)) / 2.0, &cx, &cy);
  for (guint i = 0; i < graft_layout_get_n_nodes (self->layout); i++)
    {
      const GraftLayoutNode *box = graft_layout_get_node (self->layout, i);
      double                 dx = box->box.x + box->box.width / 2 - cx;
      double                 dy = box->box.y + box->box.height / 2 - cy;

      if (!box->is_stub && dx * dx + dy * dy < best)
        {
          best = dx * dx + dy * dy;
          /* A collapsed scope is found again by its first node. */
          name = box->n_members > 0 ? graft_layout_get_node_name (self->layout, box->node_index)
                                    : box->name;
          *out_x = box->box.x + box->box.width / 2;
          *out_y = box->box.y + box->box.height / 2;
        }
    }
  return name;
}

/**
 * graft_canvas_set_layout:
 * @self: a canvas
 * @layout: (transfer full) (nullable): the layout to show
 * @keep_view: keep looking at the same place (after an edit), rather than
 *   fitting the new graph in the view
 *
 * Shows @layout.  The marks are dropped: set them for the new layout.
 */
void
graft_canvas_set_layout (GraftCanvas *self,
                         GraftLayout *layout,
                         gboolean     keep_view)
{
  g_autofree char *anchor = NULL;
  double           ax = 0;
  double           ay = 0;

  g_return_if_fail (GRAFT_IS_CANVAS (self));

  if (keep_view && self->layout != NULL)
    {
      double      sx;
      double      sy;
      const char *name = node_at_center (self, &ax, &ay);

      graft_canvas_layout_to_widget (self, ax, ay, &sx, &sy);
      anchor = g_strdup (name);
      ax = sx;
      ay = sy;
    }
  graft_canvas_free_layout (g_steal_pointer (&self->layout));
  g_clear_pointer (&self->marks, g_free);
  g_clear_pointer (&self->added, g_free);
  g_clear_pointer (&self->dropped, g_free);
  g_clear_pointer (&self->changes, g_free);
  self->layout = layout;
  self->hovered = -1;
  g_clear_pointer (&self->ranks, g_free);
  update_selected (self);
  if (prune_selection (self))
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.clear-selection",
                                   g_hash_table_size (self->selection) > 0);

  if (layout != NULL && !keep_view)
    fit_view (self, self->start_readable && self->interactive);
  else if (layout != NULL && self->fitted)
    refit (self);
  else if (layout != NULL && anchor != NULL)
    {
      gint box = graft_layout_find_node (layout, anchor);

      if (box >= 0)
        {
          const GraftRect *r = &graft_layout_get_node (layout, box)->box;

          self->offset_x = r->x + r->width / 2 - ax / self->zoom;
          self->offset_y = r->y + r->height / 2 - ay / self->zoom;
        }
      clamp_offsets (self);
    }
  _graft_canvas_nav_layout_changed (self->nav);
  content_changed (self);
  view_changed (self, FALSE);
}

/**
 * graft_canvas_get_layout:
 * @self: a canvas
 *
 * Returns: (nullable) (transfer none): the layout shown
 */
GraftLayout *
graft_canvas_get_layout (GraftCanvas *self)
{
  g_return_val_if_fail (GRAFT_IS_CANVAS (self), NULL);
  return self->layout;
}

/**
 * graft_canvas_set_marks:
 * @self: a canvas
 * @marks: (transfer full) (nullable): per graph node of the layout, the
 *   match it belongs to or -1
 */
void
graft_canvas_set_marks (GraftCanvas *self,
                        gint        *marks)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  g_free (self->marks);
  self->marks = marks;
  _graft_canvas_nav_marks_changed (self->nav);
  content_changed (self);
}

/**
 * graft_canvas_get_marks:
 * @self: a canvas
 *
 * Returns: (nullable) (transfer none): per graph node of the layout, the
 *   match it belongs to or -1, as last set
 */
const gint *
graft_canvas_get_marks (GraftCanvas *self)
{
  g_return_val_if_fail (GRAFT_IS_CANVAS (self), NULL);
  return self->marks;
}

/**
 * graft_canvas_set_chosen_match:
 * @self: a canvas
 * @match: the match Replace would rewrite, or -1
 *
 * Draws match @match with a halo and the other matches quieter.
 */
void
graft_canvas_set_chosen_match (GraftCanvas *self,
                               gint         match)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  match = MAX (match, -1);
  if (match == self->chosen_match)
    return;
  self->chosen_match = match;
  content_changed (self);
}

gint
graft_canvas_get_chosen_match (GraftCanvas *self)
{
  g_return_val_if_fail (GRAFT_IS_CANVAS (self), -1);
  return self->chosen_match;
}

/**
 * graft_canvas_set_current_hit:
 * @self: a canvas
 * @name: (nullable): the node Find shows, or %NULL
 *
 * Draws node @name's selection ring thicker, with a halo, while it is
 * selected.
 */
void
graft_canvas_set_current_hit (GraftCanvas *self,
                              const char  *name)
{
  graft_canvas_set_current_hit_placed (self, name, G_MAXUINT);
}

/**
 * graft_canvas_set_current_hit_placed:
 * @self: a canvas
 * @name: (nullable): the node Find shows, or %NULL
 * @node_index: where that node is in graph order, or %G_MAXUINT
 *
 * graft_canvas_set_current_hit(), of two nodes of one name the one at
 * @node_index drawn emphasised (both were).
 */
void
graft_canvas_set_current_hit_placed (GraftCanvas *self,
                                     const char  *name,
                                     guint        node_index)
{
  gint at = node_index <= G_MAXINT ? (gint) node_index : -1;

  g_return_if_fail (GRAFT_IS_CANVAS (self));
  if (g_strcmp0 (name, self->current_hit) == 0 && at == self->current_at)
    return;
  g_free (self->current_hit);
  self->current_hit = g_strdup (name);
  self->current_at = at;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
graft_canvas_get_current_hit (GraftCanvas *self)
{
  g_return_val_if_fail (GRAFT_IS_CANVAS (self), NULL);
  return self->current_hit;
}

/**
 * graft_canvas_free_layout:
 * @layout: (transfer full) (nullable): a layout
 *
 * Drops a reference to @layout, as graft_layout_free() does, on another
 * thread when it is big (GRAFT_TURNS_FREE_LATER_NODES; its references
 * are atomic, and a layout does not change once made).
 */
void
graft_canvas_free_layout (GraftLayout *layout)
{
  if (layout != NULL && graft_layout_get_n_graph_nodes (layout) >= GRAFT_TURNS_FREE_LATER_NODES)
    graft_turns_free_later (layout, (GDestroyNotify) graft_layout_free);
  else
    graft_layout_free (layout);
}

/**
 * graft_canvas_set_added:
 * @self: a canvas
 * @added: (transfer full) (nullable): the graph nodes of the layout the
 *   last rewrite added, a set from graft_render_bits_new()
 */
void
graft_canvas_set_added (GraftCanvas *self,
                        guint8      *added)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  g_free (self->added);
  self->added = added;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * graft_canvas_set_dropped:
 * @self: a canvas
 * @dropped: (transfer full) (nullable): per graph node of the layout,
 *   whether it belongs to an occurrence torch's rules leave alone
 */
void
graft_canvas_set_dropped (GraftCanvas *self,
                          gboolean    *dropped)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  g_free (self->dropped);
  self->dropped = dropped;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * graft_canvas_set_changes:
 * @self: a canvas
 * @changes: (transfer full) (nullable): per graph node of the layout, a
 *   #GraftChange: what a change did to it (the split view's colours)
 */
void
graft_canvas_set_changes (GraftCanvas *self,
                          guint8      *changes)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  g_free (self->changes);
  self->changes = changes;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * graft_canvas_set_fixed:
 * @self: a canvas
 * @fixed: whether its folding cannot change
 *
 * A canvas whose window has no `win.collapse-scope` nor
 * `win.expand-scope` (Compare Graphs, Match in Context) draws no fold
 * controls on its frames and folded boxes, and a click there is a click
 * on the canvas: the controls did nothing there.
 */
void
graft_canvas_set_fixed (GraftCanvas *self,
                        gboolean     fixed)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  self->fixed = fixed;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * graft_canvas_get_fixed:
 * @self: a canvas
 *
 * Returns: whether graft_canvas_set_fixed() said its folding cannot change
 */
gboolean
graft_canvas_get_fixed (GraftCanvas *self)
{
  g_return_val_if_fail (GRAFT_IS_CANVAS (self), FALSE);
  return self->fixed;
}

/**
 * graft_canvas_show_point:
 * @self: a canvas
 * @zoom: the scale to show the layout at
 * @x: a point of the layout
 * @y: its y
 * @widget_x: where in the widget to show it
 * @widget_y: its y
 *
 * Zooms to @zoom and scrolls so that layout point (@x, @y) is at widget
 * point (@widget_x, @widget_y) (a view that follows another one).
 */
void
graft_canvas_show_point (GraftCanvas *self,
                         double       zoom,
                         double       x,
                         double       y,
                         double       widget_x,
                         double       widget_y)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  zoom = CLAMP (zoom, MIN_ZOOM, MAX_ZOOM);
  self->fit_pending = FALSE;
  self->offset_x = x - widget_x / zoom;
  self->offset_y = y - widget_y / zoom;
  if (zoom != self->zoom)
    {
      self->zoom = zoom;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
    }
  view_changed (self, TRUE);
}

/**
 * graft_canvas_set_describe_func:
 * @self: a canvas
 * @func: (nullable): writes a node's tooltip
 * @user_data: for @func
 * @destroy: frees @user_data
 */
void
graft_canvas_set_describe_func (GraftCanvas            *self,
                                GraftCanvasDescribeFunc func,
                                gpointer                user_data,
                                GDestroyNotify          destroy)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  if (self->describe_destroy != NULL)
    self->describe_destroy (self->describe_data);
  self->describe = func;
  self->describe_data = user_data;
  self->describe_destroy = destroy;
}

/**
 * graft_canvas_set_interactive:
 * @self: a canvas
 * @interactive: whether the user may pan, zoom and select; a preview is
 *   not, and always shows its whole graph
 */
void
graft_canvas_set_interactive (GraftCanvas *self,
                              gboolean     interactive)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  self->interactive = interactive;
  gtk_widget_set_focusable (GTK_WIDGET (self), interactive);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), interactive);
}

double
graft_canvas_get_zoom (GraftCanvas *self)
{
  g_return_val_if_fail (GRAFT_IS_CANVAS (self), 1.0);
  return self->zoom;
}

/**
 * graft_canvas_set_zoom:
 * @self: a canvas
 * @zoom: the scale, 1.0 for 100 %
 *
 * Zooms around the middle of the view.
 */
void
graft_canvas_set_zoom (GraftCanvas *self,
                       double       zoom)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  zoom_at (self, zoom, gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
           gtk_widget_get_height (GTK_WIDGET (self)) / 2.0);
}

/* Tells the selection has changed, @selected being made. */
static void
selection_changed (GraftCanvas *self)
{
  /* Escape is the canvas's only while there is a selection to clear; else
   * it goes on to the window, where Compare Graphs (a window to glance
   * at) closes on it and a side panel lying over the canvas hides. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.clear-selection",
                                 g_hash_table_size (self->selection) > 0);
  _graft_canvas_nav_selection_changed (self->nav, self->selection, graft_canvas_get_picked (self));
  g_signal_emit (self, signals[SIGNAL_SELECTION_CHANGED], 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
emit_selection_changed (GraftCanvas *self)
{
  update_selected (self);
  selection_changed (self);
}

/**
 * graft_canvas_select:
 * @self: a canvas
 * @name: a node's name
 * @extend: add it to the selection (toggling it) instead of selecting it
 *   alone
 */
void
graft_canvas_select (GraftCanvas *self,
                     const char  *name,
                     gboolean     extend)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  self->picked = -1;
  if (!extend)
    g_hash_table_remove_all (self->selection);
  if (extend && g_hash_table_contains (self->selection, name))
    g_hash_table_remove (self->selection, name);
  else
    g_hash_table_insert (self->selection, g_strdup (name), GUINT_TO_POINTER (0));
  emit_selection_changed (self);
}

/**
 * graft_canvas_clear_selection:
 * @self: a canvas
 */
void
graft_canvas_clear_selection (GraftCanvas *self)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  self->picked = -1;
  if (g_hash_table_size (self->selection) == 0)
    return;
  g_hash_table_remove_all (self->selection);
  emit_selection_changed (self);
}

/**
 * graft_canvas_set_selection:
 * @self: a canvas
 * @names: (array zero-terminated=1): the node names to select
 *
 * Selects exactly @names.
 */
void
graft_canvas_set_selection (GraftCanvas       *self,
                            const char *const *names)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  self->picked = -1;
  g_hash_table_remove_all (self->selection);
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    g_hash_table_insert (self->selection, g_strdup (names[i]), GUINT_TO_POINTER (0));
  emit_selection_changed (self);
}

/**
 * graft_canvas_set_selection_placed:
 * @self: a canvas
 * @names: (array length=n): the node names to select, each once
 * @places: (array length=n): where each may be in the layout's graph
 *   order (a graph node's position in the graph the layout was made of),
 *   or %G_MAXUINT when not known
 * @n: how many
 *
 * Selects exactly @names, as graft_canvas_set_selection() does, but a name
 * found at its place is that node, not every node of its name (Find's hit
 * of one of two nodes of one name selects its own box); a name found at
 * its place is not looked up by name either (Find knows where its hits
 * are: at a million nodes, looking 105,000 hits up took 10-15 ms).
 */
void
graft_canvas_set_selection_placed (GraftCanvas       *self,
                                   const char *const *names,
                                   const guint       *places,
                                   guint              n)
{
  guint n_nodes;

  g_return_if_fail (GRAFT_IS_CANVAS (self));
  /* One hit: the node Find placed, of two of its name. */
  self->picked = n == 1 ? (gint) places[0] : -1;
  g_hash_table_remove_all (self->selection);
  g_clear_pointer (&self->selected, g_free);
  self->n_selected = 0;
  if (self->layout == NULL)
    {
      for (guint i = 0; i < n; i++)
        g_hash_table_insert (self->selection, g_strdup (names[i]), GUINT_TO_POINTER (0));
      selection_changed (self);
      return;
    }
  n_nodes = graft_layout_get_n_graph_nodes (self->layout);
  self->selected = g_new0 (gboolean, MAX (n_nodes, 1));
  for (guint i = 0; i < n; i++)
    {
      gint at = -1;

      if (places[i] < n_nodes &&
          strcmp (graft_layout_get_node_name (self->layout, places[i]), names[i]) == 0)
        {
          at = (gint) places[i];
          /* Each hit's own name, rank 0, unless names are shared: one
           * insertion, as many hits as a million-node graph gives. */
          if (G_LIKELY (!graft_layout_has_shared_names (self->layout)))
            g_hash_table_insert (self->selection, g_strdup (names[i]), GUINT_TO_POINTER (1));
          else
            add_node (self, places[i]);
        }
      else
        {
          /* Not known where: the name, every node of it. */
          g_hash_table_insert (self->selection, g_strdup (names[i]), GUINT_TO_POINTER (0));
          at = graft_layout_find_graph_node (self->layout, names[i]);
        }
      if (at >= 0 && !self->selected[at])
        {
          self->selected[at] = TRUE;
          self->n_selected++;
        }
    }
  if (G_UNLIKELY (graft_layout_has_shared_names (self->layout)))
    update_selected (self);
  selection_changed (self);
}

/**
 * graft_canvas_dup_selection:
 * @self: a canvas
 *
 * Returns: (transfer full): the selected node names, in layout order
 */
char **
graft_canvas_dup_selection (GraftCanvas *self)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (GRAFT_IS_CANVAS (self), NULL);
  /* The window asks after every edit: @selected answers without a lookup. */
  if (self->layout != NULL && self->n_selected > 0)
    for (guint i = 0; i < graft_layout_get_n_graph_nodes (self->layout); i++)
      if (self->selected[i])
        g_strv_builder_add (builder, graft_layout_get_node_name (self->layout, i));
  return g_strv_builder_end (builder);
}

/**
 * graft_canvas_get_n_selected:
 * @self: a canvas
 *
 * Returns: how many names graft_canvas_dup_selection() would return, without
 *   making them
 */
guint
graft_canvas_get_n_selected (GraftCanvas *self)
{
  g_return_val_if_fail (GRAFT_IS_CANVAS (self), 0);
  return self->n_selected;
}

/**
 * graft_canvas_activate_control:
 * @self: a canvas
 * @x: a point, widget coordinates
 * @y: its y
 *
 * What a click at (@x, @y) does on a module's control: a frame's collapse
 * control folds its module, a folded box's expand control opens it, by
 * the window's `win.collapse-scope` and `win.expand-scope` actions.
 *
 * Returns: whether (@x, @y) is on a control
 */
gboolean
graft_canvas_activate_control (GraftCanvas *self,
                               double       x,
                               double       y)
{
  const char *scope;
  gboolean    expand;
  double      lx;
  double      ly;

  g_return_val_if_fail (GRAFT_IS_CANVAS (self), FALSE);
  if (self->layout == NULL || self->fixed)
    return FALSE;
  graft_canvas_widget_to_layout (self, x, y, &lx, &ly);
  if (!graft_layout_hit_control (self->layout, lx, ly, &scope, &expand))
    return FALSE;
  gtk_widget_activate_action (GTK_WIDGET (self), expand ? "win.expand-scope" : "win.collapse-scope",
                              "s", scope);
  return TRUE;
}

static void
pressed_cb (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            GraftCanvas     *self)
{
  guint           button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType state =
      gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  gint        box = pick_box (self, x, y);
  const char *name = box >= 0 ? graft_layout_get_node (self->layout, box)->name : NULL;
  gboolean    extend = (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK)) != 0;

  if (!self->interactive)
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  _graft_canvas_nav_clicked (self->nav, box);
  /* Of two nodes of one name, the one clicked (graft_canvas_get_picked()). */
  self->picked = box_graph_node (self, box);
  if (button == GDK_BUTTON_SECONDARY)
    {
      if (box >= 0 && graft_layout_get_node (self->layout, box)->n_members > 0)
        {
          g_hash_table_remove_all (self->selection);
          select_box (self, box, FALSE);
          emit_selection_changed (self);
        }
      else if (name != NULL &&
               !holds_node (self, graft_layout_get_node (self->layout, box)->node_index))
        {
          g_hash_table_remove_all (self->selection);
          add_node (self, graft_layout_get_node (self->layout, box)->node_index);
          emit_selection_changed (self);
        }
      g_signal_emit (self, signals[SIGNAL_CONTEXT_MENU], 0, name, x, y);
      return;
    }
  if (button != GDK_BUTTON_PRIMARY)
    return;
  if (graft_canvas_activate_control (self, x, y))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      return;
    }
  if (name == NULL)
    {
      if (!extend)
        graft_canvas_clear_selection (self);
      return;
    }
  if (!extend)
    g_hash_table_remove_all (self->selection);
  select_box (self, box, extend);
  emit_selection_changed (self);
  /* A collapsed scope's box is activated by its path. */
  if (n_press == 2)
    g_signal_emit (self, signals[SIGNAL_NODE_ACTIVATED], 0, name);
}

/**
 * graft_canvas_select_rect:
 * @self: a canvas
 * @x0: a corner, widget coordinates
 * @y0: its y
 * @x1: the opposite corner
 * @y1: its y
 * @extend: add to the selection instead of replacing it
 *
 * Selects every node whose box (or one of whose stubs) meets the
 * rectangle, as the rubber band does.
 */
void
graft_canvas_select_rect (GraftCanvas *self,
                          double       x0,
                          double       y0,
                          double       x1,
                          double       y1,
                          gboolean     extend)
{
  double lx0;
  double ly0;
  double lx1;
  double ly1;

  g_return_if_fail (GRAFT_IS_CANVAS (self));
  self->picked = -1;
  if (self->layout == NULL)
    return;
  graft_canvas_widget_to_layout (self, MIN (x0, x1), MIN (y0, y1), &lx0, &ly0);
  graft_canvas_widget_to_layout (self, MAX (x0, x1), MAX (y0, y1), &lx1, &ly1);
  if (!extend)
    g_hash_table_remove_all (self->selection);
  {
    g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (guint));

    graft_layout_query (self->layout, lx0, ly0, lx1, ly1, boxes, NULL);
    for (guint k = 0; k < boxes->len; k++)
      {
        guint                  i = g_array_index (boxes, guint, k);
        const GraftLayoutNode *box = graft_layout_get_node (self->layout, i);

        if (box->box.x <= lx1 && box->box.x + box->box.width >= lx0 &&
            box->box.y <= ly1 && box->box.y + box->box.height >= ly0)
          select_box (self, i, FALSE);
      }
  }
  emit_selection_changed (self);
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               GraftCanvas    *self)
{
  guint           button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType state =
      gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  /* The middle button pans; the primary one draws a rubber band from
   * empty space (a drag that starts on a node is a click). */
  self->panning = self->interactive && button == GDK_BUTTON_MIDDLE;
  self->banding = self->interactive && button == GDK_BUTTON_PRIMARY && self->layout != NULL &&
                  graft_canvas_pick (self, x, y) == NULL;
  if (!self->panning && !self->banding)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  if (self->banding)
    {
      self->band_extends = (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK)) != 0;
      self->band_x0 = self->band_x1 = x;
      self->band_y0 = self->band_y1 = y;
      return;
    }
  self->drag_start_x = self->offset_x;
  self->drag_start_y = self->offset_y;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                GraftCanvas    *self)
{
  if (self->banding)
    {
      if (fabs (dx) + fabs (dy) > 3)
        gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      self->band_x1 = self->band_x0 + dx;
      self->band_y1 = self->band_y0 + dy;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  if (!self->panning)
    return;
  if (fabs (dx) + fabs (dy) > 3)
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  self->offset_x = self->drag_start_x - dx / self->zoom;
  self->offset_y = self->drag_start_y - dy / self->zoom;
  clamp_offsets (self);
  view_changed (self, TRUE);
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             GraftCanvas    *self)
{
  if (self->banding)
    {
      self->banding = FALSE;
      if (fabs (dx) + fabs (dy) > 3)
        graft_canvas_select_rect (self, self->band_x0, self->band_y0, self->band_x0 + dx,
                                  self->band_y0 + dy, self->band_extends);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  self->panning = FALSE;
  gtk_widget_set_cursor (GTK_WIDGET (self), NULL);
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           GraftCanvas              *self)
{
  GdkModifierType state =
      gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  GdkScrollUnit unit = gtk_event_controller_scroll_get_unit (controller);
  double        step = unit == GDK_SCROLL_UNIT_WHEEL ? 60.0 : 1.0;

  if (!self->interactive || self->layout == NULL)
    return FALSE;
  if (state & GDK_CONTROL_MASK)
    {
      double factor = unit == GDK_SCROLL_UNIT_WHEEL ? pow (ZOOM_STEP, -dy) : exp (-dy / 200.0);

      zoom_at (self, self->zoom * factor, self->pointer_x, self->pointer_y);
      return TRUE;
    }
  if (state & GDK_SHIFT_MASK)
    {
      double t = dx;

      dx = dy;
      dy = t;
    }
  self->offset_x += dx * step / self->zoom;
  self->offset_y += dy * step / self->zoom;
  clamp_offsets (self);
  view_changed (self, TRUE);
  return TRUE;
}

static void
pinch_begin_cb (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                GraftCanvas      *self)
{
  self->pinch_zoom = self->zoom;
}

static void
pinch_scale_cb (GtkGestureZoom *gesture,
                double          scale,
                GraftCanvas    *self)
{
  double x;
  double y;

  if (!self->interactive)
    return;
  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &x, &y))
    {
      x = gtk_widget_get_width (GTK_WIDGET (self)) / 2.0;
      y = gtk_widget_get_height (GTK_WIDGET (self)) / 2.0;
    }
  zoom_at (self, self->pinch_zoom * scale, x, y);
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           GraftCanvas              *self)
{
  double lx;
  double ly;
  gint   box = -1;

  self->pointer_x = x;
  self->pointer_y = y;
  if (self->layout != NULL && self->interactive)
    {
      graft_canvas_widget_to_layout (self, x, y, &lx, &ly);
      box = graft_layout_hit_test (self->layout, lx, ly);
    }
  if (box != self->hovered)
    {
      self->hovered = box;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
leave_cb (GtkEventControllerMotion *controller,
          GraftCanvas              *self)
{
  if (self->hovered != -1)
    {
      self->hovered = -1;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static gboolean
query_tooltip_cb (GtkWidget   *widget,
                  int          x,
                  int          y,
                  gboolean     keyboard,
                  GtkTooltip  *tooltip,
                  GraftCanvas *self)
{
  const char      *name = graft_canvas_pick (self, x, y);
  g_autofree char *text = NULL;
  gint             box;
  const GraftRect *r;
  double           wx;
  double           wy;

  /* No tooltip over the context menu. */
  if (name == NULL || self->describe == NULL ||
      (self->menu != NULL && gtk_widget_get_visible (self->menu)))
    return FALSE;
  text = graft_canvas_describe_at (self, x, y);
  if (text == NULL)
    return FALSE;
  box = graft_layout_hit_test (self->layout, self->offset_x + x / self->zoom,
                               self->offset_y + y / self->zoom);
  gtk_tooltip_set_markup (tooltip, text);
  r = &graft_layout_get_node (self->layout, box)->box;
  graft_canvas_layout_to_widget (self, r->x, r->y, &wx, &wy);
  gtk_tooltip_set_tip_area (tooltip,
                            &(GdkRectangle){ (int) wx, (int) wy, (int) (r->width * self->zoom),
                                             (int) (r->height * self->zoom) });
  return TRUE;
}

static void
zoom_in_cb (GtkWidget  *widget,
            const char *action,
            GVariant   *param)
{
  GraftCanvas *self = GRAFT_CANVAS (widget);

  graft_canvas_set_zoom (self, self->zoom * ZOOM_STEP);
}

static void
zoom_out_cb (GtkWidget  *widget,
             const char *action,
             GVariant   *param)
{
  GraftCanvas *self = GRAFT_CANVAS (widget);

  graft_canvas_set_zoom (self, self->zoom / ZOOM_STEP);
}

static void
zoom_reset_cb (GtkWidget  *widget,
               const char *action,
               GVariant   *param)
{
  graft_canvas_set_zoom (GRAFT_CANVAS (widget), 1.0);
}

static void
zoom_fit_cb (GtkWidget  *widget,
             const char *action,
             GVariant   *param)
{
  graft_canvas_zoom_to_fit (GRAFT_CANVAS (widget));
}

static void
clear_selection_cb (GtkWidget  *widget,
                    const char *action,
                    GVariant   *param)
{
  graft_canvas_clear_selection (GRAFT_CANVAS (widget));
}

static void
delete_selection_cb (GtkWidget  *widget,
                     const char *action,
                     GVariant   *param)
{
  g_signal_emit (widget, signals[SIGNAL_DELETE_SELECTION], 0);
}

static void
dark_changed_cb (AdwStyleManager *manager,
                 GParamSpec      *pspec,
                 GraftCanvas     *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * graft_canvas_popup_menu:
 * @self: a canvas
 * @menu: the menu
 * @x: where to point, in widget coordinates
 * @y: its y
 *
 * Shows @menu as a context menu at (@x, @y).
 */
void
graft_canvas_popup_menu (GraftCanvas *self,
                         GMenuModel  *menu,
                         double       x,
                         double       y)
{
  g_return_if_fail (GRAFT_IS_CANVAS (self));
  if (self->menu == NULL)
    {
      self->menu = gtk_popover_menu_new_from_model (menu);
      gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
      gtk_widget_set_halign (self->menu, GTK_ALIGN_START);
    }
  else
    gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->menu), menu);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle){ (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

static void
graft_canvas_size_allocate (GtkWidget *widget,
                            int        width,
                            int        height,
                            int        baseline)
{
  GraftCanvas *self = GRAFT_CANVAS (widget);

  if (self->menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->menu));

  if ((self->fit_pending && width > 0 && height > 0) || !self->interactive || self->fitted)
    refit (self);
  else if (self->last_width > 0 && self->last_height > 0 &&
           (width != self->last_width || height != self->last_height))
    {
      /* The point at the centre stays there. */
      self->offset_x += (self->last_width - width) / 2.0 / self->zoom;
      self->offset_y += (self->last_height - height) / 2.0 / self->zoom;
      view_changed (self, FALSE);
    }
  self->last_width = width;
  self->last_height = height;
}

static void
graft_canvas_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  GraftCanvas *self = GRAFT_CANVAS (object);

  switch (prop_id)
    {
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
graft_canvas_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  GraftCanvas *self = GRAFT_CANVAS (object);

  switch (prop_id)
    {
    case PROP_ZOOM:
      graft_canvas_set_zoom (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
graft_canvas_dispose (GObject *object)
{
  GraftCanvas *self = GRAFT_CANVAS (object);

  g_clear_pointer (&self->menu, gtk_widget_unparent);
  G_OBJECT_CLASS (graft_canvas_parent_class)->dispose (object);
}

static void
graft_canvas_finalize (GObject *object)
{
  GraftCanvas *self = GRAFT_CANVAS (object);

  g_signal_handlers_disconnect_by_func (adw_style_manager_get_default (), dark_changed_cb, self);
  graft_canvas_set_describe_func (self, NULL, NULL, NULL);
  graft_canvas_free_layout (g_steal_pointer (&self->layout));
  g_clear_pointer (&self->marks, g_free);
  g_clear_pointer (&self->added, g_free);
  g_clear_pointer (&self->dropped, g_free);
  g_clear_pointer (&self->changes, g_free);
  g_clear_pointer (&self->selected, g_free);
  g_clear_pointer (&self->ranks, g_free);
  g_clear_pointer (&self->selection, g_hash_table_unref);
  g_clear_pointer (&self->nav, _graft_canvas_nav_free);
  g_clear_pointer (&self->current_hit, g_free);
  G_OBJECT_CLASS (graft_canvas_parent_class)->finalize (object);
}

static void
graft_canvas_class_init (GraftCanvasClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = graft_canvas_dispose;
  object_class->finalize = graft_canvas_finalize;
  object_class->get_property = graft_canvas_get_property;
  object_class->set_property = graft_canvas_set_property;
  widget_class->snapshot = graft_canvas_snapshot;
  widget_class->size_allocate = graft_canvas_size_allocate;

  properties[PROP_ZOOM] =
      g_param_spec_double ("zoom", NULL, NULL, MIN_ZOOM, MAX_ZOOM, 1.0,
                           G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_SELECTION_CHANGED] =
      g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                    NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_CONTEXT_MENU] =
      g_signal_new ("context-menu", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_DOUBLE, G_TYPE_DOUBLE);
  signals[SIGNAL_DELETE_SELECTION] =
      g_signal_new ("delete-selection", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 0);
  /**
   * GraftCanvas::view-changed:
   * @self: the canvas
   *
   * Emitted when the view pans or zooms (by the user, a fit, a new
   * layout or a call).
   */
  signals[SIGNAL_VIEW_CHANGED] =
      g_signal_new ("view-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_CONTENT_CHANGED] =
      g_signal_new ("content-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                    NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_NODE_ACTIVATED] =
      g_signal_new ("node-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_install_action (widget_class, "canvas.zoom-in", NULL, zoom_in_cb);
  gtk_widget_class_install_action (widget_class, "canvas.zoom-out", NULL, zoom_out_cb);
  gtk_widget_class_install_action (widget_class, "canvas.zoom-reset", NULL, zoom_reset_cb);
  gtk_widget_class_install_action (widget_class, "canvas.zoom-fit", NULL, zoom_fit_cb);
  gtk_widget_class_install_action (widget_class, "canvas.clear-selection", NULL,
                                   clear_selection_cb);
  gtk_widget_class_install_action (widget_class, "canvas.delete-selection", NULL,
                                   delete_selection_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "canvas.delete-selection",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Delete, 0,
                                       "canvas.delete-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "canvas.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "canvas.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "canvas.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK,
                                       "canvas.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "canvas.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "canvas.zoom-out",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK,
                                       "canvas.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "canvas.zoom-reset", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_0, 0, "canvas.zoom-reset", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK,
                                       "canvas.zoom-reset", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "canvas.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F, 0, "canvas.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "canvas.clear-selection",
                                       NULL);
  _graft_canvas_nav_class_init (widget_class);

  gtk_widget_class_set_css_name (widget_class, "graftcanvas");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
graft_canvas_init (GraftCanvas *self)
{
  GtkGesture         *click = gtk_gesture_click_new ();
  GtkGesture         *drag = gtk_gesture_drag_new ();
  GtkGesture         *pinch = gtk_gesture_zoom_new ();
  GtkEventController *scroll =
      gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  GtkEventController *motion = gtk_event_controller_motion_new ();

  self->zoom = 1.0;
  self->hovered = -1;
  self->chosen_match = -1;
  self->current_at = -1;
  self->picked = -1;
  self->describing = -1;
  self->interactive = TRUE;
  self->selection = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.clear-selection", FALSE);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), 0);
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  g_signal_connect (pinch, "begin", G_CALLBACK (pinch_begin_cb), self);
  g_signal_connect (pinch, "scale-changed", G_CALLBACK (pinch_scale_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (pinch));

  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (dark_changed_cb), self, 0);
  self->nav = _graft_canvas_nav_new (self);
}

GraftCanvasNav *
_graft_canvas_get_nav (GraftCanvas *self)
{
  return self->nav;
}

/* Per graph node of the layout, the match it belongs to or -1; or NULL. */
const gint *
_graft_canvas_get_marks (GraftCanvas *self)
{
  return self->marks;
}

/* A bit per graph node of the layout: whether the last rewrite added it;
 * or NULL. */
const guint8 *
_graft_canvas_get_added (GraftCanvas *self)
{
  return self->added;
}

/* Whether the selection holds some node called @name. */
gboolean
_graft_canvas_is_selected (GraftCanvas *self,
                           const char  *name)
{
  return name != NULL && g_hash_table_contains (self->selection, name);
}

/* Whether what box @box draws is selected: its node, or a collapsed
 * scope's first node. */
gboolean
_graft_canvas_is_box_selected (GraftCanvas *self,
                               guint        box)
{
  return self->layout != NULL && self->selected != NULL &&
         self->selected[graft_layout_get_node (self->layout, box)->node_index];
}

/**
 * _graft_canvas_next_selected:
 * @self: a canvas
 * @index: where to look from (0 at first), moved past the name returned
 *
 * Walks the names graft_canvas_dup_selection() returns, in the same order,
 * without copying them: a Find of 100,000 nodes would copy each of them at
 * every look at the selection.
 *
 * Returns: (nullable): the next selected name, valid until the layout
 *   changes, or %NULL after the last
 */
const char *
_graft_canvas_next_selected (GraftCanvas *self,
                             guint       *index)
{
  guint n;

  if (self->layout == NULL || self->n_selected == 0)
    return NULL;
  n = graft_layout_get_n_graph_nodes (self->layout);
  for (; *index < n; (*index)++)
    if (self->selected[*index])
      return graft_layout_get_node_name (self->layout, (*index)++);
  return NULL;
}
