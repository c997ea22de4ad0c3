/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-codegen-job.c: graft_codegen_python() cut into steps
 * (GraftCodegenJob), as the editor runs it across main-loop turns: in
 * steps of every size, on real models in both torches, with the graph's
 * scratch marks used by other walks between the steps, it writes the same
 * text as graft_codegen_python(); a job dropped half-way frees what it
 * made.  Also the body's buffer: reserved below what most lines take and
 * grown in steps (_graft_buf_grow()), whole and in steps.
 */
#include "config.h"

#include "graft.h"
#include "graft-strbuf-private.h"

static const GraftTorch torches[] = { GRAFT_TORCH_2_6, GRAFT_TORCH_1_13 };

static GraftGraph *
load (const char *name,
      GraftTorch  torch)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "torchvision", name, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GraftSource) source = graft_input_read_file (path, &error);
  GraftGraph *graph;

  g_assert_no_error (error);
  graph = graft_input_load_graph (source, graft_dialect_get (torch), NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (graph);
  return graph;
}

/* The job in steps of @size nodes; between steps, another whole walk
 * (graft_codegen_python() itself) takes the graph's marks. */
static char *
in_steps (GraftGraph *graph,
          guint       size,
          guint      *n_steps)
{
  GraftCodegenJob *job = graft_codegen_job_new (graph);

  *n_steps = 1;
  while (!graft_codegen_job_step (job, size))
    {
      g_autofree char *other = graft_codegen_python (graph);

      (*n_steps)++;
    }
  return graft_codegen_job_finish (job);
}

static void
test_same_text (void)
{
  const char *const models[] = { "resnet18.py", "densenet121.py", "shufflenet_v2_x1_0.py",
                                 "vit_b_16.py" };

  for (guint t = 0; t < G_N_ELEMENTS (torches); t++)
    for (guint m = 0; m < G_N_ELEMENTS (models); m++)
      {
        g_autoptr (GraftGraph) graph = load (models[m], torches[t]);
        g_autofree char *whole = graft_codegen_python (graph);
        guint            n = graft_graph_get_n_nodes (graph);
        const guint      sizes[] = { 1, 7, n - 1, n, n + 1 };

        g_assert_cmpuint (n, >, 10);
        for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
          {
            guint            n_steps;
            g_autofree char *stepped = in_steps (graph, sizes[s], &n_steps);

            g_assert_cmpstr (stepped, ==, whole);
            /* The names looked at first (every node: these models' names
             * are clean), GRAFT_CODEGEN_JOB_LOOK a step per node asked
             * for; the lines start in the step that ends the look. */
            g_assert_cmpuint (n_steps, ==,
                              (n + sizes[s] - 1) / sizes[s] +
                                  (n + sizes[s] * GRAFT_CODEGEN_JOB_LOOK - 1) /
                                      (sizes[s] * GRAFT_CODEGEN_JOB_LOOK) -
                                  1);
          }
        /* A job dropped while it looks at the names frees what it holds
         * (the sanitizer build checks). */
        {
          GraftCodegenJob *job = graft_codegen_job_new (graph);

          g_assert_cmpuint (n, >, GRAFT_CODEGEN_JOB_LOOK);
          g_assert_false (graft_codegen_job_step (job, 1));
          graft_codegen_job_free (job);
        }
      }
}

/* Finishing a job not stepped at all, or stepped past its end, gives the
 * whole text too; a job dropped half-way leaks nothing (the sanitizer
 * build checks). */
static void
test_finish_and_drop (void)
{
  g_autoptr (GraftGraph) graph = load ("resnet18.py", GRAFT_TORCH_2_6);
  g_autofree char *whole = graft_codegen_python (graph);
  g_autofree char *at_once = graft_codegen_job_finish (graft_codegen_job_new (graph));
  GraftCodegenJob *job = graft_codegen_job_new (graph);
  g_autofree char *past = NULL;

  g_assert_cmpstr (at_once, ==, whole);
  g_assert_true (graft_codegen_job_step (job, G_MAXUINT));
  g_assert_true (graft_codegen_job_step (job, 1));
  past = graft_codegen_job_finish (job);
  g_assert_cmpstr (past, ==, whole);

  job = graft_codegen_job_new (graph);
  g_assert_false (graft_codegen_job_step (job, 5));
  graft_codegen_job_free (job);
  graft_codegen_job_free (NULL);
}

/* An empty graph: its code is `pass`, in one step. */
static void
test_empty (void)
{
  for (guint t = 0; t < G_N_ELEMENTS (torches); t++)
    {
      g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (torches[t]));
      g_autofree char *whole = graft_codegen_python (graph);
      GraftCodegenJob *job = graft_codegen_job_new (graph);
      g_autofree char *stepped = NULL;

      g_assert_true (graft_codegen_job_step (job, 1));
      stepped = graft_codegen_job_finish (job);
      g_assert_cmpstr (stepped, ==, whole);
    }
}

/* The code's header (`def forward(...):`) is written before the first
 * line when nothing after it changes it; a parameter after a node's line
 * (a listing may hold one) does: it still makes the signature, whole and
 * in steps of one node. */
static void
test_late_parameter (void)
{
  static const char listing[] =
      "graph():\n"
      "    %x : [num_users=1] = placeholder[target=x]\n"
      "    %neg : [num_users=1] = call_function[target=torch.neg](args = (%x,), kwargs = {})\n"
      "    %y : [num_users=1] = placeholder[target=y]\n"
      "    %add : [num_users=1] = call_function[target=operator.add](args = (%neg, %y), "
      "kwargs = {})\n"
      "    return add\n";
  static const char expected[] = "\n\n\ndef forward(self, x, y):\n"
                                 "    neg = torch.neg(x);  x = None\n"
                                 "    add = neg + y;  neg = y = None\n"
                                 "    return add\n"
                                 "    ";

  for (guint t = 0; t < G_N_ELEMENTS (torches); t++)
    {
      g_autoptr (GraftSource) source = graft_source_new ("late.txt", listing, -1);
      g_autoptr (GError) error = NULL;
      g_autoptr (GraftGraph) graph =
          graft_listing_parse (source, graft_dialect_get (torches[t]), &error);
      g_autofree char *whole = NULL;
      g_autofree char *stepped = NULL;
      guint            n_steps;

      g_assert_no_error (error);
      whole = graft_codegen_python (graph);
      g_assert_cmpstr (whole, ==, expected);
      stepped = in_steps (graph, 1, &n_steps);
      g_assert_cmpstr (stepped, ==, expected);
    }
}

/* The names looked at in steps when they do not all keep their graph
 * names in the code: a node named as a builtin (`float`, found at the
 * third node), or a global met only once the look is over (`math_sqrt`,
 * both a wrapped function and a node).  In steps of every size, the same
 * text as at once, renamed. */
static void
test_names_in_steps (void)
{
  static const char *const listings[] = {
    "graph():\n"
    "    %x : [num_users=1] = placeholder[target=x]\n"
    "    %neg : [num_users=1] = call_function[target=torch.neg](args = (%x,), kwargs = {})\n"
    "    %float : [num_users=1] = call_function[target=torch.neg](args = (%neg,), kwargs = {})\n"
    "    %getattr : [num_users=1] = call_function[target=builtins.getattr](args = (%float, "
    "shape), kwargs = {})\n"
    "    return getattr\n",
    "graph():\n"
    "    %x : [num_users=1] = placeholder[target=x]\n"
    "    %neg : [num_users=2] = call_function[target=torch.neg](args = (%x,), kwargs = {})\n"
    "    %getattr_1 : [num_users=1] = call_function[target=builtins.getattr](args = (%neg, "
    "shape), kwargs = {})\n"
    "    %math_sqrt : [num_users=1] = call_function[target=math.sqrt](args = (%neg,), kwargs = "
    "{})\n"
    "    return (getattr_1, math_sqrt)\n",
  };
  static const char *const renamed[] = { "float_1 = torch.neg(neg)",
                                         "math_sqrt_1 = math_sqrt(neg)" };

  for (guint t = 0; t < G_N_ELEMENTS (torches); t++)
    for (guint l = 0; l < G_N_ELEMENTS (listings); l++)
      {
        g_autoptr (GraftSource) source = graft_source_new ("names.txt", listings[l], -1);
        g_autoptr (GError) error = NULL;
        g_autoptr (GraftGraph) graph =
            graft_listing_parse (source, graft_dialect_get (torches[t]), &error);
        g_autofree char *whole = NULL;
        GraftCodegenJob *job;

        g_assert_no_error (error);
        whole = graft_codegen_python (graph);
        g_assert_nonnull (strstr (whole, renamed[l]));
        for (guint size = 1; size <= 6; size++)
          {
            guint            n_steps;
            g_autofree char *stepped = in_steps (graph, size, &n_steps);

            g_assert_cmpstr (stepped, ==, whole);
          }
        /* Dropped after the look and one line. */
        job = graft_codegen_job_new (graph);
        g_assert_false (graft_codegen_job_step (job, 1));
        graft_codegen_job_free (job);
      }
}

/* A graph whose first line comes after many parameters (an exported
 * program's weights): a job writes the header a few parameters per node
 * of its budget, over several steps, and the text is the same in steps of
 * every size; with a late parameter, a wrapped function or a return type
 * after them too.  The code taken with graft_codegen_job_take_code() is
 * the same, and the job is freed on another thread (it no longer reads
 * the graph). */
static gpointer
free_job_thread (gpointer job)
{
  graft_codegen_job_free (job);
  return NULL;
}

static void
test_many_parameters (void)
{
  const guint n_params = 1000;

  for (guint t = 0; t < G_N_ELEMENTS (torches); t++)
    for (guint tail = 0; tail < 2; tail++)
      {
        g_autoptr (GString) listing = g_string_new ("graph():\n");
        g_autoptr (GraftSource) source = NULL;
        g_autoptr (GError) error = NULL;
        g_autoptr (GraftGraph) graph = NULL;
        g_autofree char *whole = NULL;
        g_autofree char *taken = NULL;
        GraftCodegenJob *job;
        guint            n_steps;

        for (guint i = 0; i < n_params; i++)
          g_string_append_printf (listing,
                                  "    %%p_weight_%u : [num_users=%u] = "
                                  "placeholder[target=p_weight_%u]\n",
                                  i, i == 0 || i == n_params - 1, i);
        g_string_append (listing, "    %neg : [num_users=1] = call_function[target=torch.neg]"
                                  "(args = (%p_weight_0,), kwargs = {})\n");
        if (tail == 1)
          g_string_append (listing, "    %late : [num_users=1] = placeholder[target=late]\n");
        g_string_append (listing, "    %add : [num_users=1] = call_function[target=operator.add]"
                                  "(args = (%neg, %p_weight_999), kwargs = {})\n");
        g_string_append_printf (listing, "    return %s\n", tail == 1 ? "(add, late)" : "add");
        source = graft_source_new ("many.txt", listing->str, -1);
        graph = graft_listing_parse (source, graft_dialect_get (torches[t]), &error);
        g_assert_no_error (error);
        whole = graft_codegen_python (graph);
        g_assert_nonnull (strstr (whole, "p_weight_998, p_weight_999"));
        for (guint size = 1; size <= 2 * n_params; size = size * 3 + 1)
          {
            g_autofree char *stepped = in_steps (graph, size, &n_steps);

            g_assert_cmpstr (stepped, ==, whole);
            /* The parameters' nodes, then the header in parts. */
            if (size <= n_params)
              g_assert_cmpuint (n_steps, >=, (n_params + size * 4 - 1) / (size * 4));
          }
        {
          g_autofree char *by_one = in_steps (graph, 1, &n_steps);

          g_assert_cmpstr (by_one, ==, whole);
          g_assert_cmpuint (n_steps, >=, n_params + n_params / 4);
        }

        job = graft_codegen_job_new (graph);
        while (!graft_codegen_job_step (job, 100))
          ;
        taken = graft_codegen_job_take_code (job);
        g_assert_cmpstr (taken, ==, whole);
        g_thread_join (g_thread_new ("free-job", free_job_thread, job));
      }
}

/* graft_codegen_check_module() by steps (GraftCodegenCheck): on
 * exported programs whose code compiles or not (a parameter named by a
 * keyword, `self`, not an identifier, starred), in steps of every size,
 * the same answer and message as at once; one dropped half-way frees what
 * it holds; a traced graph's is known at once. */
static void
test_check_in_steps (void)
{
  const char *const programs[] = {
    "programs-renamed/placeholder_keyword.pt2",
    "programs-renamed/placeholder_not_identifier.pt2",
    "programs-renamed/placeholder_self.pt2",
    "programs-renamed/placeholder_star.pt2",
  };
  g_autoptr (GraftGraph) traced = load ("resnet18.py", GRAFT_TORCH_2_6);
  GraftCodegenCheck *check;
  g_autoptr (GDir) dir = NULL;
  g_autofree char *folder = g_test_build_filename (G_TEST_DIST, "data", "programs", NULL);
  const char      *name;
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  guint n_holding = 0;

  check = graft_codegen_check_new (traced);
  g_assert_true (graft_codegen_check_step (check, 1));
  g_assert_true (graft_codegen_check_finish (check, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (programs); i++)
    g_ptr_array_add (paths, g_test_build_filename (G_TEST_DIST, "data", programs[i], NULL));
  dir = g_dir_open (folder, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL && paths->len < 12)
    if (g_str_has_suffix (name, ".pt2"))
      g_ptr_array_add (paths, g_build_filename (folder, name, NULL));

  for (guint i = 0; i < paths->len; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GraftSource) source = graft_input_read_file (paths->pdata[i], &error);
      g_autoptr (GraftGraph) graph = NULL;
      g_autoptr (GError) at_once = NULL;
      gboolean holds;
      guint    n;

      g_assert_no_error (error);
      graph = graft_input_load_graph (source, graft_dialect_get (GRAFT_TORCH_2_6), NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (graft_graph_get_program (graph));
      holds = graft_codegen_check_module (graph, &at_once);
      n_holding += holds;
      n = graft_graph_get_n_nodes (graph);
      for (guint size = 1; size <= n + 1; size = size * 2 + 1)
        {
          g_autoptr (GError) stepped = NULL;
          guint steps = 1;

          check = graft_codegen_check_new (graph);
          while (!graft_codegen_check_step (check, size))
            steps++;
          g_assert_cmpuint (steps, <=, (n + size - 1) / size);
          g_assert_true (graft_codegen_check_finish (check, &stepped) == holds);
          if (holds)
            g_assert_no_error (stepped);
          else
            g_assert_cmpstr (stepped->message, ==, at_once->message);
        }
      check = graft_codegen_check_new (graph);
      graft_codegen_check_step (check, n / 2);
      graft_codegen_check_free (check);
    }
  g_assert_cmpuint (n_holding, >, 0);
  g_assert_cmpuint (n_holding, <, paths->len - 2);
  graft_codegen_check_free (NULL);
}

/* _graft_buf_new_exact() reserves what it is asked, and _graft_buf_grow()
 * gives room for what is asked past the length and the NUL, keeping the
 * text: a small buffer by GString's doubling, a large one by steps of a
 * sixteenth (at least GRAFT_BUF_STEP) in place or twice its room when it
 * moved, or at once to a request larger than a step. */
static void
test_buffer_growth (void)
{
  GString *buf = _graft_buf_new_exact (100000);
  GString *small = _graft_buf_new_exact (10);
  gsize    before;
  guintptr at;
  gpointer blocker;

  g_assert_cmpuint (buf->allocated_len, ==, 100000);
  g_assert_cmpuint (buf->len, ==, 0);
  g_assert_cmpstr (buf->str, ==, "");
  /* At least what GString itself reserves. */
  g_assert_cmpuint (small->allocated_len, >=, 10);
  g_assert_cmpstr (small->str, ==, "");
  g_string_append (small, "abc");
  _graft_buf_grow (small, 1000);
  g_assert_cmpuint (small->len, ==, 3);
  g_assert_cmpuint (small->allocated_len, >=, small->len + 1001);
  g_assert_cmpstr (small->str, ==, "abc");
  g_string_free (small, TRUE);

  for (guint i = 0; i < 100000; i++)
    {
      _graft_buf_grow (buf, 1);
      g_assert_cmpuint (buf->allocated_len, >=, buf->len + 2);
      buf->str[buf->len++] = (char) ('a' + i % 26);
      buf->str[buf->len] = '\0';
    }
  /* Room already there: nothing moves. */
  before = buf->allocated_len;
  _graft_buf_grow (buf, before - buf->len - 1);
  g_assert_cmpuint (buf->allocated_len, ==, before);
  /* One more byte: a step of a sixteenth where the block grew in place;
   * twice the room where it moved (a block made after it is in the way,
   * or the allocator always moves, as AddressSanitizer's does). */
  for (guint round = 0; round < 2; round++)
    {
      blocker = round == 1 ? g_malloc (100 * 1024) : NULL;
      before = buf->allocated_len;
      buf->len = before - 1;
      memset (buf->str + 100000, 'z', buf->len - 100000);
      buf->str[buf->len] = '\0';
      at = (guintptr) buf->str;
      _graft_buf_grow (buf, 1);
      if ((guintptr) buf->str == at)
        g_assert_cmpuint (buf->allocated_len, ==, before + MAX (before / 16, GRAFT_BUF_STEP));
      else
        g_assert_cmpuint (buf->allocated_len, ==, 2 * before);
      g_free (blocker);
    }
  /* Far past a step: all of it at once. */
  before = buf->allocated_len;
  _graft_buf_grow (buf, 10 * before);
  g_assert_cmpuint (buf->allocated_len, ==, buf->len + 10 * before + 1);
  for (guint i = 0; i < 100000; i++)
    g_assert_cmpint (buf->str[i], ==, 'a' + i % 26);
  for (gsize i = 100000; i < buf->len; i++)
    g_assert_cmpint (buf->str[i], ==, 'z');
  g_assert_cmpint (buf->str[buf->len], ==, '\0');
  g_string_free (buf, TRUE);
}

/* A graph whose lines are far longer than the body's first reserve (48
 * bytes a node): long names, and one line longer than a step of the
 * body's growth (a list of 3 x GRAFT_BUF_STEP bytes).  Its code is known
 * line by line; whole and in steps it is the same. */
static void
test_long_lines (void)
{
  const guint      n = 3000;
  g_autofree char *pad = g_strnfill (90, 'p');
  g_autoptr (GString) list = g_string_new ("[0");
  g_autoptr (GString) listing = g_string_new ("graph():\n");
  g_autoptr (GString) expected = g_string_new ("\n\n\ndef forward(self, x):\n");
  g_autofree char *prev = g_strdup ("x");

  while (list->len < 3 * GRAFT_BUF_STEP)
    g_string_append (list, ", 0");
  g_string_append_c (list, ']');
  g_string_append (listing, "    %x : [num_users=1] = placeholder[target=x]\n");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s_%u", pad, i);
      const char      *target = i == n / 2 ? "torch.permute" : "torch.neg";
      const char      *more = i == n / 2 ? list->str : NULL;

      g_string_append_printf (listing,
                              "    %%%s : [num_users=1] = call_function[target=%s]"
                              "(args = (%%%s%s%s), kwargs = {})\n",
                              name, target, prev, more != NULL ? ", " : ",",
                              more != NULL ? more : "");
      g_string_append_printf (expected, "    %s = %s(%s%s%s);  %s = None\n", name, target, prev,
                              more != NULL ? ", " : "", more != NULL ? more : "", prev);
      g_free (prev);
      prev = g_steal_pointer (&name);
    }
  g_string_append_printf (listing, "    return %s\n", prev);
  g_string_append_printf (expected, "    return %s\n    ", prev);

  for (guint t = 0; t < G_N_ELEMENTS (torches); t++)
    {
      g_autoptr (GraftSource) source = graft_source_new ("long.txt", listing->str, -1);
      g_autoptr (GError) error = NULL;
      g_autoptr (GraftGraph) graph =
          graft_listing_parse (source, graft_dialect_get (torches[t]), &error);
      g_autofree char *whole = NULL;
      g_autofree char *stepped = NULL;
      guint            n_steps;

      g_assert_no_error (error);
      whole = graft_codegen_python (graph);
      g_assert_cmpuint (strlen (whole), >, 48 * n + 64 + 3 * GRAFT_BUF_STEP);
      g_assert_cmpstr (whole, ==, expected->str);
      stepped = in_steps (graph, 999, &n_steps);
      g_assert_cmpuint (n_steps, ==, 4);
      g_assert_cmpstr (stepped, ==, expected->str);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/codegen-job/same-text", test_same_text);
  g_test_add_func ("/codegen-job/finish-and-drop", test_finish_and_drop);
  g_test_add_func ("/codegen-job/empty", test_empty);
  g_test_add_func ("/codegen-job/late-parameter", test_late_parameter);
  g_test_add_func ("/codegen-job/names-in-steps", test_names_in_steps);
  g_test_add_func ("/codegen-job/many-parameters", test_many_parameters);
  g_test_add_func ("/codegen-job/check-in-steps", test_check_in_steps);
  g_test_add_func ("/codegen-job/buffer-growth", test_buffer_growth);
  g_test_add_func ("/codegen-job/long-lines", test_long_lines);
  return g_test_run ();
}
