/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-export.c: the editor's exports under a display (Xvfb in CI).
 *
 * - The visible area: a PNG of the canvas's size at twice its zoom, equal
 *   pixel for pixel to drawing that area with the core's renderer, and an
 *   SVG holding fewer boxes than the whole graph's.
 * - The graph as folded is the canvas's layout whole; the whole graph,
 *   while the canvas folds, is laid out unfolded by the export itself.
 * - A PNG too tall for cairo is scaled: the export dialog's PNG filter
 *   says so before, the toast after.
 * - Cancel, from the bar over the canvas, leaves no file and no temporary
 *   file; progress rises to 1 through the bar while the file is written.
 * - The match list is what `graft match --json` prints, byte for byte.
 * - An unwritable path is a toast, and the next export works.
 * - The text exports (code, listing, JSON, DOT, the match list) are made
 *   over main-loop turns and write what the one-go printers write, byte
 *   for byte; an edit of the graph meanwhile cancels the export, which
 *   says so and leaves no file; a failed rename leaves no temporary file;
 *   a window closed during one lets it end without a file.
 * - Save As of a session writes it off the main loop, as the document was
 *   when saved: an edit meanwhile is not in the file and leaves the
 *   document modified; a failed write names the file and leaves no
 *   temporary file; a window closed meanwhile still gets its file.
 */
#include "config.h"

#include "example.h"
#include "window-util.h"
#include "test-util.h"

#include "graft-application.h"
#include "graft-canvas.h"
#include "graft-document.h"
#include "graft-document-private.h"
#include "graft-export.h"
#include "graft-session.h"
#include "graft-window.h"
#include "graft-window-private.h"

#include <glib/gstdio.h>
#include <string.h>

static gboolean
is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
}

static gboolean
export_done (gpointer data)
{
  return graft_window_get_export (data) == NULL;
}

/* A chain of @n calls (relu and a product by turns) as @dir/chain.py. */
static char *
write_chain (const char *dir,
             guint       n)
{
  g_autoptr (GString) text = g_string_new ("import torch\n\n\nclass Chain(torch.nn.Module):\n"
                                           "    def forward(self, x):\n");
  char *path = g_build_filename (dir, "chain.py", NULL);

  for (guint i = 0; i < n; i++)
    g_string_append (text, i % 2 == 0 ? "        x = torch.relu(x)\n" : "        x = x * 2\n");
  g_string_append (text, "        return x\n");
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  return path;
}

/* Exports with graft_window_export() and waits for the end; returns the
 * path written in @dir. */
static char *
export_and_wait (GraftWindow     *window,
                 const char      *dir,
                 const char      *name,
                 GraftFormat      format,
                 GraftExportScope scope)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;

  g_assert_true (graft_window_export (window, file, format, scope, TRUE, &error));
  g_assert_no_error (error);
  g_assert_nonnull (graft_window_get_export (window));
  iterate_until (export_done, window);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  return path;
}

static void
png_size (const char *path,
          int        *out_width,
          int        *out_height)
{
  cairo_surface_t *surface = cairo_image_surface_create_from_png (path);

  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  *out_width = cairo_image_surface_get_width (surface);
  *out_height = cairo_image_surface_get_height (surface);
  cairo_surface_destroy (surface);
}

/* The visible area, zoomed in on the first match: a PNG of twice the
 * canvas's size, the same pixels as the renderer draws for that area with
 * the matches marked, and fewer boxes in an SVG than the whole graph. */
static void
test_view (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  g_autofree char *example = example_path ();
  GraftWindow     *window = open_path (example);
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  GraftDocument   *document = graft_window_get_document (window);
  GraftLayout     *layout = graft_canvas_get_layout (canvas);
  g_autoptr (GPtrArray) nodes = graft_match_dup_nodes (graft_document_get_match (document, 0));
  int                width = gtk_widget_get_width (GTK_WIDGET (canvas));
  int                height = gtk_widget_get_height (GTK_WIDGET (canvas));
  g_autofree char   *png = NULL;
  g_autofree char   *svg = NULL;
  g_autofree char   *whole = NULL;
  g_autofree char   *svg_text = NULL;
  g_autofree char   *whole_text = NULL;
  g_autofree gint   *marks = NULL;
  double             x1, y1, x2, y2, layout_height;
  cairo_surface_t   *read;
  cairo_surface_t   *expected;
  cairo_t           *cr;
  GraftRenderOptions options;

  graft_canvas_set_zoom (canvas, 3.0);
  graft_canvas_center_on (canvas, graft_node_get_name (nodes->pdata[0]));
  iterate_pending ();
  graft_canvas_widget_to_layout (canvas, 0, 0, &x1, &y1);
  graft_canvas_widget_to_layout (canvas, width, height, &x2, &y2);
  graft_layout_get_size (layout, NULL, &layout_height);
  g_assert_cmpfloat (y2 - y1, <, layout_height);

  png = export_and_wait (window, dir, "view.png", GRAFT_FORMAT_PNG, GRAFT_EXPORT_SCOPE_VIEW);
  g_assert_cmpstr (graft_window_get_last_toast (window), ==, "Exported view.png");
  read = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_image_surface_get_width (read), ==, 2 * width);
  g_assert_cmpint (cairo_image_surface_get_height (read), ==, 2 * height);

  /* The renderer, on the same area at the same scale, with the marks. */
  expected = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 2 * width, 2 * height);
  cr = cairo_create (expected);
  cairo_scale (cr, 6, 6);
  cairo_translate (cr, -x1, -y1);
  cairo_rectangle (cr, x1, y1, x2 - x1, y2 - y1);
  cairo_clip (cr);
  marks = graft_document_dup_layout_marks (document, layout);
  graft_render_options_init (&options);
  options.draw_background = TRUE;
  options.node_match = marks;
  graft_render_draw (layout, cr, &options);
  cairo_destroy (cr);
  cairo_surface_flush (expected);
  cairo_surface_flush (read);
  {
    int           stride = cairo_image_surface_get_stride (expected);
    const guchar *a = cairo_image_surface_get_data (expected);
    const guchar *b = cairo_image_surface_get_data (read);
    double        r, g, bl;
    guint32       first_colour;
    guint         differ = 0;
    guint         first = 0;

    graft_render_get_match_color (0, &r, &g, &bl);
    first_colour = 0xff000000u | (guint32) (r * 255 + 0.5) << 16 | (guint32) (g * 255 + 0.5) << 8 |
                   (guint32) (bl * 255 + 0.5);
    for (int y = 0; y < 2 * height; y++)
      for (int x = 0; x < 2 * width; x++)
        {
          guint32 pb = *(const guint32 *) (b + y * stride + x * 4);

          differ += *(const guint32 *) (a + y * stride + x * 4) != pb;
          first += pb == first_colour;
        }
    g_assert_cmpuint (differ, ==, 0);
    /* The first match is in view, in its colour. */
    g_assert_cmpuint (first, >, 100);
  }
  cairo_surface_destroy (read);
  cairo_surface_destroy (expected);

  /* An SVG of the view: the canvas's size in points, and fewer boxes
   * (each a path) than the whole graph's. */
  svg = export_and_wait (window, dir, "view.svg", GRAFT_FORMAT_SVG, GRAFT_EXPORT_SCOPE_VIEW);
  whole = export_and_wait (window, dir, "whole.svg", GRAFT_FORMAT_SVG, GRAFT_EXPORT_SCOPE_WHOLE);
  g_assert_true (g_file_get_contents (svg, &svg_text, NULL, NULL));
  g_assert_true (g_file_get_contents (whole, &whole_text, NULL, NULL));
  {
    g_autofree char *size = g_strdup_printf ("width=\"%dpt\" height=\"%dpt\"", width, height);

    g_assert_nonnull (strstr (svg_text, size));
  }
  g_assert_cmpuint (test_count (svg_text, "<path"), >, 0);
  g_assert_cmpuint (test_count (strstr (svg_text, "</defs>"), "<path"), <,
                    test_count (strstr (whole_text, "</defs>"), "<path"));

  g_unlink (png);
  g_unlink (svg);
  g_unlink (whole);
  g_rmdir (dir);
  close_window (window);
}

/* A picture's marks are made over turns (here one matched or added node
 * a turn) before the drawing starts: the file is the one made with the
 * marks at once, after a replace (the added nodes marked too).  A cancel
 * meanwhile leaves no file. */
static void
test_marks_in_turns (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  g_autofree char *example = example_path ();
  GraftWindow     *window = open_path (example);
  g_autofree char *once = NULL;
  g_autofree char *once_data = NULL;
  gsize            once_length = 0;

  activate (window, "replace-match", g_variant_new_uint32 (0));
  g_assert_cmpuint (graft_document_get_added_names (graft_window_get_document (window))->len, >,
                    0);
  g_assert_cmpuint (graft_document_get_n_matches (graft_window_get_document (window)), >, 0);
  once = export_and_wait (window, dir, "once.png", GRAFT_FORMAT_PNG, GRAFT_EXPORT_SCOPE_VIEW);
  g_assert_true (g_file_get_contents (once, &once_data, &once_length, NULL));
  _graft_export_set_marks_step (1);
  for (guint cancel = 0; cancel < 2; cancel++)
    {
      g_autofree char *path = g_build_filename (dir, "turns.png", NULL);
      g_autoptr (GFile) file = g_file_new_for_path (path);
      g_autoptr (GError) error = NULL;
      GraftExport *export;
      guint n_turns = 0;

      g_assert_true (graft_window_export (window, file, GRAFT_FORMAT_PNG, GRAFT_EXPORT_SCOPE_VIEW,
                                          TRUE, &error));
      g_assert_no_error (error);
      export = graft_window_get_export (window);
      g_assert_nonnull (export);
      while (_graft_export_get_marking (export))
        {
          if (cancel && n_turns == 2)
            graft_export_cancel (export);
          g_main_context_iteration (NULL, TRUE);
          n_turns++;
        }
      g_assert_cmpuint (n_turns, >=, 3);
      iterate_until (export_done, window);
      if (cancel)
        g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
      else
        {
          g_autofree char *data = NULL;
          gsize            length = 0;

          /* The same pixels, the same bytes. */
          g_assert_true (g_file_get_contents (path, &data, &length, NULL));
          g_assert_cmpmem (data, length, once_data, once_length);
          g_unlink (path);
        }
    }
  _graft_export_set_marks_step (0);
  g_unlink (once);
  g_rmdir (dir);
  close_window (window);
}

static gboolean
canvas_folds (GraftCanvas *canvas)
{
  GraftLayout *layout = graft_canvas_get_layout (canvas);

  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    if (graft_layout_get_node (layout, b)->n_members > 0)
      return TRUE;
  return FALSE;
}

/* resnet18 folded: the graph as folded is the canvas's layout whole; the
 * whole graph is laid out anew, unfolded, and taller. */
static void
test_folded (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  g_autofree char *model =
      g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "torchvision", "resnet18.py", NULL);
  GraftWindow     *window = open_path (model);
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  GraftDocument   *document = graft_window_get_document (window);
  g_autofree char *folded = NULL;
  g_autofree char *whole = NULL;
  g_autoptr (GraftLayout) unfolded = NULL;
  GraftRenderFit fit;
  double         w, h;
  int            pw, ph;

  g_action_group_activate_action (G_ACTION_GROUP (window), "collapse-all", NULL);
  iterate_until (layout_ready, window);
  g_assert_true (canvas_folds (canvas));

  folded = export_and_wait (window, dir, "folded.png", GRAFT_FORMAT_PNG,
                            GRAFT_EXPORT_SCOPE_FOLDED);
  graft_layout_get_size (graft_canvas_get_layout (canvas), &w, &h);
  g_assert_true (graft_render_fit (GRAFT_FORMAT_PNG, w, h, 0, &fit, NULL));
  png_size (folded, &pw, &ph);
  g_assert_cmpint (pw, ==, (int) fit.width);
  g_assert_cmpint (ph, ==, (int) fit.height);

  whole = export_and_wait (window, dir, "whole.png", GRAFT_FORMAT_PNG, GRAFT_EXPORT_SCOPE_WHOLE);
  unfolded = graft_layout_new (graft_document_get_graph (document), NULL);
  graft_layout_get_size (unfolded, &w, &h);
  g_assert_true (graft_render_fit (GRAFT_FORMAT_PNG, w, h, 0, &fit, NULL));
  png_size (whole, &pw, &ph);
  g_assert_cmpint (pw, ==, (int) fit.width);
  g_assert_cmpint (ph, ==, (int) fit.height);
  /* The canvas still folds: the export did not touch it. */
  g_assert_true (canvas_folds (canvas));

  g_unlink (folded);
  g_unlink (whole);
  g_rmdir (dir);
  close_window (window);
}

static gboolean
file_chooser_gone (gpointer data)
{
  return shown_file_chooser () == NULL;
}

/* Save As offers the format the document saves as: the graph as code for
 * a document without rules (GTK 4.8's dialog showed the first option,
 * "Graft session", over "Save the Graph as Code" and a name ending in
 * .py), a session for one with rules, and a filter of the files it
 * writes.  A name typed without an ending takes the format shown: the
 * graph as code, not a session. */
static void
test_save_as_format (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  g_autofree char *plain = g_build_filename (dir, "plain", NULL);
  g_autofree char *plain_session = g_build_filename (dir, "plain.graft", NULL);
  g_autofree char *written = NULL;
  g_autofree char *expected = NULL;
  GraftWindow     *window = open_example ();
  GraftDocument   *document = graft_window_get_document (window);
  GtkFileChooser  *chooser;

  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *name = NULL;

      if (i == 0)
        expected = g_strstrip (graft_document_dup_code (document));
      if (i == 1)
        graft_document_add_rule (document, NULL, NULL);
      g_assert_cmpint (graft_document_get_keeps_rules (document), ==, i == 1);
      g_action_group_activate_action (G_ACTION_GROUP (window), "save-as", NULL);
      iterate_until (file_chooser_shown, NULL);
      chooser = shown_file_chooser ();
      name = gtk_file_chooser_get_current_name (chooser);
      g_assert_cmpstr (gtk_file_chooser_get_choice (chooser, "format"), ==,
                       i == 0 ? "code" : "session");
      g_assert_true (g_str_has_suffix (name, i == 0 ? "-rewritten.py" : ".graft"));
      /* A filter of the files Save writes (without one the dialog showed
       * "(None)" beside the format). */
      g_assert_nonnull (gtk_file_chooser_get_filter (chooser));
      g_assert_cmpstr (gtk_file_filter_get_name (gtk_file_chooser_get_filter (chooser)), ==,
                       "Sessions and Python Code");
      if (i == 1)
        {
          gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
          iterate_until (file_chooser_gone, NULL);
          break;
        }
      gtk_file_chooser_set_current_name (chooser, plain);
      /* The Save button, as a click: the dialog checks the name first. */
      gtk_widget_activate (
          gtk_dialog_get_widget_for_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT));
      iterate_until (file_chooser_gone, NULL);
      iterate_until (session_written, window);
      g_assert_true (g_file_get_contents (plain, &written, NULL, NULL));
      /* The code, as Save writes it: the module's imports, then its code. */
      g_assert_true (g_str_has_prefix (written, "import torch\n"));
      g_assert_nonnull (strstr (written, expected));
      g_assert_false (g_file_test (plain_session, G_FILE_TEST_EXISTS));
    }
  g_unlink (plain);
  g_unlink (plain_session);
  g_rmdir (dir);
  close_window (window);
}

/* A 1,200-node chain is about 72,000 points tall: its PNG is scaled below
 * legibility, which the dialog's PNG filter says before and the toast
 * after; the visible area, chosen in the dialog, is not scaled. */
static void
test_big_png (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  g_autofree char *model = write_chain (dir, 1200);
  GraftWindow     *window = open_path (model);
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  g_autofree char *png = NULL;
  g_autofree char *expected_filter = NULL;
  g_autofree char *expected_toast = NULL;
  g_autofree char *how = NULL;
  g_autofree char *view = g_build_filename (dir, "chain-view.png", NULL);
  GtkFileChooser  *chooser;
  GraftRenderFit   fit;
  double           w, h;
  int              pw, ph;

  graft_layout_get_size (graft_canvas_get_layout (canvas), &w, &h);
  g_assert_true (graft_render_fit (GRAFT_FORMAT_PNG, w, h, 0, &fit, NULL));
  g_assert_true (fit.scaled);
  g_assert_false (fit.readable);
  how = graft_render_fit_describe (&fit);
  expected_filter = g_strdup_printf ("PNG Image (whole graph at %s)", how);
  expected_toast = g_strdup_printf ("Exported chain.png (drawn at %s)", how);

  /* Ctrl+E: the PNG filter says what a PNG holds. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "export", NULL);
  iterate_until (file_chooser_shown, NULL);
  chooser = shown_file_chooser ();
  g_assert_cmpstr (gtk_file_filter_get_name (gtk_file_chooser_get_filter (chooser)), ==,
                   expected_filter);
  g_assert_cmpstr (gtk_file_chooser_get_choice (chooser, "scope"), ==, "whole");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  iterate_until (file_chooser_gone, NULL);

  png = export_and_wait (window, dir, "chain.png", GRAFT_FORMAT_PNG, GRAFT_EXPORT_SCOPE_WHOLE);
  g_assert_cmpstr (graft_window_get_last_toast (window), ==, expected_toast);
  png_size (png, &pw, &ph);
  g_assert_cmpint (ph, <=, 32000);
  g_assert_cmpint (ph, ==, (int) fit.height);

  /* Export Current View: the dialog opens on the visible area; accepted,
   * the file chooser is gone before the export ends. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "export-view", NULL);
  iterate_until (file_chooser_shown, NULL);
  chooser = shown_file_chooser ();
  g_assert_cmpstr (gtk_file_chooser_get_choice (chooser, "scope"), ==, "view");
  g_assert_cmpstr (gtk_file_filter_get_name (gtk_file_chooser_get_filter (chooser)), ==,
                   expected_filter);
  {
    g_autofree char *name = gtk_file_chooser_get_current_name (chooser);

    g_assert_cmpstr (name, ==, "chain-view.png");
    gtk_file_chooser_set_current_name (chooser, view);
  }
  gtk_widget_activate (gtk_dialog_get_widget_for_response (GTK_DIALOG (chooser),
                                                           GTK_RESPONSE_ACCEPT));
  /* The response hides the dialog and starts the export in one dispatch;
   * the export's end comes in a later one. */
  iterate_until (file_chooser_gone, NULL);
  g_assert_nonnull (graft_window_get_export (window));
  iterate_until (export_done, window);
  g_assert_cmpstr (graft_window_get_last_toast (window), ==, "Exported chain-view.png");
  png_size (view, &pw, &ph);
  g_assert_cmpint (pw, ==, 2 * gtk_widget_get_width (GTK_WIDGET (canvas)));

  g_unlink (png);
  g_unlink (view);
  g_unlink (model);
  g_rmdir (dir);
  close_window (window);
}

static void
fraction_cb (GraftExport *export,
             GParamSpec *pspec,
             GArray     *seen)
{
  GraftExportBar *bar = g_object_get_data (G_OBJECT (export), "test-bar");
  double          fraction = graft_export_get_fraction (export);

  /* The bar shows it (its handler runs first). */
  g_assert_true (graft_export_bar_get_export (bar) == export);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (bar)));
  g_assert_cmpfloat (graft_export_bar_get_shown_fraction (bar), ==, fraction);
  g_array_append_val (seen, fraction);
}

/* An SVG of a 1,200-node chain: the bar shows progress rising to 1, then
 * goes; Cancel pressed on a second export leaves nothing in the folder. */
static void
test_progress_cancel (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  g_autofree char *out_dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  g_autofree char *model = write_chain (dir, 1200);
  GraftWindow     *window = open_path (model);
  GraftExportBar  *bar = graft_window_get_export_bar (window);
  g_autoptr (GArray) seen = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *path = g_build_filename (out_dir, "chain.svg", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  guint between = 0;

  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (bar)));
  g_assert_true (graft_window_export (window, file, GRAFT_FORMAT_SVG, GRAFT_EXPORT_SCOPE_WHOLE,
                                      TRUE, &error));
  g_assert_no_error (error);
  /* One export at a time. */
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export"));
  g_assert_false (graft_window_export (window, file, GRAFT_FORMAT_SVG, GRAFT_EXPORT_SCOPE_WHOLE,
                                       TRUE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
  g_clear_error (&error);
  g_object_set_data (G_OBJECT (graft_window_get_export (window)), "test-bar", bar);
  g_signal_connect (graft_window_get_export (window), "notify::fraction",
                    G_CALLBACK (fraction_cb), seen);
  iterate_until (export_done, window);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (bar)));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export"));
  g_assert_cmpuint (seen->len, >=, 3);
  for (guint i = 0; i < seen->len; i++)
    {
      double f = g_array_index (seen, double, i);

      if (i > 0)
        g_assert_cmpfloat (f, >, g_array_index (seen, double, i - 1));
      between += f > 0 && f < 1;
    }
  g_assert_cmpuint (between, >=, 2);
  g_assert_cmpfloat (g_array_index (seen, double, seen->len - 1), ==, 1.0);
  /* 72,000 points tall: scaled to PDF's 200-inch page, which SVG
   * follows, and the toast says so. */
  g_assert_cmpstr (graft_window_get_last_toast (window), ==, "Exported chain.svg (drawn at 20 %)");
  g_unlink (path);
  g_assert_cmpuint (test_count_files (out_dir), ==, 0);

  /* Cancel, as a click on the bar's button, before the export's end
   * reaches the main loop (gtk_widget_activate() would click only after
   * a time-out). */
  g_assert_true (graft_window_export (window, file, GRAFT_FORMAT_SVG, GRAFT_EXPORT_SCOPE_WHOLE,
                                      TRUE, &error));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (bar)));
  g_signal_emit_by_name (graft_export_bar_get_cancel_button (bar), "clicked");
  iterate_until (export_done, window);
  g_assert_cmpstr (graft_window_get_last_toast (window), ==, "Export cancelled");
  g_assert_cmpuint (test_count_files (out_dir), ==, 0);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (bar)));

  /* So does closing the window mid-export, once the export is gone. */
  g_assert_true (graft_window_export (window, file, GRAFT_FORMAT_PNG, GRAFT_EXPORT_SCOPE_WHOLE,
                                      TRUE, &error));
  {
    GraftExport *export = graft_window_get_export (window);

    g_object_add_weak_pointer (G_OBJECT (export), (gpointer *) &export);
    close_window (window);
    iterate_until (is_null, &export);
  }
  g_assert_cmpuint (test_count_files (out_dir), ==, 0);

  g_unlink (model);
  g_rmdir (dir);
  g_rmdir (out_dir);
}

/* What `graft match INPUT --pattern FILE:pattern --json` prints. */
static char *
cli_matches (const char *input,
             const char *pattern_file)
{
  const char      *cli = g_getenv ("GRAFT_CLI");
  g_autofree char *ref = g_strdup_printf ("%s:pattern", pattern_file);
  g_autoptr (GError) error = NULL;
  const char *argv[] = { cli, "match", input, "--pattern", ref, "--json", NULL };
  char       *out = NULL;
  int         status = 0;

  g_assert_nonnull (cli);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

static gboolean
has_matches (gpointer data)
{
  return graft_document_get_n_matches (data) > 0;
}

/* The match list, for the example's own pattern and for resnet18's
 * additions, equals the CLI's JSON byte for byte. */
static void
test_matches_json (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  g_autofree char *example = example_path ();
  g_autofree char *resnet =
      g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "torchvision", "resnet18.py", NULL);
  const char *inputs[] = { example, resnet };

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      GraftWindow     *window = open_path (inputs[i]);
      GraftDocument   *document = graft_window_get_document (window);
      g_autofree char *pattern = g_build_filename (dir, "pattern.py", NULL);
      g_autofree char *path = g_build_filename (dir, "matches.json", NULL);
      g_autoptr (GFile) file = g_file_new_for_path (path);
      g_autoptr (GError) error = NULL;
      g_autofree char *ours = NULL;
      g_autofree char *theirs = NULL;

      /* resnet18 has no torch.relu: its residual additions instead. */
      if (i == 1)
        {
          graft_document_set_pattern_text (document, "def pattern(a, b):\n    return a + b\n");
          iterate_until (has_matches, document);
        }
      g_assert_cmpuint (graft_document_get_n_matches (document), >, 0);
      g_assert_true (g_file_set_contents (pattern, graft_document_get_pattern_text (document), -1,
                                          NULL));
      g_assert_true (
          g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-matches"));
      g_assert_true (graft_window_export_matches (window, file, &error));
      g_assert_no_error (error);
      iterate_until (export_done, window);
      g_assert_true (g_file_get_contents (path, &ours, NULL, NULL));
      theirs = cli_matches (inputs[i], pattern);
      g_assert_cmpstr (ours, ==, theirs);
      g_assert_true (g_str_has_prefix (ours, "{\"matches\": [\n"));
      g_unlink (path);
      g_unlink (pattern);
      close_window (window);
    }
  g_rmdir (dir);
}

/* A folder that does not exist: the toast says so, nothing is left
 * running, and the next export works. */
static void
test_unwritable (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  g_autofree char *example = example_path ();
  GraftWindow     *window = open_path (example);
  g_autofree char *bad = g_build_filename (dir, "missing", "g.png", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (bad);
  g_autoptr (GError) error = NULL;
  g_autofree char *good = NULL;

  g_assert_true (graft_window_export (window, file, GRAFT_FORMAT_PNG, GRAFT_EXPORT_SCOPE_WHOLE,
                                      TRUE, &error));
  iterate_until (export_done, window);
  g_assert_true (g_str_has_prefix (graft_window_get_last_toast (window), "Export failed: "));
  g_assert_nonnull (strstr (graft_window_get_last_toast (window), "No such file or directory"));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (graft_window_get_export_bar (window))));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export"));
  g_assert_cmpuint (test_count_files (dir), ==, 0);

  good = export_and_wait (window, dir, "g.py", GRAFT_FORMAT_CODE, GRAFT_EXPORT_SCOPE_WHOLE);
  g_assert_cmpstr (graft_window_get_last_toast (window), ==, "Exported g.py");
  g_unlink (good);
  g_rmdir (dir);
  close_window (window);
}

static gboolean
file_exists (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_EXISTS);
}

/* Ctrl+E: the export dialog, with the filter named @filter chosen (%NULL:
 * as it opens), then @name typed in @dir (as a path, as a user may type
 * it; %NULL: the name the dialog has then, in @dir). */
static GtkFileChooser *
open_export_dialog (GraftWindow *window,
                    const char  *dir,
                    const char  *filter,
                    const char  *name)
{
  GtkFileChooser  *chooser;
  g_autofree char *base = NULL;
  g_autofree char *path = NULL;

  g_assert_null (shown_file_chooser ());
  g_action_group_activate_action (G_ACTION_GROUP (window), "export", NULL);
  iterate_until (file_chooser_shown, NULL);
  chooser = shown_file_chooser ();
  if (filter != NULL)
    {
      g_autoptr (GListModel) filters = gtk_file_chooser_get_filters (chooser);

      for (guint i = 0; i < g_list_model_get_n_items (filters); i++)
        {
          g_autoptr (GtkFileFilter) item = g_list_model_get_item (filters, i);

          if (g_strcmp0 (gtk_file_filter_get_name (item), filter) == 0)
            gtk_file_chooser_set_filter (chooser, item);
        }
      g_assert_cmpstr (gtk_file_filter_get_name (gtk_file_chooser_get_filter (chooser)), ==,
                       filter);
    }
  base = name != NULL ? g_strdup (name) : gtk_file_chooser_get_current_name (chooser);
  path = g_build_filename (dir, base, NULL);
  gtk_file_chooser_set_current_name (chooser, path);
  return chooser;
}

/* Accepts @chooser and waits for @dir/@name to be written; returns its
 * contents. */
static char *
accept_export (GtkFileChooser *chooser,
               const char     *dir,
               const char     *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  char            *contents = NULL;

  /* The Export button, as a click: the dialog checks the name first. */
  gtk_widget_activate (gtk_dialog_get_widget_for_response (GTK_DIALOG (chooser),
                                                           GTK_RESPONSE_ACCEPT));
  iterate_until_named (file_exists, path, path);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_unlink (path);
  return contents;
}

/* Whether the file dialog on screen shows the folder @data (a GFile). */
static gboolean
chooser_in_folder (gpointer data)
{
  GtkFileChooser *chooser = shown_file_chooser ();
  g_autoptr (GFile) folder =
      chooser != NULL ? gtk_file_chooser_get_current_folder (chooser) : NULL;

  return folder != NULL && g_file_equal (folder, data);
}

/* Opens the export dialog, waits until it shows folder @path (GTK's
 * dialog sets it as it loads), then cancels. */
static void
assert_export_folder (GraftWindow *window,
                      const char  *path)
{
  g_autoptr (GFile) expected = g_file_new_for_path (path);

  g_action_group_activate_action (G_ACTION_GROUP (window), "export", NULL);
  iterate_until (file_chooser_shown, NULL);
  iterate_until_named (chooser_in_folder, expected, path);
  gtk_dialog_response (GTK_DIALOG (shown_file_chooser ()), GTK_RESPONSE_CANCEL);
  iterate_until (file_chooser_gone, NULL);
}

/* The export dialog has a filter per format and no other; the chosen one
 * is the format, and choosing one renames the file to its extension; a
 * name without an extension gets the filter's; a name whose extension is
 * another format's wins, and the toast says so.  The next dialog starts
 * on the format last written. */
static void
test_export_dialog (void)
{
  static const char *const filters[] = {
    "PNG Image",
    "SVG Image",
    "PDF Document",
    "DOT Graph",
    "Python Code",
    "FX Graph Listing",
  };
  g_autofree char *dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  GraftWindow     *window = open_example ();
  GtkFileChooser  *chooser;
  g_autofree char *contents = NULL;
  g_autofree char *name = NULL;

  /* The dialog opens beside the graph's file (it opened in the working
   * folder), and after an export where the export went (below). */
  {
    g_autofree char *example = example_path ();
    g_autofree char *beside = g_path_get_dirname (example);

    assert_export_folder (window, beside);
  }

  chooser = open_export_dialog (window, dir, NULL, NULL);
  {
    g_autoptr (GListModel) list = gtk_file_chooser_get_filters (chooser);

    g_assert_cmpuint (g_list_model_get_n_items (list), ==, G_N_ELEMENTS (filters));
    for (guint i = 0; i < G_N_ELEMENTS (filters); i++)
      {
        g_autoptr (GtkFileFilter) item = g_list_model_get_item (list, i);

        g_assert_cmpstr (gtk_file_filter_get_name (item), ==, filters[i]);
      }
  }
  g_assert_cmpstr (gtk_file_filter_get_name (gtk_file_chooser_get_filter (chooser)), ==,
                   "PNG Image");
  name = gtk_file_chooser_get_current_name (chooser);
  g_assert_true (g_str_has_suffix (name, "/subgraph_rewriter_basic_use.png"));
  g_clear_pointer (&name, g_free);
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);

  /* The SVG filter: the name follows, the file is an SVG. */
  chooser = open_export_dialog (window, dir, "SVG Image", NULL);
  name = gtk_file_chooser_get_current_name (chooser);
  g_assert_true (g_str_has_suffix (name, "/subgraph_rewriter_basic_use.svg"));
  contents = accept_export (chooser, dir, "subgraph_rewriter_basic_use.svg");
  g_assert_true (g_str_has_prefix (contents, "<?xml"));
  g_assert_cmpstr (graft_window_get_last_toast (window), ==,
                   "Exported subgraph_rewriter_basic_use.svg");
  g_clear_pointer (&contents, g_free);

  /* Python Code, a name without extension: code.py, Python. */
  chooser = open_export_dialog (window, dir, "Python Code", "code");
  contents = accept_export (chooser, dir, "code.py");
  g_assert_true (g_str_has_prefix (contents, "import torch\n"));
  g_clear_pointer (&contents, g_free);

  /* PNG chosen, `g.dot` typed: the name wins, and the toast says so. */
  chooser = open_export_dialog (window, dir, "PNG Image", "g.dot");
  contents = accept_export (chooser, dir, "g.dot");
  g_assert_true (g_str_has_prefix (contents, "digraph"));
  g_assert_cmpstr (graft_window_get_last_toast (window), ==,
                   "Exported g.dot as its name says (DOT Graph), not as the chosen PNG Image");
  g_clear_pointer (&contents, g_free);

  /* The note reads right whatever the format's name (it said "a SVG
   * Image"). */
  chooser = open_export_dialog (window, dir, "PNG Image", "g.svg");
  contents = accept_export (chooser, dir, "g.svg");
  g_assert_nonnull (strstr (contents, "<svg"));
  g_assert_cmpstr (graft_window_get_last_toast (window), ==,
                   "Exported g.svg as its name says (SVG Image), not as the chosen PNG Image");
  g_clear_pointer (&contents, g_free);
  assert_export_folder (window, dir);

  /* The dialog opens on the last export's format, the one written (it
   * chose PNG every time), and names the file for it. */
  chooser = open_export_dialog (window, dir, NULL, NULL);
  g_assert_cmpstr (gtk_file_filter_get_name (gtk_file_chooser_get_filter (chooser)), ==,
                   "SVG Image");
  g_clear_pointer (&name, g_free);
  name = gtk_file_chooser_get_current_name (chooser);
  g_assert_true (g_str_has_suffix (name, "/subgraph_rewriter_basic_use.svg"));
  g_clear_pointer (&name, g_free);
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  iterate_until (file_chooser_gone, NULL);
  chooser = open_export_dialog (window, dir, "FX Graph Listing", "listing");
  contents = accept_export (chooser, dir, "listing.graph");
  g_clear_pointer (&contents, g_free);
  chooser = open_export_dialog (window, dir, NULL, NULL);
  g_assert_cmpstr (gtk_file_filter_get_name (gtk_file_chooser_get_filter (chooser)), ==,
                   "FX Graph Listing");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  iterate_until (file_chooser_gone, NULL);

  close_window (window);
  g_rmdir (dir);
}

/* A toast too long for the canvas's column (the export's note at
 * 1120x700) is shown whole, wrapped, within the toast and the toast
 * within the column: libadwaita's title label cut it with an ellipsis
 * after "not as the". */
static void
test_export_note_whole (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  GraftWindow     *window = open_example_sized (1120, 700);
  GtkFileChooser  *chooser;
  g_autofree char *contents = NULL;
  const char      *note;
  GtkWidget       *toast;
  GtkWidget       *label;
  graphene_rect_t  label_bounds;
  graphene_rect_t  toast_bounds;
  graphene_rect_t  column_bounds;

  chooser = open_export_dialog (window, dir, "PNG Image", "g.pdf");
  contents = accept_export (chooser, dir, "g.pdf");
  g_assert_true (g_str_has_prefix (contents, "%PDF"));
  note = graft_window_get_last_toast (window);
  g_assert_cmpstr (note, ==,
                   "Exported g.pdf as its name says (PDF Document), not as the chosen PNG Image");
  iterate_until (toast_shown, window);
  toast = find_toast (window);
  iterate_until_drawn (toast);
  label = find_label_showing (toast, note);
  g_assert_nonnull (label);
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))));
  g_assert_true (gtk_widget_compute_bounds (label, GTK_WIDGET (window), &label_bounds));
  g_assert_true (gtk_widget_compute_bounds (toast, GTK_WIDGET (window), &toast_bounds));
  g_assert_true (gtk_widget_compute_bounds (adw_flap_get_content (window->side_flap),
                                            GTK_WIDGET (window), &column_bounds));
  /* Across only: the toast slides up from the bottom as it comes. */
  if (label_bounds.origin.x < toast_bounds.origin.x ||
      label_bounds.origin.x + label_bounds.size.width >
          toast_bounds.origin.x + toast_bounds.size.width ||
      toast_bounds.origin.x < column_bounds.origin.x ||
      toast_bounds.origin.x + toast_bounds.size.width >
          column_bounds.origin.x + column_bounds.size.width)
    g_error ("the note (%g,%g %gx%g) is not within its toast (%g,%g %gx%g) within the column "
             "(%g,%g %gx%g)",
             label_bounds.origin.x, label_bounds.origin.y, label_bounds.size.width,
             label_bounds.size.height, toast_bounds.origin.x, toast_bounds.origin.y,
             toast_bounds.size.width, toast_bounds.size.height, column_bounds.origin.x,
             column_bounds.origin.y, column_bounds.size.width, column_bounds.size.height);
  g_rmdir (dir);
  close_window (window);
}

static GThread *main_thread;

/* Records whether an object was finalized on the main thread (1) or not
 * (2). */
static void
finalized_cb (gpointer data,
              GObject *where_the_object_was)
{
  *(int *) data = g_thread_self () == main_thread ? 1 : 2;
}

static void
note_finalized (gpointer object,
                int     *where)
{
  *where = 0;
  g_object_weak_ref (G_OBJECT (object), finalized_cb, where);
}

static gboolean
finalized (gpointer data)
{
  return *(int *) data != 0;
}

static void
count_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  (*(guint *) user_data)++;
}

/* An export or a document let go while its worker runs goes on the main
 * thread, whatever thread its worker's task goes on (a GTask may be
 * finalized on its worker thread). */
static void
test_let_go (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "big.py", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *model = write_chain (dir, 1200);
  g_autoptr (GFile) model_file = g_file_new_for_path (model);
  g_autoptr (GString) text = g_string_new (NULL);
  static int where;
  guint      done = 0;

  main_thread = g_thread_self ();
  for (guint i = 0; i < 200000; i++)
    g_string_append (text, "x = torch.relu(x)  # a line of forty bytes\n");
  for (guint round = 0; round < 3; round++)
    {
      GraftExport *export = graft_export_new_text (file, GRAFT_FORMAT_CODE, text->str);
      GraftDocument *document = graft_document_new ();

      note_finalized (export, &where);
      graft_export_run_async (export, count_cb, &done);
      g_object_unref (export);
      iterate_until (finalized, &where);
      g_assert_cmpint (where, ==, 1);

      note_finalized (document, &where);
      graft_document_load_file_async (document, model_file, NULL, count_cb, &done);
      g_object_unref (document);
      iterate_until (finalized, &where);
      g_assert_cmpint (where, ==, 1);
    }
  g_assert_cmpuint (done, ==, 6);
  g_unlink (path);
  g_unlink (model);
  g_rmdir (dir);
}

/* resnet18 (traced), its residual additions the pattern. */
static GraftWindow *
open_resnet (void)
{
  g_autofree char *resnet =
      g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "torchvision", "resnet18.py", NULL);
  GraftWindow   *window = open_path (resnet);
  GraftDocument *document = graft_window_get_document (window);

  graft_document_set_pattern_text (document, "def pattern(a, b):\n    return a + b\n");
  graft_document_set_replacement_text (document, "def replacement(a, b):\n    return a - b\n");
  iterate_until (has_matches, document);
  return window;
}

/* What the export of @format wrote before it was made by steps: the
 * printers in one go. */
static char *
one_go (GraftDocument *document,
        GraftFormat    format,
        gboolean       match_list)
{
  GraftGraph *graph = graft_document_get_graph (document);
  g_autoptr (GPtrArray) matches = g_ptr_array_new ();

  for (guint i = 0; i < graft_document_get_n_matches (document); i++)
    g_ptr_array_add (matches, (gpointer) graft_document_get_match (document, i));
  if (match_list)
    {
      g_autofree char *json = graft_matches_to_json (matches);

      return g_strconcat (json, "\n", NULL);
    }
  switch (format)
    {
    case GRAFT_FORMAT_CODE:
      return graft_document_dup_file_text (document);
    case GRAFT_FORMAT_GRAPH:
      return graft_listing_print (graph);
    case GRAFT_FORMAT_JSON:
      return graft_json_graph (graph);
    case GRAFT_FORMAT_DOT:
      {
        g_autofree gint *marks = graft_matches_dup_node_marks (matches, graph);
        GraftDotOptions  options;

        graft_dot_options_init (&options);
        options.node_match = marks;
        return graft_dot_print (graph, &options);
      }
    case GRAFT_FORMAT_READABLE:
    case GRAFT_FORMAT_PNG:
    case GRAFT_FORMAT_SVG:
    case GRAFT_FORMAT_PDF:
    default:
      g_assert_not_reached ();
    }
  return NULL;
}

/* Starts the text export of @format (the match list if @match_list) to
 * @path. */
static GraftExport *
start_text (GraftWindow *window,
            const char  *path,
            GraftFormat  format,
            gboolean     match_list)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;

  if (match_list)
    g_assert_true (graft_window_export_matches (window, file, &error));
  else
    g_assert_true (
        graft_window_export (window, file, format, GRAFT_EXPORT_SCOPE_WHOLE, TRUE, &error));
  g_assert_no_error (error);
  g_assert_nonnull (graft_window_get_export (window));
  return graft_window_get_export (window);
}

static const GraftFormat text_formats[] = {
  GRAFT_FORMAT_CODE,
  GRAFT_FORMAT_GRAPH,
  GRAFT_FORMAT_JSON,
  GRAFT_FORMAT_DOT,
};

/* A few nodes a turn (the code: a few hundred bytes). */
static guint
format_step (GraftFormat format)
{
  return format == GRAFT_FORMAT_CODE ? 300 : 2;
}

/* Each text export, made a few nodes (or bytes of code) a turn, writes
 * what the printers write in one go, byte for byte. */
static void
test_text_in_turns (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  GraftWindow     *window = open_resnet ();
  GraftDocument   *document = graft_window_get_document (window);

  for (guint step = 0; step < 2; step++)
    for (guint f = 0; f <= G_N_ELEMENTS (text_formats); f++)
      {
        gboolean         match_list = f == G_N_ELEMENTS (text_formats);
        GraftFormat      format = match_list ? GRAFT_FORMAT_JSON : text_formats[f];
        g_autofree char *path = g_build_filename (dir, "text", NULL);
        g_autofree char *expected = one_go (document, format, match_list);
        g_autofree char *written = NULL;
        GraftExport *export;
        guint n_turns = 0;

        /* A few nodes a turn (the code: a few hundred bytes), then the
         * default, a single turn at this size. */
        _graft_export_set_marks_step (step == 0 ? format_step (format) : 0);
        export = start_text (window, path, format, match_list);
        while (_graft_export_get_making (export))
          {
            g_main_context_iteration (NULL, TRUE);
            n_turns++;
          }
        if (step == 0)
          g_assert_cmpuint (n_turns, >=, 3);
        iterate_until (export_done, window);
        g_assert_true (g_str_has_prefix (graft_window_get_last_toast (window), "Exported text"));
        g_assert_true (g_file_get_contents (path, &written, NULL, NULL));
        g_assert_cmpstr (written, ==, expected);
        g_unlink (path);
      }
  _graft_export_set_marks_step (0);
  g_assert_cmpuint (test_count_files (dir), ==, 0);
  g_rmdir (dir);
  close_window (window);
}

/* An edit of the graph while a text is made cancels the export: the
 * toast says why, and no file (nor temporary file) is left; the next
 * export writes the graph as edited. */
static void
test_text_edit_cancels (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "g.graph", NULL);
  GraftWindow     *window = open_resnet ();
  GraftDocument   *document = graft_window_get_document (window);
  g_autofree char *before = graft_listing_print (graft_document_get_graph (document));
  g_autofree char *after = NULL;
  g_autofree char *written = NULL;
  g_autoptr (GError) error = NULL;
  GraftExport *export;

  for (guint f = 0; f <= G_N_ELEMENTS (text_formats); f++)
    {
      gboolean match_list = f == G_N_ELEMENTS (text_formats);

      _graft_export_set_marks_step (format_step (match_list ? GRAFT_FORMAT_JSON : text_formats[f]));
      export = start_text (window, path, match_list ? GRAFT_FORMAT_JSON : text_formats[f],
                           match_list);
      g_main_context_iteration (NULL, TRUE);
      g_assert_true (_graft_export_get_making (export));
      /* The edit, then undone: the graph is as before, but not the one
       * the text was begun of. */
      g_assert_true (graft_document_replace (document, 0, &error));
      g_assert_no_error (error);
      g_assert_nonnull (graft_document_undo (document));
      iterate_until (export_done, window);
      g_assert_cmpstr (graft_window_get_last_toast (window), ==,
                       "Export cancelled: the graph changed while it was written");
      g_assert_cmpuint (test_count_files (dir), ==, 0);
    }
  _graft_export_set_marks_step (0);
  g_assert_true (graft_document_replace (document, 0, &error));
  g_assert_no_error (error);
  after = graft_listing_print (graft_document_get_graph (document));
  g_assert_cmpstr (after, !=, before);
  export = start_text (window, path, GRAFT_FORMAT_GRAPH, FALSE);
  iterate_until (export_done, window);
  g_assert_true (g_file_get_contents (path, &written, NULL, NULL));
  g_assert_cmpstr (written, ==, after);
  g_unlink (path);
  g_rmdir (dir);
  close_window (window);
}

/* A text whose rename fails (the target is a folder) is a toast naming
 * the file, and leaves the folder as it was: no temporary file. */
static void
test_text_rename_fails (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "taken.json", NULL);
  g_autofree char *inside = g_build_filename (path, "kept", NULL);
  GraftWindow     *window = open_resnet ();

  g_assert_cmpint (g_mkdir (path, 0755), ==, 0);
  g_assert_true (g_file_set_contents (inside, "kept", -1, NULL));
  for (guint f = 0; f <= G_N_ELEMENTS (text_formats); f++)
    {
      gboolean match_list = f == G_N_ELEMENTS (text_formats);

      start_text (window, path, match_list ? GRAFT_FORMAT_JSON : text_formats[f], match_list);
      iterate_until (export_done, window);
      g_assert_true (g_str_has_prefix (graft_window_get_last_toast (window), "Export failed: "));
      g_assert_nonnull (strstr (graft_window_get_last_toast (window), "taken.json"));
      g_assert_cmpuint (test_count_files (dir), ==, 1);
      g_assert_cmpuint (test_count_files (path), ==, 1);
    }
  g_unlink (inside);
  g_rmdir (path);
  g_rmdir (dir);
  close_window (window);
}

/* A window closed while its export makes its text: the export ends
 * cancelled, on the main thread, and leaves no file. */
static void
test_text_close_window (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "g.dot", NULL);
  static int       where;

  main_thread = g_thread_self ();
  for (guint f = 0; f <= G_N_ELEMENTS (text_formats); f++)
    {
      gboolean     match_list = f == G_N_ELEMENTS (text_formats);
      GraftWindow *window = open_resnet ();
      GraftExport *export;

      _graft_export_set_marks_step (format_step (match_list ? GRAFT_FORMAT_JSON : text_formats[f]));
      export = start_text (window, path, match_list ? GRAFT_FORMAT_JSON : text_formats[f],
                           match_list);
      note_finalized (export, &where);
      g_main_context_iteration (NULL, TRUE);
      g_assert_true (_graft_export_get_making (export));
      close_window (window);
      iterate_until (finalized, &where);
      g_assert_cmpint (where, ==, 1);
      g_assert_cmpuint (test_count_files (dir), ==, 0);
    }
  _graft_export_set_marks_step (0);
  g_rmdir (dir);
}

/* Save As of a session: written off the main loop, of the document as it
 * was when saved. */
static void
test_session_off_loop (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "s.graft", NULL);
  g_autofree char *taken = g_build_filename (dir, "taken.graft", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFile) taken_file = g_file_new_for_path (taken);
  GraftWindow   *window = open_resnet ();
  GraftDocument *document = graft_window_get_document (window);
  g_autoptr (GError) error = NULL;
  g_autofree char *expected = graft_session_write (document, &error);
  g_autofree char *written = NULL;
  g_autofree char *again = NULL;

  g_assert_no_error (error);
  g_assert_true (graft_window_save_to (window, file));
  g_assert_true (graft_window_get_saving (window));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "save-as"));
  /* An edit while it is written: not in the file. */
  g_assert_true (graft_document_replace (document, 0, &error));
  g_assert_no_error (error);
  iterate_until (session_written, window);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "save-as"));
  g_assert_cmpstr (graft_window_get_last_toast (window), ==,
                   "Saved the session: graph, rules and history");
  g_assert_true (g_file_get_contents (path, &written, NULL, NULL));
  g_assert_cmpstr (written, ==, expected);
  g_assert_true (graft_document_get_modified (document));
  g_assert_true (g_file_equal (graft_document_get_file (document), file));

  /* Saved again with nothing changed meanwhile: as it is, not modified. */
  g_clear_pointer (&expected, g_free);
  g_clear_pointer (&written, g_free);
  expected = graft_session_write (document, &error);
  g_assert_no_error (error);
  g_assert_true (graft_window_save_to (window, file));
  iterate_until (session_written, window);
  g_assert_true (g_file_get_contents (path, &written, NULL, NULL));
  g_assert_cmpstr (written, ==, expected);
  g_assert_false (graft_document_get_modified (document));

  /* A failed write: a toast naming the file; the folder as it was. */
  g_assert_cmpint (g_mkdir (taken, 0755), ==, 0);
  g_assert_true (graft_window_save_to (window, taken_file));
  iterate_until (session_written, window);
  g_assert_true (g_str_has_prefix (graft_window_get_last_toast (window),
                                   "The session was not saved to taken.graft: "));
  g_assert_cmpuint (test_count_files (dir), ==, 2);
  g_assert_cmpuint (test_count_files (taken), ==, 0);
  g_assert_true (g_file_equal (graft_document_get_file (document), file));

  /* The window closed while its session is written: the file still is. */
  g_unlink (path);
  g_assert_true (graft_window_save_to (window, file));
  close_window (window);
  iterate_until (file_exists, path);
  g_assert_true (g_file_get_contents (path, &again, NULL, NULL));
  g_assert_true (g_str_has_prefix (again, "{"));
  g_unlink (path);
  g_rmdir (taken);
  g_rmdir (dir);
}

/* Whether @window's save as code is copying its code by steps. */
static gboolean
save_making (gpointer window)
{
  GraftExport *export = _graft_document_get_saving_export (graft_window_get_document (window));

  return export != NULL && _graft_export_get_making (export);
}

/* File > Save As of the graph as code, made by steps (a few hundred bytes
 * of code a turn) and written off the main loop: Save and Save As are
 * disabled meanwhile; an edit meanwhile, even undone, ends it with a toast
 * naming the file and leaves the file as it was, never half written;
 * untouched, the file is what graft_document_save() writes at once, and
 * becomes the document's, saved; the window closed meanwhile still gets
 * its file. */
static void
test_code_off_loop (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "g.py", NULL);
  g_autofree char *once_path = g_build_filename (dir, "once.py", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFile) once = g_file_new_for_path (once_path);
  g_autoptr (GFile) opened = NULL;
  GraftWindow   *window = open_resnet ();
  GraftDocument *document = graft_window_get_document (window);
  g_autoptr (GError) error = NULL;
  g_autofree char *written = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *again = NULL;

  opened = g_object_ref (graft_document_get_file (document));
  g_assert_true (g_file_set_contents (path, "# kept\n", -1, NULL));
  _graft_export_set_marks_step (format_step (GRAFT_FORMAT_CODE));
  g_assert_true (graft_window_save_to (window, file));
  g_assert_true (graft_window_get_saving (window));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "save"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "save-as"));
  iterate_until (save_making, window);
  /* The edit, then undone: the graph is as before, but not the one the
   * code was begun of. */
  g_assert_true (graft_document_replace (document, 0, &error));
  g_assert_no_error (error);
  g_assert_nonnull (graft_document_undo (document));
  iterate_until (session_written, window);
  g_assert_cmpstr (graft_window_get_last_toast (window), ==,
                   "The graph was not saved to g.py: the graph changed while it was written");
  g_assert_true (g_file_get_contents (path, &written, NULL, NULL));
  g_assert_cmpstr (written, ==, "# kept\n");
  g_assert_cmpuint (test_count_files (dir), ==, 1);
  g_assert_true (g_file_equal (graft_document_get_file (document), opened));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "save-as"));

  /* Untouched: what graft_document_save() writes at once, the document's
   * file now, saved. */
  g_assert_true (graft_document_replace (document, 0, &error));
  g_assert_no_error (error);
  g_assert_true (graft_document_get_modified (document));
  g_assert_true (graft_window_save_to (window, file));
  iterate_until (session_written, window);
  g_assert_cmpstr (graft_window_get_last_toast (window), ==, "Saved as Python code");
  g_clear_pointer (&written, g_free);
  g_assert_true (g_file_get_contents (path, &written, NULL, NULL));
  g_assert_true (g_file_equal (graft_document_get_file (document), file));
  g_assert_false (graft_document_get_modified (document));
  g_assert_true (graft_document_save (document, once, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (once_path, &expected, NULL, NULL));
  g_assert_cmpstr (written, ==, expected);
  g_assert_cmpuint (test_count_files (dir), ==, 2);
  g_unlink (once_path);

  /* The window closed while its code is copied: the file still is. */
  g_unlink (path);
  g_assert_true (graft_window_save_to (window, file));
  iterate_until (save_making, window);
  close_window (window);
  iterate_until (file_exists, path);
  g_assert_true (g_file_get_contents (path, &again, NULL, NULL));
  g_assert_cmpstr (again, ==, expected);
  _graft_export_set_marks_step (0);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  if (!ui_test_init (&argc, &argv))
    return 0;
  /* Exports of the big chains take longer than other waits. */
  set_wait_limit (300);
  g_test_add_func ("/ui/export/view", test_view);
  g_test_add_func ("/ui/export/dialog", test_export_dialog);
  g_test_add_func ("/ui/export/folded", test_folded);
  g_test_add_func ("/ui/export/marks-in-turns", test_marks_in_turns);
  g_test_add_func ("/ui/export/big-png", test_big_png);
  g_test_add_func ("/ui/export/progress-cancel", test_progress_cancel);
  g_test_add_func ("/ui/export/matches-json", test_matches_json);
  g_test_add_func ("/ui/export/unwritable", test_unwritable);
  g_test_add_func ("/ui/export/let-go", test_let_go);
  g_test_add_func ("/ui/export/text-in-turns", test_text_in_turns);
  g_test_add_func ("/ui/export/text-edit-cancels", test_text_edit_cancels);
  g_test_add_func ("/ui/export/text-rename-fails", test_text_rename_fails);
  g_test_add_func ("/ui/export/text-close-window", test_text_close_window);
  g_test_add_func ("/ui/export/session-off-loop", test_session_off_loop);
  g_test_add_func ("/ui/export/code-off-loop", test_code_off_loop);
  g_test_add_func ("/ui/export/note-whole", test_export_note_whole);
  g_test_add_func ("/ui/export/save-as-format", test_save_as_format);
  return g_test_run ();
}
