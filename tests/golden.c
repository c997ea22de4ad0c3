/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * golden.c: the golden-file runner (see golden.h): scans a suite's folder,
 * registers a GTest case per input, and compares each output with its
 * expected file or, for a suite Graft is the reference for, rewrites that
 * file when GRAFT_TEST_REGENERATE=1 is set.  It needs GLib only.
 */
#include "config.h"

#include "golden.h"

#include <string.h>

struct _GoldenCase
{
  /* Owned */
  char *input;      /* the input file's path */
  char *input_name; /* its name in input_dir */
  char *input_dir;
  char *stem;         /* input_name without its last extension (or input_suffix) */
  char *expected_dir; /* where STEM.SUFFIX are */
  char *variant;      /* nullable */

  const GraftDialect *dialect; /* static */
  gboolean            per_dialect;

  GoldenFunc    func;
  GoldenOrigin  origin;
  GoldenCompare compare;
};

/* Whether GRAFT_TEST_REGENERATE=1 asks to rewrite the expected files that
 * Graft is the reference for. */
gboolean
golden_regenerating (void)
{
  return g_strcmp0 (g_getenv ("GRAFT_TEST_REGENERATE"), "1") == 0;
}

static void
case_free (gpointer data)
{
  GoldenCase *gcase = data;

  g_free (gcase->input);
  g_free (gcase->input_name);
  g_free (gcase->input_dir);
  g_free (gcase->stem);
  g_free (gcase->expected_dir);
  g_free (gcase->variant);
  g_free (gcase);
}

static void
run_case (gconstpointer data)
{
  const GoldenCase *gcase = data;

  gcase->func (gcase);
}

static gsize
stem_length (const char *name)
{
  const char *dot = strrchr (name, '.');

  return dot != NULL ? (gsize) (dot - name) : strlen (name);
}

/* By stem, so that `a.py` and `a_b.py` run as `a` and `a_b` sort, then by
 * the whole name. */
static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  const char      *x = *(const char *const *) a;
  const char      *y = *(const char *const *) b;
  g_autofree char *x_stem = g_strndup (x, stem_length (x));
  g_autofree char *y_stem = g_strndup (y, stem_length (y));
  int              order = g_ascii_strcasecmp (x_stem, y_stem);

  return order != 0 ? order : g_ascii_strcasecmp (x, y);
}

static gboolean
matches_any (const char *const *globs,
             const char        *name)
{
  for (guint i = 0; globs != NULL && globs[i] != NULL; i++)
    if (g_pattern_match_simple (globs[i], name))
      return TRUE;
  return FALSE;
}

static void
add_case (const GoldenSuite  *suite,
          const char         *name,
          const char         *variant,
          const GraftDialect *dialect)
{
  GoldenCase      *gcase = g_new0 (GoldenCase, 1);
  g_autofree char *test_path = NULL;

  gcase->input = g_build_filename (suite->input_dir, name, NULL);
  gcase->input_name = g_strdup (name);
  gcase->input_dir = g_strdup (suite->input_dir);
  if (suite->input_suffix != NULL && g_str_has_suffix (name, suite->input_suffix) &&
      strlen (name) > strlen (suite->input_suffix))
    gcase->stem = g_strndup (name, strlen (name) - strlen (suite->input_suffix));
  else
    gcase->stem = g_strndup (name, stem_length (name));
  gcase->expected_dir = g_strdup (suite->expected_dir != NULL ? suite->expected_dir
                                                              : suite->input_dir);
  gcase->variant = g_strdup (variant);
  gcase->dialect = dialect;
  gcase->per_dialect = suite->per_dialect;
  gcase->func = suite->func;
  gcase->origin = suite->origin_of != NULL ? suite->origin_of (gcase->stem, dialect)
                                           : suite->origin;
  gcase->compare = suite->compare;
  test_path = g_strdup_printf ("%s/%s%s%s%s%s", suite->test_path, gcase->stem,
                               variant != NULL ? "/" : "", variant != NULL ? variant : "",
                               suite->per_dialect ? "/torch" : "",
                               suite->per_dialect ? dialect->name : "");
  g_test_add_data_func_full (test_path, gcase, run_case, case_free);
}

/* Registers the cases of @suite and returns the number of its inputs,
 * which must not be 0: a suite without cases means its data went missing. */
guint
golden_suite_add (const GoldenSuite *suite)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) dir = g_dir_open (suite->input_dir, 0, &error);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_no_error (error);
  if (dir == NULL)
    return 0;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (matches_any (suite->inputs, name) && !matches_any (suite->skip, name))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_assert_cmpuint (names->len, >, 0);

  for (guint i = 0; i < names->len; i++)
    for (guint t = 0; t < (suite->per_dialect ? GRAFT_N_TORCHES : 1); t++)
      {
        const GraftDialect *dialect =
            suite->per_dialect ? graft_dialect_get (t) : graft_dialect_get_default ();

        if (suite->variants == NULL)
          add_case (suite, names->pdata[i], NULL, dialect);
        for (guint v = 0; suite->variants != NULL && suite->variants[v] != NULL; v++)
          add_case (suite, names->pdata[i], suite->variants[v], dialect);
      }
  return names->len;
}

/* The input file's path (transfer none). */
const char *
golden_case_get_input (const GoldenCase *gcase)
{
  return gcase->input;
}

/* The input file's name, without its folder (transfer none). */
const char *
golden_case_get_input_name (const GoldenCase *gcase)
{
  return gcase->input_name;
}

/* The folder of the input (transfer none). */
const char *
golden_case_get_input_dir (const GoldenCase *gcase)
{
  return gcase->input_dir;
}

/* The input's name without its last extension (transfer none). */
const char *
golden_case_get_stem (const GoldenCase *gcase)
{
  return gcase->stem;
}

/* The variant of the suite this case is for (transfer none) (nullable). */
const char *
golden_case_get_variant (const GoldenCase *gcase)
{
  return gcase->variant;
}

/* The torch this case is for: each of them in a per-dialect suite, else
 * the default (transfer none). */
const GraftDialect *
golden_case_get_dialect (const GoldenCase *gcase)
{
  return gcase->dialect;
}

/* The name of the expected file of @stem for @dialect: STEM.SUFFIX for
 * torch 1.13.1 (the files the project started with), STEM.torch26.SUFFIX
 * for torch 2.6 (transfer full). */
char *
golden_expected_name (const char         *stem,
                      const GraftDialect *dialect,
                      const char         *suffix)
{
  if (dialect->torch == GRAFT_TORCH_1_13)
    return g_strconcat (stem, ".", suffix, NULL);
  return g_strconcat (stem, ".torch26.", suffix, NULL);
}

static char *
expected_path (const GoldenCase *gcase,
               const char       *suffix)
{
  g_autofree char *name = gcase->per_dialect
                              ? golden_expected_name (gcase->stem, gcase->dialect, suffix)
                              : g_strconcat (gcase->stem, ".", suffix, NULL);

  return g_build_filename (gcase->expected_dir, name, NULL);
}

/* Whether the expected file STEM.@suffix exists, for outputs that only
 * some cases of a suite check. */
gboolean
golden_case_has_expected (const GoldenCase *gcase,
                          const char       *suffix)
{
  g_autofree char *path = expected_path (gcase, suffix);

  return g_file_test (path, G_FILE_TEST_IS_REGULAR);
}

/* Python's str.strip() plus one newline: fx-reference's output form. */
static char *
stripped (const char *text,
          gsize       len,
          gsize      *out_len)
{
  gsize start = 0, end = len;
  char *out;

  while (start < end && g_ascii_isspace (text[start]))
    start++;
  while (end > start && g_ascii_isspace (text[end - 1]))
    end--;
  out = g_malloc (end - start + 2);
  memcpy (out, text + start, end - start);
  out[end - start] = '\n';
  out[end - start + 1] = '\0';
  *out_len = end - start + 1;
  return out;
}

static const char *
hint (const GoldenCase *gcase)
{
  if (gcase->origin == GOLDEN_FROM_GRAFT)
    return "GRAFT_TEST_REGENERATE=1 rewrites it for review";
  return "it holds torch's output (tests/tools/regen-golden, regen-rewrite)";
}

/* Fails the case, showing the first line where @got and @want part. */
static void
report_difference (const GoldenCase *gcase,
                   const char       *path,
                   const char       *got,
                   gsize             got_len,
                   const char       *want,
                   gsize             want_len)
{
  gsize i = 0, line_start = 0;

  while (i < got_len && i < want_len && got[i] == want[i])
    {
      if (got[i] == '\n')
        line_start = i + 1;
      i++;
    }
  g_test_message ("%s differs at byte %" G_GSIZE_FORMAT " (%s):\n got: %.*s\nwant: %.*s", path, i,
                  hint (gcase), (int) MIN (got_len - line_start, 200), got + line_start,
                  (int) MIN (want_len - line_start, 200), want + line_start);
  g_test_fail ();
}

/* Compares @got (@got_len bytes, or up to its NUL when negative) with the
 * expected file STEM.@suffix in the suite's way, or writes it there when
 * regenerating a suite that Graft is the reference for. */
void
golden_case_check (const GoldenCase *gcase,
                   const char       *suffix,
                   const char       *got,
                   gssize            got_len)
{
  g_autofree char *path = expected_path (gcase, suffix);
  g_autoptr (GError) error = NULL;
  g_autofree char *got_stripped = NULL;
  g_autofree char *text = NULL;
  g_autofree char *want_stripped = NULL;
  const char      *want;
  gsize            got_size = got_len >= 0 ? (gsize) got_len : strlen (got);
  gsize            want_size = 0;

  if (gcase->compare == GOLDEN_STRIPPED)
    {
      got_stripped = stripped (got, got_size, &got_size);
      got = got_stripped;
    }
  if (gcase->origin == GOLDEN_FROM_GRAFT && golden_regenerating ())
    {
      if (!g_file_set_contents (path, got, (gssize) got_size, &error))
        {
          g_test_message ("%s", error->message);
          g_test_fail ();
        }
      return;
    }
  if (!g_file_get_contents (path, &text, &want_size, &error))
    {
      g_test_message ("%s (%s)", error->message, hint (gcase));
      g_test_fail ();
      return;
    }
  want = text;
  if (gcase->compare == GOLDEN_STRIPPED)
    {
      want_stripped = stripped (text, want_size, &want_size);
      want = want_stripped;
    }
  if (got_size != want_size || memcmp (got, want, got_size) != 0)
    report_difference (gcase, path, got, got_size, want, want_size);
}

/**
 * golden_args_parse:
 * @line: a case's `.args` line, quoted as a shell would
 * @args: (out caller-allocates): zero-initialised; filled in
 *
 * Reads the options the rewrite and rules cases give; anything else is a
 * broken test case.
 */
void
golden_args_parse (const char *line,
                   GoldenArgs *args)
{
  g_auto (GStrv) argv = NULL;

  g_assert_true (g_shell_parse_argv (line, NULL, &argv, NULL));
  for (guint i = 0; argv[i] != NULL; i++)
    {
      if (g_str_equal (argv[i], "--ignore-literals"))
        args->ignore_literals = TRUE;
      else if (g_str_equal (argv[i], "--dce"))
        args->dce = TRUE;
      else if (g_str_equal (argv[i], "--entry") && argv[i + 1] != NULL)
        args->entry = g_strdup (argv[++i]);
      else if (g_str_equal (argv[i], "--pattern") && argv[i + 1] != NULL)
        args->pattern = g_strdup (argv[++i]);
      else if (g_str_equal (argv[i], "--replacement") && argv[i + 1] != NULL)
        args->replacement = g_strdup (argv[++i]);
      else if (g_str_equal (argv[i], "--rules") && argv[i + 1] != NULL)
        args->rules = g_strdup (argv[++i]);
      else if (g_str_equal (argv[i], "--fixpoint") && argv[i + 1] != NULL)
        args->fixpoint = (guint) g_ascii_strtoull (argv[++i], NULL, 10);
      else if (argv[i][0] != '-' && args->input == NULL)
        args->input = g_strdup (argv[i]);
      else
        g_error ("unknown argument in a test case: %s", argv[i]);
    }
}

void
golden_args_clear (GoldenArgs *args)
{
  g_free (args->input);
  g_free (args->entry);
  g_free (args->pattern);
  g_free (args->replacement);
  g_free (args->rules);
}
