/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-py-lexer.h: the Python tokenizer.  It is a pull lexer: the parser
 * asks for one token at a time, and a token is a kind, a few flags and a byte
 * span into the GraftSource, so tokenizing allocates nothing per token.
 * Decoding literals (numbers, escapes, f-string fields) is left to the parser.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-limits.h"
#include "graft-types.h"

G_BEGIN_DECLS

/**
 * GraftPyTokenKind:
 *
 * The kind of a token.  Operators, delimiters and keywords each have their
 * own kind; soft keywords (`match`, `case`, `type`, `_`) are names.
 * %GRAFT_PY_TOKEN_ERROR is never returned by the lexer: the parser uses it
 * for the place where the lexer failed.
 */
typedef enum {
  GRAFT_PY_TOKEN_ENDMARKER,
  GRAFT_PY_TOKEN_ERROR,
  GRAFT_PY_TOKEN_NAME,
  GRAFT_PY_TOKEN_NUMBER,
  GRAFT_PY_TOKEN_STRING,
  GRAFT_PY_TOKEN_NEWLINE,
  GRAFT_PY_TOKEN_INDENT,
  GRAFT_PY_TOKEN_DEDENT,

  /* Operators and delimiters */
  GRAFT_PY_TOKEN_LPAR,
  GRAFT_PY_TOKEN_RPAR,
  GRAFT_PY_TOKEN_LSQB,
  GRAFT_PY_TOKEN_RSQB,
  GRAFT_PY_TOKEN_LBRACE,
  GRAFT_PY_TOKEN_RBRACE,
  GRAFT_PY_TOKEN_COLON,
  GRAFT_PY_TOKEN_COMMA,
  GRAFT_PY_TOKEN_SEMI,
  GRAFT_PY_TOKEN_DOT,
  GRAFT_PY_TOKEN_ELLIPSIS,
  GRAFT_PY_TOKEN_RARROW,
  GRAFT_PY_TOKEN_COLONEQUAL,
  GRAFT_PY_TOKEN_EXCLAMATION,
  GRAFT_PY_TOKEN_EQUAL,
  GRAFT_PY_TOKEN_PLUS,
  GRAFT_PY_TOKEN_MINUS,
  GRAFT_PY_TOKEN_STAR,
  GRAFT_PY_TOKEN_SLASH,
  GRAFT_PY_TOKEN_DOUBLESLASH,
  GRAFT_PY_TOKEN_PERCENT,
  GRAFT_PY_TOKEN_DOUBLESTAR,
  GRAFT_PY_TOKEN_AT,
  GRAFT_PY_TOKEN_LEFTSHIFT,
  GRAFT_PY_TOKEN_RIGHTSHIFT,
  GRAFT_PY_TOKEN_AMPER,
  GRAFT_PY_TOKEN_VBAR,
  GRAFT_PY_TOKEN_CIRCUMFLEX,
  GRAFT_PY_TOKEN_TILDE,
  GRAFT_PY_TOKEN_LESS,
  GRAFT_PY_TOKEN_GREATER,
  GRAFT_PY_TOKEN_LESSEQUAL,
  GRAFT_PY_TOKEN_GREATEREQUAL,
  GRAFT_PY_TOKEN_EQEQUAL,
  GRAFT_PY_TOKEN_NOTEQUAL,
  GRAFT_PY_TOKEN_PLUSEQUAL,
  GRAFT_PY_TOKEN_MINEQUAL,
  GRAFT_PY_TOKEN_STAREQUAL,
  GRAFT_PY_TOKEN_SLASHEQUAL,
  GRAFT_PY_TOKEN_DOUBLESLASHEQUAL,
  GRAFT_PY_TOKEN_PERCENTEQUAL,
  GRAFT_PY_TOKEN_DOUBLESTAREQUAL,
  GRAFT_PY_TOKEN_ATEQUAL,
  GRAFT_PY_TOKEN_LEFTSHIFTEQUAL,
  GRAFT_PY_TOKEN_RIGHTSHIFTEQUAL,
  GRAFT_PY_TOKEN_AMPEREQUAL,
  GRAFT_PY_TOKEN_VBAREQUAL,
  GRAFT_PY_TOKEN_CIRCUMFLEXEQUAL,

  /* Keywords */
  GRAFT_PY_TOKEN_KW_FALSE,
  GRAFT_PY_TOKEN_KW_NONE,
  GRAFT_PY_TOKEN_KW_TRUE,
  GRAFT_PY_TOKEN_KW_AND,
  GRAFT_PY_TOKEN_KW_AS,
  GRAFT_PY_TOKEN_KW_ASSERT,
  GRAFT_PY_TOKEN_KW_ASYNC,
  GRAFT_PY_TOKEN_KW_AWAIT,
  GRAFT_PY_TOKEN_KW_BREAK,
  GRAFT_PY_TOKEN_KW_CLASS,
  GRAFT_PY_TOKEN_KW_CONTINUE,
  GRAFT_PY_TOKEN_KW_DEF,
  GRAFT_PY_TOKEN_KW_DEL,
  GRAFT_PY_TOKEN_KW_ELIF,
  GRAFT_PY_TOKEN_KW_ELSE,
  GRAFT_PY_TOKEN_KW_EXCEPT,
  GRAFT_PY_TOKEN_KW_FINALLY,
  GRAFT_PY_TOKEN_KW_FOR,
  GRAFT_PY_TOKEN_KW_FROM,
  GRAFT_PY_TOKEN_KW_GLOBAL,
  GRAFT_PY_TOKEN_KW_IF,
  GRAFT_PY_TOKEN_KW_IMPORT,
  GRAFT_PY_TOKEN_KW_IN,
  GRAFT_PY_TOKEN_KW_IS,
  GRAFT_PY_TOKEN_KW_LAMBDA,
  GRAFT_PY_TOKEN_KW_NONLOCAL,
  GRAFT_PY_TOKEN_KW_NOT,
  GRAFT_PY_TOKEN_KW_OR,
  GRAFT_PY_TOKEN_KW_PASS,
  GRAFT_PY_TOKEN_KW_RAISE,
  GRAFT_PY_TOKEN_KW_RETURN,
  GRAFT_PY_TOKEN_KW_TRY,
  GRAFT_PY_TOKEN_KW_WHILE,
  GRAFT_PY_TOKEN_KW_WITH,
  GRAFT_PY_TOKEN_KW_YIELD,

  GRAFT_PY_N_TOKEN_KINDS,
} GraftPyTokenKind;

/**
 * GraftPyTokenFlags:
 * @GRAFT_PY_TOKEN_FLAG_INT: a NUMBER that is an integer
 * @GRAFT_PY_TOKEN_FLAG_FLOAT: a NUMBER with a fraction or an exponent
 * @GRAFT_PY_TOKEN_FLAG_IMAGINARY: a NUMBER ending in `j`
 * @GRAFT_PY_TOKEN_FLAG_RAW: a STRING with an `r` prefix
 * @GRAFT_PY_TOKEN_FLAG_BYTES: a STRING with a `b` prefix
 * @GRAFT_PY_TOKEN_FLAG_FORMAT: a STRING with an `f` prefix
 * @GRAFT_PY_TOKEN_FLAG_TRIPLE: a STRING in triple quotes
 */
typedef enum {
  GRAFT_PY_TOKEN_FLAG_INT = 1 << 0,
  GRAFT_PY_TOKEN_FLAG_FLOAT = 1 << 1,
  GRAFT_PY_TOKEN_FLAG_IMAGINARY = 1 << 2,
  GRAFT_PY_TOKEN_FLAG_RAW = 1 << 3,
  GRAFT_PY_TOKEN_FLAG_BYTES = 1 << 4,
  GRAFT_PY_TOKEN_FLAG_FORMAT = 1 << 5,
  GRAFT_PY_TOKEN_FLAG_TRIPLE = 1 << 6,
} GraftPyTokenFlags;

/**
 * GraftPyToken:
 * @kind: what the token is
 * @flags: #GraftPyTokenFlags for NUMBER and STRING tokens, 0 otherwise
 * @start: byte offset of its first byte in the source
 * @end: byte offset just past it (a DEDENT, and the NEWLINE added at the end
 *   of a file that lacks one, are empty)
 *
 * A STRING token spans its prefix and both quotes.  Offsets fit in 32 bits
 * because inputs are smaller than %GRAFT_MAX_INPUT_BYTES.
 */
typedef struct
{
  GraftPyTokenKind kind;
  guint            flags;
  guint32          start;
  guint32          end;
} GraftPyToken;

/**
 * GraftPyLexer:
 *
 * The state of the tokenizer.  It lives on the caller's stack (it holds the
 * indentation and bracket stacks inline, so it never allocates); its fields
 * are private.  It borrows its source, which must outlive it.
 */
typedef struct
{
  /*< private >*/
  GraftSource *source;
  const char  *text;
  gsize        pos;
  gsize        end;
  gsize        bad_utf8; /* first invalid byte, or G_MAXSIZE */
  gboolean     at_line_start;
  gboolean     line_has_tokens;
  gboolean     embedded; /* inside an f-string replacement field */
  gboolean     mid_line; /* not embedded, no dedents pending, not at a line start */
  guint        pending_dedents;
  guint32      dedent_pos;
  guint        n_indents;
  guint        indents[GRAFT_MAX_PARSE_DEPTH + 1];
  guint        alt_indents[GRAFT_MAX_PARSE_DEPTH + 1];
  guint        n_brackets;
  guint32      bracket_pos[GRAFT_MAX_PARSE_DEPTH];
} GraftPyLexer;

void        graft_py_lexer_init (GraftPyLexer *self,
                                 GraftSource  *source);
void        graft_py_lexer_init_embedded (GraftPyLexer *self,
                                          GraftSource  *source,
                                          gsize         start,
                                          gsize         end);
gboolean    graft_py_lexer_next (GraftPyLexer *self,
                                 GraftPyToken *out_token,
                                 GError      **error);
guint       graft_py_lexer_get_bracket_depth (GraftPyLexer *self);
gsize       graft_py_lexer_get_innermost_bracket (GraftPyLexer *self);
const char *graft_py_token_kind_get_name (GraftPyTokenKind kind);

/* For each first byte, the lengths of the keywords that start with it, as
 * bits: most names are ruled out without looking at more bytes. */
extern const guint16 _graft_py_keyword_lengths[256];

/* [A-Za-z0-9_]: the bytes of a name after its first, within ASCII. */
extern const guint8 _graft_py_id_char[256];

/* Reads the decimal digits of @text from @start up to @end or the first
 * other byte, at most 18 of them (so the value fits), into @out_value.
 *
 * Returns: where it stopped */
static inline gsize
_graft_py_read_decimal (const char *text,
                        gsize       start,
                        gsize       end,
                        gint64     *out_value)
{
  gint64 value = 0;
  gsize  i;

  for (i = start; i < end && text[i] >= '0' && text[i] <= '9'; i++)
    value = value * 10 + (text[i] - '0');
  *out_value = value;
  return i;
}

/* Whether a name of @len bytes starting with @c may be a keyword. */
static inline gboolean
_graft_py_may_be_keyword (guchar c,
                          gsize  len)
{
  return len < 16 && (_graft_py_keyword_lengths[c] & (1u << len)) != 0;
}

/* Puts @self at @pos, the start of a line, as it is after it has read the
 * NEWLINE token before it: for a caller that read that line itself. */
static inline void
_graft_py_lexer_set_line_start (GraftPyLexer *self,
                                gsize         pos)
{
  self->pos = pos;
  self->at_line_start = TRUE;
  self->mid_line = FALSE;
  self->line_has_tokens = FALSE;
}

G_END_DECLS
