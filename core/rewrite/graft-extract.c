/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-extract.c: a pattern from a selection.  The chosen nodes of a
 * graph are copied into a graph of their own whose placeholders are the
 * values that flow into the selection (in order of first use) and whose
 * output is what flows out of it (a tuple when several values do), then
 * printed as Python the way torch.fx prints code (graft-codegen.c):
 * readable names (the graph's own), operators as operators.  Traced
 * again, it is a pattern that matches at least the selection.
 *
 * Function, method and module calls can be part of a pattern.  A pattern
 * that calls modules is written as a torch.nn.Module class whose
 * submodules sit at the graph's module paths, since torch.fx matches a
 * call_module node by its target; the copied graph keeps, for each path,
 * how the module was built where the graph knows it
 * (graft_graph_get_module_constructor()).  Selected placeholders and
 * get_attr nodes become parameters, and a selected output node is
 * ignored.
 */
#include "config.h"

#include "graft-extract.h"
#include "graft-arg.h"
#include "graft-error.h"
#include "graft-graph.h"

#include <stdlib.h>
#include <string.h>

/* A copy of @arg with nodes replaced through @map. */
static void
map_arg (GHashTable     *map,
         const GraftArg *arg,
         GraftArg       *out)
{
  guint n = graft_arg_count_items (arg);

  if (arg->kind == GRAFT_ARG_NODE)
    {
      graft_arg_init_node (out, g_hash_table_lookup (map, arg->node));
      return;
    }
  graft_arg_copy (out, arg);
  for (guint i = 0; i < n; i++)
    {
      graft_arg_clear (&out->items[i]);
      map_arg (map, &arg->items[i], &out->items[i]);
    }
}

/* Adds a placeholder to @out for every node @arg uses that is not in the
 * selection and has none yet. */
static void
add_inputs (GraftGraph     *out,
            GHashTable     *selected,
            GHashTable     *map,
            const GraftArg *arg)
{
  guint n = graft_arg_count_items (arg);

  if (arg->kind == GRAFT_ARG_NODE)
    {
      if (!g_hash_table_contains (selected, arg->node) && !g_hash_table_contains (map, arg->node))
        {
          GraftNode *input =
              graft_graph_create_node (out, GRAFT_OP_PLACEHOLDER,
                                       graft_graph_intern (out, graft_node_get_name (arg->node)),
                                       NULL, NULL, graft_node_get_name (arg->node), NULL);

          g_hash_table_insert (map, arg->node, input);
        }
      return;
    }
  for (guint i = 0; i < n; i++)
    add_inputs (out, selected, map, &arg->items[i]);
}

/* qsort()'s order of two nodes: the graph's. */
static int
compare_order (const void *a,
               const void *b)
{
  return graft_node_compare_order (*(GraftNode *const *) a, *(GraftNode *const *) b);
}

/**
 * graft_extract_pattern_graph:
 * @graph: a graph
 * @nodes: (element-type GraftNode): nodes of @graph, in any order
 * @error: return location for an error
 *
 * Copies @nodes into a graph of their own (see the file's comment).
 *
 * Returns: (transfer full) (nullable): the graph, or %NULL if the
 *   selection has no call_function, call_method or call_module node
 */
GraftGraph *
graft_extract_pattern_graph (GraftGraph *graph,
                             GPtrArray  *nodes,
                             GError    **error)
{
  g_autoptr (GHashTable) selected = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) map = g_hash_table_new (NULL, NULL);
  g_autoptr (GPtrArray) outputs = g_ptr_array_new ();
  g_autoptr (GraftGraph) out = graft_graph_new (graft_graph_get_dialect (graph));
  g_autofree GraftNode **in_order = NULL;
  guint                  n_selected;
  GraftNode             *last = NULL;
  GraftArg               result;

  g_return_val_if_fail (graph != NULL && nodes != NULL, NULL);

  for (guint i = 0; i < nodes->len; i++)
    {
      GraftNode *node = nodes->pdata[i];

      switch (graft_node_get_op (node))
        {
        case GRAFT_OP_CALL_FUNCTION:
        case GRAFT_OP_CALL_METHOD:
        case GRAFT_OP_CALL_MODULE:
          g_hash_table_add (selected, node);
          break;
        case GRAFT_OP_PLACEHOLDER:
        case GRAFT_OP_GET_ATTR:
        case GRAFT_OP_OUTPUT:
        default:
          break;
        }
    }
  if (g_hash_table_size (selected) == 0)
    {
      g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_SELECTION,
                           "select at least one function, method or module call");
      return NULL;
    }

  /* Graph order: inputs first as they are met, then each node.  The
   * selected nodes sorted by their order keys, not the graph walked for
   * them (7 ms for one node of a million). */
  in_order = (GraftNode **) g_hash_table_get_keys_as_array (selected, &n_selected);
  qsort (in_order, n_selected, sizeof (GraftNode *), compare_order);
  for (guint i = 0; i < n_selected; i++)
    {
      GraftNode *node = in_order[i];
      GraftArg   args;
      GraftArg   kwargs;
      GraftNode *copy;
      /* A value nothing uses is a result too, or the pattern would have
       * dead code, which the matcher refuses. */
      gboolean escapes = graft_node_get_n_users (node) == 0;

      add_inputs (out, selected, map, graft_node_get_args (node));
      add_inputs (out, selected, map, graft_node_get_kwargs (node));
      map_arg (map, graft_node_get_args (node), &args);
      map_arg (map, graft_node_get_kwargs (node), &kwargs);
      copy = graft_graph_create_node (out, graft_node_get_op (node),
                                      graft_graph_intern (out, graft_node_get_target (node)),
                                      &args, &kwargs, graft_node_get_name (node), NULL);
      graft_node_set_is_wrapped (copy, graft_node_get_is_wrapped (node));
      if (graft_node_get_op (node) == GRAFT_OP_CALL_MODULE &&
          graft_graph_get_module_constructor (graph, graft_node_get_target (node)) != NULL)
        graft_graph_set_module_constructor (
            out, graft_node_get_target (node),
            graft_graph_get_module_constructor (graph, graft_node_get_target (node)));
      g_hash_table_insert (map, node, copy);
      last = node;
      for (guint u = 0; u < graft_node_get_n_users (node); u++)
        if (!g_hash_table_contains (selected, graft_node_get_user (node, u)))
          escapes = TRUE;
      if (escapes)
        g_ptr_array_add (outputs, copy);
    }
  if (outputs->len == 0)
    g_ptr_array_add (outputs, g_hash_table_lookup (map, last));

  if (outputs->len == 1)
    {
      graft_arg_init_seq (&result, GRAFT_ARG_TUPLE, 1);
      graft_arg_init_node (&result.items[0], outputs->pdata[0]);
    }
  else
    {
      graft_arg_init_seq (&result, GRAFT_ARG_TUPLE, 1);
      graft_arg_init_seq (&result.items[0], GRAFT_ARG_TUPLE, outputs->len);
      for (guint i = 0; i < outputs->len; i++)
        graft_arg_init_node (&result.items[0].items[i], outputs->pdata[i]);
    }
  graft_graph_create_node (out, GRAFT_OP_OUTPUT, graft_graph_intern (out, "output"), &result, NULL,
                           "output", NULL);
  return g_steal_pointer (&out);
}
