/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-dtypes.c: the dtypes of ops on constant tensors: torch's
 * type promotion of two operands, the dtype arguments and conversions,
 * torch's names of dtypes in its messages, and the in-place ops' checks
 * (`a += b`, `a.add_(b)`, `a.exp_()`), which refuse a result whose dtype
 * does not cast back to `a`'s, with torch's RuntimeError.
 *
 * Promotion is followed only where it is one of the operands' dtypes or
 * the default float32; another (uint8 with int8, complex) gives NULL and
 * the caller an unknown dtype, never a guessed one.
 */
#include "config.h"

#include "graft-tracer-shapes-private.h"

#include <string.h>

/* The kind of a dtype, as torch's promotion orders them: 1 bool, 2 an
 * integer, 3 a floating type; 0 another (complex). */
int
_graft_tensor_dtype_kind (const char *dtype,
                          int        *bytes)
{
  static const struct
  {
    const char *name;
    int         kind, bytes;
  } kinds[] = {
    { "torch.bool", 1, 1 },
    { "torch.uint8", 2, 1 },
    { "torch.int8", 2, 1 },
    { "torch.int16", 2, 2 },
    { "torch.int32", 2, 4 },
    { "torch.int64", 2, 8 },
    { "torch.float16", 3, 2 },
    { "torch.bfloat16", 3, 2 },
    { "torch.float32", 3, 4 },
    { "torch.float64", 3, 8 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (strcmp (dtype, kinds[i].name) == 0)
      {
        *bytes = kinds[i].bytes;
        return kinds[i].kind;
      }
  *bytes = 0;
  return 0;
}

gboolean
_graft_tensor_is_floating (const char *dtype)
{
  int bytes;

  return _graft_tensor_dtype_kind (dtype, &bytes) == 3;
}

/* torch's promotion of two tensors' dtypes, where it is one of theirs: of
 * two kinds the higher's; of one kind the wider, except where torch makes
 * a third (uint8 with int8, float16 with bfloat16). */
const char *
_graft_tensor_promote (const Shape *a,
                       const Shape *b)
{
  int ab, bb;
  int ak = _graft_tensor_dtype_kind (a->dtype, &ab), bk = _graft_tensor_dtype_kind (b->dtype, &bb);

  if (strcmp (a->dtype, b->dtype) == 0)
    return a->dtype;
  if (ak == 0 || bk == 0)
    return NULL;
  /* A dimensioned tensor's dtype wins over a zero-dimensional one's of its
   * kind or a lower one. */
  if (a->rank == 0 && b->rank != 0)
    return ak > bk ? a->dtype : b->dtype;
  if (b->rank == 0 && a->rank != 0)
    return bk > ak ? b->dtype : a->dtype;
  if (ak != bk)
    return ak > bk ? a->dtype : b->dtype;
  if (ab == bb)
    return NULL;
  return ab > bb ? a->dtype : b->dtype;
}

/* A Python number beside a tensor of @dtype: the tensor's dtype, unless
 * the number is of a higher kind (a float beside ints: the default
 * float32; an int beside bools: int64). */
const char *
_graft_tensor_promote_number (const char  *dtype,
                              const Value *number)
{
  int bytes;
  int kind = _graft_tensor_dtype_kind (dtype, &bytes);

  if (kind == 0)
    return NULL;
  if (number->kind == VAL_FLOAT)
    return kind == 3 ? dtype : "torch.float32";
  if (number->kind == VAL_INT && !_graft_value_is_bigint (number))
    return kind == 1 ? "torch.int64" : dtype;
  if (number->kind == VAL_BOOL)
    return dtype;
  return NULL;
}

/* The dtype a conversion method gives, or NULL. */
const char *
_graft_tensor_conversion_dtype (const char *name)
{
  static const char *const conversions[][2] = {
    { "float", "torch.float32" },
    { "double", "torch.float64" },
    { "half", "torch.float16" },
    { "bfloat16", "torch.bfloat16" },
    { "long", "torch.int64" },
    { "int", "torch.int32" },
    { "short", "torch.int16" },
    { "char", "torch.int8" },
    { "byte", "torch.uint8" },
    { "bool", "torch.bool" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (conversions); i++)
    if (strcmp (name, conversions[i][0]) == 0)
      return conversions[i][1];
  return NULL;
}

/* A dtype argument: a torch dtype, as a VAL_SYMBOL. */
const char *
_graft_tensor_dtype_arg (const Value *v)
{
  int bytes;

  if (v == NULL || v->kind != VAL_SYMBOL || _graft_tensor_dtype_kind (v->path, &bytes) == 0)
    return NULL;
  return v->path;
}

/* The complex ScalarType a real @dtype makes beside a Python complex
 * number (torch's toComplexType() of the floating one, else of the
 * default float32), or NULL where Graft does not follow it. */
static const char *
complex_type_name (const char *dtype)
{
  if (strcmp (dtype, "torch.float64") == 0)
    return "ComplexDouble";
  if (strcmp (dtype, "torch.float16") == 0)
    return "ComplexHalf";
  if (strcmp (dtype, "torch.bfloat16") == 0)
    return NULL;
  return "ComplexFloat";
}

/* The result's dtype @out must cast to @a's, as torch's canCast(): not a
 * floating one to an integer or bool tensor, nor an integer one to a bool
 * tensor.  torch 1.13.1's pow_() of a number says it in its own words. */
static gboolean
check_cast (Tracer            *t,
            const GraftPyExpr *at,
            const char        *out,
            const char        *a,
            gboolean           pow_of_number)
{
  int bytes;
  int ka = _graft_tensor_dtype_kind (a, &bytes);

  if (_graft_tensor_dtype_kind (out, &bytes) <= ka || ka == 0 ||
      _graft_tensor_scalar_type_name (out) == NULL || _graft_tensor_scalar_type_name (a) == NULL)
    return TRUE;
  if (pow_of_number && t != NULL && t->dialect->torch == GRAFT_TORCH_1_13)
    return _graft_tensor_torch_error (t, at, "RuntimeError", "Found dtype %s but expected %s",
                                      _graft_tensor_scalar_type_name (a),
                                      _graft_tensor_scalar_type_name (out));
  return _graft_tensor_torch_error (t, at, "RuntimeError",
                                    "result type %s can't be cast to the desired output type %s",
                                    _graft_tensor_scalar_type_name (out),
                                    _graft_tensor_scalar_type_name (a));
}

/* `a op= b` and `a.add_(b, alpha=alpha)` of a constant tensor @a; @op as
 * _graft_tracer_tensor_inplace_fits() takes it; @alpha may be NULL. */
static gboolean
inplace_check (Tracer            *t,
               int                op,
               const Value       *a,
               const Value       *b,
               const Value       *alpha,
               const GraftPyExpr *at)
{
  Shape            sa, sb, out;
  g_autofree char *have = NULL;
  g_autofree char *want = NULL;
  gboolean         bitwise =
      op == GRAFT_PY_BIN_BITAND || op == GRAFT_PY_BIN_BITOR || op == GRAFT_PY_BIN_BITXOR;

  if (op == GRAFT_PY_BIN_SUB && _graft_tensor_sub_of_bool (t, at, a, b))
    return t == NULL || at == NULL;
  if (op < 0 || op == GRAFT_PY_BIN_MATMUL || !_graft_tensor_shape_of (a, &sa) ||
      !_graft_tensor_broadcasts_first (op, a, b))
    return TRUE;
  if (_graft_tensor_shape_of (b, &sb))
    {
      if (!_graft_tensor_broadcast (t, at, &sa, &sb, &out))
        return FALSE;
      if (out.rank != sa.rank || memcmp (out.dims, sa.dims, sa.rank * sizeof (gint64)) != 0)
        {
          have = _graft_tensor_dims_str (sa.dims, sa.rank);
          want = _graft_tensor_dims_str (out.dims, out.rank);
          return _graft_tensor_torch_error (t, at, "RuntimeError",
                                            "output with shape %s doesn't match the broadcast "
                                            "shape %s",
                                            have, want);
        }
    }
  /* A Python complex number: a complex result, never cast to a real
   * tensor. */
  if (b->kind == VAL_COMPLEX && !bitwise && complex_type_name (sa.dtype) != NULL &&
      _graft_tensor_scalar_type_name (sa.dtype) != NULL)
    return _graft_tensor_torch_error (t, at, "RuntimeError",
                                      "result type %s can't be cast to the desired output type %s",
                                      complex_type_name (sa.dtype),
                                      _graft_tensor_scalar_type_name (sa.dtype));
  if (!_graft_tensor_binary_shape (NULL, NULL, a, b, &out))
    return TRUE;
  /* Before the cast: `t_bool.pow_(-1)` too. */
  if (op == GRAFT_PY_BIN_POW && !_graft_tensor_int_pow_check (t, at, a, b))
    return FALSE;
  if (op == GRAFT_PY_BIN_TRUEDIV && !_graft_tensor_is_floating (out.dtype))
    out.dtype = "torch.float32";
  if (!check_cast (t, at, out.dtype, sa.dtype,
                   op == GRAFT_PY_BIN_POW && _graft_tensor_meta_of (b) == NULL &&
                       b->kind != VAL_TENSOR && b->kind != VAL_PARAMETER))
    return FALSE;
  if (bitwise && _graft_tensor_is_floating (out.dtype))
    return _graft_tensor_torch_error (t, at, "RuntimeError", "\"%s_cpu\" not implemented for '%s'",
                                      op == GRAFT_PY_BIN_BITAND  ? "bitwise_and"
                                      : op == GRAFT_PY_BIN_BITOR ? "bitwise_or"
                                                                 : "bitwise_xor",
                                      _graft_tensor_scalar_type_name (out.dtype));
  if (alpha != NULL && alpha->kind == VAL_BOOL && strcmp (out.dtype, "torch.bool") != 0)
    return _graft_tensor_torch_error (t, at, "RuntimeError",
                                      "Boolean alpha only supported for Boolean results.");
  if (alpha != NULL && alpha->kind == VAL_FLOAT && !_graft_tensor_is_floating (out.dtype))
    return _graft_tensor_torch_error (t, at, "RuntimeError",
                                      "For integral input tensors, argument alpha must not be a "
                                      "floating point "
                                      "number.");
  return TRUE;
}

/**
 * _graft_tracer_tensor_inplace_fits:
 * @op: the operator, a GraftPyBinOp, or -1 for a comparison
 * @a: a constant tensor, changed in place (`a += b`, `a.add_(b)`)
 *
 * Checks an in-place operator as torch does: @b must broadcast to @a's
 * own shape, and the result's dtype (torch's promotion of @a's and @b's)
 * cast to @a's.
 *
 * Returns: %FALSE with torch's RuntimeError raised at @at
 */
gboolean
_graft_tracer_tensor_inplace_fits (Tracer            *t,
                                   int                op,
                                   const Value       *a,
                                   const Value       *b,
                                   const GraftPyExpr *at)
{
  return inplace_check (t, op, a, b, NULL, at);
}

/* In-place methods of one operand that make a floating result of an
 * integer or bool tensor (`t.exp_()`): `t.float()`'s dtype, never cast
 * back. */
static gboolean
floating_inplace (const char *plain)
{
  return _graft_tensor_elementwise (plain) == 'f';
}

/* In-place methods of two operands promoted as `add_`, beyond
 * _graft_tensor_binary_method()'s: the operator each is like. */
static gboolean
inplace_binary (const char *plain,
                int        *op)
{
  static const struct
  {
    const char *name;
    int         op;
  } ops[] = {
    { "remainder", GRAFT_PY_BIN_MOD },
    { "fmod", GRAFT_PY_BIN_MOD },
    { "floor_divide", GRAFT_PY_BIN_FLOORDIV },
    { "pow", GRAFT_PY_BIN_POW },
    { "bitwise_and", GRAFT_PY_BIN_BITAND },
    { "bitwise_or", GRAFT_PY_BIN_BITOR },
    { "bitwise_xor", GRAFT_PY_BIN_BITXOR },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (strcmp (plain, ops[i].name) == 0)
      {
        *op = ops[i].op;
        return TRUE;
      }
  return _graft_tensor_binary_method (plain, op);
}

/* torch's C++ name of a dtype, as some of its checks print it (`long
 * int` for torch.int64). */
static const char *
cpp_type_name (const char *dtype)
{
  static const char *const names[][2] = {
    { "torch.float32", "float" },
    { "torch.float64", "double" },
    { "torch.float16", "c10::Half" },
    { "torch.bfloat16", "c10::BFloat16" },
    { "torch.int64", "long int" },
    { "torch.int32", "int" },
    { "torch.int16", "short int" },
    { "torch.int8", "signed char" },
    { "torch.uint8", "unsigned char" },
    { "torch.bool", "bool" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (dtype, names[i][0]) == 0)
      return names[i][1];
  return NULL;
}

/* Whether @v is a Python number torch takes as a Scalar. */
static gboolean
is_number (const Value *v)
{
  return (v->kind == VAL_INT && !_graft_value_is_bigint (v)) || v->kind == VAL_FLOAT ||
         v->kind == VAL_BOOL;
}

/* Refuses what the checks below do not follow, where torch may raise. */
static gboolean
unsure (Tracer            *t,
        const GraftPyExpr *at,
        const char        *op)
{
  if (t != NULL && at != NULL)
    _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                        "%s of these constant tensors is not modelled: torch may raise an error "
                        "whose text Graft does not know",
                        op);
  return FALSE;
}

/* `recv.clamp_(min, max)` (and clamp(), clip_(), clamp_min_(),
 * clamp_max_()) of Python numbers, @s @recv's shape: the bounds take part
 * in the promotion, whose result must cast back to @s's dtype in place;
 * torch's C++ type name in the text. */
static gboolean
clamp_check (Tracer            *t,
             const char        *plain,
             const Shape       *s,
             PtrVec            *args,
             StrMap            *kwargs,
             gboolean           inplace,
             const GraftPyExpr *at)
{
  const Value *bounds[2] = { NULL, NULL };
  gboolean     one = strcmp (plain, "clamp_min") == 0 || strcmp (plain, "clamp_max") == 0;
  guint        n = args != NULL ? args->len : 0;
  const char  *out = s->dtype;
  gboolean     any = FALSE;

  if (n > (one ? 1u : 2u))
    return TRUE;
  for (guint i = 0; i < n; i++)
    bounds[i] = args->pdata[i];
  for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
    {
      const char *key = kwargs->keys->pdata[i];
      guint       k = strcmp (key, "min") == 0 ? 0 : strcmp (key, "max") == 0 ? 1
                                                                              : 2;

      if (one || k == 2 || bounds[k] != NULL)
        return TRUE; /* Python's TypeError, elsewhere */
      bounds[k] = kwargs->values->pdata[i];
    }
  for (guint k = 0; k < 2; k++)
    {
      if (bounds[k] == NULL || bounds[k]->kind == VAL_NONE)
        continue;
      if (!is_number (bounds[k]))
        return TRUE; /* tensors: not followed here, as before */
      any = TRUE;
      if ((out = _graft_tensor_promote_number (out, bounds[k])) == NULL)
        return TRUE;
    }
  if (!any)
    return one ? TRUE
               : _graft_tensor_torch_error (t, at, "RuntimeError",
                                            "torch.clamp: At least one of 'min' or 'max' must not "
                                            "be None");
  if (inplace && _graft_tensor_dtype_kind (out, &(int){ 0 }) >
                     _graft_tensor_dtype_kind (s->dtype, &(int){ 0 }))
    return _graft_tensor_torch_error (t, at, "RuntimeError",
                                      "result type %s can't be cast to the desired output type %s",
                                      _graft_tensor_scalar_type_name (out),
                                      cpp_type_name (s->dtype));
  if (strcmp (out, "torch.bool") == 0)
    return one ? unsure (t, at, plain)
               : _graft_tensor_torch_error (t, at, "RuntimeError",
                                            "\"clamp_scalar_cpu\" not implemented for 'Bool'");
  return TRUE;
}

/* `recv.addcmul_(t1, t2, value=v)` of constant tensors: the three
 * broadcast to @recv's shape @s, their promoted dtype cast to @s's. */
static gboolean
addcmul_check (Tracer            *t,
               const Shape       *s,
               PtrVec            *args,
               StrMap            *kwargs,
               const GraftPyExpr *at)
{
  Shape            s1, s2, b, out;
  const char      *dtype;
  g_autofree char *have = NULL;
  g_autofree char *want = NULL;

  if (args == NULL || args->len != 2 ||
      (kwargs != NULL && kwargs->keys->len > 0 &&
       (kwargs->keys->len != 1 || strcmp (kwargs->keys->pdata[0], "value") != 0 ||
        !is_number (kwargs->values->pdata[0]))))
    return TRUE;
  if (!_graft_tensor_shape_of (args->pdata[0], &s1) ||
      !_graft_tensor_shape_of (args->pdata[1], &s2))
    return _graft_tensor_meta_of (args->pdata[0]) == NULL &&
                   _graft_tensor_meta_of (args->pdata[1]) == NULL
               ? TRUE
               : unsure (t, at, "addcmul_");
  if (!_graft_tensor_broadcast (t, at, s, &s1, &b) ||
      !_graft_tensor_broadcast (t, at, &b, &s2, &out))
    return FALSE;
  if (out.rank != s->rank || memcmp (out.dims, s->dims, s->rank * sizeof (gint64)) != 0)
    {
      have = _graft_tensor_dims_str (s->dims, s->rank);
      want = _graft_tensor_dims_str (out.dims, out.rank);
      return _graft_tensor_torch_error (t, at, "RuntimeError",
                                        "output with shape %s doesn't match the broadcast shape %s",
                                        have, want);
    }
  if (s->rank == 0 || s1.rank == 0 || s2.rank == 0)
    return strcmp (s->dtype, s1.dtype) == 0 && strcmp (s->dtype, s2.dtype) == 0
               ? strcmp (s->dtype, "torch.bool") != 0 || unsure (t, at, "addcmul_")
               : unsure (t, at, "addcmul_");
  b = *s;
  if ((b.dtype = _graft_tensor_promote (s, &s1)) == NULL ||
      (dtype = _graft_tensor_promote (&b, &s2)) == NULL)
    return unsure (t, at, "addcmul_");
  if (!check_cast (t, at, dtype, s->dtype, FALSE))
    return FALSE;
  if (strcmp (dtype, "torch.bool") == 0)
    return _graft_tensor_torch_error (t, at, "RuntimeError",
                                      "\"addcmul_cpu_out\" not implemented for 'Bool'");
  return TRUE;
}

/* `recv.lerp_(end, weight)` and `recv.lerp(end, weight)`: @end of @recv's
 * dtype, a weight of it or a number, and a floating dtype (torch's
 * kernels have no other); in place, the broadcast shape @recv's own. */
static gboolean
lerp_check (Tracer            *t,
            const Shape       *s,
            PtrVec            *args,
            StrMap            *kwargs,
            gboolean           inplace,
            const GraftPyExpr *at)
{
  Shape            se, sw, b, out;
  const Value     *w;
  g_autofree char *have = NULL;
  g_autofree char *want = NULL;

  if (args == NULL || args->len != 2 || !_graft_tensor_no_kwargs (kwargs))
    return TRUE;
  w = args->pdata[1];
  if (!_graft_tensor_shape_of (args->pdata[0], &se) ||
      (!is_number (w) && !_graft_tensor_shape_of (w, &sw)))
    return unsure (t, at, "lerp");
  if (cpp_type_name (s->dtype) == NULL || cpp_type_name (se.dtype) == NULL)
    return unsure (t, at, "lerp");
  if (strcmp (se.dtype, s->dtype) != 0)
    return _graft_tensor_torch_error (t, at, "RuntimeError",
                                      "expected dtype %s for `end` but got dtype %s",
                                      cpp_type_name (s->dtype), cpp_type_name (se.dtype));
  if (!is_number (w) && strcmp (sw.dtype, s->dtype) != 0)
    return unsure (t, at, "lerp");
  if (!is_number (w) && (s->rank == 0 || se.rank == 0 || sw.rank == 0))
    return unsure (t, at, "lerp");
  if (!_graft_tensor_broadcast (t, at, s, &se, &out))
    return FALSE;
  if (!is_number (w))
    {
      b = out;
      if (!_graft_tensor_broadcast (t, at, &b, &sw, &out))
        return FALSE;
    }
  if (inplace &&
      (out.rank != s->rank || memcmp (out.dims, s->dims, s->rank * sizeof (gint64)) != 0))
    {
      have = _graft_tensor_dims_str (s->dims, s->rank);
      want = _graft_tensor_dims_str (out.dims, out.rank);
      return _graft_tensor_torch_error (t, at, "RuntimeError",
                                        "output with shape %s doesn't match the broadcast shape %s",
                                        have, want);
    }
  if (!_graft_tensor_is_floating (s->dtype))
    return _graft_tensor_torch_error (t, at, "RuntimeError",
                                      "\"lerp_kernel_%s\" not implemented for '%s'",
                                      is_number (w) ? "scalar" : "tensor",
                                      _graft_tensor_scalar_type_name (s->dtype));
  return TRUE;
}

/**
 * _graft_tracer_tensor_ternary_check:
 * @recv: a constant tensor
 * @plain: the method's name, without the `_` of an in-place one
 * @inplace: whether the method is the in-place one
 *
 * Checks `clamp_()` and its kin, `addcmul_()` and `lerp_()`/`lerp()` of
 * a constant tensor whose shape is known, as torch does: their dtypes
 * (promotion and the cast back in place, the kernels' dtypes) and shapes.
 *
 * Returns: %FALSE with torch's RuntimeError raised at @at (or the op
 * refused where torch may raise and Graft does not know its text); %TRUE
 * for another method or a tensor whose shape is unknown
 */
gboolean
_graft_tracer_tensor_ternary_check (Tracer            *t,
                                    const Value       *recv,
                                    const char        *plain,
                                    gboolean           inplace,
                                    PtrVec            *args,
                                    StrMap            *kwargs,
                                    const GraftPyExpr *at)
{
  Shape s, s1, s2;
  int   bytes;

  if (!_graft_tensor_shape_of (recv, &s))
    return TRUE;
  if (strcmp (plain, "clamp") == 0 || strcmp (plain, "clip") == 0 ||
      strcmp (plain, "clamp_min") == 0 || strcmp (plain, "clamp_max") == 0)
    return clamp_check (t, plain, &s, args, kwargs, inplace, at);
  if (strcmp (plain, "addcmul") == 0 && inplace)
    return addcmul_check (t, &s, args, kwargs, at);
  if (strcmp (plain, "lerp") == 0)
    return lerp_check (t, &s, args, kwargs, inplace, at);
  /* addcdiv() of two integer or bool tensors: torch's check before any
   * other. */
  if (strcmp (plain, "addcdiv") == 0 && args != NULL && args->len == 2 &&
      _graft_tensor_shape_of (args->pdata[0], &s1) &&
      _graft_tensor_shape_of (args->pdata[1], &s2) && !_graft_tensor_is_floating (s1.dtype) &&
      !_graft_tensor_is_floating (s2.dtype) && _graft_tensor_dtype_kind (s1.dtype, &bytes) != 0 &&
      _graft_tensor_dtype_kind (s2.dtype, &bytes) != 0)
    return _graft_tensor_torch_error (
        t, at, "RuntimeError",
        "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
        "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can "
        "be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
        "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
        "addcdiv behavior is just the latter implementation: (input + value * tensor1 / "
        "tensor2), for all dtypes.");
  return TRUE;
}

/**
 * _graft_tracer_tensor_inplace_method:
 * @recv: a constant tensor
 * @name: an in-place method of it (`add_`)
 *
 * Checks `recv.add_(b)` and such (`alpha=` of `add_`/`sub_` too), as
 * _graft_tracer_tensor_inplace_fits() does for `recv += b`, and the
 * floating element-wise ones (`exp_()`) of an integer or bool tensor.
 * `t_()`, `transpose_()`, `unsqueeze_()` and `squeeze_()` give @recv the
 * new sizes and strides; `resize_()` and its kin make them unknown.
 *
 * Returns: %FALSE with torch's RuntimeError raised at @at
 */
gboolean
_graft_tracer_tensor_inplace_method (Tracer            *t,
                                     Value             *recv,
                                     const char        *name,
                                     PtrVec            *args,
                                     StrMap            *kwargs,
                                     const GraftPyExpr *at)
{
  g_autofree char *plain = g_strndup (name, strlen (name) - 1);
  int              op;
  const Value     *alpha = NULL;
  Shape            s;
  Value           *r;

  /* Those that change @recv's own sizes and strides: as the op, on
   * @recv itself; others of the kind make them unknown. */
  if ((strcmp (name, "t_") == 0 || strcmp (name, "transpose_") == 0 ||
       strcmp (name, "unsqueeze_") == 0 || strcmp (name, "squeeze_") == 0) &&
      recv->kind == VAL_TENSOR && _graft_tensor_shape_of (recv, &s))
    {
      if ((r = _graft_tracer_tensor_method_result (t, recv, plain, args, kwargs, at)) == NULL)
        return FALSE;
      recv->tensor.meta = r->tensor.meta;
      return TRUE;
    }
  if ((strcmp (name, "resize_") == 0 || strcmp (name, "resize_as_") == 0 ||
       strcmp (name, "as_strided_") == 0 || strcmp (name, "set_") == 0 ||
       strcmp (name, "swapaxes_") == 0 || strcmp (name, "swapdims_") == 0 ||
       strcmp (name, "t_") == 0 || strcmp (name, "transpose_") == 0 ||
       strcmp (name, "unsqueeze_") == 0 || strcmp (name, "squeeze_") == 0) &&
      recv->kind == VAL_TENSOR)
    {
      recv->tensor.meta = NULL;
      return TRUE;
    }

  if (!_graft_tracer_tensor_ternary_check (t, recv, plain, TRUE, args, kwargs, at))
    return FALSE;
  if ((args == NULL || args->len == 0) && _graft_tensor_no_kwargs (kwargs) &&
      floating_inplace (plain) && _graft_tensor_shape_of (recv, &s))
    return _graft_tensor_is_floating (s.dtype) || _graft_tensor_dtype_kind (s.dtype, &op) == 0 ||
           check_cast (t, at, "torch.float32", s.dtype, FALSE);
  if (args == NULL || args->len != 1 || !inplace_binary (plain, &op))
    return TRUE;
  if (!_graft_tensor_no_kwargs (kwargs))
    {
      const Value *v = kwargs->values->pdata[0];

      /* Only add_(b, alpha=...), sub_(b, alpha=...) and div_(b,
       * rounding_mode='trunc' or 'floor'), which promotes as `//`. */
      if (kwargs->keys->len != 1)
        return TRUE;
      if (strcmp (kwargs->keys->pdata[0], "rounding_mode") == 0 && op == GRAFT_PY_BIN_TRUEDIV &&
          v->kind == VAL_STR &&
          (strcmp (v->str.s, "trunc") == 0 || strcmp (v->str.s, "floor") == 0))
        op = GRAFT_PY_BIN_FLOORDIV;
      else if (strcmp (kwargs->keys->pdata[0], "alpha") == 0 && op == GRAFT_PY_BIN_ADD)
        alpha = v;
      else if (strcmp (kwargs->keys->pdata[0], "alpha") == 0 && op == GRAFT_PY_BIN_SUB)
        alpha = v;
      else
        return TRUE;
    }
  return inplace_check (t, op, recv, args->pdata[0], alpha, at);
}

/* torch's name of a CPU tensor of @dtype, as its messages print it. */
const char *
_graft_tensor_type_name (const char *dtype)
{
  static const char *const names[][2] = {
    { "torch.float32", "FloatTensor" },
    { "torch.float64", "DoubleTensor" },
    { "torch.float16", "HalfTensor" },
    { "torch.bfloat16", "BFloat16Tensor" },
    { "torch.int64", "LongTensor" },
    { "torch.int32", "IntTensor" },
    { "torch.int16", "ShortTensor" },
    { "torch.int8", "CharTensor" },
    { "torch.uint8", "ByteTensor" },
    { "torch.bool", "BoolTensor" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (dtype, names[i][0]) == 0)
      return names[i][1];
  return NULL;
}

/* torch's name of a dtype's ScalarType (`Float` for torch.float32). */
const char *
_graft_tensor_scalar_type_name (const char *dtype)
{
  static const char *const names[][2] = {
    { "torch.float32", "Float" },
    { "torch.float64", "Double" },
    { "torch.float16", "Half" },
    { "torch.bfloat16", "BFloat16" },
    { "torch.int64", "Long" },
    { "torch.int32", "Int" },
    { "torch.int16", "Short" },
    { "torch.int8", "Char" },
    { "torch.uint8", "Byte" },
    { "torch.bool", "Bool" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (dtype, names[i][0]) == 0)
      return names[i][1];
  return NULL;
}
