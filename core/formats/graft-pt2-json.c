/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pt2-json.c: the JSON member of a `.pt2`: parsing it into the tree
 * (yajl, graft-pt2-tree.c), errors located at the place of a value, and
 * typed access to values that fails with such an error.  When the tree
 * is not built, check_text() reports what is wrong with the text, as
 * Python's json reads it (a JSON grammar with its messages and places,
 * UTF-8, nesting bounded by GRAFT_MAX_JSON_DEPTH, integers within 64
 * bits): it is only the error reporter, run on that failure path alone.
 */
#include "config.h"

#include "graft-pt2-private.h"
#include "graft-limits.h"
#include "graft-source.h"

#include <errno.h>
#include <string.h>

/* Where @node starts in the member text: the tree keeps it. */
gsize
_graft_pt2_node_offset (Reader   *r,
                        Pt2Value *node)
{
  return node->offset;
}

/* ------------------------------------------------------------------ */
/* Errors and typed access to the JSON */

/* Sets the error at the start of @at (the member's start when %NULL);
 * returns %FALSE. */
gboolean
_graft_pt2_fail (Reader             *r,
                 Pt2Value           *at,
                 GraftParseErrorCode code,
                 const char         *format,
                 ...)
{
  g_autofree char *message = NULL;
  va_list          ap;
  gsize            offset;

  if (r->error != NULL && *r->error != NULL)
    return FALSE;
  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  offset = at != NULL ? _graft_pt2_node_offset (r, at) : 0;
  graft_set_error_at_offset (r->error, r->member, offset, offset, code, "%s", message);
  return FALSE;
}

const char *
_graft_pt2_type_name (Pt2Value *node)
{
  if (node == NULL || (node)->type == PT2_NULL)
    return "null";
  if ((node)->type == PT2_OBJECT)
    return "an object";
  if ((node)->type == PT2_ARRAY)
    return "a list";
  switch (node->type)
    {
    case PT2_STRING:
      return "a string";
    case PT2_BOOL:
      return "a bool";
    default:
      return "a number";
    }
}

/* The member @key of the object @obj, or %NULL. */
Pt2Value *
_graft_pt2_opt (Pt2Value   *obj,
                const char *key)
{
  return _graft_pt2_member (obj, key);
}

Pt2Value *
_graft_pt2_req (Reader     *r,
                Pt2Value   *obj,
                const char *key)
{
  Pt2Value *member = _graft_pt2_opt (obj, key);

  if (member == NULL)
    _graft_pt2_fail (r, obj, GRAFT_PARSE_ERROR_SYNTAX, "missing key '%s'", key);
  return member;
}

gboolean
_graft_pt2_check_object (Reader     *r,
                         Pt2Value   *node,
                         const char *what)
{
  if (node != NULL && (node)->type == PT2_OBJECT)
    return TRUE;
  return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s must be an object, not %s", what,
                          _graft_pt2_type_name (node));
}

Pt2Value *
_graft_pt2_check_array (Reader     *r,
                        Pt2Value   *node,
                        const char *what)
{
  if (node != NULL && (node)->type == PT2_ARRAY)
    return node;
  _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s must be a list, not %s", what,
                   _graft_pt2_type_name (node));
  return NULL;
}

gboolean
_graft_pt2_holds (Pt2Value *node,
                  Pt2Type   type)
{
  return node != NULL && node->type == type;
}

/* The copies of _graft_pt2_string(): blocks of at least this. */
#define STRING_BLOCK_SIZE (64u * 1024u)

typedef struct
{
  gsize size;
  char  bytes[];
} StringBlock;

/**
 * The string value @node as a C string: its bytes in the tree or the
 * text, or, when they are the bytes of a text read in place (not
 * NUL-terminated there), a copy the reader keeps until
 * _graft_pt2_strings_release() (the next node, graph input or input spec
 * read: what is kept longer is copied by who keeps it, the graph, the
 * program, the caches).  Readers of many strings take their bytes and
 * lengths instead (_graft_pt2_check_string_len(), _graft_pt2_req_string_len())
 * or the graph's copy (_graft_pt2_req_interned()).
 */
const char *
_graft_pt2_string (Reader   *r,
                   Pt2Value *node)
{
  const char *text = graft_source_get_text (r->member);

  gsize need = (gsize) node->len + 1;

  if (!r->in_place || node->v.s < text || node->v.s >= text + graft_source_get_length (r->member))
    return node->v.s;
  if (r->strings == NULL)
    r->strings = g_ptr_array_new_with_free_func (g_free);
  for (;;)
    {
      StringBlock *block;

      if (r->strings_block < r->strings->len)
        {
          block = r->strings->pdata[r->strings_block];
          if (block->size - r->strings_used >= need)
            {
              char *copy = block->bytes + r->strings_used;

              memcpy (copy, node->v.s, node->len);
              copy[node->len] = '\0';
              r->strings_used += need;
              return copy;
            }
          r->strings_block++;
          r->strings_used = 0;
          continue;
        }
      block = g_malloc (sizeof (StringBlock) + MAX (STRING_BLOCK_SIZE, need));
      block->size = MAX (STRING_BLOCK_SIZE, need);
      g_ptr_array_add (r->strings, block);
    }
}

/* Lets the copies _graft_pt2_string() made go: their blocks are used
 * again, not freed (a block freed and asked for again at each node was
 * a thousand instructions of malloc a node). */
void
_graft_pt2_strings_release (Reader *r)
{
  r->strings_block = 0;
  r->strings_used = 0;
}

const char *
_graft_pt2_check_string (Reader     *r,
                         Pt2Value   *node,
                         const char *what)
{
  if (_graft_pt2_holds (node, PT2_STRING))
    return _graft_pt2_string (r, node);
  _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s must be a string, not %s", what,
                   _graft_pt2_type_name (node));
  return NULL;
}

/* _graft_pt2_check_string()'s bytes and length (*@out_len), NUL-terminated
 * or not (a text read in place): no copy. */
const char *
_graft_pt2_check_string_len (Reader     *r,
                             Pt2Value   *node,
                             const char *what,
                             gsize      *out_len)
{
  if (_graft_pt2_holds (node, PT2_STRING))
    {
      *out_len = node->len;
      return node->v.s;
    }
  _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s must be a string, not %s", what,
                   _graft_pt2_type_name (node));
  return NULL;
}

gboolean
_graft_pt2_check_int (Reader     *r,
                      Pt2Value   *node,
                      const char *what,
                      gint64     *out)
{
  if (_graft_pt2_holds (node, PT2_INT))
    {
      *out = node->v.i;
      return TRUE;
    }
  return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s must be an integer, not %s", what,
                          _graft_pt2_type_name (node));
}

gboolean
_graft_pt2_check_bool (Reader     *r,
                       Pt2Value   *node,
                       const char *what,
                       gboolean   *out)
{
  if (_graft_pt2_holds (node, PT2_BOOL))
    {
      *out = node->v.b;
      return TRUE;
    }
  return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s must be a bool, not %s", what,
                          _graft_pt2_type_name (node));
}

/* "'KEY' must be WANTED, not ...": what the checks say of a member, the
 * message made only when it fails. */
static gboolean
quoted_fail (Reader     *r,
             Pt2Value   *member,
             const char *key,
             const char *wanted)
{
  return _graft_pt2_fail (r, member, GRAFT_PARSE_ERROR_SYNTAX, "'%s' must be %s, not %s", key,
                          wanted, _graft_pt2_type_name (member));
}

Pt2Value *
_graft_pt2_req_object (Reader     *r,
                       Pt2Value   *obj,
                       const char *key)
{
  Pt2Value *member = _graft_pt2_req (r, obj, key);

  if (member == NULL)
    return NULL;
  if (member->type == PT2_OBJECT)
    return member;
  return quoted_fail (r, member, key, "an object"), NULL;
}

Pt2Value *
_graft_pt2_req_array (Reader     *r,
                      Pt2Value   *obj,
                      const char *key)
{
  Pt2Value *member = _graft_pt2_req (r, obj, key);

  if (member == NULL)
    return NULL;
  if (member->type == PT2_ARRAY)
    return member;
  return quoted_fail (r, member, key, "a list"), NULL;
}

/* The string member @key of @obj as the graph's copy
 * (_graft_pt2_intern_len()): what the program, the values and the nodes
 * keep of it anyway. */
const char *
_graft_pt2_req_interned (Reader     *r,
                         Pt2Value   *obj,
                         const char *key)
{
  Pt2Value *member = _graft_pt2_req (r, obj, key);

  if (member == NULL)
    return NULL;
  if (member->type == PT2_STRING)
    return _graft_pt2_intern_len (r, member->v.s, member->len);
  return quoted_fail (r, member, key, "a string"), NULL;
}

/* The string member @key of @obj: its bytes and length (*@out_len),
 * NUL-terminated or not (a text read in place): no copy. */
const char *
_graft_pt2_req_string_len (Reader     *r,
                           Pt2Value   *obj,
                           const char *key,
                           gsize      *out_len)
{
  Pt2Value *member = _graft_pt2_req (r, obj, key);

  if (member == NULL)
    return NULL;
  if (member->type == PT2_STRING)
    {
      *out_len = member->len;
      return member->v.s;
    }
  return quoted_fail (r, member, key, "a string"), NULL;
}

gboolean
_graft_pt2_req_int (Reader     *r,
                    Pt2Value   *obj,
                    const char *key,
                    gint64     *out)
{
  Pt2Value *member = _graft_pt2_req (r, obj, key);

  if (member == NULL)
    return FALSE;
  if (member->type == PT2_INT)
    {
      *out = member->v.i;
      return TRUE;
    }
  return quoted_fail (r, member, key, "an integer");
}

/* A union of schema.py (`_Union`): an object with exactly one member, its
 * type, holding the value. */
gboolean
_graft_pt2_read_union (Reader      *r,
                       Pt2Value    *node,
                       const char  *what,
                       const char **out_type,
                       Pt2Value   **out_value)
{
  if (!_graft_pt2_check_object (r, node, what))
    return FALSE;
  if (node->len != 1)
    return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX,
                            "%s must have exactly one key, not %u", what, node->len);
  *out_type = node->v.members[0].key;
  *out_value = &node->v.members[0].value;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* What is wrong with a text the tree was not built from */

static gboolean
text_error (Reader             *r,
            gsize               offset,
            GraftParseErrorCode code,
            const char         *message)
{
  graft_set_error_at_offset (r->error, r->member, offset, offset, code, "%s", message);
  return FALSE;
}

/* Whether the integer token [p, p + len) fits 64 bits. */
static gboolean
int_fits (const char *p,
          gsize       len)
{
  char  buf[32];
  char *end;

  if (len >= sizeof buf)
    return FALSE;
  memcpy (buf, p, len);
  buf[len] = '\0';
  errno = 0;
  (void) g_ascii_strtoll (buf, &end, 10);
  return errno == 0;
}

/* Where check_text is in the grammar. */
typedef enum {
  EXPECT_VALUE,     /* a value: the document, an array item, a member value */
  EXPECT_FIRST_KEY, /* after `{`: a key or `}` */
  EXPECT_KEY,       /* after `,` in an object */
  EXPECT_COLON,
  EXPECT_FIRST_ITEM, /* after `[`: a value or `]` */
  EXPECT_COMMA,      /* after a value in a container: `,` or its close */
  EXPECT_END,        /* after the document's value */
} Expect;

/* Whether a byte of the word @w is zero, or less than @n (below 128):
 * the bit tricks of "Bit Twiddling Hacks" (Sean Eron Anderson). */
#define ONES           (~(guint64) 0 / 255)
#define HAS_ZERO(w)    (((w) -ONES) & ~(w) & (ONES * 0x80))
#define HAS_LESS(w, n) (((w) -ONES * (n)) & ~(w) & (ONES * 0x80))

/* A string at t[i] == '"': its end, or an error at the offending byte. */
static gboolean
scan_string (Reader *r,
             gsize  *pos)
{
  const char *t = graft_source_get_text (r->member);
  gsize       n = graft_source_get_length (r->member);
  gsize       start = *pos;

  for (gsize i = start + 1; i < n; i++)
    {
      guchar c;

      /* Past the first 16 bytes (keys are shorter), eight plain bytes at
       * a time: none a quote, a backslash or a control character (stack
       * traces and module stacks are most of the text). */
      while (i >= start + 16 && i + 8 <= n)
        {
          guint64 w;

          memcpy (&w, t + i, 8);
          if (HAS_LESS (w, 0x20) || HAS_ZERO (w ^ (~(guint64) 0 / 255 * '"')) ||
              HAS_ZERO (w ^ (~(guint64) 0 / 255 * '\\')))
            break;
          i += 8;
        }
      if (i >= n)
        break;
      c = (guchar) t[i];

      if (c == '"')
        {
          *pos = i + 1;
          return TRUE;
        }
      if (c < 0x20)
        return text_error (r, i, GRAFT_PARSE_ERROR_SYNTAX, "invalid control character in a string");
      if (c == '\\')
        {
          if (i + 1 >= n)
            break;
          if (t[i + 1] == 'u')
            {
              for (guint k = 2; k < 6; k++)
                if (i + k >= n || !g_ascii_isxdigit (t[i + k]))
                  return text_error (r, i + 1, GRAFT_PARSE_ERROR_SYNTAX, "invalid \\uXXXX escape");
              i += 5;
            }
          else if (strchr ("\"\\/bfnrt", t[i + 1]) != NULL && t[i + 1] != '\0')
            i++;
          else
            return text_error (r, i, GRAFT_PARSE_ERROR_SYNTAX, "invalid \\escape");
        }
    }
  return text_error (r, start, GRAFT_PARSE_ERROR_SYNTAX, "unterminated string");
}

/* A number as Python's json reads one, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`,
 * at t[*pos]; whether one was there. */
static gboolean
scan_number (const char *t,
             gsize       n,
             gsize      *pos,
             gboolean   *is_float)
{
  gsize i = *pos;

  *is_float = FALSE;
  if (i < n && t[i] == '-')
    i++;
  if (i >= n || !g_ascii_isdigit (t[i]))
    return FALSE;
  if (t[i] == '0')
    i++;
  else
    while (i < n && g_ascii_isdigit (t[i]))
      i++;
  if (i + 1 < n && t[i] == '.' && g_ascii_isdigit (t[i + 1]))
    {
      *is_float = TRUE;
      for (i++; i < n && g_ascii_isdigit (t[i]); i++)
        ;
    }
  if (i < n && (t[i] == 'e' || t[i] == 'E'))
    {
      gsize e = i + 1;

      if (e < n && (t[e] == '+' || t[e] == '-'))
        e++;
      if (e < n && g_ascii_isdigit (t[e]))
        {
          *is_float = TRUE;
          for (i = e; i < n && g_ascii_isdigit (t[i]); i++)
            ;
        }
    }
  *pos = i;
  return TRUE;
}

static gboolean
starts (const char *t,
        gsize       n,
        gsize       i,
        const char *word)
{
  gsize len = strlen (word);

  return n - i >= len && memcmp (t + i, word, len) == 0;
}

/* One value that is not a container, at t[*pos]: a string, a number or a
 * literal (NaN and the infinities too, as Python writes them). */
static gboolean
scan_scalar (Reader *r,
             gsize  *pos)
{
  const char              *t = graft_source_get_text (r->member);
  gsize                    n = graft_source_get_length (r->member);
  gsize                    i = *pos;
  gboolean                 is_float;
  static const char *const literals[] = {
    "true",
    "false",
    "null",
    "NaN",
    "Infinity",
    "-Infinity",
  };

  if (t[i] == '"')
    return scan_string (r, pos);
  for (guint k = 0; k < G_N_ELEMENTS (literals); k++)
    if (starts (t, n, i, literals[k]))
      {
        *pos = i + strlen (literals[k]);
        return TRUE;
      }
  if (scan_number (t, n, pos, &is_float))
    {
      if (!is_float && !int_fits (t + i, *pos - i))
        return text_error (r, i, GRAFT_PARSE_ERROR_LIMIT, "an integer beyond 64 bits");
      return TRUE;
    }
  return text_error (r, i, GRAFT_PARSE_ERROR_SYNTAX, "expecting value");
}

/* The one pass over the text described at the top: a JSON grammar as
 * Python's json reads it (its messages too), with an explicit stack.
 * Sets the error of the first fault and returns %FALSE; %TRUE when there
 * is none. */
static gboolean
check_text (Reader *r)
{
  const char *t = graft_source_get_text (r->member);
  gsize       n = graft_source_get_length (r->member);
  const char *bad;
  char        stack[GRAFT_MAX_JSON_DEPTH];
  guint       depth = 0;
  Expect      expect = EXPECT_VALUE;
  gsize       i = 0;

  if (!g_utf8_validate_len (t, n, &bad))
    return text_error (r, bad - t, GRAFT_PARSE_ERROR_SYNTAX,
                       *bad == '\0' ? "a NUL byte in the JSON text" : "the JSON text is not UTF-8");
  for (;;)
    {
      char c;

      while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        i++;
      if (i >= n)
        break;
      c = t[i];
      switch (expect)
        {
        case EXPECT_END:
          return text_error (r, i, GRAFT_PARSE_ERROR_SYNTAX, "extra data");
        case EXPECT_COLON:
          if (c != ':')
            return text_error (r, i, GRAFT_PARSE_ERROR_SYNTAX, "expecting ':' delimiter");
          i++;
          expect = EXPECT_VALUE;
          continue;
        case EXPECT_COMMA:
          if (c == ',')
            {
              i++;
              expect = stack[depth - 1] == '{' ? EXPECT_KEY : EXPECT_VALUE;
              /* Python 3.13: a comma before the close is an error of its own. */
              while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
                i++;
              if (i < n && (t[i] == '}' || t[i] == ']') &&
                  t[i] == (stack[depth - 1] == '{' ? '}' : ']'))
                {
                  gsize comma = i - 1;

                  while (t[comma] != ',')
                    comma--;
                  return text_error (r, comma, GRAFT_PARSE_ERROR_SYNTAX,
                                     stack[depth - 1] == '{'
                                         ? "illegal trailing comma before end of object"
                                         : "illegal trailing comma before end of array");
                }
              continue;
            }
          if (c == (stack[depth - 1] == '{' ? '}' : ']'))
            {
              i++;
              depth--;
              expect = depth == 0 ? EXPECT_END : EXPECT_COMMA;
              continue;
            }
          return text_error (r, i, GRAFT_PARSE_ERROR_SYNTAX, "expecting ',' delimiter");
        case EXPECT_FIRST_KEY:
        case EXPECT_KEY:
          if (c == '}' && expect == EXPECT_FIRST_KEY)
            {
              i++;
              depth--;
              expect = depth == 0 ? EXPECT_END : EXPECT_COMMA;
              continue;
            }
          if (c != '"')
            return text_error (r, i, GRAFT_PARSE_ERROR_SYNTAX,
                               "expecting property name enclosed in double quotes");
          if (!scan_string (r, &i))
            return FALSE;
          expect = EXPECT_COLON;
          continue;
        case EXPECT_FIRST_ITEM:
          if (c == ']')
            {
              i++;
              depth--;
              expect = depth == 0 ? EXPECT_END : EXPECT_COMMA;
              continue;
            }
          G_GNUC_FALLTHROUGH;
        case EXPECT_VALUE:
        default:
          if (c == '{' || c == '[')
            {
              if (depth == GRAFT_MAX_JSON_DEPTH)
                return text_error (r, i, GRAFT_PARSE_ERROR_LIMIT,
                                   "the JSON text nests more than " G_STRINGIFY (
                                       GRAFT_MAX_JSON_DEPTH) " levels deep");
              stack[depth++] = c;
              i++;
              expect = c == '{' ? EXPECT_FIRST_KEY : EXPECT_FIRST_ITEM;
              continue;
            }
          if (!scan_scalar (r, &i))
            return FALSE;
          expect = depth == 0 ? EXPECT_END : EXPECT_COMMA;
          continue;
        }
    }
  if (expect == EXPECT_END)
    return TRUE;
  if (expect == EXPECT_COLON)
    return text_error (r, n, GRAFT_PARSE_ERROR_SYNTAX, "expecting ':' delimiter");
  if (expect == EXPECT_COMMA)
    return text_error (r, n, GRAFT_PARSE_ERROR_SYNTAX, "expecting ',' delimiter");
  if (expect == EXPECT_FIRST_KEY || expect == EXPECT_KEY)
    return text_error (r, n, GRAFT_PARSE_ERROR_SYNTAX,
                       "expecting property name enclosed in double quotes");
  return text_error (r, n, GRAFT_PARSE_ERROR_SYNTAX, "expecting value");
}

/* The tree of the member, or %NULL with the error set. */
Pt2Value *
_graft_pt2_parse_json (Reader *r)
{
  gsize            stop = 0;
  g_autofree char *why = NULL;

  r->tree = _graft_pt2_tree_new (graft_source_get_text (r->member),
                                 graft_source_get_length (r->member), !r->in_place, &stop, &why);
  if (r->tree != NULL)
    return _graft_pt2_tree_get_root (r->tree);
  if (!check_text (r))
    return NULL;
  /* Never, unless yajl and the check above disagree about a text: then
   * what stopped the tree. */
  text_error (r, stop, GRAFT_PARSE_ERROR_SYNTAX, why);
  return NULL;
}
