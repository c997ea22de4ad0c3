/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-error.c: Graft's two error domains.  GRAFT_PARSE_ERROR says what is
 * wrong with an input text; GRAFT_ERROR says what went wrong in an
 * operation (reading or writing a file, a lint, a rewrite, a drawing), as
 * GLib keeps G_MARKUP_ERROR and G_IO_ERROR apart.  Errors of both carry a
 * place (file, line and column, and the end of the offending span) so that
 * the CLI can print `FILE:LINE:COL: error: TEXT` and the editor can
 * underline the same place: always for a parse error, where there is one
 * for the others.  Places are computed here from byte offsets, once, when
 * the error is raised.
 */
#include "config.h"

#include "graft-error.h"
#include "graft-source.h"

/* The place an error is about; filename NULL when it has none. */
typedef struct
{
  char *filename;
  guint line;
  guint column;
  guint end_line;
  guint end_column;
} Place;

typedef Place GraftParseErrorPrivate;
typedef Place GraftErrorPrivate;

/* GLib's generated wrappers pass the private data found on the error; it
 * is never NULL for our own errors, but the checks keep -Wnull-dereference
 * (which cannot see that) quiet. */
static void
place_init (Place *place)
{
  if (place == NULL)
    return;
  place->filename = NULL;
  place->line = place->column = place->end_line = place->end_column = 0;
}

static void
place_copy (const Place *src,
            Place       *dest)
{
  if (src == NULL || dest == NULL)
    return;
  *dest = *src;
  dest->filename = g_strdup (src->filename);
}

static void
place_clear (Place *place)
{
  if (place == NULL)
    return;
  g_clear_pointer (&place->filename, g_free);
}

static void
graft_parse_error_private_init (GraftParseErrorPrivate *priv)
{
  place_init (priv);
}

static void
graft_parse_error_private_copy (const GraftParseErrorPrivate *src,
                                GraftParseErrorPrivate       *dest)
{
  place_copy (src, dest);
}

static void
graft_parse_error_private_clear (GraftParseErrorPrivate *priv)
{
  place_clear (priv);
}

static void
graft_error_private_init (GraftErrorPrivate *priv)
{
  place_init (priv);
}

static void
graft_error_private_copy (const GraftErrorPrivate *src,
                          GraftErrorPrivate       *dest)
{
  place_copy (src, dest);
}

static void
graft_error_private_clear (GraftErrorPrivate *priv)
{
  place_clear (priv);
}

G_DEFINE_EXTENDED_ERROR (GraftParseError, graft_parse_error)
G_DEFINE_EXTENDED_ERROR (GraftError, graft_error)

/* The place of an error of either domain, or NULL. */
static Place *
place_of (const GError *error)
{
  if (error == NULL)
    return NULL;
  if (error->domain == GRAFT_PARSE_ERROR)
    return graft_parse_error_get_private (error);
  if (error->domain == GRAFT_ERROR)
    return graft_error_get_private (error);
  return NULL;
}

/* Sets @error to @domain's @code with @message (taken), at a place. */
static void
set_placed (GError    **error,
            GQuark      domain,
            int         code,
            const char *filename,
            guint       line,
            guint       column,
            guint       end_line,
            guint       end_column,
            char       *message)
{
  GError *err;
  Place  *place;

  if (error == NULL)
    {
      g_free (message);
      return;
    }
  err = g_error_new_literal (domain, code, message);
  g_free (message);
  place = place_of (err);
  if (place != NULL && filename != NULL)
    {
      place->filename = g_strdup (filename);
      place->line = line;
      place->column = column;
      place->end_line = end_line;
      place->end_column = end_column;
    }
  g_propagate_error (error, err);
}

/* set_placed() at a byte span of @source. */
static void
set_in_source (GError     **error,
               GQuark       domain,
               int          code,
               GraftSource *source,
               gsize        offset,
               gsize        end,
               char        *message)
{
  guint line, column, end_line, end_column;

  if (error == NULL)
    {
      g_free (message);
      return;
    }
  if (end < offset)
    end = offset;
  graft_source_locate (source, offset, &line, &column);
  graft_source_locate (source, end, &end_line, &end_column);
  set_placed (error, domain, code, graft_source_get_filename (source), line, column, end_line,
              end_column, message);
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
 * Sets a parse error when the position is already known as line and
 * column.
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
  char   *message;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  set_placed (error, GRAFT_PARSE_ERROR, code, filename, line, column, line, column, message);
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
 * Sets a parse error at a byte span of @source.
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
  char   *message;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  set_in_source (error, GRAFT_PARSE_ERROR, code, source, offset, end, message);
}

/**
 * graft_error_move_to_offset:
 * @error: an error placed in @source
 * @source: the source the offsets point into
 * @offset: byte offset of the start of the new span
 * @end: byte offset just past its end
 *
 * Moves a placed error of either domain to another byte span of its
 * source (an error of an expression that Python places elsewhere than
 * where it was found).
 */
void
graft_error_move_to_offset (GError      *error,
                            GraftSource *source,
                            gsize        offset,
                            gsize        end)
{
  Place *place = place_of (error);

  if (place == NULL || place->filename == NULL)
    return;
  if (end < offset)
    end = offset;
  graft_source_locate (source, offset, &place->line, &place->column);
  graft_source_locate (source, end, &place->end_line, &place->end_column);
}

/**
 * graft_set_file_error:
 * @error: return location, or %NULL
 * @filename: (nullable): the file the operation was on
 * @code: the error code
 * @format: printf-style message: lowercase, one line, no final period
 *
 * Sets a #GRAFT_ERROR about a whole file, placed at its first line
 * (`FILE:1:1`), or without a place when @filename is %NULL.
 */
void
graft_set_file_error (GError       **error,
                      const char    *filename,
                      GraftErrorCode code,
                      const char    *format,
                      ...)
{
  va_list ap;
  char   *message;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  set_placed (error, GRAFT_ERROR, code, filename, 1, 1, 1, 1, message);
}

/**
 * graft_set_error_in_source:
 * @error: return location, or %NULL
 * @source: the source the offsets point into
 * @offset: byte offset of the start of the span the error is about
 * @end: byte offset just past its end (may equal @offset)
 * @code: the error code
 * @format: printf-style message: lowercase, one line, no final period
 *
 * Sets a #GRAFT_ERROR placed at a byte span of @source (the node of a
 * pattern a rewrite cannot use, say).
 */
void
graft_set_error_in_source (GError       **error,
                           GraftSource   *source,
                           gsize          offset,
                           gsize          end,
                           GraftErrorCode code,
                           const char    *format,
                           ...)
{
  va_list ap;
  char   *message;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  set_in_source (error, GRAFT_ERROR, code, source, offset, end, message);
}

/**
 * graft_error_get_location:
 * @error: an error
 * @out_filename: (out) (optional) (transfer none): its file
 * @out_line: (out) (optional): 1-based line
 * @out_column: (out) (optional): 1-based column
 * @out_end_line: (out) (optional): line of the end of the span
 * @out_end_column: (out) (optional): column just past the span
 *
 * Returns: %TRUE if @error is a Graft error with a place
 */
gboolean
graft_error_get_location (const GError *error,
                          const char  **out_filename,
                          guint        *out_line,
                          guint        *out_column,
                          guint        *out_end_line,
                          guint        *out_end_column)
{
  Place *place = place_of (error);

  if (place == NULL || place->filename == NULL)
    return FALSE;
  if (out_filename != NULL)
    *out_filename = place->filename;
  if (out_line != NULL)
    *out_line = place->line;
  if (out_column != NULL)
    *out_column = place->column;
  if (out_end_line != NULL)
    *out_end_line = place->end_line;
  if (out_end_column != NULL)
    *out_end_column = place->end_column;
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
  guint       line = 1, column = 1;

  g_return_val_if_fail (error != NULL, NULL);

  if (!graft_error_get_location (error, &filename, &line, &column, NULL, NULL))
    {
      filename = fallback_filename != NULL ? fallback_filename : "graft";
      line = column = 1;
    }
  return g_strdup_printf ("%s:%u:%u: error: %s", filename, line, column, error->message);
}
