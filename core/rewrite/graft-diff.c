/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-diff.c: the lines two texts share and those only one has, in
 * order: the longest common subsequence of their lines, after the common
 * head and tail are set aside.  What is left in the middle is compared
 * line by line when the table it needs stays under GRAFT_DIFF_CELLS
 * cells, and otherwise shown as removed then added (a rewrite changes a
 * few places; two unrelated 10,000-line texts are not worth 100 million
 * cells).
 */
#include "config.h"

#include "graft-diff.h"

#include <string.h>

#define GRAFT_DIFF_CELLS (16u * 1024u * 1024u)

static void
add (GArray       *out,
     GraftDiffKind kind,
     gint          before,
     gint          after)
{
  GraftDiffLine line = { kind, before, after };

  g_array_append_val (out, line);
}

/**
 * graft_diff_lines:
 * @before: (array zero-terminated=1): the first text's lines
 * @after: (array zero-terminated=1): the second text's lines
 *
 * Returns: (transfer full) (element-type GraftDiffLine): every line of both
 *   texts once, in an order that keeps each text's own order, shared lines
 *   paired
 */
GArray *
graft_diff_lines (const char *const *before,
                  const char *const *after)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (GraftDiffLine));
  guint   n = g_strv_length ((char **) before);
  guint   m = g_strv_length ((char **) after);
  guint   head = 0;
  guint   tail = 0;
  guint   rows;
  guint   cols;

  while (head < n && head < m && strcmp (before[head], after[head]) == 0)
    head++;
  while (tail < n - head && tail < m - head &&
         strcmp (before[n - 1 - tail], after[m - 1 - tail]) == 0)
    tail++;
  for (guint i = 0; i < head; i++)
    add (out, GRAFT_DIFF_SAME, (gint) i, (gint) i);

  rows = n - head - tail;
  cols = m - head - tail;
  if ((guint64) (rows + 1) * (cols + 1) <= GRAFT_DIFF_CELLS)
    {
      /* lcs[i][j]: the longest common subsequence of the middle parts
       * from line i and line j on. */
      g_autofree guint32 *lcs = g_new0 (guint32, (gsize) (rows + 1) * (cols + 1));
      guint               i = 0;
      guint               j = 0;

#define LCS(i, j) lcs[(gsize) (i) * (cols + 1) + (j)]
      for (guint a = rows; a-- > 0;)
        for (guint b = cols; b-- > 0;)
          LCS (a, b) = strcmp (before[head + a], after[head + b]) == 0
                           ? LCS (a + 1, b + 1) + 1
                           : MAX (LCS (a + 1, b), LCS (a, b + 1));
      while (i < rows || j < cols)
        {
          if (i < rows && j < cols && strcmp (before[head + i], after[head + j]) == 0)
            {
              add (out, GRAFT_DIFF_SAME, (gint) (head + i), (gint) (head + j));
              i++;
              j++;
            }
          else if (j < cols && (i == rows || LCS (i, j + 1) >= LCS (i + 1, j)))
            {
              add (out, GRAFT_DIFF_ADDED, -1, (gint) (head + j));
              j++;
            }
          else
            {
              add (out, GRAFT_DIFF_REMOVED, (gint) (head + i), -1);
              i++;
            }
        }
#undef LCS
    }
  else
    {
      for (guint i = 0; i < rows; i++)
        add (out, GRAFT_DIFF_REMOVED, (gint) (head + i), -1);
      for (guint j = 0; j < cols; j++)
        add (out, GRAFT_DIFF_ADDED, -1, (gint) (head + j));
    }

  for (guint i = 0; i < tail; i++)
    add (out, GRAFT_DIFF_SAME, (gint) (n - tail + i), (gint) (m - tail + i));
  return out;
}
