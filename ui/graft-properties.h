/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-properties.h: the properties panel: what the graph knows about the
 * selected node (or folded module), row by row, with the nodes it names as
 * links.
 */
#pragma once

#include <gtk/gtk.h>

#include "graft-view.h"

G_BEGIN_DECLS

#define GRAFT_TYPE_PROPERTIES (graft_properties_get_type ())

G_DECLARE_FINAL_TYPE (GraftProperties, graft_properties, GRAFT, PROPERTIES, GtkBox)

/**
 * GraftPropertiesNameFunc:
 * @node: a node of the graph shown
 * @user_data: the function's data
 *
 * Returns: (transfer none): the name the panel shows for @node
 */
typedef const char *(*GraftPropertiesNameFunc) (GraftNode *node,
                                                gpointer   user_data);

GtkWidget  *graft_properties_new (void) G_GNUC_WARN_UNUSED_RESULT;
void        graft_properties_show (GraftProperties   *self,
                                   GraftGraph        *graph,
                                   GraftScopes       *scopes,
                                   const char *const *names,
                                   const char        *folded);
void        graft_properties_show_graph_nodes (GraftProperties *self,
                                               GraftGraph      *graph,
                                               GPtrArray       *nodes);
char       *graft_properties_dup_text (GraftProperties *self) G_GNUC_WARN_UNUSED_RESULT;
const char *graft_properties_get_value (GraftProperties *self,
                                        const char      *key);
gboolean    graft_properties_activate_link (GraftProperties *self,
                                            const char      *key,
                                            const char      *node);
gboolean    graft_properties_focus_first (GraftProperties *self);
void        graft_properties_set_name_func (GraftProperties        *self,
                                            GraftPropertiesNameFunc func,
                                            gpointer                user_data);

G_END_DECLS
