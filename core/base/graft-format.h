/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-format.h: the output formats of a graph, for every program that
 * writes one (the CLI's `--to`, the editor's export, the renderer): their
 * names, file extensions and MIME types, and the one parser of a format's
 * name.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

/**
 * GraftFormat:
 * @GRAFT_FORMAT_CODE: Python code, as torch.fx's GraphModule.code (`code`)
 * @GRAFT_FORMAT_READABLE: the readable class form, as torch.fx's
 *   `gm.print_readable(print_output=False)` (`readable`): shapes and
 *   source lines where the graph knows them (torch 2.x only)
 * @GRAFT_FORMAT_GRAPH: the graph listing, as print(gm.graph) (`graph`)
 * @GRAFT_FORMAT_JSON: the graph as JSON (`json`)
 * @GRAFT_FORMAT_DOT: a Graphviz DOT graph (`dot`)
 * @GRAFT_FORMAT_PNG: a picture: PNG (`png`)
 * @GRAFT_FORMAT_SVG: a picture: SVG (`svg`)
 * @GRAFT_FORMAT_PDF: a picture: PDF (`pdf`)
 *
 * What a graph can be written as.  The first five are text; the pictures
 * (graft_format_is_picture()) are drawn by the renderer from a layout.
 */
typedef enum {
  GRAFT_FORMAT_CODE,
  GRAFT_FORMAT_READABLE,
  GRAFT_FORMAT_GRAPH,
  GRAFT_FORMAT_JSON,
  GRAFT_FORMAT_DOT,
  GRAFT_FORMAT_PNG,
  GRAFT_FORMAT_SVG,
  GRAFT_FORMAT_PDF,
} GraftFormat;

gboolean    graft_format_from_string (const char  *name,
                                      GraftFormat *out_format);
gboolean    graft_format_from_path (const char  *path,
                                    GraftFormat *out_format);
const char *graft_format_get_name (GraftFormat format);
const char *graft_format_get_extension (GraftFormat format);
const char *graft_format_get_mime_type (GraftFormat format);
const char *graft_format_get_description (GraftFormat format);
gboolean    graft_format_is_picture (GraftFormat format);

G_END_DECLS
