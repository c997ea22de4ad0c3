/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-listing.c: writes the graph listing exactly as torch.fx 1.13.1's
 * `Graph.__str__` and `Node.format_node` do (`torch/fx/graph.py`,
 * `torch/fx/node.py`).  The reader lives in graft-listing-reader.c.
 */
#include "config.h"

#include "graft-listing.h"
#include "graft-arg.h"
#include "graft-strbuf-private.h"
#include "graft-graph.h"
#include "graft-type-text-private.h"

#include <string.h>

/* Python's `str(value)`: a string or device as its bare text, anything
 * else as its repr (so strings nested in a tuple keep their quotes). */
static void
append_python_str (GString        *out,
                   const GraftArg *arg)
{
  if (arg->kind == GRAFT_ARG_STR || arg->kind == GRAFT_ARG_DEVICE)
    _graft_buf_append_len (out, arg->s, arg->n);
  else
    graft_arg_append_repr (out, arg, GRAFT_REPR_CODE, NULL, NULL);
}

/**
 * graft_listing_to_gstring:
 * @graph: a graph
 *
 * Returns: (transfer full): `str(graph)` of the graph's torch: `graph():`, then
 *   one line per node, each after `"\n    "`; no trailing newline.  A string
 *   argument is printed raw, so the text may hold NUL bytes: use the
 *   GString's length.
 */
GString *
graft_listing_to_gstring (GraftGraph *graph)
{
  GString    *out;
  const char *users_field;

  g_return_val_if_fail (graph != NULL, NULL);

  out = g_string_new ("graph():");
  users_field = graft_graph_get_dialect (graph)->users_field;

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      GraftOp         op = graft_node_get_op (node);
      const GraftArg *args = graft_node_get_args (node);
      const char     *type = graft_node_get_type_annotation (node);

      _graft_buf_append (out, "\n    ");
      if (op == GRAFT_OP_OUTPUT)
        {
          _graft_buf_append (out, "return ");
          if (args->n > 0)
            append_python_str (out, &args->items[0]);
          else
            _graft_buf_append (out, "None");
          continue;
        }
      g_string_append_c (out, '%');
      _graft_buf_append (out, graft_node_get_name (node));
      _graft_buf_append (out, " : ");
      if (type != NULL)
        {
          _graft_type_text_append_listing (out, type);
          g_string_append_c (out, ' ');
        }
      g_string_append_c (out, '[');
      _graft_buf_append (out, users_field);
      g_string_append_c (out, '=');
      graft_append_int (out, graft_node_get_n_users (node));
      _graft_buf_append (out, "] = ");
      _graft_buf_append (out, graft_op_to_string (op));
      _graft_buf_append (out, "[target=");
      _graft_buf_append (out, graft_node_get_target (node));
      g_string_append_c (out, ']');
      if (op == GRAFT_OP_PLACEHOLDER)
        {
          if (args->n > 0)
            {
              _graft_buf_append (out, "(default=");
              append_python_str (out, &args->items[0]);
              g_string_append_c (out, ')');
            }
          continue;
        }
      if (op == GRAFT_OP_GET_ATTR)
        continue;
      _graft_buf_append (out, "(args = ");
      graft_arg_append_repr (out, args, GRAFT_REPR_LISTING, NULL, NULL);
      _graft_buf_append (out, ", kwargs = ");
      graft_arg_append_repr (out, graft_node_get_kwargs (node), GRAFT_REPR_LISTING, NULL, NULL);
      g_string_append_c (out, ')');
    }
  return out;
}

/**
 * graft_listing_print:
 * @graph: a graph
 *
 * Like graft_listing_to_gstring(), as a NUL-terminated string (which ends
 * early if a string argument holds a NUL byte).
 *
 * Returns: (transfer full): the listing
 */
char *
graft_listing_print (GraftGraph *graph)
{
  return g_string_free (graft_listing_to_gstring (graph), FALSE);
}
