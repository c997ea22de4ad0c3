/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pt2-strings.c: the strings a `.pt2` reader hands to its nodes,
 * interned in the graph once per distinct text.  A program repeats its
 * metadata: every node of a block carries the same stack trace, the same
 * outer module frames, the same dtype and device.  The graph's own
 * interning (graft_graph_intern(), a GStringChunk) hashes a string a byte
 * at a time and compares it again on every call, which at a million nodes
 * was a large part of reading; here a table of the texts already seen,
 * hashed eight bytes at a time, gives the graph's copy, so that the node
 * takes it as it is (_graft_node_set_meta_interned()).  The module frames
 * of an `nn_module_stack` are cached the same way, by their text.  Both
 * remember only the texts met lately (a cache of PT2_CACHE_SIZE slots).
 */
#include "config.h"

#include "graft-pt2-private.h"
#include "graft-graph-private.h"
#include "graft-limits.h"

#include <string.h>

/* A key is part of the JSON, at most GRAFT_MAX_JSON_BYTES long, so its
 * length fits a name slot's. */
G_STATIC_ASSERT (GRAFT_MAX_JSON_BYTES <= G_MAXUINT32);

/* A hash of the @len bytes at @p, eight at a time (the name table's own
 * hashes a byte at a time): the graph's hash of its interned texts, so
 * that a text the caches miss is interned without hashing it again. */
guint
_graft_pt2_hash (const char *p,
                 gsize       len)
{
  return _graft_graph_hash_text (p, len);
}

/* An empty table of borrowed keys. */
void
_graft_pt2_table_init (GraftNameTable *table)
{
  _graft_name_table_init (table, FALSE);
}

/**
 * The slot of the @len bytes at @key in @table, or %NULL; *@out_hash is
 * their hash, for _graft_pt2_table_fill().
 */
GraftNameSlot *
_graft_pt2_table_lookup (GraftNameTable *table,
                         const char     *key,
                         gsize           len,
                         guint          *out_hash)
{
  *out_hash = _graft_pt2_hash (key, len);
  return _graft_name_table_find (table, key, len, *out_hash);
}

/* Adds @key (borrowed), which _graft_pt2_table_lookup() did not find. */
void
_graft_pt2_table_fill (GraftNameTable *table,
                       const char     *key,
                       gsize           len,
                       guint           hash,
                       gpointer        value)
{
  _graft_name_table_insert_len (table, key, (guint) len, hash, value);
}

/* The value of the NUL-terminated @key, or %NULL. */
gpointer
_graft_pt2_table_get (GraftNameTable *table,
                      const char     *key)
{
  guint          hash;
  GraftNameSlot *slot = _graft_pt2_table_lookup (table, key, strlen (key), &hash);

  return slot != NULL ? slot->value : NULL;
}

/* Sets the value of the NUL-terminated @key (borrowed: it must outlive
 * the table); returns the value it replaces, or %NULL. */
gpointer
_graft_pt2_table_set (GraftNameTable *table,
                      const char     *key,
                      gpointer        value)
{
  gsize          len = strlen (key);
  guint          hash;
  GraftNameSlot *slot = _graft_pt2_table_lookup (table, key, len, &hash);
  gpointer       old;

  if (slot == NULL)
    {
      _graft_pt2_table_fill (table, key, len, hash, value);
      return NULL;
    }
  old = slot->value;
  slot->value = value;
  return old;
}

/* Frees every value of @table with @free_value, then the table. */
void
_graft_pt2_table_clear_full (GraftNameTable *table,
                             GDestroyNotify  free_value)
{
  for (guint k = 0; table->slots != NULL && k <= table->mask; k++)
    if (table->slots[k].key != NULL)
      free_value (table->slots[k].value);
  _graft_name_table_clear (table);
}

/* A cache slot's: the same @len bytes as @text, hashed @hash. */
static inline gboolean
slot_holds (const GraftNameSlot *slot,
            const char          *text,
            gsize                len,
            guint                hash)
{
  return slot->key != NULL && slot->hash == hash && slot->len == len &&
         memcmp (slot->key, text, len) == 0;
}

/* The slot of @hash in a cache of PT2_CACHE_SIZE slots. */
GraftNameSlot *
_graft_pt2_cache_slot (GraftNameSlot *cache,
                       const char    *text,
                       gsize          len,
                       guint         *out_hash,
                       gboolean      *out_hit)
{
  guint          hash = _graft_pt2_hash (text, len);
  GraftNameSlot *slot = &cache[hash & (PT2_CACHE_SIZE - 1)];

  *out_hash = hash;
  *out_hit = slot_holds (slot, text, len, hash);
  return slot;
}

/**
 * The graph's copy of the @len bytes at @text (no NUL among them; @text
 * need not end after them), as graft_graph_intern() would give it.  The
 * texts met lately are remembered in a small cache, not every text: a
 * program's repeated texts (stack traces, module types, shapes) come back
 * often, its unique ones (each node's `torch_fn`, each module's path)
 * never, and a table of all of them was a cache miss for each.
 */
const char *
_graft_pt2_intern_len (Reader     *r,
                       const char *text,
                       gsize       len)
{
  guint          hash;
  gboolean       hit;
  GraftNameSlot *slot = _graft_pt2_cache_slot (r->string_cache, text, len, &hash, &hit);
  const char    *copy;

  if (hit)
    return slot->value;
  copy = _graft_graph_intern_hashed (r->graph, text, len, hash);
  *slot = (GraftNameSlot){ copy, hash, (guint) len, (gpointer) copy };
  return copy;
}

/* _graft_pt2_intern_len() of a NUL-terminated @text; %NULL stays %NULL. */
const char *
_graft_pt2_intern (Reader     *r,
                   const char *text)
{
  return text != NULL ? _graft_pt2_intern_len (r, text, strlen (text)) : NULL;
}

/* _graft_pt2_intern_len() of the @len bytes at @text whose
 * _graft_pt2_hash() is @hash (made on another thread, or by
 * _graft_pt2_intern_prepare()). */
const char *
_graft_pt2_intern_hashed (Reader     *r,
                          const char *text,
                          gsize       len,
                          guint       hash)
{
  GraftNameSlot *slot = &r->string_cache[hash & (PT2_CACHE_SIZE - 1)];
  const char    *copy;

  if (slot_holds (slot, text, len, hash))
    return slot->value;
  copy = _graft_graph_intern_hashed (r->graph, text, len, hash);
  *slot = (GraftNameSlot){ copy, hash, (guint) len, (gpointer) copy };
  return copy;
}

/**
 * The _graft_pt2_hash() of the @len bytes at @text, for
 * _graft_pt2_intern_hashed() soon after: the slot of the graph's table
 * that a miss of the reader's cache will look at is brought toward the
 * processor meanwhile.  A node's unique texts (its `torch_fn`, its
 * `source_fn_stack`, its own module's key and path) each miss in a table
 * of millions; prepared together, their misses overlap.
 */
guint
_graft_pt2_intern_prepare (Reader     *r,
                           const char *text,
                           gsize       len)
{
  guint hash = _graft_pt2_hash (text, len);

  _graft_graph_prefetch_interned (r->graph, hash);
  return hash;
}
