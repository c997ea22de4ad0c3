/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-namespace.c: node and global names as torch.fx makes them
 * (`torch/fx/graph.py`: `_Namespace.create_name`, `_snake_case`,
 * `Graph._target_to_str`).  A namespace never releases a name: an erased
 * node keeps its name reserved, which is what makes a copied `neg` become
 * `neg_2` after `neg` was erased.
 *
 * Names live in blocks owned by the namespace, so a returned name stays
 * valid (and its address stable) for the namespace's lifetime.  Each is
 * stored after a header of eight bytes: its hash, so that a stored name
 * is found again without hashing its text (a graph unbinds the name of
 * every node it erases), and, for undo, what its making replaced in torch
 * 2.x's per-base counts.
 */
#include "config.h"

#include "graft-namespace.h"
#include "graft-namespace-private.h"
#include "graft-dialect.h"
#include "graft-limits.h"
#include "graft-name-table-private.h"
#include "graft-graph.h"
#include "graft-node-private.h"

#include <string.h>

/* The names taken: an open-addressing set whose slots are ten bytes, a
 * 16-bit tag of the name's hash in one array and an entry in another.
 * The entry is the stored name, or, for a name bound to a node
 * (graft-graph.c binds each live node's name), the node's address + 1,
 * whose name is the stored one: the node is found from its name without a
 * slot of its own.  Names are stored at even addresses, so the low bit
 * tells the two apart.  Probing reads the tag array only (a removed slot
 * is marked there too); an entry is read only when its tag matches, and
 * only a used slot's entry is ever written, so only the tag array is
 * zeroed.  The whole hash is in the name's header, for growing.  The
 * probe steps 1, 2, 3, ... (triangular numbers, which visit every slot of
 * a power of two): at the load of 3/4, linear probing's clusters make an
 * insertion probe about eight slots, this about four.  The set grows at
 * 7/8 (about eight probes then): every name of a graph has a slot, and
 * 3/4 made a graph of 100,000 nodes keep 262,144 (31 bytes a node) rather
 * than 131,072. */
typedef struct
{
  guint16  *tags;    /* USED_EMPTY, USED_REMOVED, or the name's used_tag() */
  gpointer *entries; /* the name, or a bound node + 1; in a used slot only */
  guint     mask;    /* capacity - 1, a power of two; load at most 7/8 */
  guint     n_items;
  guint     n_occupied; /* items and removed slots */
} UsedNames;

#define USED_NONE G_MAXUINT

/* The counted names of one base (`neg_1`, `neg_2`, ...) made by counting
 * on from it (put_counted(), the way most nodes are named): each in an
 * array indexed by its number rather than a slot of the names' set, so
 * that making one neither hashes it nor probes the set, and keeps 8 bytes
 * for it rather than a slot at the set's load.  `entries[k - 1]` is
 * `base_k` (the stored name, or its bound node + 1, as in the set) or
 * NULL (free, or in the set: a name is in one place only).  Every lookup
 * by text looks in the set first, then here (run_find()); a name stored
 * here has IN_RUN in its header, and its run and number where the set keeps
 * the hash, so that it is found by its address too.  A name released
 * (undo) leaves its entry NULL; put back, it goes to the set.
 *
 * The entries are kept in pages (run_entry()): the first grows up to
 * RUN_PAGE entries, the others hold RUN_PAGE each and never move, so that
 * a long run (30,000 `add_k`) is not copied again each time it grows. */
typedef struct
{
  gpointer **pages;
  guint      n;        /* entries 0 .. n - 1 are set (NULL or a name) */
  guint      capacity; /* entries in the pages */
  guint      index;    /* in the namespace's run_list */
} Run;

#define RUN_PAGE_BITS 10
#define RUN_PAGE      (1u << RUN_PAGE_BITS)

/* Entry @i of @run (below its capacity): `base_<i + 1>`. */
static inline gpointer *
run_entry (const Run *run,
           guint      i)
{
  return &run->pages[i >> RUN_PAGE_BITS][i & (RUN_PAGE - 1)];
}

/* The pages @run holds. */
static inline guint
run_n_pages (const Run *run)
{
  return run->capacity == 0 ? 0 : (run->capacity + RUN_PAGE - 1) >> RUN_PAGE_BITS;
}

/* A base's span: `base_<lo>` ... `base_<end - 1>` are all taken (an
 * empty span when end <= lo).  torch counts a taken numbered candidate
 * `base_<k>` on from k, one name at a time, and a module of a list called
 * in a loop (`layers.2`, when `layers_1` is free, so that the run in
 * `filled` is empty) makes it scan every name it made before: quadratic.
 * Each scan past the run ends at a name that is then taken, so the names
 * it went through and the one it made are a span, and the next scan that
 * starts in it goes on from its end, where torch's reaches too.  Only
 * undo releases a name; releasing one inside a span ends the span there
 * (_graft_namespace_remove()). */
typedef struct
{
  guint32 lo, end;
} Span;

/* A run's name keeps its run's index and its number where a set's name
 * keeps its hash: RUN_K_BITS bits of number under the index.  A name of a
 * larger number, or of a run past the first 2^(32 - RUN_K_BITS), goes to
 * the set. */
#define RUN_K_BITS 20
#define RUN_K_MASK ((1u << RUN_K_BITS) - 1)
#define RUN_MAX    (1u << (32 - RUN_K_BITS))

/* How far past a run's last entry a number may go and still be kept in
 * it (the entries between are NULL): a few names of the base taken some
 * other way (`add_3` read verbatim) do not send the rest to the set. */
#define RUN_SLACK 64

#define COUNTED_TEXT 24
/* A remembered candidate's last name: a base shorter than COUNTED_TEXT,
 * `_`, at most ten digits (the number is below 2^31) and the zero. */
#define COUNTED_NAME 40
/* count_from()'s @why for a base that is not the caller's candidate. */
#define COUNTED_FORGET (-2)

#define USED_EMPTY   0u
#define USED_REMOVED 1u

/* A stored name's header, eight bytes before it: the hash of its text
 * (set when it is taken) and the count its making replaced + 1
 * (REPLACED_BIG: in the namespace's `big_replaced`, for a count that
 * needs 64 bits).  Names sit at even addresses only, so the two fields
 * are read and written with memcpy. */
#define NAME_HEADER     8
#define HEADER_HASH     8 /* bytes before the name */
#define HEADER_REPLACED 4
/* The replaced count's field keeps 31 bits; its top bit, IN_RUN, says
 * that the name is kept in a Run (whose index and the number are then
 * where a set name keeps its hash). */
#define IN_RUN       0x80000000u
#define REPLACED_BIG 0x7FFFFFFFu

/* torch 2.x's `_base_count` holds Python integers: a name read with a
 * suffix of 19 digits or more (`add_1000000000000000000`) makes its base
 * count on from there (`add_1000000000000000001`).  A count of at most
 * SMALL_DIGITS digits (and what counting on from one adds) is kept as a
 * number; a longer one is COUNT_BIG in `base_count`, its text in
 * `big_count`. */
#define SMALL_DIGITS 18
#define COUNT_BIG    G_MAXSIZE

static inline guint32
header_get (const char *stored,
            gsize       field)
{
  guint32 value;

  memcpy (&value, stored - field, sizeof value);
  return value;
}

static inline void
header_set (const char *stored,
            gsize       field,
            guint32     value)
{
  memcpy ((char *) stored - field, &value, sizeof value);
}

/* Both fields of a header, as header_set_both() writes them: the hash
 * field @hash (or a run name's run and number) and the count field. */
static inline guint64
header_pair (guint32 hash,
             guint32 replaced)
{
  G_STATIC_ASSERT (HEADER_HASH == NAME_HEADER && HEADER_REPLACED == NAME_HEADER - 4);
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  return ((guint64) replaced << 32) | hash;
#else
  return ((guint64) hash << 32) | replaced;
#endif
}

/* Both fields of @stored's header in one move. */
static inline void
header_set_both (const char *stored,
                 guint64     pair)
{
  memcpy ((char *) stored - NAME_HEADER, &pair, sizeof pair);
}

/* Sixteen bits of a name's hash as its slot keeps them (the slot's
 * place comes from the low bits; these are mixed from all of them): never
 * USED_EMPTY or USED_REMOVED.  A slot whose tag matches is a name to
 * compare (one in 65,534 that is not). */
static inline guint16
used_tag (guint hash)
{
  guint16 tag = (guint16) (((guint32) hash * 0x9E3779B1u) >> 16);

  return tag > USED_REMOVED ? tag : (guint16) (tag + 2);
}

static inline gboolean
entry_is_node (gconstpointer entry)
{
  return ((guintptr) entry & 1) != 0;
}

static inline GraftNode *
entry_node (gconstpointer entry)
{
  return (GraftNode *) ((guintptr) entry - 1);
}

/* The stored name of an entry. */
static inline const char *
entry_name (gconstpointer entry)
{
  return entry_is_node (entry) ? graft_node_get_name (entry_node (entry)) : entry;
}

static void
used_init (UsedNames *u,
           guint      size)
{
  u->mask = size - 1;
  u->entries = g_malloc (size * (sizeof (gpointer) + sizeof (guint16)));
  u->tags = (guint16 *) (u->entries + size);
  memset (u->tags, 0, size * sizeof (guint16));
  u->n_items = u->n_occupied = 0;
}

static void
used_clear (UsedNames *u)
{
  g_clear_pointer (&u->entries, g_free);
  u->tags = NULL;
  u->n_items = u->n_occupied = 0;
}

/* The slot of the first @len bytes of @key as a whole name (hashed to
 * @hash), or USED_NONE.  The set always has an empty slot, so this ends. */
static inline guint
used_find (const UsedNames *u,
           const char      *key,
           gsize            len,
           guint            hash)
{
  guint16 tag = used_tag (hash);

  for (guint i = hash & u->mask, step = 1;; i = (i + step++) & u->mask)
    {
      guint16 slot_tag = u->tags[i];

      if (slot_tag == USED_EMPTY)
        return USED_NONE;
      if (slot_tag == tag)
        {
          const char *name = entry_name (u->entries[i]);

          if (strncmp (name, key, len) == 0 && name[len] == '\0')
            return i;
        }
    }
}

/* The slot of @stored, a name as the namespace stored it, found by its
 * address and the hash in its header (no hashing, no text compared), or
 * USED_NONE if it is not taken. */
static inline guint
used_find_stored (const UsedNames *u,
                  const char      *stored)
{
  guint32 hash = header_get (stored, HEADER_HASH);
  guint16 tag = used_tag (hash);

  for (guint i = hash & u->mask, step = 1;; i = (i + step++) & u->mask)
    {
      guint16 slot_tag = u->tags[i];

      if (slot_tag == USED_EMPTY)
        return USED_NONE;
      if (slot_tag == tag && entry_name (u->entries[i]) == stored)
        return i;
    }
}

/* Puts @entry, whose name hashes to @hash, in the first free slot of its
 * probe sequence. */
static inline guint
used_place (UsedNames *u,
            gpointer   entry,
            guint32    hash)
{
  guint i = hash & u->mask;

  for (guint step = 1; u->tags[i] > USED_REMOVED; step++)
    i = (i + step) & u->mask;
  if (u->tags[i] == USED_EMPTY)
    u->n_occupied++;
  u->tags[i] = used_tag (hash);
  u->entries[i] = entry;
  u->n_items++;
  return i;
}

/* Moves the names of @u into a set of @size slots. */
static G_GNUC_NO_INLINE void
used_resize (UsedNames *u,
             guint      size)
{
  UsedNames old = *u;
  guint     old_size = old.mask + 1;

  guint mask;

  used_init (u, size);
  mask = u->mask;
  /* A slot keeps only a tag: the hash is in the name's header.  The new
   * set has no removed slot, and each name keeps its tag. */
  for (guint i = 0; i < old_size; i++)
    {
      guint16  tag = old.tags[i];
      gpointer entry;
      guint    j;

      if (tag <= USED_REMOVED)
        continue;
      entry = old.entries[i];
      j = header_get (entry_name (entry), HEADER_HASH) & mask;
      for (guint step = 1; u->tags[j] != USED_EMPTY; step++)
        j = (j + step) & mask;
      u->tags[j] = tag;
      u->entries[j] = entry;
    }
  u->n_items = u->n_occupied = old.n_items;
  used_clear (&old);
}

static void
used_grow (UsedNames *u)
{
  guint old_size = u->mask + 1;

  used_resize (u, u->n_items * 2 >= old_size / 2 ? old_size * 2 : old_size);
}

/* Adds @stored (not present), hashed to @hash, which its header keeps;
 * grows the set, or clears its removed slots, at 7/8 load.  Returns its
 * slot, valid until the set next changes. */
static inline guint
used_insert (UsedNames  *u,
             const char *stored,
             guint       hash)
{
  header_set (stored, HEADER_HASH, hash);
  if (G_UNLIKELY ((u->n_occupied + 1) * 8 > (u->mask + 1) * 7))
    used_grow (u);
  return used_place (u, (gpointer) stored, hash);
}

/* Removes the name in @slot: the slot stays in probe sequences. */
static void
used_remove (UsedNames *u,
             guint      slot)
{
  u->tags[slot] = USED_REMOVED;
  u->n_items--;
}

/* A candidate counted on from its base lately (`neg`, `sum`), by the
 * caller's pointer: its slots in base_count and filled, valid while those
 * tables keep their arrays (and the candidate its text, checked against
 * the base the filled slot holds), for a candidate that was taken (taken
 * names stay taken) or reserved with the same flags.  COUNTED_WAYS ways
 * per set (counted_home()), so that a few candidates whose addresses meet
 * in a set (heap addresses vary from run to run) do not evict each other
 * each time.  Cleared when a name is released, which may free a
 * candidate.  Only a base shorter than COUNTED_TEXT is remembered: its
 * text, padded with zeros, is what the candidate is checked against, and
 * `name` holds the last name made from it, `<base>_<digits>` padded with
 * zeros, which the next name is copied from in one move of a fixed size
 * (its terminating zero included) after its last digit is stepped. */
typedef struct
{
  const char    *candidate;
  GraftNameSlot *count_slot;
  GraftNameSlot *filled;
  GraftNameSlot *count_slots; /* base_count.slots when remembered */
  GraftNameSlot *filled_slots;
  Run           *run;   /* the base's */
  guint          state; /* the hash state of `<base>_` */
  /* The number the candidate's last name ended in (G_MAXUINT32: none yet,
   * and `name` is `<base>_`), and the hash state of `<base>_` and all its
   * digits but the last: the next number, most often one more with the
   * same digits but the last, is written and hashed from them. */
  guint32 last_num;
  guint   last_state;
  guint8  len;      /* of the base, less than COUNTED_TEXT */
  guint8  name_len; /* of the text in `name` */
  gint8   flags;    /* -1: the candidate is taken; else the flags with
                     * which it is reserved */
  guint8 stable;    /* the candidate's text is known to be the text and
                     * never to change (_graft_namespace_create_name_stable()) */
  guint16 suffix;   /* 0: the candidate is the base; else it is
                     * `<base>_<suffix - 1>` (`layers_2`, a module of a
                     * list), all of it in the text */
  char text[COUNTED_TEXT];
  char name[COUNTED_NAME];
} Counted;

struct _GraftNamespace
{
  /* Owned */
  UsedNames      used;    /* every name taken, with the node it is bound to */
  GraftNameTable filled;  /* base (owned) -> k: `base_1` ... `base_k` are all used */
  GString       *scratch; /* reused by create_name */
  GString       *probe;   /* reused by extend_filled */
  char          *block;   /* the newest block of names; starts with a link
                           * to the one before */
  gsize block_used;
  gsize block_size;
  gsize blocks_total; /* bytes of every block */

  /* The entry of the name made last (NULL: none), in the set or a run,
   * until the next name is made: lets a graph bind its new node to the
   * name without looking it up again. */
  gpointer *last;
  guint     n_bound;

  /* Counted names kept apart from `used` (Run): base (owned) -> the
   * run's index + 1 in run_list, which owns the runs. */
  GraftNameTable runs;
  GPtrArray     *run_list;
  guint          n_run_names;

  /* Where counting on from a numbered candidate last ended, per base
   * (Span): base (owned) -> its index + 1 in `spans`. */
  GraftNameTable span_index;
  GArray        *spans;

  /* torch 2.x (GraftDialect.names_count_per_base): `_base_count`, the
   * number last used for each base.  For undo, each name's header holds
   * the count its making replaced, + 1 (0: it changed no count). */
  gboolean       count_per_base;
  GraftNameTable base_count; /* base (owned) -> count, as a pointer
                              * (COUNT_BIG: in big_count) */
  GHashTable *big_count;     /* base (owned) -> its count's decimal text
                              * (owned), for COUNT_BIG; or NULL */
  GHashTable *big_replaced;  /* stored name -> the decimal text (owned)
                              * of a replaced count past 31 bits
                              * (REPLACED_BIG), or NULL */

  /* Candidates counted on from their base lately (`neg`, `sum`), by the
   * caller's pointer (Counted). */
  Counted  counted[64];
  gboolean counted_any; /* whether `counted` may hold a candidate: undo
                         * releasing many names clears it once */
};

#define COUNTED_WAYS 4

/* Takes @stored, hashed to @hash, in the set; returns its entry, valid
 * until the set next changes. */
static inline gpointer *
used_take (GraftNamespace *self,
           const char     *stored,
           guint           hash)
{
  guint slot = used_insert (&self->used, stored, hash);

  /* (The set may have grown: its entries read after.) */
  return &self->used.entries[slot];
}

/* The run of the base @base (its first @len bytes, hashed to @hash),
 * made if it has none. */
static Run *
run_for_base (GraftNamespace *self,
              const char     *base,
              gsize           len,
              guint           hash)
{
  GraftNameSlot *slot = _graft_name_table_find (&self->runs, base, len, hash);
  Run           *run;

  if (slot != NULL)
    return self->run_list->pdata[GPOINTER_TO_UINT (slot->value) - 1];
  run = g_new0 (Run, 1);
  run->index = self->run_list->len;
  g_ptr_array_add (self->run_list, run);
  _graft_name_table_insert_len (&self->runs, g_strndup (base, len), (guint) len, hash,
                                GUINT_TO_POINTER (run->index + 1));
  return run;
}

/* The number @name (of @len bytes) ends in, as a run keeps it (`_`, then
 * at most nine digits without a leading zero, after a base of at least
 * one byte), or 0; its base's length in @out_base_len. */
static inline guint
run_number (const char *name,
            gsize       len,
            gsize      *out_base_len)
{
  gsize i = len;
  guint k = 0, scale = 1;

  while (i > 0 && g_ascii_isdigit (name[i - 1]) && len - i < 9)
    {
      k += (guint) (name[i - 1] - '0') * scale;
      scale *= 10;
      i--;
    }
  if (i == len || i < 2 || name[i - 1] != '_' || name[i] == '0')
    return 0;
  *out_base_len = i - 1;
  return k;
}

/* The entry of @key (its first @len bytes) in its base's run, or NULL. */
static G_GNUC_NO_INLINE gpointer *
run_find (GraftNamespace *self,
          const char     *key,
          gsize           len)
{
  gsize          base_len;
  guint          k = run_number (key, len, &base_len);
  GraftNameSlot *slot;
  Run           *run;

  if (k == 0)
    return NULL;
  slot = _graft_name_table_find (&self->runs, key, base_len, _graft_name_hash (key, base_len));
  if (slot == NULL)
    return NULL;
  run = self->run_list->pdata[GPOINTER_TO_UINT (slot->value) - 1];
  if (k > run->n || *run_entry (run, k - 1) == NULL)
    return NULL;
  return run_entry (run, k - 1);
}

/* The entry of @stored, a name kept in a run (IN_RUN), found by its
 * address (its header has the run and the number); NULL if it was
 * released. */
static inline gpointer *
run_find_stored (GraftNamespace *self,
                 const char     *stored)
{
  guint32 field = header_get (stored, HEADER_HASH);
  guint   index = field >> RUN_K_BITS;
  guint   k = field & RUN_K_MASK;
  Run    *run;

  /* (Checked all the same: a header is cheap to misread.) */
  if (G_UNLIKELY (index >= self->run_list->len))
    return NULL;
  run = self->run_list->pdata[index];
  if (G_UNLIKELY (k - 1 >= run->n) || *run_entry (run, k - 1) == NULL ||
      entry_name (*run_entry (run, k - 1)) != stored)
    return NULL;
  return run_entry (run, k - 1);
}

/* Whether the first @len bytes of @key, hashed to @hash, are a name
 * taken: in the set, or in a run. */
static inline gboolean
name_taken (GraftNamespace *self,
            const char     *key,
            gsize           len,
            guint           hash)
{
  return used_find (&self->used, key, len, hash) != USED_NONE ||
         (self->n_run_names > 0 && run_find (self, key, len) != NULL);
}

/* run_put() past the run's end or its room: the entries up to @num
 * made, or FALSE if @num is out of its reach. */
static G_GNUC_NO_INLINE gboolean
run_reach (Run    *run,
           guint64 num)
{
  if (num > (guint64) run->n + RUN_SLACK || num > RUN_K_MASK || run->index >= RUN_MAX)
    return FALSE;
  while (num > run->capacity)
    if (run->capacity < RUN_PAGE)
      {
        /* The first page, doubled up to its full size. */
        guint capacity = MIN (MAX ((guint) num, MAX (2 * run->capacity, 16u)), RUN_PAGE);

        if (run->pages == NULL)
          run->pages = g_new0 (gpointer *, 1);
        run->pages[0] = g_renew (gpointer, run->pages[0], capacity);
        run->capacity = capacity;
      }
    else
      {
        guint n_pages = run_n_pages (run);

        run->pages = g_renew (gpointer *, run->pages, n_pages + 1);
        run->pages[n_pages] = g_new (gpointer, RUN_PAGE);
        run->capacity += RUN_PAGE;
      }
  /* (At most RUN_SLACK entries.) */
  for (guint i = run->n; i + 1 < num; i++)
    *run_entry (run, i) = NULL;
  run->n = (guint) num;
  return TRUE;
}

/* Keeps @stored, `<base>_<num>` and not taken, in @run, its base's, if
 * the number is near enough to the run's end; returns its entry, or NULL
 * (then the set must take it). */
static inline gpointer *
run_put (GraftNamespace *self,
         Run            *run,
         guint64         num,
         const char     *stored)
{
  /* Most often the number after the run's last, with room (a run never
   * has more than RUN_K_MASK entries, nor an index past RUN_MAX when it
   * has any). */
  if (G_LIKELY (num == (guint64) run->n + 1 && num <= run->capacity))
    run->n = (guint) num;
  else if (num > run->n && !run_reach (run, num))
    return NULL;
  header_set (stored, HEADER_HASH, (run->index << RUN_K_BITS) | (guint32) num);
  header_set (stored, HEADER_REPLACED, header_get (stored, HEADER_REPLACED) | IN_RUN);
  *run_entry (run, (guint) num - 1) = (gpointer) stored;
  self->n_run_names++;
  return run_entry (run, (guint) num - 1);
}

/* A remembered entry keeps the flags in a byte. */
G_STATIC_ASSERT (GRAFT_NAME_IS_BUILTIN < G_MAXINT8);

/* The first way of @candidate's set in `counted` (the others follow it),
 * from all the bits of its address: the tracer's candidates are strings
 * of a static table, a few bytes apart. */
static inline guint
counted_home (const char *candidate)
{
  return (guint) (((guint64) GPOINTER_TO_SIZE (candidate) *
                   G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >>
                  58) &
         ~(guint) (COUNTED_WAYS - 1);
}

/* The way of @candidate in its set, or COUNTED_WAYS. */
static inline guint
counted_way (GraftNamespace *self,
             const char     *candidate,
             guint           home)
{
  guint w = 0;

  while (w < COUNTED_WAYS && self->counted[home + w].candidate != candidate)
    w++;
  return w;
}

#define NAME_SPACE(len) ((NAME_HEADER + (len) + 1 + 1) & ~(gsize) 1)

/* Whether @candidate is @text, a remembered base (padded with zeros).
 * Inline: a call to strcmp() costs more than these few bytes. */
static inline gboolean
counted_text_is (const char *text,
                 const char *candidate)
{
  /* Four bytes a turn: the text has at least COUNTED_TEXT, and the
   * candidate is never read past a byte that differs from it. */
  for (;; candidate += 4, text += 4)
    {
      if (candidate[0] != text[0])
        return FALSE;
      if (text[0] == '\0')
        return TRUE;
      if (candidate[1] != text[1])
        return FALSE;
      if (text[1] == '\0')
        return TRUE;
      if (candidate[2] != text[2])
        return FALSE;
      if (text[2] == '\0')
        return TRUE;
      if (candidate[3] != text[3])
        return FALSE;
      if (text[3] == '\0')
        return TRUE;
    }
}

/* How many decimal digits @n has. */
static inline gsize
decimal_width (guint64 n)
{
  gsize w = 1;

  while (n >= 10000)
    {
      n /= 10000;
      w += 4;
    }
  if (n >= 100)
    w += n >= 1000 ? 3 : 2;
  else if (n >= 10)
    w += 1;
  return w;
}

static char *keep_name (GraftNamespace *self, const char *name, gsize len);

/* Remembers @base, a candidate just counted on from its own base (of
 * hash state @base_state), with its slots in base_count (NULL in torch
 * 1.x, which keeps no counts) and filled, and @why it was counted on: -1,
 * it is taken; else it is reserved for these GraftNameFlags.  Into the
 * way that holds @base, or the first, the others moving down one way
 * (the last one's candidate leaves).  Returns its entry, or
 * G_N_ELEMENTS (counted) if @base is too long to remember. */
static guint
remember_counted (GraftNamespace *self,
                  const char     *base,
                  gsize           base_len,
                  guint           base_state,
                  GraftNameSlot  *count_slot,
                  GraftNameSlot  *filled,
                  gint            why)
{
  guint m = counted_home (base);
  guint w = counted_way (self, base, m);

  if (w < COUNTED_WAYS)
    m += w;
  else
    memmove (&self->counted[m + 1], &self->counted[m],
             (COUNTED_WAYS - 1) * sizeof self->counted[0]);
  if (base_len >= COUNTED_TEXT)
    {
      self->counted[m].candidate = NULL;
      return G_N_ELEMENTS (self->counted);
    }
  self->counted_any = TRUE;
  self->counted[m].candidate = base;
  self->counted[m].flags = (gint8) why;
  self->counted[m].count_slot = count_slot;
  self->counted[m].filled = filled;
  self->counted[m].count_slots = self->base_count.slots;
  self->counted[m].filled_slots = self->filled.slots;
  self->counted[m].run = run_for_base (self, base, base_len, _graft_name_hash_finish (base_state));
  self->counted[m].state = _graft_name_hash_step (base_state, "_", 1);
  self->counted[m].len = (guint8) base_len;
  self->counted[m].suffix = 0;
  self->counted[m].last_num = G_MAXUINT32;
  self->counted[m].stable = FALSE;
  memset (self->counted[m].text, 0, COUNTED_TEXT);
  memcpy (self->counted[m].text, base, base_len);
  memset (self->counted[m].name, 0, COUNTED_NAME);
  memcpy (self->counted[m].name, base, base_len);
  self->counted[m].name[base_len] = '_';
  self->counted[m].name_len = (guint8) (base_len + 1);
  return m;
}

/* keep_numbered() when the block is full: through a composed copy. */
static char *
keep_name_slow (GraftNamespace *self,
                const char     *base,
                gsize           base_len,
                const char     *digits,
                gsize           n_digits)
{
  g_autofree char *name = g_malloc (base_len + 1 + n_digits + 1);

  memcpy (name, base, base_len);
  name[base_len] = '_';
  memcpy (name + base_len + 1, digits, n_digits);
  name[base_len + 1 + n_digits] = '\0';
  return keep_name (self, name, base_len + 1 + n_digits);
}

/* A copy of the first @len bytes of @name, NUL-terminated, after a header
 * of zeros, kept as long as the namespace. */
static char *
keep_name (GraftNamespace *self,
           const char     *name,
           gsize           len)
{
  gsize need = NAME_SPACE (len);
  char *p;

  if (self->block == NULL || self->block_used + need > self->block_size)
    {
      /* Blocks grow with the namespace, up to 64 KiB (the newest is
       * partly empty). */
      gsize size = MAX (MIN (self->block_size * 2, 64u << 10), 4096u);
      char *block;

      size = MAX (size, need + sizeof (char *));
      block = g_malloc (size);
      memcpy (block, &self->block, sizeof (char *));
      self->block = block;
      self->block_size = size;
      self->blocks_total += size;
      self->block_used = sizeof (char *);
    }
  p = self->block + self->block_used;
  memset (p, 0, NAME_HEADER);
  memcpy (p + NAME_HEADER, name, len);
  p[NAME_HEADER + len] = '\0';
  self->block_used += need;
  return p + NAME_HEADER;
}

/* keep_name() of `<base>_<digits>`, the name written in place. */
static char *
keep_numbered (GraftNamespace *self,
               const char     *base,
               gsize           base_len,
               const char     *digits,
               gsize           n_digits)
{
  gsize need = NAME_SPACE (base_len + 1 + n_digits);
  char *p;

  if (self->block == NULL || self->block_used + need > self->block_size)
    return keep_name_slow (self, base, base_len, digits, n_digits);
  p = self->block + self->block_used;
  memset (p, 0, NAME_HEADER);
  p += NAME_HEADER;
  memcpy (p, base, base_len);
  p[base_len] = '_';
  memcpy (p + base_len + 1, digits, n_digits);
  p[base_len + 1 + n_digits] = '\0';
  self->block_used += need;
  return p;
}

static void set_replaced_count_big (GraftNamespace *self,
                                    const char     *stored,
                                    guint64         value);

/* Sets the count @stored's making replaced + 1 (@value), which undo puts
 * back: in its header (IN_RUN kept), but for a count of 31 bits or more
 * (rare: a name read with a huge suffix). */
static inline void
set_replaced_count (GraftNamespace *self,
                    const char     *stored,
                    guint64         value)
{
  guint32 field = header_get (stored, HEADER_REPLACED);

  if (G_LIKELY (value < REPLACED_BIG && (field & ~IN_RUN) != REPLACED_BIG))
    header_set (stored, HEADER_REPLACED, (guint32) value | (field & IN_RUN));
  else
    set_replaced_count_big (self, stored, value);
}

/* Notes that making @stored replaced the count of decimal text @old:
 * REPLACED_BIG in its header, the text in `big_replaced`. */
static void
set_replaced_text (GraftNamespace *self,
                   const char     *stored,
                   const char     *old)
{
  guint32 in_run = header_get (stored, HEADER_REPLACED) & IN_RUN;

  if (self->big_replaced == NULL)
    self->big_replaced = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_hash_table_insert (self->big_replaced, (gpointer) stored, g_strdup (old));
  header_set (stored, HEADER_REPLACED, REPLACED_BIG | in_run);
}

static void
set_replaced_count_big (GraftNamespace *self,
                        const char     *stored,
                        guint64         value)
{
  guint32 in_run = header_get (stored, HEADER_REPLACED) & IN_RUN;
  char    old[24];

  if (value < REPLACED_BIG)
    {
      g_hash_table_remove (self->big_replaced, stored);
      header_set (stored, HEADER_REPLACED, (guint32) value | in_run);
      return;
    }
  g_snprintf (old, sizeof old, "%" G_GUINT64_FORMAT, value - 1);
  set_replaced_text (self, stored, old);
}

/* Writes @n in decimal backwards ending at @end; returns where it starts.
 * Two digits a step, in 32 bits when @n fits (node counts do). */
static inline char *
write_decimal (char   *end,
               guint64 n)
{
  static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                              "25262728293031323334353637383940414243444546474849"
                              "50515253545556575859606162636465666768697071727374"
                              "75767778798081828384858687888990919293949596979899";
  char             *p = end;
  guint32           m;

  while (n > G_MAXUINT32)
    {
      *--p = (char) ('0' + n % 10);
      n /= 10;
    }
  m = (guint32) n;
  while (m >= 100)
    {
      guint32 r = m % 100;

      m /= 100;
      p -= 2;
      p[0] = pairs[2 * r];
      p[1] = pairs[2 * r + 1];
    }
  if (m >= 10)
    {
      p -= 2;
      p[0] = pairs[2 * m];
      p[1] = pairs[2 * m + 1];
    }
  else
    *--p = (char) ('0' + m);
  return p;
}

/* Python 3.11's keyword.kwlist. */
static const char *const python_keywords[] = {
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
};

/* The keys of `builtins.__dict__` under /usr/bin/python3 (3.11, with `site`
 * loaded, which adds exit, quit, help, copyright, credits and license;
 * gen-python-builtins.py writes them).  A node may not take one of these
 * names: torch.fx would shadow the builtin. */
#define GRAFT_PYTHON_BUILTIN(name, exception, base, base2) name,
static const char *const python_builtins[] = {
#include "graft-python-builtins-3.11.inc"
};
#undef GRAFT_PYTHON_BUILTIN

/* torch.fx's `_custom_builtins`: globals every generated module has. */
static const char *const fx_custom_builtins[] = {
  "inf",
  "nan",
  "NoneType",
  "torch",
  "device",
  "fx_pytree",
  "pytree",
};

/* The three word lists in one table, name -> WORD_* bits, built once:
 * every new name is checked, so a linear scan would dominate naming.  It is
 * probed with the hash the namespace computed for its own table anyway. */
enum {
  WORD_KEYWORD = 1 << 0,
  WORD_BUILTIN = 1 << 1,
  WORD_CUSTOM = 1 << 2,
};

static GraftNameTable word_table;

static void
add_words (const char *const *list,
           gsize              n,
           guint              bit)
{
  for (gsize i = 0; i < n; i++)
    {
      gsize          len = strlen (list[i]);
      guint          hash = _graft_name_hash (list[i], len);
      GraftNameSlot *slot = _graft_name_table_find (&word_table, list[i], len, hash);

      if (slot != NULL)
        slot->value = GUINT_TO_POINTER (GPOINTER_TO_UINT (slot->value) | bit);
      else
        _graft_name_table_insert (&word_table, list[i], hash, GUINT_TO_POINTER (bit));
    }
}

static gpointer
build_word_table (gpointer data)
{
  _graft_name_table_init (&word_table, FALSE);
  add_words (python_keywords, G_N_ELEMENTS (python_keywords), WORD_KEYWORD);
  add_words (python_builtins, G_N_ELEMENTS (python_builtins), WORD_BUILTIN);
  add_words (fx_custom_builtins, G_N_ELEMENTS (fx_custom_builtins), WORD_CUSTOM);
  return NULL;
}

/* The WORD_* bits of the first @len bytes of @name, whose hash is @hash. */
/* No word ends in a digit or is longer than 25 bytes: most node names
 * (`add_3`, `layers_0`) are settled without a hash or a probe. */
static inline gboolean
may_be_word (const char *name,
             gsize       len)
{
  return len > 0 && len <= 25 && !g_ascii_isdigit (name[len - 1]);
}

static guint
word_bits_hashed (const char *name,
                  gsize       len,
                  guint       hash)
{
  static GOnce   once = G_ONCE_INIT;
  GraftNameSlot *slot;

  if (!may_be_word (name, len))
    return 0;
  g_once (&once, build_word_table, NULL);
  slot = _graft_name_table_find (&word_table, name, len, hash);
  return slot != NULL ? GPOINTER_TO_UINT (slot->value) : 0;
}

static guint
word_bits (const char *name)
{
  gsize len = strlen (name);

  if (!may_be_word (name, len))
    return 0;
  return word_bits_hashed (name, len, _graft_name_hash (name, len));
}

gboolean
graft_is_python_keyword (const char *name)
{
  return (word_bits (name) & WORD_KEYWORD) != 0;
}

gboolean
graft_is_python_builtin (const char *name)
{
  return (word_bits (name) & WORD_BUILTIN) != 0;
}

/**
 * graft_is_python_identifier:
 * @name: a UTF-8 string
 *
 * Mirrors `str.isidentifier()` for the ASCII range; a non-ASCII letter is
 * accepted as Python accepts most of them.  Keywords are identifiers.
 *
 * Returns: whether @name is a Python identifier
 */
gboolean
graft_is_python_identifier (const char *name)
{
  const char *p;

  if (name == NULL || *name == '\0')
    return FALSE;
  for (p = name; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        return FALSE;
      if (c == '_' || g_unichar_isalpha (c))
        continue;
      if (p != name && (g_unichar_isdigit (c) || g_unichar_type (c) == G_UNICODE_NON_SPACING_MARK ||
                        g_unichar_type (c) == G_UNICODE_SPACING_MARK ||
                        g_unichar_type (c) == G_UNICODE_CONNECT_PUNCTUATION))
        continue;
      return FALSE;
    }
  return TRUE;
}

static gboolean
is_illegal_hashed (const char    *name,
                   gsize          len,
                   guint          hash,
                   GraftNameFlags flags)
{
  guint bits = word_bits_hashed (name, len, hash);

  if ((bits & WORD_KEYWORD) != 0)
    return TRUE;
  /* A builtin's or custom builtin's name is legal only for that object. */
  if ((bits & (WORD_BUILTIN | WORD_CUSTOM)) != 0)
    return (flags & GRAFT_NAME_IS_BUILTIN) == 0;
  return FALSE;
}

static gboolean
is_illegal (const char    *name,
            gsize          len,
            GraftNameFlags flags)
{
  if (!may_be_word (name, len))
    return FALSE;
  return is_illegal_hashed (name, len, _graft_name_hash (name, len), flags);
}

static gboolean
is_used (GraftNamespace *self,
         const char     *name,
         gsize           len)
{
  return name_taken (self, name, len, _graft_name_hash (name, len));
}

/**
 * graft_namespace_new:
 * @dialect: whose rules the names follow
 *
 * Returns: (transfer full): an empty namespace
 */
GraftNamespace *
graft_namespace_new (const GraftDialect *dialect)
{
  GraftNamespace *self = g_new0 (GraftNamespace, 1);

  g_return_val_if_fail (dialect != NULL, self);

  self->count_per_base = dialect->names_count_per_base;
  _graft_name_table_init (&self->base_count, TRUE);

  used_init (&self->used, 64);
  self->last = NULL;
  _graft_name_table_init (&self->runs, TRUE);
  self->run_list = g_ptr_array_new ();
  _graft_name_table_init (&self->filled, TRUE);
  _graft_name_table_init (&self->span_index, TRUE);
  self->spans = g_array_new (FALSE, FALSE, sizeof (Span));
  self->scratch = g_string_new (NULL);
  self->probe = g_string_new (NULL);
  return self;
}

void
graft_namespace_free (GraftNamespace *self)
{
  if (self == NULL)
    return;
  used_clear (&self->used);
  for (guint i = 0; i < self->run_list->len; i++)
    {
      Run *run = self->run_list->pdata[i];

      for (guint p = 0; p < run_n_pages (run); p++)
        g_free (run->pages[p]);
      g_free (run->pages);
      g_free (run);
    }
  g_ptr_array_unref (self->run_list);
  _graft_name_table_clear (&self->runs);
  _graft_name_table_clear (&self->filled);
  _graft_name_table_clear (&self->span_index);
  g_array_unref (self->spans);
  g_string_free (self->scratch, TRUE);
  g_string_free (self->probe, TRUE);
  while (self->block != NULL)
    {
      char *block = self->block;

      memcpy (&self->block, block, sizeof (char *));
      g_free (block);
    }
  _graft_name_table_clear (&self->base_count);
  g_clear_pointer (&self->big_count, g_hash_table_unref);
  g_clear_pointer (&self->big_replaced, g_hash_table_unref);
  g_free (self);
}

gboolean
graft_namespace_contains (GraftNamespace *self,
                          const char     *name)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return is_used (self, name, strlen (name));
}

guint
graft_namespace_get_size (GraftNamespace *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->used.n_items + self->n_run_names;
}

/* Adds one to a decimal number written without leading zeros, in place. */
static void
increment_decimal (GString *digits)
{
  gssize i = (gssize) digits->len - 1;

  for (; i >= 0; i--)
    {
      if (digits->str[i] != '9')
        {
          digits->str[i]++;
          return;
        }
      digits->str[i] = '0';
    }
  g_string_prepend_c (digits, '1');
}

/* Sets @name to `<base>_<n>` (@name holds the base in its first
 * @base_len bytes). */
static void
set_suffix (GString *name,
            gsize    base_len,
            guint64  n)
{
  char  digits[24];
  char *end = digits + sizeof digits;
  char *p = end;
  gsize len;

  /* This runs once or twice per node name: digits are written backwards
   * and copied once, and the string only resized when it must grow. */
  do
    {
      *--p = (char) ('0' + n % 10);
      n /= 10;
    }
  while (n > 0);
  len = (gsize) (end - p);
  if (base_len + len + 2 > name->allocated_len)
    g_string_set_size (name, base_len + 1 + len);
  name->len = base_len + 1 + len;
  name->str[base_len] = '_';
  memcpy (name->str + base_len + 1, p, len);
  name->str[name->len] = '\0';
}

/* Parses a decimal suffix of at most 18 digits; FALSE if longer. */
static gboolean
parse_small (const char *digits,
             gsize       len,
             guint64    *out)
{
  guint64 n = 0;

  if (len == 0 || len > 18)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    n = n * 10 + (guint64) (digits[i] - '0');
  *out = n;
  return TRUE;
}

/* Whether @name is already what steps 1 to 3 of create_name would make of
 * it: only [0-9A-Za-z_], no leading digit, and no `_<digits>` suffix with a
 * leading zero. */
static gboolean
is_final_form (const char *name)
{
  const char *p = name;
  const char *last_underscore = NULL;

  if (*p == '\0' || g_ascii_isdigit (*p))
    return FALSE;
  for (; *p != '\0'; p++)
    {
      if (*p == '_')
        last_underscore = p;
      else if (!g_ascii_isalnum (*p))
        return FALSE;
    }
  /* torch's `(.*)_(\d+)$` splits `_08` too, with an empty base. */
  if (last_underscore != NULL && last_underscore[1] == '0' && last_underscore[2] != '\0')
    {
      for (const char *q = last_underscore + 1; *q != '\0'; q++)
        if (!g_ascii_isdigit (*q))
          return TRUE;
      return FALSE;
    }
  return TRUE;
}

/* The span of the base @base (its first @len bytes, hashed to @hash), or
 * NULL. */
static inline Span *
span_find (GraftNamespace *self,
           const char     *base,
           gsize           len,
           guint           hash)
{
  GraftNameSlot *slot;

  if (self->spans->len == 0)
    return NULL;
  slot = _graft_name_table_find (&self->span_index, base, len, hash);
  return slot != NULL ? &g_array_index (self->spans, Span, GPOINTER_TO_UINT (slot->value) - 1)
                      : NULL;
}

/* Where a count of the base @base (its first @len bytes, hashed to @hash)
 * that is to try `base_<num + 1>` next may go on from: the span's last
 * number if num + 1 is in it (every name up to it is taken), else @num. */
static guint64
span_skip (GraftNamespace *self,
           const char     *base,
           gsize           len,
           guint           hash,
           guint64         num)
{
  Span *span = span_find (self, base, len, hash);

  if (span != NULL && num + 1 >= span->lo && num + 1 < span->end)
    return span->end - 1;
  return num;
}

/* Notes that `base_<lo>` ... `base_<last>` are all taken (a count of the
 * base @base, its first @len bytes hashed to @hash, ended at `base_<last>`,
 * and @lo is where it started, or its taken candidate's number): joined to
 * the base's span if they meet, else in its place (the latest count is the
 * likeliest to be repeated). */
static void
span_note (GraftNamespace *self,
           const char     *base,
           gsize           len,
           guint           hash,
           guint64         lo,
           guint64         last)
{
  Span *span;

  if (last >= G_MAXUINT32 || lo > last || len == 0)
    return;
  span = span_find (self, base, len, hash);
  if (span == NULL)
    {
      Span fresh = { (guint32) lo, (guint32) last + 1 };

      g_array_append_val (self->spans, fresh);
      _graft_name_table_insert_len (&self->span_index, g_strndup (base, len), (guint) len, hash,
                                    GUINT_TO_POINTER (self->spans->len));
      return;
    }
  if (lo <= span->end && span->lo <= last + 1 && span->lo < span->end)
    {
      span->lo = MIN (span->lo, (guint32) lo);
      span->end = MAX (span->end, (guint32) last + 1);
    }
  else
    {
      span->lo = (guint32) lo;
      span->end = (guint32) last + 1;
    }
}

/* A base's entry in `filled`: the run `base_1` ... `base_<run>` is all
 * taken, and `beyond` says that some `base_<k>` past `base_<run + 1>` may
 * be taken too (made out of order, read verbatim from a file, or left
 * behind when undo released a name inside the run).  Without `beyond`, the
 * name after the run is free, and counting on needs no lookup at all. */
#define RUN_OF(value)          ((guint64) (GPOINTER_TO_SIZE (value) >> 1))
#define BEYOND_OF(value)       ((GPOINTER_TO_SIZE (value) & 1) != 0)
#define RUN_VALUE(run, beyond) GSIZE_TO_POINTER (((gsize) (run) << 1) | ((beyond) ? 1 : 0))

static gsize
get_filled (GraftNamespace *self,
            const char     *base,
            gsize           len)
{
  GraftNameSlot *slot =
      _graft_name_table_find (&self->filled, base, len, _graft_name_hash (base, len));

  return slot != NULL ? RUN_OF (slot->value) : 0;
}

static void
set_filled (GraftNamespace *self,
            const char     *base,
            gsize           len,
            gsize           run,
            gboolean        beyond)
{
  guint          hash = _graft_name_hash (base, len);
  GraftNameSlot *slot = _graft_name_table_find (&self->filled, base, len, hash);

  if (slot == NULL)
    _graft_name_table_insert (&self->filled, g_strndup (base, len), hash, RUN_VALUE (run, beyond));
  else
    slot->value = RUN_VALUE (run, beyond);
}

/* extend_filled() for @stored whose base, as the `(.*)_(\d+)$` split
 * makes it, is its first @base_len bytes, hashed to @base_hash (@base_len
 * is @len when it has no numeric suffix). */
static void
extend_filled_base (GraftNamespace *self,
                    const char     *stored,
                    gsize           len,
                    gsize           base_len,
                    guint           base_hash)
{
  guint64        k, run;
  gboolean       beyond;
  GraftNameSlot *slot;
  GString       *probe = self->probe;

  /* `base_0` and `base_01` are never counted to; an empty base is not
   * counted on (the general path always looks names up). */
  if (base_len == len || base_len < 1 || stored[base_len + 1] == '0')
    return;
  slot = _graft_name_table_find (&self->filled, stored, base_len, base_hash);
  run = slot != NULL ? RUN_OF (slot->value) : 0;
  beyond = slot != NULL && BEYOND_OF (slot->value);
  if (!parse_small (stored + base_len + 1, len - base_len - 1, &k) || k > run + 1)
    {
      if (slot == NULL)
        _graft_name_table_insert (&self->filled, g_strndup (stored, base_len), base_hash,
                                  RUN_VALUE (0, TRUE));
      else
        slot->value = RUN_VALUE (run, TRUE);
      return;
    }
  if (k != run + 1)
    return;
  run++;
  if (beyond)
    {
      /* Names past the run may be taken: extend it as far as they go. */
      g_string_truncate (probe, 0);
      g_string_append_len (probe, stored, base_len);
      for (;;)
        {
          set_suffix (probe, base_len, run + 1);
          if (!is_used (self, probe->str, probe->len))
            break;
          run++;
        }
    }
  if (slot == NULL)
    _graft_name_table_insert (&self->filled, g_strndup (stored, base_len), base_hash,
                              RUN_VALUE (run, beyond));
  else
    slot->value = RUN_VALUE (run, beyond);
}

/* After @stored (of length @len) was added: if it is `base_<k>`
 * continuing the run of taken `base_1` ... `base_<k-1>`, extends the run as
 * far as it now goes; if it lies past the run, notes that. */
static void
extend_filled (GraftNamespace *self,
               const char     *stored,
               gsize           len)
{
  gsize i = len;

  while (i > 0 && g_ascii_isdigit (stored[i - 1]))
    i--;
  if (i == len || i < 2 || stored[i - 1] != '_')
    return;
  extend_filled_base (self, stored, len, i - 1, _graft_name_hash (stored, i - 1));
}

/* Step 4 of create_name: `base_<k>` for the first free k past @after and
 * past the run of taken `base_1` ... `base_<run>`, stored, and the run
 * extended when k continues it.  Every string is hashed once, and nothing
 * is looked up unless names past the run may be taken.  @base may be the
 * scratch string itself. */
static G_GNUC_NO_INLINE const char *
count_from (GraftNamespace *self,
            const char     *base,
            gsize           base_len,
            guint           base_hash,
            guint64         after,
            gint            why)
{
  GString       *name = self->scratch;
  GraftNameSlot *slot = _graft_name_table_find (&self->filled, base, base_len, base_hash);
  guint64        run = slot != NULL ? RUN_OF (slot->value) : 0;
  /* An empty base (`_1`) has no run: its names are always looked up. */
  gboolean beyond = base_len == 0 || (slot != NULL && BEYOND_OF (slot->value));
  guint64  num = MAX (after, run) + 1;
  /* `base_<after>`, when after > 0, is the taken candidate. */
  guint64     lo = after > 0 ? after : num;
  const char *stored;
  guint       hash;

  if (base != name->str)
    {
      g_string_set_size (name, base_len);
      memcpy (name->str, base, base_len);
    }
  if (beyond)
    num = span_skip (self, name->str, base_len, base_hash, num - 1) + 1;
  set_suffix (name, base_len, num);
  hash = _graft_name_hash (name->str, name->len);
  /* `base_<run + 1>` is free unless names past the run may be taken. */
  while (beyond && name_taken (self, name->str, name->len, hash))
    {
      set_suffix (name, base_len, ++num);
      hash = _graft_name_hash (name->str, name->len);
    }
  stored = keep_name (self, name->str, name->len);
  self->last = used_take (self, stored, hash);
  if (num != run + 1 || base_len == 0)
    {
      if (beyond)
        span_note (self, stored, base_len, base_hash, lo, num);
      return stored;
    }
  /* `base_<num>` continues the run: extend it as far as it now goes. */
  run++;
  while (beyond)
    {
      set_suffix (name, base_len, run + 1);
      if (!is_used (self, name->str, name->len))
        break;
      run++;
    }
  if (slot != NULL)
    slot->value = RUN_VALUE (run, beyond);
  else
    slot = _graft_name_table_insert_len (&self->filled, g_strndup (name->str, base_len),
                                         (guint) base_len, base_hash, RUN_VALUE (run, beyond));
  if (why != COUNTED_FORGET)
    remember_counted (self, base, base_len,
                      _graft_name_hash_step (GRAFT_NAME_HASH_SEED, base, base_len), NULL, slot,
                      why);
  return stored;
}

/* The decimal text of @value, the count of the base @base (its first
 * @base_len bytes), into @out. */
static void
count_text (GraftNamespace *self,
            const char     *base,
            gsize           base_len,
            gsize           value,
            GString        *out)
{
  g_autofree char *key = NULL;

  g_string_truncate (out, 0);
  if (value != COUNT_BIG)
    {
      g_string_append_printf (out, "%" G_GSIZE_FORMAT, value);
      return;
    }
  key = g_strndup (base, base_len);
  g_string_append (out, g_hash_table_lookup (self->big_count, key));
}

/* Sets the count of the base @base (its first @base_len bytes, hashed to
 * @base_hash; @slot its slot in base_count, or NULL for none yet) to the
 * decimal @digits (no leading zeros). */
static void
put_count_text (GraftNamespace *self,
                const char     *base,
                gsize           base_len,
                guint           base_hash,
                GraftNameSlot  *slot,
                const char     *digits)
{
  gsize value = COUNT_BIG;

  if (strlen (digits) <= SMALL_DIGITS)
    value = (gsize) g_ascii_strtoull (digits, NULL, 10);
  if (value == COUNT_BIG)
    {
      if (self->big_count == NULL)
        self->big_count = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_hash_table_insert (self->big_count, g_strndup (base, base_len), g_strdup (digits));
    }
  else if (slot != NULL && GPOINTER_TO_SIZE (slot->value) == COUNT_BIG)
    {
      g_autofree char *key = g_strndup (base, base_len);

      g_hash_table_remove (self->big_count, key);
    }
  if (slot != NULL)
    slot->value = GSIZE_TO_POINTER (value);
  else
    _graft_name_table_insert (&self->base_count, g_strndup (base, base_len), base_hash,
                              GSIZE_TO_POINTER (value));
}

/* `_base_count[base] = num` for @digits, the decimal text of num (no
 * leading zeros), after @stored was made; remembers the count it
 * replaced, for _graft_namespace_remove().  For counts of any size. */
static void
set_base_count_text (GraftNamespace *self,
                     const char     *stored,
                     gsize           base_len,
                     const char     *digits)
{
  guint          base_hash = _graft_name_hash (stored, base_len);
  GraftNameSlot *slot = _graft_name_table_find (&self->base_count, stored, base_len, base_hash);
  gsize          old = slot != NULL ? GPOINTER_TO_SIZE (slot->value) : 0;
  g_autoptr (GString) old_text = g_string_new (NULL);

  count_text (self, stored, base_len, old, old_text);
  if (strcmp (old_text->str, digits) == 0)
    return;
  if (old == COUNT_BIG)
    set_replaced_text (self, stored, old_text->str);
  else
    set_replaced_count (self, stored, (guint64) old + 1);
  put_count_text (self, stored, base_len, base_hash, slot, digits);
}

/* `_base_count[base] = num` after @stored was made; remembers the count
 * it replaced, for _graft_namespace_remove(). */
static void
set_base_count (GraftNamespace *self,
                const char     *stored,
                gsize           base_len,
                guint64         num)
{
  guint          base_hash = _graft_name_hash (stored, base_len);
  GraftNameSlot *slot = _graft_name_table_find (&self->base_count, stored, base_len, base_hash);
  guint64        old = slot != NULL ? (guint64) GPOINTER_TO_SIZE (slot->value) : 0;

  if (old == num)
    return;
  if (old == COUNT_BIG)
    {
      char digits[24];

      g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, num);
      set_base_count_text (self, stored, base_len, digits);
      return;
    }
  set_replaced_count (self, stored, old + 1);
  if (slot != NULL)
    slot->value = GSIZE_TO_POINTER ((gsize) num);
  else
    _graft_name_table_insert (&self->base_count, g_strndup (stored, base_len), base_hash,
                              GSIZE_TO_POINTER ((gsize) num));
}

/* The base and number torch's `(.*)_(\d+)$` splits @name into (in final
 * form, so no leading zeros but in `_0`); FALSE when there is no suffix
 * or it is too long to count in 64 bits. */
static gboolean
split_suffix (const char *name,
              gsize       len,
              gsize      *out_base_len,
              guint64    *out_num)
{
  gsize i = len;

  while (i > 0 && g_ascii_isdigit (name[i - 1]))
    i--;
  if (i == len || i == 0 || name[i - 1] != '_')
    return FALSE;
  *out_base_len = i - 1;
  return parse_small (name + i, len - i, out_num);
}

/* After @stored was made or added verbatim: what torch 2.x's create_name
 * leaves in `_base_count` for it, when nothing was counted (the name was
 * free as given). */
static void
note_free_name (GraftNamespace *self,
                const char     *stored,
                gsize           len)
{
  gsize   base_len, i = len;
  guint64 num;

  if (split_suffix (stored, len, &base_len, &num))
    {
      if (num != 0)
        set_base_count (self, stored, base_len, num);
      return;
    }
  /* A suffix of more than SMALL_DIGITS digits (its value, as `int()`
   * reads it: without leading zeros). */
  while (i > 0 && g_ascii_isdigit (stored[i - 1]))
    i--;
  if (i == len || i == 0 || stored[i - 1] != '_')
    return;
  base_len = i - 1;
  while (i < len - 1 && stored[i] == '0')
    i++;
  if (len - i <= SMALL_DIGITS)
    {
      if ((num = g_ascii_strtoull (stored + i, NULL, 10)) != 0)
        set_base_count (self, stored, base_len, num);
    }
  else
    set_base_count_text (self, stored, base_len, stored + i);
}

/* count_per_base() when a number has more than SMALL_DIGITS digits: the
 * candidate's @digits (no leading zeros; NULL: the candidate has none,
 * or 0) or the base's count.  @name (scratch) is the candidate after
 * steps 1 to 3, `base` or `base_<num>`, whose first @base_len bytes are
 * the base; with @taken, it is known to be taken or reserved.  Counts in
 * decimal text, as Python's integers do. */
static const char *
count_per_base_big (GraftNamespace *self,
                    gsize           base_len,
                    const char     *digits,
                    GraftNameFlags  flags,
                    gboolean        taken)
{
  GString       *name = self->scratch;
  guint          base_hash = _graft_name_hash (name->str, base_len);
  GraftNameSlot *slot = _graft_name_table_find (&self->base_count, name->str, base_len, base_hash);
  g_autoptr (GString) num = g_string_new (digits);
  const char *stored;

  if (digits == NULL)
    count_text (self, name->str, base_len, slot != NULL ? GPOINTER_TO_SIZE (slot->value) : 0, num);
  while (taken || is_used (self, name->str, name->len) ||
         is_illegal (name->str, name->len, flags))
    {
      taken = FALSE;
      increment_decimal (num);
      g_string_truncate (name, base_len);
      g_string_append_c (name, '_');
      g_string_append_len (name, num->str, (gssize) num->len);
    }
  stored = keep_name (self, name->str, name->len);
  self->last = used_take (self, stored, _graft_name_hash (name->str, name->len));
  extend_filled_base (self, stored, name->len, base_len, base_hash);
  set_base_count_text (self, stored, base_len, num->str);
  return stored;
}

/* torch 2.x's `_Namespace.create_name` from step 4 on: @name (in scratch)
 * is `base` or `base_num` after steps 1 to 3; a suffix of none or 0 counts
 * on from `_base_count[base]`, any other from itself, while the name is
 * taken or illegal, and the number chosen becomes `_base_count[base]`.
 * @name_hash is the hash of @name if the caller knows it, else 0 (the
 * base is hashed once, and so is each name tried). */
static const char *
count_per_base (GraftNamespace *self,
                gsize           base_len,
                gboolean        has_num,
                guint64         num,
                GraftNameFlags  flags,
                guint           name_hash)
{
  GString       *name = self->scratch;
  const char    *stored;
  guint          base_hash, hash;
  GraftNameSlot *count_slot;
  guint64        old_count, lo = 0;
  gboolean       numbered, noted = FALSE;

  if (name_hash == 0)
    name_hash = _graft_name_hash (name->str, name->len);
  base_hash = base_len == name->len ? name_hash : _graft_name_hash (name->str, base_len);
  count_slot = _graft_name_table_find (&self->base_count, name->str, base_len, base_hash);
  old_count = count_slot != NULL ? (guint64) GPOINTER_TO_SIZE (count_slot->value) : 0;
  if (G_UNLIKELY (old_count == COUNT_BIG))
    {
      char digits[24];

      g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, num);
      return count_per_base_big (self, base_len, has_num && num != 0 ? digits : NULL, flags,
                                 FALSE);
    }
  numbered = has_num && num != 0;
  if (!numbered)
    num = old_count;
  hash = name_hash;
  if (name_taken (self, name->str, name->len, hash) ||
      is_illegal_hashed (name->str, name->len, hash, flags))
    {
      /* torch tries num + 1, num + 2, ... one by one, which is quadratic
       * when a base's count falls back (a module list called in a loop:
       * `layers_1` is taken, and so is every name up to the count); the
       * run of taken `base_1` ... `base_<run>` in `filled` skips what the
       * loop would skip.  An empty base has no run. */
      GraftNameSlot *filled =
          base_len > 0 ? _graft_name_table_find (&self->filled, name->str, base_len, base_hash)
                       : NULL;
      guint64 run = filled != NULL ? RUN_OF (filled->value) : 0;

      /* A numbered candidate, `base_<num>`, is taken: the count starts
       * there (a span, with what the loop goes through); else at the
       * first name it tries. */
      lo = numbered && num > run ? num : MAX (num, run) + 1;
      num = MAX (num, run);
      /* And goes on from the end of a span it starts in. */
      if (base_len > 0)
        num = span_skip (self, name->str, base_len, base_hash, num);
      do
        {
          set_suffix (name, base_len, ++num);
          hash = _graft_name_hash (name->str, name->len);
        }
      while (name_taken (self, name->str, name->len, hash));
      /* Past the run (whose next name is free), the names from lo to
       * num are all taken once this one is. */
      noted = num > run + 1;
    }
  stored = keep_name (self, name->str, name->len);
  self->last = used_take (self, stored, hash);
  if (noted)
    span_note (self, stored, base_len, base_hash, lo, num);
  extend_filled_base (self, stored, name->len, base_len, base_hash);
  /* `_base_count[base] = num`, remembering the count it replaced for
   * _graft_namespace_remove() (set_base_count() without a lookup:
   * nothing was added to the counts since count_slot was found). */
  if (old_count != num)
    {
      set_replaced_count (self, stored, old_count + 1);
      if (count_slot != NULL)
        count_slot->value = GSIZE_TO_POINTER ((gsize) num);
      else
        _graft_name_table_insert (&self->base_count, g_strndup (stored, base_len), base_hash,
                                  GSIZE_TO_POINTER ((gsize) num));
    }
  return stored;
}

static const char *
store (GraftNamespace *self,
       const char     *name,
       gsize           len,
       guint           hash)
{
  char *stored = keep_name (self, name, len);

  self->last = used_take (self, stored, hash);
  if (self->count_per_base)
    note_free_name (self, stored, len);
  extend_filled (self, stored, len);
  return stored;
}

/* What one pass over a candidate tells create_name. */
typedef struct
{
  gsize    len;
  guint    state;         /* _graft_name_hash_step() of the whole name */
  gboolean final_form;    /* is_final_form() */
  gboolean number_suffix; /* has_number_suffix() */
} Scan;

/* is_final_form(), has_number_suffix(), strlen() and the hash of @name in
 * one pass. */
static inline void
scan_candidate (const char *name,
                Scan       *out)
{
  const char *p = name;
  const char *last_underscore = NULL;
  guint       h = GRAFT_NAME_HASH_SEED;
  gboolean    clean = TRUE;
  gboolean    digits_only = FALSE; /* everything after the last '_' is a digit */

  for (; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      h ^= c;
      h *= 16777619u;
      if (c == '_')
        {
          last_underscore = p;
          digits_only = TRUE;
        }
      else if (g_ascii_isdigit (c))
        ;
      else if (g_ascii_isalpha (c))
        digits_only = FALSE;
      else
        clean = digits_only = FALSE;
    }
  out->len = (gsize) (p - name);
  out->state = h;
  /* A suffix `_<digits>`, at least one digit. */
  out->number_suffix = last_underscore != NULL && last_underscore[1] != '\0' && digits_only;
  /* torch's `(.*)_(\d+)$` splits `_08` too, with an empty base: a suffix
   * with a leading zero is not final. */
  out->final_form =
      clean && out->len > 0 && !g_ascii_isdigit (name[0]) &&
      !(out->number_suffix && last_underscore[1] == '0' && last_underscore[2] != '\0');
}

/* Writes `<base>_<num>` to the scratch string (@base its first @base_len
 * bytes, or another string) and returns its hash, continuing @base_state,
 * the hash state of @base. */
static guint
put_numbered (GraftNamespace *self,
              const char     *base,
              gsize           base_len,
              guint           base_state,
              guint64         num)
{
  GString *name = self->scratch;
  char     digits[24];
  char    *end = digits + sizeof digits;
  char    *p = end;
  gsize    n;
  gboolean in_place = base == name->str;

  do
    {
      *--p = (char) ('0' + num % 10);
      num /= 10;
    }
  while (num > 0);
  n = (gsize) (end - p);
  if (base_len + n + 2 > name->allocated_len)
    g_string_set_size (name, base_len + 1 + n);
  if (!in_place)
    memcpy (name->str, base, base_len);
  name->len = base_len + 1 + n;
  name->str[base_len] = '_';
  memcpy (name->str + base_len + 1, p, n);
  name->str[name->len] = '\0';
  return _graft_name_hash_finish (_graft_name_hash_step (base_state, name->str + base_len, n + 1));
}

/* count_per_base() for a candidate in final form without a numeric suffix
 * that is taken or reserved (the second `neg` of a graph): its own base,
 * counted on from the larger of `_base_count[base]` and the run of taken
 * `base_1` ... `base_<run>`; @base_state is its hash state.  The base is
 * hashed once and the name made from it by continuing that hash, and no
 * name is looked up unless names past the run may be taken. */
static const char *count_on_base_slots (GraftNamespace *self,
                                        const char     *base,
                                        gsize           base_len,
                                        guint           base_state,
                                        GraftNameSlot  *count_slot,
                                        GraftNameSlot  *filled,
                                        gint            why);

static const char *
count_on_base (GraftNamespace *self,
               const char     *base,
               gsize           base_len,
               guint           base_state,
               gint            why)
{
  guint base_hash = _graft_name_hash_finish (base_state);

  return count_on_base_slots (self, base, base_len, base_state,
                              _graft_name_table_find (&self->base_count, base, base_len, base_hash),
                              _graft_name_table_find (&self->filled, base, base_len, base_hash),
                              why);
}

/* count_on_base() with the base's slots in base_count and filled found
 * (NULL: the base has none), remembered for the caller's pointer with
 * @why the candidate is counted on: -1, it is taken; else it is reserved
 * for these GraftNameFlags. */
static G_GNUC_NO_INLINE const char *
count_on_base_slots (GraftNamespace *self,
                     const char     *base,
                     gsize           base_len,
                     guint           base_state,
                     GraftNameSlot  *count_slot,
                     GraftNameSlot  *filled,
                     gint            why)
{
  guint       base_hash = _graft_name_hash_finish (base_state);
  guint64     old_count = 0, run = 0, num;
  gboolean    beyond = filled != NULL && BEYOND_OF (filled->value);
  GString    *name = self->scratch;
  const char *stored;
  guint       hash;

  if (count_slot != NULL)
    old_count = (guint64) GPOINTER_TO_SIZE (count_slot->value);
  if (G_UNLIKELY (old_count == COUNT_BIG))
    {
      /* The base, taken or reserved, counts on from a huge count. */
      if (base != name->str)
        {
          g_string_truncate (name, 0);
          g_string_append_len (name, base, (gssize) base_len);
        }
      else
        g_string_truncate (name, base_len);
      return count_per_base_big (self, base_len, NULL, GRAFT_NAME_DEFAULT, TRUE);
    }
  if (filled != NULL)
    run = RUN_OF (filled->value);
  num = MAX (old_count, run);
  /* Past the run, `base_<k>` is free unless names past it may be taken. */
  if (!beyond)
    {
      char  digits[24];
      char *end = digits + sizeof digits;
      char *p = write_decimal (end, ++num);
      gsize n;

      /* The name is written once, where it is kept. */
      n = (gsize) (end - p);
      stored = keep_numbered (self, base, base_len, p, n);
      hash = _graft_name_hash_finish (
          _graft_name_hash_step (_graft_name_hash_step (base_state, "_", 1), p, n));
      self->last = used_take (self, stored, hash);
    }
  else
    {
      guint64 lo = num + 1;

      num = span_skip (self, base, base_len, base_hash, num);
      do
        hash = put_numbered (self, base, base_len, base_state, ++num);
      while (name_taken (self, name->str, name->len, hash));
      stored = keep_name (self, name->str, name->len);
      self->last = used_take (self, stored, hash);
      if (num > run + 1)
        span_note (self, stored, base_len, base_hash, lo, num);
    }
  /* extend_filled_base() for `base_<num>`, num > run. */
  if (num == run + 1)
    {
      run++;
      while (beyond)
        {
          put_numbered (self, stored, base_len, base_state, run + 1);
          if (!is_used (self, name->str, name->len))
            break;
          run++;
        }
    }
  else
    beyond = TRUE;
  if (filled != NULL)
    filled->value = RUN_VALUE (run, beyond);
  else
    filled = _graft_name_table_insert_len (&self->filled, g_strndup (stored, base_len),
                                           (guint) base_len, base_hash, RUN_VALUE (run, beyond));
  /* `_base_count[base] = num` (num > old_count), as count_per_base() sets
   * it. */
  set_replaced_count (self, stored, old_count + 1);
  if (count_slot != NULL)
    count_slot->value = GSIZE_TO_POINTER ((gsize) num);
  else
    count_slot = _graft_name_table_insert_len (&self->base_count, g_strndup (stored, base_len),
                                               (guint) base_len, base_hash,
                                               GSIZE_TO_POINTER ((gsize) num));
  remember_counted (self, base, base_len, base_state, count_slot, filled, why);
  return stored;
}

/* @c's name `<base>_<num>` written whole when its last digit cannot just
 * be stepped (the first name, a carry, a jump); @num is below 2^31.
 * Returns the name's length. */
static G_GNUC_NO_INLINE guint
counted_renumber (Counted *c,
                  guint64  num)
{
  gsize n = decimal_width (num);
  char *digits = c->name + c->len + 1;

  write_decimal (digits + n, num);
  memset (digits + n, 0, COUNTED_NAME - (c->len + 1 + n));
  c->name_len = (guint8) (c->len + 1 + n);
  c->last_state = _graft_name_hash_step (c->state, digits, n - 1);
  return c->name_len;
}

/* @c's name one more when its last digit is a 9: the 9s before it carried
 * in place, the hash state of the digits but the last redone; written
 * whole when the number gains a digit.  Returns the name's length. */
static G_GNUC_NO_INLINE guint
counted_carry (Counted *c,
               guint64  num)
{
  char *digits = c->name + c->len + 1;
  guint n = c->name_len - (c->len + 1);
  guint i = n;

  while (i > 0 && digits[i - 1] == '9')
    digits[--i] = '0';
  if (i == 0)
    return counted_renumber (c, num);
  digits[i - 1]++;
  c->last_state = _graft_name_hash_step (c->state, digits, n - 1);
  return c->name_len;
}

/* put_counted() when @num is not the next entry of the base's run with
 * room: the run reaches out to it, or the set takes the name.  The
 * header's count field is @replaced.  Returns the name's entry. */
static G_GNUC_NO_INLINE gpointer *
put_counted_apart (GraftNamespace *self,
                   Counted        *c,
                   guint64         num,
                   char           *p,
                   guint32         replaced)
{
  gpointer *at;

  header_set (p, HEADER_REPLACED, replaced);
  at = run_put (self, c->run, num, p);
  if (at == NULL)
    at = used_take (self, p,
                    _graft_name_hash_finish (_graft_name_hash_step (
                        c->last_state, c->name + c->name_len - 1, 1)));
  return at;
}

/* Writes `<base>_<num>` for the candidate remembered in @c where it is
 * kept, from the remembered name, and takes it, bound to @node if not
 * NULL: the base's count was @old_count, its run @run (num > run, and
 * names past the run are free; num below 2^31).  The caller made sure
 * the block has room for the copy of COUNTED_NAME bytes. */
static inline G_ALWAYS_INLINE const char *
put_counted (GraftNamespace *self,
             Counted        *c,
             guint64         num,
             guint64         old_count,
             guint64         run,
             GraftNode      *node)
{
  GraftNameSlot *count_slot = c->count_slot; /* NULL in torch 1.x */
  GraftNameSlot *filled = c->filled;
  Run           *r = c->run;
  char          *p = self->block + self->block_used + NAME_HEADER;
  guint          n = c->name_len;
  guint32        replaced = count_slot != NULL ? (guint32) (old_count + 1) : 0;
  gpointer      *at;

  if (G_LIKELY (num == (guint64) c->last_num + 1))
    {
      /* One more than last time: most often the same digits but the
       * last. */
      if (G_LIKELY (c->name[n - 1] != '9'))
        c->name[n - 1]++;
      else
        n = counted_carry (c, num);
    }
  else
    n = counted_renumber (c, num);
  c->last_num = (guint32) num;
  /* The name and its zero (and some of the padding past it). */
  memcpy (p, c->name, COUNTED_NAME);
  self->block_used += NAME_SPACE (n);
  /* The header: the run's index and the number where a set's name keeps
   * its hash (run_put()), and the count this name replaced + 1, for undo
   * (never REPLACED_BIG here; torch 1.x: none).  Kept in its base's run,
   * the name is not hashed at all.  Most often the number after the
   * run's last, with room (a run never has more than RUN_K_MASK entries,
   * nor an index past RUN_MAX when it has any). */
  if (G_LIKELY (num == (guint64) r->n + 1 && num <= r->capacity))
    {
      guint64 header = header_pair ((r->index << RUN_K_BITS) | (guint32) num, replaced | IN_RUN);

      header_set_both (p, header);
      r->n = (guint) num;
      at = run_entry (r, (guint) num - 1);
      self->n_run_names++;
    }
  else
    at = put_counted_apart (self, c, num, p, replaced);
  if (node != NULL)
    {
      *at = (gpointer) ((guintptr) node + 1);
      self->n_bound++;
    }
  else
    *at = p;
  self->last = at;
  /* `base_<num>` continues the run, or lies past it (num = old_count + 1
   * > run + 1), as count_on_base_slots() notes. */
  filled->value = RUN_VALUE (num == run + 1 ? num : run, num != run + 1);
  if (count_slot != NULL)
    count_slot->value = GSIZE_TO_POINTER ((gsize) num);
  return p;
}

static const char *create_name_slow (GraftNamespace *self,
                                     const char     *candidate,
                                     GraftNameFlags  flags);

/* count_on_counted_rare() for @c, a numbered candidate `<base>_<k>` (k >
 * 0, past its base's run) whose k lies in its base's span (a module of a
 * list called in a loop): count_per_base()'s count, on from the span's
 * end, without cleaning the candidate again or looking its base up in the
 * tables.  The base's count is @old_count (below 2^31).  NULL when k is
 * not in the span. */
static const char *
count_on_span (GraftNamespace *self,
               Counted        *c,
               guint64         k,
               guint64         old_count)
{
  const char *base = c->candidate; /* its first c->len bytes are the base */
  gsize       base_len = c->len;
  guint       base_state = _graft_name_hash_step (GRAFT_NAME_HASH_SEED, base, base_len);
  guint       base_hash = _graft_name_hash_finish (base_state);
  Span       *span = span_find (self, base, base_len, base_hash);
  GString    *name = self->scratch;
  const char *stored;
  guint64     num;
  guint       hash;

  if (span == NULL || k < span->lo || k >= span->end)
    return NULL;
  /* `base_<k>` ... `base_<end - 1>` are taken: torch's count goes on. */
  for (num = span->end;; num++)
    {
      hash = put_numbered (self, base, base_len, base_state, num);
      if (!name_taken (self, name->str, name->len, hash))
        break;
    }
  stored = keep_name (self, name->str, name->len);
  self->last = used_take (self, stored, hash);
  span_note (self, stored, base_len, base_hash, k, num);
  extend_filled_base (self, stored, name->len, base_len, base_hash);
  /* `_base_count[base] = num`, as count_per_base() sets it. */
  if (c->count_slot != NULL && old_count != num)
    {
      set_replaced_count (self, stored, old_count + 1);
      c->count_slot->value = GSIZE_TO_POINTER ((gsize) num);
    }
  return stored;
}

/* count_on_counted() when the fast way does not do: names past the run
 * may be taken (@general, also when the block has no room or the count
 * is huge), or the candidate is numbered, `<base>_<k>` with k > 0, which
 * counts on from k rather than from the base's count: past the run of
 * `base_1` ... `base_<run>` when k is in it, else the general way. */
static G_GNUC_NO_INLINE const char *
count_on_counted_rare (GraftNamespace *self,
                       Counted        *c,
                       GraftNameFlags  flags,
                       gboolean        general,
                       guint64         old_count,
                       guint64         run)
{
  const guint    base_len = c->len;
  const char    *base = c->candidate;
  GraftNameSlot *count_slot = c->count_slot;
  guint          suffix = c->suffix;
  guint          base_state;
  const char    *made;

  if (suffix > 1 && suffix - 1 > run && old_count < REPLACED_BIG - 1 &&
      (made = count_on_span (self, c, suffix - 1, old_count)) != NULL)
    return made;
  if (suffix != 0 && (general || suffix - 1 > run))
    return create_name_slow (self, base, flags);
  if (suffix > 1)
    return put_counted (self, c, run + 1, old_count, run, NULL);
  base_state = _graft_name_hash_step (GRAFT_NAME_HASH_SEED, base, base_len);
  if (count_slot == NULL)
    return count_from (self, base, base_len, _graft_name_hash_finish (base_state), 0, c->flags);
  return count_on_base_slots (self, base, base_len, base_state, count_slot, c->filled, c->flags);
}

/* The entry remembered for @candidate, or NULL. */
static inline Counted *
counted_find (GraftNamespace *self,
              const char     *candidate)
{
  Counted *c = &self->counted[counted_home (candidate)];

  G_STATIC_ASSERT (COUNTED_WAYS == 4);
  if (c[0].candidate == candidate)
    return &c[0];
  if (c[1].candidate == candidate)
    return &c[1];
  if (c[2].candidate == candidate)
    return &c[2];
  if (c[3].candidate == candidate)
    return &c[3];
  return NULL;
}

static void bind_found (GraftNamespace *self,
                        const char     *name,
                        GraftNode      *node);

/* Binds @name, made last, to @node (_graft_namespace_bind()). */
static inline void
bind_last (GraftNamespace *self,
           const char     *name,
           GraftNode      *node)
{
  gpointer *last = self->last;

  /* A new node's name, made last: its entry is known, and holds the name
   * itself (bound to nothing yet). */
  if (G_LIKELY (last != NULL && *last == name))
    {
      self->n_bound++;
      *last = (gpointer) ((guintptr) node + 1);
      return;
    }
  bind_found (self, name, node);
}

/**
 * graft_namespace_is_canonical:
 * @name: a name
 * @flags: what the name stands for
 *
 * Returns: whether create_name() in a namespace that does not hold @name
 *   would return @name itself (it is clean, has no leading-zero suffix and
 *   is not reserved)
 */
gboolean
graft_namespace_is_canonical (const char    *name,
                              GraftNameFlags flags)
{
  return is_final_form (name) && !is_illegal (name, strlen (name), flags);
}

/* After create_name_slow() made @made by counting on from @candidate (of
 * @len bytes), whose `<base>_<k>` (cleaned as steps 1 to 3 clean it) was
 * taken: remembers it with its base's slots as remember_counted() does a
 * bare base, so that it is counted on again without hashing or lookups
 * (a module list called in a loop asks for `layers.0`, `layers.1`, ...
 * again and again).  Only if its text starts with its base (@base_len
 * bytes of @made), which is what the fast path copies. */
static void
remember_numbered (GraftNamespace *self,
                   const char     *candidate,
                   gsize           len,
                   const char     *made,
                   gsize           base_len,
                   guint64         k)
{
  GraftNameSlot *count_slot = NULL, *filled;
  guint          base_state, base_hash, m;

  if (len >= COUNTED_TEXT || base_len == 0 || k >= G_MAXUINT16 ||
      memcmp (candidate, made, base_len) != 0)
    return;
  base_state = _graft_name_hash_step (GRAFT_NAME_HASH_SEED, made, base_len);
  base_hash = _graft_name_hash_finish (base_state);
  filled = _graft_name_table_find (&self->filled, made, base_len, base_hash);
  if (self->count_per_base)
    count_slot = _graft_name_table_find (&self->base_count, made, base_len, base_hash);
  if (filled == NULL || (self->count_per_base && count_slot == NULL))
    return;
  m = remember_counted (self, candidate, base_len, base_state, count_slot, filled, -1);
  if (m < G_N_ELEMENTS (self->counted))
    {
      self->counted[m].suffix = (guint16) (k + 1);
      memcpy (self->counted[m].text, candidate, len);
    }
}

/* graft_namespace_create_name() for a candidate not remembered. */
static G_GNUC_NO_INLINE const char *
create_name_slow (GraftNamespace *self,
                  const char     *candidate,
                  GraftNameFlags  flags)
{
  GString *name = self->scratch;
  gsize    base_len, digits_at;
  gboolean in_run = FALSE;
  guint64  num = 0;
  gboolean big = FALSE;
  g_autoptr (GString) big_digits = NULL;
  gboolean final_form, taken = FALSE;
  gboolean has_num;
  guint    candidate_hash = 0;
  Scan     scan;

  /* The common cases need none of the steps below: a clean free name, and
   * a clean name without a numeric suffix that is taken (the second `add`
   * of a graph), which is its own base. */
  scan_candidate (candidate, &scan);
  final_form = scan.final_form;
  if (final_form)
    {
      gsize len = scan.len;
      guint hash = _graft_name_hash_finish (scan.state);

      taken = name_taken (self, candidate, len, hash);
      if (!taken && !is_illegal_hashed (candidate, len, hash, flags))
        return store (self, candidate, len, hash);
      if (!scan.number_suffix)
        return self->count_per_base ? count_on_base (self, candidate, len, scan.state,
                                                     taken ? -1 : (gint) flags)
                                    : count_from (self, candidate, len, hash, 0,
                                                  taken ? -1 : (gint) flags);
      candidate_hash = hash;
    }

  /* 1. Each run of characters outside [0-9A-Za-z_] becomes one '_' (a
   * name in final form has none). */
  g_string_truncate (name, 0);
  if (final_form)
    g_string_append (name, candidate);
  else
    for (const char *p = candidate; *p != '\0'; p++)
      {
        if (g_ascii_isalnum (*p) || *p == '_')
          {
            g_string_append_c (name, *p);
            in_run = FALSE;
          }
        else if (!in_run)
          {
            g_string_append_c (name, '_');
            in_run = TRUE;
          }
      }
  /* torch indexes candidate[0] and fails on an empty name; a node always
   * has a non-empty candidate, so this is only defence. */
  if (name->len == 0)
    g_string_append (name, self->count_per_base ? "_unnamed" : "_");

  /* 2. A leading digit gets a '_' prefix. */
  if (g_ascii_isdigit (name->str[0]))
    g_string_prepend_c (name, '_');

  /* 3. Split `<base>_<digits>` (greedy base); the number loses its
   * leading zeros, as `int()` does. */
  base_len = name->len;
  has_num = FALSE;
  digits_at = name->len;
  while (digits_at > 0 && g_ascii_isdigit (name->str[digits_at - 1]))
    digits_at--;
  if (digits_at < name->len && digits_at > 0 && name->str[digits_at - 1] == '_')
    {
      gsize j = digits_at;

      while (j < name->len - 1 && name->str[j] == '0')
        j++;
      base_len = digits_at - 1;
      has_num = TRUE;
      if (parse_small (name->str + j, name->len - j, &num))
        set_suffix (name, base_len, num);
      else
        {
          /* More digits than 64 bits hold: count up in decimal text. */
          GString *digits = big_digits = g_string_new (name->str + j);

          big = TRUE;
          g_string_truncate (name, base_len);
          g_string_append_c (name, '_');
          g_string_append (name, digits->str);
          if (!self->count_per_base)
            while (is_used (self, name->str, name->len) ||
                   is_illegal (name->str, name->len, flags))
              {
                increment_decimal (digits);
                g_string_truncate (name, base_len + 1);
                g_string_append (name, digits->str);
              }
        }
    }
  if (big && self->count_per_base)
    return count_per_base_big (self, base_len, big_digits->str, flags, FALSE);
  if (big)
    return store (self, name->str, name->len, _graft_name_hash (name->str, name->len));
  /* A numbered candidate counted on from (`layers.0` once `layers_0` is
   * taken) is remembered if its text starts with its base. */
  if (has_num && scan.len < COUNTED_TEXT && !final_form)
    taken = is_used (self, name->str, name->len);
  if (self->count_per_base)
    {
      const char *made =
          count_per_base (self, base_len, has_num, num, flags, final_form ? candidate_hash : 0);

      if (has_num && taken)
        remember_numbered (self, candidate, scan.len, made, base_len, num);
      return made;
    }

  /* 4. Count up while the name is taken or illegal.  torch restarts from the
   * parsed suffix every time, which is quadratic for a graph with many
   * nodes of one kind; since names are only released by undo (which
   * shortens the run), `filled` remembers how far `base_1`, `base_2`, ...
   * are all taken, and the count jumps there (`base_<k>` is taken, so the
   * loop goes on with k + 1, the name torch reaches too).  No `base_<k>`
   * is illegal. */
  /* A candidate already in final form is `name` unchanged: whether it is
   * taken is known. */
  if ((final_form || (has_num && scan.len < COUNTED_TEXT) ? taken
                                                          : is_used (self, name->str, name->len)) ||
      (name->len == base_len && is_illegal (name->str, name->len, flags)))
    {
      /* The candidate is taken or reserved, and so is `base_<run>`:
       * count on from the larger.  No reserved word ends in `_<digits>`,
       * so from here only taken names are skipped. */
      const char *made = count_from (self, name->str, base_len,
                                     _graft_name_hash (name->str, base_len), num, COUNTED_FORGET);

      if (has_num && taken)
        remember_numbered (self, candidate, scan.len, made, base_len, num);
      return made;
    }
  return store (self, name->str, name->len, _graft_name_hash (name->str, name->len));
}

/* graft_namespace_create_name(); with @stable, @candidate's text never
 * changes, and once it was found to be the text remembered for its address
 * it is not compared again.  (An address once another caller's, freed and
 * reused, may have been remembered with another text: compared once.)
 * With @node, the name is bound to it (_graft_namespace_bind()).
 *
 * The same candidate as lately (the tracer passes torch's names from its
 * tables) is counted on as count_on_base_slots() would: its base's slots
 * are known, and it is taken; nothing to hash or look up, and the name is
 * written once where it is kept, from the remembered name.  That falls
 * back to count_on_counted_rare() when names past the base's run may be
 * taken, the block has no room for the copy of COUNTED_NAME bytes, or the
 * count is huge, and when the candidate is remembered whole,
 * `<base>_<k>`: it counts on the same way when k is 0 (from the base's
 * count), else from k. */
static inline G_ALWAYS_INLINE const char *
create_name (GraftNamespace *self,
             const char     *candidate,
             GraftNameFlags  flags,
             gboolean        stable,
             GraftNode      *node)
{
  Counted    *c = counted_find (self, candidate);
  const char *name;

  if (c != NULL && (c->flags == -1 || c->flags == (gint) flags) &&
      c->count_slots == self->base_count.slots && c->filled_slots == self->filled.slots &&
      (c->stable || counted_text_is (c->text, candidate)))
    {
      GraftNameSlot *count_slot = c->count_slot; /* NULL in torch 1.x */
      gsize          filled = GPOINTER_TO_SIZE (c->filled->value);
      guint64        old_count, run, top;
      gboolean       general;

      /* Past the first compare, a stable candidate's text is not read:
       * whatever was remembered for its address came from that text. */
      c->stable = (guint8) stable;
      old_count = count_slot != NULL ? (guint64) GPOINTER_TO_SIZE (count_slot->value) : 0;
      run = RUN_OF ((gpointer) filled);
      top = MAX (old_count, run);
      /* Room for the copy of the name (without a block, block_size is 0),
       * and numbers below 2^31. */
      general = BEYOND_OF ((gpointer) filled) ||
                self->block_used + (NAME_HEADER + COUNTED_NAME) > self->block_size ||
                top >= REPLACED_BIG - 1;
      if (G_LIKELY (!general && c->suffix <= 1))
        return put_counted (self, c, top + 1, old_count, run, node);
      name = count_on_counted_rare (self, c, flags, general, old_count, run);
    }
  else
    name = create_name_slow (self, candidate, flags);
  if (node != NULL)
    bind_last (self, name, node);
  return name;
}

/**
 * graft_namespace_create_name:
 * @candidate: the name wanted
 * @flags: whether the name stands for a builtin itself
 *
 * Makes a unique legal name from @candidate as `_Namespace.create_name`
 * does: runs of illegal characters become `_`, a leading digit gets a `_`
 * prefix, a `_<digits>` suffix is parsed as a number (losing leading zeros),
 * and the number counts up from there while the name is taken or illegal.
 *
 * Returns: (transfer none): the name, valid for the namespace's lifetime
 */
const char *
graft_namespace_create_name (GraftNamespace *self,
                             const char     *candidate,
                             GraftNameFlags  flags)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (candidate != NULL, NULL);

  return create_name (self, candidate, flags, FALSE, NULL);
}

/**
 * _graft_namespace_create_name_stable:
 * @candidate: a candidate whose text never changes while the namespace
 *   lives (a graph's derived names, in its chunk)
 *
 * graft_namespace_create_name() with %GRAFT_NAME_DEFAULT, for a candidate
 * whose text need not be compared with what was remembered for its
 * address.
 *
 * Returns: (transfer none): the name
 */
const char *
_graft_namespace_create_name_stable (GraftNamespace *self,
                                     const char     *candidate)
{
  return create_name (self, candidate, GRAFT_NAME_DEFAULT, TRUE, NULL);
}

/**
 * _graft_namespace_create_name_bound:
 * @candidate: as for _graft_namespace_create_name_stable()
 * @node: the node the name is for, whose name is set to it before the
 *   namespace is used again
 *
 * _graft_namespace_create_name_stable(), the name bound to @node
 * (_graft_namespace_bind()).
 *
 * Returns: (transfer none): the name
 */
const char *
_graft_namespace_create_name_bound (GraftNamespace *self,
                                    const char     *candidate,
                                    GraftNode      *node)
{
  return create_name (self, candidate, GRAFT_NAME_DEFAULT, TRUE, node);
}

/**
 * _graft_namespace_create_name_bound_unstable:
 *
 * graft_namespace_create_name() with %GRAFT_NAME_DEFAULT, the name bound
 * to @node as _graft_namespace_create_name_bound() does.
 *
 * Returns: (transfer none): the name
 */
const char *
_graft_namespace_create_name_bound_unstable (GraftNamespace *self,
                                             const char     *candidate,
                                             GraftNode      *node)
{
  return create_name (self, candidate, GRAFT_NAME_DEFAULT, FALSE, node);
}

/**
 * graft_snake_case:
 * @s: a UTF-8 name
 * @dialect: the torch whose rule to follow
 *
 * torch.fx's `_snake_case`: lower-cases every character and puts `_` before
 * an upper-case character that follows a lower-case one; in a dialect whose
 * `snake_case_ascii_only` is set, only before an ASCII upper-case letter
 * that follows an ASCII lower-case one (`éB` is `éb`, not `é_b`).
 *
 * Returns: (transfer full): the snake-cased name
 */
char *
graft_snake_case (const char         *s,
                  const GraftDialect *dialect)
{
  GString *out;
  gboolean prev_lower = FALSE;
  gsize    len = 0, uppers = 0;
  gboolean ascii = TRUE;

  /* Names are nearly always ASCII: a byte loop does. */
  for (const char *p = s; *p != '\0'; p++, len++)
    {
      if ((guchar) *p >= 0x80)
        ascii = FALSE;
      else if (g_ascii_isupper (*p))
        uppers++;
    }
  if (ascii)
    {
      char *r = g_malloc (len + uppers + 1);
      char *w = r;

      for (const char *p = s; *p != '\0'; p++)
        {
          if (prev_lower && g_ascii_isupper (*p))
            *w++ = '_';
          *w++ = g_ascii_tolower (*p);
          prev_lower = g_ascii_islower (*p);
        }
      *w = '\0';
      return r;
    }
  out = g_string_sized_new (len + 4);

  for (const char *p = s; *p != '\0';)
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          /* Not UTF-8: keep the byte; the sanitiser turns it into '_'. */
          g_string_append_c (out, *p);
          prev_lower = FALSE;
          p++;
          continue;
        }
      if (prev_lower && (dialect->snake_case_ascii_only ? c < 0x80 && g_ascii_isupper (c)
                                                        : g_unichar_isupper (c)))
        g_string_append_c (out, '_');
      g_string_append_unichar (out, g_unichar_tolower (c));
      prev_lower =
          dialect->snake_case_ascii_only ? c < 0x80 && g_ascii_islower (c) : g_unichar_islower (c);
      p = g_utf8_next_char (p);
    }
  return g_string_free (out, FALSE);
}

/**
 * graft_name_for_target:
 * @op: the node's op
 * @target: its target (for call_function, the qualified name)
 *
 * `Graph._target_to_str`: the candidate name of a new node.  For a function
 * it is the function's `__name__` (the part after the last dot of the
 * qualified name); for a string target the target itself with a surrounding
 * pair of double underscores cut off.  Either is then snake-cased, as
 * @dialect does.
 *
 * Returns: (transfer full): the candidate
 */
char *
graft_name_for_target (GraftOp             op,
                       const char         *target,
                       const GraftDialect *dialect)
{
  g_autofree char *cut = NULL;
  gsize            len = strlen (target);

  if (op == GRAFT_OP_CALL_FUNCTION)
    {
      const char *dot = strrchr (target, '.');

      return graft_snake_case (dot != NULL ? dot + 1 : target, dialect);
    }
  if (len >= 4 && g_str_has_prefix (target, "__") && g_str_has_suffix (target, "__"))
    {
      cut = g_strndup (target + 2, len - 4);
      return graft_snake_case (cut, dialect);
    }
  /* `__` alone, or `___`, both starts and ends with `__` in Python too. */
  if (len >= 2 && g_str_has_prefix (target, "__") && g_str_has_suffix (target, "__"))
    return g_strdup ("");
  return graft_snake_case (target, dialect);
}

/* Takes @stored, a name kept in the namespace's blocks and not taken. */
static const char *
add_stored (GraftNamespace *self,
            char           *stored)
{
  gsize len = strlen (stored);

  /* A name put back that a run kept goes to the set. */
  header_set (stored, HEADER_REPLACED, header_get (stored, HEADER_REPLACED) & ~IN_RUN);
  self->last = used_take (self, stored, _graft_name_hash (stored, len));
  if (self->count_per_base)
    note_free_name (self, stored, len);
  extend_filled (self, stored, len);
  return stored;
}

/**
 * _graft_namespace_add_verbatim:
 * @name: a name not yet in the namespace
 *
 * Registers @name exactly as given, bypassing the suffix rules.  Graphs
 * read from a listing or a DOT file keep the names written there.
 *
 * Returns: (transfer none): the stored name
 */
const char *
_graft_namespace_add_verbatim (GraftNamespace *self,
                               const char     *name)
{
  g_return_val_if_fail (!is_used (self, name, strlen (name)), NULL);

  return _graft_namespace_add_new (self, name);
}

/**
 * _graft_namespace_add_new:
 * @name: a name not in the namespace, as the caller has just asked
 *   (graft_namespace_contains())
 *
 * _graft_namespace_add_verbatim() without asking again (the `.pt2`
 * reader's nodes: pt2m).
 *
 * Returns: (transfer none): the stored name
 */
const char *
_graft_namespace_add_new (GraftNamespace *self,
                          const char     *name)
{
  return add_stored (self, keep_name (self, name, strlen (name)));
}

/**
 * _graft_namespace_reserve:
 *
 * Makes room at once for @n more names, so that a reader that knows
 * about how many nodes it will name does not grow the set step by step
 * (each step reads every name's header again).
 */
void
_graft_namespace_reserve (GraftNamespace *self,
                          guint           n)
{
  guint64 size = self->used.mask + 1;

  while ((self->used.n_occupied + (guint64) n) * 8 > size * 7)
    size *= 2;
  if (size > self->used.mask + 1 && size <= G_MAXUINT32 / 2)
    used_resize (&self->used, (guint) size);
}

/* Stores @name, not in the namespace, from its scan and hash (the last
 * two steps of _graft_namespace_add_new_canonical() and
 * _graft_namespace_add_if_canonical()). */
static inline char *
add_scanned (GraftNamespace *self,
             const char     *name,
             const Scan     *scan,
             guint           hash)
{
  char *stored = keep_name (self, name, scan->len);

  self->last = used_take (self, stored, hash);
  /* Both look at a `_<digits>` suffix only (split_suffix(), the run's
   * digits): a name without one changes no count and no run. */
  if (scan->number_suffix)
    {
      if (self->count_per_base)
        note_free_name (self, stored, scan->len);
      extend_filled (self, stored, scan->len);
    }
  return stored;
}

/**
 * _graft_namespace_add_new_canonical:
 * @name: a name not in the namespace, as the caller has just asked
 * @out_canonical: (out): graft_namespace_is_canonical (@name,
 *   %GRAFT_NAME_DEFAULT)
 *
 * _graft_namespace_add_new() that also tells whether the name is
 * canonical, from the one pass that measures and hashes it (the `.pt2`
 * reader's nodes: the name's length, hash, form and suffix found once,
 * where add_new() and is_canonical() took four passes).
 *
 * Returns: (transfer none): the stored name
 */
const char *
_graft_namespace_add_new_canonical (GraftNamespace *self,
                                    const char     *name,
                                    gboolean       *out_canonical)
{
  Scan  scan;
  guint hash;
  char *stored;

  scan_candidate (name, &scan);
  hash = _graft_name_hash_finish (scan.state);
  stored = add_scanned (self, name, &scan, hash);
  *out_canonical =
      scan.final_form && !is_illegal_hashed (stored, scan.len, hash, GRAFT_NAME_DEFAULT);
  return stored;
}

/**
 * _graft_namespace_add_if_canonical:
 * @name: a name
 *
 * Adds @name if it is not in the namespace and is canonical
 * (graft_namespace_is_canonical (@name, %GRAFT_NAME_DEFAULT)), that is if
 * create_name() would give it as it is: the `.pt2` reader's usual node,
 * whose name was asked graft_namespace_contains(), then
 * graft_namespace_is_canonical(), then added by
 * _graft_namespace_add_new_canonical(), four passes over it and three
 * hashes; here one of each.
 *
 * Returns: (transfer none) (nullable): the stored name, or %NULL when
 *   @name is taken or not canonical (the namespace is then unchanged)
 */
const char *
_graft_namespace_add_if_canonical (GraftNamespace *self,
                                   const char     *name)
{
  Scan  scan;
  guint hash;

  scan_candidate (name, &scan);
  hash = _graft_name_hash_finish (scan.state);
  if (!scan.final_form || name_taken (self, name, scan.len, hash) ||
      is_illegal_hashed (name, scan.len, hash, GRAFT_NAME_DEFAULT))
    return NULL;
  return add_scanned (self, name, &scan, hash);
}

/**
 * _graft_namespace_add_back:
 * @stored: a name the namespace made (or added) and released since
 *
 * _graft_namespace_add_verbatim() for a name put back by undo or redo:
 * the namespace takes the same stored name again, so that the node that
 * has it can be bound to it.
 */
void
_graft_namespace_add_back (GraftNamespace *self,
                           const char     *stored)
{
  g_return_if_fail (!is_used (self, stored, strlen (stored)));

  add_stored (self, (char *) stored);
}

/* Undoes what making @stored did to `_base_count`. */
static void
restore_base_count (GraftNamespace *self,
                    const char     *stored)
{
  gsize          len = strlen (stored), base_len = len, i = len;
  guint32        field = header_get (stored, HEADER_REPLACED);
  guint          base_hash;
  GraftNameSlot *slot;
  char           digits[24];
  const char    *old = digits;

  if ((field & ~IN_RUN) == 0)
    return;
  /* The base as `(.*)_(\d+)$` splits the name, whatever its digits. */
  while (i > 0 && g_ascii_isdigit (stored[i - 1]))
    i--;
  if (i < len && i > 0 && stored[i - 1] == '_')
    base_len = i - 1;
  base_hash = _graft_name_hash (stored, base_len);
  slot = _graft_name_table_find (&self->base_count, stored, base_len, base_hash);
  if ((field & ~IN_RUN) == REPLACED_BIG)
    old = g_hash_table_lookup (self->big_replaced, stored);
  else
    g_snprintf (digits, sizeof digits, "%u", (field & ~IN_RUN) - 1);
  if (slot != NULL)
    put_count_text (self, stored, base_len, base_hash, slot, old);
  if ((field & ~IN_RUN) == REPLACED_BIG)
    g_hash_table_remove (self->big_replaced, stored);
  header_set (stored, HEADER_REPLACED, field & IN_RUN);
}

/**
 * _graft_namespace_remove:
 * @name: a name of the namespace
 *
 * Releases @name, for undo only: torch never releases a name, but undoing
 * the edit that created it must leave the namespace as it was, so that
 * redoing it, or doing something else, names nodes as a fresh run would.
 */
void
_graft_namespace_remove (GraftNamespace *self,
                         const char     *name)
{
  const char *underscore = strrchr (name, '_');
  gsize       digits = 0;

  gsize     len = strlen (name);
  guint     slot = used_find (&self->used, name, len, _graft_name_hash (name, len));
  gpointer *in_run = NULL;
  gpointer  entry;

  if (slot == USED_NONE && (in_run = run_find (self, name, len)) == NULL)
    return;
  entry = in_run != NULL ? *in_run : self->used.entries[slot];
  if (entry_is_node (entry))
    self->n_bound--;
  self->last = NULL;
  if (self->counted_any)
    {
      memset (self->counted, 0, sizeof self->counted);
      self->counted_any = FALSE;
    }
  if (self->count_per_base)
    restore_base_count (self, entry_name (entry));
  if (in_run != NULL)
    {
      /* The entry is left NULL: put back, the name goes to the set. */
      *in_run = NULL;
      self->n_run_names--;
    }
  else
    used_remove (&self->used, slot);
  if (underscore == NULL || underscore == name || underscore[1] == '\0')
    return;
  for (const char *p = underscore + 1; *p != '\0'; p++, digits++)
    if (!g_ascii_isdigit (*p))
      return;
  if (digits < 19)
    {
      gsize base_len = underscore - name;
      gsize num = (gsize) g_ascii_strtoull (underscore + 1, NULL, 10);
      gsize filled = get_filled (self, name, base_len);

      Span *span = span_find (self, name, base_len, _graft_name_hash (name, base_len));

      /* The run `base_1` ... `base_filled` now has a hole at num, and
       * names past it stay taken. */
      if (num >= 1 && filled >= num)
        set_filled (self, name, base_len, num - 1, TRUE);
      /* So has the base's span, which ends there. */
      if (span != NULL && num >= span->lo && num < span->end)
        span->end = (guint32) num;
    }
}

/**
 * _graft_namespace_bind:
 * @name: a name the namespace stored, as it returned it (the address is
 *   what counts: it is found by the hash stored with it)
 * @node: (nullable): the node @name stands for now, whose name is @name
 *   itself (the same address), or %NULL for none
 *
 * Binds @name to @node (a graph binds each live node's name to the node,
 * and unbinds the name of an erased node, which stays reserved).  Does
 * nothing for a name the namespace released.
 */
/* _graft_namespace_bind() for a name found by the hash in its header. */
static G_GNUC_NO_INLINE void
bind_found (GraftNamespace *self,
            const char     *name,
            GraftNode      *node)
{
  gpointer *at;
  gpointer  entry;

  if ((header_get (name, HEADER_REPLACED) & IN_RUN) != 0)
    at = run_find_stored (self, name);
  else
    {
      guint slot = used_find_stored (&self->used, name);

      at = slot != USED_NONE ? &self->used.entries[slot] : NULL;
    }
  if (at == NULL)
    return;
  /* The entry's name is @name itself (the address found): a node has the
   * stored name, not a copy. */
  entry = *at;
  self->n_bound += (node != NULL) - entry_is_node (entry);
  *at = node != NULL ? (gpointer) ((guintptr) node + 1) : (gpointer) name;
}

void
_graft_namespace_bind (GraftNamespace *self,
                       const char     *name,
                       GraftNode      *node)
{
  if (node != NULL)
    bind_last (self, name, node);
  else
    bind_found (self, name, NULL);
}

/**
 * _graft_namespace_lookup_bound:
 *
 * Returns: (nullable): the node @name is bound to, or %NULL
 */
GraftNode *
_graft_namespace_lookup_bound (GraftNamespace *self,
                               const char     *name)
{
  gsize     len = strlen (name);
  guint     slot = used_find (&self->used, name, len, _graft_name_hash (name, len));
  gpointer *at = slot != USED_NONE ? &self->used.entries[slot] : run_find (self, name, len);

  if (at == NULL || !entry_is_node (*at))
    return NULL;
  return entry_node (*at);
}

static gsize
table_size (const GraftNameTable *t)
{
  gsize size = (t->mask + 1) * sizeof (GraftNameSlot);

  /* Keys the table owns (bases) are allocated one by one. */
  for (guint i = 0; t->owns_keys && i <= t->mask; i++)
    if (t->slots[i].key != NULL && t->slots[i].key != &_graft_name_table_removed)
      size += t->slots[i].len + 1;
  return size;
}

/* The runs and their entries, at their capacity. */
static gsize
runs_size (GraftNamespace *self)
{
  gsize size = self->run_list->len * (sizeof (Run) + sizeof (gpointer));

  for (guint i = 0; i < self->run_list->len; i++)
    {
      const Run *run = self->run_list->pdata[i];

      size += run->capacity * sizeof (gpointer) + run_n_pages (run) * sizeof (gpointer *);
    }
  return size;
}

/**
 * _graft_namespace_get_memory_size:
 * @out_strings: (out) (optional): of the bytes returned, those that hold
 *   the names' text (with their undo headers)
 *
 * Returns: the bytes the namespace holds: its tables, at their capacity,
 *   and the blocks its names live in
 */
gsize
_graft_namespace_get_memory_size (GraftNamespace *self,
                                  gsize          *out_strings)
{
  if (out_strings != NULL)
    *out_strings = self->blocks_total;
  return sizeof (GraftNamespace) + (self->used.mask + 1) * (sizeof (gpointer) + sizeof (guint16)) +
         table_size (&self->filled) + table_size (&self->runs) + runs_size (self) +
         table_size (&self->span_index) + self->spans->len * sizeof (Span) +
         table_size (&self->base_count) + self->scratch->allocated_len +
         self->probe->allocated_len + self->blocks_total;
}

/* How many names are bound to something. */
guint
_graft_namespace_get_n_bound (GraftNamespace *self)
{
  return self->n_bound;
}
