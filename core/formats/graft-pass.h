/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pass.h: a rewrite written as a standalone torch.fx pass
 * (`graft rewrite --to pass`, cli.md), and the other texts made of copied
 * definitions: one definition on its own, a rules file.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"
#include "graft-dialect.h"

G_BEGIN_DECLS

/**
 * GraftPassRule:
 * @pattern_source: the Python text that defines the pattern
 * @pattern: the name of its `def` or `class`
 * @replacement_source: the Python text that defines the replacement
 * @replacement: the name of its `def` or `class`
 *
 * One rule of a pass; every field is borrowed.
 */
typedef struct
{
  GraftSource *pattern_source;
  const char  *pattern;
  GraftSource *replacement_source;
  const char  *replacement;
} GraftPassRule;

/**
 * GraftPassOptions:
 * @dialect: the torch the pass is written for
 * @origin: (nullable): where the rules come from, for the pass's first
 *   comment (a file name)
 * @fixpoint: 0 for one pass; N for passes until one replaces nothing, at
 *   most N
 * @dce: remove dead code after the last pass
 * @ignore_literals: a literal in a pattern matches any literal (torch
 *   2.x's `ignore_literals`; torch 1.13.1 has no such option)
 */
typedef struct
{
  const GraftDialect *dialect;
  const char         *origin;
  guint               fixpoint;
  gboolean            dce;
  gboolean            ignore_literals;
} GraftPassOptions;

char *graft_pass_write (const GraftPassRule    *rules,
                        guint                   n_rules,
                        const GraftPassOptions *options,
                        GError                **error) G_GNUC_WARN_UNUSED_RESULT;

char *graft_pass_dup_definition (GraftSource *source,
                                 const char  *name,
                                 GError     **error) G_GNUC_WARN_UNUSED_RESULT;
char *graft_rules_file_write (const GraftPassRule *rules,
                              guint                n_rules,
                              const gboolean      *left_out,
                              const char          *comment,
                              GError             **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
