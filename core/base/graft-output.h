/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-output.h: writing outputs (pictures, code, listings) atomically,
 * at once or in pieces.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

typedef struct _GraftOutputFile GraftOutputFile;

gboolean graft_output_write_file (const char *path,
                                  const char *data,
                                  gsize       length,
                                  GError    **error);

GraftOutputFile *graft_output_file_open (const char *path,
                                         GError    **error) G_GNUC_WARN_UNUSED_RESULT;
const char      *graft_output_file_get_temp_path (GraftOutputFile *self);
gboolean         graft_output_file_write (GraftOutputFile *self,
                                          const void      *data,
                                          gsize            length,
                                          GError         **error);
gboolean         graft_output_file_sync (GraftOutputFile *self,
                                         GError         **error);
gboolean         graft_output_file_commit (GraftOutputFile *self,
                                           GError         **error);
void             graft_output_file_abandon (GraftOutputFile *self);

char *graft_output_join_pieces (GPtrArray *pieces,
                                gsize     *length) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftOutputFile, graft_output_file_abandon)

G_END_DECLS
