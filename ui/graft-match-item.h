/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-match-item.h: one match of the pattern, as an item of a list model.
 */
#pragma once

#include <glib-object.h>
#include <pango/pango.h>

G_BEGIN_DECLS

#define GRAFT_TYPE_MATCH_ITEM (graft_match_item_get_type ())

G_DECLARE_FINAL_TYPE (GraftMatchItem, graft_match_item, GRAFT, MATCH_ITEM, GObject)

GraftMatchItem *graft_match_item_new (guint       index,
                                      const char *nodes,
                                      const char *anchor) G_GNUC_WARN_UNUSED_RESULT;
guint           graft_match_item_get_index (GraftMatchItem *self);
const char     *graft_match_item_get_title (GraftMatchItem *self);
const char     *graft_match_item_get_nodes (GraftMatchItem *self);
const char     *graft_match_item_get_anchor (GraftMatchItem *self);
GraftMatchItem *graft_match_item_new_dropped (const char *reason,
                                              const char *nodes,
                                              const char *anchor) G_GNUC_WARN_UNUSED_RESULT;
gboolean        graft_match_item_get_dropped (GraftMatchItem *self);
char           *graft_match_item_dup_row_text (GraftMatchItem *self,
                                               PangoAttrList **out_attrs) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
