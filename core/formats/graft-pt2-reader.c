/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pt2-reader.c: reads a `.pt2` archive, the zip torch.export.save
 * writes, into the graph `torch.export.load(path).graph_module` holds in
 * torch 2.6 (torch/_export/serde/serialize.py, GraphModuleDeserializer;
 * the schema is torch/_export/serde/schema.py).  docs/programs.md says
 * what each rule comes from, with examples.
 *
 * Only the member `serialized_exported_program.json` is read (at the
 * root, as torch 2.6 writes it, or in one top-level folder), and the
 * member `version` when there is one: weights, constants and example
 * inputs are never opened.  libzip reads the zip from the bytes of the
 * source and json-glib parses the member.  Before json-glib sees the text
 * it is checked in one pass: UTF-8, nesting (json-glib recurses per level
 * and has no limit of its own), integers beyond 64 bits (which json-glib
 * wraps silently) and raw control characters in strings (which Python
 * refuses) are errors, and the tokens `NaN`, `Infinity` and `-Infinity`
 * that Python's json writes for floats are replaced, in place and at the
 * same length, by strings of control characters that no string of the
 * checked text can hold, so that json-glib reads them and the reader
 * knows them back.
 *
 * Errors are located in the member, as `ARCHIVE:MEMBER:LINE:COL`: a
 * syntax error where json-glib stopped, any other error at the start of
 * the value it is about (a missing key at its object).  json-glib keeps no
 * positions, so the place of a value is found when an error needs it, by
 * following the value's path from the root through the text.  Errors of
 * the archive itself are at `ARCHIVE:1:1`.
 *
 * The graph is built as the deserializer builds it.  Placeholders come
 * from the graph's inputs, call_function nodes from its nodes, with their
 * arguments placed by the operator's schema (graft-aten-schema.h);
 * operators with several outputs get a getitem node per output, and one
 * output node ends the graph.  torch makes each node with a name from the
 * graph's namespace and then overwrites the name with the serialized one
 * (`sync_fx_node`) without telling the namespace: the names FX itself
 * gives (`chunk_default`, `as_none`, the getitem of a list) depend on the
 * names the namespace made, not on the nodes' names.  So the reader keeps
 * a second namespace that follows torch's exactly, names the nodes as
 * torch does, and at the end reserves in the graph's namespace the names
 * torch's holds that no node has, so that later edits do not reuse them.
 *
 * Every node gets a #GraftNodeMeta from its value (tensor_values and the
 * symbolic values) and its metadata, and the graph its signature (its
 * #GraftProgram), its range constraints and the class name `GraphModule`.
 * What torch 2.6 cannot load is refused: a schema version other than 8,
 * an operator outside the aten schema table or the symbolic operators, a
 * name used before it is defined or defined twice; so are higher-order
 * operators (graphs inside graphs), which Graft does not represent.
 */
#include "config.h"

#include "graft-program.h"
#include "graft-arg.h"
#include "graft-aten-schema.h"
#include "graft-error.h"
#include "graft-graph.h"
#include "graft-limits.h"
#include "graft-meta.h"
#include "graft-namespace.h"
#include "graft-source.h"
#include "graft-sympy-private.h"

#include <errno.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <zip.h>

#define MEMBER_NAME "serialized_exported_program.json"

/* The schema version torch 2.6 writes (schema.py: SCHEMA_VERSION). */
#define SCHEMA_MAJOR 8
#define SCHEMA_MINOR 2

/* What the float tokens Python writes become: a string of one control
 * character repeated, as long as the token (quotes included). */
#define NAN_MARK     '\x01'
#define INF_MARK     '\x02'
#define NEG_INF_MARK '\x03'

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

/* serialize.py: _SYM_INT_OPS, _SYM_BOOL_OPS and _SYM_FLOAT_OPS as
 * serialized, with the target the graph prints. */
static const struct
{
  const char *serialized;
  const char *target;
} sym_ops[] = {
  { "_operator.mul", "operator.mul" },
  { "_operator.add", "operator.add" },
  { "_operator.sub", "operator.sub" },
  { "_operator.floordiv", "operator.floordiv" },
  { "_operator.mod", "operator.mod" },
  { "_operator.pow", "operator.pow" },
  { "_operator.truediv", "operator.truediv" },
  { "_operator.eq", "operator.eq" },
  { "_operator.ne", "operator.ne" },
  { "_operator.le", "operator.le" },
  { "_operator.ge", "operator.ge" },
  { "_operator.lt", "operator.lt" },
  { "_operator.gt", "operator.gt" },
  { "_operator.neg", "operator.neg" },
  { "_operator.pos", "operator.pos" },
  { "torch.sym_int", "torch.sym_int" },
  { "torch.sym_float", "torch.sym_float" },
  { "torch.sym_ite", "torch.sym_ite" },
  { "torch.sym_max", "torch.sym_max" },
  { "torch.sym_min", "torch.sym_min" },
  { "torch.sym_sqrt", "torch.sym_sqrt" },
  { "torch.sym_not", "torch.sym_not" },
  /* Not a symbolic operator, but the deserializer treats it as one. */
  { "torch.ops.aten.item.default", "torch.ops.aten.item.default" },
};

/* A node's metadata, as deserialize_metadata reads it; strings borrowed
 * from the JSON or interned in the graph. */
typedef struct
{
  const char             *stack_trace;
  const char             *source_fn_stack;
  const char             *torch_fn;
  const GraftModuleFrame *modules;
  guint                   n_modules;
} NodeInfo;

typedef struct
{
  const GraftDialect *dialect;      /* static */
  const char         *archive_name; /* Borrowed: the archive, as errors name it */
  GError            **error;        /* Borrowed: where the first error goes */

  /* Owned */
  GraftSource    *member; /* the JSON text, named ARCHIVE:MEMBER */
  JsonParser     *parser;
  GraftGraph     *graph;
  GraftNamespace *shadow;        /* torch's graph namespace: the names it made */
  GHashTable     *by_name;       /* serialized name -> GraftNode (borrowed) */
  GHashTable     *values;        /* serialized name -> GraftNodeMeta (owned) */
  GHashTable     *expr_texts;    /* srepr -> its str(), both owned */
  GHashTable     *symbols;       /* names of the symbols in the values, owned */
  GHashTable     *module_stacks; /* nn_module_stack text -> GArray of frames */
  GPtrArray      *reserved;      /* names torch's namespace made for renamed nodes
                                  * (borrowed from the shadow) */
  GPtrArray *input_names;        /* per input spec, the argument's name (borrowed) */
  GString   *scratch;
} Reader;

/* ------------------------------------------------------------------ */
/* Positions: where a JSON value starts in the member text */

static gsize
skip_ws (const char *t,
         gsize       n,
         gsize       i)
{
  while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
    i++;
  return i;
}

/* @i at a `"`: the index after the closing quote. */
static gsize
skip_string (const char *t,
             gsize       n,
             gsize       i)
{
  for (i++; i < n; i++)
    {
      if (t[i] == '\\')
        i++;
      else if (t[i] == '"')
        return i + 1;
    }
  return n;
}

/* @i at a value: the index after it. */
static gsize
skip_value (const char *t,
            gsize       n,
            gsize       i)
{
  gsize depth = 0;

  if (i >= n)
    return n;
  if (t[i] == '"')
    return skip_string (t, n, i);
  if (t[i] != '{' && t[i] != '[')
    {
      while (i < n && t[i] != ',' && t[i] != ']' && t[i] != '}' && t[i] != ' ' && t[i] != '\n' &&
             t[i] != '\t' && t[i] != '\r')
        i++;
      return i;
    }
  while (i < n)
    {
      if (t[i] == '"')
        {
          i = skip_string (t, n, i);
          continue;
        }
      if (t[i] == '{' || t[i] == '[')
        depth++;
      else if (t[i] == '}' || t[i] == ']')
        {
          if (--depth == 0)
            return i + 1;
        }
      i++;
    }
  return n;
}

static void
append_utf8 (GString *out,
             gunichar c)
{
  if (!g_unichar_validate (c))
    c = 0xFFFD;
  g_string_append_unichar (out, c);
}

/* The text of the JSON string at @i, escapes decoded, into @out. */
static void
decode_string (const char *t,
               gsize       n,
               gsize       i,
               GString    *out)
{
  g_string_truncate (out, 0);
  for (i++; i < n && t[i] != '"'; i++)
    {
      if (t[i] != '\\' || i + 1 >= n)
        {
          g_string_append_c (out, t[i]);
          continue;
        }
      i++;
      switch (t[i])
        {
        case 'b':
          g_string_append_c (out, '\b');
          break;
        case 'f':
          g_string_append_c (out, '\f');
          break;
        case 'n':
          g_string_append_c (out, '\n');
          break;
        case 'r':
          g_string_append_c (out, '\r');
          break;
        case 't':
          g_string_append_c (out, '\t');
          break;
        case 'u':
          if (i + 4 < n)
            {
              char     hex[5] = { t[i + 1], t[i + 2], t[i + 3], t[i + 4], 0 };
              gunichar c = (gunichar) g_ascii_strtoull (hex, NULL, 16);

              i += 4;
              if (c >= 0xD800 && c < 0xDC00 && i + 6 < n && t[i + 1] == '\\' && t[i + 2] == 'u')
                {
                  char     lo_hex[5] = { t[i + 3], t[i + 4], t[i + 5], t[i + 6], 0 };
                  gunichar lo = (gunichar) g_ascii_strtoull (lo_hex, NULL, 16);

                  if (lo >= 0xDC00 && lo < 0xE000)
                    {
                      c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
                      i += 6;
                    }
                }
              append_utf8 (out, c);
            }
          break;
        default:
          g_string_append_c (out, t[i]);
          break;
        }
    }
}

/* One step of a path: a member name, or an index when @name is NULL. */
typedef struct
{
  const char *name;
  guint       index;
} Step;

/* @i at an object or array: where the step's value starts (the last
 * member of that name, as json-glib and Python keep the last), or @i. */
static gsize
follow_step (const char *t,
             gsize       n,
             gsize       i,
             const Step *step,
             GString    *key)
{
  gsize found = i;
  guint k = 0;

  if (i >= n || (t[i] != '{' && t[i] != '['))
    return i;
  for (i++;;)
    {
      i = skip_ws (t, n, i);
      if (i >= n || t[i] == '}' || t[i] == ']')
        return found;
      if (step->name != NULL)
        {
          gboolean match;

          if (t[i] != '"')
            return found;
          decode_string (t, n, i, key);
          match = strcmp (key->str, step->name) == 0;
          i = skip_ws (t, n, skip_string (t, n, i));
          if (i >= n || t[i] != ':')
            return found;
          i = skip_ws (t, n, i + 1);
          if (match)
            found = i;
        }
      else if (k++ == step->index)
        return i;
      i = skip_ws (t, n, skip_value (t, n, i));
      if (i >= n || t[i] != ',')
        return found;
      i++;
    }
}

/* The step from @parent to its child @child. */
static void
step_to (JsonNode *parent,
         JsonNode *child,
         Step     *out)
{
  out->name = NULL;
  out->index = 0;
  if (JSON_NODE_HOLDS_OBJECT (parent))
    {
      JsonObjectIter iter;
      const char    *name;
      JsonNode      *member;

      json_object_iter_init (&iter, json_node_get_object (parent));
      while (json_object_iter_next (&iter, &name, &member))
        if (member == child)
          {
            out->name = name;
            return;
          }
    }
  else if (JSON_NODE_HOLDS_ARRAY (parent))
    {
      JsonArray *array = json_node_get_array (parent);
      guint      len = json_array_get_length (array);

      for (guint k = 0; k < len; k++)
        if (json_array_get_element (array, k) == child)
          {
            out->index = k;
            return;
          }
    }
}

/* Where @node starts in the member text. */
static gsize
node_offset (Reader   *r,
             JsonNode *node)
{
  const char *t = graft_source_get_text (r->member);
  gsize       n = graft_source_get_length (r->member);
  g_autoptr (GPtrArray) chain = g_ptr_array_new ();
  g_autoptr (GString) key = g_string_new (NULL);
  gsize i = skip_ws (t, n, 0);

  for (JsonNode *p = node; p != NULL; p = json_node_get_parent (p))
    g_ptr_array_add (chain, p);
  for (guint k = chain->len - 1; k > 0; k--)
    {
      Step step;

      step_to (chain->pdata[k], chain->pdata[k - 1], &step);
      i = follow_step (t, n, i, &step, key);
    }
  return i;
}

/* ------------------------------------------------------------------ */
/* Errors and typed access to the JSON */

static gboolean fail (Reader             *r,
                      JsonNode           *at,
                      GraftParseErrorCode code,
                      const char         *format,
                      ...) G_GNUC_PRINTF (4, 5);

/* Sets the error at the start of @at (the member's start when %NULL);
 * returns %FALSE. */
static gboolean
fail (Reader             *r,
      JsonNode           *at,
      GraftParseErrorCode code,
      const char         *format,
      ...)
{
  g_autofree char *message = NULL;
  va_list          ap;
  gsize            offset;

  if (r->error != NULL && *r->error != NULL)
    return FALSE;
  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  offset = at != NULL ? node_offset (r, at) : 0;
  graft_set_error_at_offset (r->error, r->member, offset, offset, code, "%s", message);
  return FALSE;
}

static const char *
type_name (JsonNode *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return "null";
  if (JSON_NODE_HOLDS_OBJECT (node))
    return "an object";
  if (JSON_NODE_HOLDS_ARRAY (node))
    return "a list";
  switch (json_node_get_value_type (node) == G_TYPE_STRING    ? 0
          : json_node_get_value_type (node) == G_TYPE_BOOLEAN ? 1
                                                              : 2)
    {
    case 0:
      return "a string";
    case 1:
      return "a bool";
    default:
      return "a number";
    }
}

/* The member @key of the object @obj, or %NULL. */
static JsonNode *
opt (JsonNode   *obj,
     const char *key)
{
  return json_object_get_member (json_node_get_object (obj), key);
}

static JsonNode *
req (Reader     *r,
     JsonNode   *obj,
     const char *key)
{
  JsonNode *member = opt (obj, key);

  if (member == NULL)
    fail (r, obj, GRAFT_PARSE_ERROR_SYNTAX, "missing key '%s'", key);
  return member;
}

static gboolean
check_object (Reader     *r,
              JsonNode   *node,
              const char *what)
{
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    return TRUE;
  return fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s must be an object, not %s", what,
               type_name (node));
}

static JsonArray *
check_array (Reader     *r,
             JsonNode   *node,
             const char *what)
{
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    return json_node_get_array (node);
  fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s must be a list, not %s", what, type_name (node));
  return NULL;
}

static gboolean
holds (JsonNode *node,
       GType     type)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

static const char *
check_string (Reader     *r,
              JsonNode   *node,
              const char *what)
{
  if (holds (node, G_TYPE_STRING))
    return json_node_get_string (node);
  fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s must be a string, not %s", what, type_name (node));
  return NULL;
}

static gboolean
check_int (Reader     *r,
           JsonNode   *node,
           const char *what,
           gint64     *out)
{
  if (holds (node, G_TYPE_INT64))
    {
      *out = json_node_get_int (node);
      return TRUE;
    }
  return fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s must be an integer, not %s", what,
               type_name (node));
}

static gboolean
check_bool (Reader     *r,
            JsonNode   *node,
            const char *what,
            gboolean   *out)
{
  if (holds (node, G_TYPE_BOOLEAN))
    {
      *out = json_node_get_boolean (node);
      return TRUE;
    }
  return fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s must be a bool, not %s", what,
               type_name (node));
}

static JsonNode *
req_object (Reader     *r,
            JsonNode   *obj,
            const char *key)
{
  JsonNode        *member = req (r, obj, key);
  g_autofree char *what = NULL;

  if (member == NULL)
    return NULL;
  what = g_strdup_printf ("'%s'", key);
  return check_object (r, member, what) ? member : NULL;
}

static JsonArray *
req_array (Reader     *r,
           JsonNode   *obj,
           const char *key)
{
  JsonNode        *member = req (r, obj, key);
  g_autofree char *what = NULL;

  if (member == NULL)
    return NULL;
  what = g_strdup_printf ("'%s'", key);
  return check_array (r, member, what);
}

static const char *
req_string (Reader     *r,
            JsonNode   *obj,
            const char *key)
{
  JsonNode        *member = req (r, obj, key);
  g_autofree char *what = NULL;

  if (member == NULL)
    return NULL;
  what = g_strdup_printf ("'%s'", key);
  return check_string (r, member, what);
}

static gboolean
req_int (Reader     *r,
         JsonNode   *obj,
         const char *key,
         gint64     *out)
{
  JsonNode        *member = req (r, obj, key);
  g_autofree char *what = NULL;

  if (member == NULL)
    return FALSE;
  what = g_strdup_printf ("'%s'", key);
  return check_int (r, member, what, out);
}

/* A union of schema.py (`_Union`): an object with exactly one member, its
 * type, holding the value. */
static gboolean
read_union (Reader      *r,
            JsonNode    *node,
            const char  *what,
            const char **out_type,
            JsonNode   **out_value)
{
  JsonObjectIter iter;

  if (!check_object (r, node, what))
    return FALSE;
  if (json_object_get_size (json_node_get_object (node)) != 1)
    return fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s must have exactly one key, not %u", what,
                 json_object_get_size (json_node_get_object (node)));
  json_object_iter_init (&iter, json_node_get_object (node));
  json_object_iter_next (&iter, out_type, out_value);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The archive */

static gboolean
archive_error (Reader     *r,
               const char *format,
               ...) G_GNUC_PRINTF (2, 3);

static gboolean
archive_error (Reader     *r,
               const char *format,
               ...)
{
  g_autofree char *message = NULL;
  va_list          ap;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  graft_set_error_at (r->error, r->archive_name, 1, 1, GRAFT_PARSE_ERROR_SYNTAX, "%s", message);
  return FALSE;
}

/* libzip's message, lowercased at the start as Graft's messages are. */
static char *
zip_message (zip_error_t *ze)
{
  char *text = g_strdup (zip_error_strerror (ze));

  if (text[0] != '\0' && g_ascii_isupper (text[0]) && !g_ascii_isupper (text[1]))
    text[0] = g_ascii_tolower (text[0]);
  return text;
}

/* The index of the member @base at the root, or else in one top-level
 * folder (the first such entry), or -1. */
static zip_int64_t
find_member (zip_t      *za,
             const char *base)
{
  zip_int64_t idx = zip_name_locate (za, base, 0);
  zip_int64_t n;
  gsize       base_len = strlen (base);

  if (idx >= 0)
    return idx;
  n = zip_get_num_entries (za, 0);
  for (zip_int64_t i = 0; i < n; i++)
    {
      const char *name = zip_get_name (za, (zip_uint64_t) i, ZIP_FL_ENC_RAW);
      const char *slash;
      gsize       len;

      if (name == NULL)
        continue;
      len = strlen (name);
      slash = strchr (name, '/');
      if (slash != NULL && slash > name && len == (gsize) (slash - name) + 1 + base_len &&
          strcmp (slash + 1, base) == 0)
        return i;
    }
  return -1;
}

static void
too_large (Reader     *r,
           const char *name,
           gsize       limit)
{
  if (limit >= 1024 * 1024)
    graft_set_error_at (r->error, r->archive_name, 1, 1, GRAFT_PARSE_ERROR_LIMIT,
                        "the member %s is larger than %" G_GSIZE_FORMAT " MiB", name,
                        limit / (1024 * 1024));
  else
    graft_set_error_at (r->error, r->archive_name, 1, 1, GRAFT_PARSE_ERROR_LIMIT,
                        "the member %s is larger than %" G_GSIZE_FORMAT " bytes", name, limit);
}

/* Reads member @idx, at most @limit bytes; NUL-terminates it. */
static char *
read_member (Reader     *r,
             zip_t      *za,
             zip_int64_t idx,
             gsize       limit,
             gsize      *out_len)
{
  const char *name = zip_get_name (za, (zip_uint64_t) idx, ZIP_FL_ENC_RAW);
  zip_stat_t  st;
  zip_file_t *zf;
  g_autoptr (GString) buf = NULL;
  char        chunk[65536];
  zip_int64_t got;

  zip_stat_init (&st);
  if (zip_stat_index (za, (zip_uint64_t) idx, 0, &st) == 0 && (st.valid & ZIP_STAT_SIZE) != 0 &&
      st.size > limit)
    {
      too_large (r, name, limit);
      return NULL;
    }
  zf = zip_fopen_index (za, (zip_uint64_t) idx, 0);
  if (zf == NULL)
    {
      g_autofree char *why = zip_message (zip_get_error (za));

      archive_error (r, "cannot read the member %s: %s", name, why);
      return NULL;
    }
  buf = g_string_sized_new ((st.valid & ZIP_STAT_SIZE) != 0 ? (gsize) st.size + 1 : 4096);
  while ((got = zip_fread (zf, chunk, sizeof chunk)) > 0)
    {
      if (buf->len + (gsize) got > limit)
        {
          zip_fclose (zf);
          too_large (r, name, limit);
          return NULL;
        }
      g_string_append_len (buf, chunk, got);
    }
  if (got < 0)
    {
      g_autofree char *why = zip_message (zip_file_get_error (zf));

      zip_fclose (zf);
      archive_error (r, "cannot read the member %s: %s", name, why);
      return NULL;
    }
  zip_fclose (zf);
  *out_len = buf->len;
  return g_string_free (g_steal_pointer (&buf), FALSE);
}

/* torch.export.load: the member `version` must be `MAJOR.MINOR` with the
 * major torch writes (split at dots as it is, not stripped). */
static gboolean
check_version (Reader     *r,
               const char *member_name,
               const char *text,
               gsize       len)
{
  g_autofree char *where = g_strconcat (r->archive_name, ":", member_name, NULL);
  g_autofree char *copy = g_strndup (text, len);
  g_auto (GStrv) parts = NULL;
  g_autoptr (GString) shown = g_string_new ("[");

  if (strlen (copy) != len || !g_utf8_validate (copy, -1, NULL))
    {
      graft_set_error_at (r->error, where, 1, 1, GRAFT_PARSE_ERROR_SYNTAX,
                          "the version is not UTF-8 text");
      return FALSE;
    }
  parts = g_strsplit (copy, ".", -1);
  if (g_strv_length (parts) == 2 && strcmp (parts[0], G_STRINGIFY (SCHEMA_MAJOR)) == 0)
    return TRUE;
  for (guint k = 0; parts[k] != NULL; k++)
    {
      if (k > 0)
        g_string_append (shown, ", ");
      graft_append_str_repr (shown, parts[k], strlen (parts[k]));
    }
  g_string_append_c (shown, ']');
  graft_set_error_at (r->error, where, 1, 1, GRAFT_PARSE_ERROR_UNSUPPORTED,
                      "serialized version %s does not match our current schema version (%d, %d)",
                      shown->str, SCHEMA_MAJOR, SCHEMA_MINOR);
  return FALSE;
}

/* Opens the archive and reads the JSON member (and checks `version`);
 * sets r->member. */
static gboolean
read_archive (Reader      *r,
              GraftSource *archive)
{
  zip_error_t      ze;
  zip_source_t    *src;
  zip_t           *za;
  zip_int64_t      idx, version_idx;
  g_autofree char *member_name = NULL;
  g_autofree char *version_name = NULL;
  char            *json;
  gsize            json_len = 0;

  if (!graft_pt2_detect (archive))
    return archive_error (r, graft_source_get_length (archive) == 0
                                 ? "the file is empty, not a zip archive"
                                 : "not a zip archive (it does not start with PK\\3\\4)");
  zip_error_init (&ze);
  src = zip_source_buffer_create (graft_source_get_text (archive),
                                  graft_source_get_length (archive), 0, &ze);
  if (src == NULL)
    {
      g_autofree char *why = zip_message (&ze);

      zip_error_fini (&ze);
      return archive_error (r, "cannot read the zip archive: %s", why);
    }
  za = zip_open_from_source (src, ZIP_RDONLY | ZIP_CHECKCONS, &ze);
  if (za == NULL)
    {
      g_autofree char *why = zip_message (&ze);
      int              code = zip_error_code_zip (&ze);

      zip_source_free (src);
      zip_error_fini (&ze);
      if (code == ZIP_ER_NOZIP)
        return archive_error (r, "not a zip archive (truncated?): it has no zip directory");
      return archive_error (r, "cannot read the zip archive: %s", why);
    }
  zip_error_fini (&ze);

  idx = find_member (za, MEMBER_NAME);
  if (idx < 0)
    {
      zip_discard (za);
      return archive_error (r, "the archive has no member %s: not a torch.export program",
                            MEMBER_NAME);
    }
  member_name = g_strdup (zip_get_name (za, (zip_uint64_t) idx, ZIP_FL_ENC_RAW));
  /* `version` beside the JSON member. */
  version_name = g_strdup_printf ("%.*sversion",
                                  (int) (strlen (member_name) - strlen (MEMBER_NAME)), member_name);
  version_idx = zip_name_locate (za, version_name, 0);
  if (version_idx < 0)
    {
      zip_discard (za);
      return archive_error (r, "the archive has no member %s, which torch.export.load needs",
                            version_name);
    }
  {
    gsize    vlen = 0;
    char    *version = read_member (r, za, version_idx, 64, &vlen);
    gboolean ok = version != NULL && check_version (r, version_name, version, vlen);

    g_free (version);
    if (!ok)
      {
        zip_discard (za);
        return FALSE;
      }
  }
  json = read_member (r, za, idx, GRAFT_MAX_JSON_BYTES, &json_len);
  zip_discard (za);
  if (json == NULL)
    return FALSE;
  {
    g_autofree char *name = g_strconcat (r->archive_name, ":", member_name, NULL);

    r->member = graft_source_new_take (name, json, json_len);
  }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The text check before json-glib, and parsing */

static gboolean
text_error (Reader             *r,
            gsize               offset,
            GraftParseErrorCode code,
            const char         *message)
{
  graft_set_error_at_offset (r->error, r->member, offset, offset, code, "%s", message);
  return FALSE;
}

/* Replaces @len bytes at @p (a float token) by a string of @mark. */
static void
mark_token (char *p,
            gsize len,
            char  mark)
{
  p[0] = '"';
  memset (p + 1, mark, len - 2);
  p[len - 1] = '"';
}

/* Whether the integer token [p, p + len) fits 64 bits. */
static gboolean
int_fits (const char *p,
          gsize       len)
{
  char  buf[32];
  char *end;

  if (len >= sizeof buf)
    return FALSE;
  memcpy (buf, p, len);
  buf[len] = '\0';
  errno = 0;
  (void) g_ascii_strtoll (buf, &end, 10);
  return errno == 0;
}

/* Where check_text is in the grammar. */
typedef enum {
  EXPECT_VALUE,     /* a value: the document, an array item, a member value */
  EXPECT_FIRST_KEY, /* after `{`: a key or `}` */
  EXPECT_KEY,       /* after `,` in an object */
  EXPECT_COLON,
  EXPECT_FIRST_ITEM, /* after `[`: a value or `]` */
  EXPECT_COMMA,      /* after a value in a container: `,` or its close */
  EXPECT_END,        /* after the document's value */
} Expect;

/* A string at t[i] == '"': its end, or an error at the offending byte. */
static gboolean
scan_string (Reader *r,
             gsize  *pos)
{
  const char *t = graft_source_get_text (r->member);
  gsize       n = graft_source_get_length (r->member);
  gsize       start = *pos;

  for (gsize i = start + 1; i < n; i++)
    {
      guchar c = (guchar) t[i];

      if (c == '"')
        {
          *pos = i + 1;
          return TRUE;
        }
      if (c < 0x20)
        return text_error (r, i, GRAFT_PARSE_ERROR_SYNTAX, "invalid control character in a string");
      if (c == '\\')
        {
          if (i + 1 >= n)
            break;
          if (t[i + 1] == 'u')
            {
              for (guint k = 2; k < 6; k++)
                if (i + k >= n || !g_ascii_isxdigit (t[i + k]))
                  return text_error (r, i + 1, GRAFT_PARSE_ERROR_SYNTAX, "invalid \\uXXXX escape");
              i += 5;
            }
          else if (strchr ("\"\\/bfnrt", t[i + 1]) != NULL && t[i + 1] != '\0')
            i++;
          else
            return text_error (r, i, GRAFT_PARSE_ERROR_SYNTAX, "invalid \\escape");
        }
    }
  return text_error (r, start, GRAFT_PARSE_ERROR_SYNTAX, "unterminated string");
}

/* A number as Python's json reads one, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`,
 * at t[*pos]; whether one was there. */
static gboolean
scan_number (const char *t,
             gsize       n,
             gsize      *pos,
             gboolean   *is_float)
{
  gsize i = *pos;

  *is_float = FALSE;
  if (i < n && t[i] == '-')
    i++;
  if (i >= n || !g_ascii_isdigit (t[i]))
    return FALSE;
  if (t[i] == '0')
    i++;
  else
    while (i < n && g_ascii_isdigit (t[i]))
      i++;
  if (i + 1 < n && t[i] == '.' && g_ascii_isdigit (t[i + 1]))
    {
      *is_float = TRUE;
      for (i++; i < n && g_ascii_isdigit (t[i]); i++)
        ;
    }
  if (i < n && (t[i] == 'e' || t[i] == 'E'))
    {
      gsize e = i + 1;

      if (e < n && (t[e] == '+' || t[e] == '-'))
        e++;
      if (e < n && g_ascii_isdigit (t[e]))
        {
          *is_float = TRUE;
          for (i = e; i < n && g_ascii_isdigit (t[i]); i++)
            ;
        }
    }
  *pos = i;
  return TRUE;
}

static gboolean
starts (const char *t,
        gsize       n,
        gsize       i,
        const char *word)
{
  gsize len = strlen (word);

  return n - i >= len && memcmp (t + i, word, len) == 0;
}

/* One value that is not a container, at t[*pos]: a string, a number or a
 * literal (NaN and the infinities are marked, as the top says). */
static gboolean
scan_scalar (Reader *r,
             gsize  *pos)
{
  char    *t = (char *) graft_source_get_text (r->member);
  gsize    n = graft_source_get_length (r->member);
  gsize    i = *pos;
  gboolean is_float;
  static const struct
  {
    const char *word;
    char        mark;
  } literals[] = {
    { "true", 0 },
    { "false", 0 },
    { "null", 0 },
    { "NaN", NAN_MARK },
    { "Infinity", INF_MARK },
    { "-Infinity", NEG_INF_MARK },
  };

  if (t[i] == '"')
    return scan_string (r, pos);
  for (guint k = 0; k < G_N_ELEMENTS (literals); k++)
    if (starts (t, n, i, literals[k].word))
      {
        gsize len = strlen (literals[k].word);

        if (literals[k].mark != 0)
          mark_token (t + i, len, literals[k].mark);
        *pos = i + len;
        return TRUE;
      }
  if (scan_number (t, n, pos, &is_float))
    {
      if (!is_float && !int_fits (t + i, *pos - i))
        return text_error (r, i, GRAFT_PARSE_ERROR_LIMIT, "an integer beyond 64 bits");
      return TRUE;
    }
  return text_error (r, i, GRAFT_PARSE_ERROR_SYNTAX, "expecting value");
}

/* The one pass over the text described at the top: a JSON grammar as
 * Python's json reads it (its messages too), with an explicit stack. */
static gboolean
check_text (Reader *r)
{
  const char *t = graft_source_get_text (r->member);
  gsize       n = graft_source_get_length (r->member);
  const char *bad;
  char        stack[GRAFT_MAX_JSON_DEPTH];
  guint       depth = 0;
  Expect      expect = EXPECT_VALUE;
  gsize       i = 0;

  if (!g_utf8_validate_len (t, n, &bad))
    return text_error (r, bad - t, GRAFT_PARSE_ERROR_SYNTAX,
                       *bad == '\0' ? "a NUL byte in the JSON text" : "the JSON text is not UTF-8");
  for (;;)
    {
      char c;

      while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        i++;
      if (i >= n)
        break;
      c = t[i];
      switch (expect)
        {
        case EXPECT_END:
          return text_error (r, i, GRAFT_PARSE_ERROR_SYNTAX, "extra data");
        case EXPECT_COLON:
          if (c != ':')
            return text_error (r, i, GRAFT_PARSE_ERROR_SYNTAX, "expecting ':' delimiter");
          i++;
          expect = EXPECT_VALUE;
          continue;
        case EXPECT_COMMA:
          if (c == ',')
            {
              i++;
              expect = stack[depth - 1] == '{' ? EXPECT_KEY : EXPECT_VALUE;
              /* Python 3.13: a comma before the close is an error of its own. */
              while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
                i++;
              if (i < n && (t[i] == '}' || t[i] == ']') &&
                  t[i] == (stack[depth - 1] == '{' ? '}' : ']'))
                {
                  gsize comma = i - 1;

                  while (t[comma] != ',')
                    comma--;
                  return text_error (r, comma, GRAFT_PARSE_ERROR_SYNTAX,
                                     stack[depth - 1] == '{'
                                         ? "illegal trailing comma before end of object"
                                         : "illegal trailing comma before end of array");
                }
              continue;
            }
          if (c == (stack[depth - 1] == '{' ? '}' : ']'))
            {
              i++;
              depth--;
              expect = depth == 0 ? EXPECT_END : EXPECT_COMMA;
              continue;
            }
          return text_error (r, i, GRAFT_PARSE_ERROR_SYNTAX, "expecting ',' delimiter");
        case EXPECT_FIRST_KEY:
        case EXPECT_KEY:
          if (c == '}' && expect == EXPECT_FIRST_KEY)
            {
              i++;
              depth--;
              expect = depth == 0 ? EXPECT_END : EXPECT_COMMA;
              continue;
            }
          if (c != '"')
            return text_error (r, i, GRAFT_PARSE_ERROR_SYNTAX,
                               "expecting property name enclosed in double quotes");
          if (!scan_string (r, &i))
            return FALSE;
          expect = EXPECT_COLON;
          continue;
        case EXPECT_FIRST_ITEM:
          if (c == ']')
            {
              i++;
              depth--;
              expect = depth == 0 ? EXPECT_END : EXPECT_COMMA;
              continue;
            }
          G_GNUC_FALLTHROUGH;
        case EXPECT_VALUE:
        default:
          if (c == '{' || c == '[')
            {
              if (depth == GRAFT_MAX_JSON_DEPTH)
                return text_error (r, i, GRAFT_PARSE_ERROR_LIMIT,
                                   "the JSON text nests more than " G_STRINGIFY (
                                       GRAFT_MAX_JSON_DEPTH) " levels deep");
              stack[depth++] = c;
              i++;
              expect = c == '{' ? EXPECT_FIRST_KEY : EXPECT_FIRST_ITEM;
              continue;
            }
          if (!scan_scalar (r, &i))
            return FALSE;
          expect = depth == 0 ? EXPECT_END : EXPECT_COMMA;
          continue;
        }
    }
  if (expect == EXPECT_END)
    return TRUE;
  if (expect == EXPECT_COLON)
    return text_error (r, n, GRAFT_PARSE_ERROR_SYNTAX, "expecting ':' delimiter");
  if (expect == EXPECT_COMMA)
    return text_error (r, n, GRAFT_PARSE_ERROR_SYNTAX, "expecting ',' delimiter");
  if (expect == EXPECT_FIRST_KEY || expect == EXPECT_KEY)
    return text_error (r, n, GRAFT_PARSE_ERROR_SYNTAX,
                       "expecting property name enclosed in double quotes");
  return text_error (r, n, GRAFT_PARSE_ERROR_SYNTAX, "expecting value");
}

/* json-glib's message, `<data>:LINE:COL: Parse error: TEXT`, as an error
 * at that place. */
static gboolean
syntax_error (Reader       *r,
              const GError *json_error)
{
  const char *m = json_error->message;
  const char *p = strstr (m, "<data>:");
  guint64     line = 1, col = 1;
  char       *end;

  if (p != NULL)
    {
      p += 7;
      line = g_ascii_strtoull (p, &end, 10);
      if (*end == ':')
        {
          col = g_ascii_strtoull (end + 1, &end, 10);
          if (*end == ':')
            m = end + 1;
        }
      while (*m == ' ')
        m++;
    }
  if (g_str_has_prefix (m, "Parse error: "))
    m += 13;
  if (g_str_has_prefix (m, "scanner: "))
    m += 9;
  {
    g_autofree char *text = g_strdup (m);

    if (text[0] != '\0' && g_ascii_isupper (text[0]) && !g_ascii_isupper (text[1]))
      text[0] = g_ascii_tolower (text[0]);
    graft_set_error_at (r->error, graft_source_get_filename (r->member),
                        (guint) CLAMP (line, 1, G_MAXUINT), (guint) CLAMP (col, 1, G_MAXUINT),
                        GRAFT_PARSE_ERROR_SYNTAX, "%s", text);
  }
  return FALSE;
}

static JsonNode *
parse_json (Reader *r)
{
  g_autoptr (GError) json_error = NULL;
  JsonNode *root;

  r->parser = json_parser_new ();
  if (!json_parser_load_from_data (r->parser, graft_source_get_text (r->member),
                                   (gssize) graft_source_get_length (r->member), &json_error))
    {
      syntax_error (r, json_error);
      return NULL;
    }
  root = json_parser_get_root (r->parser);
  if (root == NULL)
    fail (r, NULL, GRAFT_PARSE_ERROR_SYNTAX, "the JSON text is empty");
  return root;
}

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
           JsonNode *sym_expr)
{
  const char *srepr, *text, *problem = NULL;
  JsonNode   *expr_str;
  GString    *out;

  if (!check_object (r, sym_expr, "'as_expr'") ||
      (expr_str = req (r, sym_expr, "expr_str")) == NULL ||
      (srepr = check_string (r, expr_str, "'expr_str'")) == NULL)
    return NULL;
  text = g_hash_table_lookup (r->expr_texts, srepr);
  if (text != NULL)
    return text;
  out = g_string_new (NULL);
  if (!_graft_sympy_print_srepr (srepr, strlen (srepr), out, r->symbols, &problem))
    {
      g_string_free (out, TRUE);
      fail (r, expr_str, GRAFT_PARSE_ERROR_SYNTAX, "not a sympy expression: %s", problem);
      return NULL;
    }
  text = g_string_free (out, FALSE);
  g_hash_table_insert (r->expr_texts, g_strdup (srepr), (gpointer) text);
  return text;
}

/* A SymInt (`as_int` or `as_expr`) as torch prints it, appended to @out. */
static gboolean
append_sym_int (Reader   *r,
                JsonNode *node,
                GString  *out)
{
  const char *type, *text;
  JsonNode   *value;
  gint64      i;

  if (!read_union (r, node, "a SymInt", &type, &value))
    return FALSE;
  if (strcmp (type, "as_int") == 0)
    {
      if (!check_int (r, value, "'as_int'", &i))
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
  return fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "a SymInt has no field '%s'", type);
}

/* `[2, s0]`: torch's stringify_shape of a list of SymInts. */
static const char *
shape_text (Reader    *r,
            JsonArray *dims)
{
  guint len = json_array_get_length (dims);

  g_string_assign (r->scratch, "[");
  for (guint k = 0; k < len; k++)
    {
      if (k > 0)
        g_string_append (r->scratch, ", ");
      if (!append_sym_int (r, json_array_get_element (dims, k), r->scratch))
        return NULL;
    }
  g_string_append_c (r->scratch, ']');
  return graft_graph_intern (r->graph, r->scratch->str);
}

/* `cpu`, `cuda:0`: str(torch.device) of a Device. */
static const char *
device_text (Reader   *r,
             JsonNode *device)
{
  const char *type;
  JsonNode   *index;
  gint64      i;

  if (!check_object (r, device, "'device'") || (type = req_string (r, device, "type")) == NULL)
    return NULL;
  index = opt (device, "index");
  if (index == NULL || JSON_NODE_HOLDS_NULL (index))
    return graft_graph_intern (r->graph, type);
  if (!check_int (r, index, "'index'", &i))
    return NULL;
  g_string_printf (r->scratch, "%s:%" G_GINT64_FORMAT, type, i);
  return graft_graph_intern (r->graph, r->scratch->str);
}

static GraftNodeMeta *
new_value (Reader        *r,
           const char    *name,
           GraftValueKind kind)
{
  GraftNodeMeta *meta = g_new0 (GraftNodeMeta, 1);

  meta->kind = kind;
  g_hash_table_replace (r->values, (gpointer) name, meta);
  return meta;
}

static gboolean
read_tensor_value (Reader     *r,
                   const char *name,
                   JsonNode   *tm)
{
  GraftNodeMeta    *meta;
  const ScalarType *st;
  JsonArray        *sizes, *strides;
  JsonNode         *device;
  gint64            dtype;

  if (!check_object (r, tm, "a TensorMeta") || !req_int (r, tm, "dtype", &dtype))
    return FALSE;
  if ((st = find_scalar_type (dtype)) == NULL)
    return fail (r, req (r, tm, "dtype"), GRAFT_PARSE_ERROR_SYNTAX,
                 "unknown dtype %" G_GINT64_FORMAT, dtype);
  if ((sizes = req_array (r, tm, "sizes")) == NULL ||
      (strides = req_array (r, tm, "strides")) == NULL ||
      (device = req (r, tm, "device")) == NULL)
    return FALSE;
  meta = new_value (r, name, GRAFT_VALUE_TENSOR);
  meta->dtype = st->abbr;
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
                JsonNode   *node,
                const char *what,
                const char *plain)
{
  GraftNodeMeta *meta;
  const char    *type;
  JsonNode      *value;

  if (!read_union (r, node, what, &type, &value))
    return FALSE;
  if (strcmp (type, "as_expr") == 0)
    {
      meta = new_value (r, name, GRAFT_VALUE_SYMBOL);
      return (meta->symbol = expr_text (r, value)) != NULL;
    }
  if (strcmp (type, plain) == 0 && JSON_NODE_HOLDS_VALUE (value))
    {
      GraftArg arg;

      meta = new_value (r, name, GRAFT_VALUE_OTHER);
      if (holds (value, G_TYPE_BOOLEAN))
        graft_arg_init_bool (&arg, json_node_get_boolean (value));
      else if (holds (value, G_TYPE_INT64))
        graft_arg_init_int (&arg, json_node_get_int (value));
      else if (holds (value, G_TYPE_DOUBLE))
        graft_arg_init_float (&arg, json_node_get_double (value));
      else
        return fail (r, value, GRAFT_PARSE_ERROR_SYNTAX, "'%s' must be a number", plain);
      {
        g_autofree char *text = graft_arg_repr (&arg, GRAFT_REPR_CODE);

        meta->symbol = graft_graph_intern (r->graph, text);
      }
      graft_arg_clear (&arg);
      return TRUE;
    }
  return fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "%s has no field '%s'", what, type);
}

/* deserialize_graph's first part: every value's metadata, by name. */
static gboolean
read_values (Reader   *r,
             JsonNode *graph)
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
  JsonNode      *dict;
  JsonObjectIter iter;
  const char    *name;
  JsonNode      *value;

  if ((dict = req_object (r, graph, "tensor_values")) == NULL)
    return FALSE;
  json_object_iter_init (&iter, json_node_get_object (dict));
  while (json_object_iter_next (&iter, &name, &value))
    if (!read_tensor_value (r, name, value))
      return FALSE;
  for (guint k = 0; k < G_N_ELEMENTS (sym_dicts); k++)
    {
      dict = sym_dicts[k].required ? req_object (r, graph, sym_dicts[k].key)
                                   : opt (graph, sym_dicts[k].key);
      if (dict == NULL)
        {
          if (sym_dicts[k].required)
            return FALSE;
          continue;
        }
      if (!check_object (r, dict, sym_dicts[k].key))
        return FALSE;
      json_object_iter_init (&iter, json_node_get_object (dict));
      while (json_object_iter_next (&iter, &name, &value))
        if (!read_sym_value (r, name, value, sym_dicts[k].what, sym_dicts[k].plain))
          return FALSE;
    }
  if ((dict = opt (graph, "custom_obj_values")) != NULL)
    {
      if (!check_object (r, dict, "'custom_obj_values'"))
        return FALSE;
      json_object_iter_init (&iter, json_node_get_object (dict));
      while (json_object_iter_next (&iter, &name, &value))
        {
          GraftNodeMeta *meta;
          const char    *fqn;

          if (!check_object (r, value, "a CustomObjArgument") ||
              (fqn = req_string (r, value, "class_fqn")) == NULL)
            return FALSE;
          meta = new_value (r, name, GRAFT_VALUE_OTHER);
          meta->symbol = graft_graph_intern (r->graph, fqn);
        }
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Arguments */

static gboolean read_argument (Reader   *r,
                               JsonNode *node,
                               GraftArg *out);

/* A JSON string that check_text made of a float token. */
static gboolean
float_mark (Reader   *r,
            JsonNode *node,
            double   *out)
{
  const char *s = json_node_get_string (node);
  gsize       len = strlen (s);
  char        mark = s[0];
  gsize       offset;

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
   * marks themselves stand raw in the text. */
  offset = node_offset (r, node);
  return offset + 1 < graft_source_get_length (r->member) &&
         graft_source_get_text (r->member)[offset + 1] == mark;
}

/* A JSON scalar as the Python value json.loads makes of it. */
static gboolean
read_scalar (Reader   *r,
             JsonNode *node,
             GraftArg *out)
{
  double f;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    graft_arg_init_none (out);
  else if (holds (node, G_TYPE_BOOLEAN))
    graft_arg_init_bool (out, json_node_get_boolean (node));
  else if (holds (node, G_TYPE_INT64))
    graft_arg_init_int (out, json_node_get_int (node));
  else if (holds (node, G_TYPE_DOUBLE))
    graft_arg_init_float (out, json_node_get_double (node));
  else if (holds (node, G_TYPE_STRING))
    {
      if (float_mark (r, node, &f))
        graft_arg_init_float (out, f);
      else
        graft_arg_init_str (out, json_node_get_string (node), -1);
    }
  else
    return fail (r, node, GRAFT_PARSE_ERROR_SYNTAX,
                 "expected a number, a string, a bool or null, not %s", type_name (node));
  return TRUE;
}

static gboolean
lookup_node (Reader   *r,
             JsonNode *name_node,
             GraftArg *out)
{
  const char *name = check_string (r, name_node, "a name");
  GraftNode  *node;

  if (name == NULL)
    return FALSE;
  node = g_hash_table_lookup (r->by_name, name);
  if (node == NULL)
    return fail (r, name_node, GRAFT_PARSE_ERROR_GRAPH, "undefined value '%s'", name);
  graft_arg_init_node (out, node);
  return TRUE;
}

/* A TensorArgument ({"name": ...}) as the node it names. */
static gboolean
read_tensor_ref (Reader   *r,
                 JsonNode *node,
                 GraftArg *out)
{
  JsonNode *name;

  return check_object (r, node, "a TensorArgument") && (name = req (r, node, "name")) != NULL &&
         lookup_node (r, name, out);
}

/* deserialize_sym_argument: a SymIntArgument, SymFloatArgument or
 * SymBoolArgument (@plain: its plain field). */
static gboolean
read_sym_argument (Reader     *r,
                   JsonNode   *node,
                   const char *plain,
                   GraftArg   *out)
{
  const char *type;
  JsonNode   *value;

  if (!read_union (r, node, "a symbolic argument", &type, &value))
    return FALSE;
  if (strcmp (type, "as_name") == 0)
    return lookup_node (r, value, out);
  if (strcmp (type, plain) == 0)
    return read_scalar (r, value, out);
  return fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "a symbolic argument has no field '%s'", type);
}

static gboolean
read_enum (Reader            *r,
           JsonNode          *value,
           const char *const *names,
           guint              n_names,
           const char        *what,
           GraftArg          *out)
{
  gint64 v;

  if (!check_int (r, value, what, &v))
    return FALSE;
  if (v < 0 || (guint64) v >= n_names || names[v] == NULL)
    return fail (r, value, GRAFT_PARSE_ERROR_SYNTAX, "unknown %s %" G_GINT64_FORMAT, what, v);
  graft_arg_init_symbol (out, names[v]);
  return TRUE;
}

/* A list value of deserialize_input: each item read by @type's rule. */
static gboolean
read_list (Reader     *r,
           const char *type,
           JsonNode   *value,
           GraftArg   *out)
{
  JsonArray *items = check_array (r, value, type);
  guint      len;

  if (items == NULL)
    return FALSE;
  len = json_array_get_length (items);
  graft_arg_init_seq (out, GRAFT_ARG_LIST, len);
  for (guint k = 0; k < len; k++)
    {
      JsonNode *item = json_array_get_element (items, k);
      GraftArg *dest = &out->items[k];
      gboolean  ok;

      if (strcmp (type, "as_tensors") == 0)
        ok = read_tensor_ref (r, item, dest);
      else if (strcmp (type, "as_sym_ints") == 0)
        ok = read_sym_argument (r, item, "as_int", dest);
      else if (strcmp (type, "as_sym_floats") == 0)
        ok = read_sym_argument (r, item, "as_float", dest);
      else if (strcmp (type, "as_sym_bools") == 0)
        ok = read_sym_argument (r, item, "as_bool", dest);
      else if (strcmp (type, "as_optional_tensors") == 0)
        {
          const char *item_type;
          JsonNode   *item_value;

          ok = read_union (r, item, "an OptionalTensorArgument", &item_type, &item_value);
          if (ok && strcmp (item_type, "as_none") == 0)
            graft_arg_init_none (dest);
          else if (ok && strcmp (item_type, "as_tensor") == 0)
            ok = read_tensor_ref (r, item_value, dest);
          else if (ok)
            ok = fail (r, item, GRAFT_PARSE_ERROR_SYNTAX,
                       "an OptionalTensorArgument has no field '%s'", item_type);
        }
      else /* as_ints, as_floats, as_bools, as_strings: the values as they are */
        ok = read_scalar (r, item, dest);
      if (!ok)
        {
          graft_arg_clear (out);
          return FALSE;
        }
    }
  return TRUE;
}

/* deserialize_input: an Argument as the value of the graph. */
static gboolean
read_argument (Reader   *r,
               JsonNode *node,
               GraftArg *out)
{
  const char *type;
  JsonNode   *value;

  graft_arg_init_none (out);
  if (!read_union (r, node, "an Argument", &type, &value))
    return FALSE;
  if (strcmp (type, "as_none") == 0)
    return TRUE;
  if (strcmp (type, "as_tensor") == 0)
    return read_tensor_ref (r, value, out);
  if (strcmp (type, "as_int") == 0 || strcmp (type, "as_float") == 0 ||
      strcmp (type, "as_bool") == 0 || strcmp (type, "as_string") == 0)
    return read_scalar (r, value, out);
  if (strcmp (type, "as_scalar_type") == 0)
    {
      const ScalarType *st;
      gint64            v;

      if (!check_int (r, value, "'as_scalar_type'", &v))
        return FALSE;
      if ((st = find_scalar_type (v)) == NULL)
        return fail (r, value, GRAFT_PARSE_ERROR_SYNTAX, "unknown scalar type %" G_GINT64_FORMAT,
                     v);
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
  if (strcmp (type, "as_tensors") == 0 || strcmp (type, "as_ints") == 0 ||
      strcmp (type, "as_floats") == 0 || strcmp (type, "as_bools") == 0 ||
      strcmp (type, "as_strings") == 0 || strcmp (type, "as_sym_ints") == 0 ||
      strcmp (type, "as_sym_floats") == 0 || strcmp (type, "as_sym_bools") == 0 ||
      strcmp (type, "as_optional_tensors") == 0)
    return read_list (r, type, value, out);
  if (strcmp (type, "as_custom_obj") == 0)
    {
      JsonNode   *name;
      const char *text;

      if (!check_object (r, value, "a CustomObjArgument") ||
          (name = req (r, value, "name")) == NULL ||
          (text = check_string (r, name, "'name'")) == NULL)
        return FALSE;
      if (g_hash_table_lookup (r->by_name, text) != NULL)
        return lookup_node (r, name, out);
      return fail (r, node, GRAFT_PARSE_ERROR_UNSUPPORTED,
                   "a script object constant ('%s') is not supported", text);
    }
  if (strcmp (type, "as_graph") == 0 || strcmp (type, "as_operator") == 0)
    return fail (r, node, GRAFT_PARSE_ERROR_UNSUPPORTED,
                 "'%s' arguments (of higher-order operators) are not supported", type);
  return fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "unknown argument type '%s'", type);
}

/* ------------------------------------------------------------------ */
/* Nodes */

/* The node's name is checked and made as torch makes it: @candidate
 * through torch's namespace, then @synced over it when given (and then
 * recorded under that name, with that value's metadata).  Consumes @args
 * and @kwargs. */
static GraftNode *
add_node (Reader     *r,
          GraftOp     op,
          const char *target,
          GraftArg   *args,
          GraftArg   *kwargs,
          const char *candidate,
          const char *synced,
          JsonNode   *where)
{
  GraftNamespace *names = graft_graph_get_namespace (r->graph);
  const char     *made, *name;
  GraftNode      *node;

  if (synced != NULL && g_hash_table_contains (r->by_name, synced))
    {
      fail (r, where, GRAFT_PARSE_ERROR_GRAPH, "the value '%s' is defined twice", synced);
      goto fail;
    }
  if (synced != NULL && (synced[0] == '\0' || strlen (synced) > GRAFT_MAX_NAME_LENGTH))
    {
      fail (r, where, GRAFT_PARSE_ERROR_GRAPH,
            synced[0] == '\0' ? "a value without a name" : "a name longer than %u bytes",
            GRAFT_MAX_NAME_LENGTH);
      goto fail;
    }
  if (graft_graph_get_n_nodes (r->graph) >= GRAFT_MAX_NODES)
    {
      fail (r, where, GRAFT_PARSE_ERROR_LIMIT, "the program has more than %u nodes",
            GRAFT_MAX_NODES);
      goto fail;
    }
  made = graft_namespace_create_name (r->shadow, candidate, GRAFT_NAME_DEFAULT);
  name = synced != NULL ? synced : made;
  if (graft_namespace_contains (names, name))
    {
      /* torch would hold two nodes of this name, which Graft cannot. */
      fail (r, where, GRAFT_PARSE_ERROR_GRAPH, "two nodes would be named '%s'", name);
      goto fail;
    }
  node = graft_graph_create_node_named (r->graph, op, target, args, kwargs, name, NULL);
  if (synced != NULL)
    {
      const GraftNodeMeta *value;

      if (strcmp (made, synced) != 0)
        g_ptr_array_add (r->reserved, (gpointer) made);
      g_hash_table_insert (r->by_name, (gpointer) graft_node_get_name (node), node);
      value = g_hash_table_lookup (r->values, synced);
      if (value == NULL)
        {
          fail (r, where, GRAFT_PARSE_ERROR_GRAPH, "the value '%s' has no metadata", synced);
          return NULL;
        }
      graft_node_set_meta (node, value);
    }
  return node;

fail:
  if (args != NULL)
    graft_arg_clear (args);
  if (kwargs != NULL)
    graft_arg_clear (kwargs);
  return NULL;
}

/* Gives @node its value's metadata (already set, or @other when not
 * %NULL) and @info's. */
static void
set_info (Reader              *r,
          GraftNode           *node,
          const NodeInfo      *info,
          const GraftNodeMeta *other)
{
  const GraftNodeMeta *value = other != NULL ? other : graft_node_get_meta (node);
  GraftNodeMeta        meta = { 0 };

  (void) r;
  if (value != NULL)
    meta = *value;
  meta.stack_trace = info->stack_trace;
  meta.source_fn_stack = info->source_fn_stack;
  meta.torch_fn = info->torch_fn;
  meta.modules = info->modules;
  meta.n_modules = info->n_modules;
  graft_node_set_meta (node, &meta);
}

/* metadata_split: parenthesised runs removed, then split at commas
 * with the white space around them. */
static gboolean
split_module_frame (Reader           *r,
                    const char       *item,
                    gsize             len,
                    GraftModuleFrame *out)
{
  g_autoptr (GString) text = g_string_new (NULL);
  const char *parts[3];
  gsize       part_len[3];
  guint       n_parts = 0;
  gsize       start = 0;

  for (gsize i = 0; i < len; i++)
    {
      if (item[i] == '(')
        {
          const char *close = memchr (item + i, ')', len - i);

          if (close != NULL)
            {
              i = close - item;
              continue;
            }
        }
      g_string_append_c (text, item[i]);
    }
  for (gsize i = 0; i <= text->len; i++)
    {
      gsize a, b;

      if (i < text->len && text->str[i] != ',')
        continue;
      if (i < text->len)
        {
          /* `(?<!\()\s*,\s*(?!\()`: not next to an opening parenthesis. */
          a = i;
          while (a > start && g_ascii_isspace (text->str[a - 1]))
            a--;
          b = i + 1;
          while (b < text->len && g_ascii_isspace (text->str[b]))
            b++;
          if ((a > 0 && text->str[a - 1] == '(') || (b < text->len && text->str[b] == '('))
            continue;
        }
      else
        a = b = i;
      if (n_parts == 3)
        return FALSE;
      parts[n_parts] = text->str + start;
      part_len[n_parts++] = a - start;
      if (i == text->len)
        break;
      start = b;
      i = b - 1;
    }
  if (n_parts != 3)
    return FALSE;
  {
    char *key = g_strndup (parts[0], part_len[0]);
    char *path = g_strndup (parts[1], part_len[1]);
    char *type = g_strndup (parts[2], part_len[2]);

    out->key = graft_graph_intern (r->graph, key);
    out->path = graft_graph_intern (r->graph, path);
    out->type = graft_graph_intern (r->graph, type);
    g_free (key);
    g_free (path);
    g_free (type);
  }
  return TRUE;
}

/* The frames of an nn_module_stack text (cached: nodes share stacks). */
static GArray *
module_stack (Reader     *r,
              JsonNode   *node,
              const char *text)
{
  GArray     *frames = g_hash_table_lookup (r->module_stacks, text);
  const char *p = text;

  if (frames != NULL)
    return frames;
  frames = g_array_new (FALSE, TRUE, sizeof (GraftModuleFrame));
  for (;;)
    {
      const char      *semi = strchr (p, ';');
      gsize            len = semi != NULL ? (gsize) (semi - p) : strlen (p);
      GraftModuleFrame frame;

      if (!split_module_frame (r, p, len, &frame))
        {
          g_array_unref (frames);
          fail (r, node, GRAFT_PARSE_ERROR_SYNTAX,
                "an nn_module_stack entry is not 'key,path,type': '%.*s'", (int) MIN (len, 200),
                p);
          return NULL;
        }
      g_array_append_val (frames, frame);
      if (semi == NULL)
        break;
      p = semi + 1;
    }
  g_hash_table_insert (r->module_stacks, g_strdup (text), frames);
  return frames;
}

/* An optional string of a node's metadata, "" read as absent. */
static gboolean
metadata_string (Reader      *r,
                 JsonNode    *metadata,
                 const char  *key,
                 const char **out)
{
  JsonNode        *value = opt (metadata, key);
  g_autofree char *what = NULL;

  *out = NULL;
  if (value == NULL)
    return TRUE;
  what = g_strdup_printf ("'%s'", key);
  if ((*out = check_string (r, value, what)) == NULL)
    return FALSE;
  if (**out == '\0')
    *out = NULL;
  return TRUE;
}

/* deserialize_metadata. */
static gboolean
read_info (Reader   *r,
           JsonNode *metadata,
           NodeInfo *out)
{
  const char *stack = NULL;

  memset (out, 0, sizeof *out);
  if (!check_object (r, metadata, "'metadata'") ||
      !metadata_string (r, metadata, "stack_trace", &out->stack_trace) ||
      !metadata_string (r, metadata, "nn_module_stack", &stack) ||
      !metadata_string (r, metadata, "source_fn_stack", &out->source_fn_stack) ||
      !metadata_string (r, metadata, "torch_fn", &out->torch_fn))
    return FALSE;
  if (stack != NULL)
    {
      GArray *frames = module_stack (r, opt (metadata, "nn_module_stack"), stack);

      if (frames == NULL)
        return FALSE;
      out->modules = (const GraftModuleFrame *) (gpointer) frames->data;
      out->n_modules = frames->len;
    }
  if (out->source_fn_stack != NULL)
    {
      /* Each entry is `name,target`, split at its one comma. */
      g_auto (GStrv) entries = g_strsplit (out->source_fn_stack, ";", -1);

      for (guint k = 0; entries[k] != NULL; k++)
        {
          const char *comma = strchr (entries[k], ',');

          if (comma == NULL || strchr (comma + 1, ',') != NULL)
            return fail (r, opt (metadata, "source_fn_stack"), GRAFT_PARSE_ERROR_SYNTAX,
                         "a source_fn_stack entry is not 'name,target'");
        }
    }
  return TRUE;
}

/* The name of a TensorArgument, or of a SymIntArgument or SymFloatArgument
 * (`as_name`); @nested: the item of a list (a bare argument class) rather
 * than an Argument's value. */
static const char *
output_name (Reader     *r,
             JsonNode   *arg,
             const char *type,
             JsonNode  **out_node)
{
  const char *sym_type;
  JsonNode   *value;

  if (strcmp (type, "as_tensor") == 0 || strcmp (type, "as_tensors") == 0)
    {
      if (!check_object (r, arg, "a TensorArgument") || (value = req (r, arg, "name")) == NULL)
        return NULL;
    }
  else
    {
      if (!read_union (r, arg, "a symbolic output", &sym_type, &value))
        return NULL;
      if (strcmp (sym_type, "as_name") != 0)
        {
          fail (r, arg, GRAFT_PARSE_ERROR_SYNTAX, "an output must be named ('as_name'), not '%s'",
                sym_type);
          return NULL;
        }
    }
  if (out_node != NULL)
    *out_node = value;
  return check_string (r, value, "a name");
}

static gboolean generate_getitems (Reader         *r,
                                   GraftNode      *from,
                                   JsonArray      *items,
                                   const char     *list_type,
                                   const NodeInfo *info);

/* getitem(@from, @idx) named @name, with that value's metadata. */
static gboolean
generate_getitem (Reader         *r,
                  GraftNode      *from,
                  guint           idx,
                  const char     *name,
                  JsonNode       *where,
                  const NodeInfo *info)
{
  GraftArg   args;
  GraftNode *node;

  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 2);
  graft_arg_init_node (&args.items[0], from);
  graft_arg_init_int (&args.items[1], idx);
  node = add_node (r, GRAFT_OP_CALL_FUNCTION, "operator.getitem", &args, NULL, name, name, where);
  if (node == NULL)
    return FALSE;
  set_info (r, node, info, NULL);
  return TRUE;
}

/* deserialize_multiple_outputs' generate_getitems.  @list_type: the
 * Argument type of @items when they are the items of a list output
 * (`as_tensors`: TensorArguments), %NULL for a node's outputs
 * (Arguments). */
static gboolean
generate_getitems (Reader         *r,
                   GraftNode      *from,
                   JsonArray      *items,
                   const char     *list_type,
                   const NodeInfo *info)
{
  static const GraftNodeMeta other = { .kind = GRAFT_VALUE_OTHER };
  guint                      len = json_array_get_length (items);

  for (guint idx = 0; idx < len; idx++)
    {
      JsonNode   *item = json_array_get_element (items, idx);
      const char *type, *name;
      JsonNode   *value, *at = NULL;

      if (list_type != NULL)
        {
          if (strcmp (list_type, "as_tensors") != 0 && strcmp (list_type, "as_sym_ints") != 0 &&
              strcmp (list_type, "as_sym_floats") != 0)
            return fail (r, item, GRAFT_PARSE_ERROR_UNSUPPORTED,
                         "an output list of type '%s' is not supported", list_type);
          if ((name = output_name (r, item, list_type, &at)) == NULL ||
              !generate_getitem (r, from, idx, name, at, info))
            return FALSE;
          continue;
        }
      if (!read_union (r, item, "an output", &type, &value))
        return FALSE;
      if (strcmp (type, "as_tensor") == 0 || strcmp (type, "as_sym_int") == 0 ||
          strcmp (type, "as_sym_float") == 0)
        {
          if ((name = output_name (r, value, type, &at)) == NULL ||
              !generate_getitem (r, from, idx, name, at, info))
            return FALSE;
        }
      else if (strcmp (type, "as_tensors") == 0 || strcmp (type, "as_sym_ints") == 0 ||
               strcmp (type, "as_sym_floats") == 0 || strcmp (type, "as_ints") == 0 ||
               strcmp (type, "as_floats") == 0 || strcmp (type, "as_strings") == 0 ||
               strcmp (type, "as_bools") == 0 || strcmp (type, "as_sym_bools") == 0)
        {
          JsonArray *sub = check_array (r, value, type);
          GraftArg   args;
          GraftNode *list_node;

          if (sub == NULL)
            return FALSE;
          graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 2);
          graft_arg_init_node (&args.items[0], from);
          graft_arg_init_int (&args.items[1], idx);
          list_node = add_node (r, GRAFT_OP_CALL_FUNCTION, "operator.getitem", &args, NULL,
                                "getitem", NULL, item);
          if (list_node == NULL)
            return FALSE;
          set_info (r, list_node, info, &other);
          if (!generate_getitems (r, list_node, sub, type, info))
            return FALSE;
        }
      else if (strcmp (type, "as_none") == 0)
        {
          GraftArg   args;
          GraftNode *none_node;

          graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 2);
          graft_arg_init_node (&args.items[0], from);
          graft_arg_init_int (&args.items[1], idx);
          none_node = add_node (r, GRAFT_OP_CALL_FUNCTION, "operator.getitem", &args, NULL,
                                "as_none", NULL, item);
          if (none_node == NULL)
            return FALSE;
          set_info (r, none_node, info, &other);
        }
      else
        return fail (r, item, GRAFT_PARSE_ERROR_UNSUPPORTED,
                     "an output of type '%s' is not supported", type);
    }
  return TRUE;
}

/* Whether a schema return type is a plain Tensor (torch's TensorType:
 * `Tensor`, `Tensor(a)`, `Tensor(a!)`; not `Tensor?` or `Tensor[]`). */
static gboolean
is_tensor_type (const char *type)
{
  const char *close;

  if (!g_str_has_prefix (type, "Tensor"))
    return FALSE;
  if (type[6] == '\0')
    return TRUE;
  close = strchr (type, ')');
  return type[6] == '(' && close != NULL && close[1] == '\0';
}

/* deserialize_inputs: the node's named inputs placed by the schema. */
static gboolean
place_inputs (Reader                *r,
              const GraftAtenSchema *schema,
              const char            *target,
              JsonNode              *inputs_node,
              JsonArray             *inputs,
              GraftArg              *out_args,
              GraftArg              *out_kwargs)
{
  guint                   len = json_array_get_length (inputs);
  guint                   n_schema = graft_aten_schema_get_n_arguments (schema);
  g_autofree GraftArg    *values = g_new0 (GraftArg, MAX (len, 1));
  g_autofree const char **names = g_new0 (const char *, MAX (len, 1));
  g_autoptr (GArray) args = g_array_new (FALSE, TRUE, sizeof (GraftArg));
  g_autoptr (GArray) kwargs = g_array_new (FALSE, TRUE, sizeof (GraftArg));
  gboolean ok = TRUE;

  for (guint k = 0; k < len && ok; k++)
    {
      JsonNode *input = json_array_get_element (inputs, k);
      JsonNode *arg;

      ok = check_object (r, input, "a NamedArgument") &&
           (names[k] = req_string (r, input, "name")) != NULL &&
           (arg = req (r, input, "arg")) != NULL && read_argument (r, arg, &values[k]);
    }
  for (guint i = 0; i < n_schema && ok; i++)
    {
      GraftAtenArgument sa;
      int               found = -1;
      GraftArg          copy;

      graft_aten_schema_get_argument (schema, i, &sa);
      for (guint k = 0; k < len; k++)
        if (strcmp (names[k], sa.name) == 0)
          found = (int) k;
      if ((sa.default_repr == NULL && !sa.kwarg_only) || graft_is_python_keyword (sa.name))
        {
          if (found < 0)
            {
              ok = fail (r, inputs_node, GRAFT_PARSE_ERROR_GRAPH,
                         "missing argument '%s' of %s", sa.name, target);
              break;
            }
          if (graft_is_python_keyword (sa.name) && !(sa.default_repr == NULL && !sa.kwarg_only))
            {
              /* The keyword-named case drops the keywords collected so
               * far, as torch's deserialize_inputs does. */
              for (guint k = 0; k < kwargs->len; k++)
                graft_arg_clear (&g_array_index (kwargs, GraftArg, k));
              g_array_set_size (kwargs, 0);
            }
          graft_arg_copy (&copy, &values[found]);
          g_array_append_val (args, copy);
        }
      else if (found >= 0)
        {
          GraftArg key;

          graft_arg_init_str (&key, sa.name, -1);
          g_array_append_val (kwargs, key);
          graft_arg_copy (&copy, &values[found]);
          g_array_append_val (kwargs, copy);
        }
    }
  for (guint k = 0; k < len; k++)
    graft_arg_clear (&values[k]);
  if (!ok)
    {
      for (guint k = 0; k < args->len; k++)
        graft_arg_clear (&g_array_index (args, GraftArg, k));
      for (guint k = 0; k < kwargs->len; k++)
        graft_arg_clear (&g_array_index (kwargs, GraftArg, k));
      return FALSE;
    }
  graft_arg_init_seq (out_args, GRAFT_ARG_TUPLE, args->len);
  if (args->len > 0)
    memcpy (out_args->items, args->data, args->len * sizeof (GraftArg));
  graft_arg_init_dict (out_kwargs, kwargs->len / 2);
  if (kwargs->len > 0)
    memcpy (out_kwargs->items, kwargs->data, kwargs->len * sizeof (GraftArg));
  return TRUE;
}

static const char *
sym_op_target (const char *serialized)
{
  for (guint i = 0; i < G_N_ELEMENTS (sym_ops); i++)
    if (strcmp (serialized, sym_ops[i].serialized) == 0)
      return sym_ops[i].target;
  return NULL;
}

/* deserialize_node, symbolic branch: named after its one output, every
 * input positional. */
static gboolean
read_sym_node (Reader         *r,
               JsonNode       *snode,
               const char     *target,
               JsonArray      *inputs,
               JsonArray      *outputs,
               const NodeInfo *info)
{
  guint       len = json_array_get_length (inputs);
  JsonNode   *out0;
  const char *type, *name;
  JsonNode   *value, *at = NULL;
  GraftArg    args;
  GraftNode  *node;

  if (json_array_get_length (outputs) == 0)
    return fail (r, req (r, snode, "outputs"), GRAFT_PARSE_ERROR_GRAPH,
                 "the symbolic operator %s has no output", target);
  out0 = json_array_get_element (outputs, 0);
  if (!read_union (r, out0, "an output", &type, &value))
    return FALSE;
  if (strcmp (type, "as_sym_int") != 0 && strcmp (type, "as_sym_bool") != 0 &&
      strcmp (type, "as_sym_float") != 0)
    return fail (r, out0, GRAFT_PARSE_ERROR_GRAPH,
                 "the output of the symbolic operator %s must be symbolic, not '%s'", target,
                 type);
  if ((name = output_name (r, value, type, &at)) == NULL)
    return FALSE;
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, len);
  for (guint k = 0; k < len; k++)
    {
      JsonNode *input = json_array_get_element (inputs, k);
      JsonNode *arg;

      if (!check_object (r, input, "a NamedArgument") || (arg = req (r, input, "arg")) == NULL ||
          !read_argument (r, arg, &args.items[k]))
        {
          graft_arg_clear (&args);
          return FALSE;
        }
    }
  node = add_node (r, GRAFT_OP_CALL_FUNCTION, target, &args, NULL, name, name, at);
  if (node == NULL)
    return FALSE;
  set_info (r, node, info, NULL);
  return TRUE;
}

/* deserialize_node, OpOverload branch, with deserialize_outputs. */
static gboolean
read_op_node (Reader                *r,
              JsonNode              *snode,
              const char            *target,
              const GraftAtenSchema *schema,
              JsonArray             *inputs,
              JsonArray             *outputs,
              const NodeInfo        *info)
{
  static const GraftNodeMeta other = { .kind = GRAFT_VALUE_OTHER };
  guint                      n_outputs = json_array_get_length (outputs);
  JsonNode                  *out0 = n_outputs > 0 ? json_array_get_element (outputs, 0) : NULL;
  const char                *type = NULL, *single_name = NULL, *synced = NULL;
  JsonNode                  *value = NULL, *at = NULL;
  GraftAtenReturn            ret;
  GraftArg                   args, kwargs;
  GraftNode                 *node;
  g_autofree char           *derived = NULL;

  if (out0 != NULL && !read_union (r, out0, "an output", &type, &value))
    return FALSE;
  /* _is_single_tensor_return: then the node is made with that name. */
  if (graft_aten_schema_get_n_returns (schema) == 1)
    {
      graft_aten_schema_get_return (schema, 0, &ret);
      if (is_tensor_type (ret.type))
        {
          if (out0 == NULL || strcmp (type, "as_tensor") != 0)
            return fail (r, out0 != NULL ? out0 : req (r, snode, "outputs"),
                         GRAFT_PARSE_ERROR_GRAPH, "%s returns one tensor: its output must be "
                                                  "'as_tensor'",
                         target);
          if ((single_name = output_name (r, value, type, &at)) == NULL)
            return FALSE;
        }
    }
  if (!place_inputs (r, schema, target, req (r, snode, "inputs"), inputs, &args, &kwargs))
    return FALSE;
  if (single_name == NULL)
    derived = graft_snake_case (graft_aten_schema_get_name (schema), r->dialect);
  if (n_outputs == 1 && strcmp (type, "as_tensor") == 0)
    synced = single_name != NULL ? single_name : output_name (r, value, type, &at);
  else if (n_outputs == 1 && (strcmp (type, "as_sym_int") == 0 ||
                              strcmp (type, "as_sym_bool") == 0 ||
                              strcmp (type, "as_sym_float") == 0))
    synced = output_name (r, value, type, &at);
  if (n_outputs == 1 && synced == NULL &&
      (strcmp (type, "as_tensor") == 0 || strcmp (type, "as_sym_int") == 0 ||
       strcmp (type, "as_sym_bool") == 0 || strcmp (type, "as_sym_float") == 0))
    {
      graft_arg_clear (&args);
      graft_arg_clear (&kwargs);
      return FALSE;
    }
  node = add_node (r, GRAFT_OP_CALL_FUNCTION, target, &args, &kwargs,
                   single_name != NULL ? single_name : derived, synced,
                   synced != NULL ? at : snode);
  if (node == NULL)
    return FALSE;
  if (n_outputs == 0 || synced != NULL)
    {
      set_info (r, node, info, NULL);
      return TRUE;
    }

  /* deserialize_multiple_outputs: the node holds a tuple, a getitem each. */
  set_info (r, node, info, &other);
  g_hash_table_insert (r->by_name, (gpointer) graft_node_get_name (node), node);
  if (n_outputs == 1)
    {
      JsonArray *items;

      if (strcmp (type, "as_tensors") != 0)
        return fail (r, out0, GRAFT_PARSE_ERROR_UNSUPPORTED,
                     "an output of type '%s' is not supported", type);
      if ((items = check_array (r, value, "'as_tensors'")) == NULL)
        return FALSE;
      if (json_array_get_length (items) == 0)
        return fail (r, value, GRAFT_PARSE_ERROR_GRAPH, "an empty list of outputs");
      return generate_getitems (r, node, items, "as_tensors", info);
    }
  return generate_getitems (r, node, outputs, NULL, info);
}

static gboolean
read_node (Reader   *r,
           JsonNode *snode)
{
  const char            *serialized, *target;
  const GraftAtenSchema *schema;
  JsonArray             *inputs, *outputs;
  JsonNode              *metadata;
  NodeInfo               info;

  if (!check_object (r, snode, "a Node") ||
      (serialized = req_string (r, snode, "target")) == NULL ||
      (inputs = req_array (r, snode, "inputs")) == NULL ||
      (outputs = req_array (r, snode, "outputs")) == NULL ||
      (metadata = req (r, snode, "metadata")) == NULL || !read_info (r, metadata, &info))
    return FALSE;
  if ((target = sym_op_target (serialized)) != NULL)
    return read_sym_node (r, snode, target, inputs, outputs, &info);
  if ((schema = graft_aten_schema_lookup (serialized)) != NULL)
    return read_op_node (r, snode, serialized, schema, inputs, outputs, &info);
  if (g_str_has_prefix (serialized, "torch.ops.higher_order."))
    return fail (r, opt (snode, "target"), GRAFT_PARSE_ERROR_UNSUPPORTED,
                 "higher-order operators such as %s are not supported", serialized);
  if (g_str_has_prefix (serialized, "torch.ops.aten."))
    return fail (r, opt (snode, "target"), GRAFT_PARSE_ERROR_UNSUPPORTED,
                 "%s is not an operator of torch 2.6's aten schema table", serialized);
  return fail (r, opt (snode, "target"), GRAFT_PARSE_ERROR_UNSUPPORTED,
               "unknown operator %s (Graft reads aten operators and symbolic arithmetic)",
               serialized);
}

/* ------------------------------------------------------------------ */
/* Inputs, outputs and the signature */

static gboolean
read_inputs (Reader    *r,
             JsonArray *inputs)
{
  guint len = json_array_get_length (inputs);

  for (guint i = 0; i < len; i++)
    {
      JsonNode        *input = json_array_get_element (inputs, i);
      const char      *type, *name;
      JsonNode        *value;
      g_autofree char *candidate = NULL;

      if (!read_union (r, input, "a graph input", &type, &value))
        return FALSE;
      if (strcmp (type, "as_tensor") == 0 || strcmp (type, "as_custom_obj") == 0)
        {
          if (!check_object (r, value, "a graph input") ||
              (name = req_string (r, value, "name")) == NULL)
            return FALSE;
          candidate = graft_name_for_target (GRAFT_OP_PLACEHOLDER, name, r->dialect);
          if (add_node (r, GRAFT_OP_PLACEHOLDER, name, NULL, NULL, candidate, name,
                        opt (value, "name")) == NULL)
            return FALSE;
        }
      else if (strcmp (type, "as_int") == 0 || strcmp (type, "as_float") == 0 ||
               strcmp (type, "as_bool") == 0 || strcmp (type, "as_none") == 0 ||
               strcmp (type, "as_string") == 0)
        {
          /* A constant input: named by its input spec, not synced. */
          GraftNodeMeta meta = { .kind = GRAFT_VALUE_OTHER };
          GraftArg      constant;
          GraftNode    *node;

          if (i >= r->input_names->len)
            return fail (r, input, GRAFT_PARSE_ERROR_GRAPH, "graph input %u has no input spec", i);
          name = r->input_names->pdata[i];
          if (strcmp (type, "as_none") == 0)
            graft_arg_init_none (&constant);
          else if (!read_scalar (r, value, &constant))
            return FALSE;
          candidate = graft_name_for_target (GRAFT_OP_PLACEHOLDER, name, r->dialect);
          node = add_node (r, GRAFT_OP_PLACEHOLDER, name, NULL, NULL, candidate, NULL, input);
          if (node != NULL)
            {
              g_autofree char *text = graft_arg_repr (&constant, GRAFT_REPR_CODE);

              meta.symbol = text;
              graft_node_set_meta (node, &meta);
            }
          graft_arg_clear (&constant);
          if (node == NULL)
            return FALSE;
        }
      else if (strcmp (type, "as_sym_int") == 0 || strcmp (type, "as_sym_float") == 0)
        return fail (r, input, GRAFT_PARSE_ERROR_UNSUPPORTED,
                     "a symbolic graph input ('%s'), which torch 2.6 cannot load either", type);
      else
        return fail (r, input, GRAFT_PARSE_ERROR_SYNTAX, "invalid graph input type '%s'", type);
    }
  return TRUE;
}

/* deserialize_graph_output: one output as a value of the output node. */
static gboolean
read_output (Reader   *r,
             JsonNode *output,
             GraftArg *out)
{
  const char *type, *sym_type;
  JsonNode   *value, *name;

  graft_arg_init_none (out);
  if (!read_union (r, output, "a graph output", &type, &value))
    return FALSE;
  if (strcmp (type, "as_tensor") == 0)
    return read_tensor_ref (r, value, out);
  if (strcmp (type, "as_sym_int") == 0 || strcmp (type, "as_sym_bool") == 0 ||
      strcmp (type, "as_sym_float") == 0)
    {
      if (!read_union (r, value, "a symbolic output", &sym_type, &name))
        return FALSE;
      if (strcmp (sym_type, "as_name") != 0)
        return fail (r, value, GRAFT_PARSE_ERROR_SYNTAX,
                     "a graph output must be named ('as_name')");
      return lookup_node (r, name, out);
    }
  if (strcmp (type, "as_int") == 0 || strcmp (type, "as_float") == 0)
    return read_scalar (r, value, out);
  if (strcmp (type, "as_none") == 0)
    return TRUE;
  return fail (r, output, GRAFT_PARSE_ERROR_UNSUPPORTED,
               "a graph output of type '%s' is not supported", type);
}

static gboolean
read_outputs (Reader    *r,
              JsonNode  *graph,
              JsonArray *outputs)
{
  static const GraftNodeMeta other = { .kind = GRAFT_VALUE_OTHER };
  guint                      len = json_array_get_length (outputs);
  JsonNode                  *single_node = opt (graph, "is_single_tensor_return");
  gboolean                   single = FALSE;
  GraftArg                   args, result;
  GraftNode                 *node;

  if (single_node != NULL && !check_bool (r, single_node, "'is_single_tensor_return'", &single))
    return FALSE;
  if (single && len != 1)
    return fail (r, single_node, GRAFT_PARSE_ERROR_GRAPH,
                 "a single tensor return with %u outputs", len);
  if (single)
    {
      if (!read_output (r, json_array_get_element (outputs, 0), &result))
        return FALSE;
    }
  else
    {
      graft_arg_init_seq (&result, GRAFT_ARG_TUPLE, len);
      for (guint k = 0; k < len; k++)
        if (!read_output (r, json_array_get_element (outputs, k), &result.items[k]))
          {
            graft_arg_clear (&result);
            return FALSE;
          }
    }
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  args.items[0] = result;
  node = add_node (r, GRAFT_OP_OUTPUT, "output", &args, NULL, "output", NULL,
                   opt (graph, "outputs"));
  if (node == NULL)
    return FALSE;
  if (single && graft_node_get_args (node)->items[0].kind == GRAFT_ARG_NODE)
    graft_node_set_meta (node, graft_node_get_meta (graft_node_get_args (node)->items[0].node));
  else
    graft_node_set_meta (node, &other);
  return TRUE;
}

/* deserialize_argument_spec: an Argument of the signature as torch's
 * ArgumentSpec: its name, its class (%NULL for a TensorArgument) and, for
 * a ConstantArgument, its value. */
static gboolean
read_argument_spec (Reader      *r,
                    JsonNode    *node,
                    const char **out_name,
                    const char **out_class,
                    char       **out_value)
{
  const char *type;
  JsonNode   *value;

  *out_name = NULL;
  *out_class = NULL;
  *out_value = NULL;
  if (!read_union (r, node, "an Argument", &type, &value))
    return FALSE;
  if (strcmp (type, "as_tensor") == 0)
    return check_object (r, value, "a TensorArgument") &&
           (*out_name = req_string (r, value, "name")) != NULL;
  if (strcmp (type, "as_sym_int") == 0 || strcmp (type, "as_sym_float") == 0)
    {
      *out_class = strcmp (type, "as_sym_int") == 0 ? "SymIntArgument" : "SymFloatArgument";
      return (*out_name = output_name (r, value, type, NULL)) != NULL;
    }
  if (strcmp (type, "as_custom_obj") == 0)
    return fail (r, node, GRAFT_PARSE_ERROR_UNSUPPORTED,
                 "a script object as a user input or output is not supported");
  {
    GraftArg arg;

    if (!read_argument (r, node, &arg))
      return FALSE;
    *out_name = "";
    *out_class = "ConstantArgument";
    *out_value = graft_arg_repr (&arg, GRAFT_REPR_CODE);
    graft_arg_clear (&arg);
  }
  return TRUE;
}

/* The `name` of the argument object `arg` of a spec. */
static const char *
spec_arg_name (Reader   *r,
               JsonNode *spec)
{
  JsonNode *arg = req_object (r, spec, "arg");

  return arg != NULL ? req_string (r, arg, "name") : NULL;
}

static gboolean
read_input_spec (Reader       *r,
                 GraftProgram *program,
                 JsonNode     *node)
{
  static const struct
  {
    const char        *type;
    GraftInputSpecKind kind;
    const char        *target_key;
    const char        *argument;
  } kinds[] = {
    { "parameter", GRAFT_INPUT_SPEC_PARAMETER, "parameter_name", NULL },
    { "buffer", GRAFT_INPUT_SPEC_BUFFER, "buffer_name", NULL },
    { "tensor_constant", GRAFT_INPUT_SPEC_CONSTANT_TENSOR, "tensor_constant_name", NULL },
    { "custom_obj", GRAFT_INPUT_SPEC_CUSTOM_OBJ, "custom_obj_name", "CustomObjArgument" },
    { "token", GRAFT_INPUT_SPEC_TOKEN, NULL, "TokenArgument" },
  };
  GraftInputSpec   spec = { .persistent = -1 };
  g_autofree char *value_text = NULL;
  const char      *type;
  JsonNode        *value;

  if (!read_union (r, node, "an InputSpec", &type, &value) ||
      !check_object (r, value, "an InputSpec"))
    return FALSE;
  if (strcmp (type, "user_input") == 0)
    {
      JsonNode *arg = req (r, value, "arg");

      spec.kind = GRAFT_INPUT_SPEC_USER_INPUT;
      if (arg == NULL ||
          !read_argument_spec (r, arg, &spec.name, &spec.argument, &value_text))
        return FALSE;
      spec.value = value_text;
    }
  else if (strcmp (type, "constant_input") == 0)
    {
      JsonNode   *constant = req (r, value, "value");
      const char *ctype;
      JsonNode   *cvalue;
      GraftArg    arg;

      spec.kind = GRAFT_INPUT_SPEC_USER_INPUT;
      spec.argument = "ConstantArgument";
      if ((spec.name = req_string (r, value, "name")) == NULL || constant == NULL ||
          !read_union (r, constant, "a ConstantValue", &ctype, &cvalue))
        return FALSE;
      if (strcmp (ctype, "as_none") == 0)
        graft_arg_init_none (&arg);
      else if (strcmp (ctype, "as_int") == 0 || strcmp (ctype, "as_float") == 0 ||
               strcmp (ctype, "as_string") == 0 || strcmp (ctype, "as_bool") == 0)
        {
          if (!read_scalar (r, cvalue, &arg))
            return FALSE;
        }
      else
        return fail (r, constant, GRAFT_PARSE_ERROR_SYNTAX, "a ConstantValue has no field '%s'",
                     ctype);
      value_text = graft_arg_repr (&arg, GRAFT_REPR_CODE);
      graft_arg_clear (&arg);
      spec.value = value_text;
    }
  else
    {
      guint k;

      for (k = 0; k < G_N_ELEMENTS (kinds); k++)
        if (strcmp (type, kinds[k].type) == 0)
          break;
      if (k == G_N_ELEMENTS (kinds))
        return fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "unknown input spec '%s'", type);
      spec.kind = kinds[k].kind;
      spec.argument = kinds[k].argument;
      if ((spec.name = spec_arg_name (r, value)) == NULL)
        return FALSE;
      if (kinds[k].target_key != NULL &&
          (spec.target = req_string (r, value, kinds[k].target_key)) == NULL)
        return FALSE;
      if (spec.kind == GRAFT_INPUT_SPEC_CUSTOM_OBJ &&
          (spec.value = req_string (r, req (r, value, "arg"), "class_fqn")) == NULL)
        return FALSE;
      if (spec.kind == GRAFT_INPUT_SPEC_BUFFER)
        {
          JsonNode *persistent = req (r, value, "persistent");
          gboolean  b;

          if (persistent == NULL || !check_bool (r, persistent, "'persistent'", &b))
            return FALSE;
          spec.persistent = b ? 1 : 0;
        }
    }
  g_ptr_array_add (r->input_names, (gpointer) graft_graph_intern (r->graph, spec.name));
  graft_program_add_input (program, &spec);
  return TRUE;
}

static gboolean
read_output_spec (Reader       *r,
                  GraftProgram *program,
                  JsonNode     *node)
{
  static const struct
  {
    const char         *type;
    GraftOutputSpecKind kind;
    const char         *target_key;
    const char         *argument;
  } kinds[] = {
    { "loss_output", GRAFT_OUTPUT_SPEC_LOSS_OUTPUT, NULL, NULL },
    { "buffer_mutation", GRAFT_OUTPUT_SPEC_BUFFER_MUTATION, "buffer_name", NULL },
    { "gradient_to_parameter", GRAFT_OUTPUT_SPEC_GRADIENT_TO_PARAMETER, "parameter_name", NULL },
    { "gradient_to_user_input", GRAFT_OUTPUT_SPEC_GRADIENT_TO_USER_INPUT, "user_input_name",
      NULL },
    { "user_input_mutation", GRAFT_OUTPUT_SPEC_USER_INPUT_MUTATION, "user_input_name", NULL },
    { "token", GRAFT_OUTPUT_SPEC_TOKEN, NULL, "TokenArgument" },
  };
  GraftOutputSpec  spec = { 0 };
  g_autofree char *value_text = NULL;
  const char      *type;
  JsonNode        *value;

  if (!read_union (r, node, "an OutputSpec", &type, &value) ||
      !check_object (r, value, "an OutputSpec"))
    return FALSE;
  if (strcmp (type, "user_output") == 0)
    {
      JsonNode *arg = req (r, value, "arg");

      spec.kind = GRAFT_OUTPUT_SPEC_USER_OUTPUT;
      if (arg == NULL ||
          !read_argument_spec (r, arg, &spec.name, &spec.argument, &value_text))
        return FALSE;
      spec.value = value_text;
    }
  else
    {
      guint k;

      for (k = 0; k < G_N_ELEMENTS (kinds); k++)
        if (strcmp (type, kinds[k].type) == 0)
          break;
      if (k == G_N_ELEMENTS (kinds))
        return fail (r, node, GRAFT_PARSE_ERROR_SYNTAX, "unknown output spec '%s'", type);
      spec.kind = kinds[k].kind;
      spec.argument = kinds[k].argument;
      if ((spec.name = spec_arg_name (r, value)) == NULL)
        return FALSE;
      if (kinds[k].target_key != NULL &&
          (spec.target = req_string (r, value, kinds[k].target_key)) == NULL)
        return FALSE;
    }
  graft_program_add_output (program, &spec);
  return TRUE;
}

static gboolean
read_signature (Reader   *r,
                JsonNode *graph_module)
{
  GraftProgram *program = graft_graph_ensure_program (r->graph);
  JsonNode     *signature = req_object (r, graph_module, "signature");
  JsonArray    *specs;

  if (signature == NULL || (specs = req_array (r, signature, "input_specs")) == NULL)
    return FALSE;
  for (guint k = 0; k < json_array_get_length (specs); k++)
    if (!read_input_spec (r, program, json_array_get_element (specs, k)))
      return FALSE;
  if ((specs = req_array (r, signature, "output_specs")) == NULL)
    return FALSE;
  for (guint k = 0; k < json_array_get_length (specs); k++)
    if (!read_output_spec (r, program, json_array_get_element (specs, k)))
      return FALSE;
  return TRUE;
}

/* One end of a range: the number, or torch's `int_oo` for none. */
static gboolean
append_bound (Reader     *r,
              JsonNode   *range,
              const char *key,
              const char *unbounded)
{
  JsonNode *bound = opt (range, key);
  GraftArg  arg;

  if (bound == NULL || JSON_NODE_HOLDS_NULL (bound))
    {
      g_string_append (r->scratch, unbounded);
      return TRUE;
    }
  if (!read_scalar (r, bound, &arg))
    return FALSE;
  graft_arg_append_repr (r->scratch, &arg, GRAFT_REPR_CODE, NULL, NULL);
  graft_arg_clear (&arg);
  return TRUE;
}

/* `{s0: VR[2, 64]}`: the ranges of the symbols the graph uses, as
 * `print(ep)` shows them (ExportedProgramDeserializer drops the others). */
static gboolean
read_range_constraints (Reader   *r,
                        JsonNode *ranges)
{
  GList   *keys = json_object_get_members (json_node_get_object (ranges));
  gboolean first = TRUE, ok = TRUE;

  g_string_assign (r->scratch, "{");
  for (GList *l = keys; l != NULL && ok; l = l->next)
    {
      const char *key = l->data;
      JsonNode   *range = opt (ranges, key);

      if (!g_hash_table_contains (r->symbols, key))
        continue;
      if (!check_object (r, range, "a RangeConstraint"))
        {
          ok = FALSE;
          break;
        }
      if (!first)
        g_string_append (r->scratch, ", ");
      first = FALSE;
      g_string_append_printf (r->scratch, "%s: VR[", key);
      ok = append_bound (r, range, "min_val", "-int_oo");
      g_string_append (r->scratch, ", ");
      ok = ok && append_bound (r, range, "max_val", "int_oo");
      g_string_append_c (r->scratch, ']');
    }
  g_list_free (keys);
  if (!ok)
    return FALSE;
  g_string_append_c (r->scratch, '}');
  graft_program_set_range_constraints (graft_graph_get_program (r->graph), r->scratch->str);
  return TRUE;
}

static gboolean
check_schema_version (Reader   *r,
                      JsonNode *root)
{
  JsonNode *version = req_object (r, root, "schema_version");
  gint64    major, minor;

  if (version == NULL || !req_int (r, version, "major", &major) ||
      !req_int (r, version, "minor", &minor))
    return FALSE;
  if (major != SCHEMA_MAJOR && !(major == 0 && minor == 0))
    return fail (r, opt (version, "major"), GRAFT_PARSE_ERROR_UNSUPPORTED,
                 "serialized schema version SchemaVersion(major=%" G_GINT64_FORMAT
                 ", minor=%" G_GINT64_FORMAT ") does not match our current schema version "
                 "(%d, %d)",
                 major, minor, SCHEMA_MAJOR, SCHEMA_MINOR);
  return TRUE;
}

/* ExportedProgramDeserializer.deserialize, as far as the graph module. */
static gboolean
read_program (Reader   *r,
              JsonNode *root)
{
  JsonNode  *ranges, *graph_module, *graph;
  JsonArray *inputs, *nodes, *outputs;

  if (!check_object (r, root, "the program") || !check_schema_version (r, root) ||
      (ranges = req_object (r, root, "range_constraints")) == NULL ||
      (graph_module = req_object (r, root, "graph_module")) == NULL ||
      !read_signature (r, graph_module) ||
      (graph = req_object (r, graph_module, "graph")) == NULL || !read_values (r, graph) ||
      (inputs = req_array (r, graph, "inputs")) == NULL ||
      (nodes = req_array (r, graph, "nodes")) == NULL ||
      (outputs = req_array (r, graph, "outputs")) == NULL || !read_inputs (r, inputs))
    return FALSE;
  for (guint k = 0; k < json_array_get_length (nodes); k++)
    if (!read_node (r, json_array_get_element (nodes, k)))
      return FALSE;
  if (!read_outputs (r, graph, outputs))
    return FALSE;

  /* What torch's namespace holds and no node is named stays taken. */
  for (guint k = 0; k < r->reserved->len; k++)
    {
      GraftNamespace *names = graft_graph_get_namespace (r->graph);

      if (!graft_namespace_contains (names, r->reserved->pdata[k]))
        graft_namespace_create_name (names, r->reserved->pdata[k], GRAFT_NAME_DEFAULT);
    }
  if (!read_range_constraints (r, ranges))
    return FALSE;
  graft_graph_set_module_name (r->graph, "GraphModule");
  return TRUE;
}

/**
 * graft_pt2_detect:
 *
 * Returns: whether @source starts as a zip archive does (`PK\3\4`), as a
 *   `.pt2` does
 */
gboolean
graft_pt2_detect (GraftSource *source)
{
  return graft_source_get_length (source) >= 4 &&
         memcmp (graft_source_get_text (source), "PK\x03\x04", 4) == 0;
}

static void
free_frames (gpointer frames)
{
  g_array_unref (frames);
}

/**
 * graft_pt2_read:
 * @source: the bytes of a `.pt2` archive
 * @dialect: the torch to read for: one with torch.export (2.6)
 * @error: return location for a #GRAFT_PARSE_ERROR, placed in the JSON
 *   member (`m.pt2:serialized_exported_program.json:LINE:COL`) or, for
 *   the archive itself, at `m.pt2:1:1`
 *
 * Reads the program the archive holds into the graph torch 2.6's
 * `torch.export.load(path).graph_module` holds, with node metadata, the
 * graph signature and the range constraints (graft-meta.h).
 *
 * Returns: (transfer full) (nullable): the graph, or %NULL with @error set
 */
GraftGraph *
graft_pt2_read (GraftSource        *source,
                const GraftDialect *dialect,
                GError            **error)
{
  Reader      r = { 0 };
  JsonNode   *root;
  GraftGraph *result = NULL;

  g_return_val_if_fail (source != NULL && dialect != NULL, NULL);

  if (!graft_program_check_dialect (dialect, graft_source_get_filename (source), error))
    return NULL;
  r.dialect = dialect;
  r.archive_name = graft_source_get_filename (source);
  r.error = error;
  r.graph = graft_graph_new (dialect);
  r.shadow = graft_namespace_new (dialect);
  r.by_name = g_hash_table_new (g_str_hash, g_str_equal);
  r.values = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  r.expr_texts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  r.symbols = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r.module_stacks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, free_frames);
  r.reserved = g_ptr_array_new ();
  r.input_names = g_ptr_array_new ();
  r.scratch = g_string_new (NULL);

  if (read_archive (&r, source) && check_text (&r) && (root = parse_json (&r)) != NULL &&
      read_program (&r, root))
    result = g_steal_pointer (&r.graph);

  g_string_free (r.scratch, TRUE);
  g_ptr_array_unref (r.input_names);
  g_ptr_array_unref (r.reserved);
  g_hash_table_unref (r.module_stacks);
  g_hash_table_unref (r.symbols);
  g_hash_table_unref (r.expr_texts);
  g_hash_table_unref (r.values);
  g_hash_table_unref (r.by_name);
  graft_namespace_free (r.shadow);
  g_clear_pointer (&r.graph, graft_graph_free);
  g_clear_object (&r.parser);
  g_clear_pointer (&r.member, graft_source_unref);
  return result;
}
