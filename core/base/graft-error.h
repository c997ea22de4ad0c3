/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-error.h: error domains, the parse-error domain that carries a file,
 * line and column, and the one diagnostic formatter.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

#define GRAFT_PARSE_ERROR (graft_parse_error_quark ())

/**
 * GraftParseErrorCode:
 * @GRAFT_PARSE_ERROR_SYNTAX: the text is not valid in its language
 * @GRAFT_PARSE_ERROR_UNSUPPORTED: valid Python that Graft cannot trace
 * @GRAFT_PARSE_ERROR_TRACE: what torch.fx would reject while tracing
 * @GRAFT_PARSE_ERROR_NAME: an entry, pattern or name the input lacks
 * @GRAFT_PARSE_ERROR_LIMIT: a limit of graft-limits.h was exceeded
 * @GRAFT_PARSE_ERROR_IO: the input could not be read or written
 * @GRAFT_PARSE_ERROR_GRAPH: the graph is inconsistent (listings, DOT)
 * @GRAFT_PARSE_ERROR_REWRITE: the rewrite cannot be carried out
 * @GRAFT_PARSE_ERROR_NO_DOT_READER: the input is DOT and this program does
 *   not link the DOT reader (the lean `graft` CLI, which then hands the
 *   command line to graft-render)
 */
typedef enum {
  GRAFT_PARSE_ERROR_SYNTAX,
  GRAFT_PARSE_ERROR_UNSUPPORTED,
  GRAFT_PARSE_ERROR_TRACE,
  GRAFT_PARSE_ERROR_NAME,
  GRAFT_PARSE_ERROR_LIMIT,
  GRAFT_PARSE_ERROR_IO,
  GRAFT_PARSE_ERROR_GRAPH,
  GRAFT_PARSE_ERROR_REWRITE,
  GRAFT_PARSE_ERROR_NO_DOT_READER,
} GraftParseErrorCode;

GQuark      graft_parse_error_quark        (void);
void        graft_set_error_at             (GError      **error,
                                            const char   *filename,
                                            guint         line,
                                            guint         column,
                                            GraftParseErrorCode code,
                                            const char   *format,
                                            ...) G_GNUC_PRINTF (6, 7);
void        graft_set_error_at_offset      (GError      **error,
                                            GraftSource  *source,
                                            gsize         offset,
                                            gsize         end,
                                            GraftParseErrorCode code,
                                            const char   *format,
                                            ...) G_GNUC_PRINTF (6, 7);
gboolean    graft_parse_error_get_location (const GError *error,
                                            const char  **out_filename,
                                            guint        *out_line,
                                            guint        *out_column,
                                            guint        *out_end_line,
                                            guint        *out_end_column);
char       *graft_error_format             (const GError *error,
                                            const char   *fallback_filename) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
