/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-trace-stream.c: the forward traced as it is read
 * (graft_py_program_new_traced()) against the usual way
 * (graft_py_program_new() then graft_py_program_trace()), and the
 * deferred body of graft_py_parse_deferring() against graft_py_parse().
 * Every case is traced both ways in both dialects; the code, or the
 * formatted error, must be the same byte for byte.  The cases are the
 * ones where reading as tracing could go wrong: a syntax error after a
 * trace error (Python compiles the whole file first), a name read before
 * the body binds it further down, a yield, a return before the end,
 * lambdas and defs in the body (whose trees must outlive their
 * statement), helpers defined after the class, and a forward that other
 * traces of the same program call again.
 */
#include "config.h"

#include "graft-view.h"

#include <string.h>

#define HEAD "import torch\nimport torch.nn as nn\n\n\n"

typedef struct
{
  const char *name;
  const char *text;
  const char *entry; /* or NULL */
} Case;

static const Case cases[] = {
  { "plain", HEAD "class M(nn.Module):\n"
                  "    def __init__(self):\n"
                  "        super().__init__()\n"
                  "        self.lin = nn.Linear(4, 4)\n\n"
                  "    def forward(self, x, w):\n"
                  "        a = self.lin(x) + w\n"
                  "        b = torch.relu(a); c = b * 2\n"
                  "        d = helper(c)\n"
                  "        return d + SCALE\n\n\n"
                  "def helper(t):\n"
                  "    return t.sum(1, keepdim=True)\n\n\n"
                  "SCALE = 3\n" },
  { "syntax_after_trace_error", HEAD "class M(nn.Module):\n"
                                     "    def forward(self, x):\n"
                                     "        y = undefined_name(x)\n"
                                     "        z = y + 1\n"
                                     "        w = z + * 2\n"
                                     "        return w\n" },
  { "syntax_after_class", HEAD "class M(nn.Module):\n"
                               "    def forward(self, x):\n"
                               "        y = undefined_name(x)\n"
                               "        return y\n\n\n"
                               "def later(:\n"
                               "    pass\n" },
  { "trace_error", HEAD "class M(nn.Module):\n"
                        "    def forward(self, x):\n"
                        "        y = x + 1\n"
                        "        if y:\n"
                        "            y = y * 2\n"
                        "        return y\n" },
  { "global_then_local", HEAD "y = 2\n\n\n"
                              "class M(nn.Module):\n"
                              "    def forward(self, x):\n"
                              "        z = x + y\n"
                              "        y = z * 2\n"
                              "        return y\n" },
  { "deleted_then_read", HEAD "z = 5\n\n\n"
                              "class M(nn.Module):\n"
                              "    def forward(self, x):\n"
                              "        z = x + 1\n"
                              "        del z\n"
                              "        return x + z\n" },
  { "global_statement", HEAD "k = 2\n\n\n"
                             "class M(nn.Module):\n"
                             "    def forward(self, x):\n"
                             "        a = x * k\n"
                             "        global k\n"
                             "        return a\n" },
  { "yield_late", HEAD "class M(nn.Module):\n"
                       "    def forward(self, x):\n"
                       "        a = x + 1\n"
                       "        b = a * 2\n"
                       "        yield b\n" },
  { "return_then_dead_code", HEAD "class M(nn.Module):\n"
                                  "    def forward(self, x):\n"
                                  "        a = x + 1\n"
                                  "        return a\n"
                                  "        b = a * 2\n"
                                  "        return b\n" },
  { "dead_code_syntax_error", HEAD "class M(nn.Module):\n"
                                   "    def forward(self, x):\n"
                                   "        a = x + 1\n"
                                   "        return a\n"
                                   "        b = a *\n" },
  { "dead_code_binds_name", HEAD "w = 3\n\n\n"
                                 "class M(nn.Module):\n"
                                 "    def forward(self, x):\n"
                                 "        return x + w\n"
                                 "        w = 4\n" },
  { "lambdas_and_defs", HEAD "class M(nn.Module):\n"
                             "    def forward(self, x):\n"
                             "        f = lambda t: t * 2\n"
                             "        a = f(x)\n"
                             "        def g(t):\n"
                             "            return t + 1\n"
                             "        b = [f(g(a)) for _ in range(3)]\n"
                             "        c = g(f(b[0])) + b[1] + b[2]\n"
                             "        class K:\n"
                             "            scale = 4\n"
                             "        return f(c) * K.scale\n" },
  { "compound_statements", HEAD "class M(nn.Module):\n"
                                "    def forward(self, x):\n"
                                "        for i in range(3):\n"
                                "            x = x + i\n"
                                "        if True:\n"
                                "            x = x * 2\n"
                                "        else:\n"
                                "            x = x - 1\n"
                                "        with torch.no_grad():\n"
                                "            y = x.relu()\n"
                                "        return y\n" },
  { "forward_calls_itself", HEAD "class M(nn.Module):\n"
                                 "    def forward(self, x, n=2):\n"
                                 "        if n == 0:\n"
                                 "            return x\n"
                                 "        return self.forward(x + 1, n - 1)\n" },
  { "inner_module", HEAD "class Block(nn.Module):\n"
                         "    def forward(self, x):\n"
                         "        return x.relu() + 1\n\n\n"
                         "class M(nn.Module):\n"
                         "    def __init__(self):\n"
                         "        super().__init__()\n"
                         "        self.a = Block()\n"
                         "        self.b = Block()\n\n"
                         "    def forward(self, x):\n"
                         "        return self.b(self.a(x))\n" },
  { "forward_overridden", HEAD "class M(nn.Module):\n"
                               "    def forward(self, x):\n"
                               "        return x + 1\n\n"
                               "    def forward(self, x):\n"
                               "        return x * 2\n" },
  { "second_class_named",
    HEAD "class A(nn.Module):\n"
         "    def forward(self, x):\n"
         "        return x + 1\n\n\n"
         "class B(nn.Module):\n"
         "    def forward(self, x):\n"
         "        return x * 2\n",
    "B" },
  { "entry_elsewhere_syntax",
    HEAD "class A(nn.Module):\n"
         "    def forward(self, x):\n"
         "        return x +\n\n\n"
         "def f(x):\n"
         "    return x - 1\n",
    "f" },
  { "unindent_mismatch", HEAD "class M(nn.Module):\n"
                              "    def forward(self, x):\n"
                              "        y = x + 1\n"
                              "      return y\n" },
  { "same_line_body", HEAD "class M(nn.Module):\n"
                           "    def forward(self, x): return x + 1\n" },
  { "tricky_text", HEAD "class M(nn.Module):\n"
                        "    def forward(self, x):\n"
                        "        \"\"\"A docstring with 'quotes', (brackets and\n"
                        "a line # that is not indented.\"\"\"\n"
                        "        s = 'a # not a comment ) ]'  # a comment ( [\n"
                        "        y = torch.cat([x,\n"
                        "  x], dim=0)\n"
                        "        z = y + \\\n"
                        "1\n"
                        "# a comment at column 0\n"
                        "\n"
                        "        t = \"it's\" + s; u = z * 2;\n"
                        "        return u\n"
                        "    # the class goes on\n"
                        "    def other(self):\n"
                        "        return 1\n" },
  { "tabs", HEAD "class M(nn.Module):\n"
                 "\tdef forward(self, x):\n"
                 "\t\ty = x + 1\n"
                 "\t\treturn y\n" },
  { "crlf", HEAD "class M(nn.Module):\r\n"
                 "    def forward(self, x):\r\n"
                 "        y = x + 1\r\n"
                 "        return y\r\n" },
  { "no_final_newline", HEAD "class M(nn.Module):\n"
                             "    def forward(self, x):\n"
                             "        if x is None:\n"
                             "            return x\n"
                             "        return x + 1" },
  { "unclosed_bracket_in_body",
    HEAD "class M(nn.Module):\n"
         "    def forward(self, x):\n"
         "        y = torch.cat([x, x]\n"
         "        return y\n" }, /* The end of the body is found from the indentation of its lines,
                                  * and the end of its last statement from its last line: cases
                                  * where the last line is not a statement on its own. */
  { "last_line_continued", HEAD "class M(nn.Module):\n"
                                "    def forward(self, x):\n"
                                "        y = torch.cat([x,\n"
                                "                       x], dim=0)\n\n"
                                "    def other(self):\n"
                                "        return 1\n" },
  { "last_line_strings", HEAD "class M(nn.Module):\n"
                              "    def forward(self, x):\n"
                              "        s = \"#;\"; t = '\\'' ; return x  ;  # 'c \" )\n"
                              "    # the class goes on\n"
                              "    def other(self):\n"
                              "        return 1\n" },
  { "last_line_in_string", HEAD "class M(nn.Module):\n"
                                "    def forward(self, x):\n"
                                "        s = '''text\n"
                                "    def inside(self): ('''\n"
                                "        return x\n\n"
                                "    def other(self):\n"
                                "        return 1\n" },
  { "last_line_backslash", HEAD "class M(nn.Module):\n"
                                "    def forward(self, x):\n"
                                "        return x + \\\n"
                                "            1\n"
                                "def after():\n"
                                "    return 2\n" },
  { "last_line_triple_closing", HEAD
    "class M(nn.Module):\n"
    "    def forward(self, x):\n"
    "        s = \"\"\"a\n"
    "        \"\"\"\n"
    "        return x\n" }, /* Skipped to the wrong place: the string's lines indented less than the
                             * body look like its end, and the rest of the file still parses. */
  { "string_at_lower_indent", HEAD "class M(nn.Module):\n"
                                   "    def forward(self, x):\n"
                                   "        return x\n"
                                   "        s = \"\"\"\n"
                                   "        a\n"
                                   "    \"\"\" + \"\"\"\n"
                                   "    b\"\"\"  # \"\"\"\n\n"
                                   "    def other(self):\n"
                                   "        return 1\n" },
  /* The names a streamed body binds are logged, a global statement
   * removing them: the last word about a name decides. */
  { "global_after_binding", HEAD "k = 2\n\n\n"
                                 "class M(nn.Module):\n"
                                 "    def forward(self, x):\n"
                                 "        a = x * k\n"
                                 "        k = 3\n"
                                 "        global k\n"
                                 "        return a\n" },
  { "bound_again_after_global", HEAD "k = 2\n\n\n"
                                     "class M(nn.Module):\n"
                                     "    def forward(self, x):\n"
                                     "        a = x * k\n"
                                     "        global k\n"
                                     "        k = 3\n"
                                     "        return a\n" },
  { "many_names_one_read_outside", HEAD "q = 2\n\n\n"
                                        "class M(nn.Module):\n"
                                        "    def forward(self, x):\n"
                                        "        h0 = x + 1\n"
                                        "        h1 = h0 * q\n"
                                        "        h2 = h1 - h0\n"
                                        "        h3 = h2 / 2\n"
                                        "        q = h3\n"
                                        "        return q\n" },
  /* A line binding one name is collected and run apart from others:
   * these are the ones it must leave to the general way. */
  { "yield_assigned", HEAD "class M(nn.Module):\n"
                           "    def forward(self, x):\n"
                           "        a = x + 1\n"
                           "        b = yield a\n"
                           "        return b\n" },
  { "yield_from_assigned", HEAD "class M(nn.Module):\n"
                                "    def forward(self, x):\n"
                                "        a = x + 1\n"
                                "        b = yield from a\n"
                                "        return b\n" },
  { "chained_and_tuple_targets", HEAD "u = 7\n\n\n"
                                      "class M(nn.Module):\n"
                                      "    def forward(self, x):\n"
                                      "        c = x + u\n"
                                      "        a = b = c * 2\n"
                                      "        d, u = a, b\n"
                                      "        return d + u\n" },
  { "name_bound_by_later_simple_line", HEAD "t = 1\n\n\n"
                                            "class M(nn.Module):\n"
                                            "    def forward(self, x):\n"
                                            "        a = x * t\n"
                                            "        b = a + 1; c = b\n"
                                            "        t = torch.neg(c)\n"
                                            "        return t\n" },
  /* The line shapes evaluated without a level per call and operator
   * (line_value()), and torch calls recorded once their check passed as
   * many traced values or one list of as many (ResolvedHead). */
  { "line_shapes", HEAD "class M(nn.Module):\n"
                        "    def forward(self, x, y):\n"
                        "        a = torch.neg(x)\n"
                        "        b = torch.cat([a, y]).sum()\n"
                        "        c = torch.cat([a, y, b]) + torch.cat([y, a])\n"
                        "        d = x + torch.neg(a) * torch.relu(b) - c @ y\n"
                        "        e = torch.neg(d).view(-1).size(0)\n"
                        "        f = torch.neg(x).T + torch.add(a, y) + torch.add(a, 2)\n"
                        "        g = torch.neg(x).__class__\n"
                        "        h = torch.neg(d).shape[0] + e\n"
                        "        return torch.relu(d + f) + h\n" },
  { "line_shapes_check_fails", HEAD "class M(nn.Module):\n"
                                    "    def forward(self, x, y):\n"
                                    "        a = torch.neg(x)\n"
                                    "        b = torch.cat([a, y])\n"
                                    "        c = torch.neg(a, b)\n"
                                    "        return c\n" },
  { "line_shapes_list_check_fails", HEAD "class M(nn.Module):\n"
                                         "    def forward(self, x, y):\n"
                                         "        a = torch.neg(x)\n"
                                         "        b = torch.cat([a, y]) * torch.neg(a)\n"
                                         "        c = torch.neg([a, b])\n"
                                         "        return c\n" },
  { "line_shapes_unbound", HEAD "q = 1\n\n\n"
                                "class M(nn.Module):\n"
                                "    def forward(self, x):\n"
                                "        a = torch.neg(x)\n"
                                "        b = x + torch.neg(a) * q\n"
                                "        q = torch.cat([a, b]).sum()\n"
                                "        return q\n" },
  { "line_shapes_module_shadowed", HEAD "class M(nn.Module):\n"
                                        "    def forward(self, x):\n"
                                        "        a = torch.neg(x)\n"
                                        "        torch = a\n"
                                        "        b = torch.neg(a).sum() + a\n"
                                        "        return b\n" },
  /* Calls recorded from their arguments in the graph's form
   * (_graft_tracer_record()): a method's numbers, a function's sole list
   * (made a value only for the check), two lists the usual way, method
   * names that start as Proxy's members or keywords do, an operator's
   * numbers, None and a bool. */
  { "direct_args", HEAD "class M(nn.Module):\n"
                        "    def forward(self, x, y):\n"
                        "        a = x.sum(0)\n"
                        "        b = x.clamp(None, 1.5)\n"
                        "        c = x.sum(0, True)\n"
                        "        d = torch.cat([a, b])\n"
                        "        e = torch.cat([b, c])\n"
                        "        f = torch.stack([d])\n"
                        "        g = x.new_tensor([a, b])\n"
                        "        h = x.t() + x.tanh() + x.narrow(0, 0, 1) + x.keys()\n"
                        "        i = x + True\n"
                        "        j = x * 2 + x / 2.5 - x\n"
                        "        k = x + None\n"
                        "        m = x.permute(1, 0).sum(-1, False)\n"
                        "        return a + b + c + d + e + f + g + h + i + j + k + m\n" },
  { "direct_two_lists", HEAD "class M(nn.Module):\n"
                             "    def forward(self, x, y):\n"
                             "        a = torch.neg(x)\n"
                             "        b = torch.cat([a], [y])\n"
                             "        return b\n" },
  { "direct_list_not_traced", HEAD "class M(nn.Module):\n"
                                   "    def forward(self, x, y):\n"
                                   "        a = torch.neg(x)\n"
                                   "        n = 3\n"
                                   "        b = torch.cat([a, y])\n"
                                   "        c = torch.cat([a, n])\n"
                                   "        return b + c\n" },
  { "direct_method_node", HEAD "class M(nn.Module):\n"
                               "    def forward(self, x, y):\n"
                               "        a = torch.neg(x)\n"
                               "        b = a.node(y)\n"
                               "        return b\n" },
  { "direct_method_keyword", HEAD "class M(nn.Module):\n"
                                  "    def forward(self, x, y):\n"
                                  "        a = torch.neg(x)\n"
                                  "        f = getattr(a, \"if\")\n"
                                  "        b = f(y)\n"
                                  "        return b\n" },

  /* Lines the quick scan of the body takes by their first bytes, and
   * those next to them it does not: comments, blank lines, `#` and a tab
   * at the body's depth, deeper and shallower lines. */
  { "lines_at_the_body_depth", HEAD "class M(nn.Module):\n"
                                    "    def forward(self, x):\n"
                                    "        # a comment at the body's depth\n"
                                    "        y = x + 1\n"
                                    "        \n"
                                    "        #\n"
                                    "        z = (y +\n"
                                    "             2)\n"
                                    "    # a shallower comment\n"
                                    "          \n"
                                    "        return z\n"
                                    "        # after the last line\n\n"
                                    "    def other(self):\n"
                                    "        return 1\n" },
  { "tab_at_the_body_depth", HEAD "class M(nn.Module):\n"
                                  "    def forward(self, x):\n"
                                  "        y = x + 1\n"
                                  "        \ty = y * 2\n"
                                  "        return y\n" },
  { "two_space_class", HEAD "class M(nn.Module):\n"
                            "  def forward(self, x):\n"
                            "    y = x + 1\n"
                            "    return y\n"
                            "  def other(self):\n"
                            "    return 1\n" },
};

/* The code of the traced graph, or `error: ` and the formatted error. */
static char *
describe (GraftGraph *graph,
          GError     *error)
{
  if (graph == NULL)
    {
      g_autofree char *text = NULL;

      g_assert_nonnull (error);
      text = graft_error_format (error, "test.py");
      return g_strconcat ("error: ", text, NULL);
    }
  g_assert_no_error (error);
  return g_string_free (graft_codegen_python_string (graph), FALSE);
}

static char *
trace_usual (const Case         *c,
             const GraftDialect *dialect)
{
  g_autoptr (GraftSource) source = graft_source_new ("test.py", c->text, -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPyProgram) program = graft_py_program_new (source, dialect, &error);
  g_autoptr (GraftGraph) graph = NULL;

  if (program == NULL)
    return describe (NULL, error);
  graph = graft_py_program_trace (program, c->entry, &error);
  return describe (graph, error);
}

static char *
trace_streamed (const Case         *c,
                const GraftDialect *dialect)
{
  g_autoptr (GraftSource) source = graft_source_new ("test.py", c->text, -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftPyProgram) program =
      graft_py_program_new_traced (source, dialect, c->entry, &graph, &error);
  g_autofree char *text = NULL;

  if (program == NULL)
    {
      g_assert_null (graph);
      return describe (NULL, error);
    }
  text = describe (graph, error);
  /* The program goes on serving traces: the same entry again reads the
   * forward's body again, whole. */
  if (graph != NULL)
    {
      g_autoptr (GraftGraph) again = graft_py_program_trace (program, c->entry, &error);
      g_autofree char *again_text = describe (again, error);

      g_assert_cmpstr (again_text, ==, text);
    }
  return g_steal_pointer (&text);
}

static void
test_same (gconstpointer data)
{
  const Case *c = data;

  for (guint d = 0; d < 2; d++)
    {
      const GraftDialect *dialect = graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6);
      g_autofree char    *usual = trace_usual (c, dialect);
      g_autofree char    *streamed = trace_streamed (c, dialect);

      g_assert_cmpstr (streamed, ==, usual);
    }
}

/* The expected answers of a few cases, so that "the same" also means
 * "right": the syntax error wins over the earlier trace error, and a name
 * read before the body binds it is UnboundLocalError, not the global. */
static void
test_precedence (void)
{
  const GraftDialect *dialect = graft_dialect_get (GRAFT_TORCH_2_6);
  g_autofree char    *syntax = trace_streamed (&cases[1], dialect);
  g_autofree char    *later = trace_streamed (&cases[2], dialect);
  g_autofree char    *unbound = trace_streamed (&cases[4], dialect);
  g_autofree char    *dead = trace_streamed (&cases[9], dialect);
  g_autofree char    *dead_name = trace_streamed (&cases[10], dialect);

  g_assert_true (g_str_has_prefix (syntax, "error: test.py:9:"));
  g_assert_nonnull (strstr (later, "test.py:11:"));
  g_assert_nonnull (strstr (unbound, "UnboundLocalError: cannot access local variable 'y'"));
  g_assert_true (g_str_has_prefix (dead, "error: test.py:9:"));
  g_assert_nonnull (strstr (dead_name, "UnboundLocalError: cannot access local variable 'w'"));
}

/* A method whose name is a keyword of any length is refused where it is
 * called (its name ruled out by first byte and length first); names
 * that only start like one are not. */
static void
test_keyword_method_names (void)
{
  static const struct
  {
    const char *method;
    gboolean    keyword;
  } names[] = {
    { "if", TRUE },
    { "nonlocal", TRUE },
    { "continue", TRUE },
    { "False", TRUE },
    { "yield", TRUE },
    { "nonlocals", FALSE },
    { "iff", FALSE },
    { "Falsey", FALSE },
    { "continues", FALSE },
    { "y", FALSE },
  };
  const GraftDialect *dialect = graft_dialect_get (GRAFT_TORCH_2_6);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *text = g_strdup_printf (HEAD "class M(nn.Module):\n"
                                                    "    def forward(self, x):\n"
                                                    "        return getattr(x, \"%s\")()\n",
                                               names[i].method);
      Case             c = { names[i].method, text, NULL };
      g_autofree char *out = trace_streamed (&c, dialect);
      g_autofree char *expected = g_strdup_printf ("'%s' is a Python keyword", names[i].method);

      if (names[i].keyword)
        g_assert_nonnull (strstr (out, expected));
      else
        g_assert_false (g_str_has_prefix (out, "error:"));
    }
}

/* A module path with a keyword in any of its parts is refused where the
 * module is called; parts that only start like one, or are as long as
 * one, are not. */
static void
test_keyword_module_paths (void)
{
  static const struct
  {
    const char *outer, *inner;
    const char *keyword; /* the one refused, or NULL */
  } paths[] = {
    { "if", "relu", "if" },
    { "relu", "if", "if" },
    { "lambda", "x", "lambda" },
    { "continues", "continue", "continue" },
    { "iff", "nonlocals", NULL },
    { "Falsey", "yields", NULL },
    { "a", "b", NULL },
  };
  const GraftDialect *dialect = graft_dialect_get (GRAFT_TORCH_2_6);

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autofree char *text =
          g_strdup_printf (HEAD
                           "class M(nn.Module):\n"
                           "    def __init__(self):\n"
                           "        super().__init__()\n"
                           "        self.blocks = nn.ModuleDict({\"%s\": nn.ModuleDict({\"%s\": "
                           "nn.ReLU()})})\n"
                           "\n"
                           "    def forward(self, x):\n"
                           "        return self.blocks[\"%s\"][\"%s\"](x)\n",
                           paths[i].outer, paths[i].inner, paths[i].outer, paths[i].inner);
      Case             c = { paths[i].outer, text, NULL };
      g_autofree char *out = trace_streamed (&c, dialect);

      if (paths[i].keyword != NULL)
        {
          g_autofree char *expected =
              g_strdup_printf ("'%s' is a Python keyword", paths[i].keyword);

          g_assert_nonnull (strstr (out, expected));
        }
      else
        g_assert_false (g_str_has_prefix (out, "error:"));
    }
}

/* graft_py_parse_deferring() leaves the forward unread; reading it gives
 * the tree graft_py_parse() makes, and a syntax error in it is the
 * reader's. */
static void
test_deferred_body (void)
{
  const char *text = cases[0].text;
  g_autoptr (GraftSource) source = graft_source_new ("test.py", text, -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPyModule) usual = graft_py_parse (source, &error);
  g_autoptr (GraftPyModule) deferred = graft_py_parse_deferring (source, NULL, &error);
  g_autoptr (GString) usual_dump = g_string_new (NULL);
  g_autoptr (GString) deferred_dump = g_string_new (NULL);
  const GraftPyStmtList *body;
  GraftPyStmt           *forward = NULL;
  guint                  n = 0;

  g_assert_no_error (error);
  body = graft_py_module_get_body (deferred);
  for (guint i = 0; i < body->len; i++)
    if (body->items[i]->kind == GRAFT_PY_STMT_CLASS_DEF)
      forward = body->items[i]->class_def.body.items[1];
  g_assert_nonnull (forward);
  g_assert_nonnull (forward->function_def.deferred);
  g_assert_cmpuint (forward->function_def.body.len, ==, 0);

  /* One statement line at a time: `b = ...; c = ...` is one. */
  {
    g_autoptr (GraftPyBodyStream) stream = graft_py_body_stream_new (deferred, forward, TRUE);
    GraftPyStmtList stmts;
    guint           lens[4] = { 1, 2, 1, 1 };

    while (graft_py_body_stream_next (stream, &stmts, &error))
      {
        g_assert_cmpuint (n, <, G_N_ELEMENTS (lens));
        g_assert_cmpuint (stmts.len, ==, lens[n]);
        n++;
      }
    g_assert_no_error (error);
    g_assert_cmpuint (n, ==, 4);
  }

  g_assert_true (graft_py_module_read_body (deferred, forward, &error));
  g_assert_no_error (error);
  g_assert_null (forward->function_def.deferred);
  graft_py_ast_dump (usual, usual_dump);
  graft_py_ast_dump (deferred, deferred_dump);
  g_assert_cmpstr (deferred_dump->str, ==, usual_dump->str);
}

static void
test_deferred_syntax_error (void)
{
  const char *text = cases[1].text;
  g_autoptr (GraftSource) source = graft_source_new ("test.py", text, -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftPyModule) usual = graft_py_parse (source, &error);
  g_autofree char *usual_text = NULL;
  g_autoptr (GraftPyModule) deferred = NULL;
  GraftPyStmt *forward;

  g_assert_null (usual);
  usual_text = graft_error_format (error, "test.py");
  g_clear_error (&error);
  deferred = graft_py_parse_deferring (source, "M", &error);
  g_assert_no_error (error);
  forward = graft_py_module_get_body (deferred)->items[2]->class_def.body.items[0];
  g_assert_nonnull (forward->function_def.deferred);
  g_assert_false (graft_py_module_read_body (deferred, forward, &error));
  g_assert_nonnull (error);
  {
    g_autofree char *deferred_text = graft_error_format (error, "test.py");

    g_assert_cmpstr (deferred_text, ==, usual_text);
  }
}

/* Over every case that parses: reading the forward that
 * graft_py_parse_deferring() left unread gives graft_py_parse()'s tree, or
 * fails because the body was skipped to the wrong place (then the program
 * is read the usual way).  The cases whose lines are all indented as deep
 * as the body must take the quick way. */
static void
test_deferred_every_case (void)
{
  static const char *const quick[] = {
    "plain",
    "last_line_continued",
    "last_line_strings",
    "no_final_newline",
    "lines_at_the_body_depth",
    "two_space_class",
    NULL,
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case *c = &cases[i];
      g_autoptr (GraftSource) source = graft_source_new ("test.py", c->text, -1);
      g_autoptr (GError) error = NULL;
      g_autoptr (GraftPyModule) usual = graft_py_parse (source, NULL);
      g_autoptr (GraftPyModule) deferred = NULL;
      g_autoptr (GString) usual_dump = g_string_new (NULL);
      g_autoptr (GString) deferred_dump = g_string_new (NULL);
      const GraftPyStmtList *body;
      GraftPyStmt           *forward = NULL;
      gboolean               must_be_quick = g_strv_contains (quick, c->name);

      if (usual == NULL)
        continue;
      deferred = graft_py_parse_deferring (source, NULL, &error);
      if (deferred == NULL)
        {
          g_test_message ("%s: %s", c->name, error->message);
          g_assert_false (must_be_quick);
          continue;
        }
      body = graft_py_module_get_body (deferred);
      for (guint j = 0; j < body->len && forward == NULL; j++)
        if (body->items[j]->kind == GRAFT_PY_STMT_CLASS_DEF)
          for (guint k = 0; k < body->items[j]->class_def.body.len; k++)
            {
              GraftPyStmt *s = body->items[j]->class_def.body.items[k];

              if (s->kind == GRAFT_PY_STMT_FUNCTION_DEF && s->function_def.deferred != NULL)
                forward = s;
            }
      if (forward == NULL)
        continue;
      if (!graft_py_module_read_body (deferred, forward, &error))
        {
          g_test_message ("%s: %s", c->name, error->message);
          g_assert_false (must_be_quick);
          g_assert_nonnull (strstr (error->message, "ends elsewhere than where it was skipped"));
          continue;
        }
      g_test_message ("%s: read as skipped", c->name);
      graft_py_ast_dump (usual, usual_dump);
      graft_py_ast_dump (deferred, deferred_dump);
      g_assert_cmpstr (deferred_dump->str, ==, usual_dump->str);
    }
}

/* A leaf module's constructor is told to each graph the program traces,
 * however often the module is called. */
static void
test_constructor_each_graph (void)
{
  const char         *text = HEAD "class M(nn.Module):\n"
                                  "    def __init__(self):\n"
                                  "        super().__init__()\n"
                                  "        self.lin = nn.Linear(4, 4)\n\n"
                                  "    def forward(self, x):\n"
                                  "        return self.lin(self.lin(x))\n";
  const GraftDialect *dialect = graft_dialect_get (GRAFT_TORCH_2_6);
  g_autoptr (GraftSource) source = graft_source_new ("test.py", text, -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) first = NULL;
  g_autoptr (GraftGraph) second = NULL;
  g_autoptr (GraftPyProgram) program =
      graft_py_program_new_traced (source, dialect, NULL, &first, &error);

  g_assert_no_error (error);
  g_assert_nonnull (first);
  second = graft_py_program_trace (program, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (second);
  g_assert_nonnull (graft_graph_get_module_constructor (first, "lin"));
  g_assert_cmpstr (graft_graph_get_module_constructor (second, "lin"), ==,
                   graft_graph_get_module_constructor (first, "lin"));
}

/* A straight-line forward of @n_lines in the forms gen-module.py cycles
 * through. */
static char *
long_forward (guint n_lines)
{
  /* `@` is the previous line's name. */
  static const char *const lines[] = {
    "@ + w",
    "torch.relu(@)",
    "self.layers[0](@)",
    "F.relu(@)",
    "torch.cat([@, w], dim=1)[:, :4]",
    "F.softmax(@, dim=1) - w",
    "torch.stack([@, w], dim=0).sum(0)",
    "@.permute(1, 0).permute(1, 0) * 0.5",
    "self.lin(@) / 2",
    "@.sum(dim=1, keepdim=True) + w",
  };
  GString *text = g_string_new (HEAD "import torch.nn.functional as F\n\n\n"
                                     "class M(nn.Module):\n"
                                     "    def __init__(self):\n"
                                     "        super().__init__()\n"
                                     "        self.lin = nn.Linear(4, 4)\n"
                                     "        self.layers = nn.ModuleList([nn.Linear(4, 4)])\n\n"
                                     "    def forward(self, h0, w):\n");

  for (guint i = 1; i <= n_lines; i++)
    {
      g_string_append_printf (text, "        h%u = ", i);
      for (const char *p = lines[i % G_N_ELEMENTS (lines)]; *p != '\0'; p++)
        if (*p == '@')
          g_string_append_printf (text, "h%u", i - 1);
        else
          g_string_append_c (text, *p);
      g_string_append_c (text, '\n');
    }
  g_string_append_printf (text, "        return h%u\n", n_lines);
  return g_string_free (text, FALSE);
}

/* The tracer's arena after tracing @text in @torch's dialect. */
static gsize
arena_of_trace (const char *text,
                GraftTorch  torch)
{
  g_autoptr (GraftSource) source = graft_source_new ("test.py", text, -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftPyProgram) program =
      graft_py_program_new_traced (source, graft_dialect_get (torch), NULL, &graph, &error);

  g_assert_no_error (error);
  g_assert_nonnull (graph);
  return graft_py_program_get_arena_size (program);
}

static gsize
arena_after_trace (guint n_lines)
{
  g_autofree char *text = long_forward (n_lines);
  return arena_of_trace (text, GRAFT_TORCH_1_13);
}

/* What a line's calls build only for the node they record (the arguments,
 * the constants, the list displays) is given back to the tracer's arena:
 * what stays is mostly the line's value in the scope (about 140 bytes a
 * line; 450 when all of it stayed until the trace ended). */
static void
test_arena_per_line (void)
{
  gsize  small = arena_after_trace (4000);
  gsize  large = arena_after_trace (24000);
  double per_line = (double) (large - small) / 20000;

  g_test_message ("tracer arena: %.1f bytes per line", per_line);
  g_assert_cmpfloat (per_line, <, 200);
}

static gsize
arena_after_loop (const char *body,
                  guint       n_steps)
{
  g_autofree char *text = g_strdup_printf (HEAD "class M(nn.Module):\n"
                                                "    def forward(self, x):\n"
                                                "        for i in range(%u):\n"
                                                "            %s\n"
                                                "        return x\n",
                                           n_steps, body);
  return arena_of_trace (text, GRAFT_TORCH_1_13);
}

/* The arena's growth a step of a loop of @body over range(). */
static double
arena_per_step (const char *body)
{
  return (double) (arena_after_loop (body, 210000) - arena_after_loop (body, 10000)) / 200000;
}

/* A loop straight over range() makes each item at its step, with no list
 * of them (about 64 bytes a step when it was a list of ints of 48 bytes
 * each); a value takes 32 bytes: the item of a step that reads it, and
 * the item and the proxy of one that makes a node.  A loop whose function
 * never names its counter again changes one int in place: nothing a
 * step. */
static void
test_arena_range_loop (void)
{
  double idle = arena_per_step ("pass");
  double read = arena_per_step ("j = i");
  double node = arena_per_step ("x = x + i");

  g_test_message ("tracer arena a step: %.1f bytes (counter unread), %.1f (read), %.1f (a node)",
                  idle, read, node);
  g_assert_cmpfloat (idle, <, 1);
  g_assert_cmpfloat (read, <, 40);
  g_assert_cmpfloat (node, <, 80);
}

/* The arena after __init__ builds @n_layers of @layer in a loop. */
#define LAYER_CHECKS_LAZY_MAX 6

static gsize
arena_after_layers (const char *layer,
                    guint       n_layers)
{
  g_autofree char *text = g_strdup_printf (HEAD "class M(nn.Module):\n"
                                                "    def __init__(self):\n"
                                                "        super().__init__()\n"
                                                "        self.m = nn.ModuleList()\n"
                                                "        for i in range(%u):\n"
                                                "            self.m.append(%s)\n"
                                                "\n"
                                                "    def forward(self, x):\n"
                                                "        return self.m[0](x)\n",
                                           n_layers, layer);
  return arena_of_trace (text, GRAFT_TORCH_2_6);
}

/* The checks a layer's constructor runs on its values
 * (graft-tracer-module-checks.c) give back what they made once they pass:
 * a layer keeps its own values only (about 7 KB more a layer when the
 * checks' frames stayed until the trace ended). */
static void
test_arena_layer_checks (void)
{
  static const char *const layers[] = { "nn.Conv2d(8, 8, 3, padding=1)",
                                        "nn.LSTM(8, 8, num_layers=4)" };

  for (guint i = 0; i < G_N_ELEMENTS (layers); i++)
    {
      double per_layer = (double) (arena_after_layers (layers[i], 2200) -
                                   arena_after_layers (layers[i], 200)) /
                         2000;

      g_test_message ("tracer arena a layer: %.0f bytes (%s)", per_layer, layers[i]);
      g_assert_cmpfloat (per_layer, <, 3000);
    }
}

/* How many texts the tracer parsed besides the file once __init__ built
 * @layer. */
static guint
parsed_after_layer (const char *layer,
                    GraftTorch  torch)
{
  g_autofree char *text = g_strdup_printf (HEAD "class M(nn.Module):\n"
                                                "    def __init__(self):\n"
                                                "        super().__init__()\n"
                                                "        self.m = %s\n"
                                                "\n"
                                                "    def forward(self, x):\n"
                                                "        return self.m(x)\n",
                                           layer);
  g_autoptr (GraftSource) source = graft_source_new ("test.py", text, -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftPyProgram) program =
      graft_py_program_new_traced (source, graft_dialect_get (torch), NULL, &graph, &error);

  g_assert_no_error (error);
  g_assert_nonnull (graph);
  return graft_py_program_get_n_parsed (program);
}

/* A layer's checks bind the names they read as they read them: the
 * helpers that only make an error's text (`_type_name`, `_invalid_sizes`,
 * `_size_element`, `_size_overflow`) are neither parsed nor defined
 * while the values pass (they were, with everything else the checks'
 * text names, until cost27: 2,512 more arena bytes for one nn.Linear).
 * When values fail, they are bound then, and a layer built after the
 * error was caught is checked as before (the error as both oracles give
 * it, its first line). */
static void
test_layer_checks_lazy (void)
{
  for (guint d = 0; d < 2; d++)
    {
      GraftTorch torch = d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6;
      guint      plain = parsed_after_layer ("nn.Identity()", torch);
      guint      linear = parsed_after_layer ("nn.Linear(4, 4)", torch);

      g_test_message ("texts parsed for one nn.Linear's checks: %u", linear - plain);
      g_assert_cmpuint (linear - plain, <=, LAYER_CHECKS_LAZY_MAX);
    }
  {
    const Case c = { "lazy",
                     HEAD "class M(nn.Module):\n"
                          "    def __init__(self):\n"
                          "        super().__init__()\n"
                          "        self.a = nn.Linear(4, 4)\n"
                          "        try:\n"
                          "            nn.Linear(4.0, 4)\n"
                          "        except TypeError as e:\n"
                          "            self.b = nn.Linear(len(str(e)) // 100, 4)\n"
                          "        self.c = nn.Conv2d(3, 4, 3)\n"
                          "        nn.Linear(4, True)\n"
                          "\n"
                          "    def forward(self, x):\n"
                          "        return self.a(x)\n",
                     NULL };

    for (guint d = 0; d < 2; d++)
      {
        const GraftDialect *dialect =
            graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6);
        g_autofree char *streamed = trace_streamed (&c, dialect);

        g_assert_cmpstr (streamed, ==,
                         "error: test.py:14:9: error: TypeError: empty() received an invalid "
                         "combination of arguments - got (tuple, dtype=NoneType, "
                         "device=NoneType), but expected one of:");
      }
  }
}

/* A call of a C builtin whose argument kinds passed its parser before is
 * not parsed again; one whose kinds differ still is, and fails where it
 * should. */
static void
test_check_after_pass (void)
{
  const Case c = { "check", HEAD "class M(nn.Module):\n"
                                 "    def forward(self, x):\n"
                                 "        a = torch.flatten(x, 0)\n"
                                 "        b = torch.flatten(a, 0)\n"
                                 "        return torch.flatten(b, 0.5)\n",
                   NULL };

  for (guint d = 0; d < 2; d++)
    {
      const GraftDialect *dialect = graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6);
      g_autofree char    *streamed = trace_streamed (&c, dialect);

      g_assert_cmpstr (streamed, ==,
                       "error: test.py:9:16: error: TypeError: flatten(): argument 'start_dim' "
                       "(position 2) must be int, not float");
    }
}

/* A frame of more than a few names is indexed, and a name is looked for
 * and added in one probe of that index: a name bound again, early or
 * late in a frame of a hundred, is read with its last value, in both
 * ways. */
static void
test_big_frame_rebinds (void)
{
  g_autoptr (GString) text = g_string_new (HEAD "class M(nn.Module):\n"
                                                "    def forward(self, x):\n"
                                                "        h0 = x + 1\n");

  for (guint i = 1; i < 100; i++)
    g_string_append_printf (text, "        h%u = h%u + 1\n", i, i - 1);
  g_string_append (text, "        h3 = torch.neg(h99)\n"
                         "        h98 = torch.relu(h3)\n"
                         "        y = torch.sigmoid(h98)\n"
                         "        return h3 + h98 + y + h5\n");
  for (guint d = 0; d < 2; d++)
    {
      const GraftDialect *dialect = graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6);
      Case                c = { "big_frame", text->str, NULL };
      g_autofree char    *usual = trace_usual (&c, dialect);
      g_autofree char    *streamed = trace_streamed (&c, dialect);

      g_assert_cmpstr (streamed, ==, usual);
      g_assert_nonnull (strstr (streamed, "neg = torch.neg(add_99)"));
      g_assert_nonnull (strstr (streamed, "relu = torch.relu(neg)"));
      g_assert_nonnull (strstr (streamed, "sigmoid = torch.sigmoid(relu)"));
      g_assert_nonnull (strstr (streamed, "add_100 = neg + relu"));
      g_assert_nonnull (strstr (streamed, "add_101 = add_100 + sigmoid"));
      g_assert_nonnull (strstr (streamed, "add_102 = add_101 + add_5"));
    }
}

/* Keys surely absent are answered without a search (an empty map, a key
 * whose two first bytes no key of the map has), an answer that must not
 * outlive the key's addition: an attribute of self or of a submodule
 * first absent then set, globals read in a frame of a hundred names
 * (`F`, and `h1x`, which starts like the frame's `h1`), one of them bound
 * after the class; attributes set again and a call's keywords, one of
 * them from `**`, each kept once with its last value. */
static void
test_absent_keys (void)
{
  g_autoptr (GString) text = g_string_new (HEAD "import torch.nn.functional as F\n\n\n"
                                                "class M(nn.Module):\n"
                                                "    def __init__(self):\n"
                                                "        super().__init__()\n"
                                                "        self.lin = nn.Linear(4, 4)\n\n"
                                                "    def forward(self, x):\n"
                                                "        a = hasattr(self, \"extra\")\n"
                                                "        self.extra = 2\n"
                                                "        b = hasattr(self, \"extra\")\n"
                                                "        c = hasattr(self.lin, \"scale\")\n"
                                                "        self.lin.scale = 3\n"
                                                "        d = hasattr(self.lin, \"scale\")\n"
                                                "        h0 = F.relu(x)\n");

  for (guint i = 1; i < 100; i++)
    g_string_append_printf (text, "        h%u = h%u + %s\n", i, i - 1, i % 10 == 0 ? "h1x" : "1");
  g_string_append (text,
                   "        self.extra = 5\n"
                   "        self.lin.scale = 6\n"
                   "        y = F.gelu(h99) * self.extra * self.lin.scale\n"
                   "        y = torch.sum(y, dim=1, **{\"keepdim\": True})\n"
                   "        return y + (1 if a else 0) + (10 if b else 0) + (100 if c else 0) + "
                   "(1000 if d else 0)\n\n\n"
                   "h1x = 7\n");
  for (guint d = 0; d < 2; d++)
    {
      const GraftDialect *dialect = graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6);
      Case                c = { "absent_keys", text->str, NULL };
      g_autofree char    *usual = trace_usual (&c, dialect);
      g_autofree char    *streamed = trace_streamed (&c, dialect);

      g_assert_cmpstr (streamed, ==, usual);
      g_assert_nonnull (strstr (streamed, "add_9 = add_8 + 7"));
      g_assert_nonnull (strstr (streamed, "mul = gelu * 5"));
      g_assert_nonnull (strstr (streamed, "mul_1 = mul * 6"));
      g_assert_nonnull (strstr (streamed, "sum_1 = torch.sum(mul_1, dim = 1, keepdim = True)"));
      g_assert_nonnull (strstr (streamed, "add_99 = sum_1 + 0"));
      g_assert_nonnull (strstr (streamed, "add_100 = add_99 + 10"));
      g_assert_nonnull (strstr (streamed, "add_101 = add_100 + 0"));
      g_assert_nonnull (strstr (streamed, "add_102 = add_101 + 1000"));
    }
}

/* Maps of more than eight keys are indexed by hash and position: keys
 * set by strings made at run time (another address, the same bytes)
 * found by their bytes, a key set again kept once, a name deleted from
 * a big frame then bound again, and a name deleted and read, in both
 * ways and dialects. */
static void
test_indexed_maps (void)
{
  static const char body[] =
      HEAD "class M(nn.Module):\n"
           "    def forward(self, x):\n"
           "        for i in range(12):\n"
           "            setattr(self, \"a\" + str(i), i + 1)\n"
           "        self.a5 = 50\n"
           "        b = getattr(self, \"a\" + \"5\") + getattr(self, \"a1\" + \"1\")\n"
           "        h0 = x + b\n"
           "        h1 = h0 + 1\n"
           "        h2 = h1 + 1\n"
           "        h3 = h2 + 1\n"
           "        h4 = h3 + 1\n"
           "        h5 = h4 + 1\n"
           "        h6 = h5 + 1\n"
           "        h7 = h6 + 1\n"
           "        h8 = h7 + 1\n"
           "        h9 = h8 + 1\n"
           "        del h5\n"
           "        h10 = h9 * 2\n"
           "        h5 = h10 - 3\n"
           "        del h2\n";
  g_autofree char *good = g_strconcat (body, "        return h5 + h9 + self.a11 + self.a0\n", NULL);
  g_autofree char *bad = g_strconcat (body, "        return h2\n", NULL);

  for (guint d = 0; d < 2; d++)
    {
      const GraftDialect *dialect = graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6);
      Case                c = { "indexed_maps", good, NULL };
      Case                e = { "indexed_maps_deleted", bad, NULL };
      g_autofree char    *usual = trace_usual (&c, dialect);
      g_autofree char    *streamed = trace_streamed (&c, dialect);
      g_autofree char    *usual_error = trace_usual (&e, dialect);
      g_autofree char    *streamed_error = trace_streamed (&e, dialect);

      g_assert_cmpstr (streamed, ==, usual);
      g_assert_nonnull (strstr (streamed, "add = x + 62"));
      g_assert_nonnull (strstr (streamed, "mul = add_9 * 2"));
      g_assert_nonnull (strstr (streamed, "sub = mul - 3"));
      g_assert_nonnull (strstr (streamed, "add_10 = sub + add_9"));
      g_assert_nonnull (strstr (streamed, "add_11 = add_10 + 12"));
      g_assert_nonnull (strstr (streamed, "add_12 = add_11 + 1"));
      g_assert_cmpstr (streamed_error, ==, usual_error);
      g_assert_nonnull (
          strstr (streamed_error, "UnboundLocalError: cannot access local variable 'h2'"));
    }
}

/* A streamed forward's scope is sized from the body's bytes, about a name
 * per line: its index made that large once it needs one, which must hold
 * answers as any other.  Lines that bind many names each (a tuple
 * unpacked) outgrow the estimate several times over, then names are
 * deleted (the index made again, for more keys than reserved) and bound
 * again; a forward of a few names and long lines reserves room it never
 * indexes.  Both ways and dialects give the same code. */
static void
test_reserved_scope (void)
{
  g_autoptr (GString) many = g_string_new (HEAD "class M(nn.Module):\n"
                                                "    def forward(self, x):\n");
  g_autoptr (GString) few = g_string_new (HEAD "class M(nn.Module):\n"
                                               "    def forward(self, x):\n"
                                               "        a = x + 1\n");

  for (guint i = 0; i < 30; i++)
    {
      g_string_append (many, "        ");
      for (guint k = 0; k < 10; k++)
        g_string_append_printf (many, "%sa%u", k > 0 ? ", " : "", 10 * i + k);
      g_string_append (many, " = ");
      for (guint k = 0; k < 10; k++)
        g_string_append_printf (many, "%s%s", k > 0 ? ", " : "", i == 0 ? "x" : "a0");
      g_string_append (many, "\n");
    }
  g_string_append (many, "        a7 = a0 + 1\n"
                         "        del a5, a150\n"
                         "        a150 = a7 * a299\n"
                         "        a5 = a150 - a123\n"
                         "        return a5 + a7 + a150 + a298\n");
  for (guint i = 0; i < 40; i++)
    g_string_append_printf (few, "        a = a + %u  # %s\n", i, "a comment long enough to count");
  g_string_append (few, "        del a\n"
                        "        b = x * 2\n"
                        "        return b\n");
  for (guint d = 0; d < 2; d++)
    {
      const GraftDialect *dialect = graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6);
      Case                c = { "reserved_many", many->str, NULL };
      Case                f = { "reserved_few", few->str, NULL };
      g_autofree char    *usual = trace_usual (&c, dialect);
      g_autofree char    *streamed = trace_streamed (&c, dialect);
      g_autofree char    *usual_few = trace_usual (&f, dialect);
      g_autofree char    *streamed_few = trace_streamed (&f, dialect);

      g_assert_cmpstr (streamed, ==, usual);
      g_assert_nonnull (strstr (streamed, "add = x + 1"));
      g_assert_nonnull (strstr (streamed, "mul = add * x"));
      g_assert_nonnull (strstr (streamed, "sub = mul - x"));
      g_assert_nonnull (strstr (streamed, "add_1 = sub + add"));
      g_assert_nonnull (strstr (streamed, "add_2 = add_1 + mul"));
      g_assert_nonnull (strstr (streamed, "add_3 = add_2 + x"));
      g_assert_cmpstr (streamed_few, ==, usual_few);
      g_assert_nonnull (strstr (streamed_few, "add_40 = add_39 + 39"));
      g_assert_nonnull (strstr (streamed_few, "mul = x * 2"));
    }
}

/* @text traced the usual way and streamed, in torch 1.13's dialect
 * (@d 0) or 2.6's (@d 1): the same code, which is returned. */
static char *
trace_both_ways (const char *name,
                 const char *text,
                 guint       d)
{
  const GraftDialect *dialect = graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6);
  Case                c = { name, text, NULL };
  g_autofree char    *usual = trace_usual (&c, dialect);
  char               *streamed = trace_streamed (&c, dialect);

  g_assert_cmpstr (streamed, ==, usual);
  return streamed;
}

/* @text traced the usual way and streamed, in both dialects: the same
 * code, holding each of @lines. */
static void
assert_traces_with_lines (const char        *name,
                          const char        *text,
                          const char *const *lines,
                          gsize              n_lines)
{
  for (guint d = 0; d < 2; d++)
    {
      g_autofree char *streamed = trace_both_ways (name, text, d);

      for (gsize i = 0; i < n_lines; i++)
        if (strstr (streamed, lines[i]) == NULL)
          g_error ("no line `%s` in:\n%s", lines[i], streamed);
    }
}

/* @text traced the usual way and streamed, in both dialects: the same
 * code, @expected. */
static void
assert_streamed_is (const char *name,
                    const char *text,
                    const char *expected)
{
  for (guint d = 0; d < 2; d++)
    {
      g_autofree char *streamed = trace_both_ways (name, text, d);

      g_assert_cmpstr (streamed, ==, expected);
    }
}

/* Floats are written from codegen's recent ones, by their bits: the same
 * constant again, 0.0 after -0.0 (equal as doubles), values that share a
 * slot, one of 23 characters (the longest kept) and one of 24 (written
 * each time), in a call's arguments and in a list. */
static void
test_float_constants (void)
{
  static const char text[] =
      HEAD "class M(nn.Module):\n"
           "    def forward(self, x):\n"
           "        a = x * 0.5 + 0.25\n"
           "        b = a * -0.0 + 0.0\n"
           "        c = b * 0.5 - 1.2345678901234567e-300\n"
           "        d = c + -1.2345678901234567e-300 + 1.2345678901234567e-300\n"
           "        e = d * -1.2345678901234567e-300 * 0.25 * 0.5\n"
           "        f = torch.clamp(e, 0.1, 0.2) + torch.clamp(e, 0.2, 0.1)\n"
           "        g = f.scaled([0.5, -0.0, 0.0, 0.5, 0.25], 0.25)\n"
           "        return g + 1e+16 + 1e16 + 1.5e-05 + 0.3\n";
  static const char *const lines[] = {
    "mul = x * 0.5",
    "add = mul + 0.25",
    "mul_1 = add * -0.0",
    "add_1 = mul_1 + 0.0",
    "mul_2 = add_1 * 0.5",
    "sub = mul_2 - 1.2345678901234568e-300",
    "add_2 = sub + -1.2345678901234568e-300",
    "add_3 = add_2 + 1.2345678901234568e-300",
    "mul_3 = add_3 * -1.2345678901234568e-300",
    "mul_4 = mul_3 * 0.25",
    "mul_5 = mul_4 * 0.5",
    "clamp = torch.clamp(mul_5, 0.1, 0.2)",
    "clamp_1 = torch.clamp(mul_5, 0.2, 0.1)",
    "scaled = add_4.scaled([0.5, -0.0, 0.0, 0.5, 0.25], 0.25)",
    "add_5 = scaled + 1e+16",
    "add_6 = add_5 + 1e+16",
    "add_7 = add_6 + 1.5e-05",
    "add_8 = add_7 + 0.3",
  };

  assert_traces_with_lines ("float_constants", text, lines, G_N_ELEMENTS (lines));
}

/* A getattr of a traced value is written `x.name` when the name is a
 * Python identifier, ASCII ones told apart by codegen itself, the rest
 * by graft_is_python_identifier(): else `getattr(x, 'name')`. */
static void
test_getattr_names (void)
{
  static const char text[] =
      HEAD "class M(nn.Module):\n"
           "    def forward(self, x):\n"
           "        a = getattr(x, \"shape\")\n"
           "        b = getattr(x, \"1abc\")\n"
           "        c = getattr(x, \"a b\")\n"
           "        d = getattr(x, \"\u00f1ame\")\n"
           "        e = getattr(x, \"_x9\")\n"
           "        g = getattr(x, \"x\u00bd\")\n"
           "        h = getattr(x, \"a-b\")\n"
           "        return (a, b, c, d, e, g, h)\n";
  static const char *const lines[] = {
    "getattr_1 = x.shape",
    "getattr_2 = getattr(x, '1abc')",
    "getattr_3 = getattr(x, 'a b')",
    "getattr_4 = x.\u00f1ame",
    "getattr_5 = x._x9",
    "getattr_6 = getattr(x, 'x\u00bd')",
    "getattr_7 = getattr(x, 'a-b')",
  };

  assert_traces_with_lines ("getattr_names", text, lines, G_N_ELEMENTS (lines));
}

/* Globals shadowed and rebound, where absent keys are answered without
 * a search: `torch` a parameter of a helper whose frame is indexed (its
 * names past eight), called with torch.nn.functional then torch; `F`
 * bound again at the end of the file, so that the trace, which runs after
 * the whole file, reads torch itself. */
static void
test_shadowed_globals (void)
{
  g_autoptr (GString) text = g_string_new (HEAD "import torch.nn.functional as F\n\n\n"
                                                "def helper(torch, x):\n"
                                                "    a0 = x + 1\n");

  for (guint i = 1; i < 10; i++)
    g_string_append_printf (text, "    a%u = a%u + 1\n", i, i - 1);
  g_string_append (text, "    return torch.relu(a9)\n\n\n"
                         "class M(nn.Module):\n"
                         "    def forward(self, x):\n"
                         "        y = F.relu(x)\n"
                         "        z = helper(nn.functional, y)\n"
                         "        w = helper(torch, z)\n"
                         "        return F.softmax(w, dim=0)\n\n\n"
                         "F = torch\n");
  for (guint d = 0; d < 2; d++)
    {
      const GraftDialect *dialect = graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6);
      Case                c = { "shadowed_globals", text->str, NULL };
      g_autofree char    *usual = trace_usual (&c, dialect);
      g_autofree char    *streamed = trace_streamed (&c, dialect);

      g_assert_cmpstr (streamed, ==, usual);
      g_assert_nonnull (strstr (streamed, "relu = torch.relu(x)"));
      g_assert_nonnull (
          strstr (streamed, "relu_1 = torch.nn.functional.relu(add_9, inplace = False)"));
      g_assert_nonnull (strstr (streamed, "relu_2 = torch.relu(add_19)"));
      g_assert_nonnull (strstr (streamed, "softmax = torch.softmax(relu_2, dim = 0)"));
    }
}

/* A frame of names of every length the frame's index hashes apart (one
 * to three bytes, four to seven, eight, past eight and past sixteen),
 * some differing in one byte only, where the words read overlap: each
 * found again (two bound again), in both dialects, both ways. */
static void
test_names_hashed (void)
{
  const char *text = HEAD "class M(nn.Module):\n"
                          "    def forward(self, x):\n"
                          "        x1 = torch.neg(x)\n"
                          "        abc = torch.neg(x1)\n"
                          "        abcd = torch.neg(abc)\n"
                          "        abce = torch.neg(abcd)\n"
                          "        abcdefg = torch.neg(abce)\n"
                          "        abcdefgh = torch.neg(abcdefg)\n"
                          "        abcdefgi = torch.neg(abcdefgh)\n"
                          "        abcdefghi = torch.neg(abcdefgi)\n"
                          "        bbcdefghi = torch.neg(abcdefghi)\n"
                          "        abcdefghijklmnop = torch.neg(bbcdefghi)\n"
                          "        abcdefghijklmnoq = torch.neg(abcdefghijklmnop)\n"
                          "        abcdefghijklmnopq = torch.neg(abcdefghijklmnoq)\n"
                          "        abcdefghXjklmnopq = torch.neg(abcdefghijklmnopq)\n"
                          "        abc = torch.relu(abcdefghXjklmnopq)\n"
                          "        abcdefghijklmnop = torch.relu(abc)\n"
                          "        return torch.stack([abcdefghXjklmnopq, abcdefghijklmnopq, "
                          "abcdefghijklmnoq, abcdefghijklmnop, bbcdefghi, abcdefghi, abcdefgi, "
                          "abcdefgh, abcdefg, abce, abcd, abc, x1])\n";

  assert_streamed_is ("names_hashed", text,
                      "\n\n\ndef forward(self, x):\n"
                      "    neg = torch.neg(x);  x = None\n"
                      "    neg_1 = torch.neg(neg)\n"
                      "    neg_2 = torch.neg(neg_1);  neg_1 = None\n"
                      "    neg_3 = torch.neg(neg_2)\n"
                      "    neg_4 = torch.neg(neg_3)\n"
                      "    neg_5 = torch.neg(neg_4)\n"
                      "    neg_6 = torch.neg(neg_5)\n"
                      "    neg_7 = torch.neg(neg_6)\n"
                      "    neg_8 = torch.neg(neg_7)\n"
                      "    neg_9 = torch.neg(neg_8)\n"
                      "    neg_10 = torch.neg(neg_9);  neg_9 = None\n"
                      "    neg_11 = torch.neg(neg_10)\n"
                      "    neg_12 = torch.neg(neg_11)\n"
                      "    relu = torch.relu(neg_12)\n"
                      "    relu_1 = torch.relu(relu)\n"
                      "    stack = torch.stack([neg_12, neg_11, neg_10, relu_1, neg_8, "
                      "neg_7, neg_6, neg_5, neg_4, neg_3, neg_2, relu, neg]);  neg_12 = "
                      "neg_11 = neg_10 = relu_1 = neg_8 = neg_7 = neg_6 = neg_5 = neg_4 = "
                      "neg_3 = neg_2 = relu = neg = None\n"
                      "    return stack\n    ");
}

/* A frame of 70,000 names, whose index (more than 64 Ki slots) has each
 * new name's slot prefetched while its value is computed
 * (_graft_strmap_prefetch()): every name still found, early and late
 * ones read back after the rest, one bound again. */
static void
test_names_prefetched (void)
{
  const guint n = 70000;
  g_autoptr (GString) text = g_string_new (HEAD "class M(nn.Module):\n"
                                                "    def forward(self, x):\n"
                                                "        v0 = torch.neg(x)\n");
  g_autoptr (GString) expected = g_string_new ("\n\n\ndef forward(self, x):\n"
                                               "    neg = torch.neg(x);  x = None\n");

  for (guint i = 1; i < n; i++)
    {
      g_string_append_printf (text, "        v%u = torch.neg(v%u)\n", i, i - 1);
      if (i == 1)
        g_string_append (expected, "    neg_1 = torch.neg(neg)\n");
      else if (i == 124)
        g_string_append (expected, "    neg_124 = torch.neg(neg_123)\n");
      else
        g_string_append_printf (expected, "    neg_%u = torch.neg(neg_%u);  neg_%u = None\n", i,
                                i - 1, i - 1);
    }
  g_string_append_printf (text,
                          "        r = torch.add(v123, v%u)\n"
                          "        v5 = torch.relu(r)\n"
                          "        return torch.add(v5, v0)\n",
                          n - 1);
  g_string_append_printf (expected,
                          "    add = torch.add(neg_123, neg_%u);  neg_123 = neg_%u = None\n"
                          "    relu = torch.relu(add);  add = None\n"
                          "    add_1 = torch.add(relu, neg);  relu = neg = None\n"
                          "    return add_1\n    ",
                          n - 1, n - 1);
  assert_streamed_is ("names_prefetched", text->str, expected->str);
}

/* A module name read on every line of a streamed forward (`torch`, `F`)
 * is kept with the stamps of the frames on the way (graft-tracer-eval.c's
 * Tracer.outside_recent): locals whose first bytes are a module name's
 * (`va`, `Fa`, `tor`), a helper's own frame reading the same names, a
 * class attribute; and `F` bound as a local at the end, which makes every
 * read of it before an UnboundLocalError, as the usual way finds. */
static void
test_module_names_kept (void)
{
  const char      *body = HEAD "import torch.nn.functional as F\n\n\n"
                               "def helper(y):\n"
                               "    return F.relu(torch.neg(y))\n\n\n"
                               "class M(nn.Module):\n"
                               "    k = 2\n\n"
                               "    def forward(self, x):\n"
                               "        a = F.relu(x)\n"
                               "        b = torch.neg(a)\n"
                               "        va = helper(b)\n"
                               "        Fa = F.relu(va)\n"
                               "        tor = torch.neg(Fa)\n"
                               "        g = helper(tor)\n"
                               "        h = torch.add(g, M.k)\n";
  g_autofree char *kept = g_strconcat (body, "        return F.relu(h)\n", NULL);
  g_autofree char *local =
      g_strconcat (body, "        F = torch\n        return F.relu(h)\n", NULL);
  static const char *const unbound[] = { "UnboundLocalError: cannot access local variable 'F'" };

  assert_streamed_is ("module_names", kept,
                      "\n\n\ndef forward(self, x):\n"
                      "    relu = torch.nn.functional.relu(x, inplace = False);  x = None\n"
                      "    neg = torch.neg(relu);  relu = None\n"
                      "    neg_1 = torch.neg(neg);  neg = None\n"
                      "    relu_1 = torch.nn.functional.relu(neg_1, inplace = False);  neg_1 = "
                      "None\n"
                      "    relu_2 = torch.nn.functional.relu(relu_1, inplace = False);  relu_1 = "
                      "None\n"
                      "    neg_2 = torch.neg(relu_2);  relu_2 = None\n"
                      "    neg_3 = torch.neg(neg_2);  neg_2 = None\n"
                      "    relu_3 = torch.nn.functional.relu(neg_3, inplace = False);  neg_3 = "
                      "None\n"
                      "    add = torch.add(relu_3, 2);  relu_3 = None\n"
                      "    relu_4 = torch.nn.functional.relu(add, inplace = False);  add = None\n"
                      "    return relu_4\n    ");
  assert_traces_with_lines ("module_local", local, unbound, G_N_ELEMENTS (unbound));
}

/* Calls of torch functions and methods with names of traced values,
 * lists of them and numbers are recorded directly (graft-tracer-eval.c's
 * call_of_names()); what is not of that kind goes the usual way: a name
 * bound to a parameter or a Python int, a magic method, `*args`, a
 * method of an attribute, `torch` a parameter of a helper bound to a
 * class of the file; a leaf module is called directly. */
static void
test_direct_calls (void)
{
  const Case c = { "direct", HEAD "class Fake:\n"
                                  "    def neg(t):\n"
                                  "        return t + 1\n\n\n"
                                  "class M(nn.Module):\n"
                                  "    def __init__(self):\n"
                                  "        super().__init__()\n"
                                  "        self.w = nn.Parameter(torch.ones(4))\n"
                                  "        self.k = 3\n"
                                  "        self.lin = nn.Linear(4, 4)\n\n"
                                  "    def forward(self, x, y):\n"
                                  "        a = torch.neg(x)\n"
                                  "        w = self.w\n"
                                  "        b = torch.add(a, w)\n"
                                  "        k = self.k\n"
                                  "        c = torch.add(b, k)\n"
                                  "        d = torch.add(c, 2)\n"
                                  "        e = torch.cat([d, a]).sum(0)\n"
                                  "        f = e.__add__(a)\n"
                                  "        g = torch.neg(*[f])\n"
                                  "        h = helper(Fake, g)\n"
                                  "        i = x.T.sum()\n"
                                  "        j = self.lin(i)\n"
                                  "        return torch.stack([h, j, y])\n\n\n"
                                  "def helper(torch, x):\n"
                                  "    return torch.neg(x)\n",
                   NULL };

  for (guint d = 0; d < 2; d++)
    {
      const GraftDialect *dialect = graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6);
      g_autofree char    *usual = trace_usual (&c, dialect);
      g_autofree char    *streamed = trace_streamed (&c, dialect);

      g_assert_cmpstr (streamed, ==, usual);
      g_assert_cmpstr (streamed, ==,
                       "\n\n\ndef forward(self, x, y):\n"
                       "    neg = torch.neg(x)\n"
                       "    w = self.w\n"
                       "    add = torch.add(neg, w);  w = None\n"
                       "    add_1 = torch.add(add, 3);  add = None\n"
                       "    add_2 = torch.add(add_1, 2);  add_1 = None\n"
                       "    cat = torch.cat([add_2, neg]);  add_2 = None\n"
                       "    sum_1 = cat.sum(0);  cat = None\n"
                       "    add_3 = sum_1 + neg;  sum_1 = neg = None\n"
                       "    neg_1 = torch.neg(add_3);  add_3 = None\n"
                       "    add_4 = neg_1 + 1;  neg_1 = None\n"
                       "    getattr_1 = x.T;  x = None\n"
                       "    sum_2 = getattr_1.sum();  getattr_1 = None\n"
                       "    lin = self.lin(sum_2);  sum_2 = None\n"
                       "    stack = torch.stack([add_4, lin, y]);  add_4 = lin = y = None\n"
                       "    return stack\n    ");
    }
}

/* @text traced the usual way and streamed in @dialect: both @expected. */
static void
assert_both_ways (const char         *name,
                  const char         *text,
                  const GraftDialect *dialect,
                  const char         *expected)
{
  Case             c = { name, text, NULL };
  g_autofree char *usual = trace_usual (&c, dialect);
  g_autofree char *streamed = trace_streamed (&c, dialect);

  g_assert_cmpstr (usual, ==, expected);
  g_assert_cmpstr (streamed, ==, expected);
}

/* A direct call's argument check, skipped for a function that passed as
 * many traced values before (or a list of as many), still fails for
 * another count or kind, and every error is where the usual way puts
 * it. */
static void
test_direct_call_errors (void)
{
  static const struct
  {
    const char *body;
    const char *error;
  } errors[] = {
    { "        a = torch.relu(x)\n        b = torch.relu(a,  y)\n",
      "8:13: error: TypeError: relu() takes 1 positional argument but 2 were given" },
    { "        a = torch.flatten(x, 0)\n        b = torch.flatten(a, y)\n",
      "8:13: error: TypeError: flatten(): argument 'start_dim' (position 2) must be int, not "
      "Proxy" },
    { "        a = torch.flatten(x)\n        f = \"s\"\n        b = torch.flatten(f)\n",
      "9:13: error: TypeError: flatten(): argument 'input' (position 1) must be Tensor, not str" },
    { "        a = torch.add(x, y)\n        s = \"s\"\n        b = torch.add(a,  s)\n",
      "9:13: error: TypeError: add(): argument 'other' (position 2) must be Tensor, not str" },
    { "        a = torch.cat([x, y])\n        b = torch.cat([a, y], y)\n",
      "8:13: error: TypeError: cat() received an invalid combination of arguments - got (list, "
      "Proxy), but expected one of:" },
    { "        a = torch.cat([x, y])\n        s = \"s\"\n        b = torch.cat([a, s])\n",
      "9:13: error: TypeError: expected Tensor as element 1 in argument 0, but got str" },
    { "        a = torch.relu(x)\n        b = torch.relu([a])\n",
      "8:13: error: TypeError: relu(): argument 'input' (position 1) must be Tensor, not list" },
    { "        a = torch.relu(x)\n        b = a + torch.relu(a, y)\n",
      "8:17: error: TypeError: relu() takes 1 positional argument but 2 were given" },
    { "        a = torch.relu(x)\n        b = nn.Linear(4, 4)(a)\n",
      "8:13: error: this Linear is not a submodule of the traced module, so torch.fx cannot name "
      "it" },
    { "        a = torch.relu(x)\n        b = torch.relu(a, undefined)\n",
      "8:27: error: NameError: name 'undefined' is not defined" },
    { "        a = torch.relu(x)\n        b = torch.cat([a, undefined]).sum()\n",
      "8:27: error: NameError: name 'undefined' is not defined" },
    { "        a = torch.relu(x)\n        b = a.sum(0) + torch.relu(*[a, a])\n",
      "8:24: error: TypeError: relu() takes 1 positional argument but 2 were given" },
    { "        a = torch.relu(x)\n        b = a.sum(0) + a.view(-1, undefined)\n",
      "8:35: error: NameError: name 'undefined' is not defined" },
    /* Proxy's own members: keys() takes no argument, node and tracer are
     * not methods torch.fx records. */
    { "        a = x.keys()\n        b = a.keys(y)\n",
      "8:13: error: TypeError: Proxy.keys() takes 1 positional argument but 2 were given" },
    { "        a = x.keys()\n        b = a.keys(y, k=1)\n",
      "8:13: error: TypeError: Proxy.keys() got an unexpected keyword argument 'k'" },
    { "        a = x.T.keys(1)\n        b = a\n",
      "7:13: error: TypeError: Proxy.keys() takes 1 positional argument but 2 were given" },
    { "        a = x.sum()\n        b = a.node(y)\n",
      "8:13: error: TypeError: 'Node' object is not callable" },
    { "        a = x.sum()\n        b = a.tracer()\n",
      "8:13: error: TypeError: 'Tracer' object is not callable" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (errors); i++)
    for (guint d = 0; d < 2; d++)
      {
        const GraftDialect *dialect =
            graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6);
        g_autofree char *text = g_strconcat (HEAD "class M(nn.Module):\n"
                                                  "    def forward(self, x, y):\n",
                                             errors[i].body, "        return b\n", NULL);
        g_autofree char *expected = g_strconcat ("error: test.py:", errors[i].error, NULL);

        assert_both_ways ("direct_errors", text, dialect, expected);
      }
}

/* A function of torch called with traced values and keywords that are
 * names bound to traced values or plain numbers is recorded directly: a
 * Python function of torch (`F.relu(x)`, `F.softmax(x, dim=1)`) bound and
 * laid out by its template (call_python_direct()), a C builtin
 * (`torch.cat([a, b], dim=1)`) after its check, a method (`x.sum(dim=1)`)
 * as it is; a keyword bound to a Python int, a call by keyword alone and
 * a list argument of a Python function go the usual way.  The same code
 * in both dialects, both ways. */
static void
test_direct_python_calls (void)
{
  const Case c = { "direct_python",
                   HEAD "import torch.nn.functional as F\n\n\n"
                        "class M(nn.Module):\n"
                        "    def forward(self, x, y):\n"
                        "        k = 1\n"
                        "        a = F.relu(x)\n"
                        "        b = F.softmax(a, dim=1)\n"
                        "        c = F.softmax(b, 1)\n"
                        "        d = F.leaky_relu(c, negative_slope=0.2, inplace=False)\n"
                        "        e = F.dropout(d, p=0.5, training=False)\n"
                        "        f = F.softmax(e, dim=k)\n"
                        "        g = F.relu(input=f)\n"
                        "        h = F.layer_norm(g, [4], y)\n"
                        "        i = F.gelu(h, approximate=\"tanh\")\n"
                        "        j = F.normalize(i, 2.0, dim=1, eps=1e-12)\n"
                        "        l = F.softmax(j, dim=-1, dtype=None)\n"
                        "        m = F.relu(l, inplace=y)\n"
                        "        n = torch.cat([m, y], dim=1)\n"
                        "        o = n.sum(dim=1, keepdim=True)\n"
                        "        p = torch.stack([o, x], dim=k)\n"
                        "        q = torch.flatten(p, start_dim=1)\n"
                        "        r = q.view(-1, size=2)\n"
                        "        s = torch.add(r, other=y, alpha=2)\n"
                        "        return F.elu(s, alpha=1.0)\n",
                   NULL };

  for (guint d = 0; d < 2; d++)
    {
      const GraftDialect *dialect = graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6);
      g_autofree char    *usual = trace_usual (&c, dialect);
      g_autofree char    *streamed = trace_streamed (&c, dialect);

      g_assert_cmpstr (streamed, ==, usual);
      g_assert_cmpstr (streamed, ==,
                       "\n\n\n"
                       "def forward(self, x, y):\n"
                       "    relu = torch.nn.functional.relu(x, inplace = False)\n"
                       "    softmax = torch.nn.functional.softmax(relu, dim = 1, _stacklevel = 3, "
                       "dtype = None);  relu = None\n"
                       "    softmax_1 = torch.nn.functional.softmax(softmax, dim = 1, _stacklevel "
                       "= 3, dtype = None);  softmax = None\n"
                       "    leaky_relu = torch.nn.functional.leaky_relu(softmax_1, negative_slope "
                       "= 0.2, inplace = False);  softmax_1 = None\n"
                       "    dropout = torch.nn.functional.dropout(leaky_relu, p = 0.5, training = "
                       "False, inplace = False);  leaky_relu = None\n"
                       "    softmax_2 = torch.nn.functional.softmax(dropout, dim = 1, _stacklevel "
                       "= 3, dtype = None);  dropout = None\n"
                       "    relu_1 = torch.nn.functional.relu(softmax_2, inplace = False);  "
                       "softmax_2 = None\n"
                       "    layer_norm = torch.nn.functional.layer_norm(relu_1, [4], weight = y, "
                       "bias = None, eps = 1e-05);  relu_1 = None\n"
                       "    gelu = torch._C._nn.gelu(layer_norm, approximate = 'tanh');  "
                       "layer_norm = None\n"
                       "    normalize = torch.nn.functional.normalize(gelu, p = 2.0, dim = 1, eps "
                       "= 1e-12, out = None);  gelu = None\n"
                       "    softmax_3 = torch.nn.functional.softmax(normalize, dim = -1, "
                       "_stacklevel = 3, dtype = None);  normalize = None\n"
                       "    relu_2 = torch.nn.functional.relu(softmax_3, inplace = y);  softmax_3 "
                       "= None\n"
                       "    cat = torch.cat([relu_2, y], dim = 1);  relu_2 = None\n"
                       "    sum_1 = cat.sum(dim = 1, keepdim = True);  cat = None\n"
                       "    stack = torch.stack([sum_1, x], dim = 1);  sum_1 = x = None\n"
                       "    flatten = torch.flatten(stack, start_dim = 1);  stack = None\n"
                       "    view = flatten.view(-1, size = 2);  flatten = None\n"
                       "    add = torch.add(view, other = y, alpha = 2);  view = y = None\n"
                       "    elu = torch.nn.functional.elu(add, alpha = 1.0, inplace = False);  add "
                       "= None\n"
                       "    return elu"
                       "\n    ");
    }
}

/* What the direct way for calls with keywords does not bind (too many
 * arguments, an unknown keyword, one given twice, a required one missing),
 * does not pass the check or cannot evaluate fails as the usual way does,
 * at the same place. */
static void
test_direct_python_call_errors (void)
{
  static const struct
  {
    const char *body;
    const char *error;
  } errors[] = {
    { "        a = F.relu(x)\n        b = F.relu(a, y, y)\n",
      "11:13: error: TypeError: relu() takes from 1 to 2 positional arguments but 3 were given" },
    { "        a = F.relu(x)\n        b = a + F.relu(a, y, y)\n",
      "11:17: error: TypeError: relu() takes from 1 to 2 positional arguments but 3 were given" },
    { "        a = F.relu(x)\n        b = F.relu(a, foo=1)\n",
      "11:13: error: TypeError: relu() got an unexpected keyword argument 'foo'" },
    { "        a = F.relu(x)\n        b = F.relu(a, input=a)\n",
      "11:13: error: TypeError: relu() got multiple values for argument 'input'" },
    { "        a = F.softmax(x, dim=1)\n        b = F.softmax(a, 1, dim=1)\n",
      "11:13: error: TypeError: softmax() got multiple values for argument 'dim'" },
    { "        a = F.softmax(x, dim=1)\n        b = F.softmax(a, dim=1, dim=2)\n",
      "11:33: error: keyword argument repeated: dim" },
    { "        a = F.layer_norm(x, [4])\n        b = F.layer_norm(a)\n",
      "11:13: error: TypeError: layer_norm() missing 1 required positional argument: "
      "'normalized_shape'" },
    { "        a = F.relu(x)\n        b = F.relu(a, inplace=undefined)\n",
      "11:31: error: NameError: name 'undefined' is not defined" },
    { "        a = F.softmax(x, dim=1)\n        b = F.softmax(undefined, dim=1)\n",
      "11:23: error: NameError: name 'undefined' is not defined" },
    { "        a = torch.flatten(x, start_dim=1)\n        b = torch.flatten(a, start_dim=y)\n",
      "11:13: error: TypeError: flatten(): argument 'start_dim' must be int, not Proxy" },
    { "        a = torch.cat([x, y], dim=1)\n        b = torch.cat([a, y], dim=1, dim=1)\n",
      "11:38: error: keyword argument repeated: dim" },
    { "        a = torch.add(x, other=y)\n        b = torch.add(a, other=y, foo=y)\n",
      "11:13: error: TypeError: add() got an unexpected keyword argument 'foo'" },
    { "        a = x.sum(dim=1)\n        b = a.sum(dim=undefined)\n",
      "11:23: error: NameError: name 'undefined' is not defined" },
    { "        a = torch.cat([x, y], dim=0)\n        b = torch.cat([a, y], dim=x)\n",
      "11:13: error: TypeError: cat() received an invalid combination of arguments - got (list, "
      "dim=Proxy), but expected one of:" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (errors); i++)
    for (guint d = 0; d < 2; d++)
      {
        const GraftDialect *dialect =
            graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6);
        g_autofree char *text = g_strconcat (HEAD "import torch.nn.functional as F\n\n\n"
                                                  "class M(nn.Module):\n"
                                                  "    def forward(self, x, y):\n",
                                             errors[i].body, "        return b\n", NULL);
        g_autofree char *expected = g_strconcat ("error: test.py:", errors[i].error, NULL);

        assert_both_ways ("direct_python_errors", text, dialect, expected);
      }
}

/* A Python function's binding errors in CPython's words, in its order
 * (keywords, then too many positional arguments, then missing ones), with
 * Python 3.13's "Did you mean" in torch 2.6 only (1.13 runs on 3.11).  Each
 * expected line is both oracles' output for the same file. */
static void
test_python_binding_errors (void)
{
  static const struct
  {
    const char *call, *error, *hint_2_6;
  } errors[] = {
    { "f(x)", "TypeError: f() missing 1 required positional argument: 'b'", NULL },
    { "f(x, x)", "TypeError: f() missing 2 required keyword-only arguments: 'k' and 'm'", NULL },
    { "g(x)", "TypeError: g() missing 2 required positional arguments: 'b' and 'c'", NULL },
    { "g()", "TypeError: g() missing 3 required positional arguments: 'a', 'b', and 'c'", NULL },
    { "g(x, x, x, a=1)",
      "TypeError: g() got some positional-only arguments passed as keyword arguments: 'a'", NULL },
    { "h(x, x, k=2)",
      "TypeError: h() takes 1 positional argument but 2 positional arguments (and 1 "
      "keyword-only argument) were given",
      NULL },
    { "h(x, x, kk=2)", "TypeError: h() got an unexpected keyword argument 'kk'",
      ". Did you mean 'k'?" },
    { "F.softmax(x, dimm=1)", "TypeError: softmax() got an unexpected keyword argument 'dimm'",
      ". Did you mean 'dim'?" },
    { "F.relu(x, False, 1)",
      "TypeError: relu() takes from 1 to 2 positional arguments but 3 were given", NULL },
    { "F.relu(x, zzzz=1)", "TypeError: relu() got an unexpected keyword argument 'zzzz'", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (errors); i++)
    for (guint d = 0; d < 2; d++)
      {
        const GraftDialect *dialect =
            graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6);
        g_autofree char *text =
            g_strconcat (HEAD "import torch.nn.functional as F\n\n\n"
                              "def f(a, b, *, k, m):\n    return a\n\n\n"
                              "def g(a, b, c, /, d=1):\n    return a\n\n\n"
                              "def h(a, *, k=1):\n    return a\n\n\n"
                              "class M(nn.Module):\n    def forward(self, x):\n        return ",
                         errors[i].call, "\n", NULL);
        g_autofree char *expected =
            g_strconcat ("error: test.py:22:16: error: ", errors[i].error,
                         d == 1 && errors[i].hint_2_6 != NULL ? errors[i].hint_2_6 : "", NULL);

        assert_both_ways ("python_binding_errors", text, dialect, expected);
      }
}

/* A keyword is written as it is: one holding a newline (from a `**dict`)
 * has the line's inner lines indented, as torch's code does, while other
 * keywords leave the line unsearched (codegen's append_call_args()). */
static void
test_keyword_newline (void)
{
  const Case c = { "keyword_newline",
                   HEAD "class M(nn.Module):\n"
                        "    def forward(self, x):\n"
                        "        a = x.sum(**{\"a\\nb\": 1})\n"
                        "        return a.sum(dim=1, keepdim=False)\n",
                   NULL };

  for (guint d = 0; d < 2; d++)
    {
      const GraftDialect *dialect = graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6);
      g_autofree char    *usual = trace_usual (&c, dialect);

      g_assert_cmpstr (usual, ==,
                       "\n\n\ndef forward(self, x):\n"
                       "    sum_1 = x.sum(a\n"
                       "    b = 1);  x = None\n"
                       "    sum_2 = sum_1.sum(dim = 1, keepdim = False);  sum_1 = None\n"
                       "    return sum_2\n    ");
    }
}

/* The torch functions of both tables, as test-fx-table.c reads them:
 * each one's access path, kind and signature. */
typedef struct
{
  const char *path;
  const char *kind;
  const char *signature;
} TableRow;

#define GRAFT_FX_FUNCTION(path, kind, target, name, sig, pos, kw, code, path_at, target_at, \
                          name_at, sig_at, pos_at, kw_at)                                   \
  { path, #kind, sig },

static const TableRow rows_2_6[] = {
#include "graft-fx-table-2.6.inc"
};

static const TableRow rows_1_13[] = {
#include "graft-fx-table-1.13.inc"
};

#undef GRAFT_FX_FUNCTION

/* @call traced in a forward of (x, y), as its code or its error. */
static char *
trace_call (const GraftDialect *dialect,
            const char         *call)
{
  g_autofree char *text = g_strconcat (HEAD "class M(nn.Module):\n"
                                            "    def forward(self, x, y):\n"
                                            "        return ",
                                       call, "\n", NULL);
  Case             c = { "direct_table", text, NULL };

  return trace_usual (&c, dialect);
}

/* Every Python function of torch in each table (`F.relu`), called with
 * traced values and keywords that are names or numbers (the direct way,
 * call_python_direct()) and called the same way through `*[...]` and
 * `**{...}` (which the usual way binds, bind_arguments()): the same code,
 * or the same error at the same place, for the required arguments alone,
 * each optional one by keyword, a keyword given positionally too, an
 * unknown keyword and one positional argument too many. */
static void
test_direct_python_table (void)
{
  guint n_calls = 0;

  for (guint d = 0; d < 2; d++)
    {
      const GraftDialect *dialect = graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6);
      const TableRow     *rows = d == 0 ? rows_1_13 : rows_2_6;
      gsize               n_rows = d == 0 ? G_N_ELEMENTS (rows_1_13) : G_N_ELEMENTS (rows_2_6);

      for (gsize r = 0; r < n_rows; r++)
        {
          g_auto (GStrv) params = NULL;
          g_autoptr (GPtrArray) required = g_ptr_array_new_with_free_func (g_free);
          g_autoptr (GPtrArray) optional = g_ptr_array_new_with_free_func (g_free);
          g_autoptr (GPtrArray) direct = g_ptr_array_new_with_free_func (g_free);
          g_autoptr (GPtrArray) splat = g_ptr_array_new_with_free_func (g_free);
          g_autoptr (GString) pos = g_string_new ("x");
          g_autoptr (GString) list = g_string_new ("[x");

          if (strcmp (rows[r].kind, "PYTHON") != 0 || rows[r].signature[0] == '\0')
            continue;
          params = g_strsplit (rows[r].signature, ", ", -1);
          for (guint i = 0; params[i] != NULL; i++)
            {
              char *eq = strchr (params[i], '=');

              /* Keyword-only parameters follow: given by keyword below. */
              if (strcmp (params[i], "*") == 0)
                continue;
              /* `*args` or `**kwargs`: not for the direct way. */
              if (params[i][0] == '*')
                {
                  g_ptr_array_set_size (required, 0);
                  break;
                }
              if (eq == NULL)
                g_ptr_array_add (required, g_strdup (params[i]));
              else
                g_ptr_array_add (optional, g_strndup (params[i], eq - params[i]));
            }
          if (required->len == 0)
            continue;
          for (guint i = 1; i < required->len; i++)
            {
              g_string_append (pos, ", y");
              g_string_append (list, ", y");
            }
          g_string_append_c (list, ']');

#define ADD(dir, spl)                  \
  do                                   \
    {                                  \
      g_ptr_array_add (direct, (dir)); \
      g_ptr_array_add (splat, (spl));  \
    }                                  \
  while (0)
          ADD (g_strdup_printf ("%s(%s)", rows[r].path, pos->str),
               g_strdup_printf ("%s(*%s)", rows[r].path, list->str));
          for (guint i = 0; i < optional->len; i++)
            {
              const char *name = optional->pdata[i];

              ADD (g_strdup_printf ("%s(%s, %s=y)", rows[r].path, pos->str, name),
                   g_strdup_printf ("%s(*%s, **{'%s': y})", rows[r].path, list->str, name));
              if (optional->len > 1)
                {
                  const char *other = optional->pdata[(i + 1) % optional->len];

                  ADD (g_strdup_printf ("%s(%s, %s=-1.5, %s=1)", rows[r].path, pos->str, name,
                                        other),
                       g_strdup_printf ("%s(*%s, **{'%s': -1.5, '%s': 1})", rows[r].path,
                                        list->str, name, other));
                }
            }
          ADD (g_strdup_printf ("%s(%s, %s=y)", rows[r].path, pos->str,
                                (const char *) required->pdata[required->len - 1]),
               g_strdup_printf ("%s(*%s, **{'%s': y})", rows[r].path, list->str,
                                (const char *) required->pdata[required->len - 1]));
          ADD (g_strdup_printf ("%s(%s, bogus=y)", rows[r].path, pos->str),
               g_strdup_printf ("%s(*%s, **{'bogus': y})", rows[r].path, list->str));
          {
            g_autoptr (GString) more = g_string_new (pos->str);
            g_autoptr (GString) more_list = g_string_new (NULL);

            for (guint i = 0; i <= optional->len; i++)
              g_string_append (more, ", y");
            g_string_append_printf (more_list, "[%s]", more->str);
            ADD (g_strdup_printf ("%s(%s)", rows[r].path, more->str),
                 g_strdup_printf ("%s(*%s)", rows[r].path, more_list->str));
          }
#undef ADD
          for (guint i = 0; i < direct->len; i++)
            {
              g_autofree char *a = trace_call (dialect, direct->pdata[i]);
              g_autofree char *b = trace_call (dialect, splat->pdata[i]);

              if (strcmp (a, b) != 0)
                g_test_message ("%s / %s", (const char *) direct->pdata[i],
                                (const char *) splat->pdata[i]);
              g_assert_cmpstr (a, ==, b);
              n_calls++;
            }
        }
    }
  /* Both tables were read. */
  g_assert_cmpuint (n_calls, >, 500);
}

/* What Python prints of a value Graft does not keep (a function, a module,
 * torch.nn's classes with their module's path, an address) is refused with
 * its place, never printed as something else: str(int) was '<function>',
 * str(nn.Linear) '<class>'.  What it does keep prints as Python does (each
 * checked against both torches' fx-reference). */
static void
test_printed_values (void)
{
  static const char *const printed[][2] = {
    { "str(int)", "    return (x, \"<class 'int'>\")\n" },
    { "repr(type(x))", "    return (x, \"<class 'torch.fx.proxy.Proxy'>\")\n" },
    { "f'{type(None)}'", "    return (x, \"<class 'NoneType'>\")\n" },
    { "type(self.lin).__name__", "    return (x, 'Linear')\n" },
    { "str(len)", "error: test.py:11:19: error: str() of a function is not modelled by Graft's "
                  "tracer (Python prints what Graft does not keep)" },
    { "str(nn.Linear)", "error: test.py:11:19: error: str() of a class is not modelled by "
                        "Graft's tracer (Python prints what Graft does not keep)" },
    { "'%s' % (self.lin,)", "error: test.py:11:19: error: formatting of a Linear is not "
                            "modelled by Graft's tracer (Python prints what Graft does not "
                            "keep)" },
    { "f'{[self.lin]}'", "error: test.py:11:21: error: formatting of a Linear is not modelled "
                         "by Graft's tracer (Python prints what Graft does not keep)" },
    { "'{}'.format(iter([]))", "error: test.py:11:19: error: formatting of a list_iterator is "
                               "not modelled by Graft's tracer (Python prints what Graft does "
                               "not keep)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (printed); i++)
    for (guint d = 0; d < 2; d++)
      {
        g_autofree char *text =
            g_strdup_printf (HEAD "class M(nn.Module):\n"
                                  "    def __init__(self):\n"
                                  "        super().__init__()\n"
                                  "        self.lin = nn.Linear(4, 4)\n\n"
                                  "    def forward(self, x):\n"
                                  "        return x, %s\n",
                             printed[i][0]);
        Case             c = { "printed", text, NULL };
        g_autofree char *out =
            trace_usual (&c, graft_dialect_get (d == 0 ? GRAFT_TORCH_1_13 : GRAFT_TORCH_2_6));
        char *code = strstr (out, "    return");

        /* The code ends in its last line's indent. */
        if (code != NULL && g_str_has_suffix (code, "\n    "))
          code[strlen (code) - 4] = '\0';
        g_assert_cmpstr (g_str_has_prefix (out, "error: ") ? out : code, ==, printed[i][1]);
      }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strconcat ("/core/trace-stream/same/", cases[i].name, NULL);

      g_test_add_data_func (path, &cases[i], test_same);
    }
  g_test_add_func ("/core/trace-stream/precedence", test_precedence);
  g_test_add_func ("/core/trace-stream/names-hashed", test_names_hashed);
  g_test_add_func ("/core/trace-stream/names-prefetched", test_names_prefetched);
  g_test_add_func ("/core/trace-stream/keyword-method-names", test_keyword_method_names);
  g_test_add_func ("/core/trace-stream/keyword-module-paths", test_keyword_module_paths);
  g_test_add_func ("/core/trace-stream/deferred-body", test_deferred_body);
  g_test_add_func ("/core/trace-stream/deferred-syntax-error", test_deferred_syntax_error);
  g_test_add_func ("/core/trace-stream/deferred-every-case", test_deferred_every_case);
  g_test_add_func ("/core/trace-stream/constructor-each-graph", test_constructor_each_graph);
  g_test_add_func ("/core/trace-stream/check-after-pass", test_check_after_pass);
  g_test_add_func ("/core/trace-stream/arena-per-line", test_arena_per_line);
  g_test_add_func ("/core/trace-stream/arena-range-loop", test_arena_range_loop);
  g_test_add_func ("/core/trace-stream/arena-layer-checks", test_arena_layer_checks);
  g_test_add_func ("/core/trace-stream/layer-checks-lazy", test_layer_checks_lazy);
  g_test_add_func ("/core/trace-stream/big-frame-rebinds", test_big_frame_rebinds);
  g_test_add_func ("/core/trace-stream/absent-keys", test_absent_keys);
  g_test_add_func ("/core/trace-stream/indexed-maps", test_indexed_maps);
  g_test_add_func ("/core/trace-stream/reserved-scope", test_reserved_scope);
  g_test_add_func ("/core/trace-stream/float-constants", test_float_constants);
  g_test_add_func ("/core/trace-stream/getattr-names", test_getattr_names);
  g_test_add_func ("/core/trace-stream/shadowed-globals", test_shadowed_globals);
  g_test_add_func ("/core/trace-stream/module-names-kept", test_module_names_kept);
  g_test_add_func ("/core/trace-stream/direct-calls", test_direct_calls);
  g_test_add_func ("/core/trace-stream/printed-values", test_printed_values);
  g_test_add_func ("/core/trace-stream/direct-call-errors", test_direct_call_errors);
  g_test_add_func ("/core/trace-stream/direct-python-calls", test_direct_python_calls);
  g_test_add_func ("/core/trace-stream/keyword-newline", test_keyword_newline);
  g_test_add_func ("/core/trace-stream/direct-python-call-errors", test_direct_python_call_errors);
  g_test_add_func ("/core/trace-stream/python-binding-errors", test_python_binding_errors);
  g_test_add_func ("/core/trace-stream/direct-python-table", test_direct_python_table);
  return g_test_run ();
}
