/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pt2-tree.c: the JSON member of a `.pt2` as a tree of its own,
 * built in one pass over the text that _graft_pt2_check_text() has
 * checked (so the grammar, UTF-8, the nesting and the integers are known
 * to be good here).  json-glib's tree of a 10,000-node program was 17
 * times its text and most of the reading time (a GObject parser, a
 * GHashTable and a GQueue for every object, a slice for every value);
 * this one is two or three times the text: a value is 24 bytes with its
 * place in the text (so errors need no search), the items of an array or
 * the members of an object are one block, strings and keys are copied
 * once into the same chunks (a key seen lately is shared), and the whole
 * tree is freed at once.  Values read as json-glib read them: integers
 * as 64-bit, numbers with a fraction or an exponent as doubles
 * (g_ascii_strtod), escapes decoded; an object that repeats a key keeps
 * its first place and its last value.
 */
#include "config.h"

#include "graft-pt2-private.h"
#include "graft-source.h"

#include <string.h>

/* The tree's memory: chunks a value never crosses. */
#define CHUNK_SIZE (4u * 1024u * 1024u)

typedef struct _Chunk Chunk;
struct _Chunk
{
  Chunk *next;
  gsize  used;
  gsize  size;
  /* the bytes follow, 16-aligned */
};

struct _Pt2Tree
{
  Chunk   *chunks;
  Pt2Value root;
  /* Keys seen lately, by a hash of their bytes: most objects repeat a few
   * dozen keys ("name", "arg", "as_tensor"). */
  const char *keys[1024];
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
      gsize bytes = MAX (CHUNK_SIZE, size);

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

void
_graft_pt2_tree_free (Pt2Tree *tree)
{
  Chunk *c;

  if (tree == NULL)
    return;
  while ((c = tree->chunks) != NULL)
    {
      tree->chunks = c->next;
      g_free (c);
    }
  g_free (tree);
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

/* The string at t[*i] == '"', escapes decoded, copied into the tree;
 * *i moves past it.  A key (@is_key) seen lately is shared. */
static const char *
read_string (Pt2Tree    *tree,
             const char *t,
             gsize       n,
             gsize      *i,
             gboolean    is_key,
             guint32    *out_len)
{
  const char *start = t + *i + 1;
  const char *end = memchr (start, '"', n - (*i + 1));
  const char *bs = memchr (start, '\\', end - start);
  char       *out, *o;

  if (bs == NULL)
    {
      gsize len = end - start;

      *i = end + 1 - t;
      *out_len = (guint32) len;
      if (is_key && len > 0 && len < 64)
        {
          guint       h = (guint) len * 31u + (guchar) start[0] * 7u + (guchar) start[len - 1];
          const char *seen;

          h = (h ^ (guchar) start[len / 2] * 131u) & (G_N_ELEMENTS (tree->keys) - 1);
          seen = tree->keys[h];
          if (seen != NULL && memcmp (seen, start, len) == 0 && seen[len] == '\0')
            return seen;
          out = tree_alloc (tree, len + 1);
          memcpy (out, start, len);
          out[len] = '\0';
          tree->keys[h] = out;
          return out;
        }
      out = tree_alloc (tree, len + 1);
      memcpy (out, start, len);
      out[len] = '\0';
      return out;
    }

  /* With escapes: the text of the string up to its real end. */
  {
    const char *p = start;

    for (;;)
      {
        if (*p == '\\')
          p += 2;
        else if (*p == '"')
          break;
        else
          p++;
      }
    end = p;
  }
  o = out = tree_alloc (tree, (end - start) + 1);
  for (const char *p = start; p < end;)
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
        default:
          *o++ = p[-1];
          break;
        }
    }
  *o = '\0';
  *i = end + 1 - t;
  *out_len = (guint32) (o - out);
  return out;
}

/* A number at t[*i] (checked: Python's grammar, integers within 64 bits). */
static void
read_number (const char *t,
             gsize      *i,
             Pt2Value   *out)
{
  const char *p = t + *i;
  gboolean    neg = FALSE;
  guint64     v = 0;

  if (*p == '-')
    {
      neg = TRUE;
      p++;
    }
  while (*p >= '0' && *p <= '9')
    v = v * 10 + (guint64) (*p++ - '0');
  if (*p == '.' || *p == 'e' || *p == 'E')
    {
      char *end;

      out->type = PT2_DOUBLE;
      out->v.d = g_ascii_strtod (t + *i, &end);
      *i = end - t;
      return;
    }
  out->type = PT2_INT;
  out->v.i = neg ? (gint64) (0 - v) : (gint64) v;
  *i = p - t;
}

/* Keeps the first place and the last value of a repeated key. */
static guint
merge_repeated_keys (Pt2Member *members,
                     guint      len)
{
  g_autoptr (GHashTable) seen = NULL;
  guint kept = 0;

  if (len > 16)
    {
      /* Large objects (tensor_values) by a hash of their keys. */
      seen = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint k = 0; k < len; k++)
        {
          gpointer j;

          if (g_hash_table_lookup_extended (seen, members[k].key, NULL, &j))
            members[GPOINTER_TO_UINT (j)].value = members[k].value;
          else
            {
              g_hash_table_insert (seen, (gpointer) members[k].key, GUINT_TO_POINTER (kept));
              members[kept++] = members[k];
            }
        }
      return kept;
    }
  for (guint k = 0; k < len; k++)
    {
      guint j;

      for (j = 0; j < kept; j++)
        if (strcmp (members[j].key, members[k].key) == 0)
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
} Open;

Pt2Tree *
_graft_pt2_tree_new (const char *t,
                     gsize       n)
{
  Pt2Tree *tree = g_new0 (Pt2Tree, 1);
  /* The values read whose container is still open, each with its key. */
  Stack stack = { g_new (Pt2Member, 256), 0, 256 };
  g_autoptr (GArray) open = g_array_sized_new (FALSE, FALSE, sizeof (Open), 32);
  const char *key = NULL;
  gsize       i = 0;

  for (;;)
    {
      Pt2Value value = { 0 };
      char     c;

      while (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r' || t[i] == ',' ||
             t[i] == ':')
        i++;
      if (i >= n)
        break;
      c = t[i];
      if (open->len > 0 && g_array_index (open, Open, open->len - 1).object && key == NULL &&
          c == '"')
        {
          guint32 len;

          key = read_string (tree, t, n, &i, TRUE, &len);
          continue;
        }
      if (c == '{' || c == '[')
        {
          Open       o = { 0, c == '{', i };
          Pt2Member *slot = push (&stack);

          /* The container's slot in its parent, filled when it closes. */
          slot->key = key;
          o.first = stack.len;
          g_array_append_val (open, o);
          key = NULL;
          i++;
          continue;
        }
      if (c == '}' || c == ']')
        {
          Open      o = g_array_index (open, Open, open->len - 1);
          guint     len = stack.len - o.first;
          Pt2Value *slot = &stack.items[o.first - 1].value;

          slot->offset = o.offset;
          if (o.object)
            {
              Pt2Member *members = &stack.items[o.first];

              len = merge_repeated_keys (members, len);
              slot->type = PT2_OBJECT;
              slot->v.members = len > 0 ? tree_alloc (tree, len * sizeof (Pt2Member)) : NULL;
              if (len > 0)
                memcpy (slot->v.members, members, len * sizeof (Pt2Member));
            }
          else
            {
              slot->type = PT2_ARRAY;
              slot->v.items = len > 0 ? tree_alloc (tree, len * sizeof (Pt2Value)) : NULL;
              for (guint k = 0; k < len; k++)
                slot->v.items[k] = stack.items[o.first + k].value;
            }
          slot->len = len;
          stack.len = o.first;
          g_array_set_size (open, open->len - 1);
          i++;
          if (open->len == 0)
            break;
          continue;
        }
      value.offset = i;
      if (c == '"')
        {
          value.type = PT2_STRING;
          value.v.s = read_string (tree, t, n, &i, FALSE, &value.len);
        }
      else if (c == 't' || c == 'f')
        {
          value.type = PT2_BOOL;
          value.v.b = c == 't';
          i += c == 't' ? 4 : 5;
        }
      else if (c == 'n')
        {
          value.type = PT2_NULL;
          i += 4;
        }
      else
        read_number (t, &i, &value);
      {
        Pt2Member *slot = push (&stack);

        slot->key = key;
        slot->value = value;
        key = NULL;
      }
      if (open->len == 0)
        break;
    }
  g_assert (stack.len == 1);
  tree->root = stack.items[0].value;
  g_free (stack.items);
  return tree;
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
    if (strcmp (obj->v.members[k - 1].key, key) == 0)
      return &obj->v.members[k - 1].value;
  return NULL;
}
