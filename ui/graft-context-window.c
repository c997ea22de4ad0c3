/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-context-window.c: "Show Match in Context".  In a graph of tens of
 * thousands of nodes a match is a few boxes lost in a long drawing; this
 * window lays out only the match and the nodes within a chosen number of
 * edges of it (inputs and users alike, in both directions), with the
 * match highlighted as on the main canvas.  The neighbourhood stops
 * growing at MAX_SHOWN nodes, so a match next to a hub stays readable.
 * It shows the document as it was when opened or when the number of hops
 * last changed.
 */
#include "config.h"

#include "graft-context-window.h"
#include "graft-canvas.h"
#include "graft-view.h"

#define MAX_SHOWN    400
#define DEFAULT_HOPS 2
#define MAX_HOPS     8

struct _GraftContextWindow
{
  AdwWindow parent_instance;

  /* Owned */
  GraftDocument *document;

  /* Borrowed: children */
  GraftCanvas    *canvas;
  AdwWindowTitle *title;
  GtkSpinButton  *hops;

  guint match;
  guint n_shown;
};

G_DEFINE_FINAL_TYPE (GraftContextWindow, graft_context_window, ADW_TYPE_WINDOW)

static void
graft_context_window_dispose (GObject *object)
{
  GraftContextWindow *self = GRAFT_CONTEXT_WINDOW (object);

  g_clear_object (&self->document);
  G_OBJECT_CLASS (graft_context_window_parent_class)->dispose (object);
}

static void
graft_context_window_class_init (GraftContextWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = graft_context_window_dispose;
  /* A window to glance at: Escape and Ctrl+W close it. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close",
                                       NULL);
}

static void
graft_context_window_init (GraftContextWindow *self)
{
}

/* Marks the nodes within @hops edges of the match, breadth first, whole
 * rings at a time while they fit under MAX_SHOWN.  Returns how many. */
static guint
mark_neighbourhood (GraftGraph    *graph,
                    GraftDocument *document,
                    guint          match,
                    guint          hops,
                    gboolean      *shown,
                    gboolean      *out_limited)
{
  g_autoptr (GHashTable) index = g_hash_table_new (NULL, NULL);
  g_autoptr (GPtrArray) ring = g_ptr_array_new ();
  g_autoptr (GPtrArray) next = g_ptr_array_new ();
  g_autofree gboolean *queued = g_new0 (gboolean, MAX (graft_graph_get_n_nodes (graph), 1));
  guint                n_shown = 0;
  guint                i = 0;

  *out_limited = FALSE;
  for (GraftNode *n = graft_graph_get_first (graph); n != NULL; n = graft_node_get_next (n), i++)
    {
      g_hash_table_insert (index, n, GUINT_TO_POINTER (i));
      if (graft_document_get_match_of_node (document, graft_node_get_name (n)) == (gint) match)
        {
          shown[i] = TRUE;
          n_shown++;
          g_ptr_array_add (ring, n);
        }
    }
  for (guint h = 0; h < hops && ring->len > 0; h++)
    {
      g_ptr_array_set_size (next, 0);
      for (guint k = 0; k < ring->len; k++)
        {
          GraftNode *n = ring->pdata[k];
          g_autoptr (GPtrArray) neighbours = graft_node_dup_input_nodes (n);

          for (guint u = 0; u < graft_node_get_n_users (n); u++)
            g_ptr_array_add (neighbours, graft_node_get_user (n, u));
          for (guint a = 0; a < neighbours->len; a++)
            {
              guint j = GPOINTER_TO_UINT (g_hash_table_lookup (index, neighbours->pdata[a]));

              if (!shown[j] && !queued[j])
                {
                  queued[j] = TRUE;
                  g_ptr_array_add (next, neighbours->pdata[a]);
                }
            }
        }
      if (n_shown + next->len > MAX_SHOWN)
        {
          *out_limited = TRUE;
          break;
        }
      for (guint k = 0; k < next->len; k++)
        shown[GPOINTER_TO_UINT (g_hash_table_lookup (index, next->pdata[k]))] = TRUE;
      n_shown += next->len;
      g_ptr_array_set_size (ring, 0);
      g_ptr_array_extend (ring, next, NULL, NULL);
    }
  return n_shown;
}

static void
refresh (GraftContextWindow *self)
{
  GraftGraph          *graph = graft_document_get_graph (self->document);
  guint                n = graft_graph_get_n_nodes (graph);
  g_autofree gboolean *shown = g_new0 (gboolean, MAX (n, 1));
  guint                hops = (guint) gtk_spin_button_get_value_as_int (self->hops);
  g_autofree char     *title = g_strdup_printf ("Match %u in Context", self->match + 1);
  g_autofree char     *subtitle = NULL;
  g_autoptr (GraftLayoutRequest) request = NULL;
  g_autoptr (GError) error = NULL;
  GraftLayout *layout;
  gboolean     limited = FALSE;

  self->n_shown =
      self->match < graft_document_get_n_matches (self->document)
          ? mark_neighbourhood (graph, self->document, self->match, hops, shown, &limited)
          : 0;
  if (self->n_shown == 0)
    {
      adw_window_title_set_title (self->title, title);
      adw_window_title_set_subtitle (self->title, "This match is gone: the graph has changed");
      graft_canvas_set_layout (self->canvas, NULL, FALSE);
      return;
    }
  request = graft_layout_request_new_folded (graph, NULL, NULL, shown);
  layout = graft_layout_request_run (request, &error);
  if (layout == NULL)
    {
      adw_window_title_set_subtitle (self->title, error->message);
      return;
    }
  subtitle = g_strdup_printf (limited ? "%u nodes (the next ring would pass %u)"
                                      : "%u nodes within %u edges",
                              self->n_shown, limited ? MAX_SHOWN : hops);
  adw_window_title_set_title (self->title, title);
  adw_window_title_set_subtitle (self->title, subtitle);
  graft_canvas_set_layout (self->canvas, layout, FALSE);
  graft_canvas_set_marks (self->canvas, graft_document_dup_layout_marks (self->document, layout));
  gtk_window_set_title (GTK_WINDOW (self), title);
}

static void
hops_changed_cb (GtkSpinButton      *button,
                 GraftContextWindow *self)
{
  refresh (self);
}

/**
 * graft_context_window_new:
 * @parent: (nullable): the window it belongs to
 * @document: the document whose graph and matches to show
 * @match: a match of @document
 *
 * Returns: (transfer full): a window showing match @match and the nodes
 *   within two edges of it
 */
GtkWidget *
graft_context_window_new (GtkWindow     *parent,
                          GraftDocument *document,
                          guint          match)
{
  GraftContextWindow *self = g_object_new (GRAFT_TYPE_CONTEXT_WINDOW,
                                           "transient-for", parent,
                                           "default-width", 900,
                                           "default-height", 700,
                                           NULL);
  GtkWidget          *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget          *header = adw_header_bar_new ();
  GtkWidget          *hops_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget          *label = gtk_label_new_with_mnemonic ("_Hops");

  self->document = g_object_ref (document);
  self->match = match;
  self->title = ADW_WINDOW_TITLE (adw_window_title_new ("", ""));
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), GTK_WIDGET (self->title));
  self->hops = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (1, MAX_HOPS, 1));
  gtk_spin_button_set_value (self->hops, DEFAULT_HOPS);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->hops),
                               "How many edges away from the match to show");
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (self->hops));
  gtk_box_append (GTK_BOX (hops_box), label);
  gtk_box_append (GTK_BOX (hops_box), GTK_WIDGET (self->hops));
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), hops_box);
  /* A graph to walk from the keyboard, not a picture (graft-canvas-nav.c). */
  self->canvas = GRAFT_CANVAS (
      g_object_new (GRAFT_TYPE_CANVAS, "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP, NULL));
  gtk_widget_set_hexpand (GTK_WIDGET (self->canvas), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->canvas), TRUE);
  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->canvas));
  adw_window_set_content (ADW_WINDOW (self), box);
  refresh (self);
  g_signal_connect (self->hops, "value-changed", G_CALLBACK (hops_changed_cb), self);
  return GTK_WIDGET (self);
}

/**
 * graft_context_window_get_n_shown:
 * @self: a context window
 *
 * Returns: how many graph nodes it shows
 */
guint
graft_context_window_get_n_shown (GraftContextWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_CONTEXT_WINDOW (self), 0);
  return self->n_shown;
}

/**
 * graft_context_window_set_hops:
 * @self: a context window
 * @hops: how many edges around the match to show
 */
void
graft_context_window_set_hops (GraftContextWindow *self,
                               guint               hops)
{
  g_return_if_fail (GRAFT_IS_CONTEXT_WINDOW (self));
  gtk_spin_button_set_value (self->hops, hops);
  refresh (self);
}
