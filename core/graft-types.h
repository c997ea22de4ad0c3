/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-types.h: forward typedefs and the enums shared across the core.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

typedef struct _GraftSource GraftSource;
typedef struct _GraftGraph  GraftGraph;
typedef struct _GraftNode   GraftNode;
typedef struct _GraftArg    GraftArg;
typedef struct _GraftEdit   GraftEdit;

/**
 * GraftOp:
 *
 * The opcode of a node, as torch.fx's `Node.op`.
 */
typedef enum {
  GRAFT_OP_PLACEHOLDER,
  GRAFT_OP_GET_ATTR,
  GRAFT_OP_CALL_FUNCTION,
  GRAFT_OP_CALL_METHOD,
  GRAFT_OP_CALL_MODULE,
  GRAFT_OP_OUTPUT,
} GraftOp;

G_END_DECLS
