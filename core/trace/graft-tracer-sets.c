/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-tracer-sets.c: Python's set and frozenset, as plain values.
 *
 * torch.fx runs the Python of a forward, so a set there is a set: `{1, 3}`,
 * `set()`, `if i in self.skip`, a set comprehension, `s.add(k)`, `a | b`.
 * Graft keeps a set's items, distinct by Python's `==` (1, 1.0 and True
 * are one item, the first added), in the order they were added.  What a
 * set gives does not depend on that order (membership, its length, its
 * truth, `sorted()`, `min()`, `max()`, `any()`, `all()`, equality, the set
 * algebra) except where Python walks it: iterating, printing, `pop()`.
 * CPython walks a set in the order of its hash table's slots; Graft knows
 * that order for ints 0 to 7 (and bools), whose hash is their value and
 * whose slots are theirs in any table (a set's has at least 8), so they
 * come in ascending order, unless another item was in the table (it may
 * have taken an int's slot, and the int stays past it when it goes:
 * `{2, 9, 1}` less 9 walks 2, 1); and for a set of one item.  pop() walks
 * from past the slot of the set's last pop() (CPython's finger).  Anything
 * else (strings, whose hashes change with each process, bigger ints,
 * tuples) is refused there rather than guessed.
 *
 * An item must be hashable: a list, a dict or a set is Python's TypeError.
 * A traced value is hashed by identity, so membership, adding, removing,
 * the algebra and the length are known, but not the order it is walked
 * in (refused with several items); a tensor or an object, or a traced
 * value inside a tuple, is not modelled.
 */
#include "config.h"

#include "graft-tracer-private.h"
#include "graft-error.h"

#include <string.h>

/* Value.seq.finger of a set whose pop() finger Graft does not know. */
#define SET_FINGER_UNKNOWN 0xff

/**
 * _graft_value_set:
 * @frozen: a frozenset
 *
 * Returns: a new empty set
 */
Value *
_graft_value_set (Tracer  *t,
                  gboolean frozen)
{
  Value *v = _graft_value_seq (t, VAL_LIST, 0);

  v->kind = VAL_SET;
  v->seq.size = frozen;
  return v;
}

/* Whether Python can hash @v and Graft compares it as Python does; else
 * fails the tracer.  A traced value is hashed by identity (torch.fx's
 * Proxy keeps object's __hash__), one Proxy per node: Graft compares it by
 * its node (set_equal()); inside a tuple it is not modelled. */
static gboolean
check_hashable_in (Tracer            *t,
                   const Value       *v,
                   gboolean           top,
                   const GraftPyExpr *at)
{
  if (top && v->kind == VAL_PROXY)
    return TRUE;
  switch (v->kind)
    {
    case VAL_NONE:
    case VAL_BOOL:
    case VAL_INT:
    case VAL_FLOAT:
    case VAL_COMPLEX:
    case VAL_STR:
    case VAL_ELLIPSIS:
    case VAL_SYMBOL:
    case VAL_DEVICE:
    case VAL_BUILTIN:
    case VAL_TYPE:
    case VAL_PATH_FN:
    case VAL_NN_CLASS:
      return TRUE;
    case VAL_TUPLE:
      {
        gboolean ok = TRUE;

        if (!_graft_tracer_walk_enter (t))
          return _graft_tracer_too_deep (t, at->start, at->end);
        for (guint i = 0; i < v->seq.items->len && ok; i++)
          ok = check_hashable_in (t, v->seq.items->pdata[i], FALSE, at);
        _graft_tracer_walk_leave (t);
        return ok;
      }
    case VAL_SET:
      if (v->seq.size)
        return TRUE;
      G_GNUC_FALLTHROUGH;
    case VAL_LIST:
    case VAL_DICT:
      _graft_tracer_raise (t, "TypeError", at->start, at->end, "TypeError: unhashable type: '%s'",
                           _graft_value_type_name (v));
      return FALSE;
    case VAL_SLICE:
    case VAL_PROXY:
    case VAL_ATTR_PROXY:
    case VAL_PYMODULE:
    case VAL_FUNCTION:
    case VAL_CLASS:
    case VAL_OBJECT:
    case VAL_SELF_PATH:
    case VAL_BOUND:
    case VAL_METHOD:
    case VAL_TENSOR:
    case VAL_PARAMETER:
    case VAL_SUPER:
    case VAL_GENERIC:
    case VAL_ITER:
    default:
      _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                          "a %s in a set (or as a set's key) is not modelled by Graft's tracer",
                          _graft_value_is_proxy ((Value *) v) ? "traced value"
                                                              : _graft_value_type_name (v));
      return FALSE;
    }
}

static gboolean
check_hashable (Tracer            *t,
                const Value       *v,
                const GraftPyExpr *at)
{
  return check_hashable_in (t, v, TRUE, at);
}

/* Python's test of a set's item against @item: a traced value is only
 * itself (its hash is its identity; an equal hash of another is not
 * modelled, and never seen). */
static gboolean
set_equal (const Value *a,
           const Value *b)
{
  if (a->kind == VAL_PROXY || b->kind == VAL_PROXY)
    return a->kind == b->kind && a->node == b->node;
  return _graft_value_equal (a, b);
}

/* Whether @set holds a traced value. */
static gboolean
holds_proxy (const Value *set)
{
  for (guint i = 0; i < set->seq.items->len; i++)
    if (((const Value *) set->seq.items->pdata[i])->kind == VAL_PROXY)
      return TRUE;
  return FALSE;
}

/**
 * _graft_set_has:
 *
 * Returns: whether @item is in @set (Python's `==`)
 */
gboolean
_graft_set_has (const Value *set,
                const Value *item)
{
  for (guint i = 0; i < set->seq.items->len; i++)
    if (set_equal (set->seq.items->pdata[i], item))
      return TRUE;
  return FALSE;
}

/* The value of an item whose slot Graft knows (an int 0..7 or a bool), or
 * -1. */
static gint64
known_slot (const Value *v)
{
  if (v->kind == VAL_BOOL)
    return v->b;
  if (v->kind == VAL_INT && !_graft_value_is_bigint (v) && v->i >= 0 && v->i < 8)
    return v->i;
  return -1;
}

/* Whether @set has an item whose slot Graft does not know. */
static gboolean
unordered_items (const Value *set)
{
  for (guint i = 0; i < set->seq.items->len; i++)
    if (known_slot (set->seq.items->pdata[i]) < 0)
      return TRUE;
  return FALSE;
}

/* Whether @set has an item whose slot Graft does not know, or had one. */
static gboolean
unordered (const Value *set)
{
  return set->seq.unordered || unordered_items (set);
}

/**
 * _graft_set_add:
 *
 * Adds @item to @set unless an equal item is there.
 *
 * Returns: %FALSE with the tracer's error (@item is not hashable)
 */
gboolean
_graft_set_add (Tracer            *t,
                Value             *set,
                Value             *item,
                const GraftPyExpr *at)
{
  if (!check_hashable (t, item, at))
    return FALSE;
  if (!_graft_set_has (set, item))
    {
      /* It may take the slot of an int added later (`{2, 9, 1}` puts 1
       * past 2), which stays there when it goes. */
      if (known_slot (item) < 0)
        set->seq.unordered = TRUE;
      _graft_value_seq_add (set, item);
    }
  return TRUE;
}

/**
 * _graft_set_order_known:
 *
 * Returns: whether Graft knows the order in which CPython walks @set
 */
gboolean
_graft_set_order_known (const Value *set)
{
  return set->seq.items->len <= 1 || !unordered (set);
}

/**
 * _graft_set_assign:
 * @from: a set made by the set algebra of @set
 *
 * Gives @set the items of @from, as an in-place operator or method does
 * (`s |= t`, `s.intersection_update(t)`): @set keeps its pop() finger.
 */
void
_graft_set_assign (Value       *set,
                   const Value *from)
{
  set->seq.items->len = 0;
  for (guint i = 0; i < from->seq.items->len; i++)
    _graft_value_seq_add (set, from->seq.items->pdata[i]);
  set->seq.unordered |= from->seq.unordered;
}

/**
 * _graft_set_nth:
 * @i: a position in the order CPython walks @set (_graft_set_order_known())
 *
 * Returns: that item
 */
Value *
_graft_set_nth (const Value *set,
                guint        i)
{
  guint n = 0;

  if (set->seq.items->len <= 1)
    return set->seq.items->pdata[i];
  for (gint64 slot = 0; slot < 8; slot++)
    for (guint k = 0; k < set->seq.items->len; k++)
      if (known_slot (set->seq.items->pdata[k]) == slot && n++ == i)
        return set->seq.items->pdata[k];
  g_return_val_if_reached (NULL);
}

/**
 * _graft_set_items:
 * @ordered: whether the order matters (iteration); if not, the items come
 *   as they were added
 *
 * Returns: (nullable): a new list of @set's items, or %NULL with the
 * tracer's error when their order matters and Graft does not know it
 */
Value *
_graft_set_items (Tracer            *t,
                  const Value       *set,
                  gboolean           ordered,
                  const GraftPyExpr *at)
{
  Value *out = _graft_value_seq (t, VAL_LIST, set->seq.items->len);

  /* Whatever is done with several traced values (sum(), sorted(), a
   * loop) is done in the order of their identities' hashes, addresses. */
  if (set->seq.items->len > 1 && holds_proxy (set))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "a set of traced values is walked in the order of their "
                               "addresses, which changes from run to run: use a list");
  if (ordered && !_graft_set_order_known (set) && set->seq.unordered &&
      !unordered_items (set))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "the order of a set's items is CPython's hash order, and an item "
                               "that was in it may have moved them past their slots: sort it "
                               "(sorted(s)) first");
  if (ordered && !_graft_set_order_known (set))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "the order of a set's items is CPython's hash order, which Graft "
                               "knows for ints 0 to 7 only: sort it (sorted(s)) first");
  for (guint i = 0; i < set->seq.items->len; i++)
    _graft_value_seq_add (out, ordered ? _graft_set_nth (set, i) : set->seq.items->pdata[i]);
  return out;
}

/* Adds every item of the iterable @v to @set (no order needed). */
static gboolean
add_all (Tracer            *t,
         Value             *set,
         Value             *v,
         const GraftPyExpr *at)
{
  Value *items =
      v->kind == VAL_SET ? _graft_set_items (t, v, FALSE, at) : _graft_tracer_iterate (t, v, at);

  if (items == NULL)
    return FALSE;
  for (guint i = 0; i < items->seq.items->len; i++)
    if (!_graft_set_add (t, set, items->seq.items->pdata[i], at))
      return FALSE;
  return TRUE;
}

/**
 * _graft_tracer_make_set:
 * @name: `set` or `frozenset`
 *
 * `set()`, `set(iterable)` and the frozenset ones.
 *
 * Returns: (nullable): the set
 */
Value *
_graft_tracer_make_set (Tracer            *t,
                        const char        *name,
                        PtrVec            *args,
                        StrMap            *kwargs,
                        const GraftPyExpr *at)
{
  Value *set = _graft_value_set (t, name[0] == 'f');

  if (kwargs != NULL && kwargs->keys->len > 0)
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_TRACE,
                               "TypeError: %s() takes no keyword arguments", name);
  if (!_graft_tracer_check_arity (t, name, args, 0, 1, at))
    return NULL;
  if (_graft_tracer_n_args (args) == 1 && !add_all (t, set, _graft_tracer_arg (args, 0), at))
    return NULL;
  return set;
}

/* The set algebra: a new set (of @a's kind) of @a's items with @b's. */
static Value *
combine (Tracer      *t,
         char         op,
         const Value *a,
         const Value *b,
         gboolean     b_is_set)
{
  Value *out = _graft_value_set (t, a->seq.size);

  /* Python may copy a table whose ints sit past their slots and then
   * remove the item that pushed them there (`a - b`). */
  out->seq.unordered = unordered (a) || unordered (b);
  if (op == '&')
    {
      /* CPython walks the smaller set (@b if the sizes are the same; any
       * other iterable) and keeps the items of the one it walks:
       * `{True} & {1}` is {1}. */
      const Value *walked = b_is_set && b->seq.items->len > a->seq.items->len ? a : b;
      const Value *other = walked == a ? b : a;

      for (guint i = 0; i < walked->seq.items->len; i++)
        if (_graft_set_has (other, walked->seq.items->pdata[i]) &&
            !_graft_set_has (out, walked->seq.items->pdata[i]))
          _graft_value_seq_add (out, walked->seq.items->pdata[i]);
      return out;
    }
  for (guint i = 0; i < a->seq.items->len; i++)
    {
      Value   *item = a->seq.items->pdata[i];
      gboolean in_b = _graft_set_has (b, item);

      if (op == '|' || ((op == '-' || op == '^') && !in_b))
        _graft_value_seq_add (out, item);
    }
  for (guint i = 0; (op == '|' || op == '^') && i < b->seq.items->len; i++)
    if (!_graft_set_has (a, b->seq.items->pdata[i]))
      _graft_value_seq_add (out, b->seq.items->pdata[i]);
  return out;
}

/**
 * _graft_tracer_set_binop:
 *
 * `a | b`, `a & b`, `a - b`, `a ^ b` of two sets.
 *
 * Returns: (nullable): the set, or %NULL if @op is not one of them (no
 * error set)
 */
Value *
_graft_tracer_set_binop (Tracer      *t,
                         GraftPyBinOp op,
                         const Value *a,
                         const Value *b)
{
  switch (op)
    {
    case GRAFT_PY_BIN_BITOR:
      return combine (t, '|', a, b, TRUE);
    case GRAFT_PY_BIN_BITAND:
      return combine (t, '&', a, b, TRUE);
    case GRAFT_PY_BIN_SUB:
      return combine (t, '-', a, b, TRUE);
    case GRAFT_PY_BIN_BITXOR:
      return combine (t, '^', a, b, TRUE);
    case GRAFT_PY_BIN_ADD:
    case GRAFT_PY_BIN_MUL:
    case GRAFT_PY_BIN_MATMUL:
    case GRAFT_PY_BIN_TRUEDIV:
    case GRAFT_PY_BIN_FLOORDIV:
    case GRAFT_PY_BIN_MOD:
    case GRAFT_PY_BIN_POW:
    case GRAFT_PY_BIN_LSHIFT:
    case GRAFT_PY_BIN_RSHIFT:
    default:
      return NULL;
    }
}

/* Whether every item of @a is in @b. */
static gboolean
subset (const Value *a,
        const Value *b)
{
  for (guint i = 0; i < a->seq.items->len; i++)
    if (!_graft_set_has (b, a->seq.items->pdata[i]))
      return FALSE;
  return TRUE;
}

/**
 * _graft_tracer_set_compare:
 * @op: `<`, `<=`, `>` or `>=` (a GraftPyCmpOp)
 *
 * Returns: whether the subset relation holds
 */
gboolean
_graft_tracer_set_compare (GraftPyCmpOp op,
                           const Value *a,
                           const Value *b)
{
  guint na = a->seq.items->len, nb = b->seq.items->len;

  if (op == GRAFT_PY_CMP_LT)
    return na < nb && subset (a, b);
  if (op == GRAFT_PY_CMP_LT_E)
    return subset (a, b);
  if (op == GRAFT_PY_CMP_GT)
    return nb < na && subset (b, a);
  return subset (b, a);
}

/* A set made of @v for a method taking any iterable (`s.union([1, 2])`). */
static Value *
as_set (Tracer            *t,
        Value             *v,
        const GraftPyExpr *at)
{
  Value *set;

  if (v->kind == VAL_SET)
    return v;
  set = _graft_value_set (t, FALSE);
  return add_all (t, set, v, at) ? set : NULL;
}

/**
 * _graft_tracer_set_method:
 *
 * The methods of a set (a frozenset has those that do not change it).
 *
 * Returns: (nullable): the result, or %NULL with the tracer's error
 */
Value *
_graft_tracer_set_method (Tracer            *t,
                          Value             *recv,
                          const char        *name,
                          PtrVec            *args,
                          StrMap            *kwargs,
                          const GraftPyExpr *at)
{
  static const char *const changing[] = { "add", "discard", "remove", "update", "clear", "pop",
                                          "intersection_update", "difference_update",
                                          "symmetric_difference_update", NULL };
  static const struct
  {
    const char *name;
    char        op;
  } algebra[] = {
    { "union", '|' },
    { "intersection", '&' },
    { "difference", '-' },
    { "symmetric_difference", '^' },
    { "update", '|' },
    { "intersection_update", '&' },
    { "difference_update", '-' },
    { "symmetric_difference_update", '^' },
  };
  guint n = _graft_tracer_n_args (args);

  if ((recv->seq.size && g_strv_contains (changing, name)) ||
      (kwargs != NULL && kwargs->keys->len > 0))
    return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                               "'%s' object has no method '%s' that Graft models",
                               _graft_value_type_name (recv), name);
  if (strcmp (name, "add") == 0 || strcmp (name, "discard") == 0 || strcmp (name, "remove") == 0)
    {
      Value *item;

      if (!_graft_tracer_check_arity (t, name, args, 1, 1, at))
        return NULL;
      item = _graft_tracer_arg (args, 0);
      if (name[0] == 'a')
        return _graft_set_add (t, recv, item, at) ? _graft_value_none () : NULL;
      if (!check_hashable (t, item, at))
        return NULL;
      for (guint i = 0; i < recv->seq.items->len; i++)
        if (set_equal (recv->seq.items->pdata[i], item))
          {
            _graft_vec_remove_index (recv->seq.items, i);
            return _graft_value_none ();
          }
      if (name[0] == 'r')
        {
          g_autoptr (GString) key = g_string_new (NULL);

          /* KeyError's text is the key's repr, when Python prints it. */
          _graft_value_append_str (key, item, TRUE);
          _graft_tracer_raise (t, "KeyError", at->start, at->end, "%s", key->str);
          if (_graft_value_is_number (item) || item->kind == VAL_STR || item->kind == VAL_NONE)
            {
              t->raised_args = _graft_value_seq (t, VAL_TUPLE, 1);
              _graft_value_seq_add (t->raised_args, item);
            }
          return NULL;
        }
      return _graft_value_none ();
    }
  if (strcmp (name, "clear") == 0)
    {
      if (!_graft_tracer_check_arity (t, name, args, 0, 0, at))
        return NULL;
      /* CPython gives it a new table (the finger stays). */
      recv->seq.items->len = 0;
      recv->seq.unordered = FALSE;
      return _graft_value_none ();
    }
  if (strcmp (name, "copy") == 0)
    {
      Value *out = _graft_value_set (t, recv->seq.size);

      if (!_graft_tracer_check_arity (t, name, args, 0, 0, at))
        return NULL;
      for (guint i = 0; i < recv->seq.items->len; i++)
        _graft_value_seq_add (out, recv->seq.items->pdata[i]);
      out->seq.unordered = recv->seq.unordered;
      return out;
    }
  if (strcmp (name, "pop") == 0)
    {
      Value *item;

      if (!_graft_tracer_check_arity (t, name, args, 0, 0, at))
        return NULL;
      if (recv->seq.items->len == 0)
        {
          _graft_tracer_raise (t, "KeyError", at->start, at->end, "'pop from an empty set'");
          t->raised_args = _graft_value_seq (t, VAL_TUPLE, 1);
          _graft_value_seq_add (t->raised_args, _graft_value_str (t, "pop from an empty set", -1));
          return NULL;
        }
      if (!_graft_set_order_known (recv))
        return _graft_set_items (t, recv, TRUE, at);
      if (recv->seq.items->len > 1 && recv->seq.finger == SET_FINGER_UNKNOWN)
        return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                                   "pop() starts past the slot of the set's last pop(), which "
                                   "Graft does not know: sort it (sorted(s)) first");
      /* CPython's pop() walks the slots from past the last one it took
       * (`{0, 1, 2}`: pop() is 0; add(0), and pop() is 1). */
      item = recv->seq.items->pdata[0];
      for (guint k = 0; recv->seq.items->len > 1 && k < 8; k++)
        {
          gint64 slot = (recv->seq.finger + k) % 8;
          guint  i;

          for (i = 0; i < recv->seq.items->len; i++)
            if (known_slot (recv->seq.items->pdata[i]) == slot)
              break;
          if (i < recv->seq.items->len)
            {
              item = recv->seq.items->pdata[i];
              break;
            }
        }
      recv->seq.finger = recv->seq.unordered || known_slot (item) < 0
                             ? SET_FINGER_UNKNOWN
                             : (guint8) known_slot (item) + 1;
      for (guint i = 0; i < recv->seq.items->len; i++)
        if (recv->seq.items->pdata[i] == item)
          {
            _graft_vec_remove_index (recv->seq.items, i);
            break;
          }
      return item;
    }
  for (guint k = 0; k < G_N_ELEMENTS (algebra); k++)
    if (strcmp (name, algebra[k].name) == 0)
      {
        Value *acc = recv;

        for (guint i = 0; i < n; i++)
          {
            Value *arg = _graft_tracer_arg (args, i);
            Value *other = as_set (t, arg, at);

            if (other == NULL)
              return NULL;
            acc = combine (t, algebra[k].op, acc, other, arg->kind == VAL_SET);
          }
        if (!g_str_has_suffix (name, "update"))
          return acc == recv ? combine (t, '|', recv, _graft_value_set (t, FALSE), TRUE) : acc;
        _graft_set_assign (recv, acc);
        return _graft_value_none ();
      }
  if (strcmp (name, "issubset") == 0 || strcmp (name, "issuperset") == 0 ||
      strcmp (name, "isdisjoint") == 0)
    {
      Value *other;

      if (!_graft_tracer_check_arity (t, name, args, 1, 1, at) ||
          (other = as_set (t, _graft_tracer_arg (args, 0), at)) == NULL)
        return NULL;
      if (strcmp (name, "issubset") == 0)
        return _graft_value_bool (subset (recv, other));
      if (strcmp (name, "issuperset") == 0)
        return _graft_value_bool (subset (other, recv));
      return _graft_value_bool (combine (t, '&', recv, other, TRUE)->seq.items->len == 0);
    }
  return _graft_tracer_fail (t, at->start, at->end, GRAFT_PARSE_ERROR_UNSUPPORTED,
                             "'%s' object has no method '%s' that Graft models",
                             _graft_value_type_name (recv), name);
}
