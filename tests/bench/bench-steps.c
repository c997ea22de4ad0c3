/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-steps.c: what the benches of the editor's steps share.  They
 * time steps in the calling thread's processor time and read their graph
 * in the editor's default torch (2.6); a bad file ends the bench with its
 * message and status 1.
 */
#include "config.h"

#include "bench-steps.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The calling thread's processor time, in milliseconds. */
double
bench_thread_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static G_NORETURN void
fail (GError *error)
{
  fprintf (stderr, "%s\n", error->message);
  exit (1);
}

/* @source's graph, as the editor loads it. */
GraftGraph *
bench_load_graph (GraftSource *source)
{
  g_autoptr (GError) error = NULL;
  GraftGraph *graph = graft_input_load_graph (source, graft_dialect_get (GRAFT_TORCH_2_6), NULL,
                                              &error);

  if (graph == NULL)
    fail (error);
  return graph;
}

/* The file at @path, read as the editor reads it; the graph loaded from
 * it may point into it, so it is kept as long as the graph. */
GraftSource *
bench_read_source (const char *path)
{
  g_autoptr (GError) error = NULL;
  GraftSource *source = graft_input_read_file (path, &error);

  if (source == NULL)
    fail (error);
  return source;
}

/* The opening of a bench run as `NAME FILE [NODES]`: without FILE, ends
 * it with its usage line and status 2; else reads FILE into @source
 * (kept by the caller as long as the graph), loads its graph and prints
 * its size, and sets @n_nodes to NODES, or to @default_nodes. */
GraftGraph *
bench_open_graph (int           argc,
                  char        **argv,
                  const char   *name,
                  guint         default_nodes,
                  guint        *n_nodes,
                  GraftSource **source)
{
  GraftGraph *graph;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s FILE [NODES]\n", name);
      exit (2);
    }
  *n_nodes = argc > 2 ? (guint) atoi (argv[2]) : default_nodes;
  *source = bench_read_source (argv[1]);
  graph = bench_load_graph (*source);
  printf ("nodes=%u\n", graft_graph_get_n_nodes (graph));
  return graph;
}
