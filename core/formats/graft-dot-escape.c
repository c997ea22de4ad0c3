/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-dot-escape.c: the escaped text of Graft's DOT, written and read.
 *
 * Strings in values and the text of `graft_target` and `graft_type` escape
 * `\` as `\\`, line breaks, tabs and other control characters (`\n`, `\r`,
 * `\t`, `\xHH`), characters that do not print as `\uXXXX` or `\UXXXXXXXX`,
 * and each byte that is not UTF-8 as `\udcHH` (Python's surrogateescape);
 * a string also escapes its quote.  Other characters, non-ASCII included,
 * are written as they are (DOT is UTF-8).  This matters because a DOT
 * string cannot hold every text: cgraph keeps `\\` as two backslashes, and
 * an odd run of backslashes before a quote, a line break or the end of a
 * string cannot be written at all.  Escaped text never holds such a run,
 * so DOT quoting only has to turn `"` into `\"`.
 */
#include "config.h"

#include "graft-dot-escape-private.h"
#include "graft-strbuf-private.h"

/* ------------------------------------------------------------------ */
/* Escaped text                                                        */
/* ------------------------------------------------------------------ */

/* Appends @len bytes of @s escaped as the file comment says; @quote (a
 * string's quote, or 0 for the text of an attribute) is escaped too. */
void
_graft_dot_append_escaped (GString    *out,
                           const char *s,
                           gsize       len,
                           char        quote)
{
  const char *end = s + len;

  for (const char *p = s; p < end;)
    {
      guchar   b = (guchar) *p;
      gunichar c;
      gsize    step;

      if (b < 0x80)
        {
          if (b == '\\')
            _graft_buf_append (out, "\\\\");
          else if (b == '\n')
            _graft_buf_append (out, "\\n");
          else if (b == '\r')
            _graft_buf_append (out, "\\r");
          else if (b == '\t')
            _graft_buf_append (out, "\\t");
          else if (quote != 0 && b == (guchar) quote)
            {
              g_string_append_c (out, '\\');
              g_string_append_c (out, quote);
            }
          else if (b < 0x20 || b == 0x7f)
            g_string_append_printf (out, "\\x%02x", b);
          else
            g_string_append_c (out, (char) b);
          p++;
          continue;
        }
      c = g_utf8_get_char_validated (p, end - p);
      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\udc%02x", b);
          p++;
          continue;
        }
      step = g_utf8_next_char (p) - p;
      if (g_unichar_isprint (c))
        _graft_buf_append_len (out, p, step);
      else if (c <= 0xffff)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_printf (out, "\\U%08x", c);
      p += step;
    }
}

static gboolean
read_hex (const char *p,
          const char *end,
          guint       n_digits,
          gunichar   *out)
{
  gunichar value = 0;

  if ((gsize) (end - p) < n_digits)
    return FALSE;
  for (guint i = 0; i < n_digits; i++)
    {
      if (!g_ascii_isxdigit (p[i]))
        return FALSE;
      value = value * 16 + (gunichar) g_ascii_xdigit_value (p[i]);
    }
  *out = value;
  return TRUE;
}

/* Reads escaped text from @p up to @quote (or to @end when @quote is 0)
 * into @buf.  On success *@out_end is past the closing quote; on failure
 * it is where the problem is and *@out_message says what it is. */
gboolean
_graft_dot_read_escaped (const char  *p,
                         const char  *end,
                         char         quote,
                         GString     *buf,
                         const char **out_end,
                         const char **out_message)
{
  while (p < end)
    {
      const char *esc = p;
      gunichar    c;
      guint       n_digits;

      if (quote != 0 && *p == quote)
        {
          *out_end = p + 1;
          return TRUE;
        }
      if (*p != '\\')
        {
          g_string_append_c (buf, *p++);
          continue;
        }
      p++;
      if (p >= end)
        {
          *out_end = esc;
          *out_message = "a backslash ends the text";
          return FALSE;
        }
      switch (*p)
        {
        case '\\':
        case '\'':
        case '"':
          g_string_append_c (buf, *p);
          p++;
          continue;
        case 'n':
          g_string_append_c (buf, '\n');
          p++;
          continue;
        case 'r':
          g_string_append_c (buf, '\r');
          p++;
          continue;
        case 't':
          g_string_append_c (buf, '\t');
          p++;
          continue;
        case 'x':
          n_digits = 2;
          break;
        case 'u':
          n_digits = 4;
          break;
        case 'U':
          n_digits = 8;
          break;
        default:
          *out_end = esc;
          *out_message = "unknown escape";
          return FALSE;
        }
      p++;
      if (!read_hex (p, end, n_digits, &c))
        {
          *out_end = esc;
          *out_message = "truncated escape";
          return FALSE;
        }
      p += n_digits;
      if (c >= 0xdc80 && c <= 0xdcff)
        g_string_append_c (buf, (char) (c - 0xdc00)); /* a raw byte */
      else if ((c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
        {
          *out_end = esc;
          *out_message = "escape of an invalid character";
          return FALSE;
        }
      else
        g_string_append_unichar (buf, c);
    }
  if (quote != 0)
    {
      *out_end = end;
      *out_message = "unterminated string";
      return FALSE;
    }
  *out_end = end;
  return TRUE;
}
