/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-call.c: calls.  Binds arguments to parameters as Python
 * does, runs a function of the file in a new scope, instantiates a class of
 * the file (interpreting `__init__`), calls a module (call_module for a
 * torch.nn leaf, its own forward otherwise) and the magic methods of
 * torch.fx's Proxy.  Callees that are not the file's own go to
 * graft-tracer-builtins.c, graft-tracer-methods.c and graft-tracer-torch.c.
 */
#include "config.h"

#include "graft-tracer-private.h"
#include "graft-error.h"
#include "graft-limits.h"

#include <string.h>

/* torch.Size(ints): a tuple that prints as a torch.Size. */
static Value *
make_size (Tracer            *t,
           PtrVec            *args,
           StrMap            *kwargs,
           const GraftPyExpr *at)
{
  guint  n = args != NULL ? args->len : 0;
  Value *items, *out;

  if (n > 1 || (kwargs != NULL && kwargs->keys->len > 0))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "torch.Size() takes one iterable of ints here");
  out = _graft_value_seq (t, VAL_TUPLE, 0);
  out->seq.size = TRUE;
  if (n == 0)
    return out;
  items = _graft_tracer_iterate (t, args->pdata[0], at);
  if (items == NULL)
    return NULL;
  for (guint i = 0; i < items->seq.items->len; i++)
    {
      Value *d = items->seq.items->pdata[i];

      if (d->kind != VAL_INT)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "torch.Size() of a %s is not modelled by Graft's tracer",
                                   _graft_value_type_name (d));
      _graft_value_seq_add (out, d);
    }
  return out;
}

static Value *
call_object (Tracer *t, Value *callee, PtrVec *args, StrMap *kwargs, const GraftPyExpr *at);

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

/* The name of positional parameter @i (posonly, then args). */
static const char *
positional_name (const GraftPyArguments *params,
                 guint                   i)
{
  return i < params->n_posonly ? params->posonly[i]->name
                               : params->args[i - params->n_posonly]->name;
}

/* CPython's edit distance for suggestions (Python/suggestions.c, 3.12 on):
 * a move (insertion, deletion, substitution) costs 2, a substitution of
 * the same letter in another case 1; common prefixes and suffixes are
 * free; more than @max_cost gives max_cost + 1. */
#define SUGGEST_MOVE_COST  2
#define SUGGEST_MAX_LENGTH 40

static gsize
suggestion_distance (const char *a,
                     gsize       a_len,
                     const char *b,
                     gsize       b_len,
                     gsize       max_cost)
{
  gsize row[SUGGEST_MAX_LENGTH];
  gsize result = 0;

  while (a_len > 0 && b_len > 0 && a[0] == b[0])
    a++, b++, a_len--, b_len--;
  while (a_len > 0 && b_len > 0 && a[a_len - 1] == b[b_len - 1])
    a_len--, b_len--;
  if (a_len == 0 || b_len == 0)
    return (a_len + b_len) * SUGGEST_MOVE_COST;
  if (a_len > SUGGEST_MAX_LENGTH || b_len > SUGGEST_MAX_LENGTH)
    return max_cost + 1;
  if (b_len < a_len)
    {
      const char *c = a;
      gsize       n = a_len;

      a = b, a_len = b_len, b = c, b_len = n;
    }
  if ((b_len - a_len) * SUGGEST_MOVE_COST > max_cost)
    return max_cost + 1;
  for (gsize i = 0; i < a_len; i++)
    row[i] = (i + 1) * SUGGEST_MOVE_COST;
  for (gsize bi = 0; bi < b_len; bi++)
    {
      gsize diagonal = bi * SUGGEST_MOVE_COST;
      gsize least = G_MAXSIZE;

      result = diagonal;
      for (gsize ai = 0; ai < a_len; ai++)
        {
          gsize substitute =
              diagonal + (b[bi] == a[ai]                                       ? 0
                          : g_ascii_tolower (b[bi]) == g_ascii_tolower (a[ai]) ? 1
                                                                               : SUGGEST_MOVE_COST);
          gsize above = row[ai];

          result = MIN (MIN (result, above) + SUGGEST_MOVE_COST, substitute);
          diagonal = above;
          row[ai] = result;
          least = MIN (least, result);
        }
      if (least > max_cost)
        return max_cost + 1;
    }
  return result;
}

/* Python 3.13's "Did you mean" for an unknown keyword: the nearest of the
 * parameters a keyword may name, if near enough; NULL if none. */
static const char *
suggest_keyword (const GraftPyArguments *params,
                 const char             *key)
{
  guint       n_pos = params->n_posonly + params->n_args;
  gsize       key_len = strlen (key);
  gsize       best_cost = G_MAXSIZE;
  const char *best = NULL;

  for (guint i = params->n_posonly; i < n_pos + params->n_kwonly; i++)
    {
      const char *name = i < n_pos ? positional_name (params, i) : params->kwonly[i - n_pos]->name;
      gsize       len = strlen (name);
      gsize       max_cost = (key_len + len + 3) * SUGGEST_MOVE_COST / 6;
      gsize       cost;

      if (strcmp (name, key) == 0)
        continue;
      max_cost = MIN (max_cost, best_cost - 1);
      cost = suggestion_distance (key, key_len, name, len, max_cost);
      if (cost > max_cost)
        continue;
      if (best == NULL || cost < best_cost)
        best = name, best_cost = cost;
    }
  return best;
}

/* Python's list of missing parameters: 'a'; 'a' and 'b'; 'a', 'b', and 'c'. */
static void
append_missing_names (GString     *out,
                      const char **names,
                      guint        n)
{
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append (out, n == 2 ? " and " : i == n - 1 ? ", and "
                                                            : ", ");
      g_string_append_printf (out, "'%s'", names[i]);
    }
}

/* CPython's "missing N required KIND argument(s): NAMES". */
static gboolean
fail_missing (Tracer            *t,
              const GraftPyExpr *at,
              const char        *fn_name,
              const char        *kind,
              const char       **names,
              guint              n)
{
  g_autoptr (GString) list = g_string_new (NULL);

  append_missing_names (list, names, n);
  _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                      "TypeError: %s() missing %u required %s argument%s: %s", fn_name, n, kind,
                      n == 1 ? "" : "s", list->str);
  return FALSE;
}

/* Binds a call's arguments to parameters as Python does.  @out_values gets
 * one value per parameter in the order posonly, args, vararg, kwonly, kwarg
 * (vararg a tuple, kwarg a dict), all set on success.  The errors are
 * CPython's (Python/ceval.c's initialize_locals), in its order: keywords
 * first, then too many positional arguments, then missing ones. */
/**
 * _graft_tracer_scope_qualname:
 * @frame: the scope a def or class statement runs in
 *
 * Python's __qualname__ of @name defined in @frame: `name` at module
 * level, `K.name` in a class body, `f.<locals>.name` in a function.
 */
const char *
_graft_tracer_scope_qualname (Tracer     *t,
                              Frame      *frame,
                              const char *name)
{
  if (frame != NULL && frame->cls != NULL)
    return _graft_tracer_printf (t, "%s.%s", frame->cls->qualname, name);
  if (frame != NULL && frame->fn != NULL)
    return _graft_tracer_printf (t, "%s.<locals>.%s",
                                 _graft_tracer_function_qualname (t, frame->fn), name);
  return name;
}

/**
 * _graft_tracer_function_qualname:
 *
 * Python's __qualname__ of @fn, which its TypeErrors name (`K.f() takes 1
 * positional argument`): made when asked (an error), not for each call.
 */
const char *
_graft_tracer_function_qualname (Tracer         *t,
                                 const Function *fn)
{
  if (fn->owner != NULL && fn->owner->qualname != NULL)
    return _graft_tracer_printf (t, "%s.%s", fn->owner->qualname, fn->name);
  return _graft_tracer_scope_qualname (t, fn->closure, fn->name);
}

/* The name of the function bind_arguments() binds for, in an error. */
#define BIND_NAME() (fn != NULL ? _graft_tracer_function_qualname (t, fn) : fn_name)

static gboolean
bind_arguments (Tracer                 *t,
                const Function         *fn,
                const char             *fn_name,
                const GraftPyArguments *params,
                Value                 **defaults,
                Value                 **kw_defaults,
                PtrVec                 *args,
                StrMap                 *kwargs,
                Value                 **out_values,
                const GraftPyExpr      *at)
{
  guint  n_pos = params->n_posonly + params->n_args;
  guint  n_args = args != NULL ? args->len : 0;
  guint  slot_vararg = n_pos;
  guint  slot_kwonly = n_pos + (params->vararg != NULL ? 1 : 0);
  guint  slot_kwarg = slot_kwonly + params->n_kwonly;
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
    }
  if (params->vararg != NULL)
    out_values[slot_vararg] = rest != NULL ? rest : _graft_value_seq (t, VAL_TUPLE, 0);

  for (guint k = 0; kwargs != NULL && k < kwargs->keys->len; k++)
    {
      const char *key = kwargs->keys->pdata[k];
      gboolean    placed = FALSE;

      for (guint i = params->n_posonly; i < n_pos && !placed; i++)
        if (strcmp (positional_name (params, i), key) == 0)
          {
            if (out_values[i] != NULL)
              {
                _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                    "TypeError: %s() got multiple values for argument '%s'",
                                    BIND_NAME (), key);
                return FALSE;
              }
            out_values[i] = kwargs->values->pdata[k];
            placed = TRUE;
          }
      for (guint i = 0; i < params->n_kwonly && !placed; i++)
        if (strcmp (params->kwonly[i]->name, key) == 0)
          {
            out_values[slot_kwonly + i] = kwargs->values->pdata[k];
            placed = TRUE;
          }
      if (placed)
        continue;
      if (params->kwarg == NULL)
        {
          g_autoptr (GString) posonly = g_string_new (NULL);
          const char *suggestion = NULL;

          /* Positional-only parameters named by keywords, all of them. */
          for (guint i = 0; i < params->n_posonly; i++)
            if (_graft_strmap_get (kwargs, params->posonly[i]->name) != NULL)
              g_string_append_printf (posonly, "%s%s", posonly->len > 0 ? ", " : "",
                                      params->posonly[i]->name);
          if (posonly->len > 0)
            {
              _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                  "TypeError: %s() got some positional-only arguments passed as "
                                  "keyword arguments: '%s'",
                                  BIND_NAME (), posonly->str);
              return FALSE;
            }
          if (t->dialect->torch != GRAFT_TORCH_1_13)
            suggestion = suggest_keyword (params, key);
          _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                              "TypeError: %s() got an unexpected keyword argument '%s'%s%s%s",
                              BIND_NAME (), key, suggestion != NULL ? ". Did you mean '" : "",
                              suggestion != NULL ? suggestion : "", suggestion != NULL ? "'?" : "");
          return FALSE;
        }
      if (extra_kw == NULL)
        extra_kw = _graft_value_dict (t);
      _graft_dict_set (t, extra_kw, _graft_value_str (t, key, -1), kwargs->values->pdata[k]);
    }
  if (params->kwarg != NULL)
    out_values[slot_kwarg] = extra_kw != NULL ? extra_kw : _graft_value_dict (t);

  if (n_args > n_pos && params->vararg == NULL)
    {
      guint            n_defaults = 0, kwonly_given = 0;
      g_autofree char *kwonly = NULL;
      g_autofree char *takes = NULL;

      for (guint i = 0; i < n_pos; i++)
        n_defaults += defaults != NULL && defaults[i] != NULL;
      for (guint i = 0; i < params->n_kwonly; i++)
        kwonly_given += out_values[slot_kwonly + i] != NULL;
      takes = n_defaults > 0 ? g_strdup_printf ("from %u to %u", n_pos - n_defaults, n_pos)
                             : g_strdup_printf ("%u", n_pos);
      kwonly = kwonly_given > 0 ? g_strdup_printf (" positional argument%s (and %u keyword-only "
                                                   "argument%s)",
                                                   n_args != 1 ? "s" : "", kwonly_given,
                                                   kwonly_given != 1 ? "s" : "")
                                : g_strdup ("");
      _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                          "TypeError: %s() takes %s positional argument%s but %u%s %s given",
                          BIND_NAME (), takes, n_defaults > 0 || n_pos != 1 ? "s" : "", n_args,
                          kwonly, n_args == 1 && kwonly_given == 0 ? "was" : "were");
      return FALSE;
    }

  {
    const char **missing = g_newa (const char *, n_pos + params->n_kwonly + 1);
    guint        n_missing = 0;

    for (guint i = 0; i < n_pos; i++)
      if (out_values[i] == NULL)
        {
          if (defaults != NULL && defaults[i] != NULL)
            out_values[i] = defaults[i];
          else
            missing[n_missing++] = positional_name (params, i);
        }
    if (n_missing > 0)
      return fail_missing (t, at, BIND_NAME (), "positional", missing, n_missing);
    for (guint i = 0; i < params->n_kwonly; i++)
      if (out_values[slot_kwonly + i] == NULL)
        {
          if (kw_defaults != NULL && kw_defaults[i] != NULL)
            out_values[slot_kwonly + i] = kw_defaults[i];
          else
            missing[n_missing++] = params->kwonly[i]->name;
        }
    if (n_missing > 0)
      return fail_missing (t, at, BIND_NAME (), "keyword-only", missing, n_missing);
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
                    PtrVec                 *args,
                    StrMap                 *kwargs,
                    const GraftPyExpr      *at)
{
  Value **values = _graft_tracer_alloc (t, sizeof (Value *) * (n_param_slots (params) + 1));

  if (!bind_arguments (t, NULL, fn_name, params, defaults, kw_defaults, args, kwargs, values, at))
    return NULL;
  return values;
}

Value *
_graft_tracer_call_function (Tracer            *t,
                             Function          *fn,
                             Value             *self,
                             PtrVec            *args,
                             StrMap            *kwargs,
                             const GraftPyExpr *at)
{
  const GraftPyArguments *params = function_params (fn);
  guint                   n_slots = n_param_slots (params);
  Value                 **values;
  Frame                  *frame;
  Value                  *result = NULL;
  PtrVec                 *all_args = args;
  Flow                    flow;
  gboolean                in_models;

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
  if (!bind_arguments (t, fn, fn->name, params, fn->defaults, fn->kw_defaults, all_args, kwargs,
                       values, at))
    return NULL;

  frame = _graft_tracer_frame_new (t, fn->closure, fn->closure->globals);
  frame->fn = fn;
  frame->self = n_slots > 0 ? values[0] : NULL;
  for (guint i = 0; i < n_slots; i++)
    _graft_strmap_set (&frame->vars, param_at (params, i)->name, values[i]);

  if (fn->lambda != NULL)
    {
      t->call_depth++;
      result = _graft_tracer_eval (t, frame, fn->lambda->lambda.body);
      t->call_depth--;
      return result;
    }
  if (!_graft_tracer_read_body (t, fn->def))
    return NULL;
  /* (Walked once: a check's or helper's function is called by the
   * thousand.) */
  if (!fn->no_yield)
    {
      if (_graft_tracer_contains_yield (&fn->def->function_def.body))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "%s() is a generator, which Graft cannot trace", fn->name);
      fn->no_yield = TRUE;
    }

  /* An error in the torch.nn models' code is placed where the file
   * called into them, as torch places it (their offsets are of their own
   * text, not the file's). */
  in_models = fn->closure->globals != NULL &&
              (fn->closure->globals == t->nn_frame || fn->closure->globals == t->nn_settings);
  t->in_nn_models += in_models;
  t->call_depth++;
  flow = _graft_tracer_exec_block (t, frame, &fn->def->function_def.body, &result);
  t->call_depth--;
  t->in_nn_models -= in_models;
  if (flow == FLOW_ERROR && in_models && t->in_nn_models == 0 && t->error != NULL)
    graft_error_move_to_offset (t->error, t->source, at->start, at->end);
  if (flow == FLOW_ERROR)
    return NULL;
  if (flow == FLOW_BREAK || flow == FLOW_CONTINUE)
    return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_SYNTAX,
                                  "'break' or 'continue' outside a loop");
  return result != NULL ? result : _graft_value_none ();
}

Value *
_graft_tracer_instantiate (Tracer            *t,
                           Class             *cls,
                           PtrVec            *args,
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
        return _graft_tracer_fail (t, c->unmodelled_at->start, c->unmodelled_at->end,
                                   GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "a class extending %s cannot be made: Graft traces through the "
                                   "forward of a "
                                   "torch.nn layer it has a model of (Linear, Conv1d/2d/3d, "
                                   "LayerNorm, Embedding, "
                                   "the activations, pooling, Flatten, Dropout, Identity) and not "
                                   "of this one",
                                   c->unmodelled);
      for (guint i = 0; i < c->bases->len && next == NULL; i++)
        if (((Value *) c->bases->pdata[i])->kind == VAL_CLASS)
          next = ((Value *) c->bases->pdata[i])->cls;
      c = next;
    }
  init = _graft_tracer_class_lookup (cls, "__init__", &owner);
  /* An exception class that keeps BaseException's __init__: an exception,
   * which `raise` raises as it is. */
  if (cls->is_exception && init == NULL)
    return _graft_tracer_new_exception (t, cls->name, args, kwargs, at);
  self->obj = object_new (t, cls->is_module ? OBJ_USER_MODULE : OBJ_PLAIN, cls->name, cls);
  /* Its own __init__ runs before nn.Module's, if it calls it at all: a
   * dataclass's generated one never does (its __post_init__ may). */
  self->obj->before_init =
      cls->is_module && init != NULL &&
      (init->kind == VAL_FUNCTION ||
       (init->kind == VAL_BUILTIN && strcmp (init->path, "__graft_dataclass_init__") == 0));
  if (init != NULL && init->kind == VAL_BUILTIN &&
      strcmp (init->path, "__graft_dataclass_init__") == 0)
    return _graft_tracer_dataclass_init (t, owner, self, args, kwargs, at) != NULL ? self : NULL;
  if (init != NULL && init->kind == VAL_FUNCTION)
    {
      Value *result = _graft_tracer_call_function (t, init->fn, self, args, kwargs, at);

      if (result == NULL)
        return NULL;
      /* type.__call__ checks what __init__ gave back. */
      if (result->kind != VAL_NONE)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: __init__() should return None, not '%s'",
                                   _graft_value_type_name (result));
    }
  else if ((args != NULL && args->len > 0) || (kwargs != NULL && kwargs->keys->len > 0))
    {
      /* The class inherits __init__ from torch.nn or object. */
      for (guint i = 0; i < cls->bases->len; i++)
        {
          Value *base = cls->bases->pdata[i];

          if (base->kind == VAL_NN_CLASS && strcmp (base->path, "torch.nn.Module") != 0)
            return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                       "class %s extends %s, whose constructor Graft does not "
                                       "model",
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
/**
 * _graft_tracer_call_leaf:
 * @module: a torch.nn leaf module (OBJ_LEAF)
 *
 * Calls @module: records a call_module node while tracing.
 */
Value *
_graft_tracer_call_leaf (Tracer            *t,
                         Value             *module,
                         PtrVec            *args,
                         StrMap            *kwargs,
                         const GraftPyExpr *at)
{
  Object     *obj = module->obj;
  const char *path = g_hash_table_lookup (t->module_paths, obj);

  if (!t->tracing)
    return _graft_value_tensor (t);
  if (path == NULL)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "this %s is not a submodule of the traced module, so torch.fx "
                               "cannot name it",
                               obj->class_name);
  /* How the module was built, for a pattern written from this graph
   * (graft-extract.c). */
  if (obj->constructor != NULL && obj->constructor_serial != t->graph_serial)
    {
      graft_graph_set_module_constructor (t->graph, path, obj->constructor);
      obj->constructor_serial = t->graph_serial;
    }
  return _graft_tracer_make_node (t, GRAFT_OP_CALL_MODULE, path, args, kwargs, NULL, at);
}

static Value *
call_module (Tracer            *t,
             Value             *module,
             PtrVec            *args,
             StrMap            *kwargs,
             const GraftPyExpr *at)
{
  Object *obj = module->obj;
  Value  *forward;

  /* torch.fx's Tracer.call_module asks path_of_module() first, for any
   * module it calls: one held in a plain list, made in forward, or a
   * Sequential's slice is not in named_modules(). */
  if (t->tracing && (obj->kind == OBJ_SEQUENTIAL || obj->kind == OBJ_USER_MODULE) &&
      !g_hash_table_contains (t->module_paths, obj))
    return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                  "NameError: module is not installed as a submodule");
  switch (obj->kind)
    {
    case OBJ_LEAF:
      return _graft_tracer_call_leaf (t, module, args, kwargs, at);
    case OBJ_SEQUENTIAL:
      {
        Value *x;

        if (args == NULL || args->len != 1 || (kwargs != NULL && kwargs->keys->len > 0))
          return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                        "a Sequential is called with exactly one argument");
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
      forward = obj->cls != NULL ? _graft_tracer_class_lookup (obj->cls, "forward", NULL) : NULL;
      if (forward == NULL || forward->kind != VAL_FUNCTION)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "module %s has no forward method Graft can trace",
                                   obj->class_name);
      return _graft_tracer_call_function (t, forward->fn, module, args, kwargs, at);
    case OBJ_MODULE_LIST:
    case OBJ_MODULE_DICT:
    case OBJ_PARAMETER_LIST:
    case OBJ_PARAMETER_DICT:
    case OBJ_PLAIN:
    default:
      if (obj->is_partial)
        return _graft_tracer_call_partial (t, obj, args, kwargs, at);
      if (obj->cls != NULL)
        {
          Value *call = _graft_tracer_class_lookup (obj->cls, "__call__", NULL);

          if (call != NULL && call->kind == VAL_FUNCTION)
            return _graft_tracer_call_function (t, call->fn, module, args, kwargs, at);
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
  g_autofree char *snake = graft_snake_case (name, t->dialect);

  return _graft_tracer_strdup (t, snake, -1);
}

/* The magic methods of torch.fx's Proxy, called by name. */
static Value *
call_magic (Tracer            *t,
            Value             *callee,
            PtrVec            *args,
            StrMap            *kwargs,
            const GraftPyExpr *at)
{
  static const struct
  {
    const char *name;
    int         kind; /* 0 binary, 1 reflected binary, 2 unary, 3 compare, 4 getitem */
    int         op;
  } magic[] = {
    { "__add__", 0, GRAFT_PY_BIN_ADD },
    { "__radd__", 1, GRAFT_PY_BIN_ADD },
    { "__sub__", 0, GRAFT_PY_BIN_SUB },
    { "__rsub__", 1, GRAFT_PY_BIN_SUB },
    { "__mul__", 0, GRAFT_PY_BIN_MUL },
    { "__rmul__", 1, GRAFT_PY_BIN_MUL },
    { "__matmul__", 0, GRAFT_PY_BIN_MATMUL },
    { "__rmatmul__", 1, GRAFT_PY_BIN_MATMUL },
    { "__truediv__", 0, GRAFT_PY_BIN_TRUEDIV },
    { "__rtruediv__", 1, GRAFT_PY_BIN_TRUEDIV },
    { "__floordiv__", 0, GRAFT_PY_BIN_FLOORDIV },
    { "__rfloordiv__", 1, GRAFT_PY_BIN_FLOORDIV },
    { "__mod__", 0, GRAFT_PY_BIN_MOD },
    { "__rmod__", 1, GRAFT_PY_BIN_MOD },
    { "__pow__", 0, GRAFT_PY_BIN_POW },
    { "__rpow__", 1, GRAFT_PY_BIN_POW },
    { "__lshift__", 0, GRAFT_PY_BIN_LSHIFT },
    { "__rlshift__", 1, GRAFT_PY_BIN_LSHIFT },
    { "__rshift__", 0, GRAFT_PY_BIN_RSHIFT },
    { "__rrshift__", 1, GRAFT_PY_BIN_RSHIFT },
    { "__and__", 0, GRAFT_PY_BIN_BITAND },
    { "__rand__", 1, GRAFT_PY_BIN_BITAND },
    { "__or__", 0, GRAFT_PY_BIN_BITOR },
    { "__ror__", 1, GRAFT_PY_BIN_BITOR },
    { "__xor__", 0, GRAFT_PY_BIN_BITXOR },
    { "__rxor__", 1, GRAFT_PY_BIN_BITXOR },
    { "__neg__", 2, GRAFT_PY_UNARY_NEG },
    { "__pos__", 2, GRAFT_PY_UNARY_POS },
    { "__invert__", 2, GRAFT_PY_UNARY_INVERT },
    { "__eq__", 3, GRAFT_PY_CMP_EQ },
    { "__ne__", 3, GRAFT_PY_CMP_NOT_EQ },
    { "__lt__", 3, GRAFT_PY_CMP_LT },
    { "__le__", 3, GRAFT_PY_CMP_LT_E },
    { "__gt__", 3, GRAFT_PY_CMP_GT },
    { "__ge__", 3, GRAFT_PY_CMP_GT_E },
    { "__getitem__", 4, 0 },
  };
  const char *name = callee->attr.attr;
  guint       n = args != NULL ? args->len : 0;
  Value      *self = callee->attr.base;

  if (name[0] != '_' || name[1] != '_')
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (magic); i++)
    {
      if (strcmp (magic[i].name, name) != 0)
        continue;
      if (n != (magic[i].kind == 2 ? 0u : 1u) || (kwargs != NULL && kwargs->keys->len > 0))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "%s() takes %s argument", name,
                                   magic[i].kind == 2 ? "no" : "one");
      switch (magic[i].kind)
        {
        case 0:
          return _graft_tracer_binop_as (t, magic[i].op, self, args->pdata[0], NULL, at);
        case 1:
          return _graft_tracer_binop_as (t, magic[i].op, args->pdata[0], self, NULL, at);
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

/**
 * _graft_tracer_proxy_member:
 * @name: an attribute of a traced value
 *
 * Whether @name is one of torch.fx.Proxy's own members rather than a
 * method torch.fx records: `keys` (a method of no argument), `node` and
 * `tracer` (the Node and the Tracer, neither callable).
 */
gboolean
_graft_tracer_proxy_member (const char *name)
{
  /* The first letter first: this is asked for every method call. */
  switch (name[0])
    {
    case 'k':
      return strcmp (name, "keys") == 0;
    case 'n':
      return strcmp (name, "node") == 0;
    case 't':
      return strcmp (name, "tracer") == 0;
    default:
      return FALSE;
    }
}

/* Whether a traced value's Proxy member @name can be called so: `x.keys()`
 * records the method keys as Proxy.keys does; anything else fails with
 * the TypeError Python gives. */
static gboolean
check_proxy_member (Tracer            *t,
                    const char        *name,
                    PtrVec            *args,
                    StrMap            *kwargs,
                    const GraftPyExpr *at)
{
  if (strcmp (name, "node") == 0 || strcmp (name, "tracer") == 0)
    _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                        "TypeError: '%s' object is not callable",
                        name[0] == 'n' ? "Node" : "Tracer");
  else if (kwargs != NULL && kwargs->keys->len > 0)
    _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                        "TypeError: Proxy.keys() got an unexpected keyword argument '%s'",
                        (const char *) kwargs->keys->pdata[0]);
  else if (args != NULL && args->len > 0)
    _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                        "TypeError: Proxy.keys() takes 1 positional argument but %u were given",
                        args->len + 1);
  else
    return TRUE;
  return FALSE;
}

static Value *
call_object (Tracer            *t,
             Value             *callee,
             PtrVec            *args,
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
              const char *target = callee->fn->ext_path != NULL
                                       ? callee->fn->ext_path
                                       : _graft_tracer_join_path (t, t->stem, callee->fn->name);
              const char *name = graft_tracer_snake (t, callee->fn->name);
              Value      *v;

              v = _graft_tracer_make_node (t, GRAFT_OP_CALL_FUNCTION, target, args, kwargs, name,
                                           at);
              if (v != NULL)
                graft_node_set_is_wrapped (v->node, TRUE);
              return v;
            }
        }
      if (callee->fn->ext_path != NULL)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "%s comes from another library: Graft can record it with traced "
                                   "arguments "
                                   "but cannot run it on constants",
                                   callee->fn->ext_path);
      return _graft_tracer_call_function (t, callee->fn, NULL, args, kwargs, at);
    case VAL_BOUND:
      if (callee->bound.fn->kind == VAL_FUNCTION)
        return _graft_tracer_call_function (t, callee->bound.fn->fn, callee->bound.self, args,
                                            kwargs, at);
      return call_object (t, callee->bound.fn, args, kwargs, at);
    case VAL_CLASS:
      return _graft_tracer_instantiate (t, callee->cls, args, kwargs, at);
    case VAL_OBJECT:
      return call_module (t, callee, args, kwargs, at);
    case VAL_ATTR_PROXY:
      {
        /* `x.meth(...)`: call_method with the receiver first, except for
         * the magic methods a Proxy defines itself (`x.__add__(1)` is
         * `x + 1`). */
        ArenaMark mark;
        PtrVec   *all;
        Value    *magic;

        /* `getattr(x, "a\x00b")(...)`: torch.fx writes the method's
         * name raw, and its code does not compile. */
        if (G_UNLIKELY (_graft_tracer_attr_len (t, callee) >= 0))
          {
            _graft_tracer_check_attr_name (t, "a method name", callee->attr.attr,
                                           (gsize) _graft_tracer_attr_len (t, callee), at->start,
                                           at->end);
            return NULL;
          }
        /* Proxy.__len__ refuses, as len(x) does. */
        if (strcmp (callee->attr.attr, "__len__") == 0)
          return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                        "len() of a traced value is not known while tracing "
                                        "(torch.fx: 'len' is not supported in symbolic tracing by "
                                        "default)");
        if (_graft_tracer_proxy_member (callee->attr.attr) &&
            !check_proxy_member (t, callee->attr.attr, args, kwargs, at))
          return NULL;
        magic = call_magic (t, callee, args, kwargs, at);
        if (magic != NULL || t->error != NULL)
          return magic;

        /* The receiver and the arguments, for the node alone. */
        mark = _graft_tracer_mark (t);
        all = _graft_tracer_vec_sized (t, 1 + (args != NULL ? args->len : 0));
        _graft_vec_add (all, callee->attr.base);
        for (guint i = 0; args != NULL && i < args->len; i++)
          _graft_vec_add (all, args->pdata[i]);
        return _graft_tracer_make_node_from (t, mark, GRAFT_OP_CALL_METHOD, callee->attr.attr, all,
                                             kwargs, NULL, at);
      }
    case VAL_PROXY:
      {
        /* Proxy.__call__ records the call as the method `__call__`. */
        ArenaMark mark = _graft_tracer_mark (t);
        PtrVec   *all = _graft_tracer_vec_sized (t, 1 + (args != NULL ? args->len : 0));

        _graft_vec_add (all, callee);
        for (guint i = 0; args != NULL && i < args->len; i++)
          _graft_vec_add (all, args->pdata[i]);
        return _graft_tracer_make_node_from (t, mark, GRAFT_OP_CALL_METHOD, "__call__", all, kwargs,
                                             NULL, at);
      }
    case VAL_SELF_PATH:
      /* `self(x)` in a top-level forward(self): the module itself, whose
       * call is this forward again (torch recurses; no call_module of ""). */
      if (callee->path[0] == '\0' || strcmp (callee->path, "forward") == 0)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "%s(...) calls this forward again, a recursion without end",
                                   callee->path[0] == '\0' ? "self" : "self.forward");
      return _graft_tracer_make_node (t, GRAFT_OP_CALL_MODULE, callee->path, args, kwargs, NULL,
                                      at);
    case VAL_PATH_FN:
      if (strcmp (callee->path, "functools.partial") == 0)
        return _graft_tracer_functools_partial (t, args, kwargs, at);
      if (strcmp (callee->path, "torch.nn.utils.weight_norm") == 0 ||
          strcmp (callee->path, "torch.nn.utils.spectral_norm") == 0)
        return _graft_tracer_weight_norm (t, callee->path, args, kwargs, at);
      if (strcmp (callee->path, "torch.nn.utils.remove_weight_norm") == 0 ||
          strcmp (callee->path, "torch.nn.utils.remove_spectral_norm") == 0)
        return _graft_tracer_remove_weight_norm (t, callee->path, args, kwargs, at);
      if (strcmp (callee->path, "dataclasses.field") == 0)
        return _graft_tracer_dataclass_field (t, args, kwargs, at);
      if (strcmp (callee->path, "dataclasses.asdict") == 0 ||
          strcmp (callee->path, "dataclasses.astuple") == 0 ||
          strcmp (callee->path, "dataclasses.replace") == 0)
        return _graft_tracer_dataclass_function (t, callee->path + strlen ("dataclasses."), args,
                                                 kwargs, at);
      return _graft_tracer_call_path_value (t, callee, args, kwargs, at);
    case VAL_NN_CLASS:
      return _graft_tracer_new_nn (t, callee->path, args, kwargs, at);
    case VAL_BUILTIN:
      if (strcmp (callee->path, "__graft_noop__") == 0)
        return _graft_value_none ();
      if (strcmp (callee->path, "__graft_object_init__") == 0)
        {
          static const char message[] =
              "object.__init__() takes exactly one argument (the instance to initialize)";

          if ((args == NULL || args->len == 0) && (kwargs == NULL || kwargs->keys->len == 0))
            return _graft_value_none ();
          _graft_tracer_raise (t, "TypeError", at->start, at->end, "TypeError: %s", message);
          t->raised_args = _graft_value_seq (t, VAL_TUPLE, 1);
          _graft_value_seq_add (t->raised_args, _graft_value_str (t, message, -1));
          return NULL;
        }
      if (strcmp (callee->path, "__graft_nn_module_init__") == 0)
        {
          Value  *self = args != NULL && args->len > 0 ? args->pdata[0] : NULL;
          PtrVec *rest;

          if (self == NULL || self->kind != VAL_OBJECT || self->obj->kind == OBJ_PLAIN)
            return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                       "nn.Module.__init__ is modelled only when called with a "
                                       "module as its first argument");
          rest = _graft_tracer_vec (t);
          for (guint i = 1; i < args->len; i++)
            _graft_vec_add (rest, args->pdata[i]);
          return _graft_tracer_call_method (t, self, "__graft_module_init__", rest, kwargs, at);
        }
      return _graft_tracer_call_builtin (t, callee->path, args, kwargs, at);
    case VAL_METHOD:
      return _graft_tracer_call_method (t, callee->method.recv, callee->method.name, args, kwargs,
                                        at);
    case VAL_TYPE:
      /* Only a type has a path here: the others hold other members. */
      if (strcmp (callee->path, "torch.Size") == 0)
        return make_size (t, args, kwargs, at);
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                 "TypeError: '%s' object is not callable",
                                 _graft_value_type_name (callee));
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
    case VAL_GENERIC:
    case VAL_ITER:
    case VAL_SET:
    default:
      /* Python's TypeError, which an `except` catches. */
      return _graft_tracer_raise (t, "TypeError", at->start, at->end, "'%s' object is not callable",
                                  _graft_value_type_name (callee));
    }
}

Value *
_graft_tracer_call (Tracer            *t,
                    Value             *callee,
                    PtrVec            *args,
                    StrMap            *kwargs,
                    const GraftPyExpr *at)
{
  return call_object (t, callee, args, kwargs, at);
}
