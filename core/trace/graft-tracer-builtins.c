/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-builtins.c: the Python builtins that model files call
 * (`len`, `range`, `enumerate`, `isinstance`, ...), and the argument checks
 * that they share with the methods of graft-tracer-methods.c.  They run
 * eagerly, as Python would; where a traced value reaches one that needs its
 * value (`len(x)`, `int(x)`), the error says so, as torch.fx would fail
 * there.
 */
#include "config.h"

#include "graft-tracer-private.h"
#include "graft-error.h"
#include "graft-limits.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const builtin_names[] = {
  "abs",
  "all",
  "any",
  "bool",
  "callable",
  "chr",
  "complex",
  "dict",
  "divmod",
  "enumerate",
  "filter",
  "float",
  "format",
  "getattr",
  "hasattr",
  "int",
  "isinstance",
  "issubclass",
  "iter",
  "len",
  "list",
  "map",
  "max",
  "min",
  "next",
  "object",
  "ord",
  "pow",
  "print",
  "property",
  "range",
  "repr",
  "reversed",
  "round",
  "setattr",
  "slice",
  "sorted",
  "staticmethod",
  "str",
  "sum",
  "super",
  "tuple",
  "type",
  "zip",
  "classmethod",
  "id",
  "hash",
  "set",
  "frozenset",
  "bytes",
};

Value *
_graft_tracer_lookup_builtin (Tracer     *t,
                              const char *name)
{
  const PythonClass *row;
  guint              slot = (guint) (GPOINTER_TO_SIZE (name) >> 3) % 64;
  guint              recent = t->builtin_recent[slot];

  G_STATIC_ASSERT (G_N_ELEMENTS (t->builtin_recent) == 64);
  G_STATIC_ASSERT (G_N_ELEMENTS (builtin_names) < G_MAXUINT8);
  /* A function's run of a check or helper looks builtins up by the
   * thousand, by the same few names of its syntax tree: the row found
   * last by the name's address, its text checked, before the search (the
   * first byte before the rest).  (Row 0 is `abs`, which is not cached.) */
  if (recent != 0 && strcmp (builtin_names[recent], name) == 0)
    return _graft_value_path (t, VAL_BUILTIN, builtin_names[recent]);
  if (strcmp (name, "Ellipsis") == 0)
    return _graft_value_ellipsis ();
  for (guint i = 0; i < G_N_ELEMENTS (builtin_names); i++)
    if (builtin_names[i][0] == name[0] && strcmp (builtin_names[i], name) == 0)
      {
        t->builtin_recent[slot] = (guint8) i;
        return _graft_value_path (t, VAL_BUILTIN, builtin_names[i]);
      }
  /* Python's exception classes, of the dialect's Python (its builtin
   * classes whose names open with a capital). */
  if (g_ascii_isupper (name[0]) && (row = _graft_tracer_python_class (t, name)) != NULL)
    return _graft_value_path (t, VAL_BUILTIN, row->name);
  return NULL;
}

/* The items of @v where their order does not change the result (sorted(),
 * min(), any()): a set's as they were added. */
static Value *
iterate_any_order (Tracer            *t,
                   Value             *v,
                   const GraftPyExpr *at)
{
  if (v->kind == VAL_SET)
    return _graft_set_items (t, v, FALSE, at);
  return _graft_tracer_iterate (t, v, at);
}

/* The characters of a string, NUL included (g_utf8_strlen stops there). */
static gint64
str_length (const Value *v)
{
  gint64 n = 0;

  for (gsize i = 0; i < v->str.len; i++)
    n += ((guchar) v->str.s[i] & 0xc0) != 0x80;
  return n;
}

gboolean
_graft_tracer_check_arity (Tracer            *t,
                           const char        *name,
                           PtrVec            *args,
                           guint              min,
                           guint              max,
                           const GraftPyExpr *at)
{
  guint n = _graft_tracer_n_args (args);

  if (n < min || n > max)
    {
      if (min == max)
        _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                            "%s() takes %u argument%s (%u given)", name, min, min == 1 ? "" : "s",
                            n);
      else
        _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                            "%s() takes %u to %u arguments (%u given)", name, min, max, n);
      return FALSE;
    }
  return TRUE;
}

gboolean
_graft_tracer_get_int (Tracer            *t,
                       Value             *v,
                       gint64            *out,
                       const GraftPyExpr *at)
{
  if (v->kind == VAL_INT)
    *out = v->i;
  else if (v->kind == VAL_BOOL)
    *out = v->b;
  else
    {
      if (_graft_value_is_proxy (v))
        _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                            "a traced value cannot be used as an integer: its value is not known "
                            "while tracing "
                            "(torch.fx: 'Proxy' object cannot be interpreted as an integer)");
      else
        _graft_tracer_raise (t, "TypeError", at->start, at->end,
                             "'%s' object cannot be interpreted as an integer",
                             _graft_value_type_name (v));
      return FALSE;
    }
  return TRUE;
}

Value *
_graft_tracer_proxy_needs_value (Tracer            *t,
                                 const char        *what,
                                 const GraftPyExpr *at)
{
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                             "%s needs the value of a traced value, which is not known while "
                             "tracing "
                             "(torch.fx: symbolically traced variables cannot be used as inputs to "
                             "control flow)",
                             what);
}

static Value *
builtin_len (Tracer            *t,
             Value             *v,
             const GraftPyExpr *at)
{
  if (v->kind == VAL_STR)
    return _graft_value_int (t, str_length (v));
  if (_graft_value_is_seq (v) || v->kind == VAL_SET)
    return _graft_value_int (t, v->seq.items->len);
  if (v->kind == VAL_DICT)
    return _graft_value_int (t, v->dict.keys->len);
  if (v->kind == VAL_OBJECT)
    {
      if (v->obj->kind == OBJ_PARAMETER_LIST || v->obj->kind == OBJ_PARAMETER_DICT)
        return _graft_value_int (t, v->obj->params.keys->len);
      if (v->obj->kind == OBJ_SEQUENTIAL || v->obj->kind == OBJ_MODULE_LIST ||
          v->obj->kind == OBJ_MODULE_DICT)
        return _graft_value_int (t, v->obj->modules.keys->len);
      /* A class of the file (or a torch.nn model: Sequential) with its
       * own __len__, whose result Python checks. */
      if (v->obj->cls != NULL)
        {
          Value *method = _graft_tracer_class_lookup (v->obj->cls, "__len__", NULL);
          Value *n;

          if (method != NULL && method->kind == VAL_FUNCTION)
            {
              n = _graft_tracer_call_function (t, method->fn, v, NULL, NULL, at);
              if (n == NULL)
                return NULL;
              if (n->kind != VAL_INT && n->kind != VAL_BOOL)
                return _graft_tracer_raise (t, "TypeError", at->start, at->end,
                                            "TypeError: '%s' object cannot be interpreted as an "
                                            "integer",
                                            _graft_value_type_name (n));
              if (n->kind == VAL_INT && n->i < 0)
                return _graft_tracer_raise (t, "ValueError", at->start, at->end,
                                            "ValueError: __len__() should return >= 0");
              return _graft_value_int (t, n->kind == VAL_INT ? n->i : n->b);
            }
        }
    }
  if (_graft_value_is_proxy (v))
    return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                  "len() of a traced value is not known while tracing "
                                  "(torch.fx: 'len' is not supported in symbolic tracing by "
                                  "default)");
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                             "TypeError: object of type '%s' has no len()",
                             _graft_value_type_name (v));
}

/**
 * _graft_tracer_range_bounds:
 * @args: the arguments of a call of range()
 * @out_len: (out): how many items the range has
 *
 * Reads range()'s arguments as Python does, and fails where the range is
 * longer than a loop may unroll, unless @lazy (a loop straight over the
 * range, made a step at a time): then @out_len is one step more than a
 * loop may take.
 *
 * Returns: %FALSE with the tracer's error
 */
gboolean
_graft_tracer_range_bounds (Tracer            *t,
                            PtrVec            *args,
                            const GraftPyExpr *at,
                            gint64            *out_start,
                            gint64            *out_step,
                            guint             *out_len,
                            gboolean           lazy)
{
  gint64 start = 0, stop, step = 1;

  if (!_graft_tracer_check_arity (t, "range", args, 1, 3, at))
    return FALSE;
  if (_graft_tracer_n_args (args) == 1)
    {
      if (!_graft_tracer_get_int (t, _graft_tracer_arg (args, 0), &stop, at))
        return FALSE;
    }
  else if (!_graft_tracer_get_int (t, _graft_tracer_arg (args, 0), &start, at) ||
           !_graft_tracer_get_int (t, _graft_tracer_arg (args, 1), &stop, at) ||
           (_graft_tracer_n_args (args) == 3 &&
            !_graft_tracer_get_int (t, _graft_tracer_arg (args, 2), &step, at)))
    return FALSE;
  if (step == 0)
    {
      _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                             "ValueError: range() arg 3 must not be zero");
      return FALSE;
    }
  /* The distance in unsigned arithmetic, exact as stop and start are on
   * the right sides of each other (stop - start overflows gint64 for
   * range(-2**63, 2**63 - 1)). */
  if (step > 0 ? stop > start : start > stop)
    {
      guint64 dist = step > 0 ? (guint64) stop - (guint64) start : (guint64) start - (guint64) stop;
      guint64 by = step > 0 ? (guint64) step : (guint64) 0 - (guint64) step;

      if (dist / by > GRAFT_MAX_LOOP_STEPS)
        {
          if (!lazy)
            {
              _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_LIMIT,
                                     "the range is too long to unroll");
              return FALSE;
            }
          /* A loop straight over it may break early; past this many steps
           * it fails as any loop that runs too many times. */
          *out_len = GRAFT_MAX_LOOP_STEPS + 1;
        }
      else
        *out_len = (guint) ((dist - 1) / by + 1);
    }
  else
    *out_len = 0;
  *out_start = start;
  *out_step = step;
  return TRUE;
}

static Value *
builtin_range (Tracer            *t,
               PtrVec            *args,
               const GraftPyExpr *at)
{
  gint64 start, step, stop;
  guint  len;
  Value *out;

  if (!_graft_tracer_range_bounds (t, args, at, &start, &step, &len, FALSE))
    return NULL;
  /* (Read again: it was read above.) */
  (void) _graft_tracer_get_int (t, _graft_tracer_arg (args, _graft_tracer_n_args (args) >= 2),
                                &stop, at);
  out = _graft_value_seq (t, VAL_LIST, len);
  for (guint i = 0; i < len; i++)
    _graft_value_seq_add (out, _graft_value_int (t, start + (gint64) i * step));
  /* Unrolled as a list, but an argument of a node is the range itself. */
  out->seq.range =
      step == 1 ? _graft_tracer_printf (t, "range(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")",
                                        start, stop)
                : _graft_tracer_printf (t,
                                        "range(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                                        ", %" G_GINT64_FORMAT ")",
                                        start, stop, step);
  return out;
}

static Value *
to_number (Tracer            *t,
           const char        *name,
           Value             *v,
           const GraftPyExpr *at)
{
  gboolean want_int = strcmp (name, "int") == 0;

  if (_graft_value_is_proxy (v))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "%s() of a traced value is not known while tracing "
                               "(torch.fx: %s() argument must be a string or a number, not "
                               "'Proxy')",
                               name, name);
  if (_graft_value_is_bigint (v))
    {
      double f;

      if (want_int)
        return v;
      if (!_graft_bigint_to_double (v, &f))
        return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                      "OverflowError: int too large to convert to float");
      return _graft_value_float (t, f);
    }
  if (v->kind == VAL_BOOL)
    return want_int ? _graft_value_int (t, v->b) : _graft_value_float (t, v->b);
  if (v->kind == VAL_INT)
    return want_int ? v : _graft_value_float (t, (double) v->i);
  if (v->kind == VAL_FLOAT)
    {
      if (!want_int)
        return v;
      if (!isfinite (v->f) || v->f >= 9223372036854775808.0 || v->f < -9223372036854775808.0)
        return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                      "cannot convert this float to a 64-bit integer");
      return _graft_value_int (t, (gint64) v->f);
    }
  if (v->kind == VAL_STR)
    {
      g_autofree char *s = g_strstrip (g_strndup (v->str.s, v->str.len));
      char            *end = NULL;

      if (want_int)
        {
          gint64 i = g_ascii_strtoll (s, &end, 10);

          if (*s != '\0' && end != NULL && *end == '\0')
            return _graft_value_int (t, i);
        }
      else
        {
          double f;

          if (g_ascii_strcasecmp (s, "inf") == 0 || g_ascii_strcasecmp (s, "+inf") == 0 ||
              g_ascii_strcasecmp (s, "infinity") == 0)
            return _graft_value_float (t, INFINITY);
          if (g_ascii_strcasecmp (s, "-inf") == 0 || g_ascii_strcasecmp (s, "-infinity") == 0)
            return _graft_value_float (t, -INFINITY);
          if (g_ascii_strcasecmp (s, "nan") == 0)
            return _graft_value_float (t, NAN);
          f = g_ascii_strtod (s, &end);
          /* g_ascii_strtod() also reads hex (`0x1p3`) and `nan(1)`,
           * which Python's float() refuses. */
          if (*s != '\0' && end != NULL && *end == '\0' && strpbrk (s, "xX(") == NULL)
            return _graft_value_float (t, f);
        }
      /* Python's ValueError, quoting the string as given, where Python
       * surely refuses it too: ASCII without `_` (both take `1_000`, and
       * Unicode digits and spaces, which Graft does not read). */
      if (!memchr (v->str.s, '_', v->str.len) && g_str_is_ascii (s))
        {
          GString    *quoted = g_string_new (NULL);
          const char *message;

          _graft_value_append_str (quoted, v, TRUE);
          message =
              want_int
                  ? _graft_tracer_printf (t, "invalid literal for int() with base 10: %s",
                                          quoted->str)
                  : _graft_tracer_printf (t, "could not convert string to float: %s", quoted->str);
          g_string_free (quoted, TRUE);
          return _graft_tracer_raise_text (t, "ValueError", message, at);
        }
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                                 "invalid literal for %s(): '%s'", name, s);
    }
  return _graft_tracer_raise (t, "TypeError", at->start, at->end,
                              "%s() argument must be a string%sa real number, not '%s'", name,
                              want_int ? ", a bytes-like object or " : " or ",
                              _graft_value_type_name (v));
}

/* Whether the torch symbol @path (`torch.float32`) names a dtype, not a
 * layout or memory format. */
static gboolean
is_dtype_name (const char *path)
{
  static const char *const prefixes[] = { "torch.float", "torch.bfloat", "torch.complex",
                                          "torch.int", "torch.uint", "torch.qint",
                                          "torch.quint", "torch.bits", NULL };

  if (strcmp (path, "torch.bool") == 0 || strcmp (path, "torch.half") == 0 ||
      strcmp (path, "torch.double") == 0 || strcmp (path, "torch.long") == 0 ||
      strcmp (path, "torch.short") == 0 || strcmp (path, "torch.cfloat") == 0 ||
      strcmp (path, "torch.cdouble") == 0 || strcmp (path, "torch.chalf") == 0)
    return TRUE;
  for (guint i = 0; prefixes[i] != NULL; i++)
    if (g_str_has_prefix (path, prefixes[i]))
      return TRUE;
  return FALSE;
}

/* isinstance(v, cls) for the classes model code checks. */
static gboolean
is_instance (Tracer *t,
             Value  *v,
             Value  *cls)
{
  if (cls->kind == VAL_TUPLE)
    {
      for (guint i = 0; i < cls->seq.items->len; i++)
        if (is_instance (t, v, cls->seq.items->pdata[i]))
          return TRUE;
      return FALSE;
    }
  if (v->kind == VAL_OBJECT && v->obj->exception != NULL && cls->kind == VAL_TYPE)
    return strcmp (cls->path, "torch.fx.proxy.TraceError") == 0 &&
           _graft_tracer_exception_is (t, v->obj->exception, "TraceError");
  if (v->kind == VAL_OBJECT && v->obj->exception != NULL)
    return (cls->kind == VAL_BUILTIN || cls->kind == VAL_CLASS) &&
           _graft_tracer_exception_is (t, v->obj->exception,
                                       cls->kind == VAL_CLASS ? cls->cls->name : cls->path);
  if (cls->kind == VAL_BUILTIN)
    {
      const char *n = cls->path;

      if (strcmp (n, "int") == 0)
        return v->kind == VAL_INT || v->kind == VAL_BOOL || _graft_value_is_bigint (v);
      if (strcmp (n, "float") == 0)
        return v->kind == VAL_FLOAT;
      if (strcmp (n, "bool") == 0)
        return v->kind == VAL_BOOL;
      if (strcmp (n, "str") == 0)
        return v->kind == VAL_STR;
      if (strcmp (n, "list") == 0)
        return v->kind == VAL_LIST;
      if (strcmp (n, "tuple") == 0)
        return v->kind == VAL_TUPLE;
      if (strcmp (n, "dict") == 0)
        return v->kind == VAL_DICT;
      if (strcmp (n, "set") == 0 || strcmp (n, "frozenset") == 0)
        return v->kind == VAL_SET && v->seq.size == (n[0] == 'f');
      if (strcmp (n, "slice") == 0)
        return v->kind == VAL_SLICE;
      if (strcmp (n, "object") == 0)
        return TRUE;
      return FALSE;
    }
  /* collections.OrderedDict: the dicts it made (a dict subclass). */
  if ((cls->kind == VAL_PATH_FN || cls->kind == VAL_TYPE) &&
      strcmp (cls->path, "collections.OrderedDict") == 0)
    return v->kind == VAL_DICT && v->dict.ordered;
  if (cls->kind == VAL_TYPE && strcmp (cls->path, "torch.Tensor") == 0)
    /* A Proxy is not a Tensor under torch.fx. */
    return v->kind == VAL_TENSOR || v->kind == VAL_PARAMETER;
  if (cls->kind == VAL_TYPE && strcmp (cls->path, "torch.Size") == 0)
    return v->kind == VAL_TUPLE && v->seq.size;
  if (cls->kind == VAL_PATH_FN && strcmp (cls->path, "torch.nn.Parameter") == 0)
    return v->kind == VAL_PARAMETER;
  /* torch.float32 (a symbol, as torch.strided and torch.channels_last
   * are: only the dtypes' names are torch.dtype) and torch.device('cpu'). */
  if ((cls->kind == VAL_PATH_FN || cls->kind == VAL_TYPE) && strcmp (cls->path, "torch.dtype") == 0)
    return v->kind == VAL_SYMBOL && !_graft_value_is_bigint (v) && is_dtype_name (v->path);
  if ((cls->kind == VAL_PATH_FN || cls->kind == VAL_TYPE) &&
      strcmp (cls->path, "torch.device") == 0)
    return v->kind == VAL_DEVICE;
  if (cls->kind == VAL_NN_CLASS && v->kind == VAL_OBJECT)
    {
      const char *name =
          strrchr (cls->path, '.') != NULL ? strrchr (cls->path, '.') + 1 : cls->path;

      Value *model;

      if (strcmp (name, "Module") == 0)
        return v->obj->kind != OBJ_PLAIN;
      if (strcmp (v->obj->class_name, name) == 0 && v->obj->kind != OBJ_PLAIN &&
          v->obj->kind != OBJ_USER_MODULE)
        return TRUE;
      /* A class of the file that extends the layer extends Graft's model
       * of it (_graft_tracer_nn_settings_class()). */
      model = v->obj->cls != NULL ? _graft_tracer_nn_settings_class (t, name) : NULL;
      return model != NULL && model->kind == VAL_CLASS &&
             is_instance (t, v, model);
    }
  if (cls->kind == VAL_CLASS && v->kind == VAL_OBJECT && v->obj->cls != NULL)
    {
      GPtrArray *stack = g_ptr_array_new ();
      gboolean   found = FALSE;

      g_ptr_array_add (stack, v->obj->cls);
      while (stack->len > 0 && !found)
        {
          Class *c = g_ptr_array_steal_index (stack, stack->len - 1);

          if (c == cls->cls)
            found = TRUE;
          for (guint i = 0; i < c->bases->len; i++)
            {
              Value *b = c->bases->pdata[i];

              if (b->kind == VAL_CLASS)
                g_ptr_array_add (stack, b->cls);
            }
        }
      g_ptr_array_unref (stack);
      return found;
    }
  return FALSE;
}

static Value *
min_max (Tracer            *t,
         const char        *name,
         PtrVec            *args,
         const GraftPyExpr *at)
{
  Value   *items, *best = NULL;
  gboolean want_max = strcmp (name, "max") == 0;

  if (_graft_tracer_n_args (args) == 0)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "%s expected at least 1 argument", name);
  if (_graft_tracer_n_args (args) == 1)
    {
      items = iterate_any_order (t, _graft_tracer_arg (args, 0), at);
      if (items == NULL)
        return NULL;
    }
  else
    {
      items = _graft_value_seq (t, VAL_LIST, 0);
      for (guint i = 0; i < args->len; i++)
        _graft_value_seq_add (items, args->pdata[i]);
    }
  for (guint i = 0; i < items->seq.items->len; i++)
    {
      Value *v = items->seq.items->pdata[i];
      Value *cmp;

      if (_graft_value_holds_proxy (v))
        return _graft_tracer_proxy_needs_value (t, want_max ? "max()" : "min()", at);
      if (best == NULL)
        {
          best = v;
          continue;
        }
      cmp = _graft_tracer_compare (t, want_max ? GRAFT_PY_CMP_GT : GRAFT_PY_CMP_LT, v, best, at);
      if (cmp == NULL)
        return NULL;
      if (cmp->kind == VAL_BOOL && cmp->b)
        best = v;
    }
  if (best == NULL)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "%s() arg is an empty sequence", name);
  return best;
}

static int
sort_compare (Tracer            *t,
              Value             *a,
              Value             *b,
              const GraftPyExpr *at)
{
  Value *lt = _graft_tracer_compare (t, GRAFT_PY_CMP_LT, a, b, at);

  if (lt == NULL)
    return 0;
  if (lt->kind == VAL_BOOL && lt->b)
    return -1;
  lt = _graft_tracer_compare (t, GRAFT_PY_CMP_LT, b, a, at);
  if (lt != NULL && lt->kind == VAL_BOOL && lt->b)
    return 1;
  return 0;
}

static Value *
sorted_list (Tracer            *t,
             Value             *items,
             gboolean           reverse,
             const GraftPyExpr *at)
{
  Value *out = _graft_value_seq (t, VAL_LIST, 0);

  /* A stable insertion sort: lists in model code are short. */
  for (guint i = 0; i < items->seq.items->len; i++)
    {
      Value *v = items->seq.items->pdata[i];
      guint  pos = out->seq.items->len;

      if (_graft_value_holds_proxy (v))
        return _graft_tracer_proxy_needs_value (t, "sorting", at);
      while (pos > 0)
        {
          int c = sort_compare (t, out->seq.items->pdata[pos - 1], v, at);

          if (t->error != NULL)
            return NULL;
          if (reverse ? c >= 0 : c <= 0)
            break;
          pos--;
        }
      _graft_vec_insert (out->seq.items, pos, v);
    }
  return out;
}

/* One call of a builtin, as each builtin's function gets it.  All fields
 * are borrowed from the caller. */
typedef struct
{
  Tracer            *t;
  const char        *name;   /* the builtin's name: one function serves `int` and `float` */
  PtrVec            *args;   /* positional arguments, or NULL */
  StrMap            *kwargs; /* keyword arguments, or NULL */
  const GraftPyExpr *at;     /* the call, for errors */
} BuiltinCall;

static Value *
call_set (const BuiltinCall *call)
{
  return _graft_tracer_make_set (call->t, call->name, call->args, call->kwargs, call->at);
}

static Value *
call_len (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;

  return _graft_tracer_check_arity (t, name, args, 1, 1, at)
             ? builtin_len (t, _graft_tracer_arg (args, 0), at)
             : NULL;
}

static Value *
call_range (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;

  return builtin_range (t, args, at);
}

static Value *
call_print (const BuiltinCall *call)
{
  return _graft_value_none ();
}

static Value *
call_int_float (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;

  if (_graft_tracer_n_args (args) == 0)
    return strcmp (name, "int") == 0 ? _graft_value_int (t, 0) : _graft_value_float (t, 0);
  return _graft_tracer_check_arity (t, name, args, 1, 1, at)
             ? to_number (t, name, _graft_tracer_arg (args, 0), at)
             : NULL;
}

static Value *
call_bool (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;
  gboolean           truth;

  if (_graft_tracer_n_args (args) == 0)
    return _graft_value_bool (FALSE);
  if (!_graft_tracer_check_arity (t, name, args, 1, 1, at))
    return NULL;
  if (_graft_value_is_proxy (_graft_tracer_arg (args, 0)))
    return _graft_tracer_proxy_needs_value (t, "bool()", at);
  return _graft_tracer_truth (t, _graft_tracer_arg (args, 0), at, &truth)
             ? _graft_value_bool (truth)
             : NULL;
}

static Value *
call_str_repr (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;
  g_autoptr (GString) s = g_string_new (NULL);

  if (_graft_tracer_n_args (args) == 0)
    return _graft_value_str (t, "", 0);
  if (!_graft_tracer_check_arity (t, name, args, 1, 1, at))
    return NULL;
  /* A proxy's own __repr__ needs no value: `Proxy(x)`. */
  if (_graft_value_is_proxy (_graft_tracer_arg (args, 0)))
    return _graft_tracer_append_proxy_repr (t, s, _graft_tracer_arg (args, 0))
               ? _graft_value_str (t, s->str, s->len)
               : NULL;
  if (_graft_value_holds_proxy (_graft_tracer_arg (args, 0)))
    return _graft_tracer_proxy_needs_value (t, "converting to a string", at);
  if (_graft_tracer_arg (args, 0)->kind == VAL_PATH_FN &&
      g_str_has_prefix (_graft_tracer_arg (args, 0)->path, "torch.ops.") &&
      _graft_tracer_op_path_append_str (t, _graft_tracer_arg (args, 0)->path, name[0] == 'r', s))
    return _graft_value_str (t, s->str, s->len);
  if (!_graft_tracer_check_printable (t, _graft_tracer_arg (args, 0),
                                      name[0] == 'r' ? "repr()" : "str()", at))
    return NULL;
  _graft_value_append_str (s, _graft_tracer_arg (args, 0), name[0] == 'r');
  return _graft_value_str (t, s->str, s->len);
}

static Value *
call_abs (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;
  Value             *v;

  if (!_graft_tracer_check_arity (t, name, args, 1, 1, at))
    return NULL;
  v = _graft_tracer_arg (args, 0);
  /* torch 2.6's Proxy has __abs__: a call of operator.abs, named `abs`. */
  if (_graft_value_is_proxy (v) && t->dialect->traces_extra_values)
    return _graft_tracer_make_node (t, GRAFT_OP_CALL_FUNCTION, "operator.abs", args, NULL, "abs",
                                    at);
  if (_graft_value_is_proxy (v))
    return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                  "abs() of a traced value is not recorded by torch.fx (bad "
                                  "operand type for abs(): 'Proxy'); "
                                  "use torch.abs or x.abs()");
  if (v->kind == VAL_INT)
    return v->i < 0 ? _graft_tracer_unary (t, GRAFT_PY_UNARY_NEG, v, at) : v;
  if (v->kind == VAL_BOOL)
    return _graft_value_int (t, v->b);
  if (v->kind == VAL_FLOAT)
    return _graft_value_float (t, fabs (v->f));
  if (_graft_value_is_bigint (v))
    return _graft_tracer_bigint_negate (t, v, FALSE, at);
  if (v->kind == VAL_TENSOR || v->kind == VAL_PARAMETER)
    return _graft_value_tensor (t);
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                             "TypeError: bad operand type for abs(): '%s'",
                             _graft_value_type_name (v));
}

static Value *
call_min_max (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;

  return min_max (t, name, args, at);
}

static Value *
call_sum (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  StrMap            *kwargs = call->kwargs;
  const GraftPyExpr *at = call->at;
  Value             *v;
  Value             *items;

  if (!_graft_tracer_check_arity (t, name, args, 1, 2, at))
    return NULL;
  v = _graft_tracer_n_args (args) == 2              ? _graft_tracer_arg (args, 1)
      : _graft_strmap_get (kwargs, "start") != NULL ? _graft_strmap_get (kwargs, "start")
                                                    : _graft_value_int (t, 0);
  if (_graft_tracer_arg (args, 0)->kind == VAL_ITER)
    {
      /* Each item added as it is taken: a generator's nodes interleave
       * with the additions. */
      for (;;)
        {
          gboolean done = FALSE;
          Value   *item = _graft_tracer_iter_next (t, _graft_tracer_arg (args, 0), at, &done);

          if (item == NULL)
            return done ? v : NULL;
          if ((v = _graft_tracer_binop (t, GRAFT_PY_BIN_ADD, v, item, at)) == NULL)
            return NULL;
        }
    }
  items = _graft_tracer_iterate (t, _graft_tracer_arg (args, 0), at);
  if (items == NULL)
    return NULL;
  for (guint i = 0; i < items->seq.items->len && v != NULL; i++)
    v = _graft_tracer_binop (t, GRAFT_PY_BIN_ADD, v, items->seq.items->pdata[i], at);
  return v;
}

static Value *
call_round (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;
  Value             *v;
  gint64             digits = 0;
  double             f, scale, r;

  if (!_graft_tracer_check_arity (t, name, args, 1, 2, at))
    return NULL;
  v = _graft_tracer_arg (args, 0);
  if (_graft_value_is_proxy (v))
    return _graft_tracer_proxy_needs_value (t, "round()", at);
  if (_graft_tracer_n_args (args) == 2 && _graft_tracer_arg (args, 1)->kind != VAL_NONE &&
      !_graft_tracer_get_int (t, _graft_tracer_arg (args, 1), &digits, at))
    return NULL;
  if (_graft_value_is_bigint (v) && digits >= 0)
    return v;
  if (v->kind == VAL_INT || v->kind == VAL_BOOL)
    {
      /* int.__round__: an int (a bool too), rounded half to even at a
       * negative number of digits. */
      gint64 i = v->kind == VAL_INT ? v->i : v->b;

      if (digits < 0 && digits > -19)
        {
          gint64 unit = 1, q, rem;

          for (gint64 k = 0; k < -digits; k++)
            unit *= 10;
          q = i / unit;
          rem = i % unit;
          if (rem < 0)
            {
              q--;
              rem += unit;
            }
          if (2 * rem > unit || (2 * rem == unit && (q & 1) != 0))
            q++;
          i = q * unit;
        }
      else if (digits <= -19)
        i = 0;
      return _graft_value_int (t, i);
    }
  if (v->kind != VAL_FLOAT)
    return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE, "round() needs a number");
  f = v->f;
  if (_graft_tracer_n_args (args) == 1 || _graft_tracer_arg (args, 1)->kind == VAL_NONE)
    {
      if (isnan (f))
        return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                      "ValueError: cannot convert float NaN to integer");
      if (isinf (f))
        return _graft_tracer_fail_at (
            t, at, GRAFT_PARSE_ERROR_TRACE,
            "OverflowError: cannot convert float infinity to integer");
      r = nearbyint (f);
      if (r >= 9223372036854775808.0 || r < -9223372036854775808.0)
        return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                      "integer overflow: Graft folds constants as 64-bit integers");
      return _graft_value_int (t, (gint64) r);
    }
  if (!isfinite (f) || f == 0.0 || digits > 330)
    return _graft_value_float (t, f);
  if (digits >= 0)
    {
      /* Python rounds the exact binary value half to even, as the C
       * library prints it. */
      char text[400];

      g_snprintf (text, sizeof text, "%.*f", (int) digits, f);
      return _graft_value_float (t, g_ascii_strtod (text, NULL));
    }
  {
    int  e10 = (int) floor (log10 (fabs (f)));
    char text[64];

    if (e10 + digits >= 0 && e10 + digits < 40)
      {
        g_snprintf (text, sizeof text, "%.*e", (int) (e10 + digits), f);
        return _graft_value_float (t, g_ascii_strtod (text, NULL));
      }
    scale = pow (10.0, (double) -digits);
    r = nearbyint (f / scale) * scale;
    return _graft_value_float (t, r == 0.0 ? copysign (0.0, f) : r);
  }
}

static Value *
call_isinstance (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;

  if (!_graft_tracer_check_arity (t, name, args, 2, 2, at))
    return NULL;
  return _graft_value_bool (
      is_instance (t, _graft_tracer_arg (args, 0), _graft_tracer_arg (args, 1)));
}

/* The name an object keeps an attribute by when its name holds NUL bytes
 * (objects keep C strings): each NUL the byte 0xff, which no other name,
 * UTF-8 text, holds. */
static const char *
nul_name_key (Tracer      *t,
              const Value *name)
{
  char *key = (char *) _graft_tracer_strdup (t, name->str.s, (gssize) name->str.len);

  for (gsize i = 0; i < name->str.len; i++)
    if (key[i] == '\0')
      key[i] = (char) 0xff;
  return key;
}

static Value *
call_hasattr_getattr (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;
  Value             *v;
  Value             *obj;
  GError            *saved;

  if (!_graft_tracer_check_arity (t, name, args, 2, strcmp (name, "getattr") == 0 ? 3 : 2, at))
    return NULL;
  obj = _graft_tracer_arg (args, 0);
  if (_graft_tracer_arg (args, 1)->kind != VAL_STR)
    return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                  "attribute name must be a string");
  if (_graft_value_is_proxy (obj))
    {
      const Value *attr = _graft_tracer_arg (args, 1);

      if (name[0] == 'h')
        return _graft_value_bool (TRUE);
      /* A name with a NUL byte keeps its length (a C string would cut it). */
      if (G_UNLIKELY (memchr (attr->str.s, '\0', attr->str.len) != NULL))
        return _graft_tracer_proxy_getattr_nul (t, obj, attr->str.s, attr->str.len);
      return _graft_tracer_getattr (t, obj, attr->str.s, at);
    }
  if (_graft_value_is_tensor (obj))
    {
      const Value *attr = _graft_tracer_arg (args, 1);
      gboolean     has = memchr (attr->str.s, '\0', attr->str.len) == NULL &&
                     _graft_tracer_tensor_attr_kind (t, attr->str.s) != TENSOR_ATTR_NONE;

      /* torch's own names (the table of the dialect): hasattr() is true
       * even where Graft does not model the value, which getattr() then
       * refuses rather than taking its default. */
      if (name[0] == 'h')
        return _graft_value_bool (has);
      if (!has && _graft_tracer_n_args (args) == 3)
        return _graft_tracer_arg (args, 2);
      if (has)
        return _graft_tracer_getattr (t, obj, attr->str.s, at);
      return _graft_tracer_raise (t, "AttributeError", at->start, at->end,
                                  "AttributeError: '%s' object has no attribute '%s'",
                                  obj->kind == VAL_PARAMETER ? "Parameter" : "Tensor",
                                  attr->str.s);
    }
  saved = t->error;
  t->error = NULL;
  /* A name with a NUL byte is kept by another (a C string would find
   * `a` for "a\x00b"): setattr() set it so. */
  if (G_UNLIKELY (memchr (_graft_tracer_arg (args, 1)->str.s, '\0',
                          _graft_tracer_arg (args, 1)->str.len) != NULL))
    v = _graft_tracer_getattr (t, obj, nul_name_key (t, _graft_tracer_arg (args, 1)), at);
  else
    v = _graft_tracer_getattr (t, obj, _graft_tracer_arg (args, 1)->str.s, at);
  if (v == NULL)
    {
      /* Python's exception other than an AttributeError goes through, and
       * getattr() without a default raises what the lookup raised. */
      if (saved == NULL && t->raised != NULL &&
          (!_graft_tracer_exception_is (t, t->raised, "AttributeError") ||
           (name[0] == 'g' && _graft_tracer_n_args (args) == 2)))
        return NULL;
      g_clear_error (&t->error);
      t->error = saved;
      t->raised = NULL;
      t->raised_args = NULL;
      if (name[0] == 'h')
        return _graft_value_bool (FALSE);
      if (_graft_tracer_n_args (args) == 3)
        return _graft_tracer_arg (args, 2);
      return _graft_tracer_fail (
          t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
          "AttributeError: '%s' object has no attribute '%s'",
          _graft_value_type_name (obj), _graft_tracer_arg (args, 1)->str.s);
    }
  t->error = saved;
  return name[0] == 'h' ? _graft_value_bool (TRUE) : v;
}

static Value *
call_setattr (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;
  const char        *attr;

  if (!_graft_tracer_check_arity (t, name, args, 3, 3, at))
    return NULL;
  if (_graft_tracer_arg (args, 1)->kind != VAL_STR)
    return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                  "attribute name must be a string");
  attr = _graft_tracer_arg (args, 1)->str.s;
  /* Objects keep their attributes by C strings: a name with a NUL byte by
   * nul_name_key()'s.  Not a module, parameter or tensor, which torch
   * registers under that name and writes into the code as a target (raw,
   * which then does not compile): only plain values. */
  if (G_UNLIKELY (memchr (attr, '\0', _graft_tracer_arg (args, 1)->str.len) != NULL))
    {
      ValueKind kind = _graft_tracer_arg (args, 2)->kind;

      if (kind == VAL_OBJECT || kind == VAL_TENSOR || kind == VAL_PARAMETER)
        return _graft_tracer_fail_at (
            t, at, GRAFT_PARSE_ERROR_UNSUPPORTED,
            "setattr() of a module, parameter or tensor by a name with a NUL byte is "
            "not supported");
      attr = nul_name_key (t, _graft_tracer_arg (args, 1));
    }
  if (!_graft_tracer_setattr (t, _graft_tracer_arg (args, 0), attr, _graft_tracer_arg (args, 2),
                              at))
    return NULL;
  return _graft_value_none ();
}

static Value *
call_list_tuple (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;
  Value             *items;
  Value             *out;

  if (_graft_tracer_n_args (args) == 0)
    return _graft_value_seq (t, name[0] == 'l' ? VAL_LIST : VAL_TUPLE, 0);
  if (!_graft_tracer_check_arity (t, name, args, 1, 1, at))
    return NULL;
  items = _graft_tracer_iterate (t, _graft_tracer_arg (args, 0), at);
  if (items == NULL)
    return NULL;
  if (name[0] == 'l')
    return items;
  out = _graft_value_seq (t, VAL_TUPLE, 0);
  for (guint i = 0; i < items->seq.items->len; i++)
    _graft_value_seq_add (out, items->seq.items->pdata[i]);
  return out;
}

/**
 * _graft_tracer_dict_update:
 *
 * Python's dict.update(@from) of @dict: a dict's items, or an iterable's
 * pairs (a 2-item sequence each, a 2-character str too), with Python's
 * TypeError and ValueError for an element that is not one.
 *
 * Returns: %FALSE on error
 */
gboolean
_graft_tracer_dict_update (Tracer            *t,
                           Value             *dict,
                           Value             *from,
                           const GraftPyExpr *at)
{
  Value *items;

  if (from->kind == VAL_DICT)
    {
      guint n = from->dict.keys->len; /* @from may be @dict */

      for (guint i = 0; i < n; i++)
        _graft_dict_set (t, dict, from->dict.keys->pdata[i], from->dict.values->pdata[i]);
      return TRUE;
    }
  items = _graft_tracer_iterate (t, from, at);
  if (items == NULL)
    return FALSE;
  for (guint i = 0; i < items->seq.items->len; i++)
    {
      Value *pair = items->seq.items->pdata[i];
      guint  len;

      if (pair->kind == VAL_STR && g_utf8_validate (pair->str.s, pair->str.len, NULL))
        {
          len = (guint) g_utf8_strlen (pair->str.s, pair->str.len);
          if (len == 2)
            {
              const char *second = g_utf8_next_char (pair->str.s);

              _graft_dict_set (t, dict, _graft_value_str (t, pair->str.s, second - pair->str.s),
                               _graft_value_str (t, second,
                                                 pair->str.s + pair->str.len - second));
              continue;
            }
        }
      else if (pair->kind == VAL_TUPLE || pair->kind == VAL_LIST)
        {
          len = pair->seq.items->len;
          if (len == 2)
            {
              _graft_dict_set (t, dict, pair->seq.items->pdata[0], pair->seq.items->pdata[1]);
              continue;
            }
        }
      else
        {
          _graft_tracer_raise (t, "TypeError", at->start, at->end,
                               "cannot convert dictionary update sequence element #%u to a "
                               "sequence",
                               i);
          return FALSE;
        }
      _graft_tracer_raise (t, "ValueError", at->start, at->end,
                           "dictionary update sequence element #%u has length %u; 2 is required",
                           i, len);
      return FALSE;
    }
  return TRUE;
}

static Value *
call_dict (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  PtrVec            *args = call->args;
  StrMap            *kwargs = call->kwargs;
  const GraftPyExpr *at = call->at;
  Value             *v;
  Value             *out;

  out = _graft_value_dict (t);
  if (_graft_tracer_n_args (args) == 1)
    {
      v = _graft_tracer_arg (args, 0);
      if (!_graft_tracer_dict_update (t, out, v, at))
        return NULL;
    }
  for (guint i = 0; kwargs != NULL && i < kwargs->keys->len; i++)
    _graft_dict_set (t, out, _graft_value_str (t, kwargs->keys->pdata[i], -1),
                     kwargs->values->pdata[i]);
  return out;
}

static Value *
call_enumerate (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  StrMap            *kwargs = call->kwargs;
  const GraftPyExpr *at = call->at;
  LazyIter          *lazy;
  gint64             start = 0;

  if (!_graft_tracer_check_arity (t, name, args, 1, 2, at))
    return NULL;
  if (_graft_tracer_n_args (args) == 2 &&
      !_graft_tracer_get_int (t, _graft_tracer_arg (args, 1), &start, at))
    return NULL;
  if (_graft_strmap_get (kwargs, "start") != NULL &&
      !_graft_tracer_get_int (t, _graft_strmap_get (kwargs, "start"), &start, at))
    return NULL;
  /* An iterator that counts its argument's items as they are made. */
  lazy = _graft_tracer_alloc (t, sizeof (LazyIter));
  *lazy = (LazyIter){ .what = 'e', .n_parts = 1, .start = start };
  lazy->parts = _graft_tracer_alloc (t, sizeof (LazyIter));
  lazy->parts[0] = (LazyIter){ 0 };
  lazy->lists = _graft_tracer_alloc (t, sizeof (Value *));
  lazy->lists[0] = _graft_tracer_value_items (t, _graft_tracer_arg (args, 0), at, &lazy->parts[0]);
  if (lazy->lists[0] == NULL)
    return NULL;
  return _graft_value_iter (t, _graft_tracer_zip_items (t, lazy), lazy, "enumerate");
}

/* zip(a, b, ...): the items as Python's zip takes them, each argument's
 * next item in turn, so ParameterLists make their get_attr nodes
 * interleaved, and the arguments before the shortest one more at the end
 * (_graft_tracer_loop_end()). */
static Value *
call_zip (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;
  guint              n = _graft_tracer_n_args (args);
  LazyIter           zl = { .what = 'z', .n_parts = n, .len = G_MAXUINT };
  LazyIter          *lazy;
  Value             *out;

  zl.parts = _graft_tracer_alloc (t, MAX (n, 1) * sizeof (LazyIter));
  zl.lists = _graft_tracer_alloc (t, MAX (n, 1) * sizeof (Value *));
  for (guint i = 0; i < n; i++)
    {
      zl.parts[i] = (LazyIter){ 0 };
      zl.lists[i] = _graft_tracer_value_items (t, _graft_tracer_arg (args, i), at, &zl.parts[i]);
      if (zl.lists[i] == NULL)
        return NULL;
    }
  if (n == 0)
    return _graft_value_iter (t, _graft_value_seq (t, VAL_LIST, 0), NULL, "zip");
  out = _graft_tracer_zip_items (t, &zl);
  lazy = _graft_tracer_alloc (t, sizeof (LazyIter));
  *lazy = zl;
  return _graft_value_iter (t, out, lazy, "zip");
}

/* type(v): the class of @v, as the value its name evaluates to, so that
 * `type(n) is int` holds; a traced value's is torch.fx's Proxy (what a
 * program sees of it while tracing). */
static Value *
call_type (const BuiltinCall *call)
{
  Tracer *t = call->t;

  if (_graft_tracer_n_args (call->args) == 3)
    return _graft_tracer_fail (t, call->at->start, call->at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "type(name, bases, dict) is not supported by Graft's tracer");
  if (!_graft_tracer_check_arity (t, call->name, call->args, 1, 1, call->at))
    return NULL;
  return _graft_tracer_type_of (t, _graft_tracer_arg (call->args, 0), call->at);
}

/**
 * _graft_tracer_type_of:
 *
 * Python's type(@v) (also its `v.__class__`).
 *
 * Returns: the class, or %NULL on error (reported at @at)
 */
Value *
_graft_tracer_type_of (Tracer            *t,
                       Value             *v,
                       const GraftPyExpr *at)
{
  Value      *file_cls;
  const char *builtin = NULL;

  if (_graft_value_is_proxy (v))
    return _graft_value_path (t, VAL_TYPE, "torch.fx.proxy.Proxy");
  if (v->kind == VAL_NONE)
    return _graft_value_path (t, VAL_TYPE, "NoneType");
  if (v->kind == VAL_TENSOR)
    return _graft_value_path (t, VAL_TYPE, "torch.Tensor");
  if (v->kind == VAL_BOOL)
    builtin = "bool";
  else if (v->kind == VAL_INT || _graft_value_is_bigint (v))
    builtin = "int";
  else if (v->kind == VAL_FLOAT)
    builtin = "float";
  else if (v->kind == VAL_COMPLEX)
    builtin = "complex";
  else if (v->kind == VAL_STR)
    builtin = "str";
  else if (v->kind == VAL_TUPLE && v->seq.size)
    return _graft_value_path (t, VAL_TYPE, "torch.Size");
  else if (v->kind == VAL_TUPLE)
    builtin = "tuple";
  else if (v->kind == VAL_LIST)
    builtin = v->seq.range != NULL ? "range" : "list";
  else if (v->kind == VAL_DICT)
    builtin = "dict";
  else if (v->kind == VAL_SLICE)
    builtin = "slice";
  else if (v->kind == VAL_SET)
    builtin = v->seq.size ? "frozenset" : "set";
  else if (v->kind == VAL_ITER && (strcmp (v->iter.lazy->type_name, "zip") == 0 ||
                                   strcmp (v->iter.lazy->type_name, "enumerate") == 0))
    builtin = v->iter.lazy->type_name; /* the classes the builtins are */
  if (builtin != NULL)
    return _graft_value_path (t, VAL_BUILTIN, builtin);
  if (v->kind == VAL_OBJECT && v->obj->exception != NULL)
    {
      if (strcmp (v->obj->exception, "TraceError") == 0)
        return _graft_value_path (t, VAL_TYPE, "torch.fx.proxy.TraceError");
      if (g_ascii_isupper (v->obj->exception[0]) && _graft_value_builtin_class (v->obj->exception))
        return _graft_value_path (t, VAL_BUILTIN, v->obj->exception);
      if ((file_cls = _graft_tracer_file_exception_class (t, v->obj->exception)) != NULL)
        return file_cls;
      return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                 "type() of an exception of the class '%s' is not modelled by "
                                 "Graft's tracer",
                                 v->obj->exception);
    }
  if (v->kind == VAL_OBJECT && v->obj->cls != NULL)
    {
      Value *cls = _graft_value_new (t, VAL_CLASS);

      cls->cls = v->obj->cls;
      return cls;
    }
  if (v->kind == VAL_OBJECT && v->obj->kind != OBJ_PLAIN && v->obj->kind != OBJ_USER_MODULE)
    return _graft_value_path (t, VAL_NN_CLASS,
                              _graft_tracer_printf (t, "torch.nn.%s", v->obj->class_name));
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "type() of a %s is not modelled by Graft's tracer",
                             _graft_value_type_name (v));
}

/* Python's callable(v). */
static gboolean
value_is_callable (const Value *v)
{
  return v->kind == VAL_FUNCTION || v->kind == VAL_BOUND || v->kind == VAL_BUILTIN ||
         v->kind == VAL_PATH_FN || v->kind == VAL_CLASS || v->kind == VAL_NN_CLASS ||
         v->kind == VAL_METHOD || (v->kind == VAL_OBJECT && v->obj->kind != OBJ_PLAIN);
}

/* iter(x): an iterator over x; iter(callable, sentinel): a
 * callable_iterator, which calls it as next() reaches it. */
static Value *
call_iter (const BuiltinCall *call)
{
  Tracer *t = call->t;

  if (!_graft_tracer_check_arity (t, call->name, call->args, 1, 2, call->at))
    return NULL;
  if (_graft_tracer_n_args (call->args) == 2)
    {
      Value    *fn = _graft_tracer_arg (call->args, 0);
      LazyIter *lazy;

      if (!value_is_callable (fn))
        return _graft_tracer_fail (t, call->at->start, call->at->end, GRAFT_PARSE_ERROR_TRACE,
                                   "TypeError: iter(v, w): v must be callable");
      lazy = _graft_tracer_alloc (t, sizeof (LazyIter));
      *lazy = (LazyIter){ 0 };
      lazy->what = 'c';
      lazy->container = fn;
      lazy->sentinel = _graft_tracer_arg (call->args, 1);
      return _graft_value_iter (t, _graft_value_seq (t, VAL_LIST, 0), lazy, "callable_iterator");
    }
  return _graft_tracer_make_iter (t, _graft_tracer_arg (call->args, 0), call->at);
}

/* next(it[, default]): Python's StopIteration at the end, which a handler
 * can catch. */
static Value *
call_next (const BuiltinCall *call)
{
  Tracer  *t = call->t;
  Value   *it, *item;
  gboolean done = FALSE;

  if (!_graft_tracer_check_arity (t, call->name, call->args, 1, 2, call->at))
    return NULL;
  it = _graft_tracer_arg (call->args, 0);
  if (it->kind != VAL_ITER)
    return _graft_tracer_fail (t, call->at->start, call->at->end, GRAFT_PARSE_ERROR_TRACE,
                               "TypeError: '%s' object is not an iterator",
                               _graft_value_type_name (it));
  item = _graft_tracer_iter_next (t, it, call->at, &done);
  if (item != NULL || !done)
    return item;
  if (_graft_tracer_n_args (call->args) == 2)
    return _graft_tracer_arg (call->args, 1);
  _graft_tracer_fail (t, call->at->start, call->at->end, GRAFT_PARSE_ERROR_TRACE,
                      "the iterator has no item left (StopIteration)");
  t->raised = "StopIteration";
  return NULL;
}

static Value *
call_reversed_sorted (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  StrMap            *kwargs = call->kwargs;
  const GraftPyExpr *at = call->at;
  Value             *items;
  Value             *out;

  if (!_graft_tracer_check_arity (t, name, args, 1, 1, at))
    return NULL;
  if (name[0] == 'r' && _graft_tracer_arg (args, 0)->kind == VAL_LIST &&
      _graft_tracer_arg (args, 0)->seq.range == NULL)
    {
      /* Python's list_reverseiterator: from the last item back, reading
       * the list as it stands at each next(). */
      LazyIter *lazy = _graft_tracer_alloc (t, sizeof (LazyIter));

      *lazy = (LazyIter){ .what = 'R', .len = _graft_tracer_arg (args, 0)->seq.items->len };
      return _graft_value_iter (t, _graft_tracer_arg (args, 0), lazy, "list_reverseiterator");
    }
  items = name[0] == 's' ? iterate_any_order (t, _graft_tracer_arg (args, 0), at)
                         : _graft_tracer_iterate (t, _graft_tracer_arg (args, 0), at);
  if (items == NULL)
    return NULL;
  if (name[0] == 's')
    {
      Value *rev = _graft_strmap_get (kwargs, "reverse");

      return sorted_list (t, items, rev != NULL && rev->kind == VAL_BOOL && rev->b, at);
    }
  out = _graft_value_seq (t, VAL_LIST, 0);
  for (guint i = items->seq.items->len; i > 0; i--)
    _graft_value_seq_add (out, items->seq.items->pdata[i - 1]);
  return out;
}

static Value *
call_any_all (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;
  Value             *items, *it;
  gboolean           truth;
  gboolean           want_any = name[1] == 'n';

  if (!_graft_tracer_check_arity (t, name, args, 1, 1, at))
    return NULL;
  it = _graft_tracer_arg (args, 0);
  items = it->kind == VAL_ITER ? NULL : iterate_any_order (t, it, at);
  if (items == NULL && it->kind != VAL_ITER)
    return NULL;
  /* An iterator is taken an item at a time, up to the first that
   * decides (a generator runs no further). */
  for (guint i = 0; items == NULL || i < items->seq.items->len; i++)
    {
      gboolean done = FALSE;
      Value   *item = items != NULL ? items->seq.items->pdata[i]
                                    : _graft_tracer_iter_next (t, it, at, &done);

      if (item == NULL && done)
        break;
      if (item == NULL)
        return NULL;
      if (_graft_value_is_proxy (item))
        return _graft_tracer_proxy_needs_value (t, want_any ? "any()" : "all()", at);
      if (!_graft_tracer_truth (t, item, at, &truth))
        return NULL;
      if (truth == want_any)
        return _graft_value_bool (want_any);
    }
  return _graft_value_bool (!want_any);
}

static Value *
call_map_filter (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;
  LazyIter          *lazy;

  guint n = _graft_tracer_n_args (args);

  if (name[0] == 'm' && n < 2)
    return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                  "TypeError: map() must have at least two arguments.");
  if (name[0] != 'm' && !_graft_tracer_check_arity (t, name, args, 2, 2, at))
    return NULL;
  /* Python's map and filter are iterators that call the function as each
   * item is asked for, reading their argument through its iterator (made
   * now, as Python makes it): a second list() of one is empty, a list
   * appended to before it is read is read as it then stands, and the
   * nodes the calls make come where the items are taken. */
  lazy = _graft_tracer_alloc (t, sizeof (LazyIter));
  *lazy = (LazyIter){ .what = name[0] == 'm' ? 'M' : 'F', .n_parts = n - 1 };
  lazy->container = _graft_tracer_arg (args, 0);
  lazy->lists = _graft_tracer_alloc (t, (n - 1) * sizeof (Value *));
  for (guint i = 1; i < n; i++)
    if ((lazy->lists[i - 1] = _graft_tracer_make_iter (t, _graft_tracer_arg (args, i), at)) == NULL)
      return NULL;
  return _graft_value_iter (t, _graft_value_seq (t, VAL_LIST, 0), lazy,
                            name[0] == 'm' ? "map" : "filter");
}

/* pow(base, exp, mod) of ints, the result taking mod's sign. */
static Value *
call_pow_mod (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;
  gint64             b, e, m;
  __int128           r = 1, base;

  if (_graft_tracer_arg (args, 0)->kind != VAL_INT ||
      _graft_tracer_arg (args, 1)->kind != VAL_INT ||
      _graft_tracer_arg (args, 2)->kind != VAL_INT)
    return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                  "TypeError: pow() 3rd argument not allowed unless all arguments "
                                  "are integers");
  b = _graft_tracer_arg (args, 0)->i;
  e = _graft_tracer_arg (args, 1)->i;
  m = _graft_tracer_arg (args, 2)->i;
  if (m == 0)
    return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                  "ValueError: pow() 3rd argument cannot be 0");
  if (e < 0)
    return _graft_tracer_fail_at (
        t, at, GRAFT_PARSE_ERROR_UNSUPPORTED,
        "pow() with a negative exponent and a modulus is not folded by Graft");
  {
    __int128 mm = m < 0 ? -(__int128) m : m;

    base = ((__int128) b % mm + mm) % mm;
    for (; e > 0; e >>= 1)
      {
        if (e & 1)
          r = r * base % mm;
        base = base * base % mm;
      }
    r %= mm;
    if (m < 0 && r != 0)
      r -= mm;
  }
  return _graft_value_int (t, (gint64) r);
}

static Value *
call_divmod_pow (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;
  Value             *v;
  Value             *out;

  if (!_graft_tracer_check_arity (t, name, args, 2, 2, at))
    return NULL;
  if (name[0] == 'p')
    return _graft_tracer_binop (t, GRAFT_PY_BIN_POW, _graft_tracer_arg (args, 0),
                                _graft_tracer_arg (args, 1), at);
  /* Proxy has no __divmod__: torch.fx records nothing, Python fails. */
  if (_graft_value_is_proxy (_graft_tracer_arg (args, 0)) ||
      _graft_value_is_proxy (_graft_tracer_arg (args, 1)))
    return _graft_tracer_fail (
        t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
        "TypeError: unsupported operand type(s) for divmod(): '%s' and '%s'",
        _graft_value_is_proxy (_graft_tracer_arg (args, 0))
            ? "Proxy"
            : _graft_value_type_name (_graft_tracer_arg (args, 0)),
        _graft_value_is_proxy (_graft_tracer_arg (args, 1))
            ? "Proxy"
            : _graft_value_type_name (_graft_tracer_arg (args, 1)));
  out = _graft_value_seq (t, VAL_TUPLE, 2);
  v = _graft_tracer_binop_as (t, GRAFT_PY_BIN_FLOORDIV, _graft_tracer_arg (args, 0),
                              _graft_tracer_arg (args, 1), "divmod()", at);
  if (v == NULL)
    return NULL;
  _graft_value_seq_add (out, v);
  v = _graft_tracer_binop (t, GRAFT_PY_BIN_MOD, _graft_tracer_arg (args, 0),
                           _graft_tracer_arg (args, 1), at);
  if (v == NULL)
    return NULL;
  _graft_value_seq_add (out, v);
  return out;
}

static Value *
call_pow (const BuiltinCall *call)
{
  if (_graft_tracer_n_args (call->args) == 3)
    return call_pow_mod (call);
  return call_divmod_pow (call);
}

static Value *
call_slice (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;
  Value             *v;

  if (!_graft_tracer_check_arity (t, name, args, 1, 3, at))
    return NULL;
  v = _graft_value_new (t, VAL_SLICE);
  if (_graft_tracer_n_args (args) == 1)
    {
      v->slice.start = _graft_value_none ();
      v->slice.stop = _graft_tracer_arg (args, 0);
      v->slice.step = _graft_value_none ();
    }
  else
    {
      v->slice.start = _graft_tracer_arg (args, 0);
      v->slice.stop = _graft_tracer_arg (args, 1);
      v->slice.step =
          _graft_tracer_n_args (args) == 3 ? _graft_tracer_arg (args, 2) : _graft_value_none ();
    }
  return v;
}

static Value *
call_callable (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;
  Value             *v;

  if (!_graft_tracer_check_arity (t, name, args, 1, 1, at))
    return NULL;
  v = _graft_tracer_arg (args, 0);
  return _graft_value_bool (value_is_callable (v));
}

static Value *
call_super (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;
  Value             *v;

  if (_graft_tracer_n_args (args) != 2 || _graft_tracer_arg (args, 0)->kind != VAL_CLASS)
    return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                  "super() takes no arguments or a class and an instance");
  v = _graft_value_new (t, VAL_SUPER);
  v->super.self = _graft_tracer_arg (args, 1);
  v->super.after = _graft_tracer_arg (args, 0)->cls;
  return v;
}

static Value *
call_chr_ord (const BuiltinCall *call)
{
  Tracer            *t = call->t;
  const char        *name = call->name;
  PtrVec            *args = call->args;
  const GraftPyExpr *at = call->at;
  Value             *v;

  if (!_graft_tracer_check_arity (t, name, args, 1, 1, at))
    return NULL;
  v = _graft_tracer_arg (args, 0);
  if (name[0] == 'c')
    {
      gint64 c = 0;
      char   buf[8];
      int    len;

      if (!_graft_tracer_get_int (t, v, &c, at))
        return NULL;
      if (c < 0 || c > 0x10FFFF)
        return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE,
                                      "ValueError: chr() arg not in range(0x110000)");
      len = g_unichar_to_utf8 ((gunichar) c, buf);
      return _graft_value_str (t, buf, len);
    }
  if (v->kind != VAL_STR || str_length (v) != 1)
    return _graft_tracer_fail_at (t, at, GRAFT_PARSE_ERROR_TRACE, "ord() expected a character");
  return _graft_value_int (t, g_utf8_get_char (v->str.s));
}

/* The builtins Graft runs, by name.  Any other name of builtin_names is an
 * exception class (called to be raised) or not supported. */
static const struct
{
  const char *name;
  Value *(*call) (const BuiltinCall *call);
  /* The keywords it takes, space-separated; "*": it checks them itself;
   * NULL: none (`sorted(x, key=f)` is refused, never run without f). */
  const char *keywords;
} builtin_calls[] = {
  { "len", call_len, NULL },
  { "range", call_range, NULL },
  { "print", call_print, "sep end file flush" },
  { "int", call_int_float, NULL },
  { "float", call_int_float, NULL },
  { "bool", call_bool, NULL },
  { "str", call_str_repr, NULL },
  { "repr", call_str_repr, NULL },
  { "abs", call_abs, NULL },
  { "min", call_min_max, NULL },
  { "max", call_min_max, NULL },
  { "sum", call_sum, "start" },
  { "round", call_round, NULL },
  { "isinstance", call_isinstance, NULL },
  { "hasattr", call_hasattr_getattr, NULL },
  { "getattr", call_hasattr_getattr, NULL },
  { "setattr", call_setattr, NULL },
  { "list", call_list_tuple, NULL },
  { "tuple", call_list_tuple, NULL },
  { "dict", call_dict, "*" },
  { "enumerate", call_enumerate, "start" },
  { "zip", call_zip, NULL },
  { "iter", call_iter, NULL },
  { "type", call_type, NULL },
  { "next", call_next, NULL },
  { "reversed", call_reversed_sorted, NULL },
  { "sorted", call_reversed_sorted, "reverse" },
  { "any", call_any_all, NULL },
  { "all", call_any_all, NULL },
  { "map", call_map_filter, NULL },
  { "filter", call_map_filter, NULL },
  { "pow", call_pow, NULL },
  { "divmod", call_divmod_pow, NULL },
  { "slice", call_slice, NULL },
  { "callable", call_callable, NULL },
  { "super", call_super, NULL },
  { "chr", call_chr_ord, NULL },
  { "ord", call_chr_ord, NULL },
  { "set", call_set, "*" },
  { "frozenset", call_set, "*" },
};

/**
 * _graft_tracer_call_builtin:
 *
 * Calls a Python builtin by name.
 */
Value *
_graft_tracer_call_builtin (Tracer            *t,
                            const char        *name,
                            PtrVec            *args,
                            StrMap            *kwargs,
                            const GraftPyExpr *at)
{
  BuiltinCall call = { t, name, args, kwargs, at };

  for (guint i = 0; i < G_N_ELEMENTS (builtin_calls); i++)
    if (builtin_calls[i].name[0] == name[0] && strcmp (builtin_calls[i].name, name) == 0)
      {
        const char *keywords = builtin_calls[i].keywords;

        for (guint k = 0; kwargs != NULL && k < kwargs->keys->len; k++)
          {
            const char *key = kwargs->keys->pdata[k];
            g_auto (GStrv) known = g_strsplit (keywords != NULL ? keywords : "", " ", -1);

            if (g_strcmp0 (keywords, "*") != 0 &&
                !g_strv_contains ((const char *const *) known, key))
              return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                         "the keyword argument '%s' of %s() is not modelled by "
                                         "Graft's tracer",
                                         key, name);
          }
        return builtin_calls[i].call (&call);
      }
  if (g_ascii_isupper (name[0]))
    {
      /* Calling an exception class makes an exception; raising it is what
       * stops the trace. */
      return _graft_tracer_new_exception (t, name, args, kwargs, at);
    }
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "the builtin %s() is not supported by Graft's tracer", name);
}
