/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-text-jobs.c: the listing, the JSON graph, DOT and the match list
 * cut into steps (GraftListingJob, GraftJsonJob, GraftDotJob,
 * GraftMatchesJsonJob), as the editor's exports run them across
 * main-loop turns: in steps of every size, on a model in both torches and
 * on a torch.export program, each writes the same text as its printer in
 * one go; DOT's matches given as a table of nodes mark the same nodes as
 * the array by graph order; a job dropped half-way frees what it made; a
 * text of megabytes written by steps is kept in pieces (never one string
 * grown by copying in a turn) and joined again to the same bytes.
 */
#include "config.h"

#include "graft.h"
#include "graft-strbuf-private.h"

static const guint sizes[] = { 1, 2, 7, 1000, G_MAXUINT };

static GraftGraph *
load (const char *folder,
      const char *name,
      GraftTorch  torch)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", folder, name, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = graft_input_read_file (path, &error);
  GraftGraph *graph;

  g_assert_no_error (error);
  graph = graft_input_load_graph (source, graft_dialect_get (torch), NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (graph);
  return graph;
}

/* The graphs every case runs on: a model in both torches, a program. */
static GPtrArray *
graphs (void)
{
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify) graft_graph_free);

  g_ptr_array_add (all, load ("torchvision", "resnet18.py", GRAFT_TORCH_2_6));
  g_ptr_array_add (all, load ("torchvision", "resnet18.py", GRAFT_TORCH_1_13));
  g_ptr_array_add (all, load ("programs", "buffers_constants.pt2", GRAFT_TORCH_2_6));
  return all;
}

static void
test_listing (void)
{
  g_autoptr (GPtrArray) all = graphs ();

  for (guint g = 0; g < all->len; g++)
    {
      g_autoptr (GString) whole = graft_listing_to_gstring (all->pdata[g]);

      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        {
          GraftListingJob *job = graft_listing_job_new (all->pdata[g]);
          g_autoptr (GString) stepped = NULL;
          guint n_steps = 1;

          while (!graft_listing_job_step (job, sizes[s]))
            n_steps++;
          stepped = graft_listing_job_finish (job);
          g_assert_cmpuint (stepped->len, ==, whole->len);
          g_assert_cmpmem (stepped->str, stepped->len, whole->str, whole->len);
          if (sizes[s] == 1)
            g_assert_cmpuint (n_steps, ==, graft_graph_get_n_nodes (all->pdata[g]));
        }
    }
}

static void
test_json (void)
{
  g_autoptr (GPtrArray) all = graphs ();

  for (guint g = 0; g < all->len; g++)
    {
      g_autofree char *whole = graft_json_graph (all->pdata[g]);

      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        {
          GraftJsonJob    *job = graft_json_job_new (all->pdata[g]);
          g_autofree char *stepped = NULL;

          while (!graft_json_job_step (job, sizes[s]))
            ;
          stepped = graft_json_job_finish (job);
          g_assert_cmpstr (stepped, ==, whole);
        }
    }
  /* The program's own members follow the nodes. */
  {
    g_autofree char *text = graft_json_graph (all->pdata[2]);

    g_assert_nonnull (strstr (text, "\"signature\": "));
  }
}

/* The matches of `x + y` in @graph (resnet18's residual adds), or of
 * aten's `add.Tensor` in a program. */
static GPtrArray *
find_adds (GraftGraph *graph)
{
  const GraftDialect *dialect = graft_graph_get_dialect (graph);
  gboolean            program = graft_graph_get_program (graph) != NULL;
  g_autoptr (GraftSource) source =
      graft_source_new ("p.py",
                        program ? "import torch\n"
                                  "def pattern(x, y):\n"
                                  "    return torch.ops.aten.add.Tensor(x, y)\n"
                                : "def pattern(x, y):\n"
                                  "    return x + y\n",
                        -1);
  g_autoptr (GError) error = NULL;
  GraftGraph *pattern_graph = graft_trace_source (source, dialect, "pattern", &error);
  g_autoptr (GraftPattern) pattern = NULL;

  g_assert_no_error (error);
  pattern = graft_pattern_new (pattern_graph, &error);
  g_assert_no_error (error);
  return graft_matcher_find (pattern, graph, NULL, NULL);
}

static void
test_dot (void)
{
  g_autoptr (GPtrArray) all = graphs ();

  for (guint g = 0; g < all->len; g++)
    {
      GraftGraph *graph = all->pdata[g];
      g_autoptr (GPtrArray) matches = find_adds (graph);
      g_autofree gint *marks = graft_matches_dup_node_marks (matches, graph);
      g_autoptr (GHashTable) table = g_hash_table_new (NULL, NULL);
      GraftDotOptions  options;
      g_autofree char *plain = graft_dot_print (graph, NULL);
      g_autofree char *marked = NULL;

      g_assert_cmpuint (matches->len, >, 0);
      /* The table as the editor makes it: a node's first match wins. */
      for (guint m = 0; m < matches->len; m++)
        {
          g_autoptr (GPtrArray) nodes = graft_match_dup_nodes (matches->pdata[m]);

          for (guint k = 0; k < nodes->len; k++)
            if (!g_hash_table_contains (table, nodes->pdata[k]))
              g_hash_table_insert (table, nodes->pdata[k], GUINT_TO_POINTER (m + 1));
        }
      graft_dot_options_init (&options);
      options.style = GRAFT_DOT_DARK;
      options.node_match = marks;
      marked = graft_dot_print (graph, &options);
      g_assert_nonnull (strstr (marked, "graft_match=0"));
      g_assert_cmpstr (marked, !=, plain);
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        {
          GraftDotJob     *job = graft_dot_job_new (graph, NULL);
          g_autofree char *stepped = NULL;
          GraftDotOptions  by_table;

          while (!graft_dot_job_step (job, sizes[s]))
            ;
          stepped = graft_dot_job_finish (job);
          g_assert_cmpstr (stepped, ==, plain);
          g_clear_pointer (&stepped, g_free);

          graft_dot_options_init (&by_table);
          by_table.style = GRAFT_DOT_DARK;
          by_table.node_matches = table;
          job = graft_dot_job_new (graph, &by_table);
          while (!graft_dot_job_step (job, sizes[s]))
            ;
          stepped = graft_dot_job_finish (job);
          g_assert_cmpstr (stepped, ==, marked);
        }
    }
}

/* A program's signature is written by steps of its own, one entry a
 * unit (at a million nodes the input list has hundreds of thousands of
 * entries, one turn of 631 ms when the job began with it); the text is
 * the same as in one go (the dot suite reads it back). */
static void
test_dot_signature (void)
{
  g_autoptr (GPtrArray) all = graphs ();
  GraftGraph      *graph = all->pdata[2];
  GraftProgram    *program = graft_graph_get_program (graph);
  guint            n_inputs = graft_program_get_n_inputs (program);
  guint            n_outputs = graft_program_get_n_outputs (program);
  guint            n_nodes = graft_graph_get_n_nodes (graph);
  GraftDotJob     *job = graft_dot_job_new (graph, NULL);
  g_autofree char *whole = graft_dot_print (graph, NULL);
  g_autofree char *stepped = NULL;
  guint            n_steps = 1;

  g_assert_cmpuint (n_inputs, >, 1);
  g_assert_cmpuint (n_outputs, >, 0);
  while (!graft_dot_job_step (job, 1))
    n_steps++;
  stepped = graft_dot_job_finish (job);
  g_assert_cmpstr (stepped, ==, whole);
  /* Each entry a step, then the nodes and the edges a step each. */
  g_assert_cmpuint (n_steps, ==, n_inputs + n_outputs + 2 * n_nodes);
  g_assert_nonnull (strstr (stepped, "  graph [graft_inputs=\"[{'kind': "));
}

static void
test_matches_json (void)
{
  g_autoptr (GPtrArray) all = graphs ();

  for (guint g = 0; g < all->len; g++)
    {
      g_autoptr (GPtrArray) matches = find_adds (all->pdata[g]);
      g_autoptr (GPtrArray) none = g_ptr_array_new ();
      g_autofree char     *whole = graft_matches_to_json (matches);
      g_autofree char     *empty = graft_matches_to_json (none);
      GraftMatchesJsonJob *job;
      g_autofree char     *stepped = NULL;

      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        {
          g_autofree char *text = NULL;

          job = graft_matches_json_job_new (matches);
          while (!graft_matches_json_job_step (job, sizes[s]))
            ;
          text = graft_matches_json_job_finish (job);
          g_assert_cmpstr (text, ==, whole);
        }
      job = graft_matches_json_job_new (none);
      g_assert_true (graft_matches_json_job_step (job, 1));
      stepped = graft_matches_json_job_finish (job);
      g_assert_cmpstr (stepped, ==, empty);
      g_assert_cmpstr (stepped, ==, "{\"matches\": []}");
    }
}

/* A job dropped half-way frees what it made (the sanitizer build checks
 * the leaks). */
static void
test_dropped (void)
{
  g_autoptr (GPtrArray) all = graphs ();
  g_autoptr (GPtrArray) matches = find_adds (all->pdata[0]);
  g_autoptr (GraftListingJob) listing = graft_listing_job_new (all->pdata[0]);
  g_autoptr (GraftJsonJob) json = graft_json_job_new (all->pdata[0]);
  g_autoptr (GraftDotJob) dot = graft_dot_job_new (all->pdata[0], NULL);
  g_autoptr (GraftMatchesJsonJob) list = graft_matches_json_job_new (matches);

  g_assert_false (graft_listing_job_step (listing, 3));
  g_assert_false (graft_json_job_step (json, 3));
  /* Past the nodes, into the edges. */
  g_assert_false (graft_dot_job_step (dot, graft_graph_get_n_nodes (all->pdata[0]) + 3));
  g_assert_false (graft_matches_json_job_step (list, 1));
}

/* A module of @n_adds `x = x + 1`: megabytes of listing and match list. */
static GraftGraph *
chain (guint n_adds)
{
  g_autoptr (GString) text = g_string_new ("def forward(x):\n");
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GError) error = NULL;
  GraftGraph *graph;

  for (guint i = 0; i < n_adds; i++)
    g_string_append (text, "    x = x + 1\n");
  g_string_append (text, "    return x\n");
  source = graft_source_new ("chain.py", text->str, -1);
  graph = graft_trace_source (source, graft_dialect_get (GRAFT_TORCH_2_6), "forward", &error);
  g_assert_no_error (error);
  return graph;
}

/* @pieces joined equal @whole; all but the last a piece's worth. */
static void
assert_pieces (GPtrArray  *pieces,
               const char *whole,
               gsize       whole_len,
               guint       min_pieces)
{
  gsize            len;
  g_autofree char *joined = graft_output_join_pieces (pieces, &len);

  g_assert_cmpuint (pieces->len, >=, min_pieces);
  for (guint i = 0; i + 1 < pieces->len; i++)
    g_assert_cmpuint (g_bytes_get_size (pieces->pdata[i]), >=, GRAFT_TEXT_PIECE);
  g_assert_cmpmem (joined, len, whole, whole_len);
  g_assert_cmpint (joined[len], ==, '\0');
}

static void
test_pieces (void)
{
  g_autoptr (GraftGraph) graph = chain (30000);
  g_autoptr (GString) listing = graft_listing_to_gstring (graph);
  g_autofree char *json = graft_json_graph (graph);
  g_autoptr (GraftSource) source =
      graft_source_new ("p.py", "def pattern(x):\n    return x + 1\n", -1);
  g_autoptr (GError) error = NULL;
  GraftGraph *pattern_graph =
      graft_trace_source (source, graft_dialect_get (GRAFT_TORCH_2_6), "pattern", &error);
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GPtrArray) matches = NULL;
  g_autofree char *list = NULL;
  g_autofree char *list_nl = NULL;

  g_assert_no_error (error);
  pattern = graft_pattern_new (pattern_graph, &error);
  g_assert_no_error (error);
  matches = graft_matcher_find (pattern, graph, NULL, NULL);
  g_assert_cmpuint (matches->len, >=, 30000);
  list = graft_matches_to_json (matches);
  list_nl = g_strconcat (list, "\n", NULL);
  /* Big enough to be cut. */
  g_assert_cmpuint (listing->len, >, 2 * GRAFT_TEXT_PIECE);
  g_assert_cmpuint (strlen (json), >, 2 * GRAFT_TEXT_PIECE);
  g_assert_cmpuint (strlen (list), >, 2 * GRAFT_TEXT_PIECE);

  /* By steps, as the editor's exports: in pieces, the same bytes, whether
   * taken in pieces or finished as one string. */
  for (guint whole_string = 0; whole_string < 2; whole_string++)
    {
      GraftListingJob     *l = graft_listing_job_new (graph);
      GraftJsonJob        *j = graft_json_job_new (graph);
      GraftMatchesJsonJob *m = graft_matches_json_job_new (matches);

      while (!graft_listing_job_step (l, 1000))
        ;
      while (!graft_json_job_step (j, 1000))
        ;
      while (!graft_matches_json_job_step (m, 1000))
        ;
      if (whole_string)
        {
          g_autoptr (GString) l_text = graft_listing_job_finish (l);
          g_autofree char *j_text = graft_json_job_finish (j);
          g_autofree char *m_text = graft_matches_json_job_finish (m);

          g_assert_cmpmem (l_text->str, l_text->len, listing->str, listing->len);
          g_assert_cmpstr (j_text, ==, json);
          g_assert_cmpstr (m_text, ==, list);
        }
      else
        {
          g_autoptr (GPtrArray) l_pieces = graft_listing_job_finish_pieces (l);
          g_autoptr (GPtrArray) j_pieces = graft_json_job_finish_pieces (j);
          g_autoptr (GPtrArray) m_pieces = graft_matches_json_job_finish_pieces (m, "\n");

          assert_pieces (l_pieces, listing->str, listing->len, 3);
          assert_pieces (j_pieces, json, strlen (json), 3);
          assert_pieces (m_pieces, list_nl, strlen (list_nl), 3);
        }
    }

  /* In one step (the CLI's way): one piece, never cut. */
  {
    GraftListingJob     *l = graft_listing_job_new (graph);
    GraftMatchesJsonJob *m = graft_matches_json_job_new (matches);
    g_autoptr (GPtrArray) l_pieces = NULL;
    g_autoptr (GPtrArray) m_pieces = NULL;

    g_assert_true (graft_listing_job_step (l, G_MAXUINT));
    g_assert_true (graft_matches_json_job_step (m, G_MAXUINT));
    l_pieces = graft_listing_job_finish_pieces (l);
    m_pieces = graft_matches_json_job_finish_pieces (m, NULL);
    g_assert_cmpuint (l_pieces->len, ==, 1);
    g_assert_cmpuint (m_pieces->len, ==, 1);
    assert_pieces (l_pieces, listing->str, listing->len, 1);
    assert_pieces (m_pieces, list, strlen (list), 1);
  }

  /* Dropped after being cut: the pieces freed (the sanitizer build checks
   * the leaks). */
  {
    g_autoptr (GraftListingJob) l = graft_listing_job_new (graph);
    g_autoptr (GraftJsonJob) j = graft_json_job_new (graph);
    g_autoptr (GraftMatchesJsonJob) m = graft_matches_json_job_new (matches);

    for (guint k = 0; k < 25; k++)
      {
        g_assert_false (graft_listing_job_step (l, 1000));
        g_assert_false (graft_json_job_step (j, 1000));
        g_assert_false (graft_matches_json_job_step (m, 1000));
      }
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/text-jobs/listing", test_listing);
  g_test_add_func ("/core/text-jobs/json", test_json);
  g_test_add_func ("/core/text-jobs/dot", test_dot);
  g_test_add_func ("/core/text-jobs/dot-signature", test_dot_signature);
  g_test_add_func ("/core/text-jobs/matches-json", test_matches_json);
  g_test_add_func ("/core/text-jobs/dropped", test_dropped);
  g_test_add_func ("/core/text-jobs/pieces", test_pieces);
  return g_test_run ();
}
