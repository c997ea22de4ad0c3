/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-codegen-job.c: graft_codegen_python() cut into steps
 * (GraftCodegenJob), as the editor runs it across main-loop turns: in
 * steps of every size, on real models in both torches, with the graph's
 * scratch marks used by other walks between the steps, it writes the same
 * text as graft_codegen_python(); a job dropped half-way frees what it
 * made.
 */
#include "config.h"

#include "graft.h"

static const GraftTorch torches[] = { GRAFT_TORCH_2_6, GRAFT_TORCH_1_13 };

static GraftGraph *
load (const char *name,
      GraftTorch  torch)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "torchvision", name, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = graft_input_read_file (path, &error);
  GraftGraph *graph;

  g_assert_no_error (error);
  graph = graft_input_load_graph (source, graft_dialect_get (torch), NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (graph);
  return graph;
}

/* The job in steps of @size nodes; between steps, another whole walk
 * (graft_codegen_python() itself) takes the graph's marks. */
static char *
in_steps (GraftGraph *graph,
          guint       size,
          guint      *n_steps)
{
  GraftCodegenJob *job = graft_codegen_job_new (graph);

  *n_steps = 1;
  while (!graft_codegen_job_step (job, size))
    {
      g_autofree char *other = graft_codegen_python (graph);

      (*n_steps)++;
    }
  return graft_codegen_job_finish (job);
}

static void
test_same_text (void)
{
  const char *const models[] = { "resnet18.py", "densenet121.py", "shufflenet_v2_x1_0.py",
                                 "vit_b_16.py" };

  for (guint t = 0; t < G_N_ELEMENTS (torches); t++)
    for (guint m = 0; m < G_N_ELEMENTS (models); m++)
      {
        g_autoptr (GraftGraph) graph = load (models[m], torches[t]);
        g_autofree char *whole = graft_codegen_python (graph);
        guint            n = graft_graph_get_n_nodes (graph);
        const guint      sizes[] = { 1, 7, n - 1, n, n + 1 };

        g_assert_cmpuint (n, >, 10);
        for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
          {
            guint            n_steps;
            g_autofree char *stepped = in_steps (graph, sizes[s], &n_steps);

            g_assert_cmpstr (stepped, ==, whole);
            g_assert_cmpuint (n_steps, ==, (n + sizes[s] - 1) / sizes[s]);
          }
      }
}

/* Finishing a job not stepped at all, or stepped past its end, gives the
 * whole text too; a job dropped half-way leaks nothing (the sanitizer
 * build checks). */
static void
test_finish_and_drop (void)
{
  g_autoptr (GraftGraph) graph = load ("resnet18.py", GRAFT_TORCH_2_6);
  g_autofree char *whole = graft_codegen_python (graph);
  g_autofree char *at_once = graft_codegen_job_finish (graft_codegen_job_new (graph));
  GraftCodegenJob *job = graft_codegen_job_new (graph);
  g_autofree char *past = NULL;

  g_assert_cmpstr (at_once, ==, whole);
  g_assert_true (graft_codegen_job_step (job, G_MAXUINT));
  g_assert_true (graft_codegen_job_step (job, 1));
  past = graft_codegen_job_finish (job);
  g_assert_cmpstr (past, ==, whole);

  job = graft_codegen_job_new (graph);
  g_assert_false (graft_codegen_job_step (job, 5));
  graft_codegen_job_free (job);
  graft_codegen_job_free (NULL);
}

/* An empty graph: its code is `pass`, in one step. */
static void
test_empty (void)
{
  for (guint t = 0; t < G_N_ELEMENTS (torches); t++)
    {
      g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (torches[t]));
      g_autofree char *whole = graft_codegen_python (graph);
      GraftCodegenJob *job = graft_codegen_job_new (graph);
      g_autofree char *stepped = NULL;

      g_assert_true (graft_codegen_job_step (job, 1));
      stepped = graft_codegen_job_finish (job);
      g_assert_cmpstr (stepped, ==, whole);
    }
}

/* The code's header (`def forward(...):`) is written before the first
 * line when nothing after it changes it; a parameter after a node's line
 * (a listing may hold one) does: it still makes the signature, whole and
 * in steps of one node. */
static void
test_late_parameter (void)
{
  static const char listing[] =
      "graph():\n"
      "    %x : [num_users=1] = placeholder[target=x]\n"
      "    %neg : [num_users=1] = call_function[target=torch.neg](args = (%x,), kwargs = {})\n"
      "    %y : [num_users=1] = placeholder[target=y]\n"
      "    %add : [num_users=1] = call_function[target=operator.add](args = (%neg, %y), "
      "kwargs = {})\n"
      "    return add\n";
  static const char expected[] = "\n\n\ndef forward(self, x, y):\n"
                                 "    neg = torch.neg(x);  x = None\n"
                                 "    add = neg + y;  neg = y = None\n"
                                 "    return add\n"
                                 "    ";

  for (guint t = 0; t < G_N_ELEMENTS (torches); t++)
    {
      g_autoptr (GraftSource) source = graft_source_new ("late.txt", listing, -1);
      g_autoptr (GError) error = NULL;
      g_autoptr (GraftGraph) graph =
          graft_listing_parse (source, graft_dialect_get (torches[t]), &error);
      g_autofree char *whole = NULL;
      g_autofree char *stepped = NULL;
      guint            n_steps;

      g_assert_no_error (error);
      whole = graft_codegen_python (graph);
      g_assert_cmpstr (whole, ==, expected);
      stepped = in_steps (graph, 1, &n_steps);
      g_assert_cmpstr (stepped, ==, expected);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/codegen-job/same-text", test_same_text);
  g_test_add_func ("/codegen-job/finish-and-drop", test_finish_and_drop);
  g_test_add_func ("/codegen-job/empty", test_empty);
  g_test_add_func ("/codegen-job/late-parameter", test_late_parameter);
  return g_test_run ();
}
