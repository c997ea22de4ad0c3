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

typedef struct _GraftSource  GraftSource;
typedef struct _GraftGraph   GraftGraph;
typedef struct _GraftNode    GraftNode;
typedef struct _GraftArg     GraftArg;
typedef struct _GraftEdit    GraftEdit;
typedef struct _GraftProgram GraftProgram;

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

/**
 * GraftPoint:
 *
 * A point in layout coordinates: points (1/72 inch), x to the right, y
 * down, origin at the top-left corner of the drawing.
 */
typedef struct
{
  double x;
  double y;
} GraftPoint;

/**
 * GraftRect:
 *
 * A box in layout coordinates; (x, y) is its top-left corner.
 */
typedef struct
{
  double x;
  double y;
  double width;
  double height;
} GraftRect;

G_END_DECLS
