/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-window-compare.c: the window's "Compare Graphs" actions.
 * win.compare (Shift+Ctrl+D, the main menu) opens the split view of the
 * newest applied change of the graph; win.compare-step opens it for any
 * change of the history (a History row's context menu).  The split window
 * opens at once, makes the comparison over the next turns
 * (graft-comparison-builder.c), lays it out and shows it
 * (graft-split-window.c).
 */
#include "config.h"

#include "graft-comparison.h"
#include "graft-split-window.h"
#include "graft-window-private.h"

/* Graphs with more nodes than this are compared folded by module into an
 * overview of at most OVERVIEW_BOXES boxes, as the main canvas opens
 * them (graft-layout-runner.c). */
#define FOLD_ABOVE_NODES 2000
#define OVERVIEW_BOXES   300

static void
compare (GraftWindow *self,
         guint        change)
{
  GraftGraph             *graph = graft_document_get_graph (self->document);
  GraftComparisonBuilder *builder;
  g_autoptr (GError) error = NULL;
  GtkWidget *window;

  if (graph == NULL || self->loading)
    return;
  /* What cannot be compared is said here, without a window: a builder is
   * made to check, which costs nothing yet. */
  builder = graft_comparison_builder_new (self->document, change, 0, &error);
  if (builder == NULL)
    {
      _graft_window_report_error (self, "Cannot compare", error);
      return;
    }
  graft_comparison_builder_free (builder);
  window = graft_split_window_new_for_document (
      GTK_WINDOW (self), self->document, change,
      graft_graph_get_n_nodes (graph) > FOLD_ABOVE_NODES ? OVERVIEW_BOXES : 0);
  gtk_window_present (GTK_WINDOW (window));
}

static void
compare_cb (GSimpleAction *action,
            GVariant      *param,
            gpointer       user_data)
{
  GraftWindow *self = user_data;
  gint         change = graft_document_get_compared_change (self->document);

  if (change >= 0)
    compare (self, (guint) change);
}

static void
compare_step_cb (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       user_data)
{
  GraftWindow *self = user_data;
  guint        change = g_variant_get_uint32 (param);

  if (change < graft_document_get_history_length (self->document))
    compare (self, change);
}

static const GActionEntry compare_entries[] = {
  { "compare", compare_cb },
  { "compare-step", compare_step_cb, "u" },
};

/**
 * _graft_window_init_compare_actions:
 * @self: a window
 *
 * Adds win.compare and win.compare-step.
 */
void
_graft_window_init_compare_actions (GraftWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), compare_entries,
                                   G_N_ELEMENTS (compare_entries), self);
}

/**
 * _graft_window_update_compare_actions:
 * @self: a window
 * @has_graph: a graph is open
 *
 * Compare Graphs needs a change of the graph to show.
 */
void
_graft_window_update_compare_actions (GraftWindow *self,
                                      gboolean     has_graph)
{
  g_simple_action_set_enabled (
      G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "compare")),
      has_graph && graft_document_get_compared_change (self->document) >= 0);
  g_simple_action_set_enabled (
      G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "compare-step")),
      has_graph && graft_document_get_history_length (self->document) > 0);
}
