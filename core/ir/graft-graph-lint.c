/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-graph-lint.c: graft_graph_lint(), torch.fx's `Graph.lint` and more:
 * every invariant graft-graph.c keeps, checked from outside through the
 * graph's accessors, so that a broken graph is reported as a GError (the
 * tests and fuzzers run it on what they build) instead of crashing later.
 */
#include "config.h"

#include "graft-graph.h"
#include "graft-error.h"
#include "graft-namespace-private.h"
#include "graft-graph-private.h"

static gboolean
check_arg_nodes (GraftGraph     *self,
                 GraftNamespace *names,
                 GraftNode      *user,
                 const GraftArg *arg,
                 GraftLintFlags  flags,
                 GError        **error)
{
  const char *user_name = graft_node_get_name (user);
  guint       n_items;

  if (arg->kind == GRAFT_ARG_NODE)
    {
      GraftNode *used = arg->node;
      guint      count = 0, n_users;

      if (used == NULL || graft_node_get_graph (used) != self ||
          (!_graft_node_shares_name (self, used) &&
           _graft_namespace_lookup_bound (names, graft_node_get_name (used)) != used) ||
          !_graft_node_is_attached (self, used))
        {
          g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH,
                       "node %s refers to a node that is not in the graph", user_name);
          return FALSE;
        }
      n_users = graft_node_get_n_users (used);
      for (guint i = 0; i < n_users; i++)
        if (graft_node_get_user (used, i) == user)
          count++;
      if (count != 1)
        {
          g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH,
                       "node %s uses %s but is listed %u times among its users",
                       user_name, graft_node_get_name (used), count);
          return FALSE;
        }
      if ((flags & GRAFT_LINT_DEFINED_BEFORE_USE) != 0 &&
          graft_node_compare_order (used, user) >= 0)
        {
          g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH,
                       "node %s uses %s before it is defined", user_name,
                       graft_node_get_name (used));
          return FALSE;
        }
      return TRUE;
    }
  n_items = graft_arg_count_items (arg);
  for (guint i = 0; i < n_items; i++)
    if (!check_arg_nodes (self, names, user, &arg->items[i], flags, error))
      return FALSE;
  return TRUE;
}

static gboolean
arg_refers_to (const GraftArg *arg,
               GraftNode      *node)
{
  guint n_items;

  if (arg->kind == GRAFT_ARG_NODE)
    return arg->node == node;
  n_items = graft_arg_count_items (arg);
  for (guint i = 0; i < n_items; i++)
    if (arg_refers_to (&arg->items[i], node))
      return TRUE;
  return FALSE;
}

/**
 * graft_graph_lint:
 * @flags: which optional checks to run
 *
 * Checks every invariant of the graph, as torch.fx's `Graph.lint` does and
 * more: the list links and order keys agree, names are unique, registered
 * in the namespace and findable, args are a tuple and kwargs a dict with str
 * keys, every referenced node is in the graph and lists its user exactly
 * once, every listed user does refer to the node, there is exactly one
 * output node and it is the last node.
 *
 * Returns: %TRUE if the graph is consistent, else %FALSE with @error set
 */
gboolean
graft_graph_lint (GraftGraph    *self,
                  GraftLintFlags flags,
                  GError       **error)
{
  guint           count = 0, outputs = 0;
  GraftNode      *prev = NULL, *last;
  GraftNamespace *names;

  g_return_val_if_fail (self != NULL, FALSE);

  names = graft_graph_get_namespace (self);
  for (GraftNode *node = graft_graph_get_first (self); node != NULL;
       prev = node, node = graft_node_get_next (node))
    {
      const char     *name = graft_node_get_name (node);
      const GraftArg *args = graft_node_get_args (node);
      const GraftArg *kwargs = graft_node_get_kwargs (node);
      gboolean        canonical = _graft_node_name_is_canonical (node);
      guint           n_users = graft_node_get_n_users (node);

      count++;
      if (graft_node_get_prev (node) != prev || graft_node_get_graph (node) != self)
        {
          g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH,
                       "the node list is broken at %s", name);
          return FALSE;
        }
      if (prev != NULL && graft_node_compare_order (prev, node) >= 0)
        {
          g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH,
                       "order keys of %s and %s are not increasing",
                       graft_node_get_name (prev), name);
          return FALSE;
        }
      if (_graft_node_shares_name (self, node)
              ? graft_namespace_contains (names, name) == FALSE
              : _graft_namespace_lookup_bound (names, name) != node)
        {
          g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH,
                       "node name %s is not unique or not registered", name);
          return FALSE;
        }
      if (!canonical != !graft_namespace_is_canonical (name, GRAFT_NAME_DEFAULT))
        {
          g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH,
                       "node %s is wrongly marked as %scanonical", name,
                       canonical ? "" : "not ");
          return FALSE;
        }
      if (args->kind != GRAFT_ARG_TUPLE || kwargs->kind != GRAFT_ARG_DICT)
        {
          g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH,
                       "node %s has malformed args or kwargs", name);
          return FALSE;
        }
      for (guint i = 0; i < kwargs->n; i++)
        if (kwargs->items[2 * i].kind != GRAFT_ARG_STR)
          {
            g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH,
                         "node %s has a keyword that is not a string", name);
            return FALSE;
          }
      if (!check_arg_nodes (self, names, node, args, flags, error) ||
          !check_arg_nodes (self, names, node, kwargs, flags, error))
        return FALSE;
      for (guint i = 0; i < n_users; i++)
        {
          GraftNode *user = graft_node_get_user (node, i);

          if (graft_node_get_graph (user) != self ||
              (!arg_refers_to (graft_node_get_args (user), node) &&
               !arg_refers_to (graft_node_get_kwargs (user), node)))
            {
              g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH,
                           "%s is listed as a user of %s but does not use it",
                           graft_node_get_name (user), name);
              return FALSE;
            }
        }
      if (graft_node_get_op (node) == GRAFT_OP_OUTPUT)
        outputs++;
    }
  last = graft_graph_get_last (self);
  /* Erased nodes kept for undo keep their names bound to them. */
  if (prev != last || count != graft_graph_get_n_nodes (self) ||
      count - _graft_graph_get_n_live_sharers (self) + _graft_graph_get_n_trash_bound (self) !=
          _graft_namespace_get_n_bound (names))
    {
      g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH,
                   "the graph counts %u nodes but holds %u", graft_graph_get_n_nodes (self), count);
      return FALSE;
    }
  if (outputs != 1 || last == NULL || graft_node_get_op (last) != GRAFT_OP_OUTPUT)
    {
      g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH,
                   "the graph must end with exactly one output node (it has %u)", outputs);
      return FALSE;
    }
  return TRUE;
}
