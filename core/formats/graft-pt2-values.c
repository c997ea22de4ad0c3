/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pt2-values.c: the values of a `.pt2` program.  The metadata of
 * every named value (tensor_values: dtype as torch abbreviates it, shape
 * and stride as readable code prints them, symbolic sizes included
 * (graft-sympy.c), the device; the symbolic numbers; script objects), and
 * arguments as deserialize_input reads them, as Graft arguments that print
 * as torch prints them: nodes, lists of nodes (None inside), numbers as
 * Python reads the JSON, dtypes, memory formats and layouts as their
 * `torch.` names, devices.
 */
#include "config.h"

#include "graft-pt2-private.h"
#include "graft-arg.h"
#include "graft-meta.h"
#include "graft-source.h"
#include "graft-sympy-private.h"

#include <math.h>
#include <string.h>

/* The values of schema.py's enums, by number. */
typedef struct
{
  int         number;
  const char *abbr;  /* torch/fx/graph.py: dtype_abbrs */
  const char *torch; /* the dtype as code prints it */
} ScalarType;

static const ScalarType scalar_types[] = {
  { 1, "u8", "torch.uint8" },
  { 2, "i8", "torch.int8" },
  { 3, "i16", "torch.int16" },
  { 4, "i32", "torch.int32" },
  { 5, "i64", "torch.int64" },
  { 6, "f16", "torch.float16" },
  { 7, "f32", "torch.float32" },
  { 8, "f64", "torch.float64" },
  { 9, "c32", "torch.complex32" },
  { 10, "c64", "torch.complex64" },
  { 11, "c128", "torch.complex128" },
  { 12, "b8", "torch.bool" },
  { 13, "bf16", "torch.bfloat16" },
  { 28, "u16", "torch.uint16" },
};

static const char *const memory_formats[] = {
  NULL,
  "torch.contiguous_format",
  "torch.channels_last",
  "torch.channels_last_3d",
  "torch.preserve_format",
};

static const char *const layouts[] = {
  NULL,
  "torch.sparse_coo",
  "torch.sparse_csr",
  "torch.sparse_csc",
  "torch.sparse_bsr",
  "torch.sparse_bsc",
  "torch._mkldnn",
  "torch.strided",
};

/* ------------------------------------------------------------------ */
/* Values: tensor metadata and symbolic numbers */

static const ScalarType *
find_scalar_type (gint64 number)
{
  for (guint i = 0; i < G_N_ELEMENTS (scalar_types); i++)
    if (scalar_types[i].number == number)
      return &scalar_types[i];
  return NULL;
}

/* str() of a SymExpr's expression (cached: shapes repeat it), or NULL. */
static const char *
expr_text (Reader   *r,
           Pt2Value *sym_expr)
{
  const char *srepr, *text, *problem = NULL;
  Pt2Value   *expr_str;
  GString    *out;

  if (!_graft_pt2_check_object (r, sym_expr, "'as_expr'") ||
      (expr_str = _graft_pt2_req (r, sym_expr, "expr_str")) == NULL ||
      (srepr = _graft_pt2_check_string (r, expr_str, "'expr_str'")) == NULL)
    return NULL;
  text = g_hash_table_lookup (r->expr_texts, srepr);
  if (text != NULL)
    return text;
  out = g_string_new (NULL);
  if (!_graft_sympy_print_srepr (srepr, strlen (srepr), out, r->symbols, &problem))
    {
      g_string_free (out, TRUE);
      _graft_pt2_fail (r, expr_str, GRAFT_PARSE_ERROR_SYNTAX, "not a sympy expression: %s",
                       problem);
      return NULL;
    }
  text = _graft_pt2_intern_len (r, out->str, strlen (out->str));
  g_string_free (out, TRUE);
  g_hash_table_insert (r->expr_texts, g_strdup (srepr), (gpointer) text);
  return text;
}

/* A SymInt (`as_int` or `as_expr`) as torch prints it, appended to @out. */
static gboolean
append_sym_int (Reader   *r,
                Pt2Value *node,
                GString  *out)
{
  const char *type, *text;
  Pt2Value   *value;
  gint64      i;

  if (!_graft_pt2_read_union (r, node, "a SymInt", &type, &value))
    return FALSE;
  if (strcmp (type, "as_int") == 0)
    {
      if (!_graft_pt2_check_int (r, value, "'as_int'", &i))
        return FALSE;
      graft_append_int (out, i);
      return TRUE;
    }
  if (strcmp (type, "as_expr") == 0)
    {
      if ((text = expr_text (r, value)) == NULL)
        return FALSE;
      g_string_append (out, text);
      return TRUE;
    }
  return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "a SymInt has no field '%s'", type);
}

/* The integer of a SymInt that is a plain `{"as_int": N}`, the dims
 * of nearly every shape; %FALSE for anything else. */
static inline gboolean
plain_sym_int (Pt2Value *node,
               gint64   *out)
{
  const Pt2Member *member;

  if (node->type != PT2_OBJECT || node->len != 1)
    return FALSE;
  member = &node->v.members[0];
  if (member->value.type != PT2_INT || strcmp (member->key, "as_int") != 0)
    return FALSE;
  *out = member->value.v.i;
  return TRUE;
}

/* The shape text of @dims when every dim is a plain integer and the text
 * fits @buf: written there (`[8, 3, 3, 3]`), its length returned; else 0. */
static gsize
plain_shape_text (Pt2Value *dims,
                  char     *buf,
                  gsize     size)
{
  gsize at = 0;

  buf[at++] = '[';
  for (guint k = 0; k < dims->len; k++)
    {
      char    digits[24];
      gsize   d = sizeof digits;
      gint64  i;
      guint64 u;

      if (!plain_sym_int (&dims->v.items[k], &i))
        return 0;
      u = i < 0 ? (guint64) 0 - (guint64) i : (guint64) i;
      do
        {
          digits[--d] = (char) ('0' + u % 10);
          u /= 10;
        }
      while (u != 0);
      if (i < 0)
        digits[--d] = '-';
      /* ", ", the digits, and room for "]" after. */
      if (at + 2 + (sizeof digits - d) + 1 > size)
        return 0;
      if (k > 0)
        {
          buf[at++] = ',';
          buf[at++] = ' ';
        }
      memcpy (buf + at, digits + d, sizeof digits - d);
      at += sizeof digits - d;
    }
  buf[at++] = ']';
  return at;
}

/* Whether every item of the array @dims is a plain SymInt. */
static gboolean
plain_dims (Pt2Value *dims)
{
  gint64 i;

  for (guint k = 0; k < dims->len; k++)
    if (!plain_sym_int (&dims->v.items[k], &i))
      return FALSE;
  return TRUE;
}

/**
 * Whether read_tensor_value() reads the TensorMeta @tm without fail: its
 * dtype one torch has, its sizes and strides plain integers, its device a
 * type and an index that is absent, null or an integer.  The tree shares
 * such metadata between tensors whose texts are the same
 * (graft-pt2-tree.c), as only an error would tell them apart.
 */
gboolean
_graft_pt2_tensor_meta_is_plain (Pt2Value *tm)
{
  Pt2Value *dtype, *sizes, *strides, *device, *type, *index;

  if (tm->type != PT2_OBJECT || (dtype = _graft_pt2_member (tm, "dtype")) == NULL ||
      dtype->type != PT2_INT || find_scalar_type (dtype->v.i) == NULL ||
      (sizes = _graft_pt2_member (tm, "sizes")) == NULL || sizes->type != PT2_ARRAY ||
      (strides = _graft_pt2_member (tm, "strides")) == NULL || strides->type != PT2_ARRAY ||
      (device = _graft_pt2_member (tm, "device")) == NULL || device->type != PT2_OBJECT ||
      (type = _graft_pt2_member (device, "type")) == NULL || type->type != PT2_STRING)
    return FALSE;
  index = _graft_pt2_member (device, "index");
  if (index != NULL && index->type != PT2_NULL && index->type != PT2_INT)
    return FALSE;
  return plain_dims (sizes) && plain_dims (strides);
}

/* `[2, s0]`: torch's stringify_shape of a list of SymInts. */
static const char *
shape_text (Reader   *r,
            Pt2Value *dims)
{
  guint len = dims->len;
  char  buf[256];
  gsize n = plain_shape_text (dims, buf, sizeof buf - 1);

  if (n > 0)
    {
      buf[n] = '\0';
      return _graft_pt2_intern_len (r, buf, n);
    }
  g_string_assign (r->scratch, "[");
  for (guint k = 0; k < len; k++)
    {
      if (k > 0)
        g_string_append (r->scratch, ", ");
      if (!append_sym_int (r, &dims->v.items[k], r->scratch))
        return NULL;
    }
  g_string_append_c (r->scratch, ']');
  return _graft_pt2_intern (r, r->scratch->str);
}

/* `cpu`, `cuda:0`: str(torch.device) of a Device. */
static const char *
device_text (Reader   *r,
             Pt2Value *device)
{
  const char *type;
  Pt2Value   *index;
  gint64      i;

  if (!_graft_pt2_check_object (r, device, "'device'") ||
      (type = _graft_pt2_req_interned (r, device, "type")) == NULL)
    return NULL;
  index = _graft_pt2_opt (device, "index");
  if (index == NULL || (index)->type == PT2_NULL)
    return type;
  if (!_graft_pt2_check_int (r, index, "'index'", &i))
    return NULL;
  g_string_printf (r->scratch, "%s:%" G_GINT64_FORMAT, type, i);
  return _graft_pt2_intern (r, r->scratch->str);
}

static GraftNodeMeta *
new_value (Reader        *r,
           const char    *name,
           GraftValueKind kind)
{
  return _graft_pt2_values_add_other (&r->values, name, kind);
}

static gboolean
read_tensor_value (Reader    *r,
                   Pt2Tensor *meta,
                   Pt2Value  *tm)
{
  const ScalarType *st;
  Pt2Value         *sizes, *strides;
  Pt2Value         *device;
  gint64            dtype;

  if (!_graft_pt2_check_object (r, tm, "a TensorMeta") ||
      !_graft_pt2_req_int (r, tm, "dtype", &dtype))
    return FALSE;
  if ((st = find_scalar_type (dtype)) == NULL)
    return _graft_pt2_fail (r, _graft_pt2_req (r, tm, "dtype"), GRAFT_PARSE_ERROR_SYNTAX,
                            "unknown dtype %" G_GINT64_FORMAT, dtype);
  if ((sizes = _graft_pt2_req_array (r, tm, "sizes")) == NULL ||
      (strides = _graft_pt2_req_array (r, tm, "strides")) == NULL ||
      (device = _graft_pt2_req (r, tm, "device")) == NULL)
    return FALSE;
  meta->dtype = _graft_pt2_intern (r, st->abbr);
  if ((meta->shape = shape_text (r, sizes)) == NULL ||
      (meta->stride = shape_text (r, strides)) == NULL ||
      (meta->device = device_text (r, device)) == NULL)
    return FALSE;
  return TRUE;
}

/* A SymInt, SymFloat or SymBool value: `as_expr`, or the plain number. */
static gboolean
read_sym_value (Reader     *r,
                const char *name,
                Pt2Value   *node,
                const char *what,
                const char *plain)
{
  GraftNodeMeta *meta;
  const char    *type;
  Pt2Value      *value;

  if (!_graft_pt2_read_union (r, node, what, &type, &value))
    return FALSE;
  if (strcmp (type, "as_expr") == 0)
    {
      meta = new_value (r, name, GRAFT_VALUE_SYMBOL);
      return (meta->symbol = expr_text (r, value)) != NULL;
    }
  if (strcmp (type, plain) == 0 && _graft_pt2_is_scalar (value))
    {
      GraftArg arg;

      meta = new_value (r, name, GRAFT_VALUE_OTHER);
      if (_graft_pt2_holds (value, PT2_BOOL))
        graft_arg_init_bool (&arg, value->v.b);
      else if (_graft_pt2_holds (value, PT2_INT))
        graft_arg_init_int (&arg, value->v.i);
      else if (_graft_pt2_holds (value, PT2_DOUBLE))
        graft_arg_init_float (&arg, value->v.d);
      else
        return _graft_pt2_fail (r, value, GRAFT_PARSE_ERROR_SYNTAX, "'%s' must be a number", plain);
      {
        g_autofree char *text = graft_arg_repr (&arg, GRAFT_REPR_CODE);

        meta->symbol = _graft_pt2_intern (r, text);
      }
      graft_arg_clear (&arg);
      return TRUE;
    }
  return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s has no field '%s'", what, type);
}

/* ------------------------------------------------------------------ */
/* The tensors' texts made ahead */

/* A tensor's texts as the thread made them: each in the thread's chunk,
 * after its length and hash (two guint32), NUL-terminated. */
typedef struct
{
  const char *dtype; /* static: a ScalarType's abbreviation */
  const char *shape;
  const char *stride;
  const char *device;
} AheadTensor;

/* Tensors made lately, by their metadata's members (the tree shares the
 * members of metadata of the same text). */
#define AHEAD_RECENT 64

typedef struct
{
  const Pt2Member *members;
  AheadTensor      tensor;
} AheadRecent;

struct _Pt2Ahead
{
  Pt2Value      *dict; /* `tensor_values`, read only while the thread runs */
  GThread       *thread;
  gint           cancelled;
  AheadTensor   *tensors; /* one per member of dict, the first `done` made */
  guint          done;
  GStringChunk  *chunk;
  GraftNameSlot *cache; /* PT2_CACHE_SIZE slots: a text made lately -> its copy */
  AheadRecent    recent[AHEAD_RECENT];
};

/* Tensor values from this many on are made on a thread; fewer, in line. */
static guint ahead_thread_min = 4096;

/* For tests: a thread from @n_tensors tensor values on (0: always;
 * G_MAXUINT: the tensors are all read the ordinary way). */
void
_graft_pt2_values_set_thread_min (guint n_tensors)
{
  ahead_thread_min = n_tensors;
}

/* The thread's copy of the @len bytes at @text, one per text met lately. */
static const char *
ahead_text (Pt2Ahead   *ahead,
            const char *text,
            gsize       len)
{
  guint          hash = _graft_pt2_hash (text, len);
  GraftNameSlot *slot = &ahead->cache[hash & (PT2_CACHE_SIZE - 1)];
  char           buf[8 + 256];
  guint32        header[2] = { (guint32) len, hash };
  const char    *copy;

  if (slot->key != NULL && slot->hash == hash && slot->len == len &&
      memcmp (slot->key, text, len) == 0)
    return slot->key;
  g_assert (len <= sizeof buf - 8);
  memcpy (buf, header, 8);
  memcpy (buf + 8, text, len);
  copy = g_string_chunk_insert_len (ahead->chunk, buf, (gssize) (len + 8)) + 8;
  *slot = (GraftNameSlot){ copy, hash, (guint) len, NULL };
  return copy;
}

/* The graph's copies of texts ahead_text() made, by the address of the
 * thread's copy (take_ahead(): a few texts, each met many times). */
#define AHEAD_INTERNED 64

typedef struct
{
  const char *text;
  const char *interned;
} AheadInterned;

/* The graph's copy of a text ahead_text() made. */
static const char *
ahead_intern (Reader        *r,
              AheadInterned *interned,
              const char    *text)
{
  AheadInterned *slot = &interned[(GPOINTER_TO_SIZE (text) >> 3) % AHEAD_INTERNED];
  guint32        header[2];

  if (slot->text == text)
    return slot->interned;
  memcpy (header, text - 8, 8);
  *slot = (AheadInterned){ text, _graft_pt2_intern_hashed (r, text, header[0], header[1]) };
  return slot->interned;
}

/* read_tensor_value() of a tensor whose metadata is all plain (its dims
 * integers, its device's index absent, null or an integer), without the
 * graph: %FALSE for any other, which is then read the ordinary way. */
static gboolean
ahead_tensor (Pt2Ahead    *ahead,
              Pt2Value    *tm,
              AheadTensor *out)
{
  Pt2Value         *dtype, *sizes, *strides, *device, *type, *index;
  const ScalarType *st;
  char              buf[256];
  gsize             n;

  if (tm->type != PT2_OBJECT || (dtype = _graft_pt2_member (tm, "dtype")) == NULL ||
      dtype->type != PT2_INT || (st = find_scalar_type (dtype->v.i)) == NULL ||
      (sizes = _graft_pt2_member (tm, "sizes")) == NULL || sizes->type != PT2_ARRAY ||
      (strides = _graft_pt2_member (tm, "strides")) == NULL || strides->type != PT2_ARRAY ||
      (device = _graft_pt2_member (tm, "device")) == NULL || device->type != PT2_OBJECT ||
      (type = _graft_pt2_member (device, "type")) == NULL || type->type != PT2_STRING)
    return FALSE;
  out->dtype = st->abbr;
  if ((n = plain_shape_text (sizes, buf, sizeof buf - 1)) == 0)
    return FALSE;
  out->shape = ahead_text (ahead, buf, n);
  if ((n = plain_shape_text (strides, buf, sizeof buf - 1)) == 0)
    return FALSE;
  out->stride = ahead_text (ahead, buf, n);
  /* device_text(). */
  index = _graft_pt2_member (device, "index");
  if (index == NULL || index->type == PT2_NULL)
    {
      n = type->len;
      if (n >= sizeof buf)
        return FALSE;
      out->device = ahead_text (ahead, type->v.s, n);
      return TRUE;
    }
  if (index->type != PT2_INT)
    return FALSE;
  if (type->len >= sizeof buf)
    return FALSE;
  n = (gsize) g_snprintf (buf, sizeof buf, "%.*s:%" G_GINT64_FORMAT, (int) type->len, type->v.s,
                          index->v.i);
  if (n >= sizeof buf)
    return FALSE;
  out->device = ahead_text (ahead, buf, n);
  return TRUE;
}

static gpointer
ahead_run (gpointer data)
{
  Pt2Ahead *ahead = data;

  for (guint m = 0; m < ahead->dict->len; m++)
    {
      Pt2Value    *tm = &ahead->dict->v.members[m].value;
      AheadRecent *recent;

      if ((m & 1023) == 0 && g_atomic_int_get (&ahead->cancelled))
        break;
      /* Not an empty object's (no members), which the empty slots match. */
      recent = tm->type == PT2_OBJECT && tm->v.members != NULL
                   ? &ahead->recent[(GPOINTER_TO_SIZE (tm->v.members) / sizeof (Pt2Member)) %
                                    AHEAD_RECENT]
                   : NULL;
      if (recent != NULL && recent->members == tm->v.members)
        ahead->tensors[m] = recent->tensor;
      else if (!ahead_tensor (ahead, tm, &ahead->tensors[m]))
        break;
      else if (recent != NULL)
        *recent = (AheadRecent){ tm->v.members, ahead->tensors[m] };
      ahead->done = m + 1;
    }
  return NULL;
}

/* Starts making the texts of the tensors of @graph_module's graph, as
 * far as they are plain, on a thread while the signature is read (the
 * thread only reads the tree and keeps what it makes to itself). */
void
_graft_pt2_values_start (Reader   *r,
                         Pt2Value *graph_module)
{
  Pt2Value *graph = _graft_pt2_member (graph_module, "graph");
  Pt2Value *dict;
  Pt2Ahead *ahead;

  if (ahead_thread_min == G_MAXUINT || graph == NULL || graph->type != PT2_OBJECT ||
      (dict = _graft_pt2_member (graph, "tensor_values")) == NULL || dict->type != PT2_OBJECT ||
      dict->len == 0)
    return;
  ahead = g_new0 (Pt2Ahead, 1);
  ahead->dict = dict;
  ahead->tensors = g_new (AheadTensor, dict->len);
  ahead->chunk = g_string_chunk_new (64 * 1024);
  ahead->cache = g_new0 (GraftNameSlot, PT2_CACHE_SIZE);
  r->ahead = ahead;
  if (dict->len >= ahead_thread_min)
    ahead->thread = g_thread_try_new ("graft-pt2-values", ahead_run, ahead, NULL);
  if (ahead->thread == NULL)
    ahead_run (ahead);
}

/* Waits for the thread, if any, and frees what it made. */
void
_graft_pt2_values_stop (Reader *r)
{
  Pt2Ahead *ahead = g_steal_pointer (&r->ahead);

  if (ahead == NULL)
    return;
  g_atomic_int_set (&ahead->cancelled, 1);
  if (ahead->thread != NULL)
    g_thread_join (ahead->thread);
  g_string_chunk_free (ahead->chunk);
  g_free (ahead->cache);
  g_free (ahead->tensors);
  g_free (ahead);
}

/* The tensors of @dict the thread made, interned in the graph; returns
 * how many (the others are read the ordinary way). */
static guint
take_ahead (Reader    *r,
            Pt2Value  *dict,
            Pt2Tensor *tensors)
{
  Pt2Ahead     *ahead = r->ahead;
  guint         done;
  const char   *abbr = NULL, *dtype = NULL;
  AheadInterned interned[AHEAD_INTERNED] = { { NULL, NULL } };

  if (ahead == NULL || ahead->dict != dict)
    return 0;
  if (ahead->thread != NULL)
    {
      g_thread_join (ahead->thread);
      ahead->thread = NULL;
    }
  done = ahead->done;
  for (guint m = 0; m < done; m++)
    {
      /* A dtype is one of a few static texts, mostly the last one. */
      if (ahead->tensors[m].dtype != abbr)
        dtype = _graft_pt2_intern (r, abbr = ahead->tensors[m].dtype);
      tensors[m].dtype = dtype;
      tensors[m].shape = ahead_intern (r, interned, ahead->tensors[m].shape);
      tensors[m].stride = ahead_intern (r, interned, ahead->tensors[m].stride);
      tensors[m].device = ahead_intern (r, interned, ahead->tensors[m].device);
    }
  _graft_pt2_values_stop (r);
  return done;
}

/* deserialize_graph's first part: every value's metadata, by name. */
gboolean
_graft_pt2_read_values (Reader   *r,
                        Pt2Value *graph)
{
  static const struct
  {
    const char *key;
    gboolean    required;
    const char *what;
    const char *plain;
  } sym_dicts[] = {
    { "sym_int_values", TRUE, "a SymInt", "as_int" },
    { "sym_float_values", FALSE, "a SymFloat", "as_float" },
    { "sym_bool_values", TRUE, "a SymBool", "as_bool" },
  };
  Pt2Value  *dict;
  Pt2Tensor *tensors;

  if ((dict = _graft_pt2_req_object (r, graph, "tensor_values")) == NULL)
    return FALSE;
  tensors = _graft_pt2_values_set_tensors (&r->values, dict);
  for (guint m = take_ahead (r, dict, tensors); m < dict->len; m++)
    if (!read_tensor_value (r, &tensors[m], &dict->v.members[m].value))
      return FALSE;
  for (guint k = 0; k < G_N_ELEMENTS (sym_dicts); k++)
    {
      dict = sym_dicts[k].required ? _graft_pt2_req_object (r, graph, sym_dicts[k].key)
                                   : _graft_pt2_opt (graph, sym_dicts[k].key);
      if (dict == NULL)
        {
          if (sym_dicts[k].required)
            return FALSE;
          continue;
        }
      if (!_graft_pt2_check_object (r, dict, sym_dicts[k].key))
        return FALSE;
      for (guint m = 0; m < dict->len; m++)
        if (!read_sym_value (r, dict->v.members[m].key, &dict->v.members[m].value,
                             sym_dicts[k].what, sym_dicts[k].plain))
          return FALSE;
    }
  if ((dict = _graft_pt2_opt (graph, "custom_obj_values")) != NULL)
    {
      if (!_graft_pt2_check_object (r, dict, "'custom_obj_values'"))
        return FALSE;
      for (guint m = 0; m < dict->len; m++)
        {
          const char    *name = dict->v.members[m].key;
          Pt2Value      *value = &dict->v.members[m].value;
          GraftNodeMeta *meta;
          const char    *fqn;

          if (!_graft_pt2_check_object (r, value, "a CustomObjArgument") ||
              (fqn = _graft_pt2_req_interned (r, value, "class_fqn")) == NULL)
            return FALSE;
          meta = new_value (r, name, GRAFT_VALUE_OTHER);
          meta->symbol = fqn;
        }
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Arguments */

/* A JSON string that check_text made of a float token. */
static gboolean
float_mark (Reader   *r,
            Pt2Value *node,
            double   *out)
{
  const char *s = node->v.s;
  gsize       len = node->len;
  char        mark = len > 0 ? s[0] : '\0';
  gsize       offset;
  const char *text;

  if (len == 1 && mark == NAN_MARK)
    *out = graft_arg_shared_nan ();
  else if (len == 6 && mark == INF_MARK)
    *out = INFINITY;
  else if (len == 7 && mark == NEG_INF_MARK)
    *out = -INFINITY;
  else
    return FALSE;
  for (gsize k = 1; k < len; k++)
    if (s[k] != mark)
      return FALSE;
  /* A string written with \u escapes decodes to the same bytes: only the
   * marks themselves stand raw in the text, or, in a text read in place
   * (never written), the float token where a string's quote would be. */
  offset = _graft_pt2_node_offset (r, node);
  text = graft_source_get_text (r->member);
  return offset + 1 < graft_source_get_length (r->member) &&
         (text[offset + 1] == mark || (r->in_place && text[offset] != '"'));
}

/* A JSON scalar as the Python value json.loads makes of it. */
gboolean
_graft_pt2_read_scalar (Reader   *r,
                        Pt2Value *node,
                        GraftArg *out)
{
  double f;

  if (node == NULL || (node)->type == PT2_NULL)
    graft_arg_init_none (out);
  else if (_graft_pt2_holds (node, PT2_BOOL))
    graft_arg_init_bool (out, node->v.b);
  else if (_graft_pt2_holds (node, PT2_INT))
    graft_arg_init_int (out, node->v.i);
  else if (_graft_pt2_holds (node, PT2_DOUBLE))
    graft_arg_init_float (out, node->v.d);
  else if (_graft_pt2_holds (node, PT2_STRING))
    {
      if (float_mark (r, node, &f))
        graft_arg_init_float (out, f);
      else
        graft_arg_init_str (out, node->v.s, node->len);
    }
  else
    return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX,
                            "expected a number, a string, a bool or null, not %s",
                            _graft_pt2_type_name (node));
  return TRUE;
}

gboolean
_graft_pt2_lookup_node (Reader   *r,
                        Pt2Value *name_node,
                        GraftArg *out)
{
  gsize       len = 0;
  const char *name = _graft_pt2_check_string_len (r, name_node, "a name", &len);
  GraftNode  *node;

  if (name == NULL)
    return FALSE;
  node = _graft_pt2_nodes_find (&r->by_name, name, len);
  if (node == NULL)
    return _graft_pt2_fail (r, name_node, GRAFT_PARSE_ERROR_GRAPH, "undefined value '%s'",
                            _graft_pt2_string (r, name_node));
  graft_arg_init_node (out, node);
  return TRUE;
}

/* A TensorArgument ({"name": ...}) as the node it names. */
gboolean
_graft_pt2_read_tensor_ref (Reader   *r,
                            Pt2Value *node,
                            GraftArg *out)
{
  Pt2Value *name;

  return _graft_pt2_check_object (r, node, "a TensorArgument") &&
         (name = _graft_pt2_req (r, node, "name")) != NULL && _graft_pt2_lookup_node (r, name, out);
}

/* deserialize_sym_argument: a SymIntArgument, SymFloatArgument or
 * SymBoolArgument (@plain: its plain field). */
static gboolean
read_sym_argument (Reader     *r,
                   Pt2Value   *node,
                   const char *plain,
                   GraftArg   *out)
{
  const char *type;
  Pt2Value   *value;

  if (!_graft_pt2_read_union (r, node, "a symbolic argument", &type, &value))
    return FALSE;
  if (strcmp (type, "as_name") == 0)
    return _graft_pt2_lookup_node (r, value, out);
  if (strcmp (type, plain) == 0)
    return _graft_pt2_read_scalar (r, value, out);
  return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX,
                          "a symbolic argument has no field '%s'", type);
}

static gboolean
read_enum (Reader            *r,
           Pt2Value          *value,
           const char *const *names,
           guint              n_names,
           const char        *what,
           GraftArg          *out)
{
  gint64 v;

  if (!_graft_pt2_check_int (r, value, what, &v))
    return FALSE;
  if (v < 0 || (guint64) v >= n_names || names[v] == NULL)
    return _graft_pt2_fail (r, value, GRAFT_PARSE_ERROR_SYNTAX, "unknown %s %" G_GINT64_FORMAT,
                            what, v);
  graft_arg_init_symbol (out, names[v]);
  return TRUE;
}

/* A list value of deserialize_input: each item read by @type's rule. */
static gboolean
read_list (Reader     *r,
           const char *type,
           Pt2Value   *value,
           GraftArg   *out)
{
  Pt2Value *items = _graft_pt2_check_array (r, value, type);
  guint     len;

  if (items == NULL)
    return FALSE;
  len = items->len;
  graft_arg_init_seq (out, GRAFT_ARG_LIST, len);
  for (guint k = 0; k < len; k++)
    {
      Pt2Value *item = &items->v.items[k];
      GraftArg *dest = &out->items[k];
      gboolean  ok;

      if (strcmp (type, "as_tensors") == 0)
        ok = _graft_pt2_read_tensor_ref (r, item, dest);
      else if (strcmp (type, "as_sym_ints") == 0)
        ok = read_sym_argument (r, item, "as_int", dest);
      else if (strcmp (type, "as_sym_floats") == 0)
        ok = read_sym_argument (r, item, "as_float", dest);
      else if (strcmp (type, "as_sym_bools") == 0)
        ok = read_sym_argument (r, item, "as_bool", dest);
      else if (strcmp (type, "as_optional_tensors") == 0)
        {
          const char *item_type;
          Pt2Value   *item_value;

          ok =
              _graft_pt2_read_union (r, item, "an OptionalTensorArgument", &item_type, &item_value);
          if (ok && strcmp (item_type, "as_none") == 0)
            graft_arg_init_none (dest);
          else if (ok && strcmp (item_type, "as_tensor") == 0)
            ok = _graft_pt2_read_tensor_ref (r, item_value, dest);
          else if (ok)
            ok = _graft_pt2_fail (r, item, GRAFT_PARSE_ERROR_SYNTAX,
                                  "an OptionalTensorArgument has no field '%s'", item_type);
        }
      else /* as_ints, as_floats, as_bools, as_strings: the values as they are */
        ok = _graft_pt2_read_scalar (r, item, dest);
      if (!ok)
        {
          graft_arg_clear (out);
          return FALSE;
        }
    }
  return TRUE;
}

/* deserialize_input: an Argument as the value of the graph. */
gboolean
_graft_pt2_read_argument (Reader   *r,
                          Pt2Value *node,
                          GraftArg *out)
{
  const char *type;
  Pt2Value   *value;

  graft_arg_init_none (out);
  if (!_graft_pt2_read_union (r, node, "an Argument", &type, &value))
    return FALSE;
  if (strcmp (type, "as_none") == 0)
    return TRUE;
  if (strcmp (type, "as_tensor") == 0)
    return _graft_pt2_read_tensor_ref (r, value, out);
  if (strcmp (type, "as_int") == 0 || strcmp (type, "as_float") == 0 ||
      strcmp (type, "as_bool") == 0 || strcmp (type, "as_string") == 0)
    return _graft_pt2_read_scalar (r, value, out);
  /* The lists before the rarer types (the types differ: the order is
   * only the cost of finding one). */
  if (strcmp (type, "as_tensors") == 0 || strcmp (type, "as_ints") == 0 ||
      strcmp (type, "as_floats") == 0 || strcmp (type, "as_bools") == 0 ||
      strcmp (type, "as_strings") == 0 || strcmp (type, "as_sym_ints") == 0 ||
      strcmp (type, "as_sym_floats") == 0 || strcmp (type, "as_sym_bools") == 0 ||
      strcmp (type, "as_optional_tensors") == 0)
    return read_list (r, type, value, out);
  if (strcmp (type, "as_scalar_type") == 0)
    {
      const ScalarType *st;
      gint64            v;

      if (!_graft_pt2_check_int (r, value, "'as_scalar_type'", &v))
        return FALSE;
      if ((st = find_scalar_type (v)) == NULL)
        return _graft_pt2_fail (r, value, GRAFT_PARSE_ERROR_SYNTAX,
                                "unknown scalar type %" G_GINT64_FORMAT, v);
      graft_arg_init_symbol (out, st->torch);
      return TRUE;
    }
  if (strcmp (type, "as_memory_format") == 0)
    return read_enum (r, value, memory_formats, G_N_ELEMENTS (memory_formats), "memory format",
                      out);
  if (strcmp (type, "as_layout") == 0)
    return read_enum (r, value, layouts, G_N_ELEMENTS (layouts), "layout", out);
  if (strcmp (type, "as_device") == 0)
    {
      const char *text = device_text (r, value);

      if (text == NULL)
        return FALSE;
      graft_arg_init_device (out, text);
      return TRUE;
    }
  if (strcmp (type, "as_sym_int") == 0)
    return read_sym_argument (r, value, "as_int", out);
  if (strcmp (type, "as_sym_float") == 0)
    return read_sym_argument (r, value, "as_float", out);
  if (strcmp (type, "as_sym_bool") == 0)
    return read_sym_argument (r, value, "as_bool", out);
  if (strcmp (type, "as_custom_obj") == 0)
    {
      Pt2Value   *name;
      const char *text;

      if (!_graft_pt2_check_object (r, value, "a CustomObjArgument") ||
          (name = _graft_pt2_req (r, value, "name")) == NULL ||
          (text = _graft_pt2_check_string (r, name, "'name'")) == NULL)
        return FALSE;
      if (_graft_pt2_nodes_find (&r->by_name, text, strlen (text)) != NULL)
        return _graft_pt2_lookup_node (r, name, out);
      return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_UNSUPPORTED,
                              "a script object constant ('%s') is not supported", text);
    }
  if (strcmp (type, "as_graph") == 0 || strcmp (type, "as_operator") == 0)
    return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_UNSUPPORTED,
                            "'%s' arguments (of higher-order operators) are not supported", type);
  return _graft_pt2_fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "unknown argument type '%s'", type);
}
