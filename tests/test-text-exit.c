/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-text-exit.c: the process exits while workers shape text.  HarfBuzz
 * frees the strings of its languages in an exit handler; a worker still
 * shaping then read them freed (AddressSanitizer saw it once, as the
 * ui-busy-views program ended, in hb_ot_tags_from_script_and_language()).
 * The exit now waits for the text sections under way and lets no other
 * start (core/view/graft-text.c).  Each case runs in a subprocess that
 * exits with its workers busy.
 */
#include "config.h"

#include "graft-view.h"
#include "test-util.h"

#define GRAFT_COMPILATION 1
#include "graft-text-private.h"

#include <hb.h>
#include <string.h>
#include <unistd.h>

/* LeakSanitizer's hook (<sanitizer/lsan_interface.h>): a process that
 * exits under workers leaves what they were making, reachable or not. */
int __lsan_is_turned_off (void);

static int exits_under_work;

int
__lsan_is_turned_off (void)
{
  return exits_under_work;
}

/* An exit handler of another library, run after Graft's and HarfBuzz's
 * (registered before them): the exit lasts until a worker has woken up,
 * or AddressSanitizer has said what it saw. */
static void
sleep_at_exit (void)
{
  g_usleep (300 * 1000);
}

static GMutex   inside_lock;
static GCond    inside_cond;
static gboolean inside;

/* In a text section, a language HarfBuzz made, read again after the
 * process has begun to exit. */
static gpointer
hold_section_cb (gpointer data)
{
  static const char name[] = "x-graft-exit";
  const char       *string;
  char              line[64];
  int               n;

  _graft_text_enter ();
  string = hb_language_to_string (hb_language_from_string (name, -1));
  g_mutex_lock (&inside_lock);
  inside = TRUE;
  g_cond_signal (&inside_cond);
  g_mutex_unlock (&inside_lock);
  /* The main thread exits meanwhile; a section inside this one still
   * runs. */
  g_usleep (300 * 1000);
  _graft_text_enter ();
  _graft_text_leave ();
  n = g_snprintf (line, sizeof line, "%s\n", strcmp (string, name) == 0 ? "intact" : "freed");
  g_assert_cmpint (write (STDOUT_FILENO, line, (size_t) n), ==, n);
  _graft_text_leave ();
  return NULL;
}

/* The exit waits for a section under way: HarfBuzz's languages are still
 * there when it ends, and a section nested in it is not held. */
static void
test_section_outlives_exit (void)
{
  if (g_test_subprocess ())
    {
      g_thread_unref (g_thread_new ("section", hold_section_cb, NULL));
      g_mutex_lock (&inside_lock);
      while (!inside)
        g_cond_wait (&inside_cond, &inside_lock);
      g_mutex_unlock (&inside_lock);
      exit (0);
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("intact\n");
  g_test_trap_assert_stderr_unmatched ("*AddressSanitizer*");
}

/* A section that would start on a worker once the process exits does not
 * run: the worker waits for the end. */
static gpointer
late_section_cb (gpointer data)
{
  /* Past the main thread's exit() (it waits for nothing: no section runs). */
  g_usleep (100 * 1000);
  _graft_text_enter ();
  g_assert_cmpint (write (STDOUT_FILENO, "ran\n", 4), ==, 4);
  _graft_text_leave ();
  return NULL;
}

static void
test_no_section_after_exit (void)
{
  if (g_test_subprocess ())
    {
      atexit (sleep_at_exit);
      /* Graft's exit handler is registered with the first section. */
      _graft_text_enter ();
      _graft_text_leave ();
      g_thread_unref (g_thread_new ("late", late_section_cb, NULL));
      exit (0);
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout_unmatched ("*ran*");
}

/* A case whose subprocess starts workers with @start_work, exits under
 * them after a pause of 20 ms to @max_ms (at random), what they hold
 * left to them, and passes without a word from AddressSanitizer: six
 * times over. */
static void
exit_under_work (void (*start_work) (void),
                 gint max_ms)
{
  if (g_test_subprocess ())
    {
      start_work ();
      g_usleep ((gulong) g_test_rand_int_range (20, max_ms) * 1000);
      /* What the workers hold stays: they run on. */
      exits_under_work = TRUE;
      exit (0);
    }
  for (guint run = 0; run < 6; run++)
    {
      g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
      g_test_trap_assert_passed ();
      g_test_trap_assert_stderr_unmatched ("*AddressSanitizer*");
    }
}

/* Workers shaping text in a language of its own each time, in sections:
 * each time HarfBuzz makes a shape plan, reading the language's string,
 * until the process exits under them. */
static gpointer
shape_languages_cb (gpointer data)
{
  PangoContext *context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  PangoLayout  *layout = pango_layout_new (context);
  guint         k = GPOINTER_TO_UINT (data) * 1000000;

  for (;; k++)
    {
      char           tag[32];
      PangoRectangle logical;

      g_snprintf (tag, sizeof tag, "x-graft-%u", k);
      pango_context_set_language (context, pango_language_from_string (tag));
      pango_layout_context_changed (layout);
      _graft_text_enter ();
      pango_layout_set_text (layout, "r\u00e9sum\u00e9 \u2192 x", -1);
      pango_layout_get_extents (layout, NULL, &logical);
      _graft_text_leave ();
    }
  return NULL;
}

static void
start_shaping (void)
{
  atexit (sleep_at_exit);
  for (guint i = 0; i < 3; i++)
    g_thread_unref (g_thread_new ("shape", shape_languages_cb, GUINT_TO_POINTER (i)));
}

static void
test_exit_while_shaping (void)
{
  exit_under_work (start_shaping, 100);
}

/* Workers that lay out a graph with module frames (dot's cluster labels,
 * which Graphviz's text plugin shapes with Pango) and draw it, each on a
 * new thread (a new font map, so new shape plans: HarfBuzz reads the
 * language's string for those), until the process exits under them. */
typedef struct
{
  GraftLayoutRequest **requests;
  guint                n_requests;
  gint                 next; /* atomic */
} Work;

static gpointer
job_cb (gpointer data)
{
  GraftLayoutRequest *request = data;
  g_autoptr (GraftLayout) layout = graft_layout_request_run (request, NULL);
  g_autoptr (GBytes) png = NULL;

  if (layout != NULL)
    png = graft_render_to_bytes (layout, GRAFT_FORMAT_PNG, NULL, NULL);
  return NULL;
}

static gpointer
spawn_jobs_cb (gpointer data)
{
  Work *work = data;
  gint  k;

  while ((k = g_atomic_int_add (&work->next, 1)) < (gint) work->n_requests)
    g_thread_join (g_thread_new ("job", job_cb, work->requests[k]));
  return NULL;
}

static void
start_jobs (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "data", "examples",
                                            "resnet18_bn_relu.py", NULL);
  GraftGraph      *graph = test_load_graph (path);
  GraftScopes     *scopes = graft_scopes_new (graph);
  GHashTable      *none = g_hash_table_new (g_str_hash, g_str_equal);
  Work            *work = g_new0 (Work, 1);

  work->n_requests = 400;
  work->requests = g_new0 (GraftLayoutRequest *, work->n_requests);
  for (guint i = 0; i < work->n_requests; i++)
    work->requests[i] = graft_layout_request_new_folded (graph, scopes, none, NULL);
  for (guint i = 0; i < 3; i++)
    g_thread_unref (g_thread_new ("spawn", spawn_jobs_cb, work));
}

static void
test_exit_under_workers (void)
{
  exit_under_work (start_jobs, 200);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/text-exit/section-outlives-exit", test_section_outlives_exit);
  g_test_add_func ("/text-exit/no-section-after-exit", test_no_section_after_exit);
  g_test_add_func ("/text-exit/exit-while-shaping", test_exit_while_shaping);
  g_test_add_func ("/text-exit/exit-under-workers", test_exit_under_workers);
  return g_test_run ();
}
