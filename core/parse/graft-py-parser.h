/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-py-parser.h: the recursive-descent parser that turns Python source
 * into a GraftPyModule syntax tree.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-py-ast.h"
#include "graft-types.h"

G_BEGIN_DECLS

typedef struct _GraftPyBodyStream GraftPyBodyStream;

GraftPyModule *graft_py_parse (GraftSource *source,
                               GError     **error) G_GNUC_WARN_UNUSED_RESULT;
GraftPyModule *graft_py_parse_deferring (GraftSource *source,
                                         const char  *entry_class,
                                         GError     **error) G_GNUC_WARN_UNUSED_RESULT;
gboolean       graft_py_module_read_body (GraftPyModule *module,
                                          GraftPyStmt   *def,
                                          GError       **error);

GraftPyBodyStream *graft_py_body_stream_new (GraftPyModule     *module,
                                             const GraftPyStmt *def,
                                             gboolean           transient)
    G_GNUC_WARN_UNUSED_RESULT;
gboolean graft_py_body_stream_next (GraftPyBodyStream *self,
                                    GraftPyStmtList   *out_stmts,
                                    GError           **error);
guint    graft_py_body_stream_get_n_statements (GraftPyBodyStream *self);
void     graft_py_body_stream_free (GraftPyBodyStream *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftPyBodyStream, graft_py_body_stream_free)

G_END_DECLS
