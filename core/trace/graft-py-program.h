/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-py-program.h: a Python program (a parsed module whose body has
 * run) and its symbolic tracing into a graph, as torch.fx's
 * `symbolic_trace` would trace it, without executing anything.  The
 * tracer that implements it is core/trace/graft-tracer*.c.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"
#include "graft-dialect.h"

G_BEGIN_DECLS

typedef struct _GraftPyProgram GraftPyProgram;

/**
 * GraftPyRuleRef:
 * @pattern_name: the name the rules file gives the pattern (the last
 *   module-level name bound to it, as `{id(v): k for k, v in vars(mod)}`
 *   finds it)
 * @pattern_entry: the name of its `def` or `class`, which traces it
 * @replacement_name: likewise for the replacement
 * @replacement_entry: likewise
 * @start: byte span of the pair in the source, for errors about the rule
 * @end: (see @start)
 *
 * One `(pattern, replacement)` pair of a rules file's `RULES`.
 */
typedef struct
{
  char   *pattern_name;
  char   *pattern_entry;
  char   *replacement_name;
  char   *replacement_entry;
  guint32 start;
  guint32 end;
} GraftPyRuleRef;

void graft_py_rule_ref_free (GraftPyRuleRef *ref);

GraftPyProgram *graft_py_program_new (GraftSource        *source,
                                      const GraftDialect *dialect,
                                      GError            **error) G_GNUC_WARN_UNUSED_RESULT;
GraftPyProgram *graft_py_program_new_traced (GraftSource        *source,
                                             const GraftDialect *dialect,
                                             const char         *entry,
                                             GraftGraph        **out_graph,
                                             GError            **error) G_GNUC_WARN_UNUSED_RESULT;
void            graft_py_program_free (GraftPyProgram *self);
gboolean        graft_py_program_has_entry (GraftPyProgram *self,
                                            const char     *name);
GraftGraph     *graft_py_program_trace (GraftPyProgram *self,
                                        const char     *entry,
                                        GError        **error) G_GNUC_WARN_UNUSED_RESULT;
GPtrArray      *graft_py_program_get_rules (GraftPyProgram *self,
                                            GError        **error) G_GNUC_WARN_UNUSED_RESULT;
GraftSource    *graft_py_program_get_source (GraftPyProgram *self);
gsize           graft_py_program_get_arena_size (GraftPyProgram *self);
guint           graft_py_program_get_n_parsed (GraftPyProgram *self);
GraftGraph     *graft_trace_source (GraftSource        *source,
                                    const GraftDialect *dialect,
                                    const char         *entry,
                                    GError            **error) G_GNUC_WARN_UNUSED_RESULT;
char          **graft_trace_dup_names (const GraftDialect *dialect,
                                       const char         *module) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftPyProgram, graft_py_program_free)

G_END_DECLS
