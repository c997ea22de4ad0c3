/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-rules-file.h: reading a rules file (cli.md, "Rules") into a rule
 * set, with every rule traced and checked before anything is applied.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"
#include "graft-input.h"
#include "graft-rules.h"

G_BEGIN_DECLS

GraftRuleSet *graft_input_set_load_rules (GraftInputSet *self,
                                          const char    *path,
                                          GPtrArray    **out_refs,
                                          GError       **error) G_GNUC_WARN_UNUSED_RESULT;
gboolean      graft_rule_check_fit (GraftPattern *pattern,
                                    GraftGraph   *replacement,
                                    char        **out_problem);

G_END_DECLS
