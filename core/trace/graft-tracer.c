/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer.c: symbolic tracing, as torch.fx's `symbolic_trace` does it
 * (`torch/fx/_symbolic_trace.py`, `torch/fx/proxy.py`), by interpreting the
 * syntax tree instead of running Python.
 *
 * The module body runs first: imports bind modules, classes and functions
 * are defined, constant assignments are evaluated, and every other
 * statement is skipped (a tutorial's own `symbolic_trace(...)` lines, its
 * prints).  Then the entry is chosen (cli.md), its class instantiated by
 * interpreting `__init__`, and `forward` is run with proxies for its
 * parameters.  Each operation on a proxy records a node; everything else is
 * evaluated.  Constructs that need the value of a proxy (control flow,
 * iteration, `len`) are errors at their place in the source, with torch.fx's
 * reason.
 *
 * This file is the entry: the module body, the choice of the entry class,
 * the placeholders for forward's parameters, and the program API of
 * graft-py-program.h.  The interpreter is split by concern: frames and
 * expressions (graft-tracer-eval.c), calls (graft-tracer-call.c),
 * statements, classes and imports (graft-tracer-stmt.c), nn.Module
 * attributes (graft-tracer-module.c), nodes, truth and iteration
 * (graft-tracer-node.c), values (graft-tracer-value.c, -bigint.c,
 * -types.c), Python's builtins (graft-tracer-builtins.c) and the methods of
 * constants and modules (graft-tracer-methods.c), operators
 * (graft-tracer-ops.c), and torch's functions (graft-tracer-torch.c, over
 * the generated graft-fx-table-*.inc, one per dialect).  Parsing is graft-py-parser.c's.
 */
#include "config.h"

#include "graft-py-program.h"
#include "graft-tracer-private.h"
#include "graft-error.h"
#include "graft-limits.h"
#include "graft-namespace.h"
#include "graft-py-parser.h"
#include "graft-source.h"

#include <string.h>

/* The span used for errors raised where no expression is at hand. */
const GraftPyExpr *
_graft_tracer_span_expr (Tracer *t)
{
  static GraftPyExpr fallback;

  fallback.start = t->span_start;
  fallback.end = t->span_end;
  return &fallback;
}

/* _graft_tracer_fail() with its arguments in @ap. */
static void
fail_valist (Tracer             *t,
             guint32             start,
             guint32             end,
             GraftParseErrorCode code,
             const char         *format,
             va_list             ap) G_GNUC_PRINTF (5, 0);

static void
fail_valist (Tracer             *t,
             guint32             start,
             guint32             end,
             GraftParseErrorCode code,
             const char         *format,
             va_list             ap)
{
  g_autofree char *message = g_strdup_vprintf (format, ap);

  graft_set_error_at_offset (&t->error, t->source, start, end, code, "%s", message);
  t->error_start = start;
  t->error_end = end;
  t->error_span_of = t->error;
  /* The errors that are torch.fx's own exceptions say so, in these words. */
  t->raised = NULL;
  t->raised_args = NULL;
  t->raised_exc = NULL;
  t->raised_context = t->handling_exc;
  if (code == GRAFT_PARSE_ERROR_TRACE &&
      (strstr (message, _graft_tracer_control_flow_reason) != NULL ||
       strstr (message, "(torch.fx: Proxy object cannot be iterated)") != NULL))
    t->raised = "TraceError";
  else if (code == GRAFT_PARSE_ERROR_TRACE &&
           strstr (message, "(torch.fx: 'len' is not supported") != NULL)
    t->raised = "RuntimeError";
}

/**
 * _graft_tracer_fail:
 *
 * Sets the tracer's error (the first one wins) at a byte span.
 *
 * Returns: %NULL, for `return _graft_tracer_fail (...)`
 */
Value *
_graft_tracer_fail (Tracer             *t,
                    guint32             start,
                    guint32             end,
                    GraftParseErrorCode code,
                    const char         *format,
                    ...)
{
  va_list ap;

  if (t->error != NULL)
    return NULL;
  va_start (ap, format);
  fail_valist (t, start, end, code, format, ap);
  va_end (ap);
  return NULL;
}

/* Whether @message opens with the class of a Python exception and a
 * colon (`KeyError: 'a'`, `UnboundLocalError: ...`). */
static gboolean
names_exception (const char *message)
{
  static const char *const endings[] = { "Error", "Exception", "Iteration", "Exit", "Interrupt" };
  const char              *colon = strchr (message, ':');

  if (colon == NULL || !g_ascii_isupper (message[0]))
    return FALSE;
  for (const char *c = message; c < colon; c++)
    if (!g_ascii_isalnum (*c) && *c != '_')
      return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (endings); i++)
    {
      gsize n = strlen (endings[i]);

      if ((gsize) (colon - message) >= n && strncmp (colon - n, endings[i], n) == 0)
        return TRUE;
    }
  return FALSE;
}

/**
 * _graft_tracer_raise:
 * @exception: the class of the Python exception Python raises here
 *   (`KeyError`), which a handler may catch
 *
 * _graft_tracer_fail() with a trace error that Python raises as
 * @exception at the same place (Tracer.raised).
 *
 * Returns: %NULL
 */
Value *
_graft_tracer_raise (Tracer     *t,
                     const char *exception,
                     guint32     start,
                     guint32     end,
                     const char *format,
                     ...)
{
  va_list ap;

  g_autofree char *message = NULL;

  if (t->error != NULL)
    return NULL;
  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  /* Uncaught, the exception reads as Python's traceback ends: its class,
   * then its text when it has one (`NameError: name 'x' is not defined`,
   * `AssertionError`). */
  if (names_exception (message))
    _graft_tracer_fail (t, start, end, GRAFT_PARSE_ERROR_TRACE, "%s", message);
  else if (message[0] == '\0')
    _graft_tracer_fail (t, start, end, GRAFT_PARSE_ERROR_TRACE, "%s", exception);
  else
    _graft_tracer_fail (t, start, end, GRAFT_PARSE_ERROR_TRACE, "%s: %s", exception, message);
  t->raised = exception;
  return NULL;
}

/**
 * _graft_tracer_raise_text:
 *
 * _graft_tracer_raise() of Python's @exception whose one argument is
 * @message, as Python's own errors have: uncaught it reads
 * `EXCEPTION: MESSAGE`, caught `e.args` is `(MESSAGE,)`.
 *
 * Returns: %NULL
 */
Value *
_graft_tracer_raise_text (Tracer            *t,
                          const char        *exception,
                          const char        *message,
                          const GraftPyExpr *at)
{
  if (t->error != NULL)
    return NULL;
  _graft_tracer_raise (t, exception, at->start, at->end, "%s: %s", exception, message);
  t->raised_args = _graft_value_seq (t, VAL_TUPLE, 1);
  _graft_value_seq_add (t->raised_args, _graft_value_str (t, message, -1));
  return NULL;
}

Value *
_graft_tracer_fail_at (Tracer             *t,
                       const GraftPyExpr  *at,
                       GraftParseErrorCode code,
                       const char         *message)
{
  return _graft_tracer_fail (t, at->start, at->end, code, "%s", message);
}

const char _graft_tracer_control_flow_reason[] =
    "(torch.fx: symbolically traced variables cannot be used as inputs to control flow)";

/**
 * _graft_tracer_too_deep:
 *
 * Fails the tracer at a byte span, in place of any error it has, for a
 * walk of a value that went deeper than GRAFT_MAX_VALUE_DEPTH (what came
 * of that walk is not to be trusted; Tracer.walk_too_deep is cleared).
 *
 * Returns: %FALSE
 */
gboolean
_graft_tracer_too_deep (Tracer *t,
                        guint32 start,
                        guint32 end)
{
  t->walk_too_deep = FALSE;
  g_clear_error (&t->error);
  _graft_tracer_fail (t, start, end, GRAFT_PARSE_ERROR_LIMIT,
                      "a value nests more than %d levels deep, or holds itself (Python stops "
                      "at its recursion limit: RecursionError)",
                      GRAFT_MAX_VALUE_DEPTH);
  return FALSE;
}

/* The module body -------------------------------------------------------- */

/* Whether a module-level expression statement is `torch.fx.wrap("name")`
 * (or `fx.wrap`, `wrap` imported from torch.fx); if so, marks the function. */
static gboolean
exec_module_wrap (Tracer            *t,
                  Frame             *frame,
                  const GraftPyExpr *e)
{
  Value             *callee;
  const GraftPyExpr *arg;
  Value             *fn;

  if (e->kind != GRAFT_PY_EXPR_CALL || e->call.args.len != 1 || e->call.n_keywords != 0)
    return FALSE;
  callee = _graft_tracer_eval (t, frame, e->call.func);
  if (callee == NULL)
    {
      g_clear_error (&t->error);
      return FALSE;
    }
  if (callee->kind != VAL_PATH_FN || strcmp (callee->path, "torch.fx.wrap") != 0)
    return FALSE;
  arg = e->call.args.items[0];
  if (arg->kind == GRAFT_PY_EXPR_CONSTANT && arg->constant.kind == GRAFT_PY_CONST_STR)
    {
      fn = _graft_strmap_get (&frame->vars, arg->constant.str);
      if (fn != NULL && fn->kind == VAL_FUNCTION)
        fn->fn->is_wrapped = TRUE;
      else if (fn != NULL && fn->kind == VAL_PATH_FN && !g_str_has_prefix (fn->path, "torch."))
        {
          /* A function imported from another library and wrapped: calls
           * with traced arguments are recorded under its qualified name
           * (gm.code of torchvision models does this). */
          Function   *ext = _graft_tracer_alloc (t, sizeof (Function));
          Value      *v = _graft_value_new (t, VAL_FUNCTION);
          const char *dot = strrchr (fn->path, '.');

          ext->name = dot != NULL ? dot + 1 : fn->path;
          ext->ext_path = fn->path;
          ext->is_wrapped = TRUE;
          v->fn = ext;
          _graft_strmap_set (&frame->vars, arg->constant.str, v);
        }
      return TRUE;
    }
  return FALSE;
}

static gboolean
is_rules_name (const GraftPyExpr *e)
{
  return e != NULL && e->kind == GRAFT_PY_EXPR_NAME && strcmp (e->name.id, "RULES") == 0;
}

/* Whether @s binds or changes a rules file's RULES: `RULES = ...` (also
 * among other targets, or annotated), `RULES += ...`, or a method call on
 * it (`RULES.append(...)`, `RULES.extend(...)`). */
static gboolean
changes_rules (const GraftPyStmt *s)
{
  switch (s->kind)
    {
    case GRAFT_PY_STMT_ASSIGN:
      for (guint k = 0; k < s->assign.targets.len; k++)
        if (is_rules_name (s->assign.targets.items[k]))
          return TRUE;
      return FALSE;
    case GRAFT_PY_STMT_ANN_ASSIGN:
      return is_rules_name (s->ann_assign.target);
    case GRAFT_PY_STMT_AUG_ASSIGN:
      return is_rules_name (s->aug_assign.target);
    case GRAFT_PY_STMT_EXPR:
      return s->expr.value->kind == GRAFT_PY_EXPR_CALL &&
             s->expr.value->call.func->kind == GRAFT_PY_EXPR_ATTRIBUTE &&
             is_rules_name (s->expr.value->call.func->attribute.value);
    case GRAFT_PY_STMT_RETURN:
    case GRAFT_PY_STMT_PASS:
    case GRAFT_PY_STMT_BREAK:
    case GRAFT_PY_STMT_CONTINUE:
    case GRAFT_PY_STMT_IF:
    case GRAFT_PY_STMT_FOR:
    case GRAFT_PY_STMT_WHILE:
    case GRAFT_PY_STMT_WITH:
    case GRAFT_PY_STMT_ASSERT:
    case GRAFT_PY_STMT_RAISE:
    case GRAFT_PY_STMT_DELETE:
    case GRAFT_PY_STMT_GLOBAL:
    case GRAFT_PY_STMT_NONLOCAL:
    case GRAFT_PY_STMT_TRY:
    case GRAFT_PY_STMT_IMPORT:
    case GRAFT_PY_STMT_IMPORT_FROM:
    case GRAFT_PY_STMT_FUNCTION_DEF:
    case GRAFT_PY_STMT_CLASS_DEF:
    default:
      return FALSE;
    }
}

/* Runs the module body: imports, definitions and constant assignments.
 * Anything else, or an assignment that cannot be evaluated, is skipped: a
 * model file's own `traced = symbolic_trace(M())` is not Graft's business.
 * RULES is the exception: every statement that binds or changes it runs
 * where it stands, as Python runs it (`RULES += [...]` and
 * `RULES.append(...)` included), and the first one that fails is kept for
 * graft_py_program_get_rules(). */
static gboolean
exec_module (Tracer *t)
{
  const GraftPyStmtList *body = graft_py_module_get_body (t->module);

  if (!_graft_tracer_check_declarations (t, body))
    return FALSE;
  for (guint i = 0; i < body->len; i++)
    {
      const GraftPyStmt *s = body->items[i];

      switch (s->kind)
        {
        case GRAFT_PY_STMT_IMPORT:
        case GRAFT_PY_STMT_IMPORT_FROM:
        case GRAFT_PY_STMT_FUNCTION_DEF:
        case GRAFT_PY_STMT_CLASS_DEF:
        case GRAFT_PY_STMT_NONLOCAL: /* Python's SyntaxError */
          if (_graft_tracer_exec_stmt (t, t->globals, s, NULL) == FLOW_ERROR)
            return FALSE;
          break;
        case GRAFT_PY_STMT_ASSIGN:
        case GRAFT_PY_STMT_ANN_ASSIGN:
        case GRAFT_PY_STMT_AUG_ASSIGN:
          if (_graft_tracer_exec_stmt (t, t->globals, s, NULL) == FLOW_ERROR)
            {
              if (t->error_is_fatal)
                return FALSE;
              if (changes_rules (s) && t->rules_error == NULL)
                t->rules_error = g_steal_pointer (&t->error);
              g_clear_error (&t->error);
            }
          break;
        case GRAFT_PY_STMT_EXPR:
          if (changes_rules (s))
            {
              if (_graft_tracer_eval (t, t->globals, s->expr.value) == NULL ||
                  G_UNLIKELY (t->walk_too_deep))
                {
                  /* (A walk too deep: what came of it is not to be
                   * trusted, as exec_stmt says.) */
                  if (t->walk_too_deep)
                    _graft_tracer_too_deep (t, s->start, s->end);
                  if (t->error_is_fatal)
                    return FALSE;
                  if (t->rules_error == NULL)
                    t->rules_error = g_steal_pointer (&t->error);
                  g_clear_error (&t->error);
                }
              break;
            }
          exec_module_wrap (t, t->globals, s->expr.value);
          t->walk_too_deep = FALSE; /* (its value is not used) */
          break;
        case GRAFT_PY_STMT_RETURN:
        case GRAFT_PY_STMT_PASS:
        case GRAFT_PY_STMT_BREAK:
        case GRAFT_PY_STMT_CONTINUE:
        case GRAFT_PY_STMT_IF:
        case GRAFT_PY_STMT_FOR:
        case GRAFT_PY_STMT_WHILE:
        case GRAFT_PY_STMT_WITH:
        case GRAFT_PY_STMT_ASSERT:
        case GRAFT_PY_STMT_RAISE:
        case GRAFT_PY_STMT_DELETE:
        case GRAFT_PY_STMT_GLOBAL:
        case GRAFT_PY_STMT_TRY:
        default:
          break;
        }
    }
  return TRUE;
}

/* Entry and root ------------------------------------------------------------ */

/* Walks the module tree in `named_modules` order (each module once), naming
 * modules and collecting the paths of buffers and tensor attributes, which
 * torch.fx looks up when a tensor is passed to an op. */
static void
collect_paths (Tracer     *t,
               Object     *obj,
               const char *prefix)
{
  if (g_hash_table_contains (t->module_paths, obj))
    return;
  g_hash_table_insert (t->module_paths, obj, (gpointer) prefix);
  t->n_kept++;
  for (guint i = 0; i < obj->buffers.keys->len; i++)
    if (!g_hash_table_contains (t->tensor_paths, obj->buffers.values->pdata[i]))
      g_hash_table_insert (
          t->tensor_paths, obj->buffers.values->pdata[i],
          (gpointer) _graft_tracer_join_path (t, prefix, obj->buffers.keys->pdata[i]));
  for (guint i = 0; i < obj->attrs.keys->len; i++)
    {
      Value *v = obj->attrs.values->pdata[i];

      if (v->kind == VAL_TENSOR && !g_hash_table_contains (t->tensor_paths, v))
        g_hash_table_insert (
            t->tensor_paths, v,
            (gpointer) _graft_tracer_join_path (t, prefix, obj->attrs.keys->pdata[i]));
    }
  for (guint i = 0; i < obj->params.keys->len; i++)
    if (!g_hash_table_contains (t->tensor_paths, obj->params.values->pdata[i]))
      g_hash_table_insert (
          t->tensor_paths, obj->params.values->pdata[i],
          (gpointer) _graft_tracer_join_path (t, prefix, obj->params.keys->pdata[i]));
  for (guint i = 0; i < obj->modules.keys->len; i++)
    {
      Value *child = obj->modules.values->pdata[i];

      if (child->kind == VAL_OBJECT)
        collect_paths (t, child->obj,
                       _graft_tracer_join_path (t, prefix, obj->modules.keys->pdata[i]));
    }
}

/* fx-reference's `self_path`: `self.a.b` or `getattr(self.a, "b")`. */
static gboolean
self_path_of (Tracer            *t,
              const GraftPyExpr *e,
              GString           *out)
{
  const GraftPyExpr *base;
  const char        *name;

  if (e->kind == GRAFT_PY_EXPR_NAME)
    return strcmp (e->name.id, "self") == 0;
  if (e->kind == GRAFT_PY_EXPR_ATTRIBUTE)
    {
      base = e->attribute.value;
      name = e->attribute.attr;
    }
  else if (e->kind == GRAFT_PY_EXPR_CALL && e->call.func->kind == GRAFT_PY_EXPR_NAME &&
           strcmp (e->call.func->name.id, "getattr") == 0 && e->call.args.len == 2 &&
           e->call.n_keywords == 0 && e->call.args.items[1]->kind == GRAFT_PY_EXPR_CONSTANT &&
           e->call.args.items[1]->constant.kind == GRAFT_PY_CONST_STR)
    {
      base = e->call.args.items[0];
      name = e->call.args.items[1]->constant.str;
    }
  else
    return FALSE;
  if (!self_path_of (t, base, out))
    return FALSE;
  if (out->len > 0)
    g_string_append_c (out, '.');
  g_string_append (out, name);
  return TRUE;
}

static void
mark_self_path (Tracer     *t,
                const char *path,
                gpointer    kind)
{
  g_autofree char *copy = g_strdup (path);
  char            *dot;

  /* Every proper prefix is a module. */
  while ((dot = strrchr (copy, '.')) != NULL)
    {
      *dot = '\0';
      g_hash_table_insert (t->self_tree, (gpointer) _graft_tracer_strdup (t, copy, -1),
                           SELF_MODULE);
    }
  if (kind == SELF_MODULE || !g_hash_table_contains (t->self_tree, path))
    g_hash_table_insert (t->self_tree, (gpointer) _graft_tracer_strdup (t, path, -1), kind);
}

/* Records which `self.a.b` paths are called (leaf modules) and which are
 * read (parameters), over the whole forward body. */
static void
scan_self_paths (Tracer            *t,
                 const GraftPyExpr *e,
                 PtrVec            *called,
                 PtrVec            *read);

static void
scan_exprs (Tracer                *t,
            const GraftPyExprList *list,
            PtrVec                *called,
            PtrVec                *read)
{
  for (guint i = 0; i < list->len; i++)
    if (list->items[i] != NULL)
      scan_self_paths (t, list->items[i], called, read);
}

static void
scan_self_paths (Tracer            *t,
                 const GraftPyExpr *e,
                 PtrVec            *called,
                 PtrVec            *read)
{
  g_autoptr (GString) path = g_string_new (NULL);

  if (e == NULL)
    return;
  if (self_path_of (t, e, path))
    {
      if (path->len > 0)
        _graft_vec_add (read, (gpointer) _graft_tracer_strdup (t, path->str, -1));
      return;
    }
  g_string_truncate (path, 0);
  if (e->kind == GRAFT_PY_EXPR_CALL && self_path_of (t, e->call.func, path) && path->len > 0)
    {
      _graft_vec_add (called, (gpointer) _graft_tracer_strdup (t, path->str, -1));
      scan_exprs (t, &e->call.args, called, read);
      for (guint i = 0; i < e->call.n_keywords; i++)
        scan_self_paths (t, e->call.keywords[i]->value, called, read);
      return;
    }
  switch (e->kind)
    {
    case GRAFT_PY_EXPR_ATTRIBUTE:
      scan_self_paths (t, e->attribute.value, called, read);
      break;
    case GRAFT_PY_EXPR_SUBSCRIPT:
      scan_self_paths (t, e->subscript.value, called, read);
      scan_self_paths (t, e->subscript.slice, called, read);
      break;
    case GRAFT_PY_EXPR_SLICE:
      scan_self_paths (t, e->slice.lower, called, read);
      scan_self_paths (t, e->slice.upper, called, read);
      scan_self_paths (t, e->slice.step, called, read);
      break;
    case GRAFT_PY_EXPR_CALL:
      scan_self_paths (t, e->call.func, called, read);
      scan_exprs (t, &e->call.args, called, read);
      for (guint i = 0; i < e->call.n_keywords; i++)
        scan_self_paths (t, e->call.keywords[i]->value, called, read);
      break;
    case GRAFT_PY_EXPR_BIN_OP:
      scan_self_paths (t, e->bin_op.left, called, read);
      scan_self_paths (t, e->bin_op.right, called, read);
      break;
    case GRAFT_PY_EXPR_UNARY_OP:
      scan_self_paths (t, e->unary_op.operand, called, read);
      break;
    case GRAFT_PY_EXPR_BOOL_OP:
      scan_exprs (t, &e->bool_op.values, called, read);
      break;
    case GRAFT_PY_EXPR_COMPARE:
      scan_self_paths (t, e->compare.left, called, read);
      scan_exprs (t, &e->compare.comparators, called, read);
      break;
    case GRAFT_PY_EXPR_IF_EXP:
      scan_self_paths (t, e->if_exp.test, called, read);
      scan_self_paths (t, e->if_exp.body, called, read);
      scan_self_paths (t, e->if_exp.orelse, called, read);
      break;
    case GRAFT_PY_EXPR_TUPLE:
    case GRAFT_PY_EXPR_LIST:
    case GRAFT_PY_EXPR_SET:
      scan_exprs (t, &e->sequence.elts, called, read);
      break;
    case GRAFT_PY_EXPR_DICT:
      scan_exprs (t, &e->dict.keys, called, read);
      scan_exprs (t, &e->dict.values, called, read);
      break;
    case GRAFT_PY_EXPR_STARRED:
      scan_self_paths (t, e->starred.value, called, read);
      break;
    case GRAFT_PY_EXPR_NAMED_EXPR:
      scan_self_paths (t, e->named_expr.value, called, read);
      break;
    case GRAFT_PY_EXPR_NAME:
    case GRAFT_PY_EXPR_CONSTANT:
    case GRAFT_PY_EXPR_JOINED_STR:
    case GRAFT_PY_EXPR_FORMATTED_VALUE:
    case GRAFT_PY_EXPR_LAMBDA:
    case GRAFT_PY_EXPR_LIST_COMP:
    case GRAFT_PY_EXPR_SET_COMP:
    case GRAFT_PY_EXPR_DICT_COMP:
    case GRAFT_PY_EXPR_GENERATOR_EXP:
    case GRAFT_PY_EXPR_YIELD:
    case GRAFT_PY_EXPR_YIELD_FROM:
    case GRAFT_PY_EXPR_AWAIT:
    default:
      break;
    }
}

static void
scan_self_stmts (Tracer                *t,
                 const GraftPyStmtList *body,
                 PtrVec                *called,
                 PtrVec                *read)
{
  for (guint i = 0; i < body->len; i++)
    {
      const GraftPyStmt *s = body->items[i];

      switch (s->kind)
        {
        case GRAFT_PY_STMT_EXPR:
          scan_self_paths (t, s->expr.value, called, read);
          break;
        case GRAFT_PY_STMT_ASSIGN:
          scan_exprs (t, &s->assign.targets, called, read);
          scan_self_paths (t, s->assign.value, called, read);
          break;
        case GRAFT_PY_STMT_AUG_ASSIGN:
          scan_self_paths (t, s->aug_assign.target, called, read);
          scan_self_paths (t, s->aug_assign.value, called, read);
          break;
        case GRAFT_PY_STMT_ANN_ASSIGN:
          scan_self_paths (t, s->ann_assign.value, called, read);
          break;
        case GRAFT_PY_STMT_RETURN:
          scan_self_paths (t, s->ret.value, called, read);
          break;
        case GRAFT_PY_STMT_IF:
          scan_self_paths (t, s->if_stmt.test, called, read);
          scan_self_stmts (t, &s->if_stmt.body, called, read);
          scan_self_stmts (t, &s->if_stmt.orelse, called, read);
          break;
        case GRAFT_PY_STMT_FOR:
          scan_self_paths (t, s->for_stmt.iter, called, read);
          scan_self_stmts (t, &s->for_stmt.body, called, read);
          scan_self_stmts (t, &s->for_stmt.orelse, called, read);
          break;
        case GRAFT_PY_STMT_WHILE:
          scan_self_paths (t, s->while_stmt.test, called, read);
          scan_self_stmts (t, &s->while_stmt.body, called, read);
          break;
        case GRAFT_PY_STMT_ASSERT:
          scan_self_paths (t, s->assert_stmt.test, called, read);
          break;
        case GRAFT_PY_STMT_TRY:
          scan_self_stmts (t, &s->try_stmt.body, called, read);
          scan_self_stmts (t, &s->try_stmt.orelse, called, read);
          scan_self_stmts (t, &s->try_stmt.finalbody, called, read);
          break;
        case GRAFT_PY_STMT_PASS:
        case GRAFT_PY_STMT_BREAK:
        case GRAFT_PY_STMT_CONTINUE:
        case GRAFT_PY_STMT_WITH:
        case GRAFT_PY_STMT_RAISE:
        case GRAFT_PY_STMT_DELETE:
        case GRAFT_PY_STMT_GLOBAL:
        case GRAFT_PY_STMT_NONLOCAL:
        case GRAFT_PY_STMT_IMPORT:
        case GRAFT_PY_STMT_IMPORT_FROM:
        case GRAFT_PY_STMT_FUNCTION_DEF:
        case GRAFT_PY_STMT_CLASS_DEF:
        default:
          break;
        }
    }
}

/* The annotation as torch.fx's listing prints it (graft-tracer-types.c),
 * `""` for none, or NULL after an error. */
static const char *
annotation_repr (Tracer            *t,
                 Frame             *frame,
                 const GraftPyExpr *e)
{
  Value *v;

  /* A string annotation stays a string: the listing shows its repr. */
  if (e->kind == GRAFT_PY_EXPR_CONSTANT && e->constant.kind == GRAFT_PY_CONST_STR)
    {
      g_autoptr (GString) repr = g_string_new (NULL);

      _graft_value_append_str (repr, _graft_value_str (t, e->constant.str, e->constant.len), TRUE);
      return _graft_tracer_strdup (t, repr->str, repr->len);
    }
  v = _graft_tracer_eval (t, frame, e);
  if (v == NULL)
    return NULL;
  return _graft_tracer_type_repr (t, v, e);
}

/* Whether an annotation that is no placeholder's type evaluates, as
 * Python evaluates every annotation when it runs the def (a name it lacks
 * is a NameError); a string one is not evaluated. */
static gboolean
annotation_evaluates (Tracer            *t,
                      Frame             *frame,
                      const GraftPyExpr *e)
{
  if (e->kind == GRAFT_PY_EXPR_CONSTANT && e->constant.kind == GRAFT_PY_CONST_STR)
    return TRUE;
  return _graft_tracer_eval (t, frame, e) != NULL;
}

/* One placeholder of the traced function's parameter @p, under @target
 * (`x`, or `*args` for torch 2.6's variadic ones), bound in @frame. */
static gboolean
make_placeholder (Tracer           *t,
                  Frame            *frame,
                  const GraftPyArg *p,
                  const char       *target)
{
  PtrVec     *args = NULL;
  Value      *node;
  const char *type = NULL;
  GraftPyExpr at = { .start = p->start, .end = p->end };

  if (p->default_value != NULL)
    {
      Value *d = _graft_tracer_eval (t, frame->globals, p->default_value);

      if (d == NULL)
        return FALSE;
      args = _graft_tracer_vec (t);
      _graft_vec_add (args, d);
    }
  /* torch looks annotations up by the placeholder's target: `*args` has
   * none, but Python has evaluated it. */
  if (p->annotation != NULL && strcmp (target, p->name) == 0 &&
      (type = annotation_repr (t, frame->globals, p->annotation)) == NULL)
    return FALSE;
  if (p->annotation != NULL && strcmp (target, p->name) != 0 &&
      !annotation_evaluates (t, frame->globals, p->annotation))
    return FALSE;
  node = _graft_tracer_make_node (t, GRAFT_OP_PLACEHOLDER, target, args, NULL, NULL, &at);
  if (node == NULL)
    return FALSE;
  if (type != NULL && *type != '\0')
    graft_node_set_type_annotation (node->node, type);
  _graft_strmap_set (&frame->vars, p->name, node);
  return TRUE;
}

/* `create_args_for_root`: a placeholder per parameter, in Python's order.
 * torch 2.6 also takes keyword-only parameters (as plain placeholders),
 * then `*args` and `**kwargs` (one placeholder each, targets `*args` and
 * `**kwargs`, each a single traced value). */
static gboolean
make_placeholders (Tracer            *t,
                   Frame             *frame,
                   const GraftPyStmt *def,
                   gboolean           skip_self,
                   Value             *self)
{
  const GraftPyArguments *params = def->function_def.args;
  guint                   n_pos = params->n_posonly + params->n_args;

  if ((params->vararg != NULL || params->kwarg != NULL || params->n_kwonly > 0) &&
      !t->dialect->traces_variadic_forward)
    {
      const GraftPyArg *p = params->vararg != NULL  ? params->vararg
                            : params->kwarg != NULL ? params->kwarg
                                                    : params->kwonly[0];

      _graft_tracer_fail (t, p->start, p->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "*args, **kwargs and keyword-only parameters cannot be traced "
                          "(torch.fx %s on Python 3.11 fails on them)",
                          t->dialect->version);
      return FALSE;
    }
  for (guint i = 0; i < n_pos; i++)
    {
      const GraftPyArg *p =
          i < params->n_posonly ? params->posonly[i] : params->args[i - params->n_posonly];

      if (i == 0 && skip_self)
        {
          /* Not a placeholder, but Python has evaluated its annotation. */
          if (p->annotation != NULL && !annotation_evaluates (t, frame->globals, p->annotation))
            return FALSE;
          _graft_strmap_set (&frame->vars, p->name, self);
          continue;
        }
      if (!make_placeholder (t, frame, p, p->name))
        return FALSE;
    }
  for (guint i = 0; i < params->n_kwonly; i++)
    if (!make_placeholder (t, frame, params->kwonly[i], params->kwonly[i]->name))
      return FALSE;
  if (params->vararg != NULL &&
      !make_placeholder (t, frame, params->vararg,
                         _graft_tracer_printf (t, "*%s", params->vararg->name)))
    return FALSE;
  if (params->kwarg != NULL &&
      !make_placeholder (t, frame, params->kwarg,
                         _graft_tracer_printf (t, "**%s", params->kwarg->name)))
    return FALSE;
  return TRUE;
}

/**
 * _graft_tracer_read_body:
 * @def: a FunctionDef
 *
 * Reads the body of @def if graft_py_parse_deferring() left it unread.
 * The body being traced as it streams cannot be read again meanwhile (a
 * forward that calls itself): the read then falls back to the usual way.
 *
 * Returns: %FALSE with the tracer's error set (and the program to be read
 *   again the usual way) if the body has a syntax error
 */
gboolean
_graft_tracer_read_body (Tracer            *t,
                         const GraftPyStmt *def)
{
  GError *error = NULL;

  if (def == NULL || def->function_def.deferred == NULL)
    return TRUE;
  if (t->stream_fn != NULL && t->stream_fn->def == def)
    {
      t->fallback = TRUE;
      _graft_tracer_fail (t, def->start, def->end, GRAFT_PARSE_ERROR_TRACE,
                          "the body being read is called");
      return FALSE;
    }
  if (graft_py_module_read_body (t->module, (GraftPyStmt *) def, &error))
    return TRUE;
  t->fallback = TRUE;
  g_clear_error (&t->error);
  t->error = error;
  return FALSE;
}

/* The body of the traced forward @fn, read one statement at a time and
 * each traced as soon as it is read, its nodes freed before the next
 * (graft_py_program_new_traced()).  After a return, the rest is still read
 * (Python compiles all of it).  Anything this way cannot decide as the
 * usual way would (a yield, which makes the function a generator; a name
 * looked up outside that the body binds further down; an error of any
 * kind) asks for the usual way instead: t->fallback. */
static Flow
exec_streamed (Tracer   *t,
               Function *fn,
               Frame    *frame,
               Value   **out_result)
{
  g_autoptr (GraftPyBodyStream) stream = graft_py_body_stream_new (t->module, fn->def, TRUE);
  g_autoptr (GError) error = NULL;
  Locals         *locals = _graft_tracer_locals_begin (t, fn);
  GraftPyStmtList stmts;
  Flow            flow = FLOW_NORMAL;
  GHashTableIter  iter;
  gpointer        name;

  /* The scope sized once for about a name per line. */
  _graft_strmap_reserve (&frame->vars, _graft_tracer_body_lines (fn->def));
  if (t->stream_misses == NULL)
    t->stream_misses = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_remove_all (t->stream_misses);
  memset (t->miss_recent, 0, sizeof t->miss_recent);
  t->stream_fn = fn;
  while (graft_py_body_stream_next (stream, &stmts, &error))
    {
      const GraftPyStmt *s = stmts.len == 1 ? stmts.items[0] : NULL;

      /* Most lines are one `name = value` without a yield: its name is
       * collected and the statement run here. */
      if (s != NULL && s->kind == GRAFT_PY_STMT_ASSIGN && s->assign.targets.len == 1 &&
          s->assign.targets.items[0]->kind == GRAFT_PY_EXPR_NAME &&
          s->assign.value->kind != GRAFT_PY_EXPR_YIELD &&
          s->assign.value->kind != GRAFT_PY_EXPR_YIELD_FROM)
        {
          _graft_tracer_locals_add_name (locals, s->assign.targets.items[0]->name.id);
          if (flow == FLOW_NORMAL)
            flow = _graft_tracer_exec_assign_name (t, frame, s);
        }
      else
        {
          _graft_tracer_locals_add (t, locals, &stmts);
          if (_graft_tracer_contains_yield (&stmts) ||
              !_graft_tracer_check_streamed_declarations (t, fn->def, &stmts))
            {
              t->fallback = TRUE;
              break;
            }
          if (flow == FLOW_NORMAL)
            flow = _graft_tracer_exec_block (t, frame, &stmts, out_result);
        }
      if (flow == FLOW_ERROR)
        {
          t->fallback = TRUE;
          break;
        }
    }
  t->stream_fn = NULL;
  if (error != NULL)
    t->fallback = TRUE;
  g_hash_table_iter_init (&iter, t->stream_misses);
  while (!t->fallback && g_hash_table_iter_next (&iter, &name, NULL))
    if (_graft_tracer_locals_has (t, locals, name))
      t->fallback = TRUE;
  g_hash_table_remove_all (t->stream_misses);
  if (t->fallback)
    {
      _graft_tracer_fail (t, fn->def->start, fn->def->end, GRAFT_PARSE_ERROR_TRACE,
                          "the body must be traced again the usual way");
      return FLOW_ERROR;
    }
  t->streamed = fn->def;
  return flow;
}

static gboolean
trace_function (Tracer   *t,
                Function *fn,
                Value    *self,
                gboolean  skip_self)
{
  const GraftPyStmt *def = fn->def;
  Frame             *frame = _graft_tracer_frame_new (t, fn->closure, fn->closure->globals);
  Value             *result = NULL;
  Flow               flow;
  PtrVec            *out_args;
  Value             *out;
  GraftPyExpr        at = { .start = def->start, .end = def->end };

  frame->fn = fn;
  frame->self = self;
  t->tracing = TRUE;
  if (!make_placeholders (t, frame, def, skip_self, self))
    return FALSE;
  if (def->function_def.deferred != NULL && t->may_stream)
    {
      t->call_depth++;
      flow = exec_streamed (t, fn, frame, &result);
      t->call_depth--;
    }
  else
    {
      if (!_graft_tracer_read_body (t, def))
        return FALSE;
      if (_graft_tracer_contains_yield (&def->function_def.body))
        {
          _graft_tracer_fail_at (t, &at, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                 "a generator cannot be traced");
          return FALSE;
        }
      t->call_depth++;
      flow = _graft_tracer_exec_block (t, frame, &def->function_def.body, &result);
      t->call_depth--;
    }
  if (flow == FLOW_ERROR)
    return FALSE;
  if (flow == FLOW_BREAK || flow == FLOW_CONTINUE)
    {
      _graft_tracer_fail_at (t, &at, GRAFT_PARSE_ERROR_SYNTAX,
                             "'break' or 'continue' outside a loop");
      return FALSE;
    }
  if (result == NULL)
    result = _graft_value_none ();

  /* The output node carries the returned value (torch.fx's
   * `create_node('output', 'output', (create_arg(fn(*args)),))`). */
  out_args = _graft_tracer_vec (t);
  _graft_vec_add (out_args, result);
  if (def->function_def.returns != NULL)
    {
      const char *type = annotation_repr (t, frame->globals, def->function_def.returns);

      if (type == NULL)
        return FALSE;
      out = _graft_tracer_make_node (t, GRAFT_OP_OUTPUT, "output", out_args, NULL, NULL, &at);
      if (out != NULL && *type != '\0')
        graft_node_set_type_annotation (out->node, type);
    }
  else
    out = _graft_tracer_make_node (t, GRAFT_OP_OUTPUT, "output", out_args, NULL, NULL, &at);
  return out != NULL;
}

static gboolean
is_own_definition (const GraftPyStmt *s,
                   const char        *name)
{
  if (s->kind == GRAFT_PY_STMT_CLASS_DEF)
    return name == NULL || strcmp (s->class_def.name, name) == 0;
  if (s->kind == GRAFT_PY_STMT_FUNCTION_DEF)
    return name == NULL || strcmp (s->function_def.name, name) == 0;
  return FALSE;
}

static gboolean
class_defines_forward (const GraftPyStmt *s)
{
  for (guint i = 0; i < s->class_def.body.len; i++)
    {
      const GraftPyStmt *item = s->class_def.body.items[i];

      if (item->kind == GRAFT_PY_STMT_FUNCTION_DEF &&
          strcmp (item->function_def.name, "forward") == 0)
        return TRUE;
    }
  return FALSE;
}

/* Whether @source holds nothing but white space. */
static gboolean
source_is_blank (GraftSource *source)
{
  for (const char *p = graft_source_get_text (source); *p != '\0'; p++)
    if (!g_ascii_isspace (*p))
      return FALSE;
  return TRUE;
}

/* cli.md: `--entry NAME`, else the first class that defines forward, else a
 * function named forward. */
static const char *
choose_entry (Tracer     *t,
              const char *entry)
{
  const GraftPyStmtList *body = graft_py_module_get_body (t->module);
  g_autofree char       *candidates = NULL;
  gsize                  start;
  gsize                  end;

  if (entry != NULL)
    {
      for (guint i = 0; i < body->len; i++)
        if (is_own_definition (body->items[i], entry))
          return entry;
      candidates = graft_py_module_dup_definition_names (t->module);
      /* At the definition the user most likely meant, if there is one. */
      if (graft_py_module_locate_similar_definition (t->module, entry, &start, &end))
        graft_set_error_at_offset (&t->error, t->source, start, end, GRAFT_PARSE_ERROR_NAME,
                                   "no class or function named '%s'; candidates: %s", entry,
                                   candidates);
      else
        graft_set_error_at (&t->error, graft_source_get_filename (t->source), 1, 1,
                            GRAFT_PARSE_ERROR_NAME,
                            "no class or function named '%s'; candidates: %s", entry, candidates);
      return NULL;
    }
  for (guint i = 0; i < body->len; i++)
    if (body->items[i]->kind == GRAFT_PY_STMT_CLASS_DEF && class_defines_forward (body->items[i]))
      return body->items[i]->class_def.name;
  for (guint i = 0; i < body->len; i++)
    if (is_own_definition (body->items[i], "forward") &&
        body->items[i]->kind == GRAFT_PY_STMT_FUNCTION_DEF)
      return "forward";
  candidates = graft_py_module_dup_definition_names (t->module);
  if (source_is_blank (t->source))
    graft_set_error_at (&t->error, graft_source_get_filename (t->source), 1, 1,
                        GRAFT_PARSE_ERROR_NAME,
                        "the input is empty: expected a Python module to trace, an FX graph "
                        "listing, a DOT graph or a torch.export program");
  else if (strcmp (candidates, "none") == 0)
    graft_set_error_at (&t->error, graft_source_get_filename (t->source), 1, 1,
                        GRAFT_PARSE_ERROR_NAME,
                        "nothing to trace: the file defines no class and no function (expected "
                        "a class that defines forward, or a function named forward)");
  else
    graft_set_error_at (&t->error, graft_source_get_filename (t->source), 1, 1,
                        GRAFT_PARSE_ERROR_NAME,
                        "no class defines forward and no function is named forward; "
                        "candidates: %s",
                        candidates);
  return NULL;
}

/* Whether instances of @cls have no __hash__ (1), have one (0), or
 * @cls leaves it to object's (-1): a class body that defines __eq__ and
 * not __hash__ sets it to None, and so does @dataclass with eq=True
 * (its default) unless frozen or the body defines __hash__. */
static int
class_unhashable (const Class *cls)
{
  if (_graft_strmap_get ((StrMap *) &cls->ns, "__hash__") != NULL)
    return 0;
  if (_graft_strmap_get ((StrMap *) &cls->ns, "__eq__") != NULL ||
      (cls->dc_fields != NULL && cls->dc_eq && !cls->dc_frozen))
    return 1;
  for (guint i = 0; i < cls->bases->len; i++)
    {
      const Value *base = cls->bases->pdata[i];
      int          r;

      if (base->kind == VAL_CLASS && (r = class_unhashable (base->cls)) >= 0)
        return r;
    }
  return -1;
}

/* The first module of @obj's tree, in named_modules() order, that
 * named_modules() fails on: one it cannot hash (*unhashable set) into
 * its memo set, or one whose __init__ never called nn.Module.__init__;
 * or NULL. */
static Object *
find_uninitialised (Object     *obj,
                    GHashTable *seen,
                    gboolean   *unhashable)
{
  if (!g_hash_table_add (seen, obj))
    return NULL;
  if (obj->cls != NULL && class_unhashable (obj->cls) == 1)
    {
      *unhashable = TRUE;
      return obj;
    }
  if (obj->before_init)
    return obj;
  for (guint i = 0; i < obj->modules.keys->len; i++)
    {
      Value  *child = obj->modules.values->pdata[i];
      Object *found;

      if (child->kind == VAL_OBJECT &&
          (found = find_uninitialised (child->obj, seen, unhashable)) != NULL)
        return found;
    }
  return NULL;
}

/* symbolic_trace() walks the root's named_modules() first: a module
 * without nn.Module's dicts is its AttributeError, which comes from no
 * line of the file (the oracle's 1:1). */
static gboolean
check_initialised (Tracer *t,
                   Object *root)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  gboolean unhashable = FALSE;
  Object  *bad = find_uninitialised (root, seen, &unhashable);

  if (bad == NULL)
    return TRUE;
  if (unhashable)
    {
      graft_set_error_at (&t->error, graft_source_get_filename (t->source), 1, 1,
                          GRAFT_PARSE_ERROR_TRACE, "TypeError: unhashable type: '%s'",
                          bad->class_name);
      return FALSE;
    }
  graft_set_error_at (&t->error, graft_source_get_filename (t->source), 1, 1,
                      GRAFT_PARSE_ERROR_TRACE,
                      "AttributeError: '%s' object has no attribute '_modules'", bad->class_name);
  return FALSE;
}

static gboolean
trace_entry (Tracer     *t,
             const char *name)
{
  Value      *v = _graft_strmap_get (&t->globals->vars, name);
  GraftPyExpr at = { 0 };

  if (v == NULL)
    {
      graft_set_error_at (&t->error, graft_source_get_filename (t->source), 1, 1,
                          GRAFT_PARSE_ERROR_NAME, "'%s' is not defined at module level", name);
      return FALSE;
    }
  if (v->kind == VAL_CLASS)
    {
      Class *cls = v->cls;
      Value *root, *forward;

      at.start = cls->stmt->start;
      at.end = cls->stmt->start;
      if (!cls->is_module)
        {
          _graft_tracer_fail (t, at.start, at.end, GRAFT_PARSE_ERROR_NAME,
                              "class '%s' is not a torch.nn.Module", cls->name);
          return FALSE;
        }
      root = _graft_tracer_instantiate (t, cls, NULL, NULL, &at);
      if (root == NULL)
        return FALSE;
      forward = _graft_tracer_class_lookup (cls, "forward", NULL);
      if (forward == NULL || forward->kind != VAL_FUNCTION)
        {
          _graft_tracer_fail (t, at.start, at.end, GRAFT_PARSE_ERROR_NAME,
                              "class '%s' has no forward method", cls->name);
          return FALSE;
        }
      t->root = root;
      if (!check_initialised (t, root->obj))
        return FALSE;
      collect_paths (t, root->obj, "");
      /* symbolic_trace names the GraphModule's class after the root's. */
      graft_graph_set_module_name (t->graph, cls->name);
      return trace_function (t, forward->fn, root, TRUE);
    }
  if (v->kind == VAL_FUNCTION && v->fn->def != NULL)
    {
      const GraftPyStmt      *def = v->fn->def;
      const GraftPyArguments *params = def->function_def.args;

      if (params->n_posonly + params->n_args > 0 &&
          strcmp ((params->n_posonly > 0 ? params->posonly[0] : params->args[0])->name, "self") ==
              0)
        {
          /* A top-level forward(self, ...), as gm.code reads (cli.md). */
          PtrVec *called = _graft_tracer_vec (t);
          PtrVec *read = _graft_tracer_vec (t);
          Value  *self = _graft_value_path (t, VAL_SELF_PATH, "");

          scan_self_stmts (t, &def->function_def.body, called, read);
          for (guint i = 0; i < called->len; i++)
            mark_self_path (t, called->pdata[i], SELF_MODULE);
          for (guint i = 0; i < read->len; i++)
            mark_self_path (t, read->pdata[i], SELF_PARAM);
          /* The class of the module the oracle builds around it
           * (fx-reference, docstring 1). */
          graft_graph_set_module_name (t->graph, "GraftSelfRoot");
          return trace_function (t, v->fn, self, TRUE);
        }
      /* A traced function names the class after itself (its __name__). */
      graft_graph_set_module_name (t->graph, v->fn->name);
      return trace_function (t, v->fn, NULL, FALSE);
    }
  graft_set_error_at (&t->error, graft_source_get_filename (t->source), 1, 1,
                      GRAFT_PARSE_ERROR_NAME, "'%s' is neither a class nor a function", name);
  return FALSE;
}

static char *
module_stem (const char *filename)
{
  g_autofree char *base = g_path_get_basename (filename);
  char            *dot = strrchr (base, '.');
  char            *stem;

  if (strcmp (filename, "-") == 0)
    return g_strdup ("stdin");
  if (dot != NULL && dot != base)
    *dot = '\0';
  stem = g_strdup (base);
  for (char *p = stem; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      *p = '_';
  return stem;
}

/**
 * _graft_tracer_eval_in_builtins:
 *
 * Evaluates an expression of the torch table (a default value) where only
 * builtins, `torch` and `math` are defined.
 */
Value *
_graft_tracer_eval_in_builtins (Tracer            *t,
                                const GraftPyExpr *e)
{
  if (t->table_frame == NULL)
    {
      t->table_frame = _graft_tracer_frame_new (t, NULL, NULL);
      _graft_strmap_set (&t->table_frame->vars, "torch",
                         _graft_value_path (t, VAL_PYMODULE, "torch"));
      _graft_strmap_set (&t->table_frame->vars, "math",
                         _graft_value_path (t, VAL_PYMODULE, "math"));
    }
  return _graft_tracer_eval (t, t->table_frame, e);
}

static void
tracer_clear (Tracer *t)
{
  g_ptr_array_unref (t->chunks);
  g_ptr_array_unref (t->hash_tables);
  g_ptr_array_unref (t->map_indexes);
  g_ptr_array_unref (t->garrays);
  g_string_chunk_free (t->strings);
  g_hash_table_unref (t->param_nodes);
  g_hash_table_unref (t->tensor_paths);
  g_hash_table_unref (t->tensor_consts);
  g_clear_pointer (&t->nul_attrs, g_hash_table_unref);
  g_hash_table_unref (t->self_tree);
  g_hash_table_unref (t->module_paths);
  g_hash_table_unref (t->attr_cache);
  g_hash_table_unref (t->call_paths);
  g_clear_pointer (&t->signatures, g_hash_table_unref);
  g_clear_pointer (&t->stream_misses, g_hash_table_unref);
  g_ptr_array_unref (t->parsed);
  g_clear_pointer (&t->graph, graft_graph_free);
  g_clear_error (&t->error);
  g_clear_error (&t->rules_error);
  g_free ((char *) t->stem);
}

/* A program is a parsed and executed module body, whose definitions the
 * traces of several entries share (the model, the pattern and the
 * replacement of one file). */
struct _GraftPyProgram
{
  /* Owned */
  GraftSource   *source;
  GraftPyModule *module;
  Tracer         tracer;
};

/* graft_py_program_new(); with @defer, as graft_py_parse_deferring()
 * parses for @entry (graft_py_program_new_traced()). */
static GraftPyProgram *
program_new (GraftSource        *source,
             const GraftDialect *dialect,
             gboolean            defer,
             const char         *entry,
             GError            **error)
{
  GraftPyProgram *self;
  Tracer         *t;
  GraftPyModule  *module;

  module = defer ? graft_py_parse_deferring (source, entry, error) : graft_py_parse (source, error);
  if (module == NULL)
    return NULL;
  self = g_new0 (GraftPyProgram, 1);
  self->source = graft_source_ref (source);
  self->module = module;
  t = &self->tracer;
  t->source = source;
  t->module = module;
  t->dialect = dialect;
  t->chunks = g_ptr_array_new_with_free_func (g_free);
  t->chunk_used = GRAFT_TRACER_CHUNK_SIZE;
  t->hash_tables = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  t->map_indexes = g_ptr_array_new_with_free_func ((GDestroyNotify) _graft_strmap_index_free);
  t->garrays = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  t->strings = g_string_chunk_new (4096);
  t->param_nodes = g_hash_table_new (g_str_hash, g_str_equal);
  t->tensor_paths = g_hash_table_new (NULL, NULL);
  t->tensor_consts = g_hash_table_new (NULL, NULL);
  t->self_tree = g_hash_table_new (g_str_hash, g_str_equal);
  t->module_paths = g_hash_table_new (NULL, NULL);
  t->attr_cache =
      g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_hash_table_unref);
  t->call_paths = g_hash_table_new (NULL, NULL);
  t->parsed = g_ptr_array_new_with_free_func ((GDestroyNotify) graft_py_module_free);
  t->stem = module_stem (graft_source_get_filename (source));
  t->globals = _graft_tracer_frame_new (t, NULL, NULL);
  /* fx-reference runs the file as a module named after it. */
  _graft_strmap_set (&t->globals->vars, "__name__", _graft_value_str (t, t->stem, -1));
  if (!exec_module (t))
    {
      g_propagate_error (error, g_steal_pointer (&t->error));
      graft_py_program_free (self);
      return NULL;
    }
  return self;
}

/**
 * graft_py_program_new:
 * @source: Python source
 * @dialect: the torch whose symbolic_trace the program's traces follow
 * @error: return location for a located error
 *
 * Parses @source and runs its module body: imports, definitions and
 * constant assignments (nothing else runs; see exec_module()).
 *
 * Returns: (transfer full) (nullable): the program
 */
GraftPyProgram *
graft_py_program_new (GraftSource        *source,
                      const GraftDialect *dialect,
                      GError            **error)
{
  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (dialect != NULL, NULL);

  return program_new (source, dialect, FALSE, NULL, error);
}

void
graft_py_program_free (GraftPyProgram *self)
{
  if (self == NULL)
    return;
  tracer_clear (&self->tracer);
  graft_py_module_free (self->module);
  graft_source_unref (self->source);
  g_free (self);
}

/**
 * graft_py_program_has_entry:
 * @name: a class or function name
 *
 * Returns: whether the module defines @name at its top level
 */
gboolean
graft_py_program_has_entry (GraftPyProgram *self,
                            const char     *name)
{
  const GraftPyStmtList *body = graft_py_module_get_body (self->module);

  for (guint i = 0; i < body->len; i++)
    if (is_own_definition (body->items[i], name))
      return TRUE;
  return FALSE;
}

/**
 * graft_py_program_trace:
 * @entry: (nullable): the class or function to trace (cli.md's `--entry`);
 *   %NULL picks the first class with forward, else a function forward
 * @error: return location for a located error
 *
 * Traces one entry as torch.fx's `symbolic_trace` would.  Each trace starts
 * from a fresh instance of its class.
 *
 * Returns: (transfer full) (nullable): the graph
 */
static GraftGraph *
program_trace (GraftPyProgram *self,
               const char     *entry,
               GError        **error)
{
  Tracer     *t = &self->tracer;
  const char *name;
  GraftGraph *graph = NULL;

  /* Per-trace state starts empty; definitions and the arena are kept. */
  g_hash_table_remove_all (t->param_nodes);
  g_hash_table_remove_all (t->tensor_paths);
  g_hash_table_remove_all (t->tensor_consts);
  g_hash_table_remove_all (t->self_tree);
  g_hash_table_remove_all (t->module_paths);
  t->root = NULL;
  t->n_tensor_consts = 0;
  t->depth = 0;
  t->call_depth = 0;
  t->loop_steps = 0;
  t->walk_depth = 0;
  t->walk_too_deep = FALSE;
  t->tracing = FALSE;
  g_clear_error (&t->error);

  if ((name = choose_entry (t, entry)) != NULL)
    {
      t->graph = graft_graph_new (t->dialect);
      t->node_room = 0;
      t->graph_serial++;
      graft_graph_set_source (t->graph, t->source);
      if (trace_entry (t, name))
        graph = g_steal_pointer (&t->graph);
      g_clear_pointer (&t->graph, graft_graph_free);
    }
  t->tracing = FALSE;
  if (graph == NULL)
    {
      g_assert (t->error != NULL);
      g_propagate_error (error, g_steal_pointer (&t->error));
    }
  return graph;
}

GraftGraph *
graft_py_program_trace (GraftPyProgram *self,
                        const char     *entry,
                        GError        **error)
{
  g_return_val_if_fail (self != NULL, NULL);
  return program_trace (self, entry, error);
}

/* The FunctionDef graft_py_parse_deferring() left unread, or NULL: a
 * forward directly in a top-level class. */
static GraftPyStmt *
find_deferred (GraftPyModule *module)
{
  const GraftPyStmtList *body = graft_py_module_get_body (module);

  for (guint i = 0; i < body->len; i++)
    if (body->items[i]->kind == GRAFT_PY_STMT_CLASS_DEF)
      {
        const GraftPyStmtList *members = &body->items[i]->class_def.body;

        for (guint k = 0; k < members->len; k++)
          if (members->items[k]->kind == GRAFT_PY_STMT_FUNCTION_DEF &&
              members->items[k]->function_def.deferred != NULL)
            return members->items[k];
      }
  return NULL;
}

/**
 * graft_py_program_new_traced:
 * @source: Python source
 * @dialect: the torch whose symbolic_trace the program's traces follow
 * @entry: (nullable): the class or function to trace, as for
 *   graft_py_program_trace()
 * @out_graph: (out) (transfer full) (nullable): the traced graph, or
 *   %NULL with @error set
 * @error: return location for a located error
 *
 * graft_py_program_new() followed by graft_py_program_trace() of @entry,
 * with the same results and errors, but reading the body of the entry's
 * forward only as it is traced: a statement's syntax tree is freed once
 * the statement is traced, so a long straight-line forward never has
 * its whole tree in memory, and no pass walks it beforehand.
 *
 * Python compiles the whole file before it runs any of it, so a syntax
 * error anywhere wins over an error of the trace, and what a name of the
 * forward means depends on the whole body (a name bound anywhere in it
 * is its local all through).  This way is therefore only kept when it
 * ends well: the file parsed, the module ran, the trace succeeded while
 * reading every statement of the forward, and no name it looked up
 * outside its frame is bound later in the body.  Anything else (an error,
 * a yield) reads and traces the file again the usual way, which reports
 * exactly what graft_py_program_new() and graft_py_program_trace() would.
 *
 * Returns: (transfer full) (nullable): the program, for the traces of
 *   other entries; %NULL with @error set if graft_py_program_new() would
 *   fail
 */
GraftPyProgram *
graft_py_program_new_traced (GraftSource        *source,
                             const GraftDialect *dialect,
                             const char         *entry,
                             GraftGraph        **out_graph,
                             GError            **error)
{
  GraftPyProgram *self;
  GraftGraph     *graph = NULL;
  GraftPyStmt    *deferred;

  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (dialect != NULL, NULL);
  g_return_val_if_fail (out_graph != NULL, NULL);

  *out_graph = NULL;
  self = program_new (source, dialect, TRUE, entry, NULL);
  if (self != NULL)
    {
      Tracer *t = &self->tracer;

      t->may_stream = TRUE;
      graph = program_trace (self, entry, NULL);
      t->may_stream = FALSE;
      /* A forward left unread but not traced still has to compile. */
      deferred = find_deferred (self->module);
      if (graph != NULL && !t->fallback && deferred != NULL && deferred != t->streamed &&
          (!graft_py_module_read_body (self->module, deferred, NULL) ||
           !_graft_tracer_check_declarations (t, graft_py_module_get_body (self->module))))
        t->fallback = TRUE;
      if (graph == NULL || t->fallback)
        {
          g_debug ("%s: the entry is read and traced again the usual way (%s)",
                   graft_source_get_filename (source),
                   graph == NULL ? "the trace failed" : "the streamed read cannot stand");
          g_clear_pointer (&graph, graft_graph_free);
          g_clear_pointer (&self, graft_py_program_free);
        }
    }
  if (self == NULL)
    {
      self = program_new (source, dialect, FALSE, NULL, error);
      if (self == NULL)
        return NULL;
      graph = program_trace (self, entry, error);
    }
  *out_graph = graph;
  return self;
}

/**
 * graft_trace_source:
 * @source: Python source
 * @dialect: the torch whose symbolic_trace to follow
 * @entry: (nullable): the class or function to trace (cli.md's `--entry`)
 * @error: return location for a located error
 *
 * Parses @source and traces its entry as torch.fx's `symbolic_trace` would.
 *
 * Returns: (transfer full) (nullable): the graph
 */
GraftGraph *
graft_trace_source (GraftSource        *source,
                    const GraftDialect *dialect,
                    const char         *entry,
                    GError            **error)
{
  g_autoptr (GraftPyProgram) program = NULL;
  GraftGraph *graph = NULL;

  program = graft_py_program_new_traced (source, dialect, entry, &graph, error);
  return graph;
}

/* Rules files ----------------------------------------------------------- */

void
graft_py_rule_ref_free (GraftPyRuleRef *ref)
{
  if (ref == NULL)
    return;
  g_free (ref->pattern_name);
  g_free (ref->pattern_entry);
  g_free (ref->replacement_name);
  g_free (ref->replacement_entry);
  g_free (ref);
}

/**
 * graft_py_program_get_source:
 *
 * Returns: (transfer none): the program's text
 */
GraftSource *
graft_py_program_get_source (GraftPyProgram *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->source;
}

/**
 * graft_py_program_get_arena_size:
 *
 * The bytes the program's tracer holds for its values (the blocks of its
 * arena, kept until the program is freed): definitions, module objects,
 * and what each trace left there.
 *
 * Returns: a size in bytes
 */
gsize
graft_py_program_get_arena_size (GraftPyProgram *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->tracer.arena_size;
}

/**
 * graft_py_program_get_n_parsed:
 * @self: a program
 *
 * How many texts the tracer parsed besides the file: torch's signatures
 * and the pieces of the layers' checks (for tests).
 *
 * Returns: the number of texts
 */
guint
graft_py_program_get_n_parsed (GraftPyProgram *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->tracer.parsed->len;
}

/* The value of the module-level statement that binds RULES last, or
 * NULL; *out_stmt gets the statement. */
static const GraftPyExpr *
find_rules_value (GraftPyModule      *module,
                  const GraftPyStmt **out_stmt)
{
  const GraftPyStmtList *body = graft_py_module_get_body (module);
  const GraftPyExpr     *value = NULL;

  *out_stmt = NULL;
  for (guint i = 0; i < body->len; i++)
    {
      const GraftPyStmt *s = body->items[i];

      if (s->kind == GRAFT_PY_STMT_ASSIGN)
        {
          for (guint k = 0; k < s->assign.targets.len; k++)
            {
              const GraftPyExpr *target = s->assign.targets.items[k];

              if (target->kind == GRAFT_PY_EXPR_NAME && strcmp (target->name.id, "RULES") == 0)
                {
                  value = s->assign.value;
                  *out_stmt = s;
                }
            }
        }
      else if (s->kind == GRAFT_PY_STMT_ANN_ASSIGN && s->ann_assign.value != NULL &&
               s->ann_assign.target->kind == GRAFT_PY_EXPR_NAME &&
               strcmp (s->ann_assign.target->name.id, "RULES") == 0)
        {
          value = s->ann_assign.value;
          *out_stmt = s;
        }
    }
  return value;
}

/* The expression that wrote item @i of @seq, a list or tuple display of
 * @n items, or @seq itself when it is not one (a comprehension, a sum). */
static const GraftPyExpr *
item_expr (const GraftPyExpr *seq,
           guint              n,
           guint              i)
{
  if (seq != NULL &&
      (seq->kind == GRAFT_PY_EXPR_LIST || seq->kind == GRAFT_PY_EXPR_TUPLE) &&
      seq->sequence.elts.len == n)
    return seq->sequence.elts.items[i];
  return seq;
}

/* The last module-level name bound to @v (what fx-reference's
 * `{id(v): k for k, v in vars(mod).items()}` keeps), or NULL. */
static const char *
global_name_of (Tracer *t,
                Value  *v)
{
  const StrMap *vars = &t->globals->vars;
  const char   *name = NULL;

  for (guint i = 0; i < vars->keys->len; i++)
    {
      Value *w = vars->values->pdata[i];

      if (w == v || (w->kind == v->kind && ((v->kind == VAL_FUNCTION && w->fn == v->fn) ||
                                            (v->kind == VAL_CLASS && w->cls == v->cls))))
        name = vars->keys->pdata[i];
    }
  return name;
}

static guint
def_line (Tracer            *t,
          const GraftPyStmt *def)
{
  guint line = 0, column = 0;

  graft_source_locate (t->source, def->start, &line, &column);
  return line;
}

/* Whether the module-level name @name of @v's def or class still holds
 * @v at the end of the file: a rule is traced, and a pass copies it, by
 * that name.  If a later statement rebinds it (a second `def pattern`
 * after RULES took the first), the tracer's error is set at @at. */
static gboolean
rule_entry_bound (Tracer            *t,
                  Value             *v,
                  const char        *name,
                  guint              rule,
                  const char        *role,
                  const GraftPyExpr *at)
{
  Value *w = _graft_strmap_get (&t->globals->vars, name);

  if (w != NULL && w->kind == v->kind &&
      ((v->kind == VAL_FUNCTION && w->fn == v->fn) || (v->kind == VAL_CLASS && w->cls == v->cls)))
    return TRUE;
  _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_NAME,
                      "the %s of rule %u is the '%s' defined at line %u, but a later statement "
                      "binds '%s' again; Graft reads a rule's definitions by name: give each "
                      "definition a name of its own",
                      role, rule, name,
                      v->kind == VAL_FUNCTION ? def_line (t, v->fn->def)
                                              : def_line (t, v->cls->stmt),
                      name);
  return FALSE;
}

/* The def or class name that traces @v, one half of a rule, or NULL
 * with the tracer's error set at @at. */
static const char *
rule_entry (Tracer            *t,
            Value             *v,
            guint              rule,
            const char        *role,
            const GraftPyExpr *at)
{
  const char *kind = NULL;

  if (v->kind == VAL_FUNCTION && v->fn->def != NULL && v->fn->owner == NULL &&
      v->fn->closure == t->globals)
    {
      if (graft_py_module_get_body (t->module) != NULL)
        {
          const GraftPyStmtList *body = graft_py_module_get_body (t->module);

          for (guint i = 0; i < body->len; i++)
            if (body->items[i] == v->fn->def)
              return rule_entry_bound (t, v, v->fn->name, rule, role, at) ? v->fn->name : NULL;
        }
      kind = "a function not defined at module level";
    }
  else if (v->kind == VAL_CLASS)
    {
      if (!v->cls->is_module)
        kind = "a class that is not a torch.nn.Module";
      else
        return rule_entry_bound (t, v, v->cls->name, rule, role, at) ? v->cls->name : NULL;
    }
  else if (v->kind == VAL_FUNCTION && v->fn->lambda != NULL)
    kind = "a lambda";
  else if (v->kind == VAL_FUNCTION)
    kind = "a function not defined at module level";
  else if (v->kind == VAL_PATH_FN || v->kind == VAL_NN_CLASS || v->kind == VAL_PYMODULE)
    {
      _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_NAME,
                          "the %s of rule %u must be a function or a torch.nn.Module class that "
                          "the rules file defines, not '%s', which it imports",
                          role, rule, v->path);
      return NULL;
    }
  else
    kind = _graft_value_type_name (v);
  _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_NAME,
                      "the %s of rule %u must be a function or a torch.nn.Module class that the "
                      "rules file defines (got %s)",
                      role, rule, kind);
  return NULL;
}

/**
 * graft_py_program_get_rules:
 * @error: return location for an error located in the program's text
 *
 * The pairs of the program's `RULES` (cli.md, "Rules"): a non-empty list
 * or tuple of `(pattern, replacement)` pairs, each naming a function or a
 * torch.nn.Module class the file defines.  `RULES` is evaluated again
 * here, so that what the module body quietly skips (an undefined name) is
 * reported where it is.
 *
 * Returns: (transfer full) (element-type GraftPyRuleRef) (nullable): the
 *   pairs in order
 */
GPtrArray *
graft_py_program_get_rules (GraftPyProgram *self,
                            GError        **error)
{
  Tracer            *t = &self->tracer;
  const GraftPyStmt *stmt;
  const GraftPyExpr *expr = find_rules_value (self->module, &stmt);
  g_autoptr (GPtrArray) refs = NULL;
  Value *list;

  g_return_val_if_fail (self != NULL, NULL);
  if (expr == NULL)
    {
      graft_set_error_at (error, graft_source_get_filename (self->source), 1, 1,
                          GRAFT_PARSE_ERROR_NAME,
                          "the rules file defines no RULES (a list of (pattern, replacement) "
                          "pairs)");
      return NULL;
    }
  g_clear_error (&t->error);
  t->tracing = FALSE;
  /* RULES as the module body left it, each statement run where it stands
   * (a function redefined after RULES does not change it); a statement
   * that failed there is the error, at its place. */
  if (t->rules_error != NULL)
    {
      g_propagate_error (error, g_error_copy (t->rules_error));
      return NULL;
    }
  list = _graft_strmap_get (&t->globals->vars, "RULES");
  if (list == NULL)
    list = _graft_tracer_eval (t, t->globals, expr);
  if (list == NULL)
    goto failed;
  if (list->kind != VAL_LIST && list->kind != VAL_TUPLE)
    {
      _graft_tracer_fail (t, expr->start, expr->end, GRAFT_PARSE_ERROR_NAME,
                          "RULES must be a list of (pattern, replacement) pairs (got %s)",
                          _graft_value_type_name (list));
      goto failed;
    }
  if (list->seq.items->len == 0)
    {
      _graft_tracer_fail (t, expr->start, expr->end, GRAFT_PARSE_ERROR_NAME,
                          "RULES is empty: it needs at least one (pattern, replacement) pair");
      goto failed;
    }
  refs = g_ptr_array_new_with_free_func ((GDestroyNotify) graft_py_rule_ref_free);
  for (guint i = 0; i < list->seq.items->len; i++)
    {
      Value             *pair = list->seq.items->pdata[i];
      const GraftPyExpr *at = item_expr (expr, list->seq.items->len, i);
      GraftPyRuleRef    *ref;
      const char        *entries[2];

      if ((pair->kind == VAL_LIST || pair->kind == VAL_TUPLE) && pair->seq.items->len != 2)
        {
          _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_NAME,
                              "rule %u of RULES has %u item%s; a rule is a (pattern, replacement) "
                              "pair",
                              i + 1, pair->seq.items->len, pair->seq.items->len == 1 ? "" : "s");
          goto failed;
        }
      if (pair->kind != VAL_LIST && pair->kind != VAL_TUPLE)
        {
          _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_NAME,
                              "rule %u of RULES must be a (pattern, replacement) pair (got %s)",
                              i + 1, _graft_value_type_name (pair));
          goto failed;
        }
      for (guint k = 0; k < 2; k++)
        {
          entries[k] = rule_entry (t, pair->seq.items->pdata[k], i + 1,
                                   k == 0 ? "pattern" : "replacement", item_expr (at, 2, k));
          if (entries[k] == NULL)
            goto failed;
        }
      ref = g_new0 (GraftPyRuleRef, 1);
      ref->pattern_entry = g_strdup (entries[0]);
      ref->replacement_entry = g_strdup (entries[1]);
      ref->pattern_name = g_strdup (global_name_of (t, pair->seq.items->pdata[0]));
      ref->replacement_name = g_strdup (global_name_of (t, pair->seq.items->pdata[1]));
      if (ref->pattern_name == NULL)
        ref->pattern_name = g_strdup ("?");
      if (ref->replacement_name == NULL)
        ref->replacement_name = g_strdup ("?");
      ref->start = at->start;
      ref->end = at->end;
      g_ptr_array_add (refs, ref);
    }
  return g_steal_pointer (&refs);

failed:
  g_assert (t->error != NULL);
  g_propagate_error (error, g_steal_pointer (&t->error));
  return NULL;
}
