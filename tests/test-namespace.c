/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-namespace.c: node names as torch.fx makes them.  Every expectation
 * was checked against torch 1.13.1's `_snake_case` and `_Namespace` under
 * /usr/bin/python3 (Python 3.11), in the same order, since a name depends
 * on the names made before it.
 */
#include "config.h"

#include "graft-view.h"
#include "graft-namespace-private.h"
#include "graft-edit.h"

static void
test_snake_case (void)
{
  static const struct
  {
    const char *in;
    const char *out;
    const char *out_2_6; /* where torch 2.6 differs, or NULL */
  } cases[] = {
    { "myLayer", "my_layer" },
    { "HTTPThing", "httpthing" },
    { "inputIds", "input_ids" },
    { "NoneType", "none_type" },
    { "x2D", "x2d" },
    { "weightA", "weight_a" },
    { "ReLU", "re_lu" },
    { "already_snake", "already_snake" },
    { "ALL_CAPS", "all_caps" },
    { "aB_cD", "a_b_c_d" },
    { "myLayer.subMod", "my_layer.sub_mod" },
    /* Non-ASCII letters have a case too. */
    { "\xc3\xb1X", "\xc3\xb1_x", "\xc3\xb1x" },
    { "a\xc3\x91", "a_\xc3\xb1", "a\xc3\xb1" },
    { "\xc3\x91x", "\xc3\xb1x" },
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = graft_snake_case (cases[i].in, graft_dialect_get (GRAFT_TORCH_1_13));
      g_autofree char *out_2_6 =
          graft_snake_case (cases[i].in, graft_dialect_get (GRAFT_TORCH_2_6));

      g_assert_cmpstr (out, ==, cases[i].out);
      g_assert_cmpstr (out_2_6, ==, cases[i].out_2_6 != NULL ? cases[i].out_2_6 : cases[i].out);
    }
}

static void
test_name_for_target (void)
{
  static const struct
  {
    GraftOp     op;
    const char *target;
    const char *candidate;
  } cases[] = {
    { GRAFT_OP_CALL_FUNCTION, "operator.add", "add" },
    { GRAFT_OP_CALL_FUNCTION, "torch._C._nn.log_sigmoid", "log_sigmoid" },
    { GRAFT_OP_CALL_FUNCTION, "builtins.getattr", "getattr" },
    { GRAFT_OP_CALL_FUNCTION, "wrapf.myFunc", "my_func" },
    { GRAFT_OP_CALL_METHOD, "__getitem__", "getitem" },
    { GRAFT_OP_CALL_METHOD, "sum", "sum" },
    { GRAFT_OP_CALL_MODULE, "myLayer.subMod", "my_layer.sub_mod" },
    { GRAFT_OP_GET_ATTR, "layers.0.weight", "layers.0.weight" },
    { GRAFT_OP_PLACEHOLDER, "inputIds", "input_ids" },
    { GRAFT_OP_PLACEHOLDER, "*args", "*args" },
    { GRAFT_OP_PLACEHOLDER, "__x", "__x" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = graft_name_for_target (cases[i].op, cases[i].target,
                                                    graft_dialect_get (GRAFT_TORCH_1_13));

      g_assert_cmpstr (out, ==, cases[i].candidate);
    }
}

/* One namespace, candidates in this order, as torch made them. */
static const struct
{
  const char *candidate;
  const char *name;
} sequence[] = {
  /* Sanitising. */
  { "layers.0", "layers_0" },
  { "*args", "_args" },
  { "a--b", "a_b" },
  { "\xc3\xb1x", "_x" },
  { "1st", "_1st" },
  { "0", "_0" },
  /* Numeric suffixes: parsed as numbers, leading zeros lost. */
  { "x_01", "x_1" },
  { "conv_0", "conv_0" },
  { "conv_0", "conv_1" },
  { "conv_1", "conv_2" },
  { "and_", "and_" },
  { "and_", "and__1" },
  /* Keywords, builtins and torch.fx's reserved globals. */
  { "lambda", "lambda_1" },
  { "sum", "sum_1" },
  { "max", "max_1" },
  { "float", "float_1" },
  { "type", "type_1" },
  { "pow", "pow_1" },
  { "round", "round_1" },
  { "all", "all_1" },
  { "getattr", "getattr_1" },
  { "input", "input_1" },
  { "device", "device_1" },
  { "inf", "inf_1" },
  { "pytree", "pytree_1" },
  { "torch_", "torch_" },
  { "nan", "nan_1" },
  { "NoneType", "NoneType_1" },
  { "torch", "torch_1" },
  { "fx_pytree", "fx_pytree_1" },
  { "print", "print_1" },
  { "True", "True_1" },
  { "Ellipsis", "Ellipsis_1" },
  { "exit", "exit_1" },
  { "license", "license_1" },
  /* Counting restarts from the parsed suffix every time. */
  { "x", "x" },
  { "x", "x_2" },
  { "x_1", "x_3" },
  { "x", "x_4" },
  { "a_b_3", "a_b_3" },
  { "a_b_3", "a_b_4" },
  { "_", "_" },
  { "_1", "_1" },
  { "_1", "_2" },
  { "__", "__" },
  { "x_007", "x_7" },
  { "_08", "_8" },
  { "_00", "_3" },
  { "conv_1", "conv_3" },
  { "layers.1", "layers_1" },
  { "layers_1", "layers_2" },
  { "layers.1", "layers_3" },
};

static void
test_create_name (void)
{
  g_autoptr (GraftNamespace) ns = graft_namespace_new (graft_dialect_get (GRAFT_TORCH_1_13));

  for (guint i = 0; i < G_N_ELEMENTS (sequence); i++)
    {
      const char *name =
          graft_namespace_create_name (ns, sequence[i].candidate, GRAFT_NAME_DEFAULT);

      g_assert_cmpstr (name, ==, sequence[i].name);
      g_assert_true (graft_namespace_contains (ns, name));
    }
  g_assert_cmpuint (graft_namespace_get_size (ns), ==, G_N_ELEMENTS (sequence));
}

/* Names made out of order, so that the run of taken `x_<k>` the namespace
 * remembers has gaps to skip and to fill. */
static void
test_suffix_runs (void)
{
  static const struct
  {
    const char *candidate;
    const char *name;
  } runs[] = {
    { "x", "x" },
    { "x", "x_1" },
    { "x_3", "x_3" },
    { "x", "x_2" },
    { "x", "x_4" },
    { "x_2", "x_5" },
    { "x", "x_6" },
    { "x_10", "x_10" },
    { "x_9", "x_9" },
    { "x", "x_7" },
    { "x", "x_8" },
    { "x_0", "x_0" },
    { "x_00", "x_11" },
    { "x_1", "x_12" },
  };
  g_autoptr (GraftNamespace) ns = graft_namespace_new (graft_dialect_get (GRAFT_TORCH_1_13));
  g_autoptr (GraftNamespace) many = graft_namespace_new (graft_dialect_get (GRAFT_TORCH_1_13));
  g_autoptr (GTimer) timer = g_timer_new ();
  const char *name = NULL;
  double      seconds;

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    g_assert_cmpstr (graft_namespace_create_name (ns, runs[i].candidate, GRAFT_NAME_DEFAULT), ==,
                     runs[i].name);

  /* 100,000 nodes of one kind take linear time, not quadratic: a time is
   * not asserted (it depends on the machine's load); a quadratic namespace
   * would run into the suite's timeout. */
  for (guint i = 0; i < 100000; i++)
    name = graft_namespace_create_name (many, "add", GRAFT_NAME_DEFAULT);
  g_assert_cmpstr (name, ==, "add_99999");
  seconds = g_timer_elapsed (timer, NULL);
  g_test_message ("100,000 names in %.3f s", seconds);
}

/* torch.fx's `_Namespace.create_name` written out naively (fx/graph.py,
 * 1.13.1): sanitise, prefix a leading digit, split `(.*)_(\d+)$`, then
 * count up from the parsed number while the name is taken or illegal.
 * Quadratic, and only for small numbers; the namespace must agree with it
 * name for name. */
static gboolean
model_is_illegal (const char    *name,
                  GraftNameFlags flags)
{
  static const char *const custom[] = { "inf", "nan", "NoneType", "torch",
                                        "device", "fx_pytree", "pytree" };

  if (graft_is_python_keyword (name))
    return TRUE;
  if (graft_is_python_builtin (name))
    return (flags & GRAFT_NAME_IS_BUILTIN) == 0;
  for (guint i = 0; i < G_N_ELEMENTS (custom); i++)
    if (strcmp (name, custom[i]) == 0)
      return (flags & GRAFT_NAME_IS_BUILTIN) == 0;
  return FALSE;
}

/* Steps 1 to 3 of both torches' create_name: sanitise (an empty result
 * becomes @empty), prefix a leading digit, split `(.*)_(\d+)$`.  Returns
 * the first name to try; *out_base (transfer full) and *out_num (0 when
 * there is no suffix) are its parts. */
static char *
model_split (const char *candidate,
             const char *empty,
             char      **out_base,
             guint64    *out_num)
{
  g_autoptr (GString) clean = g_string_new (NULL);
  gsize digits_at;

  /* re.sub('[^0-9a-zA-Z_]+', '_', candidate) */
  for (const char *p = candidate; *p != '\0'; p++)
    if (g_ascii_isalnum (*p) || *p == '_')
      g_string_append_c (clean, *p);
    else if (p == candidate || g_ascii_isalnum (p[-1]) || p[-1] == '_')
      g_string_append_c (clean, '_');
  if (clean->len == 0)
    g_string_append (clean, empty);
  if (g_ascii_isdigit (clean->str[0]))
    g_string_prepend_c (clean, '_');
  digits_at = clean->len;
  while (digits_at > 0 && g_ascii_isdigit (clean->str[digits_at - 1]))
    digits_at--;
  *out_num = 0;
  if (digits_at < clean->len && digits_at > 0 && clean->str[digits_at - 1] == '_')
    {
      *out_num = g_ascii_strtoull (clean->str + digits_at, NULL, 10);
      *out_base = g_strndup (clean->str, digits_at - 1);
      return g_strdup_printf ("%s_%" G_GUINT64_FORMAT, *out_base, *out_num);
    }
  *out_base = g_strdup (clean->str);
  return g_strdup (*out_base);
}

static char *
model_create_name (GHashTable    *used,
                   const char    *candidate,
                   GraftNameFlags flags)
{
  g_autofree char *base = NULL;
  guint64          num;
  char            *name = model_split (candidate, "_", &base, &num);

  while (g_hash_table_contains (used, name) || model_is_illegal (name, flags))
    {
      g_free (name);
      name = g_strdup_printf ("%s_%" G_GUINT64_FORMAT, base, ++num);
    }
  g_hash_table_add (used, g_strdup (name));
  return name;
}

/* Random candidates over a few bases, suffixes (with leading zeros, out of
 * order), reserved words and dirty characters, with some names released as
 * undo releases them and some registered verbatim as files' names are: the
 * namespace's shortcuts (the fast paths, the runs of taken suffixes it
 * remembers, counting on without lookups) must not change a single name. */
static void
test_against_model (void)
{
  static const char *const bases[] = {
    "add", "x", "layers.0", "layers_0", "_", "sum", "lambda",
    "getattr", "a-b", "1st", "conv_1_2", "inf", "", /* `_3`: a suffix on an empty base */
  };
  g_autoptr (GraftNamespace) ns = graft_namespace_new (graft_dialect_get (GRAFT_TORCH_1_13));
  g_autoptr (GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) made = g_ptr_array_new_with_free_func (g_free);
  GRand *rand = g_rand_new_with_seed (20261129);

  for (guint i = 0; i < 20000; i++)
    {
      const char    *base = bases[g_rand_int_range (rand, 0, G_N_ELEMENTS (bases))];
      GraftNameFlags flags =
          g_rand_int_range (rand, 0, 10) == 0 ? GRAFT_NAME_IS_BUILTIN : GRAFT_NAME_DEFAULT;
      g_autofree char *candidate = NULL;
      g_autofree char *expected = NULL;
      guint            kind = g_rand_int_range (rand, 0, 8);

      if (kind == 7 && g_rand_int_range (rand, 0, 3) == 0)
        {
          /* Register a name verbatim, as a listing or DOT file's names are. */
          static const char *const verbatim_bases[] = { "add", "x", "layers_0", "conv_1_2" };
          char                    *name =
              g_strdup_printf ("%s_%d",
                               verbatim_bases[g_rand_int_range (rand, 0,
                                                                G_N_ELEMENTS (verbatim_bases))],
                               g_rand_int_range (rand, 1, 60));

          if (g_hash_table_contains (used, name))
            {
              g_free (name);
              continue;
            }
          g_assert_cmpstr (_graft_namespace_add_verbatim (ns, name), ==, name);
          g_hash_table_add (used, g_strdup (name));
          g_ptr_array_add (made, name);
          continue;
        }
      if (kind == 0 && made->len > 0)
        {
          /* Release a name, as undoing the edit that made it does. */
          guint k = g_rand_int_range (rand, 0, made->len);

          _graft_namespace_remove (ns, made->pdata[k]);
          g_assert_true (g_hash_table_remove (used, made->pdata[k]));
          g_ptr_array_remove_index_fast (made, k);
          continue;
        }
      if (kind <= 4)
        candidate = g_strdup (base);
      else if (kind == 5)
        candidate = g_strdup_printf ("%s_%d", base, g_rand_int_range (rand, 0, 40));
      else if (kind == 6)
        candidate = g_strdup_printf ("%s_0%d", base, g_rand_int_range (rand, 0, 40));
      else
        candidate = g_strdup_printf ("%s_%d", base, g_rand_int_range (rand, 1, 4));
      expected = model_create_name (used, candidate, flags);
      g_assert_cmpstr (graft_namespace_create_name (ns, candidate, flags), ==, expected);
      g_ptr_array_add (made, g_steal_pointer (&expected));
    }
  g_assert_cmpuint (graft_namespace_get_size (ns), ==, g_hash_table_size (used));
  g_rand_free (rand);
}

static void
test_builtin_flag (void)
{
  g_autoptr (GraftNamespace) ns = graft_namespace_new (graft_dialect_get (GRAFT_TORCH_1_13));

  /* The getattr builtin itself may be called getattr; a node may not. */
  g_assert_cmpstr (graft_namespace_create_name (ns, "getattr", GRAFT_NAME_IS_BUILTIN), ==,
                   "getattr");
  g_assert_cmpstr (graft_namespace_create_name (ns, "getattr", GRAFT_NAME_DEFAULT), ==,
                   "getattr_1");
  g_assert_cmpstr (graft_namespace_create_name (ns, "inf", GRAFT_NAME_IS_BUILTIN), ==, "inf");
  /* Keywords are never legal. */
  g_assert_cmpstr (graft_namespace_create_name (ns, "lambda", GRAFT_NAME_IS_BUILTIN), ==,
                   "lambda_1");
}

/* torch 2.6's `_Namespace.create_name` written out naively (fx/graph.py):
 * as model_create_name(), but an empty name is `_unnamed`, a candidate
 * without a suffix (or with 0) counts on from `_base_count[base]`, and the
 * number chosen becomes `_base_count[base]`.  *out_base and *out_old say
 * what changed, for undo. */
static char *
model26_create_name (GHashTable    *used,
                     GHashTable    *counts,
                     const char    *candidate,
                     GraftNameFlags flags,
                     char         **out_base,
                     guint64       *out_old)
{
  char   *base;
  guint64 num;
  char   *name = model_split (candidate, "_unnamed", &base, &num);

  if (num == 0)
    num = GPOINTER_TO_SIZE (g_hash_table_lookup (counts, base));
  while (g_hash_table_contains (used, name) || model_is_illegal (name, flags))
    {
      g_free (name);
      name = g_strdup_printf ("%s_%" G_GUINT64_FORMAT, base, ++num);
    }
  g_hash_table_add (used, g_strdup (name));
  *out_old = GPOINTER_TO_SIZE (g_hash_table_lookup (counts, base));
  g_hash_table_insert (counts, g_strdup (base), GSIZE_TO_POINTER ((gsize) num));
  *out_base = base;
  return name;
}

typedef struct
{
  char   *name;
  char   *base;
  guint64 old_count;
} Made26;

static void
made26_free (gpointer data)
{
  Made26 *m = data;

  g_free (m->name);
  g_free (m->base);
  g_free (m);
}

/* The torch 2.6 namespace against model26_create_name() on random
 * candidates, names read verbatim, and undo (which releases the names
 * made last first, restoring the counts they changed). */
static void
test_against_model_26 (void)
{
  static const char *const bases[] = {
    "add",
    "x",
    "layers.0",
    "layers_0",
    "_",
    "sum",
    "lambda",
    "getattr",
    "a-b",
    "1st",
    "conv_1_2",
    "inf",
    "",
  };
  g_autoptr (GraftNamespace) ns = graft_namespace_new (graft_dialect_get (GRAFT_TORCH_2_6));
  g_autoptr (GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) made = g_ptr_array_new_with_free_func (made26_free);
  GRand *rand = g_rand_new_with_seed (20261201);

  for (guint i = 0; i < 20000; i++)
    {
      const char    *base = bases[g_rand_int_range (rand, 0, G_N_ELEMENTS (bases))];
      GraftNameFlags flags =
          g_rand_int_range (rand, 0, 10) == 0 ? GRAFT_NAME_IS_BUILTIN : GRAFT_NAME_DEFAULT;
      g_autofree char *candidate = NULL;
      Made26          *m;
      guint            kind = g_rand_int_range (rand, 0, 9);

      if (kind == 0 && made->len > 0)
        {
          /* Undo the newest name. */
          m = made->pdata[made->len - 1];
          _graft_namespace_remove (ns, m->name);
          g_assert_true (g_hash_table_remove (used, m->name));
          g_hash_table_insert (counts, g_strdup (m->base), GSIZE_TO_POINTER ((gsize) m->old_count));
          g_ptr_array_remove_index (made, made->len - 1);
          continue;
        }
      if (kind == 8)
        {
          /* A name read verbatim: create_name() gives a free, clean name back. */
          g_autofree char *name = g_strdup_printf ("%s_%d", g_rand_boolean (rand) ? "add" : "x",
                                                   g_rand_int_range (rand, 1, 60));

          if (g_hash_table_contains (used, name))
            continue;
          m = g_new0 (Made26, 1);
          m->name = model26_create_name (used, counts, name, GRAFT_NAME_DEFAULT, &m->base,
                                         &m->old_count);
          g_assert_cmpstr (m->name, ==, name);
          g_assert_cmpstr (_graft_namespace_add_verbatim (ns, name), ==, name);
          g_ptr_array_add (made, m);
          continue;
        }
      if (kind <= 4)
        candidate = g_strdup (base);
      else if (kind == 5)
        candidate = g_strdup_printf ("%s_%d", base, g_rand_int_range (rand, 0, 40));
      else if (kind == 6)
        candidate = g_strdup_printf ("%s_0%d", base, g_rand_int_range (rand, 0, 40));
      else
        candidate = g_strdup_printf ("%s_%d", base, g_rand_int_range (rand, 1, 4));
      m = g_new0 (Made26, 1);
      m->name = model26_create_name (used, counts, candidate, flags, &m->base, &m->old_count);
      g_assert_cmpstr (graft_namespace_create_name (ns, candidate, flags), ==, m->name);
      g_ptr_array_add (made, m);
    }
  g_assert_cmpuint (graft_namespace_get_size (ns), ==, g_hash_table_size (used));
  g_rand_free (rand);
}

/* Both namespaces against their models with candidates at fixed addresses
 * (as the tracer's tables and interned targets are): the remembered
 * candidates' fast path, counting on from a padded copy, must agree with
 * the model through long runs (counts of several digits), names read
 * verbatim past and inside the runs, reserved words with either flag,
 * bases too long to remember, other text written at a remembered address,
 * and undo releasing the newest names (and, in torch 1.x, any name). */
static void
test_against_model_stable (gconstpointer data)
{
  static const char *const candidates[] = {
    "add",
    "neg",
    "sum",
    "x",
    "getitem",
    "lambda",
    "inf",
    "layers_0",
    "conv_1_2",
    "add_3",
    "1st",
    "a-b",
    "a_name_longer_than_remembered",
    "max",
    "cat",
    /* Numbered candidates, remembered whole: `neg_<k>` counts on from k
     * (or, for 0, from the base's count) past the run of its base.  A
     * name taken past a run (`sum_12` before `sum_11`) sends its base the
     * general way for good, so most of these stay within their runs. */
    "layers_1",
    "neg_0",
    "neg_1",
    "neg_2",
    "sum_12",
    "cat_12345678901",
    /* Cleaned first: remembered when the text starts with the base. */
    "layers.0",
    "layers.1",
    "neg.02",
    "a-b_1",
  };
  static const char *const texts[] = { "add", "neg", "relu", "sum",
                                       "x_2", "max_pool2d", "if", "layers_2",
                                       "neg_01", "layers_0" };
  GraftTorch               torch = GPOINTER_TO_INT (data) & 0xff;
  /* Also the graph's way for its derived names, on the candidates whose
   * text never changes (not `buf`), mixed with the general one. */
  gboolean stable = (GPOINTER_TO_INT (data) & 0x100) != 0;
  gboolean per_base = torch == GRAFT_TORCH_2_6;
  g_autoptr (GraftNamespace) ns = graft_namespace_new (graft_dialect_get (torch));
  g_autoptr (GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) made = g_ptr_array_new_with_free_func (made26_free);
  GRand *rand = g_rand_new_with_seed (20261202 + torch);
  char   buf[32];

  strcpy (buf, "neg");
  /* torch 1.x's model counts every name up from the candidate's own
   * number: quadratic, so fewer names. */
  for (guint i = 0; i < (per_base ? 30000u : 8000u); i++)
    {
      GraftNameFlags flags =
          g_rand_int_range (rand, 0, 10) == 0 ? GRAFT_NAME_IS_BUILTIN : GRAFT_NAME_DEFAULT;
      guint       kind = g_rand_int_range (rand, 0, 100);
      const char *candidate;
      Made26     *m;

      if (kind < 3 && made->len > 0)
        {
          /* Undo: the newest name, or in torch 1.x (which keeps no
           * counts) any. */
          guint k = per_base || g_rand_boolean (rand)
                        ? made->len - 1
                        : (guint) g_rand_int_range (rand, 0, made->len);

          m = made->pdata[k];
          _graft_namespace_remove (ns, m->name);
          g_assert_true (g_hash_table_remove (used, m->name));
          if (per_base)
            g_hash_table_insert (counts, g_strdup (m->base),
                                 GSIZE_TO_POINTER ((gsize) m->old_count));
          g_ptr_array_remove_index (made, k);
          continue;
        }
      if (kind < 6)
        {
          /* A name read verbatim, past or inside a run. */
          static const char *const bases[] = { "add", "neg", "sum", "getitem", "relu" };
          g_autofree char         *name =
              g_strdup_printf ("%s_%d", bases[g_rand_int_range (rand, 0, G_N_ELEMENTS (bases))],
                               g_rand_int_range (rand, 1, 3000));

          if (g_hash_table_contains (used, name))
            continue;
          m = g_new0 (Made26, 1);
          if (per_base)
            m->name = model26_create_name (used, counts, name, GRAFT_NAME_DEFAULT, &m->base,
                                           &m->old_count);
          else
            m->name = model_create_name (used, name, GRAFT_NAME_DEFAULT);
          g_assert_cmpstr (m->name, ==, name);
          g_assert_cmpstr (_graft_namespace_add_verbatim (ns, name), ==, name);
          g_ptr_array_add (made, m);
          continue;
        }
      if (kind < 8)
        /* Other text (or the same) at the same address. */
        strcpy (buf, texts[g_rand_int_range (rand, 0, G_N_ELEMENTS (texts))]);
      /* `add` most often: its count reaches four digits. */
      candidate = kind < 20   ? buf
                  : kind < 50 ? candidates[0]
                              : candidates[g_rand_int_range (rand, 0, G_N_ELEMENTS (candidates))];
      m = g_new0 (Made26, 1);
      if (per_base)
        m->name = model26_create_name (used, counts, candidate, flags, &m->base, &m->old_count);
      else
        m->name = model_create_name (used, candidate, flags);
      if (stable && candidate != buf && flags == GRAFT_NAME_DEFAULT && g_rand_boolean (rand))
        g_assert_cmpstr (_graft_namespace_create_name_stable (ns, candidate), ==, m->name);
      else
        g_assert_cmpstr (graft_namespace_create_name (ns, candidate, flags), ==, m->name);
      g_ptr_array_add (made, m);
    }
  g_assert_cmpuint (graft_namespace_get_size (ns), ==, g_hash_table_size (used));
  /* Every name is found by its text, through the removed slots. */
  for (guint i = 0; i < made->len; i++)
    g_assert_true (graft_namespace_contains (ns, ((Made26 *) made->pdata[i])->name));
  g_rand_free (rand);
}

/* torch 2.6 examples, checked with the oracle: an argument `add_3` makes
 * the next `add`s count on from 3; a module list called in a loop counts
 * on (layers_0 ... layers_8). */
static void
test_per_base_counts (void)
{
  static const char *const counted[][2] = {
    { "x", "x" },
    { "add_3", "add_3" },
    { "add", "add" },
    { "add", "add_4" },
    { "add", "add_5" },
    { "layers.0", "layers_0" },
    { "layers.1", "layers_1" },
    { "layers.0", "layers_2" },
    { "layers.1", "layers_3" },
    { "", "_unnamed" },
    { "", "_unnamed_1" },
    { "add_1", "add_1" },
    { "add", "add_2" },
    { "add", "add_6" },
  };
  g_autoptr (GraftNamespace) ns = graft_namespace_new (graft_dialect_get (GRAFT_TORCH_2_6));

  for (guint i = 0; i < G_N_ELEMENTS (counted); i++)
    g_assert_cmpstr (graft_namespace_create_name (ns, counted[i][0], GRAFT_NAME_DEFAULT), ==,
                     counted[i][1]);
}

/* A candidate counted on lately is remembered by its address: the same
 * string asked for again, with other flags, with other text at the same
 * address, or after a name was released, is named as the first time. */
static void
test_counted_again (void)
{
  g_autoptr (GraftNamespace) ns = graft_namespace_new (graft_dialect_get (GRAFT_TORCH_2_6));
  static const char sum[] = "sum";
  char              buf[8];

  /* `sum` is a builtin's name: reserved, unless the node is the builtin. */
  g_assert_cmpstr (graft_namespace_create_name (ns, sum, GRAFT_NAME_DEFAULT), ==, "sum_1");
  g_assert_cmpstr (graft_namespace_create_name (ns, sum, GRAFT_NAME_DEFAULT), ==, "sum_2");
  g_assert_cmpstr (graft_namespace_create_name (ns, sum, GRAFT_NAME_IS_BUILTIN), ==, "sum");
  g_assert_cmpstr (graft_namespace_create_name (ns, sum, GRAFT_NAME_IS_BUILTIN), ==, "sum_3");
  g_assert_cmpstr (graft_namespace_create_name (ns, sum, GRAFT_NAME_DEFAULT), ==, "sum_4");
  /* Other text at the same address. */
  strcpy (buf, "neg");
  g_assert_cmpstr (graft_namespace_create_name (ns, buf, GRAFT_NAME_DEFAULT), ==, "neg");
  g_assert_cmpstr (graft_namespace_create_name (ns, buf, GRAFT_NAME_DEFAULT), ==, "neg_1");
  strcpy (buf, "relu");
  g_assert_cmpstr (graft_namespace_create_name (ns, buf, GRAFT_NAME_DEFAULT), ==, "relu");
  g_assert_cmpstr (graft_namespace_create_name (ns, buf, GRAFT_NAME_DEFAULT), ==, "relu_1");
  strcpy (buf, "neg");
  g_assert_cmpstr (graft_namespace_create_name (ns, buf, GRAFT_NAME_DEFAULT), ==, "neg_2");
  /* Undo releases `neg_2` and the count it set: `neg_2` comes again. */
  _graft_namespace_remove (ns, "neg_2");
  g_assert_cmpstr (graft_namespace_create_name (ns, buf, GRAFT_NAME_DEFAULT), ==, "neg_2");
  /* Released `relu`: free again, whatever was remembered. */
  _graft_namespace_remove (ns, "relu_1");
  _graft_namespace_remove (ns, "relu");
  strcpy (buf, "relu");
  g_assert_cmpstr (graft_namespace_create_name (ns, buf, GRAFT_NAME_DEFAULT), ==, "relu");
}

/* Releasing a remembered candidate's own name forgets what was remembered
 * of it: the name is free again, after several releases in a row and
 * after a single one (both torches). */
static void
test_counted_released (gconstpointer data)
{
  g_autoptr (GraftNamespace) ns = graft_namespace_new (graft_dialect_get (GPOINTER_TO_INT (data)));
  static const char add[] = "add";

  g_assert_cmpstr (graft_namespace_create_name (ns, add, GRAFT_NAME_DEFAULT), ==, "add");
  g_assert_cmpstr (graft_namespace_create_name (ns, add, GRAFT_NAME_DEFAULT), ==, "add_1");
  g_assert_cmpstr (graft_namespace_create_name (ns, add, GRAFT_NAME_DEFAULT), ==, "add_2");
  _graft_namespace_remove (ns, "add_2");
  _graft_namespace_remove (ns, "add_1");
  _graft_namespace_remove (ns, "add");
  g_assert_cmpstr (graft_namespace_create_name (ns, add, GRAFT_NAME_DEFAULT), ==, "add");
  g_assert_cmpstr (graft_namespace_create_name (ns, add, GRAFT_NAME_DEFAULT), ==, "add_1");
  g_assert_cmpstr (graft_namespace_create_name (ns, add, GRAFT_NAME_DEFAULT), ==, "add_2");
  g_assert_cmpstr (graft_namespace_create_name (ns, add, GRAFT_NAME_DEFAULT), ==, "add_3");
  _graft_namespace_remove (ns, "add");
  g_assert_cmpstr (graft_namespace_create_name (ns, add, GRAFT_NAME_DEFAULT), ==, "add");
  g_assert_cmpstr (graft_namespace_create_name (ns, add, GRAFT_NAME_DEFAULT), ==, "add_4");
}

/* A count past 32 bits that a name replaced comes back when undo releases
 * the name (the name's header keeps only 32 bits of it). */
static void
test_big_count_undo (void)
{
  g_autoptr (GraftNamespace) ns = graft_namespace_new (graft_dialect_get (GRAFT_TORCH_2_6));

  g_assert_cmpstr (graft_namespace_create_name (ns, "x_5000000000", GRAFT_NAME_DEFAULT), ==,
                   "x_5000000000");
  /* `_base_count['x']` falls from 5000000000 to 1... */
  g_assert_cmpstr (graft_namespace_create_name (ns, "x_1", GRAFT_NAME_DEFAULT), ==, "x_1");
  g_assert_cmpstr (graft_namespace_create_name (ns, "x_1", GRAFT_NAME_DEFAULT), ==, "x_2");
  /* ...and undo puts back each count, the big one too. */
  _graft_namespace_remove (ns, "x_2");
  _graft_namespace_remove (ns, "x_1");
  g_assert_cmpstr (graft_namespace_create_name (ns, "x", GRAFT_NAME_DEFAULT), ==, "x");
  g_assert_cmpstr (graft_namespace_create_name (ns, "x", GRAFT_NAME_DEFAULT), ==, "x_5000000001");
  /* Made and released again: the big count is replaced once more. */
  g_assert_cmpstr (graft_namespace_create_name (ns, "x_1", GRAFT_NAME_DEFAULT), ==, "x_1");
  _graft_namespace_remove (ns, "x_1");
  g_assert_cmpstr (graft_namespace_create_name (ns, "x", GRAFT_NAME_DEFAULT), ==, "x_5000000002");
}

/* Counts of any size, as Python's integers: a suffix of 19 digits or
 * more sets its base's count (torch 2.x), which names count on from, and
 * undo puts back each count it replaced, huge or not. */
static void
test_huge_count (void)
{
  g_autoptr (GraftNamespace) ns = graft_namespace_new (graft_dialect_get (GRAFT_TORCH_2_6));
  g_autoptr (GraftNamespace) old = graft_namespace_new (graft_dialect_get (GRAFT_TORCH_1_13));
  static const char add[] = "add";

  g_assert_cmpstr (graft_namespace_create_name (ns, "add_1000000000000000000", GRAFT_NAME_DEFAULT),
                   ==, "add_1000000000000000000");
  g_assert_cmpstr (graft_namespace_create_name (ns, add, GRAFT_NAME_DEFAULT), ==, "add");
  g_assert_cmpstr (graft_namespace_create_name (ns, add, GRAFT_NAME_DEFAULT), ==,
                   "add_1000000000000000001");
  g_assert_cmpstr (graft_namespace_create_name (ns, "add_0", GRAFT_NAME_DEFAULT), ==, "add_0");
  g_assert_cmpstr (graft_namespace_create_name (ns, "add_0", GRAFT_NAME_DEFAULT), ==,
                   "add_1000000000000000002");
  /* Leading zeros go, as int() drops them. */
  g_assert_cmpstr (graft_namespace_create_name (ns, "add_0001000000000000000002",
                                                GRAFT_NAME_DEFAULT),
                   ==, "add_1000000000000000003");
  /* 60 digits, carried. */
  g_assert_cmpstr (graft_namespace_create_name (ns,
                                                "sub_"
                                                "99999999999999999999999999999999999999999999999999"
                                                "9999999999",
                                                GRAFT_NAME_DEFAULT),
                   ==, "sub_999999999999999999999999999999999999999999999999999999999999");
  g_assert_cmpstr (graft_namespace_create_name (ns, "sub", GRAFT_NAME_DEFAULT), ==, "sub");
  g_assert_cmpstr (graft_namespace_create_name (ns, "sub", GRAFT_NAME_DEFAULT), ==,
                   "sub_1000000000000000000000000000000000000000000000000000000000000");
  /* A small number lowers a huge count, and undo raises it again. */
  g_assert_cmpstr (graft_namespace_create_name (ns, "add_5", GRAFT_NAME_DEFAULT), ==, "add_5");
  g_assert_cmpstr (graft_namespace_create_name (ns, add, GRAFT_NAME_DEFAULT), ==, "add_6");
  _graft_namespace_remove (ns, "add_6");
  _graft_namespace_remove (ns, "add_5");
  g_assert_cmpstr (graft_namespace_create_name (ns, add, GRAFT_NAME_DEFAULT), ==,
                   "add_1000000000000000004");
  _graft_namespace_remove (ns, "add_1000000000000000004");
  _graft_namespace_remove (ns, "add_1000000000000000003");
  _graft_namespace_remove (ns, "add_1000000000000000002");
  g_assert_cmpstr (graft_namespace_create_name (ns, add, GRAFT_NAME_DEFAULT), ==,
                   "add_1000000000000000002");
  _graft_namespace_remove (ns, "sub_1000000000000000000000000000000000000000000000000000000000000");
  g_assert_cmpstr (graft_namespace_create_name (ns, "sub", GRAFT_NAME_DEFAULT), ==,
                   "sub_1000000000000000000000000000000000000000000000000000000000000");
  /* torch 1.x keeps no counts: a candidate counts on from its own number. */
  g_assert_cmpstr (graft_namespace_create_name (old, "add_1000000000000000000", GRAFT_NAME_DEFAULT),
                   ==, "add_1000000000000000000");
  g_assert_cmpstr (graft_namespace_create_name (old, add, GRAFT_NAME_DEFAULT), ==, "add");
  g_assert_cmpstr (graft_namespace_create_name (old, add, GRAFT_NAME_DEFAULT), ==, "add_1");
  g_assert_cmpstr (graft_namespace_create_name (old, "add_1000000000000000000", GRAFT_NAME_DEFAULT),
                   ==, "add_1000000000000000001");
}

static void
test_names_never_released (void)
{
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (GRAFT_TORCH_1_13));
  GraftNode *neg, *neg_1, *again;
  GraftArg   args;

  /* An erased node keeps its name: the next `neg` skips it. */
  neg = graft_graph_create_node (graph, GRAFT_OP_PLACEHOLDER, "neg", NULL, NULL, NULL, NULL);
  neg_1 = graft_graph_create_node (graph, GRAFT_OP_PLACEHOLDER, "neg", NULL, NULL, NULL, NULL);
  g_assert_cmpstr (graft_node_get_name (neg), ==, "neg");
  g_assert_cmpstr (graft_node_get_name (neg_1), ==, "neg_1");
  graft_graph_erase_node (graph, neg);
  g_assert_null (graft_graph_find_node (graph, "neg"));
  g_assert_true (graft_namespace_contains (graft_graph_get_namespace (graph), "neg"));
  graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
  graft_arg_init_node (&args.items[0], neg_1);
  again = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "operator.neg", &args, NULL, NULL,
                                   NULL);
  g_assert_cmpstr (graft_node_get_name (again), ==, "neg_2");
}

/* The set of names taken grows many times (130,000 names): every name stays
 * found across the growths, and after some are removed. */
static void
test_set_growth (void)
{
  const guint n = 130000;
  g_autoptr (GraftNamespace) ns = graft_namespace_new (graft_dialect_get (GRAFT_TORCH_2_6));
  char name[32];

  for (guint i = 0; i < n; i++)
    {
      g_snprintf (name, sizeof name, "v%u", i);
      g_assert_cmpstr (_graft_namespace_add_verbatim (ns, name), ==, name);
    }
  for (guint i = 0; i < n; i += 3)
    {
      g_snprintf (name, sizeof name, "v%u", i);
      _graft_namespace_remove (ns, name);
    }
  for (guint i = 0; i < n; i++)
    {
      g_snprintf (name, sizeof name, "v%u", i);
      g_assert_true (graft_namespace_contains (ns, name) == (i % 3 != 0));
    }
  /* As many names again, over the removed ones' slots: all found. */
  for (guint i = n; i < n + n / 3; i++)
    {
      g_snprintf (name, sizeof name, "v%u", i);
      _graft_namespace_add_verbatim (ns, name);
    }
  for (guint i = 0; i < n + n / 3; i++)
    {
      g_snprintf (name, sizeof name, "v%u", i);
      g_assert_true (graft_namespace_contains (ns, name) == (i >= n || i % 3 != 0));
    }
}

/* The model's name for @candidate in @torch's rules (see
 * test_against_model_stable()). */
static char *
model_name (GraftTorch  torch,
            GHashTable *used,
            GHashTable *counts,
            const char *candidate)
{
  g_autofree char *base = NULL;
  guint64          old_count = 0;

  if (torch == GRAFT_TORCH_2_6)
    return model26_create_name (used, counts, candidate, GRAFT_NAME_DEFAULT, &base, &old_count);
  return model_create_name (used, candidate, GRAFT_NAME_DEFAULT);
}

/* A run longer than a page of entries (1,024): names on both sides of
 * each page's edge are found by their text, released and taken again, and
 * the count goes on after them. */
static void
test_run_pages (gconstpointer data)
{
  g_autoptr (GraftNamespace) ns = graft_namespace_new (graft_dialect_get (GPOINTER_TO_INT (data)));
  static const guint edges[] = { 1, 1023, 1024, 1025, 2047, 2048, 2049, 3071, 3072, 3073 };

  g_assert_cmpstr (graft_namespace_create_name (ns, "add", GRAFT_NAME_DEFAULT), ==, "add");
  for (guint k = 1; k <= 3500; k++)
    {
      g_autofree char *expected = g_strdup_printf ("add_%u", k);

      g_assert_cmpstr (graft_namespace_create_name (ns, "add", GRAFT_NAME_DEFAULT), ==, expected);
      if (k % 700 == 0)
        g_assert_cmpstr (graft_namespace_create_name (ns, "mul", GRAFT_NAME_DEFAULT), !=, NULL);
    }
  for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
    {
      g_autofree char *name = g_strdup_printf ("add_%u", edges[i]);

      g_assert_true (graft_namespace_contains (ns, name));
      _graft_namespace_remove (ns, name);
      g_assert_false (graft_namespace_contains (ns, name));
      g_assert_cmpstr (_graft_namespace_add_verbatim (ns, name), ==, name);
      g_assert_true (graft_namespace_contains (ns, name));
    }
  g_assert_false (graft_namespace_contains (ns, "add_3501"));
  g_assert_cmpstr (graft_namespace_create_name (ns, "add", GRAFT_NAME_DEFAULT), ==, "add_3501");
  g_assert_cmpstr (graft_namespace_create_name (ns, "add_2048", GRAFT_NAME_DEFAULT), !=,
                   "add_2048");
}

/* Counted names (`neg_1` ... `neg_<k>`, the tracer's most names) are kept
 * in their base's run, not the set: each is found by its text (taken, its
 * node found), a name given verbatim inside the run's reach is skipped
 * and a name of the run is refused verbatim, an erased node's name stays
 * taken and its node is found again after undo, and a name released by
 * undo and put back by redo is bound to its node again. */
static void
test_counted_runs (gconstpointer data)
{
  GraftTorch torch = GPOINTER_TO_INT (data);
  g_autoptr (GraftGraph) graph = graft_graph_new (graft_dialect_get (torch));
  GraftNamespace *ns = graft_graph_get_namespace (graph);
  g_autoptr (GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) nodes = g_ptr_array_new ();
  GraftNode  *x, *node;
  GraftEdit  *edit;
  GraftArg    args;
  const char *erased;

  x = graft_graph_create_node (graph, GRAFT_OP_PLACEHOLDER, "x", NULL, NULL, NULL, NULL);
  g_free (model_name (torch, used, counts, "x"));
  for (guint i = 0; i < 60; i++)
    {
      g_autofree char *want = NULL;

      if (i == 30 || i == 45)
        {
          /* Taken verbatim: the run's next name (then kept in the set,
           * and the run goes on past it), then one past the run (then
           * the base is counted on the general way). */
          const char      *name = i == 30 ? "neg_30" : "neg_50";
          g_autofree char *v = model_name (torch, used, counts, name);

          g_assert_cmpstr (v, ==, name);
          g_assert_false (graft_namespace_contains (ns, name));
          node = graft_graph_create_node_named (graph, GRAFT_OP_CALL_FUNCTION, "torch.neg", NULL,
                                                NULL, name, NULL);
          g_assert_cmpstr (graft_node_get_name (node), ==, name);
        }
      want = model_name (torch, used, counts, "neg");
      graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
      graft_arg_init_node (&args.items[0], x);
      node = graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "torch.neg", &args, NULL,
                                      NULL, NULL);
      g_assert_cmpstr (graft_node_get_name (node), ==, want);
      g_ptr_array_add (nodes, node);
    }
  g_assert_cmpuint (graft_namespace_get_size (ns), ==, g_hash_table_size (used));
  for (guint i = 0; i < nodes->len; i++)
    {
      const char *name = graft_node_get_name (nodes->pdata[i]);

      g_assert_true (graft_namespace_contains (ns, name));
      g_assert_true (graft_graph_find_node (graph, name) == nodes->pdata[i]);
    }
  /* Not names of the run. */
  g_assert_false (graft_namespace_contains (ns, "neg_0"));
  g_assert_false (graft_namespace_contains (ns, "neg_05"));
  g_assert_false (graft_namespace_contains (ns, "neg_1000"));
  g_assert_false (graft_namespace_contains (ns, "ne_5"));

  /* Erased, a node's name stays taken; undone, the node is found again. */
  node = nodes->pdata[10];
  graft_graph_begin_edit (graph);
  graft_graph_erase_node (graph, node);
  edit = graft_graph_end_edit (graph);
  g_assert_null (graft_graph_find_node (graph, graft_node_get_name (node)));
  g_assert_true (graft_namespace_contains (ns, graft_node_get_name (node)));
  graft_edit_undo (edit);
  g_assert_true (graft_graph_find_node (graph, graft_node_get_name (node)) == node);
  graft_edit_free (edit);

  /* Made and undone, the names are free; redone, bound again (another
   * base, counted on a few times first: the edit's names are kept in its
   * run). */
  for (guint i = 0; i < 5; i++)
    {
      graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
      graft_arg_init_node (&args.items[0], x);
      graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "torch.relu", &args, NULL, NULL,
                               NULL);
    }
  graft_graph_begin_edit (graph);
  for (guint i = 0; i < 3; i++)
    {
      graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, 1);
      graft_arg_init_node (&args.items[0], x);
      g_ptr_array_add (nodes, graft_graph_create_node (graph, GRAFT_OP_CALL_FUNCTION, "torch.relu",
                                                       &args, NULL, NULL, NULL));
    }
  edit = graft_graph_end_edit (graph);
  g_assert_cmpstr (graft_node_get_name (nodes->pdata[nodes->len - 1]), ==, "relu_7");
  graft_edit_undo (edit);
  for (guint i = nodes->len - 3; i < nodes->len; i++)
    g_assert_false (graft_namespace_contains (ns, graft_node_get_name (nodes->pdata[i])));
  graft_edit_redo (edit);
  for (guint i = nodes->len - 3; i < nodes->len; i++)
    {
      const char *name = graft_node_get_name (nodes->pdata[i]);

      g_assert_true (graft_namespace_contains (ns, name));
      g_assert_true (graft_graph_find_node (graph, name) == nodes->pdata[i]);
    }
  /* Erased after being put back (by its address, from the set). */
  node = nodes->pdata[nodes->len - 2];
  erased = graft_node_get_name (node); /* the namespace's: outlives the node */
  graft_graph_erase_node (graph, node);
  g_assert_null (graft_graph_find_node (graph, erased));
  g_assert_true (graft_namespace_contains (ns, erased));
  g_assert_true (
      graft_graph_find_node (graph, graft_node_get_name (nodes->pdata[nodes->len - 1])) ==
      nodes->pdata[nodes->len - 1]);
  graft_edit_free (edit);
}

static void
test_predicates (void)
{
  g_assert_true (graft_is_python_keyword ("lambda"));
  g_assert_true (graft_is_python_keyword ("None"));
  g_assert_false (graft_is_python_keyword ("sum"));
  g_assert_true (graft_is_python_builtin ("sum"));
  g_assert_true (graft_is_python_builtin ("Ellipsis"));
  g_assert_false (graft_is_python_builtin ("torch"));
  g_assert_true (graft_is_python_identifier ("_x1"));
  g_assert_true (graft_is_python_identifier ("lambda"));
  g_assert_true (graft_is_python_identifier ("\xc3\xb1x"));
  g_assert_false (graft_is_python_identifier ("1st"));
  g_assert_false (graft_is_python_identifier ("a-b"));
  g_assert_false (graft_is_python_identifier (""));
  g_assert_false (graft_is_python_identifier ("\xff"));
}

/* _graft_namespace_create_name_stable(): a stable candidate's address may
 * have been remembered for other text (another caller's string, freed,
 * its memory now the stable one's): compared once, then trusted. */
static void
test_counted_stable (void)
{
  g_autoptr (GraftNamespace) ns = graft_namespace_new (graft_dialect_get (GRAFT_TORCH_2_6));
  char buf[8];

  strcpy (buf, "neg");
  g_assert_cmpstr (graft_namespace_create_name (ns, buf, GRAFT_NAME_DEFAULT), ==, "neg");
  g_assert_cmpstr (graft_namespace_create_name (ns, buf, GRAFT_NAME_DEFAULT), ==, "neg_1");
  /* The address reused for other text, stable from now on. */
  strcpy (buf, "cat");
  g_assert_cmpstr (_graft_namespace_create_name_stable (ns, buf), ==, "cat");
  g_assert_cmpstr (_graft_namespace_create_name_stable (ns, buf), ==, "cat_1");
  g_assert_cmpstr (_graft_namespace_create_name_stable (ns, buf), ==, "cat_2");
  for (guint i = 3; i < 25; i++)
    {
      g_autofree char *want = g_strdup_printf ("cat_%u", i);

      g_assert_cmpstr (_graft_namespace_create_name_stable (ns, buf), ==, want);
    }
  /* Counted meanwhile through another candidate of the same base. */
  g_assert_cmpstr (graft_namespace_create_name (ns, "cat", GRAFT_NAME_DEFAULT), ==, "cat_25");
  g_assert_cmpstr (_graft_namespace_create_name_stable (ns, buf), ==, "cat_26");
  g_assert_cmpstr (graft_namespace_create_name (ns, "neg", GRAFT_NAME_DEFAULT), ==, "neg_2");
}

/* _graft_namespace_add_new_canonical() (the `.pt2` reader's names) is
 * _graft_namespace_add_new() and graft_namespace_is_canonical(): the same
 * answer for each name, and the same names made after them (counts and
 * runs of taken `base_<k>` noted alike). */
static void
test_add_new_canonical (gconstpointer data)
{
  static const char *const names[] = {
    "x",
    "add_3",
    "add_01",
    "_08",
    "sum",
    "for",
    "layers_0",
    "p_conv_1_weight",
    "a-b_1",
    "x_1",
    "x_2",
    "x_4",
    "a_1-2",
    "0abc",
    "print",
    "abc_007x",
    "None",
    "self_1",
    "b_0",
    "\xc3\xa9_1",
    "neg_1",
    "neg_2",
    "neg_5",
    "getattr",
    "conv1",
    "_",
    "_1",
    "add_2",
    "add_1",
    "relu__1",
    "w_0_1",
    "x_1000000000000000000000",
  };
  static const char *const after[] = {
    "x",
    "add",
    "layers",
    "layers_0",
    "neg",
    "neg",
    "neg",
    "b",
    "sum",
    "a_b",
    "w_0",
    "_",
    "x_3",
    "relu_",
  };
  const GraftDialect *dialect = graft_dialect_get (GPOINTER_TO_INT (data));
  g_autoptr (GraftNamespace) plain = graft_namespace_new (dialect);
  g_autoptr (GraftNamespace) once = graft_namespace_new (dialect);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      gboolean    canonical = !graft_namespace_is_canonical (names[i], GRAFT_NAME_DEFAULT);
      const char *a = _graft_namespace_add_new (plain, names[i]);
      const char *b = _graft_namespace_add_new_canonical (once, names[i], &canonical);

      g_assert_cmpstr (a, ==, names[i]);
      g_assert_cmpstr (b, ==, names[i]);
      g_assert_cmpint (canonical, ==, graft_namespace_is_canonical (names[i], GRAFT_NAME_DEFAULT));
      g_assert_true (graft_namespace_contains (once, names[i]));
    }
  for (guint i = 0; i < G_N_ELEMENTS (after); i++)
    g_assert_cmpstr (graft_namespace_create_name (once, after[i], GRAFT_NAME_DEFAULT), ==,
                     graft_namespace_create_name (plain, after[i], GRAFT_NAME_DEFAULT));
  g_assert_cmpuint (graft_namespace_get_size (once), ==, graft_namespace_get_size (plain));
}

/* A numbered candidate counted on past a hole (`layers.2` called in a
 * loop, `layers_1` free: the run of its base is empty), against both
 * torches' models: candidates repeated as loops repeat them, over bases
 * that end in digits (`conv1`, `add_10` is `add`'s), with names read
 * verbatim inside and past what was counted, and undo releasing names
 * (any name in torch 1.x, the newest in 2.x).  Each count goes on from
 * where the last one of its base ended, never past a released name. */
static void
test_numbered_spans (gconstpointer data)
{
  static const char *const candidates[] = {
    "layers.2",
    "layers.3",
    "layers_2",
    "layers.7",
    "layers",
    "layers.0",
    "conv1.2",
    "conv1_1",
    "conv1",
    "add_10",
    "add",
    "add_3",
    "x_2",
    "x.5",
    "a-b.2",
  };
  GraftTorch torch = GPOINTER_TO_INT (data);
  gboolean   per_base = torch == GRAFT_TORCH_2_6;
  g_autoptr (GraftNamespace) ns = graft_namespace_new (graft_dialect_get (torch));
  g_autoptr (GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) made = g_ptr_array_new_with_free_func (made26_free);
  GRand *rand = g_rand_new_with_seed (20261206 + torch);

  for (guint i = 0; i < 1000; i++)
    {
      const char *candidate = candidates[g_rand_int_range (rand, 0, G_N_ELEMENTS (candidates))];
      guint       kind = g_rand_int_range (rand, 0, 10);
      guint       times = g_rand_int_range (rand, 1, 12);
      Made26     *m;

      if (kind == 0 && made->len > 0)
        {
          /* Undo a few names. */
          for (guint j = 0; j < times && made->len > 0; j++)
            {
              guint k = per_base || g_rand_boolean (rand)
                            ? made->len - 1
                            : (guint) g_rand_int_range (rand, 0, made->len);

              m = made->pdata[k];
              _graft_namespace_remove (ns, m->name);
              g_assert_true (g_hash_table_remove (used, m->name));
              if (per_base)
                g_hash_table_insert (counts, g_strdup (m->base),
                                     GSIZE_TO_POINTER ((gsize) m->old_count));
              g_ptr_array_remove_index (made, k);
            }
          continue;
        }
      if (kind == 1)
        {
          /* A name read verbatim. */
          static const char *const bases[] = { "layers", "conv1", "add", "x" };
          g_autofree char         *name =
              g_strdup_printf ("%s_%d", bases[g_rand_int_range (rand, 0, G_N_ELEMENTS (bases))],
                               g_rand_int_range (rand, 1, 400));

          if (g_hash_table_contains (used, name))
            continue;
          m = g_new0 (Made26, 1);
          if (per_base)
            m->name = model26_create_name (used, counts, name, GRAFT_NAME_DEFAULT, &m->base,
                                           &m->old_count);
          else
            m->name = model_create_name (used, name, GRAFT_NAME_DEFAULT);
          g_assert_cmpstr (_graft_namespace_add_verbatim (ns, name), ==, name);
          g_ptr_array_add (made, m);
          continue;
        }
      /* A loop's body: the same candidate again and again. */
      for (guint j = 0; j < times; j++)
        {
          m = g_new0 (Made26, 1);
          if (per_base)
            m->name = model26_create_name (used, counts, candidate, GRAFT_NAME_DEFAULT, &m->base,
                                           &m->old_count);
          else
            m->name = model_create_name (used, candidate, GRAFT_NAME_DEFAULT);
          g_assert_cmpstr (graft_namespace_create_name (ns, candidate, GRAFT_NAME_DEFAULT), ==,
                           m->name);
          g_ptr_array_add (made, m);
        }
    }
  g_assert_cmpuint (graft_namespace_get_size (ns), ==, g_hash_table_size (used));
  g_rand_free (rand);
}

/* `layers.2` a hundred thousand times, as a loop calling a module of a
 * list makes it: layers_2 ... layers_100001, each counted on from where the
 * last count ended (counting on from 2 every time took minutes), and a
 * name released in the middle is made again, once. */
static void
test_numbered_loop (gconstpointer data)
{
  g_autoptr (GraftNamespace) ns = graft_namespace_new (graft_dialect_get (GPOINTER_TO_INT (data)));
  g_autoptr (GTimer) timer = g_timer_new ();
  static const char candidate[] = "layers.2";
  const char       *name = NULL;

  for (guint i = 0; i < 100000; i++)
    name = graft_namespace_create_name (ns, candidate, GRAFT_NAME_DEFAULT);
  g_assert_cmpstr (name, ==, "layers_100001");
  g_test_message ("100,000 names in %.3f s", g_timer_elapsed (timer, NULL));
  _graft_namespace_remove (ns, "layers_100001");
  _graft_namespace_remove (ns, "layers_50000");
  g_assert_cmpstr (graft_namespace_create_name (ns, candidate, GRAFT_NAME_DEFAULT), ==,
                   "layers_50000");
  g_assert_cmpstr (graft_namespace_create_name (ns, candidate, GRAFT_NAME_DEFAULT), ==,
                   "layers_100001");
  g_assert_cmpstr (graft_namespace_create_name (ns, "layers_3", GRAFT_NAME_DEFAULT), ==,
                   "layers_100002");
  g_assert_cmpstr (graft_namespace_create_name (ns, "layers.1", GRAFT_NAME_DEFAULT), ==,
                   "layers_1");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/namespace/snake-case", test_snake_case);
  g_test_add_func ("/core/namespace/name-for-target", test_name_for_target);
  g_test_add_func ("/core/namespace/create-name", test_create_name);
  g_test_add_func ("/core/namespace/suffix-runs", test_suffix_runs);
  g_test_add_func ("/core/namespace/against-model", test_against_model);
  g_test_add_func ("/core/namespace/against-model-2.6", test_against_model_26);
  g_test_add_data_func ("/core/namespace/against-model-stable-1.13",
                        GINT_TO_POINTER (GRAFT_TORCH_1_13), test_against_model_stable);
  g_test_add_data_func ("/core/namespace/against-model-stable-2.6",
                        GINT_TO_POINTER (GRAFT_TORCH_2_6), test_against_model_stable);
  g_test_add_data_func ("/core/namespace/against-model-stable-path-1.13",
                        GINT_TO_POINTER (GRAFT_TORCH_1_13 | 0x100), test_against_model_stable);
  g_test_add_data_func ("/core/namespace/against-model-stable-path-2.6",
                        GINT_TO_POINTER (GRAFT_TORCH_2_6 | 0x100), test_against_model_stable);
  g_test_add_func ("/core/namespace/per-base-counts", test_per_base_counts);
  g_test_add_func ("/core/namespace/counted-again", test_counted_again);
  g_test_add_func ("/core/namespace/counted-stable", test_counted_stable);
  g_test_add_data_func ("/core/namespace/counted-released-1.13", GINT_TO_POINTER (GRAFT_TORCH_1_13),
                        test_counted_released);
  g_test_add_data_func ("/core/namespace/counted-released-2.6", GINT_TO_POINTER (GRAFT_TORCH_2_6),
                        test_counted_released);
  g_test_add_func ("/core/namespace/builtin-flag", test_builtin_flag);
  g_test_add_func ("/core/namespace/big-count-undo", test_big_count_undo);
  g_test_add_func ("/core/namespace/huge-count", test_huge_count);
  g_test_add_func ("/core/namespace/names-never-released", test_names_never_released);
  g_test_add_func ("/core/namespace/predicates", test_predicates);
  g_test_add_data_func ("/core/namespace/counted-runs-1.13", GINT_TO_POINTER (GRAFT_TORCH_1_13),
                        test_counted_runs);
  g_test_add_data_func ("/core/namespace/counted-runs-2.6", GINT_TO_POINTER (GRAFT_TORCH_2_6),
                        test_counted_runs);
  g_test_add_data_func ("/core/namespace/run-pages-1.13", GINT_TO_POINTER (GRAFT_TORCH_1_13),
                        test_run_pages);
  g_test_add_data_func ("/core/namespace/run-pages-2.6", GINT_TO_POINTER (GRAFT_TORCH_2_6),
                        test_run_pages);
  g_test_add_func ("/core/namespace/set-growth", test_set_growth);
  g_test_add_data_func ("/core/namespace/add-new-canonical-1.13",
                        GINT_TO_POINTER (GRAFT_TORCH_1_13), test_add_new_canonical);
  g_test_add_data_func ("/core/namespace/add-new-canonical-2.6", GINT_TO_POINTER (GRAFT_TORCH_2_6),
                        test_add_new_canonical);
  g_test_add_data_func ("/core/namespace/numbered-spans-1.13", GINT_TO_POINTER (GRAFT_TORCH_1_13),
                        test_numbered_spans);
  g_test_add_data_func ("/core/namespace/numbered-spans-2.6", GINT_TO_POINTER (GRAFT_TORCH_2_6),
                        test_numbered_spans);
  g_test_add_data_func ("/core/namespace/numbered-loop-1.13", GINT_TO_POINTER (GRAFT_TORCH_1_13),
                        test_numbered_loop);
  g_test_add_data_func ("/core/namespace/numbered-loop-2.6", GINT_TO_POINTER (GRAFT_TORCH_2_6),
                        test_numbered_loop);

  return g_test_run ();
}
