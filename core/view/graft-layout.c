/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-layout.c: lays a graph out top to bottom (or, transposed, left to
 * right) with Graphviz's dot and keeps the result as plain geometry (boxes,
 * Bezier edges, the drawing's size) that the renderer draws and the canvas
 * hit-tests.
 *
 * dot is fast on small graphs and hopeless on large or hub-shaped ones
 * (../shared/spec/layout-notes.md), so this file shapes what it gives dot:
 *
 *  - An input or attribute that feeds many nodes (a weight, the `x` of a
 *    long chain) is a hub, dot's worst case.  Each of its users gets a small
 *    stub box labelled with its name right above it instead of a long edge
 *    from the one original box, which stays in the drawing, unconnected.
 *    A computed value with many users (a mask every layer reads) keeps its
 *    edges to nearby users and gives the far ones stubs.
 *  - A graph of more than GRAFT_MAX_SEGMENT_NODES boxes is cut, in graph
 *    order, into segments of at most that many boxes.  Each segment is laid
 *    out by itself; the segments are stacked top to bottom.  An edge that
 *    crosses a cut leaves its segment through an out-port (a point on the
 *    segment's bottom rank) and enters the other through an in-port (a
 *    point on its top rank); dot routes both halves, and this file joins
 *    them: directly between neighbouring segments, through a vertical lane
 *    left of the drawing otherwise (one lane per source node, reused where
 *    lanes do not overlap; graft-layout-route.c).
 *
 * Time is then linear in the graph's size.  Laying out is split in two so
 * the editor can do the slow half on a worker thread: a request copies what
 * layout needs from the graph (fast, on the graph's thread), and running it
 * touches only the copy.  All dot calls are serialised in graft-gv.c.
 */
#include "config.h"

#include "graft-layout.h"
#include "graft-layout-private.h"
#include "graft-error.h"
#include "graft-graph.h"
#include "graft-graph-private.h"
#include "graft-gv-layout-private.h"
#include "graft-limits.h"
#include "graft-meta.h"
#include "graft-text-private.h"

#include <math.h>
#include <string.h>

/* The expand and collapse controls: squares this large, this far inside
 * the corner of the box or frame they sit in, in points. */
#define CONTROL_SIZE  11.0
#define CONTROL_INSET 2.0

/* Spacing, in points. */
#define NODESEP 14.0
#define RANKSEP 26.0
/* Ranks of a program leave room for the annotation under each box. */
#define RANKSEP_ANNOTATED (RANKSEP + GRAFT_EDGE_LABEL_GAP + GRAFT_EDGE_LABEL_HEIGHT)
#define MARGIN            12.0
#define PORT_SIZE         2.0

/* Between the columns of a drawing laid out left to right. */
#define RANKSEP_COLUMNS 40.0

/* A node with more users than this in a graph of at least
 * SMALL_GRAPH_NODES nodes is a hub (fewer: HUB_USERS_SMALL). */
#define HUB_USERS         3
#define HUB_USERS_SMALL   6
#define SMALL_GRAPH_NODES 60

/* A computed value with that many users keeps its edges to users at most
 * this far after it in graph order; farther users get a stub. */
#define HUB_NEAR 12

enum {
  HUB_NONE,
  HUB_ALL_USES, /* an input or attribute: a stub beside every user */
  HUB_FAR_USES, /* a computed value: stubs beside far users only */
};

/* Whether the use of node @tail by node @head is drawn as a stub. */
static gboolean
is_stub_use (guint8 hub,
             guint  tail,
             guint  head)
{
  return hub == HUB_ALL_USES || (hub == HUB_FAR_USES && head > tail + HUB_NEAR);
}

/* A segment whose edges span on average more than this many positions of
 * graph order is dense (densenet's concatenations of every earlier
 * feature).  dot needs its iteration budgets there: without them
 * densenet121 takes over a minute; with them 1 s.  On sparse segments the
 * budgets only make dot's placement wider and its spline routing slower. */
#define DENSE_SPAN 30

/* What an edge costs a segment per position of graph order it spans (see
 * the segment cut below). */
#define SPAN_COST 10

/* The names of a graph's nodes, in graph order: a request copies them
 * from the graph, and its layouts share them rather than copy them again
 * (a million names interned in the layout's own strings took the worker
 * about 1,200 instructions a name); the index by name is made once, by
 * whichever thread first looks a name up.  Immutable once made but for
 * the index; freed by whoever drops the last reference, on any thread. */
typedef struct
{
  gatomicrefcount ref_count;
  GStringChunk   *strings;
  const char    **names; /* per graph node, in @strings */
  guint           n;
  GMutex          lock; /* held while @by_name is made */
  /* The index by name, made when first asked, open addressing over
   * @mask + 1 slots: per slot the hash of a name and its graph node + 1
   * (0: empty).  Eight bytes a slot, sized at once: at a million names a
   * GHashTable (20 bytes a slot, grown twenty times) took 0.15 s. */
  guint32 *by_name;
  guint32  mask;
  gint     indexed; /* atomic: @by_name is made */
  /* Two nodes have one name (a read program's copy named by torch's
   * namespace, graft-graph.c): the index finds the last of them only. */
  gboolean shared;
} NodeNames;

static NodeNames *
node_names_new (guint n)
{
  NodeNames *self = g_new0 (NodeNames, 1);

  g_atomic_ref_count_init (&self->ref_count);
  /* A million names of about 20 bytes: chunks of 64 KiB, not 4 KiB. */
  self->strings = g_string_chunk_new (65536);
  self->names = g_new (const char *, MAX (n, 1));
  self->n = n;
  g_mutex_init (&self->lock);
  return self;
}

static NodeNames *
node_names_ref (NodeNames *self)
{
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

static void
node_names_unref (NodeNames *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_string_chunk_free (self->strings);
  g_free (self->names);
  g_free (self->by_name);
  g_mutex_clear (&self->lock);
  g_free (self);
}

/* Names hashed and their slots fetched at a time, making the index. */
#define INDEX_RUN 32

/* The slot of @by_name that holds the node called @name (of @len bytes
 * and hash @hash), or the empty slot where it would go. */
static guint32 *
node_names_slot (NodeNames  *self,
                 const char *name,
                 gsize       len,
                 guint32     hash)
{
  for (guint32 i = hash & self->mask;; i = (i + 1) & self->mask)
    {
      guint32 *slot = &self->by_name[2 * i];

      if (slot[1] == 0 ||
          (slot[0] == hash && strncmp (self->names[slot[1] - 1], name, len) == 0 &&
           self->names[slot[1] - 1][len] == '\0'))
        return slot;
    }
}

/* Makes the index by name (once: the caller holds the lock). */
static void
node_names_index (NodeNames *self)
{
  guint64 size = 16;

  while (size < 2 * (guint64) self->n)
    size *= 2;
  self->mask = (guint32) (size - 1);
  self->by_name = g_new0 (guint32, 2 * size);
  /* In runs whose slots are fetched together: a million names at random
   * places of 16 MB wait for memory, not for the processor. */
  for (guint run = 0; run < self->n; run += INDEX_RUN)
    {
      guint   end = MIN (self->n, run + INDEX_RUN);
      gsize   lens[INDEX_RUN];
      guint32 hashes[INDEX_RUN];

      for (guint i = run; i < end; i++)
        {
          lens[i - run] = strlen (self->names[i]);
          hashes[i - run] = _graft_graph_hash_text (self->names[i], lens[i - run]);
          __builtin_prefetch (&self->by_name[2 * (hashes[i - run] & self->mask)], 1);
        }
      for (guint i = run; i < end; i++)
        {
          guint32 *slot = node_names_slot (self, self->names[i], lens[i - run], hashes[i - run]);

          /* A name given twice (no graph has one) is the last node's. */
          slot[0] = hashes[i - run];
          slot[1] = i + 1;
        }
    }
}

/* Makes the index by name unless it is made. */
static void
node_names_ensure (NodeNames *self)
{
  if (g_atomic_int_get (&self->indexed))
    return;
  g_mutex_lock (&self->lock);
  if (!self->indexed)
    {
      node_names_index (self);
      g_atomic_int_set (&self->indexed, TRUE);
    }
  g_mutex_unlock (&self->lock);
}

/* The position in graph order of the node called @name, or -1. */
static gint
node_names_find (NodeNames  *self,
                 const char *name)
{
  gsize len = strlen (name);

  node_names_ensure (self);
  return (gint) node_names_slot (self, name, len, _graft_graph_hash_text (name, len))[1] - 1;
}

/* node_names_find() of @n @names into @out, their slots fetched in runs
 * as the index is made: 105,472 names added by a Replace All at a million
 * nodes, looked up one by one, waited for memory 17-21 ms of a turn. */
static void
node_names_find_all (NodeNames         *self,
                     const char *const *names,
                     guint              n,
                     gint              *out)
{
  node_names_ensure (self);
  for (guint run = 0; run < n; run += INDEX_RUN)
    {
      guint   end = MIN (n, run + INDEX_RUN);
      gsize   lens[INDEX_RUN];
      guint32 hashes[INDEX_RUN];

      for (guint i = run; i < end; i++)
        {
          lens[i - run] = strlen (names[i]);
          hashes[i - run] = _graft_graph_hash_text (names[i], lens[i - run]);
          __builtin_prefetch (&self->by_name[2 * (hashes[i - run] & self->mask)]);
        }
      for (guint i = run; i < end; i++)
        {
          guint32 node = node_names_slot (self, names[i], lens[i - run], hashes[i - run])[1];

          out[i] = (gint) node - 1;
        }
    }
}

/* A frame of a request: an open module, inside another or not. */
typedef struct
{
  const char *scope;  /* in the request's strings */
  const char *label;  /* likewise */
  guint       parent; /* or G_MAXUINT */
  guint       depth;
} RequestFrame;

/* A request lays out units: a graph node, or a folded scope drawn as one
 * box.  Unfolded, unit i is graph node i. */
struct _GraftLayoutRequest
{
  /* Owned */
  GStringChunk    *strings;
  GraftOp         *ops;          /* per unit */
  const char     **names;        /* per unit, in strings: a node's name or a scope's path */
  const char     **captions;     /* per unit, in strings */
  const char     **labels;       /* per unit, in strings: a box's first line */
  const char     **annotations;  /* per unit, in strings, nullable: the value's type */
  GraftLayoutRole *roles;        /* per unit */
  gboolean         annotated;    /* some unit has an annotation: ranks leave room */
  guint           *input_start;  /* n_nodes + 1, into inputs */
  GArray          *inputs;       /* guint: units, distinct per unit, in argument order */
  guint           *unit_node;    /* per unit: the graph node whose index its box carries */
  guint           *member_start; /* n_nodes + 1, into members; NULL when nothing is folded */
  GArray          *members;      /* guint: graph nodes of each folded unit (empty for others) */
  NodeNames       *all_names;    /* Owned: of every graph node */
  const char     **node_names;   /* per graph node: @all_names's */
  guint           *node_unit;    /* per graph node: its unit, or G_MAXUINT when not shown */
  GArray          *frames;       /* RequestFrame: the open modules drawn as frames */
  guint           *unit_frame;   /* per unit: its innermost frame, or G_MAXUINT */
  GCancellable    *cancellable;  /* nullable: checked between segments */
  guint            n_nodes;      /* units */
  guint            n_graph_nodes;
  GraftLayout     *previous; /* Owned, nullable: cuts and segments to reuse */
  gboolean         reuse;    /* take a segment's geometry from an identical one (of
                              * @previous, or earlier in the run) rather than dot */
  gint segments_done;        /* atomic: progress, read by other threads */
  gint n_segments;           /* atomic: 0 until the segments are known */

  GraftLayoutDirection direction; /* which way the drawing runs */
};

struct _GraftLayout
{
  gatomicrefcount ref_count;

  /* Owned */
  GStringChunk *strings;
  GArray       *nodes;      /* GraftLayoutNode */
  GArray       *edges;      /* GraftLayoutEdge */
  GArray       *points;     /* GraftPoint, pointed into by edges */
  GArray       *members;    /* guint: graph nodes of folded boxes */
  GArray       *frames;     /* GraftLayoutFrame, outer ones before the ones they hold */
  guint        *main_of;    /* per graph node: its box, or G_MAXUINT */
  NodeNames    *all_names;  /* Owned: of every graph node, the request's */
  const char  **node_names; /* per graph node: @all_names's */
  guint         n_graph_nodes;
  guint         n_segments;
  LaidSegment **laid;          /* n_segments: what dot made of each */
  guint        *segment_start; /* n_segments + 1: each segment's first box */
  const char  **segment_first; /* n_segments: the name of its first unit, in strings */
  gboolean     *reused;        /* n_segments: taken from an identical segment */
  guint         n_reused;
  double        width;
  double        height;
  /* Spatial index: the boxes and edges that reach into each band of
   * BAND_HEIGHT points, top to bottom (CSR). */
  guint   n_bands;
  guint  *band_box_start;  /* n_bands + 1 */
  GArray *band_boxes;      /* guint */
  guint  *band_edge_start; /* n_bands + 1 */
  GArray *band_edges;      /* guint */
};

/**
 * graft_layout_request_new:
 * @graph: a graph
 *
 * Copies what laying out @graph needs; @graph may change or go away
 * afterwards.  Linear in the graph's size.
 *
 * Returns: (transfer full): a request to run with graft_layout_request_run()
 */
GraftLayoutRequest *
graft_layout_request_new (GraftGraph *graph)
{
  return graft_layout_request_new_folded (graph, NULL, NULL, NULL);
}

static int compare_guint (const void *a,
                          const void *b);

/* The role a program's signature gives a placeholder. */
static GraftLayoutRole
role_of (const GraftInputSpec *spec)
{
  if (spec == NULL)
    return GRAFT_LAYOUT_ROLE_NODE;
  switch (spec->kind)
    {
    case GRAFT_INPUT_SPEC_USER_INPUT:
      return GRAFT_LAYOUT_ROLE_INPUT;
    case GRAFT_INPUT_SPEC_PARAMETER:
      return GRAFT_LAYOUT_ROLE_PARAMETER;
    case GRAFT_INPUT_SPEC_BUFFER:
      return GRAFT_LAYOUT_ROLE_BUFFER;
    case GRAFT_INPUT_SPEC_CONSTANT_TENSOR:
    case GRAFT_INPUT_SPEC_CUSTOM_OBJ:
      return GRAFT_LAYOUT_ROLE_CONSTANT;
    case GRAFT_INPUT_SPEC_TOKEN:
    default:
      return GRAFT_LAYOUT_ROLE_NODE;
    }
}

/* Unit @u draws @node, graph node @i, alone: its name, caption, label, annotation and
 * role.  @spec (nullable) is a program placeholder's entry; @program says
 * whether the graph is a program's. */
static void
fill_node_unit (GraftLayoutRequest   *self,
                guint                 u,
                guint                 i,
                GraftNode            *node,
                gboolean              program,
                const GraftInputSpec *spec,
                GString              *buf)
{
  const GraftNodeMeta *meta = graft_node_get_meta (node);
  g_autofree char     *annotation = graft_node_meta_dup_annotation (meta, FALSE, FALSE);
  GraftOp              op = graft_node_get_op (node);

  self->ops[u] = op;
  self->names[u] = self->labels[u] = self->node_names[i];
  self->roles[u] = role_of (spec);
  g_string_truncate (buf, 0);
  switch (self->roles[u])
    {
    case GRAFT_LAYOUT_ROLE_PARAMETER:
      g_string_append (buf, "parameter");
      break;
    case GRAFT_LAYOUT_ROLE_BUFFER:
      g_string_append (buf, "buffer");
      break;
    case GRAFT_LAYOUT_ROLE_CONSTANT:
      g_string_append (buf, "constant");
      break;
    case GRAFT_LAYOUT_ROLE_INPUT:
    case GRAFT_LAYOUT_ROLE_NODE:
    default:
      _graft_node_append_caption (buf, node);
      /* Every target of a program is an operator: `aten.add.Tensor` says
       * it all. */
      if (program && op == GRAFT_OP_CALL_FUNCTION &&
          g_str_has_prefix (buf->str, "torch.ops."))
        g_string_erase (buf, 0, strlen ("torch.ops."));
      break;
    }
  self->captions[u] = g_string_chunk_insert_const (self->strings, buf->str);
  if (spec != NULL && spec->target != NULL && self->roles[u] != GRAFT_LAYOUT_ROLE_INPUT)
    self->labels[u] = g_string_chunk_insert_const (self->strings, spec->target);
  if (annotation != NULL)
    {
      self->annotations[u] = g_string_chunk_insert_const (self->strings, annotation);
      self->annotated = TRUE;
    }
}

/* A module's label: its path, and its class when known (`layer1.0 ·
 * BasicBlock`), in @buf. */
static const char *
format_scope_label (GraftScopes *scopes,
                    const char  *scope,
                    GString     *buf)
{
  const char *type = graft_scopes_get_type_name (scopes, scope);
  const char *dot = type != NULL ? strrchr (type, '.') : NULL;

  g_string_assign (buf, *scope != '\0' ? scope : "self");
  if (type != NULL)
    g_string_append_printf (buf, " \u00b7 %s", dot != NULL ? dot + 1 : type);
  return buf->str;
}

/* The frame of the open module @scope (made with the frames around it on
 * first use); @by_scope maps interned scopes to frames + 1. */
static guint
frame_for_scope (GraftLayoutRequest *self,
                 GraftScopes        *scopes,
                 const char         *scope,
                 GHashTable         *by_scope,
                 GString            *buf)
{
  gpointer     found;
  const char  *outer;
  RequestFrame frame = { 0 };

  if (g_hash_table_lookup_extended (by_scope, scope, NULL, &found))
    return GPOINTER_TO_UINT (found) - 1;
  outer = graft_scopes_get_outer (scopes, scope);
  frame.parent = outer != NULL ? frame_for_scope (self, scopes, outer, by_scope, buf) : G_MAXUINT;
  frame.depth = outer != NULL ? g_array_index (self->frames, RequestFrame, frame.parent).depth + 1
                              : 0;
  frame.scope = g_string_chunk_insert_const (self->strings, scope);
  frame.label =
      g_string_chunk_insert_const (self->strings, format_scope_label (scopes, scope, buf));
  g_array_append_val (self->frames, frame);
  /* Keyed by the scopes' own string, as callers pass it. */
  g_hash_table_insert (by_scope, (gpointer) scope, GUINT_TO_POINTER (self->frames->len));
  return self->frames->len - 1;
}

/* What graft_layout_request_builder_step() does next. */
typedef enum {
  REQ_ORDER,        /* the drawing order, when no scopes give it */
  REQ_LIST,         /* list and number the nodes, copy their names */
  REQ_SPECS,        /* index the program's inputs by name */
  REQ_UNITS,        /* units, in drawing order of their first node */
  REQ_MEMBER_START, /* per folded unit: where its nodes are listed, its caption */
  REQ_MEMBERS,      /* the nodes of each folded unit, in graph order */
  REQ_INPUTS,       /* per unit: the units its nodes read */
  REQ_EXITS,        /* per folded unit read through one value: that value's type */
  REQ_DONE,
} RequestPhase;

struct _GraftLayoutRequestBuilder
{
  /* Borrowed: must not change while in use */
  GraftGraph     *graph;
  GraftScopes    *scopes;    /* nullable */
  GHashTable     *collapsed; /* nullable */
  const gboolean *shown;     /* nullable */
  /* Owned */
  GraftLayoutRequest *request;       /* being made */
  GraftScopesBuilder *order_builder; /* REQ_ORDER */
  guint              *own_order;     /* made by @order_builder */
  GraftNode         **nodes;         /* in graph order */
  /* placeholder name -> GraftInputSpec, when @node_spec cannot say */
  GHashTable            *specs;
  const GraftInputSpec **node_spec; /* per node of a program: a placeholder's entry, as
                                     * the signature lists them in order */
  guint    spec_i;                  /* the entry the next placeholder is */
  gboolean misaligned;              /* the placeholders are not the signature's in order:
                                     * @specs says instead */
  GHashTable *unit_of_folder;       /* folded scope -> its unit */
  GHashTable *frames_by_scope;
  GString    *buf;
  guint      *member_count; /* per unit: its nodes when folded, else 0 */
  guint      *member_fill;  /* per unit: where its next node is listed */
  guint      *stamp;        /* per unit: the unit whose inputs last listed it, + 1 */
  guint      *exit;         /* per unit: the one node of it others read, + 1; 0 for
                             * none yet, G_MAXUINT for several; NULL unless folding */
  GPtrArray *inputs;        /* scratch */
  /* Where it is */
  const guint *order;
  guint32      base; /* numbers @nodes: a hint (_graft_node_find_index()) */
  RequestPhase phase;
  guint        position; /* of the phase: a node, position, input or unit */
  guint        member;   /* REQ_INPUTS: the next member of unit @position */
  GraftNode   *cursor;   /* REQ_LIST: the node at @position */
  gboolean     folding;
  gboolean     names_shared; /* the request's names are a layout's: not copied */
  /* Neighbours in graph order mostly share a scope, hence a folder. */
  const char *last_scope;
  const char *folder;
  guint       folder_unit;
};

/* How many items the current phase goes through. */
static guint
request_phase_size (GraftLayoutRequestBuilder *b)
{
  GraftLayoutRequest *self = b->request;
  GraftProgram       *program = graft_graph_get_program (b->graph);

  switch (b->phase)
    {
    case REQ_ORDER:
      return b->scopes == NULL ? 1 : 0;
    case REQ_LIST:
    case REQ_UNITS:
      return self->n_graph_nodes;
    case REQ_SPECS:
      return program != NULL && b->misaligned ? graft_program_get_n_inputs (program) : 0;
    case REQ_MEMBER_START:
      return b->folding ? self->n_nodes : 0;
    case REQ_MEMBERS:
      return b->folding ? self->n_graph_nodes : 0;
    case REQ_INPUTS:
      return self->n_nodes;
    case REQ_EXITS:
      return b->exit != NULL ? self->n_nodes : 0;
    case REQ_DONE:
    default:
      return 0;
    }
}

/* Goes on to the next phase that has work. */
static void
request_next_phase (GraftLayoutRequestBuilder *b)
{
  GraftLayoutRequest *self = b->request;

  do
    {
      b->phase++;
      b->position = 0;
      b->member = 0;
      if (b->phase == REQ_LIST)
        {
          b->base = _graft_graph_reserve_marks (b->graph, self->n_graph_nodes);
          b->cursor = graft_graph_get_first (b->graph);
        }
      if (b->phase == REQ_SPECS && graft_graph_get_program (b->graph) != NULL && b->misaligned)
        b->specs = g_hash_table_new (g_str_hash, g_str_equal);
      if (b->phase == REQ_MEMBER_START && b->folding)
        {
          self->member_start = g_new0 (guint, self->n_nodes + 1);
          self->members = g_array_new (FALSE, FALSE, sizeof (guint));
          b->member_fill = g_new0 (guint, self->n_nodes + 1);
        }
      if (b->phase == REQ_MEMBERS && b->folding)
        {
          self->member_start[self->n_nodes] = self->members->len;
          g_array_set_size (self->members, self->members->len);
        }
      if (b->phase == REQ_INPUTS)
        {
          self->input_start = g_new0 (guint, self->n_nodes + 1);
          b->stamp = g_new0 (guint, self->n_nodes + 1);
          b->exit = b->folding ? g_new0 (guint, self->n_nodes + 1) : NULL;
        }
      if (b->phase == REQ_EXITS)
        self->input_start[self->n_nodes] = self->inputs->len;
    }
  while (b->phase < REQ_DONE && request_phase_size (b) == 0);
}

/* REQ_LIST: graph node @k, if it is a placeholder of a program, is the
 * signature's next input (torch lists them in the graph's order); the
 * first that is not makes REQ_SPECS index them by name instead (a table
 * of hundreds of thousands of names, which grows in steps that each copy
 * it whole). */
static void
align_placeholder (GraftLayoutRequestBuilder *b,
                   guint                      k)
{
  GraftProgram         *program = graft_graph_get_program (b->graph);
  GraftNode            *node = b->nodes[k];
  const GraftInputSpec *spec;

  if (b->misaligned || graft_node_get_op (node) != GRAFT_OP_PLACEHOLDER)
    return;
  spec = b->spec_i < graft_program_get_n_inputs (program)
             ? graft_program_get_input (program, b->spec_i)
             : NULL;
  if (spec == NULL || g_strcmp0 (spec->name, graft_node_get_name (node)) != 0)
    {
      b->misaligned = TRUE;
      return;
    }
  b->spec_i++;
  b->node_spec[k] = spec;
}

/* REQ_UNITS: a new unit, whose box carries graph node @i; what the
 * builder's new() left unset. */
static guint
new_unit (GraftLayoutRequestBuilder *b,
          guint                      i)
{
  GraftLayoutRequest *self = b->request;
  guint               u = self->n_nodes++;

  self->unit_node[u] = i;
  self->ops[u] = GRAFT_OP_PLACEHOLDER;
  self->names[u] = self->captions[u] = self->labels[u] = self->annotations[u] = NULL;
  self->roles[u] = GRAFT_LAYOUT_ROLE_NODE;
  self->unit_frame[u] = G_MAXUINT;
  b->member_count[u] = 0;
  return u;
}

/* REQ_UNITS: the node at position @p of the drawing order joins its
 * folded scope's unit, or has a unit of its own. */
static void
add_to_unit (GraftLayoutRequestBuilder *b,
             guint                      p)
{
  GraftLayoutRequest *self = b->request;
  const char         *previous_folder = b->folder;
  guint               i = b->order[p];
  GraftNode          *node = b->nodes[i];
  GraftScopes        *scopes = b->scopes;
  const char         *folder;
  gpointer            found;
  guint               u;

  if (b->shown != NULL && !b->shown[i])
    {
      self->node_unit[i] = G_MAXUINT;
      return;
    }
  if (scopes != NULL && graft_scopes_get_node_scope (scopes, i) != b->last_scope)
    {
      b->last_scope = graft_scopes_get_node_scope (scopes, i);
      b->folder = graft_scopes_find_folder (scopes, i, b->collapsed);
    }
  folder = b->folder;
  if (folder != NULL && folder == previous_folder)
    u = b->folder_unit;
  else if (folder != NULL && g_hash_table_lookup_extended (b->unit_of_folder, folder, NULL, &found))
    u = GPOINTER_TO_UINT (found);
  else
    {
      u = new_unit (b, i);
      if (folder != NULL)
        {
          const char *type = graft_scopes_get_type_name (scopes, folder);

          g_hash_table_insert (b->unit_of_folder, (gpointer) folder, GUINT_TO_POINTER (u));
          self->ops[u] = GRAFT_OP_CALL_MODULE;
          self->names[u] = g_string_chunk_insert_const (self->strings, folder);
          self->labels[u] = self->names[u];
          if (type != NULL)
            {
              const char *dot = strrchr (type, '.');

              g_string_printf (b->buf, "%s \u00b7 %s", *folder != '\0' ? folder : "self",
                               dot != NULL ? dot + 1 : type);
              self->labels[u] = g_string_chunk_insert_const (self->strings, b->buf->str);
            }
        }
      else
        {
          const GraftInputSpec *spec = NULL;

          if (b->node_spec != NULL && !b->misaligned)
            spec = b->node_spec[i];
          else if (b->specs != NULL && graft_node_get_op (node) == GRAFT_OP_PLACEHOLDER)
            spec = g_hash_table_lookup (b->specs, graft_node_get_name (node));
          fill_node_unit (self, u, i, node, b->node_spec != NULL, spec, b->buf);
        }
      /* The frame around its box: the innermost open module that holds
       * it. */
      if (scopes != NULL)
        {
          const char *frame = folder != NULL ? graft_scopes_get_outer (scopes, folder)
                                             : graft_scopes_get_innermost (scopes, i);

          self->unit_frame[u] =
              frame != NULL ? frame_for_scope (self, scopes, frame, b->frames_by_scope, b->buf)
                            : G_MAXUINT;
        }
    }
  self->node_unit[i] = u;
  b->folder_unit = u;
  if (folder != NULL)
    b->member_count[u]++;
}

/* REQ_INPUTS: the inputs of the next member of unit @b->position (or of
 * its node); returns whether the unit is done. */
static gboolean
add_member_inputs (GraftLayoutRequestBuilder *b)
{
  GraftLayoutRequest *self = b->request;
  guint               u = b->position;
  guint               n_members =
      self->member_start != NULL ? self->member_start[u + 1] - self->member_start[u] : 0;
  guint node_index = n_members > 0
                         ? g_array_index (self->members, guint, self->member_start[u] + b->member)
                         : self->unit_node[u];

  if (b->member == 0)
    self->input_start[u] = self->inputs->len;
  graft_node_get_input_nodes (b->nodes[node_index], b->inputs);
  for (guint a = 0; a < b->inputs->len; a++)
    {
      guint found;
      guint v;

      /* A node of another graph is a broken graph; lint says so, the
       * drawing leaves the edge out. */
      if (!_graft_node_find_index (g_ptr_array_index (b->inputs, a), b->base, b->nodes,
                                   self->n_graph_nodes, &found))
        continue;
      v = self->node_unit[found];
      if (b->exit != NULL && v != G_MAXUINT && v != u)
        b->exit[v] = b->exit[v] == 0 || b->exit[v] == found + 1 ? found + 1 : G_MAXUINT;
      if (v == G_MAXUINT || (b->folding && (v == u || b->stamp[v] == u + 1)))
        continue;
      b->stamp[v] = u + 1;
      g_array_append_val (self->inputs, v);
    }
  return ++b->member >= MAX (n_members, 1);
}

/* REQ_EXITS: a folded box whose outside readers all read one value shows
 * what that value is, as a node's box does. */
static void
annotate_exit (GraftLayoutRequestBuilder *b,
               guint                      u)
{
  GraftLayoutRequest *self = b->request;
  g_autofree char    *annotation = NULL;

  if (self->member_start[u + 1] == self->member_start[u] || b->exit[u] == 0 ||
      b->exit[u] == G_MAXUINT)
    return;
  annotation =
      graft_node_meta_dup_annotation (graft_node_get_meta (b->nodes[b->exit[u] - 1]), FALSE, FALSE);
  if (annotation != NULL)
    {
      self->annotations[u] = g_string_chunk_insert_const (self->strings, annotation);
      self->annotated = TRUE;
    }
}

/**
 * graft_layout_request_builder_new:
 * @graph: a graph, which must not change until the builder is freed
 * @scopes: (nullable): @graph's scopes, from graft_scopes_new(); kept
 *   until the builder is freed
 * @collapsed: (nullable) (element-type utf8 utf8): scopes drawn as one box
 *   each, unchanged until the builder is freed
 * @shown: (nullable) (array): per graph node, whether to draw it at all,
 *   unchanged until the builder is freed
 *
 * Makes the request graft_layout_request_new_folded() makes, in steps
 * (graft_layout_request_builder_step()), for a caller that spreads the
 * work over time.  Other work may use @graph between steps (its scratch
 * marks included), as long as it does not change it.
 *
 * Returns: (transfer full): a builder that has done nothing yet
 */
GraftLayoutRequestBuilder *
graft_layout_request_builder_new (GraftGraph     *graph,
                                  GraftScopes    *scopes,
                                  GHashTable     *collapsed,
                                  const gboolean *shown)
{
  GraftLayoutRequestBuilder *b;
  GraftLayoutRequest        *self;
  guint                      n;

  g_return_val_if_fail (graph != NULL, NULL);
  n = graft_graph_get_n_nodes (graph);
  g_return_val_if_fail (scopes == NULL || graft_scopes_get_n_nodes (scopes) == n, NULL);

  b = g_new0 (GraftLayoutRequestBuilder, 1);
  b->graph = graph;
  b->scopes = scopes;
  b->collapsed = collapsed;
  b->shown = shown;
  b->folding =
      (scopes != NULL && collapsed != NULL && g_hash_table_size (collapsed) > 0) || shown != NULL;
  b->request = self = g_new0 (GraftLayoutRequest, 1);
  self->n_graph_nodes = n;
  self->strings = g_string_chunk_new (4096);
  self->reuse = TRUE;
  /* Nothing is cleared here: at a million nodes these arrays are 80 MB,
   * which malloc may hand back from memory freed before, so clearing them
   * took one turn 30 ms.  Per graph node they are written by the passes
   * over the nodes, per unit when the unit is made (new_unit()). */
  self->all_names = node_names_new (n);
  self->all_names->shared = graft_graph_has_shared_names (graph);
  self->node_names = self->all_names->names;
  self->node_unit = g_new (guint, MAX (n, 1));
  self->unit_node = g_new (guint, MAX (n, 1));
  self->ops = g_new (GraftOp, MAX (n, 1));
  self->names = g_new (const char *, MAX (n, 1));
  self->captions = g_new (const char *, MAX (n, 1));
  self->labels = g_new (const char *, MAX (n, 1));
  self->annotations = g_new (const char *, MAX (n, 1));
  self->roles = g_new (GraftLayoutRole, MAX (n, 1));
  self->inputs = g_array_new (FALSE, FALSE, sizeof (guint));
  self->frames = g_array_new (FALSE, FALSE, sizeof (RequestFrame));
  self->unit_frame = g_new (guint, MAX (n, 1));
  b->nodes = g_new (GraftNode *, MAX (n, 1));
  b->member_count = g_new (guint, MAX (n, 1));
  b->unit_of_folder = g_hash_table_new (NULL, NULL);
  b->frames_by_scope = g_hash_table_new (NULL, NULL);
  b->buf = g_string_new (NULL);
  b->inputs = g_ptr_array_new ();
  if (graft_graph_get_program (graph) != NULL)
    b->node_spec = g_new (const GraftInputSpec *, MAX (n, 1));
  if (scopes != NULL)
    b->order = graft_scopes_get_order (scopes);
  else
    b->order_builder = graft_draw_order_builder_new (graph);
  b->phase = REQ_ORDER;
  if (request_phase_size (b) == 0)
    request_next_phase (b);
  return b;
}

/**
 * graft_layout_request_builder_share_names:
 * @self: a builder that has not begun listing the graph's nodes
 * @layout: a layout of the same graph, which has not changed since the
 *   layout's request listed it
 *
 * Lets the request take @layout's names of the graph's nodes (and their
 * index by name, once made) rather than copy them from the graph: a
 * million names copied took about 0.1 s of the caller's turns, and the
 * index 0.2 s of the worker's, at every layout of the same graph
 * folded another way.  The caller answers for the graph being the same.
 *
 * Returns: whether the names are shared (@layout has as many graph nodes
 *   and the builder had not listed any yet); else the request copies them
 */
gboolean
graft_layout_request_builder_share_names (GraftLayoutRequestBuilder *self,
                                          GraftLayout               *layout)
{
  GraftLayoutRequest *req;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (layout != NULL, FALSE);
  req = self->request;
  if (self->names_shared)
    return TRUE;
  if (layout->all_names->n != req->n_graph_nodes || self->phase > REQ_LIST ||
      (self->phase == REQ_LIST && self->position > 0))
    return FALSE;
  node_names_unref (req->all_names);
  req->all_names = node_names_ref (layout->all_names);
  req->node_names = req->all_names->names;
  self->names_shared = TRUE;
  return TRUE;
}

/**
 * graft_layout_request_builder_step:
 * @self: a builder
 * @max_nodes: about how many nodes to go through in this step, at least 1
 *
 * Does the next part of the work: up to @max_nodes nodes (or program
 * inputs, or boxes) of one of its passes.  The request made is the same
 * however the work is cut.
 *
 * Returns: whether the request is made
 *   (graft_layout_request_builder_finish())
 */
gboolean
graft_layout_request_builder_step (GraftLayoutRequestBuilder *self,
                                   guint                      max_nodes)
{
  GraftLayoutRequest *req;
  guint               size;
  guint               end;

  g_return_val_if_fail (self != NULL, TRUE);
  if (self->phase == REQ_DONE)
    return TRUE;
  req = self->request;
  max_nodes = MAX (max_nodes, 1);
  if (self->phase == REQ_ORDER)
    {
      /* The order builder's steps, one per step here. */
      if (graft_scopes_builder_step (self->order_builder, max_nodes))
        {
          self->order = self->own_order =
              graft_draw_order_builder_finish (g_steal_pointer (&self->order_builder));
          request_next_phase (self);
        }
      return self->phase == REQ_DONE;
    }
  if (self->phase == REQ_INPUTS)
    {
      for (guint done = 0; done < max_nodes && self->position < req->n_nodes; done++)
        if (add_member_inputs (self))
          {
            self->position++;
            self->member = 0;
          }
      if (self->position == req->n_nodes)
        request_next_phase (self);
      return self->phase == REQ_DONE;
    }
  size = request_phase_size (self);
  end = self->position + MIN (max_nodes, size - self->position);
  for (; self->position < end; self->position++)
    {
      guint k = self->position;

      switch (self->phase)
        {
        case REQ_LIST:
          self->nodes[k] = self->cursor;
          _graft_node_set_mark (self->cursor, 0, self->base + k);
          /* Names are unique in a graph: nothing to share. */
          if (!self->names_shared)
            req->node_names[k] = g_string_chunk_insert (req->all_names->strings,
                                                        graft_node_get_name (self->cursor));
          if (self->node_spec != NULL)
            {
              self->node_spec[k] = NULL;
              align_placeholder (self, k);
            }
          self->cursor = graft_node_get_next (self->cursor);
          break;
        case REQ_SPECS:
          {
            const GraftInputSpec *spec =
                graft_program_get_input (graft_graph_get_program (self->graph), k);

            g_hash_table_insert (self->specs, (gpointer) spec->name, (gpointer) spec);
          }
          break;
        case REQ_UNITS:
          add_to_unit (self, k);
          break;
        case REQ_MEMBER_START:
          req->member_start[k] = self->member_fill[k] = req->members->len;
          if (self->member_count[k] > 0)
            {
              /* Listed in graph order (the drawing order may differ). */
              g_array_set_size (req->members, req->members->len + self->member_count[k]);
              g_string_printf (self->buf, "%u nodes", self->member_count[k]);
              req->captions[k] = g_string_chunk_insert_const (req->strings, self->buf->str);
            }
          break;
        case REQ_MEMBERS:
          {
            guint u = req->node_unit[k];

            if (u != G_MAXUINT && self->member_count[u] > 0)
              g_array_index (req->members, guint, self->member_fill[u]++) = k;
          }
          break;
        case REQ_EXITS:
          annotate_exit (self, k);
          break;
        case REQ_ORDER:
        case REQ_INPUTS:
        case REQ_DONE:
        default:
          g_assert_not_reached ();
        }
    }
  if (self->position == size)
    {
      request_next_phase (self);
    }
  return self->phase == REQ_DONE;
}

/**
 * graft_layout_request_builder_finish:
 * @self: (transfer full): a builder whose last step returned %TRUE
 *
 * Returns: (transfer full): the request, independent of the graph
 */
GraftLayoutRequest *
graft_layout_request_builder_finish (GraftLayoutRequestBuilder *self)
{
  GraftLayoutRequest *request;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->phase == REQ_DONE, NULL);
  request = g_steal_pointer (&self->request);
  graft_layout_request_builder_free (self);
  return request;
}

/**
 * graft_layout_request_builder_free:
 * @self: (transfer full) (nullable): a builder, done or not
 */
void
graft_layout_request_builder_free (GraftLayoutRequestBuilder *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->request, graft_layout_request_free);
  g_clear_pointer (&self->order_builder, graft_scopes_builder_free);
  g_free (self->own_order);
  g_free (self->nodes);
  g_clear_pointer (&self->specs, g_hash_table_unref);
  g_free (self->node_spec);
  g_hash_table_unref (self->unit_of_folder);
  g_hash_table_unref (self->frames_by_scope);
  g_string_free (self->buf, TRUE);
  g_free (self->member_count);
  g_free (self->member_fill);
  g_free (self->stamp);
  g_free (self->exit);
  g_ptr_array_unref (self->inputs);
  g_free (self);
}

/**
 * graft_layout_request_new_folded:
 * @graph: a graph
 * @scopes: (nullable): @graph's scopes, from graft_scopes_new()
 * @collapsed: (nullable) (element-type utf8 utf8): scopes drawn as one box
 *   each (see graft_scopes_find_folder())
 * @shown: (nullable) (array): per graph node, whether to draw it at all;
 *   %NULL draws every node
 *
 * Like graft_layout_request_new(), drawing each collapsed scope as one box
 * (its caption counts its nodes) that stands for all its nodes, and
 * leaving out the nodes @shown excludes, with their edges.  Edges between
 * boxes are the data dependencies between what they hold, each once.
 * graft_layout_request_builder_new() makes the same in steps.
 *
 * Returns: (transfer full): a request to run with graft_layout_request_run()
 */
GraftLayoutRequest *
graft_layout_request_new_folded (GraftGraph     *graph,
                                 GraftScopes    *scopes,
                                 GHashTable     *collapsed,
                                 const gboolean *shown)
{
  GraftLayoutRequestBuilder *builder;

  g_return_val_if_fail (graph != NULL, NULL);
  builder = graft_layout_request_builder_new (graph, scopes, collapsed, shown);
  g_return_val_if_fail (builder != NULL, NULL);
  while (!graft_layout_request_builder_step (builder, G_MAXUINT))
    ;
  return graft_layout_request_builder_finish (builder);
}

/**
 * graft_layout_request_set_cancellable:
 * @self: a request
 * @cancellable: (nullable): checked before each segment is laid out
 *
 * Lets another thread stop a long layout: the run then fails with
 * %G_IO_ERROR_CANCELLED after the segment in progress.
 */
void
graft_layout_request_set_cancellable (GraftLayoutRequest *self,
                                      GCancellable       *cancellable)
{
  g_return_if_fail (self != NULL);
  g_set_object (&self->cancellable, cancellable);
}

/**
 * graft_layout_request_set_direction:
 * @self: a request
 * @direction: which way the data flows
 *
 * Lays the graph out top to bottom (the default) or left to right.
 */
void
graft_layout_request_set_direction (GraftLayoutRequest  *self,
                                    GraftLayoutDirection direction)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (direction == GRAFT_LAYOUT_TOP_TO_BOTTOM ||
                    direction == GRAFT_LAYOUT_LEFT_TO_RIGHT);
  self->direction = direction;
}

/**
 * graft_layout_request_set_label:
 * @self: a request
 * @node_index: a graph node's position in graph order
 * @label: what the first line of its box says instead of its name
 *
 * Labels a node's own box otherwise than by the node's name: the editor
 * labels the second of two nodes of one name as the graph's code calls
 * it (`sym_size_int_2`), as torch's code does.  A box that shows
 * something else (a weight's target, a folded module) or no box of its
 * own: nothing changes.  Before the request runs; the box is measured
 * with @label.
 */
void
graft_layout_request_set_label (GraftLayoutRequest *self,
                                guint               node_index,
                                const char         *label)
{
  guint u;

  g_return_if_fail (self != NULL);
  g_return_if_fail (label != NULL);
  g_return_if_fail (node_index < self->n_graph_nodes);
  u = self->node_unit[node_index];
  if (u == G_MAXUINT || self->unit_node[u] != node_index ||
      self->names[u] != self->node_names[node_index] || self->labels[u] != self->names[u])
    return;
  self->labels[u] = g_string_chunk_insert_const (self->strings, label);
}

/**
 * graft_layout_request_set_previous:
 * @self: a request
 * @previous: (nullable): a layout of the same graph before a change
 * @reuse: take from @previous every segment whose graph for dot is
 *   unchanged, rather than laying it out again (and from an earlier
 *   segment of the same run, as every run does by default)
 *
 * Lays the graph out again after a change, keeping what did not change:
 * the graph is cut into segments where @previous was cut (a segment that
 * grew past the limit is cut further), so the segments the change did not
 * touch are the same as before; with @reuse, their geometry is taken from
 * @previous instead of from dot, which is exactly what dot would make of
 * them again.  The later segments move down (or up) by the change in
 * height of the changed ones; within an unchanged segment, every box keeps
 * its place.  Without @reuse every segment is laid out by dot, with the
 * same cuts: what a run with @reuse must equal.  (With @previous %NULL and
 * @reuse %FALSE: a fresh layout, every segment by dot, even repeated ones.)
 *
 * @previous may be of another graph, another folding or another direction:
 * segments that differ are laid out afresh, whatever the reason.
 */
void
graft_layout_request_set_previous (GraftLayoutRequest *self,
                                   GraftLayout        *previous,
                                   gboolean            reuse)
{
  g_return_if_fail (self != NULL);
  g_clear_pointer (&self->previous, graft_layout_free);
  self->previous = previous != NULL ? graft_layout_ref (previous) : NULL;
  self->reuse = reuse;
}

/**
 * graft_layout_request_free:
 * @self: (transfer full) (nullable): a request
 */
void
graft_layout_request_free (GraftLayoutRequest *self)
{
  if (self == NULL)
    return;
  g_string_chunk_free (self->strings);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->previous, graft_layout_free);
  g_free (self->ops);
  g_free (self->names);
  g_free (self->captions);
  g_free (self->labels);
  g_free (self->annotations);
  g_free (self->roles);
  g_free (self->input_start);
  g_array_unref (self->inputs);
  g_free (self->unit_node);
  g_free (self->member_start);
  g_clear_pointer (&self->members, g_array_unref);
  node_names_unref (self->all_names);
  g_free (self->node_unit);
  g_array_unref (self->frames);
  g_free (self->unit_frame);
  g_free (self);
}

/**
 * graft_layout_request_get_progress:
 * @self: a request
 * @out_done: (out): segments laid out so far
 * @out_total: (out): segments in all, 0 until the run has cut the graph
 *
 * How far a run of @self has got; safe to call from any thread while
 * another runs it.
 */
void
graft_layout_request_get_progress (GraftLayoutRequest *self,
                                   guint              *out_done,
                                   guint              *out_total)
{
  g_return_if_fail (self != NULL);
  *out_done = (guint) g_atomic_int_get (&self->segments_done);
  *out_total = (guint) g_atomic_int_get (&self->n_segments);
}

static LaidSegment *
laid_segment_ref (LaidSegment *laid)
{
  g_atomic_ref_count_inc (&laid->ref_count);
  return laid;
}

static void
laid_segment_unref (LaidSegment *laid)
{
  if (laid == NULL || !g_atomic_ref_count_dec (&laid->ref_count))
    return;
  _graft_gv_geometry_clear (&laid->geometry);
  g_free (laid);
}

static guint
laid_key_hash (gconstpointer key)
{
  guint h;

  memcpy (&h, key, sizeof h);
  return h;
}

static gboolean
laid_key_equal (gconstpointer a,
                gconstpointer b)
{
  return memcmp (a, b, sizeof ((LaidSegment *) NULL)->key) == 0;
}

static void
append_bytes (GByteArray   *buf,
              gconstpointer data,
              gsize         size)
{
  g_byte_array_append (buf, data, (guint) size);
}

/* The key of a segment's graph for dot: a digest of everything
 * _graft_gv_layout() reads, field by field (structs have padding). */
static void
spec_key (const GraftGvGraphSpec *spec,
          guint8                  out_key[32])
{
  g_autoptr (GByteArray) buf = g_byte_array_sized_new (spec->n_nodes * 32 + spec->n_edges * 8);
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize len = 32;

  append_bytes (buf, &spec->n_nodes, sizeof spec->n_nodes);
  append_bytes (buf, &spec->n_edges, sizeof spec->n_edges);
  append_bytes (buf, &spec->n_clusters, sizeof spec->n_clusters);
  append_bytes (buf, &spec->nodesep, sizeof spec->nodesep);
  append_bytes (buf, &spec->ranksep, sizeof spec->ranksep);
  append_bytes (buf, &spec->budget, sizeof spec->budget);
  for (guint i = 0; i < spec->n_nodes; i++)
    {
      const GraftGvNodeSpec *n = &spec->nodes[i];

      append_bytes (buf, &n->width, sizeof n->width);
      append_bytes (buf, &n->height, sizeof n->height);
      append_bytes (buf, &n->rank, sizeof n->rank);
      append_bytes (buf, &n->is_point, sizeof n->is_point);
      append_bytes (buf, &n->cluster, sizeof n->cluster);
    }
  for (guint e = 0; e < spec->n_edges; e++)
    {
      append_bytes (buf, &spec->edges[e].tail, sizeof spec->edges[e].tail);
      append_bytes (buf, &spec->edges[e].head, sizeof spec->edges[e].head);
    }
  for (guint c = 0; c < spec->n_clusters; c++)
    {
      append_bytes (buf, &spec->clusters[c].parent, sizeof spec->clusters[c].parent);
      append_bytes (buf, spec->clusters[c].label, strlen (spec->clusters[c].label) + 1);
    }
  g_checksum_update (sum, buf->data, buf->len);
  g_checksum_get_digest (sum, out_key, &len);
  g_assert (len == 32);
}

static void
segment_clear (Segment *segment)
{
  g_clear_pointer (&segment->nodes, g_array_unref);
  g_clear_pointer (&segment->edges, g_array_unref);
  g_clear_pointer (&segment->in_ports, g_hash_table_unref);
  g_clear_pointer (&segment->box_local, g_array_unref);
  for (guint c = 0; segment->clusters != NULL && c < segment->clusters->len; c++)
    g_free ((char *) g_array_index (segment->clusters, GraftGvClusterSpec, c).label);
  g_clear_pointer (&segment->clusters, g_array_unref);
  g_clear_pointer (&segment->cluster_frame, g_array_unref);
  g_clear_pointer (&segment->laid, laid_segment_unref);
  segment->geometry = NULL;
}

static guint
segment_add_node (Segment    *segment,
                  double      width,
                  double      height,
                  GraftGvRank rank,
                  gboolean    is_point)
{
  GraftGvNodeSpec spec = { width, height, rank, is_point, G_MAXUINT };

  g_array_append_val (segment->nodes, spec);
  return segment->nodes->len - 1;
}

static guint
segment_add_edge (Segment *segment,
                  guint    tail,
                  guint    head)
{
  GraftGvEdgeSpec spec = { tail, head };

  g_array_append_val (segment->edges, spec);
  return segment->edges->len - 1;
}

/* Whether dot should run @segment with its iteration budgets: the total
 * distance in graph order that its edges span, against its size. */
static gboolean
is_dense (const Segment *segment)
{
  guint64 span = 0;

  for (guint k = 0; k < segment->edges->len; k++)
    {
      const GraftGvEdgeSpec *es = &g_array_index (segment->edges, GraftGvEdgeSpec, k);

      span += es->head > es->tail ? es->head - es->tail : es->tail - es->head;
    }
  return span > (guint64) DENSE_SPAN * segment->nodes->len;
}

static guint
add_box (GraftLayout        *self,
         GraftLayoutRequest *req,
         GraftText          *text,
         guint               unit,
         gboolean            is_stub)
{
  GraftLayoutNode box = { { 0, 0, 0, 0 } };

  box.op = req->ops[unit];
  box.node_index = req->unit_node[unit];
  box.is_stub = is_stub;

  /* The layout outlives its request: it keeps its own strings. */
  box.name = g_string_chunk_insert_const (self->strings, req->names[unit]);
  box.label = req->labels[unit] == req->names[unit]
                  ? box.name
                  : g_string_chunk_insert_const (self->strings, req->labels[unit]);
  box.caption = is_stub ? "" : g_string_chunk_insert_const (self->strings, req->captions[unit]);
  box.annotation = req->annotations[unit] != NULL
                       ? g_string_chunk_insert_const (self->strings, req->annotations[unit])
                       : NULL;
  box.role = req->roles[unit];
  if (req->member_start != NULL && !is_stub)
    {
      box.n_members = req->member_start[unit + 1] - req->member_start[unit];
      box.first_member = self->members->len;
      g_array_append_vals (self->members,
                           &g_array_index (req->members, guint, req->member_start[unit]),
                           box.n_members);
    }
  if (box.role == GRAFT_LAYOUT_ROLE_PARAMETER || box.role == GRAFT_LAYOUT_ROLE_BUFFER ||
      box.role == GRAFT_LAYOUT_ROLE_CONSTANT)
    {
      /* A weight, stub or not: a pill with its target. */
      double w = _graft_text_width (text, GRAFT_TEXT_CAPTION, box.label) + 2 * GRAFT_STUB_PAD_X;

      if (box.annotation != NULL)
        w = MAX (w, _graft_text_width (text, GRAFT_TEXT_EDGE, box.annotation) + 4);
      box.box.width = w;
      box.box.height = GRAFT_WEIGHT_HEIGHT;
    }
  else if (is_stub)
    {
      box.box.width = _graft_text_width (text, GRAFT_TEXT_STUB, box.name) + 2 * GRAFT_STUB_PAD_X;
      box.box.height = GRAFT_STUB_HEIGHT;
    }
  else
    {
      double w = MAX (_graft_text_width (text, GRAFT_TEXT_NAME, box.label),
                      _graft_text_width (text, GRAFT_TEXT_CAPTION, box.caption));

      if (box.annotation != NULL)
        w = MAX (w, _graft_text_width (text, GRAFT_TEXT_EDGE, box.annotation));
      box.box.width = MAX (w + 2 * GRAFT_BOX_PAD_X, GRAFT_BOX_MIN_WIDTH);
      /* A folded module has its expand control in its top left corner:
       * room for it on both sides keeps the text centred and clear. */
      if (box.n_members > 0)
        box.box.width += 2 * (CONTROL_SIZE + CONTROL_INSET);
      box.box.height = GRAFT_BOX_HEIGHT;
    }
  g_array_append_val (self->nodes, box);
  return self->nodes->len - 1;
}

static int
compare_guint (const void *a,
               const void *b)
{
  guint x = *(const guint *) a;
  guint y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* The spatial index's bands are this tall, in points: a few ranks each. */
#define BAND_HEIGHT 256.0
/* How far past its box a box's drawing reaches (selection ring, badge,
 * the annotation under it). */
#define QUERY_GROW (GRAFT_EDGE_LABEL_GAP + GRAFT_EDGE_LABEL_HEIGHT + 8.0)

static void
band_range (double top,
            double bottom,
            guint  n_bands,
            guint *out_first,
            guint *out_last)
{
  gint first = (gint) floor ((top - QUERY_GROW) / BAND_HEIGHT);
  gint last = (gint) floor ((bottom + QUERY_GROW) / BAND_HEIGHT);

  *out_first = (guint) CLAMP (first, 0, (gint) n_bands - 1);
  *out_last = (guint) CLAMP (last, 0, (gint) n_bands - 1);
}

/* Fills a CSR list of items per band: @n items, item i spanning
 * [@tops[i], @bottoms[i]]. */
static void
fill_bands (guint         n_bands,
            guint         n,
            const double *tops,
            const double *bottoms,
            guint       **out_start,
            GArray      **out_items)
{
  guint            *start = g_new0 (guint, n_bands + 1);
  g_autofree guint *fill = NULL;
  GArray           *items;

  for (guint i = 0; i < n; i++)
    {
      guint a, b;

      band_range (tops[i], bottoms[i], n_bands, &a, &b);
      for (guint band = a; band <= b; band++)
        start[band + 1]++;
    }
  for (guint band = 0; band < n_bands; band++)
    start[band + 1] += start[band];
  items = g_array_sized_new (FALSE, FALSE, sizeof (guint), start[n_bands]);
  g_array_set_size (items, start[n_bands]);
  fill = g_memdup2 (start, (n_bands + 1) * sizeof (guint));
  for (guint i = 0; i < n; i++)
    {
      guint a, b;

      band_range (tops[i], bottoms[i], n_bands, &a, &b);
      for (guint band = a; band <= b; band++)
        g_array_index (items, guint, fill[band]++) = i;
    }
  *out_start = start;
  *out_items = items;
}

/* Indexes boxes and edges by the horizontal bands they reach into. */
static void
build_index (GraftLayout *self)
{
  guint              n_boxes = self->nodes->len;
  guint              n_edges = self->edges->len;
  g_autofree double *tops = g_new (double, MAX (MAX (n_boxes, n_edges), 1));
  g_autofree double *bottoms = g_new (double, MAX (MAX (n_boxes, n_edges), 1));

  self->n_bands = (guint) ceil ((self->height + QUERY_GROW) / BAND_HEIGHT) + 1;
  for (guint i = 0; i < n_boxes; i++)
    {
      const GraftRect *r = &g_array_index (self->nodes, GraftLayoutNode, i).box;

      tops[i] = r->y;
      bottoms[i] = r->y + r->height;
    }
  fill_bands (self->n_bands, n_boxes, tops, bottoms, &self->band_box_start, &self->band_boxes);
  for (guint e = 0; e < n_edges; e++)
    {
      const GraftLayoutEdge *edge = &g_array_index (self->edges, GraftLayoutEdge, e);

      tops[e] = bottoms[e] = edge->arrow_tip.y;
      for (guint k = 0; k < edge->n_points; k++)
        {
          tops[e] = MIN (tops[e], edge->points[k].y);
          bottoms[e] = MAX (bottoms[e], edge->points[k].y);
        }
    }
  fill_bands (self->n_bands, n_edges, tops, bottoms, &self->band_edge_start, &self->band_edges);
}

/* Appends the items of bands @first to @last, each once, in increasing
 * order (an item in several bands is listed in each). */
static void
query_bands (const guint *start,
             GArray      *items,
             gint         first,
             gint         last,
             GArray      *out)
{
  guint from = out->len;
  guint kept = from;

  for (gint band = first; band <= last; band++)
    g_array_append_vals (out, &g_array_index (items, guint, start[band]),
                         start[band + 1] - start[band]);
  if (last > first)
    {
      qsort (&g_array_index (out, guint, from), out->len - from, sizeof (guint), compare_guint);
      for (guint k = from; k < out->len; k++)
        if (k == from || g_array_index (out, guint, k) != g_array_index (out, guint, kept - 1))
          g_array_index (out, guint, kept++) = g_array_index (out, guint, k);
      g_array_set_size (out, kept);
    }
}

static void
run_init (Run                *run,
          GraftLayoutRequest *req)
{
  GraftLayout *self = g_new0 (GraftLayout, 1);

  g_atomic_ref_count_init (&self->ref_count);
  *run = (Run){ 0 };
  run->req = req;
  self->strings = g_string_chunk_new (4096);
  self->nodes = g_array_new (FALSE, FALSE, sizeof (GraftLayoutNode));
  self->edges = g_array_new (FALSE, FALSE, sizeof (GraftLayoutEdge));
  self->points = g_array_new (FALSE, FALSE, sizeof (GraftPoint));
  self->members = g_array_new (FALSE, FALSE, sizeof (guint));
  self->frames = g_array_new (FALSE, FALSE, sizeof (GraftLayoutFrame));
  self->n_graph_nodes = req->n_graph_nodes;
  self->main_of = g_new0 (guint, MAX (req->n_graph_nodes, 1));
  self->all_names = node_names_ref (req->all_names);
  self->node_names = self->all_names->names;
  run->layout = self;
  run->unit_box = g_new0 (guint, MAX (req->n_nodes, 1));
  run->text = _graft_text_new ();
  run->edges = g_array_new (FALSE, FALSE, sizeof (Edge));
}

static void
run_clear (Run *run)
{
  for (guint s = 0; s < run->n_segments; s++)
    segment_clear (&run->segments[s]);
  g_clear_pointer (&run->segments, g_free);
  g_clear_pointer (&run->layout, graft_layout_free);
  g_clear_pointer (&run->text, _graft_text_free);
  g_clear_pointer (&run->hub, g_free);
  g_clear_pointer (&run->unit_box, g_free);
  g_clear_pointer (&run->group_start, g_free);
  g_clear_pointer (&run->edges, g_array_unref);
  g_clear_pointer (&run->segment_of, g_free);
  g_clear_pointer (&run->lane_x, g_free);
  g_clear_pointer (&run->lane_of, g_free);
  g_clear_pointer (&run->box_frame, g_free);
}

/* Hubs. */
static void
find_hubs (Run *run)
{
  GraftLayoutRequest *req = run->req;
  g_autofree guint   *n_users = g_new0 (guint, MAX (req->n_nodes, 1));
  guint               hub_users;

  run->hub = g_new0 (guint8, MAX (req->n_nodes, 1));
  for (guint k = 0; k < req->inputs->len; k++)
    n_users[g_array_index (req->inputs, guint, k)]++;
  hub_users = req->n_nodes < SMALL_GRAPH_NODES ? HUB_USERS_SMALL : HUB_USERS;
  for (guint i = 0; i < req->n_nodes; i++)
    {
      if ((req->ops[i] == GRAFT_OP_PLACEHOLDER || req->ops[i] == GRAFT_OP_GET_ATTR) &&
          n_users[i] > hub_users)
        run->hub[i] = HUB_ALL_USES;
      else if (req->ops[i] != GRAFT_OP_OUTPUT && n_users[i] > hub_users)
        run->hub[i] = HUB_FAR_USES;
    }
}

/* Boxes, in graph order, each node's stubs right before it; edges in
 * graph order of their users, then argument order. */
static void
add_boxes (Run *run)
{
  GraftLayoutRequest *req = run->req;
  GraftLayout        *self = run->layout;
  guint              *unit_box = run->unit_box;
  guint8             *hub = run->hub;
  guint              *group_start;

  group_start = run->group_start = g_new0 (guint, req->n_nodes + 1);
  for (guint i = 0; i < req->n_nodes; i++)
    {
      guint first_stub;

      group_start[i] = self->nodes->len;
      for (guint k = req->input_start[i]; k < req->input_start[i + 1]; k++)
        {
          guint j = g_array_index (req->inputs, guint, k);

          if (is_stub_use (hub[j], j, i))
            add_box (self, req, run->text, j, TRUE);
        }
      first_stub = group_start[i];
      unit_box[i] = add_box (self, req, run->text, i, FALSE);
      for (guint k = req->input_start[i]; k < req->input_start[i + 1]; k++)
        {
          guint j = g_array_index (req->inputs, guint, k);
          Edge  e = { 0, unit_box[i], G_MAXUINT, G_MAXUINT };

          e.tail = is_stub_use (hub[j], j, i) ? first_stub++ : G_MAXUINT;
          g_array_append_val (run->edges, e);
        }
    }
  group_start[req->n_nodes] = self->nodes->len;
  /* Tails of non-hub edges are known only now: an input may come later
   * in graph order (a graph that uses a value before defining it). */
  {
    guint e = 0;

    for (guint i = 0; i < req->n_nodes; i++)
      for (guint k = req->input_start[i]; k < req->input_start[i + 1]; k++, e++)
        if (g_array_index (run->edges, Edge, e).tail == G_MAXUINT)
          g_array_index (run->edges, Edge, e).tail =
              unit_box[g_array_index (req->inputs, guint, k)];
  }
  for (guint i = 0; i < req->n_graph_nodes; i++)
    self->main_of[i] = req->node_unit[i] != G_MAXUINT ? unit_box[req->node_unit[i]] : G_MAXUINT;
  run->n_boxes = self->nodes->len;
  /* A box is in its unit's frame, and a stub in the frame of the box it
   * stands beside. */
  run->box_frame = g_new (guint, MAX (run->n_boxes, 1));
  for (guint i = 0; i < req->n_nodes; i++)
    for (guint b = group_start[i]; b < group_start[i + 1]; b++)
      run->box_frame[b] = req->unit_frame[i];
}

/* Segments: whole groups (a node and its stubs), cut where a segment's
 * cost reaches GRAFT_MAX_SEGMENT_NODES.  A box costs 1, and an edge
 * within the segment 1 per SPAN_COST positions it spans, so dense
 * stretches of a graph get shorter segments.  After a change, also where
 * the previous layout was cut: the segments the change did not touch then
 * come out the same (the cost of a segment depends on it alone).  A
 * segment that shrank stays on its own: joining it to the next would move
 * every later cut, and every later segment would go to dot again. */
static void
cut_segments (Run *run)
{
  GraftLayoutRequest *req = run->req;
  GraftLayout        *self = run->layout;
  const guint        *group_start = run->group_start;
  g_autoptr (GArray) starts = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) start_units = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GHashTable) hints = NULL; /* names of the previous segments' first units */
  double cost = 0;
  guint  first = 0;

  if (req->previous != NULL)
    {
      hints = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint s = 0; s < req->previous->n_segments; s++)
        g_hash_table_add (hints, (gpointer) req->previous->segment_first[s]);
    }
  run->segment_of = g_new0 (guint, MAX (run->n_boxes, 1));
  for (guint i = 0; i < req->n_nodes; i++)
    {
      double group_cost = group_start[i + 1] - group_start[i];

      for (guint k = req->input_start[i]; k < req->input_start[i + 1]; k++)
        {
          guint tail = g_array_index (run->edges, Edge, k).tail;
          guint head = run->unit_box[i];

          if (tail < head)
            group_cost += (double) (head - MAX (tail, first)) / SPAN_COST;
        }
      if (starts->len == 0 ||
          (cost > 0 && (cost + group_cost > GRAFT_MAX_SEGMENT_NODES ||
                        (hints != NULL && g_hash_table_contains (hints, req->names[i])))))
        {
          first = group_start[i];
          g_array_append_val (starts, first);
          g_array_append_val (start_units, i);
          cost = 0;
        }
      for (guint b = group_start[i]; b < group_start[i + 1]; b++)
        run->segment_of[b] = starts->len - 1;
      cost += group_cost;
    }
  run->n_segments = starts->len;
  run->segments = g_new0 (Segment, MAX (run->n_segments, 1));
  self->segment_start = g_new (guint, run->n_segments + 1);
  self->segment_first = g_new (const char *, MAX (run->n_segments, 1));
  self->laid = g_new0 (LaidSegment *, MAX (run->n_segments, 1));
  self->reused = g_new0 (gboolean, MAX (run->n_segments, 1));
  for (guint s = 0; s < run->n_segments; s++)
    {
      run->segments[s].first_box = self->segment_start[s] = g_array_index (starts, guint, s);
      self->segment_first[s] = g_string_chunk_insert_const (
          self->strings, req->names[g_array_index (start_units, guint, s)]);
    }
  self->segment_start[run->n_segments] = run->n_boxes;
  self->n_segments = run->n_segments;
  g_atomic_int_set (&req->n_segments, (gint) run->n_segments);
}

/* The cluster of request frame @frame in segment @seg (number @s), made
 * with the clusters around it on first use: @stamp and @local, per frame,
 * say in which segment it was last made (+ 1) and as which cluster. */
static guint
segment_cluster (Run     *run,
                 Segment *seg,
                 guint    s,
                 guint    frame,
                 guint   *stamp,
                 guint   *local)
{
  const RequestFrame *rf = &g_array_index (run->req->frames, RequestFrame, frame);
  GraftGvClusterSpec  spec = { G_MAXUINT, NULL };

  if (stamp[frame] == s + 1)
    return local[frame];
  if (rf->parent != G_MAXUINT)
    spec.parent = segment_cluster (run, seg, s, rf->parent, stamp, local);
  /* Room for the label and, at its right end, the control. */
  spec.label = g_strconcat (rf->label, "     ", NULL);
  g_array_append_val (seg->clusters, spec);
  g_array_append_val (seg->cluster_frame, frame);
  stamp[frame] = s + 1;
  local[frame] = seg->clusters->len - 1;
  return local[frame];
}

/* Each segment's dot graph starts with its boxes, in box order, each in
 * the cluster of its frame. */
static void
add_segment_boxes (Run *run)
{
  g_autofree guint *cluster_stamp = g_new0 (guint, MAX (run->req->frames->len, 1));
  g_autofree guint *cluster_local = g_new0 (guint, MAX (run->req->frames->len, 1));

  for (guint s = 0; s < run->n_segments; s++)
    {
      Segment *seg = &run->segments[s];
      guint    end = s + 1 < run->n_segments ? run->segments[s + 1].first_box : run->n_boxes;

      seg->nodes = g_array_new (FALSE, FALSE, sizeof (GraftGvNodeSpec));
      seg->edges = g_array_new (FALSE, FALSE, sizeof (GraftGvEdgeSpec));
      seg->in_ports = g_hash_table_new (NULL, NULL);
      seg->box_local = g_array_new (FALSE, FALSE, sizeof (guint));
      seg->clusters = g_array_new (FALSE, FALSE, sizeof (GraftGvClusterSpec));
      seg->cluster_frame = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint b = seg->first_box; b < end; b++)
        {
          GraftLayoutNode *box = &g_array_index (run->layout->nodes, GraftLayoutNode, b);
          guint            local =
              segment_add_node (seg, box->box.width, box->box.height, GRAFT_GV_RANK_ANY, FALSE);

          if (run->box_frame[b] != G_MAXUINT)
            g_array_index (seg->nodes, GraftGvNodeSpec, local).cluster =
                segment_cluster (run, seg, s, run->box_frame[b], cluster_stamp, cluster_local);
          g_array_append_val (seg->box_local, local);
        }
    }
}

/* Then its edges: an edge within a segment is an edge of its dot graph; an
 * edge between segments leaves the tail's segment through the tail's
 * out-port and enters the head's through an in-port of the tail. */
static void
add_segment_edges (Run *run)
{
  Segment     *segments = run->segments;
  const guint *segment_of = run->segment_of;
  /* Per box: the local index + 1 of its out-port, and the edge to it. */
  g_autofree guint *out_port = g_new0 (guint, MAX (run->n_boxes, 1));
  g_autofree guint *out_edge = g_new0 (guint, MAX (run->n_boxes, 1));

  for (guint e = 0; e < run->edges->len; e++)
    {
      Edge    *edge = &g_array_index (run->edges, Edge, e);
      Segment *ts = &segments[segment_of[edge->tail]];
      Segment *hs = &segments[segment_of[edge->head]];
      guint    tail_local = g_array_index (ts->box_local, guint, edge->tail - ts->first_box);
      guint    head_local = g_array_index (hs->box_local, guint, edge->head - hs->first_box);
      gpointer found;
      guint    in_port;

      if (ts == hs)
        {
          edge->in_edge = segment_add_edge (hs, tail_local, head_local);
          continue;
        }
      if (out_port[edge->tail] == 0)
        {
          out_port[edge->tail] =
              segment_add_node (ts, PORT_SIZE, PORT_SIZE, GRAFT_GV_RANK_SINK, TRUE) + 1;
          out_edge[edge->tail] = segment_add_edge (ts, tail_local, out_port[edge->tail] - 1);
        }
      edge->out_edge = out_edge[edge->tail];
      if (g_hash_table_lookup_extended (hs->in_ports, GUINT_TO_POINTER (edge->tail + 1), NULL,
                                        &found))
        in_port = GPOINTER_TO_UINT (found) - 1;
      else
        {
          in_port = segment_add_node (hs, PORT_SIZE, PORT_SIZE, GRAFT_GV_RANK_SOURCE, TRUE);
          g_hash_table_insert (hs->in_ports, GUINT_TO_POINTER (edge->tail + 1),
                               GUINT_TO_POINTER (in_port + 1));
        }
      edge->in_edge = segment_add_edge (hs, in_port, head_local);
    }
}

/* A program's weight that nothing uses (a batch norm's
 * `num_batches_tracked`) stands before the box drawn after it (see
 * graft_draw_order_new()): an edge that dot alone sees keeps it there,
 * instead of on dot's top rank. */
static void
tie_unused_weights (Run *run)
{
  GraftLayoutRequest  *req = run->req;
  g_autofree gboolean *used = g_new0 (gboolean, MAX (req->n_nodes, 1));

  for (guint k = 0; k < req->inputs->len; k++)
    used[g_array_index (req->inputs, guint, k)] = TRUE;
  for (guint u = 0; u + 1 < req->n_nodes; u++)
    {
      guint    box = run->unit_box[u];
      guint    next = run->unit_box[u + 1];
      Segment *seg = &run->segments[run->segment_of[box]];

      if (used[u] || run->segment_of[next] != run->segment_of[box] ||
          (req->roles[u] != GRAFT_LAYOUT_ROLE_PARAMETER &&
           req->roles[u] != GRAFT_LAYOUT_ROLE_BUFFER &&
           req->roles[u] != GRAFT_LAYOUT_ROLE_CONSTANT))
        continue;
      segment_add_edge (seg, g_array_index (seg->box_local, guint, box - seg->first_box),
                        g_array_index (seg->box_local, guint, next - seg->first_box));
    }
}

/* dot, one segment at a time; stack the results, centred. */
static gboolean
lay_out_segments (Run     *run,
                  GError **error)
{
  GraftLayout *prev = run->req->reuse ? run->req->previous : NULL;
  gboolean     reuse = run->req->reuse;
  /* key -> LaidSegment: the previous layout's segments, and this one's so
   * far (a graph of repeated blocks repeats segments too). */
  g_autoptr (GHashTable) known = g_hash_table_new (laid_key_hash, laid_key_equal);

  for (guint s = 0; prev != NULL && s < prev->n_segments; s++)
    g_hash_table_insert (known, prev->laid[s]->key, prev->laid[s]);
  for (guint s = 0; s < run->n_segments; s++)
    {
      Segment         *seg = &run->segments[s];
      LaidSegment     *found;
      GraftGvGraphSpec spec = {
        (const GraftGvNodeSpec *) (gpointer) seg->nodes->data,
        seg->nodes->len,
        (const GraftGvEdgeSpec *) (gpointer) seg->edges->data,
        seg->edges->len,
        NODESEP,
        run->req->annotated ? RANKSEP_ANNOTATED : RANKSEP,
        FALSE,
      };

      /* Left to right, dot's ranks are the drawing's columns: the room an
       * annotation takes under its box goes between the boxes of a column,
       * and columns leave edges room to turn. */
      if (run->req->direction == GRAFT_LAYOUT_LEFT_TO_RIGHT)
        {
          spec.nodesep = run->req->annotated ? RANKSEP_ANNOTATED - RANKSEP + NODESEP : NODESEP;
          spec.ranksep = RANKSEP_COLUMNS;
        }

      spec.budget = is_dense (seg);
      spec.clusters = (const GraftGvClusterSpec *) (gpointer) seg->clusters->data;
      spec.n_clusters = seg->clusters->len;
      if (g_cancellable_set_error_if_cancelled (run->req->cancellable, error))
        return FALSE;
      seg->laid = g_new0 (LaidSegment, 1);
      g_atomic_ref_count_init (&seg->laid->ref_count);
      spec_key (&spec, seg->laid->key);
      found = reuse ? g_hash_table_lookup (known, seg->laid->key) : NULL;
      if (found != NULL)
        {
          /* dot would make the same of the same graph. */
          g_free (seg->laid);
          seg->laid = laid_segment_ref (found);
          run->layout->reused[s] = TRUE;
          run->layout->n_reused++;
        }
      else
        {
          g_debug ("segment %u: %u boxes, %u edges, budget %d", s, seg->nodes->len,
                   seg->edges->len, spec.budget);
          if (!_graft_gv_layout (&spec, &seg->laid->geometry, error))
            return FALSE;
          g_hash_table_insert (known, seg->laid->key, seg->laid);
        }
      seg->geometry = &seg->laid->geometry;
      run->layout->laid[s] = laid_segment_ref (seg->laid);
      g_atomic_int_inc (&run->req->segments_done);
      seg->x = -seg->geometry->width / 2;
      seg->y = run->y;
      run->y += seg->geometry->height + SEGMENT_GAP;
      run->min_x = MIN (run->min_x, seg->x);
      run->max_x = MAX (run->max_x, seg->x + seg->geometry->width);
    }
  return TRUE;
}

/* Boxes. */
static void
place_boxes (Run *run)
{
  for (guint b = 0; b < run->n_boxes; b++)
    {
      GraftLayoutNode *box = &g_array_index (run->layout->nodes, GraftLayoutNode, b);
      Segment         *seg = &run->segments[run->segment_of[b]];
      GraftPoint       c =
          seg->geometry->centers[g_array_index (seg->box_local, guint, b - seg->first_box)];

      box->box.x = seg->x + c.x - box->box.width / 2;
      box->box.y = seg->y + c.y - box->box.height / 2;
    }
}

/* Frames: a segment's clusters, outer ones first. */
static void
place_frames (Run *run)
{
  for (guint s = 0; s < run->n_segments; s++)
    {
      Segment *seg = &run->segments[s];

      for (guint c = 0; c < seg->clusters->len; c++)
        {
          const RequestFrame *rf = &g_array_index (run->req->frames, RequestFrame,
                                                   g_array_index (seg->cluster_frame, guint, c));
          GraftLayoutFrame    frame = { seg->geometry->clusters[c] };

          frame.box.x += seg->x;
          frame.box.y += seg->y;
          frame.scope = g_string_chunk_insert_const (run->layout->strings, rf->scope);
          frame.label = g_string_chunk_insert_const (run->layout->strings, rf->label);
          frame.depth = rf->depth;
          g_array_append_val (run->layout->frames, frame);
        }
    }
}

/* Shift everything so the drawing starts at (MARGIN, MARGIN). */
static void
shift_drawing (Run *run)
{
  GraftLayout *self = run->layout;
  double       dx = MARGIN - run->min_x;
  double       dy = MARGIN;

  for (guint b = 0; b < run->n_boxes; b++)
    {
      GraftLayoutNode *box = &g_array_index (self->nodes, GraftLayoutNode, b);

      box->box.x += dx;
      box->box.y += dy;
    }
  for (guint f = 0; f < self->frames->len; f++)
    {
      g_array_index (self->frames, GraftLayoutFrame, f).box.x += dx;
      g_array_index (self->frames, GraftLayoutFrame, f).box.y += dy;
    }
  for (guint k = 0; k < self->points->len; k++)
    {
      g_array_index (self->points, GraftPoint, k).x += dx;
      g_array_index (self->points, GraftPoint, k).y += dy;
    }
  for (guint e = 0; e < self->edges->len; e++)
    {
      GraftLayoutEdge *edge = &g_array_index (self->edges, GraftLayoutEdge, e);

      edge->points = &g_array_index (self->points, GraftPoint, GPOINTER_TO_UINT (edge->points));
      edge->arrow_tip.x += dx;
      edge->arrow_tip.y += dy;
    }
  self->width = run->max_x - run->min_x + 2 * MARGIN;
  self->height = MAX (run->y - SEGMENT_GAP, 0) + 2 * MARGIN;
}

/* Left to right is top to bottom transposed: every phase works top to
 * bottom on boxes whose width and height are swapped (so dot leaves each
 * the room it takes once turned), and the finished drawing is mirrored in
 * its diagonal.  Segments then run left to right, and the lanes between
 * distant segments run above the drawing. */
static void
swap_box_sizes (Run *run)
{
  for (guint b = 0; b < run->n_boxes; b++)
    {
      GraftRect *r = &g_array_index (run->layout->nodes, GraftLayoutNode, b).box;
      double     w = r->width;

      r->width = r->height;
      r->height = w;
    }
}

static void
transpose_drawing (GraftLayout *self)
{
  double size = self->width;

  for (guint b = 0; b < self->nodes->len; b++)
    {
      GraftRect *r = &g_array_index (self->nodes, GraftLayoutNode, b).box;
      double     cx = r->x + r->width / 2;
      double     cy = r->y + r->height / 2;
      double     w = r->height;

      r->height = r->width;
      r->width = w;
      r->x = cy - r->width / 2;
      r->y = cx - r->height / 2;
    }
  for (guint k = 0; k < self->points->len; k++)
    {
      GraftPoint *p = &g_array_index (self->points, GraftPoint, k);
      double      x = p->x;

      p->x = p->y;
      p->y = x;
    }
  for (guint e = 0; e < self->edges->len; e++)
    {
      GraftPoint *tip = &g_array_index (self->edges, GraftLayoutEdge, e).arrow_tip;
      double      x = tip->x;

      tip->x = tip->y;
      tip->y = x;
    }
  self->width = self->height;
  self->height = size;
}

/* For tests: when not 0, the drawing limit instead of
 * GRAFT_MAX_LAYOUT_NODES (_graft_layout_set_max_nodes()). */
static guint max_layout_nodes;

/**
 * graft_layout_check_n_nodes:
 * @n_nodes: how many boxes a drawing would have (a graph's nodes, unfolded)
 * @error: return location for an error
 *
 * Says whether a layout of @n_nodes boxes is within the drawing limit
 * (%GRAFT_MAX_LAYOUT_NODES), as graft_layout_request_run() checks it, so
 * that a caller refuses a graph too big to draw before making its request.
 *
 * Returns: %TRUE if it is; else %FALSE with @error set as the run sets it
 */
gboolean
graft_layout_check_n_nodes (guint    n_nodes,
                            GError **error)
{
  guint max = max_layout_nodes > 0 ? max_layout_nodes : GRAFT_MAX_LAYOUT_NODES;

  if (n_nodes <= max)
    return TRUE;
  g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_LIMIT,
               "the graph has %u nodes; graft draws at most %u", n_nodes, max);
  return FALSE;
}

/**
 * _graft_layout_set_max_nodes:
 * @max_nodes: the drawing limit, or 0 for %GRAFT_MAX_LAYOUT_NODES
 *
 * For tests: a small graph refused as a million nodes are.  Set it
 * while no layout runs (the workers read it unlocked).
 */
void
_graft_layout_set_max_nodes (guint max_nodes)
{
  max_layout_nodes = max_nodes;
}

/**
 * graft_layout_request_run:
 * @self: a request
 * @error: return location for an error
 *
 * Lays the requested graph out.  Touches only @self, so it may run on any
 * thread (one thread per request at a time); Graphviz calls are serialised
 * process-wide.
 *
 * Returns: (transfer full) (nullable): the layout
 */
GraftLayout *
graft_layout_request_run (GraftLayoutRequest *req,
                          GError            **error)
{
  GraftLayout *layout = NULL;
  Run          run;

  g_return_val_if_fail (req != NULL, NULL);

  if (!graft_layout_check_n_nodes (req->n_nodes, error))
    return NULL;

  run_init (&run, req);
  find_hubs (&run);
  add_boxes (&run);
  if (req->direction == GRAFT_LAYOUT_LEFT_TO_RIGHT)
    swap_box_sizes (&run);
  cut_segments (&run);
  add_segment_boxes (&run);
  add_segment_edges (&run);
  tie_unused_weights (&run);
  if (lay_out_segments (&run, error))
    {
      place_boxes (&run);
      place_frames (&run);
      _graft_layout_assign_lanes (&run);
      _graft_layout_route_edges (&run, run.layout->points, run.layout->edges);
      shift_drawing (&run);
      if (req->direction == GRAFT_LAYOUT_LEFT_TO_RIGHT)
        transpose_drawing (run.layout);
      layout = g_steal_pointer (&run.layout);
    }
  run_clear (&run);
  if (layout != NULL)
    build_index (layout);
  return layout;
}

/**
 * graft_layout_new:
 * @graph: a graph
 * @error: return location for an error
 *
 * Lays @graph out: graft_layout_request_new() and
 * graft_layout_request_run() in one call.
 *
 * Returns: (transfer full) (nullable): the layout
 */
GraftLayout *
graft_layout_new (GraftGraph *graph,
                  GError    **error)
{
  g_autoptr (GraftLayoutRequest) req = graft_layout_request_new (graph);

  return graft_layout_request_run (req, error);
}

/**
 * graft_layout_ref:
 * @self: a layout
 *
 * Takes a reference, for a holder on another thread (an export drawing
 * the layout on screen while the canvas moves on).  What the renderer and
 * the queries read never changes once the layout is made, so holders may
 * read it at once on different threads; graft_layout_find_node() builds
 * an index on first use, so only one thread may call it.
 *
 * Returns: (transfer full): @self
 */
GraftLayout *
graft_layout_ref (GraftLayout *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

/**
 * graft_layout_free:
 * @self: (transfer full) (nullable): a layout
 *
 * Drops the caller's reference; the last one frees the layout.
 */
void
graft_layout_free (GraftLayout *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_string_chunk_free (self->strings);
  g_array_unref (self->nodes);
  g_array_unref (self->edges);
  g_array_unref (self->points);
  for (guint s = 0; self->laid != NULL && s < self->n_segments; s++)
    laid_segment_unref (self->laid[s]);
  g_free (self->laid);
  g_free (self->segment_start);
  g_free (self->segment_first);
  g_free (self->reused);
  g_free (self->main_of);
  node_names_unref (self->all_names);
  g_array_unref (self->members);
  g_array_unref (self->frames);
  g_free (self->band_box_start);
  g_free (self->band_edge_start);
  g_clear_pointer (&self->band_boxes, g_array_unref);
  g_clear_pointer (&self->band_edges, g_array_unref);
  g_free (self);
}

/**
 * graft_layout_get_n_nodes:
 * @self: a layout
 *
 * Returns: the number of boxes (graph nodes and stubs)
 */
guint
graft_layout_get_n_nodes (GraftLayout *self)
{
  return self->nodes->len;
}

/**
 * graft_layout_get_node:
 * @self: a layout
 * @i: a box index
 *
 * Returns: (transfer none): box @i, valid as long as @self
 */
const GraftLayoutNode *
graft_layout_get_node (GraftLayout *self,
                       guint        i)
{
  g_return_val_if_fail (i < self->nodes->len, NULL);
  return &g_array_index (self->nodes, GraftLayoutNode, i);
}

/**
 * graft_layout_get_node_extent:
 * @self: a layout
 * @i: a box index
 * @out_rect: (out): where box @i's drawing reaches
 *
 * Box @i and what is drawn with it: the annotation under it (a program's
 * `f32[2, 3]`), below the cards of a folded box, and as wide as its text
 * where that is wider than the box (a stub's).  What marks a box from
 * outside (the canvas's keyboard ring) goes around this, not across the
 * annotation.
 */
void
graft_layout_get_node_extent (GraftLayout *self,
                              guint        i,
                              GraftRect   *out_rect)
{
  const GraftLayoutNode *box;
  GraftText             *text;
  double                 width;

  g_return_if_fail (i < self->nodes->len);
  box = &g_array_index (self->nodes, GraftLayoutNode, i);
  *out_rect = box->box;
  if (box->annotation == NULL)
    return;
  /* As graft-render.c's draw_annotation() places it. */
  out_rect->height +=
      GRAFT_EDGE_LABEL_GAP + GRAFT_EDGE_LABEL_HEIGHT + (box->n_members > 0 ? 6.0 : 0.0);
  /* Other boxes are made as wide as their annotation (add_box()). */
  if (!box->is_stub)
    return;
  text = _graft_text_new ();
  width = _graft_text_width (text, GRAFT_TEXT_EDGE, box->annotation) + 3;
  _graft_text_free (text);
  if (width > out_rect->width)
    {
      out_rect->x -= (width - out_rect->width) / 2;
      out_rect->width = width;
    }
}

/**
 * graft_layout_get_n_edges:
 * @self: a layout
 *
 * Returns: the number of edges
 */
guint
graft_layout_get_n_edges (GraftLayout *self)
{
  return self->edges->len;
}

/**
 * graft_layout_get_edge:
 * @self: a layout
 * @i: an edge index
 *
 * Returns: (transfer none): edge @i, valid as long as @self
 */
const GraftLayoutEdge *
graft_layout_get_edge (GraftLayout *self,
                       guint        i)
{
  g_return_val_if_fail (i < self->edges->len, NULL);
  return &g_array_index (self->edges, GraftLayoutEdge, i);
}

/**
 * graft_layout_get_n_graph_nodes:
 * @self: a layout
 *
 * Returns: the number of nodes of the graph that was laid out
 */
guint
graft_layout_get_n_graph_nodes (GraftLayout *self)
{
  return self->n_graph_nodes;
}

/**
 * graft_layout_lookup:
 * @self: a layout
 * @node_index: a graph node's position in graph order
 *
 * Returns: the box of that node (not one of its stubs; the box of its
 *   collapsed scope when it is folded), or -1 when it is not drawn
 */
gint
graft_layout_lookup (GraftLayout *self,
                     guint        node_index)
{
  if (node_index >= self->n_graph_nodes || self->main_of[node_index] == G_MAXUINT)
    return -1;
  return (gint) self->main_of[node_index];
}

/**
 * graft_layout_get_node_name:
 * @self: a layout
 * @node_index: a graph node's position in graph order
 *
 * Returns: (transfer none): the name of that node of the graph laid out,
 *   drawn or not
 */
const char *
graft_layout_get_node_name (GraftLayout *self,
                            guint        node_index)
{
  g_return_val_if_fail (node_index < self->n_graph_nodes, NULL);
  return self->node_names[node_index];
}

/**
 * graft_layout_get_members:
 * @self: a layout
 * @box: a box index
 * @out_n: (out): how many graph nodes the box holds
 *
 * Returns: (transfer none) (array length=out_n): the graph nodes (positions
 *   in graph order) a collapsed scope's box holds; none for other boxes
 */
const guint *
graft_layout_get_members (GraftLayout *self,
                          guint        box,
                          guint       *out_n)
{
  const GraftLayoutNode *b;

  g_return_val_if_fail (box < self->nodes->len, NULL);
  b = &g_array_index (self->nodes, GraftLayoutNode, box);
  *out_n = b->n_members;
  return b->n_members > 0 ? &g_array_index (self->members, guint, b->first_member) : NULL;
}

/**
 * graft_layout_find_node:
 * @self: a layout
 * @name: a graph node's name
 *
 * Returns: the box of the node called @name (its collapsed scope's box when
 *   it is folded), or -1 when no drawn box holds it
 */
gint
graft_layout_find_node (GraftLayout *self,
                        const char  *name)
{
  gint node = graft_layout_find_graph_node (self, name);

  return node >= 0 && self->main_of[node] != G_MAXUINT ? (gint) self->main_of[node] : -1;
}

/**
 * graft_layout_find_graph_node:
 * @self: a layout
 * @name: a graph node's name
 *
 * Returns: the position in graph order of the node called @name (drawn or
 *   not), or -1 when the layout's graph has none
 */
gint
graft_layout_find_graph_node (GraftLayout *self,
                              const char  *name)
{
  return node_names_find (self->all_names, name);
}

/**
 * graft_layout_has_shared_names:
 * @self: a layout
 *
 * Returns: whether two of the layout's graph nodes have one name (a read
 *   program's copy named as torch names it, docs/programs.md): then
 *   graft_layout_find_graph_node() finds the last of them only, and a
 *   caller that means every node of a name looks at each node's name
 */
gboolean
graft_layout_has_shared_names (GraftLayout *self)
{
  return self->all_names->shared;
}

/**
 * graft_layout_find_graph_nodes:
 * @self: a layout
 * @names: (array length=n): graph nodes' names
 * @n: how many
 * @out: (array length=n): for each name, graft_layout_find_graph_node()
 *
 * graft_layout_find_graph_node() of many names at once, faster than one by
 * one (the index's memory is fetched for several names together).
 */
void
graft_layout_find_graph_nodes (GraftLayout       *self,
                               const char *const *names,
                               guint              n,
                               gint              *out)
{
  node_names_find_all (self->all_names, names, n, out);
}

/**
 * graft_layout_get_size:
 * @self: a layout
 * @out_width: (out) (optional): the drawing's width in points
 * @out_height: (out) (optional): its height
 */
void
graft_layout_get_size (GraftLayout *self,
                       double      *out_width,
                       double      *out_height)
{
  if (out_width != NULL)
    *out_width = self->width;
  if (out_height != NULL)
    *out_height = self->height;
}

/**
 * graft_layout_hit_test:
 * @self: a layout
 * @x: a point in layout coordinates
 * @y: its y
 *
 * Returns: the box at (@x, @y), or -1
 */
gint
graft_layout_hit_test (GraftLayout *self,
                       double       x,
                       double       y)
{
  gint band = (gint) floor (y / BAND_HEIGHT);
  gint hit = -1;

  if (band < 0 || (guint) band >= self->n_bands)
    return -1;
  /* The last box drawn wins, as on screen: boxes are drawn in index order. */
  for (guint k = self->band_box_start[band]; k < self->band_box_start[band + 1]; k++)
    {
      guint            i = g_array_index (self->band_boxes, guint, k);
      const GraftRect *r = &g_array_index (self->nodes, GraftLayoutNode, i).box;

      if (x >= r->x && x <= r->x + r->width && y >= r->y && y <= r->y + r->height && (gint) i > hit)
        hit = (gint) i;
    }
  return hit;
}

/**
 * graft_layout_query:
 * @self: a layout
 * @x1: left of a rectangle in layout coordinates
 * @y1: its top
 * @x2: its right
 * @y2: its bottom
 * @out_boxes: (element-type guint): receives, in increasing order, every
 *   box that may reach into the rectangle (grown by 10 points for rings
 *   and badges)
 * @out_edges: (nullable) (element-type guint): receives, in increasing
 *   order, every edge whose points may reach into it
 *
 * Finds what to draw for one view through the layout's spatial index:
 * time grows with what is near the rectangle, not with the graph.
 */
void
graft_layout_query (GraftLayout *self,
                    double       x1,
                    double       y1,
                    double       x2,
                    double       y2,
                    GArray      *out_boxes,
                    GArray      *out_edges)
{
  gint  first;
  gint  last;
  guint from;

  g_return_if_fail (self != NULL && out_boxes != NULL);

  if (self->n_bands == 0)
    return;
  first = CLAMP ((gint) floor ((y1 - QUERY_GROW) / BAND_HEIGHT), 0, (gint) self->n_bands - 1);
  last = CLAMP ((gint) floor ((y2 + QUERY_GROW) / BAND_HEIGHT), 0, (gint) self->n_bands - 1);
  from = out_boxes->len;
  query_bands (self->band_box_start, self->band_boxes, first, last, out_boxes);
  if (out_edges != NULL)
    query_bands (self->band_edge_start, self->band_edges, first, last, out_edges);
  /* Within the bands, only what overlaps horizontally (of what was added:
   * like query_bands, this appends to what the arrays held). */
  {
    guint kept = from;

    for (guint k = from; k < out_boxes->len; k++)
      {
        guint            i = g_array_index (out_boxes, guint, k);
        const GraftRect *r = &g_array_index (self->nodes, GraftLayoutNode, i).box;

        if (r->x - QUERY_GROW <= x2 && r->x + r->width + QUERY_GROW >= x1)
          g_array_index (out_boxes, guint, kept++) = i;
      }
    g_array_set_size (out_boxes, kept);
  }
}

/**
 * graft_layout_get_n_segments:
 * @self: a layout
 *
 * Returns: how many segments dot laid out separately (1 for small graphs)
 */
guint
graft_layout_get_n_segments (GraftLayout *self)
{
  return self->n_segments;
}

/**
 * graft_layout_get_n_reused_segments:
 * @self: a layout
 *
 * Returns: how many of its segments were not laid out by dot but taken
 *   from an identical one: of the previous layout
 *   (graft_layout_request_set_previous()), or an earlier segment of this
 *   one
 */
guint
graft_layout_get_n_reused_segments (GraftLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_reused;
}

/**
 * graft_layout_get_segment:
 * @self: a layout
 * @s: a segment index, below graft_layout_get_n_segments()
 * @out_first: (out) (optional): its first box
 * @out_end: (out) (optional): one past its last box (boxes of a segment
 *   are consecutive; stubs included)
 *
 * Returns: whether its geometry was reused rather than made by dot (see
 *   graft_layout_get_n_reused_segments())
 */
gboolean
graft_layout_get_segment (GraftLayout *self,
                          guint        s,
                          guint       *out_first,
                          guint       *out_end)
{
  g_return_val_if_fail (self != NULL && s < self->n_segments, FALSE);
  if (out_first != NULL)
    *out_first = self->segment_start[s];
  if (out_end != NULL)
    *out_end = self->segment_start[s + 1];
  return self->reused[s];
}

/**
 * graft_layout_get_n_frames:
 * @self: a layout
 *
 * Returns: how many frames (open modules, per segment) the layout has
 */
guint
graft_layout_get_n_frames (GraftLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->frames->len;
}

/**
 * graft_layout_get_frame:
 * @self: a layout
 * @i: a frame index; a frame comes after the frames that hold it
 *
 * Returns: (transfer none): frame @i, valid as long as @self
 */
const GraftLayoutFrame *
graft_layout_get_frame (GraftLayout *self,
                        guint        i)
{
  g_return_val_if_fail (self != NULL && i < self->frames->len, NULL);
  return &g_array_index (self->frames, GraftLayoutFrame, i);
}

/**
 * graft_layout_get_frame_control:
 * @frame: a frame
 * @out_rect: (out): where its collapse control is, at the right end of its
 *   label band
 */
void
graft_layout_get_frame_control (const GraftLayoutFrame *frame,
                                GraftRect              *out_rect)
{
  g_return_if_fail (frame != NULL && out_rect != NULL);
  out_rect->x = frame->box.x + frame->box.width - CONTROL_SIZE - CONTROL_INSET;
  out_rect->y = frame->box.y + CONTROL_INSET;
  out_rect->width = CONTROL_SIZE;
  out_rect->height = CONTROL_SIZE;
}

/**
 * graft_layout_get_box_control:
 * @self: a layout
 * @box: a box index
 * @out_rect: (out): where the box's expand control is
 *
 * Returns: whether @box has one: it is a folded module's
 */
gboolean
graft_layout_get_box_control (GraftLayout *self,
                              guint        box,
                              GraftRect   *out_rect)
{
  const GraftLayoutNode *b;

  g_return_val_if_fail (self != NULL && box < self->nodes->len, FALSE);
  b = &g_array_index (self->nodes, GraftLayoutNode, box);
  if (b->n_members == 0 || b->is_stub)
    return FALSE;
  out_rect->x = b->box.x + CONTROL_INSET;
  out_rect->y = b->box.y + CONTROL_INSET;
  out_rect->width = CONTROL_SIZE;
  out_rect->height = CONTROL_SIZE;
  return TRUE;
}

static gboolean
in_rect (const GraftRect *r,
         double           x,
         double           y)
{
  return x >= r->x && x <= r->x + r->width && y >= r->y && y <= r->y + r->height;
}

/**
 * graft_layout_hit_control:
 * @self: a layout
 * @x: a point in layout coordinates
 * @y: its y
 * @out_scope: (out) (transfer none): the module the control folds or opens
 * @out_expand: (out): %TRUE for a folded box's expand control, %FALSE for
 *   a frame's collapse control
 *
 * Returns: whether (@x, @y) is on a control
 */
gboolean
graft_layout_hit_control (GraftLayout *self,
                          double       x,
                          double       y,
                          const char **out_scope,
                          gboolean    *out_expand)
{
  gint      box;
  GraftRect r;

  g_return_val_if_fail (self != NULL, FALSE);
  box = graft_layout_hit_test (self, x, y);
  if (box >= 0)
    {
      if (graft_layout_get_box_control (self, (guint) box, &r) && in_rect (&r, x, y))
        {
          *out_scope = g_array_index (self->nodes, GraftLayoutNode, box).name;
          *out_expand = TRUE;
          return TRUE;
        }
      return FALSE;
    }
  /* Inner frames are drawn last, over their outer ones. */
  for (guint f = self->frames->len; f-- > 0;)
    {
      const GraftLayoutFrame *frame = &g_array_index (self->frames, GraftLayoutFrame, f);

      graft_layout_get_frame_control (frame, &r);
      if (in_rect (&r, x, y))
        {
          *out_scope = frame->scope;
          *out_expand = FALSE;
          return TRUE;
        }
    }
  return FALSE;
}
