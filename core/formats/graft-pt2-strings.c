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
 * of an `nn_module_stack` are cached the same way, by their text.
 */
#include "config.h"

#include "graft-pt2-private.h"
#include "graft-limits.h"

#include <string.h>

/* 24 bytes: a key is part of the JSON, at most GRAFT_MAX_JSON_BYTES long
 * (_graft_pt2_intern_len() keeps longer texts out). */
struct _Pt2Slot
{
  const char *key; /* NULL: empty */
  gpointer    value;
  guint32     hash; /* the hash's low bits */
  guint32     len;
};

G_STATIC_ASSERT (GRAFT_MAX_JSON_BYTES <= G_MAXUINT32);

static inline guint64
mix (guint64 h,
     guint64 w)
{
  h = (h ^ w) * G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  return h ^ (h >> 32);
}

/* A hash of the @len bytes at @p, eight at a time. */
static guint64
hash_bytes (const char *p,
            gsize       len)
{
  guint64 h = G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^ len;
  gsize   n = len;

  for (; n >= 8; n -= 8, p += 8)
    {
      guint64 w;

      memcpy (&w, p, 8);
      h = mix (h, w);
    }
  if (n > 0)
    {
      guint64 w = 0;

      memcpy (&w, p, n);
      h = mix (h, w);
    }
  h ^= h >> 29;
  h *= G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  return h ^ (h >> 32);
}

static Pt2Slot *
table_find (Pt2Table   *table,
            const char *key,
            gsize       len,
            guint64     hash)
{
  gsize i = (gsize) hash & table->mask;

  for (;; i = (i + 1) & table->mask)
    {
      Pt2Slot *slot = &table->slots[i];

      if (slot->key == NULL || (slot->hash == (guint32) hash && slot->len == len &&
                                memcmp (slot->key, key, len) == 0))
        return slot;
    }
}

/* Makes room for one more entry (the load stays under two thirds). */
static void
table_reserve (Pt2Table *table)
{
  Pt2Slot *old = table->slots;
  gsize    old_size = old != NULL ? table->mask + 1 : 0;

  if (old != NULL && (table->used + 1) * 3 <= old_size * 2)
    return;
  table->mask = old_size > 0 ? old_size * 2 - 1 : 255;
  table->slots = g_new0 (Pt2Slot, table->mask + 1);
  for (gsize k = 0; k < old_size; k++)
    if (old[k].key != NULL)
      *table_find (table, old[k].key, old[k].len, old[k].hash) = old[k];
  g_free (old);
}

/**
 * The slot of the @len bytes at @key in @table (found, or empty and to be
 * filled by the caller with @key, @len, *@out_hash and its value).
 */
Pt2Slot *
_graft_pt2_table_lookup (Pt2Table   *table,
                         const char *key,
                         gsize       len,
                         guint64    *out_hash)
{
  guint64 hash = hash_bytes (key, len);

  table_reserve (table);
  *out_hash = hash;
  return table_find (table, key, len, hash);
}

/* Fills an empty slot _graft_pt2_table_lookup() returned. */
void
_graft_pt2_table_fill (Pt2Table   *table,
                       Pt2Slot    *slot,
                       const char *key,
                       gsize       len,
                       guint64     hash,
                       gpointer    value)
{
  slot->hash = (guint32) hash;
  slot->key = key;
  slot->len = (guint32) len;
  slot->value = value;
  table->used++;
}

gpointer
_graft_pt2_slot_get_value (Pt2Slot *slot)
{
  return slot->key != NULL ? slot->value : NULL;
}

/* The value of the NUL-terminated @key, or %NULL. */
gpointer
_graft_pt2_table_get (Pt2Table   *table,
                      const char *key)
{
  guint64 hash;

  return _graft_pt2_slot_get_value (_graft_pt2_table_lookup (table, key, strlen (key), &hash));
}

/* Sets the value of the NUL-terminated @key (borrowed: it must outlive
 * the table); returns the value it replaces, or %NULL. */
gpointer
_graft_pt2_table_set (Pt2Table   *table,
                      const char *key,
                      gpointer    value)
{
  gsize    len = strlen (key);
  guint64  hash;
  Pt2Slot *slot = _graft_pt2_table_lookup (table, key, len, &hash);
  gpointer old;

  if (slot->key == NULL)
    {
      _graft_pt2_table_fill (table, slot, key, len, hash, value);
      return NULL;
    }
  old = slot->value;
  slot->value = value;
  return old;
}

/* Frees every value of @table with @free_value, then the table. */
void
_graft_pt2_table_clear_full (Pt2Table      *table,
                             GDestroyNotify free_value)
{
  for (gsize k = 0; table->slots != NULL && k <= table->mask; k++)
    if (table->slots[k].key != NULL)
      free_value (table->slots[k].value);
  _graft_pt2_table_clear (table);
}

void
_graft_pt2_table_clear (Pt2Table *table)
{
  g_clear_pointer (&table->slots, g_free);
  table->mask = 0;
  table->used = 0;
}

/**
 * The graph's copy of the @len bytes at @text (no NUL among them; @text
 * need not end after them), as graft_graph_intern() would give it.
 */
const char *
_graft_pt2_intern_len (Reader     *r,
                       const char *text,
                       gsize       len)
{
  guint64     hash = 0;
  Pt2Slot    *slot = NULL;
  const char *copy;

  if (G_LIKELY (len <= G_MAXUINT32))
    {
      slot = _graft_pt2_table_lookup (&r->strings, text, len, &hash);
      if (slot->key != NULL)
        return slot->value;
    }
  if (text[len] == '\0')
    copy = graft_graph_intern (r->graph, text);
  else
    {
      g_string_truncate (r->intern_buf, 0);
      g_string_append_len (r->intern_buf, text, len);
      copy = graft_graph_intern (r->graph, r->intern_buf->str);
    }
  if (slot != NULL)
    _graft_pt2_table_fill (&r->strings, slot, copy, len, hash, (gpointer) copy);
  return copy;
}

/* _graft_pt2_intern_len() of a NUL-terminated @text; %NULL stays %NULL. */
const char *
_graft_pt2_intern (Reader     *r,
                   const char *text)
{
  return text != NULL ? _graft_pt2_intern_len (r, text, strlen (text)) : NULL;
}
