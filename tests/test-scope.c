/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-scope.c: module scopes and folded layouts.  The scopes of
 * torchvision's resnet18 are checked node by node against what its code
 * shows; on every torchvision graph, an overview folds every node into
 * exactly one box, each folded box's nodes are the nodes of its scope,
 * edges are the dependencies between boxes (each once, none from a box to
 * itself), expanding and collapsing keep that true, and the graph's code
 * is the same before and after.  A layout of a subset draws only that
 * subset.  The spatial index finds every box a rectangle touches.  In a
 * torch.export program (made by hand, tests/ui/program.c) scopes follow the
 * module frames and carry their classes, weights are drawn right before
 * their users as pills labelled with their targets, and boxes carry the
 * shapes of their values.
 */
#include "config.h"

#include "graft-view.h"
#include "test-util.h"
#include "ui/program.h"

#include <string.h>

static GraftGraph *
load_torchvision (const char *model)
{
  g_autofree char *name = g_strconcat (model, ".py", NULL);
  g_autofree char *path = test_data_path ("torchvision", name);

  return test_load_graph (path);
}

static gint
index_of (GraftGraph *graph,
          const char *name)
{
  gint i = 0;

  for (GraftNode *n = graft_graph_get_first (graph); n != NULL; n = graft_node_get_next (n), i++)
    if (strcmp (graft_node_get_name (n), name) == 0)
      return i;
  g_assert_not_reached ();
  return -1;
}

static void
test_resnet_scopes (void)
{
  g_autoptr (GraftGraph) graph = load_torchvision ("resnet18");
  g_autoptr (GraftScopes) scopes = graft_scopes_new (graph);
  g_auto (GStrv) children = NULL;
  static const struct
  {
    const char *node;
    const char *scope;
  } expected[] = {
    { "x", "" },
    { "conv1", "conv1" },
    { "maxpool", "maxpool" },
    { "layer1_0_conv1", "layer1.0.conv1" },
    { "add", "layer1.0" }, /* between layer1.0.bn2 and layer1.0.relu */
    { "layer1_0_relu_1", "layer1.0.relu" },
    { "add_2", "layer2.0" }, /* between layer2.0.downsample.1 and layer2.0.relu */
    { "flatten", "" },       /* between avgpool and fc */
    { "fc", "fc" },
    { "output", "" },
  };

  g_assert_cmpuint (graft_scopes_get_n_nodes (scopes), ==, graft_graph_get_n_nodes (graph));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpstr (graft_scopes_get_node_scope (scopes, index_of (graph, expected[i].node)), ==,
                     expected[i].scope);
  /* Each block holds its five calls, its add and its second relu; the
   * first block of layer2 also its two downsample calls. */
  g_assert_cmpuint (graft_scopes_count_nodes (scopes, "layer1.0"), ==, 7);
  g_assert_cmpuint (graft_scopes_count_nodes (scopes, "layer1"), ==, 14);
  g_assert_cmpuint (graft_scopes_count_nodes (scopes, "layer2.0"), ==, 9);
  g_assert_cmpuint (graft_scopes_count_nodes (scopes, "layer10"), ==, 0);
  g_assert_cmpuint (graft_scopes_count_nodes (scopes, ""), ==, graft_graph_get_n_nodes (graph));
  children = graft_scopes_dup_children (scopes, "layer2.0");
  /* relu is one module called twice: not a scope to fold. */
  g_assert_cmpuint (g_strv_length (children), ==, 1);
  g_assert_cmpstr (children[0], ==, "layer2.0.downsample");
  g_assert_cmpstr (graft_scopes_get_innermost (scopes, index_of (graph, "layer1_0_relu_1")), ==,
                   "layer1.0");
  g_assert_cmpstr (graft_scopes_get_innermost (scopes, index_of (graph, "layer2_0_downsample_1")),
                   ==, "layer2.0.downsample");
  g_assert_null (graft_scopes_get_innermost (scopes, index_of (graph, "flatten")));
}

static void
test_expand_collapse (void)
{
  g_autoptr (GraftGraph) graph = load_torchvision ("resnet18");
  g_autoptr (GraftScopes) scopes = graft_scopes_new (graph);
  g_autoptr (GHashTable) collapsed = graft_scopes_new_overview (scopes, 1);
  guint add = index_of (graph, "add");

  /* Nothing fits in one box: every top-level module stays collapsed. */
  g_assert_true (g_hash_table_contains (collapsed, "layer1"));
  g_assert_true (g_hash_table_contains (collapsed, "layer4"));
  g_assert_false (g_hash_table_contains (collapsed, "conv1")); /* one node */
  g_assert_cmpstr (graft_scopes_find_folder (scopes, add, collapsed), ==, "layer1");
  graft_scopes_expand (scopes, collapsed, "layer1");
  g_assert_false (g_hash_table_contains (collapsed, "layer1"));
  g_assert_cmpstr (graft_scopes_find_folder (scopes, add, collapsed), ==, "layer1.0");
  graft_scopes_expand (scopes, collapsed, "layer1.0");
  g_assert_null (graft_scopes_find_folder (scopes, add, collapsed));
  graft_scopes_collapse (collapsed, "layer1");
  g_assert_false (g_hash_table_contains (collapsed, "layer1.1"));
  g_assert_cmpstr (graft_scopes_find_folder (scopes, add, collapsed), ==, "layer1");
}

/* Every node is drawn in exactly one box (lookup), a folded box holds
 * exactly the nodes whose folder is its scope, and the edges are the
 * dependencies between distinct boxes, each once. */
static void
check_folded (GraftGraph  *graph,
              GraftScopes *scopes,
              GHashTable  *collapsed,
              GraftLayout *layout)
{
  guint n = graft_graph_get_n_nodes (graph);
  g_autoptr (GHashTable) edges = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr (GHashTable) index = g_hash_table_new (NULL, NULL);
  guint i = 0;

  g_assert_cmpuint (graft_layout_get_n_graph_nodes (layout), ==, n);
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node), i++)
    g_hash_table_insert (index, node, GUINT_TO_POINTER (i));
  i = 0;
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node), i++)
    {
      gint                   box = graft_layout_lookup (layout, i);
      const GraftLayoutNode *b;
      const char            *folder = graft_scopes_find_folder (scopes, i, collapsed);
      g_autoptr (GPtrArray) inputs = graft_node_dup_input_nodes (node);

      g_assert_cmpint (box, >=, 0);
      b = graft_layout_get_node (layout, box);
      g_assert_cmpstr (graft_layout_get_node_name (layout, i), ==, graft_node_get_name (node));
      if (folder != NULL)
        {
          guint        n_members;
          const guint *members = graft_layout_get_members (layout, box, &n_members);
          gboolean     found = FALSE;

          g_assert_cmpstr (b->name, ==, folder);
          g_assert_cmpuint (n_members, ==, b->n_members);
          for (guint k = 0; k < n_members; k++)
            {
              g_assert_cmpstr (graft_scopes_find_folder (scopes, members[k], collapsed), ==,
                               folder);
              found = found || members[k] == i;
            }
          g_assert_true (found);
        }
      else
        {
          g_assert_cmpuint (b->n_members, ==, 0);
          g_assert_cmpstr (b->name, ==, graft_node_get_name (node));
        }
      for (guint k = 0; k < inputs->len; k++)
        {
          gint from =
              graft_layout_lookup (layout, GPOINTER_TO_UINT (
                                               g_hash_table_lookup (index, inputs->pdata[k])));

          if (from != box)
            {
              gint64 *key = g_new (gint64, 1);

              *key = ((gint64) from << 32) | (guint) box;
              g_hash_table_add (seen, key);
            }
        }
    }
  /* Each dependency between boxes is drawn once: as an edge into the
   * box, from its tail's box or from one of the tail's stubs. */
  for (guint e = 0; e < graft_layout_get_n_edges (layout); e++)
    {
      const GraftLayoutEdge *edge = graft_layout_get_edge (layout, e);
      const GraftLayoutNode *tail = graft_layout_get_node (layout, edge->tail);
      gint                   from =
          tail->is_stub ? graft_layout_lookup (layout, tail->node_index) : (gint) edge->tail;
      gint64 key = ((gint64) from << 32) | edge->head;

      g_assert_cmpint (from, !=, (gint) edge->head);
      g_assert_true (g_hash_table_contains (seen, &key));
      g_assert_false (g_hash_table_contains (edges, &key));
      g_hash_table_add (edges, g_memdup2 (&key, sizeof key));
    }
  g_assert_cmpuint (g_hash_table_size (edges), ==, g_hash_table_size (seen));
  {
    GHashTableIter iter;
    gpointer       key;

    g_hash_table_iter_init (&iter, edges);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      g_free (key);
  }
}

/* How many boxes (stubs aside) folding with @collapsed draws. */
static guint
count_units (GraftScopes *scopes,
             GHashTable  *collapsed)
{
  g_autoptr (GHashTable) folders = g_hash_table_new (NULL, NULL);
  guint n = 0;

  for (guint i = 0; i < graft_scopes_get_n_nodes (scopes); i++)
    {
      const char *folder = graft_scopes_find_folder (scopes, i, collapsed);

      if (folder == NULL)
        n++;
      else
        g_hash_table_add (folders, (gpointer) folder);
    }
  return n + g_hash_table_size (folders);
}

static void
test_folded_corpus (void)
{
  g_autoptr (GDir) dir = NULL;
  g_autofree char *path = test_data_path ("torchvision", NULL);
  const char      *name;
  guint            checked = 0;

  dir = g_dir_open (path, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *model = NULL;
      g_autoptr (GraftGraph) graph = NULL;
      g_autoptr (GraftScopes) scopes = NULL;
      g_autoptr (GHashTable) collapsed = NULL;
      g_autofree char *before = NULL;
      g_autofree char *after = NULL;

      if (!g_str_has_suffix (name, ".py"))
        continue;
      model = g_strndup (name, strlen (name) - 3);
      graph = load_torchvision (model);
      before = graft_codegen_python (graph);
      scopes = graft_scopes_new (graph);
      collapsed = graft_scopes_new_overview (scopes, 40);
      {
        g_autoptr (GHashTable) tightest = graft_scopes_new_overview (scopes, 0);

        /* The overview fits in 40 boxes, unless even the top level has
         * more; it never draws more than that. */
        g_assert_cmpuint (count_units (scopes, collapsed), <=,
                          MAX (40, count_units (scopes, tightest)));
      }
      for (guint round = 0; round < 3; round++)
        {
          g_autoptr (GraftLayoutRequest) req =
              graft_layout_request_new_folded (graph, scopes, collapsed, NULL);
          g_autoptr (GError) error = NULL;
          g_autoptr (GraftLayout) layout = graft_layout_request_run (req, &error);
          guint          n_boxes = 0;
          GHashTableIter iter;
          gpointer       key;
          g_autoptr (GPtrArray) to_expand = g_ptr_array_new_with_free_func (g_free);

          g_assert_no_error (error);
          check_folded (graph, scopes, collapsed, layout);
          for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
            n_boxes += !graft_layout_get_node (layout, b)->is_stub;
          g_assert_cmpuint (n_boxes, ==, count_units (scopes, collapsed));
          /* Open everything one level for the next round. */
          g_hash_table_iter_init (&iter, collapsed);
          while (g_hash_table_iter_next (&iter, &key, NULL))
            g_ptr_array_add (to_expand, g_strdup (key));
          for (guint k = 0; k < to_expand->len; k++)
            graft_scopes_expand (scopes, collapsed, to_expand->pdata[k]);
        }
      after = graft_codegen_python (graph);
      g_assert_cmpstr (before, ==, after);
      checked++;
    }
  g_assert_cmpuint (checked, >=, 15);
}

static void
test_shown_subset (void)
{
  g_autoptr (GraftGraph) graph = load_torchvision ("resnet18");
  guint                n = graft_graph_get_n_nodes (graph);
  g_autofree gboolean *shown = g_new0 (gboolean, n);
  guint                add = index_of (graph, "add");
  g_autoptr (GraftLayoutRequest) req = NULL;
  g_autoptr (GraftLayout) layout = NULL;
  guint drawn = 0;

  for (guint i = add - 3; i <= add + 3; i++)
    shown[i] = TRUE;
  req = graft_layout_request_new_folded (graph, NULL, NULL, shown);
  layout = graft_layout_request_run (req, NULL);
  g_assert_nonnull (layout);
  for (guint i = 0; i < n; i++)
    {
      if (shown[i])
        {
          g_assert_cmpint (graft_layout_lookup (layout, i), >=, 0);
          drawn++;
        }
      else
        g_assert_cmpint (graft_layout_lookup (layout, i), ==, -1);
      g_assert_nonnull (graft_layout_get_node_name (layout, i));
    }
  g_assert_cmpuint (graft_layout_get_n_nodes (layout), ==, drawn);
  /* bn1 -> relu -> conv2 -> bn2 -> add -> relu_1 -> conv1 of the next
   * block; add also reads maxpool, which is not shown. */
  g_assert_cmpuint (graft_layout_get_n_edges (layout), ==, 6);
  g_assert_cmpint (graft_layout_find_node (layout, "maxpool"), ==, -1);
}

static gboolean
touches (const GraftRect *r,
         double           x1,
         double           y1,
         double           x2,
         double           y2)
{
  return r->x <= x2 && r->x + r->width >= x1 && r->y <= y2 && r->y + r->height >= y1;
}

static void
test_spatial_index (void)
{
  g_autoptr (GraftGraph) graph = load_torchvision ("densenet121");
  g_autoptr (GraftLayout) layout = graft_layout_new (graph, NULL);
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  double width;
  double height;

  g_assert_nonnull (layout);
  graft_layout_get_size (layout, &width, &height);
  for (guint round = 0; round < 200; round++)
    {
      double x1 = g_rand_double_range (rand, -50, width);
      double y1 = g_rand_double_range (rand, -50, height);
      double x2 = x1 + g_rand_double_range (rand, 0, 800);
      double y2 = y1 + g_rand_double_range (rand, 0, round % 10 == 0 ? height : 800);
      g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (guint));
      g_autoptr (GArray) edges = g_array_new (FALSE, FALSE, sizeof (guint));
      g_autoptr (GHashTable) found = g_hash_table_new (NULL, NULL);
      g_autoptr (GHashTable) found_edges = g_hash_table_new (NULL, NULL);

      graft_layout_query (layout, x1, y1, x2, y2, boxes, edges);
      for (guint k = 0; k < boxes->len; k++)
        {
          if (k > 0)
            g_assert_cmpuint (g_array_index (boxes, guint, k - 1), <,
                              g_array_index (boxes, guint, k));
          g_hash_table_add (found, GUINT_TO_POINTER (g_array_index (boxes, guint, k) + 1));
        }
      for (guint k = 0; k < edges->len; k++)
        g_hash_table_add (found_edges, GUINT_TO_POINTER (g_array_index (edges, guint, k) + 1));
      for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
        if (touches (&graft_layout_get_node (layout, b)->box, x1, y1, x2, y2))
          g_assert_true (g_hash_table_contains (found, GUINT_TO_POINTER (b + 1)));
      for (guint e = 0; e < graft_layout_get_n_edges (layout); e++)
        {
          const GraftLayoutEdge *edge = graft_layout_get_edge (layout, e);

          for (guint p = 0; p < edge->n_points; p++)
            if (edge->points[p].y >= y1 && edge->points[p].y <= y2)
              g_assert_true (g_hash_table_contains (found_edges, GUINT_TO_POINTER (e + 1)));
        }
      /* A small view finds a small part of the graph. */
      if (y2 - y1 < 300 && x2 - x1 < 300)
        g_assert_cmpuint (boxes->len, <, graft_layout_get_n_nodes (layout) / 4);
    }
  /* Hit testing through the index agrees with the boxes. */
  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    {
      const GraftRect *r = &graft_layout_get_node (layout, b)->box;

      g_assert_cmpint (graft_layout_hit_test (layout, r->x + r->width / 2, r->y + r->height / 2),
                       ==, b);
    }
}

static void
test_progress (void)
{
  g_autoptr (GraftGraph) graph = load_torchvision ("densenet121");
  g_autoptr (GraftLayoutRequest) req = graft_layout_request_new (graph);
  g_autoptr (GraftLayout) layout = NULL;
  guint done;
  guint total;

  graft_layout_request_get_progress (req, &done, &total);
  g_assert_cmpuint (done, ==, 0);
  g_assert_cmpuint (total, ==, 0);
  layout = graft_layout_request_run (req, NULL);
  g_assert_nonnull (layout);
  graft_layout_request_get_progress (req, &done, &total);
  g_assert_cmpuint (total, ==, graft_layout_get_n_segments (layout));
  g_assert_cmpuint (done, ==, total);
  g_assert_cmpuint (total, >, 1);
}

static void
test_program_scopes (void)
{
  g_autoptr (GraftGraph) graph = program_new (8);
  g_autoptr (GraftScopes) scopes = graft_scopes_new (graph);
  g_autoptr (GHashTable) collapsed = NULL;
  g_auto (GStrv) children = NULL;
  g_autofree guint *order = graft_draw_order_new (graph);
  GraftNode        *conv = graft_graph_find_node (graph, "conv2d");
  GraftNode        *relu_1 = graft_graph_find_node (graph, "relu_1");
  GraftNode        *added;
  GraftArg          args;
  static const struct
  {
    const char *node;
    const char *scope;
  } expected[] = {
    { "x", "" },
    { "p_layer1_0_conv1_weight", "layer1.0.conv1" }, /* its owner, by target */
    { "b_layer1_0_bn1_running_mean", "layer1.0.bn1" },
    { "conv2d", "layer1.0.conv1" }, /* the innermost frame */
    { "relu", "layer1.0.relu" },
    { "add", "layer1.0" },
    { "conv2d_2", "layer1.1.conv1" },
    { "add_7", "layer4.1" },
    { "output", "" },
  };

  g_assert_true (graft_scopes_get_from_frames (scopes));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpstr (graft_scopes_get_node_scope (scopes, index_of (graph, expected[i].node)), ==,
                     expected[i].scope);
  g_assert_cmpstr (graft_scopes_get_type_name (scopes, "layer1.0"), ==,
                   "torchvision.models.resnet.BasicBlock");
  g_assert_cmpstr (graft_scopes_get_type_name (scopes, "layer1"), ==,
                   "torch.nn.modules.container.Sequential");
  g_assert_cmpstr (graft_scopes_get_type_name (scopes, ""), ==, "torchvision.models.resnet.ResNet");
  /* A block: seven calls and twelve weights. */
  g_assert_cmpuint (graft_scopes_count_nodes (scopes, "layer1.0"), ==, 19);
  g_assert_cmpuint (graft_scopes_count_nodes (scopes, "layer1"), ==, 38);
  /* One call and its weights is not worth a box, nor is a module called
   * twice around others: the block is what folds. */
  children = graft_scopes_dup_children (scopes, "layer1.0");
  g_assert_cmpuint (g_strv_length (children), ==, 0);
  g_assert_cmpstr (graft_scopes_get_innermost (scopes, index_of (graph, "conv2d")), ==,
                   "layer1.0");
  g_assert_cmpstr (graft_scopes_get_innermost (scopes, index_of (graph, "p_layer1_0_conv1_weight")),
                   ==, "layer1.0");

  /* Weights are drawn right before their first user (the input first). */
  g_assert_cmpuint (order[0], ==, index_of (graph, "x"));
  g_assert_cmpuint (order[1], ==, index_of (graph, "p_layer1_0_conv1_weight"));
  g_assert_cmpuint (order[2], ==, index_of (graph, "conv2d"));
  g_assert_cmpuint (order[3], ==, index_of (graph, "p_layer1_0_bn1_weight"));
  /* An unused buffer stands before the first node of its module. */
  g_assert_cmpuint (order[7], ==, index_of (graph, "b_layer1_0_bn1_num_batches_tracked"));
  g_assert_cmpuint (order[8], ==, index_of (graph, "batch_norm"));
  g_assert_cmpuint (graft_scopes_get_order (scopes)[0], ==, order[0]);

  collapsed = graft_scopes_new_overview (scopes, 12);
  g_assert_true (g_hash_table_contains (collapsed, "layer1.0"));
  g_assert_cmpstr (
      graft_scopes_find_folder (scopes, index_of (graph, "p_layer2_1_bn2_bias"), collapsed), ==,
      "layer2.1");

  /* A node a rewrite made has no frames: it belongs where its neighbours
   * ran. */
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&args.items[0], conv);
  added = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "torch.ops.aten.neg.default",
                                   &args, NULL, "neg", relu_1);
  g_assert_null (graft_node_get_meta (added));
  {
    g_autoptr (GraftScopes) again = graft_scopes_new (graph);

    g_assert_cmpstr (graft_scopes_get_node_scope (again, index_of (graph, "neg")), ==,
                     "layer1.0");
  }
}

static void
test_program_layout (void)
{
  g_autoptr (GraftGraph) graph = program_new (4);
  g_autoptr (GraftScopes) scopes = graft_scopes_new (graph);
  g_autoptr (GHashTable) collapsed = graft_scopes_new_overview (scopes, 6);
  g_autoptr (GraftLayout) layout = graft_layout_new (graph, NULL);
  g_autoptr (GraftLayoutRequest) req = NULL;
  g_autoptr (GraftLayout) folded = NULL;
  const GraftLayoutNode *box;

  g_assert_nonnull (layout);
  box = graft_layout_get_node (layout, graft_layout_find_node (layout, "p_layer1_0_conv1_weight"));
  g_assert_cmpint (box->role, ==, GRAFT_LAYOUT_ROLE_PARAMETER);
  g_assert_cmpstr (box->label, ==, "layer1.0.conv1.weight");
  g_assert_cmpstr (box->annotation, ==, "f32[64, 64, 3, 3]");
  box =
      graft_layout_get_node (layout, graft_layout_find_node (layout, "b_layer1_0_bn1_running_var"));
  g_assert_cmpint (box->role, ==, GRAFT_LAYOUT_ROLE_BUFFER);
  box = graft_layout_get_node (layout, graft_layout_find_node (layout, "x"));
  g_assert_cmpint (box->role, ==, GRAFT_LAYOUT_ROLE_INPUT);
  g_assert_cmpstr (box->label, ==, "x");
  box = graft_layout_get_node (layout, graft_layout_find_node (layout, "conv2d"));
  g_assert_cmpint (box->role, ==, GRAFT_LAYOUT_ROLE_NODE);
  g_assert_cmpstr (box->caption, ==, "aten.conv2d.default");
  g_assert_cmpstr (box->annotation, ==, "f32[1, 64, 56, 56]");
  /* Each weight stands right above its user. */
  {
    const GraftRect *w =
        &graft_layout_get_node (layout, graft_layout_find_node (layout, "p_layer1_0_conv1_weight"))
             ->box;
    const GraftRect *c = &box->box;

    g_assert_cmpfloat (c->y - (w->y + w->height), <, 80);
  }

  req = graft_layout_request_new_folded (graph, scopes, collapsed, NULL);
  folded = graft_layout_request_run (req, NULL);
  g_assert_nonnull (folded);
  check_folded (graph, scopes, collapsed, folded);
  box = graft_layout_get_node (folded, graft_layout_find_node (folded, "conv2d"));
  g_assert_cmpstr (box->name, ==, "layer1.0");
  g_assert_cmpstr (box->label, ==, "layer1.0 \u00b7 BasicBlock");
  g_assert_cmpstr (box->caption, ==, "19 nodes");
  /* What leaves the block is its last relu. */
  g_assert_cmpstr (box->annotation, ==, "f32[1, 64, 56, 56]");
}

/* @a and @b say the same of every node and every scope. */
static void
assert_same_scopes (GraftScopes *a,
                    GraftScopes *b)
{
  guint n = graft_scopes_get_n_nodes (a);
  g_autoptr (GHashTable) folded_a = graft_scopes_new_overview (a, 40);
  g_autoptr (GHashTable) folded_b = graft_scopes_new_overview (b, 40);

  g_assert_cmpuint (graft_scopes_get_n_nodes (b), ==, n);
  g_assert_cmpint (graft_scopes_get_from_frames (a), ==, graft_scopes_get_from_frames (b));
  g_assert_cmpuint (graft_scopes_get_n_depths (a), ==, graft_scopes_get_n_depths (b));
  g_assert_cmpuint (graft_scopes_get_top_depth (a), ==, graft_scopes_get_top_depth (b));
  g_assert_cmpmem (graft_scopes_get_order (a), n * sizeof (guint), graft_scopes_get_order (b),
                   n * sizeof (guint));
  g_assert_cmpuint (g_hash_table_size (folded_a), ==, g_hash_table_size (folded_b));
  for (guint i = 0; i < n; i++)
    {
      const char *scope = graft_scopes_get_node_scope (a, i);
      g_auto (GStrv) children_a = graft_scopes_dup_children (a, scope);
      g_auto (GStrv) children_b = graft_scopes_dup_children (b, scope);

      g_assert_cmpstr (scope, ==, graft_scopes_get_node_scope (b, i));
      g_assert_cmpstr (graft_scopes_get_innermost (a, i), ==, graft_scopes_get_innermost (b, i));
      g_assert_cmpstr (graft_scopes_find_folder (a, i, folded_a), ==,
                       graft_scopes_find_folder (b, i, folded_b));
      g_assert_cmpstr (graft_scopes_get_type_name (a, scope), ==,
                       graft_scopes_get_type_name (b, scope));
      g_assert_cmpstr (graft_scopes_get_outer (a, scope), ==, graft_scopes_get_outer (b, scope));
      g_assert_cmpuint (graft_scopes_get_depth (a, scope), ==, graft_scopes_get_depth (b, scope));
      g_assert_cmpuint (graft_scopes_count_nodes (a, scope), ==,
                        graft_scopes_count_nodes (b, scope));
      g_assert_true (g_strv_equal ((const char *const *) children_a,
                                   (const char *const *) children_b));
    }
}

/* The graph changes as an editor changes it: a node that reads the node
 * in the middle is put after it (and taken out again on the next call). */
static void
edit_graph (GraftGraph *graph)
{
  static GraftNode *made = NULL;
  GraftNode        *x = graft_graph_get_first (graph);
  GraftArg          args;

  if (made != NULL)
    {
      graft_graph_erase_node (graph, g_steal_pointer (&made));
      return;
    }
  for (guint k = 0; k < graft_graph_get_n_nodes (graph) / 2; k++)
    x = graft_node_get_next (x);
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&args.items[0], x);
  made = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "torch.neg", &args, NULL, "neg",
                                  graft_node_get_next (x));
  g_assert_nonnull (made);
}

/* The scopes of @graph made in steps of @max_nodes nodes, with other work
 * numbering the graph's nodes between the steps, and with @edits changes
 * of the graph after the first steps (each starts the scopes again, as
 * the editor does). */
static GraftScopes *
build_in_steps (GraftGraph *graph,
                guint       max_nodes,
                guint       edits,
                guint      *n_steps)
{
  g_autoptr (GraftScopesBuilder) builder = graft_scopes_builder_new (graph);
  guint since_start = 1;

  *n_steps = 1;
  while (!graft_scopes_builder_step (builder, max_nodes))
    {
      g_autofree guint *order = graft_draw_order_new (graph);

      (*n_steps)++;
      if (edits > 0 && ++since_start == 3 + edits)
        {
          edits--;
          edit_graph (graph);
          graft_scopes_builder_free (builder);
          builder = graft_scopes_builder_new (graph);
          since_start = 1;
          *n_steps = 1;
        }
    }
  return graft_scopes_builder_finish (g_steal_pointer (&builder));
}

/* Scopes made in steps, however small, are the scopes made at once, for
 * every torchvision graph and a program, even when other work uses the
 * nodes' marks between the steps. */
static void
test_builder_steps (void)
{
  g_autoptr (GDir) dir = NULL;
  g_autofree char *path = test_data_path ("torchvision", NULL);
  g_autoptr (GPtrArray) graphs = g_ptr_array_new_with_free_func ((GDestroyNotify) graft_graph_free);
  const char *name;

  dir = g_dir_open (path, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".py"))
      {
        g_autofree char *model = g_strndup (name, strlen (name) - 3);

        g_ptr_array_add (graphs, load_torchvision (model));
      }
  g_assert_cmpuint (graphs->len, >=, 15);
  g_ptr_array_add (graphs, program_new (8));
  for (guint g = 0; g < graphs->len; g++)
    {
      GraftGraph *graph = graphs->pdata[g];
      g_autoptr (GraftScopes) at_once = graft_scopes_new (graph);
      guint              n = graft_graph_get_n_nodes (graph);
      static const guint sizes[] = { 1, 7, 100 };

      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        {
          guint n_steps;
          g_autoptr (GraftScopes) stepped = build_in_steps (graph, sizes[s], 0, &n_steps);
          g_autoptr (GraftScopes) edited = NULL;
          g_autoptr (GraftScopes) edited_at_once = NULL;

          /* Five passes of n nodes each at least, cut in steps. */
          g_assert_cmpuint (n_steps, >=, 5 * ((n + sizes[s] - 1) / sizes[s]));
          assert_same_scopes (at_once, stepped);
          /* One edit (a node added), or two (added and taken out). */
          edited = build_in_steps (graph, sizes[s], 1 + s % 2, &n_steps);
          edited_at_once = graft_scopes_new (graph);
          g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, s % 2 == 0 ? n + 1 : n);
          assert_same_scopes (edited_at_once, edited);
          if (s % 2 == 0)
            edit_graph (graph);
          g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, n);
        }
      /* At once, in one step per pass (and per table cleared). */
      {
        guint n_steps;
        g_autoptr (GraftScopes) one = build_in_steps (graph, G_MAXUINT, 0, &n_steps);

        g_assert_cmpuint (n_steps, <=, 14);
        assert_same_scopes (at_once, one);
      }
    }
}

/* A program large enough that the builder sizes its tables of module
 * paths and clears them in steps before they fill (1,920 placeholders,
 * 1,125 frames that are not the node before's: 1,024 items and more).
 * What the tables decide holds for every block: a weight is drawn right
 * before its first user, an unused buffer right before the first node
 * that ran in its module; and the scopes made in steps of any size, with
 * edits between, are those made at once. */
static void
test_builder_presized (void)
{
  g_autoptr (GraftGraph) graph = program_new (160);
  g_autoptr (GraftScopes) at_once = graft_scopes_new (graph);
  g_autofree guint      *order = graft_draw_order_new (graph);
  guint                  n = graft_graph_get_n_nodes (graph);
  g_autofree GraftNode **nodes = g_new (GraftNode *, n);
  guint                  i = 0;
  guint                  n_used = 0;
  guint                  n_unused = 0;
  static const guint     sizes[] = { 37, 100, 1000 };

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    nodes[i++] = node;
  for (guint p = 0; p < n; p++)
    {
      GraftNode *node = nodes[order[p]];
      GraftNode *next;
      guint      q;

      if (graft_node_get_op (node) != GRAFT_OP_PLACEHOLDER ||
          strcmp (graft_node_get_name (node), "x") == 0)
        continue;
      for (q = p + 1; q < n && graft_node_get_op (nodes[order[q]]) == GRAFT_OP_PLACEHOLDER; q++)
        ;
      g_assert_cmpuint (q, <, n);
      next = nodes[order[q]];
      if (graft_node_get_n_users (node) > 0)
        {
          g_assert_true (next == graft_node_get_user (node, 0));
          n_used++;
        }
      else
        {
          /* b_layer1_0_bn1_num_batches_tracked: layer1.0.bn1's. */
          const GraftNodeMeta *meta = graft_node_get_meta (next);
          g_autofree char     *flat = NULL;
          g_autofree char     *expected = NULL;

          g_assert_nonnull (meta);
          flat = g_strdelimit (g_strdup (meta->modules[meta->n_modules - 1].path), ".", '_');
          expected = g_strdup_printf ("b_%s_num_batches_tracked", flat);
          g_assert_cmpstr (graft_node_get_name (node), ==, expected);
          n_unused++;
        }
    }
  g_assert_cmpuint (n_used, ==, 160 * 10);
  g_assert_cmpuint (n_unused, ==, 160 * 2);
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      guint n_steps;
      g_autoptr (GraftScopes) stepped = build_in_steps (graph, sizes[s], 0, &n_steps);
      g_autoptr (GraftScopes) edited = NULL;
      g_autoptr (GraftScopes) edited_at_once = NULL;

      assert_same_scopes (at_once, stepped);
      edited = build_in_steps (graph, sizes[s], 1 + s % 2, &n_steps);
      edited_at_once = graft_scopes_new (graph);
      assert_same_scopes (edited_at_once, edited);
      if (s % 2 == 0)
        edit_graph (graph);
      g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, n);
    }
}

/* A program whose placeholders are not in the signature's order (an
 * edit moved one) has the same scopes, node by node: the weights are then
 * looked up by name rather than in order. */
static void
test_program_out_of_order (void)
{
  g_autoptr (GraftGraph) in_order = program_new (4);
  g_autoptr (GraftGraph) moved = program_new (4);
  g_autoptr (GraftScopes) expected = graft_scopes_new (in_order);
  g_autoptr (GraftScopes) scopes = NULL;
  GraftNode *first = graft_graph_get_first (moved);
  GraftNode *last_placeholder = first;
  guint      i = 0;
  guint      weights = 0;

  for (GraftNode *node = first; node != NULL; node = graft_node_get_next (node))
    if (graft_node_get_op (node) == GRAFT_OP_PLACEHOLDER)
      last_placeholder = node;
  g_assert_true (last_placeholder != first);
  graft_graph_move_before (moved, last_placeholder, first);
  scopes = graft_scopes_new (moved);
  for (GraftNode *node = graft_graph_get_first (moved); node != NULL;
       node = graft_node_get_next (node), i++)
    {
      gint j = 0;

      for (GraftNode *twin = graft_graph_get_first (in_order);
           g_strcmp0 (graft_node_get_name (twin), graft_node_get_name (node)) != 0;
           twin = graft_node_get_next (twin))
        j++;
      g_assert_cmpstr (graft_scopes_get_node_scope (scopes, i), ==,
                       graft_scopes_get_node_scope (expected, (guint) j));
      weights += graft_node_get_op (node) == GRAFT_OP_PLACEHOLDER &&
                 *graft_scopes_get_node_scope (scopes, i) != '\0';
    }
  /* The weights are in their modules, not in the whole graph. */
  g_assert_cmpuint (weights, >, 8);

  /* Their boxes say what they are, as in order. */
  {
    g_autoptr (GraftLayoutRequest) req_a = graft_layout_request_new (in_order);
    g_autoptr (GraftLayoutRequest) req_b = graft_layout_request_new (moved);
    g_autoptr (GraftLayout) a = graft_layout_request_run (req_a, NULL);
    g_autoptr (GraftLayout) b = graft_layout_request_run (req_b, NULL);
    guint parameters = 0;

    g_assert_nonnull (a);
    g_assert_nonnull (b);
    g_assert_cmpuint (graft_layout_get_n_nodes (a), ==, graft_layout_get_n_nodes (b));
    for (guint k = 0; k < graft_layout_get_n_nodes (b); k++)
      {
        const GraftLayoutNode *nb = graft_layout_get_node (b, k);
        gint                   box = graft_layout_find_node (a, nb->name);
        const GraftLayoutNode *na;

        if (nb->is_stub)
          continue;
        g_assert_cmpint (box, >=, 0);
        na = graft_layout_get_node (a, (guint) box);
        g_assert_cmpstr (na->caption, ==, nb->caption);
        g_assert_cmpstr (na->label, ==, nb->label);
        g_assert_cmpint (na->role, ==, nb->role);
        parameters += nb->role == GRAFT_LAYOUT_ROLE_PARAMETER;
      }
    g_assert_cmpuint (parameters, >, 4);
  }
}

/* A layout request made in steps, however small, is the one made at once:
 * unfolded, folded, a subset shown, of a traced graph and of a program,
 * even when other work numbers the nodes between the steps. */
static void
test_request_steps (void)
{
  g_autoptr (GraftGraph) resnet = load_torchvision ("resnet18");
  g_autoptr (GraftGraph) program = program_new (4);
  GraftGraph *graphs[] = { resnet, program };

  for (guint g = 0; g < G_N_ELEMENTS (graphs); g++)
    {
      GraftGraph *graph = graphs[g];
      guint       n = graft_graph_get_n_nodes (graph);
      g_autoptr (GraftScopes) scopes = graft_scopes_new (graph);
      g_autoptr (GHashTable) folded = graft_scopes_new_folded_at (scopes, 1);
      g_autofree gboolean *shown = g_new0 (gboolean, n);

      for (guint i = n / 3; i < n / 2; i++)
        shown[i] = TRUE;
      for (guint c = 0; c < 4; c++)
        {
          GraftScopes    *with_scopes = c == 0 || c == 3 ? NULL : scopes;
          GHashTable     *collapsed = c == 1 ? folded : NULL;
          const gboolean *with_shown = c == 3 ? shown : NULL;
          g_autoptr (GraftLayoutRequest) once =
              graft_layout_request_new_folded (graph, with_scopes, collapsed, with_shown);
          g_autoptr (GraftLayout) at_once = graft_layout_request_run (once, NULL);
          static const guint sizes[] = { 1, 7, 100 };

          g_assert_nonnull (at_once);
          for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
            {
              g_autoptr (GraftLayoutRequestBuilder) builder =
                  graft_layout_request_builder_new (graph, with_scopes, collapsed, with_shown);
              g_autoptr (GraftLayoutRequest) stepped = NULL;
              g_autoptr (GraftLayout) layout = NULL;
              guint n_steps = 1;

              while (!graft_layout_request_builder_step (builder, sizes[s]))
                {
                  g_autofree guint *order = graft_draw_order_new (graph);

                  n_steps++;
                }
              /* The nodes are listed and sorted into boxes in steps. */
              g_assert_cmpuint (n_steps, >=, 2 * ((n + sizes[s] - 1) / sizes[s]));
              stepped = graft_layout_request_builder_finish (g_steal_pointer (&builder));
              layout = graft_layout_request_run (stepped, NULL);
              g_assert_nonnull (layout);
              test_assert_layouts_equal (at_once, layout);
            }
        }
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/scope/resnet", test_resnet_scopes);
  g_test_add_func ("/core/scope/expand-collapse", test_expand_collapse);
  g_test_add_func ("/core/scope/folded-corpus", test_folded_corpus);
  g_test_add_func ("/core/scope/shown-subset", test_shown_subset);
  g_test_add_func ("/core/layout/spatial-index", test_spatial_index);
  g_test_add_func ("/core/layout/progress", test_progress);
  g_test_add_func ("/core/scope/program", test_program_scopes);
  g_test_add_func ("/core/scope/builder-steps", test_builder_steps);
  g_test_add_func ("/core/scope/builder-presized", test_builder_presized);
  g_test_add_func ("/core/layout/request-steps", test_request_steps);
  g_test_add_func ("/core/scope/program-out-of-order", test_program_out_of_order);
  g_test_add_func ("/core/layout/program", test_program_layout);
  return g_test_run ();
}
