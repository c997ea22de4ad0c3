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

GraftPyModule *graft_py_parse (GraftSource *source,
                               GError     **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
