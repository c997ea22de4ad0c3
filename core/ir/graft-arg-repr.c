/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-arg-repr.c: how argument values print.  This file is the only place
 * that knows how Python prints a value: `repr` for generated code (shortest
 * round-trip floats, Python's choice of quotes and escapes) and torch.fx's
 * `_format_arg` for graph listings.  A node argument prints by the name a
 * GraftNodeNameFunc gives, by default its name in the graph (the one reason
 * this file includes graft-graph.h).  Values nest only as deep as the parser
 * and the listing reader allow (GRAFT_MAX_PARSE_DEPTH), which bounds the
 * recursion here.
 */
#include "config.h"

#include "graft-arg.h"
#include "graft-strbuf-private.h"
#include "graft-graph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The usual constant (`0.5`, `1e-05` aside, `2.0`, `0.001`) has a few
 * decimals: value = m / 10^k for a small k.  With m below 2^50, distinct m
 * are distinct doubles at least four ulps apart, and the division is
 * correctly rounded, so the first k for which m / 10^k gives back @value
 * yields the shortest digits, as the general search would (a third of the
 * time code generation spent on constants). */
static gboolean
few_decimals (double value,
              char   digits[32],
              int   *out_exp)
{
  static const double pow10[] = { 1, 10, 100, 1e3, 1e4, 1e5, 1e6 };

  if (!(value >= 1e-4 && value < 1e15))
    return FALSE;
  for (guint k = 0; k < G_N_ELEMENTS (pow10); k++)
    {
      double scaled = value * pow10[k];
      double candidates[2] = { floor (scaled), ceil (scaled) };

      if (scaled >= (double) (G_GUINT64_CONSTANT (1) << 50))
        return FALSE;
      for (guint c = 0; c < 2; c++)
        {
          guint64 m = (guint64) candidates[c];
          char    tmp[24];
          gsize   n = 0;

          if (m == 0 || (double) m / pow10[k] != value)
            continue;
          while (m > 0)
            {
              tmp[n++] = (char) ('0' + m % 10);
              m /= 10;
            }
          /* value = D1.D2...Dn * 10^(n - 1 - k); trailing zeros go. */
          *out_exp = (int) n - 1 - (int) k;
          for (gsize i = 0; i < n; i++)
            digits[i] = tmp[n - 1 - i];
          while (n > 1 && digits[n - 1] == '0')
            n--;
          digits[n] = '\0';
          return TRUE;
        }
    }
  return FALSE;
}

/* The shortest digits that read back as @value, with their decimal exponent:
 * value = 0.D1D2...Dn * 10^(exp + 1), that is D1.D2...Dn * 10^exp. */
static void
shortest_digits (double value,
                 char   digits[32],
                 int   *out_exp)
{
  char buf[64];

  if (few_decimals (value, digits, out_exp))
    return;

  for (int precision = 1; precision <= 17; precision++)
    {
      char *e;
      gsize n = 0;

      g_snprintf (buf, sizeof buf, "%.*e", precision - 1, value);
      if (precision < 17 && g_ascii_strtod (buf, NULL) != value)
        continue;
      /* buf is "D.DDDDe[+-]XX" (or "De[+-]XX"). */
      for (const char *p = buf; *p != '\0' && *p != 'e'; p++)
        if (g_ascii_isdigit (*p))
          digits[n++] = *p;
      /* Drop trailing zeros: the shortest form has none. */
      while (n > 1 && digits[n - 1] == '0')
        n--;
      digits[n] = '\0';
      e = strchr (buf, 'e');
      *out_exp = e != NULL ? atoi (e + 1) : 0;
      return;
    }
}

/**
 * graft_append_float_repr:
 * @out: where to append
 * @value: a double
 *
 * Appends Python's `repr(float)`: the shortest string that reads back as
 * @value, in fixed notation when the exponent is in [-4, 16) (with `.0` if
 * integral) and in exponent notation otherwise (`1e-05`, `1e+16`); `inf`,
 * `-inf` and `nan` as torch.fx's code prints them.
 */
void
graft_append_float_repr (GString *out,
                         double   value)
{
  char  digits[32];
  int   exp10;
  gsize n;

  if (isnan (value))
    {
      _graft_buf_append (out, "nan");
      return;
    }
  if (isinf (value))
    {
      _graft_buf_append (out, value < 0 ? "-inf" : "inf");
      return;
    }
  if (value == 0)
    {
      _graft_buf_append (out, signbit (value) ? "-0.0" : "0.0");
      return;
    }
  if (value < 0)
    {
      g_string_append_c (out, '-');
      value = -value;
    }

  shortest_digits (value, digits, &exp10);
  n = strlen (digits);

  if (exp10 >= -4 && exp10 < 16)
    {
      if (exp10 >= 0)
        {
          /* Integer part: digits[0..exp10], padded with zeros. */
          for (int i = 0; i <= exp10; i++)
            g_string_append_c (out, (gsize) i < n ? digits[i] : '0');
          g_string_append_c (out, '.');
          if ((gsize) exp10 + 1 < n)
            _graft_buf_append (out, digits + exp10 + 1);
          else
            g_string_append_c (out, '0');
        }
      else
        {
          _graft_buf_append (out, "0.");
          for (int i = 0; i < -exp10 - 1; i++)
            g_string_append_c (out, '0');
          _graft_buf_append (out, digits);
        }
      return;
    }

  g_string_append_c (out, digits[0]);
  if (n > 1)
    {
      g_string_append_c (out, '.');
      _graft_buf_append (out, digits + 1);
    }
  g_string_append_printf (out, "e%c%02d", exp10 < 0 ? '-' : '+', ABS (exp10));
}

/* Python's repr of a complex part: like a float but without a forced `.0`
 * (`1j`, `2.5j`, `(1+2j)`). */
static void
append_complex_part (GString *out,
                     double   value)
{
  gsize start = out->len;

  graft_append_float_repr (out, value);
  if (g_str_has_suffix (out->str + start, ".0"))
    g_string_truncate (out, out->len - 2);
}

static void
append_complex_repr (GString      *out,
                     const double *c)
{
  if (c[0] == 0 && !signbit (c[0]))
    {
      append_complex_part (out, c[1]);
      g_string_append_c (out, 'j');
      return;
    }
  g_string_append_c (out, '(');
  append_complex_part (out, c[0]);
  /* A NaN imaginary part prints as `+nanj` whatever its sign bit. */
  if (isnan (c[1]) || !(c[1] < 0 || (c[1] == 0 && signbit (c[1]))))
    g_string_append_c (out, '+');
  append_complex_part (out, c[1]);
  _graft_buf_append (out, "j)");
}

/* Python's str.isprintable() for one character. */
static gboolean
is_printable (gunichar c)
{
  if (c == ' ')
    return TRUE;
  switch (g_unichar_type (c))
    {
    case G_UNICODE_CONTROL:
    case G_UNICODE_FORMAT:
    case G_UNICODE_SURROGATE:
    case G_UNICODE_PRIVATE_USE:
    case G_UNICODE_UNASSIGNED:
    case G_UNICODE_LINE_SEPARATOR:
    case G_UNICODE_PARAGRAPH_SEPARATOR:
    case G_UNICODE_SPACE_SEPARATOR:
      return FALSE;
    case G_UNICODE_LOWERCASE_LETTER:
    case G_UNICODE_MODIFIER_LETTER:
    case G_UNICODE_OTHER_LETTER:
    case G_UNICODE_TITLECASE_LETTER:
    case G_UNICODE_UPPERCASE_LETTER:
    case G_UNICODE_SPACING_MARK:
    case G_UNICODE_ENCLOSING_MARK:
    case G_UNICODE_NON_SPACING_MARK:
    case G_UNICODE_DECIMAL_NUMBER:
    case G_UNICODE_LETTER_NUMBER:
    case G_UNICODE_OTHER_NUMBER:
    case G_UNICODE_CONNECT_PUNCTUATION:
    case G_UNICODE_DASH_PUNCTUATION:
    case G_UNICODE_CLOSE_PUNCTUATION:
    case G_UNICODE_FINAL_PUNCTUATION:
    case G_UNICODE_INITIAL_PUNCTUATION:
    case G_UNICODE_OTHER_PUNCTUATION:
    case G_UNICODE_OPEN_PUNCTUATION:
    case G_UNICODE_CURRENCY_SYMBOL:
    case G_UNICODE_MODIFIER_SYMBOL:
    case G_UNICODE_MATH_SYMBOL:
    case G_UNICODE_OTHER_SYMBOL:
    default:
      return TRUE;
    }
}

/**
 * graft_append_str_repr:
 * @out: where to append
 * @s: UTF-8 bytes
 * @len: their number
 *
 * Appends Python's `repr(str)`: single quotes unless the text holds a single
 * quote and no double quote; backslash escapes for the quote, `\`, `\t`,
 * `\n`, `\r`, other control characters and non-printable characters.
 */
void
graft_append_str_repr (GString    *out,
                       const char *s,
                       gsize       len)
{
  char        quote = '\'';
  const char *end = s + len;

  if (memchr (s, '\'', len) != NULL && memchr (s, '"', len) == NULL)
    quote = '"';

  g_string_append_c (out, quote);
  for (const char *p = s; p < end;)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);
      gsize    step;

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          /* Not UTF-8: cannot come from Python source; print the byte. */
          g_string_append_printf (out, "\\x%02x", (guchar) *p);
          p++;
          continue;
        }
      step = g_utf8_next_char (p) - p;
      if (c == (gunichar) quote || c == '\\')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char) c);
        }
      else if (c == '\t')
        _graft_buf_append (out, "\\t");
      else if (c == '\n')
        _graft_buf_append (out, "\\n");
      else if (c == '\r')
        _graft_buf_append (out, "\\r");
      else if (c < ' ' || c == 0x7f)
        g_string_append_printf (out, "\\x%02x", c);
      else if (c < 0x7f || is_printable (c))
        _graft_buf_append_len (out, p, step);
      else if (c <= 0xff)
        g_string_append_printf (out, "\\x%02x", c);
      else if (c <= 0xffff)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_printf (out, "\\U%08x", c);
      p += step;
    }
  g_string_append_c (out, quote);
}

static void
append_device_repr (GString    *out,
                    const char *str_form)
{
  const char *colon = strchr (str_form, ':');

  if (colon == NULL)
    {
      g_string_append_printf (out, "device(type='%s')", str_form);
      return;
    }
  _graft_buf_append (out, "device(type='");
  _graft_buf_append_len (out, str_form, colon - str_form);
  g_string_append_printf (out, "', index=%s)", colon + 1);
}

static const char *
default_node_name (GraftNode *node,
                   gpointer   user_data)
{
  return graft_node_get_name (node);
}

/**
 * graft_append_int:
 * @out: where to append
 * @i: the number
 *
 * Appends `str(i)` (_graft_int_digits()).
 */
void
graft_append_int (GString *out,
                  gint64   i)
{
  char  digits[24];
  char *start = _graft_int_digits (digits + sizeof digits, i);

  _graft_buf_append_len (out, start, (gsize) (digits + sizeof digits - start));
}

static void
append_repr (GString          *out,
             const GraftArg   *arg,
             GraftReprStyle    style,
             GraftNodeNameFunc name_func,
             gpointer          user_data)
{
  switch (arg->kind)
    {
    case GRAFT_ARG_NONE:
      _graft_buf_append (out, "None");
      return;
    case GRAFT_ARG_ELLIPSIS:
      _graft_buf_append (out, "Ellipsis");
      return;
    case GRAFT_ARG_BOOL:
      _graft_buf_append (out, arg->b ? "True" : "False");
      return;
    case GRAFT_ARG_INT:
      graft_append_int (out, arg->i);
      return;
    case GRAFT_ARG_FLOAT:
      graft_append_float_repr (out, arg->f);
      return;
    case GRAFT_ARG_COMPLEX:
      append_complex_repr (out, arg->c);
      return;
    case GRAFT_ARG_STR:
      if (style == GRAFT_REPR_LISTING)
        _graft_buf_append_len (out, arg->s, arg->n);
      else
        graft_append_str_repr (out, arg->s, arg->n);
      return;
    case GRAFT_ARG_SYMBOL:
      _graft_buf_append (out, arg->s);
      return;
    case GRAFT_ARG_DEVICE:
      if (style == GRAFT_REPR_LISTING)
        _graft_buf_append (out, arg->s);
      else
        append_device_repr (out, arg->s);
      return;
    case GRAFT_ARG_NODE:
      if (style == GRAFT_REPR_LISTING)
        g_string_append_c (out, '%');
      _graft_buf_append (out, name_func (arg->node, user_data));
      return;
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_LIST:
      g_string_append_c (out, arg->kind == GRAFT_ARG_TUPLE ? '(' : '[');
      for (guint i = 0; i < arg->n; i++)
        {
          if (i > 0)
            _graft_buf_append (out, ", ");
          append_repr (out, &arg->items[i], style, name_func, user_data);
        }
      if (arg->kind == GRAFT_ARG_TUPLE && arg->n == 1)
        g_string_append_c (out, ',');
      g_string_append_c (out, arg->kind == GRAFT_ARG_TUPLE ? ')' : ']');
      return;
    case GRAFT_ARG_DICT:
      g_string_append_c (out, '{');
      for (guint i = 0; i < arg->n; i++)
        {
          if (i > 0)
            _graft_buf_append (out, ", ");
          append_repr (out, &arg->items[2 * i], style, name_func, user_data);
          _graft_buf_append (out, ": ");
          append_repr (out, &arg->items[2 * i + 1], style, name_func, user_data);
        }
      g_string_append_c (out, '}');
      return;
    case GRAFT_ARG_SLICE:
      /* A listing prints str(slice), which is the repr of its parts: nodes
       * by bare name and strings quoted, as in code. */
      _graft_buf_append (out, "slice(");
      for (guint i = 0; i < 3; i++)
        {
          if (i > 0)
            _graft_buf_append (out, ", ");
          append_repr (out, &arg->items[i], GRAFT_REPR_CODE,
                       style == GRAFT_REPR_LISTING ? default_node_name : name_func,
                       user_data);
        }
      g_string_append_c (out, ')');
      return;
    default:
      g_assert_not_reached ();
    }
}

/**
 * graft_arg_append_repr:
 * @out: where to append
 * @arg: the value
 * @style: code (`repr`) or listing (`_format_arg`)
 * @name_func: (nullable): how to name a node; %NULL for its graph name
 * @user_data: data for @name_func
 *
 * Appends the printed form of @arg.
 */
void
graft_arg_append_repr (GString          *out,
                       const GraftArg   *arg,
                       GraftReprStyle    style,
                       GraftNodeNameFunc name_func,
                       gpointer          user_data)
{
  append_repr (out, arg, style, name_func != NULL ? name_func : default_node_name, user_data);
}

/**
 * graft_arg_repr:
 *
 * Returns: (transfer full): the printed form of @arg, nodes by graph name
 */
char *
graft_arg_repr (const GraftArg *arg,
                GraftReprStyle  style)
{
  GString *out = g_string_new (NULL);

  graft_arg_append_repr (out, arg, style, NULL, NULL);
  return g_string_free (out, FALSE);
}
