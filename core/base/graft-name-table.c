/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-name-table.c: see graft-name-table-private.h.
 */
#include "config.h"

#include <string.h>

#include "graft-name-table-private.h"

const char _graft_name_table_removed;
#define REMOVED (&_graft_name_table_removed)

guint
_graft_name_hash (const char *key,
                  gsize       len)
{
  /* FNV-1a.  Its low bits, which pick the slot, mix poorly for names
   * that differ only in their last digits (relu_1 ... relu_999999): the
   * finish is MurmurHash3's avalanche step. */
  return _graft_name_hash_finish (_graft_name_hash_step (GRAFT_NAME_HASH_SEED, key, len));
}

void
_graft_name_table_init (GraftNameTable *t,
                        gboolean        owns_keys)
{
  t->mask = 63;
  t->slots = g_new0 (GraftNameSlot, t->mask + 1);
  t->n_items = t->n_occupied = 0;
  t->owns_keys = owns_keys;
}

void
_graft_name_table_clear (GraftNameTable *t)
{
  if (t->owns_keys)
    for (guint i = 0; i <= t->mask; i++)
      if (t->slots[i].key != NULL && t->slots[i].key != REMOVED)
        g_free ((char *) t->slots[i].key);
  g_clear_pointer (&t->slots, g_free);
  t->n_items = t->n_occupied = 0;
}

/* @size empty slots.  A large table is cleared by writing it rather
 * than taken zeroed from calloc(): fresh pages that are first read (by
 * place()'s probes) map the kernel's zero page, and the write that
 * follows faults again, to copy it, and flushes the other threads' TLBs
 * (a million-node `.pt2`'s tables: about 10 % of the page faults). */
static GraftNameSlot *
new_slots (guint size)
{
  GraftNameSlot *slots;

  if (size < 4096)
    return g_new0 (GraftNameSlot, size);
  slots = g_new (GraftNameSlot, size);
  memset (slots, 0, size * sizeof *slots);
  return slots;
}

static GraftNameSlot *
place (GraftNameTable *t,
       const char     *key,
       guint           hash,
       guint           len,
       gpointer        value)
{
  guint i = hash & t->mask;

  while (t->slots[i].key != NULL && t->slots[i].key != REMOVED)
    i = (i + 1) & t->mask;
  if (t->slots[i].key == NULL)
    t->n_occupied++;
  t->slots[i] = (GraftNameSlot){ key, hash, len, value };
  t->n_items++;
  return &t->slots[i];
}

/* Moves the items of @t into a table of @size slots. */
static void
resize (GraftNameTable *t,
        guint           size)
{
  GraftNameSlot *old = t->slots;
  guint          old_size = t->mask + 1;

  t->mask = size - 1;
  t->slots = new_slots (size);
  t->n_items = t->n_occupied = 0;
  for (guint i = 0; i < old_size; i++)
    if (old[i].key != NULL && old[i].key != REMOVED)
      place (t, old[i].key, old[i].hash, old[i].len, old[i].value);
  g_free (old);
}

/* Grows @t at once to the size @n more items would grow it to, one by
 * one: a table filled by the million grows only once. */
void
_graft_name_table_reserve (GraftNameTable *t,
                           guint           n)
{
  guint64 size = t->mask + 1;

  while ((t->n_occupied + (guint64) n) * 4 > size * 3)
    size *= 2;
  if (size > t->mask + 1 && size <= G_MAXUINT32 / 2)
    resize (t, (guint) size);
}

/* Gives @t, which holds nothing, the size @n items would grow it to,
 * at once and without clearing its slots: until the caller has cleared
 * every one (_graft_name_table_zero()), @t must not be used.  A table
 * that a long walk fills by the hundred thousand (the scopes' module
 * paths at a million nodes: 12-24 MB) is then cleared in parts between
 * other work, where growing as it filled took one long resize each time
 * it doubled, its slots written all at once.  Returns the number of
 * slots. */
guint
_graft_name_table_presize (GraftNameTable *t,
                           guint           n)
{
  guint64 size = t->mask + 1;

  g_return_val_if_fail (t->n_occupied == 0 && !t->owns_keys, 0);
  while ((guint64) n * 4 > size * 3 && size <= G_MAXUINT32 / 4)
    size *= 2;
  if (size > t->mask + 1)
    {
      g_free (t->slots);
      t->slots = g_new (GraftNameSlot, size);
      t->mask = (guint) size - 1;
    }
  else
    memset (t->slots, 0, size * sizeof *t->slots);
  return (guint) size;
}

/* Clears @n_slots slots of @t from @from (see _graft_name_table_presize()). */
void
_graft_name_table_zero (GraftNameTable *t,
                        guint           from,
                        guint           n_slots)
{
  g_return_if_fail ((guint64) from + n_slots <= (guint64) t->mask + 1);
  memset (t->slots + from, 0, (gsize) n_slots * sizeof *t->slots);
}

/* Adds @key, which must not be present (and is owned by the table if it
 * owns keys).  Grows the table, or clears its removed marks, at 3/4 load.
 * Returns the key's slot, valid until the table next changes. */
GraftNameSlot *
_graft_name_table_insert (GraftNameTable *t,
                          const char     *key,
                          guint           hash,
                          gpointer        value)
{
  return _graft_name_table_insert_len (t, key, (guint) strlen (key), hash, value);
}

/* _graft_name_table_insert() for a key whose length @len is known. */
GraftNameSlot *
_graft_name_table_insert_len (GraftNameTable *t,
                              const char     *key,
                              guint           len,
                              guint           hash,
                              gpointer        value)
{
  if ((t->n_occupied + 1) * 4 > (t->mask + 1) * 3)
    {
      guint old_size = t->mask + 1;

      resize (t, t->n_items * 2 >= old_size / 2 ? old_size * 2 : old_size);
    }
  return place (t, key, hash, len, value);
}

gboolean
_graft_name_table_remove (GraftNameTable *t,
                          const char     *key,
                          gsize           len,
                          guint           hash)
{
  GraftNameSlot *slot = _graft_name_table_find (t, key, len, hash);

  if (slot == NULL)
    return FALSE;
  if (t->owns_keys)
    g_free ((char *) slot->key);
  slot->key = REMOVED;
  slot->len = G_MAXUINT;
  slot->value = NULL;
  t->n_items--;
  return TRUE;
}
