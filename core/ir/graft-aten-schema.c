/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-aten-schema.c: the aten operator schemas of graft-aten-schema.inc.
 *
 * The table holds offsets, not pointers, so it is read-only data with no
 * relocations: a string pool, the distinct argument and return rows, an
 * index of row numbers and one line per operator, sorted by `NAME.OVERLOAD`
 * so that a lookup bisects (12 string comparisons for ~3800 operators),
 * each with its flags (whether the schema is mutable among them), and the
 * sorted targets of the mutable overloads of the other namespaces.
 * Argument defaults are parsed from their Python reprs the first time any
 * is asked for, once per distinct argument row, and kept for the life of
 * the program.
 */
#include "config.h"

#include "graft-aten-schema.h"
#include "graft-arg.h"

#include <math.h>
#include <string.h>

#define GRAFT_ATEN_KWARG_ONLY  (1u << 0)
#define GRAFT_ATEN_HAS_DEFAULT (1u << 1)
#define GRAFT_ATEN_VARARG      (1u << 0)
#define GRAFT_ATEN_VARRET      (1u << 1)
#define GRAFT_ATEN_MUTABLE     (1u << 2)

/* The prefix of an OpOverload's call_function target as Graft stores it. */
#define OPS_PREFIX  "torch.ops."
#define ATEN_PREFIX OPS_PREFIX "aten."

static const char pool[] =
#define GRAFT_ATEN_STRING_POOL
#include "graft-aten-schema.inc"
#undef GRAFT_ATEN_STRING_POOL
    ;

typedef struct
{
  guint32 name_at;
  guint32 type_at;
  guint32 default_at;
  guint32 flags;
} ArgumentRow;

static const ArgumentRow argument_rows[] = {
#define GRAFT_ATEN_ARGUMENT(name, type, dflt, flags) { name, type, dflt, flags },
#include "graft-aten-schema.inc"
#undef GRAFT_ATEN_ARGUMENT
};

typedef struct
{
  guint32 name_at;
  guint32 type_at;
} ReturnRow;

static const ReturnRow return_rows[] = {
#define GRAFT_ATEN_RETURN(name, type) { name, type },
#include "graft-aten-schema.inc"
#undef GRAFT_ATEN_RETURN
};

G_STATIC_ASSERT (G_N_ELEMENTS (argument_rows) <= G_MAXUINT16);
G_STATIC_ASSERT (G_N_ELEMENTS (return_rows) <= G_MAXUINT16);

static const guint16 row_index[] = {
#define GRAFT_ATEN_INDEX
#include "graft-aten-schema.inc"
#undef GRAFT_ATEN_INDEX
};

struct _GraftAtenSchema
{
  guint32 target_at;
  guint32 first_arg;
  guint16 n_args;
  guint16 n_rets;
  guint32 first_ret;
  guint32 flags;
};

static const GraftAtenSchema operators[] = {
#define GRAFT_ATEN_OPERATOR(target, first_arg, n_args, first_ret, n_rets, flags) \
  { target, first_arg, n_args, n_rets, first_ret, flags },
#include "graft-aten-schema.inc"
#undef GRAFT_ATEN_OPERATOR
};

/* The mutable OpOverloads of the other namespaces, `NS.NAME.OVERLOAD`, sorted. */
static const guint32 mutable_elsewhere[] = {
#define GRAFT_ATEN_MUTABLE_ELSEWHERE(target) target,
#include "graft-aten-schema.inc"
#undef GRAFT_ATEN_MUTABLE_ELSEWHERE
};

/**
 * graft_aten_schema_lookup:
 * @target: a call_function target as Graft stores it, `torch.ops.aten.add.Tensor`
 *   or `torch.ops.aten.relu.default`
 *
 * Returns: (nullable): the schema of that OpOverload, or %NULL when @target
 *   names none (another namespace, a packet such as `torch.ops.aten.add`, an
 *   unknown overload)
 */
const GraftAtenSchema *
graft_aten_schema_lookup (const char *target)
{
  gsize lo = 0;
  gsize hi = G_N_ELEMENTS (operators);

  g_return_val_if_fail (target != NULL, NULL);

  if (strncmp (target, ATEN_PREFIX, strlen (ATEN_PREFIX)) != 0)
    return NULL;
  target += strlen (ATEN_PREFIX);
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      int   cmp = strcmp (target, pool + operators[mid].target_at);

      if (cmp == 0)
        return &operators[mid];
      if (cmp < 0)
        hi = mid;
      else
        lo = mid + 1;
    }
  return NULL;
}

/**
 * graft_aten_schema_count:
 *
 * Returns: how many operators the table holds
 */
guint
graft_aten_schema_count (void)
{
  return G_N_ELEMENTS (operators);
}

/**
 * graft_aten_schema_get_nth:
 * @index: below graft_aten_schema_count()
 *
 * Returns: the schema at @index, in the table's (byte) order of names
 */
const GraftAtenSchema *
graft_aten_schema_get_nth (guint index)
{
  g_return_val_if_fail (index < G_N_ELEMENTS (operators), NULL);

  return &operators[index];
}

/**
 * graft_aten_schema_get_name:
 *
 * Returns: `NAME.OVERLOAD` (`add.Tensor`, `relu.default`): the target without
 *   its `torch.ops.aten.` prefix
 */
const char *
graft_aten_schema_get_name (const GraftAtenSchema *schema)
{
  g_return_val_if_fail (schema != NULL, NULL);

  return pool + schema->target_at;
}

guint
graft_aten_schema_get_n_arguments (const GraftAtenSchema *schema)
{
  g_return_val_if_fail (schema != NULL, 0);

  return schema->n_args;
}

static const ArgumentRow *
argument_row (const GraftAtenSchema *schema,
              guint                  i)
{
  return &argument_rows[row_index[schema->first_arg + i]];
}

/**
 * graft_aten_schema_get_argument:
 * @out: (out caller-allocates): filled with argument @i's static texts
 */
void
graft_aten_schema_get_argument (const GraftAtenSchema *schema,
                                guint                  i,
                                GraftAtenArgument     *out)
{
  const ArgumentRow *row;

  g_return_if_fail (schema != NULL && out != NULL);
  g_return_if_fail (i < schema->n_args);

  row = argument_row (schema, i);
  out->name = pool + row->name_at;
  out->type = pool + row->type_at;
  out->default_repr = (row->flags & GRAFT_ATEN_HAS_DEFAULT) != 0 ? pool + row->default_at : NULL;
  out->kwarg_only = (row->flags & GRAFT_ATEN_KWARG_ONLY) != 0;
}

/* Python's repr of a default, as the table writes it: None, True, False,
 * an int, a float (`1e-05`, `0.5`, `inf`, `nan`), a quoted string with
 * Python's escapes, or a list or tuple of those. */
typedef struct
{
  const char *p;
} ReprReader;

static gboolean parse_value (ReprReader *r,
                             GraftArg   *out);

static void
skip_spaces (ReprReader *r)
{
  while (*r->p == ' ')
    r->p++;
}

static gboolean
parse_string (ReprReader *r,
              GraftArg   *out)
{
  char     quote = *r->p++;
  GString *s = g_string_new (NULL);

  while (*r->p != quote)
    {
      char c = *r->p++;

      if (c == '\0')
        {
          g_string_free (s, TRUE);
          return FALSE;
        }
      if (c != '\\')
        {
          g_string_append_c (s, c);
          continue;
        }
      c = *r->p++;
      switch (c)
        {
        case 'n':
          g_string_append_c (s, '\n');
          break;
        case 't':
          g_string_append_c (s, '\t');
          break;
        case 'r':
          g_string_append_c (s, '\r');
          break;
        case '\\':
          g_string_append_c (s, '\\');
          break;
        case '\'':
          g_string_append_c (s, '\'');
          break;
        case '"':
          g_string_append_c (s, '"');
          break;
        case 'x':
          {
            int hi = g_ascii_xdigit_value (r->p[0]);
            int lo = hi < 0 ? -1 : g_ascii_xdigit_value (r->p[1]);

            if (lo < 0)
              {
                g_string_free (s, TRUE);
                return FALSE;
              }
            g_string_append_c (s, (char) (hi * 16 + lo));
            r->p += 2;
            break;
          }
        default:
          g_string_free (s, TRUE);
          return FALSE;
        }
    }
  r->p++;
  graft_arg_init_str (out, s->str, (gssize) s->len);
  g_string_free (s, TRUE);
  return TRUE;
}

static gboolean
parse_sequence (ReprReader *r,
                GraftArg   *out)
{
  char     close = *r->p == '[' ? ']' : ')';
  GArray  *items = g_array_new (FALSE, TRUE, sizeof (GraftArg));
  gboolean ok = TRUE;
  gboolean trailing_comma = FALSE;

  r->p++;
  skip_spaces (r);
  while (ok && *r->p != close)
    {
      GraftArg item;

      if (!parse_value (r, &item))
        {
          ok = FALSE;
          break;
        }
      g_array_append_val (items, item);
      skip_spaces (r);
      trailing_comma = FALSE;
      if (*r->p == ',')
        {
          r->p++;
          trailing_comma = TRUE;
          skip_spaces (r);
        }
      else if (*r->p != close)
        ok = FALSE;
    }
  if (ok && close == ')' && items->len == 1 && !trailing_comma)
    ok = FALSE; /* `(1)` is no tuple */
  if (ok)
    {
      graft_arg_init_seq (out, close == ']' ? GRAFT_ARG_LIST : GRAFT_ARG_TUPLE, items->len);
      if (items->len > 0)
        memcpy (out->items, items->data, items->len * sizeof (GraftArg));
      r->p++;
    }
  else
    for (guint i = 0; i < items->len; i++)
      graft_arg_clear (&g_array_index (items, GraftArg, i));
  g_array_free (items, TRUE);
  return ok;
}

static gboolean
parse_number (ReprReader *r,
              GraftArg   *out)
{
  const char *start = r->p;
  const char *q = r->p;
  gboolean    is_float = FALSE;
  char       *end = NULL;

  if (*q == '-')
    q++;
  if (strncmp (q, "inf", 3) == 0 || strncmp (q, "nan", 3) == 0)
    {
      double v = q[0] == 'i' ? INFINITY : NAN;

      graft_arg_init_float (out, *start == '-' ? -v : v);
      r->p = q + 3;
      return TRUE;
    }
  while (g_ascii_isdigit (*q) || *q == '.' || *q == 'e' || *q == 'E' ||
         ((*q == '-' || *q == '+') && (q[-1] == 'e' || q[-1] == 'E')))
    {
      if (!g_ascii_isdigit (*q))
        is_float = TRUE;
      q++;
    }
  if (q == start || (q == start + 1 && *start == '-'))
    return FALSE;
  if (is_float)
    {
      double v = g_ascii_strtod (start, &end);

      if (end != q)
        return FALSE;
      graft_arg_init_float (out, v);
    }
  else
    {
      gint64 v = g_ascii_strtoll (start, &end, 10);

      if (end != q)
        return FALSE;
      graft_arg_init_int (out, v);
    }
  r->p = q;
  return TRUE;
}

static gboolean
parse_value (ReprReader *r,
             GraftArg   *out)
{
  static const struct
  {
    const char *word;
    int         value; /* -1: None */
  } words[] = { { "None", -1 }, { "True", 1 }, { "False", 0 } };

  skip_spaces (r);
  if (*r->p == '\'' || *r->p == '"')
    return parse_string (r, out);
  if (*r->p == '[' || *r->p == '(')
    return parse_sequence (r, out);
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      gsize len = strlen (words[i].word);

      if (strncmp (r->p, words[i].word, len) == 0 && !g_ascii_isalnum (r->p[len]) &&
          r->p[len] != '_')
        {
          if (words[i].value < 0)
            graft_arg_init_none (out);
          else
            graft_arg_init_bool (out, words[i].value);
          r->p += len;
          return TRUE;
        }
    }
  return parse_number (r, out);
}

/**
 * graft_aten_parse_default:
 * @repr: a default's Python repr as the table holds it (`1`, `None`, `[0, 0]`,
 *   `'mean'`, `1e-05`)
 * @out: (out caller-allocates): the value; clear it with graft_arg_clear()
 *
 * Returns: %FALSE (and @out is `None`) when @repr is none of the forms the
 *   table uses
 */
gboolean
graft_aten_parse_default (const char *repr,
                          GraftArg   *out)
{
  ReprReader r = { repr };

  g_return_val_if_fail (repr != NULL && out != NULL, FALSE);

  if (parse_value (&r, out))
    {
      skip_spaces (&r);
      if (*r.p == '\0')
        return TRUE;
      graft_arg_clear (out);
    }
  graft_arg_init_none (out);
  return FALSE;
}

/* The parsed default of each argument row (`None` for rows without one),
 * made on first use and never freed. */
static const GraftArg *
row_defaults (void)
{
  static gsize defaults = 0;

  if (g_once_init_enter (&defaults))
    {
      GraftArg *made = g_new0 (GraftArg, G_N_ELEMENTS (argument_rows));

      for (gsize i = 0; i < G_N_ELEMENTS (argument_rows); i++)
        {
          if ((argument_rows[i].flags & GRAFT_ATEN_HAS_DEFAULT) == 0)
            graft_arg_init_none (&made[i]);
          else if (!graft_aten_parse_default (pool + argument_rows[i].default_at, &made[i]))
            g_critical ("graft-aten-schema.inc: unreadable default %s",
                        pool + argument_rows[i].default_at);
        }
      g_once_init_leave (&defaults, (gsize) made);
    }
  return (const GraftArg *) defaults;
}

/**
 * graft_aten_schema_get_default:
 *
 * Returns: (transfer none): argument @i's default as torch.fx's matcher
 *   sees it (`Argument.default_value`): the parsed value, or `None` when the
 *   argument has no default.  Static; never modify it.
 */
const GraftArg *
graft_aten_schema_get_default (const GraftAtenSchema *schema,
                               guint                  i)
{
  g_return_val_if_fail (schema != NULL, NULL);
  g_return_val_if_fail (i < schema->n_args, NULL);

  return &row_defaults ()[row_index[schema->first_arg + i]];
}

/**
 * graft_aten_schema_find_argument:
 *
 * Returns: the position of the argument called @name, or -1
 */
int
graft_aten_schema_find_argument (const GraftAtenSchema *schema,
                                 const char            *name)
{
  g_return_val_if_fail (schema != NULL && name != NULL, -1);

  for (guint i = 0; i < schema->n_args; i++)
    if (strcmp (pool + argument_row (schema, i)->name_at, name) == 0)
      return (int) i;
  return -1;
}

guint
graft_aten_schema_get_n_returns (const GraftAtenSchema *schema)
{
  g_return_val_if_fail (schema != NULL, 0);

  return schema->n_rets;
}

/**
 * graft_aten_schema_get_return:
 * @out: (out caller-allocates): filled with return @i's static texts
 */
void
graft_aten_schema_get_return (const GraftAtenSchema *schema,
                              guint                  i,
                              GraftAtenReturn       *out)
{
  const ReturnRow *row;

  g_return_if_fail (schema != NULL && out != NULL);
  g_return_if_fail (i < schema->n_rets);

  row = &return_rows[row_index[schema->first_ret + i]];
  out->name = pool + row->name_at;
  out->type = pool + row->type_at;
}

/**
 * graft_aten_schema_returns_one_tensor:
 *
 * torch.export's `_is_single_tensor_return`: whether @schema returns
 * exactly one `Tensor` (an alias annotation allowed, `Tensor(a!)`).  The
 * deserializer names such a node after its output; any other after the
 * operator (`sym_size_int`), and then overwrites that name.
 */
gboolean
graft_aten_schema_returns_one_tensor (const GraftAtenSchema *schema)
{
  GraftAtenReturn ret;
  const char     *close;

  g_return_val_if_fail (schema != NULL, FALSE);

  if (graft_aten_schema_get_n_returns (schema) != 1)
    return FALSE;
  graft_aten_schema_get_return (schema, 0, &ret);
  if (!g_str_has_prefix (ret.type, "Tensor"))
    return FALSE;
  if (ret.type[6] == '\0')
    return TRUE;
  close = strchr (ret.type, ')');
  return ret.type[6] == '(' && close != NULL && close[1] == '\0';
}

/**
 * graft_aten_schema_is_vararg:
 *
 * Returns: whether the schema's arguments end in `...`
 *   (`aten::format(str self, ...) -> str`)
 */
gboolean
graft_aten_schema_is_vararg (const GraftAtenSchema *schema)
{
  g_return_val_if_fail (schema != NULL, FALSE);

  return (schema->flags & GRAFT_ATEN_VARARG) != 0;
}

gboolean
graft_aten_schema_is_varret (const GraftAtenSchema *schema)
{
  g_return_val_if_fail (schema != NULL, FALSE);

  return (schema->flags & GRAFT_ATEN_VARRET) != 0;
}

/**
 * graft_aten_schema_is_mutable:
 *
 * Returns: whether the schema writes to an argument (`Tensor(a!) self`, an
 *   `out` tensor): torch's `FunctionSchema.is_mutable`
 */
gboolean
graft_aten_schema_is_mutable (const GraftAtenSchema *schema)
{
  g_return_val_if_fail (schema != NULL, FALSE);

  return (schema->flags & GRAFT_ATEN_MUTABLE) != 0;
}

/**
 * graft_aten_schema_target_is_mutable:
 * @target: a call_function target as Graft stores it
 *
 * Whether @target is an OpOverload of torch 2.6 whose schema is mutable:
 * an aten operator of the table (`torch.ops.aten.add_.Tensor`,
 * `torch.ops.aten.add.out`) or one of another namespace that `import
 * torch` registers (`torch.ops.prims.copy_to.default`).  A packet
 * (`torch.ops.aten.add_`) has no schema, and neither has any other
 * target (`torch.relu_`).
 *
 * Returns: %TRUE when `target._schema.is_mutable` would be true
 */
gboolean
graft_aten_schema_target_is_mutable (const char *target)
{
  const GraftAtenSchema *schema;
  gsize                  lo = 0;
  gsize                  hi = G_N_ELEMENTS (mutable_elsewhere);

  g_return_val_if_fail (target != NULL, FALSE);

  if (strncmp (target, OPS_PREFIX, strlen (OPS_PREFIX)) != 0)
    return FALSE;
  schema = graft_aten_schema_lookup (target);
  if (schema != NULL)
    return graft_aten_schema_is_mutable (schema);
  target += strlen (OPS_PREFIX);
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      int   cmp = strcmp (target, pool + mutable_elsewhere[mid]);

      if (cmp == 0)
        return TRUE;
      if (cmp < 0)
        hi = mid;
      else
        lo = mid + 1;
    }
  return FALSE;
}

static const GraftArg *
find_kwarg (const GraftArg *kwargs,
            const char     *name)
{
  if (kwargs == NULL || kwargs->kind != GRAFT_ARG_DICT)
    return NULL;
  for (guint k = 0; k < kwargs->n; k++)
    {
      const GraftArg *key = &kwargs->items[2 * k];

      if (key->kind == GRAFT_ARG_STR && strcmp (key->s, name) == 0)
        return &kwargs->items[2 * k + 1];
    }
  return NULL;
}

/**
 * graft_aten_schema_collect_arguments:
 * @args: (nullable): the call's positional args, a tuple or list
 * @kwargs: (nullable): the call's kwargs, a dict keyed by strings
 * @out: (out caller-allocates) (array): graft_aten_schema_get_n_arguments()
 *   borrowed pointers, into @args, @kwargs or the static defaults
 *
 * Fills out a call's arguments per the schema as torch 2.6's
 * `SubgraphMatcher._match_nodes` does (`get_all_arguments`): for argument
 * `i`, the kwarg of its name if there is one; else, unless it is
 * kwarg-only, positional arg `i` if the call has that many; else its
 * default (`None` without one).  Positional args beyond the schema's
 * arguments and kwargs that name none are left out, as torch does.
 */
void
graft_aten_schema_collect_arguments (const GraftAtenSchema *schema,
                                     const GraftArg        *args,
                                     const GraftArg        *kwargs,
                                     const GraftArg       **out)
{
  guint n_pos = 0;

  g_return_if_fail (schema != NULL && out != NULL);

  if (args != NULL && (args->kind == GRAFT_ARG_TUPLE || args->kind == GRAFT_ARG_LIST))
    n_pos = args->n;
  for (guint i = 0; i < schema->n_args; i++)
    {
      const ArgumentRow *row = argument_row (schema, i);
      const GraftArg    *kw = find_kwarg (kwargs, pool + row->name_at);

      if (kw != NULL)
        out[i] = kw;
      else if ((row->flags & GRAFT_ATEN_KWARG_ONLY) == 0 && i < n_pos)
        out[i] = &args->items[i];
      else
        out[i] = graft_aten_schema_get_default (schema, i);
    }
}

/**
 * graft_aten_schema_fill_arguments:
 * @out: (out caller-allocates): a list of graft_aten_schema_get_n_arguments()
 *   items, copies of what graft_aten_schema_collect_arguments() picks (node
 *   references stay borrowed); clear it with graft_arg_clear()
 *
 * The list torch 2.6's matcher compares when an OpOverload call's args or
 * kwarg keys differ from the pattern's.
 */
void
graft_aten_schema_fill_arguments (const GraftAtenSchema *schema,
                                  const GraftArg        *args,
                                  const GraftArg        *kwargs,
                                  GraftArg              *out)
{
  const GraftArg **picked;

  g_return_if_fail (schema != NULL && out != NULL);

  picked = g_newa (const GraftArg *, schema->n_args + 1);
  graft_aten_schema_collect_arguments (schema, args, kwargs, picked);
  graft_arg_init_seq (out, GRAFT_ARG_LIST, schema->n_args);
  for (guint i = 0; i < schema->n_args; i++)
    graft_arg_copy (&out->items[i], picked[i]);
}
