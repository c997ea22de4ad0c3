/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-dce.c: dead code elimination (graft_eliminate_dead_code(), torch's
 * `Graph.eliminate_dead_code`) and purity (graft_node_is_impure(), torch's
 * `Node.is_impure`) in each dialect, beyond the golden `dce_*` cases of
 * tests/data/rewrite that the oracles wrote: every target of each torch's
 * side-effectful set, every aten overload whose schema is mutable (and the
 * table's mutability against the argument types it prints), chains erased
 * whole in one reverse walk, erased names kept taken, undo and redo, an
 * edit with no operations when nothing is dead, the refusal of a graph
 * that uses a value before defining it, and a long dead chain in linear
 * time.
 */
#include "config.h"

#include "graft.h"

#include <string.h>

static const GraftTorch torches[] = { GRAFT_TORCH_2_6, GRAFT_TORCH_1_13 };

static GraftGraph *
parse_in (GraftTorch  torch,
          const char *text)
{
  g_autoptr (GraftSource) source = graft_source_new ("listing.txt", text, -1);
  g_autoptr (GError) error = NULL;
  GraftGraph *graph = graft_listing_parse (source, graft_dialect_get (torch), &error);

  g_assert_no_error (error);
  g_assert_nonnull (graph);
  return graph;
}

/* A graph of one call_function of @target on a placeholder, unused. */
static GraftGraph *
unused_call (GraftTorch  torch,
             const char *target)
{
  g_autofree char *text = g_strdup_printf (
      "graph():\n"
      "    %%x : [#users=2] = placeholder[target=x]\n"
      "    %%f : [#users=0] = call_function[target=%s](args = (%%x,), kwargs = {})\n"
      "    return x",
      target);

  return parse_in (torch, text);
}

static gboolean
call_is_impure (GraftTorch  torch,
                const char *target)
{
  g_autoptr (GraftGraph) graph = unused_call (torch, target);

  return graft_node_is_impure (graft_graph_find_node (graph, "f"));
}

static gboolean
listed (const GraftDialect *dialect,
        const char         *target)
{
  for (guint i = 0; dialect->side_effectful_functions[i] != NULL; i++)
    if (strcmp (dialect->side_effectful_functions[i], target) == 0)
      return TRUE;
  return FALSE;
}

/* Placeholders and the output are impure; get_attr, call_method and
 * call_module never are, whatever they are called. */
static void
test_ops (gconstpointer data)
{
  GraftTorch torch = GPOINTER_TO_INT (data);
  g_autoptr (GraftGraph) graph = parse_in (
      torch, "graph():\n"
             "    %x : [#users=5] = placeholder[target=x]\n"
             "    %unused : [#users=0] = placeholder[target=unused]\n"
             "    %w : [#users=0] = get_attr[target=w]\n"
             "    %add_ : [#users=0] = call_method[target=add_](args = (%x, %x), kwargs = {})\n"
             "    %copy_ : [#users=0] = call_method[target=copy_](args = (%x, %x), kwargs = {})\n"
             "    %drop : [#users=0] = call_module[target=drop](args = (%x,), kwargs = {})\n"
             "    %logger : [#users=0] = call_module[target=logger](args = (%x,), kwargs = {})\n"
             "    return x");
  static const struct
  {
    const char *name;
    gboolean    impure;
  } expected[] = {
    { "x", TRUE },
    { "unused", TRUE },
    { "w", FALSE },
    { "add_", FALSE },
    { "copy_", FALSE },
    { "drop", FALSE },
    { "logger", FALSE },
    { "output", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      GraftNode *node = graft_graph_find_node (graph, expected[i].name);

      g_assert_nonnull (node);
      g_assert_cmpint (graft_node_is_impure (node), ==, expected[i].impure);
    }
}

/* Each torch's side-effectful targets are impure in that torch; in the
 * other, only if it lists them too (or, in 2.6, if their schema is
 * mutable).  Torch-level in-place functions have no schema: pure. */
static void
test_side_effectful (void)
{
  for (guint t = 0; t < G_N_ELEMENTS (torches); t++)
    {
      const GraftDialect *dialect = graft_dialect_get (torches[t]);

      for (guint i = 0; dialect->side_effectful_functions[i] != NULL; i++)
        for (guint o = 0; o < G_N_ELEMENTS (torches); o++)
          {
            const GraftDialect *other = graft_dialect_get (torches[o]);
            const char         *target = dialect->side_effectful_functions[i];
            gboolean            want = listed (other, target) ||
                            (other->impure_if_schema_mutable &&
                             graft_aten_schema_target_is_mutable (target));

            g_assert_cmpint (call_is_impure (torches[o], target), ==, want);
          }
    }
  g_assert_true (call_is_impure (GRAFT_TORCH_2_6, "torch._assert_async"));
  g_assert_false (call_is_impure (GRAFT_TORCH_1_13, "torch._assert_async"));
  g_assert_true (call_is_impure (GRAFT_TORCH_2_6, "torch.ops.aten._assert_scalar.default"));
  g_assert_false (call_is_impure (GRAFT_TORCH_1_13, "torch.ops.aten._assert_scalar.default"));
  for (guint t = 0; t < G_N_ELEMENTS (torches); t++)
    {
      g_assert_true (call_is_impure (torches[t], "torch._assert"));
      g_assert_true (call_is_impure (torches[t], "torch.ops.profiler._record_function_exit"));
      g_assert_false (call_is_impure (torches[t], "torch.relu_"));
      g_assert_false (call_is_impure (torches[t], "torch.nn.functional.dropout"));
      g_assert_false (call_is_impure (torches[t], "operator.setitem"));
      g_assert_false (call_is_impure (torches[t], "torch.ops.aten.rand_like.default"));
      g_assert_false (call_is_impure (torches[t], "torch.ops.aten.native_dropout.default"));
      /* A packet has no schema, an overload of it one. */
      g_assert_false (call_is_impure (torches[t], "torch.ops.aten.add_"));
      /* Another overload of a listed packet is not listed (1.13.1 lists
       * the profiler's packets, 2.6's schema of it writes nothing). */
      g_assert_false (
          call_is_impure (torches[t], "torch.ops.profiler._record_function_enter.default"));
    }
}

/* In 2.6 every overload whose schema writes to an argument is impure (and
 * the table's flag agrees with the `!` of the argument types it prints);
 * in 1.13 none of those is, unless listed. */
static void
test_mutable_schemas (void)
{
  guint n = graft_aten_schema_count ();
  guint n_mutable = 0;

  for (guint i = 0; i < n; i++)
    {
      const GraftAtenSchema *schema = graft_aten_schema_get_nth (i);
      g_autofree char       *target =
          g_strconcat ("torch.ops.aten.", graft_aten_schema_get_name (schema), NULL);
      gboolean writes = FALSE;

      for (guint a = 0; a < graft_aten_schema_get_n_arguments (schema); a++)
        {
          GraftAtenArgument arg;

          graft_aten_schema_get_argument (schema, a, &arg);
          writes |= strchr (arg.type, '!') != NULL;
        }
      g_assert_cmpint (graft_aten_schema_is_mutable (schema), ==, writes);
      g_assert_cmpint (graft_aten_schema_target_is_mutable (target), ==, writes);
      n_mutable += writes;
      /* Building a graph per overload is slow; every 25th and the
       * mutable ones listed below are enough. */
      if (i % 25 == 0)
        {
          g_assert_cmpint (call_is_impure (GRAFT_TORCH_2_6, target), ==,
                           writes || listed (graft_dialect_get (GRAFT_TORCH_2_6), target));
          g_assert_cmpint (call_is_impure (GRAFT_TORCH_1_13, target), ==,
                           listed (graft_dialect_get (GRAFT_TORCH_1_13), target));
        }
    }
  g_assert_cmpuint (n_mutable, >, 1000);
  {
    static const char *const writers[] = {
      "torch.ops.aten.add_.Tensor",
      "torch.ops.aten.copy_.default",
      "torch.ops.aten.add.out",
      "torch.ops.aten.index_put_.default",
      "torch.ops.aten.relu_.default",
      "torch.ops.prims.copy_to.default",
      "torch.ops.quantized.add.out",
      "torch.ops._c10d_functional.all_reduce_.default",
      "torch.ops.prims.resize.default",
      "torch.ops.inductor._mm_plus_mm.default",
    };
    static const char *const readers[] = {
      "torch.ops.aten.add.Tensor",
      "torch.ops.aten.rand.default",
      "torch.ops.aten.bernoulli.p",
      "torch.ops.prims.add.default",
      "torch.ops.quantized.add",
      "torch.ops.aten.add_",
      "torch.ops.aten.no_such.thing",
      "torch.add_",
      "torch.ops.prims",
      "torch.ops.",
    };

    for (guint i = 0; i < G_N_ELEMENTS (writers); i++)
      {
        g_assert_true (graft_aten_schema_target_is_mutable (writers[i]));
        g_assert_true (call_is_impure (GRAFT_TORCH_2_6, writers[i]));
        g_assert_false (call_is_impure (GRAFT_TORCH_1_13, writers[i]));
      }
    for (guint i = 0; i < G_N_ELEMENTS (readers); i++)
      {
        g_assert_false (graft_aten_schema_target_is_mutable (readers[i]));
        g_assert_false (call_is_impure (GRAFT_TORCH_2_6, readers[i]));
      }
  }
}

static const char chain_listing[] =
    "graph():\n"
    "    %x : [#users=3] = placeholder[target=x]\n"
    "    %y : [#users=0] = placeholder[target=y]\n"
    "    %w : [#users=1] = get_attr[target=w]\n"
    "    %neg : [#users=1] = call_function[target=torch.neg](args = (%x,), kwargs = {})\n"
    "    %sigmoid : [#users=2] = call_method[target=sigmoid](args = (%neg,), kwargs = {})\n"
    "    %relu : [#users=0] = call_function[target=torch.relu](args = (%sigmoid,), kwargs = {})\n"
    "    %mul : [#users=0] = call_function[target=operator.mul](args = (%sigmoid, %w), kwargs = "
    "{})\n"
    "    %_assert : [#users=0] = call_function[target=torch._assert](args = (%x, m), kwargs = {})\n"
    "    return x";

/* A chain goes whole in one walk (each erasure leaves the node before it
 * unused); the count, the edit and the names left over agree; erased
 * names stay taken; undo and redo give both graphs back. */
static void
test_chain (gconstpointer data)
{
  GraftTorch torch = GPOINTER_TO_INT (data);
  g_autoptr (GraftGraph) graph = parse_in (torch, chain_listing);
  g_autoptr (GraftEdit) edit = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *before = graft_listing_print (graph);
  g_autofree char *after = NULL;
  g_autofree char *code = NULL;
  guint            n_removed = 0;
  GString         *names = g_string_new (NULL);

  edit = graft_eliminate_dead_code (graph, &n_removed, &error);
  g_assert_no_error (error);
  g_assert_nonnull (edit);
  g_assert_cmpuint (n_removed, ==, 5);
  g_assert_cmpuint (graft_edit_get_n_operations (edit), ==, 5);
  g_assert_true (graft_edit_is_applied (edit));
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    g_string_append_printf (names, "%s ", graft_node_get_name (node));
  g_assert_cmpstr (names->str, ==, "x y _assert output ");
  g_string_free (names, TRUE);
  g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE, &error));
  g_assert_no_error (error);
  code = graft_codegen_python (graph);
  g_assert_nonnull (strstr (code, "torch._assert(x, "));
  g_assert_null (strstr (code, "neg"));

  /* torch's erase_node gives no name back: the next `neg` is `neg_1`. */
  after = graft_listing_print (graph);
  {
    GraftArg   args;
    GraftNode *x = graft_graph_find_node (graph, "x");
    GraftNode *made;
    GraftEdit *made_edit;

    graft_graph_begin_edit (graph);
    graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
    graft_arg_init_node (&args.items[0], x);
    made = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "torch.neg", &args, NULL, "neg",
                                    graft_graph_get_output (graph));
    g_assert_cmpstr (graft_node_get_name (made), ==, "neg_1");
    made_edit = graft_graph_end_edit (graph);
    graft_edit_undo (made_edit);
    graft_edit_free (made_edit);
  }
  g_assert_null (graft_graph_find_node (graph, "neg_1"));

  graft_edit_undo (edit);
  g_assert_false (graft_edit_is_applied (edit));
  {
    g_autofree char *undone = graft_listing_print (graph);

    g_assert_cmpstr (undone, ==, before);
  }
  graft_edit_redo (edit);
  {
    g_autofree char *redone = graft_listing_print (graph);

    g_assert_cmpstr (redone, ==, after);
  }
}

/* Nothing dead: an edit with no operations, the graph as it was. */
static void
test_nothing_dead (gconstpointer data)
{
  GraftTorch torch = GPOINTER_TO_INT (data);
  g_autoptr (GraftGraph) graph = parse_in (
      torch, "graph():\n"
             "    %x : [#users=1] = placeholder[target=x]\n"
             "    %unused : [#users=0] = placeholder[target=unused]\n"
             "    %neg : [#users=2] = call_function[target=torch.neg](args = (%x,), kwargs = {})\n"
             "    %_assert : [#users=0] = call_function[target=torch._assert](args = (%neg,), "
             "kwargs = {})\n"
             "    return (neg,)");
  g_autofree char *before = graft_listing_print (graph);
  g_autofree char *after = NULL;
  g_autoptr (GError) error = NULL;
  guint n_removed = 99;
  g_autoptr (GraftEdit) edit = graft_eliminate_dead_code (graph, &n_removed, &error);

  g_assert_no_error (error);
  g_assert_nonnull (edit);
  g_assert_cmpuint (n_removed, ==, 0);
  g_assert_cmpuint (graft_edit_get_n_operations (edit), ==, 0);
  after = graft_listing_print (graph);
  g_assert_cmpstr (after, ==, before);
  /* Twice is the same as once. */
  {
    g_autoptr (GraftEdit) again = graft_eliminate_dead_code (graph, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (graft_edit_get_n_operations (again), ==, 0);
  }
}

/* A use before the definition (what a rewrite's insertion-point hazard
 * leaves): torch's lint raises before anything is erased, and so does
 * Graft, at the user, changing nothing. */
static void
test_use_before_definition (gconstpointer data)
{
  GraftTorch torch = GPOINTER_TO_INT (data);
  g_autoptr (GraftGraph) graph = parse_in (
      torch, "graph():\n"
             "    %x : [#users=3] = placeholder[target=x]\n"
             "    %dead : [#users=0] = call_method[target=relu](args = (%x,), kwargs = {})\n"
             "    %sub : [#users=1] = call_function[target=operator.sub](args = (%x,), kwargs = "
             "{other: %neg})\n"
             "    %neg : [#users=1] = call_method[target=neg](args = (%x,), kwargs = {})\n"
             "    return sub");
  g_autofree char *before = graft_listing_print (graph);
  g_autofree char *after = NULL;
  g_autoptr (GError) error = NULL;
  guint n_removed = 99;
  g_autoptr (GraftEdit) edit = graft_eliminate_dead_code (graph, &n_removed, &error);
  g_autofree char *message = NULL;

  g_assert_null (edit);
  g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH);
  g_assert_cmpuint (n_removed, ==, 0);
  message = g_strdup_printf ("sub uses neg before it is defined, so dead code cannot be "
                             "eliminated (torch.fx %s lints the graph first)",
                             graft_dialect_get (torch)->version);
  g_assert_cmpstr (error->message, ==, message);
  after = graft_listing_print (graph);
  g_assert_cmpstr (after, ==, before);
  g_assert_nonnull (graft_graph_find_node (graph, "dead"));
}

/* A node that reads itself is used before it is defined too (torch's lint
 * adds a node to the values seen after checking its arguments). */
static void
test_self_use (void)
{
  g_autoptr (GraftGraph) graph =
      parse_in (GRAFT_TORCH_2_6,
                "graph():\n"
                "    %x : [#users=1] = placeholder[target=x]\n"
                "    %a : [#users=1] = call_function[target=operator.add](args = (%x, %b), "
                "kwargs = {})\n"
                "    %b : [#users=2] = call_method[target=relu](args = (%b,), kwargs = {})\n"
                "    return a");
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftEdit) edit = graft_eliminate_dead_code (graph, NULL, &error);

  g_assert_null (edit);
  g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH);
  g_assert_nonnull (strstr (error->message, "a uses b before"));
}

/* A dead chain of 100,000 nodes goes in one pass of linear time (a walk
 * that started over after each erasure would take minutes). */
static void
test_long_chain (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get_default ());
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftEdit) edit = NULL;
  g_autoptr (GTimer) timer = g_timer_new ();
  GraftNode  *x = graft_graph_create_node (graph, GRAFT_OP_PLACEHOLDER, "x", NULL, NULL, NULL,
                                           NULL);
  GraftNode  *prev = x;
  GraftArg    args;
  guint       n_removed = 0;
  const guint n = 100000;

  for (guint i = 0; i < n; i++)
    {
      graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
      graft_arg_init_node (&args.items[0], prev);
      prev = graft_graph_create_node (graph, GRAFT_OP_CALL_METHOD, "neg", &args, NULL, NULL, NULL);
    }
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&args.items[0], x);
  graft_graph_create_node (graph, GRAFT_OP_OUTPUT, "output", &args, NULL, NULL, NULL);
  g_timer_start (timer);
  edit = graft_eliminate_dead_code (graph, &n_removed, &error);
  g_test_message ("%u dead nodes erased in %.3f s", n, g_timer_elapsed (timer, NULL));
  g_assert_no_error (error);
  g_assert_cmpuint (n_removed, ==, n);
  g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, 2);
  graft_edit_undo (edit);
  g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, n + 2);
  g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE, &error));
  g_assert_no_error (error);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint t = 0; t < G_N_ELEMENTS (torches); t++)
    {
      const char      *name = graft_dialect_get (torches[t])->name;
      gconstpointer    data = GINT_TO_POINTER (torches[t]);
      g_autofree char *ops = g_strdup_printf ("/core/dce/ops/torch%s", name);
      g_autofree char *chain = g_strdup_printf ("/core/dce/chain/torch%s", name);
      g_autofree char *nothing = g_strdup_printf ("/core/dce/nothing-dead/torch%s", name);
      g_autofree char *order = g_strdup_printf ("/core/dce/use-before-definition/torch%s", name);

      g_test_add_data_func (ops, data, test_ops);
      g_test_add_data_func (chain, data, test_chain);
      g_test_add_data_func (nothing, data, test_nothing_dead);
      g_test_add_data_func (order, data, test_use_before_definition);
    }
  g_test_add_func ("/core/dce/side-effectful", test_side_effectful);
  g_test_add_func ("/core/dce/mutable-schemas", test_mutable_schemas);
  g_test_add_func ("/core/dce/self-use", test_self_use);
  g_test_add_func ("/core/dce/long-chain", test_long_chain);
  return g_test_run ();
}
