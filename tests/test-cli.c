/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-cli.c: the `graft` command line as a user meets it (cli.md): exit
 * statuses, `FILE:LINE:COL: error:` diagnostics for every bad input under
 * tests/data/errors and listing-errors (compared with the `.errors` files, which
 * GRAFT_TEST_REGENERATE=1 rewrites for review), usage errors, standard
 * input, `--entry`, and atomic `-o` output.
 */
#include "config.h"

#include <glib.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/sysmacros.h>
#include <unistd.h>

typedef struct
{
  int   status;
  char *out;
  gsize out_len;
  char *err;
} Run;

static void
run_clear (Run *run)
{
  g_free (run->out);
  g_free (run->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static const char *
graft_cli (void)
{
  /* The `valgrind` test setup runs graft through tests/valgrind/graft. */
  const char *path = g_getenv ("GRAFT_CLI_WRAPPER") != NULL ? g_getenv ("GRAFT_CLI_WRAPPER")
                                                            : g_getenv ("GRAFT_CLI");

  g_assert_nonnull (path);
  return path;
}

/* GRAFT_TORCH for the next runs of graft (NULL: unset, whatever the
 * environment of the tests says). */
static const char *graft_torch_env;
/* Whether the next runs of graft see no MALLOC_PERTURB_ (which `meson
 * test` sets) nor GLIBC_TUNABLES, as a user's do: only then does graft
 * lay its heap out on huge pages (core/base/graft-heap.c). */
static gboolean graft_plain_heap;
/* Whether the next runs of graft have GRAFT_CLI_TIMINGS set (else it is
 * unset, whatever the environment of the tests says). */
static gboolean graft_timings;

/* Runs graft with @argv (NULL-terminated, without the program) in @cwd,
 * with the file @stdin_path on stdin (NULL: an immediate end of file). */
static void
run_graft_reading (Run               *run,
                   const char        *cwd,
                   const char        *stdin_path,
                   const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GBytes) out = NULL;
  g_autoptr (GBytes) err = NULL;
  gsize       len;
  const char *data;

  g_ptr_array_add (argv, (gpointer) graft_cli ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_stdin_file_path (launcher,
                                             stdin_path != NULL ? stdin_path : "/dev/null");
  if (cwd != NULL)
    g_subprocess_launcher_set_cwd (launcher, cwd);
  if (graft_torch_env != NULL)
    g_subprocess_launcher_setenv (launcher, "GRAFT_TORCH", graft_torch_env, TRUE);
  else
    g_subprocess_launcher_unsetenv (launcher, "GRAFT_TORCH");
  if (graft_timings)
    g_subprocess_launcher_setenv (launcher, "GRAFT_CLI_TIMINGS", "1", TRUE);
  else
    g_subprocess_launcher_unsetenv (launcher, "GRAFT_CLI_TIMINGS");
  if (graft_plain_heap)
    {
      g_subprocess_launcher_unsetenv (launcher, "MALLOC_PERTURB_");
      g_subprocess_launcher_unsetenv (launcher, "GLIBC_TUNABLES");
    }
  proc = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  run->status = g_subprocess_get_exit_status (proc);
  data = g_bytes_get_data (out, &len);
  run->out = data != NULL ? g_strndup (data, len) : g_strdup ("");
  run->out_len = len;
  data = g_bytes_get_data (err, &len);
  run->err = data != NULL ? g_strndup (data, len) : g_strdup ("");
}

/* Runs graft with @argv (NULL-terminated, without the program) in @cwd,
 * with @input on stdin (NULL: an immediate end of file). */
static void
run_graft (Run               *run,
           const char        *cwd,
           const char        *input,
           const char *const *args)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *in_path = NULL;

  /* Standard input is a file, not a pipe: a graft that exits without
   * reading it (a usage error) must not kill the test with SIGPIPE. */
  if (input != NULL)
    {
      g_autoptr (GFileIOStream) stream = NULL;
      g_autoptr (GFile) file = g_file_new_tmp ("graft-stdin-XXXXXX", &stream, &error);

      g_assert_no_error (error);
      in_path = g_file_get_path (file);
      g_assert_true (g_file_set_contents (in_path, input, -1, NULL));
    }
  run_graft_reading (run, cwd, in_path, args);
  if (in_path != NULL)
    g_unlink (in_path);
}

static char *
data_path (const char *first,
           ...)
{
  va_list ap;
  g_autoptr (GPtrArray) parts = g_ptr_array_new ();
  const char *p;
  char       *path;

  g_ptr_array_add (parts, (gpointer) g_getenv ("G_TEST_SRCDIR"));
  g_ptr_array_add (parts, (gpointer) "data");
  va_start (ap, first);
  for (p = first; p != NULL; p = va_arg (ap, const char *))
    g_ptr_array_add (parts, (gpointer) p);
  va_end (ap);
  g_ptr_array_add (parts, NULL);
  path = g_build_filenamev ((char **) parts->pdata);
  return path;
}

typedef struct
{
  char       *dir;
  char       *name;
  const char *command;
  const char *torch; /* `--torch` */
} BadInput;

static void
bad_input_free (gpointer data)
{
  BadInput *b = data;

  g_free (b->dir);
  g_free (b->name);
  g_free (b);
}

/* One bad input: exit status 1, nothing on stdout, and exactly one
 * `NAME:LINE:COL: error: TEXT` line on stderr, the one in NAME.errors. */
static void
test_bad_input (gconstpointer data)
{
  const BadInput  *b = data;
  g_autofree char *expected_path = NULL;
  g_autofree char *expected = NULL;
  g_autoptr (GRegex) form = g_regex_new ("^[^:\\n]+:[0-9]+:[0-9]+: error: [^\\n]+\\n$", 0, 0, NULL);
  g_auto (Run) run = { 0 };
  g_autofree char *stem = g_strndup (b->name, strrchr (b->name, '.') - b->name);
  g_autofree char *path = g_build_filename (b->dir, b->name, NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) options = NULL;
  g_autoptr (GPtrArray) args = g_ptr_array_new ();

  /* A first line `# graft-args: ...` holds the case's options. */
  g_ptr_array_add (args, (gpointer) b->command);
  g_ptr_array_add (args, (gpointer) "--torch");
  g_ptr_array_add (args, (gpointer) b->torch);
  g_ptr_array_add (args, b->name);
  if (g_file_get_contents (path, &text, NULL, NULL) && g_str_has_prefix (text, "# graft-args:"))
    {
      char *nl = strchr (text, '\n');

      if (nl != NULL)
        *nl = '\0';
      g_assert_true (g_shell_parse_argv (text + strlen ("# graft-args:"), NULL, &options, NULL));
      for (guint i = 0; options[i] != NULL; i++)
        g_ptr_array_add (args, options[i]);
    }
  g_ptr_array_add (args, NULL);
  run_graft (&run, b->dir, NULL, (const char *const *) args->pdata);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_true (g_regex_match (form, run.err, 0, NULL));

  /* NAME.errors for torch 1.13.1, NAME.torch26.errors for 2.6. */
  expected_path =
      g_strconcat (b->dir, G_DIR_SEPARATOR_S, stem,
                   strcmp (b->torch, "1.13") == 0 ? ".errors" : ".torch26.errors", NULL);
  if (g_strcmp0 (g_getenv ("GRAFT_TEST_REGENERATE"), "1") == 0)
    {
      g_autoptr (GError) error = NULL;

      g_file_set_contents (expected_path, run.err, -1, &error);
      g_assert_no_error (error);
      return;
    }
  g_file_get_contents (expected_path, &expected, NULL, NULL);
  if (expected == NULL)
    {
      g_test_message ("%s is missing; run with GRAFT_TEST_REGENERATE=1 and review it",
                      expected_path);
      g_test_fail ();
      return;
    }
  g_assert_cmpstr (run.err, ==, expected);
}

/* g_ptr_array_sort() hands the comparator pointers to the elements. */
static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_ascii_strcasecmp (*(char *const *) a, *(char *const *) b);
}

/* Registers a case per input file of @dir (under tests/data). */
static guint
add_bad_inputs (const char *subdir,
                const char *command)
{
  g_autofree char *dir = data_path (subdir, NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char              *name;
  static const char *const torches[] = { "2.6", "1.13" };

  g_autofree char *accepted_path = g_build_filename (dir, "ACCEPTED.torch26", NULL);
  g_autofree char *accepted = NULL;
  g_auto (GStrv) accepted_names = NULL;

  /* Bad inputs that torch 2.6 accepts (regen-golden lists them): torch
   * 1.13.1's errors only. */
  if (g_file_get_contents (accepted_path, &accepted, NULL, NULL))
    accepted_names = g_strsplit (accepted, "\n", -1);
  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if ((g_str_has_suffix (name, ".py") || g_str_has_suffix (name, ".txt")) &&
        !g_str_has_prefix (name, "ORACLE") && !g_str_has_suffix (name, "_rules.py"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    for (guint t = 0; t < G_N_ELEMENTS (torches); t++)
      {
        BadInput        *b;
        g_autofree char *test_path = NULL;

        if (strcmp (torches[t], "2.6") == 0 && accepted_names != NULL &&
            g_strv_contains ((const char *const *) accepted_names, names->pdata[i]))
          continue;
        b = g_new0 (BadInput, 1);
        test_path = g_strdup_printf ("/cli/bad-%s/%s/torch%s", command, (char *) names->pdata[i],
                                     torches[t]);

        b->dir = g_strdup (dir);
        b->name = g_strdup (names->pdata[i]);
        b->command = command;
        b->torch = torches[t];
        g_test_add_data_func_full (test_path, b, test_bad_input, bad_input_free);
      }
  return names->len;
}

/* graft-editor --help names the files it opens (GApplication's usage line
 * said only "graft-editor [OPTION…]"), and --version prints the version
 * as `graft --version` does; neither opens a window or needs a display. */
static void
test_editor_help (void)
{
  const char *editor = g_getenv ("GRAFT_EDITOR");
  g_auto (GStrv) env = g_environ_unsetenv (g_get_environ (), "DISPLAY");

  g_assert_nonnull (editor);
  env = g_environ_unsetenv (env, "WAYLAND_DISPLAY");
  for (guint i = 0; i < 2; i++)
    {
      const char *const argv[] = { editor, i == 0 ? "--help" : "--version", NULL };
      g_autofree char  *out = NULL;
      g_autofree char  *err = NULL;
      g_autoptr (GError) error = NULL;
      int status = -1;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out,
                                   &err, &status, &error));
      g_assert_no_error (error);
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      g_assert_cmpstr (err, ==, "");
      if (i == 0)
        {
          /* GOption writes its ellipses as the locale can ("[OPTION?]" in
           * an ASCII one). */
          g_assert_true (g_regex_match_simple ("graft-editor \\[OPTION.+\\] \\[FILE.+\\]\n", out,
                                               0, 0));
          g_assert_nonnull (strstr (out, "torch.export program"));
          g_assert_nonnull (strstr (out, "--version"));
        }
      else
        g_assert_cmpstr (out, ==, "graft-editor " PACKAGE_VERSION "\n");
    }
}

/* Requests for help GOption meets before anything it refuses (`-hq`: the
 * h is read first; `-h --bogus`; a flag given a value, which GOption
 * takes) are GApplication's help, status 0: the check of the options
 * before GApplication leaves them alone. */
static void
test_editor_help_forms (void)
{
  static const char *const cases[][3] = {
    { "-h", NULL },
    { "-hq", NULL },
    { "-?", "x.py", NULL },
    { "-h", "--bogus", NULL },
    { "--help-all", NULL },
    { "--help-gapplication", NULL },
    { "--version=1", "-h", NULL },
  };
  const char *editor = g_getenv ("GRAFT_EDITOR");
  g_auto (GStrv) env = g_environ_unsetenv (g_get_environ (), "DISPLAY");

  g_assert_nonnull (editor);
  env = g_environ_unsetenv (env, "WAYLAND_DISPLAY");
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char      *argv[5] = { editor };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autoptr (GError) error = NULL;
      int status = -1;

      for (guint a = 0; a < G_N_ELEMENTS (cases[i]) && cases[i][a] != NULL; a++)
        argv[a + 1] = cases[i][a];
      g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out,
                                   &err, &status, &error));
      g_assert_no_error (error);
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      g_assert_cmpstr (err, ==, "");
      g_assert_true (g_str_has_prefix (out, "Usage:\n  graft-editor "));
    }
}

/* A wrong option of graft-editor answers as graft's do, in graft's form
 * and with its status 2 (GApplication printed "Unknown option --bogus",
 * capitalised and without the program's name, and returned 1); nothing
 * opens, no display is needed. */
static void
test_editor_bad_option (void)
{
  static const struct
  {
    const char *args[4];
    const char *err;
  } cases[] = {
    { { "--bogus", NULL }, "graft-editor: unknown option --bogus\n" },
    { { "x.py", "-q", NULL }, "graft-editor: unknown option -q\n" },
    { { "--versio", NULL }, "graft-editor: unknown option --versio\n" },
    /* GOption reads the letters in order: the q is refused before the h
     * asks for help (GApplication answered these with status 1). */
    { { "-qh", NULL }, "graft-editor: unknown option -qh\n" },
    { { "x.py", "-q?", NULL }, "graft-editor: unknown option -q?\n" },
    { { "--bogus", "-h", NULL }, "graft-editor: unknown option --bogus\n" },
    { { "-q", "-h", NULL }, "graft-editor: unknown option -q\n" },
    { { "--help-bogus", NULL }, "graft-editor: unknown option --help-bogus\n" },
  };
  const char *editor = g_getenv ("GRAFT_EDITOR");
  g_auto (GStrv) env = g_environ_unsetenv (g_get_environ (), "DISPLAY");

  g_assert_nonnull (editor);
  env = g_environ_unsetenv (env, "WAYLAND_DISPLAY");
  env = g_environ_setenv (env, "LC_ALL", "C", TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char      *argv[6] = { editor };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autofree char *expected = NULL;
      g_autoptr (GError) error = NULL;
      int status = -1;

      for (guint a = 0; cases[i].args[a] != NULL; a++)
        argv[a + 1] = cases[i].args[a];
      g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out,
                                   &err, &status, &error));
      g_assert_no_error (error);
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 2);
      g_assert_cmpstr (out, ==, "");
      expected = g_strconcat (cases[i].err, "Run 'graft-editor --help' for its options.\n", NULL);
      g_assert_cmpstr (err, ==, expected);
    }
}

static void
test_usage (void)
{
  static const char *const cases[][4] = {
    { NULL },
    { "frobnicate", NULL },
    { "code", NULL },
    { "code", "--no-such-option", "x.py", NULL },
    { "code", "a.py", "b.py", NULL },
    { "graph", "--entry", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (Run) run = { 0 };

      run_graft (&run, NULL, NULL, cases[i]);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_cmpstr (run.out, ==, "");
      g_assert_cmpstr (run.err, !=, "");
    }
  /* GOption's own messages in the CLI's form: lower case, after the
   * command (it printed "Unknown option --bogus", capitalised). */
  {
    static const char *const bogus[] = { "code", "--bogus", "x", "x.py", NULL };
    static const char *const no_value[] = { "graph", "x.py", "--entry", NULL };
    g_auto (Run) run = { 0 };
    g_auto (Run) missing = { 0 };

    run_graft (&run, NULL, NULL, bogus);
    g_assert_cmpint (run.status, ==, 2);
    g_assert_cmpstr (run.err, ==, "graft code: unknown option --bogus\n");
    run_graft (&missing, NULL, NULL, no_value);
    g_assert_cmpint (missing.status, ==, 2);
    g_assert_cmpstr (missing.err, ==, "graft graph: missing argument for --entry\n");
  }
  /* An empty value is a usage error, not a file or a name called ''
   * (":1:1: error: cannot read the file", or --pattern= taken as the
   * default). */
  {
    static const struct
    {
      const char *args[6];
      const char *err;
    } empties[] = {
      { { "code", "", NULL }, "graft code: empty INPUT (a file, or - for standard input)\n" },
      { { "code", "x.py", "-o", "", NULL }, "graft code: -o/--output: empty PATH\n" },
      { { "match", "x.py", "--pattern=", NULL }, "graft match: --pattern: empty REF\n" },
      { { "rewrite", "x.py", "--rules", "", NULL }, "graft rewrite: --rules: empty FILE\n" },
      { { "graph", "--torch=", "x.py", NULL }, "graft graph: --torch: empty VERSION\n" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (empties); i++)
      {
        g_auto (Run) run = { 0 };

        run_graft (&run, NULL, NULL, empties[i].args);
        g_assert_cmpint (run.status, ==, 2);
        g_assert_cmpstr (run.err, ==, empties[i].err);
      }
  }
  {
    g_auto (Run) run = { 0 };
    const char *help[] = { "--help", NULL };

    run_graft (&run, NULL, NULL, help);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_nonnull (strstr (run.out, "code"));
    /* Every kind of INPUT cli.md reads (the programs were missing). */
    g_assert_nonnull (strstr (run.out, "a torch.export program\n(a .pt2 archive"));
  }
  /* A command's --help names it as it is typed (it said "code [OPTION…]
   * INPUT"), in graft and in graft-render alike. */
  for (guint i = 0; i < 2; i++)
    {
      g_auto (Run) run = { 0 };
      const char      *help[] = { i == 0 ? "code" : "render", "--help", NULL };
      g_autofree char *usage =
          g_strdup_printf ("Usage:\n  graft %s [", help[0]);

      run_graft (&run, NULL, NULL, help);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_true (g_str_has_prefix (run.out, usage));
    }
}

/* --torch, GRAFT_TORCH and the default (cli.md, "Dialects"): the user
 * count of a listing says which torch spoke. */
static void
test_torch_choice (void)
{
  static const struct
  {
    const char *env;   /* GRAFT_TORCH, or NULL */
    const char *torch; /* --torch, or NULL */
    int         status;
    const char *expect; /* in stdout (status 0) or stderr */
  } cases[] = {
    { NULL, NULL, 0, "[num_users=1]" },
    { NULL, "2.6", 0, "[num_users=1]" },
    { NULL, "1.13", 0, "[#users=1]" },
    { NULL, "1.13.1", 0, "[#users=1]" },
    { "1.13", NULL, 0, "[#users=1]" },
    { "", NULL, 0, "[num_users=1]" },
    { "1.13", "2.6", 0, "[num_users=1]" },
    { "2.6", "1.13", 0, "[#users=1]" },
    { NULL, "2", 2, "graft graph: --torch 2: unknown torch (use 2.6 or 1.13)\n" },
    { NULL, "", 2, "graft graph: --torch: empty VERSION\n" },
    { "3.0", NULL, 2, "graft graph: GRAFT_TORCH=3.0: unknown torch (use 2.6 or 1.13)\n" },
  };
  static const char model[] = "def forward(x):\n    return x.relu()\n";

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto (Run) run = { 0 };
      const char *with[] = { "graph", "--torch", cases[i].torch, "-", NULL };
      const char *without[] = { "graph", "-", NULL };

      graft_torch_env = cases[i].env;
      run_graft (&run, NULL, model, cases[i].torch != NULL ? with : without);
      graft_torch_env = NULL;
      g_assert_cmpint (run.status, ==, cases[i].status);
      if (cases[i].status == 0)
        g_assert_nonnull (strstr (run.out, cases[i].expect));
      else
        {
          g_assert_cmpstr (run.out, ==, "");
          g_assert_cmpstr (run.err, ==, cases[i].expect);
        }
    }
}

/* `--to readable` (cli.md): `graft code` prints what torch 2.6's
 * print_readable(print_output=False) returns, as the golden files of
 * tests/data/golden hold it; torch 1.13.1 has no such call, a usage
 * error; `graft code` takes no other format but graph
 * (/cli/code-to-graph).  `graft rewrite --to readable` prints the
 * rewritten graph in that form. */
static void
test_readable (void)
{
  g_autofree char *model = data_path ("golden", "function_forward.py", NULL);
  g_autofree char *expected_path = data_path ("golden", "function_forward.torch26.readable", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *example =
      data_path ("..", "..", "data", "examples", "subgraph_rewriter_basic_use.py", NULL);
  static const char *const usage[][8] = {
    { "code", NULL, "--to", "readable", "--torch", "1.13", NULL },
    { "code", NULL, "--to", "json", NULL },
    { "code", NULL, "--to", "dot", NULL },
    { "rewrite", NULL, "--to", "readable", "--torch", "1.13", NULL },
  };

  g_assert_true (g_file_get_contents (expected_path, &expected, NULL, NULL));
  {
    g_auto (Run) run = { 0 };
    const char *args[] = { "code", model, "--to", "readable", NULL };

    run_graft (&run, NULL, NULL, args);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.out, ==, expected);
    g_assert_cmpstr (run.err, ==, "");
  }
  for (guint i = 0; i < G_N_ELEMENTS (usage); i++)
    {
      g_auto (Run) run = { 0 };
      const char *args[8];

      memcpy (args, usage[i], sizeof args);
      args[1] = strcmp (usage[i][0], "rewrite") == 0 ? example : model;
      run_graft (&run, NULL, NULL, args);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_cmpstr (run.out, ==, "");
      g_assert_true (g_str_has_prefix (run.err, "graft "));
    }
  {
    g_auto (Run) run = { 0 };
    const char *args[] = { "code", model, "--to", "readable", "--torch", "1.13", NULL };

    run_graft (&run, NULL, NULL, args);
    g_assert_cmpstr (run.err, ==,
                     "graft code: --to readable: torch 1.13.1 has no "
                     "print_readable(print_output=False) (use --torch 2.6)\n");
  }
  {
    g_auto (Run) run = { 0 };
    const char *args[] = { "rewrite", example, "--to", "readable", NULL };

    run_graft (&run, NULL, NULL, args);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_true (g_str_has_prefix (run.out,
                                     "class M(torch.nn.Module):\n"
                                     "    def forward(self, x, w1, w2):\n"
                                     "        # No stacktrace found for following nodes\n"));
    g_assert_cmpstr (run.err, ==, "replaced 2 matches\n");
  }
}

static void
test_missing_file (void)
{
  g_auto (Run) run = { 0 };
  const char *args[] = { "code", "/nonexistent/model.py", NULL };

  run_graft (&run, NULL, NULL, args);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_true (
      g_str_has_prefix (run.err, "/nonexistent/model.py:1:1: error: cannot read the file: "));
}

static void
test_stdin (void)
{
  g_auto (Run) run = { 0 };
  const char *args[] = { "code", "-", NULL };

  run_graft (&run, NULL, "import torch\ndef forward(x):\n    return torch.relu(x)\n", args);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==,
                   "def forward(self, x):\n    relu = torch.relu(x);  x = None\n    return relu\n");
}

/* An input of nothing but white space, a file or standard input, says so
 * (it was "no class defines forward ...; candidates: none"). */
static void
test_empty_input (void)
{
  g_auto (Run) run = { 0 };
  const char *args[] = { "code", "-", NULL };

  run_graft (&run, NULL, "\n  \n\t\n", args);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_cmpstr (run.err, ==,
                   "-:1:1: error: the input is empty: expected a Python module to trace, an FX "
                   "graph listing, a DOT graph or a torch.export program\n");
}

/* `graft` links no DOT reader: a DOT input, from a file or from standard
 * input (which it has read by then), goes to graft-render, whose answers
 * it gives unchanged, errors included. */
static void
test_dot_hand_over (void)
{
  static const char dot[] = "digraph { a -> b }\n";
  static const char listing[] =
      "graph():\n"
      "    %a : [num_users=1] = placeholder[target=a]\n"
      "    %b : [num_users=1] = call_function[target=b](args = (%a,), kwargs = {})\n"
      "    return b\n";
  g_autofree char *dir = g_dir_make_tmp ("graft-cli-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "plain.dot", NULL);
  const char      *from_file[] = { "graph", file, NULL };
  const char      *from_stdin[] = { "graph", "-", NULL };
  const char      *bad[] = { "code", "-", NULL };
  g_autofree char *out = g_build_filename (dir, "out.txt", NULL);
  const char      *with_output[] = { "graph", "-o", out, file, NULL };
  g_autofree char *written = NULL;
  g_auto (Run) a = { 0 };
  g_auto (Run) b = { 0 };
  g_auto (Run) c = { 0 };
  g_auto (Run) d = { 0 };

  g_assert_true (g_file_set_contents (file, dot, -1, NULL));
  run_graft (&a, NULL, NULL, from_file);
  g_assert_cmpint (a.status, ==, 0);
  g_assert_cmpstr (a.out, ==, listing);
  run_graft (&b, NULL, dot, from_stdin);
  g_assert_cmpint (b.status, ==, 0);
  g_assert_cmpstr (b.out, ==, listing);
  run_graft (&c, NULL, "digraph { a -> }", bad);
  g_assert_cmpint (c.status, ==, 1);
  g_assert_cmpstr (c.err, ==, "-:1:16: error: syntax error near '}'\n");
  g_assert_cmpstr (c.out, ==, "");
  /* Options go along too (GOption takes them out of argv as it reads). */
  run_graft (&d, NULL, NULL, with_output);
  g_assert_cmpint (d.status, ==, 0);
  g_assert_cmpstr (d.out, ==, "");
  g_assert_true (g_file_get_contents (out, &written, NULL, NULL));
  g_assert_cmpstr (written, ==, listing);
  g_unlink (out);
  g_unlink (file);
  g_rmdir (dir);
}

/* Nor does it link the `.pt2` reader (libzip, yajl): an archive, from
 * a file or from standard input, goes to graft-render too, and the answer
 * is the program torch.export.load gives. */
static void
test_pt2_hand_over (void)
{
  g_autofree char *archive = data_path ("programs", "attention_manual.pt2", NULL);
  g_autofree char *golden = data_path ("programs", "attention_manual.torch26.code", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *dir = g_dir_make_tmp ("graft-cli-XXXXXX", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.pt2", NULL);
  const char      *from_file[] = { "code", archive, NULL };
  const char      *from_stdin[] = { "code", "-", NULL };
  const char      *broken[] = { "code", bad, NULL };
  g_auto (Run) a = { 0 };
  g_auto (Run) b = { 0 };
  g_auto (Run) c = { 0 };

  g_assert_true (g_file_get_contents (golden, &expected, NULL, NULL));
  run_graft (&a, NULL, NULL, from_file);
  g_assert_cmpstr (a.err, ==, "");
  g_assert_cmpint (a.status, ==, 0);
  g_assert_cmpstr (g_strstrip (a.out), ==, g_strstrip (expected));
  run_graft_reading (&b, NULL, archive, from_stdin);
  g_assert_cmpint (b.status, ==, 0);
  g_assert_cmpstr (g_strstrip (b.out), ==, expected);
  /* A `.pt2` that is no zip: graft-render's located error. */
  g_assert_true (g_file_set_contents (bad, "PK\x03\x04 not really", -1, NULL));
  run_graft (&c, NULL, NULL, broken);
  g_assert_cmpint (c.status, ==, 1);
  g_assert_true (g_str_has_prefix (c.err, bad));
  g_assert_nonnull (strstr (c.err, ": error: "));
  g_assert_cmpstr (c.out, ==, "");
  g_unlink (bad);
  g_rmdir (dir);
}

/* A program whose code does not compile (an input named by a keyword,
 * by a name that is no identifier, by `self`): `graft code` prints the
 * empty graph's code torch 2.6's graph module keeps, and a rewrite fails
 * as torch's recompile() does, with no output; an input `*x` compiles. */
static void
test_program_code_not_compiling (void)
{
  static const char *const names[] = { "placeholder_keyword", "placeholder_not_identifier",
                                       "placeholder_self", "placeholder_star" };
  g_autofree char         *patterns = data_path ("program-rewrites", "patterns.py", NULL);
  g_autofree char         *pattern = g_strconcat (patterns, ":linear_addmm", NULL);
  g_autofree char         *replacement = g_strconcat (patterns, ":linear_addmm_replacement", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *file = g_strconcat (names[i], ".pt2", NULL);
      g_autofree char *code_file = g_strconcat (names[i], ".torch26.code", NULL);
      g_autofree char *archive = data_path ("programs-renamed", file, NULL);
      g_autofree char *golden = data_path ("programs-renamed", code_file, NULL);
      g_autofree char *expected = NULL;
      gboolean         compiles = i == G_N_ELEMENTS (names) - 1;
      const char      *code[] = { "code", archive, NULL };
      const char      *rewrite[] = { "rewrite", archive, "--pattern",
                                     pattern, "--replacement", replacement,
                                     NULL };
      g_auto (Run) a = { 0 };
      g_auto (Run) b = { 0 };

      g_assert_true (g_file_get_contents (golden, &expected, NULL, NULL));
      run_graft (&a, NULL, NULL, code);
      g_assert_cmpstr (a.err, ==, "");
      g_assert_cmpint (a.status, ==, 0);
      g_assert_cmpstr (g_strstrip (a.out), ==, g_strstrip (expected));
      g_assert_cmpint (strcmp (expected, "def forward(self):\n    pass") == 0, ==, !compiles);
      run_graft (&b, NULL, NULL, rewrite);
      if (compiles)
        {
          g_assert_cmpint (b.status, ==, 0);
          g_assert_nonnull (strstr (b.out, "def forward(self, p_fc1_weight, p_fc1_bias, "
                                           "p_fc2_weight, *x):\n"));
          g_assert_cmpstr (b.err, ==, "replaced 2 matches\n");
        }
      else
        {
          g_assert_cmpint (b.status, ==, 1);
          g_assert_true (g_str_has_prefix (b.err, archive));
          g_assert_nonnull (strstr (b.err, ":1:1: error: SyntaxError: "));
          g_assert_cmpstr (b.out, ==, "");
        }
    }
}

static void
test_entry (void)
{
  static const char source[] =
      "import torch\n"
      "class A(torch.nn.Module):\n"
      "    def forward(self, x):\n"
      "        return x.relu()\n"
      "class B(torch.nn.Module):\n"
      "    def forward(self, x):\n"
      "        return x.sigmoid()\n"
      "def helper(y):\n"
      "    return y.neg()\n";
  g_auto (Run) first = { 0 };
  g_auto (Run) second = { 0 };
  g_auto (Run) function = { 0 };
  g_auto (Run) missing = { 0 };
  g_auto (Run) misspelled = { 0 };
  const char *args_first[] = { "code", "-", NULL };
  const char *args_second[] = { "code", "-", "--entry", "B", NULL };
  const char *args_function[] = { "graph", "--entry=helper", "-", NULL };
  const char *args_missing[] = { "code", "-", "--entry", "C", NULL };
  const char *args_misspelled[] = { "code", "-", "--entry", "helpr", NULL };

  run_graft (&first, NULL, source, args_first);
  g_assert_cmpstr (first.out, ==,
                   "def forward(self, x):\n    relu = x.relu();  x = None\n    return relu\n");
  run_graft (&second, NULL, source, args_second);
  g_assert_cmpstr (second.out, ==,
                   "def forward(self, x):\n    sigmoid = x.sigmoid();  x = None\n    return "
                   "sigmoid\n");
  run_graft (&function, NULL, source, args_function);
  g_assert_cmpstr (function.out, ==,
                   "graph():\n"
                   "    %y : [num_users=1] = placeholder[target=y]\n"
                   "    %neg : [num_users=1] = call_method[target=neg](args = (%y,), kwargs = {})\n"
                   "    return neg\n");
  /* A name like none of the file's is the file's, at 1:1 (cli.md); it was
   * placed at the first class, as if the user had meant it. */
  run_graft (&missing, NULL, source, args_missing);
  g_assert_cmpint (missing.status, ==, 1);
  g_assert_cmpstr (missing.err, ==,
                   "-:1:1: error: no class or function named 'C'; candidates: A, B, helper\n");
  /* A misspelled one points at the definition meant. */
  run_graft (&misspelled, NULL, source, args_misspelled);
  g_assert_cmpint (misspelled.status, ==, 1);
  g_assert_cmpstr (misspelled.err, ==,
                   "-:8:5: error: no class or function named 'helpr'; candidates: A, B, helper\n");
}

/* `graft code --to graph` prints what `graft graph` prints, as the
 * oracle's `code --to graph` does (it was "unknown format"); a picture
 * format points at render. */
static void
test_code_to_graph (void)
{
  g_autofree char *model = data_path ("..", "..", "data", "examples",
                                      "subgraph_rewriter_basic_use.py", NULL);
  const char      *args_graph[] = { "graph", model, NULL };
  const char      *args_code[] = { "code", model, "--to", "graph", NULL };
  const char      *args_png[] = { "code", model, "--to=png", NULL };
  g_auto (Run) graph = { 0 };
  g_auto (Run) code = { 0 };
  g_auto (Run) png = { 0 };

  run_graft (&graph, NULL, NULL, args_graph);
  run_graft (&code, NULL, NULL, args_code);
  g_assert_cmpint (code.status, ==, 0);
  g_assert_true (g_str_has_prefix (code.out, "graph():\n"));
  g_assert_cmpstr (code.out, ==, graph.out);
  g_assert_cmpstr (code.err, ==, "");
  run_graft (&png, NULL, NULL, args_png);
  g_assert_cmpint (png.status, ==, 2);
  g_assert_cmpstr (png.err, ==,
                   "graft code: --to png: code writes code, readable or graph; graft render "
                   "--to png draws the graph\n");
}

/* `graft rewrite --style` with a format that is no drawing says it is
 * ignored (it said nothing); the output is the same. */
static void
test_style_ignored (void)
{
  g_autofree char *model = data_path ("..", "..", "data", "examples",
                                      "subgraph_rewriter_basic_use.py", NULL);
  const char      *args_plain[] = { "rewrite", model, NULL };
  const char      *args_style[] = { "rewrite", model, "--style", "dark", NULL };
  const char      *args_pass[] = { "rewrite", model, "--to", "pass", "--style=light", NULL };
  g_auto (Run) plain = { 0 };
  g_auto (Run) style = { 0 };
  g_auto (Run) pass = { 0 };

  run_graft (&plain, NULL, NULL, args_plain);
  run_graft (&style, NULL, NULL, args_style);
  g_assert_cmpint (style.status, ==, 0);
  g_assert_cmpstr (style.out, ==, plain.out);
  g_assert_cmpstr (style.err, ==,
                   "graft rewrite: warning: --style dark is ignored: it styles pictures and DOT "
                   "(--to png, svg, pdf or dot), not code\nreplaced 2 matches\n");
  run_graft (&pass, NULL, NULL, args_pass);
  g_assert_cmpint (pass.status, ==, 0);
  g_assert_true (g_str_has_prefix (pass.err, "graft rewrite: warning: --style light is ignored: "
                                             "it styles pictures and DOT (--to png, svg, pdf or "
                                             "dot), not pass\n"));
}

/* --entry chooses among a Python file's classes and functions; an input
 * of another kind holds one graph, which is read (the oracle reads a
 * `.pt2` whatever --entry says) with a warning that names the option and
 * the kind (it was ignored silently). */
static void
test_entry_not_python (void)
{
  static const char listing[] =
      "graph():\n"
      "    %x : [num_users=1] = placeholder[target=x]\n"
      "    %relu : [num_users=1] = call_method[target=relu](args = (%x,), kwargs = {})\n"
      "    return relu\n";
  g_autofree char *program = data_path ("programs", "attention_manual.ep.txt", NULL);
  g_autofree char *readable = data_path ("programs", "attention_manual.readable.txt", NULL);
  g_autofree char *archive = data_path ("programs", "attention_manual.pt2", NULL);
  g_autofree char *dot = data_path ("dot", "chain.dot", NULL);
  g_autofree char *python = data_path ("..", "..", "data", "examples",
                                       "subgraph_rewriter_basic_use.py", NULL);
  g_auto (Run) plain = { 0 };
  g_auto (Run) entry = { 0 };
  g_auto (Run) rewrite = { 0 };
  const char *args_plain[] = { "graph", "-", NULL };
  const char *args_entry[] = { "graph", "-", "--entry", "M", NULL };
  const char *args_rewrite[] = { "rewrite", "-", "--entry", "M", "--pattern", python, NULL };
  const char *paths[] = { program, readable, archive, dot };
  const char *kinds[] = { "a torch.export program's text", "a program's print_readable() text",
                          "a torch.export archive", "a DOT file" };

  run_graft (&plain, NULL, listing, args_plain);
  run_graft (&entry, NULL, listing, args_entry);
  g_assert_cmpint (entry.status, ==, 0);
  g_assert_cmpstr (entry.out, ==, plain.out);
  g_assert_cmpstr (entry.err, ==,
                   "-: warning: --entry M is ignored: an FX graph listing holds one graph, read "
                   "as printed (--entry picks what to trace in Python)\n");
  /* Every command that reads INPUT (here through the pattern's loader). */
  run_graft (&rewrite, NULL, listing, args_rewrite);
  g_assert_cmpint (rewrite.status, ==, 0);
  g_assert_true (g_str_has_prefix (rewrite.err, "-: warning: --entry M is ignored: "));
  g_assert_true (g_str_has_suffix (rewrite.err, "\nreplaced 0 matches\n"));
  /* So is a REF's NAME for a pattern or replacement file that is not
   * Python (`--pattern p.graph:foo`). */
  {
    g_autoptr (GFileIOStream) stream = NULL;
    g_autoptr (GFile) file = g_file_new_tmp ("graft-pattern-XXXXXX.graph", &stream, NULL);
    g_autofree char *path = g_file_get_path (file);
    g_autofree char *ref = g_strdup_printf ("%s:foo", path);
    g_autofree char *err = g_strdup_printf ("%s: warning: the name 'foo' of --pattern %s is "
                                            "ignored: an FX graph listing holds one graph, read "
                                            "as printed (a REF's name picks a definition in "
                                            "Python)\n",
                                            path, ref);
    const char      *args_named[] = { "match", python, "--pattern", ref, NULL };
    const char      *args_unnamed[] = { "match", python, "--pattern", path, NULL };
    g_auto (Run) named = { 0 };
    g_auto (Run) unnamed = { 0 };

    g_assert_true (g_file_set_contents (path, listing, -1, NULL));
    run_graft (&named, NULL, NULL, args_named);
    run_graft (&unnamed, NULL, NULL, args_unnamed);
    g_assert_cmpint (named.status, ==, 0);
    g_assert_cmpstr (named.out, ==, unnamed.out);
    g_assert_cmpstr (named.err, ==, err);
    g_assert_cmpstr (unnamed.err, ==, "");
    g_unlink (path);
  }
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_auto (Run) without = { 0 };
      g_auto (Run) with = { 0 };
      const char      *args_without[] = { "code", paths[i], NULL };
      const char      *args_with[] = { "code", paths[i], "--entry=Net", NULL };
      g_autofree char *err = g_strdup_printf ("%s: warning: --entry Net is ignored: %s holds one "
                                              "graph, read as printed (--entry picks what to "
                                              "trace in Python)\n",
                                              paths[i], kinds[i]);

      run_graft (&without, NULL, NULL, args_without);
      run_graft (&with, NULL, NULL, args_with);
      g_assert_cmpint (without.status, ==, 0);
      g_assert_cmpint (with.status, ==, 0);
      g_assert_cmpstr (with.out, ==, without.out);
      g_assert_cmpstr (with.err, ==, err);
    }
}

/* A binary file (an executable, a picture, an empty zip archive, UTF-16
 * text) is not a text file, said at FILE:1:1 (it was "invalid
 * non-printable character U+007F" for an executable); a text with a
 * stray NUL byte further down keeps Python's words, at the byte
 * (errors/nul_bytes). */
static void
test_binary_input (void)
{
  static const struct
  {
    const char *name;
    const char *bytes;
    gsize       length;
  } files[] = {
    { "elf", "\x7f"
             "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0",
      20 },
    { "p.png", "\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16 },
    { "e.zip", "PK\x05\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 22 },
    { "u16.py", "\xff\xfei\0m\0p\0o\0r\0t\0", 14 },
    /* Bytes that read as Python before the first NUL, whose syntax error
     * came first ("invalid syntax" at 1:1, at 1:7): /proc/self/auxv,
     * /proc/self/cmdline and /proc/self/environ as they start. */
    { "auxv", "!\0\0\0\0\0\0\0\0\x10\0\0", 12 },
    { "cmdline", "graft\0code\0/proc/self/cmdline\0", 30 },
    { "environ", "SHELL=/bin/bash\0HOME=/root\0", 27 },
  };
  g_autofree char *dir = g_dir_make_tmp ("graft-cli-XXXXXX", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i].name, NULL);
      g_autofree char *err = g_strdup_printf ("%s:1:1: error: not a text file (it holds NUL "
                                              "bytes): expected a Python module, an FX graph "
                                              "listing, a DOT graph or a torch.export program\n",
                                              path);
      const char      *args[] = { "code", path, NULL };
      const char      *args_stdin[] = { "graph", "-", NULL };
      g_auto (Run) run = { 0 };
      g_auto (Run) from_stdin = { 0 };

      g_assert_true (g_file_set_contents (path, files[i].bytes, files[i].length, NULL));
      run_graft (&run, NULL, NULL, args);
      g_assert_cmpint (run.status, ==, 1);
      g_assert_cmpstr (run.out, ==, "");
      g_assert_cmpstr (run.err, ==, err);
      run_graft_reading (&from_stdin, NULL, path, args_stdin);
      g_assert_cmpint (from_stdin.status, ==, 1);
      g_assert_true (g_str_has_prefix (from_stdin.err, "-:1:1: error: not a text file "));
      g_unlink (path);
    }
  g_rmdir (dir);
}

/* An input that would wait for data forever (/proc/kmsg and /dev/kmsg
 * wait for the kernel's next message) is refused at once instead: cli.md
 * promises that no input hangs graft.  Read through a node of its own
 * for /dev/kmsg (root only: reading takes nothing from anyone). */
static void
test_input_waits (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-cli-XXXXXX", NULL);
  g_autofree char *kmsg = g_build_filename (dir, "kmsg", NULL);
  g_autofree char *err = g_strdup_printf ("%s:1:1: error: cannot read the file: it waits for "
                                          "data that may never come\n",
                                          kmsg);
  const char      *args[] = { "code", kmsg, NULL };
  g_auto (Run) run = { 0 };
  int fd;

  g_assert_nonnull (dir);
  if (geteuid () != 0 || mknod (kmsg, S_IFCHR | 0400, makedev (1, 11)) != 0)
    {
      g_rmdir (dir);
      g_test_skip ("needs root to make a device node");
      return;
    }
  fd = open (kmsg, O_RDONLY | O_NONBLOCK);
  if (fd < 0)
    {
      g_unlink (kmsg);
      g_rmdir (dir);
      g_test_skip ("the kernel's log cannot be read here");
      return;
    }
  close (fd);
  run_graft (&run, NULL, NULL, args);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_cmpstr (run.err, ==, err);
  g_unlink (kmsg);
  g_rmdir (dir);
}

/* Assigning to an imported module's attribute would change what later
 * code means; Graft refuses it, at module level too, where other
 * assignments it cannot model are skipped (torch.fx runs the file and
 * would trace `x + 3`). */
static void
test_module_attribute_assignment (void)
{
  g_auto (Run) top = { 0 };
  g_auto (Run) inside = { 0 };
  const char *args[] = { "code", "-", NULL };

  run_graft (&top, NULL,
             "import math\nimport torch\nmath.pi = 3\ndef forward(x):\n    return x + math.pi\n",
             args);
  g_assert_cmpint (top.status, ==, 1);
  g_assert_cmpstr (top.out, ==, "");
  g_assert_cmpstr (top.err, ==,
                   "-:3:1: error: cannot set attribute 'pi' of module 'math': "
                   "Graft does not model changes to imported modules\n");
  run_graft (&inside, NULL, "import torch\ndef forward(x):\n    torch.foo = 3\n    return x\n",
             args);
  g_assert_cmpint (inside.status, ==, 1);
  g_assert_cmpstr (inside.err, ==,
                   "-:3:5: error: cannot set attribute 'foo' of module 'torch': "
                   "Graft does not model changes to imported modules\n");
}

/* A source and the `graft code` diagnostic it gives (%NULL: it passes). */
typedef struct
{
  const char *src;
  const char *err;
} CodeCase;

/* Runs `graft code -` on @head + each case's source + @tail: a failing
 * case prints @place + its diagnostic, a passing one @out. */
static void
check_code_cases (const char     *head,
                  const char     *tail,
                  const CodeCase *cases,
                  guint           n,
                  const char     *place,
                  const char     *out)
{
  for (guint i = 0; i < n; i++)
    {
      g_auto (Run) run = { 0 };
      const char      *args[] = { "code", "-", NULL };
      g_autofree char *src = g_strconcat (head, cases[i].src, tail, NULL);

      run_graft (&run, NULL, src, args);
      if (cases[i].err == NULL)
        {
          g_assert_cmpint (run.status, ==, 0);
          g_assert_cmpstr (run.out, ==, out);
        }
      else
        {
          g_autofree char *err = g_strconcat (place, cases[i].err, "\n", NULL);

          g_assert_cmpint (run.status, ==, 1);
          g_assert_cmpstr (run.out, ==, "");
          g_assert_cmpstr (run.err, ==, err);
        }
    }
}

/* An attribute an OpOverload does not have (`torch.ops.aten.relu.default
 * .default`) is torch 2.6's AttributeError, located at the expression as
 * the oracle puts it (Graft recorded it as a target), and caught by a
 * handler; the OpOverload's own names stay, its packet is the packet. */
static void
test_aten_overload_attribute_unknown (void)
{
  static const CodeCase cases[] = {
    { "    return torch.ops.aten.relu.default.default(x)\n",
      "-:5:12: error: AttributeError: 'OpOverload' object has no attribute 'default'" },
    { "    try:\n        f = torch.ops.aten.relu.default.Tensor\n    except AttributeError:\n"
      "        f = torch.relu\n    return f(x)\n",
      NULL },
    { "    f = torch.ops.aten.relu.default._schema\n    return torch.relu(x)\n", NULL },
    /* Torch's other attributes of an OpOverload are no operators (main
     * recorded `torch.ops.aten.relu.default.decompose(x)`). */
    { "    return torch.ops.aten.relu.default.decompose(x)\n",
      "-:5:12: error: torch.ops.aten.relu.default.decompose is not an operator" },
    { "    return torch.ops.aten.relu.default.py_kernels.index(x)\n",
      "-:5:12: error: torch.ops.aten.relu.default.py_kernels.index is not an operator" },
    /* A packet's overloads() is modelled (golden op_packet_overloads); its
     * other methods are not. */
    { "    return torch.ops.aten.relu._dir()\n",
      "-:5:12: error: the attribute '_dir' of an OpOverloadPacket is not modelled by "
      "Graft's tracer" },
  };

  g_auto (Run) run = { 0 };
  const char *args[] = { "code", "-", NULL };

  check_code_cases ("import torch\n\n\ndef forward(x):\n", "", cases, G_N_ELEMENTS (cases), "",
                    "def forward(self, x):\n    relu = torch.relu(x);  x = None\n    return "
                    "relu\n");
  /* An overload's packet is the packet (it was recorded as the target
   * `torch.ops.aten.relu.default.overloadpacket`). */
  run_graft (&run, NULL,
             "import torch\n\n\ndef forward(x):\n    o = torch.ops.aten.relu.default\n"
             "    return o.overloadpacket(x), o.overloadpacket.default(x)\n",
             args);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==,
                   "def forward(self, x):\n    relu = torch.ops.aten.relu(x)\n"
                   "    relu_default = torch.ops.aten.relu.default(x);  x = None\n"
                   "    return (relu, relu_default)\n");
}

/* `torch.ops.aten.NAME.OVERLOAD` with a name torch 2.6 does not have is
 * its AttributeError, located at the expression as both oracles put it
 * (Graft recorded any such call; fuzz8's corpus diff against torch 2.6
 * found `torch.ops.aten.sum.dim_InsiLtt`).  A handler catches it; a
 * packet called, `default` and a private op stay. */
static void
test_aten_overload_unknown (void)
{
  static const CodeCase cases[] = {
    { "    return torch.ops.aten.relu.bogus(x)\n",
      "-:5:12: error: AttributeError: The underlying op of 'aten.relu' has no overload name "
      "'bogus'" },
    { "    return torch.ops.aten.bogus_op.default(x)\n",
      "-:5:12: error: AttributeError: '_OpNamespace' 'aten' object has no attribute 'bogus_op'" },
    { "    try:\n        f = torch.ops.aten.relu.Tensor\n    except AttributeError:\n"
      "        f = torch.relu\n    return f(x)\n",
      NULL },
  };
  g_auto (Run) run = { 0 };
  const char *args[] = { "code", "-", NULL };

  check_code_cases ("import torch\n\n\ndef forward(x):\n", "", cases, G_N_ELEMENTS (cases), "",
                    "def forward(self, x):\n    relu = torch.relu(x);  x = None\n    return "
                    "relu\n");
  run_graft (&run, NULL,
             "import torch\n\n\ndef forward(x):\n    aten = torch.ops.aten\n"
             "    return aten.sum.default(x), aten.relu(x), aten._to_copy.default(x)\n",
             args);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==,
                   "def forward(self, x):\n    sum_default = torch.ops.aten.sum.default(x)\n"
                   "    relu = torch.ops.aten.relu(x)\n"
                   "    _to_copy_default = torch.ops.aten._to_copy.default(x);  x = None\n"
                   "    return (sum_default, relu, _to_copy_default)\n");
}

/* A set whose ints an item Graft does not know the slot of may have moved
 * (CPython walks `{2, 9, 1}` less 9 as 2, 1), or whose pop() starts where
 * a pop() of such an item left off, is refused when walked, never guessed;
 * clear() gives the set a new table.  So is a set of several traced values
 * (CPython walks them in the order of their addresses). */
static void
test_set_order_unknown (void)
{
  static const CodeCase cases[] = {
    { "    s = {2, 9, 1}\n    s.discard(9)\n    return x, list(s)\n",
      "-:7:15: error: the order of a set's items is CPython's hash order, and an item that was "
      "in it may have moved them past their slots: sort it (sorted(s)) first" },
    { "    s = {2, 9, 1}\n    s.remove(9)\n    s |= {3}\n    return x, s.pop()\n",
      "-:8:15: error: the order of a set's items is CPython's hash order, and an item that was "
      "in it may have moved them past their slots: sort it (sorted(s)) first" },
    { "    s = {9}\n    s.pop()\n    s.clear()\n    s.update([1, 2])\n    return x, s.pop()\n",
      "-:9:15: error: pop() starts past the slot of the set's last pop(), which Graft does not "
      "know: sort it (sorted(s)) first" },
    { "    y = x + 1\n    return x, sum({x, y})\n",
      "-:6:15: error: a set of traced values is walked in the order of their addresses, which "
      "changes from run to run: use a list" },
    { "    s = {x, x + 1}\n    s.discard(3)\n    return [t for t in s]\n",
      "-:7:24: error: a set of traced values is walked in the order of their addresses, which "
      "changes from run to run: use a list" },
    { "    s = {2, 9, 1}\n    s.clear()\n    s.update([2, 1])\n    return x, list(s)\n", NULL },
  };

  check_code_cases ("import torch\n\n\ndef forward(x):\n", "", cases,
                    G_N_ELEMENTS (cases), "", "def forward(self, x):\n    return (x, [1, 2])\n");
}

/* An attribute of a constant tensor that is not a method
 * (`requires_grad`, `is_cuda`, `grad`, `is_sparse`) is refused: taken for
 * a method, it was true and never None, so `1 if t.requires_grad else 2`
 * gave 1 where torch gives 2.  shape, dtype, ndim and T of a tensor whose
 * make Graft knows stay. */
static void
test_tensor_data_attribute (void)
{
  static const CodeCase cases[] = {
    { "    return x + (1 if torch.ones(2).requires_grad else 2)\n",
      "-:5:22: error: the attribute 'requires_grad' of a constant tensor is not modelled by "
      "Graft's tracer" },
    { "    return x, torch.ones(2, 3).sum(0).grad is None\n",
      "-:5:15: error: the attribute 'grad' of a constant tensor is not modelled by Graft's "
      "tracer" },
    { "    t = torch.zeros(3)\n    return x, t.ndim, t.is_cuda\n",
      "-:6:23: error: the attribute 'is_cuda' of a constant tensor is not modelled by Graft's "
      "tracer" },
    { "    return x, torch.einsum('ij->j', torch.ones(2, 3)).is_sparse\n",
      "-:5:15: error: the attribute 'is_sparse' of a constant tensor is not modelled by Graft's "
      "tracer" },
    { "    t = torch.ones(2, 3)\n    return x, t.sum(0).shape, t.T.shape, t.ndim\n", NULL },
  };

  check_code_cases ("import torch\n\n\ndef forward(x):\n", "", cases, G_N_ELEMENTS (cases),
                    "", "def forward(self, x):\n    return (x, (3,), (3, 2), 2)\n");
}

/* `==`, `!=` and `in` of an object whose class defines __eq__ (a
 * dataclass's own too) run it in Python: refused, never compared by
 * identity (`(1, C()) != (1, C())` is False); so is a dataclass's with a
 * NaN field (torch 1.13's Python says True, 2.6's False); a dataclass's
 * generated one otherwise and a traced value's are kept. */
static void
test_user_eq (void)
{
  static const CodeCase cases[] = {
    { "    return x, C() == C()\n",
      "-:13:15: error: '==' with a 'C' runs its class's __eq__, which Graft's tracer does not "
      "model" },
    { "    return x, (1, C()) != (1, C())\n",
      "-:13:15: error: '!=' with a 'C' runs its class's __eq__, which Graft's tracer does not "
      "model" },
    { "    return x, C() in [D(1)]\n",
      "-:13:15: error: 'in' with a 'C' runs its class's __eq__, which Graft's tracer does not "
      "model" },
    { "    n = float('nan')\n    return x, D(n) == D(n)\n",
      "-:14:15: error: '==' with a 'D' whose field is NaN: Python compares it by identity "
      "(3.11) or not (3.13), which Graft's tracer does not model" },
    { "    return x, D(1) == D(1), D(1) != D(2), x == 3\n", NULL },
  };

  check_code_cases ("import torch\nfrom dataclasses import dataclass\n\n\n@dataclass\nclass D:\n"
                    "    a: int\n\n\nclass C:\n    __eq__ = lambda self, other: True\n"
                    "def forward(x):\n",
                    "", cases, G_N_ELEMENTS (cases), "",
                    "def forward(self, x):\n    eq = x == 3\n    return (x, True, True, eq)\n");
}

/* field()'s arguments other than default, default_factory and kw_only
 * are refused; `_: KW_ONLY` (once refused: read as a field, `K(1, 5).b`
 * was 5) makes `b` keyword-only, so `K(1, 5)` is Python's TypeError.
 * (InitVar and kw_only: tests/data/golden/dataclass_initvar.py and
 * dataclass_kw_only.py.) */
static void
test_dataclass_unmodelled (void)
{
  static const CodeCase cases[] = {
    { "    b: int = dataclasses.field(default=2, doc=\"b\")\n",
      "-:9:14: error: field(doc=...) is not modelled by Graft's tracer" },
    { "    _: KW_ONLY\n    b: int = 2\n",
      "-:14:16: error: TypeError: K.__init__() takes 2 positional arguments but 3 were given" },
    { "    _: dataclasses.KW_ONLY\n    b: int = 2\n",
      "-:14:16: error: TypeError: K.__init__() takes 2 positional arguments but 3 were given" },
    { "    b: int = 2\n", NULL },
  };

  check_code_cases ("import torch\nimport dataclasses\n"
                    "from dataclasses import dataclass, InitVar, KW_ONLY\n\n\n"
                    "@dataclass\nclass K:\n    a: int\n",
                    "\n\ndef forward(x):\n    return x + K(1, 5).b, str(K(1))\n", cases,
                    G_N_ELEMENTS (cases), "",
                    "def forward(self, x):\n    add = x + 5;  x = None\n"
                    "    return (add, 'K(a=1, b=2)')\n");
}

/* A method or torch function of constant tensors that gives no tensor (a
 * bool, an int, a str, a dtype) is refused: it was a new constant tensor,
 * printed as a `_tensor_constant0` get_attr where torch prints `True`. */
static void
test_constant_tensor_not_tensor (void)
{
  static const CodeCase cases[] = {
    { "self.b.is_floating_point()", "is_floating_point() of a constant tensor depends on its "
                                    "data, which Graft does not compute" },
    { "self.b.type()", "type() of a constant tensor depends on its data, which Graft does not "
                       "compute" },
    { "self.b.storage_offset()", "storage_offset() of a constant tensor depends on its data, "
                                 "which Graft does not compute" },
    { "torch.is_tensor(self.b)", "torch.is_tensor() runs eagerly on constants and gives no "
                                 "tensor; its result depends on data Graft does not compute" },
    { "torch.equal(self.b, self.b)", "torch.equal() runs eagerly on constants and gives no "
                                     "tensor; its result depends on data Graft does not "
                                     "compute" },
    { "torch.is_grad_enabled()", "torch.is_grad_enabled() runs eagerly on constants and gives "
                                 "no tensor; its result depends on data Graft does not "
                                 "compute" },
    /* Iterable in Python: refused, not called a TypeError. */
    { "list(self.b)", "iterating or unpacking a constant tensor (or what its chunk() or "
                      "split() gives) is not modelled by Graft's tracer" },
    { "self.b.float().cos().shape", NULL },
  };

  check_code_cases ("import torch\n\n\nclass M(torch.nn.Module):\n    def __init__(self):\n"
                    "        super().__init__()\n        self.register_buffer(\"b\", "
                    "torch.ones(2))\n\n"
                    "    def forward(self, x):\n        return x, ",
                    "\n", cases, G_N_ELEMENTS (cases),
                    "-:10:19: error: ", "def forward(self, x):\n    return (x, (2,))\n");
}

/* A keyword argument a builtin or a str/list/dict method does not read is
 * refused: `key=` was dropped, so `sorted([3, 5], key=lambda v: -v)`
 * printed [3, 5] where torch prints [5, 3]; the ones it reads are kept. */
static void
test_builtin_keywords (void)
{
  static const CodeCase cases[] = {
    { "sorted([3, 5], key=lambda v: -v)", "the keyword argument 'key' of sorted() is not "
                                          "modelled by Graft's tracer" },
    { "max([3, 5], key=lambda v: -v)", "the keyword argument 'key' of max() is not modelled "
                                       "by Graft's tracer" },
    { "int('10', base=2)", "the keyword argument 'base' of int() is not modelled by Graft's "
                           "tracer" },
    { "'a,b,c'.split(',', maxsplit=1)", "the keyword argument 'maxsplit' of str.split() is not "
                                        "modelled by Graft's tracer" },
    { "sorted([3, 5], reverse=True), sum([1], start=2), list(enumerate([5], start=1))", NULL },
  };

  check_code_cases ("import torch\n\n\ndef forward(x):\n    return x, ", "\n", cases,
                    G_N_ELEMENTS (cases), "-:5:15: error: ",
                    "def forward(self, x):\n    return (x, [5, 3], 3, [(1, 5)])\n");
}

/* -o writes the same text as stdout, replaces an existing file, and on
 * failure leaves nothing behind. */
static void
test_output_file (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-cli-XXXXXX", NULL);
  g_autofree char *target = g_build_filename (dir, "out.py", NULL);
  g_autofree char *model = data_path ("..", "..", "data", "examples",
                                      "subgraph_rewriter_basic_use.py", NULL);
  g_autofree char *written = NULL;
  g_auto (Run) to_stdout = { 0 };
  g_auto (Run) to_file = { 0 };
  g_auto (Run) bad_dir = { 0 };
  const char      *args_stdout[] = { "code", model, NULL };
  const char      *args_file[] = { "code", model, "-o", target, NULL };
  g_autofree char *bad_target = g_build_filename (dir, "missing", "out.py", NULL);
  const char      *args_bad[] = { "code", model, "-o", bad_target, NULL };
  g_autoptr (GDir) d = NULL;
  guint n_files = 0;

  g_assert_nonnull (dir);
  g_file_set_contents (target, "old content\n", -1, NULL);
  run_graft (&to_stdout, NULL, NULL, args_stdout);
  run_graft (&to_file, NULL, NULL, args_file);
  g_assert_cmpint (to_file.status, ==, 0);
  g_assert_cmpstr (to_file.out, ==, "");
  g_file_get_contents (target, &written, NULL, NULL);
  g_assert_cmpstr (written, ==, to_stdout.out);

  run_graft (&bad_dir, NULL, NULL, args_bad);
  g_assert_cmpint (bad_dir.status, ==, 1);
  g_assert_true (g_str_has_prefix (bad_dir.err, bad_target));

  /* Only out.py is in the folder: no temporary file was left. */
  d = g_dir_open (dir, 0, NULL);
  while (g_dir_read_name (d) != NULL)
    n_files++;
  g_assert_cmpuint (n_files, ==, 1);
  g_unlink (target);
  g_rmdir (dir);
}

/* -o with an extension that names another format than the one written
 * (`graft rewrite m.py -o out.png`): the file holds what cli.md and the
 * oracle write (code, by default), standard output stays empty, and one
 * warning line says what was written and how to get what the name
 * promised; a format chosen with --to, or a name that fits, is quiet. */
static void
test_output_name (void)
{
  static const struct
  {
    const char *args[6];        /* after INPUT, before -o */
    const char *name;           /* of the -o file */
    const char *stdout_args[6]; /* what writes the same to stdout */
    const char *warning;        /* after "PATH: warning: ", or NULL */
  } cases[] = {
    { { "rewrite", NULL },
      "out.png",
      { "rewrite", NULL },
      "wrote Python code, not a PNG image (--to png writes one)" },
    { { "rewrite", "--dce", NULL },
      "out.graph",
      { "rewrite", "--dce", NULL },
      "wrote Python code, not an FX graph listing (--to graph writes one)" },
    { { "rewrite", "--to", "code", NULL }, "out.png", { "rewrite", NULL }, NULL },
    { { "rewrite", "--to", "graph", NULL },
      "out.graph",
      { "rewrite", "--to", "graph", NULL },
      NULL },
    { { "code", NULL },
      "out.svg",
      { "code", NULL },
      "wrote Python code, not an SVG image (graft render draws one)" },
    { { "code", NULL },
      "out.graph",
      { "code", NULL },
      "wrote Python code, not an FX graph listing (graft graph writes one)" },
    { { "code", NULL }, "out.json", { "code", NULL }, "wrote Python code, not a JSON graph" },
    { { "code", NULL }, "out.py", { "code", NULL }, NULL },
    { { "code", "--to", "readable", NULL }, "out.py", { "code", "--to", "readable", NULL }, NULL },
    { { "graph", NULL },
      "out.py",
      { "graph", NULL },
      "wrote an FX graph listing, not Python code (graft code writes it)" },
    { { "graph", NULL }, "out.txt", { "graph", NULL }, NULL },
    { { "match", NULL },
      "out.json",
      { "match", NULL },
      "wrote the matches as text, not JSON (--json writes them as JSON)" },
    { { "match", "--json", NULL },
      "out.pdf",
      { "match", "--json", NULL },
      "wrote the matches as JSON, not a PDF document (graft render --pattern draws them)" },
    { { "match", "--json", NULL }, "out.json", { "match", "--json", NULL }, NULL },
  };
  g_autofree char *dir = g_dir_make_tmp ("graft-cli-XXXXXX", NULL);
  g_autofree char *model = data_path ("..", "..", "data", "examples",
                                      "subgraph_rewriter_basic_use.py", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *target = g_build_filename (dir, cases[i].name, NULL);
      g_autoptr (GPtrArray) args = g_ptr_array_new ();
      g_autoptr (GPtrArray) stdout_args = g_ptr_array_new ();
      g_autofree char *written = NULL;
      g_autofree char *err = NULL;
      g_auto (Run) to_file = { 0 };
      g_auto (Run) to_stdout = { 0 };

      g_ptr_array_add (args, (gpointer) cases[i].args[0]);
      g_ptr_array_add (args, model);
      for (guint j = 1; cases[i].args[j] != NULL; j++)
        g_ptr_array_add (args, (gpointer) cases[i].args[j]);
      g_ptr_array_add (args, (gpointer) "-o");
      g_ptr_array_add (args, target);
      g_ptr_array_add (args, NULL);
      g_ptr_array_add (stdout_args, (gpointer) cases[i].stdout_args[0]);
      g_ptr_array_add (stdout_args, model);
      for (guint j = 1; cases[i].stdout_args[j] != NULL; j++)
        g_ptr_array_add (stdout_args, (gpointer) cases[i].stdout_args[j]);
      g_ptr_array_add (stdout_args, NULL);

      run_graft (&to_file, NULL, NULL, (const char *const *) args->pdata);
      run_graft (&to_stdout, NULL, NULL, (const char *const *) stdout_args->pdata);
      g_assert_cmpint (to_file.status, ==, 0);
      g_assert_cmpint (to_stdout.status, ==, 0);
      g_assert_cmpstr (to_file.out, ==, "");
      g_assert_true (g_file_get_contents (target, &written, NULL, NULL));
      g_assert_cmpstr (written, ==, to_stdout.out);
      /* The warning comes first; the rest of standard error (rewrite's
       * count) is as without -o. */
      err = cases[i].warning != NULL
                ? g_strdup_printf ("%s: warning: %s\n%s", target, cases[i].warning, to_stdout.err)
                : g_strdup (to_stdout.err);
      g_assert_cmpstr (to_file.err, ==, err);
      g_unlink (target);
    }
  g_rmdir (dir);
}

static guint
count_files (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static void
remove_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

/* A character device like SYSTEM_PATH (MAJOR, MINOR) for a test to write
 * into.  As root, a node of its own in DIR: a regression that renames a
 * file over the device (it replaced /dev/null with a regular file once,
 * and links are followed) must not reach the system's.  Others cannot
 * replace the system's, so they get it (as does root where nodes cannot
 * be made). */
static char *
test_device (const char *dir,
             const char *name,
             const char *system_path,
             guint       major_number,
             guint       minor_number)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  if (geteuid () != 0 ||
      mknod (path, S_IFCHR | 0666, makedev (major_number, minor_number)) != 0)
    return g_strdup (system_path);
  return g_steal_pointer (&path);
}

/* -o into what is not a regular file.  A device or a FIFO is written in
 * place: the temporary file renamed over it replaced /dev/null with a
 * regular file when run as root (this test reaches devices of its own,
 * test_device(), in a folder of their own, through links of its folder).  A link to a file is
 * followed: the file is replaced (made, if the link dangles), the link
 * stays.  A write that fails (/dev/full) is status 1. */
static void
test_output_special (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-cli-XXXXXX", NULL);
  g_autofree char *model = data_path ("..", "..", "data", "examples",
                                      "subgraph_rewriter_basic_use.py", NULL);
  g_autofree char *null = g_build_filename (dir, "null", NULL);
  g_autofree char *full = g_build_filename (dir, "full", NULL);
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  g_autofree char *sub = g_build_filename (dir, "sub", NULL);
  g_autofree char *real = g_build_filename (sub, "real.py", NULL);
  g_autofree char *link = g_build_filename (dir, "link.py", NULL);
  g_autofree char *dangling = g_build_filename (dir, "dangling.py", NULL);
  g_autofree char *made = g_build_filename (sub, "new.py", NULL);
  g_autofree char *made_text = NULL;
  g_autofree char *devices = g_dir_make_tmp ("graft-cli-devices-XXXXXX", NULL);
  g_autofree char *null_device = NULL;
  g_autofree char *full_device = NULL;
  GStatBuf         st;
  g_autofree char *written = NULL;
  g_autofree char *full_err = g_strdup_printf ("%s:1:1: error: cannot write the file: %s\n", full,
                                               g_strerror (ENOSPC));
  const char      *args_stdout[] = { "code", model, NULL };
  const char      *args_null[] = { "rewrite", model, "-o", null, NULL };
  const char      *args_full[] = { "code", model, "-o", full, NULL };
  const char      *args_fifo[] = { "code", model, "-o", fifo, NULL };
  const char      *args_link[] = { "code", model, "-o", link, NULL };
  const char      *args_dangling[] = { "code", model, "-o", dangling, NULL };
  g_auto (Run) to_stdout = { 0 };
  g_auto (Run) to_null = { 0 };
  g_auto (Run) to_full = { 0 };
  g_auto (Run) to_fifo = { 0 };
  g_auto (Run) to_link = { 0 };
  g_auto (Run) to_dangling = { 0 };
  char   buffer[4096];
  gssize n;
  int    fd;

  g_assert_nonnull (dir);
  g_assert_nonnull (devices);
  null_device = test_device (devices, "null", "/dev/null", 1, 3);
  full_device = test_device (devices, "full", "/dev/full", 1, 7);
  run_graft (&to_stdout, NULL, NULL, args_stdout);
  g_assert_cmpint (symlink (null_device, null), ==, 0);
  g_assert_cmpint (symlink (full_device, full), ==, 0);
  run_graft (&to_null, NULL, NULL, args_null);
  g_assert_cmpint (to_null.status, ==, 0);
  g_assert_cmpstr (to_null.err, ==, "replaced 2 matches\n");
  g_assert_true (g_file_test (null, G_FILE_TEST_IS_SYMLINK));
  g_assert_cmpint (g_stat (null_device, &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));
  run_graft (&to_full, NULL, NULL, args_full);
  g_assert_cmpint (to_full.status, ==, 1);
  g_assert_cmpstr (to_full.err, ==, full_err);
  g_assert_true (g_file_test (full, G_FILE_TEST_IS_SYMLINK));
  g_assert_cmpint (g_stat (full_device, &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));

  /* A FIFO with a reader (opened first, so that neither side waits). */
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  fd = open (fifo, O_RDONLY | O_NONBLOCK);
  g_assert_cmpint (fd, >=, 0);
  run_graft (&to_fifo, NULL, NULL, args_fifo);
  g_assert_cmpint (to_fifo.status, ==, 0);
  n = read (fd, buffer, sizeof buffer - 1);
  close (fd);
  g_assert_cmpint (n, >, 0);
  buffer[n] = '\0';
  g_assert_cmpstr (buffer, ==, to_stdout.out);
  g_assert_false (g_file_test (fifo, G_FILE_TEST_IS_REGULAR));

  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  g_assert_true (g_file_set_contents (real, "old\n", -1, NULL));
  g_assert_cmpint (symlink ("sub/real.py", link), ==, 0);
  run_graft (&to_link, NULL, NULL, args_link);
  g_assert_cmpint (to_link.status, ==, 0);
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_get_contents (real, &written, NULL, NULL));
  g_assert_cmpstr (written, ==, to_stdout.out);
  /* A dangling link: the file it names is made, as open() makes it. */
  g_assert_cmpint (symlink ("sub/new.py", dangling), ==, 0);
  run_graft (&to_dangling, NULL, NULL, args_dangling);
  g_assert_cmpint (to_dangling.status, ==, 0);
  g_assert_true (g_file_test (dangling, G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_get_contents (made, &made_text, NULL, NULL));
  g_assert_cmpstr (made_text, ==, to_stdout.out);
  /* No temporary file left beside the links or the files. */
  g_assert_cmpuint (count_files (sub), ==, 2);
  g_assert_cmpuint (count_files (dir), ==, 6);

  g_unlink (made);
  g_unlink (real);
  g_rmdir (sub);
  remove_dir (dir);
  remove_dir (devices);
}

/* `-o LINK` where the links loop is refused, as open() refuses it (the
 * link was replaced by a file); a folder that takes no new file is named
 * (`-o /proc/version` said "No such file or directory" of a file that
 * exists).  Nothing is written in /proc: the target there does not exist,
 * and no file can be made there, by anyone. */
static void
test_output_refused (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-cli-XXXXXX", NULL);
  g_autofree char *model = data_path ("..", "..", "data", "examples",
                                      "subgraph_rewriter_basic_use.py", NULL);
  g_autofree char *loop1 = g_build_filename (dir, "loop1.py", NULL);
  g_autofree char *loop2 = g_build_filename (dir, "loop2.py", NULL);
  g_autofree char *loop_err = g_strdup_printf ("%s:1:1: error: cannot write the file: %s\n",
                                               loop1, g_strerror (ELOOP));
  const char      *proc_target = "/proc/self/graft-test-no-such-output.py";
  const char      *args_loop[] = { "code", model, "-o", loop1, NULL };
  const char      *args_proc[] = { "code", model, "-o", proc_target, NULL };
  g_auto (Run) to_loop = { 0 };
  g_auto (Run) to_proc = { 0 };

  g_assert_nonnull (dir);
  g_assert_cmpint (symlink ("loop2.py", loop1), ==, 0);
  g_assert_cmpint (symlink ("loop1.py", loop2), ==, 0);
  run_graft (&to_loop, NULL, NULL, args_loop);
  g_assert_cmpint (to_loop.status, ==, 1);
  g_assert_cmpstr (to_loop.out, ==, "");
  g_assert_cmpstr (to_loop.err, ==, loop_err);
  g_assert_true (g_file_test (loop1, G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_test (loop2, G_FILE_TEST_IS_SYMLINK));
  g_assert_cmpuint (count_files (dir), ==, 2);
  remove_dir (dir);

  if (!g_file_test ("/proc/self", G_FILE_TEST_IS_DIR))
    return;
  run_graft (&to_proc, NULL, NULL, args_proc);
  g_assert_cmpint (to_proc.status, ==, 1);
  g_assert_cmpstr (to_proc.out, ==, "");
  g_assert_true (g_str_has_prefix (to_proc.err, "/proc/self/graft-test-no-such-output.py:1:1: "
                                                "error: cannot write the file: no new file can "
                                                "be made in /proc/self: "));
  g_assert_false (g_file_test (proc_target, G_FILE_TEST_EXISTS));
}

/* Runs graft with @args and its standard output on the file @log opened
 * with @flags (O_APPEND: `>> log`, O_TRUNC: `> log`); returns the status. */
static int
run_graft_into (const char        *log,
                int                flags,
                const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  int fd = g_open (log, O_WRONLY | O_CLOEXEC | flags, 0600);

  g_assert_cmpint (fd, >=, 0);
  g_ptr_array_add (argv, (gpointer) graft_cli ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_take_stdout_fd (launcher, fd);
  g_subprocess_launcher_unsetenv (launcher, "GRAFT_CLI_TIMINGS");
  proc = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_wait (proc, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  return g_subprocess_get_exit_status (proc);
}

/* `-o /dev/stdout >> log`: the output is the file standard output writes
 * to, and goes through it, appended to the log (the log was replaced, its
 * old lines lost); the same when -o names the log itself.  With `> log`
 * the shell has emptied it, and the output is all it holds. */
static void
test_output_standard_output (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-cli-XXXXXX", NULL);
  g_autofree char *model = data_path ("..", "..", "data", "examples",
                                      "subgraph_rewriter_basic_use.py", NULL);
  g_autofree char *log = g_build_filename (dir, "log", NULL);
  g_autofree char *link = g_build_filename (dir, "link", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *text = NULL;
  const char      *args_code[] = { "code", model, NULL };
  const char      *args_stdout[] = { "code", model, "-o", "/dev/stdout", NULL };
  const char      *args_link[] = { "code", model, "-o", link, NULL };
  g_auto (Run) code = { 0 };

  g_assert_nonnull (dir);
  run_graft (&code, NULL, NULL, args_code);
  g_assert_cmpint (code.status, ==, 0);
  expected = g_strconcat ("old line\n", code.out, code.out, NULL);
  g_assert_true (g_file_set_contents (log, "old line\n", -1, NULL));
  g_assert_cmpint (symlink (log, link), ==, 0);
  if (g_file_test ("/dev/stdout", G_FILE_TEST_EXISTS))
    g_assert_cmpint (run_graft_into (log, O_APPEND, args_stdout), ==, 0);
  else
    g_assert_cmpint (run_graft_into (log, O_APPEND, args_link), ==, 0);
  g_assert_cmpint (run_graft_into (log, O_APPEND, args_link), ==, 0);
  g_assert_true (g_file_get_contents (log, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, expected);
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  g_clear_pointer (&text, g_free);

  g_assert_cmpint (run_graft_into (log, O_TRUNC, args_link), ==, 0);
  g_assert_true (g_file_get_contents (log, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, code.out);
  g_assert_cmpuint (count_files (dir), ==, 2);
  remove_dir (dir);
}

/* A standard output that cannot be written (a full disk: /dev/full) is
 * status 1 and a line that says why (it said only "cannot write to
 * standard output"). */
static void
test_stdout_full (void)
{
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *model = data_path ("..", "..", "data", "examples",
                                      "subgraph_rewriter_basic_use.py", NULL);
  g_autofree char *err = NULL;
  g_autofree char *expected = g_strdup_printf ("graft: cannot write to standard output: %s\n",
                                               g_strerror (ENOSPC));
  const char      *argv[] = { graft_cli (), "code", model, NULL };

  if (!g_file_test ("/dev/full", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /dev/full");
      return;
    }
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_stdout_file_path (launcher, "/dev/full");
  g_subprocess_launcher_unsetenv (launcher, "GRAFT_CLI_TIMINGS");
  proc = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 1);
  g_assert_cmpstr (err, ==, expected);
}

/* A regular file larger than a text may be (and not an archive) is
 * refused from its size, before reading any of it: it read 256 MiB
 * first (2 s, and as much memory, for a 300 MB file).  The file is
 * sparse; the largest child's resident memory shows it was not read. */
static void
test_huge_input (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-cli-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "huge.py", NULL);
  g_autofree char *err = g_strdup_printf ("%s:1:1: error: the input is larger than 256 MiB\n",
                                          path);
  const char      *args[] = { "code", path, NULL };
  g_auto (Run) run = { 0 };
  struct rusage usage;
  int           fd;

  fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, "import torch\n", 13), ==, 13);
  g_assert_cmpint (ftruncate (fd, (off_t) 300 * 1024 * 1024), ==, 0);
  close (fd);
  run_graft (&run, NULL, NULL, args);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.err, ==, err);
  g_assert_cmpint (getrusage (RUSAGE_CHILDREN, &usage), ==, 0);
  /* In KiB: below 200 MiB (valgrind's own included), where reading the
   * file took more than 256. */
  g_assert_cmpint (usage.ru_maxrss, <, 200 * 1024);
  g_unlink (path);
  g_rmdir (dir);
}

/* `graft render` and `graft rewrite --to png|svg|pdf` write the picture
 * atomically; the format comes from --to or -o's extension; pictures need
 * -o; a failed write leaves nothing behind. */
static void
test_render (void)
{
  g_autofree char    *dir = g_dir_make_tmp ("graft-render-XXXXXX", NULL);
  g_autofree char    *model = data_path ("..", "..", "data", "examples",
                                         "subgraph_rewriter_basic_use.py", NULL);
  g_autofree char    *png = g_build_filename (dir, "m.png", NULL);
  g_autofree char    *svg = g_build_filename (dir, "m.svg", NULL);
  g_autofree char    *pdf = g_build_filename (dir, "rewritten.pdf", NULL);
  g_autofree char    *bad = g_build_filename (dir, "missing", "m.png", NULL);
  g_autofree char    *contents = NULL;
  gsize               length = 0;
  static const guint8 png_magic[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

  {
    g_auto (Run) run = { 0 };
    const char *args[] = { "render", model, "--pattern", "pattern", "-o", png, NULL };

    run_graft (&run, NULL, NULL, args);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.err, ==, "2 matches\n");
    g_assert_true (g_file_get_contents (png, &contents, &length, NULL));
    g_assert_cmpuint (length, >, sizeof png_magic);
    g_assert_true (memcmp (contents, png_magic, sizeof png_magic) == 0);
    g_clear_pointer (&contents, g_free);
  }
  {
    g_auto (Run) run = { 0 };
    const char *args[] = { "render", model, "--to", "svg", "--style", "dark", "-o", svg, NULL };

    run_graft (&run, NULL, NULL, args);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_true (g_file_get_contents (svg, &contents, NULL, NULL));
    g_assert_true (g_str_has_prefix (contents, "<?xml"));
    g_clear_pointer (&contents, g_free);
  }
  {
    g_auto (Run) run = { 0 };
    const char *args[] = { "rewrite", model, "--to", "pdf", "-o", pdf, NULL };

    run_graft (&run, NULL, NULL, args);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.err, ==, "replaced 2 matches\n");
    g_assert_true (g_file_get_contents (pdf, &contents, NULL, NULL));
    g_assert_true (g_str_has_prefix (contents, "%PDF"));
    g_clear_pointer (&contents, g_free);
  }
  g_assert_cmpuint (count_files (dir), ==, 3);

  /* Usage errors: exit 2, nothing written. */
  {
    const char *const cases[][8] = {
      { "render", model, "--to", "png", NULL },
      { "render", model, NULL },
      { "render", model, "--to", "gif", "-o", png, NULL },
      { "render", model, "--style", "blue", "-o", png, NULL },
      { "rewrite", model, "--to", "svg", NULL },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_auto (Run) run = { 0 };

        run_graft (&run, NULL, NULL, cases[i]);
        g_assert_cmpint (run.status, ==, 2);
        g_assert_true (g_str_has_prefix (run.err, "graft "));
        g_assert_cmpstr (run.out, ==, "");
      }
  }
  /* Without --to, -o's extension names the format: what is wrong with it
   * is said (it was "--to png|svg|pdf|dot is required"). */
  {
    static const char *const outputs[] = { "m.bmp", "m", NULL };
    static const char *const expected[] = {
      "graft render: -o m.bmp: render writes .png, .svg, .pdf or .dot, not .bmp (or give --to "
      "png|svg|pdf|dot)\n",
      "graft render: -o m: no extension to take the format from; give --to png|svg|pdf|dot, or "
      "end PATH in .png, .svg, .pdf or .dot\n",
      "graft render: missing the format: give --to png|svg|pdf|dot, or -o PATH ending in .png, "
      ".svg, .pdf or .dot\n",
    };

    for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
      {
        g_auto (Run) run = { 0 };
        const char *args[] = { "render", model, "-o", outputs[i], NULL };

        if (outputs[i] == NULL)
          args[2] = NULL;
        run_graft (&run, dir, NULL, args);
        g_assert_cmpint (run.status, ==, 2);
        g_assert_cmpstr (run.err, ==, expected[i]);
      }
  }
  {
    g_auto (Run) run = { 0 };
    const char *args[] = { "render", model, "-o", bad, NULL };

    run_graft (&run, NULL, NULL, args);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_true (g_str_has_prefix (run.err, bad));
  }
  g_assert_cmpuint (count_files (dir), ==, 3);
  remove_dir (dir);
}

/* `graft explain`: the explainer's sentence on stdout; --at is required;
 * a node the graph lacks is a located error. */
static void
test_explain (void)
{
  g_autofree char *model = data_path ("explain", "leak.py", NULL);
  g_autofree char *expected_path = data_path ("explain", "leak.explain", NULL);
  g_autofree char *expected = NULL;
  g_auto (Run) ok = { 0 };
  g_auto (Run) no_at = { 0 };
  g_auto (Run) missing = { 0 };
  const char      *args_ok[] = { "explain", model, "--at", "relu_1", NULL };
  const char      *args_no_at[] = { "explain", model, NULL };
  const char      *args_missing[] = { "explain", model, "--at", "nope", NULL };
  g_autofree char *missing_error = NULL;

  g_assert_true (g_file_get_contents (expected_path, &expected, NULL, NULL));
  run_graft (&ok, NULL, NULL, args_ok);
  g_assert_cmpint (ok.status, ==, 0);
  g_assert_cmpstr (ok.out, ==, expected);
  run_graft (&no_at, NULL, NULL, args_no_at);
  g_assert_cmpint (no_at.status, ==, 2);
  run_graft (&missing, NULL, NULL, args_missing);
  g_assert_cmpint (missing.status, ==, 1);
  missing_error = g_strdup_printf ("%s:1:1: error: the graph has no node named 'nope'\n", model);
  g_assert_cmpstr (missing.err, ==, missing_error);
}

/* 100,000 nested parentheses: an error at a place, not a stack overflow. */
static void
test_deep_nesting (void)
{
  g_autoptr (GString) source = g_string_new ("def forward(x):\n    return ");
  g_auto (Run) run = { 0 };
  const char *args[] = { "code", "-", NULL };

  for (int i = 0; i < 100000; i++)
    g_string_append_c (source, '(');
  g_string_append (source, "x");
  for (int i = 0; i < 100000; i++)
    g_string_append_c (source, ')');
  g_string_append_c (source, '\n');
  run_graft (&run, NULL, source->str, args);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_true (g_str_has_prefix (run.err, "-:2:"));
  g_assert_nonnull (strstr (run.err, ": error: "));
}

/* SIGKILL at random moments while `graft code -o` writes: the target is
 * always the old file or the whole new one, never a part. */
static void
test_kill_while_writing (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-kill-XXXXXX", NULL);
  g_autofree char *model = g_build_filename (dir, "model.py", NULL);
  g_autofree char *target = g_build_filename (dir, "out.py", NULL);
  g_autoptr (GString) source = g_string_new ("import torch\n\n\ndef forward(x):\n");
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  g_autofree char *complete = NULL;
  const char      *old = "old content\n";
  guint            n_old = 0;
  guint            n_new = 0;

  /* About 30,000 nodes: the write is a sizable part of the run. */
  for (guint i = 0; i < 30000; i++)
    g_string_append (source, "    x = torch.relu(x)\n");
  g_string_append (source, "    return x\n");
  g_assert_true (g_file_set_contents (model, source->str, (gssize) source->len, NULL));
  {
    g_auto (Run) run = { 0 };
    const char *args[] = { "code", model, "-o", target, NULL };

    run_graft (&run, NULL, NULL, args);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_true (g_file_get_contents (target, &complete, NULL, NULL));
  }

  for (guint round = 0; round < 25; round++)
    {
      g_autoptr (GSubprocess) proc = NULL;
      g_autoptr (GError) error = NULL;
      g_autofree char *now = NULL;

      g_assert_true (g_file_set_contents (target, old, -1, NULL));
      proc =
          g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                            &error, graft_cli (), "code", model, "-o", target, NULL);
      g_assert_no_error (error);
      g_usleep (g_rand_int_range (rand, 0, 200) * 1000);
      g_subprocess_send_signal (proc, SIGKILL);
      g_subprocess_wait (proc, NULL, NULL);
      g_assert_true (g_file_get_contents (target, &now, NULL, NULL));
      if (g_strcmp0 (now, old) == 0)
        n_old++;
      else
        {
          g_assert_cmpstr (now, ==, complete);
          n_new++;
        }
    }
  g_test_message ("killed 25 times: %u left the old file, %u the new one", n_old, n_new);
  g_assert_cmpuint (n_old + n_new, ==, 25);

  /* Temporary files of killed writers may remain; the targets never broke. */
  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);

        g_unlink (path);
      }
  }
  g_rmdir (dir);
}

/* A large output through a pipe, which takes it in parts (the text is
 * written from where it is, the newline after it), is the one -o writes;
 * and the same with the heap as a user's run has it (on huge pages) as
 * with the heap left alone (meson's MALLOC_PERTURB_). */
static void
test_large_output (void)
{
  g_autofree char *dir = g_dir_make_tmp ("graft-large-XXXXXX", NULL);
  g_autofree char *model = g_build_filename (dir, "model.py", NULL);
  g_autofree char *target = g_build_filename (dir, "out.py", NULL);
  g_autoptr (GString) source = g_string_new ("import torch\n\n\ndef forward(x):\n");
  g_autofree char *written = NULL;
  g_auto (Run) plain = { 0 };
  g_auto (Run) perturbed = { 0 };
  g_auto (Run) to_file = { 0 };
  const char *args[] = { "code", model, NULL };
  const char *args_file[] = { "code", model, "-o", target, NULL };

  /* 440 KB of source: about 7 MB of heap, 1.1 MB of code. */
  for (guint i = 0; i < 20000; i++)
    g_string_append (source, "    x = torch.relu(x)\n");
  g_string_append (source, "    return x\n");
  g_assert_true (g_file_set_contents (model, source->str, (gssize) source->len, NULL));

  graft_plain_heap = TRUE;
  run_graft (&plain, NULL, NULL, args);
  graft_plain_heap = FALSE;
  run_graft (&perturbed, NULL, NULL, args);
  run_graft (&to_file, NULL, NULL, args_file);
  g_assert_cmpint (plain.status, ==, 0);
  g_assert_cmpint (perturbed.status, ==, 0);
  g_assert_cmpint (to_file.status, ==, 0);
  g_assert_cmpstr (plain.err, ==, "");
  g_assert_true (g_file_get_contents (target, &written, NULL, NULL));
  g_assert_cmpuint (plain.out_len, >, 1000000);
  g_assert_true (g_str_has_prefix (plain.out, "def forward(self, x):\n    relu = torch.relu(x);"));
  g_assert_true (g_str_has_suffix (plain.out, "\n    return relu_19999\n"));
  g_assert_cmpuint (plain.out_len, ==, strlen (written));
  g_assert_cmpstr (plain.out, ==, written);
  g_assert_cmpstr (perturbed.out, ==, written);
  g_unlink (model);
  g_unlink (target);
  g_rmdir (dir);
}

/* Checks that @err ends with one `graft-timings:` line of the steps
 * @names (space-separated) after `start`, each a number of seconds, and
 * returns what came before it. */
static char *
take_timings (const char *err,
              const char *names)
{
  const char *line = strstr (err, "graft-timings: ");
  g_auto (GStrv) fields = NULL;
  g_auto (GStrv) expected = g_strsplit (names, " ", -1);

  g_assert_nonnull (line);
  g_assert_cmpstr (strchr (line, '\n'), ==, "\n");
  fields = g_strsplit_set (line + strlen ("graft-timings: "), " \n", -1);
  g_assert_cmpuint (g_strv_length (fields), ==, g_strv_length (expected) + 2);
  for (guint i = 0; fields[i][0] != '\0'; i++)
    {
      const char      *eq = strchr (fields[i], '=');
      g_autofree char *name = NULL;
      char            *end;
      double           seconds;

      g_assert_nonnull (eq);
      name = g_strndup (fields[i], eq - fields[i]);
      g_assert_cmpstr (name, ==, i == 0 ? "start" : expected[i - 1]);
      seconds = g_ascii_strtod (eq + 1, &end);
      g_assert_true (*end == '\0' && end > eq + 1);
      g_assert_cmpfloat (seconds, >=, 0);
      g_assert_cmpfloat (seconds, <, 600);
    }
  return g_strndup (err, line - err);
}

/* GRAFT_CLI_TIMINGS (for the benches): `code` and `graph` time their
 * load, print and emit, `rewrite` its match and rewrite too (or the rules'
 * run, and dce), on one last line of stderr; the output does not change. */
static void
test_timings (void)
{
  g_autofree char *example =
      data_path ("..", "..", "data", "examples", "subgraph_rewriter_basic_use.py", NULL);
  g_autofree char  *dir = g_dir_make_tmp ("graft-timings-XXXXXX", NULL);
  g_autofree char  *rules = g_build_filename (dir, "r.py", NULL);
  static const char rules_text[] = "import torch\n"
                                   "def pattern(w1, w2):\n"
                                   "    return torch.cat([w1, w2]).sum()\n"
                                   "def replacement(w1, w2):\n"
                                   "    return torch.stack([w1, w2])\n"
                                   "RULES = [(pattern, replacement)]\n";
  const struct
  {
    const char *args[8];
    const char *steps;
  } cases[] = {
    { { "code", example, NULL }, "load print emit" },
    { { "graph", example, NULL }, "load print emit" },
    { { "rewrite", example, NULL }, "load match rewrite print emit" },
    { { "rewrite", example, "--dce", "--to", "graph", NULL }, "load match rewrite dce print emit" },
    { { "rewrite", example, "--rules", rules, NULL }, "load rules print emit" },
    { { "rewrite", example, "--to", "pass", NULL }, "load match rewrite print emit" },
  };

  g_assert_true (g_file_set_contents (rules, rules_text, -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    for (guint heap = 0; heap < 2; heap++)
      {
        g_auto (Run) timed = { 0 };
        g_auto (Run) untimed = { 0 };
        g_autofree char *before = NULL;

        graft_plain_heap = heap;
        run_graft (&untimed, NULL, NULL, cases[i].args);
        graft_timings = TRUE;
        run_graft (&timed, NULL, NULL, cases[i].args);
        graft_timings = FALSE;
        graft_plain_heap = FALSE;
        g_assert_cmpint (untimed.status, ==, 0);
        g_assert_cmpint (timed.status, ==, 0);
        g_assert_null (strstr (untimed.err, "graft-timings"));
        g_assert_cmpstr (timed.out, ==, untimed.out);
        before = take_timings (timed.err, cases[i].steps);
        g_assert_cmpstr (before, ==, untimed.err);
      }
  g_unlink (rules);
  g_rmdir (dir);
}

/* A chain of 40,000 unused attribute reads (`h = h.shape`) becomes 40,000
 * getattr nodes when the last is returned, without deep recursion. */
static void
test_long_attribute_chain (void)
{
  g_autoptr (GString) source = g_string_new ("def forward(h):\n");
  g_auto (Run) run = { 0 };
  const char *args[] = { "code", "-", NULL };

  for (int i = 0; i < 40000; i++)
    g_string_append (source, "    h = h.shape\n");
  g_string_append (source, "    return h\n");
  run_graft (&run, NULL, source->str, args);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_str_has_suffix (run.out, "    getattr_40000 = getattr_39999.shape;  "
                                            "getattr_39999 = None\n    return getattr_40000\n"));
}

/* `--rules`, `--fixpoint`, `--dce` and `--to pass` (cli.md, "Rules"):
 * the options that go together, the lines on stderr, a bad rules file
 * (status 1, nothing written), and a pass written to a file.  What the
 * outputs are is tests/test-rules-golden.c's business. */
static void
test_rules (void)
{
  g_autofree char  *example = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "data",
                                                "examples", "subgraph_rewriter_basic_use.py",
                                                NULL);
  g_autofree char  *dir = g_dir_make_tmp ("graft-rules-XXXXXX", NULL);
  g_autofree char  *rules = g_build_filename (dir, "r.py", NULL);
  g_autofree char  *bad = g_build_filename (dir, "bad.py", NULL);
  g_autofree char  *pass = g_build_filename (dir, "pass.py", NULL);
  static const char rules_text[] = "import torch\n"
                                   "def pattern(w1, w2):\n"
                                   "    return torch.cat([w1, w2]).sum()\n"
                                   "def replacement(w1, w2):\n"
                                   "    return torch.stack([w1, w2])\n"
                                   "def max_of(x):\n"
                                   "    return torch.max(x)\n"
                                   "def amax_of(x):\n"
                                   "    return torch.amax(x)\n"
                                   "RULES = [(pattern, replacement), (max_of, amax_of)]\n";
  static const char bad_text[] = "import torch\n"
                                 "def p(x):\n"
                                 "    return torch.relu(x)\n"
                                 "def r(x, y):\n"
                                 "    return x\n"
                                 "RULES = [(p, p), (p, r)]\n";
  const char       *usage[][8] = {
          { "rewrite", example, "--rules", rules, "--pattern", "pattern", NULL },
          { "rewrite", example, "--fixpoint", "2", NULL },
          { "rewrite", example, "--rules", rules, "--fixpoint", "0", NULL },
          /* -1 was the value of no --fixpoint at all, and ran one pass */
          { "rewrite", example, "--rules", rules, "--fixpoint", "-1", NULL },
          { "rewrite", example, "--fixpoint", "-1", NULL },
          { "rewrite", example, "--rules", rules, "--fixpoint", "0x10", NULL },
          { "rewrite", example, "--rules", rules, "--fixpoint", "", NULL },
          { "rewrite", example, "--to", "pass", "--ignore-literals", "--torch", "1.13", NULL },
          { "match", example, "--rules", rules, NULL },
  };

  g_assert_true (g_file_set_contents (rules, rules_text, -1, NULL));
  g_assert_true (g_file_set_contents (bad, bad_text, -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (usage); i++)
    {
      g_auto (Run) run = { 0 };

      run_graft (&run, NULL, NULL, usage[i]);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_cmpstr (run.out, ==, "");
    }
  {
    g_auto (Run) run = { 0 };
    const char *args[] = { "rewrite", example, "--rules", rules, "--fixpoint", "1", NULL };

    run_graft (&run, NULL, NULL, args);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.err, ==,
                     "pass 1, rule 1 (pattern -> replacement): replaced 2 matches\n"
                     "pass 1, rule 2 (max_of -> amax_of): replaced 2 matches\n"
                     "warning: stopped after 1 passes with matches still replaced in the last\n"
                     "replaced 4 matches\n");
    g_assert_nonnull (strstr (run.out, "torch.amax(stack)"));
  }
  {
    /* A bound beyond an int is still a bound (Python's int() reads any),
     * and so is `+3` with spaces around it. */
    const char *bounds[] = { "99999999999999999999", " +3 " };

    for (guint i = 0; i < G_N_ELEMENTS (bounds); i++)
      {
        g_auto (Run) run = { 0 };
        const char *args[] = { "rewrite", example, "--rules", rules, "--fixpoint", bounds[i],
                               NULL };

        run_graft (&run, NULL, NULL, args);
        g_assert_cmpint (run.status, ==, 0);
        g_assert_true (g_str_has_suffix (run.err,
                                         "pass 2, rule 2 (max_of -> amax_of): replaced 0 matches\n"
                                         "replaced 4 matches\n"));
      }
  }
  {
    /* An output that cannot be written is the one line on stderr: no
     * "replaced N matches" after it, as if the command had done its work. */
    g_auto (Run) run = { 0 };
    g_autofree char *nowhere = g_build_filename (dir, "no-such-dir", "out.py", NULL);
    const char      *args[] = { "rewrite", example, "--rules", rules, "-o", nowhere, NULL };
    g_autofree char *expected = g_strdup_printf ("%s:1:1: error: cannot write the file: No such "
                                                 "file or directory\n",
                                                 nowhere);

    run_graft (&run, NULL, NULL, args);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_cmpstr (run.out, ==, "");
    g_assert_cmpstr (run.err, ==, expected);
  }
  {
    g_auto (Run) run = { 0 };
    const char *args[] = { "rewrite", example, "--rules", bad, "-o", pass, NULL };

    run_graft (&run, NULL, NULL, args);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_cmpstr (run.out, ==, "");
    g_assert_true (g_str_has_suffix (run.err, "bad.py:6:18: error: rule 2 (p -> r): the pattern "
                                              "takes 1 parameter but the replacement takes 2; "
                                              "they must take the same number (torch.fx asserts "
                                              "this)\n"));
    g_assert_false (g_file_test (pass, G_FILE_TEST_EXISTS));
  }
  {
    g_auto (Run) run = { 0 };
    const char      *args[] = { "rewrite", example, "--rules", rules, "--fixpoint", "3", "--dce",
                                "--to", "pass", "-o", pass, NULL };
    g_autofree char *text = NULL;

    run_graft (&run, NULL, NULL, args);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.out, ==, "");
    g_assert_true (g_file_get_contents (pass, &text, NULL, NULL));
    g_assert_nonnull (strstr (text, "RULES = [\n    (pattern, replacement),\n"
                                    "    (max_of, amax_of),\n]\n"));
    g_assert_nonnull (strstr (text, "    for _ in range(3):\n"));
    g_assert_nonnull (strstr (text, "    gm.graph.eliminate_dead_code()\n"));
    /* The tutorial's own module, symbolic_trace and replace_pattern lines
     * are not the pass's. */
    g_assert_null (strstr (text, "class M"));
    g_unlink (pass);
  }
  g_unlink (rules);
  g_unlink (bad);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_cmpuint (add_bad_inputs ("errors", "code"), >=, 20);
  add_bad_inputs ("listing-errors", "code");
  add_bad_inputs ("rewrite" G_DIR_SEPARATOR_S "errors", "rewrite");
  g_test_add_func ("/cli/usage", test_usage);
  g_test_add_func ("/cli/editor-help", test_editor_help);
  g_test_add_func ("/cli/editor-bad-option", test_editor_bad_option);
  g_test_add_func ("/cli/editor-help-forms", test_editor_help_forms);
  g_test_add_func ("/cli/torch-choice", test_torch_choice);
  g_test_add_func ("/cli/readable", test_readable);
  g_test_add_func ("/cli/missing-file", test_missing_file);
  g_test_add_func ("/cli/stdin", test_stdin);
  g_test_add_func ("/cli/empty-input", test_empty_input);
  g_test_add_func ("/cli/dot-hand-over", test_dot_hand_over);
  g_test_add_func ("/cli/pt2-hand-over", test_pt2_hand_over);
  g_test_add_func ("/cli/program-code-not-compiling", test_program_code_not_compiling);
  g_test_add_func ("/cli/entry", test_entry);
  g_test_add_func ("/cli/entry-not-python", test_entry_not_python);
  g_test_add_func ("/cli/code-to-graph", test_code_to_graph);
  g_test_add_func ("/cli/style-ignored", test_style_ignored);
  g_test_add_func ("/cli/binary-input", test_binary_input);
  g_test_add_func ("/cli/input-waits", test_input_waits);
  g_test_add_func ("/cli/module-attribute-assignment", test_module_attribute_assignment);
  g_test_add_func ("/cli/set-order-unknown", test_set_order_unknown);
  g_test_add_func ("/cli/aten-overload-unknown", test_aten_overload_unknown);
  g_test_add_func ("/cli/aten-overload-attribute-unknown", test_aten_overload_attribute_unknown);
  g_test_add_func ("/cli/user-eq", test_user_eq);
  g_test_add_func ("/cli/dataclass-unmodelled", test_dataclass_unmodelled);
  g_test_add_func ("/cli/tensor-data-attribute", test_tensor_data_attribute);
  g_test_add_func ("/cli/constant-tensor-not-tensor", test_constant_tensor_not_tensor);
  g_test_add_func ("/cli/builtin-keywords", test_builtin_keywords);
  g_test_add_func ("/cli/output-file", test_output_file);
  g_test_add_func ("/cli/output-name", test_output_name);
  g_test_add_func ("/cli/output-special", test_output_special);
  g_test_add_func ("/cli/output-refused", test_output_refused);
  g_test_add_func ("/cli/output-standard-output", test_output_standard_output);
  g_test_add_func ("/cli/stdout-full", test_stdout_full);
  g_test_add_func ("/cli/huge-input", test_huge_input);
  g_test_add_func ("/cli/render", test_render);
  g_test_add_func ("/cli/explain", test_explain);
  g_test_add_func ("/cli/deep-nesting", test_deep_nesting);
  g_test_add_func ("/cli/long-attribute-chain", test_long_attribute_chain);
  g_test_add_func ("/cli/kill-while-writing", test_kill_while_writing);
  g_test_add_func ("/cli/large-output", test_large_output);
  g_test_add_func ("/cli/timings", test_timings);
  g_test_add_func ("/cli/rules", test_rules);
  return g_test_run ();
}
