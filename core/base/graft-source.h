/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-source.h: an input text with its file name and a line table.
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

GraftSource *graft_source_new (const char *filename,
                               const char *text,
                               gssize      length) G_GNUC_WARN_UNUSED_RESULT;
GraftSource *graft_source_new_take (const char *filename,
                                    char       *text,
                                    gsize       length) G_GNUC_WARN_UNUSED_RESULT;
GraftSource *graft_source_ref (GraftSource *self);
void         graft_source_unref (GraftSource *self);
const char  *graft_source_get_filename (GraftSource *self);
const char  *graft_source_get_text (GraftSource *self);
gsize        graft_source_get_length (GraftSource *self);
void         graft_source_locate (GraftSource *self,
                                  gsize        offset,
                                  guint       *out_line,
                                  guint       *out_column);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftSource, graft_source_unref)

G_END_DECLS
