/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-py-fast-line.c: the parser's fast path for simple statement lines.
 *
 * Most lines of model code are an assignment or an expression statement
 * built from names, attributes, calls, subscripts, lists, numbers and the
 * arithmetic operators, on one line without strings or comments.  Such a
 * line is read here in two passes over the line alone: the first splits
 * its bytes into a small array of tokens and gives up, before anything is
 * allocated, at any byte or token outside that subset (quotes, `#`, `\`,
 * tabs, `\r`, non-ASCII bytes, keywords other than None, True and False,
 * comparison and augmented operators, braces, a newline inside brackets,
 * a long integer, a long line); the second builds the tree with the same
 * nodes, spans, contexts and interned names as the recursive descent of
 * graft-py-parser.c would, and gives up at any shape it does not know (a
 * tuple, a starred item, a keyword before a positional argument, a target
 * that is not a name, attribute or subscript).  Giving up is never an
 * error: the caller then parses the line the usual way, which reports
 * whatever is wrong with it, so errors and their locations are the usual
 * way's.  Giving up in the second pass leaves the nodes made so far unused
 * in the arena; the first pass makes that rare.
 */
#include "config.h"

#include "graft-py-fast-line-private.h"
#include "graft-limits.h"
#include "graft-py-ast-private.h"

#include <string.h>

/* At most this many tokens in a line (the NEWLINE included): longer lines
 * take the usual way.  It also bounds the recursion below. */
#define FAST_MAX_TOKENS 96

/* The tokens of the subset. */
enum {
  T_END, /* the NEWLINE */
  T_NAME,
  T_INT,
  T_FLOAT,
  T_NONE,
  T_TRUE,
  T_FALSE,
  T_LPAR,
  T_RPAR,
  T_LSQB,
  T_RSQB,
  T_COMMA,
  T_DOT,
  T_COLON,
  T_EQUAL,
  T_PLUS,
  T_MINUS,
  T_STAR,
  T_SLASH,
  T_PERCENT,
  T_AT,
};

/* What a byte starts, for the first pass; 0 gives up. */
enum {
  C_OTHER = 0,
  C_BLANK,
  C_NAME,
  C_DIGIT,
  C_NEWLINE,
  /* One-byte tokens (byte_token[]) */
  C_OPEN,     /* ( [ */
  C_CLOSE,    /* ) ] */
  C_COMMA,    /* , */
  C_DOT,      /* . */
  C_COLON,    /* : */
  C_OPERATOR, /* = + - * / % @ */
};

static const guint8 byte_class[256] = {
  [' '] = C_BLANK,
  ['A' ... 'Z'] = C_NAME,
  ['a' ... 'z'] = C_NAME,
  ['_'] = C_NAME,
  ['0' ... '9'] = C_DIGIT,
  ['\n'] = C_NEWLINE,
  ['('] = C_OPEN,
  [')'] = C_CLOSE,
  ['['] = C_OPEN,
  [']'] = C_CLOSE,
  [','] = C_COMMA,
  ['.'] = C_DOT,
  [':'] = C_COLON,
  ['='] = C_OPERATOR,
  ['+'] = C_OPERATOR,
  ['-'] = C_OPERATOR,
  ['*'] = C_OPERATOR,
  ['/'] = C_OPERATOR,
  ['%'] = C_OPERATOR,
  ['@'] = C_OPERATOR,
};

static const guint8 byte_token[256] = {
  ['('] = T_LPAR,
  [')'] = T_RPAR,
  ['['] = T_LSQB,
  [']'] = T_RSQB,
  [','] = T_COMMA,
  ['.'] = T_DOT,
  [':'] = T_COLON,
  ['='] = T_EQUAL,
  ['+'] = T_PLUS,
  ['-'] = T_MINUS,
  ['*'] = T_STAR,
  ['/'] = T_SLASH,
  ['%'] = T_PERCENT,
  ['@'] = T_AT,
};

/* The binary operators of the subset: precedence as in the parser's
 * binary_precedences[] (`+` and `-` 5, the others 6), and the operator. */
static const guint8 token_precedence[T_AT + 1] = {
  [T_PLUS] = 5,
  [T_MINUS] = 5,
  [T_STAR] = 6,
  [T_SLASH] = 6,
  [T_PERCENT] = 6,
  [T_AT] = 6,
};

static const guint8 token_bin_op[T_AT + 1] = {
  [T_PLUS] = GRAFT_PY_BIN_ADD,
  [T_MINUS] = GRAFT_PY_BIN_SUB,
  [T_STAR] = GRAFT_PY_BIN_MUL,
  [T_SLASH] = GRAFT_PY_BIN_TRUEDIV,
  [T_PERCENT] = GRAFT_PY_BIN_MOD,
  [T_AT] = GRAFT_PY_BIN_MATMUL,
};

typedef struct
{
  guint32 kind;
  guint32 start;
  guint32 end;
} Tok;

typedef struct
{
  /* Borrowed */
  GraftPyModule *module;
  const char    *text;
  const Tok     *tok;   /* the lookahead; the one before it was consumed last */
  guint32        limit; /* the end of the line: bytes before it may be read */

  guint    sp; /* items of the lists under construction */
  gpointer stack[FAST_MAX_TOKENS];
} Fast;

/* Splits the line at @start into @toks; returns how many tokens (the
 * last one T_END, its start the newline's offset), or 0 to give up.
 * @name_end, if past @start, ends the first token: a name of ASCII bytes
 * that is not a keyword, already read by the caller. */
static guint
split_line (const char *text,
            gsize       start,
            gsize       name_end,
            guint       max_tokens,
            Tok        *toks)
{
  const guchar *t = (const guchar *) text;
  gsize         p = start;
  Tok          *tk = toks, *tend;
  guint         depth = 0;
  guchar        close[FAST_MAX_TOKENS]; /* the closing bracket expected */

  if (max_tokens > FAST_MAX_TOKENS)
    max_tokens = FAST_MAX_TOKENS;
  tend = toks + max_tokens;
  if (name_end > start && max_tokens > 0)
    {
      if (name_end - start > GRAFT_MAX_NAME_LENGTH)
        return 0;
      tk->kind = T_NAME;
      tk->start = start;
      tk->end = name_end;
      tk++;
      p = name_end;
    }
  for (;;)
    {
      guchar c = t[p];
      gsize  q;
      guint  kind;

      /* Most tokens are separated by one space or none. */
      while (c == ' ')
        c = t[++p];
      if (tk >= tend)
        return 0;
      switch (byte_class[c])
        {
        case C_BLANK:
          p++;
          continue;
        case C_NAME:
          q = p + 1;
          while (_graft_py_id_char[t[q]])
            q++;
          if (t[q] >= 0x80 || q - p > GRAFT_MAX_NAME_LENGTH)
            return 0;
          kind = T_NAME;
          if (!_graft_py_may_be_keyword (c, q - p))
            break;
          switch ((int) _graft_py_keyword_kind ((const char *) t + p, q - p))
            {
            case GRAFT_PY_TOKEN_NAME:
              kind = T_NAME;
              break;
            case GRAFT_PY_TOKEN_KW_NONE:
              kind = T_NONE;
              break;
            case GRAFT_PY_TOKEN_KW_TRUE:
              kind = T_TRUE;
              break;
            case GRAFT_PY_TOKEN_KW_FALSE:
              kind = T_FALSE;
              break;
            default:
              return 0;
            }
          break;
        case C_DIGIT:
          q = p + 1;
          while (byte_class[t[q]] == C_DIGIT)
            q++;
          /* `007` is the lexer's to refuse, `08.5` is left to it too. */
          if (c == '0' && q - p > 1)
            return 0;
          kind = T_INT;
          if (t[q] == '.' && byte_class[t[q + 1]] == C_DIGIT)
            {
              q += 2;
              while (byte_class[t[q]] == C_DIGIT)
                q++;
              kind = T_FLOAT;
            }
          /* `1_000`, `1e5`, `0x1f`, `3j`, `1.`, `1.5.real`, `12é`; an
           * integer that may not fit in 63 bits. */
          if (_graft_py_id_char[t[q]] || t[q] == '.' || t[q] >= 0x80 ||
              (kind == T_INT && q - p > 18))
            return 0;
          break;
        case C_NEWLINE:
          if (depth > 0)
            return 0;
          tk->kind = T_END;
          tk->start = p;
          tk->end = p + 1;
          return tk + 1 - toks;
        case C_OPEN:
          if (depth >= G_N_ELEMENTS (close))
            return 0;
          close[depth++] = c == '(' ? ')' : ']';
          kind = byte_token[c];
          q = p + 1;
          break;
        case C_CLOSE:
          if (depth == 0 || close[depth - 1] != c)
            return 0;
          depth--;
          kind = byte_token[c];
          q = p + 1;
          break;
        case C_COMMA:
          kind = T_COMMA;
          q = p + 1;
          break;
        case C_DOT:
          q = p + 1;
          /* `...` and `.5` */
          if (t[q] == '.' || byte_class[t[q]] == C_DIGIT)
            return 0;
          kind = T_DOT;
          break;
        case C_COLON:
          q = p + 1;
          /* Slices only: not `:=`, annotations, lambdas or blocks. */
          if (depth == 0 || close[depth - 1] != ']' || t[q] == '=')
            return 0;
          kind = T_COLON;
          break;
        case C_OPERATOR:
          q = p + 1;
          /* `==`, `+=`, `**`, `//`, `->` */
          if (t[q] == '=' || t[q] == c || (c == '-' && t[q] == '>'))
            return 0;
          kind = byte_token[c];
          break;
        case C_OTHER:
        default:
          return 0;
        }
      tk->kind = kind;
      tk->start = p;
      tk->end = q;
      tk++;
      p = q;
    }
}

static inline guint
cur (Fast *f)
{
  return f->tok->kind;
}

static inline void
consume (Fast *f)
{
  f->tok++;
}

/* The end of the last token consumed. */
static inline guint32
prev_end (Fast *f)
{
  return f->tok[-1].end;
}

static inline GraftPyExpr *
new_expr (Fast           *f,
          GraftPyExprKind kind,
          gsize           start)
{
  return _graft_py_expr_new_fast (f->module, kind, start, prev_end (f));
}

/* The items pushed since @base, as a list in the arena. */
static inline __attribute__ ((always_inline)) GraftPyExprList
finish_exprs (Fast *f,
              guint base)
{
  GraftPyExprList list = { NULL, f->sp - base };

  if (list.len > 0)
    {
      list.items = _graft_py_module_alloc_fast (f->module, list.len * sizeof (gpointer));
      for (guint i = 0; i < list.len; i++)
        list.items[i] = f->stack[base + i];
    }
  f->sp = base;
  return list;
}

static GraftPyExpr *parse_expression (Fast *f);

static inline __attribute__ ((always_inline)) const char *
take_name (Fast *f)
{
  const Tok *t = f->tok;
  guint32    len = t->end - t->start;

  consume (f);
  if (len <= 8 && t->start + 8 <= f->limit)
    return _graft_py_module_intern_word (f->module, f->text + t->start, len);
  return _graft_py_module_intern_fast (f->module, f->text + t->start, len);
}

/* The T_INT at the lookahead (at most 18 digits, so it fits). */
static inline __attribute__ ((always_inline)) GraftPyExpr *
take_int (Fast *f)
{
  const Tok   *t = f->tok;
  gint64       value;
  GraftPyExpr *e;

  _graft_py_read_decimal (f->text, t->start, t->end, &value);
  consume (f);
  e = new_expr (f, GRAFT_PY_EXPR_CONSTANT, t->start);
  e->constant.kind = GRAFT_PY_CONST_INT;
  e->constant.int_value = value;
  return e;
}

/* The tokens after which a name or a number is a whole list item,
 * argument, slice part or assignment target. */
static const guint8 ends_name_item[T_AT + 1] = {
  [T_END] = 1,
  [T_RPAR] = 1,
  [T_RSQB] = 1,
  [T_COMMA] = 1,
  [T_EQUAL] = 1,
  [T_COLON] = 1,
};

/* parse_expression() with a shortcut for the most common items: a name
 * or an integer alone. */
static inline __attribute__ ((always_inline)) GraftPyExpr *
parse_item (Fast *f)
{
  const Tok   *t = f->tok;
  GraftPyExpr *e;

  /* Only a token before T_END has one after it. */
  if (t->kind == T_NAME && ends_name_item[t[1].kind])
    {
      const char *id = take_name (f);

      e = new_expr (f, GRAFT_PY_EXPR_NAME, t->start);
      e->name.id = id;
      return e;
    }
  if (t->kind == T_INT && ends_name_item[t[1].kind])
    return take_int (f);
  return parse_expression (f);
}

static GraftPyExpr *
parse_atom (Fast *f)
{
  const Tok   *t = f->tok;
  GraftPyExpr *e;

  switch (t->kind)
    {
    case T_NAME:
      {
        const char *id = take_name (f);

        e = new_expr (f, GRAFT_PY_EXPR_NAME, t->start);
        e->name.id = id;
        return e;
      }
    case T_INT:
      return take_int (f);
    case T_FLOAT:
      consume (f);
      e = new_expr (f, GRAFT_PY_EXPR_CONSTANT, t->start);
      e->constant.kind = GRAFT_PY_CONST_FLOAT;
      /* The digits end where the token does: what follows is neither a
       * digit, a letter, `_` nor `.`. */
      e->constant.float_value = g_ascii_strtod (f->text + t->start, NULL);
      return e;
    case T_NONE:
    case T_TRUE:
    case T_FALSE:
      consume (f);
      e = new_expr (f, GRAFT_PY_EXPR_CONSTANT, t->start);
      if (t->kind == T_NONE)
        e->constant.kind = GRAFT_PY_CONST_NONE;
      else
        {
          e->constant.kind = GRAFT_PY_CONST_BOOL;
          e->constant.bool_value = t->kind == T_TRUE;
        }
      return e;
    case T_LPAR:
      consume (f);
      if (cur (f) == T_RPAR)
        {
          consume (f);
          return new_expr (f, GRAFT_PY_EXPR_TUPLE, t->start);
        }
      /* A parenthesized expression keeps its own span; a tuple or a
       * generator expression takes the usual way. */
      e = parse_expression (f);
      if (e == NULL || cur (f) != T_RPAR)
        return NULL;
      consume (f);
      return e;
    case T_LSQB:
      {
        guint base = f->sp;

        consume (f);
        while (cur (f) != T_RSQB)
          {
            GraftPyExpr *item = parse_item (f);

            if (item == NULL)
              return NULL;
            f->stack[f->sp++] = item;
            if (cur (f) != T_COMMA)
              break;
            consume (f);
          }
        if (cur (f) != T_RSQB)
          return NULL;
        consume (f);
        e = new_expr (f, GRAFT_PY_EXPR_LIST, t->start);
        e->sequence.elts = finish_exprs (f, base);
        return e;
      }
    default:
      return NULL;
    }
}

/* After `(`: positional arguments, then keyword arguments. */
static GraftPyExpr *
parse_call (Fast        *f,
            GraftPyExpr *func)
{
  guint           base = f->sp;
  guint           n_keywords = 0;
  GraftPyKeyword *keywords[FAST_MAX_TOKENS / 3];
  GraftPyExprList args;
  GraftPyExpr    *c;

  consume (f);
  while (cur (f) != T_RPAR)
    {
      if (cur (f) == T_NAME && f->tok[1].kind == T_EQUAL)
        {
          GraftPyKeyword *kw;
          guint32         start = f->tok->start;
          const char     *name = take_name (f);

          consume (f);
          kw = _graft_py_module_alloc_fast (f->module, sizeof *kw);
          kw->name = name;
          kw->value = parse_item (f);
          if (kw->value == NULL)
            return NULL;
          kw->start = start;
          kw->end = prev_end (f);
          keywords[n_keywords++] = kw;
        }
      else
        {
          GraftPyExpr *e;

          /* A positional argument after a keyword is an error. */
          if (n_keywords > 0)
            return NULL;
          e = parse_item (f);
          if (e == NULL)
            return NULL;
          f->stack[f->sp++] = e;
        }
      if (cur (f) != T_COMMA)
        break;
      consume (f);
    }
  if (cur (f) != T_RPAR)
    return NULL;
  consume (f);
  args = finish_exprs (f, base);
  c = new_expr (f, GRAFT_PY_EXPR_CALL, func->start);
  c->call.func = func;
  c->call.args = args;
  if (n_keywords > 0)
    {
      c->call.keywords = _graft_py_module_alloc_fast (f->module, n_keywords * sizeof (gpointer));
      for (guint i = 0; i < n_keywords; i++)
        c->call.keywords[i] = keywords[i];
      c->call.n_keywords = n_keywords;
    }
  return c;
}

static inline gboolean
ends_slice_part (guint kind)
{
  return kind == T_COLON || kind == T_COMMA || kind == T_RSQB;
}

/* One element of a subscript: an expression or a slice. */
static GraftPyExpr *
parse_slice (Fast *f)
{
  guint32      start = f->tok->start;
  GraftPyExpr *lower = NULL, *e;

  if (cur (f) != T_COLON)
    {
      lower = parse_item (f);
      if (lower == NULL || cur (f) != T_COLON)
        return lower;
    }
  consume (f);
  e = _graft_py_expr_new_fast (f->module, GRAFT_PY_EXPR_SLICE, start, start);
  e->slice.lower = lower;
  if (!ends_slice_part (cur (f)))
    {
      e->slice.upper = parse_item (f);
      if (e->slice.upper == NULL)
        return NULL;
    }
  if (cur (f) == T_COLON)
    {
      consume (f);
      if (cur (f) != T_COMMA && cur (f) != T_RSQB)
        {
          e->slice.step = parse_item (f);
          if (e->slice.step == NULL)
            return NULL;
        }
    }
  e->end = prev_end (f);
  return e;
}

static GraftPyExpr *
parse_subscript (Fast        *f,
                 GraftPyExpr *value)
{
  guint32      index_start;
  GraftPyExpr *index, *e;

  consume (f);
  index_start = f->tok->start;
  if (cur (f) == T_RSQB)
    return NULL;
  index = parse_slice (f);
  if (index == NULL)
    return NULL;
  if (cur (f) == T_COMMA)
    {
      guint base = f->sp;

      f->stack[f->sp++] = index;
      while (cur (f) == T_COMMA)
        {
          GraftPyExpr *item;

          consume (f);
          if (cur (f) == T_RSQB)
            break;
          item = parse_slice (f);
          if (item == NULL)
            return NULL;
          f->stack[f->sp++] = item;
        }
      index = new_expr (f, GRAFT_PY_EXPR_TUPLE, index_start);
      index->sequence.elts = finish_exprs (f, base);
    }
  if (cur (f) != T_RSQB)
    return NULL;
  consume (f);
  e = new_expr (f, GRAFT_PY_EXPR_SUBSCRIPT, value->start);
  e->subscript.value = value;
  e->subscript.slice = index;
  return e;
}

static GraftPyExpr *
parse_primary (Fast *f)
{
  GraftPyExpr *e = parse_atom (f);

  while (e != NULL)
    {
      switch (cur (f))
        {
        case T_DOT:
          {
            GraftPyExpr *a;
            const char  *attr;

            consume (f);
            if (cur (f) != T_NAME)
              return NULL;
            attr = take_name (f);
            a = new_expr (f, GRAFT_PY_EXPR_ATTRIBUTE, e->start);
            a->attribute.value = e;
            a->attribute.attr = attr;
            e = a;
          }
          break;
        case T_LPAR:
          e = parse_call (f, e);
          break;
        case T_LSQB:
          e = parse_subscript (f, e);
          break;
        default:
          return e;
        }
    }
  return NULL;
}

/* An operand: a primary after any number of unary `-` and `+`. */
static GraftPyExpr *
parse_unary (Fast *f)
{
  const Tok   *first = f->tok;
  const Tok   *last;
  GraftPyExpr *e;

  while (cur (f) == T_MINUS || cur (f) == T_PLUS)
    consume (f);
  last = f->tok;
  e = parse_primary (f);
  /* The innermost operator first; each spans to the operand's end. */
  while (e != NULL && last > first)
    {
      const Tok   *t = --last;
      GraftPyExpr *u = new_expr (f, GRAFT_PY_EXPR_UNARY_OP, t->start);

      u->unary_op.op = t->kind == T_MINUS ? GRAFT_PY_UNARY_NEG : GRAFT_PY_UNARY_POS;
      u->unary_op.operand = e;
      e = u;
    }
  return e;
}

/* Precedence climbing, as the parser's binary_chain(). */
static GraftPyExpr *
parse_binary (Fast *f,
              int   min_prec)
{
  GraftPyExpr *left = parse_unary (f);

  while (left != NULL)
    {
      guint        kind = cur (f);
      int          prec = kind <= T_AT ? token_precedence[kind] : 0;
      GraftPyExpr *right, *e;

      if (prec == 0 || prec < min_prec)
        break;
      consume (f);
      right = parse_binary (f, prec + 1);
      if (right == NULL)
        return NULL;
      e = new_expr (f, GRAFT_PY_EXPR_BIN_OP, left->start);
      e->bin_op.op = token_bin_op[kind];
      e->bin_op.left = left;
      e->bin_op.right = right;
      left = e;
    }
  return left;
}

static GraftPyExpr *
parse_expression (Fast *f)
{
  return parse_binary (f, 1);
}

/**
 * _graft_py_fast_line:
 * @module: where the nodes go (its current node arena)
 * @text: the source text, NUL-terminated
 * @start: where the statement's first token starts, at the start of a
 *   statement
 * @name_end: where that token ends if it is known to be a name of ASCII
 *   bytes and not a keyword, or 0
 * @max_tokens: give up on a line of more tokens than this (the caller's
 *   room for nesting: each bracket and unary operator is one token)
 * @out_newline: (out): the offset of the line's newline
 *
 * Reads an assignment or expression statement that ends its line, if the
 * line stays within the fast path's subset.  The caller counts the
 * statement and moves past the newline.
 *
 * Returns: (nullable) (transfer none): the statement, or %NULL to parse
 *   the line the usual way
 */
GraftPyStmt *
_graft_py_fast_line (GraftPyModule *module,
                     const char    *text,
                     gsize          start,
                     gsize          name_end,
                     guint          max_tokens,
                     gsize         *out_newline)
{
  Tok          toks[FAST_MAX_TOKENS];
  Fast         f;
  guint        n = split_line (text, start, name_end, max_tokens, toks);
  GraftPyExpr *e;
  GraftPyStmt *s;

  if (n == 0)
    return NULL;
  f.module = module;
  f.text = text;
  f.tok = toks;
  f.limit = toks[n - 1].end;
  f.sp = 0;

  e = parse_item (&f);
  if (e == NULL)
    return NULL;
  if (cur (&f) == T_EQUAL)
    {
      while (cur (&f) == T_EQUAL)
        {
          switch ((int) e->kind)
            {
            case GRAFT_PY_EXPR_NAME:
              e->name.ctx = GRAFT_PY_CTX_STORE;
              break;
            case GRAFT_PY_EXPR_ATTRIBUTE:
              e->attribute.ctx = GRAFT_PY_CTX_STORE;
              break;
            case GRAFT_PY_EXPR_SUBSCRIPT:
              e->subscript.ctx = GRAFT_PY_CTX_STORE;
              break;
            default:
              return NULL;
            }
          f.stack[f.sp++] = e;
          consume (&f);
          e = parse_item (&f);
          if (e == NULL)
            return NULL;
        }
      if (cur (&f) != T_END)
        return NULL;
      s = _graft_py_stmt_new_fast (module, GRAFT_PY_STMT_ASSIGN, start, prev_end (&f));
      s->assign.targets = finish_exprs (&f, 0);
      s->assign.value = e;
    }
  else
    {
      if (cur (&f) != T_END)
        return NULL;
      s = _graft_py_stmt_new_fast (module, GRAFT_PY_STMT_EXPR, start, prev_end (&f));
      s->expr.value = e;
    }
  *out_newline = toks[n - 1].start;
  return s;
}
