/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-rewrite.c: the matcher and the rewriter beyond the golden files:
 * undo and redo restore the graph exactly (code, listing and the names the
 * next rewrite picks), a failed rewrite leaves the graph untouched, and on
 * random graphs and patterns (fixed seeds) every reported match is a real
 * occurrence, no two overlap, no internal node leaks, and after the rewrite
 * the graph lints and none of the replaced nodes is left.  Each rule of
 * torch 2.6's matcher and rewriter (docs/dialects.md, sections 5 and 6) is
 * checked against torch 1.13.1's on the same graph.
 */
#include "config.h"

#include "graft-view.h"
#include "graft-graph-private.h"
#include "test-util.h"

#include <string.h>

static GraftGraph *
trace (const char *code,
       const char *entry)
{
  return test_trace_in (GRAFT_TORCH_1_13, code, entry);
}

static GraftGraph *
parse_listing_in (GraftTorch  torch,
                  const char *text)
{
  g_autoptr (GraftSource) source = graft_source_new ("listing.txt", text, -1);
  g_autoptr (GError) error = NULL;
  GraftGraph *graph = graft_listing_parse (source, graft_dialect_get (torch), &error);

  g_assert_no_error (error);
  return graph;
}

static GraftGraph *
parse_listing (const char *text)
{
  return parse_listing_in (GRAFT_TORCH_1_13, text);
}

static void
assert_lint (GraftGraph *graph)
{
  g_autoptr (GError) error = NULL;

  graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &error);
  g_assert_no_error (error);
}

static const char seed_model[] =
    "import torch\n"
    "class M(torch.nn.Module):\n"
    "    def forward(self, x, w1, w2):\n"
    "        val1 = torch.neg(w1)\n"
    "        m1 = torch.cat([val1, w2]).sum()\n"
    "        val2 = torch.neg(w1)\n"
    "        m2 = torch.cat([val2, w2]).sum()\n"
    "        return x + torch.max(m1) + torch.max(m2)\n"
    "def pattern(a1, a2):\n"
    "    val1 = torch.neg(a1)\n"
    "    return torch.cat([val1, a2]).sum()\n"
    "def replacement(w1, w2):\n"
    "    return torch.stack([w1, w2])\n"
    "def pattern2(a):\n"
    "    return torch.max(a)\n"
    "def replacement2(a):\n"
    "    return torch.relu(a)\n";

static GraftPattern *
make_pattern_in (GraftTorch  torch,
                 const char *entry)
{
  g_autoptr (GError) error = NULL;
  GraftPattern *pattern = graft_pattern_new (test_trace_in (torch, seed_model, entry), &error);

  g_assert_no_error (error);
  return pattern;
}

static GraftPattern *
make_pattern (const char *entry)
{
  return make_pattern_in (GRAFT_TORCH_1_13, entry);
}

/* Undo restores the code, the listing and the namespace (in torch 2.6 the
 * last suffix per base too); redo brings the rewrite back with the same
 * names, and so does the same rewrite made again after an undo. */
static void
test_undo_redo (gconstpointer data)
{
  GraftTorch torch = GPOINTER_TO_INT (data);
  g_autoptr (GraftGraph) graph = test_trace_in (torch, seed_model, "M");
  g_autoptr (GraftGraph) fresh = test_trace_in (torch, seed_model, "M");
  g_autoptr (GraftPattern) pattern = make_pattern_in (torch, "pattern");
  g_autoptr (GraftGraph) replacement = test_trace_in (torch, seed_model, "replacement");
  g_autoptr (GraftPattern) pattern2 = make_pattern_in (torch, "pattern2");
  g_autoptr (GraftGraph) replacement2 = test_trace_in (torch, seed_model, "replacement2");
  g_autoptr (GraftRewrite) again = NULL;
  g_autofree char *again_code = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *before = graft_codegen_python (graph);
  g_autofree char *listing_before = graft_listing_print (graph);
  g_autofree char *after = NULL;
  g_autofree char *undone = NULL;
  g_autofree char *redone = NULL;
  g_autofree char *listing_undone = NULL;
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autoptr (GraftRewrite) second = NULL;
  g_autoptr (GraftRewrite) on_fresh = NULL;
  g_autofree char *second_code = NULL;
  g_autofree char *fresh_code = NULL;

  rewrite = graft_replace_pattern (graph, pattern, replacement, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (graft_rewrite_get_n_replaced (rewrite), ==, 2);
  g_assert_cmpuint (graft_rewrite_get_added_nodes (rewrite)->len, ==, 2);
  assert_lint (graph);
  after = graft_codegen_python (graph);
  g_assert_nonnull (strstr (after, "stack_1 = torch.stack([w1, w2])"));
  g_assert_nonnull (strstr (after, "stack = torch.stack([w1, w2])"));

  graft_edit_undo (graft_rewrite_get_edit (rewrite));
  assert_lint (graph);
  undone = graft_codegen_python (graph);
  listing_undone = graft_listing_print (graph);
  g_assert_cmpstr (undone, ==, before);
  g_assert_cmpstr (listing_undone, ==, listing_before);

  graft_edit_redo (graft_rewrite_get_edit (rewrite));
  assert_lint (graph);
  redone = graft_codegen_python (graph);
  g_assert_cmpstr (redone, ==, after);

  /* Undone, then made again: the same names as the first time (2.6's
   * namespace must have forgotten the suffixes the first rewrite used). */
  graft_edit_undo (graft_rewrite_get_edit (rewrite));
  again = graft_replace_pattern (graph, pattern, replacement, NULL, &error);
  g_assert_no_error (error);
  again_code = graft_codegen_python (graph);
  g_assert_cmpstr (again_code, ==, after);
  graft_edit_undo (graft_rewrite_get_edit (again));
  graft_edit_redo (graft_rewrite_get_edit (rewrite));

  /* After an undo, another rewrite names its nodes as on a graph that
   * never saw the first one. */
  graft_edit_undo (graft_rewrite_get_edit (rewrite));
  second = graft_replace_pattern (graph, pattern2, replacement2, NULL, &error);
  g_assert_no_error (error);
  on_fresh = graft_replace_pattern (fresh, pattern2, replacement2, NULL, &error);
  g_assert_no_error (error);
  second_code = graft_codegen_python (graph);
  fresh_code = graft_codegen_python (fresh);
  g_assert_cmpstr (second_code, ==, fresh_code);
  assert_lint (graph);
}

/* A rewrite that cannot finish (here: the replacement takes another number
 * of parameters) leaves the graph exactly as it was. */
static void
test_failed_rewrite_rolls_back (void)
{
  static const char bad_replacement[] =
      "import torch\n"
      "def replacement(a, b, c):\n"
      "    return torch.stack([a, b, c])\n";
  g_autoptr (GraftGraph) graph = trace (seed_model, "M");
  g_autoptr (GraftPattern) pattern = make_pattern ("pattern");
  g_autoptr (GraftGraph) replacement = trace (bad_replacement, "replacement");
  g_autoptr (GError) error = NULL;
  g_autofree char *before = graft_listing_print (graph);
  g_autofree char *after = NULL;
  GraftRewrite    *rewrite;

  rewrite = graft_replace_pattern (graph, pattern, replacement, NULL, &error);
  g_assert_null (rewrite);
  g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE);
  after = graft_listing_print (graph);
  g_assert_cmpstr (after, ==, before);
  assert_lint (graph);
}

/* The matched nodes die together: an internal node with several users
 * inside the match (an indexed users list), one with a single user inside
 * it, an input the copy shares.  Every users list is as erasing them one
 * by one leaves it, and undo restores the graph. */
static void
test_erase_together (gconstpointer data)
{
  static const char code[] = "import torch\n"
                             "class M(torch.nn.Module):\n"
                             "    def forward(self, x, y):\n"
                             "        r = torch.relu(x)\n"
                             "        a = torch.neg(x)\n"
                             "        b = a * 2\n"
                             "        c = a + b\n"
                             "        d = c + y\n"
                             "        return d, r\n"
                             "def pattern(p):\n"
                             "    a = torch.neg(p)\n"
                             "    b = a * 2\n"
                             "    return a + b\n"
                             "def replacement(p):\n"
                             "    return torch.abs(p)\n";
  GraftTorch        torch = GPOINTER_TO_INT (data);
  g_autoptr (GraftGraph) graph = test_trace_in (torch, code, "M");
  g_autoptr (GraftGraph) replacement = test_trace_in (torch, code, "replacement");
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPattern) pattern =
      graft_pattern_new (test_trace_in (torch, code, "pattern"), &error);
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autofree char *before = graft_listing_print (graph);
  g_autofree char *undone = NULL;
  GraftNode       *x = graft_graph_find_node (graph, "x");
  GraftNode       *relu = graft_graph_find_node (graph, "relu");
  GraftNode       *abs_node;

  g_assert_no_error (error);
  g_assert_cmpuint (graft_node_get_n_users (graft_graph_find_node (graph, "neg")), ==, 2);
  rewrite = graft_replace_pattern (graph, pattern, replacement, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (graft_rewrite_get_n_replaced (rewrite), ==, 1);
  assert_lint (graph);
  abs_node = graft_graph_find_node (graph, "abs_1");
  g_assert_nonnull (abs_node);
  g_assert_null (graft_graph_find_node (graph, "neg"));
  g_assert_null (graft_graph_find_node (graph, "mul"));
  g_assert_null (graft_graph_find_node (graph, "add"));
  /* x's users: relu kept its place, the copy came last. */
  g_assert_cmpuint (graft_node_get_n_users (x), ==, 2);
  g_assert_true (graft_node_get_user (x, 0) == relu);
  g_assert_true (graft_node_get_user (x, 1) == abs_node);
  g_assert_cmpuint (graft_node_get_n_users (abs_node), ==, 1);
  g_assert_cmpstr (graft_node_get_name (graft_node_get_user (abs_node, 0)), ==, "add_1");

  graft_edit_undo (graft_rewrite_get_edit (rewrite));
  assert_lint (graph);
  undone = graft_listing_print (graph);
  g_assert_cmpstr (undone, ==, before);
  g_assert_cmpuint (graft_node_get_n_users (graft_graph_find_node (graph, "neg")), ==, 2);
  g_assert_cmpuint (graft_node_get_n_users (graft_graph_find_node (graph, "mul")), ==, 1);
  g_assert_cmpuint (graft_node_get_n_users (graft_graph_find_node (graph, "add")), ==, 1);
  graft_edit_redo (graft_rewrite_get_edit (rewrite));
  assert_lint (graph);
  g_assert_null (graft_graph_find_node (graph, "neg"));
}

/* A matched node that gained a user outside the match after the search
 * cannot be erased: the rewrite fails at it, as torch's erase_node does,
 * and the graph is left as it was. */
static void
test_erase_still_used (void)
{
  g_autoptr (GraftGraph) graph = trace (seed_model, "M");
  g_autoptr (GraftPattern) pattern = make_pattern ("pattern");
  g_autoptr (GraftGraph) replacement = trace (seed_model, "replacement");
  g_autoptr (GPtrArray) matches = graft_matcher_find (pattern, graph, NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  GraftNode       *cat = graft_graph_find_node (graph, "cat_1");
  GraftArg         args;

  g_assert_cmpuint (matches->len, ==, 2);
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&args.items[0], cat);
  graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "torch.relu", &args, NULL, NULL,
                           graft_graph_get_output (graph));
  before = graft_listing_print (graph);
  g_assert_null (graft_rewriter_apply (graph, pattern, replacement, matches, &error));
  g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE);
  g_assert_nonnull (strstr (error->message, "cannot replace match 2: "));
  g_assert_nonnull (strstr (error->message, "cat_1 cannot be erased: it still has 1 user "));
  after = graft_listing_print (graph);
  g_assert_cmpstr (after, ==, before);
  assert_lint (graph);
}

/* Applying one chosen match replaces just that occurrence. */
static void
test_apply_one_match (void)
{
  g_autoptr (GraftGraph) graph = trace (seed_model, "M");
  g_autoptr (GraftPattern) pattern = make_pattern ("pattern");
  g_autoptr (GraftGraph) replacement = trace (seed_model, "replacement");
  g_autoptr (GPtrArray) matches = graft_matcher_find (pattern, graph, NULL, NULL);
  g_autoptr (GPtrArray) second = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autofree char *code = NULL;

  g_assert_cmpuint (matches->len, ==, 2);
  g_ptr_array_add (second, matches->pdata[1]);
  rewrite = graft_rewriter_apply (graph, pattern, replacement, second, &error);
  g_assert_no_error (error);
  assert_lint (graph);
  code = graft_codegen_python (graph);
  /* The first occurrence is intact, the second replaced. */
  g_assert_nonnull (strstr (code, "sum_1 = cat.sum()"));
  g_assert_nonnull (strstr (code, "stack = torch.stack([w1, w2])"));
  g_assert_null (strstr (code, "sum_2"));
}

/* A pattern matched against its own graph finds itself, twice in a row
 * (the search must not disturb the pattern). */
static void
test_pattern_matches_itself (void)
{
  g_autoptr (GraftPattern) pattern = make_pattern ("pattern");
  GraftGraph *own = graft_pattern_get_graph (pattern);

  for (int round = 0; round < 2; round++)
    {
      g_autoptr (GPtrArray) matches = graft_matcher_find (pattern, own, NULL, NULL);
      g_autofree char *json = NULL;

      g_assert_cmpuint (matches->len, ==, 1);
      json = graft_match_to_json (matches->pdata[0]);
      g_assert_nonnull (strstr (json, "\"nodes_map\": {\"a1\": \"a1\", \"a2\": \"a2\", \"neg\": "
                                      "\"neg\", \"cat\": \"cat\", \"sum_1\": \"sum_1\"}"));
    }
}

/* Random graphs ------------------------------------------------------------- */

static const char *const random_ops[] = {
  "call_function[target=operator.add]",
  "call_function[target=operator.mul]",
  "call_function[target=torch.relu]",
  "call_method[target=neg]",
};
static const guint random_arity[] = { 2, 2, 1, 1 };

/* A random straight-line graph: 3 inputs, @n nodes each using 1 or 2
 * earlier values, one output returning the last few values. */
static char *
random_listing_busy (GRand   *rand,
                     guint    n,
                     guint    n_ops,
                     gboolean busy);

static char *
random_listing (GRand *rand,
                guint  n,
                guint  n_ops)
{
  return random_listing_busy (rand, n, n_ops, FALSE);
}

/* With @busy, a node reads one of the inputs half of the time, so that
 * their users lists are long (indexed). */
static char *
random_listing_busy (GRand   *rand,
                     guint    n,
                     guint    n_ops,
                     gboolean busy)
{
  GString *out = g_string_new ("graph():\n");
  g_autoptr (GArray) users = g_array_new (FALSE, TRUE, sizeof (guint));
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  guint total = n + 3;

  g_array_set_size (users, total);
  for (guint i = 0; i < n; i++)
    {
      guint    op = g_rand_int_range (rand, 0, n_ops);
      guint    a = g_rand_int_range (rand, MAX (0, (gint) (i + 3) - 6), i + 3);
      guint    b = g_rand_int_range (rand, MAX (0, (gint) (i + 3) - 6), i + 3);
      GString *line = g_string_new (NULL);

      if (busy && g_rand_boolean (rand))
        a = g_rand_int_range (rand, 0, 3);
      if (busy && g_rand_boolean (rand))
        b = g_rand_int_range (rand, 0, 3);

      g_string_append_printf (line, "    %%v%u : [#users=USERS] = %s(args = (%%v%u", i + 3,
                              random_ops[op], a);
      g_array_index (users, guint, a)++;
      if (random_arity[op] == 2)
        {
          g_string_append_printf (line, ", %%v%u", b);
          if (b != a)
            g_array_index (users, guint, b)++;
        }
      g_string_append (line, random_arity[op] == 1 ? ",), kwargs = {})\n" : "), kwargs = {})\n");
      g_ptr_array_add (lines, g_string_free (line, FALSE));
    }
  /* The output uses every value without users, so nothing is dead. */
  for (guint i = 0; i < 3; i++)
    g_string_append_printf (out, "    %%v%u : [#users=%u] = placeholder[target=v%u]\n", i,
                            g_array_index (users, guint, i) +
                                (g_array_index (users, guint, i) == 0 ? 1 : 0),
                            i);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *count =
          g_strdup_printf ("%u", g_array_index (users, guint, i + 3) +
                                     (g_array_index (users, guint, i + 3) == 0 ? 1 : 0));
      g_autoptr (GString) line = g_string_new (lines->pdata[i]);

      g_string_replace (line, "USERS", count, 1);
      g_string_append (out, line->str);
    }
  g_string_append (out, "    return (");
  {
    gboolean first = TRUE;

    for (guint i = 0; i < total; i++)
      if (g_array_index (users, guint, i) == 0)
        {
          g_string_append_printf (out, "%sv%u", first ? "" : ", ", i);
          first = FALSE;
        }
    if (first)
      g_string_append_printf (out, "v%u", total - 1);
  }
  g_string_append (out, ")\n");
  return g_string_free (out, FALSE);
}

/* A pattern cut out of @graph around @anchor: the node, and its inputs up
 * to @depth levels that are computations, with placeholders for the rest.
 * With @two_results, the pattern also returns its first node (when that is
 * not @anchor), so that a match may feed nodes outside it from within, as
 * the overlap and cycle filters must handle. */
static char *
pattern_listing (GraftNode *anchor,
                 guint      depth,
                 gboolean   two_results)
{
  g_autoptr (GPtrArray) nodes = g_ptr_array_new ();
  g_autoptr (GHashTable) inside = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) ph = g_hash_table_new (NULL, NULL);
  g_autoptr (GPtrArray) placeholders = g_ptr_array_new ();
  GString *out = g_string_new ("graph():\n");
  g_autoptr (GPtrArray) frontier = g_ptr_array_new ();
  GraftNode *also = NULL;

  g_ptr_array_add (frontier, anchor);
  g_hash_table_add (inside, anchor);
  for (guint level = 0; level < depth; level++)
    {
      g_autoptr (GPtrArray) next = g_ptr_array_new ();

      for (guint i = 0; i < frontier->len; i++)
        {
          g_autoptr (GPtrArray) inputs = graft_node_dup_input_nodes (frontier->pdata[i]);

          for (guint k = 0; k < inputs->len; k++)
            {
              GraftNode *in = inputs->pdata[k];

              if (graft_node_get_op (in) != GRAFT_OP_PLACEHOLDER &&
                  !g_hash_table_contains (inside, in))
                {
                  g_hash_table_add (inside, in);
                  g_ptr_array_add (next, in);
                }
            }
        }
      g_ptr_array_set_size (frontier, 0);
      for (guint i = 0; i < next->len; i++)
        g_ptr_array_add (frontier, next->pdata[i]);
    }
  /* Nodes inside, in graph order; their inputs outside become parameters. */
  for (GraftNode *n = graft_graph_get_first (graft_node_get_graph (anchor)); n != NULL;
       n = graft_node_get_next (n))
    if (g_hash_table_contains (inside, n))
      {
        g_autoptr (GPtrArray) inputs = graft_node_dup_input_nodes (n);

        g_ptr_array_add (nodes, n);
        for (guint k = 0; k < inputs->len; k++)
          if (!g_hash_table_contains (inside, inputs->pdata[k]) &&
              g_hash_table_add (ph, inputs->pdata[k]))
            g_ptr_array_add (placeholders, inputs->pdata[k]);
      }
  if (two_results && nodes->pdata[0] != anchor)
    also = nodes->pdata[0];
  for (guint i = 0; i < placeholders->len; i++)
    {
      GraftNode *p = placeholders->pdata[i];
      guint      uses = 0;

      for (guint k = 0; k < nodes->len; k++)
        for (guint u = 0; u < graft_node_get_n_users (p); u++)
          if (graft_node_get_user (p, u) == nodes->pdata[k])
            uses++;
      g_string_append_printf (out, "    %%%s : [#users=%u] = placeholder[target=%s]\n",
                              graft_node_get_name (p), uses, graft_node_get_name (p));
    }
  for (guint i = 0; i < nodes->len; i++)
    {
      GraftNode       *n = nodes->pdata[i];
      guint            uses = n == anchor || n == also ? 1 : 0;
      g_autofree char *args = graft_arg_repr (graft_node_get_args (n), GRAFT_REPR_LISTING);

      for (guint u = 0; u < graft_node_get_n_users (n); u++)
        if (g_hash_table_contains (inside, graft_node_get_user (n, u)))
          uses++;
      g_string_append_printf (out,
                              "    %%%s : [#users=%u] = %s[target=%s](args = %s, kwargs = {})\n",
                              graft_node_get_name (n), uses,
                              graft_op_to_string (graft_node_get_op (n)), graft_node_get_target (n),
                              args);
    }
  if (also != NULL)
    g_string_append_printf (out, "    return (%s, %s)\n", graft_node_get_name (also),
                            graft_node_get_name (anchor));
  else
    g_string_append_printf (out, "    return %s\n", graft_node_get_name (anchor));
  return g_string_free (out, FALSE);
}

/* Does a match bind its pattern nodes to graph nodes of the same op and
 * target, wired the same way? */
static void
assert_real_occurrence (GraftPattern *pattern,
                        GraftMatch   *match)
{
  for (guint i = 0; i < graft_pattern_get_n_nodes (pattern); i++)
    {
      GraftNode      *pn = graft_pattern_get_node (pattern, i);
      GraftNode      *gn = NULL;
      const GraftArg *pargs;
      const GraftArg *gargs;

      if (graft_node_get_op (pn) == GRAFT_OP_OUTPUT ||
          graft_node_get_op (pn) == GRAFT_OP_PLACEHOLDER)
        continue;
      g_assert_true (graft_match_get_binding (match, i, &gn, NULL));
      g_assert_nonnull (gn);
      g_assert_cmpint (graft_node_get_op (pn), ==, graft_node_get_op (gn));
      g_assert_cmpstr (graft_node_get_target (pn), ==, graft_node_get_target (gn));
      pargs = graft_node_get_args (pn);
      gargs = graft_node_get_args (gn);
      g_assert_cmpuint (pargs->n, ==, gargs->n);
      for (guint a = 0; a < pargs->n; a++)
        {
          GraftNode *bound = NULL;
          guint      pos;

          g_assert_cmpint (pargs->items[a].kind, ==, GRAFT_ARG_NODE);
          g_assert_cmpint (gargs->items[a].kind, ==, GRAFT_ARG_NODE);
          for (pos = 0; graft_pattern_get_node (pattern, pos) != pargs->items[a].node; pos++)
            ;
          graft_match_get_binding (match, pos, &bound, NULL);
          g_assert_true (bound == gargs->items[a].node);
        }
    }
}

static void
test_random (gconstpointer data)
{
  guint seed = GPOINTER_TO_UINT (data);
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  g_autofree char *text = random_listing (rand, 40 + seed % 60, 2 + seed % 3);
  g_autoptr (GraftGraph) graph = parse_listing (text);
  guint            target = g_rand_int_range (rand, 10, graft_graph_get_n_nodes (graph) - 1);
  GraftNode       *anchor = graft_graph_get_first (graph);
  g_autofree char *ptext = NULL;
  g_autoptr (GraftGraph) pattern_graph = NULL;
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GPtrArray) matches = NULL;
  g_autoptr (GHashTable) claimed = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) replaced = g_hash_table_new (NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autoptr (GString) rtext = NULL;
  g_autoptr (GraftGraph) replacement = NULL;

  for (guint i = 0; i < target; i++)
    anchor = graft_node_get_next (anchor);
  while (graft_node_get_op (anchor) == GRAFT_OP_PLACEHOLDER)
    anchor = graft_node_get_next (anchor);
  if (graft_node_get_op (anchor) == GRAFT_OP_OUTPUT)
    anchor = graft_node_get_prev (anchor);
  ptext = pattern_listing (anchor, seed % 3, seed % 2 == 1);
  pattern_graph = parse_listing (ptext);
  pattern = graft_pattern_new (g_steal_pointer (&pattern_graph), &error);
  g_assert_no_error (error);

  matches = graft_matcher_find (pattern, graph, NULL, NULL);
  for (guint m = 0; m < matches->len; m++)
    {
      g_autoptr (GPtrArray) nodes = graft_match_dup_nodes (matches->pdata[m]);

      assert_real_occurrence (pattern, matches->pdata[m]);
      /* No two matches share a computation. */
      for (guint i = 0; i < nodes->len; i++)
        {
          g_assert_false (g_hash_table_contains (claimed, nodes->pdata[i]));
          g_hash_table_add (claimed, nodes->pdata[i]);
        }
      /* Nothing inside leaks out, except what the pattern returns. */
      for (guint i = 0; i < graft_pattern_get_n_nodes (pattern); i++)
        {
          GraftNode *pn = graft_pattern_get_node (pattern, i);
          GraftNode *gn = NULL;
          gboolean   returned = FALSE;

          if (graft_node_get_op (pn) == GRAFT_OP_PLACEHOLDER ||
              graft_node_get_op (pn) == GRAFT_OP_OUTPUT)
            continue;
          graft_match_get_binding (matches->pdata[m], i, &gn, NULL);
          for (guint r = 0; r < graft_pattern_get_n_returning (pattern); r++)
            returned = returned || graft_match_get_returning_node (matches->pdata[m], r) == gn;
          if (returned)
            continue;
          for (guint u = 0; u < graft_node_get_n_users (gn); u++)
            {
              GraftNode *user = graft_node_get_user (gn, u);
              gboolean   in = FALSE;

              for (guint k = 0; k < nodes->len && !in; k++)
                in = nodes->pdata[k] == user;
              g_assert_true (in);
            }
        }
    }
  /* A single-node pattern always finds at least the node it was cut
   * from (nothing can leak out of one node). */
  if (seed % 3 == 0)
    g_assert_cmpuint (matches->len, >=, 1);
  g_test_message ("seed %u: %u nodes, pattern of %u, %u matches", seed,
                  graft_graph_get_n_nodes (graph), graft_pattern_get_n_nodes (pattern),
                  matches->len);

  /* Replace every match by one neg of the first parameter (each of the
   * pattern's results by it), so the rewrite always type-checks. */
  rtext = g_string_new ("graph():\n");
  for (guint i = 0; i < graft_pattern_get_n_placeholders (pattern); i++)
    g_string_append_printf (rtext, "    %%p%u : [#users=%u] = placeholder[target=p%u]\n", i,
                            i == 0 ? 1 : 0, i);
  g_string_append (rtext, "    %r : [#users=1] = call_method[target=neg](args = (%p0,), kwargs = "
                          "{})\n");
  g_string_append (rtext, graft_pattern_get_n_returning (pattern) == 2 ? "    return (r, r)\n"
                                                                       : "    return r\n");
  replacement = parse_listing (rtext->str);
  for (guint m = 0; m < matches->len; m++)
    {
      g_autoptr (GPtrArray) nodes = graft_match_dup_nodes (matches->pdata[m]);

      for (guint i = 0; i < nodes->len; i++)
        g_hash_table_add (replaced, nodes->pdata[i]);
    }
  rewrite = graft_rewriter_apply (graph, pattern, replacement, matches, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (graft_rewrite_get_n_replaced (rewrite), ==, matches->len);
  assert_lint (graph);
  for (GraftNode *n = graft_graph_get_first (graph); n != NULL; n = graft_node_get_next (n))
    g_assert_false (g_hash_table_contains (replaced, n));

  /* And undo brings back exactly the original. */
  graft_edit_undo (graft_rewrite_get_edit (rewrite));
  {
    g_autofree char *restored = graft_listing_print (graph);
    g_autoptr (GraftGraph) original = parse_listing (text);
    g_autofree char *expected = graft_listing_print (original);

    g_assert_cmpstr (restored, ==, expected);
  }
}

/* torch 2.6's rules (docs/dialects.md, sections 5 and 6), each against
 * torch 1.13.1's on the same input. ------------------------------------- */

/* How many matches @pattern_text (a listing) has in @graph_text. */
static guint
count_matches (GraftTorch  torch,
               const char *graph_text,
               const char *pattern_text,
               gboolean    ignore_literals,
               char      **out_json)
{
  g_autoptr (GraftGraph) graph = parse_listing_in (torch, graph_text);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPattern) pattern =
      graft_pattern_new (parse_listing_in (torch, pattern_text), &error);
  g_autoptr (GPtrArray) matches = NULL;
  GraftMatchOptions options;

  g_assert_no_error (error);
  graft_match_options_init (&options);
  options.ignore_literals = ignore_literals;
  matches = graft_matcher_find (pattern, graph, &options, NULL);
  if (out_json != NULL)
    *out_json = graft_matches_to_json (matches);
  return matches->len;
}

static void
assert_counts (const char *graph_text,
               const char *pattern_text,
               gboolean    ignore_literals,
               guint       in_2_6,
               guint       in_1_13)
{
  g_assert_cmpuint (count_matches (GRAFT_TORCH_2_6, graph_text, pattern_text, ignore_literals,
                                   NULL),
                    ==, in_2_6);
  g_assert_cmpuint (count_matches (GRAFT_TORCH_1_13, graph_text, pattern_text, ignore_literals,
                                   NULL),
                    ==, in_1_13);
}

/* Nestings with the same leaves match in 1.13.1 (flattened) only; a list
 * and a tuple of the same length match in both. */
static void
test_structured_args (void)
{
  static const char graph[] =
      "graph():\n"
      "    %x : [#users=1] = placeholder[target=x]\n"
      "    %y : [#users=1] = placeholder[target=y]\n"
      "    %z : [#users=1] = placeholder[target=z]\n"
      "    %f : [#users=1] = call_function[target=torch.f](args = ((%x, %y), %z), kwargs = {})\n"
      "    return f\n";
  static const char nested_other_way[] =
      "graph():\n"
      "    %a : [#users=1] = placeholder[target=a]\n"
      "    %b : [#users=1] = placeholder[target=b]\n"
      "    %c : [#users=1] = placeholder[target=c]\n"
      "    %f : [#users=1] = call_function[target=torch.f](args = (%a, (%b, %c)), kwargs = {})\n"
      "    return f\n";
  static const char as_lists[] =
      "graph():\n"
      "    %a : [#users=1] = placeholder[target=a]\n"
      "    %b : [#users=1] = placeholder[target=b]\n"
      "    %c : [#users=1] = placeholder[target=c]\n"
      "    %f : [#users=1] = call_function[target=torch.f](args = ([%a, %b], %c), kwargs = {})\n"
      "    return f\n";
  static const char shorter[] =
      "graph():\n"
      "    %a : [#users=1] = placeholder[target=a]\n"
      "    %c : [#users=1] = placeholder[target=c]\n"
      "    %f : [#users=1] = call_function[target=torch.f](args = ((%a,), %c), kwargs = {})\n"
      "    return f\n";

  assert_counts (graph, nested_other_way, FALSE, 0, 1);
  assert_counts (graph, as_lists, FALSE, 1, 1);
  assert_counts (graph, shorter, FALSE, 0, 0);
  /* ignore_literals does not make lengths agree. */
  assert_counts (graph, shorter, TRUE, 0, 0);
}

/* In 2.6 a placeholder facing a list binds the whole list. */
static void
test_placeholder_binds_container (void)
{
  static const char graph[] =
      "graph():\n"
      "    %x : [#users=1] = placeholder[target=x]\n"
      "    %y : [#users=1] = placeholder[target=y]\n"
      "    %cat : [#users=1] = call_function[target=torch.cat](args = ([%x, %y], 1), kwargs = {})\n"
      "    return cat\n";
  static const char pattern[] =
      "graph():\n"
      "    %xs : [#users=1] = placeholder[target=xs]\n"
      "    %cat : [#users=1] = call_function[target=torch.cat](args = (%xs, 1), kwargs = {})\n"
      "    return cat\n";
  g_autofree char *json = NULL;

  assert_counts (graph, pattern, FALSE, 1, 0);
  count_matches (GRAFT_TORCH_2_6, graph, pattern, FALSE, &json);
  g_assert_nonnull (strstr (json, "\"placeholder_nodes\": [{\"literal\": \"[x, y]\"}]"));
}

/* Keywords: 2.6 compares the keys in order, and a keyword holding nodes
 * is compared structurally (1.13.1 compared the lists with `==`). */
static void
test_kwargs (void)
{
  static const char graph[] =
      "graph():\n"
      "    %x : [#users=1] = placeholder[target=x]\n"
      "    %f : [#users=1] = call_function[target=torch.f](args = (%x,), kwargs = {a: 1, b: 2})\n"
      "    return f\n";
  static const char other_order[] =
      "graph():\n"
      "    %p : [#users=1] = placeholder[target=p]\n"
      "    %f : [#users=1] = call_function[target=torch.f](args = (%p,), kwargs = {b: 2, a: 1})\n"
      "    return f\n";
  static const char nodes_graph[] =
      "graph():\n"
      "    %x : [#users=1] = placeholder[target=x]\n"
      "    %y : [#users=1] = placeholder[target=y]\n"
      "    %f : [#users=1] = call_function[target=torch.f](args = (%x,), kwargs = {o: [%y]})\n"
      "    return f\n";
  static const char nodes_pattern[] =
      "graph():\n"
      "    %p : [#users=1] = placeholder[target=p]\n"
      "    %q : [#users=1] = placeholder[target=q]\n"
      "    %f : [#users=1] = call_function[target=torch.f](args = (%p,), kwargs = {o: [%q]})\n"
      "    return f\n";

  assert_counts (graph, other_order, FALSE, 0, 1);
  assert_counts (nodes_graph, nodes_pattern, FALSE, 1, 0);
}

/* 2.6's ignore_literals accepts whatever `_match_literals` refuses, a
 * literal against a node included; 1.13.1's (fx-reference's) only pairs of
 * literals. */
static void
test_ignore_literals (void)
{
  static const char graph[] =
      "graph():\n"
      "    %x : [#users=1] = placeholder[target=x]\n"
      "    %mul : [#users=1] = call_function[target=operator.mul](args = (%x, %x), kwargs = {})\n"
      "    %add : [#users=1] = call_function[target=operator.add](args = (%mul, 3), kwargs = {})\n"
      "    return add\n";
  static const char literal_for_node[] =
      "graph():\n"
      "    %p : [#users=1] = placeholder[target=p]\n"
      "    %mul : [#users=1] = call_function[target=operator.mul](args = (%p, 2), kwargs = {})\n"
      "    %add : [#users=1] = call_function[target=operator.add](args = (%mul, 2), kwargs = {})\n"
      "    return add\n";

  assert_counts (graph, literal_for_node, FALSE, 0, 0);
  assert_counts (graph, literal_for_node, TRUE, 1, 0);
}

/* aten operators: when the two calls differ in shape, 2.6 fills both out
 * from the operator's schema, so a positional pattern matches a keyword
 * call and a placeholder binds a default. */
static void
test_aten_schema (void)
{
  static const char graph[] =
      "graph():\n"
      "    %x : [#users=1] = placeholder[target=x]\n"
      "    %s : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList]"
      "(args = (%x, [0]), kwargs = {keepdim: True})\n"
      "    return s\n";
  static const char positional[] =
      "graph():\n"
      "    %x : [#users=1] = placeholder[target=x]\n"
      "    %s : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList]"
      "(args = (%x, [0], True), kwargs = {})\n"
      "    return s\n";
  static const char binds_default[] =
      "graph():\n"
      "    %x : [#users=1] = placeholder[target=x]\n"
      "    %d : [#users=1] = placeholder[target=d]\n"
      "    %s : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList]"
      "(args = (%x, [0], True), kwargs = {dtype: %d})\n"
      "    return s\n";
  static const char packet[] =
      "graph():\n"
      "    %x : [#users=1] = placeholder[target=x]\n"
      "    %s : [#users=1] = call_function[target=torch.ops.aten.sum]"
      "(args = (%x, [0]), kwargs = {keepdim: True})\n"
      "    return s\n";
  static const char packet_positional[] =
      "graph():\n"
      "    %x : [#users=1] = placeholder[target=x]\n"
      "    %s : [#users=1] = call_function[target=torch.ops.aten.sum]"
      "(args = (%x, [0], True), kwargs = {})\n"
      "    return s\n";
  g_autofree char *json = NULL;

  assert_counts (graph, positional, FALSE, 1, 0);
  assert_counts (graph, binds_default, FALSE, 1, 0);
  count_matches (GRAFT_TORCH_2_6, graph, binds_default, FALSE, &json);
  g_assert_nonnull (strstr (json, "\"d\": {\"literal\": \"None\"}"));
  /* An OpOverloadPacket has no schema: the shapes must agree. */
  assert_counts (packet, packet_positional, FALSE, 0, 0);
}

/* With ignore_literals, torch 2.6 accepts a pattern node against a constant
 * and leaves it unbound: a placeholder so left makes the search fail
 * (torch: KeyError), a call node the rewrite (KeyError erasing it).  1.13.1's
 * ignore_literals accepts no such pair: no match. */
static void
test_ignore_literals_unbound (void)
{
  static const char model[] =
      "import torch\n"
      "class M(torch.nn.Module):\n"
      "    def forward(self, x):\n"
      "        return torch.add(x, 2)\n"
      "class N(torch.nn.Module):\n"
      "    def forward(self, x):\n"
      "        return torch.add(2, x)\n"
      "class O(torch.nn.Module):\n"
      "    def forward(self, x):\n"
      "        return 2\n"
      "def pattern(x, y):\n"
      "    return torch.add(x, torch.neg(y))\n"
      "def pattern2(y):\n"
      "    return torch.add(torch.neg(y), y)\n"
      "def replacement(x, y):\n"
      "    return torch.sub(x, y)\n"
      "def replacement2(y):\n"
      "    return torch.sub(y, y)\n"
      "def pattern3(y):\n"
      "    return torch.neg(y)\n";
  static const struct
  {
    const char *graph, *pattern, *replacement, *error;
  } cases[] = {
    { "M", "pattern", "replacement", "KeyError: y" },
    { "N", "pattern2", "replacement2", "KeyError: neg" },
  };
  GraftMatchOptions options;

  graft_match_options_init (&options);
  options.ignore_literals = TRUE;
  /* With match_output too (the search's anchor is then the pattern's
   * output, which binds no node): the same failure, not a crash. */
  for (guint k = 0; k < 2 * G_N_ELEMENTS (cases); k++)
    for (guint t = 0; t < GRAFT_N_TORCHES; t++)
      {
        guint i = k % G_N_ELEMENTS (cases);
        g_autoptr (GraftGraph) graph = test_trace_in (t, model, cases[i].graph);
        g_autoptr (GraftGraph) replacement = test_trace_in (t, model, cases[i].replacement);
        g_autoptr (GError) error = NULL;
        g_autoptr (GraftPattern) pattern =
            graft_pattern_new (test_trace_in (t, model, cases[i].pattern), &error);
        g_autofree char *before = graft_listing_print (graph);
        g_autofree char *after = NULL;
        g_autoptr (GraftRewrite) rewrite = NULL;

        g_assert_no_error (error);
        options.match_output = k >= G_N_ELEMENTS (cases);
        rewrite = graft_replace_pattern (graph, pattern, replacement, &options, &error);
        after = graft_listing_print (graph);
        g_assert_cmpstr (after, ==, before);
        if (t == GRAFT_TORCH_1_13)
          {
            g_assert_no_error (error);
            g_assert_cmpuint (graft_rewrite_get_n_replaced (rewrite), ==, 0);
            continue;
          }
        g_assert_null (rewrite);
        g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE);
        g_assert_nonnull (strstr (error->message, cases[i].error));
      }

  /* match_output against a graph returning a constant: the pattern's
   * result and parameter both unbound, the match found at the output. */
  options.match_output = TRUE;
  {
    g_autoptr (GraftGraph) graph = test_trace_in (GRAFT_TORCH_2_6, model, "O");
    g_autoptr (GError) error = NULL;
    g_autoptr (GraftPattern) pattern =
        graft_pattern_new (test_trace_in (GRAFT_TORCH_2_6, model, "pattern3"), &error);
    g_autoptr (GPtrArray) matches = NULL;

    g_assert_no_error (error);
    matches = graft_matcher_find_full (pattern, graph, &options, NULL, &error);
    g_assert_null (matches);
    g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE);
    g_assert_nonnull (strstr (error->message, "match at output"));
    g_assert_nonnull (strstr (error->message, "KeyError: y"));
  }
}

static const char attr_model[] =
    "import torch\n"
    "class M(torch.nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.w = torch.nn.Parameter(torch.ones(3))\n"
    "        self.register_buffer('b', torch.ones(3))\n"
    "    def forward(self, x):\n"
    "        return (x * self.w) * self.b\n"
    "class ByParameter(torch.nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.weight = torch.nn.Parameter(torch.ones(3))\n"
    "    def forward(self, x):\n"
    "        return x * self.weight\n"
    "class ByBuffer(torch.nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.register_buffer('w', torch.ones(3))\n"
    "    def forward(self, x):\n"
    "        return x * self.w\n";

/* Where @pattern_entry of attr_model matches in M: the name of the node
 * it returns, "" for no match. */
static char *
attr_match (GraftTorch  torch,
            const char *pattern_entry)
{
  g_autoptr (GraftGraph) graph = test_trace_in (torch, attr_model, "M");
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPattern) pattern =
      graft_pattern_new (test_trace_in (torch, attr_model, pattern_entry), &error);
  g_autoptr (GPtrArray) matches = NULL;

  g_assert_no_error (error);
  matches = graft_matcher_find (pattern, graph, NULL, NULL);
  g_assert_cmpuint (matches->len, <=, 1);
  if (matches->len == 0)
    return g_strdup ("");
  return g_strdup (graft_node_get_name (graft_match_get_returning_node (matches->pdata[0], 0)));
}

/* get_attr nodes: by name in 1.13.1, by the kind of value in 2.6. */
static void
test_get_attr_by_value (void)
{
  g_autoptr (GraftGraph) graph = test_trace_in (GRAFT_TORCH_2_6, attr_model, "M");
  static const struct
  {
    GraftTorch  torch;
    const char *pattern;
    const char *where;
  } cases[] = {
    /* `weight` is a parameter, like `w` (not like the buffer `b`). */
    { GRAFT_TORCH_2_6, "ByParameter", "mul" },
    { GRAFT_TORCH_1_13, "ByParameter", "" },
    /* The buffer `w` is a tensor like `b`, not a parameter like `w`. */
    { GRAFT_TORCH_2_6, "ByBuffer", "mul_1" },
    { GRAFT_TORCH_1_13, "ByBuffer", "mul" },
  };

  g_assert_cmpint (graft_graph_get_attr_kind (graph, "w"), ==, GRAFT_ATTR_PARAMETER);
  g_assert_cmpint (graft_graph_get_attr_kind (graph, "b"), ==, GRAFT_ATTR_TENSOR);
  g_assert_cmpint (graft_graph_get_attr_kind (graph, "nope"), ==, GRAFT_ATTR_UNKNOWN);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *where = attr_match (cases[i].torch, cases[i].pattern);

      g_assert_cmpstr (where, ==, cases[i].where);
    }
}

/* A replacement parameter bound to a container takes it, in 2.6. */
static void
test_rewrite_bound_container (void)
{
  static const char model[] =
      "import torch\n"
      "import torch.fx\n"
      "def join(xs, d):\n"
      "    return torch.cat(xs, d)\n"
      "def stack(xs, d):\n"
      "    return torch.stack(xs, d)\n"
      "torch.fx.wrap('join')\n"
      "torch.fx.wrap('stack')\n"
      "class M(torch.nn.Module):\n"
      "    def forward(self, x, y):\n"
      "        return join([x, y], 1).relu()\n"
      "def pattern(xs):\n"
      "    return join(xs, 1)\n"
      "def replacement(xs):\n"
      "    return stack(xs, 1)\n";
  g_autoptr (GraftGraph) graph = test_trace_in (GRAFT_TORCH_2_6, model, "M");
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPattern) pattern =
      graft_pattern_new (test_trace_in (GRAFT_TORCH_2_6, model, "pattern"), &error);
  g_autoptr (GraftGraph) replacement = test_trace_in (GRAFT_TORCH_2_6, model, "replacement");
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autofree char *code = NULL;

  g_assert_no_error (error);
  rewrite = graft_replace_pattern (graph, pattern, replacement, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (graft_rewrite_get_n_replaced (rewrite), ==, 1);
  assert_lint (graph);
  code = graft_codegen_python (graph);
  g_assert_nonnull (strstr (code, "stack = test_stack([x, y], 1);  x = y = None"));
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The names of the nodes @changes gives @change, sorted. */
static char *
changed_names (GHashTable *changes,
               GraftChange change)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer       node;
  gpointer       value;

  g_hash_table_iter_init (&iter, changes);
  while (g_hash_table_iter_next (&iter, &node, &value))
    if (GPOINTER_TO_INT (value) == (gint) change)
      g_ptr_array_add (names, (gpointer) graft_node_get_name (node));
  g_ptr_array_sort (names, compare_strings);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

/* What a rewrite did, node by node: the matched nodes removed, the
 * replacement's nodes added (those the rewrite reports), the users of the
 * matches' outputs rewired; the same after an undo and a redo, which keep
 * the nodes. */
static void
test_edit_changes (void)
{
  g_autoptr (GraftGraph) graph = trace (seed_model, "M");
  g_autoptr (GraftPattern) pattern = make_pattern ("pattern");
  g_autoptr (GraftGraph) replacement = trace (seed_model, "replacement");
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftRewrite) rewrite =
      graft_replace_pattern (graph, pattern, replacement, NULL, &error);
  GraftEdit *edit;

  g_assert_no_error (error);
  edit = graft_rewrite_get_edit (rewrite);
  for (guint round = 0; round < 2; round++)
    {
      g_autoptr (GHashTable) changes = graft_edit_dup_changes (edit);
      g_autofree char *removed = changed_names (changes, GRAFT_CHANGE_REMOVED);
      g_autofree char *added = changed_names (changes, GRAFT_CHANGE_ADDED);
      g_autofree char *rewired = changed_names (changes, GRAFT_CHANGE_REWIRED);
      GPtrArray       *reported = graft_rewrite_get_added_nodes (rewrite);

      g_assert_cmpstr (removed, ==, "cat cat_1 neg neg_1 sum_1 sum_2");
      g_assert_cmpstr (added, ==, "stack stack_1");
      g_assert_cmpstr (rewired, ==, "max_1 max_2");
      g_assert_cmpuint (g_hash_table_size (changes), ==, 10);
      for (guint i = 0; i < reported->len; i++)
        g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (changes, reported->pdata[i])), ==,
                         GRAFT_CHANGE_ADDED);
      /* The same table read by steps (graft_edit_add_changes()). */
      for (guint work = 1; work <= 3; work++)
        {
          g_autoptr (GHashTable) stepped = g_hash_table_new (NULL, NULL);
          GHashTableIter iter;
          gpointer       node;
          gpointer       change;
          guint          from = 0;
          guint          n_steps = 0;

          while (from < graft_edit_get_n_operations (edit))
            {
              guint next = graft_edit_add_changes (edit, stepped, from, work);

              g_assert_cmpuint (next, ==, MIN (from + work, graft_edit_get_n_operations (edit)));
              from = next;
              n_steps++;
            }
          g_assert_cmpuint (n_steps, ==, (graft_edit_get_n_operations (edit) + work - 1) / work);
          g_assert_cmpuint (g_hash_table_size (stepped), ==, g_hash_table_size (changes));
          g_hash_table_iter_init (&iter, changes);
          while (g_hash_table_iter_next (&iter, &node, &change))
            {
              gpointer got = NULL;

              g_assert_true (g_hash_table_lookup_extended (stepped, node, NULL, &got));
              g_assert_cmpint (GPOINTER_TO_INT (got), ==, GPOINTER_TO_INT (change));
            }
          g_assert_cmpuint (graft_edit_add_changes (edit, stepped, from, work), ==, from);
        }
      graft_edit_undo (edit);
      graft_edit_redo (edit);
    }
}

/* Overlap claims and the cycle walk (tests/data/rewrite/overlap_claim_*.py,
 * whose expected files torch wrote): the second match's cycle check walks
 * through the first match, whose claims must outlive it, so that the third
 * match, which shares relu_1 with the first, is dropped as torch drops it.
 * Claims live in node marks without a caller's filter and in a set with
 * one: both ways must agree.  A filter runs after the overlap filter, so a
 * match it drops still claims its nodes (torch 2.6's
 * replace_pattern_with_filters gives 1 match with the filter below).
 * Without remove_overlapping_matches all three are kept (torch's
 * SubgraphMatcher gives 3). */
static const char claims_model[] =
    "import torch\n"
    "class M(torch.nn.Module):\n"
    "    def forward(self, x):\n"
    "        r = x.relu()\n"
    "        c = r.relu()\n"
    "        s = c.sigmoid()\n"
    "        t = r.sigmoid()\n"
    "        u = c.sigmoid()\n"
    "        return s, t, u\n"
    "def pattern(x):\n"
    "    a = x.relu()\n"
    "    return a, a.sigmoid()\n";

static gboolean
keep_all_cb (const GraftMatch *match,
             GraftGraph       *graph,
             gpointer          user_data)
{
  return TRUE;
}

static gboolean
drop_at_sigmoid_cb (const GraftMatch *match,
                    GraftGraph       *graph,
                    gpointer          user_data)
{
  return g_strcmp0 (graft_node_get_name (graft_match_get_returning_node (match, 1)), "sigmoid") !=
         0;
}

/* "KEPT ... | DROPPED:REASON ...", each match named by its sigmoid, in the
 * matcher's order. */
static char *
describe_claims (GraftTorch               torch,
                 const GraftMatchOptions *options)
{
  g_autoptr (GraftGraph) graph = test_trace_in (torch, claims_model, "M");
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPattern) pattern =
      graft_pattern_new (test_trace_in (torch, claims_model, "pattern"), &error);
  g_autoptr (GPtrArray) dropped = NULL;
  g_autoptr (GPtrArray) kept = NULL;
  GString                 *out = g_string_new (NULL);
  static const char *const reasons[] = { "kept", "leak", "cycle", "overlap", "filter" };

  G_STATIC_ASSERT (G_N_ELEMENTS (reasons) == GRAFT_MATCH_DROPPED_FILTER + 1);
  g_assert_no_error (error);
  kept = graft_matcher_find (pattern, graph, options, &dropped);
  for (guint i = 0; i < kept->len; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? " " : "",
                            graft_node_get_name (
                                graft_match_get_returning_node (kept->pdata[i], 1)));
  g_string_append (out, " |");
  for (guint i = 0; i < dropped->len; i++)
    g_string_append_printf (
        out, " %s:%s", graft_node_get_name (graft_match_get_returning_node (dropped->pdata[i], 1)),
        reasons[graft_match_get_drop_reason (dropped->pdata[i])]);
  return g_string_free (out, FALSE);
}

static void
test_overlap_claims (gconstpointer data)
{
  GraftTorch        torch = GPOINTER_TO_INT (data);
  GraftMatchOptions options;
  g_autofree char  *plain = NULL;
  g_autofree char  *keep_all = NULL;
  g_autofree char  *drop_first = NULL;
  g_autofree char  *all = NULL;

  graft_match_options_init (&options);
  plain = describe_claims (torch, &options);
  g_assert_cmpstr (plain, ==, "sigmoid sigmoid_1 | sigmoid_2:overlap");

  options.filter = keep_all_cb;
  keep_all = describe_claims (torch, &options);
  g_assert_cmpstr (keep_all, ==, plain);

  options.filter = drop_at_sigmoid_cb;
  drop_first = describe_claims (torch, &options);
  g_assert_cmpstr (drop_first, ==, "sigmoid_1 | sigmoid:filter sigmoid_2:overlap");

  graft_match_options_init (&options);
  options.remove_overlapping_matches = FALSE;
  all = describe_claims (torch, &options);
  g_assert_cmpstr (all, ==, "sigmoid sigmoid_1 sigmoid_2 |");
}

/* The cycle check walks from a match's outside users only as far as the
 * match's last node when the graph's order is topological.  Here `neg`
 * reads the pattern's `relu` and feeds its `add`: replacing the match
 * would make a cycle, whatever the order.  Moved after `add` (the order no
 * longer topological), `neg` lies beyond the match's last node, and the
 * walk must go on through it to find the cycle. */
static const char cycle_model[] =
    "import torch\n"
    "class M(torch.nn.Module):\n"
    "    def forward(self, x):\n"
    "        a = x.relu()\n"
    "        y = a.neg()\n"
    "        return a.add(y)\n"
    "def pattern(x, z):\n"
    "    a = x.relu()\n"
    "    return a, a.add(z)\n";

static void
test_cycle_out_of_order (gconstpointer data)
{
  GraftTorch torch = GPOINTER_TO_INT (data);
  g_autoptr (GraftGraph) graph = test_trace_in (torch, cycle_model, "M");
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPattern) pattern =
      graft_pattern_new (test_trace_in (torch, cycle_model, "pattern"), &error);
  GraftNode *neg = graft_graph_find_node (graph, "neg");
  GraftNode *add = graft_graph_find_node (graph, "add");

  g_assert_no_error (error);
  for (guint round = 0; round < 2; round++)
    {
      g_autoptr (GPtrArray) dropped = NULL;
      g_autoptr (GPtrArray) kept = graft_matcher_find (pattern, graph, NULL, &dropped);

      g_assert_cmpuint (kept->len, ==, 0);
      g_assert_cmpuint (dropped->len, ==, 1);
      g_assert_cmpint (graft_match_get_drop_reason (dropped->pdata[0]), ==,
                       GRAFT_MATCH_DROPPED_CYCLE);
      /* Then again with `neg` after `add`, which reads it. */
      graft_graph_move_before (graph, neg, graft_graph_get_output (graph));
      g_assert_cmpint (graft_node_compare_order (neg, add), >, 0);
    }
}

/* Many matches of a replacement of several nodes: the copies' list grows
 * past its first slots (before, matches times templates sized it, which
 * wraps for 65,536 matches of a 65,537-node replacement). */
static void
test_many_copies (void)
{
  g_autoptr (GString) code =
      g_string_new ("import torch\nclass M(torch.nn.Module):\n"
                    "    def forward(self, x):\n        y0 = torch.neg(x)\n");
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftGraph) replacement = NULL;
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GPtrArray) matches = NULL;
  g_autoptr (GError) error = NULL;
  GraftRewrite *rewrite;
  GPtrArray    *added;
  const guint   n = 1500;

  for (guint i = 1; i < n; i++)
    g_string_append_printf (code, "        y%u = torch.neg(y%u)\n", i, i - 1);
  g_string_append_printf (code, "        return y%u\n", n - 1);
  g_string_append (code, "def pattern(a):\n    return torch.neg(a)\n"
                         "def replacement(a):\n"
                         "    return torch.relu(torch.relu(torch.relu(a)))\n");
  graph = trace (code->str, "M");
  pattern = graft_pattern_new (trace (code->str, "pattern"), &error);
  g_assert_no_error (error);
  replacement = trace (code->str, "replacement");
  matches = graft_matcher_find (pattern, graph, NULL, NULL);
  g_assert_cmpuint (matches->len, ==, n);
  rewrite = graft_rewriter_apply (graph, pattern, replacement, matches, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (graft_rewrite_get_n_replaced (rewrite), ==, n);
  added = graft_rewrite_get_added_nodes (rewrite);
  g_assert_cmpuint (added->len, ==, 3 * n);
  for (guint i = 0; i < added->len; i++)
    {
      g_assert_nonnull (added->pdata[i]);
      g_assert_cmpstr (graft_node_get_target (added->pdata[i]), ==, "torch.relu");
    }
  g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, 3 * n + 2);
  assert_lint (graph);
  graft_rewrite_free (rewrite);
}

/* A chain of @n distinct functions, twice in the model: the pattern has
 * @n targets (the matcher compares a node's target with each when they
 * are few, else through a map), and one target no graph node has. */
static const char *const chain_functions[] = {
  "neg",
  "relu",
  "tanh",
  "sigmoid",
  "exp",
  "abs",
  "sin",
  "cos",
  "floor",
  "ceil",
};

static char *
chain_model (guint n)
{
  GString *text = g_string_new ("import torch\n"
                                "class M(torch.nn.Module):\n"
                                "    def forward(self, x):\n");

  for (guint twice = 0; twice < 2; twice++)
    for (guint i = 0; i < n; i++)
      g_string_append_printf (text, "        x = torch.%s(x)\n", chain_functions[i]);
  g_string_append (text, "        return x\n"
                         "def pattern(a):\n");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "    a = torch.%s(a)\n", chain_functions[i]);
  g_string_append (text, "    return a\n"
                         "def absent(a):\n"
                         "    return torch.erf(torch.neg(a))\n");
  return g_string_free (text, FALSE);
}

static void
test_many_targets (void)
{
  for (guint n = 2; n <= G_N_ELEMENTS (chain_functions); n++)
    for (GraftTorch torch = 0; torch < GRAFT_N_TORCHES; torch++)
      {
        g_autofree char *model = chain_model (n);
        g_autoptr (GraftGraph) graph = test_trace_in (torch, model, "M");
        g_autoptr (GError) error = NULL;
        g_autoptr (GraftPattern) pattern =
            graft_pattern_new (test_trace_in (torch, model, "pattern"), &error);
        g_autoptr (GraftPattern) absent =
            graft_pattern_new (test_trace_in (torch, model, "absent"), &error);
        g_autoptr (GPtrArray) matches = NULL;
        g_autoptr (GPtrArray) none = NULL;

        g_assert_no_error (error);
        matches = graft_matcher_find (pattern, graph, NULL, NULL);
        g_assert_cmpuint (matches->len, ==, 2);
        none = graft_matcher_find (absent, graph, NULL, NULL);
        g_assert_cmpuint (none->len, ==, 0);
      }
}

/* Every node's users, in order, by name. */
static char *
users_text (GraftGraph *graph)
{
  GString *out = g_string_new (NULL);

  for (GraftNode *n = graft_graph_get_first (graph); n != NULL; n = graft_node_get_next (n))
    {
      g_string_append_printf (out, "%s:", graft_node_get_name (n));
      for (guint u = 0; u < graft_node_get_n_users (n); u++)
        g_string_append_printf (out, " %s", graft_node_get_name (graft_node_get_user (n, u)));
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

/* The two graphs hold the same nodes with the same users lists, in the
 * same order, and print the same JSON. */
static void
assert_same_users (GraftGraph *graph,
                   GraftGraph *eager)
{
  g_autofree char *users = users_text (graph);
  g_autofree char *eager_users = users_text (eager);
  g_autofree char *json = graft_json_graph (graph);
  g_autofree char *eager_json = graft_json_graph (eager);

  g_assert_cmpstr (users, ==, eager_users);
  g_assert_cmpstr (json, ==, eager_json);
  assert_lint (graph);
}

/* What the users lists of @graph are now, as text and as JSON (its
 * `"users"`), for comparing with them later. */
typedef struct
{
  char *users;
  char *json;
} UsersState;

static void
users_state_take (UsersState *state,
                  GraftGraph *graph)
{
  state->users = users_text (graph);
  state->json = graft_json_graph (graph);
}

static void
users_state_clear (UsersState *state)
{
  g_clear_pointer (&state->users, g_free);
  g_clear_pointer (&state->json, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (UsersState, users_state_clear)

/* @graph's users lists are, in order, those of @state. */
static void
assert_users_as (GraftGraph       *graph,
                 const UsersState *state)
{
  g_autofree char *users = users_text (graph);
  g_autofree char *json = graft_json_graph (graph);

  g_assert_cmpstr (users, ==, state->users);
  g_assert_cmpstr (json, ==, state->json);
  assert_lint (graph);
}

/* Undo of @edit, just made on @graph whose users were @before, gives
 * every node its users in the order they had before; redo the order the
 * edit left; and again, twice. */
static void
assert_undo_keeps_users (GraftGraph       *graph,
                         GraftEdit        *edit,
                         const UsersState *before)
{
  g_auto (UsersState) after = { 0 };

  users_state_take (&after, graph);
  for (guint k = 0; k < 2; k++)
    {
      graft_edit_undo (edit);
      assert_users_as (graph, before);
      graft_edit_redo (edit);
      assert_users_as (graph, &after);
    }
}

/* A rewrite defers taking erased users out of long users lists (busy
 * inputs): each list ends as removing them at once leaves it (each gap
 * taken by the list's last user), through the rewrite, its undo and its
 * redo; undo gives every list its order before the rewrite, redo the
 * rewrite's.  Random graphs whose inputs have 13 to 50 users, the same
 * rewrite on a twin graph that never defers. */
static void
test_deferred_users (gconstpointer data)
{
  guint seed = GPOINTER_TO_UINT (data);
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  g_autofree char *text = random_listing_busy (rand, 80 + seed % 120, 2 + seed % 3, TRUE);
  g_autoptr (GraftGraph) graph = parse_listing (text);
  g_autoptr (GraftGraph) eager = parse_listing (text);
  guint            target = g_rand_int_range (rand, 10, graft_graph_get_n_nodes (graph) - 1);
  GraftNode       *anchor = graft_graph_get_first (graph);
  g_autofree char *ptext = NULL;
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GPtrArray) matches = NULL;
  g_autoptr (GPtrArray) eager_matches = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autoptr (GraftRewrite) eager_rewrite = NULL;
  g_autoptr (GString) rtext = g_string_new ("graph():\n");
  g_autoptr (GraftGraph) replacement = NULL;
  g_auto (UsersState) before = { 0 };
  guint n_params;

  _graft_graph_set_never_defer (eager, TRUE);
  for (guint i = 0; i < target; i++)
    anchor = graft_node_get_next (anchor);
  while (graft_node_get_op (anchor) == GRAFT_OP_PLACEHOLDER)
    anchor = graft_node_get_next (anchor);
  if (graft_node_get_op (anchor) == GRAFT_OP_OUTPUT)
    anchor = graft_node_get_prev (anchor);
  ptext = pattern_listing (anchor, seed % 3, seed % 2 == 1);
  pattern = graft_pattern_new (parse_listing (ptext), &error);
  g_assert_no_error (error);
  matches = graft_matcher_find (pattern, graph, NULL, NULL);
  eager_matches = graft_matcher_find (pattern, eager, NULL, NULL);
  g_assert_cmpuint (matches->len, ==, eager_matches->len);

  /* The copy reads the first parameter and, through a second node, the
   * last; or, for every third seed, none (the users of the inputs are
   * then only taken out and moved, never added). */
  n_params = graft_pattern_get_n_placeholders (pattern);
  for (guint i = 0; i < n_params; i++)
    g_string_append_printf (rtext, "    %%p%u : [#users=%u] = placeholder[target=p%u]\n", i,
                            seed % 3 == 0                 ? 0
                            : i == 0 || i == n_params - 1 ? 1 + (n_params == 1)
                                                          : 0,
                            i);
  if (seed % 3 == 0)
    g_string_append (rtext, "    %r : [#users=1] = call_function[target=torch.randn](args = "
                            "(3,), kwargs = {})\n"
                            "    %s : [#users=1] = call_method[target=neg](args = (%r,), kwargs = "
                            "{})\n");
  else
    {
      g_string_append (rtext, "    %r : [#users=1] = call_method[target=neg](args = (%p0,), "
                              "kwargs = {})\n");
      g_string_append_printf (rtext,
                              "    %%s : [#users=1] = call_function[target=operator.add](args = "
                              "(%%r, %%p%u), kwargs = {})\n",
                              n_params - 1);
    }
  g_string_append (rtext, graft_pattern_get_n_returning (pattern) == 2 ? "    return (s, s)\n"
                                                                       : "    return s\n");
  replacement = parse_listing (rtext->str);
  g_test_message ("seed %u: %u nodes, pattern of %u, %u matches", seed,
                  graft_graph_get_n_nodes (graph), graft_pattern_get_n_nodes (pattern),
                  matches->len);

  users_state_take (&before, graph);
  rewrite = graft_rewriter_apply (graph, pattern, replacement, matches, &error);
  g_assert_no_error (error);
  eager_rewrite = graft_rewriter_apply (eager, pattern, replacement, eager_matches, &error);
  g_assert_no_error (error);
  assert_same_users (graph, eager);
  graft_edit_undo (graft_rewrite_get_edit (rewrite));
  graft_edit_undo (graft_rewrite_get_edit (eager_rewrite));
  assert_same_users (graph, eager);
  assert_users_as (graph, &before);
  graft_edit_redo (graft_rewrite_get_edit (rewrite));
  graft_edit_redo (graft_rewrite_get_edit (eager_rewrite));
  assert_same_users (graph, eager);
  assert_undo_keeps_users (graph, graft_rewrite_get_edit (rewrite), &before);
  assert_undo_keeps_users (eager, graft_rewrite_get_edit (eager_rewrite), &before);
}

/* A module whose forward runs @n_blocks blocks on its inputs `x` and `w`
 * (@block, each `{i}` its number, adding to `s`), then @tail (its return,
 * `pattern` and `replacement`), traced in @torch: a graph that defers
 * removals from long users lists and a twin that never does, with the
 * pattern and the replacement. */
typedef struct
{
  GraftGraph   *graph;
  GraftGraph   *eager;
  GraftGraph   *replacement;
  GraftPattern *pattern;
} DeferredCase;

static void
deferred_case_init (DeferredCase *c,
                    GraftTorch    torch,
                    guint         n_blocks,
                    const char   *block,
                    const char   *tail)
{
  g_autoptr (GString) text = g_string_new ("import torch\n"
                                           "class M(torch.nn.Module):\n"
                                           "    def forward(self, x, w):\n"
                                           "        s = x\n");
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < n_blocks; i++)
    {
      g_autoptr (GString) one = g_string_new (block);
      g_autofree char *number = g_strdup_printf ("%u", i);

      g_string_replace (one, "{i}", number, 0);
      g_string_append (text, one->str);
    }
  g_string_append (text, tail);
  c->graph = test_trace_in (torch, text->str, "M");
  c->eager = test_trace_in (torch, text->str, "M");
  _graft_graph_set_never_defer (c->eager, TRUE);
  c->replacement = test_trace_in (torch, text->str, "replacement");
  c->pattern = graft_pattern_new (test_trace_in (torch, text->str, "pattern"), &error);
  g_assert_no_error (error);
}

static void
deferred_case_clear (DeferredCase *c)
{
  g_clear_pointer (&c->graph, graft_graph_free);
  g_clear_pointer (&c->eager, graft_graph_free);
  g_clear_pointer (&c->replacement, graft_graph_free);
  g_clear_pointer (&c->pattern, graft_pattern_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DeferredCase, deferred_case_clear)

/* A rewrite that fails after earlier matches deferred removals from a
 * busy input's list is rolled back to the same lists as one that removed
 * them at once: the lists as they were before it, in order. */
static void
test_deferred_users_rollback (void)
{
  g_auto (DeferredCase) c = { 0 };
  g_autoptr (GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_auto (UsersState) users_before = { 0 };

  deferred_case_init (&c, GRAFT_TORCH_1_13, 24,
                      "        n{i} = torch.neg(w)\n"
                      "        m{i} = n{i} * w\n"
                      "        t{i} = torch.tanh(w)\n"
                      "        s = s + m{i} + t{i}\n",
                      "        return s\n"
                      "def pattern(a):\n"
                      "    n = torch.neg(a)\n"
                      "    return n * a\n"
                      "def replacement(a):\n"
                      "    return torch.relu(a) + a\n");
  for (guint k = 0; k < 2; k++)
    {
      GraftGraph *g = k == 0 ? c.graph : c.eager;
      g_autoptr (GPtrArray) matches = graft_matcher_find (c.pattern, g, NULL, NULL);
      GraftNode *inner = graft_graph_find_node (g, "neg_23");
      GraftArg   args;

      g_assert_cmpuint (matches->len, ==, 24);
      /* The last match's inner node gains a user outside it. */
      g_assert_nonnull (inner);
      graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
      graft_arg_init_node (&args.items[0], inner);
      graft_graph_create_node (g, GRAFT_OP_CALL_FUNCTION, "torch.relu", &args, NULL, NULL,
                               graft_graph_get_output (g));
      if (k == 0)
        {
          before = graft_listing_print (g);
          users_state_take (&users_before, g);
        }
      g_assert_null (graft_rewriter_apply (g, c.pattern, c.replacement, matches, &error));
      g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE);
      g_assert_nonnull (strstr (error->message, "cannot replace match 24: "));
      g_clear_error (&error);
    }
  after = graft_listing_print (c.graph);
  g_assert_cmpstr (after, ==, before);
  assert_same_users (c.graph, c.eager);
  assert_users_as (c.graph, &users_before);
}

/* A user of a busy input that is last in its list as stored, but no
 * longer once earlier departures filled their gaps with it, moves to the
 * end when a value it reads is replaced (torch's `_replace_input_with`
 * takes it out of every input's users and adds it back). */
static void
test_deferred_users_moved_last (gconstpointer data)
{
  g_auto (DeferredCase) c = { 0 };
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autoptr (GraftRewrite) eager_rewrite = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (UsersState) before = { 0 };

  deferred_case_init (&c, GPOINTER_TO_INT (data), 19,
                      "        n{i} = torch.neg(w)\n"
                      "        t{i} = torch.tanh(w)\n"
                      "        s = s + n{i} + t{i}\n",
                      "        m = torch.neg(x)\n"
                      "        u = m + w\n"
                      "        return s + u\n"
                      "def pattern(a):\n"
                      "    return torch.neg(a)\n"
                      "def replacement(a):\n"
                      "    return torch.ones(2)\n");
  users_state_take (&before, c.graph);
  rewrite = graft_replace_pattern (c.graph, c.pattern, c.replacement, NULL, &error);
  g_assert_no_error (error);
  eager_rewrite = graft_replace_pattern (c.eager, c.pattern, c.replacement, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (graft_rewrite_get_n_replaced (rewrite), ==, 20);
  assert_same_users (c.graph, c.eager);
  graft_edit_undo (graft_rewrite_get_edit (rewrite));
  graft_edit_undo (graft_rewrite_get_edit (eager_rewrite));
  assert_same_users (c.graph, c.eager);
  graft_edit_redo (graft_rewrite_get_edit (rewrite));
  graft_edit_redo (graft_rewrite_get_edit (eager_rewrite));
  assert_same_users (c.graph, c.eager);
  assert_undo_keeps_users (c.graph, graft_rewrite_get_edit (rewrite), &before);
}

/* An input read by ten nodes, each replaced by two that read it: its
 * users list grows past USER_INDEX_THRESHOLD (16) during the rewrite and
 * gets an index.  The first erased readers leave it while it has none
 * (the users after them shift back, as torch's dict keeps its order),
 * the later ones once it has one (deferred: the last user fills the
 * gap).  Undo gives the list its order before (the traced one, torch's),
 * without the index, so that a redo removes users as the rewrite did;
 * the short lists of the replaced values too. */
static void
test_users_index_made (gconstpointer data)
{
  g_auto (DeferredCase) c = { 0 };
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autoptr (GraftRewrite) eager_rewrite = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (UsersState) before = { 0 };
  g_autoptr (GString) traced = g_string_new ("w:");
  g_autofree char *users = NULL;

  deferred_case_init (&c, GPOINTER_TO_INT (data), 10,
                      "        n{i} = torch.neg(w)\n"
                      "        s = s + n{i} * x\n",
                      "        return s\n"
                      "def pattern(a):\n"
                      "    return torch.neg(a)\n"
                      "def replacement(a):\n"
                      "    return torch.relu(a) * torch.sigmoid(a)\n");
  for (guint i = 0; i < 10; i++)
    g_string_append_printf (traced, i == 0 ? " neg" : " neg_%u", i);
  g_string_append_c (traced, '\n');
  users_state_take (&before, c.graph);
  g_assert_nonnull (strstr (before.users, traced->str));
  rewrite = graft_replace_pattern (c.graph, c.pattern, c.replacement, NULL, &error);
  g_assert_no_error (error);
  eager_rewrite = graft_replace_pattern (c.eager, c.pattern, c.replacement, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (graft_rewrite_get_n_replaced (rewrite), ==, 10);
  g_assert_cmpuint (graft_node_get_n_users (graft_graph_find_node (c.graph, "w")), ==, 20);
  assert_same_users (c.graph, c.eager);
  assert_undo_keeps_users (c.graph, graft_rewrite_get_edit (rewrite), &before);
  assert_undo_keeps_users (c.eager, graft_rewrite_get_edit (eager_rewrite), &before);
  graft_edit_undo (graft_rewrite_get_edit (rewrite));
  users = users_text (c.graph);
  g_assert_nonnull (strstr (users, traced->str));
  graft_edit_redo (graft_rewrite_get_edit (rewrite));
  assert_same_users (c.graph, c.eager);
}

static const char literal_model[] =
    "import torch\n"
    "class M(torch.nn.Module):\n"
    "    def forward(self, x):\n"
    "        a = torch.add(x, 2)\n"
    "        b = torch.add(a, 3)\n"
    "        return a.sigmoid() + b.sigmoid()\n"
    "def pattern(p, k):\n"
    "    return torch.add(p, k)\n"
    "def to_method(p, k):\n"
    "    return k.exp()\n"
    "def to_mul(p, k):\n"
    "    return torch.mul(p, k)\n"
    "def pattern_pair(p, k):\n"
    "    y = torch.add(p, k)\n"
    "    return y, y.neg()\n"
    "def to_literal(p, k):\n"
    "    return k, p.relu()\n";

/* pattern_pair's: to_literal puts 2 where y was used, `2.sigmoid()`. */
static const char pair_model[] =
    "import torch\n"
    "class M(torch.nn.Module):\n"
    "    def forward(self, x):\n"
    "        y = torch.add(x, 2)\n"
    "        z = y.neg()\n"
    "        return y.sigmoid(), z.tanh()\n";

/* graft_rewrite_job_set_checked(): the same rewrite, checked whole or
 * (the graph before passing) only what it added. */
static GraftRewrite *
rewrite_checked (GraftGraph *graph,
                 const char *replacement_entry,
                 gboolean    checked,
                 GError    **error)
{
  const char *pattern_entry = strcmp (replacement_entry, "to_literal") == 0 ? "pattern_pair"
                                                                            : "pattern";
  g_autoptr (GError) pattern_error = NULL;
  g_autoptr (GraftPattern) pattern =
      graft_pattern_new (trace (literal_model, pattern_entry), &pattern_error);
  g_autoptr (GraftGraph) replacement = trace (literal_model, replacement_entry);
  g_autoptr (GPtrArray) matches = NULL;
  g_autoptr (GraftRewriteJob) job = NULL;

  g_assert_no_error (pattern_error);
  matches = graft_matcher_find (pattern, graph, NULL, NULL);
  g_assert_cmpuint (matches->len, >=, 1);
  job = graft_rewrite_job_new (graph, pattern, replacement, matches);
  graft_rewrite_job_set_checked (job, checked);
  /* By steps of one: the added nodes are checked in steps too. */
  while (!graft_rewrite_job_step (job, 1))
    ;
  return graft_rewrite_job_finish (job, error);
}

/* A rewrite of a graph known to pass the rewriter's own check (an int
 * literal before a dot: `2.exp()`) checks only the nodes it adds, unless
 * it puts a literal where a value was used: the answer and the error the
 * same as the walk of the whole graph's, whose cost (8-12 ms at a million
 * nodes) the editor's Replace no longer pays. */
static void
test_checked_added (void)
{
  const char *const entries[] = { "to_method", "to_literal" };

  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      g_autoptr (GraftGraph) graph = trace (i == 0 ? literal_model : pair_model, "M");
      g_autoptr (GError) whole_error = NULL;
      g_autoptr (GError) error = NULL;
      g_autofree char *before = graft_listing_print (graph);

      for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
           node = graft_node_get_next (node))
        g_assert_true (graft_rewriter_check_node (node, NULL));
      g_assert_null (rewrite_checked (graph, entries[i], FALSE, &whole_error));
      g_assert_error (whole_error, GRAFT_ERROR, GRAFT_ERROR_REWRITE);
      g_assert_null (rewrite_checked (graph, entries[i], TRUE, &error));
      g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE);
      g_assert_cmpstr (error->message, ==, whole_error->message);
      g_assert_nonnull (strstr (error->message, "the rewritten code does not compile"));
      {
        g_autofree char *after = graft_listing_print (graph);

        g_assert_cmpstr (after, ==, before);
      }
    }
  /* The two copies of `k.exp()` fail: the first in graph order is named. */
  {
    g_autoptr (GraftGraph) graph = trace (literal_model, "M");
    g_autoptr (GError) error = NULL;

    g_assert_null (rewrite_checked (graph, "to_method", TRUE, &error));
    g_assert_nonnull (strstr (error->message, "exp would be `2.exp`"));
  }
  /* Trusted: a node of the graph before that fails the check fails the
   * whole walk, not the rewrite told the graph passes. */
  {
    g_autoptr (GraftGraph) graph = trace (literal_model, "M");
    g_autoptr (GraftRewrite) rewrite = NULL;
    g_autoptr (GError) node_error = NULL;
    g_autoptr (GError) error = NULL;
    GraftNode *bad;
    GraftArg   args;

    graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
    graft_arg_init_int (&args.items[0], 7);
    bad = graft_graph_create_node (graph, GRAFT_OP_CALL_METHOD, "neg", &args, NULL, NULL,
                                   graft_graph_get_output (graph));
    g_assert_false (graft_rewriter_check_node (bad, &node_error));
    g_assert_error (node_error, GRAFT_ERROR, GRAFT_ERROR_REWRITE);
    g_assert_nonnull (strstr (node_error->message, "would be `7.neg`"));
    g_assert_null (rewrite_checked (graph, "to_mul", FALSE, &error));
    g_assert_cmpstr (error->message, ==, node_error->message);
    g_clear_error (&error);
    rewrite = rewrite_checked (graph, "to_mul", TRUE, &error);
    g_assert_no_error (error);
    g_assert_nonnull (rewrite);
    g_assert_cmpuint (graft_rewrite_get_n_replaced (rewrite), ==, 2);
  }
}

int
main (int    argc,
      char **argv)
{
  static const guint claim_seeds[] = { 319, 1087, 1321 };

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/rewrite/checked-added", test_checked_added);
  g_test_add_data_func ("/core/rewrite/undo-redo/torch2.6", GINT_TO_POINTER (GRAFT_TORCH_2_6),
                        test_undo_redo);
  g_test_add_data_func ("/core/rewrite/undo-redo/torch1.13", GINT_TO_POINTER (GRAFT_TORCH_1_13),
                        test_undo_redo);
  g_test_add_func ("/core/rewrite/torch2.6/structured-args", test_structured_args);
  g_test_add_func ("/core/rewrite/many-targets", test_many_targets);
  g_test_add_func ("/core/rewrite/torch2.6/placeholder-binds-container",
                   test_placeholder_binds_container);
  g_test_add_func ("/core/rewrite/torch2.6/kwargs", test_kwargs);
  g_test_add_func ("/core/rewrite/torch2.6/ignore-literals", test_ignore_literals);
  g_test_add_func ("/core/rewrite/torch2.6/ignore-literals-unbound", test_ignore_literals_unbound);
  g_test_add_func ("/core/rewrite/torch2.6/aten-schema", test_aten_schema);
  g_test_add_func ("/core/rewrite/torch2.6/get-attr-by-value", test_get_attr_by_value);
  g_test_add_func ("/core/rewrite/torch2.6/rewrite-bound-container", test_rewrite_bound_container);
  g_test_add_func ("/core/rewrite/failure-rolls-back", test_failed_rewrite_rolls_back);
  g_test_add_func ("/core/rewrite/apply-one-match", test_apply_one_match);
  g_test_add_data_func ("/core/rewrite/erase-together/torch2.6", GINT_TO_POINTER (GRAFT_TORCH_2_6),
                        test_erase_together);
  g_test_add_data_func ("/core/rewrite/erase-together/torch1.13",
                        GINT_TO_POINTER (GRAFT_TORCH_1_13), test_erase_together);
  g_test_add_func ("/core/rewrite/erase-still-used", test_erase_still_used);
  g_test_add_func ("/core/rewrite/pattern-matches-itself", test_pattern_matches_itself);
  g_test_add_func ("/core/rewrite/deferred-users/rollback", test_deferred_users_rollback);
  g_test_add_data_func ("/core/rewrite/deferred-users/moved-last/torch2.6",
                        GINT_TO_POINTER (GRAFT_TORCH_2_6), test_deferred_users_moved_last);
  g_test_add_data_func ("/core/rewrite/deferred-users/moved-last/torch1.13",
                        GINT_TO_POINTER (GRAFT_TORCH_1_13), test_deferred_users_moved_last);
  g_test_add_data_func ("/core/rewrite/deferred-users/index-made/torch2.6",
                        GINT_TO_POINTER (GRAFT_TORCH_2_6), test_users_index_made);
  g_test_add_data_func ("/core/rewrite/deferred-users/index-made/torch1.13",
                        GINT_TO_POINTER (GRAFT_TORCH_1_13), test_users_index_made);
  for (guint seed = 1; seed <= 40; seed++)
    {
      g_autofree char *path = g_strdup_printf ("/core/rewrite/deferred-users/%u", seed);

      g_test_add_data_func (path, GUINT_TO_POINTER (seed), test_deferred_users);
    }
  g_test_add_func ("/core/rewrite/edit-changes", test_edit_changes);
  g_test_add_func ("/core/rewrite/many-copies", test_many_copies);
  g_test_add_data_func ("/core/rewrite/cycle-out-of-order/torch2.6",
                        GINT_TO_POINTER (GRAFT_TORCH_2_6), test_cycle_out_of_order);
  g_test_add_data_func ("/core/rewrite/cycle-out-of-order/torch1.13",
                        GINT_TO_POINTER (GRAFT_TORCH_1_13), test_cycle_out_of_order);
  g_test_add_data_func ("/core/rewrite/overlap-claims/torch2.6", GINT_TO_POINTER (GRAFT_TORCH_2_6),
                        test_overlap_claims);
  g_test_add_data_func ("/core/rewrite/overlap-claims/torch1.13",
                        GINT_TO_POINTER (GRAFT_TORCH_1_13), test_overlap_claims);
  for (guint seed = 1; seed <= 60; seed++)
    {
      g_autofree char *path = g_strdup_printf ("/core/rewrite/random/%u", seed);

      g_test_add_data_func (path, GUINT_TO_POINTER (seed), test_random);
    }
  /* Seeds whose two-result patterns found a match kept over an earlier
   * one's nodes when the cycle walk wiped the overlap claims (12 of seeds
   * 1 to 3000 did). */
  for (guint i = 0; i < G_N_ELEMENTS (claim_seeds); i++)
    {
      g_autofree char *path = g_strdup_printf ("/core/rewrite/random/%u", claim_seeds[i]);

      g_test_add_data_func (path, GUINT_TO_POINTER (claim_seeds[i]), test_random);
    }
  return g_test_run ();
}
