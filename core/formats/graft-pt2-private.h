/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pt2-private.h: the state of reading one `.pt2` archive
 * (graft-pt2-reader.c) and what its parts share: the archive
 * (graft-pt2-archive.c), the JSON text, its errors and typed access to it
 * (graft-pt2-json.c), and values and arguments (graft-pt2-values.c).
 */
#pragma once

#include "graft-error.h"
#include "graft-graph.h"
#include "graft-meta.h"
#include "graft-name-table-private.h"
#include "graft-namespace.h"
#include "graft-types.h"

G_BEGIN_DECLS

/* The JSON member as a tree (graft-pt2-tree.c). */
typedef enum {
  PT2_NULL,
  PT2_BOOL,
  PT2_INT,
  PT2_DOUBLE,
  PT2_STRING,
  PT2_ARRAY,
  PT2_OBJECT,
} Pt2Type;

typedef struct _Pt2Value  Pt2Value;
typedef struct _Pt2Member Pt2Member;
typedef struct _Pt2Tree   Pt2Tree;

/* One value: its type, where it starts in the text, and what it holds;
 * 16 bytes (the JSON is at most GRAFT_MAX_JSON_BYTES, 2^30). */
struct _Pt2Value
{
  guint64 type : 3;    /* a Pt2Type */
  guint64 len : 30;    /* the items of an array, the members of an object, a string's bytes */
  guint64 offset : 31; /* in the text */
  union
  {
    gboolean    b;
    gint64      i;
    double      d;
    const char *s; /* len bytes; NUL-terminated unless read in place
                    * (Reader.in_place): _graft_pt2_string() */
    Pt2Value  *items;
    Pt2Member *members;
  } v;
};

/* A member of an object: in the text's order, each key once. */
struct _Pt2Member
{
  const char *key;
  Pt2Value    value;
};

/* The schema version torch 2.6 writes (schema.py: SCHEMA_VERSION). */
#define SCHEMA_MAJOR 8
#define SCHEMA_MINOR 2

/* What the float tokens Python writes become (graft-pt2-tree.c): a string
 * of one control character repeated, as long as the token, quotes
 * included (and so the token is marked in the text, unless it is read in
 * place). */
#define NAN_MARK     '\x01'
#define INF_MARK     '\x02'
#define NEG_INF_MARK '\x03'

/* A tensor's metadata (graft-pt2-names.c), its strings interned. */
typedef struct
{
  const char *dtype;
  const char *shape;
  const char *stride;
  const char *device;
} Pt2Tensor;

/* The values of the program by name (graft-pt2-names.c). */
typedef struct
{
  Pt2Member     *members; /* Borrowed: the keys of `tensor_values` */
  guint          n;
  Pt2Tensor     *tensors; /* Owned: one per key */
  guint          cursor;  /* just after the last tensor found */
  GraftNameTable index;   /* key -> its position + 1, once a name was not at the cursor */
  gboolean       indexed;
  GraftNameTable others; /* a symbolic value's or script object's name -> GraftNodeMeta, owned */
} Pt2Values;

/* A node that arguments name. */
typedef struct
{
  const char *name; /* the node's */
  GraftNode  *node;
  guint       hash; /* _graft_pt2_hash() of the name */
  guint       len;
} Pt2Known;

/* The nodes arguments may name, in the order they were made
 * (graft-pt2-names.c). */
typedef struct
{
  Pt2Known      *known; /* Owned */
  guint          n_known;
  guint          size;
  guint          runs[4]; /* where each run goes on, the last used first */
  guint          scanned; /* entries read in order for names not found by place */
  GraftNameTable index;   /* name -> position in known + 1, once a name was not found by place */
  gboolean       indexed;
} Pt2Nodes;

/* The check of the JSON member's CRC on a thread (graft-pt2-archive.c). */
typedef struct _Pt2Check Pt2Check;

typedef enum {
  PT2_CHECKED,
  PT2_REREAD,
  PT2_CHECK_FAILED,
} Pt2CheckResult;

/* The texts of the tensors' metadata made ahead on a thread, while the
 * signature is read (graft-pt2-values.c). */
typedef struct _Pt2Ahead Pt2Ahead;

/* The slots of the cache of operators' schemas, a power of two. */
#define PT2_SCHEMA_CACHE_SIZE 64u

/* One archive being read. */
typedef struct
{
  const GraftDialect *dialect;      /* static */
  const char         *archive_name; /* Borrowed: the archive, as errors name it */
  GError            **error;        /* Borrowed: where the first error goes */

  /* Owned */
  GraftSource *member;           /* the JSON text, named ARCHIVE:MEMBER */
  gboolean     in_place;         /* member is the archive's bytes (a view: not
                                  * NUL-terminated, not to be written) */
  GPtrArray *strings;            /* blocks of NUL-terminated copies of strings read
                                  * in place, used again once released
                                  * (_graft_pt2_string()) */
  guint           strings_block; /* the block being filled */
  gsize           strings_used;  /* its bytes used */
  Pt2Tree        *tree;
  GraftGraph     *graph;
  GraftNamespace *shadow;      /* torch's graph namespace: the names it made; NULL
                                * while it holds the graph's (shadow_namespace()) */
  Pt2Nodes       by_name;      /* serialized name -> GraftNode (borrowed) */
  Pt2Values      values;       /* serialized name -> its metadata */
  Pt2Ahead      *ahead;        /* the tensors' texts being made, or NULL */
  GHashTable    *expr_texts;   /* srepr (owned) -> its str(), interned */
  GHashTable    *symbols;      /* names of the symbols in the values, owned */
  GraftNameSlot *string_cache; /* PT2_CACHE_SIZE slots: a text met lately -> the graph's copy */
  GraftNameSlot *frame_cache;  /* PT2_CACHE_SIZE slots: a module frame's text met lately ->
                                * its index + 1 in frame_pool */
  GraftNameSlot *schema_cache; /* PT2_SCHEMA_CACHE_SIZE slots: an operator met lately ->
                                * its GraftAtenSchema */
  GArray    *frame_pool;       /* GraftModuleFrame, strings interned */
  GArray    *node_frames;      /* the module stack of the node being read */
  GString   *frame_text;
  GPtrArray *reserved;    /* names torch's namespace made for renamed nodes
                           * (borrowed from the shadow) */
  GPtrArray *input_names; /* per input spec, the argument's name (borrowed) */
  GString   *scratch;
  GArray    *place_values; /* GraftArg: a node's inputs (place_inputs()) */
  GPtrArray *place_names;  /* Pt2Value: their names, borrowed */
  GArray    *place_args;   /* GraftArg: the node's positional arguments */
  GArray    *place_kwargs; /* GraftArg: its keywords, key then value */

  /* The archive while the member's CRC is checked (graft-pt2-archive.c) */
  gpointer  zip; /* zip_t, owned */
  gint64    member_index;
  char     *member_name; /* owned */
  Pt2Check *check;       /* owned, with its thread */
} Reader;

/* graft-pt2-reader.c, for the input set (graft-input.c) */
GraftGraph *_graft_pt2_read_keeping (GraftSource        *source,
                                     const GraftDialect *dialect,
                                     Pt2Tree           **out_kept,
                                     GError            **error) G_GNUC_WARN_UNUSED_RESULT;

/* graft-pt2-archive.c */
gboolean       _graft_pt2_read_archive (Reader      *r,
                                        GraftSource *archive);
Pt2CheckResult _graft_pt2_archive_wait (Reader *r);
void           _graft_pt2_archive_clear (Reader *r);

/* graft-pt2-strings.c */
/* The slots of the caches of texts met lately, a power of two: 384 KiB
 * each, the texts of a few thousand nodes. */
#define PT2_CACHE_SIZE 16384u

GraftNameSlot *_graft_pt2_cache_slot (GraftNameSlot *cache,
                                      const char    *text,
                                      gsize          len,
                                      guint         *out_hash,
                                      gboolean      *out_hit);
guint          _graft_pt2_hash (const char *p,
                                gsize       len);
void           _graft_pt2_table_init (GraftNameTable *table);
GraftNameSlot *_graft_pt2_table_lookup (GraftNameTable *table,
                                        const char     *key,
                                        gsize           len,
                                        guint          *out_hash);
void           _graft_pt2_table_fill (GraftNameTable *table,
                                      const char     *key,
                                      gsize           len,
                                      guint           hash,
                                      gpointer        value);
gpointer       _graft_pt2_table_get (GraftNameTable *table,
                                     const char     *key);
gpointer       _graft_pt2_table_set (GraftNameTable *table,
                                     const char     *key,
                                     gpointer        value);
void           _graft_pt2_table_clear_full (GraftNameTable *table,
                                            GDestroyNotify  free_value);
const char    *_graft_pt2_intern_len (Reader     *r,
                                      const char *text,
                                      gsize       len);
const char    *_graft_pt2_intern (Reader     *r,
                                  const char *text);
const char    *_graft_pt2_intern_hashed (Reader     *r,
                                         const char *text,
                                         gsize       len,
                                         guint       hash);
guint          _graft_pt2_intern_prepare (Reader     *r,
                                          const char *text,
                                          gsize       len);

/* graft-pt2-names.c */
void           _graft_pt2_values_init (Pt2Values *values);
void           _graft_pt2_values_clear (Pt2Values *values);
Pt2Tensor     *_graft_pt2_values_set_tensors (Pt2Values *values,
                                              Pt2Value  *dict);
GraftNodeMeta *_graft_pt2_values_add_other (Pt2Values     *values,
                                            const char    *name,
                                            GraftValueKind kind);
gboolean       _graft_pt2_values_find (Pt2Values     *values,
                                       const char    *name,
                                       GraftNodeMeta *out);
void           _graft_pt2_nodes_init (Pt2Nodes *nodes);
void           _graft_pt2_nodes_clear (Pt2Nodes *nodes);
void           _graft_pt2_nodes_add (Pt2Nodes  *nodes,
                                     GraftNode *node);
GraftNode     *_graft_pt2_nodes_find (Pt2Nodes   *nodes,
                                      const char *name,
                                      gsize       len);

/* graft-pt2-tree.c */
/* Texts of at least this are read in parts, on two threads. */
#define PT2_SPLIT_MIN_BYTES (4u * 1024u * 1024u)

/* The JSON text from which the tree left after reading is freed on a
 * thread of its own (_graft_pt2_tree_free_aside()): about 90,000 nodes. */
#define PT2_FREE_ASIDE_BYTES (64u * 1024u * 1024u)

Pt2Tree  *_graft_pt2_tree_new (const char *text,
                               gsize       length,
                               gboolean    writable,
                               gsize      *out_stop,
                               char      **out_why);
void      _graft_pt2_tree_free (Pt2Tree *tree);
void      _graft_pt2_tree_free_aside (Pt2Tree *tree);
gboolean  _graft_pt2_tree_release (Pt2Tree  *tree,
                                   Pt2Value *list,
                                   gsize     offset);
Pt2Value *_graft_pt2_tree_get_root (Pt2Tree *tree);
guint     _graft_pt2_tree_get_n_parts (Pt2Tree *tree);
gsize     _graft_pt2_tree_get_size (Pt2Tree *tree);
void      _graft_pt2_tree_set_sharing (gboolean share);
void      _graft_pt2_tree_set_split (gsize  min_bytes,
                                     double from);
void      _graft_pt2_tree_set_split_thread (gboolean second);
guint     _graft_pt2_tree_get_parts_read (void);
Pt2Value *_graft_pt2_member (Pt2Value   *obj,
                             const char *key);

static inline gboolean
_graft_pt2_is_scalar (Pt2Value *v)
{
  return v->type == PT2_BOOL || v->type == PT2_INT || v->type == PT2_DOUBLE ||
         v->type == PT2_STRING;
}

/* graft-pt2-json.c */
Pt2Value   *_graft_pt2_parse_json (Reader *r);
gsize       _graft_pt2_node_offset (Reader   *r,
                                    Pt2Value *node);
gboolean    _graft_pt2_fail (Reader             *r,
                             Pt2Value           *at,
                             GraftParseErrorCode code,
                             const char         *format,
                             ...) G_GNUC_PRINTF (4, 5);
const char *_graft_pt2_type_name (Pt2Value *node);
const char *_graft_pt2_string (Reader   *r,
                               Pt2Value *node);
void        _graft_pt2_strings_release (Reader *r);
const char *_graft_pt2_check_string_len (Reader     *r,
                                         Pt2Value   *node,
                                         const char *what,
                                         gsize      *out_len);
const char *_graft_pt2_req_string_len (Reader     *r,
                                       Pt2Value   *obj,
                                       const char *key,
                                       gsize      *out_len);
gboolean    _graft_pt2_holds (Pt2Value *node,
                              Pt2Type   type);
Pt2Value   *_graft_pt2_opt (Pt2Value   *obj,
                            const char *key);
Pt2Value   *_graft_pt2_req (Reader     *r,
                            Pt2Value   *obj,
                            const char *key);
Pt2Value   *_graft_pt2_req_object (Reader     *r,
                                   Pt2Value   *obj,
                                   const char *key);
Pt2Value   *_graft_pt2_req_array (Reader     *r,
                                  Pt2Value   *obj,
                                  const char *key);
const char *_graft_pt2_req_interned (Reader     *r,
                                     Pt2Value   *obj,
                                     const char *key);
gboolean    _graft_pt2_req_int (Reader     *r,
                                Pt2Value   *obj,
                                const char *key,
                                gint64     *out);
gboolean    _graft_pt2_check_object (Reader     *r,
                                     Pt2Value   *node,
                                     const char *what);
Pt2Value   *_graft_pt2_check_array (Reader     *r,
                                    Pt2Value   *node,
                                    const char *what);
const char *_graft_pt2_check_string (Reader     *r,
                                     Pt2Value   *node,
                                     const char *what);
gboolean    _graft_pt2_check_int (Reader     *r,
                                  Pt2Value   *node,
                                  const char *what,
                                  gint64     *out);
gboolean    _graft_pt2_check_bool (Reader     *r,
                                   Pt2Value   *node,
                                   const char *what,
                                   gboolean   *out);
gboolean    _graft_pt2_read_union (Reader      *r,
                                   Pt2Value    *node,
                                   const char  *what,
                                   const char **out_type,
                                   Pt2Value   **out_value);

/* graft-pt2-values.c */
gboolean _graft_pt2_tensor_meta_is_plain (Pt2Value *tm);
void     _graft_pt2_values_start (Reader   *r,
                                  Pt2Value *graph_module);
void     _graft_pt2_values_stop (Reader *r);
void     _graft_pt2_values_set_thread_min (guint n_tensors);
gboolean _graft_pt2_read_values (Reader   *r,
                                 Pt2Value *graph);
gboolean _graft_pt2_read_argument (Reader   *r,
                                   Pt2Value *node,
                                   GraftArg *out);
gboolean _graft_pt2_read_scalar (Reader   *r,
                                 Pt2Value *node,
                                 GraftArg *out);
gboolean _graft_pt2_read_tensor_ref (Reader   *r,
                                     Pt2Value *node,
                                     GraftArg *out);
gboolean _graft_pt2_lookup_node (Reader   *r,
                                 Pt2Value *name_node,
                                 GraftArg *out);

G_END_DECLS
