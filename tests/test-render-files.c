/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-render-files.c: pictures written in pieces (graft_render_to_output()) and
 * the atomic output file behind them.
 *
 * - graft_render_fit(): a drawing too tall for a PNG at two pixels a point
 *   is scaled to fit, says its text cannot be read below 0.75 pixels a
 *   point, and is refused, with the scale it would have had, where boxes
 *   would be under two pixels; SVG and PDF pages stop at 200 inches.
 * - A part of the drawing at a scale is a file of that size, and equal,
 *   pixel for pixel, to drawing that part with graft_render_draw().
 * - Progress rises to 1; a cancel, before or while drawing, leaves neither
 *   the file nor its temporary file, and so does a commit that fails.
 * - The plain edges of an SVG are one path, not one each.
 */
#include "config.h"

#include "graft-view.h"
#include "test-util.h"

#include <glib/gstdio.h>
#include <string.h>

/* A chain of @n calls, written as a Python module, laid out. */
static GraftLayout *
chain_layout (guint n)
{
  g_autoptr (GString) text = g_string_new ("import torch\n\n\nclass Chain(torch.nn.Module):\n"
                                           "    def forward(self, x):\n");
  g_autoptr (GraftInputSet) inputs = graft_input_set_new (graft_dialect_get_default ());
  g_autofree char *dir = g_dir_make_tmp ("graft-render-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "chain.py", NULL);
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GError) error = NULL;
  GraftLayout *layout;

  for (guint i = 0; i < n; i++)
    g_string_append (text, i % 2 == 0 ? "        x = torch.relu(x)\n" : "        x = x * 2\n");
  g_string_append (text, "        return x\n");
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  graph = graft_input_set_load (inputs, path, NULL, FALSE, &error);
  g_assert_no_error (error);
  layout = graft_layout_new (graph, &error);
  g_assert_no_error (error);
  g_unlink (path);
  g_rmdir (dir);
  return layout;
}

static void
test_fit (void)
{
  GraftRenderFit fit;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;

  /* Small: two pixels a point, not scaled. */
  g_assert_true (graft_render_fit (GRAFT_FORMAT_PNG, 300, 200, 0, &fit, &error));
  g_assert_cmpfloat (fit.scale, ==, 2);
  g_assert_cmpfloat (fit.width, ==, 600);
  g_assert_cmpfloat (fit.height, ==, 400);
  g_assert_true (fit.readable);
  g_assert_false (fit.scaled);

  /* 40,000 points tall: 0.8 pixels a point, still readable. */
  g_assert_true (graft_render_fit (GRAFT_FORMAT_PNG, 300, 40000, 0, &fit, &error));
  g_assert_cmpfloat_with_epsilon (fit.scale, 0.8, 1e-9);
  g_assert_cmpfloat (fit.height, <=, GRAFT_MAX_PNG_SIDE);
  g_assert_true (fit.scaled);
  g_assert_true (fit.readable);
  text = graft_render_fit_describe (&fit);
  g_assert_cmpstr (text, ==, "80 %");
  g_clear_pointer (&text, g_free);

  /* 100,000 points: 0.32, which cannot be read. */
  g_assert_true (graft_render_fit (GRAFT_FORMAT_PNG, 300, 100000, 0, &fit, &error));
  g_assert_false (fit.readable);
  text = graft_render_fit_describe (&fit);
  g_assert_cmpstr (text, ==, "32 %, text unreadable");
  g_clear_pointer (&text, g_free);

  /* A wide and tall drawing is held to the pixel budget. */
  g_assert_true (graft_render_fit (GRAFT_FORMAT_PNG, 20000, 20000, 0, &fit, &error));
  g_assert_cmpfloat (fit.width * fit.height, <=, GRAFT_MAX_PNG_PIXELS + 2 * 20000);

  /* The 50,000-node graph of the issue: refused, saying why. */
  g_assert_false (graft_render_fit (GRAFT_FORMAT_PNG, 268, 3019889, 0, &fit, &error));
  g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_LIMIT);
  g_assert_cmpstr (error->message, ==,
                   "the drawing is too large for PNG (268 x 3019889 points): it would be drawn at "
                   "1.1 %, where boxes are under two pixels; use SVG or PDF");
  g_clear_error (&error);

  /* Vector pages stop at 200 inches. */
  g_assert_true (graft_render_fit (GRAFT_FORMAT_PDF, 268, 28800, 0, &fit, &error));
  g_assert_cmpfloat (fit.height, ==, GRAFT_MAX_VECTOR_SIDE);
  g_assert_cmpfloat_with_epsilon (fit.scale, 0.5, 1e-9);
  g_assert_true (fit.scaled);
  /* A scale asked for is kept where it fits. */
  g_assert_true (graft_render_fit (GRAFT_FORMAT_SVG, 100, 100, 3, &fit, &error));
  g_assert_cmpfloat (fit.width, ==, 300);
  g_assert_false (fit.scaled);
}

static void
record_cb (double   fraction,
           gpointer user_data)
{
  g_array_append_val ((GArray *) user_data, fraction);
}

/* A part of the drawing: its size, and the same pixels as drawing it. */
static void
test_region (void)
{
  g_autoptr (GraftLayout) layout = chain_layout (40);
  g_autofree char *dir = g_dir_make_tmp ("graft-render-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "part.png", NULL);
  g_autoptr (GraftOutputFile) out = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) steps = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char   *contents = NULL;
  GraftRenderArea    area = { { 10, 200, 150, 100 }, 1.5 };
  GraftRenderOptions options;
  GraftRenderFit     fit;
  cairo_surface_t   *read;
  cairo_surface_t   *expected;
  cairo_t           *cr;
  gsize              length;

  graft_render_options_init (&options);
  out = graft_output_file_open (path, &error);
  g_assert_no_error (error);
  g_assert_true (graft_render_to_output (layout, GRAFT_FORMAT_PNG, &options, &area, out, record_cb,
                                         steps, NULL, &fit, &error));
  g_assert_no_error (error);
  /* Nothing is at the target before the commit. */
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_true (graft_output_file_commit (g_steal_pointer (&out), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (test_count_files (dir), ==, 1);
  g_assert_cmpfloat (fit.scale, ==, 1.5);
  g_assert_cmpuint (steps->len, >=, 1);
  g_assert_cmpfloat (g_array_index (steps, double, steps->len - 1), ==, 1.0);

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  read = test_png_read (contents, length);
  g_assert_cmpint (cairo_image_surface_get_width (read), ==, 225);
  g_assert_cmpint (cairo_image_surface_get_height (read), ==, 150);

  /* The same part, drawn as the canvas draws. */
  expected = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 225, 150);
  cr = cairo_create (expected);
  cairo_scale (cr, 1.5, 1.5);
  cairo_translate (cr, -10, -200);
  cairo_rectangle (cr, 10, 200, 150, 100);
  cairo_clip (cr);
  options.draw_background = TRUE;
  graft_render_draw (layout, cr, &options);
  cairo_destroy (cr);
  cairo_surface_flush (expected);
  cairo_surface_flush (read);
  {
    int           stride = cairo_image_surface_get_stride (expected);
    const guchar *a = cairo_image_surface_get_data (expected);
    const guchar *b = cairo_image_surface_get_data (read);
    guint         differ = 0;
    guint         ink = 0;

    g_assert_cmpint (cairo_image_surface_get_stride (read), ==, stride);
    for (int y = 0; y < 150; y++)
      for (int x = 0; x < 225; x++)
        {
          guint32 pa = *(const guint32 *) (a + y * stride + x * 4);
          guint32 pb = *(const guint32 *) (b + y * stride + x * 4);

          differ += pa != pb;
          ink += pb != *(const guint32 *) b;
        }
    g_assert_cmpuint (differ, ==, 0);
    /* Something is drawn there: not only background. */
    g_assert_cmpuint (ink, >, 1000);
  }
  cairo_surface_destroy (read);
  cairo_surface_destroy (expected);
  g_unlink (path);
  g_rmdir (dir);
}

static void
cancel_cb (double   fraction,
           gpointer user_data)
{
  g_cancellable_cancel (user_data);
}

/* Cancelled before or while drawing, or failing at the commit: no file,
 * no temporary file. */
static void
test_cancel (void)
{
  g_autoptr (GraftLayout) layout = chain_layout (600);
  g_autofree char  *dir = g_dir_make_tmp ("graft-render-XXXXXX", NULL);
  g_autofree char  *path = g_build_filename (dir, "g.svg", NULL);
  const GraftFormat formats[] = { GRAFT_FORMAT_PNG, GRAFT_FORMAT_SVG, GRAFT_FORMAT_PDF };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autoptr (GCancellable) cancellable = g_cancellable_new ();
      g_autoptr (GraftOutputFile) out = graft_output_file_open (path, NULL);
      g_autoptr (GError) error = NULL;

      g_assert_nonnull (out);
      g_assert_cmpuint (test_count_files (dir), ==, 1);
      g_cancellable_cancel (cancellable);
      g_assert_false (graft_render_to_output (layout, formats[i], NULL, NULL, out, NULL, NULL,
                                              cancellable, NULL, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_clear_pointer (&out, graft_output_file_abandon);
      g_assert_cmpuint (test_count_files (dir), ==, 0);
    }

  /* While drawing: the first progress report cancels. */
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autoptr (GCancellable) cancellable = g_cancellable_new ();
      g_autoptr (GraftOutputFile) out = graft_output_file_open (path, NULL);
      g_autoptr (GError) error = NULL;

      g_assert_false (graft_render_to_output (layout, formats[i], NULL, NULL, out, cancel_cb,
                                              cancellable, cancellable, NULL, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_clear_pointer (&out, graft_output_file_abandon);
      g_assert_cmpuint (test_count_files (dir), ==, 0);
    }

  /* A commit whose rename fails (the target is a folder) removes the
   * temporary file. */
  {
    g_autofree char *folder = g_build_filename (dir, "taken", NULL);
    g_autofree char *inner = g_build_filename (folder, "x", NULL);
    GraftOutputFile *out;
    g_autoptr (GError) error = NULL;

    g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
    g_assert_true (g_file_set_contents (inner, "x", 1, NULL));
    out = graft_output_file_open (folder, &error);
    g_assert_no_error (error);
    g_assert_true (graft_output_file_write (out, "data", 4, &error));
    g_assert_true (graft_output_file_sync (out, &error));
    g_assert_false (graft_output_file_commit (out, &error));
    g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_IO);
    g_assert_cmpuint (test_count_files (dir), ==, 1);
    g_unlink (inner);
    g_rmdir (folder);
  }
  g_rmdir (dir);
}

/* Plain edges are one stroke and one fill of arrowheads: fewer paths
 * than edges. */
static void
test_svg_edges (void)
{
  g_autoptr (GraftLayout) layout = chain_layout (200);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) svg = graft_render_to_bytes (layout, GRAFT_FORMAT_SVG, NULL, &error);
  g_autofree char *text = NULL;
  guint            paths;

  g_assert_no_error (error);
  text = g_strndup (g_bytes_get_data (svg, NULL), g_bytes_get_size (svg));
  paths = test_count (strstr (text, "</defs>"), "<path");
  /* One path per box (its fill and outline), two for all the edges. */
  g_assert_cmpuint (graft_layout_get_n_edges (layout), >=, 200);
  g_assert_cmpuint (paths, ==, graft_layout_get_n_nodes (layout) + 2);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/render/fit", test_fit);
  g_test_add_func ("/core/render/region", test_region);
  g_test_add_func ("/core/render/cancel", test_cancel);
  g_test_add_func ("/core/render/svg-edges", test_svg_edges);
  return g_test_run ();
}
