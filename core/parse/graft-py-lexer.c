/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-py-lexer.c: the Python tokenizer.  It turns the text of a
 * GraftSource into tokens on demand, following Python's lexical rules:
 * logical lines end in NEWLINE, indentation changes become INDENT and DEDENT
 * (a tab advances to the next multiple of 8, and an indentation that only
 * compares consistently under one tab size is an error), blank and
 * comment-only lines produce nothing, brackets join lines implicitly and a
 * backslash joins them explicitly.  Numbers and strings are checked for their
 * shape here, but their values are decoded by the parser, which owns the
 * memory they go to.  Brackets are matched here so that a stray or unclosed
 * one is reported where it is.
 */
#include "config.h"

#include "graft-py-lexer.h"
#include "graft-py-fast-line-private.h"
#include "graft-error.h"
#include "graft-source.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static const char *const token_names[GRAFT_PY_N_TOKEN_KINDS] = {
  [GRAFT_PY_TOKEN_ENDMARKER] = "end of file",
  [GRAFT_PY_TOKEN_ERROR] = "error",
  [GRAFT_PY_TOKEN_NAME] = "name",
  [GRAFT_PY_TOKEN_NUMBER] = "number",
  [GRAFT_PY_TOKEN_STRING] = "string",
  [GRAFT_PY_TOKEN_NEWLINE] = "newline",
  [GRAFT_PY_TOKEN_INDENT] = "indent",
  [GRAFT_PY_TOKEN_DEDENT] = "dedent",
  [GRAFT_PY_TOKEN_LPAR] = "(",
  [GRAFT_PY_TOKEN_RPAR] = ")",
  [GRAFT_PY_TOKEN_LSQB] = "[",
  [GRAFT_PY_TOKEN_RSQB] = "]",
  [GRAFT_PY_TOKEN_LBRACE] = "{",
  [GRAFT_PY_TOKEN_RBRACE] = "}",
  [GRAFT_PY_TOKEN_COLON] = ":",
  [GRAFT_PY_TOKEN_COMMA] = ",",
  [GRAFT_PY_TOKEN_SEMI] = ";",
  [GRAFT_PY_TOKEN_DOT] = ".",
  [GRAFT_PY_TOKEN_ELLIPSIS] = "...",
  [GRAFT_PY_TOKEN_RARROW] = "->",
  [GRAFT_PY_TOKEN_COLONEQUAL] = ":=",
  [GRAFT_PY_TOKEN_EXCLAMATION] = "!",
  [GRAFT_PY_TOKEN_EQUAL] = "=",
  [GRAFT_PY_TOKEN_PLUS] = "+",
  [GRAFT_PY_TOKEN_MINUS] = "-",
  [GRAFT_PY_TOKEN_STAR] = "*",
  [GRAFT_PY_TOKEN_SLASH] = "/",
  [GRAFT_PY_TOKEN_DOUBLESLASH] = "//",
  [GRAFT_PY_TOKEN_PERCENT] = "%",
  [GRAFT_PY_TOKEN_DOUBLESTAR] = "**",
  [GRAFT_PY_TOKEN_AT] = "@",
  [GRAFT_PY_TOKEN_LEFTSHIFT] = "<<",
  [GRAFT_PY_TOKEN_RIGHTSHIFT] = ">>",
  [GRAFT_PY_TOKEN_AMPER] = "&",
  [GRAFT_PY_TOKEN_VBAR] = "|",
  [GRAFT_PY_TOKEN_CIRCUMFLEX] = "^",
  [GRAFT_PY_TOKEN_TILDE] = "~",
  [GRAFT_PY_TOKEN_LESS] = "<",
  [GRAFT_PY_TOKEN_GREATER] = ">",
  [GRAFT_PY_TOKEN_LESSEQUAL] = "<=",
  [GRAFT_PY_TOKEN_GREATEREQUAL] = ">=",
  [GRAFT_PY_TOKEN_EQEQUAL] = "==",
  [GRAFT_PY_TOKEN_NOTEQUAL] = "!=",
  [GRAFT_PY_TOKEN_PLUSEQUAL] = "+=",
  [GRAFT_PY_TOKEN_MINEQUAL] = "-=",
  [GRAFT_PY_TOKEN_STAREQUAL] = "*=",
  [GRAFT_PY_TOKEN_SLASHEQUAL] = "/=",
  [GRAFT_PY_TOKEN_DOUBLESLASHEQUAL] = "//=",
  [GRAFT_PY_TOKEN_PERCENTEQUAL] = "%=",
  [GRAFT_PY_TOKEN_DOUBLESTAREQUAL] = "**=",
  [GRAFT_PY_TOKEN_ATEQUAL] = "@=",
  [GRAFT_PY_TOKEN_LEFTSHIFTEQUAL] = "<<=",
  [GRAFT_PY_TOKEN_RIGHTSHIFTEQUAL] = ">>=",
  [GRAFT_PY_TOKEN_AMPEREQUAL] = "&=",
  [GRAFT_PY_TOKEN_VBAREQUAL] = "|=",
  [GRAFT_PY_TOKEN_CIRCUMFLEXEQUAL] = "^=",
  [GRAFT_PY_TOKEN_KW_FALSE] = "False",
  [GRAFT_PY_TOKEN_KW_NONE] = "None",
  [GRAFT_PY_TOKEN_KW_TRUE] = "True",
  [GRAFT_PY_TOKEN_KW_AND] = "and",
  [GRAFT_PY_TOKEN_KW_AS] = "as",
  [GRAFT_PY_TOKEN_KW_ASSERT] = "assert",
  [GRAFT_PY_TOKEN_KW_ASYNC] = "async",
  [GRAFT_PY_TOKEN_KW_AWAIT] = "await",
  [GRAFT_PY_TOKEN_KW_BREAK] = "break",
  [GRAFT_PY_TOKEN_KW_CLASS] = "class",
  [GRAFT_PY_TOKEN_KW_CONTINUE] = "continue",
  [GRAFT_PY_TOKEN_KW_DEF] = "def",
  [GRAFT_PY_TOKEN_KW_DEL] = "del",
  [GRAFT_PY_TOKEN_KW_ELIF] = "elif",
  [GRAFT_PY_TOKEN_KW_ELSE] = "else",
  [GRAFT_PY_TOKEN_KW_EXCEPT] = "except",
  [GRAFT_PY_TOKEN_KW_FINALLY] = "finally",
  [GRAFT_PY_TOKEN_KW_FOR] = "for",
  [GRAFT_PY_TOKEN_KW_FROM] = "from",
  [GRAFT_PY_TOKEN_KW_GLOBAL] = "global",
  [GRAFT_PY_TOKEN_KW_IF] = "if",
  [GRAFT_PY_TOKEN_KW_IMPORT] = "import",
  [GRAFT_PY_TOKEN_KW_IN] = "in",
  [GRAFT_PY_TOKEN_KW_IS] = "is",
  [GRAFT_PY_TOKEN_KW_LAMBDA] = "lambda",
  [GRAFT_PY_TOKEN_KW_NONLOCAL] = "nonlocal",
  [GRAFT_PY_TOKEN_KW_NOT] = "not",
  [GRAFT_PY_TOKEN_KW_OR] = "or",
  [GRAFT_PY_TOKEN_KW_PASS] = "pass",
  [GRAFT_PY_TOKEN_KW_RAISE] = "raise",
  [GRAFT_PY_TOKEN_KW_RETURN] = "return",
  [GRAFT_PY_TOKEN_KW_TRY] = "try",
  [GRAFT_PY_TOKEN_KW_WHILE] = "while",
  [GRAFT_PY_TOKEN_KW_WITH] = "with",
  [GRAFT_PY_TOKEN_KW_YIELD] = "yield",
};

/**
 * graft_py_token_kind_get_name:
 * @kind: a token kind
 *
 * Returns: (transfer none): the text of an operator or keyword (`:`, `if`),
 *   or a description of other kinds (`name`, `newline`, `end of file`)
 */
const char *
graft_py_token_kind_get_name (GraftPyTokenKind kind)
{
  g_return_val_if_fail (kind < GRAFT_PY_N_TOKEN_KINDS, "?");
  return token_names[kind];
}

/* Returns the offset of the first byte in [start, end) that is NUL or not
 * part of valid UTF-8, or G_MAXSIZE.  Source code is nearly all ASCII, so
 * eight bytes are checked at a time until a byte with its high bit set or a
 * zero byte shows up. */
static gsize
find_bad_utf8 (const char *text,
               gsize       start,
               gsize       end)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  const guint64 highs = G_GUINT64_CONSTANT (0x8080808080808080);
  gsize         i = start;

  while (i < end)
    {
      guchar c;

#if defined(__SSE2__)
      /* Sixteen bytes at a time where SSE2 is there (all of x86-64): a
       * byte that is zero or has its high bit set stops the run. */
      while (i + 16 <= end)
        {
          __m128i v = _mm_loadu_si128 ((const __m128i *) (const void *) (text + i));
          __m128i zero = _mm_cmpeq_epi8 (v, _mm_setzero_si128 ());

          if (_mm_movemask_epi8 (_mm_or_si128 (v, zero)) != 0)
            break;
          i += 16;
        }
#endif
      while (i + 8 <= end)
        {
          guint64 w;

          memcpy (&w, text + i, sizeof w);
          if ((w & highs) != 0 || ((w - ones) & ~w & highs) != 0)
            break;
          i += 8;
        }
      if (i >= end)
        break;
      c = text[i];
      if (c == '\0')
        return i;
      if (c < 0x80)
        i++;
      else
        {
          gunichar u = g_utf8_get_char_validated (text + i, end - i);

          if (u == (gunichar) -1 || u == (gunichar) -2)
            return i;
          i = g_utf8_next_char (text + i) - text;
        }
    }
  return G_MAXSIZE;
}

/* How far into a file git and GNU diff look for a NUL byte to tell a
 * binary file from a text. */
#define BINARY_SNIFF_BYTES 8000u

/* Whether the bad byte at @at (NUL, not UTF-8 or a control character)
 * says that the source is no text at all (`graft code /usr/bin/ls`): a
 * NUL byte in its first BINARY_SNIFF_BYTES, as git and GNU diff tell a
 * binary file, and @at on its first line, where a binary format's magic
 * number is (`\x7FELF`, `\x89PNG`, `PK\5\6`).  A text with a stray NUL
 * byte further down (tests/data/errors/nul_bytes.py) is still a text, as
 * Python says. */
static gboolean
is_binary_file (GraftPyLexer *self,
                gsize         at)
{
  gsize length = graft_source_get_length (self->source);

  return memchr (self->text, '\n', at) == NULL &&
         memchr (self->text, '\0', MIN (length, BINARY_SNIFF_BYTES)) != NULL;
}

static void
lexer_setup (GraftPyLexer *self,
             GraftSource  *source,
             gsize         start,
             gsize         end)
{
  memset (self, 0, sizeof *self);
  self->source = source;
  self->text = graft_source_get_text (source);
  self->pos = start;
  self->end = end;
  self->n_indents = 1;
  self->indents[0] = 0;
  self->alt_indents[0] = 0;

  /* Find the first byte that is not UTF-8 (or is NUL) once; the lexer
   * reports it when it reaches it, so that earlier errors come first. */
  self->bad_utf8 = find_bad_utf8 (self->text, start, end);
}

/**
 * graft_py_lexer_init:
 * @self: the lexer to set up
 * @source: (transfer none): the source to tokenize; it must outlive @self
 *
 * Prepares @self to tokenize a whole file.  A UTF-8 byte-order mark at its
 * start is skipped.
 */
void
graft_py_lexer_init (GraftPyLexer *self,
                     GraftSource  *source)
{
  gsize length;

  g_return_if_fail (self != NULL);
  g_return_if_fail (source != NULL);

  length = graft_source_get_length (source);
  lexer_setup (self, source, 0, length);
  if (length >= 3 && memcmp (self->text, "\xEF\xBB\xBF", 3) == 0)
    self->pos = 3;
  self->at_line_start = TRUE;
  /* A binary file is said to be one at its first token: the bytes before
   * its first bad one were read as Python, and their syntax error came
   * first (`!` and a NUL, /proc/self/auxv: "invalid syntax" at 1:1).  Its
   * first bad byte is taken to be where the text starts, and the first
   * token, not at a line start, is next_slow()'s, which reports that byte
   * (bad_utf8_error(): at the start of the first line, a binary file). */
  if (self->bad_utf8 != G_MAXSIZE && is_binary_file (self, self->bad_utf8))
    {
      self->bad_utf8 = self->pos;
      self->at_line_start = FALSE;
    }
}

/**
 * graft_py_lexer_init_embedded:
 * @self: the lexer to set up
 * @source: (transfer none): the source; it must outlive @self
 * @start: byte offset where the expression starts
 * @end: byte offset where the enclosing string literal's content ends
 *
 * Prepares @self to tokenize the expression of an f-string replacement field.
 * Line breaks are ignored as inside brackets, and the `}`, `:` or `!` that
 * ends the field is returned as a token rather than being an error; the
 * caller decides where the expression stops.
 */
void
graft_py_lexer_init_embedded (GraftPyLexer *self,
                              GraftSource  *source,
                              gsize         start,
                              gsize         end)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (source != NULL);
  g_return_if_fail (start <= end && end <= graft_source_get_length (source));

  lexer_setup (self, source, start, end);
  self->embedded = TRUE;
}

/**
 * graft_py_lexer_get_bracket_depth:
 *
 * Returns: how many brackets are open at the current position
 */
guint
graft_py_lexer_get_bracket_depth (GraftPyLexer *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_brackets;
}

/**
 * graft_py_lexer_get_innermost_bracket:
 *
 * Returns: the byte offset of the innermost open bracket; only meaningful
 *   when graft_py_lexer_get_bracket_depth() is not 0
 */
gsize
graft_py_lexer_get_innermost_bracket (GraftPyLexer *self)
{
  g_return_val_if_fail (self != NULL, 0);
  if (self->n_brackets == 0)
    return 0;
  return self->bracket_pos[self->n_brackets - 1];
}

/* Character classes of ASCII bytes, one load per byte (g_ascii_isalnum
 * and a comparison with '_' were a tenth of the lexer). */
enum {
  CLASS_ID_START = 1 << 0, /* [A-Za-z_] */
  CLASS_ID_CHAR = 1 << 1,  /* [A-Za-z0-9_] */
};

#define ID_START_AND_CHAR (CLASS_ID_START | CLASS_ID_CHAR)
static const guint8 ascii_class[128] = {
  ['0' ... '9'] = CLASS_ID_CHAR,
  ['A' ... 'Z'] = ID_START_AND_CHAR,
  ['a' ... 'z'] = ID_START_AND_CHAR,
  ['_'] = ID_START_AND_CHAR,
};
#undef ID_START_AND_CHAR

static inline gboolean
is_ascii_id_start (guchar c)
{
  return c < 0x80 && (ascii_class[c] & CLASS_ID_START) != 0;
}

static inline gboolean
is_ascii_id_char (guchar c)
{
  return c < 0x80 && (ascii_class[c] & CLASS_ID_CHAR) != 0;
}

static gboolean
is_id_start_char (gunichar c)
{
  if (c < 0x80)
    return is_ascii_id_start (c);
  if (g_unichar_isalpha (c))
    return TRUE;
  return g_unichar_type (c) == G_UNICODE_LETTER_NUMBER;
}

static gboolean
is_id_continue_char (gunichar c)
{
  if (is_id_start_char (c))
    return TRUE;
  switch (g_unichar_type (c))
    {
    case G_UNICODE_DECIMAL_NUMBER:
    case G_UNICODE_NON_SPACING_MARK:
    case G_UNICODE_SPACING_MARK:
    case G_UNICODE_CONNECT_PUNCTUATION:
      return TRUE;
    case G_UNICODE_CONTROL:
    case G_UNICODE_FORMAT:
    case G_UNICODE_UNASSIGNED:
    case G_UNICODE_PRIVATE_USE:
    case G_UNICODE_SURROGATE:
    case G_UNICODE_LOWERCASE_LETTER:
    case G_UNICODE_MODIFIER_LETTER:
    case G_UNICODE_OTHER_LETTER:
    case G_UNICODE_TITLECASE_LETTER:
    case G_UNICODE_UPPERCASE_LETTER:
    case G_UNICODE_ENCLOSING_MARK:
    case G_UNICODE_LETTER_NUMBER:
    case G_UNICODE_OTHER_NUMBER:
    case G_UNICODE_DASH_PUNCTUATION:
    case G_UNICODE_CLOSE_PUNCTUATION:
    case G_UNICODE_FINAL_PUNCTUATION:
    case G_UNICODE_INITIAL_PUNCTUATION:
    case G_UNICODE_OTHER_PUNCTUATION:
    case G_UNICODE_OPEN_PUNCTUATION:
    case G_UNICODE_CURRENCY_SYMBOL:
    case G_UNICODE_MODIFIER_SYMBOL:
    case G_UNICODE_MATH_SYMBOL:
    case G_UNICODE_OTHER_SYMBOL:
    case G_UNICODE_LINE_SEPARATOR:
    case G_UNICODE_PARAGRAPH_SEPARATOR:
    case G_UNICODE_SPACE_SEPARATOR:
    default:
      return FALSE;
    }
}

/* The error for a binary file: at 1:1, the file as a whole, as for an
 * empty one (a column in a binary file means nothing to its reader). */
static gboolean
binary_file_error (GraftPyLexer *self,
                   GError      **error)
{
  graft_set_error_at_offset (error, self->source, 0, 1, GRAFT_PARSE_ERROR_SYNTAX,
                             "not a text file (it holds NUL bytes): expected a "
                             "Python module, an FX graph listing, a DOT graph or a torch.export "
                             "program");
  return FALSE;
}

/* Reports the first invalid UTF-8 byte (or NUL byte) of the text. */
static gboolean
bad_utf8_error (GraftPyLexer *self,
                GError      **error)
{
  gsize at = self->bad_utf8;

  if (is_binary_file (self, at))
    return binary_file_error (self, error);
  if (self->text[at] == '\0')
    graft_set_error_at_offset (error, self->source, at, at + 1, GRAFT_PARSE_ERROR_SYNTAX,
                               "source code cannot contain null bytes");
  else
    graft_set_error_at_offset (error, self->source, at, at + 1, GRAFT_PARSE_ERROR_SYNTAX,
                               "the source is not valid UTF-8 (byte 0x%02x)",
                               (guchar) self->text[at]);
  return FALSE;
}

static gboolean
invalid_character_error (GraftPyLexer *self,
                         gsize         at,
                         GError      **error)
{
  gunichar c;
  char     buf[8] = { 0 };
  int      n;

  if (at >= self->bad_utf8)
    return bad_utf8_error (self, error);
  if (is_binary_file (self, at))
    return binary_file_error (self, error);
  c = g_utf8_get_char (self->text + at);
  n = g_unichar_to_utf8 (c, buf);
  if (g_unichar_isprint (c) && c != ' ')
    graft_set_error_at_offset (error, self->source, at, at + n, GRAFT_PARSE_ERROR_SYNTAX,
                               "invalid character '%s' (U+%04X)", buf, c);
  else
    graft_set_error_at_offset (error, self->source, at, at + n, GRAFT_PARSE_ERROR_SYNTAX,
                               "invalid non-printable character U+%04X", c);
  return FALSE;
}

static GraftPyTokenKind
keyword_kind (const char *s,
              gsize       len)
{
#define KW(word, kind)                                                  \
  if (len == sizeof word - 1 && memcmp (s, word, sizeof word - 1) == 0) \
    return GRAFT_PY_TOKEN_KW_##kind;

  switch (s[0])
    {
    case 'F':
      KW ("False", FALSE);
      break;
    case 'N':
      KW ("None", NONE);
      break;
    case 'T':
      KW ("True", TRUE);
      break;
    case 'a':
      KW ("and", AND);
      KW ("as", AS);
      KW ("assert", ASSERT);
      KW ("async", ASYNC);
      KW ("await", AWAIT);
      break;
    case 'b':
      KW ("break", BREAK);
      break;
    case 'c':
      KW ("class", CLASS);
      KW ("continue", CONTINUE);
      break;
    case 'd':
      KW ("def", DEF);
      KW ("del", DEL);
      break;
    case 'e':
      KW ("elif", ELIF);
      KW ("else", ELSE);
      KW ("except", EXCEPT);
      break;
    case 'f':
      KW ("finally", FINALLY);
      KW ("for", FOR);
      KW ("from", FROM);
      break;
    case 'g':
      KW ("global", GLOBAL);
      break;
    case 'i':
      KW ("if", IF);
      KW ("import", IMPORT);
      KW ("in", IN);
      KW ("is", IS);
      break;
    case 'l':
      KW ("lambda", LAMBDA);
      break;
    case 'n':
      KW ("nonlocal", NONLOCAL);
      KW ("not", NOT);
      break;
    case 'o':
      KW ("or", OR);
      break;
    case 'p':
      KW ("pass", PASS);
      break;
    case 'r':
      KW ("raise", RAISE);
      KW ("return", RETURN);
      break;
    case 't':
      KW ("try", TRY);
      break;
    case 'w':
      KW ("while", WHILE);
      KW ("with", WITH);
      break;
    case 'y':
      KW ("yield", YIELD);
      break;
    default:
      break;
    }
#undef KW
  return GRAFT_PY_TOKEN_NAME;
}

/**
 * _graft_py_keyword_kind:
 *
 * Returns: the keyword @s (@len bytes) spells, or %GRAFT_PY_TOKEN_NAME
 */
GraftPyTokenKind
_graft_py_keyword_kind (const char *s,
                        gsize       len)
{
  return keyword_kind (s, len);
}

/* Returns the string flags for a prefix such as `rb` or `F`, or -1 if the
 * letters are not a valid prefix. */
static int
string_prefix_flags (const char *s,
                     gsize       len)
{
  int flags = 0;

  for (gsize i = 0; i < len; i++)
    {
      int bit;

      switch (s[i])
        {
        case 'r':
        case 'R':
          bit = GRAFT_PY_TOKEN_FLAG_RAW;
          break;
        case 'b':
        case 'B':
          bit = GRAFT_PY_TOKEN_FLAG_BYTES;
          break;
        case 'f':
        case 'F':
          bit = GRAFT_PY_TOKEN_FLAG_FORMAT;
          break;
        case 'u':
        case 'U':
          if (len != 1)
            return -1;
          bit = 0;
          break;
        default:
          return -1;
        }
      if ((flags & bit) != 0)
        return -1;
      flags |= bit;
    }
  if ((flags & GRAFT_PY_TOKEN_FLAG_BYTES) != 0 && (flags & GRAFT_PY_TOKEN_FLAG_FORMAT) != 0)
    return -1;
  return flags;
}

static inline gboolean
at_newline (const char *p)
{
  return *p == '\n' || *p == '\r';
}

/* Scans a string literal whose quote is at @quote.  @start is the start of
 * the prefix, for the token and for errors. */
static gboolean
lex_string (GraftPyLexer *self,
            gsize         start,
            gsize         quote,
            int           flags,
            GraftPyToken *tok,
            GError      **error)
{
  const char *t = self->text;
  char        q = t[quote];
  gsize       p = quote + 1;
  gboolean    triple = FALSE;

  if (quote + 2 < self->end && t[quote + 1] == q && t[quote + 2] == q)
    {
      triple = TRUE;
      flags |= GRAFT_PY_TOKEN_FLAG_TRIPLE;
      p = quote + 3;
    }

  for (;;)
    {
      if (p >= self->end)
        {
          graft_set_error_at_offset (error, self->source, start, quote + (triple ? 3 : 1),
                                     GRAFT_PARSE_ERROR_SYNTAX,
                                     triple ? "unterminated triple-quoted string literal"
                                            : "unterminated string literal");
          return FALSE;
        }
      if (t[p] == '\\')
        {
          p++;
          if (p < self->end)
            {
              if (t[p] == '\r' && p + 1 < self->end && t[p + 1] == '\n')
                p++;
              p++;
            }
          continue;
        }
      if (t[p] == q)
        {
          if (!triple)
            {
              p++;
              break;
            }
          if (p + 2 < self->end && t[p + 1] == q && t[p + 2] == q)
            {
              p += 3;
              break;
            }
        }
      else if (!triple && at_newline (t + p))
        {
          graft_set_error_at_offset (error, self->source, start, quote + 1,
                                     GRAFT_PARSE_ERROR_SYNTAX, "unterminated string literal");
          return FALSE;
        }
      p++;
    }

  self->pos = p;
  tok->kind = GRAFT_PY_TOKEN_STRING;
  tok->flags = flags;
  tok->start = start;
  tok->end = p;
  return TRUE;
}

/* Scans digits of a base with single underscores between them, starting at
 * *p.  Returns FALSE if an underscore is not followed by a digit; *p is left
 * after the last digit. */
static gboolean
scan_digits (const char *t,
             gsize      *p,
             gsize       end,
             int         base)
{
  for (;;)
    {
      gsize    q = *p;
      gboolean underscore = FALSE;

      if (q < end && t[q] == '_')
        {
          underscore = TRUE;
          q++;
        }
      if (q < end && g_ascii_isxdigit (t[q]) && g_ascii_xdigit_value (t[q]) < base &&
          (base == 16 || g_ascii_isdigit (t[q])))
        {
          *p = q + 1;
          continue;
        }
      return !underscore;
    }
}

static gboolean
number_error (GraftPyLexer *self,
              gsize         start,
              gsize         at,
              const char   *what,
              GError      **error)
{
  graft_set_error_at_offset (error, self->source, start, MAX (at, start + 1),
                             GRAFT_PARSE_ERROR_SYNTAX, "invalid %s literal", what);
  return FALSE;
}

static inline gboolean
continues_number (const char *t,
                  gsize       p,
                  gsize       end)
{
  return p < end && (is_ascii_id_char (t[p]) || (guchar) t[p] >= 0x80);
}

static gboolean
lex_number (GraftPyLexer *self,
            gsize         start,
            GraftPyToken *tok,
            GError      **error)
{
  const char *t = self->text;
  gsize       end = self->end;
  gsize       p = start;
  int         flags = GRAFT_PY_TOKEN_FLAG_INT;

  if (t[p] == '0' && p + 1 < end && strchr ("xXoObB", t[p + 1]) != NULL && t[p + 1] != '\0')
    {
      char        k = g_ascii_tolower (t[p + 1]);
      int         base = k == 'x' ? 16 : k == 'o' ? 8
                                                  : 2;
      const char *what = k == 'x' ? "hexadecimal" : k == 'o' ? "octal"
                                                             : "binary";
      gsize       digits;
      gboolean    ok;

      p += 2;
      digits = p;
      ok = scan_digits (t, &p, end, base);
      if (p < end && g_ascii_isdigit (t[p]))
        {
          graft_set_error_at_offset (error, self->source, p, p + 1, GRAFT_PARSE_ERROR_SYNTAX,
                                     "invalid digit '%c' in %s literal", t[p], what);
          return FALSE;
        }
      if (!ok || p == digits || continues_number (t, p, end))
        return number_error (self, start, p, what, error);
    }
  else
    {
      gsize int_end;

      if (t[p] != '.')
        {
          if (!scan_digits (t, &p, end, 10))
            return number_error (self, start, p, "decimal", error);
        }
      int_end = p;
      if (p < end && t[p] == '.')
        {
          flags = GRAFT_PY_TOKEN_FLAG_FLOAT;
          p++;
          if (p < end && g_ascii_isdigit (t[p]))
            {
              if (!scan_digits (t, &p, end, 10))
                return number_error (self, start, p, "decimal", error);
            }
        }
      if (p < end && (t[p] == 'e' || t[p] == 'E'))
        {
          gsize q = p + 1;

          if (q < end && (t[q] == '+' || t[q] == '-'))
            q++;
          if (q >= end || !g_ascii_isdigit (t[q]))
            return number_error (self, start, q, "decimal", error);
          p = q;
          if (!scan_digits (t, &p, end, 10))
            return number_error (self, start, p, "decimal", error);
          flags = GRAFT_PY_TOKEN_FLAG_FLOAT;
        }
      if (p < end && (t[p] == 'j' || t[p] == 'J'))
        {
          p++;
          flags = GRAFT_PY_TOKEN_FLAG_IMAGINARY;
        }
      if (continues_number (t, p, end))
        return number_error (self, start, p, "decimal", error);

      /* `0777` is how Python 2 wrote octal; Python 3 refuses it, but allows
       * zeros alone (`00`) and floats (`0777.5`). */
      if (flags == GRAFT_PY_TOKEN_FLAG_INT && t[start] == '0')
        {
          for (gsize i = start; i < int_end; i++)
            if (t[i] != '0' && t[i] != '_')
              {
                graft_set_error_at_offset (error, self->source, start, int_end,
                                           GRAFT_PARSE_ERROR_SYNTAX,
                                           "leading zeros in decimal integer literals are not "
                                           "permitted; "
                                           "use an 0o prefix for octal integers");
                return FALSE;
              }
        }
    }

  self->pos = p;
  tok->kind = GRAFT_PY_TOKEN_NUMBER;
  tok->flags = flags;
  tok->start = start;
  tok->end = p;
  return TRUE;
}

/* Scans an identifier or keyword at @start, or a string with a prefix. */
static gboolean
lex_name (GraftPyLexer *self,
          gsize         start,
          GraftPyToken *tok,
          GError      **error)
{
  const char *t = self->text;
  gsize       p = start;

  for (;;)
    {
      guchar c = t[p];

      if (p >= self->end)
        break;
      if (c < 0x80)
        {
          if (!is_ascii_id_char (c))
            break;
          p++;
        }
      else
        {
          gunichar u;

          if (p >= self->bad_utf8)
            return bad_utf8_error (self, error);
          u = g_utf8_get_char (t + p);
          if (p == start ? !is_id_start_char (u) : !is_id_continue_char (u))
            {
              if (p == start)
                return invalid_character_error (self, p, error);
              break;
            }
          p = g_utf8_next_char (t + p) - t;
        }
    }

  if (p - start <= 2 && p < self->end && (t[p] == '\'' || t[p] == '"'))
    {
      int flags = string_prefix_flags (t + start, p - start);

      if (flags >= 0)
        return lex_string (self, start, p, flags, tok, error);
    }

  self->pos = p;
  tok->kind = keyword_kind (t + start, p - start);
  tok->flags = 0;
  tok->start = start;
  tok->end = p;
  return TRUE;
}

static gboolean
push_bracket (GraftPyLexer *self,
              gsize         at,
              GError      **error)
{
  if (self->n_brackets >= GRAFT_MAX_PARSE_DEPTH)
    {
      graft_set_error_at_offset (error, self->source, at, at + 1, GRAFT_PARSE_ERROR_LIMIT,
                                 "too many nested parentheses");
      return FALSE;
    }
  self->bracket_pos[self->n_brackets++] = at;
  return TRUE;
}

/* Pops the bracket that @at closes.  In an f-string field the closing brace
 * of the field itself is not an error: it ends the expression. */
static gboolean
pop_bracket (GraftPyLexer *self,
             gsize         at,
             GError      **error)
{
  char  close = self->text[at];
  char  open;
  gsize open_at;

  if (self->n_brackets == 0)
    {
      if (self->embedded && close == '}')
        return TRUE;
      graft_set_error_at_offset (error, self->source, at, at + 1, GRAFT_PARSE_ERROR_SYNTAX,
                                 "unmatched '%c'", close);
      return FALSE;
    }
  open_at = self->bracket_pos[self->n_brackets - 1];
  open = self->text[open_at];
  if ((open == '(' && close != ')') || (open == '[' && close != ']') ||
      (open == '{' && close != '}'))
    {
      guint line, open_line;

      graft_source_locate (self->source, at, &line, NULL);
      graft_source_locate (self->source, open_at, &open_line, NULL);
      if (line != open_line)
        graft_set_error_at_offset (error, self->source, at, at + 1, GRAFT_PARSE_ERROR_SYNTAX,
                                   "closing '%c' does not match opening '%c' on line %u", close,
                                   open, open_line);
      else
        graft_set_error_at_offset (error, self->source, at, at + 1, GRAFT_PARSE_ERROR_SYNTAX,
                                   "closing '%c' does not match opening '%c'", close, open);
      return FALSE;
    }
  self->n_brackets--;
  return TRUE;
}

/* The kind of an operator whose first character c0 may be doubled and
 * either form followed by '=' (`*`, `**`, `*=`, `**=`), and its length. */
static GraftPyTokenKind
pick_doubled (char             c0,
              char             c1,
              char             c2,
              GraftPyTokenKind doubled_equal,
              GraftPyTokenKind doubled,
              GraftPyTokenKind equal,
              GraftPyTokenKind single,
              gsize           *len)
{
  if (c1 == c0)
    {
      *len = c2 == '=' ? 3 : 2;
      return c2 == '=' ? doubled_equal : doubled;
    }
  *len = c1 == '=' ? 2 : 1;
  return c1 == '=' ? equal : single;
}

/* Scans an operator or delimiter at @start. */
static gboolean
lex_operator (GraftPyLexer *self,
              gsize         start,
              GraftPyToken *tok,
              GError      **error)
{
  const char      *t = self->text;
  char             c0 = t[start];
  char             c1 = start + 1 < self->end ? t[start + 1] : '\0';
  char             c2 = start + 2 < self->end ? t[start + 2] : '\0';
  GraftPyTokenKind kind;
  gsize            len = 1;

#define PICK2(ch, k2, k1) \
  if (c1 == (ch))         \
    {                     \
      kind = (k2);        \
      len = 2;            \
    }                     \
  else                    \
    {                     \
      kind = (k1);        \
    }

  switch (c0)
    {
    case '(':
    case '[':
    case '{':
      if (!push_bracket (self, start, error))
        return FALSE;
      kind = c0 == '(' ? GRAFT_PY_TOKEN_LPAR : c0 == '[' ? GRAFT_PY_TOKEN_LSQB
                                                         : GRAFT_PY_TOKEN_LBRACE;
      break;
    case ')':
    case ']':
    case '}':
      if (!pop_bracket (self, start, error))
        return FALSE;
      kind = c0 == ')' ? GRAFT_PY_TOKEN_RPAR : c0 == ']' ? GRAFT_PY_TOKEN_RSQB
                                                         : GRAFT_PY_TOKEN_RBRACE;
      break;
    case ':':
      PICK2 ('=', GRAFT_PY_TOKEN_COLONEQUAL, GRAFT_PY_TOKEN_COLON);
      break;
    case ',':
      kind = GRAFT_PY_TOKEN_COMMA;
      break;
    case ';':
      kind = GRAFT_PY_TOKEN_SEMI;
      break;
    case '.':
      if (c1 == '.' && c2 == '.')
        {
          kind = GRAFT_PY_TOKEN_ELLIPSIS;
          len = 3;
        }
      else
        kind = GRAFT_PY_TOKEN_DOT;
      break;
    case '=':
      PICK2 ('=', GRAFT_PY_TOKEN_EQEQUAL, GRAFT_PY_TOKEN_EQUAL);
      break;
    case '!':
      PICK2 ('=', GRAFT_PY_TOKEN_NOTEQUAL, GRAFT_PY_TOKEN_EXCLAMATION);
      break;
    case '+':
      PICK2 ('=', GRAFT_PY_TOKEN_PLUSEQUAL, GRAFT_PY_TOKEN_PLUS);
      break;
    case '-':
      if (c1 == '>')
        {
          kind = GRAFT_PY_TOKEN_RARROW;
          len = 2;
        }
      else
        PICK2 ('=', GRAFT_PY_TOKEN_MINEQUAL, GRAFT_PY_TOKEN_MINUS);
      break;
    case '*':
      kind = pick_doubled (c0, c1, c2, GRAFT_PY_TOKEN_DOUBLESTAREQUAL, GRAFT_PY_TOKEN_DOUBLESTAR,
                           GRAFT_PY_TOKEN_STAREQUAL, GRAFT_PY_TOKEN_STAR, &len);
      break;
    case '/':
      kind = pick_doubled (c0, c1, c2, GRAFT_PY_TOKEN_DOUBLESLASHEQUAL, GRAFT_PY_TOKEN_DOUBLESLASH,
                           GRAFT_PY_TOKEN_SLASHEQUAL, GRAFT_PY_TOKEN_SLASH, &len);
      break;
    case '%':
      PICK2 ('=', GRAFT_PY_TOKEN_PERCENTEQUAL, GRAFT_PY_TOKEN_PERCENT);
      break;
    case '@':
      PICK2 ('=', GRAFT_PY_TOKEN_ATEQUAL, GRAFT_PY_TOKEN_AT);
      break;
    case '&':
      PICK2 ('=', GRAFT_PY_TOKEN_AMPEREQUAL, GRAFT_PY_TOKEN_AMPER);
      break;
    case '|':
      PICK2 ('=', GRAFT_PY_TOKEN_VBAREQUAL, GRAFT_PY_TOKEN_VBAR);
      break;
    case '^':
      PICK2 ('=', GRAFT_PY_TOKEN_CIRCUMFLEXEQUAL, GRAFT_PY_TOKEN_CIRCUMFLEX);
      break;
    case '~':
      kind = GRAFT_PY_TOKEN_TILDE;
      break;
    case '<':
      kind = pick_doubled (c0, c1, c2, GRAFT_PY_TOKEN_LEFTSHIFTEQUAL, GRAFT_PY_TOKEN_LEFTSHIFT,
                           GRAFT_PY_TOKEN_LESSEQUAL, GRAFT_PY_TOKEN_LESS, &len);
      break;
    case '>':
      kind = pick_doubled (c0, c1, c2, GRAFT_PY_TOKEN_RIGHTSHIFTEQUAL, GRAFT_PY_TOKEN_RIGHTSHIFT,
                           GRAFT_PY_TOKEN_GREATEREQUAL, GRAFT_PY_TOKEN_GREATER, &len);
      break;
    default:
      return invalid_character_error (self, start, error);
    }
#undef PICK2

  self->pos = start + len;
  tok->kind = kind;
  tok->flags = 0;
  tok->start = start;
  tok->end = start + len;
  return TRUE;
}

static void
make_token (GraftPyToken    *tok,
            GraftPyTokenKind kind,
            gsize            start,
            gsize            end)
{
  tok->kind = kind;
  tok->flags = 0;
  tok->start = start;
  tok->end = end;
}

static gboolean
tab_error (GraftPyLexer *self,
           gsize         line_start,
           gsize         at,
           GError      **error)
{
  graft_set_error_at_offset (error, self->source, line_start, at, GRAFT_PARSE_ERROR_SYNTAX,
                             "inconsistent use of tabs and spaces in indentation");
  return FALSE;
}

/* Measures the indentation of the line starting at pos.  Returns TRUE and
 * sets *out_blank if the line holds no token; otherwise leaves pos at the
 * first token and queues INDENT or DEDENT tokens.  *out_indent is set if an
 * INDENT is to be returned now. */
static gboolean
handle_line_start (GraftPyLexer *self,
                   gboolean     *out_blank,
                   gboolean     *out_indent,
                   gsize        *out_line_start,
                   GError      **error)
{
  const char *t = self->text;
  gsize       line_start = self->pos;
  gsize       p = line_start;
  guint       col = 0, alt = 0;
  guint       top, alt_top;

  *out_blank = FALSE;
  *out_indent = FALSE;
  *out_line_start = line_start;

  for (; p < self->end; p++)
    {
      if (t[p] == ' ')
        {
          col++;
          alt++;
        }
      else if (t[p] == '\t')
        {
          col = (col / 8 + 1) * 8;
          alt++;
        }
      else if (t[p] == '\f')
        col = alt = 0;
      else
        break;
    }

  if (p >= self->end || t[p] == '#' || at_newline (t + p))
    {
      /* A blank or comment-only line; at the end of the file, the caller
       * closes the open blocks. */
      self->pos = p;
      *out_blank = TRUE;
      return TRUE;
    }

  self->pos = p;
  top = self->indents[self->n_indents - 1];
  alt_top = self->alt_indents[self->n_indents - 1];
  if (col == top)
    {
      if (alt != alt_top)
        return tab_error (self, line_start, p, error);
    }
  else if (col > top)
    {
      if (alt <= alt_top)
        return tab_error (self, line_start, p, error);
      if (self->n_indents > GRAFT_MAX_PARSE_DEPTH)
        {
          graft_set_error_at_offset (error, self->source, line_start, p, GRAFT_PARSE_ERROR_LIMIT,
                                     "too many levels of indentation");
          return FALSE;
        }
      self->indents[self->n_indents] = col;
      self->alt_indents[self->n_indents] = alt;
      self->n_indents++;
      *out_indent = TRUE;
    }
  else
    {
      while (self->n_indents > 1 && col < self->indents[self->n_indents - 1])
        {
          self->n_indents--;
          self->pending_dedents++;
        }
      if (col != self->indents[self->n_indents - 1])
        {
          graft_set_error_at_offset (error, self->source, p, p + 1, GRAFT_PARSE_ERROR_SYNTAX,
                                     "unindent does not match any outer indentation level");
          return FALSE;
        }
      if (alt != self->alt_indents[self->n_indents - 1])
        return tab_error (self, line_start, p, error);
      self->dedent_pos = p;
    }
  return TRUE;
}

static gboolean
next_token (GraftPyLexer *self,
            GraftPyToken *tok,
            GError      **error)
{
  const char *t = self->text;

  if (self->pending_dedents > 0)
    {
      self->pending_dedents--;
      make_token (tok, GRAFT_PY_TOKEN_DEDENT, self->dedent_pos, self->dedent_pos);
      return TRUE;
    }

  for (;;)
    {
      gsize start;
      char  c;

      if (self->at_line_start && self->n_brackets == 0 && !self->embedded)
        {
          gboolean blank, indent;
          gsize    line_start;

          if (!handle_line_start (self, &blank, &indent, &line_start, error))
            return FALSE;
          if (!blank)
            {
              self->at_line_start = FALSE;
              if (indent)
                {
                  make_token (tok, GRAFT_PY_TOKEN_INDENT, line_start, self->pos);
                  return TRUE;
                }
              if (self->pending_dedents > 0)
                {
                  self->pending_dedents--;
                  make_token (tok, GRAFT_PY_TOKEN_DEDENT, self->dedent_pos, self->dedent_pos);
                  return TRUE;
                }
            }
        }

      while (self->pos < self->end &&
             (t[self->pos] == ' ' || t[self->pos] == '\t' || t[self->pos] == '\f'))
        self->pos++;

      start = self->pos;
      if (start >= self->end)
        {
          if (self->embedded)
            {
              make_token (tok, GRAFT_PY_TOKEN_ENDMARKER, start, start);
              return TRUE;
            }
          if (self->n_brackets > 0)
            {
              gsize at = self->bracket_pos[self->n_brackets - 1];

              graft_set_error_at_offset (error, self->source, at, at + 1, GRAFT_PARSE_ERROR_SYNTAX,
                                         "'%c' was never closed", t[at]);
              return FALSE;
            }
          if (self->line_has_tokens)
            {
              self->line_has_tokens = FALSE;
              make_token (tok, GRAFT_PY_TOKEN_NEWLINE, start, start);
              return TRUE;
            }
          if (self->n_indents > 1)
            {
              self->n_indents--;
              make_token (tok, GRAFT_PY_TOKEN_DEDENT, start, start);
              return TRUE;
            }
          make_token (tok, GRAFT_PY_TOKEN_ENDMARKER, start, start);
          return TRUE;
        }

      c = t[start];
      if (c == '#')
        {
          if (self->embedded)
            {
              graft_set_error_at_offset (error, self->source, start, start + 1,
                                         GRAFT_PARSE_ERROR_SYNTAX,
                                         "f-string expression part cannot include '#'");
              return FALSE;
            }
          while (self->pos < self->end && !at_newline (t + self->pos))
            self->pos++;
          if (self->pos > self->bad_utf8)
            return bad_utf8_error (self, error);
          continue;
        }
      if (c == '\n' || c == '\r')
        {
          self->pos += (c == '\r' && start + 1 < self->end && t[start + 1] == '\n') ? 2 : 1;
          if (self->n_brackets > 0 || self->embedded)
            continue;
          self->at_line_start = TRUE;
          if (self->line_has_tokens)
            {
              self->line_has_tokens = FALSE;
              make_token (tok, GRAFT_PY_TOKEN_NEWLINE, start, self->pos);
              return TRUE;
            }
          continue;
        }
      if (c == '\\')
        {
          gsize p = start + 1;

          if (self->embedded)
            {
              graft_set_error_at_offset (error, self->source, start, start + 1,
                                         GRAFT_PARSE_ERROR_SYNTAX,
                                         "f-string expression part cannot include a backslash");
              return FALSE;
            }
          if (p >= self->end)
            {
              graft_set_error_at_offset (error, self->source, start, start + 1,
                                         GRAFT_PARSE_ERROR_SYNTAX,
                                         "unexpected end of file after a line continuation "
                                         "character");
              return FALSE;
            }
          if (at_newline (t + p))
            {
              p += (t[p] == '\r' && p + 1 < self->end && t[p + 1] == '\n') ? 2 : 1;
              if (p >= self->end)
                {
                  graft_set_error_at_offset (error, self->source, start, start + 1,
                                             GRAFT_PARSE_ERROR_SYNTAX,
                                             "unexpected end of file after a line continuation "
                                             "character");
                  return FALSE;
                }
              self->pos = p;
              continue;
            }
          graft_set_error_at_offset (error, self->source, start, start + 1,
                                     GRAFT_PARSE_ERROR_SYNTAX,
                                     "unexpected character after a line continuation character");
          return FALSE;
        }

      self->line_has_tokens = TRUE;
      if (is_ascii_id_start (c) || (guchar) c >= 0x80)
        return lex_name (self, start, tok, error);
      if (g_ascii_isdigit (c) ||
          (c == '.' && start + 1 < self->end && g_ascii_isdigit (t[start + 1])))
        return lex_number (self, start, tok, error);
      if (c == '\'' || c == '"')
        return lex_string (self, start, start, 0, tok, error);
      return lex_operator (self, start, tok, error);
    }
}

/* The lexer's fast path: the bytes that start (or separate) the tokens of
 * ordinary code, each with what graft_py_lexer_next() does with it without
 * going through next_token().  FAST_SLOW leaves the byte to next_token():
 * quotes, comments, backslashes, carriage returns, NUL and bytes beyond
 * ASCII (which may start a name or be invalid), and anything else rare. */
enum {
  FAST_SLOW = 0,
  FAST_BLANK,    /* ' ', '\t', '\f' between tokens */
  FAST_NAME,     /* [A-Za-z_]: a name or keyword */
  FAST_DIGIT,    /* a decimal integer without `_`, exponent or fraction */
  FAST_NEWLINE,  /* '\n' */
  FAST_OPEN,     /* ( [ { */
  FAST_CLOSE,    /* ) ] } */
  FAST_SINGLE,   /* , ; ~: one byte, whatever follows */
  FAST_OPERATOR, /* one byte, or two with a '=' */
  FAST_DOT,      /* '.' when neither '...' nor a number */
};

static const guint8 fast_class[256] = {
  [' '] = FAST_BLANK,
  ['\t'] = FAST_BLANK,
  ['\f'] = FAST_BLANK,
  ['A' ... 'Z'] = FAST_NAME,
  ['a' ... 'z'] = FAST_NAME,
  ['_'] = FAST_NAME,
  ['0' ... '9'] = FAST_DIGIT,
  ['\n'] = FAST_NEWLINE,
  ['('] = FAST_OPEN,
  ['['] = FAST_OPEN,
  ['{'] = FAST_OPEN,
  [')'] = FAST_CLOSE,
  [']'] = FAST_CLOSE,
  ['}'] = FAST_CLOSE,
  [','] = FAST_SINGLE,
  [';'] = FAST_SINGLE,
  ['~'] = FAST_SINGLE,
  ['='] = FAST_OPERATOR,
  [':'] = FAST_OPERATOR,
  ['!'] = FAST_OPERATOR,
  ['+'] = FAST_OPERATOR,
  ['-'] = FAST_OPERATOR,
  ['*'] = FAST_OPERATOR,
  ['/'] = FAST_OPERATOR,
  ['%'] = FAST_OPERATOR,
  ['@'] = FAST_OPERATOR,
  ['&'] = FAST_OPERATOR,
  ['|'] = FAST_OPERATOR,
  ['^'] = FAST_OPERATOR,
  ['<'] = FAST_OPERATOR,
  ['>'] = FAST_OPERATOR,
  ['.'] = FAST_DOT,
};

/* [A-Za-z0-9_], for the rest of a name. */
const guint8 _graft_py_id_char[256] = {
  ['0' ... '9'] = 1,
  ['A' ... 'Z'] = 1,
  ['a' ... 'z'] = 1,
  ['_'] = 1,
};

/* The token of a FAST_OPEN, FAST_CLOSE, FAST_SINGLE, FAST_OPERATOR or
 * FAST_DOT byte alone, and of a FAST_OPERATOR byte followed by '='. */
static const guint8 fast_kind[256] = {
  ['('] = GRAFT_PY_TOKEN_LPAR,
  [')'] = GRAFT_PY_TOKEN_RPAR,
  ['['] = GRAFT_PY_TOKEN_LSQB,
  [']'] = GRAFT_PY_TOKEN_RSQB,
  ['{'] = GRAFT_PY_TOKEN_LBRACE,
  ['}'] = GRAFT_PY_TOKEN_RBRACE,
  [','] = GRAFT_PY_TOKEN_COMMA,
  [';'] = GRAFT_PY_TOKEN_SEMI,
  ['~'] = GRAFT_PY_TOKEN_TILDE,
  ['.'] = GRAFT_PY_TOKEN_DOT,
  ['='] = GRAFT_PY_TOKEN_EQUAL,
  [':'] = GRAFT_PY_TOKEN_COLON,
  ['!'] = GRAFT_PY_TOKEN_EXCLAMATION,
  ['+'] = GRAFT_PY_TOKEN_PLUS,
  ['-'] = GRAFT_PY_TOKEN_MINUS,
  ['*'] = GRAFT_PY_TOKEN_STAR,
  ['/'] = GRAFT_PY_TOKEN_SLASH,
  ['%'] = GRAFT_PY_TOKEN_PERCENT,
  ['@'] = GRAFT_PY_TOKEN_AT,
  ['&'] = GRAFT_PY_TOKEN_AMPER,
  ['|'] = GRAFT_PY_TOKEN_VBAR,
  ['^'] = GRAFT_PY_TOKEN_CIRCUMFLEX,
  ['<'] = GRAFT_PY_TOKEN_LESS,
  ['>'] = GRAFT_PY_TOKEN_GREATER,
};

static const guint8 fast_kind_equal[256] = {
  ['='] = GRAFT_PY_TOKEN_EQEQUAL,
  [':'] = GRAFT_PY_TOKEN_COLONEQUAL,
  ['!'] = GRAFT_PY_TOKEN_NOTEQUAL,
  ['+'] = GRAFT_PY_TOKEN_PLUSEQUAL,
  ['-'] = GRAFT_PY_TOKEN_MINEQUAL,
  ['*'] = GRAFT_PY_TOKEN_STAREQUAL,
  ['/'] = GRAFT_PY_TOKEN_SLASHEQUAL,
  ['%'] = GRAFT_PY_TOKEN_PERCENTEQUAL,
  ['@'] = GRAFT_PY_TOKEN_ATEQUAL,
  ['&'] = GRAFT_PY_TOKEN_AMPEREQUAL,
  ['|'] = GRAFT_PY_TOKEN_VBAREQUAL,
  ['^'] = GRAFT_PY_TOKEN_CIRCUMFLEXEQUAL,
  ['<'] = GRAFT_PY_TOKEN_LESSEQUAL,
  ['>'] = GRAFT_PY_TOKEN_GREATEREQUAL,
};

/* For each first byte, the lengths of the keywords that start with it, as
 * bits: most names are ruled out without looking at more bytes. */
const guint16 _graft_py_keyword_lengths[256] = {
  ['F'] = 1 << 5,
  ['N'] = 1 << 4,
  ['T'] = 1 << 4,
  ['a'] = 1 << 2 | 1 << 3 | 1 << 5 | 1 << 6,
  ['b'] = 1 << 5,
  ['c'] = 1 << 5 | 1 << 8,
  ['d'] = 1 << 3,
  ['e'] = 1 << 4 | 1 << 6,
  ['f'] = 1 << 3 | 1 << 4 | 1 << 7,
  ['g'] = 1 << 6,
  ['i'] = 1 << 2 | 1 << 6,
  ['l'] = 1 << 6,
  ['n'] = 1 << 3 | 1 << 8,
  ['o'] = 1 << 2,
  ['p'] = 1 << 4,
  ['r'] = 1 << 5 | 1 << 6,
  ['t'] = 1 << 3,
  ['w'] = 1 << 4 | 1 << 5,
  ['y'] = 1 << 5,
};

/* next_token() and the check of the first bad byte, out of the fast
 * path's way. */
static G_GNUC_NO_INLINE gboolean
next_slow (GraftPyLexer *self,
           GraftPyToken *tok,
           GError      **error)
{
  if (!next_token (self, tok, error))
    return FALSE;
  self->mid_line = !self->embedded && self->pending_dedents == 0 && !self->at_line_start;

  /* A token that runs over the first bad byte is reported at that byte
   * rather than at the token, which may start lines earlier. */
  if (tok->end > self->bad_utf8)
    return bad_utf8_error (self, error);
  return TRUE;
}

/**
 * graft_py_lexer_next:
 * @self: a lexer
 * @out_token: (out): the next token
 * @error: return location for a #GRAFT_PARSE_ERROR
 *
 * Scans the next token.  After the ENDMARKER, further calls return
 * ENDMARKER again.  After an error, the lexer must not be used further.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
graft_py_lexer_next (GraftPyLexer *self,
                     GraftPyToken *out_token,
                     GError      **error)
{
  const guchar    *t = (const guchar *) self->text;
  gsize            p = self->pos;
  gsize            q;
  GraftPyTokenKind kind;
  guint            flags = 0;
  guchar           c;

  /* The fast path: the tokens of ordinary code, as next_token() would
   * make them, one byte class at a time.  It reads only ASCII bytes that
   * are not NUL, so it stops at the NUL byte that ends the text (an
   * embedded lexer's end is not there: it always takes the slow path) and
   * before any byte next_token() must judge; whatever it does not finish
   * it leaves to next_token() from where the token starts, with the state
   * untouched.  No g_return_val_if_fail here: this runs once per token. */
  if (G_UNLIKELY (!self->mid_line))
    {
      const guint64 spaces8 = G_GUINT64_CONSTANT (0x2020202020202020);
      guint         top = self->indents[self->n_indents - 1];

      if (self->embedded || self->pending_dedents > 0 || !self->at_line_start ||
          self->n_brackets > 0)
        return next_slow (self, out_token, error);

      /* A line indented with spaces as deep as the block, not blank:
       * no INDENT or DEDENT, only the first token. */
      q = p;
      /* Eight spaces at a time: indentations are multiples of four. */
      for (guint64 w; q + 8 <= self->end && (memcpy (&w, t + q, 8), w == spaces8);)
        q += 8;
      while (t[q] == ' ')
        q++;
      if (fast_class[t[q]] <= FAST_BLANK || fast_class[t[q]] == FAST_NEWLINE || q - p != top ||
          self->alt_indents[self->n_indents - 1] != top)
        return next_slow (self, out_token, error);
      self->at_line_start = FALSE;
      self->mid_line = TRUE;
      p = q;
    }

  for (;;)
    {
      /* Most tokens are separated by one space or none. */
      while (t[p] == ' ')
        p++;
      c = t[p];
      switch (fast_class[c])
        {
        case FAST_BLANK:
          p++;
          continue;
        case FAST_NAME:
          q = p + 1;
          while (_graft_py_id_char[t[q]])
            q++;
          /* A name that goes on beyond ASCII, or a string's prefix. */
          if (t[q] >= 0x80 || ((t[q] == '\'' || t[q] == '"') && q - p <= 2))
            goto slow;
          kind = _graft_py_may_be_keyword (c, q - p) ? keyword_kind ((const char *) t + p, q - p)
                                                     : GRAFT_PY_TOKEN_NAME;
          break;
        case FAST_DIGIT:
          q = p + 1;
          while (fast_class[t[q]] == FAST_DIGIT)
            q++;
          /* `0777`, `1_000`, `1e5`, `0x1f`, `2.5`, `3j`, `12é` */
          if (_graft_py_id_char[t[q]] || t[q] == '.' || t[q] >= 0x80 || (c == '0' && q - p > 1))
            goto slow;
          kind = GRAFT_PY_TOKEN_NUMBER;
          flags = GRAFT_PY_TOKEN_FLAG_INT;
          break;
        case FAST_NEWLINE:
          if (self->n_brackets > 0)
            {
              p++;
              continue;
            }
          if (!self->line_has_tokens)
            goto slow;
          _graft_py_lexer_set_line_start (self, p + 1);
          out_token->kind = GRAFT_PY_TOKEN_NEWLINE;
          out_token->flags = 0;
          out_token->start = p;
          out_token->end = p + 1;
          return TRUE;
        case FAST_OPEN:
          if (self->n_brackets >= GRAFT_MAX_PARSE_DEPTH)
            goto slow;
          self->bracket_pos[self->n_brackets++] = p;
          q = p + 1;
          kind = fast_kind[c];
          break;
        case FAST_CLOSE:
          {
            guchar open;

            if (self->n_brackets == 0)
              goto slow;
            open = t[self->bracket_pos[self->n_brackets - 1]];
            if (open != (c == ')' ? '(' : c == ']' ? '['
                                                   : '{'))
              goto slow;
            self->n_brackets--;
            q = p + 1;
            kind = fast_kind[c];
          }
          break;
        case FAST_SINGLE:
          q = p + 1;
          kind = fast_kind[c];
          break;
        case FAST_OPERATOR:
          if (t[p + 1] == '=')
            {
              q = p + 2;
              kind = fast_kind_equal[c];
              break;
            }
          /* `**`, `//`, `<<`, `>>` and `->`, with or without a '='. */
          if ((t[p + 1] == c && (c == '*' || c == '/' || c == '<' || c == '>')) ||
              (c == '-' && t[p + 1] == '>'))
            goto slow;
          q = p + 1;
          kind = fast_kind[c];
          break;
        case FAST_DOT:
          if (t[p + 1] == '.' || fast_class[t[p + 1]] == FAST_DIGIT)
            goto slow;
          q = p + 1;
          kind = GRAFT_PY_TOKEN_DOT;
          break;
        case FAST_SLOW:
        default:
          goto slow;
        }
      break;
    }

  self->line_has_tokens = TRUE;
  self->pos = q;
  out_token->kind = kind;
  out_token->flags = flags;
  out_token->start = p;
  out_token->end = q;
  return TRUE;

slow:
  self->pos = p;
  return next_slow (self, out_token, error);
}
