/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-memory.c: the memory benchmark.  Reads one Python file (as
 * gen-module.py writes them), traces it, generates its code and its
 * listing, and prints what each step took and what the graph costs per
 * node: the graph IR's own count of what it allocated
 * (graft_graph_get_memory_size), and of that the interned text of names
 * and argument strings (graft_graph_get_string_memory_size), the growth of the process's peak
 * resident set (after parsing alone, then after tracing, which parses again), and the resident set
 * still held once the trace returns (the graph, the source and what malloc keeps).  The peak of
 * the trace alone (`rss_read`, what a `graft code` process reaches while reading) is also
 * measured apart: the parse alone's freed pages handed back and the high-water mark reset
 * first.  A benchmark,
 * not a test: it prints figures and fails only if the input does not trace.
 *
 *   bench-memory FILE
 *
 * The output is one line of `key=value` pairs (tests/bench/bench-trace
 * parses it; tests/bench/README.md says what each key means).
 */
#include "config.h"

#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "graft-view.h"

/* The peak resident set so far, in bytes.  Linux keeps ru_maxrss across
 * execve, so a child of a big parent starts with the parent's peak; the
 * address space's own high-water mark (VmHWM, which
 * reset_peak_rss() can clear) does not have that problem.  getrusage is
 * the fallback elsewhere. */
static gint64
peak_rss_bytes (void)
{
  g_autofree char *status = NULL;
  struct rusage    usage;
  const char      *hwm;

  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL) &&
      (hwm = strstr (status, "\nVmHWM:")) != NULL)
    return g_ascii_strtoll (hwm + strlen ("\nVmHWM:"), NULL, 10) * 1024;
  if (getrusage (RUSAGE_SELF, &usage) != 0)
    return 0;
  return (gint64) usage.ru_maxrss * 1024;
}

/* Sets the high-water mark to the resident set now (Linux 4.0 and later;
 * elsewhere the baseline is simply the peak so far). */
static void
reset_peak_rss (void)
{
  FILE *file = fopen ("/proc/self/clear_refs", "w");

  if (file == NULL)
    return;
  fputs ("5", file);
  fclose (file);
}

/* The resident set now, in bytes, from /proc/self/statm (0 elsewhere). */
static gint64
current_rss_bytes (void)
{
  g_autofree char *statm = NULL;
  char            *end = NULL;
  const char      *p;

  if (!g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL))
    return 0;
  /* The fields are size, resident, ... in pages. */
  p = strchr (statm, ' ');
  if (p == NULL)
    return 0;
  return (gint64) g_ascii_strtoll (p + 1, &end, 10) * sysconf (_SC_PAGESIZE);
}

/* The bytes malloc has handed out and not had back (0 without glibc). */
static gint64
heap_in_use_bytes (void)
{
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 33)
  struct mallinfo2 info = mallinfo2 ();

  return (gint64) (info.uordblks + info.hblkhd);
#else
  return 0;
#endif
}

static double
seconds_since (gint64 start_us)
{
  return (double) (g_get_monotonic_time () - start_us) / G_USEC_PER_SEC;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autofree char *code = NULL;
  g_autofree char *listing = NULL;
  gint64           rss_start;
  gint64           rss_now_start;
  gint64           rss_parsed;
  gint64           rss_traced;
  gint64           rss_read;
  gint64           rss_retained;
  gint64           heap_start;
  gint64           heap_graph;
  gint64           rss_end;
  gint64           start;
  double           parse_s;
  double           trace_s;
  double           codegen_s;
  double           listing_s;
  gsize            graph_bytes;
  gsize            graph_string_bytes;
  guint            n_nodes;

  if (argc != 2)
    {
      fprintf (stderr, "usage: %s FILE.py\n", argv[0]);
      return 2;
    }

  /* The baseline is taken after GLib and the C library have set up, and
   * before the input is read: the growth counts the source text, the
   * parse tree (freed after tracing, but part of the peak) and the graph. */
  reset_peak_rss ();
  rss_start = peak_rss_bytes ();
  rss_now_start = current_rss_bytes ();
  heap_start = heap_in_use_bytes ();
  source = graft_input_read_file (argv[1], &error);
  if (source == NULL)
    {
      fprintf (stderr, "%s: %s\n", argv[1], error->message);
      return 1;
    }

  /* Parsing alone, to tell the parse tree's share of the peak. */
  {
    GraftPyModule *module;

    start = g_get_monotonic_time ();
    module = graft_py_parse (source, &error);
    parse_s = seconds_since (start);
    if (module == NULL)
      {
        fprintf (stderr, "%s\n", error->message);
        return 1;
      }
    rss_parsed = peak_rss_bytes ();
    graft_py_module_free (module);
  }
  rss_traced = peak_rss_bytes ();
#ifdef __GLIBC__
  /* The freed tree's pages back, so that the trace starts from the
   * source alone, as in a `graft code` process. */
  malloc_trim (0);
#endif
  reset_peak_rss ();

  start = g_get_monotonic_time ();
  graph = graft_trace_source (source, graft_dialect_get (GRAFT_TORCH_1_13), NULL, &error);
  trace_s = seconds_since (start);
  if (graph == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  rss_read = peak_rss_bytes ();
  rss_traced = MAX (rss_traced, rss_read);
#ifdef __GLIBC__
  /* Hand freed pages (the parse tree's, the tracer's) back first, so that
   * what remains is what the graph and the source hold. */
  malloc_trim (0);
#endif
  rss_retained = current_rss_bytes () - rss_now_start;
  /* The source is still held too; it is not the graph's. */
  heap_graph = heap_in_use_bytes () - heap_start - (gint64) graft_source_get_length (source);

  start = g_get_monotonic_time ();
  code = graft_codegen_python (graph);
  codegen_s = seconds_since (start);

  start = g_get_monotonic_time ();
  listing = graft_listing_print (graph);
  listing_s = seconds_since (start);
  rss_end = MAX (rss_traced, peak_rss_bytes ());

  n_nodes = graft_graph_get_n_nodes (graph);
  graph_bytes = graft_graph_get_memory_size (graph);
  graph_string_bytes = graft_graph_get_string_memory_size (graph);
  if (n_nodes == 0)
    n_nodes = 1;

  printf ("nodes=%u source_bytes=%" G_GSIZE_FORMAT
          " graph_bytes=%" G_GSIZE_FORMAT " graph_bytes_per_node=%.1f"
          " graph_string_bytes=%" G_GSIZE_FORMAT " graph_string_bytes_per_node=%.1f"
          " rss_parse_bytes=%" G_GINT64_FORMAT " rss_parse_per_node=%.1f"
          " rss_trace_bytes=%" G_GINT64_FORMAT " rss_trace_per_node=%.1f"
          " rss_read_bytes=%" G_GINT64_FORMAT " rss_read_per_node=%.1f"
          " rss_retained_bytes=%" G_GINT64_FORMAT " rss_retained_per_node=%.1f"
          " heap_graph_bytes=%" G_GINT64_FORMAT " heap_graph_per_node=%.1f"
          " rss_total_bytes=%" G_GINT64_FORMAT " rss_total_per_node=%.1f"
          " code_bytes=%" G_GSIZE_FORMAT " listing_bytes=%" G_GSIZE_FORMAT
          " parse_s=%.6f trace_s=%.6f codegen_s=%.6f listing_s=%.6f\n",
          n_nodes, graft_source_get_length (source),
          graph_bytes, (double) graph_bytes / n_nodes,
          graph_string_bytes, (double) graph_string_bytes / n_nodes,
          rss_parsed - rss_start, (double) (rss_parsed - rss_start) / n_nodes,
          rss_traced - rss_start, (double) (rss_traced - rss_start) / n_nodes,
          rss_read - rss_start, (double) (rss_read - rss_start) / n_nodes,
          rss_retained, (double) rss_retained / n_nodes,
          heap_graph, (double) heap_graph / n_nodes,
          rss_end - rss_start, (double) (rss_end - rss_start) / n_nodes,
          strlen (code), strlen (listing),
          parse_s, trace_s, codegen_s, listing_s);
  return 0;
}
