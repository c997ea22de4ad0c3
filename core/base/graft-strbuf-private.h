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

G_END_DECLS
