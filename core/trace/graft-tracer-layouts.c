/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-layouts.c: where the elements of a constant tensor lie in
 * its storage, its strides, as torch lays them out.
 *
 * A factory's tensor is contiguous; a view (transpose, permute, expand,
 * slicing, unsqueeze) keeps its input's storage and computes new strides,
 * an element-wise op lays its result out as TensorIterator does, the rest
 * make contiguous tensors.  `is_contiguous()` and `stride()` read them,
 * and view() refuses sizes they do not allow, with torch's error.  It
 * owns the Layout of graft-tracer-shapes-private.h and nothing of the
 * shapes (graft-tracer-shapes.c finds them first).  A layout Graft does
 * not follow is unknown: never guessed, only read as unknown.
 */
#include "config.h"

#include "graft-tracer-shapes-private.h"

#include <string.h>

/* torch's contiguous strides of @s (a size 0 counts as 1). */
void
_graft_tensor_contiguous_layout (const Shape *s,
                                 Layout      *out)
{
  gint64 next = 1;

  out->known = TRUE;
  for (guint i = s->rank; i-- > 0;)
    {
      out->strides[i] = next;
      next = _graft_tensor_mul_size (next, MAX (s->dims[i], 1));
      if (next < 0)
        next = 0;
    }
}

/* Whether @l is @s's contiguous layout, as torch's is_contiguous(): the
 * strides of sizes 1 do not count, nor any of an empty tensor. */
static gboolean
is_contiguous_layout (const Shape  *s,
                      const Layout *l)
{
  gint64 want = 1;

  if (!l->known)
    return FALSE;
  if (_graft_tensor_numel (s) == 0)
    return TRUE;
  for (guint i = s->rank; i-- > 0;)
    {
      if (s->dims[i] == 1)
        continue;
      if (l->strides[i] != want)
        return FALSE;
      want *= s->dims[i];
    }
  return TRUE;
}

/* Whether @l lays @s's elements out without gaps or overlaps, in some
 * order of its dimensions (torch's is_non_overlapping_and_dense()). */
static gboolean
is_dense_layout (const Shape  *s,
                 const Layout *l)
{
  guint  perm[MAX_RANK];
  gint64 want = 1;

  if (!l->known)
    return FALSE;
  for (guint i = 0; i < s->rank; i++)
    perm[i] = i;
  /* By stride, the sizes under 2 last. */
  for (guint i = 1; i < s->rank; i++)
    for (guint j = i; j > 0; j--)
      {
        guint    a = perm[j - 1], b = perm[j];
        gboolean after = s->dims[a] < 2 ? s->dims[b] >= 2
                                        : s->dims[b] >= 2 && l->strides[b] < l->strides[a];

        if (!after)
          break;
        perm[j - 1] = b;
        perm[j] = a;
      }
  for (guint i = 0; i < s->rank; i++)
    {
      if (s->dims[perm[i]] < 2)
        return TRUE;
      if (l->strides[perm[i]] != want)
        return FALSE;
      want *= s->dims[perm[i]];
    }
  return TRUE;
}

/* @v's layout, @s its shape (_graft_tensor_shape_of()). */
void
_graft_tensor_layout_of (const Value *v,
                         const Shape *s,
                         Layout      *out)
{
  const TensorMeta *m = _graft_tensor_meta_of (v);

  if (m == NULL || m->strides_unknown)
    out->known = FALSE;
  else if (m->strides == NULL)
    _graft_tensor_contiguous_layout (s, out);
  else
    {
      out->known = TRUE;
      memcpy (out->strides, m->strides, s->rank * sizeof (gint64));
    }
}

/* _graft_tensor_made(), of layout @l. */
Value *
_graft_tensor_made_laid (Tracer       *t,
                         const Shape  *s,
                         const Layout *l)
{
  Value      *v = _graft_tensor_made (t, s);
  TensorMeta *meta = (TensorMeta *) v->tensor.meta;
  gint64     *strides;
  Layout      plain;

  /* Kept unless they are the contiguous ones, exactly: stride() reads
   * those of sizes 1 too. */
  _graft_tensor_contiguous_layout (s, &plain);
  for (guint i = 0; i < s->rank && l->known; i++)
    if (l->strides[i] < 0)
      meta->strides_unknown = TRUE; /* past int64 (_graft_tensor_mul_size()) */
  if (!l->known || meta->strides_unknown)
    meta->strides_unknown = TRUE;
  else if (memcmp (plain.strides, l->strides, s->rank * sizeof (gint64)) != 0)
    {
      strides = _graft_tracer_alloc (t, MAX (s->rank, 1) * sizeof (gint64));
      memcpy (strides, l->strides, s->rank * sizeof (gint64));
      meta->strides = strides;
    }
  return v;
}

/* The strides of a view of @in (laid out as @lin) with @out's sizes, as
 * torch's computeStride() finds them: each run of dimensions of @in that
 * lie one after the other in storage (a chunk) must be made of whole
 * dimensions of @out.  FALSE where they cannot.  Of an unknown layout,
 * every dimension is taken as a chunk of its own: TRUE then means any
 * strides allow the view, and @lout is unknown. */
static gboolean
view_strides (const Shape  *in,
              const Layout *lin,
              const Shape  *out,
              Layout       *lout)
{
  gint   view_d = (gint) out->rank - 1;
  gint64 base, tensor_numel = 1, view_numel = 1;

  lout->known = lin->known;
  if (in->rank == 0)
    {
      for (guint i = 0; i < out->rank; i++)
        lout->strides[i] = 1;
      return TRUE;
    }
  if (_graft_tensor_numel (in) == 0)
    {
      if (in->rank == out->rank && memcmp (in->dims, out->dims, in->rank * sizeof (gint64)) == 0)
        *lout = *lin;
      else
        _graft_tensor_contiguous_layout (out, lout), lout->known = lin->known;
      return TRUE;
    }
  base = lin->known ? lin->strides[in->rank - 1] : 1;
  for (gint d = (gint) in->rank - 1; d >= 0; d--)
    {
      tensor_numel *= in->dims[d];
      if (d == 0 ||
          (in->dims[d - 1] != 1 &&
           (!lin->known || lin->strides[d - 1] != _graft_tensor_mul_size (tensor_numel, base))))
        {
          while (view_d >= 0 && (view_numel < tensor_numel || out->dims[view_d] == 1))
            {
              lout->strides[view_d] = _graft_tensor_mul_size (view_numel, base);
              view_numel *= out->dims[view_d];
              view_d--;
            }
          if (view_numel != tensor_numel)
            return FALSE;
          if (d > 0)
            {
              base = lin->known ? lin->strides[d - 1] : 1;
              tensor_numel = 1;
              view_numel = 1;
            }
        }
    }
  return view_d == -1;
}

/* The layout TensorIterator gives the result of an element-wise op of
 * @n tensors (@ins laid out as @lins) broadcast to @out: theirs where they
 * all have @out's sizes and one dense layout, else dense in the order of
 * the inputs' strides (the first input's, then the next where they tie),
 * as its reorder_dimensions() sorts them. */
static void
iter_layout (guint         n,
             const Shape  *ins,
             const Layout *lins,
             const Shape  *out,
             Layout       *lout)
{
  gint64   st[3][MAX_RANK];
  guint    perm[MAX_RANK];
  gboolean same = TRUE, contiguous = TRUE, dense = TRUE;
  gint64   next = 1;

  g_assert (n <= 3);
  for (guint k = 0; k < n; k++)
    if (!lins[k].known)
      {
        lout->known = FALSE;
        return;
      }
  for (guint k = 0; k < n; k++)
    {
      same = same && ins[k].rank == out->rank &&
             memcmp (ins[k].dims, out->dims, out->rank * sizeof (gint64)) == 0;
      contiguous = contiguous && is_contiguous_layout (&ins[k], &lins[k]);
      dense = dense && same && is_dense_layout (&ins[k], &lins[k]) &&
              memcmp (lins[k].strides, lins[0].strides, out->rank * sizeof (gint64)) == 0;
    }
  if (same && contiguous)
    {
      _graft_tensor_contiguous_layout (out, lout);
      return;
    }
  if (same && dense)
    {
      *lout = lins[0];
      return;
    }
  /* Each input's strides over @out's dimensions, 0 where it broadcasts. */
  for (guint k = 0; k < n; k++)
    for (guint i = 0; i < out->rank; i++)
      {
        guint lead = out->rank - ins[k].rank;

        st[k][i] = i < lead || (ins[k].dims[i - lead] == 1 && out->dims[i] != 1)
                       ? 0
                       : lins[k].strides[i - lead];
      }
  for (guint i = 0; i < out->rank; i++)
    perm[i] = out->rank - 1 - i;
  for (guint i = 1; i < out->rank; i++)
    {
      guint d1 = i;

      for (guint d0 = i; d0-- > 0;)
        {
          guint a = perm[d0], b = perm[d1];
          int   cmp = 0;

          for (guint k = 0; k < n && cmp == 0; k++)
            {
              if (st[k][a] == 0 || st[k][b] == 0)
                continue;
              if (st[k][a] < st[k][b])
                cmp = -1;
              else if (st[k][a] > st[k][b])
                cmp = 1;
              else if (out->dims[a] > out->dims[b])
                cmp = 1;
            }
          if (cmp > 0)
            {
              perm[d0] = b;
              perm[d1] = a;
              d1 = d0;
            }
          else if (cmp < 0)
            break;
        }
    }
  lout->known = TRUE;
  for (guint i = 0; i < out->rank; i++)
    {
      lout->strides[perm[i]] = next;
      next *= out->dims[perm[i]];
    }
  for (guint i = 0; i < out->rank; i++)
    if (perm[i] != out->rank - 1 - i)
      return;
  _graft_tensor_contiguous_layout (out, lout);
}

/* The layout of an element-wise op's result @out of one tensor @in laid
 * out as @lin (same sizes): @lin where it is dense, else dense in the
 * order of its strides, as TensorIterator lays it out. */
void
_graft_tensor_like_layout (const Shape  *in,
                           const Layout *lin,
                           const Shape  *out,
                           Layout       *lout)
{
  iter_layout (1, in, lin, out, lout);
}

/* The layout of the result @out of an element-wise op of up to three
 * operands @vals (Python numbers take no part; `torch.where(c, a, b)`
 * counts its condition first, as TensorIterator does). */
const Layout *
_graft_tensor_values_layout (const Value *const *vals,
                             guint               n,
                             const Shape        *out,
                             Layout             *l)
{
  Shape  ins[3];
  Layout lins[3];
  guint  k = 0;

  g_assert (n <= 3);
  for (guint i = 0; i < n; i++)
    {
      if (_graft_tensor_shape_of (vals[i], &ins[k]))
        {
          _graft_tensor_layout_of (vals[i], &ins[k], &lins[k]);
          k++;
        }
      else if (_graft_value_is_tensor (vals[i]))
        {
          l->known = FALSE;
          return l;
        }
    }
  iter_layout (k, ins, lins, out, l);
  return l;
}

/* The layout of the result @out of an element-wise op of @a and @b (a
 * Python number takes no part), in @l. */
const Layout *
_graft_tensor_binop_layout (const Value *a,
                            const Value *b,
                            const Shape *out,
                            Layout      *l)
{
  Shape  ins[2];
  Layout lins[2];
  guint  n = 0;

  if (_graft_tensor_shape_of (a, &ins[n]))
    _graft_tensor_layout_of (a, &ins[n], &lins[n]), n++;
  else if (_graft_tensor_meta_of (a) != NULL || a->kind == VAL_TENSOR || a->kind == VAL_PARAMETER)
    n = 3;
  if (n < 3 && _graft_tensor_shape_of (b, &ins[n]))
    _graft_tensor_layout_of (b, &ins[n], &lins[n]), n++;
  else if (_graft_tensor_meta_of (b) != NULL || b->kind == VAL_TENSOR || b->kind == VAL_PARAMETER)
    n = 3;
  if (n == 3)
    l->known = FALSE;
  else
    iter_layout (n, ins, lins, out, l);
  return l;
}

/* The layout of `recv.NAME(args)` (_graft_tensor_method_shape() found its shape @out from
 * @in, laid out as @lin): the views' strides as torch computes them, the
 * element-wise ops' as TensorIterator lays them out, contiguous for the
 * rest; view() raises torch's RuntimeError where the strides do not allow
 * it.  FALSE with the error raised. */
gboolean
_graft_tensor_method_layout (Tracer            *t,
                             const GraftPyExpr *at,
                             const char        *name,
                             PtrVec            *args,
                             const Shape       *in,
                             const Layout      *lin,
                             const Shape       *out,
                             Layout            *lout)
{
  guint  n = args != NULL ? args->len : 0;
  gint64 a, b;
  guint  d, e;
  Shape  sizes;

  lout->known = lin->known;
  if ((strcmp (name, "view") == 0 && n == 1 && _graft_tensor_dtype_arg (args->pdata[0]) != NULL) ||
      strcmp (name, "narrow") == 0)
    {
      *lout = *lin;
      return TRUE;
    }
  if (strcmp (name, "view") == 0 || strcmp (name, "reshape") == 0 ||
      strcmp (name, "flatten") == 0 || strcmp (name, "view_as") == 0 ||
      strcmp (name, "unflatten") == 0)
    {
      if (view_strides (in, lin, out, lout))
        return TRUE;
      if (name[0] != 'v' && name[0] != 'u')
        {
          /* reshape() copies what it cannot view. */
          _graft_tensor_contiguous_layout (out, lout);
          lout->known = lin->known;
          return TRUE;
        }
      if (!lin->known)
        {
          if (t != NULL && at != NULL)
            _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                "view() of this constant tensor is not modelled: Graft does not "
                                "know its strides, which decide whether torch can view it so");
          return FALSE;
        }
      return _graft_tensor_torch_error (t, at, "RuntimeError",
                                        "view size is not compatible with input tensor's size and "
                                        "stride (at "
                                        "least one dimension spans across two contiguous "
                                        "subspaces). Use "
                                        ".reshape(...) instead.");
    }
  if (strcmp (name, "contiguous") == 0 && !is_contiguous_layout (in, lin))
    {
      _graft_tensor_contiguous_layout (out, lout);
      return TRUE;
    }
  /* Copies into a new contiguous tensor. */
  if (strcmp (name, "tril") == 0 || strcmp (name, "triu") == 0 || strcmp (name, "repeat") == 0 ||
      strcmp (name, "masked_fill") == 0 || g_str_has_prefix (name, "new_"))
    {
      _graft_tensor_contiguous_layout (out, lout);
      return TRUE;
    }
  if (!lin->known)
    return TRUE;
  if (strcmp (name, "t") == 0 || strcmp (name, "transpose") == 0)
    {
      *lout = *lin;
      if (in->rank < 2)
        return TRUE;
      d = 0, e = 1;
      if (name[1] != '\0' &&
          (!_graft_tensor_plain_int (args->pdata[0], &a) ||
           !_graft_tensor_plain_int (args->pdata[1], &b) ||
           !_graft_tensor_wrap_dim (a, in->rank, &d) || !_graft_tensor_wrap_dim (b, in->rank, &e)))
        return TRUE;
      lout->strides[d] = lin->strides[e];
      lout->strides[e] = lin->strides[d];
      return TRUE;
    }
  if (strcmp (name, "permute") == 0)
    {
      if (!_graft_tensor_int_list (args, 0, &sizes))
        return TRUE;
      for (guint i = 0; i < sizes.rank; i++)
        if (_graft_tensor_wrap_dim (sizes.dims[i], in->rank, &d) && in->rank > 0)
          lout->strides[i] = lin->strides[d];
      return TRUE;
    }
  if (strcmp (name, "unsqueeze") == 0)
    {
      if (!_graft_tensor_plain_int (args->pdata[0], &a) ||
          !_graft_tensor_wrap_dim (a, in->rank + 1, &d))
        return TRUE;
      memcpy (lout->strides, lin->strides, d * sizeof (gint64));
      lout->strides[d] = d >= in->rank ? 1 : _graft_tensor_mul_size (in->dims[d], lin->strides[d]);
      memcpy (&lout->strides[d + 1], &lin->strides[d], (in->rank - d) * sizeof (gint64));
      return TRUE;
    }
  if (strcmp (name, "select") == 0)
    {
      if (!_graft_tensor_plain_int (args->pdata[0], &a) ||
          !_graft_tensor_wrap_dim (a, in->rank, &d))
        {
          lout->known = FALSE;
          return TRUE;
        }
      memcpy (lout->strides, lin->strides, d * sizeof (gint64));
      memcpy (&lout->strides[d], &lin->strides[d + 1], (in->rank - d - 1) * sizeof (gint64));
      return TRUE;
    }
  if (strcmp (name, "squeeze") == 0)
    {
      guint k = 0;
      guint mask;

      if (n == 1 && t != NULL && t->dialect->torch == GRAFT_TORCH_2_6 &&
          _graft_tensor_squeeze_dims (t, at, args->pdata[0], in, &mask))
        {
          for (guint i = 0; i < in->rank; i++)
            if ((mask & (1u << i)) == 0 || in->dims[i] != 1)
              lout->strides[k++] = lin->strides[i];
          return TRUE;
        }
      d = in->rank;
      if (n == 1 && (!_graft_tensor_plain_int (args->pdata[0], &a) ||
                     !_graft_tensor_wrap_dim (a, in->rank, &d)))
        return TRUE;
      for (guint i = 0; i < in->rank; i++)
        if (in->dims[i] != 1 || (n == 1 && i != d))
          lout->strides[k++] = lin->strides[i];
      return TRUE;
    }
  if (strcmp (name, "expand") == 0)
    {
      guint lead = out->rank - in->rank;

      for (guint i = 0; i < out->rank; i++)
        lout->strides[i] = i < lead || in->dims[i - lead] != out->dims[i] ? 0
                                                                          : lin->strides[i - lead];
      return TRUE;
    }
  if (strcmp (name, "detach") == 0 || strcmp (name, "cpu") == 0 || strcmp (name, "contiguous") == 0)
    {
      *lout = *lin;
      return TRUE;
    }
  if (strcmp (name, "clone") == 0 || _graft_tensor_conversion_dtype (name) != NULL ||
      strcmp (name, "to") == 0 || strcmp (name, "type_as") == 0 || strcmp (name, "type") == 0)
    {
      /* The same tensor where the dtype stays; else a copy of the same
       * strides where they are dense (memory_format=torch.preserve_format),
       * or dense in their order as TensorIterator lays them out. */
      if (name[0] != 'c' && strcmp (in->dtype, out->dtype) == 0)
        *lout = *lin;
      else if (is_dense_layout (in, lin))
        *lout = *lin;
      else
        iter_layout (1, in, lin, out, lout);
      return TRUE;
    }
  if (_graft_tensor_elementwise (name) != 0)
    {
      iter_layout (1, in, lin, out, lout);
      return TRUE;
    }
  /* The rest make new tensors, contiguous: sum(), mean(), amax() and
   * amin() too (over permuted inputs, both torches). */
  _graft_tensor_contiguous_layout (out, lout);
  return TRUE;
}

/**
 * _graft_tracer_tensor_layout_method:
 * @recv: a constant tensor
 * @name: `is_contiguous` or `stride`
 *
 * `recv.is_contiguous()`, `recv.stride()` and `recv.stride(d)` where Graft
 * follows @recv's strides.
 *
 * Returns: (nullable): the answer, or %NULL where Graft does not know it
 */
Value *
_graft_tracer_tensor_layout_method (Tracer     *t,
                                    Value      *recv,
                                    const char *name,
                                    PtrVec     *args,
                                    StrMap     *kwargs)
{
  Shape  s;
  Layout l;
  guint  n = args != NULL ? args->len : 0;
  gint64 a;
  guint  d;
  Value *tuple;

  if (!_graft_tensor_shape_of (recv, &s) || !_graft_tensor_no_kwargs (kwargs))
    return NULL;
  _graft_tensor_layout_of (recv, &s, &l);
  if (!l.known)
    return NULL;
  if (strcmp (name, "is_contiguous") == 0 && n == 0)
    return _graft_value_bool (is_contiguous_layout (&s, &l));
  if (strcmp (name, "stride") != 0 || n > 1)
    return NULL;
  if (n == 1)
    {
      if (!_graft_tensor_plain_int (args->pdata[0], &a) || s.rank == 0 ||
          !_graft_tensor_wrap_dim (a, s.rank, &d))
        return NULL;
      return _graft_value_int (t, l.strides[d]);
    }
  tuple = _graft_value_seq (t, VAL_TUPLE, s.rank);
  for (guint i = 0; i < s.rank; i++)
    _graft_value_seq_add (tuple, _graft_value_int (t, l.strides[i]));
  return tuple;
}

/* Whether einsum(@args) (einsum_shape() knew its shape) makes a
 * contiguous result: contiguous operands, no letter twice in one of them
 * (a diagonal is a view) and the result's letters in the order they first
 * come in the operands (else torch permutes its result). */
static gboolean
einsum_contiguous (PtrVec *args)
{
  const Value *eq = args->pdata[0];
  PtrVec      *ops = args;
  guint        first = 1, rank = 0, last = 0;
  gint         order[128];
  const char  *p = eq->str.s, *arrow = strstr (eq->str.s, "->");

  if (args->len == 2 && (((Value *) args->pdata[1])->kind == VAL_LIST ||
                         ((Value *) args->pdata[1])->kind == VAL_TUPLE))
    {
      ops = ((Value *) args->pdata[1])->seq.items;
      first = 0;
    }
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    order[i] = -1;
  for (guint k = first; k < ops->len; k++)
    {
      Shape  op;
      Layout l;

      if (!_graft_tensor_shape_of (ops->pdata[k], &op))
        return FALSE;
      _graft_tensor_layout_of (ops->pdata[k], &op, &l);
      if (!is_contiguous_layout (&op, &l))
        return FALSE;
      for (; *p != ',' && p != arrow; p++)
        if (*p != ' ' && order[(guchar) *p] < 0)
          order[(guchar) *p] = (gint) rank++;
      if (p != arrow)
        p++;
    }
  /* A letter twice in one operand. */
  for (const char *q = eq->str.s, *start = q; q <= arrow; q++)
    if (q == arrow || *q == ',')
      {
        for (const char *a = start; a < q; a++)
          if (*a != ' ' && memchr (a + 1, *a, q - a - 1) != NULL)
            return FALSE;
        start = q + 1;
      }
  for (p = arrow + 2; *p != '\0'; p++)
    {
      if (*p == ' ')
        continue;
      if (order[(guchar) *p] < (gint) last)
        return FALSE;
      last = (guint) order[(guchar) *p];
    }
  return TRUE;
}

/* The layout of `torch.NAME(args)`, of shape @out (function_shape()):
 * as the method for `torch.reshape(t, ...)` and such, @t's own where a
 * `*_like` factory copies its dense strides, contiguous where cat(),
 * stack() and the factories make it so, else unknown.  FALSE with
 * view()'s error raised. */
gboolean
_graft_tensor_function_layout (Tracer            *t,
                               const GraftPyExpr *at,
                               const char        *path,
                               PtrVec            *args,
                               const Shape       *out,
                               Layout            *l)
{
  const char *name = path + strlen ("torch.");
  Value      *first = args != NULL && args->len > 0 ? args->pdata[0] : NULL;
  Shape       in;
  Layout      lin;
  PtrVec      rest;

  _graft_tensor_contiguous_layout (out, l);
  if (strcmp (path, "torch.functional.einsum") == 0 || strcmp (name, "einsum") == 0)
    l->known = einsum_contiguous (args);
  else if (first != NULL && (first->kind == VAL_LIST || first->kind == VAL_TUPLE) &&
           (strcmp (name, "cat") == 0 || strcmp (name, "concat") == 0 ||
            strcmp (name, "stack") == 0))
    {
      /* A result of 4 or 5 dimensions may be channels last when its
       * inputs are: not followed. */
      for (guint i = 0; i < first->seq.items->len && (out->rank == 4 || out->rank == 5); i++)
        {
          Value *item = first->seq.items->pdata[i];

          if (!_graft_tensor_shape_of (item, &in))
            continue;
          _graft_tensor_layout_of (item, &in, &lin);
          if (!is_contiguous_layout (&in, &lin))
            l->known = FALSE;
        }
    }
  else if (first != NULL && g_str_has_suffix (name, "_like") && _graft_tensor_shape_of (first, &in))
    {
      _graft_tensor_layout_of (first, &in, &lin);
      if (is_dense_layout (&in, &lin))
        *l = lin;
      else
        iter_layout (1, &in, &lin, out, l);
    }
  else if (first != NULL && _graft_tensor_shape_of (first, &in) && strcmp (name, "outer") != 0 &&
           strcmp (name, "ger") != 0)
    {
      _graft_tensor_layout_of (first, &in, &lin);
      rest = *args;
      rest.pdata++;
      rest.len--;
      return _graft_tensor_method_layout (t, at, name, &rest, &in, &lin, out, l);
    }
  return TRUE;
}
