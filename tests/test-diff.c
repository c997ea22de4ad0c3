/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-diff.c: the line diff the editor's Changes window shows: every
 * line of both texts once, in each text's order, as few changed lines as
 * possible.
 */
#include "config.h"

#include "graft-view.h"

/* The diff as a string: `=` same, `-` removed, `+` added, per line. */
static char *
diff_string (const char *a,
             const char *b)
{
  g_auto (GStrv) before = g_strsplit (a, "\n", -1);
  g_auto (GStrv) after = g_strsplit (b, "\n", -1);
  g_autoptr (GArray) lines =
      graft_diff_lines ((const char *const *) before, (const char *const *) after);
  GString *out = g_string_new (NULL);
  gint     next_before = 0;
  gint     next_after = 0;

  for (guint i = 0; i < lines->len; i++)
    {
      GraftDiffLine *line = &g_array_index (lines, GraftDiffLine, i);

      if (line->before >= 0)
        g_assert_cmpint (line->before, ==, next_before++);
      if (line->after >= 0)
        g_assert_cmpint (line->after, ==, next_after++);
      g_string_append_c (out, line->kind == GRAFT_DIFF_SAME      ? '='
                              : line->kind == GRAFT_DIFF_REMOVED ? '-'
                                                                 : '+');
    }
  g_assert_cmpint (next_before, ==, (gint) g_strv_length (before));
  g_assert_cmpint (next_after, ==, (gint) g_strv_length (after));
  return g_string_free (out, FALSE);
}

static void
test_cases (void)
{
  static const struct
  {
    const char *a;
    const char *b;
    const char *diff;
  } cases[] = {
    { "a\nb\nc", "a\nb\nc", "===" },
    { "a\nb\nc", "a\nx\nc", "=+-=" },
    { "a\nc", "a\nb\nc", "=+=" },
    { "a\nb\nc", "a\nc", "=-=" },
    { "a\nb\nc\nd", "x\nb\ny\nd", "+-=+-=" },
    { "", "a", "+" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *diff = diff_string (cases[i].a, cases[i].b);

      g_assert_cmpstr (diff, ==, cases[i].diff);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/diff/cases", test_cases);
  return g_test_run ();
}
