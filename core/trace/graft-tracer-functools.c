/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-functools.c: functools.partial.  `functools.partial(
 * nn.Linear, bias=False)(4, 4)` builds the layer and `partial(F.gelu,
 * approximate='tanh')(x)` records the call, as Python's partial calls
 * its function with the arguments it holds before the call's, and the
 * call's keywords over its own.  A partial is a plain object of class
 * `partial` with Python's attributes `func`, `args` (a tuple) and
 * `keywords` (a dict); the rest of functools is not modelled.
 */
#include "config.h"

#include "graft-tracer-private.h"

#include <string.h>

/* Whether Python's callable() surely says no (a plain value). */
static gboolean
surely_not_callable (const Value *v)
{
  return v->kind == VAL_NONE || v->kind == VAL_BOOL || v->kind == VAL_INT ||
         v->kind == VAL_FLOAT || v->kind == VAL_COMPLEX || v->kind == VAL_STR ||
         v->kind == VAL_TUPLE || v->kind == VAL_LIST || v->kind == VAL_DICT || v->kind == VAL_SET;
}

/**
 * _graft_tracer_functools_partial:
 *
 * `functools.partial(func, *args, **keywords)`.
 *
 * Returns: (nullable): the partial object, or %NULL with the tracer's error
 */
Value *
_graft_tracer_functools_partial (Tracer            *t,
                                 PtrVec            *args,
                                 StrMap            *kwargs,
                                 const GraftPyExpr *at)
{
  Value *v, *func, *held, *keywords;

  if (args == NULL || args->len == 0)
    return _graft_tracer_raise (t, "TypeError", at->start, at->end,
                                "TypeError: type 'partial' takes at least one argument");
  if (surely_not_callable (args->pdata[0]))
    return _graft_tracer_raise (t, "TypeError", at->start, at->end,
                                "TypeError: the first argument must be callable");
  func = args->pdata[0];
  held = _graft_value_seq (t, VAL_TUPLE, args->len - 1);
  keywords = _graft_value_dict (t);
  /* A partial of a partial is flattened, as Python's: its function, its
   * arguments then these, its keywords updated with these. */
  if (func->kind == VAL_OBJECT && func->obj->is_partial)
    {
      Value *inner = _graft_strmap_get (&func->obj->attrs, "func");
      Value *inner_args = _graft_strmap_get (&func->obj->attrs, "args");
      Value *inner_keywords = _graft_strmap_get (&func->obj->attrs, "keywords");

      if (inner != NULL && inner_args != NULL && inner_args->kind == VAL_TUPLE &&
          inner_keywords != NULL && inner_keywords->kind == VAL_DICT)
        {
          func = inner;
          for (guint i = 0; i < inner_args->seq.items->len; i++)
            _graft_value_seq_add (held, inner_args->seq.items->pdata[i]);
          for (guint i = 0; i < inner_keywords->dict.keys->len; i++)
            _graft_dict_set (t, keywords, inner_keywords->dict.keys->pdata[i],
                             inner_keywords->dict.values->pdata[i]);
        }
    }
  for (guint i = 1; i < args->len; i++)
    _graft_value_seq_add (held, args->pdata[i]);
  for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
    _graft_dict_set (t, keywords, _graft_value_str (t, kwargs->keys->pdata[i], -1),
                     kwargs->values->pdata[i]);
  v = _graft_tracer_new_object (t, OBJ_PLAIN, "partial");
  _graft_strmap_set (&v->obj->attrs, "func", func);
  _graft_strmap_set (&v->obj->attrs, "args", held);
  _graft_strmap_set (&v->obj->attrs, "keywords", keywords);
  v->obj->is_partial = TRUE;
  return v;
}

/**
 * _graft_tracer_call_partial:
 * @partial: an object of _graft_tracer_functools_partial()
 *
 * Calls @partial: its function, with its arguments then @args, and its
 * keywords updated with @kwargs.
 */
Value *
_graft_tracer_call_partial (Tracer            *t,
                            Object            *partial,
                            PtrVec            *args,
                            StrMap            *kwargs,
                            const GraftPyExpr *at)
{
  Value  *func = _graft_strmap_get (&partial->attrs, "func");
  Value  *held = _graft_strmap_get (&partial->attrs, "args");
  Value  *keywords = _graft_strmap_get (&partial->attrs, "keywords");
  PtrVec *all;
  StrMap *merged;

  /* Python reads them from the object, which code may have changed. */
  if (func == NULL || held == NULL || held->kind != VAL_TUPLE || keywords == NULL ||
      keywords->kind != VAL_DICT)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "this functools.partial object was changed, which Graft does not "
                               "model");
  all = _graft_tracer_vec_sized (t, held->seq.items->len + (args != NULL ? args->len : 0));
  for (guint i = 0; i < held->seq.items->len; i++)
    _graft_vec_add (all, held->seq.items->pdata[i]);
  for (guint i = 0; args != NULL && i < args->len; i++)
    _graft_vec_add (all, args->pdata[i]);
  merged = _graft_tracer_alloc (t, sizeof (StrMap));
  _graft_strmap_init (t, merged);
  for (guint i = 0; i < keywords->dict.keys->len; i++)
    {
      Value *key = keywords->dict.keys->pdata[i];

      if (key->kind != VAL_STR)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: keywords must be strings");
      _graft_strmap_set (merged, key->str.s, keywords->dict.values->pdata[i]);
    }
  for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
    _graft_strmap_set (merged, kwargs->keys->pdata[i], kwargs->values->pdata[i]);
  return _graft_tracer_call (t, func, all, merged, at);
}
