/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-export-bar.c: shows the export that runs (graft-export.c): what
 * it writes, how far it has got, and a Cancel button.  It is visible only
 * while it has an export; the window lays it over the canvas, so the
 * graph stays usable meanwhile.
 */
#include "config.h"

#include "graft-export-bar.h"

struct _GraftExportBar
{
  GtkWidget parent_instance;

  /* Owned */
  GraftExport *export;

  /* Children */
  GtkWidget      *box;
  GtkLabel       *label;
  GtkProgressBar *progress;
  GtkButton      *cancel;
};

G_DEFINE_FINAL_TYPE (GraftExportBar, graft_export_bar, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_EXPORT,
  N_PROPS,
};

static GParamSpec *properties[N_PROPS];

/**
 * graft_export_bar_new:
 *
 * Returns: (transfer full): a bar showing no export, hidden
 */
GtkWidget *
graft_export_bar_new (void)
{
  return g_object_new (GRAFT_TYPE_EXPORT_BAR, NULL);
}

static void
fraction_changed_cb (GraftExport *export,
                     GParamSpec     *pspec,
                     GraftExportBar *self)
{
  gtk_progress_bar_set_fraction (self->progress, graft_export_get_fraction (export));
}

static void
cancel_clicked_cb (GtkButton      *button,
                   GraftExportBar *self)
{
  if (self->export != NULL)
    graft_export_cancel (self->export);
  gtk_widget_set_sensitive (GTK_WIDGET (button), FALSE);
}

/**
 * graft_export_bar_set_export:
 * @self: a bar
 * @export: (nullable): the export to show; %NULL hides the bar
 */
void
graft_export_bar_set_export (GraftExportBar *self,
                             GraftExport *export)
{
  g_return_if_fail (GRAFT_IS_EXPORT_BAR (self));
  g_return_if_fail (export == NULL || GRAFT_IS_EXPORT (export));

  if (export == self->export)
    return;
  if (self->export != NULL)
    g_signal_handlers_disconnect_by_func (self->export, fraction_changed_cb, self);
  g_set_object (&self->export, export);
  if (export != NULL)
    {
      g_autofree char *base = g_file_get_basename (graft_export_get_file (export));
      g_autofree char *text = g_strdup_printf ("Exporting %s…", base);

      gtk_label_set_text (self->label, text);
      g_signal_connect_object (export, "notify::fraction", G_CALLBACK (fraction_changed_cb), self,
                               0);
      fraction_changed_cb (export, NULL, self);
      gtk_widget_set_sensitive (GTK_WIDGET (self->cancel), TRUE);
    }
  gtk_widget_set_visible (GTK_WIDGET (self), export != NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXPORT]);
}

/**
 * graft_export_bar_get_export:
 * @self: a bar
 *
 * Returns: (transfer none) (nullable): the export shown
 */
GraftExport *
graft_export_bar_get_export (GraftExportBar *self)
{
  g_return_val_if_fail (GRAFT_IS_EXPORT_BAR (self), NULL);
  return self->export;
}

/**
 * graft_export_bar_get_cancel_button:
 * @self: a bar
 *
 * Returns: (transfer none): its Cancel button
 */
GtkButton *
graft_export_bar_get_cancel_button (GraftExportBar *self)
{
  g_return_val_if_fail (GRAFT_IS_EXPORT_BAR (self), NULL);
  return self->cancel;
}

/**
 * graft_export_bar_get_shown_fraction:
 * @self: a bar
 *
 * Returns: the fraction its progress bar shows
 */
double
graft_export_bar_get_shown_fraction (GraftExportBar *self)
{
  g_return_val_if_fail (GRAFT_IS_EXPORT_BAR (self), 0);
  return gtk_progress_bar_get_fraction (self->progress);
}

static void
graft_export_bar_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  GraftExportBar *self = GRAFT_EXPORT_BAR (object);

  switch (prop_id)
    {
    case PROP_EXPORT:
      g_value_set_object (value, self->export);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
graft_export_bar_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  GraftExportBar *self = GRAFT_EXPORT_BAR (object);

  switch (prop_id)
    {
    case PROP_EXPORT:
      graft_export_bar_set_export (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
graft_export_bar_dispose (GObject *object)
{
  GraftExportBar *self = GRAFT_EXPORT_BAR (object);

  if (self->export != NULL)
    g_signal_handlers_disconnect_by_func (self->export, fraction_changed_cb, self);
  g_clear_object (&self->export);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (graft_export_bar_parent_class)->dispose (object);
}

static void
graft_export_bar_class_init (GraftExportBarClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = graft_export_bar_dispose;
  object_class->get_property = graft_export_bar_get_property;
  object_class->set_property = graft_export_bar_set_property;

  /**
   * GraftExportBar:export:
   *
   * The export shown, or %NULL.
   */
  properties[PROP_EXPORT] =
      g_param_spec_object ("export", NULL, NULL, GRAFT_TYPE_EXPORT,
                           G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "graftexportbar");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
graft_export_bar_init (GraftExportBar *self)
{
  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_add_css_class (self->box, "osd");
  gtk_widget_add_css_class (self->box, "toolbar");
  gtk_widget_add_css_class (self->box, "export-bar");
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->label, PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (self->label, 32);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->label));

  self->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_widget_set_valign (GTK_WIDGET (self->progress), GTK_ALIGN_CENTER);
  gtk_widget_set_size_request (GTK_WIDGET (self->progress), 160, -1);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->progress));

  self->cancel = GTK_BUTTON (gtk_button_new_with_mnemonic ("_Cancel"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->cancel), "Stop the export; no file is left");
  g_signal_connect (self->cancel, "clicked", G_CALLBACK (cancel_clicked_cb), self);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->cancel));

  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}
