/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-rewriter.c: `replace_pattern` as torch.fx 1.13.1 does it
 * (`torch/fx/subgraph_rewriter.py`): for each match in order, the
 * replacement graph is copied in before the first user of the match's
 * returning nodes, the uses of those nodes move to the copies, and the
 * matched nodes are erased in reverse pattern order.  A later match whose
 * input was produced by an earlier one reads the earlier replacement
 * instead.
 *
 * The whole rewrite is recorded as one edit of the graph (graft-graph.c),
 * so it can be undone and redone, and a rewrite that fails half-way is
 * rolled back: the graph is never left half rewritten.
 *
 * Torch's insertion rule can put a copy before the definition of a value it
 * reads (fx-semantics.md, "insertion-point hazard").  The rewrite reproduces
 * that exactly, as the output must equal torch's, and says so in a warning.
 */
#include "config.h"

#include "graft-rewriter.h"
#include "graft-error.h"
#include "graft-graph.h"

#include <string.h>

struct _GraftRewrite
{
  /* Owned */
  GPtrArray *added;    /* GraftNode *, borrowed: the copies, in order */
  GPtrArray *warnings; /* char * */
  GraftEdit *edit;
  guint      n_replaced;
};

static void
rewrite_free_inner (GraftRewrite *self)
{
  g_ptr_array_unref (self->added);
  g_ptr_array_unref (self->warnings);
  graft_edit_free (self->edit);
  g_free (self);
}

void
graft_rewrite_free (GraftRewrite *self)
{
  if (self != NULL)
    rewrite_free_inner (self);
}

/**
 * graft_rewrite_get_n_replaced:
 *
 * Returns: how many matches were replaced
 */
guint
graft_rewrite_get_n_replaced (GraftRewrite *self)
{
  return self->n_replaced;
}

/**
 * graft_rewrite_get_added_nodes:
 *
 * Returns: (transfer none) (element-type GraftNode): the nodes the rewrite
 *   copied in, valid while the rewrite is applied
 */
GPtrArray *
graft_rewrite_get_added_nodes (GraftRewrite *self)
{
  return self->added;
}

/**
 * graft_rewrite_get_warnings:
 *
 * Returns: (transfer none) (element-type utf8): one line per warning
 */
GPtrArray *
graft_rewrite_get_warnings (GraftRewrite *self)
{
  return self->warnings;
}

/**
 * graft_rewrite_get_edit:
 *
 * Returns: (transfer none): the edit that undoes and redoes the rewrite
 */
GraftEdit *
graft_rewrite_get_edit (GraftRewrite *self)
{
  return self->edit;
}

/**
 * graft_rewrite_steal_edit:
 *
 * Returns: (transfer full): the edit, which the caller now owns
 */
GraftEdit *
graft_rewrite_steal_edit (GraftRewrite *self)
{
  return g_steal_pointer (&self->edit);
}

/* `val_map` of graph_copy: what a replacement node stands for in the graph,
 * a node or (for a placeholder bound to a literal) a literal. */
typedef struct
{
  GHashTable *map; /* replacement node -> GraftArg * */
} ValMap;

static void
arg_free (gpointer data)
{
  graft_arg_clear (data);
  g_free (data);
}

/* map_arg: a copy of @arg with every replacement node replaced by what it
 * stands for. */
static void
map_arg (ValMap         *vm,
         const GraftArg *arg,
         GraftArg       *out)
{
  guint n = graft_arg_count_items (arg);

  if (arg->kind == GRAFT_ARG_NODE)
    {
      const GraftArg *mapped = g_hash_table_lookup (vm->map, arg->node);

      g_assert (mapped != NULL);
      graft_arg_copy (out, mapped);
      return;
    }
  graft_arg_copy (out, arg);
  for (guint i = 0; i < n; i++)
    {
      graft_arg_clear (&out->items[i]);
      map_arg (vm, &arg->items[i], &out->items[i]);
    }
}

static void
set_node (ValMap    *vm,
          GraftNode *key,
          GraftNode *node)
{
  GraftArg *value = g_new (GraftArg, 1);

  graft_arg_init_node (value, node);
  g_hash_table_insert (vm->map, key, value);
}

/* Fails the rewrite of @match, located at the match in the graph's source
 * (its first matched node), as the user's input is where to look. */
static gboolean
fail (GError           **error,
      const GraftMatch  *match,
      const char        *format,
      ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (GError           **error,
      const GraftMatch  *match,
      const char        *format,
      ...)
{
  va_list ap;
  g_autofree char *message = NULL;
  g_autoptr(GPtrArray) nodes = graft_match_dup_nodes (match);

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  if (nodes->len > 0)
    graft_node_set_error (nodes->pdata[0], error, GRAFT_ERROR_REWRITE, "%s", message);
  else
    g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, message);
  return FALSE;
}

/* Reports copies that read a value defined after the point they were put
 * at: torch writes such code, and so does Graft, but the user should know. */
static void
check_hazard (GraftRewrite *self,
              GraftNode    *copy,
              const GraftArg *arg,
              guint         match_number)
{
  guint n = graft_arg_count_items (arg);

  if (arg->kind == GRAFT_ARG_NODE)
    {
      if (graft_node_compare_order (arg->node, copy) > 0)
        g_ptr_array_add (self->warnings,
                         g_strdup_printf ("match %u: %s is inserted before %s, which it uses; "
                                          "the rewritten code reads %s before defining it "
                                          "(torch.fx 1.13.1 inserts the replacement at the same place)",
                                          match_number, graft_node_get_name (copy),
                                          graft_node_get_name (arg->node), graft_node_get_name (arg->node)));
      return;
    }
  for (guint i = 0; i < n; i++)
    check_hazard (self, copy, &arg->items[i], match_number);
}

/* The first user of a match's returning nodes, in graph order. */
static GraftNode *
first_user (const GraftMatch *match,
            guint             n_returning,
            GError          **error)
{
  GraftNode *first = NULL;

  for (guint i = 0; i < n_returning; i++)
    {
      GraftNode *gn = graft_match_get_returning_node (match, i);

      if (gn == NULL)
        {
          fail (error, match, "the pattern returns a value that matched a literal, which cannot be replaced");
          return NULL;
        }
      for (guint u = 0; u < graft_node_get_n_users (gn); u++)
        {
          GraftNode *user = graft_node_get_user (gn, u);

          if (first == NULL || graft_node_compare_order (user, first) < 0)
            first = user;
        }
    }
  if (first == NULL)
    fail (error, match,
          "the values the pattern returns are not used by anything in the graph "
          "(torch.fx: The returning_nodes should have at least one user node)");
  return first;
}

static gboolean
replace_one (GraftRewrite     *self,
             GraftGraph       *graph,
             GraftPattern     *pattern,
             GraftGraph       *replacement,
             GPtrArray        *placeholders,
             const GraftMatch *match,
             GHashTable       *changed,
             GHashTable       *changed_literals,
             guint             match_number,
             GError          **error)
{
  ValMap vm = { g_hash_table_new_full (NULL, NULL, NULL, arg_free) };
  guint n_returning = graft_pattern_get_n_returning (pattern);
  GraftNode *first, *rep_output = NULL;
  GraftArg out_value;
  g_autoptr(GPtrArray) copies = g_ptr_array_new ();
  gboolean ok = FALSE;

  graft_arg_init_none (&out_value);
  if (graft_pattern_get_n_placeholders (pattern) != placeholders->len)
    {
      fail (error, match,
            "the pattern takes %u parameter%s but the replacement takes %u; they must take the same number "
            "(torch.fx asserts this)",
            graft_pattern_get_n_placeholders (pattern), graft_pattern_get_n_placeholders (pattern) == 1 ? "" : "s",
            placeholders->len);
      goto out;
    }
  /* Each replacement parameter stands for what the pattern parameter in
   * the same position matched, or for its replacement when an earlier
   * match replaced it. */
  for (guint i = 0; i < placeholders->len; i++)
    {
      GraftNode *gn = NULL;
      const GraftArg *literal = NULL;

      graft_match_get_placeholder (match, i, &gn, &literal);
      if (gn != NULL && g_hash_table_contains (changed_literals, gn))
        literal = g_hash_table_lookup (changed_literals, gn);
      else if (gn != NULL)
        {
          GraftNode *now = g_hash_table_lookup (changed, gn);

          set_node (&vm, placeholders->pdata[i], now != NULL ? now : gn);
          continue;
        }
      if (literal != NULL)
        {
          GraftArg *value = g_new (GraftArg, 1);

          graft_arg_copy (value, literal);
          g_hash_table_insert (vm.map, placeholders->pdata[i], value);
        }
    }

  first = first_user (match, n_returning, error);
  if (first == NULL)
    goto out;

  /* graph_copy: every replacement node but placeholders, in order, before
   * the first user, named after the replacement node. */
  for (GraftNode *rn = graft_graph_get_first (replacement); rn != NULL; rn = graft_node_get_next (rn))
    {
      GraftArg args, kwargs;
      GraftNode *copy;

      if (graft_node_get_op (rn) == GRAFT_OP_PLACEHOLDER)
        continue;
      if (graft_node_get_op (rn) == GRAFT_OP_OUTPUT)
        {
          rep_output = rn;
          break;
        }
      map_arg (&vm, graft_node_get_args (rn), &args);
      map_arg (&vm, graft_node_get_kwargs (rn), &kwargs);
      copy = graft_graph_create_node (graph, graft_node_get_op (rn), graft_node_get_target (rn),
                                      &args, &kwargs, graft_node_get_name (rn), first);
      graft_node_set_type_annotation (copy, graft_node_get_type_annotation (rn));
      graft_node_set_is_wrapped (copy, graft_node_get_is_wrapped (rn));
      {
        guint32 start, end;

        graft_node_get_span (first, &start, &end);
        graft_node_set_span (copy, start, end);
      }
      set_node (&vm, rn, copy);
      g_ptr_array_add (copies, copy);
      g_ptr_array_add (self->added, copy);
    }
  for (guint i = 0; i < copies->len; i++)
    {
      GraftNode *copy = copies->pdata[i];

      check_hazard (self, copy, graft_node_get_args (copy), match_number);
      check_hazard (self, copy, graft_node_get_kwargs (copy), match_number);
    }
  if (rep_output == NULL || graft_node_get_args (rep_output)->n == 0)
    {
      fail (error, match, "the replacement has no output");
      goto out;
    }
  map_arg (&vm, &graft_node_get_args (rep_output)->items[0], &out_value);

  /* Pair the returning nodes with what the replacement returns. */
  {
    const GraftArg *items;
    guint n_items;

    if (out_value.kind == GRAFT_ARG_NODE)
      {
        items = &out_value;
        n_items = 1;
      }
    else if (out_value.kind == GRAFT_ARG_TUPLE || out_value.kind == GRAFT_ARG_LIST)
      {
        items = out_value.items;
        n_items = out_value.n;
      }
    else
      {
        g_autofree char *repr = graft_arg_repr (&out_value, GRAFT_REPR_CODE);

        fail (error, match,
              "the replacement returns the constant %s, not a value of the graph (torch.fx: object of type '%s' has no len())",
              repr, graft_arg_kind_to_string (out_value.kind));
        goto out;
      }
    if (n_items != n_returning)
      {
        fail (error, match,
              "the pattern returns %u value%s but the replacement returns %u",
              n_returning, n_returning == 1 ? "" : "s", n_items);
        goto out;
      }
    for (guint i = 0; i < n_items; i++)
      {
        GraftNode *gn = graft_match_get_returning_node (match, i);

        if (items[i].kind != GRAFT_ARG_NODE)
          {
            /* A parameter bound to a literal, returned: torch.fx puts the
             * literal where the value was used, and later matches see it
             * in its place. */
            GraftArg *literal = g_new (GraftArg, 1);

            if (graft_arg_has_node (&items[i]))
              {
                g_free (literal);
                fail (error, match, "the replacement returns a container where the pattern returns a value");
                goto out;
              }
            graft_graph_replace_all_uses_with_value (graph, gn, &items[i]);
            graft_arg_copy (literal, &items[i]);
            g_hash_table_insert (changed_literals, gn, literal);
            continue;
          }
        graft_graph_replace_all_uses (graph, gn, items[i].node);
        g_hash_table_insert (changed, gn, items[i].node);
      }
  }

  /* Erase the matched nodes, in reverse pattern order. */
  for (guint i = graft_pattern_get_n_nodes (pattern); i > 0; i--)
    {
      GraftNode *pn = graft_pattern_get_node (pattern, i - 1);
      GraftNode *gn = NULL;
      GraftOp op = graft_node_get_op (pn);

      if (op == GRAFT_OP_PLACEHOLDER || op == GRAFT_OP_OUTPUT)
        continue;
      graft_match_get_binding (match, i - 1, &gn, NULL);
      if (gn == NULL || graft_node_get_graph (gn) != graph || graft_graph_find_node (graph, graft_node_get_name (gn)) != gn)
        {
          fail (error, match, "match %u refers to a node that is no longer in the graph", match_number);
          goto out;
        }
      if (graft_node_get_n_users (gn) > 0)
        {
          fail (error, match,
                "%s cannot be erased: it still has %u user%s (torch.fx: Tried to erase Node %s but it still had users)",
                graft_node_get_name (gn), graft_node_get_n_users (gn),
                graft_node_get_n_users (gn) == 1 ? "" : "s", graft_node_get_name (gn));
          goto out;
        }
      graft_graph_erase_node (graph, gn);
    }
  ok = TRUE;

out:
  graft_arg_clear (&out_value);
  g_hash_table_unref (vm.map);
  return ok;
}

/* torch recompiles the rewritten graph: code it cannot compile fails the
 * rewrite.  An int literal before a dot is one such: a replacement's
 * parameter bound to `2`, used as a method's receiver, prints `2.exp()`
 * (SyntaxError: invalid decimal literal). */
static gboolean
compiles (GraftGraph *graph,
          GError    **error)
{
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL; node = graft_node_get_next (node))
    {
      const GraftArg *args = graft_node_get_args (node);
      gboolean dotted = graft_node_get_op (node) == GRAFT_OP_CALL_METHOD ||
                        (graft_node_get_op (node) == GRAFT_OP_CALL_FUNCTION &&
                         strcmp (graft_node_get_target (node), "builtins.getattr") == 0 && args->n == 2 &&
                         args->items[1].kind == GRAFT_ARG_STR && graft_is_python_identifier (args->items[1].s));

      /* An int beyond 64 bits is a symbol of its digits. */
      if (dotted && args->n > 0 &&
          (args->items[0].kind == GRAFT_ARG_INT ||
           (args->items[0].kind == GRAFT_ARG_SYMBOL &&
            (g_ascii_isdigit (args->items[0].s[0]) || (args->items[0].s[0] == '-' && g_ascii_isdigit (args->items[0].s[1]))))))
        {
          g_autofree char *receiver = graft_arg_repr (&args->items[0], GRAFT_REPR_CODE);

          graft_node_set_error (node, error, GRAFT_ERROR_REWRITE,
                                "the rewritten code does not compile: %s would be `%s.%s`, "
                                "an int literal before '.' (torch: SyntaxError: invalid decimal literal)",
                                graft_node_get_name (node), receiver,
                                graft_node_get_op (node) == GRAFT_OP_CALL_METHOD ? graft_node_get_target (node)
                                                                                 : args->items[1].s);
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * graft_rewriter_apply:
 * @graph: the graph to rewrite
 * @pattern: the pattern the matches come from
 * @replacement: the replacement graph, traced from `replacement`
 * @matches: (element-type GraftMatch): matches of @pattern in @graph, found
 *   on the graph as it is now (all of them, or any subset, in order)
 * @error: return location for an error
 *
 * Replaces each match in turn, as `replace_pattern` does.  On failure the
 * graph is restored as it was.
 *
 * Returns: (transfer full) (nullable): what the rewrite did, with the edit
 *   that undoes it
 */
GraftRewrite *
graft_rewriter_apply (GraftGraph   *graph,
                      GraftPattern *pattern,
                      GraftGraph   *replacement,
                      GPtrArray    *matches,
                      GError      **error)
{
  GraftRewrite *self;
  g_autoptr(GPtrArray) placeholders = g_ptr_array_new ();
  g_autoptr(GHashTable) changed = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) changed_literals = g_hash_table_new_full (NULL, NULL, NULL, arg_free);

  g_return_val_if_fail (graph != NULL && pattern != NULL && replacement != NULL && matches != NULL, NULL);

  for (GraftNode *rn = graft_graph_get_first (replacement); rn != NULL; rn = graft_node_get_next (rn))
    if (graft_node_get_op (rn) == GRAFT_OP_PLACEHOLDER)
      g_ptr_array_add (placeholders, rn);

  self = g_new0 (GraftRewrite, 1);
  self->added = g_ptr_array_new ();
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  graft_graph_begin_edit (graph);
  for (guint i = 0; i < matches->len; i++)
    {
      if (!replace_one (self, graph, pattern, replacement, placeholders, matches->pdata[i], changed, changed_literals,
                        i + 1, error))
        {
          /* Roll back: the graph is as it was before the rewrite. */
          g_autoptr(GraftEdit) edit = graft_graph_end_edit (graph);

          graft_edit_undo (edit);
          g_prefix_error (error, "cannot replace match %u: ", i + 1);
          rewrite_free_inner (self);
          return NULL;
        }
      self->n_replaced++;
    }
  if (!compiles (graph, error))
    {
      g_autoptr(GraftEdit) edit = graft_graph_end_edit (graph);

      graft_edit_undo (edit);
      rewrite_free_inner (self);
      return NULL;
    }
  self->edit = graft_graph_end_edit (graph);
  return self;
}

/**
 * graft_replace_pattern:
 * @options: (nullable): matcher options; %NULL for replace_pattern's
 *
 * `replace_pattern (gm, pattern, replacement)`: finds every match and
 * replaces them all.
 *
 * Returns: (transfer full) (nullable): what the rewrite did
 */
GraftRewrite *
graft_replace_pattern (GraftGraph              *graph,
                       GraftPattern            *pattern,
                       GraftGraph              *replacement,
                       const GraftMatchOptions *options,
                       GError                 **error)
{
  g_autoptr(GPtrArray) matches = graft_matcher_find (pattern, graph, options, NULL);

  return graft_rewriter_apply (graph, pattern, replacement, matches, error);
}
