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
 * transposes, unsqueeze and squeeze, expand and repeat, integer and slice
 * indexing, dtype conversions, element-wise arithmetic with torch's
 * broadcasting and type promotion, and the factories torch.arange,
 * torch.full, torch.eye, torch.linspace, the `*_like` and `new_*` ones,
 * torch.cat, torch.stack and torch.outer.  Anything else, and any case
 * whose rule is not sure here (a size that does not fit, mixed dtypes
 * torch promotes in ways not listed), gives a tensor of unknown make, as
 * before: reading its shape is then refused, never guessed.
 */
#include "config.h"

#include "graft-tracer-private.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* At most this many dimensions are followed (torch's own limit is 64). */
#define MAX_RANK 16

typedef struct
{
  guint       rank;
  gint64      dims[MAX_RANK];
  const char *dtype; /* `torch.float32` */
} Shape;

static const TensorMeta *
meta_of (const Value *v)
{
  return (v->kind == VAL_TENSOR || v->kind == VAL_PARAMETER) ? v->tensor.meta : NULL;
}

/* @v's shape and dtype, if a factory or this file knows them on the CPU. */
static gboolean
shape_of (const Value *v,
          Shape       *out)
{
  const TensorMeta *m = meta_of (v);

  if (m == NULL || m->shape->seq.items->len > MAX_RANK || m->dtype->kind != VAL_SYMBOL ||
      m->device->kind != VAL_DEVICE || strcmp (m->device->path, "cpu") != 0)
    return FALSE;
  out->rank = m->shape->seq.items->len;
  for (guint i = 0; i < out->rank; i++)
    out->dims[i] = ((Value *) m->shape->seq.items->pdata[i])->i;
  out->dtype = m->dtype->path;
  return TRUE;
}

static const char *tensor_type_name (const char *dtype);
static const char *scalar_type_name (const char *dtype);

/* A new constant tensor of @s on the CPU. */
static Value *
made (Tracer      *t,
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

static gboolean
plain_int (const Value *v,
           gint64      *out)
{
  if (v->kind != VAL_INT || _graft_value_is_bigint (v))
    return FALSE;
  *out = v->i;
  return TRUE;
}

/* Sizes given as ints from @args[@from] on, or as one tuple or list of
 * ints (a torch.Size too). */
static gboolean
int_list (PtrVec *args,
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
        if (!plain_int (first->seq.items->pdata[i], &out->dims[out->rank++]))
          return FALSE;
      return TRUE;
    }
  if (n - MIN (n, from) > MAX_RANK)
    return FALSE;
  for (guint i = from; i < n; i++)
    if (!plain_int (args->pdata[i], &out->dims[out->rank++]))
      return FALSE;
  return TRUE;
}

static gboolean
no_kwargs (StrMap *kwargs)
{
  return kwargs == NULL || kwargs->keys->len == 0;
}

/* A dimension @d of a tensor of @rank dimensions, wrapped as torch wraps
 * it; FALSE out of range. */
static gboolean
wrap_dim (gint64 d,
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
static gint64
mul_size (gint64 a,
          gint64 b)
{
  gint64 out;

  return __builtin_mul_overflow (a, b, &out) ? -1 : out;
}

/* The elements of @s, or -1 past int64. */
static gint64
numel (const Shape *s)
{
  gint64 n = 1;

  for (guint i = 0; i < s->rank && n >= 0; i++)
    n = mul_size (n, s->dims[i]);
  return n;
}

/* Whether every size is small enough that products stay far from int64's
 * end (a table of a million by a million is 10^12). */
static gboolean
sane (const Shape *s)
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
static gboolean
torch_error (Tracer            *t,
             const GraftPyExpr *at,
             const char        *exception,
             const char        *format,
             ...) G_GNUC_PRINTF (4, 5);

static gboolean
torch_error (Tracer            *t,
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

/* wrap_dim(), raising torch's IndexError out of range. */
static gboolean
check_dim (Tracer            *t,
           const GraftPyExpr *at,
           gint64             d,
           guint              rank,
           guint             *out)
{
  gint64 r = MAX (rank, 1);

  if (wrap_dim (d, rank, out))
    return TRUE;
  return torch_error (t, at, "IndexError",
                      "Dimension out of range (expected to be in range of [%" G_GINT64_FORMAT
                      ", %" G_GINT64_FORMAT "], but got %" G_GINT64_FORMAT ")",
                      -r, r - 1, d);
}

/* `[3, -1]`, as torch prints sizes. */
static char *
dims_str (const gint64 *dims,
          guint         rank)
{
  GString *str = g_string_new ("[");

  for (guint i = 0; i < rank; i++)
    g_string_append_printf (str, "%s%" G_GINT64_FORMAT, i > 0 ? ", " : "", dims[i]);
  g_string_append_c (str, ']');
  return g_string_free (str, FALSE);
}

/* Where the elements of a constant tensor lie in its storage: its strides
 * (in elements) as torch keeps them, or unknown where an op made it whose
 * result's strides Graft does not follow.  Only view() reads them: it
 * fails where the new sizes do not fit the strides (torch's
 * computeStride()). */
typedef struct
{
  gboolean known;
  gint64   strides[MAX_RANK];
} Layout;

/* torch's contiguous strides of @s (a size 0 counts as 1). */
static void
contiguous_layout (const Shape *s,
                   Layout      *out)
{
  gint64 next = 1;

  out->known = TRUE;
  for (guint i = s->rank; i-- > 0;)
    {
      out->strides[i] = next;
      next = mul_size (next, MAX (s->dims[i], 1));
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
  if (numel (s) == 0)
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

/* @v's layout, @s its shape (shape_of()). */
static void
layout_of (const Value *v,
           const Shape *s,
           Layout      *out)
{
  const TensorMeta *m = meta_of (v);

  if (m == NULL || m->strides_unknown)
    out->known = FALSE;
  else if (m->strides == NULL)
    contiguous_layout (s, out);
  else
    {
      out->known = TRUE;
      memcpy (out->strides, m->strides, s->rank * sizeof (gint64));
    }
}

/* made(), of layout @l. */
static Value *
made_laid (Tracer       *t,
           const Shape  *s,
           const Layout *l)
{
  Value      *v = made (t, s);
  TensorMeta *meta = (TensorMeta *) v->tensor.meta;
  gint64     *strides;
  Layout      plain;

  /* Kept unless they are the contiguous ones, exactly: stride() reads
   * those of sizes 1 too. */
  contiguous_layout (s, &plain);
  for (guint i = 0; i < s->rank && l->known; i++)
    if (l->strides[i] < 0)
      meta->strides_unknown = TRUE; /* past int64 (mul_size()) */
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
  if (numel (in) == 0)
    {
      if (in->rank == out->rank && memcmp (in->dims, out->dims, in->rank * sizeof (gint64)) == 0)
        *lout = *lin;
      else
        contiguous_layout (out, lout), lout->known = lin->known;
      return TRUE;
    }
  base = lin->known ? lin->strides[in->rank - 1] : 1;
  for (gint d = (gint) in->rank - 1; d >= 0; d--)
    {
      tensor_numel *= in->dims[d];
      if (d == 0 || (in->dims[d - 1] != 1 &&
                     (!lin->known || lin->strides[d - 1] != mul_size (tensor_numel, base))))
        {
          while (view_d >= 0 && (view_numel < tensor_numel || out->dims[view_d] == 1))
            {
              lout->strides[view_d] = mul_size (view_numel, base);
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
      contiguous_layout (out, lout);
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
  contiguous_layout (out, lout);
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
  gint64           total = numel (in);
  g_autofree char *text = NULL;

  if (total < 0)
    return FALSE;
  for (guint i = 0; i < sizes->rank; i++)
    if (sizes->dims[i] == -1)
      {
        if (infer >= 0)
          return torch_error (t, at, "RuntimeError", "only one dimension can be inferred");
        infer = (gint) i;
      }
    else if (sizes->dims[i] < 0)
      return torch_error (t, at, "RuntimeError", "invalid shape dimension %" G_GINT64_FORMAT,
                          sizes->dims[i]);
    else if (known >= 0)
      known = mul_size (known, sizes->dims[i]);
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
          text = dims_str (sizes->dims, sizes->rank);
          return torch_error (t, at, "RuntimeError",
                              "cannot reshape tensor of 0 elements into shape %s because the "
                              "unspecified dimension size -1 can be any value and is ambiguous",
                              text);
        }
      sizes->dims[infer] = total / known;
      return TRUE;
    }
  text = dims_str (sizes->dims, sizes->rank);
  return torch_error (t, at, "RuntimeError",
                      "shape '%s' is invalid for input of size %" G_GINT64_FORMAT, text, total);
}

/* Broadcasting @a and @b into @out (shapes only), with torch's
 * RuntimeError where they do not (the rightmost such dimension, as torch
 * names it). */
static gboolean
broadcast (Tracer            *t,
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
        return torch_error (t, at, "RuntimeError",
                            "The size of tensor a (%" G_GINT64_FORMAT
                            ") must match the size of tensor b (%" G_GINT64_FORMAT
                            ") at non-singleton dimension %u",
                            x, y, out->rank - 1 - i);
      out->dims[out->rank - 1 - i] = x == 1 ? y : x;
    }
  return TRUE;
}

/* The kind of a dtype, as torch's promotion orders them: 1 bool, 2 an
 * integer, 3 a floating type; 0 another (complex). */
static int
dtype_kind (const char *dtype,
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

static gboolean
is_floating (const char *dtype)
{
  int bytes;

  return dtype_kind (dtype, &bytes) == 3;
}

/* torch's promotion of two tensors' dtypes, where it is one of theirs: of
 * two kinds the higher's; of one kind the wider, except where torch makes
 * a third (uint8 with int8, float16 with bfloat16). */
static const char *
promote (const Shape *a,
         const Shape *b)
{
  int ab, bb;
  int ak = dtype_kind (a->dtype, &ab), bk = dtype_kind (b->dtype, &bb);

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
static const char *
promote_number (const char  *dtype,
                const Value *number)
{
  int bytes;
  int kind = dtype_kind (dtype, &bytes);

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

/* @a's and @b's dtype after promotion, and the shape they broadcast to;
 * one of them may be a Python number.  Two tensors whose sizes do not
 * broadcast are torch's RuntimeError, whatever their dtypes. */
static gboolean
binary_shape (Tracer            *t,
              const GraftPyExpr *at,
              const Value       *a,
              const Value       *b,
              Shape             *out)
{
  Shape sa, sb;

  if (shape_of (a, &sa) && shape_of (b, &sb))
    return broadcast (t, at, &sa, &sb, out) && (out->dtype = promote (&sa, &sb)) != NULL;
  if (shape_of (a, &sa) && meta_of (b) == NULL && b->kind != VAL_TENSOR &&
      b->kind != VAL_PARAMETER)
    {
      *out = sa;
      return (out->dtype = promote_number (sa.dtype, b)) != NULL;
    }
  if (shape_of (b, &sb) && a->kind != VAL_TENSOR && a->kind != VAL_PARAMETER)
    {
      *out = sb;
      return (out->dtype = promote_number (sb.dtype, a)) != NULL;
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
    n = mul_size (n, s->dims[i]);
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

  if (!shape_of (a, &sa) || !shape_of (b, &sb))
    return FALSE;
  if (sa.rank == 0 || sb.rank == 0)
    return torch_error (t, at, "RuntimeError",
                        "both arguments to matmul need to be at least 1D, but they are %uD and "
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
          rows = mul_size (prod_dims (&sb, 0, sb.rank - 2), cols);
          cols = sa.rank == 2 ? sa.dims[0] : 1;
          k_a = sb.dims[sb.rank - 2];
          k_b = sa.dims[sa.rank - 1];
        }
      if (rows < 0)
        return FALSE;
      if (sa.rank == 1 && sb.rank == 1)
        {
          if (one_dtype && k_a != k_b)
            return torch_error (t, at, "RuntimeError",
                                "inconsistent tensor size, expected tensor [%" G_GINT64_FORMAT
                                "] and src [%" G_GINT64_FORMAT
                                "] to have the same number of elements, but got %" G_GINT64_FORMAT
                                " and %" G_GINT64_FORMAT " elements respectively",
                                k_a, k_b, k_a, k_b);
        }
      else if (swap ? sa.rank == 1 : sb.rank == 1)
        {
          if (k_a != k_b && !one_dtype)
            return not_modelled (t, at, "torch.matmul");
          if (k_a != k_b && old)
            return torch_error (t, at, "RuntimeError",
                                "size mismatch, got %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                                "x%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT,
                                rows, rows, k_a, k_b);
          if (k_a != k_b)
            return torch_error (t, at, "RuntimeError",
                                "size mismatch, got input (%" G_GINT64_FORMAT
                                "), mat (%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                                "), vec (%" G_GINT64_FORMAT ")",
                                rows, rows, k_a, k_b);
        }
      else if (k_a != k_b)
        return torch_error (t, at, "RuntimeError",
                            "mat1 and mat2 shapes cannot be multiplied (%" G_GINT64_FORMAT
                            "x%" G_GINT64_FORMAT " and %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                            ")",
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
      if (!one_dtype && (k_a != k_b || !broadcast (NULL, NULL, &ba, &bb, s)))
        return not_modelled (t, at, "torch.matmul");
      if (!broadcast (t, at, &ba, &bb, s) || (batch = prod_dims (s, 0, s->rank)) < 0)
        return FALSE;
      if (k_a != k_b)
        return torch_error (t, at, "RuntimeError",
                            "Expected size for first two dimensions of batch2 tensor to be: "
                            "[%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                            "] but got: [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "].",
                            batch, k_a, batch, k_b);
    }
  if (!one_dtype)
    return FALSE;
  /* The batch dimensions, before the matrices' last two (one of a vector). */
  ba = sa;
  ba.rank = sa.rank >= 2 ? sa.rank - 2 : 0;
  bb = sb;
  bb.rank = sb.rank >= 2 ? sb.rank - 2 : 0;
  if (!broadcast (NULL, NULL, &ba, &bb, s) || s->rank + 2 > MAX_RANK)
    return FALSE;
  if (sa.rank >= 2)
    s->dims[s->rank++] = sa.dims[sa.rank - 2];
  if (sb.rank >= 2)
    s->dims[s->rank++] = sb.dims[sb.rank - 1];
  s->dtype = sa.dtype;
  return sane (s);
}

/* Whether torch checks the sizes of `a op b` of two tensors before
 * anything else: the element-wise operators (not `-` of two bool
 * tensors, refused first). */
static gboolean
broadcasts_first (int          op,
                  const Value *a,
                  const Value *b)
{
  Shape sa, sb;

  if (op == GRAFT_PY_BIN_SUB && shape_of (a, &sa) && shape_of (b, &sb) &&
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
static gboolean
sub_of_bool (Tracer            *t,
             const GraftPyExpr *at,
             const Value       *a,
             const Value       *b)
{
  Shape    sa, sb;
  gboolean known_a = shape_of (a, &sa), known_b = shape_of (b, &sb);
  gboolean bool_a, bool_b;

  if (!known_a && !known_b)
    return FALSE;
  if ((!known_a && meta_of (a) != NULL) || (!known_b && meta_of (b) != NULL))
    return FALSE;
  bool_a = known_a ? strcmp (sa.dtype, "torch.bool") == 0 : a->kind == VAL_BOOL;
  bool_b = known_b ? strcmp (sb.dtype, "torch.bool") == 0 : b->kind == VAL_BOOL;
  if (!bool_a && !bool_b)
    return FALSE;
  if (bool_a && bool_b)
    torch_error (t, at, "RuntimeError",
                 "Subtraction, the `-` operator, with two bool tensors is not supported. Use "
                 "the `^` or `logical_xor()` operator instead.");
  else
    torch_error (t, at, "RuntimeError",
                 "Subtraction, the `-` operator, with a bool tensor is not supported. If you "
                 "are trying to invert a mask, use the `~` or `logical_not()` operator "
                 "instead.");
  return TRUE;
}

/* The layout of the result @out of an element-wise op of @a and @b (a
 * Python number takes no part), in @l. */
static const Layout *
binop_layout (const Value *a,
              const Value *b,
              const Shape *out,
              Layout      *l)
{
  Shape  ins[2];
  Layout lins[2];
  guint  n = 0;

  if (shape_of (a, &ins[n]))
    layout_of (a, &ins[n], &lins[n]), n++;
  else if (meta_of (a) != NULL || a->kind == VAL_TENSOR || a->kind == VAL_PARAMETER)
    n = 3;
  if (n < 3 && shape_of (b, &ins[n]))
    layout_of (b, &ins[n], &lins[n]), n++;
  else if (meta_of (b) != NULL || b->kind == VAL_TENSOR || b->kind == VAL_PARAMETER)
    n = 3;
  if (n == 3)
    l->known = FALSE;
  else
    iter_layout (n, ins, lins, out, l);
  return l;
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
      contiguous_layout (&s, &l);
      return made_laid (t, &s, &l);
    }
  if (op == GRAFT_PY_BIN_SUB && sub_of_bool (t, at, a, b))
    return t->error != NULL ? NULL : _graft_value_tensor (t);
  if (!binary_shape (t, broadcasts_first (op, a, b) ? at : NULL, a, b, &s))
    return t->error != NULL ? NULL : _graft_value_tensor (t);
  if (op < 0)
    s.dtype = "torch.bool";
  else if (op == GRAFT_PY_BIN_TRUEDIV && !is_floating (s.dtype))
    s.dtype = "torch.float32";
  else if ((op == GRAFT_PY_BIN_BITAND || op == GRAFT_PY_BIN_BITOR || op == GRAFT_PY_BIN_BITXOR) &&
           is_floating (s.dtype))
    {
      torch_error (t, at, "RuntimeError", "\"%s_cpu\" not implemented for '%s'",
                   op == GRAFT_PY_BIN_BITAND  ? "bitwise_and"
                   : op == GRAFT_PY_BIN_BITOR ? "bitwise_or"
                                              : "bitwise_xor",
                   scalar_type_name (s.dtype));
      return t->error != NULL ? NULL : _graft_value_tensor (t);
    }
  else if (op != GRAFT_PY_BIN_ADD && op != GRAFT_PY_BIN_SUB && op != GRAFT_PY_BIN_MUL &&
           op != GRAFT_PY_BIN_POW && op != GRAFT_PY_BIN_TRUEDIV && op != GRAFT_PY_BIN_FLOORDIV &&
           op != GRAFT_PY_BIN_MOD && op != GRAFT_PY_BIN_BITAND && op != GRAFT_PY_BIN_BITOR &&
           op != GRAFT_PY_BIN_BITXOR)
    return _graft_value_tensor (t);
  if (op == GRAFT_PY_BIN_SUB && strcmp (s.dtype, "torch.bool") == 0)
    return _graft_value_tensor (t); /* torch's RuntimeError */
  return made_laid (t, &s, binop_layout (a, b, &s, &l));
}

/* The dtype a conversion method gives, or NULL. */
static const char *
conversion_dtype (const char *name)
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

/* Element-wise methods and functions: 'k' keeps the dtype, 'f' makes a
 * floating one of an integer or bool input. */
static char
elementwise (const char *name)
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

  if (how == 'f' && !is_floating (s->dtype))
    {
      if (dtype_kind (s->dtype, &bytes) == 0)
        return FALSE;
      s->dtype = "torch.float32";
    }
  return TRUE;
}

/* A dtype argument: a torch dtype, as a VAL_SYMBOL. */
static const char *
dtype_arg (const Value *v)
{
  int bytes;

  if (v == NULL || v->kind != VAL_SYMBOL || dtype_kind (v->path, &bytes) == 0)
    return NULL;
  return v->path;
}

static gboolean
is_cpu (const Value *v)
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
  if (n == 1 && n_kw == 0 && shape_of (args->pdata[0], &other))
    {
      s->dtype = other.dtype;
      return TRUE;
    }
  for (guint i = 0; i < n; i++)
    {
      Value *a = args->pdata[i];

      if (dtype_arg (a) != NULL && i == n - 1)
        s->dtype = dtype_arg (a);
      else if (!(i == 0 && is_cpu (a)))
        return FALSE;
    }
  if (kw_device != NULL && !is_cpu (kw_device))
    return FALSE;
  if (kw_dtype != NULL && (s->dtype = dtype_arg (kw_dtype)) == NULL)
    return FALSE;
  return TRUE;
}

/* new_zeros(size) and such: @recv's dtype and device unless said. */
static gboolean
new_shape (PtrVec *args,
           StrMap *kwargs,
           guint   n_sizes_end,
           Shape  *s)
{
  Value      *kw_dtype = kwargs != NULL ? _graft_strmap_get (kwargs, "dtype") : NULL;
  const char *dtype = s->dtype;
  guint       n = args != NULL ? args->len : 0;

  if (kwargs != NULL && kwargs->keys->len != (kw_dtype != NULL))
    return FALSE;
  if (kw_dtype != NULL && (dtype = dtype_arg (kw_dtype)) == NULL)
    return FALSE;
  if (n < n_sizes_end + 1)
    return FALSE;
  {
    PtrVec sizes = *args;

    sizes.len = n - n_sizes_end;
    if (!int_list (&sizes, 0, s) || !sane (s))
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
  int    kind = dtype_kind (s->dtype, &bytes);

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
          if (!plain_int (dims->seq.items->pdata[i], &a) || !check_dim (t, at, a, s->rank, &d))
            return FALSE;
          if ((mask & (1u << d)) != 0)
            return torch_error (t, at, "RuntimeError",
                                "dim %u appears multiple times in the list of dims", d);
          mask |= 1u << d;
        }
    }
  else if (plain_int (dims, &a) && check_dim (t, at, a, s->rank, &d))
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
  const char      *type = tensor_type_name (s->dtype);
  g_autofree char *want = dims_str (sizes->dims, sizes->rank);
  g_autofree char *have = dims_str (s->dims, s->rank);

  if (sizes->rank < s->rank)
    {
      if (type == NULL)
        return not_modelled (t, at, "expand()");
      return torch_error (t, at, "RuntimeError",
                          "expand(torch.%s{%s}, size=%s): the number of sizes provided (%u) must "
                          "be greater or equal to the number of dimensions in the tensor (%u)",
                          type, have, want, sizes->rank, s->rank);
    }
  for (guint i = sizes->rank; i-- > 0 && s->rank > 0;)
    {
      guint  lead = sizes->rank - s->rank;
      gint64 old = i >= lead ? s->dims[i - lead] : 1;

      if (sizes->dims[i] == -1)
        {
          if (i < lead)
            return torch_error (t, at, "RuntimeError",
                                "The expanded size of the tensor (-1) isn't allowed in a leading, "
                                "non-existing dimension %u",
                                i);
          sizes->dims[i] = old;
        }
      else if (old != sizes->dims[i] && old != 1)
        return torch_error (t, at, "RuntimeError",
                            "The expanded size of the tensor (%" G_GINT64_FORMAT
                            ") must match the existing size (%" G_GINT64_FORMAT
                            ") at non-singleton dimension %u.  Target sizes: %s.  Tensor sizes: "
                            "%s",
                            sizes->dims[i], old, i, want, have);
    }
  /* A negative size left (a zero-dimensional tensor's sizes are not
   * checked) fails when torch counts the elements. */
  for (guint i = 0; i < sizes->rank; i++)
    if (sizes->dims[i] < 0)
      return torch_error (t, at, "RuntimeError", "numel: integer multiplication overflow");
  sizes->dtype = s->dtype;
  *s = *sizes;
  return sane (s);
}

/* The shape of a method's result on a tensor of @s; FALSE where Graft does
 * not know it, or with torch's error raised at @at (when not %NULL) where
 * the arguments do not fit @s. */
static gboolean
method_shape (Tracer            *t,
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

  if ((how = elementwise (name)) != 0)
    {
      if (strcmp (name, "tril") == 0 || strcmp (name, "triu") == 0)
        {
          if (s->rank < 2 || n > 1 || !no_kwargs (kwargs) ||
              (n == 1 && !plain_int (args->pdata[0], &a)))
            return FALSE;
        }
      else if (n > 0 || !no_kwargs (kwargs))
        return FALSE;
      return elementwise_shape (how, s);
    }
  if ((dtype = conversion_dtype (name)) != NULL)
    {
      if (n > 0 || !no_kwargs (kwargs))
        return FALSE;
      s->dtype = dtype;
      return TRUE;
    }
  if (strcmp (name, "to") == 0)
    return to_shape (args, kwargs, s);
  if (strcmp (name, "type_as") == 0)
    {
      Shape other;

      if (n != 1 || !no_kwargs (kwargs) || !shape_of (args->pdata[0], &other))
        return FALSE;
      s->dtype = other.dtype;
      return TRUE;
    }
  if (strcmp (name, "sum") == 0 || strcmp (name, "mean") == 0 || strcmp (name, "amax") == 0 ||
      strcmp (name, "amin") == 0)
    return reduction (t, at, name, args, kwargs, s);
  if (strcmp (name, "new_zeros") == 0 || strcmp (name, "new_ones") == 0 ||
      strcmp (name, "new_empty") == 0)
    return new_shape (args, kwargs, 0, s);
  if (strcmp (name, "new_full") == 0)
    return n == 2 && new_shape (args, kwargs, 1, s);
  if (!no_kwargs (kwargs))
    return FALSE;
  if (strcmp (name, "view") == 0 && n == 1 && (dtype = dtype_arg (args->pdata[0])) != NULL)
    {
      int bytes, same;

      /* A dtype of the same size: the same elements read as it. */
      dtype_kind (dtype, &bytes);
      dtype_kind (s->dtype, &same);
      if (bytes != same)
        return FALSE;
      s->dtype = dtype;
      return TRUE;
    }
  if (strcmp (name, "type") == 0)
    {
      if (n != 1 || (dtype = dtype_arg (args->pdata[0])) == NULL)
        return FALSE;
      s->dtype = dtype;
      return TRUE;
    }
  if (strcmp (name, "view") == 0 || strcmp (name, "reshape") == 0)
    return int_list (args, 0, &sizes) && (n > 0) && reshape (t, at, s, &sizes) &&
           (*s = sizes, TRUE);
  if (strcmp (name, "view_as") == 0)
    {
      Shape other;

      if (n != 1 || !shape_of (args->pdata[0], &other))
        return FALSE;
      sizes = other;
      return reshape (t, at, s, &sizes) && (*s = sizes, TRUE);
    }
  if (strcmp (name, "narrow") == 0)
    {
      gint64 len;

      /* Only where it fits: torch's errors otherwise are not modelled. */
      if (n != 3 || !plain_int (args->pdata[0], &a) || !plain_int (args->pdata[1], &b) ||
          !plain_int (args->pdata[2], &len) || s->rank == 0 || !wrap_dim (a, s->rank, &d))
        return FALSE;
      if (b >= 0 && b <= s->dims[d] && len >= 0 && b > s->dims[d] - len)
        return torch_error (t, at, "RuntimeError",
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
          !plain_int (args->pdata[0], &a) || s->rank == 0 || !wrap_dim (a, s->rank, &d))
        return FALSE;
      one = *args;
      one.pdata++;
      one.len = 1;
      if (!int_list (&one, 0, &sizes) || sizes.rank == 0 || s->rank + sizes.rank - 1 > MAX_RANK)
        return FALSE;
      /* Only where it fits, as for narrow(). */
      for (guint i = 0; i < sizes.rank; i++)
        if (sizes.dims[i] == -1 && infer < 0)
          infer = (gint) i;
        else if (sizes.dims[i] < 0 || (known = mul_size (known, sizes.dims[i])) < 0)
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
        return torch_error (t, at, "RuntimeError",
                            "t() expects a tensor with <= 2 dimensions, but self is %uD", s->rank);
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
      if (n != 2 || !plain_int (args->pdata[0], &a) || !plain_int (args->pdata[1], &b))
        return FALSE;
      if (!check_dim (t, at, a, s->rank, &d) || !check_dim (t, at, b, s->rank, &e))
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

      if (!int_list (args, 0, &sizes) || n == 0)
        return FALSE;
      if (sizes.rank != s->rank)
        return torch_error (t, at, "RuntimeError",
                            "permute(sparse_coo): number of dimensions in the tensor input does "
                            "not match the length of the desired ordering of dimensions i.e. "
                            "input.dim() = %u is not equal to len(dims) = %u",
                            s->rank, sizes.rank);
      for (guint i = 0; i < sizes.rank; i++)
        {
          if (!check_dim (t, at, sizes.dims[i], s->rank, &d))
            return FALSE;
          if ((seen & (1u << d)) != 0)
            return torch_error (t, at, "RuntimeError",
                                "permute(): duplicate dims are not allowed.");
          seen |= 1u << d;
          sizes.dims[i] = s->dims[d];
        }
      memcpy (s->dims, sizes.dims, sizeof (s->dims));
      return TRUE;
    }
  if (strcmp (name, "unsqueeze") == 0)
    {
      if (n != 1 || !plain_int (args->pdata[0], &a) || s->rank >= MAX_RANK ||
          !check_dim (t, at, a, s->rank + 1, &d))
        return FALSE;
      memmove (&s->dims[d + 1], &s->dims[d], (s->rank - d) * sizeof (gint64));
      s->dims[d] = 1;
      s->rank++;
      return TRUE;
    }
  if (strcmp (name, "squeeze") == 0)
    {
      guint k = 0;

      if (n > 1 || (n == 1 && !plain_int (args->pdata[0], &a)))
        return FALSE;
      if (n == 1 && !check_dim (t, at, a, s->rank, &d))
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

      if (n > 2 || (n > 0 && !plain_int (args->pdata[0], &start)) ||
          (n > 1 && !plain_int (args->pdata[1], &end)))
        return FALSE;
      if (!check_dim (t, at, start, s->rank, &d) || !check_dim (t, at, end, s->rank, &e))
        return FALSE;
      if (s->rank == 0)
        {
          s->rank = 1;
          s->dims[0] = 1;
          return TRUE;
        }
      if (d > e)
        return torch_error (t, at, "RuntimeError",
                            "flatten() has invalid args: start_dim cannot come after end_dim");
      for (guint i = d; i <= e; i++)
        if ((prod = mul_size (prod, s->dims[i])) < 0)
          return FALSE;
      s->dims[d] = prod;
      memmove (&s->dims[d + 1], &s->dims[e + 1], (s->rank - e - 1) * sizeof (gint64));
      s->rank -= e - d;
      return TRUE;
    }
  if (strcmp (name, "expand") == 0)
    return int_list (args, 0, &sizes) && n > 0 && expand_shape (t, at, s, &sizes);
  if (strcmp (name, "repeat") == 0)
    {
      if (!int_list (args, 0, &sizes) || n == 0)
        return FALSE;
      if (sizes.rank < s->rank)
        return torch_error (t, at, "RuntimeError",
                            "Number of dimensions of repeat dims can not be smaller than number "
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
            g_autofree char *text = dims_str (sizes.dims, sizes.rank);

            return torch_error (t, at, "RuntimeError",
                                "Trying to create tensor with negative dimension %" G_GINT64_FORMAT
                                ": %s",
                                sizes.dims[i], text);
          }
      sizes.dtype = s->dtype;
      *s = sizes;
      return sane (s);
    }
  if (strcmp (name, "masked_fill") == 0)
    {
      Shape mask, out;

      if (n != 2 || !shape_of (args->pdata[0], &mask) || strcmp (mask.dtype, "torch.bool") != 0)
        return FALSE;
      /* torch broadcasts the mask (named a) and the tensor (b), and fills
       * a copy of the tensor expanded. */
      if (!broadcast (t, at, &mask, s, &out))
        return FALSE;
      out.dtype = s->dtype;
      *s = out;
      return args->pdata[1] != NULL && (((Value *) args->pdata[1])->kind == VAL_FLOAT ||
                                        ((Value *) args->pdata[1])->kind == VAL_INT ||
                                        ((Value *) args->pdata[1])->kind == VAL_BOOL);
    }
  return FALSE;
}

/* The layout of `recv.NAME(args)` (method_shape() found its shape @out from
 * @in, laid out as @lin): the views' strides as torch computes them, the
 * element-wise ops' as TensorIterator lays them out, contiguous for the
 * rest; view() raises torch's RuntimeError where the strides do not allow
 * it.  FALSE with the error raised. */
static gboolean
method_layout (Tracer            *t,
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
  if ((strcmp (name, "view") == 0 && n == 1 && dtype_arg (args->pdata[0]) != NULL) ||
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
          contiguous_layout (out, lout);
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
      return torch_error (t, at, "RuntimeError",
                          "view size is not compatible with input tensor's size and stride (at "
                          "least one dimension spans across two contiguous subspaces). Use "
                          ".reshape(...) instead.");
    }
  if (strcmp (name, "contiguous") == 0 && !is_contiguous_layout (in, lin))
    {
      contiguous_layout (out, lout);
      return TRUE;
    }
  /* Copies into a new contiguous tensor. */
  if (strcmp (name, "tril") == 0 || strcmp (name, "triu") == 0 || strcmp (name, "repeat") == 0 ||
      strcmp (name, "masked_fill") == 0 || g_str_has_prefix (name, "new_"))
    {
      contiguous_layout (out, lout);
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
      if (name[1] != '\0' && (!plain_int (args->pdata[0], &a) || !plain_int (args->pdata[1], &b) ||
                              !wrap_dim (a, in->rank, &d) || !wrap_dim (b, in->rank, &e)))
        return TRUE;
      lout->strides[d] = lin->strides[e];
      lout->strides[e] = lin->strides[d];
      return TRUE;
    }
  if (strcmp (name, "permute") == 0)
    {
      if (!int_list (args, 0, &sizes))
        return TRUE;
      for (guint i = 0; i < sizes.rank; i++)
        if (wrap_dim (sizes.dims[i], in->rank, &d) && in->rank > 0)
          lout->strides[i] = lin->strides[d];
      return TRUE;
    }
  if (strcmp (name, "unsqueeze") == 0)
    {
      if (!plain_int (args->pdata[0], &a) || !wrap_dim (a, in->rank + 1, &d))
        return TRUE;
      memcpy (lout->strides, lin->strides, d * sizeof (gint64));
      lout->strides[d] = d >= in->rank ? 1 : mul_size (in->dims[d], lin->strides[d]);
      memcpy (&lout->strides[d + 1], &lin->strides[d], (in->rank - d) * sizeof (gint64));
      return TRUE;
    }
  if (strcmp (name, "squeeze") == 0)
    {
      guint k = 0;

      d = in->rank;
      if (n == 1 && (!plain_int (args->pdata[0], &a) || !wrap_dim (a, in->rank, &d)))
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
  if (strcmp (name, "clone") == 0 || conversion_dtype (name) != NULL ||
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
  if (elementwise (name) != 0)
    {
      iter_layout (1, in, lin, out, lout);
      return TRUE;
    }
  /* The rest make new tensors, contiguous: sum(), mean(), amax() and
   * amin() too (over permuted inputs, both torches). */
  contiguous_layout (out, lout);
  return TRUE;
}

/* Whether @name is a method or function of two operands, `add(a, b)`, as
 * the operator @op: a GraftPyBinOp, -1 for a comparison. */
static gboolean
binary_method (const char *name,
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
  Shape  s, in;
  Layout lin, lout;
  int    op;

  if (args != NULL && args->len == 1 && no_kwargs (kwargs) && binary_method (name, &op))
    return _graft_tracer_binop_tensor (t, op, recv, args->pdata[0], at);

  if (!shape_of (recv, &s))
    return _graft_value_tensor (t);
  in = s;
  layout_of (recv, &in, &lin);
  if (!method_shape (t, at, name, args, kwargs, &s) ||
      !method_layout (t, at, name, args, &in, &lin, &s, &lout))
    return t->error != NULL ? NULL : _graft_value_tensor (t);
  return made_laid (t, &s, &lout);
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
  int ka = dtype_kind (a, &bytes);

  if (dtype_kind (out, &bytes) <= ka || ka == 0 || scalar_type_name (out) == NULL ||
      scalar_type_name (a) == NULL)
    return TRUE;
  if (pow_of_number && t != NULL && t->dialect->torch == GRAFT_TORCH_1_13)
    return torch_error (t, at, "RuntimeError", "Found dtype %s but expected %s",
                        scalar_type_name (a), scalar_type_name (out));
  return torch_error (t, at, "RuntimeError",
                      "result type %s can't be cast to the desired output type %s",
                      scalar_type_name (out), scalar_type_name (a));
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

  if (op == GRAFT_PY_BIN_SUB && sub_of_bool (t, at, a, b))
    return t == NULL || at == NULL;
  if (op < 0 || op == GRAFT_PY_BIN_MATMUL || !shape_of (a, &sa) || !broadcasts_first (op, a, b))
    return TRUE;
  if (shape_of (b, &sb))
    {
      if (!broadcast (t, at, &sa, &sb, &out))
        return FALSE;
      if (out.rank != sa.rank || memcmp (out.dims, sa.dims, sa.rank * sizeof (gint64)) != 0)
        {
          have = dims_str (sa.dims, sa.rank);
          want = dims_str (out.dims, out.rank);
          return torch_error (t, at, "RuntimeError",
                              "output with shape %s doesn't match the broadcast shape %s", have,
                              want);
        }
    }
  /* A Python complex number: a complex result, never cast to a real
   * tensor. */
  if (b->kind == VAL_COMPLEX && !bitwise && complex_type_name (sa.dtype) != NULL &&
      scalar_type_name (sa.dtype) != NULL)
    return torch_error (t, at, "RuntimeError",
                        "result type %s can't be cast to the desired output type %s",
                        complex_type_name (sa.dtype), scalar_type_name (sa.dtype));
  if (!binary_shape (NULL, NULL, a, b, &out))
    return TRUE;
  if (op == GRAFT_PY_BIN_TRUEDIV && !is_floating (out.dtype))
    out.dtype = "torch.float32";
  if (!check_cast (t, at, out.dtype, sa.dtype,
                   op == GRAFT_PY_BIN_POW && meta_of (b) == NULL && b->kind != VAL_TENSOR &&
                       b->kind != VAL_PARAMETER))
    return FALSE;
  if (bitwise && is_floating (out.dtype))
    return torch_error (t, at, "RuntimeError", "\"%s_cpu\" not implemented for '%s'",
                        op == GRAFT_PY_BIN_BITAND  ? "bitwise_and"
                        : op == GRAFT_PY_BIN_BITOR ? "bitwise_or"
                                                   : "bitwise_xor",
                        scalar_type_name (out.dtype));
  if (alpha != NULL && alpha->kind == VAL_BOOL && strcmp (out.dtype, "torch.bool") != 0)
    return torch_error (t, at, "RuntimeError",
                        "Boolean alpha only supported for Boolean results.");
  if (alpha != NULL && alpha->kind == VAL_FLOAT && !is_floating (out.dtype))
    return torch_error (t, at, "RuntimeError",
                        "For integral input tensors, argument alpha must not be a floating point "
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
  return elementwise (plain) == 'f';
}

/* In-place methods of two operands promoted as `add_`, beyond
 * binary_method()'s: the operator each is like. */
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
  return binary_method (plain, op);
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
      recv->kind == VAL_TENSOR && shape_of (recv, &s))
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

  if ((args == NULL || args->len == 0) && no_kwargs (kwargs) && floating_inplace (plain) &&
      shape_of (recv, &s))
    return is_floating (s.dtype) || dtype_kind (s.dtype, &op) == 0 ||
           check_cast (t, at, "torch.float32", s.dtype, FALSE);
  if (args == NULL || args->len != 1 || !inplace_binary (plain, &op))
    return TRUE;
  if (!no_kwargs (kwargs))
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

  if (!shape_of (recv, &s) || !no_kwargs (kwargs))
    return NULL;
  layout_of (recv, &s, &l);
  if (!l.known)
    return NULL;
  if (strcmp (name, "is_contiguous") == 0 && n == 0)
    return _graft_value_bool (is_contiguous_layout (&s, &l));
  if (strcmp (name, "stride") != 0 || n > 1)
    return NULL;
  if (n == 1)
    {
      if (!plain_int (args->pdata[0], &a) || s.rank == 0 || !wrap_dim (a, s.rank, &d))
        return NULL;
      return _graft_value_int (t, l.strides[d]);
    }
  tuple = _graft_value_seq (t, VAL_TUPLE, s.rank);
  for (guint i = 0; i < s.rank; i++)
    _graft_value_seq_add (tuple, _graft_value_int (t, l.strides[i]));
  return tuple;
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

  if (!shape_of (recv, &s))
    return NULL;
  layout_of (recv, &s, &l);
  lr = l;
  if (strcmp (name, "T") == 0)
    {
      r = s;
      for (guint i = 0; i < s.rank; i++)
        {
          r.dims[i] = s.dims[s.rank - 1 - i];
          lr.strides[i] = l.strides[s.rank - 1 - i];
        }
      return made_laid (t, &r, &lr);
    }
  if (strcmp (name, "mT") == 0 && s.rank >= 2)
    {
      gint64 a = s.dims[s.rank - 1];

      s.dims[s.rank - 1] = s.dims[s.rank - 2];
      s.dims[s.rank - 2] = a;
      lr.strides[s.rank - 1] = l.strides[s.rank - 2];
      lr.strides[s.rank - 2] = l.strides[s.rank - 1];
      return made_laid (t, &s, &lr);
    }
  return NULL;
}

/* One slice of a dimension of @len: Python's slice.indices(). */
static gboolean
slice_len (const Value *slice,
           gint64       len,
           gint64      *out)
{
  gint64 start, stop, step = 1;
  Value *lo = slice->slice.start, *hi = slice->slice.stop, *st = slice->slice.step;

  if (st != NULL && st->kind != VAL_NONE && (!plain_int (st, &step) || step <= 0))
    return FALSE;
  if (lo == NULL || lo->kind == VAL_NONE)
    start = 0;
  else if (!plain_int (lo, &start))
    return FALSE;
  if (hi == NULL || hi->kind == VAL_NONE)
    stop = len;
  else if (!plain_int (hi, &stop))
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
          lout->strides[out->rank] = dim < s->rank ? mul_size (s->dims[dim], l->strides[dim]) : 1;
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
          if (!plain_int (item, &k))
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
            plain_int (item->slice.step, &step);
          lout->strides[out->rank] = mul_size (l->strides[dim], step);
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

  if (!shape_of (tensor, &s))
    return _graft_value_tensor (t);
  layout_of (tensor, &s, &l);
  switch (index_shape (&s, &l, index, &out, &lout, bad))
    {
    case INDEX_KNOWN:
      return made_laid (t, &out, &lout);
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
      (dim_v != NULL && !plain_int (dim_v, &dim)))
    return FALSE;
  n = seq->seq.items->len;
  for (guint i = 0; i < n; i++)
    {
      if (!shape_of (seq->seq.items->pdata[i], &parts[i]))
        return FALSE;
      one_dtype = one_dtype && strcmp (parts[i].dtype, parts[0].dtype) == 0;
    }
  if (stack)
    {
      if (parts[0].rank >= MAX_RANK || !check_dim (t, at, dim, parts[0].rank + 1, &d))
        return FALSE;
      for (guint i = 1; i < n; i++)
        if (parts[i].rank != parts[0].rank ||
            memcmp (parts[i].dims, parts[0].dims, parts[0].rank * sizeof (gint64)) != 0)
          {
            g_autofree char *first = dims_str (parts[0].dims, parts[0].rank);
            g_autofree char *other = dims_str (parts[i].dims, parts[i].rank);

            return torch_error (t, at, "RuntimeError",
                                "stack expects each tensor to be equal size, but got %s at entry "
                                "0 and %s at entry %u",
                                first, other, i);
          }
      *s = parts[0];
      memmove (&s->dims[d + 1], &s->dims[d], (s->rank - d) * sizeof (gint64));
      s->dims[d] = n;
      s->rank++;
      return one_dtype && sane (s);
    }
  for (guint i = 0; i < n; i++)
    if (parts[i].rank == 0)
      return torch_error (t, at, "RuntimeError",
                          "zero-dimensional tensor (at position %u) cannot be concatenated", i);
  for (guint i = 0; i < n && !found; i++)
    if (!(parts[i].rank == 1 && parts[i].dims[0] == 0))
      {
        ref = i;
        found = TRUE;
      }
  if (!found)
    return FALSE; /* every one empty */
  if (!check_dim (t, at, dim, parts[ref].rank, &d))
    return FALSE;
  *s = parts[ref];
  s->dims[d] = 0;
  for (guint i = 0; i < n; i++)
    {
      if (parts[i].rank == 1 && parts[i].dims[0] == 0)
        continue;
      if (parts[i].rank != parts[ref].rank)
        return torch_error (t, at, "RuntimeError",
                            "Tensors must have same number of dimensions: got %u and %u",
                            parts[ref].rank, parts[i].rank);
      for (guint k = 0; k < parts[i].rank; k++)
        if (k != d && parts[i].dims[k] != parts[ref].dims[k])
          return torch_error (t, at, "RuntimeError",
                              "Sizes of tensors must match except in dimension %u. Expected "
                              "size %" G_GINT64_FORMAT " but got size %" G_GINT64_FORMAT
                              " for tensor number %u in the list.",
                              d, parts[ref].dims[k], parts[i].dims[k], i);
      s->dims[d] += parts[i].dims[d];
    }
  return one_dtype && sane (s);
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

  if (eq == NULL || eq->kind != VAL_STR || !no_kwargs (kwargs) ||
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

      if (k == ops->len || !shape_of (ops->pdata[k], &op) ||
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
          if (v->kind != VAL_NONE && (*dtype = dtype_arg (v)) == NULL)
            return FALSE;
        }
      else if (strcmp (key, "device") == 0)
        {
          if (v->kind != VAL_NONE && !is_cpu (v))
            return FALSE;
        }
      else if (strcmp (key, "requires_grad") != 0 &&
               (allowed == NULL || !g_strv_contains (allowed, key)))
        return FALSE;
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
      if ((len = arange_len (v[0], v[1], v[2])) < 0)
        return FALSE;
      if (s->dtype == NULL)
        s->dtype = is_float ? "torch.float32" : "torch.int64";
      s->rank = 1;
      s->dims[0] = len;
      return TRUE;
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
      if (!int_list (&sizes, 0, s) || !sane (s))
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
          !plain_int (args->pdata[0], &a) || (n == 2 && !plain_int (args->pdata[1], &b)) ||
          a < 0)
        return FALSE;
      s->rank = 2;
      s->dims[0] = a;
      s->dims[1] = n == 2 ? b : a;
      return sane (s);
    }
  if (strcmp (name, "linspace") == 0)
    {
      double   x;
      gboolean f = FALSE;
      gint64   steps;

      s->dtype = "torch.float32";
      if (n != 3 || !number (args->pdata[0], &x, &f) || !number (args->pdata[1], &x, &f) ||
          !plain_int (args->pdata[2], &steps) || steps < 0 ||
          !factory_kwargs (kwargs, NULL, &s->dtype))
        return FALSE;
      s->rank = 1;
      s->dims[0] = steps;
      return sane (s);
    }
  if (g_str_has_suffix (name, "_like") &&
      (strcmp (name, "zeros_like") == 0 || strcmp (name, "ones_like") == 0 ||
       strcmp (name, "empty_like") == 0 || strcmp (name, "rand_like") == 0 ||
       strcmp (name, "randn_like") == 0 || strcmp (name, "full_like") == 0))
    {
      guint want = name[1] == 'u' ? 2 : 1;

      if (n != want || !shape_of (args->pdata[0], s))
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

      if (n != 2 || !no_kwargs (kwargs) || !shape_of (args->pdata[0], s) ||
          !shape_of (args->pdata[1], &b))
        return FALSE;
      if (s->rank != 1 || b.rank != 1)
        return torch_error (t, at, "RuntimeError", "%s: Expected 1-D argument %s, but got %u-D",
                            name, s->rank != 1 ? "self" : "vec2", s->rank != 1 ? s->rank : b.rank);
      if ((s->dtype = promote (s, &b)) == NULL)
        return FALSE;
      s->rank = 2;
      s->dims[1] = b.dims[0];
      return sane (s);
    }
  /* torch.cos(t), torch.reshape(t, ...): the method of the first argument. */
  if (((how = elementwise (name)) != 0 && strcmp (name, "contiguous") != 0 &&
       strcmp (name, "cpu") != 0) ||
      strcmp (name, "reshape") == 0 || strcmp (name, "transpose") == 0 ||
      strcmp (name, "permute") == 0 || strcmp (name, "unsqueeze") == 0 ||
      strcmp (name, "squeeze") == 0 || strcmp (name, "flatten") == 0 || strcmp (name, "t") == 0 ||
      strcmp (name, "sum") == 0 || strcmp (name, "mean") == 0 || strcmp (name, "amax") == 0 ||
      strcmp (name, "amin") == 0)
    {
      PtrVec rest;

      if (n == 0 || !shape_of (args->pdata[0], s))
        return FALSE;
      rest = *args;
      rest.pdata++;
      rest.len--;
      return method_shape (t, at, name, &rest, kwargs, s);
    }
  return FALSE;
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

      if (!shape_of (ops->pdata[k], &op))
        return FALSE;
      layout_of (ops->pdata[k], &op, &l);
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
static gboolean
function_layout (Tracer            *t,
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

  contiguous_layout (out, l);
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

          if (!shape_of (item, &in))
            continue;
          layout_of (item, &in, &lin);
          if (!is_contiguous_layout (&in, &lin))
            l->known = FALSE;
        }
    }
  else if (first != NULL && g_str_has_suffix (name, "_like") && shape_of (first, &in))
    {
      layout_of (first, &in, &lin);
      if (is_dense_layout (&in, &lin))
        *l = lin;
      else
        iter_layout (1, &in, &lin, out, l);
    }
  else if (first != NULL && shape_of (first, &in) && strcmp (name, "outer") != 0 &&
           strcmp (name, "ger") != 0)
    {
      layout_of (first, &in, &lin);
      rest = *args;
      rest.pdata++;
      rest.len--;
      return method_layout (t, at, name, &rest, &in, &lin, out, l);
    }
  return TRUE;
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
  Shape  s, other;
  Layout l;
  int    op;

  /* torch.add(a, b) and such: `a + b`; torch.mm(a, b) of matrices: `a @ b`. */
  if (g_str_has_prefix (path, "torch.") && args != NULL && args->len == 2 && no_kwargs (kwargs) &&
      shape_of (args->pdata[0], &s) &&
      (binary_method (path + strlen ("torch."), &op) ||
       (strcmp (path, "torch.mm") == 0 && shape_of (args->pdata[1], &other) &&
        (op = GRAFT_PY_BIN_MATMUL, TRUE))))
    {
      if (strcmp (path, "torch.mm") == 0 && (s.rank != 2 || other.rank != 2))
        {
          torch_error (t, at, "RuntimeError", "%s must be a matrix", s.rank != 2 ? "self" : "mat2");
          return NULL;
        }
      return _graft_tracer_binop_tensor (t, op, args->pdata[0], args->pdata[1], at);
    }
  if (!function_shape (t, at, path, args, kwargs, &s))
    return NULL;
  if (!function_layout (t, at, path, args, &s, &l))
    return NULL;
  return made_laid (t, &s, &l);
}

/* torch's name of a CPU tensor of @dtype, as its messages print it. */
static const char *
tensor_type_name (const char *dtype)
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
static const char *
scalar_type_name (const char *dtype)
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
  gboolean    known = shape_of (tensor, &s);
  Layout      l, lt;

  if (known)
    {
      layout_of (tensor, &s, &l);
      how = index_shape (&s, &l, index, &target, &lt, bad);
    }
  /* `t[t == 0] = 1.0`: a mask of t's own leading sizes, and a number. */
  if (known && how == INDEX_UNKNOWN && shape_of (index, &target) &&
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
  if (how != INDEX_KNOWN || !shape_of (value, &src) ||
      (type = tensor_type_name (src.dtype)) == NULL)
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
