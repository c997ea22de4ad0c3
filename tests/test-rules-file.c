/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-rules-file.c: the texts the editor makes of rules files
 * (graft-pass.c): one definition with what it uses, on its own
 * (graft_pass_dup_definition(): a base class and a helper come along, in
 * file order), and a rules file written from such texts
 * (graft_rules_file_write()), which graft_input_set_load_rules() reads
 * back into the same rules, a rule left out as a comment in `RULES`;
 * a name two texts define differently is a located error.
 */
#include "config.h"

#include "graft.h"

#include <glib/gstdio.h>
#include <string.h>

#define RULES_FILE                     \
  "import torch\n"                     \
  "import operator\n"                  \
  "\n"                                 \
  "\n"                                 \
  "def helper(x):\n"                   \
  "    return torch.relu(x)\n"         \
  "\n"                                 \
  "\n"                                 \
  "class Base(torch.nn.Module):\n"     \
  "    def forward(self, x):\n"        \
  "        return helper(x)\n"         \
  "\n"                                 \
  "\n"                                 \
  "class Twice(Base):\n"               \
  "    def forward(self, x):\n"        \
  "        return helper(helper(x))\n" \
  "\n"                                 \
  "\n"                                 \
  "def once(x):\n"                     \
  "    return torch.relu(x)\n"         \
  "\n"                                 \
  "\n"                                 \
  "def add(a, b):\n"                   \
  "    return operator.add(a, b)\n"    \
  "\n"                                 \
  "\n"                                 \
  "def torch_add(a, b):\n"             \
  "    return torch.add(a, b)\n"       \
  "\n"                                 \
  "\n"                                 \
  "RULES = [(Twice, once), (add, torch_add)]\n"

static void
test_dup_definition (void)
{
  g_autoptr (GraftSource) source = graft_source_new ("rules.py", RULES_FILE, -1);
  g_autoptr (GError) error = NULL;
  g_autofree char *twice = graft_pass_dup_definition (source, "Twice", &error);
  g_autofree char *add = NULL;
  g_autofree char *missing = NULL;
  guint            line = 0;
  guint            column = 0;

  g_assert_no_error (error);
  g_assert_cmpstr (twice, ==,
                   "import torch\n"
                   "\n"
                   "\n"
                   "def helper(x):\n"
                   "    return torch.relu(x)\n"
                   "\n"
                   "\n"
                   "class Base(torch.nn.Module):\n"
                   "    def forward(self, x):\n"
                   "        return helper(x)\n"
                   "\n"
                   "\n"
                   "class Twice(Base):\n"
                   "    def forward(self, x):\n"
                   "        return helper(helper(x))\n");
  add = graft_pass_dup_definition (source, "add", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (add, ==,
                   "import operator\n"
                   "\n"
                   "\n"
                   "def add(a, b):\n"
                   "    return operator.add(a, b)\n");
  /* A name like none of the file's is placed at the file (1:1), not at
   * its first definition; a misspelled one at the definition meant. */
  missing = graft_pass_dup_definition (source, "nothing", &error);
  g_assert_null (missing);
  g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_NAME);
  g_assert_true (graft_error_get_location (error, NULL, &line, &column, NULL, NULL));
  g_assert_cmpuint (line, ==, 1);
  g_assert_cmpuint (column, ==, 1);
  g_clear_error (&error);
  missing = graft_pass_dup_definition (source, "torch_ad", &error);
  g_assert_null (missing);
  g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_NAME);
  g_assert_true (graft_error_get_location (error, NULL, &line, &column, NULL, NULL));
  g_assert_cmpuint (line, ==, 27);
  g_assert_cmpuint (column, ==, 5);
}

/* Each rule as the editor holds it: texts of their own, from the file. */
static void
test_write_reads_back (void)
{
  static const char *const names[][2] = { { "Twice", "once" }, { "add", "torch_add" } };
  g_autoptr (GraftSource) source = graft_source_new ("rules.py", RULES_FILE, -1);
  g_autofree char *dir = g_dir_make_tmp ("graft-rules-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "saved.py", NULL);
  g_autoptr (GPtrArray) sources =
      g_ptr_array_new_with_free_func ((GDestroyNotify) graft_source_unref);
  g_autoptr (GraftInputSet) inputs = graft_input_set_new (graft_dialect_get_default ());
  g_autoptr (GraftRuleSet) rules = NULL;
  g_autoptr (GPtrArray) refs = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  GraftPassRule    pass_rules[2];
  gboolean         left_out[2] = { FALSE, TRUE };

  for (guint i = 0; i < 2; i++)
    for (guint k = 0; k < 2; k++)
      {
        g_autofree char *def = graft_pass_dup_definition (source, names[i][k], &error);

        g_assert_no_error (error);
        g_ptr_array_add (sources, graft_source_new (names[i][k], def, -1));
      }
  for (guint i = 0; i < 2; i++)
    {
      pass_rules[i].pattern_source = sources->pdata[2 * i];
      pass_rules[i].pattern = names[i][0];
      pass_rules[i].replacement_source = sources->pdata[2 * i + 1];
      pass_rules[i].replacement = names[i][1];
    }

  /* Both in RULES: the file is the original's statements, once each. */
  text = graft_rules_file_write (pass_rules, 2, NULL, "Written by a test", &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (text, "# Written by a test\nimport torch\nimport operator\n\n\n"
                                         "def helper(x):\n"));
  g_assert_true (
      g_str_has_suffix (text, "RULES = [\n    (Twice, once),\n    (add, torch_add),\n]\n"));
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  rules = graft_input_set_load_rules (inputs, path, &refs, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (graft_rule_set_get_n_rules (rules), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      GraftPyRuleRef *ref = refs->pdata[i];

      g_assert_cmpstr (ref->pattern_entry, ==, names[i][0]);
      g_assert_cmpstr (ref->replacement_entry, ==, names[i][1]);
    }
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&rules, graft_rule_set_free);
  g_clear_pointer (&refs, g_ptr_array_unref);
  g_clear_pointer (&inputs, graft_input_set_free);

  /* The second left out: a comment in RULES, its definitions kept. */
  text = graft_rules_file_write (pass_rules, 2, left_out, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "def torch_add(a, b):"));
  g_assert_true (g_str_has_suffix (text, "    (Twice, once),\n    # (add, torch_add),\n]\n"));
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  inputs = graft_input_set_new (graft_dialect_get_default ());
  rules = graft_input_set_load_rules (inputs, path, &refs, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (graft_rule_set_get_n_rules (rules), ==, 1);
  g_unlink (path);
  g_rmdir (dir);
}

/* Two texts that define one name differently cannot share a file. */
static void
test_write_conflict (void)
{
  g_autoptr (GraftSource) a = graft_source_new ("a", "def f(x):\n    return x.relu()\n", -1);
  g_autoptr (GraftSource) b = graft_source_new ("b", "def f(x):\n    return x.sigmoid()\n", -1);
  g_autoptr (GraftSource) r = graft_source_new ("r", "def g(x):\n    return x.tanh()\n", -1);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  GraftPassRule    rules[2] = { { a, "f", r, "g" }, { b, "f", r, "g" } };

  text = graft_rules_file_write (rules, 2, NULL, NULL, &error);
  g_assert_null (text);
  g_assert_error (error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_NAME);
  g_assert_nonnull (strstr (error->message, "'f' is defined differently"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/rules-file/dup-definition", test_dup_definition);
  g_test_add_func ("/core/rules-file/write-reads-back", test_write_reads_back);
  g_test_add_func ("/core/rules-file/write-conflict", test_write_conflict);
  return g_test_run ();
}
