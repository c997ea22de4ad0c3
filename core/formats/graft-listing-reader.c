/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-listing-reader.c: reads the graph listing that torch.fx's
 * `Graph.__str__` writes (`print(gm.graph)`, see graft-listing.c for the
 * writer) back into a graph.  A listing that torch 1.13.1 printed reads back
 * into a graph whose listing is the same text and whose code is what torch
 * generated; `[num_users=N]` (torch 2.x) is accepted too and printed back as
 * `[#users=N]`.
 *
 * The listing was made for people, not for reading back, and some values
 * lose their type in it.  The reader decides as follows:
 *
 *  - Node arguments are printed with torch.fx's `_format_arg`: nodes as
 *    `%name`, and every value that is not a container as `str(value)`, so a
 *    string is unquoted.  A bare word is read as None, True, False,
 *    Ellipsis, an int, a float (`1e-05`, `inf`, `-inf`, `nan`), an
 *    imaginary number (`1j`), a `torch.`-dotted symbol (`torch.float32`) or
 *    `slice(...)` when it reads as one, and as a str otherwise.  So the str
 *    `'1'` comes back as the int 1, `'None'` as None, and a `torch.device`
 *    (printed `cpu`, `cuda:0`) comes back as the str `'cpu'` (its code is
 *    then `'cpu'`, not `device(type='cpu')`).  A str holding `, ` or an
 *    unbalanced bracket, or starting with `%`, `(`, `[` or `{`, cannot be
 *    told from the syntax around it; one holding a line break ends its line.
 *    Dict keys in arguments are always read as str.
 *  - The `return` line and placeholder defaults use Python's `str`, which is
 *    the repr of a container: there strings are quoted and nodes are bare
 *    names.  A bare name at the top of a `return` line is a node (a returned
 *    str or device cannot be read back); a bare word as a whole default is
 *    read as in arguments, so `(default=a)` is the str `'a'`.
 *  - What the listing does not show is lost: the output's type annotation
 *    (code's `-> T`), typing annotations in their code spelling, and which
 *    call_function nodes come from wrapped functions.  For the last one the
 *    reader marks every call_function whose target is not from torch,
 *    `operator` or `builtins` as wrapped, since in a traced graph such a
 *    call can only come from `torch.fx.wrap` or the auto-wrapped `math`.
 *
 * Node names are kept as written, except that a name the reader itself
 * reads as a constant (a keyword, `inf`, `nan`, `Ellipsis`) is refused.
 * Arguments may refer to nodes defined later in the file (a rewrite can
 * produce such graphs); every name must be defined somewhere, once.  The
 * declared user counts must agree with the uses.  Errors point at the
 * offending token.  The text is read in one pass over its lines, then the
 * nodes are made and their arguments linked, all in linear time; nesting is
 * bounded by GRAFT_MAX_PARSE_DEPTH.
 */
#include "config.h"

#include "graft-listing.h"
#include "graft-arg.h"
#include "graft-error.h"
#include "graft-graph.h"
#include "graft-limits.h"
#include "graft-namespace.h"
#include "graft-source.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* One line that defines a node (or the `return` line), read but not yet
 * turned into a node: node references in its arguments are still names. */
typedef struct
{
  /* Owned */
  char    *target;
  char    *type;   /* nullable */
  GraftArg args;   /* a tuple; references are unresolved (see Ref) */
  GraftArg kwargs; /* a dict */

  guint32 line_start;
  guint32 line_end;
  guint32 name_start; /* the name, without `%`, in the text */
  guint32 name_len;
  guint32 users_start; /* the declared user count's digits */
  guint32 users_end;
  guint   users;
  GraftOp op;
} Record;

/* A node reference met in an argument.  Until the nodes exist, the
 * argument is a GRAFT_ARG_NODE with a NULL node whose `n` is the index of
 * its Ref. */
typedef struct
{
  guint32 start; /* the reference as written (`%x` or `x`) */
  guint32 end;
  guint32 name_start; /* the name within it */
  guint   record;     /* the defining record, once resolved */
} Ref;

typedef enum
{
  STYLE_LISTING, /* `_format_arg`: `%node`, bare strings and dict keys */
  STYLE_REPR,    /* Python's repr: bare node names, quoted strings */
} Style;

typedef struct
{
  /* Borrowed */
  GraftSource *source;
  const char  *text;

  /* Owned */
  GArray     *records; /* Record */
  GArray     *refs;    /* Ref */
  GArray     *stack;   /* GraftArg: items of the containers being read */
  GHashTable *names;   /* name (owned) -> record index + 1 */

  gsize length;
  gsize pos;   /* the cursor, within the current line */
  gsize end;   /* the end of the current line (before its break) */
  guint depth; /* containers open at the cursor */
} Reader;

static gboolean parse_value (Reader   *r,
                             Style     style,
                             GraftArg *out,
                             GError  **error);

static gboolean
is_ident_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

static gboolean
is_ident_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

static gboolean
looking_at (Reader     *r,
            const char *s)
{
  gsize n = strlen (s);

  return r->end - r->pos >= n && memcmp (r->text + r->pos, s, n) == 0;
}

/* Where @needle first occurs in [from, r->end), or -1. */
static gssize
find_in_line (Reader     *r,
              gsize       from,
              const char *needle)
{
  gsize n = strlen (needle);

  for (gsize i = from; i + n <= r->end; i++)
    if (r->text[i] == needle[0] && memcmp (r->text + i, needle, n) == 0)
      return (gssize) i;
  return -1;
}

static gboolean
fail (Reader             *r,
      gsize               start,
      gsize               end,
      GraftParseErrorCode code,
      GError            **error,
      const char         *message)
{
  graft_set_error_at_offset (error, r->source, start, end, code, "%s", message);
  return FALSE;
}

static gboolean
expect (Reader     *r,
        const char *s,
        GError    **error)
{
  if (looking_at (r, s))
    {
      r->pos += strlen (s);
      return TRUE;
    }
  graft_set_error_at_offset (error, r->source, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, "%sexpected '%s'", r->pos >= r->end ? "unexpected end of line; " : "", s);
  return FALSE;
}

/* Python's repr of a finite float mantissa, as torch prints it: `0`, or
 * digits without a leading zero, then an optional `.digits`, then an
 * optional exponent `e+NN` / `e-NN`.  Sets *out_is_float when a fraction or
 * exponent is present. */
static gboolean
scan_decimal (const char *s,
              gsize       len,
              gsize      *io_i,
              gboolean   *out_is_float)
{
  gsize i = *io_i, start = i;

  *out_is_float = FALSE;
  while (i < len && g_ascii_isdigit (s[i]))
    i++;
  if (i == start || (s[start] == '0' && i - start > 1))
    return FALSE;
  if (i < len && s[i] == '.')
    {
      gsize frac = ++i;

      while (i < len && g_ascii_isdigit (s[i]))
        i++;
      if (i == frac)
        return FALSE;
      *out_is_float = TRUE;
    }
  if (i < len && (s[i] == 'e' || s[i] == 'E'))
    {
      gsize digits;

      i++;
      if (i < len && (s[i] == '+' || s[i] == '-'))
        i++;
      digits = i;
      while (i < len && g_ascii_isdigit (s[i]))
        i++;
      if (i == digits)
        return FALSE;
      *out_is_float = TRUE;
    }
  *io_i = i;
  return TRUE;
}

/* Reads a real number that fills [s, s + len): `-`?, then `inf`, `nan` or a
 * decimal.  @allow_int accepts an integral decimal as a float (complex
 * parts print `1`, not `1.0`). */
static gboolean
read_real (const char *s,
           gsize       len,
           gboolean    allow_int,
           double     *out_value)
{
  gsize    i = 0;
  gboolean neg = FALSE, is_float;
  char     buf[128];

  if (len > 0 && (s[0] == '-' || s[0] == '+'))
    {
      neg = s[0] == '-';
      i++;
    }
  if (len - i == 3 && memcmp (s + i, "inf", 3) == 0)
    {
      *out_value = neg ? -INFINITY : INFINITY;
      return TRUE;
    }
  if (len - i == 3 && memcmp (s + i, "nan", 3) == 0)
    {
      *out_value = NAN;
      return TRUE;
    }
  if (!scan_decimal (s, len, &i, &is_float) || i != len || (!is_float && !allow_int))
    return FALSE;
  if (len >= sizeof buf)
    return FALSE;
  memcpy (buf, s, len);
  buf[len] = '\0';
  *out_value = g_ascii_strtod (buf, NULL);
  return TRUE;
}

typedef enum
{
  NUMBER_NONE,
  NUMBER_OK,
} NumberResult;

/* Reads an int, a float or an imaginary number that fills [s, s + len), in
 * the forms Python's repr prints them. */
static NumberResult
read_number (const char *s,
             gsize       len,
             GraftArg   *out)
{
  double value;

  if (len == 0)
    return NUMBER_NONE;
  if (s[len - 1] == 'j')
    {
      if (s[0] == '+' || !read_real (s, len - 1, TRUE, &value))
        return NUMBER_NONE;
      graft_arg_init_complex (out, 0.0, value);
      return NUMBER_OK;
    }
  if (s[0] == '+')
    return NUMBER_NONE;
  if (read_real (s, len, FALSE, &value))
    {
      graft_arg_init_float (out, value);
      return NUMBER_OK;
    }
  {
    gsize    i = s[0] == '-' ? 1 : 0;
    gboolean is_float;
    char     buf[32];
    gint64   v;

    if (!scan_decimal (s, len, &i, &is_float) || i != len || is_float)
      return NUMBER_NONE;
    if (s[0] == '-' && len == 2 && s[1] == '0')
      return NUMBER_NONE; /* Python prints 0, never -0 */
    if (len < sizeof buf)
      {
        memcpy (buf, s, len);
        buf[len] = '\0';
        errno = 0;
        v = g_ascii_strtoll (buf, NULL, 10);
        if (errno != ERANGE)
          {
            graft_arg_init_int (out, v);
            return NUMBER_OK;
          }
      }
    /* An int beyond 64 bits is a symbol of its digits, as the tracer
     * keeps it. */
    {
      g_autofree char *digits = g_strndup (s, len);

      graft_arg_init_symbol (out, digits);
    }
    return NUMBER_OK;
  }
}

/* `torch.float32`, `torch.contiguous_format`: dotted identifiers under
 * `torch.`, printed by name. */
static gboolean
is_torch_symbol (const char *s,
                 gsize       len)
{
  gboolean part_start = TRUE;

  if (len <= 6 || memcmp (s, "torch.", 6) != 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      if (s[i] == '.')
        {
          if (part_start)
            return FALSE;
          part_start = TRUE;
          continue;
        }
      if (part_start ? !is_ident_start (s[i]) : !is_ident_char (s[i]))
        return FALSE;
      part_start = FALSE;
    }
  return !part_start;
}

static gboolean
span_is (const char *s,
         gsize       len,
         const char *word)
{
  return strlen (word) == len && memcmp (s, word, len) == 0;
}

/* None, True, False, Ellipsis; in repr also the globals inf and nan. */
static gboolean
read_constant (const char *s,
               gsize       len,
               GraftArg   *out)
{
  if (span_is (s, len, "None"))
    graft_arg_init_none (out);
  else if (span_is (s, len, "True"))
    graft_arg_init_bool (out, TRUE);
  else if (span_is (s, len, "False"))
    graft_arg_init_bool (out, FALSE);
  else if (span_is (s, len, "Ellipsis"))
    graft_arg_init_ellipsis (out);
  else
    return FALSE;
  return TRUE;
}

/* Classifies a bare word of a listing (`str(value)` of a non-container). */
static gboolean
read_word (Reader   *r,
           gsize     start,
           gsize     end,
           GraftArg *out,
           GError  **error)
{
  const char *s = r->text + start;
  gsize       len = end - start;
  char       *copy;

  if (read_constant (s, len, out))
    return TRUE;
  switch (read_number (s, len, out))
    {
    case NUMBER_OK:
      return TRUE;
    case NUMBER_NONE:
    default:
      break;
    }
  if (is_torch_symbol (s, len))
    {
      copy = g_strndup (s, len);
      graft_arg_init_symbol (out, copy);
      g_free (copy);
      return TRUE;
    }
  graft_arg_init_str (out, s, len);
  return TRUE;
}

static gboolean
enter (Reader  *r,
       GError **error)
{
  if (r->depth >= GRAFT_MAX_PARSE_DEPTH)
    {
      graft_set_error_at_offset (error, r->source, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_LIMIT, "values nest deeper than %u levels", GRAFT_MAX_PARSE_DEPTH);
      return FALSE;
    }
  r->depth++;
  return TRUE;
}

/* Moves the items pushed since @base into a new container. */
static void
pop_items (Reader      *r,
           guint        base,
           GraftArgKind kind,
           GraftArg    *out)
{
  guint n = r->stack->len - base;

  if (kind == GRAFT_ARG_DICT)
    graft_arg_init_dict (out, n / 2);
  else
    graft_arg_init_seq (out, kind, n);
  if (n > 0)
    memcpy (out->items, &g_array_index (r->stack, GraftArg, base), n * sizeof (GraftArg));
  g_array_set_size (r->stack, base);
}

static void
drop_items (Reader *r,
            guint   base)
{
  for (guint i = base; i < r->stack->len; i++)
    graft_arg_clear (&g_array_index (r->stack, GraftArg, i));
  g_array_set_size (r->stack, base);
}

static gboolean
push_value (Reader  *r,
            Style    style,
            GError **error)
{
  GraftArg item;

  if (!parse_value (r, style, &item, error))
    return FALSE;
  g_array_append_val (r->stack, item);
  return TRUE;
}

/* Where a bare word that starts at the cursor ends: at `, ` or a closing
 * bracket outside the brackets it opens itself, or, for a dict key, at
 * `: `.  Strings are unquoted in listings, so this is a guess that holds
 * for every string without `, ` or unbalanced brackets. */
static gsize
scan_word (Reader  *r,
           gboolean is_key)
{
  guint depth = 0;
  gsize i = r->pos;

  for (; i < r->end; i++)
    {
      char c = r->text[i];

      if (depth == 0 && (c == ')' || c == ']' || c == '}'))
        break;
      /* Items are joined with `, `: a comma followed by anything else
       * (`ij,jk->ik`) belongs to the string, unless it ends a tuple. */
      if (depth == 0 && c == ',' &&
          (i + 1 >= r->end || r->text[i + 1] == ' ' || r->text[i + 1] == ')'))
        break;
      if (depth == 0 && is_key && c == ':' && i + 1 < r->end && r->text[i + 1] == ' ')
        break;
      if (c == '(' || c == '[' || c == '{')
        depth++;
      else if (c == ')' || c == ']' || c == '}')
        depth--;
    }
  return i;
}

static void
skip_spaces (Reader *r)
{
  while (r->pos < r->end && r->text[r->pos] == ' ')
    r->pos++;
}

/* After an item: `,` then one optional space (listing style keeps further
 * spaces, they belong to an unquoted string), or @close.  Returns FALSE
 * with an error, else sets *out_done when the container is closed. */
static gboolean
after_item (Reader   *r,
            Style     style,
            char      close,
            gboolean *out_done,
            gboolean *out_trailing_comma,
            GError  **error)
{
  *out_done = FALSE;
  *out_trailing_comma = FALSE;
  if (style == STYLE_REPR)
    skip_spaces (r);
  if (r->pos < r->end && r->text[r->pos] == close)
    {
      r->pos++;
      *out_done = TRUE;
      return TRUE;
    }
  if (r->pos >= r->end || r->text[r->pos] != ',')
    {
      graft_set_error_at_offset (error, r->source, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, "%sexpected ',' or '%c'", r->pos >= r->end ? "unexpected end of line; " : "", close);
      return FALSE;
    }
  r->pos++;
  if (r->pos < r->end && r->text[r->pos] == close)
    {
      /* `(a,)`; `(a, )` is a second item, the empty string. */
      r->pos++;
      *out_done = TRUE;
      *out_trailing_comma = TRUE;
      return TRUE;
    }
  if (style == STYLE_REPR)
    skip_spaces (r);
  else if (r->pos < r->end && r->text[r->pos] == ' ')
    r->pos++;
  return TRUE;
}

/* A tuple or a list, the cursor on its opening bracket. */
static gboolean
parse_sequence (Reader   *r,
                Style     style,
                GraftArg *out,
                GError  **error)
{
  char     open = r->text[r->pos];
  char     close = open == '(' ? ')' : ']';
  guint    base = r->stack->len;
  gsize    open_pos = r->pos;
  gboolean done = FALSE, trailing = FALSE;

  if (!enter (r, error))
    return FALSE;
  r->pos++;
  if (style == STYLE_REPR)
    skip_spaces (r);
  if (r->pos < r->end && r->text[r->pos] == close)
    {
      r->pos++;
      done = TRUE;
    }
  while (!done)
    {
      if (!push_value (r, style, error) ||
          !after_item (r, style, close, &done, &trailing, error))
        {
          drop_items (r, base);
          return FALSE;
        }
    }
  if (open == '(' && r->stack->len - base == 1 && !trailing)
    {
      drop_items (r, base);
      return fail (r, open_pos, r->pos, GRAFT_PARSE_ERROR_SYNTAX, error, "a one-element tuple needs a trailing comma");
    }
  pop_items (r, base, open == '(' ? GRAFT_ARG_TUPLE : GRAFT_ARG_LIST, out);
  r->depth--;
  return TRUE;
}

/* A dict, the cursor on `{`.  Listing keys are bare strings. */
static gboolean
parse_dict (Reader   *r,
            Style     style,
            GraftArg *out,
            GError  **error)
{
  guint    base = r->stack->len;
  gboolean done = FALSE, trailing = FALSE;

  if (!enter (r, error))
    return FALSE;
  r->pos++;
  if (style == STYLE_REPR)
    skip_spaces (r);
  if (r->pos < r->end && r->text[r->pos] == '}')
    {
      r->pos++;
      done = TRUE;
    }
  while (!done)
    {
      gboolean ok;

      if (style == STYLE_LISTING)
        {
          gsize    key_end = scan_word (r, TRUE);
          GraftArg key;

          graft_arg_init_str (&key, r->text + r->pos, key_end - r->pos);
          g_array_append_val (r->stack, key);
          r->pos = key_end;
          ok = TRUE;
        }
      else
        ok = push_value (r, style, error);
      if (ok && style == STYLE_REPR)
        {
          skip_spaces (r);
          ok = expect (r, ":", error);
          skip_spaces (r);
        }
      else
        ok = ok && expect (r, ": ", error);
      ok = ok && push_value (r, style, error) &&
           after_item (r, style, '}', &done, &trailing, error);
      if (!ok)
        {
          drop_items (r, base);
          return FALSE;
        }
    }
  pop_items (r, base, GRAFT_ARG_DICT, out);
  r->depth--;
  return TRUE;
}

/* `slice(start, stop, step)`, the cursor on `slice(`; the parts are reprs. */
static gboolean
parse_slice (Reader   *r,
             GraftArg *out,
             GError  **error)
{
  if (!enter (r, error))
    return FALSE;
  r->pos += strlen ("slice(");
  graft_arg_init_slice (out);
  for (guint i = 0; i < 3; i++)
    {
      skip_spaces (r);
      if (!parse_value (r, STYLE_REPR, &out->items[i], error))
        {
          graft_arg_clear (out);
          return FALSE;
        }
      skip_spaces (r);
      if (!expect (r, i < 2 ? "," : ")", error))
        {
          graft_arg_clear (out);
          return FALSE;
        }
    }
  r->depth--;
  return TRUE;
}

/* A quoted string as repr writes it, the cursor on the quote. */
static gboolean
parse_string (Reader   *r,
              GraftArg *out,
              GError  **error)
{
  char  quote = r->text[r->pos];
  gsize start = r->pos;
  g_autoptr (GString) buf = g_string_new (NULL);

  r->pos++;
  while (r->pos < r->end && r->text[r->pos] != quote)
    {
      char     c = r->text[r->pos];
      gsize    esc = r->pos;
      guint    digits = 0;
      gunichar value = 0;

      if (c != '\\')
        {
          g_string_append_c (buf, c);
          r->pos++;
          continue;
        }
      if (r->pos + 1 >= r->end)
        break;
      c = r->text[r->pos + 1];
      r->pos += 2;
      switch (c)
        {
        case '\\':
        case '\'':
        case '"':
          g_string_append_c (buf, c);
          continue;
        case 't':
          g_string_append_c (buf, '\t');
          continue;
        case 'n':
          g_string_append_c (buf, '\n');
          continue;
        case 'r':
          g_string_append_c (buf, '\r');
          continue;
        case 'x':
          digits = 2;
          break;
        case 'u':
          digits = 4;
          break;
        case 'U':
          digits = 8;
          break;
        default:
          return fail (r, esc, r->pos, GRAFT_PARSE_ERROR_SYNTAX, error, "unknown escape sequence in a string");
        }
      for (guint i = 0; i < digits; i++, r->pos++)
        {
          int d = r->pos < r->end ? g_ascii_xdigit_value (r->text[r->pos]) : -1;

          if (d < 0)
            return fail (r, esc, r->pos, GRAFT_PARSE_ERROR_SYNTAX, error, "malformed escape sequence in a string");
          value = value * 16 + (gunichar) d;
        }
      if (value > 0x10ffff)
        return fail (r, esc, r->pos, GRAFT_PARSE_ERROR_SYNTAX, error, "escape sequence beyond U+10FFFF");
      {
        char utf8[8];
        gint n = g_unichar_to_utf8 (value, utf8);

        g_string_append_len (buf, utf8, n);
      }
    }
  if (r->pos >= r->end)
    return fail (r, start, start + 1, GRAFT_PARSE_ERROR_SYNTAX, error, "unterminated string");
  r->pos++;
  graft_arg_init_str (out, buf->str, buf->len);
  return TRUE;
}

/* `device(type='cuda', index=0)`, the cursor on `device(`. */
static gboolean
parse_device (Reader   *r,
              GraftArg *out,
              GError  **error)
{
  GraftArg type = { 0 };
  g_autoptr (GString) form = NULL;
  gsize start = r->pos;

  r->pos += strlen ("device(");
  if (!expect (r, "type=", error))
    return FALSE;
  if (r->pos >= r->end || (r->text[r->pos] != '\'' && r->text[r->pos] != '"'))
    return fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error, "expected the device type as a string");
  if (!parse_string (r, &type, error))
    return FALSE;
  form = g_string_new_len (type.s, type.n);
  graft_arg_clear (&type);
  if (looking_at (r, ", index="))
    {
      gsize digits;

      r->pos += strlen (", index=");
      digits = r->pos;
      while (r->pos < r->end && g_ascii_isdigit (r->text[r->pos]))
        r->pos++;
      if (r->pos == digits || r->pos - digits > 9)
        return fail (r, digits, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error, "expected a device index");
      g_string_append_c (form, ':');
      g_string_append_len (form, r->text + digits, r->pos - digits);
    }
  if (!expect (r, ")", error))
    return FALSE;
  if (strlen (form->str) != form->len || form->len == 0)
    return fail (r, start, r->pos, GRAFT_PARSE_ERROR_SYNTAX, error, "malformed device");
  graft_arg_init_device (out, form->str);
  return TRUE;
}

/* Python's repr of a complex with a real part, `(1+2j)`, the cursor on
 * `(`.  Returns FALSE (moving nothing) when the text is not one. */
static gboolean
try_parse_complex (Reader   *r,
                   GraftArg *out)
{
  gsize  i = r->pos + 1, split = 0;
  double re, im;

  for (; i < r->end && r->text[i] != ')'; i++)
    {
      char c = r->text[i];

      if (!g_ascii_isalnum (c) && c != '.' && c != '+' && c != '-')
        return FALSE;
      if ((c == '+' || c == '-') && i > r->pos + 1 &&
          r->text[i - 1] != 'e' && r->text[i - 1] != 'E')
        split = i;
    }
  if (i >= r->end || split == 0 || r->text[i - 1] != 'j')
    return FALSE;
  if (!read_real (r->text + r->pos + 1, split - r->pos - 1, TRUE, &re) ||
      !read_real (r->text + split, i - 1 - split, TRUE, &im))
    return FALSE;
  graft_arg_init_complex (out, re, im);
  r->pos = i + 1;
  return TRUE;
}

static gboolean
add_ref (Reader   *r,
         gsize     start,
         gsize     name_start,
         gsize     end,
         GraftArg *out,
         GError  **error)
{
  Ref ref = { (guint32) start, (guint32) end, (guint32) name_start, 0 };

  if (end - name_start > GRAFT_MAX_NAME_LENGTH)
    return fail (r, start, end, GRAFT_PARSE_ERROR_LIMIT, error, "the node name is too long");
  graft_arg_init_node (out, NULL);
  out->n = r->refs->len;
  g_array_append_val (r->refs, ref);
  return TRUE;
}

/* A value in repr style: return lines, slice parts, defaults. */
static gboolean
parse_repr_value (Reader   *r,
                  GraftArg *out,
                  GError  **error)
{
  gsize start = r->pos;
  char  c = r->text[r->pos];

  if (c == '(' && try_parse_complex (r, out))
    return TRUE;
  if (c == '(' || c == '[')
    return parse_sequence (r, STYLE_REPR, out, error);
  if (c == '{')
    return parse_dict (r, STYLE_REPR, out, error);
  if (c == '\'' || c == '"')
    return parse_string (r, out, error);
  if (c == '-' || g_ascii_isdigit (c))
    {
      gsize i = r->pos + 1;

      while (i < r->end && (is_ident_char (r->text[i]) || r->text[i] == '.' ||
                            ((r->text[i] == '+' || r->text[i] == '-') &&
                             (r->text[i - 1] == 'e' || r->text[i - 1] == 'E'))))
        i++;
      switch (read_number (r->text + start, i - start, out))
        {
        case NUMBER_OK:
          r->pos = i;
          return TRUE;
        case NUMBER_NONE:
        default:
          return fail (r, start, i, GRAFT_PARSE_ERROR_SYNTAX, error, "malformed number");
        }
    }
  if (is_ident_start (c))
    {
      gsize    i = r->pos;
      gboolean dotted = FALSE;

      while (i < r->end && (is_ident_char (r->text[i]) ||
                            (r->text[i] == '.' && i + 1 < r->end && is_ident_start (r->text[i + 1]))))
        {
          dotted = dotted || r->text[i] == '.';
          i++;
        }
      if (i < r->end && r->text[i] == '(')
        {
          if (span_is (r->text + start, i - start, "slice"))
            return parse_slice (r, out, error);
          if (span_is (r->text + start, i - start, "device"))
            return parse_device (r, out, error);
          return fail (r, start, i, GRAFT_PARSE_ERROR_SYNTAX, error, "only slice(...) and device(...) calls can appear in a value");
        }
      r->pos = i;
      if (read_constant (r->text + start, i - start, out) ||
          read_number (r->text + start, i - start, out) == NUMBER_OK)
        return TRUE;
      if (dotted)
        {
          if (!is_torch_symbol (r->text + start, i - start))
            return fail (r, start, i, GRAFT_PARSE_ERROR_SYNTAX, error, "a dotted name in a value must be a torch constant such as torch.float32");
          {
            g_autofree char *copy = g_strndup (r->text + start, i - start);

            graft_arg_init_symbol (out, copy);
          }
          return TRUE;
        }
      return add_ref (r, start, start, i, out, error);
    }
  return fail (r, start, start + 1, GRAFT_PARSE_ERROR_SYNTAX, error, "expected a value");
}

/* A value in listing style (`_format_arg`). */
static gboolean
parse_listing_value (Reader   *r,
                     GraftArg *out,
                     GError  **error)
{
  char  c = r->text[r->pos];
  gsize end;

  if (c == '(' && try_parse_complex (r, out))
    return TRUE;
  if (c == '(' || c == '[')
    return parse_sequence (r, STYLE_LISTING, out, error);
  if (c == '{')
    return parse_dict (r, STYLE_LISTING, out, error);
  if (c == '%')
    {
      gsize start = r->pos, i = r->pos + 1;

      while (i < r->end && is_ident_char (r->text[i]))
        i++;
      if (i == start + 1 || g_ascii_isdigit (r->text[start + 1]))
        return fail (r, start, i + 1, GRAFT_PARSE_ERROR_SYNTAX, error, "expected a node name after '%'");
      r->pos = i;
      return add_ref (r, start, start + 1, i, out, error);
    }
  if (looking_at (r, "slice("))
    return parse_slice (r, out, error);
  end = scan_word (r, FALSE);
  if (!read_word (r, r->pos, end, out, error))
    return FALSE;
  r->pos = end;
  return TRUE;
}

static gboolean
parse_value (Reader   *r,
             Style     style,
             GraftArg *out,
             GError  **error)
{
  if (r->pos >= r->end)
    {
      if (style == STYLE_LISTING)
        {
          /* An empty word: the empty string, as `str('')` prints it. */
          graft_arg_init_str (out, "", 0);
          return TRUE;
        }
      return fail (r, r->pos, r->pos, GRAFT_PARSE_ERROR_SYNTAX, error, "unexpected end of line; expected a value");
    }
  if (style == STYLE_REPR)
    return parse_repr_value (r, out, error);
  return parse_listing_value (r, out, error);
}

/* A value that must fill [r->pos, r->end), in repr style. */
static gboolean
parse_whole_repr (Reader   *r,
                  GraftArg *out,
                  GError  **error)
{
  if (!parse_value (r, STYLE_REPR, out, error))
    return FALSE;
  skip_spaces (r);
  if (r->pos < r->end)
    {
      graft_arg_clear (out);
      return fail (r, r->pos, r->end, GRAFT_PARSE_ERROR_SYNTAX, error, "unexpected text after the value");
    }
  return TRUE;
}

/* A placeholder's `(default=...)`: Python's `str(default)`. */
static gboolean
parse_default (Reader   *r,
               GraftArg *out,
               GError  **error)
{
  char  c = r->pos < r->end ? r->text[r->pos] : '\0';
  gsize start = r->pos;

  if (c == '(' || c == '[' || c == '{' || looking_at (r, "slice("))
    {
      guint n_refs = r->refs->len;

      if (!parse_whole_repr (r, out, error))
        return FALSE;
      if (graft_arg_has_node (out))
        {
          graft_arg_clear (out);
          g_array_set_size (r->refs, n_refs);
          return fail (r, start, r->end, GRAFT_PARSE_ERROR_GRAPH, error, "a placeholder default cannot refer to a node");
        }
      return TRUE;
    }
  if (!read_word (r, r->pos, r->end, out, error))
    return FALSE;
  r->pos = r->end;
  return TRUE;
}

static void
record_clear (Record *rec)
{
  g_clear_pointer (&rec->target, g_free);
  g_clear_pointer (&rec->type, g_free);
  graft_arg_clear (&rec->args);
  graft_arg_clear (&rec->kwargs);
}

static gboolean
is_reserved_name (const char *s,
                  gsize       len)
{
  static const char *const constants[] = { "inf", "nan", "Ellipsis", "infj", "nanj" };
  char                     copy[16];

  /* No keyword or constant is longer than 8 characters. */
  if (len >= sizeof copy)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (constants); i++)
    if (span_is (s, len, constants[i]))
      return TRUE;
  memcpy (copy, s, len);
  copy[len] = '\0';
  return graft_is_python_keyword (copy);
}

/* `%name : [TYPE ][#users=N] = ` up to the op, the cursor after the
 * indentation. */
static gboolean
parse_node_head (Reader  *r,
                 Record  *rec,
                 GError **error)
{
  gsize            start = r->pos, users_mark, i;
  gssize           found;
  const char      *marker = "[#users=";
  g_autofree char *digits = NULL;
  guint64          users;

  r->pos++;
  while (r->pos < r->end && is_ident_char (r->text[r->pos]))
    r->pos++;
  if (r->pos == start + 1 || g_ascii_isdigit (r->text[start + 1]))
    return fail (r, start, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error, "expected a node name after '%'");
  if (r->pos - start - 1 > GRAFT_MAX_NAME_LENGTH)
    return fail (r, start, r->pos, GRAFT_PARSE_ERROR_LIMIT, error, "the node name is too long");
  if (is_reserved_name (r->text + start + 1, r->pos - start - 1))
    return fail (r, start, r->pos, GRAFT_PARSE_ERROR_GRAPH, error, "this name is reserved in Python and cannot name a node");
  rec->name_start = (guint32) (start + 1);
  rec->name_len = (guint32) (r->pos - start - 1);
  if (!expect (r, " : ", error))
    return FALSE;

  /* An optional type, then `[#users=N]` (1.13.1) or `[num_users=N]`. */
  found = find_in_line (r, r->pos, "[#users=");
  {
    gssize other = find_in_line (r, r->pos, "[num_users=");

    if (other >= 0 && (found < 0 || other < found))
      {
        found = other;
        marker = "[num_users=";
      }
  }
  if (found < 0)
    return fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error, "expected '[#users=N]'");
  if ((gsize) found > r->pos)
    {
      if (r->text[found - 1] != ' ' || (gsize) found - 1 == r->pos)
        return fail (r, r->pos, found, GRAFT_PARSE_ERROR_SYNTAX, error, "expected a type followed by a space before the user count");
      if (memchr (r->text + r->pos, '\0', found - 1 - r->pos) != NULL)
        return fail (r, r->pos, found - 1, GRAFT_PARSE_ERROR_SYNTAX, error, "the type contains a NUL byte");
      rec->type = g_strndup (r->text + r->pos, found - 1 - r->pos);
    }
  r->pos = found + strlen (marker);
  users_mark = r->pos;
  for (i = r->pos; i < r->end && g_ascii_isdigit (r->text[i]); i++)
    ;
  if (i == users_mark)
    return fail (r, users_mark, users_mark + 1, GRAFT_PARSE_ERROR_SYNTAX, error, "expected the number of users");
  digits = g_strndup (r->text + users_mark, i - users_mark);
  errno = 0;
  users = g_ascii_strtoull (digits, NULL, 10);
  if (errno == ERANGE || users > G_MAXUINT32 || i - users_mark > 10)
    return fail (r, users_mark, i, GRAFT_PARSE_ERROR_SYNTAX, error, "the number of users is out of range");
  rec->users = (guint) users;
  rec->users_start = (guint32) users_mark;
  rec->users_end = (guint32) i;
  r->pos = i;
  return expect (r, "] = ", error);
}

/* `op[target=T]...` after the head. */
static gboolean
parse_node_body (Reader  *r,
                 Record  *rec,
                 GError **error)
{
  gsize  op_start = r->pos, target_start;
  gssize close;

  while (r->pos < r->end && (is_ident_char (r->text[r->pos])))
    r->pos++;
  if (!graft_op_from_string (r->text + op_start, r->pos - op_start, &rec->op))
    return fail (r, op_start, r->pos + (r->pos == op_start), GRAFT_PARSE_ERROR_SYNTAX, error, "expected an op: placeholder, get_attr, call_function, call_method or call_module");
  if (rec->op == GRAFT_OP_OUTPUT)
    return fail (r, op_start, r->pos, GRAFT_PARSE_ERROR_SYNTAX, error, "the output is written as a 'return' line");
  if (!expect (r, "[target=", error))
    return FALSE;
  target_start = r->pos;

  switch (rec->op)
    {
    case GRAFT_OP_PLACEHOLDER:
      close = find_in_line (r, target_start, "](default=");
      if (close < 0)
        {
          if (r->end == target_start || r->text[r->end - 1] != ']')
            return fail (r, r->end, r->end, GRAFT_PARSE_ERROR_SYNTAX, error, "expected ']' at the end of the line");
          close = (gssize) r->end - 1;
          r->pos = r->end;
        }
      else
        {
          if (r->text[r->end - 1] != ')')
            return fail (r, r->end, r->end, GRAFT_PARSE_ERROR_SYNTAX, error, "expected ')' at the end of the line");
          r->pos = close + strlen ("](default=");
          r->end--;
          if (!parse_default (r, &rec->args, error))
            {
              r->end++;
              return FALSE;
            }
          r->end++;
          {
            GraftArg value = rec->args;

            graft_arg_init_seq (&rec->args, GRAFT_ARG_TUPLE, 1);
            rec->args.items[0] = value;
          }
          r->pos = r->end;
        }
      break;

    case GRAFT_OP_GET_ATTR:
      if (r->end == target_start || r->text[r->end - 1] != ']')
        return fail (r, r->end, r->end, GRAFT_PARSE_ERROR_SYNTAX, error, "expected ']' at the end of the line");
      close = (gssize) r->end - 1;
      r->pos = r->end;
      break;

    case GRAFT_OP_CALL_FUNCTION:
    case GRAFT_OP_CALL_METHOD:
    case GRAFT_OP_CALL_MODULE:
      close = find_in_line (r, target_start, "](args = ");
      if (close < 0)
        return fail (r, target_start, r->end, GRAFT_PARSE_ERROR_SYNTAX, error, "expected '](args = ' after the target");
      r->pos = close + strlen ("](args = ");
      if (!looking_at (r, "("))
        return fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error, "expected the args tuple");
      {
        gsize args_start = r->pos;

        if (!parse_value (r, STYLE_LISTING, &rec->args, error))
          return FALSE;
        if (rec->args.kind != GRAFT_ARG_TUPLE)
          return fail (r, args_start, r->pos, GRAFT_PARSE_ERROR_SYNTAX, error, "expected the args tuple");
      }
      if (!expect (r, ", kwargs = ", error))
        return FALSE;
      if (!looking_at (r, "{"))
        return fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error, "expected the kwargs dict");
      if (!parse_value (r, STYLE_LISTING, &rec->kwargs, error) || !expect (r, ")", error))
        return FALSE;
      if (r->pos < r->end)
        return fail (r, r->pos, r->end, GRAFT_PARSE_ERROR_SYNTAX, error, "unexpected text at the end of the line");
      break;

    case GRAFT_OP_OUTPUT:
    default:
      g_assert_not_reached ();
      return FALSE;
    }

  if ((gsize) close == target_start)
    return fail (r, target_start, target_start + 1, GRAFT_PARSE_ERROR_SYNTAX, error, "the target is empty");
  if (memchr (r->text + target_start, '\0', close - target_start) != NULL)
    return fail (r, target_start, close, GRAFT_PARSE_ERROR_SYNTAX, error, "the target contains a NUL byte");
  rec->target = g_strndup (r->text + target_start, close - target_start);
  return TRUE;
}

/* A call_function target that is neither torch's nor an operator or a
 * builtin can only have been recorded through `torch.fx.wrap` (or the
 * auto-wrapped `math`), whose code has a `wrap(...)` line. */
static gboolean
target_is_wrapped (const char *target)
{
  static const char *const prefixes[] = {
    "torch.",
    "operator.",
    "_operator.",
    "builtins.",
    "aten.",
    "prims.",
  };

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (target, prefixes[i]))
      return FALSE;
  return strchr (target, '.') != NULL;
}

static gboolean
resolve_refs (Reader  *r,
              GError **error)
{
  g_autoptr (GString) name = g_string_new (NULL);

  for (guint i = 0; i < r->refs->len; i++)
    {
      Ref     *ref = &g_array_index (r->refs, Ref, i);
      gpointer index;

      g_string_truncate (name, 0);
      g_string_append_len (name, r->text + ref->name_start, ref->end - ref->name_start);
      index = g_hash_table_lookup (r->names, name->str);
      if (index == NULL)
        {
          graft_set_error_at_offset (error, r->source, ref->start, ref->end, GRAFT_PARSE_ERROR_GRAPH, "%s%s is not defined", ref->name_start > ref->start ? "%" : "", name->str);
          return FALSE;
        }
      ref->record = GPOINTER_TO_UINT (index) - 1;
    }
  return TRUE;
}

static void
link_refs (Reader     *r,
           GraftArg   *arg,
           GraftNode **nodes)
{
  guint n_items;

  if (arg->kind == GRAFT_ARG_NODE)
    {
      arg->node = nodes[g_array_index (r->refs, Ref, arg->n).record];
      arg->n = 0;
      return;
    }
  n_items = graft_arg_count_items (arg);
  for (guint i = 0; i < n_items; i++)
    link_refs (r, &arg->items[i], nodes);
}

static void
reader_clear (Reader *r)
{
  for (guint i = 0; i < r->records->len; i++)
    record_clear (&g_array_index (r->records, Record, i));
  g_array_unref (r->records);
  g_array_unref (r->refs);
  drop_items (r, 0);
  g_array_unref (r->stack);
  g_hash_table_unref (r->names);
}

/* Reads one line [start, end) after the header into a record.  Sets
 * *out_is_return for the `return` line. */
static gboolean
parse_line (Reader   *r,
            gsize     start,
            gsize     end,
            gboolean *out_is_return,
            GError  **error)
{
  Record   rec = { 0 };
  gboolean ok;

  r->pos = start;
  r->end = end;
  r->depth = 0;
  graft_arg_init_seq (&rec.args, GRAFT_ARG_TUPLE, 0);
  graft_arg_init_dict (&rec.kwargs, 0);
  rec.line_start = (guint32) start;
  rec.line_end = (guint32) end;
  while (r->pos < r->end && (r->text[r->pos] == ' ' || r->text[r->pos] == '\t'))
    r->pos++;
  *out_is_return = FALSE;

  if (looking_at (r, "return") &&
      (r->pos + 6 == r->end || r->text[r->pos + 6] == ' '))
    {
      GraftArg value;

      *out_is_return = TRUE;
      r->pos += 6;
      skip_spaces (r);
      rec.op = GRAFT_OP_OUTPUT;
      rec.target = g_strdup ("output");
      ok = parse_whole_repr (r, &value, error);
      if (ok)
        {
          graft_arg_clear (&rec.args);
          graft_arg_init_seq (&rec.args, GRAFT_ARG_TUPLE, 1);
          rec.args.items[0] = value;
        }
    }
  else if (r->pos < r->end && r->text[r->pos] == '%')
    {
      ok = parse_node_head (r, &rec, error) && parse_node_body (r, &rec, error);
      if (ok)
        {
          g_autofree char *name = g_strndup (r->text + rec.name_start, rec.name_len);
          gpointer         previous = g_hash_table_lookup (r->names, name);

          if (previous != NULL)
            {
              Record *first = &g_array_index (r->records, Record, GPOINTER_TO_UINT (previous) - 1);
              guint   line;

              graft_source_locate (r->source, first->line_start, &line, NULL);
              graft_set_error_at_offset (error, r->source, rec.name_start - 1, rec.name_start + rec.name_len, GRAFT_PARSE_ERROR_GRAPH, "%%%s is already defined on line %u", name, line);
              ok = FALSE;
            }
          else
            g_hash_table_insert (r->names, g_steal_pointer (&name), GUINT_TO_POINTER (r->records->len + 1));
        }
    }
  else
    ok = fail (r, r->pos, r->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, error, "expected a node ('%name : ...') or 'return'");

  if (!ok)
    {
      record_clear (&rec);
      return FALSE;
    }
  g_array_append_val (r->records, rec);
  return TRUE;
}

/* Builds the graph from the records: every node first, then the arguments,
 * so that references to later nodes link like any other. */
static GraftGraph *
build_graph (Reader  *r,
             GError **error)
{
  g_autoptr (GraftGraph) graph = graft_graph_new ();
  g_autofree GraftNode **nodes = g_new (GraftNode *, r->records->len);

  graft_graph_set_source (graph, r->source);

  for (guint i = 0; i < r->records->len; i++)
    {
      Record *rec = &g_array_index (r->records, Record, i);

      if (rec->op == GRAFT_OP_OUTPUT)
        nodes[i] = graft_graph_create_node (graph, rec->op, rec->target, NULL, NULL, "output", NULL);
      else
        {
          g_autofree char *name = g_strndup (r->text + rec->name_start, rec->name_len);

          nodes[i] = graft_graph_create_node_named (graph, rec->op, rec->target, NULL, NULL, name, NULL);
        }
      if (nodes[i] == NULL)
        {
          /* Names are checked when read, so this cannot happen. */
          g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH, "cannot create node %u", i);
          return NULL;
        }
      graft_node_set_type_annotation (nodes[i], rec->type);
      graft_node_set_span (nodes[i], rec->line_start, rec->line_end);
      if (rec->op == GRAFT_OP_CALL_FUNCTION && target_is_wrapped (rec->target))
        graft_node_set_is_wrapped (nodes[i], TRUE);
    }

  for (guint i = 0; i < r->records->len; i++)
    {
      Record *rec = &g_array_index (r->records, Record, i);

      link_refs (r, &rec->args, nodes);
      link_refs (r, &rec->kwargs, nodes);
      graft_graph_set_args (graph, nodes[i], &rec->args, &rec->kwargs);
    }

  for (guint i = 0; i < r->records->len; i++)
    {
      Record *rec = &g_array_index (r->records, Record, i);
      guint   actual = graft_node_get_n_users (nodes[i]);

      if (rec->op == GRAFT_OP_OUTPUT || actual == rec->users)
        continue;
      graft_set_error_at_offset (error, r->source, rec->users_start, rec->users_end, GRAFT_PARSE_ERROR_GRAPH, "node %%%s declares %u user%s but %u node%s %s it", graft_node_get_name (nodes[i]), rec->users, rec->users == 1 ? "" : "s", actual, actual == 1 ? "" : "s", actual == 1 ? "uses" : "use");
      return NULL;
    }
  return g_steal_pointer (&graph);
}

/* The end of the line that starts at @start (before its break), and the
 * start of the next one. */
static gsize
line_end (const char *text,
          gsize       length,
          gsize       start,
          gsize      *out_next)
{
  gsize i = start;

  while (i < length && text[i] != '\n' && text[i] != '\r')
    i++;
  *out_next = i;
  if (i < length && text[i] == '\r' && i + 1 < length && text[i + 1] == '\n')
    *out_next = i + 2;
  else if (i < length)
    *out_next = i + 1;
  return i;
}

static gboolean
line_is_blank (const char *text,
               gsize       start,
               gsize       end)
{
  for (gsize i = start; i < end; i++)
    if (text[i] != ' ' && text[i] != '\t')
      return FALSE;
  return TRUE;
}

/* The end of a line without its trailing spaces. */
static gsize
trim_end (const char *text,
          gsize       start,
          gsize       end)
{
  while (end > start && (text[end - 1] == ' ' || text[end - 1] == '\t'))
    end--;
  return end;
}

/**
 * graft_listing_parse:
 * @source: the text of a listing, as `print(gm.graph)` writes it
 * @error: return location for a located #GRAFT_PARSE_ERROR
 *
 * Reads a graph listing back into a graph (see the top of this file for
 * what a listing cannot say and how the reader decides).  Node names are
 * kept as written; the output node is named `output` (or as the namespace
 * makes it unique).  Each node's span is its line.  The graph is not
 * required to define values before their use.
 *
 * Returns: (transfer full) (nullable): the graph, or %NULL with @error set
 */
GraftGraph *
graft_listing_parse (GraftSource *source,
                     GError     **error)
{
  Reader      r = { 0 };
  gsize       pos = 0, next, end, header_start;
  gboolean    have_return = FALSE;
  GraftGraph *graph;

  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  r.source = source;
  r.text = graft_source_get_text (source);
  r.length = graft_source_get_length (source);

  if (r.length > GRAFT_MAX_INPUT_BYTES)
    {
      graft_set_error_at_offset (error, source, 0, 0, GRAFT_PARSE_ERROR_LIMIT, "the input is larger than %u MiB", GRAFT_MAX_INPUT_BYTES / (1024u * 1024u));
      return NULL;
    }

  /* The header, after blank lines. */
  for (;;)
    {
      if (pos >= r.length)
        {
          graft_set_error_at_offset (error, source, pos, pos, GRAFT_PARSE_ERROR_SYNTAX, "expected 'graph():' but the input is empty");
          return NULL;
        }
      end = line_end (r.text, r.length, pos, &next);
      if (!line_is_blank (r.text, pos, end))
        break;
      pos = next;
    }
  header_start = pos;
  while (r.text[header_start] == ' ' || r.text[header_start] == '\t')
    header_start++;
  end = trim_end (r.text, header_start, end);
  if (end - header_start != strlen ("graph():") ||
      memcmp (r.text + header_start, "graph():", end - header_start) != 0)
    {
      graft_set_error_at_offset (error, source, header_start, end, GRAFT_PARSE_ERROR_SYNTAX, "expected 'graph():'");
      return NULL;
    }
  pos = next;

  r.records = g_array_new (FALSE, FALSE, sizeof (Record));
  r.refs = g_array_new (FALSE, FALSE, sizeof (Ref));
  r.stack = g_array_new (FALSE, FALSE, sizeof (GraftArg));
  r.names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (; pos < r.length; pos = next)
    {
      gboolean is_return;

      end = line_end (r.text, r.length, pos, &next);
      if (line_is_blank (r.text, pos, end))
        continue;
      end = trim_end (r.text, pos, end);
      if (have_return)
        {
          gsize first = pos;

          while (r.text[first] == ' ' || r.text[first] == '\t')
            first++;
          graft_set_error_at_offset (error, source, first, end, GRAFT_PARSE_ERROR_GRAPH, "the 'return' line must be the last line");
          reader_clear (&r);
          return NULL;
        }
      if (r.records->len >= GRAFT_MAX_NODES)
        {
          graft_set_error_at_offset (error, source, pos, end, GRAFT_PARSE_ERROR_LIMIT, "the graph has more than %u nodes", GRAFT_MAX_NODES);
          reader_clear (&r);
          return NULL;
        }
      if (!parse_line (&r, pos, end, &is_return, error))
        {
          reader_clear (&r);
          return NULL;
        }
      have_return = is_return;
    }

  if (!have_return)
    {
      graft_set_error_at_offset (error, source, r.length, r.length, GRAFT_PARSE_ERROR_GRAPH, "the listing has no 'return' line");
      reader_clear (&r);
      return NULL;
    }
  if (!resolve_refs (&r, error))
    {
      reader_clear (&r);
      return NULL;
    }
  graph = build_graph (&r, error);
  reader_clear (&r);
  return graph;
}

/**
 * graft_listing_detect:
 * @source: a text
 *
 * Tells a graph listing from other inputs: after leading white space
 * (including blank lines), the text starts with `graph(`.
 *
 * Returns: whether @source looks like a graph listing
 */
gboolean
graft_listing_detect (GraftSource *source)
{
  const char *text;
  gsize       length, i = 0;

  g_return_val_if_fail (source != NULL, FALSE);

  text = graft_source_get_text (source);
  length = graft_source_get_length (source);
  while (i < length && g_ascii_isspace (text[i]))
    i++;
  return length - i >= 6 && memcmp (text + i, "graph(", 6) == 0;
}
