/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-oppackets.c: torch.ops.aten's OpOverloadPackets as each torch
 * has them, from the generated tables graft-op-packets-2.6.inc and
 * graft-op-packets-1.13.inc (tests/tools/gen-op-packets.py): which overloads
 * a packet has and in which order overloads() lists them, the text of each
 * overload's schema (str(overload._schema)), its tags, and the argument
 * errors torch's schema matching raises when an overload is called with
 * constants (a call with a traced value is recorded, never checked, as
 * torch.fx records it).
 *
 * Owns nothing per trace but what it allocates from the tracer; the tables
 * are static, and the offsets of their pieces are found once per process.
 * Refuses nothing: a name the table lacks is answered as "none" and the
 * caller raises torch's AttributeError.
 */
#include "config.h"

#include "graft-tracer-private.h"

#include <string.h>

/* One overload's schema: index[first] is its head (`aten::add.Tensor`),
 * the next n_params its parameters, then its returns and its tags. */
typedef struct
{
  guint32 first;
  guint16 n_params;
} OverloadRow;

#define GRAFT_OP_SIZES(n_pieces, n_bytes, base_pieces, base_bytes) \
  enum { pieces_1_13 = n_pieces,                                   \
         pool_1_13_size = n_bytes + 1 };
#include "graft-op-packets-1.13.inc"
#undef GRAFT_OP_SIZES
#define GRAFT_OP_SIZES(n_pieces, n_bytes, base_pieces, base_bytes) \
  enum { base_2_6_pieces = base_pieces,                            \
         base_2_6_bytes = base_bytes };
#include "graft-op-packets-2.6.inc"
#undef GRAFT_OP_SIZES
/* The 2.6 table was made against this 1.13 table (its docstring says how). */
G_STATIC_ASSERT ((int) base_2_6_pieces == (int) pieces_1_13 &&
                 (int) base_2_6_bytes + 1 == (int) pool_1_13_size);

/* One pool for both torches: 1.13.1's pieces, then those of 2.6.0 that
 * 1.13.1 lacks (graft-op-packets-2.6.inc continues the 1.13 table's
 * numbering).  1.13.1 reads the first pool_1_13_size bytes. */
static const char pool[] =
#define GRAFT_OP_PIECE_POOL
#include "graft-op-packets-1.13.inc"
#include "graft-op-packets-2.6.inc"
#undef GRAFT_OP_PIECE_POOL
    ;

static const guint16 index_2_6[] = {
#define GRAFT_OP_INDEX
#include "graft-op-packets-2.6.inc"
#undef GRAFT_OP_INDEX
};
static const OverloadRow rows_2_6[] = {
#define GRAFT_OP_OVERLOAD(first, n) { first, n },
#include "graft-op-packets-2.6.inc"
#undef GRAFT_OP_OVERLOAD
};

static const guint16 index_1_13[] = {
#define GRAFT_OP_INDEX
#include "graft-op-packets-1.13.inc"
#undef GRAFT_OP_INDEX
};
static const OverloadRow rows_1_13[] = {
#define GRAFT_OP_OVERLOAD(first, n) { first, n },
#include "graft-op-packets-1.13.inc"
#undef GRAFT_OP_OVERLOAD
};

typedef struct
{
  const char        *pool;
  gsize              pool_size;
  const guint16     *index;
  const OverloadRow *rows;
  guint              n_rows;
  GOnce              pieces; /* the pool offset of each piece, found once */
} Table;

static Table tables[] = {
  [GRAFT_TORCH_2_6] = { pool, sizeof pool, index_2_6, rows_2_6, G_N_ELEMENTS (rows_2_6),
                        G_ONCE_INIT },
  [GRAFT_TORCH_1_13] = { pool, pool_1_13_size, index_1_13, rows_1_13,
                         G_N_ELEMENTS (rows_1_13), G_ONCE_INIT },
};

static gpointer
find_pieces (gpointer data)
{
  Table   *table = data;
  guint32 *at;
  guint    n = 0;

  for (gsize i = 0; i + 1 < table->pool_size; i++)
    n += table->pool[i] == '\0';
  at = g_new (guint32, n + 1);
  at[0] = 0;
  n = 1;
  for (gsize i = 0; i + 2 < table->pool_size; i++)
    if (table->pool[i] == '\0')
      at[n++] = (guint32) (i + 1);
  return at;
}

/* The table of the tracer's torch, its pieces found (once per process,
 * whichever thread asks first). */
static Table *
table_of (Tracer *t)
{
  Table *table = &tables[t->dialect->torch];

  g_once (&table->pieces, find_pieces, table);
  return table;
}

static const char *
piece (Table *table,
       guint  at)
{
  const guint32 *pieces = g_once (&table->pieces, find_pieces, table);

  return table->pool + pieces[table->index[at]];
}

/* The packet name of a head, `aten::add.Tensor` -> `add` (its length). */
static gsize
head_packet (const char  *head,
             const char **name)
{
  *name = head + strlen ("aten::");
  return strcspn (*name, ".");
}

static int
compare_packet (Table      *table,
                guint       row,
                const char *name,
                gsize       len)
{
  const char *have;
  gsize       have_len = head_packet (piece (table, table->rows[row].first), &have);
  int         cmp = memcmp (have, name, MIN (have_len, len));

  if (cmp != 0)
    return cmp;
  return have_len < len ? -1 : have_len > len ? 1
                                              : 0;
}

/**
 * _graft_tracer_op_packet_find:
 * @name: an aten operator's name, `add` in `torch.ops.aten.add`
 * @len: its length in bytes
 * @out: (out): the packet's overloads
 *
 * Returns: whether the tracer's torch has the packet
 */
gboolean
_graft_tracer_op_packet_find (Tracer     *t,
                              const char *name,
                              gsize       len,
                              OpPacket   *out)
{
  Table *table = table_of (t);
  guint  lo = 0, hi = table->n_rows;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (compare_packet (table, mid, name, len) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo >= table->n_rows || compare_packet (table, lo, name, len) != 0)
    return FALSE;
  out->first = lo;
  for (hi = lo; hi < table->n_rows && compare_packet (table, hi, name, len) == 0; hi++)
    ;
  out->n = hi - lo;
  return TRUE;
}

/* The overload name of @row: `Tensor`, or `default` for a head without one. */
static const char *
row_overload (Table *table,
              guint  row)
{
  const char *dot = strchr (piece (table, table->rows[row].first), '.');

  return dot != NULL ? dot + 1 : "default";
}

/**
 * _graft_tracer_op_overload_find:
 * @packet: a packet _graft_tracer_op_packet_find() found
 * @overload: an overload's name (`Tensor`, `default`)
 *
 * Returns: the overload's row, or -1 when the packet has none of that name
 */
int
_graft_tracer_op_overload_find (Tracer         *t,
                                const OpPacket *packet,
                                const char     *overload)
{
  Table *table = table_of (t);

  for (guint i = packet->first; i < packet->first + packet->n; i++)
    if (strcmp (row_overload (table, i), overload) == 0)
      return (int) i;
  return -1;
}

/**
 * _graft_tracer_op_overload_row:
 * @path: `torch.ops.aten.OP.OVERLOAD`
 *
 * Returns: the overload's row, or -1 when @path names none of aten's
 */
int
_graft_tracer_op_overload_row (Tracer     *t,
                               const char *path)
{
  const char *op, *dot;
  OpPacket    packet;

  if (!g_str_has_prefix (path, "torch.ops.aten."))
    return -1;
  op = path + strlen ("torch.ops.aten.");
  dot = strchr (op, '.');
  if (dot == NULL || strchr (dot + 1, '.') != NULL ||
      !_graft_tracer_op_packet_find (t, op, dot - op, &packet))
    return -1;
  return _graft_tracer_op_overload_find (t, &packet, dot + 1);
}

/**
 * _graft_tracer_op_overloads:
 *
 * Returns: `packet.overloads()`: a list of the overloads' names, in torch's order
 */
Value *
_graft_tracer_op_overloads (Tracer         *t,
                            const OpPacket *packet)
{
  Table *table = table_of (t);
  Value *list = _graft_value_seq (t, VAL_LIST, packet->n);

  for (guint i = packet->first; i < packet->first + packet->n; i++)
    _graft_value_seq_add (list, _graft_value_str (t, row_overload (table, i), -1));
  return list;
}

/**
 * _graft_tracer_op_schema_text:
 * @row: an overload's row
 *
 * Returns: str(overload._schema), allocated from the tracer
 */
const char *
_graft_tracer_op_schema_text (Tracer *t,
                              guint   row)
{
  Table             *table = table_of (t);
  const OverloadRow *r = &table->rows[row];
  g_autoptr (GString) s = g_string_new (piece (table, r->first));

  g_string_append_c (s, '(');
  for (guint i = 0; i < r->n_params; i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      g_string_append (s, piece (table, r->first + 1 + i));
    }
  g_string_append (s, ") -> ");
  g_string_append (s, piece (table, r->first + 1 + r->n_params));
  return _graft_tracer_strdup (t, s->str, s->len);
}

/**
 * _graft_tracer_op_tags:
 * @row: an overload's row
 *
 * Returns: `overload.tags`: a list of values that print as torch's Tag
 *   members do (`<Tag.core: 0>`); Graft does not model torch.Tag itself
 */
Value *
_graft_tracer_op_tags (Tracer *t,
                       guint   row)
{
  Table      *table = table_of (t);
  const char *tags = piece (table, table->rows[row].first + table->rows[row].n_params + 2);
  Value      *list = _graft_value_seq (t, VAL_LIST, 0);
  g_auto (GStrv) each = tags[0] != '\0' ? g_strsplit (tags, ", ", -1) : NULL;

  for (guint i = 0; each != NULL && each[i] != NULL; i++)
    {
      Value *v = _graft_value_new (t, VAL_GENERIC);

      v->generic.origin = "torch.Tag";
      v->generic.args = _graft_tracer_vec (t);
      v->generic.repr = _graft_tracer_strdup (t, each[i], -1);
      _graft_value_seq_add (list, v);
    }
  return list;
}

/* One parameter of a schema, `Scalar alpha=1` or `Tensor(a!) self`. */
typedef struct
{
  const char *type; /* up to the space before the name */
  gsize       type_len;
  const char *name;
  gsize       name_len;
  gboolean    has_default;
  gboolean    kwarg_only;
} Param;

static void
read_param (const char *text,
            gboolean    kwarg_only,
            Param      *out)
{
  const char *eq = NULL;
  const char *space = NULL;
  int         depth = 0;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '(' || *p == '[')
        depth++;
      else if (*p == ')' || *p == ']')
        depth--;
      else if (depth == 0 && *p == '=' && eq == NULL)
        eq = p;
      else if (depth == 0 && *p == ' ' && eq == NULL)
        space = p;
    }
  out->type = text;
  out->type_len = space != NULL ? (gsize) (space - text) : strlen (text);
  out->name = space != NULL ? space + 1 : "";
  out->name_len = eq != NULL ? (gsize) (eq - out->name) : strlen (out->name);
  out->has_default = eq != NULL;
  out->kwarg_only = kwarg_only;
}

/* The packets whose Tensor parameters also take a Python number (made a
 * tensor), in both torches: `torch.ops.aten.add.Tensor(t, 1)` runs.  Found
 * by calling each overload whose first parameter is a plain Tensor with an
 * int, under each torch (the same names); sorted. */
static const char *const numbers_as_tensors[] = {
  "_to_copy",
  "add",
  "add_",
  "copy_",
  "div",
  "div_",
  "divide",
  "divide_",
  "floor_divide",
  "floor_divide_",
  "mul",
  "mul_",
  "multiply",
  "multiply_",
  "sub",
  "sub_",
  "subtract",
  "subtract_",
  "to",
  "true_divide",
  "true_divide_",
};

static gboolean
takes_numbers_as_tensors (const char *op,
                          gsize       len)
{
  for (guint i = 0; i < G_N_ELEMENTS (numbers_as_tensors); i++)
    if (strlen (numbers_as_tensors[i]) == len && memcmp (numbers_as_tensors[i], op, len) == 0)
      return TRUE;
  return FALSE;
}

/* Whether a parameter of @type is surely not given by a constant @v: a plain
 * `Tensor` (with or without an alias annotation) given a Python number
 * (unless @numbers, see numbers_as_tensors), string, list or tuple.  Other
 * types (Scalar, int[], optional ones) are not judged. */
static gboolean
tensor_refuses (const Param *p,
                const Value *v,
                gboolean     numbers)
{
  if (!(p->type_len == 6 && memcmp (p->type, "Tensor", 6) == 0) &&
      !(p->type_len > 7 && memcmp (p->type, "Tensor(", 7) == 0 && p->type[p->type_len - 1] == ')'))
    return FALSE;
  if (v->kind == VAL_INT || v->kind == VAL_FLOAT || v->kind == VAL_BOOL)
    return !numbers;
  return v->kind == VAL_STR || v->kind == VAL_LIST || v->kind == VAL_TUPLE;
}

static Value *
raise_runtime (Tracer            *t,
               const char        *message,
               const GraftPyExpr *at)
{
  const char *newline = strchr (message, '\n');

  _graft_tracer_raise (t, "RuntimeError", at->start, at->end, "RuntimeError: %.*s",
                       newline != NULL ? (int) (newline - message) : (int) strlen (message),
                       message);
  t->raised_args = _graft_value_seq (t, VAL_TUPLE, 1);
  _graft_value_seq_add (t->raised_args, _graft_value_str (t, message, -1));
  return NULL;
}

/* What torch's schema matching says of a call of the overload @row with
 * constants, when Graft can tell it fails: more arguments than parameters,
 * more positional ones than the positional parameters, a parameter without
 * a default left out, a constant number, string or sequence where a plain
 * Tensor is expected (checked in the parameters' order, as torch does), then
 * an unknown keyword.  Returns: (nullable): the message (of many lines) */
static const char *
call_message (Tracer *t,
              guint   row,
              PtrVec *args,
              StrMap *kwargs)
{
  Table             *table = table_of (t);
  const OverloadRow *r = &table->rows[row];
  const char        *head = piece (table, r->first);
  const char        *dot = strchr (head, '.');
  int                op_len = dot != NULL ? (int) (dot - head) : (int) strlen (head);
  guint              n_args = _graft_tracer_n_args (args);
  guint              n_kwargs = kwargs != NULL ? kwargs->keys->len : 0;
  guint              n_positional = 0, n_params = 0;
  gboolean           kwarg_only = FALSE;
  g_autofree Param  *params = g_new0 (Param, r->n_params + 1);
  const char        *schema = _graft_tracer_op_schema_text (t, row);
  gboolean           numbers = takes_numbers_as_tensors (head + strlen ("aten::"),
                                                         op_len - strlen ("aten::"));

  for (guint i = 0; i < r->n_params; i++)
    {
      const char *text = piece (table, r->first + 1 + i);

      /* A vararg schema (`aten::format(str self, ...)`) is not judged. */
      if (strcmp (text, "...") == 0)
        return NULL;
      if (strcmp (text, "*") == 0)
        {
          kwarg_only = TRUE;
          continue;
        }
      read_param (text, kwarg_only, &params[n_params]);
      n_positional += !kwarg_only;
      n_params++;
    }
  if (n_args + n_kwargs > n_params)
    return _graft_tracer_printf (t,
                                 "%.*s() expected at most %u argument(s) but received %u "
                                 "argument(s). Declaration: %s",
                                 op_len, head, n_params, n_args + n_kwargs, schema);
  if (n_args > n_positional)
    return _graft_tracer_printf (t,
                                 "%.*s() takes %u positional argument(s) but %u was/were given.  "
                                 "Declaration: %s",
                                 op_len, head, n_positional, n_args, schema);
  for (guint i = 0; i < n_params; i++)
    {
      const Param *p = &params[i];
      Value       *v = NULL;

      if (i < n_args)
        v = _graft_tracer_arg (args, i);
      else if (kwargs != NULL)
        {
          g_autofree char *key = g_strndup (p->name, p->name_len);

          v = _graft_strmap_get (kwargs, key);
        }
      if (v == NULL && !p->has_default)
        return _graft_tracer_printf (t,
                                     "%.*s() is missing value for argument '%.*s'. "
                                     "Declaration: %s",
                                     op_len, head, (int) p->name_len, p->name, schema);
      if (v != NULL && tensor_refuses (p, v, numbers))
        {
          g_autoptr (GString) repr = g_string_new (NULL);
          g_autoptr (GString) str = g_string_new (NULL);

          _graft_value_append_str (repr, v, TRUE);
          _graft_value_append_str (str, v, FALSE);
          return _graft_tracer_printf (t,
                                       "%.*s() Expected a value of type 'Tensor' for argument "
                                       "'%.*s' but instead found type '%s'.\nPosition: %u\n"
                                       "Value: %s\nDeclaration: %s\nCast error details: "
                                       "Unable to cast %s to Tensor",
                                       op_len, head, (int) p->name_len, p->name,
                                       _graft_value_type_name (v), i, repr->str, schema,
                                       str->str);
        }
    }
  for (guint k = 0; k < n_kwargs; k++)
    {
      const char *key = kwargs->keys->pdata[k];
      guint       i;

      for (i = 0; i < n_params; i++)
        if (strlen (key) == params[i].name_len &&
            memcmp (key, params[i].name, params[i].name_len) == 0)
          break;
      if (i == n_params)
        return _graft_tracer_printf (t, "Unknown keyword argument '%s' for operator '%.*s'. "
                                        "Schema: %s",
                                     key, op_len, head, schema);
    }
  return NULL;
}

/* torch 1.13.1's __call__(self, *args, **kwargs) of an OpOverload and a
 * packet: a keyword `self` is Python's TypeError before any schema is
 * asked (torch 2.6's take `self` positionally only). */
static gboolean
check_self_keyword (Tracer            *t,
                    const char        *type,
                    StrMap            *kwargs,
                    const GraftPyExpr *at)
{
  if (t->dialect->torch == GRAFT_TORCH_2_6 || kwargs == NULL ||
      _graft_strmap_get (kwargs, "self") == NULL)
    return TRUE;
  _graft_tracer_raise (t, "TypeError", at->start, at->end,
                       "TypeError: %s.__call__() got multiple values for argument 'self'", type);
  return FALSE;
}

/**
 * _graft_tracer_op_check_call:
 * @row: the overload's row
 * @args: the positional arguments, none of them traced
 * @kwargs: (nullable): the keyword arguments
 *
 * The argument errors torch's schema matching raises for a call of an
 * OpOverload with constants, with torch's texts (see call_message()).
 *
 * Returns: %FALSE with the RuntimeError raised
 */
gboolean
_graft_tracer_op_check_call (Tracer            *t,
                             guint              row,
                             PtrVec            *args,
                             StrMap            *kwargs,
                             const GraftPyExpr *at)
{
  const char *message;

  if (!check_self_keyword (t, "OpOverload", kwargs, at))
    return FALSE;
  message = call_message (t, row, args, kwargs);
  if (message == NULL)
    return TRUE;
  raise_runtime (t, message, at);
  return FALSE;
}

/**
 * _graft_tracer_op_check_packet_call:
 * @packet: the packet called
 *
 * A call of a packet with constants: torch tries each overload in turn, and
 * when none takes the arguments, its RuntimeError lists what each said.
 * Graft raises it when each overload surely refuses them.
 *
 * Returns: %FALSE with the RuntimeError raised
 */
gboolean
_graft_tracer_op_check_packet_call (Tracer            *t,
                                    const OpPacket    *packet,
                                    PtrVec            *args,
                                    StrMap            *kwargs,
                                    const GraftPyExpr *at)
{
  g_autoptr (GString) all = g_string_new (t->dialect->torch == GRAFT_TORCH_2_6
                                              ? "Overloaded torch operator invoked from Python "
                                                "failed to match any schema:\n"
                                              : "Overloaded torch operator invoked from Python "
                                                "failed to many any schema:\n");

  if (!check_self_keyword (t, "OpOverloadPacket", kwargs, at))
    return FALSE;
  for (guint i = packet->first; i < packet->first + packet->n; i++)
    {
      const char *message = call_message (t, i, args, kwargs);

      if (message == NULL)
        return TRUE;
      g_string_append (all, message);
      g_string_append (all, "\n\n");
    }
  raise_runtime (t, all->str, at);
  return FALSE;
}
