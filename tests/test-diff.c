/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-diff.c: the line diff the editor's Changes window shows: every
 * line of both texts once, in each text's order, as few changed lines as
 * possible.  Small cases by hand; random texts checked against a plain
 * O(N M) longest common subsequence written here (the script must keep
 * exactly as many lines); the code before and after every rewrite of the
 * rewrite-torchvision suite; and a text too large for a table.
 */
#include "config.h"

#include "graft-view.h"

#include <string.h>

/* Checks that @lines is an edit script from @before to @after: each
 * text's lines once and in order, kept lines equal, and the script
 * applied to @before gives @after.  Returns how many lines it keeps. */
static guint
check_script (GArray            *lines,
              const char *const *before,
              const char *const *after)
{
  g_autoptr (GPtrArray) applied = g_ptr_array_new ();
  gint  next_before = 0;
  gint  next_after = 0;
  guint kept = 0;

  for (guint i = 0; i < lines->len; i++)
    {
      GraftDiffLine *line = &g_array_index (lines, GraftDiffLine, i);

      switch (line->kind)
        {
        case GRAFT_DIFF_SAME:
          g_assert_cmpint (line->before, ==, next_before++);
          g_assert_cmpint (line->after, ==, next_after++);
          g_assert_cmpstr (before[line->before], ==, after[line->after]);
          g_ptr_array_add (applied, (gpointer) before[line->before]);
          kept++;
          break;
        case GRAFT_DIFF_REMOVED:
          g_assert_cmpint (line->before, ==, next_before++);
          g_assert_cmpint (line->after, ==, -1);
          break;
        case GRAFT_DIFF_ADDED:
          g_assert_cmpint (line->before, ==, -1);
          g_assert_cmpint (line->after, ==, next_after++);
          g_ptr_array_add (applied, (gpointer) after[line->after]);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  g_assert_cmpint (next_before, ==, (gint) g_strv_length ((char **) before));
  g_assert_cmpint (next_after, ==, (gint) g_strv_length ((char **) after));
  g_assert_cmpuint (applied->len, ==, g_strv_length ((char **) after));
  for (guint i = 0; i < applied->len; i++)
    g_assert_cmpstr (applied->pdata[i], ==, after[i]);
  return kept;
}

/* The length of a longest common subsequence, by the textbook table. */
static guint
lcs_length (const char *const *a,
            const char *const *b)
{
  guint               n = g_strv_length ((char **) a);
  guint               m = g_strv_length ((char **) b);
  g_autofree guint32 *row = g_new0 (guint32, m + 1);
  g_autofree guint32 *prev = g_new0 (guint32, m + 1);

  for (guint i = 1; i <= n; i++)
    {
      for (guint j = 1; j <= m; j++)
        row[j] = strcmp (a[i - 1], b[j - 1]) == 0 ? prev[j - 1] + 1 : MAX (prev[j], row[j - 1]);
      memcpy (prev, row, (m + 1) * sizeof (guint32));
    }
  return prev[m];
}

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

  check_script (lines, (const char *const *) before, (const char *const *) after);
  for (guint i = 0; i < lines->len; i++)
    {
      GraftDiffLine *line = &g_array_index (lines, GraftDiffLine, i);

      g_string_append_c (out, line->kind == GRAFT_DIFF_SAME      ? '='
                              : line->kind == GRAFT_DIFF_REMOVED ? '-'
                                                                 : '+');
    }
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
    { "a\nb\nc", "a\nx\nc", "=-+=" },
    { "a\nc", "a\nb\nc", "=+=" },
    { "a\nb\nc", "a\nc", "=-=" },
    { "a\nb\nc\nd", "x\nb\ny\nd", "-+=-+=" },
    { "", "a", "+" },
    { "a\nb\nc\nd", "a\nb\nc\nd\ne", "====+" },
    { "p\na\nb\nq", "r\na\nb\ns", "-+==-+" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *diff = diff_string (cases[i].a, cases[i].b);

      g_assert_cmpstr (diff, ==, cases[i].diff);
    }
}

/* A random text of @n lines drawn from @alphabet different ones. */
static GStrv
random_lines (GRand *rand,
              guint  n,
              guint  alphabet)
{
  GStrv lines = g_new0 (char *, n + 1);

  for (guint i = 0; i < n; i++)
    lines[i] = g_strdup_printf ("l%d", g_rand_int_range (rand, 0, alphabet));
  return lines;
}

/* @lines with random lines removed, replaced and inserted. */
static GStrv
random_edit (GRand             *rand,
             const char *const *lines,
             guint              alphabet,
             guint              percent)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; lines[i] != NULL; i++)
    {
      if ((guint) g_rand_int_range (rand, 0, 100) < percent)
        {
          switch (g_rand_int_range (rand, 0, 3))
            {
            case 0: /* removed */
              continue;
            case 1: /* inserted */
              g_ptr_array_add (out, g_strdup_printf ("l%d", g_rand_int_range (rand, 0, alphabet)));
              break;
            default: /* replaced */
              g_ptr_array_add (out, g_strdup_printf ("l%d", g_rand_int_range (rand, 0, alphabet)));
              continue;
            }
        }
      g_ptr_array_add (out, g_strdup (lines[i]));
    }
  g_ptr_array_add (out, NULL);
  return (GStrv) g_ptr_array_free (out, FALSE);
}

static void
check_minimal (const char *const *before,
               const char *const *after)
{
  g_autoptr (GArray) lines = graft_diff_lines (before, after);

  g_assert_cmpuint (check_script (lines, before, after), ==, lcs_length (before, after));
}

/* Unrelated random texts and edited copies, small and less small, over
 * few and many different lines. */
static void
test_random (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (19);

  for (guint round = 0; round < 20000; round++)
    {
      guint max = round < 15000 ? 12 : 200;
      guint alphabet = 1 + g_rand_int_range (rand, 0, round % 2 == 0 ? 4 : 40);
      g_auto (GStrv) a = random_lines (rand, g_rand_int_range (rand, 0, max + 1), alphabet);
      g_auto (GStrv) b = NULL;

      if (round % 3 == 0)
        b = random_lines (rand, g_rand_int_range (rand, 0, max + 1), alphabet);
      else
        b = random_edit (rand, (const char *const *) a, alphabet + 2,
                         g_rand_int_range (rand, 1, 60));
      check_minimal ((const char *const *) a, (const char *const *) b);
      check_minimal ((const char *const *) b, (const char *const *) a);
    }
}

/* The code before and after each rewrite of the rewrite-torchvision
 * suite, both torches: the diff is a minimal script between them. */
static void
test_torchvision (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "data", "rewrite-torchvision", NULL);
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;
  guint       n = 0;

  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *base = NULL;
      g_autofree char *model = NULL;
      g_autofree char *before_path = NULL;
      g_autofree char *after_path = g_build_filename (dir, name, NULL);
      g_autofree char *before_text = NULL;
      g_autofree char *after_text = NULL;
      const char      *suffix;
      g_auto (GStrv) before = NULL;
      g_auto (GStrv) after = NULL;

      if (!g_str_has_suffix (name, ".code") || strstr (name, "__") == NULL)
        continue;
      suffix = g_str_has_suffix (name, ".torch26.code") ? ".torch26.code" : ".code";
      base = g_strndup (name, strstr (name, "__") - name);
      model = g_strconcat (base, suffix, NULL);
      before_path = g_test_build_filename (G_TEST_DIST, "data", "torchvision", model, NULL);
      if (!g_file_test (before_path, G_FILE_TEST_EXISTS))
        continue;
      g_assert_true (g_file_get_contents (before_path, &before_text, NULL, NULL));
      g_assert_true (g_file_get_contents (after_path, &after_text, NULL, NULL));
      before = g_strsplit (before_text, "\n", -1);
      after = g_strsplit (after_text, "\n", -1);
      check_minimal ((const char *const *) before, (const char *const *) after);
      check_minimal ((const char *const *) after, (const char *const *) before);
      n++;
    }
  g_assert_cmpuint (n, >=, 40);
}

/* 200,000 lines with a change every 20: far beyond any table, still a
 * diff: the unchanged lines are kept. */
static void
test_large (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  guint      n = 200000;
  GStrv      a = g_new0 (char *, n + 1);
  GPtrArray *b = g_ptr_array_new ();
  guint      changed = 0;

  for (guint i = 0; i < n; i++)
    {
      a[i] = g_strdup_printf ("    v%u = torch.relu(v%u)", i, i / 2);
      if (i % 20 == 10)
        {
          g_ptr_array_add (b, g_strdup_printf ("    w%u = other(v%u)", i, i));
          changed++;
          if (g_rand_boolean (rand))
            continue;
        }
      g_ptr_array_add (b, g_strdup (a[i]));
    }
  g_ptr_array_add (b, NULL);
  {
    g_auto (GStrv) after = (GStrv) g_ptr_array_free (b, FALSE);
    g_autoptr (GArray) lines =
        graft_diff_lines ((const char *const *) a, (const char *const *) after);
    guint kept = check_script (lines, (const char *const *) a, (const char *const *) after);

    g_assert_cmpuint (kept, >=, n - changed);
  }
  g_strfreev (a);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/diff/cases", test_cases);
  g_test_add_func ("/core/diff/random", test_random);
  g_test_add_func ("/core/diff/torchvision", test_torchvision);
  g_test_add_func ("/core/diff/large", test_large);
  return g_test_run ();
}
