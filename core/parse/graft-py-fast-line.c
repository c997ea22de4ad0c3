/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-py-fast-line.c: the parser's fast path for simple statement lines.
 *
 * Most lines of model code are an assignment or an expression statement
 * built from names, attributes, calls, subscripts, lists, numbers and the
 * arithmetic operators, on one line without strings or comments.  Such a
 * line is read here in one pass over its bytes: the descent below reads
 * each token where it needs it, from the byte it starts with, and builds
 * the tree with the same nodes, spans, contexts and interned names as the
 * recursive descent of graft-py-parser.c would.  It gives up at any byte
 * or token outside that subset (quotes, `#`, `\`, tabs, `\r`, non-ASCII
 * bytes, keywords other than None, True and False, comparison and
 * augmented operators, `**`, `//`, braces, a newline inside brackets, a
 * long integer, a float other than `1.5`) and at any shape it does not
 * know (a tuple, a starred item, a keyword before a positional argument, a
 * target that is not a name, attribute or subscript, nesting deeper than
 * FAST_MAX_NEST or the caller allows, more than FAST_MAX_ITEMS items
 * pending).  Giving up is never an error: the caller then parses the line
 * the usual way, which reports whatever is wrong with it, so errors and
 * their locations are the usual way's.  A line given up on leaves the
 * nodes made so far unused in the arena.
 *
 * Every token is checked as the lexer's fast path would split it: a name
 * must not go on beyond ASCII, a number must not run into a letter, `_`,
 * `.` or a non-ASCII byte, an operator (and `=`) must not be followed by
 * `=` or by itself (`==`, `+=`, `**`, `//`, `--`) or be `->`, a `:` must
 * not be `:=`.  A byte that no rule takes ends the statement early, and
 * only a newline may end it.
 */
#include "config.h"

#include "graft-py-fast-line-private.h"
#include "graft-limits.h"
#include "graft-py-ast-private.h"

#include <float.h>
#include <string.h>

/* At most this many brackets open and unary operators pending (less if
 * the caller has less room): deeper lines take the usual way.  It bounds
 * the recursion below. */
#define FAST_MAX_NEST 64

/* At most this many list items, arguments and targets pending. */
#define FAST_MAX_ITEMS 96

/* What a byte starts where an operand may start. */
enum {
  A_OTHER = 0,
  A_NAME,  /* [A-Za-z_] */
  A_DIGIT, /* [0-9] */
  A_LPAR,
  A_LSQB,
  A_SIGN, /* - + */
};

static const guint8 atom_class[256] = {
  ['A' ... 'Z'] = A_NAME,
  ['a' ... 'z'] = A_NAME,
  ['_'] = A_NAME,
  ['0' ... '9'] = A_DIGIT,
  ['('] = A_LPAR,
  ['['] = A_LSQB,
  ['-'] = A_SIGN,
  ['+'] = A_SIGN,
};

/* What a byte after an operand does: nothing (it ends the operand), a
 * trailer (`.`, `(`, `[`) or a binary operator. */
enum {
  F_END = 0,
  F_TRAILER,
  F_OPERATOR,
};

static const guint8 follow_class[256] = {
  ['.'] = F_TRAILER,
  ['('] = F_TRAILER,
  ['['] = F_TRAILER,
  ['+'] = F_OPERATOR,
  ['-'] = F_OPERATOR,
  ['*'] = F_OPERATOR,
  ['/'] = F_OPERATOR,
  ['%'] = F_OPERATOR,
  ['@'] = F_OPERATOR,
};

/* The binary operators of the subset: precedence as in the parser's
 * binary_precedences[] (`+` and `-` 5, the others 6), and the operator. */
static const guint8 byte_precedence[256] = {
  ['+'] = 5,
  ['-'] = 5,
  ['*'] = 6,
  ['/'] = 6,
  ['%'] = 6,
  ['@'] = 6,
};

static const guint8 byte_bin_op[256] = {
  ['+'] = GRAFT_PY_BIN_ADD,
  ['-'] = GRAFT_PY_BIN_SUB,
  ['*'] = GRAFT_PY_BIN_MUL,
  ['/'] = GRAFT_PY_BIN_TRUEDIV,
  ['%'] = GRAFT_PY_BIN_MOD,
  ['@'] = GRAFT_PY_BIN_MATMUL,
};

typedef struct
{
  /* Borrowed */
  GraftPyModule *module;
  GraftPyArena  *arena; /* module->nodes */
  const guchar  *t;
  gsize          word_end; /* a name that starts 8 bytes or more before this
                            * may be read as one word */

  guint32  p;        /* the lookahead: where the next token starts */
  guint32  end;      /* where the last token consumed ends */
  guint    nest;     /* brackets open and unary operators pending */
  guint    max_nest; /* give up when @nest reaches this */
  guint    sp;       /* items of the lists under construction */
  gpointer stack[FAST_MAX_ITEMS];
} Fast;

/* Where the next token after @q starts: most tokens are separated by one
 * space or none. */
static inline guint32
skip (const guchar *t,
      guint32       q)
{
  while (t[q] == ' ')
    q++;
  return q;
}

/* Whether the operator byte at @p is one token the subset takes: not
 * `==`, `+=`, `**`, `//`, `--`, `->`. */
static inline gboolean
lone_operator (const guchar *t,
               guint32       p)
{
  guchar c = t[p], d = t[p + 1];

  return d != '=' && d != c && !(c == '-' && d == '>');
}

/* The end of the name that starts at @p (an ASCII letter or `_`), or 0
 * if it goes on beyond ASCII or is too long. */
static inline guint32
scan_name (const guchar *t,
           guint32       p)
{
  guint32 q = p + 1;

  while (_graft_py_id_char[t[q]])
    q++;
  if (G_UNLIKELY (t[q] >= 0x80 || q - p > GRAFT_MAX_NAME_LENGTH))
    return 0;
  return q;
}

/* Whether the name [@p, @q) is a keyword (soft keywords are names). */
static inline gboolean
is_keyword (const guchar *t,
            guint32       p,
            guint32       q)
{
  return _graft_py_may_be_keyword (t[p], q - p) &&
         _graft_py_keyword_kind ((const char *) t + p, q - p) != GRAFT_PY_TOKEN_NAME;
}

/* Whether the name of @len bytes at @s is private (`__x`, not `__x__`):
 * Python mangles it inside a class. */
static inline gboolean
is_private (const char *s,
            guint32     len)
{
  return len > 2 && s[0] == '_' && s[1] == '_' && (s[len - 1] != '_' || s[len - 2] != '_');
}

/* The name [@p, @q) interned, or %NULL if it is a keyword or, inside a
 * class (module->in_class), a private name: the usual way mangles it.  A
 * short name is looked for in the module's memo first, which holds no
 * keyword and no private name: a hit needs neither check. */
static inline __attribute__ ((always_inline)) const char *
intern_name (Fast   *f,
             guint32 p,
             guint32 q)
{
  guint32     len = q - p;
  const char *s = (const char *) f->t + p;

  if (len <= 8 && p + 8 <= f->word_end)
    {
      guint64          w;
      GraftPyWordSlot *slot = _graft_py_module_word_slot (f->module, s, len, &w);
      const char      *name;

      if (G_LIKELY (slot->word == w))
        return slot->name;
      if (is_keyword (f->t, p, q))
        return NULL;
      if (G_UNLIKELY (is_private (s, len)))
        return f->module->in_class ? NULL : _graft_py_module_intern_fast (f->module, s, len);
      name = _graft_py_module_intern_fast (f->module, s, len);
      slot->word = w;
      slot->name = name;
      return name;
    }
  if (is_keyword (f->t, p, q) ||
      (G_UNLIKELY (s[0] == '_') && f->module->in_class && is_private (s, len)))
    return NULL;
  return _graft_py_module_intern_fast (f->module, s, len);
}

/* _graft_py_expr_new_fast() from the arena the line started with. */
static inline GraftPyExpr *
new_expr (Fast           *f,
          GraftPyExprKind kind,
          gsize           start,
          gsize           end)
{
  GraftPyExpr *expr = _graft_py_arena_alloc_fast (f->arena, sizeof *expr);

  memset (expr, 0, sizeof *expr);
  expr->kind = kind;
  expr->start = start;
  expr->end = end;
  return expr;
}

/* new_expr() without zeroing the node: the caller sets every field of
 * the kind's member itself. */
static inline GraftPyExpr *
new_node (Fast           *f,
          GraftPyExprKind kind,
          gsize           start,
          gsize           end)
{
  GraftPyExpr *expr = _graft_py_arena_alloc_fast (f->arena, sizeof *expr);

  expr->kind = kind;
  expr->start = start;
  expr->end = end;
  expr->paren_start = 0;
  return expr;
}

/* _graft_py_stmt_new_fast() from the arena the line started with,
 * without zeroing the node (the caller sets every field of the kind's
 * member itself), with room for @n_items pointers after it as
 * new_node_with_items() has. */
static inline GraftPyStmt *
new_stmt (Fast           *f,
          GraftPyStmtKind kind,
          gsize           start,
          gsize           end,
          guint           n_items)
{
  GraftPyStmt *stmt = _graft_py_arena_alloc_fast (f->arena,
                                                  sizeof *stmt + n_items * sizeof (gpointer));

  stmt->kind = kind;
  stmt->start = start;
  stmt->end = end;
  return stmt;
}

static inline gboolean
push (Fast    *f,
      gpointer item)
{
  if (G_UNLIKELY (f->sp >= FAST_MAX_ITEMS))
    return FALSE;
  f->stack[f->sp++] = item;
  return TRUE;
}

/* The items pushed since @base, as a list in the arena. */
static inline __attribute__ ((always_inline)) GraftPyExprList
finish_exprs (Fast *f,
              guint base)
{
  GraftPyExprList list = { NULL, f->sp - base };

  if (list.len > 0)
    {
      list.items = _graft_py_arena_alloc_fast (f->arena, list.len * sizeof (gpointer));
      for (guint i = 0; i < list.len; i++)
        list.items[i] = f->stack[base + i];
    }
  f->sp = base;
  return list;
}

/* The items pushed since @base, as a list in @items (room for them, or
 * anything if there are none). */
static inline __attribute__ ((always_inline)) GraftPyExprList
take_exprs (Fast         *f,
            guint         base,
            GraftPyExpr **items)
{
  GraftPyExprList list = { NULL, f->sp - base };

  if (list.len > 0)
    {
      list.items = items;
      for (guint i = 0; i < list.len; i++)
        list.items[i] = f->stack[base + i];
    }
  f->sp = base;
  return list;
}

G_STATIC_ASSERT (sizeof (GraftPyExpr) % sizeof (gdouble) == 0);
G_STATIC_ASSERT (sizeof (GraftPyStmt) % sizeof (gdouble) == 0);

/* new_node() with room for @n_items pointers after the node, in one
 * allocation: the bytes and their place are those of the node and then
 * its list allocated one after the other. */
static inline __attribute__ ((always_inline)) GraftPyExpr *
new_node_with_items (Fast           *f,
                     GraftPyExprKind kind,
                     gsize           start,
                     gsize           end,
                     guint           n_items)
{
  GraftPyExpr *expr = _graft_py_arena_alloc_fast (f->arena,
                                                  sizeof *expr + n_items * sizeof (gpointer));

  expr->kind = kind;
  expr->start = start;
  expr->end = end;
  expr->paren_start = 0;
  return expr;
}

/* Opens a bracket or a unary operator. */
static inline gboolean
enter (Fast *f)
{
  return ++f->nest < f->max_nest;
}

static GraftPyExpr *parse_binary (Fast        *f,
                                  int          min_prec,
                                  GraftPyExpr *left);
static GraftPyExpr *parse_trailers (Fast        *f,
                                    GraftPyExpr *e);

static inline GraftPyExpr *
parse_expression (Fast *f)
{
  return parse_binary (f, 1, NULL);
}

/* The name, None, True or False [@p, @q), taken: the lookahead moves
 * past it. */
static inline __attribute__ ((always_inline)) GraftPyExpr *
take_name_atom (Fast   *f,
                guint32 p,
                guint32 q)
{
  const guchar *t = f->t;
  const char   *id = intern_name (f, p, q);
  GraftPyExpr  *e;

  if (G_UNLIKELY (id == NULL))
    {
      GraftPyTokenKind kind = _graft_py_keyword_kind ((const char *) t + p, q - p);

      if (kind != GRAFT_PY_TOKEN_KW_NONE && kind != GRAFT_PY_TOKEN_KW_TRUE &&
          kind != GRAFT_PY_TOKEN_KW_FALSE)
        return NULL;
      e = new_expr (f, GRAFT_PY_EXPR_CONSTANT, p, q);
      if (kind == GRAFT_PY_TOKEN_KW_NONE)
        e->constant.kind = GRAFT_PY_CONST_NONE;
      else
        {
          e->constant.kind = GRAFT_PY_CONST_BOOL;
          e->constant.bool_value = kind == GRAFT_PY_TOKEN_KW_TRUE;
        }
    }
  else
    {
      e = new_node (f, GRAFT_PY_EXPR_NAME, p, q);
      e->name.id = id;
      e->name.ctx = GRAFT_PY_CTX_LOAD;
    }
  f->end = q;
  f->p = skip (t, q);
  return e;
}

/* The value of the float [@p, @q), digits, a `.` and digits, rounded as
 * g_ascii_strtod() rounds it.  With at most 15 digits in all the digits
 * without the point are an integer M below 2^53 and the power of ten
 * below 10^15, both exact as doubles, so M / 10^k is rounded once, to
 * the nearest double of the exact value: what strtod() gives.  Longer
 * ones go to g_ascii_strtod(). */
static double
read_float (const guchar *t,
            guint32       p,
            guint32       q)
{
  static const double powers[16] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
                                     1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
  gint64              m = 0;
  guint               k = 0;
  gboolean            fraction = FALSE;

  /* (Only where doubles are computed as doubles, not wider.) */
  if (q - p > 16 || FLT_EVAL_METHOD != 0)
    return g_ascii_strtod ((const char *) t + p, NULL);
  for (guint32 i = p; i < q; i++)
    {
      if (t[i] == '.')
        {
          fraction = TRUE;
          continue;
        }
      m = m * 10 + (t[i] - '0');
      k += fraction;
    }
  return (double) m / powers[k];
}

/* Whether a byte may follow a number the fast line takes: not a name's
 * byte, `.` or a non-ASCII byte (`1_000`, `1e5`, `0x1f`, `3j`, `1.`,
 * `1.5.real`, `12é`). */
static const guint8 number_follow[256] = {
  [0 ... '.' - 1] = 1,
  ['/'] = 1,
  [':' ... '@'] = 1,
  ['['] = 1,
  ['\\'] = 1,
  [']'] = 1,
  ['^'] = 1,
  ['`'] = 1,
  ['{' ... 0x7f] = 1,
};

/* The number at @p (a digit), taken. */
static inline __attribute__ ((always_inline)) GraftPyExpr *
take_number (Fast   *f,
             guint32 p)
{
  const guchar *t = f->t;
  guint32       q = p + 1;
  guint64       value = t[p] - '0';
  gboolean      is_float = FALSE;
  GraftPyExpr  *e;

  /* (An integer of more than 18 digits is refused below: the value,
   * wrapped, is not used then.) */
  while (t[q] >= '0' && t[q] <= '9')
    value = value * 10 + (t[q++] - '0');
  /* `007` is the lexer's to refuse, `08.5` is left to it too. */
  if (t[p] == '0' && q - p > 1)
    return NULL;
  if (t[q] == '.' && t[q + 1] >= '0' && t[q + 1] <= '9')
    {
      q += 2;
      while (t[q] >= '0' && t[q] <= '9')
        q++;
      is_float = TRUE;
    }
  /* An integer that may not fit in 63 bits is the lexer's too. */
  if (!number_follow[t[q]] || (!is_float && q - p > 18))
    return NULL;
  e = new_expr (f, GRAFT_PY_EXPR_CONSTANT, p, q);
  if (is_float)
    {
      e->constant.kind = GRAFT_PY_CONST_FLOAT;
      e->constant.float_value = read_float (t, p, q);
    }
  else
    {
      e->constant.kind = GRAFT_PY_CONST_INT;
      e->constant.int_value = (gint64) value;
    }
  f->end = q;
  f->p = skip (t, q);
  return e;
}

static GraftPyExpr *parse_bracket_atom (Fast *f);

/* The rest of an expression after its first atom @e, if a trailer or an
 * operator follows. */
static inline __attribute__ ((always_inline)) GraftPyExpr *
expression_from_atom (Fast        *f,
                      GraftPyExpr *e)
{
  if (e == NULL)
    return NULL;
  switch (follow_class[f->t[f->p]])
    {
    case F_TRAILER:
      e = parse_trailers (f, e);
      if (e == NULL || byte_precedence[f->t[f->p]] == 0)
        return e;
      /* fallthrough */
    case F_OPERATOR:
      return parse_binary (f, 1, e);
    default:
      return e;
    }
}

/* An operand that starts with the name or keyword [@p, @q): the rest of
 * an expression after it, if a trailer or an operator follows. */
static inline __attribute__ ((always_inline)) GraftPyExpr *
expression_from_name (Fast   *f,
                      guint32 p,
                      guint32 q)
{
  return expression_from_atom (f, take_name_atom (f, p, q));
}

/* parse_expression() at a byte of class @cls, the lookahead's first: an
 * expression that starts with an atom is read from it without the
 * descent's levels (one with a unary operator takes them). */
static inline __attribute__ ((always_inline)) GraftPyExpr *
parse_item_at (Fast *f,
               guint cls)
{
  switch (cls)
    {
    case A_NAME:
      {
        guint32 q = scan_name (f->t, f->p);

        if (q == 0)
          return NULL;
        return expression_from_name (f, f->p, q);
      }
    case A_DIGIT:
      return expression_from_atom (f, take_number (f, f->p));
    case A_LPAR:
    case A_LSQB:
      return expression_from_atom (f, parse_bracket_atom (f));
    case A_SIGN:
      return parse_expression (f);
    default:
      return NULL;
    }
}

/* parse_expression(), as parse_item_at(). */
static inline __attribute__ ((always_inline)) GraftPyExpr *
parse_item (Fast *f)
{
  return parse_item_at (f, atom_class[f->t[f->p]]);
}

/* `(` or `[` at the lookahead: the list or parenthesized expression. */
static GraftPyExpr *
parse_bracket_atom (Fast *f)
{
  const guchar *t = f->t;
  guint32       start = f->p;
  GraftPyExpr  *e;

  if (!enter (f))
    return NULL;
  f->p = skip (t, start + 1);
  if (t[start] == '(')
    {
      if (t[f->p] == ')')
        {
          f->end = f->p + 1;
          e = new_expr (f, GRAFT_PY_EXPR_TUPLE, start, f->end);
        }
      else
        {
          /* A parenthesized expression keeps its own span; a tuple or a
           * generator expression takes the usual way. */
          e = parse_item (f);
          if (e == NULL || t[f->p] != ')')
            return NULL;
          e->paren_start = start + 1;
          f->end = f->p + 1;
        }
    }
  else
    {
      guint base = f->sp;

      while (t[f->p] != ']')
        {
          GraftPyExpr *item = parse_item (f);

          if (item == NULL || !push (f, item))
            return NULL;
          if (t[f->p] != ',')
            break;
          f->p = skip (t, f->p + 1);
        }
      if (t[f->p] != ']')
        return NULL;
      f->end = f->p + 1;
      e = new_node_with_items (f, GRAFT_PY_EXPR_LIST, start, f->end, f->sp - base);
      e->sequence.elts = take_exprs (f, base, (GraftPyExpr **) (e + 1));
      e->sequence.ctx = GRAFT_PY_CTX_LOAD;
    }
  f->p = skip (t, f->end);
  f->nest--;
  return e;
}

/* The atom at the lookahead. */
static inline __attribute__ ((always_inline)) GraftPyExpr *
parse_atom (Fast *f)
{
  const guchar *t = f->t;
  guint32       p = f->p, q;

  switch (atom_class[t[p]])
    {
    case A_NAME:
      q = scan_name (t, p);
      if (q == 0)
        return NULL;
      return take_name_atom (f, p, q);
    case A_DIGIT:
      return take_number (f, p);
    case A_LPAR:
    case A_LSQB:
      return parse_bracket_atom (f);
    default:
      return NULL;
    }
}

/* After `(`: positional arguments, then keyword arguments, on the stack
 * in that order. */
static GraftPyExpr *
parse_call (Fast        *f,
            GraftPyExpr *func)
{
  const guchar *t = f->t;
  guint         base = f->sp, n_keywords = 0;
  GraftPyExpr  *c;

  if (!enter (f))
    return NULL;
  f->p = skip (t, f->p + 1);
  while (t[f->p] != ')')
    {
      guint32  p = f->p;
      gpointer item;

      if (atom_class[t[p]] == A_NAME)
        {
          guint32     q = scan_name (t, p), r;
          const char *kw_name;

          if (q == 0)
            return NULL;
          r = skip (t, q);
          /* A keyword argument's name: interned as names are (a hit in
           * the memo of short names needs no keyword check). */
          if (t[r] == '=' && (kw_name = intern_name (f, p, q)) != NULL)
            {
              GraftPyKeyword *kw;

              if (t[r + 1] == '=')
                return NULL;
              kw = _graft_py_arena_alloc_fast (f->arena, sizeof *kw);
              kw->name = kw_name;
              f->p = skip (t, r + 1);
              kw->value = parse_item (f);
              if (kw->value == NULL)
                return NULL;
              kw->start = p;
              kw->end = f->end;
              n_keywords++;
              item = kw;
            }
          /* A positional argument after a keyword is an error. */
          else if (n_keywords > 0)
            return NULL;
          else
            item = expression_from_name (f, p, q);
        }
      else if (n_keywords > 0)
        return NULL;
      else
        item = parse_item_at (f, atom_class[t[p]]);
      if (item == NULL || !push (f, item))
        return NULL;
      if (t[f->p] != ',')
        break;
      f->p = skip (t, f->p + 1);
    }
  if (t[f->p] != ')')
    return NULL;
  f->end = f->p + 1;
  f->p = skip (t, f->end);
  f->nest--;
  /* The call, then its keywords, then its arguments, in one piece. */
  c = new_node_with_items (f, GRAFT_PY_EXPR_CALL, graft_py_expr_get_outer_start (func), f->end,
                           f->sp - base);
  c->call.func = func;
  c->call.keywords = NULL;
  c->call.n_keywords = 0;
  if (n_keywords > 0)
    {
      GraftPyKeyword **keywords = (GraftPyKeyword **) (c + 1);

      for (guint i = 0; i < n_keywords; i++)
        keywords[i] = f->stack[f->sp - n_keywords + i];
      c->call.keywords = keywords;
      c->call.n_keywords = n_keywords;
      f->sp -= n_keywords;
    }
  c->call.args = take_exprs (f, base, (GraftPyExpr **) (c + 1) + n_keywords);
  return c;
}

/* A `:` of a slice at the lookahead, taken; %FALSE for `:=`. */
static inline gboolean
take_colon (Fast *f)
{
  const guchar *t = f->t;

  if (t[f->p + 1] == '=')
    return FALSE;
  f->end = f->p + 1;
  f->p = skip (t, f->end);
  return TRUE;
}

static inline gboolean
ends_slice_part (guchar c)
{
  return c == ':' || c == ',' || c == ']';
}

/* One element of a subscript: an expression or a slice. */
static GraftPyExpr *
parse_slice (Fast *f)
{
  const guchar *t = f->t;
  guint32       start = f->p;
  GraftPyExpr  *lower = NULL, *e;

  if (t[f->p] != ':')
    {
      lower = parse_item (f);
      if (lower == NULL || t[f->p] != ':')
        return lower;
    }
  if (!take_colon (f))
    return NULL;
  e = new_expr (f, GRAFT_PY_EXPR_SLICE, start, start);
  e->slice.lower = lower;
  if (!ends_slice_part (t[f->p]))
    {
      e->slice.upper = parse_item (f);
      if (e->slice.upper == NULL)
        return NULL;
    }
  if (t[f->p] == ':')
    {
      if (!take_colon (f))
        return NULL;
      if (t[f->p] != ',' && t[f->p] != ']')
        {
          e->slice.step = parse_item (f);
          if (e->slice.step == NULL)
            return NULL;
        }
    }
  e->end = f->end;
  return e;
}

/* `[` at the lookahead: the subscript of @value. */
static GraftPyExpr *
parse_subscript (Fast        *f,
                 GraftPyExpr *value)
{
  const guchar *t = f->t;
  guint32       index_start;
  GraftPyExpr  *index, *e;

  if (!enter (f))
    return NULL;
  f->p = index_start = skip (t, f->p + 1);
  if (t[f->p] == ']')
    return NULL;
  index = parse_slice (f);
  if (index == NULL)
    return NULL;
  if (t[f->p] == ',')
    {
      guint base = f->sp;

      if (!push (f, index))
        return NULL;
      while (t[f->p] == ',')
        {
          GraftPyExpr *item;

          f->end = f->p + 1;
          f->p = skip (t, f->end);
          if (t[f->p] == ']')
            break;
          item = parse_slice (f);
          if (item == NULL || !push (f, item))
            return NULL;
        }
      index = new_expr (f, GRAFT_PY_EXPR_TUPLE, index_start, f->end);
      index->sequence.elts = finish_exprs (f, base);
    }
  if (t[f->p] != ']')
    return NULL;
  f->end = f->p + 1;
  f->p = skip (t, f->end);
  f->nest--;
  e = new_node (f, GRAFT_PY_EXPR_SUBSCRIPT, graft_py_expr_get_outer_start (value), f->end);
  e->subscript.value = value;
  e->subscript.slice = index;
  e->subscript.ctx = GRAFT_PY_CTX_LOAD;
  return e;
}

/* The trailers after @e: attributes, calls and subscripts. */
static GraftPyExpr *
parse_trailers (Fast        *f,
                GraftPyExpr *e)
{
  const guchar *t = f->t;

  while (e != NULL)
    {
      switch (t[f->p])
        {
        case '.':
          {
            guint32      p = skip (t, f->p + 1), q;
            GraftPyExpr *a;
            const char  *attr;

            /* Not `...`, `.5` or a keyword. */
            if (atom_class[t[p]] != A_NAME)
              return NULL;
            q = scan_name (t, p);
            if (q == 0)
              return NULL;
            attr = intern_name (f, p, q);
            if (attr == NULL)
              return NULL;
            a = new_node (f, GRAFT_PY_EXPR_ATTRIBUTE, graft_py_expr_get_outer_start (e), q);
            a->attribute.value = e;
            a->attribute.attr = attr;
            a->attribute.ctx = GRAFT_PY_CTX_LOAD;
            f->end = q;
            f->p = skip (t, q);
            e = a;
          }
          break;
        case '(':
          e = parse_call (f, e);
          break;
        case '[':
          e = parse_subscript (f, e);
          break;
        default:
          return e;
        }
    }
  return NULL;
}

static GraftPyExpr *parse_unary (Fast *f);

/* An operand: a primary after any number of unary `-` and `+`. */
static inline __attribute__ ((always_inline)) GraftPyExpr *
parse_operand (Fast *f)
{
  GraftPyExpr *e;

  if (atom_class[f->t[f->p]] == A_SIGN)
    return parse_unary (f);
  e = parse_atom (f);
  if (e == NULL || follow_class[f->t[f->p]] != F_TRAILER)
    return e;
  return parse_trailers (f, e);
}

/* A unary `-` or `+` at the lookahead and its operand, spanning to the
 * operand's end. */
static GraftPyExpr *
parse_unary (Fast *f)
{
  const guchar *t = f->t;
  guint32       start = f->p;
  GraftPyExpr  *operand, *u;

  if (!lone_operator (t, start) || !enter (f))
    return NULL;
  f->p = skip (t, start + 1);
  operand = parse_operand (f);
  if (operand == NULL)
    return NULL;
  f->nest--;
  u = new_expr (f, GRAFT_PY_EXPR_UNARY_OP, start, f->end);
  u->unary_op.op = t[start] == '-' ? GRAFT_PY_UNARY_NEG : GRAFT_PY_UNARY_POS;
  u->unary_op.operand = operand;
  return u;
}

/* Precedence climbing, as the parser's binary_chain(), from @left if it
 * has been read already. */
static GraftPyExpr *
parse_binary (Fast        *f,
              int          min_prec,
              GraftPyExpr *left)
{
  const guchar *t = f->t;

  if (left == NULL)
    left = parse_operand (f);
  while (left != NULL)
    {
      guint32      p = f->p;
      guchar       c = t[p];
      int          prec = byte_precedence[c];
      GraftPyExpr *right, *e;

      if (prec == 0 || prec < min_prec)
        break;
      if (!lone_operator (t, p))
        return NULL;
      f->p = skip (t, p + 1);
      /* parse_binary (f, prec + 1, NULL), its operand read here: most
       * right operands are not followed by an operator that binds
       * tighter, and then need no call. */
      right = parse_operand (f);
      if (right != NULL && byte_precedence[t[f->p]] > prec)
        right = parse_binary (f, prec + 1, right);
      if (right == NULL)
        return NULL;
      e = new_node (f, GRAFT_PY_EXPR_BIN_OP, graft_py_expr_get_outer_start (left), f->end);
      e->bin_op.op = byte_bin_op[c];
      e->bin_op.left = left;
      e->bin_op.right = right;
      left = e;
    }
  return left;
}

/**
 * _graft_py_fast_line:
 * @module: where the nodes go (its current node arena)
 * @text: the source text, NUL-terminated
 * @text_len: the bytes of @text before its NUL
 * @start: where the statement's first token starts, at the start of a
 *   statement
 * @name_end: where that token ends if it is known to be a name of ASCII
 *   bytes and not a keyword, or 0
 * @max_nest: give up on a line that nests brackets and unary operators
 *   this deep (the caller's room for nesting)
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
                     gsize          text_len,
                     gsize          start,
                     gsize          name_end,
                     guint          max_nest,
                     gsize         *out_newline)
{
  const guchar *t = (const guchar *) text;
  Fast          f;
  GraftPyExpr  *e;
  GraftPyStmt  *s;

  f.module = module;
  f.arena = module->nodes;
  f.t = t;
  f.word_end = text_len + 1;
  f.p = start;
  f.end = start;
  f.nest = 0;
  f.max_nest = MIN (max_nest, FAST_MAX_NEST);
  f.sp = 0;

  if (name_end > start)
    {
      if (name_end - start > GRAFT_MAX_NAME_LENGTH)
        return NULL;
      e = expression_from_name (&f, start, name_end);
    }
  else
    e = parse_item (&f);
  if (e == NULL)
    return NULL;
  if (t[f.p] == '=')
    {
      while (t[f.p] == '=')
        {
          if (t[f.p + 1] == '=')
            return NULL;
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
          if (!push (&f, e))
            return NULL;
          f.p = skip (t, f.p + 1);
          e = parse_item (&f);
          if (e == NULL)
            return NULL;
        }
      if (t[f.p] != '\n')
        return NULL;
      s = new_stmt (&f, GRAFT_PY_STMT_ASSIGN, start, f.end, f.sp);
      s->assign.targets = take_exprs (&f, 0, (GraftPyExpr **) (s + 1));
      s->assign.value = e;
    }
  else
    {
      if (t[f.p] != '\n')
        return NULL;
      s = new_stmt (&f, GRAFT_PY_STMT_EXPR, start, f.end, 0);
      s->expr.value = e;
    }
  *out_newline = f.p;
  return s;
}
