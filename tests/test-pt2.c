/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-pt2.c: the .pt2 reader.  Every archive of tests/data/programs must
 * read into the graph torch 2.6's torch.export.load holds: its code and
 * listing equal the oracle's NAME.torch26.code and NAME.torch26.graph, the
 * annotation of every node (dtype, shape, `Sym(...)`) and every source
 * comment appear in NAME.torch26.readable as torch prints them, and the
 * signature and range constraints print as in NAME.ep.txt (torch's
 * `print(ep)`).  Every archive of tests/data/program-errors must give the
 * diagnostic in its NAME.errors (Graft is the reference for those:
 * `GRAFT_TEST_REGENERATE=1` rewrites them for review, golden.h).  Small
 * programs made here check the places of errors (line and column in the
 * JSON member), the floats Python writes as NaN and Infinity, the limits,
 * folders in the archive, the module stack, and the printing of symbolic
 * sizes (pairs from sympy under torch 2.6).
 */
#include "config.h"

#include "golden.h"
#include "graft-pt2-private.h"
#include "graft-sympy-private.h"
#include "pt2-zip.h"
#include "graft-source-private.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *
data_dir (const char *name)
{
  static GHashTable *dirs;
  char              *path;

  if (dirs == NULL)
    dirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  path = g_hash_table_lookup (dirs, name);
  if (path == NULL)
    {
      path = g_test_build_filename (G_TEST_DIST, "data", name, NULL);
      g_hash_table_insert (dirs, g_strdup (name), path);
    }
  return path;
}

/* A file's bytes, named as the CLI names it when run in its folder. */
static GraftSource *
load_source (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *base = g_path_get_basename (path);
  gsize            length = 0;

  g_file_get_contents (path, &text, &length, &error);
  g_assert_no_error (error);
  return graft_source_new (base, text != NULL ? text : "", (gssize) length);
}

static char *
read_text (const char *dir,
           const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  char            *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return text;
}

/* ---- The annotations of print_readable ---- */

/* NAME -> annotation ("" for none) of each definition in a readable
 * text: the forward's parameters and the lines `NAME[: "T"] = ...`. */
static GHashTable *
readable_annotations (const char *text)
{
  GHashTable *map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *p = lines[i];
      const char *def = strstr (p, "def forward(self");

      if (def != NULL)
        {
          p = def + strlen ("def forward(self");
          while (*p == ',' || *p == ' ')
            {
              const char *name;
              gsize       len;

              while (*p == ',' || *p == ' ')
                p++;
              name = p;
              while (g_ascii_isalnum (*p) || *p == '_')
                p++;
              len = p - name;
              if (len == 0)
                break;
              if (g_str_has_prefix (p, ": \""))
                {
                  const char *close = strchr (p + 3, '"');

                  g_hash_table_insert (map, g_strndup (name, len),
                                       g_strndup (p + 3, close - p - 3));
                  p = close + 1;
                }
              else
                g_hash_table_insert (map, g_strndup (name, len), g_strdup (""));
            }
          continue;
        }
      while (*p == ' ')
        p++;
      {
        const char *name = p;

        while (g_ascii_isalnum (*p) || *p == '_')
          p++;
        if (p == name || g_ascii_isdigit (*name))
          continue;
        if (g_str_has_prefix (p, ": \""))
          {
            const char *close = strchr (p + 3, '"');

            if (close != NULL && g_str_has_prefix (close, "\" = "))
              g_hash_table_insert (map, g_strndup (name, p - name),
                                   g_strndup (p + 3, close - p - 3));
          }
        else if (g_str_has_prefix (p, " = "))
          g_hash_table_insert (map, g_strndup (name, p - name), g_strdup (""));
      }
    }
  return map;
}

static void
check_readable (GraftGraph *graph,
                const char *readable)
{
  g_autoptr (GHashTable) annotations = readable_annotations (readable);
  guint checked = 0;

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      const char          *want = g_hash_table_lookup (annotations, graft_node_get_name (node));
      const GraftNodeMeta *meta = graft_node_get_meta (node);
      g_autofree char     *got = graft_node_meta_dup_annotation (meta, FALSE, FALSE);
      g_autoptr (GString) summary = g_string_new ("# ");

      if (graft_node_get_op (node) == GRAFT_OP_OUTPUT)
        continue;
      if (want != NULL)
        {
          g_assert_cmpstr (got != NULL ? got : "", ==, want);
          checked++;
        }
      if (meta != NULL && meta->stack_trace != NULL &&
          graft_stack_trace_summarize (meta->stack_trace, summary))
        g_assert_nonnull (strstr (readable, summary->str));
    }
  g_assert_cmpuint (checked, >, 0);
}

/* ---- print(ep)'s signature ---- */

static void
append_str (GString    *out,
            const char *s)
{
  if (s == NULL)
    g_string_append (out, "None");
  else
    graft_append_str_repr (out, s, strlen (s));
}

static void
append_argument (GString    *out,
                 const char *class_name,
                 const char *name,
                 const char *value)
{
  g_string_append_printf (out, "%s(name=", class_name != NULL ? class_name : "TensorArgument");
  append_str (out, name);
  if (g_strcmp0 (class_name, "ConstantArgument") == 0)
    g_string_append_printf (out, ", value=%s", value);
  else if (g_strcmp0 (class_name, "CustomObjArgument") == 0)
    {
      g_string_append (out, ", class_fqn=");
      append_str (out, value);
    }
  g_string_append_c (out, ')');
}

/* `ExportGraphSignature(input_specs=[...], output_specs=[...])`. */
static char *
signature_text (GraftProgram *program)
{
  GString *out = g_string_new ("ExportGraphSignature(input_specs=[");

  for (guint i = 0; i < graft_program_get_n_inputs (program); i++)
    {
      const GraftInputSpec *spec = graft_program_get_input (program, i);

      if (i > 0)
        g_string_append (out, ", ");
      g_string_append_printf (out, "InputSpec(kind=<InputKind.%s: %d>, arg=",
                              graft_input_spec_kind_to_string (spec->kind), (int) spec->kind + 1);
      append_argument (out, spec->argument, spec->name, spec->value);
      g_string_append (out, ", target=");
      append_str (out, spec->target);
      g_string_append_printf (out, ", persistent=%s)",
                              spec->persistent < 0 ? "None" : spec->persistent ? "True"
                                                                               : "False");
    }
  g_string_append (out, "], output_specs=[");
  for (guint i = 0; i < graft_program_get_n_outputs (program); i++)
    {
      const GraftOutputSpec *spec = graft_program_get_output (program, i);

      if (i > 0)
        g_string_append (out, ", ");
      g_string_append_printf (out, "OutputSpec(kind=<OutputKind.%s: %d>, arg=",
                              graft_output_spec_kind_to_string (spec->kind), (int) spec->kind + 1);
      append_argument (out, spec->argument, spec->name, spec->value);
      g_string_append (out, ", target=");
      append_str (out, spec->target);
      g_string_append_c (out, ')');
    }
  g_string_append (out, "])");
  return g_string_free (out, FALSE);
}

static void
check_ep_text (GraftGraph *graph,
               const char *ep_text)
{
  GraftProgram    *program = graft_graph_get_program (graph);
  g_autofree char *signature = NULL;
  g_autofree char *want_signature = NULL;
  g_autofree char *want_ranges = NULL;
  const char      *sig = strstr (ep_text, "\nGraph signature: ");
  const char      *ranges = strstr (ep_text, "\nRange constraints: ");

  g_assert_nonnull (program);
  g_assert_nonnull (sig);
  g_assert_nonnull (ranges);
  sig += strlen ("\nGraph signature: ");
  want_signature = g_strndup (sig, strchr (sig, '\n') - sig);
  signature = signature_text (program);
  g_assert_cmpstr (signature, ==, want_signature);
  ranges += strlen ("\nRange constraints: ");
  want_ranges = g_strndup (ranges, strcspn (ranges, "\n"));
  g_assert_cmpstr (graft_program_get_range_constraints (program), ==, want_ranges);
  g_assert_cmpstr (graft_graph_get_module_name (graph), ==, "GraphModule");
}

static void
test_program (const GoldenCase *gcase)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = load_source (golden_case_get_input (gcase));
  g_autoptr (GraftGraph) graph = NULL;
  g_autofree char *code = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *readable_name = NULL;
  g_autofree char *readable = NULL;
  g_autofree char *ep_name = NULL;
  g_autofree char *ep_text = NULL;

  g_assert_cmpint (graft_input_detect (source), ==, GRAFT_INPUT_ARCHIVE);
  graph = graft_input_load_graph (source, golden_case_get_dialect (gcase), NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (graph);
  if (graph == NULL)
    return;
  g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE, &error));
  g_assert_no_error (error);
  code = graft_codegen_python (graph);
  listing = graft_listing_print (graph);
  golden_case_check (gcase, "torch26.code", code, -1);
  golden_case_check (gcase, "torch26.graph", listing, -1);

  readable_name = g_strconcat (golden_case_get_stem (gcase), ".torch26.readable", NULL);
  readable = read_text (golden_case_get_input_dir (gcase), readable_name);
  g_assert_nonnull (readable);
  check_readable (graph, readable);
  ep_name = g_strconcat (golden_case_get_stem (gcase), ".ep.txt", NULL);
  ep_text = read_text (golden_case_get_input_dir (gcase), ep_name);
  g_assert_nonnull (ep_text);
  check_ep_text (graph, ep_text);
}

static void
test_program_error (const GoldenCase *gcase)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = load_source (golden_case_get_input (gcase));
  g_autoptr (GraftGraph) graph =
      graft_input_load_graph (source, golden_case_get_dialect (gcase), NULL, &error);
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

/* ---- Programs made here ---- */

/* A program of one relu, laid out over lines so that places have lines
 * and columns; @edit replaces one text of it (or nothing when NULL). */
static const char minimal_json[] =
    "{\"graph_module\": {\"graph\": {\n"
    "  \"inputs\": [{\"as_tensor\": {\"name\": \"x\"}}],\n"
    "  \"outputs\": [{\"as_tensor\": {\"name\": \"relu\"}}],\n"
    "  \"nodes\": [\n"
    "    {\"target\": \"torch.ops.aten.relu.default\",\n"
    "     \"inputs\": [{\"name\": \"self\", \"arg\": {\"as_tensor\": {\"name\": \"x\"}}}],\n"
    "     \"outputs\": [{\"as_tensor\": {\"name\": \"relu\"}}],\n"
    "     \"metadata\": {\"nn_module_stack\": \"L__self__,,m.M;L__self___layers_slice(1, None, "
    "None)_0,layers.slice(1, None, None).0,torch.nn.modules.linear.Linear\"}}],\n"
    "  \"tensor_values\": {\n"
    "    \"x\": {\"dtype\": 7, \"sizes\": [{\"as_int\": 2}], \"requires_grad\": false,\n"
    "          \"device\": {\"type\": \"cpu\"}, \"strides\": [{\"as_int\": 1}],\n"
    "          \"storage_offset\": {\"as_int\": 0}, \"layout\": 7},\n"
    "    \"relu\": {\"dtype\": 7, \"sizes\": [{\"as_int\": 2}], \"requires_grad\": false,\n"
    "             \"device\": {\"type\": \"cuda\", \"index\": 1}, \"strides\": [{\"as_int\": 1}],\n"
    "             \"storage_offset\": {\"as_int\": 0}, \"layout\": 7}},\n"
    "  \"sym_int_values\": {}, \"sym_bool_values\": {}},\n"
    " \"signature\": {\"input_specs\": [{\"user_input\": {\"arg\": {\"as_tensor\": {\"name\": "
    "\"x\"}}}}],\n"
    "               \"output_specs\": [{\"user_output\": {\"arg\": {\"as_tensor\": {\"name\": "
    "\"relu\"}}}}]},\n"
    " \"module_call_graph\": []},\n"
    " \"range_constraints\": {},\n"
    " \"schema_version\": {\"major\": 8, \"minor\": 2}}\n";

static char *
edited (const char *from,
        const char *to)
{
  const char *at;

  if (from == NULL)
    return g_strdup (minimal_json);
  at = strstr (minimal_json, from);
  g_assert_nonnull (at);
  return g_strdup_printf ("%.*s%s%s", (int) (at - minimal_json), minimal_json, to,
                          at + strlen (from));
}

/* Reads @bytes as the archive `m.pt2`. */
static GraftGraph *
read_bytes (GBytes  *bytes,
            GError **error)
{
  gsize       len = 0;
  const char *data = g_bytes_get_data (bytes, &len);
  g_autoptr (GraftSource) source = graft_source_new ("m.pt2", data, (gssize) len);

  return graft_pt2_read (source, graft_dialect_get_default (), error);
}

static GraftGraph *
read_json (const char *json,
           GError    **error)
{
  g_autoptr (GBytes) bytes = pt2_zip_program (json, strlen (json));

  return read_bytes (bytes, error);
}

static void
assert_error (GraftGraph   *graph,
              const GError *error,
              const char   *want)
{
  g_autofree char *line = NULL;

  g_assert_null (graph);
  g_assert_nonnull (error);
  if (error == NULL)
    return;
  line = graft_error_format (error, NULL);
  g_assert_cmpstr (line, ==, want);
}

static void
test_minimal (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = read_json (minimal_json, &error);
  g_autofree char     *code = NULL;
  const GraftNodeMeta *meta;

  g_assert_no_error (error);
  g_assert_nonnull (graph);
  code = graft_codegen_python (graph);
  g_assert_cmpstr (code, ==,
                   "\n\n\ndef forward(self, x):\n"
                   "    relu = torch.ops.aten.relu.default(x);  x = None\n"
                   "    return (relu,)\n    ");
  meta = graft_node_get_meta (graft_graph_find_node (graph, "relu"));
  g_assert_nonnull (meta);
  g_assert_cmpint (meta->kind, ==, GRAFT_VALUE_TENSOR);
  g_assert_cmpstr (meta->dtype, ==, "f32");
  g_assert_cmpstr (meta->shape, ==, "[2]");
  g_assert_cmpstr (meta->stride, ==, "[1]");
  g_assert_cmpstr (meta->device, ==, "cuda:1");
  /* metadata_split drops what is in parentheses, then splits at commas. */
  g_assert_cmpuint (meta->n_modules, ==, 2);
  g_assert_cmpstr (meta->modules[0].key, ==, "L__self__");
  g_assert_cmpstr (meta->modules[0].path, ==, "");
  g_assert_cmpstr (meta->modules[0].type, ==, "m.M");
  g_assert_cmpstr (meta->modules[1].key, ==, "L__self___layers_slice_0");
  g_assert_cmpstr (meta->modules[1].path, ==, "layers.slice.0");
  g_assert_cmpstr (meta->modules[1].type, ==, "torch.nn.modules.linear.Linear");
  meta = graft_node_get_meta (graft_graph_find_node (graph, "x"));
  g_assert_cmpstr (meta->device, ==, "cpu");
  g_assert_cmpuint (meta->n_modules, ==, 0);
}

/* A string of a node's metadata is the graph's own copy of its text
 * (graft_graph_intern()), whichever way the reader got it there. */
static void
assert_interned (GraftGraph *graph,
                 const char *text)
{
  if (text != NULL)
    g_assert_true (text == graft_graph_intern (graph, text));
}

/* Every string of every node's metadata lives in the graph, one copy per
 * text, also after the JSON tree is gone. */
static void
test_meta_interned (void)
{
  static const char *const files[] = { "resnet18.pt2", "dynamic_batch.pt2", "multi_output.pt2" };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *path = g_build_filename (data_dir ("programs"), files[i], NULL);
      g_autoptr (GraftSource) source = load_source (path);
      g_autoptr (GraftGraph) graph =
          graft_pt2_read (source, graft_dialect_get_default (), &error);
      guint n_meta = 0, n_frames = 0;

      g_assert_no_error (error);
      for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
           node = graft_node_get_next (node))
        {
          const GraftNodeMeta *meta = graft_node_get_meta (node);

          if (meta == NULL)
            continue;
          n_meta++;
          assert_interned (graph, meta->dtype);
          assert_interned (graph, meta->shape);
          assert_interned (graph, meta->stride);
          assert_interned (graph, meta->device);
          assert_interned (graph, meta->symbol);
          assert_interned (graph, meta->stack_trace);
          assert_interned (graph, meta->source_fn_stack);
          assert_interned (graph, meta->torch_fn);
          for (guint f = 0; f < meta->n_modules; f++, n_frames++)
            {
              assert_interned (graph, meta->modules[f].key);
              assert_interned (graph, meta->modules[f].path);
              assert_interned (graph, meta->modules[f].type);
            }
        }
      g_assert_cmpuint (n_meta, ==, graft_graph_get_n_nodes (graph));
      g_assert_cmpuint (n_frames, >, 0);
    }
}

/* A placeholder's candidate is its name snake-cased with `__` cut off
 * (graft_name_for_target()); torch's namespace makes a name of it, which
 * stays taken in the graph when the node has another.  The reader takes
 * the name as it is when snake-casing would leave it so: the names here
 * are the ones it would not, and one it would. */
static void
test_placeholder_candidates (void)
{
  static const char *const names[] = {
    "Xa",
    "aB",
    "__x__",
    "__",
    "___",
    "x_Y_1",
    "\303\251B",
    "p_weight",
    "_x_",
    /* Eight bytes at a time, then the rest. */
    "abcdefgZ",
    "Abcdefgh",
    "abcdefg@",
    "abcdefg[",
    "p_weight_Upper_x",
    "long_name_\303\251_x",
    "p_long_name_with_no_upper_case_1",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_auto (GStrv) pieces = g_strsplit (minimal_json, "\"x\"", -1);
      g_autofree char *quoted = g_strdup_printf ("\"%s\"", names[i]);
      g_autofree char *json = g_strjoinv (quoted, pieces);
      g_autoptr (GError) error = NULL;
      g_autoptr (GraftGraph) graph = read_json (json, &error);
      g_autofree char *candidate = NULL;
      GraftNamespace  *fresh = graft_namespace_new (graft_dialect_get_default ());
      const char      *made;

      g_assert_no_error (error);
      g_assert_nonnull (graft_graph_find_node (graph, names[i]));
      candidate =
          graft_name_for_target (GRAFT_OP_PLACEHOLDER, names[i], graft_dialect_get_default ());
      made = graft_namespace_create_name (fresh, candidate, GRAFT_NAME_DEFAULT);
      g_assert_true (graft_namespace_contains (graft_graph_get_namespace (graph), made));
      /* What else the graph's namespace holds: the three nodes' names and what
       * torch's made of them. */
      g_assert_cmpuint (graft_namespace_get_size (graft_graph_get_namespace (graph)), ==,
                        strcmp (made, names[i]) == 0 ? 3 : 4);
      graft_namespace_free (fresh);
    }
}

/* Errors in the JSON member, each at its value. */
static void
test_error_places (void)
{
  static const struct
  {
    const char *from;
    const char *to;
    const char *want;
  } cases[] = {
    { "{\"name\": \"x\"}}}],\n     \"outputs\"", "{\"name\": \"y\"}}}],\n     \"outputs\"",
      "m.pt2:serialized_exported_program.json:6:64: error: undefined value 'y'" },
    { "\"major\": 8", "\"major\": 9",
      "m.pt2:serialized_exported_program.json:21:30: error: serialized schema version "
      "SchemaVersion(major=9, minor=2) does not match our current schema version (8, 2)" },
    { "\"major\": 8, \"minor\": 2", "\"major\": 0, \"minor\": 0", NULL },
    { "\"nodes\": [", "\"nodez\": [",
      "m.pt2:serialized_exported_program.json:1:28: error: missing key 'nodes'" },
    { "\"target\": \"torch.ops.aten.relu.default\"", "\"target\": 5",
      "m.pt2:serialized_exported_program.json:5:16: error: 'target' must be a string, not a "
      "number" },
    { "torch.ops.aten.relu.default", "torch.ops.aten.relu.nope",
      "m.pt2:serialized_exported_program.json:5:16: error: torch.ops.aten.relu.nope is not an "
      "operator of torch 2.6's aten schema table" },
    { "torch.ops.aten.relu.default", "torch.ops.higher_order.cond",
      "m.pt2:serialized_exported_program.json:5:16: error: higher-order operators such as "
      "torch.ops.higher_order.cond are not supported" },
    { "\"dtype\": 7, \"sizes\": [{\"as_int\": 2}], \"requires_grad\": false,\n          ",
      "\"dtype\": 0, \"sizes\": [{\"as_int\": 2}], \"requires_grad\": false,\n          ",
      "m.pt2:serialized_exported_program.json:10:20: error: unknown dtype 0" },
    { "\"inputs\": [{\"name\": \"self\"", "\"inputs\": [{\"name\": \"other\"",
      "m.pt2:serialized_exported_program.json:6:16: error: missing argument 'self' of "
      "torch.ops.aten.relu.default" },
    { "\"outputs\": [{\"as_tensor\": {\"name\": \"relu\"}}],\n     \"metadata\"",
      "\"outputs\": [{\"as_tensor\": {\"name\": \"x\"}}],\n     \"metadata\"",
      "m.pt2:serialized_exported_program.json:7:41: error: the value 'x' is defined twice" },
    { "  \"nodes\": [\n", "  \"nodes\": [,\n",
      "m.pt2:serialized_exported_program.json:4:13: error: expecting value" },
    { "{\"as_int\": 2}], \"requires_grad\": false,\n          \"device\"",
      "{\"as_int\": 99999999999999999999}], \"requires_grad\": false,\n          \"device\"",
      "m.pt2:serialized_exported_program.json:10:44: error: an integer beyond 64 bits" },
    { "\"relu\"}}}}]},", "\"re\001lu\"}}}}]},",
      "m.pt2:serialized_exported_program.json:18:83: error: invalid control character in a "
      "string" },
    { "\"type\": \"cpu\"", "\"type\": \"cpu\", \"type\": 7",
      "m.pt2:serialized_exported_program.json:11:45: error: 'type' must be a string, not a "
      "number" },
    { "\"x\"}}}}],\n", "\"x\"}}}}], \"x\": [[[[]]]],\n", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *json = edited (cases[i].from, cases[i].to);
      g_autoptr (GraftGraph) graph = read_json (json, &error);

      g_test_message ("case %u", i);
      if (cases[i].want == NULL)
        {
          g_assert_no_error (error);
          g_assert_nonnull (graph);
        }
      else
        assert_error (graph, error, cases[i].want);
    }
}

/* Symbolic sizes, and the range constraints of the expressions the graph
 * uses (torch keeps every sub-expression's str(), `4*s4` too). */
static void
test_symbolic (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *sized = edited (
      "\"x\": {\"dtype\": 7, \"sizes\": [{\"as_int\": 2}]",
      "\"x\": {\"dtype\": 7, \"sizes\": [{\"as_expr\": {\"expr_str\": \"Mul(Integer(4), "
      "Symbol('s4', positive=True, integer=True))\", \"hint\": {\"as_int\": 8}}}]");
  g_autofree char *json = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  const GraftNodeMeta *meta;

  g_assert_nonnull (strstr (sized, "Mul(Integer(4)"));
  {
    char            *ranges = strstr (sized, "\"range_constraints\": {}");
    g_autofree char *head = NULL;

    g_assert_nonnull (ranges);
    head = g_strndup (sized, ranges - sized);
    json = g_strconcat (head,
                        "\"range_constraints\": {\"s0\": {\"min_val\": 2, \"max_val\": 32}, "
                        "\"4*s4\": {\"min_val\": 8, \"max_val\": 256}, \"s4\": {\"min_val\": 2, "
                        "\"max_val\": null}}",
                        ranges + strlen ("\"range_constraints\": {}"), NULL);
  }
  graph = read_json (json, &error);
  g_assert_no_error (error);
  g_assert_nonnull (graph);
  if (graph == NULL)
    return;
  meta = graft_node_get_meta (graft_graph_find_node (graph, "x"));
  g_assert_cmpstr (meta->shape, ==, "[4*s4]");
  g_assert_cmpstr (graft_program_get_range_constraints (graft_graph_get_program (graph)), ==,
                   "{4*s4: VR[8, 256], s4: VR[2, int_oo]}");
}

/* JSON syntax, placed and worded as Python's json does it (the pairs
 * were checked with Python 3.13's json.loads). */
static void
test_syntax (void)
{
  static const struct
  {
    const char *json;
    const char *want;
  } cases[] = {
    { "{\"a\": [1, 2,]}", "1:12: error: illegal trailing comma before end of array" },
    { "{\"a\": 1,}", "1:8: error: illegal trailing comma before end of object" },
    { "{\"a\": 1} x", "1:10: error: extra data" },
    { "{\"a\": \"abc", "1:7: error: unterminated string" },
    /* Cut where the eight-byte steps over a long string end. */
    { "{\"a\": \"xxxxxxxxxxxxxxxxxxxxxxx", "1:7: error: unterminated string" },
    { "{\"a\" 1}", "1:6: error: expecting ':' delimiter" },
    { "{\"a\": \"\\q\"}", "1:8: error: invalid \\escape" },
    { "{\"a\": \"\\u12G4\"}", "1:9: error: invalid \\uXXXX escape" },
    { "{\"a\": 01}", "1:8: error: expecting ',' delimiter" },
    { "{1: 2}", "1:2: error: expecting property name enclosed in double quotes" },
    { "   ", "1:4: error: expecting value" },
    { "{\"a\": tru}", "1:7: error: expecting value" },
    { "{\"a\": 1.}", "1:8: error: expecting ',' delimiter" },
    { "\n\n  {\"x\": 1,\n \"y\": [}", "4:8: error: expecting value" },
    { "{\"a\": \"\xc3\xa9\xc3\xa9\", x}", "1:13: error: expecting property name enclosed in "
                                          "double quotes" },
    { "{\"a\": \"\xff\"}", "1:8: error: the JSON text is not UTF-8" },
    /* What yajl takes and Python's json does not: \f and \v as blanks,
     * UTF-8 longer than needed, surrogates, beyond U+10FFFF, integers
     * beyond 64 bits (the float tokens below, the other way round). */
    { "{\"a\": \f1}", "1:7: error: expecting value" },
    { "{\"a\":\v[]}", "1:6: error: expecting value" },
    { "\f{\"a\": 1}", "1:1: error: expecting value" },
    { "{\"a\": 1}\v", "1:9: error: extra data" },
    { "-Infinity\f", "1:10: error: extra data" },
    { "{\"a\": \"\xc0\x80\"}", "1:8: error: the JSON text is not UTF-8" },
    { "{\"a\": \"\xed\xa0\x80\"}", "1:8: error: the JSON text is not UTF-8" },
    { "{\"a\": \"\xf4\x90\x80\x80\"}", "1:8: error: the JSON text is not UTF-8" },
    { "{\"a\": 9223372036854775808}", "1:7: error: an integer beyond 64 bits" },
    { "{\"a\": -9223372036854775809}", "1:7: error: an integer beyond 64 bits" },
    /* The float tokens stand only where a value may. */
    { "{\"a\": [NaN, 1 NaN]}", "1:15: error: expecting ',' delimiter" },
    { "{NaN: 1}", "1:2: error: expecting property name enclosed in double quotes" },
    { "{\"a\" NaN}", "1:6: error: expecting ':' delimiter" },
    { "{\"a\": [1,, NaN]}", "1:10: error: expecting value" },
    { "{\"a\": NaNx}", "1:10: error: expecting ',' delimiter" },
    { "{\"a\": -NaN}", "1:7: error: expecting value" },
    { "{\"a\": [Infinity,]}", "1:16: error: illegal trailing comma before end of array" },
    { "NaN NaN", "1:5: error: extra data" },
    { "{\"a\": [NaN, [[{\"b\": -Infinity}]], Infinity]} x", "1:46: error: extra data" },
    { "[NaN]", "1:1: error: the program must be an object, not a list" },
    /* Strings end in place in the text while the tree is built: a text
     * refused after them is checked as it came. */
    { "{\"a\": \"x\", \"b\": [\"y\", \"z\"], \"c\" 1}", "1:33: error: expecting ':' delimiter" },
    { "{\"a\": \"x\", \"b\": [NaN, \"y\", \"\"] x}", "1:32: error: expecting ',' delimiter" },
    { "{\"a\": \"\", \"b\": \"y\\\"\", \"c\": \"z\" }}", "1:33: error: extra data" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GraftGraph) graph = read_json (cases[i].json, &error);
      g_autofree char *want =
          g_strconcat ("m.pt2:serialized_exported_program.json:", cases[i].want, NULL);

      assert_error (graph, error, want);
    }
}

/* The code of the minimal program with its relu made a leaky_relu whose
 * negative_slope is the argument @arg (JSON). */
static char *
leaky_relu_code (const char *arg)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *to = g_strdup_printf (
      "torch.ops.aten.leaky_relu.default\",\n     \"inputs\": [{\"name\": \"self\", \"arg\": "
      "{\"as_tensor\": {\"name\": \"x\"}}}, {\"name\": \"negative_slope\", \"arg\": %s}",
      arg);
  g_autofree char *json = edited ("torch.ops.aten.relu.default\",\n     \"inputs\": [{\"name\": "
                                  "\"self\", \"arg\": {\"as_tensor\": {\"name\": \"x\"}}}",
                                  to);
  g_autoptr (GraftGraph) graph = read_json (json, &error);

  g_assert_no_error (error);
  g_assert_nonnull (graph);
  return graph != NULL ? graft_codegen_python (graph) : g_strdup ("");
}

/* Python's json writes floats as NaN and Infinity; a string that only
 * looks like what the reader makes of them stays a string. */
static void
test_floats (void)
{
  static const struct
  {
    const char *arg;
    const char *code;
  } cases[] = {
    { "{\"as_float\": -Infinity}", "torch.ops.aten.leaky_relu.default(x, negative_slope = -inf)" },
    { "{\"as_float\": Infinity}", "torch.ops.aten.leaky_relu.default(x, negative_slope = inf)" },
    { "{\"as_float\": NaN}", "torch.ops.aten.leaky_relu.default(x, negative_slope = nan)" },
    { "{\"as_float\": 1e-05}", "torch.ops.aten.leaky_relu.default(x, negative_slope = 1e-05)" },
    { "{\"as_float\": 10000000000.0}",
      "torch.ops.aten.leaky_relu.default(x, negative_slope = 10000000000.0)" },
    { "{\"as_floats\": [NaN, -Infinity, 2.5, Infinity]}",
      "torch.ops.aten.leaky_relu.default(x, negative_slope = [nan, -inf, 2.5, inf])" },
    { "{\"as_float\": \"\\u0002\\u0002\\u0002\\u0002\\u0002\\u0002\"}",
      "torch.ops.aten.leaky_relu.default(x, negative_slope = '\\x02\\x02\\x02\\x02\\x02\\x02')" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *code = leaky_relu_code (cases[i].arg);

      g_assert_nonnull (strstr (code, cases[i].code));
    }
}

/* Strings as json-glib read them: escapes decoded, a UTF-16 pair as its
 * character, any other surrogate as U+FFFD (yajl reads them otherwise). */
static void
test_strings (void)
{
  g_autofree char *code = leaky_relu_code (
      "{\"as_string\": \"\\ud800x\\udc00\\ud83d\\ude00\\ud83d\\u0041\\u00e9\\n\\/\\\"\"}");

  g_assert_nonnull (strstr (code, "negative_slope = '\xef\xbf\xbdx\xef\xbf\xbd\xf0\x9f\x98\x80"
                                  "\xef\xbf\xbd"
                                  "A\xc3\xa9\\n/\"'"));
}

static void
test_limits (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) deep = g_string_new ("{\"a\": ");
  g_autoptr (GraftGraph) graph = NULL;

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  graph = read_json (deep->str, &error);
  assert_error (graph, error,
                "m.pt2:serialized_exported_program.json:1:518: error: the JSON text nests more "
                "than 512 levels deep");
  g_clear_error (&error);

  /* The depth is counted on after a float token. */
  g_string_assign (deep, "{\"a\": [NaN, ");
  for (guint i = 0; i < 520; i++)
    g_string_append_c (deep, '[');
  graph = read_json (deep->str, &error);
  assert_error (graph, error,
                "m.pt2:serialized_exported_program.json:1:523: error: the JSON text nests more "
                "than 512 levels deep");
}

/* ---- Names found by place ---- */

/* The program's size: small, then large enough that its misses read more
 * names than the reader reads in order before it makes a table. */
static guint BY_PLACE_INPUTS = 40;
static guint BY_PLACE_NODES = 60;

/* The name of value @i of the program below: inputs, then nodes. */
static char *
by_place_name (guint i)
{
  return i < BY_PLACE_INPUTS ? g_strdup_printf ("x%u", i)
                             : g_strdup_printf ("add_%u", i - BY_PLACE_INPUTS);
}

/* The values node @k adds: one input scattered over all of them, and a
 * node just before it or far back. */
static guint
by_place_self (guint k)
{
  return (k * 17) % BY_PLACE_INPUTS;
}

static guint
by_place_other (guint k)
{
  if (k == 0)
    return 0;
  return BY_PLACE_INPUTS + (k % 2 == 0 ? k - 1 : k / 3);
}

/* A program whose arguments name values in no order the reader guesses
 * (its table finds them), with `tensor_values` in reverse order when
 * @reversed, value @i of shape [i + 1]; input x3 is also a symbolic value,
 * which wins.  @undefined: node 50's other argument names no value. */
static char *
by_place_json (gboolean reversed,
               gboolean undefined)
{
  GString *json = g_string_new ("{\"graph_module\": {\"graph\": {\"inputs\": [");
  guint    n = BY_PLACE_INPUTS + BY_PLACE_NODES;

  for (guint i = 0; i < BY_PLACE_INPUTS; i++)
    g_string_append_printf (json, "%s{\"as_tensor\": {\"name\": \"x%u\"}}", i > 0 ? ", " : "", i);
  g_string_append_printf (json, "], \"outputs\": [{\"as_tensor\": {\"name\": \"add_%u\"}}], "
                                "\"nodes\": [",
                          BY_PLACE_NODES - 1);
  for (guint k = 0; k < BY_PLACE_NODES; k++)
    {
      g_autofree char *self = by_place_name (by_place_self (k));
      g_autofree char *other =
          undefined && k == 50 ? g_strdup ("nope") : by_place_name (by_place_other (k));

      g_string_append_printf (json,
                              "%s{\"target\": \"torch.ops.aten.add.Tensor\", \"inputs\": ["
                              "{\"name\": \"self\", \"arg\": {\"as_tensor\": {\"name\": \"%s\"}}}, "
                              "{\"name\": \"other\", \"arg\": {\"as_tensor\": {\"name\": "
                              "\"%s\"}}}], "
                              "\"outputs\": [{\"as_tensor\": {\"name\": \"add_%u\"}}], "
                              "\"metadata\": {\"stack_trace\": \"  File \\\"m.py\\\", line %u, "
                              "in forward\\n\", \"torch_fn\": \"add_%u;method.add\", "
                              "\"nn_module_stack\": \"L__self__,,m.M;L__self___b%u,b%u,m.B\"}}",
                              k > 0 ? ", " : "", self, other, k, k % 7, k, k % 13, k % 13);
    }
  g_string_append (json, "], \"tensor_values\": {");
  for (guint j = 0; j < n; j++)
    {
      guint            i = reversed ? n - 1 - j : j;
      g_autofree char *name = by_place_name (i);

      g_string_append_printf (json,
                              "%s\"%s\": {\"dtype\": 7, \"sizes\": [{\"as_int\": %u}], "
                              "\"requires_grad\": false, \"device\": {\"type\": \"cpu\"}, "
                              "\"strides\": [{\"as_int\": 1}], \"storage_offset\": {\"as_int\": "
                              "0}, "
                              "\"layout\": 7}",
                              j > 0 ? ", " : "", name, i + 1);
    }
  g_string_append (json, "}, \"sym_int_values\": {\"x3\": {\"as_expr\": {\"expr_str\": "
                         "\"Symbol('s0', positive=True, integer=True)\", \"hint\": "
                         "{\"as_int\": 2}}}}, \"sym_bool_values\": {}}, "
                         "\"signature\": {\"input_specs\": [");
  for (guint i = 0; i < BY_PLACE_INPUTS; i++)
    g_string_append_printf (json,
                            "%s{\"user_input\": {\"arg\": {\"as_tensor\": {\"name\": \"x%u\"}}}}",
                            i > 0 ? ", " : "", i);
  g_string_append_printf (json,
                          "], \"output_specs\": [{\"user_output\": {\"arg\": {\"as_tensor\": "
                          "{\"name\": \"add_%u\"}}}}]}, \"module_call_graph\": []}, "
                          "\"range_constraints\": {}, "
                          "\"schema_version\": {\"major\": 8, \"minor\": 2}}",
                          BY_PLACE_NODES - 1);
  return g_string_free (json, FALSE);
}

/* A graph input whose input spec names another value (the reader takes
 * the spec's interned name for the placeholder's target only when the
 * two are the same): its target is still its own name, the graph's copy,
 * and the signature keeps the spec's. */
static void
test_input_spec_renamed (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *json = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  GString      *changed;
  const char   *specs;
  GraftNode    *node;
  GraftProgram *program;

  BY_PLACE_INPUTS = 40;
  BY_PLACE_NODES = 60;
  json = by_place_json (FALSE, FALSE);
  specs = strstr (json, "\"input_specs\"");
  g_assert_nonnull (specs);
  changed = g_string_new (specs);
  /* x2's spec names y2; x4's names x40, longer, and x1's x, shorter. */
  g_assert_cmpuint (g_string_replace (changed, "{\"name\": \"x2\"}", "{\"name\": \"y2\"}", 1), ==,
                    1);
  g_assert_cmpuint (g_string_replace (changed, "{\"name\": \"x4\"}", "{\"name\": \"x40\"}", 1),
                    ==, 1);
  g_assert_cmpuint (g_string_replace (changed, "{\"name\": \"x1\"}", "{\"name\": \"x\"}", 1), ==,
                    1);
  g_string_prepend_len (changed, json, specs - json);
  graph = read_json (changed->str, &error);
  g_string_free (changed, TRUE);
  g_assert_no_error (error);
  g_assert_nonnull (graph);
  program = graft_graph_get_program (graph);
  g_assert_nonnull (program);
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *name = g_strdup_printf ("x%u", i);
      const char      *spec_names[] = { "x0", "x", "y2", "x3", "x40" };

      node = graft_graph_find_node (graph, name);
      g_assert_nonnull (node);
      g_assert_cmpint (graft_node_get_op (node), ==, GRAFT_OP_PLACEHOLDER);
      g_assert_cmpstr (graft_node_get_target (node), ==, name);
      g_assert_true (graft_node_get_target (node) == graft_graph_intern (graph, name));
      g_assert_cmpstr (graft_program_get_input (program, i)->name, ==, spec_names[i]);
      g_assert_true (graft_program_get_input (program, i)->name ==
                     graft_graph_intern (graph, spec_names[i]));
    }
}

/* Values and arguments are found by name whatever their order: what the
 * reader finds by place, and what it must look up. */
static void
test_names_by_place (void)
{
  for (guint variant = 0; variant < 4; variant++)
    {
      BY_PLACE_INPUTS = variant < 2 ? 40 : 2000;
      BY_PLACE_NODES = variant < 2 ? 60 : 4000;
      g_autoptr (GError) error = NULL;
      g_autofree char *json = by_place_json (variant % 2 == 1, FALSE);
      g_autoptr (GraftGraph) graph = read_json (json, &error);

      g_test_message ("variant %u", variant);
      g_assert_no_error (error);
      g_assert_nonnull (graph);
      if (graph == NULL)
        return;
      for (guint i = 0; i < BY_PLACE_INPUTS + BY_PLACE_NODES; i++)
        {
          g_autofree char     *name = by_place_name (i);
          g_autofree char     *shape = g_strdup_printf ("[%u]", i + 1);
          GraftNode           *node = graft_graph_find_node (graph, name);
          const GraftNodeMeta *meta;

          g_assert_nonnull (node);
          meta = graft_node_get_meta (node);
          g_assert_nonnull (meta);
          if (i == 3)
            {
              g_assert_cmpint (meta->kind, ==, GRAFT_VALUE_SYMBOL);
              g_assert_cmpstr (meta->symbol, ==, "s0");
              continue;
            }
          g_assert_cmpint (meta->kind, ==, GRAFT_VALUE_TENSOR);
          g_assert_cmpstr (meta->shape, ==, shape);
          if (i >= BY_PLACE_INPUTS)
            {
              guint            k = i - BY_PLACE_INPUTS;
              const GraftArg  *args = graft_node_get_args (node);
              g_autofree char *self = by_place_name (by_place_self (k));
              g_autofree char *other = by_place_name (by_place_other (k));

              g_autofree char *torch_fn = g_strdup_printf ("add_%u;method.add", k);
              g_autofree char *path = g_strdup_printf ("b%u", k % 13);

              /* Texts met again after many others: the reader's cache of
               * texts forgets, the graph's copy is the same. */
              g_assert_cmpstr (meta->torch_fn, ==, torch_fn);
              g_assert_true (meta->torch_fn == graft_graph_intern (graph, torch_fn));
              g_assert_true (meta->stack_trace == graft_graph_intern (graph, meta->stack_trace));
              g_assert_cmpuint (meta->n_modules, ==, 2);
              g_assert_cmpstr (meta->modules[1].path, ==, path);
              g_assert_true (meta->modules[1].path == graft_graph_intern (graph, path));
              g_assert_cmpuint (args->n, ==, 2);
              g_assert_cmpstr (graft_node_get_name (args->items[0].node), ==, self);
              g_assert_cmpstr (graft_node_get_name (args->items[1].node), ==, other);
            }
        }
    }
  BY_PLACE_INPUTS = 40;
  BY_PLACE_NODES = 60;
  {
    /* A key repeated in a large object: its last value, in its first
     * place, as Python's json keeps it. */
    g_autoptr (GError) error = NULL;
    g_autofree char *json = by_place_json (FALSE, FALSE);
    char            *end = strstr (json, "}, \"sym_int_values\"");
    g_autofree char *repeated = NULL;
    g_autoptr (GraftGraph) graph = NULL;

    g_assert_nonnull (end);
    repeated = g_strdup_printf (
        "%.*s, \"x5\": {\"dtype\": 7, \"sizes\": [{\"as_int\": 999}], \"requires_grad\": "
        "false, \"device\": {\"type\": \"cpu\"}, \"strides\": [{\"as_int\": 1}], "
        "\"storage_offset\": {\"as_int\": 0}, \"layout\": 7}%s",
        (int) (end - json), json, end);
    graph = read_json (repeated, &error);
    g_assert_no_error (error);
    g_assert_nonnull (graph);
    if (graph != NULL)
      {
        g_assert_cmpstr (graft_node_get_meta (graft_graph_find_node (graph, "x5"))->shape, ==,
                         "[999]");
        g_assert_cmpstr (graft_node_get_meta (graft_graph_find_node (graph, "x6"))->shape, ==,
                         "[7]");
      }
  }
  {
    g_autoptr (GError) error = NULL;
    g_autofree char *json = by_place_json (TRUE, TRUE);
    g_autoptr (GraftGraph) graph = read_json (json, &error);

    g_assert_null (graph);
    g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_GRAPH);
    g_assert_true (g_str_has_suffix (error->message, "undefined value 'nope'"));
  }
}

/* An archive of @json whose member has the byte at @at (from the
 * member's end when negative) changed to @to after its CRC was taken. */
static GraftGraph *
read_json_changed (const char *json,
                   gssize      at,
                   char        to,
                   GError    **error)
{
  g_autoptr (GBytes) program = pt2_zip_program (json, strlen (json));
  gsize            len = 0;
  const char      *data = g_bytes_get_data (program, &len);
  g_autofree char *copy = g_memdup2 (data, len);
  const char      *member = NULL;
  g_autoptr (GBytes) bytes = NULL;

  /* The member is stored: its text stands in the archive as it is. */
  for (gsize k = 0; member == NULL && k + strlen (json) <= len; k++)
    if (memcmp (copy + k, json, strlen (json)) == 0)
      member = copy + k;
  g_assert_nonnull (member);
  copy[(member - copy) + (at >= 0 ? at : (gssize) strlen (json) + at)] = to;
  bytes = g_bytes_new (copy, len);
  return read_bytes (bytes, error);
}

/* A member whose bytes are not those its CRC was taken of is refused
 * whatever the bytes say, as when libzip checked it before the JSON was
 * read: the check runs beside the parse (graft-pt2-archive.c). */
static void
test_crc (void)
{
  static const char want[] =
      "m.pt2:1:1: error: cannot read the member serialized_exported_program.json: CRC error";
  g_autoptr (GString) large = g_string_new (minimal_json);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = NULL;

  /* A blank for another: the same program, still refused. */
  g_assert_true (minimal_json[strlen ("{\"graph_module\":")] == ' ');
  graph = read_json_changed (minimal_json, strlen ("{\"graph_module\":"), '\n', &error);
  assert_error (graph, error, want);
  g_clear_error (&error);
  /* A syntax error too: the archive's error comes first. */
  graph = read_json_changed (minimal_json, 0, '[', &error);
  assert_error (graph, error, want);
  g_clear_error (&error);
  /* Four megabytes of blanks at the end, the last but one changed. */
  for (guint i = 0; i < 4 * 1024 * 1024; i++)
    g_string_append_c (large, ' ');
  graph = read_json_changed (large->str, -2, '\t', &error);
  assert_error (graph, error, want);
  g_clear_error (&error);
  graph = read_json_changed (large->str, -2, ' ', &error);
  g_assert_no_error (error);
  g_assert_nonnull (graph);
}

/* The archive itself: errors at m.pt2:1:1; members in one folder. */
static void
test_archive (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GBytes) program = pt2_zip_program (minimal_json, strlen (minimal_json));
  gsize       len = 0;
  const char *data = g_bytes_get_data (program, &len);

  {
    g_autoptr (GBytes) cut = g_bytes_new (data, len / 2);

    graph = read_bytes (cut, &error);
    assert_error (graph, error,
                  "m.pt2:1:1: error: not a zip archive (truncated?): it has no zip directory");
    g_clear_error (&error);
  }
  {
    const char *names[] = { "version" };
    const char *texts[] = { "8.2" };
    gsize       lengths[] = { 3 };
    g_autoptr (GBytes) bytes = pt2_zip_make (1, names, texts, lengths);

    graph = read_bytes (bytes, &error);
    assert_error (graph, error,
                  "m.pt2:1:1: error: the archive has no member serialized_exported_program.json: "
                  "not a torch.export program");
    g_clear_error (&error);
  }
  {
    const char *names[] = { "serialized_exported_program.json", "version" };
    const char *texts[] = { minimal_json, "9.0" };
    gsize       lengths[] = { strlen (minimal_json), 3 };
    g_autoptr (GBytes) bytes = pt2_zip_make (2, names, texts, lengths);

    graph = read_bytes (bytes, &error);
    assert_error (graph, error,
                  "m.pt2:version:1:1: error: serialized version ['9', '0'] does not match our "
                  "current schema version (8, 2)");
    g_clear_error (&error);
  }
  {
    const char *names[] = { "prog/serialized_exported_program.json", "prog/version" };
    const char *texts[] = { minimal_json, "8.2" };
    gsize       lengths[] = { strlen (minimal_json), 3 };
    g_autoptr (GBytes) bytes = pt2_zip_make (2, names, texts, lengths);
    g_autofree char *broken = edited ("\"major\": 8", "\"major\": 9");
    const char      *broken_texts[] = { broken, "8.2" };
    gsize            broken_lengths[] = { strlen (broken), 3 };
    g_autoptr (GBytes) broken_bytes = pt2_zip_make (2, names, broken_texts, broken_lengths);
    g_autofree char *line = NULL;

    graph = read_bytes (bytes, &error);
    g_assert_no_error (error);
    g_assert_nonnull (graph);
    g_clear_pointer (&graph, graft_graph_free);
    graph = read_bytes (broken_bytes, &error);
    g_assert_null (graph);
    g_assert_nonnull (error);
    line = graft_error_format (error, NULL);
    g_assert_true (g_str_has_prefix (line, "m.pt2:prog/"));
  }
}

/* Programs exist only in torch 2.x. */
static void
test_old_torch (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = pt2_zip_program (minimal_json, strlen (minimal_json));
  gsize       len = 0;
  const char *data = g_bytes_get_data (bytes, &len);
  g_autoptr (GraftSource) source = graft_source_new ("m.pt2", data, (gssize) len);
  g_autoptr (GraftGraph) graph =
      graft_input_load_graph (source, graft_dialect_get (GRAFT_TORCH_1_13), NULL, &error);

  assert_error (graph, error,
                "m.pt2:1:1: error: a torch.export program needs torch 2.6 (--torch 2.6)");
}

/* srepr -> str, as sympy prints under torch 2.6 (tests/tools: the pairs
 * were printed by sympy itself). */
static void
test_sympy (void)
{
  static const struct
  {
    const char *srepr;
    const char *str;
  } pairs[] = {
    { "Symbol('s0', positive=True, integer=True)", "s0" },
    { "Mul(Integer(2), Symbol('s0', positive=True, integer=True))", "2*s0" },
    { "Add(Symbol('s0', positive=True, integer=True), Integer(1))", "s0 + 1" },
    { "Add(Symbol('s0', positive=True, integer=True), Integer(-1))", "s0 - 1" },
    { "Add(Integer(1), Mul(Integer(-1), Symbol('s0', positive=True, integer=True)))", "1 - s0" },
    { "Add(Integer(10), Mul(Integer(-1), Symbol('s0', positive=True, integer=True)))", "10 - s0" },
    { "Mul(Symbol('s0', positive=True, integer=True), Symbol('s1', positive=True, integer=True))",
      "s0*s1" },
    { "Mul(Integer(4), Symbol('s0', positive=True, integer=True), Symbol('s1', positive=True, "
      "integer=True))",
      "4*s0*s1" },
    { "Add(Symbol('s0', positive=True, integer=True), Symbol('s1', positive=True, integer=True))",
      "s0 + s1" },
    { "Add(Mul(Integer(2), Symbol('s0', positive=True, integer=True)), Symbol('s1', positive=True, "
      "integer=True))",
      "2*s0 + s1" },
    { "Pow(Symbol('s0', positive=True, integer=True), Integer(2))", "s0**2" },
    { "Add(Pow(Symbol('s0', positive=True, integer=True), Integer(2)), Symbol('s0', positive=True, "
      "integer=True), Integer(1))",
      "s0**2 + s0 + 1" },
    { "Add(Mul(Symbol('s0', positive=True, integer=True), Symbol('s1', positive=True, "
      "integer=True)), Symbol('s0', positive=True, integer=True))",
      "s0*s1 + s0" },
    { "Add(Mul(Symbol('s0', positive=True, integer=True), Symbol('s1', positive=True, "
      "integer=True)), Symbol('s1', positive=True, integer=True))",
      "s0*s1 + s1" },
    { "FloorDiv(Symbol('s0', positive=True, integer=True), Integer(2))", "(s0//2)" },
    { "Add(FloorDiv(Add(Symbol('s0', positive=True, integer=True), Integer(-1)), Integer(2)), "
      "Integer(1))",
      "(((s0 - 1)//2)) + 1" },
    { "FloorDiv(Add(Symbol('s0', positive=True, integer=True), Mul(Integer(2), Symbol('s1', "
      "positive=True, integer=True))), Integer(4))",
      "((s0 + 2*s1)//4)" },
    { "PythonMod(Symbol('s0', positive=True, integer=True), Integer(2))", "PythonMod(s0, 2)" },
    { "Mod(Symbol('s0', positive=True, integer=True), Integer(2))", "Mod(s0, 2)" },
    { "Symbol('s0', positive=True, integer=True)", "s0" },
    { "Min(Symbol('s0', positive=True, integer=True), Symbol('s1', positive=True, integer=True))",
      "Min(s0, s1)" },
    { "Mul(Integer(-1), Symbol('s0', positive=True, integer=True))", "-s0" },
    { "Mul(Integer(-1), Integer(2), Symbol('s0', positive=True, integer=True))", "-2*s0" },
    { "Mul(Rational(1, 2), Symbol('s0', positive=True, integer=True))", "s0/2" },
    { "Mul(Rational(3, 2), Symbol('s0', positive=True, integer=True))", "3*s0/2" },
    { "Add(Mul(Integer(3), Symbol('s0', positive=True, integer=True)), Mul(Integer(2), "
      "Symbol('s1', positive=True, integer=True)), Integer(7))",
      "3*s0 + 2*s1 + 7" },
    { "Add(Symbol('s0', positive=True, integer=True), Symbol('s1', positive=True, integer=True), "
      "Symbol('s2', positive=True, integer=True))",
      "s0 + s1 + s2" },
    { "Add(Mul(Integer(2), Symbol('s0', positive=True, integer=True)), Integer(-2))", "2*s0 - 2" },
    { "Symbol('u0', integer=True)", "u0" },
    { "Add(Symbol('s0', positive=True, integer=True), Symbol('u0', integer=True))", "s0 + u0" },
    { "Equality(Symbol('s0', positive=True, integer=True), Integer(2))", "Eq(s0, 2)" },
    { "Unequality(Symbol('s0', positive=True, integer=True), Integer(3))", "Ne(s0, 3)" },
    { "StrictGreaterThan(Symbol('s0', positive=True, integer=True), Integer(2))", "s0 > 2" },
    { "GreaterThan(Symbol('s0', positive=True, integer=True), Integer(2))", "s0 >= 2" },
    { "StrictLessThan(Symbol('s0', positive=True, integer=True), Symbol('s1', positive=True, "
      "integer=True))",
      "s0 < s1" },
    { "Integer(3)", "3" },
    { "Mul(Symbol('s0', positive=True, integer=True), Add(Symbol('s1', positive=True, "
      "integer=True), Integer(1)))",
      "s0*(s1 + 1)" },
    { "Mul(Add(Symbol('s0', positive=True, integer=True), Integer(1)), Add(Symbol('s1', "
      "positive=True, integer=True), Integer(2)))",
      "(s0 + 1)*(s1 + 2)" },
    { "Pow(Add(Symbol('s0', positive=True, integer=True), Integer(1)), Integer(2))",
      "(s0 + 1)**2" },
    { "CeilToInt(IntTrueDiv(Symbol('s0', positive=True, integer=True), Integer(2)))",
      "CeilToInt(IntTrueDiv(s0, 2))" },
    { "Mul(Symbol('s0', positive=True, integer=True), FloorDiv(Symbol('s1', positive=True, "
      "integer=True), Integer(2)))",
      "s0*((s1//2))" },
    { "Mul(Integer(2), FloorDiv(Symbol('s0', positive=True, integer=True), Integer(2)))",
      "2*((s0//2))" },
    { "Add(Symbol('s0', positive=True, integer=True), Mul(Integer(2), FloorDiv(Symbol('s0', "
      "positive=True, integer=True), Integer(2))))",
      "s0 + 2*((s0//2))" },
    { "ModularIndexing(Symbol('s0', positive=True, integer=True), Integer(1), Integer(4))",
      "ModularIndexing(s0, 1, 4)" },
    { "Pow(Symbol('s0', positive=True, integer=True), Rational(1, 2))", "sqrt(s0)" },
    { "Pow(Symbol('s0', positive=True, integer=True), Integer(-1))", "1/s0" },
    { "Mul(Pow(Symbol('s0', positive=True, integer=True), Integer(-1)), Symbol('s1', "
      "positive=True, integer=True))",
      "s1/s0" },
    { "Mul(Integer(2), Symbol('s0', positive=True, integer=True), Pow(Symbol('s1', positive=True, "
      "integer=True), Integer(-1)))",
      "2*s0/s1" },
    { "Mul(Float('1.5', precision=53), Symbol('s0', positive=True, integer=True))", "1.5*s0" },
    { "And(StrictGreaterThan(Symbol('s0', positive=True, integer=True), Integer(2)), "
      "StrictGreaterThan(Symbol('s1', positive=True, integer=True), Integer(2)))",
      "(s0 > 2) & (s1 > 2)" },
    { "Unequality(Symbol('s0', positive=True, integer=True), Integer(2))", "Ne(s0, 2)" },
    { "Add(Mul(Integer(-1), Symbol('s0', positive=True, integer=True)), Integer(-1))", "-s0 - 1" },
    { "Add(Mul(Integer(-1), Symbol('s0', positive=True, integer=True)), Symbol('s1', "
      "positive=True, integer=True))",
      "-s0 + s1" },
    { "Add(Symbol('s0', positive=True, integer=True), Mul(Integer(-1), Symbol('s1', positive=True, "
      "integer=True)))",
      "s0 - s1" },
    { "Add(Mul(Integer(64), Symbol('s0', positive=True, integer=True)), Symbol('s1', "
      "positive=True, integer=True))",
      "64*s0 + s1" },
    { "Mul(Symbol('s0', positive=True, integer=True), Symbol('s1', positive=True, integer=True), "
      "Symbol('s2', positive=True, integer=True))",
      "s0*s1*s2" },
    { "Mul(Symbol('s0', positive=True, integer=True), Symbol('s2', positive=True, integer=True))",
      "s0*s2" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autoptr (GString) out = g_string_new (NULL);
      const char *problem = NULL;

      g_assert_true (
          _graft_sympy_print_srepr (pairs[i].srepr, strlen (pairs[i].srepr), out, NULL, &problem));
      g_assert_cmpstr (out->str, ==, pairs[i].str);
    }
  {
    g_autoptr (GString) out = g_string_new (NULL);
    const char *problem = NULL;

    g_assert_false (_graft_sympy_print_srepr ("Add(", 4, out, NULL, &problem));
    g_assert_nonnull (problem);
  }
}

/* ---- The JSON read in parts ---- */

/* What reading @source gives, as text: its code, listing and readable
 * form (node metadata), or its error; and the parts its JSON was read in
 * (0 when it was refused). */
static char *
read_outcome (GraftSource *source,
              guint       *out_parts)
{
  g_autoptr (GError) error = NULL;
  const GraftDialect *dialect = graft_dialect_get_default ();
  Pt2Tree            *kept = NULL;
  GraftGraph         *graph = _graft_pt2_read_keeping (source, dialect, &kept, &error);
  g_autofree char    *code = NULL;
  g_autofree char    *listing = NULL;
  g_autofree char    *readable = NULL;

  *out_parts = kept != NULL ? _graft_pt2_tree_get_n_parts (kept) : 0;
  _graft_pt2_tree_free (kept);
  if (graph == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (graft_error_get_location (error, NULL, NULL, NULL, NULL, NULL));
      return graft_error_format (error, NULL);
    }
  code = graft_codegen_python (graph);
  listing = graft_listing_print (graph);
  readable = graft_codegen_readable (graph);
  graft_graph_free (graph);
  return g_strconcat (code, listing, readable, NULL);
}

/* Reading @source in parts, their starts looked for from places shifted
 * a few ways, gives what reading it whole gives; returns how many of
 * those reads were made in parts. */
static char *read_outcome_meta (GraftSource *source);

static guint
assert_parts_agree (GraftSource *source)
{
  static const double from[] = { 0.0, 0.2, 0.5, 0.8 };
  g_autofree char    *whole = NULL;
  guint               parts, n_split = 0;

  _graft_pt2_tree_set_split (G_MAXSIZE, 0.5);
  whole = read_outcome (source, &parts);
  g_assert_cmpuint (parts, <=, 1);
  /* Tensors' metadata of the same text shared or not: the same outcome,
   * the same values, the same errors at the same places. */
  {
    g_autofree char *shared = read_outcome_meta (source);
    g_autofree char *unshared = NULL;

    _graft_pt2_tree_set_sharing (FALSE);
    unshared = read_outcome_meta (source);
    _graft_pt2_tree_set_sharing (TRUE);
    g_assert_cmpstr (shared, ==, unshared);
  }
  for (guint i = 0; i < G_N_ELEMENTS (from); i++)
    {
      g_autofree char *split = NULL;

      _graft_pt2_tree_set_split (0, from[i]);
      split = read_outcome (source, &parts);
      g_assert_cmpstr (split, ==, whole);
      n_split += parts >= 2;
    }
  _graft_pt2_tree_set_split (PT2_SPLIT_MIN_BYTES, 0.5);
  return n_split;
}

static GraftSource *
json_source (const char *json,
             gsize       len)
{
  g_autoptr (GBytes) bytes = pt2_zip_program (json, len);
  gsize       size = 0;
  const char *data = g_bytes_get_data (bytes, &size);

  return graft_source_new ("m.pt2", data, (gssize) size);
}

/* read_outcome() and every node's tensor metadata. */
static char *
read_outcome_meta (GraftSource *source)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = graft_pt2_read (source, graft_dialect_get_default (), &error);
  guint            parts;
  g_autofree char *outcome = read_outcome (source, &parts);
  GString         *out = g_string_new (outcome);

  for (GraftNode *node = graph != NULL ? graft_graph_get_first (graph) : NULL; node != NULL;
       node = graft_node_get_next (node))
    {
      const GraftNodeMeta *meta = graft_node_get_meta (node);

      if (meta != NULL)
        g_string_append_printf (out, "\n%s %d %s %s %s %s", graft_node_get_name (node),
                                meta->kind, meta->dtype, meta->shape, meta->stride,
                                meta->device);
    }
  return g_string_free (out, FALSE);
}

/* read_outcome_meta() of @source with the tensors' texts made ahead on a
 * thread and in line: the same as without (returned). */
static char *
assert_ahead_agrees (GraftSource *source)
{
  g_autofree char *threaded = NULL;
  g_autofree char *in_line = NULL;
  char            *ordinary;

  _graft_pt2_values_set_thread_min (G_MAXUINT);
  ordinary = read_outcome_meta (source);
  _graft_pt2_values_set_thread_min (0);
  threaded = read_outcome_meta (source);
  _graft_pt2_values_set_thread_min (1000000);
  in_line = read_outcome_meta (source);
  _graft_pt2_values_set_thread_min (4096);
  g_assert_cmpstr (threaded, ==, ordinary);
  g_assert_cmpstr (in_line, ==, ordinary);
  return ordinary;
}

/* The tensors' texts are made ahead while the signature is read, on a
 * thread in a large program (graft-pt2-values.c): every program and
 * refused archive reads as it does without, with the thread and in
 * line, and so does a device with an index (minimal_json). */
static void
test_values_ahead (void)
{
  static const char *const dirs[] = { "programs", "program-errors" };
  guint                    n_programs = 0;

  for (guint d = 0; d <= G_N_ELEMENTS (dirs); d++)
    {
      g_autoptr (GDir) dir = d < G_N_ELEMENTS (dirs) ? g_dir_open (data_dir (dirs[d]), 0, NULL)
                                                     : NULL;
      const char *name = NULL;

      while (d == G_N_ELEMENTS (dirs) ? name == NULL : (name = g_dir_read_name (dir)) != NULL)
        {
          g_autoptr (GraftSource) source = NULL;

          if (d == G_N_ELEMENTS (dirs))
            {
              name = "minimal";
              source = json_source (minimal_json, strlen (minimal_json));
            }
          else
            {
              g_autofree char *path = g_build_filename (data_dir (dirs[d]), name, NULL);

              if (!g_str_has_suffix (name, ".pt2"))
                continue;
              source = load_source (path);
            }
          g_free (assert_ahead_agrees (source));
          n_programs++;
        }
    }
  _graft_pt2_values_set_thread_min (4096);
  g_assert_cmpuint (n_programs, >=, 20);
}

/* A tensor's metadata that is an empty object (no members in the tree)
 * is refused where it stands, the texts made ahead or not: the thread's
 * tensors made lately, by their members' address, are not an empty
 * object's. */
static void
test_values_ahead_empty (void)
{
  static const char *const edits[][2] = {
    { "\"x\": {\"dtype\": 7, \"sizes\": [{\"as_int\": 2}], \"requires_grad\": false,\n"
      "          \"device\": {\"type\": \"cpu\"}, \"strides\": [{\"as_int\": 1}],\n"
      "          \"storage_offset\": {\"as_int\": 0}, \"layout\": 7}",
      "\"x\": {}" },
    { "\"storage_offset\": {\"as_int\": 0}, \"layout\": 7}},\n",
      "\"storage_offset\": {\"as_int\": 0}, \"layout\": 7}, \"y\": {}},\n" },
  };

  for (guint e = 0; e < G_N_ELEMENTS (edits); e++)
    {
      g_autofree char *json = edited (edits[e][0], edits[e][1]);
      g_autoptr (GraftSource) source = json_source (json, strlen (json));
      g_autofree char *ordinary = assert_ahead_agrees (source);

      g_assert_true (g_str_has_prefix (ordinary, "m.pt2:"));
      g_assert_nonnull (strstr (ordinary, "missing key 'dtype'"));
    }
}

/* A large text is read in parts on two threads (graft-pt2-tree.c):
 * every program and every refused archive reads as it does whole, and
 * so do programs changed at random (a byte, a cut, a float token Python
 * writes, a key repeated), which mostly stop in one part or the other. */
static void
test_parts (void)
{
  static const char *const dirs[] = { "programs", "program-errors" };
  static const char *const inserts[] = {
    "NaN",
    "-Infinity",
    "\"",
    "\\",
    ", ",
    "]",
    "}",
    "\f",
    "\xc3\xa9",
    "\xff",
    "\"name\": 1, ",
  };
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261202);
  guint n_programs = 0, n_split = 0, n_changed = 0;

  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autoptr (GDir) dir = g_dir_open (data_dir (dirs[d]), 0, NULL);
      const char *name;

      g_assert_nonnull (dir);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = NULL;
          g_autoptr (GraftSource) source = NULL;
          g_autofree char *json = NULL;
          gsize            len = 0;

          if (!g_str_has_suffix (name, ".pt2"))
            continue;
          path = g_build_filename (data_dir (dirs[d]), name, NULL);
          source = load_source (path);
          n_split += assert_parts_agree (source);
          n_programs++;
          if (d != 0)
            continue;
          json = pt2_zip_extract (graft_source_get_text (source), graft_source_get_length (source),
                                  "serialized_exported_program.json", &len);
          if (json == NULL)
            json = pt2_zip_extract (graft_source_get_text (source),
                                    graft_source_get_length (source),
                                    "archive/serialized_exported_program.json", &len);
          if (json == NULL)
            continue;
          for (guint k = 0; k < 12; k++)
            {
              gsize at = (gsize) g_rand_int_range (rand, 0, (gint32) len);
              g_autoptr (GString) changed = g_string_new_len (json, (gssize) len);
              g_autoptr (GraftSource) changed_source = NULL;

              switch (k % 4)
                {
                case 0:
                  changed->str[at] = "x\"{}[],: 0"[g_rand_int_range (rand, 0, 10)];
                  break;
                case 1:
                  g_string_truncate (changed, at);
                  break;
                default:
                  g_string_insert (changed, (gssize) at,
                                   inserts[g_rand_int_range (rand, 0, G_N_ELEMENTS (inserts))]);
                  break;
                }
              changed_source = json_source (changed->str, changed->len);
              assert_parts_agree (changed_source);
              n_changed++;
            }
        }
    }
  g_assert_cmpuint (n_programs, >=, 20);
  g_assert_cmpuint (n_changed, >=, 100);
  /* A node's opening where a part does not guess it (in a list of the
   * program itself): the part before does not end there as guessed, and
   * the text is read whole. */
  {
    g_autoptr (GString) json = g_string_new ("{\"extra\": [");
    g_autoptr (GraftSource) source = NULL;
    guint            parts;
    g_autofree char *outcome = NULL;

    /* Past the shortest part's length from the start. */
    for (guint i = 0; i < 100; i++)
      g_string_append (json, "1, ");
    g_string_append (json, "{\"target\": \"x\"}],");
    g_string_append (json, minimal_json + 1);
    source = json_source (json->str, json->len);

    g_assert_cmpuint (assert_parts_agree (source), ==, 0);
    _graft_pt2_tree_set_split (0, 0.0);
    outcome = read_outcome (source, &parts);
    _graft_pt2_tree_set_split (PT2_SPLIT_MIN_BYTES, 0.5);
    g_assert_cmpuint (parts, ==, 1);
    g_assert_nonnull (strstr (outcome, "relu"));
  }
  /* Torch's programs have nodes and input specs to start parts at. */
  g_assert_cmpuint (n_split, >=, n_programs);
}

/* The JSON member of attention_manual.pt2, to be changed. */
static GString *
attention_json (void)
{
  g_autofree char *path = g_build_filename (data_dir ("programs"), "attention_manual.pt2", NULL);
  g_autoptr (GraftSource) source = load_source (path);
  gsize            len = 0;
  g_autofree char *json = pt2_zip_extract (graft_source_get_text (source),
                                           graft_source_get_length (source),
                                           "serialized_exported_program.json", &len);

  g_assert_nonnull (json);
  return g_string_new_len (json, (gssize) len);
}

/* Whether two trees hold the same values at the same places (when
 * @places), members in the same order.  The values inside a tensor's
 * metadata the reader reads without fail are where the first of the same
 * text in their part of the text is (graft-pt2-tree.c shares them): a
 * tree read in parts places them otherwise than one read whole. */
static void
assert_values_equal_at (const Pt2Value *a,
                        const Pt2Value *b,
                        gboolean        places)
{
  g_assert_cmpuint (a->type, ==, b->type);
  g_assert_cmpuint (a->len, ==, b->len);
  if (places)
    g_assert_cmpuint (a->offset, ==, b->offset);
  switch ((Pt2Type) a->type)
    {
    case PT2_NULL:
      break;
    case PT2_BOOL:
      g_assert_cmpint (a->v.b, ==, b->v.b);
      break;
    case PT2_INT:
      g_assert_cmpint (a->v.i, ==, b->v.i);
      break;
    case PT2_DOUBLE:
      g_assert_true (memcmp (&a->v.d, &b->v.d, sizeof a->v.d) == 0);
      break;
    case PT2_STRING:
      g_assert_true (memcmp (a->v.s, b->v.s, a->len + 1) == 0);
      break;
    case PT2_ARRAY:
      for (guint k = 0; k < a->len; k++)
        assert_values_equal_at (&a->v.items[k], &b->v.items[k], places);
      break;
    case PT2_OBJECT:
      for (guint k = 0; k < a->len; k++)
        {
          const Pt2Value *va = &a->v.members[k].value, *vb = &b->v.members[k].value;
          gboolean        shared = g_strcmp0 (a->v.members[k].key, "tensor_values") == 0;

          g_assert_cmpstr (a->v.members[k].key, ==, b->v.members[k].key);
          if (!shared || va->type != PT2_OBJECT)
            {
              assert_values_equal_at (va, vb, places);
              continue;
            }
          g_assert_cmpuint (va->type, ==, vb->type);
          g_assert_cmpuint (va->len, ==, vb->len);
          if (places)
            g_assert_cmpuint (va->offset, ==, vb->offset);
          for (guint m = 0; m < va->len; m++)
            {
              Pt2Value *ma = &va->v.members[m].value, *mb = &vb->v.members[m].value;

              g_assert_cmpstr (va->v.members[m].key, ==, vb->v.members[m].key);
              g_assert_cmpint (_graft_pt2_tensor_meta_is_plain (ma), ==,
                               _graft_pt2_tensor_meta_is_plain (mb));
              if (places)
                g_assert_cmpuint (ma->offset, ==, mb->offset);
              assert_values_equal_at (ma, mb,
                                      places && !_graft_pt2_tensor_meta_is_plain (ma));
            }
        }
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
assert_values_equal (const Pt2Value *a,
                     const Pt2Value *b)
{
  assert_values_equal_at (a, b, TRUE);
}

/* The tree of a copy of @json (kept in *@out_text), read in parts from
 * places shifted by @from when @split. */
static Pt2Tree *
json_tree (const GString *json,
           gboolean       split,
           double         from,
           char         **out_text)
{
  char            *text = g_strndup (json->str, json->len);
  g_autofree char *why = NULL;
  gsize            stop = 0;
  Pt2Tree         *tree;

  _graft_pt2_tree_set_split (split ? 0 : G_MAXSIZE, from);
  tree = _graft_pt2_tree_new (text, json->len, TRUE, &stop, &why);
  _graft_pt2_tree_set_split (PT2_SPLIT_MIN_BYTES, 0.5);
  *out_text = text;
  return tree;
}

/* Tensors' metadata of the same text share their members in the tree
 * when the reader reads them without fail, and only then: each keeps its
 * own place, and the tree takes a fraction of the memory. */
static void
test_shared_metas (void)
{
  static const char meta[] =
      "{\"dtype\": 7, \"sizes\": [{\"as_int\": 2}, {\"as_int\": 3}], \"requires_grad\": false, "
      "\"device\": {\"type\": \"cpu\"}, \"strides\": [{\"as_int\": 3}, {\"as_int\": 1}], "
      "\"storage_offset\": {\"as_int\": 0}, \"layout\": 7}";
  static const char symbolic[] =
      "{\"dtype\": 7, \"sizes\": [{\"as_expr\": {\"expr_str\": \"Symbol('s0')\"}}], "
      "\"device\": {\"type\": \"cpu\"}, \"strides\": [{\"as_int\": 1}]}";
  static const char unknown_dtype[] =
      "{\"dtype\": 99, \"sizes\": [], \"device\": {\"type\": \"cpu\"}, \"strides\": []}";
  g_autoptr (GString) json = g_string_new ("{\"graph_module\": {\"graph\": {\"tensor_values\": {");
  g_autofree char *text_on = NULL, *text_off = NULL;
  Pt2Tree         *on, *off;
  Pt2Value        *dict;
  guint            n = 200;

  for (guint k = 0; k < n; k++)
    g_string_append_printf (json, "\"t%u\": %s, ", k, meta);
  g_string_append_printf (json, "\"s0\": %s, \"s1\": %s, ", symbolic, symbolic);
  g_string_append_printf (json, "\"d0\": %s, \"d1\": %s", unknown_dtype, unknown_dtype);
  g_string_append (json, "}}}}");

  on = json_tree (json, FALSE, 0.5, &text_on);
  _graft_pt2_tree_set_sharing (FALSE);
  off = json_tree (json, FALSE, 0.5, &text_off);
  _graft_pt2_tree_set_sharing (TRUE);
  g_assert_nonnull (on);
  g_assert_nonnull (off);

  dict = _graft_pt2_member (
      _graft_pt2_member (_graft_pt2_member (_graft_pt2_tree_get_root (on), "graph_module"),
                         "graph"),
      "tensor_values");
  g_assert_nonnull (dict);
  g_assert_cmpuint (dict->len, ==, n + 4);
  for (guint k = 1; k < n; k++)
    {
      g_assert_true (dict->v.members[k].value.v.members == dict->v.members[0].value.v.members);
      /* Its own place, not the first's. */
      gsize next = dict->v.members[k - 1].value.offset + 1;

      while (next + 7 <= json->len && memcmp (text_on + next, "{\"dtype", 7) != 0)
        next++;
      g_assert_cmpuint (dict->v.members[k].value.offset, ==, next);
    }
  g_assert_true (dict->v.members[n].value.v.members != dict->v.members[n + 1].value.v.members);
  g_assert_true (dict->v.members[n + 2].value.v.members !=
                 dict->v.members[n + 3].value.v.members);
  /* The same values, in a fifth of the memory or less (the keys stay). */
  assert_values_equal_at (_graft_pt2_tree_get_root (on), _graft_pt2_tree_get_root (off), TRUE);
  g_assert_cmpuint (_graft_pt2_tree_get_size (on) * 5, <, _graft_pt2_tree_get_size (off));
  _graft_pt2_tree_free (on);
  _graft_pt2_tree_free (off);
}

/* Long strings with escapes of the same bytes share one copy in the
 * tree, and a tensor's metadata shared after such a string was copied
 * inside it (the string seen lately replaced meanwhile) keeps what it
 * took (its keys and strings copied again, as those seen lately were
 * replaced): the tree holds what it holds unshared, value for value. */
static void
test_shared_strings (void)
{
  static const char trace[] = "  File \\\"m.py\\\", line 9, in forward\\n    x = self.lin(x)\\n";
  g_autoptr (GString) json = g_string_new ("{\"graph_module\": {\"graph\": {\"tensor_values\": {");
  g_autoptr (GString) meta = g_string_new (NULL);
  g_autofree char *text_on = NULL, *text_off = NULL;
  Pt2Tree         *on, *off;
  Pt2Value        *graph, *after;

  g_string_printf (meta,
                   "{\"dtype\": 7, \"sizes\": [{\"as_int\": 2}], \"device\": {\"type\": \"cpu\"}, "
                   "\"strides\": [{\"as_int\": 1}], \"note\": \"%s\"}",
                   trace);
  g_string_append_printf (json, "\"t0\": %s, ", meta->str);
  /* Enough other strings for the one seen lately to be replaced. */
  for (guint k = 0; k < 5000; k++)
    g_string_append_printf (json, "\"f%u\": \"other line %u\\n of a trace long enough\", ", k, k);
  g_string_append_printf (json, "\"t1\": %s, \"t2\": %s}, ", meta->str, meta->str);
  /* Then copies that take the tree's memory after them. */
  g_string_append_printf (json, "\"after\": [\"%s\", \"%s\"", trace, trace);
  for (guint k = 0; k < 100; k++)
    g_string_append (json, ", \"short\\n\"");
  g_string_append (json, "]}}}");

  on = json_tree (json, FALSE, 0.5, &text_on);
  _graft_pt2_tree_set_sharing (FALSE);
  off = json_tree (json, FALSE, 0.5, &text_off);
  _graft_pt2_tree_set_sharing (TRUE);
  g_assert_nonnull (on);
  g_assert_nonnull (off);
  assert_values_equal_at (_graft_pt2_tree_get_root (on), _graft_pt2_tree_get_root (off), TRUE);

  graph = _graft_pt2_member (_graft_pt2_member (_graft_pt2_tree_get_root (on), "graph_module"),
                             "graph");
  after = _graft_pt2_member (graph, "after");
  g_assert_cmpuint (after->len, ==, 102);
  g_assert_true (after->v.items[0].v.s == after->v.items[1].v.s);
  g_assert_cmpstr (after->v.items[0].v.s, ==,
                   "  File \"m.py\", line 9, in forward\n    x = self.lin(x)\n");
  /* Short strings are copied each. */
  g_assert_true (after->v.items[2].v.s != after->v.items[3].v.s);
  after = _graft_pt2_member (_graft_pt2_member (_graft_pt2_tree_get_root (off), "graph_module"),
                             "graph");
  after = _graft_pt2_member (after, "after");
  g_assert_true (after->v.items[0].v.s != after->v.items[1].v.s);
  _graft_pt2_tree_free (on);
  _graft_pt2_tree_free (off);
}

/* A key met lately is shared by the tree: a longer key of the same slot
 * of that cache is not compared past the end of the shorter one's copy,
 * which may end its chunk (ASan: a heap-buffer-overflow in read_string()
 * before the lengths were compared).  Filler strings with escapes move the
 * short key's copy over a chunk's last bytes. */
static void
test_key_cache_lengths (void)
{
  /* "a" and this key of 63 bytes fall in the same slot. */
  static const char long_key[] = "aqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqfqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn";

  g_assert_cmpuint (strlen (long_key), ==, 63);
  _graft_pt2_tree_set_split (G_MAXSIZE, 0.5);
  for (guint n = 1900; n < 2200; n++)
    for (guint m = 0; m < 2; m++)
      {
        g_autoptr (GString) json = g_string_new ("{\"f\": [\"\\n\"");
        g_autofree char *text = NULL;
        g_autofree char *why = NULL;
        gsize            stop = 0;
        Pt2Tree         *tree;
        Pt2Value        *root;

        for (guint k = 1; k < n; k++)
          g_string_append (json, ", \"\\n\"");
        if (m > 0)
          g_string_append (json, ", \"xxxxxxxxxxxxxxxx\\n\"");
        g_string_append_printf (json, "], \"a\": 1, \"%s\": 2, \"a\": 3}", long_key);
        text = g_strndup (json->str, json->len);
        tree = _graft_pt2_tree_new (text, json->len, TRUE, &stop, &why);
        g_assert_nonnull (tree);
        root = _graft_pt2_tree_get_root (tree);
        g_assert_cmpuint (root->len, ==, 3);
        g_assert_cmpstr (root->v.members[1].key, ==, "a");
        g_assert_cmpint (root->v.members[1].value.v.i, ==, 3);
        g_assert_cmpstr (root->v.members[2].key, ==, long_key);
        _graft_pt2_tree_free (tree);
      }
  _graft_pt2_tree_set_split (PT2_SPLIT_MIN_BYTES, 0.5);
}

/* Programs whose tensors' metadata repeat texts the reader reads without
 * fail and texts it refuses or reads otherwise (keys repeated, NaN and
 * Infinity, escapes, NULs, strings of the shared length, long keys, odd
 * devices and dims), at random: read with the metadata shared or not,
 * whole or in parts, copied or mapped, each gives the same outcome, and
 * the trees hold the same values. */
static guint assert_trees_agree (const GString *json);

static void
test_shared_metas_random (void)
{
  static const char *const metas[] = {
    "{\"dtype\": 7, \"sizes\": [{\"as_int\": 2}], \"device\": {\"type\": \"cpu\"}, "
    "\"strides\": [{\"as_int\": 1}]}",
    "{\"dtype\": 99, \"dtype\": 7, \"sizes\": [{\"as_int\": 2}], \"device\": {\"type\": "
    "\"cpu\"}, \"strides\": [{\"as_int\": 1}], \"sizes\": [{\"as_int\": 3}]}",
    "{\"dtype\": 7, \"dtype\": 99, \"sizes\": [], \"device\": {\"type\": \"cpu\"}, "
    "\"strides\": []}",
    "{\"dtype\": 6, \"sizes\": [{\"as_int\": 2, \"as_int\": 4}], \"device\": {\"type\": "
    "\"cuda\", \"index\": 0}, \"strides\": [{\"as_int\": 1}], \"x\": NaN, \"y\": [Infinity, "
    "-Infinity]}",
    "{\"dtype\": 6, \"sizes\": [], \"device\": {\"type\": \"cu\\u0000da\", \"index\": null}, "
    "\"strides\": [], \"note\": \"\\\"0123456789012345678901234567890\", "
    "\"k0123456789012345678901234567890123456789012345678901234567890123\\n\": 1}",
    "{\"dtype\": 6, \"sizes\": [], \"device\": {\"type\": \"\\u00e9\\ud83d\\ude00\\ud800x\"}, "
    "\"strides\": [], \"note\": \"\\\"01234567890123456789012345678901\"}",
    "{\"dtype\": 6, \"sizes\": [], \"device\": {\"type\": \"cpu\", \"index\": 1.5}, "
    "\"strides\": []}",
    "{\"dtype\": 6, \"sizes\": [], \"device\": {\"type\": \"cpu\", \"index\": \"a\"}, "
    "\"strides\": []}",
    "{\"dtype\": 6, \"sizes\": [], \"device\": {\"type\": \"cpu\", \"type\": 5}, "
    "\"strides\": []}",
    "{\"dtype\": 7.0, \"sizes\": [], \"device\": {\"type\": \"cpu\"}, \"strides\": []}",
    "{\"dtype\": 7, \"sizes\": [{\"as_int\": 2}, {\"as_int\": 2e0}], \"device\": {\"type\": "
    "\"cpu\"}, \"strides\": [{\"as_int\": 1}, {\"as_int\": 1}]}",
    "{\"dtype\": 7, \"sizes\": [{\"as_expr\": {\"expr_str\": \"Symbol('s0')\"}}], "
    "\"device\": {\"type\": \"cpu\"}, \"strides\": [{\"as_int\": 1}]}",
    "{\"dtype\": 7, \"sizes\": [], \"device\": {\"type\": \"cpu\"}}",
    "{\"dtype\": 7, \"sizes\": [], \"device\": {\"type\": \"cpu\"}, \"strides\": [], "
    "\"deep\": {\"a\": [{\"b\": [1, 2, {\"c\": \"d\\te\"}]}], \"k\": \"some\\nlong string with an "
    "escape in it\"}}",
    "{}",
    "{\"dtype\": 7, \"sizes\": [], \"device\": {\"type\": \"cpu\"}, \"strides\": [], "
    "\"dtype\": 8}",
  };
  static const guint read_whole[] = { 0, 1, 3, 4, 5, 13, 15 };
  guint              n_errors = 0, n_smaller = 0, n_split = 0;

  for (guint seed = 1; seed <= 40; seed++)
    {
      g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
      g_autoptr (GString) extra = g_string_new (NULL);
      g_autofree char *json = NULL;
      g_autofree char *on = NULL, *off = NULL, *mapped = NULL;
      g_autofree char *text_on = NULL, *text_off = NULL;
      g_autofree char *dir = NULL, *path = NULL;
      g_autoptr (GraftSource) source = NULL;
      g_autoptr (GraftSource) read = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (GString) whole = NULL;
      Pt2Tree *tree_on, *tree_off;
      guint    n = g_rand_int_range (rand, 1, 2000);
      /* Some of those read without fail, and in a quarter of the
       * programs any now and then. */
      guint plain = g_rand_int_range (rand, 2, G_N_ELEMENTS (read_whole) + 1);

      for (guint k = 0; k < n; k++)
        {
          guint v = seed % 4 != 0 || g_rand_int_range (rand, 0, 100) < 97
                        ? read_whole[g_rand_int_range (rand, 0, plain)]
                        : (guint) g_rand_int_range (rand, 0, G_N_ELEMENTS (metas));
          guint r = g_rand_int_range (rand, 0, 400);

          if (g_rand_int_range (rand, 0, 100) < 30)
            /* Keys and strings that replace those seen lately, a float
             * token, read without fail. */
            g_string_append_printf (extra,
                                    "\"v%u\": {\"dtype\": 7, \"e%u\": %s, \"sizes\": [], "
                                    "\"device\": {\"type\": \"cpu\"}, \"strides\": [], "
                                    "\"f%u\": \"line %u\\n of a string long enough to be "
                                    "shared\"},%s",
                                    k, r, r % 3 == 0 ? "NaN" : "[1, 2]", r % 7, r % 5,
                                    g_rand_boolean (rand) ? "\n   " : " ");
          else
            g_string_append_printf (extra, "\"v%u\": %s,%s", k, metas[v],
                                    g_rand_boolean (rand) ? "\n   " : " ");
        }
      g_string_prepend (extra, "\"tensor_values\": {\n");
      json = edited ("\"tensor_values\": {\n", extra->str);
      if (seed % 2 == 0)
        {
          /* Nodes before, for the text to be read in parts: the tensors'
           * metadata in the last part, the nodes' stack traces shared. */
          g_autoptr (GString) nodes = g_string_new ("\"nodes\": [\n");
          g_autofree char *with_nodes = NULL;
          char            *at = strstr (json, "\"nodes\": [\n");

          for (guint k = 0; k < MIN (n, 60); k++)
            g_string_append_printf (
                nodes,
                "{\"target\": \"torch.ops.aten.relu.default\",\n"
                "     \"inputs\": [{\"name\": \"self\", \"arg\": {\"as_tensor\": {\"name\": "
                "\"x\"}}}],\n"
                "     \"outputs\": [{\"as_tensor\": {\"name\": \"v%u\"}}],\n"
                "     \"metadata\": {\"stack_trace\": \"  File \\\"m.py\\\", line %u, in "
                "forward\\n    x = relu(x)\\n\"}}, ",
                k, k % 3);
          g_assert_nonnull (at);
          with_nodes = g_strdup_printf ("%.*s%s%s", (int) (at - json), json, nodes->str,
                                        at + strlen ("\"nodes\": [\n"));
          g_free (json);
          json = g_steal_pointer (&with_nodes);
        }
      source = json_source (json, strlen (json));
      on = read_outcome_meta (source);
      _graft_pt2_tree_set_sharing (FALSE);
      off = read_outcome_meta (source);
      _graft_pt2_tree_set_sharing (TRUE);
      g_assert_cmpstr (on, ==, off);
      n_errors += g_str_has_prefix (on, "m.pt2:");
      assert_parts_agree (source);

      /* Mapped from a file: read in place. */
      dir = g_dir_make_tmp ("graft-pt2-XXXXXX", NULL);
      g_assert_nonnull (dir);
      path = g_build_filename (dir, "m.pt2", NULL);
      g_assert_true (g_file_set_contents (path, graft_source_get_text (source),
                                          (gssize) graft_source_get_length (source), NULL));
      read = graft_input_read_file (path, &error);
      g_assert_no_error (error);
      mapped = read_outcome_meta (read);
      /* The error named by the file's path. */
      g_assert_cmpstr (g_str_has_prefix (mapped, dir) ? mapped + strlen (dir) + 1 : mapped, ==,
                       on);
      g_clear_pointer (&read, graft_source_unref);
      g_unlink (path);
      g_rmdir (dir);

      whole = g_string_new (json);
      tree_on = json_tree (whole, FALSE, 0.5, &text_on);
      _graft_pt2_tree_set_sharing (FALSE);
      tree_off = json_tree (whole, FALSE, 0.5, &text_off);
      _graft_pt2_tree_set_sharing (TRUE);
      g_assert_true ((tree_on == NULL) == (tree_off == NULL));
      if (tree_on != NULL)
        {
          assert_values_equal_at (_graft_pt2_tree_get_root (tree_on),
                                  _graft_pt2_tree_get_root (tree_off), TRUE);
          n_smaller += _graft_pt2_tree_get_size (tree_on) < _graft_pt2_tree_get_size (tree_off);
        }
      n_split += assert_trees_agree (whole);
      _graft_pt2_tree_free (tree_on);
      _graft_pt2_tree_free (tree_off);
    }
  g_assert_cmpuint (n_errors, >, 0);
  g_assert_cmpuint (n_errors, <, 20);
  g_assert_cmpuint (n_smaller, >=, 30);
  g_assert_cmpuint (n_split, >, 0);
}

/* The tree of @json read in parts from every shift is the tree of one
 * pass, value for value, member for member; returns how many of those
 * reads were made in parts. */
static guint
assert_trees_agree (const GString *json)
{
  static const double from[] = { 0.0, 0.2, 0.5, 0.8 };
  g_autofree char    *whole_text = NULL;
  Pt2Tree            *whole = json_tree (json, FALSE, 0.5, &whole_text);
  guint               n_split = 0;

  for (guint i = 0; i < G_N_ELEMENTS (from); i++)
    {
      g_autofree char *text = NULL;
      Pt2Tree         *tree = json_tree (json, TRUE, from[i], &text);

      g_assert_true ((whole == NULL) == (tree == NULL));
      if (tree != NULL)
        {
          assert_values_equal (_graft_pt2_tree_get_root (whole), _graft_pt2_tree_get_root (tree));
          n_split += _graft_pt2_tree_get_n_parts (tree) >= 2;
        }
      _graft_pt2_tree_free (tree);
    }
  _graft_pt2_tree_free (whole);
  return n_split;
}

/* What reading @json whole gives, checked to be what reading it in parts
 * from every shift gives, with at least one read in parts when
 * @expect_split. */
static char *
assert_json_parts_agree (GString *json,
                         gboolean expect_split)
{
  g_autoptr (GraftSource) source = json_source (json->str, json->len);
  guint parts;
  char *whole;

  if (expect_split)
    {
      g_assert_cmpuint (assert_parts_agree (source), >, 0);
      g_assert_cmpuint (assert_trees_agree (json), >, 0);
    }
  else
    {
      assert_parts_agree (source);
      assert_trees_agree (json);
    }
  _graft_pt2_tree_set_split (G_MAXSIZE, 0.5);
  whole = read_outcome (source, &parts);
  _graft_pt2_tree_set_split (PT2_SPLIT_MIN_BYTES, 0.5);
  return whole;
}

/* Strings that hold what a part starts at (escaped, as it must be in a
 * string), unicode escapes and backslashes next to the real starts,
 * keys repeated over the parts, and errors in two parts: read in parts,
 * each gives what the whole read gives. */
static void
test_parts_adversarial (void)
{
  g_autoptr (GString) plain = attention_json ();
  g_autofree char *plain_outcome = assert_json_parts_agree (plain, TRUE);

  /* Every stack trace's code starting with the starts of a part, escaped. */
  {
    g_autoptr (GString) json = g_string_new_len (plain->str, (gssize) plain->len);
    g_autofree char *outcome = NULL;

    g_assert_cmpuint (g_string_replace (json, "in forward\\n    ",
                                        "in forward\\n    a, {\\\"target\\\": \\\"b\\\"}, "
                                        ", {\\\"parameter\\\": {\\\"arg\\\": \\\\\\\", "
                                        "{\\\"buffer\\\": {\\\"arg\\\": \\u0022, {\\u0022target"
                                        "\\u0022: \\u0022 \\ud83d\\ude00 \\u00e9 \\\\",
                                        0),
                      >, 3);
    outcome = assert_json_parts_agree (json, TRUE);
    g_assert_nonnull (strstr (outcome, "code: a, {\"target\": \"b\"}, , {\"parameter\": "
                                       "{\"arg\": \\\", {\"buffer\": {\"arg\": \", {\"target\": "
                                       "\" \xf0\x9f\x98\x80 \xc3\xa9 \\q, k, v"));
  }
  /* A string ending in a backslash just before a node, in a part's last
   * token. */
  {
    g_autoptr (GString) json = g_string_new_len (plain->str, (gssize) plain->len);
    g_autofree char *outcome = NULL;

    g_assert_cmpuint (g_string_replace (json, "\"}}, {\"target\": \"",
                                        "\\\\\"}}, {\"target\": \"", 0),
                      >, 3);
    outcome = assert_json_parts_agree (json, TRUE);
    g_assert_nonnull (outcome);
  }
  /* The graph's nodes twice, the first list wrong: the last value is
   * kept, in the first place, over the parts as over one pass. */
  {
    const char *nodes = strstr (plain->str, "\"nodes\": [");
    const char *end = strstr (plain->str, "], \"tensor_values\"");
    g_autoptr (GString) json = g_string_new_len (plain->str, nodes - plain->str);
    g_autoptr (GString) wrong = g_string_new_len (nodes, end + 1 - nodes);
    g_autofree char *outcome = NULL;

    g_assert_nonnull (nodes);
    g_assert_nonnull (end);
    g_assert_cmpuint (g_string_replace (wrong, "torch.ops.aten.", "torch.ops.aten.x", 0), >, 3);
    g_string_append_len (json, wrong->str, (gssize) wrong->len);
    g_string_append (json, ", ");
    g_string_append (json, nodes);
    outcome = assert_json_parts_agree (json, TRUE);
    g_assert_cmpstr (outcome, ==, plain_outcome);
  }
  /* The whole program twice, the first wrong. */
  {
    const char *module = strstr (plain->str, "\"graph_module\": ");
    const char *after = strstr (plain->str, ", \"opset_version\"");
    g_autoptr (GString) json = g_string_new ("{");
    g_autoptr (GString) wrong = NULL;
    g_autofree char *outcome = NULL;

    g_assert_true (module == plain->str + 1);
    g_assert_nonnull (after);
    wrong = g_string_new_len (module, after - module);
    g_assert_cmpuint (g_string_replace (wrong, "torch.ops.aten.", "torch.ops.aten.x", 0), >, 3);
    g_string_append_len (json, wrong->str, (gssize) wrong->len);
    g_string_append (json, ", ");
    g_string_append (json, module);
    outcome = assert_json_parts_agree (json, TRUE);
    g_assert_cmpstr (outcome, ==, plain_outcome);
  }
  /* Errors in two parts (a byte changed at 30 % and at 80 % of the
   * text): the first, as read whole. */
  for (guint k = 0; k < 6; k++)
    {
      g_autoptr (GString) json = g_string_new_len (plain->str, (gssize) plain->len);
      g_autofree char *outcome = NULL;
      gsize            early = json->len * (25 + k) / 100, late = json->len * (75 + k) / 100;

      json->str[early] = "\x01}]\"\\x"[k];
      json->str[late] = "x}]\"\\\x01"[k];
      outcome = assert_json_parts_agree (json, FALSE);
      g_assert_nonnull (strstr (outcome, "m.pt2"));
    }
}

/* Every program's JSON read in parts gives the tree of one pass, and so
 * do its texts with a key of each object repeated (the graph's, the
 * module's, the root's: repeated keys merged over the parts). */
static void
test_parts_trees (void)
{
  g_autoptr (GDir) dir = g_dir_open (data_dir ("programs"), 0, NULL);
  const char *name;
  guint       n_programs = 0, n_split = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      static const char *const repeated[] = { "\"nodes\": [", "\"graph\": {", "\"graph_module\": {",
                                              "\"input_specs\": [" };
      g_autofree char         *path = NULL;
      g_autoptr (GraftSource) source = NULL;
      g_autofree char *json = NULL;
      gsize            len = 0;

      if (!g_str_has_suffix (name, ".pt2"))
        continue;
      path = g_build_filename (data_dir ("programs"), name, NULL);
      source = load_source (path);
      json = pt2_zip_extract (graft_source_get_text (source), graft_source_get_length (source),
                              "serialized_exported_program.json", &len);
      if (json == NULL)
        json = pt2_zip_extract (graft_source_get_text (source), graft_source_get_length (source),
                                "archive/serialized_exported_program.json", &len);
      g_assert_nonnull (json);
      {
        g_autoptr (GString) text = g_string_new_len (json, (gssize) len);

        n_split += assert_trees_agree (text) > 0;
      }
      /* The key's value repeated before it, its nodes' targets changed:
       * `"nodes": [...], "nodes": [...]`. */
      for (guint k = 0; k < G_N_ELEMENTS (repeated); k++)
        {
          const char *at = strstr (json, repeated[k]);
          const char *p;
          guint       depth = 0;
          g_autoptr (GString) text = NULL;
          g_autoptr (GString) first = NULL;

          if (at == NULL)
            continue;
          /* The value's end: its brackets counted outside strings. */
          p = at + strlen (repeated[k]) - 1;
          for (gboolean in_string = FALSE; *p != '\0'; p++)
            {
              if (in_string)
                {
                  if (*p == '\\')
                    p++;
                  else if (*p == '"')
                    in_string = FALSE;
                  continue;
                }
              if (*p == '"')
                in_string = TRUE;
              else if (*p == '[' || *p == '{')
                depth++;
              else if ((*p == ']' || *p == '}') && --depth == 0)
                break;
            }
          g_assert_cmpint (*p, !=, '\0');
          first = g_string_new_len (at, p + 1 - at);
          g_string_replace (first, "\"target\": \"", "\"target\": \"x", 0);
          text = g_string_new_len (json, at - json);
          g_string_append_len (text, first->str, (gssize) first->len);
          g_string_append (text, ", ");
          g_string_append (text, at);
          assert_trees_agree (text);
        }
      n_programs++;
    }
  g_assert_cmpuint (n_programs, >=, 20);
  g_assert_cmpuint (n_split, ==, n_programs);
}

/* A part that does not do (an error, or an end where the next part does
 * not start) stops the reading of the others: the text is read whole
 * then, and a bad file is not read twice over.  The first node, made the
 * longest part, is read first, here on this thread only. */
static void
test_parts_give_up (void)
{
  g_autoptr (GString) plain = attention_json ();
  const char      *trace = "\"stack_trace\": \"";
  const char      *at = strstr (plain->str, trace);
  const char      *target = "\"target\": \"torch.ops.aten.linear.default\"";
  g_autofree char *pad = g_strnfill (plain->len * 2, ' ');
  g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);

  /* An error in the first node. */
  {
    g_autoptr (GString) json = g_string_new_len (plain->str, (gssize) plain->len);
    const char *first = strstr (json->str, target);

    g_assert_nonnull (first);
    g_string_insert (json, first - json->str + (gssize) strlen (target) - 1, "\\x");
    at = strstr (json->str, trace);
    g_string_insert (json, at - json->str + (gssize) strlen (trace), pad);
    g_ptr_array_add (texts, g_string_free (g_steal_pointer (&json), FALSE));
  }
  /* A node's opening in another list, the first part ending there. */
  g_ptr_array_add (texts, g_strdup_printf ("{\"extra\": [\"%s\", {\"target\": \"x\"}], %s", pad,
                                           plain->str + 1));
  for (guint k = 0; k < texts->len; k++)
    {
      const char      *json = texts->pdata[k];
      gsize            len = strlen (json);
      g_autofree char *whole_text = g_strndup (json, len);
      g_autofree char *text = g_strndup (json, len);
      g_autofree char *whole_why = NULL;
      g_autofree char *why = NULL;
      gsize            whole_stop = 0, stop = 0;
      Pt2Tree         *whole, *tree;

      _graft_pt2_tree_set_split (G_MAXSIZE, 0.5);
      whole = _graft_pt2_tree_new (whole_text, len, TRUE, &whole_stop, &whole_why);
      _graft_pt2_tree_set_split_thread (FALSE);
      _graft_pt2_tree_set_split (0, 0.5);
      tree = _graft_pt2_tree_new (text, len, TRUE, &stop, &why);
      _graft_pt2_tree_set_split (PT2_SPLIT_MIN_BYTES, 0.5);
      _graft_pt2_tree_set_split_thread (TRUE);
      /* Only the first part was read in parts; then the text whole. */
      g_assert_cmpuint (_graft_pt2_tree_get_parts_read (), ==, 1);
      g_assert_true ((whole == NULL) == (tree == NULL));
      g_assert_true ((whole == NULL) == (k == 0));
      if (whole == NULL)
        {
          g_assert_cmpuint (stop, ==, whole_stop);
          g_assert_cmpstr (why, ==, whole_why);
        }
      else
        {
          g_assert_cmpuint (_graft_pt2_tree_get_n_parts (tree), ==, 1);
          assert_values_equal (_graft_pt2_tree_get_root (whole), _graft_pt2_tree_get_root (tree));
        }
      g_assert_cmpmem (text, len, whole_text, len);
      _graft_pt2_tree_free (whole);
      _graft_pt2_tree_free (tree);
    }
  /* Read without a change, every part is read and joined. */
  {
    g_autofree char *text = g_strndup (plain->str, plain->len);
    g_autofree char *why = NULL;
    gsize            stop = 0;
    Pt2Tree         *tree;

    _graft_pt2_tree_set_split_thread (FALSE);
    _graft_pt2_tree_set_split (0, 0.5);
    tree = _graft_pt2_tree_new (text, plain->len, TRUE, &stop, &why);
    _graft_pt2_tree_set_split (PT2_SPLIT_MIN_BYTES, 0.5);
    _graft_pt2_tree_set_split_thread (TRUE);
    g_assert_nonnull (tree);
    g_assert_cmpuint (_graft_pt2_tree_get_n_parts (tree), >, 2);
    g_assert_cmpuint (_graft_pt2_tree_get_parts_read (), ==, _graft_pt2_tree_get_n_parts (tree));
    _graft_pt2_tree_free (tree);
  }
}

/* A member of 4 MiB is read in parts, one byte shorter whole; the parts
 * give what the whole read gives. */
static void
test_parts_threshold (void)
{
  g_autoptr (GString) plain = attention_json ();
  const char *trace = "\"stack_trace\": \"";

  for (gsize size = PT2_SPLIT_MIN_BYTES - 1; size <= PT2_SPLIT_MIN_BYTES; size++)
    {
      g_autoptr (GString) json = g_string_new_len (plain->str, (gssize) plain->len);
      g_autoptr (GraftSource) source = NULL;
      g_autofree char *outcome = NULL;
      g_autofree char *pad = NULL;
      g_autofree char *whole = NULL;
      const char      *at = strstr (json->str, trace);
      guint            parts;

      g_assert_nonnull (at);
      /* A long stack trace on the first node, kept in its readable form. */
      pad = g_strnfill (size - json->len, ' ');
      g_string_insert (json, at - json->str + (gssize) strlen (trace), pad);
      g_assert_cmpuint (json->len, ==, size);
      source = json_source (json->str, json->len);
      outcome = read_outcome (source, &parts);
      g_assert_cmpuint (parts, ==, size >= PT2_SPLIT_MIN_BYTES ? 2 : 1);
      _graft_pt2_tree_set_split (G_MAXSIZE, 0.5);
      whole = read_outcome (source, &parts);
      _graft_pt2_tree_set_split (PT2_SPLIT_MIN_BYTES, 0.5);
      g_assert_cmpuint (parts, ==, 1);
      g_assert_cmpstr (outcome, ==, whole);
    }
}

/* ---- An archive mapped rather than read ---- */

/* What reading @source gives: the code, listing and readable form, or
 * the error. */
static char *
mapped_outcome (GraftSource *source)
{
  guint parts;

  return read_outcome (source, &parts);
}

/* Every archive of tests/data read through graft_input_read_file(),
 * which maps it, reads as its bytes copied into memory read. */
static void
test_mapped (void)
{
  static const char *const dirs[] = { "programs", "program-errors" };
  guint                    n_mapped = 0;

  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autoptr (GDir) dir = g_dir_open (data_dir (dirs[d]), 0, NULL);
      const char *name;

      g_assert_nonnull (dir);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = NULL;
          g_autofree char *text = NULL;
          g_autofree char *want = NULL;
          g_autofree char *got = NULL;
          gsize            length = 0;
          g_autoptr (GError) error = NULL;
          g_autoptr (GraftSource) copied = NULL;
          g_autoptr (GraftSource) read = NULL;

          if (!g_str_has_suffix (name, ".pt2"))
            continue;
          path = g_build_filename (data_dir (dirs[d]), name, NULL);
          g_assert_true (g_file_get_contents (path, &text, &length, NULL));
          copied = graft_source_new (path, text, (gssize) length);
          read = graft_input_read_file (path, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (graft_source_get_length (read), ==, length);
          g_assert_true (memcmp (graft_source_get_text (read), text, length) == 0);
          g_assert_true (graft_source_get_text (read)[length] == '\0');
          want = mapped_outcome (copied);
          got = mapped_outcome (read);
          g_assert_cmpstr (got, ==, want);
          g_assert_true (_graft_source_is_intact (read));
          if (length >= 4 && memcmp (text, "PK\x03\x04", 4) == 0)
            n_mapped++;
        }
    }
  g_assert_cmpuint (n_mapped, >=, 20);
}

/* A mapped archive that shrinks or is written in place after it was
 * opened: an error, never a crash nor another program read unnoticed. */
static void
test_mapped_changed (void)
{
  static const char want[] = "cannot read the file: it changed on disk after it was opened";
  g_autoptr (GString) large = g_string_new (minimal_json);
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *dir = g_dir_make_tmp ("graft-pt2-mapped-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "m.pt2", NULL);
  const gsize      cuts[] = { 0, 1, 3000, 4096, 300000, 1000000 };
  const char      *data;
  gsize            len = 0;

  g_assert_nonnull (dir);
  /* A megabyte of blanks, so that the cuts fall in pages not yet read. */
  for (guint i = 0; i < 1024 * 1024; i++)
    g_string_append_c (large, ' ');
  bytes = pt2_zip_program (large->str, large->len);
  data = g_bytes_get_data (bytes, &len);
  for (guint c = 0; c <= G_N_ELEMENTS (cuts); c++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GraftSource) source = NULL;
      g_autoptr (GraftGraph) graph = NULL;
      int fd;

      g_assert_true (g_file_set_contents (path, data, (gssize) len, NULL));
      source = graft_input_read_file (path, &error);
      g_assert_no_error (error);
      fd = g_open (path, O_WRONLY, 0);
      g_assert_cmpint (fd, >=, 0);
      if (c < G_N_ELEMENTS (cuts))
        g_assert_cmpint (ftruncate (fd, (off_t) cuts[c]), ==, 0);
      else
        {
          /* Changed in place, not shrunk: seen by its modification time
           * (set a minute on, as a later export's would be, since one
           * within the clock's resolution may go unseen). */
          char            garbage[8192];
          struct stat     st;
          struct timespec times[2];

          memset (garbage, '[', sizeof garbage);
          g_assert_cmpint (pwrite (fd, garbage, sizeof garbage, (off_t) len / 2), ==,
                           (gssize) sizeof garbage);
          g_assert_cmpint (fstat (fd, &st), ==, 0);
          times[0] = st.st_atim;
          times[1] = st.st_mtim;
          times[1].tv_sec += 60;
          g_assert_cmpint (futimens (fd, times), ==, 0);
        }
      close (fd);
      graph = graft_input_load_graph (source, graft_dialect_get_default (), NULL, &error);
      {
        g_autofree char *message = NULL;

        g_assert_null (graph);
        g_assert_false (_graft_source_is_intact (source));
        message = graft_error_format (error, NULL);
        g_assert_true (g_str_has_suffix (message, want));
      }
      /* The text past a cut reads as zeros from now on. */
      if (c < G_N_ELEMENTS (cuts))
        g_assert_true (graft_source_get_text (source)[len - 1] == '\0');
    }
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  static const char *const archives[] = { "*.pt2", NULL };
  GoldenSuite              programs, errors;

  g_test_init (&argc, &argv, NULL);
  programs = (GoldenSuite){
    .test_path = "/pt2/programs",
    .input_dir = data_dir ("programs"),
    .inputs = archives,
    .origin = GOLDEN_FROM_ORACLE,
    .compare = GOLDEN_STRIPPED,
    .func = test_program,
  };
  errors = (GoldenSuite){
    .test_path = "/pt2/errors",
    .input_dir = data_dir ("program-errors"),
    .inputs = archives,
    .origin = GOLDEN_FROM_GRAFT,
    .compare = GOLDEN_EXACT,
    .func = test_program_error,
  };
  g_assert_cmpuint (golden_suite_add (&programs), >=, 10);
  g_assert_cmpuint (golden_suite_add (&errors), >=, 10);
  g_test_add_func ("/pt2/minimal", test_minimal);
  g_test_add_func ("/pt2/meta-interned", test_meta_interned);
  g_test_add_func ("/pt2/placeholder-candidates", test_placeholder_candidates);
  g_test_add_func ("/pt2/error-places", test_error_places);
  g_test_add_func ("/pt2/symbolic", test_symbolic);
  g_test_add_func ("/pt2/syntax", test_syntax);
  g_test_add_func ("/pt2/floats", test_floats);
  g_test_add_func ("/pt2/strings", test_strings);
  g_test_add_func ("/pt2/limits", test_limits);
  g_test_add_func ("/pt2/names-by-place", test_names_by_place);
  g_test_add_func ("/pt2/input-spec-renamed", test_input_spec_renamed);
  g_test_add_func ("/pt2/archive", test_archive);
  g_test_add_func ("/pt2/crc", test_crc);
  g_test_add_func ("/pt2/mapped", test_mapped);
  g_test_add_func ("/pt2/mapped-changed", test_mapped_changed);
  g_test_add_func ("/pt2/old-torch", test_old_torch);
  g_test_add_func ("/pt2/sympy", test_sympy);
  g_test_add_func ("/pt2/parts", test_parts);
  g_test_add_func ("/pt2/values-ahead", test_values_ahead);
  g_test_add_func ("/pt2/values-ahead-empty", test_values_ahead_empty);
  g_test_add_func ("/pt2/parts-adversarial", test_parts_adversarial);
  g_test_add_func ("/pt2/parts-trees", test_parts_trees);
  g_test_add_func ("/pt2/shared-metas", test_shared_metas);
  g_test_add_func ("/pt2/shared-strings", test_shared_strings);
  g_test_add_func ("/pt2/key-cache-lengths", test_key_cache_lengths);
  g_test_add_func ("/pt2/shared-metas-random", test_shared_metas_random);
  g_test_add_func ("/pt2/parts-give-up", test_parts_give_up);
  g_test_add_func ("/pt2/parts-threshold", test_parts_threshold);
  return g_test_run ();
}
