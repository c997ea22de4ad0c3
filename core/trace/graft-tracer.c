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
 * Parsing, constant folding and the torch function table live in
 * graft-py-parser.c, graft-tracer-ops.c and graft-tracer-torch.c; Python's
 * builtins and the methods of constants in graft-tracer-builtins.c.
 */
#include "config.h"

#include "graft-tracer.h"
#include "graft-tracer-private.h"
#include "graft-error.h"
#include "graft-limits.h"
#include "graft-namespace.h"
#include "graft-py-parser.h"
#include "graft-source.h"

#include <string.h>

/* Nested evaluation (expressions, statements and calls together) may go this
 * deep: the parser bounds the nesting of one function to
 * GRAFT_MAX_PARSE_DEPTH, calls multiply it, and this keeps the product far
 * inside the stack. */
#define MAX_EVAL_DEPTH 4000

#define SELF_MODULE GINT_TO_POINTER (1)
#define SELF_PARAM  GINT_TO_POINTER (2)

static Value *eval (Tracer *t, Scope *scope, const GraftPyExpr *e);
static Flow   exec_block (Tracer *t, Scope *scope, const GraftPyStmtList *body, Value **out_return);
static Value *call_function (Tracer *t, Function *fn, Value *self, PtrVec *args, StrMap *kwargs, const GraftPyExpr *at);
static Value *call_object (Tracer *t, Value *callee, PtrVec *args, StrMap *kwargs, const GraftPyExpr *at);
static gboolean assign (Tracer *t, Scope *scope, const GraftPyExpr *target, Value *value);

/* The span used for errors raised where no expression is at hand. */
static const GraftPyExpr *
span_expr (Tracer *t)
{
  static GraftPyExpr fallback;

  fallback.start = t->span_start;
  fallback.end = t->span_end;
  return &fallback;
}

/**
 * _graft_tracer_fail:
 *
 * Sets the tracer's error (the first one wins) at a byte span.
 *
 * Returns: %NULL, for `return _graft_tracer_fail (...)`
 */
Value *
_graft_tracer_fail (Tracer     *t,
                    guint32     start,
                    guint32     end,
                    GraftParseErrorCode code,
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
  graft_set_error_at_offset (&t->error, t->source, start, end, code, "%s", message);
  return NULL;
}

static Value *
fail_at (Tracer            *t,
         const GraftPyExpr *at,
         GraftParseErrorCode code,
         const char        *message)
{
  return _graft_tracer_fail (t, at->start, at->end, code, "%s", message);
}

static const char control_flow_reason[] =
  "(torch.fx: symbolically traced variables cannot be used as inputs to control flow)";

/* Scopes ---------------------------------------------------------------- */

static Scope *
scope_new (Tracer *t,
           Scope  *parent,
           Scope  *globals)
{
  Scope *scope = _graft_tracer_alloc (t, sizeof (Scope));

  _graft_strmap_init (t, &scope->vars);
  scope->parent = parent;
  scope->globals = globals != NULL ? globals : scope;
  return scope;
}

static void collect_locals (Tracer *t, GHashTable *names, const GraftPyStmtList *body);

static void
collect_target (GHashTable        *names,
                const GraftPyExpr *e)
{
  if (e == NULL)
    return;
  if (e->kind == GRAFT_PY_EXPR_NAME)
    g_hash_table_add (names, (gpointer) e->name.id);
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
                GHashTable            *names,
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
                g_hash_table_add (names, (gpointer) s->try_stmt.handlers[k]->name);
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
                g_hash_table_add (names, (gpointer) a->asname);
              else
                g_hash_table_add (names, (gpointer) _graft_tracer_strdup (t, a->name, strcspn (a->name, ".")));
            }
          break;
        case GRAFT_PY_STMT_IMPORT_FROM:
          for (guint k = 0; k < s->import_from.n_names; k++)
            {
              const GraftPyAlias *a = s->import_from.names[k];

              g_hash_table_add (names, (gpointer) (a->asname != NULL ? a->asname : a->name));
            }
          break;
        case GRAFT_PY_STMT_FUNCTION_DEF:
          g_hash_table_add (names, (gpointer) s->function_def.name);
          break;
        case GRAFT_PY_STMT_CLASS_DEF:
          g_hash_table_add (names, (gpointer) s->class_def.name);
          break;
        case GRAFT_PY_STMT_GLOBAL:
        case GRAFT_PY_STMT_NONLOCAL:
          for (guint k = 0; k < s->names.n_names; k++)
            g_hash_table_remove (names, s->names.names[k]);
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

/* Whether @name is a local variable of @fn (bound anywhere in its body). */
static gboolean
is_local_of (Tracer     *t,
             Function   *fn,
             const char *name)
{
  if (fn->def == NULL)
    return FALSE;
  if (fn->locals == NULL)
    {
      /* Keys are the AST's strings, or the arena's for `import a.b`. */
      fn->locals = g_hash_table_new (g_str_hash, g_str_equal);
      g_ptr_array_add (t->hash_tables, fn->locals);
      collect_locals (t, fn->locals, &fn->def->function_def.body);
    }
  return g_hash_table_contains (fn->locals, name);
}

static Value *
lookup (Tracer            *t,
        Scope             *scope,
        const char        *name,
        const GraftPyExpr *at)
{
  Value *v;

  /* A name the function binds somewhere is its own all through: read
   * before it is bound, it is UnboundLocalError, not the global or
   * builtin of that name. */
  if (scope->fn != NULL && scope->parent == scope->fn->closure && _graft_strmap_get (&scope->vars, name) == NULL &&
      is_local_of (t, scope->fn, name))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "UnboundLocalError: cannot access local variable '%s' where it is not associated "
                               "with a value", name);
  for (Scope *s = scope; s != NULL; s = s->parent)
    if ((v = _graft_strmap_get (&s->vars, name)) != NULL)
      return v;
  if ((v = _graft_strmap_get (&scope->globals->vars, name)) != NULL)
    return v;
  if ((v = _graft_tracer_lookup_builtin (t, name)) != NULL)
    return v;
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                             "name '%s' is not defined", name);
}

/* Nodes and arguments ------------------------------------------------------ */

/**
 * _graft_tracer_append_proxy_repr:
 * @proxy: a traced value
 *
 * Appends `repr(proxy)`, `Proxy(name)`, which needs no value (an
 * attribute's node is made for it, as torch's Attribute.node is).
 *
 * Returns: %FALSE with the tracer's error if the node cannot be made
 */
gboolean
_graft_tracer_append_proxy_repr (Tracer  *t,
                                 GString *out,
                                 Value   *proxy)
{
  GraftNode *node = _graft_tracer_node_of (t, proxy);

  if (node == NULL)
    return FALSE;
  g_string_append_printf (out, "Proxy(%s)", graft_node_get_name (node));
  return TRUE;
}

/**
 * _graft_tracer_node_of:
 *
 * The node of a traced value; a lazy attribute (`x.shape`) becomes its
 * getattr node here, on first use, as torch.fx's `Attribute.node` does.
 */
GraftNode *
_graft_tracer_node_of (Tracer *t,
                       Value  *v)
{
  PtrVec *chain;

  if (v->kind == VAL_PROXY)
    return v->node;
  if (v->kind != VAL_ATTR_PROXY)
    return NULL;
  if (v->attr.made != NULL)
    return v->attr.made;

  /* `x.a.b.c` whose parts were never used: make the getattr nodes from the
   * innermost out.  A loop, not recursion: a chain may be as long as the
   * file (`h = h.shape` repeated). */
  chain = _graft_tracer_vec (t);
  for (Value *cur = v; cur->kind == VAL_ATTR_PROXY && cur->attr.made == NULL; cur = cur->attr.base)
    _graft_vec_add (chain, cur);
  for (guint i = chain->len; i > 0; i--)
    {
      Value *link = chain->pdata[i - 1];
      PtrVec *args = _graft_tracer_vec (t);
      Value *made;

      _graft_vec_add (args, link->attr.base);
      _graft_vec_add (args, _graft_value_str (t, link->attr.attr, -1));
      made = _graft_tracer_make_node (t, GRAFT_OP_CALL_FUNCTION, "builtins.getattr",
                                      args, NULL, NULL, span_expr (t));
      if (made == NULL)
        return NULL;
      link->attr.made = made->node;
    }
  return v->attr.made;
}

/* The get_attr node for a tensor passed to an op: its buffer or attribute
 * path, or a `_tensor_constantN` of its own (torch.fx's `create_arg`). */
static GraftNode *
tensor_node (Tracer            *t,
             Value             *tensor,
             const GraftPyExpr *at)
{
  const char *path = g_hash_table_lookup (t->tensor_paths, tensor);
  Value *made;

  if (path == NULL)
    {
      path = g_hash_table_lookup (t->tensor_consts, tensor);
      if (path == NULL)
        {
          path = _graft_tracer_printf (t, "_tensor_constant%u", t->n_tensor_consts++);
          g_hash_table_insert (t->tensor_consts, tensor, (gpointer) path);
        }
    }
  made = _graft_tracer_make_node (t, GRAFT_OP_GET_ATTR, path, NULL, NULL, NULL, at);
  return made != NULL ? made->node : NULL;
}

/**
 * _graft_tracer_to_arg:
 * @out: (out): the argument, initialised on success
 *
 * torch.fx's `Tracer.create_arg`: turns a value into a node argument.
 * Traced values become node references, tensors get_attr nodes, constants
 * literals; modules and functions cannot be arguments.
 *
 * Returns: %FALSE with the tracer's error set on failure
 */
gboolean
_graft_tracer_to_arg (Tracer            *t,
                      Value             *v,
                      GraftArg          *out,
                      const GraftPyExpr *at)
{
  GraftNode *node;

  switch (v->kind)
    {
    case VAL_NONE:
      graft_arg_init_none (out);
      return TRUE;
    case VAL_BOOL:
      graft_arg_init_bool (out, v->b);
      return TRUE;
    case VAL_INT:
      graft_arg_init_int (out, v->i);
      return TRUE;
    case VAL_FLOAT:
      graft_arg_init_float (out, v->f);
      return TRUE;
    case VAL_COMPLEX:
      graft_arg_init_complex (out, v->c[0], v->c[1]);
      return TRUE;
    case VAL_STR:
      graft_arg_init_str (out, v->str.s, v->str.len);
      return TRUE;
    case VAL_ELLIPSIS:
      graft_arg_init_ellipsis (out);
      return TRUE;
    case VAL_SYMBOL:
      graft_arg_init_symbol (out, v->path);
      return TRUE;
    case VAL_DEVICE:
      graft_arg_init_device (out, v->path);
      return TRUE;
    case VAL_PROXY:
    case VAL_ATTR_PROXY:
      node = _graft_tracer_node_of (t, v);
      if (node == NULL)
        return FALSE;
      graft_arg_init_node (out, node);
      return TRUE;
    case VAL_TENSOR:
    case VAL_PARAMETER:
      node = tensor_node (t, v, at);
      if (node == NULL)
        return FALSE;
      graft_arg_init_node (out, node);
      return TRUE;
    case VAL_TUPLE:
    case VAL_LIST:
      graft_arg_init_seq (out, v->kind == VAL_TUPLE ? GRAFT_ARG_TUPLE : GRAFT_ARG_LIST, v->seq.items->len);
      for (guint i = 0; i < v->seq.items->len; i++)
        if (!_graft_tracer_to_arg (t, v->seq.items->pdata[i], &out->items[i], at))
          {
            graft_arg_clear (out);
            return FALSE;
          }
      return TRUE;
    case VAL_DICT:
      graft_arg_init_dict (out, v->dict.keys->len);
      for (guint i = 0; i < v->dict.keys->len; i++)
        {
          Value *key = v->dict.keys->pdata[i];

          if (_graft_value_holds_proxy (key) ||
              !_graft_tracer_to_arg (t, key, &out->items[2 * i], at) ||
              !_graft_tracer_to_arg (t, v->dict.values->pdata[i], &out->items[2 * i + 1], at))
            {
              graft_arg_clear (out);
              if (t->error == NULL)
                fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                         "a traced value cannot be a dict key of an argument (torch.fx: Keys for dictionaries used as "
                         "an argument cannot contain a Node)");
              return FALSE;
            }
        }
      return TRUE;
    case VAL_SLICE:
      graft_arg_init_slice (out);
      if (!_graft_tracer_to_arg (t, v->slice.start, &out->items[0], at) ||
          !_graft_tracer_to_arg (t, v->slice.stop, &out->items[1], at) ||
          !_graft_tracer_to_arg (t, v->slice.step, &out->items[2], at))
        {
          graft_arg_clear (out);
          return FALSE;
        }
      return TRUE;
    case VAL_TYPE:
    case VAL_GENERIC:
    case VAL_PYMODULE:
    case VAL_PATH_FN:
    case VAL_NN_CLASS:
    case VAL_FUNCTION:
    case VAL_CLASS:
    case VAL_OBJECT:
    case VAL_SELF_PATH:
    case VAL_BOUND:
    case VAL_BUILTIN:
    case VAL_METHOD:
    case VAL_SUPER:
    default:
      _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "a %s cannot be an argument of a traced operation",
                          _graft_value_type_name (v));
      return FALSE;
    }
}

/* torch.fx writes method names, module paths and attribute names into the
 * generated code as they are; a Python keyword there (`x.if()`,
 * `self.lambda(x)`) makes that code invalid and torch's trace fail with a
 * SyntaxError.  Graft reports it where the name is used. */
static gboolean
target_is_printable (Tracer            *t,
                     GraftOp            op,
                     const char        *target,
                     PtrVec         *args,
                     const GraftPyExpr *at)
{
  const char *name = NULL;

  if (op == GRAFT_OP_CALL_METHOD)
    name = graft_is_python_keyword (target) ? target : NULL;
  else if (op == GRAFT_OP_CALL_MODULE || op == GRAFT_OP_GET_ATTR)
    {
      /* Each dotted part; no keyword is longer than 8 bytes. */
      for (const char *part = target; name == NULL;)
        {
          const char *dot = strchr (part, '.');
          gsize len = dot != NULL ? (gsize) (dot - part) : strlen (part);
          char word[16];

          if (len < sizeof word)
            {
              memcpy (word, part, len);
              word[len] = '\0';
              if (graft_is_python_keyword (word))
                name = _graft_tracer_strdup (t, word, -1);
            }
          if (dot == NULL)
            break;
          part = dot + 1;
        }
    }
  else if (op == GRAFT_OP_CALL_FUNCTION && strcmp (target, "builtins.getattr") == 0 &&
           args != NULL && args->len == 2 && ((Value *) args->pdata[1])->kind == VAL_STR &&
           graft_is_python_keyword (((Value *) args->pdata[1])->str.s))
    name = ((Value *) args->pdata[1])->str.s;
  if (name == NULL)
    return TRUE;
  _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                      "'%s' is a Python keyword: torch.fx would write it into the generated code as a name, "
                      "which is a syntax error", name);
  return FALSE;
}

/**
 * _graft_tracer_make_node:
 * @args: (element-type Value) (nullable): positional arguments
 * @kwargs: (nullable): keyword arguments
 * @name: (nullable): the name candidate, %NULL to derive it from @target
 *
 * torch.fx's `create_proxy`: converts the arguments (which may create
 * get_attr and getattr nodes first), then records the node.
 *
 * Returns: (nullable): a proxy for the node
 */
Value *
_graft_tracer_make_node (Tracer            *t,
                         GraftOp            op,
                         const char        *target,
                         PtrVec         *args,
                         StrMap            *kwargs,
                         const char        *name,
                         const GraftPyExpr *at)
{
  GraftArg a, k;
  GraftNode *node;

  if (!t->tracing || t->graph == NULL)
    return fail_at (t, at, GRAFT_PARSE_ERROR_UNSUPPORTED,
                    "this operation needs a traced value, but runs before tracing starts");
  if (!target_is_printable (t, op, target, args, at))
    return NULL;
  if (graft_graph_get_n_nodes (t->graph) >= GRAFT_MAX_NODES)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_LIMIT,
                               "the graph would have more than %u nodes", GRAFT_MAX_NODES);

  graft_arg_init_seq (&a, GRAFT_ARG_TUPLE, args != NULL ? args->len : 0);
  for (guint i = 0; args != NULL && i < args->len; i++)
    if (!_graft_tracer_to_arg (t, args->pdata[i], &a.items[i], at))
      {
        graft_arg_clear (&a);
        return NULL;
      }
  graft_arg_init_dict (&k, kwargs != NULL ? kwargs->keys->len : 0);
  for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
    {
      graft_arg_init_str (&k.items[2 * i], kwargs->keys->pdata[i], -1);
      if (!_graft_tracer_to_arg (t, kwargs->values->pdata[i], &k.items[2 * i + 1], at))
        {
          graft_arg_clear (&a);
          graft_arg_clear (&k);
          return NULL;
        }
    }
  node = graft_graph_create_node (t->graph, op, target, &a, &k, name, NULL);
  graft_node_set_span (node, at->start, at->end);
  return _graft_value_proxy (t, node);
}

/* Truth and iteration ---------------------------------------------------- */

/**
 * _graft_tracer_truth:
 *
 * Python's `bool(v)`.  A traced value has no truth value while tracing.
 */
gboolean
_graft_tracer_truth (Tracer            *t,
                     Value             *v,
                     const GraftPyExpr *at,
                     gboolean          *out)
{
  switch (v->kind)
    {
    case VAL_NONE:
      *out = FALSE;
      return TRUE;
    case VAL_BOOL:
      *out = v->b;
      return TRUE;
    case VAL_INT:
      *out = v->i != 0;
      return TRUE;
    case VAL_FLOAT:
      *out = v->f != 0;
      return TRUE;
    case VAL_COMPLEX:
      *out = v->c[0] != 0 || v->c[1] != 0;
      return TRUE;
    case VAL_STR:
      *out = v->str.len != 0;
      return TRUE;
    case VAL_TUPLE:
    case VAL_LIST:
      *out = v->seq.items->len != 0;
      return TRUE;
    case VAL_DICT:
      *out = v->dict.keys->len != 0;
      return TRUE;
    case VAL_PROXY:
    case VAL_ATTR_PROXY:
      _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                          "the truth value of a traced value is not known while tracing %s",
                          control_flow_reason);
      return FALSE;
    case VAL_TENSOR:
    case VAL_PARAMETER:
      _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "the truth value of a constant tensor depends on its data, which Graft does not compute");
      return FALSE;
    case VAL_OBJECT:
      if (v->obj->kind == OBJ_MODULE_LIST || v->obj->kind == OBJ_SEQUENTIAL ||
          v->obj->kind == OBJ_MODULE_DICT || v->obj->kind == OBJ_PARAMETER_LIST)
        {
          *out = v->obj->modules.keys->len + v->obj->params.keys->len != 0;
          return TRUE;
        }
      *out = TRUE;
      return TRUE;
    case VAL_ELLIPSIS:
    case VAL_SLICE:
    case VAL_SYMBOL:
    case VAL_DEVICE:
    case VAL_PYMODULE:
    case VAL_PATH_FN:
    case VAL_NN_CLASS:
    case VAL_FUNCTION:
    case VAL_CLASS:
    case VAL_SELF_PATH:
    case VAL_BOUND:
    case VAL_BUILTIN:
    case VAL_METHOD:
    case VAL_SUPER:
    case VAL_TYPE:
    case VAL_GENERIC:
    default:
      *out = TRUE;
      return TRUE;
    }
}

/**
 * _graft_tracer_iterate:
 *
 * `list(v)` for a value Python can iterate: sequences, dict keys, the
 * characters of a string, the children of module containers.  A traced value
 * cannot be iterated (torch.fx raises TraceError).
 *
 * Returns: (nullable): a list value
 */
Value *
_graft_tracer_iterate (Tracer            *t,
                       Value             *v,
                       const GraftPyExpr *at)
{
  Value *out;

  switch (v->kind)
    {
    case VAL_TUPLE:
    case VAL_LIST:
      out = _graft_value_seq (t, VAL_LIST, 0);
      for (guint i = 0; i < v->seq.items->len; i++)
        _graft_value_seq_add (out, v->seq.items->pdata[i]);
      return out;
    case VAL_DICT:
      out = _graft_value_seq (t, VAL_LIST, 0);
      for (guint i = 0; i < v->dict.keys->len; i++)
        _graft_value_seq_add (out, v->dict.keys->pdata[i]);
      return out;
    case VAL_STR:
      out = _graft_value_seq (t, VAL_LIST, 0);
      for (const char *p = v->str.s; p < v->str.s + v->str.len; p = g_utf8_next_char (p))
        _graft_value_seq_add (out, _graft_value_str (t, p, g_utf8_next_char (p) - p));
      return out;
    case VAL_OBJECT:
      out = _graft_value_seq (t, VAL_LIST, 0);
      switch (v->obj->kind)
        {
        case OBJ_SEQUENTIAL:
        case OBJ_MODULE_LIST:
          for (guint i = 0; i < v->obj->modules.values->len; i++)
            _graft_value_seq_add (out, v->obj->modules.values->pdata[i]);
          return out;
        case OBJ_MODULE_DICT:
          for (guint i = 0; i < v->obj->modules.keys->len; i++)
            _graft_value_seq_add (out, _graft_value_str (t, v->obj->modules.keys->pdata[i], -1));
          return out;
        case OBJ_PARAMETER_LIST:
          for (guint i = 0; i < v->obj->params.values->len; i++)
            _graft_value_seq_add (out, v->obj->params.values->pdata[i]);
          return out;
        case OBJ_PLAIN:
        case OBJ_USER_MODULE:
        case OBJ_LEAF:
        default:
          break;
        }
      break;
    case VAL_PROXY:
    case VAL_ATTR_PROXY:
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                 "a traced value cannot be iterated: its length is not known while tracing "
                                 "(torch.fx: Proxy object cannot be iterated)");
    case VAL_NONE:
    case VAL_BOOL:
    case VAL_INT:
    case VAL_FLOAT:
    case VAL_COMPLEX:
    case VAL_ELLIPSIS:
    case VAL_SLICE:
    case VAL_SYMBOL:
    case VAL_DEVICE:
    case VAL_PYMODULE:
    case VAL_PATH_FN:
    case VAL_NN_CLASS:
    case VAL_FUNCTION:
    case VAL_CLASS:
    case VAL_SELF_PATH:
    case VAL_BOUND:
    case VAL_BUILTIN:
    case VAL_METHOD:
    case VAL_TENSOR:
    case VAL_PARAMETER:
    case VAL_SUPER:
    case VAL_TYPE:
    case VAL_GENERIC:
    default:
      break;
    }
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "'%s' object is not iterable", _graft_value_type_name (v));
}

/* Modules and attributes -------------------------------------------------- */

static gboolean
object_is_module (const Object *obj)
{
  return obj->kind != OBJ_PLAIN;
}

static const char *
join_path (Tracer     *t,
           const char *base,
           const char *name)
{
  if (base == NULL || *base == '\0')
    return _graft_tracer_strdup (t, name, -1);
  return _graft_tracer_printf (t, "%s.%s", base, name);
}

/* Finds @name in a class and its bases, depth first, left to right (the
 * MRO of the single-inheritance hierarchies that model files use). */
static Value *
class_lookup (Class      *cls,
              const char *name,
              Class     **out_owner)
{
  Value *v = _graft_strmap_get (&cls->ns, name);

  if (v != NULL)
    {
      if (out_owner != NULL)
        *out_owner = cls;
      return v;
    }
  for (guint i = 0; i < cls->bases->len; i++)
    {
      Value *base = cls->bases->pdata[i];

      if (base->kind == VAL_CLASS && (v = class_lookup (base->cls, name, out_owner)) != NULL)
        return v;
    }
  return NULL;
}

/* The first base after @after in @cls's hierarchy that defines @name. */
static Value *
super_lookup (Class      *cls,
              Class      *after,
              const char *name,
              Class     **out_owner)
{
  if (cls == after)
    {
      for (guint i = 0; i < cls->bases->len; i++)
        {
          Value *base = cls->bases->pdata[i];
          Value *v;

          if (base->kind == VAL_CLASS && (v = class_lookup (base->cls, name, out_owner)) != NULL)
            return v;
        }
      return NULL;
    }
  for (guint i = 0; i < cls->bases->len; i++)
    {
      Value *base = cls->bases->pdata[i];

      if (base->kind == VAL_CLASS)
        {
          Value *v = super_lookup (base->cls, after, name, out_owner);

          if (v != NULL)
            return v;
        }
    }
  return NULL;
}

static Value *
bind_method (Tracer *t,
             Value  *self,
             Value  *fn)
{
  Value *bound;

  if (fn->kind != VAL_FUNCTION || fn->fn->is_static)
    return fn;
  bound = _graft_value_new (t, VAL_BOUND);
  bound->bound.self = self;
  bound->bound.fn = fn;
  return bound;
}

/* A parameter access while tracing: one get_attr node per qualified name for
 * the whole trace, made at the first access (torch.fx's
 * `parameter_proxy_cache`). */
static Value *
parameter_proxy (Tracer            *t,
                 const char        *path,
                 const GraftPyExpr *at)
{
  GraftNode *node = g_hash_table_lookup (t->param_nodes, path);
  Value *made;

  if (node != NULL)
    return _graft_value_proxy (t, node);
  made = _graft_tracer_make_node (t, GRAFT_OP_GET_ATTR, path, NULL, NULL, NULL, at);
  if (made != NULL)
    g_hash_table_insert (t->param_nodes, (gpointer) path, made->node);
  return made;
}

/* Names of the tensors a torch.nn leaf module holds as buffers; any other
 * tensor attribute read from a leaf is taken for a parameter. */
static gboolean
is_leaf_buffer_name (const char *name)
{
  return strcmp (name, "running_mean") == 0 || strcmp (name, "running_var") == 0 ||
         strcmp (name, "num_batches_tracked") == 0;
}

static gboolean
is_leaf_param_name (const char *name)
{
  return g_str_has_prefix (name, "weight") || g_str_has_prefix (name, "bias") ||
         g_str_has_suffix (name, "_weight") || g_str_has_suffix (name, "_bias") ||
         g_str_has_prefix (name, "in_proj") || strcmp (name, "out_proj") == 0;
}

static Value *
module_getattr (Tracer            *t,
                Value             *self,
                const char        *name,
                const GraftPyExpr *at)
{
  Object *obj = self->obj;
  Value *v;
  Class *owner = NULL;

  if ((v = _graft_strmap_get (&obj->attrs, name)) != NULL)
    return v;
  if (obj->cls != NULL && (v = class_lookup (obj->cls, name, &owner)) != NULL)
    {
      if (v->kind == VAL_FUNCTION && v->fn->is_property)
        {
          PtrVec *args = _graft_tracer_vec (t);

          return call_function (t, v->fn, self, args, NULL, at);
        }
      return bind_method (t, self, v);
    }
  if ((v = _graft_strmap_get (&obj->params, name)) != NULL)
    {
      const char *base = g_hash_table_lookup (t->module_paths, obj);

      if (t->tracing && base != NULL)
        return parameter_proxy (t, join_path (t, base, name), at);
      return v;
    }
  if ((v = _graft_strmap_get (&obj->buffers, name)) != NULL)
    return v;
  if ((v = _graft_strmap_get (&obj->modules, name)) != NULL)
    return v;
  if (strcmp (name, "training") == 0)
    return _graft_value_bool (TRUE);
  if (obj->kind == OBJ_LEAF)
    {
      /* A leaf's tensors are made on first access so that they keep their
       * identity afterwards. */
      if (is_leaf_buffer_name (name))
        {
          v = _graft_value_tensor (t);
          _graft_strmap_set (&obj->buffers, _graft_tracer_strdup (t, name, -1), v);
          return v;
        }
      if (is_leaf_param_name (name))
        {
          v = _graft_value_new (t, VAL_PARAMETER);
          v->tensor.id = ++t->n_tensors;
          _graft_strmap_set (&obj->params, _graft_tracer_strdup (t, name, -1), v);
          return module_getattr (t, self, name, at);
        }
    }
  if (_graft_tracer_has_method (self, name))
    {
      Value *m = _graft_value_new (t, VAL_METHOD);

      m->method.recv = self;
      m->method.name = _graft_tracer_strdup (t, name, -1);
      return m;
    }
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                             "'%s' object has no attribute '%s'", obj->class_name, name);
}

/* In a top-level `def forward(self, ...)`, `self.a.b` is a submodule path
 * while some longer path or call goes through it, and otherwise a parameter
 * (cli.md; fx-reference builds the same module). */
static Value *
self_path_getattr (Tracer            *t,
                   Value             *base,
                   const char        *name,
                   const GraftPyExpr *at)
{
  const char *path = join_path (t, base->path, name);
  gpointer kind = g_hash_table_lookup (t->self_tree, path);

  if (kind == SELF_PARAM)
    return parameter_proxy (t, path, at);
  return _graft_value_path (t, VAL_SELF_PATH, path);
}

/**
 * _graft_tracer_getattr:
 *
 * `obj.name` for any value.
 */
Value *
_graft_tracer_getattr (Tracer            *t,
                       Value             *obj,
                       const char        *name,
                       const GraftPyExpr *at)
{
  Value *v;
  Class *owner = NULL;

  switch (obj->kind)
    {
    case VAL_PROXY:
    case VAL_ATTR_PROXY:
      v = _graft_value_new (t, VAL_ATTR_PROXY);
      v->attr.base = obj;
      v->attr.attr = _graft_tracer_strdup (t, name, -1);
      return v;
    case VAL_PYMODULE:
      return _graft_tracer_torch_attr (t, join_path (t, obj->path, name), at);
    case VAL_PATH_FN:
      /* `torch.ops.aten.add` is a packet and `.Tensor` one of its overloads. */
      if (g_str_has_prefix (obj->path, "torch.ops."))
        return _graft_value_path (t, VAL_PATH_FN, join_path (t, obj->path, name));
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                 "%s has no attribute '%s' that Graft models", obj->path, name);
    case VAL_SELF_PATH:
      return self_path_getattr (t, obj, name, at);
    case VAL_OBJECT:
      if (object_is_module (obj->obj))
        return module_getattr (t, obj, name, at);
      if ((v = _graft_strmap_get (&obj->obj->attrs, name)) != NULL)
        return v;
      if (obj->obj->cls != NULL && (v = class_lookup (obj->obj->cls, name, &owner)) != NULL)
        {
          if (v->kind == VAL_FUNCTION && v->fn->is_property)
            return call_function (t, v->fn, obj, _graft_tracer_vec (t), NULL, at);
          return bind_method (t, obj, v);
        }
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                 "'%s' object has no attribute '%s'", obj->obj->class_name, name);
    case VAL_CLASS:
      if ((v = class_lookup (obj->cls, name, &owner)) != NULL)
        return v;
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                 "class '%s' has no attribute '%s'", obj->cls->name, name);
    case VAL_SUPER:
      {
        Class *cls = obj->super.self->kind == VAL_OBJECT ? obj->super.self->obj->cls : NULL;

        v = cls != NULL ? super_lookup (cls, obj->super.after, name, &owner) : NULL;
        if (v != NULL)
          return bind_method (t, obj->super.self, v);
        if (strcmp (name, "__init__") == 0)
          {
            /* nn.Module.__init__ and object.__init__: nothing to do. */
            Value *noop = _graft_value_path (t, VAL_BUILTIN, "__graft_noop__");
            return noop;
          }
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "super().%s is not a method Graft can follow", name);
      }
    case VAL_TENSOR:
    case VAL_PARAMETER:
      if (strcmp (name, "data") == 0)
        return obj->kind == VAL_PARAMETER && obj->tensor.data != NULL ? obj->tensor.data : obj;
      if (strcmp (name, "shape") == 0 || strcmp (name, "dtype") == 0 || strcmp (name, "device") == 0)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "the %s of a constant tensor depends on its data, which Graft does not compute", name);
      /* Any other attribute of a constant tensor is taken for a method. */
      v = _graft_value_new (t, VAL_METHOD);
      v->method.recv = obj;
      v->method.name = _graft_tracer_strdup (t, name, -1);
      return v;
    case VAL_NONE:
    case VAL_BOOL:
    case VAL_INT:
    case VAL_FLOAT:
    case VAL_COMPLEX:
    case VAL_STR:
    case VAL_ELLIPSIS:
    case VAL_TUPLE:
    case VAL_LIST:
    case VAL_DICT:
    case VAL_SLICE:
    case VAL_SYMBOL:
    case VAL_DEVICE:
    case VAL_NN_CLASS:
    case VAL_FUNCTION:
    case VAL_BOUND:
    case VAL_BUILTIN:
    case VAL_METHOD:
    case VAL_TYPE:
    case VAL_GENERIC:
    default:
      if (obj->kind == VAL_SLICE)
        {
          if (strcmp (name, "start") == 0)
            return obj->slice.start;
          if (strcmp (name, "stop") == 0)
            return obj->slice.stop;
          if (strcmp (name, "step") == 0)
            return obj->slice.step;
        }
      if (obj->kind == VAL_COMPLEX && (strcmp (name, "real") == 0 || strcmp (name, "imag") == 0))
        return _graft_value_float (t, obj->c[name[0] == 'r' ? 0 : 1]);
      if (obj->kind == VAL_DEVICE && (strcmp (name, "type") == 0 || strcmp (name, "index") == 0))
        {
          const char *colon = strchr (obj->path, ':');

          if (name[0] == 't')
            return _graft_value_str (t, obj->path, colon != NULL ? colon - obj->path : -1);
          return colon != NULL ? _graft_value_int (t, g_ascii_strtoll (colon + 1, NULL, 10)) : _graft_value_none ();
        }
      if (_graft_tracer_has_method (obj, name))
        {
          v = _graft_value_new (t, VAL_METHOD);
          v->method.recv = obj;
          v->method.name = _graft_tracer_strdup (t, name, -1);
          return v;
        }
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                 "'%s' object has no attribute '%s'", _graft_value_type_name (obj), name);
    }
}

static gboolean
module_setattr (Tracer     *t,
                Object     *obj,
                const char *name,
                Value      *value)
{
  name = _graft_tracer_strdup (t, name, -1);
  /* nn.Module.__setattr__: parameters, modules and buffers go to their own
   * dicts; anything else is a plain attribute. */
  if (value->kind == VAL_PARAMETER)
    {
      _graft_strmap_remove (&obj->attrs, name);
      _graft_strmap_remove (&obj->modules, name);
      _graft_strmap_set (&obj->params, name, value);
      return TRUE;
    }
  if (value->kind == VAL_OBJECT && object_is_module (value->obj))
    {
      _graft_strmap_remove (&obj->attrs, name);
      _graft_strmap_remove (&obj->params, name);
      _graft_strmap_set (&obj->modules, name, value);
      return TRUE;
    }
  if (_graft_strmap_get (&obj->buffers, name) != NULL)
    {
      _graft_strmap_set (&obj->buffers, name, value);
      return TRUE;
    }
  _graft_strmap_remove (&obj->params, name);
  _graft_strmap_remove (&obj->modules, name);
  _graft_strmap_set (&obj->attrs, name, value);
  return TRUE;
}

gboolean
_graft_tracer_setattr (Tracer            *t,
               Value             *obj,
               const char        *name,
               Value             *value,
               const GraftPyExpr *at)
{
  if (obj->kind == VAL_OBJECT)
    {
      if (object_is_module (obj->obj))
        return module_setattr (t, obj->obj, name, value);
      _graft_strmap_set (&obj->obj->attrs, _graft_tracer_strdup (t, name, -1), value);
      return TRUE;
    }
  if (obj->kind == VAL_CLASS)
    {
      _graft_strmap_set (&obj->cls->ns, _graft_tracer_strdup (t, name, -1), value);
      return TRUE;
    }
  if (obj->kind == VAL_PYMODULE)
    {
      /* `math.pi = 3` changes what later code means: skipping it at module
       * level, as other unmodelled assignments are, would trace wrongly. */
      _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "cannot set attribute '%s' of module '%s': Graft does not model changes to imported modules",
                          name, obj->path);
      t->error_is_fatal = TRUE;
      return FALSE;
    }
  _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                      "cannot set attribute '%s' of a %s%s", name, _graft_value_type_name (obj),
                      _graft_value_is_proxy (obj) ? " (torch.fx cannot record attribute assignment)" : "");
  return FALSE;
}

/**
 * _graft_tracer_index_object:
 *
 * `obj[index]` for module containers (`self.layers[0]`, `self.blocks[-1]`,
 * `self.deep['a']`, slices of a Sequential) and objects with __getitem__.
 */
Value *
_graft_tracer_index_object (Tracer            *t,
                            Value             *obj,
                            Value             *index,
                            const GraftPyExpr *at)
{
  Object *o = obj->obj;
  StrMap *children = o->kind == OBJ_PARAMETER_LIST ? &o->params : &o->modules;
  guint n = children->keys->len;

  if (o->kind == OBJ_SEQUENTIAL || o->kind == OBJ_MODULE_LIST || o->kind == OBJ_PARAMETER_LIST)
    {
      gint64 i;

      if (index->kind == VAL_SLICE)
        {
          Value *keys = _graft_value_seq (t, VAL_LIST, 0);
          Value *picked;
          Object *copy;
          Value *result;

          for (guint k = 0; k < n; k++)
            _graft_value_seq_add (keys, children->values->pdata[k]);
          picked = _graft_tracer_subscript (t, keys, index, at);
          if (picked == NULL)
            return NULL;
          /* A slice is a new container of the same modules; their paths
           * are still found through the root (torch's path_of_module). */
          copy = _graft_tracer_alloc (t, sizeof (Object));
          copy->kind = o->kind;
          copy->class_name = o->class_name;
          _graft_strmap_init (t, &copy->attrs);
          _graft_strmap_init (t, &copy->modules);
          _graft_strmap_init (t, &copy->params);
          _graft_strmap_init (t, &copy->buffers);
          for (guint k = 0; k < picked->seq.items->len; k++)
            _graft_strmap_set (o->kind == OBJ_PARAMETER_LIST ? &copy->params : &copy->modules,
                               _graft_tracer_printf (t, "%u", k), picked->seq.items->pdata[k]);
          result = _graft_value_new (t, VAL_OBJECT);
          result->obj = copy;
          return result;
        }
      if (_graft_value_is_proxy (index))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "a traced value cannot index a module container");
      if (index->kind == VAL_INT)
        i = index->i;
      else if (index->kind == VAL_BOOL)
        i = index->b;
      else
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "%s indices must be integers", o->class_name);
      if (i < 0)
        i += n;
      if (i < 0 || i >= (gint64) n)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "index %" G_GINT64_FORMAT " is out of range for %s of length %u",
                                   index->kind == VAL_INT ? index->i : (gint64) index->b, o->class_name, n);
      if (o->kind == OBJ_PARAMETER_LIST && t->tracing)
        {
          const char *base = g_hash_table_lookup (t->module_paths, o);

          if (base != NULL)
            return parameter_proxy (t, join_path (t, base, children->keys->pdata[i]), at);
        }
      return children->values->pdata[i];
    }
  if (o->kind == OBJ_MODULE_DICT)
    {
      Value *v;

      if (index->kind != VAL_STR)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "ModuleDict keys are strings");
      v = _graft_strmap_get (&o->modules, index->str.s);
      if (v == NULL)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "ModuleDict has no key '%s'", index->str.s);
      return v;
    }
  if (o->cls != NULL)
    {
      Value *fn = class_lookup (o->cls, "__getitem__", NULL);

      if (fn != NULL)
        {
          PtrVec *args = _graft_tracer_vec (t);

          _graft_vec_add (args, index);
          return call_object (t, bind_method (t, obj, fn), args, NULL, at);
        }
    }
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "'%s' object is not subscriptable", o->class_name);
}

/* Calls ------------------------------------------------------------------ */

static Object *
object_new (Tracer     *t,
            ObjectKind  kind,
            const char *class_name,
            Class      *cls)
{
  Object *obj = _graft_tracer_alloc (t, sizeof (Object));

  obj->kind = kind;
  obj->class_name = _graft_tracer_strdup (t, class_name, -1);
  obj->cls = cls;
  _graft_strmap_init (t, &obj->attrs);
  _graft_strmap_init (t, &obj->modules);
  _graft_strmap_init (t, &obj->params);
  _graft_strmap_init (t, &obj->buffers);
  return obj;
}

/**
 * _graft_tracer_new_object:
 *
 * Returns: a new object value of @kind (used for torch.nn classes too)
 */
Value *
_graft_tracer_new_object (Tracer     *t,
                          ObjectKind  kind,
                          const char *class_name)
{
  Value *v = _graft_value_new (t, VAL_OBJECT);

  v->obj = object_new (t, kind, class_name, NULL);
  return v;
}

static const GraftPyArguments *
function_params (Function *fn)
{
  return fn->def != NULL ? fn->def->function_def.args : fn->lambda->lambda.args;
}

/* Binds a call's arguments to parameters as Python does.  @out_values gets
 * one value per parameter in the order posonly, args, vararg, kwonly, kwarg
 * (vararg a tuple, kwarg a dict), all set on success. */
static gboolean
bind_arguments (Tracer                 *t,
                const char             *fn_name,
                const GraftPyArguments *params,
                Value                 **defaults,
                Value                 **kw_defaults,
                PtrVec              *args,
                StrMap                 *kwargs,
                Value                 **out_values,
                const GraftPyExpr      *at)
{
  guint n_pos = params->n_posonly + params->n_args;
  guint n_args = args != NULL ? args->len : 0;
  guint slot_vararg = n_pos;
  guint slot_kwonly = n_pos + (params->vararg != NULL ? 1 : 0);
  guint slot_kwarg = slot_kwonly + params->n_kwonly;
  Value *rest = NULL, *extra_kw = NULL;

  for (guint i = 0; i < n_args; i++)
    {
      if (i < n_pos)
        out_values[i] = args->pdata[i];
      else if (params->vararg != NULL)
        {
          if (rest == NULL)
            rest = _graft_value_seq (t, VAL_TUPLE, 0);
          _graft_value_seq_add (rest, args->pdata[i]);
        }
      else
        {
          _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                              "%s() takes %u positional argument%s but %u were given",
                              fn_name, n_pos, n_pos == 1 ? "" : "s", n_args);
          return FALSE;
        }
    }
  if (params->vararg != NULL)
    out_values[slot_vararg] = rest != NULL ? rest : _graft_value_seq (t, VAL_TUPLE, 0);

  for (guint k = 0; kwargs != NULL && k < kwargs->keys->len; k++)
    {
      const char *key = kwargs->keys->pdata[k];
      gboolean placed = FALSE;

      for (guint i = params->n_posonly; i < n_pos && !placed; i++)
        {
          const char *pname = i < params->n_posonly ? params->posonly[i]->name : params->args[i - params->n_posonly]->name;

          if (strcmp (pname, key) == 0)
            {
              if (out_values[i] != NULL)
                {
                  _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                      "%s() got multiple values for argument '%s'", fn_name, key);
                  return FALSE;
                }
              out_values[i] = kwargs->values->pdata[k];
              placed = TRUE;
            }
        }
      for (guint i = 0; i < params->n_kwonly && !placed; i++)
        if (strcmp (params->kwonly[i]->name, key) == 0)
          {
            out_values[slot_kwonly + i] = kwargs->values->pdata[k];
            placed = TRUE;
          }
      if (!placed)
        {
          if (params->kwarg == NULL)
            {
              _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                  "%s() got an unexpected keyword argument '%s'", fn_name, key);
              return FALSE;
            }
          if (extra_kw == NULL)
            extra_kw = _graft_value_dict (t);
          _graft_dict_set (t, extra_kw, _graft_value_str (t, key, -1), kwargs->values->pdata[k]);
        }
    }
  if (params->kwarg != NULL)
    out_values[slot_kwarg] = extra_kw != NULL ? extra_kw : _graft_value_dict (t);

  for (guint i = 0; i < n_pos; i++)
    if (out_values[i] == NULL)
      {
        if (defaults != NULL && defaults[i] != NULL)
          out_values[i] = defaults[i];
        else
          {
            const char *pname = i < params->n_posonly ? params->posonly[i]->name : params->args[i - params->n_posonly]->name;

            _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                "%s() missing required argument '%s'", fn_name, pname);
            return FALSE;
          }
      }
  for (guint i = 0; i < params->n_kwonly; i++)
    if (out_values[slot_kwonly + i] == NULL)
      {
        if (kw_defaults != NULL && kw_defaults[i] != NULL)
          out_values[slot_kwonly + i] = kw_defaults[i];
        else
          {
            _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                "%s() missing required keyword-only argument '%s'", fn_name, params->kwonly[i]->name);
            return FALSE;
          }
      }
  return TRUE;
}

static guint
n_param_slots (const GraftPyArguments *params)
{
  return params->n_posonly + params->n_args + (params->vararg != NULL ? 1 : 0) +
         params->n_kwonly + (params->kwarg != NULL ? 1 : 0);
}

static const GraftPyArg *
param_at (const GraftPyArguments *params,
          guint                   slot)
{
  guint n_pos = params->n_posonly + params->n_args;

  if (slot < params->n_posonly)
    return params->posonly[slot];
  if (slot < n_pos)
    return params->args[slot - params->n_posonly];
  if (params->vararg != NULL)
    {
      if (slot == n_pos)
        return params->vararg;
      slot--;
    }
  if (slot - n_pos < params->n_kwonly)
    return params->kwonly[slot - n_pos];
  return params->kwarg;
}

static gboolean
contains_yield (const GraftPyStmtList *body);

/**
 * _graft_tracer_bind:
 *
 * Binds @args and @kwargs to a parameter list (used for torch's Python
 * functions, whose signatures come from the function table).
 *
 * Returns: (nullable): one value per parameter slot
 */
Value **
_graft_tracer_bind (Tracer                 *t,
                    const char             *fn_name,
                    const GraftPyArguments *params,
                    Value                 **defaults,
                    Value                 **kw_defaults,
                    PtrVec              *args,
                    StrMap                 *kwargs,
                    const GraftPyExpr      *at)
{
  Value **values = _graft_tracer_alloc (t, sizeof (Value *) * (n_param_slots (params) + 1));

  if (!bind_arguments (t, fn_name, params, defaults, kw_defaults, args, kwargs, values, at))
    return NULL;
  return values;
}

static Value *
call_function (Tracer            *t,
               Function          *fn,
               Value             *self,
               PtrVec         *args,
               StrMap            *kwargs,
               const GraftPyExpr *at)
{
  const GraftPyArguments *params = function_params (fn);
  guint n_slots = n_param_slots (params);
  Value **values;
  Scope *scope;
  Value *result = NULL;
  PtrVec *all_args = args;
  Flow flow;

  if (t->call_depth >= GRAFT_MAX_CALL_DEPTH)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_LIMIT,
                               "calls nest deeper than %d levels (is %s recursive?)",
                               GRAFT_MAX_CALL_DEPTH, fn->name);
  if (self != NULL)
    {
      all_args = _graft_tracer_vec (t);
      _graft_vec_add (all_args, self);
      for (guint i = 0; args != NULL && i < args->len; i++)
        _graft_vec_add (all_args, args->pdata[i]);
    }

  values = _graft_tracer_alloc (t, sizeof (Value *) * (n_slots + 1));
  if (!bind_arguments (t, fn->name, params, fn->defaults, fn->kw_defaults, all_args, kwargs, values, at))
    return NULL;

  scope = scope_new (t, fn->closure, fn->closure->globals);
  scope->fn = fn;
  scope->self = n_slots > 0 ? values[0] : NULL;
  for (guint i = 0; i < n_slots; i++)
    _graft_strmap_set (&scope->vars, param_at (params, i)->name, values[i]);

  if (fn->lambda != NULL)
    {
      t->call_depth++;
      result = eval (t, scope, fn->lambda->lambda.body);
      t->call_depth--;
      return result;
    }
  if (contains_yield (&fn->def->function_def.body))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "%s() is a generator, which Graft cannot trace", fn->name);

  t->call_depth++;
  flow = exec_block (t, scope, &fn->def->function_def.body, &result);
  t->call_depth--;
  if (flow == FLOW_ERROR)
    return NULL;
  if (flow == FLOW_BREAK || flow == FLOW_CONTINUE)
    return fail_at (t, at, GRAFT_PARSE_ERROR_SYNTAX, "'break' or 'continue' outside a loop");
  return result != NULL ? result : _graft_value_none ();
}

static Value *
instantiate (Tracer            *t,
             Class             *cls,
             PtrVec         *args,
             StrMap            *kwargs,
             const GraftPyExpr *at)
{
  Value *self = _graft_value_new (t, VAL_OBJECT);
  Value *init;
  Class *owner = NULL;

  for (Class *c = cls; c != NULL;)
    {
      Class *next = NULL;

      if (c->unmodelled != NULL)
        return _graft_tracer_fail (t, c->unmodelled_at->start, c->unmodelled_at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "a class extending %s cannot be made: Graft traces through the forward of a "
                                   "torch.nn layer it has a model of (Linear, Conv1d/2d/3d, LayerNorm, Embedding, "
                                   "the activations, pooling, Flatten, Dropout, Identity) and not of this one",
                                   c->unmodelled);
      for (guint i = 0; i < c->bases->len && next == NULL; i++)
        if (((Value *) c->bases->pdata[i])->kind == VAL_CLASS)
          next = ((Value *) c->bases->pdata[i])->cls;
      c = next;
    }
  self->obj = object_new (t, cls->is_module ? OBJ_USER_MODULE : OBJ_PLAIN, cls->name, cls);
  init = class_lookup (cls, "__init__", &owner);
  if (init != NULL && init->kind == VAL_FUNCTION)
    {
      if (call_function (t, init->fn, self, args, kwargs, at) == NULL)
        return NULL;
    }
  else if ((args != NULL && args->len > 0) || (kwargs != NULL && kwargs->keys->len > 0))
    {
      /* The class inherits __init__ from torch.nn or object. */
      for (guint i = 0; i < cls->bases->len; i++)
        {
          Value *base = cls->bases->pdata[i];

          if (base->kind == VAL_NN_CLASS && strcmp (base->path, "torch.nn.Module") != 0)
            return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                       "class %s extends %s, whose constructor Graft does not model",
                                       cls->name, base->path);
        }
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                 "%s() takes no arguments", cls->name);
    }
  return self;
}

/* Calls a module: a leaf records call_module, a Sequential runs its children
 * in turn, a module of the file runs its forward (torch.fx traces through
 * every module that is not a leaf). */
static Value *
call_module (Tracer            *t,
             Value             *module,
             PtrVec         *args,
             StrMap            *kwargs,
             const GraftPyExpr *at)
{
  Object *obj = module->obj;
  Value *forward;

  switch (obj->kind)
    {
    case OBJ_LEAF:
      {
        const char *path = g_hash_table_lookup (t->module_paths, obj);

        if (!t->tracing)
          return _graft_value_tensor (t);
        if (path == NULL)
          return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                     "this %s is not a submodule of the traced module, so torch.fx cannot name it",
                                     obj->class_name);
        return _graft_tracer_make_node (t, GRAFT_OP_CALL_MODULE, path, args, kwargs, NULL, at);
      }
    case OBJ_SEQUENTIAL:
      {
        Value *x;

        if (args == NULL || args->len != 1 || (kwargs != NULL && kwargs->keys->len > 0))
          return fail_at (t, at, GRAFT_PARSE_ERROR_TRACE, "a Sequential is called with exactly one argument");
        x = args->pdata[0];
        for (guint i = 0; i < obj->modules.values->len && x != NULL; i++)
          {
            PtrVec *one = _graft_tracer_vec (t);

            _graft_vec_add (one, x);
            x = call_object (t, obj->modules.values->pdata[i], one, NULL, at);
          }
        return x;
      }
    case OBJ_USER_MODULE:
      forward = obj->cls != NULL ? class_lookup (obj->cls, "forward", NULL) : NULL;
      if (forward == NULL || forward->kind != VAL_FUNCTION)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "module %s has no forward method Graft can trace", obj->class_name);
      return call_function (t, forward->fn, module, args, kwargs, at);
    case OBJ_MODULE_LIST:
    case OBJ_MODULE_DICT:
    case OBJ_PARAMETER_LIST:
    case OBJ_PLAIN:
    default:
      if (obj->cls != NULL)
        {
          Value *call = class_lookup (obj->cls, "__call__", NULL);

          if (call != NULL && call->kind == VAL_FUNCTION)
            return call_function (t, call->fn, module, args, kwargs, at);
        }
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                 "'%s' object is not callable", obj->class_name);
    }
}

/* A function's `__name__` as a node name candidate (`_target_to_str`). */
static const char *
graft_tracer_snake (Tracer     *t,
                    const char *name)
{
  g_autofree char *snake = graft_snake_case (name);

  return _graft_tracer_strdup (t, snake, -1);
}

/* The magic methods of torch.fx's Proxy, called by name. */
static Value *
call_magic (Tracer            *t,
            Value             *callee,
            PtrVec         *args,
            StrMap            *kwargs,
            const GraftPyExpr *at)
{
  static const struct
  {
    const char *name;
    int         kind; /* 0 binary, 1 reflected binary, 2 unary, 3 compare, 4 getitem */
    int         op;
  } magic[] = {
    { "__add__", 0, GRAFT_PY_BIN_ADD }, { "__radd__", 1, GRAFT_PY_BIN_ADD },
    { "__sub__", 0, GRAFT_PY_BIN_SUB }, { "__rsub__", 1, GRAFT_PY_BIN_SUB },
    { "__mul__", 0, GRAFT_PY_BIN_MUL }, { "__rmul__", 1, GRAFT_PY_BIN_MUL },
    { "__matmul__", 0, GRAFT_PY_BIN_MATMUL }, { "__rmatmul__", 1, GRAFT_PY_BIN_MATMUL },
    { "__truediv__", 0, GRAFT_PY_BIN_TRUEDIV }, { "__rtruediv__", 1, GRAFT_PY_BIN_TRUEDIV },
    { "__floordiv__", 0, GRAFT_PY_BIN_FLOORDIV }, { "__rfloordiv__", 1, GRAFT_PY_BIN_FLOORDIV },
    { "__mod__", 0, GRAFT_PY_BIN_MOD }, { "__rmod__", 1, GRAFT_PY_BIN_MOD },
    { "__pow__", 0, GRAFT_PY_BIN_POW }, { "__rpow__", 1, GRAFT_PY_BIN_POW },
    { "__lshift__", 0, GRAFT_PY_BIN_LSHIFT }, { "__rlshift__", 1, GRAFT_PY_BIN_LSHIFT },
    { "__rshift__", 0, GRAFT_PY_BIN_RSHIFT }, { "__rrshift__", 1, GRAFT_PY_BIN_RSHIFT },
    { "__and__", 0, GRAFT_PY_BIN_BITAND }, { "__rand__", 1, GRAFT_PY_BIN_BITAND },
    { "__or__", 0, GRAFT_PY_BIN_BITOR }, { "__ror__", 1, GRAFT_PY_BIN_BITOR },
    { "__xor__", 0, GRAFT_PY_BIN_BITXOR }, { "__rxor__", 1, GRAFT_PY_BIN_BITXOR },
    { "__neg__", 2, GRAFT_PY_UNARY_NEG }, { "__pos__", 2, GRAFT_PY_UNARY_POS },
    { "__invert__", 2, GRAFT_PY_UNARY_INVERT },
    { "__eq__", 3, GRAFT_PY_CMP_EQ }, { "__ne__", 3, GRAFT_PY_CMP_NOT_EQ },
    { "__lt__", 3, GRAFT_PY_CMP_LT }, { "__le__", 3, GRAFT_PY_CMP_LT_E },
    { "__gt__", 3, GRAFT_PY_CMP_GT }, { "__ge__", 3, GRAFT_PY_CMP_GT_E },
    { "__getitem__", 4, 0 },
  };
  const char *name = callee->attr.attr;
  guint n = args != NULL ? args->len : 0;
  Value *self = callee->attr.base;

  if (!g_str_has_prefix (name, "__"))
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (magic); i++)
    {
      if (strcmp (magic[i].name, name) != 0)
        continue;
      if (n != (magic[i].kind == 2 ? 0u : 1u) || (kwargs != NULL && kwargs->keys->len > 0))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "%s() takes %s argument", name, magic[i].kind == 2 ? "no" : "one");
      switch (magic[i].kind)
        {
        case 0:
          return _graft_tracer_binop (t, magic[i].op, self, args->pdata[0], at);
        case 1:
          return _graft_tracer_binop (t, magic[i].op, args->pdata[0], self, at);
        case 2:
          return _graft_tracer_unary (t, magic[i].op, self, at);
        case 3:
          return _graft_tracer_compare (t, magic[i].op, self, args->pdata[0], at);
        default:
          return _graft_tracer_subscript (t, self, args->pdata[0], at);
        }
    }
  return NULL;
}

static Value *
call_object (Tracer            *t,
             Value             *callee,
             PtrVec         *args,
             StrMap            *kwargs,
             const GraftPyExpr *at)
{
  switch (callee->kind)
    {
    case VAL_FUNCTION:
      if (callee->fn->is_wrapped && t->tracing)
        {
          gboolean traced = FALSE;

          for (guint i = 0; args != NULL && i < args->len && !traced; i++)
            traced = _graft_value_holds_proxy (args->pdata[i]);
          for (guint i = 0; kwargs != NULL && i < kwargs->values->len && !traced; i++)
            traced = _graft_value_holds_proxy (kwargs->values->pdata[i]);
          if (traced)
            {
              const char *target = callee->fn->ext_path != NULL ? callee->fn->ext_path
                                                                : join_path (t, t->stem, callee->fn->name);
              Value *v = _graft_tracer_make_node (t, GRAFT_OP_CALL_FUNCTION, target,
                                                  args, kwargs, graft_tracer_snake (t, callee->fn->name), at);
              if (v != NULL)
                graft_node_set_is_wrapped (v->node, TRUE);
              return v;
            }
        }
      if (callee->fn->ext_path != NULL)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "%s comes from another library: Graft can record it with traced arguments "
                                   "but cannot run it on constants", callee->fn->ext_path);
      return call_function (t, callee->fn, NULL, args, kwargs, at);
    case VAL_BOUND:
      if (callee->bound.fn->kind == VAL_FUNCTION)
        return call_function (t, callee->bound.fn->fn, callee->bound.self, args, kwargs, at);
      return call_object (t, callee->bound.fn, args, kwargs, at);
    case VAL_CLASS:
      return instantiate (t, callee->cls, args, kwargs, at);
    case VAL_OBJECT:
      return call_module (t, callee, args, kwargs, at);
    case VAL_ATTR_PROXY:
      {
        /* `x.meth(...)`: call_method with the receiver first, except for
         * the magic methods a Proxy defines itself (`x.__add__(1)` is
         * `x + 1`). */
        PtrVec *all = _graft_tracer_vec (t);
        Value *magic;

        /* Proxy.__len__ refuses, as len(x) does. */
        if (strcmp (callee->attr.attr, "__len__") == 0)
          return fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                          "len() of a traced value is not known while tracing "
                          "(torch.fx: 'len' is not supported in symbolic tracing by default)");
        magic = call_magic (t, callee, args, kwargs, at);
        if (magic != NULL || t->error != NULL)
          return magic;

        _graft_vec_add (all, callee->attr.base);
        for (guint i = 0; args != NULL && i < args->len; i++)
          _graft_vec_add (all, args->pdata[i]);
        return _graft_tracer_make_node (t, GRAFT_OP_CALL_METHOD, callee->attr.attr, all, kwargs, NULL, at);
      }
    case VAL_PROXY:
      {
        /* Proxy.__call__ records the call as the method `__call__`. */
        PtrVec *all = _graft_tracer_vec (t);

        _graft_vec_add (all, callee);
        for (guint i = 0; args != NULL && i < args->len; i++)
          _graft_vec_add (all, args->pdata[i]);
        return _graft_tracer_make_node (t, GRAFT_OP_CALL_METHOD, "__call__", all, kwargs, NULL, at);
      }
    case VAL_SELF_PATH:
      return _graft_tracer_make_node (t, GRAFT_OP_CALL_MODULE, callee->path, args, kwargs, NULL, at);
    case VAL_PATH_FN:
      return _graft_tracer_call_path (t, callee->path, args, kwargs, at);
    case VAL_NN_CLASS:
      return _graft_tracer_new_nn (t, callee->path, args, kwargs, at);
    case VAL_BUILTIN:
      if (strcmp (callee->path, "__graft_noop__") == 0)
        return _graft_value_none ();
      return _graft_tracer_call_builtin (t, callee->path, args, kwargs, at);
    case VAL_METHOD:
      return _graft_tracer_call_method (t, callee->method.recv, callee->method.name, args, kwargs, at);
    case VAL_NONE:
    case VAL_BOOL:
    case VAL_INT:
    case VAL_FLOAT:
    case VAL_COMPLEX:
    case VAL_STR:
    case VAL_ELLIPSIS:
    case VAL_TUPLE:
    case VAL_LIST:
    case VAL_DICT:
    case VAL_SLICE:
    case VAL_SYMBOL:
    case VAL_DEVICE:
    case VAL_PYMODULE:
    case VAL_TENSOR:
    case VAL_PARAMETER:
    case VAL_SUPER:
    case VAL_TYPE:
    case VAL_GENERIC:
    default:
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                 "'%s' object is not callable", _graft_value_type_name (callee));
    }
}

Value *
_graft_tracer_call (Tracer            *t,
                    Value             *callee,
                    PtrVec         *args,
                    StrMap            *kwargs,
                    const GraftPyExpr *at)
{
  return call_object (t, callee, args, kwargs, at);
}

/* Expressions -------------------------------------------------------------- */

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
      return fail_at (t, e, GRAFT_PARSE_ERROR_UNSUPPORTED, "bytes literals are not supported");
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
          fail_at (t, at, GRAFT_PARSE_ERROR_TRACE, "TypeError: unsupported format string passed to Proxy.__format__");
          return FALSE;
        }
    }
  if (_graft_value_holds_proxy (v))
    {
      fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
               "a traced value cannot be formatted into a string: its value is not known while tracing");
      return FALSE;
    }
  if (spec == NULL || *spec == '\0' || conversion == 'r' || conversion == 's' || conversion == 'a')
    {
      if (spec != NULL && *spec != '\0')
        {
          fail_at (t, at, GRAFT_PARSE_ERROR_UNSUPPORTED, "a format spec after a conversion is not supported");
          return FALSE;
        }
      _graft_value_append_str (out, v, conversion == 'r' || conversion == 'a');
      return TRUE;
    }
  /* A numeric spec `[0][width][.precision](d|f|e|g)`, as model code writes
   * in names (`f"layer{i:02d}"`). */
  {
    const char *p = spec;
    gboolean zero = FALSE;
    int width = 0, precision = 6;
    char type;

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

            g_string_append_printf (out, zero ? "%0*" G_GINT64_FORMAT : "%*" G_GINT64_FORMAT, width, i);
            return TRUE;
          }
        if ((type == 'f' || type == 'e' || type == 'g') && (v->kind == VAL_INT || v->kind == VAL_FLOAT))
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
  fail_at (t, at, GRAFT_PARSE_ERROR_UNSUPPORTED, "this format spec is not supported");
  return FALSE;
}

static Value *
eval_joined_str (Tracer            *t,
                 Scope             *scope,
                 const GraftPyExpr *e)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < e->joined_str.values.len; i++)
    {
      const GraftPyExpr *part = e->joined_str.values.items[i];

      if (part->kind == GRAFT_PY_EXPR_CONSTANT && part->constant.kind == GRAFT_PY_CONST_STR)
        g_string_append_len (out, part->constant.str, part->constant.len);
      else if (part->kind == GRAFT_PY_EXPR_FORMATTED_VALUE)
        {
          Value *v = eval (t, scope, part->formatted_value.value);
          Value *spec = NULL;

          if (v == NULL)
            return NULL;
          if (part->formatted_value.format_spec != NULL)
            {
              spec = eval (t, scope, part->formatted_value.format_spec);
              if (spec == NULL)
                return NULL;
            }
          if (!format_value (t, out, v, part->formatted_value.conversion,
                             spec != NULL ? spec->str.s : NULL, part))
            return NULL;
        }
      else
        return fail_at (t, part, GRAFT_PARSE_ERROR_UNSUPPORTED, "unexpected part in an f-string");
    }
  return _graft_value_str (t, out->str, out->len);
}

/* Evaluates expressions into @out in order, expanding `*iterable` items
 * (call arguments and tuple or list displays). */
static gboolean
eval_items (Tracer                *t,
            Scope                 *scope,
            const GraftPyExprList *items,
            PtrVec             *out)
{
  for (guint i = 0; i < items->len; i++)
    {
      const GraftPyExpr *item = items->items[i];
      Value *v;

      if (item->kind == GRAFT_PY_EXPR_STARRED)
        {
          Value *seq = eval (t, scope, item->starred.value);
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
      v = eval (t, scope, item);
      if (v == NULL)
        return FALSE;
      _graft_vec_add (out, v);
    }
  return TRUE;
}

/* Evaluates call arguments, expanding `*seq` and `**mapping`. */
static gboolean
eval_call_args (Tracer            *t,
                Scope             *scope,
                const GraftPyExpr *e,
                PtrVec        **out_args,
                StrMap           **out_kwargs)
{
  PtrVec *args = _graft_tracer_vec (t);
  StrMap *kwargs = NULL;

  /* Most calls have no keywords: they get no map at all. */
  if (e->call.n_keywords > 0)
    {
      kwargs = _graft_tracer_alloc (t, sizeof (StrMap));
      _graft_strmap_init (t, kwargs);
    }
  if (!eval_items (t, scope, &e->call.args, args))
    return FALSE;
  for (guint i = 0; i < e->call.n_keywords; i++)
    {
      const GraftPyKeyword *kw = e->call.keywords[i];
      Value *v = eval (t, scope, kw->value);

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
                              "argument after ** must be a mapping, not %s%s", _graft_value_type_name (v),
                              _graft_value_is_proxy (v) ? " (torch.fx cannot unpack a traced value)" : "");
          return FALSE;
        }
      for (guint k = 0; k < v->dict.keys->len; k++)
        {
          Value *key = v->dict.keys->pdata[k];

          if (key->kind != VAL_STR)
            {
              _graft_tracer_fail (t, kw->start, kw->end, GRAFT_PARSE_ERROR_TRACE, "keywords must be strings");
              return FALSE;
            }
          _graft_strmap_set (kwargs, key->str.s, v->dict.values->pdata[k]);
        }
    }
  *out_args = args;
  *out_kwargs = kwargs;
  return TRUE;
}

static Value *
make_super (Tracer            *t,
            Scope             *scope,
            const GraftPyExpr *at)
{
  Value *v;

  for (Scope *s = scope; s != NULL; s = s->parent)
    if (s->fn != NULL && s->fn->owner != NULL && s->self != NULL)
      {
        v = _graft_value_new (t, VAL_SUPER);
        v->super.self = s->self;
        v->super.after = s->fn->owner;
        return v;
      }
  return fail_at (t, at, GRAFT_PARSE_ERROR_TRACE, "super() is only available in a method");
}

static Value *
eval_call (Tracer            *t,
           Scope             *scope,
           const GraftPyExpr *e)
{
  Value *callee;
  PtrVec *args;
  StrMap *kwargs;

  /* super() with no arguments needs the calling method. */
  if (e->call.func->kind == GRAFT_PY_EXPR_NAME && strcmp (e->call.func->name.id, "super") == 0 &&
      e->call.args.len == 0 && _graft_strmap_get (&scope->globals->vars, "super") == NULL)
    return make_super (t, scope, e);

  callee = eval (t, scope, e->call.func);
  if (callee == NULL)
    return NULL;
  if (!eval_call_args (t, scope, e, &args, &kwargs))
    return NULL;
  return call_object (t, callee, args, kwargs, e);
}

/* Evaluates a def's or lambda's default values, where it is defined, as
 * Python does. */
static gboolean
eval_defaults (Tracer                 *t,
               Scope                  *scope,
               const GraftPyArguments *params,
               Function               *fn)
{
  guint n_pos = params->n_posonly + params->n_args;

  fn->defaults = _graft_tracer_alloc (t, sizeof (Value *) * (n_pos + 1));
  fn->kw_defaults = _graft_tracer_alloc (t, sizeof (Value *) * (params->n_kwonly + 1));
  for (guint i = 0; i < n_pos; i++)
    {
      const GraftPyArg *p = i < params->n_posonly ? params->posonly[i] : params->args[i - params->n_posonly];

      if (p->default_value != NULL && (fn->defaults[i] = eval (t, scope, p->default_value)) == NULL)
        return FALSE;
    }
  for (guint i = 0; i < params->n_kwonly; i++)
    if (params->kwonly[i]->default_value != NULL &&
        (fn->kw_defaults[i] = eval (t, scope, params->kwonly[i]->default_value)) == NULL)
      return FALSE;
  return TRUE;
}

static Value *
eval_comprehension (Tracer            *t,
                    Scope             *scope,
                    const GraftPyExpr *e,
                    guint              level,
                    Scope             *inner,
                    Value             *out)
{
  const GraftPyComprehension *gen;
  Value *iter, *items;

  if (level == e->comp.n_generators)
    {
      if (e->kind == GRAFT_PY_EXPR_DICT_COMP)
        {
          Value *k = eval (t, inner, e->comp.elt);
          Value *v = k != NULL ? eval (t, inner, e->comp.value) : NULL;

          if (v == NULL)
            return NULL;
          _graft_dict_set (t, out, k, v);
        }
      else
        {
          Value *v = eval (t, inner, e->comp.elt);

          if (v == NULL)
            return NULL;
          _graft_value_seq_add (out, v);
        }
      return out;
    }
  gen = e->comp.generators[level];
  /* The first iterable is evaluated in the enclosing scope, the rest in
   * the comprehension's own. */
  iter = eval (t, level == 0 ? scope : inner, gen->iter);
  if (iter == NULL)
    return NULL;
  items = _graft_tracer_iterate (t, iter, gen->iter);
  if (items == NULL)
    return NULL;
  for (guint i = 0; i < items->seq.items->len; i++)
    {
      gboolean keep = TRUE;

      if (++t->loop_steps > GRAFT_MAX_LOOP_STEPS)
        return fail_at (t, gen->iter, GRAFT_PARSE_ERROR_LIMIT, "the loop runs too many times to unroll");
      if (!assign (t, inner, gen->target, items->seq.items->pdata[i]))
        return NULL;
      for (guint k = 0; k < gen->ifs.len && keep; k++)
        {
          Value *c = eval (t, inner, gen->ifs.items[k]);

          if (c == NULL || !_graft_tracer_truth (t, c, gen->ifs.items[k], &keep))
            return NULL;
        }
      if (keep && eval_comprehension (t, scope, e, level + 1, inner, out) == NULL)
        return NULL;
    }
  return out;
}

/* `torch.neg` names the same thing wherever it is written: look a module's
 * attributes up once per module and name (building `torch.neg` and
 * resolving it against the tables costs far more than two hash lookups). */
static Value *
module_attr (Tracer            *t,
             Value             *module,
             const char        *name,
             const GraftPyExpr *at)
{
  GHashTable *attrs = g_hash_table_lookup (t->attr_cache, module->path);
  Value *v;

  if (attrs == NULL)
    {
      attrs = g_hash_table_new (g_str_hash, g_str_equal);
      g_hash_table_insert (t->attr_cache, (gpointer) _graft_tracer_strdup (t, module->path, -1), attrs);
    }
  else if ((v = g_hash_table_lookup (attrs, name)) != NULL)
    return v;
  v = _graft_tracer_getattr (t, module, name, at);
  if (v != NULL)
    g_hash_table_insert (attrs, (gpointer) _graft_tracer_strdup (t, name, -1), v);
  return v;
}

static Value *
eval_inner (Tracer            *t,
            Scope             *scope,
            const GraftPyExpr *e)
{
  Value *a, *b, *v;
  gboolean truth;

  switch (e->kind)
    {
    case GRAFT_PY_EXPR_NAME:
      return lookup (t, scope, e->name.id, e);

    case GRAFT_PY_EXPR_CONSTANT:
      return eval_constant (t, e);

    case GRAFT_PY_EXPR_JOINED_STR:
      return eval_joined_str (t, scope, e);

    case GRAFT_PY_EXPR_ATTRIBUTE:
      a = eval (t, scope, e->attribute.value);
      if (a == NULL)
        return NULL;
      if (a->kind == VAL_PYMODULE)
        return module_attr (t, a, e->attribute.attr, e);
      return _graft_tracer_getattr (t, a, e->attribute.attr, e);

    case GRAFT_PY_EXPR_SUBSCRIPT:
      a = eval (t, scope, e->subscript.value);
      if (a == NULL)
        return NULL;
      b = eval (t, scope, e->subscript.slice);
      if (b == NULL)
        return NULL;
      return _graft_tracer_subscript (t, a, b, e);

    case GRAFT_PY_EXPR_SLICE:
      v = _graft_value_new (t, VAL_SLICE);
      v->slice.start = e->slice.lower != NULL ? eval (t, scope, e->slice.lower) : _graft_value_none ();
      v->slice.stop = v->slice.start != NULL && e->slice.upper != NULL ? eval (t, scope, e->slice.upper) : _graft_value_none ();
      v->slice.step = v->slice.stop != NULL && e->slice.step != NULL ? eval (t, scope, e->slice.step) : _graft_value_none ();
      if (v->slice.start == NULL || v->slice.stop == NULL || v->slice.step == NULL)
        return NULL;
      return v;

    case GRAFT_PY_EXPR_CALL:
      return eval_call (t, scope, e);

    case GRAFT_PY_EXPR_BIN_OP:
      a = eval (t, scope, e->bin_op.left);
      if (a == NULL)
        return NULL;
      b = eval (t, scope, e->bin_op.right);
      if (b == NULL)
        return NULL;
      return _graft_tracer_binop (t, e->bin_op.op, a, b, e);

    case GRAFT_PY_EXPR_UNARY_OP:
      a = eval (t, scope, e->unary_op.operand);
      if (a == NULL)
        return NULL;
      return _graft_tracer_unary (t, e->unary_op.op, a, e);

    case GRAFT_PY_EXPR_BOOL_OP:
      for (guint i = 0; i < e->bool_op.values.len; i++)
        {
          a = eval (t, scope, e->bool_op.values.items[i]);
          if (a == NULL)
            return NULL;
          if (i + 1 == e->bool_op.values.len)
            return a;
          if (_graft_value_is_proxy (a))
            return _graft_tracer_fail (t, e->start, e->end, GRAFT_PARSE_ERROR_TRACE,
                                       "'%s' needs the truth value of a traced value, which is not known while tracing %s",
                                       e->bool_op.op == GRAFT_PY_BOOL_AND ? "and" : "or", control_flow_reason);
          if (!_graft_tracer_truth (t, a, e->bool_op.values.items[i], &truth))
            return NULL;
          if (truth == (e->bool_op.op == GRAFT_PY_BOOL_OR))
            return a;
        }
      return _graft_value_none ();

    case GRAFT_PY_EXPR_COMPARE:
      a = eval (t, scope, e->compare.left);
      if (a == NULL)
        return NULL;
      v = NULL;
      for (guint i = 0; i < e->compare.comparators.len; i++)
        {
          b = eval (t, scope, e->compare.comparators.items[i]);
          if (b == NULL)
            return NULL;
          if (i > 0)
            {
              /* `a < b < c` is `a < b and b < c`: it needs a truth value. */
              if (_graft_value_is_proxy (v))
                return _graft_tracer_fail (t, e->start, e->end, GRAFT_PARSE_ERROR_TRACE,
                                           "a chained comparison needs the truth value of a traced comparison %s",
                                           control_flow_reason);
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

    case GRAFT_PY_EXPR_IF_EXP:
      a = eval (t, scope, e->if_exp.test);
      if (a == NULL)
        return NULL;
      if (_graft_value_is_proxy (a))
        return _graft_tracer_fail (t, e->if_exp.test->start, e->if_exp.test->end, GRAFT_PARSE_ERROR_TRACE,
                                   "a conditional expression cannot depend on a traced value %s",
                                   control_flow_reason);
      if (!_graft_tracer_truth (t, a, e->if_exp.test, &truth))
        return NULL;
      return eval (t, scope, truth ? e->if_exp.body : e->if_exp.orelse);

    case GRAFT_PY_EXPR_LAMBDA:
      {
        Function *fn = _graft_tracer_alloc (t, sizeof (Function));

        fn->lambda = e;
        fn->name = "<lambda>";
        fn->closure = scope;
        if (!eval_defaults (t, scope, e->lambda.args, fn))
          return NULL;
        v = _graft_value_new (t, VAL_FUNCTION);
        v->fn = fn;
        return v;
      }

    case GRAFT_PY_EXPR_TUPLE:
    case GRAFT_PY_EXPR_LIST:
    case GRAFT_PY_EXPR_SET:
      if (e->kind == GRAFT_PY_EXPR_SET)
        return fail_at (t, e, GRAFT_PARSE_ERROR_UNSUPPORTED, "sets are not supported");
      v = _graft_value_seq (t, e->kind == GRAFT_PY_EXPR_TUPLE ? VAL_TUPLE : VAL_LIST, e->sequence.elts.len);
      if (!eval_items (t, scope, &e->sequence.elts, v->seq.items))
        return NULL;
      return v;

    case GRAFT_PY_EXPR_DICT:
      v = _graft_value_dict (t);
      for (guint i = 0; i < e->dict.values.len; i++)
        {
          if (e->dict.keys.items[i] == NULL)
            {
              b = eval (t, scope, e->dict.values.items[i]);
              if (b == NULL)
                return NULL;
              if (b->kind != VAL_DICT)
                return fail_at (t, e->dict.values.items[i], GRAFT_PARSE_ERROR_TRACE, "only a dict can be unpacked with **");
              for (guint k = 0; k < b->dict.keys->len; k++)
                _graft_dict_set (t, v, b->dict.keys->pdata[k], b->dict.values->pdata[k]);
              continue;
            }
          a = eval (t, scope, e->dict.keys.items[i]);
          if (a == NULL)
            return NULL;
          /* A proxy is hashable (by identity): such a dict is fine until
           * it is passed to the graph (_graft_tracer_to_arg()). */
          b = eval (t, scope, e->dict.values.items[i]);
          if (b == NULL)
            return NULL;
          _graft_dict_set (t, v, a, b);
        }
      return v;

    case GRAFT_PY_EXPR_LIST_COMP:
    case GRAFT_PY_EXPR_GENERATOR_EXP:
    case GRAFT_PY_EXPR_DICT_COMP:
      {
        Scope *inner = scope_new (t, scope, scope->globals);

        inner->fn = scope->fn;
        inner->self = scope->self;
        v = e->kind == GRAFT_PY_EXPR_DICT_COMP ? _graft_value_dict (t) : _graft_value_seq (t, VAL_LIST, 0);
        return eval_comprehension (t, scope, e, 0, inner, v);
      }

    case GRAFT_PY_EXPR_SET_COMP:
      return fail_at (t, e, GRAFT_PARSE_ERROR_UNSUPPORTED, "sets are not supported");

    case GRAFT_PY_EXPR_STARRED:
      return fail_at (t, e, GRAFT_PARSE_ERROR_SYNTAX, "can't use starred expression here");

    case GRAFT_PY_EXPR_NAMED_EXPR:
      v = eval (t, scope, e->named_expr.value);
      if (v == NULL || !assign (t, scope, e->named_expr.target, v))
        return NULL;
      return v;

    case GRAFT_PY_EXPR_FORMATTED_VALUE:
      return fail_at (t, e, GRAFT_PARSE_ERROR_SYNTAX, "a formatted value outside an f-string");

    case GRAFT_PY_EXPR_YIELD:
    case GRAFT_PY_EXPR_YIELD_FROM:
      return fail_at (t, e, GRAFT_PARSE_ERROR_UNSUPPORTED, "generators cannot be traced");

    case GRAFT_PY_EXPR_AWAIT:
    default:
      return fail_at (t, e, GRAFT_PARSE_ERROR_UNSUPPORTED, "'await' cannot be traced");
    }
}

static Value *
eval (Tracer            *t,
      Scope             *scope,
      const GraftPyExpr *e)
{
  Value *v;

  if (t->error != NULL)
    return NULL;
  if (++t->depth > MAX_EVAL_DEPTH)
    {
      t->depth--;
      return fail_at (t, e, GRAFT_PARSE_ERROR_LIMIT, "the expression nests too deeply to evaluate (more than 4000 levels, as in a chain of 4000 operators); split it into statements");
    }
  v = eval_inner (t, scope, e);
  t->depth--;
  g_assert (v != NULL || t->error != NULL);
  return v;
}

/* Statements -------------------------------------------------------------- */

static gboolean
assign (Tracer            *t,
        Scope             *scope,
        const GraftPyExpr *target,
        Value             *value)
{
  switch (target->kind)
    {
    case GRAFT_PY_EXPR_NAME:
      _graft_strmap_set (&scope->vars, target->name.id, value);
      return TRUE;

    case GRAFT_PY_EXPR_ATTRIBUTE:
      {
        Value *obj = eval (t, scope, target->attribute.value);

        return obj != NULL && _graft_tracer_setattr (t, obj, target->attribute.attr, value, target);
      }

    case GRAFT_PY_EXPR_SUBSCRIPT:
      {
        Value *obj = eval (t, scope, target->subscript.value);
        Value *index = obj != NULL ? eval (t, scope, target->subscript.slice) : NULL;

        if (index == NULL)
          return FALSE;
        if (obj->kind == VAL_LIST && index->kind == VAL_INT)
          {
            gint64 i = index->i < 0 ? index->i + obj->seq.items->len : index->i;

            if (i < 0 || i >= (gint64) obj->seq.items->len)
              {
                fail_at (t, target, GRAFT_PARSE_ERROR_TRACE, "list assignment index out of range");
                return FALSE;
              }
            obj->seq.items->pdata[i] = value;
            return TRUE;
          }
        if (obj->kind == VAL_DICT && !_graft_value_is_proxy (index))
          {
            _graft_dict_set (t, obj, index, value);
            return TRUE;
          }
        fail_at (t, target, GRAFT_PARSE_ERROR_UNSUPPORTED,
                 _graft_value_is_proxy (obj)
                     ? "item assignment on a traced value is not supported (torch.fx Proxies do not support item assignment)"
                     : "this item assignment is not supported");
        return FALSE;
      }

    case GRAFT_PY_EXPR_TUPLE:
    case GRAFT_PY_EXPR_LIST:
      {
        guint n = target->sequence.elts.len;
        gint star = -1;
        Value *items;

        for (guint i = 0; i < n; i++)
          if (target->sequence.elts.items[i]->kind == GRAFT_PY_EXPR_STARRED)
            star = i;

        if (_graft_value_is_proxy (value))
          {
            /* Unpacking a traced value: one getitem per target, in order
             * (torch.fx on the Pythons it supports; cli.md). */
            if (star >= 0)
              {
                fail_at (t, target->sequence.elts.items[star], GRAFT_PARSE_ERROR_TRACE,
                         "starred unpacking of a traced value needs its length, which is not known while tracing "
                         "(torch.fx: Proxy object cannot be iterated)");
                return FALSE;
              }
            items = _graft_value_seq (t, VAL_LIST, n);
            for (guint i = 0; i < n; i++)
              {
                Value *item = _graft_tracer_subscript (t, value, _graft_value_int (t, i), target);

                if (item == NULL)
                  return FALSE;
                _graft_value_seq_add (items, item);
              }
          }
        else
          {
            items = _graft_tracer_iterate (t, value, target);
            if (items == NULL)
              return FALSE;
          }

        if (star < 0)
          {
            if (items->seq.items->len != n)
              {
                _graft_tracer_fail (t, target->start, target->end, GRAFT_PARSE_ERROR_TRACE,
                                    items->seq.items->len > n ? "too many values to unpack (expected %u)"
                                                              : "not enough values to unpack (expected %u)",
                                    n);
                return FALSE;
              }
            for (guint i = 0; i < n; i++)
              if (!assign (t, scope, target->sequence.elts.items[i], items->seq.items->pdata[i]))
                return FALSE;
            return TRUE;
          }
        if (items->seq.items->len < n - 1)
          {
            _graft_tracer_fail (t, target->start, target->end, GRAFT_PARSE_ERROR_TRACE,
                                "not enough values to unpack (expected at least %u)", n - 1);
            return FALSE;
          }
        {
          guint n_rest = items->seq.items->len - (n - 1);
          Value *rest = _graft_value_seq (t, VAL_LIST, n_rest);

          for (guint i = 0; i < (guint) star; i++)
            if (!assign (t, scope, target->sequence.elts.items[i], items->seq.items->pdata[i]))
              return FALSE;
          for (guint i = 0; i < n_rest; i++)
            _graft_value_seq_add (rest, items->seq.items->pdata[star + i]);
          if (!assign (t, scope, target->sequence.elts.items[star]->starred.value, rest))
            return FALSE;
          for (guint i = star + 1; i < n; i++)
            if (!assign (t, scope, target->sequence.elts.items[i], items->seq.items->pdata[i - 1 + n_rest]))
              return FALSE;
          return TRUE;
        }
      }

    case GRAFT_PY_EXPR_STARRED:
      fail_at (t, target, GRAFT_PARSE_ERROR_SYNTAX, "starred assignment target must be in a list or tuple");
      return FALSE;

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
      fail_at (t, target, GRAFT_PARSE_ERROR_SYNTAX, "cannot assign to this expression");
      return FALSE;
    }
}

static gboolean
expr_has_yield (const GraftPyExpr *e)
{
  return e != NULL && (e->kind == GRAFT_PY_EXPR_YIELD || e->kind == GRAFT_PY_EXPR_YIELD_FROM);
}

/* Whether a function body yields (at statement level, which is where model
 * code would). */
static gboolean
contains_yield (const GraftPyStmtList *body)
{
  for (guint i = 0; i < body->len; i++)
    {
      const GraftPyStmt *s = body->items[i];

      switch (s->kind)
        {
        case GRAFT_PY_STMT_EXPR:
          if (expr_has_yield (s->expr.value))
            return TRUE;
          break;
        case GRAFT_PY_STMT_ASSIGN:
          if (expr_has_yield (s->assign.value))
            return TRUE;
          break;
        case GRAFT_PY_STMT_IF:
          if (contains_yield (&s->if_stmt.body) || contains_yield (&s->if_stmt.orelse))
            return TRUE;
          break;
        case GRAFT_PY_STMT_FOR:
          if (contains_yield (&s->for_stmt.body))
            return TRUE;
          break;
        case GRAFT_PY_STMT_WHILE:
          if (contains_yield (&s->while_stmt.body))
            return TRUE;
          break;
        case GRAFT_PY_STMT_WITH:
          if (contains_yield (&s->with_stmt.body))
            return TRUE;
          break;
        case GRAFT_PY_STMT_AUG_ASSIGN:
        case GRAFT_PY_STMT_ANN_ASSIGN:
        case GRAFT_PY_STMT_RETURN:
        case GRAFT_PY_STMT_PASS:
        case GRAFT_PY_STMT_BREAK:
        case GRAFT_PY_STMT_CONTINUE:
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
          break;
        }
    }
  return FALSE;
}

static const GraftPyExpr *
stmt_span (const GraftPyStmt *s)
{
  static GraftPyExpr at;

  at.start = s->start;
  at.end = s->end;
  return &at;
}

/* The module path an import names, and whether Graft knows it. */
static Value *
import_module (Tracer            *t,
               const char        *path,
               const GraftPyExpr *at)
{
  return _graft_tracer_torch_attr (t, path, at);
}

static Flow
exec_import (Tracer            *t,
             Scope             *scope,
             const GraftPyStmt *s)
{
  const GraftPyExpr *at = stmt_span (s);

  for (guint i = 0; i < s->import.n_names; i++)
    {
      const GraftPyAlias *alias = s->import.names[i];
      Value *mod = import_module (t, alias->name, at);

      if (mod == NULL)
        return FLOW_ERROR;
      if (alias->asname != NULL)
        _graft_strmap_set (&scope->vars, alias->asname, mod);
      else
        {
          /* `import torch.nn` binds `torch`. */
          const char *dot = strchr (alias->name, '.');
          const char *first = dot != NULL ? _graft_tracer_strdup (t, alias->name, dot - alias->name) : alias->name;
          Value *top = import_module (t, first, at);

          if (top == NULL)
            return FLOW_ERROR;
          _graft_strmap_set (&scope->vars, first, top);
        }
    }
  return FLOW_NORMAL;
}

static Flow
exec_import_from (Tracer            *t,
                  Scope             *scope,
                  const GraftPyStmt *s)
{
  const GraftPyExpr *at = stmt_span (s);

  if (s->import_from.level > 0 || s->import_from.module == NULL)
    {
      _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "relative imports are not supported: Graft reads one file");
      return FLOW_ERROR;
    }
  for (guint i = 0; i < s->import_from.n_names; i++)
    {
      const GraftPyAlias *alias = s->import_from.names[i];
      Value *v;

      if (strcmp (alias->name, "*") == 0)
        {
          _graft_tracer_fail (t, alias->start, alias->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                              "'from %s import *' is not supported: import the names you use",
                              s->import_from.module);
          return FLOW_ERROR;
        }
      v = _graft_tracer_torch_attr (t, join_path (t, s->import_from.module, alias->name), at);
      if (v == NULL)
        return FLOW_ERROR;
      _graft_strmap_set (&scope->vars, alias->asname != NULL ? alias->asname : alias->name, v);
    }
  return FLOW_NORMAL;
}

static Value *
make_function (Tracer            *t,
               Scope             *scope,
               const GraftPyStmt *s,
               Class             *owner)
{
  Function *fn = _graft_tracer_alloc (t, sizeof (Function));
  Value *v;

  fn->def = s;
  fn->name = s->function_def.name;
  fn->closure = scope;
  fn->owner = owner;
  if (!eval_defaults (t, scope, s->function_def.args, fn))
    return NULL;

  for (guint i = 0; i < s->function_def.decorators.len; i++)
    {
      const GraftPyExpr *d = s->function_def.decorators.items[i];
      Value *dv = eval (t, scope, d);

      if (dv == NULL)
        return NULL;
      if (dv->kind == VAL_BUILTIN && strcmp (dv->path, "staticmethod") == 0)
        fn->is_static = TRUE;
      else if (dv->kind == VAL_BUILTIN && strcmp (dv->path, "property") == 0)
        fn->is_property = TRUE;
      else if (dv->kind == VAL_PATH_FN && strcmp (dv->path, "torch.fx.wrap") == 0)
        fn->is_wrapped = TRUE;
      else if (dv->kind == VAL_PATH_FN && (g_str_has_prefix (dv->path, "torch.jit.") ||
                                          strcmp (dv->path, "torch.no_grad") == 0 ||
                                          strcmp (dv->path, "typing.overload") == 0))
        ; /* annotations for other tools: no effect on tracing */
      else
        {
          _graft_tracer_fail (t, d->start, d->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                              "this decorator is not supported by Graft's tracer");
          return NULL;
        }
    }
  v = _graft_value_new (t, VAL_FUNCTION);
  v->fn = fn;
  return v;
}

static Flow exec_stmt (Tracer *t, Scope *scope, const GraftPyStmt *s, Value **out_return);

/* Python models of the torch.nn layers a file class may extend: what
 * their constructors store and what their forward records, written for
 * Graft from torch 1.13.1's documented behaviour.  Only used for
 * subclasses: a torch.nn layer used as it is stays a leaf (call_module). */
static const char nn_models[] =
  "import torch\n"
  "import torch.nn.functional as F\n"
  "from torch.nn import Module, Parameter\n"
  "\n"
  "class Linear(Module):\n"
  "    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):\n"
  "        super().__init__()\n"
  "        self.in_features = in_features\n"
  "        self.out_features = out_features\n"
  "        self.weight = Parameter(torch.empty((out_features, in_features)))\n"
  "        if bias:\n"
  "            self.bias = Parameter(torch.empty(out_features))\n"
  "        else:\n"
  "            self.register_parameter('bias', None)\n"
  "\n"
  "    def forward(self, input):\n"
  "        return F.linear(input, self.weight, self.bias)\n"
  "\n"
  "class Identity(Module):\n"
  "    def __init__(self, *args, **kwargs):\n"
  "        super().__init__()\n"
  "\n"
  "    def forward(self, input):\n"
  "        return input\n"
  "\n"
  "class ReLU(Module):\n"
  "    def __init__(self, inplace=False):\n"
  "        super().__init__()\n"
  "        self.inplace = inplace\n"
  "\n"
  "    def forward(self, input):\n"
  "        return F.relu(input, inplace=self.inplace)\n"
  "\n"
  "class Dropout(Module):\n"
  "    def __init__(self, p=0.5, inplace=False):\n"
  "        super().__init__()\n"
  "        self.p = p\n"
  "        self.inplace = inplace\n"
  "\n"
  "    def forward(self, input):\n"
  "        return F.dropout(input, self.p, self.training, self.inplace)\n"
  "\n"
  "class Sigmoid(Module):\n"
  "    def forward(self, input):\n"
  "        return torch.sigmoid(input)\n"
  "\n"
  "class Tanh(Module):\n"
  "    def forward(self, input):\n"
  "        return torch.tanh(input)\n"
  "\n"
  "def _tuple_of(n, value):\n"
  "    if isinstance(value, (tuple, list)):\n"
  "        return tuple(value)\n"
  "    return tuple([value] * n)\n"
  "\n"
  "class _ConvNd(Module):\n"
  "    def __init__(self, n, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,\n"
  "                 groups=1, bias=True, padding_mode='zeros', device=None, dtype=None):\n"
  "        super().__init__()\n"
  "        if groups <= 0:\n"
  "            raise ValueError('groups must be a positive integer')\n"
  "        if in_channels % groups != 0:\n"
  "            raise ValueError('in_channels must be divisible by groups')\n"
  "        if out_channels % groups != 0:\n"
  "            raise ValueError('out_channels must be divisible by groups')\n"
  "        kernel_size = _tuple_of(n, kernel_size)\n"
  "        stride = _tuple_of(n, stride)\n"
  "        dilation = _tuple_of(n, dilation)\n"
  "        if not isinstance(padding, str):\n"
  "            padding = _tuple_of(n, padding)\n"
  "        elif padding not in ('same', 'valid'):\n"
  "            raise ValueError('Invalid padding string')\n"
  "        elif padding == 'same' and any(s != 1 for s in stride):\n"
  "            raise ValueError(\"padding='same' is not supported for strided convolutions\")\n"
  "        if padding_mode not in ('zeros', 'reflect', 'replicate', 'circular'):\n"
  "            raise ValueError('padding_mode must be zeros, reflect, replicate or circular')\n"
  "        self._n = n\n"
  "        self.in_channels = in_channels\n"
  "        self.out_channels = out_channels\n"
  "        self.kernel_size = kernel_size\n"
  "        self.stride = stride\n"
  "        self.padding = padding\n"
  "        self.dilation = dilation\n"
  "        self.transposed = False\n"
  "        self.output_padding = _tuple_of(n, 0)\n"
  "        self.groups = groups\n"
  "        self.padding_mode = padding_mode\n"
  "        if isinstance(padding, str):\n"
  "            pads = [0, 0] * n\n"
  "            if padding == 'same':\n"
  "                for i in range(n):\n"
  "                    total = dilation[i] * (kernel_size[i] - 1)\n"
  "                    left = total // 2\n"
  "                    pads[2 * (n - 1 - i)] = left\n"
  "                    pads[2 * (n - 1 - i) + 1] = total - left\n"
  "            self._reversed_padding_repeated_twice = pads\n"
  "        else:\n"
  "            self._reversed_padding_repeated_twice = tuple(p for p in reversed(padding) for _ in range(2))\n"
  "        self.weight = Parameter(torch.empty((out_channels, in_channels // groups) + kernel_size))\n"
  "        if bias:\n"
  "            self.bias = Parameter(torch.empty(out_channels))\n"
  "        else:\n"
  "            self.register_parameter('bias', None)\n"
  "\n"
  "    def _conv(self, input, weight, bias, padding):\n"
  "        if self._n == 1:\n"
  "            return F.conv1d(input, weight, bias, self.stride, padding, self.dilation, self.groups)\n"
  "        if self._n == 2:\n"
  "            return F.conv2d(input, weight, bias, self.stride, padding, self.dilation, self.groups)\n"
  "        return F.conv3d(input, weight, bias, self.stride, padding, self.dilation, self.groups)\n"
  "\n"
  "    def _conv_forward(self, input, weight, bias):\n"
  "        if self.padding_mode != 'zeros':\n"
  "            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)\n"
  "            return self._conv(padded, weight, bias, _tuple_of(self._n, 0))\n"
  "        return self._conv(input, weight, bias, self.padding)\n"
  "\n"
  "    def forward(self, input):\n"
  "        return self._conv_forward(input, self.weight, self.bias)\n"
  "\n"
  "class Conv1d(_ConvNd):\n"
  "    def __init__(self, *args, **kwargs):\n"
  "        super().__init__(1, *args, **kwargs)\n"
  "\n"
  "class Conv2d(_ConvNd):\n"
  "    def __init__(self, *args, **kwargs):\n"
  "        super().__init__(2, *args, **kwargs)\n"
  "\n"
  "class Conv3d(_ConvNd):\n"
  "    def __init__(self, *args, **kwargs):\n"
  "        super().__init__(3, *args, **kwargs)\n"
  "\n"
  "class LayerNorm(Module):\n"
  "    def __init__(self, normalized_shape, eps=1e-05, elementwise_affine=True, device=None, dtype=None):\n"
  "        super().__init__()\n"
  "        if isinstance(normalized_shape, int):\n"
  "            normalized_shape = (normalized_shape,)\n"
  "        self.normalized_shape = tuple(normalized_shape)\n"
  "        self.eps = eps\n"
  "        self.elementwise_affine = elementwise_affine\n"
  "        if elementwise_affine:\n"
  "            self.weight = Parameter(torch.empty(self.normalized_shape))\n"
  "            self.bias = Parameter(torch.empty(self.normalized_shape))\n"
  "        else:\n"
  "            self.register_parameter('weight', None)\n"
  "            self.register_parameter('bias', None)\n"
  "\n"
  "    def forward(self, input):\n"
  "        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)\n"
  "\n"
  "class Embedding(Module):\n"
  "    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,\n"
  "                 scale_grad_by_freq=False, sparse=False, _weight=None, device=None, dtype=None):\n"
  "        super().__init__()\n"
  "        self.num_embeddings = num_embeddings\n"
  "        self.embedding_dim = embedding_dim\n"
  "        if padding_idx is not None and padding_idx < 0:\n"
  "            padding_idx = num_embeddings + padding_idx\n"
  "        self.padding_idx = padding_idx\n"
  "        self.max_norm = max_norm\n"
  "        self.norm_type = norm_type\n"
  "        self.scale_grad_by_freq = scale_grad_by_freq\n"
  "        self.weight = Parameter(torch.empty((num_embeddings, embedding_dim)))\n"
  "        self.sparse = sparse\n"
  "\n"
  "    def forward(self, input):\n"
  "        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,\n"
  "                           self.scale_grad_by_freq, self.sparse)\n"
  "\n"
  "class GELU(Module):\n"
  "    def __init__(self, approximate='none'):\n"
  "        super().__init__()\n"
  "        self.approximate = approximate\n"
  "\n"
  "    def forward(self, input):\n"
  "        return F.gelu(input, approximate=self.approximate)\n"
  "\n"
  "class SiLU(Module):\n"
  "    def __init__(self, inplace=False):\n"
  "        super().__init__()\n"
  "        self.inplace = inplace\n"
  "\n"
  "    def forward(self, input):\n"
  "        return F.silu(input, inplace=self.inplace)\n"
  "\n"
  "class Mish(Module):\n"
  "    def __init__(self, inplace=False):\n"
  "        super().__init__()\n"
  "        self.inplace = inplace\n"
  "\n"
  "    def forward(self, input):\n"
  "        return F.mish(input, inplace=self.inplace)\n"
  "\n"
  "class Hardswish(Module):\n"
  "    def __init__(self, inplace=False):\n"
  "        super().__init__()\n"
  "        self.inplace = inplace\n"
  "\n"
  "    def forward(self, input):\n"
  "        return F.hardswish(input, self.inplace)\n"
  "\n"
  "class Hardsigmoid(Module):\n"
  "    def __init__(self, inplace=False):\n"
  "        super().__init__()\n"
  "        self.inplace = inplace\n"
  "\n"
  "    def forward(self, input):\n"
  "        return F.hardsigmoid(input, self.inplace)\n"
  "\n"
  "class LeakyReLU(Module):\n"
  "    def __init__(self, negative_slope=0.01, inplace=False):\n"
  "        super().__init__()\n"
  "        self.negative_slope = negative_slope\n"
  "        self.inplace = inplace\n"
  "\n"
  "    def forward(self, input):\n"
  "        return F.leaky_relu(input, self.negative_slope, self.inplace)\n"
  "\n"
  "class ELU(Module):\n"
  "    def __init__(self, alpha=1.0, inplace=False):\n"
  "        super().__init__()\n"
  "        self.alpha = alpha\n"
  "        self.inplace = inplace\n"
  "\n"
  "    def forward(self, input):\n"
  "        return F.elu(input, self.alpha, self.inplace)\n"
  "\n"
  "class Hardtanh(Module):\n"
  "    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False, min_value=None, max_value=None):\n"
  "        super().__init__()\n"
  "        if min_value is not None:\n"
  "            min_val = min_value\n"
  "        if max_value is not None:\n"
  "            max_val = max_value\n"
  "        self.min_val = min_val\n"
  "        self.max_val = max_val\n"
  "        self.inplace = inplace\n"
  "\n"
  "    def forward(self, input):\n"
  "        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)\n"
  "\n"
  "class ReLU6(Hardtanh):\n"
  "    def __init__(self, inplace=False):\n"
  "        super().__init__(0.0, 6.0, inplace)\n"
  "\n"
  "class Softplus(Module):\n"
  "    def __init__(self, beta=1, threshold=20):\n"
  "        super().__init__()\n"
  "        self.beta = beta\n"
  "        self.threshold = threshold\n"
  "\n"
  "    def forward(self, input):\n"
  "        return F.softplus(input, self.beta, self.threshold)\n"
  "\n"
  "class Softmax(Module):\n"
  "    def __init__(self, dim=None):\n"
  "        super().__init__()\n"
  "        self.dim = dim\n"
  "\n"
  "    def forward(self, input):\n"
  "        return F.softmax(input, self.dim, _stacklevel=5)\n"
  "\n"
  "class LogSoftmax(Module):\n"
  "    def __init__(self, dim=None):\n"
  "        super().__init__()\n"
  "        self.dim = dim\n"
  "\n"
  "    def forward(self, input):\n"
  "        return F.log_softmax(input, self.dim, _stacklevel=5)\n"
  "\n"
  "class Flatten(Module):\n"
  "    def __init__(self, start_dim=1, end_dim=-1):\n"
  "        super().__init__()\n"
  "        self.start_dim = start_dim\n"
  "        self.end_dim = end_dim\n"
  "\n"
  "    def forward(self, input):\n"
  "        return input.flatten(self.start_dim, self.end_dim)\n"
  "\n"
  "class _MaxPoolNd(Module):\n"
  "    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):\n"
  "        super().__init__()\n"
  "        self.kernel_size = kernel_size\n"
  "        self.stride = stride if stride is not None else kernel_size\n"
  "        self.padding = padding\n"
  "        self.dilation = dilation\n"
  "        self.return_indices = return_indices\n"
  "        self.ceil_mode = ceil_mode\n"
  "\n"
  "class MaxPool1d(_MaxPoolNd):\n"
  "    def forward(self, input):\n"
  "        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,\n"
  "                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)\n"
  "\n"
  "class MaxPool2d(_MaxPoolNd):\n"
  "    def forward(self, input):\n"
  "        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,\n"
  "                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)\n"
  "\n"
  "class AdaptiveAvgPool1d(Module):\n"
  "    def __init__(self, output_size):\n"
  "        super().__init__()\n"
  "        self.output_size = output_size\n"
  "\n"
  "    def forward(self, input):\n"
  "        return F.adaptive_avg_pool1d(input, self.output_size)\n"
  "\n"
  "class AdaptiveAvgPool2d(AdaptiveAvgPool1d):\n"
  "    def forward(self, input):\n"
  "        return F.adaptive_avg_pool2d(input, self.output_size)\n";

static Value *
nn_model_class (Tracer            *t,
                const char        *path,
                const GraftPyExpr *at)
{
  const char *name = strrchr (path, '.') != NULL ? strrchr (path, '.') + 1 : path;
  Value *cls;

  if (t->nn_scope == NULL)
    {
      g_autoptr(GraftSource) source = graft_source_new ("<graft torch.nn models>", nn_models, -1);
      g_autoptr(GError) error = NULL;
      GraftPyModule *module = graft_py_parse (source, &error);
      const GraftPyStmtList *body;
      GError *saved = t->error;

      g_assert (module != NULL);
      g_ptr_array_add (t->parsed, module);
      t->nn_scope = scope_new (t, NULL, NULL);
      body = graft_py_module_get_body (module);
      t->error = NULL;
      for (guint i = 0; i < body->len; i++)
        if (exec_stmt (t, t->nn_scope, body->items[i], NULL) == FLOW_ERROR)
          g_assert_not_reached ();
      t->error = saved;
    }
  cls = _graft_strmap_get (&t->nn_scope->vars, name);
  if (cls == NULL || cls->kind != VAL_CLASS)
    return NULL;
  return cls;
}

static Flow
exec_class (Tracer            *t,
            Scope             *scope,
            const GraftPyStmt *s)
{
  Class *cls = _graft_tracer_alloc (t, sizeof (Class));
  Scope *body = scope_new (t, NULL, scope->globals);
  Value *v;

  cls->name = s->class_def.name;
  cls->stmt = s;
  cls->bases = _graft_tracer_vec (t);
  _graft_strmap_init (t, &cls->ns);
  for (guint i = 0; i < s->class_def.bases.len; i++)
    {
      Value *base = eval (t, scope, s->class_def.bases.items[i]);

      if (base == NULL)
        return FLOW_ERROR;
      if (base->kind == VAL_NN_CLASS && strcmp (base->path, "torch.nn.Module") != 0)
        {
          /* A file class extending a torch.nn layer is traced through the
           * layer's forward, so the layer must be known in Python form. */
          Value *model = nn_model_class (t, base->path, NULL);

          /* Defining such a class is harmless; making one is reported
           * (instantiate()). */
          if (model == NULL)
            {
              cls->unmodelled = base->path;
              cls->unmodelled_at = s->class_def.bases.items[i];
              cls->is_module = TRUE;
              _graft_vec_add (cls->bases, base);
              continue;
            }
          base = model;
        }
      if (base->kind == VAL_CLASS)
        cls->is_module = cls->is_module || base->cls->is_module;
      else if (base->kind == VAL_NN_CLASS)
        cls->is_module = TRUE;
      else if (!(base->kind == VAL_BUILTIN && strcmp (base->path, "object") == 0) && base->kind != VAL_TYPE)
        {
          _graft_tracer_fail (t, s->class_def.bases.items[i]->start, s->class_def.bases.items[i]->end,
                              GRAFT_PARSE_ERROR_UNSUPPORTED, "this base class is not supported");
          return FLOW_ERROR;
        }
      _graft_vec_add (cls->bases, base);
    }
  for (guint i = 0; i < s->class_def.decorators.len; i++)
    {
      _graft_tracer_fail (t, s->class_def.decorators.items[i]->start, s->class_def.decorators.items[i]->end,
                          GRAFT_PARSE_ERROR_UNSUPPORTED, "class decorators are not supported");
      return FLOW_ERROR;
    }

  /* The class body runs in its own namespace; methods defined in it close
   * over the enclosing scope, not the class body (Python's rule). */
  for (guint i = 0; i < s->class_def.body.len; i++)
    {
      const GraftPyStmt *item = s->class_def.body.items[i];

      if (item->kind == GRAFT_PY_STMT_FUNCTION_DEF)
        {
          Value *fn = make_function (t, scope, item, cls);

          if (fn == NULL)
            return FLOW_ERROR;
          _graft_strmap_set (&cls->ns, item->function_def.name, fn);
          continue;
        }
      body->vars = cls->ns;
      if (exec_stmt (t, body, item, NULL) == FLOW_ERROR)
        return FLOW_ERROR;
      cls->ns = body->vars;
    }
  v = _graft_value_new (t, VAL_CLASS);
  v->cls = cls;
  _graft_strmap_set (&scope->vars, s->class_def.name, v);
  return FLOW_NORMAL;
}

/* One pass through a loop: counts it against the unrolling limit, binds
 * @target (a for loop's) to @item, runs @body.  Returns FALSE when the loop
 * ends here, with the statement's outcome in @flow. */
static gboolean
run_iteration (Tracer                *t,
               Scope                 *scope,
               const GraftPyExpr     *at,
               const GraftPyExpr     *target,
               Value                 *item,
               const GraftPyStmtList *body,
               Value                **out_return,
               Flow                  *flow)
{
  if (++t->loop_steps > GRAFT_MAX_LOOP_STEPS)
    {
      fail_at (t, at, GRAFT_PARSE_ERROR_LIMIT, "the loop runs too many times to unroll");
      *flow = FLOW_ERROR;
      return FALSE;
    }
  if (target != NULL && !assign (t, scope, target, item))
    {
      *flow = FLOW_ERROR;
      return FALSE;
    }
  *flow = exec_block (t, scope, body, out_return);
  if (*flow == FLOW_BREAK)
    {
      *flow = FLOW_NORMAL;
      return FALSE;
    }
  return *flow != FLOW_RETURN && *flow != FLOW_ERROR;
}

static Flow
exec_for (Tracer            *t,
          Scope             *scope,
          const GraftPyStmt *s,
          Value            **out_return)
{
  Value *iter = eval (t, scope, s->for_stmt.iter);
  Value *items;

  if (iter == NULL)
    return FLOW_ERROR;
  items = _graft_tracer_iterate (t, iter, s->for_stmt.iter);
  if (items == NULL)
    return FLOW_ERROR;
  for (guint i = 0; i < items->seq.items->len; i++)
    {
      Flow flow;

      if (!run_iteration (t, scope, s->for_stmt.iter, s->for_stmt.target, items->seq.items->pdata[i],
                          &s->for_stmt.body, out_return, &flow))
        return flow;
    }
  return exec_block (t, scope, &s->for_stmt.orelse, out_return);
}

static Flow
exec_while (Tracer            *t,
            Scope             *scope,
            const GraftPyStmt *s,
            Value            **out_return)
{
  for (guint passes = 0;; passes++)
    {
      Value *c;
      gboolean truth;
      Flow flow;

      if (passes == GRAFT_MAX_WHILE_PASSES)
        {
          _graft_tracer_fail (t, s->while_stmt.test->start, s->while_stmt.test->end, GRAFT_PARSE_ERROR_LIMIT,
                              "the while loop ran %u times; its condition never becomes false",
                              GRAFT_MAX_WHILE_PASSES);
          return FLOW_ERROR;
        }
      c = eval (t, scope, s->while_stmt.test);
      if (c == NULL)
        return FLOW_ERROR;
      if (_graft_value_is_proxy (c))
        {
          _graft_tracer_fail (t, s->while_stmt.test->start, s->while_stmt.test->end, GRAFT_PARSE_ERROR_TRACE,
                              "a while loop cannot depend on a traced value %s", control_flow_reason);
          return FLOW_ERROR;
        }
      if (!_graft_tracer_truth (t, c, s->while_stmt.test, &truth))
        return FLOW_ERROR;
      if (!truth)
        break;
      if (!run_iteration (t, scope, s->while_stmt.test, NULL, NULL, &s->while_stmt.body, out_return, &flow))
        return flow;
    }
  return exec_block (t, scope, &s->while_stmt.orelse, out_return);
}

static Flow
exec_stmt_inner (Tracer            *t,
                 Scope             *scope,
                 const GraftPyStmt *s,
                 Value            **out_return)
{
  Value *v;
  gboolean truth;

  switch (s->kind)
    {
    case GRAFT_PY_STMT_EXPR:
      return eval (t, scope, s->expr.value) != NULL ? FLOW_NORMAL : FLOW_ERROR;

    case GRAFT_PY_STMT_ASSIGN:
      v = eval (t, scope, s->assign.value);
      if (v == NULL)
        return FLOW_ERROR;
      for (guint i = 0; i < s->assign.targets.len; i++)
        if (!assign (t, scope, s->assign.targets.items[i], v))
          return FLOW_ERROR;
      return FLOW_NORMAL;

    case GRAFT_PY_STMT_AUG_ASSIGN:
      {
        /* `x += 1` records the non-in-place operator; a list extends in
         * place, as Python's list.__iadd__ does. */
        Value *cur = eval (t, scope, s->aug_assign.target);
        Value *rhs = cur != NULL ? eval (t, scope, s->aug_assign.value) : NULL;

        if (rhs == NULL)
          return FLOW_ERROR;
        if (cur->kind == VAL_LIST && s->aug_assign.op == GRAFT_PY_BIN_ADD)
          {
            Value *items = _graft_tracer_iterate (t, rhs, s->aug_assign.value);

            if (items == NULL)
              return FLOW_ERROR;
            for (guint i = 0; i < items->seq.items->len; i++)
              _graft_value_seq_add (cur, items->seq.items->pdata[i]);
            return FLOW_NORMAL;
          }
        v = _graft_tracer_inplace_binop (t, s->aug_assign.op, cur, rhs, s->aug_assign.target);
        if (v == NULL || !assign (t, scope, s->aug_assign.target, v))
          return FLOW_ERROR;
        return FLOW_NORMAL;
      }

    case GRAFT_PY_STMT_ANN_ASSIGN:
      if (s->ann_assign.value == NULL)
        return FLOW_NORMAL;
      v = eval (t, scope, s->ann_assign.value);
      if (v == NULL || !assign (t, scope, s->ann_assign.target, v))
        return FLOW_ERROR;
      return FLOW_NORMAL;

    case GRAFT_PY_STMT_RETURN:
      v = s->ret.value != NULL ? eval (t, scope, s->ret.value) : _graft_value_none ();
      if (v == NULL)
        return FLOW_ERROR;
      if (out_return == NULL)
        {
          _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_SYNTAX, "'return' outside a function");
          return FLOW_ERROR;
        }
      *out_return = v;
      return FLOW_RETURN;

    case GRAFT_PY_STMT_PASS:
      return FLOW_NORMAL;
    case GRAFT_PY_STMT_BREAK:
      return FLOW_BREAK;
    case GRAFT_PY_STMT_CONTINUE:
      return FLOW_CONTINUE;

    case GRAFT_PY_STMT_IF:
      v = eval (t, scope, s->if_stmt.test);
      if (v == NULL)
        return FLOW_ERROR;
      if (_graft_value_is_proxy (v))
        {
          _graft_tracer_fail (t, s->if_stmt.test->start, s->if_stmt.test->end, GRAFT_PARSE_ERROR_TRACE,
                              "an if statement cannot depend on a traced value %s", control_flow_reason);
          return FLOW_ERROR;
        }
      if (!_graft_tracer_truth (t, v, s->if_stmt.test, &truth))
        return FLOW_ERROR;
      return exec_block (t, scope, truth ? &s->if_stmt.body : &s->if_stmt.orelse, out_return);

    case GRAFT_PY_STMT_FOR:
      return exec_for (t, scope, s, out_return);

    case GRAFT_PY_STMT_WHILE:
      return exec_while (t, scope, s, out_return);

    case GRAFT_PY_STMT_WITH:
      for (guint i = 0; i < s->with_stmt.n_items; i++)
        {
          /* Only context managers without effect on the graph are known:
           * torch.no_grad() and friends (graft-tracer-torch.c). */
          v = eval (t, scope, s->with_stmt.items[i]->context_expr);
          if (v == NULL)
            return FLOW_ERROR;
          if (v->kind != VAL_BUILTIN || strcmp (v->path, "__graft_context__") != 0 ||
              s->with_stmt.items[i]->optional_vars != NULL)
            {
              _graft_tracer_fail (t, s->with_stmt.items[i]->start, s->with_stmt.items[i]->end,
                                  GRAFT_PARSE_ERROR_UNSUPPORTED, "this with statement is not supported");
              return FLOW_ERROR;
            }
        }
      return exec_block (t, scope, &s->with_stmt.body, out_return);

    case GRAFT_PY_STMT_ASSERT:
      v = eval (t, scope, s->assert_stmt.test);
      if (v == NULL)
        return FLOW_ERROR;
      if (_graft_value_is_proxy (v))
        {
          _graft_tracer_fail (t, s->assert_stmt.test->start, s->assert_stmt.test->end, GRAFT_PARSE_ERROR_TRACE,
                              "an assert cannot check a traced value %s; torch._assert records the check instead",
                              control_flow_reason);
          return FLOW_ERROR;
        }
      if (!_graft_tracer_truth (t, v, s->assert_stmt.test, &truth))
        return FLOW_ERROR;
      if (!truth)
        {
          _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_TRACE, "the assertion fails while tracing");
          return FLOW_ERROR;
        }
      return FLOW_NORMAL;

    case GRAFT_PY_STMT_RAISE:
      _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_TRACE,
                          "the code raises an exception while tracing");
      return FLOW_ERROR;

    case GRAFT_PY_STMT_DELETE:
      for (guint i = 0; i < s->delete_stmt.targets.len; i++)
        {
          const GraftPyExpr *target = s->delete_stmt.targets.items[i];

          /* `del self.a`: nn.Module.__delattr__ looks in the parameters,
           * buffers and modules, then the plain attributes. */
          if (target->kind == GRAFT_PY_EXPR_ATTRIBUTE)
            {
              Value *obj = eval (t, scope, target->attribute.value);
              const char *name = target->attribute.attr;

              if (obj == NULL)
                return FLOW_ERROR;
              if (obj->kind == VAL_OBJECT &&
                  (_graft_strmap_remove (&obj->obj->params, name) || _graft_strmap_remove (&obj->obj->buffers, name) ||
                   _graft_strmap_remove (&obj->obj->modules, name) || _graft_strmap_remove (&obj->obj->attrs, name)))
                continue;
              _graft_tracer_fail (t, target->start, target->end, GRAFT_PARSE_ERROR_TRACE,
                                  "AttributeError: '%s' object has no attribute '%s'", _graft_value_type_name (obj), name);
              return FLOW_ERROR;
            }
          if (target->kind != GRAFT_PY_EXPR_NAME || !_graft_strmap_remove (&scope->vars, target->name.id))
            {
              if (target->kind == GRAFT_PY_EXPR_NAME)
                _graft_tracer_fail (t, target->start, target->end, GRAFT_PARSE_ERROR_TRACE,
                                    "NameError: name '%s' is not defined", target->name.id);
              else
                fail_at (t, target, GRAFT_PARSE_ERROR_UNSUPPORTED, "only names and attributes can be deleted");
              return FLOW_ERROR;
            }
        }
      return FLOW_NORMAL;

    case GRAFT_PY_STMT_GLOBAL:
    case GRAFT_PY_STMT_NONLOCAL:
      _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "global and nonlocal are not supported");
      return FLOW_ERROR;

    case GRAFT_PY_STMT_TRY:
      _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "try statements are not supported: tracing cannot catch exceptions");
      return FLOW_ERROR;

    case GRAFT_PY_STMT_IMPORT:
      return exec_import (t, scope, s);

    case GRAFT_PY_STMT_IMPORT_FROM:
      return exec_import_from (t, scope, s);

    case GRAFT_PY_STMT_FUNCTION_DEF:
      if (s->function_def.is_async)
        {
          _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_UNSUPPORTED, "async functions cannot be traced");
          return FLOW_ERROR;
        }
      v = make_function (t, scope, s, NULL);
      if (v == NULL)
        return FLOW_ERROR;
      _graft_strmap_set (&scope->vars, s->function_def.name, v);
      return FLOW_NORMAL;

    case GRAFT_PY_STMT_CLASS_DEF:
      return exec_class (t, scope, s);

    default:
      _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_UNSUPPORTED, "this statement is not supported");
      return FLOW_ERROR;
    }
}

static Flow
exec_stmt (Tracer            *t,
           Scope             *scope,
           const GraftPyStmt *s,
           Value            **out_return)
{
  Flow flow;
  guint32 saved_start = t->span_start, saved_end = t->span_end;

  if (++t->depth > MAX_EVAL_DEPTH)
    {
      t->depth--;
      _graft_tracer_fail (t, s->start, s->end, GRAFT_PARSE_ERROR_LIMIT, "the statement nests too deeply to evaluate (more than 4000 levels of blocks and calls)");
      return FLOW_ERROR;
    }
  t->span_start = s->start;
  t->span_end = s->end;
  flow = exec_stmt_inner (t, scope, s, out_return);
  t->span_start = saved_start;
  t->span_end = saved_end;
  t->depth--;
  g_assert (flow != FLOW_ERROR || t->error != NULL);
  return flow;
}

static Flow
exec_block (Tracer                *t,
            Scope                 *scope,
            const GraftPyStmtList *body,
            Value                **out_return)
{
  for (guint i = 0; i < body->len; i++)
    {
      Flow flow = exec_stmt (t, scope, body->items[i], out_return);

      if (flow != FLOW_NORMAL)
        return flow;
    }
  return FLOW_NORMAL;
}

/* The module body -------------------------------------------------------- */

/* Whether a module-level expression statement is `torch.fx.wrap("name")`
 * (or `fx.wrap`, `wrap` imported from torch.fx); if so, marks the function. */
static gboolean
exec_module_wrap (Tracer            *t,
                  Scope             *scope,
                  const GraftPyExpr *e)
{
  Value *callee;
  const GraftPyExpr *arg;
  Value *fn;

  if (e->kind != GRAFT_PY_EXPR_CALL || e->call.args.len != 1 || e->call.n_keywords != 0)
    return FALSE;
  callee = eval (t, scope, e->call.func);
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
      fn = _graft_strmap_get (&scope->vars, arg->constant.str);
      if (fn != NULL && fn->kind == VAL_FUNCTION)
        fn->fn->is_wrapped = TRUE;
      else if (fn != NULL && fn->kind == VAL_PATH_FN && !g_str_has_prefix (fn->path, "torch."))
        {
          /* A function imported from another library and wrapped: calls
           * with traced arguments are recorded under its qualified name
           * (gm.code of torchvision models does this). */
          Function *ext = _graft_tracer_alloc (t, sizeof (Function));
          Value *v = _graft_value_new (t, VAL_FUNCTION);
          const char *dot = strrchr (fn->path, '.');

          ext->name = dot != NULL ? dot + 1 : fn->path;
          ext->ext_path = fn->path;
          ext->is_wrapped = TRUE;
          v->fn = ext;
          _graft_strmap_set (&scope->vars, arg->constant.str, v);
        }
      return TRUE;
    }
  return FALSE;
}

/* Runs the module body: imports, definitions and constant assignments.
 * Anything else, or an assignment that cannot be evaluated, is skipped: a
 * model file's own `traced = symbolic_trace(M())` is not Graft's business. */
static gboolean
exec_module (Tracer *t)
{
  const GraftPyStmtList *body = graft_py_module_get_body (t->module);

  for (guint i = 0; i < body->len; i++)
    {
      const GraftPyStmt *s = body->items[i];

      switch (s->kind)
        {
        case GRAFT_PY_STMT_IMPORT:
        case GRAFT_PY_STMT_IMPORT_FROM:
        case GRAFT_PY_STMT_FUNCTION_DEF:
        case GRAFT_PY_STMT_CLASS_DEF:
          if (exec_stmt (t, t->globals, s, NULL) == FLOW_ERROR)
            return FALSE;
          break;
        case GRAFT_PY_STMT_ASSIGN:
        case GRAFT_PY_STMT_ANN_ASSIGN:
        case GRAFT_PY_STMT_AUG_ASSIGN:
          if (exec_stmt (t, t->globals, s, NULL) == FLOW_ERROR)
            {
              if (t->error_is_fatal)
                return FALSE;
              g_clear_error (&t->error);
            }
          break;
        case GRAFT_PY_STMT_EXPR:
          exec_module_wrap (t, t->globals, s->expr.value);
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
        case GRAFT_PY_STMT_NONLOCAL:
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
  for (guint i = 0; i < obj->buffers.keys->len; i++)
    if (!g_hash_table_contains (t->tensor_paths, obj->buffers.values->pdata[i]))
      g_hash_table_insert (t->tensor_paths, obj->buffers.values->pdata[i],
                           (gpointer) join_path (t, prefix, obj->buffers.keys->pdata[i]));
  for (guint i = 0; i < obj->attrs.keys->len; i++)
    {
      Value *v = obj->attrs.values->pdata[i];

      if (v->kind == VAL_TENSOR && !g_hash_table_contains (t->tensor_paths, v))
        g_hash_table_insert (t->tensor_paths, v, (gpointer) join_path (t, prefix, obj->attrs.keys->pdata[i]));
    }
  for (guint i = 0; i < obj->params.keys->len; i++)
    if (!g_hash_table_contains (t->tensor_paths, obj->params.values->pdata[i]))
      g_hash_table_insert (t->tensor_paths, obj->params.values->pdata[i],
                           (gpointer) join_path (t, prefix, obj->params.keys->pdata[i]));
  for (guint i = 0; i < obj->modules.keys->len; i++)
    {
      Value *child = obj->modules.values->pdata[i];

      if (child->kind == VAL_OBJECT)
        collect_paths (t, child->obj, join_path (t, prefix, obj->modules.keys->pdata[i]));
    }
}

/* fx-reference's `self_path`: `self.a.b` or `getattr(self.a, "b")`. */
static gboolean
self_path_of (Tracer            *t,
              const GraftPyExpr *e,
              GString           *out)
{
  const GraftPyExpr *base;
  const char *name;

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
  char *dot;

  /* Every proper prefix is a module. */
  while ((dot = strrchr (copy, '.')) != NULL)
    {
      *dot = '\0';
      g_hash_table_insert (t->self_tree, (gpointer) _graft_tracer_strdup (t, copy, -1), SELF_MODULE);
    }
  if (kind == SELF_MODULE || !g_hash_table_contains (t->self_tree, path))
    g_hash_table_insert (t->self_tree, (gpointer) _graft_tracer_strdup (t, path, -1), kind);
}

/* Records which `self.a.b` paths are called (leaf modules) and which are
 * read (parameters), over the whole forward body. */
static void
scan_self_paths (Tracer            *t,
                 const GraftPyExpr *e,
                 PtrVec         *called,
                 PtrVec         *read);

static void
scan_exprs (Tracer                *t,
            const GraftPyExprList *list,
            PtrVec             *called,
            PtrVec             *read)
{
  for (guint i = 0; i < list->len; i++)
    if (list->items[i] != NULL)
      scan_self_paths (t, list->items[i], called, read);
}

static void
scan_self_paths (Tracer            *t,
                 const GraftPyExpr *e,
                 PtrVec         *called,
                 PtrVec         *read)
{
  g_autoptr(GString) path = g_string_new (NULL);

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
                 PtrVec             *called,
                 PtrVec             *read)
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
        case GRAFT_PY_STMT_PASS:
        case GRAFT_PY_STMT_BREAK:
        case GRAFT_PY_STMT_CONTINUE:
        case GRAFT_PY_STMT_WITH:
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
          break;
        }
    }
}

/* The annotation as torch.fx's listing prints it (graft-tracer-types.c),
 * `""` for none, or NULL after an error. */
static const char *
annotation_repr (Tracer            *t,
                 Scope             *scope,
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
  v = eval (t, scope, e);
  if (v == NULL)
    return NULL;
  return _graft_tracer_type_repr (t, v, e);
}

static gboolean
make_placeholders (Tracer            *t,
                   Scope             *scope,
                   const GraftPyStmt *def,
                   gboolean           skip_self,
                   Value             *self)
{
  const GraftPyArguments *params = def->function_def.args;
  guint n_pos = params->n_posonly + params->n_args;

  if (params->vararg != NULL || params->kwarg != NULL || params->n_kwonly > 0)
    {
      const GraftPyArg *p = params->vararg != NULL ? params->vararg : params->kwarg != NULL ? params->kwarg : params->kwonly[0];

      _graft_tracer_fail (t, p->start, p->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "*args, **kwargs and keyword-only parameters cannot be traced "
                          "(torch.fx 1.13.1 on Python 3.11 fails on them)");
      return FALSE;
    }
  for (guint i = 0; i < n_pos; i++)
    {
      const GraftPyArg *p = i < params->n_posonly ? params->posonly[i] : params->args[i - params->n_posonly];
      PtrVec *args = NULL;
      Value *node;
      const char *type = NULL;

      if (i == 0 && skip_self)
        {
          _graft_strmap_set (&scope->vars, p->name, self);
          continue;
        }
      if (p->default_value != NULL)
        {
          Value *d = eval (t, scope->globals, p->default_value);

          if (d == NULL)
            return FALSE;
          args = _graft_tracer_vec (t);
          _graft_vec_add (args, d);
        }
      if (p->annotation != NULL && (type = annotation_repr (t, scope->globals, p->annotation)) == NULL)
        return FALSE;
      {
        GraftPyExpr at = { .start = p->start, .end = p->end };

        node = _graft_tracer_make_node (t, GRAFT_OP_PLACEHOLDER, p->name, args, NULL, NULL, &at);
      }
      if (node == NULL)
        return FALSE;
      if (type != NULL && *type != '\0')
        graft_node_set_type_annotation (node->node, type);
      _graft_strmap_set (&scope->vars, p->name, node);
    }
  return TRUE;
}

static gboolean
trace_function (Tracer   *t,
                Function *fn,
                Value    *self,
                gboolean  skip_self)
{
  const GraftPyStmt *def = fn->def;
  Scope *scope = scope_new (t, fn->closure, fn->closure->globals);
  Value *result = NULL;
  Flow flow;
  PtrVec *out_args;
  Value *out;
  GraftPyExpr at = { .start = def->start, .end = def->end };

  scope->fn = fn;
  scope->self = self;
  t->tracing = TRUE;
  if (!make_placeholders (t, scope, def, skip_self, self))
    return FALSE;
  if (contains_yield (&def->function_def.body))
    {
      fail_at (t, &at, GRAFT_PARSE_ERROR_UNSUPPORTED, "a generator cannot be traced");
      return FALSE;
    }
  t->call_depth++;
  flow = exec_block (t, scope, &def->function_def.body, &result);
  t->call_depth--;
  if (flow == FLOW_ERROR)
    return FALSE;
  if (flow == FLOW_BREAK || flow == FLOW_CONTINUE)
    {
      fail_at (t, &at, GRAFT_PARSE_ERROR_SYNTAX, "'break' or 'continue' outside a loop");
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
      const char *type = annotation_repr (t, scope->globals, def->function_def.returns);

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

      if (item->kind == GRAFT_PY_STMT_FUNCTION_DEF && strcmp (item->function_def.name, "forward") == 0)
        return TRUE;
    }
  return FALSE;
}

static char *
list_candidates (GraftPyModule *module)
{
  const GraftPyStmtList *body = graft_py_module_get_body (module);
  GString *out = g_string_new (NULL);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < body->len; i++)
    {
      const GraftPyStmt *s = body->items[i];
      const char *name = s->kind == GRAFT_PY_STMT_CLASS_DEF      ? s->class_def.name
                         : s->kind == GRAFT_PY_STMT_FUNCTION_DEF ? s->function_def.name
                                                                 : NULL;

      if (name == NULL || !g_hash_table_add (seen, (gpointer) name))
        continue;
      if (out->len > 0)
        g_string_append (out, ", ");
      g_string_append (out, name);
    }
  if (out->len == 0)
    g_string_append (out, "none");
  return g_string_free (out, FALSE);
}

/* cli.md: `--entry NAME`, else the first class that defines forward, else a
 * function named forward. */
static const char *
choose_entry (Tracer     *t,
              const char *entry)
{
  const GraftPyStmtList *body = graft_py_module_get_body (t->module);
  g_autofree char *candidates = NULL;

  if (entry != NULL)
    {
      for (guint i = 0; i < body->len; i++)
        if (is_own_definition (body->items[i], entry))
          return entry;
      candidates = list_candidates (t->module);
      graft_set_error_at (&t->error, graft_source_get_filename (t->source), 1, 1, GRAFT_PARSE_ERROR_NAME,
                          "no class or function named '%s'; candidates: %s", entry, candidates);
      return NULL;
    }
  for (guint i = 0; i < body->len; i++)
    if (body->items[i]->kind == GRAFT_PY_STMT_CLASS_DEF && class_defines_forward (body->items[i]))
      return body->items[i]->class_def.name;
  for (guint i = 0; i < body->len; i++)
    if (is_own_definition (body->items[i], "forward") && body->items[i]->kind == GRAFT_PY_STMT_FUNCTION_DEF)
      return "forward";
  candidates = list_candidates (t->module);
  graft_set_error_at (&t->error, graft_source_get_filename (t->source), 1, 1, GRAFT_PARSE_ERROR_NAME,
                      "no class defines forward and no function is named forward; candidates: %s", candidates);
  return NULL;
}

static gboolean
trace_entry (Tracer     *t,
             const char *name)
{
  Value *v = _graft_strmap_get (&t->globals->vars, name);
  GraftPyExpr at = { 0 };

  if (v == NULL)
    {
      graft_set_error_at (&t->error, graft_source_get_filename (t->source), 1, 1, GRAFT_PARSE_ERROR_NAME,
                          "'%s' is not defined at module level", name);
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
      root = instantiate (t, cls, NULL, NULL, &at);
      if (root == NULL)
        return FALSE;
      forward = class_lookup (cls, "forward", NULL);
      if (forward == NULL || forward->kind != VAL_FUNCTION)
        {
          _graft_tracer_fail (t, at.start, at.end, GRAFT_PARSE_ERROR_NAME,
                              "class '%s' has no forward method", cls->name);
          return FALSE;
        }
      t->root = root;
      collect_paths (t, root->obj, "");
      return trace_function (t, forward->fn, root, TRUE);
    }
  if (v->kind == VAL_FUNCTION && v->fn->def != NULL)
    {
      const GraftPyStmt *def = v->fn->def;
      const GraftPyArguments *params = def->function_def.args;

      if (params->n_posonly + params->n_args > 0 &&
          strcmp ((params->n_posonly > 0 ? params->posonly[0] : params->args[0])->name, "self") == 0)
        {
          /* A top-level forward(self, ...), as gm.code reads (cli.md). */
          PtrVec *called = _graft_tracer_vec (t);
          PtrVec *read = _graft_tracer_vec (t);
          Value *self = _graft_value_path (t, VAL_SELF_PATH, "");

          scan_self_stmts (t, &def->function_def.body, called, read);
          for (guint i = 0; i < called->len; i++)
            mark_self_path (t, called->pdata[i], SELF_MODULE);
          for (guint i = 0; i < read->len; i++)
            mark_self_path (t, read->pdata[i], SELF_PARAM);
          return trace_function (t, v->fn, self, TRUE);
        }
      return trace_function (t, v->fn, NULL, FALSE);
    }
  graft_set_error_at (&t->error, graft_source_get_filename (t->source), 1, 1, GRAFT_PARSE_ERROR_NAME,
                      "'%s' is neither a class nor a function", name);
  return FALSE;
}

static char *
module_stem (const char *filename)
{
  g_autofree char *base = g_path_get_basename (filename);
  char *dot = strrchr (base, '.');
  char *stem;

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
  if (t->table_scope == NULL)
    {
      t->table_scope = scope_new (t, NULL, NULL);
      _graft_strmap_set (&t->table_scope->vars, "torch", _graft_value_path (t, VAL_PYMODULE, "torch"));
      _graft_strmap_set (&t->table_scope->vars, "math", _graft_value_path (t, VAL_PYMODULE, "math"));
    }
  return eval (t, t->table_scope, e);
}

static void
tracer_clear (Tracer *t)
{
  g_ptr_array_unref (t->chunks);
  g_ptr_array_unref (t->hash_tables);
  g_ptr_array_unref (t->name_tables);
  g_ptr_array_unref (t->garrays);
  g_string_chunk_free (t->strings);
  g_hash_table_unref (t->param_nodes);
  g_hash_table_unref (t->tensor_paths);
  g_hash_table_unref (t->tensor_consts);
  g_hash_table_unref (t->self_tree);
  g_hash_table_unref (t->module_paths);
  g_hash_table_unref (t->attr_cache);
  g_hash_table_unref (t->call_paths);
  g_clear_pointer (&t->signatures, g_hash_table_unref);
  g_ptr_array_unref (t->parsed);
  g_clear_pointer (&t->graph, graft_graph_free);
  g_clear_error (&t->error);
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

/**
 * graft_py_program_new:
 * @source: Python source
 * @error: return location for a located error
 *
 * Parses @source and runs its module body: imports, definitions and
 * constant assignments (nothing else runs; see exec_module()).
 *
 * Returns: (transfer full) (nullable): the program
 */
GraftPyProgram *
graft_py_program_new (GraftSource *source,
                      GError     **error)
{
  GraftPyProgram *self;
  Tracer *t;
  GraftPyModule *module;

  g_return_val_if_fail (source != NULL, NULL);

  module = graft_py_parse (source, error);
  if (module == NULL)
    return NULL;
  self = g_new0 (GraftPyProgram, 1);
  self->source = graft_source_ref (source);
  self->module = module;
  t = &self->tracer;
  t->source = source;
  t->module = module;
  t->chunks = g_ptr_array_new_with_free_func (g_free);
  t->hash_tables = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  t->name_tables = g_ptr_array_new_with_free_func ((GDestroyNotify) _graft_tracer_name_table_free);
  t->garrays = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  t->strings = g_string_chunk_new (4096);
  t->param_nodes = g_hash_table_new (g_str_hash, g_str_equal);
  t->tensor_paths = g_hash_table_new (NULL, NULL);
  t->tensor_consts = g_hash_table_new (NULL, NULL);
  t->self_tree = g_hash_table_new (g_str_hash, g_str_equal);
  t->module_paths = g_hash_table_new (NULL, NULL);
  t->attr_cache = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_hash_table_unref);
  t->call_paths = g_hash_table_new (NULL, NULL);
  t->parsed = g_ptr_array_new_with_free_func ((GDestroyNotify) graft_py_module_free);
  t->stem = module_stem (graft_source_get_filename (source));
  t->globals = scope_new (t, NULL, NULL);
  if (!exec_module (t))
    {
      g_propagate_error (error, g_steal_pointer (&t->error));
      graft_py_program_free (self);
      return NULL;
    }
  return self;
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
GraftGraph *
graft_py_program_trace (GraftPyProgram *self,
                        const char     *entry,
                        GError        **error)
{
  Tracer *t = &self->tracer;
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
  t->tracing = FALSE;
  g_clear_error (&t->error);

  if ((name = choose_entry (t, entry)) != NULL)
    {
      t->graph = graft_graph_new ();
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

/**
 * graft_trace_source:
 * @source: Python source
 * @entry: (nullable): the class or function to trace (cli.md's `--entry`)
 * @error: return location for a located error
 *
 * Parses @source and traces its entry as torch.fx's `symbolic_trace` would.
 *
 * Returns: (transfer full) (nullable): the graph
 */
GraftGraph *
graft_trace_source (GraftSource *source,
                    const char  *entry,
                    GError     **error)
{
  g_autoptr(GraftPyProgram) program = graft_py_program_new (source, error);

  if (program == NULL)
    return NULL;
  return graft_py_program_trace (program, entry, error);
}
