/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-overview.c: the overview map.  It shows its canvas's whole layout
 * small (graft_map_draw(): boxes as rectangles, matches in their colours,
 * the chosen match rimmed) with the canvas's visible area as a rectangle
 * over it.  A click centres the view on the point clicked; dragging moves
 * the view along, and dragging the rectangle itself moves it without a
 * jump.
 *
 * Cost: the picture is drawn into a texture once per layout, match or
 * size change (the canvas's ::content-changed) and only when the map is
 * on screen; a frame only adds the texture and the rectangle, so panning
 * a 50,000-node graph costs the map nothing.  graft_overview_get_n_renders()
 * counts the pictures drawn, for the tests.
 *
 * The map draws nothing and lets clicks through while the whole graph is
 * in view; the window's "show-overview" action hides it altogether.  It is
 * meant to sit in a GtkOverlay over its canvas, in a corner.
 */
#include "config.h"

#include "graft-overview.h"

#include <adwaita.h>
#include <math.h>

#define MAP_MAX_WIDTH  180.0
#define MAP_MAX_HEIGHT 220.0
/* A graph many times taller than wide is stretched to this width, so its
 * matches can be seen and clicked. */
#define MAP_MIN_SIDE 44.0
/* The visible area is never drawn smaller than this, in pixels. */
#define MIN_VIEW_SIDE 6.0

struct _GraftOverview
{
  GtkWidget parent_instance;

  /* Owned */
  GraftCanvas *canvas;
  GdkTexture  *texture; /* the picture, or NULL until drawn again */

  GraftMap map;     /* where the map puts the layout, for the allocation */
  gboolean needed;  /* part of the graph is out of view: the map shows */
  double   grab_dx; /* from the pointer to the view's centre, in map units */
  double   grab_dy;
  double   drag_x; /* where the drag began */
  double   drag_y;
  guint    n_renders;
};

G_DEFINE_FINAL_TYPE (GraftOverview, graft_overview, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_CANVAS,
  PROP_NEEDED,
  N_PROPS,
};

static GParamSpec *properties[N_PROPS];

/**
 * graft_overview_new:
 *
 * Returns: (transfer full): an overview map of no canvas
 */
GtkWidget *
graft_overview_new (void)
{
  return g_object_new (GRAFT_TYPE_OVERVIEW, NULL);
}

static GraftLayout *
get_layout (GraftOverview *self)
{
  return self->canvas != NULL ? graft_canvas_get_layout (self->canvas) : NULL;
}

/* The visible area on the map, clamped to it, never smaller than
 * MIN_VIEW_SIDE. */
static graphene_rect_t
view_on_map (GraftOverview *self)
{
  GraftRect area;
  double    x0;
  double    y0;
  double    x1;
  double    y1;

  graft_canvas_get_visible_area (self->canvas, &area);
  graft_map_from_layout (&self->map, area.x, area.y, &x0, &y0);
  graft_map_from_layout (&self->map, area.x + area.width, area.y + area.height, &x1, &y1);
  x0 = CLAMP (x0, 0, self->map.width);
  x1 = CLAMP (x1, 0, self->map.width);
  y0 = CLAMP (y0, 0, self->map.height);
  y1 = CLAMP (y1, 0, self->map.height);
  if (x1 - x0 < MIN_VIEW_SIDE)
    {
      double cx = CLAMP ((x0 + x1) / 2, MIN_VIEW_SIDE / 2, self->map.width - MIN_VIEW_SIDE / 2);

      x0 = cx - MIN_VIEW_SIDE / 2;
      x1 = cx + MIN_VIEW_SIDE / 2;
    }
  if (y1 - y0 < MIN_VIEW_SIDE)
    {
      double cy = CLAMP ((y0 + y1) / 2, MIN_VIEW_SIDE / 2, self->map.height - MIN_VIEW_SIDE / 2);

      y0 = cy - MIN_VIEW_SIDE / 2;
      y1 = cy + MIN_VIEW_SIDE / 2;
    }
  return GRAPHENE_RECT_INIT ((float) x0, (float) y0, (float) (x1 - x0), (float) (y1 - y0));
}

/* Whether part of the graph is out of the canvas's view. */
static void
update_needed (GraftOverview *self)
{
  GraftLayout *layout = get_layout (self);
  gboolean     needed = FALSE;

  if (layout != NULL && gtk_widget_get_width (GTK_WIDGET (self->canvas)) > 0)
    {
      GraftRect area;
      double    width;
      double    height;

      graft_layout_get_size (layout, &width, &height);
      graft_canvas_get_visible_area (self->canvas, &area);
      /* Half a point of slack for rounding. */
      needed = area.x > 0.5 || area.y > 0.5 || area.x + area.width < width - 0.5 ||
               area.y + area.height < height - 0.5;
    }
  if (needed != self->needed)
    {
      self->needed = needed;
      gtk_widget_set_can_target (GTK_WIDGET (self), needed);
      /* Its frame goes too, without a new size for the overlay. */
      gtk_widget_set_opacity (GTK_WIDGET (self), needed ? 1 : 0);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEEDED]);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
view_changed_cb (GraftCanvas   *canvas,
                 GraftOverview *self)
{
  update_needed (self);
}

static void
content_changed_cb (GraftCanvas   *canvas,
                    GraftOverview *self)
{
  g_clear_object (&self->texture);
  /* A new layout may have new proportions. */
  gtk_widget_queue_resize (GTK_WIDGET (self));
  update_needed (self);
}

static void
dark_changed_cb (AdwStyleManager *manager,
                 GParamSpec      *pspec,
                 GraftOverview   *self)
{
  g_clear_object (&self->texture);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Draws the picture, at the screen's resolution. */
static GdkTexture *
render (GraftOverview *self,
        GraftLayout   *layout)
{
  int                scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  int                width = (int) ceil (self->map.width * scale);
  int                height = (int) ceil (self->map.height * scale);
  cairo_surface_t   *surface;
  cairo_t           *cr;
  GraftRenderOptions options;
  g_autoptr (GBytes) bytes = NULL;
  GdkTexture *texture;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, MAX (width, 1), MAX (height, 1));
  cr = cairo_create (surface);
  cairo_scale (cr, scale, scale);
  graft_render_options_init (&options);
  options.style = adw_style_manager_get_dark (adw_style_manager_get_default ())
                      ? GRAFT_RENDER_DARK
                      : GRAFT_RENDER_LIGHT;
  options.node_match = graft_canvas_get_marks (self->canvas);
  options.chosen_match = graft_canvas_get_chosen_match (self->canvas);
  graft_map_draw (&self->map, layout, cr, &options);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  bytes = g_bytes_new (cairo_image_surface_get_data (surface),
                       (gsize) cairo_image_surface_get_stride (surface) *
                           (gsize) cairo_image_surface_get_height (surface));
  texture = gdk_memory_texture_new (cairo_image_surface_get_width (surface),
                                    cairo_image_surface_get_height (surface), GDK_MEMORY_DEFAULT,
                                    bytes, (gsize) cairo_image_surface_get_stride (surface));
  cairo_surface_destroy (surface);
  self->n_renders++;
  return texture;
}

static void
graft_overview_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  GraftOverview  *self = GRAFT_OVERVIEW (widget);
  GraftLayout    *layout = get_layout (self);
  graphene_rect_t view;
  GskRoundedRect  outline;
  GdkRGBA         accent;
  GdkRGBA         fill;

  if (!self->needed || layout == NULL || self->map.width <= 0 || self->map.height <= 0)
    return;
  if (self->texture == NULL)
    self->texture = render (self, layout);

  gtk_snapshot_append_texture (snapshot, self->texture,
                               &GRAPHENE_RECT_INIT (0, 0, (float) self->map.width,
                                                    (float) self->map.height));

  /* The visible area: a tinted rectangle with an accent border. */
  view = view_on_map (self);
  gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), "accent_color", &accent);
  fill = accent;
  fill.alpha = 0.18f;
  gtk_snapshot_append_color (snapshot, &fill, &view);
  gsk_rounded_rect_init_from_rect (&outline, &view, 1);
  gtk_snapshot_append_border (snapshot, &outline, (float[4]){ 1.5f, 1.5f, 1.5f, 1.5f },
                              (GdkRGBA[4]){ accent, accent, accent, accent });
}

static void
graft_overview_measure (GtkWidget     *widget,
                        GtkOrientation orientation,
                        int            for_size,
                        int           *minimum,
                        int           *natural,
                        int           *minimum_baseline,
                        int           *natural_baseline)
{
  GraftOverview *self = GRAFT_OVERVIEW (widget);
  GraftLayout   *layout = get_layout (self);
  GraftMap       map;

  *minimum = *natural = 0;
  if (layout == NULL)
    return;
  graft_map_init (&map, layout, MAP_MAX_WIDTH, MAP_MAX_HEIGHT, MAP_MIN_SIDE);
  *natural = (int) ceil (orientation == GTK_ORIENTATION_HORIZONTAL ? map.width : map.height);
}

static void
graft_overview_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  GraftOverview *self = GRAFT_OVERVIEW (widget);
  GraftLayout   *layout = get_layout (self);
  GraftMap       map = { 0 };

  if (layout != NULL && width > 0 && height > 0)
    graft_map_init (&map, layout, width, height, MIN (MAP_MIN_SIDE, MIN (width, height)));
  if (map.width != self->map.width || map.height != self->map.height)
    g_clear_object (&self->texture);
  self->map = map;
}

/**
 * graft_overview_move_to:
 * @self: an overview map
 * @x: a point on the map, in widget coordinates
 * @y: its y
 *
 * Centres the canvas's view on the layout point the map shows at
 * (@x, @y), as a click there does.
 */
void
graft_overview_move_to (GraftOverview *self,
                        double         x,
                        double         y)
{
  double lx;
  double ly;

  g_return_if_fail (GRAFT_IS_OVERVIEW (self));
  if (get_layout (self) == NULL || self->map.width <= 0)
    return;
  x = CLAMP (x, 0, self->map.width);
  y = CLAMP (y, 0, self->map.height);
  graft_map_to_layout (&self->map, x, y, &lx, &ly);
  graft_canvas_set_center (self->canvas, lx, ly);
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               GraftOverview  *self)
{
  graphene_rect_t view;

  if (!self->needed || get_layout (self) == NULL)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  view = view_on_map (self);
  self->drag_x = x;
  self->drag_y = y;
  self->grab_dx = self->grab_dy = 0;
  /* Grabbing the visible area moves it from where it is; a click
   * elsewhere brings it there first. */
  if (graphene_rect_contains_point (&view, &GRAPHENE_POINT_INIT ((float) x, (float) y)))
    {
      self->grab_dx = view.origin.x + view.size.width / 2 - x;
      self->grab_dy = view.origin.y + view.size.height / 2 - y;
    }
  else
    graft_overview_move_to (self, x, y);
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                GraftOverview  *self)
{
  graft_overview_move_to (self, self->drag_x + dx + self->grab_dx,
                          self->drag_y + dy + self->grab_dy);
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             GraftOverview  *self)
{
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "pointer");
}

/**
 * graft_overview_set_canvas:
 * @self: an overview map
 * @canvas: (nullable): the canvas it shows and moves
 */
void
graft_overview_set_canvas (GraftOverview *self,
                           GraftCanvas   *canvas)
{
  g_return_if_fail (GRAFT_IS_OVERVIEW (self));
  g_return_if_fail (canvas == NULL || GRAFT_IS_CANVAS (canvas));
  if (canvas == self->canvas)
    return;
  if (self->canvas != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->canvas, self);
      g_clear_object (&self->canvas);
    }
  if (canvas != NULL)
    {
      self->canvas = g_object_ref (canvas);
      g_signal_connect_object (canvas, "view-changed", G_CALLBACK (view_changed_cb), self, 0);
      g_signal_connect_object (canvas, "content-changed", G_CALLBACK (content_changed_cb), self,
                               0);
    }
  content_changed_cb (canvas, self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CANVAS]);
}

/**
 * graft_overview_get_canvas:
 * @self: an overview map
 *
 * Returns: (nullable) (transfer none): the canvas it shows
 */
GraftCanvas *
graft_overview_get_canvas (GraftOverview *self)
{
  g_return_val_if_fail (GRAFT_IS_OVERVIEW (self), NULL);
  return self->canvas;
}

/**
 * graft_overview_get_needed:
 * @self: an overview map
 *
 * Returns: whether part of the graph is out of the canvas's view, so the
 *   map draws itself and takes clicks
 */
gboolean
graft_overview_get_needed (GraftOverview *self)
{
  g_return_val_if_fail (GRAFT_IS_OVERVIEW (self), FALSE);
  return self->needed;
}

/**
 * graft_overview_get_map:
 * @self: an overview map
 * @out_map: (out caller-allocates): where the map puts the layout
 *
 * Returns: whether there is a map (a layout and an allocation)
 */
gboolean
graft_overview_get_map (GraftOverview *self,
                        GraftMap      *out_map)
{
  g_return_val_if_fail (GRAFT_IS_OVERVIEW (self), FALSE);
  *out_map = self->map;
  return get_layout (self) != NULL && self->map.width > 0;
}

/**
 * graft_overview_get_n_renders:
 * @self: an overview map
 *
 * Returns: how many times the map's picture has been drawn
 */
guint
graft_overview_get_n_renders (GraftOverview *self)
{
  g_return_val_if_fail (GRAFT_IS_OVERVIEW (self), 0);
  return self->n_renders;
}

static void
scale_factor_cb (GraftOverview *self,
                 GParamSpec    *pspec,
                 gpointer       user_data)
{
  g_clear_object (&self->texture);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
graft_overview_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  GraftOverview *self = GRAFT_OVERVIEW (object);

  switch (prop_id)
    {
    case PROP_CANVAS:
      g_value_set_object (value, self->canvas);
      break;
    case PROP_NEEDED:
      g_value_set_boolean (value, self->needed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
graft_overview_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  GraftOverview *self = GRAFT_OVERVIEW (object);

  switch (prop_id)
    {
    case PROP_CANVAS:
      graft_overview_set_canvas (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
graft_overview_dispose (GObject *object)
{
  GraftOverview *self = GRAFT_OVERVIEW (object);

  if (self->canvas != NULL)
    g_signal_handlers_disconnect_by_data (self->canvas, self);
  g_clear_object (&self->canvas);
  g_clear_object (&self->texture);
  G_OBJECT_CLASS (graft_overview_parent_class)->dispose (object);
}

static void
graft_overview_class_init (GraftOverviewClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = graft_overview_dispose;
  object_class->get_property = graft_overview_get_property;
  object_class->set_property = graft_overview_set_property;
  widget_class->snapshot = graft_overview_snapshot;
  widget_class->measure = graft_overview_measure;
  widget_class->size_allocate = graft_overview_size_allocate;

  properties[PROP_CANVAS] =
      g_param_spec_object ("canvas", NULL, NULL, GRAFT_TYPE_CANVAS,
                           G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_NEEDED] = g_param_spec_boolean ("needed", NULL, NULL, FALSE,
                                                  G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "graftoverview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
graft_overview_init (GraftOverview *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_can_target (GTK_WIDGET (self), FALSE);
  gtk_widget_set_opacity (GTK_WIDGET (self), 0);
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "pointer");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), "Overview: click or drag to move the view");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  "Overview map of the whole graph", -1);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  g_signal_connect (self, "notify::scale-factor", G_CALLBACK (scale_factor_cb), NULL);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (dark_changed_cb), self, 0);
}
