/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-value-reader.c: the one reader of Python value reprs, shared by the
 * listing reader (graft-listing-reader.c) and the DOT reader
 * (graft-dot-import-graft.c).  It reads one value from a cursor, in one of
 * three styles (graft-value-reader-private.h), into a GraftArg; node
 * references go through the caller's GraftValueRefFunc.  On failure it
 * keeps where (a span of the text) and what, and the caller reports it as
 * its format does: a listing at the span, DOT at the node with the
 * character position in the message.
 *
 * What every style reads the same way:
 *
 *  - Ints, by one rule.  torch prints an int, in listings and in code, as
 *    Python's `str(int)`: `0`, or an optional `-` and digits without a
 *    leading zero, whatever its size (torch.fx keeps any Python int in a
 *    node's args).  Exactly those forms are ints.  One that fits 64 bits is
 *    a GRAFT_ARG_INT; a larger one is a GRAFT_ARG_SYMBOL of its digits, the
 *    form in which the tracer keeps it (graft-tracer-bigint.c) and which
 *    code and listings print as they are.  Other runs of digits (`007`,
 *    `-0`) are not ints: a listing's bare word is then a str (that is how
 *    `_format_arg` prints the str '007'), and in repr and DOT they are a
 *    malformed number.  The parts of a complex are floats, whatever their
 *    size (`(1e+20+1j)`; DOT's `complex(RE, IM)`).
 *  - None, True, False, Ellipsis, inf and nan; tuples, lists and dicts;
 *    `slice(A, B, C)`; nesting to GRAFT_MAX_PARSE_DEPTH.
 *
 * Where the styles differ, each keeps what its format writes:
 *
 *  - Listing: a bare word is classified (_graft_value_read_word()), items
 *    are joined by `, ` exactly, dict keys are bare strs, `%name` is a node.
 *  - Repr: strings are quoted with Python's escapes, a bare name is a node,
 *    a dotted name must be a `torch.` constant, `device(type='T', index=N)`
 *    and `(RE+IMj)` / `IMj` are read as Python prints them.
 *  - DOT: blanks may stand anywhere between tokens, `(x)` is x, strings
 *    use DOT's escapes (graft-dot-escape-private.h), `%name` is a node,
 *    floats may be written as C reads them (`1.`), and the calls are
 *    `complex(RE, IM)`, `slice(A, B, C)`, `device('S')` and `symbol('S')`;
 *    a bare dotted name of two or more identifiers, or a bare int beyond
 *    64 bits, is a symbol (_graft_value_symbol_is_bare()).
 *
 * The messages are those the two readers always gave, so a located error
 * reads as before in either format.
 */
#include "config.h"

#include "graft-value-reader-private.h"
#include "graft-dot-escape-private.h"
#include "graft-limits.h"

#include <math.h>
#include <string.h>

static gboolean parse_value (GraftValueReader *vr,
                             GraftValueStyle   style,
                             GraftArg         *out);

/* ------------------------------------------------------------------ */
/* The cursor                                                          */
/* ------------------------------------------------------------------ */

/**
 * _graft_value_reader_init:
 * @vr: a reader to set up
 * @text: (not nullable): the text values are read from; the caller sets
 *   @vr->pos and @vr->end before each read
 * @read_ref: what node references become
 * @user_data: for @read_ref
 */
void
_graft_value_reader_init (GraftValueReader *vr,
                          const char       *text,
                          GraftValueRefFunc read_ref,
                          gpointer          user_data)
{
  memset (vr, 0, sizeof *vr);
  vr->text = text;
  vr->read_ref = read_ref;
  vr->user_data = user_data;
  vr->stack = g_array_new (FALSE, FALSE, sizeof (GraftArg));
}

static void
drop_items (GraftValueReader *vr,
            guint             base)
{
  for (guint i = base; i < vr->stack->len; i++)
    graft_arg_clear (&g_array_index (vr->stack, GraftArg, i));
  g_array_set_size (vr->stack, base);
}

void
_graft_value_reader_clear (GraftValueReader *vr)
{
  if (vr->stack != NULL)
    drop_items (vr, 0);
  g_clear_pointer (&vr->stack, g_array_unref);
  g_clear_pointer (&vr->message, g_free);
}

/**
 * _graft_value_fail:
 *
 * Records a failure at [@start, @end) (the first one of a read wins).
 *
 * Returns: %FALSE
 */
gboolean
_graft_value_fail (GraftValueReader   *vr,
                   gsize               start,
                   gsize               end,
                   GraftParseErrorCode code,
                   const char         *format,
                   ...)
{
  va_list ap;

  if (vr->message != NULL)
    return FALSE;
  va_start (ap, format);
  vr->message = g_strdup_vprintf (format, ap);
  va_end (ap);
  vr->fail_start = start;
  vr->fail_end = end;
  vr->fail_code = code;
  return FALSE;
}

static gboolean
fail (GraftValueReader *vr,
      gsize             start,
      gsize             end,
      const char       *message)
{
  return _graft_value_fail (vr, start, end, GRAFT_PARSE_ERROR_SYNTAX, "%s", message);
}

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

/* A character of a DOT ID, which a `%name` or a number in DOT runs to. */
static gboolean
is_dot_word_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || (guchar) c >= 0x80;
}

static gboolean
span_is (const char *s,
         gsize       len,
         const char *word)
{
  return strlen (word) == len && memcmp (s, word, len) == 0;
}

static gboolean
looking_at (GraftValueReader *vr,
            const char       *s)
{
  gsize n = strlen (s);

  return vr->end - vr->pos >= n && memcmp (vr->text + vr->pos, s, n) == 0;
}

static void
skip_spaces (GraftValueReader *vr)
{
  while (vr->pos < vr->end && vr->text[vr->pos] == ' ')
    vr->pos++;
}

/**
 * _graft_value_skip_blanks:
 *
 * Skips the blanks that DOT values may hold between tokens: spaces, tabs
 * and line breaks.
 */
void
_graft_value_skip_blanks (GraftValueReader *vr)
{
  while (vr->pos < vr->end && (vr->text[vr->pos] == ' ' || vr->text[vr->pos] == '\t' ||
                               vr->text[vr->pos] == '\n' || vr->text[vr->pos] == '\r'))
    vr->pos++;
}

/* Skips what @style lets stand between tokens. */
static void
skip_gap (GraftValueReader *vr,
          GraftValueStyle   style)
{
  if (style == GRAFT_VALUE_REPR)
    skip_spaces (vr);
  else if (style == GRAFT_VALUE_DOT)
    _graft_value_skip_blanks (vr);
}

/* A listing says when a line ended too soon; DOT values have no lines. */
static const char *
eol_prefix (GraftValueReader *vr,
            GraftValueStyle   style)
{
  return style != GRAFT_VALUE_DOT && vr->pos >= vr->end ? "unexpected end of line; " : "";
}

static gboolean
expect (GraftValueReader *vr,
        GraftValueStyle   style,
        const char       *s)
{
  if (style == GRAFT_VALUE_DOT)
    _graft_value_skip_blanks (vr);
  if (looking_at (vr, s))
    {
      vr->pos += strlen (s);
      return TRUE;
    }
  return _graft_value_fail (vr, vr->pos, vr->pos + 1, GRAFT_PARSE_ERROR_SYNTAX, "%sexpected '%s'",
                            eol_prefix (vr, style), s);
}

/* In DOT: skips blanks, then takes @c if it is there. */
static gboolean
consume (GraftValueReader *vr,
         char              c)
{
  _graft_value_skip_blanks (vr);
  if (vr->pos < vr->end && vr->text[vr->pos] == c)
    {
      vr->pos++;
      return TRUE;
    }
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Numbers                                                             */
/* ------------------------------------------------------------------ */

/* The one rule for ints (see the file comment): [s, s + len) is an int
 * when it is written as Python's str(int) writes one; then it becomes an
 * int, or beyond 64 bits a symbol of its digits. */
static gboolean
read_int (const char *s,
          gsize       len,
          GraftArg   *out)
{
  gboolean negative = len > 0 && s[0] == '-';
  gsize    first = negative ? 1 : 0;
  guint64  limit = negative ? (guint64) G_MAXINT64 + 1 : (guint64) G_MAXINT64;
  guint64  value = 0;
  gboolean fits = TRUE;

  if (first >= len || (s[first] == '0' && (len - first > 1 || negative)))
    return FALSE;
  for (gsize i = first; i < len; i++)
    {
      guint digit;

      if (!g_ascii_isdigit (s[i]))
        return FALSE;
      digit = (guint) (s[i] - '0');
      if (fits && value > (limit - digit) / 10)
        fits = FALSE;
      else if (fits)
        value = value * 10 + digit;
    }
  if (fits)
    graft_arg_init_int (out, negative ? (gint64) (0 - value) : (gint64) value);
  else
    {
      g_autofree char *digits = g_strndup (s, len);

      graft_arg_init_symbol (out, digits);
    }
  return TRUE;
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

/* Reads an int, a float or an imaginary number that fills [s, s + len), in
 * the forms Python's repr prints them. */
static gboolean
read_python_number (const char *s,
                    gsize       len,
                    GraftArg   *out)
{
  double value;

  if (len == 0)
    return FALSE;
  if (s[len - 1] == 'j')
    {
      if (s[0] == '+' || !read_real (s, len - 1, TRUE, &value))
        return FALSE;
      graft_arg_init_complex (out, 0.0, value);
      return TRUE;
    }
  if (s[0] == '+')
    return FALSE;
  if (read_real (s, len, FALSE, &value))
    {
      graft_arg_init_float (out, value);
      return TRUE;
    }
  return read_int (s, len, out);
}

/* `-?[0-9]+` */
static gboolean
is_digits (const char *s,
           gsize       len)
{
  gsize i = len > 0 && s[0] == '-' ? 1 : 0;

  if (i >= len)
    return FALSE;
  for (; i < len; i++)
    if (!g_ascii_isdigit (s[i]))
      return FALSE;
  return TRUE;
}

/* A real number token of DOT at the cursor: an int, a float repr, `inf`
 * or `nan`, with an optional `-`.  @allow_int says whether an int is kept
 * as one (else it is a float: a complex part). */
static gboolean
read_dot_number (GraftValueReader *vr,
                 gboolean          allow_int,
                 GraftArg         *out)
{
  gsize            start, end;
  gboolean         negative = FALSE;
  g_autofree char *copy = NULL;
  char            *stop = NULL;
  double           value;

  _graft_value_skip_blanks (vr);
  start = vr->pos;
  end = start;
  if (end < vr->end && vr->text[end] == '-')
    {
      negative = TRUE;
      end++;
    }
  if (vr->end - end >= 3 &&
      (memcmp (vr->text + end, "inf", 3) == 0 || memcmp (vr->text + end, "nan", 3) == 0) &&
      (vr->end - end == 3 || !is_dot_word_char (vr->text[end + 3])))
    {
      value = vr->text[end] == 'n' ? NAN : INFINITY;
      graft_arg_init_float (out, negative ? -value : value);
      vr->pos = end + 3;
      return TRUE;
    }
  while (end < vr->end &&
         (g_ascii_isdigit (vr->text[end]) || vr->text[end] == '.' || vr->text[end] == 'e' ||
          vr->text[end] == 'E' ||
          ((vr->text[end] == '+' || vr->text[end] == '-') && end > start &&
           (vr->text[end - 1] == 'e' || vr->text[end - 1] == 'E'))))
    end++;
  if (end == start + (negative ? 1 : 0) ||
      !g_ascii_isdigit (vr->text[start + (negative ? 1 : 0)]) ||
      (end < vr->end && is_dot_word_char (vr->text[end])))
    return fail (vr, start, start, "malformed number");
  vr->pos = end;
  if (allow_int && is_digits (vr->text + start, end - start))
    {
      if (!read_int (vr->text + start, end - start, out))
        return fail (vr, start, start, "malformed number");
      return TRUE;
    }
  copy = g_strndup (vr->text + start, end - start);
  value = g_ascii_strtod (copy, &stop);
  if (stop == NULL || *stop != '\0')
    return fail (vr, start, start, "malformed number");
  graft_arg_init_float (out, value);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Words and symbols                                                   */
/* ------------------------------------------------------------------ */

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

/**
 * _graft_value_symbol_is_bare:
 *
 * Returns: whether a symbol written bare in DOT reads back as that symbol:
 *   a dotted name of at least two identifier parts, or an int beyond 64
 *   bits written as Python writes it (the one rule for ints)
 */
gboolean
_graft_value_symbol_is_bare (const char *s,
                             gsize       len)
{
  gsize    part = 0;
  gboolean dotted = FALSE;

  if (strlen (s) != len || len == 0)
    return FALSE;
  if (is_digits (s, len))
    {
      GraftArg arg;
      gboolean is_symbol;

      if (!read_int (s, len, &arg))
        return FALSE;
      is_symbol = arg.kind == GRAFT_ARG_SYMBOL;
      graft_arg_clear (&arg);
      return is_symbol;
    }
  for (gsize i = 0; i <= len; i++)
    if (i == len || s[i] == '.')
      {
        if (i == part || !is_ident_start (s[part]))
          return FALSE;
        for (gsize k = part + 1; k < i; k++)
          if (!is_ident_char (s[k]))
            return FALSE;
        if (i == len)
          return dotted;
        dotted = TRUE;
        part = i + 1;
      }
  return FALSE;
}

/* None, True, False, Ellipsis. */
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

/**
 * _graft_value_read_word:
 * @s: a bare word of a listing (`str(value)` of a non-container)
 * @len: its length
 * @out: (out caller-allocates): what it reads as
 *
 * Classifies the word: None, True, False, Ellipsis, a number (the one rule
 * for ints), a `torch.` symbol, and a str otherwise.
 */
void
_graft_value_read_word (const char *s,
                        gsize       len,
                        GraftArg   *out)
{
  if (read_constant (s, len, out) || read_python_number (s, len, out))
    return;
  if (is_torch_symbol (s, len))
    {
      g_autofree char *copy = g_strndup (s, len);

      graft_arg_init_symbol (out, copy);
      return;
    }
  graft_arg_init_str (out, s, len);
}

/* ------------------------------------------------------------------ */
/* Containers                                                          */
/* ------------------------------------------------------------------ */

/* Listing and repr count containers; DOT counts every value (in
 * parse_value). */
static gboolean
enter (GraftValueReader *vr,
       GraftValueStyle   style)
{
  if (style == GRAFT_VALUE_DOT)
    return TRUE;
  if (vr->depth >= GRAFT_MAX_PARSE_DEPTH)
    return _graft_value_fail (vr, vr->pos, vr->pos + 1, GRAFT_PARSE_ERROR_LIMIT,
                              "values nest deeper than %u levels", GRAFT_MAX_PARSE_DEPTH);
  vr->depth++;
  return TRUE;
}

static void
leave (GraftValueReader *vr,
       GraftValueStyle   style)
{
  if (style != GRAFT_VALUE_DOT)
    vr->depth--;
}

/* Moves the items pushed since @base into a new container. */
static void
pop_items (GraftValueReader *vr,
           guint             base,
           GraftArgKind      kind,
           GraftArg         *out)
{
  guint n = vr->stack->len - base;

  if (kind == GRAFT_ARG_DICT)
    graft_arg_init_dict (out, n / 2);
  else
    graft_arg_init_seq (out, kind, n);
  if (n > 0)
    memcpy (out->items, &g_array_index (vr->stack, GraftArg, base), n * sizeof (GraftArg));
  g_array_set_size (vr->stack, base);
}

static gboolean
push_value (GraftValueReader *vr,
            GraftValueStyle   style)
{
  GraftArg item;

  if (!parse_value (vr, style, &item))
    return FALSE;
  g_array_append_val (vr->stack, item);
  return TRUE;
}

/* Where a bare word that starts at the cursor ends: at `, ` or a closing
 * bracket outside the brackets it opens itself, or, for a dict key, at
 * `: `.  Strings are unquoted in listings, so this is a guess that holds
 * for every string without `, ` or unbalanced brackets. */
static gsize
scan_word (GraftValueReader *vr,
           gboolean          is_key)
{
  guint depth = 0;
  gsize i = vr->pos;

  for (; i < vr->end; i++)
    {
      char c = vr->text[i];

      if (depth == 0 && (c == ')' || c == ']' || c == '}'))
        break;
      /* Items are joined with `, `: a comma followed by anything else
       * (`ij,jk->ik`) belongs to the string, unless it ends a tuple. */
      if (depth == 0 && c == ',' &&
          (i + 1 >= vr->end || vr->text[i + 1] == ' ' || vr->text[i + 1] == ')'))
        break;
      if (depth == 0 && is_key && c == ':' && i + 1 < vr->end && vr->text[i + 1] == ' ')
        break;
      if (c == '(' || c == '[' || c == '{')
        depth++;
      else if (c == ')' || c == ']' || c == '}')
        depth--;
    }
  return i;
}

/* After an item: `,` or @close.  A listing then skips one optional space
 * (further spaces belong to an unquoted string); repr skips spaces, DOT
 * blanks.  Returns FALSE after a failure, else sets *out_done when the
 * container is closed. */
static gboolean
after_item (GraftValueReader *vr,
            GraftValueStyle   style,
            char              close,
            gboolean         *out_done,
            gboolean         *out_trailing_comma)
{
  *out_done = FALSE;
  *out_trailing_comma = FALSE;
  skip_gap (vr, style);
  if (vr->pos < vr->end && vr->text[vr->pos] == close)
    {
      vr->pos++;
      *out_done = TRUE;
      return TRUE;
    }
  if (vr->pos >= vr->end || vr->text[vr->pos] != ',')
    return _graft_value_fail (vr, vr->pos, vr->pos + 1, GRAFT_PARSE_ERROR_SYNTAX,
                              "%sexpected ',' or '%c'", eol_prefix (vr, style), close);
  vr->pos++;
  if (style == GRAFT_VALUE_DOT)
    _graft_value_skip_blanks (vr);
  if (vr->pos < vr->end && vr->text[vr->pos] == close)
    {
      /* `(a,)`; in a listing `(a, )` is a second item, the empty string. */
      vr->pos++;
      *out_done = TRUE;
      *out_trailing_comma = TRUE;
      return TRUE;
    }
  if (style == GRAFT_VALUE_REPR)
    skip_spaces (vr);
  else if (style == GRAFT_VALUE_LISTING && vr->pos < vr->end && vr->text[vr->pos] == ' ')
    vr->pos++;
  return TRUE;
}

/* A tuple or a list, the cursor on its opening bracket.  One item without
 * a comma in parentheses is that item in DOT, as in Python; a listing
 * always writes the comma. */
static gboolean
parse_sequence (GraftValueReader *vr,
                GraftValueStyle   style,
                GraftArg         *out)
{
  char     open = vr->text[vr->pos];
  char     close = open == '(' ? ')' : ']';
  guint    base = vr->stack->len;
  gsize    open_pos = vr->pos;
  gboolean done = FALSE, trailing = FALSE;

  if (!enter (vr, style))
    return FALSE;
  vr->pos++;
  skip_gap (vr, style);
  if (vr->pos < vr->end && vr->text[vr->pos] == close)
    {
      vr->pos++;
      done = TRUE;
    }
  while (!done)
    {
      if (!push_value (vr, style) || !after_item (vr, style, close, &done, &trailing))
        {
          drop_items (vr, base);
          return FALSE;
        }
    }
  if (open == '(' && vr->stack->len - base == 1 && !trailing)
    {
      if (style != GRAFT_VALUE_DOT)
        {
          drop_items (vr, base);
          return fail (vr, open_pos, vr->pos, "a one-element tuple needs a trailing comma");
        }
      *out = g_array_index (vr->stack, GraftArg, base);
      g_array_set_size (vr->stack, base);
      return TRUE;
    }
  pop_items (vr, base, open == '(' ? GRAFT_ARG_TUPLE : GRAFT_ARG_LIST, out);
  leave (vr, style);
  return TRUE;
}

/* A dict, the cursor on `{`.  Listing keys are bare strings. */
static gboolean
parse_dict (GraftValueReader *vr,
            GraftValueStyle   style,
            GraftArg         *out)
{
  guint    base = vr->stack->len;
  gboolean done = FALSE, trailing = FALSE;

  if (!enter (vr, style))
    return FALSE;
  vr->pos++;
  skip_gap (vr, style);
  if (vr->pos < vr->end && vr->text[vr->pos] == '}')
    {
      vr->pos++;
      done = TRUE;
    }
  while (!done)
    {
      gboolean ok;

      if (style == GRAFT_VALUE_LISTING)
        {
          gsize    key_end = scan_word (vr, TRUE);
          GraftArg key;

          graft_arg_init_str (&key, vr->text + vr->pos, key_end - vr->pos);
          g_array_append_val (vr->stack, key);
          vr->pos = key_end;
          ok = TRUE;
        }
      else
        ok = push_value (vr, style);
      if (ok && style == GRAFT_VALUE_REPR)
        {
          skip_spaces (vr);
          ok = expect (vr, style, ":");
          skip_spaces (vr);
        }
      else
        ok = ok && expect (vr, style, style == GRAFT_VALUE_DOT ? ":" : ": ");
      ok = ok && push_value (vr, style) && after_item (vr, style, '}', &done, &trailing);
      if (!ok)
        {
          drop_items (vr, base);
          return FALSE;
        }
    }
  pop_items (vr, base, GRAFT_ARG_DICT, out);
  leave (vr, style);
  return TRUE;
}

/* `slice(start, stop, step)`, the cursor on `slice(`; in a listing the
 * parts are reprs. */
static gboolean
parse_slice (GraftValueReader *vr,
             GraftArg         *out)
{
  if (!enter (vr, GRAFT_VALUE_REPR))
    return FALSE;
  vr->pos += strlen ("slice(");
  graft_arg_init_slice (out);
  for (guint i = 0; i < 3; i++)
    {
      skip_spaces (vr);
      if (!parse_value (vr, GRAFT_VALUE_REPR, &out->items[i]))
        {
          graft_arg_clear (out);
          return FALSE;
        }
      skip_spaces (vr);
      if (!expect (vr, GRAFT_VALUE_REPR, i < 2 ? "," : ")"))
        {
          graft_arg_clear (out);
          return FALSE;
        }
    }
  leave (vr, GRAFT_VALUE_REPR);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Repr: strings, devices, complex numbers                             */
/* ------------------------------------------------------------------ */

/* A quoted string as repr writes it, the cursor on the quote. */
static gboolean
parse_string (GraftValueReader *vr,
              GraftArg         *out)
{
  char  quote = vr->text[vr->pos];
  gsize start = vr->pos;
  g_autoptr (GString) buf = g_string_new (NULL);

  vr->pos++;
  while (vr->pos < vr->end && vr->text[vr->pos] != quote)
    {
      char     c = vr->text[vr->pos];
      gsize    esc = vr->pos;
      guint    digits = 0;
      gunichar value = 0;

      if (c != '\\')
        {
          g_string_append_c (buf, c);
          vr->pos++;
          continue;
        }
      if (vr->pos + 1 >= vr->end)
        break;
      c = vr->text[vr->pos + 1];
      vr->pos += 2;
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
          return fail (vr, esc, vr->pos, "unknown escape sequence in a string");
        }
      for (guint i = 0; i < digits; i++, vr->pos++)
        {
          int d = vr->pos < vr->end ? g_ascii_xdigit_value (vr->text[vr->pos]) : -1;

          if (d < 0)
            return fail (vr, esc, vr->pos, "malformed escape sequence in a string");
          value = value * 16 + (gunichar) d;
        }
      if (value > 0x10ffff)
        return fail (vr, esc, vr->pos, "escape sequence beyond U+10FFFF");
      {
        char utf8[8];
        gint n = g_unichar_to_utf8 (value, utf8);

        g_string_append_len (buf, utf8, n);
      }
    }
  if (vr->pos >= vr->end)
    return fail (vr, start, start + 1, "unterminated string");
  vr->pos++;
  graft_arg_init_str (out, buf->str, buf->len);
  return TRUE;
}

/* `device(type='cuda', index=0)`, the cursor on `device(`. */
static gboolean
parse_device (GraftValueReader *vr,
              GraftArg         *out)
{
  GraftArg type = { 0 };
  g_autoptr (GString) form = NULL;
  gsize start = vr->pos;

  vr->pos += strlen ("device(");
  if (!expect (vr, GRAFT_VALUE_REPR, "type="))
    return FALSE;
  if (vr->pos >= vr->end || (vr->text[vr->pos] != '\'' && vr->text[vr->pos] != '"'))
    return fail (vr, vr->pos, vr->pos + 1, "expected the device type as a string");
  if (!parse_string (vr, &type))
    return FALSE;
  form = g_string_new_len (type.s, type.n);
  graft_arg_clear (&type);
  if (looking_at (vr, ", index="))
    {
      gsize digits;

      vr->pos += strlen (", index=");
      digits = vr->pos;
      while (vr->pos < vr->end && g_ascii_isdigit (vr->text[vr->pos]))
        vr->pos++;
      if (vr->pos == digits || vr->pos - digits > 9)
        return fail (vr, digits, vr->pos + 1, "expected a device index");
      g_string_append_c (form, ':');
      g_string_append_len (form, vr->text + digits, vr->pos - digits);
    }
  if (!expect (vr, GRAFT_VALUE_REPR, ")"))
    return FALSE;
  if (strlen (form->str) != form->len || form->len == 0)
    return fail (vr, start, vr->pos, "malformed device");
  graft_arg_init_device (out, form->str);
  return TRUE;
}

/* Python's repr of a complex with a real part, `(1+2j)`, the cursor on
 * `(`.  Returns FALSE (moving nothing) when the text is not one. */
static gboolean
try_parse_complex (GraftValueReader *vr,
                   GraftArg         *out)
{
  gsize  i = vr->pos + 1, split = 0;
  double re, im;

  for (; i < vr->end && vr->text[i] != ')'; i++)
    {
      char c = vr->text[i];

      if (!g_ascii_isalnum (c) && c != '.' && c != '+' && c != '-')
        return FALSE;
      if ((c == '+' || c == '-') && i > vr->pos + 1 &&
          vr->text[i - 1] != 'e' && vr->text[i - 1] != 'E')
        split = i;
    }
  if (i >= vr->end || split == 0 || vr->text[i - 1] != 'j')
    return FALSE;
  if (!read_real (vr->text + vr->pos + 1, split - vr->pos - 1, TRUE, &re) ||
      !read_real (vr->text + split, i - 1 - split, TRUE, &im))
    return FALSE;
  graft_arg_init_complex (out, re, im);
  vr->pos = i + 1;
  return TRUE;
}

/* A value in repr style: return lines, slice parts, defaults. */
static gboolean
parse_repr_value (GraftValueReader *vr,
                  GraftArg         *out)
{
  gsize start = vr->pos;
  char  c = vr->text[vr->pos];

  if (c == '(' && try_parse_complex (vr, out))
    return TRUE;
  if (c == '(' || c == '[')
    return parse_sequence (vr, GRAFT_VALUE_REPR, out);
  if (c == '{')
    return parse_dict (vr, GRAFT_VALUE_REPR, out);
  if (c == '\'' || c == '"')
    return parse_string (vr, out);
  if (c == '-' || g_ascii_isdigit (c))
    {
      gsize i = vr->pos + 1;

      while (i < vr->end && (is_ident_char (vr->text[i]) || vr->text[i] == '.' ||
                             ((vr->text[i] == '+' || vr->text[i] == '-') &&
                              (vr->text[i - 1] == 'e' || vr->text[i - 1] == 'E'))))
        i++;
      if (!read_python_number (vr->text + start, i - start, out))
        return fail (vr, start, i, "malformed number");
      vr->pos = i;
      return TRUE;
    }
  if (is_ident_start (c))
    {
      gsize    i = vr->pos;
      gboolean dotted = FALSE;

      while (i < vr->end &&
             (is_ident_char (vr->text[i]) ||
              (vr->text[i] == '.' && i + 1 < vr->end && is_ident_start (vr->text[i + 1]))))
        {
          dotted = dotted || vr->text[i] == '.';
          i++;
        }
      if (i < vr->end && vr->text[i] == '(')
        {
          if (span_is (vr->text + start, i - start, "slice"))
            return parse_slice (vr, out);
          if (span_is (vr->text + start, i - start, "device"))
            return parse_device (vr, out);
          return fail (vr, start, i, "only slice(...) and device(...) calls can appear in a value");
        }
      vr->pos = i;
      if (read_constant (vr->text + start, i - start, out) ||
          read_python_number (vr->text + start, i - start, out))
        return TRUE;
      if (dotted)
        {
          g_autofree char *copy = NULL;

          if (!is_torch_symbol (vr->text + start, i - start))
            return fail (vr, start, i,
                         "a dotted name in a value must be a torch constant such as torch.float32");
          copy = g_strndup (vr->text + start, i - start);
          graft_arg_init_symbol (out, copy);
          return TRUE;
        }
      return vr->read_ref (vr, start, start, i, out);
    }
  return fail (vr, start, start + 1, "expected a value");
}

/* A value in listing style (`_format_arg`). */
static gboolean
parse_listing_value (GraftValueReader *vr,
                     GraftArg         *out)
{
  char  c = vr->text[vr->pos];
  gsize end;

  if (c == '(' && try_parse_complex (vr, out))
    return TRUE;
  if (c == '(' || c == '[')
    return parse_sequence (vr, GRAFT_VALUE_LISTING, out);
  if (c == '{')
    return parse_dict (vr, GRAFT_VALUE_LISTING, out);
  if (c == '%')
    {
      gsize start = vr->pos, i = vr->pos + 1;

      while (i < vr->end && is_ident_char (vr->text[i]))
        i++;
      if (i == start + 1 || g_ascii_isdigit (vr->text[start + 1]))
        return fail (vr, start, i + 1, "expected a node name after '%'");
      vr->pos = i;
      return vr->read_ref (vr, start, start + 1, i, out);
    }
  if (looking_at (vr, "slice("))
    return parse_slice (vr, out);
  end = scan_word (vr, FALSE);
  _graft_value_read_word (vr->text + vr->pos, end - vr->pos, out);
  vr->pos = end;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* DOT: strings, calls, words                                          */
/* ------------------------------------------------------------------ */

static gboolean
read_dot_string (GraftValueReader *vr,
                 GString          *buf)
{
  const char *end = NULL;
  const char *message = NULL;

  _graft_value_skip_blanks (vr);
  if (vr->pos >= vr->end || (vr->text[vr->pos] != '\'' && vr->text[vr->pos] != '"'))
    return fail (vr, vr->pos, vr->pos, "expected a string");
  if (!_graft_dot_read_escaped (vr->text + vr->pos + 1, vr->text + vr->end, vr->text[vr->pos], buf,
                                &end, &message))
    return fail (vr, (gsize) (end - vr->text), (gsize) (end - vr->text), message);
  vr->pos = (gsize) (end - vr->text);
  return TRUE;
}

/* `complex(RE, IM)`, `slice(A, B, C)`, `device('S')`, `symbol('S')`,
 * after the name and its `(`. */
static gboolean
read_dot_call (GraftValueReader *vr,
               const char       *name,
               gsize             name_start,
               GraftArg         *out)
{
  if (strcmp (name, "complex") == 0)
    {
      GraftArg re, im;

      if (!read_dot_number (vr, FALSE, &re))
        return FALSE;
      if (!consume (vr, ','))
        return fail (vr, vr->pos, vr->pos, "expected ','");
      if (!read_dot_number (vr, FALSE, &im))
        return FALSE;
      if (!consume (vr, ')'))
        return fail (vr, vr->pos, vr->pos, "expected ')'");
      graft_arg_init_complex (out, re.f, im.f);
      return TRUE;
    }
  if (strcmp (name, "slice") == 0)
    {
      graft_arg_init_slice (out);
      for (guint k = 0; k < 3; k++)
        {
          if (k > 0 && !consume (vr, ','))
            {
              graft_arg_clear (out);
              return fail (vr, vr->pos, vr->pos, "expected ','");
            }
          if (!parse_value (vr, GRAFT_VALUE_DOT, &out->items[k]))
            {
              graft_arg_clear (out);
              return FALSE;
            }
        }
      if (!consume (vr, ')'))
        {
          graft_arg_clear (out);
          return fail (vr, vr->pos, vr->pos, "expected ')'");
        }
      return TRUE;
    }
  if (strcmp (name, "device") == 0 || strcmp (name, "symbol") == 0)
    {
      g_autoptr (GString) buf = g_string_new (NULL);

      if (!read_dot_string (vr, buf))
        return FALSE;
      if (!consume (vr, ')'))
        return fail (vr, vr->pos, vr->pos, "expected ')'");
      if (strlen (buf->str) != buf->len)
        return fail (vr, name_start, name_start, "a NUL character in a device or symbol");
      if (name[0] == 'd')
        graft_arg_init_device (out, buf->str);
      else
        graft_arg_init_symbol (out, buf->str);
      return TRUE;
    }
  return fail (vr, name_start, name_start, "unknown call (only complex, slice, device and symbol)");
}

static gboolean
read_dot_word (GraftValueReader *vr,
               GraftArg         *out)
{
  gsize            start = vr->pos;
  gsize            end = start;
  g_autofree char *word = NULL;

  while (end < vr->end &&
         (g_ascii_isalnum (vr->text[end]) || vr->text[end] == '_' || vr->text[end] == '.'))
    end++;
  word = g_strndup (vr->text + start, end - start);
  vr->pos = end;
  if (read_constant (word, end - start, out))
    return TRUE;
  if (strcmp (word, "inf") == 0 || strcmp (word, "nan") == 0)
    {
      vr->pos = start;
      return read_dot_number (vr, TRUE, out);
    }
  if (consume (vr, '('))
    return read_dot_call (vr, word, start, out);
  if (!_graft_value_symbol_is_bare (word, end - start))
    return fail (vr, start, start, "unknown name (a node is written %name)");
  graft_arg_init_symbol (out, word);
  return TRUE;
}

static gboolean
read_dot_value (GraftValueReader *vr,
                GraftArg         *out)
{
  char c = vr->text[vr->pos];

  if (c == '(' || c == '[')
    return parse_sequence (vr, GRAFT_VALUE_DOT, out);
  if (c == '{')
    return parse_dict (vr, GRAFT_VALUE_DOT, out);
  if (c == '\'' || c == '"')
    {
      g_autoptr (GString) buf = g_string_new (NULL);

      if (!read_dot_string (vr, buf))
        return FALSE;
      graft_arg_init_str (out, buf->str, (gssize) buf->len);
      return TRUE;
    }
  if (c == '%')
    {
      gsize start = vr->pos;
      gsize end = start + 1;

      while (end < vr->end && is_dot_word_char (vr->text[end]))
        end++;
      if (end == start + 1)
        return fail (vr, start, start, "expected a node name after '%'");
      vr->pos = end;
      return vr->read_ref (vr, start, start + 1, end, out);
    }
  if (c == '-' || c == '.' || g_ascii_isdigit (c))
    return read_dot_number (vr, TRUE, out);
  if (is_ident_start (c))
    return read_dot_word (vr, out);
  return fail (vr, vr->pos, vr->pos, "expected a value");
}

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

static gboolean
parse_value (GraftValueReader *vr,
             GraftValueStyle   style,
             GraftArg         *out)
{
  gboolean ok;

  if (style == GRAFT_VALUE_DOT)
    {
      _graft_value_skip_blanks (vr);
      if (vr->pos >= vr->end)
        return fail (vr, vr->pos, vr->pos, "expected a value");
      if (vr->depth >= GRAFT_MAX_PARSE_DEPTH)
        return fail (vr, vr->pos, vr->pos, "values are nested too deeply");
      vr->depth++;
      ok = read_dot_value (vr, out);
      vr->depth--;
      return ok;
    }
  if (vr->pos >= vr->end)
    {
      if (style == GRAFT_VALUE_LISTING)
        {
          /* An empty word: the empty string, as `str('')` prints it. */
          graft_arg_init_str (out, "", 0);
          return TRUE;
        }
      return fail (vr, vr->pos, vr->pos, "unexpected end of line; expected a value");
    }
  if (style == GRAFT_VALUE_REPR)
    return parse_repr_value (vr, out);
  return parse_listing_value (vr, out);
}

/**
 * _graft_value_read:
 * @vr: a reader whose cursor is on a value
 * @style: how the value is written
 * @out: (out caller-allocates): the value; node references are what
 *   @vr->read_ref made them
 *
 * Reads one value and leaves the cursor after it.
 *
 * Returns: whether it did; else @vr->message says what is wrong and
 *   @vr->fail_start, @vr->fail_end and @vr->fail_code where and how
 */
gboolean
_graft_value_read (GraftValueReader *vr,
                   GraftValueStyle   style,
                   GraftArg         *out)
{
  g_return_val_if_fail (vr->read_ref != NULL, FALSE);

  g_clear_pointer (&vr->message, g_free);
  return parse_value (vr, style, out);
}
