/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-program-text.c: the readers of the two texts torch 2.6 prints for a
 * torch.export program (graft-program-text.c).  For every sample NAME of
 * tests/data/program-text (tests/tools/gen-program-text-data.py) and of
 * the golden corpus tests/data/programs, NAME.ep.txt (`print(ep)`) and
 * NAME.readable.txt (`print_readable()`) must read into the graph whose
 * code and listing are what torch printed for the archive they came from
 * (NAME.torch26.code, NAME.torch26.graph), with the metadata that prints
 * the text's annotations and source comments again (the readable form
 * graft_codegen_readable() prints is the print_readable text), and for `print(ep)`
 * text the graph signature and range constraints it shows.  The located
 * errors of tests/data/program-text-errors (NAME.txt, NAME.errors; checked
 * by hand, GRAFT_TEST_REGENERATE=1 rewrites them for review), detection
 * (no Python input of the test data becomes a program), and the rules of
 * each construct are checked too.
 */
#include "config.h"

#include "graft-view.h"

#include <string.h>

static const GraftDialect *
torch26 (void)
{
  return graft_dialect_get (GRAFT_TORCH_2_6);
}

static GraftGraph *
parse_text (const char *text,
            GError    **error)
{
  g_autoptr (GraftSource) source = graft_source_new ("t.txt", text, -1);

  return graft_input_load_graph (source, torch26 (), NULL, error);
}

static GraftGraph *
parse_ok (const char *text)
{
  g_autoptr (GError) error = NULL;
  GraftGraph *graph = parse_text (text, &error);

  g_assert_no_error (error);
  g_assert_nonnull (graph);
  g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFAULT, NULL));
  return graph;
}

/* The message of the error @text gives, as the CLI prints it. */
static char *
parse_error (const char *text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = parse_text (text, &error);

  g_assert_null (graph);
  g_assert_nonnull (error);
  return graft_error_format (error, "t.txt");
}

/* ------------------------------------------------------------------ */
/* What torch prints, again, from the graph                           */
/* ------------------------------------------------------------------ */

/* `name: "ann"` or `name`, as readable code starts a line or a parameter. */
static void
append_annotated (GString    *out,
                  const char *name,
                  GraftNode  *node)
{
  g_autofree char *ann = graft_node_meta_dup_annotation (graft_node_get_meta (node), TRUE, TRUE);

  g_string_append (out, name);
  if (ann != NULL)
    g_string_append_printf (out, ": \"%s\"", ann);
}

/* The lines of readable code that come from the metadata: the def line,
 * and per node its source comment (torch's `append_stacktrace_summary`)
 * and the start of its line up to ` = `. */
static char *
metadata_lines (GraftGraph *graph)
{
  g_autoptr (GString) out = g_string_new ("def forward(self");
  const char *previous = NULL;
  gboolean    started = FALSE;

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      const GraftNodeMeta *meta = graft_node_get_meta (node);
      const char          *trace = meta != NULL ? meta->stack_trace : NULL;

      switch (graft_node_get_op (node))
        {
        case GRAFT_OP_PLACEHOLDER:
          g_string_append (out, ", ");
          append_annotated (out, graft_node_get_target (node), node);
          if (graft_node_get_args (node)->n > 0)
            {
              g_autofree char *repr =
                  graft_arg_repr (&graft_node_get_args (node)->items[0], GRAFT_REPR_CODE);

              g_string_append_printf (out, " = %s", repr);
            }
          continue;
        case GRAFT_OP_OUTPUT:
          continue;
        case GRAFT_OP_GET_ATTR:
        case GRAFT_OP_CALL_FUNCTION:
        case GRAFT_OP_CALL_METHOD:
        case GRAFT_OP_CALL_MODULE:
        default:
          break;
        }
      if (!started)
        {
          g_string_append (out, "):\n");
          started = TRUE;
        }
      if (trace != NULL && *trace != '\0')
        {
          if (previous == NULL || strcmp (trace, previous) != 0)
            {
              g_autoptr (GString) summary = g_string_new ("# ");

              previous = trace;
              graft_stack_trace_summarize (trace, summary);
              g_strchomp (summary->str);
              g_string_append_printf (out, "%s\n", summary->str);
            }
        }
      else if (previous == NULL || *previous != '\0')
        {
          previous = "";
          g_string_append (out, "# No stacktrace found for following nodes\n");
        }
      append_annotated (out, graft_node_get_name (node), node);
      g_string_append (out, " =\n");
    }
  if (!started)
    g_string_append (out, "):\n");
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* The same lines, read from a print_readable text: the def line, comments,
 * and node lines cut after their name and annotation. */
static char *
metadata_lines_of_text (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (GString) out = g_string_new (NULL);
  gboolean in_forward = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char       *line = g_strstrip (lines[i]);
      const char *cut;

      if (g_str_has_prefix (line, "def forward("))
        {
          g_assert_false (in_forward);
          in_forward = TRUE;
          g_string_append_printf (out, "%s\n", line);
          continue;
        }
      if (!in_forward || *line == '\0')
        continue;
      if (g_str_has_prefix (line, "return "))
        break;
      if (*line == '#')
        {
          g_string_append_printf (out, "%s\n", line);
          continue;
        }
      cut = strstr (line, ": \"");
      cut = cut != NULL && cut < strstr (line, " = ") ? strstr (strchr (cut + 3, '"'), " = ")
                                                      : strstr (line, " = ");
      g_assert_nonnull (cut);
      g_string_append_printf (out, "%.*s =\n", (int) (cut - line), line);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* torch's repr of the graph signature (graph_signature.py's dataclasses). */
static char *
signature_repr (GraftProgram *program)
{
  g_autoptr (GString) out = g_string_new ("ExportGraphSignature(input_specs=[");

  for (guint i = 0; i < graft_program_get_n_inputs (program); i++)
    {
      const GraftInputSpec *spec = graft_program_get_input (program, i);

      g_string_append_printf (out, "%sInputSpec(kind=<InputKind.%s: %d>, arg=%s(name=",
                              i > 0 ? ", " : "", graft_input_spec_kind_to_string (spec->kind),
                              (int) spec->kind + 1,
                              spec->argument != NULL ? spec->argument : "TensorArgument");
      graft_append_str_repr (out, spec->name, strlen (spec->name));
      if (spec->value != NULL)
        g_string_append_printf (out, ", value=%s", spec->value);
      g_string_append (out, "), target=");
      if (spec->target != NULL)
        graft_append_str_repr (out, spec->target, strlen (spec->target));
      else
        g_string_append (out, "None");
      g_string_append_printf (out, ", persistent=%s)",
                              spec->persistent < 0    ? "None"
                              : spec->persistent == 1 ? "True"
                                                      : "False");
    }
  g_string_append (out, "], output_specs=[");
  for (guint i = 0; i < graft_program_get_n_outputs (program); i++)
    {
      const GraftOutputSpec *spec = graft_program_get_output (program, i);

      g_string_append_printf (out, "%sOutputSpec(kind=<OutputKind.%s: %d>, arg=%s(name=",
                              i > 0 ? ", " : "", graft_output_spec_kind_to_string (spec->kind),
                              (int) spec->kind + 1,
                              spec->argument != NULL ? spec->argument : "TensorArgument");
      graft_append_str_repr (out, spec->name, strlen (spec->name));
      if (spec->value != NULL)
        g_string_append_printf (out, ", value=%s", spec->value);
      g_string_append (out, "), target=");
      if (spec->target != NULL)
        graft_append_str_repr (out, spec->target, strlen (spec->target));
      else
        g_string_append (out, "None");
      g_string_append (out, ")");
    }
  g_string_append (out, "])");
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* The text of the line of @text that starts with @prefix, after it. */
static char *
line_after (const char *text,
            const char *prefix)
{
  const char *p = strstr (text, prefix);
  const char *nl;

  g_assert_nonnull (p);
  p += strlen (prefix);
  nl = strchr (p, '\n');
  return nl != NULL ? g_strndup (p, nl - p) : g_strdup (p);
}

/* ------------------------------------------------------------------ */
/* Samples                                                             */
/* ------------------------------------------------------------------ */

typedef struct
{
  char *dir;  /* under tests/data */
  char *name; /* NAME */
  char *form; /* "ep" or "readable" */
} Sample;

static void
sample_free (gpointer data)
{
  Sample *s = data;

  g_free (s->dir);
  g_free (s->name);
  g_free (s->form);
  g_free (s);
}

static char *
sample_path (const Sample *s,
             const char   *suffix)
{
  g_autofree char *file = g_strconcat (s->name, suffix, NULL);

  return g_test_build_filename (G_TEST_DIST, "data", s->dir, file, NULL);
}

static char *
read_file (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* The sample reads into the graph torch holds: code, listing, metadata,
 * signature; in 1.13 it is refused. */
static void
test_sample (gconstpointer data)
{
  const Sample    *s = data;
  gboolean         exported = strcmp (s->form, "ep") == 0;
  g_autofree char *suffix = g_strconcat (".", s->form, ".txt", NULL);
  g_autofree char *path = sample_path (s, suffix);
  g_autofree char *code_path = sample_path (s, ".torch26.code");
  g_autofree char *graph_path = sample_path (s, ".torch26.graph");
  g_autofree char *readable_path = sample_path (s, ".readable.txt");
  g_autofree char *want_code = read_file (code_path);
  g_autofree char *want_graph = read_file (graph_path);
  g_autofree char *readable = read_file (readable_path);
  g_autofree char *text = read_file (path);
  g_autofree char *code = NULL, *listing = NULL, *got_meta = NULL, *want_meta = NULL;
  g_autofree char *printed = NULL, *want_readable = NULL;
  g_autofree char *message = NULL, *want_message = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftGraph) old = NULL;
  GraftProgram *program;

  source = graft_source_new (suffix + 1, text, -1);
  g_assert_cmpint (graft_input_detect (source), ==,
                   exported ? GRAFT_INPUT_EXPORTED_PROGRAM : GRAFT_INPUT_READABLE_PROGRAM);
  graph = graft_input_load_graph (source, torch26 (), NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (graph);
  g_assert_true (graft_graph_lint (graph, GRAFT_LINT_DEFINED_BEFORE_USE, NULL));

  code = graft_codegen_python (graph);
  g_strstrip (code);
  g_strstrip (want_code);
  g_assert_cmpstr (code, ==, want_code);
  listing = graft_listing_print (graph);
  g_strstrip (listing);
  g_strstrip (want_graph);
  g_assert_cmpstr (listing, ==, want_graph);

  got_meta = metadata_lines (graph);
  want_meta = metadata_lines_of_text (readable);
  g_assert_cmpstr (got_meta, ==, want_meta);
  /* And the whole of it, as `--to readable` prints it. */
  printed = graft_codegen_readable (graph);
  g_strstrip (printed);
  want_readable = g_strstrip (g_strdup (readable));
  g_assert_cmpstr (printed, ==, want_readable);

  g_assert_cmpstr (graft_graph_get_module_name (graph), ==, "GraphModule");
  program = graft_graph_get_program (graph);
  g_assert_nonnull (program);
  if (exported)
    {
      g_autofree char *signature = signature_repr (program);
      g_autofree char *want_signature = line_after (text, "\nGraph signature: ");
      g_autofree char *want_ranges = line_after (text, "\nRange constraints: ");

      g_assert_cmpstr (signature, ==, want_signature);
      g_assert_cmpstr (graft_program_get_range_constraints (program), ==, want_ranges);
    }
  else
    {
      g_assert_cmpuint (graft_program_get_n_inputs (program), ==, 0);
      g_assert_cmpuint (graft_program_get_n_outputs (program), ==, 0);
      g_assert_null (graft_program_get_range_constraints (program));
    }

  old = graft_input_load_graph (source, graft_dialect_get (GRAFT_TORCH_1_13), NULL, &error);
  g_assert_null (old);
  message = graft_error_format (error, NULL);
  want_message = g_strconcat (suffix + 1, ":1:1: error: ", GRAFT_PROGRAM_NEEDS_TORCH_2_6, NULL);
  g_assert_cmpstr (message, ==, want_message);
}

/* Registers the samples of tests/data/@dir (NAME.torch26.code with
 * NAME.ep.txt and NAME.readable.txt). */
static guint
add_samples (const char *dir)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", dir, NULL);
  g_autoptr (GDir) d = g_dir_open (path, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *file;

  if (d == NULL)
    return 0;
  while ((file = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (file, ".torch26.code"))
      g_ptr_array_add (names, g_strndup (file, strlen (file) - strlen (".torch26.code")));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < names->len; i++)
    for (guint f = 0; f < 2; f++)
      {
        Sample          *s = g_new0 (Sample, 1);
        g_autofree char *test = NULL;

        s->dir = g_strdup (dir);
        s->name = g_strdup (names->pdata[i]);
        s->form = g_strdup (f == 0 ? "ep" : "readable");
        {
          g_autofree char *suffix = g_strconcat (".", s->form, ".txt", NULL);
          g_autofree char *text_path = sample_path (s, suffix);

          if (!g_file_test (text_path, G_FILE_TEST_EXISTS))
            {
              sample_free (s);
              continue;
            }
        }
        test = g_strdup_printf ("/program-text/%s/%s/%s", dir, s->name, s->form);
        g_test_add_data_func_full (test, s, test_sample, sample_free);
      }
  return names->len;
}

/* Both texts of a program read into the same graph. */
static void
test_forms_agree (void)
{
  g_autofree char *ep_path =
      g_test_build_filename (G_TEST_DIST, "data", "program-text", "values.ep.txt", NULL);
  g_autofree char *readable_path =
      g_test_build_filename (G_TEST_DIST, "data", "program-text", "values.readable.txt", NULL);
  g_autofree char *ep = read_file (ep_path);
  g_autofree char *readable = read_file (readable_path);
  g_autoptr (GraftGraph) a = parse_ok (ep);
  g_autoptr (GraftGraph) b = parse_ok (readable);
  g_autofree char *code_a = graft_codegen_python (a);
  g_autofree char *code_b = graft_codegen_python (b);
  g_autofree char *meta_a = metadata_lines (a);
  g_autofree char *meta_b = metadata_lines (b);

  g_assert_cmpstr (code_a, ==, code_b);
  g_assert_cmpstr (meta_a, ==, meta_b);
  g_assert_cmpuint (graft_program_get_n_inputs (graft_graph_get_program (a)), ==, 3);
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

static void
test_bad_input (gconstpointer data)
{
  const char      *name = data;
  g_autofree char *path =
      g_test_build_filename (G_TEST_DIST, "data", "program-text-errors", name, NULL);
  g_autofree char *stem = g_strndup (name, strrchr (name, '.') - name);
  g_autofree char *errors_name = g_strconcat (stem, ".errors", NULL);
  g_autofree char *errors_path =
      g_test_build_filename (G_TEST_DIST, "data", "program-text-errors", errors_name, NULL);
  g_autofree char *text = NULL, *message = NULL, *expected = NULL, *old_message = NULL;
  gsize            length;
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftGraph) old = NULL;
  GraftInputKind kind;

  g_assert_true (g_file_get_contents (path, &text, &length, NULL));
  source = graft_source_new (name, text, (gssize) length);
  kind = graft_input_detect (source);
  g_assert_true (kind == GRAFT_INPUT_EXPORTED_PROGRAM || kind == GRAFT_INPUT_READABLE_PROGRAM);
  graph = graft_input_load_graph (source, torch26 (), NULL, &error);
  g_assert_null (graph);
  g_assert_nonnull (error);
  {
    g_autofree char *line = graft_error_format (error, NULL);

    message = g_strconcat (line, "\n", NULL);
  }
  g_assert_true (g_regex_match_simple ("^[^:\\n]+:[0-9]+:[0-9]+: error: [^\\n]+\\n$", message, 0,
                                       0));
  if (g_strcmp0 (g_getenv ("GRAFT_TEST_REGENERATE"), "1") == 0)
    {
      g_autofree char *src_path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data",
                                                    "program-text-errors", errors_name, NULL);

      g_assert_true (g_file_set_contents (src_path, message, -1, NULL));
      return;
    }
  g_assert_true (g_file_get_contents (errors_path, &expected, NULL, NULL));
  g_assert_cmpstr (message, ==, expected);

  g_clear_error (&error);
  old = graft_input_load_graph (source, graft_dialect_get (GRAFT_TORCH_1_13), NULL, &error);
  g_assert_null (old);
  old_message = graft_error_format (error, NULL);
  g_assert_true (g_str_has_suffix (old_message, ":1:1: error: " GRAFT_PROGRAM_NEEDS_TORCH_2_6));
}

static guint
add_bad_inputs (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "program-text-errors", NULL);
  g_autoptr (GDir) d = g_dir_open (path, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  const char *file;

  g_assert_nonnull (d);
  while ((file = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (file, ".txt"))
      g_ptr_array_add (names, g_strdup (file));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *test = g_strdup_printf ("/program-text/error/%s", (char *) names->pdata[i]);

      g_test_add_data_func_full (test, names->pdata[i], test_bad_input, g_free);
    }
  return names->len;
}

/* ------------------------------------------------------------------ */
/* Detection                                                           */
/* ------------------------------------------------------------------ */

static void
check_python_files (const char *dir,
                    guint      *io_count)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        check_python_files (path, io_count);
      else if (g_str_has_suffix (name, ".py"))
        {
          g_autofree char *text = NULL;
          gsize            length;
          g_autoptr (GraftSource) source = NULL;
          GraftInputKind kind;

          g_assert_true (g_file_get_contents (path, &text, &length, NULL));
          source = graft_source_new (name, text, (gssize) length);
          kind = graft_input_detect (source);
          if (kind == GRAFT_INPUT_EXPORTED_PROGRAM || kind == GRAFT_INPUT_READABLE_PROGRAM)
            g_error ("%s is detected as a program's text", path);
          (*io_count)++;
        }
    }
}

/* Every Python input of the test data and the examples is still Python. */
static void
test_detect_python (void)
{
  g_autofree char *data = g_test_build_filename (G_TEST_DIST, "data", NULL);
  g_autofree char *examples =
      g_test_build_filename (G_TEST_DIST, "..", "data", "examples", NULL);
  guint count = 0;

  check_python_files (data, &count);
  check_python_files (examples, &count);
  g_assert_cmpuint (count, >=, 300);
}

static void
test_detect (void)
{
  static const struct
  {
    const char    *text;
    GraftInputKind kind;
  } cases[] = {
    { "ExportedProgram:\n    class GraphModule(torch.nn.Module):\n", GRAFT_INPUT_EXPORTED_PROGRAM },
    { "\n\n  ExportedProgram:\n", GRAFT_INPUT_EXPORTED_PROGRAM },
    { "\xEF\xBB\xBF"
      "ExportedProgram:\n",
      GRAFT_INPUT_EXPORTED_PROGRAM },
    { "class GraphModule(torch.nn.Module):\n    def forward(self, x: \"f32[2]\"):\n",
      GRAFT_INPUT_READABLE_PROGRAM },
    { "class G(torch.nn.Module):\n    def forward(self, x):\n"
      "         # File: m.py:3 in forward, code: y = x\n",
      GRAFT_INPUT_READABLE_PROGRAM },
    { "class G(torch.nn.Module):\n    def forward(self, x):\n        #\n",
      GRAFT_INPUT_READABLE_PROGRAM },
    { "class G(torch.nn.Module):\n    def forward(self, x):\n"
      "        # No stacktrace found for following nodes\n",
      GRAFT_INPUT_READABLE_PROGRAM },
    { "class G(torch.nn.Module):\n    def forward(self):\n"
      "        full: \"f32[2]\" = torch.ops.aten.full.default([2], 1.0)\n",
      GRAFT_INPUT_READABLE_PROGRAM },
    /* Python models. */
    { "class M(torch.nn.Module):\n    def forward(self, x):\n        return x.relu()\n",
      GRAFT_INPUT_PYTHON },
    { "class M(torch.nn.Module):\n    def forward(self, x):\n        # relu\n",
      GRAFT_INPUT_PYTHON },
    { "class M(nn.Module):\n    def forward(self, x: \"Tensor\"):\n", GRAFT_INPUT_PYTHON },
    { "import torch\nclass GraphModule(torch.nn.Module):\n    def forward(self, x: \"f32[2]\"):\n",
      GRAFT_INPUT_PYTHON },
    { "class M(torch.nn.Module):\n    def __init__(self):\n", GRAFT_INPUT_PYTHON },
    { "ExportedProgram = 1\n", GRAFT_INPUT_PYTHON },
    { "graph():\n    return None\n", GRAFT_INPUT_LISTING },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GraftSource) source = graft_source_new ("t", cases[i].text, -1);

      g_test_message ("case %u", i);
      g_assert_cmpint (graft_input_detect (source), ==, cases[i].kind);
    }
}

/* ------------------------------------------------------------------ */
/* Constructs                                                          */
/* ------------------------------------------------------------------ */

#define HEAD "class GraphModule(torch.nn.Module):\n    def forward(self, x: \"f32[2, 2]\"):\n"

static GraftNode *
node (GraftGraph *graph,
      const char *name)
{
  GraftNode *n = graft_graph_find_node (graph, name);

  g_assert_nonnull (n);
  return n;
}

static void
assert_target (GraftGraph *graph,
               const char *name,
               GraftOp     op,
               const char *target)
{
  GraftNode *n = node (graph, name);

  g_assert_cmpstr (graft_op_to_string (graft_node_get_op (n)), ==, graft_op_to_string (op));
  g_assert_cmpstr (graft_node_get_target (n), ==, target);
}

/* Names are kept as printed: `mm` is not traced into `mm_default`. */
static void
test_names_as_printed (void)
{
  g_autoptr (GraftGraph) graph =
      parse_ok (HEAD "         # File: m.py:3 in forward, code: return x @ x\n"
                     "        mm: \"f32[2, 2]\" = torch.ops.aten.mm.default(x, x);  x = None\n"
                     "        sum: \"f32[]\" = torch.ops.aten.sum.default(mm);  mm = None\n"
                     "        return (sum,)\n");
  g_autofree char *code = graft_codegen_python (graph);

  assert_target (graph, "mm", GRAFT_OP_CALL_FUNCTION, "torch.ops.aten.mm.default");
  assert_target (graph, "sum", GRAFT_OP_CALL_FUNCTION, "torch.ops.aten.sum.default");
  g_assert_nonnull (strstr (code, "    mm = torch.ops.aten.mm.default(x, x);  x = None\n"));
}

/* Each code form reads into the target that prints it again. */
static void
test_forms (void)
{
  static const struct
  {
    const char *line;
    GraftOp     op;
    const char *target;
  } cases[] = {
    { "a = x + 1", GRAFT_OP_CALL_FUNCTION, "operator.add" },
    { "a = 2 - x", GRAFT_OP_CALL_FUNCTION, "operator.sub" },
    { "a = x * x", GRAFT_OP_CALL_FUNCTION, "operator.mul" },
    { "a = x // 2", GRAFT_OP_CALL_FUNCTION, "operator.floordiv" },
    { "a = x / 2", GRAFT_OP_CALL_FUNCTION, "operator.truediv" },
    { "a = x % 2", GRAFT_OP_CALL_FUNCTION, "operator.mod" },
    { "a = x ** 2", GRAFT_OP_CALL_FUNCTION, "operator.pow" },
    { "a = x << 1", GRAFT_OP_CALL_FUNCTION, "operator.lshift" },
    { "a = x >> 1", GRAFT_OP_CALL_FUNCTION, "operator.rshift" },
    { "a = x & 1", GRAFT_OP_CALL_FUNCTION, "operator.and_" },
    { "a = x | 1", GRAFT_OP_CALL_FUNCTION, "operator.or_" },
    { "a = x ^ 1", GRAFT_OP_CALL_FUNCTION, "operator.xor" },
    { "a = x @ x", GRAFT_OP_CALL_FUNCTION, "operator.matmul" },
    { "a = x == 1", GRAFT_OP_CALL_FUNCTION, "operator.eq" },
    { "a = x != 1", GRAFT_OP_CALL_FUNCTION, "operator.ne" },
    { "a = x < 1", GRAFT_OP_CALL_FUNCTION, "operator.lt" },
    { "a = x > 1", GRAFT_OP_CALL_FUNCTION, "operator.gt" },
    { "a = x <= 1", GRAFT_OP_CALL_FUNCTION, "operator.le" },
    { "a = x >= 1", GRAFT_OP_CALL_FUNCTION, "operator.ge" },
    { "a = -x", GRAFT_OP_CALL_FUNCTION, "operator.neg" },
    { "a = +x", GRAFT_OP_CALL_FUNCTION, "operator.pos" },
    { "a = ~x", GRAFT_OP_CALL_FUNCTION, "operator.invert" },
    { "a = -1 * x", GRAFT_OP_CALL_FUNCTION, "operator.mul" },
    { "a = x[0]", GRAFT_OP_CALL_FUNCTION, "operator.getitem" },
    { "a = x[(slice(None, 1, None), 0)]", GRAFT_OP_CALL_FUNCTION, "operator.getitem" },
    { "a = _operator_abs(x)", GRAFT_OP_CALL_FUNCTION, "operator.abs" },
    { "a = getattr(x, 'shape', None)", GRAFT_OP_CALL_FUNCTION, "builtins.getattr" },
    { "a = x.shape", GRAFT_OP_CALL_FUNCTION, "builtins.getattr" },
    { "a = torch.sym_float(x)", GRAFT_OP_CALL_FUNCTION, "torch.sym_float" },
    { "a = torch.ops.higher_order.foo(x)", GRAFT_OP_CALL_FUNCTION, "torch.ops.higher_order.foo" },
    { "a = x.view(4)", GRAFT_OP_CALL_METHOD, "view" },
    { "a = self.sub(x)", GRAFT_OP_CALL_MODULE, "sub" },
    { "a = self.sub.lin(x)", GRAFT_OP_CALL_MODULE, "sub.lin" },
    { "a = self.weight", GRAFT_OP_GET_ATTR, "weight" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf (HEAD "        %s\n        return (a,)\n",
                                               cases[i].line);
      g_autoptr (GraftGraph) graph = parse_ok (text);
      g_autofree char *code = graft_codegen_python (graph);
      g_autofree char *want = g_strdup_printf ("    %s", cases[i].line);

      g_test_message ("%s", cases[i].line);
      assert_target (graph, "a", cases[i].op, cases[i].target);
      /* The code prints the line again (x is freed after it). */
      g_assert_nonnull (strstr (code, want));
    }
}

/* Argument values print back as torch printed them. */
static void
test_values (void)
{
  static const char *const values[] = {
    "1",
    "-3",
    "9223372036854775807",
    "123456789012345678901234567890",
    "1.5",
    "1e-05",
    "-2.5e+20",
    "inf",
    "-inf",
    "nan",
    "True",
    "False",
    "None",
    "'tanh'",
    "\"it's\"",
    "'a\\nb'",
    "[1, 2, [3, (4,)]]",
    "()",
    "(x, [x, None])",
    "torch.float32",
    "torch.contiguous_format",
    "torch.strided",
    "device(type='cpu')",
    "device(type='cuda', index=0)",
    "slice(None, 3, None)",
    "{'a': x}",
    "(1+2j)",
    "Ellipsis",
  };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *line = g_strdup_printf ("f = torch.ops.mylib.foo.default(x, %s, k = %s)",
                                               values[i], values[i]);
      g_autofree char *text = g_strdup_printf (HEAD "        %s\n        return (f,)\n", line);
      g_autoptr (GraftGraph) graph = parse_ok (text);
      g_autofree char *code = graft_codegen_python (graph);

      g_test_message ("%s", values[i]);
      g_assert_nonnull (strstr (code, line + strlen ("f = ")));
    }
}

/* Annotations are metadata: tensors, symbols, strides and devices. */
static void
test_annotations (void)
{
  g_autoptr (GraftGraph) graph =
      parse_ok ("class GraphModule(torch.nn.Module):\n"
                "    def forward(self, x: \"f32[s0, 4]\", n: \"Sym(s0)\", y, *args: \"i64[]\", "
                "k = 3):\n"
                "        # No stacktrace found for following nodes\n"
                "        a: \"bf16[2*s0, (s0//2)][4, 1]cuda:0\" = torch.ops.mylib.foo.default(x)\n"
                "        b: \"b8[]cpu\" = torch.ops.mylib.foo.default(a)\n"
                "        c = torch.ops.mylib.foo.default(b)\n"
                "        return (a, b, c)\n");
  const GraftNodeMeta *meta;

  meta = graft_node_get_meta (node (graph, "x"));
  g_assert_cmpint (meta->kind, ==, GRAFT_VALUE_TENSOR);
  g_assert_cmpstr (meta->dtype, ==, "f32");
  g_assert_cmpstr (meta->shape, ==, "[s0, 4]");
  g_assert_null (meta->stride);
  g_assert_null (meta->device);
  g_assert_null (meta->stack_trace);
  meta = graft_node_get_meta (node (graph, "n"));
  g_assert_cmpint (meta->kind, ==, GRAFT_VALUE_SYMBOL);
  g_assert_cmpstr (meta->symbol, ==, "s0");
  meta = graft_node_get_meta (node (graph, "y"));
  g_assert_cmpint (meta->kind, ==, GRAFT_VALUE_UNKNOWN);
  assert_target (graph, "args", GRAFT_OP_PLACEHOLDER, "*args");
  g_assert_cmpint (graft_node_get_args (node (graph, "k"))->items[0].i, ==, 3);
  meta = graft_node_get_meta (node (graph, "a"));
  g_assert_cmpstr (meta->dtype, ==, "bf16");
  g_assert_cmpstr (meta->shape, ==, "[2*s0, (s0//2)]");
  g_assert_cmpstr (meta->stride, ==, "[4, 1]");
  g_assert_cmpstr (meta->device, ==, "cuda:0");
  meta = graft_node_get_meta (node (graph, "b"));
  g_assert_cmpstr (meta->shape, ==, "[]");
  g_assert_null (meta->stride);
  g_assert_cmpstr (meta->device, ==, "cpu");
  meta = graft_node_get_meta (node (graph, "c"));
  g_assert_cmpint (meta->kind, ==, GRAFT_VALUE_UNKNOWN);
}

/* Source comments are stack traces that summarize to them; adjacent
 * groups with the same summary stay apart. */
static void
test_stack_traces (void)
{
  g_autoptr (GraftGraph) graph = parse_ok (
      HEAD "         # File: m.py:3 in helper, code: return x + 1\n"
           "        a = x + 1\n"
           "        b = a + 1\n"
           "        \n"
           "         # File: m.py:3 in helper, code: return x + 1\n"
           "        c = b + 1\n"
           "        \n"
           "         # File: m.py:3 in helper, code: return x + 1\n"
           "        d = c + 1\n"
           "        \n"
           "         # \n"
           "        e = d + 1\n"
           "        \n"
           "         # \n"
           "        f = e + 1\n"
           "        \n"
           "         # File: a \"b\", line 3, in c.py:12 in <lambda>, code: y = f(x, code: 1)\n"
           "        g = f + 1\n"
           "        \n"
           "         # File: m.py:9 in forward, code:\n"
           "        h = g + 1\n"
           "        return (h,)\n");
  g_autofree char *lines = metadata_lines (graph);
  const char      *ta = graft_node_get_meta (node (graph, "a"))->stack_trace;
  const char      *tb = graft_node_get_meta (node (graph, "b"))->stack_trace;
  const char      *tc = graft_node_get_meta (node (graph, "c"))->stack_trace;
  const char      *td = graft_node_get_meta (node (graph, "d"))->stack_trace;

  g_assert_cmpstr (ta, ==, "  File \"m.py\", line 3, in helper\n    return x + 1\n");
  g_assert_true (ta == tb || strcmp (ta, tb) == 0);
  g_assert_cmpstr (tc, !=, ta);
  g_assert_cmpstr (td, ==, ta);
  g_assert_cmpstr (graft_node_get_meta (node (graph, "e"))->stack_trace, ==, "\n");
  g_assert_cmpstr (graft_node_get_meta (node (graph, "f"))->stack_trace, ==, "\n\n");
  g_assert_cmpstr (lines, ==,
                   "def forward(self, x: \"f32[2, 2]\"):\n"
                   "# File: m.py:3 in helper, code: return x + 1\na =\nb =\n"
                   "# File: m.py:3 in helper, code: return x + 1\nc =\n"
                   "# File: m.py:3 in helper, code: return x + 1\nd =\n"
                   "#\ne =\n#\nf =\n"
                   "# File: a \"b\", line 3, in c.py:12 in <lambda>, code: y = f(x, code: 1)\ng =\n"
                   "# File: m.py:9 in forward, code:\nh =\n");
}

/* print_readable of a symbolically traced module (torch 2.6 printed both
 * texts): its call_module and call_method lines read too. */
static void
test_traced_module (void)
{
  g_autoptr (GraftGraph) graph =
      parse_ok ("class M(torch.nn.Module):\n"
                "    def forward(self, x):\n"
                "        # No stacktrace found for following nodes\n"
                "        lin = self.lin(x);  x = None\n"
                "        relu = lin.relu();  lin = None\n"
                "        return relu\n"
                "        \n");
  g_autofree char *code = graft_codegen_python (graph);

  g_strstrip (code);
  g_assert_cmpstr (code, ==,
                   "def forward(self, x):\n"
                   "    lin = self.lin(x);  x = None\n"
                   "    relu = lin.relu();  lin = None\n"
                   "    return relu");
  g_assert_cmpstr (graft_graph_get_module_name (graph), ==, "M");
}

/* A placeholder whose name is not its parameter; uses before definitions. */
static void
test_placeholders_and_order (void)
{
  g_autoptr (GraftGraph) graph =
      parse_ok ("class GraphModule(torch.nn.Module):\n"
                "    def forward(self, x: \"f32[2]\", y):\n"
                "        x_1 = x\n"
                "        a = torch.ops.aten.add.Tensor(x_1, b)\n"
                "        b = torch.ops.aten.relu.default(y)\n"
                "        return (a,)\n");
  GraftNode *x = node (graph, "x_1");

  assert_target (graph, "x_1", GRAFT_OP_PLACEHOLDER, "x");
  g_assert_null (graft_graph_find_node (graph, "x"));
  g_assert_true (graft_node_get_args (node (graph, "a"))->items[0].node == x);
  g_assert_true (graft_node_get_args (node (graph, "a"))->items[1].node == node (graph, "b"));
}

/* The signature and range constraints of `print(ep)` text. */
static void
test_signature (void)
{
  g_autoptr (GraftGraph) graph =
      parse_ok ("ExportedProgram:\n"
                "    class GraphModule(torch.nn.Module):\n"
                "        def forward(self, p_w: \"f32[2]\", b_n: \"i64[]\", c_k, x, flag):\n"
                "            # No stacktrace found for following nodes\n"
                "            mul: \"f32[2]\" = torch.ops.aten.mul.Tensor(x, p_w)\n"
                "            add: \"i64[]\" = torch.ops.aten.add.Tensor(b_n, 1)\n"
                "            return (add, mul, 3)\n"
                "            \n"
                "Graph signature: ExportGraphSignature(input_specs=["
                "InputSpec(kind=<InputKind.PARAMETER: 2>, arg=TensorArgument(name='p_w'), "
                "target='w', persistent=None), "
                "InputSpec(kind=<InputKind.BUFFER: 3>, arg=TensorArgument(name='b_n'), "
                "target='n', persistent=False), "
                "InputSpec(kind=<InputKind.CONSTANT_TENSOR: 4>, arg=TensorArgument(name='c_k'), "
                "target='k', persistent=None), "
                "InputSpec(kind=<InputKind.USER_INPUT: 1>, arg=TensorArgument(name='x'), "
                "target=None, persistent=None), "
                "InputSpec(kind=<InputKind.USER_INPUT: 1>, arg=ConstantArgument(name='flag', "
                "value=True), target=None, persistent=None)], output_specs=["
                "OutputSpec(kind=<OutputKind.BUFFER_MUTATION: 3>, arg=TensorArgument(name='add'), "
                "target='n'), "
                "OutputSpec(kind=<OutputKind.USER_OUTPUT: 1>, arg=TensorArgument(name='mul'), "
                "target=None), "
                "OutputSpec(kind=<OutputKind.USER_OUTPUT: 1>, arg=ConstantArgument(name='', "
                "value=3), target=None)])\n"
                "Range constraints: {s0: VR[2, int_oo]}\n");
  GraftProgram         *program = graft_graph_get_program (graph);
  const GraftInputSpec *in;

  g_assert_cmpuint (graft_program_get_n_inputs (program), ==, 5);
  in = graft_program_find_input (program, "b_n");
  g_assert_cmpint (in->kind, ==, GRAFT_INPUT_SPEC_BUFFER);
  g_assert_cmpstr (in->target, ==, "n");
  g_assert_cmpint (in->persistent, ==, 0);
  g_assert_null (in->argument);
  in = graft_program_find_input (program, "flag");
  g_assert_cmpstr (in->argument, ==, "ConstantArgument");
  g_assert_cmpstr (in->value, ==, "True");
  g_assert_cmpint (graft_program_get_output (program, 0)->kind, ==,
                   GRAFT_OUTPUT_SPEC_BUFFER_MUTATION);
  g_assert_cmpstr (graft_program_get_output (program, 2)->value, ==, "3");
  g_assert_cmpstr (graft_program_get_range_constraints (program), ==, "{s0: VR[2, int_oo]}");
}

/* Messages point at the offending text. */
static void
test_errors (void)
{
  static const struct
  {
    const char *body;
    const char *message;
  } cases[] = {
    { "        a = torch.ops.aten.nope.default(x)\n        return (a,)\n",
      "t.txt:3:13: error: unknown operator 'torch.ops.aten.nope.default': torch 2.6.0 has no "
      "such aten overload" },
    { "        a = torch.ops.aten.relu.default(z)\n        return (a,)\n",
      "t.txt:3:41: error: name 'z' is not defined" },
    { "        a = x + 1\n        a = x + 2\n        return (a,)\n",
      "t.txt:4:9: error: 'a' is already defined on line 3" },
    { "        a: \"f33[2]\" = x + 1\n        return (a,)\n",
      "t.txt:3:13: error: unknown dtype 'f33' in the annotation" },
    { "        a: \"f32(2)\" = x + 1\n        return (a,)\n",
      "t.txt:3:13: error: expected an annotation such as \"f32[2, 4]\" or \"Sym(s0)\"" },
    { "        a = x + 1\n", "t.txt:4:1: error: forward has no 'return' line" },
    { "        a = x + 1\n        return (a,)\n        b = a + 1\n",
      "t.txt:5:9: error: the 'return' line must be the last line of forward" },
    { "        # a comment\n        return (x,)\n",
      "t.txt:3:9: error: expected a source comment ('# File: FILE:LINE in NAME, code: CODE', "
      "'# ' or '# No stacktrace found for following nodes')" },
    { "        a = x + 1\n        b = a\n        return (b,)\n",
      "t.txt:4:13: error: expected a call or an operator, not a value alone" },
    { "        a = x + 1;  x = None = 2\n        return (a,)\n",
      "t.txt:3:32: error: expected the names of the values freed here ('a = b = None')" },
    { "        a = math.sqrt(x)\n        return (a,)\n",
      "t.txt:3:13: error: name 'math' is not defined" },
    { "        a = math_sqrt(x)\n        return (a,)\n",
      "t.txt:3:13: error: unknown function 'math_sqrt' (a call is of torch.*, an operator, a "
      "builtin, 'self.MODULE' or 'NODE.METHOD')" },
    { "        a = torch.ops.aten.relu.default(x, y = 1, x)\n        return (a,)\n",
      "t.txt:3:51: error: a positional argument after a keyword argument" },
    { "        None = x + 1\n        return (x,)\n",
      "t.txt:3:9: error: 'None' is reserved in Python and cannot name a node" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strconcat (HEAD, cases[i].body, NULL);
      g_autofree char *message = NULL;

      g_test_message ("%s", cases[i].body);
      message = parse_error (text);
      g_assert_cmpstr (message, ==, cases[i].message);
    }
}

/* Junk and truncations are errors, never crashes. */
static void
test_truncations (void)
{
  g_autofree char *path =
      g_test_build_filename (G_TEST_DIST, "data", "program-text", "values.ep.txt", NULL);
  g_autofree char *text = read_file (path);
  gsize            length = strlen (text);

  for (gsize n = 0; n < length; n += 7)
    {
      g_autoptr (GraftSource) source = graft_source_new ("t.txt", text, (gssize) n);
      g_autoptr (GError) error = NULL;
      g_autoptr (GraftGraph) graph = graft_program_text_parse (source, torch26 (), &error);

      g_assert_true ((graph == NULL) != (error == NULL));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_cmpuint (add_samples ("program-text"), >=, 10);
  add_samples ("programs");
  g_assert_cmpuint (add_bad_inputs (), >=, 10);
  g_test_add_func ("/program-text/forms-agree", test_forms_agree);
  g_test_add_func ("/program-text/detect", test_detect);
  g_test_add_func ("/program-text/detect-python", test_detect_python);
  g_test_add_func ("/program-text/names-as-printed", test_names_as_printed);
  g_test_add_func ("/program-text/forms", test_forms);
  g_test_add_func ("/program-text/values", test_values);
  g_test_add_func ("/program-text/annotations", test_annotations);
  g_test_add_func ("/program-text/stack-traces", test_stack_traces);
  g_test_add_func ("/program-text/traced-module", test_traced_module);
  g_test_add_func ("/program-text/placeholders-and-order", test_placeholders_and_order);
  g_test_add_func ("/program-text/signature", test_signature);
  g_test_add_func ("/program-text/errors", test_errors);
  g_test_add_func ("/program-text/truncations", test_truncations);
  return g_test_run ();
}
