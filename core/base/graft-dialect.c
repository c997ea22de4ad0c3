/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-dialect.c: the two torches Graft speaks, as a table, and the
 * choice of one by name or from `GRAFT_TORCH`.  Adding a third torch is a
 * row here, a GraftTorch value, and one generated table per dialect in
 * trace/ (the torch function table) and base/ (the aten schemas).
 */
#include "config.h"

#include "graft-dialect.h"

#include <string.h>

/* torch.fx's `_side_effectful_functions` (`torch/fx/node.py`) of each torch,
 * as `_get_qualified_name` prints them, once `import torch` has run (2.6's
 * `has_side_effect` adds `torch.ops.higher_order.call_torchbind` then, and
 * `inductor.resize_storage_bytes_` is there since its `hasattr` holds). */
static const char *const side_effectful_2_6[] = {
  "torch._assert",
  "torch._assert_async",
  "torch.ops.aten._assert_async.msg",
  "torch.ops.aten._assert_scalar.default",
  "torch.ops.aten._assert_tensor_metadata.default",
  "torch.ops.aten.sym_constrain_range.default",
  "torch.ops.aten.sym_constrain_range_for_size.default",
  "torch.ops.profiler._record_function_enter",
  "torch.ops.profiler._record_function_enter_new",
  "torch.ops.profiler._record_function_exit",
  "torch.ops.inductor.accumulate_grad_.default",
  "torch.ops.inductor.resize_storage_bytes_.default",
  "torch.ops.higher_order.call_torchbind",
  "torch._C._set_grad_enabled",
  "torch.amp.autocast_mode._enter_autocast",
  "torch.amp.autocast_mode._exit_autocast",
  NULL,
};

static const char *const side_effectful_1_13[] = {
  "torch._assert",
  "torch.ops.profiler._record_function_enter",
  "torch.ops.profiler._record_function_enter_new",
  "torch.ops.profiler._record_function_exit",
  NULL,
};

static const GraftDialect dialects[GRAFT_N_TORCHES] = {
  [GRAFT_TORCH_2_6] = {
      .torch = GRAFT_TORCH_2_6,
      .name = "2.6",
      .version = "2.6.0",
      .users_field = "num_users",
      .side_effectful_functions = side_effectful_2_6,
      .frees_unused_values = TRUE,
      .names_count_per_base = TRUE,
      .traces_extra_values = TRUE,
      .matches_structured_args = TRUE,
      .matches_attributes_by_value = TRUE,
      .copies_replacement_attributes = TRUE,
      .shows_dict_key_in_error = TRUE,
      .snake_case_ascii_only = TRUE,
      .prints_readable = TRUE,
      .tags_node_lines = TRUE,
      .traces_variadic_forward = TRUE,
      .has_export = TRUE,
      .has_ignore_literals = TRUE,
      .impure_if_schema_mutable = TRUE,
      .locates_assert_at_test = TRUE,
      .locates_loop_next_at_iter = TRUE,
      .float_modulo_by_zero = "float modulo by zero",
  },
  [GRAFT_TORCH_1_13] = {
      .torch = GRAFT_TORCH_1_13,
      .name = "1.13",
      .version = "1.13.1",
      .users_field = "#users",
      .side_effectful_functions = side_effectful_1_13,
      .float_modulo_by_zero = "float modulo",
  },
};

/**
 * graft_dialect_get:
 * @torch: a torch
 *
 * Returns: (transfer none): its dialect
 */
const GraftDialect *
graft_dialect_get (GraftTorch torch)
{
  g_return_val_if_fail ((guint) torch < GRAFT_N_TORCHES, &dialects[GRAFT_TORCH_2_6]);
  return &dialects[torch];
}

/**
 * graft_dialect_get_default:
 *
 * Returns: (transfer none): the dialect Graft speaks when nothing says
 *   which: torch 2.6
 */
const GraftDialect *
graft_dialect_get_default (void)
{
  return &dialects[GRAFT_TORCH_2_6];
}

/**
 * graft_dialect_from_name:
 * @name: `2.6` or `1.13` (`2.6.0` and `1.13.1` are taken too)
 *
 * Returns: (transfer none) (nullable): the dialect of that name, or %NULL
 */
const GraftDialect *
graft_dialect_from_name (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < GRAFT_N_TORCHES; i++)
    if (strcmp (name, dialects[i].name) == 0 || strcmp (name, dialects[i].version) == 0)
      return &dialects[i];
  return NULL;
}

/**
 * graft_dialect_list_names:
 *
 * Returns: the names graft_dialect_from_name() takes, for messages:
 *   `2.6 or 1.13`
 */
const char *
graft_dialect_list_names (void)
{
  static gsize names = 0;

  if (g_once_init_enter (&names))
    {
      GString *list = g_string_new (NULL);

      for (guint i = 0; i < GRAFT_N_TORCHES; i++)
        g_string_append_printf (list, "%s%s", i == 0 ? "" : i + 1 == GRAFT_N_TORCHES ? " or "
                                                                                     : ", ",
                                dialects[i].name);
      g_once_init_leave (&names, (gsize) g_string_free (list, FALSE));
    }
  return (const char *) names;
}

/**
 * graft_dialect_from_environment:
 *
 * Returns: (transfer none) (nullable): the dialect `GRAFT_TORCH` names, the
 *   default when it is unset or empty, or %NULL when it names none (the
 *   caller says so, as a usage error)
 */
const GraftDialect *
graft_dialect_from_environment (void)
{
  const char *value = g_getenv ("GRAFT_TORCH");

  if (value == NULL || *value == '\0')
    return graft_dialect_get_default ();
  return graft_dialect_from_name (value);
}
