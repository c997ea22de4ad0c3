/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pt2-tree.c: the JSON member of a `.pt2` as a tree of its own,
 * built from the callbacks of yajl, which lexes and parses the text (the
 * grammar, escapes, UTF-8 in strings).  Where Python's json, whose reading
 * torch's is, and yajl differ, this file follows Python: yajl refuses the
 * float tokens `NaN`, `Infinity` and `-Infinity`, so where one stands in
 * place of a value a new yajl takes over after it (resume()), and the
 * token is marked in the text as graft-pt2-private.h says; the callbacks
 * stop yajl at what it takes and Python's json does not (\f and \v as
 * blanks, UTF-8 sequences longer than needed or encoding surrogates,
 * integers beyond 64 bits) and at nesting deeper than
 * GRAFT_MAX_JSON_DEPTH.  When the tree is not built,
 * _graft_pt2_check_text() (graft-pt2-json.c) says what Python's json says
 * of the text, and where.
 *
 * json-glib's tree of a 10,000-node program was 17 times its text and
 * most of the reading time (a GObject parser, a GHashTable and a GQueue
 * for every object, a slice for every value); this one is 1.26 times
 * the text: a value is 16 bytes with its place in the text (so
 * errors need no search: a callback finds where its token starts from
 * where the last one ended, and yajl_get_bytes_consumed() is where the
 * token just read ends), the items of an array or the members of an
 * object are one block, a string without escapes stays in the text (its
 * closing quote becomes its end), keys and other strings are copied once
 * into the same chunks (a key seen lately is shared), and the whole tree
 * is freed at once.  A large text is read in parts on two threads and
 * their trees joined (tree_new_split()).  Values read as json-glib read them: integers as 64-bit,
 * numbers with a fraction or an exponent as doubles (g_ascii_strtod), escapes decoded (a lone
 * surrogate as U+FFFD); an object that repeats a key keeps its first place and its last value.
 */
#include "config.h"

#include "graft-pt2-private.h"
#include "graft-limits.h"

#include <string.h>
#include <yajl/yajl_parse.h>

/* A value's offset and length fit its bit-fields (graft-pt2-private.h). */
G_STATIC_ASSERT (GRAFT_MAX_JSON_BYTES <= (1u << 30));

/* The tree's memory: chunks a value never crosses, of at most this
 * (less for a short text or part of one). */
#define CHUNK_SIZE (4u * 1024u * 1024u)

typedef struct _Chunk Chunk;
struct _Chunk
{
  Chunk *next;
  gsize  used;
  gsize  size;
  /* the bytes follow, 16-aligned */
};

/* The parts of a text read in parts whose memory may be freed before the
 * tree's: those that closed no container they were brought into hold
 * only items of the list they started in, each whole (tree_new_split()),
 * and the values inside them. */
#define MAX_HELD 16

typedef struct
{
  gsize  from, end; /* the part's text */
  Chunk *chunks;
} Held;

struct _Pt2Tree
{
  Chunk   *chunks;
  Pt2Value root;
  guint    n_parts;        /* the text was read in (tree_new_split()) */
  gsize    chunk_size;     /* of its chunks */
  Held     held[MAX_HELD]; /* in the text's order */
  guint    n_held;
  guint    next_held; /* the first not yet freed */
  /* Keys seen lately, by a hash of their bytes: most objects repeat a few
   * dozen keys ("name", "arg", "as_tensor").  How many copies such caches
   * (these, a builder's strings) have pointed at. */
  const char *keys[1024];
  guint8      key_lens[1024]; /* their lengths, below 64 */
  guint       n_kept_copies;
};

static gpointer
tree_alloc (Pt2Tree *tree,
            gsize    size)
{
  Chunk   *c = tree->chunks;
  gpointer p;

  size = (size + 15) & ~(gsize) 15;
  if (c == NULL || c->size - c->used < size)
    {
      gsize bytes = MAX (tree->chunk_size, size);

      c = g_malloc (sizeof (Chunk) + 16 + bytes);
      c->next = tree->chunks;
      c->used = 0;
      c->size = bytes;
      tree->chunks = c;
    }
  p = (char *) c + ((sizeof (Chunk) + 15) & ~(gsize) 15) + c->used;
  c->used += size;
  return p;
}

static void
free_chunks (Chunk *c)
{
  while (c != NULL)
    {
      Chunk *next = c->next;

      g_free (c);
      c = next;
    }
}

void
_graft_pt2_tree_free (Pt2Tree *tree)
{
  if (tree == NULL)
    return;
  free_chunks (tree->chunks);
  for (guint k = tree->next_held; k < tree->n_held; k++)
    free_chunks (tree->held[k].chunks);
  g_free (tree);
}

static gpointer
free_tree_thread (gpointer data)
{
  _graft_pt2_tree_free (data);
  return NULL;
}

/**
 * _graft_pt2_tree_free() on a thread of its own, which nobody waits for:
 * at a million nodes what the reader has not freed as it went (the values,
 * the signature, the first nodes: half a gigabyte in 4 MiB chunks, each
 * unmapped) took 40-70 ms of processor time before the graph was handed
 * over.  Inline when no thread can be made.
 */
void
_graft_pt2_tree_free_aside (Pt2Tree *tree)
{
  GThread *thread;

  if (tree == NULL)
    return;
  thread = g_thread_try_new ("graft-pt2-free", free_tree_thread, tree, NULL);
  if (thread != NULL)
    g_thread_unref (thread);
  else
    _graft_pt2_tree_free (tree);
}

/**
 * Frees the memory of the parts of the text that lie after @list (an
 * array of the tree) starts and end before @offset: what they hold are
 * whole items of @list before @offset, and what those items hold, which
 * must not be read again (their places in @list stay, pointing at freed
 * memory).  The items of a list read in order, from the first, are freed
 * so as they are read: at a million nodes the nodes' values are a
 * gigabyte.  Returns whether any memory was freed (texts of the tree
 * kept elsewhere, as keys of a cache, must then be forgotten).
 */
gboolean
_graft_pt2_tree_release (Pt2Tree  *tree,
                         Pt2Value *list,
                         gsize     offset)
{
  gboolean freed = FALSE;

  while (tree->next_held < tree->n_held && tree->held[tree->next_held].end <= offset)
    {
      Held *h = &tree->held[tree->next_held++];

      if (h->from > list->offset)
        {
          free_chunks (h->chunks);
          freed = TRUE;
        }
      else
        {
          /* Before the list: the tree's till the end. */
          Chunk *last = h->chunks;

          while (last != NULL && last->next != NULL)
            last = last->next;
          if (last != NULL)
            {
              last->next = tree->chunks;
              tree->chunks = h->chunks;
            }
        }
      h->chunks = NULL;
    }
  return freed;
}

/* The place of the first byte above 127 of the @n bytes at @p, or @n
 * (a word at a time: torch's JSON is ASCII, as json.dumps escapes the
 * rest). */
static gsize
first_high_byte (const char *p,
                 gsize       n)
{
  gsize i = 0;

  for (; i + 8 <= n; i += 8)
    {
      guint64 w;

      memcpy (&w, p + i, 8);
      if ((w & (~(guint64) 0 / 255 * 0x80)) != 0)
        break;
    }
  for (; i < n; i++)
    if ((guchar) p[i] >= 0x80)
      return i;
  return n;
}

/* Whether the @n bytes between a string's quotes (escapes checked by
 * yajl) hold a \u escape of a UTF-16 surrogate, which yajl decodes
 * otherwise than this tree always has (a lone one, or a high one followed
 * by an escape that is not a low one). */
static gboolean
has_surrogate_escape (const char *p,
                      gsize       n)
{
  const char *end = p + n;

  while ((p = memchr (p, '\\', end - p)) != NULL)
    {
      if (p[1] != 'u')
        {
          p += 2;
          continue;
        }
      if ((p[2] | 0x20) == 'd' &&
          (p[3] == '8' || p[3] == '9' || ((p[3] | 0x20) >= 'a' && (p[3] | 0x20) <= 'f')))
        return TRUE;
      p += 6;
    }
  return FALSE;
}

static guint
hex4 (const char *p)
{
  guint v = 0;

  for (int k = 0; k < 4; k++)
    {
      char c = p[k];

      v = v * 16 + (guint) (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
  return v;
}

/* The @n bytes between a string's quotes with a surrogate escape among
 * them, decoded into @out (at least @n bytes): a pair is its character,
 * any other surrogate U+FFFD, as json-glib read them.  Returns the length. */
static gsize
decode_surrogates (const char *p,
                   gsize       n,
                   char       *out)
{
  const char *end = p + n;
  char       *o = out;

  while (p < end)
    {
      if (*p != '\\')
        {
          *o++ = *p++;
          continue;
        }
      p++;
      switch (*p++)
        {
        case 'b':
          *o++ = '\b';
          break;
        case 'f':
          *o++ = '\f';
          break;
        case 'n':
          *o++ = '\n';
          break;
        case 'r':
          *o++ = '\r';
          break;
        case 't':
          *o++ = '\t';
          break;
        case 'u':
          {
            gunichar c = hex4 (p);

            p += 4;
            if (c >= 0xD800 && c < 0xDC00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u')
              {
                gunichar lo = hex4 (p + 2);

                if (lo >= 0xDC00 && lo < 0xE000)
                  {
                    c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
                    p += 6;
                  }
              }
            if (!g_unichar_validate (c))
              c = 0xFFFD;
            /* At most 4 bytes for the 6 of the escape. */
            o += g_unichar_to_utf8 (c, o);
          }
          break;
        default: /* the quote, the backslash, the slash */
          *o++ = p[-1];
          break;
        }
    }
  return o - out;
}
/* Whether two keys are the same text: a key seen lately is shared, and
 * most keys differ from the first byte. */
static inline gboolean
same_key (const char *a,
          const char *b)
{
  return a == b || (a[0] == b[0] && strcmp (a, b) == 0);
}

/* Keeps the first place and the last value of a repeated key. */
static guint
merge_repeated_keys (Pt2Member *members,
                     guint      len)
{
  guint kept = 0;

  if (len > 16)
    {
      /* Large objects (tensor_values, a million keys) by a hash of their
       * keys, in a table sized for them from the start. */
      GraftNameTable seen;
      guint          size = 64;

      while (size / 4 * 3 <= len)
        size *= 2;
      seen.slots = g_new0 (GraftNameSlot, size);
      seen.mask = size - 1;
      seen.n_items = seen.n_occupied = 0;
      seen.owns_keys = FALSE;
      for (guint k = 0; k < len; k++)
        {
          const char    *key = members[k].key;
          gsize          key_len = strlen (key);
          guint          hash = _graft_pt2_hash (key, key_len);
          GraftNameSlot *slot = _graft_name_table_find (&seen, key, key_len, hash);

          if (slot != NULL)
            members[GPOINTER_TO_UINT (slot->value)].value = members[k].value;
          else
            {
              _graft_name_table_insert_len (&seen, key, (guint) key_len, hash,
                                            GUINT_TO_POINTER (kept));
              members[kept++] = members[k];
            }
        }
      _graft_name_table_clear (&seen);
      return kept;
    }
  for (guint k = 0; k < len; k++)
    {
      guint j;

      for (j = 0; j < kept; j++)
        if (same_key (members[j].key, members[k].key))
          break;
      if (j < kept)
        members[j].value = members[k].value;
      else
        members[kept++] = members[k];
    }
  return kept;
}

typedef struct
{
  Pt2Member *items;
  guint      len;
  guint      size;
} Stack;

static inline Pt2Member *
push (Stack *stack)
{
  if (G_UNLIKELY (stack->len == stack->size))
    {
      stack->size *= 2;
      stack->items = g_renew (Pt2Member, stack->items, stack->size);
    }
  return &stack->items[stack->len++];
}

/* The containers being read: where their children start on the stack. */
typedef struct
{
  guint    first;  /* index of the first child in the stack */
  gboolean object; /* else an array */
  gsize    offset;
  /* A tensor's metadata (find_meta()): the tree's memory when it opened */
  gboolean meta;
  Chunk   *mark;
  gsize    mark_used;
  guint    mark_copies;
} Open;

/* Long strings with escapes met lately in a part, by a hash of their
 * bytes (read_string()). */
#define SHARED_STRINGS    256
#define SHARED_STRING_MIN 32

typedef struct
{
  const char *copy; /* in the tree, NUL-terminated */
  gsize       len;  /* of the string as yajl gave it */
  guint32     n;    /* strlen (copy) */
  guint       hash;
} SharedString;

/* Tensors' metadata met lately in a part, by a hash of their text. */
#define SHARED_METAS 256

/* Whether tensors' metadata of the same text share their members, and
 * long strings with escapes their copies (not for some tests). */
static gboolean sharing = TRUE;

typedef struct
{
  gsize      offset; /* of the text, in the part's text */
  gsize      len;
  guint      hash;
  Pt2Member *members; /* in the tree */
  guint      n_members;
} SharedMeta;

/* A float token Python writes (`NaN`, `Infinity`, `-Infinity`), marked in
 * the text once the tree is built (graft-pt2-private.h). */
typedef struct
{
  gsize offset;
  guint len;
  char  mark;
} FloatToken;

/* What the last token yajl reported was, for where a float token may
 * stand. */
typedef enum {
  LAST_NONE,
  LAST_OPEN_ARRAY,
  LAST_OPEN_OBJECT,
  LAST_KEY,
  LAST_VALUE,
} Last;

/* The tree being built from yajl's callbacks. */
typedef struct
{
  Pt2Tree    *tree;
  const char *text;     /* NUL-terminated when @writable */
  gboolean    writable; /* strings end in place (read_string()), float tokens marked */
  gsize       length;
  yajl_handle handle;
  gsize       base;  /* where the text yajl is reading starts */
  gsize       end;   /* where the last token ended */
  Last        last;  /* what that token was */
  gboolean    muted; /* yajl is being brought back to a place (resume()) */
  const char *key;   /* of the member whose value comes next */
  Stack       stack; /* the values read whose container is still open, each with its key */
  Open        open[GRAFT_MAX_JSON_DEPTH];
  guint       depth; /* of open */
  GArray     *floats;
  /* Where, and why, a callback stopped yajl. */
  gsize       stop;
  const char *why;
  /* A part of a text read in parts, but the first (tree_new_split()):
   * the containers open where it starts, which no callback opened; when
   * each closed, where its children on the stack end. */
  guint primed;
  guint primed_end[GRAFT_MAX_JSON_DEPTH];
  /* Set (atomically) when another part was found not to do: then the
   * text is read whole and this part stops at its next container. */
  const gint *given_up;
  SharedMeta *metas; /* SHARED_METAS, or NULL until the first */
  /* Strings with escapes of SHARED_STRING_MIN bytes or more met lately:
   * SHARED_STRINGS, or NULL until the first.  A program's nodes of one
   * module's code repeat their stack trace. */
  SharedString *strings;
} Builder;

static int
stop (Builder    *b,
      gsize       at,
      const char *why)
{
  b->stop = at;
  b->why = why;
  return 0;
}

/* Where the token yajl has just read starts: after the last one and the
 * blanks, commas and colons between them.  yajl also takes \f and \v as
 * blanks, Python's json does not: a token that does not start with
 * @first (or @other) there stops the parse. */
static inline gboolean
token_start (Builder *b,
             char     first,
             char     other,
             gsize   *out_start)
{
  static const guint8 between[256] = {
    ['\t'] = 1,
    ['\n'] = 1,
    ['\r'] = 1,
    [' '] = 1,
    [','] = 1,
    [':'] = 1,
  };
  const char *t = b->text;
  gsize       i = b->end;

  while (between[(guchar) t[i]])
    i++;
  *out_start = i;
  if (G_LIKELY (t[i] == first || t[i] == other))
    return TRUE;
  return stop (b, i, "a blank Python's json does not take");
}

static inline void
add_value (Builder  *b,
           Pt2Value *value)
{
  Pt2Member *slot = push (&b->stack);

  slot->key = b->key;
  slot->value = *value;
  b->key = NULL;
  b->last = LAST_VALUE;
}

static int
on_null (void *ctx)
{
  Builder *b = ctx;
  Pt2Value value = { 0 };
  gsize    at;

  if (G_UNLIKELY (b->muted))
    return 1;
  if (!token_start (b, 'n', 'n', &at))
    return 0;
  value.offset = at;
  value.type = PT2_NULL;
  b->end = value.offset + 4;
  add_value (b, &value);
  return 1;
}

static int
on_boolean (void *ctx,
            int   truth)
{
  Builder *b = ctx;
  Pt2Value value = { 0 };
  gsize    at;

  if (G_UNLIKELY (b->muted))
    return 1;
  if (!token_start (b, 't', 'f', &at))
    return 0;
  value.offset = at;
  value.type = PT2_BOOL;
  value.v.b = truth != 0;
  b->end = value.offset + (truth ? 4 : 5);
  add_value (b, &value);
  return 1;
}

/* A number's text as yajl hands it over (its grammar checked): integers
 * as 64-bit, a number with a fraction or an exponent as a double
 * (g_ascii_strtod); an integer beyond 64 bits stops the parse. */
static int
on_number (void       *ctx,
           const char *s,
           size_t      len)
{
  Builder    *b = ctx;
  Pt2Value    value = { 0 };
  const char *p = s, *end = s + len;
  gboolean    neg = *p == '-';
  guint64     v = 0;
  gsize       at;

  if (G_UNLIKELY (b->muted))
    return 1;
  if (!token_start (b, *s, *s, &at))
    return 0;
  value.offset = at;
  b->end = value.offset + len;
  for (p += neg; p < end && *p >= '0' && *p <= '9'; p++)
    v = v * 10 + (guint64) (*p - '0');
  if (p < end)
    {
      char  buf[64];
      char *copy = len < sizeof buf ? buf : g_malloc (len + 1);

      memcpy (copy, s, len);
      copy[len] = '\0';
      value.type = PT2_DOUBLE;
      value.v.d = g_ascii_strtod (copy, NULL);
      if (copy != buf)
        g_free (copy);
    }
  else
    {
      /* No leading zeros: 19 digits fit 64 unsigned bits, 20 do not fit 63. */
      if (p - s - neg > 19 || v > (guint64) G_MAXINT64 + neg)
        return stop (b, value.offset, "an integer beyond 64 bits");
      value.type = PT2_INT;
      value.v.i = neg ? (gint64) (0 - v) : (gint64) v;
    }
  add_value (b, &value);
  return 1;
}

/* The string yajl has just read, @len bytes at @s with its escapes
 * decoded, copied into the tree.  A key seen lately is shared, and
 * so is a long string with escapes (a stack trace) met lately. */
static gboolean
read_string (Builder             *b,
             const unsigned char *s,
             gsize                len,
             gboolean             is_key,
             Pt2Value            *out)
{
  Pt2Tree    *tree = b->tree;
  const char *raw;
  gsize       start, end, raw_len;
  char       *copy;

  if (!token_start (b, '"', '"', &start))
    return FALSE;
  out->offset = start;
  /* yajl's token ends at the closing quote (escapes make a string shorter). */
  end = b->base + yajl_get_bytes_consumed (b->handle);
  raw = b->text + start + 1;
  raw_len = end - start - 2;
  b->end = end;
  if (G_UNLIKELY (raw_len != len) && has_surrogate_escape (raw, raw_len))
    {
      /* Room for an escape cut at the end, should a text read in place
       * change under yajl (decode_surrogates() writes at most 4 bytes an
       * escape). */
      copy = tree_alloc (tree, raw_len + 8);
      len = decode_surrogates (raw, raw_len, copy);
      copy[len] = '\0';
      out->v.s = copy;
      out->len = (guint32) strlen (copy);
      return TRUE;
    }
  out->len = (guint32) len;
  if (is_key && len > 0 && len < 64)
    {
      guint       h = (guint) len * 31u + s[0] * 7u + s[len - 1];
      const char *seen;

      h = (h ^ s[len / 2] * 131u) & (G_N_ELEMENTS (tree->keys) - 1);
      seen = tree->keys[h];
      /* The length first: a shorter key's copy may end its chunk. */
      if (seen != NULL && tree->key_lens[h] == len && memcmp (seen, s, len) == 0)
        {
          out->v.s = seen;
          return TRUE;
        }
      copy = tree_alloc (tree, len + 1);
      tree->keys[h] = copy;
      tree->key_lens[h] = (guint8) len;
      tree->n_kept_copies++;
    }
  else if (!is_key && raw_len == len)
    {
      /* Without escapes (each makes the string shorter): the string stays
       * in the text; in a text of its own its closing quote is made its
       * end (put back if the text is refused: _graft_pt2_tree_new()), in
       * a text read in place it has none (the value's length says where
       * it ends). */
      if (b->writable)
        ((char *) raw)[len] = '\0';
      out->v.s = raw;
      return TRUE;
    }
  else if (!is_key && len >= SHARED_STRING_MIN && sharing)
    {
      guint         hash = _graft_pt2_hash ((const char *) s, len);
      SharedString *slot;

      if (b->strings == NULL)
        b->strings = g_new0 (SharedString, SHARED_STRINGS);
      slot = &b->strings[hash & (SHARED_STRINGS - 1)];
      if (slot->copy == NULL || slot->hash != hash || slot->len != len ||
          memcmp (slot->copy, s, len) != 0)
        {
          copy = tree_alloc (tree, len + 1);
          memcpy (copy, s, len);
          copy[len] = '\0';
          *slot = (SharedString){ copy, len, (guint32) strlen (copy), hash };
          tree->n_kept_copies++;
        }
      out->v.s = slot->copy;
      out->len = slot->n;
      return TRUE;
    }
  else
    copy = tree_alloc (tree, len + 1);
  memcpy (copy, s, len);
  copy[len] = '\0';
  out->v.s = copy;
  /* A string with escapes is read up to its first NUL (\u0000), as it
   * always was as a C string. */
  if (!is_key && len > 0)
    out->len = (guint32) strlen (copy);
  return TRUE;
}

static int
on_string (void                *ctx,
           const unsigned char *s,
           size_t               len)
{
  Builder *b = ctx;
  Pt2Value value = { 0 };

  if (G_UNLIKELY (b->muted))
    return 1;
  if (!read_string (b, s, len, FALSE, &value))
    return 0;
  value.type = PT2_STRING;
  add_value (b, &value);
  return 1;
}

static int
on_map_key (void                *ctx,
            const unsigned char *s,
            size_t               len)
{
  Builder *b = ctx;
  Pt2Value key = { 0 };

  if (G_UNLIKELY (b->muted))
    return 1;
  if (!read_string (b, s, len, TRUE, &key))
    return 0;
  b->key = key.v.s;
  b->last = LAST_KEY;
  return 1;
}

/* Whether an object opening now is a tensor's metadata: a value of the
 * program's `tensor_values` (root, `graph_module`, `graph`, then it),
 * where that object was opened in this part of the text. */
static inline gboolean
is_meta_place (Builder *b)
{
  const Open *parent;
  const char *key;

  if (!sharing || b->depth != 4 || b->primed > 3)
    return FALSE;
  parent = &b->open[3];
  key = b->stack.items[parent->first - 1].key;
  return parent->object && key != NULL && strcmp (key, "tensor_values") == 0;
}

/* For a tensor's metadata closing (@o, its text ending before @end; its
 * @len members, merged, on the stack): the one met lately in this part
 * whose text is the same, if any, else %NULL, with the hash of its text
 * in *@out_hash and whether it may be shared later in *@out_plain.  Only
 * metadata that
 * the reader reads without fail (_graft_pt2_tensor_meta_is_plain()) is
 * shared: the places in the text of its values, which only an error
 * would name, are the first one's.  The same text is the same metadata,
 * so only one not found is checked.  A model's tensors repeat a few
 * shapes: a million tensors' metadata took half the tree (540 MB), each a
 * dozen small containers. */
static SharedMeta *
find_meta (Builder    *b,
           const Open *o,
           gsize       end,
           Pt2Member  *members,
           guint       len,
           guint      *out_hash,
           gboolean   *out_plain)
{
  Pt2Value    meta = { .type = PT2_OBJECT, .len = len, .v.members = members };
  gsize       span = end - o->offset;
  guint       hash = _graft_pt2_hash (b->text + o->offset, span);
  SharedMeta *slot;

  *out_hash = hash;
  *out_plain = FALSE;
  if (b->metas == NULL)
    b->metas = g_new0 (SharedMeta, SHARED_METAS);
  slot = &b->metas[hash & (SHARED_METAS - 1)];
  if (slot->members != NULL && slot->hash == hash && slot->len == span &&
      memcmp (b->text + slot->offset, b->text + o->offset, span) == 0)
    return slot;
  *out_plain = _graft_pt2_tensor_meta_is_plain (&meta);
  return NULL;
}

static int
open_container (Builder *b,
                gboolean object)
{
  Open       o = { 0, object, 0 };
  Pt2Member *slot;

  if (G_UNLIKELY (b->muted))
    return 1;
  if (b->given_up != NULL && G_UNLIKELY (g_atomic_int_get (b->given_up)))
    return 0;
  if (!token_start (b, object ? '{' : '[', object ? '{' : '[', &o.offset))
    return 0;
  if (b->depth == GRAFT_MAX_JSON_DEPTH)
    return stop (b, o.offset,
                 "the JSON text nests more than " G_STRINGIFY (
                     GRAFT_MAX_JSON_DEPTH) " levels deep");
  /* The container's slot in its parent, filled when it closes. */
  slot = push (&b->stack);
  slot->key = b->key;
  b->key = NULL;
  o.first = b->stack.len;
  if (object && is_meta_place (b))
    {
      o.meta = TRUE;
      o.mark = b->tree->chunks;
      o.mark_used = o.mark != NULL ? o.mark->used : 0;
      o.mark_copies = b->tree->n_kept_copies;
    }
  b->open[b->depth++] = o;
  b->end = o.offset + 1;
  b->last = object ? LAST_OPEN_OBJECT : LAST_OPEN_ARRAY;
  return 1;
}

static int
close_container (Builder *b,
                 gboolean object)
{
  Stack    *stack = &b->stack;
  Open      o;
  guint     len;
  Pt2Value *slot;
  gsize     at;

  if (G_UNLIKELY (b->muted))
    return 1;
  if (!token_start (b, object ? '}' : ']', object ? '}' : ']', &at))
    return 0;
  if (G_UNLIKELY (b->depth <= b->primed))
    {
      /* A container opened before this part of the text: its children
       * stay on the stack, joined with the first part's (join_parts()). */
      b->primed_end[b->depth - 1] = stack->len;
      b->primed = --b->depth;
      b->end = at + 1;
      b->last = LAST_VALUE;
      return 1;
    }
  o = b->open[b->depth - 1];
  len = stack->len - o.first;
  slot = &stack->items[o.first - 1].value;
  slot->offset = o.offset;
  if (object)
    {
      Pt2Member  *members = &stack->items[o.first];
      SharedMeta *shared = NULL;
      guint       hash = 0;
      gboolean    plain = FALSE;

      len = merge_repeated_keys (members, len);
      slot->type = PT2_OBJECT;
      if (o.meta && len > 0)
        shared = find_meta (b, &o, at + 1, members, len, &hash, &plain);
      if (shared != NULL)
        {
          /* What its containers took of the tree since it opened goes
           * back, unless a chunk began meanwhile or a key or a string was
           * copied (the keys and strings seen lately point at their
           * copies). */
          if (o.mark != NULL && b->tree->chunks == o.mark &&
              b->tree->n_kept_copies == o.mark_copies)
            o.mark->used = o.mark_used;
          slot->v.members = shared->members;
          len = shared->n_members;
        }
      else
        {
          slot->v.members = len > 0 ? tree_alloc (b->tree, len * sizeof (Pt2Member)) : NULL;
          if (len > 0)
            memcpy (slot->v.members, members, len * sizeof (Pt2Member));
          if (plain)
            b->metas[hash & (SHARED_METAS - 1)] =
                (SharedMeta){ o.offset, at + 1 - o.offset, hash, slot->v.members, len };
        }
    }
  else
    {
      slot->type = PT2_ARRAY;
      slot->v.items = len > 0 ? tree_alloc (b->tree, len * sizeof (Pt2Value)) : NULL;
      for (guint k = 0; k < len; k++)
        slot->v.items[k] = stack->items[o.first + k].value;
    }
  slot->len = len;
  stack->len = o.first;
  b->depth--;
  b->end = at + 1;
  b->last = LAST_VALUE;
  return 1;
}

static int
on_start_map (void *ctx)
{
  return open_container (ctx, TRUE);
}

static int
on_end_map (void *ctx)
{
  return close_container (ctx, TRUE);
}

static int
on_start_array (void *ctx)
{
  return open_container (ctx, FALSE);
}

static int
on_end_array (void *ctx)
{
  return close_container (ctx, FALSE);
}

static const yajl_callbacks callbacks = {
  .yajl_null = on_null,
  .yajl_boolean = on_boolean,
  .yajl_number = on_number,
  .yajl_string = on_string,
  .yajl_start_map = on_start_map,
  .yajl_map_key = on_map_key,
  .yajl_end_map = on_end_map,
  .yajl_start_array = on_start_array,
  .yajl_end_array = on_end_array,
};

/* yajl refused the text: whether it stopped at a float token Python
 * writes, standing where a value may (the separators since the last
 * token are the grammar's), which it does not read; if so its place,
 * length and mark. */
static gboolean
float_token_at (Builder *b,
                gsize   *out_start,
                guint   *out_len,
                char    *out_mark)
{
  static const struct
  {
    const char *word;
    guint       len;
    char        mark;
  } words[] = {
    { "NaN", 3, NAN_MARK },
    { "Infinity", 8, INF_MARK },
    { "-Infinity", 9, NEG_INF_MARK },
  };
  const char *t = b->text;
  gsize       i = b->end;
  guint       commas = 0, colons = 0;
  gboolean    in_array, where_a_value;

  for (; i < b->length && (t[i] == ' ' || t[i] == ',' || t[i] == ':' || t[i] == '\n' ||
                           t[i] == '\t' || t[i] == '\r');
       i++)
    {
      commas += t[i] == ',';
      colons += t[i] == ':';
    }
  in_array = b->depth > 0 && !b->open[b->depth - 1].object;
  switch (b->last)
    {
    case LAST_NONE:
    case LAST_OPEN_ARRAY:
      where_a_value = commas == 0 && colons == 0;
      break;
    case LAST_KEY:
      where_a_value = commas == 0 && colons == 1;
      break;
    case LAST_VALUE:
      where_a_value = in_array && commas == 1 && colons == 0;
      break;
    case LAST_OPEN_OBJECT:
    default:
      where_a_value = FALSE;
      break;
    }
  if (!where_a_value)
    return FALSE;
  for (guint k = 0; k < G_N_ELEMENTS (words); k++)
    if (b->length - i >= words[k].len && memcmp (t + i, words[k].word, words[k].len) == 0)
      {
        *out_start = i;
        *out_len = words[k].len;
        *out_mark = words[k].mark;
        return TRUE;
      }
  return FALSE;
}

/* Takes the float token at @start as a string of @mark (as long as the
 * token, quotes included), and brings a new yajl to where the old one
 * would stand after a value there: muted, it reads the opening of each
 * open container and an empty string. */
static gboolean
resume (Builder *b,
        gsize    start,
        guint    len,
        char     mark)
{
  g_autoptr (GString) way = g_string_sized_new (4 * b->depth + 2);
  FloatToken  token = { start, len, mark };
  Pt2Value    value = { 0 };
  char       *marks = tree_alloc (b->tree, len - 1);
  yajl_status status;

  memset (marks, mark, len - 2);
  marks[len - 2] = '\0';
  value.type = PT2_STRING;
  value.len = len - 2;
  value.offset = start;
  value.v.s = marks;
  add_value (b, &value);
  g_array_append_val (b->floats, token);
  b->end = start + len;

  for (guint k = 0; k < b->depth; k++)
    g_string_append (way, b->open[k].object ? "{\"\":" : "[");
  g_string_append (way, "\"\"");
  yajl_free (b->handle);
  b->handle = yajl_alloc (&callbacks, NULL, b);
  b->muted = TRUE;
  status = yajl_parse (b->handle, (const unsigned char *) way->str, way->len);
  b->muted = FALSE;
  b->base = b->end;
  return status == yajl_status_ok;
}

/* Replaces @len bytes at @p (a float token) by a string of @mark. */
static void
mark_token (char *p,
            gsize len,
            char  mark)
{
  p[0] = '"';
  memset (p + 1, mark, len - 2);
  p[len - 1] = '"';
}

static void
builder_init (Builder    *b,
              const char *text,
              gsize       length,
              gboolean    writable)
{
  *b = (Builder){
    .tree = g_new0 (Pt2Tree, 1),
    .text = text,
    .writable = writable,
    .length = length,
    .stack = { g_new (Pt2Member, 256), 0, 256 },
    .floats = g_array_new (FALSE, FALSE, sizeof (FloatToken)),
  };
  b->handle = yajl_alloc (&callbacks, NULL, b);
  b->tree->chunk_size = CLAMP (length, 64u * 1024u, CHUNK_SIZE);
}

/* Frees what the builder holds but its tree unless @with_tree. */
static void
builder_clear (Builder *b,
               gboolean with_tree)
{
  if (with_tree)
    _graft_pt2_tree_free (b->tree);
  yajl_free (b->handle);
  g_free (b->stack.items);
  g_free (b->metas);
  g_free (b->strings);
  g_array_unref (b->floats);
}

/* Reads the text from @from to b->length (a part of the text, or all of
 * it: then @last, and what follows the value is checked too). */
static yajl_status
parse_part (Builder *b,
            gsize    from,
            gboolean last)
{
  const char *text = b->text;
  gsize       length = b->length;
  yajl_status status;
  gsize       start;
  guint       len;
  char        mark;
  const char *bad;

  /* yajl checks the form of UTF-8 sequences in strings (outside them it
   * takes ASCII only), not that each is the shortest, nor surrogates or
   * what lies beyond U+10FFFF: GLib checks the text from its first byte
   * above 127, if any (a part starts and ends at ASCII bytes). */
  start = from + first_high_byte (text + from, length - from);
  if (start < length && !g_utf8_validate_len (text + start, length - start, &bad))
    {
      stop (b, bad - text, "the JSON text is not UTF-8");
      return yajl_status_client_canceled;
    }
  status = yajl_parse (b->handle, (const unsigned char *) text + from, length - from);
  while (status == yajl_status_error && float_token_at (b, &start, &len, &mark) &&
         resume (b, start, len, mark))
    status = yajl_parse (b->handle, (const unsigned char *) text + b->base, length - b->base);
  if (status == yajl_status_ok && last)
    status = yajl_complete_parse (b->handle);
  if (status == yajl_status_ok && last)
    {
      /* What Python's json takes after the value (yajl takes \f and \v too). */
      gsize i = b->end;

      while (i < length &&
             (text[i] == ' ' || text[i] == '\n' || text[i] == '\t' || text[i] == '\r'))
        i++;
      if (i < length)
        {
          stop (b, i, "extra data");
          status = yajl_status_client_canceled;
        }
    }
  return status;
}

/* Puts back the closing quotes of the strings ended in place in the
 * text from @from to b->end, as it came: there it holds no NUL but
 * those (yajl took every byte there). */
static void
restore_text (Builder *b,
              gsize    from)
{
  char *text = (char *) b->text;

  if (!b->writable)
    return;
  for (char *p = text + from;
       p < text + b->end && (p = memchr (p, '\0', b->end - (p - text))) != NULL; p++)
    *p = '"';
}

/* Marks the float tokens in the text (graft-pt2-private.h), unless it
 * is read in place. */
static void
mark_floats (Builder *b)
{
  if (!b->writable)
    return;
  for (guint k = 0; k < b->floats->len; k++)
    {
      FloatToken *f = &g_array_index (b->floats, FloatToken, k);

      mark_token ((char *) b->text + f->offset, f->len, f->mark);
    }
}

/* The tree of the whole text on this thread; see _graft_pt2_tree_new(). */
static Pt2Tree *
tree_new_whole (const char *text,
                gsize       length,
                gboolean    writable,
                gsize      *out_stop,
                char      **out_why)
{
  Builder     b;
  yajl_status status;
  Pt2Tree    *tree = NULL;

  builder_init (&b, text, length, writable);
  status = parse_part (&b, 0, TRUE);
  if (status == yajl_status_ok)
    {
      g_assert (b.stack.len == 1 && b.depth == 0);
      tree = b.tree;
      tree->root = b.stack.items[0].value;
      tree->n_parts = 1;
      mark_floats (&b);
    }
  else if (status == yajl_status_client_canceled)
    {
      *out_stop = b.stop;
      *out_why = g_strdup (b.why);
    }
  else
    {
      unsigned char *message = yajl_get_error (b.handle, 0, NULL, 0);

      *out_stop = b.base + yajl_get_bytes_consumed (b.handle);
      *out_why = g_strchomp (g_strdup ((const char *) message));
      yajl_free_error (b.handle, message);
    }
  if (tree == NULL)
    restore_text (&b, 0);
  builder_clear (&b, tree == NULL);
  return tree;
}

/* ------------------------------------------------------------------ */
/* The text in parts, read on two threads
 *
 * At a million nodes the JSON member is nearly a gigabyte and its tree
 * half of reading the program: the text is cut into parts that this
 * thread and a second one take, the longest first.  A part starts at
 * an item of the graph's `nodes` or of the signature's `input_specs`,
 * found from evenly spaced places: `, {"target": "`, `, {"parameter":
 * {"arg": ` or `, {"buffer": {"arg": ` (their quotes cannot stand in a
 * JSON string: they would end it), and its yajl is brought muted into
 * the containers torch's text has open there (three objects, then the
 * list).  `tensor_values`, a third of the text, is not cut: the keys it
 * repeats are merged as it closes, on the thread that read it.  Only
 * when every part is read without an error and ends where the next one
 * starts, just after an item of a list inside three objects, then `, `,
 * are the parts joined: each container gets its
 * children part after part, and repeated keys are merged over them all,
 * which gives the very tree of reading the text whole.  Otherwise the
 * text is put back as it came and read whole, so that an error is the
 * one it always was; the parts stop as soon as one is found not to do
 * (read_parts()), so that a bad text is not read twice over. */

/* Texts of at least split_min_bytes are read in parts, cut at the first
 * place fit for it from each of SPLIT_PARTS - 1 evenly spaced places,
 * which split_from shifts (the tests move both:
 * _graft_pt2_tree_set_split()). */
static gsize    split_min_bytes = PT2_SPLIT_MIN_BYTES;
static double   split_from = 0.5;
static gboolean split_second_thread = TRUE;
/* How many parts the last text read in parts on this thread had read
 * when they were joined or given up (for the tests). */
static _Thread_local guint split_parts_read;

/* At most as many parts: with the longest taken first, neither thread
 * waits long for the other at the end. */
#define SPLIT_PARTS 16

/* The containers torch's text has open where a part starts: objects,
 * then a list. */
#define SPLIT_DEPTH 4

/* Where a part may start: after the `, ` of each. */
static const struct
{
  const char *text;
  gsize       len;
} split_marks[] = {
#define MARK(s)     \
  {                 \
    s, sizeof s - 1 \
  }
  MARK (", {\"target\": \""),
  MARK (", {\"parameter\": {\"arg\": "),
  MARK (", {\"buffer\": {\"arg\": "),
#undef MARK
};

/* How far from a place a part's start is looked for (a node of torch's
 * text is a few hundred bytes; a text without any is not searched
 * whole, again and again). */
#define SPLIT_SEARCH_BYTES (1024u * 1024u)

/* Where in @text (@length bytes) a part may start, from @from: after the
 * `, ` before a node or an input spec, within SPLIT_SEARCH_BYTES; 0 when
 * there is none. */
static gsize
find_split (const char *text,
            gsize       length,
            gsize       from)
{
  const char *p = text + from;
  const char *end = text + MIN (length, from + SPLIT_SEARCH_BYTES);
  const char *text_end = text + length;

  while (p < end && (p = memchr (p, ',', end - p)) != NULL)
    {
      for (guint k = 0; k < G_N_ELEMENTS (split_marks); k++)
        if ((gsize) (text_end - p) >= split_marks[k].len &&
            memcmp (p, split_marks[k].text, split_marks[k].len) == 0)
          return (p - text) + 2;
      p++;
    }
  return 0;
}

typedef struct
{
  Builder     b;
  gsize       from;
  gboolean    last;
  yajl_status status;
} Part;

typedef struct
{
  Part  *parts;
  guint  n_parts;
  guint *order;    /* the parts, the longest first */
  gint   next;     /* the next in order to take, atomic */
  gint   given_up; /* a part was read that does not do, atomic */
  gint   n_read;   /* parts read, atomic */
} Split;

/* Brings a part's builder to its start, inside the containers the text
 * has open there as guessed. */
static gboolean
prime (Part *part)
{
  Builder    *b = &part->b;
  char        way[4 * SPLIT_DEPTH + 1];
  guint       n = 0;
  yajl_status status;

  for (guint d = 0; d < SPLIT_DEPTH; d++)
    {
      Pt2Member *slot = push (&b->stack);
      gboolean   object = d + 1 < SPLIT_DEPTH;

      slot->key = NULL;
      b->open[d] = (Open){ b->stack.len, object, part->from };
      if (object)
        {
          memcpy (way + n, "{\"\":", 4);
          n += 4;
        }
      else
        way[n++] = '[';
    }
  b->depth = b->primed = SPLIT_DEPTH;
  b->muted = TRUE;
  status = yajl_parse (b->handle, (const unsigned char *) way, n);
  b->muted = FALSE;
  b->base = b->end = part->from;
  b->last = LAST_OPEN_ARRAY;
  return status == yajl_status_ok;
}

/* Whether a part read without an error stands where the next one (@next)
 * was brought: just after an item of a list inside three objects, then
 * `, `; or, for the last part, after the whole document. */
static gboolean
part_fits (Part *part,
           Part *next)
{
  Builder *b = &part->b;

  if (part->status != yajl_status_ok || b->muted)
    return FALSE;
  if (next == NULL)
    return b->depth == 0 && b->primed == 0;
  if (b->depth != SPLIT_DEPTH || b->last != LAST_VALUE || b->end + 2 != next->from)
    return FALSE;
  for (guint d = 0; d < SPLIT_DEPTH; d++)
    if (b->open[d].object != (d + 1 < SPLIT_DEPTH))
      return FALSE;
  return TRUE;
}

/* Reads parts until none is left, or until one does not do: an error,
 * or not ending where the next starts (the text is then read whole, and
 * the parts still being read stop at their next container). */
static gpointer
read_parts (gpointer data)
{
  Split *split = data;
  gint   k;

  while (!g_atomic_int_get (&split->given_up) &&
         (k = g_atomic_int_add (&split->next, 1)) < (gint) split->n_parts)
    {
      guint i = split->order[k];
      Part *part = &split->parts[i];

      part->status = parse_part (&part->b, part->from, part->last);
      g_atomic_int_inc (&split->n_read);
      if (!part_fits (part, i + 1 < split->n_parts ? &split->parts[i + 1] : NULL))
        g_atomic_int_set (&split->given_up, 1);
    }
  return NULL;
}

/* A container being joined from the parts. */
typedef struct
{
  const char *key;
  gsize       offset;
  gboolean    object;
  GArray     *children; /* Pt2Member */
} Joined;

static void
joined_open (Joined  *j,
             Builder *b,
             guint    d,
             guint    end)
{
  guint first = b->open[d].first;

  j->key = b->stack.items[first - 1].key;
  j->offset = b->open[d].offset;
  j->object = b->open[d].object;
  j->children = g_array_new (FALSE, FALSE, sizeof (Pt2Member));
  g_array_append_vals (j->children, &b->stack.items[first], end - first);
}

/* The container's value, in @tree; frees what joined it. */
static Pt2Value
joined_close (Joined  *j,
              Pt2Tree *tree)
{
  Pt2Member *all = (Pt2Member *) (gpointer) j->children->data;
  guint      n = j->children->len;
  Pt2Value   v = { 0 };

  v.offset = j->offset;
  if (j->object)
    {
      n = merge_repeated_keys (all, n);
      v.type = PT2_OBJECT;
      v.v.members = n > 0 ? tree_alloc (tree, n * sizeof (Pt2Member)) : NULL;
      if (n > 0)
        memcpy (v.v.members, all, n * sizeof (Pt2Member));
    }
  else
    {
      v.type = PT2_ARRAY;
      v.v.items = n > 0 ? tree_alloc (tree, n * sizeof (Pt2Value)) : NULL;
      for (guint k = 0; k < n; k++)
        v.v.items[k] = all[k].value;
    }
  v.len = n;
  g_clear_pointer (&j->children, g_array_unref);
  return v;
}

/* The tree of all the parts, in the first part's tree (which takes the
 * others' memory). */
static Pt2Tree *
join_parts (Split *split)
{
  Builder *first = &split->parts[0].b;
  Pt2Tree *tree = first->tree;
  Joined   open[SPLIT_DEPTH];
  Chunk  **tail;

  for (guint d = 0; d < SPLIT_DEPTH; d++)
    joined_open (&open[d], first, d,
                 d + 1 < SPLIT_DEPTH ? first->open[d + 1].first - 1 : first->stack.len);
  for (guint k = 1; k < split->n_parts; k++)
    {
      Builder *b = &split->parts[k].b;
      guint    c = b->primed; /* the containers still open from before */
      guint    depth = b->depth;

      /* Those it closed, innermost first: each gets the children read
       * here, then goes to its parent. */
      for (guint d = SPLIT_DEPTH; d-- > c;)
        {
          guint    from = d + 1 == SPLIT_DEPTH ? SPLIT_DEPTH : b->primed_end[d + 1];
          Pt2Value v;

          g_array_append_vals (open[d].children, &b->stack.items[from], b->primed_end[d] - from);
          v = joined_close (&open[d], tree);
          if (d == 0)
            tree->root = v;
          else
            {
              Pt2Member m = { open[d].key, v };

              g_array_append_val (open[d - 1].children, m);
            }
        }
      /* The innermost still open gets what follows, up to a container
       * opened here. */
      if (c > 0)
        {
          guint from = c < SPLIT_DEPTH ? b->primed_end[c] : SPLIT_DEPTH;
          guint end = depth > c ? b->open[c].first - 1 : b->stack.len;

          g_array_append_vals (open[c - 1].children, &b->stack.items[from], end - from);
        }
      /* Those it opened and left open. */
      for (guint d = c; d < depth; d++)
        joined_open (&open[d], b, d, d + 1 < depth ? b->open[d + 1].first - 1 : b->stack.len);
    }
  tree->n_parts = split->n_parts;
  /* The other parts' chunks after the first's. */
  for (tail = &tree->chunks; *tail != NULL; tail = &(*tail)->next)
    ;
  for (guint k = 1; k < split->n_parts; k++)
    {
      Pt2Tree *other = split->parts[k].b.tree;

      if (k + 1 < split->n_parts && split->parts[k].b.primed == SPLIT_DEPTH)
        {
          /* Only items of the list it started in: freed once read. */
          G_STATIC_ASSERT (SPLIT_PARTS <= MAX_HELD);
          tree->held[tree->n_held++] = (Held){ split->parts[k].from, split->parts[k + 1].from,
                                               other->chunks };
          other->chunks = NULL;
          continue;
        }
      *tail = other->chunks;
      other->chunks = NULL;
      while (*tail != NULL)
        tail = &(*tail)->next;
    }
  return tree;
}

/* How long a part is. */
static inline gsize
part_length (Split *split,
             guint  k)
{
  return split->parts[k].b.length - split->parts[k].from;
}

/* split->order, the longest part first (an insertion sort: at most
 * SPLIT_PARTS). */
static void
order_longest_first (Split *split)
{
  for (guint k = 0; k < split->n_parts; k++)
    {
      guint part = k, j = k;

      for (; j > 0 && part_length (split, split->order[j - 1]) < part_length (split, part); j--)
        split->order[j] = split->order[j - 1];
      split->order[j] = part;
    }
}

/* The tree of @text read in parts on two threads, or %NULL (the text as
 * it came) when it is not to be or cannot be so read. */
static Pt2Tree *
tree_new_split (const char *text,
                gsize       length,
                gboolean    writable)
{
  Split    split = { g_new0 (Part, SPLIT_PARTS), 0, NULL, 0, 0, 0 };
  GThread *thread = NULL;
  gboolean ok = TRUE;
  Pt2Tree *tree = NULL;
  gsize    at;

  split_parts_read = 0;
  if (length < split_min_bytes)
    {
      g_free (split.parts);
      return NULL;
    }
  /* Where the parts start: none shorter than half the even share. */
  split.parts[0].from = 0;
  split.n_parts = 1;
  for (guint k = 1; k < SPLIT_PARTS; k++)
    {
      gsize place = (gsize) (length * ((k - 1) + split_from) / (SPLIT_PARTS - 1));
      gsize prev = split.parts[split.n_parts - 1].from;

      place = MAX (MIN (place, length), prev + 1 + length / (2 * SPLIT_PARTS));
      if (place >= length || (at = find_split (text, length, place)) == 0)
        continue;
      split.parts[split.n_parts++].from = at;
    }
  if (split.n_parts == 1)
    {
      g_free (split.parts);
      return NULL;
    }
  split.order = g_new (guint, split.n_parts);
  for (guint k = 0; k < split.n_parts; k++)
    {
      Part *part = &split.parts[k];

      part->last = k + 1 == split.n_parts;
      builder_init (&part->b, text, part->last ? length : split.parts[k + 1].from, writable);
      part->b.tree->chunk_size = CLAMP (part->b.length - part->from, 64u * 1024u, CHUNK_SIZE);
      part->status = yajl_status_error;
      part->b.given_up = &split.given_up;
      if (k > 0)
        ok = ok && prime (part);
    }
  order_longest_first (&split);
  if (ok && split_second_thread)
    thread = g_thread_try_new ("graft-pt2-json", read_parts, &split, NULL);
  if (thread != NULL || (ok && !split_second_thread))
    {
      read_parts (&split);
      if (thread != NULL)
        g_thread_join (thread);
      split_parts_read = (guint) split.n_read;
      for (guint k = 0; k < split.n_parts && ok; k++)
        ok = part_fits (&split.parts[k], k + 1 < split.n_parts ? &split.parts[k + 1] : NULL);
      if (ok)
        {
          tree = join_parts (&split);
          for (guint k = 0; k < split.n_parts; k++)
            mark_floats (&split.parts[k].b);
        }
    }
  for (guint k = 0; k < split.n_parts; k++)
    {
      if (tree == NULL)
        restore_text (&split.parts[k].b, split.parts[k].from);
      builder_clear (&split.parts[k].b, tree == NULL || k > 0);
    }
  g_free (split.order);
  g_free (split.parts);
  return tree;
}

/**
 * The tree of the JSON text @text (@length bytes), or %NULL when yajl or
 * a check of the callbacks refuses the text, with where (*@out_stop) and
 * why (*@out_why, to be freed).  When @writable, @text is NUL-terminated
 * and the tree's strings without escapes end in it with a NUL written
 * over their closing quote, and float tokens are marked in it as
 * graft-pt2-private.h says (all put back when the tree is not built);
 * otherwise nothing is written to @text, which need not be
 * NUL-terminated, and such strings end where their length says.
 */
Pt2Tree *
_graft_pt2_tree_new (const char *text,
                     gsize       length,
                     gboolean    writable,
                     gsize      *out_stop,
                     char      **out_why)
{
  Pt2Tree *tree = tree_new_split (text, length, writable);

  if (tree != NULL)
    return tree;
  return tree_new_whole (text, length, writable, out_stop, out_why);
}

/**
 * For the tests: texts of at least @min_bytes are read in parts (if they
 * can be), the places the parts start looked for from shifted by @from
 * (0 to 1; 0.5 by default).  Not to be called while a text is read.
 */
void
_graft_pt2_tree_set_split (gsize  min_bytes,
                           double from)
{
  split_min_bytes = min_bytes;
  split_from = CLAMP (from, 0.0, 1.0);
}

/**
 * For the tests: whether texts read in parts are read on a second thread
 * too (%TRUE by default), or on the calling one only.  Not to be called
 * while a text is read.
 */
void
_graft_pt2_tree_set_split_thread (gboolean second)
{
  split_second_thread = second;
}

/* For the tests: how many parts the last text read in parts on this
 * thread had read when they were joined or given up. */
guint
_graft_pt2_tree_get_parts_read (void)
{
  return split_parts_read;
}

/* For the tests: whether tensors' metadata and long strings with escapes
 * of the same text are shared (is_meta_place(), read_string()). */
void
_graft_pt2_tree_set_sharing (gboolean share)
{
  sharing = share;
}

/* For the tests: the bytes the tree's values and copies take in its
 * chunks. */
gsize
_graft_pt2_tree_get_size (Pt2Tree *tree)
{
  gsize size = 0;

  for (Chunk *c = tree->chunks; c != NULL; c = c->next)
    size += c->used;
  for (guint k = tree->next_held; k < tree->n_held; k++)
    for (Chunk *c = tree->held[k].chunks; c != NULL; c = c->next)
      size += c->used;
  return size;
}

/* How many parts the tree's text was read in (tree_new_split()). */
guint
_graft_pt2_tree_get_n_parts (Pt2Tree *tree)
{
  return tree->n_parts;
}

Pt2Value *
_graft_pt2_tree_get_root (Pt2Tree *tree)
{
  return &tree->root;
}

/**
 * The member @key of the object @obj (the last of that name), or %NULL.
 */
Pt2Value *
_graft_pt2_member (Pt2Value   *obj,
                   const char *key)
{
  for (guint k = obj->len; k > 0; k--)
    if (same_key (obj->v.members[k - 1].key, key))
      return &obj->v.members[k - 1].value;
  return NULL;
}
