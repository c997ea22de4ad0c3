/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-big-program.c: a large torch.export program in the editor, under a
 * display (Xvfb in CI).  The program is made at build time by
 * tests/bench/gen-program-big.py (`6000 --groups 8`: 4 stages of 8 groups
 * of 10 torchvision BasicBlocks, 6,089 nodes; GRAFT_TEST_PROGRAM names
 * it).  It opens folded by its module frames at the deepest level of at
 * most 300 boxes: the 32 groups (the 320 blocks are too many), each a box
 * labelled with its path and class that holds its 190 nodes, between the
 * stem and the head, which stay nodes.  Opening a group shows its ten
 * blocks, folded, and leaves the other groups folded; the view then pans
 * and zooms with the folded graph drawn.
 *
 * /ui/program/autosave-in-turns autosaves the program with its code made
 * in small steps (the header of its parameters in parts too), edited
 * while the code is made: what is written is the code of the graph as
 * the edits leave it, whole.
 *
 * /ui/program/code-rows shows the program's code (888 KB) in the Code
 * tab as rows made in turns, in step with the canvas, and made again
 * after a change while they are made.
 *
 * /ui/program/code-not-compiling opens small programs of
 * tests/data/programs-renamed: one whose code torch cannot compile shows,
 * exports and keeps what `graft code` prints (torch's empty forward, the
 * oracle's), says why above the code, and refuses rewrites and Save as
 * `graft rewrite` refuses; one whose code compiles is unchanged.
 */
#include "config.h"

#include "graft-autosave.h"
#include "graft-code-sync.h"
#include "graft-document-private.h"
#include "graft-match-item.h"
#include "graft-window-private.h"
#include "graft-code-rows.h"
#include "window-util.h"

#include <glib/gstdio.h>
#include <string.h>
#include <time.h>

#define STAGES      4
#define GROUPS      8
#define BLOCKS      10
#define BLOCK_NODES 19

/* The box of scope @path, folded, with @n nodes, labelled with the path
 * and @type. */
static void
assert_folded (GraftLayout *layout,
               const char  *path,
               guint        n,
               const char  *type)
{
  gint                   box = find_layout_box (layout, path);
  const GraftLayoutNode *node;
  g_autofree char       *label = g_strdup_printf ("%s · %s", path, type);

  g_assert_cmpint (box, >=, 0);
  node = graft_layout_get_node (layout, (guint) box);
  g_assert_cmpuint (node->n_members, ==, n);
  g_assert_cmpstr (node->label, ==, label);
}

static GraftWindow *
open_program (void)
{
  const char *path = g_getenv ("GRAFT_TEST_PROGRAM");

  g_assert_nonnull (path);
  return open_path (path);
}

static void
test_opens_folded (void)
{
  GraftWindow *window = open_program ();
  GraftCanvas *canvas = graft_window_get_canvas (window);
  GraftLayout *layout = graft_canvas_get_layout (canvas);
  GraftGraph  *graph = graft_document_get_graph (graft_window_get_document (window));
  guint        n_folded = 0;

  g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==,
                    STAGES * GROUPS * BLOCKS * BLOCK_NODES + 9);
  for (guint i = 0; i < STAGES; i++)
    for (guint j = 0; j < GROUPS; j++)
      {
        g_autofree char *path = g_strdup_printf ("stages.%u.%u", i, j);

        assert_folded (layout, path, BLOCKS * BLOCK_NODES, "Sequential");
        n_folded++;
      }
  /* Nothing deeper or shallower is a box of its own: no block, no stage,
   * no node of a block; the stem's convolution and the head are nodes. */
  g_assert_cmpint (find_layout_box (layout, "stages.0.0.0"), ==, -1);
  g_assert_cmpint (find_layout_box (layout, "stages.0"), ==, -1);
  g_assert_cmpint (find_layout_box (layout, "conv2d_1"), ==, -1);
  g_assert_cmpint (find_layout_box (layout, "conv2d"), >=, 0);
  g_assert_cmpint (find_layout_box (layout, "linear"), >=, 0);
  g_assert_cmpuint (n_folded, ==, STAGES * GROUPS);
  close_window (window);
}

static guint n_paints;

static void
count_paint_cb (GdkFrameClock *clock,
                gpointer       data)
{
  n_paints++;
}

static gboolean
painted (gpointer data)
{
  return n_paints > GPOINTER_TO_UINT (data);
}

static void
test_expand_group (void)
{
  GraftWindow   *window = open_program ();
  GraftCanvas   *canvas = graft_window_get_canvas (window);
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  GraftLayout   *layout;
  double         zoom;

  activate (window, "expand-scope", g_variant_new_string ("stages.1.3"));
  iterate_until (layout_ready, window);
  layout = graft_canvas_get_layout (canvas);
  g_assert_cmpint (find_layout_box (layout, "stages.1.3"), ==, -1);
  for (guint k = 0; k < BLOCKS; k++)
    {
      g_autofree char *path = g_strdup_printf ("stages.1.3.%u", k);

      assert_folded (layout, path, BLOCK_NODES, "BasicBlock");
    }
  assert_folded (layout, "stages.1.2", BLOCKS * BLOCK_NODES, "Sequential");
  assert_folded (layout, "stages.3.7", BLOCKS * BLOCK_NODES, "Sequential");
  /* The layout shares the names of the one before (the same graph): found
   * by name, a node drawn alone and one folded into a block's box. */
  g_assert_cmpint (graft_layout_find_node (layout, "conv2d"), ==,
                   find_layout_box (layout, "conv2d"));
  g_assert_cmpint (graft_layout_find_node (layout, "linear"), ==,
                   find_layout_box (layout, "linear"));
  g_assert_cmpint (graft_layout_find_graph_node (layout, "no such node"), ==, -1);
  {
    const guint *members;
    guint        n_members;
    gint         block = find_layout_box (layout, "stages.1.3.5");

    members = graft_layout_get_members (layout, (guint) block, &n_members);
    g_assert_cmpuint (n_members, ==, BLOCK_NODES);
    for (guint k = 0; k < n_members; k++)
      g_assert_cmpint (graft_layout_find_node (
                           layout, graft_layout_get_node_name (layout, members[k])),
                       ==, block);
  }

  /* Panning and zooming redraw the folded graph. */
  g_signal_connect (clock, "after-paint", G_CALLBACK (count_paint_cb), NULL);
  {
    const GraftRect *r =
        &graft_layout_get_node (layout, find_layout_box (layout, "stages.1.3.5"))->box;
    guint before = n_paints;

    graft_canvas_set_center (canvas, r->x + r->width / 2, r->y + r->height / 2);
    iterate_until (painted, GUINT_TO_POINTER (before));
  }
  zoom = graft_canvas_get_zoom (canvas);
  {
    guint before = n_paints;

    graft_canvas_set_zoom (canvas, zoom * 2);
    iterate_until (painted, GUINT_TO_POINTER (before));
  }
  g_assert_cmpfloat (graft_canvas_get_zoom (canvas), >, zoom);
  g_signal_handlers_disconnect_by_func (clock, count_paint_cb, NULL);
  close_window (window);
}

/* Reads @file into @document, then a small graph over it. */
static void
read_then_other (GraftDocument *document,
                 GFile         *file)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (graft_document_load_file (document, file, &error));
  g_assert_true (graft_document_load_text (document, "small.py",
                                           "import torch\n"
                                           "class M(torch.nn.Module):\n"
                                           "    def forward(self, x):\n"
                                           "        return x + 1\n",
                                           &error));
  g_assert_no_error (error);
}

/* The scopes of a large graph are made while its file is read, the same as
 * made from the graph, handed out once, and only while the graph is the
 * one read. */
static void
test_scopes_on_load (void)
{
  const char *path = g_getenv ("GRAFT_TEST_PROGRAM");
  g_autoptr (GraftDocument) document = graft_document_new ();
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;
  GraftScopes *loaded;
  GraftScopes *made;
  GraftGraph  *graph;
  guint        n;

  g_assert_nonnull (path);
  file = g_file_new_for_path (path);
  g_assert_true (graft_document_load_file (document, file, &error));
  g_assert_no_error (error);
  graph = graft_document_get_graph (document);
  n = graft_graph_get_n_nodes (graph);
  loaded = graft_document_steal_scopes (document);
  g_assert_nonnull (loaded);
  g_assert_null (graft_document_steal_scopes (document));
  made = graft_scopes_new (graph);
  g_assert_cmpuint (graft_scopes_get_n_nodes (loaded), ==, n);
  g_assert_cmpuint (graft_scopes_get_n_depths (loaded), ==, graft_scopes_get_n_depths (made));
  g_assert_cmpmem (graft_scopes_get_order (loaded), n * sizeof (guint),
                   graft_scopes_get_order (made), n * sizeof (guint));
  for (guint i = 0; i < n; i++)
    {
      const char *scope = graft_scopes_get_node_scope (loaded, i);

      g_assert_cmpstr (scope, ==, graft_scopes_get_node_scope (made, i));
      g_assert_cmpuint (graft_scopes_get_depth (loaded, scope), ==,
                        graft_scopes_get_depth (made, scope));
      g_assert_cmpstr (graft_scopes_get_type_name (loaded, scope), ==,
                       graft_scopes_get_type_name (made, scope));
    }
  graft_scopes_free (made);
  graft_scopes_free (loaded);

  /* Read again, then another graph: the scopes read were of the first. */
  read_then_other (document, file);
  g_assert_null (graft_document_steal_scopes (document));
}

/* @a and @b draw the same boxes at the same places. */
static void
assert_same_layout (GraftLayout *a,
                    GraftLayout *b)
{
  g_assert_cmpuint (graft_layout_get_n_nodes (a), ==, graft_layout_get_n_nodes (b));
  g_assert_cmpuint (graft_layout_get_n_graph_nodes (a), ==, graft_layout_get_n_graph_nodes (b));
  for (guint i = 0; i < graft_layout_get_n_nodes (a); i++)
    {
      const GraftLayoutNode *x = graft_layout_get_node (a, i);
      const GraftLayoutNode *y = graft_layout_get_node (b, i);

      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpstr (x->label, ==, y->label);
      g_assert_cmpuint (x->n_members, ==, y->n_members);
      g_assert_cmpfloat (x->box.x, ==, y->box.x);
      g_assert_cmpfloat (x->box.y, ==, y->box.y);
      g_assert_cmpfloat (x->box.width, ==, y->box.width);
      g_assert_cmpfloat (x->box.height, ==, y->box.height);
    }
  for (guint i = 0; i < graft_layout_get_n_graph_nodes (a); i++)
    {
      const char *name = graft_layout_get_node_name (a, i);

      g_assert_cmpstr (name, ==, graft_layout_get_node_name (b, i));
      g_assert_cmpint (graft_layout_find_graph_node (a, name), ==, (gint) i);
      g_assert_cmpint (graft_layout_find_node (a, name), ==, graft_layout_find_node (b, name));
    }
  g_assert_cmpint (graft_layout_find_graph_node (a, "no such node"), ==, -1);
}

/* The first layout's request of a large graph is made while its file is
 * read, folded as the layout runner folds a new graph and the same as it
 * makes on the main loop; handed out once, for that overview, and only
 * while the graph is the one read.  A window opening the file takes it. */
static void
test_request_on_load (void)
{
  const char *path = g_getenv ("GRAFT_TEST_PROGRAM");
  g_autoptr (GraftDocument) document = graft_document_new ();
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) collapsed = NULL;
  g_autoptr (GHashTable) made_collapsed = NULL;
  GHashTable         *again;
  GraftLayoutRequest *request;
  GraftLayoutRequest *made;
  GraftLayout        *layout;
  GraftLayout        *made_layout;
  GraftScopes        *scopes;
  GHashTableIter      iter;
  gpointer            key;
  guint               boxes;
  GraftWindow        *window;

  g_assert_nonnull (path);
  file = g_file_new_for_path (path);
  g_assert_true (graft_document_load_file (document, file, &error));
  g_assert_no_error (error);
  scopes = graft_scopes_new (graft_document_get_graph (document));
  made = graft_layout_runner_new_first_request (graft_document_get_graph (document), scopes,
                                                &made_collapsed, &boxes);
  g_assert_nonnull (made);
  /* Another overview than the runner's drops it. */
  g_assert_null (_graft_document_steal_loaded_request (document, boxes + 1, &again));
  g_assert_null (again);
  g_assert_null (_graft_document_steal_loaded_request (document, boxes, &again));
  g_assert_null (again);
  g_assert_true (graft_document_load_file (document, file, &error));
  request = _graft_document_steal_loaded_request (document, boxes, &collapsed);
  g_assert_nonnull (request);
  g_assert_nonnull (collapsed);
  g_assert_null (_graft_document_steal_loaded_request (document, boxes, &again));
  g_assert_null (again);
  /* The groups, as the runner chooses them. */
  g_assert_cmpuint (g_hash_table_size (collapsed), ==, g_hash_table_size (made_collapsed));
  g_hash_table_iter_init (&iter, made_collapsed);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_assert_true (g_hash_table_contains (collapsed, key));
  layout = graft_layout_request_run (request, &error);
  g_assert_no_error (error);
  made_layout = graft_layout_request_run (made, &error);
  g_assert_no_error (error);
  assert_same_layout (layout, made_layout);
  graft_layout_free (made_layout);
  graft_layout_free (layout);
  graft_layout_request_free (made);
  graft_layout_request_free (request);
  graft_scopes_free (scopes);

  /* Read again, then another graph: the request read was of the first. */
  read_then_other (document, file);
  g_assert_null (_graft_document_steal_loaded_request (document, boxes, &again));
  g_assert_null (again);

  /* The window's first layout is made of it: nothing is left, and the
   * folded graph drawn is the one the runner makes on the main loop. */
  window = open_program ();
  g_assert_null (graft_window_get_document (window)->loaded_request);
  g_assert_null (graft_window_get_document (window)->loaded_collapsed);
  scopes = graft_scopes_new (graft_document_get_graph (graft_window_get_document (window)));
  g_clear_pointer (&made_collapsed, g_hash_table_unref);
  made = graft_layout_runner_new_first_request (
      graft_document_get_graph (graft_window_get_document (window)), scopes, &made_collapsed,
      &boxes);
  made_layout = graft_layout_request_run (made, &error);
  g_assert_no_error (error);
  assert_same_layout (graft_canvas_get_layout (graft_window_get_canvas (window)), made_layout);
  graft_layout_free (made_layout);
  graft_layout_request_free (made);
  graft_scopes_free (scopes);
  close_window (window);
}

/* The pattern of the program's ReLUs, as torch.export writes them. */
#define RELU_PATTERN  \
  "import torch\n"    \
  "\n"                \
  "\n"                \
  "def pattern(x):\n" \
  "    return torch.ops.aten.relu_.default(x)\n"

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  gboolean *done = user_data;
  GError   *error = NULL;

  g_assert_true (graft_document_load_file_finish (GRAFT_DOCUMENT (object), result, &error));
  g_assert_no_error (error);
  *done = TRUE;
}

/* Reads @file into @document on the loading worker and waits for it. */
static void
load_async (GraftDocument *document,
            GFile         *file)
{
  gboolean done = FALSE;

  graft_document_load_file_async (document, file, NULL, loaded_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* @a and @b list the same matches, rows and dropped candidates. */
static void
assert_same_matches (GraftDocument *a,
                     GraftDocument *b)
{
  GListModel *rows_a = graft_document_get_matches (a);
  GListModel *rows_b = graft_document_get_matches (b);

  g_assert_cmpuint (graft_document_get_n_matches (a), ==, graft_document_get_n_matches (b));
  g_assert_cmpuint (graft_document_get_n_dropped (a), ==, graft_document_get_n_dropped (b));
  for (guint i = 0; i < graft_document_get_n_matches (a); i++)
    {
      g_autoptr (GPtrArray) nodes_a = graft_match_dup_nodes (graft_document_get_match (a, i));
      g_autoptr (GPtrArray) nodes_b = graft_match_dup_nodes (graft_document_get_match (b, i));

      g_assert_cmpuint (nodes_a->len, ==, nodes_b->len);
      for (guint k = 0; k < nodes_a->len; k++)
        g_assert_cmpstr (graft_node_get_name (nodes_a->pdata[k]), ==,
                         graft_node_get_name (nodes_b->pdata[k]));
      g_assert_cmpint (graft_document_get_match_of_node (
                           a, graft_node_get_name (nodes_a->pdata[0])),
                       ==, (gint) i);
    }
  g_assert_cmpuint (g_list_model_get_n_items (rows_a), ==, g_list_model_get_n_items (rows_b));
  for (guint i = 0; i < g_list_model_get_n_items (rows_a); i++)
    {
      g_autoptr (GraftMatchItem) x = g_list_model_get_item (rows_a, i);
      g_autoptr (GraftMatchItem) y = g_list_model_get_item (rows_b, i);

      g_assert_cmpstr (graft_match_item_get_title (x), ==, graft_match_item_get_title (y));
      g_assert_cmpstr (graft_match_item_get_nodes (x), ==, graft_match_item_get_nodes (y));
      g_assert_cmpstr (graft_match_item_get_anchor (x), ==, graft_match_item_get_anchor (y));
    }
}

/* A large file read on the worker while another file is read into the
 * same document, one that cannot be read: that one's error keeps its
 * place, and the large file, installed last, brings its own first
 * layout's request, of its graph. */
static void
test_request_after_other (void)
{
  const char      *path = g_getenv ("GRAFT_TEST_PROGRAM");
  g_autofree char *bad_path =
      g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "program-errors", "bad_json.pt2", NULL);
  g_autoptr (GraftDocument) document = graft_document_new ();
  g_autoptr (GFile) file = NULL;
  g_autoptr (GFile) bad = g_file_new_for_path (bad_path);
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) collapsed = NULL;
  g_autofree char    *message = NULL;
  GraftLayoutRequest *request;
  GraftLayout        *layout;
  gboolean            done = FALSE;
  guint               boxes;

  g_assert_nonnull (path);
  file = g_file_new_for_path (path);
  graft_document_load_file_async (document, file, NULL, loaded_cb, &done);
  g_assert_false (graft_document_load_file (document, bad, &error));
  message = graft_error_format (error, NULL);
  g_assert_nonnull (strstr (message, "bad_json.pt2:serialized_exported_program.json:401:2: error: "
                                     "expecting ',' delimiter"));
  g_clear_error (&error);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (graft_graph_get_n_nodes (graft_document_get_graph (document)), ==,
                    STAGES * GROUPS * BLOCKS * BLOCK_NODES + 9);
  g_assert_null (graft_document_get_load_error (document));
  {
    GraftScopes *scopes = graft_scopes_new (graft_document_get_graph (document));
    g_autoptr (GHashTable) made_collapsed = NULL;
    GraftLayoutRequest *made = graft_layout_runner_new_first_request (
        graft_document_get_graph (document), scopes, &made_collapsed, &boxes);
    GraftLayout *made_layout = graft_layout_request_run (made, &error);

    g_assert_no_error (error);
    request = _graft_document_steal_loaded_request (document, boxes, &collapsed);
    g_assert_nonnull (request);
    layout = graft_layout_request_run (request, &error);
    g_assert_no_error (error);
    assert_same_layout (layout, made_layout);
    graft_layout_free (layout);
    graft_layout_free (made_layout);
    graft_layout_request_free (made);
    graft_layout_request_free (request);
    graft_scopes_free (scopes);
  }
}

/* The chosen rule's matches on a large graph are found on the loading
 * worker, the same as found on the main loop; not when the pattern
 * changed meanwhile, nor when the file was read at once. */
static void
test_matches_on_load (void)
{
  const char *path = g_getenv ("GRAFT_TEST_PROGRAM");
  g_autoptr (GraftDocument) loaded = graft_document_new ();
  g_autoptr (GraftDocument) found = graft_document_new ();
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (path);
  file = g_file_new_for_path (path);
  graft_document_set_pattern_text (loaded, RELU_PATTERN);
  graft_document_set_pattern_text (found, RELU_PATTERN);
  _graft_document_ensure_matches (loaded);
  load_async (loaded, file);
  /* Found, not yet shown: the next turn shows them. */
  g_assert_false (loaded->matches_stale);
  g_assert_nonnull (loaded->found);
  g_assert_true (graft_document_get_matches_pending (loaded));
  g_assert_true (graft_document_load_file (found, file, &error));
  g_assert_no_error (error);
  g_assert_true (found->matches_stale);
  g_assert_cmpuint (graft_document_get_n_matches (found), >=, STAGES * GROUPS * BLOCKS * 2);
  assert_same_matches (loaded, found);

  /* Nobody gave a rule: a program gets its own, its ReLUs as torch.export
   * wrote them (in place here) instead of `torch.relu(x)`, which finds
   * nothing in a program; found on the worker too.  A module read after
   * it gets the module's again. */
  graft_document_set_pattern_text (loaded, "import torch\n\n\ndef pattern(x):\n"
                                           "    return torch.relu(x)\n");
  g_assert_true (graft_document_get_texts_are_default (loaded));
  load_async (loaded, file);
  g_assert_cmpstr (graft_document_get_pattern_text (loaded), ==, RELU_PATTERN);
  g_assert_cmpstr (graft_document_get_replacement_text (loaded), ==,
                   "import torch\n\n\ndef replacement(x):\n"
                   "    return torch.ops.aten.clamp_min_.default(x, 0)\n");
  g_assert_true (graft_document_get_texts_are_default (loaded));
  g_assert_false (loaded->matches_stale);
  g_assert_true (graft_document_get_matches_pending (loaded));
  assert_same_matches (loaded, found);
  g_assert_true (graft_document_load_text (loaded, "m.py",
                                           "import torch\n\n\nclass M(torch.nn.Module):\n"
                                           "    def forward(self, x):\n"
                                           "        return torch.relu(x) + 1\n",
                                           &error));
  g_assert_no_error (error);
  g_assert_cmpstr (graft_document_get_pattern_text (loaded), ==,
                   "import torch\n\n\ndef pattern(x):\n    return torch.relu(x)\n");
  g_assert_cmpuint (graft_document_get_n_matches (loaded), ==, 1);

  /* A rule somebody gave stays: the module's pattern with the program's
   * replacement is nobody's default. */
  graft_document_set_replacement_text (loaded,
                                       "import torch\n\n\ndef replacement(x):\n"
                                       "    return torch.ops.aten.clamp_min_.default(x, 0)\n");
  g_assert_false (graft_document_get_texts_are_default (loaded));
  load_async (loaded, file);
  g_assert_cmpstr (graft_document_get_pattern_text (loaded), ==,
                   "import torch\n\n\ndef pattern(x):\n    return torch.relu(x)\n");
  g_assert_cmpuint (graft_document_get_n_matches (loaded), ==, 0);

  /* The pattern changed while the file was read: searched on the main
   * loop, for the new pattern. */
  {
    gboolean done = FALSE;

    graft_document_load_file_async (loaded, file, NULL, loaded_cb, &done);
    graft_document_set_pattern_text (loaded, RELU_PATTERN);
    while (!done)
      g_main_context_iteration (NULL, TRUE);
    g_assert_true (loaded->matches_stale);
    assert_same_matches (loaded, found);
  }
}

static char *
renamed_path (const char *name)
{
  return g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "programs-renamed", name, NULL);
}

/* As `graft code` prints @code: Python's strip() and a newline (cli.md). */
static char *
printed (const char *code)
{
  g_autofree char *copy = g_strdup (code);

  return g_strconcat (g_strstrip (copy), "\n", NULL);
}

static gboolean
export_done (gpointer window)
{
  return graft_window_get_export (window) == NULL;
}

static gboolean
replace_all_over (gpointer document)
{
  return !graft_document_get_rewriting (document);
}

/* Exports @window's code to @dir and returns what was written. */
static char *
export_code (GraftWindow *window,
             const char  *dir)
{
  g_autofree char *path = g_build_filename (dir, "code.py", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  char *text = NULL;

  g_assert_true (graft_window_export (window, file, GRAFT_FORMAT_CODE, GRAFT_EXPORT_SCOPE_WHOLE,
                                      FALSE, &error));
  g_assert_no_error (error);
  iterate_until (export_done, window);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_unlink (path);
  return text;
}

/* The Code tab shown: its text (what graft_document_get_code() returns,
 * without the leading newlines) and whether its note is shown. */
static char *
shown_code (GraftWindow *window,
            gboolean    *out_note)
{
  gtk_stack_set_visible_child_name (window->editor_stack, "code");
  iterate_pending ();
  *out_note = gtk_widget_get_visible (GTK_WIDGET (window->code_note));
  return buffer_text (gtk_text_view_get_buffer (window->code_view));
}

static void
test_code_not_compiling (void)
{
  g_autofree char *path = renamed_path ("placeholder_keyword.pt2");
  g_autofree char *golden_path = renamed_path ("placeholder_keyword.torch26.code");
  g_autofree char *golden = NULL;
  g_autofree char *dir = g_dir_make_tmp ("graft-renamed-XXXXXX", NULL);
  g_autofree char *saved = g_build_filename (dir, "saved.py", NULL);
  g_autoptr (GFile) saved_file = g_file_new_for_path (saved);
  g_autoptr (GError) error = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *after = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected_file = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *code = NULL;
  GraftWindow     *window;
  GraftDocument   *document;
  const GError    *code_error;
  gboolean         note = FALSE;

  g_assert_true (g_file_get_contents (golden_path, &golden, NULL, NULL));
  window = open_path (path);
  document = graft_window_get_document (window);
  listing = graft_listing_print (graft_document_get_graph (document));

  /* What `graft code` prints: torch's gm.code, as the oracle wrote it. */
  code_error = graft_document_get_code_error (document);
  g_assert_error (code_error, GRAFT_ERROR, GRAFT_ERROR_GRAPH);
  g_assert_true (g_str_has_prefix (code_error->message, "SyntaxError: placeholder lambda "));
  g_assert_cmpstr (code = printed (graft_document_get_code (document)), ==, golden);
  g_clear_pointer (&code, g_free);
  expected_file = graft_document_code_to_file_text (golden);
  text = export_code (window, dir);
  g_assert_cmpstr (text, ==, expected_file);

  /* The Code tab says why its forward is empty. */
  shown = shown_code (window, &note);
  g_assert_true (note);
  g_assert_nonnull (strstr (gtk_label_get_text (window->code_note), code_error->message));
  g_assert_cmpstr (code = printed (shown), ==, golden);
  g_clear_pointer (&code, g_free);

  /* Replace All (the program's ReLU into clamp_min matches once) fails
   * as torch's recompile() does, and leaves the graph as it was. */
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 1);
  g_assert_false (graft_document_replace_all (document, &error));
  g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH);
  g_assert_cmpstr (error->message, ==, code_error->message);
  g_clear_error (&error);
  g_assert_false (graft_document_replace (document, 0, &error));
  g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH);
  g_clear_error (&error);
  /* The same by steps, from the window's action: a toast says why. */
  _graft_document_set_rewrite_step (1);
  activate (window, "replace-all", NULL);
  iterate_until (replace_all_over, document);
  _graft_document_set_rewrite_step (0);
  iterate_until (toast_shown, window);
  g_assert_true (g_str_has_prefix (shown_toast (window), "Nothing was replaced: SyntaxError: "));
  after = graft_listing_print (graft_document_get_graph (document));
  g_assert_cmpstr (after, ==, listing);
  g_assert_false (graft_document_get_can_undo (document));
  g_assert_false (graft_document_get_modified (document));
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 1);
  g_assert_cmpstr (code = printed (graft_document_get_code (document)), ==, golden);
  g_clear_pointer (&code, g_free);

  /* No Python file holds the graph: Save refuses and writes nothing. */
  g_assert_false (graft_document_save (document, saved_file, &error));
  g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH);
  g_assert_nonnull (strstr (error->message, code_error->message));
  g_assert_false (g_file_test (saved, G_FILE_TEST_EXISTS));
  close_window (window);
  g_rmdir (dir);
}

/* `*x` compiles: the program's own code, no note, rewrites as usual. */
static void
test_code_compiling (void)
{
  g_autofree char *path = renamed_path ("placeholder_star.pt2");
  g_autofree char *golden_path = renamed_path ("placeholder_star.torch26.code");
  g_autofree char *golden = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *code = NULL;
  g_autoptr (GError) error = NULL;
  GraftWindow   *window;
  GraftDocument *document;
  gboolean       note = TRUE;

  g_assert_true (g_file_get_contents (golden_path, &golden, NULL, NULL));
  window = open_path (path);
  document = graft_window_get_document (window);
  g_assert_null (graft_document_get_code_error (document));
  g_assert_cmpstr (code = printed (graft_document_get_code (document)), ==, golden);
  g_clear_pointer (&code, g_free);
  shown = shown_code (window, &note);
  g_assert_false (note);
  g_assert_cmpstr (code = printed (shown), ==, golden);
  g_clear_pointer (&code, g_free);
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 1);
  g_assert_true (graft_document_replace_all (document, &error));
  g_assert_no_error (error);
  g_assert_true (graft_document_get_can_undo (document));
  g_assert_null (graft_document_get_code_error (document));
  close_window (window);
}

/* A model with a dead node (the sigmoid: its value is never used).  Not
 * test-rules.c's DEAD_MODEL, whose sigmoid is used until its rules make
 * it dead. */
#define SIGMOID_UNUSED_MODEL       \
  "import torch\n"                 \
  "\n"                             \
  "\n"                             \
  "class M(torch.nn.Module):\n"    \
  "    def forward(self, x, y):\n" \
  "        a = torch.relu(x)\n"    \
  "        b = torch.sigmoid(y)\n" \
  "        return a + x\n"

/* A graph the check passed is not checked again when an undo, a redo or a
 * move in the history comes back to it (20 ms at a million nodes, on the
 * main thread); one it never passed is, and what it learns is kept too. */
static void
test_code_check_kept (void)
{
  g_autoptr (GraftDocument) document = graft_document_new ();
  g_autoptr (GError) error = NULL;
  const char *dead[] = { "sigmoid", NULL };
  guint       n;

  g_assert_true (graft_document_load_text (document, "dead.py", SIGMOID_UNUSED_MODEL, &error));
  g_assert_no_error (error);
  graft_document_set_pattern_text (document, "import torch\n\n\ndef pattern(x):\n"
                                             "    return torch.relu(x)\n");
  graft_document_set_replacement_text (document, "import torch\n\n\ndef replacement(x):\n"
                                                 "    return torch.sigmoid(x)\n");
  g_assert_null (graft_document_get_code_error (document));
  n = _graft_document_get_n_code_checks (document);

  /* Replace All checks what it added; a change of the rules between. */
  g_assert_true (graft_document_replace_all (document, &error));
  g_assert_no_error (error);
  graft_document_add_rule (document, NULL, NULL);
  g_assert_cmpuint (graft_document_get_history_length (document), ==, 2);
  g_assert_null (graft_document_get_code_error (document));
  g_assert_cmpuint (_graft_document_get_n_code_checks (document), ==, n);
  g_assert_nonnull (graft_document_undo (document));
  g_assert_nonnull (graft_document_undo (document));
  g_assert_null (graft_document_get_code_error (document));
  g_assert_nonnull (graft_document_redo (document));
  g_assert_null (graft_document_get_code_error (document));
  g_assert_nonnull (graft_document_redo (document));
  g_assert_null (graft_document_get_code_error (document));
  graft_document_go_to (document, 0);
  g_assert_null (graft_document_get_code_error (document));
  graft_document_go_to (document, 2);
  g_assert_null (graft_document_get_code_error (document));
  g_assert_cmpuint (_graft_document_get_n_code_checks (document), ==, n);

  /* A deletion takes nodes out, which never breaks the code: the graph
   * after it holds it as the graph before did, unchecked, undone and
   * redone. */
  g_assert_cmpuint (graft_document_delete_nodes (document, dead, &error), ==, 1);
  g_assert_no_error (error);
  g_assert_true (_graft_document_code_holds (document));
  g_assert_nonnull (graft_document_undo (document));
  g_assert_null (graft_document_get_code_error (document));
  g_assert_cmpuint (_graft_document_get_n_code_checks (document), ==, n);
  g_assert_nonnull (graft_document_redo (document));
  g_assert_null (graft_document_get_code_error (document));
  g_assert_cmpuint (_graft_document_get_n_code_checks (document), ==, n);
  /* Known on either side. */
  g_assert_nonnull (graft_document_undo (document));
  g_assert_null (graft_document_get_code_error (document));
  g_assert_nonnull (graft_document_redo (document));
  g_assert_null (graft_document_get_code_error (document));
  graft_document_go_to (document, 0);
  g_assert_null (graft_document_get_code_error (document));
  graft_document_go_to (document, 3);
  g_assert_null (graft_document_get_code_error (document));
  g_assert_cmpuint (_graft_document_get_n_code_checks (document), ==, n);
}

#define CLAMP_PATTERN \
  "import torch\n"    \
  "\n"                \
  "\n"                \
  "def pattern(x):\n" \
  "    return torch.ops.aten.clamp_min_.default(x, 0)\n"

#define CLAMP_REPLACEMENT \
  "import torch\n"        \
  "\n"                    \
  "\n"                    \
  "def replacement(x):\n" \
  "    return torch.ops.aten.clamp_min_.default(x, 0)\n"

#define RELU_REPLACEMENT  \
  "import torch\n"        \
  "\n"                    \
  "\n"                    \
  "def replacement(x):\n" \
  "    return torch.ops.aten.relu_.default(x)\n"

/* Runs the main loop until the document knows whether its graph holds
 * its code; returns the turns it took. */
static guint
turns_until_code_holds (GraftDocument *document)
{
  guint turns = 0;

  while (!_graft_document_code_holds (document))
    {
      g_assert_cmpuint (turns, <, 100000);
      g_main_context_iteration (NULL, FALSE);
      turns++;
    }
  return turns;
}

/* Reads the program into @document at once; its number of nodes. */
static guint
load_program (GraftDocument *document)
{
  const char *path = g_getenv ("GRAFT_TEST_PROGRAM");
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (path);
  file = g_file_new_for_path (path);
  g_assert_true (graft_document_load_file (document, file, &error));
  g_assert_no_error (error);
  return graft_graph_get_n_nodes (graft_document_get_graph (document));
}

/* Replaces the first match of @pattern by @replacement, whose check of
 * what it adds leaves the code known to compile. */
static void
replace_first (GraftDocument *document,
               const char    *pattern,
               const char    *replacement)
{
  g_autoptr (GError) error = NULL;

  graft_document_set_pattern_text (document, pattern);
  graft_document_set_replacement_text (document, replacement);
  g_assert_cmpuint (graft_document_get_n_matches (document), >, 2);
  g_assert_true (graft_document_replace (document, 0, &error));
  g_assert_no_error (error);
  g_assert_true (_graft_document_code_holds (document));
}

/* After a run of the rules the program's check is not known (the run
 * checks the whole graph at once, as `graft rewrite --rules` does, and
 * records nothing of it); it is found in the turns that follow, a share
 * of the nodes a turn, and the next replacement, one or all, checks only
 * what it adds (the whole graph at once was 20-34 ms at a million nodes).
 * A Replace All that comes before the turns are over checks the graph
 * before it by steps too, then rewrites. */
static void
test_code_check_in_turns (void)
{
  g_autoptr (GraftDocument) document = graft_document_new ();
  g_autoptr (GError) error = NULL;
  guint n_nodes = load_program (document);
  guint turns;
  guint n;

  graft_document_set_pattern_text (document, RELU_PATTERN);
  graft_document_set_replacement_text (document, CLAMP_REPLACEMENT);
  /* 16 * 25 nodes a turn. */
  _graft_document_set_code_step (16);

  g_assert_true (graft_document_run_all (document, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (_graft_document_code_holds (document));
  n = _graft_document_get_n_code_checks (document);
  turns = turns_until_code_holds (document);
  g_assert_cmpuint (turns, >=, n_nodes / (16 * 25));
  g_assert_cmpuint (_graft_document_get_n_code_checks (document), ==, n);
  /* Back the other way: one, then all. */
  replace_first (document, CLAMP_PATTERN, RELU_REPLACEMENT);
  g_assert_true (graft_document_replace_all (document, &error));
  g_assert_no_error (error);
  g_assert_true (_graft_document_code_holds (document));
  g_assert_cmpuint (_graft_document_get_n_code_checks (document), ==, n);

  /* Replace All by steps right after a run: the check first, in turns,
   * the graph as it was meanwhile; then the rewrite, which checks what
   * it added. */
  graft_document_set_pattern_text (document, RELU_PATTERN);
  graft_document_set_replacement_text (document, CLAMP_REPLACEMENT);
  g_assert_true (graft_document_run_all (document, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (_graft_document_code_holds (document));
  n = _graft_document_get_n_code_checks (document);
  graft_document_set_pattern_text (document, CLAMP_PATTERN);
  graft_document_set_replacement_text (document, RELU_REPLACEMENT);
  g_assert_cmpuint (graft_document_get_n_matches (document), >, 2);
  _graft_document_set_rewrite_step (1);
  g_assert_true (graft_document_begin_replace_all (document, &error));
  g_assert_no_error (error);
  turns = 0;
  while (graft_document_get_rewriting (document))
    {
      g_main_context_iteration (NULL, FALSE);
      turns++;
    }
  _graft_document_set_rewrite_step (0);
  g_assert_cmpuint (turns, >=, n_nodes / (16 * 25));
  g_assert_true (_graft_document_code_holds (document));
  g_assert_cmpuint (graft_document_get_n_matches (document), ==, 0);
  g_assert_cmpuint (_graft_document_get_n_code_checks (document), ==, n);
  _graft_document_set_code_step (0);
}

static void
code_made_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  gboolean *done = user_data;

  g_assert_true (graft_document_code_finish (NULL, result, NULL));
  *done = TRUE;
}

/* The code job's first steps look at the graph's names
 * (GRAFT_CODEGEN_JOB_LOOK nodes a turn per node of a code step: one turn
 * of 30-40 ms at a million nodes, on redo, when the job was made); a
 * replacement while it looks drops it, and the code made is that of the
 * graph the replacement leaves, the same as graft_codegen_python()'s. */
static void
test_code_look_in_turns (void)
{
  g_autoptr (GraftDocument) document = graft_document_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *expected = NULL;
  gboolean         done = FALSE;
  guint            n_nodes = load_program (document);
  guint            turns = 0;

  /* The replacement checks what it adds: the job starts in the next
   * turn, and looks at 4 * 25 nodes a turn. */
  replace_first (document, RELU_PATTERN, CLAMP_REPLACEMENT);
  _graft_document_set_code_step (4);
  graft_document_code_async (document, NULL, code_made_cb, &done);
  g_assert_cmpuint (n_nodes / (4 * GRAFT_CODEGEN_JOB_LOOK), >, 16);
  for (guint i = 0; i < 8; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_false (done);
  g_assert_null (_graft_document_peek_code (document));
  g_assert_true (graft_document_get_code_pending (document));

  /* Changed while it looks. */
  g_assert_true (graft_document_replace (document, 0, &error));
  g_assert_no_error (error);
  while (!done)
    {
      g_assert_cmpuint (turns, <, 100000);
      g_main_context_iteration (NULL, FALSE);
      turns++;
    }
  /* The look and the lines again, whole. */
  g_assert_cmpuint (turns, >=, n_nodes / 4);
  expected = graft_codegen_python (graft_document_get_graph (document));
  g_assert_cmpstr (graft_document_get_code (document), ==, expected);
  _graft_document_set_code_step (0);
}

/* A session read into a document speaks its torch first, which frees
 * the graph without a new revision: a check under way goes with it (it
 * read the freed graph in the next turn; AddressSanitizer tells). */
static void
test_code_check_dropped_by_session (void)
{
  g_autoptr (GraftDocument) document = graft_document_new ();
  g_autoptr (GError) error = NULL;

  load_program (document);
  graft_document_set_pattern_text (document, RELU_PATTERN);
  graft_document_set_replacement_text (document, CLAMP_REPLACEMENT);
  _graft_document_set_code_step (16);
  g_assert_true (graft_document_run_all (document, NULL, &error));
  g_assert_no_error (error);
  /* The check of the graph after the run, a few turns into it. */
  for (guint i = 0; i < 3; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_false (_graft_document_code_holds (document));
  _graft_document_speak (document, graft_dialect_get (GRAFT_TORCH_1_13));
  g_assert_cmpuint (graft_graph_get_n_nodes (graft_document_get_graph (document)), ==, 0);
  iterate_pending ();
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (graft_graph_get_n_nodes (graft_document_get_graph (document)), ==, 0);
  _graft_document_set_code_step (0);
}

/* Runs the main loop until the document knows its graph passes the
 * rewriter's own check, or no walk is left; returns the turns run. */
static guint
turns_until_rewrite_ok (GraftDocument *document)
{
  guint turns = 0;

  while (!_graft_document_rewrite_ok (document) && g_main_context_pending (NULL))
    {
      g_assert_cmpuint (turns, <, 100000);
      g_main_context_iteration (NULL, FALSE);
      turns++;
    }
  return turns;
}

/* The rewriter's own check of the graph it leaves (an int literal before
 * a dot) walks every node: 8-12 ms of a Replace at a million nodes.  The
 * document learns in turns that a program's graph passes it, keeps that
 * through the rewrites and deletions it records, and its Replace then
 * checks only what it adds: shown here by a node that fails the check,
 * put behind the document's back, which the next Replace does not see;
 * after an undo the walk finds it, and the Replace checks the whole graph
 * and fails as torch's recompile() would. */
static void
test_rewrite_check_learnt (void)
{
  const char *path = g_getenv ("GRAFT_TEST_PROGRAM");
  g_autoptr (GraftDocument) document = graft_document_new ();
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;
  GraftGraph *graph;
  GraftNode  *bad;
  GraftArg    args;
  guint       n_nodes;
  guint       turns;
  guint       walks;

  g_assert_nonnull (path);
  file = g_file_new_for_path (path);
  g_assert_true (graft_document_load_file (document, file, &error));
  g_assert_no_error (error);
  graph = graft_document_get_graph (document);
  n_nodes = graft_graph_get_n_nodes (graph);
  graft_document_set_pattern_text (document, RELU_PATTERN);
  graft_document_set_replacement_text (document, CLAMP_REPLACEMENT);
  /* 16 * 25 nodes a turn. */
  _graft_document_set_code_step (16);

  /* Learnt in turns after the load, one walk. */
  walks = _graft_document_get_n_rewrite_walks (document);
  turns = turns_until_rewrite_ok (document);
  g_assert_true (_graft_document_rewrite_ok (document));
  g_assert_cmpuint (turns, >=, n_nodes / (16 * 25));
  g_assert_cmpuint (_graft_document_get_n_rewrite_walks (document), ==, walks + 1);
  walks++;

  /* A Replace and a deletion keep it, without a walk. */
  g_assert_cmpuint (graft_document_get_n_matches (document), >, 2);
  g_assert_true (graft_document_replace (document, 0, &error));
  g_assert_no_error (error);
  g_assert_true (_graft_document_rewrite_ok (document));
  g_assert_true (graft_document_replace_all (document, &error));
  g_assert_no_error (error);
  g_assert_true (_graft_document_rewrite_ok (document));
  g_assert_cmpuint (_graft_document_get_n_rewrite_walks (document), ==, walks);

  /* Behind the document's back: `7.neg()`, which no walk has seen. */
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_int (&args.items[0], 7);
  bad = graft_graph_create_node (graph, GRAFT_OP_CALL_METHOD, "neg", &args, NULL, NULL,
                                 graft_graph_get_output (graph));
  g_assert_false (graft_rewriter_check_node (bad, NULL));
  graft_document_set_pattern_text (document, CLAMP_PATTERN);
  graft_document_set_replacement_text (document, RELU_REPLACEMENT);
  g_assert_cmpuint (graft_document_get_n_matches (document), >, 2);
  g_assert_true (graft_document_replace (document, 0, &error));
  g_assert_no_error (error);
  g_assert_true (_graft_document_rewrite_ok (document));
  g_assert_cmpuint (_graft_document_get_n_rewrite_walks (document), ==, walks);

  /* An undo leaves it unknown: the walk finds the node, and the next
   * Replace checks the whole graph, and fails. */
  g_assert_nonnull (graft_document_undo (document));
  g_assert_false (_graft_document_rewrite_ok (document));
  turns_until_rewrite_ok (document);
  g_assert_false (_graft_document_rewrite_ok (document));
  g_assert_cmpuint (_graft_document_get_n_rewrite_walks (document), ==, walks + 1);
  g_assert_false (graft_document_replace (document, 0, &error));
  g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE);
  g_assert_nonnull (strstr (error->message, "would be `7.neg`"));
  g_clear_error (&error);
  /* The node gone (by a deletion, which keeps nothing known), learnt again. */
  {
    const char *names[] = { graft_node_get_name (bad), NULL };

    g_assert_cmpuint (graft_document_delete_nodes (document, names, &error), ==, 1);
    g_assert_no_error (error);
  }
  g_assert_false (_graft_document_rewrite_ok (document));
  turns_until_rewrite_ok (document);
  g_assert_true (_graft_document_rewrite_ok (document));
  g_assert_cmpuint (_graft_document_get_n_rewrite_walks (document), ==, walks + 2);
  g_assert_true (graft_document_replace (document, 0, &error));
  g_assert_no_error (error);
  /* A deletion of a graph known to pass keeps it. */
  {
    GraftNode  *neg;
    const char *names[2] = { NULL, NULL };

    graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
    graft_arg_init_node (&args.items[0], graft_graph_get_first (graph));
    neg = graft_graph_create_node (graph, GRAFT_OP_CALL_METHOD, "neg", &args, NULL, NULL,
                                   graft_graph_get_output (graph));
    names[0] = graft_node_get_name (neg);
    g_assert_cmpuint (graft_document_delete_nodes (document, names, &error), ==, 1);
    g_assert_no_error (error);
  }
  g_assert_true (_graft_document_rewrite_ok (document));
  g_assert_cmpuint (_graft_document_get_n_rewrite_walks (document), ==, walks + 2);
  _graft_document_set_code_step (0);
}

/* A learner's owner for /ui/program/learner-revisions: its "graph" is an
 * array of items, replaced (the generation counted) when it changes; the
 * answer is their sum.  A walk remembers the generation it began on and
 * fails the test if it steps on another: no walk reads a graph that went. */
typedef struct
{
  guint    revision;
  guint    generation;
  guint   *items;
  guint    n_items;
  gboolean wanted;
  guint    answer;
  guint    n_freed;
  guint    n_asked; /* wanted() calls: one a turn of the learner's job */
} Owner;

typedef struct
{
  Owner *owner;
  guint  generation;
  guint  at;
  guint  sum;
} OwnerWalk;

/* Items a turn. */
#define OWNER_STEP 3

static gboolean
owner_wanted (gpointer owner)
{
  ((Owner *) owner)->n_asked++;
  return ((Owner *) owner)->wanted;
}

static gpointer
owner_begin (gpointer owner)
{
  OwnerWalk *walk = g_new0 (OwnerWalk, 1);

  walk->owner = owner;
  walk->generation = walk->owner->generation;
  return walk;
}

static gboolean
owner_walk (OwnerWalk *walk,
            guint      n)
{
  g_assert_cmpuint (walk->generation, ==, walk->owner->generation);
  for (guint i = 0; walk->at < walk->owner->n_items && (n == 0 || i < n); i++)
    walk->sum += walk->owner->items[walk->at++];
  return walk->at == walk->owner->n_items;
}

static gboolean
owner_step (gpointer owner,
            gpointer walk)
{
  return owner_walk (walk, OWNER_STEP);
}

static void
owner_walk_free (gpointer walk)
{
  ((OwnerWalk *) walk)->owner->n_freed++;
  g_free (walk);
}

static void
owner_finish (gpointer owner,
              gpointer walk)
{
  owner_walk (walk, 0);
  ((Owner *) owner)->answer = ((OwnerWalk *) walk)->sum;
  owner_walk_free (walk);
}

static const GraftLearnerClass owner_class = {
  .wanted = owner_wanted,
  .begin = owner_begin,
  .step = owner_step,
  .finish = owner_finish,
  .free_walk = owner_walk_free,
};

/* The owner's graph replaced by @n items of value @value; a new revision
 * unless @same_revision. */
static void
owner_set (Owner   *owner,
           guint    n,
           guint    value,
           gboolean same_revision)
{
  g_free (owner->items);
  owner->items = g_new (guint, n);
  for (guint i = 0; i < n; i++)
    owner->items[i] = value;
  owner->n_items = n;
  owner->generation++;
  if (!same_revision)
    owner->revision++;
}

/* Runs the main loop while @learner's job is queued; returns the turns of
 * the job (each asks whether the answer is wanted), not of the main loop:
 * the steps run below the default priority, and sources earlier tests left
 * at it take iterations of their own. */
static guint
turns_while_learning (GraftLearner *learner)
{
  Owner *owner = learner->owner;
  guint  asked = owner->n_asked;
  guint  turns = 0;

  while (learner->job != 0)
    {
      g_assert_cmpuint (turns, <, 1000);
      g_main_context_iteration (NULL, FALSE);
      turns++;
    }
  return owner->n_asked - asked;
}

/* The learner's rules, on a graph of its own: an answer learnt in turns of
 * a share each; one begun on an older revision begun again on the graph
 * as it is; a walk dropped for a change of a moment (the answer kept) or
 * forgotten with the graph (the answer gone), never stepping on a graph
 * that went; finished at once from where it stands; not walked while the
 * owner does not want it; its job and walk gone with it. */
static void
test_learner_revisions (void)
{
  Owner        owner = { .wanted = TRUE };
  GraftLearner learner = { 0 };

  graft_learner_init (&learner, &owner_class, &owner, &owner.revision);
  owner_set (&owner, 10, 1, FALSE);
  g_assert_false (graft_learner_knows (&learner));

  /* Learnt in turns: 10 items, 3 a turn. */
  graft_learner_due (&learner);
  g_assert_cmpuint (turns_while_learning (&learner), ==, 4);
  g_assert_true (graft_learner_knows (&learner));
  g_assert_cmpuint (owner.answer, ==, 10);
  g_assert_cmpuint (learner.n_walks, ==, 1);
  /* Known: nothing queued. */
  graft_learner_due (&learner);
  g_assert_cmpuint (learner.job, ==, 0);

  /* A new revision: not known; a walk under way when the revision changes
   * again is begun again on the new graph. */
  owner_set (&owner, 10, 2, FALSE);
  g_assert_false (graft_learner_knows (&learner));
  graft_learner_due (&learner);
  g_main_context_iteration (NULL, FALSE);
  g_assert_true (graft_learner_is_walking (&learner));
  owner.generation++; /* as the revision changes, the graph may go */
  owner_set (&owner, 7, 3, FALSE);
  g_assert_cmpuint (turns_while_learning (&learner), ==, 3);
  g_assert_cmpuint (owner.answer, ==, 21);
  g_assert_cmpuint (learner.n_walks, ==, 3);
  g_assert_cmpuint (owner.n_freed, ==, 3);

  /* A change of a moment, the answer known: dropped, kept. */
  graft_learner_drop (&learner);
  g_assert_true (graft_learner_knows (&learner));

  /* A change of a moment mid-walk: the walk begins again once it is back. */
  owner_set (&owner, 9, 1, FALSE);
  graft_learner_due (&learner);
  g_main_context_iteration (NULL, FALSE);
  g_assert_true (graft_learner_is_walking (&learner));
  graft_learner_drop (&learner);
  owner.generation++;
  g_assert_false (graft_learner_is_walking (&learner));
  g_assert_cmpuint (turns_while_learning (&learner), ==, 3);
  g_assert_cmpuint (owner.answer, ==, 9);
  g_assert_cmpuint (learner.n_walks, ==, 5);

  /* The graph freed without a new revision: forgotten, walk and answer. */
  graft_learner_forget (&learner);
  g_assert_false (graft_learner_knows (&learner));
  owner_set (&owner, 5, 4, TRUE);
  graft_learner_due (&learner);
  g_main_context_iteration (NULL, FALSE);
  g_assert_true (graft_learner_is_walking (&learner));
  graft_learner_forget (&learner);
  owner_set (&owner, 6, 5, TRUE);
  g_assert_false (graft_learner_is_walking (&learner));
  /* What is left at once, from where the turns left it. */
  g_main_context_iteration (NULL, FALSE);
  g_assert_true (graft_learner_is_walking (&learner));
  g_assert_true (graft_learner_learn (&learner, TRUE));
  g_assert_cmpuint (owner.answer, ==, 30);
  g_assert_cmpuint (learner.n_walks, ==, 7);
  g_assert_cmpuint (turns_while_learning (&learner), ==, 1);

  /* Not wanted: the turns stop, nothing learnt; due queues nothing. */
  owner_set (&owner, 12, 1, FALSE);
  graft_learner_due (&learner);
  g_main_context_iteration (NULL, FALSE);
  owner.wanted = FALSE;
  g_assert_cmpuint (turns_while_learning (&learner), ==, 1);
  g_assert_false (graft_learner_knows (&learner));
  graft_learner_due (&learner);
  g_assert_cmpuint (learner.job, ==, 0);

  /* Cleared mid-walk: the job and the walk go. */
  owner.wanted = TRUE;
  graft_learner_due (&learner);
  g_main_context_iteration (NULL, FALSE);
  g_assert_true (graft_learner_is_walking (&learner));
  graft_learner_clear (&learner);
  g_assert_false (graft_learner_is_walking (&learner));
  g_assert_cmpuint (learner.job, ==, 0);
  g_assert_cmpuint (owner.n_freed, ==, learner.n_walks);
  g_free (owner.items);
}

typedef struct
{
  GraftDocument *document;
  guint          walks;
} WalkBegun;

static gboolean
rewrite_walk_begun (gpointer data)
{
  WalkBegun *w = data;

  return _graft_document_get_n_rewrite_walks (w->document) > w->walks;
}

/* Runs turns until the rewriter's walk of @document begins (in a turn to
 * come: the steps wait for what earlier tests left at higher priorities). */
static void
wait_walk_begun (GraftDocument *document,
                 guint          walks)
{
  WalkBegun walk_begun = { document, walks };

  iterate_until (rewrite_walk_begun, &walk_begun);
}

/* The rewriter's walk, like the code check, goes with a graph freed
 * without a new revision (a session speaks its torch first): it read the
 * freed graph in the next turn otherwise (AddressSanitizer tells). */
static void
test_rewrite_walk_dropped_by_session (void)
{
  const char *path = g_getenv ("GRAFT_TEST_PROGRAM");
  g_autoptr (GraftDocument) document = graft_document_new ();
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;
  guint walks;

  g_assert_nonnull (path);
  file = g_file_new_for_path (path);
  g_assert_true (graft_document_load_file (document, file, &error));
  g_assert_no_error (error);
  _graft_document_set_code_step (16);
  walks = _graft_document_get_n_rewrite_walks (document);
  wait_walk_begun (document, walks);
  g_assert_cmpuint (_graft_document_get_n_rewrite_walks (document), ==, walks + 1);
  g_assert_false (_graft_document_rewrite_ok (document));
  _graft_document_speak (document, graft_dialect_get (GRAFT_TORCH_1_13));
  g_assert_false (_graft_document_rewrite_ok (document));
  iterate_pending ();
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (graft_graph_get_n_nodes (graft_document_get_graph (document)), ==, 0);
  _graft_document_set_code_step (0);
}

/* Runs the main loop until the document knows both answers of its graph. */
static void
turns_until_learnt (GraftDocument *document)
{
  guint turns = 0;

  while (!_graft_document_code_holds (document) || !_graft_document_rewrite_ok (document))
    {
      g_assert_cmpuint (turns, <, 100000);
      g_main_context_iteration (NULL, FALSE);
      turns++;
    }
}

/* Both learners through the history: after a run of the rules neither
 * answer is known; before Show Changes undoes and redoes the run for a
 * moment, the walks under way go and begin again (what is known stays);
 * an undo mid-walk begins them again on the graph it leaves; a redo of a
 * change the walks never saw learns again, once; then undo and redo need
 * no whole check of the code (what the learner found is kept in the
 * history). */
static void
test_learners_through_history (void)
{
  const char *path = g_getenv ("GRAFT_TEST_PROGRAM");
  g_autoptr (GraftDocument) document = graft_document_new ();
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;
  guint walks;
  guint checks;

  g_assert_nonnull (path);
  file = g_file_new_for_path (path);
  g_assert_true (graft_document_load_file (document, file, &error));
  g_assert_no_error (error);
  graft_document_set_pattern_text (document, RELU_PATTERN);
  graft_document_set_replacement_text (document, CLAMP_REPLACEMENT);
  _graft_document_set_code_step (16);
  turns_until_learnt (document);

  g_assert_true (graft_document_run_all (document, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (_graft_document_code_holds (document));
  g_assert_false (_graft_document_rewrite_ok (document));
  walks = _graft_document_get_n_rewrite_walks (document);
  wait_walk_begun (document, walks);
  g_assert_cmpuint (_graft_document_get_n_rewrite_walks (document), ==, walks + 1);
  g_assert_true (_graft_document_code_learning (document));
  /* Before a change of a moment (Show Changes' job, a step undone and
   * redone): the walks begin again. */
  _graft_document_code_drop (document);
  g_assert_false (_graft_document_code_learning (document));
  turns_until_learnt (document);
  g_assert_cmpuint (_graft_document_get_n_rewrite_walks (document), ==, walks + 2);
  /* Known, then dropped for a moment again: kept. */
  _graft_document_code_drop (document);
  g_assert_true (_graft_document_code_holds (document));
  g_assert_true (_graft_document_rewrite_ok (document));

  /* An undo mid-walk: begun again on the graph it leaves. */
  graft_document_set_pattern_text (document, CLAMP_PATTERN);
  graft_document_set_replacement_text (document, RELU_REPLACEMENT);
  g_assert_true (graft_document_run_all (document, NULL, &error));
  g_assert_no_error (error);
  walks = _graft_document_get_n_rewrite_walks (document);
  wait_walk_begun (document, walks);
  g_assert_cmpuint (_graft_document_get_n_rewrite_walks (document), ==, walks + 1);
  g_assert_nonnull (graft_document_undo (document));
  turns_until_learnt (document);
  g_assert_cmpuint (_graft_document_get_n_rewrite_walks (document), ==, walks + 2);
  /* The redo's graph was never learnt: learnt again, once. */
  g_assert_nonnull (graft_document_redo (document));
  g_assert_false (_graft_document_rewrite_ok (document));
  turns_until_learnt (document);
  g_assert_cmpuint (_graft_document_get_n_rewrite_walks (document), ==, walks + 3);
  /* Both sides known to the history's code check now: no check at once. */
  checks = _graft_document_get_n_code_checks (document);
  g_assert_nonnull (graft_document_undo (document));
  g_assert_null (graft_document_get_code_error (document));
  g_assert_nonnull (graft_document_redo (document));
  g_assert_null (graft_document_get_code_error (document));
  g_assert_cmpuint (_graft_document_get_n_code_checks (document), ==, checks);
  _graft_document_set_code_step (0);
}

static gboolean
autosave_done (gpointer window)
{
  return !graft_window_get_autosave_pending (window);
}

/* The main thread's processor time, in milliseconds. */
static double
thread_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Runs the main loop while the document's code is being made, at most
 * @limit turns; returns the turns run, @longest the longest (ms). */
static guint
turns_while_code_pending (GraftDocument *document,
                          guint          limit,
                          double        *longest)
{
  guint turns = 0;

  while (graft_document_get_code_pending (document) && turns < limit)
    {
      double t = thread_ms ();

      g_main_context_iteration (NULL, FALSE);
      *longest = MAX (*longest, thread_ms () - t);
      turns++;
    }
  return turns;
}

/* Five autosaves of the program after an edit, its code made 16 nodes a
 * turn: the first alone (its job takes a turn per 16 nodes and more, its
 * 3,000 and more parameters' header written in parts), the others with an
 * edit (an undo, a replacement) after 1 to 200 of the job's turns: before
 * the header, in it, in the lines.  Each time the autosave holds the code
 * of the graph as it is at the end, whole. */
static void
test_autosave_in_turns (void)
{
  GraftWindow   *window = open_program ();
  GraftDocument *document = graft_window_get_document (window);
  GFile         *file = graft_document_get_file (document);
  GraftGraph    *graph = graft_document_get_graph (document);
  const guint    at[] = { 0, 1, 20, 70, 200 };
  const guint    step = 16;
  guint          n_params = 0;

  iterate_until (layout_ready, window);
  for (GraftNode *node = graft_graph_get_first (graph);
       node != NULL && graft_node_get_op (node) == GRAFT_OP_PLACEHOLDER;
       node = graft_node_get_next (node))
    n_params++;
  g_assert_cmpuint (n_params, >, 3000);
  _graft_document_set_code_step (step);
  for (guint run = 0; run < G_N_ELEMENTS (at); run++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GKeyFile) keys = g_key_file_new ();
      g_autofree char *path = graft_autosave_path_for (file);
      g_autofree char *code = NULL;
      g_autofree char *expected = NULL;
      g_autofree char *saved = NULL;
      double           longest = 0;
      guint            turns;

      g_assert_cmpuint (graft_document_get_n_matches (document), >, 2);
      g_assert_true (graft_document_replace (document, 0, &error));
      g_assert_no_error (error);
      graft_window_autosave_start (window);
      g_assert_true (graft_document_get_code_pending (document));
      if (at[run] == 0)
        {
          guint n_nodes = graft_graph_get_n_nodes (graph);

          turns = turns_while_code_pending (document, G_MAXUINT, &longest);
          /* A turn per 16 nodes, and one per 64 parameters of the header
           * (its first part shares a turn with the last parameters): 439
           * here, where a header in one step made it 382 and a few. */
          g_assert_cmpuint (turns, >=, (n_nodes + n_params / 4) / step - 2);
        }
      else
        {
          turns = turns_while_code_pending (document, at[run], &longest);
          g_assert_cmpuint (turns, ==, at[run]);
          g_assert_true (graft_document_get_code_pending (document));
          if (run % 2 == 1)
            g_assert_nonnull (graft_document_undo (document));
          else
            {
              g_assert_true (graft_document_replace (document, 1, &error));
              g_assert_no_error (error);
            }
        }
      g_test_message ("run %u: %u turns, the longest %.1f ms", run, turns, longest);
      iterate_until (autosave_done, window);
      graft_autosave_flush ();
      code = graft_codegen_python (graph);
      expected = graft_document_code_to_file_text (code);
      g_assert_true (g_key_file_load_from_file (keys, path, G_KEY_FILE_NONE, NULL));
      saved = g_key_file_get_string (keys, "autosave", "code", NULL);
      g_assert_cmpstr (saved, ==, expected);
    }
  _graft_document_set_code_step (0);
  graft_autosave_discard (file);
  graft_autosave_flush ();
  close_window (window);
}

/* The line of @code (from 0) that starts with @prefix. */
static guint
line_of (const char *code,
         const char *prefix)
{
  g_autofree char *needle = g_strconcat ("\n", prefix, NULL);
  const char      *at = strstr (code, needle);
  guint            line = 0;

  g_assert_nonnull (at);
  for (const char *p = code; p <= at; p++)
    line += *p == '\n';
  return line;
}

/* Runs the turns until the Code tab's rows are made; how many. */
static guint
turns_until_rows (GraftWindow *window)
{
  guint turns = 0;

  while (graft_code_sync_get_filling (window->code_sync))
    {
      g_main_context_iteration (NULL, TRUE);
      turns++;
    }
  return turns;
}

/* The one row selected in @selection. */
static guint
selected_row (GtkSelectionModel *selection)
{
  g_autoptr (GtkBitset) selected = gtk_selection_model_get_selection (selection);

  g_assert_cmpuint (gtk_bitset_get_size (selected), ==, 1);
  return gtk_bitset_get_minimum (selected);
}

/* The rows in view take the dark style's colours when dark mode is
 * switched on, and the light style's back. */
static void
assert_rows_follow_dark (GtkWidget *list)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  g_autofree char *light = NULL;
  g_autofree char *dark = NULL;

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  light = keyword_color ();
  for (guint mode = 0; mode < 3; mode++)
    {
      g_autoptr (GHashTable) colors = NULL;
      GtkWidget *row;

      if (mode == 1)
        adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
      else if (mode == 2)
        adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
      if (mode == 1)
        dark = keyword_color ();
      iterate_until_drawn (list);
      row = find_code_row (list, "def forward");
      g_assert_nonnull (row);
      colors = widget_text_colors (row);
      g_assert_true (g_hash_table_contains (colors, mode == 1 ? dark : light));
      if (dark != NULL)
        g_assert_false (g_hash_table_contains (colors, mode == 1 ? light : dark));
    }
  g_assert_cmpstr (light, !=, dark);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
}

/* Rows of @code are selected as in a list and copied by Ctrl+C, a line
 * each; all of them without making their text in the turn of the keys. */
static void
assert_rows_copied (GraftWindow *window,
                    const char  *code)
{
  GtkWidget         *list = graft_code_sync_get_list (window->code_sync);
  GtkSelectionModel *selection = gtk_list_view_get_model (GTK_LIST_VIEW (list));
  GdkClipboard      *clipboard = gtk_widget_get_clipboard (list);
  g_auto (GStrv) lines = g_strsplit (code, "\n", -1);
  g_autofree char *copied = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *all = g_strconcat (code, "\n", NULL);
  GValue           value = G_VALUE_INIT;
  g_auto (GStrv) before = graft_canvas_dup_selection (graft_window_get_canvas (window));
  g_auto (GStrv) after = NULL;

  /* Three rows, and one more: no node selected for a run of rows. */
  gtk_selection_model_select_range (selection, 2, 3, TRUE);
  gtk_selection_model_select_item (selection, 7, FALSE);
  after = graft_canvas_dup_selection (graft_window_get_canvas (window));
  g_assert_true (g_strv_equal ((const char *const *) before, (const char *const *) after));
  g_assert_true (press_shortcut (list, "<Control>c"));
  copied = clipboard_text (clipboard);
  expected = g_strdup_printf ("%s\n%s\n%s\n%s\n", lines[2], lines[3], lines[4], lines[7]);
  g_assert_cmpstr (copied, ==, expected);
  g_clear_pointer (&copied, g_free);

  g_assert_true (press_shortcut (list, "<Control>a"));
  g_assert_true (press_shortcut (list, "<Control>c"));
  g_value_init (&value, G_TYPE_STRING);
  g_assert_false (gdk_content_provider_get_value (gdk_clipboard_get_content (clipboard), &value,
                                                  NULL));
  g_value_unset (&value);
  /* The rows made again meanwhile: the copy is of the code copied. */
  graft_code_sync_refresh (window->code_sync);
  copied = clipboard_text (clipboard);
  g_assert_cmpstr (copied, ==, all);
}

/* The program's code (888 KB) is big: the Code tab shows it as rows of a
 * list, made in turns from a copy, exactly the code; the selected row and
 * the canvas's selection follow each other; a change while the rows are
 * made starts them again on the new code. */
static void
test_code_rows (void)
{
  GraftWindow       *window = open_program ();
  GraftDocument     *document = graft_window_get_document (window);
  GraftCanvas       *canvas = graft_window_get_canvas (window);
  GtkWidget         *list = graft_code_sync_get_list (window->code_sync);
  GtkSelectionModel *selection = gtk_list_view_get_model (GTK_LIST_VIEW (list));
  g_autoptr (GError) error = NULL;
  g_autofree char *code = NULL;
  g_autofree char *rows = NULL;
  g_auto (GStrv) selected = NULL;
  GraftNode  *node;
  const char *name;
  gsize       length;
  guint       turns;
  guint       n_lines = 1;

  iterate_until (layout_ready, window);
  code = g_strdup (graft_document_get_code (document) +
                   strspn (graft_document_get_code (document), "\n"));
  length = strlen (code);
  g_assert_cmpuint (length, >, 512 * 1024);
  for (const char *p = code; *p != '\0'; p++)
    n_lines += *p == '\n';
  _graft_code_sync_set_fill_step (64 * 1024, 0);
  gtk_stack_set_visible_child_name (window->editor_stack, "code");
  g_assert_true (graft_code_sync_get_filling (window->code_sync));
  g_assert_true (gtk_widget_get_parent (list) != NULL);
  g_assert_null (gtk_widget_get_parent (GTK_WIDGET (window->code_view)));
  turns = turns_until_rows (window);
  /* Measured, copied and split 64 KB a turn at most. */
  g_assert_cmpuint (turns, >=, length / (64 * 1024));
  rows = graft_code_sync_dup_rows_text (window->code_sync);
  g_assert_cmpstr (rows, ==, code);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (selection)), ==, n_lines);
  assert_rows_follow_dark (list);

  /* The canvas's node selects its line's row, a row its line's node. */
  node = graft_graph_get_first (graft_document_get_graph (document));
  while (graft_node_get_op (node) == GRAFT_OP_PLACEHOLDER)
    node = graft_node_get_next (node);
  for (guint i = 0; i < 1000; i++)
    node = graft_node_get_next (node);
  name = graft_node_get_name (node);
  {
    g_autofree char *prefix = g_strdup_printf ("    %s = ", name);

    graft_canvas_select (canvas, name, FALSE);
    g_assert_cmpuint (selected_row (selection), ==, line_of (code, prefix));
  }
  gtk_selection_model_select_item (selection, line_of (code, "    return "), TRUE);
  selected = graft_canvas_dup_selection (canvas);
  g_assert_cmpstr (selected[0], ==,
                   graft_node_get_name (
                       graft_graph_get_output (graft_document_get_graph (document))));
  g_assert_null (selected[1]);
  g_clear_pointer (&selected, g_strfreev);
  gtk_selection_model_select_item (selection, line_of (code, "    conv2d_1 = "), TRUE);
  selected = graft_canvas_dup_selection (canvas);
  g_assert_cmpstr (selected[0], ==, "conv2d_1");
  assert_rows_copied (window, code);

  /* A change while the rows are made: made again, of the new code. */
  graft_code_sync_refresh (window->code_sync);
  for (guint i = 0; i < 3; i++)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (graft_code_sync_get_filling (window->code_sync));
  g_assert_true (graft_document_replace (document, 0, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 3; i++)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (graft_document_undo (document));
  turns_until_rows (window);
  g_clear_pointer (&rows, g_free);
  rows = graft_code_sync_dup_rows_text (window->code_sync);
  g_assert_cmpstr (rows, ==, code);
  g_assert_true (graft_document_replace (document, 0, &error));
  turns_until_rows (window);
  g_free (code);
  code = g_strdup (graft_document_get_code (document) +
                   strspn (graft_document_get_code (document), "\n"));
  g_clear_pointer (&rows, g_free);
  rows = graft_code_sync_dup_rows_text (window->code_sync);
  g_assert_cmpstr (rows, ==, code);
  _graft_code_sync_set_fill_step (0, 5000);
  close_window (window);
}

int
main (int    argc,
      char **argv)
{
  if (!ui_test_init (&argc, &argv))
    return 0;
  g_test_add_func ("/ui/program/opens-folded", test_opens_folded);
  g_test_add_func ("/ui/program/expand-group", test_expand_group);
  g_test_add_func ("/ui/program/scopes-on-load", test_scopes_on_load);
  g_test_add_func ("/ui/program/matches-on-load", test_matches_on_load);
  g_test_add_func ("/ui/program/request-on-load", test_request_on_load);
  g_test_add_func ("/ui/program/request-after-other", test_request_after_other);
  g_test_add_func ("/ui/program/autosave-in-turns", test_autosave_in_turns);
  g_test_add_func ("/ui/program/code-not-compiling", test_code_not_compiling);
  g_test_add_func ("/ui/program/code-rows", test_code_rows);
  g_test_add_func ("/ui/program/code-compiling", test_code_compiling);
  g_test_add_func ("/ui/program/code-check-kept", test_code_check_kept);
  g_test_add_func ("/ui/program/code-check-in-turns", test_code_check_in_turns);
  g_test_add_func ("/ui/program/code-look-in-turns", test_code_look_in_turns);
  g_test_add_func ("/ui/program/rewrite-check-learnt", test_rewrite_check_learnt);
  g_test_add_func ("/ui/program/code-check-dropped-by-session", test_code_check_dropped_by_session);
  g_test_add_func ("/ui/program/learner-revisions", test_learner_revisions);
  g_test_add_func ("/ui/program/rewrite-walk-dropped-by-session",
                   test_rewrite_walk_dropped_by_session);
  g_test_add_func ("/ui/program/learners-through-history", test_learners_through_history);
  return g_test_run ();
}
