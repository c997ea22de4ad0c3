/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-types.c: type annotations as Python evaluates them and as
 * torch.fx prints them in a graph listing.
 *
 * An annotation is evaluated like any expression; what it may give is a
 * type: a builtin class (`int`, `list`), torch's (`torch.Tensor`), a name
 * of `typing` (`typing.Any`, a bare `typing.List`), another library's class
 * by its qualified name, or a generic alias, which this file makes:
 * `typing.Optional[torch.Tensor]`, `Dict[str, List[int]]`, `tuple[int,
 * ...]`, `int | None`.  A type's text is what the listing prints for it,
 * torch's `_type_repr`, which for generics is Python 3.11's own repr
 * (`typing.Optional[torch.Tensor]` for `Union[torch.Tensor, None]`, kept
 * as `typing.Union[torch.Tensor, NoneType]`: graft-type-text-private.h);
 * code generation (graft-codegen.c) derives the `type_repr` of generated
 * code (`typing_Union[torch.Tensor,NoneType]`) from that text alone, so a
 * listing read back prints the same code.
 *
 * Python's rules kept here: `Optional[X]` is `Union[X, None]`; a Union's
 * arguments are flattened and repeated ones dropped, keeping the first;
 * a Union of one type is that type; `None` stands for `NoneType`; a string
 * inside a typing generic is a `ForwardRef`; `Tuple[()]` is the empty
 * tuple type.
 */
#include "config.h"

#include "graft-tracer-private.h"
#include "graft-error.h"

#include <string.h>

/* typing's generic aliases that Graft prints, by their name in typing.
 * (Callable, Literal and Annotated take arguments that are not types.) */
static const char *const typing_generics[] = {
  "AbstractSet",
  "ChainMap",
  "Collection",
  "Container",
  "Counter",
  "DefaultDict",
  "Deque",
  "Dict",
  "FrozenSet",
  "Generator",
  "Iterable",
  "Iterator",
  "List",
  "Mapping",
  "MutableMapping",
  "MutableSequence",
  "MutableSet",
  "OrderedDict",
  "Reversible",
  "Sequence",
  "Set",
  "Tuple",
  "Type",
};

/* Builtin classes that are types in annotations, and those of them that
 * take arguments (PEP 585). */
static const char *const builtin_types[] = {
  "bool",
  "bytes",
  "complex",
  "dict",
  "float",
  "frozenset",
  "int",
  "list",
  "object",
  "set",
  "str",
  "tuple",
  "type",
};
static const char *const builtin_generics[] = {
  "dict", "frozenset", "list", "set", "tuple", "type"
};

static gboolean
in_list (const char        *name,
         const char *const *list,
         gsize              n)
{
  for (gsize i = 0; i < n; i++)
    if (strcmp (list[i], name) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
is_typing (const Value *v,
           const char  *name)
{
  return v->kind == VAL_TYPE && g_str_has_prefix (v->path, "typing.") &&
         strcmp (v->path + 7, name) == 0;
}

static gboolean
is_union (const Value *v)
{
  return v->kind == VAL_GENERIC && strcmp (v->generic.origin, "typing.Union") == 0;
}

/* `typing._type_repr` of @v as an argument of a generic (@in_typing: of
 * typing's own, where a string is a forward reference), into @out; FALSE
 * if @v is not a type Graft knows how to print. */
static gboolean
append_arg (GString     *out,
            const Value *v,
            gboolean     in_typing)
{
  /* Only a few kinds are types: tested one by one rather than by a
   * switch over every kind. */
  if (v->kind == VAL_NONE)
    g_string_append (out, in_typing ? "NoneType" : "None");
  else if (v->kind == VAL_ELLIPSIS)
    g_string_append (out, "...");
  else if (v->kind == VAL_TYPE)
    g_string_append (out, v->path);
  else if (v->kind == VAL_GENERIC)
    g_string_append (out, v->generic.repr);
  else if (v->kind == VAL_BUILTIN && in_list (v->path, builtin_types, G_N_ELEMENTS (builtin_types)))
    g_string_append (out, v->path);
  else if (v->kind == VAL_PATH_FN && strchr (v->path, '.') != NULL &&
           !((g_str_has_prefix (v->path, "torch.") && strcmp (v->path, "torch.device") != 0) ||
             g_str_has_prefix (v->path, "math.") || g_str_has_prefix (v->path, "operator.")))
    /* torch.device, or another library's class (`GoogLeNetOutputs`);
     * not a function of torch, math or operator. */
    g_string_append (out, v->path);
  else if (v->kind == VAL_STR)
    {
      if (in_typing)
        g_string_append (out, "ForwardRef(");
      _graft_value_append_str (out, v, TRUE);
      if (in_typing)
        g_string_append_c (out, ')');
    }
  else if ((v->kind == VAL_INT || v->kind == VAL_BOOL) && in_typing)
    /* Python 3.11 takes them (`List[3]`) and prints their repr. */
    _graft_value_append_str (out, v, TRUE);
  else
    return FALSE;
  return TRUE;
}

static Value *
not_a_type (Tracer            *t,
            const Value       *v,
            const GraftPyExpr *at)
{
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "a '%s' is not a type Graft can print in an annotation",
                             _graft_value_type_name (v));
}

static Value *
generic_new (Tracer     *t,
             const char *origin,
             PtrVec     *args,
             const char *repr)
{
  Value *v = _graft_value_new (t, VAL_GENERIC);

  v->generic.origin = _graft_tracer_strdup (t, origin, -1);
  v->generic.args = args;
  v->generic.repr = _graft_tracer_strdup (t, repr, -1);
  return v;
}

/* `typing.Union[params]`, normalised as Python does. */
static Value *
make_union (Tracer            *t,
            PtrVec            *params,
            const GraftPyExpr *at)
{
  PtrVec *args = _graft_tracer_vec (t);
  g_autoptr (GPtrArray) reprs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) repr = g_string_new (NULL);

  for (guint i = 0; i < params->len; i++)
    {
      Value  *p = params->pdata[i];
      PtrVec *flat = is_union (p) ? p->generic.args : NULL;
      guint   n = flat != NULL ? flat->len : 1;

      for (guint j = 0; j < n; j++)
        {
          Value *a = flat != NULL ? flat->pdata[j] : p;
          g_autoptr (GString) text = g_string_new (NULL);
          gboolean seen = FALSE;

          if (!append_arg (text, a, TRUE))
            return not_a_type (t, a, at);
          for (guint k = 0; k < reprs->len && !seen; k++)
            seen = strcmp (reprs->pdata[k], text->str) == 0;
          if (seen)
            continue;
          _graft_vec_add (args, a);
          g_ptr_array_add (reprs, g_string_free (g_steal_pointer (&text), FALSE));
        }
    }
  if (args->len == 1)
    return args->pdata[0];
  /* Kept in order even where the listing says `typing.Optional[X]`
   * (graft-type-text-private.h). */
  g_string_append (repr, "typing.Union[");
  for (guint i = 0; i < reprs->len; i++)
    g_string_append_printf (repr, "%s%s", i > 0 ? ", " : "", (const char *) reprs->pdata[i]);
  g_string_append_c (repr, ']');
  return generic_new (t, "typing.Union", args, repr->str);
}

/**
 * _graft_tracer_type_subscript:
 * @obj: what is subscripted
 * @index: the subscript
 *
 * `Optional[X]`, `Dict[K, V]`, `list[int]`: a generic alias, when @obj is
 * a type that takes arguments.
 *
 * Returns: the alias; %NULL without an error when @obj is no such type,
 *   %NULL with the tracer's error when its arguments are not types
 */
Value *
_graft_tracer_type_subscript (Tracer            *t,
                              Value             *obj,
                              Value             *index,
                              const GraftPyExpr *at)
{
  g_autoptr (GString) repr = NULL;
  PtrVec     *params;
  const char *origin;
  gboolean    in_typing;

  if (obj->kind == VAL_TYPE && g_str_has_prefix (obj->path, "typing.") &&
      (in_list (obj->path + 7, typing_generics, G_N_ELEMENTS (typing_generics)) ||
       is_typing (obj, "Union") || is_typing (obj, "Optional")))
    in_typing = TRUE;
  else if (obj->kind == VAL_BUILTIN &&
           in_list (obj->path, builtin_generics, G_N_ELEMENTS (builtin_generics)))
    in_typing = FALSE;
  else
    return NULL;
  origin = obj->path;
  repr = g_string_new (NULL);

  if (index->kind == VAL_TUPLE)
    params = index->seq.items;
  else
    {
      params = _graft_tracer_vec (t);
      _graft_vec_add (params, index);
    }
  if (is_typing (obj, "Optional"))
    {
      PtrVec *both = _graft_tracer_vec (t);

      if (index->kind == VAL_TUPLE)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: typing.Optional requires a single type.");
      _graft_vec_add (both, index);
      _graft_vec_add (both, _graft_value_none ());
      return make_union (t, both, at);
    }
  if (is_typing (obj, "Union"))
    return make_union (t, params, at);

  g_string_append_printf (repr, "%s[", origin);
  if (index->kind == VAL_TUPLE && params->len == 0)
    g_string_append (repr, "()");
  for (guint i = 0; i < params->len; i++)
    {
      if (i > 0)
        g_string_append (repr, ", ");
      if (!append_arg (repr, params->pdata[i], in_typing))
        return not_a_type (t, params->pdata[i], at);
    }
  g_string_append_c (repr, ']');
  return generic_new (t, origin, params, repr->str);
}

static gboolean
is_class (const Value *v)
{
  return v->kind == VAL_TYPE || v->kind == VAL_GENERIC ||
         (v->kind == VAL_BUILTIN && in_list (v->path, builtin_types, G_N_ELEMENTS (builtin_types)));
}

static gboolean
is_typing_form (const Value *v)
{
  return (v->kind == VAL_TYPE && g_str_has_prefix (v->path, "typing.")) ||
         (v->kind == VAL_GENERIC && g_str_has_prefix (v->generic.origin, "typing."));
}

/**
 * _graft_tracer_type_or:
 *
 * `a | b` of types (PEP 604): a `typing.Union` when either side is one of
 * typing's, otherwise the `int | None` kind.
 *
 * Returns: the union; %NULL without an error when @a and @b are not types
 */
Value *
_graft_tracer_type_or (Tracer            *t,
                       Value             *a,
                       Value             *b,
                       const GraftPyExpr *at)
{
  PtrVec *params;
  PtrVec *args;
  g_autoptr (GString) repr = g_string_new (NULL);
  Value *sides[2] = { a, b };

  if (!((is_class (a) && (is_class (b) || b->kind == VAL_NONE)) ||
        (a->kind == VAL_NONE && is_class (b))))
    return NULL;
  params = _graft_tracer_vec (t);
  _graft_vec_add (params, a);
  _graft_vec_add (params, b);
  if (is_typing_form (a) || is_typing_form (b))
    return make_union (t, params, at);

  /* types.UnionType: flattened, repeats dropped, printed with ` | `. */
  args = _graft_tracer_vec (t);
  for (guint i = 0; i < 2; i++)
    {
      Value  *s = sides[i];
      PtrVec *flat =
          s->kind == VAL_GENERIC && strcmp (s->generic.origin, "|") == 0 ? s->generic.args : NULL;
      guint n = flat != NULL ? flat->len : 1;

      for (guint j = 0; j < n; j++)
        {
          Value   *item = flat != NULL ? flat->pdata[j] : s;
          gboolean seen = FALSE;

          for (guint k = 0; k < args->len && !seen; k++)
            seen = _graft_value_equal (args->pdata[k], item);
          if (!seen)
            _graft_vec_add (args, item);
        }
    }
  if (args->len == 1)
    return args->pdata[0];
  for (guint i = 0; i < args->len; i++)
    {
      if (i > 0)
        g_string_append (repr, " | ");
      if (!append_arg (repr, args->pdata[i], FALSE))
        return not_a_type (t, args->pdata[i], at);
    }
  return generic_new (t, "|", args, repr->str);
}

/**
 * _graft_tracer_type_repr:
 * @v: an annotation's value
 * @at: the annotation, for the error
 *
 * Returns: (nullable): the type's text in a listing (`""` for `None`,
 *   which is no annotation), or %NULL with the tracer's error when @v is
 *   not a type Graft can print
 */
const char *
_graft_tracer_type_repr (Tracer            *t,
                         Value             *v,
                         const GraftPyExpr *at)
{
  g_autoptr (GString) out = g_string_new (NULL);

  if (v->kind == VAL_NONE)
    return "";
  /* A bare Union or Optional is not a type of its own. */
  if (is_typing (v, "Union") || is_typing (v, "Optional") || !append_arg (out, v, FALSE))
    {
      _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "this type annotation is not supported: Graft prints classes "
                          "(torch.Tensor, int, "
                          "list, ...), typing's names and generic aliases of them");
      return NULL;
    }
  return _graft_tracer_strdup (t, out->str, out->len);
}
