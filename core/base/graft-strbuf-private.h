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

G_END_DECLS
