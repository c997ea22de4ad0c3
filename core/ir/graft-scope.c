/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-scope.c: which module each node of a graph belongs to.
 *
 * A traced graph lists its nodes in the order tracing made them, so the
 * nodes of one submodule's forward stand together.  Only some nodes name
 * their module: a call_module node's target is the module (`layer1.0.conv1`)
 * and a get_attr node's target is a parameter of one (`layer1.0.conv1.weight`
 * belongs to `layer1.0.conv1`).  A function or method call, a placeholder or
 * the output names none.  torch.fx records no module stack for them, so a
 * call's module is worked out from where it stands and what it touches.
 * It ran after the nearest module call before it and before the nearest
 * one after it, so in a module on the way from the first's caller up to
 * the module both were called from and down to the second's caller
 * (place_call() picks one):
 *
 *  1. a call that joins values of different modules, or goes on from
 *     other such calls, ran in the deepest module on that way that holds
 *     where its inputs came from, if that module is below the common one
 *     (shufflenet's `cat` of a block's two branches and the channel
 *     shuffle after it are in the block);
 *  2. else, a call whose value a module on the way takes ran in that
 *     module's caller: code preparing a module's input is that module's
 *     (densenet's `cat` of the earlier features before a dense layer is in
 *     the layer, resnet's `add` before a block's `relu` in the block);
 *  3. else it ran in the common module (resnet's `flatten`).
 *
 * A container of numbered children (a Sequential, a ModuleList) runs no
 * code of its own: a call placed there ran in its child on the side the
 * rule followed (`stage2.1`), or in the container's parent when that child
 * is itself a module call (the `relu` between `layers.1` and `layers.2`).
 * Inputs and the output belong to the whole graph.
 *
 * A torch.export program says where each node ran: the innermost frame of
 * its `nn_module_stack` (graft-meta.h) is its scope, exactly, and the
 * frames give each scope its module class (`layer1.0` is a BasicBlock).
 * When any node of a graph has module frames, a node without them (the
 * nodes a rewrite made) is placed as a traced call is, between the framed
 * nodes around it; a parameter, buffer or constant placeholder belongs to
 * the module that owns it (`layer1.0.conv1.weight` to `layer1.0.conv1`),
 * and user inputs and the output to the whole graph.
 *
 * Drawings list a program's parameter, buffer and constant placeholders
 * right before their first user (an unused one before the first node of
 * its module) rather than at the top, where torch puts them
 * (graft_draw_order_new()); scopes count positions in that order, so a
 * block's weights stand with its calls.
 *
 * Scopes nest by their dotted components (`layer1` holds `layer1.0`, not
 * `layer10`).  The root scope is "".  Folding is described by a set of
 * collapsed scopes: a node is drawn inside the box of the outermost
 * collapsed scope that holds it, if that scope can be folded (two nodes or
 * more, and not only the calls of one module, nor one call and its
 * weights).  A scope's depth counts the scopes that can be folded around
 * it, itself included; folding at a depth collapses every scope there, so
 * a picture shows one level of the model at a time.
 */
#include "config.h"

#include "graft-scope.h"
#include "graft-graph.h"
#include "graft-graph-private.h"
#include "graft-meta.h"
#include "graft-name-table-private.h"

#include <string.h>

typedef struct _Scope Scope;

struct _Scope
{
  const char *path;        /* interned */
  gsize       len;         /* of path */
  Scope      *parent;      /* NULL for the root */
  guint       n_nodes;     /* nodes inside, at any depth */
  guint       n_here;      /* nodes exactly here */
  guint       n_calls;     /* call_module nodes of this very module */
  guint       n_weights;   /* program placeholders inside, at any depth */
  const char *type;        /* interned: the module's class from frames, or NULL */
  guint       first;       /* position of its first node in drawing order */
  guint       last;        /* and of its last */
  Scope      *first_child; /* children in the order first met */
  Scope      *last_child;
  Scope      *next_sibling;
  guint       depth; /* foldable scopes holding it, itself included (the root not) */
};

/* Scopes are carved out of blocks of this many: a graph of a large model
 * has tens of thousands. */
#define SCOPES_PER_BLOCK 512

/* Sizes of GraftScopes's caches (powers of two). */
#define RECENT_SCOPES 1024
#define RECENT_TYPES  64

struct _GraftScopes
{
  GPtrArray    *blocks;     /* Scope[SCOPES_PER_BLOCK], owned */
  guint         block_used; /* scopes taken from the last block */
  GStringChunk *strings;
  Scope       **node_scope; /* per node: its deepest scope */
  guint        *order;      /* per position in drawing order: a node's index */
  guint         n_nodes;
  gboolean      by_frames; /* scopes come from module frames */
  guint         n_depths;  /* the deepest depth of a foldable scope */
  GArray       *scopes_at; /* guint per depth: foldable scopes there, the root not */
  GArray       *direct_at; /* guint per depth: nodes whose deepest scope is there */
  /* path -> Scope *, the root "" included; the keys are the scopes' paths.
   * Looked up by (text, length), as a node's scope is a prefix of a path
   * it holds: a GHashTable wanted each looked up path copied (g_strndup()),
   * and hashed it through a function pointer; at a million nodes, with
   * the copies' malloc and free, a fifth of making the scopes. */
  GraftNameTable scopes;
  /* While the scopes are made: the scopes last found by the address and
   * length of the text looked up (the graph's texts, one copy each, which
   * do not change meanwhile), by a hash of both; and the copies of the
   * module classes of frames, by the address of the graph's text.  A
   * program's nodes repeat a few paths: most lookups are found here
   * without hashing the path. */
  struct
  {
    const char *path;
    gsize       len;
    Scope      *scope;
  } recent[RECENT_SCOPES];
  struct
  {
    const char *type;
    const char *copy;
  } recent_types[RECENT_TYPES];
};

static Scope *
scope_alloc (GraftScopes *self)
{
  if (self->blocks->len == 0 || self->block_used == SCOPES_PER_BLOCK)
    {
      g_ptr_array_add (self->blocks, g_new0 (Scope, SCOPES_PER_BLOCK));
      self->block_used = 0;
    }
  return &((Scope *) self->blocks->pdata[self->blocks->len - 1])[self->block_used++];
}

/* Length of the part of the first @len bytes of @path before their last
 * component (0 for one component). */
static gsize
parent_length (const char *path,
               gsize       len)
{
  while (len > 0 && path[len - 1] != '.')
    len--;
  return len > 0 ? len - 1 : 0;
}

/* Length of the longest common prefix of whole components of @a (of length
 * @a_len) and @b (of length @b_len). */
static gsize
common_length (const char *a,
               gsize       a_len,
               const char *b,
               gsize       b_len)
{
  gsize i = 0;
  gsize last = 0;

  while (i < a_len && i < b_len && a[i] == b[i])
    {
      i++;
      if ((i == a_len || a[i] == '.') && (i == b_len || b[i] == '.'))
        last = i;
    }
  return last;
}

/* Whether the component of @path right after its first @len bytes is a
 * number (`layers.3` after `layers`). */
static gboolean
starts_numbered_child (const char *path,
                       gsize       len)
{
  const char *p = path + len;

  if (*p != '.' || !g_ascii_isdigit (p[1]))
    return FALSE;
  for (p++; *p != '\0' && *p != '.'; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return TRUE;
}

/* The module a node that names one was called from, as a prefix of
 * *@out_path, or -1 for a node that names none: in a traced graph a
 * call_module or get_attr node, in a program a node with module frames. */
static gssize
context_length (GraftNode   *node,
                gboolean     by_frames,
                const char **out_path)
{
  GraftOp op = graft_node_get_op (node);

  if (by_frames)
    {
      const GraftNodeMeta *meta = graft_node_get_meta (node);

      if (meta == NULL || meta->n_modules == 0)
        return -1;
      *out_path = meta->modules[meta->n_modules - 1].path;
      return (gssize) strlen (*out_path);
    }
  if (op == GRAFT_OP_CALL_MODULE || op == GRAFT_OP_GET_ATTR)
    {
      const char *target = graft_node_get_target (node);

      *out_path = target;
      return (gssize) parent_length (target, strlen (target));
    }
  return -1;
}

/* Whether @scope can be drawn as one box: it holds two nodes or more, is
 * not merely a module called several times (`self.relu` used twice in a
 * block), and its nodes stand together in graph order, give or take a
 * quarter.  A box for nodes spread through the graph (a ModuleList whose
 * layers the parent calls here and there) would gather edges from
 * everywhere, which says nothing and costs dot dearly. */
static gboolean
is_foldable (const Scope *scope)
{
  return scope->n_nodes >= 2 && scope->n_nodes != scope->n_calls &&
         scope->n_nodes - scope->n_weights >= 2 &&
         scope->last - scope->first + 1 <= scope->n_nodes + scope->n_nodes / 4 + 2;
}

/* The way from one module call to the next in drawing order: what ran
 * between them ran in a module on it, from the first call's caller (@a)
 * up to the module both were called from (@top) and down to the second
 * call's caller (@b).  @a and @b are the calls' targets (or frames), of
 * which the callers are the first @a_len and @b_len bytes. */
typedef struct
{
  const char *a;
  gsize       a_len;
  const char *b;
  gsize       b_len;
  gsize       top;
} Way;

/* Whether the module @path (of length @len) lies on @way. */
static gboolean
on_way (const Way  *way,
        const char *path,
        gsize       len)
{
  return len >= way->top && (common_length (path, len, way->a, way->a_len) == len ||
                             common_length (path, len, way->b, way->b_len) == len);
}

/* The deepest module on @way that holds @path (of length @len), as a
 * prefix of @way's @a or @b in *@out_path; its length. */
static gsize
way_holder (const Way   *way,
            const char  *path,
            gsize        len,
            const char **out_path)
{
  gsize via_a = common_length (path, len, way->a, way->a_len);
  gsize via_b = common_length (path, len, way->b, way->b_len);

  *out_path = via_a >= via_b ? way->a : way->b;
  return MAX (MAX (via_a, via_b), way->top);
}

/* A module whose children are numbered (a Sequential, a ModuleList) runs
 * no code of its own.  For a call placed in one (the first @len bytes of
 * @side), returns where it ran: inside the numbered child on the way to
 * @side (the module call the rule followed; `stage2.1` on the way to
 * `stage2.1.branch2.0`), or, when that child is the module @side calls
 * itself (`layers.2`), in the container's parent. */
static gsize
leave_containers (const char *side,
                  gsize       len)
{
  gsize side_len = strlen (side);
  gsize child;

  while (len > 0 && len < side_len && starts_numbered_child (side, len))
    {
      for (child = len + 1; child < side_len && side[child] != '.'; child++)
        ;
      if (child == side_len)
        return parent_length (side, len);
      len = child;
    }
  return len;
}

/* The scope of a function or method call @node that names no module, on
 * @way (see the file's comment).  When it joins values of different
 * modules, or goes on from other such calls, it ran in the deepest module
 * on the way that holds the modules its inputs came from, if that module
 * is inside one end of the way (shufflenet's `cat` of a block's two
 * branches and the channel shuffle after it ran in that block).  Else it
 * ran in the caller of a module call that uses its value, if that caller
 * is on the way (code that prepares a module's input is that module's:
 * densenet's `cat` of the earlier features before each dense layer); else
 * in the module both ends were called from.  Never in a container of
 * numbered children.
 * @base numbers @nodes (_graft_node_find_index()); @inputs is scratch. */
static void
place_call (GraftScopes *self,
            GraftNode   *node,
            const Way   *way,
            guint32      base,
            GraftNode  **nodes,
            GPtrArray   *inputs,
            const char **out_path,
            gsize       *out_len)
{
  const char *user_path = NULL;
  gsize       user_len = 0;
  const char *in_path = NULL;
  gsize       in_len = 0;
  const char *side = way->a;
  gsize       len = way->top;
  gboolean    goes_on = FALSE; /* an input is a call that names no module */
  gboolean    joins = FALSE;   /* its inputs come from different modules */

  /* The innermost module holding what its inputs came from. */
  g_ptr_array_set_size (inputs, 0);
  graft_node_get_input_nodes (node, inputs);
  for (guint i = 0; i < inputs->len; i++)
    {
      GraftNode  *input = inputs->pdata[i];
      guint       k;
      const char *p;
      gsize       l;

      if (!_graft_node_find_index (input, base, nodes, self->n_nodes, &k))
        continue;
      k++;
      if (graft_node_get_op (input) == GRAFT_OP_CALL_MODULE)
        l = (gsize) context_length (input, FALSE, &p);
      else if (self->node_scope[k - 1] != NULL)
        {
          goes_on = goes_on || graft_node_get_op (input) == GRAFT_OP_CALL_FUNCTION ||
                    graft_node_get_op (input) == GRAFT_OP_CALL_METHOD;
          p = self->node_scope[k - 1]->path;
          l = self->node_scope[k - 1]->len;
        }
      else
        continue; /* drawn later: not known yet */
      if (in_path == NULL)
        {
          in_path = p;
          in_len = l;
        }
      else
        {
          gsize common = common_length (in_path, in_len, p, l);

          joins = joins || common < in_len || common < l;
          in_len = common;
        }
    }
  if (in_path != NULL && (goes_on || joins))
    len = way_holder (way, in_path, in_len, &side);

  /* Else a user that calls a module on the way. */
  if (len == way->top)
    for (guint u = 0; u < graft_node_get_n_users (node); u++)
      {
        GraftNode  *user = graft_node_get_user (node, u);
        const char *target;
        gssize      c_len;

        if (graft_node_get_op (user) != GRAFT_OP_CALL_MODULE && !self->by_frames)
          continue;
        c_len = context_length (user, self->by_frames, &target);
        if (c_len < 0 || !on_way (way, target, (gsize) c_len))
          continue;
        if (user_path == NULL || (gsize) c_len > user_len)
          {
            user_path = target;
            user_len = (gsize) c_len;
          }
      }
  if (user_path != NULL)
    {
      side = user_path;
      len = user_len;
    }
  *out_path = side;
  *out_len = self->by_frames ? len : leave_containers (side, len);
}

/* The scope named by the first @len bytes of @path, or NULL. */
static Scope *
find_scope (const GraftScopes *self,
            const char        *path,
            gsize              len)
{
  GraftNameSlot *slot;

  if (len > G_MAXUINT32)
    return NULL;
  slot = _graft_name_table_find (&self->scopes, path, len, _graft_name_hash (path, len));
  return slot != NULL ? slot->value : NULL;
}

static Scope *
ensure_scope (GraftScopes *self,
              const char  *path,
              gsize        len)
{
  guint          r = (guint) ((((guintptr) path >> 3) ^ (len * 0x9e3779b1u)) & (RECENT_SCOPES - 1));
  guint          hash;
  GraftNameSlot *slot;
  Scope         *scope;

  if (self->recent[r].path == path && self->recent[r].len == len)
    return self->recent[r].scope;
  hash = _graft_name_hash (path, len);
  slot = _graft_name_table_find (&self->scopes, path, len, hash);
  scope = slot != NULL ? slot->value : NULL;
  if (scope == NULL)
    {
      Scope *parent;

      g_assert (len <= G_MAXUINT32);
      scope = scope_alloc (self);
      /* Not in the table, so not in the chunk either. */
      scope->path = g_string_chunk_insert_len (self->strings, path, (gssize) len);
      scope->len = len;
      _graft_name_table_insert_len (&self->scopes, scope->path, (guint) len, hash, scope);
      if (len > 0)
        {
          parent = ensure_scope (self, path, parent_length (path, len));
          scope->parent = parent;
          if (parent->last_child != NULL)
            parent->last_child->next_sibling = scope;
          else
            parent->first_child = scope;
          parent->last_child = scope;
        }
    }
  self->recent[r].path = path;
  self->recent[r].len = len;
  self->recent[r].scope = scope;
  return scope;
}

/* @type (a frame's module class, the graph's text) as @self keeps it. */
static const char *
copy_type (GraftScopes *self,
           const char  *type)
{
  guint r = (guint) (((guintptr) type >> 3) & (RECENT_TYPES - 1));

  if (self->recent_types[r].type != type)
    {
      self->recent_types[r].type = type;
      self->recent_types[r].copy = g_string_chunk_insert_const (self->strings, type);
    }
  return self->recent_types[r].copy;
}

/* Scope types are set from a framed node's frames, once per run of nodes
 * with the same innermost frame. */
static void
note_frame_types (GraftScopes         *self,
                  const GraftNodeMeta *meta)
{
  for (guint f = 0; f < meta->n_modules; f++)
    {
      const GraftModuleFrame *frame = &meta->modules[f];
      Scope                  *s;

      if (frame->path == NULL || frame->type == NULL)
        continue;
      s = ensure_scope (self, frame->path, strlen (frame->path));
      if (s->type == NULL)
        s->type = copy_type (self, frame->type);
    }
}

/* The depth of @scope, whose parent's is known (see set_depths()). */
static void
set_depth (GraftScopes *self,
           Scope       *scope)
{
  gboolean foldable = scope->parent != NULL && is_foldable (scope);
  guint    zero = 0;

  scope->depth = (scope->parent != NULL ? scope->parent->depth : 0) + (foldable ? 1 : 0);
  self->n_depths = MAX (self->n_depths, scope->depth);
  while (self->scopes_at->len <= scope->depth)
    g_array_append_val (self->scopes_at, zero);
  if (foldable)
    g_array_index (self->scopes_at, guint, scope->depth)++;
}

/* The scope after @scope in a walk from the root down, children before
 * siblings; %NULL after the last.  The walk needs no stack: nesting is
 * shallow, breadth is not. */
static Scope *
next_in_walk (Scope *scope)
{
  if (scope->first_child != NULL)
    return scope->first_child;
  for (; scope != NULL; scope = scope->parent)
    if (scope->next_sibling != NULL)
      return scope->next_sibling;
  return NULL;
}

/* What graft_scopes_builder_step() does next.  Every pass but the last
 * goes through the nodes (or the program's inputs) in steps. */
typedef enum {
  PHASE_LIST,    /* list and number the nodes, look for module frames */
  PHASE_ALIGN,   /* per node: the weight a placeholder stands for, as the signature
                  * lists the placeholders in order */
  PHASE_SPECS,   /* else: index the program's weights by name */
  PHASE_WEIGHTS, /* and look each placeholder up */
  PHASE_SIBROOM, /* a large program: room made in the siblings table, in parts */
  PHASE_FIRSTS,  /* per weight: its first user; per module: its weights' first user */
  PHASE_OWNROOM, /* a large program: room made in the owners table, in parts */
  PHASE_OWNERS,  /* per module: the first node that ran in it (for unused weights) */
  PHASE_MOVE,    /* per weight: the node it is drawn before */
  PHASE_EMIT,    /* the drawing order */
  PHASE_NAMERS,  /* per position, the next node that names a module */
  PHASE_PLACE,   /* each node's scope, in drawing order */
  PHASE_COUNT,   /* deep counts */
  PHASE_DEPTHS,  /* depths, from the root down */
  PHASE_TALLY,   /* per depth, the nodes whose deepest scope is there */
  PHASE_DONE,
} Phase;

struct _GraftScopesBuilder
{
  GraftGraph  *graph;  /* Borrowed: must not change while in use */
  GraftScopes *scopes; /* Owned: being made */
  Phase        phase;
  Phase        last;                 /* the phase that ends the work: PHASE_DONE, or
                                      * PHASE_NAMERS for the drawing order alone */
  GraftNode            **nodes;      /* Owned: the graph's nodes, in graph order */
  const GraftInputSpec **weights;    /* Owned: per node, nullable; NULL when not a program */
  guint                 *next_namer; /* Owned: per position, a position, or n */
  GPtrArray             *inputs;     /* Owned: scratch of place_call() */
  guint32                base;       /* numbers @nodes: a hint (_graft_node_find_index()) */
  guint                  position;   /* next node (or input) of the phase */
  GraftNode             *cursor;     /* PHASE_LIST: the node at @position */
  GraftNode             *prev_namer; /* the last node before @position that names a module */
  Scope                 *scope;      /* the scope of the node before @position; in
                                      * PHASE_DEPTHS, the next scope of the walk */
  /* The drawing order, while it is made (see fill_order's phases) */
  GHashTable *by_name;    /* Owned: a weight's placeholder name -> its entry */
  guint       spec_i;     /* PHASE_ALIGN: the program input the next placeholder is */
  gboolean    misaligned; /* the placeholders are not the signature's in order */
  guint      *firsts;     /* Owned: per weight, its first user, or G_MAXUINT */
  /* The two tables of module paths below are keyed by the graph's own
   * texts (a weight's target up to its module, a frame's path), looked up
   * without copying them. */
  GraftNameTable       siblings;    /* module path -> first user of its weights, + 1 */
  GraftNameTable       owners;      /* module path -> first node that ran in it, + 1 */
  const GraftNodeMeta *owners_meta; /* PHASE_OWNERS: the last node's frames */
  guint               *head;        /* Owned: per node, the first weight drawn before it */
  guint               *tail;        /* Owned: and the last */
  guint               *link;        /* Owned: per moved weight, the next before the same node */
  gboolean            *moved;       /* Owned: per node */
  guint                n_unused;    /* weights that no node uses */
  guint                emitted;     /* positions of the order filled */
  /* What PHASE_LIST counts of a program: the most items each table can
   * get (placeholders; frames not those of the node before with frames),
   * and the slots' parts a PHASE_*ROOM phase clears */
  guint                n_placeholders;
  guint                n_new_frames;
  const GraftNodeMeta *list_meta; /* PHASE_LIST: the last node's frames */
  guint                n_clear;
};

/* The module that owns a weight: the part of its target before the last
 * component (`layer1.0.conv1` of `layer1.0.conv1.weight`), of length
 * *@out_len. */
static const char *
get_owner (const GraftInputSpec *weight,
           gsize                *out_len)
{
  const char *target = weight->target;

  *out_len = parent_length (target, strlen (target));
  return target;
}

/* The slot of @table for the first @len bytes of @path, or NULL. */
static GraftNameSlot *
find_path (const GraftNameTable *table,
           const char           *path,
           gsize                 len)
{
  if (table->slots == NULL || len > G_MAXUINT32)
    return NULL;
  return _graft_name_table_find (table, path, len, _graft_name_hash (path, len));
}

/* The value @table holds for the first @len bytes of @path, or 0. */
static guint
lookup_path (const GraftNameTable *table,
             const char           *path,
             gsize                 len)
{
  GraftNameSlot *slot = find_path (table, path, len);

  return slot != NULL ? GPOINTER_TO_UINT (slot->value) : 0;
}

/* The two tables of module paths hold up to a few hundred thousand
 * paths at a million nodes (p1m.pt2: 211,000 and 317,000, 12 MB each):
 * growing them as they filled took a step of 6 ms alone, 14-40 ms in the
 * editor, each time they doubled (a resize, its slots written at once).
 * From PRESIZE_ITEMS items on (a program of some 10,000 nodes), the
 * most a table can get is counted first, and the table is given its size
 * and cleared CLEAR_SLOTS slots an item (about a node's work) before it
 * fills; it then never grows. */
#define PRESIZE_ITEMS 1024
#define CLEAR_SLOTS   16

/* How many items the current phase goes through. */
static guint
phase_size (GraftScopesBuilder *self)
{
  GraftProgram *program = graft_graph_get_program (self->graph);

  switch (self->phase)
    {
    case PHASE_SIBROOM:
    case PHASE_OWNROOM:
      return self->n_clear;
    case PHASE_ALIGN:
      return program != NULL ? self->scopes->n_nodes : 0;
    case PHASE_SPECS:
      return program != NULL && self->misaligned ? graft_program_get_n_inputs (program) : 0;
    case PHASE_OWNERS:
      return self->n_unused > 0 ? self->scopes->n_nodes : 0;
    case PHASE_WEIGHTS:
      return self->misaligned ? self->scopes->n_nodes : 0;
    case PHASE_FIRSTS:
    case PHASE_MOVE:
      return self->weights != NULL ? self->scopes->n_nodes : 0;
    case PHASE_DEPTHS:
      return self->scopes->scopes.n_items;
    case PHASE_LIST:
    case PHASE_TALLY:
    case PHASE_EMIT:
    case PHASE_NAMERS:
    case PHASE_PLACE:
    case PHASE_COUNT:
      return self->scopes->n_nodes;
    case PHASE_DONE:
    default:
      return 0;
    }
}

/* The phase begins: a PHASE_*ROOM phase sizes its table, if large. */
static void
enter_phase (GraftScopesBuilder *self)
{
  self->position = self->phase == PHASE_NAMERS ? self->scopes->n_nodes : 0;
  self->n_clear = 0;
  if (self->weights == NULL)
    return;
  if (self->phase == PHASE_SIBROOM && self->n_placeholders >= PRESIZE_ITEMS)
    self->n_clear = _graft_name_table_presize (&self->siblings, self->n_placeholders) / CLEAR_SLOTS;
  else if (self->phase == PHASE_OWNROOM && self->n_unused > 0 &&
           self->n_new_frames >= PRESIZE_ITEMS)
    self->n_clear = _graft_name_table_presize (&self->owners, self->n_new_frames) / CLEAR_SLOTS;
}

/* Goes on to the next phase that has work, or to the last one. */
static void
next_phase (GraftScopesBuilder *self)
{
  do
    {
      self->phase++;
      enter_phase (self);
    }
  while (self->phase < self->last && phase_size (self) == 0);
}

/* PHASE_LIST, a program: the most items a placeholder (siblings) and
 * @node's frames (owners, as note_owners() skips them) can add. */
static void
count_for_tables (GraftScopesBuilder  *self,
                  GraftNode           *node,
                  const GraftNodeMeta *meta)
{
  const GraftNodeMeta *last = self->list_meta;

  if (graft_node_get_op (node) == GRAFT_OP_PLACEHOLDER)
    self->n_placeholders++;
  if (meta == NULL || meta->n_modules == 0)
    return;
  for (guint f = 0; f < meta->n_modules; f++)
    {
      const char *path = meta->modules[f].path;

      if (path != NULL && !(last != NULL && f < last->n_modules && last->modules[f].path == path))
        self->n_new_frames++;
    }
  self->list_meta = meta;
}

/* PHASE_LIST: the node at @self's position. */
static void
list_node (GraftScopesBuilder *self)
{
  GraftNode           *node = self->cursor;
  const GraftNodeMeta *meta = graft_node_get_meta (node);

  guint k = self->position;

  self->nodes[k] = node;
  _graft_node_set_mark (node, 0, self->base + k);
  /* What builder_new() left unset for this node. */
  self->scopes->node_scope[k] = NULL;
  if (self->weights != NULL)
    {
      self->weights[k] = NULL;
      self->head[k] = self->tail[k] = self->link[k] = G_MAXUINT;
      self->moved[k] = FALSE;
    }
  if (meta != NULL && meta->n_modules > 0)
    self->scopes->by_frames = TRUE;
  if (self->weights != NULL)
    count_for_tables (self, node, meta);
  self->cursor = graft_node_get_next (node);
}

/* Whether a program input stands for a weight: a parameter, buffer,
 * constant or script object, of a module. */
static gboolean
is_weight (const GraftInputSpec *spec)
{
  switch (spec->kind)
    {
    case GRAFT_INPUT_SPEC_PARAMETER:
    case GRAFT_INPUT_SPEC_BUFFER:
    case GRAFT_INPUT_SPEC_CONSTANT_TENSOR:
    case GRAFT_INPUT_SPEC_CUSTOM_OBJ:
      return spec->target != NULL;
    case GRAFT_INPUT_SPEC_USER_INPUT:
    case GRAFT_INPUT_SPEC_TOKEN:
    default:
      return FALSE;
    }
}

/* PHASE_ALIGN: node @k, if it is a placeholder, is the next input of the
 * signature (torch lists them in the graph's order), which says whether
 * it is a weight; the first that is not makes the phases after look every
 * placeholder up by name instead (a table of hundreds of thousands of
 * names, which grows in steps that each copy it whole). */
static void
align_node (GraftScopesBuilder *self,
            guint               k)
{
  GraftProgram         *program = graft_graph_get_program (self->graph);
  GraftNode            *node = self->nodes[k];
  const GraftInputSpec *spec;

  if (self->misaligned || graft_node_get_op (node) != GRAFT_OP_PLACEHOLDER)
    return;
  spec = self->spec_i < graft_program_get_n_inputs (program)
             ? graft_program_get_input (program, self->spec_i)
             : NULL;
  if (spec == NULL || g_strcmp0 (spec->name, graft_node_get_name (node)) != 0)
    {
      self->misaligned = TRUE;
      return;
    }
  self->spec_i++;
  self->weights[k] = is_weight (spec) ? spec : NULL;
}

/* PHASE_SPECS: program input @i, if it stands for a weight. */
static void
index_spec (GraftScopesBuilder *self,
            guint               i)
{
  const GraftInputSpec *spec = graft_program_get_input (graft_graph_get_program (self->graph), i);

  if (is_weight (spec))
    g_hash_table_insert (self->by_name, (gpointer) spec->name, (gpointer) spec);
}

/* PHASE_FIRSTS: the first user of node @k, if it is a weight; a weight
 * nothing uses goes with its module's first node, or failing frames with
 * the other weights of its module. */
static void
find_first_user (GraftScopesBuilder *self,
                 guint               k)
{
  guint      n = self->scopes->n_nodes;
  GraftNode *node = self->nodes[k];

  self->firsts[k] = G_MAXUINT;
  if (self->weights[k] == NULL)
    return;
  for (guint u = 0; u < graft_node_get_n_users (node); u++)
    {
      guint found;

      if (_graft_node_find_index (graft_node_get_user (node, u), self->base, self->nodes, n,
                                  &found))
        self->firsts[k] = MIN (self->firsts[k], found);
    }
  if (self->firsts[k] != G_MAXUINT)
    {
      gsize          len;
      const char    *owner = get_owner (self->weights[k], &len);
      guint          hash = _graft_name_hash (owner, len);
      GraftNameSlot *known = _graft_name_table_find (&self->siblings, owner, len, hash);

      if (known == NULL && len <= G_MAXUINT32)
        _graft_name_table_insert_len (&self->siblings, owner, (guint) len, hash,
                                      GUINT_TO_POINTER (self->firsts[k] + 1));
      else if (known != NULL && GPOINTER_TO_UINT (known->value) - 1 > self->firsts[k])
        known->value = GUINT_TO_POINTER (self->firsts[k] + 1);
    }
  else
    self->n_unused++;
}

/* PHASE_OWNERS: node @k's modules, for those it is the first to run in. */
static void
note_owners (GraftScopesBuilder *self,
             guint               k)
{
  const GraftNodeMeta *meta = graft_node_get_meta (self->nodes[k]);
  const GraftNodeMeta *last = self->owners_meta;

  if (meta == NULL || meta->n_modules == 0)
    return;
  for (guint f = 0; f < meta->n_modules; f++)
    {
      const char *path = meta->modules[f].path;
      gsize       len;
      guint       hash;

      /* The frames a node shares with the node before (their texts are
       * the graph's, one copy each) are in the table already. */
      if (path == NULL || (last != NULL && f < last->n_modules && last->modules[f].path == path))
        continue;
      len = strlen (path);
      hash = _graft_name_hash (path, len);
      if (len <= G_MAXUINT32 && _graft_name_table_find (&self->owners, path, len, hash) == NULL)
        _graft_name_table_insert_len (&self->owners, path, (guint) len, hash,
                                      GUINT_TO_POINTER (k + 1));
    }
  self->owners_meta = meta;
}

/* PHASE_MOVE: where weight @k is drawn: right before its first user, or
 * when it has none (a batch norm's `num_batches_tracked`) before the first
 * node that ran in its module, or without frames before the first user of
 * its module's other weights; where it stands when that is not later. */
static void
move_weight (GraftScopesBuilder *self,
             guint               k)
{
  guint first = self->firsts[k];

  if (self->weights[k] == NULL)
    return;
  if (first == G_MAXUINT)
    {
      gsize       len;
      const char *owner = get_owner (self->weights[k], &len);

      first = lookup_path (&self->owners, owner, len) - 1;
      if (first == G_MAXUINT)
        first = lookup_path (&self->siblings, owner, len) - 1;
    }
  if (first == G_MAXUINT || first <= k)
    return;
  if (self->head[first] == G_MAXUINT)
    self->head[first] = k;
  else
    self->link[self->tail[first]] = k;
  self->tail[first] = k;
  self->moved[k] = TRUE;
}

/* PHASE_EMIT: node @k's place in the drawing order, after the weights
 * drawn before it. */
static void
emit_node (GraftScopesBuilder *self,
           guint               k)
{
  guint *order = self->scopes->order;

  if (self->weights == NULL)
    {
      order[self->emitted++] = k;
      return;
    }
  for (guint d = self->head[k]; d != G_MAXUINT; d = self->link[d])
    order[self->emitted++] = d;
  if (!self->moved[k])
    order[self->emitted++] = k;
}

/* The drawing order is made: what made it goes. */
static void
drop_order_state (GraftScopesBuilder *self)
{
  g_clear_pointer (&self->by_name, g_hash_table_unref);
  _graft_name_table_clear (&self->siblings);
  _graft_name_table_clear (&self->owners);
  g_clear_pointer (&self->firsts, g_free);
  g_clear_pointer (&self->head, g_free);
  g_clear_pointer (&self->tail, g_free);
  g_clear_pointer (&self->link, g_free);
  g_clear_pointer (&self->moved, g_free);
}

static GraftScopesBuilder *
builder_new (GraftGraph *graph,
             Phase       last)
{
  GraftScopesBuilder *self;
  GraftScopes        *scopes;
  guint               n;

  self = g_new0 (GraftScopesBuilder, 1);
  self->graph = graph;
  self->last = last;
  self->scopes = scopes = g_new0 (GraftScopes, 1);
  scopes->strings = g_string_chunk_new (1024);
  scopes->blocks = g_ptr_array_new_with_free_func (g_free);
  scopes->scopes_at = g_array_new (FALSE, TRUE, sizeof (guint));
  scopes->direct_at = g_array_new (FALSE, TRUE, sizeof (guint));
  _graft_name_table_init (&scopes->scopes, FALSE);
  n = scopes->n_nodes = graft_graph_get_n_nodes (graph);
  /* Arrays of a value per node are not cleared here but node by node as
   * PHASE_LIST goes (list_node()): at a million nodes they are 40 MB,
   * which malloc may hand back from memory freed before, and clearing
   * them at once took a turn over 16 ms. */
  scopes->node_scope = g_new (Scope *, MAX (n, 1));
  scopes->order = g_new (guint, MAX (n, 1));
  self->nodes = g_new (GraftNode *, MAX (n, 1));
  self->inputs = g_ptr_array_new ();
  self->base = _graft_graph_reserve_marks (graph, n);
  self->cursor = graft_graph_get_first (graph);
  if (graft_graph_get_program (graph) != NULL)
    {
      self->by_name = g_hash_table_new (g_str_hash, g_str_equal);
      _graft_name_table_init (&self->siblings, FALSE);
      _graft_name_table_init (&self->owners, FALSE);
      self->weights = g_new (const GraftInputSpec *, MAX (n, 1));
      self->firsts = g_new (guint, MAX (n, 1));
      self->head = g_new (guint, MAX (n, 1));
      self->tail = g_new (guint, MAX (n, 1));
      self->link = g_new (guint, MAX (n, 1));
      self->moved = g_new (gboolean, MAX (n, 1));
    }
  ensure_scope (scopes, "", 0);
  self->phase = PHASE_LIST;
  if (phase_size (self) == 0)
    next_phase (self);
  return self;
}

/* One node's scope, at @self's position in drawing order. */
static void
place_node (GraftScopesBuilder *self)
{
  GraftScopes         *scopes = self->scopes;
  guint                n = scopes->n_nodes;
  guint                p = self->position;
  guint                k = scopes->order[p];
  GraftNode           *node = self->nodes[k];
  GraftOp              op = graft_node_get_op (node);
  const char          *target = graft_node_get_target (node);
  const GraftNodeMeta *meta = scopes->by_frames ? graft_node_get_meta (node) : NULL;
  const char          *path = "";
  gsize                len = 0;
  const char          *ignored;
  Scope               *scope = self->scope;

  if (self->weights != NULL && self->weights[k] != NULL)
    {
      /* A parameter belongs to the module that owns it. */
      path = self->weights[k]->target;
      len = parent_length (path, strlen (path));
    }
  else if (meta != NULL && meta->n_modules > 0)
    {
      path = meta->modules[meta->n_modules - 1].path;
      len = strlen (path);
    }
  else if (!scopes->by_frames && op == GRAFT_OP_CALL_MODULE)
    {
      path = target;
      len = strlen (target);
    }
  else if (!scopes->by_frames && op == GRAFT_OP_GET_ATTR)
    {
      path = target;
      len = parent_length (target, strlen (target));
    }
  else if (op == GRAFT_OP_CALL_FUNCTION || op == GRAFT_OP_CALL_METHOD)
    {
      Way way = { "", 0, "", 0, 0 };

      if (self->prev_namer != NULL)
        way.a_len = (gsize) context_length (self->prev_namer, scopes->by_frames, &way.a);
      if (self->next_namer[p] < n)
        way.b_len = (gsize) context_length (self->nodes[scopes->order[self->next_namer[p]]],
                                            scopes->by_frames, &way.b);
      way.top = common_length (way.a, way.a_len, way.b, way.b_len);
      place_call (scopes, node, &way, self->base, self->nodes, self->inputs, &path, &len);
    }
  /* Runs of nodes share a scope: look it up only when it changes. */
  if (scope == NULL || scope->len != len || strncmp (scope->path, path, len) != 0)
    scope = self->scope = ensure_scope (scopes, path, len);
  /* The first framed node of a run names the classes (a run may start
   * with the module's weights). */
  if (meta != NULL && meta->n_modules > 0 && scope->type == NULL)
    note_frame_types (scopes, meta);
  scopes->node_scope[k] = scope;
  scope->n_here++;
  if (op == GRAFT_OP_CALL_MODULE)
    scope->n_calls++;
  if (context_length (node, scopes->by_frames, &ignored) >= 0)
    self->prev_namer = node;
}

/* Deep counts: the node at @self's position counts in its scope and every
 * enclosing one, at its position in drawing order. */
static void
count_node (GraftScopesBuilder *self)
{
  guint p = self->position;
  guint k = self->scopes->order[p];

  for (Scope *s = self->scopes->node_scope[k]; s != NULL; s = s->parent)
    {
      if (s->n_nodes == 0)
        s->first = p;
      s->last = p;
      s->n_nodes++;
      if (self->weights != NULL && self->weights[k] != NULL)
        s->n_weights++;
    }
}

/* PHASE_NAMERS, backwards from the end: the next node after position @p
 * that names a module. */
static void
find_next_namer (GraftScopesBuilder *self,
                 guint               p)
{
  GraftScopes *scopes = self->scopes;
  guint        n = scopes->n_nodes;
  const char  *ignored;

  self->next_namer[p] =
      p + 1 < n ? (context_length (self->nodes[scopes->order[p + 1]], scopes->by_frames,
                                   &ignored) >= 0
                       ? p + 1
                       : self->next_namer[p + 1])
                : n;
}

/* Does up to @max_nodes items of the current phase (all of a phase that
 * has no items); returns whether the work is done. */
static gboolean
builder_step (GraftScopesBuilder *self,
              guint               max_nodes)
{
  GraftScopes *scopes = self->scopes;
  guint        size = phase_size (self);
  guint        end;

  if (self->phase >= self->last)
    return TRUE;
  max_nodes = MAX (max_nodes, 1);
  if (self->phase == PHASE_NAMERS)
    {
      /* Backwards: @position counts the positions left. */
      end = self->position - MIN (max_nodes, self->position);
      for (guint p = self->position; p-- > end;)
        find_next_namer (self, p);
      self->position = end;
      if (self->position == 0)
        next_phase (self);
      return self->phase >= self->last;
    }
  if (self->phase == PHASE_SIBROOM || self->phase == PHASE_OWNROOM)
    {
      end = self->position + MIN (max_nodes, size - self->position);
      _graft_name_table_zero (self->phase == PHASE_SIBROOM ? &self->siblings
                                                           : &self->owners,
                              self->position * CLEAR_SLOTS, (end - self->position) * CLEAR_SLOTS);
      self->position = end;
      if (self->position == size)
        next_phase (self);
      return self->phase >= self->last;
    }
  if (self->phase == PHASE_DEPTHS)
    {
      if (self->position == 0)
        self->scope = find_scope (scopes, "", 0);
      for (guint done = 0; done < max_nodes && self->scope != NULL; done++, self->position++)
        {
          set_depth (scopes, self->scope);
          self->scope = next_in_walk (self->scope);
        }
      if (self->scope == NULL)
        {
          guint zero = 0;

          g_assert (self->position == size);
          g_array_set_size (scopes->direct_at, 0);
          for (guint d = 0; d <= scopes->n_depths + 1; d++)
            g_array_append_val (scopes->direct_at, zero);
          while (scopes->scopes_at->len <= scopes->n_depths + 1)
            g_array_append_val (scopes->scopes_at, zero);
          next_phase (self);
        }
      return self->phase >= self->last;
    }
  end = self->position + MIN (max_nodes, size - self->position);
  for (; self->position < end; self->position++)
    switch (self->phase)
      {
      case PHASE_LIST:
        list_node (self);
        break;
      case PHASE_ALIGN:
        align_node (self, self->position);
        break;
      case PHASE_SPECS:
        index_spec (self, self->position);
        break;
      case PHASE_WEIGHTS:
        if (graft_node_get_op (self->nodes[self->position]) == GRAFT_OP_PLACEHOLDER)
          self->weights[self->position] =
              g_hash_table_lookup (self->by_name,
                                   graft_node_get_name (self->nodes[self->position]));
        break;
      case PHASE_FIRSTS:
        find_first_user (self, self->position);
        break;
      case PHASE_OWNERS:
        note_owners (self, self->position);
        break;
      case PHASE_MOVE:
        move_weight (self, self->position);
        break;
      case PHASE_EMIT:
        emit_node (self, self->position);
        break;
      case PHASE_PLACE:
        place_node (self);
        break;
      case PHASE_COUNT:
        count_node (self);
        break;
      case PHASE_TALLY:
        g_array_index (scopes->direct_at, guint, scopes->node_scope[self->position]->depth)++;
        break;
      case PHASE_SIBROOM:
      case PHASE_OWNROOM:
      case PHASE_NAMERS:
      case PHASE_DEPTHS:
      case PHASE_DONE:
      default:
        g_assert_not_reached ();
      }
  if (self->position == size)
    {
      if (self->phase == PHASE_EMIT)
        {
          g_assert (self->emitted == size);
          drop_order_state (self);
          self->next_namer = g_new0 (guint, MAX (size, 1));
        }
      next_phase (self);
    }
  return self->phase >= self->last;
}

/**
 * graft_draw_order_new:
 * @graph: a graph
 *
 * The order in which drawings list @graph's nodes: graph order, except
 * that a program's parameter, buffer and constant placeholders come right
 * before their first user (see the file's comment).
 *
 * Returns: (transfer full) (array): per position, the index in graph order
 *   of the node drawn there; one entry per node
 */
guint *
graft_draw_order_new (GraftGraph *graph)
{
  GraftScopesBuilder *builder;

  g_return_val_if_fail (graph != NULL, NULL);
  builder = graft_draw_order_builder_new (graph);
  while (!builder_step (builder, G_MAXUINT))
    ;
  return graft_draw_order_builder_finish (builder);
}

/**
 * graft_draw_order_builder_new:
 * @graph: a graph, which must not change until the builder is freed
 *
 * Makes the drawing order of @graph as graft_draw_order_new() does, in
 * steps (graft_scopes_builder_step()).
 *
 * Returns: (transfer full): a builder that has done nothing yet
 */
GraftScopesBuilder *
graft_draw_order_builder_new (GraftGraph *graph)
{
  g_return_val_if_fail (graph != NULL, NULL);
  return builder_new (graph, PHASE_NAMERS);
}

/**
 * graft_draw_order_builder_finish:
 * @self: (transfer full): a builder of graft_draw_order_builder_new() whose
 *   last step returned %TRUE
 *
 * Returns: (transfer full) (array): the drawing order, as
 *   graft_draw_order_new() returns it
 */
guint *
graft_draw_order_builder_finish (GraftScopesBuilder *self)
{
  guint *order;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->last == PHASE_NAMERS && self->phase >= PHASE_NAMERS, NULL);
  order = g_steal_pointer (&self->scopes->order);
  graft_scopes_builder_free (self);
  return order;
}

/**
 * graft_scopes_builder_new:
 * @graph: a graph, which must not change until the builder is freed
 *
 * Makes the scopes of @graph as graft_scopes_new() does, in steps
 * (graft_scopes_builder_step()), for a caller that spreads the work over
 * time.  Other work may use @graph between steps (its scratch marks
 * included), as long as it does not change it.
 *
 * Returns: (transfer full): a builder that has done nothing yet
 */
GraftScopesBuilder *
graft_scopes_builder_new (GraftGraph *graph)
{
  g_return_val_if_fail (graph != NULL, NULL);
  return builder_new (graph, PHASE_DONE);
}

/**
 * graft_scopes_builder_step:
 * @self: a builder
 * @max_nodes: about how many nodes to go through in this step, at least 1
 *
 * Does the next part of the work: up to @max_nodes nodes (or program
 * inputs) of one of its passes over the graph (listing and numbering the
 * nodes, finding the weights, their first users and the drawing order,
 * the nodes that name modules, placing the nodes in scopes, counting
 * them), or the last pass, over the scopes (their depths).  The scopes
 * made are the same however the work is cut.
 *
 * Returns: whether the scopes are made (graft_scopes_builder_finish())
 */
gboolean
graft_scopes_builder_step (GraftScopesBuilder *self,
                           guint               max_nodes)
{
  g_return_val_if_fail (self != NULL, TRUE);
  return builder_step (self, max_nodes);
}

/**
 * graft_scopes_builder_finish:
 * @self: (transfer full): a builder whose last step returned %TRUE
 *
 * Returns: (transfer full): the scopes, independent of the graph
 */
GraftScopes *
graft_scopes_builder_finish (GraftScopesBuilder *self)
{
  GraftScopes *scopes;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->phase == PHASE_DONE && self->last == PHASE_DONE, NULL);
  scopes = g_steal_pointer (&self->scopes);
  graft_scopes_builder_free (self);
  return scopes;
}

/**
 * graft_scopes_builder_free:
 * @self: (transfer full) (nullable): a builder, done or not
 */
void
graft_scopes_builder_free (GraftScopesBuilder *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->scopes, graft_scopes_free);
  g_free (self->nodes);
  g_free (self->weights);
  g_free (self->next_namer);
  drop_order_state (self);
  g_ptr_array_unref (self->inputs);
  g_free (self);
}

/**
 * graft_scopes_new:
 * @graph: a graph
 *
 * Works out the module scope of every node of @graph (see the file's
 * comment).  Linear in the graph's size times its nesting depth.
 *
 * Returns: (transfer full): the scopes, independent of @graph afterwards
 */
GraftScopes *
graft_scopes_new (GraftGraph *graph)
{
  GraftScopesBuilder *builder;

  g_return_val_if_fail (graph != NULL, NULL);
  builder = graft_scopes_builder_new (graph);
  while (!graft_scopes_builder_step (builder, G_MAXUINT))
    ;
  return graft_scopes_builder_finish (builder);
}

/**
 * graft_scopes_free:
 * @self: (transfer full) (nullable): scopes
 */
void
graft_scopes_free (GraftScopes *self)
{
  if (self == NULL)
    return;
  _graft_name_table_clear (&self->scopes);
  g_ptr_array_unref (self->blocks);
  g_string_chunk_free (self->strings);
  g_free (self->node_scope);
  g_free (self->order);
  g_array_unref (self->scopes_at);
  g_array_unref (self->direct_at);
  g_free (self);
}

/**
 * graft_scopes_get_n_nodes:
 * @self: scopes
 *
 * Returns: how many nodes the graph had
 */
guint
graft_scopes_get_n_nodes (GraftScopes *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_nodes;
}

/**
 * graft_scopes_get_node_scope:
 * @self: scopes
 * @node_index: a node's position in graph order
 *
 * Returns: (transfer none): the deepest scope of that node ("" for the
 *   graph itself)
 */
const char *
graft_scopes_get_node_scope (GraftScopes *self,
                             guint        node_index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (node_index < self->n_nodes, NULL);
  return self->node_scope[node_index]->path;
}

/**
 * graft_scopes_get_order:
 * @self: scopes
 *
 * Returns: (transfer none) (array): the drawing order of the graph's nodes
 *   (graft_draw_order_new()): per position, a node's index in graph order
 */
const guint *
graft_scopes_get_order (GraftScopes *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->order;
}

/**
 * graft_scopes_get_from_frames:
 * @self: scopes
 *
 * Returns: whether the scopes come from the module frames of a program
 *   rather than from targets
 */
gboolean
graft_scopes_get_from_frames (GraftScopes *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->by_frames;
}

/**
 * graft_scopes_get_type_name:
 * @self: scopes
 * @scope: a scope path
 *
 * Returns: (transfer none) (nullable): the class of the module @scope is
 *   (`torchvision.models.resnet.BasicBlock`), as the program's module
 *   frames name it; %NULL when no frame names it
 */
const char *
graft_scopes_get_type_name (GraftScopes *self,
                            const char  *scope)
{
  Scope *s;

  g_return_val_if_fail (self != NULL, NULL);
  s = find_scope (self, scope, strlen (scope));
  return s != NULL ? s->type : NULL;
}

/**
 * graft_scopes_count_nodes:
 * @self: scopes
 * @scope: a scope path
 *
 * Returns: how many nodes @scope holds at any depth (0 for an unknown one)
 */
guint
graft_scopes_count_nodes (GraftScopes *self,
                          const char  *scope)
{
  Scope *s;

  g_return_val_if_fail (self != NULL, 0);
  s = find_scope (self, scope, strlen (scope));
  return s != NULL ? s->n_nodes : 0;
}

/* Adds to @builder the outermost foldable scopes strictly inside @scope,
 * in graph order. */
static void
add_foldable_below (GStrvBuilder *builder,
                    const Scope  *scope)
{
  for (const Scope *child = scope->first_child; child != NULL; child = child->next_sibling)
    if (is_foldable (child))
      g_strv_builder_add (builder, child->path);
    else
      add_foldable_below (builder, child);
}

/**
 * graft_scopes_dup_children:
 * @self: scopes
 * @scope: a scope path
 *
 * Returns: (transfer full): the scopes one level inside @scope: the
 *   outermost scopes strictly inside it that can be folded (two nodes or
 *   more, not only calls of one module), in graph order
 */
char **
graft_scopes_dup_children (GraftScopes *self,
                           const char  *scope)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  Scope *s;

  g_return_val_if_fail (self != NULL, NULL);
  s = find_scope (self, scope, strlen (scope));
  if (s != NULL)
    add_foldable_below (builder, s);
  return g_strv_builder_end (builder);
}

/**
 * graft_scopes_get_depth:
 * @self: scopes
 * @scope: a scope path
 *
 * Returns: how many scopes that can be folded hold @scope, itself
 *   included if it can be folded: 1 for the outermost modules
 *   (`layer1`), 2 for the ones inside those (`layer1.0`); 0 for the whole
 *   graph and for unknown paths
 */
guint
graft_scopes_get_depth (GraftScopes *self,
                        const char  *scope)
{
  Scope *s;

  g_return_val_if_fail (self != NULL, 0);
  s = find_scope (self, scope, strlen (scope));
  return s != NULL ? s->depth : 0;
}

/**
 * graft_scopes_get_n_depths:
 * @self: scopes
 *
 * Returns: the depth (graft_scopes_get_depth()) of the deepest scope that
 *   can be folded; 0 when none can
 */
guint
graft_scopes_get_n_depths (GraftScopes *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_depths;
}

/**
 * graft_scopes_get_outer:
 * @self: scopes
 * @scope: a scope path
 *
 * Returns: (transfer none) (nullable): the innermost scope that can be
 *   folded strictly holding @scope, other than the whole graph: the frame
 *   drawn around @scope's box; %NULL for none
 */
const char *
graft_scopes_get_outer (GraftScopes *self,
                        const char  *scope)
{
  Scope *s;

  g_return_val_if_fail (self != NULL, NULL);
  s = find_scope (self, scope, strlen (scope));
  for (s = s != NULL ? s->parent : NULL; s != NULL && s->parent != NULL; s = s->parent)
    if (is_foldable (s))
      return s->path;
  return NULL;
}

/**
 * graft_scopes_find_folder:
 * @self: scopes
 * @node_index: a node's position in graph order
 * @collapsed: (element-type utf8 utf8) (nullable): the collapsed scopes
 *
 * Returns: (transfer none) (nullable): the outermost collapsed scope that
 *   holds the node and can be folded, or %NULL when the node is drawn by
 *   itself
 */
const char *
graft_scopes_find_folder (GraftScopes *self,
                          guint        node_index,
                          GHashTable  *collapsed)
{
  const char *folder = NULL;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (node_index < self->n_nodes, NULL);

  if (collapsed == NULL || g_hash_table_size (collapsed) == 0)
    return NULL;
  /* Outward: the last hit is the outermost. */
  for (Scope *s = self->node_scope[node_index]; s->parent != NULL; s = s->parent)
    if (is_foldable (s) && g_hash_table_contains (collapsed, s->path))
      folder = s->path;
  return folder;
}

/**
 * graft_scopes_get_innermost:
 * @self: scopes
 * @node_index: a node's position in graph order
 *
 * Returns: (transfer none) (nullable): the deepest scope that holds the
 *   node and can be folded, other than the whole graph; what "Collapse"
 *   folds for a node
 */
const char *
graft_scopes_get_innermost (GraftScopes *self,
                            guint        node_index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (node_index < self->n_nodes, NULL);

  for (Scope *s = self->node_scope[node_index]; s->parent != NULL; s = s->parent)
    if (is_foldable (s))
      return s->path;
  return NULL;
}

/* Adds to @collapsed every scope that can be folded at @depth, from
 * @scope down. */
static void
add_at_depth (GHashTable  *collapsed,
              const Scope *scope,
              guint        depth)
{
  for (const Scope *child = scope->first_child; child != NULL; child = child->next_sibling)
    if (child->depth == depth && is_foldable (child))
      g_hash_table_add (collapsed, g_strdup (child->path));
    else if (child->depth < depth)
      add_at_depth (collapsed, child, depth);
}

/**
 * graft_scopes_new_folded_at:
 * @self: scopes
 * @depth: a depth, 1 or more (graft_scopes_get_depth())
 *
 * Folds the graph at one depth: every scope that can be folded at @depth
 * is collapsed, so the scopes above it are open (drawn as frames) and
 * everything below it is inside a box.  Depth 1 is the outermost modules.
 *
 * Returns: (transfer full) (element-type utf8 utf8): the collapsed scopes,
 *   a set of strings for graft_scopes_find_folder()
 */
GHashTable *
graft_scopes_new_folded_at (GraftScopes *self,
                            guint        depth)
{
  GHashTable *collapsed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_return_val_if_fail (self != NULL, NULL);
  add_at_depth (collapsed, find_scope (self, "", 0), MAX (depth, 1));
  return collapsed;
}

/**
 * graft_scopes_count_boxes_at:
 * @self: scopes
 * @depth: a depth, 1 or more
 *
 * Returns: how many boxes folding at @depth (graft_scopes_new_folded_at())
 *   draws: one per scope folded, one per node outside them
 */
guint
graft_scopes_count_boxes_at (GraftScopes *self,
                             guint        depth)
{
  g_autoptr (GHashTable) folded = NULL;
  guint boxes = 0;

  g_return_val_if_fail (self != NULL, 0);
  depth = MAX (depth, 1);
  folded = graft_scopes_new_folded_at (self, depth);
  boxes = g_hash_table_size (folded);
  for (guint k = 0; k < self->n_nodes; k++)
    if (self->node_scope[k]->depth < depth)
      boxes++;
  return boxes;
}

/**
 * graft_scopes_new_overview:
 * @self: scopes
 * @max_boxes: how many boxes the overview may have
 *
 * Chooses what to collapse for a first picture of a large graph: the graph
 * folded at the deepest depth whose boxes still fit within @max_boxes, and
 * at depth 1 when none does (graft_scopes_new_folded_at()): every module
 * at one depth is folded, never some of them.  A graph without modules has
 * nothing to collapse.
 *
 * Returns: (transfer full) (element-type utf8 utf8): the collapsed scopes,
 *   a set of strings for graft_scopes_find_folder()
 */
GHashTable *
graft_scopes_new_overview (GraftScopes *self,
                           guint        max_boxes)
{
  const guint *direct;    /* per depth: nodes whose innermost foldable scope is there */
  const guint *scopes_at; /* per depth: foldable scopes there */
  guint        best = 1;
  guint        outside = 0;

  g_return_val_if_fail (self != NULL, NULL);

  /* Boxes at depth d: the scopes at d, and the nodes less deep than d
   * (counted per depth as the scopes were made). */
  direct = (const guint *) (gpointer) self->direct_at->data;
  scopes_at = (const guint *) (gpointer) self->scopes_at->data;
  for (guint d = 1; d <= self->n_depths; d++)
    {
      outside += direct[d - 1];
      if (outside + scopes_at[d] <= max_boxes)
        best = d;
    }
  return graft_scopes_new_folded_at (self, best);
}

/**
 * graft_scopes_get_top_depth:
 * @self: scopes
 *
 * The top level of the graph's modules: the first depth that has more
 * than one module to fold.  A model whose modules all sit in one (densenet's
 * `features`) shows that one open, its modules folded, rather than one
 * box.
 *
 * Returns: a depth for graft_scopes_new_folded_at(), 1 or more
 */
guint
graft_scopes_get_top_depth (GraftScopes *self)
{
  const guint *scopes_at;

  g_return_val_if_fail (self != NULL, 1);
  scopes_at = (const guint *) (gpointer) self->scopes_at->data;
  for (guint d = 1; d <= self->n_depths; d++)
    if (scopes_at[d] > 1)
      return d;
  return MAX (self->n_depths, 1);
}

/**
 * graft_scopes_expand_level:
 * @self: scopes
 * @collapsed: (element-type utf8 utf8): the collapsed scopes
 *
 * Opens every collapsed scope one level (graft_scopes_expand()): a graph
 * folded at one depth is then folded at the next.
 */
void
graft_scopes_expand_level (GraftScopes *self,
                           GHashTable  *collapsed)
{
  g_autofree gpointer *keys = NULL;
  guint                n = 0;

  g_return_if_fail (self != NULL);
  g_return_if_fail (collapsed != NULL);
  keys = g_hash_table_get_keys_as_array (collapsed, &n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *scope = g_strdup (keys[i]);

      graft_scopes_expand (self, collapsed, scope);
    }
}

/**
 * graft_scopes_expand:
 * @self: scopes
 * @collapsed: (element-type utf8 utf8): the collapsed scopes, as made by
 *   graft_scopes_new_overview()
 * @scope: a collapsed scope
 *
 * Opens @scope one level: its own nodes are drawn, its child scopes stay
 * collapsed.
 */
void
graft_scopes_expand (GraftScopes *self,
                     GHashTable  *collapsed,
                     const char  *scope)
{
  g_auto (GStrv) children = NULL;

  g_return_if_fail (self != NULL);
  g_return_if_fail (collapsed != NULL);

  /* @scope may be the set's own copy: read its children first. */
  children = graft_scopes_dup_children (self, scope);
  g_hash_table_remove (collapsed, scope);
  for (guint i = 0; children[i] != NULL; i++)
    g_hash_table_add (collapsed, g_strdup (children[i]));
}

/**
 * graft_scopes_collapse:
 * @collapsed: (element-type utf8 utf8): the collapsed scopes
 * @scope: a scope to fold into one box
 *
 * Collapses @scope, forgetting what was collapsed inside it.
 */
void
graft_scopes_collapse (GHashTable *collapsed,
                       const char *scope)
{
  GHashTableIter iter;
  gpointer       key;
  gsize          len = strlen (scope);

  g_return_if_fail (collapsed != NULL);
  g_hash_table_iter_init (&iter, collapsed);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (strncmp (key, scope, len) == 0 && ((const char *) key)[len] == '.')
      g_hash_table_iter_remove (&iter);
  g_hash_table_add (collapsed, g_strdup (scope));
}
