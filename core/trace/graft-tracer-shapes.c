/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-shapes.c: what the ops on constant tensors make, where
 * Graft knows their inputs.
 *
 * Outside the trace's proxies torch computes on real tensors: a mask
 * built in __init__ (`torch.tril(torch.ones(T, T)).view(1, 1, T, T)`), a
 * positional table (`torch.arange(n).unsqueeze(0)`), rotary frequencies
 * (`torch.outer(t, inv_freq)`, `torch.cat((f, f), dim=-1).cos()`).  Their
 * `.shape`, `.dtype`, `.device`, `size()`, `dim()` and `numel()` are then
 * constants of the graph.  A factory's tensor knows them
 * (_graft_tracer_factory_tensor()); this file carries them through the
 * ops real model code applies to such tensors: views and reshapes,
 * transposes, unsqueeze and squeeze, expand and repeat, reductions,
 * element-wise arithmetic with torch's broadcasting, and matmul.  It owns
 * what the other files on constant tensors share
 * (graft-tracer-shapes-private.h: a tensor's Shape, made(), torch's
 * errors); their strides are graft-tracer-layouts.c's, dtype promotion and
 * the in-place checks graft-tracer-dtypes.c's, indexing
 * graft-tracer-indexing.c's, the torch functions (torch.arange,
 * torch.cat...) graft-tracer-tensor-functions.c's.  Anything else, and any
 * case whose rule is not sure here (a size that does not fit, mixed dtypes
 * torch promotes in ways not listed), gives a tensor of unknown make, as
 * before: reading its shape is then refused, never guessed.
 */
#include "config.h"

#include "graft-limits.h"
#include "graft-tracer-shapes-private.h"

#include <stdarg.h>
#include <string.h>

const TensorMeta *
_graft_tensor_meta_of (const Value *v)
{
  return (v->kind == VAL_TENSOR || v->kind == VAL_PARAMETER) ? v->tensor.meta : NULL;
}

/* @v's shape and dtype, if a factory or this file knows them on the CPU. */
gboolean
_graft_tensor_shape_of (const Value *v,
                        Shape       *out)
{
  const TensorMeta *m = _graft_tensor_meta_of (v);

  if (m == NULL || m->shape->seq.items->len > MAX_RANK || m->dtype->kind != VAL_SYMBOL ||
      m->device->kind != VAL_DEVICE || strcmp (m->device->path, "cpu") != 0)
    return FALSE;
  out->rank = m->shape->seq.items->len;
  for (guint i = 0; i < out->rank; i++)
    out->dims[i] = ((Value *) m->shape->seq.items->pdata[i])->i;
  out->dtype = m->dtype->path;
  return TRUE;
}

/* A new constant tensor of @s on the CPU. */
Value *
_graft_tensor_made (Tracer      *t,
                    const Shape *s)
{
  Value      *v = _graft_value_tensor (t);
  Value      *shape = _graft_value_seq (t, VAL_TUPLE, s->rank);
  TensorMeta *meta = _graft_tracer_alloc (t, sizeof (TensorMeta));

  shape->seq.size = TRUE;
  for (guint i = 0; i < s->rank; i++)
    _graft_value_seq_add (shape, _graft_value_int (t, s->dims[i]));
  meta->shape = shape;
  meta->dtype = _graft_value_path (t, VAL_SYMBOL, s->dtype);
  meta->device = _graft_value_path (t, VAL_DEVICE, "cpu");
  v->tensor.meta = meta;
  return v;
}

gboolean
_graft_tensor_plain_int (const Value *v,
                         gint64      *out)
{
  if (v->kind != VAL_INT || _graft_value_is_bigint (v))
    return FALSE;
  *out = v->i;
  return TRUE;
}

/* Sizes given as ints from @args[@from] on, or as one tuple or list of
 * ints (a torch.Size too). */
gboolean
_graft_tensor_int_list (PtrVec *args,
                        guint   from,
                        Shape  *out)
{
  guint  n = args != NULL ? args->len : 0;
  Value *first = n > from ? args->pdata[from] : NULL;

  out->rank = 0;
  if (first != NULL && n == from + 1 && (first->kind == VAL_TUPLE || first->kind == VAL_LIST))
    {
      if (first->seq.items->len > MAX_RANK || (first->kind == VAL_LIST && first->seq.range != NULL))
        return FALSE;
      for (guint i = 0; i < first->seq.items->len; i++)
        if (!_graft_tensor_plain_int (first->seq.items->pdata[i], &out->dims[out->rank++]))
          return FALSE;
      return TRUE;
    }
  if (n - MIN (n, from) > MAX_RANK)
    return FALSE;
  for (guint i = from; i < n; i++)
    if (!_graft_tensor_plain_int (args->pdata[i], &out->dims[out->rank++]))
      return FALSE;
  return TRUE;
}

gboolean
_graft_tensor_no_kwargs (StrMap *kwargs)
{
  return kwargs == NULL || kwargs->keys->len == 0;
}

/* A dimension @d of a tensor of @rank dimensions, wrapped as torch wraps
 * it; FALSE out of range. */
gboolean
_graft_tensor_wrap_dim (gint64 d,
                        guint  rank,
                        guint *out)
{
  gint64 r = MAX (rank, 1);

  if (d < -r || d >= r)
    return FALSE;
  *out = (guint) (d < 0 ? d + r : d);
  return TRUE;
}

/* @a * @b, or -1 past int64 (sizes are never negative here). */
gint64
_graft_tensor_mul_size (gint64 a,
                        gint64 b)
{
  gint64 out;

  return __builtin_mul_overflow (a, b, &out) ? -1 : out;
}

/* The elements of @s, or -1 past int64. */
gint64
_graft_tensor_numel (const Shape *s)
{
  gint64 n = 1;

  for (guint i = 0; i < s->rank && n >= 0; i++)
    n = _graft_tensor_mul_size (n, s->dims[i]);
  return n;
}

/* Whether every size is small enough that products stay far from int64's
 * end (a table of a million by a million is 10^12). */
gboolean
_graft_tensor_sane (const Shape *s)
{
  for (guint i = 0; i < s->rank; i++)
    if (s->dims[i] < 0 || s->dims[i] > ((gint64) 1 << 31))
      return FALSE;
  return TRUE;
}

/* Raises torch's @exception (a RuntimeError, an IndexError) with its text
 * at @at, as torch raises it while the op runs on the real tensor; FALSE.
 * With no @at (an op Graft runs for itself, never wrong) nothing is
 * raised and the shape is only unknown. */
gboolean
_graft_tensor_torch_error (Tracer            *t,
                           const GraftPyExpr *at,
                           const char        *exception,
                           const char        *format,
                           ...)
{
  va_list          ap;
  g_autofree char *message = NULL;

  if (t == NULL || at == NULL)
    return FALSE;
  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  _graft_tracer_raise (t, exception, at->start, at->end, "%s: %s", exception, message);
  /* What str() of the exception gives, in a handler. */
  t->raised_args = _graft_value_seq (t, VAL_TUPLE, 1);
  _graft_value_seq_add (t->raised_args, _graft_value_str (t, message, -1));
  return FALSE;
}

/* Refuses an op whose arguments torch rejects with a text Graft does not
 * model: never accepted as if it ran. */
static gboolean
not_modelled (Tracer            *t,
              const GraftPyExpr *at,
              const char        *op)
{
  if (t != NULL && at != NULL)
    _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                        "%s of these constant tensors is not modelled: their sizes do not fit, "
                        "and torch raises an error whose text Graft does not know",
                        op);
  return FALSE;
}

/* The mask of squeeze()'s tuple or list of dims (torch 2.6), raising
 * torch's errors of a dim out of range or given twice.  %FALSE when @v
 * is no such sequence of ints, or with the error raised. */
gboolean
_graft_tensor_squeeze_dims (Tracer            *t,
                            const GraftPyExpr *at,
                            const Value       *v,
                            const Shape       *s,
                            guint             *mask)
{
  gint64 a;
  guint  d = 0;

  *mask = 0;
  if ((v->kind != VAL_TUPLE && v->kind != VAL_LIST) ||
      (v->kind == VAL_LIST && v->seq.range != NULL))
    return FALSE;
  for (guint i = 0; i < v->seq.items->len; i++)
    if (!_graft_tensor_plain_int (v->seq.items->pdata[i], &a))
      return FALSE;
  for (guint i = 0; i < v->seq.items->len; i++)
    {
      _graft_tensor_plain_int (v->seq.items->pdata[i], &a);
      if (!_graft_tensor_check_dim (t, at, a, s->rank, &d))
        return FALSE;
      if ((*mask & (1u << d)) != 0)
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "dim %u appears multiple times in the list of dims", d);
      *mask |= 1u << d;
    }
  return TRUE;
}

/* _graft_tensor_wrap_dim(), raising torch's IndexError out of range. */
gboolean
_graft_tensor_check_dim (Tracer            *t,
                         const GraftPyExpr *at,
                         gint64             d,
                         guint              rank,
                         guint             *out)
{
  gint64 r = MAX (rank, 1);

  if (_graft_tensor_wrap_dim (d, rank, out))
    return TRUE;
  return _graft_tensor_torch_error (t, at, "IndexError",
                                    "Dimension out of range (expected to be in range of "
                                    "[%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                                    "], but got %" G_GINT64_FORMAT ")",
                                    -r, r - 1, d);
}

/* `[3, -1]`, as torch prints sizes. */
char *
_graft_tensor_dims_str (const gint64 *dims,
                        guint         rank)
{
  GString *str = g_string_new ("[");

  for (guint i = 0; i < rank; i++)
    g_string_append_printf (str, "%s%" G_GINT64_FORMAT, i > 0 ? ", " : "", dims[i]);
  g_string_append_c (str, ']');
  return g_string_free (str, FALSE);
}

/* view() and reshape(): one -1 takes what is left; torch's errors where
 * the sizes do not fit @in's elements. */
static gboolean
reshape (Tracer            *t,
         const GraftPyExpr *at,
         const Shape       *in,
         Shape             *sizes)
{
  gint64           known = 1;
  gint             infer = -1;
  gint64           total = _graft_tensor_numel (in);
  g_autofree char *text = NULL;

  if (total < 0)
    return FALSE;
  for (guint i = 0; i < sizes->rank; i++)
    if (sizes->dims[i] == -1)
      {
        if (infer >= 0)
          return _graft_tensor_torch_error (t, at, "RuntimeError",
                                            "only one dimension can be inferred");
        infer = (gint) i;
      }
    else if (sizes->dims[i] < 0)
      return _graft_tensor_torch_error (t, at, "RuntimeError",
                                        "invalid shape dimension %" G_GINT64_FORMAT,
                                        sizes->dims[i]);
    else if (known >= 0)
      known = _graft_tensor_mul_size (known, sizes->dims[i]);
  sizes->dtype = in->dtype;
  /* Sizes past int64: torch's product wraps, never equal to a size. */
  if (known < 0 && infer >= 0)
    return FALSE;
  if (known == total || (infer >= 0 && known > 0 && total % known == 0))
    {
      if (infer < 0)
        return TRUE;
      if (known == 0)
        {
          text = _graft_tensor_dims_str (sizes->dims, sizes->rank);
          return _graft_tensor_torch_error (t, at, "RuntimeError",
                                            "cannot reshape tensor of 0 elements into shape %s "
                                            "because the "
                                            "unspecified dimension size -1 can be any value and is "
                                            "ambiguous",
                                            text);
        }
      sizes->dims[infer] = total / known;
      return TRUE;
    }
  text = _graft_tensor_dims_str (sizes->dims, sizes->rank);
  return _graft_tensor_torch_error (t, at, "RuntimeError",
                                    "shape '%s' is invalid for input of size %" G_GINT64_FORMAT,
                                    text, total);
}

/* Broadcasting @a and @b into @out (shapes only), with torch's
 * RuntimeError where they do not (the rightmost such dimension, as torch
 * names it). */
gboolean
_graft_tensor_broadcast (Tracer            *t,
                         const GraftPyExpr *at,
                         const Shape       *a,
                         const Shape       *b,
                         Shape             *out)
{
  out->rank = MAX (a->rank, b->rank);
  for (guint i = 0; i < out->rank; i++)
    {
      gint64 x = i < a->rank ? a->dims[a->rank - 1 - i] : 1;
      gint64 y = i < b->rank ? b->dims[b->rank - 1 - i] : 1;

      if (x != y && x != 1 && y != 1)
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "The size of tensor a (%" G_GINT64_FORMAT
                                          ") must match the size of tensor b (%" G_GINT64_FORMAT
                                          ") at non-singleton dimension %u",
                                          x, y, out->rank - 1 - i);
      out->dims[out->rank - 1 - i] = x == 1 ? y : x;
    }
  return TRUE;
}

/* @a's and @b's dtype after promotion, and the shape they broadcast to;
 * one of them may be a Python number.  Two tensors whose sizes do not
 * broadcast are torch's RuntimeError, whatever their dtypes. */
gboolean
_graft_tensor_binary_shape (Tracer            *t,
                            const GraftPyExpr *at,
                            const Value       *a,
                            const Value       *b,
                            Shape             *out)
{
  Shape sa, sb;

  if (_graft_tensor_shape_of (a, &sa) && _graft_tensor_shape_of (b, &sb))
    return _graft_tensor_broadcast (t, at, &sa, &sb, out) &&
           (out->dtype = _graft_tensor_promote (&sa, &sb)) != NULL;
  if (_graft_tensor_shape_of (a, &sa) && _graft_tensor_meta_of (b) == NULL &&
      b->kind != VAL_TENSOR && b->kind != VAL_PARAMETER)
    {
      *out = sa;
      return (out->dtype = _graft_tensor_promote_number (sa.dtype, b)) != NULL;
    }
  if (_graft_tensor_shape_of (b, &sb) && a->kind != VAL_TENSOR && a->kind != VAL_PARAMETER)
    {
      *out = sb;
      return (out->dtype = _graft_tensor_promote_number (sb.dtype, a)) != NULL;
    }
  return FALSE;
}

/* The product of @s's sizes from @from to before @to. */
static gint64
prod_dims (const Shape *s,
           guint        from,
           guint        to)
{
  gint64 n = 1;

  for (guint i = from; i < to && n >= 0; i++)
    n = _graft_tensor_mul_size (n, s->dims[i]);
  return n;
}

/* `a @ b` of constant tensors: torch.matmul's shape (where the dtypes are
 * one), or its error.  torch folds a batch of matrices times a matrix or
 * a vector into one mm() or mv(), so their texts name the folded sizes;
 * torch 1.13 folds a matrix or a vector times a batch too (transposed),
 * where 2.6 runs bmm(); batches against batches are bmm() in both. */
static gboolean
matmul_shape (Tracer            *t,
              const GraftPyExpr *at,
              const Value       *a,
              const Value       *b,
              Shape             *s)
{
  Shape    sa, sb, ba, bb;
  gint64   k_a, k_b, rows, batch;
  gboolean one_dtype, old;

  if (!_graft_tensor_shape_of (a, &sa) || !_graft_tensor_shape_of (b, &sb))
    return FALSE;
  if (sa.rank == 0 || sb.rank == 0)
    return _graft_tensor_torch_error (t, at, "RuntimeError",
                                      "both arguments to matmul need to be at least 1D, but they "
                                      "are %uD and "
                                      "%uD",
                                      sa.rank, sb.rank);
  one_dtype = strcmp (sa.dtype, sb.dtype) == 0;
  old = t != NULL && t->dialect->torch == GRAFT_TORCH_1_13;
  k_a = sa.dims[sa.rank - 1];
  k_b = sb.dims[sb.rank == 1 ? 0 : sb.rank - 2];
  if (sb.rank <= 2 || (old && sa.rank <= 2))
    {
      /* One mm(), mv() or dot(): @rows by @k_a times @k_b (by @cols). */
      gboolean swap = sb.rank > 2;
      gint64   cols = sb.rank >= 2 ? sb.dims[sb.rank - 1] : 1;

      rows = prod_dims (&sa, 0, sa.rank - 1);
      if (swap)
        {
          rows = _graft_tensor_mul_size (prod_dims (&sb, 0, sb.rank - 2), cols);
          cols = sa.rank == 2 ? sa.dims[0] : 1;
          k_a = sb.dims[sb.rank - 2];
          k_b = sa.dims[sa.rank - 1];
        }
      if (rows < 0)
        return FALSE;
      if (sa.rank == 1 && sb.rank == 1)
        {
          if (one_dtype && k_a != k_b)
            return _graft_tensor_torch_error (t, at, "RuntimeError",
                                              "inconsistent tensor size, expected tensor "
                                              "[%" G_GINT64_FORMAT "] and src [%" G_GINT64_FORMAT
                                              "] to have the same number of elements, but got "
                                              "%" G_GINT64_FORMAT " and %" G_GINT64_FORMAT
                                              " elements respectively",
                                              k_a, k_b, k_a, k_b);
        }
      else if (swap ? sa.rank == 1 : sb.rank == 1)
        {
          if (k_a != k_b && !one_dtype)
            return not_modelled (t, at, "torch.matmul");
          if (k_a != k_b && old)
            return _graft_tensor_torch_error (t, at, "RuntimeError",
                                              "size mismatch, got %" G_GINT64_FORMAT
                                              ", %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                                              ",%" G_GINT64_FORMAT,
                                              rows, rows, k_a, k_b);
          if (k_a != k_b)
            return _graft_tensor_torch_error (t, at, "RuntimeError",
                                              "size mismatch, got input (%" G_GINT64_FORMAT
                                              "), mat (%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                                              "), vec (%" G_GINT64_FORMAT ")",
                                              rows, rows, k_a, k_b);
        }
      else if (k_a != k_b)
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "mat1 and mat2 shapes cannot be multiplied "
                                          "(%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                                          " and %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT ")",
                                          rows, k_a, k_b, cols);
      if (k_a != k_b)
        return not_modelled (t, at, "torch.matmul");
    }
  else
    {
      /* bmm() of the broadcast batches. */
      ba = sa;
      ba.rank = sa.rank >= 2 ? sa.rank - 2 : 0;
      bb = sb;
      bb.rank = sb.rank - 2;
      if (!one_dtype && (k_a != k_b || !_graft_tensor_broadcast (NULL, NULL, &ba, &bb, s)))
        return not_modelled (t, at, "torch.matmul");
      if (!_graft_tensor_broadcast (t, at, &ba, &bb, s) || (batch = prod_dims (s, 0, s->rank)) < 0)
        return FALSE;
      if (k_a != k_b)
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "Expected size for first two dimensions of batch2 tensor "
                                          "to be: "
                                          "[%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                                          "] but got: [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                                          "].",
                                          batch, k_a, batch, k_b);
    }
  if (!one_dtype)
    return FALSE;
  /* The batch dimensions, before the matrices' last two (one of a vector). */
  ba = sa;
  ba.rank = sa.rank >= 2 ? sa.rank - 2 : 0;
  bb = sb;
  bb.rank = sb.rank >= 2 ? sb.rank - 2 : 0;
  if (!_graft_tensor_broadcast (NULL, NULL, &ba, &bb, s) || s->rank + 2 > MAX_RANK)
    return FALSE;
  if (sa.rank >= 2)
    s->dims[s->rank++] = sa.dims[sa.rank - 2];
  if (sb.rank >= 2)
    s->dims[s->rank++] = sb.dims[sb.rank - 1];
  s->dtype = sa.dtype;
  return _graft_tensor_sane (s);
}

/* Whether torch checks the sizes of `a op b` of two tensors before
 * anything else: the element-wise operators (not `-` of two bool
 * tensors, refused first). */
gboolean
_graft_tensor_broadcasts_first (int          op,
                                const Value *a,
                                const Value *b)
{
  Shape sa, sb;

  if (op == GRAFT_PY_BIN_SUB && _graft_tensor_shape_of (a, &sa) &&
      _graft_tensor_shape_of (b, &sb) &&
      (strcmp (sa.dtype, "torch.bool") == 0 || strcmp (sb.dtype, "torch.bool") == 0))
    return FALSE;
  return op < 0 || op == GRAFT_PY_BIN_ADD || op == GRAFT_PY_BIN_SUB || op == GRAFT_PY_BIN_MUL ||
         op == GRAFT_PY_BIN_POW || op == GRAFT_PY_BIN_TRUEDIV || op == GRAFT_PY_BIN_FLOORDIV ||
         op == GRAFT_PY_BIN_MOD || op == GRAFT_PY_BIN_BITAND || op == GRAFT_PY_BIN_BITOR ||
         op == GRAFT_PY_BIN_BITXOR;
}

/* Whether @a or @b of `a - b` is a bool tensor (or a Python bool, which
 * torch wraps in one beside a tensor): torch's sub_check() raises its
 * RuntimeError at @at before it looks at sizes or dtypes. */
gboolean
_graft_tensor_sub_of_bool (Tracer            *t,
                           const GraftPyExpr *at,
                           const Value       *a,
                           const Value       *b)
{
  Shape    sa, sb;
  gboolean known_a = _graft_tensor_shape_of (a, &sa), known_b = _graft_tensor_shape_of (b, &sb);
  gboolean bool_a, bool_b;

  if (!known_a && !known_b)
    return FALSE;
  if ((!known_a && _graft_tensor_meta_of (a) != NULL) ||
      (!known_b && _graft_tensor_meta_of (b) != NULL))
    return FALSE;
  bool_a = known_a ? strcmp (sa.dtype, "torch.bool") == 0 : a->kind == VAL_BOOL;
  bool_b = known_b ? strcmp (sb.dtype, "torch.bool") == 0 : b->kind == VAL_BOOL;
  if (!bool_a && !bool_b)
    return FALSE;
  if (bool_a && bool_b)
    _graft_tensor_torch_error (t, at, "RuntimeError",
                               "Subtraction, the `-` operator, with two bool tensors is not "
                               "supported. Use "
                               "the `^` or `logical_xor()` operator instead.");
  else
    _graft_tensor_torch_error (t, at, "RuntimeError",
                               "Subtraction, the `-` operator, with a bool tensor is not "
                               "supported. If you "
                               "are trying to invert a mask, use the `~` or `logical_not()` "
                               "operator "
                               "instead.");
  return TRUE;
}

/* `a ** b` (and pow(), pow_()) of an integer or bool tensor @a and a
 * negative Python int @b: torch's RuntimeError, FALSE then. */
gboolean
_graft_tensor_int_pow_check (Tracer            *t,
                             const GraftPyExpr *at,
                             const Value       *a,
                             const Value       *b)
{
  Shape sa;
  int   bytes;

  if (b->kind != VAL_INT || _graft_value_is_bigint (b) || b->i >= 0 ||
      !_graft_tensor_shape_of (a, &sa) || _graft_tensor_is_floating (sa.dtype) ||
      _graft_tensor_dtype_kind (sa.dtype, &bytes) == 0)
    return TRUE;
  return _graft_tensor_torch_error (t, at, "RuntimeError",
                                    "Integers to negative integer powers are not allowed.");
}

/**
 * _graft_tracer_binop_tensor:
 * @op: the operator, a GraftPyBinOp, or -1 for a comparison
 * @at: (nullable): where torch's error is raised; %NULL for none
 *
 * `a op b` of constant tensors (or one and a Python number): a constant
 * tensor, of the shape and dtype torch gives it where Graft knows them.
 * Sizes that do not fit are torch's RuntimeError, raised at @at.
 *
 * Returns: (nullable): the tensor, or %NULL with the error raised
 */
Value *
_graft_tracer_binop_tensor (Tracer            *t,
                            int                op,
                            const Value       *a,
                            const Value       *b,
                            const GraftPyExpr *at)
{
  Shape  s;
  Layout l;

  if (op == GRAFT_PY_BIN_MATMUL)
    {
      if (!matmul_shape (t, at, a, b, &s))
        return t->error != NULL ? NULL : _graft_value_tensor (t);
      /* Contiguous, whatever the inputs' strides, folded or batched (both
       * torches: vectors, matrices and batches each way, transposed
       * inputs, broadcast batches). */
      _graft_tensor_contiguous_layout (&s, &l);
      return _graft_tensor_made_laid (t, &s, &l);
    }
  if (op == GRAFT_PY_BIN_SUB && _graft_tensor_sub_of_bool (t, at, a, b))
    return t->error != NULL ? NULL : _graft_value_tensor (t);
  if (op == GRAFT_PY_BIN_POW && !_graft_tensor_int_pow_check (t, at, a, b))
    return t->error != NULL ? NULL : _graft_value_tensor (t);
  if (!_graft_tensor_binary_shape (t, _graft_tensor_broadcasts_first (op, a, b) ? at : NULL, a, b,
                                   &s))
    return t->error != NULL ? NULL : _graft_value_tensor (t);
  if (op < 0)
    s.dtype = "torch.bool";
  else if (op == GRAFT_PY_BIN_TRUEDIV && !_graft_tensor_is_floating (s.dtype))
    s.dtype = "torch.float32";
  else if ((op == GRAFT_PY_BIN_BITAND || op == GRAFT_PY_BIN_BITOR || op == GRAFT_PY_BIN_BITXOR) &&
           _graft_tensor_is_floating (s.dtype))
    {
      _graft_tensor_torch_error (t, at, "RuntimeError", "\"%s_cpu\" not implemented for '%s'",
                                 op == GRAFT_PY_BIN_BITAND  ? "bitwise_and"
                                 : op == GRAFT_PY_BIN_BITOR ? "bitwise_or"
                                                            : "bitwise_xor",
                                 _graft_tensor_scalar_type_name (s.dtype));
      return t->error != NULL ? NULL : _graft_value_tensor (t);
    }
  else if (op != GRAFT_PY_BIN_ADD && op != GRAFT_PY_BIN_SUB && op != GRAFT_PY_BIN_MUL &&
           op != GRAFT_PY_BIN_POW && op != GRAFT_PY_BIN_TRUEDIV && op != GRAFT_PY_BIN_FLOORDIV &&
           op != GRAFT_PY_BIN_MOD && op != GRAFT_PY_BIN_BITAND && op != GRAFT_PY_BIN_BITOR &&
           op != GRAFT_PY_BIN_BITXOR)
    return _graft_value_tensor (t);
  if (op == GRAFT_PY_BIN_SUB && strcmp (s.dtype, "torch.bool") == 0)
    return _graft_value_tensor (t); /* torch's RuntimeError */
  return _graft_tensor_made_laid (t, &s, _graft_tensor_binop_layout (a, b, &s, &l));
}

/* Element-wise methods and functions: 'k' keeps the dtype, 'f' makes a
 * floating one of an integer or bool input. */
char
_graft_tensor_elementwise (const char *name)
{
  static const char *const keep[] = { "abs", "neg", "relu", "contiguous", "clone", "detach",
                                      "cpu", "tril", "triu", "sign", NULL };
  static const char *const floating[] = { "cos", "sin", "tan", "exp", "log", "log2", "log10",
                                          "sqrt", "rsqrt", "sigmoid", "tanh", "reciprocal",
                                          "erf", "exp2", NULL };

  if (g_strv_contains (keep, name))
    return 'k';
  if (g_strv_contains (floating, name))
    return 'f';
  return 0;
}

static gboolean
elementwise_shape (char   how,
                   Shape *s)
{
  int bytes;

  if (how == 'f' && !_graft_tensor_is_floating (s->dtype))
    {
      if (_graft_tensor_dtype_kind (s->dtype, &bytes) == 0)
        return FALSE;
      s->dtype = "torch.float32";
    }
  return TRUE;
}

gboolean
_graft_tensor_is_cpu (const Value *v)
{
  return (v->kind == VAL_STR && strcmp (v->str.s, "cpu") == 0) ||
         (v->kind == VAL_DEVICE && strcmp (v->path, "cpu") == 0);
}

/* to(): to(dtype), to(device[, dtype]), to(tensor), to(dtype=...). */
static gboolean
to_shape (PtrVec *args,
          StrMap *kwargs,
          Shape  *s)
{
  guint  n = args != NULL ? args->len : 0;
  Value *kw_dtype = kwargs != NULL ? _graft_strmap_get (kwargs, "dtype") : NULL;
  Value *kw_device = kwargs != NULL ? _graft_strmap_get (kwargs, "device") : NULL;
  guint  n_kw = (kw_dtype != NULL) + (kw_device != NULL);
  Shape  other;

  if (kwargs != NULL && kwargs->keys->len != n_kw)
    return FALSE;
  if (n == 1 && n_kw == 0 && _graft_tensor_shape_of (args->pdata[0], &other))
    {
      s->dtype = other.dtype;
      return TRUE;
    }
  for (guint i = 0; i < n; i++)
    {
      Value *a = args->pdata[i];

      if (_graft_tensor_dtype_arg (a) != NULL && i == n - 1)
        s->dtype = _graft_tensor_dtype_arg (a);
      else if (!(i == 0 && _graft_tensor_is_cpu (a)))
        return FALSE;
    }
  if (kw_device != NULL && !_graft_tensor_is_cpu (kw_device))
    return FALSE;
  if (kw_dtype != NULL && (s->dtype = _graft_tensor_dtype_arg (kw_dtype)) == NULL)
    return FALSE;
  return TRUE;
}

/* new_zeros(size) and such: @recv's dtype and device unless said. */
static gboolean
new_shape (Tracer            *t,
           const GraftPyExpr *at,
           PtrVec            *args,
           StrMap            *kwargs,
           guint              n_sizes_end,
           Shape             *s)
{
  Value      *kw_dtype = kwargs != NULL ? _graft_strmap_get (kwargs, "dtype") : NULL;
  const char *dtype = s->dtype;
  guint       n = args != NULL ? args->len : 0;

  if (kwargs != NULL && kwargs->keys->len != (kw_dtype != NULL))
    return FALSE;
  if (kw_dtype != NULL && (dtype = _graft_tensor_dtype_arg (kw_dtype)) == NULL)
    return FALSE;
  if (n < n_sizes_end + 1)
    return FALSE;
  {
    PtrVec sizes = *args;

    sizes.len = n - n_sizes_end;
    if (!_graft_tensor_int_list (&sizes, 0, s) || !_graft_tensor_no_negative_size (t, at, s) ||
        !_graft_tensor_sane (s))
      return FALSE;
  }
  s->dtype = dtype;
  return TRUE;
}

/* sum(), mean(), amax() and amin() over @dims (an int, or a tuple or list
 * of distinct ints; NULL for every dimension), keeping the reduced ones as
 * 1 if @keepdim. */
static gboolean
reduce_shape (Tracer            *t,
              const GraftPyExpr *at,
              const char        *name,
              const Value       *dims,
              gboolean           keepdim,
              Shape             *s)
{
  guint  mask = 0, k = 0, d = 0;
  gint64 a;
  int    bytes;
  int    kind = _graft_tensor_dtype_kind (s->dtype, &bytes);

  if (kind == 0 || (name[0] == 'm' && name[1] == 'e' && kind != 3))
    return FALSE; /* torch's mean() of ints is an error */
  if (dims == NULL)
    mask = (1u << s->rank) - 1;
  else if (dims->kind == VAL_TUPLE || dims->kind == VAL_LIST)
    {
      /* An empty one means every dimension to some ops in some versions. */
      if (dims->seq.items->len == 0 || (dims->kind == VAL_LIST && dims->seq.range != NULL))
        return FALSE;
      for (guint i = 0; i < dims->seq.items->len; i++)
        {
          if (!_graft_tensor_plain_int (dims->seq.items->pdata[i], &a) ||
              !_graft_tensor_check_dim (t, at, a, s->rank, &d))
            return FALSE;
          if ((mask & (1u << d)) != 0)
            return _graft_tensor_torch_error (t, at, "RuntimeError",
                                              "dim %u appears multiple times in the list of dims",
                                              d);
          mask |= 1u << d;
        }
    }
  else if (_graft_tensor_plain_int (dims, &a) && _graft_tensor_check_dim (t, at, a, s->rank, &d))
    mask = 1u << d;
  else
    return FALSE;
  for (guint i = 0; i < s->rank; i++)
    {
      if ((mask & (1u << i)) == 0)
        s->dims[k++] = s->dims[i];
      else if (name[0] == 'a' && s->dims[i] == 0)
        return FALSE; /* amax() over nothing is an error */
      else if (keepdim)
        s->dims[k++] = 1;
    }
  s->rank = k;
  if (name[0] == 's' && kind != 3)
    s->dtype = "torch.int64";
  return TRUE;
}

/* A reduction's arguments after the tensor: (dim, keepdim), positional or
 * by name. */
static gboolean
reduction (Tracer            *t,
           const GraftPyExpr *at,
           const char        *name,
           PtrVec            *args,
           StrMap            *kwargs,
           Shape             *s)
{
  guint        n = args != NULL ? args->len : 0;
  const Value *dims = n > 0 ? args->pdata[0] : NULL;
  const Value *keep = n > 1 ? args->pdata[1] : NULL;

  if (n > 2)
    return FALSE;
  for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
    {
      const char *key = kwargs->keys->pdata[i];

      if (strcmp (key, "dim") == 0 && n == 0)
        dims = kwargs->values->pdata[i];
      else if (strcmp (key, "keepdim") == 0 && n < 2)
        keep = kwargs->values->pdata[i];
      else
        return FALSE;
    }
  if (keep != NULL && keep->kind != VAL_BOOL)
    return FALSE;
  /* amax() and amin() take a dim of () by default: every dimension. */
  if (dims == NULL && keep != NULL && name[0] != 'a')
    return FALSE;
  if (dims != NULL && dims->kind == VAL_NONE)
    return FALSE;
  return reduce_shape (t, at, name, dims, keep != NULL && keep->b, s);
}

/* expand(): @sizes of at least @s's rank, -1 keeping a size; torch's
 * errors where a size is neither @s's nor expands a 1. */
static gboolean
expand_shape (Tracer            *t,
              const GraftPyExpr *at,
              Shape             *s,
              Shape             *sizes)
{
  const char      *type = _graft_tensor_type_name (s->dtype);
  g_autofree char *want = _graft_tensor_dims_str (sizes->dims, sizes->rank);
  g_autofree char *have = _graft_tensor_dims_str (s->dims, s->rank);

  if (sizes->rank < s->rank)
    {
      if (type == NULL)
        return not_modelled (t, at, "expand()");
      return _graft_tensor_torch_error (t, at, "RuntimeError",
                                        "expand(torch.%s{%s}, size=%s): the number of sizes "
                                        "provided (%u) must "
                                        "be greater or equal to the number of dimensions in the "
                                        "tensor (%u)",
                                        type, have, want, sizes->rank, s->rank);
    }
  for (guint i = sizes->rank; i-- > 0 && s->rank > 0;)
    {
      guint  lead = sizes->rank - s->rank;
      gint64 old = i >= lead ? s->dims[i - lead] : 1;

      if (sizes->dims[i] == -1)
        {
          if (i < lead)
            return _graft_tensor_torch_error (t, at, "RuntimeError",
                                              "The expanded size of the tensor (-1) isn't allowed "
                                              "in a leading, "
                                              "non-existing dimension %u",
                                              i);
          sizes->dims[i] = old;
        }
      else if (old != sizes->dims[i] && old != 1)
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "The expanded size of the tensor (%" G_GINT64_FORMAT
                                          ") must match the existing size (%" G_GINT64_FORMAT
                                          ") at non-singleton dimension %u.  Target sizes: %s.  "
                                          "Tensor sizes: "
                                          "%s",
                                          sizes->dims[i], old, i, want, have);
    }
  /* A negative size left (a zero-dimensional tensor's sizes are not
   * checked) fails when torch counts the elements. */
  for (guint i = 0; i < sizes->rank; i++)
    if (sizes->dims[i] < 0)
      return _graft_tensor_torch_error (t, at, "RuntimeError",
                                        "numel: integer multiplication overflow");
  sizes->dtype = s->dtype;
  *s = *sizes;
  return _graft_tensor_sane (s);
}

/* The shape of a method's result on a tensor of @s; FALSE where Graft does
 * not know it, or with torch's error raised at @at (when not %NULL) where
 * the arguments do not fit @s. */
gboolean
_graft_tensor_method_shape (Tracer            *t,
                            const GraftPyExpr *at,
                            const char        *name,
                            PtrVec            *args,
                            StrMap            *kwargs,
                            Shape             *s)
{
  guint       n = args != NULL ? args->len : 0;
  const char *dtype;
  Shape       sizes;
  gint64      a, b;
  guint       d, e;
  char        how;

  if ((how = _graft_tensor_elementwise (name)) != 0)
    {
      if (strcmp (name, "tril") == 0 || strcmp (name, "triu") == 0)
        {
          if (s->rank < 2 || n > 1 || !_graft_tensor_no_kwargs (kwargs) ||
              (n == 1 && !_graft_tensor_plain_int (args->pdata[0], &a)))
            return FALSE;
        }
      else if (n > 0 || !_graft_tensor_no_kwargs (kwargs))
        return FALSE;
      return elementwise_shape (how, s);
    }
  if ((dtype = _graft_tensor_conversion_dtype (name)) != NULL)
    {
      if (n > 0 || !_graft_tensor_no_kwargs (kwargs))
        return FALSE;
      s->dtype = dtype;
      return TRUE;
    }
  if (strcmp (name, "to") == 0)
    return to_shape (args, kwargs, s);
  if (strcmp (name, "type_as") == 0)
    {
      Shape other;

      if (n != 1 || !_graft_tensor_no_kwargs (kwargs) ||
          !_graft_tensor_shape_of (args->pdata[0], &other))
        return FALSE;
      s->dtype = other.dtype;
      return TRUE;
    }
  if (strcmp (name, "sum") == 0 || strcmp (name, "mean") == 0 || strcmp (name, "amax") == 0 ||
      strcmp (name, "amin") == 0)
    return reduction (t, at, name, args, kwargs, s);
  if (strcmp (name, "new_zeros") == 0 || strcmp (name, "new_ones") == 0 ||
      strcmp (name, "new_empty") == 0)
    return new_shape (t, at, args, kwargs, 0, s);
  if (strcmp (name, "new_full") == 0)
    return n == 2 && new_shape (t, at, args, kwargs, 1, s);
  if (!_graft_tensor_no_kwargs (kwargs))
    return FALSE;
  if (strcmp (name, "view") == 0 && n == 1 &&
      (dtype = _graft_tensor_dtype_arg (args->pdata[0])) != NULL)
    {
      int bytes, same;

      /* A dtype of the same size: the same elements read as it. */
      _graft_tensor_dtype_kind (dtype, &bytes);
      _graft_tensor_dtype_kind (s->dtype, &same);
      if (bytes != same)
        return FALSE;
      s->dtype = dtype;
      return TRUE;
    }
  if (strcmp (name, "type") == 0)
    {
      if (n != 1 || (dtype = _graft_tensor_dtype_arg (args->pdata[0])) == NULL)
        return FALSE;
      s->dtype = dtype;
      return TRUE;
    }
  if (strcmp (name, "view") == 0 || strcmp (name, "reshape") == 0)
    return _graft_tensor_int_list (args, 0, &sizes) && (n > 0) && reshape (t, at, s, &sizes) &&
           (*s = sizes, TRUE);
  if (strcmp (name, "view_as") == 0)
    {
      Shape other;

      if (n != 1 || !_graft_tensor_shape_of (args->pdata[0], &other))
        return FALSE;
      sizes = other;
      return reshape (t, at, s, &sizes) && (*s = sizes, TRUE);
    }
  if (strcmp (name, "narrow") == 0)
    {
      gint64 len;

      /* Only where it fits: torch's errors otherwise are not modelled. */
      if (n != 3 || !_graft_tensor_plain_int (args->pdata[0], &a) ||
          !_graft_tensor_plain_int (args->pdata[1], &b) ||
          !_graft_tensor_plain_int (args->pdata[2], &len) || s->rank == 0 ||
          !_graft_tensor_wrap_dim (a, s->rank, &d))
        return FALSE;
      if (b >= 0 && b <= s->dims[d] && len >= 0 && b > s->dims[d] - len)
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "start (%" G_GINT64_FORMAT ") + length (%" G_GINT64_FORMAT
                                          ") exceeds dimension size (%" G_GINT64_FORMAT ").",
                                          b, len, s->dims[d]);
      if (b < 0)
        b += s->dims[d];
      if (b < 0 || len < 0 || b > s->dims[d] - len)
        return FALSE;
      s->dims[d] = len;
      return TRUE;
    }
  if (strcmp (name, "unflatten") == 0)
    {
      gint64 known = 1;
      gint   infer = -1;
      Value *list = n == 2 ? args->pdata[1] : NULL;
      PtrVec one;

      if (list == NULL || (list->kind != VAL_TUPLE && list->kind != VAL_LIST) ||
          !_graft_tensor_plain_int (args->pdata[0], &a) || s->rank == 0 ||
          !_graft_tensor_wrap_dim (a, s->rank, &d))
        return FALSE;
      one = *args;
      one.pdata++;
      one.len = 1;
      if (!_graft_tensor_int_list (&one, 0, &sizes) || sizes.rank == 0 ||
          s->rank + sizes.rank - 1 > MAX_RANK)
        return FALSE;
      /* Only where it fits, as for narrow(). */
      for (guint i = 0; i < sizes.rank; i++)
        if (sizes.dims[i] == -1 && infer < 0)
          infer = (gint) i;
        else if (sizes.dims[i] < 0 || (known = _graft_tensor_mul_size (known, sizes.dims[i])) < 0)
          return FALSE;
      if (infer >= 0)
        {
          if (known == 0 || s->dims[d] % known != 0)
            return FALSE;
          sizes.dims[infer] = s->dims[d] / known;
        }
      else if (known != s->dims[d])
        return FALSE;
      memmove (&s->dims[d + sizes.rank], &s->dims[d + 1], (s->rank - d - 1) * sizeof (gint64));
      memcpy (&s->dims[d], sizes.dims, sizes.rank * sizeof (gint64));
      s->rank += sizes.rank - 1;
      return TRUE;
    }
  if (strcmp (name, "t") == 0)
    {
      if (n > 0)
        return FALSE;
      if (s->rank > 2)
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "t() expects a tensor with <= 2 dimensions, but self is "
                                          "%uD",
                                          s->rank);
      if (s->rank == 2)
        {
          a = s->dims[0];
          s->dims[0] = s->dims[1];
          s->dims[1] = a;
        }
      return TRUE;
    }
  if (strcmp (name, "transpose") == 0)
    {
      if (n != 2 || !_graft_tensor_plain_int (args->pdata[0], &a) ||
          !_graft_tensor_plain_int (args->pdata[1], &b))
        return FALSE;
      if (!_graft_tensor_check_dim (t, at, a, s->rank, &d) ||
          !_graft_tensor_check_dim (t, at, b, s->rank, &e))
        return FALSE;
      if (s->rank > 0)
        {
          a = s->dims[d];
          s->dims[d] = s->dims[e];
          s->dims[e] = a;
        }
      return TRUE;
    }
  if (strcmp (name, "permute") == 0)
    {
      guint seen = 0;

      if (!_graft_tensor_int_list (args, 0, &sizes) || n == 0)
        return FALSE;
      if (sizes.rank != s->rank)
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "permute(sparse_coo): number of dimensions in the tensor "
                                          "input does "
                                          "not match the length of the desired ordering of "
                                          "dimensions i.e. "
                                          "input.dim() = %u is not equal to len(dims) = %u",
                                          s->rank, sizes.rank);
      for (guint i = 0; i < sizes.rank; i++)
        {
          if (!_graft_tensor_check_dim (t, at, sizes.dims[i], s->rank, &d))
            return FALSE;
          if ((seen & (1u << d)) != 0)
            return _graft_tensor_torch_error (t, at, "RuntimeError",
                                              "permute(): duplicate dims are not allowed.");
          seen |= 1u << d;
          sizes.dims[i] = s->dims[d];
        }
      memcpy (s->dims, sizes.dims, sizeof (s->dims));
      return TRUE;
    }
  if (strcmp (name, "select") == 0)
    {
      /* An index out of range is torch's IndexError, not modelled. */
      if (n != 2 || !_graft_tensor_no_kwargs (kwargs) || s->rank == 0 ||
          !_graft_tensor_plain_int (args->pdata[0], &a) ||
          !_graft_tensor_plain_int (args->pdata[1], &b) ||
          !_graft_tensor_check_dim (t, at, a, s->rank, &d) || b < -s->dims[d] ||
          b >= s->dims[d])
        return FALSE;
      memmove (&s->dims[d], &s->dims[d + 1], (s->rank - d - 1) * sizeof (gint64));
      s->rank--;
      return TRUE;
    }
  if (strcmp (name, "unsqueeze") == 0)
    {
      if (n != 1 || !_graft_tensor_plain_int (args->pdata[0], &a) || s->rank >= MAX_RANK ||
          !_graft_tensor_check_dim (t, at, a, s->rank + 1, &d))
        return FALSE;
      memmove (&s->dims[d + 1], &s->dims[d], (s->rank - d) * sizeof (gint64));
      s->dims[d] = 1;
      s->rank++;
      return TRUE;
    }
  if (strcmp (name, "squeeze") == 0)
    {
      guint k = 0;
      guint mask;

      /* torch 2.6's squeeze(dims): those of size 1 among @dims. */
      if (n == 1 && t != NULL && t->dialect->torch == GRAFT_TORCH_2_6 &&
          _graft_tensor_squeeze_dims (t, at, args->pdata[0], s, &mask))
        {
          for (guint i = 0; i < s->rank; i++)
            if ((mask & (1u << i)) == 0 || s->dims[i] != 1)
              s->dims[k++] = s->dims[i];
          s->rank = k;
          return TRUE;
        }
      if (t != NULL && t->error != NULL)
        return FALSE;
      if (n > 1 || (n == 1 && !_graft_tensor_plain_int (args->pdata[0], &a)))
        return FALSE;
      if (n == 1 && !_graft_tensor_check_dim (t, at, a, s->rank, &d))
        return FALSE;
      if (n == 1)
        {
          if (s->rank > 0 && s->dims[d] == 1)
            {
              memmove (&s->dims[d], &s->dims[d + 1], (s->rank - d - 1) * sizeof (gint64));
              s->rank--;
            }
          return TRUE;
        }
      for (guint i = 0; i < s->rank; i++)
        if (s->dims[i] != 1)
          s->dims[k++] = s->dims[i];
      s->rank = k;
      return TRUE;
    }
  if (strcmp (name, "flatten") == 0)
    {
      gint64 start = 0, end = -1, prod = 1;

      if (n > 2 || (n > 0 && !_graft_tensor_plain_int (args->pdata[0], &start)) ||
          (n > 1 && !_graft_tensor_plain_int (args->pdata[1], &end)))
        return FALSE;
      if (!_graft_tensor_check_dim (t, at, start, s->rank, &d) ||
          !_graft_tensor_check_dim (t, at, end, s->rank, &e))
        return FALSE;
      if (s->rank == 0)
        {
          s->rank = 1;
          s->dims[0] = 1;
          return TRUE;
        }
      if (d > e)
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "flatten() has invalid args: start_dim cannot come after "
                                          "end_dim");
      for (guint i = d; i <= e; i++)
        if ((prod = _graft_tensor_mul_size (prod, s->dims[i])) < 0)
          return FALSE;
      s->dims[d] = prod;
      memmove (&s->dims[d + 1], &s->dims[e + 1], (s->rank - e - 1) * sizeof (gint64));
      s->rank -= e - d;
      return TRUE;
    }
  if (strcmp (name, "expand") == 0)
    return _graft_tensor_int_list (args, 0, &sizes) && n > 0 && expand_shape (t, at, s, &sizes);
  if (strcmp (name, "repeat") == 0)
    {
      if (!_graft_tensor_int_list (args, 0, &sizes) || n == 0)
        return FALSE;
      if (sizes.rank < s->rank)
        return _graft_tensor_torch_error (t, at, "RuntimeError",
                                          "Number of dimensions of repeat dims can not be smaller "
                                          "than number "
                                          "of dimensions of tensor");
      for (guint i = 0; i < sizes.rank; i++)
        {
          guint  lead = sizes.rank - s->rank;
          gint64 old = i >= lead ? s->dims[i - lead] : 1;

          if (old > 0 && (sizes.dims[i] > G_MAXINT64 / old || sizes.dims[i] < G_MININT64 / old))
            return FALSE;
          sizes.dims[i] *= old;
        }
      /* torch makes a tensor of the repeated sizes (a negative count of a
       * size 0 is 0). */
      for (guint i = 0; i < sizes.rank; i++)
        if (sizes.dims[i] < 0)
          {
            g_autofree char *text = _graft_tensor_dims_str (sizes.dims, sizes.rank);

            return _graft_tensor_torch_error (t, at, "RuntimeError",
                                              "Trying to create tensor with negative dimension "
                                              "%" G_GINT64_FORMAT ": %s",
                                              sizes.dims[i], text);
          }
      sizes.dtype = s->dtype;
      *s = sizes;
      return _graft_tensor_sane (s);
    }
  if (strcmp (name, "masked_fill") == 0)
    {
      Shape mask, out;

      if (n != 2 || !_graft_tensor_shape_of (args->pdata[0], &mask) ||
          strcmp (mask.dtype, "torch.bool") != 0)
        return FALSE;
      /* torch broadcasts the mask (named a) and the tensor (b), and fills
       * a copy of the tensor expanded. */
      if (!_graft_tensor_broadcast (t, at, &mask, s, &out))
        return FALSE;
      out.dtype = s->dtype;
      *s = out;
      return args->pdata[1] != NULL && (((Value *) args->pdata[1])->kind == VAL_FLOAT ||
                                        ((Value *) args->pdata[1])->kind == VAL_INT ||
                                        ((Value *) args->pdata[1])->kind == VAL_BOOL);
    }
  return FALSE;
}

/* Whether @name is a method or function of two operands, `add(a, b)`, as
 * the operator @op: a GraftPyBinOp, -1 for a comparison. */
gboolean
_graft_tensor_binary_method (const char *name,
                             int        *op)
{
  static const struct
  {
    const char *name;
    int         op;
  } ops[] = {
    { "add", GRAFT_PY_BIN_ADD },
    { "sub", GRAFT_PY_BIN_SUB },
    { "subtract", GRAFT_PY_BIN_SUB },
    { "mul", GRAFT_PY_BIN_MUL },
    { "pow", GRAFT_PY_BIN_POW },
    { "multiply", GRAFT_PY_BIN_MUL },
    { "div", GRAFT_PY_BIN_TRUEDIV },
    { "divide", GRAFT_PY_BIN_TRUEDIV },
    { "true_divide", GRAFT_PY_BIN_TRUEDIV },
    { "matmul", GRAFT_PY_BIN_MATMUL },
    { "eq", -1 },
    { "ne", -1 },
    { "lt", -1 },
    { "le", -1 },
    { "gt", -1 },
    { "ge", -1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (strcmp (name, ops[i].name) == 0)
      {
        *op = ops[i].op;
        return TRUE;
      }
  return FALSE;
}

/* `recv.chunk(chunks, dim=0)` (and torch.chunk()) of a tensor of shape @s laid out as @l: the
 * tuple of its pieces, as torch's chunk() splits it (pieces of
 * ceil(size / chunks), the last one shorter, fewer pieces than @chunks
 * where they run out; @chunks empty pieces of an empty dimension), each
 * a view with @recv's strides.  NULL with torch's error raised; a
 * tensor of unknown make where Graft does not follow the call. */
Value *
_graft_tensor_chunk (Tracer            *t,
                     const Shape       *s,
                     const Layout      *l,
                     PtrVec            *args,
                     StrMap            *kwargs,
                     const GraftPyExpr *at)
{
  guint        n = args != NULL ? args->len : 0;
  const Value *chunks_v = n > 0 ? args->pdata[0] : NULL;
  const Value *dim_v = n > 1 ? args->pdata[1] : NULL;
  gint64       chunks, d = 0, size, split, pieces;
  guint        dim = 0;
  Value       *out;

  for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
    {
      const char *key = kwargs->keys->pdata[i];

      if (strcmp (key, "chunks") == 0 && chunks_v == NULL)
        chunks_v = kwargs->values->pdata[i];
      else if (strcmp (key, "dim") == 0 && dim_v == NULL)
        dim_v = kwargs->values->pdata[i];
      else
        return _graft_value_tensor (t);
    }
  /* A float or a bool: the argument parser's TypeError (torch.chunk()'s
   * own binding raised it before this). */
  for (guint k = 0; k < 2 && n <= 2; k++)
    {
      const Value *v = k == 0 ? chunks_v : dim_v;

      if (v != NULL && (v->kind == VAL_FLOAT || v->kind == VAL_BOOL))
        {
          if (k < n)
            _graft_tensor_torch_error (t, at, "TypeError",
                                       "chunk(): argument '%s' (position %u) must be int, not %s",
                                       k == 0 ? "chunks" : "dim", k + 1,
                                       v->kind == VAL_FLOAT ? "float" : "bool");
          else
            _graft_tensor_torch_error (t, at, "TypeError",
                                       "chunk(): argument '%s' must be int, not %s",
                                       k == 0 ? "chunks" : "dim",
                                       v->kind == VAL_FLOAT ? "float" : "bool");
          return t->error != NULL ? NULL : _graft_value_tensor (t);
        }
    }
  if (n > 2 || chunks_v == NULL || !_graft_tensor_plain_int (chunks_v, &chunks) ||
      (dim_v != NULL && !_graft_tensor_plain_int (dim_v, &d)))
    return _graft_value_tensor (t);
  if (s->rank == 0)
    _graft_tensor_torch_error (t, at, "RuntimeError",
                               "chunk expects at least a 1-dimensional tensor");
  else if (chunks <= 0)
    _graft_tensor_torch_error (t, at, "RuntimeError",
                               "chunk expects `chunks` to be greater than 0, got: "
                               "%" G_GINT64_FORMAT,
                               chunks);
  if (s->rank == 0 || chunks <= 0 || !_graft_tensor_check_dim (t, at, d, s->rank, &dim))
    return t->error != NULL ? NULL : _graft_value_tensor (t);
  size = s->dims[dim];
  split = size / chunks + (size % chunks != 0);
  pieces = split == 0 ? chunks : MAX ((size + split - 1) / split, 1);
  if (pieces > GRAFT_MAX_CHUNKS)
    return _graft_value_tensor (t);
  out = _graft_value_seq (t, VAL_TUPLE, (guint) pieces);
  for (gint64 i = 0; i < pieces; i++)
    {
      Shape piece = *s;

      piece.dims[dim] = split == 0 ? 0 : MIN (split, size - i * split);
      _graft_value_seq_add (out, _graft_tensor_made_laid (t, &piece, l));
    }
  return out;
}

/* `__pow__`, `__rsub__`: the operator whose method @name is, and whether
 * the tensor is its right side. */
gboolean
_graft_tensor_magic_op (const char *name,
                        int        *op,
                        gboolean   *reflected)
{
  static const struct
  {
    const char *name;
    gboolean    reflected;
    int         op;
  } magic_ops[] = {
    { "__add__", FALSE, GRAFT_PY_BIN_ADD },
    { "__radd__", TRUE, GRAFT_PY_BIN_ADD },
    { "__sub__", FALSE, GRAFT_PY_BIN_SUB },
    { "__rsub__", TRUE, GRAFT_PY_BIN_SUB },
    { "__mul__", FALSE, GRAFT_PY_BIN_MUL },
    { "__rmul__", TRUE, GRAFT_PY_BIN_MUL },
    { "__truediv__", FALSE, GRAFT_PY_BIN_TRUEDIV },
    { "__rtruediv__", TRUE, GRAFT_PY_BIN_TRUEDIV },
    { "__pow__", FALSE, GRAFT_PY_BIN_POW },
    { "__rpow__", TRUE, GRAFT_PY_BIN_POW },
  };

  for (guint i = 0; i < G_N_ELEMENTS (magic_ops); i++)
    if (strcmp (name, magic_ops[i].name) == 0)
      {
        *op = magic_ops[i].op;
        *reflected = magic_ops[i].reflected;
        return TRUE;
      }
  return FALSE;
}

/**
 * _graft_tracer_tensor_method_result:
 * @recv: a constant tensor
 * @at: (nullable): where torch's error is raised; %NULL for none
 *
 * The result of a method of @recv that makes a new tensor (not an in-place
 * one): a constant tensor whose shape and dtype are known when @recv's are
 * and the method is one followed here.  Arguments that do not fit @recv's
 * shape are torch's error (its text), raised at @at.
 *
 * Returns: (nullable): the tensor, or %NULL with the error raised
 */
Value *
_graft_tracer_tensor_method_result (Tracer            *t,
                                    Value             *recv,
                                    const char        *name,
                                    PtrVec            *args,
                                    StrMap            *kwargs,
                                    const GraftPyExpr *at)
{
  Shape    s, in;
  Layout   lin, lout;
  int      op;
  gboolean reflected;

  if (args != NULL && args->len == 1 && _graft_tensor_no_kwargs (kwargs) &&
      _graft_tensor_binary_method (name, &op))
    return _graft_tracer_binop_tensor (t, op, recv, args->pdata[0], at);
  /* `t.__pow__(-1)`, `t.__rsub__(1)`: the operator's, by name. */
  if (args != NULL && args->len == 1 && _graft_tensor_no_kwargs (kwargs) &&
      _graft_tensor_magic_op (name, &op, &reflected))
    return reflected ? _graft_tracer_binop_tensor (t, op, args->pdata[0], recv, at)
                     : _graft_tracer_binop_tensor (t, op, recv, args->pdata[0], at);

  /* torch 1.13.1's squeeze() takes one dim, no tuple or list (the first
   * line of its TypeError). */
  if (strcmp (name, "squeeze") == 0 && t->dialect->torch == GRAFT_TORCH_1_13 && args != NULL &&
      args->len == 1 && _graft_tensor_no_kwargs (kwargs) &&
      (((Value *) args->pdata[0])->kind == VAL_TUPLE ||
       ((Value *) args->pdata[0])->kind == VAL_LIST))
    {
      _graft_tensor_torch_error (t, at, "TypeError",
                                 "squeeze() received an invalid combination of arguments - got "
                                 "(%s), but expected one of:",
                                 _graft_value_type_name (args->pdata[0]));
      return NULL;
    }
  /* `t.where(cond, other)`: torch.where(cond, t, other); torch 1.13.1's
   * method takes a tensor `other` only. */
  if (strcmp (name, "where") == 0 && args != NULL && args->len == 2 &&
      _graft_tensor_no_kwargs (kwargs))
    {
      Value  *other = args->pdata[1];
      PtrVec *all;
      Value  *made;

      if (t->dialect->torch == GRAFT_TORCH_1_13 &&
          (other->kind == VAL_INT || other->kind == VAL_FLOAT || other->kind == VAL_BOOL))
        {
          _graft_tensor_torch_error (t, at, "TypeError",
                                     "where(): argument 'other' (position 2) must be Tensor, "
                                     "not %s",
                                     _graft_value_type_name (other));
          return NULL;
        }
      all = _graft_tracer_vec (t);
      _graft_vec_add (all, args->pdata[0]);
      _graft_vec_add (all, recv);
      _graft_vec_add (all, other);
      made = _graft_tracer_function_tensor (t, "torch.where", all, NULL, at);
      return made != NULL || t->error != NULL ? made : _graft_value_tensor (t);
    }
  /* `t.softmax(1)`: torch.softmax(t, 1). */
  if (strcmp (name, "softmax") == 0 || strcmp (name, "log_softmax") == 0)
    {
      PtrVec *all = _graft_tracer_vec (t);
      Value  *made;

      /* The method's own parser, both torches: `dim` is required (the
       * first line of its message, as the argument checks keep). */
      if ((args == NULL || args->len == 0) &&
          (kwargs == NULL || kwargs->keys == NULL || kwargs->keys->len == 0))
        {
          _graft_tensor_torch_error (t, at, "TypeError",
                                     "%s() received an invalid combination of arguments - "
                                     "got (), but expected one of:",
                                     name);
          return NULL;
        }
      _graft_vec_add (all, recv);
      for (guint i = 0; args != NULL && i < args->len; i++)
        _graft_vec_add (all, args->pdata[i]);
      made = _graft_tracer_function_tensor (
          t, name[0] == 'l' ? "torch.log_softmax" : "torch.softmax", all, kwargs, at);
      return made != NULL || t->error != NULL ? made : _graft_value_tensor (t);
    }
  if (!_graft_tracer_tensor_ternary_check (t, recv, name, FALSE, args, kwargs, at))
    return NULL;
  if (!_graft_tensor_shape_of (recv, &s))
    return _graft_value_tensor (t);
  in = s;
  _graft_tensor_layout_of (recv, &in, &lin);
  if (strcmp (name, "chunk") == 0)
    return _graft_tensor_chunk (t, &in, &lin, args, kwargs, at);
  if (_graft_tensor_is_view_op (name))
    return _graft_tensor_view_op (t, name, recv, &in, &lin, args, kwargs, at);
  if (!_graft_tensor_method_shape (t, at, name, args, kwargs, &s) ||
      !_graft_tensor_method_layout (t, at, name, args, &in, &lin, &s, &lout))
    return t->error != NULL ? NULL : _graft_value_tensor (t);
  return _graft_tensor_made_laid (t, &s, &lout);
}

/**
 * _graft_tracer_tensor_attribute:
 *
 * `.T` and `.mT` of a constant tensor whose shape is known.
 *
 * Returns: (nullable): the tensor, or %NULL if not known here
 */
Value *
_graft_tracer_tensor_attribute (Tracer     *t,
                                Value      *recv,
                                const char *name)
{
  Shape  s, r;
  Layout l, lr;

  if (!_graft_tensor_shape_of (recv, &s))
    return NULL;
  _graft_tensor_layout_of (recv, &s, &l);
  lr = l;
  if (strcmp (name, "T") == 0)
    {
      r = s;
      for (guint i = 0; i < s.rank; i++)
        {
          r.dims[i] = s.dims[s.rank - 1 - i];
          lr.strides[i] = l.strides[s.rank - 1 - i];
        }
      return _graft_tensor_made_laid (t, &r, &lr);
    }
  if (strcmp (name, "mT") == 0 && s.rank >= 2)
    {
      gint64 a = s.dims[s.rank - 1];

      s.dims[s.rank - 1] = s.dims[s.rank - 2];
      s.dims[s.rank - 2] = a;
      lr.strides[s.rank - 1] = l.strides[s.rank - 2];
      lr.strides[s.rank - 2] = l.strides[s.rank - 1];
      return _graft_tensor_made_laid (t, &s, &lr);
    }
  return NULL;
}
