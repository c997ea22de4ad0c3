/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-input.h: what an input file is, and the graph it stands for.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"
#include "graft-dialect.h"
#include "graft-py-program.h"

G_BEGIN_DECLS

/**
 * GraftInputKind:
 * @GRAFT_INPUT_PYTHON: Python source to trace
 * @GRAFT_INPUT_LISTING: an FX graph listing (`graph():` ...)
 * @GRAFT_INPUT_DOT: a Graphviz DOT graph
 * @GRAFT_INPUT_EXPORTED_PROGRAM: the text `print(ep)` writes for a
 *   torch.export program (`ExportedProgram:` ...)
 * @GRAFT_INPUT_READABLE_PROGRAM: the text `gm.print_readable()` writes for
 *   a program's graph module (`class GraphModule(torch.nn.Module):` ...)
 * @GRAFT_INPUT_ARCHIVE: a zip archive (`PK\3\4` at offset 0): a `.pt2`
 *   that torch.export.save wrote
 */
typedef enum {
  GRAFT_INPUT_PYTHON,
  GRAFT_INPUT_LISTING,
  GRAFT_INPUT_DOT,
  GRAFT_INPUT_EXPORTED_PROGRAM,
  GRAFT_INPUT_READABLE_PROGRAM,
  GRAFT_INPUT_ARCHIVE,
} GraftInputKind;

GraftSource   *graft_input_read_file (const char *path,
                                      GError    **error) G_GNUC_WARN_UNUSED_RESULT;
GraftInputKind graft_input_detect (GraftSource *source);
GraftGraph    *graft_input_load_graph (GraftSource        *source,
                                       const GraftDialect *dialect,
                                       const char         *entry,
                                       GError            **error) G_GNUC_WARN_UNUSED_RESULT;
void           graft_input_parse_ref (const char *ref,
                                      const char *default_file,
                                      const char *default_name,
                                      char      **out_file,
                                      char      **out_name);

typedef struct _GraftInputSet GraftInputSet;

char              **graft_input_dup_models (GraftSource *source) G_GNUC_WARN_UNUSED_RESULT;
char               *graft_input_dup_definition (GraftSource *source,
                                                const char  *name) G_GNUC_WARN_UNUSED_RESULT;
char               *graft_input_dup_entry (GraftSource *source,
                                           const char  *name,
                                           GError     **error) G_GNUC_WARN_UNUSED_RESULT;
GraftGraph         *graft_input_trace_entry (GraftSource        *source,
                                             const GraftDialect *dialect,
                                             const char         *name,
                                             GError            **error) G_GNUC_WARN_UNUSED_RESULT;
GraftInputSet      *graft_input_set_new (const GraftDialect *dialect) G_GNUC_WARN_UNUSED_RESULT;
void                graft_input_set_free (GraftInputSet *self);
GraftSource        *graft_input_set_get_source (GraftInputSet *self,
                                                const char    *path,
                                                GError       **error);
GraftSource        *graft_input_set_peek_source (GraftInputSet *self,
                                                 const char    *path);
GraftPyProgram     *graft_input_set_get_program (GraftInputSet *self,
                                                 const char    *path,
                                                 GError       **error);
const GraftDialect *graft_input_set_get_dialect (GraftInputSet *self);
GraftGraph         *graft_input_set_load (GraftInputSet *self,
                                          const char    *path,
                                          const char    *name,
                                          gboolean       is_ref,
                                          GError       **error) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftInputSet, graft_input_set_free)

G_END_DECLS
