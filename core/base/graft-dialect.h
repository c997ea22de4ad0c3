/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-dialect.h: which torch Graft speaks.  A dialect is one torch
 * release whose torch.fx Graft reproduces byte for byte; everything that
 * differs between releases (names, the torch function table, code, listings,
 * matching, rewriting, what is an error) is one field of GraftDialect, read
 * where it matters.  Code never compares dialects: it asks the dialect of
 * the graph at hand.  docs/dialects.md has each difference with its source
 * in torch.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

/**
 * GraftTorch:
 * @GRAFT_TORCH_2_6: torch 2.6.0 (Debian 13), the default
 * @GRAFT_TORCH_1_13: torch 1.13.1 (Debian 12)
 * @GRAFT_N_TORCHES: how many there are (an index bound for per-dialect data)
 */
typedef enum {
  GRAFT_TORCH_2_6,
  GRAFT_TORCH_1_13,
  GRAFT_N_TORCHES,
} GraftTorch;

/**
 * GraftDialect:
 * @torch: which torch
 * @name: the name `--torch` and `GRAFT_TORCH` take: `2.6`, `1.13`
 * @version: the torch release: `2.6.0`, `1.13.1`
 * @users_field: the listing's user count key: `num_users` or `#users`
 * @side_effectful_functions: what torch.fx's `_side_effectful_functions`
 *   (`node.py`) holds, as the qualified names call_function targets are
 *   stored under (`torch._assert`, `torch.ops.aten._assert_scalar.default`),
 *   %NULL-terminated: `Node.is_impure` says a call of one is impure, so
 *   `Graph.eliminate_dead_code` keeps it unused (4 names in 1.13.1, 16 in
 *   2.6)
 * @frees_unused_values: generated code frees a value nothing uses on its
 *   own line (`size = x.size();  size = None`)
 * @names_count_per_base: `_Namespace.create_name` counts on from the last
 *   suffix used for the base (`add_3` then `add` gives `add_4`), and an
 *   empty name becomes `_unnamed`
 * @traces_extra_values: symbolic tracing records `abs()` of a proxy,
 *   `range` and enum members as arguments (1.13.1 refuses them; 2.6 also
 *   records dataclass instances, which Graft cannot define)
 * @matches_structured_args: the matcher compares arguments as nested lists
 *   and tuples (not flattened), kwargs in order, lists of nodes included,
 *   and fills out aten operators' arguments from their schema
 * @matches_attributes_by_value: get_attr nodes match by the type of the
 *   attribute's value, not by its name
 * @copies_replacement_attributes: a rewrite copies the replacement's
 *   parameters and buffers into the graph module, not only its submodules
 * @shows_dict_key_in_error: the error for a traced value as the key of a
 *   dict argument shows the key (`Got key: x`); 1.13.1 prints `{k}`
 * @snake_case_ascii_only: `_snake_case` puts `_` only between an ASCII
 *   lower-case and an ASCII upper-case letter (a regular expression in
 *   2.6); 1.13.1 asks str.islower/isupper, which non-ASCII letters pass
 * @prints_readable: `gm.print_readable(print_output=False)` returns the
 *   readable form (torch 1.13.1's print_readable takes no arguments and
 *   only prints)
 * @tags_node_lines: generated code tags each node with a `# COUNTER: N`
 *   line and then drops every line in which `# COUNTER: DIGITS` occurs (a
 *   node's own line too, when its text holds that) and the blank lines
 *   that open the body; a graph with nodes never gets the `pass` body
 * @traces_variadic_forward: the traced function may have `*args`,
 *   `**kwargs` (a placeholder each, targets `*args`, `**kwargs`) and
 *   keyword-only parameters; torch 1.13.1 on Python 3.11 fails on them
 * @has_export: torch.export exists, so programs (`.pt2` archives and the
 *   texts `print(ep)` and `print_readable()` write) can be read; torch
 *   1.13.1 has no torch.export
 * @has_ignore_literals: torch.fx's `replace_pattern_with_filters` takes
 *   `ignore_literals`, so a pass written for this torch can ask for it
 *   (torch 1.13.1 has neither; Graft gives `--ignore-literals` 2.x's
 *   meaning in both dialects)
 * @locates_assert_at_test: a failing `assert` raises at its test (Python
 *   3.13, under torch 2.6); Python 3.11 (torch 1.13.1's) places it at the
 *   statement, unless the test is a comparison (under any `not`)
 * @locates_loop_next_at_iter: an error of a for loop's next step (a dict
 *   or set changed size while iterated) is raised at the loop's iterable
 *   (Python 3.13); Python 3.11 places it at the `for` statement
 * @float_modulo_by_zero: the text of the ZeroDivisionError of a float `%`
 *   by zero: `float modulo` (Python 3.11, torch 1.13.1's), `float modulo
 *   by zero` (Python 3.13)
 * @impure_if_schema_mutable: `Node.is_impure` also says a call_function is
 *   impure when its target has a mutable schema (`target._schema.is_mutable`:
 *   an OpOverload that writes to an argument, `torch.ops.aten.add_.Tensor`,
 *   `torch.ops.aten.add.out`; graft_aten_schema_target_is_mutable())
 *
 * What one torch does, as data.  Dialects are static, never freed; a
 * table generated per torch is indexed by @torch.
 */
typedef struct
{
  GraftTorch         torch;
  const char        *name;
  const char        *version;
  const char        *users_field;
  const char *const *side_effectful_functions;
  guint              frees_unused_values : 1;
  guint              names_count_per_base : 1;
  guint              traces_extra_values : 1;
  guint              matches_structured_args : 1;
  guint              matches_attributes_by_value : 1;
  guint              copies_replacement_attributes : 1;
  guint              shows_dict_key_in_error : 1;
  guint              snake_case_ascii_only : 1;
  guint              prints_readable : 1;
  guint              tags_node_lines : 1;
  guint              traces_variadic_forward : 1;
  guint              has_export : 1;
  guint              impure_if_schema_mutable : 1;
  guint              locates_assert_at_test : 1;
  guint              locates_loop_next_at_iter : 1;
  guint              has_ignore_literals : 1;
  const char        *float_modulo_by_zero;
} GraftDialect;

const GraftDialect *graft_dialect_get (GraftTorch torch);
const GraftDialect *graft_dialect_get_default (void);
const GraftDialect *graft_dialect_from_name (const char *name);
const GraftDialect *graft_dialect_from_environment (void);
const char         *graft_dialect_list_names (void);

G_END_DECLS
