/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pt2-json.c: the JSON member of a `.pt2`: the check of its text
 * before json-glib parses it (a JSON grammar as Python's json reads it,
 * with its messages and places, UTF-8, nesting bounded by
 * GRAFT_MAX_JSON_DEPTH, integers within 64 bits, and NaN and the
 * infinities marked as graft-pt2-private.h says), parsing, the place of a
 * parsed value in the text (found by following its path from the root,
 * since json-glib keeps no positions), errors located there, and typed
 * access to values that fails with such an error.
 */
#include "config.h"

#include "graft-pt2-private.h"
#include "graft-limits.h"
#include "graft-source.h"

#include <errno.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Positions: where a JSON value starts in the member text */

static gsize
skip_ws (const char *t,
         gsize       n,
         gsize       i)
{
  while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
    i++;
  return i;
}

/* @i at a `"`: the index after the closing quote. */
static gsize
skip_string (const char *t,
             gsize       n,
             gsize       i)
{
  for (i++; i < n; i++)
    {
      if (t[i] == '\\')
        i++;
      else if (t[i] == '"')
        return i + 1;
    }
  return n;
}

/* @i at a value: the index after it. */
static gsize
skip_value (const char *t,
            gsize       n,
            gsize       i)
{
  gsize depth = 0;

  if (i >= n)
    return n;
  if (t[i] == '"')
    return skip_string (t, n, i);
  if (t[i] != '{' && t[i] != '[')
    {
      while (i < n && t[i] != ',' && t[i] != ']' && t[i] != '}' && t[i] != ' ' && t[i] != '\n' &&
             t[i] != '\t' && t[i] != '\r')
        i++;
      return i;
    }
  while (i < n)
    {
      if (t[i] == '"')
        {
          i = skip_string (t, n, i);
          continue;
        }
      if (t[i] == '{' || t[i] == '[')
        depth++;
      else if (t[i] == '}' || t[i] == ']')
        {
          if (--depth == 0)
            return i + 1;
        }
      i++;
    }
  return n;
}

static void
append_utf8 (GString *out,
             gunichar c)
{
  if (!g_unichar_validate (c))
    c = 0xFFFD;
  g_string_append_unichar (out, c);
}

/* The text of the JSON string at @i, escapes decoded, into @out. */
static void
decode_string (const char *t,
               gsize       n,
               gsize       i,
               GString    *out)
{
  g_string_truncate (out, 0);
  for (i++; i < n && t[i] != '"'; i++)
    {
      if (t[i] != '\\' || i + 1 >= n)
        {
          g_string_append_c (out, t[i]);
          continue;
        }
      i++;
      switch (t[i])
        {
        case 'b':
          g_string_append_c (out, '\b');
          break;
        case 'f':
          g_string_append_c (out, '\f');
          break;
        case 'n':
          g_string_append_c (out, '\n');
          break;
        case 'r':
          g_string_append_c (out, '\r');
          break;
        case 't':
          g_string_append_c (out, '\t');
          break;
        case 'u':
          if (i + 4 < n)
            {
              char     hex[5] = { t[i + 1], t[i + 2], t[i + 3], t[i + 4], 0 };
              gunichar c = (gunichar) g_ascii_strtoull (hex, NULL, 16);

              i += 4;
              if (c >= 0xD800 && c < 0xDC00 && i + 6 < n && t[i + 1] == '\\' && t[i + 2] == 'u')
                {
                  char     lo_hex[5] = { t[i + 3], t[i + 4], t[i + 5], t[i + 6], 0 };
                  gunichar lo = (gunichar) g_ascii_strtoull (lo_hex, NULL, 16);

                  if (lo >= 0xDC00 && lo < 0xE000)
                    {
                      c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
                      i += 6;
                    }
                }
              append_utf8 (out, c);
            }
          break;
        default:
          g_string_append_c (out, t[i]);
          break;
        }
    }
}

/* One step of a path: a member name, or an index when @name is NULL. */
typedef struct
{
  const char *name;
  guint       index;
} Step;

/* @i at an object or array: where the step's value starts (the last
 * member of that name, as json-glib and Python keep the last), or @i. */
static gsize
follow_step (const char *t,
             gsize       n,
             gsize       i,
             const Step *step,
             GString    *key)
{
  gsize found = i;
  guint k = 0;

  if (i >= n || (t[i] != '{' && t[i] != '['))
    return i;
  for (i++;;)
    {
      i = skip_ws (t, n, i);
      if (i >= n || t[i] == '}' || t[i] == ']')
        return found;
      if (step->name != NULL)
        {
          gboolean match;

          if (t[i] != '"')
            return found;
          decode_string (t, n, i, key);
          match = strcmp (key->str, step->name) == 0;
          i = skip_ws (t, n, skip_string (t, n, i));
          if (i >= n || t[i] != ':')
            return found;
          i = skip_ws (t, n, i + 1);
          if (match)
            found = i;
        }
      else if (k++ == step->index)
        return i;
      i = skip_ws (t, n, skip_value (t, n, i));
      if (i >= n || t[i] != ',')
        return found;
      i++;
    }
}

/* The step from @parent to its child @child. */
static void
step_to (JsonNode *parent,
         JsonNode *child,
         Step     *out)
{
  out->name = NULL;
  out->index = 0;
  if (JSON_NODE_HOLDS_OBJECT (parent))
    {
      JsonObjectIter iter;
      const char    *name;
      JsonNode      *member;

      json_object_iter_init (&iter, json_node_get_object (parent));
      while (json_object_iter_next (&iter, &name, &member))
        if (member == child)
          {
            out->name = name;
            return;
          }
    }
  else if (JSON_NODE_HOLDS_ARRAY (parent))
    {
      JsonArray *array = json_node_get_array (parent);
      guint      len = json_array_get_length (array);

      for (guint k = 0; k < len; k++)
        if (json_array_get_element (array, k) == child)
          {
            out->index = k;
            return;
          }
    }
}

/* Where @node starts in the member text. */
gsize
_graft_pt2_node_offset (Reader   *r,
                        JsonNode *node)
{
  const char *t = graft_source_get_text (r->member);
  gsize       n = graft_source_get_length (r->member);
  g_autoptr (GPtrArray) chain = g_ptr_array_new ();
  g_autoptr (GString) key = g_string_new (NULL);
  gsize i = skip_ws (t, n, 0);

  for (JsonNode *p = node; p != NULL; p = json_node_get_parent (p))
    g_ptr_array_add (chain, p);
  for (guint k = chain->len - 1; k > 0; k--)
    {
      Step step;

      step_to (chain->pdata[k], chain->pdata[k - 1], &step);
      i = follow_step (t, n, i, &step, key);
    }
  return i;
}

/* ------------------------------------------------------------------ */
/* Errors and typed access to the JSON */

/* Sets the error at the start of @at (the member's start when %NULL);
 * returns %FALSE. */
gboolean
_graft_pt2_fail (Reader             *r,
                 JsonNode           *at,
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
_graft_pt2_type_name (JsonNode *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return "null";
  if (JSON_NODE_HOLDS_OBJECT (node))
    return "an object";
  if (JSON_NODE_HOLDS_ARRAY (node))
    return "a list";
  switch (json_node_get_value_type (node) == G_TYPE_STRING    ? 0
          : json_node_get_value_type (node) == G_TYPE_BOOLEAN ? 1
                                                              : 2)
    {
    case 0:
      return "a string";
    case 1:
      return "a bool";
    default:
      return "a number";
    }
}

/* The member @key of the object @obj, or %NULL. */
JsonNode *
_graft_pt2_opt (JsonNode   *obj,
                const char *key)
{
  return json_object_get_member (json_node_get_object (obj), key);
}

JsonNode *
_graft_pt2_req (Reader     *r,
                JsonNode   *obj,
                const char *key)
{
  JsonNode *member = _graft_pt2_opt (obj, key);

  if (member == NULL)
    _graft_pt2_fail (r, obj, GRAFT_PARSE_ERROR_SYNTAX, "missing key '%s'", key);
  return member;
}

gboolean
_graft_pt2_check_object (Reader     *r,
                         JsonNode   *node,
                         const char *what)
{
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    return TRUE;
  return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s must be an object, not %s", what,
                          _graft_pt2_type_name (node));
}

JsonArray *
_graft_pt2_check_array (Reader     *r,
                        JsonNode   *node,
                        const char *what)
{
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    return json_node_get_array (node);
  _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s must be a list, not %s", what,
                   _graft_pt2_type_name (node));
  return NULL;
}

gboolean
_graft_pt2_holds (JsonNode *node,
                  GType     type)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

const char *
_graft_pt2_check_string (Reader     *r,
                         JsonNode   *node,
                         const char *what)
{
  if (_graft_pt2_holds (node, G_TYPE_STRING))
    return json_node_get_string (node);
  _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s must be a string, not %s", what,
                   _graft_pt2_type_name (node));
  return NULL;
}

gboolean
_graft_pt2_check_int (Reader     *r,
                      JsonNode   *node,
                      const char *what,
                      gint64     *out)
{
  if (_graft_pt2_holds (node, G_TYPE_INT64))
    {
      *out = json_node_get_int (node);
      return TRUE;
    }
  return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s must be an integer, not %s", what,
                          _graft_pt2_type_name (node));
}

gboolean
_graft_pt2_check_bool (Reader     *r,
                       JsonNode   *node,
                       const char *what,
                       gboolean   *out)
{
  if (_graft_pt2_holds (node, G_TYPE_BOOLEAN))
    {
      *out = json_node_get_boolean (node);
      return TRUE;
    }
  return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s must be a bool, not %s", what,
                          _graft_pt2_type_name (node));
}

JsonNode *
_graft_pt2_req_object (Reader     *r,
                       JsonNode   *obj,
                       const char *key)
{
  JsonNode        *member = _graft_pt2_req (r, obj, key);
  g_autofree char *what = NULL;

  if (member == NULL)
    return NULL;
  what = g_strdup_printf ("'%s'", key);
  return _graft_pt2_check_object (r, member, what) ? member : NULL;
}

JsonArray *
_graft_pt2_req_array (Reader     *r,
                      JsonNode   *obj,
                      const char *key)
{
  JsonNode        *member = _graft_pt2_req (r, obj, key);
  g_autofree char *what = NULL;

  if (member == NULL)
    return NULL;
  what = g_strdup_printf ("'%s'", key);
  return _graft_pt2_check_array (r, member, what);
}

const char *
_graft_pt2_req_string (Reader     *r,
                       JsonNode   *obj,
                       const char *key)
{
  JsonNode        *member = _graft_pt2_req (r, obj, key);
  g_autofree char *what = NULL;

  if (member == NULL)
    return NULL;
  what = g_strdup_printf ("'%s'", key);
  return _graft_pt2_check_string (r, member, what);
}

gboolean
_graft_pt2_req_int (Reader     *r,
                    JsonNode   *obj,
                    const char *key,
                    gint64     *out)
{
  JsonNode        *member = _graft_pt2_req (r, obj, key);
  g_autofree char *what = NULL;

  if (member == NULL)
    return FALSE;
  what = g_strdup_printf ("'%s'", key);
  return _graft_pt2_check_int (r, member, what, out);
}

/* A union of schema.py (`_Union`): an object with exactly one member, its
 * type, holding the value. */
gboolean
_graft_pt2_read_union (Reader      *r,
                       JsonNode    *node,
                       const char  *what,
                       const char **out_type,
                       JsonNode   **out_value)
{
  JsonObjectIter iter;

  if (!_graft_pt2_check_object (r, node, what))
    return FALSE;
  if (json_object_get_size (json_node_get_object (node)) != 1)
    return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX,
                            "%s must have exactly one key, not %u", what,
                            json_object_get_size (json_node_get_object (node)));
  json_object_iter_init (&iter, json_node_get_object (node));
  json_object_iter_next (&iter, out_type, out_value);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The text check before json-glib, and parsing */

static gboolean
text_error (Reader             *r,
            gsize               offset,
            GraftParseErrorCode code,
            const char         *message)
{
  graft_set_error_at_offset (r->error, r->member, offset, offset, code, "%s", message);
  return FALSE;
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
      guchar c = (guchar) t[i];

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
 * literal (NaN and the infinities are marked, as the top says). */
static gboolean
scan_scalar (Reader *r,
             gsize  *pos)
{
  char    *t = (char *) graft_source_get_text (r->member);
  gsize    n = graft_source_get_length (r->member);
  gsize    i = *pos;
  gboolean is_float;
  static const struct
  {
    const char *word;
    char        mark;
  } literals[] = {
    { "true", 0 },
    { "false", 0 },
    { "null", 0 },
    { "NaN", NAN_MARK },
    { "Infinity", INF_MARK },
    { "-Infinity", NEG_INF_MARK },
  };

  if (t[i] == '"')
    return scan_string (r, pos);
  for (guint k = 0; k < G_N_ELEMENTS (literals); k++)
    if (starts (t, n, i, literals[k].word))
      {
        gsize len = strlen (literals[k].word);

        if (literals[k].mark != 0)
          mark_token (t + i, len, literals[k].mark);
        *pos = i + len;
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
 * Python's json reads it (its messages too), with an explicit stack. */
gboolean
_graft_pt2_check_text (Reader *r)
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

/* json-glib's message, `<data>:LINE:COL: Parse error: TEXT`, as an error
 * at that place. */
static gboolean
syntax_error (Reader       *r,
              const GError *json_error)
{
  const char *m = json_error->message;
  const char *p = strstr (m, "<data>:");
  guint64     line = 1, col = 1;
  char       *end;

  if (p != NULL)
    {
      p += 7;
      line = g_ascii_strtoull (p, &end, 10);
      if (*end == ':')
        {
          col = g_ascii_strtoull (end + 1, &end, 10);
          if (*end == ':')
            m = end + 1;
        }
      while (*m == ' ')
        m++;
    }
  if (g_str_has_prefix (m, "Parse error: "))
    m += 13;
  if (g_str_has_prefix (m, "scanner: "))
    m += 9;
  {
    g_autofree char *text = g_strdup (m);

    if (text[0] != '\0' && g_ascii_isupper (text[0]) && !g_ascii_isupper (text[1]))
      text[0] = g_ascii_tolower (text[0]);
    graft_set_error_at (r->error, graft_source_get_filename (r->member),
                        (guint) CLAMP (line, 1, G_MAXUINT), (guint) CLAMP (col, 1, G_MAXUINT),
                        GRAFT_PARSE_ERROR_SYNTAX, "%s", text);
  }
  return FALSE;
}

JsonNode *
_graft_pt2_parse_json (Reader *r)
{
  g_autoptr (GError) json_error = NULL;
  JsonNode *root;

  r->parser = json_parser_new ();
  if (!json_parser_load_from_data (r->parser, graft_source_get_text (r->member),
                                   (gssize) graft_source_get_length (r->member), &json_error))
    {
      syntax_error (r, json_error);
      return NULL;
    }
  root = json_parser_get_root (r->parser);
  if (root == NULL)
    _graft_pt2_fail (r, NULL, GRAFT_PARSE_ERROR_SYNTAX, "the JSON text is empty");
  return root;
}
