/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pt2-names.c: the values and nodes of a `.pt2` program found by
 * their names, mostly by where torch wrote them rather than through a
 * hash table.  At a million nodes a table of every name is tens of
 * megabytes, and each lookup in it a cache miss or two; reading a node
 * looked names up five to ten times (its value, its arguments, whether
 * it was defined before), which was most of building the graph.
 *
 * torch writes `tensor_values` in the order the graph made its values:
 * the inputs, then each node's outputs, which is the order the reader
 * asks for them; so a cursor that moves past each value found answers
 * (one comparison of the name).  A node's arguments are mostly values made
 * just before it, or the next parameter or buffer after the last one
 * used (a convolution takes its weight, a batch norm its weight and
 * bias, then its running mean and variance, two runs of the placeholders
 * read in step); the last few nodes and a few such runs are tried first,
 * by a hash of the name, compared in a small array.  What they miss is
 * searched for in that array, a few times, then in a hash table made
 * when the searches have read too much.  Either
 * way the answer is the one a table of every name would give: names are
 * unique among the nodes and among the keys of `tensor_values`.
 */
#include "config.h"

#include "graft-pt2-private.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* Values */

void
_graft_pt2_values_init (Pt2Values *values)
{
  memset (values, 0, sizeof *values);
  _graft_pt2_table_init (&values->others);
}

void
_graft_pt2_values_clear (Pt2Values *values)
{
  g_clear_pointer (&values->tensors, g_free);
  if (values->indexed)
    _graft_name_table_clear (&values->index);
  values->indexed = FALSE;
  _graft_pt2_table_clear_full (&values->others, g_free);
}

/* Makes room for the tensors of @dict (the object `tensor_values`), in
 * its order. */
Pt2Tensor *
_graft_pt2_values_set_tensors (Pt2Values *values,
                               Pt2Value  *dict)
{
  g_free (values->tensors);
  values->members = dict->v.members;
  values->n = dict->len;
  values->tensors = g_new0 (Pt2Tensor, MAX (dict->len, 1));
  return values->tensors;
}

/* The metadata of a symbolic value or a script object, later ones of a
 * name replacing earlier ones (and any tensor of that name). */
GraftNodeMeta *
_graft_pt2_values_add_other (Pt2Values     *values,
                             const char    *name,
                             GraftValueKind kind)
{
  GraftNodeMeta *meta = g_new0 (GraftNodeMeta, 1);

  meta->kind = kind;
  g_free (_graft_pt2_table_set (&values->others, name, meta));
  return meta;
}

/* The position of the tensor @name among the keys of `tensor_values`,
 * or -1. */
static gssize
tensor_position (Pt2Values  *values,
                 const char *name)
{
  gsize          len;
  guint          hash;
  GraftNameSlot *slot;

  if (values->cursor < values->n && strcmp (values->members[values->cursor].key, name) == 0)
    return values->cursor;
  if (!values->indexed)
    {
      _graft_name_table_init (&values->index, FALSE);
      values->indexed = TRUE;
      for (guint k = 0; k < values->n; k++)
        {
          const char *key = values->members[k].key;

          len = strlen (key);
          _graft_name_table_insert_len (&values->index, key, (guint) len,
                                        _graft_pt2_hash (key, len), GUINT_TO_POINTER (k + 1));
        }
    }
  len = strlen (name);
  hash = _graft_pt2_hash (name, len);
  slot = _graft_name_table_find (&values->index, name, len, hash);
  return slot != NULL ? (gssize) GPOINTER_TO_UINT (slot->value) - 1 : -1;
}

/* Fills @out with the metadata of the value @name; %FALSE when the
 * program has none. */
gboolean
_graft_pt2_values_find (Pt2Values     *values,
                        const char    *name,
                        GraftNodeMeta *out)
{
  const GraftNodeMeta *other;
  gssize               pos;

  if (values->others.n_items > 0 && (other = _graft_pt2_table_get (&values->others, name)) != NULL)
    {
      *out = *other;
      return TRUE;
    }
  if ((pos = tensor_position (values, name)) < 0)
    return FALSE;
  values->cursor = (guint) pos + 1;
  memset (out, 0, sizeof *out);
  out->kind = GRAFT_VALUE_TENSOR;
  out->dtype = values->tensors[pos].dtype;
  out->shape = values->tensors[pos].shape;
  out->stride = values->tensors[pos].stride;
  out->device = values->tensors[pos].device;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Nodes */

/* The last RECENT nodes, and N_RUNS runs of WINDOW nodes each (from
 * just after the last node found there), are tried before the table. */
#define RECENT 8
#define N_RUNS 4
#define WINDOW 3

/* The entries read in order, over all misses, before a table is made:
 * a few milliseconds of reading. */
#define SCAN_BUDGET (8u * 1024u * 1024u)

void
_graft_pt2_nodes_init (Pt2Nodes *nodes)
{
  memset (nodes, 0, sizeof *nodes);
}

void
_graft_pt2_nodes_clear (Pt2Nodes *nodes)
{
  g_clear_pointer (&nodes->known, g_free);
  nodes->n_known = nodes->size = 0;
  if (nodes->indexed)
    _graft_name_table_clear (&nodes->index);
  nodes->indexed = FALSE;
}

static void
index_known (Pt2Nodes *nodes,
             guint     k)
{
  Pt2Known *known = &nodes->known[k];

  _graft_name_table_insert_len (&nodes->index, known->name, known->len, known->hash,
                                GUINT_TO_POINTER (k + 1));
}

/* Records @node, whose name no node recorded has, to be found by it. */
void
_graft_pt2_nodes_add (Pt2Nodes  *nodes,
                      GraftNode *node)
{
  const char *name = graft_node_get_name (node);
  gsize       len = strlen (name);
  Pt2Known   *known;

  if (nodes->n_known == nodes->size)
    {
      nodes->size = MAX (nodes->size * 2, 256);
      nodes->known = g_renew (Pt2Known, nodes->known, nodes->size);
    }
  known = &nodes->known[nodes->n_known++];
  known->name = name;
  known->node = node;
  known->len = (guint) len;
  known->hash = _graft_pt2_hash (name, len);
  if (nodes->indexed)
    index_known (nodes, nodes->n_known - 1);
}

static inline gboolean
is_known (const Pt2Known *known,
          const char     *name,
          gsize           len,
          guint           hash)
{
  return known->hash == hash && known->len == len && memcmp (known->name, name, len) == 0;
}

/* The run @i moved first, to start after @k. */
static void
move_run (Pt2Nodes *nodes,
          guint     i,
          guint     k)
{
  memmove (&nodes->runs[1], &nodes->runs[0], i * sizeof nodes->runs[0]);
  nodes->runs[0] = k + 1;
}

/* The node recorded as @name (@len bytes, NUL-terminated or not), or
 * %NULL. */
GraftNode *
_graft_pt2_nodes_find (Pt2Nodes   *nodes,
                       const char *name,
                       gsize       len)
{
  guint          hash = _graft_pt2_hash (name, len);
  guint          n = nodes->n_known;
  GraftNameSlot *slot;
  guint          k;

  for (k = n; k > 0 && k + RECENT > n; k--)
    if (is_known (&nodes->known[k - 1], name, len, hash))
      return nodes->known[k - 1].node;
  for (guint i = 0; i < N_RUNS; i++)
    for (k = nodes->runs[i]; k < n && k < nodes->runs[i] + WINDOW; k++)
      if (is_known (&nodes->known[k], name, len, hash))
        {
          move_run (nodes, i, k);
          return nodes->known[k].node;
        }
  /* A few misses (the first buffer a program uses, far after the
   * parameters) are cheaper found by reading the hashes in order than by
   * keeping a table of every name; past SCAN_BUDGET entries read so, the
   * table is made. */
  if (!nodes->indexed && nodes->scanned + n <= SCAN_BUDGET)
    {
      nodes->scanned += n;
      for (k = 0; k < n; k++)
        if (is_known (&nodes->known[k], name, len, hash))
          {
            move_run (nodes, N_RUNS - 1, k);
            return nodes->known[k].node;
          }
      return NULL;
    }
  if (!nodes->indexed)
    {
      _graft_name_table_init (&nodes->index, FALSE);
      nodes->indexed = TRUE;
      for (k = 0; k < n; k++)
        index_known (nodes, k);
    }
  slot = _graft_name_table_find (&nodes->index, name, len, hash);
  if (slot == NULL)
    return NULL;
  k = GPOINTER_TO_UINT (slot->value) - 1;
  move_run (nodes, N_RUNS - 1, k);
  return nodes->known[k].node;
}
