/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-bigint.c: Python's unbounded integers in constant folding.
 *
 * An int that fits 64 bits is a VAL_INT; a larger one is kept as its
 * decimal digits (a VAL_SYMBOL, which code and listings print as they
 * are: `x * 100000000000000000000`).  Arithmetic that leaves 64 bits, or
 * that has such an operand, is done here with GMP and brought back to a
 * VAL_INT whenever the result fits again, so that every int has one form.
 * Results are limited in size (GRAFT_MAX_BIGINT_BITS): `2 ** 10 ** 9` is
 * a located error, not minutes of work.
 */
#include "config.h"

#include "graft-tracer-private.h"
#include "graft-error.h"
#include "graft-limits.h"

#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/**
 * _graft_value_is_bigint:
 *
 * Returns: whether @v is an int beyond 64 bits
 */
gboolean
_graft_value_is_bigint (const Value *v)
{
  return v->kind == VAL_SYMBOL &&
         (g_ascii_isdigit (v->path[0]) || (v->path[0] == '-' && g_ascii_isdigit (v->path[1])));
}

/* Whether @v is an int of either form, or a bool; sets @z to it. */
static gboolean
to_mpz (const Value *v,
        mpz_t        z)
{
  if (v->kind == VAL_INT)
    mpz_set_si (z, (long) v->i);
  else if (v->kind == VAL_BOOL)
    mpz_set_si (z, v->b ? 1 : 0);
  else
    return _graft_value_is_bigint (v) && mpz_set_str (z, v->path, 10) == 0;
  return TRUE;
}

static Value *
from_mpz (Tracer            *t,
          const mpz_t        z,
          const GraftPyExpr *at)
{
  char  *digits;
  Value *v;

  if (mpz_fits_slong_p (z))
    return _graft_value_int (t, (gint64) mpz_get_si (z));
  if (mpz_sizeinbase (z, 2) > GRAFT_MAX_BIGINT_BITS)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_LIMIT,
                               "integer too large: Graft folds ints of up to %d bits",
                               GRAFT_MAX_BIGINT_BITS);
  digits = mpz_get_str (NULL, 10, z);
  v = _graft_value_path (t, VAL_SYMBOL, digits);
  free (digits);
  return v;
}

/**
 * _graft_bigint_to_double:
 * @v: an int beyond 64 bits
 * @out: its value as Python's float() gives it, correctly rounded
 *
 * Returns: %FALSE when it is too large for a float
 */
gboolean
_graft_bigint_to_double (const Value *v,
                         double      *out)
{
  /* The C library reads decimal digits correctly rounded, as Python's
   * int.__float__ rounds. */
  *out = g_ascii_strtod (v->path, NULL);
  return isfinite (*out);
}

/* An int of either form as a float, as Python converts it. */
static gboolean
as_double (const Value *v,
           double      *out)
{
  if (v->kind == VAL_INT)
    *out = (double) v->i;
  else if (v->kind == VAL_BOOL)
    *out = v->b ? 1.0 : 0.0;
  else
    return _graft_bigint_to_double (v, out);
  return TRUE;
}

/**
 * _graft_tracer_bigint_binop:
 * @a: an int, a bool or an int beyond 64 bits
 * @b: the same
 *
 * `a op b` of two ints, at least one of them beyond 64 bits or the result
 * so.
 *
 * Returns: the result, or %NULL with the tracer's error, or %NULL without
 *   one when the operator is not for ints (`@`)
 */
Value *
_graft_tracer_bigint_binop (Tracer            *t,
                            GraftPyBinOp       op,
                            Value             *a,
                            Value             *b,
                            const GraftPyExpr *at)
{
  mpz_t  x, y, r;
  Value *out = NULL;

  mpz_inits (x, y, r, NULL);
  if (!to_mpz (a, x) || !to_mpz (b, y))
    goto done;
  switch (op)
    {
    case GRAFT_PY_BIN_ADD:
      mpz_add (r, x, y);
      break;
    case GRAFT_PY_BIN_SUB:
      mpz_sub (r, x, y);
      break;
    case GRAFT_PY_BIN_MUL:
      if (mpz_sizeinbase (x, 2) + mpz_sizeinbase (y, 2) > GRAFT_MAX_BIGINT_BITS + 1)
        {
          _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_LIMIT,
                              "integer too large: Graft folds ints of up to %d bits",
                              GRAFT_MAX_BIGINT_BITS);
          goto done;
        }
      mpz_mul (r, x, y);
      break;
    case GRAFT_PY_BIN_FLOORDIV:
    case GRAFT_PY_BIN_MOD:
      if (mpz_sgn (y) == 0)
        {
          _graft_tracer_raise_text (t, "ZeroDivisionError",
                                    op == GRAFT_PY_BIN_MOD ? "integer modulo by zero"
                                                           : "integer division or modulo by zero",
                                    at);
          goto done;
        }
      /* Python's quotient rounds towards minus infinity, as GMP's fdiv. */
      if (op == GRAFT_PY_BIN_FLOORDIV)
        mpz_fdiv_q (r, x, y);
      else
        mpz_fdiv_r (r, x, y);
      break;
    case GRAFT_PY_BIN_TRUEDIV:
      {
        /* The quotient to the precision of both operands and 192 bits
         * more, then its first 60 digits read back correctly rounded. */
        mpf_t  fx, fy;
        char  *text = NULL;
        double q;

        if (mpz_sgn (y) == 0)
          {
            _graft_tracer_raise (t, "ZeroDivisionError", at->start, at->end,
                                 "ZeroDivisionError: division by zero");
            goto done;
          }
        mpf_init2 (fx, mpz_sizeinbase (x, 2) + mpz_sizeinbase (y, 2) + 192);
        mpf_init2 (fy, mpz_sizeinbase (y, 2) + 64);
        mpf_set_z (fx, x);
        mpf_set_z (fy, y);
        mpf_div (fx, fx, fy);
        {
          mp_exp_t exp10;
          char    *mantissa = mpf_get_str (NULL, &exp10, 10, 60, fx);

          /* 0.DIGITS times 10 to the exponent. */
          text = g_strdup_printf ("%s0.%se%ld", mantissa[0] == '-' ? "-" : "",
                                  mantissa[0] == '-' ? mantissa + 1 : mantissa, (long) exp10);
          free (mantissa);
        }
        q = g_ascii_strtod (text, NULL);
        g_free (text);
        mpf_clears (fx, fy, NULL);
        if (!isfinite (q))
          {
            _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                "OverflowError: integer division result too large for a float");
            goto done;
          }
        out = _graft_value_float (t, q);
        goto done;
      }
    case GRAFT_PY_BIN_POW:
      if (mpz_sgn (y) < 0)
        {
          double fa, fb;

          /* A negative power is a float's. */
          if (!as_double (a, &fa) || !as_double (b, &fb))
            {
              _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                  "OverflowError: int too large to convert to float");
              goto done;
            }
          out = _graft_value_float (t, pow (fa, fb));
          goto done;
        }
      if (!mpz_fits_ulong_p (y) ||
          (mpz_cmpabs_ui (x, 1) > 0 &&
           (double) mpz_sizeinbase (x, 2) * mpz_get_d (y) > GRAFT_MAX_BIGINT_BITS + 64.0))
        {
          _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_LIMIT,
                              "integer too large: Graft folds ints of up to %d bits",
                              GRAFT_MAX_BIGINT_BITS);
          goto done;
        }
      mpz_pow_ui (r, x, mpz_get_ui (y));
      break;
    case GRAFT_PY_BIN_LSHIFT:
    case GRAFT_PY_BIN_RSHIFT:
      if (mpz_sgn (y) < 0)
        {
          _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                              "ValueError: negative shift count");
          goto done;
        }
      if (op == GRAFT_PY_BIN_RSHIFT)
        {
          if (mpz_fits_ulong_p (y))
            mpz_fdiv_q_2exp (r, x, mpz_get_ui (y));
          else
            mpz_set_si (r, mpz_sgn (x) < 0 ? -1 : 0);
          break;
        }
      if (mpz_sgn (x) != 0 &&
          (!mpz_fits_ulong_p (y) || mpz_sizeinbase (x, 2) + mpz_get_ui (y) > GRAFT_MAX_BIGINT_BITS))
        {
          _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_LIMIT,
                              "integer too large: Graft folds ints of up to %d bits",
                              GRAFT_MAX_BIGINT_BITS);
          goto done;
        }
      mpz_mul_2exp (r, x, mpz_sgn (x) != 0 ? mpz_get_ui (y) : 0);
      break;
    case GRAFT_PY_BIN_BITOR:
      mpz_ior (r, x, y);
      break;
    case GRAFT_PY_BIN_BITXOR:
      mpz_xor (r, x, y);
      break;
    case GRAFT_PY_BIN_BITAND:
      mpz_and (r, x, y);
      break;
    case GRAFT_PY_BIN_MATMUL:
    default:
      goto done;
    }
  out = from_mpz (t, r, at);

done:
  mpz_clears (x, y, r, NULL);
  return out;
}

/**
 * _graft_tracer_bigint_compare:
 * @a: an int of either form, a bool or a float
 * @b: the same, one of the two an int beyond 64 bits
 * @out: the sign of `a - b`, compared exactly (a float is not rounded to
 *   an int, nor an int to a float)
 *
 * Returns: %FALSE when the two are not both numbers of those kinds, or a
 *   float is NaN
 */
gboolean
_graft_tracer_bigint_compare (const Value *a,
                              const Value *b,
                              int         *out)
{
  mpz_t    x, y;
  gboolean ok = TRUE;

  mpz_inits (x, y, NULL);
  if (to_mpz (a, x) && to_mpz (b, y))
    *out = mpz_cmp (x, y);
  else if (a->kind == VAL_FLOAT && !isnan (a->f) && to_mpz (b, y))
    *out = isinf (a->f) ? (a->f > 0 ? 1 : -1) : -mpz_cmp_d (y, a->f);
  else if (b->kind == VAL_FLOAT && !isnan (b->f) && to_mpz (a, x))
    *out = isinf (b->f) ? (b->f > 0 ? -1 : 1) : mpz_cmp_d (x, b->f);
  else
    ok = FALSE;
  if (ok)
    *out = (*out > 0) - (*out < 0);
  mpz_clears (x, y, NULL);
  return ok;
}

/**
 * _graft_tracer_bigint_negate:
 *
 * Returns: `-v` (@neg) or `abs(v)` of an int beyond 64 bits
 */
Value *
_graft_tracer_bigint_negate (Tracer            *t,
                             Value             *v,
                             gboolean           neg,
                             const GraftPyExpr *at)
{
  mpz_t  z;
  Value *out;

  mpz_init (z);
  to_mpz (v, z);
  if (neg)
    mpz_neg (z, z);
  else
    mpz_abs (z, z);
  out = from_mpz (t, z, at);
  mpz_clear (z);
  return out;
}
