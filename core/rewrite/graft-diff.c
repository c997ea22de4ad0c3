/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-diff.c: the lines two texts share and those only one has, in
 * order: a longest common subsequence of their lines, so a shortest edit
 * script, at any size.
 *
 * The common head and tail are set aside first (a rewrite usually leaves
 * both long).  The lines in between are interned to integers, so that
 * comparing two lines is comparing two numbers, and the lines that occur
 * in only one of the texts are marked changed right away: no common
 * subsequence can hold them, so leaving them out changes neither the
 * shortest script's length nor the lines it keeps, and a rewrite's
 * renamed lines stop costing anything.  What remains goes through Myers'
 * O(ND) algorithm ("An O(ND) Difference Algorithm and Its Variations",
 * 1986) in its linear-space form: search from both ends at once for the
 * middle snake of a shortest path through the edit graph, then solve the
 * two halves on either side of it the same way.  Memory is O(N + M);
 * time is O((N + M) D) for D changed lines, far less when the changes are
 * few or spread out.
 */
#include "config.h"

#include "graft-diff.h"

#include <string.h>

/* The problem as the search sees it: two sequences of line numbers, a
 * mark per line for the lines the script changes, and the two arrays of
 * furthest reaches, indexed by diagonal (x - y, offset so that every
 * diagonal of the whole problem has a slot). */
typedef struct
{
  const guint32 *a;
  const guint32 *b;
  guint8        *a_changed;
  guint8        *b_changed;
  gint          *forward;  /* furthest x reached from the top left, per diagonal */
  gint          *backward; /* smallest x reached from the bottom right, per diagonal */
} Search;

/* Finds a point on a shortest path from (a0, b0) to (a1, b1) about
 * halfway along it, the end of the middle snake, in *x and *y.  Both
 * ranges are non-empty and differ in their first and last lines, so the
 * point is neither corner and splitting there makes both halves smaller.
 *
 * The forward search walks from the top left, the backward one from the
 * bottom right, one edit at a time each.  After d edits, forward[k] is
 * the furthest x a path of d edits (of d's parity) reaches on diagonal k
 * and backward[k] the smallest x a backward path of d edits reaches.  The
 * diagonals a search has reached lie in [lo, hi], which grows by one on
 * each side per edit until it meets the edge of the box; the slot just
 * outside holds a value that loses every comparison, so the edges need
 * no case of their own.  The searches meet on the first diagonal where
 * the forward reach passes the backward one: with delta = (a1 - a0) -
 * (b1 - b0) odd, that happens in a forward step, otherwise in a
 * backward one. */
static void
middle_snake (Search *s,
              gint    a0,
              gint    a1,
              gint    b0,
              gint    b1,
              gint   *x_out,
              gint   *y_out)
{
  const guint32 *a = s->a;
  const guint32 *b = s->b;
  gint          *fw = s->forward;
  gint          *bw = s->backward;
  const gint     kmin = a0 - b1; /* the box's diagonals */
  const gint     kmax = a1 - b0;
  const gint     fmid = a0 - b0; /* where each search starts */
  const gint     bmid = a1 - b1;
  const gboolean odd = ((fmid - bmid) & 1) != 0;
  gint           flo = fmid, fhi = fmid;
  gint           blo = bmid, bhi = bmid;

  fw[fmid] = a0;
  bw[bmid] = a1;
  for (;;)
    {
      /* One more edit forward. */
      if (flo > kmin)
        fw[--flo - 1] = G_MININT / 2;
      else
        flo++;
      if (fhi < kmax)
        fw[++fhi + 1] = G_MININT / 2;
      else
        fhi--;
      for (gint k = fhi; k >= flo; k -= 2)
        {
          /* Right from diagonal k - 1 (one line of a removed) or down
           * from k + 1 (one line of b added), whichever gets further. */
          gint x = MAX (fw[k - 1] + 1, fw[k + 1]);
          gint y = x - k;

          while (x < a1 && y < b1 && a[x] == b[y])
            x++, y++;
          fw[k] = x;
          if (odd && blo <= k && k <= bhi && bw[k] <= x)
            {
              *x_out = x;
              *y_out = y;
              return;
            }
        }

      /* One more edit backward. */
      if (blo > kmin)
        bw[--blo - 1] = G_MAXINT / 2;
      else
        blo++;
      if (bhi < kmax)
        bw[++bhi + 1] = G_MAXINT / 2;
      else
        bhi--;
      for (gint k = bhi; k >= blo; k -= 2)
        {
          /* Left from diagonal k + 1 or up from k - 1. */
          gint x = MIN (bw[k - 1], bw[k + 1] - 1);
          gint y = x - k;

          while (x > a0 && y > b0 && a[x - 1] == b[y - 1])
            x--, y--;
          bw[k] = x;
          if (!odd && flo <= k && k <= fhi && x <= fw[k])
            {
              *x_out = x;
              *y_out = y;
              return;
            }
        }
    }
}

/* Marks the lines of a[a0, a1) and b[b0, b1) that a shortest edit script
 * between them removes or adds. */
static void
compare (Search *s,
         gint    a0,
         gint    a1,
         gint    b0,
         gint    b1)
{
  for (;;)
    {
      gint x, y;

      while (a0 < a1 && b0 < b1 && s->a[a0] == s->b[b0])
        a0++, b0++;
      while (a0 < a1 && b0 < b1 && s->a[a1 - 1] == s->b[b1 - 1])
        a1--, b1--;
      if (a0 == a1 || b0 == b1)
        {
          memset (s->a_changed + a0, 1, a1 - a0);
          memset (s->b_changed + b0, 1, b1 - b0);
          return;
        }
      middle_snake (s, a0, a1, b0, b1, &x, &y);
      g_assert (a0 <= x && x <= a1 && b0 <= y && y <= b1);
      g_assert ((x > a0 || y > b0) && (x < a1 || y < b1));
      /* The smaller half by recursion, the larger by the loop: the stack
       * stays logarithmic whatever the split. */
      if ((x - a0) + (y - b0) < (a1 - x) + (b1 - y))
        {
          compare (s, a0, x, b0, y);
          a0 = x, b0 = y;
        }
      else
        {
          compare (s, x, a1, y, b1);
          a1 = x, b1 = y;
        }
    }
}

static void
add (GArray       *out,
     GraftDiffKind kind,
     gint          before,
     gint          after)
{
  GraftDiffLine line = { kind, before, after };

  g_array_append_val (out, line);
}

/* Marks the lines of before[head, head + rows) and after[head, head +
 * cols) that a shortest script changes, in changed_a and changed_b
 * (indexed from head). */
static void
mark_middle (const char *const *before,
             const char *const *after,
             guint              head,
             guint              rows,
             guint              cols,
             guint8            *changed_a,
             guint8            *changed_b)
{
  /* Line texts to numbers, with how often each occurs on each side. */
  g_autoptr (GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GArray) in_a = g_array_new (FALSE, TRUE, sizeof (guint32));
  g_autoptr (GArray) in_b = g_array_new (FALSE, TRUE, sizeof (guint32));
  g_autofree guint32 *id_a = g_new (guint32, rows);
  g_autofree guint32 *id_b = g_new (guint32, cols);
  g_autofree guint32 *a = g_new (guint32, rows); /* the lines both sides have */
  g_autofree guint32 *b = g_new (guint32, cols);
  g_autofree guint32 *at_a = g_new (guint32, rows); /* where each came from */
  g_autofree guint32 *at_b = g_new (guint32, cols);
  guint               na = 0;
  guint               nb = 0;

  for (guint side = 0; side < 2; side++)
    {
      const char *const *lines = side == 0 ? before : after;
      guint              n = side == 0 ? rows : cols;
      guint32           *id = side == 0 ? id_a : id_b;

      for (guint i = 0; i < n; i++)
        {
          gpointer value;
          guint32  v;

          if (g_hash_table_lookup_extended (ids, lines[head + i], NULL, &value))
            v = GPOINTER_TO_UINT (value);
          else
            {
              v = g_hash_table_size (ids);
              g_hash_table_insert (ids, (gpointer) lines[head + i], GUINT_TO_POINTER (v));
              g_array_set_size (in_a, v + 1);
              g_array_set_size (in_b, v + 1);
            }
          id[i] = v;
          g_array_index (side == 0 ? in_a : in_b, guint32, v)++;
        }
    }

  for (guint i = 0; i < rows; i++)
    if (g_array_index (in_b, guint32, id_a[i]) == 0)
      changed_a[i] = 1;
    else
      {
        a[na] = id_a[i];
        at_a[na++] = i;
      }
  for (guint j = 0; j < cols; j++)
    if (g_array_index (in_a, guint32, id_b[j]) == 0)
      changed_b[j] = 1;
    else
      {
        b[nb] = id_b[j];
        at_b[nb++] = j;
      }

  if (na > 0 || nb > 0)
    {
      /* Diagonals run from -nb to na; one slot more on each side for the
       * values that lose. */
      g_autofree gint   *forward = g_new (gint, (gsize) na + nb + 3);
      g_autofree gint   *backward = g_new (gint, (gsize) na + nb + 3);
      g_autofree guint8 *ca = g_new0 (guint8, na + 1);
      g_autofree guint8 *cb = g_new0 (guint8, nb + 1);
      Search             s = { a, b, ca, cb, forward + nb + 1, backward + nb + 1 };

      compare (&s, 0, (gint) na, 0, (gint) nb);
      for (guint i = 0; i < na; i++)
        changed_a[at_a[i]] |= ca[i];
      for (guint j = 0; j < nb; j++)
        changed_b[at_b[j]] |= cb[j];
    }
}

/**
 * graft_diff_lines:
 * @before: (array zero-terminated=1): the first text's lines
 * @after: (array zero-terminated=1): the second text's lines
 *
 * Compares two texts line by line.  The result is a shortest edit
 * script: as many lines as possible are paired as the same (a longest
 * common subsequence), whatever the texts' size.  Within each run of
 * changes the removed lines come before the added ones.
 *
 * Returns: (transfer full) (element-type GraftDiffLine): every line of both
 *   texts once, in an order that keeps each text's own order, shared lines
 *   paired
 */
GArray *
graft_diff_lines (const char *const *before,
                  const char *const *after)
{
  guint              n = g_strv_length ((char **) before);
  guint              m = g_strv_length ((char **) after);
  GArray            *out = g_array_sized_new (FALSE, FALSE, sizeof (GraftDiffLine), MAX (n, m));
  guint              head = 0;
  guint              tail = 0;
  guint              rows;
  guint              cols;
  g_autofree guint8 *changed_a = NULL;
  g_autofree guint8 *changed_b = NULL;
  guint              i = 0;
  guint              j = 0;

  g_return_val_if_fail (n < G_MAXINT / 4 && m < G_MAXINT / 4, out);

  while (head < n && head < m && strcmp (before[head], after[head]) == 0)
    head++;
  while (tail < n - head && tail < m - head &&
         strcmp (before[n - 1 - tail], after[m - 1 - tail]) == 0)
    tail++;
  rows = n - head - tail;
  cols = m - head - tail;
  changed_a = g_new0 (guint8, rows + 1);
  changed_b = g_new0 (guint8, cols + 1);
  if (rows > 0 && cols > 0)
    mark_middle (before, after, head, rows, cols, changed_a, changed_b);
  else
    {
      memset (changed_a, 1, rows);
      memset (changed_b, 1, cols);
    }

  for (guint k = 0; k < head; k++)
    add (out, GRAFT_DIFF_SAME, (gint) k, (gint) k);
  while (i < rows || j < cols)
    {
      if (i < rows && changed_a[i])
        add (out, GRAFT_DIFF_REMOVED, (gint) (head + i++), -1);
      else if (j < cols && changed_b[j])
        add (out, GRAFT_DIFF_ADDED, -1, (gint) (head + j++));
      else
        {
          g_assert (i < rows && j < cols);
          add (out, GRAFT_DIFF_SAME, (gint) (head + i++), (gint) (head + j++));
        }
    }
  for (guint k = 0; k < tail; k++)
    add (out, GRAFT_DIFF_SAME, (gint) (n - tail + k), (gint) (m - tail + k));
  return out;
}
