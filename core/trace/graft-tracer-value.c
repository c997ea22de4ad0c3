/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-value.c: the tracer's values: the arena they live in, their
 * constructors, Python equality and printing (`str`, `repr`, f-strings),
 * and the small ordered maps that scopes and module objects use.
 */
#include "config.h"

#include "graft-tracer-private.h"
#include "graft-arg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_SIZE GRAFT_TRACER_CHUNK_SIZE

static Value none_value = { .kind = VAL_NONE };
static Value true_value = { .kind = VAL_BOOL, .b = TRUE };
static Value false_value = { .kind = VAL_BOOL, .b = FALSE };
static Value ellipsis_value = { .kind = VAL_ELLIPSIS };

/* Bump allocation from 64 KiB blocks; everything is freed with the trace.
 * The memory is not zeroed. */
static gpointer
alloc_raw (Tracer *t,
           gsize   size)
{
  gpointer p;

  size = (size + 15) & ~(gsize) 15;
  if (size > CHUNK_SIZE / 4)
    {
      p = g_malloc (size);
      t->arena_size += size;
      /* Keep the big block in the list, before the current one so that
       * bump allocation continues in the current block. */
      g_ptr_array_insert (t->chunks, 0, p);
      return p;
    }
  p = _graft_tracer_bump (t, size);
  if (p == NULL)
    {
      t->chunk = g_malloc (CHUNK_SIZE);
      t->arena_size += CHUNK_SIZE;
      g_ptr_array_add (t->chunks, t->chunk);
      t->chunk_used = size;
      p = t->chunk;
    }
  return p;
}

/**
 * _graft_tracer_release_blocks:
 * @mark: a place in the arena taken by _graft_tracer_mark()
 *
 * Gives back what the arena handed out since @mark, which nothing may
 * point to any more, as _graft_tracer_release() does, and also the
 * blocks begun since (the blocks of their own that large requests got
 * stay until the trace ends).
 */
void
_graft_tracer_release_blocks (Tracer   *t,
                              ArenaMark mark)
{
  guint at;

  if (t->chunk != mark.chunk && mark.chunk != NULL &&
      g_ptr_array_find (t->chunks, mark.chunk, &at))
    {
      /* The blocks are added at the end, so those after @mark's are new
       * (large requests' blocks go to the front). */
      while (t->chunks->len > at + 1)
        {
          g_ptr_array_remove_index (t->chunks, t->chunks->len - 1);
          t->arena_size -= CHUNK_SIZE;
        }
      t->chunk = mark.chunk;
      t->chunk_used = CHUNK_SIZE;
    }
  _graft_tracer_release (t, mark);
}

/* @size zeroed bytes from the arena. */
gpointer
_graft_tracer_alloc (Tracer *t,
                     gsize   size)
{
  gpointer p = alloc_raw (t, size);

  memset (p, 0, size);
  return p;
}

const char *
_graft_tracer_strdup (Tracer     *t,
                      const char *s,
                      gssize      len)
{
  if (len < 0)
    return g_string_chunk_insert (t->strings, s);
  return g_string_chunk_insert_len (t->strings, s, len);
}

const char *
_graft_tracer_printf (Tracer     *t,
                      const char *format,
                      ...)
{
  va_list          ap;
  g_autofree char *s = NULL;

  va_start (ap, format);
  s = g_strdup_vprintf (format, ap);
  va_end (ap);
  return g_string_chunk_insert (t->strings, s);
}

#define VEC_FIRST_ALLOC 4

/* The vector and room for its first items in one arena block. */
PtrVec *
_graft_tracer_vec (Tracer *t)
{
  return _graft_tracer_vec_sized (t, VEC_FIRST_ALLOC);
}

/* A vector with room for @alloc items in its own block (it grows as any):
 * a call's arguments and a list display say how many they are, and a
 * tracer makes a few per node.  (The common case is inline:
 * _graft_tracer_vec_sized().) */
PtrVec *
_graft_tracer_vec_sized_slow (Tracer *t,
                              guint   alloc)
{
  PtrVec *v;
  gsize   size;

  alloc = MAX (alloc, 1);
  if (alloc > (CHUNK_SIZE / 4 - sizeof (PtrVec)) / sizeof (gpointer))
    alloc = VEC_FIRST_ALLOC;
  /* The items past the length are never read: only the header is set,
   * and the room the rounding leaves is used. */
  size = (sizeof (PtrVec) + alloc * sizeof (gpointer) + 15) & ~(gsize) 15;
  v = _graft_tracer_alloc (t, size);
  v->pdata = (gpointer *) (v + 1);
  v->len = 0;
  v->alloc = (guint) ((size - sizeof (PtrVec)) / sizeof (gpointer));
  v->tracer = t;
  return v;
}

/* The size alloc_raw() gives @n items. */
static inline gsize
items_size (guint n)
{
  return ((gsize) n * sizeof (gpointer) + 15) & ~(gsize) 15;
}

/* Moves the items to a block twice as large (or @min_alloc).  An old block
 * in the arena's blocks stays until the trace ends; one of its own (a
 * long list, or the scope of a forward of thousands of lines) is resized:
 * doubling would otherwise leave as much again behind. */
void
_graft_vec_grow (PtrVec *v,
                 guint   min_alloc)
{
  guint     alloc = MAX (v->alloc * 2, min_alloc);
  Tracer   *t = v->tracer;
  gpointer *pdata;

  if (alloc > G_MAXUINT / 2 / sizeof (gpointer))
    g_error ("a list of %u items is more than the tracer can hold", min_alloc);
  /* Items in a block of their own came from alloc_raw()'s large requests
   * (a vector's first block, header and items together, is never one). */
  if (items_size (v->alloc) > CHUNK_SIZE / 4)
    for (guint i = 0; i < t->chunks->len; i++)
      if (t->chunks->pdata[i] == (gpointer) v->pdata)
        {
          pdata = g_realloc (v->pdata, items_size (alloc));
          t->arena_size += items_size (alloc) - items_size (v->alloc);
          t->chunks->pdata[i] = pdata;
          v->pdata = pdata;
          v->alloc = alloc;
          return;
        }
  /* Only the items below the length are ever read. */
  pdata = alloc_raw (t, alloc * sizeof (gpointer));
  if (v->len > 0)
    memcpy (pdata, v->pdata, v->len * sizeof (gpointer));
  v->pdata = pdata;
  v->alloc = alloc;
}

void
_graft_vec_insert (PtrVec  *v,
                   guint    index,
                   gpointer item)
{
  g_return_if_fail (index <= v->len);
  if (v->len == v->alloc)
    _graft_vec_grow (v, v->len + 1);
  memmove (v->pdata + index + 1, v->pdata + index, (v->len - index) * sizeof (gpointer));
  v->pdata[index] = item;
  v->len++;
}

/* Removes the item at @index, keeping the order of the rest; returns it. */
gpointer
_graft_vec_remove_index (PtrVec *v,
                         guint   index)
{
  gpointer item;

  g_return_val_if_fail (index < v->len, NULL);
  item = v->pdata[index];
  memmove (v->pdata + index, v->pdata + index + 1, (v->len - index - 1) * sizeof (gpointer));
  v->len--;
  return item;
}

/* Shortens, or lengthens with NULL items, as g_ptr_array_set_size(). */
void
_graft_vec_set_size (PtrVec *v,
                     guint   len)
{
  if (len > v->alloc)
    _graft_vec_grow (v, len);
  if (len > v->len)
    memset (v->pdata + v->len, 0, (len - v->len) * sizeof (gpointer));
  v->len = len;
}

#define STRMAP_INDEX_THRESHOLD 8

/* A stamp no map has had (0 is kept for maps changed through a copy). */
static inline guint
next_stamp (Tracer *t)
{
  if (G_UNLIKELY (++t->map_stamp == 0))
    ++t->map_stamp;
  return t->map_stamp;
}

void
_graft_strmap_init (Tracer *t,
                    StrMap *map)
{
  map->tracer = t;
  map->keys = _graft_tracer_vec (t);
  map->values = _graft_tracer_vec (t);
  map->index = NULL;
  map->stamp = next_stamp (t);
  map->key_bits = 0;
  map->reserved = 0;
}

/* A big map's index: open addressing with linear probing, each slot the
 * key's hash and its position in the map (1-based; 0 is a free slot), 8
 * bytes, at most half full.  A key is compared by its hash, then as the
 * map's key at that position (the same string, or equal bytes). */
struct _StrMapIndex
{
  StrMapSlot *slots;
  guint       mask; /* capacity - 1, a power of two */
  guint       n;    /* positions held */
};

void
_graft_strmap_index_free (StrMapIndex *index)
{
  g_free (index->slots);
  g_free (index);
}

/* @key's hash for the index: its length and its bytes read as words
 * (the last word overlapping the one before), each mixed in by a
 * multiplication, the slot's bits from the product's upper half, which
 * every byte reaches.  A byte loop (FNV-1a) cost about 37 instructions
 * for the `h1234` of a body binding a new name each line. */
static inline guint
index_hash (const char *key)
{
  const guint64 k = G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  gsize         len = strlen (key);
  guint64       h = ((guint64) len + 1) * k;

  if (len >= 8)
    {
      const char *end = key + len;
      guint64     w;

      for (; end - key > 8; key += 8)
        {
          memcpy (&w, key, 8);
          h = (h ^ w) * k;
        }
      memcpy (&w, end - 8, 8);
      h = (h ^ w) * k;
    }
  else if (len >= 4)
    {
      guint32 a, b;

      memcpy (&a, key, 4);
      memcpy (&b, key + len - 4, 4);
      h = (h ^ (((guint64) a << 32) | b)) * k;
    }
  else if (len > 0)
    h = (h ^ (((guint64) (guchar) key[0] << 16) | ((guint64) (guchar) key[len / 2] << 8) |
              (guchar) key[len - 1])) *
        k;
  return (guint) (h >> 32);
}

/* The slot of @key (hash @hash) in @map's index, or the free slot that
 * ends its chain. */
static inline StrMapSlot *
index_probe (const StrMap *map,
             const char   *key,
             guint         hash)
{
  const StrMapIndex *index = map->index;

  for (guint i = hash & index->mask;; i = (i + 1) & index->mask)
    {
      StrMapSlot *slot = &index->slots[i];

      if (slot->pos == 0)
        return slot;
      if (slot->hash == hash)
        {
          const char *k = map->keys->pdata[slot->pos - 1];

          if (k == key || strcmp (k, key) == 0)
            return slot;
        }
    }
}

/* Puts position @pos (hash @hash) into a free slot of @index. */
static inline void
index_place (StrMapIndex *index,
             guint        hash,
             guint        pos)
{
  guint i = hash & index->mask;

  while (index->slots[i].pos != 0)
    i = (i + 1) & index->mask;
  index->slots[i] = (StrMapSlot){ hash, pos };
  index->n++;
}

/* Doubles @index, its slots placed again by their hashes alone. */
static void
index_grow (StrMapIndex *index)
{
  StrMapSlot *old = index->slots;
  guint       old_size = index->mask + 1;

  index->mask = 2 * old_size - 1;
  index->slots = g_new0 (StrMapSlot, 2 * old_size);
  index->n = 0;
  for (guint i = 0; i < old_size; i++)
    if (old[i].pos != 0)
      index_place (index, old[i].hash, old[i].pos);
  g_free (old);
}

static guint
strmap_position_h (const StrMap *map,
                   const char   *key)
{
  for (guint i = 0; i < map->keys->len; i++)
    {
      const char *k = map->keys->pdata[i];

      /* Most keys differ from @key in their first byte: no call then. */
      if (k == key || (k[0] == key[0] && strcmp (k, key) == 0))
        return i + 1;
    }
  return 0;
}

/* strmap_position() past Tracer.map_recent: a search, whose answer is
 * kept in entry @r. */
static G_GNUC_NO_INLINE guint
strmap_search (const StrMap *map,
               const char   *key,
               guint         r)
{
  Tracer *t = map->tracer;
  guint   pos;

  /* (A map with stamp 0 shares its vectors with a copy that changes
   * them: its key bits may be behind.) */
  if ((map->key_bits & _graft_strmap_key_bit (key)) == 0 && map->stamp != 0)
    pos = 0;
  else if (map->index == NULL)
    pos = strmap_position_h (map, key);
  else
    pos = index_probe (map, key, index_hash (key))->pos;
  t->map_recent[r].map = map;
  t->map_recent[r].key = key;
  t->map_recent[r].stored = pos > 0 ? map->keys->pdata[pos - 1] : NULL;
  t->map_recent[r].pos = pos;
  t->map_recent[r].stamp = map->stamp;
  return pos;
}

/* The position of @key (1-based), or 0: a recent answer if it still
 * holds, else a search, whose answer is kept. */
static inline guint
strmap_position (const StrMap *map,
                 const char   *key)
{
  guint r = _graft_strmap_recent_slot (map, key);
  guint pos = _graft_strmap_recent_position (map, key, r);

  if (pos != G_MAXUINT)
    return pos;
  return strmap_search (map, key, r);
}

/* Makes @map's index again from its keys (or its first one, once it holds
 * more than a few, with room for the keys reserved). */
static void
strmap_reindex (StrMap *map)
{
  guint size = 64, n_keys = MAX (map->keys->len, map->reserved);

  if (map->index == NULL)
    {
      if (map->keys->len <= STRMAP_INDEX_THRESHOLD)
        return;
      map->index = g_new0 (StrMapIndex, 1);
      g_ptr_array_add (map->tracer->map_indexes, map->index);
    }
  g_free (map->index->slots);
  while (size < 2 * (n_keys + 1))
    size *= 2;
  map->index->slots = g_new0 (StrMapSlot, size);
  map->index->mask = size - 1;
  map->index->n = 0;
  for (guint i = 0; i < map->keys->len; i++)
    index_place (map->index, index_hash (map->keys->pdata[i]), i + 1);
}

/* The most keys _graft_strmap_reserve() makes room for. */
#define STRMAP_RESERVE_MAX (1u << 22)

/**
 * _graft_strmap_reserve:
 *
 * Makes room in @map for @n_keys keys in all: its vectors now, and its
 * index when it needs one (past a few keys: a small map is still searched
 * without), so that neither is doubled again and again as keys come (the
 * scope of a body of thousands of lines, whose size says about how many
 * names it binds).  Changes no answer of the map; at most
 * %STRMAP_RESERVE_MAX.
 */
void
_graft_strmap_reserve (StrMap *map,
                       guint   n_keys)
{
  n_keys = MIN (n_keys, STRMAP_RESERVE_MAX);
  if (n_keys <= STRMAP_INDEX_THRESHOLD || map->keys == NULL || map->stamp == 0)
    return;
  if (map->keys->alloc < n_keys)
    _graft_vec_grow (map->keys, n_keys);
  if (map->values->alloc < n_keys)
    _graft_vec_grow (map->values, n_keys);
  map->reserved = MAX (map->reserved, n_keys);
  if (map->index != NULL && 2 * (n_keys + 1) > map->index->mask + 1)
    strmap_reindex (map);
}

/* _graft_strmap_get() past the recent answers. */
Value *
_graft_strmap_get_slow (const StrMap *map,
                        const char   *key)
{
  guint pos;

  if (map == NULL || map->keys == NULL)
    return NULL;
  pos = strmap_position (map, key);
  return pos > 0 ? map->values->pdata[pos - 1] : NULL;
}

/* Appends @key with @value, a key the map does not hold. */
static inline void
strmap_append (StrMap     *map,
               const char *key,
               Value      *value)
{
  _graft_vec_add (map->keys, (gpointer) key);
  _graft_vec_add (map->values, value);
  map->key_bits |= _graft_strmap_key_bit (key);
  if (map->stamp != 0)
    map->stamp = next_stamp (map->tracer);
}

/* index_hash() of @key: @known when _graft_strmap_prefetch() gave it. */
static inline guint
known_hash (const char *key,
            guint64     known)
{
  return known != STRMAP_NO_HASH ? (guint) known : index_hash (key);
}

/**
 * _graft_strmap_set_hashed:
 * @known: what _graft_strmap_prefetch() returned for @key (of any map: the
 *   hash is the key's alone), or %STRMAP_NO_HASH
 *
 * _graft_strmap_set() without hashing @key again.
 */
void
_graft_strmap_set_hashed (StrMap     *map,
                          const char *key,
                          guint64     known,
                          Value      *value)
{
  Tracer *t = map->tracer;
  guint   r = _graft_strmap_recent_slot (map, key);
  guint   pos = _graft_strmap_recent_position (map, key, r);

  if (pos == G_MAXUINT && map->index != NULL)
    {
      /* A big map (a frame of ten thousand names): the key is looked for
       * and, if absent, added to the index in one probe. */
      StrMapIndex *index = map->index;
      guint        hash = known_hash (key, known);
      StrMapSlot  *slot = index_probe (map, key, hash);

      if (slot->pos != 0)
        pos = slot->pos;
      else
        {
          strmap_append (map, key, value);
          pos = map->keys->len;
          *slot = (StrMapSlot){ hash, pos };
          if (++index->n * 2 > index->mask + 1)
            index_grow (index);
        }
      map->values->pdata[pos - 1] = value;
      t->map_recent[r].map = map;
      t->map_recent[r].key = key;
      t->map_recent[r].stored = map->keys->pdata[pos - 1];
      t->map_recent[r].pos = pos;
      t->map_recent[r].stamp = map->stamp;
      return;
    }
  /* A key surely absent (a call's keywords, each new in a new map) is
   * added without a search, as _graft_strmap_get() answers it. */
  if (pos == G_MAXUINT && map->stamp != 0 &&
      (map->keys->len == 0 || (map->key_bits & _graft_strmap_key_bit (key)) == 0))
    pos = 0;
  else if (pos == G_MAXUINT)
    pos = strmap_search (map, key, r);
  if (pos > 0)
    {
      map->values->pdata[pos - 1] = value;
      return;
    }
  strmap_append (map, key, value);
  if (map->index != NULL)
    {
      guint hash = known_hash (key, known);

      index_place (map->index, hash, map->keys->len);
      if (map->index->n * 2 > map->index->mask + 1)
        index_grow (map->index);
    }
  else if (map->keys->len > STRMAP_INDEX_THRESHOLD)
    strmap_reindex (map);
  /* The key is read again soon: a name just assigned. */
  r = _graft_strmap_recent_slot (map, key);
  t->map_recent[r].map = map;
  t->map_recent[r].key = key;
  t->map_recent[r].stored = key;
  t->map_recent[r].pos = map->keys->len;
  t->map_recent[r].stamp = map->stamp;
}

/* Sets @key, keeping its position if present (Python dict semantics).
 * @key must outlive the map (an AST or arena string). */
void
_graft_strmap_set (StrMap     *map,
                   const char *key,
                   Value      *value)
{
  _graft_strmap_set_hashed (map, key, STRMAP_NO_HASH, value);
}

/* The smallest index whose slots _graft_strmap_prefetch() loads ahead:
 * 512 KB.  A smaller one stays in the cache (at 10,000 names, 256 KB, the
 * prefetch cost more than it saved). */
#define PREFETCH_SLOTS (64u * 1024u)

/**
 * _graft_strmap_prefetch:
 * @map: a map
 * @key: a key about to be set
 *
 * Starts loading the index slot where _graft_strmap_set() will look for
 * @key, while the caller computes the value.  A body of 100,000 names has
 * an index of 2 MB, and each new name's slot, at a random place in it, was
 * a cache miss that took a fifth of `graft code`'s time on gen-module
 * (perf, 100,000 nodes).  Only a hint: the map does not change.
 *
 * Returns: @key's hash, computed for the slot, for
 *   _graft_strmap_set_hashed() (of this map or another: the hash is the
 *   key's alone), or %STRMAP_NO_HASH when the map is too small to load
 *   ahead
 */
guint64
_graft_strmap_prefetch (const StrMap *map,
                        const char   *key)
{
  const StrMapIndex *index = map->index;
  guint              hash;

  if (index == NULL || index->mask < PREFETCH_SLOTS - 1)
    return STRMAP_NO_HASH;
  hash = index_hash (key);
  __builtin_prefetch (&index->slots[hash & index->mask], 1);
  return hash;
}

gboolean
_graft_strmap_remove (StrMap     *map,
                      const char *key)
{
  guint pos = strmap_position (map, key);

  if (pos == 0)
    return FALSE;
  _graft_vec_remove_index (map->keys, pos - 1);
  _graft_vec_remove_index (map->values, pos - 1);
  if (map->stamp != 0)
    map->stamp = next_stamp (map->tracer);
  if (map->index != NULL)
    strmap_reindex (map);
  return TRUE;
}

/* A zeroed value of @kind: _graft_tracer_alloc() inline, for the few
 * values each node makes. */
Value *
_graft_value_none (void)
{
  return &none_value;
}

Value *
_graft_value_ellipsis (void)
{
  return &ellipsis_value;
}

Value *
_graft_value_bool (gboolean b)
{
  return b ? &true_value : &false_value;
}

Value *
_graft_value_int (Tracer *t,
                  gint64  i)
{
  Value *v = _graft_value_new (t, VAL_INT);

  v->i = i;
  return v;
}

Value *
_graft_value_float (Tracer *t,
                    double  f)
{
  Value *v = _graft_value_new (t, VAL_FLOAT);

  /* Every NaN computed is a new object, never `math.nan` itself
   * (graft_arg_shared_nan()). */
  v->f = isnan (f) ? NAN : f;
  return v;
}

Value *
_graft_value_str (Tracer     *t,
                  const char *s,
                  gssize      len)
{
  Value *v = _graft_value_new (t, VAL_STR);

  if (len < 0)
    len = strlen (s);
  v->str.s = _graft_tracer_strdup (t, s, len);
  v->str.len = len;
  return v;
}

Value *
_graft_value_path (Tracer     *t,
                   ValueKind   kind,
                   const char *path)
{
  Value *v = _graft_value_new (t, kind);

  v->path = _graft_tracer_strdup (t, path, -1);
  return v;
}

Value *
_graft_value_seq (Tracer   *t,
                  ValueKind kind,
                  guint     reserve)
{
  Value *v = _graft_value_new (t, kind);

  v->seq.items = _graft_tracer_vec_sized (t, reserve > 0 ? reserve : VEC_FIRST_ALLOC);
  return v;
}

/* An iterator over @items (raw, made by @lazy's steps, or as they are when
 * @lazy is NULL). */
/* Every value is two 16-byte units of the arena (a million nodes make
 * a million proxies). */
G_STATIC_ASSERT (sizeof (Value) == 32);

Value *
_graft_value_iter (Tracer     *t,
                   Value      *items,
                   LazyIter   *lazy,
                   const char *type_name)
{
  Value *v = _graft_value_new (t, VAL_ITER);

  if (lazy == NULL)
    {
      lazy = _graft_tracer_alloc (t, sizeof (LazyIter));
      *lazy = (LazyIter){ 0 };
    }
  v->iter.items = items;
  v->iter.lazy = lazy;
  lazy->type_name = type_name;
  return v;
}

void
_graft_value_seq_add (Value *seq,
                      Value *item)
{
  _graft_vec_add (seq->seq.items, item);
}

Value *
_graft_value_dict (Tracer *t)
{
  Value *v = _graft_value_new (t, VAL_DICT);

  v->dict.keys = _graft_tracer_vec (t);
  v->dict.values = _graft_tracer_vec (t);
  return v;
}

/* A new constant tensor: each one is a distinct object, as torch's are. */
Value *
_graft_value_tensor (Tracer *t)
{
  Value *v = _graft_value_new (t, VAL_TENSOR);

  v->tensor.id = ++t->n_tensors;
  return v;
}

const char *
_graft_value_type_name (const Value *v)
{
  switch (v->kind)
    {
    case VAL_NONE:
      return "NoneType";
    case VAL_BOOL:
      return "bool";
    case VAL_INT:
      return "int";
    case VAL_FLOAT:
      return "float";
    case VAL_COMPLEX:
      return "complex";
    case VAL_STR:
      return "str";
    case VAL_ELLIPSIS:
      return "ellipsis";
    case VAL_TUPLE:
      return "tuple";
    case VAL_LIST:
      return "list";
    case VAL_SET:
      return v->seq.size ? "frozenset" : "set";
    case VAL_DICT:
      return "dict";
    case VAL_SLICE:
      return "slice";
    case VAL_SYMBOL:
      /* Ints beyond 64 bits are kept as their digits. */
      return _graft_value_is_bigint (v) ? "int beyond 64 bits" : "torch constant";
    case VAL_DEVICE:
      return "torch.device";
    case VAL_PROXY:
    case VAL_ATTR_PROXY:
      return "traced value";
    case VAL_PYMODULE:
      return "module";
    case VAL_PATH_FN:
    case VAL_BUILTIN:
    case VAL_FUNCTION:
    case VAL_BOUND:
    case VAL_METHOD:
      return "function";
    case VAL_NN_CLASS:
    case VAL_CLASS:
    case VAL_TYPE:
    case VAL_GENERIC:
      return "class";
    case VAL_ITER:
      return v->iter.lazy->type_name;
    case VAL_OBJECT:
      return v->obj->class_name;
    case VAL_SELF_PATH:
      return "module";
    case VAL_TENSOR:
      return "tensor";
    case VAL_PARAMETER:
      return "Parameter";
    case VAL_SUPER:
      return "super";
    default:
      return "value";
    }
}

/* Whether a traced value is anywhere inside @v (containers, slices). */
gboolean
_graft_value_holds_proxy (const Value *v)
{
  if (_graft_value_is_proxy (v))
    return TRUE;
  if (_graft_value_is_seq (v) || v->kind == VAL_DICT)
    {
      const PtrVec *items = v->kind == VAL_DICT ? v->dict.values : v->seq.items;
      Tracer       *t = items->tracer;
      gboolean      found = FALSE;

      /* (A container it is inside holds no proxy but its other items.) */
      if (items->len == 0 || v->walking || !_graft_tracer_walk_enter (t))
        return FALSE;
      ((Value *) v)->walking = TRUE;
      for (guint i = 0; i < items->len && !found; i++)
        found = _graft_value_holds_proxy (items->pdata[i]);
      ((Value *) v)->walking = FALSE;
      _graft_tracer_walk_leave (t);
      return found;
    }
  if (v->kind == VAL_SLICE)
    return _graft_value_holds_proxy (v->slice.start) ||
           _graft_value_holds_proxy (v->slice.stop) ||
           _graft_value_holds_proxy (v->slice.step);
  return FALSE;
}

gboolean
_graft_value_is_number (const Value *v)
{
  return v->kind == VAL_BOOL || v->kind == VAL_INT || v->kind == VAL_FLOAT ||
         v->kind == VAL_COMPLEX;
}

/* Python `==` between constants (identity for everything else). */
gboolean
_graft_value_equal (const Value *a,
                    const Value *b)
{
  if (a == b)
    return TRUE;
  /* An int beyond 64 bits equals only itself, or a float of its value. */
  if (_graft_value_is_bigint (a) || _graft_value_is_bigint (b))
    {
      int c;

      return _graft_tracer_bigint_compare (a, b, &c) && c == 0;
    }
  if (_graft_value_is_number (a) && _graft_value_is_number (b))
    {
      GraftArg x, y;
      gboolean eq;

      /* graft-arg already implements Python's numeric equality. */
      if (a->kind == VAL_COMPLEX)
        graft_arg_init_complex (&x, a->c[0], a->c[1]);
      else if (a->kind == VAL_FLOAT)
        graft_arg_init_float (&x, a->f);
      else if (a->kind == VAL_BOOL)
        graft_arg_init_bool (&x, a->b);
      else
        graft_arg_init_int (&x, a->i);
      if (b->kind == VAL_COMPLEX)
        graft_arg_init_complex (&y, b->c[0], b->c[1]);
      else if (b->kind == VAL_FLOAT)
        graft_arg_init_float (&y, b->f);
      else if (b->kind == VAL_BOOL)
        graft_arg_init_bool (&y, b->b);
      else
        graft_arg_init_int (&y, b->i);
      eq = graft_arg_python_equal (&x, &y);
      graft_arg_clear (&x);
      graft_arg_clear (&y);
      return eq;
    }
  if (a->kind != b->kind)
    return FALSE;
  switch (a->kind)
    {
    case VAL_NONE:
    case VAL_ELLIPSIS:
      return TRUE;
    case VAL_STR:
      return a->str.len == b->str.len && memcmp (a->str.s, b->str.s, a->str.len) == 0;
    case VAL_SYMBOL:
    case VAL_DEVICE:
    case VAL_PYMODULE:
    case VAL_PATH_FN:
    case VAL_NN_CLASS:
    case VAL_BUILTIN:
    case VAL_TYPE:
    case VAL_SELF_PATH:
      return strcmp (a->path, b->path) == 0;
    case VAL_GENERIC:
      return strcmp (a->generic.repr, b->generic.repr) == 0;
    case VAL_ITER:
      return FALSE;
    case VAL_TUPLE:
    case VAL_LIST:
      {
        Tracer  *t = a->seq.items->tracer;
        gboolean eq = TRUE;

        if (a->seq.items->len != b->seq.items->len)
          return FALSE;
        if (a->seq.items->len == 0)
          return TRUE;
        if (!_graft_tracer_walk_enter (t))
          return FALSE;
        for (guint i = 0; i < a->seq.items->len && eq; i++)
          eq = _graft_value_equal (a->seq.items->pdata[i], b->seq.items->pdata[i]);
        _graft_tracer_walk_leave (t);
        return eq;
      }
    case VAL_SET:
      if (a->seq.items->len != b->seq.items->len)
        return FALSE;
      for (guint i = 0; i < a->seq.items->len; i++)
        if (!_graft_set_has (b, a->seq.items->pdata[i]))
          return FALSE;
      return TRUE;
    case VAL_DICT:
      {
        Tracer  *t = a->dict.keys->tracer;
        gboolean eq = TRUE;

        if (a->dict.keys->len != b->dict.keys->len)
          return FALSE;
        if (a->dict.keys->len == 0)
          return TRUE;
        if (!_graft_tracer_walk_enter (t))
          return FALSE;
        for (guint i = 0; i < a->dict.keys->len && eq; i++)
          {
            Value *other = _graft_dict_get (b, a->dict.keys->pdata[i]);

            eq = other != NULL && _graft_value_equal (a->dict.values->pdata[i], other);
          }
        _graft_tracer_walk_leave (t);
        return eq;
      }
    case VAL_SLICE:
      return _graft_value_equal (a->slice.start, b->slice.start) &&
             _graft_value_equal (a->slice.stop, b->slice.stop) &&
             _graft_value_equal (a->slice.step, b->slice.step);
    case VAL_OBJECT:
      {
        gboolean eq;

        return _graft_dataclass_equal (a, b, &eq) && eq;
      }
    case VAL_PROXY:
      return a->node == b->node;
    case VAL_CLASS: /* type(self) makes a new value of the one class */
      return a->cls == b->cls;
    case VAL_BOOL:
    case VAL_INT:
    case VAL_FLOAT:
    case VAL_COMPLEX:
    case VAL_ATTR_PROXY:
    case VAL_FUNCTION:
    case VAL_BOUND:
    case VAL_METHOD:
    case VAL_TENSOR:
    case VAL_PARAMETER:
    case VAL_SUPER:
    default:
      return FALSE;
    }
}

Value *
_graft_dict_get (const Value *dict,
                 const Value *key)
{
  for (guint i = 0; i < dict->dict.keys->len; i++)
    if (_graft_value_equal (dict->dict.keys->pdata[i], key))
      return dict->dict.values->pdata[i];
  return NULL;
}

void
_graft_dict_set (Tracer *t,
                 Value  *dict,
                 Value  *key,
                 Value  *value)
{
  for (guint i = 0; i < dict->dict.keys->len; i++)
    if (_graft_value_equal (dict->dict.keys->pdata[i], key))
      {
        dict->dict.values->pdata[i] = value;
        return;
      }
  _graft_vec_add (dict->dict.keys, key);
  _graft_vec_add (dict->dict.values, value);
}

/* Python's builtin classes, per Python of the oracles (3.11 for torch
 * 1.13.1, 3.13 for 2.6; gen-python-builtins.py asks each), sorted: how
 * the exception classes keep their arguments. */
#define GRAFT_PYTHON_CLASS(name, plain_args, key_text) { name, plain_args, key_text },
static const PythonClass python_classes_3_11[] = {
#include "graft-python-builtins-3.11.inc"
};
static const PythonClass python_classes_3_13[] = {
#include "graft-python-builtins-3.13.inc"
};
#undef GRAFT_PYTHON_CLASS

static int
python_class_compare (const void *key,
                      const void *row)
{
  return strcmp (key, ((const PythonClass *) row)->name);
}

static const PythonClass *
python_class_in (const PythonClass *table,
                 gsize              n,
                 const char        *name)
{
  return bsearch (name, table, n, sizeof table[0], python_class_compare);
}

/**
 * _graft_tracer_python_class:
 *
 * Returns: (nullable): the row of Python's builtin class @name (`int`,
 *   `map`, `OSError`) in the Python of @t's dialect, or %NULL when that
 *   Python's builtins hold no class of that name
 */
const PythonClass *
_graft_tracer_python_class (Tracer     *t,
                            const char *name)
{
  return t->dialect->torch == GRAFT_TORCH_1_13
             ? python_class_in (python_classes_3_11, G_N_ELEMENTS (python_classes_3_11), name)
             : python_class_in (python_classes_3_13, G_N_ELEMENTS (python_classes_3_13), name);
}

/**
 * _graft_value_builtin_class:
 *
 * Whether @name is one of Python's builtin classes (of either Python of
 * the oracles: a VAL_BUILTIN of the other's name is never made), which
 * print as `<class 'int'>`: the types (lower case) and the exceptions
 * (capitalised) that type() gives (graft-tracer-builtins.c).
 */
gboolean
_graft_value_builtin_class (const char *name)
{
  return python_class_in (python_classes_3_13, G_N_ELEMENTS (python_classes_3_13), name) != NULL ||
         python_class_in (python_classes_3_11, G_N_ELEMENTS (python_classes_3_11), name) != NULL;
}

/**
 * _graft_value_is_class:
 *
 * Whether @v is a class that _graft_value_append_str() prints as Python
 * does, `<class 'int'>`: a builtin type, torch.Tensor, type(None), torch.fx's
 * Proxy (what type() gives, graft-tracer-builtins.c).  torch.nn's classes
 * print their module's path (`torch.nn.modules.linear.Linear`), which Graft
 * does not keep: they are classes whose __name__ is known, not printed.
 */
gboolean
_graft_value_is_class (const Value *v)
{
  if (v->kind == VAL_TYPE)
    return !g_str_has_prefix (v->path, "typing.");
  if (v->kind == VAL_NN_CLASS)
    return TRUE;
  return v->kind == VAL_BUILTIN && _graft_value_builtin_class (v->path);
}

/**
 * _graft_tracer_check_printable:
 * @what: the operation, for the error: `str()`, `a format`
 *
 * Whether _graft_value_append_str() prints @v exactly as Python does; if
 * not (a function, a module, a tensor's data, an object's address), fails
 * the tracer at @at rather than print something else.
 *
 * Returns: %FALSE with the tracer's error
 */
static gboolean
check_printable_in (Tracer            *t,
                    const Value       *v,
                    const char        *what,
                    const GraftPyExpr *at)
{
  switch (v->kind)
    {
    case VAL_NONE:
    case VAL_BOOL:
    case VAL_INT:
    case VAL_FLOAT:
    case VAL_COMPLEX:
    case VAL_STR:
    case VAL_ELLIPSIS:
    case VAL_SYMBOL:
    case VAL_DEVICE:
    case VAL_PROXY:
    case VAL_GENERIC:
      return TRUE;
    case VAL_TUPLE:
    case VAL_LIST:
      if (v->kind == VAL_LIST && v->seq.range != NULL)
        break;
      for (guint i = 0; i < v->seq.items->len; i++)
        if (!_graft_tracer_check_printable (t, v->seq.items->pdata[i], what, at))
          return FALSE;
      return TRUE;
    case VAL_SET:
      if (!_graft_set_order_known (v))
        {
          _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                              "%s of a set prints its items in CPython's hash order, which Graft "
                              "knows for ints 0 to 7 only",
                              what);
          return FALSE;
        }
      for (guint i = 0; i < v->seq.items->len; i++)
        if (!_graft_tracer_check_printable (t, v->seq.items->pdata[i], what, at))
          return FALSE;
      return TRUE;
    case VAL_DICT:
      for (guint i = 0; i < v->dict.keys->len; i++)
        if (!_graft_tracer_check_printable (t, v->dict.keys->pdata[i], what, at) ||
            !_graft_tracer_check_printable (t, v->dict.values->pdata[i], what, at))
          return FALSE;
      return TRUE;
    case VAL_SLICE:
      return _graft_tracer_check_printable (t, v->slice.start, what, at) &&
             _graft_tracer_check_printable (t, v->slice.stop, what, at) &&
             _graft_tracer_check_printable (t, v->slice.step, what, at);
    case VAL_TYPE:
      return TRUE;
    case VAL_BUILTIN:
      if (_graft_value_is_class (v))
        return TRUE;
      break;
    case VAL_OBJECT:
      /* A caught exception whose args Graft knows: BaseException's text. */
      if (v->obj->exception != NULL && v->obj->exception_args != NULL)
        {
          const PtrVec *args = v->obj->exception_args->seq.items;

          /* A traced value prints as its repr, `Proxy(x)`, and only
           * where Graft knows it is one. */
          for (guint i = 0; i < args->len; i++)
            if (((const Value *) args->pdata[i])->kind != VAL_PROXY &&
                (_graft_value_holds_proxy (args->pdata[i]) ||
                 !_graft_tracer_check_printable (t, args->pdata[i], what, at)))
              {
                if (t->error == NULL)
                  _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                      "%s of an exception whose arguments hold a traced value "
                                      "is not modelled by Graft's tracer",
                                      what);
                return FALSE;
              }
          return TRUE;
        }
      /* A dataclass of the module's top level (its __qualname__ is its
       * name): `Name(a=1, b='x')`. */
      if (_graft_dataclass_repr_fields (v) != NULL)
        {
          const PtrVec *fields = _graft_dataclass_repr_fields (v);
          Value        *top = _graft_strmap_get (&t->globals->vars, v->obj->cls->name);

          if (top == NULL || top->kind != VAL_CLASS || top->cls != v->obj->cls)
            break;
          guint i;

          for (i = 0; i < fields->len; i++)
            {
              Value *f = _graft_strmap_get (&v->obj->attrs,
                                            _graft_dataclass_field_name (fields->pdata[i]));

              if (!_graft_dataclass_field_in_repr (fields->pdata[i]))
                continue;
              if (f == NULL)
                break; /* deleted: Python's AttributeError */
              if (!_graft_tracer_check_printable (t, f, what, at))
                return FALSE;
            }
          if (i == fields->len)
            return TRUE;
        }
      break;
    case VAL_ATTR_PROXY:
    case VAL_PYMODULE:
    case VAL_PATH_FN:
    case VAL_NN_CLASS:
    case VAL_FUNCTION:
    case VAL_CLASS:
    case VAL_SELF_PATH:
    case VAL_BOUND:
    case VAL_METHOD:
    case VAL_TENSOR:
    case VAL_PARAMETER:
    case VAL_SUPER:
    case VAL_ITER:
    default:
      break;
    }
  _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                      "%s of a %s is not modelled by Graft's tracer (Python prints what Graft does "
                      "not keep)",
                      what, _graft_value_type_name (v));
  return FALSE;
}

gboolean
_graft_tracer_check_printable (Tracer            *t,
                               const Value       *v,
                               const char        *what,
                               const GraftPyExpr *at)
{
  gboolean ok;

  if (!_graft_value_is_seq (v) && v->kind != VAL_DICT && v->kind != VAL_OBJECT)
    return check_printable_in (t, v, what, at);
  /* A container met again inside itself prints as `[...]`. */
  if (v->walking)
    return v->kind != VAL_OBJECT;
  if (!_graft_tracer_walk_enter (t))
    return _graft_tracer_too_deep (t, at->start, at->end);
  ((Value *) v)->walking = TRUE;
  ok = check_printable_in (t, v, what, at);
  ((Value *) v)->walking = FALSE;
  _graft_tracer_walk_leave (t);
  return ok;
}

/**
 * _graft_tracer_exception_printable:
 * @args: an exception's `args`
 *
 * Whether _graft_value_append_exception_text() prints @args as Python
 * does; the tracer is left as it was (its pending error and exception
 * kept): an uncaught exception's message is printed when Graft can.
 */
gboolean
_graft_tracer_exception_printable (Tracer      *t,
                                   const Value *args)
{
  GError     *error = t->error;
  const char *raised = t->raised;
  Value      *raised_args = t->raised_args;
  Value      *raised_exc = t->raised_exc;
  Value      *raised_context = t->raised_context;
  Value       exc = { 0 };
  Object      obj = { 0 };
  GraftPyExpr at = { 0 };
  gboolean    ok;

  exc.kind = VAL_OBJECT;
  exc.obj = &obj;
  obj.exception = "Exception";
  obj.exception_args = (Value *) args;
  t->error = NULL;
  ok = _graft_tracer_check_printable (t, &exc, "str()", &at);
  g_clear_error (&t->error);
  t->walk_too_deep = FALSE;
  t->error = error;
  t->raised = raised;
  t->raised_args = raised_args;
  t->raised_exc = raised_exc;
  t->raised_context = raised_context;
  return ok;
}

/**
 * _graft_value_append_str:
 * @repr: %TRUE for `repr(v)`, %FALSE for `str(v)`
 *
 * Python's printing of a constant, for f-strings, `str()` and `repr()`.
 */
static void
append_str_in (GString     *out,
               const Value *v,
               gboolean     repr)
{
  switch (v->kind)
    {
    case VAL_NONE:
      g_string_append (out, "None");
      return;
    case VAL_BOOL:
      g_string_append (out, v->b ? "True" : "False");
      return;
    case VAL_INT:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, v->i);
      return;
    case VAL_FLOAT:
      graft_append_float_repr (out, v->f);
      return;
    case VAL_COMPLEX:
      {
        GraftArg a;

        graft_arg_init_complex (&a, v->c[0], v->c[1]);
        graft_arg_append_repr (out, &a, GRAFT_REPR_CODE, NULL, NULL);
        graft_arg_clear (&a);
      }
      return;
    case VAL_STR:
      if (repr)
        graft_append_str_repr (out, v->str.s, v->str.len);
      else
        g_string_append_len (out, v->str.s, v->str.len);
      return;
    case VAL_ELLIPSIS:
      g_string_append (out, "Ellipsis");
      return;
    case VAL_TUPLE:
    case VAL_LIST:
      /* A torch.Size prints as `torch.Size([2, 5])`. */
      g_string_append (out, v->seq.size ? "torch.Size([" : v->kind == VAL_TUPLE ? "("
                                                                                : "[");
      for (guint i = 0; i < v->seq.items->len; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          _graft_value_append_str (out, v->seq.items->pdata[i], TRUE);
        }
      if (v->kind == VAL_TUPLE && v->seq.items->len == 1 && !v->seq.size)
        g_string_append_c (out, ',');
      g_string_append (out, v->seq.size ? "])" : v->kind == VAL_TUPLE ? ")"
                                                                      : "]");
      return;
    case VAL_SET:
      /* `set()`, `{1, 2}`, `frozenset({1, 2})`, in the order CPython
       * walks it (_graft_tracer_check_printable() checked it is known). */
      if (v->seq.items->len == 0)
        {
          g_string_append (out, v->seq.size ? "frozenset()" : "set()");
          return;
        }
      g_string_append (out, v->seq.size ? "frozenset({" : "{");
      for (guint i = 0; i < v->seq.items->len; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          _graft_value_append_str (out, _graft_set_nth (v, i), TRUE);
        }
      g_string_append (out, v->seq.size ? "})" : "}");
      return;
    case VAL_DICT:
      g_string_append_c (out, '{');
      for (guint i = 0; i < v->dict.keys->len; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          _graft_value_append_str (out, v->dict.keys->pdata[i], TRUE);
          g_string_append (out, ": ");
          _graft_value_append_str (out, v->dict.values->pdata[i], TRUE);
        }
      g_string_append_c (out, '}');
      return;
    case VAL_SLICE:
      g_string_append (out, "slice(");
      _graft_value_append_str (out, v->slice.start, TRUE);
      g_string_append (out, ", ");
      _graft_value_append_str (out, v->slice.stop, TRUE);
      g_string_append (out, ", ");
      _graft_value_append_str (out, v->slice.step, TRUE);
      g_string_append_c (out, ')');
      return;
    case VAL_SYMBOL:
      g_string_append (out, v->path);
      return;
    case VAL_DEVICE:
      if (repr)
        {
          /* torch.device's repr names the index apart. */
          const char *colon = strchr (v->path, ':');

          if (colon == NULL)
            g_string_append_printf (out, "device(type='%s')", v->path);
          else
            g_string_append_printf (out, "device(type='%.*s', index=%s)", (int) (colon - v->path),
                                    v->path, colon + 1);
        }
      else
        g_string_append (out, v->path);
      return;
    case VAL_PROXY:
      g_string_append (out, graft_node_get_name (v->node));
      return;
    case VAL_TYPE:
      if (g_str_has_prefix (v->path, "typing."))
        g_string_append (out, v->path);
      else
        g_string_append_printf (out, "<class '%s'>", v->path);
      return;
    case VAL_GENERIC:
      /* A torch.Tag member (graft-tracer-oppackets.c): `<Tag.core: 0>`, whose
       * str() is an Enum's, `Tag.core`. */
      if (!repr && strcmp (v->generic.origin, "torch.Tag") == 0)
        g_string_append_len (out, v->generic.repr + 1, strcspn (v->generic.repr + 1, ":"));
      else
        g_string_append (out, v->generic.repr);
      return;
    case VAL_BUILTIN:
      if (!_graft_value_is_class (v))
        break;
      g_string_append_printf (out, "<class '%s'>", v->path);
      return;
    case VAL_OBJECT:
      if (v->obj->exception == NULL && _graft_dataclass_repr_fields (v) != NULL)
        {
          const PtrVec *fields = _graft_dataclass_repr_fields (v);

          gboolean first = TRUE;

          g_string_append_printf (out, "%s(", v->obj->cls->name);
          for (guint i = 0; i < fields->len; i++)
            {
              const char *name = _graft_dataclass_field_name (fields->pdata[i]);

              if (!_graft_dataclass_field_in_repr (fields->pdata[i]))
                continue;
              g_string_append_printf (out, "%s%s=", first ? "" : ", ", name);
              first = FALSE;
              _graft_value_append_str (out, _graft_strmap_get (&v->obj->attrs, name), TRUE);
            }
          g_string_append_c (out, ')');
          return;
        }
      if (v->obj->exception == NULL || v->obj->exception_args == NULL)
        break;
      _graft_value_append_exception_text (out, v->obj->exception, v->obj->exception_args, repr);
      return;
    case VAL_ATTR_PROXY:
    case VAL_PYMODULE:
    case VAL_PATH_FN:
    case VAL_NN_CLASS:
    case VAL_FUNCTION:
    case VAL_CLASS:
    case VAL_SELF_PATH:
    case VAL_BOUND:
    case VAL_METHOD:
    case VAL_TENSOR:
    case VAL_PARAMETER:
    case VAL_SUPER:
    case VAL_ITER:
    default:
      break;
    }
  g_string_append_printf (out, "<%s>", _graft_value_type_name (v));
}

/* An argument of an exception, as BaseException prints it: a traced
 * value as its repr. */
static void
append_exception_arg (GString     *out,
                      const Value *v,
                      gboolean     repr)
{
  if (v->kind == VAL_PROXY)
    g_string_append_printf (out, "Proxy(%s)", graft_node_get_name (v->node));
  else
    _graft_value_append_str (out, v, repr);
}

/**
 * _graft_value_append_exception_text:
 * @cls: the exception's class
 * @args: its `args`, a tuple that _graft_tracer_exception_printable() accepts
 * @repr: %TRUE for `repr(e)`
 *
 * BaseException's __str__ (nothing, the one argument, its repr for a
 * KeyError, or the tuple's repr) or __repr__ (`ValueError('bad', 2)`).
 */
void
_graft_value_append_exception_text (GString     *out,
                                    const char  *cls,
                                    const Value *args,
                                    gboolean     repr)
{
  const PtrVec *items = args->seq.items;

  if (repr || items->len > 1)
    {
      if (repr)
        g_string_append (out, cls);
      g_string_append_c (out, '(');
      for (guint i = 0; i < items->len; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          append_exception_arg (out, items->pdata[i], TRUE);
        }
      g_string_append_c (out, ')');
    }
  else if (items->len == 1)
    append_exception_arg (out, items->pdata[0], strcmp (cls, "KeyError") == 0);
}

void
_graft_value_append_str (GString     *out,
                         const Value *v,
                         gboolean     repr)
{
  Tracer *t;

  if (!_graft_value_is_seq (v) && v->kind != VAL_DICT)
    {
      append_str_in (out, v, repr);
      return;
    }
  /* A container printed inside itself: CPython's reprs of lists, dicts,
   * tuples and sets (Py_ReprEnter) print `[...]`, `{...}`, `(...)`,
   * `set(...)` there. */
  if (v->walking)
    {
      g_string_append (out, v->kind == VAL_DICT    ? "{...}"
                            : v->kind == VAL_TUPLE ? "(...)"
                            : v->kind == VAL_SET   ? (v->seq.size ? "frozenset(...)" : "set(...)")
                                                   : "[...]");
      return;
    }
  /* (_graft_tracer_check_printable() stops the walks that printing
   * starts; keys of sets and dicts are printed without it.) */
  t = v->kind == VAL_DICT ? v->dict.keys->tracer : v->seq.items->tracer;
  if (!_graft_tracer_walk_enter (t))
    return;
  ((Value *) v)->walking = TRUE;
  append_str_in (out, v, repr);
  ((Value *) v)->walking = FALSE;
  _graft_tracer_walk_leave (t);
}
