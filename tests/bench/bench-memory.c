/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-memory.c: the memory benchmark.  Reads one Python file (as
 * gen-module.py writes them), traces it, generates its code and its
 * listing, and prints what each step took and what the graph costs per
 * node: the graph IR's own estimate (graft_graph_get_memory_size) and the
 * growth of the process's peak resident set.  A benchmark, not a test: it
 * prints figures and fails only if the input does not trace.
 *
 *   bench-memory FILE
 *
 * The output is one line of `key=value` pairs (tests/bench/bench-trace
 * parses it; tests/bench/README.md says what each key means).
 */
#include "config.h"

#include <stdio.h>
#include <sys/resource.h>

#include "graft.h"

/* The peak resident set so far, in bytes (Linux reports kilobytes). */
static gint64
peak_rss_bytes (void)
{
  struct rusage usage;

  if (getrusage (RUSAGE_SELF, &usage) != 0)
    return 0;
  return (gint64) usage.ru_maxrss * 1024;
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
  g_autoptr(GError) error = NULL;
  g_autoptr(GraftSource) source = NULL;
  g_autoptr(GraftGraph) graph = NULL;
  g_autofree char *code = NULL;
  g_autofree char *listing = NULL;
  gint64 rss_start;
  gint64 rss_traced;
  gint64 rss_end;
  gint64 start;
  double trace_s;
  double codegen_s;
  double listing_s;
  gsize graph_bytes;
  guint n_nodes;

  if (argc != 2)
    {
      fprintf (stderr, "usage: %s FILE.py\n", argv[0]);
      return 2;
    }

  /* The baseline is taken after GLib and the C library have set up, and
   * before the input is read: the growth counts the source text, the
   * parse tree (freed after tracing, but part of the peak) and the graph. */
  rss_start = peak_rss_bytes ();
  source = graft_source_new_from_file (argv[1], &error);
  if (source == NULL)
    {
      fprintf (stderr, "%s: %s\n", argv[1], error->message);
      return 1;
    }

  start = g_get_monotonic_time ();
  graph = graft_trace_source (source, NULL, &error);
  trace_s = seconds_since (start);
  if (graph == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  rss_traced = peak_rss_bytes ();

  start = g_get_monotonic_time ();
  code = graft_codegen_python (graph);
  codegen_s = seconds_since (start);

  start = g_get_monotonic_time ();
  listing = graft_listing_print (graph);
  listing_s = seconds_since (start);
  rss_end = peak_rss_bytes ();

  n_nodes = graft_graph_get_n_nodes (graph);
  graph_bytes = graft_graph_get_memory_size (graph);
  if (n_nodes == 0)
    n_nodes = 1;

  printf ("nodes=%u source_bytes=%" G_GSIZE_FORMAT
          " graph_bytes=%" G_GSIZE_FORMAT " graph_bytes_per_node=%.1f"
          " rss_trace_bytes=%" G_GINT64_FORMAT " rss_trace_per_node=%.1f"
          " rss_total_bytes=%" G_GINT64_FORMAT " rss_total_per_node=%.1f"
          " code_bytes=%" G_GSIZE_FORMAT " listing_bytes=%" G_GSIZE_FORMAT
          " trace_s=%.6f codegen_s=%.6f listing_s=%.6f\n",
          n_nodes, graft_source_get_length (source),
          graph_bytes, (double) graph_bytes / n_nodes,
          rss_traced - rss_start, (double) (rss_traced - rss_start) / n_nodes,
          rss_end - rss_start, (double) (rss_end - rss_start) / n_nodes,
          strlen (code), strlen (listing),
          trace_s, codegen_s, listing_s);
  return 0;
}
