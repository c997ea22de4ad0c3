/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-views.c: the ops on constant tensors that move, pick or
 * split their elements, and the element-wise ones whose arguments are
 * not a second tensor: `flip`, `roll`, `unfold`, `movedim`/`moveaxis`,
 * `swapaxes`/`swapdims`, `diagonal`, `expand_as`, `repeat_interleave`,
 * `clamp`/`clip`/`clamp_min`/`clamp_max`, `square`, `fliplr`/`flipud`,
 * `floor`/`ceil`/`round`/`trunc`, `logical_not`, `bitwise_not` and `~`
 * (`__invert__`), and those that give a tuple of views: `split`,
 * `tensor_split`, `unbind`.
 *
 * Each gives its result's sizes, dtype and strides as torch does (checked
 * by probes of both torches: a view keeps its input's storage, flip and
 * the element-wise ones lay their result out as TensorIterator does, roll and
 * repeat_interleave make contiguous tensors), so that a later view() of
 * it fails or passes as in torch, and its errors with torch's texts where
 * both torches agree.  Arguments it does not follow (tensors as bounds,
 * repeats or indices; a negative repeat count, whose text differs between
 * the torches) give a tensor of unknown make, as before.  It owns nothing
 * but these rules; Shape and Layout are graft-tracer-shapes-private.h's.
 */
#include "config.h"

#include "graft-limits.h"
#include "graft-tracer-shapes-private.h"

#include <string.h>

static const char *const view_ops[] = {
  "flip",
  "roll",
  "unfold",
  "movedim",
  "moveaxis",
  "swapaxes",
  "swapdims",
  "diagonal",
  "expand_as",
  "clamp",
  "clip",
  "clamp_min",
  "clamp_max",
  "square",
  "split",
  "tensor_split",
  "unbind",
  "repeat_interleave",
  "fliplr",
  "flipud",
  "floor",
  "ceil",
  "round",
  "trunc",
  "logical_not",
  "bitwise_not",
  "__invert__",
  NULL,
};

/* Whether _graft_tensor_view_op() follows the method (or torch function)
 * @name. */
gboolean
_graft_tensor_is_view_op (const char *name)
{
  return g_strv_contains (view_ops, name);
}

/* Binds @args and @kwargs to @n parameters: @names[i] is the i-th one's
 * name, with alternatives separated by '|' (`split_size|split_size_or_sections`:
 * the method's and the function's).  FALSE where there are too many, one
 * is given twice, or a name is unknown. */
static gboolean
bind (PtrVec            *args,
      StrMap            *kwargs,
      const char *const *names,
      guint              n,
      const Value      **out)
{
  guint n_args = args != NULL ? args->len : 0;

  if (n_args > n)
    return FALSE;
  for (guint i = 0; i < n; i++)
    out[i] = i < n_args ? args->pdata[i] : NULL;
  for (guint k = 0; kwargs != NULL && k < kwargs->keys->len; k++)
    {
      const char *key = kwargs->keys->pdata[k];
      gboolean    found = FALSE;

      for (guint i = 0; i < n && !found; i++)
        {
          g_auto (GStrv) alts = g_strsplit (names[i], "|", 0);

          if (g_strv_contains ((const char *const *) alts, key))
            {
              if (out[i] != NULL)
                return FALSE;
              out[i] = kwargs->values->pdata[k];
              found = TRUE;
            }
        }
      if (!found)
        return FALSE;
    }
  return TRUE;
}

/* An int, or a tuple or list of ints, as @out's dims (one for an int). */
static gboolean
int_or_ints (const Value *v,
             Shape       *out)
{
  PtrVec one = { 0 };

  if (v == NULL)
    return FALSE;
  one.pdata = (gpointer *) &v;
  one.len = 1;
  if (v->kind == VAL_INT)
    {
      out->rank = 1;
      return _graft_tensor_plain_int (v, &out->dims[0]);
    }
  return (v->kind == VAL_TUPLE || v->kind == VAL_LIST) && _graft_tensor_int_list (&one, 0, out);
}

/* @dims wrapped for a tensor of @rank dimensions into @out, with torch's
 * IndexError; FALSE then. */
static gboolean
check_dims (Tracer            *t,
            const GraftPyExpr *at,
            const Shape       *dims,
            guint              rank,
            guint             *out)
{
  for (guint i = 0; i < dims->rank; i++)
    if (!_graft_tensor_check_dim (t, at, dims->dims[i], rank, &out[i]))
      return FALSE;
  return TRUE;
}

static Value *
unknown (Tracer *t)
{
  return t->error != NULL ? NULL : _graft_value_tensor (t);
}

/* A tuple of @n pieces of @s along @dim, @sizes[i] long, with @l's
 * strides: views. */
static Value *
pieces (Tracer       *t,
        const Shape  *s,
        const Layout *l,
        guint         dim,
        const gint64 *sizes,
        guint         n)
{
  Value *out = _graft_value_seq (t, VAL_TUPLE, n);

  for (guint i = 0; i < n; i++)
    {
      Shape piece = *s;

      piece.dims[dim] = sizes[i];
      _graft_value_seq_add (out, _graft_tensor_made_laid (t, &piece, l));
    }
  return out;
}

/* split(split_size, dim=0) and split(sizes, dim=0); torch.split()'s
 * split_size_or_sections. */
static Value *
split (Tracer            *t,
       const Shape       *s,
       const Layout      *l,
       const Value      **a,
       const GraftPyExpr *at)
{
  Shape            sizes;
  gint64           d = 0, size, total = 0;
  guint            dim;
  g_autofree char *text = NULL;

  if (!int_or_ints (a[0], &sizes) || (a[1] != NULL && !_graft_tensor_plain_int (a[1], &d)))
    return unknown (t);
  if (s->rank == 0)
    {
      _graft_tensor_torch_error (t, at, "RuntimeError",
                                 "split expects at least a 1-dimensional tensor");
      return unknown (t);
    }
  if (!_graft_tensor_check_dim (t, at, d, s->rank, &dim))
    return unknown (t);
  size = s->dims[dim];
  if (a[0]->kind == VAL_INT)
    {
      gint64             split_size = sizes.dims[0], n;
      g_autofree gint64 *all = NULL;

      if (split_size < 0)
        _graft_tensor_torch_error (t, at, "RuntimeError",
                                   "split expects split_size be non-negative, but got "
                                   "split_size=%" G_GINT64_FORMAT,
                                   split_size);
      else if (split_size == 0 && size != 0)
        _graft_tensor_torch_error (t, at, "RuntimeError",
                                   "split_size can only be 0 if dimension size is 0, but got "
                                   "dimension size of %" G_GINT64_FORMAT,
                                   size);
      if (split_size < 0 || (split_size == 0 && size != 0))
        return unknown (t);
      n = size == 0 ? 1 : (size + split_size - 1) / split_size;
      if (n > GRAFT_MAX_CHUNKS)
        return unknown (t);
      all = g_new (gint64, n);
      for (gint64 i = 0; i < n; i++)
        all[i] = size == 0 ? 0 : MIN (split_size, size - i * split_size);
      return pieces (t, s, l, dim, all, (guint) n);
    }
  text = _graft_tensor_dims_str (sizes.dims, sizes.rank);
  for (guint i = 0; i < sizes.rank; i++)
    if (sizes.dims[i] < 0)
      {
        _graft_tensor_torch_error (t, at, "RuntimeError",
                                   "split_with_sizes expects split_sizes have only non-negative "
                                   "entries, but got split_sizes=%s",
                                   text);
        return unknown (t);
      }
    else if ((total = total + sizes.dims[i]) < 0)
      return unknown (t);
  if (total != size)
    {
      _graft_tensor_torch_error (t, at, "RuntimeError",
                                 "split_with_sizes expects split_sizes to sum exactly to "
                                 "%" G_GINT64_FORMAT " (input tensor's size at dimension %u), but "
                                 "got split_sizes=%s",
                                 size, dim, text);
      return unknown (t);
    }
  return pieces (t, s, l, dim, sizes.dims, sizes.rank);
}

/* tensor_split(sections, dim=0) and tensor_split(indices, dim=0). */
static Value *
tensor_split (Tracer            *t,
              const Shape       *s,
              const Layout      *l,
              const Value      **a,
              const GraftPyExpr *at)
{
  Shape  idx;
  gint64 d = 0, size, sizes[MAX_RANK + 1], prev = 0;
  guint  dim;

  if (!int_or_ints (a[0], &idx) || (a[1] != NULL && !_graft_tensor_plain_int (a[1], &d)))
    return unknown (t);
  if (s->rank == 0)
    {
      _graft_tensor_torch_error (t, at, "RuntimeError",
                                 "tensor_split expected at least a 1-dimensional tensor, but got "
                                 "a tensor with 0 dims");
      return unknown (t);
    }
  if (!_graft_tensor_check_dim (t, at, d, s->rank, &dim))
    return unknown (t);
  size = s->dims[dim];
  if (a[0]->kind == VAL_INT)
    {
      gint64             n = idx.dims[0];
      g_autofree gint64 *all = NULL;

      if (n <= 0)
        {
          _graft_tensor_torch_error (t, at, "RuntimeError",
                                     "number of sections must be larger than 0, got "
                                     "%" G_GINT64_FORMAT,
                                     n);
          return unknown (t);
        }
      if (n > GRAFT_MAX_CHUNKS)
        return unknown (t);
      all = g_new (gint64, n);
      for (gint64 i = 0; i < n; i++)
        all[i] = size / n + (i < size % n);
      return pieces (t, s, l, dim, all, (guint) n);
    }
  /* Indices: the slices [0:i0], [i0:i1], ..., [ik:], as Python slices
   * (negative ones from the end, clamped, empty where they cross). */
  for (guint i = 0; i <= idx.rank; i++)
    {
      gint64 end = i < idx.rank ? idx.dims[i] : size;
      gint64 start = prev;

      if (end < 0)
        end = MAX (end + size, 0);
      end = MIN (end, size);
      if (start < 0)
        start = MAX (start + size, 0);
      start = MIN (start, size);
      sizes[i] = MAX (end - start, 0);
      prev = i < idx.rank ? idx.dims[i] : 0;
    }
  return pieces (t, s, l, dim, sizes, idx.rank + 1);
}

/* unbind(dim=0): each select(dim, i). */
static Value *
unbind (Tracer            *t,
        const Shape       *s,
        const Layout      *l,
        const Value      **a,
        const GraftPyExpr *at)
{
  gint64 d = 0;
  guint  dim;
  Shape  piece = *s;
  Layout lp = *l;
  Value *out;

  if (a[0] != NULL && !_graft_tensor_plain_int (a[0], &d))
    return unknown (t);
  if (!_graft_tensor_check_dim (t, at, d, s->rank, &dim))
    return unknown (t);
  if (s->rank == 0)
    {
      _graft_tensor_torch_error (t, at, "IndexError",
                                 "Dimension specified as %u but tensor has no dimensions", dim);
      return unknown (t);
    }
  if (s->dims[dim] > GRAFT_MAX_CHUNKS)
    return unknown (t);
  memmove (&piece.dims[dim], &piece.dims[dim + 1], (s->rank - dim - 1) * sizeof (gint64));
  memmove (&lp.strides[dim], &lp.strides[dim + 1], (s->rank - dim - 1) * sizeof (gint64));
  piece.rank--;
  out = _graft_value_seq (t, VAL_TUPLE, (guint) s->dims[dim]);
  for (gint64 i = 0; i < s->dims[dim]; i++)
    _graft_value_seq_add (out, _graft_tensor_made_laid (t, &piece, &lp));
  return out;
}

/* movedim(source, destination): the dims of @source go to @destination,
 * the others keep their order in the places left. */
static gboolean
movedim (Tracer            *t,
         const GraftPyExpr *at,
         const Value      **a,
         Shape             *s,
         Layout            *l)
{
  Shape            src, dst;
  guint            ws[MAX_RANK], wd[MAX_RANK], from[MAX_RANK];
  guint            used = 0, taken = 0, next = 0;
  Shape            in = *s;
  Layout           lin = *l;
  g_autofree char *ts = NULL, *td = NULL;

  if (!int_or_ints (a[0], &src) || !int_or_ints (a[1], &dst))
    return FALSE;
  if (src.rank != dst.rank)
    {
      ts = _graft_tensor_dims_str (src.dims, src.rank);
      td = _graft_tensor_dims_str (dst.dims, dst.rank);
      return _graft_tensor_torch_error (t, at, "RuntimeError",
                                        "movedim: Invalid source or destination dims: source (%s "
                                        "dims) should contain the same number of dims as "
                                        "destination (%s dims)",
                                        ts, td);
    }
  if (!check_dims (t, at, &src, s->rank, ws) || !check_dims (t, at, &dst, s->rank, wd))
    return FALSE;
  for (guint i = 0; i < src.rank; i++)
    {
      if ((used & (1u << ws[i])) != 0 || (taken & (1u << wd[i])) != 0)
        {
          gboolean in_src = (used & (1u << ws[i])) != 0;

          ts = _graft_tensor_dims_str (in_src ? src.dims : dst.dims, src.rank);
          return _graft_tensor_torch_error (t, at, "RuntimeError",
                                            "movedim: repeated dim in `%s` (%s)",
                                            in_src ? "source" : "destination", ts);
        }
      used |= 1u << ws[i];
      taken |= 1u << wd[i];
    }
  if (s->rank == 0)
    return TRUE;
  for (guint i = 0; i < src.rank; i++)
    from[wd[i]] = ws[i];
  for (guint i = 0; i < s->rank; i++)
    if ((taken & (1u << i)) == 0)
      {
        while ((used & (1u << next)) != 0)
          next++;
        from[i] = next++;
      }
  for (guint i = 0; i < s->rank; i++)
    {
      s->dims[i] = in.dims[from[i]];
      l->strides[i] = lin.strides[from[i]];
    }
  return TRUE;
}

/* unfold(dimension, size, step): @dimension becomes its windows' count,
 * a last dimension of @size is added; strides as torch's view. */
static gboolean
unfold (Tracer            *t,
        const GraftPyExpr *at,
        const Value      **a,
        Shape             *s,
        Layout            *l)
{
  gint64 d, size, step, have, stride;
  guint  dim;

  if (a[0] == NULL || a[1] == NULL || a[2] == NULL || !_graft_tensor_plain_int (a[0], &d) ||
      !_graft_tensor_plain_int (a[1], &size) || !_graft_tensor_plain_int (a[2], &step))
    return FALSE;
  if (!_graft_tensor_check_dim (t, at, d, s->rank, &dim) || s->rank >= MAX_RANK)
    return FALSE;
  have = s->rank == 0 ? 1 : s->dims[dim];
  if (size > have)
    return _graft_tensor_torch_error (t, at, "RuntimeError",
                                      "maximum size for tensor at dimension %u is %" G_GINT64_FORMAT
                                      " but size is %" G_GINT64_FORMAT,
                                      dim, have, size);
  if (step <= 0)
    return _graft_tensor_torch_error (t, at, "RuntimeError",
                                      "step is %" G_GINT64_FORMAT " but must be > 0", step);
  if (size < 0)
    return FALSE; /* the texts differ between the torches */
  if (s->rank == 0)
    {
      s->rank = 1;
      s->dims[0] = size;
      l->strides[0] = 1;
      return TRUE;
    }
  stride = l->strides[dim];
  s->dims[dim] = (have - size) / step + 1;
  l->strides[dim] = _graft_tensor_mul_size (stride, step);
  s->dims[s->rank] = size;
  l->strides[s->rank] = stride;
  s->rank++;
  return TRUE;
}

/* diagonal(offset=0, dim1=0, dim2=1): both dims dropped, the diagonal's
 * length last, its stride theirs summed. */
static gboolean
diagonal (Tracer            *t,
          const GraftPyExpr *at,
          const Value      **a,
          Shape             *s,
          Layout            *l)
{
  gint64 offset = 0, d1 = 0, d2 = 1, len, stride;
  guint  e1, e2, k = 0;
  Shape  in = *s;
  Layout lin = *l;

  if ((a[0] != NULL && !_graft_tensor_plain_int (a[0], &offset)) ||
      (a[1] != NULL && !_graft_tensor_plain_int (a[1], &d1)) ||
      (a[2] != NULL && !_graft_tensor_plain_int (a[2], &d2)))
    return FALSE;
  if (!_graft_tensor_check_dim (t, at, d1, s->rank, &e1) ||
      !_graft_tensor_check_dim (t, at, d2, s->rank, &e2))
    return FALSE;
  if (e1 == e2)
    return _graft_tensor_torch_error (t, at, "RuntimeError",
                                      "diagonal dimensions cannot be identical %" G_GINT64_FORMAT
                                      ", %" G_GINT64_FORMAT,
                                      d1, d2);
  if (s->rank < 2)
    return FALSE;
  if (offset >= 0)
    len = MAX (MIN (in.dims[e1], in.dims[e2] - offset), 0);
  else
    len = MAX (MIN (in.dims[e1] + offset, in.dims[e2]), 0);
  stride = lin.strides[e1] + lin.strides[e2];
  for (guint i = 0; i < in.rank; i++)
    if (i != e1 && i != e2)
      {
        s->dims[k] = in.dims[i];
        l->strides[k++] = lin.strides[i];
      }
  s->dims[k] = len;
  l->strides[k++] = stride;
  s->rank = k;
  return TRUE;
}

/* roll(shifts, dims=None): the same sizes, a new contiguous tensor. */
static gboolean
roll (Tracer            *t,
      const GraftPyExpr *at,
      const Value      **a,
      Shape             *s)
{
  Shape shifts, dims = { 0 };
  guint w[MAX_RANK];

  if (!int_or_ints (a[0], &shifts) ||
      (a[1] != NULL && a[1]->kind != VAL_NONE && !int_or_ints (a[1], &dims)))
    return FALSE;
  if (shifts.rank == 0)
    return _graft_tensor_torch_error (t, at, "RuntimeError", "`shifts` required");
  if (shifts.rank != dims.rank && !(dims.rank == 0 && shifts.rank == 1))
    return _graft_tensor_torch_error (t, at, "RuntimeError",
                                      "shifts and dimensions must align. shifts: %u, dims:%u",
                                      shifts.rank, dims.rank);
  return s->rank > 0 && check_dims (t, at, &dims, s->rank, w);
}

/* Whether the Python int @v fits the integer @dtype (any int fits a
 * floating or bool one, which promote); else @type is torch's C++ name
 * of the dtype in its error, or NULL where Graft does not know the error
 * (a uint8 one wraps some values). */
static gboolean
int_fits (const char  *dtype,
          const Value *v,
          const char **type)
{
  static const struct
  {
    const char *name, *type;
    gint64      lo, hi;
  } ranges[] = {
    { "torch.uint8", NULL, 0, G_MAXUINT8 },
    { "torch.int8", "int8_t", G_MININT8, G_MAXINT8 },
    { "torch.int16", "int16_t", G_MININT16, G_MAXINT16 },
    { "torch.int32", "int", G_MININT32, G_MAXINT32 },
  };

  *type = NULL;
  if (_graft_value_is_bigint (v))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (ranges); i++)
    if (strcmp (dtype, ranges[i].name) == 0)
      {
        *type = ranges[i].type;
        return v->i >= ranges[i].lo && v->i <= ranges[i].hi;
      }
  return TRUE;
}

/* clamp(min=None, max=None) of Python numbers (clamp_min(), clamp_max()
 * one): the dtype torch promotes @s's and theirs to.  The errors are
 * _graft_tracer_tensor_ternary_check()'s, before. */
static gboolean
clamp (Tracer            *t,
       const GraftPyExpr *at,
       const Value      **a,
       Shape             *s)
{
  int         bytes;
  const char *type;

  if (g_str_has_prefix (s->dtype, "torch.complex"))
    return _graft_tensor_torch_error (t, at, "RuntimeError",
                                      "clamp is not supported for complex types");
  if (_graft_tensor_dtype_kind (s->dtype, &bytes) == 0 || strcmp (s->dtype, "torch.float16") == 0 ||
      strcmp (s->dtype, "torch.bfloat16") == 0)
    return FALSE; /* half: an error in 1.13.1 */
  if (a[0] == NULL && a[1] == NULL)
    return FALSE;
  for (guint k = 0; k < 2; k++)
    if (a[k] != NULL && _graft_value_is_tensor (a[k]))
      return FALSE; /* tensor_bound() */
  for (guint k = 0; k < 2; k++)
    {
      const Value *b = a[k];
      const char  *out;

      if (b == NULL || b->kind == VAL_NONE)
        continue;
      if (b->kind == VAL_INT && !int_fits (s->dtype, b, &type))
        return type != NULL && _graft_tensor_torch_error (t, at, "RuntimeError",
                                                          "value cannot be converted to type %s "
                                                          "without overflow",
                                                          type);
      if ((out = _graft_tensor_promote_number (s->dtype, b)) == NULL)
        return FALSE;
      s->dtype = out;
    }
  return strcmp (s->dtype, "torch.bool") != 0;
}

/* clamp(min_tensor, max_tensor): TensorIterator's op of @self and both
 * bounds, in that order (sizes broadcast one after the other, the
 * promoted dtype, their layout).  Bounds of no dimension promote
 * otherwise: not followed, nor a bool or half result. */
static Value *
tensor_bounds (Tracer            *t,
               const GraftPyExpr *at,
               const Value       *self,
               const Value      **a)
{
  const Value *vals[3] = { self, a[0], a[1] };
  Shape        first, high, out;
  Layout       l;
  int          bytes;

  if (!_graft_tensor_shape_of (a[0], &first) || !_graft_tensor_shape_of (a[1], &high) ||
      first.rank == 0 || high.rank == 0 ||
      !_graft_tensor_binary_shape (t, at, self, a[0], &first) ||
      !_graft_tensor_broadcast (t, at, &first, &high, &out) ||
      (out.dtype = _graft_tensor_promote (&first, &high)) == NULL ||
      strcmp (out.dtype, "torch.bool") == 0 || strcmp (out.dtype, "torch.float16") == 0 ||
      strcmp (out.dtype, "torch.bfloat16") == 0 || g_str_has_prefix (out.dtype, "torch.complex") ||
      _graft_tensor_dtype_kind (out.dtype, &bytes) == 0)
    return NULL;
  return _graft_tensor_made_laid (t, &out, _graft_tensor_values_layout (vals, 3, &out, &l));
}

/* clamp(min=tensor) or clamp(max=tensor), the other bound None: as the
 * element-wise op of @self and the bound (their broadcast sizes, promoted
 * dtype and TensorIterator's layout).  NULL where Graft does not follow
 * it: two tensor bounds, a bound of unknown make, a bool result, sizes
 * that do not broadcast (torch's RuntimeError raised at @at). */
static Value *
tensor_bound (Tracer            *t,
              const GraftPyExpr *at,
              const Value       *self,
              const Value      **a)
{
  const Value *bound = NULL;
  Shape        out;
  Layout       l;
  int          bytes;

  if (a[0] != NULL && a[1] != NULL && self != NULL && _graft_value_is_tensor (a[0]) &&
      _graft_value_is_tensor (a[1]))
    return tensor_bounds (t, at, self, a);
  for (guint k = 0; k < 2; k++)
    {
      if (a[k] == NULL || a[k]->kind == VAL_NONE)
        continue;
      if (bound != NULL || !_graft_value_is_tensor (a[k]))
        return NULL;
      bound = a[k];
    }
  if (bound == NULL || self == NULL || !_graft_tensor_shape_of (bound, &out) ||
      !_graft_tensor_binary_shape (t, at, self, bound, &out) ||
      strcmp (out.dtype, "torch.bool") == 0 || strcmp (out.dtype, "torch.float16") == 0 ||
      strcmp (out.dtype, "torch.bfloat16") == 0 ||
      _graft_tensor_dtype_kind (out.dtype, &bytes) == 0)
    return NULL;
  return _graft_tensor_made_laid (t, &out, _graft_tensor_binop_layout (self, bound, &out, &l));
}

/**
 * _graft_tensor_view_op:
 * @name: a method (or torch function) for which
 *   _graft_tensor_is_view_op() is true
 * @self: the tensor (the method's receiver, the function's first
 *   argument)
 * @s: its shape
 * @l: its layout
 * @args: the arguments after the tensor
 * @at: (nullable): where torch's error is raised
 *
 * Returns: (nullable): the constant tensor (or the tuple of them) @name
 * makes, of unknown make where Graft does not follow its arguments; %NULL
 * with torch's error raised
 */
Value *
_graft_tensor_view_op (Tracer            *t,
                       const char        *name,
                       const Value       *self,
                       const Shape       *s,
                       const Layout      *l,
                       PtrVec            *args,
                       StrMap            *kwargs,
                       const GraftPyExpr *at)
{
  static const char *const p_split[] = { "split_size|split_size_or_sections", "dim" };
  static const char *const p_tsplit[] = { "sections|indices|indices_or_sections", "dim" };
  static const char *const p_dim[] = { "dim" };
  static const char *const p_move[] = { "source", "destination" };
  static const char *const p_swap[] = { "axis0|dim0", "axis1|dim1" };
  static const char *const p_unfold[] = { "dimension", "size", "step" };
  static const char *const p_diag[] = { "offset", "dim1", "dim2" };
  static const char *const p_roll[] = { "shifts", "dims" };
  static const char *const p_clamp[] = { "min", "max" };
  static const char *const p_flip[] = { "dims" };
  static const char *const p_other[] = { "other" };
  static const char *const p_repeat[] = { "repeats", "dim" };
  const Value             *a[3] = { NULL, NULL, NULL };
  Shape                    out = *s;
  Layout                   lout = *l;
  gboolean                 ok;

  if (strcmp (name, "split") == 0)
    return bind (args, kwargs, p_split, 2, a) && a[0] != NULL ? split (t, s, l, a, at)
                                                              : unknown (t);
  if (strcmp (name, "tensor_split") == 0)
    return bind (args, kwargs, p_tsplit, 2, a) && a[0] != NULL ? tensor_split (t, s, l, a, at)
                                                               : unknown (t);
  if (strcmp (name, "unbind") == 0)
    return bind (args, kwargs, p_dim, 1, a) ? unbind (t, s, l, a, at) : unknown (t);
  if (strcmp (name, "movedim") == 0 || strcmp (name, "moveaxis") == 0)
    ok = bind (args, kwargs, p_move, 2, a) && a[1] != NULL && movedim (t, at, a, &out, &lout);
  else if (strcmp (name, "swapaxes") == 0 || strcmp (name, "swapdims") == 0)
    {
      PtrVec two = { 0 };

      if (!bind (args, kwargs, p_swap, 2, a) || a[0] == NULL || a[1] == NULL)
        return unknown (t);
      two.pdata = (gpointer *) a;
      two.len = 2;
      ok = _graft_tensor_method_shape (t, at, "transpose", &two, NULL, &out) &&
           _graft_tensor_method_layout (t, at, "transpose", &two, s, l, &out, &lout);
    }
  else if (strcmp (name, "unfold") == 0)
    ok = bind (args, kwargs, p_unfold, 3, a) && unfold (t, at, a, &out, &lout);
  else if (strcmp (name, "diagonal") == 0)
    ok = bind (args, kwargs, p_diag, 3, a) && diagonal (t, at, a, &out, &lout);
  else if (strcmp (name, "expand_as") == 0)
    {
      Shape  other;
      Value *sizes;
      PtrVec one = { 0 };

      if (!bind (args, kwargs, p_other, 1, a) || a[0] == NULL ||
          !_graft_tensor_shape_of (a[0], &other))
        return unknown (t);
      sizes = _graft_value_seq (t, VAL_TUPLE, other.rank);
      for (guint i = 0; i < other.rank; i++)
        _graft_value_seq_add (sizes, _graft_value_int (t, other.dims[i]));
      one.pdata = (gpointer *) &sizes;
      one.len = 1;
      ok = _graft_tensor_method_shape (t, at, "expand", &one, NULL, &out) &&
           _graft_tensor_method_layout (t, at, "expand", &one, s, l, &out, &lout);
    }
  else if (strcmp (name, "repeat_interleave") == 0)
    {
      gint64 r, d;
      guint  dim;

      ok = bind (args, kwargs, p_repeat, 2, a) && a[0] != NULL &&
           _graft_tensor_plain_int (a[0], &r) && r >= 0;
      if (ok && (a[1] == NULL || a[1]->kind == VAL_NONE))
        {
          out.rank = 1;
          out.dims[0] = _graft_tensor_mul_size (_graft_tensor_numel (s), r);
        }
      else if (ok && _graft_tensor_plain_int (a[1], &d) &&
               _graft_tensor_check_dim (t, at, d, s->rank, &dim))
        {
          /* Of a 0-d tensor the torches raise different errors. */
          ok = s->rank > 0;
          out.dims[dim] = _graft_tensor_mul_size (out.dims[dim], r);
        }
      else
        ok = FALSE;
      ok = ok && _graft_tensor_sane (&out);
      _graft_tensor_contiguous_layout (&out, &lout);
    }
  else if (strcmp (name, "roll") == 0)
    {
      ok = bind (args, kwargs, p_roll, 2, a) && roll (t, at, a, &out);
      _graft_tensor_contiguous_layout (&out, &lout);
    }
  else if (strcmp (name, "flip") == 0)
    {
      Shape dims;
      guint w[MAX_RANK], seen = 0;

      /* flip(0, 1) as flip((0, 1)). */
      if (args != NULL && args->len > 1 && _graft_tensor_no_kwargs (kwargs))
        ok = _graft_tensor_int_list (args, 0, &dims);
      else
        ok = bind (args, kwargs, p_flip, 1, a) && int_or_ints (a[0], &dims);
      ok = ok && check_dims (t, at, &dims, s->rank, w);
      for (guint i = 0; ok && i < dims.rank; i++)
        {
          if ((seen & (1u << w[i])) != 0)
            {
              _graft_tensor_torch_error (t, at, "RuntimeError",
                                         "dim %u appears multiple times in the list of dims", w[i]);
              return NULL;
            }
          seen |= 1u << w[i];
        }
      _graft_tensor_like_layout (s, l, &out, &lout);
    }
  else if (strcmp (name, "fliplr") == 0 || strcmp (name, "flipud") == 0)
    {
      guint need = name[4] == 'l' ? 2 : 1;

      if (s->rank < need)
        {
          _graft_tensor_torch_error (t, at, "RuntimeError", "Input must be >= %u-d.", need);
          return NULL;
        }
      ok = (args == NULL || args->len == 0) && _graft_tensor_no_kwargs (kwargs);
      _graft_tensor_like_layout (s, l, &out, &lout);
    }
  else if (strcmp (name, "floor") == 0 || strcmp (name, "ceil") == 0 ||
           strcmp (name, "round") == 0 || strcmp (name, "trunc") == 0)
    {
      /* Of an integer tensor a copy; half ones fail in 1.13.1 only. */
      if (strcmp (s->dtype, "torch.bool") == 0)
        {
          _graft_tensor_torch_error (t, at, "RuntimeError",
                                     "\"%s_vml_cpu\" not implemented for 'Bool'", name);
          return NULL;
        }
      ok = (args == NULL || args->len == 0) && _graft_tensor_no_kwargs (kwargs) &&
           _graft_tensor_dtype_kind (s->dtype, &(int){ 0 }) != 0 &&
           strcmp (s->dtype, "torch.float16") != 0 && strcmp (s->dtype, "torch.bfloat16") != 0;
      _graft_tensor_like_layout (s, l, &out, &lout);
    }
  else if (strcmp (name, "logical_not") == 0)
    {
      ok = (args == NULL || args->len == 0) && _graft_tensor_no_kwargs (kwargs) &&
           _graft_tensor_dtype_kind (s->dtype, &(int){ 0 }) != 0;
      out.dtype = "torch.bool";
      _graft_tensor_like_layout (s, l, &out, &lout);
    }
  else if (strcmp (name, "bitwise_not") == 0 || strcmp (name, "__invert__") == 0)
    {
      /* `~t` is Python's __invert__, whose own check comes first. */
      if (_graft_tensor_is_floating (s->dtype))
        {
          if (name[0] == '_')
            _graft_tensor_torch_error (t, at, "TypeError",
                                       "~ (operator.invert) is only implemented on integer and "
                                       "Boolean-type tensors");
          else
            _graft_tensor_torch_error (t, at, "RuntimeError",
                                       "\"bitwise_not_cpu\" not implemented for '%s'",
                                       _graft_tensor_scalar_type_name (s->dtype));
          return NULL;
        }
      ok = (args == NULL || args->len == 0) && _graft_tensor_no_kwargs (kwargs) &&
           _graft_tensor_dtype_kind (s->dtype, &(int){ 0 }) != 0;
      _graft_tensor_like_layout (s, l, &out, &lout);
    }
  else if (strcmp (name, "square") == 0)
    {
      ok = (args == NULL || args->len == 0) && _graft_tensor_no_kwargs (kwargs) &&
           _graft_tensor_dtype_kind (s->dtype, &(int){ 0 }) != 0;
      if (strcmp (s->dtype, "torch.bool") == 0)
        out.dtype = "torch.int64";
      _graft_tensor_like_layout (s, l, &out, &lout);
    }
  else
    {
      /* clamp, clip, clamp_min, clamp_max */
      gboolean one = strcmp (name, "clamp_min") == 0 || strcmp (name, "clamp_max") == 0;

      if (one)
        ok = bind (args, kwargs, name[7] == 'i' ? p_clamp : p_clamp + 1, 1,
                   name[7] == 'i' ? a : a + 1);
      else
        ok = bind (args, kwargs, p_clamp, 2, a);
      if (ok && ((a[0] != NULL && _graft_value_is_tensor (a[0])) ||
                 (a[1] != NULL && _graft_value_is_tensor (a[1]))))
        {
          Value *r = tensor_bound (t, at, self, a);

          return r != NULL ? r : unknown (t);
        }
      ok = ok && clamp (t, at, a, &out);
      _graft_tensor_like_layout (s, l, &out, &lout);
    }
  if (!ok)
    return unknown (t);
  return _graft_tensor_made_laid (t, &out, &lout);
}
