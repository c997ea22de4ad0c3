/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-signatures.c: the argument checks of torch's C builtins
 * (core/trace/graft-tracer-check.c and its generated tables) and the
 * attributes a torch.fx Proxy really holds, in both dialects.
 *
 * Each case is a forward of one or two statements and what both torches
 * do with it (the oracles' answers, as tests/tools/check-signatures
 * compares them): the error line, or a piece of the code it traces to.
 * The golden corpora hold the same kinds of cases whole
 * (tests/data/errors/parser_*, proxy_*; tests/data/golden/
 * numbers_as_tensors, proxy_own_attributes); these pin each rule down
 * alone, with the dialect that differs.
 */
#include "config.h"

#include "graft.h"

#include <string.h>

typedef struct
{
  const char *body;       /* the forward's statements, each on its own line */
  const char *error;      /* "LINE:COL: error: TEXT" in torch 2.6, or NULL: it traces */
  const char *error_1_13; /* the same in torch 1.13 where it differs, else NULL */
  const char *code;       /* when it traces: a piece of the code */
} Case;

/* The error line of tracing @body in @torch, or the code (transfer full). */
static char *
trace (GraftTorch  torch,
       const char *body,
       gboolean   *failed)
{
  g_autofree char *text = g_strconcat ("import torch\n\n\nclass M(torch.nn.Module):\n"
                                       "    def forward(self, x, y):\n",
                                       body, NULL);
  g_autoptr (GraftSource) source = graft_source_new ("test.py", text, -1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftGraph) graph =
      graft_trace_source (source, graft_dialect_get (torch), NULL, &error);
  g_autofree char *line = NULL;

  *failed = graph == NULL;
  if (graph != NULL)
    return graft_codegen_python (graph);
  g_assert_nonnull (error);
  line = graft_error_format (error, NULL);
  /* "test.py:LINE:COL: error: TEXT" without the file. */
  g_assert_true (g_str_has_prefix (line, "test.py:"));
  return g_strdup (line + strlen ("test.py:"));
}

static void
check_cases (const Case *cases,
             gsize       n)
{
  for (gsize i = 0; i < n; i++)
    for (guint d = 0; d < 2; d++)
      {
        GraftTorch       torch = d == 0 ? GRAFT_TORCH_2_6 : GRAFT_TORCH_1_13;
        const char      *error = d == 1 && cases[i].error_1_13 != NULL ? cases[i].error_1_13
                                                                       : cases[i].error;
        gboolean         failed = FALSE;
        g_autofree char *got = trace (torch, cases[i].body, &failed);

        if (error != NULL)
          {
            g_assert_true (failed);
            g_assert_cmpstr (got, ==, error);
          }
        else
          {
            if (failed)
              g_error ("%s traces in torch %s, but Graft says %s", cases[i].body,
                       d == 0 ? "2.6" : "1.13", got);
            g_assert_nonnull (strstr (got, cases[i].code));
          }
      }
}

/* Parsers whose library strings have look-alikes (`neg(Tensor input)` beside
 * `neg(Tensor input, *, Tensor out=None)`): the generator once left them
 * out, so nothing was checked. */
static void
test_look_alike_parsers (void)
{
  static const Case cases[] = {
    { "        return torch.neg(x, y)\n",
      "6:16: error: TypeError: neg() takes 1 positional argument but 2 were given" },
    { "        return torch.mul(x, y, 3)\n",
      "6:16: error: TypeError: mul() takes 2 positional arguments but 3 were given" },
    { "        return torch.exp(x, y)\n",
      "6:16: error: TypeError: exp() takes 1 positional argument but 2 were given" },
    { "        return torch.mean(x, dim=True)\n",
      "6:16: error: TypeError: mean() received an invalid combination of arguments - got (Proxy, "
      "dim=bool), but expected one of:" },
    /* IntArrayRef and SymIntArrayRef look-alikes (torch 2.6). */
    { "        return torch.reshape(x, (x.dim(), -1))\n",
      "6:16: error: TypeError: reshape(): argument 'shape' (position 2) must be tuple of ints, but "
      "found element of type Proxy at pos 0",
      "6:16: error: TypeError: reshape(): argument 'shape' (position 2) must be tuple of SymInts, "
      "not tuple" },
    /* An alias parses under its parser's name. */
    { "        return torch.hsmm(x, y, y)\n",
      "6:16: error: TypeError: hspmm() takes 2 positional arguments but 3 were given" },
    { "        return torch.neg(x)\n", NULL, NULL, "neg = torch.neg(x)" },
    { "        return torch.max(x, 1, True)\n", NULL, NULL, "max_1 = torch.max(x, 1, True)" },
    { "        return torch.matmul(x, y)\n", NULL, NULL, "matmul = torch.matmul(x, y)" },
  };

  check_cases (cases, G_N_ELEMENTS (cases));
}

/* A bool is no int: not where a tuple of ints is wanted, not as its first
 * item (the only one torch looks at). */
static void
test_bool_is_no_int (void)
{
  static const Case cases[] = {
    { "        return torch.sum(x, True)\n",
      "6:16: error: TypeError: sum() received an invalid combination of arguments - got (Proxy, "
      "bool), but expected one of:" },
    { "        return torch.permute(x, (True, 0))\n",
      "6:16: error: TypeError: permute(): argument 'dims' (position 2) must be tuple of ints, but "
      "found element of type bool at pos 0",
      "6:16: error: TypeError: permute(): argument 'dims' (position 2) must be tuple of ints, not "
      "tuple" },
    { "        return torch.sum(x, (0, True))\n", NULL, NULL, "torch.sum(x, (0, True))" },
    /* A call that passed keeps its argument kinds in the tracer's cache:
     * the same call with a bool is parsed again. */
    { "        a = torch.sum(x, 1)\n        return torch.sum(a, True)\n",
      "7:16: error: TypeError: sum() received an invalid combination of arguments - got (Proxy, "
      "bool), but expected one of:" },
  };

  check_cases (cases, G_N_ELEMENTS (cases));
}

/* One printed signature and a keyword it does not recognise: torch
 * matches N keywords against the last N names it reads back from the
 * printed text (in 2.6 the last word of `Tensor out = None` is "None"). */
static void
test_unrecognized_keywords (void)
{
  static const Case cases[] = {
    { "        return torch.addmm(x, beta=1)\n",
      "6:16: error: TypeError: addmm() received an invalid combination of arguments - got "
      "unrecognized keyword arguments: beta" },
    { "        return torch.addbmm(x, out=None)\n",
      "6:16: error: TypeError: addbmm() received an invalid combination of arguments - got "
      "unrecognized keyword arguments: out",
      "6:16: error: TypeError: addbmm() received an invalid combination of arguments - got "
      "(Proxy, out=NoneType), but expected (Tensor input, Tensor batch1, Tensor batch2, *, "
      "Number beta, Number alpha, Tensor out)" },
  };

  check_cases (cases, G_N_ELEMENTS (cases));
}

/* A number passes for a Tensor only where the function allows it. */
static void
test_numbers_as_tensors (void)
{
  static const Case cases[] = {
    { "        return torch.mm(1, x)\n",
      "6:16: error: TypeError: mm(): argument 'input' (position 1) must be Tensor, not int" },
    { "        return torch.matmul(x, 1.5)\n",
      "6:16: error: TypeError: matmul(): argument 'other' (position 2) must be Tensor, not float" },
    { "        return torch.conv2d(x, True)\n",
      "6:16: error: TypeError: conv2d() received an invalid combination of arguments - got "
      "(Proxy, bool), but expected one of:" },
    { "        return torch.add(1, x)\n", NULL, NULL, "add = torch.add(1, x)" },
    { "        return torch.where(x > 0, x, 0)\n", NULL, NULL, "torch.where(gt, x, 0)" },
  };

  check_cases (cases, G_N_ELEMENTS (cases));
}

/* What Python finds on a Proxy (or an Attribute, `x.T`) before its
 * __getattr__. */
static void
test_proxy_own_attributes (void)
{
  static const Case cases[] = {
    { "        return x.T.root(y)\n", NULL, NULL, "call = x.__call__(y)" },
    { "        return x.T.attr\n", NULL, NULL, "return 'T'" },
    { "        return x.T._node\n", NULL, NULL, "return None" },
    { "        return x.__module__\n", NULL, NULL, "return 'torch.fx.proxy'" },
    { "        return x.root\n", NULL, NULL, "getattr_1 = x.root" },
    /* Unused, the Node is nothing to torch.fx. */
    { "        a = x.node\n        return x\n", NULL, NULL, "return x" },
    { "        return x.node\n",
      "6:16: error: 'node' of a traced value is its torch.fx Node, which Graft does not model" },
    { "        return (y, x.T.tracer)\n",
      "6:16: error: 'tracer' of a traced value is its torch.fx Tracer, which Graft does not "
      "model" },
    { "        a = x.T\n        b = a + 1\n        return a._node\n",
      "8:16: error: '_node' of a traced value is its torch.fx Node, which Graft does not model" },
    { "        return x.node(y)\n", "6:16: error: TypeError: 'Node' object is not callable" },
  };

  check_cases (cases, G_N_ELEMENTS (cases));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/signatures/look-alike-parsers", test_look_alike_parsers);
  g_test_add_func ("/core/signatures/bool-is-no-int", test_bool_is_no_int);
  g_test_add_func ("/core/signatures/numbers-as-tensors", test_numbers_as_tensors);
  g_test_add_func ("/core/signatures/unrecognized-keywords", test_unrecognized_keywords);
  g_test_add_func ("/core/signatures/proxy-own-attributes", test_proxy_own_attributes);
  return g_test_run ();
}
