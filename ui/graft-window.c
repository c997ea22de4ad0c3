/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-window.c: an editor window.  The canvas on the left shows the
 * document's graph with every match highlighted; the side panel holds the
 * pattern and replacement editors (each with a preview of its graph) and
 * the list of matches.  The window keeps them in step with the document:
 * edits in the editors are traced (debounced) and matched again, the graph
 * is laid out again after each change (by a GraftLayoutRunner, which also
 * keeps the folding; the view stays where the user was looking), and match
 * marks follow the matches.  The window shows the runner's progress and
 * errors, offers autosaved work for restoring, and autosaves.  The search
 * is a GraftSearch, the Code tab a GraftCodeSync; the win.* actions are
 * in graft-window-actions.c.
 *
 * With a rule set, the Rules page (a GraftRulesPanel) lists the rules and
 * the editors edit the chosen one.  Each rule has buffers of its own
 * (created when first shown, kept on the rule), so its text keeps its own
 * undo history when another rule is chosen; a buffer not shown that
 * changes (a toast's Undo, a rename undone) goes to the document at once.
 */
#include "config.h"

#include "graft-window-private.h"
#include "graft-document-private.h"
#include "graft-turns.h"
#include "graft-autosave.h"
#include "graft-match-item.h"
#include "graft-session.h"
#include "graft-toplevel.h"

#include <gtksourceview/gtksource.h>
#include <string.h>

G_DEFINE_FINAL_TYPE (GraftWindow, graft_window, ADW_TYPE_APPLICATION_WINDOW)

static void fill_editors (GraftWindow *self);

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS,
};

static GParamSpec *properties[N_PROPS];

/**
 * graft_window_new:
 * @application: the application
 *
 * Returns: (transfer full): a window showing nothing yet
 */
GraftWindow *
graft_window_new (GraftApplication *application)
{
  return g_object_new (GRAFT_TYPE_WINDOW, "application", application, NULL);
}

GraftDocument *
graft_window_get_document (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), NULL);
  return self->document;
}

GraftCanvas *
graft_window_get_canvas (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), NULL);
  return self->canvas;
}

GraftOverview *
graft_window_get_overview (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), NULL);
  return GRAFT_OVERVIEW (self->overview);
}

/**
 * graft_window_get_pattern_editor:
 * @self: a window
 * @replacement: the replacement's editor rather than the pattern's
 *
 * Returns: (transfer none): the editor
 */
GtkWidget *
graft_window_get_pattern_editor (GraftWindow *self,
                                 gboolean     replacement)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), NULL);
  return GTK_WIDGET (replacement ? self->replacement_editor : self->pattern_editor);
}

/**
 * graft_window_get_notice:
 * @self: a window
 *
 * Returns: (nullable): the text of the bar under the header (rewrite
 *   warnings, "why not here?"), or %NULL when it is hidden
 */
const char *
graft_window_get_notice (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), NULL);
  return gtk_revealer_get_reveal_child (self->warning_revealer)
             ? gtk_label_get_text (self->warning_label)
             : NULL;
}

/**
 * graft_window_get_busy:
 * @self: a window
 *
 * Returns: whether a layout is being computed
 */
gboolean
graft_window_get_busy (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), FALSE);
  return self->busy;
}

/**
 * graft_window_get_pending:
 * @self: a window
 *
 * Returns: whether work the last change left to the turns to come
 *   (a Replace All or an undo, a redo or a move in the history under
 *   way, finding the matches again, then the counts
 *   and the next step) has not run yet: the graph, the match list, the
 *   counts and the actions that depend on them show what they showed
 *   before until then
 */
gboolean
graft_window_get_pending (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), FALSE);
  return graft_document_get_rewriting (self->document) ||
         graft_document_get_switching (self->document) || self->marks_job != 0 ||
         graft_document_get_running_all (self->document) ||
         graft_document_get_moving (self->document) ||
         graft_document_get_matches_pending (self->document);
}

/**
 * graft_window_is_empty:
 * @self: a window
 *
 * Returns: whether the window shows no file and has no changes, so that
 *   opening a file may reuse it
 */
gboolean
graft_window_is_empty (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), FALSE);
  return !self->loading && graft_document_get_file (self->document) == NULL &&
         graft_graph_get_n_nodes (graft_document_get_graph (self->document)) == 0;
}

static void
set_busy (GraftWindow *self,
          gboolean     busy)
{
  if (self->busy == busy)
    return;
  self->busy = busy;
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* The offers @toast made (an undo of a change, or the GraftTextUndo's)
 * end with the message they came with. */
static void
end_offers (GraftWindow *self,
            AdwToast    *toast)
{
  if (self->undo_toast == toast)
    self->undo_toast = NULL;
  graft_text_undo_toast_dismissed (self->text_undo, toast);
}

/* A dismissed toast is gone, and what it offered with it. */
static void
toast_dismissed_cb (AdwToast    *toast,
                    GraftWindow *self)
{
  if (self->toast == toast)
    self->toast = NULL;
  end_offers (self, toast);
}

static AdwToast *show_toast (GraftWindow *self,
                             const char  *title,
                             guint        timeout,
                             const char  *undo_action,
                             GVariant    *target);

/* The toast's button dismisses its toast once the button's action has
 * run (from an idle: AdwToastWidget's action_clicked_cb()).  A message
 * that the action showed in it (an undo's "Undone: ...") goes in a toast
 * of its own, which comes when this one has gone. */
static void
toast_button_clicked_cb (AdwToast    *toast,
                         GraftWindow *self)
{
  if (self->toast != toast)
    return;
  self->toast = NULL;
  end_offers (self, toast);
  if (!self->toast_offers)
    {
      g_autofree char *title = g_strdup (g_object_get_data (G_OBJECT (toast), "graft-title"));

      show_toast (self, title, adw_toast_get_timeout (toast), NULL, NULL);
    }
}

/* What the toast says once an undo has given the editors back the texts
 * a command replaced. */
#define TEXTS_BACK "Pattern and replacement back as they were"

/* How long a toast stays, in seconds (0: until it is dismissed). */
static guint toast_seconds = 4;

/**
 * _graft_window_set_toast_seconds:
 * @seconds: how long toasts stay from now on, 0 for until dismissed
 *
 * For tests, which check a toast after work whose time depends on the
 * machine's load: a toast that timed out meanwhile would fail them.
 */
void
_graft_window_set_toast_seconds (guint seconds)
{
  toast_seconds = seconds;
}

/* Centres the toasts on screen over the canvas's column rather than the
 * window: beside the canvas, the side panel's lists (the History's last
 * rows at 1400x900) stay uncovered.  libadwaita 1.2 centres a toast in
 * the overlay with its margins (as style.css's margin-bottom lifts it
 * over the zoom controls), so margins as wide as what lies beside the
 * column move it over the column.  Folded, the panel slides over the
 * whole width and the column is all of it: no margin. */
static void
place_toasts (GraftWindow *self)
{
  GtkWidget      *overlay = GTK_WIDGET (self->toasts);
  graphene_rect_t column;
  int             start = 0;
  int             end = 0;

  if (gtk_widget_compute_bounds (adw_flap_get_content (self->side_flap), overlay, &column))
    {
      start = MAX (0, (int) column.origin.x);
      end = MAX (0, gtk_widget_get_width (overlay) - (int) (column.origin.x + column.size.width));
    }
  for (GtkWidget *child = gtk_widget_get_first_child (overlay); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (gtk_widget_get_css_name (child), "toast") == 0 &&
        (gtk_widget_get_margin_start (child) != start || gtk_widget_get_margin_end (child) != end))
      {
        gtk_widget_set_margin_start (child, start);
        gtk_widget_set_margin_end (child, end);
      }
}

/* Puts @title in @toast as a label of Graft's own that wraps.  libadwaita
 * 1.2's own title label ends in an ellipsis where the toast is too narrow,
 * and a toast is at most as wide as the canvas's column (place_toasts()):
 * at 1120x700 an export's "Exported exp1.pdf as its name says (PDF
 * Document), not as the chosen PNG Image" lost its second half.  The text
 * is kept on the toast for toast_button_clicked_cb(), as a custom title
 * clears the toast's own. */
static void
set_toast_title (AdwToast   *toast,
                 const char *title)
{
  GtkWidget *label = adw_toast_get_custom_title (toast);

  if (label == NULL)
    {
      label = gtk_label_new (NULL);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 50);
      gtk_label_set_natural_wrap_mode (GTK_LABEL (label), GTK_NATURAL_WRAP_NONE);
      gtk_widget_add_css_class (label, "heading");
      adw_toast_set_custom_title (toast, label);
    }
  gtk_label_set_text (GTK_LABEL (label), title);
  g_object_set_data_full (G_OBJECT (toast), "graft-title", g_strdup (title), g_free);
}

/* After each layout while a toast is up: the side panel shown, hidden or
 * given another width, the toast follows the canvas's column (margins
 * that change after a layout are laid out at the next frame; margins as
 * they were are not set again, which would ask for another layout). */
static void
toasts_layout_cb (GdkFrameClock *clock,
                  GraftWindow   *self)
{
  if (self->toast != NULL && !gtk_widget_in_destruction (GTK_WIDGET (self)))
    place_toasts (self);
}

static void
follow_toasts (GraftWindow *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  if (clock == NULL || clock == self->toast_clock)
    return;
  if (self->toast_clock != NULL)
    g_signal_handlers_disconnect_by_func (self->toast_clock, toasts_layout_cb, self);
  g_signal_connect_object (clock, "layout", G_CALLBACK (toasts_layout_cb), self, G_CONNECT_AFTER);
  g_set_weak_pointer (&self->toast_clock, clock);
}

/* Shows a toast of @title for @timeout seconds; with @undo_action (and
 * its @target, nullable), an Undo button that activates it.
 *
 * Every message goes in the toast on screen, changed in place, and Graft
 * never dismisses a toast (a stale Undo is withdrawn, the message stays):
 * toasts go at their timeout or when the user closes them.  This works
 * around a use after free in libadwaita 1.2.2 (Debian 12's), whose
 * adw-toast-overlay.c frees a toast's ToastInfo when its hide animation
 * ends (hide_done_cb() calls free_toast_info()) and drops its show
 * animation there without disconnecting that animation's "done" handler.
 * A playing AdwAnimation holds a reference to itself (play() in
 * adw-animation.c), so a show animation still playing goes on, and when
 * it ends, on its last frame or when the window unmaps (the "unmap"
 * handler, adw_animation_skip()), show_done_cb() unrefs through the freed
 * ToastInfo.  A toast's show animation outlasts its hide animation when
 * the toast is dismissed less than 0.2 s after it came in place of
 * another (REPLACE_DURATION 500 ms, HIDE_DURATION 300 ms), or in the
 * frame it came: which is what dismissing the last undo toast and adding
 * a new one did for a change made right after another.  (Newer
 * libadwaita disconnects the handler in free_toast_info().) */
static AdwToast *
show_toast (GraftWindow *self,
            const char  *title,
            guint        timeout,
            const char  *undo_action,
            GVariant    *target)
{
  g_autoptr (GVariant) owned_target = target != NULL ? g_variant_ref_sink (target) : NULL;
  g_autoptr (AdwToast) created = NULL;
  AdwToast *toast = self->toast;

  g_free (self->last_toast);
  self->last_toast = g_strdup (title);
  if (toast == NULL)
    {
      toast = created = adw_toast_new ("");
      g_signal_connect_object (toast, "dismissed", G_CALLBACK (toast_dismissed_cb), self, 0);
      g_signal_connect_object (toast, "button-clicked", G_CALLBACK (toast_button_clicked_cb), self,
                               0);
      self->toast = toast;
    }
  else
    end_offers (self, toast);
  set_toast_title (toast, title);
  adw_toast_set_timeout (toast, timeout);
  adw_toast_set_button_label (toast, undo_action != NULL ? "_Undo" : NULL);
  /* The button takes each as it changes: no action while the target
   * changes, so that it never has an action and the wrong target. */
  adw_toast_set_action_name (toast, NULL);
  adw_toast_set_action_target_value (toast, owned_target);
  adw_toast_set_action_name (toast, undo_action);
  self->toast_offers = undo_action != NULL;
  /* Shows it, or starts its timeout again. */
  adw_toast_overlay_add_toast (self->toasts, g_object_ref (toast));
  place_toasts (self);
  follow_toasts (self);
  return toast;
}

/* The toast that offers to undo a change no longer does once that change
 * is no longer the last one applied (undone, or followed by another). */
static void
check_undo_toast (GraftWindow *self)
{
  if (self->undo_toast == NULL ||
      graft_document_get_last_change_serial (self->document) == self->undo_toast_serial)
    return;
  adw_toast_set_button_label (self->undo_toast, NULL);
  adw_toast_set_action_name (self->undo_toast, NULL);
  adw_toast_set_action_target_value (self->undo_toast, NULL);
  self->undo_toast = NULL;
}

/**
 * _graft_window_toast:
 * @self: a window
 * @title: what happened
 * @with_undo: offer to undo it: the document's last change
 *
 * The Undo button undoes exactly that change (win.undo-change with its
 * serial), and goes once the change is no longer the last one.
 */
void
_graft_window_toast (GraftWindow *self,
                     const char  *title,
                     gboolean     with_undo)
{
  if (!with_undo)
    {
      show_toast (self, title, toast_seconds, NULL, NULL);
      return;
    }
  self->undo_toast_serial = graft_document_get_last_change_serial (self->document);
  self->undo_toast = show_toast (self, title, toast_seconds, "win.undo-change",
                                 g_variant_new_uint32 (self->undo_toast_serial));
}

/**
 * graft_window_get_last_toast:
 * @self: a window
 *
 * Returns: (nullable): the title of the toast shown last, or %NULL
 */
const char *
graft_window_get_last_toast (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), NULL);
  return self->last_toast;
}

/**
 * graft_window_get_undo_toast:
 * @self: a window
 *
 * Returns: (transfer none) (nullable): the toast that offers to undo the
 *   last change, while it is shown
 */
AdwToast *
graft_window_get_undo_toast (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), NULL);
  return self->undo_toast;
}

static void
update_title (GraftWindow *self)
{
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  GraftGraph      *graph = graft_document_get_graph (self->document);
  GFile           *file = graft_document_get_file (self->document);
  guint            n = graft_document_get_n_matches_shown (self->document);
  const char      *torch = graft_document_get_dialect (self->document)->name;

  title = g_strdup_printf ("%s%s", graft_document_get_modified (self->document) ? "• " : "",
                           graft_document_get_title (self->document));
  adw_window_title_set_title (self->window_title, file != NULL ? title : "Graft");
  /* The torch the window speaks, always in sight. */
  if (file != NULL && graft_document_get_load_error (self->document) == NULL)
    subtitle = g_strdup_printf ("torch %s · %u nodes · %u match%s", torch,
                                graft_graph_get_n_nodes (graph), n, n == 1 ? "" : "es");
  else
    subtitle = g_strdup_printf ("torch %s", torch);
  adw_window_title_set_subtitle (self->window_title, subtitle);
  gtk_window_set_title (GTK_WINDOW (self), file != NULL ? title : "Graft");
}

static void
update_match_count (GraftWindow *self)
{
  guint            n = graft_document_get_n_matches_shown (self->document);
  g_autofree char *text = NULL;
  const char      *tooltip;

  if (graft_document_get_pattern_error (self->document) != NULL)
    text = g_strdup ("Pattern Has Errors");
  else if (_graft_window_get_fit_error (self) != NULL)
    text = g_strdup ("Replacement Does Not Fit");
  else if (n == 0)
    text = g_strdup ("No Matches");
  else
    text = g_strdup_printf ("%u Match%s", n, n == 1 ? "" : "es");
  gtk_label_set_text (self->match_count, text);
  tooltip = _graft_window_get_fit_error (self) != NULL ? _graft_window_get_fit_error (self)->message
                                                       : NULL;
  /* Only if it changes: GTK 4.8 asks the X server where the pointer is on
   * every call (a round trip). */
  if (g_strcmp0 (gtk_widget_get_tooltip_text (GTK_WIDGET (self->match_count)), tooltip) != 0)
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->match_count), tooltip);
}

/* Match marks for the layout on screen, from the current matches, and
 * the nodes the last rewrite added (marked until the next change). */
/* Puts @marks (taken), the match marks of the layout on screen, and the
 * dropped and added nodes' on the canvas. */
static void
show_marks (GraftWindow *self,
            gint        *marks)
{
  GraftLayout     *layout = graft_canvas_get_layout (self->canvas);
  GPtrArray       *added_names = graft_document_get_added_names (self->document);
  g_autofree gint *at = NULL;
  guint8          *added;

  graft_canvas_set_marks (self->canvas, marks);
  graft_canvas_set_dropped (self->canvas,
                            graft_document_get_n_dropped (self->document) > 0
                                ? graft_document_dup_layout_dropped (self->document, layout)
                                : NULL);
  if (added_names->len == 0)
    {
      graft_canvas_set_added (self->canvas, NULL);
      return;
    }
  /* The added nodes looked up in the layout, not every node of it among
   * them; together (a Replace All at a million nodes adds 105,472). */
  added = graft_render_bits_new (graft_layout_get_n_graph_nodes (layout));
  at = g_new (gint, added_names->len);
  graft_layout_find_graph_nodes (layout, (const char *const *) added_names->pdata, added_names->len,
                                 at);
  for (guint k = 0; k < added_names->len; k++)
    if (at[k] >= 0)
      graft_render_bits_set (added, (guint) at[k]);
  graft_canvas_set_added (self->canvas, added);
}

/* Matched names the marks look up between looks at the clock, and how
 * long they do in a turn (as the layout runner makes a new layout's). */
#define MARKS_STEP_NAMES 1024
#define MARKS_TURN_USEC  4000

/* For tests: when not 0, each turn looks this many up, whatever the clock
 * says. */
static guint marks_step_names;

/**
 * _graft_window_set_marks_step:
 * @n_names: matched names a turn, or 0 for the clock's measure
 *
 * For tests: the marks made again after the matches changed by steps of
 * @n_names a turn.
 */
void
_graft_window_set_marks_step (guint n_names)
{
  marks_step_names = n_names;
}

static void
drop_marks (GraftWindow *self)
{
  graft_turns_remove (self->marks_job);
  self->marks_job = 0;
  g_clear_pointer (&self->marks, _graft_document_layout_marks_free);
}

/* Goes on making the marks begun for about MARKS_TURN_USEC (at least one
 * step); shows them once made.  Returns whether they are. */
static gboolean
make_marks (GraftWindow *self)
{
  gint64 start = g_get_monotonic_time ();
  guint  n = marks_step_names > 0 ? marks_step_names : MARKS_STEP_NAMES;

  while (!_graft_document_layout_marks_step (self->marks, n))
    if (marks_step_names > 0 || g_get_monotonic_time () - start >= MARKS_TURN_USEC ||
        _graft_document_layout_marks_get_waiting (self->marks))
      return FALSE;
  show_marks (self, _graft_document_layout_marks_finish (g_steal_pointer (&self->marks)));
  return TRUE;
}

static gboolean
marks_step_cb (gpointer user_data)
{
  GraftWindow *self = user_data;
  GraftLayout *layout = graft_canvas_get_layout (self->canvas);
  guint        id = self->marks_job;

  /* Finding the matches may say they changed (matches_changed_cb()),
   * which begins the marks again in a job of its own, this one removed:
   * then that job makes them. */
  if (self->marks == NULL && layout != NULL)
    {
      GraftLayoutMarks *marks = _graft_document_layout_marks_new (self->document, layout);

      if (self->marks_job != id)
        {
          _graft_document_layout_marks_free (marks);
          return G_SOURCE_REMOVE;
        }
      self->marks = marks;
    }
  if (self->marks != NULL && !make_marks (self))
    return G_SOURCE_CONTINUE;
  if (self->marks_job == id)
    self->marks_job = 0;
  return G_SOURCE_REMOVE;
}

/* The marks of a layout just shown: the runner's, made with it. */
static void
update_marks (GraftWindow *self)
{
  GraftLayout *layout = graft_canvas_get_layout (self->canvas);
  gint        *marks;

  drop_marks (self);
  if (layout == NULL)
    return;
  marks = graft_layout_runner_steal_marks (self->layout_runner, layout);
  if (marks == NULL)
    marks = graft_document_dup_layout_marks (self->document, layout);
  show_marks (self, marks);
}

/* The marks of the layout on screen after its matches changed, made by
 * steps: a pattern edited at a million nodes looked its 105,472 matched
 * names up at once, 12-18 ms.  The canvas shows the marks it has until
 * they are made.  They begin in a turn of their own, not in the one that
 * changed the matches, where the match list remakes its rows (a rule of
 * 105,472 matches chosen: 10 ms of rows and 4.5 ms of marks' first step,
 * a turn of 14.5-18.5 ms). */
static void
update_marks_in_turns (GraftWindow *self)
{
  drop_marks (self);
  if (graft_canvas_get_layout (self->canvas) == NULL)
    return;
  self->marks_job = graft_turns_add (marks_step_cb, self, NULL);
}

/* The folded module whose box is selected whole, or NULL. */
static const char *
selected_folder (GraftWindow       *self,
                 const char *const *names)
{
  GraftLayout           *layout = graft_canvas_get_layout (self->canvas);
  const GraftLayoutNode *box;
  gint                   b;

  if (layout == NULL || names[0] == NULL || (b = graft_layout_find_node (layout, names[0])) < 0)
    return NULL;
  box = graft_layout_get_node (layout, (guint) b);
  if (box->n_members == 0 || box->n_members != g_strv_length ((char **) names))
    return NULL;
  for (guint i = 1; names[i] != NULL; i++)
    if (graft_layout_find_node (layout, names[i]) != b)
      return NULL;
  return box->name;
}

/* The properties panel follows the selection and the graph, while shown.
 * It does not make the scopes: after a change of the graph the layout
 * makes them over several turns, and its end shows the panel again. */
static void
update_properties (GraftWindow *self)
{
  g_auto (GStrv) names = NULL;

  if (!adw_flap_get_reveal_flap (self->properties_flap))
    return;
  names = graft_canvas_dup_selection (self->canvas);
  /* Where two nodes share a name, the nodes whose boxes are selected, not
   * every node of a selected name (but a folded module's). */
  if (graft_graph_has_shared_names (graft_document_get_graph (self->document)) &&
      selected_folder (self, (const char *const *) names) == NULL)
    {
      g_autoptr (GPtrArray) nodes = g_ptr_array_new ();

      _graft_window_get_selected_nodes (self, nodes);
      graft_properties_show_graph_nodes (self->properties,
                                         graft_document_get_graph (self->document), nodes);
      return;
    }
  graft_properties_show (self->properties, graft_document_get_graph (self->document),
                         graft_layout_runner_peek_scopes (self->layout_runner),
                         (const char *const *) names,
                         selected_folder (self, (const char *const *) names));
}

/* Whether the properties panel is on screen when @show asks for it: not
 * over a page that is not the graph (a file that cannot be read, no
 * file) on a window too narrow for both, where it hid the page's message
 * (a program after a switch to torch 1.13, at 1120x700).  The panel
 * comes back with the graph; the choice (win.show-properties, GSettings)
 * is kept meanwhile. */
static gboolean
properties_fit (GraftWindow *self,
                gboolean     show)
{
  return show &&
         (!adw_flap_get_folded (self->properties_flap) ||
          g_strcmp0 (gtk_stack_get_visible_child_name (self->content_stack), "graph") == 0);
}

static void
properties_place_cb (GObject     *object,
                     GParamSpec  *pspec,
                     GraftWindow *self)
{
  g_autoptr (GVariant) state = NULL;
  gboolean reveal;

  if (gtk_widget_in_destruction (GTK_WIDGET (self)) || self->properties_flap == NULL ||
      self->content_stack == NULL)
    return;
  state = g_action_group_get_action_state (G_ACTION_GROUP (self), "show-properties");
  reveal = state != NULL && properties_fit (self, g_variant_get_boolean (state));
  if (adw_flap_get_reveal_flap (self->properties_flap) == reveal)
    return;
  adw_flap_set_reveal_flap (self->properties_flap, reveal);
  update_properties (self);
}

/* The properties panel, once slid in over a narrow canvas, leaves the
 * focused node beside it: a node it covers (Return on it shows the panel)
 * is brought to the middle of the part of the canvas left uncovered. */
static void
properties_progress_cb (AdwFlap     *flap,
                        GParamSpec  *pspec,
                        GraftWindow *self)
{
  GraftLayout     *layout;
  const char      *name;
  graphene_rect_t  panel;
  GraftRect        view;
  const GraftRect *r;
  gint             box;
  double           right;
  double           top;
  double           zoom;

  if (gtk_widget_in_destruction (GTK_WIDGET (self)) || self->canvas == NULL ||
      self->properties == NULL)
    return;
  layout = graft_canvas_get_layout (self->canvas);
  name = graft_canvas_get_focus_node (self->canvas);
  zoom = graft_canvas_get_zoom (self->canvas);
  if (adw_flap_get_reveal_progress (flap) < 1.0 || !adw_flap_get_reveal_flap (flap) ||
      !adw_flap_get_folded (flap) || layout == NULL || name == NULL || zoom <= 0 ||
      !gtk_widget_compute_bounds (GTK_WIDGET (self->properties), GTK_WIDGET (self->canvas),
                                  &panel))
    return;
  box = graft_layout_find_node (layout, name);
  if (box < 0 || panel.origin.x <= 0)
    return;
  r = &graft_layout_get_node (layout, (guint) box)->box;
  graft_canvas_layout_to_widget (self->canvas, r->x + r->width, r->y, &right, &top);
  if (right <= panel.origin.x)
    return;
  graft_canvas_get_visible_area (self->canvas, &view);
  graft_canvas_set_center (self->canvas,
                           r->x + r->width / 2 +
                               (gtk_widget_get_width (GTK_WIDGET (self->canvas)) / 2.0 -
                                panel.origin.x / 2.0) /
                                   zoom,
                           view.y + view.height / 2);
}

/* The panel was mapped after it was asked for the focus: it takes it now,
 * once. */
static void
properties_mapped_cb (GtkWidget   *panel,
                      GraftWindow *self)
{
  g_signal_handlers_disconnect_by_func (panel, properties_mapped_cb, self);
  if (adw_flap_get_reveal_flap (self->properties_flap))
    graft_properties_focus_first (self->properties);
}

/**
 * _graft_window_show_properties:
 * @self: a window
 * @show: show the properties panel, or hide it
 * @move_focus: move the focus into the panel when shown, back to the
 *   canvas when hidden from inside
 *
 * Shows or hides the panel and remembers it (GSettings `properties-visible`).
 */
void
_graft_window_show_properties (GraftWindow *self,
                               gboolean     show,
                               gboolean     move_focus)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  gboolean   inside =
      focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->properties));

  /* The flap makes room for the panel, or lays it over the canvas when
   * the window is too narrow for both (graft-window-adaptive.c). */
  adw_flap_set_reveal_flap (self->properties_flap, properties_fit (self, show));
  g_simple_action_set_state (
      G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "show-properties")),
      g_variant_new_boolean (show));
  if (self->settings != NULL &&
      g_settings_get_boolean (self->settings, "properties-visible") != show)
    g_settings_set_boolean (self->settings, "properties-visible", show);
  update_properties (self);
  /* The panel takes the focus once it is mapped: the flap maps it when
   * its transition starts, on a later frame, which on a busy machine comes
   * after any idle. */
  g_signal_handlers_disconnect_by_func (self->properties, properties_mapped_cb, self);
  if (show && move_focus && !graft_properties_focus_first (self->properties) &&
      !gtk_widget_get_mapped (GTK_WIDGET (self->properties)))
    g_signal_connect_object (self->properties, "map", G_CALLBACK (properties_mapped_cb), self,
                             G_CONNECT_AFTER);
  else if (!show && inside)
    gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
}

/**
 * graft_window_get_properties:
 * @self: a window
 *
 * Returns: (transfer none): the properties panel, shown or not
 */
GraftProperties *
graft_window_get_properties (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), NULL);
  return self->properties;
}

/**
 * graft_window_get_rules_panel:
 * @self: a window
 *
 * Returns: (transfer none): the Rules page
 */
GraftRulesPanel *
graft_window_get_rules_panel (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), NULL);
  return self->rules_panel;
}

/**
 * graft_window_get_properties_shown:
 * @self: a window
 *
 * Returns: whether the properties panel is shown
 */
gboolean
graft_window_get_properties_shown (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), FALSE);
  return adw_flap_get_reveal_flap (self->properties_flap);
}

/* The properties panel's name of a node: the code's. */
static const char *
properties_name_cb (GraftNode *node,
                    gpointer   user_data)
{
  GraftWindow *self = user_data;

  return graft_document_get_code_name (self->document, node);
}

/* A link in the panel: its node is selected and brought into view; of
 * two nodes of one name, the one of the link's rank (by its name, both
 * were selected). */
static void
properties_node_activated_cb (GraftProperties *panel,
                              const char      *name,
                              guint            rank,
                              GraftWindow     *self)
{
  GraftGraph *graph = graft_document_get_graph (self->document);

  if (G_UNLIKELY (graft_graph_has_shared_names (graph)))
    {
      guint i = 0;

      for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
           node = graft_node_get_next (node), i++)
        if (strcmp (graft_node_get_name (node), name) == 0 && rank-- == 0)
          {
            graft_canvas_select_graph_node (self->canvas, i);
            return;
          }
    }
  graft_canvas_select (self->canvas, name, FALSE);
  graft_canvas_center_on (self->canvas, name);
}

static void
layout_progress_cb (GraftLayoutRunner *runner,
                    guint              done,
                    guint              total,
                    GraftWindow       *self)
{
  g_autofree char *text = NULL;

  text = g_strdup_printf ("Laying out: part %u of %u", MIN (done + 1, total), total);
  gtk_progress_bar_set_fraction (self->layout_progress, (double) done / total);
  gtk_progress_bar_set_text (self->layout_progress, text);
  gtk_widget_set_visible (GTK_WIDGET (self->layout_progress), TRUE);
}

/* A layout refused or failed, in a toast. */
static void
show_layout_error (GraftWindow  *self,
                   const GError *error)
{
  g_autofree char *text = g_strdup_printf ("The graph cannot be drawn: %s", error->message);

  _graft_window_toast (self, text, FALSE);
}

static void show_match (GraftWindow    *self,
                        GraftMatchItem *item);

static void
layout_done_cb (GraftLayoutRunner *runner,
                const GError      *error,
                GraftWindow       *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->layout_progress), FALSE);
  /* A layout asked for meanwhile has not started yet. */
  set_busy (self, graft_layout_runner_get_pending (runner));
  if (error == NULL)
    {
      update_marks (self);
      /* A folded box may have opened or closed. */
      update_properties (self);
      if (self->show_match_due && !self->busy)
        {
          GraftMatchItem *item = gtk_single_selection_get_selected_item (self->match_selection);

          self->show_match_due = FALSE;
          if (item != NULL)
            show_match (self, item);
        }
    }
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_layout_error (self, error);
}

/**
 * _graft_window_set_folding:
 * @self: a window
 * @overview: fold the graph into an overview; %FALSE expands everything
 *
 * Chooses what is collapsed and lays the graph out again.
 */
void
_graft_window_set_folding (GraftWindow *self,
                           gboolean     overview)
{
  GraftGraph *graph = graft_document_get_graph (self->document);
  g_autoptr (GError) error = NULL;

  /* Everything expanded is the whole graph: one over the drawing limit is
   * refused at once, as the layout would refuse it, rather than after its
   * request was made (0.5-2 s of turns at a million nodes).  The folding
   * and the picture stay as they were. */
  if (!overview && graph != NULL &&
      !graft_layout_check_n_nodes (graft_graph_get_n_nodes (graph), &error))
    {
      show_layout_error (self, error);
      return;
    }
  graft_layout_runner_reset_folding (self->layout_runner, overview);
  _graft_window_relayout (self, FALSE);
}

/**
 * _graft_window_expand_level:
 * @self: a window
 *
 * Opens every folded module one level and lays the graph out again,
 * keeping the view.
 */
void
_graft_window_expand_level (GraftWindow *self)
{
  if (graft_layout_runner_expand_level (self->layout_runner))
    _graft_window_relayout (self, TRUE);
}

/**
 * _graft_window_expand_scope:
 * @self: a window
 * @scope: a collapsed scope
 *
 * Opens @scope one level and lays the graph out again, keeping the view.
 */
void
_graft_window_expand_scope (GraftWindow *self,
                            const char  *scope)
{
  if (graft_layout_runner_expand (self->layout_runner, scope))
    _graft_window_relayout (self, TRUE);
}

/**
 * _graft_window_collapse_scope:
 * @self: a window
 * @scope: a scope of the graph
 *
 * Folds @scope into one box and lays the graph out again, keeping the view.
 */
void
_graft_window_collapse_scope (GraftWindow *self,
                              const char  *scope)
{
  graft_layout_runner_collapse (self->layout_runner, scope);
  _graft_window_relayout (self, TRUE);
}

/**
 * _graft_window_relayout:
 * @self: a window
 * @keep_view: keep looking at the same place rather than fitting the graph
 *
 * Lays the document's graph out on a worker thread, starting from the
 * main loop's next turn; supersedes any layout still running.
 */
void
_graft_window_relayout (GraftWindow *self,
                        gboolean     keep_view)
{
  set_busy (self, TRUE);
  graft_layout_runner_queue (self->layout_runner, keep_view);
}

/**
 * _graft_window_relayout_or_clear:
 * @self: a window
 *
 * After the graph was replaced (a switch of torch, or its undo): lays it
 * out again keeping the view, or, when it could not be read, clears the
 * canvas under the error page.
 */
void
_graft_window_relayout_or_clear (GraftWindow *self)
{
  if (graft_document_get_load_error (self->document) == NULL)
    {
      _graft_window_relayout (self, TRUE);
      return;
    }
  set_busy (self, graft_layout_runner_get_pending (self->layout_runner));
  graft_canvas_set_layout (self->canvas, NULL, FALSE);
}

/**
 * _graft_window_show_warnings:
 * @self: a window
 *
 * Shows what the last rewrite warned about, if anything.
 */
void
_graft_window_show_warnings (GraftWindow *self)
{
  GPtrArray *warnings = graft_document_get_warnings (self->document);
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; i < warnings->len; i++)
    {
      if (i > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, warnings->pdata[i]);
    }
  gtk_label_set_text (self->warning_label, text->str);
  gtk_revealer_set_reveal_child (self->warning_revealer, warnings->len > 0);
}

/* A graph opened: the canvas takes the keyboard focus, so the keyboard
 * goes on from the graph, unless the user is typing in a text. */
static void
focus_canvas_unless_typing (GraftWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  if (focus == NULL || !(GTK_IS_TEXT_VIEW (focus) || GTK_IS_EDITABLE (focus)))
    gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
}

static void
show_content (GraftWindow *self)
{
  const GError *error = graft_document_get_load_error (self->document);

  if (error != NULL)
    {
      g_autofree char *message = graft_error_format (error, NULL);
      /* What to do: a program wants the other torch (the file is fine);
       * else the file is read again once it changes
       * (graft-window-watch.c), so fixing it elsewhere is enough. */
      const char      *hint = strstr (error->message, GRAFT_PROGRAM_NEEDS_TORCH_2_6) != NULL
                                  ? "Switch to torch 2.6 in the main menu (F10, then 2) to read it."
                                  : "The window reads the file again when it changes on disk.";
      g_autofree char *text = g_markup_printf_escaped ("%s\n\n%s", message, hint);

      adw_status_page_set_description (self->error_page, text);
      gtk_stack_set_visible_child_name (self->content_stack, "error");
      gtk_widget_set_visible (self->zoom_box, FALSE);
      return;
    }
  if (graft_document_get_file (self->document) == NULL &&
      graft_graph_get_n_nodes (graft_document_get_graph (self->document)) == 0)
    {
      gtk_stack_set_visible_child_name (self->content_stack, "empty");
      gtk_widget_set_visible (self->zoom_box, FALSE);
      return;
    }
  gtk_stack_set_visible_child_name (self->content_stack, "graph");
  gtk_widget_set_visible (self->zoom_box, TRUE);
}

/**
 * graft_window_get_code_buffer:
 * @self: a window
 *
 * Returns: (transfer none): the buffer of the code view
 */
GtkTextBuffer *
graft_window_get_code_buffer (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), NULL);
  return gtk_text_view_get_buffer (self->code_view);
}

/**
 * graft_window_show_page:
 * @self: a window
 * @page: `pattern`, `replacement` or `code`
 *
 * Shows that page of the side panel.
 */
void
graft_window_show_page (GraftWindow *self,
                        const char  *page)
{
  g_return_if_fail (GRAFT_IS_WINDOW (self));
  gtk_stack_set_visible_child_name (self->editor_stack, page);
}

static void
graph_changed_cb (GraftDocument *document,
                  GraftWindow   *self)
{
  check_undo_toast (self);
  graft_code_sync_refresh (self->code_sync);
  update_properties (self);
  show_content (self);
  update_title (self);
  _graft_window_update_actions (self);
}

/* The matches after a Replace are known: the one that took the replaced
 * one's place in the list (the next, or the last if it was the last) is
 * chosen and shown, as a text editor's Replace goes on to the next
 * occurrence, so that Shift+Ctrl+R again replaces it.  Only if they are
 * the matches of the graph the Replace made and of its pattern: found by
 * steps, they may be another's by the time they come (a pattern typed,
 * a file opened, another change meanwhile), where the number means
 * nothing. */
static void
choose_after_replace (GraftWindow *self)
{
  guint            n = graft_document_get_n_matches_shown (self->document);
  guint            at = (guint) self->choose_after;
  g_autofree char *anchor = g_steal_pointer (&self->choose_anchor);
  gboolean         same = self->choose_revision == graft_document_get_revision (self->document) &&
                  self->choose_pattern == graft_document_get_pattern (self->document);

  self->choose_after = -1;
  g_clear_pointer (&self->choose_pattern, graft_pattern_unref);
  if (!same || n == 0)
    return;
  if (anchor == NULL)
    {
      graft_window_select_match (self, MIN (at, n - 1));
      return;
    }
  /* The match the user chose meanwhile, where it is now (its row, by the
   * node it returns at, moved or was made anew). */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GraftMatchItem) item =
          g_list_model_get_item (G_LIST_MODEL (self->match_selection), i);

      if (item != NULL && g_strcmp0 (graft_match_item_get_anchor (item), anchor) == 0)
        {
          graft_window_select_match (self, i);
          return;
        }
    }
}

/**
 * _graft_window_choose_after_replace:
 * @self: a window
 * @match: the match a Replace just rewrote
 *
 * Chooses the match after it once the matches are found again.
 */
void
_graft_window_choose_after_replace (GraftWindow *self,
                                    guint        match)
{
  GraftPattern *pattern = graft_document_get_pattern (self->document);

  self->choose_after = (gint) match;
  g_clear_pointer (&self->choose_anchor, g_free);
  self->choose_revision = graft_document_get_revision (self->document);
  g_clear_pointer (&self->choose_pattern, graft_pattern_unref);
  self->choose_pattern = pattern != NULL ? graft_pattern_ref (pattern) : NULL;
  if (!graft_document_get_matches_pending (self->document))
    choose_after_replace (self);
}

static void
matches_changed_cb (GraftDocument *document,
                    GraftWindow   *self)
{
  /* A layout on its way gets its marks when it comes (layout_done_cb()):
   * the one on screen is of the graph before the change. */
  if (!self->busy)
    update_marks_in_turns (self);
  update_match_count (self);
  update_title (self);
  _graft_window_update_actions (self);
  if (self->choose_after >= 0 || self->choose_anchor != NULL)
    choose_after_replace (self);
  /* The focused node's match, not said while they were found. */
  graft_canvas_update_accessible (self->canvas);
}

static void
patterns_changed_cb (GraftDocument *document,
                     GraftWindow   *self)
{
  graft_pattern_editor_set_error (self->pattern_editor,
                                  graft_document_get_pattern_error (document));
  graft_pattern_editor_set_graph (self->pattern_editor,
                                  graft_document_get_pattern_graph (document));
  /* A replacement that traced but does not fit the pattern is flagged as
   * it is typed, where its definition is. */
  graft_pattern_editor_set_error (self->replacement_editor,
                                  graft_document_get_replacement_error (document) != NULL
                                      ? graft_document_get_replacement_error (document)
                                      : _graft_window_get_fit_error (self));
  graft_pattern_editor_set_graph (self->replacement_editor,
                                  graft_document_get_replacement_graph (document));
  update_match_count (self);
  _graft_window_update_actions (self);
}

/* The graph's code is copied for the autosave thread this many bytes at a
 * time, for about AUTOSAVE_COPY_USEC a turn: copying a million-node
 * graph's 100 MB in one turn took 100-130 ms of processor time, most of it
 * the fresh pages' faults. */
#define AUTOSAVE_COPY_CHUNK (1 << 20)
#define AUTOSAVE_COPY_USEC  4000

/* For tests: bytes copied per turn, if not 0. */
static gsize autosave_test_chunk;

/**
 * _graft_window_set_autosave_step:
 * @n_bytes: bytes of the code the autosave copies per main-loop turn, or 0
 *   for the default (as many megabytes as fit in a few milliseconds)
 *
 * For tests: a small graph's code copied in several turns.
 */
void
_graft_window_set_autosave_step (gsize n_bytes)
{
  autosave_test_chunk = n_bytes;
}

static void
autosave_copy_stop (GraftWindow *self)
{
  if (self->autosave_copy != 0)
    graft_turns_remove (self->autosave_copy);
  self->autosave_copy = 0;
  self->autosave_from = NULL;
  g_clear_pointer (&self->autosave_text, g_free);
}

static void autosave_copy_start (GraftWindow *self);

/* Copies on: first finds the code's end, then copies it, a chunk at a
 * time, for a few milliseconds; the texts go to the autosave thread once
 * all is copied.  The code is the document's until the next change of the
 * graph: a change meanwhile (a new revision, or other code) makes the
 * autosave wait for the new graph's code instead. */
static gboolean
autosave_copy_cb (gpointer user_data)
{
  GraftWindow *self = user_data;
  gint64       start = g_get_monotonic_time ();
  gsize        chunk = autosave_test_chunk > 0 ? autosave_test_chunk : AUTOSAVE_COPY_CHUNK;

  if (graft_document_get_revision (self->document) != self->autosave_revision ||
      _graft_document_peek_code (self->document) != self->autosave_from)
    {
      self->autosave_copy = 0;
      autosave_copy_stop (self);
      if (graft_document_get_modified (self->document))
        autosave_copy_start (self);
      return G_SOURCE_REMOVE;
    }
  do
    {
      if (self->autosave_length == G_MAXSIZE)
        {
          gsize n = strnlen (self->autosave_from + self->autosave_done, chunk);

          self->autosave_done += n;
          if (n < chunk)
            {
              self->autosave_length = self->autosave_done;
              self->autosave_done = 0;
              self->autosave_text = g_malloc (self->autosave_length + 1);
            }
        }
      else
        {
          gsize n = MIN (chunk, self->autosave_length - self->autosave_done);

          memcpy (self->autosave_text + self->autosave_done,
                  self->autosave_from + self->autosave_done, n);
          self->autosave_done += n;
          if (self->autosave_done == self->autosave_length)
            {
              char *text = g_steal_pointer (&self->autosave_text);

              text[self->autosave_length] = '\0';
              self->autosave_copy = 0;
              autosave_copy_stop (self);
              graft_autosave_write_code_take (
                  graft_document_get_file (self->document),
                  _graft_document_dup_recovery_take_code (self->document, text));
              return G_SOURCE_REMOVE;
            }
        }
    }
  while (autosave_test_chunk == 0 && g_get_monotonic_time () - start < AUTOSAVE_COPY_USEC);
  return G_SOURCE_CONTINUE;
}

/* Waits for the graph's code, made in steps so that a large graph never
 * stops the window (graft_document_code_async()), then copies it in steps
 * too. */
static void autosave_wait_code (GraftWindow *self);

/* Once the document holds its graph's code, the autosave copies it: the
 * code is that of the graph as it is now, whatever changed while it was
 * being made. */
static void
autosave_copy_start (GraftWindow *self)
{
  const char *code = _graft_document_peek_code (self->document);

  /* torch's empty forward would bring back an empty graph, and the
   * graph's own code does not compile: no autosave can restore it. */
  if (graft_document_get_code_error (self->document) != NULL)
    return;
  if (code == NULL)
    {
      autosave_wait_code (self);
      return;
    }
  self->autosave_from = code;
  self->autosave_revision = graft_document_get_revision (self->document);
  self->autosave_length = G_MAXSIZE;
  self->autosave_done = 0;
  self->autosave_copy = graft_turns_add (autosave_copy_cb, self, NULL);
}

static void
autosave_code_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  GraftWindow *self;
  g_autoptr (GError) error = NULL;

  /* Cancelled: the window went, saved, or changed again. */
  if (!graft_document_code_finish (NULL, result, &error))
    return;
  self = user_data;
  g_clear_object (&self->autosave_code);
  if (graft_document_get_modified (self->document))
    autosave_copy_start (self);
}

/* Seconds from a change to its autosave. */
static guint autosave_delay = 2;

static void
autosave_wait_code (GraftWindow *self)
{
  /* A reference of its own: the wait settles the document first, and a
   * change that ends there cancels the autosave, which drops the window's
   * (the wait then ends cancelled). */
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();

  self->autosave_code = g_object_ref (cancellable);
  graft_document_code_async (self->document, cancellable, autosave_code_cb, self);
}

static void
autosave_cancel (GraftWindow *self)
{
  g_clear_handle_id (&self->autosave_id, g_source_remove);
  if (self->autosave_code != NULL)
    {
      g_cancellable_cancel (self->autosave_code);
      g_clear_object (&self->autosave_code);
    }
  autosave_copy_stop (self);
}

static gboolean
autosave_cb (gpointer user_data)
{
  GraftWindow *self = user_data;

  self->autosave_id = 0;
  if (!graft_document_get_modified (self->document))
    return G_SOURCE_REMOVE;
  /* Work that holds the graph over turns (a Replace All or a Run All, a
   * move in the history, a switch of torch) would be finished at once by
   * the wait for the code, its end cancelling this autosave
   * (autosave_cancel()) under the wait's feet, and a comparison's graph
   * held elsewhere in the history brought back at once (at a million
   * nodes a turn of 68-131 ms): the autosave waits for another delay
   * instead. */
  if (graft_document_get_holding (self->document))
    {
      self->autosave_id = g_timeout_add_seconds (autosave_delay, autosave_cb, self);
      return G_SOURCE_REMOVE;
    }
  autosave_wait_code (self);
  return G_SOURCE_REMOVE;
}

/**
 * graft_window_autosave_now:
 * @self: a window
 *
 * Writes a pending autosave at once (the timer starts it two seconds after
 * the last change, and it waits for the graph's code) and waits until it
 * is on disk.
 */
void
graft_window_autosave_now (GraftWindow *self)
{
  g_return_if_fail (GRAFT_IS_WINDOW (self));
  if (graft_window_get_autosave_pending (self))
    {
      autosave_cancel (self);
      if (graft_document_get_modified (self->document) &&
          graft_document_get_code_error (self->document) == NULL)
        graft_autosave_write_code_take (graft_document_get_file (self->document),
                                        graft_document_dup_recovery_code (self->document));
    }
  graft_autosave_flush ();
}

/**
 * graft_window_autosave_start:
 * @self: a window
 *
 * Starts a pending autosave without waiting for its timer, as the timer
 * does: the code is made in steps, and the texts go to the autosave thread
 * once it is.  For the benchmark and the tests.
 */
void
graft_window_autosave_start (GraftWindow *self)
{
  g_return_if_fail (GRAFT_IS_WINDOW (self));
  if (self->autosave_id == 0)
    return;
  g_clear_handle_id (&self->autosave_id, g_source_remove);
  autosave_cb (self);
}

/**
 * graft_window_get_autosave_pending:
 * @self: a window
 *
 * Returns: whether an autosave is due: its timer runs, it waits for the
 *   graph's code, or it copies it
 */
gboolean
graft_window_get_autosave_pending (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), FALSE);
  return self->autosave_id != 0 || self->autosave_code != NULL || self->autosave_copy != 0;
}

/**
 * _graft_window_set_autosave_delay:
 * @seconds: from a change to its autosave, or 0 for the default (2)
 *
 * For tests that start the autosave themselves: a timer that runs out
 * while a loaded machine is still laying out the edit would write the
 * autosave before the test looks at it.
 */
void
_graft_window_set_autosave_delay (guint seconds)
{
  autosave_delay = seconds > 0 ? seconds : 2;
}

/* Unsaved work is copied to the state folder two seconds after it
 * changes; once saved (or undone back to the file), the copy goes. */
static void
schedule_autosave (GraftWindow *self)
{
  autosave_cancel (self);
  if (graft_document_get_modified (self->document))
    self->autosave_id = g_timeout_add_seconds (autosave_delay, autosave_cb, self);
  else if (!self->loading && self->recovery == NULL)
    graft_autosave_discard (graft_document_get_file (self->document));
}

static void
document_notify_cb (GraftDocument *document,
                    GParamSpec    *pspec,
                    GraftWindow   *self)
{
  update_title (self);
  _graft_window_update_actions (self);
  if (g_strcmp0 (pspec->name, "modified") == 0)
    schedule_autosave (self);
  if (g_strcmp0 (pspec->name, "torch") == 0)
    {
      const char *torch = graft_document_get_dialect (document)->name;

      /* The menu's choice follows the document (a switch undone too), and
       * the last torch the user put a window in is the next run's. */
      _graft_window_update_torch (self);
      if (self->settings != NULL)
        g_settings_set_string (self->settings, "torch", torch);
    }
}

/**
 * _graft_window_restore_autosave:
 * @self: a window
 *
 * Puts the autosaved graph, pattern and replacement in the window, as
 * unsaved changes.
 */
void
_graft_window_restore_autosave (GraftWindow *self)
{
  g_autofree char *name = graft_autosave_path_for (graft_document_get_file (self->document));
  g_autoptr (GError) error = NULL;

  gtk_widget_set_visible (self->restore_button, FALSE);
  gtk_revealer_set_reveal_child (self->warning_revealer, FALSE);
  if (self->recovery == NULL)
    return;
  /* A document with rules comes back whole: its rules, its history. */
  if (self->recovery->session != NULL)
    {
      if (!graft_session_restore (self->document, name, self->recovery->session, &error))
        {
          g_autofree char *message = graft_error_format (error, NULL);
          g_autofree char *text =
              g_strdup_printf ("The unsaved changes cannot be read: %s", message);

          _graft_window_toast (self, text, FALSE);
          return;
        }
      g_clear_pointer (&self->recovery, graft_recovery_free);
      fill_editors (self);
      gtk_stack_set_visible_child_name (self->editor_stack, "rules");
      _graft_window_follow_next (self, FALSE);
      _graft_window_relayout (self, FALSE);
      _graft_window_toast (self, "Unsaved changes restored: the rules and their history", FALSE);
      return;
    }
  /* One change of the history: undo gives the file's graph back, and the
   * toast's Undo the editors' texts too. */
  if (!graft_document_restore_text (self->document, name, self->recovery->code,
                                    "Restore unsaved changes", &error))
    {
      /* The autosave stays, for another try or a look with another tool. */
      g_autofree char *message = graft_error_format (error, NULL);
      g_autofree char *text = g_strdup_printf ("The unsaved changes cannot be read: %s", message);

      _graft_window_toast (self, text, FALSE);
      return;
    }
  graft_text_undo_replace (self->text_undo, self->recovery->pattern, self->recovery->replacement);
  g_clear_pointer (&self->recovery, graft_recovery_free);
  self->restore_serial = graft_document_get_last_change_serial (self->document);
  _graft_window_relayout (self, FALSE);
  _graft_window_toast (self, "Unsaved changes restored", TRUE);
}

/* Any other change of an editor's text makes the offer to undo the last
 * replacement of the texts stale: the editor's own undo still has it. */
static void
editor_buffer_changed_cb (GtkTextBuffer *buffer,
                          GraftWindow   *self)
{
  graft_text_undo_texts_changed (self->text_undo);
}

/**
 * _graft_window_replace_texts:
 * @self: a window
 * @pattern: (nullable): the pattern's new text, or %NULL to keep it
 * @replacement: (nullable): the replacement's new text, or %NULL to keep it
 * @title: the toast that says what happened
 *
 * Puts new texts in the editors (and the document) as one step of each
 * editor's undo history, and offers to undo both in a toast, so that
 * nothing written by hand is lost to a command that fills the editors.
 */
void
_graft_window_replace_texts (GraftWindow *self,
                             const char  *pattern,
                             const char  *replacement,
                             const char  *title)
{
  gboolean undoable = graft_text_undo_replace (self->text_undo, pattern, replacement);
  /* Two seconds longer than others: it offers back texts written by hand. */
  AdwToast *toast = show_toast (self, title, toast_seconds > 0 ? toast_seconds + 2 : 0,
                                undoable ? "win.undo-texts" : NULL, NULL);

  if (undoable)
    graft_text_undo_set_toast (self->text_undo, toast);
}

/**
 * _graft_window_undo_texts:
 * @self: a window
 *
 * The toast's Undo after _graft_window_replace_texts(): gives the editors
 * back the texts they had, if nothing has changed them since (each
 * editor's own undo history then still ends with the replacement).
 */
void
_graft_window_undo_texts (GraftWindow *self)
{
  /* The toast said "Pattern made ...: edit the replacement" of texts that
   * are gone now (Ctrl+Z, not its Undo): it says what is there instead. */
  if (graft_text_undo_undo (self->text_undo))
    show_toast (self, TEXTS_BACK, toast_seconds, NULL, NULL);
}

/**
 * _graft_window_redo_texts:
 * @self: a window
 *
 * The redo of _graft_window_undo_texts(): puts the replacement back in
 * the editors; a toast that said they were back says they are not.
 */
void
_graft_window_redo_texts (GraftWindow *self)
{
  graft_text_undo_redo (self->text_undo);
  if (self->toast != NULL && g_strcmp0 (self->last_toast, TEXTS_BACK) == 0)
    show_toast (self, "Pattern and replacement made again", toast_seconds, NULL, NULL);
}

/* The text of @buffer. */
static char *
dup_buffer_text (GtkTextBuffer *buffer)
{
  GtkTextIter start;
  GtkTextIter end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* An edit of a rule's text goes to that rule, whichever is chosen now. */
static void
buffer_edited (GraftWindow   *self,
               GtkTextBuffer *buffer)
{
  GraftRule *rule = g_object_get_data (G_OBJECT (buffer), "graft-rule");
  gboolean   replacement =
      GPOINTER_TO_INT (g_object_get_data (G_OBJECT (buffer), "graft-replacement"));
  g_autofree char *text = dup_buffer_text (buffer);

  if (rule == NULL)
    return;
  graft_document_set_rule_texts (self->document, rule, replacement ? NULL : text,
                                 replacement ? text : NULL);
}

static void
pattern_edited_cb (GraftPatternEditor *editor,
                   GraftWindow        *self)
{
  buffer_edited (self, graft_pattern_editor_get_buffer (editor));
}

/* A buffer the editors do not show changed (an undo of a toast, a rename
 * undone): the document follows at once, as there is no typing to wait
 * for. */
static void
hidden_buffer_changed_cb (GtkTextBuffer *buffer,
                          GraftWindow   *self)
{
  if (self->syncing_texts || buffer == graft_pattern_editor_get_buffer (self->pattern_editor) ||
      buffer == graft_pattern_editor_get_buffer (self->replacement_editor))
    return;
  buffer_edited (self, buffer);
}

/* The buffer of @rule's pattern (or replacement), made on first use. */
static GtkTextBuffer *
rule_buffer (GraftWindow *self,
             GraftRule   *rule,
             gboolean     replacement)
{
  const char    *key = replacement ? "graft-replacement-buffer" : "graft-pattern-buffer";
  GtkTextBuffer *buffer = g_object_get_data (G_OBJECT (rule), key);

  if (buffer != NULL)
    return buffer;
  buffer = graft_pattern_editor_new_buffer (replacement ? graft_rule_get_replacement_text (rule)
                                                        : graft_rule_get_pattern_text (rule));
  /* The rule owns its buffers; a buffer names its rule (borrowed). */
  g_object_set_data (G_OBJECT (buffer), "graft-rule", rule);
  g_object_set_data (G_OBJECT (buffer), "graft-replacement", GINT_TO_POINTER (replacement));
  g_object_set_data_full (G_OBJECT (rule), key, buffer, g_object_unref);
  g_signal_connect_object (buffer, "changed", G_CALLBACK (editor_buffer_changed_cb), self, 0);
  g_signal_connect_object (buffer, "changed", G_CALLBACK (hidden_buffer_changed_cb), self, 0);
  return buffer;
}

/* Puts @text in @buffer as one step of its undo history, unless it holds
 * it already. */
static void
follow_text (GraftWindow   *self,
             GtkTextBuffer *buffer,
             const char    *text)
{
  g_autofree char *old = dup_buffer_text (buffer);

  if (strcmp (old, text) == 0)
    return;
  self->syncing_texts = TRUE;
  if (buffer == graft_pattern_editor_get_buffer (self->pattern_editor))
    graft_pattern_editor_replace_text (self->pattern_editor, text);
  else if (buffer == graft_pattern_editor_get_buffer (self->replacement_editor))
    graft_pattern_editor_replace_text (self->replacement_editor, text);
  else
    {
      GtkTextIter start;
      GtkTextIter end;

      gtk_text_buffer_begin_user_action (buffer);
      gtk_text_buffer_get_bounds (buffer, &start, &end);
      gtk_text_buffer_delete (buffer, &start, &end);
      gtk_text_buffer_insert (buffer, &start, text, -1);
      gtk_text_buffer_end_user_action (buffer);
    }
  self->syncing_texts = FALSE;
}

/* The document changed a rule's texts itself (a rename, its undo): its
 * buffers follow, as an edit each can undo. */
static void
rule_texts_changed_cb (GraftDocument *document,
                       GraftRule     *rule,
                       GraftWindow   *self)
{
  GtkTextBuffer *pattern = g_object_get_data (G_OBJECT (rule), "graft-pattern-buffer");
  GtkTextBuffer *replacement = g_object_get_data (G_OBJECT (rule), "graft-replacement-buffer");

  if (pattern != NULL)
    follow_text (self, pattern, graft_rule_get_pattern_text (rule));
  if (replacement != NULL)
    follow_text (self, replacement, graft_rule_get_replacement_text (rule));
}

/* The editors show the chosen rule's buffers. */
static void
sync_editors (GraftWindow *self)
{
  GraftRule *rule = graft_document_get_rule (self->document,
                                             graft_document_get_selected_rule (self->document));

  guint n = graft_document_get_n_rules (self->document);

  graft_pattern_editor_set_buffer (self->pattern_editor, rule_buffer (self, rule, FALSE));
  graft_pattern_editor_set_buffer (self->replacement_editor, rule_buffer (self, rule, TRUE));
  /* With a rule set, the editors say whose texts they hold. */
  if (n > 1)
    {
      g_autofree char *title = graft_rule_dup_title (rule);
      g_autofree char *caption =
          g_strdup_printf ("Rule %u of %u · %s%s", graft_rule_get_position (rule) + 1, n, title,
                           graft_rule_get_enabled (rule) ? "" : " (left out)");

      graft_pattern_editor_set_caption (self->pattern_editor, caption);
      graft_pattern_editor_set_caption (self->replacement_editor, caption);
    }
  else
    {
      graft_pattern_editor_set_caption (self->pattern_editor, NULL);
      graft_pattern_editor_set_caption (self->replacement_editor, NULL);
    }
}

/**
 * _graft_window_flush_editors:
 * @self: a window
 *
 * What is being typed in the editors goes to the document now.
 */
void
_graft_window_flush_editors (GraftWindow *self)
{
  graft_pattern_editor_flush (self->pattern_editor);
  graft_pattern_editor_flush (self->replacement_editor);
}

static void
rules_changed_cb (GraftDocument *document,
                  GraftWindow   *self)
{
  GtkTextBuffer *shown = graft_pattern_editor_get_buffer (self->pattern_editor);

  sync_editors (self);
  if (shown != graft_pattern_editor_get_buffer (self->pattern_editor))
    patterns_changed_cb (document, self);
  update_title (self);
  _graft_window_update_actions (self);
  if (self->follow_due && !graft_document_get_matches_pending (document))
    _graft_window_follow_next (self, self->follow_match);
}

/* The editors show the chosen rule's texts as the document has them (a
 * file just read filled them). */
static void
fill_editors (GraftWindow *self)
{
  g_autofree char *pattern = NULL;
  g_autofree char *replacement = NULL;

  sync_editors (self);
  pattern = graft_pattern_editor_dup_text (self->pattern_editor);
  replacement = graft_pattern_editor_dup_text (self->replacement_editor);
  self->syncing_texts = TRUE;
  if (g_strcmp0 (pattern, graft_document_get_pattern_text (self->document)) != 0)
    graft_pattern_editor_set_text (self->pattern_editor,
                                   graft_document_get_pattern_text (self->document));
  if (g_strcmp0 (replacement, graft_document_get_replacement_text (self->document)) != 0)
    graft_pattern_editor_set_text (self->replacement_editor,
                                   graft_document_get_replacement_text (self->document));
  self->syncing_texts = FALSE;
  patterns_changed_cb (self->document, self);
}

/* GTK moves a focus whose widget leaves the window or is hidden, even for
 * a moment (the window's "move the focus" flag), at the next frame's
 * after-paint (the frame clock's), walking up from that widget to the
 * first ancestor that takes it, or, the widget having no parent any more,
 * to the window's first widget that takes it (the toast's Undo, where the
 * next Space or Return undid a change).  Taken out of the window before
 * such a change and given back after it, the focus leaves GTK nothing to
 * move.  Returns: (transfer full) (nullable): the widget that had it. */
static GtkWidget *
focus_take_out (GraftWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  if (focus == NULL)
    return NULL;
  g_object_ref (focus);
  gtk_root_set_focus (GTK_ROOT (self), NULL);
  return focus;
}

/* The matches list's row (a child of the list view) that holds @widget,
 * or NULL. */
static GtkWidget *
match_row_of (GraftWindow *self,
              GtkWidget   *widget)
{
  GtkWidget *list = GTK_WIDGET (self->match_list);

  while (widget != NULL && gtk_widget_get_parent (widget) != list)
    widget = gtk_widget_get_parent (widget);
  return widget;
}

/* The position of the matches list's @row (its child is the label
 * match_row_setup_cb() made), or GTK_INVALID_LIST_POSITION. */
static guint
match_row_position (GtkWidget *row)
{
  GtkWidget   *label = row != NULL ? gtk_widget_get_first_child (row) : NULL;
  GtkListItem *item =
      label != NULL ? g_object_get_data (G_OBJECT (label), "graft-list-item") : NULL;

  return item != NULL ? gtk_list_item_get_position (item) : GTK_INVALID_LIST_POSITION;
}

/* The matches list about to be left with no row while the focus is in it:
 * Next (Shift+F5) taken from the list takes its last match, or a change of
 * more than 4,096 rows, said as its rows going then its rows coming
 * (graft-match-model.c), empties it for a moment.  Connected to the
 * document's matches before the selection is made on them, this runs
 * before the selection's own handler, while the focused row is still in
 * the window: the focus is taken out (focus_take_out()) and given back
 * by match_rows_changed_after_cb(), once the list has its rows. */
static void
match_rows_changed_cb (GListModel  *matches,
                       guint        position,
                       guint        removed,
                       guint        added,
                       GraftWindow *self)
{
  GtkWidget *focus;

  self->rows_changing = TRUE;
  if (removed == 0 || g_list_model_get_n_items (matches) > 0 ||
      gtk_widget_in_destruction (GTK_WIDGET (self)) || self->canvas == NULL ||
      self->match_list == NULL)
    return;
  focus = gtk_root_get_focus (GTK_ROOT (self));
  if (focus == NULL || !gtk_widget_is_ancestor (focus, GTK_WIDGET (self->match_list)))
    return;
  self->match_focus = match_row_position (match_row_of (self, focus));
  if (self->match_focus == GTK_INVALID_LIST_POSITION)
    self->match_focus = 0;
  g_object_unref (focus_take_out (self));
}

/* The selection followed a change of the matches' rows (its own handler
 * ran between match_rows_changed_cb() and this). */
static void
match_rows_changed_done_cb (GListModel  *matches,
                            guint        position,
                            guint        removed,
                            guint        added,
                            GraftWindow *self)
{
  self->rows_changing = FALSE;
}

/* After the list view took a change of the matches: a focus taken out by
 * match_rows_changed_cb() goes to the row at the place of the row that
 * had it (or the last) once rows come, and to the canvas if none comes
 * (no focus if the canvas cannot take it, a page standing in for the
 * graph: rather than one GTK would give to the first button). */
static void
match_rows_changed_after_cb (GListModel  *selection,
                             guint        position,
                             guint        removed,
                             guint        added,
                             GraftWindow *self)
{
  guint n = g_list_model_get_n_items (selection);
  guint at = self->match_focus;

  if (at == GTK_INVALID_LIST_POSITION || gtk_widget_in_destruction (GTK_WIDGET (self)))
    return;
  if (n == 0 && graft_match_model_get_n_coming (
                    GRAFT_MATCH_MODEL (graft_document_get_matches (self->document))) > 0)
    return;
  self->match_focus = GTK_INVALID_LIST_POSITION;
  if (gtk_root_get_focus (GTK_ROOT (self)) != NULL)
    return;
  if (n > 0)
    {
      at = MIN (at, n - 1);
      gtk_widget_activate_action (GTK_WIDGET (self->match_list), "list.scroll-to-item", "u", at);
      for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->match_list)); row != NULL;
           row = gtk_widget_get_next_sibling (row))
        if (match_row_position (row) == at && gtk_widget_grab_focus (row))
          return;
    }
  if (!gtk_widget_grab_focus (GTK_WIDGET (self->canvas)))
    gtk_root_set_focus (GTK_ROOT (self), NULL);
}

/* The focus put in a page of the side panel that is not the one shown
 * (the page a crossfade is taking away, given the focus by a command or
 * the keyboard before the fade is over): that page is shown.  Otherwise
 * GTK, when the fade ends at a frame, hides the page and moves the focus
 * to the nearest ancestor that takes it (the panel's GtkPaned); with
 * frames painted during work by steps that came in the middle of a
 * Replace All, and the Ctrl+Z after it, meant for the text the user was
 * in, undid the graph. */
static void
focus_widget_cb (GtkWindow   *window,
                 GParamSpec  *pspec,
                 GraftWindow *self)
{
  GtkWidget *stack = GTK_WIDGET (self->editor_stack);
  GtkWidget *page = gtk_root_get_focus (GTK_ROOT (self));

  if (page == NULL || !gtk_widget_is_ancestor (page, stack))
    return;
  while (gtk_widget_get_parent (page) != stack)
    page = gtk_widget_get_parent (page);
  if (page == gtk_stack_get_visible_child (self->editor_stack))
    return;
  /* GTK moves the focus at the next layout if it is inside a page when the
   * stack hides that page, even for a moment (the fading page is hidden
   * when the stack goes to another, this one): the focus is out of it while
   * the stack switches, then put back. */
  {
    g_autoptr (GtkWidget) focus = focus_take_out (self);

    gtk_stack_set_visible_child (self->editor_stack, page);
    gtk_widget_grab_focus (focus);
  }
}

/* The side panel's open and save buttons open and save what the page
 * shows: a rules file on the Rules page, the pattern and replacement on
 * theirs.  The Code tab shows the graph's code, which they do not open or
 * save: they go while it is shown, leaving their room (so the panel's
 * width stays).  The code takes the panel's height: the match list goes
 * too (the pane gave the code its natural height, eight lines). */
static void
side_page_changed_cb (GtkStack    *stack,
                      GParamSpec  *pspec,
                      GraftWindow *self)
{
  const char *page = gtk_stack_get_visible_child_name (stack);
  gboolean    rules = g_strcmp0 (page, "rules") == 0;
  gboolean    code = g_strcmp0 (page, "code") == 0;

  gtk_stack_set_visible_child_name (self->side_file_stack, code ? "none" : "files");
  gtk_widget_set_visible (self->match_box, !code);
  _graft_window_fit_side_page (self);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->side_open_button),
                                  rules ? "win.rules-open" : "win.load-patterns");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->side_open_button),
                               rules ? "Open a Rules File (Shift+Ctrl+O)" : "Open Pattern File");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->side_save_button),
                                  rules ? "win.rules-save" : "win.save-patterns");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->side_save_button),
                               rules ? "Save the Rules File (Ctrl+Alt+S)"
                                     : "Save Pattern and Replacement");
}

/**
 * _graft_window_follow_next:
 * @self: a window
 * @show_match: also choose the match Next Match would replace, and bring
 *   it into view
 *
 * After a step, an undo or a redo: the rule the next step applies becomes
 * the chosen one, so the canvas highlights what the step will change.
 */
void
_graft_window_follow_next (GraftWindow *self,
                           gboolean     show_match)
{
  GraftNextStep next;

  /* With one rule there is nothing to choose: asking for the next step
   * would find the matches at once, rather than in the turns to come. */
  if (!show_match && graft_document_get_n_rules (self->document) == 1)
    return;
  /* Nor while they are found in turns (a million-node graph's searches
   * and counts of every rule took seconds at once): the rule is chosen
   * when they are known (rules_changed_cb()). */
  if (graft_document_get_matches_pending (self->document))
    {
      self->follow_due = TRUE;
      self->follow_match |= show_match;
      return;
    }
  self->follow_due = FALSE;
  self->follow_match = FALSE;
  graft_document_get_next_step (self->document, &next);
  if (next.kind != GRAFT_NEXT_RULE)
    return;
  _graft_window_flush_editors (self);
  graft_document_select_rule (self->document, next.rule);
  if (show_match)
    graft_window_select_match (self, next.match);
}

/**
 * graft_window_open_file:
 * @self: a window
 * @file: a Python module, FX listing or DOT file
 *
 * Shows @file's graph, or the error that stopped reading it.  A Python
 * file that defines `pattern` and `replacement` also fills the editors.
 */
static void
file_loaded_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr (GraftWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  GraftRecovery *recovery;

  graft_document_load_file_finish (GRAFT_DOCUMENT (object), result, &error);
  self->loading = FALSE;
  /* A session opens on its rules, the next step's rule chosen. */
  if (error == NULL && graft_document_get_keeps_rules (self->document))
    {
      gtk_stack_set_visible_child_name (self->editor_stack, "rules");
      _graft_window_follow_next (self, FALSE);
    }
  /* A new graph: its size decides whether it opens folded. */
  graft_layout_runner_fold_new_graph (self->layout_runner);
  fill_editors (self);
  _graft_window_apply_carried (self);
  _graft_window_watch_read_file (self);
  _graft_window_update_entry (self);
  _graft_window_show_warnings (self);
  if (error == NULL && (recovery = graft_document_steal_recovery (self->document)) != NULL)
    {
      graft_recovery_free (self->recovery);
      self->recovery = recovery;
      gtk_label_set_text (self->warning_label, "This file has unsaved changes from an earlier "
                                               "session that did not end normally.");
      gtk_widget_set_visible (self->restore_button, TRUE);
      gtk_revealer_set_reveal_child (self->warning_revealer, TRUE);
    }
  show_content (self);
  update_title (self);
  if (error == NULL)
    {
      focus_canvas_unless_typing (self);
      _graft_window_relayout (self, FALSE);
    }
  else
    {
      set_busy (self, FALSE);
      graft_canvas_set_layout (self->canvas, NULL, FALSE);
    }
}

void
graft_window_open_file (GraftWindow *self,
                        GFile       *file)
{
  g_autofree char *uri = g_file_get_uri (file);

  g_return_if_fail (GRAFT_IS_WINDOW (self));

  /* Reading and tracing run on a worker; the spinner turns meanwhile. */
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  /* The model chosen for this file earlier in the session, if any. */
  graft_document_set_entry (self->document, _graft_window_entry_for (file));
  self->loading = TRUE;
  set_busy (self, TRUE);
  graft_document_load_file_async (self->document, file, NULL, file_loaded_cb, g_object_ref (self));
}

/* The tooltip of a node: what the listing says about it. */
static char *
describe_node_cb (const char *name,
                  gpointer    user_data)
{
  GraftWindow *self = user_data;
  GraftNode   *node = graft_graph_find_node (graft_document_get_graph (self->document), name);
  /* Of two nodes of one name, the one under the pointer. */
  gint       at = graft_canvas_get_described_node (self->canvas);
  GraftNode *own = at >= 0 ? _graft_window_node_at (self, (guint) at) : NULL;
  g_autoptr (GString) text = NULL;
  g_autofree char *args = NULL;
  g_autofree char *kwargs = NULL;
  g_autofree char *escaped = NULL;
  GraftScopes     *scopes = graft_layout_runner_get_scopes (self->layout_runner);
  gint             match;

  if (node == NULL && scopes != NULL && graft_layout_runner_is_folded (self->layout_runner, name))
    {
      g_autofree char *path = g_markup_escape_text (name, -1);

      const char *type = graft_scopes_get_type_name (scopes, name);
      g_autofree char *class = g_markup_escape_text (type != NULL ? type : "", -1);

      return g_strdup_printf ("<b>%s</b>%s%s\n%u nodes, folded\n"
                              "<small>Double-click to expand</small>",
                              path, type != NULL ? "\n" : "", class,
                              graft_scopes_count_nodes (scopes, name));
    }
  if (own != NULL && strcmp (graft_node_get_name (own), name) == 0)
    node = own;
  if (node == NULL)
    return NULL;
  text = g_string_new (NULL);
  /* The copy of a shared name by the name its box and the code give it. */
  escaped = g_markup_escape_text (graft_document_get_code_name (self->document, node), -1);
  g_string_append_printf (text, "<b>%s</b>\n", escaped);
  g_clear_pointer (&escaped, g_free);
  escaped = g_markup_escape_text (graft_node_get_target (node), -1);
  g_string_append_printf (text, "<tt>op</tt>  %s\n<tt>target</tt>  %s",
                          graft_op_to_string (graft_node_get_op (node)), escaped);
  args = graft_arg_repr (graft_node_get_args (node), GRAFT_REPR_LISTING);
  kwargs = graft_arg_repr (graft_node_get_kwargs (node), GRAFT_REPR_LISTING);
  g_clear_pointer (&escaped, g_free);
  escaped = g_markup_escape_text (args, -1);
  g_string_append_printf (text, "\n<tt>args</tt>  %s", escaped);
  g_clear_pointer (&escaped, g_free);
  escaped = g_markup_escape_text (kwargs, -1);
  g_string_append_printf (text, "\n<tt>kwargs</tt>  %s", escaped);
  {
    g_autofree char *annotation =
        graft_node_meta_dup_annotation (graft_node_get_meta (node), FALSE, FALSE);

    if (annotation != NULL)
      {
        g_clear_pointer (&escaped, g_free);
        escaped = g_markup_escape_text (annotation, -1);
        g_string_append_printf (text, "\n<tt>value</tt>  %s", escaped);
      }
  }
  g_string_append (text, "\n<tt>users</tt>  ");
  if (graft_node_get_n_users (node) == 0)
    g_string_append (text, "none");
  for (guint i = 0; i < graft_node_get_n_users (node) && i < 12; i++)
    {
      g_clear_pointer (&escaped, g_free);
      escaped = g_markup_escape_text (graft_node_get_name (graft_node_get_user (node, i)), -1);
      g_string_append_printf (text, "%s%s", i > 0 ? ", " : "", escaped);
    }
  if (graft_node_get_n_users (node) > 12)
    g_string_append_printf (text, " and %u more", graft_node_get_n_users (node) - 12);
  /* While the matches are found again by steps, asking would find them
   * all in this turn (at every box the pointer crosses): the match is
   * said once they are in, as accessible_node_cb() does. */
  if (graft_document_get_matches_pending (self->document))
    match = -1;
  else
    match = node == own ? graft_document_get_match_of_graph_node (self->document, node)
                        : graft_document_get_match_of_node (self->document, name);
  if (match >= 0)
    g_string_append_printf (text, "\n\nPart of match %d: right-click to replace it", match + 1);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
zoom_notify_cb (GraftCanvas *canvas,
                GParamSpec  *pspec,
                GraftWindow *self)
{
  g_autofree char *text = g_strdup_printf ("%.0f%%", graft_canvas_get_zoom (canvas) * 100);

  gtk_button_set_label (self->zoom_label, text);
}

/* Brings the chosen match @item into view, zoomed in to be read if the
 * view was too small. */
static void
show_match (GraftWindow    *self,
            GraftMatchItem *item)
{
  /* While a layout is on its way (an undone Replace chose its match
   * again), the canvas holds the graph before: the match is shown when
   * the layout is in (layout_done_cb()), or the ring stayed where it was. */
  self->show_match_due = self->busy;
  graft_canvas_show_node (self->canvas, graft_match_item_get_anchor (item));
  /* The keyboard goes on from the match chosen (Ctrl+G, the list), so
   * that Return and Menu (Replace Match N) act on the node the view now
   * shows, not on one left out of view. */
  graft_canvas_focus_node (self->canvas, graft_match_item_get_anchor (item));
}

/**
 * graft_window_select_match:
 * @self: a window
 * @match: a match number
 *
 * Chooses match @match in the list and centres the canvas on it.
 */
void
graft_window_select_match (GraftWindow *self,
                           guint        match)
{
  g_return_if_fail (GRAFT_IS_WINDOW (self));
  if (match >= g_list_model_get_n_items (G_LIST_MODEL (self->match_selection)))
    return;
  /* The match chosen already (Ctrl+G with one match, after panning
   * away) is shown again. */
  if (gtk_single_selection_get_selected (self->match_selection) == match)
    show_match (self, gtk_single_selection_get_selected_item (self->match_selection));
  gtk_single_selection_set_selected (self->match_selection, match);
  gtk_widget_activate_action (GTK_WIDGET (self->match_list), "list.scroll-to-item", "u", match);
}

/**
 * graft_window_get_selected_match:
 * @self: a window
 *
 * Returns: the chosen match, or -1
 */
gint
graft_window_get_selected_match (GraftWindow *self)
{
  guint selected;

  g_return_val_if_fail (GRAFT_IS_WINDOW (self), -1);
  selected = gtk_single_selection_get_selected (self->match_selection);
  return selected == GTK_INVALID_LIST_POSITION ? -1 : (gint) selected;
}

static void
match_selected_cb (GtkSingleSelection *selection,
                   GParamSpec         *pspec,
                   GraftWindow        *self)
{
  GraftMatchItem *item = gtk_single_selection_get_selected_item (selection);

  /* A match the user chose (a row, Ctrl+G) while the matches after a
   * Replace were found is the one chosen when they come, in place of the
   * Replace's choice.  Not a choice the list made following its rows,
   * nor the canvas's selection (a relayout's). */
  if (!self->rows_changing && !self->following_canvas &&
      (self->choose_after >= 0 || self->choose_anchor != NULL))
    {
      self->choose_after = -1;
      g_clear_pointer (&self->choose_anchor, g_free);
      if (item != NULL)
        self->choose_anchor = g_strdup (graft_match_item_get_anchor (item));
      else
        g_clear_pointer (&self->choose_pattern, graft_pattern_unref);
    }
  if (item != NULL && !self->following_canvas)
    show_match (self, item);
  graft_canvas_update_accessible (self->canvas);
  _graft_window_update_actions (self);
}

/* A click on a matched node chooses its match in the list (without moving
 * the view); a click elsewhere leaves no match chosen. */
static void
canvas_selection_changed_cb (GraftCanvas *canvas,
                             GraftWindow *self)
{
  gint match = -1;
  /* A name two nodes share selects both boxes: the one clicked has a line. */
  gint picked = graft_canvas_get_picked (canvas);

  if (graft_canvas_get_n_selected (canvas) == 1 || picked >= 0)
    {
      g_auto (GStrv) names = graft_canvas_dup_selection (canvas);
      GraftNode *node = picked >= 0 ? _graft_window_node_at (self, (guint) picked) : NULL;

      if (node != NULL && strcmp (graft_node_get_name (node), names[0]) == 0)
        {
          match = graft_document_get_match_of_graph_node (self->document, node);
          graft_code_sync_select_node (self->code_sync, node);
        }
      else
        {
          match = graft_document_get_match_of_node (self->document, names[0]);
          graft_code_sync_select (self->code_sync, names[0]);
        }
    }
  self->following_canvas = TRUE;
  gtk_single_selection_set_selected (self->match_selection,
                                     match >= 0 ? (guint) match : GTK_INVALID_LIST_POSITION);
  self->following_canvas = FALSE;
  update_properties (self);
  _graft_window_update_actions (self);
}

/* Escape in the Find entry: the keyboard goes back to the canvas at the
 * hit shown, so that Return, Menu and the arrows go on from the node
 * found.  The bar, closing, clears its text and so the hits, and the
 * canvas kept the node it had focused before Find.  Connected before the
 * bar's own handler, while the hit is still known. */
static void
search_stopped_cb (GtkSearchEntry *entry,
                   GraftWindow    *self)
{
  const char *hit = self->search != NULL ? graft_search_get_current (self->search) : NULL;

  /* Of two nodes of one name, the hit's own box. */
  if (hit != NULL && graft_canvas_focus_node_placed (self->canvas, hit,
                                                     graft_search_get_current_place (self->search)))
    gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
}

static void
search_changed_cb (GraftSearch *search,
                   GraftWindow *self)
{
  graft_canvas_set_current_hit_placed (self->canvas, graft_search_get_current (search),
                                       graft_search_get_current_place (search));
  _graft_window_update_actions (self);
}

static void
delete_selection_requested_cb (GraftWindow *self)
{
  g_action_group_activate_action (G_ACTION_GROUP (self), "delete-selected", NULL);
}

/* The whole list of a row's nodes, which the row may show ellipsized. */
static gboolean
match_row_tooltip_cb (GtkWidget  *label,
                      int         x,
                      int         y,
                      gboolean    keyboard,
                      GtkTooltip *tooltip,
                      gpointer    user_data)
{
  GtkListItem    *item = g_object_get_data (G_OBJECT (label), "graft-list-item");
  GraftMatchItem *match = item != NULL ? gtk_list_item_get_item (item) : NULL;

  if (match == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, graft_match_item_get_nodes (match));
  return TRUE;
}

/* A row of the match list is one label: GTK 4.8's list view keeps up to
 * 200 rows made whatever it shows, and makes or drops them all when the
 * matches change at the top of the list, so each widget a row has costs
 * 200 times (a row of five widgets took 15 ms to make or drop, one label
 * 6 ms).  Its two lines are two paragraphs, each ellipsized on its own. */
static void
match_row_setup_cb (GtkSignalListItemFactory *factory,
                    GtkListItem              *item,
                    gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (label, "match-row");
  /* The tooltip asks the row's item when it is shown: setting a tooltip's
   * text on every bind costs an X round trip per row. */
  g_object_set_data (G_OBJECT (label), "graft-list-item", item);
  gtk_widget_set_has_tooltip (label, TRUE);
  g_signal_connect (label, "query-tooltip", G_CALLBACK (match_row_tooltip_cb), NULL);
  gtk_list_item_set_child (item, label);
}

/* The row's text and its attributes are set directly (graft-match-item.c):
 * parsing the same as Pango markup was most of a row's bind, which GTK 4.8
 * does for up to 200 rows in the turn the matches change. */
static void
match_row_bind_cb (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   gpointer                  user_data)
{
  GtkWidget       *label = gtk_list_item_get_child (item);
  PangoAttrList   *attrs = NULL;
  g_autofree char *text = graft_match_item_dup_row_text (gtk_list_item_get_item (item), &attrs);

  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_label_set_attributes (GTK_LABEL (label), attrs);
  pango_attr_list_unref (attrs);
}

/* The node at @position in graph order, where two nodes share a name and
 * the canvas picked one (graft_canvas_get_picked()); NULL in a graph
 * without shared names (its name says which node) or past the end. */
GraftNode *
_graft_window_node_at (GraftWindow *self,
                       guint        position)
{
  GraftGraph *graph = graft_document_get_graph (self->document);
  GraftNode  *node = graft_graph_get_first (graph);

  if (!graft_graph_has_shared_names (graph))
    return NULL;
  for (guint i = 0; node != NULL && i < position; i++)
    node = graft_node_get_next (node);
  return node;
}

/**
 * _graft_window_get_selected_nodes:
 * @self: a window
 * @out: (element-type GraftNode): where the nodes go
 *
 * Appends the nodes selected on the canvas, in graph order: by their
 * names, but of two nodes of one name only the one whose box is selected
 * (while the layout shown is of the graph; else every node of a name).
 */
void
_graft_window_get_selected_nodes (GraftWindow *self,
                                  GPtrArray   *out)
{
  GraftGraph  *graph = graft_document_get_graph (self->document);
  GraftLayout *layout = graft_canvas_get_layout (self->canvas);
  guint        start = out->len;
  guint        i = 0;
  g_auto (GStrv) names = NULL;

  if (graft_graph_has_shared_names (graph) && layout != NULL &&
      graft_layout_get_n_graph_nodes (layout) == graft_graph_get_n_nodes (graph))
    {
      for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
           node = graft_node_get_next (node), i++)
        {
          if (strcmp (graft_node_get_name (node), graft_layout_get_node_name (layout, i)) != 0)
            break;
          if (graft_canvas_is_node_selected (self->canvas, i))
            g_ptr_array_add (out, node);
        }
      if (i == graft_graph_get_n_nodes (graph))
        return;
      g_ptr_array_set_size (out, start);
    }
  names = graft_canvas_dup_selection (self->canvas);
  graft_graph_find_nodes (graph, (const char *const *) names, out);
}

/**
 * _graft_window_select_nodes:
 * @self: a window
 * @nodes: (element-type GraftNode): nodes of the document's graph
 *
 * Selects @nodes alone on the canvas: of two nodes of one name, the one
 * given (by its name, both boxes were selected).
 */
void
_graft_window_select_nodes (GraftWindow *self,
                            GPtrArray   *nodes)
{
  GraftGraph *graph = graft_document_get_graph (self->document);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  if (G_UNLIKELY (graft_graph_has_shared_names (graph)))
    {
      g_autoptr (GHashTable) wanted = g_hash_table_new (NULL, NULL);
      g_autoptr (GArray) places = g_array_new (FALSE, FALSE, sizeof (guint));
      guint i = 0;

      for (guint k = 0; k < nodes->len; k++)
        g_hash_table_add (wanted, nodes->pdata[k]);
      for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
           node = graft_node_get_next (node), i++)
        if (g_hash_table_contains (wanted, node))
          {
            g_ptr_array_add (names, (gpointer) graft_node_get_name (node));
            g_array_append_val (places, i);
          }
      graft_canvas_set_selection_placed (self->canvas, (const char *const *) names->pdata,
                                         (const guint *) (gpointer) places->data, places->len);
      return;
    }
  /* A name is one node. */
  for (guint k = 0; k < nodes->len; k++)
    g_ptr_array_add (names, (gpointer) graft_node_get_name (nodes->pdata[k]));
  g_ptr_array_add (names, NULL);
  graft_canvas_set_selection (self->canvas, (const char *const *) names->pdata);
}

/* The position in graph order of the node called @name, or -1. */
static gint
node_position (GraftGraph *graph,
               const char *name)
{
  gint i = 0;

  for (GraftNode *n = graft_graph_get_first (graph); n != NULL; n = graft_node_get_next (n), i++)
    if (strcmp (graft_node_get_name (n), name) == 0)
      return i;
  return -1;
}

/* Double-click, or Return on the canvas: a collapsed scope opens; a node
 * shows its properties, the focus staying on the canvas. */
static void
node_activated_cb (GraftCanvas *canvas,
                   const char  *name,
                   GraftWindow *self)
{
  if (graft_layout_runner_is_folded (self->layout_runner, name))
    _graft_window_expand_scope (self, name);
  else if (!adw_flap_get_reveal_flap (self->properties_flap))
    _graft_window_show_properties (self, TRUE, FALSE);
}

/* What a screen reader hears after the focused node's inputs and users:
 * the match it is in, of how many, and whether Replace would rewrite it;
 * for a folded module, that Return opens it. */
static char *
accessible_node_cb (const char *name,
                    gpointer    user_data)
{
  GraftWindow *self = user_data;
  guint        n;
  gint         match;

  if (graft_layout_runner_is_folded (self->layout_runner, name))
    return g_strdup ("folded, Return expands it");
  /* The matches are being found again: asking for them would finish the
   * search in this turn.  Said once they are in (matches_changed_cb()). */
  if (graft_document_get_matches_pending (self->document))
    return NULL;
  n = graft_document_get_n_matches (self->document);
  match = graft_document_get_match_of_node (self->document, name);
  if (match < 0)
    return n > 0 ? g_strdup ("in no match") : NULL;
  return g_strdup_printf ("in match %d of %u%s", match + 1, n,
                          graft_window_get_selected_match (self) == match ? " (chosen)" : "");
}

static void
context_menu_cb (GraftCanvas *canvas,
                 const char  *name,
                 double       x,
                 double       y,
                 GraftWindow *self)
{
  g_autoptr (GMenu) menu = g_menu_new ();
  g_autoptr (GMenu) section = g_menu_new ();
  GraftScopes *scopes = graft_layout_runner_get_scopes (self->layout_runner);
  gboolean     is_scope = graft_layout_runner_is_folded (self->layout_runner, name);
  /* Of two nodes of one name, the one clicked: its match, Why Not Here?
   * and the scope to collapse are its. */
  gint       clicked = name != NULL && !is_scope ? graft_canvas_pick_graph_node (canvas, x, y) : -1;
  GraftNode *node = clicked >= 0 ? _graft_window_node_at (self, (guint) clicked) : NULL;
  gint       match = -1;

  if (node == NULL || strcmp (graft_node_get_name (node), name) != 0)
    clicked = -1;
  /* The Menu key's menu points under the focused box, which it picked. */
  if (clicked < 0 && name != NULL && !is_scope && (clicked = graft_canvas_get_picked (canvas)) >= 0)
    {
      node = _graft_window_node_at (self, (guint) clicked);
      if (node == NULL || strcmp (graft_node_get_name (node), name) != 0)
        clicked = -1;
    }
  if (clicked >= 0)
    match = graft_document_get_match_of_graph_node (self->document, node);
  else if (name != NULL && !is_scope)
    match = graft_document_get_match_of_node (self->document, name);
  self->menu_node = clicked;
  self->menu_revision = graft_document_get_revision (self->document);

  if (match >= 0)
    {
      g_autofree char *label = g_strdup_printf ("Replace Match %d", match + 1);
      g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);

      /* The chosen match (drawn so) is the one Shift+Ctrl+R replaces:
       * then the item is that key's action and shows the key, as Replace
       * All shows Ctrl+R.  Another match has no key. */
      if (match == graft_canvas_get_chosen_match (canvas))
        g_menu_item_set_detailed_action (item, "win.replace-selected");
      else
        g_menu_item_set_action_and_target (item, "win.replace-match", "u", (guint) match);
      g_menu_append_item (section, item);
    }
  g_menu_append (section, "Replace _All", "win.replace-all");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_clear_object (&section);
  section = g_menu_new ();
  g_menu_append (section, "Create _Pattern from Selection", "win.pattern-from-selection");
  if (name != NULL && match < 0 && !is_scope)
    {
      g_autoptr (GMenuItem) item = g_menu_item_new ("_Why Not Here?", NULL);

      g_menu_item_set_action_and_target (item, "win.explain-at", "s", name);
      g_menu_append_item (section, item);
    }
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_clear_object (&section);
  section = g_menu_new ();
  if (name != NULL && is_scope)
    {
      g_autofree char *label = g_strdup_printf ("_Expand “%s”", name);
      g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target (item, "win.expand-scope", "s", name);
      g_menu_append_item (section, item);
    }
  else if (name != NULL && scopes != NULL)
    {
      gint index =
          clicked >= 0 ? clicked : node_position (graft_document_get_graph (self->document), name);
      const char *scope = index >= 0 && (guint) index < graft_scopes_get_n_nodes (scopes)
                              ? graft_scopes_get_innermost (scopes, index)
                              : NULL;

      if (scope != NULL)
        {
          g_autofree char *label = g_strdup_printf ("_Collapse “%s”", scope);
          g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);

          g_menu_item_set_action_and_target (item, "win.collapse-scope", "s", scope);
          g_menu_append_item (section, item);
        }
    }
  if (match >= 0)
    {
      g_autofree char *label = g_strdup_printf ("Show Match %d in _Context", match + 1);
      g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target (item, "win.match-in-context", "u", (guint) match);
      g_menu_append_item (section, item);
    }
  g_menu_append (section, "Collapse _Modules", "win.collapse-all");
  g_menu_append (section, "Expand One _Level", "win.expand-level");
  g_menu_append (section, "E_xpand All", "win.expand-all");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_clear_object (&section);
  section = g_menu_new ();
  g_menu_append (section, "_Delete Unused Selected Nodes", "win.delete-selected");
  g_menu_append (section, "_Fit the Graph", "win.zoom-fit");
  g_menu_append (section, "_Export…", "win.export");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  graft_canvas_popup_menu (canvas, G_MENU_MODEL (menu), x, y);
}

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         GraftWindow   *self)
{
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = gdk_file_list_get_files (g_value_get_boxed (value));
  if (files == NULL)
    return FALSE;
  /* The first file as Open would open it; any others in windows of their
   * own. */
  _graft_window_open_from (self, files->data);
  for (GSList *l = files->next; l != NULL; l = l->next)
    g_application_open (G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))),
                        (GFile **) &l->data, 1, "");
  g_slist_free (files);
  return TRUE;
}

static void
save_size (GraftWindow *self)
{
  int width;
  int height;

  if (self->settings == NULL)
    return;
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized",
                          gtk_window_is_maximized (GTK_WINDOW (self)));
  g_settings_set_int (self->settings, "sidebar-width", _graft_window_get_sidebar_width (self));
}

static void
close_response_cb (AdwMessageDialog *dialog,
                   const char       *response,
                   GraftWindow      *self)
{
  if (g_strcmp0 (response, "discard") == 0)
    {
      self->close_confirmed = TRUE;
      gtk_window_close (GTK_WINDOW (self));
    }
  else if (g_strcmp0 (response, "save") == 0)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.save-and-close", NULL);
}

static gboolean
graft_window_close_request (GtkWindow *window)
{
  GraftWindow      *self = GRAFT_WINDOW (window);
  AdwMessageDialog *dialog;

  if (!self->close_confirmed && graft_document_get_modified (self->document))
    {
      dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (window, "Save Changes?", NULL));
      adw_message_dialog_format_body (dialog,
                                      "“%s” has unsaved changes. Changes that are not saved are "
                                      "lost.",
                                      graft_document_get_title (self->document));
      adw_message_dialog_add_responses (dialog, "cancel", "_Cancel", "discard", "_Discard", "save",
                                        "_Save", NULL);
      adw_message_dialog_set_response_appearance (dialog, "discard", ADW_RESPONSE_DESTRUCTIVE);
      adw_message_dialog_set_response_appearance (dialog, "save", ADW_RESPONSE_SUGGESTED);
      adw_message_dialog_set_default_response (dialog, "save");
      adw_message_dialog_set_close_response (dialog, "cancel");
      g_signal_connect_object (dialog, "response", G_CALLBACK (close_response_cb), self, 0);
      gtk_window_present (GTK_WINDOW (dialog));
      return TRUE;
    }
  save_size (self);
  /* Closed on purpose: the user saved or chose to discard. */
  if (self->recovery == NULL)
    graft_autosave_discard (graft_document_get_file (self->document));
  return GTK_WINDOW_CLASS (graft_window_parent_class)->close_request (window);
}

static void
graft_window_dispose (GObject *object)
{
  GraftWindow *self = GRAFT_WINDOW (object);

  /* The document can outlive the window: Show Changes, Match in Context
   * and Compare Graphs hold it while they work, after the window is
   * closed.  Its signals must not reach the window from now on (a
   * "notify::modified" would schedule an autosave on it, any signal
   * would run on it once it is finalized). */
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  drop_marks (self);
  if (self->layout_runner != NULL)
    graft_layout_runner_stop (self->layout_runner);
  _graft_window_dispose_export (self);
  autosave_cancel (self);
  graft_turns_remove (self->recent_job);
  self->recent_job = 0;
  _graft_window_unwatch_file (self);
  if (self->toast_clock != NULL)
    g_signal_handlers_disconnect_by_func (self->toast_clock, toasts_layout_cb, self);
  g_clear_weak_pointer (&self->toast_clock);
  gtk_widget_dispose_template (GTK_WIDGET (self), GRAFT_TYPE_WINDOW);
  G_OBJECT_CLASS (graft_window_parent_class)->dispose (object);
}

static void
graft_window_finalize (GObject *object)
{
  GraftWindow *self = GRAFT_WINDOW (object);

  g_clear_object (&self->layout_runner);
  g_clear_object (&self->search);
  g_clear_object (&self->match_selection);
  g_clear_object (&self->document);
  g_clear_object (&self->settings);
  g_clear_object (&self->code_sync);
  g_clear_pointer (&self->text_undo, graft_text_undo_free);
  g_clear_pointer (&self->recovery, graft_recovery_free);
  g_clear_pointer (&self->last_toast, g_free);
  g_clear_pointer (&self->move_toast, g_free);
  g_clear_pointer (&self->choose_pattern, graft_pattern_unref);
  g_clear_pointer (&self->choose_anchor, g_free);
  g_clear_pointer (&self->carry_pattern, g_free);
  g_clear_pointer (&self->carry_replacement, g_free);
  G_OBJECT_CLASS (graft_window_parent_class)->finalize (object);
}

static void
graft_window_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  GraftWindow *self = GRAFT_WINDOW (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
graft_window_class_init (GraftWindowClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  /* No window is left on its surface once closed (graft-toplevel.c). */
  graft_toplevel_init ();

  object_class->dispose = graft_window_dispose;
  object_class->finalize = graft_window_finalize;
  object_class->get_property = graft_window_get_property;
  window_class->close_request = graft_window_close_request;

  properties[PROP_BUSY] =
      g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                            G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (GRAFT_TYPE_CANVAS);
  g_type_ensure (GRAFT_TYPE_OVERVIEW);
  g_type_ensure (GRAFT_TYPE_PATTERN_EDITOR);
  g_type_ensure (GRAFT_TYPE_PROPERTIES);
  g_type_ensure (GRAFT_TYPE_RULES_PANEL);
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PATH "/graft-window.ui");
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, toasts);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, layout_progress);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, warning_revealer);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, warning_label);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, side_flap);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, side_handle);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, error_page);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, canvas);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, overview);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, zoom_label);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, zoom_box);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, side_paned);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, editor_stack);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, pattern_editor);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, replacement_editor);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, match_count);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, match_list);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, match_box);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, recent_section);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, search_bar);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, search_count);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, code_view);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, code_note);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, restore_button);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, properties_flap);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, properties);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, rules_panel);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, side_open_button);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, side_save_button);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, side_file_stack);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, replace_all_button);
  gtk_widget_class_bind_template_child (widget_class, GraftWindow, replace_button);
  _graft_window_class_add_actions (widget_class);
}

/* The torch a new window speaks: the application's (GRAFT_TORCH at
 * start-up, then the last choice in a menu); without one (the tests), the
 * `torch` key's; torch 2.6 without either. */
static const GraftDialect *
start_dialect (GraftWindow *self)
{
  GApplication       *app = g_application_get_default ();
  g_autofree char    *name = NULL;
  const GraftDialect *dialect;

  if (GRAFT_IS_APPLICATION (app))
    return graft_application_get_dialect (GRAFT_APPLICATION (app));
  if (self->settings == NULL)
    return graft_dialect_get_default ();
  name = g_settings_get_string (self->settings, "torch");
  dialect = graft_dialect_from_name (name);
  return dialect != NULL ? dialect : graft_dialect_get_default ();
}

static void
graft_window_init (GraftWindow *self)
{
  GSettingsSchemaSource *schemas = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;
  g_autoptr (GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  int            sidebar = 400;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->menu_node = -1;
  self->choose_after = -1;
  self->move_choose = -1;
  schema = schemas != NULL ? g_settings_schema_source_lookup (schemas, APPLICATION_ID, TRUE) : NULL;
  if (schema != NULL)
    self->settings = g_settings_new (APPLICATION_ID);
  self->document = graft_document_new ();
  graft_document_set_dialect (self->document, start_dialect (self));
  self->text_undo = graft_text_undo_new (self->pattern_editor, self->replacement_editor,
                                         self->document);
  graft_pattern_editor_set_document (self->pattern_editor, self->document);
  graft_pattern_editor_set_document (self->replacement_editor, self->document);
  self->code_sync = graft_code_sync_new (self->document, self->canvas, self->code_view,
                                         self->code_note, self->editor_stack);
  g_signal_connect (self->search_entry, "stop-search", G_CALLBACK (search_stopped_cb), self);
  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));
  self->search = graft_search_new (self->document, self->canvas, self->search_entry,
                                   self->search_count);
  g_signal_connect (self->search, "changed", G_CALLBACK (search_changed_cb), self);
  self->layout_runner = graft_layout_runner_new (self->document, self->canvas);
  g_signal_connect (self->layout_runner, "progress", G_CALLBACK (layout_progress_cb), self);
  g_signal_connect (self->layout_runner, "done", G_CALLBACK (layout_done_cb), self);

  if (self->settings != NULL)
    {
      g_autoptr (GVariant) saved = g_settings_get_user_value (self->settings, "window-width");
      int width = g_settings_get_int (self->settings, "window-width");
      int height = g_settings_get_int (self->settings, "window-height");

      /* A first window: a share of a large screen (no size saved yet). */
      if (saved == NULL)
        _graft_window_screen_size (self, &width, &height);
      gtk_window_set_default_size (GTK_WINDOW (self), width, height);
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      sidebar = g_settings_get_int (self->settings, "sidebar-width");
    }
  _graft_window_init_adaptive (self, sidebar);

  /* Before the selection connects to the matches: match_rows_changed_cb(). */
  g_signal_connect_object (graft_document_get_matches (self->document), "items-changed",
                           G_CALLBACK (match_rows_changed_cb), self, 0);
  self->match_selection =
      gtk_single_selection_new (g_object_ref (graft_document_get_matches (self->document)));
  g_signal_connect_object (graft_document_get_matches (self->document), "items-changed",
                           G_CALLBACK (match_rows_changed_done_cb), self, G_CONNECT_AFTER);
  gtk_single_selection_set_autoselect (self->match_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->match_selection, TRUE);
  gtk_single_selection_set_selected (self->match_selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect (factory, "setup", G_CALLBACK (match_row_setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (match_row_bind_cb), self);
  gtk_list_view_set_factory (self->match_list, factory);
  gtk_list_view_set_model (self->match_list, GTK_SELECTION_MODEL (self->match_selection));
  self->match_focus = GTK_INVALID_LIST_POSITION;
  g_signal_connect_object (self->match_selection, "items-changed",
                           G_CALLBACK (match_rows_changed_after_cb), self, G_CONNECT_AFTER);
  g_signal_connect (self->match_selection, "notify::selected", G_CALLBACK (match_selected_cb),
                    self);

  graft_canvas_set_describe_func (self->canvas, describe_node_cb, self, NULL);
  graft_canvas_set_accessible_func (self->canvas, accessible_node_cb, self, NULL);
  graft_canvas_set_start_readable (self->canvas, TRUE);
  g_signal_connect (self->canvas, "notify::zoom", G_CALLBACK (zoom_notify_cb), self);
  g_signal_connect (self->canvas, "context-menu", G_CALLBACK (context_menu_cb), self);
  g_signal_connect (self->canvas, "node-activated", G_CALLBACK (node_activated_cb), self);
  g_signal_connect (self->properties, "node-activated", G_CALLBACK (properties_node_activated_cb),
                    self);
  graft_properties_set_name_func (self->properties, properties_name_cb, self);
  g_signal_connect (self->canvas, "selection-changed", G_CALLBACK (canvas_selection_changed_cb),
                    self);
  g_signal_connect_swapped (self->canvas, "delete-selection",
                            G_CALLBACK (delete_selection_requested_cb), self);
  g_signal_connect (self->pattern_editor, "changed", G_CALLBACK (pattern_edited_cb), self);
  g_signal_connect (self->replacement_editor, "changed", G_CALLBACK (pattern_edited_cb), self);
  g_signal_connect (graft_pattern_editor_get_buffer (self->pattern_editor), "changed",
                    G_CALLBACK (editor_buffer_changed_cb), self);
  g_signal_connect (graft_pattern_editor_get_buffer (self->replacement_editor), "changed",
                    G_CALLBACK (editor_buffer_changed_cb), self);

  g_signal_connect (self->document, "graph-changed", G_CALLBACK (graph_changed_cb), self);
  g_signal_connect (self->document, "matches-changed", G_CALLBACK (matches_changed_cb), self);
  g_signal_connect (self->document, "patterns-changed", G_CALLBACK (patterns_changed_cb), self);
  g_signal_connect (self->document, "notify", G_CALLBACK (document_notify_cb), self);
  g_signal_connect (self->document, "rules-changed", G_CALLBACK (rules_changed_cb), self);
  g_signal_connect (self->document, "rule-texts-changed", G_CALLBACK (rule_texts_changed_cb),
                    self);
  graft_rules_panel_set_document (self->rules_panel, self->document);
  g_signal_connect (self->editor_stack, "notify::visible-child-name",
                    G_CALLBACK (side_page_changed_cb), self);
  _graft_window_init_side_split (self);
  g_signal_connect (self, "notify::focus-widget", G_CALLBACK (focus_widget_cb), self);

  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  _graft_window_init_actions (self);
  _graft_window_init_view_actions (self);
  _graft_window_init_panes (self);
  _graft_window_init_watch (self);
  _graft_window_init_entry (self);
  {
    /* Ctrl+Alt+O: the overview map shows or hides, in every window. */
    g_autoptr (GPropertyAction) overview =
        g_property_action_new ("show-overview", self->overview, "visible");

    g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (overview));
    if (self->settings != NULL)
      g_settings_bind (self->settings, "overview-visible", self->overview, "visible",
                       G_SETTINGS_BIND_DEFAULT);
  }
  _graft_window_update_torch (self);
  if (self->settings != NULL && g_settings_get_boolean (self->settings, "properties-visible"))
    _graft_window_show_properties (self, TRUE, FALSE);
  g_signal_connect (self->content_stack, "notify::visible-child-name",
                    G_CALLBACK (properties_place_cb), self);
  g_signal_connect (self->properties_flap, "notify::folded", G_CALLBACK (properties_place_cb),
                    self);
  g_signal_connect (self->properties_flap, "notify::reveal-progress",
                    G_CALLBACK (properties_progress_cb), self);
  fill_editors (self);
  show_content (self);
  update_title (self);
  update_match_count (self);
  _graft_window_update_actions (self);
}
