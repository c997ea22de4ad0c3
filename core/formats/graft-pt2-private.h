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
#include "graft-namespace.h"
#include "graft-types.h"

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The schema version torch 2.6 writes (schema.py: SCHEMA_VERSION). */
#define SCHEMA_MAJOR 8
#define SCHEMA_MINOR 2

/* What the float tokens Python writes become (graft-pt2-json.c): a string
 * of one control character repeated, as long as the token, quotes
 * included. */
#define NAN_MARK     '\x01'
#define INF_MARK     '\x02'
#define NEG_INF_MARK '\x03'

/* One archive being read. */
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

gboolean _graft_pt2_read_archive (Reader      *r,
                                  GraftSource *archive);

/* graft-pt2-json.c */
gboolean    _graft_pt2_check_text (Reader *r);
JsonNode   *_graft_pt2_parse_json (Reader *r);
gsize       _graft_pt2_node_offset (Reader   *r,
                                    JsonNode *node);
gboolean    _graft_pt2_fail (Reader             *r,
                             JsonNode           *at,
                             GraftParseErrorCode code,
                             const char         *format,
                             ...) G_GNUC_PRINTF (4, 5);
const char *_graft_pt2_type_name (JsonNode *node);
gboolean    _graft_pt2_holds (JsonNode *node,
                              GType     type);
JsonNode   *_graft_pt2_opt (JsonNode   *obj,
                            const char *key);
JsonNode   *_graft_pt2_req (Reader     *r,
                            JsonNode   *obj,
                            const char *key);
JsonNode   *_graft_pt2_req_object (Reader     *r,
                                   JsonNode   *obj,
                                   const char *key);
JsonArray  *_graft_pt2_req_array (Reader     *r,
                                  JsonNode   *obj,
                                  const char *key);
const char *_graft_pt2_req_string (Reader     *r,
                                   JsonNode   *obj,
                                   const char *key);
gboolean    _graft_pt2_req_int (Reader     *r,
                                JsonNode   *obj,
                                const char *key,
                                gint64     *out);
gboolean    _graft_pt2_check_object (Reader     *r,
                                     JsonNode   *node,
                                     const char *what);
JsonArray  *_graft_pt2_check_array (Reader     *r,
                                    JsonNode   *node,
                                    const char *what);
const char *_graft_pt2_check_string (Reader     *r,
                                     JsonNode   *node,
                                     const char *what);
gboolean    _graft_pt2_check_int (Reader     *r,
                                  JsonNode   *node,
                                  const char *what,
                                  gint64     *out);
gboolean    _graft_pt2_check_bool (Reader     *r,
                                   JsonNode   *node,
                                   const char *what,
                                   gboolean   *out);
gboolean    _graft_pt2_read_union (Reader      *r,
                                   JsonNode    *node,
                                   const char  *what,
                                   const char **out_type,
                                   JsonNode   **out_value);

/* graft-pt2-values.c */
gboolean _graft_pt2_read_values (Reader   *r,
                                 JsonNode *graph);
gboolean _graft_pt2_read_argument (Reader   *r,
                                   JsonNode *node,
                                   GraftArg *out);
gboolean _graft_pt2_read_scalar (Reader   *r,
                                 JsonNode *node,
                                 GraftArg *out);
gboolean _graft_pt2_read_tensor_ref (Reader   *r,
                                     JsonNode *node,
                                     GraftArg *out);
gboolean _graft_pt2_lookup_node (Reader   *r,
                                 JsonNode *name_node,
                                 GraftArg *out);

G_END_DECLS
