/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-graph-churn.c: random edits of a graph (nodes added anywhere with
 * argument containers of plain values, which the graph shares between
 * nodes, and of nodes; arguments set; uses replaced by nodes and by
 * values; nodes erased and moved; long spans), recorded and undone and
 * redone in turn.  After each step the graph's users agree with its
 * arguments and its order keys with its list, and an undo or a redo gives
 * back the graph as it was, text for text.  Also: containers at the
 * sharing's limits read back as given through edits and their undo, and
 * a rewrite whose matched nodes use their inputs several times (erased in
 * one pass) undone and redone around an erasure.
 */
#include "config.h"

#include "graft-view.h"
#include "test-util.h"
#include "graft-graph-private.h"

typedef struct
{
  GraftGraph *graph;
  GRand      *rand;
  GPtrArray  *nodes; /* the live nodes, in the list's order */
  /* Changes that keep the graph in topological order, but for one in
   * eight, and inputs drawn from the first few nodes half the time (so
   * that they have many users): pick() draws from the first `limit`
   * nodes. */
  gboolean    keep_order;
  guint       limit;
  GraftNode  *hubs[3];   /* the placeholders */
  GHashTable *positions; /* with keep_order: live node -> its place in nodes + 1 */
  gboolean    ordered;   /* after the last step */
} Churn;

static guint position (Churn *c, GraftNode *node);

static GraftNode *
pick (Churn *c)
{
  guint n = c->keep_order ? MIN (c->limit, c->nodes->len) : c->nodes->len;

  if (n == 0)
    return NULL;
  if (c->keep_order && g_rand_boolean (c->rand))
    {
      GraftNode *hub = c->hubs[g_rand_int_range (c->rand, 0, G_N_ELEMENTS (c->hubs))];

      if (position (c, hub) < n)
        return hub;
    }
  return c->nodes->pdata[g_rand_int_range (c->rand, 0, (gint32) n)];
}

/* @node's place in the list (the number of live nodes for NULL). */
static guint
position (Churn     *c,
          GraftNode *node)
{
  guint i = GPOINTER_TO_UINT (g_hash_table_lookup (c->positions, node));

  return i > 0 ? i - 1 : c->nodes->len;
}

/* Whether moving @node before @before (NULL: last) keeps every input
 * before its users. */
static gboolean
may_move (Churn     *c,
          GraftNode *node,
          GraftNode *before)
{
  guint at = position (c, before);
  g_autoptr (GPtrArray) inputs = graft_node_dup_input_nodes (node);

  for (guint i = 0; i < inputs->len; i++)
    if (inputs->pdata[i] == before || position (c, inputs->pdata[i]) >= at)
      return FALSE;
  for (guint u = 0; u < graft_node_get_n_users (node); u++)
    if (position (c, graft_node_get_user (node, u)) < at)
      return FALSE;
  return TRUE;
}

/* Whether every user of @old comes after @node. */
static gboolean
before_users (Churn     *c,
              GraftNode *node,
              GraftNode *old)
{
  guint at = position (c, node);

  for (guint u = 0; u < graft_node_get_n_users (old); u++)
    if (position (c, graft_node_get_user (old, u)) <= at)
      return FALSE;
  return TRUE;
}

/* A plain value, or (@depth allowing) a container of them, or a node. */
static void
random_value (Churn    *c,
              GraftArg *arg,
              guint     depth,
              gboolean  nodes)
{
  static const char *const texts[] = { "dim", "a", "ab", "abc", "abd", "mean", "" };
  guint                    what = g_rand_int_range (c->rand, 0, depth > 0 ? 12 : 7);

  switch (what)
    {
    case 0:
      graft_arg_init_none (arg);
      break;
    case 1:
      graft_arg_init_int (arg, g_rand_int_range (c->rand, -2, 3));
      break;
    case 2:
      graft_arg_init_float (arg, g_rand_boolean (c->rand) ? 0.0 : -0.0);
      break;
    case 3:
      graft_arg_init_str (arg, texts[g_rand_int_range (c->rand, 0, G_N_ELEMENTS (texts))], -1);
      break;
    case 4:
      graft_arg_init_bool (arg, g_rand_boolean (c->rand));
      break;
    case 5:
    case 6:
      {
        GraftNode *node = nodes ? pick (c) : NULL;

        if (node != NULL)
          graft_arg_init_node (arg, node);
        else
          graft_arg_init_int (arg, 7);
      }
      break;
    case 7:
      graft_arg_init_slice (arg);
      for (guint i = 0; i < 3; i++)
        random_value (c, &arg->items[i], 0, nodes && i == 0);
      break;
    case 8:
      {
        guint n = g_rand_int_range (c->rand, 0, 3);

        graft_arg_init_dict (arg, n);
        for (guint i = 0; i < n; i++)
          {
            graft_arg_init_str (&arg->items[2 * i], i == 0 ? "k0" : "k1", -1);
            random_value (c, &arg->items[2 * i + 1], depth - 1, nodes);
          }
      }
      break;
    default:
      {
        guint n = g_rand_int_range (c->rand, 0, 4);

        graft_arg_init_seq (arg, what == 9 ? GRAFT_ARG_LIST : GRAFT_ARG_TUPLE, n);
        for (guint i = 0; i < n; i++)
          random_value (c, &arg->items[i], depth - 1, nodes);
      }
      break;
    }
}

static void
random_args (Churn    *c,
             GraftArg *args,
             GraftArg *kwargs)
{
  guint n = g_rand_int_range (c->rand, 0, 4);
  guint nk = g_rand_int_range (c->rand, 0, 3);

  graft_arg_init_seq (args, GRAFT_ARG_TUPLE, n);
  for (guint i = 0; i < n; i++)
    random_value (c, &args->items[i], 3, TRUE);
  /* Most nodes read a hub first. */
  if (c->keep_order && n > 0 && g_rand_int_range (c->rand, 0, 4) > 0)
    {
      GraftNode *hub = c->hubs[g_rand_int_range (c->rand, 0, G_N_ELEMENTS (c->hubs))];

      if (position (c, hub) < MIN (c->limit, c->nodes->len))
        {
          graft_arg_clear (&args->items[0]);
          graft_arg_init_node (&args->items[0], hub);
        }
    }
  graft_arg_init_dict (kwargs, nk);
  for (guint i = 0; i < nk; i++)
    {
      graft_arg_init_str (&kwargs->items[2 * i], i == 0 ? "dim" : "out", -1);
      random_value (c, &kwargs->items[2 * i + 1], 3, g_rand_int_range (c->rand, 0, 4) == 0);
    }
}

static const char *
name_of (GraftNode *node,
         gpointer   user_data)
{
  return graft_node_get_name (node);
}

static gint
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The graph as text: each node's name, arguments, users and span. */
static char *
snapshot (GraftGraph *graph)
{
  GString *out = g_string_new (NULL);

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      GPtrArray *users;
      guint32    start, end;

      g_string_append_printf (out, "%s = %s", graft_node_get_name (node),
                              graft_node_get_target (node));
      graft_arg_append_repr (out, graft_node_get_args (node), GRAFT_REPR_LISTING, name_of, NULL);
      graft_arg_append_repr (out, graft_node_get_kwargs (node), GRAFT_REPR_LISTING, name_of, NULL);
      /* (An undo gives back the users, not always in their order.) */
      g_string_append (out, " users");
      users = g_ptr_array_new ();
      for (guint i = 0; i < graft_node_get_n_users (node); i++)
        g_ptr_array_add (users, (gpointer) graft_node_get_name (graft_node_get_user (node, i)));
      g_ptr_array_sort (users, compare_names);
      for (guint i = 0; i < users->len; i++)
        g_string_append_printf (out, " %s", (const char *) users->pdata[i]);
      g_ptr_array_unref (users);
      graft_node_get_span (node, &start, &end);
      g_string_append_printf (out, " span %u %u\n", start, end);
    }
  return g_string_free (out, FALSE);
}

static gboolean
arg_uses (const GraftArg *arg,
          GraftNode      *node)
{
  if (arg->kind == GRAFT_ARG_NODE)
    return arg->node == node;
  for (guint i = 0; i < graft_arg_count_items (arg); i++)
    if (arg_uses (&arg->items[i], node))
      return TRUE;
  return FALSE;
}

/* Users as the arguments say, keys in the list's order, names found.
 * Returns whether every input comes before its users, as the graph says. */
static gboolean
check (Churn *c)
{
  GraftGraph *graph = c->graph;
  guint       n = 0;
  gboolean    ordered = TRUE; /* every input before its user */

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      GraftNode *next = graft_node_get_next (node);

      n++;
      if (next != NULL)
        g_assert_cmpint (graft_node_compare_order (node, next), <, 0);
      g_assert_true (graft_graph_find_node (graph, graft_node_get_name (node)) == node);
      for (guint i = 0; i < graft_node_get_n_users (node); i++)
        {
          GraftNode *user = graft_node_get_user (node, i);

          g_assert_true (arg_uses (graft_node_get_args (user), node) ||
                         arg_uses (graft_node_get_kwargs (user), node));
          for (guint j = 0; j < i; j++)
            g_assert_true (graft_node_get_user (node, j) != user);
        }
    }
  g_assert_cmpuint (n, ==, graft_graph_get_n_nodes (graph));
  for (GraftNode *user = graft_graph_get_first (graph); user != NULL;
       user = graft_node_get_next (user))
    {
      g_autoptr (GPtrArray) inputs = graft_node_dup_input_nodes (user);

      for (guint i = 0; i < inputs->len; i++)
        {
          GraftNode *input = inputs->pdata[i];
          guint      u = 0;

          if (graft_node_compare_order (input, user) >= 0)
            ordered = FALSE;

          while (u < graft_node_get_n_users (input) && graft_node_get_user (input, u) != user)
            u++;
          g_assert_cmpuint (u, <, graft_node_get_n_users (input));
        }
    }
  /* The graph's own answer, which it may know without a walk. */
  g_assert_cmpint (_graft_graph_is_topological (graph), ==, ordered);
  return ordered;
}

static void
live_nodes (Churn *c)
{
  g_ptr_array_set_size (c->nodes, 0);
  if (c->positions != NULL)
    g_hash_table_remove_all (c->positions);
  for (GraftNode *node = graft_graph_get_first (c->graph); node != NULL;
       node = graft_node_get_next (node))
    {
      g_ptr_array_add (c->nodes, node);
      if (c->positions != NULL)
        g_hash_table_insert (c->positions, node, GUINT_TO_POINTER (c->nodes->len));
    }
}

/* One random change. */
static void
step (Churn *c)
{
  GraftNode *a, *b;
  GraftArg   args, kwargs, value;
  guint      what;
  gboolean   free_step;

  /* Any two nodes (the hubs not favoured). */
  c->limit = G_MAXUINT;
  a = c->nodes->len > 0 ? c->nodes->pdata[g_rand_int_range (c->rand, 0, (gint32) c->nodes->len)]
                        : NULL;
  b = c->nodes->len > 0 ? c->nodes->pdata[g_rand_int_range (c->rand, 0, (gint32) c->nodes->len)]
                        : NULL;
  what = g_rand_int_range (c->rand, 0, 10);
  /* Keeping order, the graph grows: its hubs get many users. */
  if (c->keep_order && what > 2 && g_rand_int_range (c->rand, 0, 3) == 0)
    what = 0;
  free_step = !c->keep_order || g_rand_int_range (c->rand, 0, 4) == 0;

  switch (what)
    {
    case 0:
    case 1:
    case 2:
      {
        GraftNode *before = g_rand_int_range (c->rand, 0, 3) == 0 ? graft_graph_get_first (c->graph)
                            : g_rand_boolean (c->rand)            ? NULL
                                                                  : a;

        GraftNode *node;
        guint32    start = g_rand_int (c->rand) >> g_rand_int_range (c->rand, 0, 32);

        if (!free_step)
          c->limit = position (c, before);
        random_args (c, &args, &kwargs);
        if (what == 2)
          {
            node = graft_graph_create_node_copy (c->graph, GRAFT_OP_CALL_FUNCTION, "torch.add",
                                                 &args, &kwargs, "add", before);
            graft_arg_clear (&args);
            graft_arg_clear (&kwargs);
          }
        else
          node = graft_graph_create_node (c->graph, GRAFT_OP_CALL_FUNCTION, "torch.add", &args,
                                          &kwargs, "add", before);
        /* Spans are not edits: a new node's, long ones too, kept while
         * an undo holds it. */
        graft_node_set_span (node, start,
                             start + (g_rand_int (c->rand) >> g_rand_int_range (c->rand, 8, 32)));
      }
      break;
    case 3:
      if (a == NULL)
        break;
      if (!free_step)
        c->limit = position (c, a);
      random_args (c, &args, &kwargs);
      graft_graph_set_args (c->graph, a, g_rand_boolean (c->rand) ? &args : NULL,
                            g_rand_boolean (c->rand) ? &kwargs : NULL);
      graft_arg_clear (&args);
      graft_arg_clear (&kwargs);
      break;
    case 4:
      if (a != NULL && b != NULL && a != b && (free_step || before_users (c, b, a)))
        graft_graph_replace_all_uses (c->graph, a, b);
      break;
    case 5:
      if (a == NULL)
        break;
      random_value (c, &value, 2, FALSE);
      graft_graph_replace_all_uses_with_value (c->graph, a, &value);
      graft_arg_clear (&value);
      break;
    case 6:
    case 7:
      if (a != NULL && graft_node_get_n_users (a) == 0)
        graft_graph_erase_node (c->graph, a);
      break;
    case 8:
      if (a != NULL && b != NULL && a != b)
        {
          GraftNode *before = g_rand_boolean (c->rand) ? b : NULL;

          if (free_step || may_move (c, a, before))
            graft_graph_move_before (c->graph, a, before);
        }
      break;
    default:
      /* Many nodes added before the first one (order keys relabelled). */
      for (guint i = 0; i < 20; i++)
        graft_graph_create_node (c->graph, GRAFT_OP_CALL_FUNCTION, "torch.neg", NULL, NULL, "neg",
                                 graft_graph_get_first (c->graph));
      break;
    }
  live_nodes (c);
  c->ordered = check (c);
}

static void
churn (guint32  seed,
       gboolean keep_order)
{
  Churn      c = { .keep_order = keep_order };
  GPtrArray *done = g_ptr_array_new ();   /* GraftEdit, applied, oldest first */
  GPtrArray *undone = g_ptr_array_new (); /* GraftEdit, undone, last undone last */
  GPtrArray *before = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *after = g_ptr_array_new_with_free_func (g_free);

  c.graph = graft_graph_new (graft_dialect_get (seed % 2 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6));
  c.rand = g_rand_new_with_seed (seed);
  c.nodes = g_ptr_array_new ();
  if (keep_order)
    c.positions = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < 3; i++)
    c.hubs[i] = graft_graph_create_node (c.graph, GRAFT_OP_PLACEHOLDER, "x", NULL, NULL, "x", NULL);
  live_nodes (&c);
  c.ordered = TRUE;

  for (guint round = 0; round < (keep_order ? 600u : 300u); round++)
    {
      guint what = g_rand_int_range (c.rand, 0, 10);

      /* Out of order: most often undone at once. */
      if (keep_order && !c.ordered && what < 6 && g_rand_int_range (c.rand, 0, 4) > 0)
        what = 6;
      if (what < 6)
        {
          GraftEdit *edit;
          guint      n = g_rand_int_range (c.rand, 1, 6);

          /* A new edit drops what was undone. */
          while (undone->len > 0)
            {
              graft_edit_free (g_ptr_array_steal_index (undone, undone->len - 1));
              g_free (g_ptr_array_steal_index (before, before->len - 1));
              g_free (g_ptr_array_steal_index (after, after->len - 1));
            }
          g_ptr_array_add (before, snapshot (c.graph));
          graft_graph_begin_edit (c.graph);
          for (guint i = 0; i < n; i++)
            step (&c);
          edit = graft_graph_end_edit (c.graph);
          g_ptr_array_add (done, edit);
          g_ptr_array_add (after, snapshot (c.graph));
        }
      else if (what < 8 && done->len > 0)
        {
          GraftEdit       *edit = g_ptr_array_steal_index (done, done->len - 1);
          g_autofree char *now = NULL;

          /* At once, or by steps of a few operations. */
          if (g_rand_boolean (c.rand))
            graft_edit_undo (edit);
          else
            {
              guint work = g_rand_int_range (c.rand, 1, 4);

              while (!graft_edit_undo_step (edit, work))
                ;
            }
          g_ptr_array_add (undone, edit);
          now = snapshot (c.graph);
          g_assert_cmpstr (now, ==, before->pdata[done->len]);
          live_nodes (&c);
          c.ordered = check (&c);
        }
      else if (what < 9 && undone->len > 0)
        {
          GraftEdit       *edit = g_ptr_array_steal_index (undone, undone->len - 1);
          g_autofree char *now = NULL;

          if (g_rand_boolean (c.rand))
            graft_edit_redo (edit);
          else
            {
              guint work = g_rand_int_range (c.rand, 1, 4);

              while (!graft_edit_redo_step (edit, work))
                ;
            }
          g_ptr_array_add (done, edit);
          now = snapshot (c.graph);
          g_assert_cmpstr (now, ==, after->pdata[done->len - 1]);
          live_nodes (&c);
          c.ordered = check (&c);
        }
      else if (done->len > 0)
        {
          /* The oldest edit goes (the history's limit). */
          graft_edit_free (g_ptr_array_steal_index (done, 0));
          g_free (g_ptr_array_steal_index (before, 0));
          g_free (g_ptr_array_steal_index (after, 0));
        }
    }
  for (guint i = 0; i < done->len; i++)
    graft_edit_free (done->pdata[i]);
  for (guint i = 0; i < undone->len; i++)
    graft_edit_free (undone->pdata[i]);
  g_ptr_array_unref (done);
  g_ptr_array_unref (undone);
  g_ptr_array_unref (before);
  g_ptr_array_unref (after);
  g_ptr_array_unref (c.nodes);
  g_clear_pointer (&c.positions, g_hash_table_unref);
  g_rand_free (c.rand);
  graft_graph_free (c.graph);
}

static void
test_churn (void)
{
  guint n = g_test_slow () ? 400 : 60;

  for (guint32 seed = 1; seed <= n; seed++)
    churn (seed, FALSE);
}

/* The same, the graph kept in topological order by most changes (which
 * it then knows without a walk) and a few nodes read by many (whose
 * users are indexed): what it says of its order is checked after each
 * change, undo and redo. */
static void
test_churn_ordered (void)
{
  guint n = g_test_slow () ? 400 : 20;

  for (guint32 seed = 1; seed <= n; seed++)
    churn (seed, TRUE);
}

/* A match whose nodes use their inputs several times, in containers and
 * keywords, next to shared containers of plain values, with more than
 * eight distinct inputs to a node: the rewrite, its undo and redo, an
 * erasure undone between them, and the same rewrite made again. */
static const char rewrite_model[] =
    "import torch\n"
    "class M(torch.nn.Module):\n"
    "    def forward(self, x, y, z):\n"
    "        outs = []\n"
    "        for i in range(12):\n"
    "            a = x + y\n"
    "            b = torch.relu(a)\n"
    "            c = torch.cat([b, a, x, b, a, y, x, b, a, x, y, a, b], dim=0)\n"
    "            d = torch.add(c, c, alpha=2)\n"
    "            e = torch.sum(d, dim=(0, 1), keepdim=True)\n"
    "            f = e[:, 1:2, None]\n"
    "            g = torch.cat([f, x, y, z, e, e, z, y, x, f, x, y], dim=1)\n"
    "            outs.append(g)\n"
    "            x = g * 2\n"
    "        return torch.stack(outs, dim=0)\n"
    "def pattern(x, y):\n"
    "    a = x + y\n"
    "    b = torch.relu(a)\n"
    "    c = torch.cat([b, a, x, b, a, y, x, b, a, x, y, a, b], dim=0)\n"
    "    d = torch.add(c, c, alpha=2)\n"
    "    return torch.sum(d, dim=(0, 1), keepdim=True)\n"
    "def replacement(x, y):\n"
    "    s = torch.cat([x, y, x], dim=0)\n"
    "    return torch.sum(s, dim=(0, 1), keepdim=True)[:, 1:2, None]\n";

static void
test_rewrite_undo (gconstpointer data)
{
  GraftTorch torch = GPOINTER_TO_INT (data);
  g_autoptr (GraftGraph) graph = test_trace_in (torch, rewrite_model, "M");
  g_autoptr (GraftGraph) pattern_graph = test_trace_in (torch, rewrite_model, "pattern");
  g_autoptr (GraftGraph) replacement = test_trace_in (torch, rewrite_model, "replacement");
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autoptr (GraftRewrite) again = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *before = NULL, *listing_before = NULL, *after = NULL, *now = NULL;
  Churn            c = { .graph = graph, .nodes = g_ptr_array_new () };

  pattern = graft_pattern_new (g_steal_pointer (&pattern_graph), &error);
  g_assert_no_error (error);
  before = snapshot (graph);
  listing_before = graft_listing_print (graph);
  rewrite = graft_replace_pattern (graph, pattern, replacement, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (graft_rewrite_get_n_replaced (rewrite), ==, 12);
  check (&c);
  after = snapshot (graph);
  for (guint round = 0; round < 3; round++)
    {
      GraftEdit *erase;
      GraftNode *last;

      graft_edit_undo (graft_rewrite_get_edit (rewrite));
      check (&c);
      g_clear_pointer (&now, g_free);
      now = snapshot (graph);
      g_assert_cmpstr (now, ==, before);
      g_clear_pointer (&now, g_free);
      now = graft_listing_print (graph);
      g_assert_cmpstr (now, ==, listing_before);

      /* An erasure undone in between. */
      graft_graph_begin_edit (graph);
      last = graft_graph_get_last (graph);
      graft_graph_erase_node (graph, last);
      erase = graft_graph_end_edit (graph);
      graft_edit_undo (erase);
      graft_edit_free (erase);
      check (&c);

      graft_edit_redo (graft_rewrite_get_edit (rewrite));
      check (&c);
      g_clear_pointer (&now, g_free);
      now = snapshot (graph);
      g_assert_cmpstr (now, ==, after);
    }
  graft_edit_undo (graft_rewrite_get_edit (rewrite));
  again = graft_replace_pattern (graph, pattern, replacement, NULL, &error);
  g_assert_no_error (error);
  check (&c);
  g_clear_pointer (&now, g_free);
  now = snapshot (graph);
  g_assert_cmpstr (now, ==, after);
  g_ptr_array_unref (c.nodes);
}

/* A tuple of @n ints from @first, nested @depth deep (`((((0, 1),),),)`). */
static void
deep_tuple (GraftArg *arg,
            guint     depth,
            guint     n,
            gint64    first)
{
  if (depth > 0)
    {
      graft_arg_init_seq (arg, GRAFT_ARG_TUPLE, 1);
      deep_tuple (&arg->items[0], depth - 1, n, first);
      return;
    }
  graft_arg_init_seq (arg, GRAFT_ARG_TUPLE, n);
  for (guint i = 0; i < n; i++)
    graft_arg_init_int (&arg->items[i], first + i);
}

/* Containers at the sharing's limits (items in all, depth, how many are
 * shared, texts with a zero byte or differing in their last byte only),
 * each node's arguments read back as given, through erasures, new
 * arguments, their undo and the graph's end. */
static void
test_shared_limits (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_2_6));
  GraftNode *x = graft_graph_create_node (graph, GRAFT_OP_PLACEHOLDER, "x", NULL, NULL, "x", NULL);
  GPtrArray *nodes = g_ptr_array_new ();
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);
  GraftEdit *edit;

  for (guint i = 0; i < 1500; i++)
    {
      GraftArg   args, kwargs;
      GraftNode *node;
      guint      kind = i % 6;

      graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 3);
      graft_arg_init_node (&args.items[0], x);
      /* 31, 32 and 33 items in all; depth 3 to 6; distinct past 1024. */
      deep_tuple (&args.items[1], 3 + kind % 4, 29 + kind % 3, kind == 5 ? (gint64) i : 0);
      graft_arg_init_seq (&args.items[2], GRAFT_ARG_LIST, 2);
      graft_arg_init_str (&args.items[2].items[0], kind % 2 ? "a\0b" : "a\0c", 3);
      graft_arg_init_str (&args.items[2].items[1], kind % 3 ? "abc" : "abd", -1);
      graft_arg_init_dict (&kwargs, 1);
      graft_arg_init_str (&kwargs.items[0], "dim", -1);
      deep_tuple (&kwargs.items[1], kind % 5, 1 + kind, (gint64) (i % 1100));
      if (i % 2)
        node = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "torch.f", &args, &kwargs,
                                        "f", NULL);
      else
        {
          node = graft_graph_create_node_copy (graph, GRAFT_OP_CALL_FUNCTION, "torch.f", &args,
                                               &kwargs, "f", NULL);
          graft_arg_clear (&args);
          graft_arg_clear (&kwargs);
        }
      g_ptr_array_add (nodes, node);
    }
  for (guint i = 0; i < nodes->len; i++)
    {
      GString *text = g_string_new (NULL);

      graft_arg_append_repr (text, graft_node_get_args (nodes->pdata[i]), GRAFT_REPR_CODE, name_of,
                             NULL);
      graft_arg_append_repr (text, graft_node_get_kwargs (nodes->pdata[i]), GRAFT_REPR_CODE,
                             name_of, NULL);
      g_ptr_array_add (texts, g_string_free (text, FALSE));
    }

  graft_graph_begin_edit (graph);
  for (guint i = 0; i < nodes->len; i += 3)
    graft_graph_erase_node (graph, nodes->pdata[i]);
  for (guint i = 1; i < nodes->len; i += 3)
    {
      GraftArg args, kwargs;

      graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
      deep_tuple (&args.items[0], i % 6, 2, 0);
      graft_arg_init_dict (&kwargs, 0);
      graft_graph_set_args (graph, nodes->pdata[i], &args, i % 2 ? &kwargs : NULL);
      graft_arg_clear (&kwargs);
    }
  graft_graph_replace_all_uses_with_value (graph, x,
                                           &graft_node_get_kwargs (nodes->pdata[2])->items[1]);
  edit = graft_graph_end_edit (graph);
  graft_edit_undo (edit);
  for (guint i = 0; i < nodes->len; i++)
    {
      GString *text = g_string_new (NULL);

      graft_arg_append_repr (text, graft_node_get_args (nodes->pdata[i]), GRAFT_REPR_CODE, name_of,
                             NULL);
      graft_arg_append_repr (text, graft_node_get_kwargs (nodes->pdata[i]), GRAFT_REPR_CODE,
                             name_of, NULL);
      g_assert_cmpstr (text->str, ==, texts->pdata[i]);
      g_string_free (text, TRUE);
    }
  graft_edit_redo (edit);
  graft_edit_free (edit);
  g_ptr_array_unref (texts);
  g_ptr_array_unref (nodes);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/graph-churn/undo-redo", test_churn);
  g_test_add_func ("/core/graph-churn/undo-redo-ordered", test_churn_ordered);
  g_test_add_func ("/core/graph-churn/shared-limits", test_shared_limits);
  g_test_add_data_func ("/core/graph-churn/rewrite-undo/1.13", GINT_TO_POINTER (GRAFT_TORCH_1_13),
                        test_rewrite_undo);
  g_test_add_data_func ("/core/graph-churn/rewrite-undo/2.6", GINT_TO_POINTER (GRAFT_TORCH_2_6),
                        test_rewrite_undo);
  return g_test_run ();
}
