/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-editor-relayout.c: the editor lays a graph out again after an edit
 * incrementally, under a display (Xvfb in CI).  On a generated chain of
 * 1,200 nodes (several segments) whose only `torch.relu` calls sit in the
 * middle, Replace All with the default rule (relu to F.relu) sends only
 * the segments holding them to dot: every other segment of the new layout
 * is reused from the one on screen; the node in the middle of the view
 * stays where it was on screen; Undo lays out incrementally too and brings
 * the first picture back box for box (dot makes the same of the same).
 * The same on a model of nested modules drawn in frames (dot clusters),
 * where folding a module and opening it again also gives the first
 * picture back.
 * The layout runner makes scopes over several turns: a change of the graph
 * meanwhile starts them over, and only the newest layout is shown.
 */
#include "config.h"

#include "window-util.h"

#include "graft-canvas.h"
#include "graft-document.h"
#include "graft-layout-runner.h"
#include "graft-window.h"

#include <glib/gstdio.h>
#include <math.h>

#define CHAIN_NODES 1200

/* The code of a chain of @n_nodes sigmoid and tanh calls with a residual
 * add every 8 nodes (reaching back 2 to 8 nodes, in turn: no two segments
 * are alike), and three relu calls in the middle of a chain of
 * CHAIN_NODES. */
static char *
chain_code (guint n_nodes)
{
  g_autoptr (GString) code = g_string_new ("import torch\nimport torch.nn as nn\n\n\n"
                                           "class Chain(nn.Module):\n"
                                           "    def forward(self, x):\n"
                                           "        h0 = torch.sigmoid(x)\n");

  for (guint i = 1; i < n_nodes; i++)
    {
      if (i % 8 == 0)
        g_string_append_printf (code, "        h%u = h%u + h%u\n", i, i - 1, i - 2 - (i / 8) % 7);
      else if (i >= 600 && i < 603)
        g_string_append_printf (code, "        h%u = torch.relu(h%u)\n", i, i - 1);
      else
        g_string_append_printf (code, "        h%u = torch.%s(h%u)\n", i,
                                i % 2 == 0 ? "sigmoid" : "tanh", i - 1);
    }
  g_string_append_printf (code, "        return h%u\n", n_nodes - 1);
  return g_string_free (g_steal_pointer (&code), FALSE);
}

/* The code of a model of FRAMED_STAGES stages of FRAMED_BLOCKS blocks,
 * each a module of its own (so a frame in a frame around its nodes): two
 * linear layers and between them a chain of sigmoid and tanh calls, longer
 * from one block to the next, with a residual add every 5 nodes; the
 * middle block's chain starts with three relu calls. */
#define FRAMED_STAGES 4
#define FRAMED_BLOCKS 4

static char *
framed_code (void)
{
  g_autoptr (GString) code = g_string_new ("import torch\nimport torch.nn as nn\n\n\n"
                                           "class Net(nn.Module):\n"
                                           "    def __init__(self):\n"
                                           "        super().__init__()\n");
  const guint middle = FRAMED_STAGES * FRAMED_BLOCKS / 2;

  /* The model first: the editor traces the first class. */
  for (guint s = 0; s < FRAMED_STAGES; s++)
    g_string_append_printf (code, "        self.stage%u = Stage%u()\n", s, s);
  g_string_append (code, "\n    def forward(self, x):\n");
  for (guint s = 0; s < FRAMED_STAGES; s++)
    g_string_append_printf (code, "        x = self.stage%u(x)\n", s);
  g_string_append (code, "        return x\n\n\n");
  for (guint s = 0; s < FRAMED_STAGES; s++)
    {
      g_string_append_printf (code,
                              "class Stage%u(nn.Module):\n"
                              "    def __init__(self):\n"
                              "        super().__init__()\n",
                              s);
      for (guint b = 0; b < FRAMED_BLOCKS; b++)
        g_string_append_printf (code, "        self.block%u = Block%u()\n", b,
                                s * FRAMED_BLOCKS + b);
      g_string_append (code, "\n    def forward(self, x):\n");
      for (guint b = 0; b < FRAMED_BLOCKS; b++)
        g_string_append_printf (code, "        x = self.block%u(x)\n", b);
      g_string_append (code, "        return x\n\n\n");
    }
  for (guint k = 0; k < FRAMED_STAGES * FRAMED_BLOCKS; k++)
    {
      guint n = 24 + k;

      g_string_append_printf (code,
                              "class Block%u(nn.Module):\n"
                              "    def __init__(self):\n"
                              "        super().__init__()\n"
                              "        self.inner = nn.Linear(8, 8)\n"
                              "        self.outer = nn.Linear(8, 8)\n"
                              "\n"
                              "    def forward(self, x):\n"
                              "        h0 = self.inner(x)\n",
                              k);
      for (guint i = 1; i < n; i++)
        if (i % 5 == 0)
          g_string_append_printf (code, "        h%u = h%u + h%u\n", i, i - 1, i - 2 - (i + k) % 3);
        else if (k == middle && i < 4)
          g_string_append_printf (code, "        h%u = torch.relu(h%u)\n", i, i - 1);
        else
          g_string_append_printf (code, "        h%u = torch.%s(h%u)\n", i,
                                  i % 2 == 0 ? "sigmoid" : "tanh", i - 1);
      g_string_append_printf (code, "        return self.outer(h%u)\n\n\n", n - 1);
    }
  return g_string_free (g_steal_pointer (&code), FALSE);
}

/* @code in a file. */
static char *
write_code (const char *code)
{
  g_autoptr (GError) error = NULL;
  char *path = NULL;
  int   fd = g_file_open_tmp ("graft-relayout-XXXXXX.py", &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (path, code, -1, &error);
  g_assert_no_error (error);
  return path;
}

static guint
segment_of_box (GraftLayout *layout,
                guint        box)
{
  for (guint s = 0; s < graft_layout_get_n_segments (layout); s++)
    {
      guint first;
      guint end;

      graft_layout_get_segment (layout, s, &first, &end);
      if (box >= first && box < end)
        return s;
    }
  g_assert_not_reached ();
}

/* How many segments of @layout hold a box whose caption is @caption. */
static guint
count_segments_with (GraftLayout *layout,
                     const char  *caption)
{
  g_autofree gboolean *seen = g_new0 (gboolean, graft_layout_get_n_segments (layout));
  guint                n = 0;

  for (guint b = 0; b < graft_layout_get_n_nodes (layout); b++)
    if (g_strcmp0 (graft_layout_get_node (layout, b)->caption, caption) == 0)
      {
        guint s = segment_of_box (layout, b);

        n += !seen[s];
        seen[s] = TRUE;
      }
  return n;
}

/* Where the centre of @name's box is in the canvas, in pixels. */
static void
widget_position (GraftCanvas *canvas,
                 const char  *name,
                 double      *out_x,
                 double      *out_y)
{
  GraftLayout     *layout = graft_canvas_get_layout (canvas);
  gint             box = graft_layout_find_node (layout, name);
  const GraftRect *r;

  g_assert_cmpint (box, >=, 0);
  r = &graft_layout_get_node (layout, box)->box;
  graft_canvas_layout_to_widget (canvas, r->x + r->width / 2, r->y + r->height / 2, out_x, out_y);
}

/* Boxes of @after's reused segments, compared with the same nodes in
 * @before: all those of a segment moved by one vector; across the
 * drawing, all by the same amount (a wider segment may widen the drawing
 * on its left, which the view makes up for), and down the drawing, by
 * none above the first segment dot laid out again. */
static void
assert_reused_rigid (GraftLayout *before,
                     GraftLayout *after)
{
  gboolean above = TRUE;
  gboolean have_x = FALSE;
  double   all_dx = 0;
  guint    compared = 0;

  for (guint s = 0; s < graft_layout_get_n_segments (after); s++)
    {
      guint    first;
      guint    end;
      gboolean have = FALSE;
      double   dy = 0;

      if (!graft_layout_get_segment (after, s, &first, &end))
        {
          above = FALSE;
          continue;
        }
      for (guint b = first; b < end; b++)
        {
          const GraftLayoutNode *node = graft_layout_get_node (after, b);
          gint                   old =
              node->is_stub ? -1 : graft_layout_find_node (before, node->name);
          const GraftRect *r;

          if (old < 0)
            continue;
          r = &graft_layout_get_node (before, old)->box;
          if (!have_x)
            {
              all_dx = node->box.x - r->x;
              have_x = TRUE;
            }
          if (!have)
            {
              dy = node->box.y - r->y;
              have = TRUE;
              if (above)
                g_assert_cmpfloat (fabs (dy), <, 0.01);
            }
          g_assert_cmpfloat (fabs (node->box.x - r->x - all_dx), <, 0.01);
          g_assert_cmpfloat (fabs (node->box.y - r->y - dy), <, 0.01);
          compared++;
        }
    }
  g_assert_cmpuint (compared, >, 0);
}

static void
test_replace_all (void)
{
  g_autofree char *code = chain_code (CHAIN_NODES);
  g_autofree char *path = write_code (code);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GraftWindow     *window = g_object_new (GRAFT_TYPE_WINDOW, NULL);
  GraftCanvas     *canvas = graft_window_get_canvas (window);
  GraftLayout     *first;
  GraftLayout     *after;
  GraftLayout     *undone;
  guint            n_segments;
  guint            touched;
  g_autofree char *anchor = NULL;
  double           x0, y0, x1, y1;

  gtk_window_present (GTK_WINDOW (window));
  graft_window_open_file (window, file);
  iterate_until (layout_ready, window);
  first = graft_layout_ref (graft_canvas_get_layout (canvas));
  n_segments = graft_layout_get_n_segments (first);
  g_assert_cmpuint (n_segments, >=, 5);
  /* No segment repeats another: whatever is reused below comes from the
   * layout on screen. */
  g_assert_cmpuint (graft_layout_get_n_reused_segments (first), ==, 0);
  touched = count_segments_with (first, "torch.relu");
  g_assert_cmpuint (touched, >=, 1);
  g_assert_cmpuint (touched, <=, 2);

  /* Look at a node far below the change, at 100 %. */
  {
    guint            box = graft_layout_get_n_nodes (first) - 40;
    const GraftRect *r = &graft_layout_get_node (first, box)->box;

    anchor = g_strdup (graft_layout_get_node (first, box)->name);
    graft_canvas_set_zoom (canvas, 1.0);
    graft_canvas_set_center (canvas, r->x + r->width / 2, r->y + r->height / 2);
  }
  widget_position (canvas, anchor, &x0, &y0);

  g_action_group_activate_action (G_ACTION_GROUP (window), "replace-all", NULL);
  iterate_until (layout_ready, window);
  after = graft_canvas_get_layout (canvas);
  g_assert_true (after != first);
  g_assert_cmpuint (count_segments_with (after, "torch.relu"), ==, 0);
  g_assert_cmpuint (count_segments_with (after, "torch.nn.functional.relu"), ==, touched);
  /* Only the touched segments went to dot. */
  g_assert_cmpuint (graft_layout_get_n_segments (after), ==, n_segments);
  g_assert_cmpuint (graft_layout_get_n_reused_segments (after), ==, n_segments - touched);
  for (guint b = 0; b < graft_layout_get_n_nodes (after); b++)
    if (g_strcmp0 (graft_layout_get_node (after, b)->caption, "torch.nn.functional.relu") == 0)
      g_assert_false (graft_layout_get_segment (after, segment_of_box (after, b), NULL, NULL));
  /* Every box of a segment reused as it was keeps its place relative to
   * the others of its segment (the segment moves whole, by the change in
   * height of those above it), and those above the first touched segment
   * do not move at all. */
  assert_reused_rigid (first, after);
  /* The view is on the same node, at the same place. */
  widget_position (canvas, anchor, &x1, &y1);
  g_assert_cmpfloat (fabs (x1 - x0), <, 1.0);
  g_assert_cmpfloat (fabs (y1 - y0), <, 1.0);

  /* Undo: incremental again, and the first picture comes back. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);
  iterate_until (layout_ready, window);
  undone = graft_canvas_get_layout (canvas);
  g_assert_true (undone != after);
  g_assert_cmpuint (graft_layout_get_n_reused_segments (undone), ==, n_segments - touched);
  g_assert_cmpuint (graft_layout_get_n_nodes (undone), ==, graft_layout_get_n_nodes (first));
  for (guint b = 0; b < graft_layout_get_n_nodes (first); b++)
    {
      const GraftRect *a = &graft_layout_get_node (first, b)->box;
      const GraftRect *c = &graft_layout_get_node (undone, b)->box;

      g_assert_cmpfloat (a->x, ==, c->x);
      g_assert_cmpfloat (a->y, ==, c->y);
    }
  widget_position (canvas, anchor, &x1, &y1);
  g_assert_cmpfloat (fabs (y1 - y0), <, 1.0);

  graft_layout_free (first);
  close_window (window);
  g_unlink (path);
}

/* Box for box and frame for frame. */
static void
assert_same_picture (GraftLayout *a,
                     GraftLayout *b)
{
  g_assert_cmpuint (graft_layout_get_n_nodes (a), ==, graft_layout_get_n_nodes (b));
  for (guint i = 0; i < graft_layout_get_n_nodes (a); i++)
    {
      const GraftRect *x = &graft_layout_get_node (a, i)->box;
      const GraftRect *y = &graft_layout_get_node (b, i)->box;

      g_assert_cmpstr (graft_layout_get_node (a, i)->name, ==, graft_layout_get_node (b, i)->name);
      g_assert_cmpfloat (x->x, ==, y->x);
      g_assert_cmpfloat (x->y, ==, y->y);
    }
  g_assert_cmpuint (graft_layout_get_n_frames (a), ==, graft_layout_get_n_frames (b));
  for (guint f = 0; f < graft_layout_get_n_frames (a); f++)
    {
      const GraftLayoutFrame *x = graft_layout_get_frame (a, f);
      const GraftLayoutFrame *y = graft_layout_get_frame (b, f);

      g_assert_cmpstr (x->scope, ==, y->scope);
      g_assert_cmpfloat (x->box.x, ==, y->box.x);
      g_assert_cmpfloat (x->box.y, ==, y->box.y);
      g_assert_cmpfloat (x->box.width, ==, y->box.width);
      g_assert_cmpfloat (x->box.height, ==, y->box.height);
    }
}

/* The same with module frames (dot clusters), which dot used to lay out
 * differently from one layout to the next in a process: Replace All sends
 * only the touched segments to dot and keeps the others' boxes; Undo
 * brings the first picture back box for box and frame for frame; so does
 * folding a stage and opening it again. */
static void
test_replace_all_framed (void)
{
  g_autofree char *code = framed_code ();
  g_autofree char *path = write_code (code);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GraftWindow *window = g_object_new (GRAFT_TYPE_WINDOW, NULL);
  GraftCanvas *canvas = graft_window_get_canvas (window);
  GraftLayout *first;
  GraftLayout *after;
  GraftLayout *undone;
  GraftLayout *folded;
  guint        n_segments;
  guint        touched;

  gtk_window_present (GTK_WINDOW (window));
  graft_window_open_file (window, file);
  iterate_until (layout_ready, window);
  first = graft_layout_ref (graft_canvas_get_layout (canvas));
  n_segments = graft_layout_get_n_segments (first);
  g_assert_cmpuint (n_segments, >=, 3);
  /* A frame per stage and per block. */
  g_assert_cmpuint (graft_layout_get_n_frames (first), >=, FRAMED_STAGES * (FRAMED_BLOCKS + 1));
  touched = count_segments_with (first, "torch.relu");
  g_assert_cmpuint (touched, >=, 1);
  g_assert_cmpuint (touched, <=, 2);

  g_action_group_activate_action (G_ACTION_GROUP (window), "replace-all", NULL);
  iterate_until (layout_ready, window);
  after = graft_canvas_get_layout (canvas);
  g_assert_true (after != first);
  g_assert_cmpuint (count_segments_with (after, "torch.nn.functional.relu"), ==, touched);
  g_assert_cmpuint (graft_layout_get_n_reused_segments (after), ==, n_segments - touched);
  assert_reused_rigid (first, after);

  /* The touched segments go to dot again, the same graph as at first. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);
  iterate_until (layout_ready, window);
  undone = graft_canvas_get_layout (canvas);
  g_assert_true (undone != after);
  g_assert_cmpuint (graft_layout_get_n_reused_segments (undone), ==, n_segments - touched);
  assert_same_picture (first, undone);

  /* Folded and opened again: a layout of its own, then the first again. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "collapse-scope",
                                  g_variant_new_string ("stage1.block2"));
  iterate_until (layout_ready, window);
  folded = graft_canvas_get_layout (canvas);
  g_assert_true (folded != undone);
  g_assert_cmpuint (graft_layout_get_n_nodes (folded), <, graft_layout_get_n_nodes (first));
  g_action_group_activate_action (G_ACTION_GROUP (window), "expand-scope",
                                  g_variant_new_string ("stage1.block2"));
  iterate_until (layout_ready, window);
  g_assert_true (graft_canvas_get_layout (canvas) != folded);
  assert_same_picture (first, graft_canvas_get_layout (canvas));

  graft_layout_free (first);
  close_window (window);
  g_unlink (path);
}

static gboolean
making_scopes (gpointer data)
{
  return _graft_layout_runner_is_making_scopes (data);
}

static gboolean
done_once (gpointer data)
{
  return *(guint *) data > 0;
}

static void
count_done_cb (GraftLayoutRunner *runner,
               const GError      *error,
               guint             *n_done)
{
  g_assert_no_error (error);
  (*n_done)++;
}

/* The runner's scopes and the canvas's layout are of the document's graph
 * now, a chain of @n_nodes nodes. */
static void
assert_shows_chain (GraftDocument     *document,
                    GraftLayoutRunner *runner,
                    GraftCanvas       *canvas,
                    guint              n_nodes)
{
  GraftGraph  *graph = graft_document_get_graph (document);
  GraftScopes *scopes = graft_layout_runner_get_scopes (runner);
  g_autoptr (GraftScopes) expected = graft_scopes_new (graph);
  GraftLayout *layout = graft_canvas_get_layout (canvas);

  /* The inputs and the output besides the chain. */
  g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, n_nodes + 2);
  g_assert_cmpuint (graft_scopes_get_n_nodes (scopes), ==, n_nodes + 2);
  for (guint i = 0; i < n_nodes + 2; i++)
    g_assert_cmpstr (graft_scopes_get_node_scope (scopes, i), ==,
                     graft_scopes_get_node_scope (expected, i));
  /* One box per node, and none of another graph. */
  g_assert_nonnull (layout);
  g_assert_cmpuint (graft_layout_get_n_nodes (layout), ==, n_nodes + 2);
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    g_assert_cmpint (graft_layout_find_node (layout, graft_node_get_name (node)), >=, 0);
}

/* A runner on @document, which holds a chain of CHAIN_NODES nodes, its
 * scopes and requests made 50 nodes a turn (dozens of turns), counting
 * its layouts done in @n_done. */
static GraftLayoutRunner *
chain_runner_new (GraftDocument *document,
                  GraftCanvas   *canvas,
                  const char    *code,
                  guint         *n_done)
{
  g_autoptr (GError) error = NULL;
  GraftLayoutRunner *runner;

  graft_document_load_text (document, "chain.py", code, &error);
  g_assert_no_error (error);
  runner = graft_layout_runner_new (document, canvas);
  _graft_layout_runner_set_scope_turn (runner, 0, 50);
  g_signal_connect (runner, "done", G_CALLBACK (count_done_cb), n_done);
  return runner;
}

/* Scopes are made over several turns; a change of the graph meanwhile
 * drops what was half made, even before a new layout is asked for, and the
 * layout shown is of the newest graph, once: a newer request supersedes
 * the older one. */
static void
test_supersede_scopes (void)
{
  g_autofree char *long_code = chain_code (CHAIN_NODES);
  g_autofree char *short_code = chain_code (CHAIN_NODES / 2);
  g_autoptr (GraftDocument) document = graft_document_new ();
  GraftCanvas *canvas = GRAFT_CANVAS (g_object_ref_sink (graft_canvas_new ()));
  g_autoptr (GraftLayoutRunner) runner = NULL;
  g_autoptr (GError) error = NULL;
  guint n_done = 0;

  runner = chain_runner_new (document, canvas, long_code, &n_done);

  /* The graph changes while its scopes are half made, and nothing asks
   * for a layout again: the scopes start over from the graph as it is. */
  graft_layout_runner_queue (runner, FALSE);
  iterate_until (making_scopes, runner);
  graft_document_load_text (document, "chain.py", short_code, &error);
  g_assert_no_error (error);
  g_assert_false (_graft_layout_runner_is_making_scopes (runner));
  iterate_until (done_once, &n_done);
  g_assert_cmpuint (n_done, ==, 1);
  assert_shows_chain (document, runner, canvas, CHAIN_NODES / 2);

  /* A new request while the scopes are half made: only the newest
   * layout is shown.  (Scopes are made again only for a changed graph.) */
  n_done = 0;
  graft_document_load_text (document, "chain.py", long_code, &error);
  g_assert_no_error (error);
  graft_layout_runner_queue (runner, TRUE);
  iterate_until (making_scopes, runner);
  graft_document_load_text (document, "chain.py", long_code, &error);
  g_assert_no_error (error);
  graft_layout_runner_queue (runner, TRUE);
  iterate_until (done_once, &n_done);
  g_assert_false (graft_layout_runner_get_pending (runner));
  g_assert_cmpuint (n_done, ==, 1);
  assert_shows_chain (document, runner, canvas, CHAIN_NODES);

  graft_layout_runner_stop (runner);
  g_object_unref (canvas);
}

static gboolean
making_request (gpointer data)
{
  return _graft_layout_runner_is_making_request (data);
}

static gboolean
laying_out (gpointer data)
{
  GraftLayoutRunner *runner = data;

  return !graft_layout_runner_get_pending (runner) &&
         _graft_layout_runner_get_cancellable (runner) != NULL;
}

static gboolean
pointer_cleared (gpointer data)
{
  return g_atomic_pointer_get ((gpointer *) data) == NULL;
}

/* Wakes the main loop: for what another thread changes without a source
 * of the main context. */
static gboolean
wake_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* What the worker lays out (the request) is made over several turns too,
 * once the scopes are; a change of the graph meanwhile drops it, and the
 * layout shown is of the newest graph, once. */
static void
test_supersede_request (void)
{
  g_autofree char *long_code = chain_code (CHAIN_NODES);
  g_autofree char *short_code = chain_code (CHAIN_NODES / 2);
  g_autoptr (GraftDocument) document = graft_document_new ();
  GraftCanvas *canvas = GRAFT_CANVAS (g_object_ref_sink (graft_canvas_new ()));
  g_autoptr (GraftLayoutRunner) runner = NULL;
  g_autoptr (GError) error = NULL;
  guint n_done = 0;

  runner = chain_runner_new (document, canvas, long_code, &n_done);

  graft_layout_runner_queue (runner, FALSE);
  iterate_until (making_request, runner);
  g_assert_false (_graft_layout_runner_is_making_scopes (runner));
  g_assert_true (graft_layout_runner_get_pending (runner));
  graft_document_load_text (document, "chain.py", short_code, &error);
  g_assert_no_error (error);
  g_assert_false (_graft_layout_runner_is_making_request (runner));
  iterate_until (done_once, &n_done);
  g_assert_cmpuint (n_done, ==, 1);
  assert_shows_chain (document, runner, canvas, CHAIN_NODES / 2);

  /* Folding changed while the request is half made: it starts again. */
  n_done = 0;
  graft_layout_runner_queue (runner, TRUE);
  iterate_until (making_request, runner);
  graft_layout_runner_reset_folding (runner, FALSE);
  g_assert_false (_graft_layout_runner_is_making_request (runner));
  iterate_until (done_once, &n_done);
  g_assert_cmpuint (n_done, ==, 1);
  assert_shows_chain (document, runner, canvas, CHAIN_NODES / 2);

  /* Another layout of the same graph keeps its scopes: the request is
   * made, not the scopes again. */
  n_done = 0;
  graft_layout_runner_queue (runner, TRUE);
  while (!making_request (runner) && !done_once (&n_done))
    {
      g_assert_false (_graft_layout_runner_is_making_scopes (runner));
      g_main_context_iteration (NULL, TRUE);
    }
  iterate_until (done_once, &n_done);
  assert_shows_chain (document, runner, canvas, CHAIN_NODES / 2);

  graft_layout_runner_stop (runner);
  g_object_unref (canvas);
}

/* A runner let go while its worker lays out is finalized at once, on the
 * main thread: the task holds no reference to it (it would otherwise drop
 * the last one on the worker thread, and the canvas's with it). */
static void
test_runner_let_go (void)
{
  g_autofree char *code = chain_code (CHAIN_NODES);
  g_autoptr (GraftDocument) document = graft_document_new ();
  GraftCanvas       *canvas = GRAFT_CANVAS (g_object_ref_sink (graft_canvas_new ()));
  GraftLayoutRunner *runner;
  GCancellable      *cancellable;
  guint              wake;
  g_autoptr (GError) error = NULL;

  graft_document_load_text (document, "chain.py", code, &error);
  g_assert_no_error (error);
  runner = graft_layout_runner_new (document, canvas);
  g_object_unref (canvas);
  graft_layout_runner_queue (runner, FALSE);
  iterate_until (laying_out, runner);
  cancellable = _graft_layout_runner_get_cancellable (runner);
  g_object_add_weak_pointer (G_OBJECT (cancellable), (gpointer *) &cancellable);
  g_object_add_weak_pointer (G_OBJECT (runner), (gpointer *) &runner);
  g_object_add_weak_pointer (G_OBJECT (canvas), (gpointer *) &canvas);
  g_object_unref (runner);
  g_assert_null (runner);
  g_assert_null (canvas);
  /* The task goes once its worker is done, the layout dropped: the last
   * reference may go on the worker thread, which wakes nothing here. */
  wake = g_timeout_add (10, wake_cb, NULL);
  iterate_until (pointer_cleared, &cancellable);
  g_source_remove (wake);
}

int
main (int    argc,
      char **argv)
{
  if (!ui_test_init (&argc, &argv))
    return 0;
  g_test_add_func ("/ui/relayout/replace-all", test_replace_all);
  g_test_add_func ("/ui/relayout/replace-all-framed", test_replace_all_framed);
  g_test_add_func ("/ui/relayout/supersede-scopes", test_supersede_scopes);
  g_test_add_func ("/ui/relayout/supersede-request", test_supersede_request);
  g_test_add_func ("/ui/relayout/runner-let-go", test_runner_let_go);
  return g_test_run ();
}
