/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-dot.c: DOT export and import.  Every graph of the golden corpus
 * (the Python files of tests/data/golden, torchvision and aten and the
 * bundled example, traced in process) goes out as DOT and back in, and must
 * come back exactly: the same code, listing and DOT, byte for byte.  Plain
 * DOT files in tests/data/dot/ must become the code and listing in the
 * `.code` and `.graph` next to them; bad DOT files in tests/data/dot-errors/
 * must give the diagnostic lines in their `.errors`.  Graft is the reference
 * for both, so `GRAFT_TEST_REGENERATE=1` rewrites those expectations for
 * review (golden.h).  torch.export programs (tests/data/programs, every
 * form) go out as DOT and come back with their metadata and signature;
 * Graft's DOT of some of them (tests/data/dot-programs) prints as torch
 * prints the program; bad metadata (tests/data/dot-program-errors) gives
 * located errors.  Graphviz's `dot` must draw what the writer makes
 * (skipped when it is not installed), values of every kind must survive,
 * and mutated DOT must give a graph or an error, never a crash.
 */
#include "config.h"

#include "golden.h"
#include "graft-view.h"
#include "test-util.h"

#include <gio/gio.h>
#include <math.h>
#include <string.h>

static GraftSource *
load_source (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *base = g_path_get_basename (path);
  gsize            length = 0;

  g_file_get_contents (path, &text, &length, &error);
  g_assert_no_error (error);
  /* Diagnostics name the file as the CLI would when run in its folder. */
  return graft_source_new (base, text != NULL ? text : "", (gssize) length);
}

/* Exports @graph, reads it back and checks that nothing changed: code,
 * listing, DOT, readable form, every node and its metadata, the program's
 * signature. */
static void
assert_round_trip (GraftGraph            *graph,
                   const GraftDotOptions *options)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dot = graft_dot_print (graph, options);
  g_autoptr (GraftSource) source = graft_source_new ("export.dot", dot, -1);
  g_autoptr (GraftGraph) back = graft_dot_parse (source, graft_graph_get_dialect (graph), &error);
  g_autofree char *code = NULL;
  g_autofree char *back_code = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *back_listing = NULL;
  g_autofree char *back_dot = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (back);
  if (back == NULL)
    return;
  g_assert_true (graft_graph_lint (back, GRAFT_LINT_DEFAULT, &error));
  g_assert_no_error (error);

  code = graft_codegen_python (graph);
  back_code = graft_codegen_python (back);
  g_assert_cmpstr (back_code, ==, code);
  listing = graft_listing_print (graph);
  back_listing = graft_listing_print (back);
  g_assert_cmpstr (back_listing, ==, listing);
  back_dot = graft_dot_print (back, options);
  g_assert_cmpstr (back_dot, ==, dot);
  {
    g_autofree char *program = test_describe_program (graph);
    g_autofree char *back_program = test_describe_program (back);

    g_assert_cmpstr (back_program, ==, program);
  }
  if (graft_graph_get_dialect (graph)->prints_readable)
    {
      g_autofree char *readable = graft_codegen_readable (graph);
      g_autofree char *back_readable = graft_codegen_readable (back);

      g_assert_cmpstr (back_readable, ==, readable);
    }

  /* Node by node: names, ops, targets, annotations, wrapped flags and
   * arguments, the latter through their printed form (which names
   * nodes, so references are compared by name). */
  g_assert_cmpuint (graft_graph_get_n_nodes (back), ==, graft_graph_get_n_nodes (graph));
  for (GraftNode *a = graft_graph_get_first (graph), *b = graft_graph_get_first (back);
       a != NULL && b != NULL;
       a = graft_node_get_next (a), b = graft_node_get_next (b))
    {
      g_autofree char *a_args = graft_arg_repr (graft_node_get_args (a), GRAFT_REPR_CODE);
      g_autofree char *b_args = graft_arg_repr (graft_node_get_args (b), GRAFT_REPR_CODE);
      g_autofree char *a_kwargs = graft_arg_repr (graft_node_get_kwargs (a), GRAFT_REPR_CODE);
      g_autofree char *b_kwargs = graft_arg_repr (graft_node_get_kwargs (b), GRAFT_REPR_CODE);

      g_assert_cmpstr (graft_node_get_name (b), ==, graft_node_get_name (a));
      g_assert_cmpint (graft_node_get_op (b), ==, graft_node_get_op (a));
      g_assert_cmpstr (graft_node_get_target (b), ==, graft_node_get_target (a));
      g_assert_cmpstr (graft_node_get_type_annotation (b), ==, graft_node_get_type_annotation (a));
      g_assert_cmpint (graft_node_get_is_wrapped (b), ==, graft_node_get_is_wrapped (a));
      g_assert_cmpstr (b_args, ==, a_args);
      g_assert_cmpstr (b_kwargs, ==, a_kwargs);
    }
}

/* ------------------------------------------------------------------ */
/* The golden corpus                                                   */
/* ------------------------------------------------------------------ */

static void
test_corpus_round_trip (const GoldenCase *gcase)
{
  const char *path = golden_case_get_input (gcase);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftGraph) graph = NULL;

  source = graft_input_read_file (path, &error);
  g_assert_no_error (error);
  if (source == NULL)
    return;
  graph = graft_trace_source (source, golden_case_get_dialect (gcase), NULL, &error);
  g_assert_no_error (error);
  if (graph == NULL)
    return;
  assert_round_trip (graph, NULL);
}

/* The models of tests/data/@suite (or of @dir), one case each; the runner
 * only finds them, as they have no expected files here. */
static void
add_corpus (const char *suite,
            const char *dir)
{
  static const char *const inputs[] = { "*.py", NULL };
  g_autofree char         *test_path = g_strconcat ("/core/dot/round-trip/", suite, NULL);
  g_autofree char         *data_dir = g_test_build_filename (G_TEST_DIST, "data", suite, NULL);
  GoldenSuite              golden = {
                 .test_path = test_path,
                 .input_dir = dir != NULL ? dir : data_dir,
                 .inputs = inputs,
                 .per_dialect = TRUE,
                 .func = test_corpus_round_trip,
  };

  golden_suite_add (&golden);
}

/* ------------------------------------------------------------------ */
/* Plain DOT and bad DOT, file by file                                 */
/* ------------------------------------------------------------------ */

static void
test_dot_file (const GoldenCase *gcase)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = load_source (golden_case_get_input (gcase));
  g_autoptr (GraftGraph) graph =
      graft_input_load_graph (source, golden_case_get_dialect (gcase), NULL, &error);
  g_autofree char *code = NULL;
  g_autofree char *listing = NULL;

  g_assert_cmpint (graft_input_detect (source), ==, GRAFT_INPUT_DOT);
  g_assert_no_error (error);
  if (graph == NULL)
    return;
  g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE, &error));
  g_assert_no_error (error);
  code = graft_codegen_python (graph);
  listing = graft_listing_print (graph);
  golden_case_check (gcase, "code", code, -1);
  golden_case_check (gcase, "graph", listing, -1);
  /* What was read from DOT goes out and back in unchanged too. */
  assert_round_trip (graph, NULL);
}

static void
test_dot_error (const GoldenCase *gcase)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = load_source (golden_case_get_input (gcase));
  g_autoptr (GraftGraph) graph =
      graft_dot_parse (source, graft_dialect_get (GRAFT_TORCH_1_13), &error);
  g_autofree char *line = NULL;
  g_autofree char *got = NULL;

  g_assert_null (graph);
  g_assert_nonnull (error);
  if (error == NULL)
    return;
  g_assert_true (error->domain == GRAFT_PARSE_ERROR);
  g_assert_true (graft_error_get_location (error, NULL, NULL, NULL, NULL, NULL));
  line = graft_error_format (error, NULL);
  got = g_strconcat (line, "\n", NULL);
  golden_case_check (gcase, "errors", got, -1);
}

/* The DOT files of tests/data/@suite, one case each (per dialect when
 * @per_dialect: NAME.code for torch 1.13.1, NAME.torch26.code for 2.6).
 * Graft is the reference for their expected files. */
static guint
add_files (const char *suite,
           GoldenFunc  func,
           gboolean    per_dialect)
{
  static const char *const inputs[] = { "*.dot", NULL };
  g_autofree char         *test_path = g_strconcat ("/core/dot/", suite, NULL);
  g_autofree char         *dir_path = g_test_build_filename (G_TEST_DIST, "data", suite, NULL);
  GoldenSuite              golden = {
                 .test_path = test_path,
                 .input_dir = dir_path,
                 .inputs = inputs,
                 .per_dialect = per_dialect,
                 .origin = GOLDEN_FROM_GRAFT,
                 .compare = GOLDEN_EXACT,
                 .func = func,
  };

  return golden_suite_add (&golden);
}

/* ------------------------------------------------------------------ */
/* Hand-made cases                                                     */
/* ------------------------------------------------------------------ */

static GraftGraph *
trace_text (const char *python)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = graft_source_new ("test.py", python, -1);
  GraftGraph *graph =
      graft_trace_source (source, graft_dialect_get (GRAFT_TORCH_1_13), NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (graph);
  return graph;
}

static GraftGraph *
example_graph (void)
{
  return trace_text ("import torch\n"
                     "def forward(x, y):\n"
                     "    a = torch.relu(x)\n"
                     "    b = a + y\n"
                     "    return b * a\n");
}

static void
set_str (GraftArg   *arg,
         const char *s,
         gssize      len)
{
  graft_arg_init_str (arg, s, len);
}

/* A graph with a value of every kind and awkward text everywhere. */
static GraftGraph *
values_graph (void)
{
  GraftGraph       *graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode        *x, *w, *call;
  GraftArg          args, kwargs, *it;
  static const char weird[] =
      "q'\"\\\n\r\t\x01\x7f\xc3\xa9\xe2\x80\xa8\xf0\x9f\x98\x80\xff\xed\xa0\x80 end\\";
  guint n = 0;

  x = graft_graph_create_node (graph, GRAFT_OP_PLACEHOLDER, "x", NULL, NULL, "x", NULL);
  graft_node_set_type_annotation (x, "typing.Dict[str, 'a\\\"b']");
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_float (&args.items[0], -0.0);
  w = graft_graph_create_node (graph, GRAFT_OP_PLACEHOLDER, "w", &args, NULL, "w", NULL);

  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 27);
  it = args.items;
  graft_arg_init_none (&it[n++]);
  graft_arg_init_ellipsis (&it[n++]);
  graft_arg_init_bool (&it[n++], TRUE);
  graft_arg_init_bool (&it[n++], FALSE);
  graft_arg_init_int (&it[n++], G_MININT64);
  graft_arg_init_int (&it[n++], G_MAXINT64);
  graft_arg_init_float (&it[n++], INFINITY);
  graft_arg_init_float (&it[n++], -INFINITY);
  graft_arg_init_float (&it[n++], NAN);
  graft_arg_init_float (&it[n++], -NAN);
  graft_arg_init_float (&it[n++], 1e-310);
  graft_arg_init_float (&it[n++], 0.1);
  graft_arg_init_complex (&it[n++], -0.0, NAN);
  set_str (&it[n++], weird, sizeof weird - 1);
  set_str (&it[n++], "a\0b", 3);
  set_str (&it[n++], "", 0);
  graft_arg_init_symbol (&it[n++], "torch.float32");
  graft_arg_init_symbol (&it[n++], "123456789012345678901234567890");
  graft_arg_init_symbol (&it[n++], "-99999999999999999999");
  graft_arg_init_symbol (&it[n++], "5");
  graft_arg_init_symbol (&it[n++], "0x1_0000_0000_0000_0000 'odd' \\");
  graft_arg_init_device (&it[n++], "cuda:0");
  graft_arg_init_node (&it[n++], x);
  graft_arg_init_node (&it[n++], x);
  graft_arg_init_slice (&it[n]);
  graft_arg_init_int (&it[n].items[0], 1);
  graft_arg_init_node (&it[n].items[2], w);
  n++;
  graft_arg_init_seq (&it[n], GRAFT_ARG_LIST, 2);
  graft_arg_init_seq (&it[n].items[0], GRAFT_ARG_TUPLE, 1);
  graft_arg_init_seq (&it[n].items[1], GRAFT_ARG_TUPLE, 0);
  graft_arg_init_seq (&it[n].items[0].items[0], GRAFT_ARG_LIST, 0);
  n++;
  graft_arg_init_dict (&it[n], 3);
  graft_arg_init_int (&it[n].items[0], 1);
  set_str (&it[n].items[1], "one", -1);
  graft_arg_init_seq (&it[n].items[2], GRAFT_ARG_TUPLE, 2);
  graft_arg_init_int (&it[n].items[2].items[0], 2);
  graft_arg_init_float (&it[n].items[2].items[1], 3.5);
  graft_arg_init_node (&it[n].items[3], w);
  graft_arg_init_symbol (&it[n].items[4], "torch.strided");
  graft_arg_init_dict (&it[n].items[5], 0);
  n++;
  g_assert_cmpuint (n, ==, 27);

  graft_arg_init_dict (&kwargs, 2);
  set_str (&kwargs.items[0], "dim", -1);
  graft_arg_init_int (&kwargs.items[1], -1);
  set_str (&kwargs.items[2], "out", -1);
  graft_arg_init_node (&kwargs.items[3], w);
  call = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "my_lib.f\\n\"x\"", &args, &kwargs,
                                  "call", NULL);
  graft_node_set_is_wrapped (call, TRUE);

  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&args.items[0], call);
  graft_graph_create_node (graph, GRAFT_OP_OUTPUT, "output", &args, NULL, "output", NULL);
  return graph;
}

static void
test_values (void)
{
  g_autoptr (GraftGraph) graph = values_graph ();
  g_autofree char *dot = graft_dot_print (graph, NULL);

  /* Every byte is UTF-8 and there is no raw control character but line
   * breaks between statements. */
  g_assert_true (g_utf8_validate (dot, -1, NULL));
  for (const char *p = dot; *p != '\0'; p++)
    g_assert_true ((guchar) *p >= 0x20 || *p == '\n');
  g_assert_nonnull (strstr (dot, "graft_wrapped=true"));
  g_assert_nonnull (strstr (dot, " 123456789012345678901234567890,"));
  g_assert_nonnull (strstr (dot, "symbol('5')"));
  g_assert_nonnull (strstr (dot, "-nan"));
  assert_round_trip (graph, NULL);

  /* Each value kind, one by one, read back bit for bit. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (GraftSource) source = graft_source_new ("values.dot", dot, -1);
    g_autoptr (GraftGraph) back =
        graft_dot_parse (source, graft_dialect_get (GRAFT_TORCH_1_13), &error);
    GraftNode      *call;
    GraftNode      *orig;
    const GraftArg *a, *b;

    g_assert_no_error (error);
    call = graft_graph_find_node (back, "call");
    orig = graft_graph_find_node (graph, "call");
    g_assert_nonnull (call);
    a = graft_node_get_args (orig);
    b = graft_node_get_args (call);
    g_assert_cmpuint (b->n, ==, a->n);
    for (guint i = 0; i < a->n; i++)
      {
        g_assert_cmpint (b->items[i].kind, ==, a->items[i].kind);
        if (a->items[i].kind == GRAFT_ARG_NODE)
          g_assert_cmpstr (graft_node_get_name (b->items[i].node), ==,
                           graft_node_get_name (a->items[i].node));
        else if (!graft_arg_has_node (&a->items[i]) && a->items[i].kind != GRAFT_ARG_FLOAT &&
                 a->items[i].kind != GRAFT_ARG_COMPLEX)
          g_assert_true (graft_arg_equal (&b->items[i], &a->items[i]));
      }
    /* Floats keep their bits, NaN's sign included. */
    for (guint i = 6; i <= 11; i++)
      g_assert_true (memcmp (&a->items[i].f, &b->items[i].f, sizeof (double)) == 0);
    g_assert_true (memcmp (a->items[12].c, b->items[12].c, 2 * sizeof (double)) == 0);
    g_assert_true (signbit (graft_node_get_args (graft_graph_find_node (back, "w"))->items[0].f));
  }
}

/* The one rule for ints (graft-value-reader.c), as in listings: an int
 * is written as Python's str(int) writes it, of any size, a symbol of its
 * digits beyond 64 bits; other digits are a malformed number.  A complex
 * part is a float whatever its size. */
static void
test_int_rule (void)
{
  const char *head = "digraph {\n  x [graft_op=placeholder, graft_target=x];\n"
                     "  y [graft_op=call_function, graft_target=f, graft_args=\"(%x, ";
  const char *tail =
      ")\"];\n  output [graft_op=output, graft_target=output, graft_args=\"(%y,)\"];\n}\n";
  static const struct
  {
    const char  *value;
    GraftArgKind kind;
    const char  *code; /* or the error */
  } cases[] = {
    { "9223372036854775807", GRAFT_ARG_INT, "9223372036854775807" },
    { "-9223372036854775808", GRAFT_ARG_INT, "-9223372036854775808" },
    { "9223372036854775808", GRAFT_ARG_SYMBOL, "9223372036854775808" },
    { "-99999999999999999999", GRAFT_ARG_SYMBOL, "-99999999999999999999" },
    { "complex(100000000000000000000, 1)", GRAFT_ARG_COMPLEX, "(1e+20+1j)" },
    { "007", GRAFT_ARG_NONE, "graft_args of 'y': malformed number at character 6" },
    { "-0", GRAFT_ARG_NONE, "graft_args of 'y': malformed number at character 6" },
    { "0099999999999999999999", GRAFT_ARG_NONE,
      "graft_args of 'y': malformed number at character 6" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strconcat (head, cases[i].value, tail, NULL);
      g_autoptr (GraftSource) source = graft_source_new ("ints.dot", text, -1);
      g_autoptr (GError) error = NULL;
      g_autoptr (GraftGraph) graph =
          graft_dot_parse (source, graft_dialect_get (GRAFT_TORCH_1_13), &error);
      const GraftArg  *arg;
      g_autofree char *code = NULL;

      g_test_message ("%s", cases[i].value);
      if (cases[i].kind == GRAFT_ARG_NONE)
        {
          g_assert_null (graph);
          g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_SYNTAX);
          g_assert_cmpstr (error->message, ==, cases[i].code);
          continue;
        }
      g_assert_no_error (error);
      arg = &graft_node_get_args (graft_graph_find_node (graph, "y"))->items[1];
      code = graft_arg_repr (arg, GRAFT_REPR_CODE);
      g_assert_cmpint (arg->kind, ==, cases[i].kind);
      g_assert_cmpstr (code, ==, cases[i].code);
      assert_round_trip (graph, NULL);
    }

  /* A symbol of other digits is written so that it reads back as itself. */
  {
    g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
    GraftArg         args, kwargs;
    g_autofree char *dot = NULL;

    graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
    graft_arg_init_symbol (&args.items[0], "0099999999999999999999");
    graft_arg_init_dict (&kwargs, 0);
    graft_graph_create_node (graph, GRAFT_OP_OUTPUT, "output", &args, &kwargs, "output", NULL);
    dot = graft_dot_print (graph, NULL);
    g_assert_nonnull (strstr (dot, "graft_args=\"(symbol('0099999999999999999999'),)\""));
    assert_round_trip (graph, NULL);
  }
}

static void
test_options (void)
{
  g_autoptr (GraftGraph) graph = example_graph ();
  g_autofree char *plain = graft_dot_print (graph, NULL);
  g_autofree char *zeroed = NULL;
  g_autofree char *dark = NULL;
  g_autofree char *matched = NULL;
  GraftDotOptions  options = { 0 };
  gint             match[6] = { -1, -1, 0, 0, 8, -1 };

  g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, 6);
  zeroed = graft_dot_print (graph, &options);
  g_assert_cmpstr (zeroed, ==, plain);
  g_assert_null (strstr (plain, "graft_match"));
  g_assert_null (strstr (plain, "penwidth"));

  graft_dot_options_init (&options);
  options.style = GRAFT_DOT_DARK;
  dark = graft_dot_print (graph, &options);
  g_assert_nonnull (strstr (dark, "bgcolor=\"#1e1e1e\""));
  assert_round_trip (graph, &options);

  graft_dot_options_init (&options);
  options.node_match = match;
  matched = graft_dot_print (graph, &options);
  /* Match 0 in orange, match 8 wraps around to the second colour. */
  g_assert_nonnull (strstr (matched, "relu [graft_op=call_function"));
  g_assert_nonnull (strstr (matched, "graft_match=0, color=\"#e69f00\", penwidth=3]"));
  g_assert_nonnull (strstr (matched, "graft_match=8, color=\"#0072b2\", penwidth=3]"));
  g_assert_cmpuint (strstr (matched, "graft_match=0") - matched, >,
                    strstr (matched, "  relu ") - matched);
  assert_round_trip (graph, &options);
}

/* Names that DOT keywords or Graft's syntax might swallow survive. */
static void
test_names (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  static const char *const names[] = { "node", "Graph", "EDGE", "strict", "inf",
                                       "nan", "Ellipsis", "_1", "\xc3\xa9t\xc3\xa9" };
  GraftArg                 args;
  GraftNode               *last = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, last != NULL ? 1 : 0);
      if (last != NULL)
        graft_arg_init_node (&args.items[0], last);
      last = graft_graph_create_node_named (graph,
                                            i == 0 ? GRAFT_OP_PLACEHOLDER : GRAFT_OP_CALL_METHOD,
                                            i == 0 ? "node" : "relu", &args, NULL, names[i], NULL);
    }
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&args.items[0], last);
  graft_graph_create_node (graph, GRAFT_OP_OUTPUT, "output", &args, NULL, "output", NULL);
  assert_round_trip (graph, NULL);
}

static gboolean
have_dot (void)
{
  g_autofree char *path = g_find_program_in_path ("dot");

  return path != NULL;
}

static void
assert_dot_draws (const char *dot_text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GBytes) input = g_bytes_new (dot_text, strlen (dot_text));
  g_autoptr (GBytes) out = NULL;
  g_autoptr (GBytes) err = NULL;
  const char *svg;
  gsize       svg_len = 0;

  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                               G_SUBPROCESS_FLAGS_STDERR_PIPE,
                           &error, "dot", "-Tsvg", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate (proc, input, NULL, &out, &err, &error);
  g_assert_no_error (error);
  if (g_bytes_get_size (err) > 0)
    g_test_message ("dot said: %.*s", (int) g_bytes_get_size (err),
                    (const char *) g_bytes_get_data (err, NULL));
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
  /* Graphviz warns about text it cannot read; there must be none. */
  g_assert_cmpuint (g_bytes_get_size (err), ==, 0);
  svg = g_bytes_get_data (out, &svg_len);
  g_assert_nonnull (g_strstr_len (svg, (gssize) svg_len, "<svg"));
}

static void
test_graphviz_draws (void)
{
  g_autoptr (GraftGraph) example = example_graph ();
  g_autoptr (GraftGraph) values = values_graph ();
  g_autofree char *path =
      g_test_build_filename (G_TEST_DIST, "data", "torchvision", "resnet18.py", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftGraph) resnet = NULL;
  GraftDotOptions options;
  gint            match[6] = { 0, -1, 1, 1, -1, -1 };

  if (!have_dot ())
    {
      g_test_skip ("dot is not on PATH");
      return;
    }
  graft_dot_options_init (&options);
  options.style = GRAFT_DOT_DARK;
  options.node_match = match;
  {
    g_autofree char *dot = graft_dot_print (example, &options);

    assert_dot_draws (dot);
  }
  {
    g_autofree char *dot = graft_dot_print (values, NULL);

    assert_dot_draws (dot);
  }
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *dot = NULL;

      source = graft_input_read_file (path, &error);
      g_assert_no_error (error);
      resnet = graft_trace_source (source, graft_dialect_get (GRAFT_TORCH_1_13), NULL, &error);
      g_assert_no_error (error);
      dot = graft_dot_print (resnet, NULL);
      assert_dot_draws (dot);
    }
}

/* graft_input_* hands DOT to the DOT reader, comments and all. */
static void
test_input (void)
{
  static const struct
  {
    const char    *text;
    GraftInputKind kind;
  } cases[] = {
    { "digraph { a -> b }", GRAFT_INPUT_DOT },
    { "strict digraph g { a }", GRAFT_INPUT_DOT },
    { "// made by hand\n/* a\n * block */ digraph { a }", GRAFT_INPUT_DOT },
    { "graph { a -- b }", GRAFT_INPUT_DOT },
    { "graph \"g h\" /* c */ { a -- b }", GRAFT_INPUT_DOT },
    { "strict graph { a }", GRAFT_INPUT_DOT },
    { "graph():\n    return None\n", GRAFT_INPUT_LISTING },
    { "graph = {}\n", GRAFT_INPUT_PYTHON },
    { "# digraph\nimport torch\n", GRAFT_INPUT_PYTHON },
    { "# made by a tool\n#line 2\ndigraph \"g\" { a }", GRAFT_INPUT_DOT },
    { "# digraph\ndigraph = 1\n", GRAFT_INPUT_PYTHON },
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autofree char *code = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GraftSource) s = graft_source_new ("in", cases[i].text, -1);

      g_assert_cmpint (graft_input_detect (s), ==, cases[i].kind);
    }

  source = graft_source_new ("in.dot", "// a comment\ndigraph { x -> \"torch.relu\" }\n", -1);
  graph = graft_input_load_graph (source, graft_dialect_get (GRAFT_TORCH_1_13), NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (graph);
  code = graft_codegen_python (graph);
  g_assert_nonnull (strstr (code, "torch_relu = torch.relu(x)"));

  /* An anonymous graph has no name for `\G`: the node's name is used. */
  {
    g_autoptr (GraftSource) anonymous =
        graft_source_new ("anon.dot", "digraph { x -> y; y [label=\"\\G\"] }", -1);
    g_autoptr (GraftGraph) anon =
        graft_dot_parse (anonymous, graft_dialect_get (GRAFT_TORCH_1_13), &error);

    g_assert_no_error (error);
    g_assert_cmpstr (graft_node_get_target (graft_graph_find_node (anon, "y")), ==, "y");
  }
}

/* A bad file must not spoil the next read: cgraph's lexer and error
 * state are global. */
static void
test_error_recovery (void)
{
  static const char *const bad[] = {
    "digraph { a -> ",
    "digraph { \"unterminated }",
    "digraph { a [label=<b] }",
    "digraph { subgraph { a -> } }",
    "graph { a -- b }",
    "digraph",
    "}",
    "digraph { a } /* open",
    "digraph { a } \"open",
    "digraph { a } <open <b>",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GraftSource) source = graft_source_new ("bad.dot", bad[i], -1);
      g_autoptr (GraftSource) good = graft_source_new ("good.dot", "digraph { p -> q }", -1);
      g_autoptr (GraftGraph) graph =
          graft_dot_parse (source, graft_dialect_get (GRAFT_TORCH_1_13), &error);
      g_autoptr (GraftGraph) fine = NULL;

      g_assert_null (graph);
      g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_SYNTAX);
      g_clear_error (&error);
      fine = graft_dot_parse (good, graft_dialect_get (GRAFT_TORCH_1_13), &error);
      g_assert_no_error (error);
      g_assert_nonnull (fine);
    }
}

/* Only the first graph of a text counts, and what follows it does not
 * leak into the next read. */
static void
test_first_graph_only (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) two =
      graft_source_new ("two.dot", "digraph { p -> q } digraph zz { y }\n", -1);
  g_autoptr (GraftSource) one = graft_source_new ("one.dot", "digraph { a }", -1);
  g_autoptr (GraftSource) late = graft_source_new ("late.dot", "digraph {\n\n  b -> ;\n}\n", -1);
  g_autoptr (GraftGraph) first =
      graft_dot_parse (two, graft_dialect_get (GRAFT_TORCH_1_13), &error);
  g_autoptr (GraftGraph) second = NULL;
  g_autoptr (GraftGraph) third = NULL;
  g_autofree char *line = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (graft_graph_find_node (first, "q"));
  g_assert_null (graft_graph_find_node (first, "y"));
  second = graft_dot_parse (one, graft_dialect_get (GRAFT_TORCH_1_13), &error);
  g_assert_no_error (error);
  g_assert_nonnull (graft_graph_find_node (second, "a"));
  g_assert_null (graft_graph_find_node (second, "y"));
  /* Line numbers start again at 1. */
  third = graft_dot_parse (late, graft_dialect_get (GRAFT_TORCH_1_13), &error);
  g_assert_null (third);
  line = graft_error_format (error, NULL);
  g_assert_cmpstr (line, ==, "late.dot:3:8: error: syntax error near ';'");
}

static GraftGraph *program_graph (void);

/* Mutated DOT gives a graph or a located error: never a crash, a hang
 * or a leak (the sanitizer build runs this too). */
static void
test_mutations (void)
{
  g_autoptr (GraftGraph) graph = values_graph ();
  g_autoptr (GraftGraph) example = example_graph ();
  g_autoptr (GraftGraph) program = program_graph ();
  g_autofree char  *values_dot = graft_dot_print (graph, NULL);
  g_autofree char  *example_dot = graft_dot_print (example, NULL);
  g_autofree char  *program_dot = graft_dot_print (program, NULL);
  const char *const seeds[] = { values_dot, example_dot,
                                "digraph { a -> b -> c; a -> c; d [label=\"x.y\"] }",
                                program_dot };
  static const char alphabet[] = "\"'\\%(),[]{}:;=-><#/*\n x0.9+e";
  GRand            *rand = g_rand_new_with_seed (20240611);
  guint             n_graphs = 0;

  for (guint round = 0; round < 800; round++)
    {
      const char *seed = seeds[round % G_N_ELEMENTS (seeds)];
      g_autoptr (GString) text = g_string_new (seed);
      g_autoptr (GError) error = NULL;
      g_autoptr (GraftSource) source = NULL;
      g_autoptr (GraftGraph) back = NULL;
      guint n_edits = 1 + (guint) g_rand_int_range (rand, 0, 4);

      for (guint k = 0; k < n_edits && text->len > 0; k++)
        {
          gsize at = (gsize) g_rand_int_range (rand, 0, (gint32) text->len);
          char  c = alphabet[g_rand_int_range (rand, 0, (gint32) sizeof alphabet - 1)];

          switch (g_rand_int_range (rand, 0, 4))
            {
            case 0:
              text->str[at] = c;
              break;
            case 1:
              g_string_insert_c (text, (gssize) at, c);
              break;
            case 2:
              g_string_erase (text, (gssize) at, 1);
              break;
            default:
              g_string_truncate (text, at);
              break;
            }
        }
      source = graft_source_new ("mutant.dot", text->str, (gssize) text->len);
      /* The program in its torch, the others in 1.13.1. */
      back = graft_dot_parse (source,
                              graft_dialect_get (seed == program_dot ? GRAFT_TORCH_2_6
                                                                     : GRAFT_TORCH_1_13),
                              &error);
      if (back != NULL)
        {
          g_autofree char *code = graft_codegen_python (back);
          g_autofree char *listing = graft_listing_print (back);

          g_assert_nonnull (code);
          g_assert_nonnull (listing);
          g_assert_no_error (error);
          g_assert_true (graft_graph_lint (back, GRAFT_LINT_DEFAULT, NULL));
          n_graphs++;
        }
      else
        {
          g_assert_nonnull (error);
          g_assert_true (graft_error_get_location (error, NULL, NULL, NULL, NULL, NULL));
        }
    }
  g_test_message ("%u of 800 mutants read as graphs", n_graphs);
  g_rand_free (rand);
}

/* ------------------------------------------------------------------ */
/* Programs: metadata and signature                                    */
/* ------------------------------------------------------------------ */

/* A small torch.export program, as a listing, whose nodes get the
 * metadata of program_meta[] and the signature of program_graph(). */
static const char program_listing[] =
    "graph():\n"
    "    %p_lin_weight : [num_users=1] = placeholder[target=p_lin_weight]\n"
    "    %p_lin_bias : [num_users=1] = placeholder[target=p_lin_bias]\n"
    "    %b_buf : [num_users=1] = placeholder[target=b_buf]\n"
    "    %c_lifted : [num_users=0] = placeholder[target=c_lifted]\n"
    "    %x : [num_users=2] = placeholder[target=x]\n"
    "    %linear : [num_users=1] = call_function[target=torch.ops.aten.linear.default]"
    "(args = (%x, %p_lin_weight, %p_lin_bias), kwargs = {})\n"
    "    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor]"
    "(args = (%linear, %b_buf), kwargs = {})\n"
    "    %sym_size_int : [num_users=1] = call_function[target=torch.ops.aten.sym_size.int]"
    "(args = (%x, 0), kwargs = {})\n"
    "    %split : [num_users=2] = call_function[target=torch.ops.aten.split.Tensor]"
    "(args = (%add, 2), kwargs = {})\n"
    "    %getitem : [num_users=1] = call_function[target=operator.getitem]"
    "(args = (%split, 0), kwargs = {})\n"
    "    %getitem_1 : [num_users=0] = call_function[target=operator.getitem]"
    "(args = (%split, 1), kwargs = {})\n"
    "    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu.default]"
    "(args = (%getitem,), kwargs = {})\n"
    "    return (relu, sym_size_int)\n";

/* A stack trace with what DOT makes hard: quotes, backslashes (an odd run
 * before a quote and at the end), line breaks, a tab, non-ASCII and a byte
 * that is not UTF-8. */
static const char nasty_trace[] =
    "  File \"/src/my \\\"models\\\"\\\\\\\\x.py\", line 12, in forward\n"
    "    y = self.lin(x)  # caf\xc3\xa9 \"q\" \\\n"
    "\tFile \"C:\\\\tmp\\\\m.py\", line 3, in <lambda>\n"
    "    return torch.relu(y) \xff\\";

static const GraftModuleFrame lin_frames[] = {
  { "L__self__", "", "__main__.M" },
  { "L__self___lin", "lin", "torch.nn.modules.linear.Linear" },
};

static const struct
{
  const char   *name;
  GraftNodeMeta meta;
} program_meta[] = {
  { "p_lin_weight", { GRAFT_VALUE_TENSOR, "f32", "[3, 4]", "[4, 1]", "meta" } },
  { "p_lin_bias", { GRAFT_VALUE_TENSOR, "f32", "[3]" } },
  { "b_buf", { GRAFT_VALUE_TENSOR, "f32", "[]", NULL, "cuda:0" } },
  { "x", { GRAFT_VALUE_TENSOR, "f32", "[s0, 4]", "[4, 1]", "cpu" } },
  { "linear",
    { GRAFT_VALUE_TENSOR, "f32", "[s0, 3]", NULL, NULL, NULL, nasty_trace,
      "[('linear', 'torch.nn.modules.linear.Linear')]",
      "('lin.0', 'builtin_function_or_method.linear')", G_N_ELEMENTS (lin_frames), lin_frames } },
  { "add", { GRAFT_VALUE_TENSOR, "f32", "[s0, 3]" } },
  { "sym_size_int", { GRAFT_VALUE_SYMBOL, NULL, NULL, NULL, NULL, "s0" } },
  { "split", { GRAFT_VALUE_OTHER, NULL, NULL, NULL, NULL, "tuple of 2" } },
  { "getitem", { GRAFT_VALUE_UNKNOWN, NULL, NULL, NULL, NULL, NULL, "  File \"m.py\", line 1" } },
  { "relu",
    { GRAFT_VALUE_TENSOR, "b8", "[s0, 2]", NULL, NULL, NULL, NULL, NULL, NULL, 1, lin_frames } },
};

static GraftGraph *
program_graph (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = graft_source_new ("program.graph", program_listing, -1);
  const GraftDialect         *dialect = graft_dialect_get (GRAFT_TORCH_2_6);
  GraftGraph                 *graph = graft_listing_parse (source, dialect, &error);
  GraftProgram               *program;
  static const GraftInputSpec inputs[] = {
    { GRAFT_INPUT_SPEC_PARAMETER, "p_lin_weight", "lin.weight", -1 },
    { GRAFT_INPUT_SPEC_PARAMETER, "p_lin_bias", "lin.bias", -1 },
    { GRAFT_INPUT_SPEC_BUFFER, "b_buf", "buf", 0 },
    { GRAFT_INPUT_SPEC_CONSTANT_TENSOR, "c_lifted", "lifted 'tensor'\n", -1 },
    { GRAFT_INPUT_SPEC_USER_INPUT, "x", NULL, -1 },
    { GRAFT_INPUT_SPEC_USER_INPUT, "scale", NULL, -1, "ConstantArgument", "2.5" },
    { GRAFT_INPUT_SPEC_BUFFER, "b_kept", "kept", 1 },
  };
  static const GraftOutputSpec outputs[] = {
    { GRAFT_OUTPUT_SPEC_USER_OUTPUT, "relu" },
    { GRAFT_OUTPUT_SPEC_USER_OUTPUT, "sym_size_int", NULL, "SymIntArgument" },
    { GRAFT_OUTPUT_SPEC_BUFFER_MUTATION, "", "buf", "ConstantArgument", "None" },
  };

  g_assert_no_error (error);
  g_assert_nonnull (graph);
  for (guint i = 0; i < G_N_ELEMENTS (program_meta); i++)
    {
      GraftNode *node = graft_graph_find_node (graph, program_meta[i].name);

      g_assert_nonnull (node);
      graft_node_set_meta (node, &program_meta[i].meta);
    }
  program = graft_graph_ensure_program (graph);
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    graft_program_add_input (program, &inputs[i]);
  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    graft_program_add_output (program, &outputs[i]);
  graft_program_set_range_constraints (program, "{s0: VR[2, int_oo]}");
  graft_graph_set_module_name (graph, "GraphModule");
  return graph;
}

/* A node that shares its name with another (a rewrite's copy named by
 * torch's namespace, graft-graph.c) goes out by an id of its own, the
 * least `NAME__K` that names no node, with its name in graft_name, and
 * comes back a sharer: two DOT nodes, Graphviz draws both, the same
 * listing and code, and the owner of the name is the one found by it. */
static void
test_shared_names (void)
{
  static const char text[] =
      "digraph {\n"
      "  x [graft_op=placeholder, graft_target=x];\n"
      "  a [graft_op=call_function, graft_target=\"operator.neg\", graft_args=\"(%x,)\"];\n"
      "  a__1 [graft_op=call_function, graft_target=\"operator.neg\", graft_args=\"(%a,)\"];\n"
      "  dup [graft_name=a, graft_op=call_function, graft_target=\"operator.neg\", "
      "graft_args=\"(%a__1,)\"];\n"
      "  output [graft_op=output, graft_target=output, graft_args=\"(%dup,)\"];\n"
      "}\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = graft_source_new ("shared.dot", text, -1);
  g_autoptr (GraftGraph) graph =
      graft_dot_parse (source, graft_dialect_get (GRAFT_TORCH_2_6), &error);
  g_autofree char *dot = NULL, *listing = NULL, *code = NULL;
  GraftNode       *owner, *sharer;

  g_assert_no_error (error);
  g_assert_nonnull (graph);
  if (graph == NULL)
    return;
  g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &error));
  g_assert_no_error (error);
  owner = graft_node_get_next (graft_graph_get_first (graph));
  sharer = graft_node_get_next (graft_node_get_next (owner));
  g_assert_cmpstr (graft_node_get_name (sharer), ==, "a");
  g_assert_true (graft_graph_find_node (graph, "a") == owner);
  g_assert_true (graft_graph_has_shared_names (graph));
  {
    const char *const names[] = { "a", "nope", NULL };
    g_autoptr (GPtrArray) found = g_ptr_array_new ();

    /* Both nodes of the name, in graph order. */
    graft_graph_find_nodes (graph, names, found);
    g_assert_cmpuint (found->len, ==, 2);
    g_assert_true (found->pdata[0] == owner);
    g_assert_true (found->pdata[1] == sharer);
  }
  listing = graft_listing_print (graph);
  g_assert_nonnull (strstr (listing, "    %a : [num_users=1] = call_function[target=operator.neg]"
                                     "(args = (%a__1,), kwargs = {})\n"));
  /* The code names every node again: the second `a` is renamed. */
  code = graft_codegen_python (graph);
  g_assert_nonnull (strstr (code, "    a_1 = -a__1;  a__1 = None\n    return a_1\n"));
  dot = graft_dot_print (graph, NULL);
  g_assert_nonnull (strstr (dot, "\n  a__2 [graft_name=a, graft_op=call_function, "));
  g_assert_nonnull (strstr (dot, "graft_args=\"(%a__2,)\""));
  g_assert_nonnull (strstr (dot, "\n  a__1 -> a__2;\n"));
  /* The label keeps the name. */
  g_assert_nonnull (strstr (dot, "graft_args=\"(%a__1,)\", label=\"a\\noperator.neg\""));
  assert_round_trip (graph, NULL);
  if (have_dot ())
    assert_dot_draws (dot);
}

/* Many nodes that share one name (a hostile file's, or a long chain of
 * rewrites'): each goes out by the least `NAME__K` that names no node, a
 * node named `a__2` skipped, and the ids cost no search from K = 1 each
 * (100000 of them took minutes). */
static void
test_shared_names_many (void)
{
  enum { N_SHARERS = 100000 };
  g_autoptr (GString) text =
      g_string_new ("digraph {\n"
                    "  x [graft_op=placeholder, graft_target=x];\n"
                    "  a [graft_op=call_function, graft_target=\"operator.neg\", "
                    "graft_args=\"(%x,)\"];\n"
                    "  a__2 [graft_op=call_function, "
                    "graft_target=\"operator.neg\", graft_args=\"(%a,)\"];\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autofree char *dot = NULL;
  g_autofree char *last = NULL;

  for (guint i = 0; i < N_SHARERS; i++)
    g_string_append_printf (text,
                            "  d%u [graft_name=a, graft_op=call_function, "
                            "graft_target=\"operator.neg\", graft_args=\"(%%%s%u,)\"];\n",
                            i, i == 0 ? "a__" : "d", i == 0 ? 2 : i - 1);
  g_string_append_printf (text,
                          "  output [graft_op=output, graft_target=output, "
                          "graft_args=\"(%%d%u,)\"];\n}\n",
                          N_SHARERS - 1);
  source = graft_source_new ("many.dot", text->str, (gssize) text->len);
  graph = graft_dot_parse (source, graft_dialect_get (GRAFT_TORCH_2_6), &error);
  g_assert_no_error (error);
  if (graph == NULL)
    return;
  dot = graft_dot_print (graph, NULL);
  g_assert_nonnull (strstr (dot, "\n  a__1 [graft_name=a, graft_op=call_function, "));
  g_assert_nonnull (strstr (dot, "\n  a__3 [graft_name=a, graft_op=call_function, "));
  g_assert_nonnull (strstr (dot, "\n  a__2 [graft_op=call_function, "));
  last = g_strdup_printf ("\n  a__%u [graft_name=a, graft_op=call_function, ", N_SHARERS + 1);
  g_assert_nonnull (strstr (dot, last));
  g_assert_nonnull (strstr (dot, "\n  a__2 -> a__1;\n  a__1 -> a__3;\n"));
}

/* Lints @graph, then makes a node asking for @name before its output:
 * it gets a name of its own, and the graph still lints. */
static void
assert_lints_and_names_apart (GraftGraph *graph,
                              const char *name)
{
  g_autoptr (GError) error = NULL;
  GraftNode *made;

  g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &error));
  g_assert_no_error (error);
  made = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "operator.neg", NULL, NULL, name,
                                  graft_graph_get_output (graph));
  g_assert_cmpstr (graft_node_get_name (made), !=, name);
  g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &error));
  g_assert_no_error (error);
}

/* The owner of a shared name erased, outside an edit and in one undone,
 * redone and freed (its trash with it): the node found by the name goes
 * from owner to sharer and back, the graph lints, and a new node does
 * not take the name the sharer still carries. */
static void
test_shared_names_owner_erased (void)
{
  static const char text[] =
      "digraph {\n"
      "  x [graft_op=placeholder, graft_target=x];\n"
      "  a [graft_op=call_function, graft_target=\"operator.neg\", graft_args=\"(%x,)\"];\n"
      "  dup [graft_name=a, graft_op=call_function, graft_target=\"operator.neg\", "
      "graft_args=\"(%x,)\"];\n"
      "  output [graft_op=output, graft_target=output, graft_args=\"(%dup,)\"];\n"
      "}\n";
  g_autoptr (GraftSource) source = graft_source_new ("owner.dot", text, -1);

  for (guint in_edit = 0; in_edit < 2; in_edit++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GraftGraph) graph =
          graft_dot_parse (source, graft_dialect_get (GRAFT_TORCH_2_6), &error);
      GraftNode *owner, *sharer;
      GraftEdit *edit;

      g_assert_no_error (error);
      if (graph == NULL)
        return;
      owner = graft_node_get_next (graft_graph_get_first (graph));
      sharer = graft_node_get_next (owner);
      if (!in_edit)
        {
          graft_graph_erase_node (graph, owner);
          g_assert_true (graft_graph_find_node (graph, "a") == sharer);
          assert_lints_and_names_apart (graph, "a");
          continue;
        }
      graft_graph_begin_edit (graph);
      graft_graph_erase_node (graph, owner);
      edit = graft_graph_end_edit (graph);
      g_assert_true (graft_graph_find_node (graph, "a") == sharer);
      graft_edit_undo (edit);
      g_assert_true (graft_graph_find_node (graph, "a") == owner);
      g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &error));
      g_assert_no_error (error);
      graft_edit_redo (edit);
      g_assert_true (graft_graph_find_node (graph, "a") == sharer);
      graft_edit_free (edit);
      g_assert_true (graft_graph_find_node (graph, "a") == sharer);
      assert_lints_and_names_apart (graph, "a");
    }
}

/* Many names each shared by two nodes, every owner erased: each name
 * finds its sharer without a walk of all the sharers (on a walk, the
 * lookups below outlast the suite's time), and of two sharers of a name
 * the first made while it is in the list. */
static void
test_shared_names_owners_erased_many (void)
{
  enum { N_NAMES = 100000 };
  g_autoptr (GString) text =
      g_string_new ("digraph {\n  x [graft_op=placeholder, graft_target=x];\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GPtrArray) owners = g_ptr_array_new ();
  g_autoptr (GraftEdit) edit = NULL;
  GraftNode *node;
  GraftNode *first;
  GraftNode *second;

  for (guint i = 0; i < N_NAMES; i++)
    g_string_append_printf (text,
                            "o%u [graft_op=call_function, graft_target=\"operator.neg\"];\n"
                            "s%u [graft_name=o%u, graft_op=call_function, "
                            "graft_target=\"operator.neg\"];\n",
                            i, i, i);
  g_string_append (text,
                   "  t [graft_name=o0, graft_op=call_function, graft_target=\"operator.neg\", "
                   "graft_args=\"(%x,)\"];\n"
                   "  output [graft_op=output, graft_target=output, graft_args=\"(%t,)\"];\n}\n");
  source = graft_source_new ("owners.dot", text->str, (gssize) text->len);
  graph = graft_dot_parse (source, graft_dialect_get (GRAFT_TORCH_2_6), &error);
  g_assert_no_error (error);
  if (graph == NULL)
    return;
  node = graft_node_get_next (graft_graph_get_first (graph));
  for (guint i = 0; i < N_NAMES; i++, node = graft_node_get_next (graft_node_get_next (node)))
    g_ptr_array_add (owners, node);
  for (guint i = 0; i < N_NAMES; i++)
    graft_graph_erase_node (graph, owners->pdata[i]);
  g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, N_NAMES + 3);
  /* A walk of the sharers per lookup: 73 s a round at load 2. */
  for (guint round = 0; round < 6; round++)
    {
      node = graft_node_get_next (graft_node_get_next (graft_graph_get_first (graph)));
      for (guint i = 1; i < N_NAMES; i++, node = graft_node_get_next (node))
        {
          char name[32];

          g_snprintf (name, sizeof name, "o%u", i);
          if (graft_graph_find_node (graph, name) != node)
            g_error ("%s: not its sharer", name);
        }
    }
  first = graft_node_get_next (graft_graph_get_first (graph));
  second = graft_node_get_prev (graft_graph_get_output (graph));
  g_assert_cmpstr (graft_node_get_name (second), ==, "o0");
  g_assert_true (graft_graph_find_node (graph, "o0") == first);
  graft_graph_begin_edit (graph);
  graft_graph_erase_node (graph, first);
  edit = graft_graph_end_edit (graph);
  g_assert_true (graft_graph_find_node (graph, "o0") == second);
  graft_edit_undo (edit);
  g_assert_true (graft_graph_find_node (graph, "o0") == first);
  g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &error));
  g_assert_no_error (error);
}

/* Two sharers of a name whose owner is erased: the DOT reads back (the
 * first sharer goes by the name, the other names it in graft_name), to
 * the same code and listing. */
static void
test_shared_names_owner_gone (void)
{
  static const char text[] =
      "digraph {\n"
      "  x [graft_op=placeholder, graft_target=x];\n"
      "  a [graft_op=call_function, graft_target=\"torch.relu\", graft_args=\"(%x,)\"];\n"
      "  d1 [graft_name=a, graft_op=call_function, graft_target=\"operator.neg\", "
      "graft_args=\"(%x,)\"];\n"
      "  d2 [graft_name=a, graft_op=call_function, graft_target=\"operator.neg\", "
      "graft_args=\"(%d1,)\"];\n"
      "  output [graft_op=output, graft_target=output, graft_args=\"(%d2,)\"];\n"
      "}\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = graft_source_new ("gone.dot", text, -1);
  g_autoptr (GraftGraph) graph =
      graft_dot_parse (source, graft_dialect_get (GRAFT_TORCH_2_6), &error);
  g_autofree char *dot = NULL;

  g_assert_no_error (error);
  if (graph == NULL)
    return;
  graft_graph_erase_node (graph, graft_node_get_next (graft_graph_get_first (graph)));
  dot = graft_dot_print (graph, NULL);
  g_assert_nonnull (strstr (dot, "\n  a [graft_op=call_function, graft_target=\"operator.neg\""));
  g_assert_nonnull (strstr (dot, "\n  a__1 [graft_name=a, graft_op=call_function, "));
  assert_round_trip (graph, NULL);
}

/* A program's DOT reads back into the identical program: code, listing,
 * DOT, every node's metadata, the signature, the class name. */
static void
test_program_round_trip (void)
{
  g_autoptr (GraftGraph) graph = program_graph ();
  g_autofree char *dot = graft_dot_print (graph, NULL);

  g_assert_true (g_utf8_validate (dot, -1, NULL));
  assert_round_trip (graph, NULL);
  /* A program with an empty signature is still a program. */
  g_clear_pointer (&dot, g_free);
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (GraftSource) source = graft_source_new ("program.graph", program_listing, -1);
    g_autoptr (GraftGraph) bare =
        graft_listing_parse (source, graft_dialect_get (GRAFT_TORCH_2_6), &error);

    g_assert_no_error (error);
    graft_graph_ensure_program (bare);
    assert_round_trip (bare, NULL);
    dot = graft_dot_print (bare, NULL);
    g_assert_nonnull (strstr (dot, "graft_inputs=\"[]\""));
  }
}

/* What viewers see, as the renderer draws it: shapes on the edges,
 * parameters and buffers by their targets and roles, operators without
 * `torch.ops.`; and the metadata attributes as the writer's file comment
 * gives them. */
static void
test_program_dot_text (void)
{
  g_autoptr (GraftGraph) graph = program_graph ();
  g_autofree char *dot = graft_dot_print (graph, NULL);

  g_assert_nonnull (strstr (dot, "  graph [graft_module=GraphModule];\n"));
  g_assert_nonnull (strstr (dot, "  graph [graft_inputs=\"[{'kind': 'PARAMETER', 'name': "
                                 "'p_lin_weight', 'target': 'lin.weight'}, "));
  g_assert_nonnull (strstr (dot, "{'kind': 'BUFFER', 'name': 'b_buf', 'target': 'buf', "
                                 "'persistent': False}"));
  g_assert_nonnull (strstr (dot, "  graph [graft_range_constraints=\"{s0: VR[2, int_oo]}\"];\n"));
  g_assert_nonnull (strstr (dot, "  x -> linear [label=\"f32[s0, 4]\"];\n"));
  g_assert_nonnull (strstr (dot, "  sym_size_int -> output [label=\"Sym(s0)\"];\n"));
  g_assert_nonnull (strstr (dot, "  split -> getitem;\n"));
  g_assert_nonnull (strstr (dot, "label=\"lin.weight\\nparameter\""));
  g_assert_nonnull (strstr (dot, "label=\"buf\\nbuffer\""));
  g_assert_nonnull (strstr (dot, "label=\"lifted 'tensor'\\n\\nconstant\""));
  g_assert_nonnull (strstr (dot, "label=\"x\\ninput\""));
  g_assert_nonnull (strstr (dot, "label=\"linear\\naten.linear.default\""));
  g_assert_nonnull (strstr (dot, "label=\"getitem\\noperator.getitem\""));
  g_assert_nonnull (strstr (dot, "graft_kind=tensor, graft_dtype=f32, graft_shape=\"[3, 4]\", "
                                 "graft_stride=\"[4, 1]\", graft_device=meta"));
  g_assert_nonnull (strstr (dot, "graft_module_stack=\"[('L__self__', '', '__main__.M'), "
                                 "('L__self___lin', 'lin', 'torch.nn.modules.linear.Linear')]\""));
  g_assert_nonnull (strstr (dot, "graft_stack_trace=\"  File \\\"m.py\\\", line 1\""));
  if (have_dot ())
    assert_dot_draws (dot);
}

/* A rewrite gives its new nodes the replacement nodes' metadata (none,
 * from symbolic tracing), keeps the rest, and undo brings back the erased
 * nodes with theirs; the signature does not change. */
static void
test_program_rewrite_meta (void)
{
  g_autoptr (GraftGraph) graph = program_graph ();
  GraftGraph *pattern_graph = NULL; /* the pattern takes it */
  g_autoptr (GraftGraph) replacement = NULL;
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) psrc = graft_source_new (
      "p.py",
      "import torch\n"
      "def pattern(x, w, b, c):\n"
      "    return torch.ops.aten.add.Tensor(torch.ops.aten.linear.default(x, w, b), c)\n"
      "def replacement(x, w, b, c):\n"
      "    return torch.ops.aten.addmm.default(c, x, torch.ops.aten.t.default(w))\n",
      -1);
  g_autofree char    *before = test_describe_program (graph);
  g_autofree char    *after = NULL;
  g_autofree char    *undone = NULL;
  const GraftDialect *d26 = graft_dialect_get (GRAFT_TORCH_2_6);

  pattern_graph = graft_trace_source (psrc, d26, "pattern", &error);
  g_assert_no_error (error);
  replacement = graft_trace_source (psrc, d26, "replacement", &error);
  g_assert_no_error (error);
  pattern = graft_pattern_new (pattern_graph, &error);
  g_assert_no_error (error);
  rewrite = graft_replace_pattern (graph, pattern, replacement, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (rewrite);
  if (rewrite == NULL)
    return;
  g_assert_cmpuint (graft_rewrite_get_n_replaced (rewrite), ==, 1);
  after = test_describe_program (graph);
  g_assert_nonnull (strstr (after, "\nt_default: no meta\naddmm_default: no meta\n"));
  g_assert_null (strstr (after, "\nlinear:"));
  g_assert_nonnull (strstr (after, "\nx: kind=1 dtype='f32' shape='[s0, 4]'"));
  g_assert_nonnull (strstr (after, "output USER_OUTPUT name='relu'"));
  /* The rewritten program goes out as DOT and back, new nodes and all. */
  assert_round_trip (graph, NULL);
  graft_edit_undo (graft_rewrite_get_edit (rewrite));
  undone = test_describe_program (graph);
  g_assert_cmpstr (undone, ==, before);
}

/* The DOT of a program needs torch 2.6, and bad metadata gives a located
 * error: tests/data/dot-program-errors is read in torch 2.6. */
static void
test_dot_program_error (const GoldenCase *gcase)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = load_source (golden_case_get_input (gcase));
  g_autoptr (GraftGraph) graph =
      graft_dot_parse (source, graft_dialect_get (GRAFT_TORCH_2_6), &error);
  g_autofree char *line = NULL;
  g_autofree char *got = NULL;

  g_assert_null (graph);
  g_assert_nonnull (error);
  if (error == NULL)
    return;
  g_assert_true (error->domain == GRAFT_PARSE_ERROR);
  g_assert_true (graft_error_get_location (error, NULL, NULL, NULL, NULL, NULL));
  line = graft_error_format (error, NULL);
  got = g_strconcat (line, "\n", NULL);
  golden_case_check (gcase, "errors", got, -1);
}

/* Every program of tests/data/programs, in each of its forms, goes out as
 * DOT and comes back the same program. */
static void
test_program_file_round_trip (const GoldenCase *gcase)
{
  const GraftDialect *dialect = graft_dialect_get (GRAFT_TORCH_2_6);
  const char         *name = golden_case_get_input_name (gcase);
  g_autoptr (GraftInputSet) inputs = graft_input_set_new (dialect);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = NULL;

  if (!test_program_form_has_reader (strchr (name, '.')))
    {
      g_test_skip ("no reader for this form of program in this build");
      return;
    }
  graph = graft_input_set_load (inputs, golden_case_get_input (gcase), NULL, FALSE, &error);
  g_assert_no_error (error);
  if (graph == NULL)
    return;
  g_assert_nonnull (graft_graph_get_program (graph));
  assert_round_trip (graph, NULL);
}

static void
add_program_corpus (void)
{
  static const char *const inputs[] = { "*.pt2", "*.ep.txt", "*.readable.txt", NULL };
  g_autofree char         *dir = g_test_build_filename (G_TEST_DIST, "data", "programs", NULL);
  GoldenSuite              golden = {
                 .test_path = "/core/dot/round-trip/programs",
                 .input_dir = dir,
                 .inputs = inputs,
                 .func = test_program_file_round_trip,
  };

  golden_suite_add (&golden);
}

/* tests/data/dot-programs: Graft's DOT of programs of tests/data/programs
 * (tests/data/README.md says how it was written) must print as torch
 * prints the program and read back the same; in torch 1.13 they are the
 * program error. */
static void
test_dot_program_file (const GoldenCase *gcase)
{
  const GraftDialect *dialect = golden_case_get_dialect (gcase);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = load_source (golden_case_get_input (gcase));
  g_autoptr (GraftGraph) graph = graft_input_load_graph (source, dialect, NULL, &error);
  g_autofree char *code = NULL;
  g_autofree char *listing = NULL;

  if (!dialect->has_export)
    {
      g_assert_null (graph);
      g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_UNSUPPORTED);
      if (error != NULL)
        g_assert_cmpstr (error->message, ==,
                         "a torch.export program needs torch 2.6 (--torch 2.6)");
      return;
    }
  g_assert_no_error (error);
  if (graph == NULL)
    return;
  g_assert_nonnull (graft_graph_get_program (graph));
  code = graft_codegen_python (graph);
  listing = graft_listing_print (graph);
  golden_case_check (gcase, "code", code, -1);
  golden_case_check (gcase, "graph", listing, -1);
  assert_round_trip (graph, NULL);
}

static void
add_dot_programs (void)
{
  static const char *const inputs[] = { "*.dot", NULL };
  g_autofree char         *dir = g_test_build_filename (G_TEST_DIST, "data", "dot-programs", NULL);
  g_autofree char         *programs = g_test_build_filename (G_TEST_DIST, "data", "programs", NULL);
  GoldenSuite              golden = {
                 .test_path = "/core/dot/programs",
                 .input_dir = dir,
                 .expected_dir = programs,
                 .inputs = inputs,
                 .per_dialect = TRUE,
                 .origin = GOLDEN_FROM_ORACLE,
                 .compare = GOLDEN_STRIPPED,
                 .func = test_dot_program_file,
  };

  g_assert_cmpuint (golden_suite_add (&golden), >=, 3);
}

/* A million edges fail with a located limit error, before cgraph spends
 * seconds on them. */
static void
test_too_many_edges (void)
{
  g_autoptr (GString) text = g_string_new ("digraph {\n");
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = NULL;

  for (guint i = 0; i < 1000000; i++)
    g_string_append_printf (text, "n%u -> n%u;\n", i % 1000, (i * 7 + 1) % 1000);
  g_string_append (text, "}\n");
  source = graft_source_new ("big.dot", text->str, (gssize) text->len);
  graph = graft_dot_parse (source, graft_dialect_get (GRAFT_TORCH_1_13), &error);
  g_assert_null (graph);
  g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_LIMIT);
  g_assert_nonnull (strstr (error->message, "more than 400000 edges"));
}

/* A target read from DOT may hold a newline, which code generation writes
 * out raw inside getattr(); torch indents every line of the body, that
 * line's continuation included. */
static void
test_newline_in_target (void)
{
  static const char dot[] =
      "digraph g {\n"
      "  x [graft_op=placeholder, graft_target=x, graft_args=\"()\"];\n"
      "  lin [graft_op=call_module, graft_target=\"layer\n0.lin\", graft_args=\"(%x,)\"];\n"
      "  output [graft_op=output, graft_target=output, graft_args=\"(%lin,)\"];\n"
      "  x -> lin;\n"
      "  lin -> output;\n"
      "}\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = graft_source_new ("newline.dot", dot, -1);
  g_autoptr (GraftGraph) graph =
      graft_dot_parse (source, graft_dialect_get (GRAFT_TORCH_1_13), &error);
  g_autofree char *code = NULL;

  g_assert_no_error (error);
  code = graft_codegen_python (graph);
  g_assert_cmpstr (code, ==,
                   "\n\n\ndef forward(self, x):\n"
                   "    lin = getattr(self, \"layer\n"
                   "    0\").lin(x);  x = None\n"
                   "    return lin\n"
                   "    ");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  graft_gv_enable_dot_reader ();

  g_test_add_func ("/core/dot/values", test_values);
  g_test_add_func ("/core/dot/int-rule", test_int_rule);
  g_test_add_func ("/core/dot/options", test_options);
  g_test_add_func ("/core/dot/names", test_names);
  g_test_add_func ("/core/dot/graphviz-draws", test_graphviz_draws);
  g_test_add_func ("/core/dot/input", test_input);
  g_test_add_func ("/core/dot/error-recovery", test_error_recovery);
  g_test_add_func ("/core/dot/first-graph-only", test_first_graph_only);
  g_test_add_func ("/core/dot/mutations", test_mutations);
  g_test_add_func ("/core/dot/too-many-edges", test_too_many_edges);
  g_test_add_func ("/core/dot/newline-in-target", test_newline_in_target);
  g_test_add_func ("/core/dot/shared-names", test_shared_names);
  g_test_add_func ("/core/dot/shared-names-many", test_shared_names_many);
  g_test_add_func ("/core/dot/shared-names-owner-erased", test_shared_names_owner_erased);
  g_test_add_func ("/core/dot/shared-names-owners-erased-many",
                   test_shared_names_owners_erased_many);
  g_test_add_func ("/core/dot/shared-names-owner-gone", test_shared_names_owner_gone);
  g_test_add_func ("/core/dot/program/round-trip", test_program_round_trip);
  g_test_add_func ("/core/dot/program/dot-text", test_program_dot_text);
  g_test_add_func ("/core/dot/program/rewrite-meta", test_program_rewrite_meta);
  g_assert_cmpuint (add_files ("dot", test_dot_file, TRUE), >=, 8);
  g_assert_cmpuint (add_files ("dot-errors", test_dot_error, FALSE), >=, 20);
  g_assert_cmpuint (add_files ("dot-program-errors", test_dot_program_error, FALSE), >=, 10);
  add_dot_programs ();
  add_program_corpus ();
  add_corpus ("golden", NULL);
  add_corpus ("torchvision", NULL);
  add_corpus ("torchvision26", NULL);
  add_corpus ("aten", NULL);
  {
    g_autofree char *examples = g_test_build_filename (G_TEST_DIST, "..", "data", "examples", NULL);

    add_corpus ("examples", examples);
  }
  return g_test_run ();
}
