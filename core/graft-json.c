/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-json.c: JSON strings.  Callers write objects and arrays themselves,
 * keys in the order they choose, so output never depends on hash order.
 */
#include "config.h"

#include "graft-json.h"

#include <string.h>

/**
 * graft_json_append_string:
 * @out: where to append
 * @s: UTF-8 text (may hold NUL bytes when @len is given)
 * @len: its length, or -1 if NUL-terminated
 *
 * Appends @s as a JSON string: quotes, backslashes and control characters
 * escaped; other characters, including non-ASCII ones, as they are.  Bytes
 * that are not UTF-8 become U+FFFD, so the output is always valid JSON.
 */
void
graft_json_append_string (GString    *out,
                          const char *s,
                          gssize      len)
{
  const char *end;

  if (len < 0)
    len = strlen (s);
  end = s + len;
  g_string_append_c (out, '"');
  for (const char *p = s; p < end;)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append (out, "\xEF\xBF\xBD");
          p++;
          continue;
        }
      switch (c)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_len (out, p, g_utf8_next_char (p) - p);
          break;
        }
      p = g_utf8_next_char (p);
    }
  g_string_append_c (out, '"');
}
