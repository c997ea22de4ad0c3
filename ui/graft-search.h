/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-search.h: finds the nodes of a document's graph that a search
 * entry names, and walks the canvas through them.
 */
#pragma once

#include "graft-canvas.h"
#include "graft-document.h"

G_BEGIN_DECLS

#define GRAFT_TYPE_SEARCH (graft_search_get_type ())

G_DECLARE_FINAL_TYPE (GraftSearch, graft_search, GRAFT, SEARCH, GObject)

GraftSearch *graft_search_new (GraftDocument  *document,
                               GraftCanvas    *canvas,
                               GtkSearchEntry *entry,
                               GtkLabel       *count) G_GNUC_WARN_UNUSED_RESULT;
void         graft_search_step (GraftSearch *self,
                                int          step);
const char  *graft_search_get_current (GraftSearch *self);
guint        graft_search_get_current_place (GraftSearch *self);
gboolean     graft_search_get_pending (GraftSearch *self);

void _graft_search_set_step (guint n_nodes);

G_END_DECLS
