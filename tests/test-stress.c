/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-stress.c: 1,000 random steps on torchvision's resnet50 graph:
 * replace one random match of one of three rules (`a + b` to `torch.add`,
 * back, and `torch.flatten(x, 1)` to `x.flatten(1)`), undo, or redo, with
 * the graph lint after every step.  Replaying the steps that are applied
 * at the end on a fresh graph must give exactly the same code.
 */
#include "config.h"

#include "graft-view.h"

#include <string.h>

static const char *const rules[][2] = {
  { "import torch\n\ndef pattern(a, b):\n    return a + b\n",
    "import torch\n\ndef replacement(a, b):\n    return torch.add(a, b)\n" },
  { "import torch\n\ndef pattern(a, b):\n    return torch.add(a, b)\n",
    "import torch\n\ndef replacement(a, b):\n    return a + b\n" },
  { "import torch\n\ndef pattern(x):\n    return torch.flatten(x, 1)\n",
    "import torch\n\ndef replacement(x):\n    return x.flatten(1)\n" },
};

typedef struct
{
  GraftPattern *pattern;
  GraftGraph   *replacement;
} Rule;

typedef struct
{
  GraftEdit *edit;
  guint      rule;
  guint      match;
} Step;

static GraftGraph *
trace_text (const char *text,
            const char *name)
{
  g_autoptr (GraftSource) source = graft_source_new (name, text, -1);
  g_autoptr (GError) error = NULL;
  GraftGraph *graph =
      graft_trace_source (source, graft_dialect_get (GRAFT_TORCH_1_13), name, &error);

  g_assert_no_error (error);
  return graph;
}

static GraftGraph *
load_resnet (void)
{
  g_autofree char *path =
      g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "torchvision", "resnet50.py", NULL);
  g_autoptr (GraftInputSet) set = graft_input_set_new (graft_dialect_get (GRAFT_TORCH_1_13));
  g_autoptr (GError) error = NULL;
  GraftGraph *graph = graft_input_set_load (set, path, NULL, FALSE, &error);

  g_assert_no_error (error);
  return graph;
}

/* Replaces match @match of @rule in @graph; returns the edit. */
static GraftEdit *
apply (GraftGraph *graph,
       Rule       *rule,
       guint       match)
{
  g_autoptr (GPtrArray) matches = graft_matcher_find (rule->pattern, graph, NULL, NULL);
  g_autoptr (GPtrArray) one = g_ptr_array_new ();
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpuint (match, <, matches->len);
  g_ptr_array_add (one, matches->pdata[match]);
  rewrite = graft_rewriter_apply (graph, rule->pattern, rule->replacement, one, &error);
  g_assert_no_error (error);
  return graft_rewrite_steal_edit (rewrite);
}

static void
test_stress (void)
{
  g_autoptr (GraftGraph) graph = load_resnet ();
  g_autoptr (GraftGraph) fresh = load_resnet ();
  g_autoptr (GRand) rand = g_rand_new_with_seed (1000);
  g_autoptr (GArray) steps = g_array_new (FALSE, FALSE, sizeof (Step));
  g_autofree char *final_code = NULL;
  g_autofree char *replayed = NULL;
  Rule             rule_set[G_N_ELEMENTS (rules)];
  guint            position = 0;
  guint            counts[3] = { 0, 0, 0 };

  for (guint r = 0; r < G_N_ELEMENTS (rules); r++)
    {
      rule_set[r].pattern = graft_pattern_new (trace_text (rules[r][0], "pattern"), NULL);
      rule_set[r].replacement = trace_text (rules[r][1], "replacement");
      g_assert_nonnull (rule_set[r].pattern);
    }

  for (guint i = 0; i < 1000; i++)
    {
      guint what = (guint) g_rand_int_range (rand, 0, 10);
      g_autoptr (GError) error = NULL;

      if (what < 5)
        {
          guint r = (guint) g_rand_int_range (rand, 0, G_N_ELEMENTS (rules));
          g_autoptr (GPtrArray) matches =
              graft_matcher_find (rule_set[r].pattern, graph, NULL, NULL);
          Step step = { NULL, r, 0 };

          if (matches->len == 0)
            continue;
          step.match = (guint) g_rand_int_range (rand, 0, (gint32) matches->len);
          /* A new step drops what could be redone. */
          for (guint k = position; k < steps->len; k++)
            graft_edit_free (g_array_index (steps, Step, k).edit);
          g_array_set_size (steps, position);
          step.edit = apply (graph, &rule_set[r], step.match);
          g_array_append_val (steps, step);
          position++;
          counts[0]++;
        }
      else if (what < 8 && position > 0)
        {
          graft_edit_undo (g_array_index (steps, Step, --position).edit);
          counts[1]++;
        }
      else if (position < steps->len)
        {
          graft_edit_redo (g_array_index (steps, Step, position++).edit);
          counts[2]++;
        }
      if (!graft_graph_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE, &error))
        g_error ("step %u: %s", i, error->message);
    }
  g_test_message ("%u rewrites, %u undos, %u redos; %u steps applied at the end",
                  counts[0], counts[1], counts[2], position);
  g_assert_cmpuint (counts[0], >, 100);
  g_assert_cmpuint (counts[1], >, 100);
  g_assert_cmpuint (counts[2], >, 50);

  final_code = graft_codegen_python (graph);
  for (guint k = 0; k < position; k++)
    {
      Step      *step = &g_array_index (steps, Step, k);
      GraftEdit *edit = apply (fresh, &rule_set[step->rule], step->match);

      graft_edit_free (edit);
    }
  replayed = graft_codegen_python (fresh);
  g_assert_cmpstr (final_code, ==, replayed);

  for (guint k = 0; k < steps->len; k++)
    graft_edit_free (g_array_index (steps, Step, k).edit);
  for (guint r = 0; r < G_N_ELEMENTS (rules); r++)
    {
      graft_pattern_unref (rule_set[r].pattern);
      graft_graph_free (rule_set[r].replacement);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  graft_gv_enable_dot_reader ();
  g_test_add_func ("/core/stress/undo-redo", test_stress);
  return g_test_run ();
}
