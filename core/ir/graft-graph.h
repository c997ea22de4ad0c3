/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-graph.h: the IR, a torch.fx Graph: nodes in execution order with op,
 * name, target, args, kwargs and users.  Undoable edits of a graph are in
 * graft-edit.h.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"
#include "graft-arg.h"
#include "graft-error.h"
#include "graft-namespace.h"
#include "graft-dialect.h"

G_BEGIN_DECLS

/**
 * GraftLintFlags:
 * @GRAFT_LINT_DEFAULT: structural invariants only
 * @GRAFT_LINT_DEFINED_BEFORE_USE: also require that every argument is
 *   defined before its user (torch.fx's lint does; a rewrite that hits the
 *   insertion-point hazard breaks it on purpose, as torch does)
 */
typedef enum {
  GRAFT_LINT_DEFAULT = 0,
  GRAFT_LINT_DEFINED_BEFORE_USE = 1 << 0,
} GraftLintFlags;

/**
 * GraftAttrKind:
 * @GRAFT_ATTR_UNKNOWN: nothing is known of the value (a graph read from a
 *   listing or a DOT file)
 * @GRAFT_ATTR_PARAMETER: an `nn.Parameter`
 * @GRAFT_ATTR_TENSOR: a plain tensor: a buffer, a tensor attribute or a
 *   `_tensor_constantN`
 *
 * What the module attribute a get_attr node reads holds, as far as torch
 * 2.6's matcher asks (`_match_attributes` compares the values' types).
 */
typedef enum {
  GRAFT_ATTR_UNKNOWN,
  GRAFT_ATTR_PARAMETER,
  GRAFT_ATTR_TENSOR,
} GraftAttrKind;

const char *graft_op_to_string (GraftOp op);
gboolean    graft_op_from_string (const char *text,
                                  gsize       len,
                                  GraftOp    *out_op);

GraftGraph         *graft_graph_new (const GraftDialect *dialect) G_GNUC_WARN_UNUSED_RESULT;
const GraftDialect *graft_graph_get_dialect (GraftGraph *self);
void                graft_graph_free (GraftGraph *self);
gboolean            graft_graph_has_edits (GraftGraph *self);
guint               graft_graph_get_n_nodes (GraftGraph *self);
GraftNode          *graft_graph_get_first (GraftGraph *self);
GraftNode          *graft_graph_get_last (GraftGraph *self);
GraftNode          *graft_graph_get_output (GraftGraph *self);
gboolean            graft_graph_has_shared_names (GraftGraph *self);
void                graft_graph_find_nodes (GraftGraph        *self,
                                            const char *const *names,
                                            GPtrArray         *out);
GraftNode          *graft_graph_find_node (GraftGraph *self,
                                           const char *name);
GraftNamespace     *graft_graph_get_namespace (GraftGraph *self);
const char         *graft_graph_intern (GraftGraph *self,
                                        const char *text);
GraftAttrKind       graft_graph_get_attr_kind (GraftGraph *self,
                                               const char *target);
void                graft_graph_set_attr_kind (GraftGraph   *self,
                                               const char   *target,
                                               GraftAttrKind kind);
const char         *graft_graph_get_module_constructor (GraftGraph *self,
                                                        const char *target);
void                graft_graph_set_module_constructor (GraftGraph *self,
                                                        const char *target,
                                                        const char *constructor);
const char         *graft_graph_get_module_name (GraftGraph *self);
void                graft_graph_set_module_name (GraftGraph *self,
                                                 const char *name);
GraftNode          *graft_graph_create_node (GraftGraph *self,
                                             GraftOp     op,
                                             const char *target,
                                             GraftArg   *args,
                                             GraftArg   *kwargs,
                                             const char *name_candidate,
                                             GraftNode  *before);
GraftNode          *graft_graph_create_node_copy (GraftGraph     *self,
                                                  GraftOp         op,
                                                  const char     *target,
                                                  const GraftArg *args,
                                                  const GraftArg *kwargs,
                                                  const char     *name_candidate,
                                                  GraftNode      *before);
GraftNode          *graft_graph_create_node_named (GraftGraph *self,
                                                   GraftOp     op,
                                                   const char *target,
                                                   GraftArg   *args,
                                                   GraftArg   *kwargs,
                                                   const char *exact_name,
                                                   GraftNode  *before);
void                graft_graph_set_args (GraftGraph *self,
                                          GraftNode  *node,
                                          GraftArg   *args,
                                          GraftArg   *kwargs);
void                graft_graph_replace_all_uses (GraftGraph *self,
                                                  GraftNode  *old_node,
                                                  GraftNode  *new_node);
void                graft_graph_replace_all_uses_with_value (GraftGraph     *self,
                                                             GraftNode      *old_node,
                                                             const GraftArg *value);
void                graft_graph_erase_node (GraftGraph *self,
                                            GraftNode  *node);
void                graft_graph_move_before (GraftGraph *self,
                                             GraftNode  *node,
                                             GraftNode  *before);
gboolean            graft_graph_lint (GraftGraph    *self,
                                      GraftLintFlags flags,
                                      GError       **error);
gsize               graft_graph_get_memory_size (GraftGraph *self);
gsize               graft_graph_get_string_memory_size (GraftGraph *self);

GraftOp         graft_node_get_op (GraftNode *node);
const char     *graft_node_get_name (GraftNode *node);
const char     *graft_node_get_target (GraftNode *node);
const GraftArg *graft_node_get_args (GraftNode *node);
const GraftArg *graft_node_get_kwargs (GraftNode *node);
guint           graft_node_get_n_users (GraftNode *node);
GraftNode      *graft_node_get_user (GraftNode *node,
                                     guint      i);
GraftNode      *graft_node_get_next (GraftNode *node);
GraftNode      *graft_node_get_prev (GraftNode *node);
GraftGraph     *graft_node_get_graph (GraftNode *node);
gint            graft_node_compare_order (GraftNode *a,
                                          GraftNode *b);
const char     *graft_node_get_type_annotation (GraftNode *node);
void            graft_node_set_type_annotation (GraftNode  *node,
                                                const char *type_repr);
gboolean        graft_node_get_is_wrapped (GraftNode *node);
void            graft_node_set_is_wrapped (GraftNode *node,
                                           gboolean   is_wrapped);
void            graft_node_get_span (GraftNode *node,
                                     guint32   *out_start,
                                     guint32   *out_end);
void            graft_node_set_span (GraftNode *node,
                                     guint32    start,
                                     guint32    end);
GPtrArray      *graft_node_dup_input_nodes (GraftNode *node) G_GNUC_WARN_UNUSED_RESULT;
void            graft_node_get_input_nodes (GraftNode *node,
                                            GPtrArray *out);
void            graft_graph_set_source (GraftGraph  *self,
                                        GraftSource *source);
GraftSource    *graft_graph_get_source (GraftGraph *self);
void            graft_node_set_error (GraftNode     *node,
                                      GError       **error,
                                      GraftErrorCode code,
                                      const char    *format,
                                      ...) G_GNUC_PRINTF (4, 5);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftGraph, graft_graph_free)

G_END_DECLS
