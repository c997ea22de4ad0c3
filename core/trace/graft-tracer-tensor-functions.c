/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-tensor-functions.c: the torch functions of constant
 * tensors (`torch.arange`, `torch.full`, `torch.eye`, `torch.linspace`,
 * the `*_like` ones, `torch.cat`, `torch.stack`, `torch.outer`,
 * `torch.einsum`, and those that are a method of their first argument,
 * `torch.transpose(x, 0, 1)`; of torch.nn.functional, the element-wise
 * ones, `softmax`, `log_softmax`, `normalize`, `pad` and `interpolate`):
 * the shape, dtype and strides of what they
 * make, or torch's error where the arguments' sizes do not fit.  Any other
 * function, or arguments not followed here, give NULL: the caller's
 * tensor of unknown make.
 */
#include "config.h"

#include "graft-tracer-shapes-private.h"

#include <math.h>
#include <string.h>

/* The elements of torch.arange(start, end, step), or -1. */
static gint64
arange_len (double start,
            double end,
            double step)
{
  double n;

  if (step == 0 || !isfinite (start) || !isfinite (end) || !isfinite (step))
    return -1;
  n = ceil ((end - start) / step);
  if (n < 0 || n > (double) ((gint64) 1 << 31))
    return n < 0 ? -1 : -1;
  return (gint64) n;
}

static gboolean
number (const Value *v,
        double      *out,
        gboolean    *is_float)
{
  if (v->kind == VAL_INT && !_graft_value_is_bigint (v))
    *out = (double) v->i;
  else if (v->kind == VAL_FLOAT)
    {
      *out = v->f;
      *is_float = TRUE;
    }
  else
    return FALSE;
  return TRUE;
}

/* torch.cat() and torch.stack() of constant tensors: the shape (where
 * their dtype is one), or torch's error where their sizes do not fit.
 * cat() passes over 1-D tensors of no elements, as torch does. */
static gboolean
cat_shape (Tracer            *t,
           const GraftPyExpr *at,
           gboolean           stack,
           PtrVec            *args,
           StrMap            *kwargs,
           Shape             *s)
{
  Value   *seq = args != NULL && args->len >= 1 ? args->pdata[0] : NULL;
  Value   *dim_v = args != NULL && args->len == 2 ? args->pdata[1] : NULL;
  gint64   dim = 0;
  guint    d = 0, n, ref = 0;
  gboolean one_dtype = TRUE, found = FALSE;
  Shape    parts[64];

  if (kwargs != NULL && kwargs->keys->len > 0)
    {
      if (kwargs->keys->len != 1 || dim_v != NULL || strcmp (kwargs->keys->pdata[0], "dim") != 0)
        return FALSE;
      dim_v = kwargs->values->pdata[0];
    }
  if (seq == NULL || args->len > 2 || (seq->kind != VAL_TUPLE && seq->kind != VAL_LIST) ||
      seq->seq.items->len == 0 || seq->seq.items->len > G_N_ELEMENTS (parts) ||
      (dim_v != NULL && !_graft_tensor_plain_int (dim_v, &dim)))
    return FALSE;
  n = seq->seq.items->len;
  for (guint i = 0; i < n; i++)
    {
      if (!_graft_tensor_shape_of (seq->seq.items->pdata[i], &parts[i]))
        return FALSE;
      one_dtype = one_dtype && strcmp (parts[i].dtype, parts[0].dtype) == 0;
    }
  if (stack)
    {
      if (parts[0].rank >= MAX_RANK || !_graft_tensor_check_dim (t, at, dim, parts[0].rank + 1, &d))
        return FALSE;
      for (guint i = 1; i < n; i++)
        if (parts[i].rank != parts[0].rank ||
            memcmp (parts[i].dims, parts[0].dims, parts[0].rank * sizeof (gint64)) != 0)
          {
            g_autofree char *first = _graft_tensor_dims_str (parts[0].dims, parts[0].rank);
            g_autofree char *other = _graft_tensor_dims_str (parts[i].dims, parts[i].rank);

            return _graft_tensor_torch_error (t, at, "RuntimeError",
                                              "stack expects each tensor to be equal size, but got "
                                              "%s at entry "
                                              "0 and %s at entry %u",
                                              first, other, i);
          }
      *s = parts[0];
      memmove (&s->dims[d + 1], &s->dims[d], (s->rank - d) * sizeof (gint64));
      s->dims[d] = n;
      s->rank++;
      return one_dtype && _graft_tensor_sane (s);
    }
  for (guint i = 0; i < n; i++)
    if (parts[i].rank == 0)
      return _graft_tensor_torch_error (t, at, "RuntimeError",
                                        "zero-dimensional tensor (at position %u) cannot be "
                                        "concatenated",
                                        i);
  for (guint i = 0; i < n && !found; i++)
    if (!(parts[i].rank == 1 && parts[i].dims[0] == 0))
      {
        ref = i;
        found = TRUE;
      }
  if (!found)
    return FALSE; /* every one empty */
  if (!_graft_tensor_check_dim (t, at, dim, parts[ref].rank, &d))
    return FALSE;
  *s = parts[ref];
  s->dims[d] = 0;
  for (guint i = 0; i < n; i++)
    {
      if (parts[i].rank == 1 && parts[i].dims[0] == 0)
        continue;
      if (parts[i].rank != parts[ref].rank)
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "Tensors must have same number of dimensions: got %u and "
                                          "%u",
                                          parts[ref].rank, parts[i].rank);
      for (guint k = 0; k < parts[i].rank; k++)
        if (k != d && parts[i].dims[k] != parts[ref].dims[k])
          return _graft_tensor_torch_error (t, at, "RuntimeError",
                                            "Sizes of tensors must match except in dimension %u. "
                                            "Expected "
                                            "size %" G_GINT64_FORMAT
                                            " but got size %" G_GINT64_FORMAT
                                            " for tensor number %u in the list.",
                                            d, parts[ref].dims[k], parts[i].dims[k], i);
      s->dims[d] += parts[i].dims[d];
    }
  return one_dtype && _graft_tensor_sane (s);
}

/* torch.einsum(equation, *operands) (or one list of them), for an
 * equation with `->`, one letter per dimension (no `...`), tensors of one
 * dtype and a size for each letter that every operand agrees on. */
static gboolean
einsum_shape (PtrVec *args,
              StrMap *kwargs,
              Shape  *s)
{
  guint        n = args != NULL ? args->len : 0, first = 1;
  const Value *eq = n > 0 ? args->pdata[0] : NULL;
  PtrVec      *ops = args;
  gint64       size[128];
  const char  *p, *arrow;
  const char  *dtype = NULL;

  if (eq == NULL || eq->kind != VAL_STR || !_graft_tensor_no_kwargs (kwargs) ||
      strlen (eq->str.s) != eq->str.len || (arrow = strstr (eq->str.s, "->")) == NULL)
    return FALSE;
  if (n == 2 && (((Value *) args->pdata[1])->kind == VAL_LIST ||
                 ((Value *) args->pdata[1])->kind == VAL_TUPLE))
    {
      ops = ((Value *) args->pdata[1])->seq.items;
      first = 0;
    }
  for (guint i = 0; i < G_N_ELEMENTS (size); i++)
    size[i] = -1;
  p = eq->str.s;
  for (guint k = first; k <= ops->len; k++)
    {
      Shape op;
      guint dim = 0;

      if (k == ops->len || !_graft_tensor_shape_of (ops->pdata[k], &op) ||
          (dtype != NULL && strcmp (dtype, op.dtype) != 0))
        return FALSE;
      dtype = op.dtype;
      for (; *p != ',' && p != arrow; p++)
        {
          if (*p == ' ')
            continue;
          if (!g_ascii_isalpha (*p) || dim >= op.rank ||
              (size[(guchar) *p] >= 0 && size[(guchar) *p] != op.dims[dim]))
            return FALSE;
          size[(guchar) *p] = op.dims[dim++];
        }
      if (dim != op.rank)
        return FALSE;
      if (p == arrow)
        {
          if (k + 1 != ops->len)
            return FALSE;
          break;
        }
      p++;
    }
  s->rank = 0;
  s->dtype = dtype;
  for (p = arrow + 2; *p != '\0'; p++)
    {
      if (*p == ' ')
        continue;
      if (!g_ascii_isalpha (*p) || size[(guchar) *p] < 0 || s->rank >= MAX_RANK ||
          strchr (p + 1, *p) != NULL)
        return FALSE;
      s->dims[s->rank++] = size[(guchar) *p];
    }
  return TRUE;
}

/* A `dtype=` keyword and nothing else but @allowed ones; the dtype (or
 * @dtype unchanged). */
static gboolean
factory_kwargs (StrMap            *kwargs,
                const char *const *allowed,
                const char       **dtype)
{
  for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
    {
      const char *key = kwargs->keys->pdata[i];
      Value      *v = kwargs->values->pdata[i];

      if (strcmp (key, "dtype") == 0)
        {
          if (v->kind != VAL_NONE && (*dtype = _graft_tensor_dtype_arg (v)) == NULL)
            return FALSE;
        }
      else if (strcmp (key, "device") == 0)
        {
          if (v->kind != VAL_NONE && !_graft_tensor_is_cpu (v))
            return FALSE;
        }
      else if (strcmp (key, "requires_grad") != 0 &&
               (allowed == NULL || !g_strv_contains (allowed, key)))
        return FALSE;
    }
  return TRUE;
}

/* torch's RuntimeError where one of @s's sizes is negative, as its
 * factories raise it; FALSE then. */
gboolean
_graft_tensor_no_negative_size (Tracer            *t,
                                const GraftPyExpr *at,
                                const Shape       *s)
{
  g_autofree char *text = NULL;

  for (guint i = 0; i < s->rank; i++)
    if (s->dims[i] < 0)
      {
        text = _graft_tensor_dims_str (s->dims, s->rank);
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "Trying to create tensor with negative dimension "
                                          "%" G_GINT64_FORMAT ": %s",
                                          s->dims[i], text);
      }
  return TRUE;
}

/* The shape of what a torch function @path (no traced argument) makes. */
static gboolean
function_shape (Tracer            *t,
                const GraftPyExpr *at,
                const char        *path,
                PtrVec            *args,
                StrMap            *kwargs,
                Shape             *s)
{
  guint       n = args != NULL ? args->len : 0;
  const char *name = path + strlen ("torch.");
  char        how;

  if (strcmp (path, "torch.functional.einsum") == 0)
    name = "einsum";
  if (!g_str_has_prefix (path, "torch.") || strchr (name, '.') != NULL)
    return FALSE;
  if (strcmp (name, "arange") == 0)
    {
      double   v[3] = { 0, 0, 1 };
      gboolean is_float = FALSE;
      gint64   len;

      s->dtype = NULL;
      if (n == 0 || n > 3 || !factory_kwargs (kwargs, NULL, &s->dtype))
        return FALSE;
      for (guint i = 0; i < n; i++)
        if (!number (args->pdata[i], &v[n == 1 ? 1 : i], &is_float))
          return FALSE;
      if (v[2] == 0)
        return _graft_tensor_torch_error (t, at, "RuntimeError", "step must be nonzero");
      if ((v[2] > 0 && v[1] < v[0]) || (v[2] < 0 && v[1] > v[0]))
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "upper bound and larger bound inconsistent with step "
                                          "sign");
      if ((len = arange_len (v[0], v[1], v[2])) < 0)
        return FALSE;
      if (s->dtype == NULL)
        s->dtype = is_float ? "torch.float32" : "torch.int64";
      s->rank = 1;
      s->dims[0] = len;
      return TRUE;
    }
  /* torch.ones(3, -1) and its kin (graft-tracer-torch.c follows their
   * sizes): torch's error of a negative size. */
  if (strcmp (name, "ones") == 0 || strcmp (name, "zeros") == 0 || strcmp (name, "empty") == 0 ||
      strcmp (name, "rand") == 0 || strcmp (name, "randn") == 0)
    {
      s->dtype = NULL;
      if (factory_kwargs (kwargs, NULL, &s->dtype) && _graft_tensor_int_list (args, 0, s))
        _graft_tensor_no_negative_size (t, at, s);
      return FALSE;
    }
  if (strcmp (name, "full") == 0)
    {
      Value *fill = n == 2 ? args->pdata[1] : NULL;

      PtrVec sizes;

      s->dtype = NULL;
      if (fill == NULL || !factory_kwargs (kwargs, NULL, &s->dtype) ||
          (((Value *) args->pdata[0])->kind != VAL_TUPLE &&
           ((Value *) args->pdata[0])->kind != VAL_LIST))
        return FALSE;
      sizes = *args;
      sizes.len = 1;
      if (!_graft_tensor_int_list (&sizes, 0, s) || !_graft_tensor_no_negative_size (t, at, s) ||
          !_graft_tensor_sane (s))
        return FALSE;
      if (s->dtype == NULL)
        s->dtype = fill->kind == VAL_BOOL                                    ? "torch.bool"
                   : fill->kind == VAL_INT && !_graft_value_is_bigint (fill) ? "torch.int64"
                   : fill->kind == VAL_FLOAT                                 ? "torch.float32"
                                                                             : NULL;
      return s->dtype != NULL;
    }
  if (strcmp (name, "eye") == 0)
    {
      gint64 a, b;

      s->dtype = "torch.float32";
      if (n == 0 || n > 2 || !factory_kwargs (kwargs, NULL, &s->dtype) ||
          !_graft_tensor_plain_int (args->pdata[0], &a) ||
          (n == 2 && !_graft_tensor_plain_int (args->pdata[1], &b)))
        return FALSE;
      if (a < 0)
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "n must be greater or equal to 0, got %" G_GINT64_FORMAT,
                                          a);
      if (n == 2 && b < 0)
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "m must be greater or equal to 0, got %" G_GINT64_FORMAT,
                                          b);
      s->rank = 2;
      s->dims[0] = a;
      s->dims[1] = n == 2 ? b : a;
      return _graft_tensor_sane (s);
    }
  if (strcmp (name, "linspace") == 0)
    {
      double   x;
      gboolean f = FALSE;
      gint64   steps;

      s->dtype = "torch.float32";
      if (n != 3 || !number (args->pdata[0], &x, &f) || !number (args->pdata[1], &x, &f) ||
          !_graft_tensor_plain_int (args->pdata[2], &steps) ||
          !factory_kwargs (kwargs, NULL, &s->dtype))
        return FALSE;
      if (steps < 0)
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "number of steps must be non-negative");
      s->rank = 1;
      s->dims[0] = steps;
      return _graft_tensor_sane (s);
    }
  if (g_str_has_suffix (name, "_like") &&
      (strcmp (name, "zeros_like") == 0 || strcmp (name, "ones_like") == 0 ||
       strcmp (name, "empty_like") == 0 || strcmp (name, "rand_like") == 0 ||
       strcmp (name, "randn_like") == 0 || strcmp (name, "full_like") == 0))
    {
      guint want = name[1] == 'u' ? 2 : 1;

      if (n != want || !_graft_tensor_shape_of (args->pdata[0], s))
        return FALSE;
      if (want == 2 && ((Value *) args->pdata[1])->kind != VAL_FLOAT &&
          ((Value *) args->pdata[1])->kind != VAL_INT &&
          ((Value *) args->pdata[1])->kind != VAL_BOOL)
        return FALSE;
      return factory_kwargs (kwargs, NULL, &s->dtype);
    }
  if (strcmp (name, "cat") == 0 || strcmp (name, "concat") == 0 || strcmp (name, "stack") == 0)
    return cat_shape (t, at, name[0] == 's', args, kwargs, s);
  if (strcmp (name, "einsum") == 0)
    return einsum_shape (args, kwargs, s);
  if (strcmp (name, "outer") == 0 || strcmp (name, "ger") == 0)
    {
      Shape b;

      if (n != 2 || !_graft_tensor_no_kwargs (kwargs) ||
          !_graft_tensor_shape_of (args->pdata[0], s) ||
          !_graft_tensor_shape_of (args->pdata[1], &b))
        return FALSE;
      if (s->rank != 1 || b.rank != 1)
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "%s: Expected 1-D argument %s, but got %u-D", name,
                                          s->rank != 1 ? "self" : "vec2",
                                          s->rank != 1 ? s->rank : b.rank);
      if ((s->dtype = _graft_tensor_promote (s, &b)) == NULL)
        return FALSE;
      s->rank = 2;
      s->dims[1] = b.dims[0];
      return _graft_tensor_sane (s);
    }
  /* torch.cos(t), torch.reshape(t, ...): the method of the first argument. */
  if (((how = _graft_tensor_elementwise (name)) != 0 && strcmp (name, "contiguous") != 0 &&
       strcmp (name, "cpu") != 0) ||
      strcmp (name, "reshape") == 0 || strcmp (name, "transpose") == 0 ||
      strcmp (name, "permute") == 0 || strcmp (name, "unsqueeze") == 0 ||
      strcmp (name, "squeeze") == 0 || strcmp (name, "flatten") == 0 || strcmp (name, "t") == 0 ||
      strcmp (name, "narrow") == 0 ||
      strcmp (name, "sum") == 0 || strcmp (name, "mean") == 0 || strcmp (name, "amax") == 0 ||
      strcmp (name, "amin") == 0)
    {
      PtrVec rest;

      if (n == 0 || !_graft_tensor_shape_of (args->pdata[0], s))
        return FALSE;
      rest = *args;
      rest.pdata++;
      rest.len--;
      return _graft_tensor_method_shape (t, at, name, &rest, kwargs, s);
    }
  return FALSE;
}

/* The functions of torch.nn.functional that map each element (real
 * models apply relu, silu, dropout, sigmoid, relu6 most to constants),
 * called not in place: a `True` argument (inplace, or dropout's training)
 * is left unknown. */
static gboolean
functional_elementwise (const char *name,
                        PtrVec     *args,
                        StrMap     *kwargs)
{
  static const char *const names[] = { "relu", "relu6", "silu", "sigmoid",
                                       "tanh", "gelu", "leaky_relu", "elu",
                                       "hardtanh", "hardswish", "softplus",
                                       "mish", "selu", "celu", "hardsigmoid",
                                       "dropout", NULL };

  if (!g_strv_contains (names, name))
    return FALSE;
  for (guint i = 1; i < args->len; i++)
    {
      const Value *v = args->pdata[i];

      if (v->kind == VAL_BOOL && v->b)
        return FALSE;
      if (_graft_value_is_tensor (v))
        return FALSE;
    }
  for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
    {
      const Value *v = kwargs->values->pdata[i];

      if ((v->kind == VAL_BOOL && v->b) || _graft_value_is_tensor (v))
        return FALSE;
    }
  return TRUE;
}

/* The argument @i of a call, by position or by @name, or %NULL. */
static Value *
call_arg (PtrVec     *args,
          StrMap     *kwargs,
          guint       i,
          const char *name)
{
  Value *v = kwargs != NULL ? _graft_strmap_get (kwargs, name) : NULL;

  if (v != NULL)
    return v;
  return args != NULL && i < args->len ? args->pdata[i] : NULL;
}

/* Whether only the keywords @names (NULL-ended) are given. */
static gboolean
known_keywords (StrMap            *kwargs,
                const char *const *names)
{
  for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
    if (!g_strv_contains (names, kwargs->keys->pdata[i]))
      return FALSE;
  return TRUE;
}

static gboolean
is_plain_number (const Value *v)
{
  return (v->kind == VAL_INT && !_graft_value_is_bigint (v)) || v->kind == VAL_FLOAT;
}

/* F.softmax(t, dim) and F.log_softmax: t's shape, contiguous; the dim
 * checked; an input of no floating dtype is torch's kernel error.
 * @builtin: torch.softmax(t, dim, dtype) (and the method), whose dim is
 * needed and dtype the third. */
static Value *
functional_softmax (Tracer            *t,
                    const char        *name,
                    gboolean           builtin,
                    PtrVec            *args,
                    StrMap            *kwargs,
                    const GraftPyExpr *at)
{
  static const char *const keys[] = { "input", "dim", "_stacklevel", "dtype", NULL };
  static const char *const builtin_keys[] = { "input", "dim", "dtype", NULL };
  Value                   *dim_v = call_arg (args, kwargs, 1, "dim");
  Value                   *dtype_v = call_arg (args, kwargs, builtin ? 2 : 3, "dtype");
  Shape                    s;
  Layout                   l;
  gint64                   dim;
  guint                    d;

  if (args == NULL || args->len == 0 || args->len > (builtin ? 3u : 4u) ||
      !known_keywords (kwargs, builtin ? builtin_keys : keys) ||
      !_graft_tensor_shape_of (args->pdata[0], &s) || s.rank == 0 ||
      (builtin && (dim_v == NULL || dim_v->kind == VAL_NONE)))
    return NULL;
  if (dim_v == NULL || dim_v->kind == VAL_NONE)
    dim = s.rank == 1 || s.rank == 3 ? 0 : 1; /* torch's _get_softmax_dim() */
  else if (!_graft_tensor_plain_int (dim_v, &dim))
    return NULL;
  if (!_graft_tensor_check_dim (t, at, dim, s.rank, &d))
    return NULL;
  if (dtype_v != NULL && dtype_v->kind != VAL_NONE)
    {
      if ((s.dtype = _graft_tensor_dtype_arg (dtype_v)) == NULL ||
          !_graft_tensor_is_floating (s.dtype))
        return NULL;
    }
  else if (strcmp (s.dtype, "torch.float32") != 0 && strcmp (s.dtype, "torch.float64") != 0)
    {
      int bytes;

      /* Half and bfloat16 differ between the torches: not followed. */
      if (_graft_tensor_dtype_kind (s.dtype, &bytes) == 3 ||
          _graft_tensor_scalar_type_name (s.dtype) == NULL)
        return NULL;
      _graft_tensor_torch_error (t, at, "RuntimeError", "\"%s\" not implemented for '%s'",
                                 d + 1 == s.rank
                                     ? (name[0] == 'l' ? "log_softmax_lastdim_kernel_impl"
                                                       : "softmax_lastdim_kernel_impl")
                                     : "softmax_kernel_impl",
                                 _graft_tensor_scalar_type_name (s.dtype));
      return NULL;
    }
  _graft_tensor_contiguous_layout (&s, &l);
  return _graft_tensor_made_laid (t, &s, &l);
}

/* F.normalize(t, p, dim, eps): t / its norm, of t's shape and element-wise
 * layout; the dim checked; an input of no floating dtype is each torch's
 * error of the norm. */
static Value *
functional_normalize (Tracer            *t,
                      PtrVec            *args,
                      StrMap            *kwargs,
                      const GraftPyExpr *at)
{
  static const char *const keys[] = { "input", "p", "dim", "eps", NULL };
  Value                   *p = call_arg (args, kwargs, 1, "p");
  Value                   *dim_v = call_arg (args, kwargs, 2, "dim");
  Value                   *eps = call_arg (args, kwargs, 3, "eps");
  Shape                    s;
  Layout                   l, out;
  gint64                   dim = 1;
  guint                    d;

  if (args == NULL || args->len == 0 || args->len > 4 || !known_keywords (kwargs, keys) ||
      !_graft_tensor_shape_of (args->pdata[0], &s) || s.rank == 0 ||
      (p != NULL && !is_plain_number (p)) || (eps != NULL && !is_plain_number (eps)) ||
      (dim_v != NULL && !_graft_tensor_plain_int (dim_v, &dim)))
    return NULL;
  if (!_graft_tensor_wrap_dim (dim, s.rank, &d))
    {
      int bytes;

      if (_graft_tensor_dtype_kind (s.dtype, &bytes) != 3)
        return NULL; /* which error comes first is not followed */
      _graft_tensor_check_dim (t, at, dim, s.rank, &d);
      return NULL;
    }
  if (strcmp (s.dtype, "torch.float32") != 0 && strcmp (s.dtype, "torch.float64") != 0)
    {
      int bytes;

      if (_graft_tensor_dtype_kind (s.dtype, &bytes) == 3 ||
          _graft_tensor_scalar_type_name (s.dtype) == NULL)
        return NULL;
      if (t->dialect->torch == GRAFT_TORCH_1_13)
        _graft_tensor_torch_error (t, at, "RuntimeError",
                                   "norm(): input dtype should be either floating point or "
                                   "complex. Got %s instead.",
                                   _graft_tensor_scalar_type_name (s.dtype));
      else
        _graft_tensor_torch_error (t, at, "RuntimeError",
                                   "linalg.vector_norm: Expected a floating point or complex "
                                   "tensor as input. Got %s",
                                   _graft_tensor_scalar_type_name (s.dtype));
      return NULL;
    }
  _graft_tensor_layout_of (args->pdata[0], &s, &l);
  if (!_graft_tensor_method_layout (t, at, "relu", NULL, &s, &l, &s, &out))
    return NULL;
  return _graft_tensor_made_laid (t, &s, &out);
}

/* F.pad(t, pad, 'constant', value): the last dims grown by the pairs of
 * pad; its length checked as each torch does, an unknown mode torch's
 * NotImplementedError.  The other modes, pads that only narrow, and all
 * zeros (a clone) are left unknown. */
static Value *
functional_pad (Tracer            *t,
                PtrVec            *args,
                StrMap            *kwargs,
                const GraftPyExpr *at)
{
  static const char *const keys[] = { "input", "pad", "mode", "value", NULL };
  Value                   *pad = call_arg (args, kwargs, 1, "pad");
  Value                   *mode = call_arg (args, kwargs, 2, "mode");
  Value                   *value = call_arg (args, kwargs, 3, "value");
  Shape                    s;
  Layout                   l;
  gint64                   pads[2 * MAX_RANK];
  guint                    n;
  gboolean                 grows = FALSE;

  if (args == NULL || args->len == 0 || args->len > 4 || !known_keywords (kwargs, keys) ||
      !_graft_tensor_shape_of (args->pdata[0], &s) || pad == NULL ||
      (pad->kind != VAL_TUPLE && pad->kind != VAL_LIST) ||
      (mode != NULL && mode->kind != VAL_STR) ||
      (value != NULL && value->kind != VAL_NONE && !is_plain_number (value) &&
       value->kind != VAL_BOOL))
    return NULL;
  n = pad->seq.items->len;
  if (n > G_N_ELEMENTS (pads))
    return NULL;
  for (guint i = 0; i < n; i++)
    if (!_graft_tensor_plain_int (pad->seq.items->pdata[i], &pads[i]))
      return NULL;
  if (mode != NULL && strcmp (mode->str.s, "constant") != 0)
    {
      if (strcmp (mode->str.s, "reflect") != 0 && strcmp (mode->str.s, "replicate") != 0 &&
          strcmp (mode->str.s, "circular") != 0)
        _graft_tensor_torch_error (t, at, "NotImplementedError", "Unrecognised padding mode %s",
                                   mode->str.s);
      return NULL;
    }
  if (n % 2 != 0)
    {
      _graft_tensor_torch_error (t, at, "RuntimeError", "Padding length must be divisible by 2");
      return NULL;
    }
  if (n / 2 > s.rank)
    {
      if (t->dialect->torch == GRAFT_TORCH_1_13)
        _graft_tensor_torch_error (t, at, "RuntimeError", "Padding length too large");
      else
        _graft_tensor_torch_error (t, at, "RuntimeError",
                                   "Padding length should be less than or equal to two times the "
                                   "input dimension but got padding length %u and input of "
                                   "dimension %u",
                                   n, s.rank);
      return NULL;
    }
  for (guint i = 0; i < n / 2; i++)
    {
      guint d = s.rank - 1 - i;

      if (pads[2 * i] > 0 || pads[2 * i + 1] > 0)
        grows = TRUE;
      s.dims[d] += pads[2 * i] + pads[2 * i + 1];
      if (s.dims[d] < 0 || pads[2 * i] < -((gint64) 1 << 40) || pads[2 * i] > ((gint64) 1 << 40) ||
          pads[2 * i + 1] < -((gint64) 1 << 40) || pads[2 * i + 1] > ((gint64) 1 << 40))
        return NULL; /* each torch's own error text: not followed */
    }
  if (!grows || !_graft_tensor_sane (&s))
    return NULL;
  /* A new tensor in the input's suggested memory format: contiguous,
   * unless a 4-D or 5-D input is laid out otherwise (not followed). */
  if (s.rank >= 4)
    {
      Shape  in;
      Layout lin, c;

      _graft_tensor_shape_of (args->pdata[0], &in);
      _graft_tensor_layout_of (args->pdata[0], &in, &lin);
      _graft_tensor_contiguous_layout (&in, &c);
      if (!lin.known || memcmp (lin.strides, c.strides, in.rank * sizeof (gint64)) != 0)
        return _graft_tensor_made (t, &s);
    }
  _graft_tensor_contiguous_layout (&s, &l);
  return _graft_tensor_made_laid (t, &s, &l);
}

/* F.interpolate(t, size, scale_factor, mode, align_corners): the spatial
 * dims as given or floor(size * scale), contiguous for an input that is;
 * the checks of both torches' Python (one of size and scale_factor,
 * align_corners only with the interpolating modes, the rank each mode
 * needs).  An input of no float32/float64 dtype, antialias, and sizes
 * that come out below 1 are left unknown (the kernels' errors differ). */
static Value *
functional_interpolate (Tracer            *t,
                        PtrVec            *args,
                        StrMap            *kwargs,
                        const GraftPyExpr *at)
{
  static const char *const keys[] = { "input", "size", "scale_factor", "mode", "align_corners",
                                      "recompute_scale_factor", "antialias", NULL };
  static const struct
  {
    const char *mode;
    guint       rank;
  } needs[] = { { "linear", 3 }, { "bilinear", 4 }, { "bicubic", 4 }, { "trilinear", 5 } };
  Value      *size = call_arg (args, kwargs, 1, "size");
  Value      *scale = call_arg (args, kwargs, 2, "scale_factor");
  Value      *mode_v = call_arg (args, kwargs, 3, "mode");
  Value      *align = call_arg (args, kwargs, 4, "align_corners");
  Value      *antialias = call_arg (args, kwargs, 6, "antialias");
  const char *mode = "nearest";
  Shape       s;
  Layout      in_l, c;
  guint       dim, want = 0;

  if (args == NULL || args->len == 0 || args->len > 7 || !known_keywords (kwargs, keys) ||
      !_graft_tensor_shape_of (args->pdata[0], &s) ||
      (mode_v != NULL && mode_v->kind != VAL_STR) ||
      (align != NULL && align->kind != VAL_NONE && align->kind != VAL_BOOL) ||
      (antialias != NULL && !(antialias->kind == VAL_BOOL && !antialias->b)))
    return NULL;
  if (size != NULL && size->kind == VAL_NONE)
    size = NULL;
  if (scale != NULL && scale->kind == VAL_NONE)
    scale = NULL;
  if (mode_v != NULL)
    mode = mode_v->str.s;
  if ((strcmp (mode, "nearest") == 0 || strcmp (mode, "area") == 0 ||
       strcmp (mode, "nearest-exact") == 0) &&
      align != NULL && align->kind != VAL_NONE)
    {
      _graft_tensor_torch_error (t, at, "ValueError",
                                 "align_corners option can only be set with the interpolating "
                                 "modes: linear | bilinear | bicubic | trilinear");
      return NULL;
    }
  if (size != NULL && scale != NULL)
    {
      _graft_tensor_torch_error (t, at, "ValueError",
                                 "only one of size or scale_factor should be defined");
      return NULL;
    }
  if (size == NULL && scale == NULL)
    {
      _graft_tensor_torch_error (t, at, "ValueError",
                                 "either size or scale_factor should be defined");
      return NULL;
    }
  if (s.rank < 3 || s.rank > 5)
    {
      /* Sizes given as a sequence are checked against the rank first. */
      if ((size != NULL && size->kind != VAL_INT) || (scale != NULL && !is_plain_number (scale)))
        return NULL;
    }
  else
    for (guint i = 0; i < G_N_ELEMENTS (needs); i++)
      if (strcmp (mode, needs[i].mode) == 0)
        want = needs[i].rank;
  if (s.rank < 3 || s.rank > 5)
    {
      _graft_tensor_torch_error (t, at, "NotImplementedError",
                                 "Input Error: Only 3D, 4D and 5D input Tensors supported (got "
                                 "%uD) for the modes: nearest | linear | bilinear | bicubic | "
                                 "trilinear | area | nearest-exact (got %s)",
                                 s.rank, mode);
      return NULL;
    }
  dim = s.rank - 2;
  if (size != NULL)
    {
      gint64 v;

      if (size->kind == VAL_TUPLE || size->kind == VAL_LIST)
        {
          if (size->seq.items->len != dim)
            return NULL; /* torch's ValueError prints the sequence: not followed */
          for (guint i = 0; i < dim; i++)
            if (!_graft_tensor_plain_int (size->seq.items->pdata[i], &s.dims[2 + i]))
              return NULL;
        }
      else if (_graft_tensor_plain_int (size, &v) && size->kind == VAL_INT)
        for (guint i = 0; i < dim; i++)
          s.dims[2 + i] = v;
      else
        return NULL;
    }
  else
    {
      for (guint i = 0; i < dim; i++)
        {
          const Value *f = scale;
          double       x;

          if (scale->kind == VAL_TUPLE || scale->kind == VAL_LIST)
            {
              if (scale->seq.items->len != dim)
                return NULL;
              f = scale->seq.items->pdata[i];
            }
          if (!is_plain_number (f))
            return NULL;
          x = f->kind == VAL_INT ? (double) f->i : f->f;
          x = floor ((double) s.dims[2 + i] * x);
          if (!isfinite (x) || x > (double) ((gint64) 1 << 40))
            return NULL;
          s.dims[2 + i] = (gint64) x;
        }
    }
  if ((want != 0 && want != s.rank && strcmp (mode, "bicubic") == 0) ||
      (strcmp (mode, "nearest") != 0 && strcmp (mode, "area") != 0 &&
       strcmp (mode, "nearest-exact") != 0 && want == 0))
    {
      _graft_tensor_torch_error (t, at, "NotImplementedError",
                                 "Input Error: Only 3D, 4D and 5D input Tensors supported (got "
                                 "%uD) for the modes: nearest | linear | bilinear | bicubic | "
                                 "trilinear | area | nearest-exact (got %s)",
                                 s.rank, mode);
      return NULL;
    }
  if (want != 0 && want != s.rank)
    {
      _graft_tensor_torch_error (t, at, "NotImplementedError",
                                 "Got %uD input, but %s mode needs %uD input", s.rank, mode, want);
      return NULL;
    }
  for (guint i = 0; i < dim; i++)
    if (s.dims[2 + i] <= 0)
      return NULL;
  if ((strcmp (s.dtype, "torch.float32") != 0 && strcmp (s.dtype, "torch.float64") != 0) ||
      !_graft_tensor_sane (&s))
    return NULL;
  {
    Shape in;

    _graft_tensor_shape_of (args->pdata[0], &in);
    _graft_tensor_layout_of (args->pdata[0], &in, &in_l);
    _graft_tensor_contiguous_layout (&in, &c);
    if (in.rank > 3 &&
        (!in_l.known || memcmp (in_l.strides, c.strides, in.rank * sizeof (gint64)) != 0))
      return _graft_tensor_made (t, &s);
  }
  _graft_tensor_contiguous_layout (&s, &c);
  return _graft_tensor_made_laid (t, &s, &c);
}

/* An int, or a tuple or list of @n ints (one repeated), of a pooling
 * argument into @out; %FALSE if it is neither. */
static gboolean
pool_ints (const Value *v,
           guint        n,
           gint64      *out)
{
  if (v->kind == VAL_TUPLE || v->kind == VAL_LIST)
    {
      guint len = v->seq.items->len;

      if (len != 1 && len != n)
        return FALSE;
      for (guint i = 0; i < n; i++)
        if (!_graft_tensor_plain_int (v->seq.items->pdata[len == 1 ? 0 : i], &out[i]))
          return FALSE;
      return TRUE;
    }
  if (v->kind != VAL_INT || !_graft_tensor_plain_int (v, &out[0]))
    return FALSE;
  for (guint i = 1; i < n; i++)
    out[i] = out[0];
  return TRUE;
}

/* A pooling's result of @s, contiguous for an input that is (its other
 * layouts are not followed): float32 and float64 inputs only. */
static Value *
pooled (Tracer      *t,
        const Value *input,
        Shape       *s)
{
  Shape  in;
  Layout l, c;

  if ((strcmp (s->dtype, "torch.float32") != 0 && strcmp (s->dtype, "torch.float64") != 0) ||
      !_graft_tensor_sane (s) || !_graft_tensor_shape_of (input, &in))
    return NULL;
  _graft_tensor_layout_of (input, &in, &l);
  _graft_tensor_contiguous_layout (&in, &c);
  if (!l.known || memcmp (l.strides, c.strides, in.rank * sizeof (gint64)) != 0)
    return _graft_tensor_made (t, s);
  _graft_tensor_contiguous_layout (s, &c);
  return _graft_tensor_made_laid (t, s, &c);
}

/* F.max_pool1d/2d and F.avg_pool1d/2d: torch's pooling_output_shape() of
 * each spatial dim, for arguments torch accepts; anything it would refuse
 * (a pad over half the kernel, an output below 1) is left unknown. */
static Value *
functional_pool (Tracer     *t,
                 const char *name,
                 PtrVec     *args,
                 StrMap     *kwargs)
{
  static const char *const max_keys[] = { "input", "kernel_size", "stride",
                                          "padding", "dilation", "ceil_mode",
                                          "return_indices", NULL };
  static const char *const avg_keys[] = { "input", "kernel_size", "stride",
                                          "padding", "ceil_mode", "count_include_pad",
                                          "divisor_override", NULL };
  gboolean                 is_max = name[0] == 'm';
  guint                    n = name[strlen (name) - 2] - '0';
  Value                   *k_v = call_arg (args, kwargs, 1, "kernel_size");
  Value                   *s_v = call_arg (args, kwargs, 2, "stride");
  Value                   *p_v = call_arg (args, kwargs, 3, "padding");
  Value                   *d_v = is_max ? call_arg (args, kwargs, 4, "dilation") : NULL;
  Value                   *c_v = call_arg (args, kwargs, is_max ? 5 : 4, "ceil_mode");
  Value                   *ri = is_max ? call_arg (args, kwargs, 6, "return_indices") : NULL;
  gint64                   k[2], st[2], pad[2] = { 0, 0 }, dil[2] = { 1, 1 };
  gboolean                 ceil_mode = FALSE;
  Shape                    s;

  if ((n != 1 && n != 2) || args == NULL || args->len == 0 || args->len > 7 ||
      !known_keywords (kwargs, is_max ? max_keys : avg_keys) ||
      !_graft_tensor_shape_of (args->pdata[0], &s) || (s.rank != n + 1 && s.rank != n + 2) ||
      k_v == NULL || !pool_ints (k_v, n, k) || (p_v != NULL && !pool_ints (p_v, n, pad)) ||
      (d_v != NULL && !pool_ints (d_v, n, dil)) ||
      (c_v != NULL && c_v->kind != VAL_BOOL) || (ri != NULL && !(ri->kind == VAL_BOOL && !ri->b)))
    return NULL;
  if (s_v == NULL || s_v->kind == VAL_NONE ||
      ((s_v->kind == VAL_TUPLE || s_v->kind == VAL_LIST) && s_v->seq.items->len == 0))
    memcpy (st, k, sizeof st);
  else if (!pool_ints (s_v, n, st))
    return NULL;
  if (c_v != NULL)
    ceil_mode = c_v->b;
  for (guint i = 0; i < n; i++)
    {
      gint64 in = s.dims[s.rank - n + i], num, out;

      if (k[i] <= 0 || st[i] <= 0 || pad[i] < 0 || dil[i] <= 0 || k[i] > (1 << 20) ||
          st[i] > (1 << 20) || pad[i] > (1 << 20) || dil[i] > (1 << 20) ||
          pad[i] > (dil[i] * (k[i] - 1) + 1) / 2)
        return NULL;
      num = in + 2 * pad[i] - dil[i] * (k[i] - 1) - 1 + (ceil_mode ? st[i] - 1 : 0);
      out = (num >= 0 ? num / st[i] : -((-num + st[i] - 1) / st[i])) + 1;
      if (ceil_mode && (out - 1) * st[i] >= in + pad[i])
        out--;
      if (out <= 0)
        return NULL;
      s.dims[s.rank - n + i] = out;
    }
  return pooled (t, args->pdata[0], &s);
}

/* F.adaptive_avg_pool1d/2d and F.adaptive_max_pool1d/2d (without
 * indices): the output size as given, None keeping the input's. */
static Value *
functional_adaptive_pool (Tracer     *t,
                          const char *name,
                          PtrVec     *args,
                          StrMap     *kwargs)
{
  static const char *const keys[] = { "input", "output_size", "return_indices", NULL };
  guint                    n = name[strlen (name) - 2] - '0';
  Value                   *o = call_arg (args, kwargs, 1, "output_size");
  Value                   *ri = call_arg (args, kwargs, 2, "return_indices");
  Shape                    s;

  if ((n != 1 && n != 2) || args == NULL || args->len == 0 || args->len > 3 ||
      !known_keywords (kwargs, keys) || !_graft_tensor_shape_of (args->pdata[0], &s) ||
      (s.rank != n + 1 && s.rank != n + 2) || o == NULL ||
      (ri != NULL && !(ri->kind == VAL_BOOL && !ri->b)))
    return NULL;
  for (guint i = 0; i < n; i++)
    {
      const Value *e = o;
      gint64       v;

      if (o->kind == VAL_TUPLE || o->kind == VAL_LIST)
        {
          if (o->seq.items->len != n)
            return NULL;
          e = o->seq.items->pdata[i];
        }
      if (e->kind == VAL_NONE)
        continue;
      if (e->kind != VAL_INT || !_graft_tensor_plain_int (e, &v) || v <= 0)
        return NULL;
      s.dims[s.rank - n + i] = v;
    }
  for (guint i = 0; i < s.rank; i++)
    if (s.dims[i] == 0)
      return NULL;
  return pooled (t, args->pdata[0], &s);
}

/* F.linear(t, weight, bias): t's last dim replaced by the weight's
 * first, contiguous, where the sizes fit and the dtypes are one float
 * type; else left unknown. */
static Value *
functional_linear (Tracer            *t,
                   PtrVec            *args,
                   StrMap            *kwargs,
                   const GraftPyExpr *at)
{
  static const char *const keys[] = { "input", "weight", "bias", NULL };
  Value                   *w_v = call_arg (args, kwargs, 1, "weight");
  Value                   *b_v = call_arg (args, kwargs, 2, "bias");
  Shape                    s, w, b;
  Layout                   c;

  if (args == NULL || args->len == 0 || args->len > 3 || !known_keywords (kwargs, keys) ||
      w_v == NULL || !_graft_tensor_shape_of (args->pdata[0], &s) ||
      !_graft_tensor_shape_of (w_v, &w) || s.rank == 0 || w.rank != 2 ||
      strcmp (s.dtype, w.dtype) != 0 ||
      (strcmp (s.dtype, "torch.float32") != 0 && strcmp (s.dtype, "torch.float64") != 0))
    return NULL;
  if (s.dims[s.rank - 1] != w.dims[1])
    {
      /* A matrix input is an addmm/mm of the weight's transpose. */
      if (s.rank == 2)
        _graft_tensor_torch_error (t, at, "RuntimeError",
                                   "mat1 and mat2 shapes cannot be multiplied (%" G_GINT64_FORMAT
                                   "x%" G_GINT64_FORMAT " and %" G_GINT64_FORMAT
                                   "x%" G_GINT64_FORMAT ")",
                                   s.dims[0], s.dims[1], w.dims[1], w.dims[0]);
      return NULL;
    }
  if (b_v != NULL && b_v->kind != VAL_NONE &&
      (!_graft_tensor_shape_of (b_v, &b) || b.rank != 1 || b.dims[0] != w.dims[0] ||
       strcmp (b.dtype, s.dtype) != 0))
    return NULL;
  s.dims[s.rank - 1] = w.dims[0];
  _graft_tensor_contiguous_layout (&s, &c);
  return _graft_tensor_made_laid (t, &s, &c);
}

/* torch.nn.functional's functions of constant tensors followed here, or
 * NULL (with torch's error raised where it raises one). */
static Value *
functional_tensor (Tracer            *t,
                   const char        *name,
                   PtrVec            *args,
                   StrMap            *kwargs,
                   const GraftPyExpr *at)
{
  if (strcmp (name, "softmax") == 0 || strcmp (name, "log_softmax") == 0)
    return functional_softmax (t, name, FALSE, args, kwargs, at);
  if (strcmp (name, "normalize") == 0)
    return functional_normalize (t, args, kwargs, at);
  if (strcmp (name, "pad") == 0)
    return functional_pad (t, args, kwargs, at);
  if (strcmp (name, "interpolate") == 0 || strcmp (name, "upsample") == 0)
    return functional_interpolate (t, args, kwargs, at);
  if (strcmp (name, "max_pool1d") == 0 || strcmp (name, "max_pool2d") == 0 ||
      strcmp (name, "avg_pool1d") == 0 || strcmp (name, "avg_pool2d") == 0)
    return functional_pool (t, name, args, kwargs);
  if (strcmp (name, "adaptive_avg_pool1d") == 0 || strcmp (name, "adaptive_avg_pool2d") == 0 ||
      strcmp (name, "adaptive_max_pool1d") == 0 || strcmp (name, "adaptive_max_pool2d") == 0)
    return functional_adaptive_pool (t, name, args, kwargs);
  if (strcmp (name, "linear") == 0)
    return functional_linear (t, args, kwargs, at);
  return NULL;
}

/* An element-wise F.@name of an integer or bool tensor @s (called with
 * the input alone): %TRUE where torch computes it in @s's dtype (relu6
 * and hardtanh of signed ints); else %FALSE, with the kernel's error of
 * both torches raised where Graft knows it. */
static gboolean
functional_integer_input (Tracer            *t,
                          const char        *name,
                          PtrVec            *args,
                          StrMap            *kwargs,
                          const Shape       *s,
                          const GraftPyExpr *at)
{
  static const char *const kernels[][2] = {
    { "silu", "silu_cpu" },
    { "gelu", "GeluKernelImpl" },
    { "leaky_relu", "leaky_relu_cpu" },
    { "elu", "elu_cpu" },
    { "selu", "elu_cpu" },
    { "celu", "elu_cpu" },
    { "hardswish", "hardswish_cpu" },
    { "softplus", "softplus_cpu" },
    { "mish", "mish_cpu" },
    { "hardsigmoid", "hardsigmoid_cpu" },
  };
  const char *type = _graft_tensor_scalar_type_name (s->dtype);
  int         bytes;

  if (type == NULL || _graft_tensor_dtype_kind (s->dtype, &bytes) == 3 || args->len != 1 ||
      (kwargs != NULL && kwargs->keys->len > 0))
    return FALSE;
  if (strcmp (name, "relu6") == 0 || strcmp (name, "hardtanh") == 0)
    {
      if (strcmp (s->dtype, "torch.bool") == 0)
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "Bool inputs not supported for hardtanh");
      if (strcmp (s->dtype, "torch.uint8") == 0 && name[0] == 'h')
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "cannot do hardtanh on an unsigned type with negative "
                                          "limits");
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (kernels); i++)
    if (strcmp (name, kernels[i][0]) == 0)
      return _graft_tensor_torch_error (t, at, "RuntimeError", "\"%s\" not implemented for '%s'",
                                        kernels[i][1], type);
  return FALSE;
}

/**
 * _graft_tracer_function_tensor:
 * @path: a torch function called with no traced value
 * @at: (nullable): where torch's error is raised; %NULL for none
 *
 * Returns: (nullable): the constant tensor @path makes, with its shape and
 * dtype, if this file follows @path and knows them; else %NULL, with
 * torch's error raised if the arguments' sizes do not fit
 */
Value *
_graft_tracer_function_tensor (Tracer            *t,
                               const char        *path,
                               PtrVec            *args,
                               StrMap            *kwargs,
                               const GraftPyExpr *at)
{
  Shape       s, other;
  Layout      l;
  int         op;
  const char *name;

  /* torch.add(a, b) and such: `a + b`; torch.mm(a, b) of matrices: `a @ b`. */
  if (g_str_has_prefix (path, "torch.") && args != NULL && args->len == 2 &&
      _graft_tensor_no_kwargs (kwargs) && _graft_tensor_shape_of (args->pdata[0], &s) &&
      (_graft_tensor_binary_method (path + strlen ("torch."), &op) ||
       (strcmp (path, "torch.mm") == 0 && _graft_tensor_shape_of (args->pdata[1], &other) &&
        (op = GRAFT_PY_BIN_MATMUL, TRUE))))
    {
      if (strcmp (path, "torch.mm") == 0 && (s.rank != 2 || other.rank != 2))
        {
          _graft_tensor_torch_error (t, at, "RuntimeError", "%s must be a matrix",
                                     s.rank != 2 ? "self" : "mat2");
          return NULL;
        }
      return _graft_tracer_binop_tensor (t, op, args->pdata[0], args->pdata[1], at);
    }
  /* torch.chunk(t, chunks, dim): t.chunk(chunks, dim). */
  if (strcmp (path, "torch.chunk") == 0 && args != NULL && args->len >= 1 &&
      _graft_tensor_shape_of (args->pdata[0], &s))
    {
      PtrVec rest = *args;

      rest.pdata++;
      rest.len--;
      _graft_tensor_layout_of (args->pdata[0], &s, &l);
      return _graft_tensor_chunk (t, &s, &l, &rest, kwargs, at);
    }
  /* torch.where(cond, a, b), a or b a tensor: the element-wise op of
   * the three, of a's and b's promoted dtype. */
  if (strcmp (path, "torch.where") == 0 && args != NULL && args->len == 3 &&
      _graft_tensor_no_kwargs (kwargs) && _graft_tensor_shape_of (args->pdata[0], &other) &&
      (_graft_tensor_shape_of (args->pdata[1], &s) || _graft_tensor_shape_of (args->pdata[2], &s)))
    {
      Shape out;

      if (strcmp (other.dtype, "torch.bool") != 0 &&
          _graft_tensor_scalar_type_name (other.dtype) == NULL)
        return _graft_value_tensor (t);
      if (strcmp (other.dtype, "torch.bool") != 0)
        {
          _graft_tensor_torch_error (t, at, "RuntimeError",
                                     "where expected condition to be a boolean tensor, but got a "
                                     "tensor with dtype %s",
                                     _graft_tensor_scalar_type_name (other.dtype));
          return NULL;
        }
      if (!_graft_tensor_binary_shape (t, at, args->pdata[1], args->pdata[2], &s) ||
          !_graft_tensor_broadcast (t, at, &other, &s, &out))
        return t->error != NULL ? NULL : _graft_value_tensor (t);
      out.dtype = s.dtype;
      return _graft_tensor_made_laid (
          t, &out,
          _graft_tensor_values_layout ((const Value *const *) args->pdata, 3, &out, &l));
    }
  /* F.relu(t), F.gelu(t), F.dropout(t, 0.5, False)...: element-wise, of t's
   * shape, dtype and layout. */
  if (g_str_has_prefix (path, "torch.nn.functional.") && args != NULL && args->len >= 1 &&
      functional_elementwise (path + strlen ("torch.nn.functional."), args, kwargs) &&
      _graft_tensor_shape_of (args->pdata[0], &s))
    {
      Layout out;

      if (!_graft_tensor_is_floating (s.dtype) &&
          strcmp (path, "torch.nn.functional.relu") != 0 &&
          !functional_integer_input (t, path + strlen ("torch.nn.functional."), args, kwargs, &s,
                                     at))
        return NULL;
      _graft_tensor_layout_of (args->pdata[0], &s, &l);
      if (!_graft_tensor_method_layout (t, at, "relu", NULL, &s, &l, &s, &out))
        return NULL;
      return _graft_tensor_made_laid (t, &s, &out);
    }
  /* torch.softmax(t, dim), t.softmax(dim) (graft-tracer-shapes.c). */
  if (strcmp (path, "torch.softmax") == 0 || strcmp (path, "torch.log_softmax") == 0)
    {
      Value *made = functional_softmax (t, path + strlen ("torch."), TRUE, args, kwargs, at);

      if (made != NULL || t->error != NULL)
        return made;
    }
  /* F.softmax, F.normalize, F.pad, F.interpolate. */
  if (g_str_has_prefix (path, "torch.nn.functional.") || g_str_has_prefix (path, "torch._C._nn."))
    {
      Value *made = functional_tensor (t, strrchr (path, '.') + 1, args, kwargs, at);

      if (made != NULL || t->error != NULL)
        return made;
    }
  /* torch.flip(t, dims), torch.split(t, 2)...: the method of t. */
  name = g_str_has_prefix (path, "torch.functional.") ? path + strlen ("torch.functional.")
         : g_str_has_prefix (path, "torch.")          ? path + strlen ("torch.")
                                                      : path;
  if (name != path && strchr (name, '.') == NULL && _graft_tensor_is_view_op (name) &&
      strcmp (name, "expand_as") != 0 && strcmp (name, "__invert__") != 0 && args != NULL &&
      args->len >= 1 &&
      _graft_tensor_shape_of (args->pdata[0], &s))
    {
      PtrVec rest = *args;

      rest.pdata++;
      rest.len--;
      _graft_tensor_layout_of (args->pdata[0], &s, &l);
      return _graft_tensor_view_op (t, name, args->pdata[0], &s, &l, &rest, kwargs, at);
    }
  if (!function_shape (t, at, path, args, kwargs, &s))
    return NULL;
  if (!_graft_tensor_function_layout (t, at, path, args, &s, &l))
    return NULL;
  return _graft_tensor_made_laid (t, &s, &l);
}
