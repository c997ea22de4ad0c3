/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-py-fast-line.c: the parser's fast path for simple statement lines
 * (graft-py-fast-line.c) must give the tree the usual way gives, node for
 * node and span for span, and leave every error to the usual way: each
 * input is parsed both ways and the dumps with spans, or the errors with
 * their locations, compared.  The inputs: lines written for each part of
 * the subset and its edges, every Python file of tests/data, and mutants
 * of the lines (a byte deleted, or one of the bytes that matter inserted,
 * at every position).
 */
#include "config.h"

#include "graft-view.h"

/* The fast path's switch and the dump with spans are internal to core. */
#define GRAFT_COMPILATION 1
#include "graft-py-ast-private.h"
#include "graft-py-fast-line-private.h"

#include <string.h>

/* The dump with spans of @text parsed with or without the fast path, or
 * its error with its code and location. */
static char *
parse_one_way (const char *text,
               gssize      len,
               gboolean    fast)
{
  g_autoptr (GraftSource) source = graft_source_new ("test.py", text, len);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPyModule) module = NULL;
  GString *out = g_string_new (NULL);
  guint    line = 0, column = 0, end_line = 0, end_column = 0;

  _graft_py_parser_set_fast_lines (fast);
  module = graft_py_parse (source, &error);
  _graft_py_parser_set_fast_lines (TRUE);
  if (module == NULL)
    {
      graft_error_get_location (error, NULL, &line, &column, &end_line, &end_column);
      g_string_append_printf (out, "%u:%u-%u:%u: [%d] %s", line, column, end_line, end_column,
                              error->code, error->message);
    }
  else
    _graft_py_ast_dump_spans (module, out);
  return g_string_free (out, FALSE);
}

/* Parses @text both ways and compares; returns how many lines the fast
 * path read. */
static guint
assert_same (const char *text,
             gssize      len)
{
  g_autofree char *usual = parse_one_way (text, len, FALSE);
  guint            before = _graft_py_parser_get_fast_lines_read ();
  g_autofree char *fast = parse_one_way (text, len, TRUE);

  if (g_strcmp0 (usual, fast) != 0)
    g_error ("the fast path differs on:\n%.*s\nusual: %s\nfast:  %s",
             len < 0 ? (int) strlen (text) : (int) len, text, usual, fast);
  return _graft_py_parser_get_fast_lines_read () - before;
}

/* Each line in a function body (as the model's forward is) and at the top
 * level, with how many lines of it the fast path must read. */
static const struct
{
  const char *text;
  guint       n_fast;
} cases[] = {
  /* In the subset */
  { "x = y\n", 1 },
  { "h1 = torch.relu(h0)\n", 1 },
  { "h2 = self.layers[0](h1)\n", 1 },
  { "h3 = h2 * self.scale + self.bias\n", 1 },
  { "h5 = h4.view(h4.shape[0], -1)\n", 1 },
  { "h6 = torch.cat([h5, w2], dim=1)[:, :16]\n", 1 },
  { "h7 = F.softmax(h6, dim=1) - w2\n", 1 },
  { "h9 = h8.permute(1, 0).permute(1, 0) * 0.5\n", 1 },
  { "h11 = h10.sum(dim=1, keepdim=True) + h10\n", 1 },
  { "x = x + torch.max(m1) + torch.max(m2)\n", 1 },
  { "m1 = torch.cat([val1, w2]).sum()\n", 1 },
  { "a = b = c\n", 1 },
  { "self.w = x\n", 1 },
  { "a[1:2, ::3, 4:] = -b\n", 1 },
  { "a = b[1:2:3]\n", 1 },
  { "a = b[::]\n", 1 },
  { "a = b[:]\n", 1 },
  { "a = b[1, 2,]\n", 1 },
  { "a = b[x, :]\n", 1 },
  { "a = (b + c) * d\n", 1 },
  { "a = (b)\n", 1 },
  { "a = ((b))\n", 1 },
  { "a = ()\n", 1 },
  { "a = []\n", 1 },
  { "a = [1, 2, 3,]\n", 1 },
  { "a = [[1], [2, [3]]]\n", 1 },
  { "a = - - + -1\n", 1 },
  { "a = 1 - 2 - 3 * 4 / 5 % 6 @ 7\n", 1 },
  { "a = b * (c - d) / e\n", 1 },
  { "f(x)\n", 1 },
  { "f(x, y, z=1, w=None)\n", 1 },
  { "f(x,)\n", 1 },
  { "f()\n", 1 },
  { "f(a=1,)\n", 1 },
  { "x = f(match=1, case=2, type=3, dim=dim)\n", 1 },
  { "f()()[0].x\n", 1 },
  { "x = None\n", 1 },
  { "x = True, \n", 0 },
  { "x = False\n", 1 },
  { "x = 0\n", 1 },
  { "x = 123456789012345678\n", 1 },
  { "x = 0.5\n", 1 },
  { "x = 10.25 + 3.0\n", 1 },
  { "x = 1 .real\n", 1 },
  { "x = y   \n", 1 },
  { "x=y+z*w\n", 1 },
  { "match = 1\n", 1 },
  { "matchx = 1\n", 1 },
  { "_ = __x__\n", 1 },
  { "type = case\n", 1 },
  /* Outside it: read the usual way */
  { "x = y  # comment\n", 0 },
  { "x = 'a'\n", 0 },
  { "x = b'a'\n", 0 },
  { "x = f(\n    y)\n", 0 },
  { "x = \\\n    y\n", 0 },
  { "x = y\r\n", 0 },
  { "x = y", 0 },
  { "x = y;\n", 0 },
  { "x = y; z = w\n", 0 },
  { "x\t= y\n", 0 },
  { "x = y, z\n", 0 },
  { "x, y = z\n", 0 },
  { "[x, y] = z\n", 0 },
  { "x += 1\n", 0 },
  { "x: int = 1\n", 0 },
  { "x = y == z\n", 0 },
  { "x = y < z\n", 0 },
  { "x = y if z else w\n", 0 },
  { "x = not y\n", 0 },
  { "x = y and z\n", 0 },
  { "x = y ** 2\n", 0 },
  { "x = y // 2\n", 0 },
  { "x = y << 2\n", 0 },
  { "x = ~y\n", 0 },
  { "x = y | z\n", 0 },
  { "x = {}\n", 0 },
  { "x = {a: b}\n", 0 },
  { "x = f(*a)\n", 0 },
  { "x = f(**a)\n", 0 },
  { "x = [*a]\n", 0 },
  { "x = f(a for a in b)\n", 0 },
  { "x = [a for a in b]\n", 0 },
  { "x = lambda: y\n", 0 },
  { "x = (y := 1)\n", 0 },
  { "x = (a, b)\n", 0 },
  { "x = y[...]\n", 0 },
  { "x = .5\n", 0 },
  { "x = 1.\n", 0 },
  { "x = 1e5\n", 0 },
  { "x = 3j\n", 0 },
  { "x = 0x1f\n", 0 },
  { "x = 1_000\n", 0 },
  { "x = 1234567890123456789\n", 0 },
  { "x = 9223372036854775807\n", 0 },
  { "x = -9223372036854775808\n", 0 },
  { "x = 1.5e3\n", 0 },
  { "x = 1.5j\n", 0 },
  { "x = 00.5\n", 0 },
  { "x = 1.5.real\n", 0 },
  { "x = y.None\n", 0 },
  { "x = yield y\n", 0 },
  { "x = await y\n", 0 },
  { "x = h\xc3\xa9\n", 0 },
  { "h\xc3\xa9 = 1\n", 0 },
  { "x = f(a=1, b)\n", 0 },
  /* A keyword argument's name is no keyword, whether the name was met
   * before or not (it is looked for in the memo of short names first). */
  { "x = f(None=1)\n", 0 },
  { "x = f(y, dim=1, if=2)\n", 0 },
  { "x = f(lambda=y)\n", 0 },
  { "x = f(continue=1, dim=2)\n", 0 },
  { "x = f((a)=1)\n", 0 },
  { "f() = 1\n", 0 },
  { "x + 1 = 2\n", 0 },
  { "x = \n", 0 },
  { "x = y z\n", 0 },
  { "x = f(a b)\n", 0 },
  { "x = y[]\n", 0 },
  { "x = y[1:2:3:4]\n", 0 },
  { "x = (\n", 0 },
  { "x = y)\n", 0 },
  { "x = [y)\n", 0 },
  { "x = y]\n", 0 },
  { "x = y.\n", 0 },
  { "x = y.1\n", 0 },
  { "x = f(x=)\n", 0 },
  { "x = 07\n", 0 },
  { "x = y = \n", 0 },
  { "print x\n", 0 },
  { "x = y\x00\n", 0 },
};

static void
check_case (const char *line,
            guint       n_fast)
{
  g_autofree char *module = g_strdup (line);
  g_autofree char *body = g_strdup_printf ("def f(x):\n    %s    return x\n", line);
  g_autofree char *nested = g_strdup_printf ("class M:\n    def forward(self):\n        if x:\n"
                                             "            %s\n        %s",
                                             line, line);

  g_assert_cmpuint (assert_same (module, -1), ==, n_fast);
  g_assert_cmpuint (assert_same (body, -1), ==, n_fast);
  assert_same (nested, -1);
}

/* Inside a class a private name (`__x`, not `__x__`) is mangled, which
 * the usual way does: the fast path reads a line with one outside a
 * class only, and its memo of short names, filled outside a class, must
 * not answer for one inside. */
static void
test_private_names (void)
{
  static const struct
  {
    const char *line;
    gboolean private;
  } lines[] = {
    { "y = self.__lin(x)\n", TRUE },
    { "self.__w = x\n", TRUE },
    { "__y = x\n", TRUE },
    { "y = f(x, __k=x)\n", TRUE },
    { "y = self.__a_long_private_name\n", TRUE },
    { "y = __x__ + x.__y__ + ___ + __\n", FALSE },
    { "y = _M__x + x._M__y\n", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      const char      *line = lines[i].line;
      guint            in_class = lines[i].private ? 0 : 1;
      g_autofree char *body = g_strdup_printf ("def f(x):\n    %s    return x\n", line);
      g_autofree char *method = g_strdup_printf ("class M:\n    def f(self):\n        %s", line);
      g_autofree char *after_top =
          g_strdup_printf ("%sclass M:\n    def f(self):\n        %s", line, line);
      g_autofree char *nested = g_strdup_printf ("class M:\n    def f(self):\n"
                                                 "        def g(x):\n            %s"
                                                 "        %s",
                                                 line, line);

      g_assert_cmpuint (assert_same (line, -1), ==, 1);
      g_assert_cmpuint (assert_same (body, -1), ==, 1);
      g_assert_cmpuint (assert_same (method, -1), ==, in_class);
      g_assert_cmpuint (assert_same (after_top, -1), ==, 1 + in_class);
      g_assert_cmpuint (assert_same (nested, -1), ==, 2 * in_class);
    }
}

static void
test_cases (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_case (cases[i].text, cases[i].n_fast);
}

/* The line after a fast line starts with a name read without the lexer's
 * call when it is at the block's indentation: every other first token,
 * and names the lexer's fast path leaves to its general path, must come
 * out as the lexer makes them. */
static void
test_next_line (void)
{
  static const char *const next[] = {
    "rb'x'\n",
    "b\"x\"\n",
    "f'{y}'\n",
    "u'x'\n",
    "Rb'x'\n",
    "bR'''x'''\n",
    "abc'x'\n",
    "h\xc3\xa9 = 1\n",
    "h\xc3 = 1\n",
    "return y\n",
    "if y:\n        y = 1\n",
    "match y:\n        case 1:\n            pass\n",
    "match(y)\n",
    "None\n",
    "True = 1\n",
    "_ = y\n",
    "y1 = y\n",
    "y\n",
    "y",
    "  y = 1\n",
    "        y = 1\n",
    "\ty = 1\n",
    "\f  y = 1\n",
    "# c\n",
    "\n",
    "1\n",
    "(y)\n",
    "y = (\n",
    "y = 'a\n",
    "yield y\n",
    "else:\n",
    "not y\n",
    "lambda: y\n",
  };
  static const char *const indents[] = { "", "    ", "\t", "  " };

  for (guint i = 0; i < G_N_ELEMENTS (next); i++)
    for (guint j = 0; j < G_N_ELEMENTS (indents); j++)
      {
        g_autofree char *body =
            g_strdup_printf ("def f(x):\n    y = x\n    %s%s", indents[j], next[i]);
        g_autofree char *tabs = g_strdup_printf ("def f(x):\n\ty = x\n\t%s%s", indents[j], next[i]);
        /* Eight spaces after a tab: as deep, but inconsistent. */
        g_autofree char *mixed =
            g_strdup_printf ("def f(x):\n\ty = x\n        %s%s", indents[j], next[i]);
        g_autofree char *top = g_strdup_printf ("y = x\n%s%s", indents[j], next[i]);
        g_autofree char *nested = g_strdup_printf ("class M:\n    def f(self):\n        y = x\n"
                                                   "        %s%s    z = 1\n",
                                                   indents[j], next[i]);

        assert_same (body, -1);
        assert_same (tabs, -1);
        assert_same (mixed, -1);
        assert_same (top, -1);
        assert_same (nested, -1);
      }
  /* A name longer than GRAFT_MAX_NAME_LENGTH is left to the usual way
   * (an error there), read first on its line or after a fast line. */
  {
    g_autofree char *name = g_strnfill (GRAFT_MAX_NAME_LENGTH + 1, 'y');
    g_autofree char *first = g_strdup_printf ("def f(x):\n    %s = x\n    y = x\n", name);
    g_autofree char *second = g_strdup_printf ("def f(x):\n    y = x\n    %s = x\n", name);
    g_autofree char *fits = g_strdup_printf ("def f(x):\n    y = x\n    %s = x\n", name + 1);

    g_assert_cmpuint (assert_same (first, -1), ==, 0);
    g_assert_cmpuint (assert_same (second, -1), ==, 1);
    g_assert_cmpuint (assert_same (fits, -1), ==, 2);
  }
}

/* Every byte deleted, and each of these inserted at every position: the
 * fast path gives up or reads the same tree, and every error is the usual
 * way's. */
static void
test_mutants (void)
{
  static const char inserted[] = "()[],.:=+-*/%@ 1a_\n\t#'\"\\{}<!~";

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf ("def f(x):\n    %s    y = x\n", cases[i].text);
      gsize            len = strlen (text);
      g_autofree char *mutant = g_malloc (len + 2);

      for (gsize at = 0; at < len; at++)
        {
          memcpy (mutant, text, at);
          memcpy (mutant + at, text + at + 1, len - at - 1);
          assert_same (mutant, len - 1);
          for (const char *c = inserted; *c != '\0'; c++)
            {
              memcpy (mutant, text, at);
              mutant[at] = *c;
              memcpy (mutant + at + 1, text + at, len - at);
              assert_same (mutant, len + 1);
            }
        }
    }
}

/* The files of tests/data: the fast path reads most of their lines. */
static void
scan_dir (const char *dir,
          guint      *n_files,
          guint      *n_fast)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *text = NULL;
      gsize            len;

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        scan_dir (path, n_files, n_fast);
      else if (g_str_has_suffix (name, ".py") && g_file_get_contents (path, &text, &len, NULL))
        {
          *n_fast += assert_same (text, len);
          (*n_files)++;
        }
    }
}

static void
test_data_files (void)
{
  g_autofree char *data = g_test_build_filename (G_TEST_DIST, "data", NULL);
  g_autofree char *examples = g_test_build_filename (G_TEST_DIST, "..", "data", "examples", NULL);
  guint            n_files = 0, n_fast = 0;

  scan_dir (data, &n_files, &n_fast);
  scan_dir (examples, &n_files, &n_fast);
  g_assert_cmpuint (n_files, >, 300);
  g_assert_cmpuint (n_fast, >, 2000);
}

/* bench-rewrite's module: all of its forward's lines but the return. */
static void
test_bench_module (void)
{
  GString         *text = g_string_new ("import torch\n\n\nclass M(torch.nn.Module):\n"
                                                "    def forward(self, x, w1, w2):\n");
  g_autofree char *s = NULL;

  for (guint k = 0; k < 50; k++)
    g_string_append (text, "        val1 = torch.neg(w1)\n"
                           "        m1 = torch.cat([val1, w2]).sum()\n"
                           "        val2 = torch.neg(w1)\n"
                           "        m2 = torch.cat([val2, w2]).sum()\n"
                           "        x = x + torch.max(m1) + torch.max(m2)\n");
  g_string_append (text, "        return x\n");
  s = g_string_free (text, FALSE);
  g_assert_cmpuint (assert_same (s, -1), ==, 250);
}

/* Floats of every length up to the fast path's own conversion's limit
 * and past it, the point at every place: each value the usual way's. */
static void
test_floats (void)
{
  GRand   *rand = g_rand_new_with_seed (20);
  GString *text = g_string_new ("def f(x):\n");
  guint    n_lines = 0;

  for (guint n_digits = 2; n_digits <= 20; n_digits++)
    for (guint point = 1; point < n_digits; point++)
      for (guint k = 0; k < 40; k++)
        {
          g_string_append (text, "    y = ");
          for (guint i = 0; i < n_digits; i++)
            {
              /* No leading zero but alone before the point. */
              guint d = i == 0 && point > 1 ? (guint) g_rand_int_range (rand, 1, 10)
                        : k == 0            ? 9u
                        : k == 1            ? 0u
                                            : (guint) g_rand_int_range (rand, 0, 10);

              if (i == point)
                g_string_append_c (text, '.');
              g_string_append_c (text, (char) ('0' + d));
            }
          g_string_append (text, " * x\n");
          n_lines++;
        }
  g_string_append (text, "    return y\n");
  g_assert_cmpuint (assert_same (text->str, text->len), ==, n_lines);
  g_string_free (text, TRUE);
  g_rand_free (rand);
}

/* A line with more tokens than the fast path takes, or nested deeper than
 * the parser allows, is left to the usual way. */
static void
test_limits (void)
{
  GString         *text = g_string_new ("x = f(");
  g_autofree char *deep = NULL;
  g_autofree char *s = NULL;

  for (guint i = 0; i < 200; i++)
    g_string_append (text, "a, ");
  g_string_append (text, ")\n");
  s = g_string_free (text, FALSE);
  g_assert_cmpuint (assert_same (s, -1), ==, 0);

  text = g_string_new ("x = ");
  for (guint i = 0; i < 40; i++)
    g_string_append (text, "(");
  g_string_append (text, "a");
  for (guint i = 0; i < 40; i++)
    g_string_append (text, ")");
  g_string_append (text, "\n");
  deep = g_string_free (text, FALSE);
  g_assert_cmpuint (assert_same (deep, -1), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/py-fast-line/cases", test_cases);
  g_test_add_func ("/core/py-fast-line/next-line", test_next_line);
  g_test_add_func ("/core/py-fast-line/private-names", test_private_names);
  g_test_add_func ("/core/py-fast-line/mutants", test_mutants);
  g_test_add_func ("/core/py-fast-line/data-files", test_data_files);
  g_test_add_func ("/core/py-fast-line/bench-module", test_bench_module);
  g_test_add_func ("/core/py-fast-line/limits", test_limits);
  g_test_add_func ("/core/py-fast-line/floats", test_floats);

  return g_test_run ();
}
