/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-name-table-private.h: an open-addressing table from names to values,
 * probed with a hash computed once per name and keys given as (text,
 * length), so that a prefix of a stored name can be looked up without
 * copying it.  Naming a node looks names up five or six times; GHashTable,
 * hashing and comparing through function pointers every time, was a sixth
 * of tracing.
 */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

typedef struct
{
  const char *key; /* NULL: never used; _graft_name_table_removed: removed */
  guint       hash;
  guint       len; /* strlen (key), in what would be padding */
  gpointer    value;
} GraftNameSlot;

typedef struct
{
  GraftNameSlot *slots;
  guint          mask; /* capacity - 1; capacity is a power of two */
  guint          n_items;
  guint          n_occupied; /* items and removed marks */
  gboolean       owns_keys;  /* keys are g_free()d with the table */
} GraftNameTable;

extern const char _graft_name_table_removed;

guint          _graft_name_hash (const char *key, gsize len);
GraftNameSlot *_graft_name_table_insert_len (GraftNameTable *t,
                                             const char     *key,
                                             guint           len,
                                             guint           hash,
                                             gpointer        value);
void           _graft_name_table_init (GraftNameTable *t, gboolean owns_keys);
void           _graft_name_table_reserve (GraftNameTable *t, guint n);
guint          _graft_name_table_presize (GraftNameTable *t, guint n);
void           _graft_name_table_zero (GraftNameTable *t, guint from, guint n_slots);
void           _graft_name_table_clear (GraftNameTable *t);
GraftNameSlot *_graft_name_table_insert (GraftNameTable *t,
                                         const char     *key,
                                         guint           hash,
                                         gpointer        value);
gboolean       _graft_name_table_remove (GraftNameTable *t, const char *key, gsize len, guint hash);

/* _graft_name_hash() in two steps, for a name made by appending to a
 * prefix whose state is known: _graft_name_hash (key, len) is
 * _graft_name_hash_finish (_graft_name_hash_step (GRAFT_NAME_HASH_SEED,
 * key, len)), and steps chain. */
#define GRAFT_NAME_HASH_SEED 2166136261u

static inline guint
_graft_name_hash_step (guint       h,
                       const char *key,
                       gsize       len)
{
  for (gsize i = 0; i < len; i++)
    {
      h ^= (guchar) key[i];
      h *= 16777619u;
    }
  return h;
}

static inline guint
_graft_name_hash_finish (guint h)
{
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

/* The slot holding the first @len bytes of @key as its whole key, or NULL.
 * The table always has an empty slot (load at most 3/4), so this ends.
 * Inline: naming a node looks names up several times, and a removed
 * slot's mark has the length of no name (G_MAXUINT). */
static inline GraftNameSlot *
_graft_name_table_find (const GraftNameTable *t,
                        const char           *key,
                        gsize                 len,
                        guint                 hash)
{
  for (guint i = hash & t->mask;; i = (i + 1) & t->mask)
    {
      GraftNameSlot *slot = &t->slots[i];

      if (slot->key == NULL)
        return NULL;
      if (slot->hash == hash && slot->len == len && memcmp (slot->key, key, len) == 0)
        return slot;
    }
}

/* The value stored for @key (a NUL-terminated name), or %NULL. */
static inline gpointer
_graft_name_table_lookup (const GraftNameTable *t,
                          const char           *key)
{
  gsize          len = strlen (key);
  GraftNameSlot *slot = _graft_name_table_find (t, key, len, _graft_name_hash (key, len));

  return slot != NULL ? slot->value : NULL;
}

G_END_DECLS
