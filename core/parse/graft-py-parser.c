/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-py-parser.c: a recursive-descent parser for Python 3.11 source,
 * producing the tree of graft-py-ast.  It pulls tokens from graft-py-lexer
 * with one token of lookahead, decodes literals (numbers, string escapes,
 * f-string fields) into the module's arena, checks assignment targets and
 * parameter lists, and stops at the first error with its exact span.
 *
 * Recursion is bounded: brackets, unary operators, `**`, `not`, conditional
 * expressions, lambdas, f-string fields and indented blocks each count one
 * level, and more than GRAFT_MAX_PARSE_DEPTH levels is a limit error rather
 * than a stack overflow.  Flat repetition (long lists, long `a + b + ...`
 * chains, many statements, `elif` chains) is parsed in loops.  Lists are
 * collected on a shared scratch stack and copied into the arena once
 * complete, so building a list allocates once.
 *
 * The parser accepts constructs that Graft cannot trace (yield, await, async,
 * global, try) and leaves rejecting them to the tracer; only `match`
 * statements are refused here.
 */
#include "config.h"

#include "graft-py-parser.h"
#include "graft-error.h"
#include "graft-limits.h"
#include "graft-py-ast-private.h"
#include "graft-py-fast-line-private.h"
#include "graft-py-lexer.h"
#include "graft-source.h"

#include <stdarg.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* A stack of pointers, pushed and cut back inline (GPtrArray's calls were
 * a tenth of parsing); `pdata` and `len` as in GPtrArray. */
typedef struct
{
  gpointer *pdata;
  guint     len;
  guint     alloc;
} Stack;

static void
stack_grow (Stack *s,
            guint  min_alloc)
{
  s->alloc = MAX (MAX (s->alloc * 2, min_alloc), 64);
  s->pdata = g_renew (gpointer, s->pdata, s->alloc);
}

static inline void
stack_push (Stack   *s,
            gpointer item)
{
  if (G_UNLIKELY (s->len == s->alloc))
    stack_grow (s, s->len + 1);
  s->pdata[s->len++] = item;
}

/* Cuts the stack back to @len items, or grows it to @len with NULLs, as
 * g_ptr_array_set_size() does. */
static inline void
stack_set_size (Stack *s,
                guint  len)
{
  if (len > s->alloc)
    stack_grow (s, len);
  if (len > s->len)
    memset (s->pdata + s->len, 0, (len - s->len) * sizeof (gpointer));
  s->len = len;
}

typedef struct
{
  /* Borrowed */
  GraftSource   *source;
  const char    *text;
  GraftPyModule *module;
  GraftPyLexer  *lex; /* the main lexer, or an f-string field's */

  /* Owned */
  GraftPyLexer main_lexer;
  Stack       *scratch;   /* stack of list items under construction */
  Stack       *keywords;  /* stack of call keywords under construction */
  GArray      *ops;       /* stack of GraftPyCmpOp under construction */
  GString     *buf;       /* stack of decoded text under construction */
  GError      *lex_error; /* the lexer's error, when cur is ERROR */
  GError      *error;     /* the first error */

  GraftPyToken     cur;       /* the lookahead token */
  GraftPyTokenKind prev_kind; /* the last consumed token */
  guint32          prev_end;
  guint32          stmt_end; /* end of the last statement completed */
  guint            depth;
  guint            n_stmts; /* statements made so far, nested ones too */
  gboolean         error_from_lexer;
  guint            n_fast_lines;    /* lines read by the fast path */
  gsize            fast_name_start; /* where the last first name read after a
                                     * fast line starts (ASCII, no keyword) */

  /* `-9223372036854775808`: the literal right after a unary minus may be
   * 2**63, which only fits once negated.  neg_operand is where that
   * literal starts; min_literal is the literal, parsed as -2**63, that the
   * minus must then absorb. */
  gsize        neg_operand;
  GraftPyExpr *min_literal;

  /* graft_py_parse_deferring(): which forward body to leave unread.
   * top_class is the top-level class whose body is being parsed. */
  gboolean             defer;
  const char          *defer_class; /* or NULL: the first class with a forward */
  const char          *top_class;
  GraftPyDeferredBody *deferred; /* the body left unread, once there is one */

  /* Inside a class (its methods, their nested functions, lambdas and
   * comprehensions too): the innermost class's name without its leading
   * underscores, by which private names are mangled; NULL elsewhere and
   * in a class named only with underscores. */
  const char *private_class;
  gsize       private_class_len;

  /* The arrays of the match statements read (parse_match()), or NULL. */
  GPtrArray *match_arrays;
  /* The first or-pattern of the case being read whose alternatives bind
   * different names and whose last alternative matches anything: Python
   * says so only if the case is last or has a guard (else that capture
   * "makes remaining patterns unreachable"). */
  const struct _Pat *alt_deferred;
} Parser;

/* A function body left unread by graft_py_parse_deferring(): the state of
 * the parser at its INDENT, from which graft_py_body_stream_new() reads it
 * again.  The lexer runs through the body once to find its end (and the
 * end of its last statement, the def's own end), which leaves the syntax
 * of its statements unchecked until it is read. */
struct _GraftPyDeferredBody
{
  GraftPyLexer     lexer; /* just after the INDENT */
  GraftPyToken     indent;
  GraftPyTokenKind prev_kind;
  guint32          prev_end;
  guint            depth;         /* the parser's depth outside the body */
  guint            n_stmts;       /* statements of the module outside the body */
  guint32          end;           /* where the body's last statement ends */
  const char      *private_class; /* the parser's, around the def */
  gsize            private_class_len;
  GraftPyToken     close; /* the body's DEDENT */
};

/* Everything backtracking must restore (only `with (` needs it). */
typedef struct
{
  GraftPyLexer     lexer;
  GraftPyToken     cur;
  GraftPyTokenKind prev_kind;
  guint32          prev_end;
  guint            depth;
  guint            scratch_len;
  guint            keywords_len;
  guint            ops_len;
  gsize            buf_len;
} Snapshot;

static GraftPyExpr *parse_expression (Parser *p);
static GraftPyExpr *parse_named_expression (Parser *p);
static GraftPyExpr *named_expression_rest (Parser *p, GraftPyExpr *target);
static GraftPyExpr *parse_star_expressions (Parser *p);
static GraftPyExpr *parse_disjunction (Parser *p);
static GraftPyExpr *parse_binary (Parser *p, int min_prec);
static GraftPyExpr *parse_unary (Parser *p);
static gboolean     parse_statement (Parser *p);

/* Tokens and errors */

static void
advance (Parser *p)
{
  if (p->cur.kind == GRAFT_PY_TOKEN_ERROR)
    return;
  p->prev_kind = p->cur.kind;
  p->prev_end = p->cur.end;
  if (!graft_py_lexer_next (p->lex, &p->cur, &p->lex_error))
    {
      p->cur.kind = GRAFT_PY_TOKEN_ERROR;
      p->cur.flags = 0;
      p->cur.start = p->cur.end = p->prev_end;
    }
}

static inline gboolean
at (Parser          *p,
    GraftPyTokenKind kind)
{
  return p->cur.kind == kind;
}

static gboolean
accept (Parser          *p,
        GraftPyTokenKind kind)
{
  if (p->cur.kind != kind)
    return FALSE;
  advance (p);
  return TRUE;
}

static void fail_at (Parser             *p,
                     gsize               start,
                     gsize               end,
                     GraftParseErrorCode code,
                     const char         *format,
                     ...) G_GNUC_PRINTF (5, 6);

/* Records the first error.  When the lookahead is where the lexer failed,
 * the lexer's error is the one to report: whatever the parser expected, the
 * text there is not even a token. */
static void
fail_at (Parser             *p,
         gsize               start,
         gsize               end,
         GraftParseErrorCode code,
         const char         *format,
         ...)
{
  va_list          ap;
  g_autofree char *message = NULL;

  if (p->error != NULL)
    return;
  if (p->cur.kind == GRAFT_PY_TOKEN_ERROR && p->lex_error != NULL)
    {
      p->error = g_steal_pointer (&p->lex_error);
      p->error_from_lexer = TRUE;
      return;
    }
  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  graft_set_error_at_offset (&p->error, p->source, start, end, code, "%s", message);
}

#define fail_tok(p, ...) \
  fail_at ((p), (p)->cur.start, (p)->cur.end, GRAFT_PARSE_ERROR_SYNTAX, __VA_ARGS__)

#define fail_expr(p, e, ...) \
  fail_at ((p), (e)->start, (e)->end, GRAFT_PARSE_ERROR_SYNTAX, __VA_ARGS__)

static gboolean
expect (Parser          *p,
        GraftPyTokenKind kind)
{
  if (accept (p, kind))
    return TRUE;
  if (p->cur.kind == GRAFT_PY_TOKEN_INDENT)
    fail_tok (p, "unexpected indent");
  else
    fail_tok (p, "expected '%s'", graft_py_token_kind_get_name (kind));
  return FALSE;
}

static gboolean
enter (Parser     *p,
       const char *message)
{
  if (p->depth >= GRAFT_MAX_PARSE_DEPTH)
    {
      fail_at (p, p->cur.start, p->cur.end, GRAFT_PARSE_ERROR_LIMIT, "%s", message);
      return FALSE;
    }
  p->depth++;
  return TRUE;
}

static inline void
leave (Parser *p)
{
  p->depth--;
}

static void
snapshot_take (Parser   *p,
               Snapshot *s)
{
  s->lexer = *p->lex;
  s->cur = p->cur;
  s->prev_kind = p->prev_kind;
  s->prev_end = p->prev_end;
  s->depth = p->depth;
  s->scratch_len = p->scratch->len;
  s->keywords_len = p->keywords->len;
  s->ops_len = p->ops->len;
  s->buf_len = p->buf->len;
}

static void
snapshot_restore (Parser   *p,
                  Snapshot *s)
{
  *p->lex = s->lexer;
  p->cur = s->cur;
  p->prev_kind = s->prev_kind;
  p->prev_end = s->prev_end;
  p->depth = s->depth;
  stack_set_size (p->scratch, s->scratch_len);
  stack_set_size (p->keywords, s->keywords_len);
  g_array_set_size (p->ops, s->ops_len);
  g_string_truncate (p->buf, s->buf_len);
  g_clear_error (&p->error);
  g_clear_error (&p->lex_error);
  p->error_from_lexer = FALSE;
  p->min_literal = NULL;
}

/* Lists */

static gpointer *
finish_list (Parser *p,
             guint   base,
             guint  *out_len)
{
  guint     n = p->scratch->len - base;
  gpointer *from;
  gpointer *items;

  *out_len = n;
  if (n == 0)
    return NULL;
  /* (Not before: an empty scratch array may have no storage at all.) */
  from = p->scratch->pdata + base;
  /* Most lists have one to three items: a loop beats a call of memcpy. */
  items = _graft_py_module_alloc_fast (p->module, n * sizeof (gpointer));
  for (guint i = 0; i < n; i++)
    items[i] = from[i];
  p->scratch->len = base;
  return items;
}

static GraftPyExprList
finish_exprs (Parser *p,
              guint   base)
{
  GraftPyExprList list;

  list.items = (GraftPyExpr **) finish_list (p, base, &list.len);
  return list;
}

static GraftPyStmtList
finish_stmts (Parser *p,
              guint   base)
{
  GraftPyStmtList list;

  list.items = (GraftPyStmt **) finish_list (p, base, &list.len);
  return list;
}

static inline void
push (Parser  *p,
      gpointer item)
{
  stack_push (p->scratch, item);
}

/* Nodes */

static GraftPyExpr *
new_expr (Parser         *p,
          GraftPyExprKind kind,
          gsize           start)
{
  return _graft_py_expr_new_fast (p->module, kind, start, p->prev_end);
}

/* A statement from @start to @end, counted against GRAFT_MAX_STATEMENTS. */
static GraftPyStmt *
new_stmt_spanning (Parser         *p,
                   GraftPyStmtKind kind,
                   gsize           start,
                   gsize           end)
{
  if (++p->n_stmts > GRAFT_MAX_STATEMENTS)
    fail_at (p, start, MAX (start, end), GRAFT_PARSE_ERROR_LIMIT,
             "the module has more than %u statements", GRAFT_MAX_STATEMENTS);
  return graft_py_stmt_new (p->module, kind, start, end);
}

/* A simple statement, which ends at the last token consumed. */
static GraftPyStmt *
new_stmt (Parser         *p,
          GraftPyStmtKind kind,
          gsize           start)
{
  return new_stmt_spanning (p, kind, start, p->prev_end);
}

/* Sets the class by whose name private names are mangled (%NULL for
 * none), and tells the fast line whether there is one. */
static void
set_private_class (Parser     *p,
                   const char *name,
                   gsize       len)
{
  p->private_class = name;
  p->private_class_len = len;
  p->module->in_class = name != NULL;
}

/* Whether a name of @len bytes is private: two underscores start it
 * and two do not end it (`__x`, not `__x__`, `__` or `___`). */
static inline gboolean
is_private_name (const char *s,
                 gsize       len)
{
  return len > 2 && s[0] == '_' && s[1] == '_' && (s[len - 1] != '_' || s[len - 2] != '_');
}

/* The private name @s (@len bytes) interned as Python mangles it inside
 * the class p->private_class (CPython's _Py_Mangle()): `_`, the class
 * name without its leading underscores, and @s, so `__lin` in class `M`
 * is `_M__lin`. */
static const char *
intern_mangled (Parser     *p,
                const char *s,
                gsize       len)
{
  gsize       n = 1 + p->private_class_len + len;
  char       *mangled = g_malloc (n);
  const char *name;

  mangled[0] = '_';
  memcpy (mangled + 1, p->private_class, p->private_class_len);
  memcpy (mangled + 1 + p->private_class_len, s, len);
  name = _graft_py_module_intern_fast (p->module, mangled, n);
  g_free (mangled);
  return name;
}

/* The name @s (@len bytes) interned as the code around it means it:
 * mangled if it is private and inside a class. */
static inline const char *
intern_name (Parser     *p,
             const char *s,
             gsize       len)
{
  if (G_UNLIKELY (p->private_class != NULL && s[0] == '_' && is_private_name (s, len)))
    return intern_mangled (p, s, len);
  return _graft_py_module_intern_fast (p->module, s, len);
}

/* Copies the text of the NAME token at the lookahead and consumes it, as
 * intern_name() does. */
static const char *
take_name (Parser     *p,
           const char *what)
{
  const char *name;
  gsize       len;

  if (!at (p, GRAFT_PY_TOKEN_NAME))
    {
      if (p->cur.kind >= GRAFT_PY_TOKEN_KW_FALSE)
        fail_tok (p, "invalid syntax: '%s' is a keyword and cannot be used as %s",
                  graft_py_token_kind_get_name (p->cur.kind), what);
      else
        fail_tok (p, "expected %s", what);
      return NULL;
    }
  len = p->cur.end - p->cur.start;
  if (len > GRAFT_MAX_NAME_LENGTH)
    {
      fail_at (p, p->cur.start, p->cur.end, GRAFT_PARSE_ERROR_LIMIT, "name is longer than %u bytes",
               GRAFT_MAX_NAME_LENGTH);
      return NULL;
    }
  name = intern_name (p, p->text + p->cur.start, len);
  advance (p);
  return name;
}

/* Takes the name of a def or a class: as written, its `__name__`; but a
 * private one inside a class binds its mangled name, which is then
 * interned whole and the name returned is its end (*@out_prefix bytes
 * in). */
static const char *
take_definition_name (Parser     *p,
                      const char *what,
                      guint32    *out_prefix)
{
  const char *s = p->text + p->cur.start;
  gsize       len = p->cur.end - p->cur.start;
  const char *mangled;

  *out_prefix = 0;
  if (p->private_class == NULL || !at (p, GRAFT_PY_TOKEN_NAME) || len > GRAFT_MAX_NAME_LENGTH ||
      !is_private_name (s, len))
    return take_name (p, what);
  mangled = intern_mangled (p, s, len);
  *out_prefix = (guint32) (1 + p->private_class_len);
  advance (p);
  return mangled + *out_prefix;
}

/* take_name() inline where names are most frequent: in expressions. */
static inline const char *
take_name_fast (Parser     *p,
                const char *what)
{
  gsize       len = p->cur.end - p->cur.start;
  const char *name;

  if (G_UNLIKELY (p->cur.kind != GRAFT_PY_TOKEN_NAME || len > GRAFT_MAX_NAME_LENGTH))
    return take_name (p, what);
  name = intern_name (p, p->text + p->cur.start, len);
  advance (p);
  return name;
}

static gboolean
can_start_expression (GraftPyTokenKind kind)
{
  switch ((int) kind)
    {
    case GRAFT_PY_TOKEN_NAME:
    case GRAFT_PY_TOKEN_NUMBER:
    case GRAFT_PY_TOKEN_STRING:
    case GRAFT_PY_TOKEN_LPAR:
    case GRAFT_PY_TOKEN_LSQB:
    case GRAFT_PY_TOKEN_LBRACE:
    case GRAFT_PY_TOKEN_MINUS:
    case GRAFT_PY_TOKEN_PLUS:
    case GRAFT_PY_TOKEN_TILDE:
    case GRAFT_PY_TOKEN_STAR:
    case GRAFT_PY_TOKEN_ELLIPSIS:
    case GRAFT_PY_TOKEN_KW_NOT:
    case GRAFT_PY_TOKEN_KW_LAMBDA:
    case GRAFT_PY_TOKEN_KW_AWAIT:
    case GRAFT_PY_TOKEN_KW_NONE:
    case GRAFT_PY_TOKEN_KW_TRUE:
    case GRAFT_PY_TOKEN_KW_FALSE:
      return TRUE;
    default:
      return FALSE;
    }
}

/* What an expression is, for "cannot assign to ..." messages. */
static const char *
describe_expr (const GraftPyExpr *e)
{
  switch (e->kind)
    {
    case GRAFT_PY_EXPR_NAME:
      return "a name";
    case GRAFT_PY_EXPR_CONSTANT:
      switch (e->constant.kind)
        {
        case GRAFT_PY_CONST_NONE:
          return "None";
        case GRAFT_PY_CONST_BOOL:
          return e->constant.bool_value ? "True" : "False";
        case GRAFT_PY_CONST_ELLIPSIS:
          return "ellipsis";
        case GRAFT_PY_CONST_INT:
        case GRAFT_PY_CONST_FLOAT:
        case GRAFT_PY_CONST_IMAGINARY:
        case GRAFT_PY_CONST_STR:
        case GRAFT_PY_CONST_BYTES:
        case GRAFT_PY_CONST_BIGINT:
        default:
          return "a literal";
        }
    case GRAFT_PY_EXPR_JOINED_STR:
    case GRAFT_PY_EXPR_FORMATTED_VALUE:
      return "an f-string expression";
    case GRAFT_PY_EXPR_ATTRIBUTE:
      return "an attribute";
    case GRAFT_PY_EXPR_SUBSCRIPT:
      return "a subscript";
    case GRAFT_PY_EXPR_SLICE:
      return "a slice";
    case GRAFT_PY_EXPR_CALL:
      return "a function call";
    case GRAFT_PY_EXPR_BIN_OP:
    case GRAFT_PY_EXPR_UNARY_OP:
    case GRAFT_PY_EXPR_BOOL_OP:
      return "an expression";
    case GRAFT_PY_EXPR_COMPARE:
      return "a comparison";
    case GRAFT_PY_EXPR_IF_EXP:
      return "a conditional expression";
    case GRAFT_PY_EXPR_LAMBDA:
      return "a lambda";
    case GRAFT_PY_EXPR_TUPLE:
      return "a tuple";
    case GRAFT_PY_EXPR_LIST:
      return "a list";
    case GRAFT_PY_EXPR_SET:
      return "a set display";
    case GRAFT_PY_EXPR_DICT:
      return "a dict literal";
    case GRAFT_PY_EXPR_LIST_COMP:
      return "a list comprehension";
    case GRAFT_PY_EXPR_SET_COMP:
      return "a set comprehension";
    case GRAFT_PY_EXPR_DICT_COMP:
      return "a dict comprehension";
    case GRAFT_PY_EXPR_GENERATOR_EXP:
      return "a generator expression";
    case GRAFT_PY_EXPR_STARRED:
      return "a starred expression";
    case GRAFT_PY_EXPR_NAMED_EXPR:
      return "a named expression";
    case GRAFT_PY_EXPR_YIELD:
    case GRAFT_PY_EXPR_YIELD_FROM:
      return "a yield expression";
    case GRAFT_PY_EXPR_AWAIT:
      return "an await expression";
    default:
      return "an expression";
    }
}

/* Checks that @e can be assigned to (or deleted) and marks it so.
 * @top is TRUE for the whole target, where a lone Starred is an error. */
static gboolean
check_target (Parser            *p,
              GraftPyExpr       *e,
              GraftPyExprContext ctx,
              gboolean           top)
{
  const char *verb = ctx == GRAFT_PY_CTX_DEL ? "delete" : "assign to";

  switch (e->kind)
    {
    case GRAFT_PY_EXPR_NAME:
      e->name.ctx = ctx;
      return TRUE;
    case GRAFT_PY_EXPR_ATTRIBUTE:
      e->attribute.ctx = ctx;
      return TRUE;
    case GRAFT_PY_EXPR_SUBSCRIPT:
      e->subscript.ctx = ctx;
      return TRUE;
    case GRAFT_PY_EXPR_TUPLE:
    case GRAFT_PY_EXPR_LIST:
      {
        guint n_starred = 0;

        for (guint i = 0; i < e->sequence.elts.len; i++)
          {
            GraftPyExpr *elt = e->sequence.elts.items[i];

            if (elt->kind == GRAFT_PY_EXPR_STARRED)
              {
                if (ctx == GRAFT_PY_CTX_DEL)
                  {
                    fail_expr (p, elt, "invalid syntax: cannot delete a starred expression");
                    return FALSE;
                  }
                if (++n_starred > 1)
                  {
                    fail_expr (p, elt, "multiple starred expressions in assignment");
                    return FALSE;
                  }
              }
            if (!check_target (p, elt, ctx, FALSE))
              return FALSE;
          }
        e->sequence.ctx = ctx;
        return TRUE;
      }
    case GRAFT_PY_EXPR_STARRED:
      if (top)
        {
          fail_expr (p, e, "starred assignment target must be in a list or tuple");
          return FALSE;
        }
      e->starred.ctx = ctx;
      return check_target (p, e->starred.value, ctx, FALSE);
    case GRAFT_PY_EXPR_CONSTANT:
    case GRAFT_PY_EXPR_JOINED_STR:
    case GRAFT_PY_EXPR_FORMATTED_VALUE:
    case GRAFT_PY_EXPR_SLICE:
    case GRAFT_PY_EXPR_CALL:
    case GRAFT_PY_EXPR_BIN_OP:
    case GRAFT_PY_EXPR_UNARY_OP:
    case GRAFT_PY_EXPR_BOOL_OP:
    case GRAFT_PY_EXPR_COMPARE:
    case GRAFT_PY_EXPR_IF_EXP:
    case GRAFT_PY_EXPR_LAMBDA:
    case GRAFT_PY_EXPR_SET:
    case GRAFT_PY_EXPR_DICT:
    case GRAFT_PY_EXPR_LIST_COMP:
    case GRAFT_PY_EXPR_SET_COMP:
    case GRAFT_PY_EXPR_DICT_COMP:
    case GRAFT_PY_EXPR_GENERATOR_EXP:
    case GRAFT_PY_EXPR_NAMED_EXPR:
    case GRAFT_PY_EXPR_YIELD:
    case GRAFT_PY_EXPR_YIELD_FROM:
    case GRAFT_PY_EXPR_AWAIT:
    default:
      fail_expr (p, e, "invalid syntax: cannot %s %s", verb, describe_expr (e));
      return FALSE;
    }
}

/* Literals */

static GraftPyExpr *
parse_number (Parser *p)
{
  const GraftPyToken tok = p->cur;
  const char        *t = p->text;
  gsize              base_len = p->buf->len;
  GraftPyExpr       *e;

  /* Most are a few decimal digits, without underscores or a leading zero
   * (the lexer refuses `07`): their value fits in 63 bits as read. */
  if ((tok.flags & GRAFT_PY_TOKEN_FLAG_INT) != 0 && tok.end - tok.start <= 18 &&
      (t[tok.start] != '0' || tok.end - tok.start == 1))
    {
      gint64 value;

      if (_graft_py_read_decimal (t, tok.start, tok.end, &value) == tok.end)
        {
          advance (p);
          e = new_expr (p, GRAFT_PY_EXPR_CONSTANT, tok.start);
          e->constant.kind = GRAFT_PY_CONST_INT;
          e->constant.int_value = value;
          return e;
        }
    }

  /* Copy the digits without underscores. */
  for (gsize i = tok.start; i < tok.end; i++)
    if (t[i] != '_')
      g_string_append_c (p->buf, t[i]);

  advance (p);
  e = new_expr (p, GRAFT_PY_EXPR_CONSTANT, tok.start);
  if ((tok.flags & GRAFT_PY_TOKEN_FLAG_INT) != 0)
    {
      const char *digits = p->buf->str + base_len;
      guint64     value = 0;
      guint       base = 10;

      if (digits[0] == '0' && digits[1] != '\0' && !g_ascii_isdigit (digits[1]))
        {
          char k = g_ascii_tolower (digits[1]);
          base = k == 'x' ? 16 : k == 'o' ? 8
                                          : 2;
          digits += 2;
        }
      /* Up to 2**63 when the literal is a minus's operand, else 2**63 - 1. */
      guint64 limit = tok.start == p->neg_operand ? (guint64) G_MAXINT64 + 1 : (guint64) G_MAXINT64;

      for (; *digits != '\0'; digits++)
        {
          guint d = g_ascii_xdigit_value (*digits);

          if (value > (limit - d) / base)
            {
              const char *all = p->buf->str + base_len;

              /* A decimal literal beyond 64 bits is kept as its digits:
               * it can be printed and compared, not folded. */
              if (base != 10)
                {
                  fail_at (p, tok.start, tok.end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                           "integer literal too large: Graft keeps integers in 64 bits");
                  return NULL;
                }
              while (all[0] == '0' && all[1] != '\0')
                all++;
              e->constant.kind = GRAFT_PY_CONST_BIGINT;
              e->constant.len = strlen (all);
              e->constant.str = graft_py_module_strndup (p->module, all, e->constant.len);
              g_string_truncate (p->buf, base_len);
              e->end = p->prev_end;
              return e;
            }
          value = value * base + d;
        }
      e->constant.kind = GRAFT_PY_CONST_INT;
      if (value == (guint64) G_MAXINT64 + 1)
        {
          e->constant.int_value = G_MININT64;
          p->min_literal = e;
        }
      else
        e->constant.int_value = (gint64) value;
    }
  else
    {
      /* g_ascii_strtod stops at the `j` of an imaginary literal. */
      e->constant.kind = (tok.flags & GRAFT_PY_TOKEN_FLAG_IMAGINARY) != 0
                             ? GRAFT_PY_CONST_IMAGINARY
                             : GRAFT_PY_CONST_FLOAT;
      e->constant.float_value = g_ascii_strtod (p->buf->str + base_len, NULL);
    }
  g_string_truncate (p->buf, base_len);
  return e;
}

static int
hex_digits_value (const char *s,
                  gsize       n)
{
  int value = 0;

  for (gsize i = 0; i < n; i++)
    {
      if (!g_ascii_isxdigit (s[i]))
        return -1;
      value = value * 16 + g_ascii_xdigit_value (s[i]);
    }
  return value;
}

/* Decodes the literal text [start, end) of a string into p->buf: escapes
 * unless @raw, and line ends normalised to `\n` as Python does. */
static gboolean
decode_text (Parser  *p,
             gsize    start,
             gsize    end,
             gboolean raw,
             gboolean bytes)
{
  const char *t = p->text;
  GString    *out = p->buf;
  gsize       i = start;

  while (i < end)
    {
      guchar c = t[i];
      gsize  esc = i;

      if (c == '\r')
        {
          g_string_append_c (out, '\n');
          i += (i + 1 < end && t[i + 1] == '\n') ? 2 : 1;
          continue;
        }
      if (c != '\\' || raw)
        {
          if (bytes && c >= 0x80)
            {
              fail_at (p, i, i + 1, GRAFT_PARSE_ERROR_SYNTAX,
                       "bytes can only contain ASCII literal characters");
              return FALSE;
            }
          g_string_append_c (out, c);
          i++;
          /* In a raw string a backslash still keeps the next character
           * from ending the string, but both are kept. */
          if (c == '\\' && i < end && t[i] != '\r')
            {
              g_string_append_c (out, t[i]);
              i++;
            }
          continue;
        }

      i++;
      c = t[i];
      i++;
      switch (c)
        {
        case '\n':
          break;
        case '\r':
          if (i < end && t[i] == '\n')
            i++;
          break;
        case '\\':
          g_string_append_c (out, '\\');
          break;
        case '\'':
          g_string_append_c (out, '\'');
          break;
        case '"':
          g_string_append_c (out, '"');
          break;
        case 'a':
          g_string_append_c (out, '\a');
          break;
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
        case 'v':
          g_string_append_c (out, '\v');
          break;
        case '0':
        case '1':
        case '2':
        case '3':
        case '4':
        case '5':
        case '6':
        case '7':
          {
            guint value = c - '0';

            for (int k = 0; k < 2 && i < end && t[i] >= '0' && t[i] <= '7'; k++)
              value = value * 8 + (t[i++] - '0');
            if (bytes)
              {
                if (value > 0xff)
                  {
                    fail_at (p, esc, i, GRAFT_PARSE_ERROR_SYNTAX,
                             "octal escape value out of range for bytes");
                    return FALSE;
                  }
                g_string_append_c (out, (char) value);
              }
            else
              g_string_append_unichar (out, value);
            break;
          }
        case 'x':
          {
            int value = i + 2 <= end ? hex_digits_value (t + i, 2) : -1;

            if (value < 0)
              {
                fail_at (p, esc, MIN (end, i + 2), GRAFT_PARSE_ERROR_SYNTAX,
                         "truncated \\x escape: expected 2 hex digits");
                return FALSE;
              }
            i += 2;
            if (bytes)
              g_string_append_c (out, (char) value);
            else
              g_string_append_unichar (out, value);
            break;
          }
        case 'u':
        case 'U':
          {
            gsize  n = c == 'u' ? 4 : 8;
            gint64 value = 0;

            if (bytes)
              {
                g_string_append_c (out, '\\');
                g_string_append_c (out, c);
                break;
              }
            for (gsize k = 0; k < n; k++)
              {
                if (i + k >= end || !g_ascii_isxdigit (t[i + k]))
                  {
                    fail_at (p, esc, MIN (end, i + k), GRAFT_PARSE_ERROR_SYNTAX,
                             c == 'u' ? "truncated \\u escape: expected 4 hex digits"
                                      : "truncated \\U escape: expected 8 hex digits");
                    return FALSE;
                  }
                value = value * 16 + g_ascii_xdigit_value (t[i + k]);
              }
            i += n;
            if (value > 0x10FFFF)
              {
                fail_at (p, esc, i, GRAFT_PARSE_ERROR_SYNTAX,
                         "illegal Unicode character in \\U escape");
                return FALSE;
              }
            if (value >= 0xD800 && value <= 0xDFFF)
              {
                fail_at (p, esc, i, GRAFT_PARSE_ERROR_UNSUPPORTED,
                         "surrogate code points in strings are not supported");
                return FALSE;
              }
            g_string_append_unichar (out, (gunichar) value);
            break;
          }
        case 'N':
          if (!bytes)
            {
              fail_at (p, esc, i, GRAFT_PARSE_ERROR_UNSUPPORTED,
                       "\\N{...} escapes are not supported");
              return FALSE;
            }
          G_GNUC_FALLTHROUGH;
        default:
          /* Python keeps an unknown escape as it is (and warns). */
          i--;
          g_string_append_c (out, '\\');
          break;
        }
    }
  return TRUE;
}

/* Turns the text decoded since @buf_base into a Constant STR part. */
static void
flush_literal (Parser *p,
               gsize   buf_base,
               gsize   start,
               gsize   end)
{
  GraftPyExpr *e;

  if (p->buf->len == buf_base)
    return;
  e = _graft_py_expr_new_fast (p->module, GRAFT_PY_EXPR_CONSTANT, start, end);
  e->constant.kind = GRAFT_PY_CONST_STR;
  e->constant.len = p->buf->len - buf_base;
  e->constant.str = graft_py_module_strndup (p->module, p->buf->str + buf_base, e->constant.len);
  g_string_truncate (p->buf, buf_base);
  push (p, e);
}

static gsize parse_fstring_field (Parser  *p,
                                  gsize    open,
                                  gsize    end,
                                  gboolean raw,
                                  gsize    buf_base,
                                  gsize    lit_start);

/* Scans f-string text from @i up to @end (the string's content) or, when
 * @in_spec, up to the `}` closing a format spec.  Literal text accumulates
 * in p->buf above @buf_base; fields are pushed as parts.  Returns the offset
 * where scanning stopped (the closing `}` of a spec), or 0 on error. */
static gsize
scan_fstring (Parser  *p,
              gsize    i,
              gsize    end,
              gboolean raw,
              gboolean in_spec,
              gsize    buf_base)
{
  const char *t = p->text;
  gsize       lit_start = i;

  while (i < end)
    {
      char c = t[i];

      if (c == '{')
        {
          if (!in_spec && i + 1 < end && t[i + 1] == '{')
            {
              if (!decode_text (p, lit_start, i + 1, raw, FALSE))
                return 0;
              i += 2;
              lit_start = i;
              continue;
            }
          if (!decode_text (p, lit_start, i, raw, FALSE))
            return 0;
          i = parse_fstring_field (p, i, end, raw, buf_base, lit_start);
          if (i == 0)
            return 0;
          lit_start = i;
          continue;
        }
      if (c == '}')
        {
          if (in_spec)
            break;
          if (i + 1 < end && t[i + 1] == '}')
            {
              if (!decode_text (p, lit_start, i + 1, raw, FALSE))
                return 0;
              i += 2;
              lit_start = i;
              continue;
            }
          fail_at (p, i, i + 1, GRAFT_PARSE_ERROR_SYNTAX, "f-string: single '}' is not allowed");
          return 0;
        }
      if (c == '\\' && !raw && i + 1 < end && t[i + 1] != '{' && t[i + 1] != '}')
        i += 2;
      else
        i++;
    }
  if (in_spec && i >= end)
    {
      fail_at (p, lit_start, end, GRAFT_PARSE_ERROR_SYNTAX, "f-string: expecting '}'");
      return 0;
    }
  if (!decode_text (p, lit_start, MIN (i, end), raw, FALSE))
    return 0;
  return i;
}

/* Parses the replacement field whose `{` is at @open and pushes a
 * FormattedValue part (after the pending literal text above @buf_base).
 * The expression is tokenized by a lexer of its own over the same source,
 * so its nodes have true source spans.  Returns the offset after the `}`,
 * or 0 on error. */
static gsize
parse_fstring_field (Parser  *p,
                     gsize    open,
                     gsize    end,
                     gboolean raw,
                     gsize    buf_base,
                     gsize    lit_start)
{
  GraftPyLexer     sub;
  GraftPyLexer    *saved_lex = p->lex;
  GraftPyToken     saved_cur = p->cur;
  GraftPyTokenKind saved_prev_kind = p->prev_kind;
  guint32          saved_prev_end = p->prev_end;
  GraftPyExpr     *value = NULL, *spec = NULL, *field;
  int              conversion = -1;
  gsize            close = 0;
  gboolean         self_doc = FALSE;

  if (!enter (p, "f-string nested too deeply"))
    return 0;

  graft_py_lexer_init_embedded (&sub, p->source, open + 1, end);
  p->lex = &sub;
  p->cur.kind = GRAFT_PY_TOKEN_LBRACE;
  advance (p);

  if (at (p, GRAFT_PY_TOKEN_RBRACE) || at (p, GRAFT_PY_TOKEN_EXCLAMATION) ||
      at (p, GRAFT_PY_TOKEN_COLON) || at (p, GRAFT_PY_TOKEN_ENDMARKER))
    {
      fail_at (p, open, p->cur.end, GRAFT_PARSE_ERROR_SYNTAX,
               "f-string: empty expression not allowed");
      goto out;
    }
  if (at (p, GRAFT_PY_TOKEN_KW_YIELD))
    {
      fail_tok (p, "yield expressions in f-strings are not supported");
      goto out;
    }
  value = parse_star_expressions (p);
  if (value == NULL)
    goto out;

  if (at (p, GRAFT_PY_TOKEN_EQUAL))
    {
      /* `f"{x=}"` writes the expression's text, then its repr. */
      self_doc = TRUE;
      g_string_append_len (p->buf, p->text + open + 1, p->cur.end - (open + 1));
      advance (p);
    }
  if (at (p, GRAFT_PY_TOKEN_EXCLAMATION))
    {
      gsize       bang_end = p->cur.end;
      const char *c = p->text + p->cur.end;

      advance (p);
      if (!at (p, GRAFT_PY_TOKEN_NAME) || p->cur.start != bang_end ||
          p->cur.end != bang_end + 1 || strchr ("rsa", *c) == NULL)
        {
          fail_tok (p, "f-string: invalid conversion character: expected 's', 'r', or 'a'");
          goto out;
        }
      conversion = *c;
      advance (p);
    }
  if (at (p, GRAFT_PY_TOKEN_COLON) || at (p, GRAFT_PY_TOKEN_COLONEQUAL))
    {
      gsize spec_start = p->cur.start + 1;
      gsize spec_buf = p->buf->len;
      guint spec_parts = p->scratch->len;

      close = scan_fstring (p, spec_start, end, raw, TRUE, spec_buf);
      if (close == 0)
        goto out;
      flush_literal (p, spec_buf, spec_start, close);
      spec = graft_py_expr_new (p->module, GRAFT_PY_EXPR_JOINED_STR, spec_start, close);
      spec->joined_str.values = finish_exprs (p, spec_parts);
    }
  else if (at (p, GRAFT_PY_TOKEN_RBRACE))
    close = p->cur.start;
  else
    {
      if (at (p, GRAFT_PY_TOKEN_ENDMARKER))
        fail_at (p, open, open + 1, GRAFT_PARSE_ERROR_SYNTAX, "f-string: expecting '}'");
      else
        fail_tok (p, "f-string: expecting '}'");
      goto out;
    }

  if (self_doc && conversion == -1 && spec == NULL)
    conversion = 'r';
  flush_literal (p, buf_base, lit_start, open);
  field = graft_py_expr_new (p->module, GRAFT_PY_EXPR_FORMATTED_VALUE, open, close + 1);
  field->formatted_value.value = value;
  field->formatted_value.conversion = conversion;
  field->formatted_value.format_spec = spec;
  push (p, field);
  leave (p);

out:
  p->lex = saved_lex;
  if (p->error == NULL)
    {
      p->cur = saved_cur;
      p->prev_kind = saved_prev_kind;
      p->prev_end = saved_prev_end;
      return close + 1;
    }
  return 0;
}

/* Parses one or more adjacent string literals into a Constant or, if one
 * of them is an f-string, a JoinedStr. */
static GraftPyExpr *
parse_strings (Parser *p)
{
  gsize        start = p->cur.start;
  gsize        buf_base = p->buf->len;
  guint        parts = p->scratch->len;
  int          bytes = -1;
  gboolean     fstring = FALSE;
  GraftPyExpr *e;

  while (at (p, GRAFT_PY_TOKEN_STRING))
    {
      GraftPyToken tok = p->cur;
      gboolean     raw = (tok.flags & GRAFT_PY_TOKEN_FLAG_RAW) != 0;
      gboolean     is_bytes = (tok.flags & GRAFT_PY_TOKEN_FLAG_BYTES) != 0;
      gsize        quotes = (tok.flags & GRAFT_PY_TOKEN_FLAG_TRIPLE) != 0 ? 3 : 1;
      gsize        content = tok.start;

      while (p->text[content] != '\'' && p->text[content] != '"')
        content++;
      content += quotes;

      if (bytes != -1 && bytes != is_bytes)
        {
          fail_at (p, tok.start, tok.end, GRAFT_PARSE_ERROR_SYNTAX,
                   "cannot mix bytes and nonbytes literals");
          return NULL;
        }
      bytes = is_bytes;
      if ((tok.flags & GRAFT_PY_TOKEN_FLAG_FORMAT) != 0)
        {
          fstring = TRUE;
          if (scan_fstring (p, content, tok.end - quotes, raw, FALSE, buf_base) == 0)
            return NULL;
        }
      else if (!decode_text (p, content, tok.end - quotes, raw, is_bytes))
        return NULL;
      advance (p);
    }

  if (fstring)
    {
      flush_literal (p, buf_base, start, p->prev_end);
      e = new_expr (p, GRAFT_PY_EXPR_JOINED_STR, start);
      e->joined_str.values = finish_exprs (p, parts);
      return e;
    }

  e = new_expr (p, GRAFT_PY_EXPR_CONSTANT, start);
  e->constant.kind = bytes ? GRAFT_PY_CONST_BYTES : GRAFT_PY_CONST_STR;
  e->constant.len = p->buf->len - buf_base;
  e->constant.str = graft_py_module_strndup (p->module, p->buf->str + buf_base, e->constant.len);
  g_string_truncate (p->buf, buf_base);
  return e;
}

/* Parameters */

typedef enum {
  PARAMS_DEF,
  PARAMS_LAMBDA,
} ParamsKind;

static GraftPyArg *
parse_param (Parser    *p,
             ParamsKind kind,
             gboolean   allow_default)
{
  gsize       start = p->cur.start;
  const char *name;
  GraftPyArg *arg;

  name = take_name (p, "a parameter name");
  if (name == NULL)
    return NULL;
  arg = graft_py_module_alloc (p->module, sizeof *arg);
  memset (arg, 0, sizeof *arg);
  arg->name = name;
  if (kind == PARAMS_DEF && accept (p, GRAFT_PY_TOKEN_COLON))
    {
      arg->annotation = parse_expression (p);
      if (arg->annotation == NULL)
        return NULL;
    }
  if (allow_default && accept (p, GRAFT_PY_TOKEN_EQUAL))
    {
      arg->default_value = parse_expression (p);
      if (arg->default_value == NULL)
        return NULL;
    }
  arg->start = start;
  arg->end = p->prev_end;
  return arg;
}

/* Parses parameters up to (not including) @close. */
static GraftPyArguments *
parse_parameters (Parser          *p,
                  GraftPyTokenKind close,
                  ParamsKind       kind)
{
  GraftPyArguments *a = graft_py_module_alloc (p->module, sizeof *a);
  guint             base = p->scratch->len;
  guint             n_posonly = 0;
  guint             kwonly_at = G_MAXUINT;
  gboolean          slash = FALSE, star = FALSE, defaults = FALSE;
  gsize             star_at = 0;
  guint             n;
  gpointer         *items;

  memset (a, 0, sizeof *a);
  while (!at (p, close))
    {
      if (a->kwarg != NULL)
        {
          fail_tok (p, "parameters cannot follow the '**' parameter");
          return NULL;
        }
      if (at (p, GRAFT_PY_TOKEN_SLASH))
        {
          if (slash)
            fail_tok (p, "'/' may appear only once");
          else if (star)
            fail_tok (p, "'/' must come before '*'");
          else if (p->scratch->len == base)
            fail_tok (p, "at least one parameter must come before '/'");
          if (p->error != NULL)
            return NULL;
          slash = TRUE;
          n_posonly = p->scratch->len - base;
          advance (p);
        }
      else if (at (p, GRAFT_PY_TOKEN_STAR))
        {
          if (star)
            {
              fail_tok (p, "'*' may appear only once");
              return NULL;
            }
          star = TRUE;
          star_at = p->cur.start;
          advance (p);
          kwonly_at = p->scratch->len;
          if (at (p, GRAFT_PY_TOKEN_NAME))
            {
              a->vararg = parse_param (p, kind, FALSE);
              if (a->vararg == NULL)
                return NULL;
              if (at (p, GRAFT_PY_TOKEN_EQUAL))
                {
                  fail_tok (p, "the '*' parameter cannot have a default value");
                  return NULL;
                }
            }
        }
      else if (at (p, GRAFT_PY_TOKEN_DOUBLESTAR))
        {
          advance (p);
          a->kwarg = parse_param (p, kind, FALSE);
          if (a->kwarg == NULL)
            return NULL;
          if (at (p, GRAFT_PY_TOKEN_EQUAL))
            {
              fail_tok (p, "the '**' parameter cannot have a default value");
              return NULL;
            }
        }
      else
        {
          gsize       start = p->cur.start;
          GraftPyArg *arg = parse_param (p, kind, TRUE);

          if (arg == NULL)
            return NULL;
          if (arg->default_value != NULL)
            defaults = TRUE;
          else if (defaults && !star)
            {
              fail_at (p, start, arg->end, GRAFT_PARSE_ERROR_SYNTAX,
                       "parameter without a default follows parameter with a default");
              return NULL;
            }
          push (p, arg);
        }
      if (!accept (p, GRAFT_PY_TOKEN_COMMA))
        break;
    }
  if (star && a->vararg == NULL && p->scratch->len == kwonly_at)
    {
      fail_at (p, star_at, star_at + 1, GRAFT_PARSE_ERROR_SYNTAX,
               "named parameters must follow a bare '*'");
      return NULL;
    }

  /* Python's symbol table refuses a name twice, at the second. */
  {
    GraftPyArg *all[] = { a->vararg, a->kwarg };

    for (guint i = base; i < p->scratch->len + G_N_ELEMENTS (all); i++)
      {
        GraftPyArg *x = i < p->scratch->len ? p->scratch->pdata[i] : all[i - p->scratch->len];

        if (x == NULL)
          continue;
        for (guint j = base; j < i && j < p->scratch->len + G_N_ELEMENTS (all); j++)
          {
            GraftPyArg *y = j < p->scratch->len ? p->scratch->pdata[j] : all[j - p->scratch->len];

            if (y != NULL && strcmp (x->name, y->name) == 0)
              {
                /* The later of the two in the text. */
                GraftPyArg *second = x->start > y->start ? x : y;

                fail_at (p, second->start, second->end, GRAFT_PARSE_ERROR_SYNTAX,
                         "duplicate argument '%s' in function definition", x->name);
                return NULL;
              }
          }
      }
  }

  /* Split the collected parameters into the three lists. */
  items = finish_list (p, base, &n);
  if (kwonly_at == G_MAXUINT)
    kwonly_at = base + n;
  a->n_posonly = n_posonly;
  a->n_args = (kwonly_at - base) - n_posonly;
  a->n_kwonly = n - (kwonly_at - base);
  if (n > 0)
    {
      a->posonly = (GraftPyArg **) items;
      a->args = (GraftPyArg **) items + n_posonly;
      a->kwonly = (GraftPyArg **) items + (kwonly_at - base);
    }
  return a;
}

/* Expressions */

/* Parses `for ... in ... if ...` clauses into a comprehension node whose
 * element(s) are already parsed. */
static GraftPyExpr *parse_target_list (Parser *p);

static GraftPyExpr *
parse_comprehension (Parser         *p,
                     GraftPyExprKind kind,
                     gsize           start,
                     GraftPyExpr    *elt,
                     GraftPyExpr    *value)
{
  guint        base = p->scratch->len;
  GraftPyExpr *e;

  if (elt->kind == GRAFT_PY_EXPR_STARRED)
    {
      fail_expr (p, elt, "iterable unpacking cannot be used in a comprehension");
      return NULL;
    }
  while (at (p, GRAFT_PY_TOKEN_KW_FOR) || at (p, GRAFT_PY_TOKEN_KW_ASYNC))
    {
      GraftPyComprehension *gen = graft_py_module_alloc (p->module, sizeof *gen);
      guint                 ifs;

      memset (gen, 0, sizeof *gen);
      gen->start = p->cur.start;
      if (accept (p, GRAFT_PY_TOKEN_KW_ASYNC))
        {
          gen->is_async = TRUE;
          if (!expect (p, GRAFT_PY_TOKEN_KW_FOR))
            return NULL;
        }
      else
        advance (p);
      gen->target = parse_target_list (p);
      if (gen->target == NULL || !check_target (p, gen->target, GRAFT_PY_CTX_STORE, TRUE))
        return NULL;
      if (!expect (p, GRAFT_PY_TOKEN_KW_IN))
        return NULL;
      gen->iter = parse_disjunction (p);
      if (gen->iter == NULL)
        return NULL;
      ifs = p->scratch->len;
      while (accept (p, GRAFT_PY_TOKEN_KW_IF))
        {
          GraftPyExpr *cond = parse_disjunction (p);

          if (cond == NULL)
            return NULL;
          push (p, cond);
        }
      gen->ifs = finish_exprs (p, ifs);
      gen->end = p->prev_end;
      push (p, gen);
    }
  e = new_expr (p, kind, start);
  e->comp.elt = elt;
  e->comp.value = value;
  e->comp.generators = (GraftPyComprehension **) finish_list (p, base, &e->comp.n_generators);
  return e;
}

/* `*value` (a Starred), or whatever @otherwise parses. */
static GraftPyExpr *
parse_starred_or (Parser *p,
                  GraftPyExpr *(*otherwise) (Parser *) )
{
  gsize        start = p->cur.start;
  GraftPyExpr *value, *e;

  if (!at (p, GRAFT_PY_TOKEN_STAR))
    return otherwise (p);
  advance (p);
  value = parse_binary (p, 1);
  if (value == NULL)
    return NULL;
  e = new_expr (p, GRAFT_PY_EXPR_STARRED, start);
  e->starred.value = value;
  return e;
}

static GraftPyExpr *
parse_star_named_expression (Parser *p)
{
  GraftPyExpr *e;

  /* Straight to parse_expression() unless the item is starred. */
  if (at (p, GRAFT_PY_TOKEN_STAR))
    return parse_starred_or (p, parse_named_expression);
  e = parse_expression (p);
  if (e != NULL && at (p, GRAFT_PY_TOKEN_COLONEQUAL))
    e = named_expression_rest (p, e);
  return e;
}

static GraftPyExpr *
parse_yield (Parser *p)
{
  gsize        start = p->cur.start;
  GraftPyExpr *e;

  advance (p);
  if (accept (p, GRAFT_PY_TOKEN_KW_FROM))
    {
      GraftPyExpr *value = parse_expression (p);

      if (value == NULL)
        return NULL;
      e = new_expr (p, GRAFT_PY_EXPR_YIELD_FROM, start);
      e->value = value;
      return e;
    }
  e = new_expr (p, GRAFT_PY_EXPR_YIELD, start);
  if (can_start_expression (p->cur.kind))
    {
      e->value = parse_star_expressions (p);
      if (e->value == NULL)
        return NULL;
      e->end = p->prev_end;
    }
  return e;
}

/* After `(`: a parenthesized expression, a tuple, a generator expression
 * or a parenthesized yield. */
static GraftPyExpr *
parse_paren (Parser *p)
{
  gsize        start = p->cur.start;
  guint        base = p->scratch->len;
  GraftPyExpr *first, *e;

  advance (p);
  if (accept (p, GRAFT_PY_TOKEN_RPAR))
    {
      e = new_expr (p, GRAFT_PY_EXPR_TUPLE, start);
      return e;
    }
  if (at (p, GRAFT_PY_TOKEN_KW_YIELD))
    {
      e = parse_yield (p);
      if (e == NULL || !expect (p, GRAFT_PY_TOKEN_RPAR))
        return NULL;
      return e;
    }
  first = parse_star_named_expression (p);
  if (first == NULL)
    return NULL;
  if (at (p, GRAFT_PY_TOKEN_KW_FOR) || at (p, GRAFT_PY_TOKEN_KW_ASYNC))
    {
      e = parse_comprehension (p, GRAFT_PY_EXPR_GENERATOR_EXP, start, first, NULL);
      if (e == NULL || !expect (p, GRAFT_PY_TOKEN_RPAR))
        return NULL;
      e->end = p->prev_end;
      return e;
    }
  if (!at (p, GRAFT_PY_TOKEN_COMMA))
    {
      if (!expect (p, GRAFT_PY_TOKEN_RPAR))
        return NULL;
      if (first->kind == GRAFT_PY_EXPR_STARRED)
        {
          fail_expr (p, first, "cannot use a starred expression here");
          return NULL;
        }
      first->paren_start = start + 1;
      return first;
    }
  push (p, first);
  while (accept (p, GRAFT_PY_TOKEN_COMMA))
    {
      GraftPyExpr *item;

      if (at (p, GRAFT_PY_TOKEN_RPAR))
        break;
      item = parse_star_named_expression (p);
      if (item == NULL)
        return NULL;
      push (p, item);
    }
  if (!expect (p, GRAFT_PY_TOKEN_RPAR))
    return NULL;
  e = new_expr (p, GRAFT_PY_EXPR_TUPLE, start);
  e->sequence.elts = finish_exprs (p, base);
  return e;
}

/* The rest of a list or set display after its first item: a
 * comprehension, or more items up to @close. */
static GraftPyExpr *
finish_display (Parser          *p,
                GraftPyExpr     *first,
                GraftPyTokenKind close,
                GraftPyExprKind  comp_kind,
                GraftPyExprKind  kind,
                gsize            start,
                guint            base)
{
  GraftPyExpr *e;

  if (at (p, GRAFT_PY_TOKEN_KW_FOR) || at (p, GRAFT_PY_TOKEN_KW_ASYNC))
    {
      e = parse_comprehension (p, comp_kind, start, first, NULL);
      if (e == NULL || !expect (p, close))
        return NULL;
      e->end = p->prev_end;
      return e;
    }
  push (p, first);
  while (accept (p, GRAFT_PY_TOKEN_COMMA))
    {
      GraftPyExpr *item;

      if (at (p, close))
        break;
      item = parse_star_named_expression (p);
      if (item == NULL)
        return NULL;
      push (p, item);
    }
  if (!at (p, close))
    {
      gboolean square = close == GRAFT_PY_TOKEN_RSQB;

      if (can_start_expression (p->cur.kind))
        fail_tok (p, square ? "invalid syntax: expected ',' or ']'"
                            : "invalid syntax: expected ',' or '}'");
      else
        fail_tok (p, square ? "expected ']'" : "expected '}'");
      return NULL;
    }
  advance (p);
  e = new_expr (p, kind, start);
  e->sequence.elts = finish_exprs (p, base);
  return e;
}

static GraftPyExpr *
parse_list (Parser *p)
{
  gsize        start = p->cur.start;
  guint        base = p->scratch->len;
  GraftPyExpr *first;

  advance (p);
  if (accept (p, GRAFT_PY_TOKEN_RSQB))
    return new_expr (p, GRAFT_PY_EXPR_LIST, start);
  first = parse_star_named_expression (p);
  if (first == NULL)
    return NULL;
  return finish_display (p, first, GRAFT_PY_TOKEN_RSQB, GRAFT_PY_EXPR_LIST_COMP, GRAFT_PY_EXPR_LIST,
                         start, base);
}

/* After `{`: a dict, a set, or a dict or set comprehension. */
static GraftPyExpr *
parse_brace (Parser *p)
{
  gsize        start = p->cur.start;
  guint        base = p->scratch->len;
  GraftPyExpr *first = NULL, *e;
  gboolean     is_dict;

  advance (p);
  if (accept (p, GRAFT_PY_TOKEN_RBRACE))
    return new_expr (p, GRAFT_PY_EXPR_DICT, start);

  if (at (p, GRAFT_PY_TOKEN_DOUBLESTAR))
    is_dict = TRUE;
  else
    {
      first = parse_star_named_expression (p);
      if (first == NULL)
        return NULL;
      is_dict = at (p, GRAFT_PY_TOKEN_COLON) && first->kind != GRAFT_PY_EXPR_STARRED;
    }

  if (!is_dict)
    return finish_display (p, first, GRAFT_PY_TOKEN_RBRACE, GRAFT_PY_EXPR_SET_COMP,
                           GRAFT_PY_EXPR_SET, start, base);

  /* Keys and values are pushed in pairs and split at the end. */
  for (;;)
    {
      GraftPyExpr *key = NULL, *value;

      if (first != NULL)
        {
          key = first;
          first = NULL;
          advance (p); /* the ':' */
          value = parse_expression (p);
          if (value == NULL)
            return NULL;
          if (p->scratch->len == base &&
              (at (p, GRAFT_PY_TOKEN_KW_FOR) || at (p, GRAFT_PY_TOKEN_KW_ASYNC)))
            {
              e = parse_comprehension (p, GRAFT_PY_EXPR_DICT_COMP, start, key, value);
              if (e == NULL || !expect (p, GRAFT_PY_TOKEN_RBRACE))
                return NULL;
              e->end = p->prev_end;
              return e;
            }
        }
      else if (accept (p, GRAFT_PY_TOKEN_DOUBLESTAR))
        {
          value = parse_binary (p, 1);
          if (value == NULL)
            return NULL;
        }
      else
        {
          key = parse_expression (p);
          if (key == NULL || !expect (p, GRAFT_PY_TOKEN_COLON))
            return NULL;
          value = parse_expression (p);
          if (value == NULL)
            return NULL;
        }
      push (p, key);
      push (p, value);
      if (!accept (p, GRAFT_PY_TOKEN_COMMA) || at (p, GRAFT_PY_TOKEN_RBRACE))
        break;
    }
  if (!expect (p, GRAFT_PY_TOKEN_RBRACE))
    return NULL;

  e = new_expr (p, GRAFT_PY_EXPR_DICT, start);
  {
    guint n = (p->scratch->len - base) / 2;

    e->dict.keys.len = e->dict.values.len = n;
    e->dict.keys.items = graft_py_module_alloc (p->module, n * sizeof (GraftPyExpr *));
    e->dict.values.items = graft_py_module_alloc (p->module, n * sizeof (GraftPyExpr *));
    for (guint i = 0; i < n; i++)
      {
        e->dict.keys.items[i] = g_ptr_array_index (p->scratch, base + 2 * i);
        e->dict.values.items[i] = g_ptr_array_index (p->scratch, base + 2 * i + 1);
      }
    stack_set_size (p->scratch, base);
  }
  return e;
}

static GraftPyExpr *
parse_atom (Parser *p)
{
  gsize        start = p->cur.start;
  GraftPyExpr *e;

  switch ((int) p->cur.kind)
    {
    case GRAFT_PY_TOKEN_NAME:
      {
        const char *id = take_name_fast (p, "a name");

        if (id == NULL)
          return NULL;
        e = new_expr (p, GRAFT_PY_EXPR_NAME, start);
        e->name.id = id;
        return e;
      }
    case GRAFT_PY_TOKEN_NUMBER:
      return parse_number (p);
    case GRAFT_PY_TOKEN_STRING:
      return parse_strings (p);
    case GRAFT_PY_TOKEN_KW_NONE:
    case GRAFT_PY_TOKEN_KW_TRUE:
    case GRAFT_PY_TOKEN_KW_FALSE:
    case GRAFT_PY_TOKEN_ELLIPSIS:
      {
        GraftPyTokenKind kind = p->cur.kind;

        advance (p);
        e = new_expr (p, GRAFT_PY_EXPR_CONSTANT, start);
        if (kind == GRAFT_PY_TOKEN_KW_NONE)
          e->constant.kind = GRAFT_PY_CONST_NONE;
        else if (kind == GRAFT_PY_TOKEN_ELLIPSIS)
          e->constant.kind = GRAFT_PY_CONST_ELLIPSIS;
        else
          {
            e->constant.kind = GRAFT_PY_CONST_BOOL;
            e->constant.bool_value = kind == GRAFT_PY_TOKEN_KW_TRUE;
          }
        return e;
      }
    case GRAFT_PY_TOKEN_LPAR:
    case GRAFT_PY_TOKEN_LSQB:
    case GRAFT_PY_TOKEN_LBRACE:
      {
        GraftPyTokenKind kind = p->cur.kind;

        if (!enter (p, "too many nested parentheses"))
          return NULL;
        e = kind == GRAFT_PY_TOKEN_LPAR   ? parse_paren (p)
            : kind == GRAFT_PY_TOKEN_LSQB ? parse_list (p)
                                          : parse_brace (p);
        leave (p);
        return e;
      }
    case GRAFT_PY_TOKEN_INDENT:
      fail_tok (p, "unexpected indent");
      return NULL;
    case GRAFT_PY_TOKEN_KW_YIELD:
      fail_tok (p, "invalid syntax: a yield expression here must be in parentheses");
      return NULL;
    case GRAFT_PY_TOKEN_STAR:
      fail_tok (p, "cannot use a starred expression here");
      return NULL;
    default:
      break;
    }

  switch ((int) p->prev_kind)
    {
    case GRAFT_PY_TOKEN_NAME:
    case GRAFT_PY_TOKEN_NUMBER:
    case GRAFT_PY_TOKEN_STRING:
    case GRAFT_PY_TOKEN_NEWLINE:
    case GRAFT_PY_TOKEN_INDENT:
    case GRAFT_PY_TOKEN_DEDENT:
    case GRAFT_PY_TOKEN_ENDMARKER:
    case GRAFT_PY_TOKEN_ERROR:
    case GRAFT_PY_TOKEN_RPAR:
    case GRAFT_PY_TOKEN_RSQB:
    case GRAFT_PY_TOKEN_RBRACE:
      fail_tok (p, "invalid syntax");
      break;
    default:
      fail_tok (p, "expected an expression after '%s'",
                graft_py_token_kind_get_name (p->prev_kind));
      break;
    }
  return NULL;
}

/* Parses the arguments of a call after its `(` (also a class's bases). */
static gboolean
parse_call_args (Parser           *p,
                 GraftPyExprList  *out_args,
                 GraftPyKeyword ***out_keywords,
                 guint            *out_n_keywords)
{
  guint    base = p->scratch->len;
  guint    kw_base = p->keywords->len;
  gboolean seen_keyword = FALSE, seen_kwargs = FALSE;
  guint    n_keywords = 0;

  /* Positional arguments go on the scratch stack, keywords on their own
   * (they may interleave with `*` arguments, so their order within each
   * kind is kept); both are cut back to where they were on failure. */
  advance (p);
  while (!at (p, GRAFT_PY_TOKEN_RPAR))
    {
      gsize start = p->cur.start;

      if (at (p, GRAFT_PY_TOKEN_STAR))
        {
          GraftPyExpr *value, *e;

          if (seen_kwargs)
            {
              fail_tok (p, "iterable argument unpacking follows keyword argument unpacking");
              goto fail;
            }
          advance (p);
          value = parse_expression (p);
          if (value == NULL)
            goto fail;
          e = new_expr (p, GRAFT_PY_EXPR_STARRED, start);
          e->starred.value = value;
          push (p, e);
        }
      else if (at (p, GRAFT_PY_TOKEN_DOUBLESTAR))
        {
          GraftPyKeyword *kw = _graft_py_module_alloc_fast (p->module, sizeof *kw);

          advance (p);
          kw->name = NULL;
          kw->value = parse_expression (p);
          if (kw->value == NULL)
            goto fail;
          kw->start = start;
          kw->end = p->prev_end;
          stack_push (p->keywords, kw);
          seen_kwargs = TRUE;
        }
      else
        {
          GraftPyExpr *e = parse_expression (p);

          if (e != NULL && at (p, GRAFT_PY_TOKEN_COLONEQUAL))
            e = named_expression_rest (p, e);
          if (e == NULL)
            goto fail;
          if (at (p, GRAFT_PY_TOKEN_EQUAL))
            {
              GraftPyKeyword *kw;

              if (e->kind != GRAFT_PY_EXPR_NAME)
                {
                  fail_expr (p, e, "invalid syntax: a keyword argument must be a name, "
                                   "not %s (maybe you meant '==')",
                             describe_expr (e));
                  goto fail;
                }
              advance (p);
              kw = _graft_py_module_alloc_fast (p->module, sizeof *kw);
              kw->name = e->name.id;
              /* A keyword argument's name is not mangled (CPython passes
               * `f(__x=1)` as written), though the name read as an
               * expression was. */
              if (G_UNLIKELY (p->private_class != NULL &&
                              is_private_name (p->text + e->start, e->end - e->start)))
                kw->name = _graft_py_module_intern_fast (p->module, p->text + e->start,
                                                         e->end - e->start);
              kw->value = parse_expression (p);
              if (kw->value == NULL)
                goto fail;
              kw->start = start;
              kw->end = p->prev_end;
              stack_push (p->keywords, kw);
              seen_keyword = TRUE;
            }
          else if (at (p, GRAFT_PY_TOKEN_KW_FOR) || at (p, GRAFT_PY_TOKEN_KW_ASYNC))
            {
              GraftPyExpr *gen =
                  parse_comprehension (p, GRAFT_PY_EXPR_GENERATOR_EXP, start, e, NULL);

              if (gen == NULL)
                goto fail;
              if (p->scratch->len != base || p->keywords->len != kw_base ||
                  !at (p, GRAFT_PY_TOKEN_RPAR))
                {
                  fail_expr (p, gen, "generator expression must be parenthesized");
                  goto fail;
                }
              push (p, gen);
            }
          else
            {
              if (seen_kwargs || seen_keyword)
                {
                  fail_expr (p, e,
                             seen_kwargs ? "positional argument follows keyword argument unpacking"
                                         : "positional argument follows keyword argument");
                  goto fail;
                }
              push (p, e);
            }
        }
      if (!accept (p, GRAFT_PY_TOKEN_COMMA))
        break;
    }
  if (!at (p, GRAFT_PY_TOKEN_RPAR))
    {
      if (can_start_expression (p->cur.kind))
        fail_tok (p, "invalid syntax: expected ',' or ')' (perhaps a comma is missing)");
      else
        fail_tok (p, "expected ')'");
      goto fail;
    }
  advance (p);

  *out_args = finish_exprs (p, base);
  n_keywords = p->keywords->len - kw_base;
  *out_keywords = NULL;
  if (n_keywords > 0)
    {
      GraftPyKeyword **items = _graft_py_module_alloc_fast (p->module,
                                                            n_keywords * sizeof (gpointer));

      for (guint i = 0; i < n_keywords; i++)
        items[i] = p->keywords->pdata[kw_base + i];
      *out_keywords = items;
      p->keywords->len = kw_base;
    }
  *out_n_keywords = n_keywords;
  return TRUE;

fail:
  p->keywords->len = kw_base;
  return FALSE;
}

/* One element of a subscript: an expression or a slice. */
static GraftPyExpr *
parse_slice (Parser *p)
{
  gsize        start = p->cur.start;
  GraftPyExpr *lower = NULL, *e;

  if (!at (p, GRAFT_PY_TOKEN_COLON))
    {
      lower = parse_star_named_expression (p);
      if (lower == NULL || !at (p, GRAFT_PY_TOKEN_COLON))
        return lower;
    }
  advance (p);
  e = _graft_py_expr_new_fast (p->module, GRAFT_PY_EXPR_SLICE, start, start);
  e->slice.lower = lower;
  if (!at (p, GRAFT_PY_TOKEN_COLON) && !at (p, GRAFT_PY_TOKEN_COMMA) &&
      !at (p, GRAFT_PY_TOKEN_RSQB))
    {
      e->slice.upper = parse_expression (p);
      if (e->slice.upper == NULL)
        return NULL;
    }
  if (accept (p, GRAFT_PY_TOKEN_COLON) &&
      !at (p, GRAFT_PY_TOKEN_COMMA) && !at (p, GRAFT_PY_TOKEN_RSQB))
    {
      e->slice.step = parse_expression (p);
      if (e->slice.step == NULL)
        return NULL;
    }
  e->end = p->prev_end;
  return e;
}

static GraftPyExpr *
parse_subscript (Parser      *p,
                 GraftPyExpr *value)
{
  guint        base = p->scratch->len;
  gsize        index_start;
  GraftPyExpr *index, *e;

  advance (p);
  index_start = p->cur.start;
  if (at (p, GRAFT_PY_TOKEN_RSQB))
    {
      fail_tok (p, "expected an index or a slice after '['");
      return NULL;
    }
  index = parse_slice (p);
  if (index == NULL)
    return NULL;
  if (at (p, GRAFT_PY_TOKEN_COMMA))
    {
      push (p, index);
      while (accept (p, GRAFT_PY_TOKEN_COMMA))
        {
          GraftPyExpr *item;

          if (at (p, GRAFT_PY_TOKEN_RSQB))
            break;
          item = parse_slice (p);
          if (item == NULL)
            return NULL;
          push (p, item);
        }
      index = new_expr (p, GRAFT_PY_EXPR_TUPLE, index_start);
      index->sequence.elts = finish_exprs (p, base);
    }
  if (!expect (p, GRAFT_PY_TOKEN_RSQB))
    return NULL;
  e = new_expr (p, GRAFT_PY_EXPR_SUBSCRIPT, graft_py_expr_get_outer_start (value));
  e->subscript.value = value;
  e->subscript.slice = index;
  return e;
}

static GraftPyExpr *
parse_primary (Parser *p)
{
  GraftPyExpr *e = parse_atom (p);

  while (e != NULL)
    {
      if (accept (p, GRAFT_PY_TOKEN_DOT))
        {
          const char  *attr = take_name_fast (p, "an attribute name after '.'");
          GraftPyExpr *a;

          if (attr == NULL)
            return NULL;
          a = new_expr (p, GRAFT_PY_EXPR_ATTRIBUTE, graft_py_expr_get_outer_start (e));
          a->attribute.value = e;
          a->attribute.attr = attr;
          e = a;
        }
      else if (at (p, GRAFT_PY_TOKEN_LPAR))
        {
          GraftPyExpr     *c;
          GraftPyExprList  args;
          GraftPyKeyword **keywords;
          guint            n_keywords;

          if (!enter (p, "too many nested parentheses"))
            return NULL;
          if (!parse_call_args (p, &args, &keywords, &n_keywords))
            return NULL;
          leave (p);
          c = new_expr (p, GRAFT_PY_EXPR_CALL, graft_py_expr_get_outer_start (e));
          c->call.func = e;
          c->call.args = args;
          c->call.keywords = keywords;
          c->call.n_keywords = n_keywords;
          e = c;
        }
      else if (at (p, GRAFT_PY_TOKEN_LSQB))
        {
          if (!enter (p, "too many nested parentheses"))
            return NULL;
          e = parse_subscript (p, e);
          leave (p);
        }
      else
        break;
    }
  return e;
}

/* After the base of a power (`base ** exponent`), which began at @start
 * (a parenthesised base's span leaves out its parentheses). */
static GraftPyExpr *
power_rest (Parser      *p,
            GraftPyExpr *base,
            gsize        start)
{
  GraftPyExpr *e;

  if (!at (p, GRAFT_PY_TOKEN_DOUBLESTAR))
    return base;

  /* `**` is right-associative and its right operand may carry unary
   * operators: 2 ** -1, a ** b ** c. */
  if (!enter (p, "expression nested too deeply"))
    return NULL;
  advance (p);
  e = new_expr (p, GRAFT_PY_EXPR_BIN_OP, start);
  e->bin_op.op = GRAFT_PY_BIN_POW;
  e->bin_op.left = base;
  e->bin_op.right = parse_unary (p);
  leave (p);
  if (e->bin_op.right == NULL)
    return NULL;
  e->end = p->prev_end;
  return e;
}

static GraftPyExpr *
parse_power (Parser *p)
{
  gsize        start = p->cur.start;
  GraftPyExpr *base;

  if (at (p, GRAFT_PY_TOKEN_KW_AWAIT))
    {
      GraftPyExpr *value;

      advance (p);
      value = parse_primary (p);
      if (value == NULL)
        return NULL;
      base = new_expr (p, GRAFT_PY_EXPR_AWAIT, start);
      base->value = value;
    }
  else
    base = parse_primary (p);
  if (base == NULL)
    return NULL;
  return power_rest (p, base, start);
}

static GraftPyExpr *
parse_unary (Parser *p)
{
  gsize          start = p->cur.start;
  GraftPyUnaryOp op;
  GraftPyExpr   *operand, *e;

  switch ((int) p->cur.kind)
    {
    case GRAFT_PY_TOKEN_MINUS:
      op = GRAFT_PY_UNARY_NEG;
      break;
    case GRAFT_PY_TOKEN_PLUS:
      op = GRAFT_PY_UNARY_POS;
      break;
    case GRAFT_PY_TOKEN_TILDE:
      op = GRAFT_PY_UNARY_INVERT;
      break;
    default:
      return parse_power (p);
    }
  if (!enter (p, "expression nested too deeply"))
    return NULL;
  advance (p);
  if (op == GRAFT_PY_UNARY_NEG)
    p->neg_operand = p->cur.start;
  operand = parse_unary (p);
  leave (p);
  if (operand == NULL)
    return NULL;
  if (p->min_literal != NULL)
    {
      GraftPyExpr *literal = p->min_literal;

      p->min_literal = NULL;
      p->neg_operand = G_MAXSIZE;
      p->fast_name_start = G_MAXSIZE;
      /* Only `-2**63` itself folds; `-9223372036854775808 ** 2` would
       * need the big int. */
      if (operand != literal || op != GRAFT_PY_UNARY_NEG)
        {
          fail_at (p, literal->start, literal->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                   "integer literal too large: Graft keeps integers in 64 bits");
          return NULL;
        }
      literal->start = start;
      return literal;
    }
  e = new_expr (p, GRAFT_PY_EXPR_UNARY_OP, start);
  e->unary_op.op = op;
  e->unary_op.operand = operand;
  return e;
}

/* Binary operators from `|` (1) to `*` (6); 0 for any other token. */
static const guint8 binary_precedences[GRAFT_PY_N_TOKEN_KINDS] = {
  [GRAFT_PY_TOKEN_VBAR] = 1,
  [GRAFT_PY_TOKEN_CIRCUMFLEX] = 2,
  [GRAFT_PY_TOKEN_AMPER] = 3,
  [GRAFT_PY_TOKEN_LEFTSHIFT] = 4,
  [GRAFT_PY_TOKEN_RIGHTSHIFT] = 4,
  [GRAFT_PY_TOKEN_PLUS] = 5,
  [GRAFT_PY_TOKEN_MINUS] = 5,
  [GRAFT_PY_TOKEN_STAR] = 6,
  [GRAFT_PY_TOKEN_SLASH] = 6,
  [GRAFT_PY_TOKEN_DOUBLESLASH] = 6,
  [GRAFT_PY_TOKEN_PERCENT] = 6,
  [GRAFT_PY_TOKEN_AT] = 6,
};

static const guint8 binary_ops[GRAFT_PY_N_TOKEN_KINDS] = {
  [GRAFT_PY_TOKEN_VBAR] = GRAFT_PY_BIN_BITOR,
  [GRAFT_PY_TOKEN_CIRCUMFLEX] = GRAFT_PY_BIN_BITXOR,
  [GRAFT_PY_TOKEN_AMPER] = GRAFT_PY_BIN_BITAND,
  [GRAFT_PY_TOKEN_LEFTSHIFT] = GRAFT_PY_BIN_LSHIFT,
  [GRAFT_PY_TOKEN_RIGHTSHIFT] = GRAFT_PY_BIN_RSHIFT,
  [GRAFT_PY_TOKEN_PLUS] = GRAFT_PY_BIN_ADD,
  [GRAFT_PY_TOKEN_MINUS] = GRAFT_PY_BIN_SUB,
  [GRAFT_PY_TOKEN_STAR] = GRAFT_PY_BIN_MUL,
  [GRAFT_PY_TOKEN_SLASH] = GRAFT_PY_BIN_TRUEDIV,
  [GRAFT_PY_TOKEN_DOUBLESLASH] = GRAFT_PY_BIN_FLOORDIV,
  [GRAFT_PY_TOKEN_PERCENT] = GRAFT_PY_BIN_MOD,
  [GRAFT_PY_TOKEN_AT] = GRAFT_PY_BIN_MATMUL,
};

static inline int
binary_precedence (GraftPyTokenKind kind,
                   GraftPyBinOp    *out_op)
{
  *out_op = binary_ops[kind];
  return binary_precedences[kind];
}

/* Precedence climbing: a loop builds left-associative chains, and the
 * recursion for a right operand goes at most six levels deep.  This part
 * starts after the leftmost operand. */
static GraftPyExpr *
binary_chain (Parser      *p,
              GraftPyExpr *left,
              int          min_prec)
{
  while (left != NULL)
    {
      GraftPyBinOp op;
      int          prec = binary_precedence (p->cur.kind, &op);
      GraftPyExpr *right, *e;

      if (prec == 0 || prec < min_prec)
        break;
      advance (p);
      right = parse_binary (p, prec + 1);
      if (right == NULL)
        return NULL;
      e = new_expr (p, GRAFT_PY_EXPR_BIN_OP, graft_py_expr_get_outer_start (left));
      e->bin_op.op = op;
      e->bin_op.left = left;
      e->bin_op.right = right;
      left = e;
    }
  return left;
}

/* Most operands are followed by no binary operator of their level. */
static inline GraftPyExpr *
binary_rest (Parser      *p,
             GraftPyExpr *left,
             int          min_prec)
{
  GraftPyBinOp op;
  int          prec = binary_precedence (p->cur.kind, &op);

  if (prec == 0 || prec < min_prec)
    return left;
  return binary_chain (p, left, min_prec);
}

static GraftPyExpr *
parse_binary (Parser *p,
              int     min_prec)
{
  GraftPyExpr *left = parse_unary (p);

  return left != NULL ? binary_rest (p, left, min_prec) : NULL;
}

static gboolean
comparison_operator (Parser       *p,
                     GraftPyCmpOp *out_op)
{
  switch ((int) p->cur.kind)
    {
    case GRAFT_PY_TOKEN_EQEQUAL:
      *out_op = GRAFT_PY_CMP_EQ;
      break;
    case GRAFT_PY_TOKEN_NOTEQUAL:
      *out_op = GRAFT_PY_CMP_NOT_EQ;
      break;
    case GRAFT_PY_TOKEN_LESS:
      *out_op = GRAFT_PY_CMP_LT;
      break;
    case GRAFT_PY_TOKEN_LESSEQUAL:
      *out_op = GRAFT_PY_CMP_LT_E;
      break;
    case GRAFT_PY_TOKEN_GREATER:
      *out_op = GRAFT_PY_CMP_GT;
      break;
    case GRAFT_PY_TOKEN_GREATEREQUAL:
      *out_op = GRAFT_PY_CMP_GT_E;
      break;
    case GRAFT_PY_TOKEN_KW_IN:
      *out_op = GRAFT_PY_CMP_IN;
      break;
    case GRAFT_PY_TOKEN_KW_IS:
      advance (p);
      *out_op = accept (p, GRAFT_PY_TOKEN_KW_NOT) ? GRAFT_PY_CMP_IS_NOT : GRAFT_PY_CMP_IS;
      return TRUE;
    case GRAFT_PY_TOKEN_KW_NOT:
      advance (p);
      if (!at (p, GRAFT_PY_TOKEN_KW_IN))
        {
          fail_tok (p, "expected 'in' after 'not'");
          return FALSE;
        }
      *out_op = GRAFT_PY_CMP_NOT_IN;
      break;
    default:
      return FALSE;
    }
  advance (p);
  return TRUE;
}

/* A comparison chain after its leftmost operand. */
static GraftPyExpr *
comparison_chain (Parser      *p,
                  GraftPyExpr *left)
{
  guint        base = p->scratch->len;
  guint        ops_base = p->ops->len;
  GraftPyCmpOp op;
  GraftPyExpr *e;
  guint        n;

  if (left == NULL)
    return NULL;
  while (comparison_operator (p, &op))
    {
      GraftPyExpr *right = parse_binary (p, 1);

      if (right == NULL)
        return NULL;
      g_array_append_val (p->ops, op);
      push (p, right);
    }
  if (p->error != NULL)
    return NULL;
  if (p->scratch->len == base)
    return left;

  e = new_expr (p, GRAFT_PY_EXPR_COMPARE, graft_py_expr_get_outer_start (left));
  e->compare.left = left;
  e->compare.comparators = finish_exprs (p, base);
  n = p->ops->len - ops_base;
  e->compare.ops = graft_py_module_alloc (p->module, n * sizeof (GraftPyCmpOp));
  memcpy (e->compare.ops, &g_array_index (p->ops, GraftPyCmpOp, ops_base),
          n * sizeof (GraftPyCmpOp));
  g_array_set_size (p->ops, ops_base);
  return e;
}

/* Most operands are followed by no comparison: that case costs a switch. */
static inline GraftPyExpr *
comparison_rest (Parser      *p,
                 GraftPyExpr *left)
{
  switch ((int) p->cur.kind)
    {
    case GRAFT_PY_TOKEN_EQEQUAL:
    case GRAFT_PY_TOKEN_NOTEQUAL:
    case GRAFT_PY_TOKEN_LESS:
    case GRAFT_PY_TOKEN_LESSEQUAL:
    case GRAFT_PY_TOKEN_GREATER:
    case GRAFT_PY_TOKEN_GREATEREQUAL:
    case GRAFT_PY_TOKEN_KW_IN:
    case GRAFT_PY_TOKEN_KW_IS:
    case GRAFT_PY_TOKEN_KW_NOT:
      return comparison_chain (p, left);
    default:
      return left;
    }
}

static GraftPyExpr *
parse_comparison (Parser *p)
{
  GraftPyExpr *left = parse_binary (p, 1);

  return left != NULL ? comparison_rest (p, left) : NULL;
}

static GraftPyExpr *
parse_inversion (Parser *p)
{
  gsize        start = p->cur.start;
  GraftPyExpr *operand, *e;

  if (!at (p, GRAFT_PY_TOKEN_KW_NOT))
    return parse_comparison (p);
  if (!enter (p, "expression nested too deeply"))
    return NULL;
  advance (p);
  operand = parse_inversion (p);
  leave (p);
  if (operand == NULL)
    return NULL;
  e = new_expr (p, GRAFT_PY_EXPR_UNARY_OP, start);
  e->unary_op.op = GRAFT_PY_UNARY_NOT;
  e->unary_op.operand = operand;
  return e;
}

static GraftPyExpr *parse_bool_chain (Parser *p, gboolean is_or);

/* `and` (is_or FALSE) or `or` chains, as one BoolOp with all operands,
 * after the first operand, which is followed by the keyword. */
static GraftPyExpr *
bool_chain (Parser      *p,
            GraftPyExpr *first,
            gboolean     is_or)
{
  GraftPyTokenKind kw = is_or ? GRAFT_PY_TOKEN_KW_OR : GRAFT_PY_TOKEN_KW_AND;
  guint            base = p->scratch->len;
  GraftPyExpr     *e;

  push (p, first);
  while (accept (p, kw))
    {
      GraftPyExpr *next = is_or ? parse_bool_chain (p, FALSE) : parse_inversion (p);

      if (next == NULL)
        return NULL;
      push (p, next);
    }
  e = new_expr (p, GRAFT_PY_EXPR_BOOL_OP, graft_py_expr_get_outer_start (first));
  e->bool_op.op = is_or ? GRAFT_PY_BOOL_OR : GRAFT_PY_BOOL_AND;
  e->bool_op.values = finish_exprs (p, base);
  return e;
}

static inline GraftPyExpr *
bool_rest (Parser      *p,
           GraftPyExpr *first,
           gboolean     is_or)
{
  if (first == NULL || !at (p, is_or ? GRAFT_PY_TOKEN_KW_OR : GRAFT_PY_TOKEN_KW_AND))
    return first;
  return bool_chain (p, first, is_or);
}

static GraftPyExpr *
parse_bool_chain (Parser  *p,
                  gboolean is_or)
{
  return bool_rest (p, is_or ? parse_bool_chain (p, FALSE) : parse_inversion (p), is_or);
}

static GraftPyExpr *
parse_disjunction (Parser *p)
{
  return parse_bool_chain (p, TRUE);
}

static GraftPyExpr *
parse_lambda (Parser *p)
{
  gsize             start = p->cur.start;
  GraftPyArguments *args;
  GraftPyExpr      *body, *e;

  if (!enter (p, "expression nested too deeply"))
    return NULL;
  advance (p);
  args = parse_parameters (p, GRAFT_PY_TOKEN_COLON, PARAMS_LAMBDA);
  if (args == NULL || !expect (p, GRAFT_PY_TOKEN_COLON))
    return NULL;
  body = parse_expression (p);
  leave (p);
  if (body == NULL)
    return NULL;
  e = new_expr (p, GRAFT_PY_EXPR_LAMBDA, start);
  /* A function value will point at it. */
  graft_py_module_pin_transient (p->module);
  e->lambda.args = args;
  e->lambda.body = body;
  return e;
}

/* Whether an expression that starts with @kind starts with a primary:
 * anything but a prefix operator (`not`, `-`, `+`, `~`, `await`). */
static gboolean
starts_with_primary (GraftPyTokenKind kind)
{
  switch ((int) kind)
    {
    case GRAFT_PY_TOKEN_KW_NOT:
    case GRAFT_PY_TOKEN_MINUS:
    case GRAFT_PY_TOKEN_PLUS:
    case GRAFT_PY_TOKEN_TILDE:
    case GRAFT_PY_TOKEN_KW_AWAIT:
      return FALSE;
    default:
      return TRUE;
    }
}

static GraftPyExpr *if_exp_rest (Parser *p, GraftPyExpr *body);

/* The tokens that may follow an operand within an expression: binary and
 * comparison operators, `and`, `or`, `if`.  After most primaries comes
 * none of them (a `,`, `)`, `=` or the end of the line). */
static const gboolean continues_expression[GRAFT_PY_N_TOKEN_KINDS] = {
  [GRAFT_PY_TOKEN_DOUBLESTAR] = TRUE,
  [GRAFT_PY_TOKEN_VBAR] = TRUE,
  [GRAFT_PY_TOKEN_CIRCUMFLEX] = TRUE,
  [GRAFT_PY_TOKEN_AMPER] = TRUE,
  [GRAFT_PY_TOKEN_LEFTSHIFT] = TRUE,
  [GRAFT_PY_TOKEN_RIGHTSHIFT] = TRUE,
  [GRAFT_PY_TOKEN_PLUS] = TRUE,
  [GRAFT_PY_TOKEN_MINUS] = TRUE,
  [GRAFT_PY_TOKEN_STAR] = TRUE,
  [GRAFT_PY_TOKEN_SLASH] = TRUE,
  [GRAFT_PY_TOKEN_DOUBLESLASH] = TRUE,
  [GRAFT_PY_TOKEN_PERCENT] = TRUE,
  [GRAFT_PY_TOKEN_AT] = TRUE,
  [GRAFT_PY_TOKEN_EQEQUAL] = TRUE,
  [GRAFT_PY_TOKEN_NOTEQUAL] = TRUE,
  [GRAFT_PY_TOKEN_LESS] = TRUE,
  [GRAFT_PY_TOKEN_LESSEQUAL] = TRUE,
  [GRAFT_PY_TOKEN_GREATER] = TRUE,
  [GRAFT_PY_TOKEN_GREATEREQUAL] = TRUE,
  [GRAFT_PY_TOKEN_KW_IN] = TRUE,
  [GRAFT_PY_TOKEN_KW_IS] = TRUE,
  [GRAFT_PY_TOKEN_KW_NOT] = TRUE,
  [GRAFT_PY_TOKEN_KW_AND] = TRUE,
  [GRAFT_PY_TOKEN_KW_OR] = TRUE,
  [GRAFT_PY_TOKEN_KW_IF] = TRUE,
};

/* expression: lambda, or a disjunction with an optional `if ... else ...`.
 * An expression that starts with a primary (most do) is parsed from it
 * upwards: the primary, then whatever operators follow, level by level,
 * rather than through all ten levels of the grammar for every operand. */
static GraftPyExpr *
parse_expression (Parser *p)
{
  GraftPyExpr *body;
  gsize        start;

  if (at (p, GRAFT_PY_TOKEN_KW_LAMBDA))
    return parse_lambda (p);
  if (!starts_with_primary (p->cur.kind))
    return if_exp_rest (p, parse_disjunction (p));
  start = p->cur.start;
  body = parse_primary (p);
  if (body == NULL || !continues_expression[p->cur.kind])
    return body;
  body = power_rest (p, body, start);
  if (body != NULL)
    body = binary_rest (p, body, 1);
  if (body != NULL)
    body = comparison_rest (p, body);
  body = bool_rest (p, body, FALSE);
  body = bool_rest (p, body, TRUE);
  return if_exp_rest (p, body);
}

/* `body if test else orelse`, after the body. */
static GraftPyExpr *
if_exp_rest (Parser      *p,
             GraftPyExpr *body)
{
  GraftPyExpr *test, *orelse, *e;

  if (body == NULL || !at (p, GRAFT_PY_TOKEN_KW_IF))
    return body;
  advance (p);
  test = parse_disjunction (p);
  if (test == NULL)
    return NULL;
  if (!at (p, GRAFT_PY_TOKEN_KW_ELSE))
    {
      fail_tok (p, "expected 'else' after 'if' expression");
      return NULL;
    }
  advance (p);
  if (!enter (p, "expression nested too deeply"))
    return NULL;
  orelse = parse_expression (p);
  leave (p);
  if (orelse == NULL)
    return NULL;
  e = new_expr (p, GRAFT_PY_EXPR_IF_EXP, graft_py_expr_get_outer_start (body));
  e->if_exp.test = test;
  e->if_exp.body = body;
  e->if_exp.orelse = orelse;
  return e;
}

/* `name := value` after the name, at the `:=`. */
static GraftPyExpr *
named_expression_rest (Parser      *p,
                       GraftPyExpr *target)
{
  GraftPyExpr *value, *e;

  if (target->kind != GRAFT_PY_EXPR_NAME)
    {
      fail_expr (p, target, "invalid syntax: cannot use an assignment expression with %s",
                 describe_expr (target));
      return NULL;
    }
  advance (p);
  value = parse_expression (p);
  if (value == NULL)
    return NULL;
  target->name.ctx = GRAFT_PY_CTX_STORE;
  e = new_expr (p, GRAFT_PY_EXPR_NAMED_EXPR, target->start);
  e->named_expr.target = target;
  e->named_expr.value = value;
  return e;
}

/* An expression, or `name := expression`. */
static GraftPyExpr *
parse_named_expression (Parser *p)
{
  GraftPyExpr *target = parse_expression (p);

  if (target == NULL || !at (p, GRAFT_PY_TOKEN_COLONEQUAL))
    return target;
  return named_expression_rest (p, target);
}

static GraftPyExpr *
parse_star_expression (Parser *p)
{
  return parse_starred_or (p, parse_expression);
}

/* After the first of items parsed by @item, separated by commas, without
 * brackets: a Tuple if there is a comma.  A trailing comma is allowed. */
static GraftPyExpr *
comma_list_rest (Parser      *p,
                 GraftPyExpr *first,
                 GraftPyExpr *(*item) (Parser *) )
{
  guint        base = p->scratch->len;
  GraftPyExpr *e;

  if (first == NULL || !at (p, GRAFT_PY_TOKEN_COMMA))
    return first;
  push (p, first);
  while (accept (p, GRAFT_PY_TOKEN_COMMA))
    {
      GraftPyExpr *next;

      if (!can_start_expression (p->cur.kind))
        break;
      next = item (p);
      if (next == NULL)
        return NULL;
      push (p, next);
    }
  e = new_expr (p, GRAFT_PY_EXPR_TUPLE, graft_py_expr_get_outer_start (first));
  e->sequence.elts = finish_exprs (p, base);
  return e;
}

/* Items parsed by @item, separated by commas, without brackets; a Tuple if
 * there is a comma.  A trailing comma is allowed. */
static GraftPyExpr *
parse_comma_list (Parser *p,
                  GraftPyExpr *(*item) (Parser *) )
{
  return comma_list_rest (p, item (p), item);
}

/* `return a, *b`.  Most start with neither `*` nor a prefix operator:
 * those go straight to parse_expression(). */
static GraftPyExpr *
parse_star_expressions (Parser *p)
{
  if (at (p, GRAFT_PY_TOKEN_STAR))
    return parse_comma_list (p, parse_star_expression);
  return comma_list_rest (p, parse_expression (p), parse_star_expression);
}

/* An operand that stops before `in` and comparisons. */
static GraftPyExpr *
parse_target_operand (Parser *p)
{
  return parse_binary (p, 1);
}

static GraftPyExpr *
parse_target_element (Parser *p)
{
  return parse_starred_or (p, parse_target_operand);
}

/* The targets of `for` and of comprehensions: expressions that stop before
 * `in` (comparisons are not targets), a Tuple if there is a comma.  The
 * caller checks that they can be assigned to. */
static GraftPyExpr *
parse_target_list (Parser *p)
{
  return parse_comma_list (p, parse_target_element);
}

/* Statements */

static gboolean parse_simple_statements (Parser *p);

/* Parses `: BLOCK` after a compound statement's header.  @what names the
 * statement for the "expected an indented block" message, and @header is
 * the offset of its keyword. */
static gboolean
parse_block (Parser          *p,
             const char      *what,
             gsize            header,
             GraftPyStmtList *out_body)
{
  guint base = p->scratch->len;

  if (!expect (p, GRAFT_PY_TOKEN_COLON))
    return FALSE;
  if (!accept (p, GRAFT_PY_TOKEN_NEWLINE))
    {
      /* A body on the same line: simple statements only. */
      switch ((int) p->cur.kind)
        {
        case GRAFT_PY_TOKEN_KW_IF:
        case GRAFT_PY_TOKEN_KW_FOR:
        case GRAFT_PY_TOKEN_KW_WHILE:
        case GRAFT_PY_TOKEN_KW_TRY:
        case GRAFT_PY_TOKEN_KW_WITH:
        case GRAFT_PY_TOKEN_KW_DEF:
        case GRAFT_PY_TOKEN_KW_CLASS:
        case GRAFT_PY_TOKEN_KW_ASYNC:
        case GRAFT_PY_TOKEN_AT:
          fail_tok (p, "invalid syntax: a compound statement cannot follow ':' on the same line");
          return FALSE;
        default:
          break;
        }
      if (!parse_simple_statements (p))
        return FALSE;
      *out_body = finish_stmts (p, base);
      return TRUE;
    }

  if (!at (p, GRAFT_PY_TOKEN_INDENT))
    {
      guint line;

      graft_source_locate (p->source, header, &line, NULL);
      fail_tok (p, "expected an indented block after %s on line %u", what, line);
      return FALSE;
    }
  if (!enter (p, "too many nested blocks"))
    return FALSE;
  advance (p);
  /* An error that let the statement be made (the statement limit) stops
   * the parse too. */
  while (!at (p, GRAFT_PY_TOKEN_DEDENT) && !at (p, GRAFT_PY_TOKEN_ENDMARKER))
    if (!parse_statement (p) || p->error != NULL)
      return FALSE;
  if (!expect (p, GRAFT_PY_TOKEN_DEDENT))
    return FALSE;
  leave (p);
  *out_body = finish_stmts (p, base);
  return TRUE;
}

static GraftPyExpr *
parse_yield_or_star_expressions (Parser *p)
{
  if (at (p, GRAFT_PY_TOKEN_KW_YIELD))
    return parse_yield (p);
  return parse_star_expressions (p);
}

static gboolean
augmented_operator (GraftPyTokenKind kind,
                    GraftPyBinOp    *out_op)
{
  switch ((int) kind)
    {
    case GRAFT_PY_TOKEN_PLUSEQUAL:
      *out_op = GRAFT_PY_BIN_ADD;
      return TRUE;
    case GRAFT_PY_TOKEN_MINEQUAL:
      *out_op = GRAFT_PY_BIN_SUB;
      return TRUE;
    case GRAFT_PY_TOKEN_STAREQUAL:
      *out_op = GRAFT_PY_BIN_MUL;
      return TRUE;
    case GRAFT_PY_TOKEN_ATEQUAL:
      *out_op = GRAFT_PY_BIN_MATMUL;
      return TRUE;
    case GRAFT_PY_TOKEN_SLASHEQUAL:
      *out_op = GRAFT_PY_BIN_TRUEDIV;
      return TRUE;
    case GRAFT_PY_TOKEN_DOUBLESLASHEQUAL:
      *out_op = GRAFT_PY_BIN_FLOORDIV;
      return TRUE;
    case GRAFT_PY_TOKEN_PERCENTEQUAL:
      *out_op = GRAFT_PY_BIN_MOD;
      return TRUE;
    case GRAFT_PY_TOKEN_DOUBLESTAREQUAL:
      *out_op = GRAFT_PY_BIN_POW;
      return TRUE;
    case GRAFT_PY_TOKEN_LEFTSHIFTEQUAL:
      *out_op = GRAFT_PY_BIN_LSHIFT;
      return TRUE;
    case GRAFT_PY_TOKEN_RIGHTSHIFTEQUAL:
      *out_op = GRAFT_PY_BIN_RSHIFT;
      return TRUE;
    case GRAFT_PY_TOKEN_VBAREQUAL:
      *out_op = GRAFT_PY_BIN_BITOR;
      return TRUE;
    case GRAFT_PY_TOKEN_CIRCUMFLEXEQUAL:
      *out_op = GRAFT_PY_BIN_BITXOR;
      return TRUE;
    case GRAFT_PY_TOKEN_AMPEREQUAL:
      *out_op = GRAFT_PY_BIN_BITAND;
      return TRUE;
    default:
      return FALSE;
    }
}

/* An expression statement or an assignment of any kind. */
static GraftPyStmt *
parse_expression_statement (Parser *p)
{
  gsize        start = p->cur.start;
  GraftPyExpr *e = parse_yield_or_star_expressions (p);
  GraftPyBinOp op;
  GraftPyStmt *s;

  if (e == NULL)
    return NULL;

  if (at (p, GRAFT_PY_TOKEN_COLON))
    {
      GraftPyExpr *annotation, *value = NULL;

      if (e->kind == GRAFT_PY_EXPR_TUPLE)
        {
          fail_expr (p, e, "only a single target (not a tuple) can be annotated");
          return NULL;
        }
      if (e->kind != GRAFT_PY_EXPR_NAME && e->kind != GRAFT_PY_EXPR_ATTRIBUTE &&
          e->kind != GRAFT_PY_EXPR_SUBSCRIPT)
        {
          fail_expr (p, e, "invalid syntax: cannot annotate %s", describe_expr (e));
          return NULL;
        }
      check_target (p, e, GRAFT_PY_CTX_STORE, TRUE);
      advance (p);
      annotation = parse_expression (p);
      if (annotation == NULL)
        return NULL;
      if (accept (p, GRAFT_PY_TOKEN_EQUAL))
        {
          value = parse_yield_or_star_expressions (p);
          if (value == NULL)
            return NULL;
        }
      s = new_stmt (p, GRAFT_PY_STMT_ANN_ASSIGN, start);
      s->ann_assign.target = e;
      s->ann_assign.annotation = annotation;
      s->ann_assign.value = value;
      s->ann_assign.simple = e->kind == GRAFT_PY_EXPR_NAME && e->start == start;
      return s;
    }

  if (augmented_operator (p->cur.kind, &op))
    {
      GraftPyExpr *value;

      if (e->kind != GRAFT_PY_EXPR_NAME && e->kind != GRAFT_PY_EXPR_ATTRIBUTE &&
          e->kind != GRAFT_PY_EXPR_SUBSCRIPT)
        {
          fail_expr (p, e, "invalid syntax: cannot use augmented assignment on %s",
                     describe_expr (e));
          return NULL;
        }
      check_target (p, e, GRAFT_PY_CTX_STORE, TRUE);
      advance (p);
      value = parse_yield_or_star_expressions (p);
      if (value == NULL)
        return NULL;
      s = new_stmt (p, GRAFT_PY_STMT_AUG_ASSIGN, start);
      s->aug_assign.target = e;
      s->aug_assign.op = op;
      s->aug_assign.value = value;
      return s;
    }

  if (at (p, GRAFT_PY_TOKEN_EQUAL))
    {
      guint base = p->scratch->len;

      while (at (p, GRAFT_PY_TOKEN_EQUAL))
        {
          if (!check_target (p, e, GRAFT_PY_CTX_STORE, TRUE))
            return NULL;
          push (p, e);
          advance (p);
          e = parse_yield_or_star_expressions (p);
          if (e == NULL)
            return NULL;
        }
      if (e->kind == GRAFT_PY_EXPR_STARRED)
        {
          fail_expr (p, e, "cannot use a starred expression here");
          return NULL;
        }
      s = new_stmt (p, GRAFT_PY_STMT_ASSIGN, start);
      s->assign.targets = finish_exprs (p, base);
      s->assign.value = e;
      return s;
    }

  if (e->kind == GRAFT_PY_EXPR_STARRED)
    {
      fail_expr (p, e, "cannot use a starred expression here");
      return NULL;
    }
  s = new_stmt (p, GRAFT_PY_STMT_EXPR, start);
  s->expr.value = e;
  return s;
}

/* A dotted module name, `a.b.c`, as one string. */
static const char *
parse_dotted_name (Parser *p)
{
  gsize       buf_base = p->buf->len;
  const char *name;

  do
    {
      gsize len = p->cur.end - p->cur.start;

      if (!at (p, GRAFT_PY_TOKEN_NAME))
        {
          take_name (p, "a module name");
          return NULL;
        }
      if (p->buf->len > buf_base)
        g_string_append_c (p->buf, '.');
      if (p->buf->len - buf_base + len > GRAFT_MAX_NAME_LENGTH)
        {
          fail_at (p, p->cur.start, p->cur.end, GRAFT_PARSE_ERROR_LIMIT,
                   "name is longer than %u bytes", GRAFT_MAX_NAME_LENGTH);
          return NULL;
        }
      g_string_append_len (p->buf, p->text + p->cur.start, len);
      advance (p);
    }
  while (accept (p, GRAFT_PY_TOKEN_DOT));
  /* A module name of one part is mangled as any name (`import __m` in a
   * class imports `_C__m`); a dotted one is not. */
  if (G_UNLIKELY (p->private_class != NULL &&
                  is_private_name (p->buf->str + buf_base, p->buf->len - buf_base) &&
                  memchr (p->buf->str + buf_base, '.', p->buf->len - buf_base) == NULL))
    name = intern_mangled (p, p->buf->str + buf_base, p->buf->len - buf_base);
  else
    name = graft_py_module_strndup (p->module, p->buf->str + buf_base, p->buf->len - buf_base);
  g_string_truncate (p->buf, buf_base);
  return name;
}

static GraftPyAlias *
new_alias (Parser     *p,
           gsize       start,
           const char *name)
{
  GraftPyAlias *alias = graft_py_module_alloc (p->module, sizeof *alias);

  alias->start = start;
  alias->name = name;
  alias->asname = NULL;
  if (accept (p, GRAFT_PY_TOKEN_KW_AS))
    {
      alias->asname = take_name (p, "a name after 'as'");
      if (alias->asname == NULL)
        return NULL;
    }
  alias->end = p->prev_end;
  return alias;
}

static GraftPyStmt *
parse_import (Parser *p)
{
  gsize        start = p->cur.start;
  guint        base = p->scratch->len;
  GraftPyStmt *s;

  advance (p);
  do
    {
      gsize         name_start = p->cur.start;
      const char   *name = parse_dotted_name (p);
      GraftPyAlias *alias;

      if (name == NULL)
        return NULL;
      alias = new_alias (p, name_start, name);
      if (alias == NULL)
        return NULL;
      push (p, alias);
    }
  while (accept (p, GRAFT_PY_TOKEN_COMMA));
  s = new_stmt (p, GRAFT_PY_STMT_IMPORT, start);
  s->import.names = (GraftPyAlias **) finish_list (p, base, &s->import.n_names);
  return s;
}

static GraftPyStmt *
parse_import_from (Parser *p)
{
  gsize        start = p->cur.start;
  guint        base = p->scratch->len;
  const char  *module = NULL;
  guint        level = 0;
  GraftPyStmt *s;

  advance (p);
  for (;;)
    {
      if (accept (p, GRAFT_PY_TOKEN_DOT))
        level++;
      else if (accept (p, GRAFT_PY_TOKEN_ELLIPSIS))
        level += 3;
      else
        break;
    }
  if (at (p, GRAFT_PY_TOKEN_NAME) || level == 0)
    {
      module = parse_dotted_name (p);
      if (module == NULL)
        return NULL;
    }
  if (!expect (p, GRAFT_PY_TOKEN_KW_IMPORT))
    return NULL;
  if (at (p, GRAFT_PY_TOKEN_STAR))
    {
      GraftPyAlias *alias = graft_py_module_alloc (p->module, sizeof *alias);

      alias->start = p->cur.start;
      alias->end = p->cur.end;
      alias->name = "*";
      alias->asname = NULL;
      advance (p);
      push (p, alias);
    }
  else
    {
      gboolean paren = accept (p, GRAFT_PY_TOKEN_LPAR);

      do
        {
          gsize         name_start = p->cur.start;
          const char   *name;
          GraftPyAlias *alias;

          if (paren && at (p, GRAFT_PY_TOKEN_RPAR) && p->scratch->len > base)
            break;
          name = take_name (p, "a name to import");
          if (name == NULL)
            return NULL;
          alias = new_alias (p, name_start, name);
          if (alias == NULL)
            return NULL;
          push (p, alias);
        }
      while (accept (p, GRAFT_PY_TOKEN_COMMA));
      if (paren && !expect (p, GRAFT_PY_TOKEN_RPAR))
        return NULL;
    }
  s = new_stmt (p, GRAFT_PY_STMT_IMPORT_FROM, start);
  s->import_from.module = module;
  s->import_from.level = level;
  s->import_from.names = (GraftPyAlias **) finish_list (p, base, &s->import_from.n_names);
  return s;
}

static GraftPyStmt *
parse_simple_statement (Parser *p)
{
  gsize            start = p->cur.start;
  GraftPyTokenKind kind = p->cur.kind;
  GraftPyStmt     *s;

  switch ((int) kind)
    {
    case GRAFT_PY_TOKEN_KW_PASS:
    case GRAFT_PY_TOKEN_KW_BREAK:
    case GRAFT_PY_TOKEN_KW_CONTINUE:
      advance (p);
      return new_stmt (p,
                       kind == GRAFT_PY_TOKEN_KW_PASS    ? GRAFT_PY_STMT_PASS
                       : kind == GRAFT_PY_TOKEN_KW_BREAK ? GRAFT_PY_STMT_BREAK
                                                         : GRAFT_PY_STMT_CONTINUE,
                       start);
    case GRAFT_PY_TOKEN_KW_RETURN:
      {
        GraftPyExpr *value = NULL;

        advance (p);
        if (can_start_expression (p->cur.kind))
          {
            value = parse_star_expressions (p);
            if (value == NULL)
              return NULL;
          }
        s = new_stmt (p, GRAFT_PY_STMT_RETURN, start);
        s->ret.value = value;
        return s;
      }
    case GRAFT_PY_TOKEN_KW_RAISE:
      {
        GraftPyExpr *exc = NULL, *cause = NULL;

        advance (p);
        if (can_start_expression (p->cur.kind))
          {
            exc = parse_expression (p);
            if (exc == NULL)
              return NULL;
            if (accept (p, GRAFT_PY_TOKEN_KW_FROM))
              {
                cause = parse_expression (p);
                if (cause == NULL)
                  return NULL;
              }
          }
        s = new_stmt (p, GRAFT_PY_STMT_RAISE, start);
        s->raise_stmt.exc = exc;
        s->raise_stmt.cause = cause;
        return s;
      }
    case GRAFT_PY_TOKEN_KW_GLOBAL:
    case GRAFT_PY_TOKEN_KW_NONLOCAL:
      {
        guint base = p->scratch->len;

        advance (p);
        do
          {
            const char *name = take_name (p, "a name");

            if (name == NULL)
              return NULL;
            push (p, (gpointer) name);
          }
        while (accept (p, GRAFT_PY_TOKEN_COMMA));
        s = new_stmt (p,
                      kind == GRAFT_PY_TOKEN_KW_GLOBAL ? GRAFT_PY_STMT_GLOBAL
                                                       : GRAFT_PY_STMT_NONLOCAL,
                      start);
        s->names.names = (const char **) finish_list (p, base, &s->names.n_names);
        return s;
      }
    case GRAFT_PY_TOKEN_KW_DEL:
      {
        guint base = p->scratch->len;

        advance (p);
        do
          {
            GraftPyExpr *target;

            if (p->scratch->len > base && !can_start_expression (p->cur.kind))
              break;
            target = parse_target_element (p);
            if (target == NULL || !check_target (p, target, GRAFT_PY_CTX_DEL, TRUE))
              return NULL;
            push (p, target);
          }
        while (accept (p, GRAFT_PY_TOKEN_COMMA));
        s = new_stmt (p, GRAFT_PY_STMT_DELETE, start);
        s->delete_stmt.targets = finish_exprs (p, base);
        return s;
      }
    case GRAFT_PY_TOKEN_KW_ASSERT:
      {
        GraftPyExpr *test, *msg = NULL;

        advance (p);
        test = parse_expression (p);
        if (test == NULL)
          return NULL;
        if (accept (p, GRAFT_PY_TOKEN_COMMA))
          {
            msg = parse_expression (p);
            if (msg == NULL)
              return NULL;
          }
        s = new_stmt (p, GRAFT_PY_STMT_ASSERT, start);
        s->assert_stmt.test = test;
        s->assert_stmt.msg = msg;
        return s;
      }
    case GRAFT_PY_TOKEN_KW_IMPORT:
      return parse_import (p);
    case GRAFT_PY_TOKEN_KW_FROM:
      return parse_import_from (p);
    default:
      return parse_expression_statement (p);
    }
}

/* `stmt; stmt; ...` up to and including the NEWLINE. */
static gboolean
parse_simple_statements (Parser *p)
{
  for (;;)
    {
      GraftPyStmt *s = parse_simple_statement (p);

      if (s == NULL)
        return FALSE;
      push (p, s);
      p->stmt_end = s->end;
      if (!accept (p, GRAFT_PY_TOKEN_SEMI) || at (p, GRAFT_PY_TOKEN_NEWLINE))
        break;
    }
  if (!at (p, GRAFT_PY_TOKEN_NEWLINE))
    {
      if (at (p, GRAFT_PY_TOKEN_EQUAL))
        fail_tok (p, "invalid syntax: unexpected '=' (maybe you meant '==')");
      else
        fail_tok (p, "invalid syntax");
      return FALSE;
    }
  advance (p);
  return TRUE;
}

static GraftPyStmt *
parse_if (Parser *p)
{
  GraftPyStmt *head = NULL, *last = NULL;
  const char  *what = "'if' statement";

  /* `elif` chains are built in a loop, each If alone in the orelse of the
   * one before. */
  do
    {
      gsize        start = p->cur.start;
      GraftPyStmt *s;
      GraftPyExpr *test;

      advance (p);
      test = parse_named_expression (p);
      if (test == NULL)
        return NULL;
      s = new_stmt_spanning (p, GRAFT_PY_STMT_IF, start, start);
      s->if_stmt.test = test;
      if (!parse_block (p, what, start, &s->if_stmt.body))
        return NULL;
      if (last == NULL)
        head = s;
      else
        {
          last->if_stmt.orelse.items = graft_py_module_alloc (p->module, sizeof (GraftPyStmt *));
          last->if_stmt.orelse.items[0] = s;
          last->if_stmt.orelse.len = 1;
        }
      last = s;
      what = "'elif' statement";
    }
  while (at (p, GRAFT_PY_TOKEN_KW_ELIF));

  if (at (p, GRAFT_PY_TOKEN_KW_ELSE))
    {
      gsize start = p->cur.start;

      advance (p);
      if (!parse_block (p, "'else' statement", start, &last->if_stmt.orelse))
        return NULL;
    }
  for (GraftPyStmt *s = head; s != NULL;
       s = (s->if_stmt.orelse.len == 1 && s->if_stmt.orelse.items[0]->kind == GRAFT_PY_STMT_IF &&
            s != last)
               ? s->if_stmt.orelse.items[0]
               : NULL)
    s->end = p->stmt_end;
  return head;
}

static gboolean
parse_else (Parser          *p,
            GraftPyStmtList *out_orelse)
{
  gsize start = p->cur.start;

  if (!accept (p, GRAFT_PY_TOKEN_KW_ELSE))
    return TRUE;
  return parse_block (p, "'else' statement", start, out_orelse);
}

static GraftPyStmt *
parse_for (Parser  *p,
           gsize    start,
           gboolean is_async)
{
  gsize        header = p->cur.start;
  GraftPyExpr *target, *iter;
  GraftPyStmt *s;

  advance (p);
  target = parse_target_list (p);
  if (target == NULL || !check_target (p, target, GRAFT_PY_CTX_STORE, TRUE))
    return NULL;
  if (!expect (p, GRAFT_PY_TOKEN_KW_IN))
    return NULL;
  iter = parse_star_expressions (p);
  if (iter == NULL)
    return NULL;
  s = new_stmt_spanning (p, GRAFT_PY_STMT_FOR, start, start);
  s->for_stmt.target = target;
  s->for_stmt.iter = iter;
  s->for_stmt.is_async = is_async;
  if (!parse_block (p, "'for' statement", header, &s->for_stmt.body) ||
      !parse_else (p, &s->for_stmt.orelse))
    return NULL;
  s->end = p->stmt_end;
  return s;
}

static GraftPyStmt *
parse_while (Parser *p)
{
  gsize        start = p->cur.start;
  GraftPyExpr *test;
  GraftPyStmt *s;

  advance (p);
  test = parse_named_expression (p);
  if (test == NULL)
    return NULL;
  s = new_stmt_spanning (p, GRAFT_PY_STMT_WHILE, start, start);
  s->while_stmt.test = test;
  if (!parse_block (p, "'while' statement", start, &s->while_stmt.body) ||
      !parse_else (p, &s->while_stmt.orelse))
    return NULL;
  s->end = p->stmt_end;
  return s;
}

static GraftPyWithItem *
parse_with_item (Parser *p)
{
  GraftPyWithItem *item = graft_py_module_alloc (p->module, sizeof *item);

  item->start = p->cur.start;
  item->optional_vars = NULL;
  item->context_expr = parse_expression (p);
  if (item->context_expr == NULL)
    return NULL;
  if (accept (p, GRAFT_PY_TOKEN_KW_AS))
    {
      item->optional_vars = parse_target_element (p);
      if (item->optional_vars == NULL ||
          !check_target (p, item->optional_vars, GRAFT_PY_CTX_STORE, TRUE))
        return NULL;
    }
  item->end = p->prev_end;
  return item;
}

/* Tries `with (a as b, c):`, the parenthesized form of the items.  On
 * failure, everything is rolled back and the caller parses the items as
 * expressions (`with (a, b) as c:`, `with (yield):`). */
static gboolean
try_parenthesized_with_items (Parser *p)
{
  Snapshot snapshot;

  snapshot_take (p, &snapshot);
  advance (p);
  for (;;)
    {
      GraftPyWithItem *item = parse_with_item (p);

      if (item == NULL)
        break;
      push (p, item);
      if (!accept (p, GRAFT_PY_TOKEN_COMMA) || at (p, GRAFT_PY_TOKEN_RPAR))
        break;
    }
  if (p->error == NULL && accept (p, GRAFT_PY_TOKEN_RPAR) && at (p, GRAFT_PY_TOKEN_COLON))
    return TRUE;
  snapshot_restore (p, &snapshot);
  return FALSE;
}

static GraftPyStmt *
parse_with (Parser  *p,
            gsize    start,
            gboolean is_async)
{
  gsize        header = p->cur.start;
  guint        base = p->scratch->len;
  GraftPyStmt *s;

  advance (p);
  if (!at (p, GRAFT_PY_TOKEN_LPAR) || !try_parenthesized_with_items (p))
    {
      do
        {
          GraftPyWithItem *item = parse_with_item (p);

          if (item == NULL)
            return NULL;
          push (p, item);
        }
      while (accept (p, GRAFT_PY_TOKEN_COMMA));
    }
  s = new_stmt_spanning (p, GRAFT_PY_STMT_WITH, start, start);
  s->with_stmt.items = (GraftPyWithItem **) finish_list (p, base, &s->with_stmt.n_items);
  s->with_stmt.is_async = is_async;
  if (!parse_block (p, "'with' statement", header, &s->with_stmt.body))
    return NULL;
  s->end = p->stmt_end;
  return s;
}

static GraftPyStmt *
parse_try (Parser *p)
{
  gsize        start = p->cur.start;
  guint        base = p->scratch->len;
  GraftPyStmt *s = new_stmt_spanning (p, GRAFT_PY_STMT_TRY, start, start);

  advance (p);
  if (!parse_block (p, "'try' statement", start, &s->try_stmt.body))
    return NULL;
  while (at (p, GRAFT_PY_TOKEN_KW_EXCEPT))
    {
      GraftPyExceptHandler *h = graft_py_module_alloc (p->module, sizeof *h);

      memset (h, 0, sizeof *h);
      h->start = p->cur.start;
      advance (p);
      if (accept (p, GRAFT_PY_TOKEN_STAR))
        s->try_stmt.is_star = TRUE;
      if (!at (p, GRAFT_PY_TOKEN_COLON))
        {
          h->type = parse_expression (p);
          if (h->type == NULL)
            return NULL;
          if (at (p, GRAFT_PY_TOKEN_COMMA))
            {
              fail_tok (p, "multiple exception types must be parenthesized");
              return NULL;
            }
          if (accept (p, GRAFT_PY_TOKEN_KW_AS))
            {
              h->name = take_name (p, "a name after 'as'");
              if (h->name == NULL)
                return NULL;
            }
        }
      if (!parse_block (p, "'except' statement", h->start, &h->body))
        return NULL;
      h->end = p->stmt_end;
      push (p, h);
    }
  s->try_stmt.handlers = (GraftPyExceptHandler **) finish_list (p, base, &s->try_stmt.n_handlers);
  if (s->try_stmt.n_handlers > 0 && !parse_else (p, &s->try_stmt.orelse))
    return NULL;
  if (at (p, GRAFT_PY_TOKEN_KW_FINALLY))
    {
      gsize finally = p->cur.start;

      advance (p);
      if (!parse_block (p, "'finally' statement", finally, &s->try_stmt.finalbody))
        return NULL;
    }
  else if (s->try_stmt.n_handlers == 0)
    {
      fail_tok (p, "expected 'except' or 'finally' block");
      return NULL;
    }
  s->end = p->stmt_end;
  return s;
}

/* Where the statement on the line [@pos, @stop) ends, for scan_body():
 * past its last byte that is not a blank, a comment or a `;`, following
 * the strings on the line.  Returns FALSE when the line does not read as
 * the end of a statement on its own (a string left open, a backslash, a
 * carriage return, nothing but `;`). */
static gboolean
line_statement_end (const char *t,
                    gsize       pos,
                    gsize       stop,
                    guint32    *out_end)
{
  gsize last_end = 0;

  while (pos < stop)
    {
      char c = t[pos];

      switch (c)
        {
        case ' ':
        case '\t':
        case '\f':
        case ';':
          pos++;
          break;
        case '#':
          pos = stop;
          break;
        case '\\':
        case '\r':
        case '\0':
          return FALSE;
        case '\'':
        case '"':
          {
            gboolean triple = pos + 2 < stop && t[pos + 1] == c && t[pos + 2] == c;

            pos += triple ? 3 : 1;
            for (;;)
              {
                if (pos >= stop)
                  return FALSE;
                if (t[pos] == '\\')
                  pos += 2;
                else if (t[pos] == c &&
                         (!triple || (pos + 2 < stop && t[pos + 1] == c && t[pos + 2] == c)))
                  {
                    pos += triple ? 3 : 1;
                    break;
                  }
                else
                  pos++;
              }
            last_end = pos;
          }
          break;
        default:
          last_end = ++pos;
          break;
        }
    }
  if (last_end == 0)
    return FALSE;
  *out_end = (guint32) last_end;
  return TRUE;
}

/* Finds the end of a function body without the lexer, at a few
 * instructions a line: from @pos, the first byte of the body's first
 * statement, whose lines are indented by @indent spaces, to the end of its
 * last line (just past its newline, or the end of the text), which is the
 * last line with a token before the first one indented less than the body
 * (blank and comment lines aside).  Only the indentation of each line is
 * read, and the last line's statement; a line indented less inside a
 * string or brackets of the body makes the guess wrong, and so does a
 * last line that continues an earlier one, but the body is read again
 * later by the lexer itself, which checks its end and the end of its last
 * statement (*out_last_end), and the whole file is read the usual way
 * when they differ.  A tab, form feed, carriage return or NUL byte in an
 * indentation gives up, and the lexer runs through the body instead. */
/* The first newline in [@q, @end), or %NULL: memchr() costs a call and
 * its set-up for each line, which is about as long as the search. */
static inline const char *
find_newline (const char *t,
              gsize       q,
              gsize       end)
{
#if defined(__SSE2__)
  const __m128i nl = _mm_set1_epi8 ('\n');

  /* Most lines end within 32 bytes of their first token. */
  for (; q + 32 <= end; q += 32)
    {
      guint32 m = (guint32) _mm_movemask_epi8 (
                      _mm_cmpeq_epi8 (_mm_loadu_si128 ((const __m128i *) (t + q)), nl)) |
                  (guint32) _mm_movemask_epi8 (
                      _mm_cmpeq_epi8 (_mm_loadu_si128 ((const __m128i *) (t + q + 16)), nl))
                      << 16;

      if (m != 0)
        return t + q + __builtin_ctz (m);
    }
  for (; q + 16 <= end; q += 16)
    {
      guint m = (guint) _mm_movemask_epi8 (
          _mm_cmpeq_epi8 (_mm_loadu_si128 ((const __m128i *) (t + q)), nl));

      if (m != 0)
        return t + q + __builtin_ctz (m);
    }
#endif
  return memchr (t + q, '\n', end - q);
}

static gboolean
scan_body (const char *t,
           gsize       pos,
           gsize       end,
           guint       indent,
           gsize      *out_line_end,
           guint32    *out_last_end)
{
  const guint64 spaces = G_GUINT64_CONSTANT (0x2020202020202020);
  gsize         last = pos; /* where the last line with a token starts */
  gsize         stop;       /* and where it ends: its newline, or end */

  for (;;)
    {
      const char *nl = find_newline (t, last, end);
      gsize       q;

      stop = nl != NULL ? (gsize) (nl - t) : end;
      if (nl == NULL)
        break;

      /* Most next lines: indented by exactly @indent spaces, then a token
       * (not a newline, `#` or a byte that gives up). */
      q = stop + 1;
      if (indent <= 8 && q + 8 <= end)
        {
          guint64 w;
          guchar  c = (guchar) t[q + indent];

          memcpy (&w, t + q, 8);
          if (((w ^ spaces) & _graft_py_word_masks[indent]) == 0 && c > ' ' && c != '#')
            {
              last = q + indent;
              continue;
            }
        }

      /* The next line with a token, blank and comment lines skipped. */
      for (;;)
        {
          gsize    line = q;
          guint64  w;
          gboolean more = FALSE;

          while (q + 8 <= end && (memcpy (&w, t + q, 8), w == spaces))
            q += 8;
          while (q < end && t[q] == ' ')
            q++;
          if (q >= end)
            break;
          if (t[q] == '\n')
            more = TRUE;
          else if (t[q] == '#')
            {
              nl = memchr (t + q, '\n', end - q);
              if (nl == NULL)
                break;
              q = nl - t;
              more = TRUE;
            }
          else if (t[q] == '\t' || t[q] == '\f' || t[q] == '\r' || t[q] == '\0')
            return FALSE;
          if (more)
            {
              q++;
              continue;
            }
          if (q - line < indent)
            break;
          last = q;
          break;
        }
      if (last < stop)
        break;
    }
  if (!line_statement_end (t, last, stop, out_last_end))
    return FALSE;
  *out_line_end = stop < end ? stop + 1 : end;
  return TRUE;
}

/* Skips the body whose INDENT is the lookahead with scan_body(), then
 * sets the lexer where it would stand after the body's last NEWLINE (the
 * levels of blocks nested in the body left out: they close before the
 * body does) and reads the body's DEDENT.  Returns FALSE, with the parser
 * unchanged, when scan_body() gives up or the lexer does not find the
 * DEDENT there. */
static gboolean
skip_body_quickly (Parser              *p,
                   GraftPyDeferredBody *body,
                   guint32             *out_last_end)
{
  GraftPyLexer *lex = &p->main_lexer;
  GraftPyLexer  saved;
  GraftPyToken  saved_cur = p->cur;
  gsize         line_end;
  guint         indent = lex->indents[lex->n_indents - 1];

  for (gsize i = p->cur.start; i < p->cur.end; i++)
    if (p->text[i] != ' ')
      return FALSE;
  if (lex->embedded || lex->pending_dedents > 0 || lex->n_brackets > 0 ||
      lex->alt_indents[lex->n_indents - 1] != indent ||
      !scan_body (p->text, lex->pos, lex->end, indent, &line_end, out_last_end))
    return FALSE;
  saved = *lex;
  _graft_py_lexer_set_line_start (lex, line_end);
  advance (p);
  if (!at (p, GRAFT_PY_TOKEN_DEDENT))
    {
      *lex = saved;
      p->cur = saved_cur;
      g_clear_error (&p->lex_error);
      return FALSE;
    }
  body->close = p->cur;
  return TRUE;
}

/* Whether graft_py_parse_deferring() leaves the body of the def @name,
 * being parsed, unread: the first `forward` directly in the body of a
 * top-level class (the one named @defer_class if set), which is what
 * torch.fx traces. */
static gboolean
should_defer (Parser     *p,
              const char *name)
{
  return p->defer && p->deferred == NULL && p->depth == 1 && p->top_class != NULL &&
         name != NULL && strcmp (name, "forward") == 0 &&
         (p->defer_class == NULL || strcmp (p->top_class, p->defer_class) == 0);
}

/* Runs the lexer through the indented body of @def, at its `:`, and
 * records where it starts; the statements are left unread.  Returns FALSE
 * with the parser where it was when the body is not an indented block or
 * the lexer fails in it: the body is then parsed as usual, and reports
 * its errors as usual. */
static gboolean
defer_body (Parser      *p,
            GraftPyStmt *def)
{
  Snapshot             snapshot;
  GraftPyDeferredBody *body;
  guint                level = 0;
  guint32              last_end = 0;

  if (!at (p, GRAFT_PY_TOKEN_COLON) || p->lex != &p->main_lexer ||
      p->depth + 1 >= GRAFT_MAX_PARSE_DEPTH)
    return FALSE;
  snapshot_take (p, &snapshot);
  advance (p);
  if (!accept (p, GRAFT_PY_TOKEN_NEWLINE) || !at (p, GRAFT_PY_TOKEN_INDENT))
    {
      snapshot_restore (p, &snapshot);
      return FALSE;
    }
  body = graft_py_module_alloc (p->module, sizeof *body);
  body->lexer = p->main_lexer;
  body->indent = p->cur;
  body->prev_kind = p->prev_kind;
  body->prev_end = p->prev_end;
  body->depth = p->depth;
  body->private_class = p->private_class;
  body->private_class_len = p->private_class_len;
  if (skip_body_quickly (p, body, &last_end))
    goto skipped;
  for (;;)
    {
      switch ((int) p->cur.kind)
        {
        case GRAFT_PY_TOKEN_INDENT:
          level++;
          break;
        case GRAFT_PY_TOKEN_DEDENT:
          level--;
          break;
        case GRAFT_PY_TOKEN_ENDMARKER:
        case GRAFT_PY_TOKEN_ERROR:
          snapshot_restore (p, &snapshot);
          return FALSE;
        case GRAFT_PY_TOKEN_NEWLINE:
        case GRAFT_PY_TOKEN_SEMI:
          break;
        default:
          /* A statement ends at its last token, before a `;`. */
          last_end = p->cur.end;
          break;
        }
      if (level == 0)
        break;
      advance (p);
    }
  body->close = p->cur;

skipped:
  /* Past the DEDENT, as parse_block() leaves it. */
  advance (p);
  body->end = last_end;
  p->stmt_end = last_end;
  def->function_def.deferred = body;
  p->deferred = body;
  return TRUE;
}

static GraftPyStmt *
parse_function_def (Parser         *p,
                    gsize           start,
                    GraftPyExprList decorators,
                    gboolean        is_async)
{
  gsize        header = p->cur.start;
  GraftPyStmt *s = new_stmt_spanning (p, GRAFT_PY_STMT_FUNCTION_DEF, start, start);

  graft_py_module_pin_transient (p->module);
  advance (p);
  s->function_def.name =
      take_definition_name (p, "a function name", &s->function_def.private_prefix);
  if (s->function_def.name == NULL || !expect (p, GRAFT_PY_TOKEN_LPAR))
    return NULL;
  s->function_def.args = parse_parameters (p, GRAFT_PY_TOKEN_RPAR, PARAMS_DEF);
  if (s->function_def.args == NULL || !expect (p, GRAFT_PY_TOKEN_RPAR))
    return NULL;
  if (accept (p, GRAFT_PY_TOKEN_RARROW))
    {
      s->function_def.returns = parse_expression (p);
      if (s->function_def.returns == NULL)
        return NULL;
    }
  s->function_def.decorators = decorators;
  s->function_def.is_async = is_async;
  if (should_defer (p, s->function_def.name) && defer_body (p, s))
    {
      s->end = p->stmt_end;
      return s;
    }
  if (p->error != NULL ||
      !parse_block (p, "function definition", header, &s->function_def.body))
    return NULL;
  s->end = p->stmt_end;
  return s;
}

static GraftPyStmt *
parse_class_def (Parser         *p,
                 gsize           start,
                 GraftPyExprList decorators)
{
  gsize        header = p->cur.start;
  GraftPyStmt *s = new_stmt_spanning (p, GRAFT_PY_STMT_CLASS_DEF, start, start);
  const char  *outer_class = p->top_class;
  const char  *outer_private = p->private_class;
  gsize        outer_private_len = p->private_class_len;
  const char  *private_class;
  gboolean     ok;

  graft_py_module_pin_transient (p->module);
  advance (p);
  s->class_def.name = take_definition_name (p, "a class name", &s->class_def.private_prefix);
  if (s->class_def.name == NULL)
    return NULL;
  if (at (p, GRAFT_PY_TOKEN_LPAR))
    {
      if (!enter (p, "too many nested parentheses"))
        return NULL;
      if (!parse_call_args (p, &s->class_def.bases, &s->class_def.keywords,
                            &s->class_def.n_keywords))
        return NULL;
      leave (p);
    }
  s->class_def.decorators = decorators;
  if (p->depth == 0)
    p->top_class = s->class_def.name;
  /* The body's private names are mangled by this class's name, without
   * its leading underscores; a name of underscores only mangles none. */
  private_class = s->class_def.name;
  while (*private_class == '_')
    private_class++;
  set_private_class (p, *private_class != '\0' ? private_class : NULL, strlen (private_class));
  ok = parse_block (p, "class definition", header, &s->class_def.body);
  p->top_class = outer_class;
  set_private_class (p, outer_private, outer_private_len);
  if (!ok)
    return NULL;
  s->end = p->stmt_end;
  return s;
}

/* `async def`, `async for`, `async with`, with their decorators if any. */
static GraftPyStmt *
parse_definition (Parser *p)
{
  gsize           start = p->cur.start;
  guint           base = p->scratch->len;
  GraftPyExprList decorators;

  while (accept (p, GRAFT_PY_TOKEN_AT))
    {
      GraftPyExpr *e = parse_named_expression (p);

      if (e == NULL)
        return NULL;
      if (!at (p, GRAFT_PY_TOKEN_NEWLINE))
        {
          fail_tok (p, "expected a newline after the decorator");
          return NULL;
        }
      advance (p);
      push (p, e);
    }
  decorators = finish_exprs (p, base);

  if (at (p, GRAFT_PY_TOKEN_KW_DEF))
    return parse_function_def (p, start, decorators, FALSE);
  if (at (p, GRAFT_PY_TOKEN_KW_CLASS))
    return parse_class_def (p, start, decorators);
  if (accept (p, GRAFT_PY_TOKEN_KW_ASYNC))
    {
      if (at (p, GRAFT_PY_TOKEN_KW_DEF))
        return parse_function_def (p, start, decorators, TRUE);
      if (decorators.len == 0 && at (p, GRAFT_PY_TOKEN_KW_FOR))
        return parse_for (p, start, TRUE);
      if (decorators.len == 0 && at (p, GRAFT_PY_TOKEN_KW_WITH))
        return parse_with (p, start, TRUE);
      fail_tok (p, decorators.len == 0 ? "expected 'def', 'for' or 'with' after 'async'"
                                       : "expected 'def' after 'async'");
      return NULL;
    }
  if (at (p, GRAFT_PY_TOKEN_INDENT))
    fail_tok (p, "unexpected indent");
  else
    fail_tok (p, "expected a function or class definition after a decorator");
  return NULL;
}

/* `match x:` starts a statement that Graft does not parse.  Since `match`
 * is an ordinary name elsewhere, look one token further. */
static gboolean
is_match_statement (Parser *p)
{
  Snapshot snapshot;
  gboolean is_match;

  if (p->cur.end - p->cur.start != 5 || memcmp (p->text + p->cur.start, "match", 5) != 0)
    return FALSE;
  snapshot_take (p, &snapshot);
  advance (p);
  switch ((int) p->cur.kind)
    {
    case GRAFT_PY_TOKEN_NAME:
    case GRAFT_PY_TOKEN_NUMBER:
    case GRAFT_PY_TOKEN_STRING:
    case GRAFT_PY_TOKEN_LBRACE:
    case GRAFT_PY_TOKEN_KW_NONE:
    case GRAFT_PY_TOKEN_KW_TRUE:
    case GRAFT_PY_TOKEN_KW_FALSE:
      is_match = TRUE;
      break;
    case GRAFT_PY_TOKEN_LSQB:
    case GRAFT_PY_TOKEN_LPAR:
    case GRAFT_PY_TOKEN_MINUS:
    case GRAFT_PY_TOKEN_TILDE:
      /* `match [a, b]:` or an expression statement `match[a]`,
       * `match (a)`, `match - 1`: a subject followed by a colon. */
      is_match = parse_star_expressions (p) != NULL && p->error == NULL &&
                 at (p, GRAFT_PY_TOKEN_COLON);
      break;
    default:
      is_match = FALSE;
      break;
    }
  snapshot_restore (p, &snapshot);
  return is_match;
}

/* Match statements ------------------------------------------------------
 *
 * `match` is read into the statements Python's own would amount to: the
 * subject assigned once to a name no program can write
 * (`match subject@N`), then an if/elif chain with one test per case, each
 * the pattern's checks over the subject joined by `and`, its captures
 * bound by `:=` in a one-item list (always true), then the guard.  A
 * literal is compared with `==` (`None`, `True`, `False` with `is`) over
 * the span of the literal, where torch's TraceError of a traced subject
 * points; a sequence pattern checks `isinstance(s, (list, tuple, range))`
 * (a str is none, a traced value none either) and the length; a mapping
 * `isinstance(s, dict)` and each key with `in`; a class pattern
 * `isinstance(s, C)` and each keyword with hasattr().  (Those are the
 * builtins whatever the program binds to their names: the tests call
 * them by GRAFT_PY_MATCH_BUILTIN names.) */

typedef enum {
  PAT_WILDCARD,
  PAT_CAPTURE,
  PAT_LITERAL,   /* compared with == */
  PAT_SINGLETON, /* None, True, False: compared with `is` */
  PAT_VALUE,     /* a dotted name: == */
  PAT_SEQUENCE,
  PAT_STAR, /* in a sequence: @name, NULL for `*_` */
  PAT_MAPPING,
  PAT_CLASS,
  PAT_OR,
  PAT_AS,
} PatKind;

typedef struct _Pat Pat;
struct _Pat
{
  PatKind      kind;
  gsize        start, end;
  const char  *name;  /* CAPTURE, STAR, AS; MAPPING's `**rest` */
  GraftPyExpr *expr;  /* LITERAL, SINGLETON, VALUE; CLASS's class; */
  GPtrArray   *items; /* SEQUENCE, OR, CLASS positional, MAPPING values; AS: its pattern */
  GPtrArray   *keys;  /* MAPPING: GraftPyExpr *; CLASS: keyword names (const char *) */
  GPtrArray   *kwpats;
};

static Pat       *parse_or_pattern (Parser *p);
static gboolean   check_alternatives (Parser *p, const Pat *pat);
static const Pat *differing_alternative (const Pat *pat);
static const Pat *pat_irrefutable (const Pat *pat);
static void       fail_unreachable (Parser *p, const Pat *leaf);
static gboolean   check_bindings (Parser *p, const Pat *pat, GHashTable *bound);

static Pat *
pat_new (Parser *p,
         PatKind kind,
         gsize   start)
{
  Pat *pat = graft_py_module_alloc (p->module, sizeof (Pat));

  memset (pat, 0, sizeof *pat);
  pat->kind = kind;
  pat->start = start;
  pat->end = p->prev_end;
  return pat;
}

/* An array freed with the parser. */
static GPtrArray *
pat_array (Parser *p)
{
  GPtrArray *a = g_ptr_array_new ();

  if (p->match_arrays == NULL)
    p->match_arrays = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_ptr_array_add (p->match_arrays, a);
  return a;
}

/* A literal pattern: a number (signed, or `1 + 2j`), strings. */
static Pat *
parse_literal_pattern (Parser *p)
{
  gsize        start = p->cur.start;
  GraftPyExpr *e = parse_unary (p);

  if (e == NULL)
    return NULL;
  if ((at (p, GRAFT_PY_TOKEN_PLUS) || at (p, GRAFT_PY_TOKEN_MINUS)))
    {
      GraftPyBinOp op = at (p, GRAFT_PY_TOKEN_PLUS) ? GRAFT_PY_BIN_ADD : GRAFT_PY_BIN_SUB;
      GraftPyExpr *right, *sum;

      advance (p);
      right = parse_unary (p);
      if (right == NULL)
        return NULL;
      sum = new_expr (p, GRAFT_PY_EXPR_BIN_OP, start);
      sum->bin_op.op = op;
      sum->bin_op.left = e;
      sum->bin_op.right = right;
      e = sum;
    }
  if (e->kind != GRAFT_PY_EXPR_CONSTANT && e->kind != GRAFT_PY_EXPR_UNARY_OP &&
      e->kind != GRAFT_PY_EXPR_BIN_OP)
    {
      fail_expr (p, e, "patterns may only match literals and attribute lookups");
      return NULL;
    }
  Pat *pat = pat_new (p, PAT_LITERAL, start);
  pat->expr = e;
  return pat;
}

/* The items of `[...]`, `(...)` or an open sequence, up to @close
 * (0: the end of the case's patterns), into @items. */
static gboolean
parse_sequence_items (Parser          *p,
                      GraftPyTokenKind close,
                      gsize            seq_start,
                      GPtrArray       *items)
{
  gboolean star = FALSE;

  while (close == 0 ? !at (p, GRAFT_PY_TOKEN_COLON) && !at (p, GRAFT_PY_TOKEN_KW_IF)
                    : !at (p, close))
    {
      Pat *item;

      if (at (p, GRAFT_PY_TOKEN_STAR))
        {
          gsize start = p->cur.start;

          advance (p);
          if (star)
            {
              /* (Python's span: the sequence's start to the name.) */
              fail_at (p, seq_start, p->cur.end, GRAFT_PARSE_ERROR_SYNTAX,
                       "multiple starred names in sequence pattern");
              return FALSE;
            }
          star = TRUE;
          item = pat_new (p, PAT_STAR, start);
          if ((item->name = take_name (p, "a name after '*'")) == NULL)
            return FALSE;
          if (strcmp (item->name, "_") == 0)
            item->name = NULL;
          item->end = p->prev_end;
        }
      else if ((item = parse_or_pattern (p)) == NULL)
        return FALSE;
      g_ptr_array_add (items, item);
      if (!accept (p, GRAFT_PY_TOKEN_COMMA))
        break;
    }
  return TRUE;
}

/* A dotted name `a.b.c` after its first NAME token. */
static GraftPyExpr *
parse_dotted_rest (Parser      *p,
                   GraftPyExpr *e)
{
  while (accept (p, GRAFT_PY_TOKEN_DOT))
    {
      GraftPyExpr *a;
      const char  *attr = take_name (p, "a name after '.'");

      if (attr == NULL)
        return NULL;
      a = new_expr (p, GRAFT_PY_EXPR_ATTRIBUTE, e->start);
      a->attribute.value = e;
      a->attribute.attr = attr;
      a->attribute.ctx = GRAFT_PY_CTX_LOAD;
      e = a;
    }
  return e;
}

static Pat *
parse_closed_pattern (Parser *p)
{
  gsize start = p->cur.start;
  Pat  *pat;

  switch ((int) p->cur.kind)
    {
    case GRAFT_PY_TOKEN_KW_NONE:
    case GRAFT_PY_TOKEN_KW_TRUE:
    case GRAFT_PY_TOKEN_KW_FALSE:
      {
        GraftPyExpr *e = parse_atom (p);

        if (e == NULL)
          return NULL;
        pat = pat_new (p, PAT_SINGLETON, start);
        pat->expr = e;
        return pat;
      }
    case GRAFT_PY_TOKEN_NUMBER:
    case GRAFT_PY_TOKEN_STRING:
    case GRAFT_PY_TOKEN_MINUS:
      return parse_literal_pattern (p);
    case GRAFT_PY_TOKEN_LSQB:
    case GRAFT_PY_TOKEN_LPAR:
      {
        GraftPyTokenKind close =
            at (p, GRAFT_PY_TOKEN_LSQB) ? GRAFT_PY_TOKEN_RSQB : GRAFT_PY_TOKEN_RPAR;
        GPtrArray *items = pat_array (p);
        gboolean   comma;

        advance (p);
        if (!parse_sequence_items (p, close, start, items))
          return NULL;
        comma = p->prev_kind == GRAFT_PY_TOKEN_COMMA;
        if (!expect (p, close))
          return NULL;
        /* `(p)` is p itself. */
        if (close == GRAFT_PY_TOKEN_RPAR && items->len == 1 && !comma &&
            ((Pat *) items->pdata[0])->kind != PAT_STAR)
          return items->pdata[0];
        pat = pat_new (p, PAT_SEQUENCE, start);
        pat->items = items;
        return pat;
      }
    case GRAFT_PY_TOKEN_LBRACE:
      {
        pat = pat_new (p, PAT_MAPPING, start);
        pat->keys = pat_array (p);
        pat->items = pat_array (p);
        advance (p);
        while (!at (p, GRAFT_PY_TOKEN_RBRACE))
          {
            GraftPyExpr *key;
            Pat         *value;

            if (accept (p, GRAFT_PY_TOKEN_DOUBLESTAR))
              {
                if ((pat->name = take_name (p, "a name after '**'")) == NULL)
                  return NULL;
                if (strcmp (pat->name, "_") == 0)
                  {
                    /* (Python's grammar has no `**_`.) */
                    fail_at (p, p->prev_end - 1, p->prev_end, GRAFT_PARSE_ERROR_SYNTAX,
                             "invalid syntax");
                    return NULL;
                  }
                accept (p, GRAFT_PY_TOKEN_COMMA);
                break;
              }
            if (at (p, GRAFT_PY_TOKEN_NAME))
              {
                GraftPyExpr *n = new_expr (p, GRAFT_PY_EXPR_NAME, p->cur.start);

                n->name.id = take_name (p, "a name");
                n->name.ctx = GRAFT_PY_CTX_LOAD;
                n->end = p->prev_end;
                key = parse_dotted_rest (p, n);
                if (key != NULL && key->kind == GRAFT_PY_EXPR_NAME)
                  {
                    fail_expr (p, key, "mapping pattern keys may only match literals and "
                                       "attribute lookups");
                    return NULL;
                  }
              }
            else
              {
                Pat *lit = parse_closed_pattern (p);

                key = lit != NULL && (lit->kind == PAT_LITERAL || lit->kind == PAT_SINGLETON)
                          ? lit->expr
                          : NULL;
                if (lit != NULL && key == NULL)
                  fail_at (p, lit->start, lit->end, GRAFT_PARSE_ERROR_SYNTAX,
                           "mapping pattern keys may only match literals and attribute lookups");
              }
            if (key == NULL || !expect (p, GRAFT_PY_TOKEN_COLON) ||
                (value = parse_or_pattern (p)) == NULL)
              return NULL;
            g_ptr_array_add (pat->keys, key);
            g_ptr_array_add (pat->items, value);
            if (!accept (p, GRAFT_PY_TOKEN_COMMA))
              break;
          }
        if (!expect (p, GRAFT_PY_TOKEN_RBRACE))
          return NULL;
        pat->end = p->prev_end;
        return pat;
      }
    case GRAFT_PY_TOKEN_NAME:
      {
        GraftPyExpr *n = new_expr (p, GRAFT_PY_EXPR_NAME, start);
        GraftPyExpr *e;

        n->name.id = take_name (p, "a name");
        n->name.ctx = GRAFT_PY_CTX_LOAD;
        n->end = p->prev_end;
        e = parse_dotted_rest (p, n);
        if (e == NULL)
          return NULL;
        if (at (p, GRAFT_PY_TOKEN_LPAR))
          {
            pat = pat_new (p, PAT_CLASS, start);
            pat->expr = e;
            pat->items = pat_array (p);
            pat->keys = pat_array (p);
            pat->kwpats = pat_array (p);
            advance (p);
            while (!at (p, GRAFT_PY_TOKEN_RPAR))
              {
                Pat *sub;

                if (at (p, GRAFT_PY_TOKEN_NAME))
                  {
                    Snapshot snapshot;

                    snapshot_take (p, &snapshot);
                    advance (p);
                    if (at (p, GRAFT_PY_TOKEN_EQUAL))
                      {
                        snapshot_restore (p, &snapshot);
                        g_ptr_array_add (pat->keys, (gpointer) take_name (p, "a name"));
                        advance (p);
                        if ((sub = parse_or_pattern (p)) == NULL)
                          return NULL;
                        g_ptr_array_add (pat->kwpats, sub);
                        if (!accept (p, GRAFT_PY_TOKEN_COMMA))
                          break;
                        continue;
                      }
                    snapshot_restore (p, &snapshot);
                  }
                if (pat->keys->len > 0)
                  {
                    fail_tok (p, "positional patterns follow keyword patterns");
                    return NULL;
                  }
                if ((sub = parse_or_pattern (p)) == NULL)
                  return NULL;
                g_ptr_array_add (pat->items, sub);
                if (!accept (p, GRAFT_PY_TOKEN_COMMA))
                  break;
              }
            if (!expect (p, GRAFT_PY_TOKEN_RPAR))
              return NULL;
            pat->end = p->prev_end;
            return pat;
          }
        if (e->kind == GRAFT_PY_EXPR_ATTRIBUTE)
          {
            pat = pat_new (p, PAT_VALUE, start);
            pat->expr = e;
            return pat;
          }
        pat = pat_new (p, strcmp (n->name.id, "_") == 0 ? PAT_WILDCARD : PAT_CAPTURE, start);
        pat->name = n->name.id;
        return pat;
      }
    default:
      fail_tok (p, "invalid syntax: expected a pattern");
      return NULL;
    }
}

/* or_pattern ['as' NAME] */
static Pat *
parse_or_pattern (Parser *p)
{
  gsize start = p->cur.start;
  Pat  *first, *pat;

  if (!enter (p, "too many nested patterns"))
    return NULL;
  first = parse_closed_pattern (p);
  if (first == NULL)
    return NULL;
  pat = first;
  if (at (p, GRAFT_PY_TOKEN_VBAR))
    {
      pat = pat_new (p, PAT_OR, start);
      pat->items = pat_array (p);
      g_ptr_array_add (pat->items, first);
      while (accept (p, GRAFT_PY_TOKEN_VBAR))
        {
          Pat *alt = parse_closed_pattern (p);

          if (alt == NULL)
            return NULL;
          g_ptr_array_add (pat->items, alt);
        }
      pat->end = p->prev_end;
      /* An alternative that matches anything is the last one (Python's
       * compiler, before it compares the names they bind). */
      for (guint i = 0; i + 1 < pat->items->len; i++)
        {
          const Pat *leaf = pat_irrefutable (pat->items->pdata[i]);

          if (leaf != NULL)
            {
              fail_unreachable (p, leaf);
              return NULL;
            }
        }
      if (p->alt_deferred == NULL &&
          pat_irrefutable (pat->items->pdata[pat->items->len - 1]) != NULL)
        {
          if (differing_alternative (pat) != NULL)
            p->alt_deferred = pat;
        }
      else if (!check_alternatives (p, pat))
        return NULL;
    }
  if (accept (p, GRAFT_PY_TOKEN_KW_AS))
    {
      Pat *as = pat_new (p, PAT_AS, start);

      as->items = pat_array (p);
      g_ptr_array_add (as->items, pat);
      if ((as->name = take_name (p, "a name after 'as'")) == NULL)
        return NULL;
      if (strcmp (as->name, "_") == 0)
        {
          fail_at (p, p->prev_end - 1, p->prev_end, GRAFT_PARSE_ERROR_SYNTAX,
                   "cannot use '_' as a target");
          return NULL;
        }
      as->end = p->prev_end;
      pat = as;
    }
  leave (p);
  return pat;
}

/* Adds the names @pat binds to @names. */
static void
pat_names (const Pat *pat,
           GPtrArray *names)
{
  if ((pat->kind == PAT_CAPTURE || pat->kind == PAT_STAR || pat->kind == PAT_AS ||
       pat->kind == PAT_MAPPING) &&
      pat->name != NULL)
    g_ptr_array_add (names, (gpointer) pat->name);
  if (pat->kind == PAT_OR)
    {
      pat_names (pat->items->pdata[0], names);
      return;
    }
  for (guint i = 0; pat->items != NULL && i < pat->items->len; i++)
    pat_names (pat->items->pdata[i], names);
  for (guint i = 0; pat->kwpats != NULL && i < pat->kwpats->len; i++)
    pat_names (pat->kwpats->pdata[i], names);
}

static gint
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The first alternative of the or-pattern @pat that binds other names
 * than the first, or %NULL. */
static const Pat *
differing_alternative (const Pat *pat)
{
  g_autoptr (GPtrArray) first = g_ptr_array_new ();

  pat_names (pat->items->pdata[0], first);
  g_ptr_array_sort (first, compare_names);
  for (guint i = 1; i < pat->items->len; i++)
    {
      const Pat *alt = pat->items->pdata[i];
      g_autoptr (GPtrArray) names = g_ptr_array_new ();
      gboolean same;

      pat_names (alt, names);
      g_ptr_array_sort (names, compare_names);
      same = names->len == first->len;
      for (guint k = 0; same && k < names->len; k++)
        same = strcmp (names->pdata[k], first->pdata[k]) == 0;
      if (!same)
        return alt;
    }
  return NULL;
}

/* Whether the alternatives of the or-pattern @pat bind the same names
 * (Python's SyntaxError at the first that does not). */
static gboolean
check_alternatives (Parser    *p,
                    const Pat *pat)
{
  const Pat *alt = differing_alternative (pat);

  if (alt != NULL)
    {
      fail_at (p, alt->start, alt->end, GRAFT_PARSE_ERROR_SYNTAX,
               "alternative patterns bind different names");
      return FALSE;
    }
  return TRUE;
}

/* The capture or wildcard that makes @pat match whatever the subject is
 * (`x`, `_`, `x as y`'s x, `1 | x`'s x), or %NULL: where Python's
 * "makes remaining patterns unreachable" points. */
static const Pat *
pat_irrefutable (const Pat *pat)
{
  if (pat->kind == PAT_WILDCARD || pat->kind == PAT_CAPTURE)
    return pat;
  if (pat->kind == PAT_AS)
    return pat_irrefutable (pat->items->pdata[0]);
  if (pat->kind == PAT_OR)
    for (guint i = 0; i < pat->items->len; i++)
      {
        const Pat *leaf = pat_irrefutable (pat->items->pdata[i]);

        if (leaf != NULL)
          return leaf;
      }
  return NULL;
}

/* Python's compiler's checks of the names @pat binds, in the order it
 * stores them (a mapping's `**rest` first), into @bound: "multiple
 * assignments to name 'x' in pattern" at the second, "attribute name
 * repeated in class pattern" at the second keyword's pattern. */
static gboolean
check_bindings (Parser     *p,
                const Pat  *pat,
                GHashTable *bound)
{
  const char *name = NULL;
  gsize       start = pat->start, end = pat->end;

  switch (pat->kind)
    {
    case PAT_CAPTURE:
    case PAT_STAR:
      name = pat->name;
      break;
    case PAT_AS:
      if (!check_bindings (p, pat->items->pdata[0], bound))
        return FALSE;
      name = pat->name;
      break;
    case PAT_OR:
      /* Each alternative binds the same names (check_alternatives()). */
      for (guint i = pat->items->len; i > 0; i--)
        {
          g_autoptr (GHashTable) alt = NULL;

          if (i == 1)
            return check_bindings (p, pat->items->pdata[0], bound);
          alt = g_hash_table_new (g_str_hash, g_str_equal);
          {
            GHashTableIter iter;
            gpointer       key;

            g_hash_table_iter_init (&iter, bound);
            while (g_hash_table_iter_next (&iter, &key, NULL))
              g_hash_table_add (alt, key);
          }
          if (!check_bindings (p, pat->items->pdata[i - 1], alt))
            return FALSE;
        }
      return TRUE;
    case PAT_MAPPING:
      /* A literal key twice (an int's or a plain str's: their reprs are
       * simple): before the names. */
      for (guint i = 1; i < pat->keys->len; i++)
        {
          const GraftPyExpr *key = pat->keys->pdata[i];

          for (guint j = 0; j < i; j++)
            {
              const GraftPyExpr *other = pat->keys->pdata[j];
              g_autofree char   *repr = NULL;

              if (key->kind != GRAFT_PY_EXPR_CONSTANT || other->kind != GRAFT_PY_EXPR_CONSTANT ||
                  key->constant.kind != other->constant.kind)
                continue;
              if (key->constant.kind == GRAFT_PY_CONST_INT &&
                  key->constant.int_value == other->constant.int_value)
                repr = g_strdup_printf ("%" G_GINT64_FORMAT, key->constant.int_value);
              else if (key->constant.kind == GRAFT_PY_CONST_STR &&
                       key->constant.len == other->constant.len &&
                       memcmp (key->constant.str, other->constant.str, key->constant.len) == 0)
                {
                  gboolean plain = TRUE;

                  for (gsize k = 0; k < key->constant.len; k++)
                    plain = plain && g_ascii_isprint (key->constant.str[k]) &&
                            strchr ("'\\\"", key->constant.str[k]) == NULL;
                  if (plain)
                    repr = g_strdup_printf ("'%.*s'", (int) key->constant.len, key->constant.str);
                }
              if (repr != NULL)
                {
                  fail_at (p, start, end, GRAFT_PARSE_ERROR_SYNTAX,
                           "mapping pattern checks duplicate key (%s)", repr);
                  return FALSE;
                }
            }
        }
      if (pat->name != NULL)
        g_hash_table_add (bound, (gpointer) pat->name);
      for (guint i = 0; i < pat->items->len; i++)
        if (!check_bindings (p, pat->items->pdata[i], bound))
          return FALSE;
      return TRUE;
    case PAT_CLASS:
      for (guint i = 0; i < pat->items->len; i++)
        if (!check_bindings (p, pat->items->pdata[i], bound))
          return FALSE;
      for (guint i = 0; i < pat->keys->len; i++)
        {
          const Pat *kw = pat->kwpats->pdata[i];

          for (guint j = 0; j < i; j++)
            if (strcmp (pat->keys->pdata[j], pat->keys->pdata[i]) == 0)
              {
                fail_at (p, kw->start, kw->end, GRAFT_PARSE_ERROR_SYNTAX,
                         "attribute name repeated in class pattern: %s",
                         (const char *) pat->keys->pdata[i]);
                return FALSE;
              }
          if (!check_bindings (p, kw, bound))
            return FALSE;
        }
      return TRUE;
    case PAT_SEQUENCE:
      for (guint i = 0; i < pat->items->len; i++)
        if (!check_bindings (p, pat->items->pdata[i], bound))
          return FALSE;
      return TRUE;
    case PAT_WILDCARD:
    case PAT_LITERAL:
    case PAT_SINGLETON:
    case PAT_VALUE:
    default:
      return TRUE;
    }
  if (name == NULL)
    return TRUE;
  if (g_hash_table_contains (bound, name))
    {
      fail_at (p, start, end, GRAFT_PARSE_ERROR_SYNTAX,
               "multiple assignments to name '%s' in pattern", name);
      return FALSE;
    }
  g_hash_table_add (bound, (gpointer) name);
  return TRUE;
}

/* Python's SyntaxError for the irrefutable @leaf of a pattern that others
 * follow. */
static void
fail_unreachable (Parser    *p,
                  const Pat *leaf)
{
  if (leaf->kind == PAT_CAPTURE)
    fail_at (p, leaf->start, leaf->end, GRAFT_PARSE_ERROR_SYNTAX,
             "name capture '%s' makes remaining patterns unreachable", leaf->name);
  else
    fail_at (p, leaf->start, leaf->end, GRAFT_PARSE_ERROR_SYNTAX,
             "wildcard makes remaining patterns unreachable");
}

/* Expressions of the tests, spanning [@start, @end) */

static GraftPyExpr *
mk_expr (Parser         *p,
         GraftPyExprKind kind,
         gsize           start,
         gsize           end)
{
  return graft_py_expr_new (p->module, kind, start, end);
}

static GraftPyExprList
mk_list (Parser   *p,
         guint     n,
         gpointer *items)
{
  GraftPyExprList list = { 0 };

  list.len = n;
  list.items = graft_py_module_alloc (p->module, MAX (n, 1) * sizeof (GraftPyExpr *));
  for (guint i = 0; i < n; i++)
    list.items[i] = items[i];
  return list;
}

static GraftPyExpr *
mk_name (Parser     *p,
         const char *id,
         gsize       start,
         gsize       end)
{
  GraftPyExpr *e = mk_expr (p, GRAFT_PY_EXPR_NAME, start, end);

  e->name.id = _graft_py_module_intern_fast (p->module, id, strlen (id));
  e->name.ctx = GRAFT_PY_CTX_LOAD;
  return e;
}

/* The builtin @id, whatever the program binds to its name. */
static GraftPyExpr *
mk_builtin (Parser     *p,
            const char *id,
            gsize       start,
            gsize       end)
{
  g_autofree char *name = g_strconcat (GRAFT_PY_MATCH_BUILTIN, id, NULL);

  return mk_name (p, name, start, end);
}

static GraftPyExpr *
mk_call (Parser      *p,
         const char  *fn,
         GraftPyExpr *a,
         GraftPyExpr *b,
         gsize        start,
         gsize        end)
{
  GraftPyExpr *e = mk_expr (p, GRAFT_PY_EXPR_CALL, start, end);
  gpointer     args[2] = { a, b };

  e->call.func = mk_builtin (p, fn, start, end);
  e->call.args = mk_list (p, b != NULL ? 2 : 1, args);
  return e;
}

static GraftPyExpr *
mk_compare (Parser      *p,
            GraftPyExpr *left,
            GraftPyCmpOp op,
            GraftPyExpr *right,
            gsize        start,
            gsize        end)
{
  GraftPyExpr *e = mk_expr (p, GRAFT_PY_EXPR_COMPARE, start, end);
  gpointer     items[1] = { right };

  e->compare.left = left;
  e->compare.ops = graft_py_module_alloc (p->module, sizeof (GraftPyCmpOp));
  e->compare.ops[0] = op;
  e->compare.comparators = mk_list (p, 1, items);
  return e;
}

static GraftPyExpr *
mk_int (Parser *p,
        gint64  v,
        gsize   start,
        gsize   end)
{
  GraftPyExpr *e = mk_expr (p, GRAFT_PY_EXPR_CONSTANT, start, end);

  e->constant.kind = GRAFT_PY_CONST_INT;
  e->constant.int_value = v;
  return e;
}

static GraftPyExpr *
mk_str (Parser     *p,
        const char *s,
        gsize       start,
        gsize       end)
{
  GraftPyExpr *e = mk_expr (p, GRAFT_PY_EXPR_CONSTANT, start, end);

  e->constant.kind = GRAFT_PY_CONST_STR;
  e->constant.str = _graft_py_module_intern_fast (p->module, s, strlen (s));
  e->constant.len = strlen (s);
  return e;
}

static GraftPyExpr *
mk_subscript (Parser      *p,
              GraftPyExpr *value,
              GraftPyExpr *index,
              gsize        start,
              gsize        end)
{
  GraftPyExpr *e = mk_expr (p, GRAFT_PY_EXPR_SUBSCRIPT, start, end);

  e->subscript.value = value;
  e->subscript.slice = index;
  e->subscript.ctx = GRAFT_PY_CTX_LOAD;
  return e;
}

/* `[name := value]`: binds, and is true. */
static GraftPyExpr *
mk_bind (Parser      *p,
         const char  *name,
         GraftPyExpr *value,
         gsize        start,
         gsize        end)
{
  GraftPyExpr *named = mk_expr (p, GRAFT_PY_EXPR_NAMED_EXPR, start, end);
  GraftPyExpr *list = mk_expr (p, GRAFT_PY_EXPR_LIST, start, end);
  gpointer     items[1] = { named };

  named->named_expr.target = mk_name (p, name, start, end);
  named->named_expr.target->name.ctx = GRAFT_PY_CTX_STORE;
  named->named_expr.value = value;
  list->sequence.elts = mk_list (p, 1, items);
  list->sequence.ctx = GRAFT_PY_CTX_LOAD;
  return list;
}

/* The tests of @tests joined by @op (NULL for none: always true). */
static GraftPyExpr *
mk_bool (Parser       *p,
         GraftPyBoolOp op,
         GPtrArray    *tests,
         gsize         start,
         gsize         end)
{
  GraftPyExpr *e;

  if (tests->len == 0)
    return NULL;
  if (tests->len == 1)
    return tests->pdata[0];
  e = mk_expr (p, GRAFT_PY_EXPR_BOOL_OP, start, end);
  e->bool_op.op = op;
  e->bool_op.values = mk_list (p, tests->len, tests->pdata);
  return e;
}

/* The test of @pat over the subject @subj (an expression read again at
 * each use, with no side effect): NULL when it always matches and binds
 * nothing. */
static GraftPyExpr *
pat_test (Parser      *p,
          const Pat   *pat,
          GraftPyExpr *subj)
{
  GPtrArray *tests = pat_array (p);
  gsize      s = pat->start, e = pat->end;

  switch (pat->kind)
    {
    case PAT_WILDCARD:
      return NULL;
    case PAT_CAPTURE:
      return mk_bind (p, pat->name, subj, s, e);
    case PAT_LITERAL:
    case PAT_VALUE:
      return mk_compare (p, subj, GRAFT_PY_CMP_EQ, pat->expr, s, e);
    case PAT_SINGLETON:
      return mk_compare (p, subj, GRAFT_PY_CMP_IS, pat->expr, s, e);
    case PAT_AS:
      {
        GraftPyExpr *inner = pat_test (p, pat->items->pdata[0], subj);

        if (inner != NULL)
          g_ptr_array_add (tests, inner);
        g_ptr_array_add (tests, mk_bind (p, pat->name, subj, s, e));
        return mk_bool (p, GRAFT_PY_BOOL_AND, tests, s, e);
      }
    case PAT_OR:
      for (guint i = 0; i < pat->items->len; i++)
        {
          GraftPyExpr *alt = pat_test (p, pat->items->pdata[i], subj);

          if (alt == NULL)
            {
              GraftPyExpr *yes = mk_expr (p, GRAFT_PY_EXPR_CONSTANT, s, e);

              yes->constant.kind = GRAFT_PY_CONST_BOOL;
              yes->constant.bool_value = TRUE;
              alt = yes;
            }
          g_ptr_array_add (tests, alt);
        }
      return mk_bool (p, GRAFT_PY_BOOL_OR, tests, s, e);
    case PAT_SEQUENCE:
      {
        GraftPyExpr *types = mk_expr (p, GRAFT_PY_EXPR_TUPLE, s, e);
        gpointer     names[3] = { mk_builtin (p, "list", s, e), mk_builtin (p, "tuple", s, e),
                                  mk_builtin (p, "range", s, e) };
        guint        n = pat->items->len, star = G_MAXUINT;

        types->sequence.elts = mk_list (p, 3, names);
        types->sequence.ctx = GRAFT_PY_CTX_LOAD;
        g_ptr_array_add (tests, mk_call (p, "isinstance", subj, types, s, e));
        for (guint i = 0; i < n; i++)
          if (((Pat *) pat->items->pdata[i])->kind == PAT_STAR)
            star = i;
        g_ptr_array_add (tests,
                         mk_compare (p, mk_call (p, "len", subj, NULL, s, e),
                                     star == G_MAXUINT ? GRAFT_PY_CMP_EQ : GRAFT_PY_CMP_GT_E,
                                     mk_int (p, star == G_MAXUINT ? n : n - 1, s, e), s, e));
        for (guint i = 0; i < n; i++)
          {
            const Pat   *item = pat->items->pdata[i];
            GraftPyExpr *t;

            if (i == star)
              {
                GraftPyExpr *slice;

                if (item->name == NULL)
                  continue;
                slice = mk_expr (p, GRAFT_PY_EXPR_SLICE, item->start, item->end);
                slice->slice.lower = mk_int (p, i, item->start, item->end);
                slice->slice.upper =
                    i + 1 < n ? mk_int (p, -(gint64) (n - 1 - i), item->start, item->end) : NULL;
                t = mk_bind (p, item->name,
                             mk_call (p, "list",
                                      mk_subscript (p, subj, slice, item->start, item->end),
                                      NULL, item->start, item->end),
                             item->start, item->end);
              }
            else
              t = pat_test (p, item,
                            mk_subscript (p, subj,
                                          mk_int (p, i < star ? (gint64) i : -(gint64) (n - i),
                                                  item->start, item->end),
                                          item->start, item->end));
            if (t != NULL)
              g_ptr_array_add (tests, t);
          }
        return mk_bool (p, GRAFT_PY_BOOL_AND, tests, s, e);
      }
    case PAT_MAPPING:
      g_ptr_array_add (tests, mk_call (p, "isinstance", subj, mk_builtin (p, "dict", s, e), s, e));
      for (guint i = 0; i < pat->keys->len; i++)
        {
          GraftPyExpr *key = pat->keys->pdata[i];
          GraftPyExpr *t;

          g_ptr_array_add (tests, mk_compare (p, key, GRAFT_PY_CMP_IN, subj, s, e));
          t = pat_test (p, pat->items->pdata[i], mk_subscript (p, subj, key, s, e));
          if (t != NULL)
            g_ptr_array_add (tests, t);
        }
      if (pat->name != NULL)
        {
          /* `**rest`: {k: v for k, v in s.items() if k not in (KEYS,)} */
          GraftPyExpr          *comp = mk_expr (p, GRAFT_PY_EXPR_DICT_COMP, s, e);
          GraftPyComprehension *gen = graft_py_module_alloc (p->module, sizeof *gen);
          GraftPyExpr          *pair = mk_expr (p, GRAFT_PY_EXPR_TUPLE, s, e);
          GraftPyExpr          *keys = mk_expr (p, GRAFT_PY_EXPR_TUPLE, s, e);
          GraftPyExpr          *items = mk_expr (p, GRAFT_PY_EXPR_CALL, s, e);
          GraftPyExpr          *method = mk_expr (p, GRAFT_PY_EXPR_ATTRIBUTE, s, e);
          gpointer              names[2] = { mk_name (p, "match key", s, e),
                                             mk_name (p, "match value", s, e) };
          gpointer              cond[1];

          ((GraftPyExpr *) names[0])->name.ctx = GRAFT_PY_CTX_STORE;
          ((GraftPyExpr *) names[1])->name.ctx = GRAFT_PY_CTX_STORE;
          pair->sequence.elts = mk_list (p, 2, names);
          pair->sequence.ctx = GRAFT_PY_CTX_STORE;
          keys->sequence.elts = mk_list (p, pat->keys->len, pat->keys->pdata);
          keys->sequence.ctx = GRAFT_PY_CTX_LOAD;
          method->attribute.value = subj;
          method->attribute.attr = _graft_py_module_intern_fast (p->module, "items", 5);
          method->attribute.ctx = GRAFT_PY_CTX_LOAD;
          items->call.func = method;
          memset (gen, 0, sizeof *gen);
          gen->start = s;
          gen->end = e;
          gen->target = pair;
          gen->iter = items;
          cond[0] = mk_compare (p, mk_name (p, "match key", s, e), GRAFT_PY_CMP_NOT_IN, keys, s, e);
          gen->ifs = mk_list (p, 1, cond);
          comp->comp.elt = mk_name (p, "match key", s, e);
          comp->comp.value = mk_name (p, "match value", s, e);
          comp->comp.generators = graft_py_module_alloc (p->module, sizeof (gpointer));
          comp->comp.generators[0] = gen;
          comp->comp.n_generators = 1;
          g_ptr_array_add (tests, mk_bind (p, pat->name, comp, s, e));
        }
      return mk_bool (p, GRAFT_PY_BOOL_AND, tests, s, e);
    case PAT_CLASS:
      {
        static const char *const self_matching[] = { "bool", "bytearray", "bytes", "dict",
                                                     "float", "frozenset", "int", "list",
                                                     "set", "str", "tuple" };
        gboolean                 self = FALSE;

        g_ptr_array_add (tests, mk_call (p, "isinstance", subj, pat->expr, s, e));
        for (guint i = 0; i < G_N_ELEMENTS (self_matching); i++)
          self = self || (pat->expr->kind == GRAFT_PY_EXPR_NAME &&
                          strcmp (pat->expr->name.id, self_matching[i]) == 0);
        if (self && pat->items->len > 1)
          {
            const Pat *second = pat->items->pdata[1];

            fail_at (p, second->start, second->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                     "a builtin type's class pattern takes one positional pattern");
            return NULL;
          }
        for (guint i = 0; i < pat->items->len; i++)
          {
            const Pat   *item = pat->items->pdata[i];
            GraftPyExpr *value = subj, *t;

            /* An int(n) is the subject itself; another class's i-th is
             * the attribute its __match_args__ names. */
            if (!self)
              {
                GraftPyExpr *args = mk_expr (p, GRAFT_PY_EXPR_ATTRIBUTE, item->start, item->end);

                args->attribute.value = pat->expr;
                args->attribute.attr =
                    _graft_py_module_intern_fast (p->module, "__match_args__", 14);
                args->attribute.ctx = GRAFT_PY_CTX_LOAD;
                value = mk_call (p, "getattr", subj,
                                 mk_subscript (p, args, mk_int (p, i, item->start, item->end),
                                               item->start, item->end),
                                 item->start, item->end);
              }
            if ((t = pat_test (p, item, value)) != NULL)
              g_ptr_array_add (tests, t);
          }
        for (guint i = 0; i < pat->keys->len; i++)
          {
            const char  *attr = pat->keys->pdata[i];
            GraftPyExpr *value = mk_expr (p, GRAFT_PY_EXPR_ATTRIBUTE, s, e);
            GraftPyExpr *t;

            g_ptr_array_add (tests, mk_call (p, "hasattr", subj, mk_str (p, attr, s, e), s, e));
            value->attribute.value = subj;
            value->attribute.attr = attr;
            value->attribute.ctx = GRAFT_PY_CTX_LOAD;
            t = pat_test (p, pat->kwpats->pdata[i], value);
            if (t != NULL)
              g_ptr_array_add (tests, t);
          }
        return mk_bool (p, GRAFT_PY_BOOL_AND, tests, s, e);
      }
    case PAT_STAR:
    default:
      fail_at (p, s, e, GRAFT_PARSE_ERROR_SYNTAX, "can't use starred expression here");
      return NULL;
    }
}

/* `match SUBJECT:` and its cases, pushed as the assignment of the subject
 * and an if/elif chain (or the assignment alone, with no case that can
 * match). */
static gboolean
parse_match (Parser *p)
{
  gsize        start = p->cur.start;
  GraftPyExpr *subject, *subj;
  GraftPyStmt *assign, *head = NULL, *last = NULL;
  const char  *hidden;
  gpointer     targets[1];
  guint        line;
  const Pat   *irrefutable = NULL, *alt_pending = NULL;

  advance (p);
  subject = parse_star_expressions (p);
  if (subject == NULL)
    return FALSE;
  {
    g_autofree char *name = g_strdup_printf ("match subject@%" G_GSIZE_FORMAT, start);

    hidden = graft_py_module_intern (p->module, name, strlen (name));
  }
  subj = mk_name (p, hidden, subject->start, subject->end);
  targets[0] = mk_name (p, hidden, subject->start, subject->end);
  ((GraftPyExpr *) targets[0])->name.ctx = GRAFT_PY_CTX_STORE;
  assign = new_stmt_spanning (p, GRAFT_PY_STMT_ASSIGN, start, subject->end);
  assign->assign.targets = mk_list (p, 1, targets);
  assign->assign.value = subject;
  if (!expect (p, GRAFT_PY_TOKEN_COLON) || !expect (p, GRAFT_PY_TOKEN_NEWLINE))
    return FALSE;
  if (!at (p, GRAFT_PY_TOKEN_INDENT))
    {
      graft_source_locate (p->source, start, &line, NULL);
      fail_tok (p, "expected an indented block after 'match' statement on line %u", line);
      return FALSE;
    }
  if (!enter (p, "too many nested blocks"))
    return FALSE;
  advance (p);
  push (p, assign);
  while (!at (p, GRAFT_PY_TOKEN_DEDENT) && !at (p, GRAFT_PY_TOKEN_ENDMARKER))
    {
      gsize        case_start = p->cur.start;
      GPtrArray   *tests = pat_array (p);
      GPtrArray   *items;
      Pat         *pat;
      GraftPyExpr *test, *guard = NULL;
      GraftPyStmt *s;

      if (!at (p, GRAFT_PY_TOKEN_NAME) || p->cur.end - p->cur.start != 4 ||
          memcmp (p->text + p->cur.start, "case", 4) != 0)
        {
          fail_tok (p, "invalid syntax: expected 'case'");
          return FALSE;
        }
      advance (p);
      items = pat_array (p);
      p->alt_deferred = NULL;
      if (!parse_sequence_items (p, 0, p->cur.start, items))
        return FALSE;
      if (items->len == 1 && p->prev_kind != GRAFT_PY_TOKEN_COMMA &&
          ((Pat *) items->pdata[0])->kind != PAT_STAR)
        pat = items->pdata[0];
      else
        {
          pat = pat_new (p, PAT_SEQUENCE,
                         items->len > 0 ? ((Pat *) items->pdata[0])->start : p->cur.start);
          pat->items = items;
        }
      if (irrefutable != NULL)
        {
          fail_unreachable (p, irrefutable);
          return FALSE;
        }
      {
        g_autoptr (GHashTable) bound = g_hash_table_new (g_str_hash, g_str_equal);

        if (!check_bindings (p, pat, bound))
          return FALSE;
      }
      {
        /* An or-pattern whose names differ: Python's error now unless it
         * is the case's own pattern and the case turns out not last. */
        const Pat *top = pat;

        while (top->kind == PAT_AS && top->items != NULL && top->items->len > 0)
          top = top->items->pdata[0];
        if (p->alt_deferred != NULL && p->alt_deferred != top &&
            !check_alternatives (p, p->alt_deferred))
          return FALSE;
        alt_pending = p->alt_deferred == top ? top : NULL;
        p->alt_deferred = NULL;
      }
      if (accept (p, GRAFT_PY_TOKEN_KW_IF))
        {
          guard = parse_named_expression (p);
          if (guard == NULL)
            return FALSE;
          if (alt_pending != NULL && !check_alternatives (p, alt_pending))
            return FALSE;
        }
      else
        irrefutable = pat_irrefutable (pat);
      test = pat_test (p, pat, subj);
      if (p->error != NULL)
        return FALSE;
      if (test != NULL)
        g_ptr_array_add (tests, test);
      if (guard != NULL)
        g_ptr_array_add (tests, guard);
      test = mk_bool (p, GRAFT_PY_BOOL_AND, tests, pat->start, pat->end);
      if (test == NULL)
        {
          test = mk_expr (p, GRAFT_PY_EXPR_CONSTANT, pat->start, pat->end);
          test->constant.kind = GRAFT_PY_CONST_BOOL;
          test->constant.bool_value = TRUE;
        }
      s = new_stmt_spanning (p, GRAFT_PY_STMT_IF, case_start, case_start);
      s->if_stmt.test = test;
      if (!parse_block (p, "'case' statement", case_start, &s->if_stmt.body))
        return FALSE;
      s->end = p->stmt_end;
      if (last == NULL)
        head = s;
      else
        {
          last->if_stmt.orelse.items = graft_py_module_alloc (p->module, sizeof (GraftPyStmt *));
          last->if_stmt.orelse.items[0] = s;
          last->if_stmt.orelse.len = 1;
        }
      last = s;
    }
  /* The last case: its alternatives' names are compared. */
  if (alt_pending != NULL && !check_alternatives (p, alt_pending))
    return FALSE;
  if (!expect (p, GRAFT_PY_TOKEN_DEDENT))
    return FALSE;
  leave (p);
  if (head == NULL)
    {
      fail_at (p, start, p->prev_end, GRAFT_PARSE_ERROR_SYNTAX, "expected 'case'");
      return FALSE;
    }
  push (p, head);
  return TRUE;
}

/* Whether simple statement lines may take the fast path (tests compare
 * both ways), and how many lines it has read, added up as each parser is
 * freed. */
static gint fast_lines = TRUE;
static gint fast_lines_read;

/**
 * _graft_py_parser_set_fast_lines:
 *
 * Turns the fast path for simple statement lines on or off, for tests
 * that compare its trees with the usual way's.  Not thread-safe.
 */
void
_graft_py_parser_set_fast_lines (gboolean enabled)
{
  g_atomic_int_set (&fast_lines, enabled);
}

/**
 * _graft_py_parser_get_fast_lines_read:
 *
 * Returns: how many lines the fast path has read in this process, in
 *   parses that have finished, for tests
 */
guint
_graft_py_parser_get_fast_lines_read (void)
{
  return g_atomic_int_get (&fast_lines_read);
}

/* At the start of a statement: reads its line by
 * _graft_py_fast_line() and moves past its NEWLINE, as
 * parse_simple_statements() would (but for pushing the statement), or
 * returns %NULL having read nothing. */
static inline __attribute__ ((always_inline)) GraftPyStmt *
read_fast_line (Parser *p)
{
  GraftPyLexer *lex = &p->main_lexer;
  GraftPyStmt  *s;
  gsize         newline;
  /* The lookahead is the name read after the last fast line: the lexer
   * has not moved since. */
  gboolean chained = p->cur.start == p->fast_name_start;

  if (!g_atomic_int_get (&fast_lines) || p->lex != lex || p->n_stmts >= GRAFT_MAX_STATEMENTS ||
      p->depth >= GRAFT_MAX_PARSE_DEPTH)
    return NULL;
  s = _graft_py_fast_line (p->module, p->text, lex->end, p->cur.start,
                           chained ? p->cur.end : 0, GRAFT_MAX_PARSE_DEPTH - p->depth, &newline);
  if (s == NULL)
    return NULL;
  p->n_stmts++;
  p->n_fast_lines++;
  p->stmt_end = s->end;

  /* As advance() from that NEWLINE: most next lines start with a name
   * at the block's indentation, read here without the lexer's call. */
  p->prev_kind = GRAFT_PY_TOKEN_NEWLINE;
  p->prev_end = newline + 1;
  if (_graft_py_lexer_next_line_name (lex, newline + 1, chained, &p->cur))
    {
      p->fast_name_start = p->cur.start;
      return s;
    }
  /* The lexer as its fast path leaves it after a NEWLINE, and that
   * NEWLINE the lookahead. */
  _graft_py_lexer_set_line_start (lex, newline + 1);
  p->cur.kind = GRAFT_PY_TOKEN_NEWLINE;
  p->cur.flags = 0;
  p->cur.start = newline;
  p->cur.end = newline + 1;
  advance (p);
  return s;
}

/* Whether the statement at a NAME may be a `match` statement. */
static inline gboolean
may_be_match (Parser *p)
{
  return p->cur.end - p->cur.start == 5 && p->text[p->cur.start] == 'm';
}

/* read_fast_line(), the statement pushed. */
static gboolean
parse_fast_line (Parser *p)
{
  GraftPyStmt *s = read_fast_line (p);

  if (s == NULL)
    return FALSE;
  push (p, s);
  return TRUE;
}

static gboolean
parse_statement (Parser *p)
{
  GraftPyStmt *s;

  switch ((int) p->cur.kind)
    {
    case GRAFT_PY_TOKEN_KW_IF:
      s = parse_if (p);
      break;
    case GRAFT_PY_TOKEN_KW_WHILE:
      s = parse_while (p);
      break;
    case GRAFT_PY_TOKEN_KW_FOR:
      s = parse_for (p, p->cur.start, FALSE);
      break;
    case GRAFT_PY_TOKEN_KW_TRY:
      s = parse_try (p);
      break;
    case GRAFT_PY_TOKEN_KW_WITH:
      s = parse_with (p, p->cur.start, FALSE);
      break;
    case GRAFT_PY_TOKEN_KW_DEF:
    case GRAFT_PY_TOKEN_KW_CLASS:
    case GRAFT_PY_TOKEN_KW_ASYNC:
    case GRAFT_PY_TOKEN_AT:
      s = parse_definition (p);
      break;
    case GRAFT_PY_TOKEN_INDENT:
      fail_tok (p, "unexpected indent");
      return FALSE;
    case GRAFT_PY_TOKEN_KW_ELSE:
    case GRAFT_PY_TOKEN_KW_ELIF:
    case GRAFT_PY_TOKEN_KW_EXCEPT:
    case GRAFT_PY_TOKEN_KW_FINALLY:
      fail_tok (p, "invalid syntax: '%s' does not follow a matching statement",
                graft_py_token_kind_get_name (p->cur.kind));
      return FALSE;
    case GRAFT_PY_TOKEN_NAME:
      if (may_be_match (p) && is_match_statement (p))
        return parse_match (p);
      if (parse_fast_line (p))
        return TRUE;
      return parse_simple_statements (p);
    default:
      return parse_simple_statements (p);
    }
  if (s == NULL)
    return FALSE;
  push (p, s);
  return TRUE;
}

/* A generic error far from an unclosed bracket is usually caused by it:
 * `foo(a, b` followed by more lines.  If the rest of the file shows the
 * bracket is never closed, say that instead. */
static void
prefer_unclosed_bracket (Parser *p)
{
  GraftPyLexer *lex = &p->main_lexer;
  GraftPyToken  tok;
  GError       *lex_error = NULL;
  guint         error_line, bracket_line, lex_line, lex_column, column;
  gsize         bracket;

  if (p->error_from_lexer || p->cur.kind == GRAFT_PY_TOKEN_ERROR ||
      !g_error_matches (p->error, GRAFT_PARSE_ERROR, GRAFT_PARSE_ERROR_SYNTAX) ||
      graft_py_lexer_get_bracket_depth (lex) == 0 ||
      !graft_error_get_location (p->error, NULL, &error_line, NULL, NULL, NULL))
    return;
  bracket = graft_py_lexer_get_innermost_bracket (lex);
  graft_source_locate (p->source, bracket, &bracket_line, NULL);
  if (error_line <= bracket_line)
    return;

  while (graft_py_lexer_next (lex, &tok, &lex_error))
    if (tok.kind == GRAFT_PY_TOKEN_ENDMARKER)
      return;

  /* Only an unclosed bracket replaces the parser's error. */
  if (graft_py_lexer_get_bracket_depth (lex) > 0 &&
      graft_error_get_location (lex_error, NULL, &lex_line, &lex_column, NULL, NULL))
    {
      graft_source_locate (p->source, graft_py_lexer_get_innermost_bracket (lex), &bracket_line,
                           &column);
      if (lex_line == bracket_line && lex_column == column)
        {
          g_clear_error (&p->error);
          p->error = g_steal_pointer (&lex_error);
        }
    }
  g_clear_error (&lex_error);
}

static Parser *
parser_new (GraftSource   *source,
            GraftPyModule *module)
{
  Parser *p = g_new0 (Parser, 1);

  p->source = source;
  p->text = graft_source_get_text (source);
  p->module = module;
  p->scratch = g_new0 (Stack, 1);
  p->keywords = g_new0 (Stack, 1);
  p->ops = g_array_new (FALSE, FALSE, sizeof (GraftPyCmpOp));
  p->buf = g_string_new (NULL);
  p->neg_operand = G_MAXSIZE;
  p->fast_name_start = G_MAXSIZE;
  p->lex = &p->main_lexer;
  return p;
}

static void
parser_free (Parser *p)
{
  if (p->n_fast_lines > 0)
    g_atomic_int_add (&fast_lines_read, p->n_fast_lines);
  g_free (p->scratch->pdata);
  g_free (p->scratch);
  g_free (p->keywords->pdata);
  g_free (p->keywords);
  g_array_unref (p->ops);
  g_string_free (p->buf, TRUE);
  g_clear_error (&p->lex_error);
  g_clear_error (&p->error);
  g_clear_pointer (&p->match_arrays, g_ptr_array_unref);
  g_free (p);
}

static GraftPyModule *
parse_module (GraftSource *source,
              gboolean     defer,
              const char  *defer_class,
              GError     **error)
{
  g_autoptr (GraftPyModule) module = NULL;
  Parser *p;

  module = graft_py_module_new (source);
  p = parser_new (source, module);
  p->defer = defer;
  p->defer_class = defer_class;
  graft_py_lexer_init (&p->main_lexer, source);
  p->cur.kind = GRAFT_PY_TOKEN_NEWLINE;
  advance (p);

  while (!at (p, GRAFT_PY_TOKEN_ENDMARKER))
    {
      if (!parse_statement (p) || p->error != NULL)
        {
          /* Every failing path sets an error; make sure of it anyway. */
          if (p->error == NULL)
            fail_tok (p, "invalid syntax");
          break;
        }
    }
  if (p->error == NULL)
    graft_py_module_set_body (module, finish_stmts (p, 0));
  else
    prefer_unclosed_bracket (p);
  if (p->deferred != NULL)
    p->deferred->n_stmts = p->n_stmts;

  if (p->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&p->error));
      parser_free (p);
      return NULL;
    }
  parser_free (p);
  return g_steal_pointer (&module);
}

/**
 * graft_py_parse:
 * @source: the Python source
 * @error: return location for a #GRAFT_PARSE_ERROR located in @source
 *
 * Parses a whole module.  Errors are SYNTAX for invalid Python, LIMIT when
 * nesting exceeds %GRAFT_MAX_PARSE_DEPTH or a name %GRAFT_MAX_NAME_LENGTH,
 * and UNSUPPORTED for valid Python the tree cannot hold (integers beyond
 * 64 bits, `\N{...}` escapes, `match` statements).
 *
 * Returns: (transfer full) (nullable): the module, or %NULL with @error set
 */
GraftPyModule *
graft_py_parse (GraftSource *source,
                GError     **error)
{
  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return parse_module (source, FALSE, NULL, error);
}

/**
 * graft_py_parse_deferring:
 * @source: the Python source
 * @entry_class: (nullable): the class whose forward to leave unread, or
 *   %NULL for the first class that defines one
 * @error: return location for a #GRAFT_PARSE_ERROR located in @source
 *
 * Parses a whole module as graft_py_parse() does, except the body of one
 * `def forward` directly in a top-level class: its FunctionDef has an
 * empty body and a `deferred` record, and the body is read later, one
 * statement at a time by a #GraftPyBodyStream or all at once by
 * graft_py_module_read_body().  That body's syntax is unchecked until
 * then: an error in it is reported by whoever reads it, and only an error
 * elsewhere by this function (which is then not necessarily the first of
 * the file).
 *
 * Returns: (transfer full) (nullable): the module, or %NULL with @error set
 */
GraftPyModule *
graft_py_parse_deferring (GraftSource *source,
                          const char  *entry_class,
                          GError     **error)
{
  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return parse_module (source, TRUE, entry_class, error);
}

/**
 * GraftPyBodyStream:
 *
 * Reads a deferred function body one statement (one line of simple
 * statements, or one compound statement) at a time.  In transient mode
 * each statement's nodes are freed when the next one is read, so that a
 * long straight-line body never has more than one statement's tree; the
 * names and strings stay in the module.
 */
struct _GraftPyBodyStream
{
  /* Owned */
  Parser *p;

  /* Borrowed */
  GraftPyDeferredBody *body;
  gboolean             transient;
  gboolean             done;
  GraftPyStmt         *one; /* the items of a list of one statement given out */
};

/**
 * graft_py_body_stream_new:
 * @module: the module of @def
 * @def: a FunctionDef whose body graft_py_parse_deferring() left unread
 * @transient: whether each statement's nodes live only until the next
 *   call of graft_py_body_stream_next()
 *
 * Returns: (transfer full): a stream at the body's first statement
 */
GraftPyBodyStream *
graft_py_body_stream_new (GraftPyModule     *module,
                          const GraftPyStmt *def,
                          gboolean           transient)
{
  GraftPyBodyStream   *self;
  GraftPyDeferredBody *body;
  Parser              *p;

  g_return_val_if_fail (module != NULL, NULL);
  g_return_val_if_fail (def != NULL && def->kind == GRAFT_PY_STMT_FUNCTION_DEF, NULL);
  g_return_val_if_fail (def->function_def.deferred != NULL, NULL);

  body = def->function_def.deferred;
  self = g_new0 (GraftPyBodyStream, 1);
  self->body = body;
  self->transient = transient;
  self->p = p = parser_new (graft_py_module_get_source (module), module);
  p->main_lexer = body->lexer;
  p->cur = body->indent;
  p->prev_kind = body->prev_kind;
  p->prev_end = body->prev_end;
  p->depth = body->depth;
  p->n_stmts = body->n_stmts;
  set_private_class (p, body->private_class, body->private_class_len);
  /* As parse_block() does at the INDENT. */
  if (enter (p, "too many nested blocks"))
    advance (p);
  if (transient)
    graft_py_module_begin_transient (module);
  return self;
}

/**
 * graft_py_body_stream_next:
 * @out_stmts: (out): the statements read: one compound statement, or the
 *   simple statements of one line
 * @error: return location for a #GRAFT_PARSE_ERROR located in the source
 *
 * Reads the next statement of the body.  In transient mode, the nodes of
 * the statements given by the previous call are freed first.
 *
 * Returns: %TRUE with @out_stmts set; %FALSE at the end of the body, or
 *   with @error set on a syntax error (after which the stream stays
 *   failed)
 */
gboolean
graft_py_body_stream_next (GraftPyBodyStream *self,
                           GraftPyStmtList   *out_stmts,
                           GError           **error)
{
  Parser *p;

  g_return_val_if_fail (self != NULL, FALSE);

  p = self->p;
  if (self->transient)
    _graft_py_module_release_transient_fast (p->module);
  if (self->done)
    return FALSE;
  if (p->error == NULL && !at (p, GRAFT_PY_TOKEN_DEDENT) && !at (p, GRAFT_PY_TOKEN_ENDMARKER))
    {
      guint    base = p->scratch->len;
      gboolean read;

      /* parse_statement() at a NAME, the fast line's statement handed out
       * without the scratch stack. */
      if (at (p, GRAFT_PY_TOKEN_NAME) && !may_be_match (p))
        {
          GraftPyStmt *s = read_fast_line (p);

          if (s != NULL)
            {
              self->one = s;
              out_stmts->items = &self->one;
              out_stmts->len = 1;
              return TRUE;
            }
          read = parse_simple_statements (p);
        }
      else
        read = parse_statement (p);
      if (read && p->error == NULL)
        {
          /* Most lines are one statement: no list in the arena for it. */
          if (p->scratch->len == base + 1)
            {
              self->one = p->scratch->pdata[base];
              p->scratch->len = base;
              out_stmts->items = &self->one;
              out_stmts->len = 1;
            }
          else
            *out_stmts = finish_stmts (p, base);
          return TRUE;
        }
      if (p->error == NULL)
        fail_tok (p, "invalid syntax");
    }
  self->done = TRUE;
  if (p->error == NULL && at (p, GRAFT_PY_TOKEN_DEDENT) &&
      (p->cur.start != self->body->close.start || p->cur.end != self->body->close.end))
    fail_at (p, p->cur.start, p->cur.end, GRAFT_PARSE_ERROR_SYNTAX,
             "the function body ends elsewhere than where it was skipped");
  if (p->error == NULL && expect (p, GRAFT_PY_TOKEN_DEDENT))
    {
      leave (p);
      /* graft_py_parse_deferring() found the same end, so the rest of
       * the file was read from the right place, and the def's span is
       * right. */
      if (p->stmt_end != self->body->end)
        fail_at (p, p->stmt_end, p->stmt_end, GRAFT_PARSE_ERROR_SYNTAX,
                 "the function body ends elsewhere than where it was skipped");
    }
  if (p->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&p->error));
      return FALSE;
    }
  return FALSE;
}

/**
 * graft_py_body_stream_get_n_statements:
 *
 * Returns: the statements of the module so far, those of the body read
 *   so far included (against %GRAFT_MAX_STATEMENTS)
 */
guint
graft_py_body_stream_get_n_statements (GraftPyBodyStream *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->p->n_stmts;
}

void
graft_py_body_stream_free (GraftPyBodyStream *self)
{
  if (self == NULL)
    return;
  if (self->transient)
    graft_py_module_end_transient (self->p->module);
  parser_free (self->p);
  g_free (self);
}

/**
 * graft_py_module_read_body:
 * @module: the module of @def
 * @def: a FunctionDef of @module
 * @error: return location for a #GRAFT_PARSE_ERROR located in the source
 *
 * Reads the whole body of @def if graft_py_parse_deferring() left it
 * unread; the body then lives as long as @module, as any other.
 *
 * Returns: %FALSE with @error set on a syntax error in the body
 */
gboolean
graft_py_module_read_body (GraftPyModule *module,
                           GraftPyStmt   *def,
                           GError       **error)
{
  g_autoptr (GraftPyBodyStream) stream = NULL;
  g_autoptr (GPtrArray) stmts = NULL;
  GraftPyStmtList list;
  GError         *local_error = NULL;

  g_return_val_if_fail (module != NULL, FALSE);
  g_return_val_if_fail (def != NULL && def->kind == GRAFT_PY_STMT_FUNCTION_DEF, FALSE);

  if (def->function_def.deferred == NULL)
    return TRUE;
  stream = graft_py_body_stream_new (module, def, FALSE);
  stmts = g_ptr_array_new ();
  while (graft_py_body_stream_next (stream, &list, &local_error))
    for (guint i = 0; i < list.len; i++)
      g_ptr_array_add (stmts, list.items[i]);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  def->function_def.body.len = stmts->len;
  def->function_def.body.items = graft_py_module_alloc (module, stmts->len * sizeof (gpointer));
  if (stmts->len > 0)
    memcpy (def->function_def.body.items, stmts->pdata, stmts->len * sizeof (gpointer));
  def->function_def.deferred = NULL;
  return TRUE;
}
