/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-eval.c: frames and expressions.  A Frame is one running
 * function's (or the module's, or a class body's) variables; a name is
 * looked up as Python's compiler would resolve it (a function's own locals,
 * then enclosing functions, then globals, then builtins).  An expression
 * evaluates to a value: a constant folds, an operation on a proxy records a
 * node (through graft-tracer-ops.c and graft-tracer-call.c).  Comprehensions
 * and lambdas get scopes of their own, as in Python 3.
 */
#include "config.h"

#include "graft-tracer-private.h"
#include "graft-error.h"
#include "graft-limits.h"
#include "graft-py-lexer.h"
#include "graft-source.h"

#include <string.h>

/* Frames ---------------------------------------------------------------- */

Frame *
_graft_tracer_frame_new (Tracer *t,
                         Frame  *parent,
                         Frame  *globals)
{
  Frame *frame = _graft_tracer_alloc (t, sizeof (Frame));

  _graft_strmap_init (t, &frame->vars);
  frame->parent = parent;
  frame->globals = globals != NULL ? globals : frame;
  return frame;
}

/* The set collect_locals() fills, with the names added last by address
 * in front of it: a long body assigns the same few variables over and over
 * (and the parser shares the string of a name read again).
 *
 * A body read statement by statement (_graft_tracer_locals_begin()) keeps
 * a log instead, which costs a pointer per name where a set costs a hash
 * and a node: it is made a set only if asked (most traces never ask). */
struct _Locals
{
  GHashTable *names;   /* the set, or NULL while logging */
  PtrVec     *log;     /* const char *: a name added, or NULL then the name removed */
  Function   *fn;      /* whose body, when logging */
  guint       n_asked; /* _graft_tracer_locals_has() calls while logging */
  /* A bit for the first byte of each name in the log (log_bit()): a name
   * whose bit is clear is not there, and its search reads nothing (a
   * streamed body's log holds a name a line; `torch` is asked for). */
  guint64 log_firsts;
  /* The names a `global` or `nonlocal` declared, never local after it;
   * NULL while there is none. */
  GHashTable *declared;
  const char *recent[64];
};

static void collect_locals (Tracer *t, Locals *names, const GraftPyStmtList *body);

/* The bit of Locals.log_firsts for @name. */
static inline guint64
log_bit (const char *name)
{
  return G_GUINT64_CONSTANT (1) << ((guchar) name[0] & 63);
}

static void
add_local (Locals     *l,
           const char *name)
{
  guint r = (guint) (GPOINTER_TO_SIZE (name) >> 3) % G_N_ELEMENTS (l->recent);

  if (l->recent[r] == name)
    return;
  if (G_UNLIKELY (l->declared != NULL) && g_hash_table_contains (l->declared, name))
    return;
  if (l->names != NULL)
    g_hash_table_add (l->names, (gpointer) name);
  else
    {
      _graft_vec_add (l->log, (gpointer) name);
      l->log_firsts |= log_bit (name);
    }
  l->recent[r] = name;
}

static void
remove_local (Locals     *l,
              const char *name)
{
  if (l->names != NULL)
    g_hash_table_remove (l->names, name);
  else
    {
      _graft_vec_add (l->log, NULL);
      _graft_vec_add (l->log, (gpointer) name);
      l->log_firsts |= log_bit (name);
    }
}

static void
collect_target (Locals            *names,
                const GraftPyExpr *e)
{
  if (e == NULL)
    return;
  if (e->kind == GRAFT_PY_EXPR_NAME)
    add_local (names, e->name.id);
  else if (e->kind == GRAFT_PY_EXPR_TUPLE || e->kind == GRAFT_PY_EXPR_LIST)
    for (guint i = 0; i < e->sequence.elts.len; i++)
      collect_target (names, e->sequence.elts.items[i]);
  else if (e->kind == GRAFT_PY_EXPR_STARRED)
    collect_target (names, e->starred.value);
}

/* The names a function body binds, as Python's compiler finds them:
 * assignment targets, loop and with targets, imports, nested defs and
 * classes, deleted names, exception names; not inside nested functions,
 * classes or comprehensions. */
static void
collect_locals (Tracer                *t,
                Locals                *names,
                const GraftPyStmtList *body)
{
  for (guint i = 0; i < body->len; i++)
    {
      const GraftPyStmt *s = body->items[i];

      switch (s->kind)
        {
        case GRAFT_PY_STMT_ASSIGN:
          for (guint k = 0; k < s->assign.targets.len; k++)
            collect_target (names, s->assign.targets.items[k]);
          break;
        case GRAFT_PY_STMT_AUG_ASSIGN:
          collect_target (names, s->aug_assign.target);
          break;
        case GRAFT_PY_STMT_ANN_ASSIGN:
          collect_target (names, s->ann_assign.target);
          break;
        case GRAFT_PY_STMT_DELETE:
          for (guint k = 0; k < s->delete_stmt.targets.len; k++)
            collect_target (names, s->delete_stmt.targets.items[k]);
          break;
        case GRAFT_PY_STMT_IF:
          collect_locals (t, names, &s->if_stmt.body);
          collect_locals (t, names, &s->if_stmt.orelse);
          break;
        case GRAFT_PY_STMT_FOR:
          collect_target (names, s->for_stmt.target);
          collect_locals (t, names, &s->for_stmt.body);
          collect_locals (t, names, &s->for_stmt.orelse);
          break;
        case GRAFT_PY_STMT_WHILE:
          collect_locals (t, names, &s->while_stmt.body);
          collect_locals (t, names, &s->while_stmt.orelse);
          break;
        case GRAFT_PY_STMT_WITH:
          for (guint k = 0; k < s->with_stmt.n_items; k++)
            collect_target (names, s->with_stmt.items[k]->optional_vars);
          collect_locals (t, names, &s->with_stmt.body);
          break;
        case GRAFT_PY_STMT_TRY:
          collect_locals (t, names, &s->try_stmt.body);
          for (guint k = 0; k < s->try_stmt.n_handlers; k++)
            {
              if (s->try_stmt.handlers[k]->name != NULL)
                add_local (names, s->try_stmt.handlers[k]->name);
              collect_locals (t, names, &s->try_stmt.handlers[k]->body);
            }
          collect_locals (t, names, &s->try_stmt.orelse);
          collect_locals (t, names, &s->try_stmt.finalbody);
          break;
        case GRAFT_PY_STMT_IMPORT:
          for (guint k = 0; k < s->import.n_names; k++)
            {
              const GraftPyAlias *a = s->import.names[k];

              if (a->asname != NULL)
                add_local (names, a->asname);
              else
                add_local (names, _graft_tracer_strdup (t, a->name,
                                                        strcspn (a->name, ".")));
            }
          break;
        case GRAFT_PY_STMT_IMPORT_FROM:
          for (guint k = 0; k < s->import_from.n_names; k++)
            {
              const GraftPyAlias *a = s->import_from.names[k];

              add_local (names, (a->asname != NULL ? a->asname : a->name));
            }
          break;
        case GRAFT_PY_STMT_FUNCTION_DEF:
          add_local (names, graft_py_stmt_get_bound_name (s));
          break;
        case GRAFT_PY_STMT_CLASS_DEF:
          add_local (names, graft_py_stmt_get_bound_name (s));
          break;
        case GRAFT_PY_STMT_GLOBAL:
        case GRAFT_PY_STMT_NONLOCAL:
          if (names->declared == NULL)
            {
              names->declared = g_hash_table_new (g_str_hash, g_str_equal);
              g_ptr_array_add (t->hash_tables, names->declared);
            }
          for (guint k = 0; k < s->names.n_names; k++)
            {
              remove_local (names, s->names.names[k]);
              g_hash_table_add (names->declared, (gpointer) s->names.names[k]);
            }
          /* A name added again must go back in the set. */
          memset (names->recent, 0, sizeof names->recent);
          break;
        case GRAFT_PY_STMT_EXPR:
        case GRAFT_PY_STMT_RETURN:
        case GRAFT_PY_STMT_PASS:
        case GRAFT_PY_STMT_BREAK:
        case GRAFT_PY_STMT_CONTINUE:
        case GRAFT_PY_STMT_ASSERT:
        case GRAFT_PY_STMT_RAISE:
        default:
          break;
        }
    }
}

/* The set of a log: its additions and removals in order. */
static GHashTable *
replay_log (Tracer *t,
            PtrVec *log)
{
  GHashTable *set = g_hash_table_new (g_str_hash, g_str_equal);

  g_ptr_array_add (t->hash_tables, set);
  for (guint i = 0; i < log->len; i++)
    {
      const char *name = log->pdata[i];

      if (name != NULL)
        g_hash_table_add (set, (gpointer) name);
      else if (++i < log->len)
        g_hash_table_remove (set, log->pdata[i]);
    }
  return set;
}

/* Whether @name is a local variable of @fn (bound anywhere in its body). */
static gboolean
is_local_of (Tracer     *t,
             Function   *fn,
             const char *name)
{
  guint r = (guint) ((GPOINTER_TO_SIZE (fn) >> 4) ^ (GPOINTER_TO_SIZE (name) >> 3)) %
            G_N_ELEMENTS (t->local_recent);
  gboolean local;

  if (fn->def == NULL)
    return FALSE;
  /* A function's locals never change once collected, and the names asked
   * about are the syntax tree's: the answer is kept by their addresses. */
  if (t->local_recent[r].fn == fn && t->local_recent[r].name == name)
    return t->local_recent[r].local;
  if (fn->locals == NULL && fn->locals_log != NULL)
    {
      /* A body read as it was traced: its log becomes the set, and a
       * collection still going on adds to the set from now on. */
      fn->locals = replay_log (t, fn->locals_log->log);
      fn->locals_log->names = fn->locals;
    }
  if (fn->locals == NULL && !_graft_tracer_read_body (t, fn->def))
    return FALSE;
  if (fn->locals == NULL)
    {
      /* Keys are the AST's strings, or the arena's for `import a.b`. */
      Locals locals = { 0 };

      fn->locals = g_hash_table_new (g_str_hash, g_str_equal);
      g_ptr_array_add (t->hash_tables, fn->locals);
      locals.names = fn->locals;
      collect_locals (t, &locals, &fn->def->function_def.body);
    }
  local = g_hash_table_contains (fn->locals, name);
  t->local_recent[r].fn = fn;
  t->local_recent[r].name = name;
  t->local_recent[r].local = local;
  return local;
}

/* The frame a `nonlocal NAME` of @frame binds in: the nearest enclosing
 * function's scope that binds @name (or that a `nonlocal` of its own sent
 * elsewhere), never a class body's or the module's; %NULL for none. */
static Frame *
nonlocal_frame (Tracer     *t,
                Frame      *frame,
                const char *name)
{
  for (Frame *s = frame->parent; s != NULL && s->fn != NULL && s != s->globals; s = s->parent)
    {
      Frame *to = s->declared != NULL ? g_hash_table_lookup (s->declared, name) : NULL;

      if (to != NULL)
        return to != s->globals ? to : NULL;
      if (_graft_strmap_get (&s->vars, name) != NULL || is_local_of (t, s->fn, name))
        return s;
    }
  return NULL;
}

/* The spans of the bodies of the defs and classes nested in @body (not
 * in theirs): their own scopes, whose names are not the function's. */
static void
nested_scopes (const GraftPyStmtList *body,
               GArray                *spans)
{
  for (guint i = 0; i < body->len; i++)
    {
      const GraftPyStmt *s = body->items[i];

      if (s->kind == GRAFT_PY_STMT_FUNCTION_DEF || s->kind == GRAFT_PY_STMT_CLASS_DEF)
        {
          const GraftPyStmtList *inner = s->kind == GRAFT_PY_STMT_FUNCTION_DEF
                                             ? &s->function_def.body
                                             : &s->class_def.body;
          gsize                  span[2];

          if (inner->len == 0)
            continue;
          span[0] = inner->items[0]->start;
          span[1] = s->end;
          g_array_append_vals (spans, span, 2);
        }
      else if (s->kind == GRAFT_PY_STMT_IF)
        {
          nested_scopes (&s->if_stmt.body, spans);
          nested_scopes (&s->if_stmt.orelse, spans);
        }
      else if (s->kind == GRAFT_PY_STMT_FOR)
        {
          nested_scopes (&s->for_stmt.body, spans);
          nested_scopes (&s->for_stmt.orelse, spans);
        }
      else if (s->kind == GRAFT_PY_STMT_WHILE)
        {
          nested_scopes (&s->while_stmt.body, spans);
          nested_scopes (&s->while_stmt.orelse, spans);
        }
      else if (s->kind == GRAFT_PY_STMT_WITH)
        nested_scopes (&s->with_stmt.body, spans);
      else if (s->kind == GRAFT_PY_STMT_TRY)
        {
          nested_scopes (&s->try_stmt.body, spans);
          for (guint k = 0; k < s->try_stmt.n_handlers; k++)
            nested_scopes (&s->try_stmt.handlers[k]->body, spans);
          nested_scopes (&s->try_stmt.orelse, spans);
          nested_scopes (&s->try_stmt.finalbody, spans);
        }
    }
}

/* What a bracket of prior_use() holds, as far as its comprehension goes. */
enum {
  BRACKET_PLAIN,        /* no `for` yet: a display, a call, a comprehension's element */
  BRACKET_FIRST_TARGET, /* the first `for`'s target */
  BRACKET_FIRST_ITER,   /* the first iterable: the enclosing scope's */
  BRACKET_INNER,        /* the rest: the comprehension's own */
};

#define PRIOR_DEPTHS 32

/* Whether a use of the name at bracket depth @d is the function's own,
 * as far as the text read so far tells: a use in a bracket with no
 * `for` yet is noted there (@tentative) until its bracket closes or a
 * `for` makes it a comprehension's. */
static gboolean
use_is_own (const guint8 *state,
            gboolean     *tentative,
            guint         d)
{
  for (;; d--)
    {
      if (d == 0 || d >= PRIOR_DEPTHS)
        return TRUE;
      if (state[d] == BRACKET_PLAIN)
        {
          tentative[d] = TRUE;
          return FALSE;
        }
      if (state[d] != BRACKET_FIRST_ITER)
        return FALSE;
    }
}

/* Python's SyntaxError for a `global` or `nonlocal` (@global) statement
 * @s whose @name the function used before (@prior, from prior_use()).
 *
 * Returns: %FALSE, the error set */
static gboolean
prior_use_error (Tracer            *t,
                 const GraftPyStmt *s,
                 const char        *name,
                 const char        *prior,
                 gboolean           global)
{
  const char *what = global ? "global" : "nonlocal";

  if (strcmp (prior, "is parameter and") == 0)
    _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_SYNTAX,
                        "name '%s' is parameter and %s", name, what);
  else if (strcmp (prior, "annotated") == 0)
    _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_SYNTAX,
                        "annotated name '%s' can't be %s", name, what);
  else
    _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_SYNTAX,
                        "name '%s' %s %s declaration", name, prior, what);
  return FALSE;
}

/* How @fn's text before @before names @name, as Python's compiler sees it
 * at a `global` or `nonlocal` there: "is parameter and", "is used prior
 * to", "annotated" (a statement `k: T` and no use), "is assigned to
 * before", or %NULL.  By the tokens: a name after a dot is an attribute;
 * one followed by `=` (or an augmented `=`, `:=`), a `for`'s target, a
 * `with`'s or `except`'s `as`, a `del`'s, a case pattern's capture (not
 * before `.` or `(`), a nested def's or class's name is assigned; a keyword argument's name and an
 * import's are neither; in the def's parentheses after `(`, `,`, `*` or
 * `**`, a parameter (a default's or an annotation's names are the
 * enclosing scope's).  The bodies of nested defs, classes and lambdas and
 * a comprehension's names past its first iterable are their own scopes'
 * (a lambda's defaults are the function's). */
static const char *
prior_use (Tracer     *t,
           Function   *fn,
           const char *name,
           guint32     before)
{
  const char  *text = graft_source_get_text (t->source);
  gsize        len = strlen (name);
  GraftPyLexer lex;
  GraftPyToken tok, prev = { 0 }, last_name = { 0 };
  gboolean     header = TRUE, assigned = FALSE, pending = FALSE, target = FALSE;
  gboolean     in_import = FALSE, in_del = FALSE, for_target = FALSE;
  gboolean     lambda_body = FALSE, lambda_default = FALSE;
  gboolean     annotated = FALSE, pending_annotation = FALSE;
  gboolean     in_case = FALSE, pending_capture = FALSE;
  guint        pending_depth = 0, lambda_depth = G_MAXUINT, span = 0;
  guint8       state[PRIOR_DEPTHS] = { 0 };
  gboolean     tentative[PRIOR_DEPTHS] = { 0 };
  g_autoptr (GArray) spans = NULL;

  if (fn->def == NULL || fn->def->start >= before)
    return NULL;
  spans = g_array_new (FALSE, FALSE, sizeof (gsize));
  nested_scopes (&fn->def->function_def.body, spans);
  graft_py_lexer_init (&lex, t->source);
  /* The lexer from the def's first byte (a line's first token, as the
   * lexer takes it: the def's own indentation counts as none). */
  lex.pos = fn->def->start;
  /* (The lexer's fast path reads past its end: the loop stops there.) */
  while (graft_py_lexer_next (&lex, &tok, NULL) && tok.kind != GRAFT_PY_TOKEN_ENDMARKER &&
         tok.start < before)
    {
      guint depth = graft_py_lexer_get_bracket_depth (&lex);

      /* A nested def's or class's body (the spans in text order). */
      while (span < spans->len && tok.start >= g_array_index (spans, gsize, span + 1))
        span += 2;
      if (span < spans->len && tok.start >= g_array_index (spans, gsize, span))
        continue;
      if (pending)
        {
          /* The name before this token was @name, read or assigned. */
          pending = FALSE;
          if (pending_capture)
            {
              /* In a case's pattern: `k.A` and `k(...)` read it, `x=k`'s
               * `x` is an attribute, anything else captures. */
              if (tok.kind == GRAFT_PY_TOKEN_DOT || tok.kind == GRAFT_PY_TOKEN_LPAR)
                return "is used prior to";
              if (tok.kind != GRAFT_PY_TOKEN_EQUAL)
                assigned = TRUE;
            }
          else if (pending_annotation && tok.kind == GRAFT_PY_TOKEN_COLON)
            annotated = TRUE; /* `k: int`, as a statement */
          else if (tok.kind == GRAFT_PY_TOKEN_COLONEQUAL ||
                   (pending_depth == 0 && tok.kind >= GRAFT_PY_TOKEN_PLUSEQUAL &&
                    tok.kind <= GRAFT_PY_TOKEN_CIRCUMFLEXEQUAL))
            assigned = TRUE;
          else if (tok.kind == GRAFT_PY_TOKEN_EQUAL && pending_depth > 0)
            ; /* a keyword argument's name */
          else if (pending_depth == 0 && (tok.kind == GRAFT_PY_TOKEN_EQUAL ||
                                          tok.kind == GRAFT_PY_TOKEN_COMMA))
            target = TRUE; /* `k = `, `k, a = ` or `return k, a` */
          else if (use_is_own (state, tentative, pending_depth))
            return "is used prior to";
        }
      /* A lambda's parameters (not their defaults) and body, up to what
       * ends its expression. */
      if (lambda_depth != G_MAXUINT && !lambda_body)
        {
          if (depth == lambda_depth && (tok.kind == GRAFT_PY_TOKEN_COLON ||
                                        tok.kind == GRAFT_PY_TOKEN_COMMA ||
                                        tok.kind == GRAFT_PY_TOKEN_EQUAL))
            {
              lambda_body = tok.kind == GRAFT_PY_TOKEN_COLON;
              lambda_default = tok.kind == GRAFT_PY_TOKEN_EQUAL;
              continue;
            }
          if (!lambda_default)
            continue;
        }
      else if (lambda_depth != G_MAXUINT)
        {
          if (depth > lambda_depth ||
              (depth == lambda_depth && tok.kind != GRAFT_PY_TOKEN_COMMA &&
               tok.kind != GRAFT_PY_TOKEN_NEWLINE && tok.kind != GRAFT_PY_TOKEN_SEMI &&
               tok.kind != GRAFT_PY_TOKEN_KW_FOR && tok.kind != GRAFT_PY_TOKEN_RPAR &&
               tok.kind != GRAFT_PY_TOKEN_RSQB && tok.kind != GRAFT_PY_TOKEN_RBRACE))
            continue;
          lambda_depth = G_MAXUINT;
        }
      switch ((int) tok.kind)
        {
        case GRAFT_PY_TOKEN_NEWLINE:
        case GRAFT_PY_TOKEN_SEMI:
        case GRAFT_PY_TOKEN_INDENT:
        case GRAFT_PY_TOKEN_DEDENT:
          if (target)
            return "is used prior to";
          in_import = in_del = for_target = in_case = FALSE;
          break;
        case GRAFT_PY_TOKEN_COLON:
          if (depth == 0)
            in_case = FALSE;
          break;
        case GRAFT_PY_TOKEN_EQUAL:
          if (depth == 0 && target)
            {
              assigned = TRUE;
              target = FALSE;
            }
          break;
        case GRAFT_PY_TOKEN_LPAR:
        case GRAFT_PY_TOKEN_LSQB:
        case GRAFT_PY_TOKEN_LBRACE:
          if (depth < PRIOR_DEPTHS)
            {
              state[depth] = BRACKET_PLAIN;
              tentative[depth] = FALSE;
            }
          break;
        case GRAFT_PY_TOKEN_RPAR:
        case GRAFT_PY_TOKEN_RSQB:
        case GRAFT_PY_TOKEN_RBRACE:
          if (depth + 1 < PRIOR_DEPTHS && tentative[depth + 1] &&
              use_is_own (state, tentative, depth))
            return "is used prior to";
          break;
        case GRAFT_PY_TOKEN_KW_FOR:
          if (depth == 0)
            for_target = TRUE;
          else if (depth < PRIOR_DEPTHS && state[depth] == BRACKET_PLAIN)
            {
              /* A comprehension: what came before was its element. */
              state[depth] = BRACKET_FIRST_TARGET;
              tentative[depth] = FALSE;
            }
          else if (depth < PRIOR_DEPTHS)
            state[depth] = BRACKET_INNER;
          break;
        case GRAFT_PY_TOKEN_KW_IN:
          if (depth == 0)
            for_target = FALSE;
          else if (depth < PRIOR_DEPTHS && state[depth] == BRACKET_FIRST_TARGET)
            state[depth] = BRACKET_FIRST_ITER;
          break;
        case GRAFT_PY_TOKEN_KW_IF:
          if (depth == 0)
            in_case = FALSE; /* a case's guard */
          if (depth > 0 && depth < PRIOR_DEPTHS && state[depth] == BRACKET_FIRST_ITER)
            state[depth] = BRACKET_INNER;
          break;
        case GRAFT_PY_TOKEN_KW_LAMBDA:
          lambda_depth = depth;
          lambda_body = lambda_default = FALSE;
          break;
        case GRAFT_PY_TOKEN_KW_DEL:
          in_del = depth == 0;
          break;
        case GRAFT_PY_TOKEN_KW_IMPORT:
          in_import = TRUE;
          break;
        case GRAFT_PY_TOKEN_KW_FROM:
          /* `from m import k`, not `yield from k` nor `raise E from k` */
          in_import = in_import || prev.kind == GRAFT_PY_TOKEN_NEWLINE ||
                      prev.kind == GRAFT_PY_TOKEN_INDENT || prev.kind == GRAFT_PY_TOKEN_DEDENT ||
                      prev.kind == GRAFT_PY_TOKEN_SEMI ||
                      (prev.kind == GRAFT_PY_TOKEN_COLON && depth == 0);
          break;
        default:
          break;
        }
      if (header && tok.kind == GRAFT_PY_TOKEN_COLON && depth == 0)
        header = FALSE;
      else if (tok.kind == GRAFT_PY_TOKEN_NAME && tok.end - tok.start == len &&
               memcmp (text + tok.start, name, len) == 0 && prev.kind != GRAFT_PY_TOKEN_DOT &&
               !(header && last_name.start == 0))
        {
          /* A parameter's own name, not a name of a default or an
           * annotation (the enclosing scope's). */
          if (header && depth == 1 &&
              (prev.kind == GRAFT_PY_TOKEN_LPAR || prev.kind == GRAFT_PY_TOKEN_COMMA ||
               prev.kind == GRAFT_PY_TOKEN_STAR || prev.kind == GRAFT_PY_TOKEN_DOUBLESTAR))
            return "is parameter and";
          if (header || in_import)
            ;
          else if (prev.kind == GRAFT_PY_TOKEN_KW_DEF || prev.kind == GRAFT_PY_TOKEN_KW_CLASS ||
                   prev.kind == GRAFT_PY_TOKEN_KW_AS || for_target || (in_del && depth == 0))
            assigned = TRUE;
          else if (depth > 0 && depth < PRIOR_DEPTHS &&
                   (state[depth] == BRACKET_FIRST_TARGET || state[depth] == BRACKET_INNER))
            ; /* a comprehension's own */
          else
            {
              pending = TRUE;
              pending_depth = depth;
              pending_capture = in_case;
              pending_annotation =
                  depth == 0 && !in_case &&
                  (prev.kind == GRAFT_PY_TOKEN_NEWLINE || prev.kind == GRAFT_PY_TOKEN_INDENT ||
                   prev.kind == GRAFT_PY_TOKEN_DEDENT || prev.kind == GRAFT_PY_TOKEN_SEMI);
            }
        }
      else if (tok.kind == GRAFT_PY_TOKEN_NAME && depth == 0 && tok.end - tok.start == 4 &&
               memcmp (text + tok.start, "case", 4) == 0 &&
               (prev.kind == GRAFT_PY_TOKEN_NEWLINE || prev.kind == GRAFT_PY_TOKEN_INDENT ||
                prev.kind == GRAFT_PY_TOKEN_DEDENT))
        in_case = TRUE; /* a case's pattern, up to its guard or colon */
      if (tok.kind == GRAFT_PY_TOKEN_NAME)
        last_name = tok;
      prev = tok;
    }
  if (target || (pending && !pending_capture && use_is_own (state, tentative, pending_depth)))
    return "is used prior to";
  if (pending && pending_capture)
    assigned = TRUE;
  if (annotated)
    return "annotated";
  return assigned ? "is assigned to before" : NULL;
}

/**
 * _graft_tracer_declare_names:
 *
 * Runs `global` or `nonlocal` statement @s in @frame: its names bind in
 * the module's scope or in an enclosing function's from now on.  Python's
 * SyntaxError for a `nonlocal` outside a function or without a binding.
 *
 * Returns: %FALSE on error
 */
gboolean
_graft_tracer_declare_names (Tracer            *t,
                             Frame             *frame,
                             const GraftPyStmt *s)
{
  gboolean global = s->kind == GRAFT_PY_STMT_GLOBAL;

  if (!global && (frame->fn == NULL || frame == frame->globals))
    {
      _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_SYNTAX,
                          "nonlocal declaration not allowed at module level");
      return FALSE;
    }
  if (frame == frame->globals)
    return TRUE;
  for (guint k = 0; k < s->names.n_names; k++)
    {
      const char *name = s->names.names[k];
      Frame      *to;

      const char *prior = frame->fn != NULL ? prior_use (t, frame->fn, name, s->start) : NULL;

      if (prior == NULL && _graft_strmap_get (&frame->vars, name) != NULL)
        prior = "is assigned to before";
      if (prior != NULL)
        {
          /* Python's compiler finds these in the text: at the first
           * call here. */
          return prior_use_error (t, s, name, prior, global);
        }
      to = global ? frame->globals : nonlocal_frame (t, frame, name);
      if (to == NULL)
        {
          _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_SYNTAX,
                              "no binding for nonlocal '%s' found", name);
          return FALSE;
        }
      if (frame->declared == NULL)
        {
          frame->declared = g_hash_table_new (g_str_hash, g_str_equal);
          g_ptr_array_add (t->hash_tables, frame->declared);
        }
      g_hash_table_insert (frame->declared, (gpointer) name, to);
    }
  return TRUE;
}

/* Whether the def @def binds @name: a parameter, a name its body binds,
 * or one a `nonlocal` (or `global`) of its body declares. */
static gboolean
def_binds (Tracer            *t,
           const GraftPyStmt *def,
           const char        *name)
{
  const GraftPyArguments *a = def->function_def.args;
  Locals                  locals = { 0 };
  gboolean                binds;

  for (guint i = 0; a != NULL && i < a->n_posonly; i++)
    if (strcmp (a->posonly[i]->name, name) == 0)
      return TRUE;
  for (guint i = 0; a != NULL && i < a->n_args; i++)
    if (strcmp (a->args[i]->name, name) == 0)
      return TRUE;
  for (guint i = 0; a != NULL && i < a->n_kwonly; i++)
    if (strcmp (a->kwonly[i]->name, name) == 0)
      return TRUE;
  if (a != NULL && ((a->vararg != NULL && strcmp (a->vararg->name, name) == 0) ||
                    (a->kwarg != NULL && strcmp (a->kwarg->name, name) == 0)))
    return TRUE;
  locals.names = g_hash_table_new (g_str_hash, g_str_equal);
  collect_locals (t, &locals, &def->function_def.body);
  binds = g_hash_table_contains (locals.names, name) ||
          (locals.declared != NULL && g_hash_table_contains (locals.declared, name));
  g_hash_table_unref (locals.names);
  return binds;
}

/* Whether @body (not its nested defs' or classes') declares @name
 * `global`: a `nonlocal` of a function nested in it finds no binding
 * there, nor further out. */
static gboolean
declares_global (const GraftPyStmtList *body,
                 const char            *name)
{
  for (guint i = 0; i < body->len; i++)
    {
      const GraftPyStmt     *s = body->items[i];
      const GraftPyStmtList *block;

      if (s->kind == GRAFT_PY_STMT_GLOBAL)
        for (guint k = 0; k < s->names.n_names; k++)
          if (strcmp (s->names.names[k], name) == 0)
            return TRUE;
      for (guint b = 0; (block = graft_py_stmt_get_block (s, b)) != NULL; b++)
        if (declares_global (block, name))
          return TRUE;
    }
  return FALSE;
}

/* One statement list of check_declarations(), in the def @defs->pdata[last]
 * (none: the module's, or a class body's where @in_class). */
static gboolean
check_declarations_in (Tracer                *t,
                       const GraftPyStmtList *body,
                       GPtrArray             *defs,
                       gboolean               in_class,
                       gboolean               bindings)
{
  for (guint i = 0; i < body->len; i++)
    {
      const GraftPyStmt *s = body->items[i];
      gboolean           ok = TRUE;

      switch (s->kind)
        {
        case GRAFT_PY_STMT_IF:
          ok = check_declarations_in (t, &s->if_stmt.body, defs, in_class, bindings) &&
               check_declarations_in (t, &s->if_stmt.orelse, defs, in_class, bindings);
          break;
        case GRAFT_PY_STMT_FOR:
          ok = check_declarations_in (t, &s->for_stmt.body, defs, in_class, bindings) &&
               check_declarations_in (t, &s->for_stmt.orelse, defs, in_class, bindings);
          break;
        case GRAFT_PY_STMT_WHILE:
          ok = check_declarations_in (t, &s->while_stmt.body, defs, in_class, bindings) &&
               check_declarations_in (t, &s->while_stmt.orelse, defs, in_class, bindings);
          break;
        case GRAFT_PY_STMT_WITH:
          ok = check_declarations_in (t, &s->with_stmt.body, defs, in_class, bindings);
          break;
        case GRAFT_PY_STMT_TRY:
          ok = check_declarations_in (t, &s->try_stmt.body, defs, in_class, bindings);
          for (guint k = 0; ok && k < s->try_stmt.n_handlers; k++)
            ok = check_declarations_in (t, &s->try_stmt.handlers[k]->body, defs, in_class,
                                        bindings);
          ok = ok && check_declarations_in (t, &s->try_stmt.orelse, defs, in_class, bindings) &&
               check_declarations_in (t, &s->try_stmt.finalbody, defs, in_class, bindings);
          break;
        case GRAFT_PY_STMT_CLASS_DEF:
          ok = check_declarations_in (t, &s->class_def.body, defs, TRUE, bindings);
          break;
        case GRAFT_PY_STMT_FUNCTION_DEF:
          /* (A body still to be read is checked as it runs.) */
          if (s->function_def.deferred != NULL)
            break;
          g_ptr_array_add (defs, (gpointer) s);
          ok = check_declarations_in (t, &s->function_def.body, defs, FALSE, bindings);
          g_ptr_array_set_size (defs, defs->len - 1);
          break;
        case GRAFT_PY_STMT_GLOBAL:
        case GRAFT_PY_STMT_NONLOCAL:
          /* (A class body's are checked as it runs.) */
          if (in_class)
            break;
          if (defs->len == 0)
            {
              if (s->kind == GRAFT_PY_STMT_NONLOCAL && !bindings)
                {
                  _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_SYNTAX,
                                      "nonlocal declaration not allowed at module level");
                  return FALSE;
                }
              break;
            }
          for (guint k = 0; k < s->names.n_names; k++)
            {
              const char *name = s->names.names[k];
              gboolean    global = s->kind == GRAFT_PY_STMT_GLOBAL;
              Function    fn = { .def = g_ptr_array_index (defs, defs->len - 1) };
              const char *prior;
              gboolean    found = FALSE;

              if (!bindings && (prior = prior_use (t, &fn, name, s->start)) != NULL)
                {
                  return prior_use_error (t, s, name, prior, global);
                }
              if (!bindings || global)
                continue;
              for (guint j = defs->len - 1; j > 0 && !found; j--)
                {
                  const GraftPyStmt *def = g_ptr_array_index (defs, j - 1);

                  if (declares_global (&def->function_def.body, name))
                    break;
                  found = def_binds (t, def, name);
                }
              if (!found)
                {
                  _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_SYNTAX,
                                      "no binding for nonlocal '%s' found", name);
                  return FALSE;
                }
            }
          break;
        case GRAFT_PY_STMT_EXPR:
        case GRAFT_PY_STMT_ASSIGN:
        case GRAFT_PY_STMT_AUG_ASSIGN:
        case GRAFT_PY_STMT_ANN_ASSIGN:
        case GRAFT_PY_STMT_RETURN:
        case GRAFT_PY_STMT_PASS:
        case GRAFT_PY_STMT_BREAK:
        case GRAFT_PY_STMT_CONTINUE:
        case GRAFT_PY_STMT_ASSERT:
        case GRAFT_PY_STMT_RAISE:
        case GRAFT_PY_STMT_DELETE:
        case GRAFT_PY_STMT_IMPORT:
        case GRAFT_PY_STMT_IMPORT_FROM:
        default:
          break;
        }
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/**
 * _graft_tracer_check_declarations:
 * @body: a module's statements
 *
 * What Python's compiler finds wrong with the `global` and `nonlocal`
 * statements of every function of @body before any of it runs (a function
 * never called, a branch never taken): first, in the order of the text, a
 * name used, assigned or a parameter before its declaration, a `nonlocal`
 * at module level; then a `nonlocal` that no enclosing function binds.
 * (A class body's declarations, and a body still to be read, are checked
 * as they run: _graft_tracer_declare_names().)
 *
 * Returns: %FALSE with the tracer's error
 */
gboolean
_graft_tracer_check_declarations (Tracer                *t,
                                  const GraftPyStmtList *body)
{
  g_autoptr (GPtrArray) defs = g_ptr_array_new ();

  return check_declarations_in (t, body, defs, FALSE, FALSE) &&
         check_declarations_in (t, body, defs, FALSE, TRUE);
}

/**
 * _graft_tracer_check_streamed_declarations:
 * @def: a def whose body is read as it is traced
 * @stmts: the statements of it just read
 *
 * _graft_tracer_check_declarations() of @stmts, as they are read, whether
 * they run or not.  (The body read so far is all of @def this sees: an
 * error may be one the rest of the body would answer, so the caller reads
 * the program again the usual way, which checks it all.)
 *
 * Returns: %FALSE with the tracer's error
 */
gboolean
_graft_tracer_check_streamed_declarations (Tracer                *t,
                                           const GraftPyStmt     *def,
                                           const GraftPyStmtList *stmts)
{
  g_autoptr (GPtrArray) defs = g_ptr_array_new ();

  g_ptr_array_add (defs, (gpointer) def);
  return check_declarations_in (t, stmts, defs, FALSE, FALSE) &&
         check_declarations_in (t, stmts, defs, FALSE, TRUE);
}

/**
 * _graft_tracer_locals_begin:
 *
 * Starts collecting the names @fn's body binds statement by statement, as
 * the body is read (graft_py_program_new_traced()); @fn's set is complete
 * once every statement has been added.  The collection is @fn's, freed
 * with the tracer.
 *
 * Returns: (transfer none): the collection, for _graft_tracer_locals_add()
 */
Locals *
_graft_tracer_locals_begin (Tracer   *t,
                            Function *fn)
{
  Locals *locals = _graft_tracer_alloc (t, sizeof (Locals));
  guint   n_lines = MIN (_graft_tracer_body_lines (fn->def), 1u << 22);

  /* Room for about a name per line (as exec_streamed()'s scope). */
  locals->log = _graft_tracer_vec (t);
  if (n_lines > locals->log->alloc)
    _graft_vec_grow (locals->log, n_lines);
  locals->fn = fn;
  fn->locals = NULL;
  fn->locals_log = locals;
  return locals;
}

void
_graft_tracer_locals_add (Tracer                *t,
                          Locals                *locals,
                          const GraftPyStmtList *stmts)
{
  collect_locals (t, locals, stmts);
}

/* _graft_tracer_locals_add() for a statement that binds @name alone. */
void
_graft_tracer_locals_add_name (Locals     *locals,
                               const char *name)
{
  add_local (locals, name);
}

/* Whether the collection holds @name.  The log is read backwards for a
 * few names; from the fifth on, it is made a set once (as it would be
 * read for every name otherwise). */
gboolean
_graft_tracer_locals_has (Tracer     *t,
                          Locals     *locals,
                          const char *name)
{
  if (locals->names == NULL && ++locals->n_asked > 4)
    locals->names = replay_log (t, locals->log);
  if (locals->names != NULL)
    return g_hash_table_contains (locals->names, name);
  if ((locals->log_firsts & log_bit (name)) == 0)
    return FALSE;
  /* The last entry about @name decides. */
  for (guint i = locals->log->len; i > 0; i--)
    {
      const char *logged = locals->log->pdata[i - 1];

      if (logged != NULL && logged[0] == name[0] && strcmp (logged, name) == 0)
        return i < 2 || locals->log->pdata[i - 2] != NULL;
    }
  return FALSE;
}

/* A name the streaming function's frame looked up outside it. */
static void
note_miss (Tracer     *t,
           const char *name)
{
  guint r = (guint) (GPOINTER_TO_SIZE (name) >> 3) % G_N_ELEMENTS (t->miss_recent);

  if (t->miss_recent[r] == name)
    return;
  g_hash_table_add (t->stream_misses, (gpointer) name);
  t->miss_recent[r] = name;
}

/* Python's NameError (or its UnboundLocalError, @exception) for a name
 * not found, with `e.args` as Python's, which `except NameError` catches;
 * uncaught, Graft's message is @message (prefixed with a non-NULL
 * @exception). */
static Value *
raise_name_error (Tracer            *t,
                  const char        *exception,
                  const char        *message,
                  const GraftPyExpr *at)
{
  if (t->error != NULL)
    return NULL;
  if (exception != NULL)
    _graft_tracer_raise (t, exception, at->start, at->end, "%s: %s", exception, message);
  else
    _graft_tracer_raise (t, "NameError", at->start, at->end, "%s", message);
  t->raised_args = _graft_value_seq (t, VAL_TUPLE, 1);
  _graft_value_seq_add (t->raised_args, _graft_value_str (t, message, -1));
  return NULL;
}

/* Whether the body of @cls binds @name: a class body in a function reads
 * the function's variables but those (Python's LOAD_NAME: the body's
 * namespace, then the module's). */
static gboolean
class_binds (Tracer     *t,
             Class      *cls,
             const char *name)
{
  if (cls->binds == NULL)
    {
      Locals locals = { 0 };

      cls->binds = g_hash_table_new (g_str_hash, g_str_equal);
      g_ptr_array_add (t->hash_tables, cls->binds);
      locals.names = cls->binds;
      collect_locals (t, &locals, &cls->stmt->class_def.body);
    }
  return g_hash_table_contains (cls->binds, name);
}

static G_GNUC_NO_INLINE Value *
lookup_slow (Tracer            *t,
             Frame             *frame,
             const char        *name,
             const GraftPyExpr *at)
{
  Value *v = _graft_strmap_get (&frame->vars, name);

  if (v != NULL)
    return v;
  /* A name the function binds somewhere is its own all through: read
   * before it is bound, it is UnboundLocalError, not the global or
   * builtin of that name.  (Of a body still being read, which names it
   * binds is checked once it is all read.) */
  if (frame->fn != NULL && frame->parent == frame->fn->closure)
    {
      if (G_UNLIKELY (frame->fn == t->stream_fn))
        note_miss (t, name);
      else if (is_local_of (t, frame->fn, name))
        return raise_name_error (t, "UnboundLocalError",
                                 _graft_tracer_printf (t,
                                                       "cannot access local variable '%s' where it "
                                                       "is not associated with a value",
                                                       name),
                                 at);
      else if (t->error != NULL && t->fallback)
        return NULL;
    }
  if (frame->cls != NULL && frame->parent != NULL && class_binds (t, frame->cls, name))
    ; /* a class body's own name is read in the module past the function */
  else if (G_UNLIKELY (frame->declared != NULL) &&
           _graft_tracer_binding_frame (frame, name) != frame)
    {
      /* `global x` reads the module's x; `nonlocal x` the enclosing one. */
      if ((v = _graft_strmap_get (&_graft_tracer_binding_frame (frame, name)->vars, name)) != NULL)
        return v;
    }
  else
    for (Frame *s = frame->parent; s != NULL; s = s->parent)
      /* (A class body's names are its own body's alone: not its
       * comprehensions' nor its lambdas'.) */
      if (s->cls == NULL && (v = _graft_strmap_get (&s->vars, name)) != NULL)
        return v;
  if ((v = _graft_strmap_get (&frame->globals->vars, name)) != NULL)
    return v;
  if ((v = _graft_tracer_lookup_builtin (t, name)) != NULL)
    return v;
  /* A match statement's test calls the builtin itself (no frame can hold
   * such a name). */
  if (name[0] == 'm' && g_str_has_prefix (name, GRAFT_PY_MATCH_BUILTIN) &&
      (v = _graft_tracer_lookup_builtin (t, name + strlen (GRAFT_PY_MATCH_BUILTIN))) != NULL)
    return v;
  /* The checks of layers' values bind their names as they are read. */
  if (frame->globals == t->nn_checks && t->nn_checks != NULL &&
      (v = _graft_tracer_check_define (t, name)) != NULL)
    return v;
  return raise_name_error (t, NULL, _graft_tracer_printf (t, "name '%s' is not defined", name),
                           at);
}

/* The module's value of @name (`torch`) that Tracer.outside_recent keeps
 * for @frame, a streaming function's, if it still holds (the miss noted,
 * no frame on the way changed its keys or may hold the name now): what
 * lookup_slow() would find, or %NULL. */
static inline Value *
outside_recent (Tracer     *t,
                Frame      *frame,
                const char *name)
{
  guint         r = (guint) (GPOINTER_TO_SIZE (name) >> 3) % G_N_ELEMENTS (t->miss_recent);
  const StrMap *vars = &frame->vars, *globals = &frame->globals->vars;
  Frame        *parent = frame->parent;

  G_STATIC_ASSERT (G_N_ELEMENTS (t->miss_recent) == G_N_ELEMENTS (t->outside_recent));
  if (_graft_recent_key_is (&t->outside_recent[r].key, name, frame) &&
      frame->fn != NULL && frame->fn == t->stream_fn && parent == frame->fn->closure &&
      t->miss_recent[r] == name &&
      (vars->stamp == t->outside_recent[r].frame_stamp ||
       (vars->stamp != 0 && (vars->key_bits & _graft_strmap_key_bit (name)) == 0)) &&
      (parent == frame->globals || parent->vars.stamp == t->outside_recent[r].parent_stamp) &&
      globals->stamp == t->outside_recent[r].globals_stamp)
    return globals->values->pdata[t->outside_recent[r].pos - 1];
  return NULL;
}

/* lookup_slow() of a name the streaming function's frame does not hold
 * and the module does (`torch`, `F` on every line of a forward): the
 * answer kept in Tracer.outside_recent while it holds, without
 * lookup_slow()'s searches. */
static G_GNUC_NO_INLINE Value *
lookup_outside (Tracer            *t,
                Frame             *frame,
                const char        *name,
                const GraftPyExpr *at)
{
  guint         r = (guint) (GPOINTER_TO_SIZE (name) >> 3) % G_N_ELEMENTS (t->miss_recent);
  const StrMap *vars = &frame->vars, *globals = &frame->globals->vars;
  Frame        *parent = frame->parent;
  Value        *v = outside_recent (t, frame, name);
  guint         pos;

  if (v != NULL)
    return v;
  v = lookup_slow (t, frame, name, at);
  /* Kept when lookup_slow() went the streaming frame's way to the module's
   * scope, past at most one enclosing frame (a class body's), each with
   * its stamp. */
  if (v != NULL && frame->fn != NULL && frame->fn == t->stream_fn && parent == frame->fn->closure &&
      t->miss_recent[r] == name && vars->stamp != 0 && globals->stamp != 0 && parent != NULL &&
      (parent == frame->globals || (parent->parent == NULL && parent->vars.stamp != 0)) &&
      globals->keys != NULL &&
      (pos = _graft_strmap_recent_position (globals, name,
                                            _graft_strmap_recent_slot (globals, name))) !=
          G_MAXUINT &&
      pos > 0 && globals->values->pdata[pos - 1] == v)
    {
      t->outside_recent[r] = (OutsideRecent){ .key = { name, frame },
                                              .frame_stamp = vars->stamp,
                                              .parent_stamp = parent->vars.stamp,
                                              .globals_stamp = globals->stamp,
                                              .pos = pos };
    }
  return v;
}

/* A name of the frame itself that Tracer.map_recent still answers (most
 * names of a forward: each line reads the names the last ones bound) in
 * place, without a call; anything else by lookup_slow(). */
static inline G_ALWAYS_INLINE Value *
lookup (Tracer            *t,
        Frame             *frame,
        const char        *name,
        const GraftPyExpr *at)
{
  const StrMap *map = &frame->vars;
  guint         r = _graft_strmap_recent_slot (map, name);

  if (t->map_recent[r].map == map && t->map_recent[r].key == name)
    {
      guint pos = t->map_recent[r].pos;

      /* As _graft_strmap_recent_position(): the map unchanged since, or
       * the string found still at that position. */
      if (pos > 0 && map->keys != NULL &&
          ((map->stamp != 0 && t->map_recent[r].stamp == map->stamp) ||
           (pos <= map->keys->len && map->keys->pdata[pos - 1] == t->map_recent[r].stored)))
        return map->values->pdata[pos - 1];
    }
  return lookup_outside (t, frame, name, at);
}

/* Expressions -------------------------------------------------------------- */

static Value                        *eval_attribute (Tracer *t, Frame *frame, const GraftPyExpr *e);
static inline G_ALWAYS_INLINE Value *module_attr (Tracer            *t,
                                                  Value             *module,
                                                  const char        *name,
                                                  const GraftPyExpr *at);

/* _graft_tracer_eval() for an operand, the commonest of which is a name:
 * that is looked up here without the call, the depth limit checked as
 * _graft_tracer_eval() would (a lookup evaluates nothing). */
static inline Value *
eval_operand (Tracer            *t,
              Frame             *frame,
              const GraftPyExpr *e)
{
  if (e->kind == GRAFT_PY_EXPR_NAME && t->error == NULL && t->depth < GRAFT_MAX_EVAL_DEPTH)
    return lookup (t, frame, e->name.id, e);
  return _graft_tracer_eval (t, frame, e);
}

static Value *
eval_constant (Tracer            *t,
               const GraftPyExpr *e)
{
  Value *v;

  switch (e->constant.kind)
    {
    case GRAFT_PY_CONST_NONE:
      return _graft_value_none ();
    case GRAFT_PY_CONST_BOOL:
      return _graft_value_bool (e->constant.bool_value);
    case GRAFT_PY_CONST_ELLIPSIS:
      return _graft_value_ellipsis ();
    case GRAFT_PY_CONST_INT:
      return _graft_value_int (t, e->constant.int_value);
    case GRAFT_PY_CONST_FLOAT:
      return _graft_value_float (t, e->constant.float_value);
    case GRAFT_PY_CONST_IMAGINARY:
      v = _graft_value_new (t, VAL_COMPLEX);
      v->c[0] = 0;
      v->c[1] = e->constant.float_value;
      return v;
    case GRAFT_PY_CONST_STR:
      v = _graft_value_new (t, VAL_STR);
      v->str.s = e->constant.str;
      v->str.len = e->constant.len;
      return v;
    case GRAFT_PY_CONST_BIGINT:
      /* An int beyond 64 bits: printed and compared by its digits (a
       * symbol), never folded. */
      return _graft_value_path (t, VAL_SYMBOL, e->constant.str);
    case GRAFT_PY_CONST_BYTES:
    default:
      return _graft_tracer_fail_at (t, e, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                    "bytes literals are not supported");
    }
}

/* Formats one f-string field: the common format specs of model code. */
static gboolean
format_value (Tracer            *t,
              GString           *out,
              Value             *v,
              int                conversion,
              const char        *spec,
              const GraftPyExpr *at)
{
  /* A proxy formats as its repr, `Proxy(x)`: a conversion makes it that
   * string, which the spec then formats; object.__format__ itself takes
   * no spec. */
  if (_graft_value_is_proxy (v))
    {
      g_autoptr (GString) repr = g_string_new (NULL);

      if (!_graft_tracer_append_proxy_repr (t, repr, v))
        return FALSE;
      if (conversion == 's' || conversion == 'r' || conversion == 'a')
        {
          /* The conversion is done: what is left formats a string. */
          v = _graft_value_str (t, repr->str, repr->len);
          conversion = 's';
        }
      else if (spec == NULL || *spec == '\0')
        {
          g_string_append_len (out, repr->str, repr->len);
          return TRUE;
        }
      else
        {
          _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                 "TypeError: unsupported format string passed to Proxy.__format__");
          return FALSE;
        }
    }
  if (_graft_value_holds_proxy (v))
    {
      _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                             "a traced value cannot be formatted into a string: its value is not "
                             "known while tracing");
      return FALSE;
    }
  if (spec == NULL || *spec == '\0' || conversion == 'r' || conversion == 's' || conversion == 'a')
    {
      if (spec != NULL && *spec != '\0')
        {
          _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                 "a format spec after a conversion is not supported");
          return FALSE;
        }
      if (!_graft_tracer_check_printable (t, v, "formatting", at))
        return FALSE;
      _graft_value_append_str (out, v, conversion == 'r' || conversion == 'a');
      return TRUE;
    }
  /* A numeric spec `[0][width][.precision](d|f|e|g)`, as model code writes
   * in names (`f"layer{i:02d}"`). */
  {
    const char *p = spec;
    gboolean    zero = FALSE;
    int         width = 0, precision = 6;
    char        type;

    if (*p == '0')
      {
        zero = TRUE;
        p++;
      }
    while (g_ascii_isdigit (*p) && width < 1000)
      width = width * 10 + (*p++ - '0');
    if (*p == '.')
      {
        precision = 0;
        p++;
        while (g_ascii_isdigit (*p) && precision < 1000)
          precision = precision * 10 + (*p++ - '0');
      }
    type = *p;
    if (type != '\0' && p[1] == '\0')
      {
        if (type == 'd' && (v->kind == VAL_INT || v->kind == VAL_BOOL))
          {
            gint64 i = v->kind == VAL_INT ? v->i : (gint64) v->b;

            g_string_append_printf (out, zero ? "%0*" G_GINT64_FORMAT : "%*" G_GINT64_FORMAT, width,
                                    i);
            return TRUE;
          }
        if ((type == 'f' || type == 'e' || type == 'g') &&
            (v->kind == VAL_INT || v->kind == VAL_FLOAT))
          {
            double f = v->kind == VAL_INT ? (double) v->i : v->f;

            if (type == 'f')
              g_string_append_printf (out, zero ? "%0*.*f" : "%*.*f", width, precision, f);
            else if (type == 'e')
              g_string_append_printf (out, zero ? "%0*.*e" : "%*.*e", width, precision, f);
            else
              g_string_append_printf (out, zero ? "%0*.*g" : "%*.*g", width, precision, f);
            return TRUE;
          }
      }
  }
  _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_UNSUPPORTED, "this format spec is not supported");
  return FALSE;
}

static Value *
eval_joined_str (Tracer            *t,
                 Frame             *frame,
                 const GraftPyExpr *e)
{
  g_autoptr (GString) out = g_string_new (NULL);

  for (guint i = 0; i < e->joined_str.values.len; i++)
    {
      const GraftPyExpr *part = e->joined_str.values.items[i];

      if (part->kind == GRAFT_PY_EXPR_CONSTANT && part->constant.kind == GRAFT_PY_CONST_STR)
        g_string_append_len (out, part->constant.str, part->constant.len);
      else if (part->kind == GRAFT_PY_EXPR_FORMATTED_VALUE)
        {
          Value *v = _graft_tracer_eval (t, frame, part->formatted_value.value);
          Value *spec = NULL;

          if (v == NULL)
            return NULL;
          if (part->formatted_value.format_spec != NULL)
            {
              spec = _graft_tracer_eval (t, frame, part->formatted_value.format_spec);
              if (spec == NULL)
                return NULL;
            }
          if (!format_value (t, out, v, part->formatted_value.conversion,
                             spec != NULL ? spec->str.s : NULL, part))
            return NULL;
        }
      else
        return _graft_tracer_fail_at (t, part, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                      "unexpected part in an f-string");
    }
  return _graft_value_str (t, out->str, out->len);
}

/* Evaluates expressions into @out in order, expanding `*iterable` items
 * (call arguments and tuple or list displays). */
static gboolean
eval_items (Tracer                *t,
            Frame                 *frame,
            const GraftPyExprList *items,
            PtrVec                *out)
{
  for (guint i = 0; i < items->len; i++)
    {
      const GraftPyExpr *item = items->items[i];
      Value             *v;

      if (item->kind == GRAFT_PY_EXPR_STARRED)
        {
          Value *seq = _graft_tracer_eval (t, frame, item->starred.value);
          Value *expanded;

          if (seq == NULL)
            return FALSE;
          expanded = _graft_tracer_iterate (t, seq, item);
          if (expanded == NULL)
            return FALSE;
          for (guint k = 0; k < expanded->seq.items->len; k++)
            _graft_vec_add (out, expanded->seq.items->pdata[k]);
          continue;
        }
      v = eval_operand (t, frame, item);
      if (v == NULL)
        return FALSE;
      _graft_vec_add (out, v);
    }
  return TRUE;
}

/* Evaluates call arguments, expanding `*seq` and `**mapping`. */
static gboolean
eval_call_args (Tracer            *t,
                Frame             *frame,
                const GraftPyExpr *e,
                PtrVec           **out_args,
                StrMap           **out_kwargs)
{
  PtrVec *args = _graft_tracer_vec_sized (t, e->call.args.len);
  StrMap *kwargs = NULL;

  /* Most calls have no keywords: they get no map at all. */
  if (e->call.n_keywords > 0)
    {
      kwargs = _graft_tracer_alloc (t, sizeof (StrMap));
      _graft_strmap_init (t, kwargs);
    }
  if (!eval_items (t, frame, &e->call.args, args))
    return FALSE;
  for (guint i = 0; i < e->call.n_keywords; i++)
    {
      const GraftPyKeyword *kw = e->call.keywords[i];
      Value                *v = eval_operand (t, frame, kw->value);

      if (v == NULL)
        return FALSE;
      if (kw->name != NULL)
        {
          if (_graft_strmap_get (kwargs, kw->name) != NULL)
            {
              _graft_tracer_fail (t, kw->start, kw->end, GRAFT_PARSE_ERROR_SYNTAX,
                                  "keyword argument repeated: %s", kw->name);
              return FALSE;
            }
          _graft_strmap_set (kwargs, kw->name, v);
          continue;
        }
      if (v->kind != VAL_DICT)
        {
          _graft_tracer_fail (t, kw->start, kw->end, GRAFT_PARSE_ERROR_TRACE,
                              "argument after ** must be a mapping, not %s%s",
                              _graft_value_type_name (v),
                              _graft_value_is_proxy (v) ? " (torch.fx cannot unpack a traced value)"
                                                        : "");
          return FALSE;
        }
      for (guint k = 0; k < v->dict.keys->len; k++)
        {
          Value *key = v->dict.keys->pdata[k];

          if (key->kind != VAL_STR)
            {
              _graft_tracer_fail (t, kw->start, kw->end, GRAFT_PARSE_ERROR_TRACE,
                                  "keywords must be strings");
              return FALSE;
            }
          /* torch.fx writes a keyword's name raw in its code. */
          if (!_graft_tracer_check_attr_name (t, "a keyword name", key->str.s, key->str.len,
                                              kw->start, kw->end))
            return FALSE;
          _graft_strmap_set (kwargs, key->str.s, v->dict.values->pdata[k]);
        }
    }
  *out_args = args;
  *out_kwargs = kwargs;
  return TRUE;
}

static Value *
make_super (Tracer            *t,
            Frame             *frame,
            const GraftPyExpr *at)
{
  Value *v;

  for (Frame *s = frame; s != NULL; s = s->parent)
    if (s->fn != NULL && s->fn->owner != NULL && s->self != NULL)
      {
        v = _graft_value_new (t, VAL_SUPER);
        v->super.self = s->self;
        v->super.after = s->fn->owner;
        return v;
      }
  return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                "super() is only available in a method");
}

/* Whether evaluating @e can run no code of the file nor change a value
 * that exists: a name, a constant, a negated constant, or a list or tuple
 * display of those. */
static gboolean
plain_operand (const GraftPyExpr *e,
               guint              depth)
{
  if (e->kind == GRAFT_PY_EXPR_NAME || e->kind == GRAFT_PY_EXPR_CONSTANT)
    return TRUE;
  if (e->kind == GRAFT_PY_EXPR_UNARY_OP)
    return e->unary_op.operand->kind == GRAFT_PY_EXPR_CONSTANT;
  if ((e->kind != GRAFT_PY_EXPR_TUPLE && e->kind != GRAFT_PY_EXPR_LIST) || depth == 0)
    return FALSE;
  for (guint i = 0; i < e->sequence.elts.len; i++)
    if (!plain_operand (e->sequence.elts.items[i], depth - 1))
      return FALSE;
  return TRUE;
}

/* Whether all of a call's arguments are plain_operand()s, keywords named. */
static gboolean
plain_call_args (const GraftPyExpr *e)
{
  for (guint i = 0; i < e->call.args.len; i++)
    if (!plain_operand (e->call.args.items[i], 2))
      return FALSE;
  for (guint i = 0; i < e->call.n_keywords; i++)
    if (e->call.keywords[i]->name == NULL || !plain_operand (e->call.keywords[i]->value, 2))
      return FALSE;
  return TRUE;
}

/* Whether calling @callee runs no code of the file and keeps none of its
 * arguments: it records a node (or computes a constant): a torch
 * function, a method of a traced value, a torch.nn leaf module, a
 * submodule path. */
static gboolean
makes_node_only (const Value *callee)
{
  if (callee->kind == VAL_OBJECT)
    return callee->obj->kind == OBJ_LEAF;
  return callee->kind == VAL_PATH_FN || callee->kind == VAL_ATTR_PROXY ||
         callee->kind == VAL_PROXY || callee->kind == VAL_SELF_PATH;
}

/* Whether @v is data a call can only read: no function, class or module
 * of the file that the callee could run, no object to change. */
static gboolean
inert_value (const Value *v,
             guint        depth)
{
  /* The kinds up to VAL_ELLIPSIS are constants. */
  G_STATIC_ASSERT (VAL_NONE == 0 && VAL_ELLIPSIS == 6);
  if (v->kind <= VAL_ELLIPSIS || v->kind == VAL_SYMBOL || v->kind == VAL_DEVICE ||
      v->kind == VAL_PROXY || v->kind == VAL_ATTR_PROXY || v->kind == VAL_TENSOR ||
      v->kind == VAL_PARAMETER)
    return TRUE;
  if ((v->kind != VAL_TUPLE && v->kind != VAL_LIST) || depth == 0 || v->seq.range != NULL)
    return FALSE;
  for (guint i = 0; i < v->seq.items->len; i++)
    if (!inert_value (v->seq.items->pdata[i], depth - 1))
      return FALSE;
  return TRUE;
}

static gboolean
inert_args (const PtrVec *args,
            const StrMap *kwargs)
{
  for (guint i = 0; args != NULL && i < args->len; i++)
    if (!inert_value (args->pdata[i], 2))
      return FALSE;
  for (guint i = 0; kwargs != NULL && i < kwargs->values->len; i++)
    if (!inert_value (kwargs->values->pdata[i], 2))
      return FALSE;
  return TRUE;
}

/* None, a bool, an int or a float written as such. */
static inline gboolean
plain_number (const GraftPyExpr *e)
{
  return e->constant.kind == GRAFT_PY_CONST_NONE || e->constant.kind == GRAFT_PY_CONST_BOOL ||
         e->constant.kind == GRAFT_PY_CONST_INT || e->constant.kind == GRAFT_PY_CONST_FLOAT;
}

/* Whether call_of_names() takes @e's keywords (`F.softmax(x, dim=1)`,
 * `x.sum(dim=1)`): for a function of torch that takes them there or a
 * method, at most eight, named, each once, and names or plain numbers.
 * Apart, so that the commoner calls without keywords do not pay for it. */
static G_GNUC_NO_INLINE gboolean
plain_keywords (Tracer            *t,
                Value             *callee,
                const GraftPyExpr *e)
{
  if (e->call.n_keywords > 8 ||
      (callee->kind == VAL_PATH_FN ? !_graft_tracer_path_takes_keywords (t, callee)
                                   : callee->kind != VAL_ATTR_PROXY))
    return FALSE;
  for (guint k = 0; k < e->call.n_keywords; k++)
    {
      const GraftPyKeyword *kw = e->call.keywords[k];

      if (kw->name == NULL ||
          (kw->value->kind == GRAFT_PY_EXPR_CONSTANT ? !plain_number (kw->value)
                                                     : kw->value->kind != GRAFT_PY_EXPR_NAME))
        return FALSE;
      for (guint j = 0; j < k; j++)
        if (strcmp (e->call.keywords[j]->name, kw->name) == 0)
          return FALSE;
    }
  return TRUE;
}

/* plain_keywords()'s keywords evaluated in order, into a map in scratch
 * memory with no index and stamp 0 (no absence or position is kept for
 * it): %NULL with *@out_handled %FALSE if a name is bound to anything but
 * a traced value, %NULL with the tracer's error if a lookup fails. */
static G_GNUC_NO_INLINE StrMap *
keyword_names (Tracer            *t,
               Frame             *frame,
               const GraftPyExpr *e,
               gboolean          *out_handled)
{
  guint n_kw = e->call.n_keywords;
  gsize size = (sizeof (StrMap) + 2 * sizeof (PtrVec) + 2 * n_kw * sizeof (gpointer) + 15) &
               ~(gsize) 15;
  StrMap   *map = _graft_tracer_bump (t, size);
  PtrVec   *keys, *values;
  gpointer *items;

  /* Not zeroed: every field and item is set below (or the map is
   * dropped). */
  if (map == NULL)
    map = _graft_tracer_alloc (t, size);
  keys = (PtrVec *) (map + 1);
  values = keys + 1;
  items = (gpointer *) (values + 1);

  *keys = (PtrVec){ items, n_kw, n_kw, t };
  *values = (PtrVec){ items + n_kw, n_kw, n_kw, t };
  *map = (StrMap){ .tracer = t, .keys = keys, .values = values };
  for (guint k = 0; k < n_kw; k++)
    {
      const GraftPyExpr *a = e->call.keywords[k]->value;
      Value             *v;

      if (a->kind == GRAFT_PY_EXPR_CONSTANT)
        v = eval_constant (t, a);
      else
        {
          v = lookup (t, frame, a->name.id, a);
          if (v == NULL)
            return NULL;
          if (v->kind != VAL_PROXY)
            {
              *out_handled = FALSE;
              return NULL;
            }
        }
      items[k] = (gpointer) e->call.keywords[k]->name;
      items[n_kw + k] = v;
    }
  return map;
}

/* _graft_tracer_record() inline for the commonest case (tracing, room
 * for the node under the limit as Tracer.node_room says, a method's name
 * surely no keyword by its first byte); everything else out of line. */
static inline G_ALWAYS_INLINE Value *
record (Tracer            *t,
        GraftOp            op,
        const char        *target,
        GraftArg          *args,
        const char        *name,
        const GraftPyExpr *at)
{
  GraftNode *node;

  if (G_UNLIKELY (
          !t->tracing || t->graph == NULL || t->node_room == 0 ||
          (op == GRAFT_OP_CALL_METHOD && _graft_py_keyword_lengths[(guchar) target[0]] != 0)))
    return _graft_tracer_record (t, op, target, args, name, at);
  node = _graft_tracer_create_node (t, op, target, args, name, at);
  return node != NULL ? _graft_value_proxy (t, node) : NULL;
}

/* An argument of a traced call in the graph's form, as
 * _graft_tracer_to_arg() makes it of eval_constant()'s value: for
 * plain_number()s. */
static inline GraftArg
plain_number_arg (const GraftPyExpr *e)
{
  GraftArg arg = { .kind = GRAFT_ARG_NONE };

  g_assert (plain_number (e));
  if (e->constant.kind == GRAFT_PY_CONST_BOOL)
    {
      /* As graft_arg_init_bool(): the rest of the union cleared. */
      arg.kind = GRAFT_ARG_BOOL;
      arg.i = 0;
      arg.b = e->constant.bool_value ? TRUE : FALSE;
    }
  else if (e->constant.kind == GRAFT_PY_CONST_INT)
    {
      arg.kind = GRAFT_ARG_INT;
      arg.i = e->constant.int_value;
    }
  else if (e->constant.kind == GRAFT_PY_CONST_FLOAT)
    {
      arg.kind = GRAFT_ARG_FLOAT;
      arg.f = e->constant.float_value;
    }
  return arg;
}

/* `torch.neg(x)`, `x.sum(1)`, `torch.cat([a, b])`, `self.lin(x)`: the
 * commonest calls of a forward, a torch function, a method of a traced
 * value or a torch.nn leaf module called with names bound to traced
 * values, a list of them and plain numbers (None, a bool, an int, a
 * float); with @keywords, also the keywords plain_keywords() takes
 * (`F.softmax(x, dim=1)`, `torch.cat([a, b], dim=1)`, `x.sum(dim=1)`).
 * The names are looked up as eval_call_args() would, in order (a lookup
 * has no effect but its error), into an array on the stack, and the node
 * recorded directly: without keywords, from the arguments in the graph's
 * form made here beside (_graft_tracer_record()), so that a method's
 * numbers and a function's sole list are made values only when something
 * else needs them.  %NULL without an error when the call is not of that
 * kind: then the usual way evaluates the arguments again. */
static inline G_ALWAYS_INLINE Value *
call_of_names (Tracer            *t,
               Frame             *frame,
               Value             *callee,
               const GraftPyExpr *e,
               gboolean           keywords)
{
  gpointer argv[9];
  GraftArg tuple_items[9], list_items[8];
  Value   *list_values[8];
  PtrVec   args = { argv, 0, G_N_ELEMENTS (argv), t };
  gboolean handled = TRUE, method = callee->kind == VAL_ATTR_PROXY, proxies = TRUE;
  guint    n = e->call.args.len, n_kw = keywords ? e->call.n_keywords : 0;
  guint    n_lists = 0, list_len = 0;
  /* A method's numbers go into tuple_items alone; a function's sole
   * list into list_values until it is needed as a value (lazy_list). */
  gboolean    numbers_direct = method && n_kw == 0;
  gboolean    lazy_list = FALSE;
  gboolean    scratch = FALSE; /* a value made in the arena since the mark */
  GraftOp     op;
  const char *target, *name = NULL;
  StrMap     *kwargs = NULL;
  ArenaMark   mark;
  guint       n_kept;
  Value      *result;

  if (n + method > G_N_ELEMENTS (argv) || t->depth >= GRAFT_MAX_EVAL_DEPTH)
    return NULL;
  if (G_UNLIKELY (n_kw > 0) && !plain_keywords (t, callee, e))
    return NULL;
  if (method)
    {
      /* A magic method (`x.__add__(y)`) or a member (`x.keys()`) is
       * Proxy's own, and an attribute of an attribute needs its getattr
       * node first. */
      if ((callee->attr.attr[0] == '_' && callee->attr.attr[1] == '_') ||
          callee->attr.base->kind != VAL_PROXY ||
          ((callee->attr.attr[0] == 'k' || callee->attr.attr[0] == 'n' ||
            callee->attr.attr[0] == 't') &&
           _graft_tracer_proxy_member (callee->attr.attr)))
        return NULL;
      tuple_items[args.len] = (GraftArg){ .kind = GRAFT_ARG_NODE, .node = callee->attr.base->node };
      argv[args.len++] = callee->attr.base;
    }
  else if (n == 0)
    return NULL;
  for (guint i = 0; i < n; i++)
    {
      const GraftPyExpr *a = e->call.args.items[i];

      if (a->kind == GRAFT_PY_EXPR_LIST)
        {
          /* (At most one: two go the usual way.) */
          if (a->sequence.elts.len == 0 || a->sequence.elts.len > 8 ||
              t->depth + 1 >= GRAFT_MAX_EVAL_DEPTH || n_lists++ > 0)
            return NULL;
          for (guint k = 0; k < a->sequence.elts.len; k++)
            if (a->sequence.elts.items[k]->kind != GRAFT_PY_EXPR_NAME)
              return NULL;
        }
      else if (a->kind == GRAFT_PY_EXPR_CONSTANT ? !plain_number (a)
                                                 : a->kind != GRAFT_PY_EXPR_NAME)
        return NULL;
    }
  mark = _graft_tracer_mark (t);
  n_kept = t->n_kept;
  for (guint i = 0; i < n; i++)
    {
      const GraftPyExpr *a = e->call.args.items[i];
      Value             *v;

      if (a->kind == GRAFT_PY_EXPR_CONSTANT)
        {
          proxies = FALSE;
          if (numbers_direct)
            {
              tuple_items[args.len] = plain_number_arg (a);
              v = NULL;
            }
          else
            {
              v = eval_constant (t, a);
              scratch = TRUE;
            }
        }
      else if (a->kind == GRAFT_PY_EXPR_LIST)
        {
          /* eval_sequence()'s list, of traced values only. */
          list_len = a->sequence.elts.len;
          proxies = FALSE;
          for (guint k = 0; k < list_len; k++)
            {
              const GraftPyExpr *item = a->sequence.elts.items[k];
              Value             *iv = lookup (t, frame, item->name.id, item);

              if (iv == NULL)
                return NULL;
              if (iv->kind != VAL_PROXY)
                {
                  handled = FALSE;
                  break;
                }
              list_values[k] = iv;
              list_items[k] = (GraftArg){ .kind = GRAFT_ARG_NODE, .node = iv->node };
            }
          if (!handled)
            break;
          tuple_items[args.len] =
              (GraftArg){ .kind = GRAFT_ARG_LIST, .n = list_len, .items = list_items };
          lazy_list = n == 1 && !method && n_kw == 0 && callee->kind == VAL_PATH_FN;
          if (lazy_list)
            v = NULL;
          else
            {
              v = _graft_value_seq (t, VAL_LIST, list_len);
              scratch = TRUE;
              for (guint k = 0; k < list_len; k++)
                _graft_vec_add (v->seq.items, list_values[k]);
            }
        }
      else
        {
          v = lookup (t, frame, a->name.id, a);
          if (v == NULL)
            return NULL;
          if (v->kind != VAL_PROXY)
            {
              handled = FALSE;
              break;
            }
          tuple_items[args.len] = (GraftArg){ .kind = GRAFT_ARG_NODE, .node = v->node };
        }
      argv[args.len++] = v;
    }
  if (G_UNLIKELY (n_kw > 0) && handled)
    {
      kwargs = keyword_names (t, frame, e, &handled);
      if (kwargs == NULL && t->error != NULL)
        return NULL;
    }
  if (!handled)
    result = NULL;
  else if (method && n_kw == 0)
    {
      op = GRAFT_OP_CALL_METHOD;
      target = callee->attr.attr;
      goto direct;
    }
  else if (method)
    result = _graft_tracer_make_node (t, GRAFT_OP_CALL_METHOD, callee->attr.attr, &args, kwargs,
                                      NULL, e);
  else if (callee->kind == VAL_OBJECT)
    result = _graft_tracer_call_leaf (t, callee, &args, NULL, e);
  else if (kwargs == NULL && callee->path_fn.resolved != NULL &&
           ((const ResolvedHead *) callee->path_fn.resolved)->direct_target != NULL &&
           (proxies ? (((const ResolvedHead *) callee->path_fn.resolved)->proxies_passed &
                       (1u << args.len))
                    : (lazy_list && list_len < 32 &&
                       (((const ResolvedHead *) callee->path_fn.resolved)->lists_passed &
                        (1u << list_len)))))
    {
      /* What _graft_tracer_call_path_direct() does with traced values
       * alone, or one list of them, once its check passed as many: the
       * node recorded. */
      const ResolvedHead *d = (const ResolvedHead *) callee->path_fn.resolved;

      t->static_text = TRUE; /* the table's text */
      op = GRAFT_OP_CALL_FUNCTION;
      target = d->direct_target;
      name = d->direct_name;
      goto direct;
    }
  else
    {
      if (lazy_list)
        {
          Value *v = _graft_value_seq (t, VAL_LIST, list_len);

          for (guint k = 0; k < list_len; k++)
            _graft_vec_add (v->seq.items, list_values[k]);
          argv[0] = v;
        }
      result = _graft_tracer_call_path_direct (t, callee, &args, proxies, kwargs, e, &handled);
    }
  if (!handled)
    {
      g_assert (result == NULL && t->error == NULL);
      if (t->n_kept == n_kept)
        _graft_tracer_release (t, mark);
      return NULL;
    }
  /* As eval_call() does: the constants made on the way are scratch
   * (none when the proxy is the first thing made since the mark). */
  if (result != NULL && result->kind == VAL_PROXY && t->n_kept == n_kept &&
      !(t->chunk == mark.chunk && (char *) result == mark.chunk + mark.used))
    {
      GraftNode *node = result->node;

      _graft_tracer_release (t, mark);
      result = _graft_value_proxy (t, node);
    }
  return result;

direct:
  /* The node from tuple_items; when nothing was made on the way, the
   * proxy is the only thing since the mark (or the first of a block
   * begun since): nothing to give back. */
  {
    GraftArg tuple = { .kind = GRAFT_ARG_TUPLE, .n = args.len, .items = tuple_items };

    GraftNode *node;

    result = record (t, op, target, &tuple, name, e);
    if (!scratch || result == NULL || t->n_kept != n_kept ||
        (t->chunk == mark.chunk && (char *) result == mark.chunk + mark.used))
      return result;
    node = result->node; /* (before the proxy is given back too) */
    _graft_tracer_release (t, mark);
    return _graft_value_proxy (t, node);
  }
}

/* call_of_names() of a call with keywords, apart: the commoner calls
 * without are made by a copy that has nothing of them. */
static G_GNUC_NO_INLINE Value *
call_of_names_with_keywords (Tracer            *t,
                             Frame             *frame,
                             Value             *callee,
                             const GraftPyExpr *e)
{
  return call_of_names (t, frame, callee, e, TRUE);
}

static inline G_ALWAYS_INLINE Value *call_callee (Tracer            *t,
                                                  Frame             *frame,
                                                  Value             *callee,
                                                  const GraftPyExpr *e);

/* Python 3.11 and 3.13 place an error of an attribute @attr that spans
 * lines (`x \` newline `.foo`), and of the method call @at made through
 * it, at the attribute's name (its line and column) rather than where
 * the expression starts: the tracer's error placed at @at's span moves
 * there (an error placed elsewhere, in an argument or a called
 * function's body, stays). */
static void
place_at_attribute_name (Tracer            *t,
                         const GraftPyExpr *attr,
                         const GraftPyExpr *at)
{
  guint line, column, end_line, end_column;
  guint e_line, e_column, e_end_line, e_end_column;
  gsize name_length = strlen (attr->attribute.attr);

  if (t->error == NULL || attr->end < attr->start + name_length)
    return;
  graft_source_locate (t->source, attr->start, &line, &column);
  graft_source_locate (t->source, attr->end, &end_line, &end_column);
  if (line == end_line ||
      !graft_error_get_location (t->error, NULL, &e_line, &e_column, &e_end_line, &e_end_column))
    return;
  graft_source_locate (t->source, at->start, &line, &column);
  graft_source_locate (t->source, at->end, &end_line, &end_column);
  if (e_line != line || e_column != column || e_end_line != end_line || e_end_column != end_column)
    return;
  graft_error_move_to_offset (t->error, t->source, attr->end - name_length, at->end);
  t->error_start = attr->end - name_length;
  t->error_end = at->end;
  t->error_span_of = t->error;
}

static inline G_ALWAYS_INLINE Value *
eval_call (Tracer            *t,
           Frame             *frame,
           const GraftPyExpr *e)
{
  Value *callee;

  /* super() with no arguments needs the calling method. */
  if (e->call.func->kind == GRAFT_PY_EXPR_NAME && strcmp (e->call.func->name.id, "super") == 0 &&
      e->call.args.len == 0 && _graft_strmap_get (&frame->globals->vars, "super") == NULL)
    return make_super (t, frame, e);

  if (e->call.func->kind == GRAFT_PY_EXPR_ATTRIBUTE &&
      e->call.func->attribute.value->kind == GRAFT_PY_EXPR_NAME &&
      t->depth + 1 < GRAFT_MAX_EVAL_DEPTH &&
      (callee = outside_recent (t, frame, e->call.func->attribute.value->name.id)) != NULL &&
      callee->kind == VAL_PYMODULE)
    {
      /* `torch.neg` in a streamed forward: eval_attribute() of a module
       * name that Tracer.outside_recent answers (which makes sure the
       * frame does not hold it), without the frame's lookup first. */
      t->depth++;
      callee = module_attr (t, callee, e->call.func->attribute.attr, e->call.func);
      t->depth--;
    }
  else if (e->call.func->kind == GRAFT_PY_EXPR_ATTRIBUTE && t->depth < GRAFT_MAX_EVAL_DEPTH)
    {
      /* `torch.neg`, `h.sum`: _graft_tracer_eval() without the call (no
       * error is set here, and the depth is checked as it would be). */
      t->depth++;
      callee = eval_attribute (t, frame, e->call.func);
      t->depth--;
    }
  else
    callee = _graft_tracer_eval (t, frame, e->call.func);
  if (callee == NULL)
    return NULL;
  callee = call_callee (t, frame, callee, e);
  if (G_UNLIKELY (callee == NULL) && e->call.func->kind == GRAFT_PY_EXPR_ATTRIBUTE)
    place_at_attribute_name (t, e->call.func, e);
  return callee;
}

/* eval_call() once the callee is known. */
static inline G_ALWAYS_INLINE Value *
call_callee (Tracer            *t,
             Frame             *frame,
             Value             *callee,
             const GraftPyExpr *e)
{
  PtrVec *args;
  StrMap *kwargs;

  /* (A method whose name holds a NUL byte fails in call_object().) */
  if (callee->kind == VAL_PATH_FN ||
      (callee->kind == VAL_ATTR_PROXY && G_LIKELY (_graft_tracer_attr_len (t, callee) < 0)) ||
      (callee->kind == VAL_OBJECT && callee->obj->kind == OBJ_LEAF && e->call.n_keywords == 0))
    {
      Value *result = e->call.n_keywords == 0
                          ? call_of_names (t, frame, callee, e, FALSE)
                          : call_of_names_with_keywords (t, frame, callee, e);

      if (result != NULL || t->error != NULL)
        return result;
    }
  if (makes_node_only (callee) && plain_call_args (e))
    {
      /* The arguments and what the call made on the way are scratch:
       * given back, the result moved to a proxy of its own. */
      ArenaMark mark = _graft_tracer_mark (t);
      guint     n_kept = t->n_kept;
      Value    *result;

      gboolean inert;

      if (!eval_call_args (t, frame, e, &args, &kwargs))
        return NULL;
      inert = inert_args (args, kwargs);
      result = _graft_tracer_call (t, callee, args, kwargs, e);
      if (inert && result != NULL && result->kind == VAL_PROXY && t->n_kept == n_kept)
        {
          GraftNode *node = result->node;

          _graft_tracer_release (t, mark);
          result = _graft_value_proxy (t, node);
        }
      return result;
    }
  if (!eval_call_args (t, frame, e, &args, &kwargs))
    return NULL;
  return _graft_tracer_call (t, callee, args, kwargs, e);
}

/* Evaluates a def's or lambda's default values, where it is defined, as
 * Python does. */
gboolean
_graft_tracer_eval_defaults (Tracer                 *t,
                             Frame                  *frame,
                             const GraftPyArguments *params,
                             Function               *fn)
{
  guint n_pos = params->n_posonly + params->n_args;

  fn->defaults = _graft_tracer_alloc (t, sizeof (Value *) * (n_pos + 1));
  fn->kw_defaults = _graft_tracer_alloc (t, sizeof (Value *) * (params->n_kwonly + 1));
  for (guint i = 0; i < n_pos; i++)
    {
      const GraftPyArg *p =
          i < params->n_posonly ? params->posonly[i] : params->args[i - params->n_posonly];

      if (p->default_value != NULL &&
          (fn->defaults[i] = _graft_tracer_eval (t, frame, p->default_value)) == NULL)
        return FALSE;
    }
  for (guint i = 0; i < params->n_kwonly; i++)
    if (params->kwonly[i]->default_value != NULL &&
        (fn->kw_defaults[i] = _graft_tracer_eval (t, frame, params->kwonly[i]->default_value)) ==
            NULL)
      return FALSE;
  return TRUE;
}

static Value *
eval_comprehension (Tracer            *t,
                    Frame             *frame,
                    const GraftPyExpr *e,
                    guint              level,
                    Frame             *inner,
                    Value             *out)
{
  const GraftPyComprehension *gen;
  Value                      *items;
  LazyIter                    lazy;
  guint                       n_start;

  if (level == e->comp.n_generators)
    {
      if (e->kind == GRAFT_PY_EXPR_DICT_COMP)
        {
          Value *k = _graft_tracer_eval (t, inner, e->comp.elt);
          Value *v = k != NULL ? _graft_tracer_eval (t, inner, e->comp.value) : NULL;

          if (v == NULL)
            return NULL;
          _graft_dict_set (t, out, k, v);
        }
      else
        {
          Value *v = _graft_tracer_eval (t, inner, e->comp.elt);

          if (v == NULL)
            return NULL;
          if (out->kind == VAL_SET)
            {
              if (!_graft_set_add (t, out, v, e->comp.elt))
                return NULL;
            }
          else
            _graft_value_seq_add (out, v);
        }
      return out;
    }
  gen = e->comp.generators[level];
  /* The first iterable is evaluated in the enclosing scope, the rest in
   * the comprehension's own. */
  items = _graft_tracer_loop_items (t, level == 0 ? frame : inner, gen->iter, &lazy);
  if (items == NULL)
    return NULL;
  n_start = _graft_tracer_loop_len (&lazy, items);
  for (guint i = 0; i < _graft_tracer_loop_len (&lazy, items); i++)
    {
      gboolean keep = TRUE;
      Value   *item;

      if (++t->loop_steps > GRAFT_MAX_LOOP_STEPS)
        return _graft_tracer_fail_at (t, gen->iter, GRAFT_PARSE_ERROR_LIMIT,
                                      "the loop runs too many times to unroll");
      if (_graft_tracer_loop_grew (t, &lazy, n_start, i, gen->iter))
        return NULL;
      item = _graft_tracer_loop_item (t, &lazy, _graft_tracer_loop_raw (t, &lazy, items, i),
                                      gen->iter);
      if (item == NULL && _graft_tracer_loop_ran_out (&lazy))
        return out; /* its end's steps are taken */
      if (item == NULL || !_graft_tracer_assign (t, inner, gen->target, item))
        return NULL;
      for (guint k = 0; k < gen->ifs.len && keep; k++)
        {
          Value *c = _graft_tracer_eval (t, inner, gen->ifs.items[k]);

          if (c == NULL || !_graft_tracer_truth (t, c, gen->ifs.items[k], &keep))
            return NULL;
        }
      if (keep && eval_comprehension (t, frame, e, level + 1, inner, out) == NULL)
        return NULL;
    }
  if (!_graft_tracer_loop_end (t, &lazy, gen->iter))
    return NULL;
  return out;
}

/* `torch.neg` names the same thing wherever it is written: look a module's
 * attributes up once per module and name (building `torch.neg` and
 * resolving it against the tables costs far more than two hash lookups);
 * module_attr() when Tracer.attr_recent does not answer (slot @r). */
static G_GNUC_NO_INLINE Value *
module_attr_slow (Tracer            *t,
                  Value             *module,
                  const char        *name,
                  const GraftPyExpr *at,
                  guint              r)
{
  GHashTable *attrs;
  Value      *v;

  attrs = g_hash_table_lookup (t->attr_cache, module->path);
  if (attrs == NULL)
    {
      attrs = g_hash_table_new (g_str_hash, g_str_equal);
      g_hash_table_insert (t->attr_cache, (gpointer) _graft_tracer_strdup (t, module->path, -1),
                           attrs);
    }
  else if ((v = g_hash_table_lookup (attrs, name)) != NULL)
    goto found;
  v = _graft_tracer_getattr (t, module, name, at);
  if (v == NULL)
    return NULL;
  g_hash_table_insert (attrs, (gpointer) _graft_tracer_strdup (t, name, -1), v);
  t->n_kept++;
found:
  t->attr_recent[r] = (AttrRecent){ .key = { module->path, name }, .value = v };
  return v;
}

/* @module's attribute @name, Tracer.attr_recent's answer inline. */
static inline G_ALWAYS_INLINE Value *
module_attr (Tracer            *t,
             Value             *module,
             const char        *name,
             const GraftPyExpr *at)
{
  guint r = (guint) ((GPOINTER_TO_SIZE (module->path) >> 4) ^ (GPOINTER_TO_SIZE (name) >> 3)) %
            G_N_ELEMENTS (t->attr_recent);

  if (_graft_recent_key_is (&t->attr_recent[r].key, module->path, name))
    return t->attr_recent[r].value;
  return module_attr_slow (t, module, name, at, r);
}

/* eval_attribute() once @e's value is known to be @a. */
static inline G_ALWAYS_INLINE Value *
attribute_of (Tracer            *t,
              Value             *a,
              const GraftPyExpr *e)
{
  if (a->kind == VAL_PYMODULE)
    return module_attr (t, a, e->attribute.attr, e);
  if (_graft_value_is_proxy (a))
    {
      const char *name = e->attribute.attr;
      Value      *v;

      /* The Proxy's own attributes (`x.T.root`, `x.__module__`) start
       * with one of these; everything else (`x.view`, `x.shape`) is an
       * Attribute, made here without a call. */
      if (G_UNLIKELY (name[0] == '_' || (name[0] == 'n' && name[1] == 'o') ||
                      (a->kind == VAL_ATTR_PROXY &&
                       (name[0] == 'r' || name[0] == 'a' || a->attr.attr[0] == 'n'))))
        return _graft_tracer_proxy_getattr (t, a, name, TRUE, e);
      /* Without the copy of the name: the syntax tree's names live as
       * long as the tracer, as frames' keys do. */
      v = _graft_value_new (t, VAL_ATTR_PROXY);
      v->attr.base = a;
      v->attr.attr = name;
      return v;
    }
  return _graft_tracer_getattr (t, a, e->attribute.attr, e);
}

static Value *
eval_attribute (Tracer            *t,
                Frame             *frame,
                const GraftPyExpr *e)
{
  Value *a;

  a = eval_operand (t, frame, e->attribute.value);
  if (a == NULL)
    return NULL;
  a = attribute_of (t, a, e);
  if (G_UNLIKELY (a == NULL))
    place_at_attribute_name (t, e, e);
  return a;
}

static Value *
eval_subscript (Tracer            *t,
                Frame             *frame,
                const GraftPyExpr *e)
{
  Value *a, *b;

  a = eval_operand (t, frame, e->subscript.value);
  if (a == NULL)
    return NULL;
  b = eval_operand (t, frame, e->subscript.slice);
  if (b == NULL)
    return NULL;
  return _graft_tracer_subscript (t, a, b, e);
}

static Value *
eval_slice (Tracer            *t,
            Frame             *frame,
            const GraftPyExpr *e)
{
  Value *v;

  v = _graft_value_new (t, VAL_SLICE);
  v->slice.start =
      e->slice.lower != NULL ? _graft_tracer_eval (t, frame, e->slice.lower) : _graft_value_none ();
  v->slice.stop = v->slice.start != NULL && e->slice.upper != NULL
                      ? _graft_tracer_eval (t, frame, e->slice.upper)
                      : _graft_value_none ();
  v->slice.step = v->slice.stop != NULL && e->slice.step != NULL
                      ? _graft_tracer_eval (t, frame, e->slice.step)
                      : _graft_value_none ();
  if (v->slice.start == NULL || v->slice.stop == NULL || v->slice.step == NULL)
    return NULL;
  return v;
}

static Value *
eval_bin_op (Tracer            *t,
             Frame             *frame,
             const GraftPyExpr *e)
{
  Value *a, *b;

  a = eval_operand (t, frame, e->bin_op.left);
  if (a == NULL)
    return NULL;
  b = eval_operand (t, frame, e->bin_op.right);
  if (b == NULL)
    return NULL;
  return _graft_tracer_binop (t, e->bin_op.op, a, b, e);
}

static Value *
eval_unary_op (Tracer            *t,
               Frame             *frame,
               const GraftPyExpr *e)
{
  Value *a;

  a = eval_operand (t, frame, e->unary_op.operand);
  if (a == NULL)
    return NULL;
  return _graft_tracer_unary (t, e->unary_op.op, a, e);
}

/* `and` and `or`: the first operand that decides, or the last. */
static Value *
eval_bool_op (Tracer            *t,
              Frame             *frame,
              const GraftPyExpr *e)
{
  Value   *a;
  gboolean truth;

  for (guint i = 0; i < e->bool_op.values.len; i++)
    {
      a = _graft_tracer_eval (t, frame, e->bool_op.values.items[i]);
      if (a == NULL)
        return NULL;
      if (i + 1 == e->bool_op.values.len)
        return a;
      if (_graft_value_is_proxy (a))
        return _graft_tracer_fail (
            t, e->start, e->end, GRAFT_PARSE_ERROR_TRACE,
            "'%s' needs the truth value of a traced value, which is not known while tracing %s",
            e->bool_op.op == GRAFT_PY_BOOL_AND ? "and" : "or", _graft_tracer_control_flow_reason);
      if (!_graft_tracer_truth (t, a, e->bool_op.values.items[i], &truth))
        return NULL;
      if (truth == (e->bool_op.op == GRAFT_PY_BOOL_OR))
        return a;
    }
  return _graft_value_none ();
}

/* A comparison; `a < b < c` is `a < b and b < c`. */
static Value *
eval_compare (Tracer            *t,
              Frame             *frame,
              const GraftPyExpr *e)
{
  Value   *a, *b, *v;
  gboolean truth;

  a = eval_operand (t, frame, e->compare.left);
  if (a == NULL)
    return NULL;
  v = NULL;
  for (guint i = 0; i < e->compare.comparators.len; i++)
    {
      b = eval_operand (t, frame, e->compare.comparators.items[i]);
      if (b == NULL)
        return NULL;
      if (i > 0)
        {
          /* `a < b < c` is `a < b and b < c`: it needs a truth value. */
          if (_graft_value_is_proxy (v))
            return _graft_tracer_fail (t, e->start, e->end, GRAFT_PARSE_ERROR_TRACE,
                                       "a chained comparison needs the truth value of a traced "
                                       "comparison %s",
                                       _graft_tracer_control_flow_reason);
          if (!_graft_tracer_truth (t, v, e, &truth))
            return NULL;
          if (!truth)
            return v;
        }
      v = _graft_tracer_compare (t, e->compare.ops[i], a, b, e);
      if (v == NULL)
        return NULL;
      a = b;
    }
  return v;
}

static Value *
eval_if_exp (Tracer            *t,
             Frame             *frame,
             const GraftPyExpr *e)
{
  Value   *a;
  gboolean truth;

  a = _graft_tracer_eval (t, frame, e->if_exp.test);
  if (a == NULL)
    return NULL;
  if (_graft_value_is_proxy (a))
    return _graft_tracer_fail (t, e->if_exp.test->start, e->if_exp.test->end,
                               GRAFT_PARSE_ERROR_TRACE,
                               "a conditional expression cannot depend on a traced value %s",
                               _graft_tracer_control_flow_reason);
  if (!_graft_tracer_truth (t, a, e->if_exp.test, &truth))
    return NULL;
  return _graft_tracer_eval (t, frame, truth ? e->if_exp.body : e->if_exp.orelse);
}

static Value *
eval_lambda (Tracer            *t,
             Frame             *frame,
             const GraftPyExpr *e)
{
  Value    *v;
  Function *fn = _graft_tracer_alloc (t, sizeof (Function));

  fn->lambda = e;
  fn->name = "<lambda>";
  fn->closure = frame;
  if (!_graft_tracer_eval_defaults (t, frame, e->lambda.args, fn))
    return NULL;
  v = _graft_value_new (t, VAL_FUNCTION);
  v->fn = fn;
  return v;
}

/* A tuple, list or set display. */
static Value *
eval_sequence (Tracer            *t,
               Frame             *frame,
               const GraftPyExpr *e)
{
  Value *v;

  if (e->kind == GRAFT_PY_EXPR_SET)
    {
      Value *items = _graft_value_seq (t, VAL_LIST, e->sequence.elts.len);

      if (!eval_items (t, frame, &e->sequence.elts, items->seq.items))
        return NULL;
      v = _graft_value_set (t, FALSE);
      for (guint i = 0; i < items->seq.items->len; i++)
        if (!_graft_set_add (t, v, items->seq.items->pdata[i], e))
          return NULL;
      return v;
    }
  v = _graft_value_seq (t, e->kind == GRAFT_PY_EXPR_TUPLE ? VAL_TUPLE : VAL_LIST,
                        e->sequence.elts.len);
  if (!eval_items (t, frame, &e->sequence.elts, v->seq.items))
    return NULL;
  return v;
}

static Value *
eval_dict (Tracer            *t,
           Frame             *frame,
           const GraftPyExpr *e)
{
  Value *a, *b, *v;

  v = _graft_value_dict (t);
  for (guint i = 0; i < e->dict.values.len; i++)
    {
      if (e->dict.keys.items[i] == NULL)
        {
          b = _graft_tracer_eval (t, frame, e->dict.values.items[i]);
          if (b == NULL)
            return NULL;
          if (b->kind != VAL_DICT)
            return _graft_tracer_fail_at (t, e->dict.values.items[i], GRAFT_PARSE_ERROR_TRACE,
                                          "only a dict can be unpacked with **");
          for (guint k = 0; k < b->dict.keys->len; k++)
            _graft_dict_set (t, v, b->dict.keys->pdata[k], b->dict.values->pdata[k]);
          continue;
        }
      a = _graft_tracer_eval (t, frame, e->dict.keys.items[i]);
      if (a == NULL)
        return NULL;
      /* A proxy is hashable (by identity): such a dict is fine until
       * it is passed to the graph (_graft_tracer_to_arg()). */
      b = _graft_tracer_eval (t, frame, e->dict.values.items[i]);
      if (b == NULL)
        return NULL;
      _graft_dict_set (t, v, a, b);
    }
  return v;
}

/* One `for` of a running generator expression: the loop's items and its
 * step. */
typedef struct
{
  Value   *items;
  LazyIter lazy;
  guint    i;
  guint    n_start;
} GenLevel;

/* A generator expression as it runs: Python's is lazy, each next() runs
 * its loops as far as the next item (so the nodes of the items interleave
 * with those of whoever takes them, and `any()` stops early); its first
 * iterable is evaluated where it is written, the rest as they are
 * reached. */
struct _GenExp
{
  const GraftPyExpr *expr;
  Frame             *frame;  /* Borrowed: where it was written */
  Frame             *inner;  /* its own scope */
  GenLevel          *levels; /* one per `for`, in the arena */
  guint              depth;  /* the levels under way (0 once it ended) */
  gboolean           running;
};

/* Starts level @level of @g: its iterable evaluated, no step taken. */
static gboolean
genexp_level_begin (Tracer *t,
                    GenExp *g,
                    guint   level)
{
  GenLevel *l = &g->levels[level];

  l->items = _graft_tracer_loop_items (t, level == 0 ? g->frame : g->inner,
                                       g->expr->comp.generators[level]->iter, &l->lazy);
  if (l->items == NULL)
    return FALSE;
  l->i = 0;
  l->n_start = _graft_tracer_loop_len (&l->lazy, l->items);
  g->depth = level + 1;
  return TRUE;
}

/* The next item of the generator expression @g: its innermost loop's
 * next step that the conditions keep, the loops that ran out left for the
 * next step of the one around them. */
static Value *
genexp_step (Tracer   *t,
             GenExp   *g,
             gboolean *out_done)
{
  const GraftPyExpr *e = g->expr;

  while (g->depth > 0)
    {
      guint                       level = g->depth - 1;
      GenLevel                   *l = &g->levels[level];
      const GraftPyComprehension *gen = e->comp.generators[level];
      gboolean                    keep = TRUE, ran_out = FALSE;
      Value                      *item;

      if (l->i >= _graft_tracer_loop_len (&l->lazy, l->items))
        {
          if (!_graft_tracer_loop_end (t, &l->lazy, gen->iter))
            return NULL;
          ran_out = TRUE;
        }
      else
        {
          if (++t->loop_steps > GRAFT_MAX_LOOP_STEPS)
            return _graft_tracer_fail_at (t, gen->iter, GRAFT_PARSE_ERROR_LIMIT,
                                          "the loop runs too many times to unroll");
          if (_graft_tracer_loop_grew (t, &l->lazy, l->n_start, l->i, gen->iter))
            return NULL;
          item = _graft_tracer_loop_item (
              t, &l->lazy, _graft_tracer_loop_raw (t, &l->lazy, l->items, l->i), gen->iter);
          l->i++;
          if (item == NULL && _graft_tracer_loop_ran_out (&l->lazy))
            ran_out = TRUE; /* its end's steps are taken */
          else if (item == NULL || !_graft_tracer_assign (t, g->inner, gen->target, item))
            return NULL;
        }
      if (ran_out)
        {
          g->depth--;
          continue;
        }
      for (guint k = 0; k < gen->ifs.len && keep; k++)
        {
          Value *c = _graft_tracer_eval (t, g->inner, gen->ifs.items[k]);

          if (c == NULL || !_graft_tracer_truth (t, c, gen->ifs.items[k], &keep))
            return NULL;
        }
      if (!keep)
        continue;
      if (level + 1 == e->comp.n_generators)
        return _graft_tracer_eval (t, g->inner, e->comp.elt);
      if (!genexp_level_begin (t, g, level + 1))
        return NULL;
    }
  *out_done = TRUE;
  return NULL;
}

/**
 * _graft_tracer_genexp_next:
 * @it: a generator expression's iterator (its lazy's what is 'G')
 * @out_done: (out): set when it has no item left
 *
 * next() of a generator expression.  An error raised while it runs ends
 * it, as Python's generator is finished by an exception.
 *
 * Returns: (nullable): the item; %NULL at the end or with the tracer's error
 */
Value *
_graft_tracer_genexp_next (Tracer            *t,
                           Value             *it,
                           const GraftPyExpr *at,
                           gboolean          *out_done)
{
  GenExp *g = it->iter.lazy->gen;
  Value  *v;

  *out_done = FALSE;
  if (it->iter.ended)
    {
      *out_done = TRUE;
      return NULL;
    }
  if (g->running)
    return _graft_tracer_raise (t, "ValueError", at->start, at->end,
                                "generator already executing");
  g->running = TRUE;
  v = genexp_step (t, g, out_done);
  g->running = FALSE;
  if (v == NULL)
    {
      it->iter.ended = TRUE;
      g->depth = 0;
    }
  return v;
}

/* A generator expression: an iterator that runs as next() asks
 * (_graft_tracer_genexp_next()), its first iterable evaluated now. */
static Value *
eval_generator_exp (Tracer            *t,
                    Frame             *frame,
                    Frame             *inner,
                    const GraftPyExpr *e)
{
  GenExp   *g = _graft_tracer_alloc (t, sizeof (GenExp));
  LazyIter *lazy = _graft_tracer_alloc (t, sizeof (LazyIter));

  *g = (GenExp){ .expr = e, .frame = frame, .inner = inner };
  g->levels = _graft_tracer_alloc (t, e->comp.n_generators * sizeof (GenLevel));
  if (!genexp_level_begin (t, g, 0))
    return NULL;
  *lazy = (LazyIter){ .what = 'G', .gen = g };
  return _graft_value_iter (t, _graft_value_seq (t, VAL_LIST, 0), lazy, "generator");
}

/* A list, set or dict comprehension, in a scope of its own; a generator
 * expression (eval_generator_exp()). */
static Value *
eval_comprehension_expr (Tracer            *t,
                         Frame             *frame,
                         const GraftPyExpr *e)
{
  Value *v;
  Frame *inner = _graft_tracer_frame_new (t, frame, frame->globals);

  inner->fn = frame->fn;
  inner->self = frame->self;
  inner->comprehension = TRUE;
  if (e->kind == GRAFT_PY_EXPR_GENERATOR_EXP)
    return eval_generator_exp (t, frame, inner, e);
  v = e->kind == GRAFT_PY_EXPR_DICT_COMP  ? _graft_value_dict (t)
      : e->kind == GRAFT_PY_EXPR_SET_COMP ? _graft_value_set (t, FALSE)
                                          : _graft_value_seq (t, VAL_LIST, 0);
  return eval_comprehension (t, frame, e, 0, inner, v);
}

static Value *
eval_named_expr (Tracer            *t,
                 Frame             *frame,
                 const GraftPyExpr *e)
{
  Value *v;

  v = _graft_tracer_eval (t, frame, e->named_expr.value);
  /* In a comprehension the name is bound in the scope that holds it
   * (PEP 572): `[total := total + i for i in r]` sums into `total`. */
  while (frame->comprehension && frame->parent != NULL)
    frame = frame->parent;
  if (v == NULL || !_graft_tracer_assign (t, frame, e->named_expr.target, v))
    return NULL;
  return v;
}

static inline __attribute__ ((always_inline)) Value *
eval_inner (Tracer            *t,
            Frame             *frame,
            const GraftPyExpr *e)
{
  switch (e->kind)
    {
    case GRAFT_PY_EXPR_NAME:
      return lookup (t, frame, e->name.id, e);

    case GRAFT_PY_EXPR_CONSTANT:
      return eval_constant (t, e);

    case GRAFT_PY_EXPR_JOINED_STR:
      return eval_joined_str (t, frame, e);

    case GRAFT_PY_EXPR_ATTRIBUTE:
      return eval_attribute (t, frame, e);

    case GRAFT_PY_EXPR_SUBSCRIPT:
      return eval_subscript (t, frame, e);

    case GRAFT_PY_EXPR_SLICE:
      return eval_slice (t, frame, e);

    case GRAFT_PY_EXPR_CALL:
      return eval_call (t, frame, e);

    case GRAFT_PY_EXPR_BIN_OP:
      return eval_bin_op (t, frame, e);

    case GRAFT_PY_EXPR_UNARY_OP:
      return eval_unary_op (t, frame, e);

    case GRAFT_PY_EXPR_BOOL_OP:
      return eval_bool_op (t, frame, e);

    case GRAFT_PY_EXPR_COMPARE:
      return eval_compare (t, frame, e);

    case GRAFT_PY_EXPR_IF_EXP:
      return eval_if_exp (t, frame, e);

    case GRAFT_PY_EXPR_LAMBDA:
      return eval_lambda (t, frame, e);

    case GRAFT_PY_EXPR_TUPLE:
    case GRAFT_PY_EXPR_LIST:
    case GRAFT_PY_EXPR_SET:
      return eval_sequence (t, frame, e);

    case GRAFT_PY_EXPR_DICT:
      return eval_dict (t, frame, e);

    case GRAFT_PY_EXPR_LIST_COMP:
    case GRAFT_PY_EXPR_GENERATOR_EXP:
    case GRAFT_PY_EXPR_DICT_COMP:
    case GRAFT_PY_EXPR_SET_COMP:
      return eval_comprehension_expr (t, frame, e);

    case GRAFT_PY_EXPR_STARRED:
      return _graft_tracer_fail_at (t, e, GRAFT_PARSE_ERROR_SYNTAX,
                                    "can't use starred expression here");

    case GRAFT_PY_EXPR_NAMED_EXPR:
      return eval_named_expr (t, frame, e);

    case GRAFT_PY_EXPR_FORMATTED_VALUE:
      return _graft_tracer_fail_at (t, e, GRAFT_PARSE_ERROR_SYNTAX,
                                    "a formatted value outside an f-string");

    case GRAFT_PY_EXPR_YIELD:
    case GRAFT_PY_EXPR_YIELD_FROM:
      return _graft_tracer_fail_at (t, e, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                    "generators cannot be traced");

    case GRAFT_PY_EXPR_AWAIT:
    default:
      return _graft_tracer_fail_at (t, e, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                    "'await' cannot be traced");
    }
}

Value *
_graft_tracer_eval (Tracer            *t,
                    Frame             *frame,
                    const GraftPyExpr *e)
{
  Value *v;

  if (t->error != NULL)
    return NULL;
  if (++t->depth > GRAFT_MAX_EVAL_DEPTH)
    {
      t->depth--;
      return _graft_tracer_fail_at (
          t, e, GRAFT_PARSE_ERROR_LIMIT,
          "the expression nests too deeply to evaluate (more than 4000 levels, as in a chain of "
          "4000 operators); split it into statements");
    }
  v = eval_inner (t, frame, e);
  t->depth--;
  g_assert (v != NULL || t->error != NULL);
  return v;
}

/* A streamed line's value: the commonest shapes of a forward's line,
 * `torch.f(a, [b, c])`, `torch.f(a).g()`, `a + torch.f(b) * c`, evaluated
 * here without a _graft_tracer_eval() level for each call, binary
 * operation and attribute callee.  Each step is the walk's own, in the
 * walk's order, with the walk's depth and error checks, so everything
 * else, every error included, comes out as the walk's: a shape this does
 * not know is handed to the walk where it is met. */
static Value *line_value (Tracer *t, Frame *frame, const GraftPyExpr *e);

/* eval_operand(), a call or binary operation by line_value(). */
static inline G_ALWAYS_INLINE Value *
line_operand (Tracer            *t,
              Frame             *frame,
              const GraftPyExpr *e)
{
  Value *v;

  if (t->error != NULL || t->depth >= GRAFT_MAX_EVAL_DEPTH)
    return _graft_tracer_eval (t, frame, e);
  if (e->kind == GRAFT_PY_EXPR_NAME)
    return lookup (t, frame, e->name.id, e);
  if (e->kind != GRAFT_PY_EXPR_CALL && e->kind != GRAFT_PY_EXPR_BIN_OP)
    return _graft_tracer_eval (t, frame, e);
  t->depth++;
  v = line_value (t, frame, e);
  t->depth--;
  g_assert (v != NULL || t->error != NULL);
  return v;
}

/* eval_inner() of a call or a binary operation, t->depth already one
 * deeper and no error set, as in _graft_tracer_eval(). */
static Value *
line_value (Tracer            *t,
            Frame             *frame,
            const GraftPyExpr *e)
{
  const GraftPyExpr *func, *base;
  Value             *a, *b, *callee;

  if (e->kind == GRAFT_PY_EXPR_BIN_OP)
    {
      a = line_operand (t, frame, e->bin_op.left);
      if (a == NULL)
        return NULL;
      b = line_operand (t, frame, e->bin_op.right);
      if (b == NULL)
        return NULL;
      if (a->kind == VAL_PROXY)
        {
          /* _graft_tracer_binop()'s first case, `x + y` of a traced
           * value, inline: its record(), the operands in the graph's
           * form here when they are a node and a node or a number. */
          gpointer operands[2] = { a, b };
          PtrVec   args = { operands, 2, G_N_ELEMENTS (operands), t };
          GraftArg items[2] = { { .kind = GRAFT_ARG_NODE, .node = a->node } };
          GraftArg tuple = { .kind = GRAFT_ARG_TUPLE, .n = 2, .items = items };

          t->static_text = TRUE; /* the target is a literal */
          if (b->kind == VAL_PROXY)
            items[1] = (GraftArg){ .kind = GRAFT_ARG_NODE, .node = b->node };
          else if (b->kind == VAL_INT)
            items[1] = (GraftArg){ .kind = GRAFT_ARG_INT, .i = b->i };
          else if (b->kind == VAL_FLOAT)
            items[1] = (GraftArg){ .kind = GRAFT_ARG_FLOAT, .f = b->f };
          else
            return _graft_tracer_make_node (t, GRAFT_OP_CALL_FUNCTION,
                                            _graft_tracer_binop_targets[e->bin_op.op], &args,
                                            NULL, NULL, e);
          return record (t, GRAFT_OP_CALL_FUNCTION, _graft_tracer_binop_targets[e->bin_op.op],
                         &tuple, NULL, e);
        }
      return _graft_tracer_binop (t, e->bin_op.op, a, b, e);
    }
  g_assert (e->kind == GRAFT_PY_EXPR_CALL);
  func = e->call.func;
  if (func->kind != GRAFT_PY_EXPR_ATTRIBUTE)
    return eval_call (t, frame, e);
  base = func->attribute.value;
  if (base->kind == GRAFT_PY_EXPR_CALL && t->depth < GRAFT_MAX_EVAL_DEPTH)
    {
      /* `torch.cat([a, b]).sum()`: eval_attribute() of the callee, its
       * value by line_operand(). */
      t->depth++;
      a = line_operand (t, frame, base);
      callee = a != NULL ? attribute_of (t, a, func) : NULL;
      t->depth--;
    }
  else
    return eval_call (t, frame, e);
  if (callee == NULL)
    return NULL;
  return call_callee (t, frame, callee, e);
}

/**
 * _graft_tracer_exec_assign_name:
 * @s: an assignment to one name (the caller made sure)
 *
 * _graft_tracer_exec_stmt() of @s without its dispatch, for the commonest
 * statement of a forward, its value by line_value().
 */
Flow
_graft_tracer_exec_assign_name (Tracer            *t,
                                Frame             *frame,
                                const GraftPyStmt *s)
{
  guint32            saved_start = t->span_start, saved_end = t->span_end;
  const GraftPyExpr *e = s->assign.value;
  const char        *name = s->assign.targets.items[0]->name.id;
  Value             *v;
  guint64            hash;

  /* enter_stmt() of graft-tracer-stmt.c. */
  if (++t->depth > GRAFT_MAX_EVAL_DEPTH)
    {
      t->depth--;
      _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_LIMIT,
                          "the statement nests too deeply to evaluate (more than 4000 levels of "
                          "blocks and calls)");
      return FLOW_ERROR;
    }
  t->span_start = s->start;
  t->span_end = s->end;
  /* The name's index slot loads while the value is computed; its hash
   * is not computed again to set it. */
  hash = _graft_strmap_prefetch (&frame->vars, name);
  if (e->kind != GRAFT_PY_EXPR_CALL && e->kind != GRAFT_PY_EXPR_BIN_OP)
    v = _graft_tracer_eval (t, frame, e);
  else
    v = line_operand (t, frame, e);
  if (v != NULL)
    _graft_strmap_set_inline (&_graft_tracer_binding_frame (frame, name)->vars, name, hash, v);
  t->span_start = saved_start;
  t->span_end = saved_end;
  t->depth--;
  return v != NULL ? FLOW_NORMAL : FLOW_ERROR;
}
