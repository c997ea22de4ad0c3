/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-graph.c: the graph IR: node creation and names, users bookkeeping,
 * replacing uses, erasing, moving, inserting before a node (order keys),
 * lint, input-node order and the memory estimate.
 */
#include "config.h"

#include "graft-view.h"
#include "graft-graph-private.h"

static GraftNode *
placeholder (GraftGraph *graph,
             const char *target)
{
  return graft_graph_create_node (graph, GRAFT_OP_PLACEHOLDER, target, NULL, NULL, NULL, NULL);
}

/* `target(a, b)` as a call_function, appended or inserted before @before. */
static GraftNode *
call2 (GraftGraph *graph,
       const char *target,
       GraftNode  *a,
       GraftNode  *b,
       GraftNode  *before)
{
  GraftArg args;

  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, b != NULL ? 2 : 1);
  graft_arg_init_node (&args.items[0], a);
  if (b != NULL)
    graft_arg_init_node (&args.items[1], b);
  return graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, target, &args, NULL, NULL, before);
}

static GraftNode *
output (GraftGraph *graph,
        GraftNode  *value)
{
  GraftArg args;

  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&args.items[0], value);
  return graft_graph_create_node (graph, GRAFT_OP_OUTPUT, "output", &args, NULL, NULL, NULL);
}

static void
assert_lint (GraftGraph    *graph,
             GraftLintFlags flags)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (graft_graph_lint (graph, flags, &error));
  g_assert_no_error (error);
}

static void
assert_lint_fails (GraftGraph    *graph,
                   GraftLintFlags flags,
                   const char    *message)
{
  g_autoptr (GError) error = NULL;

  g_assert_false (graft_graph_lint (graph, flags, &error));
  g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_create (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode       *x = placeholder (graph, "x");
  GraftNode       *add = call2 (graph, "operator.add", x, x, NULL);
  GraftNode       *add_1 = call2 (graph, "operator.add", add, x, NULL);
  GraftNode       *out = output (graph, add_1);
  GraftArg         args;
  GraftNode       *named;
  g_autofree char *listing = NULL;

  g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, 4);
  g_assert_true (graft_graph_get_first (graph) == x);
  g_assert_true (graft_graph_get_last (graph) == out);
  g_assert_true (graft_graph_get_output (graph) == out);
  g_assert_cmpstr (graft_node_get_name (add), ==, "add");
  g_assert_cmpstr (graft_node_get_name (add_1), ==, "add_1");
  g_assert_cmpstr (graft_node_get_name (out), ==, "output");
  g_assert_cmpstr (graft_node_get_target (add), ==, "operator.add");
  g_assert_cmpint (graft_node_get_op (add), ==, GRAFT_OP_CALL_FUNCTION);
  g_assert_true (graft_node_get_graph (add) == graph);
  g_assert_true (graft_graph_find_node (graph, "add_1") == add_1);
  g_assert_null (graft_graph_find_node (graph, "nope"));
  g_assert_true (graft_node_get_next (x) == add);
  g_assert_true (graft_node_get_prev (add) == x);
  g_assert_null (graft_node_get_prev (x));
  g_assert_null (graft_node_get_next (out));
  g_assert_cmpint (graft_node_compare_order (x, add), <, 0);
  g_assert_cmpint (graft_node_compare_order (out, add), >, 0);
  g_assert_cmpint (graft_node_compare_order (add, add), ==, 0);

  /* An explicit candidate goes through the namespace; an exact name does
   * not. */
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&args.items[0], x);
  named = graft_graph_create_node (graph, GRAFT_OP_CALL_METHOD, "relu", &args, NULL, "sum", out);
  g_assert_cmpint (args.kind, ==, GRAFT_ARG_NONE);
  g_assert_cmpstr (graft_node_get_name (named), ==, "sum_1");
  named = graft_graph_create_node_named (graph, GRAFT_OP_GET_ATTR, "w", NULL, NULL, "x_01", out);
  g_assert_cmpstr (graft_node_get_name (named), ==, "x_01");
  g_assert_cmpuint (graft_node_get_args (named)->kind, ==, GRAFT_ARG_TUPLE);
  g_assert_cmpuint (graft_node_get_kwargs (named)->kind, ==, GRAFT_ARG_DICT);

  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);
  listing = graft_listing_print (graph);
  g_assert_cmpstr (listing, ==,
                   "graph():\n"
                   "    %x : [#users=3] = placeholder[target=x]\n"
                   "    %add : [#users=1] = call_function[target=operator.add](args = (%x, %x), "
                   "kwargs = {})\n"
                   "    %add_1 : [#users=1] = call_function[target=operator.add](args = (%add, "
                   "%x), kwargs = {})\n"
                   "    %sum_1 : [#users=0] = call_method[target=relu](args = (%x,), kwargs = {})\n"
                   "    %x_01 : [#users=0] = get_attr[target=w]\n"
                   "    return add_1");
}

/* A value read by many nodes indexes its users: erasing them in any
 * order, and undoing and redoing that, keeps each remaining user listed
 * exactly once (the index shifts entries back on removal). */
static void
test_many_users (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_2_6));
  GraftNode *x = placeholder (graph, "x");
  GraftNode *users[300];
  gboolean   erased[G_N_ELEMENTS (users)] = { FALSE };
  GRand     *rand = g_rand_new_with_seed (20261202);
  g_autoptr (GraftEdit) edit = NULL;
  guint n_left = G_N_ELEMENTS (users);

  for (guint i = 0; i < G_N_ELEMENTS (users); i++)
    users[i] = call2 (graph, "torch.neg", x, NULL, NULL);
  g_assert_cmpuint (graft_node_get_n_users (x), ==, G_N_ELEMENTS (users));
  graft_graph_begin_edit (graph);
  while (n_left > 0)
    {
      guint i = g_rand_int_range (rand, 0, G_N_ELEMENTS (users));
      guint seen = 0;

      if (erased[i])
        continue;
      graft_graph_erase_node (graph, users[i]);
      erased[i] = TRUE;
      n_left--;
      g_assert_cmpuint (graft_node_get_n_users (x), ==, n_left);
      /* Every listed user is one not erased, each listed once. */
      for (guint k = 0; k < G_N_ELEMENTS (users); k++)
        for (guint u = 0; u < graft_node_get_n_users (x); u++)
          if (graft_node_get_user (x, u) == users[k])
            {
              g_assert_false (erased[k]);
              seen++;
            }
      g_assert_cmpuint (seen, ==, n_left);
    }
  edit = graft_graph_end_edit (graph);
  graft_edit_undo (edit);
  g_assert_cmpuint (graft_node_get_n_users (x), ==, G_N_ELEMENTS (users));
  for (guint k = 0; k < G_N_ELEMENTS (users); k++)
    {
      guint seen = 0;

      for (guint u = 0; u < graft_node_get_n_users (x); u++)
        seen += graft_node_get_user (x, u) == users[k];
      g_assert_cmpuint (seen, ==, 1);
    }
  graft_edit_redo (edit);
  g_assert_cmpuint (graft_node_get_n_users (x), ==, 0);
  g_rand_free (rand);
}

/* Erased nodes wait in the graph's trash while an edit may bring them
 * back, and stay there when the edit that erased them is dropped: later
 * edits undo and redo above them, and the graph frees them all. */
static void
test_undo_above_trash (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_2_6));
  GraftNode       *x = placeholder (graph, "x");
  GraftNode       *n[6];
  GraftEdit       *edits[3];
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (n); i++)
    n[i] = call2 (graph, "torch.neg", x, NULL, NULL);
  for (guint e = 0; e < G_N_ELEMENTS (edits); e++)
    {
      graft_graph_begin_edit (graph);
      graft_graph_erase_node (graph, n[e]);
      graft_graph_erase_node (graph, n[5 - e]);
      edits[e] = graft_graph_end_edit (graph);
      if (e == 0)
        before = graft_listing_print (graph);
    }
  g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, 1);
  /* n[0] and n[5] stay erased for good. */
  graft_edit_free (edits[0]);
  graft_edit_undo (edits[2]);
  graft_edit_undo (edits[1]);
  after = graft_listing_print (graph);
  g_assert_cmpstr (after, ==, before);
  /* What the rewriter asks before erasing a matched node. */
  g_assert_true (_graft_node_is_attached (graph, x));
  g_assert_true (_graft_node_is_attached (graph, n[1]));
  g_assert_false (_graft_node_is_attached (graph, n[0]));
  g_assert_false (_graft_node_is_attached (graph, n[5]));
  g_assert_true (graft_node_get_next (x) == n[1]);
  g_assert_true (graft_node_get_next (n[3]) == n[4]);
  graft_edit_redo (edits[1]);
  g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, 3);
  graft_edit_undo (edits[1]);
  g_assert_cmpuint (graft_node_get_n_users (x), ==, 4);
  graft_edit_redo (edits[1]);
  graft_edit_redo (edits[2]);
  g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, 1);
  graft_edit_free (edits[1]);
  graft_edit_free (edits[2]);
}

static void
test_users (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode *x = placeholder (graph, "x");
  GraftNode *y = placeholder (graph, "y");
  GraftNode *a = call2 (graph, "operator.mul", x, x, NULL);
  GraftNode *b = call2 (graph, "operator.add", y, x, NULL);
  GraftArg   args, kwargs;

  /* x * x counts a as one user of x. */
  g_assert_cmpuint (graft_node_get_n_users (x), ==, 2);
  g_assert_true (graft_node_get_user (x, 0) == a);
  g_assert_true (graft_node_get_user (x, 1) == b);
  g_assert_cmpuint (graft_node_get_n_users (y), ==, 1);
  g_assert_cmpuint (graft_node_get_n_users (a), ==, 0);

  /* Changing args updates both sides; kwargs count too. */
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_seq (&args.items[0], GRAFT_ARG_LIST, 2);
  graft_arg_init_node (&args.items[0].items[0], a);
  graft_arg_init_node (&args.items[0].items[1], a);
  graft_arg_init_dict (&kwargs, 1);
  graft_arg_init_str (&kwargs.items[0], "other", -1);
  graft_arg_init_node (&kwargs.items[1], y);
  graft_graph_set_args (graph, b, &args, &kwargs);
  g_assert_cmpuint (graft_node_get_n_users (x), ==, 1);
  g_assert_cmpuint (graft_node_get_n_users (a), ==, 1);
  g_assert_cmpuint (graft_node_get_n_users (y), ==, 1);
  g_assert_true (graft_node_get_user (y, 0) == b);

  /* NULL keeps that part. */
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 0);
  graft_graph_set_args (graph, b, &args, NULL);
  g_assert_cmpuint (graft_node_get_n_users (a), ==, 0);
  g_assert_cmpuint (graft_node_get_n_users (y), ==, 1);

  output (graph, b);
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);
}

/* A node's inputs in containers of its top-level arguments: each
 * distinct node counts it once, however often and wherever it appears;
 * past eight distinct nodes, or in a container nested deeper, too. */
static void
test_container_inputs (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_2_6));
  GraftNode *p[10];
  GraftNode *cat, *wide, *deep;
  GraftArg   args;

  for (guint i = 0; i < G_N_ELEMENTS (p); i++)
    {
      g_autofree char *name = g_strdup_printf ("p%u", i);

      p[i] = placeholder (graph, name);
    }
  /* torch.cat([p0, p1, p0], p1): p0 and p1 once each. */
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 2);
  graft_arg_init_seq (&args.items[0], GRAFT_ARG_LIST, 3);
  graft_arg_init_node (&args.items[0].items[0], p[0]);
  graft_arg_init_node (&args.items[0].items[1], p[1]);
  graft_arg_init_node (&args.items[0].items[2], p[0]);
  graft_arg_init_node (&args.items[1], p[1]);
  cat = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "torch.cat", &args, NULL, NULL,
                                 NULL);
  /* torch.stack([p0 ... p9]): ten distinct nodes. */
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_seq (&args.items[0], GRAFT_ARG_LIST, G_N_ELEMENTS (p));
  for (guint i = 0; i < G_N_ELEMENTS (p); i++)
    graft_arg_init_node (&args.items[0].items[i], p[i]);
  wide = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "torch.stack", &args, NULL, NULL,
                                  NULL);
  /* torch.cat([(p2, p3)], p2): a node two containers deep. */
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 2);
  graft_arg_init_seq (&args.items[0], GRAFT_ARG_LIST, 1);
  graft_arg_init_seq (&args.items[0].items[0], GRAFT_ARG_TUPLE, 2);
  graft_arg_init_node (&args.items[0].items[0].items[0], p[2]);
  graft_arg_init_node (&args.items[0].items[0].items[1], p[3]);
  graft_arg_init_node (&args.items[1], p[2]);
  deep = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "torch.cat", &args, NULL, NULL,
                                  NULL);

  g_assert_cmpuint (graft_node_get_n_users (p[0]), ==, 2);
  g_assert_true (graft_node_get_user (p[0], 0) == cat);
  g_assert_true (graft_node_get_user (p[0], 1) == wide);
  g_assert_cmpuint (graft_node_get_n_users (p[1]), ==, 2);
  g_assert_cmpuint (graft_node_get_n_users (p[2]), ==, 2);
  g_assert_true (graft_node_get_user (p[2], 1) == deep);
  g_assert_cmpuint (graft_node_get_n_users (p[3]), ==, 2);
  for (guint i = 4; i < G_N_ELEMENTS (p); i++)
    {
      g_assert_cmpuint (graft_node_get_n_users (p[i]), ==, 1);
      g_assert_true (graft_node_get_user (p[i], 0) == wide);
    }
  /* Erasing takes each user out once. */
  graft_graph_erase_node (graph, cat);
  graft_graph_erase_node (graph, deep);
  g_assert_cmpuint (graft_node_get_n_users (p[0]), ==, 1);
  g_assert_cmpuint (graft_node_get_n_users (p[1]), ==, 1);
  g_assert_cmpuint (graft_node_get_n_users (p[2]), ==, 1);
  g_assert_cmpuint (graft_node_get_n_users (p[3]), ==, 1);
  graft_graph_erase_node (graph, wide);
  for (guint i = 0; i < G_N_ELEMENTS (p); i++)
    g_assert_cmpuint (graft_node_get_n_users (p[i]), ==, 0);
  output (graph, p[0]);
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);
}

static void
test_replace_all_uses (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode       *x = placeholder (graph, "x");
  GraftNode       *y = placeholder (graph, "y");
  GraftNode       *a = call2 (graph, "operator.add", x, x, NULL);
  GraftNode       *b = call2 (graph, "torch.relu", x, NULL, NULL);
  GraftNode       *out;
  GraftArg         args;
  g_autofree char *listing = NULL;

  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_seq (&args.items[0], GRAFT_ARG_TUPLE, 3);
  graft_arg_init_node (&args.items[0].items[0], a);
  graft_arg_init_slice (&args.items[0].items[1]);
  graft_arg_init_node (&args.items[0].items[1].items[1], x);
  graft_arg_init_node (&args.items[0].items[2], b);
  out = graft_graph_create_node (graph, GRAFT_OP_OUTPUT, "output", &args, NULL, NULL, NULL);

  graft_graph_replace_all_uses (graph, x, y);
  g_assert_cmpuint (graft_node_get_n_users (x), ==, 0);
  g_assert_cmpuint (graft_node_get_n_users (y), ==, 3);
  g_assert_true (graft_node_get_user (y, 2) == out);
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);
  /* Positions and containers stay as they were. */
  listing = graft_listing_print (graph);
  g_assert_cmpstr (listing, ==,
                   "graph():\n"
                   "    %x : [#users=0] = placeholder[target=x]\n"
                   "    %y : [#users=3] = placeholder[target=y]\n"
                   "    %add : [#users=1] = call_function[target=operator.add](args = (%y, %y), "
                   "kwargs = {})\n"
                   "    %relu : [#users=1] = call_function[target=torch.relu](args = (%y,), kwargs "
                   "= {})\n"
                   "    return (add, slice(None, y, None), relu)");

  /* Replacing a node by itself changes nothing. */
  graft_graph_replace_all_uses (graph, y, y);
  g_assert_cmpuint (graft_node_get_n_users (y), ==, 3);
}

/* The names of @node's users, in order, joined by spaces. */
static char *
users_text (GraftNode *node)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < graft_node_get_n_users (node); i++)
    g_string_append_printf (out, "%s%s", i > 0 ? " " : "",
                            graft_node_get_name (graft_node_get_user (node, i)));
  return g_string_free (out, FALSE);
}

static void
assert_users (GraftNode  *node,
              const char *expected)
{
  g_autofree char *text = users_text (node);

  g_assert_cmpstr (text, ==, expected);
}

/* Replacing uses inside an edit, undone and redone: the arguments come
 * back, every users list is in the order torch's dicts would have
 * (each rewired user leaves all its inputs and joins them again last),
 * and undo gives each its order before,
 * for users that used the replacement already too. */
static void
test_replace_all_uses_undo (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_2_6));
  GraftNode       *x = placeholder (graph, "x");
  GraftNode       *y = placeholder (graph, "y");
  GraftNode       *z = placeholder (graph, "z");
  GraftNode       *a = call2 (graph, "operator.add", x, z, NULL);
  GraftNode       *b = call2 (graph, "operator.mul", x, y, NULL);
  GraftNode       *c = call2 (graph, "operator.sub", z, x, NULL);
  GraftNode       *out;
  GraftArg         args;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *again = NULL;
  g_autoptr (GraftEdit) edit = NULL;
  g_autoptr (GHashTable) changes = NULL;

  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_seq (&args.items[0], GRAFT_ARG_TUPLE, 4);
  graft_arg_init_node (&args.items[0].items[0], a);
  graft_arg_init_node (&args.items[0].items[1], b);
  graft_arg_init_node (&args.items[0].items[2], c);
  graft_arg_init_slice (&args.items[0].items[3]);
  graft_arg_init_node (&args.items[0].items[3].items[1], x);
  out = graft_graph_create_node (graph, GRAFT_OP_OUTPUT, "output", &args, NULL, NULL, NULL);
  before = graft_listing_print (graph);
  assert_users (x, "add mul sub output");
  assert_users (z, "add sub");

  graft_graph_begin_edit (graph);
  graft_graph_replace_all_uses (graph, x, y);
  edit = graft_graph_end_edit (graph);
  after = graft_listing_print (graph);
  g_assert_cmpuint (graft_edit_get_n_operations (edit), ==, 4);
  assert_users (x, "");
  assert_users (y, "add mul sub output");
  assert_users (z, "add sub");
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);
  g_assert_nonnull (strstr (after, "operator.mul](args = (%y, %y)"));
  g_assert_nonnull (strstr (after, "slice(None, y, None)"));
  changes = graft_edit_dup_changes (edit);
  g_assert_cmpuint (g_hash_table_size (changes), ==, 4);
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (changes, out)), ==, GRAFT_CHANGE_REWIRED);
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (changes, b)), ==, GRAFT_CHANGE_REWIRED);

  graft_edit_undo (edit);
  {
    g_autofree char *undone = graft_listing_print (graph);

    g_assert_cmpstr (undone, ==, before);
  }
  /* Each list in its order before the edit (the inverses alone gave x
   * "output sub mul add"). */
  assert_users (x, "add mul sub output");
  assert_users (y, "mul");
  assert_users (z, "add sub");
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);

  graft_edit_redo (edit);
  again = graft_listing_print (graph);
  g_assert_cmpstr (again, ==, after);
  assert_users (x, "");
  assert_users (y, "add mul sub output");
  assert_users (z, "add sub");
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);
}

static void
test_erase (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode *x = placeholder (graph, "x");
  GraftNode *neg = call2 (graph, "operator.neg", x, NULL, NULL);
  GraftNode *neg_1 = call2 (graph, "operator.neg", neg, NULL, NULL);
  GraftNode *again;

  output (graph, neg_1);
  graft_graph_replace_all_uses (graph, neg, x);
  graft_graph_erase_node (graph, neg);
  g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, 3);
  g_assert_cmpuint (graft_node_get_n_users (x), ==, 1);
  g_assert_null (graft_graph_find_node (graph, "neg"));
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);

  /* The erased name stays reserved, as torch's namespace keeps it. */
  again = call2 (graph, "operator.neg", x, NULL, graft_graph_get_output (graph));
  g_assert_cmpstr (graft_node_get_name (again), ==, "neg_2");
  again = call2 (graph, "operator.neg", x, NULL, graft_graph_get_output (graph));
  g_assert_cmpstr (graft_node_get_name (again), ==, "neg_3");

  /* Erasing the first and the last node keeps the list whole. */
  graft_graph_erase_node (graph, graft_graph_get_output (graph));
  graft_graph_erase_node (graph, again);
  g_assert_true (graft_node_get_next (graft_graph_get_last (graph)) == NULL);
  output (graph, x);
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);
}

static void
test_move_before (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode *x = placeholder (graph, "x");
  GraftNode *a = call2 (graph, "torch.relu", x, NULL, NULL);
  GraftNode *b = call2 (graph, "torch.tanh", x, NULL, NULL);
  GraftNode *out;
  g_autoptr (GError) error = NULL;

  out = output (graph, b);
  graft_graph_move_before (graph, b, a);
  g_assert_true (graft_node_get_next (x) == b);
  g_assert_true (graft_node_get_next (b) == a);
  g_assert_true (graft_node_get_next (a) == out);
  g_assert_cmpint (graft_node_compare_order (b, a), <, 0);
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);

  /* Moving a user before its input breaks only the optional check. */
  graft_graph_move_before (graph, a, x);
  g_assert_true (graft_graph_get_first (graph) == a);
  assert_lint (graph, GRAFT_LINT_DEFAULT);
  assert_lint_fails (graph, GRAFT_LINT_DEFINED_BEFORE_USE, "node relu uses x before it is defined");

  /* NULL moves to the end: the output is then no longer last. */
  graft_graph_move_before (graph, a, NULL);
  g_assert_true (graft_graph_get_last (graph) == a);
  assert_lint_fails (graph, GRAFT_LINT_DEFAULT,
                     "the graph must end with exactly one output node (it has 1)");
  graft_graph_move_before (graph, a, out);
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);
}

static void
test_insert_before (void)
{
  const guint n = 100000;
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode *x = placeholder (graph, "x");
  GraftNode *out = output (graph, x);
  GraftNode *prev = x;
  g_autoptr (GTimer) timer = g_timer_new ();
  guint count = 0;

  /* Each new node goes right before the output, so the gap between the
   * order keys of its neighbours halves every time. */
  for (guint i = 0; i < n; i++)
    prev = call2 (graph, "torch.relu", prev, NULL, out);
  g_test_message ("%u insertions in %.3f s", n, g_timer_elapsed (timer, NULL));

  g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, n + 2);
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      GraftNode *next = graft_node_get_next (node);

      if (next != NULL)
        g_assert_cmpint (graft_node_compare_order (node, next), <, 0);
      count++;
    }
  g_assert_cmpuint (count, ==, n + 2);
  g_assert_true (graft_node_get_prev (out) == prev);
  g_assert_cmpstr (graft_node_get_name (prev), ==, "relu_99999");
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);

  /* And the same at the front, before the first node. */
  for (guint i = 0; i < 1000; i++)
    graft_graph_create_node (graph, GRAFT_OP_GET_ATTR, "w", NULL, NULL, NULL,
                             graft_graph_get_first (graph));
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);
}

static void
test_lint (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  g_autoptr (GraftGraph) other = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode *x = placeholder (graph, "x");
  GraftNode *foreign = placeholder (other, "f");
  GraftNode *a;
  GraftArg   args;

  assert_lint_fails (graph, GRAFT_LINT_DEFAULT,
                     "the graph must end with exactly one output node (it has 0)");
  output (graph, x);
  assert_lint (graph, GRAFT_LINT_DEFAULT);
  output (graph, x);
  assert_lint_fails (graph, GRAFT_LINT_DEFAULT,
                     "the graph must end with exactly one output node (it has 2)");
  graft_graph_erase_node (graph, graft_graph_get_output (graph));
  assert_lint (graph, GRAFT_LINT_DEFAULT);

  /* A reference to a node of another graph. */
  a = call2 (graph, "torch.relu", x, NULL, graft_graph_get_output (graph));
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&args.items[0], foreign);
  graft_graph_set_args (graph, a, &args, NULL);
  assert_lint_fails (graph, GRAFT_LINT_DEFAULT,
                     "node relu refers to a node that is not in the graph");
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&args.items[0], x);
  graft_graph_set_args (graph, a, &args, NULL);
  assert_lint (graph, GRAFT_LINT_DEFAULT);

  /* Keyword names must be strings. */
  graft_arg_init_dict (&args, 1);
  graft_arg_init_int (&args.items[0], 1);
  graft_arg_init_none (&args.items[1]);
  graft_graph_set_args (graph, a, NULL, &args);
  assert_lint_fails (graph, GRAFT_LINT_DEFAULT, "node relu has a keyword that is not a string");
}

static void
test_input_nodes (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode *a = placeholder (graph, "a");
  GraftNode *b = placeholder (graph, "b");
  GraftNode *c = placeholder (graph, "c");
  GraftNode *d = placeholder (graph, "d");
  GraftNode *node;
  GraftArg   args, kwargs;
  g_autoptr (GPtrArray) inputs = NULL;

  /* args ([c, (b, c)], slice(a, None, d)) and kwargs {k: d, m: {n: b}}:
   * distinct nodes of args then kwargs, depth first, in first-appearance
   * order: c, b, a, d. */
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 2);
  graft_arg_init_seq (&args.items[0], GRAFT_ARG_LIST, 2);
  graft_arg_init_node (&args.items[0].items[0], c);
  graft_arg_init_seq (&args.items[0].items[1], GRAFT_ARG_TUPLE, 2);
  graft_arg_init_node (&args.items[0].items[1].items[0], b);
  graft_arg_init_node (&args.items[0].items[1].items[1], c);
  graft_arg_init_slice (&args.items[1]);
  graft_arg_init_node (&args.items[1].items[0], a);
  graft_arg_init_node (&args.items[1].items[2], d);
  graft_arg_init_dict (&kwargs, 2);
  graft_arg_init_str (&kwargs.items[0], "k", -1);
  graft_arg_init_node (&kwargs.items[1], d);
  graft_arg_init_str (&kwargs.items[2], "m", -1);
  graft_arg_init_dict (&kwargs.items[3], 1);
  graft_arg_init_str (&kwargs.items[3].items[0], "n", -1);
  graft_arg_init_node (&kwargs.items[3].items[1], b);
  node = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "wrapf.f", &args, &kwargs, NULL,
                                  NULL);

  inputs = graft_node_dup_input_nodes (node);
  g_assert_cmpuint (inputs->len, ==, 4);
  g_assert_true (inputs->pdata[0] == c);
  g_assert_true (inputs->pdata[1] == b);
  g_assert_true (inputs->pdata[2] == a);
  g_assert_true (inputs->pdata[3] == d);
  for (guint i = 0; i < inputs->len; i++)
    {
      g_assert_cmpuint (graft_node_get_n_users (inputs->pdata[i]), ==, 1);
      g_assert_true (graft_node_get_user (inputs->pdata[i], 0) == node);
    }
}

static void
test_node_fields (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode *x = placeholder (graph, "x");
  guint32    start = 1, end = 1;

  g_assert_null (graft_node_get_type_annotation (x));
  graft_node_set_type_annotation (x, "torch.Tensor");
  g_assert_cmpstr (graft_node_get_type_annotation (x), ==, "torch.Tensor");
  graft_node_set_type_annotation (x, NULL);
  g_assert_null (graft_node_get_type_annotation (x));
  g_assert_false (graft_node_get_is_wrapped (x));
  graft_node_set_is_wrapped (x, 42);
  g_assert_true (graft_node_get_is_wrapped (x));
  graft_node_get_span (x, &start, &end);
  g_assert_cmpuint (start, ==, 0);
  g_assert_cmpuint (end, ==, 0);
  graft_node_set_span (x, 10, 20);
  graft_node_get_span (x, &start, &end);
  g_assert_cmpuint (start, ==, 10);
  g_assert_cmpuint (end, ==, 20);
  g_assert_cmpstr (graft_graph_intern (graph, "abc"), ==, "abc");
  g_assert_true (graft_graph_intern (graph, "abc") == graft_graph_intern (graph, "abc"));
  g_assert_cmpstr (graft_op_to_string (GRAFT_OP_CALL_MODULE), ==, "call_module");
  {
    GraftOp op = GRAFT_OP_PLACEHOLDER;

    g_assert_true (graft_op_from_string ("get_attr", 8, &op));
    g_assert_cmpint (op, ==, GRAFT_OP_GET_ATTR);
    g_assert_false (graft_op_from_string ("get_att", 7, &op));
  }
}

/* Interning gives one copy per distinct text: texts that share their
 * first eight or sixteen bytes, prefixes of each other, the empty text,
 * thousands of texts (the table grows), and the targets, annotations and
 * node targets that go through the same table. */
static void
test_intern (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get_default ());
  g_autoptr (GPtrArray) copies = g_ptr_array_new ();
  g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  static const char *const near[] = {
    "",
    "a",
    "abcdefg",
    "abcdefgh",
    "abcdefghi",
    "abcdefgx",
    "abcdefghx",
    "abcdefghijklmnop",
    "abcdefghijklmnopq",
    "abcdefghijklmnoq",
  };
  GraftNode *node;
  char       buf[32];

  for (guint i = 0; i < G_N_ELEMENTS (near); i++)
    g_ptr_array_add (copies, (gpointer) graft_graph_intern (graph, near[i]));
  for (guint i = 0; i < 5000; i++)
    g_ptr_array_add (texts, g_strdup_printf ("torch.ops.aten.op_%u.default", i));
  for (guint i = 0; i < texts->len; i++)
    g_ptr_array_add (copies, (gpointer) graft_graph_intern (graph, texts->pdata[i]));
  for (guint i = 0; i < G_N_ELEMENTS (near); i++)
    {
      /* Asked again from another address, the same copy. */
      g_strlcpy (buf, near[i], sizeof buf);
      g_assert_cmpstr (copies->pdata[i], ==, near[i]);
      g_assert_true (graft_graph_intern (graph, buf) == copies->pdata[i]);
      for (guint j = 0; j < i; j++)
        g_assert_true (copies->pdata[i] != copies->pdata[j]);
    }
  for (guint i = 0; i < texts->len; i++)
    {
      const char *copy = copies->pdata[G_N_ELEMENTS (near) + i];

      g_assert_cmpstr (copy, ==, texts->pdata[i]);
      g_assert_true (copy != texts->pdata[i]);
      g_assert_true (graft_graph_intern (graph, texts->pdata[i]) == copy);
    }
  /* A node's target and type annotation are the interned copies. */
  node = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, texts->pdata[7], NULL, NULL,
                                  "op", NULL);
  g_assert_true (graft_node_get_target (node) == copies->pdata[G_N_ELEMENTS (near) + 7]);
  node = graft_graph_create_node_named (graph, GRAFT_OP_CALL_FUNCTION, "abcdefgh", NULL, NULL,
                                        "op_named", NULL);
  g_assert_true (graft_node_get_target (node) == copies->pdata[3]);
  graft_node_set_type_annotation (node, "abcdefghi");
  g_assert_true (graft_node_get_type_annotation (node) == copies->pdata[4]);
  g_assert_null (graft_graph_intern (graph, NULL));
  /* Other text at the same address, as a reader's buffer holds: each
   * node gets its own text's copy. */
  for (guint i = 0; i < 40; i++)
    {
      g_snprintf (buf, sizeof buf, i % 3 == 0 ? "torch.neg" : "torch.relu_%u", i % 7);
      node = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, buf, NULL, NULL, "op", NULL);
      g_assert_cmpstr (graft_node_get_target (node), ==, buf);
      g_assert_true (graft_node_get_target (node) == graft_graph_intern (graph, buf));
    }
}

/* Undoing an addition releases the node's name and redoing it takes the
 * same name back, bound to the same node: the graph finds it by name, and
 * its name is the namespace's own (one address, as lint checks). */
static void
test_undo_add_names (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_2_6));
  GraftNode  *x = placeholder (graph, "x");
  GraftNode  *neg = call2 (graph, "torch.neg", x, NULL, NULL);
  GraftNode  *neg_1, *neg_2;
  const char *name;
  g_autoptr (GraftEdit) edit = NULL;

  output (graph, neg);
  graft_graph_begin_edit (graph);
  neg_1 = call2 (graph, "torch.neg", neg, NULL, graft_graph_get_output (graph));
  edit = graft_graph_end_edit (graph);
  name = graft_node_get_name (neg_1);
  g_assert_cmpstr (name, ==, "neg_1");
  graft_edit_undo (edit);
  g_assert_null (graft_graph_find_node (graph, "neg_1"));
  g_assert_false (graft_namespace_contains (graft_graph_get_namespace (graph), "neg_1"));
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);
  graft_edit_redo (edit);
  g_assert_true (graft_graph_find_node (graph, "neg_1") == neg_1);
  g_assert_true (graft_node_get_name (neg_1) == name);
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);
  neg_2 = call2 (graph, "torch.neg", neg_1, NULL, graft_graph_get_output (graph));
  g_assert_cmpstr (graft_node_get_name (neg_2), ==, "neg_2");
  g_assert_true (graft_graph_find_node (graph, "neg_2") == neg_2);
  g_assert_true (graft_graph_find_node (graph, "neg") == neg);
  g_assert_cmpuint (graft_namespace_get_size (graft_graph_get_namespace (graph)), ==, 5);
}

/* Arguments of every kind, to check how the graph keeps them. */
static void
rich_args (GraftNode *x,
           GraftArg  *args,
           GraftArg  *kwargs)
{
  GraftArg *list, *dict;

  graft_arg_init_seq (args, GRAFT_ARG_TUPLE, 7);
  graft_arg_init_node (&args->items[0], x);
  graft_arg_init_str (&args->items[1], "a\0b", 3);
  graft_arg_init_complex (&args->items[2], 1.5, -2);
  list = &args->items[3];
  graft_arg_init_seq (list, GRAFT_ARG_LIST, 3);
  graft_arg_init_node (&list->items[0], x);
  graft_arg_init_float (&list->items[1], 1.5);
  graft_arg_init_none (&list->items[2]);
  dict = &args->items[4];
  graft_arg_init_dict (dict, 1);
  graft_arg_init_str (&dict->items[0], "k", -1);
  graft_arg_init_slice (&dict->items[1]);
  graft_arg_init_int (&dict->items[1].items[0], 1);
  graft_arg_init_int (&dict->items[1].items[2], 2);
  graft_arg_init_symbol (&args->items[5], "torch.float32");
  graft_arg_init_device (&args->items[6], "cuda:0");
  graft_arg_init_dict (kwargs, 2);
  graft_arg_init_str (&kwargs->items[0], "alpha", -1);
  graft_arg_init_str (&kwargs->items[1], "x", -1);
  graft_arg_init_str (&kwargs->items[2], "dim", -1);
  graft_arg_init_seq (&kwargs->items[3], GRAFT_ARG_TUPLE, 0);
}

/* The graph keeps its nodes' arguments in its own storage, strings
 * interned: they read back as given, whether consumed or copied, and
 * edits that change them undo and redo exactly, even when the edit
 * outlives the graph. */
static void
test_arg_storage (void)
{
  GraftGraph *graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_2_6));
  GraftNode  *x = placeholder (graph, "x");
  GraftNode  *n1, *n2, *n3;
  GraftArg    args, kwargs, expected_args, expected_kwargs, new_args, value;
  GraftEdit  *edit;

  rich_args (x, &args, &kwargs);
  graft_arg_copy (&expected_args, &args);
  graft_arg_copy (&expected_kwargs, &kwargs);
  n1 = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "f", &args, &kwargs, NULL, NULL);
  g_assert_cmpint (args.kind, ==, GRAFT_ARG_NONE);
  g_assert_cmpint (kwargs.kind, ==, GRAFT_ARG_NONE);
  g_assert_true (graft_arg_equal (graft_node_get_args (n1), &expected_args));
  g_assert_true (graft_arg_equal (graft_node_get_kwargs (n1), &expected_kwargs));
  g_assert_cmpuint (graft_node_get_n_users (x), ==, 1);

  /* Copied, the caller's arguments stay the caller's. */
  rich_args (x, &args, &kwargs);
  n2 = graft_graph_create_node_copy (graph, GRAFT_OP_CALL_FUNCTION, "f", &args, &kwargs, NULL,
                                     NULL);
  g_assert_true (graft_arg_equal (&args, &expected_args));
  g_assert_true (graft_arg_equal (graft_node_get_args (n2), &expected_args));
  g_assert_true (graft_arg_equal (graft_node_get_kwargs (n2), &expected_kwargs));
  g_assert_true (graft_node_get_args (n2)->items != args.items);
  g_assert_cmpstr (graft_node_get_name (n2), ==, "f_1");
  graft_arg_clear (&args);
  graft_arg_clear (&kwargs);
  /* Strings are interned: one `alpha` for both nodes. */
  g_assert_true (graft_node_get_kwargs (n1)->items[0].s == graft_node_get_kwargs (n2)->items[0].s);
  g_assert_cmpmem (graft_node_get_args (n2)->items[1].s, 4, "a\0b", 4);
  g_assert_cmpuint (graft_node_get_n_users (x), ==, 2);

  /* Edits keep copies of the arguments they change. */
  n3 = call2 (graph, "torch.neg", n2, NULL, NULL);
  output (graph, n3);
  graft_graph_begin_edit (graph);
  graft_arg_init_seq (&new_args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_str (&new_args.items[0], "new", -1);
  graft_graph_set_args (graph, n1, &new_args, NULL);
  g_assert_cmpint (new_args.kind, ==, GRAFT_ARG_NONE);
  graft_arg_init_str (&value, "v", -1);
  graft_graph_replace_all_uses_with_value (graph, n2, &value);
  graft_graph_erase_node (graph, n2);
  edit = graft_graph_end_edit (graph);
  g_assert_cmpstr (graft_node_get_args (n1)->items[0].s, ==, "new");
  g_assert_cmpstr (graft_node_get_args (n3)->items[0].s, ==, "v");
  g_assert_cmpuint (graft_node_get_n_users (x), ==, 0);
  graft_arg_clear (&value);
  graft_edit_undo (edit);
  g_assert_true (graft_arg_equal (graft_node_get_args (n1), &expected_args));
  g_assert_true (graft_arg_equal (graft_node_get_kwargs (n1), &expected_kwargs));
  g_assert_true (graft_arg_equal (graft_node_get_args (n2), &expected_args));
  g_assert_true (graft_node_get_args (n3)->items[0].node == n2);
  g_assert_cmpuint (graft_node_get_n_users (x), ==, 2);
  graft_edit_redo (edit);
  g_assert_cmpstr (graft_node_get_args (n1)->items[0].s, ==, "new");
  g_assert_cmpuint (graft_node_get_args (n1)->items[0].n, ==, 3);
  graft_edit_undo (edit);
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);

  /* The edit outlives the graph: it forgets the arguments it kept. */
  graft_graph_free (graph);
  graft_edit_free (edit);
  graft_arg_clear (&expected_args);
  graft_arg_clear (&expected_kwargs);
}

/* `{name: value}` with @value a node, or an int if @value is NULL. */
static void
one_kwarg (GraftArg   *kwargs,
           const char *name,
           GraftNode  *value)
{
  graft_arg_init_dict (kwargs, 1);
  graft_arg_init_str (&kwargs->items[0], name, -1);
  if (value != NULL)
    graft_arg_init_node (&kwargs->items[1], value);
  else
    graft_arg_init_int (&kwargs->items[1], 2);
}

/* Keyword arguments, which a node keeps after its args' items: set with
 * and apart from the args, dropped, used as inputs, rewired by replacing
 * uses (undone and redone), on a node without args, and erased. */
static void
test_kwargs_storage (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_2_6));
  GraftNode *x = placeholder (graph, "x");
  GraftNode *y = placeholder (graph, "y");
  GraftNode *n, *bare;
  GraftArg   args, kwargs;
  g_autoptr (GraftEdit) edit = NULL;

  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&args.items[0], x);
  one_kwarg (&kwargs, "other", y);
  n = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "f", &args, &kwargs, NULL, NULL);
  output (graph, n);
  g_assert_cmpuint (graft_node_get_args (n)->n, ==, 1);
  g_assert_cmpuint (graft_node_get_kwargs (n)->n, ==, 1);
  g_assert_true (graft_node_get_kwargs (n)->items[1].node == y);
  assert_users (y, "f");

  /* New args keep the keyword arguments. */
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 2);
  graft_arg_init_node (&args.items[0], x);
  graft_arg_init_int (&args.items[1], 7);
  graft_graph_set_args (graph, n, &args, NULL);
  g_assert_cmpuint (graft_node_get_args (n)->n, ==, 2);
  g_assert_cmpint (graft_node_get_args (n)->items[1].i, ==, 7);
  g_assert_cmpstr (graft_node_get_kwargs (n)->items[0].s, ==, "other");
  g_assert_true (graft_node_get_kwargs (n)->items[1].node == y);
  assert_users (y, "f");
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);

  /* Keyword arguments alone: none, then one again. */
  graft_arg_init_dict (&kwargs, 0);
  graft_graph_set_args (graph, n, NULL, &kwargs);
  g_assert_cmpuint (graft_node_get_kwargs (n)->n, ==, 0);
  g_assert_cmpuint (graft_node_get_args (n)->n, ==, 2);
  assert_users (y, "");

  graft_graph_begin_edit (graph);
  one_kwarg (&kwargs, "other", y);
  graft_graph_set_args (graph, n, NULL, &kwargs);
  graft_graph_replace_all_uses (graph, y, x);
  edit = graft_graph_end_edit (graph);
  g_assert_true (graft_node_get_kwargs (n)->items[1].node == x);
  g_assert_cmpint (graft_node_get_args (n)->items[1].i, ==, 7);
  assert_users (x, "f");
  assert_users (y, "");
  graft_edit_undo (edit);
  g_assert_cmpuint (graft_node_get_kwargs (n)->n, ==, 0);
  g_assert_cmpuint (graft_node_get_args (n)->n, ==, 2);
  assert_users (y, "");
  assert_users (x, "f");
  graft_edit_redo (edit);
  g_assert_true (graft_node_get_kwargs (n)->items[1].node == x);
  assert_users (x, "f");
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);

  /* No args, a keyword argument: erased with it. */
  one_kwarg (&kwargs, "scale", NULL);
  bare = graft_graph_create_node_copy (graph, GRAFT_OP_CALL_FUNCTION, "g", NULL, &kwargs, NULL,
                                       NULL);
  graft_arg_clear (&kwargs);
  g_assert_cmpuint (graft_node_get_args (bare)->n, ==, 0);
  g_assert_cmpint (graft_node_get_kwargs (bare)->items[1].i, ==, 2);
  one_kwarg (&kwargs, "a", bare);
  graft_graph_set_args (graph, n, NULL, &kwargs);
  assert_users (bare, "f");
  graft_graph_replace_all_uses (graph, bare, y);
  graft_graph_erase_node (graph, bare);
  g_assert_true (graft_node_get_kwargs (n)->items[1].node == y);
  assert_users (y, "f");
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);
}

/* Edits long enough to fill several chunks of operations, of every
 * kind, give back the arguments they kept when freed: recording the same
 * changes again reuses them rather than growing the pool, and undo and
 * redo still replay them in order. */
static void
test_long_edit_frees (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get_default ());
  GraftNode *x = placeholder (graph, "x");
  GraftNode *nodes[300];
  gsize      sizes[3];

  for (guint i = 0; i < G_N_ELEMENTS (nodes); i++)
    {
      GraftArg args;

      graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
      graft_arg_init_node (&args.items[0], x);
      nodes[i] = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "torch.neg", &args, NULL,
                                          NULL, NULL);
    }
  for (guint round = 0; round < G_N_ELEMENTS (sizes); round++)
    {
      GraftEdit *edit;

      graft_graph_begin_edit (graph);
      for (guint i = 0; i < G_N_ELEMENTS (nodes); i++)
        {
          GraftArg args, kwargs;

          graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 2);
          graft_arg_init_node (&args.items[0], x);
          graft_arg_init_int (&args.items[1], (gint64) (i + round));
          graft_arg_init_dict (&kwargs, 1);
          graft_arg_init_str (&kwargs.items[0], "alpha", -1);
          graft_arg_init_int (&kwargs.items[1], (gint64) i);
          graft_graph_set_args (graph, nodes[i], &args, &kwargs);
          if (i % 50 == 0)
            graft_graph_move_before (graph, nodes[i], NULL);
        }
      edit = graft_graph_end_edit (graph);
      g_assert_cmpuint (graft_edit_get_n_operations (edit), >, 300);
      graft_edit_undo (edit);
      g_assert_cmpuint (graft_arg_count_items (graft_node_get_args (nodes[7])), ==, 1);
      g_assert_true (graft_node_get_next (nodes[0]) == nodes[1]);
      graft_edit_redo (edit);
      g_assert_cmpint (graft_node_get_args (nodes[7])->items[1].i, ==, (gint64) (7 + round));
      g_assert_null (graft_node_get_next (nodes[250]));
      graft_edit_undo (edit);
      graft_edit_free (edit);
      sizes[round] = graft_graph_get_memory_size (graph);
    }
  g_assert_cmpuint (sizes[2], ==, sizes[1]);
}

static void
test_memory_size (void)
{
  const guint n = 10000;
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode *x = placeholder (graph, "x");
  GraftNode *prev = x;
  gsize      size, strings;

  /* A typical node: `add_N = prev + x` with a keyword. */
  for (guint i = 0; i < n; i++)
    {
      GraftArg args, kwargs;

      graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 2);
      graft_arg_init_node (&args.items[0], prev);
      graft_arg_init_node (&args.items[1], x);
      graft_arg_init_dict (&kwargs, 1);
      graft_arg_init_str (&kwargs.items[0], "alpha", -1);
      graft_arg_init_float (&kwargs.items[1], 0.5);
      prev = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "torch.add", &args, &kwargs,
                                      NULL, NULL);
    }
  output (graph, prev);
  size = graft_graph_get_memory_size (graph);
  strings = graft_graph_get_string_memory_size (graph);
  g_test_message ("%" G_GSIZE_FORMAT " bytes for %u nodes, %" G_GSIZE_FORMAT " of text", size,
                  n + 2, strings);
  g_assert_cmpuint (size / (n + 2), <, 1024);
  g_assert_cmpuint (size, >, n * sizeof (GraftArg) * 4);
  /* The names' text (`add_9999` after an 8-byte header, in blocks of up
   * to 64 KiB), and `alpha` once. */
  g_assert_cmpuint (strings, >, n * 8);
  g_assert_cmpuint (strings, <, n * 18 + (64u << 10) + 4096);
}

/* Nodes numbered in their scratch slot are found at their position; a
 * node of another graph that carries the same mark, and a node added since,
 * are not; slot 1 (a pattern's positions) is left as it was. */
static void
test_index_nodes (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  g_autoptr (GraftGraph) other = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode *nodes[3];
  GraftNode *foreign[3];
  GraftNode *late;
  guint32    mark;
  guint32    other_mark;
  guint      index = G_MAXUINT;

  for (guint k = 0; k < 3; k++)
    {
      g_autofree char *name = g_strdup_printf ("x%u", k);

      placeholder (graph, name);
      placeholder (other, name);
    }
  placeholder (other, "x3");
  mark = _graft_graph_index_nodes (graph, nodes);
  other_mark = _graft_graph_index_nodes (other, NULL);
  g_assert_cmpuint (mark, ==, other_mark);
  for (guint k = 0; k < 3; k++)
    {
      g_assert_true (_graft_node_get_index (nodes[k], mark, nodes, 3, &index));
      g_assert_cmpuint (index, ==, k);
    }
  foreign[0] = graft_graph_get_first (other);
  foreign[1] = graft_node_get_next (foreign[0]);
  foreign[2] = graft_node_get_next (graft_node_get_next (foreign[1]));
  for (guint k = 0; k < 3; k++)
    g_assert_false (_graft_node_get_index (foreign[k], mark, nodes, 3, &index));
  late = placeholder (graph, "late");
  g_assert_false (_graft_node_get_index (late, mark, nodes, 3, &index));
}

/* Scratch marks live apart from the nodes, by page, from the first
 * holder on: they count in the graph's memory, and the last holder's
 * release keeps them for the next (which then gives no page a new array:
 * at a million nodes that was a long turn of fresh pages), while no mark
 * handed out after is on any node.  A mark set while nothing holds stays;
 * a node made in an erased node's place carries no mark of it. */
static void
test_marks_released (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode *nodes[300];
  GraftNode *erased;
  GraftNode *made;
  gsize      bare;
  gsize      held;
  guint32    mark;
  guint32    other;
  guint32    base;

  for (guint k = 0; k < G_N_ELEMENTS (nodes); k++)
    {
      g_autofree char *name = g_strdup_printf ("x%u", k);

      nodes[k] = placeholder (graph, name);
    }
  bare = graft_graph_get_memory_size (graph);
  _graft_graph_hold_marks (graph);
  mark = _graft_graph_new_mark (graph);
  for (guint k = 0; k < G_N_ELEMENTS (nodes); k += 2)
    _graft_node_set_mark (nodes[k], k % 4 == 0 ? 0 : 1, mark);
  g_assert_cmpuint (graft_graph_get_memory_size (graph), >, bare);
  /* A second holder: released first, the marks stay. */
  _graft_graph_hold_marks (graph);
  other = _graft_graph_new_mark (graph);
  _graft_node_set_mark (nodes[1], 1, other);
  _graft_graph_release_marks (graph);
  for (guint k = 0; k < G_N_ELEMENTS (nodes); k++)
    {
      g_assert_cmpint (_graft_node_has_mark (nodes[k], 0, mark), ==, k % 4 == 0);
      g_assert_cmpint (_graft_node_has_mark (nodes[k], 1, mark), ==, k % 4 == 2);
    }
  g_assert_true (_graft_node_has_mark (nodes[1], 1, other));
  _graft_graph_release_marks (graph);
  held = graft_graph_get_memory_size (graph);
  g_assert_cmpuint (held, >, bare);
  /* Held again: the arrays kept, no new one; a fresh mark on no node. */
  _graft_graph_hold_marks (graph);
  g_assert_cmpuint (graft_graph_get_memory_size (graph), ==, held);
  other = _graft_graph_new_mark (graph);
  base = _graft_graph_reserve_marks (graph, 10);
  for (guint k = 0; k < G_N_ELEMENTS (nodes); k++)
    for (guint slot = 0; slot < 2; slot++)
      {
        g_assert_false (_graft_node_has_mark (nodes[k], slot, other));
        g_assert_cmpuint (_graft_node_get_mark (nodes[k], slot) - base, >=, 10);
      }
  _graft_graph_release_marks (graph);
  g_assert_cmpuint (graft_graph_get_memory_size (graph), ==, held);

  /* Unheld, it stays past a holder's release. */
  _graft_node_set_mark (nodes[7], 0, mark);
  g_assert_true (_graft_node_has_mark (nodes[7], 0, mark));
  _graft_graph_hold_marks (graph);
  _graft_graph_release_marks (graph);
  g_assert_true (_graft_node_has_mark (nodes[7], 0, mark));

  /* A node made where an erased one was carries none of its marks. */
  _graft_graph_hold_marks (graph);
  mark = _graft_graph_new_mark (graph);
  erased = nodes[G_N_ELEMENTS (nodes) - 1];
  _graft_node_set_mark (erased, 0, mark);
  _graft_node_set_mark (erased, 1, mark);
  graft_graph_erase_node (graph, erased);
  made = placeholder (graph, "y");
  g_assert_false (_graft_node_has_mark (made, 0, mark));
  g_assert_false (_graft_node_has_mark (made, 1, mark));
  _graft_graph_release_marks (graph);
}

/* A span's length is kept in 16 bits of the node: one of 65,535 bytes or
 * more (or one that ends before it starts) keeps its end apart.  Each
 * reads back as set, a long span made short again and a node with a long
 * span freed give their entry back (the memory estimate returns to what
 * it was), and an erased node kept for undo keeps its long span. */
static void
test_long_spans (void)
{
  static const guint32 spans[][2] = {
    { 0, 0 },
    { 5, 65534 },
    { 7, 65541 },
    { 7, 65542 },
    { 1, 65537 },
    { 0, 65535 },
    { 100, 99 },
    { 0, G_MAXUINT32 },
    { G_MAXUINT32, 0 },
    { 4096, 4096 + 300 },
    { 1u << 31, (1u << 31) + 65534 },
  };
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode *x = placeholder (graph, "x");
  GraftNode *a = call2 (graph, "torch.relu", x, NULL, NULL);
  GraftNode *b;
  guint32    start, end;
  gsize      size;
  g_autoptr (GraftEdit) edit = NULL;

  size = graft_graph_get_memory_size (graph);
  for (guint i = 0; i < G_N_ELEMENTS (spans); i++)
    {
      graft_node_set_span (x, spans[i][0], spans[i][1]);
      /* The other node's span, set the other way round, is its own. */
      graft_node_set_span (a, spans[i][1], spans[i][0]);
      graft_node_get_span (x, &start, &end);
      g_assert_cmpuint (start, ==, spans[i][0]);
      g_assert_cmpuint (end, ==, spans[i][1]);
      graft_node_get_span (a, &start, &end);
      g_assert_cmpuint (start, ==, spans[i][1]);
      g_assert_cmpuint (end, ==, spans[i][0]);
    }
  graft_node_set_span (x, 3, 4);
  graft_node_set_span (a, 3, 70000);
  g_assert_cmpuint (graft_graph_get_memory_size (graph), >, size);
  graft_node_set_span (a, 3, 5);
  g_assert_cmpuint (graft_graph_get_memory_size (graph), ==, size);

  /* Erased while an edit records, the node keeps its long span for undo. */
  graft_node_set_span (a, 10, 200000);
  graft_graph_begin_edit (graph);
  graft_graph_erase_node (graph, a);
  edit = graft_graph_end_edit (graph);
  graft_edit_undo (edit);
  graft_node_get_span (a, &start, &end);
  g_assert_cmpuint (start, ==, 10);
  g_assert_cmpuint (end, ==, 200000);
  g_clear_pointer (&edit, graft_edit_free);

  /* Erased for good, its entry goes; the node that takes its memory
   * starts with an empty span. */
  size = graft_graph_get_memory_size (graph);
  graft_graph_erase_node (graph, a);
  g_assert_cmpuint (graft_graph_get_memory_size (graph), <, size);
  b = call2 (graph, "torch.tanh", x, NULL, NULL);
  graft_node_get_span (b, &start, &end);
  g_assert_cmpuint (start, ==, 0);
  g_assert_cmpuint (end, ==, 0);
  graft_node_set_span (b, 0, 1u << 20);
  graft_node_set_span (x, 1, 1u << 24);
  /* The graph frees the rest (the leak check sees to it). */
}

static void
assert_keys_in_order (GraftGraph *graph)
{
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      GraftNode *next = graft_node_get_next (node);

      if (next != NULL)
        {
          g_assert_cmpint (graft_node_compare_order (node, next), <, 0);
          g_assert_cmpint (graft_node_compare_order (next, node), >, 0);
        }
    }
  g_assert_true (_graft_graph_is_topological (graph));
}

/* Order keys have 48 bits.  A graph that has appended about 2^31 nodes in
 * its life has keys near the top (set here directly): appending past it
 * renumbers the list, and insertions between two nodes near the top
 * relabel within it; the keys keep the list's order either way. */
static void
test_order_limit (void)
{
  const gint64 limit = (gint64) 1 << (GRAFT_NODE_ORDER_BITS - 1);
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode *x = placeholder (graph, "x");
  GraftNode *a = call2 (graph, "torch.relu", x, NULL, NULL);
  GraftNode *b = call2 (graph, "torch.relu", a, NULL, NULL);
  GraftNode *prev;

  /* Appending right under the limit, then past it. */
  a->order = (guint64) limit - 3;
  b->order = (guint64) limit - 2;
  prev = b;
  for (guint i = 0; i < 5; i++)
    prev = call2 (graph, "torch.neg", prev, NULL, NULL);
  assert_keys_in_order (graph);
  for (GraftNode *node = x; node != NULL; node = graft_node_get_next (node))
    g_assert_cmpint ((gint64) node->order, <, limit);

  /* Inserting again and again before the last node, whose key is at the
   * top: every relabelling stays below the limit. */
  graft_graph_get_last (graph)->order = (guint64) limit - 1;
  for (guint i = 0; i < 3000; i++)
    call2 (graph, "torch.tanh", x, NULL, graft_graph_get_last (graph));
  assert_keys_in_order (graph);
  for (GraftNode *node = x; node != NULL; node = graft_node_get_next (node))
    g_assert_cmpint ((gint64) node->order, <, limit);
}

/* The count of users lives in the users array: past 2^8 and 2^16, down
 * to one user and none (the array stays), and a single user kept in the
 * node, whose count is whether it has one. */
static void
test_users_past_16_bits (void)
{
  const guint n = 70000;
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode  *x = placeholder (graph, "x");
  GraftNode **users = g_new (GraftNode *, n);
  GraftNode  *y;

  for (guint i = 0; i < n; i++)
    {
      users[i] = call2 (graph, "torch.neg", x, NULL, NULL);
      if (i == 255 || i == 256 || i == 65535 || i == 65536)
        g_assert_cmpuint (graft_node_get_n_users (x), ==, i + 1);
    }
  g_assert_cmpuint (graft_node_get_n_users (x), ==, n);
  g_assert_true (graft_node_get_user (x, n - 1) == users[n - 1]);
  /* Erase all but one, from the middle out. */
  for (guint i = n / 2; i < n; i++)
    graft_graph_erase_node (graph, users[i]);
  g_assert_cmpuint (graft_node_get_n_users (x), ==, n / 2);
  for (guint i = 1; i < n / 2; i++)
    graft_graph_erase_node (graph, users[i]);
  g_assert_cmpuint (graft_node_get_n_users (x), ==, 1);
  g_assert_true (graft_node_get_user (x, 0) == users[0]);
  graft_graph_erase_node (graph, users[0]);
  g_assert_cmpuint (graft_node_get_n_users (x), ==, 0);
  /* A node whose array went empty can be erased, and a new one used. */
  graft_graph_erase_node (graph, x);
  x = placeholder (graph, "x2");
  y = call2 (graph, "torch.neg", x, NULL, NULL);
  g_assert_cmpuint (graft_node_get_n_users (x), ==, 1);
  g_assert_cmpuint (graft_node_get_n_users (y), ==, 0);
  users[0] = call2 (graph, "operator.add", x, y, NULL);
  g_assert_cmpuint (graft_node_get_n_users (x), ==, 2);
  g_assert_cmpuint (graft_node_get_n_users (y), ==, 1);
  g_assert_true (graft_node_get_user (y, 0) == users[0]);
  graft_graph_erase_node (graph, users[0]);
  g_assert_cmpuint (graft_node_get_n_users (y), ==, 0);
  g_assert_cmpuint (graft_node_get_n_users (x), ==, 1);
  output (graph, y);
  assert_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE);
  g_free (users);
}

static void
counted_name (char *name,
              gsize size,
              guint i)
{
  if (i == 0)
    g_strlcpy (name, "neg", size);
  else
    g_snprintf (name, size, "neg_%u", i);
}

/* The names' set grows at 7/8 load.  Past 2^17 counted names (`neg_N`),
 * with every third node erased (its name stays taken) and the erasures
 * undone, every name finds its node, and new nodes count on past the
 * last one taken. */
static void
test_many_counted_names (void)
{
  const guint n = 120000;
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_2_6));
  GraftNode  *x = placeholder (graph, "x");
  GraftNode **nodes = g_new (GraftNode *, n);
  GraftNode  *node;
  g_autoptr (GraftEdit) edit = NULL;
  char name[32];

  for (guint i = 0; i < n; i++)
    nodes[i] = call2 (graph, "torch.neg", x, NULL, NULL);
  graft_graph_begin_edit (graph);
  for (guint i = 0; i < n; i += 3)
    graft_graph_erase_node (graph, nodes[i]);
  edit = graft_graph_end_edit (graph);
  for (guint i = 0; i < n; i++)
    {
      counted_name (name, sizeof name, i);
      if (i % 3 == 0)
        g_assert_null (graft_graph_find_node (graph, name));
      else
        g_assert_true (graft_graph_find_node (graph, name) == nodes[i]);
    }
  /* The erased nodes' names stay taken. */
  node = call2 (graph, "torch.neg", x, NULL, NULL);
  counted_name (name, sizeof name, n);
  g_assert_cmpstr (graft_node_get_name (node), ==, name);
  graft_graph_erase_node (graph, node);
  graft_edit_undo (edit);
  for (guint i = 0; i < n; i++)
    {
      counted_name (name, sizeof name, i);
      g_assert_true (graft_graph_find_node (graph, name) == nodes[i]);
      g_assert_cmpstr (graft_node_get_name (nodes[i]), ==, name);
    }
  node = call2 (graph, "torch.neg", x, NULL, NULL);
  counted_name (name, sizeof name, n + 1);
  g_assert_cmpstr (graft_node_get_name (node), ==, name);
  g_assert_null (graft_graph_find_node (graph, "neg_0"));
  g_free (nodes);
}

/* `target(a, dim=<value>)`, the keyword as given (an int, or with
 * @node_value a node). */
static GraftNode *
call_dim (GraftGraph *graph,
          GraftNode  *a,
          gint64      dim,
          GraftNode  *node_value)
{
  GraftArg args, kwargs;

  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&args.items[0], a);
  graft_arg_init_dict (&kwargs, 1);
  graft_arg_init_str (&kwargs.items[0], "dim", -1);
  if (node_value != NULL)
    graft_arg_init_node (&kwargs.items[1], node_value);
  else
    graft_arg_init_int (&kwargs.items[1], dim);
  return graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "torch.sum", &args, &kwargs, NULL,
                                  NULL);
}

static void
assert_dim (GraftNode *node,
            gint64     dim)
{
  const GraftArg *kwargs = graft_node_get_kwargs (node);

  g_assert_cmpint (kwargs->kind, ==, GRAFT_ARG_DICT);
  g_assert_cmpuint (kwargs->n, ==, 1);
  g_assert_cmpint (kwargs->items[0].kind, ==, GRAFT_ARG_STR);
  g_assert_cmpstr (kwargs->items[0].s, ==, "dim");
  g_assert_cmpint (kwargs->items[1].kind, ==, GRAFT_ARG_INT);
  g_assert_cmpint (kwargs->items[1].i, ==, dim);
}

/* Keyword dicts of plain values are shared between nodes: the same dict
 * once, others (another value, a node value) apart.  Releasing a node's
 * arguments (erasing it for good, an edit freed that kept them, new
 * arguments) leaves the shared items as they are for the other nodes, and
 * a thousand `dim=1` cost less than a thousand distinct dims. */
static void
test_shared_kwargs (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  g_autoptr (GraftGraph) other = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode *x = placeholder (graph, "x");
  GraftNode *y = placeholder (graph, "y");
  GraftNode *a = call_dim (graph, x, 1, NULL);
  GraftNode *b = call_dim (graph, x, 1, NULL);
  GraftNode *c = call_dim (graph, x, 1, NULL);
  GraftNode *d = call_dim (graph, x, 2, NULL);
  GraftNode *e = call_dim (graph, x, 0, y);
  GraftEdit *edit;
  GraftArg   kwargs;
  gsize      size_same, size_distinct;

  g_assert_true (graft_node_get_kwargs (a)->items == graft_node_get_kwargs (b)->items);
  g_assert_true (graft_node_get_kwargs (a)->items == graft_node_get_kwargs (c)->items);
  g_assert_false (graft_node_get_kwargs (a)->items == graft_node_get_kwargs (d)->items);
  g_assert_false (graft_node_get_kwargs (a)->items == graft_node_get_kwargs (e)->items);
  g_assert_cmpuint (graft_node_get_n_users (y), ==, 1);

  /* An edit that erased a node and changed another's keywords, freed. */
  graft_graph_begin_edit (graph);
  graft_graph_erase_node (graph, a);
  graft_arg_init_dict (&kwargs, 1);
  graft_arg_init_str (&kwargs.items[0], "dim", -1);
  graft_arg_init_int (&kwargs.items[1], 3);
  graft_graph_set_args (graph, b, NULL, &kwargs);
  edit = graft_graph_end_edit (graph);
  assert_dim (b, 3);
  assert_dim (c, 1);
  graft_edit_undo (edit);
  assert_dim (a, 1);
  assert_dim (b, 1);
  graft_edit_redo (edit);
  graft_edit_free (edit);
  assert_dim (b, 3);
  assert_dim (c, 1);
  assert_dim (d, 2);

  /* Erased for good, and a new node with the same dict. */
  graft_graph_erase_node (graph, c);
  assert_dim (call_dim (graph, x, 1, NULL), 1);
  assert_dim (d, 2);
  graft_graph_replace_all_uses (graph, y, x);
  g_assert_true (graft_node_get_kwargs (e)->items[1].node == x);
  assert_dim (d, 2);

  /* The saving: two graphs alike but for the dicts' values. */
  x = placeholder (other, "x");
  for (guint i = 0; i < 2000; i++)
    call_dim (other, x, 1, NULL);
  size_same = graft_graph_get_memory_size (other);
  g_clear_pointer (&other, graft_graph_free);
  other = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  x = placeholder (other, "x");
  for (guint i = 0; i < 2000; i++)
    call_dim (other, x, 1000 + i, NULL);
  size_distinct = graft_graph_get_memory_size (other);
  g_assert_cmpuint (size_same + 2000 * sizeof (GraftArg), <=, size_distinct);
}

/* `operator.getitem(a, (slice(None, <stop>, None), <value>))`. */
static GraftNode *
getitem_slices (GraftGraph *graph,
                GraftNode  *a,
                gint64      stop,
                double      value)
{
  GraftArg args, *index;

  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 2);
  graft_arg_init_node (&args.items[0], a);
  graft_arg_init_seq (&args.items[1], GRAFT_ARG_TUPLE, 2);
  index = &args.items[1];
  graft_arg_init_slice (&index->items[0]);
  graft_arg_init_none (&index->items[0].items[0]);
  graft_arg_init_int (&index->items[0].items[1], stop);
  graft_arg_init_none (&index->items[0].items[2]);
  graft_arg_init_float (&index->items[1], value);
  return graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "operator.getitem", &args, NULL,
                                  NULL, NULL);
}

static char *
arg_text (const GraftArg *arg)
{
  return graft_arg_repr (arg, GRAFT_REPR_CODE);
}

/* Argument containers of plain values (an index tuple of slices) are
 * shared too, nested ones included; 0.0 and -0.0 are not the same value;
 * a container holding a node is not shared.  Erasing a sharer and
 * replacing uses leave the others' as they were. */
static void
test_shared_args (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode       *x = placeholder (graph, "x");
  GraftNode       *y = placeholder (graph, "y");
  GraftNode       *a = getitem_slices (graph, x, 16, 0.0);
  GraftNode       *b = getitem_slices (graph, y, 16, 0.0);
  GraftNode       *c = getitem_slices (graph, x, 16, -0.0);
  GraftNode       *d = getitem_slices (graph, x, 8, 0.0);
  GraftNode       *e = call2 (graph, "torch.cat", x, y, NULL);
  g_autofree char *text_b = NULL, *text_c = NULL, *text_d = NULL;
  GraftEdit       *edit;

  g_assert_true (graft_node_get_args (a)->items[1].items ==
                 graft_node_get_args (b)->items[1].items);
  g_assert_false (graft_node_get_args (a)->items[1].items ==
                  graft_node_get_args (c)->items[1].items);
  g_assert_false (graft_node_get_args (a)->items[1].items ==
                  graft_node_get_args (d)->items[1].items);
  text_b = arg_text (graft_node_get_args (b));
  text_c = arg_text (graft_node_get_args (c));
  text_d = arg_text (graft_node_get_args (d));
  g_assert_cmpstr (text_b, ==, "(y, (slice(None, 16, None), 0.0))");
  g_assert_cmpstr (text_c, ==, "(x, (slice(None, 16, None), -0.0))");
  g_assert_cmpstr (text_d, ==, "(x, (slice(None, 8, None), 0.0))");
  g_assert_cmpuint (graft_node_get_n_users (x), ==, 4);

  graft_graph_begin_edit (graph);
  graft_graph_erase_node (graph, a);
  graft_graph_replace_all_uses (graph, y, x);
  edit = graft_graph_end_edit (graph);
  g_clear_pointer (&text_b, g_free);
  text_b = arg_text (graft_node_get_args (b));
  g_assert_cmpstr (text_b, ==, "(x, (slice(None, 16, None), 0.0))");
  graft_edit_undo (edit);
  g_clear_pointer (&text_b, g_free);
  text_b = arg_text (graft_node_get_args (b));
  g_assert_cmpstr (text_b, ==, "(y, (slice(None, 16, None), 0.0))");
  graft_edit_free (edit);
  graft_graph_erase_node (graph, a);
  g_clear_pointer (&text_b, g_free);
  text_b = arg_text (graft_node_get_args (b));
  g_assert_cmpstr (text_b, ==, "(y, (slice(None, 16, None), 0.0))");
  g_assert_true (graft_node_get_args (e)->items[1].node == y);
}

/* `f(x, <index>, **<kwargs>)` made by graft_graph_create_node_copy() from
 * the caller's scratch: an index tuple `(slice(None, stop, None), 1)`
 * and keywords `k0=0, k1=1, k2=2, <key>=<value>` (the value a node if
 * @node_value), the last key's text in @key. */
static GraftNode *
call_copied (GraftGraph *graph,
             GraftNode  *x,
             gint64      stop,
             const char *key,
             gint64      value,
             GraftNode  *node_value)
{
  static const char *keys[] = { "k0", "k1", "k2" };
  GraftArg           args, a[2], index[2], slice_items[3], kwargs, k[8];

  slice_items[0] = (GraftArg){ .kind = GRAFT_ARG_NONE };
  slice_items[1] = (GraftArg){ .kind = GRAFT_ARG_INT, .i = stop };
  slice_items[2] = (GraftArg){ .kind = GRAFT_ARG_NONE };
  index[0] = (GraftArg){ .kind = GRAFT_ARG_SLICE, .n = 3, .items = slice_items };
  index[1] = (GraftArg){ .kind = GRAFT_ARG_INT, .i = 1 };
  a[0] = (GraftArg){ .kind = GRAFT_ARG_NODE, .node = x };
  a[1] = (GraftArg){ .kind = GRAFT_ARG_TUPLE, .n = 2, .items = index };
  args = (GraftArg){ .kind = GRAFT_ARG_TUPLE, .n = 2, .items = a };
  for (guint i = 0; i < 3; i++)
    {
      k[2 * i] = (GraftArg){ .kind = GRAFT_ARG_STR, .n = 2, .s = (char *) keys[i] };
      k[2 * i + 1] = (GraftArg){ .kind = GRAFT_ARG_INT, .i = i };
    }
  k[6] = (GraftArg){ .kind = GRAFT_ARG_STR, .n = strlen (key), .s = (char *) key };
  if (node_value != NULL)
    k[7] = (GraftArg){ .kind = GRAFT_ARG_NODE, .node = node_value };
  else
    k[7] = (GraftArg){ .kind = GRAFT_ARG_INT, .i = value };
  kwargs = (GraftArg){ .kind = GRAFT_ARG_DICT, .n = 4, .items = k };
  return graft_graph_create_node_copy (graph, GRAFT_OP_CALL_FUNCTION, "f", &args, &kwargs, NULL,
                                       NULL);
}

/* A node's arguments and keywords as code: `(x, (...)) {k0: 0, ...}`. */
static char *
call_text (GraftNode *node)
{
  g_autofree char *args = arg_text (graft_node_get_args (node));
  g_autofree char *kwargs = arg_text (graft_node_get_kwargs (node));

  return g_strdup_printf ("%s %s", args, kwargs);
}

/* Copied containers of plain values are shared by their contents, found
 * through the recently shared ones by their first items' words: the same
 * caller's text changed in place, a difference past the fourth item or
 * deep in a nested container, or a node in place of a number, each gets
 * its own copy (and a node value its user), and the same contents again
 * the shared one. */
static void
test_shared_copied (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode  *x = placeholder (graph, "x");
  GraftNode  *y = placeholder (graph, "y");
  char        key[8] = "dim";
  GraftNode  *n[7];
  const char *expected[] = {
    "(x, (slice(None, 16, None), 1)) {'k0': 0, 'k1': 1, 'k2': 2, 'dim': 1}",
    "(x, (slice(None, 16, None), 1)) {'k0': 0, 'k1': 1, 'k2': 2, 'dix': 1}",
    "(x, (slice(None, 16, None), 1)) {'k0': 0, 'k1': 1, 'k2': 2, 'dix': 2}",
    "(x, (slice(None, 8, None), 1)) {'k0': 0, 'k1': 1, 'k2': 2, 'dix': 2}",
    "(x, (slice(None, 8, None), 1)) {'k0': 0, 'k1': 1, 'k2': 2, 'dix': y}",
    "(x, (slice(None, 16, None), 1)) {'k0': 0, 'k1': 1, 'k2': 2, 'dim': 1}",
    "(x, (slice(None, 8, None), 1)) {'k0': 0, 'k1': 1, 'k2': 2, 'dix': 2}",
  };

  n[0] = call_copied (graph, x, 16, key, 1, NULL);
  key[2] = 'x';
  n[1] = call_copied (graph, x, 16, key, 1, NULL);
  n[2] = call_copied (graph, x, 16, key, 2, NULL);
  n[3] = call_copied (graph, x, 8, key, 2, NULL);
  n[4] = call_copied (graph, x, 8, key, 0, y);
  key[2] = 'm';
  n[5] = call_copied (graph, x, 16, key, 1, NULL);
  key[2] = 'x';
  n[6] = call_copied (graph, x, 8, key, 2, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (n); i++)
    {
      g_autofree char *text = call_text (n[i]);

      g_assert_cmpstr (text, ==, expected[i]);
    }
  g_assert_cmpuint (graft_node_get_n_users (y), ==, 1);
  g_assert_true (graft_node_get_user (y, 0) == n[4]);
  /* Equal contents share, whatever came between. */
  g_assert_true (graft_node_get_kwargs (n[0])->items == graft_node_get_kwargs (n[5])->items);
  g_assert_true (graft_node_get_kwargs (n[3])->items == graft_node_get_kwargs (n[6])->items);
  g_assert_true (graft_node_get_args (n[0])->items[1].items ==
                 graft_node_get_args (n[5])->items[1].items);
  g_assert_false (graft_node_get_args (n[0])->items[1].items ==
                  graft_node_get_args (n[3])->items[1].items);
  g_assert_false (graft_node_get_kwargs (n[0])->items == graft_node_get_kwargs (n[1])->items);
  g_assert_false (graft_node_get_kwargs (n[1])->items == graft_node_get_kwargs (n[2])->items);
}

/* x -> a = relu(x) -> b = tanh(a), appended: in topological order, which
 * the graph knows without a walk (and keeps knowing once checked). */
static GraftGraph *
ordered_chain (GraftNode **out_x,
               GraftNode **out_a,
               GraftNode **out_b)
{
  GraftGraph *graph = graft_graph_new (graft_dialect_get_default ());

  *out_x = placeholder (graph, "x");
  *out_a = call2 (graph, "torch.relu", *out_x, NULL, NULL);
  *out_b = call2 (graph, "torch.tanh", *out_a, NULL, NULL);
  g_assert_true (_graft_graph_is_topological (graph));
  g_assert_true (_graft_graph_is_topological (graph));
  return graph;
}

/* Every change that may break the order makes the graph check it again. */
static void
test_topological_known (void)
{
  GraftNode *x, *a, *b, *c;
  GraftArg   args;

  /* Moved after its user. */
  {
    g_autoptr (GraftGraph) graph = ordered_chain (&x, &a, &b);

    graft_graph_move_before (graph, a, NULL);
    g_assert_false (_graft_graph_is_topological (graph));
  }
  /* Inserted before what it reads. */
  {
    g_autoptr (GraftGraph) graph = ordered_chain (&x, &a, &b);

    call2 (graph, "torch.neg", b, NULL, a);
    g_assert_false (_graft_graph_is_topological (graph));
  }
  /* Arguments set to a later node. */
  {
    g_autoptr (GraftGraph) graph = ordered_chain (&x, &a, &b);

    graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
    graft_arg_init_node (&args.items[0], b);
    graft_graph_set_args (graph, a, &args, NULL);
    g_assert_false (_graft_graph_is_topological (graph));
  }
  /* A use replaced by a later node; then undone, and redone (the edit
   * swaps arguments or replaces the input again). */
  {
    g_autoptr (GraftGraph) graph = ordered_chain (&x, &a, &b);
    g_autoptr (GraftEdit) edit = NULL;

    c = call2 (graph, "torch.neg", x, NULL, NULL);
    g_assert_true (_graft_graph_is_topological (graph));
    graft_graph_begin_edit (graph);
    graft_graph_replace_all_uses (graph, a, c);
    edit = graft_graph_end_edit (graph);
    g_assert_false (_graft_graph_is_topological (graph));
    graft_edit_undo (edit);
    g_assert_true (_graft_graph_is_topological (graph));
    graft_edit_redo (edit);
    g_assert_false (_graft_graph_is_topological (graph));
  }
  /* A user's arguments swapped back by an undo. */
  {
    g_autoptr (GraftGraph) graph = ordered_chain (&x, &a, &b);
    g_autoptr (GraftEdit) edit = NULL;

    c = call2 (graph, "torch.neg", x, NULL, NULL);
    graft_graph_begin_edit (graph);
    graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
    graft_arg_init_node (&args.items[0], x);
    graft_graph_set_args (graph, b, &args, NULL);
    graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
    graft_arg_init_node (&args.items[0], c);
    graft_graph_set_args (graph, a, &args, NULL);
    edit = graft_graph_end_edit (graph);
    g_assert_false (_graft_graph_is_topological (graph));
    graft_edit_undo (edit);
    g_assert_true (_graft_graph_is_topological (graph));
    graft_edit_redo (edit);
    g_assert_false (_graft_graph_is_topological (graph));
  }
}

/* _graft_graph_check_order_step()'s answer by steps of @work, each step
 * looking at no more than it is given. */
static int
order_by_steps (GraftGraph *graph,
                guint       work)
{
  GraftNode *next = graft_graph_get_first (graph);
  int        known;
  guint      n_steps = 0;

  for (;;)
    {
      guint left = work;

      known = _graft_graph_check_order_step (graph, &next, &left);
      n_steps++;
      if (known >= 0)
        break;
      g_assert_cmpuint (left, ==, 0);
      g_assert_nonnull (next);
    }
  /* A step of one looks at one node: as many steps as nodes up to the
   * answer (here every node has at most one user, so each costs 2). */
  if (work == 1)
    g_assert_cmpuint (n_steps, >=, 2);
  return known;
}

/* The order checked by steps says what _graft_graph_is_topological() says,
 * without walking the whole graph in one step, and once it is known the
 * graph keeps knowing it. */
static void
test_order_by_steps (void)
{
  GraftNode *x, *a, *b, *c;

  for (guint work = 1; work <= 4; work++)
    {
      /* In order, known to be: no walk. */
      {
        g_autoptr (GraftGraph) graph = ordered_chain (&x, &a, &b);
        GraftNode *next = graft_graph_get_first (graph);
        guint      left = 1;

        g_assert_cmpint (_graft_graph_check_order_step (graph, &next, &left), ==, 1);
        g_assert_cmpuint (left, ==, 1);
      }
      /* Moved after its user: out of order, and still after the steps. */
      {
        g_autoptr (GraftGraph) graph = ordered_chain (&x, &a, &b);

        graft_graph_move_before (graph, a, NULL);
        g_assert_cmpint (order_by_steps (graph, work), ==, 0);
        g_assert_cmpint (order_by_steps (graph, work), ==, 0);
        g_assert_false (_graft_graph_is_topological (graph));
      }
      /* The last node moved last: in order, found by steps, then known. */
      {
        g_autoptr (GraftGraph) graph = ordered_chain (&x, &a, &b);
        GraftNode *next;
        guint      left = 1;

        c = call2 (graph, "torch.neg", b, NULL, NULL);
        graft_graph_move_before (graph, c, NULL);
        g_assert_cmpint (order_by_steps (graph, work), ==, 1);
        next = graft_graph_get_first (graph);
        g_assert_cmpint (_graft_graph_check_order_step (graph, &next, &left), ==, 1);
        g_assert_cmpuint (left, ==, 1);
        g_assert_true (_graft_graph_is_topological (graph));
      }
    }
}

/* Nodes made from static text (the tracer's tables): named and interned
 * as graft_graph_create_node_copy() names them, the candidate kept (not
 * derived from the target), the same text at another address alike. */
static void
test_create_node_static (void)
{
  static const char target[] = "operator.add";
  static const char plus[] = "plus";
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_2_6));
  g_autofree char *heap = g_strdup (plus);
  GraftNodeRequest request = { .op = GRAFT_OP_CALL_FUNCTION,
                               .target = target,
                               .name_candidate = plus,
                               .static_text = TRUE };
  GraftNode       *n[6];

  for (guint i = 0; i < G_N_ELEMENTS (n); i++)
    n[i] = i % 3 == 2 ? graft_graph_create_node_copy (graph, GRAFT_OP_CALL_FUNCTION, target, NULL,
                                                      NULL, heap, NULL)
                      : _graft_graph_create_node_request (graph, &request);
  g_assert_cmpstr (graft_node_get_name (n[0]), ==, "plus");
  g_assert_cmpstr (graft_node_get_name (n[1]), ==, "plus_1");
  g_assert_cmpstr (graft_node_get_name (n[2]), ==, "plus_2");
  g_assert_cmpstr (graft_node_get_name (n[5]), ==, "plus_5");
  for (guint i = 0; i < G_N_ELEMENTS (n); i++)
    {
      g_assert_cmpstr (graft_node_get_target (n[i]), ==, target);
      g_assert_true (graft_node_get_target (n[i]) == graft_node_get_target (n[0]));
      g_assert_true (graft_graph_find_node (graph, graft_node_get_name (n[i])) == n[i]);
    }
}

/* The set of the graph's cache by the caller's address that @text falls
 * in (intern_target() of core/ir/graft-graph.c). */
static guint
address_set (const char *text)
{
  return (guint) (((guintptr) text * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 58);
}

/* A text that was not static leaves its address in the cache; a static
 * text that comes to lie at that address later (the first one's buffer
 * freed, a graph's chunk grown there: the rewriter's copy of
 * `torch.ops.aten.mul.Tensor` where the reader had `_tensor_constant1`)
 * is its own text, not the other's copy, whether the other is the newer
 * way of the set or the older. */
static void
test_create_node_static_reused (void)
{
  static char buffer[4096];
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_2_6));

  for (guint older = 0; older < 2; older++)
    {
      /* Addresses no round used before; another of the same set, for
       * the older way. */
      char            *reused = buffer + 2048 * older;
      char            *other = NULL;
      GraftNodeRequest passing = { .op = GRAFT_OP_GET_ATTR, .target = reused };
      GraftNodeRequest static_text = { .op = GRAFT_OP_CALL_FUNCTION,
                                       .target = reused,
                                       .static_text = TRUE };
      GraftNode       *node;

      for (char *p = reused + 1024; p < reused + 2048 - 64 && other == NULL; p++)
        if (address_set (p) == address_set (reused))
          other = p;
      g_assert_nonnull (other);
      g_snprintf (reused, 64, "_tensor_constant%u", older);
      node = _graft_graph_create_node_request (graph, &passing);
      g_assert_cmpstr (graft_node_get_target (node), ==, reused);
      if (older)
        {
          /* The first text goes to the older way. */
          GraftNodeRequest next = { .op = GRAFT_OP_GET_ATTR, .target = other };

          g_snprintf (other, 64, "_tensor_constant%u_b", older);
          node = _graft_graph_create_node_request (graph, &next);
          g_assert_cmpstr (graft_node_get_target (node), ==, other);
        }
      /* The buffer reused by a static text. */
      g_snprintf (reused, 64, "torch.ops.aten.mul.Tensor");
      node = _graft_graph_create_node_request (graph, &static_text);
      g_assert_cmpstr (graft_node_get_target (node), ==, "torch.ops.aten.mul.Tensor");
      /* Known by its address from now on. */
      node = _graft_graph_create_node_request (graph, &static_text);
      g_assert_cmpstr (graft_node_get_target (node), ==, "torch.ops.aten.mul.Tensor");
    }
}

/* A candidate counted on past carries and added digits (the namespace
 * steps the last digit of the name it made last, carries in place and
 * writes the name whole when it gains a digit): every name as torch makes
 * it, bound to its node; and after a name taken out of turn. */
static void
test_create_node_carries (void)
{
  static const char plus[] = "plus";
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNodeRequest request = { .op = GRAFT_OP_CALL_FUNCTION,
                               .target = "operator.add",
                               .name_candidate = plus,
                               .static_text = TRUE };

  for (guint i = 0; i < 1205; i++)
    {
      GraftNode       *node = _graft_graph_create_node_request (graph, &request);
      g_autofree char *want = i == 0 ? g_strdup (plus) : g_strdup_printf ("plus_%u", i);

      g_assert_cmpstr (graft_node_get_name (node), ==, want);
      g_assert_true (graft_graph_find_node (graph, want) == node);
      if (i == 150)
        {
          /* `plus_152` taken verbatim: the count goes past it. */
          graft_graph_create_node_named (graph, GRAFT_OP_CALL_FUNCTION, "operator.add", NULL, NULL,
                                         "plus_152", NULL);
          i++;
          g_assert_cmpstr (graft_node_get_name (_graft_graph_create_node_request (graph, &request)),
                           ==, "plus_151");
          g_assert_cmpstr (graft_node_get_name (_graft_graph_create_node_request (graph, &request)),
                           ==, "plus_153");
          i += 2;
        }
    }
}

/* Names past the run of `plus_<k>` the namespace keeps apart (`plus_1`
 * ... `plus_100` read verbatim are in its set): the counted names go to
 * the set too, hashed from the digits but the last (kept across
 * carries), and are found by their text. */
static void
test_create_node_carries_in_set (void)
{
  static const char plus[] = "plus";

  for (guint d = 0; d < 2; d++)
    {
      g_autoptr (GraftGraph) graph =
          graft_graph_new (graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6));
      GraftNodeRequest request = { .op = GRAFT_OP_CALL_FUNCTION,
                                   .target = "operator.add",
                                   .name_candidate = plus,
                                   .static_text = TRUE };

      _graft_graph_create_node_request (graph, &request);
      for (guint i = 1; i <= 100; i++)
        {
          g_autofree char *name = g_strdup_printf ("plus_%u", i);

          graft_graph_create_node_named (graph, GRAFT_OP_CALL_FUNCTION, "operator.add", NULL, NULL,
                                         name, NULL);
        }
      for (guint i = 101; i < 135; i++)
        {
          GraftNode       *node = _graft_graph_create_node_request (graph, &request);
          g_autofree char *want = g_strdup_printf ("plus_%u", i);

          g_assert_cmpstr (graft_node_get_name (node), ==, want);
          g_assert_true (graft_graph_find_node (graph, want) == node);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/graph/create", test_create);
  g_test_add_func ("/core/graph/users", test_users);
  g_test_add_func ("/core/graph/many-users", test_many_users);
  g_test_add_func ("/core/graph/container-inputs", test_container_inputs);
  g_test_add_func ("/core/graph/replace-all-uses", test_replace_all_uses);
  g_test_add_func ("/core/graph/replace-all-uses-undo", test_replace_all_uses_undo);
  g_test_add_func ("/core/graph/erase", test_erase);
  g_test_add_func ("/core/graph/undo-above-trash", test_undo_above_trash);
  g_test_add_func ("/core/graph/move-before", test_move_before);
  g_test_add_func ("/core/graph/insert-before", test_insert_before);
  g_test_add_func ("/core/graph/lint", test_lint);
  g_test_add_func ("/core/graph/input-nodes", test_input_nodes);
  g_test_add_func ("/core/graph/node-fields", test_node_fields);
  g_test_add_func ("/core/graph/intern", test_intern);
  g_test_add_func ("/core/graph/undo-add-names", test_undo_add_names);
  g_test_add_func ("/core/graph/arg-storage", test_arg_storage);
  g_test_add_func ("/core/graph/kwargs-storage", test_kwargs_storage);
  g_test_add_func ("/core/graph/memory-size", test_memory_size);
  g_test_add_func ("/core/graph/long-edit-frees", test_long_edit_frees);
  g_test_add_func ("/core/graph/index-nodes", test_index_nodes);
  g_test_add_func ("/core/graph/marks-released", test_marks_released);
  g_test_add_func ("/core/graph/long-spans", test_long_spans);
  g_test_add_func ("/core/graph/order-limit", test_order_limit);
  g_test_add_func ("/core/graph/topological-known", test_topological_known);
  g_test_add_func ("/core/graph/order-by-steps", test_order_by_steps);
  g_test_add_func ("/core/graph/users-past-16-bits", test_users_past_16_bits);
  g_test_add_func ("/core/graph/many-counted-names", test_many_counted_names);
  g_test_add_func ("/core/graph/shared-kwargs", test_shared_kwargs);
  g_test_add_func ("/core/graph/shared-args", test_shared_args);
  g_test_add_func ("/core/graph/shared-copied", test_shared_copied);
  g_test_add_func ("/core/graph/create-node-static", test_create_node_static);
  g_test_add_func ("/core/graph/create-node-static-reused", test_create_node_static_reused);
  g_test_add_func ("/core/graph/create-node-carries", test_create_node_carries);
  g_test_add_func ("/core/graph/create-node-carries-in-set", test_create_node_carries_in_set);

  return g_test_run ();
}
