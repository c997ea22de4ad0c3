/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-program-open.c: built as `_build/tests/bench-program-open FILE`.
 * Does in process, one phase after the other, what the editor does from
 * opening a file to its first picture folded by modules, and prints the
 * time of each phase as `key=value` pairs: reading the file, reading the
 * graph from it (a .pt2: the archive, the JSON and the program),
 * generating its code (the editor does it on its loading worker, for the
 * Code page), the scopes, choosing the overview (the deepest level of at
 * most 300 boxes), the layout of the folded graph, its index by name
 * (which the editor makes on the layout's worker) and drawing it whole
 * into a 1400x900 image.  `peak_rss` is the process's peak resident set
 * (VmHWM) in MB.  Each phase is given as wall-clock/processor seconds.
 * After the read: `graph_mb` (what the graph counts it allocated, of
 * which `strings_mb` its interned texts), `anon_mb` (the process's
 * anonymous resident set then: the graph, the source's copies and what
 * malloc keeps) and `faults` (the minor page faults of the read: on a
 * virtual machine each first touch of fresh memory can cost
 * microseconds).  Figures, not a test.
 */
#include "config.h"

#include "graft-view.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* The process's processor time, in seconds: on a shared machine it moves
 * less with the load than the wall clock. */
static double
cpu (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double t_wall, t_cpu;

static void
start (void)
{
  t_wall = now ();
  t_cpu = cpu ();
}

/* Prints `KEY=WALL/CPU ` for the phase since start(). */
static void
phase (const char *key)
{
  printf ("%s=%.3f/%.3f ", key, now () - t_wall, cpu () - t_cpu);
  fflush (stdout);
}

/* A field of /proc/self/status in kB, or -1. */
static long
status_kb (const char *field)
{
  g_autofree char *status = NULL;
  const char      *p;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) ||
      (p = strstr (status, field)) == NULL)
    return -1;
  return strtol (p + strlen (field), NULL, 10);
}

static long
peak_rss_kb (void)
{
  return status_kb ("VmHWM:");
}

static long
minor_faults (void)
{
  struct rusage usage;

  return getrusage (RUSAGE_SELF, &usage) == 0 ? usage.ru_minflt : 0;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = NULL;
  GraftGraph         *graph;
  GraftScopes        *scopes;
  GHashTable         *collapsed;
  GraftLayoutRequest *request;
  GraftLayout        *layout;
  GraftRenderOptions  options;
  cairo_surface_t    *surface;
  cairo_t            *cr;
  g_autofree char    *code = NULL;
  double              width, height, scale;
  long                faults;

  if (argc != 2)
    {
      fprintf (stderr, "usage: bench-program-open FILE\n");
      return 2;
    }
  start ();
  source = graft_input_read_file (argv[1], &error);
  if (source == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  phase ("read_file");
  start ();
  faults = minor_faults ();
  graph = graft_input_load_graph (source, graft_dialect_get (GRAFT_TORCH_2_6), NULL, &error);
  if (graph == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  phase ("load_graph");
  printf ("nodes=%u graph_mb=%.0f strings_mb=%.0f anon_mb=%.0f faults=%ld ",
          graft_graph_get_n_nodes (graph), graft_graph_get_memory_size (graph) / 1e6,
          graft_graph_get_string_memory_size (graph) / 1e6, status_kb ("RssAnon:") / 1024.0,
          minor_faults () - faults);
  start ();
  code = graft_codegen_python (graph);
  phase ("codegen");
  start ();
  scopes = graft_scopes_new (graph);
  phase ("scopes");
  start ();
  collapsed = graft_scopes_new_overview (scopes, 300);
  phase ("overview");
  printf ("folded=%u ", g_hash_table_size (collapsed));
  start ();
  request = graft_layout_request_new_folded (graph, scopes, collapsed, NULL);
  phase ("request");
  start ();
  layout = graft_layout_request_run (request, &error);
  if (layout == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  phase ("layout");
  printf ("boxes=%u ", graft_layout_get_n_nodes (layout));
  start ();
  graft_layout_find_node (layout, "");
  phase ("index");
  start ();
  graft_layout_get_size (layout, &width, &height);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1400, 900);
  cr = cairo_create (surface);
  scale = MIN (1400 / MAX (width, 1), 900 / MAX (height, 1));
  cairo_scale (cr, scale, scale);
  graft_render_options_init (&options);
  graft_render_draw (layout, cr, &options);
  cairo_surface_flush (surface);
  phase ("draw");
  printf ("peak_rss=%.0f\n", peak_rss_kb () / 1024.0);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  graft_layout_free (layout);
  graft_layout_request_free (request);
  g_hash_table_unref (collapsed);
  graft_scopes_free (scopes);
  graft_graph_free (graph);
  return 0;
}
