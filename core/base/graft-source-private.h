/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-source-private.h: a source whose text is a read-only mapping of
 * its file (a `.pt2` archive: nearly a gigabyte at a million nodes, read
 * through libzip, which copies what it reads), and a source that is
 * part of another's text (its JSON member, when stored as it is).
 */
#pragma once

#include "graft-source.h"

G_BEGIN_DECLS

GraftSource *_graft_source_new_mapped (const char *filename,
                                       int         fd,
                                       gsize       length) G_GNUC_WARN_UNUSED_RESULT;
gboolean     _graft_source_is_intact (GraftSource *self);
GraftSource *_graft_source_new_view (const char  *filename,
                                     GraftSource *whole,
                                     gsize        offset,
                                     gsize        length) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
