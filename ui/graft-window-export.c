/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-window-export.c: the window's exports.
 *
 * - Export… (win.export) and Export Current View… (win.export-view) open
 *   one file chooser: its filters are the formats (PNG, SVG, PDF, DOT,
 *   Python code, FX listing), and for pictures a choice says what is
 *   drawn: the whole graph unfolded, the graph as the canvas folds it (when
 *   it does), or the visible area at the canvas's zoom.  The PNG filter's
 *   name says beforehand what a PNG can hold of what the window would
 *   draw by default (`PNG Image (whole graph at 4 %, text unreadable)`).
 * - Export Match List… (win.export-matches) writes the matches as
 *   `graft match --json` prints them, byte for byte.
 *
 * Every export runs as a GraftExport: the file chooser has closed before
 * it starts, it makes its text by steps (a picture its marks) and writes
 * on a worker thread while a bar over the canvas shows its progress and
 * offers Cancel, and a toast tells the outcome (an edit of the graph
 * while a text is made cancels it, and the toast says so).
 * One export runs at a time: the export actions are disabled meanwhile.
 */
#include "config.h"

#include "graft-window-private.h"

#include <string.h>

#define EXPORT_TITLE  "Export the Graph"
#define MATCHES_TITLE "Export the Match List"

/* The formats the export dialog offers, each as a filter, in its order. */
static const GraftFormat export_formats[] = {
  GRAFT_FORMAT_PNG,
  GRAFT_FORMAT_SVG,
  GRAFT_FORMAT_PDF,
  GRAFT_FORMAT_DOT,
  GRAFT_FORMAT_CODE,
  GRAFT_FORMAT_GRAPH,
};

/* The scope choice's options, in GraftExportScope's order. */
static const char *const scope_ids[] = { "whole", "folded", "view" };
static const char *const scope_labels[] = { "Whole graph", "Graph as folded", "Visible area" };

/* The export format @name's extension names, if it is one of the
 * dialog's. */
static gboolean
export_format_from_name (const char  *name,
                         GraftFormat *out_format)
{
  GraftFormat format;

  if (name == NULL || !graft_format_from_path (name, &format))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (export_formats); i++)
    if (export_formats[i] == format)
      {
        *out_format = format;
        return TRUE;
      }
  return FALSE;
}

/* The format of the export dialog's chosen filter, by its name (which is
 * what a portal hands back), which starts with the format's description;
 * PNG if none is chosen. */
static GraftFormat
export_format_from_filter (GtkFileChooser *chooser)
{
  GtkFileFilter *filter = gtk_file_chooser_get_filter (chooser);
  const char    *name = filter != NULL ? gtk_file_filter_get_name (filter) : NULL;

  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (export_formats); i++)
    if (g_str_has_prefix (name, graft_format_get_description (export_formats[i])))
      return export_formats[i];
  return GRAFT_FORMAT_PNG;
}

/* Choosing a filter renames the file to the filter's extension, as GNOME's
 * applications do, when the name ends in an export format's extension or
 * in none; a name with another extension (a listing as `.txt`) is left as
 * the user typed it. */
static void
export_filter_changed_cb (GtkFileChooser *chooser,
                          GParamSpec     *pspec,
                          gpointer        user_data)
{
  g_autofree char *name = gtk_file_chooser_get_current_name (chooser);
  GraftFormat      format = export_format_from_filter (chooser);
  GraftFormat      named;
  g_autofree char *renamed = NULL;
  char            *base;
  char            *dot;

  if (name == NULL || name[0] == '\0' || gtk_file_chooser_get_filter (chooser) == NULL)
    return;
  /* The name may be a path: its extension is its last part's. */
  base = strrchr (name, G_DIR_SEPARATOR);
  base = base != NULL ? base + 1 : name;
  dot = strrchr (base, '.');
  if (dot != NULL && dot != base && !export_format_from_name (base, &named))
    return;
  if (dot != NULL && dot != base)
    *dot = '\0';
  renamed = g_strdup_printf ("%s.%s", name, graft_format_get_extension (format));
  if (g_strcmp0 (renamed, name) != 0)
    gtk_file_chooser_set_current_name (chooser, renamed);
}

/* GtkFileChooserNative does not tell when its filter changes; GTK's own
 * dialog, which it shows where there is no portal, does.  That dialog is
 * the file chooser dialog on screen for @self; a portal's dialog is out
 * of reach, and there the name the user leaves decides (see
 * export_target()). */
static void
follow_filter (GraftWindow *self)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER_DIALOG (item) && gtk_widget_get_visible (GTK_WIDGET (item)) &&
          gtk_window_get_transient_for (GTK_WINDOW (item)) == GTK_WINDOW (self) &&
          g_strcmp0 (gtk_window_get_title (GTK_WINDOW (item)), EXPORT_TITLE) == 0 &&
          g_object_get_data (item, "graft-follows-filter") == NULL)
        {
          g_object_set_data (item, "graft-follows-filter", GINT_TO_POINTER (TRUE));
          g_signal_connect (item, "notify::filter", G_CALLBACK (export_filter_changed_cb), NULL);
        }
    }
}

/* What an export of @file writes, in @out_format: the filter's format,
 * to the file the user named, with the filter's extension added when the
 * name has none.  A name that ends in another export format's extension
 * wins, as the user typed it and will see it: the file is what its name
 * says, and @out_note says so (else %NULL). */
static GFile *
export_target (GFile       *file,
               GraftFormat  filter_format,
               GraftFormat *out_format,
               char       **out_note)
{
  g_autofree char *base = g_file_get_basename (file);
  GraftFormat      named;

  *out_note = NULL;
  *out_format = filter_format;
  if (export_format_from_name (base, &named))
    {
      if (named != filter_format)
        *out_note = g_strdup_printf ("as its name says (%s), not as the chosen %s",
                                     graft_format_get_description (named),
                                     graft_format_get_description (filter_format));
      *out_format = named;
      return g_object_ref (file);
    }
  if (strchr (base, '.') == NULL || base[0] == '.')
    {
      g_autoptr (GFile) parent = g_file_get_parent (file);
      g_autofree char *named_base =
          g_strdup_printf ("%s.%s", base, graft_format_get_extension (filter_format));

      if (parent != NULL)
        return g_file_get_child (parent, named_base);
    }
  return g_object_ref (file);
}

/* Whether the canvas shows a current layout of the whole graph, unfolded:
 * then it is what a picture of the whole graph draws. */
static gboolean
canvas_shows_whole (GraftWindow *self)
{
  GraftLayout *layout = graft_canvas_get_layout (self->canvas);
  guint        n;

  if (layout == NULL || self->busy || graft_layout_runner_get_pending (self->layout_runner))
    return FALSE;
  n = graft_layout_get_n_graph_nodes (layout);
  if (n != graft_graph_get_n_nodes (graft_document_get_graph (self->document)))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      gint box = graft_layout_lookup (layout, i);

      if (box < 0 || graft_layout_get_node (layout, (guint) box)->n_members > 0)
        return FALSE;
    }
  return TRUE;
}

/* Whether the canvas folds some module into one box. */
static gboolean
canvas_folds (GraftWindow *self)
{
  GraftLayout *layout = graft_canvas_get_layout (self->canvas);

  if (layout == NULL)
    return FALSE;
  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    if (graft_layout_get_node (layout, b)->n_members > 0)
      return TRUE;
  return FALSE;
}

/* The visible area of the canvas at its zoom: @out_area's scale is the
 * canvas's, doubled for PNG as whole pictures are. */
static gboolean
view_area (GraftWindow     *self,
           GraftFormat      format,
           GraftRenderArea *out_area)
{
  int    width = gtk_widget_get_width (GTK_WIDGET (self->canvas));
  int    height = gtk_widget_get_height (GTK_WIDGET (self->canvas));
  double zoom = graft_canvas_get_zoom (self->canvas);
  double x2;
  double y2;

  if (graft_canvas_get_layout (self->canvas) == NULL || width <= 0 || height <= 0)
    return FALSE;
  graft_canvas_widget_to_layout (self->canvas, 0, 0, &out_area->region.x, &out_area->region.y);
  graft_canvas_widget_to_layout (self->canvas, width, height, &x2, &y2);
  out_area->region.width = x2 - out_area->region.x;
  out_area->region.height = y2 - out_area->region.y;
  out_area->scale = format == GRAFT_FORMAT_PNG ? 2 * zoom : zoom;
  return TRUE;
}

/* The scope a picture has unless the user chooses another: what the
 * canvas shows whole. */
static GraftExportScope
default_scope (GraftWindow *self)
{
  return canvas_folds (self) ? GRAFT_EXPORT_SCOPE_FOLDED : GRAFT_EXPORT_SCOPE_WHOLE;
}

/* What a PNG of @scope can hold, for the PNG filter's name, or %NULL when
 * it holds everything at full size or that is not known beforehand (the
 * whole graph while the canvas shows another layout). */
static char *
describe_png (GraftWindow     *self,
              GraftExportScope scope)
{
  GraftLayout     *layout = graft_canvas_get_layout (self->canvas);
  GraftRenderArea  area = { { 0, 0, 0, 0 }, 0 };
  GraftRenderFit   fit;
  g_autofree char *how = NULL;
  const char      *what = scope == GRAFT_EXPORT_SCOPE_VIEW     ? "visible area"
                          : scope == GRAFT_EXPORT_SCOPE_FOLDED ? "graph as folded"
                                                               : "whole graph";

  if (layout == NULL || (scope == GRAFT_EXPORT_SCOPE_WHOLE && !canvas_shows_whole (self)))
    return NULL;
  if (scope == GRAFT_EXPORT_SCOPE_VIEW)
    view_area (self, GRAFT_FORMAT_PNG, &area);
  else
    graft_layout_get_size (layout, &area.region.width, &area.region.height);
  if (!graft_render_fit (GRAFT_FORMAT_PNG, area.region.width, area.region.height, area.scale, &fit,
                         NULL))
    return g_strdup_printf ("%s too large: use SVG, PDF or the visible area", what);
  if (!fit.scaled)
    return NULL;
  how = graft_render_fit_describe (&fit);
  return g_strdup_printf ("%s at %s", what, how);
}

/* The export running ended: the bar goes, the actions come back, a toast
 * says what happened. */
typedef struct
{
  GWeakRef window; /* a window closed meanwhile cancelled the export */
  char    *note;   /* the name-versus-filter note, or NULL */
} Done;

static void
export_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GraftExport *export = GRAFT_EXPORT (object);
  Done *done = user_data;
  g_autoptr (GraftWindow) self = g_weak_ref_get (&done->window);
  g_autoptr (GError) error = NULL;
  g_autofree char *base = g_file_get_basename (graft_export_get_file (export));
  gboolean         ok = graft_export_run_finish (export, result, &error);
  GraftRenderFit   fit;

  if (self != NULL && self->export == export)
    {
      g_clear_object (&self->export);
      graft_export_bar_set_export (self->export_bar, NULL);
      _graft_window_update_actions (self);
      if (ok)
        {
          g_autoptr (GString) text = g_string_new (NULL);

          g_string_printf (text, "Exported %s", base);
          if (done->note != NULL)
            g_string_append_printf (text, " %s", done->note);
          if (graft_export_get_fit (export, &fit) && fit.scaled)
            {
              g_autofree char *how = graft_render_fit_describe (&fit);

              g_string_append_printf (text, " (drawn at %s)", how);
            }
          _graft_window_toast (self, text->str, FALSE);
        }
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
               graft_export_get_graph_changed (export))
        _graft_window_toast (self, "Export cancelled: the graph changed while it was written",
                             FALSE);
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _graft_window_toast (self, "Export cancelled", FALSE);
      else if (strstr (error->message, base) == NULL)
        {
          /* The toast names the file, as the old one is left as it was. */
          g_autofree char *text = g_strdup_printf ("Export failed: %s: %s", base, error->message);

          _graft_window_toast (self, text, FALSE);
        }
      else
        _graft_window_report_error (self, "Export failed", error);
    }
  g_weak_ref_clear (&done->window);
  g_free (done->note);
  g_free (done);
}

/* Runs @export (taken), showing it in the bar. */
static void
start (GraftWindow *self,
       GraftExport *export,
       const char *note)
{
  Done *done = g_new0 (Done, 1);

  g_return_if_fail (self->export == NULL);
  self->export = export;
  g_weak_ref_init (&done->window, self);
  done->note = g_strdup (note);
  graft_export_bar_set_export (self->export_bar, export);
  _graft_window_update_actions (self);
  graft_export_run_async (export, export_done_cb, done);
}

/* The export of @format (with @scope for a picture) to @file, or %NULL
 * with @error set. */
static GraftExport *
new_export (GraftWindow     *self,
            GFile           *file,
            GraftFormat      format,
            GraftExportScope scope,
            gboolean         highlights,
            GError         **error)
{
  gboolean        dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GraftLayout    *layout = graft_canvas_get_layout (self->canvas);
  GraftRenderArea area = { { 0, 0, 0, 0 }, 0 };

  switch (format)
    {
    case GRAFT_FORMAT_CODE:
      /* A Python file, as Save writes it; `graft code` keeps torch's text. */
    case GRAFT_FORMAT_GRAPH:
    case GRAFT_FORMAT_JSON:
    case GRAFT_FORMAT_DOT:
      /* Made by steps when it runs, of the graph as it is then. */
      return graft_export_new_graph_text (self->document, file, format, highlights);
    case GRAFT_FORMAT_PNG:
    case GRAFT_FORMAT_SVG:
    case GRAFT_FORMAT_PDF:
      break;
    case GRAFT_FORMAT_READABLE:
    default:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "the editor does not export %s",
                   graft_format_get_description (format));
      return NULL;
    }

  if (scope == GRAFT_EXPORT_SCOPE_WHOLE && !canvas_shows_whole (self))
    return graft_export_new_whole (self->document, file, format, highlights, dark);
  if (layout == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no graph is drawn");
      return NULL;
    }
  if (scope == GRAFT_EXPORT_SCOPE_VIEW && !view_area (self, format, &area))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "the canvas is not shown");
      return NULL;
    }
  return graft_export_new_picture (self->document, file, format, layout, &area, highlights, dark);
}

/**
 * graft_window_export:
 * @self: a window
 * @file: where to write
 * @format: what to write
 * @scope: what a picture shows (ignored by other formats)
 * @highlights: pictures and DOT: mark the matches
 * @error: return location for an error
 *
 * Starts an export, as the export dialog does once it has closed: it runs
 * off the main loop, graft_window_get_export() returns it meanwhile, and
 * a toast tells how it ended.
 *
 * Returns: whether it started (not when another export runs)
 */
gboolean
graft_window_export (GraftWindow     *self,
                     GFile           *file,
                     GraftFormat      format,
                     GraftExportScope scope,
                     gboolean         highlights,
                     GError         **error)
{
  GraftExport *export;

  g_return_val_if_fail (GRAFT_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->export != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY, "another export is running");
      return FALSE;
    }
  export = new_export (self, file, format, scope, highlights, error);
  if (export == NULL)
    return FALSE;
  start (self, export, NULL);
  return TRUE;
}

/**
 * graft_window_export_matches:
 * @self: a window
 * @file: where to write
 * @error: return location for an error
 *
 * Starts writing the matches as `graft match --json` prints them for the
 * same input, pattern and torch, as graft_window_export() does.
 *
 * Returns: whether it started
 */
gboolean
graft_window_export_matches (GraftWindow *self,
                             GFile       *file,
                             GError     **error)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->export != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY, "another export is running");
      return FALSE;
    }
  start (self, graft_export_new_match_list (self->document, file), NULL);
  return TRUE;
}

/**
 * graft_window_get_export:
 * @self: a window
 *
 * Returns: (transfer none) (nullable): the export running
 */
GraftExport *
graft_window_get_export (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), NULL);
  return self->export;
}

/**
 * graft_window_get_export_bar:
 * @self: a window
 *
 * Returns: (transfer none): the bar that shows the export running
 */
GraftExportBar *
graft_window_get_export_bar (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), NULL);
  return self->export_bar;
}

static GraftExportScope
scope_from_choice (GtkFileChooser *chooser)
{
  const char *id = gtk_file_chooser_get_choice (chooser, "scope");

  for (guint i = 0; i < G_N_ELEMENTS (scope_ids); i++)
    if (g_strcmp0 (id, scope_ids[i]) == 0)
      return (GraftExportScope) i;
  return GRAFT_EXPORT_SCOPE_WHOLE;
}

static void
export_response_cb (GtkNativeDialog *dialog,
                    int              response,
                    GraftWindow     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      GtkFileChooser *chooser = GTK_FILE_CHOOSER (dialog);
      g_autoptr (GFile) chosen = gtk_file_chooser_get_file (chooser);
      const char *highlights = gtk_file_chooser_get_choice (chooser, "highlights");
      g_autoptr (GError) error = NULL;
      g_autofree char *note = NULL;
      GraftFormat      format;
      g_autoptr (GFile) file =
          export_target (chosen, export_format_from_filter (chooser), &format, &note);
      GraftExportScope scope = scope_from_choice (chooser);
      gboolean         marked = g_strcmp0 (highlights, "true") == 0;
      GraftExport *export = NULL;

      /* The dialog is gone from the screen before the export starts. */
      gtk_native_dialog_hide (dialog);
      if (self->export != NULL)
        g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_BUSY, "another export is running");
      else
        export = new_export (self, file, format, scope, marked, &error);
      if (export == NULL)
        _graft_window_report_error (self, "Export failed", error);
      else
        {
          g_autoptr (GFile) folder = g_file_get_parent (file);

          g_set_object (&self->export_folder, folder);
          for (guint i = 0; i < G_N_ELEMENTS (export_formats); i++)
            if (export_formats[i] == format)
              self->export_format = i;
          start (self, export, note);
        }
    }
  g_object_unref (dialog);
}

/* The export dialog: one filter per format, the chosen one the format
 * written (the window's last export's, PNG at first), whether pictures
 * and DOT mark the matches, and what a picture shows (@scope first). */
static void
open_export_dialog (GraftWindow     *self,
                    GraftExportScope scope)
{
  GtkFileChooserNative *dialog =
      gtk_file_chooser_native_new (EXPORT_TITLE, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                   "_Export", "_Cancel");
  g_autofree char *name = NULL;
  /* The note is about the graph, which the visible area never is. */
  g_autofree char *png_note = describe_png (self, default_scope (self));
  g_autoptr (GPtrArray) ids = g_ptr_array_new ();
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();
  GFile      *file = graft_document_get_file (self->document);
  const char *extension = graft_format_get_extension (export_formats[self->export_format]);

  for (guint i = 0; i < G_N_ELEMENTS (export_formats); i++)
    {
      g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();
      g_autofree char *pattern =
          g_strdup_printf ("*.%s", graft_format_get_extension (export_formats[i]));
      const char      *description = graft_format_get_description (export_formats[i]);
      g_autofree char *filter_name = export_formats[i] == GRAFT_FORMAT_PNG && png_note != NULL
                                         ? g_strdup_printf ("%s (%s)", description, png_note)
                                         : g_strdup (description);

      gtk_file_filter_set_name (filter, filter_name);
      gtk_file_filter_add_pattern (filter, pattern);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
      if (i == self->export_format)
        gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (dialog), filter);
    }
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (dialog), "highlights", "Highlight matches", NULL,
                               NULL);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (dialog), "highlights", "true");
  /* What a picture shows, @scope first: GTK 4.8's own dialog ignores
   * gtk_file_chooser_set_choice() for a choice of options, and shows the
   * first.  "As folded" is offered only when the canvas folds. */
  g_ptr_array_add (ids, (gpointer) scope_ids[scope]);
  g_ptr_array_add (labels, (gpointer) scope_labels[scope]);
  for (guint i = 0; i < G_N_ELEMENTS (scope_ids); i++)
    if (i != scope && (i != GRAFT_EXPORT_SCOPE_FOLDED || canvas_folds (self)))
      {
        g_ptr_array_add (ids, (gpointer) scope_ids[i]);
        g_ptr_array_add (labels, (gpointer) scope_labels[i]);
      }
  g_ptr_array_add (ids, NULL);
  g_ptr_array_add (labels, NULL);
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (dialog), "scope", "Picture of",
                               (const char **) ids->pdata, (const char **) labels->pdata);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (dialog), "scope", scope_ids[scope]);
  if (file != NULL)
    {
      g_autofree char *base = g_file_get_basename (file);
      char            *dot = strrchr (base, '.');

      if (dot != NULL)
        *dot = '\0';
      name = g_strdup_printf ("%s%s.%s", base, scope == GRAFT_EXPORT_SCOPE_VIEW ? "-view" : "",
                              extension);
    }
  else
    name = g_strdup_printf ("%s.%s", scope == GRAFT_EXPORT_SCOPE_VIEW ? "view" : "graph",
                            extension);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  /* Where the last export went, else beside the graph's file (not the
   * working folder, which for a launched application is the home). */
  {
    g_autoptr (GFile) folder = self->export_folder != NULL ? g_object_ref (self->export_folder)
                               : file != NULL              ? g_file_get_parent (file)
                                                           : NULL;

    if (folder != NULL)
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL);
  }
  g_signal_connect (dialog, "response", G_CALLBACK (export_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
  follow_filter (self);
}

static void
export_cb (GSimpleAction *action,
           GVariant      *param,
           gpointer       user_data)
{
  GraftWindow *self = user_data;

  open_export_dialog (self, default_scope (self));
}

static void
export_view_cb (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  open_export_dialog (user_data, GRAFT_EXPORT_SCOPE_VIEW);
}

static void
export_matches_response_cb (GtkNativeDialog *dialog,
                            int              response,
                            GraftWindow     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr (GError) error = NULL;

      gtk_native_dialog_hide (dialog);
      if (!graft_window_export_matches (self, file, &error))
        _graft_window_report_error (self, "Export failed", error);
    }
  g_object_unref (dialog);
}

static void
export_matches_cb (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  GraftWindow          *self = user_data;
  GtkFileChooserNative *dialog =
      gtk_file_chooser_native_new (MATCHES_TITLE, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                   "_Export", "_Cancel");
  GFile                   *file = graft_document_get_file (self->document);
  g_autofree char         *name = NULL;
  static const char *const patterns[] = { "*.json", NULL };

  _graft_window_add_filter (GTK_FILE_CHOOSER (dialog), "Match List (graft match --json)",
                            patterns);
  if (file != NULL)
    {
      g_autofree char *base = g_file_get_basename (file);
      char            *dot = strrchr (base, '.');

      if (dot != NULL)
        *dot = '\0';
      name = g_strdup_printf ("%s-matches.json", base);
    }
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog),
                                     name != NULL ? name : "matches.json");
  g_signal_connect (dialog, "response", G_CALLBACK (export_matches_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static const GActionEntry entries[] = {
  { "export", export_cb },
  { "export-view", export_view_cb },
  { "export-matches", export_matches_cb },
};

/**
 * _graft_window_init_export:
 * @self: a window
 *
 * Adds the export actions, and the bar that shows an export running over
 * the canvas.
 */
void
_graft_window_init_export (GraftWindow *self)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self->canvas), GTK_TYPE_OVERLAY);

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  self->export_bar = GRAFT_EXPORT_BAR (graft_export_bar_new ());
  /* At the top, clear of the zoom controls and of the toasts below. */
  gtk_widget_set_halign (GTK_WIDGET (self->export_bar), GTK_ALIGN_CENTER);
  gtk_widget_set_valign (GTK_WIDGET (self->export_bar), GTK_ALIGN_START);
  gtk_widget_set_margin_top (GTK_WIDGET (self->export_bar), 12);
  gtk_widget_set_margin_start (GTK_WIDGET (self->export_bar), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->export_bar), 12);
  g_assert (overlay != NULL);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), GTK_WIDGET (self->export_bar));
}

/**
 * _graft_window_update_export:
 * @self: a window
 * @has_graph: whether there is a graph to export
 *
 * Enables the exports that can start now: none while one runs.
 */
void
_graft_window_update_export (GraftWindow *self,
                             gboolean     has_graph)
{
  gboolean idle = self->export == NULL;
  GAction *action;

  action = g_action_map_lookup_action (G_ACTION_MAP (self), "export");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), has_graph && idle);
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "export-view");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action),
                               has_graph && idle && graft_canvas_get_layout (self->canvas) != NULL);
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "export-matches");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action),
                               has_graph && idle &&
                                   graft_document_get_pattern (self->document) != NULL);
}

/**
 * _graft_window_dispose_export:
 * @self: a window going away
 *
 * Cancels the export running, which then leaves no file.
 */
void
_graft_window_dispose_export (GraftWindow *self)
{
  if (self->export != NULL)
    graft_export_cancel (self->export);
  g_clear_object (&self->export);
  g_clear_object (&self->export_folder);
}
