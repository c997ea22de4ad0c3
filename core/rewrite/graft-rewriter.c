/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-rewriter.c: `replace_pattern` as torch.fx does it
 * (`torch/fx/subgraph_rewriter.py`; 1.13.1's `replace_pattern` and 2.6's
 * `_replace_pattern` do the same steps): for each match in order, the
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
 * Metadata (a program's shapes, stack traces, module stacks) is torch
 * 2.6's: a copy has its replacement node's (node_copy copies `meta`, and
 * symbolic tracing of a function records none, so copies print no
 * annotation and no source line); a node that stays, a placeholder's
 * value included, keeps its own; an erased node keeps its metadata for
 * undo; the program's signature is left as it is, even where it names an
 * erased output (torch rewrites `gm.graph`, not `ep.graph_signature`).
 *
 * Torch's insertion rule can put a copy before the definition of a value it
 * reads (fx-semantics.md, "insertion-point hazard").  The rewrite reproduces
 * that exactly, as the output must equal torch's, and says so in a warning.
 */
#include "config.h"

#include "graft-rewriter.h"
#include "graft-error.h"
#include "graft-graph.h"
#include "graft-graph-private.h"
#include "graft-match-private.h"
#include "graft-ptr-map-private.h"
#include "graft-edit.h"
#include "graft-meta.h"

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

/* A place in a prepared argument where a replacement node stands: each
 * match puts there what the node stands for (the value at @pos of the
 * value map). */
typedef struct
{
  GraftArg *at;
  guint     pos;
  gboolean  is_param; /* the node at @pos is a placeholder */
} Hole;

/* A replacement node's argument, prepared once per rewrite: the same
 * value with its containers laid out anew (in @items) and its replacement
 * nodes as holes.  Filled in for a match, it is what the copy reads, to be
 * copied into the graph: what the holes hold is borrowed. */
typedef struct
{
  GraftArg  value;
  GraftArg *items; /* owned: every container's items */
  Hole     *holes; /* owned */
  guint     n_holes;
} Prepared;

/* A replacement node other than a placeholder or the output, prepared once
 * per rewrite: what each of its copies takes from it. */
typedef struct
{
  GraftNode           *rn;
  GraftOp              op;
  const char          *target;
  const char          *graph_target; /* @target in the graph's strings (nullable) */
  const char          *name;         /* in the graph's strings */
  const char          *type;         /* nullable */
  gboolean             is_wrapped;
  const GraftNodeMeta *meta;          /* nullable */
  gboolean             plain;         /* not a get_attr, no type, not wrapped, no meta */
  GraftArg             pooled_args;   /* owned: rn's, in the graph's pool */
  GraftArg             pooled_kwargs; /* owned */
  Prepared             args;          /* pooled_args, its nodes holes */
  Prepared             kwargs;
  guint                pos; /* in the value map */
} Template;

static void
arg_free (gpointer data)
{
  graft_arg_clear (data);
  g_free (data);
}

/* How many items the containers of @arg that hold nodes hold, all
 * levels, and how many nodes it refers to (lay_out() leaves the others as
 * they are). */
static void
count_parts (const GraftArg *arg,
             guint          *n_items,
             guint          *n_nodes)
{
  guint n = graft_arg_count_items (arg);

  if (arg->kind == GRAFT_ARG_NODE)
    {
      (*n_nodes)++;
      return;
    }
  if (n == 0 || !graft_arg_has_node (arg))
    return;
  *n_items += n;
  for (guint i = 0; i < n; i++)
    count_parts (&arg->items[i], n_items, n_nodes);
}

static void
prepared_clear (Prepared *p)
{
  g_clear_pointer (&p->items, g_free);
  g_clear_pointer (&p->holes, g_free);
}
/* Fails the rewrite of @match, located at the match in the graph's source
 * (its first matched node), as the user's input is where to look. */
static gboolean
fail (GError          **error,
      const GraftMatch *match,
      const char       *format,
      ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (GError          **error,
      const GraftMatch *match,
      const char       *format,
      ...)
{
  va_list          ap;
  g_autofree char *message = NULL;
  g_autoptr (GPtrArray) nodes = graft_match_dup_nodes (match);

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  if (nodes->len > 0)
    graft_node_set_error (nodes->pdata[0], error, GRAFT_ERROR_REWRITE, "%s", message);
  else
    g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, message);
  return FALSE;
}

static void
warn_hazard (GraftRewrite *self,
             GraftNode    *copy,
             GraftNode    *used,
             guint         match_number)
{
  g_ptr_array_add (self->warnings,
                   g_strdup_printf ("match %u: %s is inserted before %s, which it uses; "
                                    "the rewritten code reads %s before defining it "
                                    "(torch.fx %s inserts the replacement at the same "
                                    "place)",
                                    match_number, graft_node_get_name (copy),
                                    graft_node_get_name (used), graft_node_get_name (used),
                                    graft_graph_get_dialect (graft_node_get_graph (copy))
                                        ->version));
}

/* Graph nodes a copy reads through replacement parameters and would
 * precede, in the order its arguments hold them: the values it reads
 * before their definition (see copy_replacement()). */
typedef struct
{
  GraftNode **items;
  guint       len;
  guint       alloc;
} Reads;

static inline void
reads_push (Reads     *reads,
            GraftNode *node)
{
  if (G_UNLIKELY (reads->len == reads->alloc))
    {
      reads->alloc = MAX (2 * reads->alloc, 8);
      reads->items = g_renew (GraftNode *, reads->items, reads->alloc);
    }
  reads->items[reads->len++] = node;
}

/* The graph nodes inside @arg, a parameter's value, that are not
 * before @first. */
static void
collect_read_nodes (const GraftArg *arg,
                    GraftNode      *first,
                    Reads          *out)
{
  guint n;

  if (arg->kind == GRAFT_ARG_NODE)
    {
      if (graft_node_compare_order (arg->node, first) >= 0)
        reads_push (out, arg->node);
      return;
    }
  n = graft_arg_count_items (arg);
  for (guint i = 0; i < n; i++)
    collect_read_nodes (&arg->items[i], first, out);
}

/* The first user of a match's returning nodes, in graph order. */
static GraftNode *
first_user (const GraftMatch *match,
            GError          **error)
{
  GraftPattern *pattern = match->pattern;
  GraftNode    *first = NULL;

  for (guint i = 0; i < pattern->returning->len; i++)
    {
      GraftNode *gn = match->bindings[g_array_index (pattern->returning, guint, i)].node;
      guint      n_users;

      if (gn == NULL)
        {
          fail (error, match,
                "the pattern returns a value that matched a literal, which cannot be replaced");
          return NULL;
        }
      _graft_node_settle_users (gn);
      n_users = graft_node_get_n_users (gn);
      for (guint u = 0; u < n_users; u++)
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

/* A matched node and the node that replaced it. */
typedef struct
{
  GraftNode *from;
  GraftNode *to;
} Change;

/* One rewrite under way: what holds for every match, prepared once, and
 * the match being replaced, which the phases of replace_one() fill in
 * turn. */
typedef struct
{
  /* Borrowed */
  GraftRewrite *self;
  GraftGraph   *graph;
  GraftPattern *pattern;
  GraftGraph   *replacement;
  GraftNode    *rep_output;   /* the replacement's output node, or NULL */
  guint32       changed_mark; /* slot 0 of every node in changed or changed_literals */
  /* Owned */
  GPtrArray  *placeholders; /* GraftNode *: the replacement's, in order */
  Template   *templates;    /* the replacement's other nodes, in order */
  guint       n_templates;
  guint      *erased; /* the pattern positions a match erases, in order */
  guint       n_erased;
  GraftNode **dying;          /* what they are bound to in the match being erased */
  GraftPtrMap positions;      /* replacement node -> position + 1 in values */
  GraftArg   *values;         /* `val_map` of graph_copy: what each replacement
                               * node stands for in this match */
  guint      *value_set;      /* per position: the match number that set it */
  gboolean   *is_param;       /* per position: a placeholder */
  guint      *param_pos;      /* per placeholder: its position */
  Prepared    out;            /* what the replacement returns */
  Reads       reads;          /* for the hazard check */
  gboolean    filled_literal; /* fill() put a literal in a hole */
  Change     *changes;        /* in the order they were made */
  guint       n_changes;
  guint       changes_size;
  GraftPtrMap changed; /* changes[0..n_mapped) as a map: from -> to; made at
                        * the first lookup, as most rewrites never look */
  guint       n_mapped;
  guint       n_expected;       /* changes the whole rewrite may make */
  GHashTable *changed_literals; /* matched node -> GraftArg *: the literal that replaced it */
  GPtrArray  *literals;         /* GraftArg *: every literal changed_literals held, kept
                                 * to the end (the value map borrows them) */
  /* The match being replaced.  Borrowed */
  const GraftMatch *match;
  guint             match_number;
  guint             n_added; /* copies in self->added so far */
  GraftNode        *first;   /* the first user of its returning nodes */
  /* Owned */
  GraftArg out_value; /* what the replacement returns, mapped */
} Rewriting;

/* Lays @src out in @p's items from *@next on, its nodes made holes. */
static void
lay_out (Rewriting      *rw,
         const GraftArg *src,
         GraftArg       *out,
         Prepared       *p,
         guint          *next)
{
  guint n;

  *out = *src;
  if (src->kind == GRAFT_ARG_NODE)
    {
      guint pos = GPOINTER_TO_UINT (_graft_ptr_map_lookup (&rw->positions, src->node));

      g_assert (pos > 0);
      p->holes[p->n_holes].at = out;
      p->holes[p->n_holes].pos = pos - 1;
      p->holes[p->n_holes].is_param = rw->is_param[pos - 1];
      p->n_holes++;
      return;
    }
  n = graft_arg_count_items (src);
  /* A container of plain values (shared, or copied with the node) is
   * the same for every copy. */
  if (n == 0 || !graft_arg_has_node (src))
    return;
  out->items = &p->items[*next];
  *next += n;
  for (guint i = 0; i < n; i++)
    lay_out (rw, &src->items[i], &out->items[i], p, next);
}

static void
prepare_arg (Rewriting      *rw,
             const GraftArg *src,
             Prepared       *p)
{
  guint n_items = 0, n_nodes = 0, next = 0;

  count_parts (src, &n_items, &n_nodes);
  p->items = g_new (GraftArg, MAX (n_items, 1));
  p->holes = g_new (Hole, MAX (n_nodes, 1));
  p->n_holes = 0;
  lay_out (rw, src, &p->value, p, &next);
}

static void
rewriting_prepare (Rewriting *rw,
                   guint      n_matches)
{
  GraftGraph *replacement = rw->replacement;
  guint       n = graft_graph_get_n_nodes (replacement);
  guint       pos = 0;

  rw->placeholders = g_ptr_array_new ();
  rw->templates = g_new0 (Template, MAX (n, 1));
  rw->values = g_new0 (GraftArg, MAX (n, 1));
  rw->value_set = g_new0 (guint, MAX (n, 1));
  rw->is_param = g_new0 (gboolean, MAX (n, 1));
  rw->param_pos = g_new0 (guint, MAX (n, 1));
  _graft_ptr_map_init (&rw->positions, n);
  for (GraftNode *rn = graft_graph_get_first (replacement); rn != NULL;
       rn = graft_node_get_next (rn), pos++)
    {
      GraftOp op = graft_node_get_op (rn);

      _graft_ptr_map_insert (&rw->positions, rn, GUINT_TO_POINTER (pos + 1));
      if (op == GRAFT_OP_PLACEHOLDER)
        {
          rw->param_pos[rw->placeholders->len] = pos;
          g_ptr_array_add (rw->placeholders, rn);
          rw->is_param[pos] = TRUE;
        }
      else if (op == GRAFT_OP_OUTPUT)
        {
          /* graph_copy stops at the first output. */
          if (rw->rep_output == NULL)
            rw->rep_output = rn;
        }
      else if (rw->rep_output == NULL)
        {
          Template *t = &rw->templates[rw->n_templates++];

          t->rn = rn;
          t->op = op;
          t->target = graft_node_get_target (rn);
          /* The copies' names and arguments come from the graph's own
           * strings and pool: the replacement may go before the graph. */
          t->name = graft_graph_intern (rw->graph, graft_node_get_name (rn));
          t->type = graft_node_get_type_annotation (rn);
          t->is_wrapped = graft_node_get_is_wrapped (rn);
          t->meta = graft_node_get_meta (rn);
          t->plain =
              op != GRAFT_OP_GET_ATTR && t->type == NULL && !t->is_wrapped && t->meta == NULL;
          t->pos = pos;
        }
    }
  /* Once every position is known. */
  for (guint i = 0; i < rw->n_templates; i++)
    {
      Template *t = &rw->templates[i];

      _graft_graph_lay_out_args (rw->graph, &t->pooled_args, &t->pooled_kwargs,
                                 graft_node_get_args (t->rn), graft_node_get_kwargs (t->rn));
      prepare_arg (rw, &t->pooled_args, &t->args);
      prepare_arg (rw, &t->pooled_kwargs, &t->kwargs);
    }
  if (rw->rep_output != NULL && graft_node_get_args (rw->rep_output)->n > 0)
    prepare_arg (rw, &graft_node_get_args (rw->rep_output)->items[0], &rw->out);
  rw->erased = g_new (guint, MAX (rw->pattern->nodes->len, 1));
  rw->dying = g_new (GraftNode *, MAX (rw->pattern->nodes->len, 1));
  for (guint i = rw->pattern->nodes->len; i > 0; i--)
    {
      GraftOp op = graft_node_get_op (rw->pattern->nodes->pdata[i - 1]);

      if (op != GRAFT_OP_PLACEHOLDER && op != GRAFT_OP_OUTPUT)
        rw->erased[rw->n_erased++] = i - 1;
    }
  rw->n_expected = n_matches * rw->pattern->returning->len;
  /* Each match changes that many, unless it fails. */
  rw->changes_size = MIN (rw->n_expected, 1u << 24);
  rw->changes = g_new (Change, MAX (rw->changes_size, 1));
  rw->changed_literals = g_hash_table_new (NULL, NULL);
  rw->literals = g_ptr_array_new_with_free_func (arg_free);
}

static void
rewriting_clear (Rewriting *rw)
{
  g_clear_pointer (&rw->placeholders, g_ptr_array_unref);
  for (guint i = 0; rw->templates != NULL && i < rw->n_templates; i++)
    {
      prepared_clear (&rw->templates[i].args);
      prepared_clear (&rw->templates[i].kwargs);
      _graft_graph_release_arg (rw->graph, &rw->templates[i].pooled_args);
      _graft_graph_release_arg (rw->graph, &rw->templates[i].pooled_kwargs);
    }
  prepared_clear (&rw->out);
  g_clear_pointer (&rw->templates, g_free);
  g_clear_pointer (&rw->erased, g_free);
  g_clear_pointer (&rw->dying, g_free);
  g_clear_pointer (&rw->values, g_free);
  g_clear_pointer (&rw->value_set, g_free);
  g_clear_pointer (&rw->is_param, g_free);
  g_clear_pointer (&rw->param_pos, g_free);
  g_clear_pointer (&rw->reads.items, g_free);
  g_clear_pointer (&rw->changed_literals, g_hash_table_unref);
  g_clear_pointer (&rw->literals, g_ptr_array_unref);
  _graft_ptr_map_clear (&rw->positions);
  _graft_ptr_map_clear (&rw->changed);
  g_clear_pointer (&rw->changes, g_free);
}

static inline void
add_change (Rewriting *rw,
            GraftNode *from,
            GraftNode *to)
{
  if (G_UNLIKELY (rw->n_changes == rw->changes_size))
    {
      rw->changes_size = MAX (2 * rw->changes_size, 64);
      rw->changes = g_renew (Change, rw->changes, rw->changes_size);
    }
  rw->changes[rw->n_changes].from = from;
  rw->changes[rw->n_changes].to = to;
  rw->n_changes++;
}

/* The node that replaced @from last, or %NULL. */
static GraftNode *
lookup_change (Rewriting *rw,
               GraftNode *from)
{
  if (rw->changed.slots == NULL)
    _graft_ptr_map_init (&rw->changed, rw->n_expected);
  for (; rw->n_mapped < rw->n_changes; rw->n_mapped++)
    _graft_ptr_map_insert (&rw->changed, rw->changes[rw->n_mapped].from,
                           rw->changes[rw->n_mapped].to);
  return _graft_ptr_map_lookup (&rw->changed, from);
}

/* Sets what the replacement node at @pos stands for in this match (each
 * is set at most once per match): @value is borrowed. */
static inline void
set_value (Rewriting      *rw,
           guint           pos,
           const GraftArg *value)
{
  g_assert (rw->value_set[pos] != rw->match_number);
  rw->value_set[pos] = rw->match_number;
  rw->values[pos] = *value;
}

static inline void
set_node (Rewriting *rw,
          guint      pos,
          GraftNode *node)
{
  g_assert (rw->value_set[pos] != rw->match_number);
  rw->value_set[pos] = rw->match_number;
  rw->values[pos] = (GraftArg){ .kind = GRAFT_ARG_NODE, .node = node };
}

/* map_arg, on a prepared argument: each hole filled with what its node
 * stands for in this match.  With @reads, the graph nodes parameters
 * bring in that a copy put before the first user would precede are
 * listed there (see copy_replacement()). */
static inline G_ALWAYS_INLINE const GraftArg *
fill (Rewriting *rw,
      Prepared  *p,
      Reads     *reads)
{
  /* Read once: the stores below could alias them for the compiler. */
  const Hole     *holes = p->holes;
  const GraftArg *values = rw->values;
  const guint    *value_set = rw->value_set;
  guint           match_number = rw->match_number;
  guint           n = p->n_holes;

  for (guint i = 0; i < n; i++)
    {
      const Hole *hole = &holes[i];
      GraftArg   *at = hole->at;

      g_assert (value_set[hole->pos] == match_number);
      *at = values[hole->pos];
      if (at->kind == GRAFT_ARG_NODE)
        {
          if (reads != NULL && hole->is_param &&
              graft_node_compare_order (at->node, rw->first) >= 0)
            reads_push (reads, at->node);
          continue;
        }
      /* A literal of the match, in the heap's form. */
      rw->filled_literal = TRUE;
      if (reads != NULL && hole->is_param)
        collect_read_nodes (at, rw->first, reads);
    }
  return &p->value;
}

/* The replacement must take as many parameters as the pattern. */
static gboolean
check_arity (Rewriting *rw,
             GError   **error)
{
  guint n_pattern = rw->pattern->placeholders->len;

  if (n_pattern == rw->placeholders->len)
    return TRUE;
  return fail (error, rw->match,
               "the pattern takes %u parameter%s but the replacement takes %u; "
               "they must take the same number "
               "(torch.fx asserts this)",
               n_pattern, n_pattern == 1 ? "" : "s", rw->placeholders->len);
}

/* Each replacement parameter stands for what the pattern parameter in
 * the same position matched, or for its replacement when an earlier
 * match replaced it. */
static void
bind_placeholders (Rewriting *rw)
{
  /* Read once: the stores below could alias them for the compiler. */
  const guint        *indices = (const guint *) rw->pattern->placeholders->data;
  const GraftBinding *bindings = rw->match->bindings;
  const guint        *param_pos = rw->param_pos;
  guint32             changed_mark = rw->changed_mark;
  guint               n = rw->placeholders->len;

  for (guint i = 0; i < n; i++)
    {
      const GraftBinding *b = &bindings[indices[i]];
      GraftNode          *gn = b->state == GRAFT_BOUND_NODE ? b->node : NULL;
      const GraftArg     *literal =
          b->state == GRAFT_BOUND_LITERAL ? &rw->match->literals[indices[i]] : NULL;

      guint pos = param_pos[i];

      /* Only a node an earlier match replaced is in the maps. */
      if (gn != NULL && !_graft_node_has_mark (gn, 0, changed_mark))
        {
          set_node (rw, pos, gn);
          continue;
        }
      /* Replaced by a literal (found in changed_literals), or by a node. */
      if (gn != NULL &&
          !g_hash_table_lookup_extended (rw->changed_literals, gn, NULL, (gpointer *) &literal))
        {
          GraftNode *now = lookup_change (rw, gn);

          set_node (rw, pos, now != NULL ? now : gn);
          continue;
        }
      /* The match's own literal, or the one in changed_literals: both
       * outlive the match. */
      if (literal != NULL)
        set_value (rw, pos, literal);
    }
}

/* torch 2.6's `_replace_attributes`: an attribute the replacement reads and
 * the graph's module lacks is copied over (an existing one takes
 * precedence); here, what it holds, for later matches.  torch 1.13.1 copies
 * submodules only, and Graft keeps no record of those. */
static void
copy_attribute (Rewriting  *rw,
                const char *target)
{
  GraftAttrKind kind = graft_graph_get_attr_kind (rw->replacement, target);

  if (graft_graph_get_dialect (rw->graph)->copies_replacement_attributes &&
      kind != GRAFT_ATTR_UNKNOWN &&
      graft_graph_get_attr_kind (rw->graph, target) == GRAFT_ATTR_UNKNOWN)
    graft_graph_set_attr_kind (rw->graph, target, kind);
}

/* graph_copy: every replacement node but placeholders, in order, before
 * the first user, named after the replacement node; then what the
 * replacement returns, mapped. */
static gboolean
copy_replacement (Rewriting *rw,
                  GError   **error)
{
  guint32 start, end;

  graft_node_get_span (rw->first, &start, &end);
  for (guint i = 0; i < rw->n_templates; i++)
    {
      Template       *t = &rw->templates[i];
      const GraftArg *args, *kwargs;
      GraftNode      *copy;

      rw->reads.len = 0;
      rw->filled_literal = FALSE;
      args = fill (rw, &t->args, &rw->reads);
      kwargs = t->kwargs.n_holes == 0 ? &t->kwargs.value : fill (rw, &t->kwargs, &rw->reads);
      /* Interned once, the copies' target is found by its address. */
      if (G_UNLIKELY (t->graph_target == NULL))
        t->graph_target = graft_graph_intern (rw->graph, t->target);
      copy = _graft_graph_create_node_request (
          rw->graph,
          &(GraftNodeRequest){ .op = t->op,
                               .how = rw->filled_literal ? GRAFT_ARGS_COPIED : GRAFT_ARGS_LAID_OUT,
                               .target = t->graph_target,
                               .args = args,
                               .kwargs = kwargs,
                               .name_candidate = t->name,
                               .before = rw->first,
                               .static_text = TRUE,
                               .span_start = start,
                               .span_end = end });
      if (G_UNLIKELY (!t->plain))
        {
          if (t->op == GRAFT_OP_GET_ATTR)
            copy_attribute (rw, t->target);
          /* A new node has no annotation and is not wrapped. */
          if (t->type != NULL)
            graft_node_set_type_annotation (copy, t->type);
          if (t->is_wrapped)
            graft_node_set_is_wrapped (copy, TRUE);
          /* node_copy: `result_node.meta = copy.copy(node.meta)`, the
           * replacement node's, which symbolic tracing left empty. */
          if (t->meta != NULL)
            graft_node_set_meta (copy, t->meta);
        }
      set_node (rw, t->pos, copy);
      if (G_UNLIKELY (rw->n_added == rw->self->added->len))
        g_ptr_array_set_size (rw->self->added, rw->n_added * 2);
      rw->self->added->pdata[rw->n_added++] = copy;
      /* A copy put before a value it reads: only a replacement parameter
       * can stand for one (the copies before it precede it).  The copy
       * is just before the first user: fill() listed those not before
       * that. */
      for (guint r = 0; r < rw->reads.len; r++)
        {
          g_assert (graft_node_compare_order (rw->reads.items[r], copy) > 0);
          warn_hazard (rw->self, copy, rw->reads.items[r], rw->match_number);
        }
    }
  if (rw->rep_output == NULL || graft_node_get_args (rw->rep_output)->n == 0)
    return fail (error, rw->match, "the replacement has no output");
  /* Borrowed like a copy's arguments, until the next match. */
  rw->out_value = *fill (rw, &rw->out, NULL);
  return TRUE;
}

/* Pair the returning nodes with what the replacement returns, and move
 * the uses of each to its partner. */
static gboolean
replace_returned (Rewriting *rw,
                  GError   **error)
{
  const GraftArg *out_value = &rw->out_value;
  GraftPattern   *pattern = rw->pattern;
  guint           n_returning = pattern->returning->len;
  const GraftArg *items;
  guint           n_items;

  if (out_value->kind == GRAFT_ARG_NODE)
    {
      items = out_value;
      n_items = 1;
    }
  else if (out_value->kind == GRAFT_ARG_TUPLE || out_value->kind == GRAFT_ARG_LIST)
    {
      items = out_value->items;
      n_items = out_value->n;
    }
  else
    {
      g_autofree char *repr = graft_arg_repr (out_value, GRAFT_REPR_CODE);

      return fail (error, rw->match,
                   "the replacement returns the constant %s, not a value of the graph "
                   "(torch.fx: object of type '%s' has no len())",
                   repr, graft_arg_kind_to_string (out_value->kind));
    }
  if (n_items != n_returning)
    return fail (error, rw->match,
                 "the pattern returns %u value%s but the replacement returns %u",
                 n_returning, n_returning == 1 ? "" : "s", n_items);
  for (guint i = 0; i < n_items; i++)
    {
      GraftNode *gn = rw->match->bindings[g_array_index (pattern->returning, guint, i)].node;

      if (items[i].kind != GRAFT_ARG_NODE)
        {
          /* A parameter bound to a literal, returned: torch.fx puts the
           * literal where the value was used, and later matches see it
           * in its place. */
          GraftArg *literal;

          if (graft_arg_has_node (&items[i]))
            return fail (error, rw->match,
                         "the replacement returns a container where the pattern returns a value");
          graft_graph_replace_all_uses_with_value (rw->graph, gn, &items[i]);
          literal = g_new (GraftArg, 1);
          graft_arg_copy (literal, &items[i]);
          g_ptr_array_add (rw->literals, literal);
          g_hash_table_insert (rw->changed_literals, gn, literal);
          _graft_node_set_mark_held (gn, 0, rw->changed_mark);
          continue;
        }
      /* `gn.replace_all_uses_with(gn)`: each user is given gn back and
       * stays its user, and both torches' replace_all_uses_with then
       * assert that gn has none left.  Its users at that moment count:
       * the matched nodes not yet erased and the copies just made too. */
      if (items[i].node == gn)
        {
          _graft_node_settle_users (gn);
          if (graft_node_get_n_users (gn) > 0)
            return fail (error, rw->match,
                         "the replacement returns %s where the pattern returns it, "
                         "and %s still has users "
                         "(torch.fx: AssertionError in Node.replace_all_uses_with)",
                         graft_node_get_name (gn), graft_node_get_name (gn));
        }
      graft_graph_replace_all_uses (rw->graph, gn, items[i].node);
      add_change (rw, gn, items[i].node);
      _graft_node_set_mark_held (gn, 0, rw->changed_mark);
    }
  return TRUE;
}

/* Erase the matched nodes, in reverse pattern order, one by one: the
 * first that cannot go fails the rewrite. */
static gboolean
erase_matched_each (Rewriting *rw,
                    GError   **error)
{
  GraftGraph *graph = rw->graph;

  for (guint k = 0; k < rw->n_erased; k++)
    {
      guint               pos = rw->erased[k];
      const GraftBinding *b = &rw->match->bindings[pos];
      GraftNode          *gn = b->state == GRAFT_BOUND_NODE ? b->node : NULL;
      guint               n_users;

      if (gn == NULL)
        {
          GraftNode *pn = rw->pattern->nodes->pdata[pos];

          return fail (error, rw->match,
                       "the pattern's %s stands for nothing in match %u: with ignore_literals, it "
                       "was matched against a constant (torch.fx: KeyError: %s)",
                       graft_node_get_name (pn), rw->match_number, graft_node_get_name (pn));
        }
      if (!_graft_node_is_attached (graph, gn))
        return fail (error, rw->match, "match %u refers to a node that is no longer in the graph",
                     rw->match_number);
      _graft_node_settle_users (gn);
      n_users = graft_node_get_n_users (gn);
      if (n_users > 0)
        return fail (error, rw->match,
                     "%s cannot be erased: it still has %u user%s "
                     "(torch.fx: Tried to erase Node %s but it still had users)",
                     graft_node_get_name (gn), n_users, n_users == 1 ? "" : "s",
                     graft_node_get_name (gn));
      graft_graph_erase_node (graph, gn);
    }
  return TRUE;
}

/* Erase the matched nodes, in reverse pattern order: in one pass when
 * each can go once those before it went (every user of each is erased
 * before it), as the usual match; else one by one, which fails where
 * torch does. */
static gboolean
erase_matched (Rewriting *rw,
               GError   **error)
{
  GraftGraph         *graph = rw->graph;
  const GraftBinding *bindings = rw->match->bindings;
  const guint        *erased = rw->erased;
  GraftNode         **dying = rw->dying;
  guint               n = rw->n_erased;

  for (guint k = 0; k < n; k++)
    {
      const GraftBinding *b = &bindings[erased[k]];
      GraftNode          *gn;

      /* A node with one before it is in the list. */
      if (b->state != GRAFT_BOUND_NODE ||
          (graft_node_get_prev (b->node) == NULL && !_graft_node_is_attached (graph, b->node)))
        return erase_matched_each (rw, error);
      gn = b->node;
      if (!_graft_node_users_among (gn, dying, k))
        return erase_matched_each (rw, error);
      dying[k] = gn;
    }
  _graft_graph_erase_dying (graph, dying, n);
  return TRUE;
}

/* Replaces @match, the @match_number-th, phase by phase. */
static gboolean
replace_one (Rewriting        *rw,
             const GraftMatch *match,
             guint             match_number,
             GError          **error)
{
  gboolean ok;

  rw->match = match;
  rw->match_number = match_number;
  rw->first = NULL;
  graft_arg_init_none (&rw->out_value);

  ok = check_arity (rw, error);
  if (ok)
    {
      bind_placeholders (rw);
      rw->first = first_user (match, error);
      ok = rw->first != NULL;
    }
  ok = ok && copy_replacement (rw, error);
  ok = ok && replace_returned (rw, error);
  ok = ok && erase_matched (rw, error);

  graft_arg_init_none (&rw->out_value);
  return ok;
}

/* torch recompiles the rewritten graph: code it cannot compile fails the
 * rewrite.  An int literal before a dot is one such: a replacement's
 * parameter bound to `2`, used as a method's receiver, prints `2.exp()`
 * (SyntaxError: invalid decimal literal). */
static G_GNUC_NO_INLINE gboolean
node_compiles (GraftNode *node,
               GError   **error)
{
  const GraftArg *args = graft_node_get_args (node);
  GraftOp         op = graft_node_get_op (node);
  gboolean        dotted;

  dotted = op == GRAFT_OP_CALL_METHOD ||
           (op == GRAFT_OP_CALL_FUNCTION &&
            strcmp (graft_node_get_target (node), "builtins.getattr") == 0 && args->n == 2 &&
            args->items[1].kind == GRAFT_ARG_STR && graft_is_python_identifier (args->items[1].s));
  if (dotted)
    {
      g_autofree char *receiver = graft_arg_repr (&args->items[0], GRAFT_REPR_CODE);

      graft_node_set_error (node, error, GRAFT_ERROR_REWRITE,
                            "the rewritten code does not compile: %s would be `%s.%s`, "
                            "an int literal before '.' (torch: SyntaxError: invalid decimal "
                            "literal)",
                            graft_node_get_name (node), receiver,
                            op == GRAFT_OP_CALL_METHOD ? graft_node_get_target (node)
                                                       : args->items[1].s);
      return FALSE;
    }
  return TRUE;
}

/* Whether @node's first argument is an int literal, which node_compiles()
 * looks at further. */
static inline gboolean
starts_with_int (GraftNode *node);

/**
 * graft_rewriter_check_node:
 * @node: a node
 * @error: where to say why not
 *
 * The check a rewrite makes of each node of the graph it leaves, which
 * fails it where torch's recompile would (an int literal before a dot,
 * `2.exp()`).  A graph every node of which passes it is one whose next
 * rewrite need check only what it changes (graft_rewrite_job_set_checked()).
 *
 * Returns: %TRUE if @node passes; else %FALSE with @error set
 *   (%GRAFT_ERROR_REWRITE) as the rewrite's would be
 */
gboolean
graft_rewriter_check_node (GraftNode *node,
                           GError   **error)
{
  g_return_val_if_fail (node != NULL, FALSE);
  return !starts_with_int (node) || node_compiles (node, error);
}

static inline gboolean
starts_with_int (GraftNode *node)
{
  const GraftArg *args = graft_node_get_args (node);

  /* An int beyond 64 bits is a symbol of its digits. */
  return args->n > 0 &&
         (args->items[0].kind == GRAFT_ARG_INT ||
          (args->items[0].kind == GRAFT_ARG_SYMBOL &&
           (g_ascii_isdigit (args->items[0].s[0]) ||
            (args->items[0].s[0] == '-' && g_ascii_isdigit (args->items[0].s[1])))));
}

typedef enum {
  PHASE_REPLACING, /* the matches, in order */
  PHASE_CHECKING,  /* whether the code compiles, node by node */
  PHASE_DONE,
  PHASE_FAILED, /* rolled back, with the error */
} Phase;

/**
 * GraftRewriteJob:
 *
 * graft_rewriter_apply() as work done by steps.  Between two steps the
 * graph is half rewritten and is the job's alone: nothing else may read
 * or change it (its users lists are settled only at the end, its scratch
 * marks hold what the job found, and an edit is being recorded), and the
 * pattern, the replacement and the matches must stay as they are.  A job
 * freed before it is done rolls the graph back as it was.
 */
struct _GraftRewriteJob
{
  /* Owned */
  GraftRewrite *self;  /* until finished */
  Rewriting     rw;    /* cleared once the matches are replaced */
  GError       *error; /* PHASE_FAILED's */
  /* Borrowed */
  GraftGraph *graph;
  GPtrArray  *matches;
  GraftNode  *checking; /* PHASE_CHECKING: the next node to check; of the
                         * added nodes only, the first failing so far */
  guint next;           /* PHASE_REPLACING: the next match; PHASE_CHECKING of
                         * the added nodes only: the next of those */
  gboolean checked;     /* the graph before passes the check (set_checked()) */
  gboolean added_only;  /* PHASE_CHECKING looks at the added nodes only */
  guint    match_work;
  Phase    phase;
};

/* Puts the graph back as it was before the job began. */
static void
job_roll_back (GraftRewriteJob *job)
{
  GraftGraph *graph = job->graph;

  if (job->phase == PHASE_DONE)
    graft_edit_undo (job->self->edit);
  else
    {
      g_autoptr (GraftEdit) edit = NULL;

      if (job->phase == PHASE_REPLACING)
        _graft_graph_settle_users (graph);
      edit = graft_graph_end_edit (graph);
      graft_edit_undo (edit);
      if (job->phase == PHASE_REPLACING)
        {
          rewriting_clear (&job->rw);
          _graft_graph_release_marks (graph);
        }
    }
  job->phase = PHASE_FAILED;
}

/* After the last match: the users lists settled, the marks given back. */
static void
job_replaced (GraftRewriteJob *job)
{
  GraftGraph *graph = job->graph;

  g_ptr_array_set_size (job->self->added, job->rw.n_added);
  /* A literal put where a value was used is the one change besides the
   * nodes added that can put an int before a dot. */
  job->added_only = job->checked && job->rw.literals->len == 0;
  rewriting_clear (&job->rw);
  _graft_graph_settle_users (graph);
  _graft_graph_release_marks (graph);
  job->checking = job->added_only ? NULL : graft_graph_get_first (graph);
  job->next = 0;
  job->phase = PHASE_CHECKING;
}

/**
 * graft_rewrite_job_new:
 * @graph: the graph to rewrite
 * @pattern: the pattern the matches come from
 * @replacement: the replacement graph, traced from `replacement`
 * @matches: (element-type GraftMatch): matches of @pattern in @graph, found
 *   on the graph as it is now (all of them, or any subset, in order)
 *
 * Begins graft_rewriter_apply() by steps (graft_rewrite_job_step()).  All
 * four are borrowed until the job is freed.
 *
 * Returns: (transfer full): the job
 */
GraftRewriteJob *
graft_rewrite_job_new (GraftGraph   *graph,
                       GraftPattern *pattern,
                       GraftGraph   *replacement,
                       GPtrArray    *matches)
{
  GraftRewriteJob *job;
  GraftRewrite    *self;
  Rewriting       *rw;

  g_return_val_if_fail (graph != NULL && pattern != NULL && replacement != NULL && matches != NULL,
                        NULL);

  job = g_new0 (GraftRewriteJob, 1);
  job->graph = graph;
  job->matches = matches;
  job->self = self = g_new0 (GraftRewrite, 1);
  rw = &job->rw;
  rw->self = self;
  rw->graph = graph;
  rw->pattern = pattern;
  rw->replacement = replacement;
  rewriting_prepare (rw, matches->len);
  job->match_work = MAX (rw->n_templates + rw->n_erased, 1);
  /* Each match adds a copy of every template, filled in order in slots
   * that copy_replacement() doubles as they run out: matches times
   * templates can be far more than the graph may hold (and wrap), the
   * rewrite failing at the node limit first. */
  self->added = g_ptr_array_new ();
  g_ptr_array_set_size (self->added,
                        (guint) CLAMP ((guint64) matches->len * rw->n_templates, 1, 1024));
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  _graft_graph_hold_marks (graph);
  rw->changed_mark = _graft_graph_new_mark (graph);
  graft_graph_begin_edit (graph);
  /* Users leaving the long lists of busy values (weights read by every
   * match) are taken out once, at the end. */
  _graft_graph_defer_user_removals (
      graph, (guint) MIN ((guint64) matches->len * rw->n_erased, G_MAXUINT));
  /* Each match adds its copies and records about one operation a node
   * it adds, erases or gives a new input (a returned node's user). */
  _graft_graph_expect_changes (
      graph, (guint) MIN ((guint64) matches->len * rw->n_templates, 1u << 24),
      (guint) MIN ((guint64) matches->len *
                       (rw->n_templates + rw->n_erased + pattern->returning->len),
                   1u << 24));
  job->phase = PHASE_REPLACING;
  return job;
}

/* PHASE_CHECKING of the added nodes only (the graph before passed the
 * check): about @work of them from the next, counted in @done; whether
 * they are all checked (or one failed, the graph rolled back).  Of those
 * that fail, the first in graph order is named, as the walk of the whole
 * graph would name it: job->checking holds it meanwhile. */
static gboolean
check_added (GraftRewriteJob *job,
             guint            work,
             guint           *done)
{
  GPtrArray *added = job->self->added;

  for (; job->next < added->len; job->next++)
    {
      GraftNode *node = added->pdata[job->next];

      if (G_UNLIKELY (starts_with_int (node)) && _graft_node_is_attached (job->graph, node) &&
          !graft_rewriter_check_node (node, NULL) &&
          (job->checking == NULL || graft_node_compare_order (node, job->checking) < 0))
        job->checking = node;
      if (work != G_MAXUINT && ++*done >= work && job->next + 1 < added->len)
        {
          job->next++;
          return FALSE;
        }
    }
  if (job->checking != NULL)
    {
      node_compiles (job->checking, &job->error);
      job_roll_back (job);
    }
  job->checking = NULL;
  return TRUE;
}

/**
 * graft_rewrite_job_set_checked:
 * @self: a job not stepped yet
 * @checked: whether every node of the graph before passes
 *   graft_rewriter_check_node()
 *
 * A graph known to pass the check needs it only of the nodes the rewrite
 * adds (unless it puts a literal where a value was used, which checks
 * the whole graph): the job's end then costs what it added, not the
 * graph's size.  The answer and its error are the same either way.
 */
void
graft_rewrite_job_set_checked (GraftRewriteJob *self,
                               gboolean         checked)
{
  g_return_if_fail (self != NULL && self->phase == PHASE_REPLACING && self->next == 0);
  self->checked = checked;
}

/**
 * graft_rewrite_job_step:
 * @self: a job
 * @work: about how much to do: a node a match adds or erases counts 1,
 *   and so does a node checked after the last match; %G_MAXUINT for all
 *
 * Goes on with the rewrite, for about @work (at least one match or node).
 *
 * Returns: whether the job is done (graft_rewrite_job_finish()), or failed
 *   and rolled the graph back
 */
gboolean
graft_rewrite_job_step (GraftRewriteJob *self,
                        guint            work)
{
  guint done = 0;

  g_return_val_if_fail (self != NULL, TRUE);

  while (self->phase == PHASE_REPLACING)
    {
      Rewriting *rw = &self->rw;

      if (self->next == self->matches->len)
        {
          job_replaced (self);
          break;
        }
      if (!replace_one (rw, self->matches->pdata[self->next], self->next + 1, &self->error))
        {
          g_prefix_error (&self->error, "cannot replace match %u: ", self->next + 1);
          job_roll_back (self);
          return TRUE;
        }
      self->self->n_replaced++;
      self->next++;
      done += self->match_work;
      if (done >= work)
        return FALSE;
    }
  if (self->phase == PHASE_CHECKING && self->added_only)
    {
      if (!check_added (self, work, &done))
        return FALSE;
      if (self->phase == PHASE_FAILED)
        return TRUE;
      self->self->edit = graft_graph_end_edit (self->graph);
      self->phase = PHASE_DONE;
    }
  if (self->phase == PHASE_CHECKING)
    {
      for (GraftNode *node = self->checking; node != NULL; node = graft_node_get_next (node))
        {
          if (G_UNLIKELY (starts_with_int (node)) && !node_compiles (node, &self->error))
            {
              job_roll_back (self);
              return TRUE;
            }
          if (work != G_MAXUINT && ++done >= work && graft_node_get_next (node) != NULL)
            {
              self->checking = graft_node_get_next (node);
              return FALSE;
            }
        }
      self->checking = NULL;
      self->self->edit = graft_graph_end_edit (self->graph);
      self->phase = PHASE_DONE;
    }
  return TRUE;
}

/**
 * graft_rewrite_job_finish:
 * @self: a job
 * @error: return location for the error that stopped it
 *
 * Does what is left of the job at once, if anything.
 *
 * Returns: (transfer full) (nullable): what the rewrite did, with the edit
 *   that undoes it; %NULL if it failed, the graph as it was
 */
GraftRewrite *
graft_rewrite_job_finish (GraftRewriteJob *self,
                          GError         **error)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->phase == PHASE_REPLACING || self->phase == PHASE_CHECKING)
    graft_rewrite_job_step (self, G_MAXUINT);
  if (self->phase == PHASE_FAILED)
    {
      if (self->error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&self->error));
          return NULL;
        }
      g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, "the rewrite was finished");
      return NULL;
    }
  self->phase = PHASE_FAILED;
  return g_steal_pointer (&self->self);
}

/**
 * graft_rewrite_job_get_n_replaced:
 * @self: a job
 *
 * Returns: how many matches it has replaced so far
 */
guint
graft_rewrite_job_get_n_replaced (GraftRewriteJob *self)
{
  return self->self != NULL ? self->self->n_replaced : 0;
}

/**
 * graft_rewrite_job_free:
 * @self: (nullable): a job
 *
 * Frees the job; one not done rolls the graph back first.
 */
void
graft_rewrite_job_free (GraftRewriteJob *self)
{
  if (self == NULL)
    return;
  if (self->phase != PHASE_FAILED)
    job_roll_back (self);
  if (self->self != NULL)
    rewrite_free_inner (self->self);
  g_clear_error (&self->error);
  g_free (self);
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
  GraftRewriteJob *job;
  GraftRewrite    *rewrite;

  g_return_val_if_fail (graph != NULL && pattern != NULL && replacement != NULL && matches != NULL,
                        NULL);

  job = graft_rewrite_job_new (graph, pattern, replacement, matches);
  rewrite = graft_rewrite_job_finish (job, error);
  graft_rewrite_job_free (job);
  return rewrite;
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
  g_autoptr (GPtrArray) matches = graft_matcher_find_full (pattern, graph, options, NULL, error);

  if (matches == NULL)
    return NULL;
  return graft_rewriter_apply (graph, pattern, replacement, matches, error);
}
