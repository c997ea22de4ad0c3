/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-namespace.c: node names as torch.fx makes them.  Every expectation
 * was checked against torch 1.13.1's `_snake_case` and `_Namespace` under
 * /usr/bin/python3 (Python 3.11), in the same order, since a name depends
 * on the names made before it.
 */
#include "config.h"

#include "graft.h"

static void
test_snake_case (void)
{
  static const struct
  {
    const char *in;
    const char *out;
  } cases[] = {
    { "myLayer", "my_layer" },
    { "HTTPThing", "httpthing" },
    { "inputIds", "input_ids" },
    { "NoneType", "none_type" },
    { "x2D", "x2d" },
    { "weightA", "weight_a" },
    { "ReLU", "re_lu" },
    { "already_snake", "already_snake" },
    { "ALL_CAPS", "all_caps" },
    { "aB_cD", "a_b_c_d" },
    { "myLayer.subMod", "my_layer.sub_mod" },
    /* Non-ASCII letters have a case too. */
    { "\xc3\xb1X", "\xc3\xb1_x" },
    { "\xc3\x91x", "\xc3\xb1x" },
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = graft_snake_case (cases[i].in);

      g_assert_cmpstr (out, ==, cases[i].out);
    }
}

static void
test_name_for_target (void)
{
  static const struct
  {
    GraftOp     op;
    const char *target;
    const char *candidate;
  } cases[] = {
    { GRAFT_OP_CALL_FUNCTION, "operator.add", "add" },
    { GRAFT_OP_CALL_FUNCTION, "torch._C._nn.log_sigmoid", "log_sigmoid" },
    { GRAFT_OP_CALL_FUNCTION, "builtins.getattr", "getattr" },
    { GRAFT_OP_CALL_FUNCTION, "wrapf.myFunc", "my_func" },
    { GRAFT_OP_CALL_METHOD, "__getitem__", "getitem" },
    { GRAFT_OP_CALL_METHOD, "sum", "sum" },
    { GRAFT_OP_CALL_MODULE, "myLayer.subMod", "my_layer.sub_mod" },
    { GRAFT_OP_GET_ATTR, "layers.0.weight", "layers.0.weight" },
    { GRAFT_OP_PLACEHOLDER, "inputIds", "input_ids" },
    { GRAFT_OP_PLACEHOLDER, "*args", "*args" },
    { GRAFT_OP_PLACEHOLDER, "__x", "__x" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = graft_name_for_target (cases[i].op, cases[i].target);

      g_assert_cmpstr (out, ==, cases[i].candidate);
    }
}

/* One namespace, candidates in this order, as torch made them. */
static const struct
{
  const char *candidate;
  const char *name;
} sequence[] = {
  /* Sanitising. */
  { "layers.0", "layers_0" },
  { "*args", "_args" },
  { "a--b", "a_b" },
  { "\xc3\xb1x", "_x" },
  { "1st", "_1st" },
  { "0", "_0" },
  /* Numeric suffixes: parsed as numbers, leading zeros lost. */
  { "x_01", "x_1" },
  { "conv_0", "conv_0" },
  { "conv_0", "conv_1" },
  { "conv_1", "conv_2" },
  { "and_", "and_" },
  { "and_", "and__1" },
  /* Keywords, builtins and torch.fx's reserved globals. */
  { "lambda", "lambda_1" },
  { "sum", "sum_1" },
  { "max", "max_1" },
  { "float", "float_1" },
  { "type", "type_1" },
  { "pow", "pow_1" },
  { "round", "round_1" },
  { "all", "all_1" },
  { "getattr", "getattr_1" },
  { "input", "input_1" },
  { "device", "device_1" },
  { "inf", "inf_1" },
  { "pytree", "pytree_1" },
  { "torch_", "torch_" },
  { "nan", "nan_1" },
  { "NoneType", "NoneType_1" },
  { "torch", "torch_1" },
  { "fx_pytree", "fx_pytree_1" },
  { "print", "print_1" },
  { "True", "True_1" },
  { "Ellipsis", "Ellipsis_1" },
  { "exit", "exit_1" },
  { "license", "license_1" },
  /* Counting restarts from the parsed suffix every time. */
  { "x", "x" },
  { "x", "x_2" },
  { "x_1", "x_3" },
  { "x", "x_4" },
  { "a_b_3", "a_b_3" },
  { "a_b_3", "a_b_4" },
  { "_", "_" },
  { "_1", "_1" },
  { "_1", "_2" },
  { "__", "__" },
  { "x_007", "x_7" },
  { "conv_1", "conv_3" },
  { "layers.1", "layers_1" },
  { "layers_1", "layers_2" },
  { "layers.1", "layers_3" },
};

static void
test_create_name (void)
{
  g_autoptr (GraftNamespace) ns = graft_namespace_new ();

  for (guint i = 0; i < G_N_ELEMENTS (sequence); i++)
    {
      const char *name = graft_namespace_create_name (ns, sequence[i].candidate, GRAFT_NAME_DEFAULT);

      g_assert_cmpstr (name, ==, sequence[i].name);
      g_assert_true (graft_namespace_contains (ns, name));
    }
  g_assert_cmpuint (graft_namespace_get_size (ns), ==, G_N_ELEMENTS (sequence));
}

/* Names made out of order, so that the run of taken `x_<k>` the namespace
 * remembers has gaps to skip and to fill. */
static void
test_suffix_runs (void)
{
  static const struct
  {
    const char *candidate;
    const char *name;
  } runs[] = {
    { "x", "x" },
    { "x", "x_1" },
    { "x_3", "x_3" },
    { "x", "x_2" },
    { "x", "x_4" },
    { "x_2", "x_5" },
    { "x", "x_6" },
    { "x_10", "x_10" },
    { "x_9", "x_9" },
    { "x", "x_7" },
    { "x", "x_8" },
    { "x_0", "x_0" },
    { "x_00", "x_11" },
    { "x_1", "x_12" },
  };
  g_autoptr (GraftNamespace) ns = graft_namespace_new ();
  g_autoptr (GraftNamespace) many = graft_namespace_new ();
  g_autoptr (GTimer) timer = g_timer_new ();
  const char *name = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    g_assert_cmpstr (graft_namespace_create_name (ns, runs[i].candidate, GRAFT_NAME_DEFAULT), ==, runs[i].name);

  /* 100,000 nodes of one kind take linear time, not quadratic. */
  for (guint i = 0; i < 100000; i++)
    name = graft_namespace_create_name (many, "add", GRAFT_NAME_DEFAULT);
  g_assert_cmpstr (name, ==, "add_99999");
  g_assert_cmpfloat (g_timer_elapsed (timer, NULL), <, 10.0);
}

static void
test_builtin_flag (void)
{
  g_autoptr (GraftNamespace) ns = graft_namespace_new ();

  /* The getattr builtin itself may be called getattr; a node may not. */
  g_assert_cmpstr (graft_namespace_create_name (ns, "getattr", GRAFT_NAME_IS_BUILTIN), ==, "getattr");
  g_assert_cmpstr (graft_namespace_create_name (ns, "getattr", GRAFT_NAME_DEFAULT), ==, "getattr_1");
  g_assert_cmpstr (graft_namespace_create_name (ns, "inf", GRAFT_NAME_IS_BUILTIN), ==, "inf");
  /* Keywords are never legal. */
  g_assert_cmpstr (graft_namespace_create_name (ns, "lambda", GRAFT_NAME_IS_BUILTIN), ==, "lambda_1");
}

static void
test_names_never_released (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new ();
  GraftNode *neg, *neg_1, *again;
  GraftArg   args;

  /* An erased node keeps its name: the next `neg` skips it. */
  neg = graft_graph_create_node (graph, GRAFT_OP_PLACEHOLDER, "neg", NULL, NULL, NULL, NULL);
  neg_1 = graft_graph_create_node (graph, GRAFT_OP_PLACEHOLDER, "neg", NULL, NULL, NULL, NULL);
  g_assert_cmpstr (graft_node_get_name (neg), ==, "neg");
  g_assert_cmpstr (graft_node_get_name (neg_1), ==, "neg_1");
  graft_graph_erase_node (graph, neg);
  g_assert_null (graft_graph_find_node (graph, "neg"));
  g_assert_true (graft_namespace_contains (graft_graph_get_namespace (graph), "neg"));
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&args.items[0], neg_1);
  again = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "operator.neg", &args, NULL, NULL, NULL);
  g_assert_cmpstr (graft_node_get_name (again), ==, "neg_2");
}

static void
test_predicates (void)
{
  g_assert_true (graft_is_python_keyword ("lambda"));
  g_assert_true (graft_is_python_keyword ("None"));
  g_assert_false (graft_is_python_keyword ("sum"));
  g_assert_true (graft_is_python_builtin ("sum"));
  g_assert_true (graft_is_python_builtin ("Ellipsis"));
  g_assert_false (graft_is_python_builtin ("torch"));
  g_assert_true (graft_is_python_identifier ("_x1"));
  g_assert_true (graft_is_python_identifier ("lambda"));
  g_assert_true (graft_is_python_identifier ("\xc3\xb1x"));
  g_assert_false (graft_is_python_identifier ("1st"));
  g_assert_false (graft_is_python_identifier ("a-b"));
  g_assert_false (graft_is_python_identifier (""));
  g_assert_false (graft_is_python_identifier ("\xff"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/namespace/snake-case", test_snake_case);
  g_test_add_func ("/core/namespace/name-for-target", test_name_for_target);
  g_test_add_func ("/core/namespace/create-name", test_create_name);
  g_test_add_func ("/core/namespace/suffix-runs", test_suffix_runs);
  g_test_add_func ("/core/namespace/builtin-flag", test_builtin_flag);
  g_test_add_func ("/core/namespace/names-never-released", test_names_never_released);
  g_test_add_func ("/core/namespace/predicates", test_predicates);

  return g_test_run ();
}
