/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-type-text.c: reading the kept text of a type annotation
 * (graft-type-text-private.h) and writing its listing form.
 */
#include "config.h"

#include "graft-type-text-private.h"

#include <string.h>

/* Steps over a quoted string at @p (which holds its opening quote). */
static const char *
skip_quoted (const char *p)
{
  char quote = *p++;

  for (; *p != '\0' && *p != quote; p++)
    if (*p == '\\' && p[1] != '\0')
      p++;
  return *p == quote ? p + 1 : p;
}

/* The first place at the depth of @p (outside brackets and quotes) where
 * a `,` or an unmatched closing bracket stands, or with @bars a ` | `;
 * the end of the text if none. */
static const char *
scan_top_level (const char *p,
                gboolean    bars)
{
  int depth = 0;

  while (*p != '\0')
    {
      if (*p == '\'' || *p == '"')
        {
          p = skip_quoted (p);
          continue;
        }
      if (*p == '[' || *p == '(')
        depth++;
      else if (*p == ']' || *p == ')')
        {
          if (depth == 0)
            return p;
          depth--;
        }
      else if (depth == 0 && (*p == ',' || (bars && strncmp (p, " | ", 3) == 0)))
        return p;
      p++;
    }
  return p;
}

/**
 * _graft_type_text_arg_end:
 * @p: the start of one argument of a generic alias's text
 *
 * Returns: where the argument ends: at the `,` or the closing bracket that
 *   follows it at its own depth, or at the end of the text
 */
const char *
_graft_type_text_arg_end (const char *p)
{
  return scan_top_level (p, FALSE);
}

/**
 * _graft_type_text_closes_at:
 * @open: a `[` in a type's text
 * @end: the end of the text (or of the part of it being read)
 *
 * Whether @open is a subscript over all the rest: the bracket it opens
 * closes at `end - 1` and not before, quotes skipped.  A text a reader
 * took as it was (`typing.List[int] [x[str]`, `typing.List[int] + a[b]`,
 * `typing.List[int]]`) is no generic alias: reading its arguments between
 * @open and the last `]` would stop at a bracket that closes earlier and
 * step no further.
 *
 * Returns: %TRUE when the text from @open to @end is `[...]` with the
 *   brackets inside balanced
 */
gboolean
_graft_type_text_closes_at (const char *open,
                            const char *end)
{
  const char *close;

  if (end - open < 2 || *open != '[' || end[-1] != ']')
    return FALSE;
  close = scan_top_level (open + 1, FALSE);
  while (close < end && *close == ',')
    close = scan_top_level (close + 1, FALSE);
  return close == end - 1;
}

/**
 * _graft_type_text_is_alternatives:
 * @text: a type's text
 *
 * Returns: whether @text is alternatives joined by ` | ` (`int | None`,
 *   PEP 604), outside brackets and quotes
 */
gboolean
_graft_type_text_is_alternatives (const char *text)
{
  for (const char *p = scan_top_level (text, TRUE); *p != '\0'; p = scan_top_level (p + 1, TRUE))
    if (*p == ' ')
      return TRUE;
  return FALSE;
}

static void
append_listing (GString    *out,
                const char *p,
                const char *end)
{
  const char *open = NULL;
  GPtrArray  *args;

  for (const char *q = p; q < end && open == NULL; q++)
    if (*q == '[')
      open = q;
    else if (*q == '\'' || *q == '"' || *q == '(' || *q == ' ')
      break;
  if (open == NULL || !_graft_type_text_closes_at (open, end))
    {
      g_string_append_len (out, p, end - p);
      return;
    }
  args = g_ptr_array_new ();
  for (const char *q = open + 1; q < end - 1;)
    {
      const char *arg_end = _graft_type_text_arg_end (q);

      g_ptr_array_add (args, (gpointer) q);
      g_ptr_array_add (args, (gpointer) arg_end);
      q = arg_end;
      if (*q == ',')
        q++;
      while (*q == ' ')
        q++;
    }
  if (open - p == strlen ("typing.Union") && strncmp (p, "typing.Union", open - p) == 0 &&
      args->len == 4)
    {
      for (guint i = 0; i < 2; i++)
        {
          const char *a = args->pdata[2 * i];
          const char *a_end = args->pdata[2 * i + 1];

          if (a_end - a == strlen ("NoneType") && strncmp (a, "NoneType", a_end - a) == 0)
            {
              g_string_append (out, "typing.Optional[");
              append_listing (out, args->pdata[2 * (1 - i)], args->pdata[2 * (1 - i) + 1]);
              g_string_append_c (out, ']');
              g_ptr_array_unref (args);
              return;
            }
        }
    }
  g_string_append_len (out, p, open + 1 - p);
  if (args->len == 0)
    g_string_append_len (out, open + 1, end - 1 - (open + 1));
  for (guint i = 0; i < args->len; i += 2)
    {
      if (i > 0)
        g_string_append (out, ", ");
      append_listing (out, args->pdata[i], args->pdata[i + 1]);
    }
  g_string_append_c (out, ']');
  g_ptr_array_unref (args);
}

/**
 * _graft_type_text_append_listing:
 * @out: where to write
 * @text: a type's kept text
 *
 * Appends the type as the listing prints it.
 */
void
_graft_type_text_append_listing (GString    *out,
                                 const char *text)
{
  if (strstr (text, "typing.Union[") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  append_listing (out, text, text + strlen (text));
}
