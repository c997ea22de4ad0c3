/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-window-entry.c: the choice of model, for a Python file with more
 * than one (the CLI's `--entry`).  A drop-down in the header, shown only
 * for such a file, lists the classes that define forward; choosing one
 * reads the file again, tracing that class, as Open would (in place, or
 * in a new window when this one has unsaved changes, the pattern and
 * replacement coming along: graft-window-open.c).  The choice is
 * remembered per file for the rest of the session: opening the file again,
 * in any window, traces the class chosen last.
 */
#include "config.h"

#include "graft-window-private.h"

/* File URI -> the class chosen for it, for as long as the process runs. */
static GHashTable *chosen;

/**
 * _graft_window_entry_for:
 * @file: a file about to be read
 *
 * Returns: (nullable): the class chosen for @file earlier in the session,
 *   or %NULL for its first
 */
const char *
_graft_window_entry_for (GFile *file)
{
  g_autofree char *uri = g_file_get_uri (file);

  return chosen != NULL ? g_hash_table_lookup (chosen, uri) : NULL;
}

static void
entry_selected_cb (GtkDropDown *dropdown,
                   GParamSpec  *pspec,
                   GraftWindow *self)
{
  GFile             *file = graft_document_get_file (self->document);
  const char *const *models = graft_document_get_models (self->document);
  guint              selected = gtk_drop_down_get_selected (dropdown);
  const char        *current = graft_document_get_entry (self->document);

  if (self->updating_entry || file == NULL || selected >= g_strv_length ((char **) models))
    return;
  if (g_strcmp0 (models[selected], current != NULL ? current : models[0]) == 0)
    return;
  if (chosen == NULL)
    chosen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_replace (chosen, g_file_get_uri (file), g_strdup (models[selected]));
  /* In a new window, this one keeps its graph and shows its own class. */
  if (_graft_window_open_from (self, file) != self)
    _graft_window_update_entry (self);
}

/**
 * _graft_window_update_entry:
 * @self: a window
 *
 * Shows the drop-down for a file with several models, on the class the
 * graph was traced from.
 */
void
_graft_window_update_entry (GraftWindow *self)
{
  const char *const *models = graft_document_get_models (self->document);
  const char        *entry = graft_document_get_entry (self->document);
  guint              n = g_strv_length ((char **) models);
  g_autoptr (GtkStringList) list = gtk_string_list_new (models);
  guint selected = 0;

  for (guint i = 0; entry != NULL && i < n; i++)
    if (g_strcmp0 (models[i], entry) == 0)
      selected = i;
  self->updating_entry = TRUE;
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->entry_dropdown), G_LIST_MODEL (list));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->entry_dropdown), selected);
  self->updating_entry = FALSE;
  gtk_widget_set_visible (self->entry_dropdown, n >= 2);
}

/**
 * _graft_window_init_entry:
 * @self: a window
 *
 * Adds the drop-down to the start of the header bar, hidden.
 */
void
_graft_window_init_entry (GraftWindow *self)
{
  GtkWidget *header = gtk_widget_get_ancestor (GTK_WIDGET (self->window_title),
                                               ADW_TYPE_HEADER_BAR);

  self->entry_dropdown = gtk_drop_down_new (NULL, NULL);
  gtk_widget_set_tooltip_text (self->entry_dropdown,
                               "The Model to Trace: this file defines several");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry_dropdown),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, "Model to trace", -1);
  gtk_widget_set_visible (self->entry_dropdown, FALSE);
  g_signal_connect_object (self->entry_dropdown, "notify::selected",
                           G_CALLBACK (entry_selected_cb), self, 0);
  if (header != NULL)
    adw_header_bar_pack_start (ADW_HEADER_BAR (header), self->entry_dropdown);
}
