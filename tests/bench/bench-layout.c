/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-layout.c: built as `_build/tests/bench-layout FILE [REPEAT]
 * [--naive-dot PATH] [--frames]`.  Loads FILE (Python, listing or DOT),
 * lays it out REPEAT times with graft_layout_new() (with --frames: every
 * module open, in a frame, as the editor draws it) and prints the best
 * time and the drawing's shape as `key=value` pairs.  With --naive-dot it also writes
 * the graph as plain DOT (one labelled box per node, one edge per input,
 * dot's default settings): what a user gets by handing an FX graph to
 * Graphviz directly, which bench-layout times with the `dot` program for
 * comparison.
 */
#include "config.h"

#include "graft-view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
append_quoted (GString    *out,
               const char *s)
{
  g_string_append_c (out, '"');
  for (; *s != '\0'; s++)
    {
      if (*s == '"' || *s == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *s);
    }
  g_string_append_c (out, '"');
}

/* The graph as a user would hand it to dot: a labelled box per node, an
 * edge per input, no stubs, no segments, dot's defaults. */
static char *
naive_dot (GraftGraph  *graph,
           GraftLayout *layout)
{
  g_autoptr (GString) out = g_string_new ("digraph fx {\n  node [shape=box];\n");
  guint i = 0;

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node), i++)
    {
      const GraftLayoutNode *box = graft_layout_get_node (layout, graft_layout_lookup (layout, i));
      g_autofree char       *label = g_strdup_printf ("%s\n%s", box->name, box->caption);

      g_string_append (out, "  ");
      append_quoted (out, box->name);
      g_string_append (out, " [label=");
      append_quoted (out, label);
      g_string_append (out, "];\n");
    }
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      g_autoptr (GPtrArray) inputs = graft_node_dup_input_nodes (node);

      for (guint k = 0; k < inputs->len; k++)
        {
          g_string_append (out, "  ");
          append_quoted (out, graft_node_get_name (inputs->pdata[k]));
          g_string_append (out, " -> ");
          append_quoted (out, graft_node_get_name (node));
          g_string_append (out, ";\n");
        }
    }
  g_string_append (out, "}\n");
  return g_string_free (g_steal_pointer (&out), FALSE);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GraftInputSet) set = graft_input_set_new (graft_dialect_get (GRAFT_TORCH_1_13));
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GError) error = NULL;
  const char *naive_path = NULL;
  gboolean    frames = FALSE;
  int         repeat = 3;
  double      best = -1;
  double      width = 0;
  double      height = 0;
  guint       n_boxes = 0;
  guint       n_segments = 0;
  guint       n_frames = 0;

  graft_gv_enable_dot_reader ();

  if (argc < 2)
    {
      fprintf (stderr, "usage: bench-layout FILE [REPEAT] [--naive-dot PATH] [--frames]\n");
      return 2;
    }
  for (int i = 2; i < argc; i++)
    {
      if (strcmp (argv[i], "--naive-dot") == 0 && i + 1 < argc)
        naive_path = argv[++i];
      else if (strcmp (argv[i], "--frames") == 0)
        frames = TRUE;
      else
        repeat = MAX (1, atoi (argv[i]));
    }
  graph = graft_input_set_load (set, argv[1], NULL, FALSE, &error);
  if (graph == NULL)
    {
      g_autofree char *msg = graft_error_format (error, argv[1]);

      fprintf (stderr, "%s\n", msg);
      return 1;
    }
  for (int r = 0; r < repeat; r++)
    {
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr (GraftLayout) layout = NULL;
      double seconds;

      if (frames)
        {
          g_autoptr (GraftScopes) scopes = graft_scopes_new (graph);
          g_autoptr (GHashTable) none = g_hash_table_new (g_str_hash, g_str_equal);
          g_autoptr (GraftLayoutRequest) req =
              graft_layout_request_new_folded (graph, scopes, none, NULL);

          layout = graft_layout_request_run (req, &error);
        }
      else
        layout = graft_layout_new (graph, &error);
      seconds = (g_get_monotonic_time () - t0) / 1e6;

      if (layout == NULL)
        {
          fprintf (stderr, "%s: %s\n", argv[1], error->message);
          return 1;
        }
      if (best < 0 || seconds < best)
        best = seconds;
      graft_layout_get_size (layout, &width, &height);
      n_boxes = graft_layout_get_n_nodes (layout);
      n_segments = graft_layout_get_n_segments (layout);
      n_frames = graft_layout_get_n_frames (layout);
      if (naive_path != NULL && r == 0)
        {
          g_autofree char *dot = naive_dot (graph, layout);

          if (!g_file_set_contents (naive_path, dot, -1, &error))
            {
              fprintf (stderr, "%s\n", error->message);
              return 1;
            }
        }
    }
  printf ("nodes=%u boxes=%u segments=%u frames=%u layout_s=%.4f width_pt=%.0f height_pt=%.0f\n",
          graft_graph_get_n_nodes (graph), n_boxes, n_segments, n_frames, best, width, height);
  return 0;
}
