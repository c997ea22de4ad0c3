/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-readable.c: the readable form (`gm.print_readable(print_output=False)`)
 * of graphs whose nodes carry a program's metadata, and the two texts
 * graft-meta.c derives from metadata, against torch 2.6.
 *
 * tests/data/readable holds graphs that tests/tools/gen-readable-cases.py
 * built by hand in torch 2.6 (torch.fx.Graph, `node.meta["val"]` and
 * `node.meta["stack_trace"]`): each as torch lists it (NAME.graph), with the
 * metadata of its nodes (NAME.meta), and what torch prints of it: gm.code
 * (NAME.torch26.code), the readable form (NAME.torch26.readable) and the
 * readable form with strides and devices (NAME.torch26.readable-sd).  Each
 * graph is read back from its listing, given its metadata, and must print
 * the same, byte for byte after stripping.  stack-traces.txt holds stack
 * traces and what torch's `_parse_stack_trace (...).get_summary_str ()`
 * makes of each, for graft_stack_trace_summarize().  Every expected text
 * comes from torch (GOLDEN_FROM_ORACLE): rerun the script, never edit them.
 */
#include "config.h"

#include "golden.h"
#include "graft.h"

#include <string.h>

static char *
data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "readable", name, NULL);
}

/* A field of the generator's files: `~` is None, anything else C-escaped. */
static char *
field_dup (const char *text)
{
  return strcmp (text, "~") == 0 ? NULL : g_strcompress (text);
}

static GraftValueKind
kind_from_string (const char *text)
{
  if (strcmp (text, "tensor") == 0)
    return GRAFT_VALUE_TENSOR;
  if (strcmp (text, "symbol") == 0)
    return GRAFT_VALUE_SYMBOL;
  if (strcmp (text, "other") == 0)
    return GRAFT_VALUE_OTHER;
  g_assert_cmpstr (text, ==, "unknown");
  return GRAFT_VALUE_UNKNOWN;
}

/* Gives the nodes of @graph the metadata of @path (NAME.meta): per line
 * the node's name, the value kind, dtype, shape, stride, device, symbol
 * and stack trace, tab-separated; or the name, `type` and the type of an
 * output (listings do not show it). */
static void
load_meta (GraftGraph *graph,
           const char *path)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GError) error = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  if (text == NULL)
    return;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) fields = NULL;
      g_autofree char *dtype = NULL, *shape = NULL, *stride = NULL, *device = NULL;
      g_autofree char *symbol = NULL, *trace = NULL;
      GraftNodeMeta    meta = { 0 };
      GraftNode       *node;

      if (lines[i][0] == '\0')
        continue;
      fields = g_strsplit (lines[i], "\t", -1);
      node = graft_graph_find_node (graph, fields[0]);
      g_assert_nonnull (node);
      if (g_strv_length (fields) == 3 && strcmp (fields[1], "type") == 0)
        {
          g_autofree char *type = field_dup (fields[2]);

          graft_node_set_type_annotation (node, type);
          continue;
        }
      g_assert_cmpuint (g_strv_length (fields), ==, 8);
      meta.kind = kind_from_string (fields[1]);
      meta.dtype = dtype = field_dup (fields[2]);
      meta.shape = shape = field_dup (fields[3]);
      meta.stride = stride = field_dup (fields[4]);
      meta.device = device = field_dup (fields[5]);
      meta.symbol = symbol = field_dup (fields[6]);
      meta.stack_trace = trace = field_dup (fields[7]);
      graft_node_set_meta (node, &meta);
    }
}

/* A graph without an output node, which the listing reader refuses: its
 * placeholders (`    %x : [num_users=0] = placeholder[target=x]`) made
 * one by one. */
static GraftGraph *
graph_of_placeholders (const char *listing)
{
  g_auto (GStrv) lines = g_strsplit (listing, "\n", -1);
  GraftGraph *graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_2_6));

  g_assert_true (g_str_has_prefix (lines[0], "graph():"));
  for (guint i = 1; lines[i] != NULL; i++)
    {
      const char      *line = g_strstrip (lines[i]);
      const char      *open = strstr (line, "placeholder[target=");
      g_autofree char *target = NULL;

      if (*line == '\0')
        continue;
      g_assert_nonnull (open);
      open += strlen ("placeholder[target=");
      target = g_strndup (open, strcspn (open, "]"));
      graft_graph_create_node_named (graph, GRAFT_OP_PLACEHOLDER, target, NULL, NULL, target, NULL);
    }
  return graph;
}

/* One graph of tests/data/readable in one form: `code`, `readable` or
 * `readable-sd`. */
static void
test_graph (const GoldenCase *gcase)
{
  const char      *variant = golden_case_get_variant (gcase);
  g_autofree char *meta_name = g_strconcat (golden_case_get_stem (gcase), ".meta", NULL);
  g_autofree char *meta_path = g_build_filename (golden_case_get_input_dir (gcase), meta_name,
                                                 NULL);
  g_autofree char *suffix = g_strconcat ("torch26.", variant, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GString) text = NULL;

  source = graft_input_read_file (golden_case_get_input (gcase), &error);
  g_assert_no_error (error);
  if (strstr (graft_source_get_text (source), "    return ") == NULL)
    graph = graph_of_placeholders (graft_source_get_text (source));
  else
    graph = graft_listing_parse (source, graft_dialect_get (GRAFT_TORCH_2_6), &error);
  g_assert_no_error (error);
  if (graph == NULL)
    return;
  load_meta (graph, meta_path);
  if (strcmp (variant, "code") == 0)
    text = graft_codegen_python_string (graph);
  else if (strcmp (variant, "readable") == 0)
    text = graft_codegen_readable_string (graph, GRAFT_READABLE_DEFAULT);
  else
    text = graft_codegen_readable_string (graph, GRAFT_READABLE_STRIDE | GRAFT_READABLE_DEVICE);
  golden_case_check (gcase, suffix, text->str, (gssize) text->len);
}

/* graft_stack_trace_summarize() on each trace of stack-traces.txt. */
static void
test_summarize (void)
{
  g_autofree char *path = data_path ("stack-traces.txt");
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GError) error = NULL;
  guint n = 0;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) fields = NULL;
      g_autofree char *trace = NULL, *want = NULL;
      g_autoptr (GString) got = g_string_new ("# ");
      gboolean found;

      if (lines[i][0] == '\0')
        continue;
      fields = g_strsplit (lines[i], "\t", -1);
      g_assert_cmpuint (g_strv_length (fields), ==, 2);
      trace = field_dup (fields[0]);
      want = field_dup (fields[1]);
      found = graft_stack_trace_summarize (trace, got);
      g_test_message ("trace %s", fields[0]);
      g_assert_cmpint (found, ==, want != NULL);
      /* What is there is only appended to. */
      g_assert_true (g_str_has_prefix (got->str, "# "));
      g_assert_cmpstr (got->str + 2, ==, want != NULL ? want : "");
      n++;
    }
  g_assert_cmpuint (n, >=, 30);
  {
    g_autoptr (GString) got = g_string_new (NULL);

    g_assert_false (graft_stack_trace_summarize (NULL, got));
    g_assert_cmpuint (got->len, ==, 0);
  }
}

/* graft_node_meta_dup_annotation(): torch's forms, as the readable files
 * of tests/data/readable show them (`f32[2, 4]`, `f32[2, 4][4, 1]meta`,
 * `Sym(2*s0)`), and none without a tensor or a symbol. */
static void
test_annotation (void)
{
  GraftNodeMeta tensor = {
    .kind = GRAFT_VALUE_TENSOR,
    .dtype = "f32",
    .shape = "[2, 4]",
    .stride = "[4, 1]",
    .device = "meta",
  };
  GraftNodeMeta scalar = { .kind = GRAFT_VALUE_TENSOR, .dtype = "i64", .shape = "[]" };
  GraftNodeMeta symbol = { .kind = GRAFT_VALUE_SYMBOL, .symbol = "2*s0" };
  GraftNodeMeta other = { .kind = GRAFT_VALUE_OTHER, .symbol = "tuple" };
  GraftNodeMeta unknown = { .kind = GRAFT_VALUE_UNKNOWN, .stack_trace = "x" };
  struct
  {
    const GraftNodeMeta *meta;
    gboolean             stride, device;
    const char          *want;
  } cases[] = {
    { &tensor, FALSE, FALSE, "f32[2, 4]" },
    { &tensor, TRUE, FALSE, "f32[2, 4][4, 1]" },
    { &tensor, FALSE, TRUE, "f32[2, 4]meta" },
    { &tensor, TRUE, TRUE, "f32[2, 4][4, 1]meta" },
    { &scalar, FALSE, FALSE, "i64[]" },
    { &symbol, TRUE, TRUE, "Sym(2*s0)" },
    { &other, FALSE, FALSE, NULL },
    { &unknown, FALSE, FALSE, NULL },
    { NULL, FALSE, FALSE, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got =
          graft_node_meta_dup_annotation (cases[i].meta, cases[i].stride, cases[i].device);

      g_assert_cmpstr (got, ==, cases[i].want);
    }
}

/* The class is named after the graph's module (`GraphModule` when none
 * is set); a node's metadata survives its graph's other edits. */
static void
test_module_name (void)
{
  const char *listing = "graph():\n"
                        "    %x : [num_users=1] = placeholder[target=x]\n"
                        "    %relu : [num_users=1] = call_function[target=torch.relu](args = "
                        "(%x,), kwargs = {})\n"
                        "    return relu\n";
  g_autoptr (GraftSource) source = graft_source_new ("m.txt", listing, -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph =
      graft_listing_parse (source, graft_dialect_get (GRAFT_TORCH_2_6), &error);
  g_autofree char *unnamed = NULL;
  g_autofree char *named = NULL;

  g_assert_no_error (error);
  unnamed = graft_codegen_readable (graph);
  g_assert_true (g_str_has_prefix (unnamed, "class GraphModule(torch.nn.Module):\n"
                                            "    def forward(self, x):\n"
                                            "        # No stacktrace found for following nodes\n"
                                            "        relu = torch.relu(x);  x = None\n"));
  /* As torch's, the text ends with the body's last, empty, line. */
  g_assert_true (g_str_has_suffix (unnamed, "        return relu\n        "));
  graft_graph_set_module_name (graph, "Net");
  named = graft_codegen_readable (graph);
  g_assert_true (g_str_has_prefix (named, "class Net(torch.nn.Module):\n"));
  g_assert_cmpstr (named + strlen ("class Net"), ==, unnamed + strlen ("class GraphModule"));
}

int
main (int    argc,
      char **argv)
{
  static const char *const inputs[] = { "*.graph", NULL };
  static const char *const variants[] = { "code", "readable", "readable-sd", NULL };
  g_autofree char         *dir = NULL;

  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  dir = g_test_build_filename (G_TEST_DIST, "data", "readable", NULL);
  golden_suite_add (&(GoldenSuite){
      .test_path = "/readable/graphs",
      .input_dir = dir,
      .inputs = inputs,
      .variants = variants,
      .origin = GOLDEN_FROM_ORACLE,
      .compare = GOLDEN_STRIPPED,
      .func = test_graph,
  });
  g_test_add_func ("/readable/summarize", test_summarize);
  g_test_add_func ("/readable/annotation", test_annotation);
  g_test_add_func ("/readable/module-name", test_module_name);
  return g_test_run ();
}
