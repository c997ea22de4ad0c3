/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-dce.c: torch.fx's `Graph.eliminate_dead_code()` (`torch/fx/graph.py`)
 * and the `Node.is_impure()` it asks (`torch/fx/node.py`), in the dialect of
 * the graph at hand.
 *
 * Torch lints the graph first, so a graph that uses a value before it is
 * defined (which a rewrite can leave, the insertion-point hazard) is an
 * error and nothing is removed.  Then every node, from the last to the
 * first, is erased when it is not impure and nothing uses it; going
 * backwards, a chain of dead nodes goes whole, since erasing a node takes
 * it off the users of what it read.  The erasures are one undoable edit.
 * Erased names stay taken in the namespace (graft_graph_erase_node()), as
 * torch's `erase_node` never gives a name back.
 *
 * What is impure: placeholders and the output; a call_function whose
 * target is one of the dialect's `side_effectful_functions`, or, where the
 * dialect says so, an OpOverload with a mutable schema.  call_method and
 * get_attr nodes never are (so an unused `x.add_(y)` goes, as in torch).
 * A call_module is impure when its module has `_is_impure`: no module a
 * Graft graph can call has it (torch.fx calls only modules of `torch.nn`
 * and `torch.ao.nn` as leaves, and none of those defines it; the modules
 * of torch.ao.ns that do are traced through), so a call_module never is.
 */
#include "config.h"

#include "graft-dce.h"
#include "graft-aten-schema.h"
#include "graft-dialect.h"
#include "graft-edit.h"
#include "graft-error.h"
#include "graft-graph.h"
#include "graft-graph-private.h"

#include <string.h>

static gboolean
is_side_effectful (const GraftDialect *dialect,
                   const char         *target)
{
  for (guint i = 0; dialect->side_effectful_functions[i] != NULL; i++)
    if (strcmp (target, dialect->side_effectful_functions[i]) == 0)
      return TRUE;
  return FALSE;
}

/**
 * graft_node_is_impure:
 * @node: a node
 *
 * torch.fx's `Node.is_impure()` in the dialect of @node's graph.
 *
 * Returns: whether dead code elimination keeps @node even when nothing
 *   uses it: a placeholder, the output, or a call_function with side
 *   effects (the dialect's `side_effectful_functions`; in torch 2.6 also
 *   an operator that writes to an argument)
 */
gboolean
graft_node_is_impure (GraftNode *node)
{
  const GraftDialect *dialect;
  const char         *target;

  g_return_val_if_fail (node != NULL, TRUE);

  switch (graft_node_get_op (node))
    {
    case GRAFT_OP_PLACEHOLDER:
    case GRAFT_OP_OUTPUT:
      return TRUE;
    case GRAFT_OP_CALL_FUNCTION:
      dialect = graft_graph_get_dialect (graft_node_get_graph (node));
      target = graft_node_get_target (node);
      return (dialect->impure_if_schema_mutable && graft_aten_schema_target_is_mutable (target)) ||
             is_side_effectful (dialect, target);
    case GRAFT_OP_CALL_MODULE: /* no leaf module has `_is_impure` (above) */
    case GRAFT_OP_CALL_METHOD:
    case GRAFT_OP_GET_ATTR:
      return FALSE;
    default:
      g_assert_not_reached ();
    }
}

/* The first use of a value before its definition, in the order torch's
 * `Graph.lint` finds it: node by node, args before kwargs, depth first. */
static GraftNode *
find_use_before_definition (GraftNode      *user,
                            const GraftArg *arg)
{
  guint n = graft_arg_count_items (arg);

  if (arg->kind == GRAFT_ARG_NODE)
    return graft_node_compare_order (arg->node, user) >= 0 ? arg->node : NULL;
  for (guint i = 0; i < n; i++)
    {
      GraftNode *used = find_use_before_definition (user, &arg->items[i]);

      if (used != NULL)
        return used;
    }
  return NULL;
}

/* Torch lints the graph before it eliminates anything, and its lint
 * refuses a graph whose nodes are not in an order that runs. */
static gboolean
check_order (GraftGraph *graph,
             GError    **error)
{
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      GraftNode *used = find_use_before_definition (node, graft_node_get_args (node));

      if (used == NULL)
        used = find_use_before_definition (node, graft_node_get_kwargs (node));
      if (used != NULL)
        {
          graft_node_set_error (node, error, GRAFT_ERROR_GRAPH,
                                "%s uses %s before it is defined, so dead code cannot be "
                                "eliminated (torch.fx %s lints the graph first)",
                                graft_node_get_name (node), graft_node_get_name (used),
                                graft_graph_get_dialect (graph)->version);
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * graft_eliminate_dead_code:
 * @graph: a graph, not recording an edit
 * @out_n_removed: (out) (optional): how many nodes were erased
 * @error: return location for an error
 *
 * Removes dead code as torch's `Graph.eliminate_dead_code()` does in the
 * graph's dialect: the nodes are visited from the last to the first, and
 * each is erased when it is not impure (graft_node_is_impure()) and has no
 * users.  Like torch, it first checks that every value is defined before
 * it is used, and fails without a change when not.
 *
 * Returns: (transfer full) (nullable): the edit, applied (possibly with no
 *   operations), to be undone or freed before the graph; %NULL with @error
 *   set when a node uses a value defined after it
 */
GraftEdit *
graft_eliminate_dead_code (GraftGraph *graph,
                           guint      *out_n_removed,
                           GError    **error)
{
  guint n_removed = 0;

  g_return_val_if_fail (graph != NULL, NULL);
  g_return_val_if_fail (_graft_graph_get_recording (graph) == NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (out_n_removed != NULL)
    *out_n_removed = 0;
  if (!check_order (graph, error))
    return NULL;
  graft_graph_begin_edit (graph);
  for (GraftNode *node = graft_graph_get_last (graph), *prev; node != NULL; node = prev)
    {
      prev = graft_node_get_prev (node);
      if (graft_node_get_n_users (node) == 0 && !graft_node_is_impure (node))
        {
          graft_graph_erase_node (graph, node);
          n_removed++;
        }
    }
  if (out_n_removed != NULL)
    *out_n_removed = n_removed;
  return graft_graph_end_edit (graph);
}
