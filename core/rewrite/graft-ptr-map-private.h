/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-ptr-map-private.h: a map from pointers to pointers, open
 * addressing, without removal, for the matcher's and the rewriter's hot
 * paths (a GHashTable's calls and nodes cost more than the work they
 * index): the rewriter's replaced nodes and replacement positions, the
 * matcher's classes of graph targets.  A key is any pointer but NULL; a
 * slot with a NULL key is empty.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gconstpointer key; /* NULL: empty */
  gpointer      value;
} GraftPtrSlot;

typedef struct
{
  GraftPtrSlot *slots;
  guint         mask; /* capacity - 1; load at most 1/2 */
  guint         n;
} GraftPtrMap;

/* Room for @expected keys before the map grows. */
static inline void
_graft_ptr_map_init (GraftPtrMap *map,
                     guint        expected)
{
  guint size = 16;

  while (size < 2 * expected + 2)
    size *= 2;
  map->slots = g_new0 (GraftPtrSlot, size);
  map->mask = size - 1;
  map->n = 0;
}

static inline void
_graft_ptr_map_clear (GraftPtrMap *map)
{
  g_clear_pointer (&map->slots, g_free);
}

/* The slot of @key in @slots: its own, or the empty one it would take.
 * The multiplier's high bits mix every bit of the address, so nodes
 * (aligned) and interned strings (not) spread alike. */
static inline GraftPtrSlot *
_graft_ptr_map_slot_in (GraftPtrSlot *slots,
                        guint         mask,
                        gconstpointer key)
{
  guint i = (guint) (((guint64) (guintptr) key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 32);

  for (i &= mask;; i = (i + 1) & mask)
    if (slots[i].key == key || slots[i].key == NULL)
      return &slots[i];
}

static inline GraftPtrSlot *
_graft_ptr_map_slot (const GraftPtrMap *map,
                     gconstpointer      key)
{
  return _graft_ptr_map_slot_in (map->slots, map->mask, key);
}

/* The value of @key, %NULL if it has none. */
static inline gpointer
_graft_ptr_map_lookup (const GraftPtrMap *map,
                       gconstpointer      key)
{
  return _graft_ptr_map_slot (map, key)->value;
}

/* Sets the value of @key (not %NULL), growing the map at half full. */
static inline void
_graft_ptr_map_insert (GraftPtrMap  *map,
                       gconstpointer key,
                       gpointer      value)
{
  GraftPtrSlot *slot = _graft_ptr_map_slot (map, key);

  if (slot->key == NULL)
    {
      if (2 * (map->n + 1) > map->mask + 1)
        {
          GraftPtrSlot *old = map->slots;
          guint         old_size = map->mask + 1;

          map->slots = g_new0 (GraftPtrSlot, 2 * old_size);
          map->mask = 2 * old_size - 1;
          for (guint i = 0; i < old_size; i++)
            if (old[i].key != NULL)
              *_graft_ptr_map_slot_in (map->slots, map->mask, old[i].key) = old[i];
          g_free (old);
          slot = _graft_ptr_map_slot (map, key);
        }
      slot->key = key;
      map->n++;
    }
  slot->value = value;
}

G_END_DECLS
