/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-meta-values-private.h: what a program knows (node metadata, the
 * graph signature) in the forms Graft's own formats write it: value-kind
 * names, and the module stack and the signature as #GraftArg values, which
 * DOT writes and reads with its value syntax (graft-meta-values.c).
 */
#pragma once

#include "graft-arg.h"
#include "graft-meta.h"

G_BEGIN_DECLS

const char *_graft_value_kind_to_string (GraftValueKind kind);
gboolean    _graft_value_kind_from_string (const char     *text,
                                           GraftValueKind *out_kind);

void     _graft_meta_modules_to_arg (const GraftNodeMeta *meta,
                                     GraftArg            *out);
gboolean _graft_meta_modules_from_arg (const GraftArg    *arg,
                                       GraftModuleFrame **out_frames,
                                       guint             *out_n_frames,
                                       char             **out_message);

void     _graft_program_input_to_arg (GraftProgram *program,
                                      guint         i,
                                      GraftArg     *out);
void     _graft_program_output_to_arg (GraftProgram *program,
                                       guint         i,
                                       GraftArg     *out);
gboolean _graft_program_inputs_from_arg (GraftProgram   *program,
                                         const GraftArg *arg,
                                         char          **out_message);
gboolean _graft_program_outputs_from_arg (GraftProgram   *program,
                                          const GraftArg *arg,
                                          char          **out_message);

G_END_DECLS
