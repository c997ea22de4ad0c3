/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-error.h: Graft's two error domains (what is wrong with an input
 * text; what went wrong in an operation), the place an error carries, and
 * the one diagnostic formatter.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

#define GRAFT_PARSE_ERROR (graft_parse_error_quark ())
#define GRAFT_ERROR       (graft_error_quark ())

/**
 * GraftParseErrorCode:
 * @GRAFT_PARSE_ERROR_SYNTAX: the text is not valid in its language
 * @GRAFT_PARSE_ERROR_UNSUPPORTED: valid Python that Graft cannot trace
 * @GRAFT_PARSE_ERROR_TRACE: what torch.fx would reject while tracing
 * @GRAFT_PARSE_ERROR_NAME: an entry, pattern or name the input lacks
 * @GRAFT_PARSE_ERROR_LIMIT: the input exceeds a limit of graft-limits.h
 * @GRAFT_PARSE_ERROR_GRAPH: the input describes an inconsistent graph
 *   (a listing or DOT file)
 * @GRAFT_PARSE_ERROR_NO_DOT_READER: the input is DOT and this program does
 *   not read DOT (the lean `graft` CLI, which then hands the command line
 *   to graft-render)
 * @GRAFT_PARSE_ERROR_NO_ARCHIVE_READER: the input is a `.pt2` archive and
 *   this program does not read archives (the lean `graft` CLI, which then
 *   hands the command line to graft-render)
 *
 * What is wrong with an input text.  Errors of this domain always carry
 * the place in the text (graft_error_get_location()).
 */
typedef enum {
  GRAFT_PARSE_ERROR_SYNTAX,
  GRAFT_PARSE_ERROR_UNSUPPORTED,
  GRAFT_PARSE_ERROR_TRACE,
  GRAFT_PARSE_ERROR_NAME,
  GRAFT_PARSE_ERROR_LIMIT,
  GRAFT_PARSE_ERROR_GRAPH,
  GRAFT_PARSE_ERROR_NO_DOT_READER,
  GRAFT_PARSE_ERROR_NO_ARCHIVE_READER,
} GraftParseErrorCode;

/**
 * GraftErrorCode:
 * @GRAFT_ERROR_IO: a file could not be read or written
 * @GRAFT_ERROR_GRAPH: a graph breaks a rule torch.fx's lint checks
 * @GRAFT_ERROR_REWRITE: a pattern, replacement or rewrite cannot be used
 * @GRAFT_ERROR_SELECTION: the selected nodes cannot become a pattern
 * @GRAFT_ERROR_LIMIT: a layout or drawing exceeds a limit of graft-limits.h
 * @GRAFT_ERROR_DRAW: Graphviz or cairo could not lay out or draw a graph
 *
 * What went wrong in an operation of the core.  Such an error may carry a
 * place too: the file it concerns, or the node of a pattern it is about.
 */
typedef enum {
  GRAFT_ERROR_IO,
  GRAFT_ERROR_GRAPH,
  GRAFT_ERROR_REWRITE,
  GRAFT_ERROR_SELECTION,
  GRAFT_ERROR_LIMIT,
  GRAFT_ERROR_DRAW,
} GraftErrorCode;

GQuark   graft_parse_error_quark (void);
GQuark   graft_error_quark (void);
void     graft_set_error_at (GError            **error,
                             const char         *filename,
                             guint               line,
                             guint               column,
                             GraftParseErrorCode code,
                             const char         *format,
                             ...) G_GNUC_PRINTF (6, 7);
void     graft_set_error_at_offset (GError            **error,
                                    GraftSource        *source,
                                    gsize               offset,
                                    gsize               end,
                                    GraftParseErrorCode code,
                                    const char         *format,
                                    ...) G_GNUC_PRINTF (6, 7);
void     graft_set_file_error (GError       **error,
                               const char    *filename,
                               GraftErrorCode code,
                               const char    *format,
                               ...) G_GNUC_PRINTF (4, 5);
void     graft_set_error_in_source (GError       **error,
                                    GraftSource   *source,
                                    gsize          offset,
                                    gsize          end,
                                    GraftErrorCode code,
                                    const char    *format,
                                    ...) G_GNUC_PRINTF (6, 7);
void     graft_error_move_to_offset (GError      *error,
                                     GraftSource *source,
                                     gsize        offset,
                                     gsize        end);
gboolean graft_error_get_location (const GError *error,
                                   const char  **out_filename,
                                   guint        *out_line,
                                   guint        *out_column,
                                   guint        *out_end_line,
                                   guint        *out_end_column);
char    *graft_error_format (const GError *error,
                             const char   *fallback_filename) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
