/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-strbuf-private.h: appending to a GString without a function call
 * when the text fits.  GLib 2.74's g_string_append goes through
 * g_string_insert_len every time, which was a tenth of printing code.
 */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

static inline void
_graft_buf_append_len (GString    *buf,
                       const char *text,
                       gsize       len)
{
  if (G_LIKELY (buf->len + len < buf->allocated_len))
    {
      memcpy (buf->str + buf->len, text, len);
      buf->len += len;
      buf->str[buf->len] = '\0';
    }
  else
    g_string_append_len (buf, text, (gssize) len);
}

static inline void
_graft_buf_append (GString    *buf,
                   const char *text)
{
  _graft_buf_append_len (buf, text, strlen (text));
}

/* A GString with room for exactly @size bytes, its NUL among them.  GLib
 * 2.74 rounds a reserve up to a power of two: a megabyte for 600 KB, and
 * the heap's next block (and the header malloc writes at the end of this
 * one) that much further up, often on a page touched for nothing else. */
static inline GString *
_graft_buf_new_exact (gsize size)
{
  GString *buf = g_string_sized_new (0);

  if (size > buf->allocated_len)
    {
      g_free (buf->str);
      buf->str = g_malloc (size);
      buf->str[0] = '\0';
      buf->allocated_len = size;
    }
  return buf;
}

/* The least a large buffer grows by (_graft_buf_grow()). */
#define GRAFT_BUF_STEP (64u << 10)

/* Room in @buf for @n more bytes after its length, and its NUL.  A buffer
 * of GRAFT_BUF_STEP bytes or more grows by a sixteenth (at least
 * GRAFT_BUF_STEP) rather than GString's doubling: the last block on the
 * heap, as a large output being written is, grows in place (realloc()
 * takes the room from the free top, with no copy), and its room never ends
 * far past what it holds.  A block that had to move (something sits after
 * it: the editor writes code in steps between other work) was copied
 * anyway, and is then given twice its room, as GString would, so that
 * moves stay as rare as GString's. */
static inline void
_graft_buf_grow (GString *buf,
                 gsize    n)
{
  gsize    need = buf->len + n + 1;
  gsize    size;
  guintptr was;

  if (need <= buf->allocated_len)
    return;
  if (buf->allocated_len < GRAFT_BUF_STEP || need < buf->len)
    {
      gsize len = buf->len;

      g_string_set_size (buf, len + n);
      buf->len = len;
      buf->str[len] = '\0';
      return;
    }
  size = MAX (buf->allocated_len + MAX (buf->allocated_len / 16, GRAFT_BUF_STEP), need);
  was = (guintptr) buf->str;
  buf->str = g_realloc (buf->str, size);
  if ((guintptr) buf->str != was && size < 2 * buf->allocated_len)
    {
      /* Now likely the heap's last block: this grows in place. */
      size = 2 * buf->allocated_len;
      buf->str = g_realloc (buf->str, size);
    }
  buf->allocated_len = size;
}

/* The decimal digits of @i (`str(i)`), written backwards so that they end
 * at @end, which has at least 20 bytes before it; returns where they
 * start.  By hand: printf costs more than the rest of printing a node. */
static inline char *
_graft_int_digits (char  *end,
                   gint64 i)
{
  guint64 u = i < 0 ? (guint64) 0 - (guint64) i : (guint64) i;

  do
    {
      *--end = (char) ('0' + u % 10);
      u /= 10;
    }
  while (u != 0);
  if (i < 0)
    *--end = '-';
  return end;
}

/* A text written by steps (the text exports' jobs) is kept in pieces of
 * at least this many bytes: one GString grown by doubling copied all it
 * held at each growth (glibc's realloc() copies below its mmap threshold,
 * or when the block cannot grow where it is), at a million nodes 8 to 16
 * MB in one of the editor's turns. */
#define GRAFT_TEXT_PIECE (1u << 20)

/* Called at the start of a job's step: when *@out holds a piece's worth,
 * its text becomes the last of *@pieces (a #GBytes, not copied) and *@out
 * a new, empty GString with the room the last one had.  A job written in
 * one step (the CLI's) never cuts: its text stays one GString. */
static inline void
_graft_text_cut (GPtrArray **pieces,
                 GString   **out)
{
  gsize room;

  if (G_LIKELY ((*out)->len < GRAFT_TEXT_PIECE))
    return;
  if (*pieces == NULL)
    *pieces = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  room = (*out)->allocated_len;
  g_ptr_array_add (*pieces, g_string_free_to_bytes (*out));
  *out = _graft_buf_new_exact (room);
}

/* The pieces of a job's text, *@out's text the last of them; *@pieces
 * and *@out are NULL after. */
static inline GPtrArray *
_graft_text_take_pieces (GPtrArray **pieces,
                         GString   **out)
{
  GPtrArray *all = g_steal_pointer (pieces);

  if (all == NULL)
    all = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_ptr_array_add (all, g_string_free_to_bytes (g_steal_pointer (out)));
  return all;
}

/* A job finished at once after steps that cut its text: the pieces and
 * *@out joined again in *@out (one copy, as the growth of one string had
 * done). */
static inline void
_graft_text_rejoin (GPtrArray **pieces,
                    GString   **out)
{
  GString *whole;
  gsize    len = (*out)->len;

  if (*pieces == NULL)
    return;
  for (guint i = 0; i < (*pieces)->len; i++)
    len += g_bytes_get_size ((*pieces)->pdata[i]);
  whole = _graft_buf_new_exact (len + 1);
  for (guint i = 0; i < (*pieces)->len; i++)
    {
      gsize       n;
      const char *data = g_bytes_get_data ((*pieces)->pdata[i], &n);

      g_string_append_len (whole, data, (gssize) n);
    }
  g_string_append_len (whole, (*out)->str, (gssize) (*out)->len);
  g_clear_pointer (pieces, g_ptr_array_unref);
  g_string_free (*out, TRUE);
  *out = whole;
}

G_END_DECLS
