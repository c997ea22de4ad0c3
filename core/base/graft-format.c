/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-format.c: the table of output formats (graft-format.h): one row
 * per GraftFormat, in the enum's order, and the lookups by name and by a
 * path's extension.
 */
#include "config.h"

#include <string.h>

#include "graft-format.h"

typedef struct
{
  const char *name;      /* what `--to` takes; the editor's choice id */
  const char *extension; /* without the dot */
  const char *mime_type;
  const char *description; /* for a file chooser */
  gboolean    picture;     /* drawn by the renderer (binary) */
} FormatRow;

static const FormatRow formats[] = {
  [GRAFT_FORMAT_CODE] = { "code", "py", "text/x-python", "Python Code", FALSE },
  /* Python too: a path ending in `.py` stays code (the first row wins). */
  [GRAFT_FORMAT_READABLE] = { "readable", "py", "text/x-python", "Readable Python Code", FALSE },
  [GRAFT_FORMAT_GRAPH] = { "graph", "graph", "text/plain", "FX Graph Listing", FALSE },
  [GRAFT_FORMAT_JSON] = { "json", "json", "application/json", "JSON Graph", FALSE },
  [GRAFT_FORMAT_DOT] = { "dot", "dot", "text/vnd.graphviz", "DOT Graph", FALSE },
  [GRAFT_FORMAT_PNG] = { "png", "png", "image/png", "PNG Image", TRUE },
  [GRAFT_FORMAT_SVG] = { "svg", "svg", "image/svg+xml", "SVG Image", TRUE },
  [GRAFT_FORMAT_PDF] = { "pdf", "pdf", "application/pdf", "PDF Document", TRUE },
};

static const FormatRow *
row (GraftFormat format)
{
  g_return_val_if_fail ((guint) format < G_N_ELEMENTS (formats), &formats[GRAFT_FORMAT_CODE]);
  return &formats[format];
}

/**
 * graft_format_from_string:
 * @name: (nullable): a format's name, as graft_format_get_name() gives it
 *   (case matters)
 * @out_format: (out): the format
 *
 * Returns: %TRUE if @name names a format
 */
gboolean
graft_format_from_string (const char  *name,
                          GraftFormat *out_format)
{
  g_return_val_if_fail (out_format != NULL, FALSE);

  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (formats); i++)
    if (strcmp (name, formats[i].name) == 0)
      {
        *out_format = (GraftFormat) i;
        return TRUE;
      }
  return FALSE;
}

/**
 * graft_format_from_path:
 * @path: (nullable): a file name
 * @out_format: (out): the format
 *
 * The format that @path's extension (after its last dot, in any case)
 * names: `.py` is code, `.graph` a listing, `.PNG` a PNG.
 *
 * Returns: %TRUE if the extension is a format's
 */
gboolean
graft_format_from_path (const char  *path,
                        GraftFormat *out_format)
{
  const char *dot = path != NULL ? strrchr (path, '.') : NULL;

  g_return_val_if_fail (out_format != NULL, FALSE);

  for (guint i = 0; dot != NULL && i < G_N_ELEMENTS (formats); i++)
    if (g_ascii_strcasecmp (dot + 1, formats[i].extension) == 0)
      {
        *out_format = (GraftFormat) i;
        return TRUE;
      }
  return FALSE;
}

/**
 * graft_format_get_name:
 * @format: a format
 *
 * Returns: its name: `code`, `readable`, `graph`, `json`, `dot`, `png`, `svg`
 *   or `pdf`
 */
const char *
graft_format_get_name (GraftFormat format)
{
  return row (format)->name;
}

/**
 * graft_format_get_extension:
 * @format: a format
 *
 * Returns: the extension of its files, without the dot (`py` for code)
 */
const char *
graft_format_get_extension (GraftFormat format)
{
  return row (format)->extension;
}

/**
 * graft_format_get_mime_type:
 * @format: a format
 *
 * Returns: the MIME type of its files
 */
const char *
graft_format_get_mime_type (GraftFormat format)
{
  return row (format)->mime_type;
}

/**
 * graft_format_get_description:
 * @format: a format
 *
 * Returns: a short name for people, such as `PNG Image` (not translated)
 */
const char *
graft_format_get_description (GraftFormat format)
{
  return row (format)->description;
}

/**
 * graft_format_is_picture:
 * @format: a format
 *
 * Returns: whether @format is a picture (PNG, SVG, PDF), which the
 *   renderer draws from a layout; the others are text
 */
gboolean
graft_format_is_picture (GraftFormat format)
{
  return row (format)->picture;
}
