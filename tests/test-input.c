/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-input.c: what a pattern or replacement editor reads of a text
 * (graft-input.c).  The entry of a text is its top-level function or
 * class named `pattern` (`replacement`), else its first top-level
 * function or class; a text with neither is an error at the definition
 * nested in a block, if any, else at 1:1.  Filling the editors from a
 * file copies the imports and the definition of `pattern` (`replacement`),
 * a function or a class, which then traces on its own.
 */
#include "config.h"

#include "graft-view.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

static char *
entry_of (const char *text,
          const char *name,
          GError    **error)
{
  g_autoptr (GraftSource) source = graft_source_new ("pattern", text, -1);

  return graft_input_dup_entry (source, name, error);
}

static void
test_entry_named (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *entry = NULL;

  /* The definition named as the editor is wins, function or class,
   * wherever it is. */
  entry = entry_of ("import torch\n\n\ndef helper(x):\n    return x\n\n\n"
                    "def pattern(x):\n    return helper(x).relu()\n",
                    "pattern", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (entry, ==, "pattern");
  g_free (entry);
  entry = entry_of ("import torch\n\n\ndef helper(x):\n    return x\n\n\n"
                    "class replacement(torch.nn.Module):\n"
                    "    def forward(self, x):\n        return x\n",
                    "replacement", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (entry, ==, "replacement");
}

static void
test_entry_first (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *entry = NULL;

  /* A text holding one class, or one function, needs no particular name. */
  entry = entry_of ("import torch\nfrom torch import nn\n\n\nclass BnRelu(nn.Module):\n"
                    "    def __init__(self):\n        super().__init__()\n"
                    "        self.bn1 = nn.BatchNorm2d(64)\n        self.relu = nn.ReLU()\n\n"
                    "    def forward(self, x):\n        return self.relu(self.bn1(x))\n",
                    "pattern", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (entry, ==, "BnRelu");
  g_free (entry);
  entry = entry_of ("import torch\n\n\ndef relu_add(a, b):\n    return torch.relu(a + b)\n",
                    "pattern", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (entry, ==, "relu_add");
  g_free (entry);
  /* Else the first of several. */
  entry = entry_of ("import torch\n\n\ndef first(a):\n    return a.relu()\n\n\n"
                    "class Second(torch.nn.Module):\n    pass\n",
                    "replacement", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (entry, ==, "first");
}

static void
assert_error (const char *text,
              const char *expected)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *entry = entry_of (text, "pattern", &error);
  g_autofree char *line = NULL;

  g_assert_null (entry);
  g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_NAME);
  line = graft_error_format (error, NULL);
  g_assert_cmpstr (line, ==, expected);
}

static void
test_entry_none (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *entry = NULL;

  assert_error ("import torch\n\nx = torch.relu\n",
                "pattern:1:1: error: define the pattern as a function or a torch.nn.Module class");
  assert_error ("", "pattern:1:1: error: define the pattern as a function or a torch.nn.Module "
                    "class");
  /* A definition in a block is pointed at. */
  assert_error ("import torch\n\nif True:\n    x = 1\nelse:\n"
                "    @torch.fx.wrap\n    def pattern(x):\n        return x\n",
                "pattern:6:5: error: 'pattern' is defined inside a block: define the pattern as a "
                "function or a torch.nn.Module class at the top level");
  assert_error ("try:\n    import torch\nexcept ImportError:\n    class M:\n        pass\n",
                "pattern:4:5: error: 'M' is defined inside a block: define the pattern as a "
                "function or a torch.nn.Module class at the top level");

  /* A syntax error is the parser's, located as always. */
  entry = entry_of ("def pattern(x:\n    return x\n", "pattern", &error);
  g_assert_null (entry);
  g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_SYNTAX);
}

/* A class entry traces into call_module nodes at its submodules' paths. */
static void
test_trace_class (void)
{
  g_autoptr (GraftSource) source =
      graft_source_new ("pattern",
                        "import torch\n\n\nclass BnRelu(torch.nn.Module):\n"
                        "    def __init__(self):\n        super().__init__()\n"
                        "        self.layer1 = torch.nn.Module()\n"
                        "        self.layer1.add_module(\"0\", torch.nn.Module())\n"
                        "        getattr(self.layer1, \"0\").bn1 = torch.nn.BatchNorm2d(64)\n"
                        "        getattr(self.layer1, \"0\").relu = torch.nn.ReLU()\n\n"
                        "    def forward(self, x):\n"
                        "        return getattr(self.layer1, \"0\").relu(\n"
                        "            getattr(self.layer1, \"0\").bn1(x))\n",
                        -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph =
      graft_input_trace_entry (source, graft_dialect_get_default (), "pattern", &error);
  g_autofree char *listing = NULL;

  g_assert_no_error (error);
  listing = graft_listing_print (graph);
  g_assert_cmpstr (listing, ==,
                   "graph():\n"
                   "    %x : [num_users=1] = placeholder[target=x]\n"
                   "    %layer1_0_bn1 : [num_users=1] = call_module[target=layer1.0.bn1](args = "
                   "(%x,), kwargs = {})\n"
                   "    %layer1_0_relu : [num_users=1] = call_module[target=layer1.0.relu](args = "
                   "(%layer1_0_bn1,), kwargs = {})\n"
                   "    return layer1_0_relu");
}

static char *
definition_of (const char *text,
               const char *name)
{
  g_autoptr (GraftSource) source = graft_source_new ("model.py", text, -1);

  return graft_input_dup_definition (source, name);
}

static const char model[] =
    "import torch\n"
    "from torch import nn\n"
    "\n"
    "\n"
    "class M(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.bn1 = nn.BatchNorm2d(3)\n"
    "        self.relu = nn.ReLU()\n"
    "\n"
    "    def forward(self, x):\n"
    "        return self.relu(self.bn1(x))\n"
    "\n"
    "\n"
    "class pattern(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.bn1 = nn.BatchNorm2d(3)\n"
    "        self.relu = nn.ReLU()\n"
    "\n"
    "    def forward(self, x):\n"
    "        return self.relu(self.bn1(x))\n"
    "\n"
    "\n"
    "def replacement(x):\n"
    "    return torch.relu(x)\n";

/* A file's own pattern and replacement fill the editors: a class comes
 * with the imports, as a function does, and traces on its own. */
static void
test_definition (void)
{
  g_autofree char *pattern = definition_of (model, "pattern");
  g_autofree char *replacement = definition_of (model, "replacement");
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpstr (pattern, ==,
                   "import torch\n"
                   "from torch import nn\n"
                   "\n"
                   "\n"
                   "class pattern(nn.Module):\n"
                   "    def __init__(self):\n"
                   "        super().__init__()\n"
                   "        self.bn1 = nn.BatchNorm2d(3)\n"
                   "        self.relu = nn.ReLU()\n"
                   "\n"
                   "    def forward(self, x):\n"
                   "        return self.relu(self.bn1(x))\n");
  g_assert_cmpstr (replacement, ==,
                   "import torch\n"
                   "from torch import nn\n"
                   "\n"
                   "\n"
                   "def replacement(x):\n"
                   "    return torch.relu(x)\n");
  source = graft_source_new ("pattern", pattern, -1);
  graph = graft_input_trace_entry (source, graft_dialect_get_default (), "pattern", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (graft_graph_get_n_nodes (graph), ==, 4);

  /* No such definition, or no Python: nothing to fill an editor with. */
  g_assert_null (definition_of (model, "Pattern"));
  g_assert_null (definition_of ("def pattern(:\n", "pattern"));
}

/* The classes --entry chooses between: those defining forward, in file
 * order, each once; nothing for other inputs. */
static void
test_models (void)
{
  g_autoptr (GraftSource) python = graft_source_new (
      "m.py",
      "import torch\n\n"
      "class A(torch.nn.Module):\n    def forward(self, x):\n        return x\n\n"
      "class Helper:\n    def run(self):\n        pass\n\n"
      "def forward(x):\n    return x\n\n"
      "class B(torch.nn.Module):\n    def forward(self, x):\n        return -x\n\n"
      "class A(torch.nn.Module):\n    def forward(self, x):\n        return x + 1\n",
      -1);
  g_autoptr (GraftSource) listing = graft_source_new (
      "g.txt", "graph():\n    %x : [num_users=1] = placeholder[target=x]\n    return x\n", -1);
  g_auto (GStrv) models = graft_input_dup_models (python);
  g_auto (GStrv) none = graft_input_dup_models (listing);

  g_assert_cmpuint (g_strv_length (models), ==, 2);
  g_assert_cmpstr (models[0], ==, "A");
  g_assert_cmpstr (models[1], ==, "B");
  g_assert_cmpuint (g_strv_length (none), ==, 0);
}

/* A text past GRAFT_MAX_INPUT_BYTES is refused at its first line, however
 * it is read (a regular file straight into its buffer). */
static void
test_too_large (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("graft-input-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autofree char *want = NULL;
  GraftSource     *source;
  FILE            *fp;

  g_assert_no_error (error);
  path = g_build_filename (dir, "big.py", NULL);
  fp = fopen (path, "wb");
  g_assert_nonnull (fp);
  /* Sparse: the file system stores none of its zeros. */
  g_assert_cmpint (fseek (fp, GRAFT_MAX_INPUT_BYTES, SEEK_SET), ==, 0);
  g_assert_cmpint (fputc ('x', fp), ==, 'x');
  g_assert_cmpint (fclose (fp), ==, 0);
  source = graft_input_read_file (path, &error);
  g_assert_null (source);
  g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_LIMIT);
  want =
      g_strdup_printf ("the input is larger than %u MiB", GRAFT_MAX_INPUT_BYTES / (1024u * 1024u));
  g_assert_cmpstr (error->message, ==, want);
  g_remove (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/input/entry-named", test_entry_named);
  g_test_add_func ("/core/input/entry-first", test_entry_first);
  g_test_add_func ("/core/input/entry-none", test_entry_none);
  g_test_add_func ("/core/input/trace-class", test_trace_class);
  g_test_add_func ("/core/input/definition", test_definition);
  g_test_add_func ("/core/input/models", test_models);
  g_test_add_func ("/core/input/too-large", test_too_large);
  return g_test_run ();
}
