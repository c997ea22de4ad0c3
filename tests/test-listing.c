/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-listing.c: the graph listing reader and writer.  Listings printed by
 * torch 1.13.1 and 2.6 (tests/data/listing/CASE.txt and CASE.torch26.txt,
 * made by tests/tools/gen-listing-data.py) must read back, in either
 * dialect, into a graph that prints the same text (in its dialect's form)
 * and generates that torch's code (CASE.code, CASE.torch26.code).  Values whose type
 * a listing loses, the located errors of bad listings, hostile input
 * (junk, truncation, deep nesting) and a 100,000-node listing are checked
 * too.
 */
#include "config.h"

#include "graft-view.h"

#include <string.h>

/* The text without the white space at both ends, which the contract
 * ignores. */
static char *
strip_copy (const char *text)
{
  return g_strstrip (g_strdup (text));
}

static GraftGraph *
parse_text (const char *text,
            GError    **error)
{
  g_autoptr (GraftSource) source = graft_source_new ("test.txt", text, -1);

  return graft_listing_parse (source, graft_dialect_get (GRAFT_TORCH_1_13), error);
}

static GraftGraph *
parse_ok (const char *text)
{
  g_autoptr (GError) error = NULL;
  GraftGraph *graph = parse_text (text, &error);

  g_assert_no_error (error);
  g_assert_nonnull (graph);
  return graph;
}

/* Parses @text and checks that it prints back unchanged. */
static GraftGraph *
parse_round_trip (const char *text)
{
  GraftGraph      *graph = parse_ok (text);
  g_autofree char *printed = graft_listing_print (graph);
  g_autofree char *want = strip_copy (text);

  g_assert_cmpstr (printed, ==, want);
  return graph;
}

/* One listing of tests/data/listing read in one dialect: the listing torch
 * @form printed (CASE.txt for 1.13.1, CASE.torch26.txt for 2.6) read as a
 * graph of @dialect. */
typedef struct
{
  char      *stem;
  GraftTorch form;
  GraftTorch dialect;
} DataCase;

static void
data_case_free (gpointer data)
{
  DataCase *c = data;

  g_free (c->stem);
  g_free (c);
}

static char *
data_path (const char *stem,
           GraftTorch  torch,
           const char *suffix)
{
  g_autofree char *name = g_strconcat (stem, torch == GRAFT_TORCH_1_13 ? "" : ".torch26", suffix,
                                       NULL);

  return g_test_build_filename (G_TEST_DIST, "data", "listing", name, NULL);
}

/* @text with its user counts in @dialect's form. */
static char *
with_users_field (const char         *text,
                  const GraftDialect *dialect)
{
  g_autofree char *other = g_strdup_printf ("[%s=", dialect->torch == GRAFT_TORCH_1_13
                                                        ? "num_users"
                                                        : "#users");
  g_autofree char *own = g_strdup_printf ("[%s=", dialect->users_field);
  g_auto (GStrv) parts = g_strsplit (text, other, -1);

  return g_strjoinv (own, parts);
}

/* The listing reads back into a graph that prints it again (with the
 * graph's own user counts: a listing of either form reads in either
 * dialect) and generates the code that dialect's torch printed for it
 * (CASE.code, CASE.torch26.code; both torches' listings of a case are the
 * same graph). */
static void
test_data_case (gconstpointer data)
{
  const DataCase     *c = data;
  const GraftDialect *dialect = graft_dialect_get (c->dialect);
  g_autofree char    *txt_path = data_path (c->stem, c->form, ".txt");
  g_autofree char    *code_path = data_path (c->stem, c->dialect, ".code");
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autofree char *printed = NULL;
  g_autofree char *want_listing = NULL;
  g_autofree char *code = NULL;
  g_autofree char *code_stripped = NULL;
  g_autofree char *want_code = NULL;
  g_autofree char *text = NULL;

  source = graft_input_read_file (txt_path, &error);
  g_assert_no_error (error);
  g_assert_true (graft_listing_detect (source));
  graph = graft_listing_parse (source, dialect, &error);
  g_assert_no_error (error);
  g_assert_nonnull (graph);
  g_assert_true (graft_graph_get_dialect (graph) == dialect);
  g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE, &error));
  g_assert_no_error (error);

  printed = graft_listing_print (graph);
  text = with_users_field (graft_source_get_text (source), dialect);
  want_listing = strip_copy (text);
  g_assert_cmpstr (printed, ==, want_listing);

  /* A case that only torch 1.13.1 printed has no code of torch 2.6. */
  if (g_file_test (code_path, G_FILE_TEST_EXISTS))
    {
      g_file_get_contents (code_path, &want_code, NULL, &error);
      g_assert_no_error (error);
      g_strstrip (want_code);
      code = graft_codegen_python (graph);
      code_stripped = strip_copy (code);
      g_assert_cmpstr (code_stripped, ==, want_code);
    }

  /* Every node remembers its line. */
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      guint32 start, end;
      guint   line, column;

      graft_node_get_span (node, &start, &end);
      g_assert_cmpuint (start, <, end);
      graft_source_locate (source, start, &line, &column);
      g_assert_cmpuint (line, >=, 2);
    }
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static void
add_data_cases (void)
{
  g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, "data", "listing", NULL);
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autoptr (GPtrArray) stems = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".txt") && !g_str_has_suffix (name, ".torch26.txt"))
      g_ptr_array_add (stems, g_strndup (name, strlen (name) - 4));
  /* Register in a fixed order, whatever the directory's. */
  g_ptr_array_sort (stems, compare_names);
  for (guint i = 0; i < stems->len; i++)
    for (GraftTorch form = 0; form < GRAFT_N_TORCHES; form++)
      for (GraftTorch torch = 0; torch < GRAFT_N_TORCHES; torch++)
        {
          g_autofree char *txt = data_path (stems->pdata[i], form, ".txt");
          g_autofree char *path = NULL;
          DataCase        *c;

          if (!g_file_test (txt, G_FILE_TEST_EXISTS))
            continue;
          c = g_new0 (DataCase, 1);
          c->stem = g_strdup (stems->pdata[i]);
          c->form = form;
          c->dialect = torch;
          path = g_strdup_printf ("/core/listing/torch/%s/listing%s/torch%s",
                                  (char *) stems->pdata[i], graft_dialect_get (form)->name,
                                  graft_dialect_get (torch)->name);
          g_test_add_data_func_full (path, c, test_data_case, data_case_free);
        }
}

static void
test_detect (void)
{
  static const struct
  {
    const char *text;
    gboolean    is_listing;
  } cases[] = {
    { "graph():\n    return None", TRUE },
    { "\n\n  \t\ngraph():\n", TRUE },
    { "graph(x, y) -> int:", TRUE },
    { "", FALSE },
    { "   ", FALSE },
    { "graph", FALSE },
    { "grap(", FALSE },
    { "import torch\ngraph():", FALSE },
    { "digraph {}", FALSE },
    { "# graph():\ngraph():", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GraftSource) source = graft_source_new ("t", cases[i].text, -1);

      g_assert_cmpint (graft_listing_detect (source), ==, cases[i].is_listing);
    }
}

/* The printed forms (code and listing) of the first argument of the node
 * called @name. */
static void
assert_arg (GraftGraph  *graph,
            const char  *name,
            guint        index,
            GraftArgKind kind,
            const char  *code_repr)
{
  GraftNode       *node = graft_graph_find_node (graph, name);
  const GraftArg  *args;
  g_autofree char *repr = NULL;

  g_assert_nonnull (node);
  args = graft_node_get_args (node);
  g_assert_cmpuint (index, <, args->n);
  g_assert_cmpstr (graft_arg_kind_to_string (args->items[index].kind), ==,
                   graft_arg_kind_to_string (kind));
  repr = graft_arg_repr (&args->items[index], GRAFT_REPR_CODE);
  g_assert_cmpstr (repr, ==, code_repr);
}

static void
test_values (void)
{
  const char *text =
      "graph():\n"
      "    %x : [#users=3] = placeholder[target=x]\n"
      "    %a : [#users=0] = call_function[target=f.g](args = (%x, cpu, cuda:0, torch.float32, 1j, "
      "(1+2j), (-0-1.5j), inf, -inf, nan), kwargs = {})\n"
      "    %b : [#users=0] = call_function[target=f.g](args = (1e-05, -1e+20, 2.5, 4.0, -0.0, 7, "
      "-7, 007, -0, None, True, False, Ellipsis), kwargs = {})\n"
      "    %c : [#users=0] = call_function[target=f.g](args = ((,), (%x, ), ij,jk->ik, foo bar, "
      "f(a, b), torch.x.y, torch., [], (), {}), kwargs = {dim: -1, 'q': ok})\n"
      "    %d : [#users=0] = call_function[target=f.g](args = (slice(x, 'a', None), slice(None, "
      "-1, (1, 'b')), [[1, [2]], (3,)], {k: {l: [%x]}}), kwargs = {})\n"
      "    %e : [#users=0] = call_function[target=f.g](args = (9223372036854775807, "
      "-9223372036854775808, 1.7976931348623157e+308, 5e-324, 0.1, -infj), kwargs = {})\n"
      "    return (device(type='cuda', index=0), device(type='cpu'), \"it's\", 'q', "
      "'\\x00\xe2\x98\x83\\u200b\\U000e0001', -1j, {'k': inf, 2: nan}, [Ellipsis, None, True], "
      "torch.int64)";
  g_autoptr (GraftGraph) graph = parse_round_trip (text);
  g_autoptr (GError) error = NULL;
  GraftNode       *output;
  g_autofree char *ret = NULL;
  g_autofree char *kwargs = NULL;

  g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE, &error));
  g_assert_no_error (error);

  /* Devices print as plain strings in arguments and read back as str. */
  assert_arg (graph, "a", 1, GRAFT_ARG_STR, "'cpu'");
  assert_arg (graph, "a", 2, GRAFT_ARG_STR, "'cuda:0'");
  assert_arg (graph, "a", 3, GRAFT_ARG_SYMBOL, "torch.float32");
  assert_arg (graph, "a", 4, GRAFT_ARG_COMPLEX, "1j");
  assert_arg (graph, "a", 5, GRAFT_ARG_COMPLEX, "(1+2j)");
  assert_arg (graph, "a", 6, GRAFT_ARG_COMPLEX, "(-0-1.5j)");
  assert_arg (graph, "a", 7, GRAFT_ARG_FLOAT, "inf");
  assert_arg (graph, "a", 8, GRAFT_ARG_FLOAT, "-inf");
  assert_arg (graph, "a", 9, GRAFT_ARG_FLOAT, "nan");

  assert_arg (graph, "b", 0, GRAFT_ARG_FLOAT, "1e-05");
  assert_arg (graph, "b", 1, GRAFT_ARG_FLOAT, "-1e+20");
  assert_arg (graph, "b", 2, GRAFT_ARG_FLOAT, "2.5");
  assert_arg (graph, "b", 3, GRAFT_ARG_FLOAT, "4.0");
  assert_arg (graph, "b", 4, GRAFT_ARG_FLOAT, "-0.0");
  assert_arg (graph, "b", 5, GRAFT_ARG_INT, "7");
  assert_arg (graph, "b", 6, GRAFT_ARG_INT, "-7");
  /* Python never prints an int with a leading zero or a minus zero. */
  assert_arg (graph, "b", 7, GRAFT_ARG_STR, "'007'");
  assert_arg (graph, "b", 8, GRAFT_ARG_STR, "'-0'");
  assert_arg (graph, "b", 9, GRAFT_ARG_NONE, "None");
  assert_arg (graph, "b", 10, GRAFT_ARG_BOOL, "True");
  assert_arg (graph, "b", 11, GRAFT_ARG_BOOL, "False");
  assert_arg (graph, "b", 12, GRAFT_ARG_ELLIPSIS, "Ellipsis");

  /* `(,)` is a tuple holding the empty string, `(%x, )` a pair. */
  assert_arg (graph, "c", 0, GRAFT_ARG_TUPLE, "('',)");
  assert_arg (graph, "c", 1, GRAFT_ARG_TUPLE, "(x, '')");
  assert_arg (graph, "c", 2, GRAFT_ARG_STR, "'ij,jk->ik'");
  assert_arg (graph, "c", 3, GRAFT_ARG_STR, "'foo bar'");
  assert_arg (graph, "c", 4, GRAFT_ARG_STR, "'f(a, b)'");
  assert_arg (graph, "c", 5, GRAFT_ARG_SYMBOL, "torch.x.y");
  assert_arg (graph, "c", 6, GRAFT_ARG_STR, "'torch.'");
  assert_arg (graph, "c", 7, GRAFT_ARG_LIST, "[]");
  assert_arg (graph, "c", 8, GRAFT_ARG_TUPLE, "()");
  assert_arg (graph, "c", 9, GRAFT_ARG_DICT, "{}");
  /* Keys in a listing are bare: a quoted key keeps its quotes. */
  kwargs =
      graft_arg_repr (graft_node_get_kwargs (graft_graph_find_node (graph, "c")), GRAFT_REPR_CODE);
  g_assert_cmpstr (kwargs, ==, "{'dim': -1, \"'q'\": 'ok'}");

  assert_arg (graph, "d", 0, GRAFT_ARG_SLICE, "slice(x, 'a', None)");
  assert_arg (graph, "d", 1, GRAFT_ARG_SLICE, "slice(None, -1, (1, 'b'))");
  assert_arg (graph, "d", 2, GRAFT_ARG_LIST, "[[1, [2]], (3,)]");
  assert_arg (graph, "d", 3, GRAFT_ARG_DICT, "{'k': {'l': [x]}}");

  assert_arg (graph, "e", 0, GRAFT_ARG_INT, "9223372036854775807");
  assert_arg (graph, "e", 1, GRAFT_ARG_INT, "-9223372036854775808");
  assert_arg (graph, "e", 2, GRAFT_ARG_FLOAT, "1.7976931348623157e+308");
  assert_arg (graph, "e", 3, GRAFT_ARG_FLOAT, "5e-324");
  assert_arg (graph, "e", 4, GRAFT_ARG_FLOAT, "0.1");
  assert_arg (graph, "e", 5, GRAFT_ARG_COMPLEX, "-infj");

  /* The return line is a repr: strings quoted, devices as device(...). */
  output = graft_graph_get_output (graph);
  g_assert_nonnull (output);
  g_assert_cmpstr (graft_node_get_name (output), ==, "output");
  ret = graft_arg_repr (&graft_node_get_args (output)->items[0], GRAFT_REPR_CODE);
  g_assert_cmpstr (ret, ==,
                   "(device(type='cuda', index=0), device(type='cpu'), \"it's\", 'q', "
                   "'\\x00\xe2\x98\x83\\u200b\\U000e0001', -1j, {'k': inf, 2: nan}, [Ellipsis, "
                   "None, True], torch.int64)");
}

static void
test_lossy (void)
{
  /* A placeholder default prints with str(): the device `cpu` and the str
   * 'cpu' look alike, and the reader picks str. */
  g_autoptr (GraftGraph) graph = parse_round_trip (
      "graph():\n"
      "    %d : [#users=0] = placeholder[target=d](default=cpu)\n"
      "    %s : [#users=0] = placeholder[target=s](default=a b)\n"
      "    %e : [#users=0] = placeholder[target=e](default=)\n"
      "    %t : [#users=0] = placeholder[target=t](default=(1, 'x', device(type='cpu')))\n"
      "    %n : [#users=0] = placeholder[target=n](default=1)\n"
      "    %f : [#users=0] = placeholder[target=f](default=torch.float16)\n"
      "    return None");
  g_autofree char *code = graft_codegen_python (graph);

  g_assert_cmpstr (code, ==, "\n\n\ndef forward(self, d = 'cpu', s = 'a b', e = '', "
                             "t = (1, 'x', device(type='cpu')), n = 1, f = torch.float16):\n"
                             "    return None\n    ");
}

static void
test_num_users (void)
{
  /* torch 2.x writes `num_users`; it reads the same and prints as 1.13.1. */
  g_autoptr (GraftGraph) graph =
      parse_ok ("graph():\n"
                "    %x : [num_users=2] = placeholder[target=x]\n"
                "    %relu : torch.Tensor [num_users=1] = call_function[target=torch.relu](args = "
                "(%x,), kwargs = {})\n"
                "    return (relu, x)\n");
  g_autofree char *printed = graft_listing_print (graph);

  g_assert_cmpstr (printed, ==,
                   "graph():\n"
                   "    %x : [#users=2] = placeholder[target=x]\n"
                   "    %relu : torch.Tensor [#users=1] = call_function[target=torch.relu](args = "
                   "(%x,), kwargs = {})\n"
                   "    return (relu, x)");
}

static void
test_types (void)
{
  g_autoptr (GraftGraph) graph =
      parse_round_trip ("graph():\n"
                        "    %x : torch.Tensor [#users=1] = placeholder[target=x]\n"
                        "    %n : int [#users=1] = placeholder[target=n](default=3)\n"
                        "    %mul : torch.Tensor [#users=1] = "
                        "call_function[target=operator.mul](args = (%x, %n), kwargs = {})\n"
                        "    return mul");
  g_autoptr (GraftGraph) typing = parse_round_trip (
      "graph():\n"
      "    %l : typing.List[typing.Tuple[int, int]] [#users=1] = placeholder[target=l]\n"
      "    return l");
  g_autofree char *code = graft_codegen_python (graph);

  /* The output's annotation is not in the listing; a call's type is
   * declared in the code, as torch 1.13.1's `maybe_type_annotation`. */
  g_assert_null (graft_node_get_type_annotation (graft_graph_get_output (graph)));
  g_assert_cmpstr (code, ==, "\n\n\ndef forward(self, x : torch.Tensor, n : int = 3):\n"
                             "    mul : torch.Tensor = x * n;  x = n = None\n"
                             "    return mul\n    ");
  /* A typing annotation is kept as the listing prints it. */
  g_assert_cmpstr (graft_node_get_type_annotation (graft_graph_find_node (typing, "l")), ==,
                   "typing.List[typing.Tuple[int, int]]");
}

/* A type whose first bracket does not close at its end (any text before
 * ` [num_users=` is read as the type) is no generic alias: the listing
 * and the code write it as one text.  Reading arguments up to its last
 * `]` stepped no further at the `]` that closes earlier, appending for
 * ever (fuzz-listing's timeout-37f55a...), so the checks run in a
 * subprocess with a time limit (20 s: a few ms here, under ASan too). */
static void
test_types_unbalanced (void)
{
  static const struct
  {
    const char *type;
    const char *code;
  } cases[] = {
    { "typing.Sequence[int] [yping.Set[str]", "typing_Sequence_int_yping_Set_str_" },
    { "typing.Union[int] [x[str]", "typing_Union_int_x_str_" },
    { "typing.Union[int, NoneType] + a[b]", "typing_Union_int_NoneType_a_b_" },
    { "typing.List[int]]", "typing_List_int_" },
    { "typing.List[", "typing_List_" },
    /* Still aliases: a quoted `]`, nested brackets. */
    { "typing.Optional['a]']", "typing_Union[_a_,NoneType]" },
    { "typing.Dict[str, typing.List[int]]", "typing_Dict[str,typing_List[int]]" },
  };

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 20 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
      g_test_trap_assert_passed ();
      return;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text =
          g_strdup_printf ("graph():\n"
                           "    %%x : %s [#users=1] = placeholder[target=x]\n"
                           "    return x",
                           cases[i].type);
      g_autoptr (GraftGraph) graph = parse_round_trip (text);
      g_autofree char *code = graft_codegen_python (graph);
      g_autofree char *want = g_strdup_printf ("def forward(self, x : %s):", cases[i].code);

      g_assert_nonnull (strstr (code, want));
    }
}

static void
test_forward_reference (void)
{
  /* A rewrite can leave a use before its definition; the listing reads. */
  g_autoptr (GraftGraph) graph = parse_round_trip (
      "graph():\n"
      "    %x : [#users=1] = placeholder[target=x]\n"
      "    %a : [#users=1] = call_function[target=operator.add](args = (%x, %b), kwargs = {})\n"
      "    %b : [#users=2] = call_method[target=relu](args = (%b,), kwargs = {})\n"
      "    return a");
  g_autoptr (GError) error = NULL;
  GraftNode *b = graft_graph_find_node (graph, "b");

  g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &error));
  g_assert_no_error (error);
  g_assert_false (graft_graph_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE, &error));
  g_assert_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH);
  g_assert_cmpuint (graft_node_get_n_users (b), ==, 2);
  g_assert_true (graft_node_get_user (b, 0) == graft_graph_find_node (graph, "a"));
  g_assert_true (graft_node_get_user (b, 1) == b);
}

static void
test_names (void)
{
  /* Names are kept as written, even where torch would pick another; a
   * node called `output` makes the output node `output_1`. */
  g_autoptr (GraftGraph) graph = parse_round_trip (
      "graph():\n"
      "    %x_01 : [#users=1] = placeholder[target=x]\n"
      "    %sum : [#users=1] = call_method[target=sum](args = (%x_01,), kwargs = {})\n"
      "    %output : [#users=1] = call_module[target=output](args = (%sum,), kwargs = {})\n"
      "    return output");
  g_autofree char *code = graft_codegen_python (graph);
  GraftNode       *added;

  g_assert_cmpstr (graft_node_get_name (graft_graph_get_output (graph)), ==, "output_1");
  /* Code names come from a fresh namespace, as in torch. */
  g_assert_cmpstr (code, ==, "\n\n\ndef forward(self, x):\n"
                             "    x_1 = x\n"
                             "    sum_1 = x_1.sum();  x_1 = None\n"
                             "    output = self.output(sum_1);  sum_1 = None\n"
                             "    return output\n    ");
  /* The names read are reserved for new nodes. */
  added = graft_graph_create_node (graph, GRAFT_OP_CALL_METHOD, "sum", NULL, NULL, NULL,
                                   graft_graph_get_output (graph));
  g_assert_cmpstr (graft_node_get_name (added), ==, "sum_1");
}

/* A node of one argument, @input, and maybe one keyword. */
static GraftNode *
inner_newline_node (GraftGraph *graph,
                    GraftOp     op,
                    const char *target,
                    GraftNode  *input,
                    const char *keyword)
{
  GraftArg args, kwargs;

  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&args.items[0], input);
  graft_arg_init_dict (&kwargs, keyword != NULL ? 1 : 0);
  if (keyword != NULL)
    {
      graft_arg_init_str (&kwargs.items[0], keyword, strlen (keyword));
      graft_arg_init_int (&kwargs.items[1], 1);
    }
  return graft_graph_create_node (graph, op, target, &args, &kwargs, NULL, NULL);
}

static void
test_inner_newlines (void)
{
  /* Text of a node's line that holds a newline of its own (a module
   * path, a method, a torch function, a keyword): what follows it is
   * indented as torch indents every line; the lines around are not. */
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_2_6));
  GraftNode       *x = graft_graph_create_node (graph, GRAFT_OP_PLACEHOLDER, "x", NULL, NULL,
                                                NULL, NULL);
  GraftNode       *m = inner_newline_node (graph, GRAFT_OP_CALL_MODULE, "a.b\nc", x, NULL);
  GraftNode       *r = inner_newline_node (graph, GRAFT_OP_CALL_METHOD, "relu", m, NULL);
  GraftNode       *t = inner_newline_node (graph, GRAFT_OP_CALL_METHOD, "p.q\nr", r, NULL);
  GraftNode       *f = inner_newline_node (graph, GRAFT_OP_CALL_FUNCTION, "torch.f\ng", t, NULL);
  GraftNode       *k = inner_newline_node (graph, GRAFT_OP_CALL_FUNCTION, "torch.neg", f, "k\ny");
  GraftNode       *n = inner_newline_node (graph, GRAFT_OP_CALL_FUNCTION, "torch.neg", k, NULL);
  g_autofree char *code = NULL;

  inner_newline_node (graph, GRAFT_OP_OUTPUT, "output", n, NULL);
  code = graft_codegen_python (graph);
  g_assert_cmpstr (code, ==,
                   "\n\n\ndef forward(self, x):\n"
                   "    a_b_c = getattr(self.a, \"b\n    c\")(x);  x = None\n"
                   "    relu = a_b_c.relu();  a_b_c = None\n"
                   "    p_q_r = getattr(relu.p, \"q\n    r\")();  relu = None\n"
                   "    f_g = torch.f\n    g(p_q_r);  p_q_r = None\n"
                   "    neg = torch.neg(f_g, k\n    y = 1);  f_g = None\n"
                   "    neg_1 = torch.neg(neg);  neg = None\n"
                   "    return neg_1\n    ");
}

static void
test_wrapped (void)
{
  g_autoptr (GraftGraph) graph = parse_ok (
      "graph():\n"
      "    %x : [#users=4] = placeholder[target=x]\n"
      "    %sqrt : [#users=0] = call_function[target=math.sqrt](args = (%x,), kwargs = {})\n"
      "    %add : [#users=0] = call_function[target=operator.add](args = (%x, 1), kwargs = {})\n"
      "    %getattr_1 : [#users=0] = call_function[target=builtins.getattr](args = (%x, shape), "
      "kwargs = {})\n"
      "    %relu : [#users=0] = call_function[target=torch.relu](args = (%x,), kwargs = {})\n"
      "    return None");

  g_assert_true (graft_node_get_is_wrapped (graft_graph_find_node (graph, "sqrt")));
  g_assert_false (graft_node_get_is_wrapped (graft_graph_find_node (graph, "add")));
  g_assert_false (graft_node_get_is_wrapped (graft_graph_find_node (graph, "getattr_1")));
  g_assert_false (graft_node_get_is_wrapped (graft_graph_find_node (graph, "relu")));
}

static void
test_layout_tolerance (void)
{
  /* Blank lines, CRLF line ends, tabs and trailing spaces are accepted. */
  g_autoptr (GraftGraph) graph = parse_ok (
      "\n\n  graph():  \r\n"
      "\t%x : [#users=1] = placeholder[target=x]   \r\n"
      "\r\n"
      "        return x\r\n\r\n");
  g_autofree char *printed = graft_listing_print (graph);

  g_assert_cmpstr (printed, ==,
                   "graph():\n    %x : [#users=1] = placeholder[target=x]\n    return x");
}

typedef struct
{
  const char         *text;
  GraftParseErrorCode code;
  guint               line;
  guint               column;
  const char         *message;
} ErrorCase;

static const ErrorCase error_cases[] = {
  { "graph():\n"
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %y : [#users=1] = call_function[target=torch.relu](args = (%foo,), kwargs = {})\n"
    "    return y",
    GRAFT_PARSE_ERROR_GRAPH, 3, 64, "%foo is not defined" },
  { "graph():\n"
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    return (x, nope)",
    GRAFT_PARSE_ERROR_GRAPH, 3, 16, "nope is not defined" },
  { "graph():\n"
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %x : [#users=0] = placeholder[target=y]\n"
    "    return x",
    GRAFT_PARSE_ERROR_GRAPH, 3, 5, "%x is already defined on line 2" },
  { "graph():\n"
    "    %x : [#users=2] = placeholder[target=x]\n"
    "    return x",
    GRAFT_PARSE_ERROR_GRAPH, 2, 18, "node %x declares 2 users but 1 node uses it" },
  { "graph():\n"
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %y : [#users=0] = placeholder[target=y]\n"
    "    %a : [#users=1] = call_function[target=operator.add](args = (%x, %x), kwargs = {x: %x})\n"
    "    return y",
    GRAFT_PARSE_ERROR_GRAPH, 3, 18, "node %y declares 0 users but 1 node uses it" },
  { "graph():\n"
    "    %x : [#users=0] = placeholder[target=x]\n",
    GRAFT_PARSE_ERROR_GRAPH, 3, 1, "the listing has no 'return' line" },
  { "graph():\n"
    "    return None\n"
    "    %x : [#users=0] = placeholder[target=x]",
    GRAFT_PARSE_ERROR_GRAPH, 3, 5, "the 'return' line must be the last line" },
  { "graph():\n"
    "    return None\n"
    "    return None",
    GRAFT_PARSE_ERROR_GRAPH, 3, 5, "the 'return' line must be the last line" },
  { "", GRAFT_PARSE_ERROR_SYNTAX, 1, 1, "expected 'graph():' but the input is empty" },
  { "\n\n  graph(x):\n    return None", GRAFT_PARSE_ERROR_SYNTAX, 3, 3, "expected 'graph():'" },
  { "graph():\n    \x01\xff junk", GRAFT_PARSE_ERROR_SYNTAX, 2, 5,
    "expected a node ('%name : ...') or 'return'" },
  { "graph():\n    %x : [#users=1] = placeholder[target=x]\n    %y : [#users=0] = "
    "call_function[target=torch.relu](args = (%x,",
    GRAFT_PARSE_ERROR_SYNTAX, 3, 67, "unexpected end of line; expected ',' or ')'" },
  { "graph():\n    %x : [#users=1] = placeholder[target=x]\n    %y : [#users=0] = "
    "call_function[target=torch.relu](args = (%x,), kwargs = {",
    GRAFT_PARSE_ERROR_SYNTAX, 3, 80, "unexpected end of line; expected ': '" },
  { "graph():\n    %x : [#users=1] = placeh", GRAFT_PARSE_ERROR_SYNTAX, 2, 23,
    "expected an op: placeholder, get_attr, call_function, call_method or call_module" },
  { "graph():\n    %x : [#users=1", GRAFT_PARSE_ERROR_SYNTAX, 2, 19,
    "unexpected end of line; expected '] = '" },
  { "graph():\n    %x : [#use", GRAFT_PARSE_ERROR_SYNTAX, 2, 10, "expected '[#users=N]'" },
  { "graph():\n    %x", GRAFT_PARSE_ERROR_SYNTAX, 2, 7, "unexpected end of line; expected ' : '" },
  { "graph():\n    %x : [#users=1] = placeholder[target=x\n    return x", GRAFT_PARSE_ERROR_SYNTAX,
    2, 43, "expected ']' at the end of the line" },
  { "graph():\n    %x : [#users=0] = output[target=output](args = (None,), kwargs = {})\n    "
    "return None",
    GRAFT_PARSE_ERROR_SYNTAX, 2, 23, "the output is written as a 'return' line" },
  { "graph():\n    %lambda : [#users=0] = placeholder[target=x]\n    return None",
    GRAFT_PARSE_ERROR_GRAPH, 2, 5, "this name is reserved in Python and cannot name a node" },
  { "graph():\n    %1x : [#users=0] = placeholder[target=x]\n    return None",
    GRAFT_PARSE_ERROR_SYNTAX, 2, 5, "expected a node name after '%'" },
  { "graph():\n    %x : [#users=0] = call_function[target=f.g](args = (%,), kwargs = {})\n    "
    "return None",
    GRAFT_PARSE_ERROR_SYNTAX, 2, 57, "expected a node name after '%'" },
  { "graph():\n    %x : [#users=0] = call_function[target=f.g](args = (1), kwargs = {})\n    "
    "return None",
    GRAFT_PARSE_ERROR_SYNTAX, 2, 56, "a one-element tuple needs a trailing comma" },
  { "graph():\n    %x : [#users=0] = call_function[target=f.g](args = [1], kwargs = {})\n    "
    "return None",
    GRAFT_PARSE_ERROR_SYNTAX, 2, 56, "expected the args tuple" },
  { "graph():\n    %x : [#users=0] = call_function[target=](args = (), kwargs = {})\n    return "
    "None",
    GRAFT_PARSE_ERROR_SYNTAX, 2, 44, "the target is empty" },
  { "graph():\n    %x : [#users=0] = placeholder[target=x](default=(x,))\n    return None",
    GRAFT_PARSE_ERROR_GRAPH, 2, 53, "a placeholder default cannot refer to a node" },
  { "graph():\n    return 'abc", GRAFT_PARSE_ERROR_SYNTAX, 2, 12, "unterminated string" },
  { "graph():\n    return 'a\\qb'", GRAFT_PARSE_ERROR_SYNTAX, 2, 14,
    "unknown escape sequence in a string" },
  { "graph():\n    return os.path", GRAFT_PARSE_ERROR_SYNTAX, 2, 12,
    "a dotted name in a value must be a torch constant such as torch.float32" },
  { "graph():\n    return print(1)", GRAFT_PARSE_ERROR_SYNTAX, 2, 12,
    "only slice(...) and device(...) calls can appear in a value" },
  { "graph():\n    return 1 2", GRAFT_PARSE_ERROR_SYNTAX, 2, 14,
    "unexpected text after the value" },
  { "graph():\n    return", GRAFT_PARSE_ERROR_SYNTAX, 2, 11,
    "unexpected end of line; expected a value" },
  { "graph():\n    return 1.2.3", GRAFT_PARSE_ERROR_SYNTAX, 2, 12, "malformed number" },
};

static void
test_errors (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (error_cases); i++)
    {
      const ErrorCase *c = &error_cases[i];
      g_autoptr (GError) error = NULL;
      g_autoptr (GraftGraph) graph = parse_text (c->text, &error);
      const char *filename = NULL;
      guint       line = 0, column = 0;

      g_test_message ("case %u: %s", i, c->message);
      g_assert_null (graph);
      g_assert_error (error, GRAFT_PARSE_ERROR, (gint) c->code);
      g_assert_cmpstr (error->message, ==, c->message);
      g_assert_true (graft_error_get_location (error, &filename, &line, &column, NULL, NULL));
      g_assert_cmpstr (filename, ==, "test.txt");
      g_assert_cmpuint (line, ==, c->line);
      g_assert_cmpuint (column, ==, c->column);
    }
}

static void
test_error_format (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = parse_text (error_cases[0].text, &error);
  g_autofree char *line = NULL;

  g_assert_null (graph);
  line = graft_error_format (error, NULL);
  g_assert_cmpstr (line, ==, "test.txt:3:64: error: %foo is not defined");
}

static void
test_deep_nesting (void)
{
  const guint depth = 100000;
  g_autoptr (GString) text =
      g_string_new ("graph():\n    %x : [#users=0] = call_function[target=f.g](args = ");
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  guint line = 0, column = 0;

  for (guint i = 0; i < depth; i++)
    g_string_append_c (text, '(');
  graph = parse_text (text->str, &error);
  g_assert_null (graph);
  g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_LIMIT);
  g_assert_true (graft_error_get_location (error, NULL, &line, &column, NULL, NULL));
  g_assert_cmpuint (line, ==, 2);
  /* The first `(` is at column 56; the one past the limit fails. */
  g_assert_cmpuint (column, ==, 56 + GRAFT_MAX_PARSE_DEPTH);
  g_clear_error (&error);

  /* The same in a return line, in a list, and in a slice. */
  g_string_assign (text, "graph():\n    return ");
  for (guint i = 0; i < depth; i++)
    g_string_append (text, i % 3 == 0 ? "[" : i % 3 == 1 ? "slice("
                                                         : "{'a': ");
  g_clear_pointer (&graph, graft_graph_free);
  graph = parse_text (text->str, &error);
  g_assert_null (graph);
  g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_LIMIT);
  g_clear_error (&error);

  /* Nesting up to the limit reads and prints back. */
  g_string_assign (text, "graph():\n    return ");
  for (guint i = 0; i < GRAFT_MAX_PARSE_DEPTH; i++)
    g_string_append_c (text, '[');
  for (guint i = 0; i < GRAFT_MAX_PARSE_DEPTH; i++)
    g_string_append_c (text, ']');
  g_clear_pointer (&graph, graft_graph_free);
  graph = parse_round_trip (text->str);
}

/* Parses @len bytes of @text: it either reads or fails with a located
 * error, and never crashes. */
static void
parse_anything (const char *text,
                gsize       len)
{
  g_autoptr (GraftSource) source = graft_source_new ("junk", text, len);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph =
      graft_listing_parse (source, graft_dialect_get (GRAFT_TORCH_1_13), &error);

  if (graph == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (graft_error_get_location (error, NULL, NULL, NULL, NULL, NULL));
    }
  else
    {
      g_autofree char *printed = graft_listing_print (graph);
      g_autofree char *code = graft_codegen_python (graph);

      g_assert_no_error (error);
      g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFAULT, &error));
      g_assert_no_error (error);
    }
}

static void
test_hostile (void)
{
  static const char alphabet[] =
      "graph():%[]{}(),: =#users_target.-+0123456789ej'\"\\\n\t\r\x00\xc3\xa9\xff"
      "placeholdercall_functionreturnNoneslice";
  g_autofree char *path =
      g_test_build_filename (G_TEST_DIST, "data", "listing", "wrapped.txt", NULL);
  g_autofree char *sample = NULL;
  gsize            sample_len = 0;
  g_autoptr (GError) error = NULL;
  GRand *rand = g_rand_new_with_seed (20240601);

  parse_anything ("\0\0\0", 3);
  parse_anything ("graph():\n\0", 10);
  parse_anything ("graph():\n    return '\0'", 23);
  parse_anything ("graph():\n    %x : [#users=0] = placeholder[target=x\0]\n    return None", 68);

  /* Every prefix of a real listing. */
  g_file_get_contents (path, &sample, &sample_len, &error);
  g_assert_no_error (error);
  for (gsize len = 0; len <= sample_len; len++)
    parse_anything (sample, len);

  /* Random mutations of it, and random text. */
  for (guint round = 0; round < 3000; round++)
    {
      g_autofree char *copy = g_memdup2 (sample, sample_len);
      guint            flips = g_rand_int_range (rand, 1, 8);

      for (guint k = 0; k < flips; k++)
        copy[g_rand_int_range (rand, 0, (gint32) sample_len)] =
            alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)];
      parse_anything (copy, sample_len);
    }
  for (guint round = 0; round < 2000; round++)
    {
      char  buf[256];
      guint len = g_rand_int_range (rand, 0, sizeof buf);

      memcpy (buf, "graph():\n    ", 13);
      for (guint k = 13; k < len; k++)
        buf[k] = alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)];
      parse_anything (buf, MAX (len, 13));
    }
  g_rand_free (rand);
}

static void
test_large (void)
{
  const guint n = 100000;
  g_autoptr (GString) text = g_string_new ("graph():\n    %x : [#users=1] = placeholder[target=x]");
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *printed = NULL;
  g_autoptr (GTimer) timer = NULL;
  double seconds;

  g_string_append (text, "\n    %add : [#users=1] = call_function[target=operator.add](args = (%x, "
                         "1), kwargs = {})");
  for (guint i = 1; i < n; i++)
    g_string_append_printf (text,
                            "\n    %%add_%u : [#users=1] = call_function[target=operator.add]"
                            "(args = (%%add%s%.0u, 1), kwargs = {scale: 0.5})",
                            i,
                            i > 1 ? "_" : "",
                            i - 1);
  g_string_append_printf (text, "\n    return add_%u", n - 1);
  source = graft_source_new ("large.txt", text->str, text->len);

  timer = g_timer_new ();
  graph = graft_listing_parse (source, graft_dialect_get (GRAFT_TORCH_1_13), &error);
  seconds = g_timer_elapsed (timer, NULL);
  g_assert_no_error (error);
  g_test_message ("parsed %u nodes in %.3f s", n + 2, seconds);
  /* Linear: a fraction of a second in an optimised build.  Not asserted:
   * under sanitizers on a loaded machine it took 6.3 s, and a quadratic
   * reader would run into the suite's timeout instead. */
  g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, n + 2);
  printed = graft_listing_print (graph);
  g_assert_cmpstr (printed, ==, text->str);
}

/* An int beyond 64 bits reads as the tracer keeps one: its digits. */
static void
test_big_int (void)
{
  const char *text = "graph():\n"
                     "    %x : [#users=1] = placeholder[target=x]\n"
                     "    %mul : [#users=1] = call_function[target=operator.mul](args = (%x, "
                     "-99999999999999999999), kwargs = {})\n"
                     "    return mul";
  g_autoptr (GraftGraph) graph = parse_ok (text);
  GraftNode       *mul = graft_graph_find_node (graph, "mul");
  const GraftArg  *args = graft_node_get_args (mul);
  g_autofree char *printed = graft_listing_print (graph);

  g_assert_cmpint (args->items[1].kind, ==, GRAFT_ARG_SYMBOL);
  g_assert_cmpstr (args->items[1].s, ==, "-99999999999999999999");
  g_assert_cmpstr (printed, ==, text);
}

/* The one rule for ints (graft-value-reader.c), which the DOT reader
 * follows too: an int is written as Python's str(int) writes it, of any
 * size; other digits are not an int (a bare word is then the str that
 * `_format_arg` printed unquoted, torch's code quotes it). */
static void
test_int_rule (void)
{
  const char *text =
      "graph():\n"
      "    %x : [#users=1] = placeholder[target=x]\n"
      "    %f : [#users=1] = call_function[target=f.g](args = (%x, 9223372036854775807, "
      "9223372036854775808, -9223372036854775808, -9223372036854775809, 0, 007, -0, "
      "00999999999999999999999), kwargs = {})\n"
      "    return (f, 18446744073709551616, [-18446744073709551616])";
  g_autoptr (GraftGraph) graph = parse_round_trip (text);
  const GraftArg *ret = &graft_node_get_args (graft_graph_find_node (graph, "output"))->items[0];
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) bad = NULL;

  assert_arg (graph, "f", 1, GRAFT_ARG_INT, "9223372036854775807");
  assert_arg (graph, "f", 2, GRAFT_ARG_SYMBOL, "9223372036854775808");
  assert_arg (graph, "f", 3, GRAFT_ARG_INT, "-9223372036854775808");
  assert_arg (graph, "f", 4, GRAFT_ARG_SYMBOL, "-9223372036854775809");
  assert_arg (graph, "f", 5, GRAFT_ARG_INT, "0");
  assert_arg (graph, "f", 6, GRAFT_ARG_STR, "'007'");
  assert_arg (graph, "f", 7, GRAFT_ARG_STR, "'-0'");
  assert_arg (graph, "f", 8, GRAFT_ARG_STR, "'00999999999999999999999'");
  /* In repr (the return line) the same: beyond 64 bits a symbol. */
  g_assert_cmpint (ret->items[1].kind, ==, GRAFT_ARG_SYMBOL);
  g_assert_cmpstr (ret->items[1].s, ==, "18446744073709551616");
  g_assert_cmpint (ret->items[2].items[0].kind, ==, GRAFT_ARG_SYMBOL);

  /* A repr has quotes for strs, so other digits are no value at all. */
  bad = parse_text ("graph():\n    return (007,)", &error);
  g_assert_null (bad);
  g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_SYNTAX);
  g_assert_cmpstr (error->message, ==, "malformed number");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  graft_gv_enable_dot_reader ();

  /* A subprocess (types-unbalanced's) runs one test: the data cases
   * would be left to LeakSanitizer when it exits. */
  if (!g_test_subprocess ())
    add_data_cases ();
  g_test_add_func ("/core/listing/detect", test_detect);
  g_test_add_func ("/core/listing/values", test_values);
  g_test_add_func ("/core/listing/lossy", test_lossy);
  g_test_add_func ("/core/listing/num-users", test_num_users);
  g_test_add_func ("/core/listing/types", test_types);
  g_test_add_func ("/core/listing/types-unbalanced", test_types_unbalanced);
  g_test_add_func ("/core/listing/forward-reference", test_forward_reference);
  g_test_add_func ("/core/listing/names", test_names);
  g_test_add_func ("/core/listing/wrapped", test_wrapped);
  g_test_add_func ("/core/listing/inner-newlines", test_inner_newlines);
  g_test_add_func ("/core/listing/layout-tolerance", test_layout_tolerance);
  g_test_add_func ("/core/listing/errors", test_errors);
  g_test_add_func ("/core/listing/big-int", test_big_int);
  g_test_add_func ("/core/listing/int-rule", test_int_rule);
  g_test_add_func ("/core/listing/error-format", test_error_format);
  g_test_add_func ("/core/listing/deep-nesting", test_deep_nesting);
  g_test_add_func ("/core/listing/hostile", test_hostile);
  g_test_add_func ("/core/listing/large", test_large);

  return g_test_run ();
}
