/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-leak-canary.c: that the sanitizer build would see a leak of
 * Graft's own.
 *
 * LeakSanitizer suppressions match any frame of a leaked block's stack,
 * and every block Graft allocates goes through GLib: a suppression
 * naming GLib (tests/lsan.supp once had `leak:libglib-2.0.so`) hides
 * every leak of the project while the suites stay green.  This program
 * runs itself again to leak blocks through g_malloc0() under the
 * suites' own LSAN_OPTIONS and asserts that the leak is reported.
 * The same for a Pango layout that is never unreferenced: a GObject
 * comes from GSlice, whose magazines keep their slabs reachable unless
 * G_SLICE=always-malloc (which tests/meson.build sets), and it is made
 * inside Pango, which tests/lsan.supp must therefore not name.
 * tests/meson.build builds it only with AddressSanitizer.
 */
#include <glib.h>
#include <pango/pangocairo.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_ASAN 1
#endif
#endif

/* Where the leaked blocks were last held: overwritten each time, so only
 * the last one could look reachable. */
static gpointer volatile held;

static __attribute__ ((noinline)) void
leak_canary_blocks (void)
{
  for (int i = 0; i < 64; i++)
    held = g_malloc0 (16 + i);
  held = NULL;
}

/* A layout measured as Graft's text measures its labels, then dropped
 * without g_object_unref(). */
static __attribute__ ((noinline)) void
leak_canary_layout (void)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 8, 8);
  cairo_t         *cr = cairo_create (surface);
  PangoLayout     *layout = pango_cairo_create_layout (cr);
  int              width = 0;

  pango_layout_set_text (layout, "relu_1", -1);
  pango_layout_get_pixel_size (layout, &width, NULL);
  g_assert_cmpint (width, >, 0);
  held = layout;
  held = NULL;
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
test_reported (gconstpointer data)
{
#ifdef HAVE_ASAN
  const char      *self = g_test_get_filename (G_TEST_BUILT, "test-leak-canary", NULL);
  const char      *argv[] = { self, data, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                               &status, &error));
  g_assert_no_error (error);
  g_test_message ("child exited with %d", status);
  g_assert_false (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (err, "LeakSanitizer: detected memory leaks"));
#else
  g_test_skip ("built without AddressSanitizer");
#endif
}

int
main (int   argc,
      char *argv[])
{
  if (argc == 2 && strcmp (argv[1], "--leak") == 0)
    {
      leak_canary_blocks ();
      return 0;
    }
  if (argc == 2 && strcmp (argv[1], "--leak-layout") == 0)
    {
      leak_canary_layout ();
      return 0;
    }
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/tests/leak-canary/reported", "--leak", test_reported);
  g_test_add_data_func ("/tests/leak-canary/pango-layout", "--leak-layout", test_reported);
  return g_test_run ();
}
