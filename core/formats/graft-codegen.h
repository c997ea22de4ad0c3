/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-codegen.h: Python source for a graph, byte-identical to torch.fx
 * 1.13.1's `GraphModule.code`.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

char       *graft_codegen_python (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;
GString    *graft_codegen_python_string (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;
char       *graft_codegen_function_source (GraftGraph *graph,
                                           const char *name) G_GNUC_WARN_UNUSED_RESULT;
char       *graft_codegen_call_form (const char *target) G_GNUC_WARN_UNUSED_RESULT;
const char *graft_codegen_operator_format (const char *target);

G_END_DECLS
