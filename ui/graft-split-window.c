/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-split-window.c: "Compare Graphs": the graph before a change on the
 * left, after it on the right, each node coloured by what the change did
 * to it (removed red and dashed, added green, rewired amber and dotted,
 * kept as usual; the renderer's node_change), from the comparison the
 * document made (graft-comparison.c).
 *
 * The two sides are laid out on worker threads, each as soon as the window
 * opens, so the window's first frame does not wait for Graphviz; a bar on
 * each side says it is being laid out.  The views follow each other: when
 * one pans or zooms, the other takes the same zoom and puts the node both
 * sides share that is nearest the middle of the first at the same place on
 * screen, so the user keeps looking at the same part of the graph on both
 * sides.  Selecting a node selects it on the other side too.  Escape and
 * Ctrl+W close the window.
 */
#include "config.h"

#include "graft-split-window.h"
#include "graft-layout-runner.h"
#include "graft-toplevel.h"
#include "graft-turns.h"
#include "graft-view.h"

typedef struct
{
  /* Borrowed: children */
  GraftCanvas *canvas;
  GtkWidget   *progress;

  /* Owned */
  guint8 *changes; /* per graph node of the layout, a copy of the canvas's */
  gint   *twin;    /* per box: the box of the same node on the other side, or -1 */
  gint   *pair;    /* per graph node, where two nodes share a name on either side: the
                    * same node's position on the other side, or -1; else NULL */
  guint    n_graph_nodes;
  gboolean laid_out;
} Side;

struct _GraftSplitWindow
{
  AdwWindow parent_instance;

  /* Owned */
  GraftComparison        *comparison;
  GCancellable           *cancellable;
  GraftDocument          *document; /* while the comparison is made, else NULL */
  GraftComparisonBuilder *builder;  /* makes it, over turns, or NULL */

  /* Borrowed: children */
  AdwWindowTitle *title;
  GtkWidget      *legend[4]; /* per GraftChange */

  Side     sides[2]; /* before, after */
  gboolean syncing;  /* one view is being moved to follow the other */
  guint    n_changed[4];
  guint    change;         /* compared, while the comparison is made */
  guint    overview_boxes; /* as graft_document_compare() takes it */
  guint    turn;           /* the builder's turn (graft-turns.c), or 0 */
  gboolean turn_alone;     /* it runs alone: the builder holds the graph away */
};

G_DEFINE_FINAL_TYPE (GraftSplitWindow, graft_split_window, ADW_TYPE_WINDOW)

/* The comparison is made about this long per turn at most, in passes of
 * BUILD_STEP_NODES nodes; tests make the passes smaller and one per turn. */
#define BUILD_TURN_USEC  5000
#define BUILD_STEP_NODES 256

static guint  build_step_nodes = BUILD_STEP_NODES;
static gint64 build_turn_usec = BUILD_TURN_USEC;

static void
graft_split_window_dispose (GObject *object)
{
  GraftSplitWindow *self = GRAFT_SPLIT_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  if (self->turn != 0)
    graft_turns_remove (self->turn);
  self->turn = 0;
  g_clear_pointer (&self->builder, graft_comparison_builder_free);
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (graft_split_window_parent_class)->dispose (object);
}

static void
graft_split_window_finalize (GObject *object)
{
  GraftSplitWindow *self = GRAFT_SPLIT_WINDOW (object);

  for (guint s = 0; s < 2; s++)
    {
      g_free (self->sides[s].changes);
      g_free (self->sides[s].twin);
      g_free (self->sides[s].pair);
    }
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->comparison, graft_comparison_free);
  G_OBJECT_CLASS (graft_split_window_parent_class)->finalize (object);
}

static void
graft_split_window_class_init (GraftSplitWindowClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  /* No window is left on its surface once closed (graft-toplevel.c). */
  graft_toplevel_init ();

  object_class->dispose = graft_split_window_dispose;
  object_class->finalize = graft_split_window_finalize;
  /* A window to glance at: Escape and Ctrl+W close it. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close",
                                       NULL);
}

static void
graft_split_window_init (GraftSplitWindow *self)
{
  self->cancellable = g_cancellable_new ();
}

/* The box of @side nearest the middle of its view that the other side
 * shows too, or -1. */
static gint
anchor_box (GraftSplitWindow *self,
            guint             side)
{
  Side        *s = &self->sides[side];
  GraftLayout *layout = graft_canvas_get_layout (s->canvas);
  double       cx;
  double       cy;
  double       best = G_MAXDOUBLE;
  gint         found = -1;

  graft_canvas_widget_to_layout (s->canvas, gtk_widget_get_width (GTK_WIDGET (s->canvas)) / 2.0,
                                 gtk_widget_get_height (GTK_WIDGET (s->canvas)) / 2.0, &cx, &cy);
  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    {
      const GraftLayoutNode *box = graft_layout_get_node (layout, b);
      double                 dx = box->box.x + box->box.width / 2 - cx;
      double                 dy = box->box.y + box->box.height / 2 - cy;

      if (s->twin[b] >= 0 && !box->is_stub && dx * dx + dy * dy < best)
        {
          best = dx * dx + dy * dy;
          found = (gint) b;
        }
    }
  return found;
}

/* Moves the other side's view to follow side @side's. */
static void
follow (GraftSplitWindow *self,
        guint             side)
{
  Side                  *from = &self->sides[side];
  Side                  *to = &self->sides[1 - side];
  gint                   b;
  const GraftLayoutNode *box;
  const GraftLayoutNode *twin;
  double                 wx;
  double                 wy;

  if (self->syncing || !from->laid_out || !to->laid_out)
    return;
  b = anchor_box (self, side);
  if (b < 0)
    return;
  box = graft_layout_get_node (graft_canvas_get_layout (from->canvas), (guint) b);
  twin = graft_layout_get_node (graft_canvas_get_layout (to->canvas), (guint) from->twin[b]);
  graft_canvas_layout_to_widget (from->canvas, box->box.x + box->box.width / 2,
                                 box->box.y + box->box.height / 2, &wx, &wy);
  self->syncing = TRUE;
  graft_canvas_show_point (to->canvas, graft_canvas_get_zoom (from->canvas),
                           twin->box.x + twin->box.width / 2, twin->box.y + twin->box.height / 2,
                           wx, wy);
  self->syncing = FALSE;
}

static void
view_changed_cb (GraftCanvas      *canvas,
                 GraftSplitWindow *self)
{
  follow (self, canvas == self->sides[0].canvas ? 0 : 1);
}

static void
selection_changed_cb (GraftCanvas      *canvas,
                      GraftSplitWindow *self)
{
  guint side = canvas == self->sides[0].canvas ? 0 : 1;
  Side *from = &self->sides[side];
  Side *to = &self->sides[1 - side];
  g_auto (GStrv) names = NULL;

  if (self->syncing)
    return;
  /* Until both sides are laid out, which node of the other side a node is
   * is not known (by its name, both boxes of a shared name were
   * selected): the other side follows when both are (layout_done_cb()). */
  if (!from->laid_out || !to->laid_out)
    return;
  self->syncing = TRUE;
  if (from->pair != NULL)
    {
      /* Node by node: of two nodes of one name, the same node. */
      GraftLayout *other = graft_canvas_get_layout (to->canvas);
      g_autoptr (GPtrArray) chosen = g_ptr_array_new ();
      g_autoptr (GArray) places = g_array_new (FALSE, FALSE, sizeof (guint));

      for (guint i = 0; i < from->n_graph_nodes; i++)
        if (graft_canvas_is_node_selected (canvas, i) && from->pair[i] >= 0)
          {
            guint at = (guint) from->pair[i];

            g_ptr_array_add (chosen, (gpointer) graft_layout_get_node_name (other, at));
            g_array_append_val (places, at);
          }
      graft_canvas_set_selection_placed (to->canvas, (const char *const *) chosen->pdata,
                                         (const guint *) (gpointer) places->data, places->len);
    }
  else
    {
      names = graft_canvas_dup_selection (canvas);
      graft_canvas_set_selection (to->canvas, (const char *const *) names);
    }
  self->syncing = FALSE;
}

/* Where two nodes share a name on either side (a program's copy named as
 * the program's node is, docs/programs.md), a name does not say which
 * node of the other side a node is: the nodes the change kept are paired
 * instead, each name's kept nodes in graph order on one side with its
 * kept nodes in graph order on the other (the change's own classes,
 * from its edit: a node it removed or added has no twin, and the copy a
 * rewrite added beside the program's node is not taken for it). */
static void
pair_nodes (GraftSplitWindow *self)
{
  static const GraftChange gone[2] = { GRAFT_CHANGE_REMOVED, GRAFT_CHANGE_ADDED };
  GraftLayout             *layouts[2];
  g_autoptr (GHashTable) after = NULL;
  g_autoptr (GHashTable) ranks = NULL;

  for (guint s = 0; s < 2; s++)
    {
      g_clear_pointer (&self->sides[s].pair, g_free);
      layouts[s] = graft_canvas_get_layout (self->sides[s].canvas);
    }
  if (!graft_layout_has_shared_names (layouts[0]) && !graft_layout_has_shared_names (layouts[1]))
    return;
  for (guint s = 0; s < 2; s++)
    {
      self->sides[s].pair = g_new (gint, MAX (self->sides[s].n_graph_nodes, 1));
      for (guint i = 0; i < self->sides[s].n_graph_nodes; i++)
        self->sides[s].pair[i] = -1;
    }
  /* The kept nodes after, by name, in graph order. */
  after = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_array_unref);
  for (guint i = 0; i < self->sides[1].n_graph_nodes; i++)
    if (self->sides[1].changes[i] != gone[1])
      {
        const char *name = graft_layout_get_node_name (layouts[1], i);
        GArray     *at = g_hash_table_lookup (after, name);

        if (at == NULL)
          g_hash_table_insert (after, (gpointer) name,
                               at = g_array_new (FALSE, FALSE, sizeof (guint)));
        g_array_append_val (at, i);
      }
  ranks = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < self->sides[0].n_graph_nodes; i++)
    if (self->sides[0].changes[i] != gone[0])
      {
        const char *name = graft_layout_get_node_name (layouts[0], i);
        guint       rank = GPOINTER_TO_UINT (g_hash_table_lookup (ranks, name));
        GArray     *at = g_hash_table_lookup (after, name);

        g_hash_table_insert (ranks, (gpointer) name, GUINT_TO_POINTER (rank + 1));
        if (at != NULL && rank < at->len)
          {
            guint twin = g_array_index (at, guint, rank);

            self->sides[0].pair[i] = (gint) twin;
            self->sides[1].pair[twin] = (gint) i;
          }
      }
}

/* Which box of the other side each box of each side is: the same node's
 * (pair_nodes()), else the box of the same name (a folded module's, by
 * its path). */
static void
match_boxes (GraftSplitWindow *self)
{
  pair_nodes (self);
  for (guint s = 0; s < 2; s++)
    {
      GraftLayout *layout = graft_canvas_get_layout (self->sides[s].canvas);
      GraftLayout *other = graft_canvas_get_layout (self->sides[1 - s].canvas);
      guint        n = graft_layout_get_n_nodes (layout);
      const gint  *pair = self->sides[s].pair;

      g_free (self->sides[s].twin);
      self->sides[s].twin = g_new (gint, MAX (n, 1));
      for (guint b = 0; b < n; b++)
        {
          const GraftLayoutNode *box = graft_layout_get_node (layout, b);

          if (box->is_stub)
            self->sides[s].twin[b] = -1;
          else if (pair != NULL && box->n_members == 0)
            self->sides[s].twin[b] =
                pair[box->node_index] >= 0
                    ? graft_layout_lookup (other, (guint) pair[box->node_index])
                    : -1;
          else
            self->sides[s].twin[b] = graft_layout_find_node (other, box->name);
        }
    }
}

/* Both sides are laid out: the view goes to the first thing the change
 * did, zoomed in to be read if the fitted view is too small for that
 * (resnet18 at 8 %: the change was a dot), and the other side follows.
 * A fitted view that shows the change readable is kept: centring a graph
 * shown whole would only push half of it out of sight.  Neither side shows
 * blank canvas beyond its graph's top or left when the change is near
 * them (graft_canvas_fill_view()): the side that follows is filled too,
 * as its graph may start nearer its twin than the other's does. */
static void
show_first_change (GraftSplitWindow *self)
{
  static const struct
  {
    GraftChange change;
    guint       side;
  } order[] = {
    { GRAFT_CHANGE_REMOVED, 0 },
    { GRAFT_CHANGE_ADDED, 1 },
    { GRAFT_CHANGE_REWIRED, 1 },
  };

  for (guint k = 0; k < G_N_ELEMENTS (order); k++)
    {
      const char *const *names = graft_comparison_get_names (self->comparison, order[k].change);

      if (names[0] != NULL)
        {
          GraftCanvas *canvas = self->sides[order[k].side].canvas;

          if (!graft_canvas_node_in_view (canvas, names[0]) || !graft_canvas_get_readable (canvas))
            {
              graft_canvas_show_node (canvas, names[0]);
              follow (self, order[k].side);
              self->syncing = TRUE;
              graft_canvas_fill_view (self->sides[1 - order[k].side].canvas);
              self->syncing = FALSE;
            }
          else
            follow (self, order[k].side);
          return;
        }
    }
  follow (self, 0);
}

/* A side's layout on its way.  Its task has no source object: a GTask
 * may be finalized on its worker thread, and would then drop the last
 * reference to a window closed meanwhile there, outside GTK's thread.
 * The window is not referenced: its dispose cancels the task first, and
 * then the window is not read. */
typedef struct
{
  GraftSplitWindow *self;
  guint             side;
} Pending;

static void
layout_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autofree Pending *pending = user_data;
  GTask              *task = G_TASK (result);
  g_autoptr (GError) error = NULL;
  GraftLayout      *layout = g_task_propagate_pointer (task, &error);
  GraftSplitWindow *self;
  guint             side = pending->side;
  Side             *s;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      g_clear_pointer (&layout, graft_layout_free);
      return;
    }
  self = pending->self;
  s = &self->sides[side];
  gtk_widget_set_visible (s->progress, FALSE);
  if (layout == NULL)
    {
      adw_window_title_set_subtitle (self->title, error->message);
      return;
    }
  s->n_graph_nodes = graft_layout_get_n_graph_nodes (layout);
  self->syncing = TRUE;
  graft_canvas_set_layout (s->canvas, layout, FALSE);
  graft_canvas_set_changes (s->canvas, g_memdup2 (s->changes, MAX (s->n_graph_nodes, 1)));
  self->syncing = FALSE;
  s->laid_out = TRUE;
  if (self->sides[1 - side].laid_out)
    {
      match_boxes (self);
      show_first_change (self);
      /* A selection made meanwhile (on the side laid out first). */
      for (guint k = 0; k < 2; k++)
        {
          GraftCanvas *canvas = self->sides[k == 0 ? 1 - side : side].canvas;

          if (graft_canvas_get_n_selected (canvas) > 0)
            {
              selection_changed_cb (canvas, self);
              break;
            }
        }
    }
}

/* Pulses the bars of the sides still being laid out. */
static gboolean
pulse_cb (gpointer user_data)
{
  GraftSplitWindow *self = user_data;
  gboolean          waiting = FALSE;

  if (g_cancellable_is_cancelled (self->cancellable))
    return G_SOURCE_REMOVE;
  for (guint s = 0; s < 2; s++)
    if (!self->sides[s].laid_out && gtk_widget_get_visible (self->sides[s].progress))
      {
        gtk_progress_bar_pulse (GTK_PROGRESS_BAR (self->sides[s].progress));
        waiting = TRUE;
      }
  return waiting ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static char *
describe_cb (const char *name,
             gpointer    user_data)
{
  GraftSplitWindow *self = user_data;
  gint              before = graft_split_window_get_node_change (self, FALSE, name);
  gint              after = graft_split_window_get_node_change (self, TRUE, name);
  const char       *shown = name;

  /* Of two nodes of one name, the one under the pointer and its twin. */
  for (guint s = 0; s < 2; s++)
    {
      Side *side = &self->sides[s];
      gint  at = graft_canvas_get_described_node (side->canvas);

      if (at >= 0 && side->pair != NULL && (guint) at < side->n_graph_nodes)
        {
          gint twin = side->pair[at];
          gint other = twin >= 0 ? self->sides[1 - s].changes[twin] : -1;

          GraftLayout *layout = graft_canvas_get_layout (side->canvas);
          gint         box = graft_layout_lookup (layout, (guint) at);

          before = s == 0 ? side->changes[at] : other;
          after = s == 1 ? side->changes[at] : other;
          /* The copy by the name its box says (`sym_size_int_2`). */
          if (box >= 0 && graft_layout_get_node (layout, (guint) box)->role ==
                              GRAFT_LAYOUT_ROLE_NODE)
            shown = graft_layout_get_node (layout, (guint) box)->label;
        }
    }
  if (before == GRAFT_CHANGE_REMOVED)
    return g_strdup_printf ("%s: removed by the change", shown);
  if (after == GRAFT_CHANGE_ADDED)
    return g_strdup_printf ("%s: added by the change", shown);
  if (after == GRAFT_CHANGE_REWIRED)
    return g_strdup_printf ("%s: kept, its inputs changed", shown);
  return g_strdup_printf ("%s: kept", shown);
}

/* One side: its canvas, what it is called, and a bar while it is laid
 * out. */
static GtkWidget *
make_side (GraftSplitWindow *self,
           guint             side)
{
  Side      *s = &self->sides[side];
  GtkWidget *overlay = gtk_overlay_new ();
  GtkWidget *name = gtk_label_new (side == 0 ? "Before" : "After");
  GtkWidget *name_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  s->canvas = GRAFT_CANVAS (graft_canvas_new ());
  /* This window folds nothing: no controls that would do nothing. */
  graft_canvas_set_fixed (s->canvas, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (s->canvas), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (s->canvas), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (s->canvas), 200, 200);
  gtk_accessible_update_property (GTK_ACCESSIBLE (s->canvas), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  side == 0 ? "The graph before the change"
                                            : "The graph after the change",
                                  -1);
  graft_canvas_set_describe_func (s->canvas, describe_cb, self, NULL);
  g_signal_connect_object (s->canvas, "view-changed", G_CALLBACK (view_changed_cb), self, 0);
  g_signal_connect_object (s->canvas, "selection-changed", G_CALLBACK (selection_changed_cb), self,
                           0);
  gtk_overlay_set_child (GTK_OVERLAY (overlay), GTK_WIDGET (s->canvas));

  /* An OSD toolbar gives the name a padded, rounded backdrop. */
  gtk_widget_add_css_class (name, "heading");
  gtk_box_append (GTK_BOX (name_box), name);
  gtk_widget_set_halign (name_box, GTK_ALIGN_START);
  gtk_widget_set_valign (name_box, GTK_ALIGN_START);
  gtk_widget_set_margin_start (name_box, 12);
  gtk_widget_set_margin_top (name_box, 12);
  gtk_widget_add_css_class (name_box, "osd");
  gtk_widget_add_css_class (name_box, "toolbar");
  gtk_widget_set_can_target (name_box, FALSE);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), name_box);

  s->progress = gtk_progress_bar_new ();
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (s->progress), "Laying out…");
  gtk_progress_bar_set_show_text (GTK_PROGRESS_BAR (s->progress), TRUE);
  gtk_widget_set_halign (s->progress, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (s->progress, GTK_ALIGN_CENTER);
  gtk_widget_set_size_request (s->progress, 180, -1);
  gtk_widget_add_css_class (s->progress, "osd");
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), s->progress);
  return overlay;
}

/* "■ 6 removed": a legend entry, in the colour the canvas uses. */
static void
set_legend_entry (GtkWidget  *label,
                  const char *colour,
                  guint       count,
                  const char *what)
{
  g_autofree char *markup =
      g_markup_printf_escaped ("<span foreground=\"%s\">■</span> %u %s", colour, count, what);

  gtk_label_set_markup (GTK_LABEL (label), markup);
}

static void
start_layout (GraftSplitWindow *self,
              guint             side)
{
  Pending *pending = g_new (Pending, 1);
  g_autoptr (GTask) task = NULL;
  GraftLayoutRequest *request = graft_comparison_steal_request (self->comparison, side == 1);

  pending->self = self;
  pending->side = side;
  task = g_task_new (NULL, self->cancellable, layout_done_cb, pending);
  graft_layout_request_set_cancellable (request, self->cancellable);
  g_task_set_source_tag (task, start_layout);
  g_task_set_task_data (task, request, (GDestroyNotify) graft_layout_request_free);
  graft_layout_runner_run_in_thread (task);
}

/* The window's widgets, the sides still empty. */
static GraftSplitWindow *
split_window_new (GtkWindow *parent)
{
  GraftSplitWindow *self;
  GtkWidget        *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget        *header = adw_header_bar_new ();
  GtkWidget        *sides = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget        *legend = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 18);
  int               width = 1100;
  int               height = 700;

  /* As large as the editor window, which fits its screen. */
  if (parent != NULL && gtk_widget_get_width (GTK_WIDGET (parent)) > 0)
    {
      width = gtk_widget_get_width (GTK_WIDGET (parent));
      height = gtk_widget_get_height (GTK_WIDGET (parent));
    }
  self = g_object_new (GRAFT_TYPE_SPLIT_WINDOW,
                       "transient-for", parent,
                       "default-width", width,
                       "default-height", height,
                       "title", "Before and After",
                       NULL);
  self->title = ADW_WINDOW_TITLE (adw_window_title_new ("Before and After", ""));
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), GTK_WIDGET (self->title));

  /* Both sides expand: the box shares the width equally. */
  gtk_box_append (GTK_BOX (sides), make_side (self, 0));
  gtk_box_append (GTK_BOX (sides), gtk_separator_new (GTK_ORIENTATION_VERTICAL));
  gtk_box_append (GTK_BOX (sides), make_side (self, 1));
  gtk_widget_set_vexpand (sides, TRUE);

  gtk_widget_set_halign (legend, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_top (legend, 6);
  gtk_widget_set_margin_bottom (legend, 6);
  for (guint c = 0; c < G_N_ELEMENTS (self->legend); c++)
    {
      static const GraftChange order[] = { GRAFT_CHANGE_REMOVED, GRAFT_CHANGE_ADDED,
                                           GRAFT_CHANGE_REWIRED, GRAFT_CHANGE_KEPT };

      self->legend[order[c]] = gtk_label_new (NULL);
      gtk_box_append (GTK_BOX (legend), self->legend[order[c]]);
    }

  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), sides);
  gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_box_append (GTK_BOX (box), legend);
  adw_window_set_content (ADW_WINDOW (self), box);
  g_timeout_add_full (G_PRIORITY_DEFAULT, 100, pulse_cb, g_object_ref (self), g_object_unref);
  return self;
}

/* The comparison is made: the legend says what it found, and both sides
 * are laid out. */
static void
take_comparison (GraftSplitWindow *self,
                 GraftComparison  *comparison)
{
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  self->comparison = comparison;
  for (guint c = 0; c < G_N_ELEMENTS (self->n_changed); c++)
    self->n_changed[c] = g_strv_length ((char **) graft_comparison_get_names (comparison, c));
  for (guint s = 0; s < 2; s++)
    {
      self->sides[s].changes = graft_comparison_steal_node_changes (comparison, s == 1);
      gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->sides[s].progress), "Laying out…");
    }
  adw_window_title_set_subtitle (self->title, graft_comparison_get_label (comparison));
  set_legend_entry (self->legend[GRAFT_CHANGE_REMOVED], dark ? "#ff7b63" : "#c01c28",
                    self->n_changed[GRAFT_CHANGE_REMOVED], "removed");
  set_legend_entry (self->legend[GRAFT_CHANGE_ADDED], dark ? "#57e389" : "#26a269",
                    self->n_changed[GRAFT_CHANGE_ADDED], "added");
  set_legend_entry (self->legend[GRAFT_CHANGE_REWIRED], dark ? "#f8e45c" : "#c64600",
                    self->n_changed[GRAFT_CHANGE_REWIRED], "rewired (kept, inputs changed)");
  set_legend_entry (self->legend[GRAFT_CHANGE_KEPT], dark ? "#9a9996" : "#77767b",
                    self->n_changed[GRAFT_CHANGE_KEPT], "kept");
  start_layout (self, 0);
  start_layout (self, 1);
}

/**
 * graft_split_window_new:
 * @parent: (nullable): the editor window
 * @comparison: (transfer full): the graphs to show
 *   (graft_document_compare())
 *
 * Returns: (transfer full): the window, not shown yet; both sides are
 *   being laid out
 */
GtkWidget *
graft_split_window_new (GtkWindow       *parent,
                        GraftComparison *comparison)
{
  GraftSplitWindow *self;

  g_return_val_if_fail (comparison != NULL, NULL);
  self = split_window_new (parent);
  take_comparison (self, comparison);
  return GTK_WIDGET (self);
}

/* A few milliseconds of the comparison, a turn at a time. */
static gboolean
build_cb (gpointer user_data)
{
  GraftSplitWindow *self = user_data;

  if (!graft_comparison_builder_step (self->builder, build_turn_usec, build_step_nodes))
    {
      gboolean away = graft_comparison_builder_get_away (self->builder);

      if (away == self->turn_alone)
        return G_SOURCE_CONTINUE;
      /* While the builder holds the document's graph elsewhere in the
       * history, no other deferred work may read it: its steps run alone. */
      self->turn_alone = away;
      self->turn = away ? graft_turns_add_alone (build_cb, self, NULL)
                        : graft_turns_add (build_cb, self, NULL);
      return G_SOURCE_REMOVE;
    }
  self->turn = 0;
  self->turn_alone = FALSE;
  g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  take_comparison (self, graft_comparison_builder_finish (g_steal_pointer (&self->builder)));
  return G_SOURCE_REMOVE;
}

/* Starts the comparison again from the document as it is; says why not
 * if the change cannot be compared now. */
static void
start_building (GraftSplitWindow *self)
{
  g_autoptr (GError) error = NULL;

  if (self->turn != 0)
    graft_turns_remove (self->turn);
  self->turn = 0;
  self->turn_alone = FALSE;
  g_clear_pointer (&self->builder, graft_comparison_builder_free);
  if (self->change < graft_document_get_history_length (self->document))
    self->builder = graft_comparison_builder_new (self->document, self->change,
                                                  self->overview_boxes, &error);
  else
    g_set_error_literal (&error, GRAFT_ERROR, GRAFT_ERROR_REWRITE,
                         "The change is no longer in the history");
  if (self->builder == NULL)
    {
      for (guint s = 0; s < 2; s++)
        gtk_widget_set_visible (self->sides[s].progress, FALSE);
      adw_window_title_set_subtitle (self->title, error->message);
      g_signal_handlers_disconnect_by_data (self->document, self);
      g_clear_object (&self->document);
      return;
    }
  self->turn = graft_turns_add (build_cb, self, NULL);
}

/* The history or the graph changed while the comparison is made: it is
 * made again, of the document as it is now. */
static void
document_changed_cb (GraftDocument    *document,
                     GraftSplitWindow *self)
{
  start_building (self);
}

/**
 * graft_split_window_new_for_document:
 * @parent: (nullable): the editor window
 * @document: a document
 * @change: a change of its history
 * @overview_boxes: as for graft_document_compare()
 *
 * Makes the comparison graft_document_compare() makes, over the main
 * loop's next turns (graft_comparison_builder_step()), then lays it out
 * as graft_split_window_new() does; a change of the document meanwhile
 * starts it again.
 *
 * Returns: (transfer full): the window, not shown yet, at work
 */
GtkWidget *
graft_split_window_new_for_document (GtkWindow     *parent,
                                     GraftDocument *document,
                                     guint          change,
                                     guint          overview_boxes)
{
  GraftSplitWindow *self;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (document), NULL);
  self = split_window_new (parent);
  self->document = g_object_ref (document);
  self->change = change;
  self->overview_boxes = overview_boxes;
  for (guint s = 0; s < 2; s++)
    gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->sides[s].progress), "Comparing…");
  adw_window_title_set_subtitle (self->title, "Comparing…");
  g_signal_connect (document, "history-changed", G_CALLBACK (document_changed_cb), self);
  g_signal_connect (document, "graph-changed", G_CALLBACK (document_changed_cb), self);
  start_building (self);
  return GTK_WIDGET (self);
}

/**
 * _graft_split_window_set_build_step:
 * @n_nodes: nodes per step of the comparison, or 0 for the default
 *
 * For tests: a small graph compared in many turns (one step each).
 */
void
_graft_split_window_set_build_step (guint n_nodes)
{
  build_step_nodes = n_nodes > 0 ? n_nodes : BUILD_STEP_NODES;
  build_turn_usec = n_nodes > 0 ? 0 : BUILD_TURN_USEC;
}

/**
 * graft_split_window_get_compared:
 * @self: a split window
 *
 * Returns: whether the comparison is made (the sides may still be laid
 *   out), or the window says why it cannot be
 */
gboolean
graft_split_window_get_compared (GraftSplitWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_SPLIT_WINDOW (self), FALSE);
  return self->document == NULL;
}

/**
 * graft_split_window_get_canvas:
 * @self: a split window
 * @after: the side after the change, else the side before
 *
 * Returns: (transfer none): that side's canvas
 */
GraftCanvas *
graft_split_window_get_canvas (GraftSplitWindow *self,
                               gboolean          after)
{
  g_return_val_if_fail (GRAFT_IS_SPLIT_WINDOW (self), NULL);
  return self->sides[after ? 1 : 0].canvas;
}

/**
 * graft_split_window_get_ready:
 * @self: a split window
 *
 * Returns: whether both sides are laid out and shown
 */
gboolean
graft_split_window_get_ready (GraftSplitWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_SPLIT_WINDOW (self), FALSE);
  return self->sides[0].laid_out && self->sides[1].laid_out;
}

/**
 * graft_split_window_get_node_change:
 * @self: a split window
 * @after: the side after the change, else the side before
 * @name: a node's name
 *
 * Returns: the #GraftChange the node called @name is drawn with on that
 *   side, or -1 if the side does not show it (or is not laid out yet)
 */
gint
graft_split_window_get_node_change (GraftSplitWindow *self,
                                    gboolean          after,
                                    const char       *name)
{
  Side        *s;
  GraftLayout *layout;
  gint         box;

  g_return_val_if_fail (GRAFT_IS_SPLIT_WINDOW (self), -1);
  s = &self->sides[after ? 1 : 0];
  layout = graft_canvas_get_layout (s->canvas);
  if (layout == NULL || name == NULL || (box = graft_layout_find_node (layout, name)) < 0)
    return -1;
  return s->changes[graft_layout_get_node (layout, (guint) box)->node_index];
}

/**
 * graft_split_window_get_twin:
 * @self: a split window
 * @after: the side after the change, else the side before
 * @position: a graph node's position in graph order on that side
 *
 * Returns: the position on the other side of the node the views line up
 *   with that node and whose selection follows its (the same node; of
 *   two nodes of one name, the one the change kept as it), or -1: none,
 *   or the sides are not laid out
 */
gint
graft_split_window_get_twin (GraftSplitWindow *self,
                             gboolean          after,
                             guint             position)
{
  Side                  *s;
  GraftLayout           *other;
  gint                   box;
  const GraftLayoutNode *twin;

  g_return_val_if_fail (GRAFT_IS_SPLIT_WINDOW (self), -1);
  s = &self->sides[after ? 1 : 0];
  if (!graft_split_window_get_ready (self) || s->twin == NULL ||
      (box = graft_layout_lookup (graft_canvas_get_layout (s->canvas), position)) < 0 ||
      s->twin[box] < 0)
    return -1;
  other = graft_canvas_get_layout (self->sides[after ? 0 : 1].canvas);
  twin = graft_layout_get_node (other, (guint) s->twin[box]);
  return twin->n_members > 0 ? -1 : (gint) twin->node_index;
}

/**
 * graft_split_window_get_n_changed:
 * @self: a split window
 * @change: a class of nodes
 *
 * Returns: how many nodes the change put in that class (the legend's
 *   counts)
 */
guint
graft_split_window_get_n_changed (GraftSplitWindow *self,
                                  GraftChange       change)
{
  g_return_val_if_fail (GRAFT_IS_SPLIT_WINDOW (self), 0);
  g_return_val_if_fail ((guint) change < G_N_ELEMENTS (self->n_changed), 0);
  return self->n_changed[change];
}
