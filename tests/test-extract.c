/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-extract.c: patterns from selections.  On every torchvision graph
 * and every bundled example, random connected, convex selections of
 * function, method and module calls (a seeded generator, 30 per graph, 1
 * to 8 nodes) become Python (a function, or a torch.nn.Module class when
 * they call modules) that traces, and whose matches (overlaps kept)
 * include a match of exactly the selected nodes; in both dialects, as the
 * matcher's rules differ.  Every class these selections gave was also
 * matched by both torch oracles, with the same matches as Graft's (not
 * part of the suite: the tests never run torch).  Also the texts for the
 * tutorial's own pattern nodes and for module calls, checked by hand.
 */
#include "config.h"

#include "graft-view.h"
#include "test-util.h"

#include <string.h>

typedef struct
{
  char      *path;
  GraftTorch torch;
} Case;

static void
case_free (gpointer data)
{
  Case *c = data;

  g_free (c->path);
  g_free (c);
}

static gboolean
selectable (GraftNode *node)
{
  GraftOp op = graft_node_get_op (node);

  return (op == GRAFT_OP_CALL_FUNCTION || op == GRAFT_OP_CALL_METHOD ||
          op == GRAFT_OP_CALL_MODULE) &&
         !graft_node_get_is_wrapped (node);
}

/* Whether a path leaves @selected and comes back into it. */
static gboolean
is_convex (GraftGraph *graph,
           GHashTable *selected)
{
  g_autoptr (GHashTable) reached = g_hash_table_new (NULL, NULL);

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      g_autoptr (GPtrArray) inputs = graft_node_dup_input_nodes (node);
      gboolean from_selection = FALSE;

      for (guint i = 0; i < inputs->len; i++)
        {
          gboolean in_sel = g_hash_table_contains (selected, inputs->pdata[i]);
          gboolean via_outside = g_hash_table_contains (reached, inputs->pdata[i]);

          if (g_hash_table_contains (selected, node) && via_outside)
            return FALSE;
          if (in_sel || via_outside)
            from_selection = TRUE;
        }
      if (from_selection && !g_hash_table_contains (selected, node))
        g_hash_table_add (reached, node);
    }
  return TRUE;
}

/* Grows a selection from @start through inputs and users. */
static GPtrArray *
random_selection (GraftNode *start,
                  GRand     *rand,
                  guint      size)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  GPtrArray *selection = g_ptr_array_new ();

  g_ptr_array_add (selection, start);
  g_hash_table_add (seen, start);
  for (guint tries = 0; selection->len < size && tries < 50; tries++)
    {
      GraftNode *from = selection->pdata[g_rand_int_range (rand, 0, (gint32) selection->len)];
      g_autoptr (GPtrArray) inputs = graft_node_dup_input_nodes (from);
      guint      n_users = graft_node_get_n_users (from);
      guint      k = g_rand_int_range (rand, 0, (gint32) (inputs->len + n_users + 1));
      GraftNode *next = NULL;

      if (k < inputs->len)
        next = inputs->pdata[k];
      else if (k - inputs->len < n_users)
        next = graft_node_get_user (from, k - inputs->len);
      if (next != NULL && selectable (next) && !g_hash_table_contains (seen, next))
        {
          g_hash_table_add (seen, next);
          g_ptr_array_add (selection, next);
        }
    }
  return selection;
}

static gboolean
match_is (const GraftMatch *match,
          GHashTable       *selected)
{
  g_autoptr (GPtrArray) nodes = graft_match_dup_nodes (match);

  if (nodes->len != g_hash_table_size (selected))
    return FALSE;
  for (guint i = 0; i < nodes->len; i++)
    if (!g_hash_table_contains (selected, nodes->pdata[i]))
      return FALSE;
  return TRUE;
}

static void
test_torchvision (gconstpointer data)
{
  const Case *c = data;
  const char *path = c->path;
  g_autoptr (GraftGraph) graph = test_load_graph_as (path, c->torch);
  g_autoptr (GPtrArray) candidates = g_ptr_array_new ();
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261129);
  guint checked = 0;
  guint modules = 0;
  guint with_modules = 0;

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    if (selectable (node))
      {
        g_ptr_array_add (candidates, node);
        if (graft_node_get_op (node) == GRAFT_OP_CALL_MODULE)
          modules++;
      }
  if (candidates->len == 0)
    {
      g_test_skip ("no function or method calls");
      return;
    }

  for (guint round = 0; round < 30; round++)
    {
      GraftNode *start = candidates->pdata[g_rand_int_range (rand, 0, (gint32) candidates->len)];
      g_autoptr (GPtrArray) selection =
          random_selection (start, rand, (guint) g_rand_int_range (rand, 1, 9));
      g_autoptr (GHashTable) selected = g_hash_table_new (NULL, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (GraftGraph) extracted = NULL;
      g_autoptr (GraftSource) source = NULL;
      g_autoptr (GraftGraph) traced = NULL;
      g_autoptr (GraftPattern) pattern = NULL;
      g_autoptr (GPtrArray) matches = NULL;
      g_autofree char  *text = NULL;
      GraftMatchOptions options;
      gboolean          found = FALSE;

      for (guint i = 0; i < selection->len; i++)
        g_hash_table_add (selected, selection->pdata[i]);
      if (!is_convex (graph, selected))
        continue;

      extracted = graft_extract_pattern_graph (graph, selection, &error);
      g_assert_no_error (error);
      text = graft_codegen_pattern_source (extracted, "pattern");
      source = graft_source_new ("pattern", text, -1);
      traced = graft_trace_source (source, graft_dialect_get (c->torch), "pattern", &error);
      if (traced == NULL)
        g_error ("%s: the pattern does not trace: %s\n%s", path, error->message, text);
      pattern = graft_pattern_new (g_steal_pointer (&traced), &error);
      g_assert_no_error (error);

      graft_match_options_init (&options);
      options.remove_overlapping_matches = FALSE;
      matches = graft_matcher_find (pattern, graph, &options, NULL);
      for (guint i = 0; i < matches->len && !found; i++)
        found = match_is (matches->pdata[i], selected);
      if (!found)
        g_error ("%s: no match of the selection's own pattern (%u matches)\n%s", path, matches->len,
                 text);
      checked++;
      if (strstr (text, "(torch.nn.Module):") != NULL)
        with_modules++;
    }
  g_assert_cmpuint (checked, >, 5);
  /* A graph of modules gave selections of module calls. */
  if (modules > candidates->len / 4)
    g_assert_cmpuint (with_modules, >, 0);
}

static const char tutorial_pattern[] = "import torch\n"
                                       "\n"
                                       "\n"
                                       "def pattern(w1, w2):\n"
                                       "    neg = torch.neg(w1);  w1 = None\n"
                                       "    cat = torch.cat([neg, w2]);  neg = w2 = None\n"
                                       "    sum_1 = cat.sum();  cat = None\n"
                                       "    return sum_1\n";

/* The tutorial's neg, cat and sum_1, as a person would write them. */
static void
test_tutorial_text (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "data", "examples",
                                            "subgraph_rewriter_basic_use.py", NULL);
  g_autoptr (GraftGraph) graph = test_load_graph (path);
  g_autoptr (GPtrArray) selection = g_ptr_array_new ();
  g_autoptr (GraftGraph) extracted = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;

  g_ptr_array_add (selection, graft_graph_find_node (graph, "sum_1"));
  g_ptr_array_add (selection, graft_graph_find_node (graph, "neg"));
  g_ptr_array_add (selection, graft_graph_find_node (graph, "cat"));
  extracted = graft_extract_pattern_graph (graph, selection, &error);
  g_assert_no_error (error);
  text = graft_codegen_function_source (extracted, "pattern");
  g_assert_cmpstr (text, ==, tutorial_pattern);

  /* Nothing to call: an error, not an empty function. */
  g_ptr_array_set_size (selection, 0);
  g_ptr_array_add (selection, graft_graph_find_node (graph, "x"));
  g_clear_pointer (&extracted, graft_graph_free);
  extracted = graft_extract_pattern_graph (graph, selection, &error);
  g_assert_null (extracted);
  g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_SELECTION);
}

/* The selection is taken in the graph's order whatever order it comes in,
 * repeated nodes once, as when the graph was walked for it (it is sorted
 * by the nodes' order keys): in another order, sum_1 first would take cat
 * as an input. */
static const char *const selection_names[] = { "neg", "cat", "sum_1" };
static const guint       selection_orders[][4] = {
        { 0, 1, 2, 0 },
        { 2, 1, 0, 2 },
        { 1, 2, 0, 0 },
        { 2, 0, 1, 2 },
        { 0, 2, 1, 1 },
        { 1, 0, 2, 1 },
};

static void
test_selection_order (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "data", "examples",
                                            "subgraph_rewriter_basic_use.py", NULL);
  g_autoptr (GraftGraph) graph = test_load_graph (path);

  for (guint k = 0; k < G_N_ELEMENTS (selection_orders); k++)
    {
      g_autoptr (GPtrArray) selection = g_ptr_array_new ();
      g_autoptr (GraftGraph) extracted = NULL;
      g_autoptr (GError) error = NULL;
      g_autofree char *text = NULL;

      for (guint i = 0; i < 4; i++)
        g_ptr_array_add (selection,
                         graft_graph_find_node (graph, selection_names[selection_orders[k][i]]));
      extracted = graft_extract_pattern_graph (graph, selection, &error);
      g_assert_no_error (error);
      text = graft_codegen_function_source (extracted, "pattern");
      g_assert_cmpstr (text, ==, tutorial_pattern);
    }
}

/* The pattern text for @names (%NULL-terminated) of the model @path in
 * torch 2.6; it traces, and matches exactly those nodes. */
static char *
module_pattern_text (const char        *path,
                     const char *const *names)
{
  g_autoptr (GraftGraph) graph = test_load_graph_as (path, GRAFT_TORCH_2_6);
  g_autoptr (GPtrArray) selection = g_ptr_array_new ();
  g_autoptr (GHashTable) selected = g_hash_table_new (NULL, NULL);
  g_autoptr (GraftGraph) extracted = NULL;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GPtrArray) matches = NULL;
  g_autoptr (GError) error = NULL;
  char *text;

  for (guint i = 0; names[i] != NULL; i++)
    {
      GraftNode *node = graft_graph_find_node (graph, names[i]);

      g_assert_nonnull (node);
      g_ptr_array_add (selection, node);
      g_hash_table_add (selected, node);
    }
  extracted = graft_extract_pattern_graph (graph, selection, &error);
  g_assert_no_error (error);
  text = graft_codegen_pattern_source (extracted, "pattern");
  source = graft_source_new ("pattern", text, -1);
  pattern = graft_pattern_new (
      graft_input_trace_entry (source, graft_graph_get_dialect (graph), "pattern", &error), &error);
  g_assert_no_error (error);
  matches = graft_matcher_find (pattern, graph, NULL, NULL);
  g_assert_cmpuint (matches->len, ==, 1);
  g_assert_true (match_is (matches->pdata[0], selected));
  return text;
}

/* A class model's layers: the submodules are built as the model built
 * them, in containers for the parents of a nested path; checked by hand,
 * and by both oracles (`fx-reference match` of the example with this
 * text as its pattern gives the one match). */
static void
test_module_text (void)
{
  g_autofree char *path =
      g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "data", "examples", "resnet18_bn_relu.py",
                        NULL);
  static const char *const stem[] = { "bn1", "relu", NULL };
  static const char *const block[] = { "layer2_0_bn2", "layer2_0_downsample_0",
                                       "layer2_0_downsample_1", "add_2", "layer2_0_relu_1", NULL };
  g_autofree char         *stem_text = module_pattern_text (path, stem);
  g_autofree char         *block_text = module_pattern_text (path, block);

  g_assert_cmpstr (stem_text, ==,
                   "import torch\n"
                   "\n"
                   "\n"
                   "class pattern(torch.nn.Module):\n"
                   "    def __init__(self):\n"
                   "        super().__init__()\n"
                   "        # torch.fx matches a call_module node by its\n"
                   "        # target alone, the module's path: each\n"
                   "        # submodule sits at the path the graph calls.\n"
                   "        self.bn1 = torch.nn.BatchNorm2d(64)\n"
                   "        self.relu = torch.nn.ReLU(inplace=True)\n"
                   "\n"
                   "    def forward(self, conv1):\n"
                   "        bn1 = self.bn1(conv1);  conv1 = None\n"
                   "        relu = self.relu(bn1);  bn1 = None\n"
                   "        return relu\n");
  g_assert_cmpstr (block_text, ==,
                   "import torch\n"
                   "\n"
                   "\n"
                   "class pattern(torch.nn.Module):\n"
                   "    def __init__(self):\n"
                   "        super().__init__()\n"
                   "        # torch.fx matches a call_module node by its\n"
                   "        # target alone, the module's path: each\n"
                   "        # submodule sits at the path the graph calls.\n"
                   "        self.layer2 = torch.nn.Module()\n"
                   "        self.layer2.add_module(\"0\", torch.nn.Module())\n"
                   "        getattr(self.layer2, \"0\").bn2 = torch.nn.BatchNorm2d(128)\n"
                   "        getattr(self.layer2, \"0\").downsample = torch.nn.Module()\n"
                   "        getattr(self.layer2, \"0\").downsample.add_module(\"0\", "
                   "torch.nn.Conv2d(64, 128, kernel_size=1, stride=2, bias=False))\n"
                   "        getattr(self.layer2, \"0\").downsample.add_module(\"1\", "
                   "torch.nn.BatchNorm2d(128))\n"
                   "        getattr(self.layer2, \"0\").relu = torch.nn.ReLU(inplace=True)\n"
                   "\n"
                   "    def forward(self, layer2_0_conv2, layer1_1_relu_1):\n"
                   "        layer2_0_bn2 = getattr(self.layer2, \"0\").bn2(layer2_0_conv2);  "
                   "layer2_0_conv2 = None\n"
                   "        layer2_0_downsample_0 = getattr(getattr(self.layer2, "
                   "\"0\").downsample, \"0\")(layer1_1_relu_1);  layer1_1_relu_1 = None\n"
                   "        layer2_0_downsample_1 = getattr(getattr(self.layer2, "
                   "\"0\").downsample, \"1\")(layer2_0_downsample_0);  layer2_0_downsample_0 = "
                   "None\n"
                   "        add_2 = layer2_0_bn2 + layer2_0_downsample_1;  layer2_0_bn2 = "
                   "layer2_0_downsample_1 = None\n"
                   "        layer2_0_relu_1 = getattr(self.layer2, \"0\").relu(add_2);  add_2 = "
                   "None\n"
                   "        return layer2_0_relu_1\n");
}

/* A graph that does not say how its modules were built (gm.code's
 * `def forward(self, x)`): Identity stands for each. */
static void
test_module_stand_in_text (void)
{
  g_autofree char         *path = test_data_path ("torchvision", "resnet18.py");
  static const char *const names[] = { "layer1_0_bn1", "layer1_0_relu", NULL };
  g_autofree char         *text = module_pattern_text (path, names);

  g_assert_cmpstr (text, ==,
                   "import torch\n"
                   "\n"
                   "\n"
                   "class pattern(torch.nn.Module):\n"
                   "    def __init__(self):\n"
                   "        super().__init__()\n"
                   "        # torch.fx matches a call_module node by its\n"
                   "        # target alone, the module's path: each\n"
                   "        # submodule sits at the path the graph calls.\n"
                   "        # Identity stands in where the graph does not\n"
                   "        # record how a module was built: torch.fx\n"
                   "        # records the call of any torch.nn module and\n"
                   "        # never runs it.\n"
                   "        self.layer1 = torch.nn.Module()\n"
                   "        self.layer1.add_module(\"0\", torch.nn.Module())\n"
                   "        getattr(self.layer1, \"0\").bn1 = torch.nn.Identity()\n"
                   "        getattr(self.layer1, \"0\").relu = torch.nn.Identity()\n"
                   "\n"
                   "    def forward(self, layer1_0_conv1):\n"
                   "        layer1_0_bn1 = getattr(self.layer1, \"0\").bn1(layer1_0_conv1);  "
                   "layer1_0_conv1 = None\n"
                   "        layer1_0_relu = getattr(self.layer1, \"0\").relu(layer1_0_bn1);  "
                   "layer1_0_bn1 = None\n"
                   "        return layer1_0_relu\n");
}

/* g_ptr_array_sort() hands the comparator pointers to the elements. */
static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* One case per model of @dir and torch, named /core/extract/@kind/NAME. */
static void
add_cases (const char *kind,
           const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".py"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    for (guint t = 0; t < GRAFT_N_TORCHES; t++)
      {
        Case            *c = g_new0 (Case, 1);
        g_autofree char *test = NULL;

        c->path = g_build_filename (dir, names->pdata[i], NULL);
        c->torch = (GraftTorch) t;
        test = g_strdup_printf ("/core/extract/%s/%s/torch%s", kind, (char *) names->pdata[i],
                                graft_dialect_get (c->torch)->name);
        g_test_add_data_func_full (test, c, test_torchvision, case_free);
      }
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *torchvision =
      g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "torchvision", NULL);
  g_autofree char *examples =
      g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "data", "examples", NULL);

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/extract/tutorial-text", test_tutorial_text);
  g_test_add_func ("/core/extract/selection-order", test_selection_order);
  g_test_add_func ("/core/extract/module-text", test_module_text);
  g_test_add_func ("/core/extract/module-stand-in-text", test_module_stand_in_text);
  add_cases ("torchvision", torchvision);
  add_cases ("examples", examples);
  return g_test_run ();
}
