/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-autosave.h: copies of unsaved work in the user's state folder, so
 * a crash loses nothing.
 */
#pragma once

#include "graft-document.h"

G_BEGIN_DECLS

char     *graft_autosave_path_for (GFile         *file) G_GNUC_WARN_UNUSED_RESULT;
void      graft_autosave_write    (GraftDocument *document);
void      graft_autosave_flush    (void);
void      graft_autosave_discard  (GFile         *file);
gboolean  graft_autosave_find     (GFile         *file,
                                   char         **out_code,
                                   char         **out_pattern,
                                   char         **out_replacement);

G_END_DECLS
