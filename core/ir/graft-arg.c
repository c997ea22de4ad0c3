/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-arg.c: argument values: making, copying, freeing and comparing them
 * (as graft_arg_equal() and as Python's `==`).  How they print is in
 * graft-arg-repr.c.  Values nest only as deep as the parser and the listing
 * reader allow (GRAFT_MAX_PARSE_DEPTH), which bounds the recursion here.
 */
#include "config.h"

#include "graft-arg.h"
#include "graft-arg-pool-private.h"

#include <math.h>
#include <string.h>

void
graft_arg_init_none (GraftArg *arg)
{
  memset (arg, 0, sizeof *arg);
  arg->kind = GRAFT_ARG_NONE;
}

void
graft_arg_init_ellipsis (GraftArg *arg)
{
  memset (arg, 0, sizeof *arg);
  arg->kind = GRAFT_ARG_ELLIPSIS;
}

void
graft_arg_init_bool (GraftArg *arg,
                     gboolean  value)
{
  memset (arg, 0, sizeof *arg);
  arg->kind = GRAFT_ARG_BOOL;
  arg->b = value ? TRUE : FALSE;
}

void
graft_arg_init_int (GraftArg *arg,
                    gint64    value)
{
  memset (arg, 0, sizeof *arg);
  arg->kind = GRAFT_ARG_INT;
  arg->i = value;
}

void
graft_arg_init_float (GraftArg *arg,
                      double    value)
{
  memset (arg, 0, sizeof *arg);
  arg->kind = GRAFT_ARG_FLOAT;
  arg->f = value;
}

void
graft_arg_init_complex (GraftArg *arg,
                        double    real,
                        double    imag)
{
  memset (arg, 0, sizeof *arg);
  arg->kind = GRAFT_ARG_COMPLEX;
  arg->c = g_new (double, 2);
  arg->c[0] = real;
  arg->c[1] = imag;
}

/**
 * graft_arg_init_str:
 * @value: UTF-8 bytes
 * @length: their number, or -1 if NUL-terminated
 *
 * Initialises @arg to a copy of a string, which may contain NUL bytes.
 */
void
graft_arg_init_str (GraftArg   *arg,
                    const char *value,
                    gssize      length)
{
  memset (arg, 0, sizeof *arg);
  if (length < 0)
    length = strlen (value);
  arg->kind = GRAFT_ARG_STR;
  arg->n = (guint32) length;
  arg->s = g_malloc (length + 1);
  if (length > 0)
    memcpy (arg->s, value, length);
  arg->s[length] = '\0';
}

void
graft_arg_init_symbol (GraftArg   *arg,
                       const char *name)
{
  memset (arg, 0, sizeof *arg);
  arg->kind = GRAFT_ARG_SYMBOL;
  arg->s = g_strdup (name);
  arg->n = strlen (name);
}

/**
 * graft_arg_init_device:
 * @str_form: the device as `str(device)` prints it: `cpu`, `cuda:0`
 */
void
graft_arg_init_device (GraftArg   *arg,
                       const char *str_form)
{
  memset (arg, 0, sizeof *arg);
  arg->kind = GRAFT_ARG_DEVICE;
  arg->s = g_strdup (str_form);
  arg->n = strlen (str_form);
}

void
graft_arg_init_node (GraftArg  *arg,
                     GraftNode *node)
{
  memset (arg, 0, sizeof *arg);
  arg->kind = GRAFT_ARG_NODE;
  arg->node = node;
}

/**
 * graft_arg_init_seq:
 * @kind: %GRAFT_ARG_TUPLE or %GRAFT_ARG_LIST
 * @n_items: the number of items, all initialised to `None`
 */
void
graft_arg_init_seq (GraftArg    *arg,
                    GraftArgKind kind,
                    guint        n_items)
{
  g_return_if_fail (kind == GRAFT_ARG_TUPLE || kind == GRAFT_ARG_LIST);

  memset (arg, 0, sizeof *arg);
  arg->kind = kind;
  arg->n = n_items;
  arg->items = n_items > 0 ? g_new0 (GraftArg, n_items) : NULL;
}

/**
 * graft_arg_init_dict:
 * @n_entries: the number of entries; items `2k` and `2k+1` are the key and
 *   value of entry `k`, all initialised to `None`
 */
void
graft_arg_init_dict (GraftArg *arg,
                     guint     n_entries)
{
  memset (arg, 0, sizeof *arg);
  arg->kind = GRAFT_ARG_DICT;
  arg->n = n_entries;
  arg->items = n_entries > 0 ? g_new0 (GraftArg, 2 * (gsize) n_entries) : NULL;
}

/**
 * graft_arg_init_slice:
 *
 * Initialises `slice(None, None, None)`; set items 0, 1 and 2.
 */
void
graft_arg_init_slice (GraftArg *arg)
{
  memset (arg, 0, sizeof *arg);
  arg->kind = GRAFT_ARG_SLICE;
  arg->n = 3;
  arg->items = g_new0 (GraftArg, 3);
}

/**
 * graft_arg_count_items:
 *
 * Returns: the number of items a container stores (a dict stores two per
 *   entry, a slice three), 0 for anything else
 */
guint
graft_arg_count_items (const GraftArg *arg)
{
  return _graft_arg_count_items (arg);
}

gboolean
graft_arg_is_container (const GraftArg *arg)
{
  return _graft_arg_is_container (arg);
}

void
graft_arg_copy (GraftArg       *dest,
                const GraftArg *src)
{
  guint n_items;

  *dest = *src;
  switch (src->kind)
    {
    case GRAFT_ARG_STR:
      graft_arg_init_str (dest, src->s, src->n);
      return;
    case GRAFT_ARG_SYMBOL:
    case GRAFT_ARG_DEVICE:
      dest->s = g_strdup (src->s);
      return;
    case GRAFT_ARG_COMPLEX:
      dest->c = g_memdup2 (src->c, 2 * sizeof (double));
      return;
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_LIST:
    case GRAFT_ARG_DICT:
    case GRAFT_ARG_SLICE:
      n_items = graft_arg_count_items (src);
      dest->items = n_items > 0 ? g_new (GraftArg, n_items) : NULL;
      for (guint i = 0; i < n_items; i++)
        graft_arg_copy (&dest->items[i], &src->items[i]);
      return;
    case GRAFT_ARG_NONE:
    case GRAFT_ARG_ELLIPSIS:
    case GRAFT_ARG_BOOL:
    case GRAFT_ARG_INT:
    case GRAFT_ARG_FLOAT:
    case GRAFT_ARG_NODE:
    default:
      return;
    }
}

/**
 * graft_arg_clear:
 *
 * Frees what @arg owns and leaves it `None`.
 */
void
graft_arg_clear (GraftArg *arg)
{
  guint n_items;

  switch (arg->kind)
    {
    case GRAFT_ARG_STR:
    case GRAFT_ARG_SYMBOL:
    case GRAFT_ARG_DEVICE:
      g_free (arg->s);
      break;
    case GRAFT_ARG_COMPLEX:
      g_free (arg->c);
      break;
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_LIST:
    case GRAFT_ARG_DICT:
    case GRAFT_ARG_SLICE:
      n_items = graft_arg_count_items (arg);
      for (guint i = 0; i < n_items; i++)
        graft_arg_clear (&arg->items[i]);
      g_free (arg->items);
      break;
    case GRAFT_ARG_NONE:
    case GRAFT_ARG_ELLIPSIS:
    case GRAFT_ARG_BOOL:
    case GRAFT_ARG_INT:
    case GRAFT_ARG_FLOAT:
    case GRAFT_ARG_NODE:
    default:
      break;
    }
  graft_arg_init_none (arg);
}

/**
 * graft_arg_equal:
 *
 * Structural identity: the same kind and the same value all the way down
 * (nodes by identity, floats bit for bit).  Used to compare graphs.
 *
 * Returns: whether @a and @b are the same value
 */
gboolean
graft_arg_equal (const GraftArg *a,
                 const GraftArg *b)
{
  guint n_items;

  if (a->kind != b->kind)
    return FALSE;
  switch (a->kind)
    {
    case GRAFT_ARG_NONE:
    case GRAFT_ARG_ELLIPSIS:
      return TRUE;
    case GRAFT_ARG_BOOL:
      return a->b == b->b;
    case GRAFT_ARG_INT:
      return a->i == b->i;
    case GRAFT_ARG_FLOAT:
      return memcmp (&a->f, &b->f, sizeof (double)) == 0;
    case GRAFT_ARG_COMPLEX:
      return memcmp (a->c, b->c, 2 * sizeof (double)) == 0;
    case GRAFT_ARG_STR:
    case GRAFT_ARG_SYMBOL:
    case GRAFT_ARG_DEVICE:
      return a->n == b->n && memcmp (a->s, b->s, a->n) == 0;
    case GRAFT_ARG_NODE:
      return a->node == b->node;
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_LIST:
    case GRAFT_ARG_DICT:
    case GRAFT_ARG_SLICE:
      if (a->n != b->n)
        return FALSE;
      n_items = graft_arg_count_items (a);
      for (guint i = 0; i < n_items; i++)
        if (!graft_arg_equal (&a->items[i], &b->items[i]))
          return FALSE;
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
numeric_value (const GraftArg *a,
               double         *out_re,
               double         *out_im,
               gboolean       *out_is_int,
               gint64         *out_int)
{
  *out_im = 0;
  *out_is_int = FALSE;
  switch (a->kind)
    {
    case GRAFT_ARG_BOOL:
      *out_re = a->b ? 1 : 0;
      *out_is_int = TRUE;
      *out_int = a->b ? 1 : 0;
      return TRUE;
    case GRAFT_ARG_INT:
      *out_re = (double) a->i;
      *out_is_int = TRUE;
      *out_int = a->i;
      return TRUE;
    case GRAFT_ARG_FLOAT:
      *out_re = a->f;
      return TRUE;
    case GRAFT_ARG_COMPLEX:
      *out_re = a->c[0];
      *out_im = a->c[1];
      return TRUE;
    case GRAFT_ARG_NONE:
    case GRAFT_ARG_ELLIPSIS:
    case GRAFT_ARG_STR:
    case GRAFT_ARG_SYMBOL:
    case GRAFT_ARG_DEVICE:
    case GRAFT_ARG_NODE:
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_LIST:
    case GRAFT_ARG_DICT:
    case GRAFT_ARG_SLICE:
    default:
      return FALSE;
    }
}

/* Python compares an int with a float exactly, not through a rounded
 * double: 2**53 + 1 != float(2**53). */
static gboolean
int_equals_double (gint64 i,
                   double d)
{
  if (!isfinite (d) || d != floor (d))
    return FALSE;
  if (d < -9223372036854775808.0 || d >= 9223372036854775808.0)
    return FALSE;
  return (gint64) d == i;
}

/* The NaN of `math.nan` (and `torch.nan`, the same object): Python
 * compares container items by identity first, so `slice(1, math.nan)`
 * equals itself while a NaN made anywhere else (`float('nan')`, `inf -
 * inf`) is a new object, equal to nothing.  Graft marks the shared one
 * by a payload of its own. */
#define SHARED_NAN_BITS G_GUINT64_CONSTANT (0x7ff8000000000001)

/**
 * graft_arg_shared_nan:
 *
 * Returns: the NaN that stands for the one object `math.nan`
 */
double
graft_arg_shared_nan (void)
{
  guint64 bits = SHARED_NAN_BITS;
  double  f;

  memcpy (&f, &bits, sizeof f);
  return f;
}

static gboolean
is_shared_nan (const GraftArg *a)
{
  guint64 bits;

  if (a->kind != GRAFT_ARG_FLOAT)
    return FALSE;
  memcpy (&bits, &a->f, sizeof bits);
  return bits == SHARED_NAN_BITS;
}

/* How Python compares the items of two containers: `x is y or x == y`. */
static gboolean
items_equal (const GraftArg *a,
             const GraftArg *b)
{
  return (is_shared_nan (a) && is_shared_nan (b)) || graft_arg_python_equal (a, b);
}

/**
 * graft_arg_python_equal:
 *
 * Python's `==` between two values: numbers compare across bool, int, float
 * and complex (`2 == 2.0`, `True == 1`), containers compare item by item,
 * a tuple never equals a list.  Nodes compare by identity.
 *
 * Returns: whether `a == b` holds in Python
 */
gboolean
graft_arg_python_equal (const GraftArg *a,
                        const GraftArg *b)
{
  double   are, aim, bre, bim;
  gboolean aint, bint;
  gint64   ai = 0, bi = 0;

  if (numeric_value (a, &are, &aim, &aint, &ai) && numeric_value (b, &bre, &bim, &bint, &bi))
    {
      if (aint && bint)
        return ai == bi;
      if (aint && bim == 0)
        return int_equals_double (ai, bre);
      if (bint && aim == 0)
        return int_equals_double (bi, are);
      return are == bre && aim == bim;
    }
  if (a->kind != b->kind)
    return FALSE;
  switch (a->kind)
    {
    case GRAFT_ARG_NONE:
    case GRAFT_ARG_ELLIPSIS:
      return TRUE;
    case GRAFT_ARG_STR:
    case GRAFT_ARG_SYMBOL:
    case GRAFT_ARG_DEVICE:
      return a->n == b->n && memcmp (a->s, b->s, a->n) == 0;
    case GRAFT_ARG_NODE:
      return a->node == b->node;
    case GRAFT_ARG_TUPLE:
    case GRAFT_ARG_LIST:
    case GRAFT_ARG_SLICE:
      if (a->n != b->n)
        return FALSE;
      for (guint i = 0; i < a->n; i++)
        if (!items_equal (&a->items[i], &b->items[i]))
          return FALSE;
      return TRUE;
    case GRAFT_ARG_DICT:
      /* Dicts are equal when they hold the same keys with equal values,
       * whatever the order. */
      if (a->n != b->n)
        return FALSE;
      for (guint i = 0; i < a->n; i++)
        {
          gboolean found = FALSE;

          for (guint j = 0; j < b->n && !found; j++)
            if (items_equal (&a->items[2 * i], &b->items[2 * j]))
              {
                if (!items_equal (&a->items[2 * i + 1], &b->items[2 * j + 1]))
                  return FALSE;
                found = TRUE;
              }
          if (!found)
            return FALSE;
        }
      return TRUE;
    case GRAFT_ARG_BOOL:
    case GRAFT_ARG_INT:
    case GRAFT_ARG_FLOAT:
    case GRAFT_ARG_COMPLEX:
    default:
      return FALSE;
    }
}

/**
 * graft_arg_has_node:
 *
 * Returns: whether @arg is a node or a container holding one
 */
gboolean
graft_arg_has_node (const GraftArg *arg)
{
  guint n_items;

  if (arg->kind == GRAFT_ARG_NODE)
    return TRUE;
  n_items = graft_arg_count_items (arg);
  for (guint i = 0; i < n_items; i++)
    if (graft_arg_has_node (&arg->items[i]))
      return TRUE;
  return FALSE;
}

const char *
graft_arg_kind_to_string (GraftArgKind kind)
{
  static const char *const names[] = {
    "None",
    "Ellipsis",
    "bool",
    "int",
    "float",
    "complex",
    "str",
    "symbol",
    "device",
    "node",
    "tuple",
    "list",
    "dict",
    "slice",
  };

  if ((guint) kind < G_N_ELEMENTS (names))
    return names[kind];
  return "?";
}
