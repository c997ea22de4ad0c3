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
void           _graft_name_table_init (GraftNameTable *t, gboolean owns_keys);
void           _graft_name_table_clear (GraftNameTable *t);
GraftNameSlot *_graft_name_table_insert (GraftNameTable *t,
                                         const char     *key,
                                         guint           hash,
                                         gpointer        value);
gboolean       _graft_name_table_remove (GraftNameTable *t, const char *key, gsize len, guint hash);

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
