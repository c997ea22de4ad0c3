/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-ops.c: operators.  With a traced operand an operator records
 * a call_function node of the matching `operator` function, as torch.fx's
 * Proxy magic methods do (a reflected `2 - x` keeps its operand order; a
 * reflected comparison `1 < x` becomes `operator.gt(x, 1)`).  Between
 * constants it is evaluated with Python's semantics (floor division and
 * modulo round towards minus infinity, `/` is true division, bools are
 * ints), which is the constant folding that tracing does.
 */
#include "config.h"

#include "graft-tracer-private.h"
#include "graft-error.h"

#include <math.h>
#include <string.h>

const char *const _graft_tracer_binop_targets[] = {
  [GRAFT_PY_BIN_ADD] = "operator.add",
  [GRAFT_PY_BIN_SUB] = "operator.sub",
  [GRAFT_PY_BIN_MUL] = "operator.mul",
  [GRAFT_PY_BIN_MATMUL] = "operator.matmul",
  [GRAFT_PY_BIN_TRUEDIV] = "operator.truediv",
  [GRAFT_PY_BIN_FLOORDIV] = "operator.floordiv",
  [GRAFT_PY_BIN_MOD] = "operator.mod",
  [GRAFT_PY_BIN_POW] = "operator.pow",
  [GRAFT_PY_BIN_LSHIFT] = "operator.lshift",
  [GRAFT_PY_BIN_RSHIFT] = "operator.rshift",
  [GRAFT_PY_BIN_BITOR] = "operator.or_",
  [GRAFT_PY_BIN_BITXOR] = "operator.xor",
  [GRAFT_PY_BIN_BITAND] = "operator.and_",
};

/* The method a constant tensor's operator runs when the other operand is
 * traced: `buf * x` is `Tensor.__mul__(buf, x)`, which torch's
 * __torch_function__ hands to the proxy as the method `mul` (the ones
 * written in Python, `__floordiv__` and the bitwise ones, keep their
 * dunder name). */
static const char *const tensor_binop_methods[] = {
  [GRAFT_PY_BIN_ADD] = "add",
  [GRAFT_PY_BIN_SUB] = "sub",
  [GRAFT_PY_BIN_MUL] = "mul",
  [GRAFT_PY_BIN_MATMUL] = "matmul",
  [GRAFT_PY_BIN_TRUEDIV] = "div",
  [GRAFT_PY_BIN_FLOORDIV] = "__floordiv__",
  [GRAFT_PY_BIN_MOD] = "remainder",
  [GRAFT_PY_BIN_POW] = "pow",
  [GRAFT_PY_BIN_LSHIFT] = "__lshift__",
  [GRAFT_PY_BIN_RSHIFT] = "__rshift__",
  [GRAFT_PY_BIN_BITOR] = "__or__",
  [GRAFT_PY_BIN_BITXOR] = "__xor__",
  [GRAFT_PY_BIN_BITAND] = "__and__",
};

/* The same for an augmented assignment (`buf += x`: Tensor.__iadd__). */
static const char *const tensor_inplace_methods[] = {
  [GRAFT_PY_BIN_ADD] = "add_",
  [GRAFT_PY_BIN_SUB] = "sub_",
  [GRAFT_PY_BIN_MUL] = "mul_",
  [GRAFT_PY_BIN_MATMUL] = "matmul", /* no __imatmul__: Python falls back */
  [GRAFT_PY_BIN_TRUEDIV] = "div_",
  [GRAFT_PY_BIN_FLOORDIV] = "floor_divide_",
  [GRAFT_PY_BIN_MOD] = "remainder_",
  [GRAFT_PY_BIN_POW] = "pow_",
  [GRAFT_PY_BIN_LSHIFT] = "__ilshift__",
  [GRAFT_PY_BIN_RSHIFT] = "__irshift__",
  [GRAFT_PY_BIN_BITOR] = "__ior__",
  [GRAFT_PY_BIN_BITXOR] = "__ixor__",
  [GRAFT_PY_BIN_BITAND] = "__iand__",
};

static gboolean
is_constant_tensor (const Value *v)
{
  return v->kind == VAL_TENSOR || v->kind == VAL_PARAMETER;
}

/* `method(a, b)` as a call_method node: a constant tensor's operator with
 * a traced operand. */
static Value *
record_method (Tracer            *t,
               const char        *method,
               Value             *a,
               Value             *b,
               const GraftPyExpr *at)
{
  ArenaMark mark = _graft_tracer_mark (t);
  PtrVec   *args = _graft_tracer_vec (t);

  _graft_vec_add (args, a);
  _graft_vec_add (args, b);
  return _graft_tracer_make_node_from (t, mark, GRAFT_OP_CALL_METHOD, method, args, NULL, NULL,
                                       at);
}

static Value *
record (Tracer            *t,
        const char        *target,
        Value             *a,
        Value             *b,
        const GraftPyExpr *at)
{
  /* The operands on the stack: the node copies them. */
  gpointer operands[2] = { a, b };
  PtrVec   args = { operands, b != NULL ? 2 : 1, G_N_ELEMENTS (operands), t };

  t->static_text = TRUE; /* @target is a literal of this file */
  return _graft_tracer_make_node (t, GRAFT_OP_CALL_FUNCTION, target, &args, NULL, NULL, at);
}

static gboolean
as_int (const Value *v,
        gint64      *out)
{
  if (v->kind == VAL_INT)
    *out = v->i;
  else if (v->kind == VAL_BOOL)
    *out = v->b ? 1 : 0;
  else
    return FALSE;
  return TRUE;
}

static gboolean
as_float (const Value *v,
          double      *out)
{
  gint64 i;

  if (v->kind == VAL_FLOAT)
    {
      *out = v->f;
      return TRUE;
    }
  if (as_int (v, &i))
    {
      *out = (double) i;
      return TRUE;
    }
  return FALSE;
}

/* A 64-bit result overflowed: Python's ints do not, so the operation is
 * done again on unbounded ints (graft-tracer-bigint.c). */
static Value *
widen (Tracer            *t,
       GraftPyBinOp       op,
       gint64             x,
       gint64             y,
       const GraftPyExpr *at)
{
  return _graft_tracer_bigint_binop (t, op, _graft_value_int (t, x), _graft_value_int (t, y), at);
}

static Value *
int_binop (Tracer            *t,
           GraftPyBinOp       op,
           gint64             x,
           gint64             y,
           const GraftPyExpr *at)
{
  gint64 r;

  switch (op)
    {
    case GRAFT_PY_BIN_ADD:
      if (__builtin_add_overflow (x, y, &r))
        return widen (t, op, x, y, at);
      return _graft_value_int (t, r);
    case GRAFT_PY_BIN_SUB:
      if (__builtin_sub_overflow (x, y, &r))
        return widen (t, op, x, y, at);
      return _graft_value_int (t, r);
    case GRAFT_PY_BIN_MUL:
      if (__builtin_mul_overflow (x, y, &r))
        return widen (t, op, x, y, at);
      return _graft_value_int (t, r);
    case GRAFT_PY_BIN_TRUEDIV:
      if (y == 0)
        return _graft_tracer_raise_text (t, "ZeroDivisionError", "division by zero", at);
      return _graft_value_float (t, (double) x / (double) y);
    case GRAFT_PY_BIN_FLOORDIV:
    case GRAFT_PY_BIN_MOD:
      {
        gint64 q, m;

        if (y == 0)
          return _graft_tracer_raise_text (t, "ZeroDivisionError",
                                           op == GRAFT_PY_BIN_MOD
                                               ? "integer modulo by zero"
                                               : "integer division or modulo by zero",
                                           at);
        if (x == G_MININT64 && y == -1)
          return widen (t, op, x, y, at);
        q = x / y;
        m = x % y;
        /* Python rounds the quotient towards minus infinity. */
        if (m != 0 && ((m < 0) != (y < 0)))
          {
            q--;
            m += y;
          }
        return _graft_value_int (t, op == GRAFT_PY_BIN_FLOORDIV ? q : m);
      }
    case GRAFT_PY_BIN_POW:
      if (y < 0)
        return _graft_value_float (t, pow ((double) x, (double) y));
      r = 1;
      for (gint64 base = x, e = y; e > 0; e >>= 1)
        {
          if ((e & 1) && __builtin_mul_overflow (r, base, &r))
            return widen (t, op, x, y, at);
          if (e > 1 && __builtin_mul_overflow (base, base, &base))
            return widen (t, op, x, y, at);
        }
      return _graft_value_int (t, r);
    case GRAFT_PY_BIN_LSHIFT:
      if (y < 0)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "ValueError: negative shift count");
      if (y >= 63 || (x != 0 && (x > (G_MAXINT64 >> y) || x < (G_MININT64 >> y))))
        return x == 0 ? _graft_value_int (t, 0) : widen (t, op, x, y, at);
      return _graft_value_int (t, x * ((gint64) 1 << y));
    case GRAFT_PY_BIN_RSHIFT:
      if (y < 0)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "ValueError: negative shift count");
      return _graft_value_int (t, y >= 63 ? (x < 0 ? -1 : 0) : x >> y);
    case GRAFT_PY_BIN_BITOR:
      return _graft_value_int (t, x | y);
    case GRAFT_PY_BIN_BITXOR:
      return _graft_value_int (t, x ^ y);
    case GRAFT_PY_BIN_BITAND:
      return _graft_value_int (t, x & y);
    case GRAFT_PY_BIN_MATMUL:
    default:
      return NULL;
    }
}

static Value *
float_binop (Tracer            *t,
             GraftPyBinOp       op,
             double             x,
             double             y,
             const GraftPyExpr *at)
{
  switch (op)
    {
    case GRAFT_PY_BIN_ADD:
      return _graft_value_float (t, x + y);
    case GRAFT_PY_BIN_SUB:
      return _graft_value_float (t, x - y);
    case GRAFT_PY_BIN_MUL:
      return _graft_value_float (t, x * y);
    case GRAFT_PY_BIN_TRUEDIV:
      if (y == 0)
        return _graft_tracer_raise_text (t, "ZeroDivisionError", "float division by zero", at);
      return _graft_value_float (t, x / y);
    case GRAFT_PY_BIN_FLOORDIV:
    case GRAFT_PY_BIN_MOD:
      {
        /* CPython's float divmod, step for step (-inf // 0.3 is nan). */
        double m, div, q;

        if (y == 0)
          return _graft_tracer_raise_text (t, "ZeroDivisionError",
                                           op == GRAFT_PY_BIN_MOD
                                               ? t->dialect->float_modulo_by_zero
                                               : "float floor division by zero",
                                           at);
        m = fmod (x, y);
        div = (x - m) / y;
        if (m != 0)
          {
            if ((y < 0) != (m < 0))
              {
                m += y;
                div -= 1.0;
              }
          }
        else
          m = copysign (0.0, y);
        if (op == GRAFT_PY_BIN_MOD)
          return _graft_value_float (t, m);
        if (div != 0)
          {
            q = floor (div);
            if (div - q > 0.5)
              q += 1.0;
          }
        else
          q = copysign (0.0, x / y);
        return _graft_value_float (t, q);
      }
    case GRAFT_PY_BIN_POW:
      if (x == 0 && y < 0)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "ZeroDivisionError: 0.0 cannot be raised to a negative power");
      if (x < 0 && y != floor (y) && isfinite (y))
        {
          /* Complex, as CPython's _Py_c_pow computes it for a real
           * exponent. */
          Value *c = _graft_value_new (t, VAL_COMPLEX);
          double len = pow (fabs (x), y);
          double phase = atan2 (0.0, x) * y;

          c->c[0] = len * cos (phase);
          c->c[1] = len * sin (phase);
          if (!isfinite (c->c[0]) || !isfinite (c->c[1]))
            return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                       "OverflowError: complex exponentiation");
          return c;
        }
      {
        double r = pow (x, y);

        /* CPython reports a finite base and exponent that overflow. */
        if (isinf (r) && isfinite (x) && isfinite (y))
          return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                     "OverflowError: (34, 'Numerical result out of range')");
        return _graft_value_float (t, r);
      }
    case GRAFT_PY_BIN_MATMUL:
    case GRAFT_PY_BIN_LSHIFT:
    case GRAFT_PY_BIN_RSHIFT:
    case GRAFT_PY_BIN_BITOR:
    case GRAFT_PY_BIN_BITXOR:
    case GRAFT_PY_BIN_BITAND:
    default:
      return NULL;
    }
}

static Value *
repeat_seq (Tracer *t,
            Value  *seq,
            gint64  n)
{
  Value *out;

  if (seq->kind == VAL_STR)
    {
      GString *s = g_string_new (NULL);
      Value   *r;

      for (gint64 i = 0; i < n; i++)
        g_string_append_len (s, seq->str.s, seq->str.len);
      r = _graft_value_str (t, s->str, s->len);
      g_string_free (s, TRUE);
      return r;
    }
  out = _graft_value_seq (t, seq->kind, 0);
  for (gint64 i = 0; i < n; i++)
    for (guint j = 0; j < seq->seq.items->len; j++)
      _graft_value_seq_add (out, seq->seq.items->pdata[j]);
  out->seq.size = seq->seq.size; /* torch.Size's __mul__ and __rmul__ */
  return out;
}

static Value *
fail_format (Tracer            *t,
             const GraftPyExpr *at)
{
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "this %%-format is not supported: use %%s, %%r, %%d, %%i, %%x or %%f");
}

static gboolean
is_tensorish (const Value *v)
{
  return v->kind == VAL_TENSOR || v->kind == VAL_PARAMETER;
}

/* `"block%d" % i`: printf-style formatting with the conversions model
 * code uses in names (%s %r %d %i %f %x and %%). */
static Value *
format_percent (Tracer            *t,
                Value             *fmt,
                Value             *values,
                const GraftPyExpr *at)
{
  g_autoptr (GString) out = g_string_new (NULL);
  guint next = 0;
  guint n = values->kind == VAL_TUPLE ? values->seq.items->len : 1;

  for (gsize i = 0; i < fmt->str.len; i++)
    {
      char   c = fmt->str.s[i];
      Value *v;
      gint64 x;
      double f;

      if (c != '%')
        {
          g_string_append_c (out, c);
          continue;
        }
      if (++i >= fmt->str.len)
        return fail_format (t, at);
      c = fmt->str.s[i];
      if (c == '%')
        {
          g_string_append_c (out, '%');
          continue;
        }
      if (next >= n)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: not enough arguments for format string");
      v = values->kind == VAL_TUPLE ? values->seq.items->pdata[next] : values;
      next++;
      /* %s and %r print a proxy's repr, `Proxy(x)`; a number format
       * needs its value. */
      if (_graft_value_is_proxy (v) && (c == 's' || c == 'r'))
        {
          if (!_graft_tracer_append_proxy_repr (t, out, v))
            return NULL;
          continue;
        }
      if (_graft_value_is_proxy (v))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: %%%c format: a real number is required, not Proxy",
                                   c);
      if (_graft_value_holds_proxy (v))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "a traced value cannot be formatted into a string: its value is "
                                   "not known while tracing");
      switch (c)
        {
        case 's':
        case 'r':
          if (!_graft_tracer_check_printable (t, v, "formatting", at))
            return NULL;
          _graft_value_append_str (out, v, c == 'r');
          break;
        case 'd':
        case 'i':
        case 'x':
          if (as_int (v, &x))
            g_string_append_printf (out, c == 'x' ? "%" G_GINT64_MODIFIER "x" : "%" G_GINT64_FORMAT,
                                    x);
          else if (v->kind == VAL_FLOAT && c != 'x')
            g_string_append_printf (out, "%" G_GINT64_FORMAT, (gint64) v->f);
          else
            return fail_format (t, at);
          break;
        case 'f':
          if (!as_float (v, &f))
            return fail_format (t, at);
          {
            /* Python's %f ignores the locale; printf's follows LC_NUMERIC,
             * which the editor (GTK) sets from the user's locale. */
            char buf[G_ASCII_DTOSTR_BUF_SIZE + 320];

            g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%f", f));
          }
          break;
        default:
          return fail_format (t, at);
        }
    }
  if (next < n)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "TypeError: not all arguments converted during string "
                               "formatting");
  return _graft_value_str (t, out->str, out->len);
}

/* Sets @from's items into @dict, in @from's order. */
static void
dict_update (Tracer *t,
             Value  *dict,
             Value  *from)
{
  guint n = from->dict.keys->len; /* @from may be @dict */

  for (guint i = 0; i < n; i++)
    _graft_dict_set (t, dict, from->dict.keys->pdata[i], from->dict.values->pdata[i]);
}

/**
 * _graft_tracer_binop:
 *
 * `a OP b`: a node when either side is traced, else the folded constant.
 *
 * Returns: (nullable): the result, or %NULL with the tracer's error set
 */
/* Whether @v is a value whose type's binary operators Graft knows all
 * of: None, bool, int, float, str, list, tuple, dict (not a range,
 * torch.Size, set, complex or object). */
static gboolean
plain_operand (const Value *v)
{
  if (v->kind == VAL_LIST)
    return v->seq.range == NULL;
  if (v->kind == VAL_TUPLE)
    return !v->seq.size;
  return v->kind == VAL_NONE || v->kind == VAL_BOOL || v->kind == VAL_INT ||
         v->kind == VAL_FLOAT || v->kind == VAL_STR || v->kind == VAL_DICT ||
         _graft_value_is_bigint (v);
}

static gboolean
is_sequence (const Value *v)
{
  return v->kind == VAL_STR || v->kind == VAL_LIST || v->kind == VAL_TUPLE;
}

/* Python's TypeError for `a OP b` where Graft found no operation, when
 * both types are plain_operand()s and Python surely fails (its texts:
 * `can only concatenate`, `can't multiply sequence`, `unsupported
 * operand type(s)`); @python_op is the operator as Python names it
 * (`+`, `** or pow()`, `+=`).  Returns %FALSE, raising nothing, where
 * Python may succeed. */
static gboolean
raise_python_type_error (Tracer            *t,
                         GraftPyBinOp       op,
                         Value             *a,
                         Value             *b,
                         const char        *python_op,
                         const GraftPyExpr *at)
{
  gint64      x;
  const char *message;

  if (python_op == NULL || !plain_operand (a) || !plain_operand (b))
    return FALSE;
  if (_graft_value_is_number (a) && _graft_value_is_number (b) && op != GRAFT_PY_BIN_MATMUL &&
      !((a->kind == VAL_FLOAT || b->kind == VAL_FLOAT) &&
        (op == GRAFT_PY_BIN_LSHIFT || op == GRAFT_PY_BIN_RSHIFT || op == GRAFT_PY_BIN_BITOR ||
         op == GRAFT_PY_BIN_BITXOR || op == GRAFT_PY_BIN_BITAND)))
    return FALSE;
  if ((op == GRAFT_PY_BIN_MOD && a->kind == VAL_STR) ||
      (op == GRAFT_PY_BIN_BITOR && a->kind == VAL_DICT && b->kind == VAL_DICT) ||
      (op == GRAFT_PY_BIN_ADD && is_sequence (a) && a->kind == b->kind))
    return FALSE;
  if (op == GRAFT_PY_BIN_ADD && is_sequence (a))
    message = _graft_tracer_printf (t, "can only concatenate %s (not \"%s\") to %s",
                                    _graft_value_type_name (a), _graft_value_type_name (b),
                                    _graft_value_type_name (a));
  else if (op == GRAFT_PY_BIN_MUL && (is_sequence (a) || is_sequence (b)))
    {
      Value *times = is_sequence (a) ? b : a;

      if (as_int (times, &x) || _graft_value_is_bigint (times))
        return FALSE;
      message = _graft_tracer_printf (t, "can't multiply sequence by non-int of type '%s'",
                                      _graft_value_type_name (times));
    }
  else
    message = _graft_tracer_printf (t, "unsupported operand type(s) for %s: '%s' and '%s'",
                                    python_op, _graft_value_type_name (a),
                                    _graft_value_type_name (b));
  _graft_tracer_raise_text (t, "TypeError", message, at);
  return TRUE;
}

/**
 * _graft_tracer_binop:
 *
 * `a OP b`, failing as Python does where it surely fails (see
 * _graft_tracer_binop_as()).
 */
Value *
_graft_tracer_binop (Tracer            *t,
                     GraftPyBinOp       op,
                     Value             *a,
                     Value             *b,
                     const GraftPyExpr *at)
{
  return _graft_tracer_binop_as (t, op, a, b,
                                 op == GRAFT_PY_BIN_POW ? "** or pow()"
                                                        : graft_py_bin_op_to_string (op),
                                 at);
}

/**
 * _graft_tracer_binop_as:
 * @python_op: the operator as Python's TypeError names it, where no
 *   operation applies (`+`, `+=`, `divmod()`); %NULL where Python's
 *   result is not known to be an error (`(1).__add__('a')` is
 *   NotImplemented): Graft's own error then
 *
 * `a OP b`.
 */
Value *
_graft_tracer_binop_as (Tracer            *t,
                        GraftPyBinOp       op,
                        Value             *a,
                        Value             *b,
                        const char        *python_op,
                        const GraftPyExpr *at)
{
  gint64 x, y;
  double fx, fy;
  Value *r;

  /* The commonest, `x + y` of traced values (as the checks below). */
  if (a->kind == VAL_PROXY)
    return record (t, _graft_tracer_binop_targets[op], a, b, at);
  if (is_constant_tensor (a) && _graft_value_is_proxy (b))
    return record_method (t, tensor_binop_methods[op], a, b, at);
  /* `'%s' % x` is str's own formatting: Python never asks the proxy. */
  if (a->kind == VAL_STR && op == GRAFT_PY_BIN_MOD)
    return format_percent (t, a, b, at);
  if (_graft_value_is_proxy (a) || _graft_value_is_proxy (b))
    return record (t, _graft_tracer_binop_targets[op], a, b, at);

  if (a->kind == VAL_SET && b->kind == VAL_SET &&
      (r = _graft_tracer_set_binop (t, op, a, b)) != NULL)
    return r;
  /* `d1 | d2` (Python 3.9): a new dict, d2's values winning; an
   * OrderedDict on either side makes one (its __or__ or __ror__). */
  if (op == GRAFT_PY_BIN_BITOR && a->kind == VAL_DICT && b->kind == VAL_DICT)
    {
      r = _graft_value_dict (t);
      r->dict.ordered = a->dict.ordered || b->dict.ordered;
      dict_update (t, r, a);
      dict_update (t, r, b);
      return r;
    }
  if (op == GRAFT_PY_BIN_BITOR && (r = _graft_tracer_type_or (t, a, b, at)) != NULL)
    return r;
  if (t->error != NULL)
    return NULL;

  if (is_tensorish (a) || is_tensorish (b))
    {
      /* Tensor arithmetic on constants runs eagerly and makes a new
       * constant tensor, as it does under torch.fx. */
      if (is_tensorish (a) || _graft_value_is_number (a))
        if (is_tensorish (b) || _graft_value_is_number (b))
          return _graft_tracer_binop_tensor (t, (int) op, a, b, at);
    }

  if ((_graft_value_is_bigint (a) && (as_int (b, &y) || _graft_value_is_bigint (b))) ||
      (_graft_value_is_bigint (b) && as_int (a, &x)))
    {
      r = _graft_tracer_bigint_binop (t, op, a, b, at);
      if (r != NULL || t->error != NULL)
        return r;
    }
  else if ((_graft_value_is_bigint (a) && b->kind == VAL_FLOAT) ||
           (_graft_value_is_bigint (b) && a->kind == VAL_FLOAT))
    {
      /* With a float, the int becomes a float first, as in Python. */
      if (!(_graft_value_is_bigint (a) ? _graft_bigint_to_double (a, &fx) : (fx = a->f, TRUE)) ||
          !(_graft_value_is_bigint (b) ? _graft_bigint_to_double (b, &fy) : (fy = b->f, TRUE)))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "OverflowError: int too large to convert to float");
      r = float_binop (t, op, fx, fy, at);
      if (r != NULL || t->error != NULL)
        return r;
    }
  else if (as_int (a, &x) && as_int (b, &y))
    {
      /* bool & bool stays a bool in Python. */
      if (a->kind == VAL_BOOL && b->kind == VAL_BOOL &&
          (op == GRAFT_PY_BIN_BITAND || op == GRAFT_PY_BIN_BITOR || op == GRAFT_PY_BIN_BITXOR))
        return _graft_value_bool (op == GRAFT_PY_BIN_BITAND  ? (x & y)
                                  : op == GRAFT_PY_BIN_BITOR ? (x | y)
                                                             : (x ^ y));
      r = int_binop (t, op, x, y, at);
      if (r != NULL || t->error != NULL)
        return r;
    }
  else if (as_float (a, &fx) && as_float (b, &fy))
    {
      r = float_binop (t, op, fx, fy, at);
      if (r != NULL || t->error != NULL)
        return r;
    }
  else if (a->kind == VAL_STR && op == GRAFT_PY_BIN_MOD)
    return format_percent (t, a, b, at);
  else if (a->kind == VAL_STR && b->kind == VAL_STR && op == GRAFT_PY_BIN_ADD)
    {
      g_autofree char *s = g_malloc (a->str.len + b->str.len + 1);

      memcpy (s, a->str.s, a->str.len);
      memcpy (s + a->str.len, b->str.s, b->str.len);
      return _graft_value_str (t, s, a->str.len + b->str.len);
    }
  else if ((a->kind == VAL_TUPLE || a->kind == VAL_LIST) && a->kind == b->kind &&
           op == GRAFT_PY_BIN_ADD)
    {
      Value *out = _graft_value_seq (t, a->kind, 0);

      for (guint i = 0; i < a->seq.items->len; i++)
        _graft_value_seq_add (out, a->seq.items->pdata[i]);
      for (guint i = 0; i < b->seq.items->len; i++)
        _graft_value_seq_add (out, b->seq.items->pdata[i]);
      out->seq.size = a->seq.size; /* torch.Size's __add__ */
      return out;
    }
  else if (op == GRAFT_PY_BIN_MUL &&
           ((a->kind == VAL_STR || a->kind == VAL_TUPLE || a->kind == VAL_LIST) && as_int (b, &y)))
    {
      if (y > 100000)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_LIMIT,
                                   "repeating a sequence %" G_GINT64_FORMAT
                                   " times is beyond Graft's limits",
                                   y);
      return repeat_seq (t, a, y);
    }
  else if (op == GRAFT_PY_BIN_MUL &&
           ((b->kind == VAL_STR || b->kind == VAL_TUPLE || b->kind == VAL_LIST) && as_int (a, &x)))
    {
      if (x > 100000)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_LIMIT,
                                   "repeating a sequence %" G_GINT64_FORMAT
                                   " times is beyond Graft's limits",
                                   x);
      return repeat_seq (t, b, x);
    }
  else if (a->kind == VAL_COMPLEX || b->kind == VAL_COMPLEX)
    {
      double   ar = a->kind == VAL_COMPLEX ? a->c[0] : 0, ai = a->kind == VAL_COMPLEX ? a->c[1] : 0;
      double   br = b->kind == VAL_COMPLEX ? b->c[0] : 0, bi = b->kind == VAL_COMPLEX ? b->c[1] : 0;
      gboolean ok = TRUE;

      if (a->kind != VAL_COMPLEX)
        ok = as_float (a, &ar);
      if (b->kind != VAL_COMPLEX)
        ok = ok && as_float (b, &br);
      if (ok && (op == GRAFT_PY_BIN_ADD || op == GRAFT_PY_BIN_SUB || op == GRAFT_PY_BIN_MUL))
        {
          Value *c = _graft_value_new (t, VAL_COMPLEX);

          if (op == GRAFT_PY_BIN_ADD)
            c->c[0] = ar + br, c->c[1] = ai + bi;
          else if (op == GRAFT_PY_BIN_SUB)
            c->c[0] = ar - br, c->c[1] = ai - bi;
          else
            c->c[0] = ar * br - ai * bi, c->c[1] = ar * bi + ai * br;
          return c;
        }
    }

  if (raise_python_type_error (t, op, a, b, python_op, at))
    return NULL;
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "unsupported operand types for %s: '%s' and '%s'",
                             graft_py_bin_op_to_string (op),
                             _graft_value_type_name (a), _graft_value_type_name (b));
}

/**
 * _graft_tracer_unary:
 *
 * `-a`, `+a`, `~a`, `not a`.  `not` on a traced value is control flow and
 * fails, as in torch.fx.
 */
Value *
_graft_tracer_unary (Tracer            *t,
                     GraftPyUnaryOp     op,
                     Value             *a,
                     const GraftPyExpr *at)
{
  gint64   x;
  gboolean truth;

  if (op == GRAFT_PY_UNARY_NOT)
    {
      if (!_graft_tracer_truth (t, a, at, &truth))
        return NULL;
      return _graft_value_bool (!truth);
    }
  if (_graft_value_is_proxy (a))
    return record (t,
                   op == GRAFT_PY_UNARY_NEG   ? "operator.neg"
                   : op == GRAFT_PY_UNARY_POS ? "operator.pos"
                                              : "operator.invert",
                   a, NULL, at);
  if (is_tensorish (a))
    return op == GRAFT_PY_UNARY_NEG
               ? _graft_tracer_tensor_method_result (t, a, "neg", NULL, NULL, at)
           : op == GRAFT_PY_UNARY_INVERT
               ? _graft_tracer_tensor_method_result (t, a, "__invert__", NULL, NULL, at)
               : _graft_value_tensor (t);
  if (as_int (a, &x))
    {
      if (op == GRAFT_PY_UNARY_NEG)
        {
          if (x == G_MININT64)
            return _graft_tracer_bigint_negate (t, a, TRUE, at);
          return _graft_value_int (t, -x);
        }
      if (op == GRAFT_PY_UNARY_POS)
        return _graft_value_int (t, x);
      return _graft_value_int (t, ~x);
    }
  if (a->kind == VAL_FLOAT && op != GRAFT_PY_UNARY_INVERT)
    return _graft_value_float (t, op == GRAFT_PY_UNARY_NEG ? -a->f : a->f);
  if (_graft_value_is_bigint (a) && op == GRAFT_PY_UNARY_NEG)
    return _graft_tracer_bigint_negate (t, a, TRUE, at);
  if (_graft_value_is_bigint (a) && op == GRAFT_PY_UNARY_POS)
    return a;
  if (_graft_value_is_bigint (a))
    {
      /* ~x is -x - 1. */
      Value *neg = _graft_tracer_bigint_negate (t, a, TRUE, at);

      return neg != NULL ? _graft_tracer_bigint_binop (t, GRAFT_PY_BIN_SUB, neg,
                                                       _graft_value_int (t, 1), at)
                         : NULL;
    }
  if (a->kind == VAL_COMPLEX && op != GRAFT_PY_UNARY_INVERT)
    {
      Value *c = _graft_value_new (t, VAL_COMPLEX);

      c->c[0] = op == GRAFT_PY_UNARY_NEG ? -a->c[0] : a->c[0];
      c->c[1] = op == GRAFT_PY_UNARY_NEG ? -a->c[1] : a->c[1];
      return c;
    }
  /* A module has no __neg__: Python's TypeError, which torch raises. */
  if (a->kind == VAL_OBJECT && a->obj->kind != OBJ_PLAIN)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "TypeError: bad operand type for unary %s: '%s'",
                               graft_py_unary_op_to_string (op), _graft_value_type_name (a));
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "bad operand type for unary %s: '%s'",
                             graft_py_unary_op_to_string (op), _graft_value_type_name (a));
}

/* A str, None, number, tuple or list: kinds whose order Python defines
 * between two of the same kind only (numbers among themselves). */
static gboolean
plain_kind (const Value *v)
{
  return v->kind == VAL_STR || v->kind == VAL_NONE || v->kind == VAL_INT ||
         v->kind == VAL_FLOAT || v->kind == VAL_BOOL || v->kind == VAL_TUPLE ||
         v->kind == VAL_LIST;
}

static int
compare_values (Tracer   *t,
                Value    *a,
                Value    *b,
                gboolean *ok)
{
  double x, y;

  *ok = TRUE;
  if (_graft_value_is_bigint (a) || _graft_value_is_bigint (b))
    {
      int c;

      if (_graft_tracer_bigint_compare (a, b, &c))
        return c;
    }
  if (as_float (a, &x) && as_float (b, &y))
    {
      gint64 i, j;

      if (as_int (a, &i) && as_int (b, &j))
        return i < j ? -1 : i > j;
      if (isnan (x) || isnan (y))
        {
          *ok = FALSE;
          return 2; /* unordered */
        }
      return x < y ? -1 : x > y;
    }
  if (a->kind == VAL_STR && b->kind == VAL_STR)
    {
      int c = memcmp (a->str.s, b->str.s, MIN (a->str.len, b->str.len));

      if (c != 0)
        return c < 0 ? -1 : 1;
      return a->str.len < b->str.len ? -1 : a->str.len > b->str.len;
    }
  if ((a->kind == VAL_TUPLE || a->kind == VAL_LIST) && a->kind == b->kind)
    {
      guint n = MIN (a->seq.items->len, b->seq.items->len);

      for (guint i = 0; i < n; i++)
        {
          Value *p = a->seq.items->pdata[i], *q = b->seq.items->pdata[i];
          int    c;

          if (_graft_value_equal (p, q))
            continue;
          /* (Too deep: the statement fails when it ends.) */
          if (!_graft_tracer_walk_enter (t))
            {
              *ok = FALSE;
              return 0;
            }
          c = compare_values (t, p, q, ok);
          _graft_tracer_walk_leave (t);
          return c;
        }
      return a->seq.items->len < b->seq.items->len ? -1 : a->seq.items->len > b->seq.items->len;
    }
  *ok = FALSE;
  return 0;
}

static gboolean
contains (Value    *container,
          Value    *item,
          gboolean *ok)
{
  *ok = TRUE;
  if (_graft_value_is_seq (container))
    {
      for (guint i = 0; i < container->seq.items->len; i++)
        if (_graft_value_equal (container->seq.items->pdata[i], item))
          return TRUE;
      return FALSE;
    }
  if (container->kind == VAL_DICT)
    return _graft_dict_get (container, item) != NULL;
  if (container->kind == VAL_SET)
    return _graft_set_has (container, item);
  if (container->kind == VAL_OBJECT &&
      (container->obj->kind == OBJ_MODULE_DICT || container->obj->kind == OBJ_PARAMETER_DICT) &&
      item->kind != VAL_LIST && item->kind != VAL_DICT)
    /* ModuleDict.__contains__: `key in self._modules`, whose keys are
     * strings (an unhashable key is left to the caller's error);
     * ParameterDict's: `key in self._keys`, the same keys */
    return item->kind == VAL_STR && memchr (item->str.s, '\0', item->str.len) == NULL &&
           _graft_strmap_get (container->obj->kind == OBJ_MODULE_DICT ? &container->obj->modules
                                                                      : &container->obj->params,
                              item->str.s) != NULL;
  if (container->kind == VAL_OBJECT && (container->obj->kind == OBJ_MODULE_LIST ||
                                        container->obj->kind == OBJ_SEQUENTIAL))
    {
      /* Iterating the modules, each compared by identity (a module's ==) */
      for (guint i = 0; i < container->obj->modules.values->len; i++)
        {
          const Value *m = container->obj->modules.values->pdata[i];

          if (item->kind == VAL_OBJECT && m->kind == VAL_OBJECT && m->obj == item->obj)
            return TRUE;
        }
      return FALSE;
    }
  if (container->kind == VAL_STR && item->kind == VAL_STR)
    {
      if (item->str.len == 0)
        return TRUE;
      for (gsize i = 0; i + item->str.len <= container->str.len; i++)
        if (memcmp (container->str.s + i, item->str.s, item->str.len) == 0)
          return TRUE;
      return FALSE;
    }
  *ok = FALSE;
  return FALSE;
}

static gboolean
is_same (const Value *a,
         const Value *b)
{
  /* Singletons and constants compare by identity as CPython would for the
   * values that appear in model code (`x is None`, `mode is True`). */
  if (a == b)
    return TRUE;
  if (a->kind != b->kind)
    return FALSE;
  switch (a->kind)
    {
    case VAL_NONE:
    case VAL_ELLIPSIS:
      return TRUE;
    case VAL_BOOL:
      return a->b == b->b;
    case VAL_PROXY:
      return a->node == b->node;
    case VAL_SYMBOL:
    case VAL_PYMODULE:
    case VAL_PATH_FN:
    case VAL_NN_CLASS:
    case VAL_BUILTIN:
    case VAL_TYPE:
      return strcmp (a->path, b->path) == 0;
    case VAL_GENERIC:
      return strcmp (a->generic.repr, b->generic.repr) == 0;
    case VAL_SET:
    case VAL_ITER:
      return FALSE;
    case VAL_OBJECT:
      return a->obj == b->obj;
    case VAL_CLASS: /* type(self) makes a new value of the one class */
      return a->cls == b->cls;
    case VAL_INT:
    case VAL_FLOAT:
    case VAL_COMPLEX:
    case VAL_STR:
    case VAL_TUPLE:
    case VAL_LIST:
    case VAL_DICT:
    case VAL_SLICE:
    case VAL_DEVICE:
    case VAL_ATTR_PROXY:
    case VAL_FUNCTION:
    case VAL_SELF_PATH:
    case VAL_BOUND:
    case VAL_METHOD:
    case VAL_TENSOR:
    case VAL_PARAMETER:
    case VAL_SUPER:
    default:
      return FALSE;
    }
}

/* `a in it` of an iterator: its items taken until one is @a or equals it
 * (a generator runs no further). */
static Value *
iterator_contains (Tracer            *t,
                   GraftPyCmpOp       op,
                   Value             *it,
                   Value             *a,
                   const GraftPyExpr *at)
{
  gboolean found = FALSE;

  for (;;)
    {
      gboolean done = FALSE;
      Value   *item = _graft_tracer_iter_next (t, it, at, &done);

      if (item == NULL && !done)
        return NULL;
      if (item == NULL)
        break;
      if (is_same (item, a))
        {
          found = TRUE;
          break;
        }
      if (_graft_value_holds_proxy (item))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "'in' with a traced value needs its truth value, which tracing "
                                   "does not have "
                                   "(torch.fx: symbolically traced variables cannot be used as "
                                   "inputs to control flow)");
      if (_graft_value_equal (item, a))
        {
          found = TRUE;
          break;
        }
    }
  return _graft_value_bool (op == GRAFT_PY_CMP_IN ? found : !found);
}

/**
 * _graft_tracer_compare:
 *
 * One comparison `a OP b` (the caller splits chains).
 */
Value *
_graft_tracer_compare (Tracer            *t,
                       GraftPyCmpOp       op,
                       Value             *a,
                       Value             *b,
                       const GraftPyExpr *at)
{
  static const char *const targets[] = {
    [GRAFT_PY_CMP_EQ] = "operator.eq",
    [GRAFT_PY_CMP_NOT_EQ] = "operator.ne",
    [GRAFT_PY_CMP_LT] = "operator.lt",
    [GRAFT_PY_CMP_LT_E] = "operator.le",
    [GRAFT_PY_CMP_GT] = "operator.gt",
    [GRAFT_PY_CMP_GT_E] = "operator.ge",
  };
  /* The operator Python tries on the right operand when the left one
   * declines: `1 < x` runs `x.__gt__(1)`. */
  static const GraftPyCmpOp swapped[] = {
    [GRAFT_PY_CMP_EQ] = GRAFT_PY_CMP_EQ,
    [GRAFT_PY_CMP_NOT_EQ] = GRAFT_PY_CMP_NOT_EQ,
    [GRAFT_PY_CMP_LT] = GRAFT_PY_CMP_GT,
    [GRAFT_PY_CMP_LT_E] = GRAFT_PY_CMP_GT_E,
    [GRAFT_PY_CMP_GT] = GRAFT_PY_CMP_LT,
    [GRAFT_PY_CMP_GT_E] = GRAFT_PY_CMP_LT_E,
  };
  gboolean ok, r;
  int      c;

  if (op == GRAFT_PY_CMP_IS || op == GRAFT_PY_CMP_IS_NOT)
    {
      r = is_same (a, b);
      return _graft_value_bool (op == GRAFT_PY_CMP_IS ? r : !r);
    }
  if (op == GRAFT_PY_CMP_EQ || op == GRAFT_PY_CMP_NOT_EQ || op == GRAFT_PY_CMP_IN ||
      op == GRAFT_PY_CMP_NOT_IN)
    {
      /* A traced value's own __eq__ comes first (torch.fx records it). */
      gboolean     nan = FALSE;
      const Value *user = _graft_value_is_proxy (a) ? NULL : _graft_value_user_eq (a, &nan);

      if (user == NULL && !_graft_value_is_proxy (a) && !_graft_value_is_proxy (b))
        user = _graft_value_user_eq (b, &nan);
      if (user != NULL && nan)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "'%s' with a '%s' whose field is NaN: Python compares it by "
                                   "identity (3.11) or not (3.13), which Graft's tracer does not "
                                   "model",
                                   graft_py_cmp_op_to_string (op), _graft_value_type_name (user));
      if (user != NULL)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "'%s' with a '%s' runs its class's __eq__, which Graft's "
                                   "tracer does not model",
                                   graft_py_cmp_op_to_string (op), _graft_value_type_name (user));
    }
  if (op == GRAFT_PY_CMP_IN || op == GRAFT_PY_CMP_NOT_IN)
    {
      /* A set finds a traced value by its hash, its identity, and never
       * asks its truth (graft-tracer-sets.c). */
      if ((_graft_value_holds_proxy (a) || _graft_value_is_proxy (b)) &&
          (a->kind != VAL_PROXY || b->kind != VAL_SET))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "'in' with a traced value needs its truth value, which tracing "
                                   "does not have "
                                   "(torch.fx: symbolically traced variables cannot be used as "
                                   "inputs to control flow)");
      if (b->kind == VAL_ITER)
        return iterator_contains (t, op, b, a, at);
      r = contains (b, a, &ok);
      if (!ok)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "argument of type '%s' is not a container Graft can search",
                                   _graft_value_type_name (b));
      return _graft_value_bool (op == GRAFT_PY_CMP_IN ? r : !r);
    }
  static const char *const methods[] = {
    [GRAFT_PY_CMP_EQ] = "eq",
    [GRAFT_PY_CMP_NOT_EQ] = "ne",
    [GRAFT_PY_CMP_LT] = "lt",
    [GRAFT_PY_CMP_LT_E] = "le",
    [GRAFT_PY_CMP_GT] = "gt",
    [GRAFT_PY_CMP_GT_E] = "ge",
  };

  /* An attribute of a traced value (`x.T`) is an Attribute, a subclass of
   * Proxy: Python tries a right operand of a subclass's type first, so
   * `a < x.T` runs `x.T.__gt__(a)`. */
  if (_graft_value_is_proxy (a) && !(a->kind == VAL_PROXY && b->kind == VAL_ATTR_PROXY))
    return record (t, targets[op], a, b, at);
  if (is_constant_tensor (a) && _graft_value_is_proxy (b))
    return record_method (t, methods[op], a, b, at);
  if (_graft_value_is_proxy (b))
    return record (t, targets[swapped[op]], b, a, at);
  if (is_tensorish (a) || is_tensorish (b))
    return _graft_tracer_binop_tensor (t, -1, a, b, at);

  if (op == GRAFT_PY_CMP_EQ || op == GRAFT_PY_CMP_NOT_EQ)
    {
      r = _graft_value_equal (a, b);
      return _graft_value_bool (op == GRAFT_PY_CMP_EQ ? r : !r);
    }
  if (a->kind == VAL_SET && b->kind == VAL_SET)
    return _graft_value_bool (_graft_tracer_set_compare (op, a, b));
  c = compare_values (t, a, b, &ok);
  if (!ok)
    {
      double x, y;

      /* NaN compares false with everything. */
      if (as_float (a, &x) && as_float (b, &y))
        return _graft_value_bool (FALSE);
      /* Python's TypeError, which `except` may catch, where Graft knows
       * both kinds never compare (`'a' < 0`, `None < 0`). */
      if (plain_kind (a) && plain_kind (b) && (a->kind != b->kind || a->kind == VAL_NONE))
        return _graft_tracer_raise (t, "TypeError", at->start, at->end,
                                    "'%s' not supported between instances of '%s' and '%s'",
                                    graft_py_cmp_op_to_string (op), _graft_value_type_name (a),
                                    _graft_value_type_name (b));
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                 "'%s' not supported between instances of '%s' and '%s'",
                                 graft_py_cmp_op_to_string (op),
                                 _graft_value_type_name (a), _graft_value_type_name (b));
    }
  switch (op)
    {
    case GRAFT_PY_CMP_LT:
      return _graft_value_bool (c < 0);
    case GRAFT_PY_CMP_LT_E:
      return _graft_value_bool (c <= 0);
    case GRAFT_PY_CMP_GT:
      return _graft_value_bool (c > 0);
    case GRAFT_PY_CMP_GT_E:
      return _graft_value_bool (c >= 0);
    case GRAFT_PY_CMP_EQ:
    case GRAFT_PY_CMP_NOT_EQ:
    case GRAFT_PY_CMP_IS:
    case GRAFT_PY_CMP_IS_NOT:
    case GRAFT_PY_CMP_IN:
    case GRAFT_PY_CMP_NOT_IN:
    default:
      g_assert_not_reached ();
      return NULL;
    }
}

/* Python's slice.indices(): clamps a slice of a sequence of length @len. */
static gboolean
slice_indices (Tracer            *t,
               Value             *s,
               gint64             len,
               gint64            *out_start,
               gint64            *out_stop,
               gint64            *out_step,
               const GraftPyExpr *at)
{
  gint64 start, stop, step = 1;

  if (s->slice.step->kind != VAL_NONE && !as_int (s->slice.step, &step))
    goto bad;
  if (step == 0)
    {
      _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                          "ValueError: slice step cannot be zero");
      return FALSE;
    }
  if (s->slice.start->kind == VAL_NONE)
    start = step < 0 ? len - 1 : 0;
  else if (!as_int (s->slice.start, &start))
    goto bad;
  else
    {
      if (start < 0)
        start += len;
      if (start < 0)
        start = step < 0 ? -1 : 0;
      if (start >= len)
        start = step < 0 ? len - 1 : len;
    }
  if (s->slice.stop->kind == VAL_NONE)
    stop = step < 0 ? -1 : len;
  else if (!as_int (s->slice.stop, &stop))
    goto bad;
  else
    {
      if (stop < 0)
        stop += len;
      if (stop < 0)
        stop = step < 0 ? -1 : 0;
      if (stop >= len)
        stop = step < 0 ? len - 1 : len;
    }
  *out_start = start;
  *out_stop = stop;
  *out_step = step;
  return TRUE;

bad:
  _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                      "slice indices must be integers or None");
  return FALSE;
}

/* A string indexes by characters, not bytes: the byte offset of each
 * character of @str's UTF-8 text and one past the end (@out_n
 * characters), or NULL when every character is one byte. */
static gsize *
char_offsets (const Value *str,
              gint64      *out_n)
{
  gsize   *offsets;
  gint64   n = 0;
  gboolean ascii = TRUE;

  for (gsize i = 0; i < str->str.len && ascii; i++)
    ascii = (guchar) str->str.s[i] < 0x80;
  if (ascii)
    {
      *out_n = (gint64) str->str.len;
      return NULL;
    }
  offsets = g_new (gsize, str->str.len + 1);
  for (const char *p = str->str.s; p < str->str.s + str->str.len; p = g_utf8_next_char (p))
    offsets[n++] = p - str->str.s;
  offsets[n] = str->str.len;
  *out_n = n;
  return offsets;
}

static Value *
index_sequence (Tracer            *t,
                Value             *seq,
                Value             *index,
                const GraftPyExpr *at)
{
  g_autofree gsize *offsets = NULL;
  gint64            len = (gint64) (seq->kind == VAL_STR ? 0 : seq->seq.items->len);
  gint64            i;

  if (seq->kind == VAL_STR)
    offsets = char_offsets (seq, &len);

  if (index->kind == VAL_SLICE)
    {
      gint64   start, stop, step;
      Value   *out;
      GString *s;

      if (!slice_indices (t, index, len, &start, &stop, &step, at))
        return NULL;
      if (seq->kind == VAL_STR)
        {
          s = g_string_new (NULL);
          for (gint64 k = start; step > 0 ? k < stop : k > stop; k += step)
            if (offsets == NULL)
              g_string_append_c (s, seq->str.s[k]);
            else
              g_string_append_len (s, seq->str.s + offsets[k], offsets[k + 1] - offsets[k]);
          out = _graft_value_str (t, s->str, s->len);
          g_string_free (s, TRUE);
          return out;
        }
      out = _graft_value_seq (t, seq->kind, 0);
      for (gint64 k = start; step > 0 ? k < stop : k > stop; k += step)
        _graft_value_seq_add (out, seq->seq.items->pdata[k]);
      out->seq.size = seq->seq.size; /* a torch.Size's slice is one */
      return out;
    }
  if (!as_int (index, &i))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "%s indices must be integers or slices, not %s",
                               _graft_value_type_name (seq), _graft_value_type_name (index));
  if (i < 0)
    i += len;
  if (i < 0 || i >= len)
    {
      const char *what = seq->kind == VAL_STR ? "string" : _graft_value_type_name (seq);
      const char *message = _graft_tracer_printf (t, "%s index out of range", what);

      _graft_tracer_raise (t, "IndexError", at->start, at->end, "%s index out of range",
                           _graft_value_type_name (seq));
      t->raised_args = _graft_value_seq (t, VAL_TUPLE, 1);
      _graft_value_seq_add (t->raised_args, _graft_value_str (t, message, -1));
      return NULL;
    }
  if (seq->kind == VAL_STR && offsets != NULL)
    return _graft_value_str (t, seq->str.s + offsets[i], offsets[i + 1] - offsets[i]);
  if (seq->kind == VAL_STR)
    return _graft_value_str (t, seq->str.s + i, 1);
  return seq->seq.items->pdata[i];
}

/**
 * _graft_tracer_inplace_binop:
 *
 * `a op= b`: as _graft_tracer_binop(), except that a constant tensor
 * runs its in-place method with a traced operand.
 */
Value *
_graft_tracer_inplace_binop (Tracer            *t,
                             GraftPyBinOp       op,
                             Value             *a,
                             Value             *b,
                             const GraftPyExpr *at)
{
  Value *r;

  if (is_constant_tensor (a) && _graft_value_is_proxy (b))
    return record_method (t, tensor_inplace_methods[op], a, b, at);
  if (is_constant_tensor (a) && !_graft_tracer_tensor_inplace_fits (t, (int) op, a, b, at))
    return NULL;
  /* `d |= other` changes the dict itself; other may be any iterable of
   * pairs, as for d.update(). */
  if (op == GRAFT_PY_BIN_BITOR && a->kind == VAL_DICT &&
      (b->kind == VAL_DICT || b->kind == VAL_LIST || b->kind == VAL_TUPLE))
    return _graft_tracer_dict_update (t, a, b, at) ? a : NULL;
  /* `s |= {k}` changes the set itself (a frozenset gets a new one). */
  if (a->kind == VAL_SET && !a->seq.size && b->kind == VAL_SET &&
      (r = _graft_tracer_set_binop (t, op, a, b)) != NULL)
    {
      _graft_set_assign (a, r);
      return a;
    }
  /* `l += (1,)` extends a list by any iterable: Python's `+=` differs
   * from `+` there, and Graft keeps its own wording. */
  r = _graft_tracer_binop_as (t, op, a, b,
                              a->kind == VAL_LIST && op == GRAFT_PY_BIN_ADD
                                  ? NULL
                                  : _graft_tracer_printf (t, "%s=", graft_py_bin_op_to_string (op)),
                              at);
  /* In place: the result is @a itself, of its own shape and dtype (`@=`
   * has no __imatmul__: a new tensor). */
  if (r != NULL && r->kind == VAL_TENSOR && a->kind == VAL_TENSOR && a->tensor.meta != NULL &&
      b->kind != VAL_COMPLEX && op != GRAFT_PY_BIN_MATMUL)
    return a;
  return r;
}

/* A constant tensor indexed by a traced value (`self.mask[T]`): Tensor's
 * __getitem__ hands the index, made a tuple, to the Proxy's
 * __torch_function__, and torch.fx records `b.__getitem__((size,))`; a
 * slice of a traced value is Python's TypeError first. */
static Value *
index_tensor_traced (Tracer            *t,
                     Value             *tensor,
                     Value             *index,
                     const GraftPyExpr *at)
{
  Value  *tuple = index;
  PtrVec *args;

  if (index->kind != VAL_TUPLE)
    {
      tuple = _graft_value_seq (t, VAL_TUPLE, 1);
      _graft_value_seq_add (tuple, index);
    }
  for (guint i = 0; i < tuple->seq.items->len; i++)
    {
      Value *item = tuple->seq.items->pdata[i];

      if (item->kind == VAL_SLICE && _graft_value_holds_proxy (item))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: slice indices must be integers or None or have an "
                                   "__index__ method");
      if (item->kind != VAL_PROXY && item->kind != VAL_ATTR_PROXY && item->kind != VAL_INT &&
          item->kind != VAL_NONE && item->kind != VAL_ELLIPSIS && item->kind != VAL_SLICE &&
          item->kind != VAL_BOOL)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "indexing a constant tensor by a %s with a traced value is "
                                   "not modelled by Graft's tracer",
                                   _graft_value_type_name (item));
    }
  args = _graft_tracer_vec (t);
  _graft_vec_add (args, tensor);
  _graft_vec_add (args, tuple);
  return _graft_tracer_make_node (t, GRAFT_OP_CALL_METHOD, "__getitem__", args, NULL, "getitem",
                                  at);
}

/**
 * _graft_tracer_subscript:
 *
 * `obj[index]`: a getitem node on a traced value; indexing and slicing of
 * constants and of module containers otherwise.
 */
Value *
_graft_tracer_subscript (Tracer            *t,
                         Value             *obj,
                         Value             *index,
                         const GraftPyExpr *at)
{
  Value *found;

  if (_graft_value_is_proxy (obj))
    return record (t, "operator.getitem", obj, index, at);
  if ((found = _graft_tracer_type_subscript (t, obj, index, at)) != NULL || t->error != NULL)
    return found;
  if (_graft_value_is_seq (obj) || obj->kind == VAL_STR)
    {
      if (_graft_value_holds_proxy (index))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "a traced value cannot index a constant %s "
                                   "(torch.fx: Proxy object cannot be interpreted as an integer)",
                                   _graft_value_type_name (obj));
      return index_sequence (t, obj, index, at);
    }
  if (obj->kind == VAL_DICT)
    {
      found = _graft_dict_get (obj, index);
      if (found == NULL)
        {
          g_autoptr (GString) key = g_string_new (NULL);

          _graft_value_append_str (key, index, TRUE);
          /* A constant key (a traced one is compared as torch.fx's Proxy
           * would be, which Graft does not model): Python's KeyError. */
          if (!_graft_value_holds_proxy (index) &&
              (index->kind == VAL_STR || index->kind == VAL_INT || index->kind == VAL_BOOL ||
               index->kind == VAL_NONE || index->kind == VAL_FLOAT || index->kind == VAL_TUPLE))
            {
              /* KeyError's text is the key's repr. */
              _graft_tracer_raise (t, "KeyError", at->start, at->end, "%s", key->str);
              t->raised_args = _graft_value_seq (t, VAL_TUPLE, 1);
              _graft_value_seq_add (t->raised_args, index);
              return NULL;
            }
          return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                     "key %s is not in the dict", key->str);
        }
      return found;
    }
  if (obj->kind == VAL_OBJECT)
    return _graft_tracer_index_object (t, obj, index, at);
  if (_graft_value_is_tensor (obj) && _graft_value_holds_proxy (index))
    return index_tensor_traced (t, obj, index, at);
  if (_graft_value_is_tensor (obj))
    return _graft_tracer_index_tensor (t, obj, index, at);
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "'%s' object is not subscriptable", _graft_value_type_name (obj));
}
