/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-match-compiled.c: the matcher's compiled walks (graft-matcher.c,
 * "The compiled walk") against its general walk, on many random graphs and
 * patterns in both dialects: every match, its bindings, order and drop
 * reason must be the same.  The statements are drawn from a few calls whose
 * arguments come in several shapes (lists and tuples, keywords, constants,
 * an aten operator with and without its default), so that the compiled
 * walks meet both what they decide and what they leave to the general one.
 * With the compiled walks off, the filters run their general form too
 * (filter_match() for every match, not filter_match_fast()): the filters
 * case draws patterns of two results over graphs that reuse values, where
 * matches leak, make cycles and overlap.
 *
 * Each case is also searched by steps (graft_match_search_step()) of a
 * little work each, with other work between the steps that uses the
 * graph's scratch marks as the editor's does (another search, the nodes
 * numbered, marks of slot 1 set), on the graph after a move that leaves it
 * as it was but for its order to check (which the steps do before the
 * filters): the same matches must come out.
 */
#include "config.h"

#include "graft-view.h"
#include "graft-graph-private.h"
#include "graft-match-private.h"

#include <string.h>

/* %s are values (inputs or earlier results); the first few, of which
 * test_few_calls() draws, differ in their keywords. */
static const char *const calls[] = {
  "torch.neg(%s)",
  "torch.add(%s, %s)",
  "%s.sum(dim=0)",
  "%s.sum(keepdim=True)",
  "%s.sum(dim=0, keepdim=True)",
  "%s.sum(keepdim=True, dim=0)",
  "torch.relu(%s)",
  "%s + %s",
  "%s.sum()",
  "torch.add(%s, %s, alpha=2)",
  "torch.add(%s, 3)",
  "torch.add(%s, 2)",
  "torch.mul(%s, 2.0)",
  "torch.cat([%s, %s])",
  "torch.cat((%s, %s), 0)",
  "torch.cat([%s, %s], dim=0)",
  "torch.cat([%s, %s, %s])",
  "torch.stack([%s, %s])",
  "%s.view(2, 3)",
  "%s.view((2, 3))",
  "%s.view([2, 3])",
  "%s.view(6)",
  "%s.view((6,))",
  "torch.ops.aten.add.Tensor(%s, %s)",
  "torch.ops.aten.add.Tensor(%s, %s, alpha=1)",
  "torch.ops.aten.mul.Tensor(%s, %s)",
};

static guint
count_values (const char *call)
{
  guint n = 0;

  for (const char *p = strstr (call, "%s"); p != NULL; p = strstr (p + 2, "%s"))
    n++;
  return n;
}

/* @call with its %s replaced by @names, in order. */
static char *
fill (const char *call,
      char      **names)
{
  GString *out = g_string_new (NULL);
  guint    n = 0;

  for (const char *p = call; *p != '\0'; p++)
    if (p[0] == '%' && p[1] == 's')
      {
        g_string_append (out, names[n++]);
        p++;
      }
    else
      g_string_append_c (out, *p);
  return g_string_free (out, FALSE);
}

/* A module whose forward takes @n_inputs values and makes @n_statements
 * calls from the first @n_calls of calls[], each reading earlier values
 * (the recent more often; with @chain, the first the one made just
 * before), and returns the last, or the last two. */
static char *
random_program (GRand      *rand,
                const char *entry,
                guint       n_inputs,
                guint       n_statements,
                guint       n_calls,
                gboolean    two_results,
                gboolean    chain)
{
  GString *out = g_string_new (NULL);
  guint    n_values = n_inputs;
  guint    n_used = 0; /* with @chain: the inputs read so far */
  char    *text;

  for (guint k = 0; k < n_statements; k++)
    {
      const char *call = calls[g_rand_int_range (rand, 0, (gint32) n_calls)];
      guint       n = count_values (call);
      char       *names[3] = { NULL, NULL, NULL };

      for (guint i = 0; i < n; i++)
        {
          /* A pattern's every statement reads the one before (a pattern
           * has no dead code). */
          guint v = chain && i == 0 && k > 0     ? n_values - 1
                    : chain && n_used < n_inputs ? n_used++
                    : g_rand_boolean (rand) && n_values > 2
                        ? n_values - 1 - (guint) g_rand_int_range (rand, 0, 2)
                        : (guint) g_rand_int_range (rand, 0, (gint32) n_values);

          names[i] = g_strdup_printf ("v%u", v);
        }
      text = fill (call, names);
      g_string_append_printf (out, "    v%u = %s\n", n_values++, text);
      g_free (text);
      for (guint i = 0; i < 3; i++)
        g_free (names[i]);
    }
  if (two_results && n_values > n_inputs + 1)
    g_string_append_printf (out, "    return v%u, v%u\n", n_values - 2, n_values - 1);
  else
    g_string_append_printf (out, "    return v%u\n", n_values - 1);
  /* The signature: with @chain, the inputs read (a pattern's every input
   * is used). */
  text = g_string_free (out, FALSE);
  out = g_string_new ("import torch\n\n");
  g_string_append_printf (out, "def %s(", entry);
  for (guint i = 0; i < (chain ? MAX (n_used, 1) : n_inputs); i++)
    g_string_append_printf (out, "%sv%u", i > 0 ? ", " : "", i);
  g_string_append_printf (out, "):\n%s", text);
  g_free (text);
  return g_string_free (out, FALSE);
}

static GraftGraph *
trace (GraftTorch  torch,
       const char *code,
       const char *entry)
{
  g_autoptr (GraftSource) source = graft_source_new ("test.py", code, -1);
  g_autoptr (GError) error = NULL;

  return graft_trace_source (source, graft_dialect_get (torch), entry, &error);
}

/* Every match in @found and @dropped, one line each: its reason and
 * bindings. */
static char *
describe_matches (GraftPattern *pattern,
                  GPtrArray    *found,
                  GPtrArray    *dropped)
{
  GString   *out = g_string_new (NULL);
  GPtrArray *lists[] = { found, dropped };
  guint      n_nodes = graft_graph_get_n_nodes (graft_pattern_get_graph (pattern));

  if (found == NULL)
    return g_string_free (out, FALSE);
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; i < lists[l]->len; i++)
      {
        GraftMatch *m = lists[l]->pdata[i];

        g_string_append_printf (out, "%u:", graft_match_get_drop_reason (m));
        for (guint k = 0; k < n_nodes; k++)
          {
            GraftNode      *node = NULL;
            const GraftArg *literal = NULL;

            if (!graft_match_get_binding (m, k, &node, &literal))
              g_string_append (out, " -");
            else if (node != NULL)
              g_string_append_printf (out, " %s", graft_node_get_name (node));
            else
              {
                g_autofree char *repr = graft_arg_repr (literal, GRAFT_REPR_CODE);

                g_string_append_printf (out, " =%s", repr);
              }
          }
        g_string_append_c (out, '\n');
      }
  return g_string_free (out, FALSE);
}

static char *
find (GraftPattern            *pattern,
      GraftGraph              *graph,
      const GraftMatchOptions *options,
      gboolean                 compiled)
{
  g_autoptr (GPtrArray) dropped = NULL;
  g_autoptr (GPtrArray) found = NULL;
  g_autoptr (GError) error = NULL;

  _graft_matcher_compiled_enabled = compiled;
  found = graft_matcher_find_full (pattern, graph, options, &dropped, &error);
  _graft_matcher_compiled_enabled = TRUE;
  return describe_matches (pattern, found, dropped);
}

/* What other work between two steps of a search may do to the graph's
 * scratch marks, taking fresh ones as the core's algorithms do: a search
 * of its own, every node numbered in slot 0, marks set in slot 1. */
static void
use_marks (GraftPattern            *pattern,
           GraftGraph              *graph,
           const GraftMatchOptions *options,
           guint                    turn)
{
  switch (turn % 3)
    {
    case 0:
      {
        GraftMatchOptions other = *options;
        g_autoptr (GPtrArray) dropped = NULL;
        g_autoptr (GPtrArray) found = NULL;

        /* Not the caller's filter, which counts its calls. */
        other.filter = NULL;
        found = graft_matcher_find_full (pattern, graph, &other, &dropped, NULL);
        break;
      }
    case 1:
      _graft_graph_hold_marks (graph);
      _graft_graph_index_nodes (graph, NULL);
      _graft_graph_release_marks (graph);
      break;
    default:
      {
        guint32 base = _graft_graph_reserve_marks (graph, graft_graph_get_n_nodes (graph));
        guint   k = 0;

        _graft_graph_hold_marks (graph);
        for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
             node = graft_node_get_next (node))
          _graft_node_set_mark_held (node, 1, base + k++);
        _graft_graph_release_marks (graph);
        break;
      }
    }
}

/* find()'s, by steps of @work with use_marks() between them. */
static char *
find_by_steps (GraftPattern            *pattern,
               GraftGraph              *graph,
               const GraftMatchOptions *options,
               guint                    work)
{
  g_autoptr (GraftMatchSearch) search = graft_match_search_new (pattern, graph, options);
  g_autoptr (GPtrArray) dropped = NULL;
  g_autoptr (GPtrArray) found = NULL;
  g_autoptr (GError) error = NULL;
  guint      turn = 0;
  GraftNode *last = graft_graph_get_last (graph);

  /* The last node moved last: the same graph, whose order the search must
   * now check (by steps, before the filters). */
  if (last != NULL)
    graft_graph_move_before (graph, last, NULL);
  while (!graft_match_search_step (search, work))
    use_marks (pattern, graph, options, turn++);
  found = graft_match_search_finish (search, &dropped, &error);
  return describe_matches (pattern, found, dropped);
}

/* A caller's filter that drops every third match it is asked about. */
static gboolean
every_third_cb (const GraftMatch *match,
                GraftGraph       *graph,
                gpointer          user_data)
{
  guint *n_calls = user_data;

  return ++*n_calls % 3 != 0;
}

/* How often each drop reason came up, over the cases of a run. */
typedef struct
{
  guint n_matched; /* cases with a match */
  guint reasons[GRAFT_MATCH_DROPPED_FILTER + 1];
} Tally;

static void
tally_reasons (Tally      *tally,
               const char *described)
{
  for (const char *line = described; *line != '\0'; line = strchr (line, '\n') + 1)
    {
      guint reason = (guint) g_ascii_strtoull (line, NULL, 10);

      if (reason < G_N_ELEMENTS (tally->reasons))
        tally->reasons[reason]++;
    }
}

/* Runs @n_cases random cases; counts in @tally.  @two_results: how often
 * (of 4) a pattern returns two values. */
static void
run_cases (guint32 seed,
           guint   n_cases,
           guint   n_calls,
           guint   two_results,
           Tally  *tally)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  guint n_traced = 0;

  for (guint c = 0; c < n_cases; c++)
    {
      GraftTorch       torch = g_rand_boolean (rand) ? GRAFT_TORCH_2_6 : GRAFT_TORCH_1_13;
      g_autofree char *graph_code =
          random_program (rand, "forward", 3, (guint) g_rand_int_range (rand, 4, 30), n_calls,
                          FALSE, FALSE);
      g_autofree char *pattern_code =
          random_program (rand, "pattern", (guint) g_rand_int_range (rand, 1, 4),
                          (guint) g_rand_int_range (rand, 1, 4), n_calls,
                          (guint) g_rand_int_range (rand, 0, 4) < two_results, TRUE);
      g_autoptr (GraftGraph) graph = trace (torch, graph_code, "forward");
      GraftGraph *pattern_graph = trace (torch, pattern_code, "pattern");
      g_autoptr (GraftPattern) pattern = NULL;
      GraftMatchOptions options;
      guint             n_filter_calls = 0;

      if (graph == NULL || pattern_graph == NULL)
        {
          g_clear_pointer (&pattern_graph, graft_graph_free);
          continue;
        }
      pattern = graft_pattern_new (pattern_graph, NULL);
      if (pattern == NULL)
        continue;
      n_traced++;
      graft_match_options_init (&options);
      options.match_placeholder = g_rand_int_range (rand, 0, 4) == 0;
      options.match_output = g_rand_int_range (rand, 0, 8) == 0;
      options.remove_overlapping_matches = g_rand_int_range (rand, 0, 4) != 0;
      /* Not with match_output: graft_matcher_find_full() then reads the
       * binding of an anchor it did not search from (a crash on main too). */
      options.ignore_literals = !options.match_output && g_rand_int_range (rand, 0, 8) == 0;
      if (g_rand_int_range (rand, 0, 8) == 0)
        {
          options.filter = every_third_cb;
          options.filter_data = &n_filter_calls;
        }
      {
        g_autofree char *general = find (pattern, graph, &options, FALSE);
        g_autofree char *compiled = NULL;

        n_filter_calls = 0;
        compiled = find (pattern, graph, &options, TRUE);
        if (g_strcmp0 (general, compiled) != 0)
          g_test_message ("torch %s\n%s\n%s", graft_dialect_get (torch)->version, graph_code,
                          pattern_code);
        g_assert_cmpstr (compiled, ==, general);
        for (guint work = 1; work <= 64; work *= 8)
          {
            g_autofree char *stepped = NULL;

            n_filter_calls = 0;
            stepped = find_by_steps (pattern, graph, &options, work);
            g_assert_cmpstr (stepped, ==, general);
          }
        if (general[0] != '\0')
          tally->n_matched++;
        tally_reasons (tally, general);
      }
    }
  /* Most cases trace. */
  g_assert_cmpuint (n_traced, >, n_cases / 2);
}

/* Patterns of a few calls, so that many match. */
static void
test_few_calls (void)
{
  Tally tally = { 0 };

  run_cases (20261202, 3000, 8, 1, &tally);
  g_assert_cmpuint (tally.n_matched, >, 300);
}

/* Every call. */
static void
test_every_call (void)
{
  Tally tally = { 0 };

  run_cases (4242, 3000, G_N_ELEMENTS (calls), 1, &tally);
  g_assert_cmpuint (tally.n_matched, >, 100);
}

/* Patterns of two results, mostly, of torch.neg and torch.add alone, whose
 * chains and diamonds make each filter drop matches. */
static void
test_filters (void)
{
  Tally tally = { 0 };

  run_cases (20261203, 4000, 2, 3, &tally);
  g_test_message ("kept %u, leak %u, cycle %u, overlap %u, filter %u",
                  tally.reasons[GRAFT_MATCH_KEPT], tally.reasons[GRAFT_MATCH_DROPPED_LEAK],
                  tally.reasons[GRAFT_MATCH_DROPPED_CYCLE],
                  tally.reasons[GRAFT_MATCH_DROPPED_OVERLAP],
                  tally.reasons[GRAFT_MATCH_DROPPED_FILTER]);
  g_assert_cmpuint (tally.n_matched, >, 300);
  for (guint r = 0; r < G_N_ELEMENTS (tally.reasons); r++)
    g_assert_cmpuint (tally.reasons[r], >, 10);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/match-compiled/few-calls", test_few_calls);
  g_test_add_func ("/core/match-compiled/every-call", test_every_call);
  g_test_add_func ("/core/match-compiled/filters", test_filters);
  return g_test_run ();
}
