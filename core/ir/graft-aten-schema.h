/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-aten-schema.h: the schemas of torch 2.6's aten operators, read from
 * the generated table core/ir/graft-aten-schema.inc
 * (tests/tools/gen-aten-schema.py), so that torch 2.6's matcher can fill out
 * the arguments of a call of an OpOverload (`torch.ops.aten.add.Tensor`),
 * and so that its dead code elimination can tell the overloads whose schema
 * is mutable (`torch.ops.aten.add_.Tensor`, and those of other namespaces).
 *
 * A schema is static data: lookups never allocate and the pointers they
 * return live as long as the program.  Argument `i` of a schema is in
 * `[0, graft_aten_schema_get_n_arguments ())`, likewise for returns.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

typedef struct _GraftAtenSchema GraftAtenSchema;

/**
 * GraftAtenArgument:
 * @name: the parameter's name (`self`, `alpha`)
 * @type: its type as torch prints the schema (`Tensor(a!)`, `int[2]`, `Scalar`,
 *   `ScalarType?`)
 * @default_repr: Python's repr of `Argument.default_value` (`1`, `None`, `[0, 0]`,
 *   `'mean'`), or %NULL without a default
 * @kwarg_only: whether the parameter comes after `*` in the schema
 *
 * One argument of a schema; the strings are static.
 */
typedef struct
{
  const char *name;
  const char *type;
  const char *default_repr;
  gboolean    kwarg_only;
} GraftAtenArgument;

/**
 * GraftAtenReturn:
 * @name: the return's name (`values`), or "" when unnamed
 * @type: its type text (`Tensor`, `Tensor(a!)`, `Tensor[]`)
 */
typedef struct
{
  const char *name;
  const char *type;
} GraftAtenReturn;

const GraftAtenSchema *graft_aten_schema_lookup (const char *target);
guint                  graft_aten_schema_count (void);
const GraftAtenSchema *graft_aten_schema_get_nth (guint index);
const char            *graft_aten_schema_get_name (const GraftAtenSchema *schema);
guint                  graft_aten_schema_get_n_arguments (const GraftAtenSchema *schema);
void                   graft_aten_schema_get_argument (const GraftAtenSchema *schema,
                                                       guint                  i,
                                                       GraftAtenArgument     *out);
const GraftArg        *graft_aten_schema_get_default (const GraftAtenSchema *schema,
                                                      guint                  i);
int                    graft_aten_schema_find_argument (const GraftAtenSchema *schema,
                                                        const char            *name);
guint                  graft_aten_schema_get_n_returns (const GraftAtenSchema *schema);
void                   graft_aten_schema_get_return (const GraftAtenSchema *schema,
                                                     guint                  i,
                                                     GraftAtenReturn       *out);
gboolean               graft_aten_schema_returns_one_tensor (const GraftAtenSchema *schema);
gboolean               graft_aten_schema_is_vararg (const GraftAtenSchema *schema);
gboolean               graft_aten_schema_is_varret (const GraftAtenSchema *schema);
gboolean               graft_aten_schema_is_mutable (const GraftAtenSchema *schema);
gboolean               graft_aten_schema_target_is_mutable (const char *target);
void                   graft_aten_schema_collect_arguments (const GraftAtenSchema *schema,
                                                            const GraftArg        *args,
                                                            const GraftArg        *kwargs,
                                                            const GraftArg       **out);
void                   graft_aten_schema_fill_arguments (const GraftAtenSchema *schema,
                                                         const GraftArg        *args,
                                                         const GraftArg        *kwargs,
                                                         GraftArg              *out);
gboolean               graft_aten_parse_default (const char *repr,
                                                 GraftArg   *out);

G_END_DECLS
