/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-namespace.h: unique, legal Python names, derived exactly as
 * torch.fx's `_Namespace.create_name` derives them.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"
#include "graft-dialect.h"

G_BEGIN_DECLS

typedef struct _GraftNamespace GraftNamespace;

/**
 * GraftNameFlags:
 * @GRAFT_NAME_DEFAULT: the name stands for a node: builtin names are illegal
 * @GRAFT_NAME_IS_BUILTIN: the name stands for the builtin of that name itself
 *   (code generation's `getattr` global, or one of torch.fx's custom
 *   builtins such as `inf`), so that name is legal
 */
typedef enum {
  GRAFT_NAME_DEFAULT = 0,
  GRAFT_NAME_IS_BUILTIN = 1 << 0,
} GraftNameFlags;

GraftNamespace *graft_namespace_new (const GraftDialect *dialect) G_GNUC_WARN_UNUSED_RESULT;
void            graft_namespace_free (GraftNamespace *self);
const char     *graft_namespace_create_name (GraftNamespace *self,
                                             const char     *candidate,
                                             GraftNameFlags  flags);
gboolean        graft_namespace_contains (GraftNamespace *self,
                                          const char     *name);
gboolean        graft_namespace_is_canonical (const char    *name,
                                              GraftNameFlags flags);
guint           graft_namespace_get_size (GraftNamespace *self);

char    *graft_snake_case (const char         *s,
                           const GraftDialect *dialect) G_GNUC_WARN_UNUSED_RESULT;
char    *graft_name_for_target (GraftOp             op,
                                const char         *target,
                                const GraftDialect *dialect) G_GNUC_WARN_UNUSED_RESULT;
gboolean graft_is_python_keyword (const char *name);
gboolean graft_is_python_identifier (const char *name);
gboolean graft_is_python_builtin (const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftNamespace, graft_namespace_free)

G_END_DECLS
