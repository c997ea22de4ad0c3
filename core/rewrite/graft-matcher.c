/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-matcher.c: subgraph matching as torch.fx's `SubgraphMatcher.match`
 * does it (`torch/fx/passes/utils/matcher_utils.py`), in the dialect of the
 * graph searched (docs/dialects.md, section 5): torch 1.13.1 compares
 * flattened arguments and get_attr nodes by name; torch 2.6 compares
 * arguments as nested lists and tuples, kwargs in order (an aten
 * operator's calls filled out from its schema first when they differ),
 * get_attr nodes by the kind of value they read, and has its own
 * `ignore_literals`.  The
 * results come in torch's order, and faster:
 *
 * - candidates for every anchor come from one pass over the graph, which
 *   compares each distinct target text once (targets are interned) instead
 *   of once per node and anchor; the same pass finds out whether every
 *   node that any match must bind has an equal in the graph, and when one
 *   has none the search stops there (most rules of a rule set, most of
 *   the time);
 * - bindings are undone through a trail instead of copying the whole map at
 *   every anchor level;
 * - the cycle check walks forward from the match only as far as the match's
 *   last node when the graph is in topological order (torch walks the rest
 *   of the graph for every match, which makes it quadratic), and the usual
 *   match passes it and the leak check by its nodes' counts of users and
 *   order alone (filter_match_fast());
 * - the depth-first walk from an anchor towards its inputs uses an explicit
 *   stack, so a pattern of any depth cannot overflow the C stack;
 * - that walk is compiled, once per search and anchor, into a flat program
 *   of comparisons, which leaves what it does not decide to the general
 *   walk (see "The compiled walk").
 *
 * Deviation (cli.md): when some anchor has no candidate at all, torch raises
 * KeyError; this reports no match.
 */
#include "config.h"

#include "graft-matcher.h"
#include "graft-aten-schema.h"
#include "graft-match-private.h"
#include "graft-ptr-map-private.h"
#include "graft-error.h"
#include "graft-graph.h"
#include "graft-graph-private.h"
#include "graft-limits.h"
#include "graft-memory-private.h"

#include <string.h>

typedef GraftBinding Binding;

enum {
  UNBOUND = GRAFT_UNBOUND,
  BOUND_NODE = GRAFT_BOUND_NODE,
  BOUND_LITERAL = GRAFT_BOUND_LITERAL,
};

/* The search state.  `bind` is the current partial match; `trail` lists the
 * pattern positions bound so far, in binding order, so that a failed
 * attempt is undone by popping back to a mark; a graph node bound in the
 * partial match carries `bound_mark` in its slot 0 (torch's
 * `gn in nodes_map.values()`; the map is injective, so a flag suffices). */
/* One frame of the depth-first walk: a pattern node bound to a graph node,
 * whose argument pairs are being compared: flattened leaves (1.13.1), or
 * the pairs torch 2.6's recursive `_match_args` reaches, in its order (two
 * lists or tuples of different lengths stay one pair, which fails).  The
 * pairs are items start ... end - 1 of the search's two leaf stacks: a
 * frame pushes its own above its parent's and they are cut off when it is
 * done, so the walk allocates nothing once the stacks have grown. */
typedef struct
{
  guint      start;
  guint      end;
  guint      next;
  GraftNode *pn; /* the nodes whose arguments these are */
  GraftNode *gn;
} Frame;

/* Growable arrays for the walk, pushed (VEC_PUSH) and cut back inline. */
typedef struct
{
  guint *items;
  guint  len;
  guint  alloc;
} PosVec;

typedef struct
{
  const GraftArg **items;
  guint            len;
  guint            alloc;
} LeafVec;

typedef struct
{
  Frame *items;
  guint  len;
  guint  alloc;
} FrameVec;

typedef struct
{
  GraftNode **items;
  guint       len;
  guint       alloc;
} NodeVec;

typedef struct
{
  GraftMatch **items;
  guint        len;
  guint        alloc;
} MatchVec;

#define VEC_PUSH(v, item)                                                      \
  G_STMT_START                                                                 \
  {                                                                            \
    if (G_UNLIKELY ((v)->len == (v)->alloc))                                   \
      {                                                                        \
        (v)->alloc = MAX ((v)->alloc * 2, 16);                                 \
        (v)->items = g_realloc_n ((v)->items, (v)->alloc, sizeof *(v)->items); \
      }                                                                        \
    (v)->items[(v)->len++] = (item);                                           \
  }                                                                            \
  G_STMT_END

typedef struct
{
  GraftPattern            *pattern;
  GraftGraph              *graph;
  const GraftMatchOptions *options;
  const GraftDialect      *dialect; /* the graph's: whose rules apply */
  Binding                 *bind;
  GraftArg                *literals; /* per pattern position: valid where bind[] is
                                      * BOUND_LITERAL (borrowed) */
  /* Per pattern position: a graph target pointer known to equal the
   * pattern node's target (the graph interns its targets, so one pointer
   * usually stands for every equal one), or NULL. */
  const char **same_target;
  GraftOp     *op_of; /* per pattern position: the node's op */
  /* Per pattern position: the node's arguments and keyword arguments. */
  const GraftArg **args_of;
  const GraftArg **kwargs_of;
  PosVec           trail;
  guint            n_literals; /* bindings to a literal on the trail */
  guint32          bound_mark; /* slot 0: the graph node is bound */
  MatchVec         found;      /* complete matches, before the filters */
  guint64          attempts;   /* candidates backtrack() tried, at every anchor */
  /* Where matches are allocated: the rest of the current block. */
  GraftMatchBlock *block;
  guint8          *block_next;
  gsize            block_left;
  guint            block_capacity; /* matches the last block held */
  guint            rooms_expected; /* at most this many more matches will be taken
                                    * (search_one_anchor()), or 0: unknown */
  LeafVec          pattern_leaves; /* the frames' pairs, pattern side */
  LeafVec          graph_leaves;   /* and graph side */
  FrameVec         stack;          /* Frames of the walk */
  struct _Program *programs;       /* per anchor, or NULL: see run_program() */
  /* Per pattern position: bound in every complete match (dup_required()),
   * once the candidates are found; or NULL (ignore_literals) */
  gboolean *required;
  /* Per pattern position, with required: how many required pattern nodes
   * pair it among their arguments (dup_required()) */
  guint     *paired;
  gboolean   explaining; /* graft_matcher_explain() is walking */
  char      *why;        /* its first failure, or NULL */
  GraftNode *failed_pn;  /* the nodes whose comparison failed first, */
  GraftNode *failed_gn;  /* when it was one of two nodes */
} Search;

void
graft_match_options_init (GraftMatchOptions *options)
{
  memset (options, 0, sizeof *options);
  options->remove_overlapping_matches = TRUE;
}

/* Matching ------------------------------------------------------------------ */

/* torch 2.6's `_match_attributes`: two get_attr nodes match when the
 * values they read have the same type (an nn.Parameter, or a plain tensor:
 * a buffer or a constant), whatever their names.  A graph read from a
 * listing or DOT file does not say what its attributes hold: such an
 * attribute matches any tensor. */
static gboolean
attributes_match (Search    *s,
                  GraftNode *pn,
                  GraftNode *gn)
{
  GraftAttrKind pk = graft_graph_get_attr_kind (s->pattern->graph, graft_node_get_target (pn));
  GraftAttrKind gk = graft_graph_get_attr_kind (s->graph, graft_node_get_target (gn));

  return pk == GRAFT_ATTR_UNKNOWN || gk == GRAFT_ATTR_UNKNOWN || pk == gk;
}

/* What a get_attr node reads, in a sentence. */
static const char *
attr_kind_phrase (GraftGraph *graph,
                  GraftNode  *node)
{
  switch (graft_graph_get_attr_kind (graph, graft_node_get_target (node)))
    {
    case GRAFT_ATTR_PARAMETER:
      return "an nn.Parameter";
    case GRAFT_ATTR_TENSOR:
      return "a plain tensor";
    case GRAFT_ATTR_UNKNOWN:
    default:
      return "a value Graft does not know";
    }
}

/* Whether @target, a graph node's, is the text of @pn's target: a pointer
 * seen equal before answers without comparing text. */
static inline gboolean
targets_equal (Search     *s,
               GraftNode  *pn,
               guint       pos,
               const char *target)
{
  if (s->same_target[pos] == target)
    return TRUE;
  if (strcmp (graft_node_get_target (pn), target) != 0)
    return FALSE;
  s->same_target[pos] = target;
  return TRUE;
}

/* `_nodes_are_equal`. */
static inline gboolean
nodes_are_equal (Search    *s,
                 GraftNode *pn,
                 guint      pos,
                 GraftNode *gn)
{
  GraftOp op = s->op_of[pos];

  if (!s->options->match_placeholder && op == GRAFT_OP_PLACEHOLDER)
    return TRUE;
  if (op != graft_node_get_op (gn))
    return FALSE;
  if (op == GRAFT_OP_PLACEHOLDER || op == GRAFT_OP_OUTPUT)
    return TRUE;
  if (op == GRAFT_OP_GET_ATTR && s->dialect->matches_attributes_by_value)
    return attributes_match (s, pn, gn);
  return targets_equal (s, pn, pos, graft_node_get_target (gn));
}

/* graft_matcher_explain(): keeps the first reason a walk failed. */
static void explain_fail (Search     *s,
                          const char *format,
                          ...) G_GNUC_PRINTF (2, 3);

static void
explain_fail (Search     *s,
              const char *format,
              ...)
{
  va_list ap;

  if (!s->explaining || s->why != NULL)
    return;
  va_start (ap, format);
  s->why = g_strdup_vprintf (format, ap);
  va_end (ap);
}

/* How a node reads in a sentence: `add_3` (call_function operator.add). */
static char *
describe (GraftNode *node)
{
  GraftOp op = graft_node_get_op (node);

  if (op == GRAFT_OP_PLACEHOLDER || op == GRAFT_OP_OUTPUT)
    return g_strdup_printf ("'%s' (%s)", graft_node_get_name (node), graft_op_to_string (op));
  return g_strdup_printf ("'%s' (%s %s)", graft_node_get_name (node), graft_op_to_string (op),
                          graft_node_get_target (node));
}

/* pytree.tree_flatten of args: tuples, lists and dict values are expanded
 * depth first; everything else (nodes, literals, slices) is a leaf. */
static void
flatten (const GraftArg *arg,
         Search         *s,
         gboolean        pattern_side)
{
  switch (arg->kind)
    {
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_LIST:
      for (guint i = 0; i < arg->n; i++)
        flatten (&arg->items[i], s, pattern_side);
      return;
    case GRAFT_ARG_DICT:
      for (guint i = 0; i < arg->n; i++)
        flatten (&arg->items[2 * i + 1], s, pattern_side);
      return;
    case GRAFT_ARG_NONE:
    case GRAFT_ARG_ELLIPSIS:
    case GRAFT_ARG_BOOL:
    case GRAFT_ARG_INT:
    case GRAFT_ARG_FLOAT:
    case GRAFT_ARG_COMPLEX:
    case GRAFT_ARG_STR:
    case GRAFT_ARG_SYMBOL:
    case GRAFT_ARG_DEVICE:
    case GRAFT_ARG_NODE:
    case GRAFT_ARG_SLICE:
    default:
      if (pattern_side)
        VEC_PUSH (&s->pattern_leaves, arg);
      else
        VEC_PUSH (&s->graph_leaves, arg);
      return;
    }
}

static const GraftArg *
kwarg_get (const GraftArg *kwargs,
           const GraftArg *key)
{
  for (guint i = 0; i < kwargs->n; i++)
    if (graft_arg_equal (&kwargs->items[2 * i], key))
      return &kwargs->items[2 * i + 1];
  return NULL;
}

/* The trail has room for every pattern position (search_init()), and a
 * position is on it at most once: bound only when unbound. */
#define TRAIL_PUSH(s, pos) ((s)->trail.items[(s)->trail.len++] = (pos))

static inline void
bind_node (Search    *s,
           guint      pos,
           GraftNode *gn)
{
  s->bind[pos].state = BOUND_NODE;
  s->bind[pos].node = gn;
  _graft_node_set_mark_held (gn, 0, s->bound_mark);
  TRAIL_PUSH (s, pos);
}

static void
bind_literal (Search         *s,
              guint           pos,
              const GraftArg *literal)
{
  s->bind[pos].state = BOUND_LITERAL;
  /* Borrowed while searching; a recorded match copies it. */
  s->literals[pos] = *literal;
  s->n_literals++;
  TRAIL_PUSH (s, pos);
}

static inline void
undo_to (Search *s,
         guint   mark)
{
  while (s->trail.len > mark)
    {
      guint    pos = s->trail.items[--s->trail.len];
      Binding *b = &s->bind[pos];

      if (b->state == BOUND_NODE)
        _graft_node_set_mark_held (b->node, 0, 0);
      else if (b->state == BOUND_LITERAL)
        s->n_literals--;
      b->state = UNBOUND;
      b->node = NULL;
    }
}

/* undo_to (s, 0) for a search that changes its bound mark to @bound_mark,
 * which no node carries: the graph nodes' marks are left as they are. */
static inline void
undo_all (Search *s,
          guint32 bound_mark)
{
  while (s->trail.len > 0)
    {
      Binding *b = &s->bind[s->trail.items[--s->trail.len]];

      b->state = UNBOUND;
      b->node = NULL;
    }
  s->n_literals = 0;
  s->bound_mark = bound_mark;
}

/* `_match_args` (1.13.1) or `_match_literals` (2.6) for a pair that is not
 * two nodes. */
static gboolean
match_literals (Search         *s,
                const GraftArg *pa,
                const GraftArg *ga)
{
  if (pa->kind == GRAFT_ARG_NODE)
    {
      guint    pos;
      Binding *b;

      pos = _graft_pattern_position_of (s->pattern, pa->node);
      if (s->op_of[pos] != GRAFT_OP_PLACEHOLDER)
        return FALSE;
      b = &s->bind[pos];
      /* Python `==` without a type check: a placeholder bound to 2 accepts
       * 2.0 later; one bound to a node accepts no literal. */
      if (b->state == BOUND_LITERAL)
        return graft_arg_python_equal (&s->literals[pos], ga);
      if (b->state == BOUND_NODE)
        return FALSE;
      bind_literal (s, pos, ga);
      return TRUE;
    }
  if (ga->kind == GRAFT_ARG_NODE)
    return FALSE;
  return pa->kind == ga->kind && graft_arg_python_equal (pa, ga);
}

/* A pair that is not two nodes.  With ignore_literals, torch 2.6 accepts
 * any pair `_match_literals` refuses (a literal against a node too, and a
 * placeholder against a second, different literal); for torch 1.13.1, which
 * lacks the option, fx-reference gives it 2.x's meaning on flattened
 * leaves: two leaves that are not nodes match, a slice that holds a node
 * included (`p1[p0:]` against `x[2:]`: p0 stays unbound, KeyError). */
static gboolean
match_arg (Search         *s,
           const GraftArg *pa,
           const GraftArg *ga)
{
  if (s->dialect->matches_structured_args)
    return match_literals (s, pa, ga) || s->options->ignore_literals;
  if (s->options->ignore_literals && pa->kind != GRAFT_ARG_NODE && ga->kind != GRAFT_ARG_NODE)
    return TRUE;
  return match_literals (s, pa, ga);
}

static gboolean
is_sequence (const GraftArg *arg)
{
  return arg->kind == GRAFT_ARG_LIST || arg->kind == GRAFT_ARG_TUPLE;
}

/* torch 2.6's `_match_args` unrolled: the pairs it compares, in its order.
 * Two lists or tuples (either kind) of the same length are compared item
 * by item; of different lengths, they are one pair, which fails. */
static void pair_structured_items (const GraftArg *pa,
                                   const GraftArg *ga,
                                   Search         *s);

static inline void
pair_structured (const GraftArg *pa,
                 const GraftArg *ga,
                 Search         *s)
{
  if (is_sequence (pa) && is_sequence (ga) && pa->n == ga->n)
    {
      pair_structured_items (pa, ga, s);
      return;
    }
  VEC_PUSH (&s->pattern_leaves, pa);
  VEC_PUSH (&s->graph_leaves, ga);
}

/* pair_structured() of two sequences of the same length, item by item. */
static void
pair_structured_items (const GraftArg *pa,
                       const GraftArg *ga,
                       Search         *s)
{
  for (guint i = 0; i < pa->n; i++)
    pair_structured (&pa->items[i], &ga->items[i], s);
}

/* graft_matcher_explain(): why enter_node() refused @gn for @pn, which is
 * bound already (@b). */
static G_GNUC_NO_INLINE void
explain_bound (Search        *s,
               GraftNode     *pn,
               GraftNode     *gn,
               const Binding *b)
{
  g_autofree char *here = NULL;

  if (s->why != NULL)
    return;
  here = describe (gn);
  if (b->state == BOUND_NODE)
    explain_fail (s, "the pattern's '%s' stands for '%s' already, and here would also be %s",
                  graft_node_get_name (pn), graft_node_get_name (b->node), here);
  else
    explain_fail (s, "the pattern's '%s' stands for a constant already, and here would be %s",
                  graft_node_get_name (pn), here);
}

/* graft_matcher_explain(): why enter_node() found @pn and @gn unequal. */
static G_GNUC_NO_INLINE void
explain_unequal (Search    *s,
                 GraftNode *pn,
                 GraftNode *gn)
{
  g_autofree char *want = NULL;
  g_autofree char *have = NULL;

  if (s->why != NULL)
    return;
  want = describe (pn);
  have = describe (gn);
  if (graft_node_get_op (pn) == GRAFT_OP_GET_ATTR && graft_node_get_op (gn) == GRAFT_OP_GET_ATTR &&
      s->dialect->matches_attributes_by_value)
    explain_fail (s,
                  "the pattern has %s, which reads %s, where the graph has %s, which "
                  "reads %s (torch %s matches attributes by the type of their value)",
                  want, attr_kind_phrase (s->pattern->graph, pn), have,
                  attr_kind_phrase (s->graph, gn), s->dialect->version);
  else if (graft_node_get_op (pn) == GRAFT_OP_CALL_MODULE &&
           graft_node_get_op (gn) == GRAFT_OP_CALL_MODULE)
    /* The same layer at another path is the usual surprise of a pattern
     * over modules: say the rule. */
    explain_fail (s,
                  "the pattern's module is '%s' where the graph's '%s' calls '%s': "
                  "torch.fx matches call_module nodes only when their targets are equal",
                  graft_node_get_target (pn), graft_node_get_name (gn),
                  graft_node_get_target (gn));
  else
    explain_fail (s, "the pattern has %s where the graph has %s", want, have);
}

/* The checks of `_match_nodes` before its walk into the arguments.  Returns
 * -1 to fail, 0 when done (already bound to @gn, or a placeholder), 1 when
 * the arguments must be compared.  What graft_matcher_explain() needs is
 * worked out apart, off the path of a search. */
static G_ALWAYS_INLINE inline int
enter_node (Search    *s,
            GraftNode *pn,
            GraftNode *gn,
            guint     *out_pos)
{
  guint    pos = _graft_pattern_position_of (s->pattern, pn);
  Binding *b = &s->bind[pos];

  *out_pos = pos;
  if (G_UNLIKELY (s->explaining) && s->why == NULL)
    {
      /* Where the walk stands, should this comparison be its first failure. */
      s->failed_pn = pn;
      s->failed_gn = gn;
    }
  if (b->state != UNBOUND)
    {
      if (b->state == BOUND_NODE && b->node == gn)
        return 0;
      if (G_UNLIKELY (s->explaining))
        explain_bound (s, pn, gn, b);
      return -1;
    }
  if (_graft_node_has_mark (gn, 0, s->bound_mark))
    {
      if (G_UNLIKELY (s->explaining))
        explain_fail (s, "'%s' would stand for two nodes of the pattern, one of them '%s'",
                      graft_node_get_name (gn), graft_node_get_name (pn));
      return -1;
    }
  if (!nodes_are_equal (s, pn, pos, gn))
    {
      if (G_UNLIKELY (s->explaining))
        explain_unequal (s, pn, gn);
      return -1;
    }
  bind_node (s, pos, gn);
  if (s->op_of[pos] == GRAFT_OP_PLACEHOLDER)
    return 0;
  return 1;
}

/* The same keywords in the same order (torch 2.6 compares the key lists). */
static gboolean
kwarg_keys_equal (const GraftArg *pk,
                  const GraftArg *gk)
{
  if (pk->n != gk->n)
    return FALSE;
  for (guint i = 0; i < pk->n; i++)
    if (!graft_arg_equal (&pk->items[2 * i], &gk->items[2 * i]))
      return FALSE;
  return TRUE;
}

/* torch 2.6: as many positional arguments, the same keywords in the same
 * order, then every argument and keyword value paired structurally; for an
 * aten operator whose two calls differ in that, the arguments its schema
 * lists, each from a keyword, a position or its default. */
static gboolean
make_structured_frame (Search         *s,
                       GraftNode      *pn,
                       GraftNode      *gn,
                       const GraftArg *pa,
                       const GraftArg *pk,
                       const GraftArg *ga,
                       const GraftArg *gk)
{
  const GraftAtenSchema *schema = NULL;

  /* An aten operator (an OpOverload) whose calls differ in shape: both
   * sides filled out from the pattern's schema (`get_all_arguments`). */
  if ((pa->n != ga->n || !kwarg_keys_equal (pk, gk)) &&
      graft_node_get_op (pn) == GRAFT_OP_CALL_FUNCTION &&
      (schema = graft_aten_schema_lookup (graft_node_get_target (pn))) != NULL)
    {
      guint            n = graft_aten_schema_get_n_arguments (schema);
      const GraftArg **pall = g_new (const GraftArg *, MAX (n, 1));
      const GraftArg **gall = g_new (const GraftArg *, MAX (n, 1));

      graft_aten_schema_collect_arguments (schema, pa, pk, pall);
      graft_aten_schema_collect_arguments (schema, ga, gk, gall);
      for (guint i = 0; i < n; i++)
        pair_structured (pall[i], gall[i], s);
      g_free (pall);
      g_free (gall);
      return TRUE;
    }
  if (pa->n != ga->n)
    {
      explain_fail (s, "'%s' passes %u positional values where the pattern's '%s' passes %u",
                    graft_node_get_name (gn), ga->n, graft_node_get_name (pn), pa->n);
      return FALSE;
    }
  for (guint i = 0; i < MAX (pk->n, gk->n); i++)
    {
      const GraftArg *pkey = i < pk->n ? &pk->items[2 * i] : NULL;
      const GraftArg *gkey = i < gk->n ? &gk->items[2 * i] : NULL;

      if (pkey != NULL && gkey != NULL && graft_arg_equal (pkey, gkey))
        continue;
      if (s->explaining && s->why == NULL)
        {
          if (pkey != NULL && kwarg_get (gk, pkey) == NULL)
            {
              g_autofree char *key = graft_arg_repr (pkey, GRAFT_REPR_CODE);

              explain_fail (s, "'%s' has no keyword argument %s, which the pattern's '%s' has",
                            graft_node_get_name (gn), key, graft_node_get_name (pn));
            }
          else if (gkey != NULL && kwarg_get (pk, gkey) == NULL)
            {
              g_autofree char *key = graft_arg_repr (gkey, GRAFT_REPR_CODE);

              explain_fail (s,
                            "'%s' has the keyword argument %s, which the pattern's '%s' does not "
                            "have",
                            graft_node_get_name (gn), key, graft_node_get_name (pn));
            }
          else
            explain_fail (s,
                          "'%s' passes its keyword arguments in another order than the "
                          "pattern's '%s' (torch %s compares them in order)",
                          graft_node_get_name (gn), graft_node_get_name (pn), s->dialect->version);
        }
      return FALSE;
    }
  for (guint i = 0; i < pa->n; i++)
    pair_structured (&pa->items[i], &ga->items[i], s);
  for (guint i = 0; i < pk->n; i++)
    pair_structured (&pk->items[2 * i + 1], &gk->items[2 * i + 1], s);
  return TRUE;
}

/* make_frame()'s leaves, pushed on both stacks. */
static gboolean
make_frame_leaves (Search    *s,
                   guint      pos,
                   GraftNode *pn,
                   GraftNode *gn)
{
  const GraftArg *pa = s->args_of[pos];
  const GraftArg *pk = s->kwargs_of[pos];
  const GraftArg *ga = graft_node_get_args (gn);
  const GraftArg *gk = graft_node_get_kwargs (gn);
  guint           start = s->pattern_leaves.len;

  if (s->dialect->matches_structured_args)
    return make_structured_frame (s, pn, gn, pa, pk, ga, gk);
  flatten (pa, s, TRUE);
  flatten (ga, s, FALSE);
  /* Keyword sets must be equal; their values are compared unflattened. */
  if (pk->n != gk->n)
    {
      if (s->explaining)
        {
          /* Name a keyword only one side has. */
          for (guint i = 0; i < pk->n; i++)
            if (kwarg_get (gk, &pk->items[2 * i]) == NULL)
              {
                g_autofree char *key = graft_arg_repr (&pk->items[2 * i], GRAFT_REPR_CODE);

                explain_fail (s, "'%s' has no keyword argument %s, which the pattern's '%s' has",
                              graft_node_get_name (gn), key, graft_node_get_name (pn));
              }
          for (guint i = 0; i < gk->n; i++)
            if (kwarg_get (pk, &gk->items[2 * i]) == NULL)
              {
                g_autofree char *key = graft_arg_repr (&gk->items[2 * i], GRAFT_REPR_CODE);

                explain_fail (s,
                              "'%s' has the keyword argument %s, which the pattern's '%s' does not "
                              "have",
                              graft_node_get_name (gn), key, graft_node_get_name (pn));
              }
        }
      return FALSE;
    }
  for (guint i = 0; i < pk->n; i++)
    {
      const GraftArg *gv = kwarg_get (gk, &pk->items[2 * i]);

      if (gv == NULL)
        {
          g_autofree char *key = graft_arg_repr (&pk->items[2 * i], GRAFT_REPR_CODE);

          explain_fail (s, "'%s' has no keyword argument %s, which the pattern's '%s' has",
                        graft_node_get_name (gn), key, graft_node_get_name (pn));
          return FALSE;
        }
      VEC_PUSH (&s->pattern_leaves, &pk->items[2 * i + 1]);
      VEC_PUSH (&s->graph_leaves, gv);
    }
  if (s->pattern_leaves.len != s->graph_leaves.len)
    {
      explain_fail (s, "'%s' passes %u values where the pattern's '%s' passes %u",
                    graft_node_get_name (gn), s->graph_leaves.len - start,
                    graft_node_get_name (pn), s->pattern_leaves.len - start);
      return FALSE;
    }
  return TRUE;
}

static gboolean
make_frame (Search    *s,
            guint      pos,
            GraftNode *pn,
            GraftNode *gn,
            Frame     *frame)
{
  gboolean ok;

  /* Both stacks hold as many leaves between frames. */
  frame->start = frame->next = s->pattern_leaves.len;
  frame->pn = pn;
  frame->gn = gn;
  ok = make_frame_leaves (s, pos, pn, gn);
  frame->end = s->pattern_leaves.len;
  return ok;
}

/* Cuts the leaf stacks back to below @frame's pairs. */
static void
frame_clear (Search *s,
             Frame  *frame)
{
  s->pattern_leaves.len = s->graph_leaves.len = frame->start;
}

/* `_match_nodes (pn, gn)`: depth first towards the inputs, in torch's
 * order, with an explicit stack. */
static gboolean
match_nodes (Search    *s,
             GraftNode *pn,
             GraftNode *gn)
{
  gboolean ok = TRUE;
  Frame    frame;
  guint    pos;
  int      entered = enter_node (s, pn, gn, &pos);

  if (entered <= 0)
    return entered == 0;
  s->stack.len = 0;
  s->pattern_leaves.len = s->graph_leaves.len = 0;
  if (!make_frame (s, pos, pn, gn, &frame))
    {
      frame_clear (s, &frame);
      return FALSE;
    }
  VEC_PUSH (&s->stack, frame);

  while (s->stack.len > 0 && ok)
    {
      Frame          *top = &s->stack.items[s->stack.len - 1];
      const GraftArg *pa, *ga;

      if (top->next == top->end)
        {
          frame_clear (s, top);
          s->stack.len--;
          continue;
        }
      pa = s->pattern_leaves.items[top->next];
      ga = s->graph_leaves.items[top->next];
      top->next++;
      if (pa->kind == GRAFT_ARG_NODE && ga->kind == GRAFT_ARG_NODE)
        {
          entered = enter_node (s, pa->node, ga->node, &pos);
          if (entered < 0)
            ok = FALSE;
          else if (entered > 0)
            {
              ok = make_frame (s, pos, pa->node, ga->node, &frame);
              VEC_PUSH (&s->stack, frame);
            }
        }
      else if (s->dialect->matches_structured_args && is_sequence (pa) && is_sequence (ga))
        {
          /* torch 2.6: two lists or tuples of different lengths. */
          explain_fail (s, "'%s' passes %u values where the pattern's '%s' passes %u",
                        graft_node_get_name (top->gn), ga->n, graft_node_get_name (top->pn), pa->n);
          ok = FALSE;
        }
      else
        {
          ok = match_arg (s, pa, ga);
          if (!ok && s->explaining && s->why == NULL)
            {
              g_autofree char *want = pa->kind == GRAFT_ARG_NODE
                                          ? g_strdup_printf ("'%s'", graft_node_get_name (pa->node))
                                          : graft_arg_repr (pa, GRAFT_REPR_CODE);
              g_autofree char *have = ga->kind == GRAFT_ARG_NODE
                                          ? g_strdup_printf ("'%s'", graft_node_get_name (ga->node))
                                          : graft_arg_repr (ga, GRAFT_REPR_CODE);

              explain_fail (s, "'%s' passes %s where the pattern's '%s' passes %s",
                            graft_node_get_name (top->gn), have, graft_node_get_name (top->pn),
                            want);
            }
        }
    }
  s->stack.len = 0;
  s->pattern_leaves.len = s->graph_leaves.len = 0;
  return ok;
}

/* The compiled walk ---------------------------------------------------------
 *
 * match_nodes() pairs arguments through two leaf stacks and a stack of
 * frames, deciding at every step what comes next.  For a given pattern and
 * anchor, that order is fixed: torch's depth-first walk over the pattern,
 * which enters a pattern node's arguments the first time the walk meets
 * it.  So each anchor's walk is compiled once per search into a flat
 * program, one instruction per pair it compares, in match_nodes()'s order:
 *
 * - ENTER: a pattern node other than a placeholder, met for the first
 *   time, against the graph's value in a slot (slot 0: the candidate):
 *   enter_node() when that is a node, with the op and target compared as
 *   nodes_are_equal() does, but the target by the address of the graph's
 *   interned copy; a constant fails it;
 * - AGAIN: such a pattern node met before, which must be bound to the
 *   same node;
 * - PLACEHOLDER: a placeholder, which takes a node or a constant, or
 *   compares what it is bound to (enter_node(), match_literals());
 * - LITERAL: a pattern constant against the graph's value in a slot
 *   (match_literals()).
 *
 * An ENTER also lays the graph node's arguments into the slots
 * its leaves read, once their shape is checked to be the pattern's: the
 * same nesting of lists and tuples (either kind), each of the same length,
 * no list, tuple (or, for torch 1.13, dict) where the pattern has a single
 * value, and the same keywords in the same order.  Then both dialects pair
 * exactly the values the general walk pairs, in its order: 1.13.1's
 * flattened leaves and unflattened keyword values, 2.6's structural pairs.
 *
 * What the program does not decide it leaves to match_nodes(), which then
 * walks from the anchor again with the bindings undone (run_program()
 * returns RUN_UNKNOWN): a graph node whose arguments have another shape
 * (torch 1.13.1 may still match them flattened, torch 2.6 fill an aten
 * operator's call out from its schema, or fail), and a node met bound or
 * unbound where the program expected otherwise.  Not compiled at all (every
 * walk general): ignore_literals (a pattern node may then meet a constant
 * and stay unbound, so what is bound is not known in advance), torch 1.13.1
 * with a dict among a pattern node's positional arguments, and
 * graft_matcher_explain(), which needs the general walk's sentences. */

gboolean _graft_matcher_compiled_enabled = TRUE;

/* An address no target has. */
static const char no_target[] = "";

enum {
  INSN_ENTER,       /* a pattern node met first (not a placeholder) */
  INSN_ROOT,        /* an ENTER of the first anchor, whose candidates the
                     * candidate pass found equal: nothing to check */
  INSN_AGAIN,       /* a pattern node met before (not a placeholder) */
  INSN_PLACEHOLDER, /* a placeholder, met first or not */
  INSN_LITERAL,     /* a pattern constant */
};

/* How an ENTER compares a graph node's target with its pattern node's
 * (nodes_are_equal(), the op aside). */
enum {
  TARGET_ADDRESS,   /* the graph's interned copy of the text: by address */
  TARGET_ANY,       /* not compared (the output) */
  TARGET_ATTRIBUTE, /* attributes_match() */
};

/* How an ENTER lays the graph node's arguments (lay_arguments()). */
enum {
  LAY_LEAVES,  /* the pattern's positional values are all single ones, no keywords */
  LAY_LISTS,   /* single ones and lists or tuples of single ones, no keywords */
  LAY_GENERAL, /* lists and tuples deeper, or keywords */
};

typedef struct
{
  guint8          kind;   /* INSN_* */
  guint8          op;     /* ENTER: the pattern node's op */
  guint8          how;    /* ENTER: TARGET_* */
  guint8          lay;    /* ENTER: LAY_* */
  guint           pos;    /* but LITERAL: the pattern node's position */
  guint           src;    /* the slot of the graph's value */
  guint           dst;    /* ENTER: the first slot of the arguments */
  guint           n_args; /* ENTER: how many positional arguments */
  const char     *target; /* ENTER, TARGET_ADDRESS: the graph's copy, or no_target */
  GraftNode      *pn;     /* ENTER: the pattern node */
  const GraftArg *pa;     /* PLACEHOLDER, LITERAL: the pattern's value */
  const GraftArg *args;   /* ENTER: the pattern node's arguments */
  const GraftArg *kwargs; /* and keyword arguments */
} Insn;

typedef struct _Program
{
  Insn            *insns;
  guint            n_insns;
  const GraftArg **slots; /* the graph's values, as the program lays them */
  guint            n_slots;
  GraftArg         root; /* in slot 0: the candidate, as an argument */
  gboolean         flat; /* torch 1.13.1: flattened positional arguments */
  /* A graph value whose kind less GRAFT_ARG_TUPLE is below this stands
   * where the pattern has one value: a list or tuple (or a dict, flat) */
  guint    leaf_limit;
  gboolean match_placeholder; /* the option */
} Program;

enum {
  RUN_FAIL,
  RUN_MATCH,
  RUN_UNKNOWN,
};

/* Builds the program, or returns FALSE when it would not pair what the
 * general walk pairs. */
typedef struct
{
  Search   *s;
  gboolean *met; /* per pattern position: met by an earlier instruction */
  GArray   *insns;
  guint     n_slots;
} Compiler;

/* The leaves of @arg as the walk pairs them, each given a slot; @flat:
 * torch 1.13.1's flattening (dict values too). */
static gboolean
compile_leaves (Compiler       *c,
                const GraftArg *arg,
                gboolean        flat,
                GArray         *leaves)
{
  if (is_sequence (arg))
    {
      for (guint i = 0; i < arg->n; i++)
        if (!compile_leaves (c, &arg->items[i], flat, leaves))
          return FALSE;
      return TRUE;
    }
  if (flat && arg->kind == GRAFT_ARG_DICT)
    return FALSE;
  g_array_append_val (leaves, arg);
  return TRUE;
}

/* An ENTER's comparison of targets. */
static void
compile_target (Compiler  *c,
                GraftNode *pn,
                Insn      *insn)
{
  Search *s = c->s;

  switch (insn->op)
    {
    case GRAFT_OP_PLACEHOLDER:
    case GRAFT_OP_OUTPUT:
      insn->how = TARGET_ANY;
      return;
    case GRAFT_OP_GET_ATTR:
      if (s->dialect->matches_attributes_by_value)
        {
          insn->how = TARGET_ATTRIBUTE;
          return;
        }
      break;
    case GRAFT_OP_CALL_FUNCTION:
    case GRAFT_OP_CALL_METHOD:
    case GRAFT_OP_CALL_MODULE:
    default:
      break;
    }
  /* The graph interns every node's target: equal texts, equal addresses
   * (as the candidate pass's classes rely on too). */
  insn->how = TARGET_ADDRESS;
  insn->target = _graft_graph_lookup_interned (s->graph, graft_node_get_target (pn));
  if (insn->target == NULL)
    insn->target = no_target;
}

static gboolean
compile_node (Compiler       *c,
              GraftNode      *pn,
              const GraftArg *pa,
              guint           src)
{
  Search         *s = c->s;
  guint           pos = _graft_pattern_position_of (s->pattern, pn);
  Insn            insn = { 0 };
  guint           at = c->insns->len;
  const GraftArg *args = s->args_of[pos];
  const GraftArg *kwargs = s->kwargs_of[pos];
  gboolean        structured = s->dialect->matches_structured_args;
  gboolean        first = !c->met[pos];
  g_autoptr (GArray) leaves = NULL;

  insn.pn = pn;
  insn.pa = pa;
  insn.src = src;
  insn.pos = pos;
  c->met[pos] = TRUE;
  if (s->op_of[pos] == GRAFT_OP_PLACEHOLDER)
    insn.kind = INSN_PLACEHOLDER;
  else if (!first)
    insn.kind = INSN_AGAIN;
  else
    {
      insn.kind = INSN_ENTER;
      insn.op = s->op_of[pos];
      compile_target (c, pn, &insn);
    }
  g_array_append_val (c->insns, insn);
  if (insn.kind != INSN_ENTER)
    return TRUE;
  leaves = g_array_new (FALSE, FALSE, sizeof (const GraftArg *));
  /* Item by item, as lay_arguments() lays them. */
  for (guint i = 0; i < args->n; i++)
    if (!compile_leaves (c, &args->items[i], !structured, leaves))
      return FALSE;
  for (guint i = 0; i < kwargs->n; i++)
    if (structured)
      {
        if (!compile_leaves (c, &kwargs->items[2 * i + 1], FALSE, leaves))
          return FALSE;
      }
    else
      {
        const GraftArg *value = &kwargs->items[2 * i + 1];

        g_array_append_val (leaves, value);
      }
  {
    Insn *enter = &g_array_index (c->insns, Insn, at);

    enter->dst = c->n_slots;
    enter->args = args;
    enter->kwargs = kwargs;
    enter->n_args = args->n;
    enter->lay = kwargs->n == 0 ? LAY_LEAVES : LAY_GENERAL;
    for (guint i = 0; i < args->n; i++)
      if (is_sequence (&args->items[i]))
        {
          if (enter->lay == LAY_LEAVES)
            enter->lay = LAY_LISTS;
          for (guint j = 0; j < args->items[i].n; j++)
            if (is_sequence (&args->items[i].items[j]))
              enter->lay = LAY_GENERAL;
        }
  }
  src = c->n_slots;
  c->n_slots += leaves->len;
  for (guint i = 0; i < leaves->len; i++)
    {
      const GraftArg *leaf = g_array_index (leaves, const GraftArg *, i);

      if (leaf->kind == GRAFT_ARG_NODE)
        {
          if (!compile_node (c, leaf->node, leaf, src + i))
            return FALSE;
        }
      else
        {
          Insn lit = { 0 };

          lit.kind = INSN_LITERAL;
          lit.pa = leaf;
          lit.src = src + i;
          g_array_append_val (c->insns, lit);
        }
    }
  return TRUE;
}

static void
program_clear (Program *p)
{
  g_clear_pointer (&p->insns, g_free);
  g_clear_pointer (&p->slots, g_free);
  p->n_insns = p->n_slots = 0;
}

static gboolean compares_target (Search    *s,
                                 GraftNode *pn);

/* One program per anchor, in the order backtrack() walks them (a node an
 * earlier anchor's walk met is bound when a later one's starts).  Returns
 * NULL when the search is not compiled. */
static Program *
compile_programs (Search *s,
                  GArray *anchors)
{
  Compiler c = { s, NULL, NULL, 0 };
  Program *programs;
  gboolean ok = TRUE;

  if (s->options->ignore_literals || s->explaining || !_graft_matcher_compiled_enabled)
    return NULL;
  c.met = g_new0 (gboolean, MAX (s->pattern->nodes->len, 1));
  programs = g_new0 (Program, MAX (anchors->len, 1));
  for (guint a = 0; a < anchors->len && ok; a++)
    {
      GraftNode *pn = s->pattern->nodes->pdata[g_array_index (anchors, guint, a)];
      Program   *p = &programs[a];

      c.insns = g_array_new (FALSE, FALSE, sizeof (Insn));
      /* Slot 0 holds the candidate. */
      c.n_slots = 1;
      ok = compile_node (&c, pn, NULL, 0);
      /* The first anchor's candidates are its equals (find_candidates()),
       * and nothing is bound when it is entered. */
      if (a == 0 && ok && compares_target (s, pn) &&
          g_array_index (c.insns, Insn, 0).kind == INSN_ENTER)
        g_array_index (c.insns, Insn, 0).kind = INSN_ROOT;
      p->n_insns = c.insns->len;
      p->insns = (Insn *) (void *) g_array_free (c.insns, FALSE);
      p->n_slots = c.n_slots;
      p->flat = !s->dialect->matches_structured_args;
      p->leaf_limit = p->flat ? 3 : 2;
      p->match_placeholder = s->options->match_placeholder;
      p->slots = g_new (const GraftArg *, c.n_slots);
      p->root.kind = GRAFT_ARG_NODE;
      p->slots[0] = &p->root;
    }
  g_free (c.met);
  if (!ok)
    {
      for (guint a = 0; a < anchors->len; a++)
        program_clear (&programs[a]);
      g_clear_pointer (&programs, g_free);
    }
  return programs;
}

/* Lays @ga's leaves into @slots from *@k when its shape is @pa's (see
 * above). */
static gboolean
lay_leaves (const GraftArg  *pa,
            const GraftArg  *ga,
            gboolean         flat,
            const GraftArg **slots,
            guint           *k)
{
  if (is_sequence (pa))
    {
      if (!is_sequence (ga) || ga->n != pa->n)
        return FALSE;
      for (guint i = 0; i < pa->n; i++)
        if (!lay_leaves (&pa->items[i], &ga->items[i], flat, slots, k))
          return FALSE;
      return TRUE;
    }
  if (is_sequence (ga) || (flat && ga->kind == GRAFT_ARG_DICT))
    return FALSE;
  slots[(*k)++] = ga;
  return TRUE;
}

/* The graph node @gn's arguments laid into the slots of @insn, whose
 * pattern node it was just bound to. */
static gboolean
lay_arguments (const Insn *insn,
               GraftNode  *gn,
               Program    *p)
{
  const GraftArg  *pa = insn->args;
  const GraftArg  *pk = insn->kwargs;
  const GraftArg  *ga = graft_node_get_args (gn);
  const GraftArg  *gk = graft_node_get_kwargs (gn);
  const GraftArg **slots = p->slots;
  guint            k = insn->dst;
  gboolean         flat = p->flat;

  if (pa->n != ga->n || pk->n != gk->n)
    return FALSE;
  /* The usual arguments, values and lists of values, inline. */
  for (guint i = 0; i < pa->n; i++)
    {
      const GraftArg *pi = &pa->items[i];
      const GraftArg *gi = &ga->items[i];

      if (!is_sequence (pi))
        {
          if ((guint) gi->kind - GRAFT_ARG_TUPLE < p->leaf_limit)
            return FALSE;
          slots[k++] = gi;
          continue;
        }
      if (!is_sequence (gi) || gi->n != pi->n)
        return FALSE;
      for (guint j = 0; j < pi->n; j++)
        {
          const GraftArg *pj = &pi->items[j];
          const GraftArg *gj = &gi->items[j];

          if (is_sequence (pj))
            {
              if (!lay_leaves (pj, gj, flat, slots, &k))
                return FALSE;
            }
          else if ((guint) gj->kind - GRAFT_ARG_TUPLE < p->leaf_limit)
            return FALSE;
          else
            slots[k++] = gj;
        }
    }
  for (guint i = 0; i < pk->n; i++)
    {
      if (!graft_arg_equal (&pk->items[2 * i], &gk->items[2 * i]))
        return FALSE;
      if (flat)
        slots[k++] = &gk->items[2 * i + 1];
      else if (!lay_leaves (&pk->items[2 * i + 1], &gk->items[2 * i + 1], FALSE, slots, &k))
        return FALSE;
    }
  return TRUE;
}

/* match_nodes (the anchor of @p, @candidate) by the program: RUN_MATCH or
 * RUN_FAIL as match_nodes() would answer, or RUN_UNKNOWN (the bindings it
 * made are the caller's to undo).  Each instruction does what
 * enter_node() or match_literals() would, knowing what it compares. */
static int
run_program (Search    *s,
             Program   *p,
             GraftNode *candidate)
{
  const GraftArg **slots = p->slots;
  const Insn      *end = p->insns + p->n_insns;

  p->root.node = candidate;
  for (const Insn *insn = p->insns; insn < end; insn++)
    {
      const GraftArg *ga = slots[insn->src];
      GraftNode      *gn;
      Binding        *b;

      switch (insn->kind)
        {
        case INSN_ENTER:
          /* A pattern node other than a placeholder takes no constant. */
          if (ga->kind != GRAFT_ARG_NODE)
            return RUN_FAIL;
          gn = ga->node;
          b = &s->bind[insn->pos];
          if (G_UNLIKELY (b->state != UNBOUND))
            return b->state == BOUND_NODE && b->node == gn ? RUN_UNKNOWN : RUN_FAIL;
          if (_graft_node_has_mark (gn, 0, s->bound_mark) || graft_node_get_op (gn) != insn->op)
            return RUN_FAIL;
          if (insn->how == TARGET_ADDRESS)
            {
              if (graft_node_get_target (gn) != insn->target)
                return RUN_FAIL;
            }
          else if (insn->how == TARGET_ATTRIBUTE && !attributes_match (s, insn->pn, gn))
            return RUN_FAIL;
        entered:
          bind_node (s, insn->pos, gn);
          if (insn->lay == LAY_LEAVES)
            {
              const GraftArg  *args = graft_node_get_args (gn);
              const GraftArg **to = slots + insn->dst;

              if (args->n != insn->n_args || graft_node_get_kwargs (gn)->n != 0)
                return RUN_UNKNOWN;
              for (guint i = 0; i < args->n; i++)
                {
                  if ((guint) args->items[i].kind - GRAFT_ARG_TUPLE < p->leaf_limit)
                    return RUN_UNKNOWN;
                  to[i] = &args->items[i];
                }
            }
          else if (insn->lay == LAY_LISTS)
            {
              /* lay_arguments() for values and lists of values. */
              const GraftArg  *pa = insn->args;
              const GraftArg  *args = graft_node_get_args (gn);
              const GraftArg **to = slots + insn->dst;

              if (args->n != pa->n || graft_node_get_kwargs (gn)->n != 0)
                return RUN_UNKNOWN;
              for (guint i = 0; i < args->n; i++)
                {
                  const GraftArg *gi = &args->items[i];

                  if (!is_sequence (&pa->items[i]))
                    {
                      if ((guint) gi->kind - GRAFT_ARG_TUPLE < p->leaf_limit)
                        return RUN_UNKNOWN;
                      *to++ = gi;
                      continue;
                    }
                  if (!is_sequence (gi) || gi->n != pa->items[i].n)
                    return RUN_UNKNOWN;
                  for (guint j = 0; j < gi->n; j++)
                    {
                      if ((guint) gi->items[j].kind - GRAFT_ARG_TUPLE < p->leaf_limit)
                        return RUN_UNKNOWN;
                      *to++ = &gi->items[j];
                    }
                }
            }
          else if (!lay_arguments (insn, gn, p))
            return RUN_UNKNOWN;
          continue;
        case INSN_ROOT:
          gn = ga->node;
          goto entered;
        case INSN_AGAIN:
          if (ga->kind != GRAFT_ARG_NODE)
            return RUN_FAIL;
          b = &s->bind[insn->pos];
          if (G_UNLIKELY (b->state == UNBOUND))
            return RUN_UNKNOWN;
          if (b->state != BOUND_NODE || b->node != ga->node)
            return RUN_FAIL;
          continue;
        case INSN_PLACEHOLDER:
          if (ga->kind != GRAFT_ARG_NODE)
            {
              if (!match_literals (s, insn->pa, ga))
                return RUN_FAIL;
              continue;
            }
          gn = ga->node;
          b = &s->bind[insn->pos];
          if (b->state != UNBOUND)
            {
              if (b->state != BOUND_NODE || b->node != gn)
                return RUN_FAIL;
              continue;
            }
          if (_graft_node_has_mark (gn, 0, s->bound_mark) ||
              (p->match_placeholder && graft_node_get_op (gn) != GRAFT_OP_PLACEHOLDER))
            return RUN_FAIL;
          bind_node (s, insn->pos, gn);
          continue;
        case INSN_LITERAL:
        default:
          if (!match_literals (s, insn->pa, ga))
            return RUN_FAIL;
          continue;
        }
    }
  return RUN_MATCH;
}

/* Lets go of the search's own hold on its current block. */
static void
release_block (Search *s)
{
  if (s->block != NULL && g_atomic_int_dec_and_test (&s->block->n_live))
    {
      graft_pattern_unref (s->block->pattern);
      g_free (s->block);
    }
  s->block = NULL;
  s->block_left = 0;
}

/* Room for a match of @size bytes (rounded as match_size() does) at the
 * end of the current block, or of a new one twice as large as the last
 * (at most 1,024 matches): not taken until take_match(). */
static GraftMatch *
room_for_match (Search *s,
                gsize   size)
{
  /* The header padded so that matches stay aligned for their bindings. */
  const gsize header = (sizeof (GraftMatchBlock) + 15) & ~(gsize) 15;

  if (G_UNLIKELY (s->block_left < size))
    {
      release_block (s);
      s->block_capacity = CLAMP (2 * s->block_capacity, 4, 1024);
      s->block = g_malloc (header + s->block_capacity * size);
      s->block->n_live = 1;
      s->block->pattern = graft_pattern_ref (s->pattern);
      s->block_next = (guint8 *) s->block + header;
      s->block_left = s->block_capacity * size;
      /* Fresh memory: the rooms the search will fill faulted in at once. */
      _graft_memory_prefault (s->block_next,
                              (gsize) MIN (s->rooms_expected, s->block_capacity) * size);
    }
  return (GraftMatch *) s->block_next;
}

/* The room room_for_match() gave, taken: the match counts in its block. */
static GraftMatch *
take_match (Search *s,
            gsize   size)
{
  GraftMatch *match = (GraftMatch *) s->block_next;

  s->block_next += size;
  s->block_left -= size;
  match->block = s->block;
  g_atomic_int_inc (&s->block->n_live);
  match->pattern = s->pattern;
  match->reason = GRAFT_MATCH_KEPT;
  match->literals = NULL;
  return match;
}

/* The search's literals, copied into @match (which has some). */
static void
copy_literals (Search     *s,
               GraftMatch *match)
{
  guint n = s->pattern->nodes->len;

  match->literals = g_new (GraftArg, n);
  for (guint i = 0; i < n; i++)
    if (match->bindings[i].state == BOUND_LITERAL)
      graft_arg_copy (&match->literals[i], &s->literals[i]);
}

/* The bytes of a match of the search's pattern, in its block. */
static gsize
match_size (Search *s)
{
  return (sizeof (GraftMatch) + s->pattern->nodes->len * sizeof (Binding) + 15) & ~(gsize) 15;
}

static GraftMatch *
record_match (Search *s)
{
  guint       n = s->pattern->nodes->len;
  gsize       size = match_size (s);
  GraftMatch *match;

  room_for_match (s, size);
  match = take_match (s, size);
  /* The search's literals are borrowed: the match copies its own. */
  memcpy (match->bindings, s->bind, n * sizeof (Binding));
  if (s->n_literals > 0)
    copy_literals (s, match);
  return match;
}

/* backtrack() for a pattern of one anchor, over its candidates @from to
 * @to - 1: each candidate binds straight into the room of the next match,
 * its bindings cleared first, which a match takes as it is (its literals,
 * borrowed, copied in place). */
static void
search_one_anchor (Search  *s,
                   GArray  *anchors,
                   NodeVec *candidates,
                   guint    from,
                   guint    to)
{
  GraftNode *pn = s->pattern->nodes->pdata[g_array_index (anchors, guint, 0)];
  Binding   *own = s->bind;
  guint      n = s->pattern->nodes->len;
  gsize      size = match_size (s);
  guint32    first_mark = _graft_graph_reserve_marks (s->graph, MAX (to - from, 1));
  Program   *program = s->programs;

  for (guint i = from; i < to; i++)
    {
      GraftNode  *gn = candidates[0].items[i];
      int         run = RUN_UNKNOWN;
      GraftMatch *match;

      /* Each candidate left makes one match at most. */
      s->rooms_expected = candidates[0].len - i;
      match = room_for_match (s, size);

      memset (match->bindings, 0, n * sizeof (Binding));
      s->bind = match->bindings;
      s->trail.len = 0;
      s->n_literals = 0;
      s->bound_mark = first_mark + (i - from);
      if (program != NULL)
        {
          run = run_program (s, program, gn);
          if (run == RUN_UNKNOWN)
            undo_to (s, 0);
        }
      if (run == RUN_UNKNOWN)
        run = match_nodes (s, pn, gn) ? RUN_MATCH : RUN_FAIL;
      if (run != RUN_MATCH)
        continue;
      take_match (s, size);
      if (s->n_literals > 0)
        copy_literals (s, match);
      VEC_PUSH (&s->found, match);
    }
  s->bind = own;
  s->trail.len = 0;
  s->n_literals = 0;
  s->rooms_expected = 0;
}

/* The backtracking over anchors: every candidate of anchor i, and for each
 * that matches, every candidate of anchor i + 1, so matches come in
 * lexicographic order of candidate positions, as torch finds them.  Each
 * candidate tried counts in Search.attempts. */
static void
backtrack (Search  *s,
           GArray  *anchors,
           NodeVec *candidates,
           guint    anchor)
{
  guint      mark;
  GraftNode *pn;

  if (anchor == anchors->len)
    {
      VEC_PUSH (&s->found, record_match (s));
      return;
    }
  pn = s->pattern->nodes->pdata[g_array_index (anchors, guint, anchor)];
  mark = s->trail.len;
  s->attempts += candidates[anchor].len;
  for (guint i = 0; i < candidates[anchor].len; i++)
    {
      GraftNode *gn = candidates[anchor].items[i];
      int        run = RUN_UNKNOWN;

      if (s->programs != NULL)
        {
          run = run_program (s, &s->programs[anchor], gn);
          if (run == RUN_UNKNOWN)
            undo_to (s, mark);
        }
      if (run == RUN_UNKNOWN)
        run = match_nodes (s, pn, gn) ? RUN_MATCH : RUN_FAIL;
      /* The last anchor's match recorded here, without a call. */
      if (run == RUN_MATCH && anchor + 1 == anchors->len)
        VEC_PUSH (&s->found, record_match (s));
      else if (run == RUN_MATCH)
        backtrack (s, anchors, candidates, anchor + 1);
      undo_to (s, mark);
    }
}

/* backtrack()'s first level, over the first anchor's candidates @from to
 * @to - 1, until Search.attempts reaches @until (at least one candidate):
 * each candidate binds with a mark of its own, so that what one bound is
 * unbound for the next without a write to its nodes (undo_all()).
 * Returns the next candidate to try. */
static guint
backtrack_first (Search  *s,
                 GArray  *anchors,
                 NodeVec *candidates,
                 guint    from,
                 guint    to,
                 guint64  until)
{
  GraftNode *pn = s->pattern->nodes->pdata[g_array_index (anchors, guint, 0)];
  guint32    first_mark = _graft_graph_reserve_marks (s->graph, MAX (to - from, 1));
  guint      i;

  s->bound_mark = first_mark;
  for (i = from; i < to && (i == from || s->attempts < until); i++)
    {
      GraftNode *gn = candidates[0].items[i];
      int        run = RUN_UNKNOWN;

      s->attempts++;
      if (s->programs != NULL)
        {
          run = run_program (s, &s->programs[0], gn);
          if (run == RUN_UNKNOWN)
            undo_to (s, 0);
        }
      if (run == RUN_UNKNOWN)
        run = match_nodes (s, pn, gn) ? RUN_MATCH : RUN_FAIL;
      if (run == RUN_MATCH && anchors->len == 1)
        VEC_PUSH (&s->found, record_match (s));
      else if (run == RUN_MATCH)
        backtrack (s, anchors, candidates, 1);
      undo_all (s, first_mark + (i - from) + 1);
    }
  return i;
}

/* Candidates ---------------------------------------------------------------- */

/* Whether nodes_are_equal() compares @pn's target (with its op). */
static gboolean
compares_target (Search    *s,
                 GraftNode *pn)
{
  switch (graft_node_get_op (pn))
    {
    case GRAFT_OP_CALL_FUNCTION:
    case GRAFT_OP_CALL_METHOD:
    case GRAFT_OP_CALL_MODULE:
      return TRUE;
    case GRAFT_OP_GET_ATTR:
      return !s->dialect->matches_attributes_by_value;
    case GRAFT_OP_PLACEHOLDER:
    case GRAFT_OP_OUTPUT:
    default:
      return FALSE;
    }
}

/* The pattern's targets as classes, for one pass over the graph: each
 * distinct target text of a pattern node compared by target gets a number
 * from 1, and a graph node's class is the number of the pattern target its
 * own equals (0: none), found once per distinct target pointer (the graph
 * interns its targets) through an open-addressing table.  A graph node and
 * a pattern node compared by target are equal exactly when their ops and
 * classes are. */
/* Up to this many classes, a graph node's class is found by comparing its
 * target with each class's interned text in the graph (Classes.target). */
#define FEW_CLASSES 8

/* Classes.recent's size, a power of two. */
#define CLASS_SLOTS 64

typedef struct
{
  GHashTable *by_text; /* pattern target -> class */
  guint      *of_pos;  /* pattern position -> class, 0 if not compared by target */
  guint       n_classes;
  GraftPtrMap of_target; /* graph target -> class, as it is met */
  /* With FEW_CLASSES or fewer: class -> the graph's interned copy of its
   * text (NULL: no node has it), from index 1 */
  const char *target[FEW_CLASSES + 1];
  /* The last classes found, by target address (a graph's nodes share a
   * few dozen targets): a hit costs a multiplication and a comparison. */
  struct
  {
    const char *target; /* NULL: empty (no node's target is NULL) */
    guint       cls;
  } recent[CLASS_SLOTS];
} Classes;

static void
classes_init (Classes *c,
              Search  *s)
{
  GPtrArray *nodes = s->pattern->nodes;

  memset (c->recent, 0, sizeof c->recent);
  c->by_text = g_hash_table_new (g_str_hash, g_str_equal);
  c->of_pos = g_new0 (guint, nodes->len);
  c->n_classes = 0;
  for (guint i = 0; i < nodes->len; i++)
    if (compares_target (s, nodes->pdata[i]))
      {
        const char *target = graft_node_get_target (nodes->pdata[i]);
        guint       cls = GPOINTER_TO_UINT (g_hash_table_lookup (c->by_text, target));

        if (cls == 0)
          {
            cls = ++c->n_classes;
            g_hash_table_insert (c->by_text, (gpointer) target, GUINT_TO_POINTER (cls));
          }
        c->of_pos[i] = cls;
        if (cls <= FEW_CLASSES)
          {
            const char *interned = _graft_graph_lookup_interned (s->graph, target);

            /* Absent: an address no target has. */
            c->target[cls] = interned != NULL ? interned : no_target;
          }
      }
  _graft_ptr_map_init (&c->of_target, 31);
}

static void
classes_clear (Classes *c)
{
  g_clear_pointer (&c->by_text, g_hash_table_unref);
  g_clear_pointer (&c->of_pos, g_free);
  _graft_ptr_map_clear (&c->of_target);
}

/* The class of a graph node's @target, when Classes.recent misses. */
static G_GNUC_NO_INLINE guint
classes_find (Classes    *c,
              const char *target)
{
  GraftPtrSlot *slot;
  guint         cls;

  /* The graph interns every node's target: equal texts, equal addresses. */
  if (c->n_classes <= FEW_CLASSES)
    {
      for (guint k = 1; k <= c->n_classes; k++)
        if (c->target[k] == target)
          return k;
      return 0;
    }
  slot = _graft_ptr_map_slot (&c->of_target, target);

  if (G_LIKELY (slot->key == target))
    return GPOINTER_TO_UINT (slot->value);
  cls = GPOINTER_TO_UINT (g_hash_table_lookup (c->by_text, target));
  _graft_ptr_map_insert (&c->of_target, target, GUINT_TO_POINTER (cls));
  return cls;
}

/* The class of a graph node's @target. */
static inline guint
classes_lookup (Classes    *c,
                const char *target)
{
  guint at = (guint) (((guint64) (guintptr) target * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >>
                      (64 - 6));

  G_STATIC_ASSERT (CLASS_SLOTS == 1 << 6);
  if (G_LIKELY (c->recent[at].target == target))
    return c->recent[at].cls;
  c->recent[at].target = target;
  return c->recent[at].cls = classes_find (c, target);
}

/* dup_required()'s work: the positions found required, those left to
 * look at, and, per position, how many of the required pattern nodes
 * pair it among their arguments (Search.paired). */
typedef struct
{
  gboolean  *required;
  GPtrArray *todo;
  guint     *paired_by; /* per position: 1 + the last node counted in paired */
  guint      from;      /* the position whose arguments are read, or G_MAXUINT */
} Requiring;

static void require_node (Search    *s,
                          GraftNode *pn,
                          Requiring *r);

/* The nodes in @arg that a comparison of it pairs with nodes of the graph
 * or fails: items of tuples and lists (and, flattened for torch 1.13, dict
 * values).  See make_frame_leaves(). */
static void
require_in_arg (Search         *s,
                const GraftArg *arg,
                Requiring      *r)
{
  switch (arg->kind)
    {
    case GRAFT_ARG_NODE:
      require_node (s, arg->node, r);
      return;
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_LIST:
      for (guint i = 0; i < arg->n; i++)
        require_in_arg (s, &arg->items[i], r);
      return;
    case GRAFT_ARG_DICT:
      if (!s->dialect->matches_structured_args)
        for (guint i = 0; i < arg->n; i++)
          require_in_arg (s, &arg->items[2 * i + 1], r);
      return;
    case GRAFT_ARG_NONE:
    case GRAFT_ARG_ELLIPSIS:
    case GRAFT_ARG_BOOL:
    case GRAFT_ARG_INT:
    case GRAFT_ARG_FLOAT:
    case GRAFT_ARG_COMPLEX:
    case GRAFT_ARG_STR:
    case GRAFT_ARG_SYMBOL:
    case GRAFT_ARG_DEVICE:
    case GRAFT_ARG_SLICE:
    default:
      return;
    }
}

static void
require_node (Search    *s,
              GraftNode *pn,
              Requiring *r)
{
  guint pos = _graft_pattern_position_of (s->pattern, pn);

  if (r->from != G_MAXUINT && r->paired_by[pos] != r->from + 1)
    {
      r->paired_by[pos] = r->from + 1;
      s->paired[pos]++;
    }
  if (!r->required[pos])
    {
      r->required[pos] = TRUE;
      g_ptr_array_add (r->todo, pn);
    }
}

/* The pattern nodes that every complete match binds, each to a graph node
 * nodes_are_equal() accepts: the anchors, and from each such node that is
 * not a placeholder, the nodes among its arguments that the walk pairs
 * with graph nodes or else fails on (without ignore_literals, a pattern
 * node that meets a constant fails).  An aten operator's arguments, which
 * torch 2.6 may fill out from its schema, are left out.  Conservative: a
 * node left out may still be bound.
 *
 * Also counts, per position, the required nodes that pair it so
 * (Search.paired): each such node's match uses the graph node bound
 * there, as one of its arguments. */
static gboolean *
dup_required (Search *s,
              GArray *anchors)
{
  GPtrArray *nodes = s->pattern->nodes;
  g_autoptr (GPtrArray) todo = g_ptr_array_new ();
  g_autofree guint *paired_by = g_new0 (guint, MAX (nodes->len, 1));
  Requiring         r = { g_new0 (gboolean, nodes->len), todo, paired_by, G_MAXUINT };

  s->paired = g_new0 (guint, MAX (nodes->len, 1));
  for (guint i = 0; i < anchors->len; i++)
    require_node (s, nodes->pdata[g_array_index (anchors, guint, i)], &r);
  while (todo->len > 0)
    {
      GraftNode      *pn = g_ptr_array_steal_index (todo, todo->len - 1);
      GraftOp         op = graft_node_get_op (pn);
      const GraftArg *kwargs = graft_node_get_kwargs (pn);

      if (op == GRAFT_OP_PLACEHOLDER ||
          (s->dialect->matches_structured_args && op == GRAFT_OP_CALL_FUNCTION &&
           graft_aten_schema_lookup (graft_node_get_target (pn)) != NULL))
        continue;
      r.from = _graft_pattern_position_of (s->pattern, pn);
      require_in_arg (s, graft_node_get_args (pn), &r);
      for (guint i = 0; i < kwargs->n; i++)
        {
          const GraftArg *value = &kwargs->items[2 * i + 1];

          /* torch 1.13.1 compares keyword values unflattened. */
          if (s->dialect->matches_structured_args)
            require_in_arg (s, value, &r);
          else if (value->kind == GRAFT_ARG_NODE)
            require_node (s, value->node, &r);
        }
    }
  return r.required;
}

/* The pass over the graph that finds the candidates of each anchor
 * (find_candidates()), by steps: where it stands and what it has seen. */
typedef struct
{
  Classes classes;
  /* class -> the ops of graph nodes of that class, as bits; and those
   * that the required nodes need */
  guint8 *ops_seen;
  guint8 *ops_needed;
  guint   n_needed;
  /* per anchor: its class << 3 | its op, or 0 if compared otherwise */
  guint      *anchor_key;
  guint       single_key;
  guint       stage;  /* PASS_* */
  GraftNode  *node;   /* the next node to look at */
  const char *target; /* PASS_TARGET: the anchor's, as the graph interns it */
  GraftOp     op;     /* PASS_TARGET: the anchor's op */
} CandidatePass;

enum {
  PASS_KEYED,   /* one anchor, by class and op, while needed pairs are unmet */
  PASS_TARGET,  /* one anchor, by its target's address and op */
  PASS_GENERAL, /* any anchors, each compared by key or nodes_are_equal() */
  PASS_DONE,
};

static void
candidate_pass_init (CandidatePass *c,
                     Search        *s,
                     GArray        *anchors)
{
  GPtrArray *nodes = s->pattern->nodes;
  guint      n_anchors = anchors->len;

  memset (c, 0, sizeof *c);
  classes_init (&c->classes, s);
  c->ops_seen = g_new0 (guint8, c->classes.n_classes + 1);
  c->ops_needed = g_new0 (guint8, c->classes.n_classes + 1);
  c->anchor_key = g_new (guint, MAX (n_anchors, 1));
  for (guint i = 0; i < n_anchors; i++)
    {
      guint pos = g_array_index (anchors, guint, i);

      c->anchor_key[i] = c->classes.of_pos[pos] != 0
                             ? c->classes.of_pos[pos] << 3 | graft_node_get_op (nodes->pdata[pos])
                             : 0;
    }
  c->single_key = n_anchors == 1 ? c->anchor_key[0] : 0;
  /* The (class, op) pairs that the required nodes need met (as bits of
   * ops per class), known before the pass (a node required is required
   * whatever the candidates), and how many are not met yet.  With
   * ignore_literals, a pattern node may meet a constant and stay
   * unbound: none is required. */
  if (!s->options->ignore_literals)
    {
      s->required = dup_required (s, anchors);
      for (guint i = 0; i < nodes->len; i++)
        if (s->required[i] && c->classes.of_pos[i] != 0)
          {
            guint bit = 1u << graft_node_get_op (nodes->pdata[i]);

            if ((c->ops_needed[c->classes.of_pos[i]] & bit) == 0)
              c->n_needed++;
            c->ops_needed[c->classes.of_pos[i]] |= bit;
          }
    }
  c->node = graft_graph_get_first (s->graph);
  c->stage = c->single_key != 0 ? PASS_KEYED : PASS_GENERAL;
}

/* PASS_KEYED's look at @node: its class and op seen, and a candidate if
 * they are the anchor's. */
static G_ALWAYS_INLINE inline void
keyed_visit (CandidatePass *c,
             NodeVec       *candidates,
             GraftNode     *node,
             guint         *n_needed)
{
  guint   cls = classes_lookup (&c->classes, graft_node_get_target (node));
  GraftOp op;
  guint   bit;

  if (cls == 0)
    return;
  op = graft_node_get_op (node);
  if (op == GRAFT_OP_PLACEHOLDER || op == GRAFT_OP_OUTPUT)
    return;
  bit = 1u << op;
  if ((c->ops_needed[cls] & bit & ~c->ops_seen[cls]) != 0)
    (*n_needed)--;
  c->ops_seen[cls] |= bit;
  if ((cls << 3 | op) == c->single_key)
    VEC_PUSH (&candidates[0], node);
}

/* At most *@work nodes of the pass, less those looked at from *@work
 * (G_MAXUINT: all, not counted).
 * Returns whether the pass is over. */
static gboolean
candidate_pass_step (CandidatePass *c,
                     Search        *s,
                     GArray        *anchors,
                     NodeVec       *candidates,
                     guint         *work)
{
  GPtrArray *nodes = s->pattern->nodes;
  GraftNode *node = c->node;
  guint      left = *work;

  /* The usual pattern: one anchor, compared by its class.  (The tests that
   * turn the compiled walks off make the whole pass here.)  Unbounded
   * (G_MAXUINT), the loops count nothing: graft_matcher_find_full(). */
  if (c->stage == PASS_KEYED)
    {
      guint n_needed = c->n_needed;

      if (left == G_MAXUINT)
        for (; node != NULL && (n_needed > 0 || !_graft_matcher_compiled_enabled);
             node = graft_node_get_next (node))
          keyed_visit (c, candidates, node, &n_needed);
      else
        for (; node != NULL && (n_needed > 0 || !_graft_matcher_compiled_enabled) && left > 0;
             node = graft_node_get_next (node), left--)
          keyed_visit (c, candidates, node, &n_needed);
      c->n_needed = n_needed;
      if (node == NULL)
        c->stage = PASS_DONE;
      else if (n_needed == 0 && _graft_matcher_compiled_enabled)
        {
          /* Once every pair needed is met, the rest of the pass looks for
           * the anchor's target (the graph's interned copy: equal texts,
           * equal addresses) and op alone. */
          GraftNode *anchor = nodes->pdata[g_array_index (anchors, guint, 0)];

          c->target = _graft_graph_lookup_interned (s->graph, graft_node_get_target (anchor));
          c->op = graft_node_get_op (anchor);
          c->stage = c->target != NULL ? PASS_TARGET : PASS_DONE;
        }
    }
  if (c->stage == PASS_TARGET)
    {
      const char *target = c->target;
      GraftOp     op = c->op;

      if (left == G_MAXUINT)
        for (; node != NULL; node = graft_node_get_next (node))
          {
            if (graft_node_get_target (node) == target && graft_node_get_op (node) == op)
              VEC_PUSH (&candidates[0], node);
          }
      else
        for (; node != NULL && left > 0; node = graft_node_get_next (node), left--)
          if (graft_node_get_target (node) == target && graft_node_get_op (node) == op)
            VEC_PUSH (&candidates[0], node);
      if (node == NULL)
        c->stage = PASS_DONE;
    }
  if (c->stage == PASS_GENERAL)
    {
      guint n_anchors = anchors->len;

      for (; node != NULL && left > 0; node = graft_node_get_next (node), left--)
        {
          guint cls = classes_lookup (&c->classes, graft_node_get_target (node));
          guint key = 0;

          if (cls != 0)
            {
              GraftOp op = graft_node_get_op (node);

              if (op != GRAFT_OP_PLACEHOLDER && op != GRAFT_OP_OUTPUT)
                {
                  c->ops_seen[cls] |= 1u << op;
                  key = cls << 3 | op;
                }
            }
          for (guint i = 0; i < n_anchors; i++)
            if (c->anchor_key[i] != 0
                    ? key == c->anchor_key[i]
                    : nodes_are_equal (s, nodes->pdata[g_array_index (anchors, guint, i)],
                                       g_array_index (anchors, guint, i), node))
              VEC_PUSH (&candidates[i], node);
        }
      if (node == NULL)
        c->stage = PASS_DONE;
    }
  c->node = node;
  *work = left;
  return c->stage == PASS_DONE;
}

static void
candidate_pass_clear (CandidatePass *c)
{
  g_clear_pointer (&c->ops_seen, g_free);
  g_clear_pointer (&c->ops_needed, g_free);
  g_clear_pointer (&c->anchor_key, g_free);
  classes_clear (&c->classes);
}

/* The pass's end: FALSE when the search cannot match (an anchor has no
 * candidate, or a node every match needs has no equal in the graph).
 * Frees what the pass held. */
static gboolean
candidate_pass_end (CandidatePass *c,
                    GArray        *anchors,
                    NodeVec       *candidates)
{
  gboolean possible = TRUE;

  /* Deviation: an anchor without candidates means no match (torch raises
   * KeyError). */
  for (guint i = 0; i < anchors->len; i++)
    if (candidates[i].len == 0)
      possible = FALSE;
  /* A node every match needs has no equal in the graph. */
  for (guint i = 0; i <= c->classes.n_classes && possible; i++)
    if ((c->ops_needed[i] & ~c->ops_seen[i]) != 0)
      possible = FALSE;
  candidate_pass_clear (c);
  return possible;
}

/* Filters ------------------------------------------------------------------- */

static gboolean
is_returning (GraftPattern *p,
              guint         pos)
{
  for (guint i = 0; i < p->returning->len; i++)
    if (g_array_index (p->returning, guint, i) == pos)
      return TRUE;
  return FALSE;
}

static gboolean
is_compute (GraftPattern *p,
            guint         pos)
{
  GraftOp op = graft_node_get_op (p->nodes->pdata[pos]);

  return op != GRAFT_OP_PLACEHOLDER && op != GRAFT_OP_OUTPUT;
}

/* What a filter makes of a pattern position. */
enum {
  ROLE_OTHER,     /* a placeholder or the output */
  ROLE_INNER,     /* a node the match replaces, which the pattern does not return */
  ROLE_RETURNING, /* a node the match replaces and the pattern returns */
};

/* A node a match replaces. */
typedef struct
{
  GraftNode *node;
  gboolean   inner; /* ROLE_INNER */
} Inside;

/* A position filter_match_fast() reads: a node the match replaces. */
typedef struct
{
  guint pos;
  guint role; /* ROLE_INNER or ROLE_RETURNING */
  /* ROLE_INNER: how many users its graph node has when every one of them
   * is bound in the match (see filtering_init()); G_MAXUINT: not known */
  guint n_users;
} Replaced;

/* Above this many nodes a match replaces, filter_match() alone. */
#define FAST_FILTER_MAX 16

/* What the filters need of the pattern and the graph, prepared once per
 * search. */
typedef struct
{
  GraftGraph *graph;
  guint8     *role; /* per pattern position: ROLE_* */
  guint       n_positions;
  Inside     *inside;      /* filter_match()'s, room for every position */
  NodeVec     stack;       /* walk_has_no_cycle()'s */
  int         topological; /* whether the graph's order is; -1: not known yet */
  /* filter_match_fast()'s positions, in pattern order; n_replaced is 0
   * when it is not used */
  Replaced *replaced;
  guint     n_replaced;
} Filtering;

/* For filter_match_fast(): the positions a match replaces, and for each
 * that the pattern does not return, how many users its graph node has when
 * they are all in the match.  A required pattern node that pairs the
 * position's node among its arguments (Search.paired counts them) is bound
 * in every complete match, to a graph node that uses the one bound at the
 * position; bindings are one to one, so that graph node has at least that
 * many users inside the match, and when it has no more users than that,
 * none outside it.  (A users list may hold a user twice, or one that left
 * while removals are deferred: more than it should, never fewer.) */
static void
filtering_init (Filtering    *f,
                Search       *s,
                GraftPattern *p,
                GraftGraph   *graph)
{
  f->graph = graph;
  f->n_positions = p->nodes->len;
  f->role = g_new (guint8, MAX (p->nodes->len, 1));
  f->inside = g_new (Inside, MAX (p->nodes->len, 1));
  f->replaced = g_new (Replaced, MAX (p->nodes->len, 1));
  f->n_replaced = 0;
  for (guint i = 0; i < p->nodes->len; i++)
    {
      f->role[i] = !is_compute (p, i)    ? ROLE_OTHER
                   : is_returning (p, i) ? ROLE_RETURNING
                                         : ROLE_INNER;
      if (f->role[i] != ROLE_OTHER)
        {
          Replaced *r = &f->replaced[f->n_replaced++];

          r->pos = i;
          r->role = f->role[i];
          r->n_users = G_MAXUINT;
          if (r->role == ROLE_INNER && s->required != NULL && s->paired != NULL)
            r->n_users = s->paired[i];
        }
    }
  if (f->n_replaced > FAST_FILTER_MAX || !_graft_matcher_compiled_enabled)
    f->n_replaced = 0;
  memset (&f->stack, 0, sizeof f->stack);
  f->topological = -1;
}

static void
filtering_clear (Filtering *f)
{
  g_clear_pointer (&f->role, g_free);
  g_clear_pointer (&f->inside, g_free);
  g_clear_pointer (&f->replaced, g_free);
  g_clear_pointer (&f->stack.items, g_free);
}

/* The nodes the matches kept so far hold, for remove_overlapping_matches:
 * a mark in scratch slot 0, free once the search is over and left alone by
 * the other filters (they mark in slot 1); or, when the caller's filter
 * runs in between (and may use the marks itself) or other work may run
 * between the steps of the search (graft_match_search_step()), a set. */
typedef struct
{
  guint32     mark;
  gboolean    by_mark;
  GraftPtrMap set; /* without by_mark: node -> itself */
} Claims;

static void
claims_init (Claims     *c,
             GraftGraph *graph,
             gboolean    use_set,
             guint       expected)
{
  c->by_mark = !use_set;
  c->mark = use_set ? 0 : _graft_graph_new_mark (graph);
  if (use_set)
    _graft_ptr_map_init (&c->set, expected);
  else
    memset (&c->set, 0, sizeof c->set);
}

static void
claims_clear (Claims *c)
{
  _graft_ptr_map_clear (&c->set);
}

static gboolean
is_claimed (const Claims *c,
            GraftNode    *node)
{
  return !c->by_mark ? _graft_ptr_map_lookup (&c->set, node) != NULL
                     : _graft_node_has_mark (node, 0, c->mark);
}

static void
claim (Claims    *c,
       GraftNode *node)
{
  if (!c->by_mark)
    _graft_ptr_map_insert (&c->set, node, node);
  else
    _graft_node_set_mark_held (node, 0, c->mark);
}

/* `validate_partition`'s walk: replacing the match must not create a
 * cycle, that is, no path may leave the match and come back into it.  The
 * walk starts from the users outside the match, on f->stack.  In a graph
 * whose order is topological (found out the first time it matters), a path
 * that comes back must stay before the match's last node, @last, which
 * bounds the walk.
 *
 * Both sets of the walk, the match (@part) and the nodes seen (@visited),
 * live in scratch slot 1, as two marks: the walk stops at the first node
 * of the match it meets, so it never marks one visited.  Slot 0 is not
 * touched, because it holds the claims of the overlap filter (Claims)
 * from one match to the next: a walk may well pass through the nodes of
 * an earlier kept match (a returning node of this match feeding them),
 * and a visited mark there would wipe their claim, so that a later match
 * holding them would not be dropped as overlapping, as torch drops it
 * (tests/data/rewrite/overlap_claim_after_cycle_walk.py). */
static gboolean
walk_has_no_cycle (Filtering *f,
                   guint32    part,
                   guint32    visited,
                   GraftNode *last)
{
  NodeVec *stack = &f->stack;

  while (stack->len > 0)
    {
      GraftNode  *node = stack->items[--stack->len];
      GraftNode **users;
      guint       n_users;

      if (_graft_node_has_mark (node, 1, part))
        return FALSE;
      if (_graft_node_has_mark (node, 1, visited))
        continue;
      _graft_node_set_mark_held (node, 1, visited);
      if (graft_node_compare_order (node, last) > 0)
        {
          if (f->topological < 0)
            f->topological = _graft_graph_is_topological (f->graph);
          if (f->topological)
            continue;
        }
      /* The users as an array: the accessor checks its index each time. */
      users = node_users (node);
      n_users = node_n_users (node);
      for (guint u = 0; u < n_users; u++)
        if (!_graft_node_has_mark (users[u], 1, visited))
          VEC_PUSH (stack, users[u]);
    }
  return TRUE;
}

/* torch's filters for one match, in torch's order, with the marks @part,
 * @part + 1 and @part + 2 of scratch slot 1, none on a node yet:
 *
 * - `_is_contained`: no node inside the match, other than what it
 *   returns, is used by a node outside it;
 * - `validate_partition`: replacing it makes no cycle (walk_has_no_cycle());
 * - remove_overlapping_matches: it holds no node of a match kept before
 *   (@claims; with @remove_overlapping, a kept match claims its nodes).
 *
 * The match's nodes are marked in one pass (those it replaces with @part,
 * the others it binds, placeholders' values and the output, with @part +
 * 1), and the users of those it replaces are read once, for the first
 * filter and as the starts of the second's walk. */
static GraftMatchDropReason
filter_match (Filtering  *f,
              GraftMatch *m,
              guint32     part,
              Claims     *claims,
              gboolean    remove_overlapping)
{
  const guint32 other = part + 1;
  GraftNode    *last = NULL;
  gboolean      overlaps = FALSE;
  Inside       *inside = f->inside;
  guint         n_inside = 0;

  /* The match's nodes marked, those it replaces listed in pattern order. */
  for (guint pos = 0; pos < f->n_positions; pos++)
    {
      const Binding *b = &m->bindings[pos];

      if (b->state != BOUND_NODE)
        continue;
      if (f->role[pos] == ROLE_OTHER)
        {
          _graft_node_set_mark_held (b->node, 1, other);
          continue;
        }
      _graft_node_set_mark_held (b->node, 1, part);
      if (last == NULL || graft_node_compare_order (b->node, last) > 0)
        last = b->node;
      /* The claims' marks are in slot 0: read now, they cost a load. */
      if (claims->by_mark && _graft_node_has_mark (b->node, 0, claims->mark))
        overlaps = TRUE;
      inside[n_inside].node = b->node;
      inside[n_inside++].inner = f->role[pos] == ROLE_INNER;
    }
  f->stack.len = 0;
  for (guint k = 0; k < n_inside; k++)
    {
      GraftNode **users = node_users (inside[k].node);
      guint       n_users = node_n_users (inside[k].node);

      for (guint u = 0; u < n_users; u++)
        {
          guint32 mark = _graft_node_get_mark (users[u], 1);

          if (mark == part)
            continue;
          if (inside[k].inner && mark != other)
            return GRAFT_MATCH_DROPPED_LEAK;
          VEC_PUSH (&f->stack, users[u]);
        }
    }
  if (last != NULL && !walk_has_no_cycle (f, part, part + 2, last))
    return GRAFT_MATCH_DROPPED_CYCLE;
  if (!remove_overlapping)
    return GRAFT_MATCH_KEPT;
  for (guint k = 0; k < n_inside && !claims->by_mark && !overlaps; k++)
    if (is_claimed (claims, inside[k].node))
      overlaps = TRUE;
  if (overlaps)
    return GRAFT_MATCH_DROPPED_OVERLAP;
  for (guint k = 0; k < n_inside; k++)
    claim (claims, inside[k].node);
  return GRAFT_MATCH_KEPT;
}

/* filter_match() without marks for the usual match, whose filters the
 * order of the graph's nodes decides: each node it replaces but does not
 * return has no user outside it by the count of Replaced.n_users, and
 * each user of a node it returns is in it or comes after its last node
 * (where, in a graph in topological order, no path back into the match
 * can start).  Any other match goes to filter_match(), with the same
 * arguments. */
static GraftMatchDropReason
filter_match_fast (Filtering  *f,
                   GraftMatch *m,
                   guint32     part,
                   Claims     *claims,
                   gboolean    remove_overlapping)
{
  /* In locals: the stores below (marks, Inside) might alias the fields. */
  Inside         *inside = f->inside;
  const Replaced *replaced = f->replaced;
  const guint     n_replaced = f->n_replaced;
  const guint32   claim_mark = claims->mark;
  const gboolean  by_mark = claims->by_mark;
  guint           n_inside = 0;
  guint64         last_order = 0;
  gboolean        overlaps = FALSE;
  gboolean        starts = FALSE;

  for (guint k = 0; k < n_replaced; k++)
    {
      const Binding *b = &m->bindings[replaced[k].pos];
      GraftNode     *node = b->node;
      gboolean       inner = replaced[k].role == ROLE_INNER;

      if (b->state != BOUND_NODE)
        continue;
      if (inner && node_n_users (node) != replaced[k].n_users)
        return filter_match (f, m, part, claims, remove_overlapping);
      last_order = MAX (last_order, node_order (node));
      if (by_mark && _graft_node_has_mark (node, 0, claim_mark))
        overlaps = TRUE;
      inside[n_inside].node = node;
      inside[n_inside++].inner = inner;
    }
  /* The users of the nodes it returns. */
  for (guint k = 0; k < n_inside; k++)
    {
      GraftNode **users;
      guint       n_users;

      if (inside[k].inner)
        continue;
      users = node_users (inside[k].node);
      n_users = node_n_users (inside[k].node);
      for (guint u = 0; u < n_users; u++)
        {
          gboolean in = FALSE;

          if (node_order (users[u]) > last_order)
            {
              starts = TRUE;
              continue;
            }
          for (guint j = 0; j < n_inside && !in; j++)
            in = inside[j].node == users[u];
          if (!in)
            return filter_match (f, m, part, claims, remove_overlapping);
        }
    }
  /* The cycle walk would stop at each of its starts. */
  if (starts)
    {
      if (f->topological < 0)
        f->topological = _graft_graph_is_topological (f->graph);
      if (!f->topological)
        return filter_match (f, m, part, claims, remove_overlapping);
    }
  if (!remove_overlapping)
    return GRAFT_MATCH_KEPT;
  for (guint k = 0; k < n_inside && !by_mark && !overlaps; k++)
    if (is_claimed (claims, inside[k].node))
      overlaps = TRUE;
  if (overlaps)
    return GRAFT_MATCH_DROPPED_OVERLAP;
  if (by_mark)
    for (guint k = 0; k < n_inside; k++)
      _graft_node_set_mark_held (inside[k].node, 0, claim_mark);
  else
    for (guint k = 0; k < n_inside; k++)
      claim (claims, inside[k].node);
  return GRAFT_MATCH_KEPT;
}

static void
search_init (Search                  *s,
             GraftPattern            *pattern,
             GraftGraph              *graph,
             const GraftMatchOptions *options)
{
  s->pattern = pattern;
  s->graph = graph;
  s->options = options;
  s->dialect = graft_graph_get_dialect (graph);
  s->bind = g_new0 (Binding, pattern->nodes->len);
  s->literals = g_new (GraftArg, MAX (pattern->nodes->len, 1));
  s->trail.items = g_new (guint, MAX (pattern->nodes->len, 1));
  s->trail.alloc = MAX (pattern->nodes->len, 1);
  s->same_target = g_new0 (const char *, pattern->nodes->len);
  s->op_of = g_new (GraftOp, MAX (pattern->nodes->len, 1));
  s->args_of = g_new (const GraftArg *, MAX (pattern->nodes->len, 1));
  s->kwargs_of = g_new (const GraftArg *, MAX (pattern->nodes->len, 1));
  for (guint i = 0; i < pattern->nodes->len; i++)
    {
      s->op_of[i] = graft_node_get_op (pattern->nodes->pdata[i]);
      s->args_of[i] = graft_node_get_args (pattern->nodes->pdata[i]);
      s->kwargs_of[i] = graft_node_get_kwargs (pattern->nodes->pdata[i]);
    }
  /* Until search_clear(). */
  _graft_graph_hold_marks (graph);
  s->bound_mark = _graft_graph_new_mark (graph);
}

static void
search_clear (Search *s)
{
  g_clear_pointer (&s->why, g_free);
  g_clear_pointer (&s->required, g_free);
  g_clear_pointer (&s->paired, g_free);
  g_clear_pointer (&s->bind, g_free);
  g_clear_pointer (&s->literals, g_free);
  g_clear_pointer (&s->same_target, g_free);
  g_clear_pointer (&s->op_of, g_free);
  g_clear_pointer (&s->args_of, g_free);
  g_clear_pointer (&s->kwargs_of, g_free);
  g_clear_pointer (&s->trail.items, g_free);
  g_clear_pointer (&s->pattern_leaves.items, g_free);
  g_clear_pointer (&s->graph_leaves.items, g_free);
  g_clear_pointer (&s->stack.items, g_free);
  g_clear_pointer (&s->found.items, g_free);
  release_block (s);
  _graft_graph_release_marks (s->graph);
}

/* torch 2.6 lists a complete candidate's placeholder and returning nodes
 * from `nodes_map` before any filter: one that ignore_literals left unbound
 * (what uses it met a constant) raises KeyError, and the search fails. */
static gboolean
check_complete (GraftPattern     *pattern,
                GArray           *anchors,
                const gboolean   *required,
                const GraftMatch *m,
                GError          **error)
{
  GArray *lists[] = { pattern->placeholders, pattern->returning };

  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; i < lists[l]->len; i++)
      {
        guint      pos = g_array_index (lists[l], guint, i);
        GraftNode *pn = pattern->nodes->pdata[pos];
        GraftNode *at;

        if (m->bindings[pos].state != UNBOUND || (required != NULL && required[pos]))
          continue;
        /* The search's own anchor is always bound (with match_output, the
         * output; the pattern's first anchor may be what is unbound). */
        at = m->bindings[g_array_index (anchors, guint, 0)].node;
        graft_node_set_error (at, error, GRAFT_ERROR_REWRITE,
                              "the pattern's %s %s stands for nothing in the match at %s: with "
                              "ignore_literals, what uses it was matched against a constant "
                              "(torch.fx: KeyError: %s)",
                              graft_node_get_op (pn) == GRAFT_OP_PLACEHOLDER ? "parameter"
                                                                             : "result",
                              graft_node_get_name (pn), graft_node_get_name (at),
                              graft_node_get_name (pn));
        return FALSE;
      }
  return TRUE;
}

/* Whether check_complete() can pass over every match: each of the
 * pattern's placeholders and returning nodes is bound in every complete
 * match. */
static gboolean
all_required (Search       *s,
              GraftPattern *pattern)
{
  GArray *lists[] = { pattern->placeholders, pattern->returning };

  if (s->required == NULL)
    return FALSE;
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; i < lists[l]->len; i++)
      if (!s->required[g_array_index (lists[l], guint, i)])
        return FALSE;
  return TRUE;
}

/**
 * graft_matcher_find:
 * @pattern: the pattern
 * @graph: the graph to search
 * @options: (nullable): the options; %NULL for replace_pattern's
 * @out_dropped: (out) (optional) (transfer full): complete candidate matches
 *   that a filter removed, each with its reason, in the order found
 *
 * `SubgraphMatcher.match`: every occurrence of @pattern in @graph that
 * `replace_pattern` would replace, in the order it would replace them.
 * Where torch fails (graft_matcher_find_full()), no match.
 *
 * Returns: (transfer full) (element-type GraftMatch): the matches
 */
GPtrArray *
graft_matcher_find (GraftPattern            *pattern,
                    GraftGraph              *graph,
                    const GraftMatchOptions *options,
                    GPtrArray              **out_dropped)
{
  GPtrArray *found = graft_matcher_find_full (pattern, graph, options, out_dropped, NULL);

  if (found != NULL)
    return found;
  if (out_dropped != NULL)
    *out_dropped = g_ptr_array_new_with_free_func ((GDestroyNotify) graft_match_free);
  return g_ptr_array_new_with_free_func ((GDestroyNotify) graft_match_free);
}

/**
 * graft_matcher_find_full:
 * @pattern: the pattern
 * @graph: the graph to search
 * @options: (nullable): the options; %NULL for replace_pattern's
 * @out_dropped: (out) (optional) (transfer full): as graft_matcher_find()'s
 * @error: return location for an error
 *
 * graft_matcher_find(), failing where torch's matcher raises: in torch 2.6
 * with ignore_literals, a complete match whose placeholder or returned
 * value is bound to nothing (torch: `KeyError`).
 *
 * Returns: (transfer full) (element-type GraftMatch) (nullable): the
 *   matches, or %NULL with @error set
 */
GPtrArray *
graft_matcher_find_full (GraftPattern            *pattern,
                         GraftGraph              *graph,
                         const GraftMatchOptions *options,
                         GPtrArray              **out_dropped,
                         GError                 **error)
{
  GraftMatchSearch *search;
  GPtrArray        *found;

  g_return_val_if_fail (pattern != NULL && graph != NULL, NULL);

  search = graft_match_search_new (pattern, graph, options);
  while (!graft_match_search_step (search, G_MAXUINT))
    ;
  found = graft_match_search_finish (search, out_dropped, error);
  graft_match_search_free (search);
  return found;
}

/* A search by steps --------------------------------------------------------- */

/* Where a GraftMatchSearch stands. */
enum {
  PHASE_CANDIDATES, /* the pass over the graph (CandidatePass) */
  PHASE_MATCHING,   /* the walks from the first anchor's candidates */
  PHASE_FILTERING,  /* torch's filters, then the caller's, match by match */
  PHASE_DONE,
};

/* The work a step of the matching phase counts for a candidate of the
 * first anchor (a walk over the pattern), against a node of the pass. */
#define WORK_PER_CANDIDATE 8
/* And of the filtering phase, for a match. */
#define WORK_PER_MATCH 8

struct _GraftMatchSearch
{
  GraftMatchOptions options;       /* a copy of the caller's */
  Search            s;             /* its options are the copy */
  GArray           *anchors;       /* the pattern's, or output_anchor */
  GArray           *output_anchor; /* Owned, with match_output */
  NodeVec          *candidates;    /* Owned: per anchor, and one more */
  guint             phase;         /* PHASE_* */
  CandidatePass     pass;          /* PHASE_CANDIDATES */
  guint             next;          /* PHASE_MATCHING: the next candidate; FILTERING: match */
  Filtering         filtering;     /* PHASE_FILTERING */
  Claims            claimed;
  gboolean          filtering_ready;
  /* Before a bounded search filters: whether the graph is in topological
   * order, found out by steps (1, 0; -1: not yet), and where that walk is. */
  int        order;
  gboolean   order_begun;
  GraftNode *order_next;
  GPtrArray *kept;    /* Owned: GraftMatch, its free function set once done */
  guint      n_kept;  /* matches kept so far, at the start of kept */
  GPtrArray *dropped; /* Owned: GraftMatch */
  GError    *error;   /* Owned: why the search failed, or NULL */
  gboolean   taken;   /* graft_match_search_finish() took the results */
};

/**
 * graft_match_search_new:
 * @pattern: the pattern
 * @graph: the graph to search
 * @options: (nullable): the options, copied; %NULL for replace_pattern's
 *
 * Starts graft_matcher_find_full() as work done by steps
 * (graft_match_search_step()), for a caller that must not stop for the
 * whole search at once (the editor's main loop).  Between two steps other
 * work may use the graph, and its nodes' scratch marks, as long as neither
 * the graph nor the pattern changes: a search of a graph changed since it
 * began is to be freed, neither stepped nor finished.  The graph and the
 * pattern must outlive the search (it holds the graph's marks' memory
 * until it is freed), and it is of one thread.
 *
 * Returns: (transfer full): the search, not begun
 */
GraftMatchSearch *
graft_match_search_new (GraftPattern            *pattern,
                        GraftGraph              *graph,
                        const GraftMatchOptions *options)
{
  GraftMatchSearch *self;

  g_return_val_if_fail (pattern != NULL && graph != NULL, NULL);

  self = g_new0 (GraftMatchSearch, 1);
  if (options != NULL)
    self->options = *options;
  else
    graft_match_options_init (&self->options);
  search_init (&self->s, pattern, graph, &self->options);

  /* The anchors: the output node alone with match_output, else the
   * pattern's anchors. */
  self->anchors = pattern->anchors;
  if (self->options.match_output)
    {
      guint pos = pattern->nodes->len - 1;

      self->output_anchor = g_array_new (FALSE, FALSE, sizeof (guint));
      g_array_append_val (self->output_anchor, pos);
      self->anchors = self->output_anchor;
    }
  self->candidates = g_new0 (NodeVec, self->anchors->len + 1);
  /* Its free function is set once it holds only matches. */
  self->kept = g_ptr_array_new ();
  self->dropped = g_ptr_array_new_with_free_func ((GDestroyNotify) graft_match_free);
  candidate_pass_init (&self->pass, &self->s, self->anchors);
  self->phase = PHASE_CANDIDATES;
  self->order = -1;
  return self;
}

/* The end of the pass: the walks compiled, or nothing to walk. */
static void
begin_matching (GraftMatchSearch *self)
{
  Search *s = &self->s;

  if (!candidate_pass_end (&self->pass, self->anchors, self->candidates))
    {
      self->phase = PHASE_FILTERING;
      self->next = 0;
      return;
    }
  s->programs = compile_programs (s, self->anchors);
  self->next = 0;
  self->phase = PHASE_MATCHING;
  /* A pattern without anchors (none has) matches once, binding nothing. */
  if (self->anchors->len == 0)
    {
      backtrack (s, self->anchors, self->candidates, 0);
      self->phase = PHASE_FILTERING;
      self->next = 0;
    }
}

/* The walks done: the compiled programs go; the complete candidates are
 * checked (check_complete()), and the filters made ready.  @unbounded:
 * the step that gets here does the rest at once, so that the claims of
 * the overlap filter can be marks (Claims). */
static void
begin_filtering (GraftMatchSearch *self,
                 gboolean          unbounded)
{
  Search *s = &self->s;
  guint   n_to_check;
  guint   expected = 0;

  if (s->programs != NULL)
    for (guint i = 0; i < self->anchors->len; i++)
      program_clear (&s->programs[i]);
  g_clear_pointer (&s->programs, g_free);

  /* When every placeholder and returning node is bound in every complete
   * match (without ignore_literals, nearly always), none needs a look. */
  n_to_check = s->found.len > 0 && !all_required (s, s->pattern) ? s->found.len : 0;
  for (guint i = 0; i < n_to_check; i++)
    if (!check_complete (s->pattern, self->anchors, s->required, s->found.items[i],
                         &self->error))
      {
        for (guint k = 0; k < s->found.len; k++)
          graft_match_free (s->found.items[k]);
        s->found.len = 0;
        g_clear_pointer (&self->kept, g_ptr_array_unref);
        g_clear_pointer (&self->dropped, g_ptr_array_unref);
        break;
      }

  /* torch's filters, in torch's order, then the caller's.  The kept
   * matches are written in place, their room laid out at once. */
  if (self->kept != NULL)
    g_ptr_array_set_size (self->kept, s->found.len);
  filtering_init (&self->filtering, s, s->pattern, s->graph);
  /* A kept match claims the nodes it replaces. */
  if (!unbounded || self->options.filter != NULL)
    for (guint i = 0; i < self->filtering.n_positions; i++)
      if (self->filtering.role[i] != ROLE_OTHER)
        expected += MIN (s->found.len, G_MAXUINT / 64);
  claims_init (&self->claimed, s->graph, self->options.filter != NULL || !unbounded, expected);
  self->filtering_ready = TRUE;
  self->next = 0;
}

/* Filters the matches from self->next on, at most @n of them. */
static void
filter_some (GraftMatchSearch *self,
             guint             n)
{
  Search *s = &self->s;
  guint   end = self->next + MIN (n, s->found.len - self->next);
  /* Three marks a match (filter_match()), handed out at once. */
  guint32  first_mark = _graft_graph_reserve_marks (s->graph, 3 * MAX (end - self->next, 1));
  gboolean remove = self->options.remove_overlapping_matches;

  for (guint i = self->next; i < end; i++)
    {
      GraftMatch *m = s->found.items[i];
      guint32     part = first_mark + 3 * (i - self->next);

      m->reason = self->filtering.n_replaced > 0
                      ? filter_match_fast (&self->filtering, m, part, &self->claimed, remove)
                      : filter_match (&self->filtering, m, part, &self->claimed, remove);
      if (m->reason == GRAFT_MATCH_KEPT && self->options.filter != NULL &&
          !self->options.filter (m, s->graph, self->options.filter_data))
        m->reason = GRAFT_MATCH_DROPPED_FILTER;
      if (m->reason == GRAFT_MATCH_KEPT)
        self->kept->pdata[self->n_kept++] = m;
      else
        g_ptr_array_add (self->dropped, m);
    }
  self->next = end;
}

/* The filters done: the kept matches are the results. */
static void
end_filtering (GraftMatchSearch *self)
{
  Search *s = &self->s;

  if (self->kept != NULL)
    {
      g_ptr_array_set_size (self->kept, self->n_kept);
      g_ptr_array_set_free_func (self->kept, (GDestroyNotify) graft_match_free);
    }
  /* The matches are the results' now. */
  s->found.len = 0;
  claims_clear (&self->claimed);
  filtering_clear (&self->filtering);
  self->filtering_ready = FALSE;
  /* Searching the pattern's own graph used the scratch slot that holds the
   * pattern's positions: put them back. */
  if (s->graph == s->pattern->graph)
    for (guint i = 0; i < s->pattern->nodes->len; i++)
      _graft_node_set_mark (s->pattern->nodes->pdata[i], 1, i + 1);
  self->phase = PHASE_DONE;
}

/**
 * graft_match_search_step:
 * @self: a search
 * @work: about how much to do: a node of the graph looked at counts 1, a
 *   walk from a candidate or a match filtered a few; %G_MAXUINT for all
 *
 * Goes on with the search, for about @work (at least a little).  The
 * same graph and pattern must be as they were when it began.
 *
 * Returns: whether the search is done (graft_match_search_finish())
 */
gboolean
graft_match_search_step (GraftMatchSearch *self,
                         guint             work)
{
  Search  *s;
  gboolean unbounded = work == G_MAXUINT;

  g_return_val_if_fail (self != NULL, TRUE);

  s = &self->s;
  work = MAX (work, 1);
  if (self->phase == PHASE_CANDIDATES)
    {
      if (!candidate_pass_step (&self->pass, s, self->anchors, self->candidates, &work))
        return FALSE;
      begin_matching (self);
    }
  if (self->phase == PHASE_MATCHING && work > 0)
    {
      guint n = self->candidates[0].len;
      guint to =
          unbounded ? n : self->next + MIN (n - self->next, MAX (work / WORK_PER_CANDIDATE, 1));

      if (self->anchors->len == 1)
        {
          search_one_anchor (s, self->anchors, self->candidates, self->next, to);
          work -= MIN (work, (to - self->next) * WORK_PER_CANDIDATE);
          self->next = to;
        }
      else
        {
          guint64 from = s->attempts;
          guint64 until = unbounded ? G_MAXUINT64 : from + MAX (work / WORK_PER_CANDIDATE, 1);

          self->next = backtrack_first (s, self->anchors, self->candidates, self->next, n, until);
          work -= (guint) MIN ((guint64) work, (s->attempts - from) * WORK_PER_CANDIDATE);
        }
      if (self->next < n)
        return FALSE;
      self->phase = PHASE_FILTERING;
      self->next = 0;
    }
  if (self->phase == PHASE_FILTERING)
    {
      if (!self->filtering_ready)
        {
          /* The filters find out whether the graph is in order the first
           * time a match needs it, a walk of the whole graph (10-15 ms at a
           * million nodes): a bounded search walks it by steps first. */
          if (!unbounded && s->found.len > 0 && self->order < 0)
            {
              if (!self->order_begun)
                {
                  self->order_next = graft_graph_get_first (s->graph);
                  self->order_begun = TRUE;
                }
              if (work == 0)
                return FALSE;
              self->order = _graft_graph_check_order_step (s->graph, &self->order_next, &work);
              if (self->order < 0)
                return FALSE;
            }
          begin_filtering (self, unbounded);
          if (self->order >= 0)
            self->filtering.topological = self->order;
        }
      if (self->kept != NULL && self->next < s->found.len)
        {
          if (work == 0)
            return FALSE;
          filter_some (self, unbounded ? G_MAXUINT : MAX (work / WORK_PER_MATCH, 1));
          if (self->next < s->found.len)
            return FALSE;
        }
      end_filtering (self);
    }
  return self->phase == PHASE_DONE;
}

/**
 * graft_match_search_finish:
 * @self: a search that graft_match_search_step() said is done
 * @out_dropped: (out) (optional) (transfer full): as graft_matcher_find()'s
 * @error: return location for an error
 *
 * The results, as graft_matcher_find_full() gives them; once.
 *
 * Returns: (transfer full) (element-type GraftMatch) (nullable): the
 *   matches, or %NULL with @error set
 */
GPtrArray *
graft_match_search_finish (GraftMatchSearch *self,
                           GPtrArray       **out_dropped,
                           GError          **error)
{
  g_return_val_if_fail (self != NULL && self->phase == PHASE_DONE && !self->taken, NULL);

  self->taken = TRUE;
  if (self->error != NULL)
    g_propagate_error (error, g_steal_pointer (&self->error));
  if (out_dropped != NULL)
    *out_dropped = g_steal_pointer (&self->dropped);
  return g_steal_pointer (&self->kept);
}

/**
 * graft_match_search_free:
 * @self: (nullable): a search, done or not
 *
 * Frees the search and whatever it found that was not taken.  Touches no
 * node of the graph, which may have changed since the last step.
 */
void
graft_match_search_free (GraftMatchSearch *self)
{
  Search *s;

  if (self == NULL)
    return;
  s = &self->s;
  candidate_pass_clear (&self->pass);
  if (s->programs != NULL)
    for (guint i = 0; i < self->anchors->len; i++)
      program_clear (&s->programs[i]);
  g_clear_pointer (&s->programs, g_free);
  if (self->filtering_ready)
    {
      claims_clear (&self->claimed);
      filtering_clear (&self->filtering);
    }
  /* The matches not yet filtered; those filtered are in kept or dropped. */
  for (guint i = self->phase == PHASE_FILTERING ? self->next : 0; i < s->found.len; i++)
    graft_match_free (s->found.items[i]);
  s->found.len = 0;
  if (self->kept != NULL)
    {
      /* Before its end, kept's first n_kept are matches, the rest room. */
      if (self->phase != PHASE_DONE)
        {
          g_ptr_array_set_size (self->kept, self->n_kept);
          g_ptr_array_set_free_func (self->kept, (GDestroyNotify) graft_match_free);
        }
      g_ptr_array_unref (self->kept);
    }
  g_clear_pointer (&self->dropped, g_ptr_array_unref);
  g_clear_error (&self->error);
  for (guint i = 0; i < self->anchors->len; i++)
    g_free (self->candidates[i].items);
  g_free (self->candidates);
  g_clear_pointer (&self->output_anchor, g_array_unref);
  search_clear (s);
  g_free (self);
}

/* The sentence for a walk from the pattern's returning node at @at that
 * succeeded: whether replace_pattern replaces the occurrence (match N) or
 * why its rules drop it. */
static char *
explain_fit (GraftPattern            *pattern,
             GraftGraph              *graph,
             GraftNode               *at,
             const GraftMatchOptions *options)
{
  g_autoptr (GPtrArray) dropped = NULL;
  g_autoptr (GPtrArray) kept = graft_matcher_find (pattern, graph, options, &dropped);
  char *sentence = NULL;

  for (guint i = 0; i < kept->len && sentence == NULL; i++)
    if (graft_match_get_returning_node (kept->pdata[i], 0) == at)
      sentence = g_strdup_printf ("'%s' is the result of match %u: replace_pattern replaces it.",
                                  graft_node_get_name (at), i + 1);
  for (guint i = 0; i < dropped->len && sentence == NULL; i++)
    {
      const GraftMatch *m = dropped->pdata[i];

      if (graft_match_get_returning_node (m, 0) != at)
        continue;
      switch (graft_match_get_drop_reason (m))
        {
        case GRAFT_MATCH_DROPPED_LEAK:
          for (guint k = 0; k < pattern->nodes->len && sentence == NULL; k++)
            if (m->bindings[k].state == BOUND_NODE && is_compute (pattern, k) &&
                !is_returning (pattern, k))
              for (guint u = 0;
                   u < graft_node_get_n_users (m->bindings[k].node) && sentence == NULL; u++)
                {
                  GraftNode *user = graft_node_get_user (m->bindings[k].node, u);
                  gboolean   inside = FALSE;

                  for (guint j = 0; j < pattern->nodes->len; j++)
                    if (m->bindings[j].state == BOUND_NODE && m->bindings[j].node == user &&
                        graft_node_get_op (pattern->nodes->pdata[j]) != GRAFT_OP_PLACEHOLDER)
                      inside = TRUE;
                  if (!inside)
                    sentence = g_strdup_printf ("The pattern fits at '%s', but '%s' inside it "
                                                "is also used by '%s', "
                                                "so replace_pattern leaves it alone.",
                                                graft_node_get_name (at),
                                                graft_node_get_name (m->bindings[k].node),
                                                graft_node_get_name (user));
                }
          break;
        case GRAFT_MATCH_DROPPED_OVERLAP:
          for (guint j = 0; j < kept->len && sentence == NULL; j++)
            for (guint k = 0; k < pattern->nodes->len && sentence == NULL; k++)
              if (m->bindings[k].state == BOUND_NODE && is_compute (pattern, k))
                for (guint q = 0; q < pattern->nodes->len && sentence == NULL; q++)
                  {
                    const GraftMatch *other = kept->pdata[j];

                    if (other->bindings[q].state == BOUND_NODE && is_compute (pattern, q) &&
                        other->bindings[q].node == m->bindings[k].node)
                      sentence =
                          g_strdup_printf ("The pattern fits at '%s', but it shares '%s' with "
                                           "match %u, "
                                           "which replace_pattern replaces first.",
                                           graft_node_get_name (at),
                                           graft_node_get_name (m->bindings[k].node), j + 1);
                  }
          break;
        case GRAFT_MATCH_DROPPED_CYCLE:
          sentence =
              g_strdup_printf ("The pattern fits at '%s', but replacing it would make a cycle.",
                               graft_node_get_name (at));
          break;
        case GRAFT_MATCH_DROPPED_FILTER:
        case GRAFT_MATCH_KEPT:
        default:
          sentence = g_strdup_printf ("The pattern fits at '%s', but a filter drops it.",
                                      graft_node_get_name (at));
          break;
        }
    }
  if (sentence == NULL)
    sentence = g_strdup_printf ("The pattern's first result fits at '%s', but its other "
                                "results find no "
                                "partners that fit with it.",
                                graft_node_get_name (at));
  return sentence;
}

/* One alignment "Why not here?" tried: the walk from the pattern's
 * returning node at @start, and how far it got. */
typedef struct
{
  GraftNode *start;
  gboolean   ok;
  guint      n_bound; /* pattern nodes other than placeholders it bound */
  GraftNode *aligned; /* the pattern node it put on the clicked node */
  char      *why;     /* where it failed first, or NULL */
  GPtrArray *bound;   /* GraftNode: the graph nodes it bound, placeholders aside */
} Alignment;

static void
alignment_clear (Alignment *a)
{
  g_clear_pointer (&a->why, g_free);
  g_clear_pointer (&a->bound, g_ptr_array_unref);
}

/* Walks the pattern from its returning node at @start; records in @out
 * whether the walk reached @at (bound it, or failed on it), and with which
 * pattern node. */
static gboolean
try_alignment (Search    *s,
               GraftNode *start,
               GraftNode *at,
               Alignment *out)
{
  GraftPattern *pattern = s->pattern;
  GraftNode    *anchor = pattern->nodes->pdata[g_array_index (pattern->anchors, guint, 0)];

  g_clear_pointer (&s->why, g_free);
  s->failed_pn = NULL;
  s->failed_gn = NULL;
  memset (out, 0, sizeof *out);
  out->start = start;
  out->bound = g_ptr_array_new ();
  out->ok = match_nodes (s, anchor, start);
  for (guint i = 0; i < pattern->nodes->len; i++)
    if (s->bind[i].state == BOUND_NODE)
      {
        if (s->bind[i].node == at)
          out->aligned = pattern->nodes->pdata[i];
        if (graft_node_get_op (pattern->nodes->pdata[i]) != GRAFT_OP_PLACEHOLDER)
          g_ptr_array_add (out->bound, s->bind[i].node);
      }
  out->n_bound = out->bound->len;
  if (out->aligned == NULL && s->failed_gn == at)
    out->aligned = s->failed_pn;
  out->why = g_steal_pointer (&s->why);
  undo_to (s, 0);
  return out->aligned != NULL || start == at;
}

/* Whether @a explains more than @b: a walk that fits beats one that fails,
 * then the walk that got through more of the pattern; ties go to @b, the
 * one tried first (the clicked node as the pattern's result first). */
static gboolean
alignment_better (const Alignment *a,
                  const Alignment *b)
{
  if (a->ok != b->ok)
    return a->ok;
  return !a->ok && a->n_bound > b->n_bound;
}

/**
 * graft_matcher_explain:
 * @pattern: the pattern
 * @graph: the graph
 * @at: a node of @graph, where the user expected the pattern to match
 * @options: (nullable): the options; %NULL for replace_pattern's
 * @out_bound: (out) (optional) (transfer container) (element-type GraftNode):
 *   the graph nodes the walk bound before it stopped
 *
 * "Why not here?": walks the pattern from its returning node as
 * `SubgraphMatcher._match_nodes` does, and says in one sentence where it
 * first fails (an op or target that differs, a literal, a keyword, a
 * placeholder that would stand for two values; for two module calls at
 * different paths, that torch.fx matches them only by equal targets).  When the walk succeeds,
 * says whether `replace_pattern` replaces the occurrence (match N) or why
 * its rules drop it (an inner value used outside, an overlap, a cycle).
 *
 * The walk is tried with the pattern's result at @at, and then with any
 * other pattern node on @at: from each node that uses @at, directly or
 * not (breadth first, at most %GRAFT_MAX_EXPLAIN_ALIGNMENTS walks), as the
 * pattern's result.  The best walk is reported: one that fits, else the
 * one that got through the most pattern nodes before it failed; when it is
 * not the first, the sentence says which pattern node it put on @at and
 * where it put the result.
 *
 * Returns: (transfer full): the sentence
 */
char *
graft_matcher_explain (GraftPattern            *pattern,
                       GraftGraph              *graph,
                       GraftNode               *at,
                       const GraftMatchOptions *options,
                       GPtrArray              **out_bound)
{
  GraftMatchOptions defaults;
  Search            s = { 0 };
  Alignment         best;
  g_autoptr (GPtrArray) queue = g_ptr_array_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  char *sentence = NULL;

  g_return_val_if_fail (pattern != NULL && graph != NULL && at != NULL, NULL);
  g_return_val_if_fail (graph != pattern->graph, NULL);

  if (options == NULL)
    {
      graft_match_options_init (&defaults);
      options = &defaults;
    }
  search_init (&s, pattern, graph, options);
  s.explaining = TRUE;

  /* The clicked node as the result, then its users, their users, ...: a
   * pattern node reached from the result by a path of N arguments lies N
   * uses below it. */
  try_alignment (&s, at, at, &best);
  g_ptr_array_add (queue, at);
  g_hash_table_add (seen, at);
  for (guint q = 0; q < queue->len && queue->len < GRAFT_MAX_EXPLAIN_ALIGNMENTS && !best.ok; q++)
    {
      GraftNode *node = queue->pdata[q];

      for (guint u = 0;
           u < graft_node_get_n_users (node) && queue->len < GRAFT_MAX_EXPLAIN_ALIGNMENTS; u++)
        {
          GraftNode *user = graft_node_get_user (node, u);
          Alignment  tried;

          if (!g_hash_table_add (seen, user))
            continue;
          g_ptr_array_add (queue, user);
          if (try_alignment (&s, user, at, &tried) && alignment_better (&tried, &best))
            {
              alignment_clear (&best);
              best = tried;
            }
          else
            alignment_clear (&tried);
        }
    }

  if (!best.ok && best.start == at)
    sentence = g_strdup_printf ("No match at '%s': %s.", graft_node_get_name (at),
                                best.why != NULL ? best.why : "the pattern does not fit here");
  else if (!best.ok)
    sentence = g_strdup_printf ("No match at '%s', even with the pattern's '%s' there and its "
                                "result at '%s': %s.",
                                graft_node_get_name (at), graft_node_get_name (best.aligned),
                                graft_node_get_name (best.start),
                                best.why != NULL ? best.why : "the pattern does not fit here");
  else if (best.start == at)
    sentence = explain_fit (pattern, graph, at, options);
  else
    {
      g_autofree char *fit = explain_fit (pattern, graph, best.start, options);

      sentence = g_strdup_printf ("With the pattern's '%s' at '%s': %s",
                                  graft_node_get_name (best.aligned), graft_node_get_name (at),
                                  fit);
    }

  search_clear (&s);
  if (out_bound != NULL)
    *out_bound = g_steal_pointer (&best.bound);
  alignment_clear (&best);
  return sentence;
}

/* Matches ------------------------------------------------------------------- */

void
graft_match_free (GraftMatch *match)
{
  if (match == NULL)
    return;
  if (match->literals != NULL)
    {
      for (guint i = 0; i < match->pattern->nodes->len; i++)
        if (match->bindings[i].state == BOUND_LITERAL)
          graft_arg_clear (&match->literals[i]);
      g_free (match->literals);
    }
  if (g_atomic_int_dec_and_test (&match->block->n_live))
    {
      graft_pattern_unref (match->block->pattern);
      g_free (match->block);
    }
}

/**
 * graft_match_get_pattern:
 *
 * Returns: (transfer none): the pattern of @match
 */
GraftPattern *
graft_match_get_pattern (const GraftMatch *match)
{
  return match->pattern;
}

GraftMatchDropReason
graft_match_get_drop_reason (const GraftMatch *match)
{
  return match->reason;
}

/**
 * graft_match_get_binding:
 * @pattern_index: a pattern node position (graft_pattern_get_node())
 * @out_node: (out) (optional): the graph node it is bound to, or %NULL
 * @out_literal: (out) (optional): the literal it is bound to, or %NULL
 *
 * Returns: whether the pattern node is bound in @match
 */
gboolean
graft_match_get_binding (const GraftMatch *match,
                         guint             pattern_index,
                         GraftNode       **out_node,
                         const GraftArg  **out_literal)
{
  const Binding *b;

  g_return_val_if_fail (pattern_index < match->pattern->nodes->len, FALSE);
  b = &match->bindings[pattern_index];
  if (out_node != NULL)
    *out_node = b->state == BOUND_NODE ? b->node : NULL;
  if (out_literal != NULL)
    *out_literal = b->state == BOUND_LITERAL ? &match->literals[pattern_index] : NULL;
  return b->state != UNBOUND;
}

/**
 * graft_match_get_placeholder:
 * @i: the index of a pattern placeholder (0 for the first parameter)
 *
 * `placeholder_nodes[i]`: what the i-th pattern parameter is bound to.
 *
 * Returns: whether it is bound
 */
gboolean
graft_match_get_placeholder (const GraftMatch *match,
                             guint             i,
                             GraftNode       **out_node,
                             const GraftArg  **out_literal)
{
  g_return_val_if_fail (i < match->pattern->placeholders->len, FALSE);
  return graft_match_get_binding (match, g_array_index (match->pattern->placeholders, guint, i),
                                  out_node, out_literal);
}

/**
 * graft_match_get_returning_node:
 * @i: the index of a returning node
 *
 * Returns: (transfer none) (nullable): `returning_nodes[i]`, or %NULL when
 *   it is a literal
 */
GraftNode *
graft_match_get_returning_node (const GraftMatch *match,
                                guint             i)
{
  g_return_val_if_fail (i < match->pattern->returning->len, NULL);
  return match->bindings[g_array_index (match->pattern->returning, guint, i)].node;
}

/**
 * graft_match_dup_nodes:
 *
 * The graph nodes that @match replaces: the bindings of the pattern's
 * nodes other than placeholders and the output, in pattern order.
 *
 * Returns: (transfer full) (element-type GraftNode): borrowed nodes
 */
GPtrArray *
graft_match_dup_nodes (const GraftMatch *match)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < match->pattern->nodes->len; i++)
    if (match->bindings[i].state == BOUND_NODE && is_compute (match->pattern, i))
      g_ptr_array_add (out, match->bindings[i].node);
  return out;
}

/**
 * graft_matches_dup_node_marks:
 * @matches: (element-type GraftMatch): matches in @graph
 * @graph: the graph they were found in
 *
 * Which match each node of @graph belongs to, for drawing: the nodes that
 * match number i replaces (graft_match_dup_nodes()) get i; other nodes -1.
 * Where matches overlap, the first one wins.
 *
 * Returns: (transfer full) (array): one entry per node of @graph, in graph
 *   order
 */
gint *
graft_matches_dup_node_marks (GPtrArray  *matches,
                              GraftGraph *graph)
{
  guint n = graft_graph_get_n_nodes (graph);
  gint *marks = g_new (gint, MAX (n, 1));
  g_autoptr (GHashTable) index = g_hash_table_new (NULL, NULL);
  guint i = 0;

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node), i++)
    {
      marks[i] = -1;
      g_hash_table_insert (index, node, GUINT_TO_POINTER (i));
    }
  for (guint m = 0; m < matches->len; m++)
    {
      g_autoptr (GPtrArray) nodes = graft_match_dup_nodes (matches->pdata[m]);

      for (guint k = 0; k < nodes->len; k++)
        {
          gpointer found;

          if (g_hash_table_lookup_extended (index, nodes->pdata[k], NULL, &found) &&
              marks[GPOINTER_TO_UINT (found)] < 0)
            marks[GPOINTER_TO_UINT (found)] = (gint) m;
        }
    }
  return marks;
}
