/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pattern.c: a pattern graph prepared once for any number of searches
 * (graft-matcher.c): its nodes get their positions, and the placeholders,
 * returning nodes and anchors are listed as `SubgraphMatcher.__init__`
 * lists them.  Patterns are reference-counted: each match holds one.
 */
#include "config.h"

#include "graft-pattern-private.h"
#include "graft-error.h"
#include "graft-graph.h"

/**
 * graft_pattern_new:
 * @graph: (transfer full): the pattern graph, traced from `pattern`
 * @error: return location for an error
 *
 * Prepares a pattern as `SubgraphMatcher.__init__` does: its placeholders,
 * its returning nodes (the distinct nodes the output refers to) and its
 * anchors (the returning nodes whose only user is the output).  A pattern
 * whose nodes are not all used (dead code) is refused, as torch refuses it.
 *
 * Returns: (transfer full) (nullable): the pattern
 */
GraftPattern *
graft_pattern_new (GraftGraph *graph,
                   GError    **error)
{
  g_autoptr (GraftGraph) owned = graph;
  GraftPattern *self;
  GraftNode    *output;
  g_autoptr (GPtrArray) returning = NULL;

  g_return_val_if_fail (graph != NULL, NULL);

  output = graft_graph_get_last (graph);
  if (output == NULL || graft_node_get_op (output) != GRAFT_OP_OUTPUT)
    {
      g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, "the pattern has no output");
      return NULL;
    }
  for (GraftNode *node = graft_graph_get_first (graph); node != output;
       node = graft_node_get_next (node))
    if (graft_node_get_n_users (node) == 0)
      {
        graft_node_set_error (node, error, GRAFT_ERROR_REWRITE,
                              "the pattern has dead code: %s %s is not used by anything it returns "
                              "(torch.fx's SubgraphMatcher refuses such a pattern)",
                              graft_node_get_op (node) == GRAFT_OP_PLACEHOLDER ? "parameter"
                                                                               : "node",
                              graft_node_get_name (node));
        return NULL;
      }

  self = g_new0 (GraftPattern, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->graph = g_steal_pointer (&owned);
  /* Its nodes keep their positions in slot 1 for the pattern's life. */
  _graft_graph_hold_marks (self->graph);
  self->nodes = g_ptr_array_new ();
  self->index = g_hash_table_new (NULL, NULL);
  self->placeholders = g_array_new (FALSE, FALSE, sizeof (guint));
  self->returning = g_array_new (FALSE, FALSE, sizeof (guint));
  self->anchors = g_array_new (FALSE, FALSE, sizeof (guint));
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      guint pos = self->nodes->len;

      g_ptr_array_add (self->nodes, node);
      g_hash_table_insert (self->index, node, GUINT_TO_POINTER (pos + 1));
      _graft_node_set_mark (node, 1, pos + 1);
      if (graft_node_get_op (node) == GRAFT_OP_PLACEHOLDER)
        g_array_append_val (self->placeholders, pos);
    }
  returning = graft_node_dup_input_nodes (output);
  for (guint i = 0; i < returning->len; i++)
    {
      guint pos = _graft_pattern_position_of (self, returning->pdata[i]);

      g_array_append_val (self->returning, pos);
      if (graft_node_get_n_users (returning->pdata[i]) == 1)
        g_array_append_val (self->anchors, pos);
    }
  return self;
}

GraftPattern *
graft_pattern_ref (GraftPattern *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
graft_pattern_unref (GraftPattern *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_ptr_array_unref (self->nodes);
  g_hash_table_unref (self->index);
  g_array_unref (self->placeholders);
  g_array_unref (self->returning);
  g_array_unref (self->anchors);
  graft_graph_free (self->graph);
  g_free (self);
}

/**
 * graft_pattern_get_graph:
 *
 * Returns: (transfer none): the pattern graph
 */
GraftGraph *
graft_pattern_get_graph (GraftPattern *self)
{
  return self->graph;
}

/**
 * graft_pattern_get_n_nodes:
 *
 * Returns: the number of pattern nodes, the output included (positions of
 *   bindings run over these, in graph order)
 */
guint
graft_pattern_get_n_nodes (GraftPattern *self)
{
  return self->nodes->len;
}

GraftNode *
graft_pattern_get_node (GraftPattern *self,
                        guint         i)
{
  g_return_val_if_fail (i < self->nodes->len, NULL);
  return self->nodes->pdata[i];
}

guint
graft_pattern_get_n_anchors (GraftPattern *self)
{
  return self->anchors->len;
}

GraftNode *
graft_pattern_get_anchor (GraftPattern *self,
                          guint         i)
{
  g_return_val_if_fail (i < self->anchors->len, NULL);
  return self->nodes->pdata[g_array_index (self->anchors, guint, i)];
}

guint
graft_pattern_get_n_placeholders (GraftPattern *self)
{
  return self->placeholders->len;
}

guint
graft_pattern_get_n_returning (GraftPattern *self)
{
  return self->returning->len;
}

/**
 * graft_pattern_get_placeholder_position:
 * @i: the index of a pattern placeholder (0 for the first parameter)
 *
 * Returns: where the i-th placeholder is among the pattern's nodes (the
 *   index graft_pattern_get_node() and graft_match_get_binding() take)
 */
guint
graft_pattern_get_placeholder_position (GraftPattern *self,
                                        guint         i)
{
  g_return_val_if_fail (i < self->placeholders->len, 0);
  return g_array_index (self->placeholders, guint, i);
}

/**
 * graft_pattern_get_returning_position:
 * @i: the index of a value the pattern returns
 *
 * Returns: where the i-th returned node is among the pattern's nodes
 */
guint
graft_pattern_get_returning_position (GraftPattern *self,
                                      guint         i)
{
  g_return_val_if_fail (i < self->returning->len, 0);
  return g_array_index (self->returning, guint, i);
}
