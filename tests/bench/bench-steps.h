/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-steps.h: what the benches of the editor's steps share
 * (bench-codegen-steps, bench-scopes-steps, bench-undo-steps).
 */
#pragma once

#include "graft-view.h"

double       bench_thread_ms (void);
GraftGraph  *bench_load_graph (GraftSource *source);
GraftSource *bench_read_source (const char *path);
GraftGraph  *bench_open_graph (int           argc,
                               char        **argv,
                               const char   *name,
                               guint         default_nodes,
                               guint        *n_nodes,
                               GraftSource **source);
