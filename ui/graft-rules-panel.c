/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-rules-panel.c: the Rules page beside Pattern and Replacement.
 *
 * It shows the document's rules in the order they run, each with its
 * number, its name as the CLI prints it (`relu_add → clamp_add`), how many
 * matches it has on the graph now (or why it cannot run), a mark on the
 * rule the next step applies, and a switch that leaves it out.  Choosing
 * a rule makes it the one the Pattern and Replacement editors edit and
 * whose matches are listed and highlighted.  Rules move by drag and drop
 * (onto a row: before it, or after it on its lower half) and from the
 * keyboard (Alt+Up, Alt+Down); Delete removes, F2 renames, Space leaves
 * out or takes in.  The keys, like the buttons, go through the window's
 * actions (win.rule-*), so every change is one step of the history.
 *
 * Under the list: the options of a run (passes until one replaces nothing,
 * at most N; dead-code removal), the step buttons (win.run-all, win.step,
 * win.step-match, win.skip-match), the sentence saying what the next step
 * does, and the history: one row per change (`pass 1 · relu_add →
 * clamp_add · 3 matches`), the graph as read first.  The row of the
 * document's position is selected and follows undo and redo; choosing
 * another row goes there (graft_document_go_to()); rows undone are dimmed.
 *
 * The panel reads the document and calls it for choosing a rule, the
 * options and moving in the history; it owns no state of its own.
 */
#include "config.h"

#include "graft-rules-panel.h"

#include <adwaita.h>

/* What the line under the buttons says while the matches and the counts
 * are found again (graft_document_get_matches_pending()). */
#define FINDING_TEXT "Finding the rules’ matches\u2026"

struct _GraftRulesPanel
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkListView    *rule_list;
  GtkListView    *history_list;
  GtkCheckButton *fixpoint_check;
  GtkSpinButton  *fixpoint_spin;
  GtkCheckButton *dce_check;
  GtkLabel       *next_label;
  GtkWidget      *run_button;
  GtkWidget      *run_progress; /* shown while a Run All goes by steps */
  GtkLabel       *run_label;
  GtkWidget      *cancel_button;

  /* Owned */
  GraftDocument      *document;
  GtkSingleSelection *rule_selection;
  GtkStringList      *history;
  GtkSingleSelection *history_selection;

  gboolean syncing;             /* the widgets are being set from the document */
  guint    history_tick;        /* scrolls the History each frame until the row is in view */
  guint    history_tick_frames; /* frames the tick has run */
};

G_DEFINE_FINAL_TYPE (GraftRulesPanel, graft_rules_panel, GTK_TYPE_WIDGET)

/**
 * graft_rules_panel_new:
 *
 * Returns: (transfer full): a panel showing no document yet
 */
GtkWidget *
graft_rules_panel_new (void)
{
  return g_object_new (GRAFT_TYPE_RULES_PANEL, NULL);
}

/* Rows of rules ------------------------------------------------------------ */

/* The widgets of a rule's row, kept on its box. */
typedef struct
{
  GtkWidget *number;
  GtkWidget *title;
  GtkWidget *caption;
  GtkWidget *next;
  GtkWidget *enabled;
  GraftRule *rule; /* Borrowed: bound, or NULL */
} RuleRow;

/* Sets @widget's tooltip only if it changes: GTK 4.8's
 * gtk_widget_set_tooltip_text() asks the X server where the pointer is
 * (a round trip) even when the text is the same, NULL included, and every
 * rule's row is updated whenever a count is. */
static void
set_tooltip (GtkWidget  *widget,
             const char *text)
{
  if (g_strcmp0 (gtk_widget_get_tooltip_text (widget), text) != 0)
    gtk_widget_set_tooltip_text (widget, text);
}

static void
update_caption (RuleRow *row)
{
  GraftRule       *rule = row->rule;
  const char      *problem = graft_rule_get_problem (rule);
  guint            n = graft_rule_get_n_matches (rule);
  g_autofree char *text = NULL;

  if (problem != NULL)
    {
      /* A caption of its own starts as a sentence does. */
      text = g_strdup (problem);
      text[0] = g_ascii_toupper (text[0]);
    }
  else if (n == 0)
    text = g_strdup ("No match");
  else
    text = g_strdup_printf ("%u match%s", n, n == 1 ? "" : "es");
  if (!graft_rule_get_enabled (rule))
    {
      char *left = g_strdup_printf ("Left out · %s", text);

      g_free (text);
      text = left;
    }
  gtk_label_set_text (GTK_LABEL (row->caption), text);
  set_tooltip (row->caption, problem);
  if (problem != NULL)
    gtk_widget_add_css_class (row->caption, "error");
  else
    gtk_widget_remove_css_class (row->caption, "error");
  if (graft_rule_get_enabled (rule))
    gtk_widget_remove_css_class (row->title, "dim-label");
  else
    gtk_widget_add_css_class (row->title, "dim-label");
}

static void
rule_notify_cb (GraftRule  *rule,
                GParamSpec *pspec,
                RuleRow    *row)
{
  g_autofree char *number = g_strdup_printf ("%u", graft_rule_get_position (rule) + 1);
  g_autofree char *title = graft_rule_dup_title (rule);

  gtk_label_set_text (GTK_LABEL (row->number), number);
  gtk_label_set_text (GTK_LABEL (row->title), title);
  set_tooltip (row->title, title);
  gtk_widget_set_visible (row->next, graft_rule_get_is_next (rule));
  if (gtk_switch_get_active (GTK_SWITCH (row->enabled)) != graft_rule_get_enabled (rule))
    gtk_switch_set_active (GTK_SWITCH (row->enabled), graft_rule_get_enabled (rule));
  update_caption (row);
}

/* The switch: leaving out or taking in is a change of the history, made
 * through the window's action so that it says so. */
static gboolean
enabled_state_set_cb (GtkSwitch *button,
                      gboolean   state,
                      RuleRow   *row)
{
  GraftRulesPanel *self;

  if (row->rule == NULL || state == graft_rule_get_enabled (row->rule))
    return FALSE;
  self = GRAFT_RULES_PANEL (gtk_widget_get_ancestor (GTK_WIDGET (button),
                                                     GRAFT_TYPE_RULES_PANEL));
  if (self == NULL || self->document == NULL)
    return TRUE;
  graft_document_set_rule_enabled (self->document, graft_rule_get_position (row->rule), state);
  /* The switch follows the rule (rule_notify_cb()). */
  return TRUE;
}

static void
rule_row_free (gpointer data)
{
  g_free (data);
}

static GdkContentProvider *
drag_prepare_cb (GtkDragSource *source,
                 double         x,
                 double         y,
                 RuleRow       *row)
{
  if (row->rule == NULL)
    return NULL;
  return gdk_content_provider_new_typed (GRAFT_TYPE_RULE, row->rule);
}

static void
drag_begin_cb (GtkDragSource *source,
               GdkDrag       *drag,
               GtkWidget     *box)
{
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (box);

  gtk_drag_source_set_icon (source, paintable, 12, 12);
}

/**
 * graft_rules_panel_drop_rule:
 * @self: a panel
 * @from: the position of the rule dropped
 * @onto: the position of the row it was dropped on
 * @after: it was dropped on the row's lower half
 *
 * Moves the rule where the drop puts it: before the row, or after it.
 */
void
graft_rules_panel_drop_rule (GraftRulesPanel *self,
                             guint            from,
                             guint            onto,
                             gboolean         after)
{
  guint to = onto + (after ? 1 : 0);

  g_return_if_fail (GRAFT_IS_RULES_PANEL (self));
  if (self->document == NULL)
    return;
  /* Taken out first, the rule leaves a gap above the place it goes to. */
  if (to > from)
    to--;
  if (to >= graft_document_get_n_rules (self->document))
    to = graft_document_get_n_rules (self->document) - 1;
  graft_document_move_rule (self->document, from, to);
}

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         RuleRow       *row)
{
  GtkWidget       *box = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (target));
  GraftRulesPanel *self = GRAFT_RULES_PANEL (gtk_widget_get_ancestor (box, GRAFT_TYPE_RULES_PANEL));
  GraftRule       *dropped;

  if (self == NULL || row->rule == NULL || !G_VALUE_HOLDS (value, GRAFT_TYPE_RULE))
    return FALSE;
  dropped = g_value_get_object (value);
  graft_rules_panel_drop_rule (self, graft_rule_get_position (dropped),
                               graft_rule_get_position (row->rule),
                               y > gtk_widget_get_height (box) / 2.0);
  return TRUE;
}

static void
rule_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  GtkWidget     *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget     *handle = gtk_image_new_from_icon_name ("list-drag-handle-symbolic");
  GtkWidget     *labels = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  RuleRow       *row = g_new0 (RuleRow, 1);
  GtkDragSource *drag = gtk_drag_source_new ();
  GtkDropTarget *drop = gtk_drop_target_new (GRAFT_TYPE_RULE, GDK_ACTION_MOVE);

  row->number = gtk_label_new (NULL);
  row->title = gtk_label_new (NULL);
  row->caption = gtk_label_new (NULL);
  row->next = gtk_image_new_from_icon_name ("media-playback-start-symbolic");
  row->enabled = gtk_switch_new ();
  gtk_widget_add_css_class (handle, "dim-label");
  gtk_widget_set_tooltip_text (handle, "Drag to move the rule");
  gtk_widget_add_css_class (row->number, "rule-number");
  gtk_widget_add_css_class (row->number, "dim-label");
  gtk_widget_add_css_class (row->number, "numeric");
  gtk_label_set_xalign (GTK_LABEL (row->title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (row->title), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (row->caption), 0);
  gtk_label_set_ellipsize (GTK_LABEL (row->caption), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (row->caption, "caption");
  gtk_widget_add_css_class (row->caption, "dim-label");
  gtk_widget_set_hexpand (labels, TRUE);
  gtk_widget_set_tooltip_text (row->next, "The next step applies this rule");
  gtk_widget_add_css_class (row->next, "accent");
  gtk_widget_set_valign (row->enabled, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (row->enabled, "Take part in steps, runs, saved rules and passes "
                                             "(Space)");
  gtk_accessible_update_property (GTK_ACCESSIBLE (row->enabled), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  "Take part in runs", -1);
  gtk_box_append (GTK_BOX (labels), row->title);
  gtk_box_append (GTK_BOX (labels), row->caption);
  gtk_box_append (GTK_BOX (box), handle);
  gtk_box_append (GTK_BOX (box), row->number);
  gtk_box_append (GTK_BOX (box), labels);
  gtk_box_append (GTK_BOX (box), row->next);
  gtk_box_append (GTK_BOX (box), row->enabled);
  gtk_widget_set_margin_top (box, 3);
  gtk_widget_set_margin_bottom (box, 3);
  g_object_set_data_full (G_OBJECT (box), "graft-rule-row", row, rule_row_free);
  g_signal_connect (row->enabled, "state-set", G_CALLBACK (enabled_state_set_cb), row);

  gtk_drag_source_set_actions (drag, GDK_ACTION_MOVE);
  g_signal_connect (drag, "prepare", G_CALLBACK (drag_prepare_cb), row);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), box);
  gtk_widget_add_controller (box, GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), row);
  gtk_widget_add_controller (box, GTK_EVENT_CONTROLLER (drop));
  gtk_list_item_set_child (item, box);
}

static void
rule_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  user_data)
{
  GtkWidget *box = gtk_list_item_get_child (item);
  RuleRow   *row = g_object_get_data (G_OBJECT (box), "graft-rule-row");

  row->rule = gtk_list_item_get_item (item);
  g_signal_connect (row->rule, "notify", G_CALLBACK (rule_notify_cb), row);
  rule_notify_cb (row->rule, NULL, row);
}

static void
rule_unbind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                gpointer                  user_data)
{
  GtkWidget *box = gtk_list_item_get_child (item);
  RuleRow   *row = g_object_get_data (G_OBJECT (box), "graft-rule-row");

  if (row->rule != NULL)
    g_signal_handlers_disconnect_by_func (row->rule, rule_notify_cb, row);
  row->rule = NULL;
}

/* Rows of the history ------------------------------------------------------- */

static void
history_row_update (GtkListItem   *item,
                    GraftDocument *document)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  guint      position = gtk_list_item_get_position (item);

  if (position == GTK_INVALID_LIST_POSITION || document == NULL)
    return;
  /* Changes undone (that redo would make again) are dimmed. */
  if (position > graft_document_get_position (document))
    gtk_widget_add_css_class (label, "dim-label");
  else
    gtk_widget_remove_css_class (label, "dim-label");
}

static void
history_changed_row_cb (GraftDocument *document,
                        GtkListItem   *item)
{
  history_row_update (item, document);
}

static gboolean
unparent_cb (gpointer popover)
{
  if (gtk_widget_get_parent (popover) != NULL)
    gtk_widget_unparent (popover);
  return G_SOURCE_REMOVE;
}

static void
history_menu_closed_cb (GtkPopover *popover)
{
  /* Not while the popover is still emitting. */
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, unparent_cb, g_object_ref (popover), g_object_unref);
}

/* A right click on a change: its context menu offers to compare the graph
 * before and after it (the first row is the graph as read: no change). */
static void
history_pressed_cb (GtkGestureClick *gesture,
                    int              n_press,
                    double           x,
                    double           y,
                    GtkListItem     *item)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  guint      position = gtk_list_item_get_position (item);
  g_autoptr (GMenu) menu = NULL;
  g_autoptr (GMenuItem) compare = NULL;
  GtkWidget *popover;

  if (position == GTK_INVALID_LIST_POSITION || position == 0)
    return;
  menu = g_menu_new ();
  compare = g_menu_item_new ("Compare _Graphs Before and After", NULL);
  g_menu_item_set_action_and_target_value (compare, "win.compare-step",
                                           g_variant_new_uint32 (position - 1));
  g_menu_append_item (menu, compare);
  popover = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
  gtk_widget_set_parent (popover, label);
  gtk_popover_set_has_arrow (GTK_POPOVER (popover), FALSE);
  gtk_popover_set_pointing_to (GTK_POPOVER (popover), &(GdkRectangle){ (int) x, (int) y, 1, 1 });
  g_signal_connect (popover, "closed", G_CALLBACK (history_menu_closed_cb), NULL);
  gtk_popover_popup (GTK_POPOVER (popover));
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
history_setup_cb (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  gpointer                  user_data)
{
  GtkWidget  *label = gtk_label_new (NULL);
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (history_pressed_cb), item);
  gtk_widget_add_controller (label, GTK_EVENT_CONTROLLER (click));

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_margin_top (label, 2);
  gtk_widget_set_margin_bottom (label, 2);
  gtk_list_item_set_child (item, label);
}

static void
history_bind_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 GraftRulesPanel          *self)
{
  GtkWidget  *label = gtk_list_item_get_child (item);
  const char *text = gtk_string_object_get_string (gtk_list_item_get_item (item));

  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_widget_set_tooltip_text (label, text);
  if (self->document != NULL)
    g_signal_connect (self->document, "history-changed", G_CALLBACK (history_changed_row_cb), item);
  history_row_update (item, self->document);
}

static void
history_unbind_cb (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   GraftRulesPanel          *self)
{
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_func (self->document, history_changed_row_cb, item);
}

/* Following the document ---------------------------------------------------- */

/* The history list holds the graph as read, then a row per change. */
/* Asks the History list to scroll to the row of the graph shown (GTK 4.8
 * goes by the rows laid out: for rows just added it can stop short;
 * history_tick_cb() brings the row the rest of the way). */
static void
scroll_history (GraftRulesPanel *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self->history_list), "list.scroll-to-item", "u",
                              graft_document_get_position (self->document));
}

/* How far the History list must scroll for the row of the graph shown
 * to lie whole inside the list's scrolled window (0 if it does), or
 * FALSE if that row is not laid out. */
static gboolean
history_row_offset (GraftRulesPanel *self,
                    double          *offset)
{
  GtkWidget      *list = GTK_WIDGET (self->history_list);
  GtkWidget      *scroller = gtk_widget_get_ancestor (list, GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t bounds;

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_get_mapped (row) &&
        (gtk_widget_get_state_flags (row) & GTK_STATE_FLAG_SELECTED) != 0)
      {
        double below;

        if (!gtk_widget_compute_bounds (row, scroller, &bounds))
          return FALSE;
        below = bounds.origin.y + bounds.size.height - gtk_widget_get_height (scroller);
        *offset = bounds.origin.y < 0 ? bounds.origin.y : MAX (below, 0);
        return TRUE;
      }
  return FALSE;
}

/* GTK 4.8's list.scroll-to-item can leave the row it was asked for cut by
 * the bottom edge (by the list's padding: at a 110-pixel list, 8 pixels
 * of the last row after a run under load), and asking again does not
 * move it.  After rows are added, each frame brings the row of the graph
 * shown whole into view, by the list's own scroll while it is not laid
 * out and by the pixels it is cut by once it is, for at most
 * HISTORY_FOLLOW_FRAMES frames. */
#define HISTORY_FOLLOW_FRAMES 60

static gboolean
history_tick_cb (GtkWidget     *widget,
                 GdkFrameClock *clock,
                 gpointer       data)
{
  GraftRulesPanel *self = GRAFT_RULES_PANEL (widget);
  double           offset = 0;

  if (self->document == NULL || self->history_list == NULL ||
      ++self->history_tick_frames > HISTORY_FOLLOW_FRAMES)
    {
      self->history_tick = 0;
      return G_SOURCE_REMOVE;
    }
  if (!history_row_offset (self, &offset))
    scroll_history (self);
  else if (offset != 0)
    {
      GtkAdjustment *adjustment =
          gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->history_list));

      gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + offset);
    }
  else
    {
      self->history_tick = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
follow_history (GraftRulesPanel *self)
{
  self->history_tick_frames = 0;
  if (self->history_tick == 0)
    self->history_tick =
        gtk_widget_add_tick_callback (GTK_WIDGET (self), history_tick_cb, NULL, NULL);
}

static void
history_adjustment_changed_cb (GraftRulesPanel *self)
{
  /* The list's height or rows changed (rows just added measured): the
   * row of the graph shown stays in view. */
  if (self->document != NULL)
    follow_history (self);
}

static void
sync_history (GraftRulesPanel *self)
{
  GListModel *model = G_LIST_MODEL (self->history);
  guint       length = graft_document_get_history_length (self->document);
  guint       shown = g_list_model_get_n_items (model);
  guint       same = 0;
  /* The first row is the file as opened, or its failure to read, or
   * (a new window's) that there is none. */
  g_autofree char *first =
      graft_document_get_load_error (self->document) != NULL
          ? g_strdup_printf ("Could not read %s", graft_document_get_title (self->document))
      : graft_document_get_file (self->document) == NULL &&
              graft_graph_get_n_nodes (graft_document_get_graph (self->document)) == 0
          ? g_strdup ("No graph open")
          : g_strdup_printf ("Opened %s", graft_document_get_title (self->document));
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();

  /* Entries never change once made; the history only drops its end and
   * grows: what differs is a tail. */
  if (shown > 0 &&
      g_strcmp0 (gtk_string_list_get_string (self->history, 0), first) == 0)
    {
      same = 1;
      while (same < shown && same - 1 < length &&
             g_strcmp0 (gtk_string_list_get_string (self->history, same),
                        graft_document_get_history_label (self->document, same - 1)) == 0)
        same++;
    }
  if (same == 0)
    g_ptr_array_add (labels, first);
  for (guint i = same == 0 ? 0 : same - 1; i < length; i++)
    g_ptr_array_add (labels, (gpointer) graft_document_get_history_label (self->document, i));
  g_ptr_array_add (labels, NULL);
  self->syncing = TRUE;
  if (same < shown || labels->len > 1)
    {
      gtk_string_list_splice (self->history, same, shown - same,
                              (const char *const *) labels->pdata);
      if (labels->len > 1)
        follow_history (self);
    }
  gtk_single_selection_set_selected (self->history_selection,
                                     graft_document_get_position (self->document));
  self->syncing = FALSE;
  scroll_history (self);
}

static void
sync_rules (GraftRulesPanel *self)
{
  g_autofree char *next = NULL;
  guint            fixpoint = graft_document_get_fixpoint (self->document);

  /* Asking for the next step while the matches are found by steps would
   * find them all in this turn: it is said when they are known (the
   * document's `rules-changed` once more). */
  if (graft_document_get_matches_pending (self->document))
    next = g_strdup (FINDING_TEXT);
  else
    next = graft_document_dup_next_text (self->document);

  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->rule_selection,
                                     graft_document_get_selected_rule (self->document));
  gtk_check_button_set_active (self->fixpoint_check, fixpoint > 0);
  if (fixpoint > 0)
    gtk_spin_button_set_value (self->fixpoint_spin, fixpoint);
  gtk_widget_set_sensitive (GTK_WIDGET (self->fixpoint_spin), fixpoint > 0);
  gtk_check_button_set_active (self->dce_check, graft_document_get_dce (self->document));
  self->syncing = FALSE;
  gtk_label_set_text (self->next_label, next);
}

static void
rules_changed_cb (GraftDocument   *document,
                  GraftRulesPanel *self)
{
  sync_rules (self);
}

/* The matches and the counts are found again: the line said what the next
 * step was on the graph or the rules before (after a Run All, "Done: one
 * pass; pattern still has 488 matches" while the counts shown went to 0),
 * until `rules-changed` once the counts were done. */
static void
matches_pending_cb (GraftDocument   *document,
                    GraftRulesPanel *self)
{
  gtk_label_set_text (self->next_label, FINDING_TEXT);
}

static void
history_changed_cb (GraftDocument   *document,
                    GraftRulesPanel *self)
{
  sync_history (self);
}

static void
title_changed_cb (GraftDocument   *document,
                  GParamSpec      *pspec,
                  GraftRulesPanel *self)
{
  sync_history (self);
}

static void
rule_selected_cb (GtkSingleSelection *selection,
                  GParamSpec         *pspec,
                  GraftRulesPanel    *self)
{
  GraftRule *item = gtk_single_selection_get_selected_item (selection);
  guint      chosen;

  if (self->syncing || self->document == NULL || item == NULL)
    return;
  /* While the document moves rules, the selection follows the rows; only
   * another rule is a choice. */
  chosen = graft_document_get_selected_rule (self->document);
  if (chosen < graft_document_get_n_rules (self->document) &&
      graft_document_get_rule (self->document, chosen) == item)
    return;
  graft_document_select_rule (self->document, gtk_single_selection_get_selected (selection));
}

static void
history_selected_cb (GtkSingleSelection *selection,
                     GParamSpec         *pspec,
                     GraftRulesPanel    *self)
{
  guint selected = gtk_single_selection_get_selected (selection);

  if (self->syncing || self->document == NULL || selected == GTK_INVALID_LIST_POSITION)
    return;
  /* The window says what the move did (the toast) and lays out again. */
  gtk_widget_activate_action (GTK_WIDGET (self), "win.history-go-to", "u", selected);
}

static void
fixpoint_changed_cb (GraftRulesPanel *self)
{
  if (self->syncing || self->document == NULL)
    return;
  gtk_widget_set_sensitive (GTK_WIDGET (self->fixpoint_spin),
                            gtk_check_button_get_active (self->fixpoint_check));
  graft_document_set_fixpoint (self->document,
                               gtk_check_button_get_active (self->fixpoint_check)
                                   ? (guint) gtk_spin_button_get_value_as_int (self->fixpoint_spin)
                                   : 0);
}

static void
dce_changed_cb (GraftRulesPanel *self)
{
  if (self->syncing || self->document == NULL)
    return;
  graft_document_set_dce (self->document, gtk_check_button_get_active (self->dce_check));
}

/* A Run All by steps: where it stands, and Cancel, until it is over. */
static void
run_progress_cb (GraftRulesPanel *self)
{
  g_autofree char *text = NULL;
  guint            pass;
  guint            rule;
  guint            n_rules;

  if (!graft_document_get_run_progress (self->document, &pass, &rule, &n_rules))
    {
      gtk_widget_set_visible (self->run_progress, FALSE);
      return;
    }
  if (rule < n_rules)
    text = g_strdup_printf ("Running rule %u of %u, pass %u\u2026", rule + 1, n_rules, pass);
  else
    text = g_strdup ("Checking the code the rules left\u2026");
  gtk_label_set_text (self->run_label, text);
  gtk_widget_set_visible (self->run_progress, TRUE);
}

static void
ran_all_cb (GraftDocument *document,
            guint          n,
            const GError  *error,
            gpointer       user_data)
{
  run_progress_cb (user_data);
}

static void
cancel_clicked_cb (GraftRulesPanel *self)
{
  if (self->document != NULL)
    graft_document_cancel_run_all (self->document);
}

/* Escape cancels a run under way; otherwise it is not the panel's. */
static gboolean
escape_cb (GtkWidget *widget,
           GVariant  *args,
           gpointer   user_data)
{
  GraftRulesPanel *self = GRAFT_RULES_PANEL (widget);

  if (self->document == NULL || !graft_document_get_running_all (self->document))
    return FALSE;
  graft_document_cancel_run_all (self->document);
  return TRUE;
}

/**
 * graft_rules_panel_get_run_text:
 * @self: a panel
 *
 * Returns: (nullable): what the panel says of the Run All under way, or
 *   %NULL when none is shown
 */
const char *
graft_rules_panel_get_run_text (GraftRulesPanel *self)
{
  g_return_val_if_fail (GRAFT_IS_RULES_PANEL (self), NULL);
  if (!gtk_widget_get_visible (self->run_progress))
    return NULL;
  return gtk_label_get_text (self->run_label);
}

/**
 * graft_rules_panel_get_cancel_button:
 * @self: a panel
 *
 * Returns: (transfer none): the button that cancels a Run All
 */
GtkWidget *
graft_rules_panel_get_cancel_button (GraftRulesPanel *self)
{
  g_return_val_if_fail (GRAFT_IS_RULES_PANEL (self), NULL);
  return self->cancel_button;
}

/**
 * graft_rules_panel_set_document:
 * @self: a panel
 * @document: the window's document, for the panel's life
 *
 * Shows @document's rules and history, and follows them.
 */
void
graft_rules_panel_set_document (GraftRulesPanel *self,
                                GraftDocument   *document)
{
  g_return_if_fail (GRAFT_IS_RULES_PANEL (self));
  g_return_if_fail (GRAFT_IS_DOCUMENT (document));
  g_return_if_fail (self->document == NULL);

  self->document = g_object_ref (document);
  self->rule_selection =
      gtk_single_selection_new (g_object_ref (graft_document_get_rules (document)));
  /* No choice of its own when the chosen rule goes: the document says
   * which is chosen then (sync_rules()). */
  gtk_single_selection_set_autoselect (self->rule_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->rule_selection, FALSE);
  gtk_list_view_set_model (self->rule_list, GTK_SELECTION_MODEL (self->rule_selection));
  g_signal_connect (self->rule_selection, "notify::selected", G_CALLBACK (rule_selected_cb), self);
  g_signal_connect_object (document, "rules-changed", G_CALLBACK (rules_changed_cb), self, 0);
  g_signal_connect_object (document, "matches-pending", G_CALLBACK (matches_pending_cb), self, 0);
  g_signal_connect_object (document, "history-changed", G_CALLBACK (history_changed_cb), self, 0);
  g_signal_connect_object (document, "notify::title", G_CALLBACK (title_changed_cb), self, 0);
  g_signal_connect_object (document, "run-progress", G_CALLBACK (run_progress_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (document, "ran-all", G_CALLBACK (ran_all_cb), self, 0);
  run_progress_cb (self);
  sync_rules (self);
  sync_history (self);
}

/**
 * graft_rules_panel_focus_rules:
 * @self: a panel
 *
 * Puts the keyboard focus on the chosen rule.
 */
void
graft_rules_panel_focus_rules (GraftRulesPanel *self)
{
  g_return_if_fail (GRAFT_IS_RULES_PANEL (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->rule_list));
  if (self->document != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self->rule_list), "list.scroll-to-item", "u",
                                graft_document_get_selected_rule (self->document));
}

/**
 * graft_rules_panel_get_next_text:
 * @self: a panel
 *
 * Returns: what the panel says the next step does
 */
const char *
graft_rules_panel_get_next_text (GraftRulesPanel *self)
{
  g_return_val_if_fail (GRAFT_IS_RULES_PANEL (self), NULL);
  return gtk_label_get_text (self->next_label);
}

/**
 * graft_rules_panel_get_rule_list:
 * @self: a panel
 *
 * Returns: (transfer none): the list of rules
 */
GtkListView *
graft_rules_panel_get_rule_list (GraftRulesPanel *self)
{
  g_return_val_if_fail (GRAFT_IS_RULES_PANEL (self), NULL);
  return self->rule_list;
}

/**
 * graft_rules_panel_get_history_list:
 * @self: a panel
 *
 * Returns: (transfer none): the history's list
 */
GtkListView *
graft_rules_panel_get_history_list (GraftRulesPanel *self)
{
  g_return_val_if_fail (GRAFT_IS_RULES_PANEL (self), NULL);
  return self->history_list;
}

/* The rule list's own keys: in a text they mean something else (Alt+Up
 * moves lines in a GtkSourceView), so they hold only here.  They are
 * caught before the row sees them, so that Space toggles the rule rather
 * than selecting it. */
static void
add_list_keys (GraftRulesPanel *self)
{
  static const struct
  {
    guint           key;
    GdkModifierType modifiers;
    const char     *action;
  } keys[] = {
    { GDK_KEY_Up, GDK_ALT_MASK, "win.rule-move-up" },
    { GDK_KEY_Down, GDK_ALT_MASK, "win.rule-move-down" },
    { GDK_KEY_Delete, 0, "win.rule-remove" },
    { GDK_KEY_KP_Delete, 0, "win.rule-remove" },
    { GDK_KEY_F2, 0, "win.rule-rename" },
    { GDK_KEY_space, 0, "win.rule-toggle" },
  };
  GtkEventController *controller = gtk_shortcut_controller_new ();

  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_shortcut_controller_add_shortcut (
        GTK_SHORTCUT_CONTROLLER (controller),
        gtk_shortcut_new (gtk_keyval_trigger_new (keys[i].key, keys[i].modifiers),
                          gtk_named_action_new (keys[i].action)));
  gtk_widget_add_controller (GTK_WIDGET (self->rule_list), controller);
}

static void
graft_rules_panel_dispose (GObject *object)
{
  GraftRulesPanel *self = GRAFT_RULES_PANEL (object);
  GtkWidget       *child;

  if (self->history_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->history_tick);
  self->history_tick = 0;
  gtk_widget_dispose_template (GTK_WIDGET (self), GRAFT_TYPE_RULES_PANEL);
  /* The boxes the template does not name go too. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->rule_selection);
  g_clear_object (&self->history_selection);
  g_clear_object (&self->history);
  G_OBJECT_CLASS (graft_rules_panel_parent_class)->dispose (object);
}

static void
graft_rules_panel_finalize (GObject *object)
{
  GraftRulesPanel *self = GRAFT_RULES_PANEL (object);

  g_clear_object (&self->document);
  G_OBJECT_CLASS (graft_rules_panel_parent_class)->finalize (object);
}

static void
graft_rules_panel_class_init (GraftRulesPanelClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = graft_rules_panel_dispose;
  object_class->finalize = graft_rules_panel_finalize;

  g_type_ensure (ADW_TYPE_ACTION_ROW);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PATH "/graft-rules-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, GraftRulesPanel, rule_list);
  gtk_widget_class_bind_template_child (widget_class, GraftRulesPanel, history_list);
  gtk_widget_class_bind_template_child (widget_class, GraftRulesPanel, fixpoint_check);
  gtk_widget_class_bind_template_child (widget_class, GraftRulesPanel, fixpoint_spin);
  gtk_widget_class_bind_template_child (widget_class, GraftRulesPanel, dce_check);
  gtk_widget_class_bind_template_child (widget_class, GraftRulesPanel, next_label);
  gtk_widget_class_bind_template_child (widget_class, GraftRulesPanel, run_button);
  gtk_widget_class_bind_template_child (widget_class, GraftRulesPanel, run_progress);
  gtk_widget_class_bind_template_child (widget_class, GraftRulesPanel, run_label);
  gtk_widget_class_bind_template_child (widget_class, GraftRulesPanel, cancel_button);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Escape, 0, escape_cb, NULL);
  gtk_widget_class_set_css_name (widget_class, "graftrulespanel");
}

static void
graft_rules_panel_init (GraftRulesPanel *self)
{
  g_autoptr (GtkListItemFactory) rules = gtk_signal_list_item_factory_new ();
  g_autoptr (GtkListItemFactory) history = gtk_signal_list_item_factory_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (rules, "setup", G_CALLBACK (rule_setup_cb), self);
  g_signal_connect (rules, "bind", G_CALLBACK (rule_bind_cb), self);
  g_signal_connect (rules, "unbind", G_CALLBACK (rule_unbind_cb), self);
  gtk_list_view_set_factory (self->rule_list, rules);
  add_list_keys (self);

  self->history = gtk_string_list_new (NULL);
  self->history_selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->history)));
  gtk_single_selection_set_autoselect (self->history_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->history_selection, FALSE);
  g_signal_connect (history, "setup", G_CALLBACK (history_setup_cb), self);
  g_signal_connect (history, "bind", G_CALLBACK (history_bind_cb), self);
  g_signal_connect (history, "unbind", G_CALLBACK (history_unbind_cb), self);
  gtk_list_view_set_factory (self->history_list, history);
  gtk_list_view_set_model (self->history_list, GTK_SELECTION_MODEL (self->history_selection));
  g_signal_connect (self->history_selection, "notify::selected", G_CALLBACK (history_selected_cb),
                    self);
  g_signal_connect_object (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->history_list)),
                           "changed", G_CALLBACK (history_adjustment_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_swapped (self->fixpoint_check, "notify::active",
                            G_CALLBACK (fixpoint_changed_cb), self);
  g_signal_connect_swapped (self->fixpoint_spin, "value-changed", G_CALLBACK (fixpoint_changed_cb),
                            self);
  g_signal_connect_swapped (self->dce_check, "notify::active", G_CALLBACK (dce_changed_cb), self);
  g_signal_connect_swapped (self->cancel_button, "clicked", G_CALLBACK (cancel_clicked_cb), self);
}
