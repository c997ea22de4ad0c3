/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-error.c: the GRAFT_PARSE_ERROR domain.  Its errors carry the file,
 * line and column (and the end of the offending span) so that the CLI can
 * print `FILE:LINE:COL: error: TEXT` and the editor can underline the same
 * place.  Locations are computed here from byte offsets, once, when the error
 * is raised.
 */
#include "config.h"

#include "graft-error.h"
#include "graft-source.h"

typedef struct
{
  char *filename;
  guint line;
  guint column;
  guint end_line;
  guint end_column;
} GraftParseErrorPrivate;

/* GLib's generated wrappers pass the private data found on the error; it
 * is never NULL for our own errors, but the checks keep -Wnull-dereference
 * (which cannot see that) quiet. */
static void
graft_parse_error_private_init (GraftParseErrorPrivate *priv)
{
  if (priv == NULL)
    return;
  priv->filename = NULL;
  priv->line = priv->column = priv->end_line = priv->end_column = 0;
}

static void
graft_parse_error_private_copy (const GraftParseErrorPrivate *src,
                                GraftParseErrorPrivate       *dest)
{
  if (src == NULL || dest == NULL)
    return;
  dest->filename = g_strdup (src->filename);
  dest->line = src->line;
  dest->column = src->column;
  dest->end_line = src->end_line;
  dest->end_column = src->end_column;
}

static void
graft_parse_error_private_clear (GraftParseErrorPrivate *priv)
{
  if (priv == NULL)
    return;
  g_clear_pointer (&priv->filename, g_free);
}

G_DEFINE_EXTENDED_ERROR (GraftParseError, graft_parse_error)

static void
set_located (GError    **error,
             const char *filename,
             guint       line,
             guint       column,
             guint       end_line,
             guint       end_column,
             int         code,
             char       *message)
{
  GError *err;
  GraftParseErrorPrivate *priv;

  if (error == NULL)
    {
      g_free (message);
      return;
    }
  err = g_error_new_literal (GRAFT_PARSE_ERROR, code, message);
  g_free (message);
  priv = graft_parse_error_get_private (err);
  if (priv == NULL)
    {
      g_propagate_error (error, err);
      return;
    }
  priv->filename = g_strdup (filename);
  priv->line = line;
  priv->column = column;
  priv->end_line = end_line;
  priv->end_column = end_column;
  g_propagate_error (error, err);
}

/**
 * graft_set_error_at:
 * @error: return location, or %NULL
 * @filename: the file the error is in
 * @line: 1-based line
 * @column: 1-based column
 * @code: the error code
 * @format: printf-style message: lowercase, one line, no final period
 *
 * Sets a located error when the position is already known as line and column.
 */
void
graft_set_error_at (GError            **error,
                    const char         *filename,
                    guint               line,
                    guint               column,
                    GraftParseErrorCode code,
                    const char         *format,
                    ...)
{
  va_list ap;
  char *message;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  set_located (error, filename, line, column, line, column, code, message);
}

/**
 * graft_set_error_at_offset:
 * @error: return location, or %NULL
 * @source: the source the offsets point into
 * @offset: byte offset of the start of the offending span
 * @end: byte offset just past its end (may equal @offset)
 * @code: the error code
 * @format: printf-style message: lowercase, one line, no final period
 *
 * Sets a located error from a byte span of @source.
 */
void
graft_set_error_at_offset (GError            **error,
                           GraftSource        *source,
                           gsize               offset,
                           gsize               end,
                           GraftParseErrorCode code,
                           const char         *format,
                           ...)
{
  va_list ap;
  char *message;
  guint line, column, end_line, end_column;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  if (error == NULL)
    {
      g_free (message);
      return;
    }
  if (end < offset)
    end = offset;
  graft_source_locate (source, offset, &line, &column);
  graft_source_locate (source, end, &end_line, &end_column);
  set_located (error, graft_source_get_filename (source),
               line, column, end_line, end_column, code, message);
}

/**
 * graft_parse_error_get_location:
 * @error: an error
 * @out_filename: (out) (optional) (transfer none): its file
 * @out_line: (out) (optional): 1-based line
 * @out_column: (out) (optional): 1-based column
 * @out_end_line: (out) (optional): line of the end of the span
 * @out_end_column: (out) (optional): column just past the span
 *
 * Returns: %TRUE if @error is a #GRAFT_PARSE_ERROR with a location
 */
gboolean
graft_parse_error_get_location (const GError *error,
                                const char  **out_filename,
                                guint        *out_line,
                                guint        *out_column,
                                guint        *out_end_line,
                                guint        *out_end_column)
{
  GraftParseErrorPrivate *priv;

  if (error == NULL || error->domain != GRAFT_PARSE_ERROR)
    return FALSE;
  priv = graft_parse_error_get_private (error);
  if (priv == NULL || priv->filename == NULL)
    return FALSE;
  if (out_filename != NULL)
    *out_filename = priv->filename;
  if (out_line != NULL)
    *out_line = priv->line;
  if (out_column != NULL)
    *out_column = priv->column;
  if (out_end_line != NULL)
    *out_end_line = priv->end_line;
  if (out_end_column != NULL)
    *out_end_column = priv->end_column;
  return TRUE;
}

/**
 * graft_error_format:
 * @error: an error
 * @fallback_filename: (nullable): the file to name when @error has no location
 *
 * Formats the one diagnostic line, `FILE:LINE:COL: error: TEXT`.
 *
 * Returns: (transfer full): the line, without a newline
 */
char *
graft_error_format (const GError *error,
                    const char   *fallback_filename)
{
  const char *filename = NULL;
  guint line = 1, column = 1;

  g_return_val_if_fail (error != NULL, NULL);

  if (!graft_parse_error_get_location (error, &filename, &line, &column, NULL, NULL))
    {
      filename = fallback_filename != NULL ? fallback_filename : "graft";
      line = column = 1;
    }
  return g_strdup_printf ("%s:%u:%u: error: %s", filename, line, column, error->message);
}
