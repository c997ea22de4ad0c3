/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-dataclass.c: `@dataclass` classes of the file, the configs
 * real models are built from (`@dataclass class GPTConfig: n_embd: int =
 * 768`).
 *
 * What the decorator makes is modelled as Python's dataclasses module
 * makes it: the fields are the class body's annotated names in order
 * (those of dataclass bases first, a redefined one keeping its place),
 * but `ClassVar` ones; a field's default is the value the body gives it,
 * or `field(default=...)` / `field(default_factory=...)` (a mutable
 * default is Python's ValueError); `__init__` takes the fields in order,
 * positionally or by name, sets them, then calls `__post_init__()`; the
 * repr is `Name(a=1, b='x')` and `==` compares the fields, unless the
 * class defines its own.  `@dataclass(...)` takes `init`, `repr`, `eq` and
 * `frozen` as constants (assigning to a frozen instance is
 * FrozenInstanceError).  An InitVar (`s: InitVar[int] = 3`) is no field
 * but a parameter of `__init__` in the fields' order, handed to
 * `__post_init__`; its default stays a class attribute.  Keyword-only
 * parameters (`@dataclass(kw_only=True)`, `_: KW_ONLY`,
 * `field(kw_only=...)`) come after the positional ones.  `field(init=False)`
 * is no parameter (its default or factory's value is set), `repr=False`
 * leaves the repr, `compare=False` `==`.  `asdict()`, `astuple()` and
 * `replace()` are Python's, for instances whose fields hold constants
 * (numbers, strings, None, constant tensors, containers and dataclasses
 * of them; a traced value or another object is refused); `fields()` is
 * not.
 */
#include "config.h"

#include "graft-tracer-private.h"
#include "graft-error.h"

#include <math.h>
#include <string.h>

struct _DataclassField
{
  const char *name;
  Value      *value;    /* the default, or NULL */
  Value      *factory;  /* the default_factory, or NULL */
  gboolean    init_var; /* an InitVar: a parameter of __init__ and __post_init__ */
  gboolean    kw_only;  /* a keyword-only parameter of __init__ */
  /* field(init=False): no parameter of __init__, which sets its default
   * (or its factory's value) if it has one; repr=False: not in the repr;
   * compare=False: not compared by `==`. */
  gboolean no_init, no_repr, no_compare;
};

#define FIELD_CLASS "dataclasses.Field"

/* Whether @v is what `dataclasses.field(...)` made. */
static gboolean
is_field (const Value *v)
{
  return v->kind == VAL_OBJECT && v->obj->cls == NULL && v->obj->kind == OBJ_PLAIN &&
         strcmp (v->obj->class_name, FIELD_CLASS) == 0;
}

/**
 * _graft_tracer_dataclass_field:
 *
 * `dataclasses.field(default=..., default_factory=..., kw_only=..., init=...,
 * repr=..., compare=..., hash=..., metadata=...)` (the last two change
 * nothing Graft models).
 *
 * Returns: (nullable): a Field, for the class body
 */
Value *
_graft_tracer_dataclass_field (Tracer            *t,
                               PtrVec            *args,
                               StrMap            *kwargs,
                               const GraftPyExpr *at)
{
  Value *v;

  if (args != NULL && args->len > 0)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "TypeError: field() takes 0 positional arguments but %u were given",
                               args->len);
  v = _graft_tracer_new_object (t, OBJ_PLAIN, FIELD_CLASS);
  for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
    {
      const char *key = kwargs->keys->pdata[i];

      if (strcmp (key, "default") != 0 && strcmp (key, "default_factory") != 0 &&
          strcmp (key, "kw_only") != 0 && strcmp (key, "init") != 0 && strcmp (key, "repr") != 0 &&
          strcmp (key, "compare") != 0 && strcmp (key, "hash") != 0 &&
          strcmp (key, "metadata") != 0)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "field(%s=...) is not modelled by Graft's tracer", key);
      _graft_strmap_set (&v->obj->attrs, key, kwargs->values->pdata[i]);
    }
  if (_graft_strmap_get (&v->obj->attrs, "default") != NULL &&
      _graft_strmap_get (&v->obj->attrs, "default_factory") != NULL)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "ValueError: cannot specify both default and default_factory");
  return v;
}

/* Whether an annotation names @what (`ClassVar[int]`, `typing.ClassVar`). */
static gboolean
annotation_is (const GraftPyExpr *annotation,
               const char        *what)
{
  const GraftPyExpr *e = annotation;

  if (e->kind == GRAFT_PY_EXPR_SUBSCRIPT)
    e = e->subscript.value;
  if (e->kind == GRAFT_PY_EXPR_NAME)
    return strcmp (e->name.id, what) == 0;
  if (e->kind == GRAFT_PY_EXPR_ATTRIBUTE)
    return strcmp (e->attribute.attr, what) == 0;
  return FALSE;
}

static gboolean
is_class_var (const GraftPyExpr *annotation)
{
  return annotation_is (annotation, "ClassVar");
}

/* Whether field(@key=...) of @field says False (@out set), as Python's
 * truth of it; FALSE with the tracer's error. */
static gboolean
flag_off (Tracer            *t,
          Value             *field,
          const char        *key,
          const GraftPyExpr *at,
          gboolean          *out)
{
  Value   *v = _graft_strmap_get (&field->obj->attrs, key);
  gboolean b = TRUE;

  if (v != NULL && !_graft_tracer_truth (t, v, at, &b))
    return FALSE;
  *out = !b;
  return TRUE;
}

/* The decorator's keyword arguments: `init`, `repr`, `eq`, `frozen`,
 * `kw_only`. */
static gboolean
read_options (Tracer            *t,
              Frame             *frame,
              Class             *cls,
              const GraftPyExpr *call,
              gboolean          *init,
              gboolean          *kw_only)
{
  for (guint i = 0; i < call->call.n_keywords; i++)
    {
      const GraftPyKeyword *kw = call->call.keywords[i];
      Value                *v;
      gboolean              b;

      if (kw->name == NULL || (strcmp (kw->name, "init") != 0 && strcmp (kw->name, "repr") != 0 &&
                               strcmp (kw->name, "eq") != 0 && strcmp (kw->name, "frozen") != 0 &&
                               strcmp (kw->name, "kw_only") != 0))
        {
          _graft_tracer_fail (t, kw->start, kw->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                              "this argument of @dataclass is not modelled by Graft's tracer");
          return FALSE;
        }
      v = _graft_tracer_eval (t, frame, kw->value);
      if (v == NULL || !_graft_tracer_truth (t, v, kw->value, &b))
        return FALSE;
      if (strcmp (kw->name, "init") == 0)
        *init = b;
      else if (strcmp (kw->name, "repr") == 0)
        cls->dc_repr = b;
      else if (strcmp (kw->name, "eq") == 0)
        cls->dc_eq = b;
      else if (strcmp (kw->name, "kw_only") == 0)
        *kw_only = b;
      else
        cls->dc_frozen = b;
    }
  if (call->call.args.len > 0)
    {
      _graft_tracer_fail_at (t, call, GRAFT_PARSE_ERROR_TRACE,
                             "TypeError: dataclass() takes 1 positional argument");
      return FALSE;
    }
  return TRUE;
}

/**
 * _graft_tracer_dataclass_decorator:
 * @decorator: a class decorator
 *
 * Returns: whether @decorator is `dataclass` or `dataclass(...)`
 * (`dataclasses.dataclass` too); %FALSE with the tracer's error if
 * evaluating it failed
 */
gboolean
_graft_tracer_dataclass_decorator (Tracer            *t,
                                   Frame             *frame,
                                   const GraftPyExpr *decorator)
{
  const GraftPyExpr *fn = decorator->kind == GRAFT_PY_EXPR_CALL ? decorator->call.func : decorator;
  Value             *v = _graft_tracer_eval (t, frame, fn);

  return v != NULL && v->kind == VAL_PATH_FN && strcmp (v->path, "dataclasses.dataclass") == 0;
}

/**
 * _graft_tracer_dataclass_apply:
 * @decorator: the class's decorator (_graft_tracer_dataclass_decorator())
 *
 * Makes @cls, whose body has run, a dataclass: its fields, and the
 * `__init__` its instances are made by unless it has its own.
 *
 * Returns: %FALSE with the tracer's error
 */
gboolean
_graft_tracer_dataclass_apply (Tracer            *t,
                               Frame             *frame,
                               Class             *cls,
                               const GraftPyExpr *decorator)
{
  gboolean    init = TRUE;
  gboolean    kw_only = FALSE;                /* @dataclass(kw_only=...), then `_: KW_ONLY` */
  const char *kw_only_marker = NULL;          /* the name of `_: KW_ONLY` */
  PtrVec     *fields = _graft_tracer_vec (t); /* the parameters of __init__ */

  cls->dc_repr = TRUE;
  cls->dc_eq = TRUE;
  if (decorator->kind == GRAFT_PY_EXPR_CALL &&
      !read_options (t, frame, cls, decorator, &init, &kw_only))
    return FALSE;
  /* The bases' fields first, the nearest base's last (Python walks the MRO
   * backwards; one dataclass base is what model code has). */
  for (guint i = cls->bases->len; i > 0; i--)
    {
      Value *base = cls->bases->pdata[i - 1];

      if (base->kind != VAL_CLASS || base->cls->dc_fields == NULL)
        continue;
      if (base->cls->dc_frozen != cls->dc_frozen)
        {
          _graft_tracer_fail_at (t, decorator, GRAFT_PARSE_ERROR_TRACE,
                                 cls->dc_frozen ? "TypeError: cannot inherit frozen dataclass "
                                                  "from a non-frozen one"
                                                : "TypeError: cannot inherit non-frozen dataclass "
                                                  "from a frozen one");
          return FALSE;
        }
      for (guint k = 0; k < base->cls->dc_params->len; k++)
        _graft_vec_add (fields, base->cls->dc_params->pdata[k]);
    }
  for (guint i = 0; i < cls->stmt->class_def.body.len; i++)
    {
      const GraftPyStmt *s = cls->stmt->class_def.body.items[i];
      DataclassField    *f;
      const char        *name;
      Value             *dflt;
      guint              k;

      if (s->kind != GRAFT_PY_STMT_ANN_ASSIGN || s->ann_assign.target->kind != GRAFT_PY_EXPR_NAME ||
          is_class_var (s->ann_assign.annotation))
        continue;
      name = s->ann_assign.target->name.id;
      /* `_: KW_ONLY` is no field: the fields after it are keyword-only. */
      if (annotation_is (s->ann_assign.annotation, "KW_ONLY"))
        {
          if (kw_only_marker != NULL)
            {
              _graft_tracer_fail_at (t, decorator, GRAFT_PARSE_ERROR_TRACE,
                                     _graft_tracer_printf (t,
                                                           "TypeError: '%s' is KW_ONLY, but "
                                                           "KW_ONLY has already been specified",
                                                           name));
              return FALSE;
            }
          kw_only_marker = name;
          kw_only = TRUE;
          continue;
        }
      f = _graft_tracer_alloc (t, sizeof (DataclassField));
      /* An InitVar is no field but a parameter of __init__ and
       * __post_init__ (bare `InitVar` too, as Python 3.11 and 3.13 take
       * it). */
      *f = (DataclassField){ .name = name,
                             .init_var = annotation_is (s->ann_assign.annotation, "InitVar"),
                             .kw_only = kw_only };
      dflt = s->ann_assign.value != NULL ? _graft_strmap_get (&cls->ns, name) : NULL;
      if (dflt != NULL && is_field (dflt))
        {
          f->value = _graft_strmap_get (&dflt->obj->attrs, "default");
          Value *kw = _graft_strmap_get (&dflt->obj->attrs, "kw_only");

          f->factory = _graft_strmap_get (&dflt->obj->attrs, "default_factory");
          if (kw != NULL && !_graft_tracer_truth (t, kw, s->ann_assign.value, &f->kw_only))
            return FALSE;
          if (!flag_off (t, dflt, "init", s->ann_assign.value, &f->no_init) ||
              !flag_off (t, dflt, "repr", s->ann_assign.value, &f->no_repr) ||
              !flag_off (t, dflt, "compare", s->ann_assign.value, &f->no_compare))
            return FALSE;
          /* The class attribute is the default, or none. */
          if (f->value != NULL)
            _graft_strmap_set (&cls->ns, name, f->value);
          else
            _graft_strmap_remove (&cls->ns, name);
        }
      else
        f->value = dflt;
      if (f->init_var && f->factory != NULL)
        {
          _graft_tracer_fail_at (t, decorator, GRAFT_PARSE_ERROR_TRACE,
                                 _graft_tracer_printf (t,
                                                       "TypeError: field %s cannot have a "
                                                       "default factory",
                                                       name));
          return FALSE;
        }
      /* Python refuses mutable defaults of fields, not of InitVars. */
      if (!f->init_var && f->value != NULL &&
          (f->value->kind == VAL_LIST || f->value->kind == VAL_DICT || f->value->kind == VAL_SET))
        {
          _graft_tracer_raise (t, "ValueError", decorator->start, decorator->end,
                               "ValueError: mutable default <class '%s'> for field %s is not "
                               "allowed: use default_factory",
                               _graft_value_type_name (f->value), name);
          return FALSE;
        }
      for (k = 0; k < fields->len; k++)
        if (strcmp (((DataclassField *) fields->pdata[k])->name, name) == 0)
          break;
      if (k < fields->len)
        fields->pdata[k] = f;
      else
        _graft_vec_add (fields, f);
    }
  /* A positional parameter without a default after one with a default is
   * Python's TypeError (keyword-only ones may come in any order). */
  for (guint k = 0, seen = 0; k < fields->len; k++)
    {
      DataclassField *a = seen > 0 ? fields->pdata[seen - 1] : NULL; /* the positional before */
      DataclassField *b = fields->pdata[k];

      if (b->kw_only || b->no_init)
        continue;
      seen = k + 1;
      if (a == NULL)
        continue;
      /* Python 3.13 (torch 2.6's) names the default one too. */
      if ((a->value != NULL || a->factory != NULL) && b->value == NULL && b->factory == NULL)
        {
          _graft_tracer_fail_at (
              t, decorator, GRAFT_PARSE_ERROR_TRACE,
              _graft_tracer_printf (
                  t, "TypeError: non-default argument '%s' follows default argument%s%s%s",
                  b->name, t->dialect->torch != GRAFT_TORCH_1_13 ? " '" : "",
                  t->dialect->torch != GRAFT_TORCH_1_13 ? a->name : "",
                  t->dialect->torch != GRAFT_TORCH_1_13 ? "'" : ""));
          return FALSE;
        }
    }
  cls->dc_params = fields;
  cls->dc_fields = _graft_tracer_vec (t);
  for (guint k = 0; k < fields->len; k++)
    if (!((DataclassField *) fields->pdata[k])->init_var)
      _graft_vec_add (cls->dc_fields, fields->pdata[k]);
  if (init && _graft_strmap_get (&cls->ns, "__init__") == NULL)
    _graft_strmap_set (&cls->ns, "__init__",
                       _graft_value_path (t, VAL_BUILTIN, "__graft_dataclass_init__"));
  if (_graft_strmap_get (&cls->ns, "__match_args__") == NULL)
    {
      /* The positional parameters of __init__, for class patterns. */
      Value *names = _graft_value_seq (t, VAL_TUPLE, 0);

      for (guint k = 0; k < fields->len; k++)
        if (!((DataclassField *) fields->pdata[k])->kw_only &&
            !((DataclassField *) fields->pdata[k])->no_init)
          _graft_value_seq_add (
              names, _graft_value_str (t, ((DataclassField *) fields->pdata[k])->name, -1));
      _graft_strmap_set (&cls->ns, "__match_args__", names);
    }
  return TRUE;
}

/**
 * _graft_tracer_dataclass_init:
 * @owner: the dataclass whose generated `__init__` runs
 *
 * Sets @self's fields from @args and @kwargs (or their defaults), then
 * calls `__post_init__()` with the InitVars' values.
 *
 * Returns: (nullable): None, or %NULL with the tracer's error
 */
Value *
_graft_tracer_dataclass_init (Tracer            *t,
                              Class             *owner,
                              Value             *self,
                              PtrVec            *args,
                              StrMap            *kwargs,
                              const GraftPyExpr *at)
{
  PtrVec *fields = owner->dc_params;
  PtrVec *params = _graft_tracer_vec (t); /* as __init__ takes them: positional ones first */
  guint   n = args != NULL ? args->len : 0;
  guint   n_pos = 0;
  PtrVec *init_vars = _graft_tracer_vec (t);
  Value  *post;

  for (guint k = 0; k < fields->len; k++)
    if (!((DataclassField *) fields->pdata[k])->kw_only &&
        !((DataclassField *) fields->pdata[k])->no_init)
      _graft_vec_add (params, fields->pdata[k]);
  n_pos = params->len;
  for (guint k = 0; k < fields->len; k++)
    if (((DataclassField *) fields->pdata[k])->kw_only &&
        !((DataclassField *) fields->pdata[k])->no_init)
      _graft_vec_add (params, fields->pdata[k]);
  if (n > n_pos)
    {
      guint            required = 0, kw_given = 0;
      g_autofree char *takes = NULL;
      g_autofree char *given = NULL;

      while (required < n_pos && ((DataclassField *) params->pdata[required])->value == NULL &&
             ((DataclassField *) params->pdata[required])->factory == NULL)
        required++;
      for (guint k = n_pos; k < params->len; k++)
        if (_graft_strmap_get (kwargs, ((DataclassField *) params->pdata[k])->name) != NULL)
          kw_given++;
      takes = required == n_pos ? g_strdup_printf ("%u positional argument%s", n_pos + 1,
                                                   n_pos == 0 ? "" : "s")
                                : g_strdup_printf ("from %u to %u positional arguments",
                                                   required + 1, n_pos + 1);
      /* CPython: `but 3 positional arguments (and 1 keyword-only argument)
       * were given` when keyword-only ones came too. */
      given = kw_given == 0 ? g_strdup_printf ("%u", n + 1)
                            : g_strdup_printf ("%u positional arguments (and %u keyword-only "
                                               "argument%s)",
                                               n + 1, kw_given, kw_given == 1 ? "" : "s");
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                 "TypeError: %s.__init__() takes %s but %s were given",
                                 owner->name, takes, given);
    }
  for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
    {
      const char *key = kwargs->keys->pdata[i];
      guint       k;

      for (k = 0; k < params->len; k++)
        if (strcmp (((DataclassField *) params->pdata[k])->name, key) == 0)
          break;
      if (k == params->len)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: %s.__init__() got an unexpected keyword argument "
                                   "'%s'",
                                   owner->name, key);
      if (k < n)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: %s.__init__() got multiple values for argument "
                                   "'%s'",
                                   owner->name, key);
    }
  /* The positional parameters missing first, then the keyword-only ones. */
  for (guint part = 0; part < 2; part++)
    {
      g_autoptr (GString) missing = g_string_new (NULL);
      guint from = part == 0 ? n : n_pos, to = part == 0 ? n_pos : params->len;
      guint n_missing = 0, last = 0;

      /* Python names them all: 'a', 'a' and 'b', 'a', 'b', and 'c'. */
      for (guint k = from; k < to; k++)
        {
          DataclassField *f = params->pdata[k];

          if (f->value == NULL && f->factory == NULL &&
              _graft_strmap_get (kwargs, f->name) == NULL)
            {
              n_missing++;
              last = k;
            }
        }
      for (guint k = from, i = 0; k < to; k++)
        {
          DataclassField *f = params->pdata[k];

          if (f->value != NULL || f->factory != NULL ||
              _graft_strmap_get (kwargs, f->name) != NULL)
            continue;
          if (i++ > 0)
            g_string_append (missing, n_missing == 2 ? " and " : k == last ? ", and "
                                                                           : ", ");
          g_string_append_printf (missing, "'%s'", f->name);
        }
      if (n_missing > 0)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: %s.__init__() missing %u required %s "
                                   "argument%s: %s",
                                   owner->name, n_missing,
                                   part == 0 ? "positional" : "keyword-only",
                                   n_missing == 1 ? "" : "s", missing->str);
    }
  /* In the fields' order (keyword-only ones among them), as the
   * generated __init__ sets them and passes the InitVars on. */
  for (guint j = 0; j < fields->len; j++)
    {
      DataclassField *f = fields->pdata[j];
      guint           k = 0;
      Value          *v;

      while (k < params->len && params->pdata[k] != f)
        k++;
      if (k == params->len)
        {
          /* init=False: its factory's value or its default, else unset. */
          v = f->factory != NULL
                  ? _graft_tracer_call (t, f->factory, _graft_tracer_vec (t), NULL, at)
                  : f->value;
          if (f->factory != NULL && v == NULL)
            return NULL;
          if (v != NULL)
            _graft_strmap_set (&self->obj->attrs, f->name, v);
          continue;
        }
      v = k < n ? args->pdata[k] : _graft_strmap_get (kwargs, f->name);
      if (v == NULL && f->factory != NULL)
        v = _graft_tracer_call (t, f->factory, _graft_tracer_vec (t), NULL, at);
      else if (v == NULL)
        v = f->value;
      if (v == NULL)
        return NULL;
      if (f->init_var)
        _graft_vec_add (init_vars, v);
      else
        _graft_strmap_set (&self->obj->attrs, f->name, v);
    }
  post = _graft_tracer_class_lookup (self->obj->cls, "__post_init__", NULL);
  if (post != NULL && post->kind == VAL_FUNCTION &&
      _graft_tracer_call_function (t, post->fn, self, init_vars, NULL, at) == NULL)
    return NULL;
  return _graft_value_none ();
}

static Class *
first_class_base (const Class *c)
{
  for (guint i = 0; i < c->bases->len; i++)
    if (((Value *) c->bases->pdata[i])->kind == VAL_CLASS)
      return ((Value *) c->bases->pdata[i])->cls;
  return NULL;
}

/* The dataclass whose fields @v's generated @method (`__repr__`,
 * `__eq__`) uses, or NULL: not a dataclass instance, or a class of its
 * chain defines @method first.  A dataclass made with `eq=False` or
 * `repr=False` has no such method of its own: the search goes on to its
 * base, whose generated method then compares or prints the base's
 * fields. */
static Class *
generated (const Value *v,
           const char  *method)
{
  if (v->kind != VAL_OBJECT || v->obj->cls == NULL || v->obj->kind != OBJ_PLAIN)
    return NULL;
  for (Class *c = v->obj->cls; c != NULL; c = first_class_base (c))
    {
      if (_graft_strmap_get (&c->ns, method) != NULL)
        return NULL;
      if (c->dc_fields != NULL && (strcmp (method, "__repr__") == 0 ? c->dc_repr : c->dc_eq))
        return c;
    }
  return NULL;
}

/**
 * _graft_dataclass_repr_fields:
 *
 * Returns: (nullable): the fields of the dataclass that prints @v as
 * `Name(a=1)`, or %NULL if @v is not printed so (not a dataclass
 * instance, or a class with its own `__repr__` or `__str__`)
 */
const PtrVec *
_graft_dataclass_repr_fields (const Value *v)
{
  Class *c = generated (v, "__repr__");

  if (c == NULL)
    return NULL;
  for (Class *d = v->obj->cls; d != NULL; d = first_class_base (d))
    if (_graft_strmap_get (&d->ns, "__str__") != NULL)
      return NULL;
  return c->dc_fields;
}

/**
 * _graft_dataclass_field_name:
 *
 * Returns: the name of @field, an item of a dataclass's fields
 */
const char *
_graft_dataclass_field_name (gconstpointer field)
{
  return ((const DataclassField *) field)->name;
}

/**
 * _graft_dataclass_field_in_repr:
 *
 * Returns: whether the repr shows @field (not `field(repr=False)`)
 */
gboolean
_graft_dataclass_field_in_repr (gconstpointer field)
{
  return !((const DataclassField *) field)->no_repr;
}

/**
 * _graft_dataclass_equal:
 * @out: (out): Python's `a == b`
 *
 * Returns: whether @a and @b are instances of one dataclass that compares
 * them by their fields (then @out says if they are equal)
 */
gboolean
_graft_dataclass_equal (const Value *a,
                        const Value *b,
                        gboolean    *out)
{
  Class *c = generated (a, "__eq__");

  if (c == NULL || b->kind != VAL_OBJECT || b->obj->cls != a->obj->cls)
    return FALSE;
  *out = TRUE;
  for (guint k = 0; k < c->dc_fields->len && *out; k++)
    {
      const char *name = ((DataclassField *) c->dc_fields->pdata[k])->name;
      Value      *x = _graft_strmap_get (&a->obj->attrs, name);
      Value      *y = _graft_strmap_get (&b->obj->attrs, name);

      if (((DataclassField *) c->dc_fields->pdata[k])->no_compare)
        continue;

      *out = x != NULL && y != NULL && _graft_value_equal (x, y);
    }
  return TRUE;
}

/**
 * _graft_value_user_eq:
 *
 * Python's `==` of an object runs its class's `__eq__` (or `__ne__` for
 * `!=`), which Graft does not run: a class that defines one (not the one
 * @dataclass makes) compares as it says, not by identity.  The one
 * @dataclass makes compares a NaN field by identity in Python 3.11 (a
 * tuple of the fields; torch 1.13's) and not in 3.13 (field by field;
 * torch 2.6's), and Graft does not keep the identity of floats.
 *
 * Returns: (nullable): the object in @v (itself, or an item of a tuple,
 * list or dict's values, at any depth) whose class defines `__eq__` or
 * `__ne__` (@nan unset) or which is a dataclass with a NaN field (@nan
 * set), or %NULL
 */
const Value *
_graft_value_user_eq (const Value *v,
                      gboolean    *nan)
{
  const Value *found;
  Class       *c;

  *nan = FALSE;
  if (v->kind == VAL_OBJECT)
    {
      if (v->obj->cls != NULL && v->obj->kind == OBJ_PLAIN &&
          (_graft_tracer_class_lookup (v->obj->cls, "__eq__", NULL) != NULL ||
           _graft_tracer_class_lookup (v->obj->cls, "__ne__", NULL) != NULL))
        return v;
      if ((c = generated (v, "__eq__")) == NULL)
        return NULL;
      for (guint k = 0; k < c->dc_fields->len; k++)
        {
          const char *name = ((DataclassField *) c->dc_fields->pdata[k])->name;
          Value      *f = _graft_strmap_get (&v->obj->attrs, name);

          if (f != NULL && f->kind == VAL_FLOAT && isnan (f->f))
            {
              *nan = TRUE;
              return v;
            }
        }
      return NULL;
    }
  if (v->kind == VAL_TUPLE || v->kind == VAL_LIST || v->kind == VAL_DICT)
    {
      const PtrVec *items = v->kind == VAL_DICT ? v->dict.values : v->seq.items;

      found = NULL;
      if (items->len == 0 || !_graft_tracer_walk_enter (items->tracer))
        return NULL;
      for (guint i = 0; i < items->len && found == NULL; i++)
        found = _graft_value_user_eq (items->pdata[i], nan);
      _graft_tracer_walk_leave (items->tracer);
      return found;
    }
  return NULL;
}

/**
 * _graft_dataclass_frozen:
 *
 * Returns: whether `obj.name = ...` is the FrozenInstanceError of a frozen
 * dataclass's `__setattr__`: any name on an instance of the class itself,
 * its fields on one of a subclass
 */
gboolean
_graft_dataclass_frozen (const Value *obj,
                         const char  *name)
{
  if (obj->kind != VAL_OBJECT || obj->obj->cls == NULL || obj->obj->kind != OBJ_PLAIN)
    return FALSE;
  for (Class *c = obj->obj->cls; c != NULL; c = first_class_base (c))
    {
      if (c->dc_fields == NULL)
        continue;
      if (!c->dc_frozen)
        return FALSE;
      if (c == obj->obj->cls)
        return TRUE;
      for (guint k = 0; k < c->dc_fields->len; k++)
        if (strcmp (((DataclassField *) c->dc_fields->pdata[k])->name, name) == 0)
          return TRUE;
      return FALSE;
    }
  return FALSE;
}

/* The dataclass @v is an instance of (its nearest in the chain), or NULL. */
static Class *
dataclass_of (const Value *v)
{
  if (v->kind != VAL_OBJECT || v->obj->cls == NULL || v->obj->kind != OBJ_PLAIN)
    return NULL;
  for (Class *c = v->obj->cls; c != NULL; c = first_class_base (c))
    if (c->dc_fields != NULL)
      return c;
  return NULL;
}

/* getattr(@obj, @name) of a field: the instance's, else the class's. */
static Value *
field_value (Tracer            *t,
             Value             *obj,
             const char        *name,
             const GraftPyExpr *at)
{
  Value *v = _graft_strmap_get (&obj->obj->attrs, name);

  if (v == NULL)
    v = _graft_tracer_class_lookup (obj->obj->cls, name, NULL);
  if (v == NULL)
    return _graft_tracer_raise (t, "AttributeError", at->start, at->end,
                                "AttributeError: '%s' object has no attribute '%s'",
                                obj->obj->cls->name, name);
  return v;
}

/* asdict()'s and astuple()'s copy of @v (@as_dict: dataclasses as dicts,
 * else as tuples): containers copied, dataclasses turned into their
 * fields, constants as they are, a constant tensor a new one like it;
 * what Python would deep-copy otherwise (a traced value, a parameter,
 * another object) is refused. */
static Value *
copy_inner (Tracer            *t,
            Value             *v,
            gboolean           as_dict,
            const char        *fn,
            const GraftPyExpr *at,
            guint              depth)
{
  Class *c;
  Value *out, *item;

  if (depth > 64)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "dataclasses.%s() of values nested this deep is not modelled",
                               fn);
  if (v->kind == VAL_NONE || v->kind == VAL_BOOL || v->kind == VAL_INT || v->kind == VAL_FLOAT ||
      v->kind == VAL_COMPLEX || v->kind == VAL_STR)
    return v;
  if (v->kind == VAL_TENSOR)
    {
      /* A constant tensor's deep copy: a new tensor of its sizes, dtype
       * and strides. */
      out = _graft_value_tensor (t);
      out->tensor.meta = v->tensor.meta;
      return out;
    }
  if ((v->kind == VAL_TUPLE || v->kind == VAL_LIST) && v->seq.range == NULL)
    {
      out = _graft_value_seq (t, v->kind, v->seq.items->len);
      out->seq.size = v->seq.size;
      for (guint i = 0; i < v->seq.items->len; i++)
        {
          if ((item = copy_inner (t, v->seq.items->pdata[i], as_dict, fn, at, depth + 1)) == NULL)
            return NULL;
          _graft_value_seq_add (out, item);
        }
      return out;
    }
  if (v->kind == VAL_DICT)
    {
      out = _graft_value_dict (t);
      for (guint i = 0; i < v->dict.keys->len; i++)
        {
          Value *key = copy_inner (t, v->dict.keys->pdata[i], as_dict, fn, at, depth + 1);

          if (key == NULL ||
              (item = copy_inner (t, v->dict.values->pdata[i], as_dict, fn, at, depth + 1)) ==
                  NULL)
            return NULL;
          _graft_dict_set (t, out, key, item);
        }
      return out;
    }
  if ((c = dataclass_of (v)) != NULL)
    {
      out = as_dict ? _graft_value_dict (t) : _graft_value_seq (t, VAL_TUPLE, c->dc_fields->len);
      for (guint k = 0; k < c->dc_fields->len; k++)
        {
          const char *name = ((DataclassField *) c->dc_fields->pdata[k])->name;

          if ((item = field_value (t, v, name, at)) == NULL ||
              (item = copy_inner (t, item, as_dict, fn, at, depth + 1)) == NULL)
            return NULL;
          if (as_dict)
            _graft_dict_set (t, out, _graft_value_str (t, name, -1), item);
          else
            _graft_value_seq_add (out, item);
        }
      return out;
    }
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "dataclasses.%s() of a field holding a '%s' is not modelled: Python "
                             "deep-copies it",
                             fn, _graft_value_type_name (v));
}

/* dataclasses.replace(@obj, **@changes). */
static Value *
replace (Tracer            *t,
         Value             *obj,
         StrMap            *changes,
         const GraftPyExpr *at)
{
  Class  *c = dataclass_of (obj);
  StrMap *kw = _graft_tracer_alloc (t, sizeof (StrMap));
  Value  *cls, *v;

  _graft_strmap_init (t, kw);
  for (guint i = 0; changes != NULL && i < changes->keys->len; i++)
    _graft_strmap_set (kw, changes->keys->pdata[i], changes->values->pdata[i]);
  for (guint k = 0; k < c->dc_params->len; k++)
    {
      DataclassField *f = c->dc_params->pdata[k];

      if (f->no_init)
        {
          if (_graft_strmap_get (kw, f->name) != NULL)
            return _graft_tracer_fail (
                t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                "%s: field %s is declared with init=False, it cannot be specified with replace()",
                t->dialect->torch == GRAFT_TORCH_1_13 ? "ValueError" : "TypeError", f->name);
          continue;
        }
      if (_graft_strmap_get (kw, f->name) != NULL)
        continue;
      if (f->init_var)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "replace() of a dataclass with an InitVar is not modelled");
      if ((v = field_value (t, obj, f->name, at)) == NULL)
        return NULL;
      _graft_strmap_set (kw, f->name, v);
    }
  cls = _graft_value_new (t, VAL_CLASS);
  cls->cls = obj->obj->cls;
  return _graft_tracer_call (t, cls, _graft_tracer_vec (t), kw, at);
}

/**
 * _graft_tracer_dataclass_function:
 * @name: `asdict`, `astuple` or `replace`
 *
 * The functions of the dataclasses module Graft models, called.
 *
 * Returns: (nullable): the result, or %NULL with the tracer's error
 */
Value *
_graft_tracer_dataclass_function (Tracer            *t,
                                  const char        *name,
                                  PtrVec            *args,
                                  StrMap            *kwargs,
                                  const GraftPyExpr *at)
{
  guint n = args != NULL ? args->len : 0;

  if (strcmp (name, "replace") != 0 && kwargs != NULL && kwargs->keys->len > 0)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "the keyword argument '%s' of dataclasses.%s() is not modelled by "
                               "Graft's tracer",
                               (const char *) kwargs->keys->pdata[0], name);
  if (n == 0)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "dataclasses.%s() without its argument is not modelled", name);
  if (n > 1)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "TypeError: %s() takes 1 positional argument but %u were given",
                               name, n);
  if (dataclass_of (args->pdata[0]) == NULL)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "TypeError: %s() should be called on dataclass instances", name);
  if (strcmp (name, "replace") == 0)
    return replace (t, args->pdata[0], kwargs, at);
  return copy_inner (t, args->pdata[0], name[2] == 'd', name, at, 0);
}
