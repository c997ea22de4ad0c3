/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-source.c: an input text (always NUL-terminated, possibly containing
 * NUL bytes of its own) with the name it is reported under.  Everything that
 * parses keeps byte offsets into a source; this file alone turns an offset
 * into a 1-based line and column, where a column counts Unicode characters
 * (a byte that is not valid UTF-8 counts as one).
 */
#include "config.h"

#include "graft-source.h"

#include <string.h>

struct _GraftSource
{
  gatomicrefcount ref_count;

  /* Owned */
  char   *filename;
  char   *text;
  gsize   length;
  GArray *line_starts; /* guint32 offsets; built on first locate */
};

/**
 * graft_source_new:
 * @filename: the name used in diagnostics (`-` or `<stdin>` for standard input)
 * @text: the text
 * @length: its length in bytes, or -1 if NUL-terminated
 *
 * Returns: (transfer full): a new source holding a copy of @text
 */
GraftSource *
graft_source_new (const char *filename,
                  const char *text,
                  gssize      length)
{
  GraftSource *self;

  g_return_val_if_fail (filename != NULL, NULL);
  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (length < 0)
    length = strlen (text);

  self = g_new0 (GraftSource, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->filename = g_strdup (filename);
  self->text = g_malloc (length + 1);
  if (length > 0)
    memcpy (self->text, text, length);
  self->text[length] = '\0';
  self->length = length;
  return self;
}

/**
 * graft_source_new_take:
 * @filename: the name errors give
 * @text: (transfer full): @length bytes followed by a NUL byte
 * @length: the length of @text
 *
 * A source that takes @text instead of copying it (graft_input_read_file()
 * hands over what it read).
 *
 * Returns: (transfer full): the source
 */
GraftSource *
graft_source_new_take (const char *filename,
                       char       *text,
                       gsize       length)
{
  GraftSource *self = g_new0 (GraftSource, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->filename = g_strdup (filename);
  self->text = text;
  self->length = length;
  return self;
}

GraftSource *
graft_source_ref (GraftSource *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
graft_source_unref (GraftSource *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_free (self->filename);
  g_free (self->text);
  if (self->line_starts != NULL)
    g_array_unref (self->line_starts);
  g_free (self);
}

const char *
graft_source_get_filename (GraftSource *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->filename;
}

/**
 * graft_source_get_text:
 *
 * Returns: (transfer none): the text, NUL-terminated after
 *   graft_source_get_length() bytes
 */
const char *
graft_source_get_text (GraftSource *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->text;
}

gsize
graft_source_get_length (GraftSource *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->length;
}

static void
build_line_table (GraftSource *self)
{
  guint32 zero = 0;

  self->line_starts = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_append_val (self->line_starts, zero);
  for (gsize i = 0; i < self->length; i++)
    {
      /* \r\n, \r and \n all end a line, as Python's tokenizer says. */
      if (self->text[i] == '\r' && i + 1 < self->length && self->text[i + 1] == '\n')
        i++;
      if (self->text[i] == '\n' || self->text[i] == '\r')
        {
          guint32 start = (guint32) (i + 1);
          g_array_append_val (self->line_starts, start);
        }
    }
}

/**
 * graft_source_locate:
 * @offset: a byte offset into the text (clamped to its length)
 * @out_line: (out): the 1-based line
 * @out_column: (out): the 1-based column, in characters
 *
 * Turns a byte offset into the line and column reported to users.
 */
void
graft_source_locate (GraftSource *self,
                     gsize        offset,
                     guint       *out_line,
                     guint       *out_column)
{
  guint lo, hi;
  gsize start;
  guint column = 1;

  g_return_if_fail (self != NULL);

  if (self->line_starts == NULL)
    build_line_table (self);
  if (offset > self->length)
    offset = self->length;

  /* Binary search for the last line start <= offset. */
  lo = 0;
  hi = self->line_starts->len;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (self->line_starts, guint32, mid) <= offset)
        lo = mid;
      else
        hi = mid;
    }
  start = g_array_index (self->line_starts, guint32, lo);

  /* A column counts characters: every byte that does not continue a UTF-8
   * sequence starts one (so a stray byte counts as one character too). */
  for (gsize i = start; i < offset; i++)
    if (((guchar) self->text[i] & 0xC0) != 0x80)
      column++;

  if (out_line != NULL)
    *out_line = lo + 1;
  if (out_column != NULL)
    *out_column = column;
}
