/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-methods.c: the methods of constant values (lists, tuples,
 * dicts, strings, numbers) and of modules (`register_buffer`,
 * `ModuleList.append`, `named_parameters`, ...), run eagerly as Python
 * would.  A list or dict is changed in place, as in Python; a module's
 * registration methods store where nn.Module's own would.  A method Graft
 * does not model is an error that names it.
 */
#include "config.h"

#include "graft-tracer-private.h"
#include "graft-tracer-shapes-private.h"
#include "graft-error.h"
#include "graft-limits.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const list_methods[] = { "append", "extend", "insert", "pop", "index",
                                            "count", "copy", "reverse", "clear", NULL };
static const char *const tuple_methods[] = { "index", "count", NULL };
static const char *const dict_methods[] = { "items", "keys", "values", "get", "update",
                                            "pop", "setdefault", "copy", NULL };
static const char *const str_methods[] = { "format", "join", "upper", "lower",
                                           "replace", "split", "strip", "startswith",
                                           "endswith", "isidentifier", "isdigit", NULL };
static const char *const module_methods[] = { "register_buffer",
                                              "register_parameter",
                                              "add_module",
                                              "register_module",
                                              "append",
                                              "extend",
                                              "insert",
                                              "children",
                                              "modules",
                                              "parameters",
                                              "named_children",
                                              "named_modules",
                                              "named_parameters",
                                              "buffers",
                                              "named_buffers",
                                              "items",
                                              "keys",
                                              "values",
                                              "eval",
                                              "train",
                                              "to",
                                              "cuda",
                                              "cpu",
                                              "float",
                                              "double",
                                              "half",
                                              "requires_grad_",
                                              "reset_parameters",
                                              "apply",
                                              "zero_grad",
                                              "get_submodule",
                                              "get_parameter",
                                              "get_buffer",
                                              "state_dict",
                                              NULL };

static gboolean
in_names (const char *const *names,
          const char        *name)
{
  for (guint i = 0; names[i] != NULL; i++)
    if (strcmp (names[i], name) == 0)
      return TRUE;
  return FALSE;
}

/**
 * _graft_tracer_has_method:
 *
 * Returns: whether Graft models the method @name of @recv
 */
gboolean
_graft_tracer_has_method (const Value *recv,
                          const char  *name)
{
  if (recv->kind == VAL_LIST)
    return in_names (list_methods, name);
  if (recv->kind == VAL_TUPLE)
    return in_names (tuple_methods, name) || (recv->seq.size && strcmp (name, "numel") == 0);
  if (recv->kind == VAL_DICT)
    return in_names (dict_methods, name);
  if (recv->kind == VAL_SET)
    return TRUE; /* _graft_tracer_set_method() says which it has */
  if (recv->kind == VAL_STR)
    return in_names (str_methods, name);
  /* items(), keys() and values() are ModuleDict's and ParameterDict's
   * alone (`self.seq.items()` is nn.Module's AttributeError). */
  if (recv->kind == VAL_OBJECT && (strcmp (name, "items") == 0 || strcmp (name, "keys") == 0 ||
                                   strcmp (name, "values") == 0))
    return recv->obj->kind == OBJ_MODULE_DICT || recv->obj->kind == OBJ_PARAMETER_DICT;
  if (recv->kind == VAL_OBJECT)
    return recv->obj->kind != OBJ_PLAIN && in_names (module_methods, name);
  if (_graft_value_is_tensor (recv))
    return TRUE;
  if (recv->kind == VAL_BUILTIN)
    return strcmp (recv->path, "float") == 0 && strcmp (name, "fromhex") == 0;
  return FALSE;
}

/* float.fromhex(s): as Python reads it (no `0x` needed, `inf` and `nan`
 * too), through the C library, which reads the same hexadecimal form. */
static Value *
float_fromhex (Tracer            *t,
               PtrVec            *args,
               const GraftPyExpr *at)
{
  Value           *text;
  g_autofree char *s = NULL;
  g_autoptr (GString) c_form = g_string_new (NULL);
  const char *p;
  char       *end = NULL;
  double      f;

  if (!_graft_tracer_check_arity (t, "fromhex", args, 1, 1, at))
    return NULL;
  text = _graft_tracer_arg (args, 0);
  if (text->kind != VAL_STR)
    return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                  "TypeError: fromhex() argument must be str");
  s = g_strstrip (g_strndup (text->str.s, text->str.len));
  p = s;
  if (*p == '+' || *p == '-')
    g_string_append_c (c_form, *p++);
  if (g_ascii_strncasecmp (p, "inf", 3) == 0 || g_ascii_strncasecmp (p, "nan", 3) == 0)
    g_string_append (c_form, p);
  else
    {
      if (g_ascii_strncasecmp (p, "0x", 2) == 0)
        p += 2;
      g_string_append (c_form, "0x");
      g_string_append (c_form, p);
    }
  f = g_ascii_strtod (c_form->str, &end);
  if (end == NULL || *end != '\0' || c_form->len <= 2)
    return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                  "ValueError: invalid hexadecimal floating-point string");
  if (isinf (f) && g_ascii_strncasecmp (p, "inf", 3) != 0)
    return _graft_tracer_fail_at (
        t, at, GRAFT_PARSE_ERROR_TRACE,
        "OverflowError: hexadecimal value too large to represent as a float");
  return _graft_value_float (t, f);
}

/* The tuple (@a, @b). */
static Value *
pair_new (Tracer *t,
          Value  *a,
          Value  *b)
{
  Value *pair = _graft_value_seq (t, VAL_TUPLE, 2);

  _graft_value_seq_add (pair, a);
  _graft_value_seq_add (pair, b);
  return pair;
}

static Value *
list_of_pairs (Tracer *t,
               StrMap *map,
               int     what) /* 0 keys, 1 values, 2 items */
{
  Value *out = _graft_value_seq (t, VAL_LIST, 0);

  for (guint i = 0; i < map->keys->len; i++)
    {
      Value *key = _graft_value_str (t, map->keys->pdata[i], -1);

      if (what == 0)
        _graft_value_seq_add (out, key);
      else if (what == 1)
        _graft_value_seq_add (out, map->values->pdata[i]);
      else
        {
          Value *pair = _graft_value_seq (t, VAL_TUPLE, 2);

          _graft_value_seq_add (pair, key);
          _graft_value_seq_add (pair, map->values->pdata[i]);
          _graft_value_seq_add (out, pair);
        }
    }
  return out;
}

/* getattr(@obj, @name) as hasattr() then getattr() see it: NULL, and no
 * error, when Graft finds no such attribute. */
static Value *
module_try_getattr (Tracer            *t,
                    Value             *obj,
                    const char        *name,
                    const GraftPyExpr *at)
{
  GError *saved = t->error;
  Value  *v;

  t->error = NULL;
  v = _graft_tracer_getattr (t, obj, name, at);
  g_clear_error (&t->error);
  t->error = saved;
  return v;
}

/* nn.Module.get_submodule(target) (and the walk of get_parameter() and
 * get_buffer()): each dotted atom by hasattr() and getattr(), each step
 * a module.  While tracing, getattr() of a parameter gives its Proxy. */
static Value *
module_get_submodule (Tracer            *t,
                      Value             *mod,
                      const char        *target,
                      gsize              len,
                      const GraftPyExpr *at)
{
  const char *end = target + len;

  if (len == 0)
    return mod;
  for (const char *p = target;; p++)
    {
      const char *dot = memchr (p, '.', end - p);
      const char *item = _graft_tracer_strdup (t, p, (dot != NULL ? dot : end) - p);
      Value      *next = module_try_getattr (t, mod, item, at);

      if (next == NULL)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "AttributeError: %s has no attribute `%s`",
                                   mod->obj->class_name, item);
      if (next->kind != VAL_OBJECT || next->obj->kind == OBJ_PLAIN)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "AttributeError: `%s` is not an nn.Module", item);
      mod = next;
      if (dot == NULL)
        return mod;
      p = dot;
    }
}

/* get_submodule(), get_parameter() and get_buffer() of a module, as
 * torch.nn.Module has them (the same in both torches).  While tracing,
 * getattr() of a parameter is its Proxy, which is no nn.Parameter, so
 * get_parameter() fails there as in torch. */
static Value *
module_get_by_target (Tracer            *t,
                      Value             *recv,
                      const char        *name,
                      PtrVec            *args,
                      StrMap            *kwargs,
                      const GraftPyExpr *at)
{
  guint       n = _graft_tracer_n_args (args);
  Value      *target = n > 0 ? _graft_tracer_arg (args, 0) : NULL;
  const char *dot;
  const char *leaf;
  Value      *mod;
  Value      *v;

  /* Python's own checks of `def get_submodule(self, target)`, in its order */
  if (n > 1)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "TypeError: Module.%s() takes 2 positional arguments but %u were "
                               "given",
                               name, n + 1);
  for (guint i = 0; kwargs != NULL && kwargs->keys != NULL && i < kwargs->keys->len; i++)
    {
      const char *key = kwargs->keys->pdata[i];

      if (strcmp (key, "target") != 0)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: Module.%s() got an unexpected keyword argument "
                                   "'%s'",
                                   name, key);
      if (target != NULL)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: Module.%s() got multiple values for argument "
                                   "'target'",
                                   name);
      target = kwargs->values->pdata[i];
    }
  if (target == NULL)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "TypeError: Module.%s() missing 1 required positional argument: "
                               "'target'",
                               name);
  if (target->kind != VAL_STR)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "AttributeError: '%s' object has no attribute '%s'",
                               _graft_value_type_name (target),
                               name[4] == 's' ? "split" : "rpartition");
  if (memchr (target->str.s, '\0', target->str.len) != NULL)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "a target with a NUL byte is not supported");
  if (name[4] == 's')
    return module_get_submodule (t, recv, target->str.s, target->str.len, at);
  /* target.rpartition("."): the module's path and the last name */
  dot = g_strrstr_len (target->str.s, target->str.len, ".");
  leaf = dot != NULL ? dot + 1 : target->str.s;
  mod = module_get_submodule (t, recv, target->str.s,
                              dot != NULL ? (gsize) (dot - target->str.s) : 0, at);
  if (mod == NULL)
    return NULL;
  if ((v = module_try_getattr (t, mod, leaf, at)) == NULL)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "AttributeError: %s has no attribute `%s`",
                               mod->obj->class_name, leaf);
  if (name[4] == 'p' ? v->kind != VAL_PARAMETER
                     : _graft_strmap_get (&mod->obj->buffers, leaf) == NULL)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "AttributeError: `%s` is %s", leaf,
                               name[4] == 'p' ? "not an nn.Parameter" : "not a buffer");
  return v;
}

/* nn.Module.named_modules(): @mod and its submodules, depth first, each
 * once (by identity), as (path, module) pairs added to @out. */
static void
walk_modules (Tracer     *t,
              Value      *mod,
              const char *prefix,
              GHashTable *seen,
              Value      *out)
{
  if (!g_hash_table_add (seen, mod->obj))
    return;
  _graft_value_seq_add (out, pair_new (t, _graft_value_str (t, prefix, -1), mod));
  for (guint i = 0; i < mod->obj->modules.keys->len; i++)
    {
      Value      *child = mod->obj->modules.values->pdata[i];
      const char *key = mod->obj->modules.keys->pdata[i];

      if (child->kind == VAL_OBJECT)
        walk_modules (t, child, *prefix != '\0' ? _graft_tracer_join_path (t, prefix, key) : key,
                      seen, out);
    }
}

/* The tensors @obj holds itself (`_parameters` or `_buffers`, @buffers),
 * None left out, as (name, tensor) pairs added to @out: a leaf's are its
 * model's (_graft_tracer_leaf_model()), made as they are listed. */
static gboolean
own_tensors (Tracer            *t,
             Object            *obj,
             gboolean           buffers,
             const char        *prefix,
             GHashTable        *seen,
             Value             *out,
             const GraftPyExpr *at)
{
  StrMap *map = buffers ? &obj->buffers : &obj->params;

  if (obj->kind == OBJ_LEAF && !obj->tensors_own)
    {
      Object *model = _graft_tracer_leaf_model (t, obj, at);

      if (model == NULL)
        {
          _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                              "the %s of torch.nn.%s are not known to Graft",
                              buffers ? "buffers" : "parameters", obj->class_name);
          return FALSE;
        }
      map = buffers ? &model->buffers : &model->params;
    }
  for (guint i = 0; i < map->keys->len; i++)
    {
      const char *key = map->keys->pdata[i];
      Value      *v = map->values->pdata[i];

      if (v->kind == VAL_NONE)
        continue;
      if (obj->kind == OBJ_LEAF && !obj->tensors_own)
        {
          Value *made = v;

          /* The leaf's tensor is its own; what it is made like, the model's. */
          v = _graft_tracer_leaf_tensor (t, obj, key, buffers);
          if (v->tensor.meta == NULL && _graft_value_is_tensor (made))
            v->tensor.meta = made->tensor.meta;
        }
      if (!g_hash_table_add (seen, v))
        continue;
      _graft_value_seq_add (
          out,
          pair_new (t,
                    _graft_value_str (
                        t, *prefix != '\0' ? _graft_tracer_join_path (t, prefix, key) : key, -1),
                    v));
    }
  return TRUE;
}

/* `named_parameters()`, `parameters()`, `named_buffers()`, `buffers()`,
 * `named_modules()`, `modules()` of @recv, as nn.Module lists them: through
 * the submodules unless `recurse=False`, each tensor and module once (by
 * identity), None left out, names prefixed with `prefix`.  What is listed
 * are the tensors themselves, not proxies: passed to an op, each is a
 * get_attr of its first path (torch.fx's create_arg). */
static Value *
module_listing (Tracer            *t,
                Value             *recv,
                const char        *name,
                PtrVec            *args,
                StrMap            *kwargs,
                const GraftPyExpr *at)
{
  gboolean named = g_str_has_prefix (name, "named_");
  gboolean modules = g_str_has_suffix (name, "modules");
  gboolean buffers = g_str_has_suffix (name, "buffers");
  /* Positional parameters: named_x(prefix, recurse), x(recurse);
   * named_modules(memo, prefix). */
  const char *params[2] = { named ? (modules ? "memo" : "prefix") : "recurse",
                            named ? (modules ? "prefix" : "recurse") : NULL };
  Value      *given[2] = { NULL, NULL };
  const char *prefix = "";
  gboolean    recurse = TRUE;
  Value      *mods, *out;
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);

  if (_graft_tracer_n_args (args) > (params[1] != NULL ? 2u : 1u))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "%s() takes too many arguments", name);
  for (guint i = 0; i < _graft_tracer_n_args (args); i++)
    given[i] = _graft_tracer_arg (args, i);
  for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
    {
      const char *key = kwargs->keys->pdata[i];
      guint       k = strcmp (key, params[0]) == 0                        ? 0
                      : params[1] != NULL && strcmp (key, params[1]) == 0 ? 1
                                                                          : 2;

      if (k == 2 || given[k] != NULL)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "%s(): the argument '%s' is not supported", name, key);
      given[k] = kwargs->values->pdata[i];
    }
  for (guint k = 0; k < 2; k++)
    {
      if (given[k] == NULL)
        continue;
      if (strcmp (params[k], "prefix") == 0 && given[k]->kind == VAL_STR)
        prefix = given[k]->str.s;
      else if (strcmp (params[k], "recurse") == 0 && given[k]->kind == VAL_BOOL)
        recurse = given[k]->b;
      else if (!(strcmp (params[k], "memo") == 0 && given[k]->kind == VAL_NONE))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "%s(): this %s is not supported", name, params[k]);
    }
  mods = _graft_value_seq (t, VAL_LIST, 0);
  if (modules || recurse)
    walk_modules (t, recv, prefix, seen, mods);
  else
    {
      _graft_value_seq_add (mods, pair_new (t, _graft_value_str (t, prefix, -1), recv));
    }
  if (modules)
    out = mods;
  else
    {
      g_hash_table_remove_all (seen);
      out = _graft_value_seq (t, VAL_LIST, 0);
      for (guint i = 0; i < mods->seq.items->len; i++)
        {
          Value *pair = mods->seq.items->pdata[i];
          Value *path = pair->seq.items->pdata[0];
          Value *mod = pair->seq.items->pdata[1];

          if (!own_tensors (t, mod->obj, buffers, path->str.s, seen, out, at))
            return NULL;
        }
    }
  if (!named)
    for (guint i = 0; i < out->seq.items->len; i++)
      out->seq.items->pdata[i] = ((Value *) out->seq.items->pdata[i])->seq.items->pdata[1];
  return out;
}

/* nn.Module.state_dict()'s entries of @mod and its submodules into @out:
 * each module's parameters, then its buffers, then its children's, their
 * names prefixed; a module reached twice is listed twice (no identity
 * check, as torch's recursion has none).  Each tensor is detached (a new
 * constant tensor, what `param.detach()` is), or itself with @keep_vars. */
static gboolean
state_dict_add (Tracer            *t,
                Value             *mod,
                const char        *prefix,
                gboolean           keep_vars,
                Value             *out,
                const GraftPyExpr *at)
{
  Object *obj = mod->obj;

  if (obj->non_persistent_buffers)
    {
      _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "state_dict() of a module with non-persistent buffers is not supported");
      return FALSE;
    }
  for (int buffers = 0; buffers < 2; buffers++)
    {
      Value *own = _graft_value_seq (t, VAL_LIST, 0);
      g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);

      if (!own_tensors (t, obj, buffers, "", seen, own, at))
        return FALSE;
      for (guint i = 0; i < own->seq.items->len; i++)
        {
          Value *pair = own->seq.items->pdata[i];
          Value *name = pair->seq.items->pdata[0];
          Value *v = pair->seq.items->pdata[1];
          Value *kept = v;

          if (!keep_vars)
            {
              kept = _graft_value_tensor (t);
              kept->tensor.meta = v->tensor.meta;
              if (kept->tensor.meta == NULL && v->kind == VAL_PARAMETER &&
                  v->tensor.data != NULL && _graft_value_is_tensor (v->tensor.data))
                kept->tensor.meta = v->tensor.data->tensor.meta;
            }
          _graft_dict_set (
              t, out,
              _graft_value_str (t, _graft_tracer_printf (t, "%s%s", prefix, name->str.s), -1),
              kept);
        }
    }
  for (guint i = 0; i < obj->modules.keys->len; i++)
    {
      Value *child = obj->modules.values->pdata[i];

      if (child->kind == VAL_OBJECT &&
          !state_dict_add (t, child,
                           _graft_tracer_printf (t, "%s%s.", prefix,
                                                 (const char *) obj->modules.keys->pdata[i]),
                           keep_vars, out, at))
        return FALSE;
    }
  return TRUE;
}

/* Python's TypeError of a method `QUALNAME(self)` given arguments
 * (positional ones first, as Python checks them).
 *
 * Returns: %FALSE with the error raised */
static gboolean
check_self_only (Tracer            *t,
                 const char        *qualname,
                 PtrVec            *args,
                 StrMap            *kwargs,
                 const GraftPyExpr *at)
{
  if (args != NULL && args->len > 0)
    {
      _graft_tracer_raise_text (t, "TypeError",
                                _graft_tracer_printf (t,
                                                      "%s() takes 1 positional argument but %u "
                                                      "were given",
                                                      qualname, args->len + 1),
                                at);
      return FALSE;
    }
  if (kwargs != NULL && kwargs->keys != NULL && kwargs->keys->len > 0)
    {
      _graft_tracer_raise_text (t, "TypeError",
                                _graft_tracer_printf (t,
                                                      "%s() got an unexpected keyword argument "
                                                      "'%s'",
                                                      qualname,
                                                      (const char *) kwargs->keys->pdata[0]),
                                at);
      return FALSE;
    }
  return TRUE;
}

/* `state_dict(prefix='', keep_vars=False)`: a dict (torch's OrderedDict)
 * of the module's tensors by path; `destination` and the deprecated
 * positional form are refused. */
static Value *
module_state_dict (Tracer            *t,
                   Value             *recv,
                   PtrVec            *args,
                   StrMap            *kwargs,
                   const GraftPyExpr *at)
{
  const char *prefix = "";
  gboolean    keep_vars = FALSE;
  Value      *out;

  if (_graft_tracer_n_args (args) > 0)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "state_dict() with positional arguments is not supported");
  for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
    {
      const char *key = kwargs->keys->pdata[i];
      Value      *v = kwargs->values->pdata[i];

      if (strcmp (key, "prefix") == 0 && v->kind == VAL_STR)
        prefix = v->str.s;
      else if (strcmp (key, "keep_vars") == 0 && v->kind == VAL_BOOL)
        keep_vars = v->b;
      else
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "state_dict(): this %s is not supported", key);
    }
  out = _graft_value_dict (t);
  if (!state_dict_add (t, recv, prefix, keep_vars, out, at))
    return NULL;
  return out;
}

static Value *
module_method (Tracer            *t,
               Value             *recv,
               const char        *name,
               PtrVec            *args,
               StrMap            *kwargs,
               const GraftPyExpr *at)
{
  Object *obj = recv->obj;
  Value  *v;

  /* The listings that take no argument: nn.Module's, and ModuleDict's
   * and ParameterDict's own (arguments were dropped, silently). */
  if ((strcmp (name, "children") == 0 || strcmp (name, "named_children") == 0) &&
      !check_self_only (t, _graft_tracer_printf (t, "Module.%s", name), args, kwargs, at))
    return NULL;
  if ((strcmp (name, "items") == 0 || strcmp (name, "keys") == 0 ||
       strcmp (name, "values") == 0) &&
      !check_self_only (t,
                        _graft_tracer_printf (t, "%s.%s",
                                              obj->kind == OBJ_PARAMETER_DICT ? "ParameterDict"
                                                                              : "ModuleDict",
                                              name),
                        args, kwargs, at))
    return NULL;

  if (strcmp (name, "register_buffer") == 0 || strcmp (name, "register_parameter") == 0 ||
      strcmp (name, "add_module") == 0 || strcmp (name, "register_module") == 0)
    {
      Value      *key = _graft_tracer_arg (args, 0);
      const char *kname;

      v = _graft_tracer_n_args (args) > 1 ? _graft_tracer_arg (args, 1)
                                          : _graft_strmap_get (kwargs, name[9] == 'b'   ? "tensor"
                                                                       : name[9] == 'p' ? "param"
                                                                                        : "module");
      if (key == NULL || key->kind != VAL_STR || v == NULL)
        return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                      "expected a name and a value");
      kname = _graft_tracer_strdup (t, key->str.s, key->str.len);
      /* Before nn.Module.__init__: its AttributeErrors (add_module() reads
       * the missing self._modules). */
      if (obj->before_init)
        {
          const char *message =
              name[9] == 'b'   ? "cannot assign buffer before Module.__init__() call"
              : name[9] == 'p' ? "cannot assign parameter before Module.__init__() call"
                               : _graft_tracer_printf (t, "'%s' object has no attribute '_modules'",
                                                       obj->class_name);

          _graft_tracer_raise (t, "AttributeError", at->start, at->end, "AttributeError: %s",
                               message);
          t->raised_args = _graft_value_seq (t, VAL_TUPLE, 1);
          _graft_value_seq_add (t->raised_args, _graft_value_str (t, message, -1));
          return NULL;
        }
      if (strcmp (name, "register_buffer") == 0)
        {
          Value *persistent = _graft_tracer_n_args (args) > 2
                                  ? _graft_tracer_arg (args, 2)
                                  : _graft_strmap_get (kwargs, "persistent");

          if (persistent != NULL && !(persistent->kind == VAL_BOOL && persistent->b))
            obj->non_persistent_buffers = TRUE;
          _graft_strmap_remove (&obj->attrs, kname);
          _graft_strmap_set (&obj->buffers, kname, v);
        }
      else if (strcmp (name, "register_parameter") == 0)
        {
          if (v->kind != VAL_PARAMETER && v->kind != VAL_NONE)
            return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                          "register_parameter() expects an nn.Parameter");
          if (v->kind == VAL_PARAMETER)
            _graft_strmap_set (&obj->params, kname, v);
          else
            {
              /* A parameter slot holding None reads as None (and is in no
               * named_parameters()): a plain attribute, until a
               * Parameter is assigned to it. */
              _graft_strmap_remove (&obj->params, kname);
              _graft_strmap_set (&obj->attrs, kname, v);
            }
        }
      else
        {
          if (v->kind != VAL_OBJECT || v->obj->kind == OBJ_PLAIN)
            return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                          "add_module() expects a module");
          _graft_strmap_set (&obj->modules, kname, v);
        }
      return _graft_value_none ();
    }
  if (strcmp (name, "append") == 0 || strcmp (name, "extend") == 0 || strcmp (name, "insert") == 0)
    {
      Value *items;

      if (obj->kind != OBJ_MODULE_LIST && obj->kind != OBJ_SEQUENTIAL &&
          obj->kind != OBJ_PARAMETER_LIST)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "AttributeError: '%s' object has no attribute '%s'",
                                   obj->class_name, name);
      if (strcmp (name, "insert") == 0)
        return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                      "inserting into a ModuleList is not supported");
      if (!_graft_tracer_check_arity (t, name, args, 1, 1, at))
        return NULL;
      if (name[0] == 'a')
        {
          items = _graft_value_seq (t, VAL_LIST, 1);
          _graft_value_seq_add (items, _graft_tracer_arg (args, 0));
        }
      else if ((items = _graft_tracer_iterate (t, _graft_tracer_arg (args, 0), at)) == NULL)
        return NULL;
      for (guint i = 0; i < items->seq.items->len; i++)
        {
          StrMap *map = obj->kind == OBJ_PARAMETER_LIST ? &obj->params : &obj->modules;
          Value  *item = items->seq.items->pdata[i];

          if (obj->kind == OBJ_PARAMETER_LIST
                  ? item->kind != VAL_PARAMETER
                  : (item->kind != VAL_OBJECT || item->obj->kind == OBJ_PLAIN))
            return _graft_tracer_fail_at (
                t, at, GRAFT_PARSE_ERROR_TRACE,
                "only modules (or parameters) can be added to this container");
          _graft_strmap_set (map, _graft_tracer_printf (t, "%u", map->keys->len), item);
        }
      return name[0] == 'a' && obj->kind != OBJ_PARAMETER_LIST ? recv : _graft_value_none ();
    }
  if (strncmp (name, "get_", 4) == 0)
    return module_get_by_target (t, recv, name, args, kwargs, at);
  if (strcmp (name, "state_dict") == 0)
    return module_state_dict (t, recv, args, kwargs, at);
  /* nn.Module's listings are generators. */
  if (strcmp (name, "children") == 0)
    return _graft_value_iter (t, list_of_pairs (t, &obj->modules, 1), NULL, "generator");
  if (strcmp (name, "modules") == 0 || strcmp (name, "parameters") == 0 ||
      strcmp (name, "buffers") == 0 || strcmp (name, "named_modules") == 0 ||
      strcmp (name, "named_parameters") == 0 || strcmp (name, "named_buffers") == 0)
    {
      Value *out = module_listing (t, recv, name, args, kwargs, at);

      return out != NULL ? _graft_value_iter (t, out, NULL, "generator") : NULL;
    }
  if (obj->kind == OBJ_PARAMETER_DICT &&
      (strcmp (name, "keys") == 0 || strcmp (name, "values") == 0 || strcmp (name, "items") == 0))
    {
      /* ParameterDict's values go through `self[key]`: while tracing,
       * the parameters' get_attr nodes. */
      Value *out = _graft_value_seq (t, VAL_LIST, 0);

      for (guint i = 0; i < obj->params.keys->len; i++)
        {
          Value *key = _graft_value_str (t, obj->params.keys->pdata[i], -1);
          Value *item = name[0] == 'k' ? key : _graft_tracer_index_object (t, recv, key, at);

          if (item == NULL)
            return NULL;
          _graft_value_seq_add (out, name[0] != 'i' ? item : pair_new (t, key, item));
        }
      return out;
    }
  if (strcmp (name, "named_children") == 0 || strcmp (name, "items") == 0)
    return list_of_pairs (t, &obj->modules, 2);
  if (strcmp (name, "keys") == 0)
    return list_of_pairs (t, &obj->modules, 0);
  if (strcmp (name, "values") == 0)
    return list_of_pairs (t, &obj->modules, 1);
  if (strcmp (name, "reset_parameters") == 0 || strcmp (name, "zero_grad") == 0 ||
      strcmp (name, "apply") == 0)
    return _graft_value_none ();
  /* eval(), train(), to(), cuda() and friends return the module itself. */
  return recv;
}

static Value *
str_method (Tracer            *t,
            Value             *recv,
            const char        *name,
            PtrVec            *args,
            StrMap            *kwargs,
            const GraftPyExpr *at)
{
  g_autofree char *s = g_strndup (recv->str.s, recv->str.len);

  if (strcmp (name, "upper") == 0 || strcmp (name, "lower") == 0)
    {
      g_autoptr (GString) out = g_string_new (NULL);

      /* A Python string may hold NUL: convert between them. */
      for (gsize at_byte = 0; at_byte <= recv->str.len;)
        {
          gsize            len = strnlen (recv->str.s + at_byte, recv->str.len - at_byte);
          g_autofree char *r = name[0] == 'u' ? g_utf8_strup (recv->str.s + at_byte, len)
                                              : g_utf8_strdown (recv->str.s + at_byte, len);

          g_string_append (out, r);
          at_byte += len + 1;
          if (at_byte <= recv->str.len)
            g_string_append_c (out, '\0');
        }
      return _graft_value_str (t, out->str, out->len);
    }
  if (strcmp (name, "strip") == 0)
    {
      gsize start = 0, end = recv->str.len;

      while (start < end && g_ascii_isspace (recv->str.s[start]))
        start++;
      while (end > start && g_ascii_isspace (recv->str.s[end - 1]))
        end--;
      return _graft_value_str (t, recv->str.s + start, end - start);
    }
  if (strcmp (name, "startswith") == 0 || strcmp (name, "endswith") == 0)
    {
      Value *p = _graft_tracer_arg (args, 0);

      if (p == NULL || p->kind != VAL_STR)
        return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE, "expected a string argument");
      return _graft_value_bool (name[0] == 's' ? g_str_has_prefix (s, p->str.s)
                                               : g_str_has_suffix (s, p->str.s));
    }
  if (strcmp (name, "isidentifier") == 0)
    {
      gboolean ok = *s != '\0' && (g_ascii_isalpha (*s) || *s == '_');

      for (const char *p = s; *p != '\0' && ok; p++)
        ok = g_ascii_isalnum (*p) || *p == '_';
      return _graft_value_bool (ok);
    }
  if (strcmp (name, "isdigit") == 0)
    {
      gboolean ok = *s != '\0';

      for (const char *p = s; *p != '\0' && ok; p++)
        ok = g_ascii_isdigit (*p);
      return _graft_value_bool (ok);
    }
  if (strcmp (name, "replace") == 0)
    {
      Value *a = _graft_tracer_arg (args, 0), *b = _graft_tracer_arg (args, 1);
      g_autoptr (GString) out = g_string_new (s);

      if (a == NULL || b == NULL || a->kind != VAL_STR || b->kind != VAL_STR || a->str.len == 0)
        return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                      "replace() expects two strings");
      g_string_replace (out, a->str.s, b->str.s, 0);
      return _graft_value_str (t, out->str, out->len);
    }
  if (strcmp (name, "split") == 0)
    {
      Value *sep = _graft_tracer_arg (args, 0);
      Value *out = _graft_value_seq (t, VAL_LIST, 0);
      g_auto (GStrv) parts = NULL;

      if (sep == NULL || sep->kind == VAL_NONE)
        {
          parts = g_strsplit_set (g_strstrip (s), " \t\n", -1);
          for (guint i = 0; parts[i] != NULL; i++)
            if (*parts[i] != '\0')
              _graft_value_seq_add (out, _graft_value_str (t, parts[i], -1));
          return out;
        }
      if (sep->kind != VAL_STR || sep->str.len == 0)
        return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                      "split() expects a non-empty separator");
      parts = g_strsplit (s, sep->str.s, -1);
      for (guint i = 0; parts[i] != NULL; i++)
        _graft_value_seq_add (out, _graft_value_str (t, parts[i], -1));
      return out;
    }
  if (strcmp (name, "join") == 0)
    {
      Value *items = _graft_tracer_n_args (args) > 0
                         ? _graft_tracer_iterate (t, _graft_tracer_arg (args, 0), at)
                         : NULL;
      g_autoptr (GString) out = g_string_new (NULL);

      if (items == NULL)
        return t->error != NULL ? NULL
                                : _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                                         "join() expects an iterable");
      for (guint i = 0; i < items->seq.items->len; i++)
        {
          Value *item = items->seq.items->pdata[i];

          if (item->kind != VAL_STR)
            return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE, "join() expects strings");
          if (i > 0)
            g_string_append_len (out, recv->str.s, recv->str.len);
          g_string_append_len (out, item->str.s, item->str.len);
        }
      return _graft_value_str (t, out->str, out->len);
    }
  if (strcmp (name, "format") == 0)
    {
      /* `{}` and `{0}` fields with values converted by str(). */
      g_autoptr (GString) out = g_string_new (NULL);
      guint next = 0;

      for (const char *p = s; *p != '\0'; p++)
        {
          if (p[0] == '{' && p[1] == '{')
            {
              g_string_append_c (out, '{');
              p++;
              continue;
            }
          if (p[0] == '}' && p[1] == '}')
            {
              g_string_append_c (out, '}');
              p++;
              continue;
            }
          if (*p == '{')
            {
              const char *close = strchr (p, '}');
              const char *field;
              Value      *v = NULL;

              if (close == NULL)
                return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                              "ValueError: Single '{' encountered in format "
                                              "string");
              /* An arena string: a map's lookups remember a key by its
               * address, which a freed one's successor may take
               * (`'{b}{a}'.format(a=1, b=2)` was '22'). */
              field = _graft_tracer_strdup (t, p + 1, close - p - 1);
              if (*field == '\0')
                v = _graft_tracer_opt_arg (args, next++);
              else if (g_ascii_isdigit (*field))
                v = _graft_tracer_opt_arg (args, (guint) atoi (field));
              else
                v = _graft_strmap_get (kwargs, field);
              if (v == NULL)
                return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                              "format() is missing a value for a field");
              if (_graft_value_holds_proxy (v))
                return _graft_tracer_proxy_needs_value (t, "formatting a string", at);
              if (!_graft_tracer_check_printable (t, v, "formatting", at))
                return NULL;
              _graft_value_append_str (out, v, FALSE);
              p = close;
              continue;
            }
          g_string_append_c (out, *p);
        }
      return _graft_value_str (t, out->str, out->len);
    }
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "str.%s() is not supported", name);
}

static gboolean
args_hold_proxy (PtrVec *args,
                 StrMap *kwargs)
{
  for (guint i = 0; args != NULL && i < args->len; i++)
    if (_graft_value_holds_proxy (args->pdata[i]))
      return TRUE;
  for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
    if (_graft_value_holds_proxy (kwargs->values->pdata[i]))
      return TRUE;
  return FALSE;
}

/* A method of a constant tensor (a buffer, say) given a traced value: the
 * argument parser hands a Proxy to its __torch_function__ where the method
 * takes a Tensor, and torch.fx records the call_method; elsewhere (an int
 * of view(), a size of expand()) it is torch's TypeError.  Graft knows the
 * methods below, whose first argument (and masked_fill's second) may be a
 * Tensor; others are refused rather than guessed. */
static Value *
tensor_method_traced (Tracer            *t,
                      Value             *recv,
                      const char        *name,
                      PtrVec            *args,
                      StrMap            *kwargs,
                      const GraftPyExpr *at)
{
  static const char *const tensor_first[] = {
    "add", "sub", "mul", "div", "matmul", "type_as", "expand_as",
    "view_as", "reshape_as", "masked_fill", "to", "eq", "ne", "lt", "le", "gt", "ge",
    "maximum", "minimum", "add_", "sub_", "mul_", "div_", "masked_fill_", "copy_", NULL
  };
  /* The names of those arguments, given by keyword (`b.add(other=x)`):
   * Tensor.copy_'s and to()'s are not these. */
  static const char *const masked_names[] = { "mask", "value", NULL };
  static const char *const other_names[] = { "other", NULL };
  guint                    n = args != NULL ? args->len : 0;
  guint                    tensor_args =
      strcmp (name, "masked_fill") == 0 || strcmp (name, "masked_fill_") == 0 ? 2 : 1;
  const char *const *names = tensor_args == 2 ? masked_names : other_names;
  PtrVec            *all;
  gboolean           keywords_ok = TRUE;

  for (guint i = 0; i < n; i++)
    if (_graft_value_holds_proxy (args->pdata[i]) &&
        (i >= tensor_args || !_graft_value_is_proxy (args->pdata[i])))
      tensor_args = 0;
  for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
    {
      const char *key = kwargs->keys->pdata[i];
      guint       pos = 0;

      if (!_graft_value_holds_proxy (kwargs->values->pdata[i]))
        continue;
      while (names[pos] != NULL && strcmp (names[pos], key) != 0)
        pos++;
      /* A Tensor parameter not given by position too (torch's TypeError). */
      if (names[pos] == NULL || pos < n || !_graft_value_is_proxy (kwargs->values->pdata[i]) ||
          strcmp (name, "copy_") == 0 || strcmp (name, "to") == 0)
        keywords_ok = FALSE;
    }
  if (!g_strv_contains (tensor_first, name) || tensor_args == 0 || !keywords_ok)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "%s() of a constant tensor with a traced value: Graft does not "
                               "know if torch records it or fails",
                               name);
  all = _graft_tracer_vec (t);
  _graft_vec_add (all, recv);
  for (guint i = 0; i < n; i++)
    _graft_vec_add (all, args->pdata[i]);
  return _graft_tracer_make_node (t, GRAFT_OP_CALL_METHOD, name, all, kwargs, NULL, at);
}

/* size(), size(dim), dim() and numel() of a constant tensor whose shape
 * a factory gave (_graft_tracer_factory_tensor()). */
static Value *
tensor_size_method (Tracer            *t,
                    Value             *recv,
                    const char        *name,
                    PtrVec            *args,
                    StrMap            *kwargs,
                    const GraftPyExpr *at)
{
  Value *shape = recv->tensor.meta->shape;
  guint  rank = shape->seq.items->len;
  guint  n = args != NULL ? args->len : 0;
  guint  n_kw = kwargs != NULL ? kwargs->keys->len : 0;
  Value *dim = n > 0 ? args->pdata[0] : kwargs != NULL ? _graft_strmap_get (kwargs, "dim")
                                                       : NULL;
  gint64 product = 1;

  if (strcmp (name, "size") != 0)
    {
      if (n > 0 || (kwargs != NULL && kwargs->keys->len > 0))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: %s() takes no arguments (%u given)", name, n);
      if (strcmp (name, "dim") == 0)
        return _graft_value_int (t, rank);
      for (guint i = 0; i < rank; i++)
        product *= ((Value *) shape->seq.items->pdata[i])->i;
      return _graft_value_int (t, product);
    }
  /* A keyword but `dim` alone (size(foo=1), size(0, dim=1)) is torch's
   * TypeError of an invalid combination: refused, not ignored. */
  if (n_kw > 1 || (n_kw == 1 && (n > 0 || dim == NULL)))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "size() of a constant tensor takes one int here");
  if (dim == NULL || dim->kind == VAL_NONE)
    return shape;
  if (dim->kind != VAL_INT || n > 1)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "size() of a constant tensor takes one int here");
  if (rank == 0)
    return _graft_tracer_raise (t, "IndexError", at->start, at->end,
                                "IndexError: Dimension specified as %" G_GINT64_FORMAT
                                " but tensor has no dimensions",
                                dim->i);
  if (dim->i < -(gint64) rank || dim->i >= (gint64) rank)
    return _graft_tracer_raise (t, "IndexError", at->start, at->end,
                                "IndexError: Dimension out of range (expected to be in range of "
                                "[%d, %d], but got %" G_GINT64_FORMAT ")",
                                -(int) rank, (int) rank - 1, dim->i);
  return shape->seq.items->pdata[dim->i < 0 ? dim->i + rank : dim->i];
}

/* Whether Tensor's method @name returns something other than a tensor
 * (a bool, an int, a str, a list, a storage), which comes from the data
 * or metadata of a constant tensor: `t.is_floating_point()`, `t.stride()`,
 * `t.type()` (a str; `t.type(torch.half)` is a tensor). */
static gboolean
tensor_method_not_tensor (const char   *name,
                          const PtrVec *args,
                          StrMap       *kwargs)
{
  static const char *const names[] = {
    "size", "dim", "item", "tolist", "numel", "nelement", "ndimension", "element_size",
    "stride", "storage_offset", "data_ptr", "get_device", "dense_dim", "sparse_dim", "equal",
    "allclose", "has_names", "numpy", "storage", "untyped_storage", "dim_order", "__len__",
    "__bool__", "__int__", "__float__", "__index__", "__complex__", "__repr__", "__str__",
    "__format__", "__hash__", "__contains__", "__iter__", "__array__", "__dlpack__",
    "__dlpack_device__", "__reduce_ex__", "__sizeof__", NULL
  };

  if (g_str_has_prefix (name, "is_") || g_strv_contains (names, name))
    return TRUE;
  return strcmp (name, "type") == 0 && (args == NULL || args->len == 0) &&
         (kwargs == NULL || kwargs->keys->len == 0);
}
/* Whether @v is None, a bool, an int, a float or a str: `==` between
 * such values is Graft's _graft_value_equal(). */
static gboolean
python_scalar (const Value *v)
{
  return v->kind == VAL_NONE || v->kind == VAL_BOOL || v->kind == VAL_INT ||
         v->kind == VAL_FLOAT || v->kind == VAL_STR || _graft_value_is_bigint (v);
}

/* `seq.index(arg)` that found nothing: Python's ValueError where Graft
 * compared as Python does (@scalars: every item a python_scalar(); a
 * traced value searched in an empty sequence), else Graft's words. */
static Value *
not_in_sequence (Tracer            *t,
                 Value             *seq,
                 Value             *arg,
                 gboolean           scalars,
                 const GraftPyExpr *at)
{
  GString *text;

  if (seq->kind == VAL_TUPLE && (scalars || _graft_value_is_proxy (arg)))
    return _graft_tracer_raise_text (t, "ValueError", "tuple.index(x): x not in tuple", at);
  if (seq->kind != VAL_LIST || seq->seq.range != NULL ||
      !(scalars && (python_scalar (arg) || _graft_value_is_proxy (arg))))
    return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                  "the value is not in the sequence");
  text = g_string_new (NULL);
  if (_graft_value_is_proxy (arg))
    {
      if (!_graft_tracer_append_proxy_repr (t, text, arg))
        {
          g_string_free (text, TRUE);
          return NULL;
        }
    }
  else
    _graft_value_append_str (text, arg, TRUE);
  g_string_append (text, " is not in list");
  _graft_tracer_raise_text (t, "ValueError", text->str, at);
  g_string_free (text, TRUE);
  return NULL;
}

/**
 * _graft_tracer_call_method:
 *
 * Calls a method of a constant value or a module.
 */
Value *
_graft_tracer_call_method (Tracer            *t,
                           Value             *recv,
                           const char        *name,
                           PtrVec            *args,
                           StrMap            *kwargs,
                           const GraftPyExpr *at)
{
  Value *v, *items;

  /* nn.Module.__init__ reached by super(): the module gets its dicts.
   * torch 1.13.1's takes no argument (Python's TypeError); torch 2.6's
   * takes *args and **kwargs and raises its own, naming the class. */
  if (strcmp (name, "__graft_module_init__") == 0)
    {
      const char *qualname = t->dialect->torch == GRAFT_TORCH_1_13
                                 ? "Module.__init__"
                                 : _graft_tracer_printf (t, "%s.__init__", recv->obj->class_name);

      if (kwargs != NULL && kwargs->keys->len > 0)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: %s() got an unexpected keyword argument '%s'",
                                   qualname, (const char *) kwargs->keys->pdata[0]);
      if (args != NULL && args->len > 0)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: %s() takes 1 positional argument but %u were given",
                                   qualname, args->len + 1);
      recv->obj->before_init = FALSE;
      return _graft_value_none ();
    }
  /* An OpOverload's name() (the only method of one Graft models). */
  if (recv->kind == VAL_PATH_FN && strcmp (name, "name") == 0 &&
      g_str_has_prefix (recv->path, "torch.ops."))
    {
      if (kwargs != NULL && kwargs->keys->len > 0)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: OpOverload.name() got an unexpected keyword "
                                   "argument '%s'",
                                   (const char *) kwargs->keys->pdata[0]);
      if (!_graft_tracer_check_arity (t, name, args, 0, 0, at))
        return NULL;
      return _graft_value_str (t, _graft_tracer_op_overload_name (t, recv->path), -1);
    }
  /* A packet's overloads(), of the packets table of the tracer's torch. */
  if (recv->kind == VAL_PATH_FN && strcmp (name, "overloads") == 0 &&
      g_str_has_prefix (recv->path, "torch.ops.aten."))
    {
      const char *op = recv->path + strlen ("torch.ops.aten.");
      OpPacket    packet;

      if (kwargs != NULL && kwargs->keys->len > 0)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: OpOverloadPacket.overloads() got an unexpected "
                                   "keyword argument '%s'",
                                   (const char *) kwargs->keys->pdata[0]);
      if (!_graft_tracer_check_arity (t, name, args, 0, 0, at))
        return NULL;
      if (_graft_tracer_op_packet_find (t, op, strlen (op), &packet))
        return _graft_tracer_op_overloads (t, &packet);
    }
  if (recv->kind == VAL_SET)
    return _graft_tracer_set_method (t, recv, name, args, kwargs, at);
  /* torch.Size.numel(): the product of the sizes, wrapping as int64_t
   * does in torch (2**40 * 2**40 is 0). */
  if (recv->kind == VAL_TUPLE && recv->seq.size && strcmp (name, "numel") == 0)
    {
      guint64 numel = 1;

      if (kwargs != NULL && kwargs->keys->len > 0)
        return _graft_tracer_raise_text (t, "TypeError", "Size.numel() takes no keyword arguments",
                                         at);
      if (args != NULL && args->len > 0)
        return _graft_tracer_raise_text (
            t, "TypeError",
            _graft_tracer_printf (t, "Size.numel() takes no arguments (%u given)", args->len), at);
      for (guint i = 0; i < recv->seq.items->len; i++)
        {
          const Value *d = recv->seq.items->pdata[i];

          if (d->kind != VAL_INT)
            return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                       "numel() of a torch.Size holding a %s is not modelled by "
                                       "Graft's tracer",
                                       _graft_value_type_name (d));
          numel *= (guint64) d->i;
        }
      return _graft_value_int (t, (gint64) numel);
    }
  /* Only dict.update() and str.format() read keywords here: any other is
   * refused, never dropped (`s.split(",", maxsplit=1)`). */
  if ((_graft_value_is_seq (recv) || recv->kind == VAL_DICT || recv->kind == VAL_STR) &&
      kwargs != NULL && kwargs->keys->len > 0 &&
      !(recv->kind == VAL_DICT && strcmp (name, "update") == 0) &&
      !(recv->kind == VAL_STR && strcmp (name, "format") == 0))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "the keyword argument '%s' of %s.%s() is not modelled by Graft's "
                               "tracer",
                               (const char *) kwargs->keys->pdata[0],
                               _graft_value_type_name (recv), name);
  if (recv->kind == VAL_LIST)
    {
      if (strcmp (name, "append") == 0)
        {
          if (!_graft_tracer_check_arity (t, name, args, 1, 1, at))
            return NULL;
          _graft_value_seq_add (recv, _graft_tracer_arg (args, 0));
          return _graft_value_none ();
        }
      if (strcmp (name, "extend") == 0)
        {
          if (!_graft_tracer_check_arity (t, name, args, 1, 1, at) ||
              (items = _graft_tracer_iterate (t, _graft_tracer_arg (args, 0), at)) == NULL)
            return NULL;
          for (guint i = 0; i < items->seq.items->len; i++)
            _graft_value_seq_add (recv, items->seq.items->pdata[i]);
          return _graft_value_none ();
        }
      if (strcmp (name, "insert") == 0)
        {
          gint64 i;

          if (!_graft_tracer_check_arity (t, name, args, 2, 2, at) ||
              !_graft_tracer_get_int (t, _graft_tracer_arg (args, 0), &i, at))
            return NULL;
          if (i < 0)
            i = MAX (0, i + (gint64) recv->seq.items->len);
          _graft_vec_insert (recv->seq.items, (gint) MIN (i, (gint64) recv->seq.items->len),
                             _graft_tracer_arg (args, 1));
          return _graft_value_none ();
        }
      if (strcmp (name, "pop") == 0)
        {
          gint64 i = -1;

          if (_graft_tracer_n_args (args) == 1 &&
              !_graft_tracer_get_int (t, _graft_tracer_arg (args, 0), &i, at))
            return NULL;
          if (i < 0)
            i += recv->seq.items->len;
          if (i < 0 || i >= (gint64) recv->seq.items->len)
            return _graft_tracer_raise (t, "IndexError", at->start, at->end,
                                        "pop index out of range");
          return _graft_vec_remove_index (recv->seq.items, (guint) i);
        }
      if (strcmp (name, "copy") == 0)
        return _graft_tracer_iterate (t, recv, at);
      if (strcmp (name, "reverse") == 0)
        {
          guint n = recv->seq.items->len;

          for (guint i = 0; i < n / 2; i++)
            {
              gpointer tmp = recv->seq.items->pdata[i];

              recv->seq.items->pdata[i] = recv->seq.items->pdata[n - 1 - i];
              recv->seq.items->pdata[n - 1 - i] = tmp;
            }
          return _graft_value_none ();
        }
      if (strcmp (name, "clear") == 0)
        {
          _graft_vec_set_size (recv->seq.items, 0);
          return _graft_value_none ();
        }
    }
  /* A list has a tuple's methods too. */
  if (_graft_value_is_seq (recv))
    {
      if (strcmp (name, "index") == 0 || strcmp (name, "count") == 0)
        {
          gint64 count = 0;

          Value   *arg;
          gboolean scalars = TRUE;

          if (!_graft_tracer_check_arity (t, name, args, 1, 1, at))
            return NULL;
          arg = _graft_tracer_arg (args, 0);
          for (guint i = 0; i < recv->seq.items->len; i++)
            {
              Value *item = recv->seq.items->pdata[i];

              /* Python compares each item with `is`, then `==`: with a
               * traced value, `==` is a Proxy whose truth tracing lacks. */
              if (item != arg &&
                  (_graft_value_holds_proxy (item) || _graft_value_holds_proxy (arg)))
                return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                           "%s.%s() compares a traced value, which needs its "
                                           "truth value %s",
                                           _graft_value_type_name (recv), name,
                                           _graft_tracer_control_flow_reason);
              scalars = scalars && python_scalar (item);
              if (_graft_value_equal (item, arg))
                {
                  if (name[0] == 'i')
                    return _graft_value_int (t, i);
                  count++;
                }
            }
          if (name[0] == 'i')
            return not_in_sequence (t, recv, arg, scalars, at);
          return _graft_value_int (t, count);
        }
    }
  if (recv->kind == VAL_DICT)
    {
      if (strcmp (name, "items") == 0 || strcmp (name, "keys") == 0 || strcmp (name, "values") == 0)
        {
          Value *out = _graft_value_seq (t, VAL_LIST, 0);

          for (guint i = 0; i < recv->dict.keys->len; i++)
            {
              if (name[0] == 'k')
                _graft_value_seq_add (out, recv->dict.keys->pdata[i]);
              else if (name[0] == 'v')
                _graft_value_seq_add (out, recv->dict.values->pdata[i]);
              else
                {
                  Value *pair = _graft_value_seq (t, VAL_TUPLE, 2);

                  _graft_value_seq_add (pair, recv->dict.keys->pdata[i]);
                  _graft_value_seq_add (pair, recv->dict.values->pdata[i]);
                  _graft_value_seq_add (out, pair);
                }
            }
          return out;
        }
      if (strcmp (name, "get") == 0 || strcmp (name, "pop") == 0 ||
          strcmp (name, "setdefault") == 0)
        {
          if (!_graft_tracer_check_arity (t, name, args, 1, 2, at))
            return NULL;
          v = _graft_dict_get (recv, _graft_tracer_arg (args, 0));
          if (v == NULL)
            {
              v = _graft_tracer_n_args (args) == 2 ? _graft_tracer_arg (args, 1)
                                                   : _graft_value_none ();
              if (name[0] == 's')
                _graft_dict_set (t, recv, _graft_tracer_arg (args, 0), v);
              return v;
            }
          if (name[0] == 'p')
            for (guint i = 0; i < recv->dict.keys->len; i++)
              if (_graft_value_equal (recv->dict.keys->pdata[i], _graft_tracer_arg (args, 0)))
                {
                  _graft_vec_remove_index (recv->dict.keys, i);
                  _graft_vec_remove_index (recv->dict.values, i);
                  break;
                }
          return v;
        }
      if (strcmp (name, "update") == 0)
        {
          Value *other = _graft_tracer_arg (args, 0);

          if (other != NULL && !_graft_tracer_dict_update (t, recv, other, at))
            return NULL;
          for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
            _graft_dict_set (t, recv, _graft_value_str (t, kwargs->keys->pdata[i], -1),
                             kwargs->values->pdata[i]);
          return _graft_value_none ();
        }
      if (strcmp (name, "copy") == 0)
        {
          Value *out = _graft_value_dict (t);

          for (guint i = 0; i < recv->dict.keys->len; i++)
            _graft_dict_set (t, out, recv->dict.keys->pdata[i], recv->dict.values->pdata[i]);
          return out;
        }
    }
  if (recv->kind == VAL_STR)
    return str_method (t, recv, name, args, kwargs, at);
  if (recv->kind == VAL_OBJECT && recv->obj->kind != OBJ_PLAIN)
    return module_method (t, recv, name, args, kwargs, at);
  if (_graft_value_is_tensor (recv))
    {
      int      op;
      gboolean reflected;

      /* Methods of constant tensors run eagerly.  In-place ones return the
       * tensor itself; the rest make a new constant tensor.  Methods whose
       * result is not a tensor need the data Graft does not have. */
      if (args_hold_proxy (args, kwargs))
        return tensor_method_traced (t, recv, name, args, kwargs, at);
      if (recv->tensor.meta != NULL &&
          (strcmp (name, "size") == 0 || strcmp (name, "dim") == 0 || strcmp (name, "numel") == 0))
        return tensor_size_method (t, recv, name, args, kwargs, at);
      if ((strcmp (name, "is_contiguous") == 0 || strcmp (name, "stride") == 0) &&
          (v = _graft_tracer_tensor_layout_method (t, recv, name, args, kwargs)) != NULL)
        return v;
      if (tensor_method_not_tensor (name, args, kwargs))
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "%s() of a constant tensor depends on its data, which Graft "
                                   "does not compute",
                                   name);
      if (g_str_has_suffix (name, "_") && !_graft_tensor_magic_op (name, &op, &reflected))
        return _graft_tracer_tensor_inplace_method (t, recv, name, args, kwargs, at) ? recv
                                                                                     : NULL;
      return _graft_tracer_tensor_method_result (t, recv, name, args, kwargs, at);
    }
  if (recv->kind == VAL_BUILTIN && strcmp (recv->path, "float") == 0 &&
      strcmp (name, "fromhex") == 0)
    return float_fromhex (t, args, at);
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "'%s' object has no method '%s' that Graft models",
                             _graft_value_type_name (recv), name);
}
