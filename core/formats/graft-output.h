/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-output.h: writing outputs (pictures, code, listings) atomically.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

gboolean graft_output_write_file (const char *path,
                                  const char *data,
                                  gsize       length,
                                  GError    **error);

G_END_DECLS
