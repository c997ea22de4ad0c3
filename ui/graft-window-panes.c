/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-window-panes.c: F6 and Shift+F6 move the keyboard focus from one
 * pane of the window to the next, as in GNOME's applications (the HIG's
 * "next pane"; GtkPaned binds F6 the same way inside itself).
 *
 * The panes, in the order F6 visits them (the order they are read in,
 * left to right, top to bottom): the Find bar while it is shown, the
 * canvas (or the page that stands in for it: no file, an error), the
 * properties panel while it is shown, the side panel's page (the Pattern
 * or Replacement editor, the Rules list, the Code) and the matches list
 * under it.  A pane that takes no focus (an empty list) is passed over.
 * The side panel is visited while it is shown beside the canvas; folded
 * away on a narrow window it is slid out when F6 enters it and slid back
 * when F6 leaves it, so the keyboard reaches it there too.  Moving the
 * focus changes nothing else: no graph, no selection, no text.
 *
 * Alt+1 to Alt+4 (win.show-page) show the side panel's Pattern,
 * Replacement, Rules or Code page and put the keyboard in it, as F6
 * would, sliding a hidden or folded panel out first: from the keyboard
 * the pages were otherwise reached by Shift+Tab out of the text (Tab
 * indents there) and the arrows over the switcher.
 *
 * Also here: the split of the side panel between its page and the
 * matches on the Rules page (_graft_window_fit_side_page()).
 */
#include "config.h"

#include "graft-window-private.h"

typedef enum {
  PANE_FIND,
  PANE_CANVAS,
  PANE_PROPERTIES,
  PANE_PAGE,
  PANE_MATCHES,
  N_PANES,
} Pane;

static gboolean
side_reachable (GraftWindow *self)
{
  return adw_flap_get_reveal_flap (self->side_flap) || adw_flap_get_folded (self->side_flap);
}

/* Whether the focus (@focus, or NULL) is in @widget. */
static gboolean
focus_in (GtkWidget *focus,
          GtkWidget *widget)
{
  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* The pane the focus is in, or N_PANES (the header bar, or nowhere). */
static Pane
current_pane (GraftWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  if (focus_in (focus, GTK_WIDGET (self->search_bar)))
    return PANE_FIND;
  if (focus_in (focus, GTK_WIDGET (self->properties)))
    return PANE_PROPERTIES;
  if (focus_in (focus, GTK_WIDGET (self->content_stack)))
    return PANE_CANVAS;
  if (focus_in (focus, self->match_box))
    return PANE_MATCHES;
  if (focus_in (focus, self->sidebar))
    return PANE_PAGE;
  return N_PANES;
}

/* The side panel's page takes the focus where a user types or chooses:
 * the editor's text, the chosen rule, the code. */
static gboolean
focus_page (GraftWindow *self)
{
  GtkWidget *page = gtk_stack_get_visible_child (self->editor_stack);

  if (page == NULL)
    return FALSE;
  if (page == GTK_WIDGET (self->rules_panel) ||
      gtk_widget_is_ancestor (GTK_WIDGET (self->rules_panel), page))
    {
      graft_rules_panel_focus_rules (self->rules_panel);
      return focus_in (gtk_root_get_focus (GTK_ROOT (self)), page);
    }
  if (gtk_widget_is_ancestor (GTK_WIDGET (self->code_view), page))
    return gtk_widget_grab_focus (GTK_WIDGET (self->code_view));
  /* From the page's start (the editor's text), wherever in the side
   * panel the focus is: the panel puts it on its first control when it
   * slides out. */
  if (focus_in (gtk_root_get_focus (GTK_ROOT (self)), self->sidebar))
    gtk_root_set_focus (GTK_ROOT (self), NULL);
  return gtk_widget_child_focus (page, GTK_DIR_TAB_FORWARD);
}

/* Puts the focus in @pane; FALSE when it is not there or takes none. */
static gboolean
focus_pane (GraftWindow *self,
            Pane         pane)
{
  GtkWidget *content;

  switch (pane)
    {
    case PANE_FIND:
      return gtk_search_bar_get_search_mode (self->search_bar) &&
             gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
    case PANE_CANVAS:
      content = gtk_stack_get_visible_child (self->content_stack);
      if (content == NULL)
        return FALSE;
      if (gtk_widget_is_ancestor (GTK_WIDGET (self->canvas), content))
        return gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
      return gtk_widget_child_focus (content, GTK_DIR_TAB_FORWARD);
    case PANE_PROPERTIES:
      return adw_flap_get_reveal_flap (self->properties_flap) &&
             graft_properties_focus_first (self->properties);
    case PANE_PAGE:
      return side_reachable (self) && focus_page (self);
    case PANE_MATCHES:
      return side_reachable (self) &&
             g_list_model_get_n_items (G_LIST_MODEL (self->match_selection)) > 0 &&
             gtk_widget_grab_focus (GTK_WIDGET (self->match_list)) &&
             focus_in (gtk_root_get_focus (GTK_ROOT (self)), self->match_box);
    case N_PANES:
    default:
      return FALSE;
    }
}

/* The side panel, slid out, is mapped a frame later: the pane due is
 * focused then (or, an empty list, the other pane of the panel). */
static void
side_mapped_cb (GtkWidget   *flap,
                GraftWindow *self)
{
  int due = GPOINTER_TO_INT (g_object_steal_data (G_OBJECT (flap), "graft-pane-due"));

  g_signal_handlers_disconnect_by_func (flap, side_mapped_cb, self);
  if (due == PANE_PAGE + 1)
    (void) (focus_pane (self, PANE_PAGE) || focus_pane (self, PANE_MATCHES));
  else if (due == PANE_MATCHES + 1)
    (void) (focus_pane (self, PANE_MATCHES) || focus_pane (self, PANE_PAGE));
}

static void
cycle (GraftWindow *self,
       int          direction)
{
  Pane     from = current_pane (self);
  gboolean folded = adw_flap_get_folded (self->side_flap);
  int      at = from == N_PANES ? (direction > 0 ? -1 : N_PANES) : (int) from;

  for (int tried = 0; tried < N_PANES; tried++)
    {
      Pane pane;

      at = (at + direction + N_PANES) % N_PANES;
      pane = at;
      /* Folded away, the side panel slides out as the focus enters it,
       * and takes the focus once it is on screen. */
      if (folded && (pane == PANE_PAGE || pane == PANE_MATCHES) &&
          !gtk_widget_get_mapped (adw_flap_get_flap (self->side_flap)))
        {
          GtkWidget *flap = adw_flap_get_flap (self->side_flap);

          g_signal_handlers_disconnect_by_func (flap, side_mapped_cb, self);
          g_object_set_data (G_OBJECT (flap), "graft-pane-due", GINT_TO_POINTER (pane + 1));
          g_signal_connect (flap, "map", G_CALLBACK (side_mapped_cb), self);
          adw_flap_set_reveal_flap (self->side_flap, TRUE);
          return;
        }
      if (focus_pane (self, pane))
        {
          if (folded && pane != PANE_PAGE && pane != PANE_MATCHES)
            adw_flap_set_reveal_flap (self->side_flap, FALSE);
          return;
        }
    }
}

static void
focus_next_pane_cb (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  cycle (user_data, 1);
}

static void
focus_previous_pane_cb (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  cycle (user_data, -1);
}

/* Ctrl+F8: the keyboard goes to the side panel's split, as GtkPaned's
 * own F8 takes it there (F8 is Next Match in this window).  The arrows,
 * Page Up and Page Down, Home and End move it (GtkPaned's keys); Return
 * leaves it there, Escape puts it back, and the keyboard goes back where
 * it was.  The split above the Rules page moved so is the page's, as
 * dragged (split_keyed_cb). */
static void
move_split_cb (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  GraftWindow *self = user_data;
  GtkWidget   *paned = GTK_WIDGET (self->side_paned);
  GtkWidget   *focus = gtk_root_get_focus (GTK_ROOT (self));
  GtkWidget   *end = gtk_paned_get_end_child (self->side_paned);
  gboolean     handled = FALSE;

  if (!gtk_widget_is_drawable (paned) || gtk_widget_is_focus (paned))
    return;
  self->side_split_keyed = self->side_split_rules;
  /* GtkPaned's F8 from one of its sides: it remembers the focus to give
   * back and the position Escape restores.  From the matches (the end
   * side), forwards would go to the next paned: backwards is this one. */
  g_signal_emit_by_name (paned, "cycle-handle-focus",
                         focus != NULL && end != NULL && gtk_widget_is_ancestor (focus, end),
                         &handled);
}

/* Alt+1 to Alt+4: the page named @parameter, the keyboard in it (the
 * Rules page as Ctrl+L shows it). */
static void
show_page_cb (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  GraftWindow *self = user_data;
  const char  *name = g_variant_get_string (parameter, NULL);
  GtkWidget   *flap = adw_flap_get_flap (self->side_flap);

  if (g_str_equal (name, "rules"))
    {
      g_action_group_activate_action (G_ACTION_GROUP (self), "show-rules", NULL);
      return;
    }
  if (gtk_stack_get_child_by_name (self->editor_stack, name) == NULL)
    return;
  gtk_stack_set_visible_child_name (self->editor_stack, name);
  if (!adw_flap_get_reveal_flap (self->side_flap) || !gtk_widget_get_mapped (flap))
    {
      g_signal_handlers_disconnect_by_func (flap, side_mapped_cb, self);
      g_object_set_data (G_OBJECT (flap), "graft-pane-due", GINT_TO_POINTER (PANE_PAGE + 1));
      g_signal_connect (flap, "map", G_CALLBACK (side_mapped_cb), self);
      adw_flap_set_reveal_flap (self->side_flap, TRUE);
      if (!gtk_widget_get_mapped (flap))
        return;
      g_signal_handlers_disconnect_by_func (flap, side_mapped_cb, self);
      g_object_set_data (G_OBJECT (flap), "graft-pane-due", NULL);
    }
  focus_page (self);
}

static const GActionEntry pane_entries[] = {
  { "show-page", show_page_cb, "s" },
  { "focus-next-pane", focus_next_pane_cb },
  { "focus-previous-pane", focus_previous_pane_cb },
  { "move-split", move_split_cb },
};

/**
 * _graft_window_init_panes:
 * @self: a window
 *
 * Adds win.focus-next-pane and win.focus-previous-pane (F6, Shift+F6),
 * win.show-page (Alt+1 to Alt+4) and win.move-split (Ctrl+F8).
 */
void
_graft_window_init_panes (GraftWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), pane_entries, G_N_ELEMENTS (pane_entries),
                                   self);
}

/* Moves the split, as the window's own doing (not the user's). */
static void
set_split (GraftWindow *self,
           int          position)
{
  self->side_split_own = TRUE;
  gtk_paned_set_position (self->side_paned, position);
  self->side_split_own = FALSE;
}

/* The side panel's split on the Rules page.  GtkPaned shares its height
 * by the two sides' minimum heights: the Rules page got 325 of the 389
 * pixels it asks at 1120x700 (Next Match and Skip cut at the fold, the
 * History below it) while the matches had five rows.  On the Rules page
 * the split is the page's natural height (or GtkPaned's share if that is
 * more), at most what leaves the matches their minimum (GtkPaned's
 * max-position: then the page scrolls), again whenever the panel's
 * height changes; on leaving the page it goes back to what it was
 * (GtkPaned's share, or where the user had dragged it).  Where the user
 * drags it on the Rules page is kept for the Rules page, for the window's
 * life (at most max-position, as GtkPaned would): leaving the page and
 * coming back lost it. */
void
_graft_window_fit_side_page (GraftWindow *self)
{
  GtkWidget *page = gtk_stack_get_visible_child (self->editor_stack);
  int        width = gtk_widget_get_width (GTK_WIDGET (self->side_paned));
  int        page_min = 0;
  int        natural = 0;
  int        matches_min = 0;
  int        most = 0;

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->editor_stack), "rules") != 0)
    {
      self->side_split_own = TRUE;
      if (self->side_split_taken && self->side_split_saved < 0)
        g_object_set (self->side_paned, "position-set", FALSE, NULL);
      else if (self->side_split_taken)
        gtk_paned_set_position (self->side_paned, self->side_split_saved);
      self->side_split_own = FALSE;
      self->side_split_taken = FALSE;
      return;
    }
  if (!self->side_split_taken)
    {
      gboolean set = FALSE;

      g_object_get (self->side_paned, "position-set", &set, NULL);
      self->side_split_saved = set ? gtk_paned_get_position (self->side_paned) : -1;
      self->side_split_taken = TRUE;
    }
  g_object_get (self->side_paned, "max-position", &most, NULL);
  if (self->side_split_rules >= 0)
    {
      if (gtk_paned_get_position (self->side_paned) != MIN (self->side_split_rules, most))
        set_split (self, MIN (self->side_split_rules, most));
      return;
    }
  gtk_widget_measure (page, GTK_ORIENTATION_VERTICAL, width > 0 ? width : -1, &page_min, &natural,
                      NULL, NULL);
  gtk_widget_measure (self->match_box, GTK_ORIENTATION_VERTICAL, width > 0 ? width : -1,
                      &matches_min, NULL, NULL, NULL);
  /* GtkPaned's share where it is more (a tall window: more rules in view),
   * its height being the most the page may take and the matches' least. */
  if (page_min + matches_min > 0 && most < G_MAXINT - matches_min)
    natural = MAX (natural, (int) ((gint64) (most + matches_min) * page_min /
                                   (page_min + matches_min)));
  natural = MIN (natural, most);
  if (gtk_paned_get_position (self->side_paned) != natural)
    set_split (self, natural);
}

static gboolean
fit_tick_cb (GtkWidget     *paned,
             GdkFrameClock *clock,
             gpointer       data)
{
  GraftWindow *self = data;
  GtkWidget   *scroller =
      gtk_widget_get_ancestor (GTK_WIDGET (self->rules_panel), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  int            more = (int) (gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj));
  int            most = 0;

  if (!self->side_split_taken || self->side_split_rules >= 0 ||
      g_strcmp0 (gtk_stack_get_visible_child_name (self->editor_stack), "rules") != 0)
    return G_SOURCE_REMOVE;
  /* Measured, the page asks for its natural height at the panel's whole
   * width; allocated with its scrollbar shown (overlay scrolling off),
   * its line of text may wrap once more.  So the page grows by what it
   * lacks as allocated, and never shrinks here: shrunk, the scrollbar
   * would come back and the line wrap again, frame after frame. */
  g_object_get (self->side_paned, "max-position", &most, NULL);
  if (more > 0)
    set_split (self, MIN (gtk_paned_get_position (self->side_paned) + more, most));
  return G_SOURCE_REMOVE;
}

static void
fit_tick_done (gpointer data)
{
  GraftWindow *self = data;

  self->side_split_tick = 0;
}

/* The Rules page's height changed under the split (its line saying what
 * the next step does took another line after an undo, and the History's
 * second row went below the page's edge): the page grows at the next
 * frame (it is being allocated now). */
static void
page_extent_changed_cb (GraftWindow *self)
{
  if (self->side_split_taken && self->side_split_tick == 0)
    self->side_split_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->side_paned),
                                                          fit_tick_cb, self, fit_tick_done);
}

/* The split moved: on the Rules page, by the user when the pointer is
 * down on its handle (or by the handle's keys, Ctrl+F8 then the arrows:
 * split_keyed_cb), where it is is the user's for that page. */
static void
split_moved_cb (GraftWindow *self)
{
  if (self->side_split_taken && !self->side_split_own && self->side_split_held)
    self->side_split_rules = gtk_paned_get_position (self->side_paned);
}

/* After GtkPaned's own handler (which returns whether the paned had the
 * focus: the signal keeps the last handler's answer). */
static gboolean
split_keyed_cb (GraftWindow  *self,
                GtkScrollType scroll,
                GtkPaned     *paned)
{
  if (self->side_split_taken && !self->side_split_own)
    self->side_split_rules = gtk_paned_get_position (paned);
  return gtk_widget_is_focus (GTK_WIDGET (paned));
}

/* What Up and Down move the split by: GtkPaned's own step is a pixel,
 * which a user pressing Down does not see move. */
#define SPLIT_STEP 16

/* Before GtkPaned's own handler: Up and Down (and Left, Right) move the
 * split by SPLIT_STEP, within GtkPaned's bounds, and the signal stops
 * (its own one-pixel step is not taken too); the page keys, Home and End
 * go on to it. */
static gboolean
split_step_cb (GraftWindow  *self,
               GtkScrollType scroll,
               GtkPaned     *paned)
{
  int step;
  int min_position;
  int max_position;

  if (!gtk_widget_is_focus (GTK_WIDGET (paned)))
    return FALSE;
  switch (scroll)
    {
    case GTK_SCROLL_STEP_UP:
    case GTK_SCROLL_STEP_LEFT:
    case GTK_SCROLL_STEP_BACKWARD:
      step = -SPLIT_STEP;
      break;
    case GTK_SCROLL_STEP_DOWN:
    case GTK_SCROLL_STEP_RIGHT:
    case GTK_SCROLL_STEP_FORWARD:
      step = SPLIT_STEP;
      break;
    case GTK_SCROLL_NONE:
    case GTK_SCROLL_JUMP:
    case GTK_SCROLL_PAGE_BACKWARD:
    case GTK_SCROLL_PAGE_FORWARD:
    case GTK_SCROLL_PAGE_UP:
    case GTK_SCROLL_PAGE_DOWN:
    case GTK_SCROLL_PAGE_LEFT:
    case GTK_SCROLL_PAGE_RIGHT:
    case GTK_SCROLL_START:
    case GTK_SCROLL_END:
    default:
      return FALSE;
    }
  g_object_get (paned, "min-position", &min_position, "max-position", &max_position, NULL);
  gtk_paned_set_position (
      paned, CLAMP (gtk_paned_get_position (paned) + step, min_position, max_position));
  /* GtkPaned's handler would add its pixel: the emission ends here, and
   * the after-handler is called from here. */
  g_signal_stop_emission_by_name (paned, "move-handle");
  return split_keyed_cb (self, scroll, paned);
}

/* Escape on the handle: GtkPaned puts the split back where it was when
 * the keys took it (its own handler, after this one), and the Rules
 * page's split is what it was then too. */
static gboolean
split_cancelled_cb (GraftWindow *self,
                    GtkPaned    *paned)
{
  if (gtk_widget_is_focus (GTK_WIDGET (paned)) && self->side_split_taken)
    self->side_split_rules = self->side_split_keyed;
  return FALSE;
}

/* The split's handle: the paned's child between its two sides. */
static GtkWidget *
split_handle (GraftWindow *self)
{
  GtkWidget *start = gtk_paned_get_start_child (self->side_paned);
  GtkWidget *end = gtk_paned_get_end_child (self->side_paned);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->side_paned));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (child != start && child != end)
      return child;
  return NULL;
}

/* Pixels around the handle where a press drags it (GtkPaned's own area
 * is a few pixels wider than the line drawn). */
#define HANDLE_SLACK 8

/* Seen before GtkPaned's own drag takes the press (capture phase), and
 * let through: whether the pointer went down on the handle. */
static gboolean
split_event_cb (GtkEventControllerLegacy *controller,
                GdkEvent                 *event,
                GraftWindow              *self)
{
  GdkEventType     type = gdk_event_get_event_type (event);
  GtkWidget       *handle;
  GtkNative       *native;
  graphene_point_t at;
  graphene_point_t in_paned;
  graphene_rect_t  bounds;
  double           x = 0;
  double           y = 0;
  double           dx = 0;
  double           dy = 0;

  if (type == GDK_BUTTON_RELEASE)
    self->side_split_held = FALSE;
  if (type != GDK_BUTTON_PRESS)
    return FALSE;
  self->side_split_held = FALSE;
  handle = split_handle (self);
  native = gtk_widget_get_native (GTK_WIDGET (self->side_paned));
  if (handle == NULL || native == NULL || !gdk_event_get_position (event, &x, &y) ||
      !gtk_widget_compute_bounds (handle, GTK_WIDGET (self->side_paned), &bounds))
    return FALSE;
  gtk_native_get_surface_transform (native, &dx, &dy);
  at = GRAPHENE_POINT_INIT ((float) (x - dx), (float) (y - dy));
  if (!gtk_widget_compute_point (GTK_WIDGET (native), GTK_WIDGET (self->side_paned), &at,
                                 &in_paned))
    return FALSE;
  self->side_split_held = in_paned.y >= bounds.origin.y - HANDLE_SLACK &&
                          in_paned.y <= bounds.origin.y + bounds.size.height + HANDLE_SLACK;
  return FALSE;
}

/* The split follows the panel's height (GtkPaned's max-position) and the
 * Rules page's (its scroller's extent), until the user moves it there. */
void
_graft_window_init_side_split (GraftWindow *self)
{
  GtkWidget *scroller =
      gtk_widget_get_ancestor (GTK_WIDGET (self->rules_panel), GTK_TYPE_SCROLLED_WINDOW);
  GtkEventController *legacy = gtk_event_controller_legacy_new ();

  self->side_split_rules = -1;
  self->side_split_keyed = -1;
  gtk_widget_add_css_class (GTK_WIDGET (self->side_paned), "side-split");
  gtk_event_controller_set_propagation_phase (legacy, GTK_PHASE_CAPTURE);
  g_signal_connect (legacy, "event", G_CALLBACK (split_event_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->side_paned), legacy);
  g_signal_connect_swapped (self->side_paned, "notify::position", G_CALLBACK (split_moved_cb),
                            self);
  g_signal_connect_swapped (self->side_paned, "move-handle", G_CALLBACK (split_step_cb), self);
  g_signal_connect_data (self->side_paned, "move-handle", G_CALLBACK (split_keyed_cb), self, NULL,
                         G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  g_signal_connect_swapped (self->side_paned, "cancel-position", G_CALLBACK (split_cancelled_cb),
                            self);

  g_signal_connect_swapped (self->side_paned, "notify::max-position",
                            G_CALLBACK (_graft_window_fit_side_page), self);
  g_signal_connect_object (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)),
                           "changed", G_CALLBACK (page_extent_changed_cb), self,
                           G_CONNECT_SWAPPED);
}
