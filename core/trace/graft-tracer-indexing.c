/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-indexing.c: `tensor[index]` and `tensor[index] = value`
 * of constant tensors: ints, slices, None and Ellipsis, with the shape and
 * strides torch's view gives, torch's IndexError for an int out of its
 * dimension, and torch's RuntimeError where an assigned tensor does not
 * expand to the indexed part.  An index it does not follow (a tensor of
 * indices) gives a tensor of unknown shape; an assignment whose shapes it
 * does not know is refused, since torch's outcome depends on them.
 */
#include "config.h"

#include "graft-tracer-shapes-private.h"

#include <string.h>

/* One slice of a dimension of @len: Python's slice.indices(). */
static gboolean
slice_len (const Value *slice,
           gint64       len,
           gint64      *out)
{
  gint64 start, stop, step = 1;
  Value *lo = slice->slice.start, *hi = slice->slice.stop, *st = slice->slice.step;

  if (st != NULL && st->kind != VAL_NONE && (!_graft_tensor_plain_int (st, &step) || step <= 0))
    return FALSE;
  if (lo == NULL || lo->kind == VAL_NONE)
    start = 0;
  else if (!_graft_tensor_plain_int (lo, &start))
    return FALSE;
  if (hi == NULL || hi->kind == VAL_NONE)
    stop = len;
  else if (!_graft_tensor_plain_int (hi, &stop))
    return FALSE;
  if (start < 0)
    start = MAX (0, start + len);
  if (stop < 0)
    stop = MAX (0, stop + len);
  start = MIN (start, len);
  stop = MIN (stop, len);
  *out = stop > start ? (stop - start + step - 1) / step : 0;
  return TRUE;
}

typedef enum {
  INDEX_KNOWN,
  INDEX_UNKNOWN,
  INDEX_OUT_OF_RANGE, /* torch's IndexError */
} IndexShape;

/* The shape of `tensor[index]` for a tensor of @s and an index of ints,
 * slices of ints, None and one Ellipsis; at an int out of its dimension,
 * that int, its place in the index (torch names that "dimension") and the
 * size of the dimension of @s it indexes, in @bad. */
static IndexShape
index_shape (const Shape  *s,
             const Layout *l,
             Value        *index,
             Shape        *out,
             Layout       *lout,
             gint64        bad[3])
{
  guint  n, used = 0, dim = 0, ellipses = 0;
  Value *items[MAX_RANK * 2];

  if (index->kind == VAL_TUPLE && !index->seq.size)
    {
      if (index->seq.items->len > G_N_ELEMENTS (items))
        return INDEX_UNKNOWN;
      n = index->seq.items->len;
      for (guint i = 0; i < n; i++)
        items[i] = index->seq.items->pdata[i];
    }
  else
    {
      n = 1;
      items[0] = index;
    }
  /* How many dimensions the index takes (an Ellipsis fills the rest). */
  for (guint i = 0; i < n; i++)
    if (items[i]->kind == VAL_INT || items[i]->kind == VAL_SLICE)
      used++;
    else if (items[i]->kind == VAL_ELLIPSIS && ellipses++ > 0)
      return INDEX_UNKNOWN; /* torch's IndexError */
    else if (items[i]->kind != VAL_NONE && items[i]->kind != VAL_ELLIPSIS)
      return INDEX_UNKNOWN;
  if (used > s->rank)
    return INDEX_UNKNOWN;
  out->rank = 0;
  out->dtype = s->dtype;
  lout->known = l->known;
  for (guint i = 0; i < n; i++)
    {
      Value *item = items[i];
      gint64 k, len;

      if (out->rank >= MAX_RANK)
        return INDEX_UNKNOWN;
      if (item->kind == VAL_NONE)
        {
          /* unsqueeze() of what is left: the next dimension's extent. */
          lout->strides[out->rank] =
              dim < s->rank ? _graft_tensor_mul_size (s->dims[dim], l->strides[dim]) : 1;
          out->dims[out->rank++] = 1;
        }
      else if (item->kind == VAL_ELLIPSIS)
        {
          guint rest = s->rank - used;

          if (out->rank + rest > MAX_RANK)
            return INDEX_UNKNOWN;
          for (guint j = 0; j < rest; j++)
            {
              lout->strides[out->rank] = l->strides[dim];
              out->dims[out->rank++] = s->dims[dim++];
            }
        }
      else if (item->kind == VAL_INT)
        {
          if (!_graft_tensor_plain_int (item, &k))
            return INDEX_UNKNOWN;
          if (k < -s->dims[dim] || k >= s->dims[dim])
            {
              bad[0] = k;
              bad[1] = i;
              bad[2] = s->dims[dim];
              return INDEX_OUT_OF_RANGE;
            }
          dim++;
        }
      else
        {
          gint64 step = 1;

          if (!slice_len (item, s->dims[dim], &len))
            return INDEX_UNKNOWN;
          if (item->slice.step != NULL && item->slice.step->kind != VAL_NONE)
            _graft_tensor_plain_int (item->slice.step, &step);
          lout->strides[out->rank] = _graft_tensor_mul_size (l->strides[dim], step);
          out->dims[out->rank++] = len;
          dim++;
        }
    }
  while (dim < s->rank && out->rank < MAX_RANK)
    {
      lout->strides[out->rank] = l->strides[dim];
      out->dims[out->rank++] = s->dims[dim++];
    }
  return dim < s->rank ? INDEX_UNKNOWN : INDEX_KNOWN;
}

/**
 * _graft_tracer_index_tensor:
 * @tensor: a constant tensor
 * @index: a constant index (no traced value)
 *
 * `tensor[index]` for ints, slices of ints, None and one Ellipsis: a view
 * whose shape is known when @tensor's is.  An int out of its dimension is
 * torch's IndexError.
 *
 * Returns: (nullable): the tensor, or %NULL with the error raised
 */
Value *
_graft_tracer_index_tensor (Tracer            *t,
                            Value             *tensor,
                            Value             *index,
                            const GraftPyExpr *at)
{
  Shape  s, out;
  Layout l, lout;
  gint64 bad[3];

  if (!_graft_tensor_shape_of (tensor, &s))
    return _graft_value_tensor (t);
  _graft_tensor_layout_of (tensor, &s, &l);
  switch (index_shape (&s, &l, index, &out, &lout, bad))
    {
    case INDEX_KNOWN:
      return _graft_tensor_made_laid (t, &out, &lout);
    case INDEX_OUT_OF_RANGE:
      return _graft_tracer_raise (t, "IndexError", at->start, at->end,
                                  "IndexError: index %" G_GINT64_FORMAT
                                  " is out of bounds for dimension %" G_GINT64_FORMAT
                                  " with size %" G_GINT64_FORMAT,
                                  bad[0], bad[1], bad[2]);
    case INDEX_UNKNOWN:
    default:
      return _graft_value_tensor (t);
    }
}

/* `[3, 4]`, as torch prints sizes. */
static const char *
sizes_str (Tracer      *t,
           const Shape *s)
{
  GString    *str = g_string_new ("[");
  const char *out;

  for (guint i = 0; i < s->rank; i++)
    g_string_append_printf (str, "%s%" G_GINT64_FORMAT, i > 0 ? ", " : "", s->dims[i]);
  g_string_append_c (str, ']');
  out = _graft_tracer_strdup (t, str->str, -1);
  g_string_free (str, TRUE);
  return out;
}

/**
 * _graft_tracer_tensor_setitem:
 * @tensor: a constant tensor
 * @index: a constant index
 * @value: what is assigned (no traced value)
 *
 * Checks `tensor[index] = value` as torch runs it: an int out of its
 * dimension is an IndexError, a tensor that does not expand to the indexed
 * part (after its leading dimensions of size 1, which torch drops) a
 * RuntimeError, with torch's texts.  Where Graft does not know a shape,
 * the assignment is refused: torch's outcome depends on it.
 *
 * Returns: %FALSE with the error raised or set
 */
gboolean
_graft_tracer_tensor_setitem (Tracer            *t,
                              Value             *tensor,
                              Value             *index,
                              Value             *value,
                              const GraftPyExpr *at)
{
  Shape       s, target, src;
  gint64      bad[3];
  IndexShape  how = INDEX_UNKNOWN;
  const char *type;
  guint       lead = 0;
  gboolean    known = _graft_tensor_shape_of (tensor, &s);
  Layout      l, lt;

  if (known)
    {
      _graft_tensor_layout_of (tensor, &s, &l);
      how = index_shape (&s, &l, index, &target, &lt, bad);
    }
  /* `t[t == 0] = 1.0`: a mask of t's own leading sizes, and a number. */
  if (known && how == INDEX_UNKNOWN && _graft_tensor_shape_of (index, &target) &&
      strcmp (target.dtype, "torch.bool") == 0 && target.rank <= s.rank && target.rank > 0 &&
      memcmp (target.dims, s.dims, target.rank * sizeof (gint64)) == 0 &&
      ((value->kind == VAL_INT && !_graft_value_is_bigint (value)) || value->kind == VAL_FLOAT ||
       value->kind == VAL_BOOL))
    return TRUE;
  if (how == INDEX_OUT_OF_RANGE)
    {
      _graft_tracer_raise (t, "IndexError", at->start, at->end,
                           "IndexError: index %" G_GINT64_FORMAT
                           " is out of bounds for dimension %" G_GINT64_FORMAT
                           " with size %" G_GINT64_FORMAT,
                           bad[0], bad[1], bad[2]);
      return FALSE;
    }
  if (how == INDEX_KNOWN &&
      ((value->kind == VAL_INT && !_graft_value_is_bigint (value)) || value->kind == VAL_FLOAT ||
       value->kind == VAL_BOOL))
    return TRUE;
  if (how != INDEX_KNOWN || !_graft_tensor_shape_of (value, &src) ||
      (type = _graft_tensor_type_name (src.dtype)) == NULL)
    {
      _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "this item assignment on a constant tensor is not supported: Graft "
                             "does not know the shapes involved, and torch raises an error where "
                             "they do not fit");
      return FALSE;
    }
  while (lead < src.rank && src.dims[lead] == 1)
    lead++;
  memmove (src.dims, &src.dims[lead], (src.rank - lead) * sizeof (gint64));
  src.rank -= lead;
  if (src.rank > target.rank)
    {
      _graft_tracer_raise (t, "RuntimeError", at->start, at->end,
                           "RuntimeError: expand(torch.%s{%s}, size=%s): the number of sizes "
                           "provided (%u) must "
                           "be greater or equal to the number of dimensions in the tensor (%u)",
                           type, sizes_str (t, &src), sizes_str (t, &target), target.rank,
                           src.rank);
      return FALSE;
    }
  for (guint i = target.rank; i-- > 0;)
    {
      guint  offset = target.rank - 1 - i;
      gint64 size = offset < src.rank ? src.dims[src.rank - 1 - offset] : 1;

      if (size != target.dims[i] && size != 1)
        {
          _graft_tracer_raise (t, "RuntimeError", at->start, at->end,
                               "RuntimeError: The expanded size of the tensor (%" G_GINT64_FORMAT
                               ") must match the existing size (%" G_GINT64_FORMAT
                               ") at non-singleton dimension %u.  Target sizes: %s.  Tensor "
                               "sizes: %s",
                               target.dims[i], size, i, sizes_str (t, &target),
                               sizes_str (t, &src));
          return FALSE;
        }
    }
  return TRUE;
}
