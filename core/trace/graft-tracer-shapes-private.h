/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-shapes-private.h: what the files on constant tensors
 * share: a tensor's Shape (sizes and dtype) and Layout (strides), reading
 * them off a value and making a tensor of them, torch's errors, and the
 * rules one file finds and another applies.  graft-tracer-shapes.c holds
 * the shapes, graft-tracer-layouts.c the strides, graft-tracer-dtypes.c
 * the dtypes and in-place checks, graft-tracer-indexing.c indexing,
 * graft-tracer-tensor-functions.c the torch functions.  The tracer reaches
 * them only through graft-tracer-private.h.
 */
#pragma once

#include "graft-tracer-private.h"

G_BEGIN_DECLS

/* At most this many dimensions are followed (torch's own limit is 64). */
#define MAX_RANK 16

typedef struct
{
  guint       rank;
  gint64      dims[MAX_RANK];
  const char *dtype; /* `torch.float32` */
} Shape;

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

/* graft-tracer-shapes.c */
const TensorMeta *_graft_tensor_meta_of (const Value *v);
gboolean          _graft_tensor_shape_of (const Value *v,
                                          Shape       *out);
Value            *_graft_tensor_made (Tracer      *t,
                                      const Shape *s);
gboolean          _graft_tensor_plain_int (const Value *v,
                                           gint64      *out);
gboolean          _graft_tensor_int_list (PtrVec *args,
                                          guint   from,
                                          Shape  *out);
gboolean          _graft_tensor_no_kwargs (StrMap *kwargs);
gboolean          _graft_tensor_wrap_dim (gint64 d,
                                          guint  rank,
                                          guint *out);
gint64            _graft_tensor_mul_size (gint64 a,
                                          gint64 b);
gint64            _graft_tensor_numel (const Shape *s);
gboolean          _graft_tensor_sane (const Shape *s);
gboolean          _graft_tensor_torch_error (Tracer            *t,
                                             const GraftPyExpr *at,
                                             const char        *exception,
                                             const char        *format,
                                             ...) G_GNUC_PRINTF (4, 5);
gboolean          _graft_tensor_check_dim (Tracer            *t,
                                           const GraftPyExpr *at,
                                           gint64             d,
                                           guint              rank,
                                           guint             *out);
char             *_graft_tensor_dims_str (const gint64 *dims,
                                          guint         rank);
gboolean          _graft_tensor_broadcast (Tracer            *t,
                                           const GraftPyExpr *at,
                                           const Shape       *a,
                                           const Shape       *b,
                                           Shape             *out);
gboolean          _graft_tensor_binary_shape (Tracer            *t,
                                              const GraftPyExpr *at,
                                              const Value       *a,
                                              const Value       *b,
                                              Shape             *out);
gboolean          _graft_tensor_broadcasts_first (int          op,
                                                  const Value *a,
                                                  const Value *b);
gboolean          _graft_tensor_sub_of_bool (Tracer            *t,
                                             const GraftPyExpr *at,
                                             const Value       *a,
                                             const Value       *b);
gboolean          _graft_tensor_int_pow_check (Tracer            *t,
                                               const GraftPyExpr *at,
                                               const Value       *a,
                                               const Value       *b);
char              _graft_tensor_elementwise (const char *name);
gboolean          _graft_tensor_is_cpu (const Value *v);
gboolean          _graft_tensor_method_shape (Tracer            *t,
                                              const GraftPyExpr *at,
                                              const char        *name,
                                              PtrVec            *args,
                                              StrMap            *kwargs,
                                              Shape             *s);
gboolean          _graft_tensor_magic_op (const char *name, int *op, gboolean *reflected);
gboolean          _graft_tensor_squeeze_dims (Tracer            *t,
                                              const GraftPyExpr *at,
                                              const Value       *v,
                                              const Shape       *s,
                                              guint             *mask);
gboolean          _graft_tensor_binary_method (const char *name,
                                               int        *op);
Value            *_graft_tensor_chunk (Tracer            *t,
                                       const Shape       *s,
                                       const Layout      *l,
                                       PtrVec            *args,
                                       StrMap            *kwargs,
                                       const GraftPyExpr *at);

/* graft-tracer-tensor-functions.c */
gboolean _graft_tensor_no_negative_size (Tracer            *t,
                                         const GraftPyExpr *at,
                                         const Shape       *s);

/* graft-tracer-layouts.c */
void          _graft_tensor_contiguous_layout (const Shape *s,
                                               Layout      *out);
void          _graft_tensor_layout_of (const Value *v,
                                       const Shape *s,
                                       Layout      *out);
Value        *_graft_tensor_made_laid (Tracer       *t,
                                       const Shape  *s,
                                       const Layout *l);
void          _graft_tensor_like_layout (const Shape  *in,
                                         const Layout *lin,
                                         const Shape  *out,
                                         Layout       *lout);
const Layout *_graft_tensor_values_layout (const Value *const *vals,
                                           guint               n,
                                           const Shape        *out,
                                           Layout             *l);
const Layout *_graft_tensor_binop_layout (const Value *a,
                                          const Value *b,
                                          const Shape *out,
                                          Layout      *l);
gboolean      _graft_tensor_method_layout (Tracer            *t,
                                           const GraftPyExpr *at,
                                           const char        *name,
                                           PtrVec            *args,
                                           const Shape       *in,
                                           const Layout      *lin,
                                           const Shape       *out,
                                           Layout            *lout);
gboolean      _graft_tensor_function_layout (Tracer            *t,
                                             const GraftPyExpr *at,
                                             const char        *path,
                                             PtrVec            *args,
                                             const Shape       *out,
                                             Layout            *l);

/* graft-tracer-views.c */
gboolean _graft_tensor_is_view_op (const char *name);
Value   *_graft_tensor_view_op (Tracer            *t,
                                const char        *name,
                                const Value       *self,
                                const Shape       *s,
                                const Layout      *l,
                                PtrVec            *args,
                                StrMap            *kwargs,
                                const GraftPyExpr *at);

/* graft-tracer-dtypes.c */
int         _graft_tensor_dtype_kind (const char *dtype,
                                      int        *bytes);
gboolean    _graft_tensor_is_floating (const char *dtype);
const char *_graft_tensor_promote (const Shape *a,
                                   const Shape *b);
const char *_graft_tensor_promote_number (const char  *dtype,
                                          const Value *number);
const char *_graft_tensor_conversion_dtype (const char *name);
const char *_graft_tensor_dtype_arg (const Value *v);
const char *_graft_tensor_type_name (const char *dtype);
const char *_graft_tensor_scalar_type_name (const char *dtype);
gboolean    _graft_tracer_tensor_ternary_check (Tracer            *t,
                                                const Value       *recv,
                                                const char        *plain,
                                                gboolean           inplace,
                                                PtrVec            *args,
                                                StrMap            *kwargs,
                                                const GraftPyExpr *at);

G_END_DECLS
