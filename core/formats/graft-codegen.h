/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-codegen.h: Python source for a graph, byte-identical to torch.fx's
 * `GraphModule.code` in the graph's dialect, and the readable class form of
 * `gm.print_readable (print_output=False)`.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

/**
 * GraftReadableFlags:
 * @GRAFT_READABLE_DEFAULT: as `print_readable (print_output=False)`
 * @GRAFT_READABLE_STRIDE: with `include_stride=True`: a tensor's strides
 *   after its shape (`f32[2, 4][4, 1]`)
 * @GRAFT_READABLE_DEVICE: with `include_device=True`: then its device
 *
 * What the readable form shows beyond torch's defaults.
 */
typedef enum {
  GRAFT_READABLE_DEFAULT = 0,
  GRAFT_READABLE_STRIDE = 1 << 0,
  GRAFT_READABLE_DEVICE = 1 << 1,
} GraftReadableFlags;

char       *graft_codegen_readable (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;
GString    *graft_codegen_readable_string (GraftGraph        *graph,
                                           GraftReadableFlags flags) G_GNUC_WARN_UNUSED_RESULT;
char       *graft_codegen_python (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;
GString    *graft_codegen_python_string (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;
GString    *graft_codegen_module_code_string (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;
GString    *graft_codegen_empty_module_code_string (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;
gboolean    graft_codegen_check_module (GraftGraph *graph,
                                        GError    **error);
gboolean    graft_codegen_check_module_added (GraftGraph *graph,
                                              GPtrArray  *nodes,
                                              GError    **error);
gboolean    graft_codegen_check_compiles (GraftGraph *graph,
                                          GError    **error);
char       *graft_codegen_function_source (GraftGraph *graph,
                                           const char *name) G_GNUC_WARN_UNUSED_RESULT;
char       *graft_codegen_pattern_source (GraftGraph *graph,
                                          const char *name) G_GNUC_WARN_UNUSED_RESULT;
char       *graft_codegen_call_form (const char *target) G_GNUC_WARN_UNUSED_RESULT;
const char *graft_codegen_operator_format (const char *target);

typedef struct _GraftCodegenJob GraftCodegenJob;

/* Nodes a job's first steps look at per node of their budget, before the
 * lines: a look costs 30-40 ns a node, a line 500-1,000. */
#define GRAFT_CODEGEN_JOB_LOOK 25

GraftCodegenJob *graft_codegen_job_new (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;
gboolean         graft_codegen_job_step (GraftCodegenJob *job,
                                         guint            n_nodes);
char            *graft_codegen_job_finish (GraftCodegenJob *job) G_GNUC_WARN_UNUSED_RESULT;
char            *graft_codegen_job_take_code (GraftCodegenJob *job) G_GNUC_WARN_UNUSED_RESULT;
GHashTable      *graft_codegen_job_dup_renamed (GraftCodegenJob *job) G_GNUC_WARN_UNUSED_RESULT;
void             graft_codegen_job_free (GraftCodegenJob *job);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftCodegenJob, graft_codegen_job_free)

typedef struct _GraftCodegenCheck GraftCodegenCheck;

GraftCodegenCheck *graft_codegen_check_new (GraftGraph *graph) G_GNUC_WARN_UNUSED_RESULT;
gboolean           graft_codegen_check_step (GraftCodegenCheck *check,
                                             guint              n_nodes);
gboolean           graft_codegen_check_finish (GraftCodegenCheck *check,
                                               GError           **error);
void               graft_codegen_check_free (GraftCodegenCheck *check);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftCodegenCheck, graft_codegen_check_free)

G_END_DECLS
