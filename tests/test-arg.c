/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-arg.c: argument values: Python's repr of floats, strings and complex
 * numbers (every expectation checked against Python 3.11's repr), containers
 * in code and listing style, Python equality, copy and clear.  Leaks are
 * left to AddressSanitizer builds.
 */
#include "config.h"

#include "graft-view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *
float_repr (double value)
{
  GString *out = g_string_new (NULL);

  graft_append_float_repr (out, value);
  return g_string_free (out, FALSE);
}

static void
test_float_repr (void)
{
  static const struct
  {
    double      value;
    const char *repr;
  } cases[] = {
    { 0.1, "0.1" },
    { 1e-05, "1e-05" },
    { 1e+20, "1e+20" },
    { 1e16, "1e+16" },
    { 1e15, "1000000000000000.0" },
    { 123456789012345678.0, "1.2345678901234568e+17" },
    { 2.5, "2.5" },
    { 4.0, "4.0" },
    { -0.0, "-0.0" },
    { 0.0, "0.0" },
    { 5e-324, "5e-324" },
    { 1.7976931348623157e308, "1.7976931348623157e+308" },
    { 0.0001, "0.0001" },
    { 0.00001, "1e-05" },
    { 1.0 / 3.0, "0.3333333333333333" },
    { 1e22, "1e+22" },
    { 9007199254740993.0, "9007199254740992.0" },
    { 100.0, "100.0" },
    { 1e-7, "1e-07" },
    { 12345.678, "12345.678" },
    { -2.5e-10, "-2.5e-10" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *repr = float_repr (cases[i].value);

      g_assert_cmpstr (repr, ==, cases[i].repr);
    }
}

/* Python's repr(float) by brute force: the fewest significant digits
 * (%.{p}e, p = 1..17) that read back as @value, then written in fixed
 * notation for exponents in [-4, 16).  Slow and plain: a model for the
 * shortcuts graft_append_float_repr takes. */
static char *
model_float_repr (double value)
{
  char     buf[64];
  char     digits[32];
  gsize    n = 0;
  int      exp10;
  GString *out = g_string_new (value < 0 ? "-" : "");

  value = fabs (value);
  for (int precision = 1; precision <= 17; precision++)
    {
      g_snprintf (buf, sizeof buf, "%.*e", precision - 1, value);
      if (g_ascii_strtod (buf, NULL) == value)
        break;
    }
  for (const char *p = buf; *p != 'e'; p++)
    if (g_ascii_isdigit (*p))
      digits[n++] = *p;
  while (n > 1 && digits[n - 1] == '0')
    n--;
  digits[n] = '\0';
  exp10 = atoi (strchr (buf, 'e') + 1);
  if (exp10 >= -4 && exp10 < 16)
    {
      if (exp10 >= 0)
        {
          for (int i = 0; i <= exp10; i++)
            g_string_append_c (out, (gsize) i < n ? digits[i] : '0');
          g_string_append_printf (out, ".%s", (gsize) exp10 + 1 < n ? digits + exp10 + 1 : "0");
        }
      else
        {
          g_string_append (out, "0.");
          for (int i = 0; i < -exp10 - 1; i++)
            g_string_append_c (out, '0');
          g_string_append (out, digits);
        }
    }
  else
    g_string_append_printf (out, "%c%s%se%c%02d", digits[0], n > 1 ? "." : "", digits + 1,
                            exp10 < 0 ? '-' : '+', ABS (exp10));
  return g_string_free (out, FALSE);
}

/* Values with few decimals (which take a shortcut), their neighbours one
 * ulp away, and random doubles over the whole range. */
static void
test_float_repr_against_model (void)
{
  GRand *rand = g_rand_new_with_seed (1129);

  for (guint i = 0; i < 200000; i++)
    {
      double           value;
      g_autofree char *repr = NULL;
      g_autofree char *expected = NULL;

      switch (i % 4)
        {
        case 0:
          value = (double) g_rand_int_range (rand, 1, 1000000000) /
                  pow (10, g_rand_int_range (rand, 0, 9));
          break;
        case 1:
          value = nextafter ((double) g_rand_int_range (rand, 1, 100000) /
                                 pow (10, g_rand_int_range (rand, 0, 7)),
                             g_rand_boolean (rand) ? INFINITY : 0);
          break;
        case 2:
          value = g_rand_double_range (rand, 1e-5, 1e16);
          break;
        default:
          {
            guint64 bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);

            memcpy (&value, &bits, sizeof value);
            if (!isfinite (value) || value == 0)
              continue;
          }
          break;
        }
      if (g_rand_boolean (rand))
        value = -value;
      repr = float_repr (value);
      expected = model_float_repr (value);
      g_assert_cmpstr (repr, ==, expected);
    }
  g_rand_free (rand);
}

static void
test_float_special (void)
{
  g_autofree char *pos = float_repr (INFINITY);
  g_autofree char *neg = float_repr (-INFINITY);
  g_autofree char *nan = float_repr (NAN);
  g_autofree char *negnan = float_repr (-NAN);

  /* torch.fx code prints them as the globals inf and nan. */
  g_assert_cmpstr (pos, ==, "inf");
  g_assert_cmpstr (neg, ==, "-inf");
  g_assert_cmpstr (nan, ==, "nan");
  g_assert_cmpstr (negnan, ==, "nan");
}

static char *
str_repr (const char *s,
          gssize      len)
{
  GString *out = g_string_new (NULL);

  graft_append_str_repr (out, s, len < 0 ? strlen (s) : (gsize) len);
  return g_string_free (out, FALSE);
}

static void
test_str_repr (void)
{
  static const struct
  {
    const char *value;
    const char *repr;
  } cases[] = {
    { "abc", "'abc'" },
    { "", "''" },
    { "it's", "\"it's\"" },
    { "say \"hi\"", "'say \"hi\"'" },
    { "both ' and \"", "'both \\' and \"'" },
    { "tab\tnl\nret\rbs\\", "'tab\\tnl\\nret\\rbs\\\\'" },
    { "\x1f\x7f", "'\\x1f\\x7f'" },
    /* Printable non-ASCII characters are kept, others escaped. */
    { "caf\xc3\xa9", "'caf\xc3\xa9'" },
    { "\xc2\x85\xc2\xa0\xc2\xad", "'\\x85\\xa0\\xad'" },
    { "\xe2\x80\xa8", "'\\u2028'" },
    { "\xe2\x80\x8b", "'\\u200b'" },
    { "\xf0\x9f\x98\x80", "'\xf0\x9f\x98\x80'" },
    { "\xf3\xa0\x80\x81", "'\\U000e0001'" },
    { "\xee\x80\x80", "'\\ue000'" },
  };
  g_autofree char *nul = str_repr ("a\0b", 3);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *repr = str_repr (cases[i].value, -1);

      g_assert_cmpstr (repr, ==, cases[i].repr);
    }
  /* A NUL byte inside the string. */
  g_assert_cmpstr (nul, ==, "'a\\x00b'");
}

static char *
repr_of (const GraftArg *arg,
         GraftReprStyle  style)
{
  return graft_arg_repr (arg, style);
}

static void
test_complex_repr (void)
{
  static const struct
  {
    double      re, im;
    const char *repr;
  } cases[] = {
    { 0.0, 1.0, "1j" },
    { 1.0, 2.0, "(1+2j)" },
    { 0.0, -1.0, "-1j" },
    { -0.0, -1.0, "(-0-1j)" },
    { 1.0, -0.0, "(1-0j)" },
    { -0.0, 1.0, "(-0+1j)" },
    { 0.0, 2.5, "2.5j" },
    { 0.0, 0.0, "0j" },
    { 1e20, 1.0, "(1e+20+1j)" },
    { 0.5, -1e-05, "(0.5-1e-05j)" },
    { INFINITY, NAN, "(inf+nanj)" },
    { 1.0, -NAN, "(1+nanj)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GraftArg         arg;
      g_autofree char *code = NULL;
      g_autofree char *listing = NULL;

      graft_arg_init_complex (&arg, cases[i].re, cases[i].im);
      code = repr_of (&arg, GRAFT_REPR_CODE);
      listing = repr_of (&arg, GRAFT_REPR_LISTING);
      g_assert_cmpstr (code, ==, cases[i].repr);
      g_assert_cmpstr (listing, ==, cases[i].repr);
      graft_arg_clear (&arg);
    }
}

/* A small graph with two nodes for node-valued arguments. */
static GraftGraph *
make_graph (GraftNode **out_x,
            GraftNode **out_y)
{
  GraftGraph *graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));

  *out_x = graft_graph_create_node (graph, GRAFT_OP_PLACEHOLDER, "x", NULL, NULL, NULL, NULL);
  *out_y = graft_graph_create_node (graph, GRAFT_OP_PLACEHOLDER, "y", NULL, NULL, NULL, NULL);
  return graph;
}

static void
test_containers (void)
{
  GraftNode *x, *y;
  g_autoptr (GraftGraph) graph = make_graph (&x, &y);
  GraftArg         tuple, one, list, dict, nested;
  g_autofree char *code = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *one_code = NULL;
  g_autofree char *one_listing = NULL;
  g_autofree char *empty = NULL;

  /* ('a', x, [1, (y,)], {'k': 'v', 'n': None}) */
  graft_arg_init_seq (&tuple, GRAFT_ARG_TUPLE, 4);
  graft_arg_init_str (&tuple.items[0], "a", -1);
  graft_arg_init_node (&tuple.items[1], x);
  graft_arg_init_seq (&list, GRAFT_ARG_LIST, 2);
  graft_arg_init_int (&list.items[0], 1);
  graft_arg_init_seq (&nested, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&nested.items[0], y);
  list.items[1] = nested;
  tuple.items[2] = list;
  graft_arg_init_dict (&dict, 2);
  graft_arg_init_str (&dict.items[0], "k", -1);
  graft_arg_init_str (&dict.items[1], "v", -1);
  graft_arg_init_str (&dict.items[2], "n", -1);
  graft_arg_init_none (&dict.items[3]);
  tuple.items[3] = dict;

  code = repr_of (&tuple, GRAFT_REPR_CODE);
  listing = repr_of (&tuple, GRAFT_REPR_LISTING);
  g_assert_cmpstr (code, ==, "('a', x, [1, (y,)], {'k': 'v', 'n': None})");
  g_assert_cmpstr (listing, ==, "(a, %x, [1, (%y,)], {k: v, n: None})");
  g_assert_true (graft_arg_has_node (&tuple));
  g_assert_true (graft_arg_is_container (&tuple));
  g_assert_cmpuint (graft_arg_count_items (&tuple.items[3]), ==, 4);

  /* A one-element tuple keeps its comma, in both styles. */
  graft_arg_init_seq (&one, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_int (&one.items[0], 3);
  one_code = repr_of (&one, GRAFT_REPR_CODE);
  one_listing = repr_of (&one, GRAFT_REPR_LISTING);
  g_assert_cmpstr (one_code, ==, "(3,)");
  g_assert_cmpstr (one_listing, ==, "(3,)");
  g_assert_false (graft_arg_has_node (&one));
  graft_arg_clear (&one);

  graft_arg_init_seq (&one, GRAFT_ARG_LIST, 0);
  empty = repr_of (&one, GRAFT_REPR_CODE);
  g_assert_cmpstr (empty, ==, "[]");
  graft_arg_clear (&one);

  graft_arg_clear (&tuple);
  g_assert_cmpint (tuple.kind, ==, GRAFT_ARG_NONE);
}

static void
test_slice_and_symbols (void)
{
  GraftNode *x, *y;
  g_autoptr (GraftGraph) graph = make_graph (&x, &y);
  GraftArg         slice, sym, dev, dev0, s, ell;
  g_autofree char *code = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *sym_code = NULL;
  g_autofree char *dev_code = NULL;
  g_autofree char *dev_listing = NULL;
  g_autofree char *dev0_code = NULL;
  g_autofree char *dev0_listing = NULL;
  g_autofree char *s_code = NULL;
  g_autofree char *s_listing = NULL;
  g_autofree char *ell_code = NULL;

  /* slice(x, 'a', None): inside a listing the parts are reprs, nodes bare. */
  graft_arg_init_slice (&slice);
  graft_arg_init_node (&slice.items[0], x);
  graft_arg_init_str (&slice.items[1], "a", -1);
  code = repr_of (&slice, GRAFT_REPR_CODE);
  listing = repr_of (&slice, GRAFT_REPR_LISTING);
  g_assert_cmpstr (code, ==, "slice(x, 'a', None)");
  g_assert_cmpstr (listing, ==, "slice(x, 'a', None)");
  g_assert_true (graft_arg_has_node (&slice));
  graft_arg_clear (&slice);

  graft_arg_init_symbol (&sym, "torch.float32");
  sym_code = repr_of (&sym, GRAFT_REPR_CODE);
  g_assert_cmpstr (sym_code, ==, "torch.float32");
  graft_arg_clear (&sym);

  graft_arg_init_device (&dev, "cpu");
  dev_code = repr_of (&dev, GRAFT_REPR_CODE);
  dev_listing = repr_of (&dev, GRAFT_REPR_LISTING);
  g_assert_cmpstr (dev_code, ==, "device(type='cpu')");
  g_assert_cmpstr (dev_listing, ==, "cpu");
  graft_arg_clear (&dev);

  graft_arg_init_device (&dev0, "cuda:0");
  dev0_code = repr_of (&dev0, GRAFT_REPR_CODE);
  dev0_listing = repr_of (&dev0, GRAFT_REPR_LISTING);
  g_assert_cmpstr (dev0_code, ==, "device(type='cuda', index=0)");
  g_assert_cmpstr (dev0_listing, ==, "cuda:0");
  graft_arg_clear (&dev0);

  graft_arg_init_str (&s, "it's", -1);
  s_code = repr_of (&s, GRAFT_REPR_CODE);
  s_listing = repr_of (&s, GRAFT_REPR_LISTING);
  g_assert_cmpstr (s_code, ==, "\"it's\"");
  g_assert_cmpstr (s_listing, ==, "it's");
  graft_arg_clear (&s);

  graft_arg_init_ellipsis (&ell);
  ell_code = repr_of (&ell, GRAFT_REPR_CODE);
  g_assert_cmpstr (ell_code, ==, "Ellipsis");
}

static void
test_scalars (void)
{
  GraftArg         a;
  g_autofree char *t = NULL;
  g_autofree char *f = NULL;
  g_autofree char *n = NULL;
  g_autofree char *i = NULL;
  g_autofree char *none = NULL;

  graft_arg_init_bool (&a, 7);
  t = repr_of (&a, GRAFT_REPR_CODE);
  g_assert_cmpstr (t, ==, "True");
  graft_arg_init_bool (&a, FALSE);
  f = repr_of (&a, GRAFT_REPR_CODE);
  g_assert_cmpstr (f, ==, "False");
  graft_arg_init_int (&a, G_MININT64);
  n = repr_of (&a, GRAFT_REPR_CODE);
  g_assert_cmpstr (n, ==, "-9223372036854775808");
  graft_arg_init_int (&a, -1);
  i = repr_of (&a, GRAFT_REPR_LISTING);
  g_assert_cmpstr (i, ==, "-1");
  graft_arg_init_none (&a);
  none = repr_of (&a, GRAFT_REPR_CODE);
  g_assert_cmpstr (none, ==, "None");
  g_assert_cmpstr (graft_arg_kind_to_string (GRAFT_ARG_SLICE), ==, "slice");
}

/* Custom node names, as code generation passes them. */
static const char *
renamed_cb (GraftNode *node,
            gpointer   user_data)
{
  return user_data;
}

static void
test_name_func (void)
{
  GraftNode *x, *y;
  g_autoptr (GraftGraph) graph = make_graph (&x, &y);
  g_autoptr (GString) code = g_string_new (NULL);
  g_autoptr (GString) listing = g_string_new (NULL);
  GraftArg list;
  char     name[] = "renamed";

  graft_arg_init_seq (&list, GRAFT_ARG_LIST, 2);
  graft_arg_init_node (&list.items[0], x);
  graft_arg_init_slice (&list.items[1]);
  graft_arg_init_node (&list.items[1].items[1], y);
  graft_arg_append_repr (code, &list, GRAFT_REPR_CODE, renamed_cb, name);
  graft_arg_append_repr (listing, &list, GRAFT_REPR_LISTING, renamed_cb, name);
  g_assert_cmpstr (code->str, ==, "[renamed, slice(None, renamed, None)]");
  /* A listing prints str(slice), which names nodes by their graph name. */
  g_assert_cmpstr (listing->str, ==, "[%renamed, slice(None, y, None)]");
  graft_arg_clear (&list);
}

static void
make_number (GraftArg    *arg,
             GraftArgKind kind,
             double       value)
{
  switch (kind)
    {
    case GRAFT_ARG_BOOL:
      graft_arg_init_bool (arg, value != 0);
      break;
    case GRAFT_ARG_INT:
      graft_arg_init_int (arg, (gint64) value);
      break;
    case GRAFT_ARG_FLOAT:
      graft_arg_init_float (arg, value);
      break;
    case GRAFT_ARG_COMPLEX:
      graft_arg_init_complex (arg, value, 0);
      break;
    case GRAFT_ARG_NONE:
    case GRAFT_ARG_ELLIPSIS:
    case GRAFT_ARG_STR:
    case GRAFT_ARG_SYMBOL:
    case GRAFT_ARG_DEVICE:
    case GRAFT_ARG_NODE:
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_LIST:
    case GRAFT_ARG_DICT:
    case GRAFT_ARG_SLICE:
    default:
      g_assert_not_reached ();
    }
}

static void
test_python_equal (void)
{
  GraftArg           a, b, t, l;
  const GraftArgKind numeric[] = { GRAFT_ARG_BOOL, GRAFT_ARG_INT, GRAFT_ARG_FLOAT,
                                   GRAFT_ARG_COMPLEX };

  /* 1 == True == 1.0 == (1+0j), across every pair of numeric kinds. */
  for (guint i = 0; i < G_N_ELEMENTS (numeric); i++)
    for (guint j = 0; j < G_N_ELEMENTS (numeric); j++)
      {
        make_number (&a, numeric[i], 1);
        make_number (&b, numeric[j], 1);
        g_assert_true (graft_arg_python_equal (&a, &b));
        graft_arg_clear (&b);
        make_number (&b, numeric[j], 0);
        g_assert_false (graft_arg_python_equal (&a, &b));
        graft_arg_clear (&a);
        graft_arg_clear (&b);
      }

  graft_arg_init_int (&a, 2);
  graft_arg_init_float (&b, 2.0);
  g_assert_true (graft_arg_python_equal (&a, &b));
  /* Structural equality tells them apart. */
  g_assert_false (graft_arg_equal (&a, &b));

  /* 2**53 + 1 != float(2**53): no rounding through a double. */
  graft_arg_init_int (&a, 9007199254740993);
  graft_arg_init_float (&b, 9007199254740992.0);
  g_assert_false (graft_arg_python_equal (&a, &b));

  graft_arg_init_float (&a, NAN);
  graft_arg_init_float (&b, NAN);
  g_assert_false (graft_arg_python_equal (&a, &b));

  graft_arg_init_int (&a, 1);
  graft_arg_init_str (&b, "a", -1);
  g_assert_false (graft_arg_python_equal (&a, &b));
  graft_arg_clear (&b);

  /* (1,) != [1], while (1,) == (1.0,). */
  graft_arg_init_seq (&t, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_int (&t.items[0], 1);
  graft_arg_init_seq (&l, GRAFT_ARG_LIST, 1);
  graft_arg_init_int (&l.items[0], 1);
  g_assert_false (graft_arg_python_equal (&t, &l));
  graft_arg_clear (&l);
  graft_arg_init_seq (&l, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_float (&l.items[0], 1.0);
  g_assert_true (graft_arg_python_equal (&t, &l));
  graft_arg_clear (&l);
  graft_arg_clear (&t);

  /* Dicts compare whatever their order. */
  graft_arg_init_dict (&t, 2);
  graft_arg_init_str (&t.items[0], "a", -1);
  graft_arg_init_int (&t.items[1], 1);
  graft_arg_init_str (&t.items[2], "b", -1);
  graft_arg_init_int (&t.items[3], 2);
  graft_arg_init_dict (&l, 2);
  graft_arg_init_str (&l.items[0], "b", -1);
  graft_arg_init_float (&l.items[1], 2.0);
  graft_arg_init_str (&l.items[2], "a", -1);
  graft_arg_init_bool (&l.items[3], TRUE);
  g_assert_true (graft_arg_python_equal (&t, &l));
  g_assert_false (graft_arg_equal (&t, &l));
  graft_arg_clear (&l.items[3]);
  graft_arg_init_int (&l.items[3], 3);
  g_assert_false (graft_arg_python_equal (&t, &l));
  graft_arg_clear (&l);
  graft_arg_clear (&t);

  graft_arg_init_none (&a);
  graft_arg_init_none (&b);
  g_assert_true (graft_arg_python_equal (&a, &b));
  graft_arg_init_ellipsis (&b);
  g_assert_false (graft_arg_python_equal (&a, &b));
}

static void
test_copy_clear (void)
{
  GraftNode *x, *y;
  g_autoptr (GraftGraph) graph = make_graph (&x, &y);
  GraftArg         src, dst;
  g_autofree char *src_repr = NULL;
  g_autofree char *dst_repr = NULL;

  /* Every owning kind, nested: the copy is deep and equal. */
  graft_arg_init_seq (&src, GRAFT_ARG_LIST, 7);
  graft_arg_init_str (&src.items[0], "a\0b", 3);
  graft_arg_init_symbol (&src.items[1], "torch.int64");
  graft_arg_init_device (&src.items[2], "cuda:1");
  graft_arg_init_complex (&src.items[3], 1, -2);
  graft_arg_init_dict (&src.items[4], 1);
  graft_arg_init_str (&src.items[4].items[0], "k", -1);
  graft_arg_init_node (&src.items[4].items[1], x);
  graft_arg_init_slice (&src.items[5]);
  graft_arg_init_node (&src.items[5].items[0], y);
  graft_arg_init_seq (&src.items[6], GRAFT_ARG_TUPLE, 0);

  graft_arg_copy (&dst, &src);
  g_assert_true (graft_arg_equal (&src, &dst));
  g_assert_true (graft_arg_python_equal (&src, &dst));
  g_assert_true (dst.items != src.items);
  g_assert_true (dst.items[0].s != src.items[0].s);
  g_assert_cmpuint (dst.items[0].n, ==, 3);
  g_assert_true (dst.items[4].items[1].node == x);
  src_repr = repr_of (&src, GRAFT_REPR_CODE);
  dst_repr = repr_of (&dst, GRAFT_REPR_CODE);
  g_assert_cmpstr (dst_repr, ==, src_repr);
  g_assert_cmpstr (dst_repr, ==,
                   "['a\\x00b', torch.int64, device(type='cuda', index=1), (1-2j), {'k': x}, "
                   "slice(y, None, None), ()]");

  /* Freeing the source leaves the copy intact. */
  graft_arg_clear (&src);
  g_assert_cmpint (src.kind, ==, GRAFT_ARG_NONE);
  g_assert_cmpstr (dst.items[1].s, ==, "torch.int64");
  graft_arg_clear (&dst);
  /* Clearing twice is harmless. */
  graft_arg_clear (&dst);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/arg/float-repr", test_float_repr);
  g_test_add_func ("/core/arg/float-repr-against-model", test_float_repr_against_model);
  g_test_add_func ("/core/arg/float-special", test_float_special);
  g_test_add_func ("/core/arg/str-repr", test_str_repr);
  g_test_add_func ("/core/arg/complex-repr", test_complex_repr);
  g_test_add_func ("/core/arg/containers", test_containers);
  g_test_add_func ("/core/arg/slice-and-symbols", test_slice_and_symbols);
  g_test_add_func ("/core/arg/scalars", test_scalars);
  g_test_add_func ("/core/arg/name-func", test_name_func);
  g_test_add_func ("/core/arg/python-equal", test_python_equal);
  g_test_add_func ("/core/arg/copy-clear", test_copy_clear);

  return g_test_run ();
}
