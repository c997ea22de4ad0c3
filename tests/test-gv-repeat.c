/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-gv-repeat.c: a layout with module frames (dot clusters) is the same
 * every time it is made in a process, whatever was laid out and freed
 * before it.  Graphviz's default ID discipline made dot walk clusters in
 * the order of their names' heap addresses, so a second layout of a framed
 * graph in a process differed from the first (graft-gv-layout.c); these
 * cases lay framed models out again and again with other layouts and heap
 * churn in between and compare every coordinate.
 */
#include "config.h"

#include "graft-view.h"
#include "test-util.h"

/* tests/data/@dir/@file in @torch's dialect. */
static GraftGraph *
load (const char *dir,
      const char *file,
      GraftTorch  torch)
{
  g_autofree char *path = test_data_path (dir, file);

  return test_load_graph_as (path, torch);
}

/* @graph laid out with every module open, so with a frame per module. */
static GraftLayout *
layout_framed (GraftGraph *graph)
{
  g_autoptr (GraftScopes) scopes = graft_scopes_new (graph);
  g_autoptr (GHashTable) none = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GraftLayoutRequest) req = graft_layout_request_new_folded (graph, scopes, none, NULL);
  g_autoptr (GError) error = NULL;
  GraftLayout *layout = graft_layout_request_run (req, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (graft_layout_get_n_frames (layout), >, 1);
  return layout;
}

static GraftLayout *
layout_plain (GraftGraph *graph)
{
  g_autoptr (GError) error = NULL;
  GraftLayout *layout = graft_layout_new (graph, &error);

  g_assert_no_error (error);
  return layout;
}

/* Allocates blocks of the sizes cgraph and dot allocate and frees them
 * in another order than they were made, keeping every third in @kept
 * (after freeing what it held): malloc's free lists then hand out
 * addresses out of order. */
static void
churn_heap (GPtrArray *kept)
{
  enum { N = 3001 };
  g_autofree gpointer *blocks = g_new (gpointer, N);

  g_ptr_array_set_size (kept, 0);
  for (guint i = 0; i < N; i++)
    blocks[i] = g_malloc (16 + (i * 37) % 240);
  for (guint i = 0; i < N; i++)
    {
      guint k = (i * 1009) % N; /* 1009 is prime to N: every block once */

      if (k % 3 == 0)
        g_ptr_array_add (kept, blocks[k]);
      else
        g_free (blocks[k]);
    }
}

/* @graph framed, then again three times, with between them: the heap
 * churned, @graph without frames, @other framed. */
static void
check_repeatable (GraftGraph *graph,
                  GraftGraph *other)
{
  g_autoptr (GraftLayout) first = layout_framed (graph);
  g_autoptr (GPtrArray) kept = g_ptr_array_new_with_free_func (g_free);

  for (guint round = 0; round < 3; round++)
    {
      g_autoptr (GraftLayout) plain = NULL;
      g_autoptr (GraftLayout) between = NULL;
      g_autoptr (GraftLayout) again = NULL;

      churn_heap (kept);
      plain = layout_plain (graph);
      between = layout_framed (other);
      churn_heap (kept);
      again = layout_framed (graph);
      test_assert_layouts_equal (first, again);
    }
}

/* resnet18 traced from its module: 15 frames (the four layers and their
 * blocks and downsamples).  Before the ID discipline its second layout was
 * 435 points wide instead of 475. */
static void
test_resnet18 (void)
{
  g_autoptr (GraftGraph) graph = load ("torchvision", "resnet18.py", GRAFT_TORCH_1_13);
  g_autoptr (GraftGraph) other = load ("torchvision", "shufflenet_v2_x1_0.py", GRAFT_TORCH_1_13);

  check_repeatable (graph, other);
}

/* A torch.export program, framed by its nn_module_stack. */
static void
test_program (void)
{
  g_autoptr (GraftGraph) graph = load ("programs", "resnet18.pt2", GRAFT_TORCH_2_6);
  g_autoptr (GraftGraph) other = load ("torchvision", "resnet18.py", GRAFT_TORCH_1_13);

  check_repeatable (graph, other);
}

/* A framed layout of @data, a graph of its own, made twice on a thread
 * of its own; the first is returned. */
static gpointer
layout_on_thread (gpointer data)
{
  GraftGraph *graph = data;
  g_autoptr (GraftLayout) first = layout_framed (graph);
  g_autoptr (GraftLayout) again = layout_framed (graph);

  test_assert_layouts_equal (first, again);
  return g_steal_pointer (&first);
}

/* Layouts made at once on worker threads (the editor's layout runner,
 * export, Match in Context), each of a graph loaded for it: each graph's
 * IDs are its own, and every layout is the one made alone. */
static void
test_threads (void)
{
  static const char *const files[] = { "resnet18.py", "shufflenet_v2_x1_0.py", "resnet18.py",
                                       "shufflenet_v2_x1_0.py" };
  GraftGraph              *graphs[G_N_ELEMENTS (files)];
  GThread                 *threads[G_N_ELEMENTS (files)];
  g_autoptr (GraftGraph) resnet = load ("torchvision", "resnet18.py", GRAFT_TORCH_1_13);
  g_autoptr (GraftGraph) shufflenet = load ("torchvision", "shufflenet_v2_x1_0.py",
                                            GRAFT_TORCH_1_13);
  g_autoptr (GraftLayout) resnet_alone = layout_framed (resnet);
  g_autoptr (GraftLayout) shufflenet_alone = layout_framed (shufflenet);

  for (guint k = 0; k < G_N_ELEMENTS (files); k++)
    graphs[k] = load ("torchvision", files[k], GRAFT_TORCH_1_13);
  for (guint k = 0; k < G_N_ELEMENTS (files); k++)
    threads[k] = g_thread_new ("layout", layout_on_thread, graphs[k]);
  for (guint k = 0; k < G_N_ELEMENTS (files); k++)
    {
      g_autoptr (GraftLayout) layout = g_thread_join (threads[k]);

      test_assert_layouts_equal (k % 2 == 0 ? resnet_alone : shufflenet_alone, layout);
      graft_graph_free (graphs[k]);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/gv-repeat/resnet18", test_resnet18);
  g_test_add_func ("/core/gv-repeat/program", test_program);
  g_test_add_func ("/core/gv-repeat/threads", test_threads);
  return g_test_run ();
}
