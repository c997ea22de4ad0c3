/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-rules-panel.h: the Rules page of the side panel: the rule set,
 * the options of a run, the step buttons and the history.
 */
#pragma once

#include <gtk/gtk.h>

#include "graft-document.h"

G_BEGIN_DECLS

#define GRAFT_TYPE_RULES_PANEL (graft_rules_panel_get_type ())

G_DECLARE_FINAL_TYPE (GraftRulesPanel, graft_rules_panel, GRAFT, RULES_PANEL, GtkWidget)

GtkWidget   *graft_rules_panel_new (void) G_GNUC_WARN_UNUSED_RESULT;
void         graft_rules_panel_set_document (GraftRulesPanel *self,
                                             GraftDocument   *document);
void         graft_rules_panel_focus_rules (GraftRulesPanel *self);
const char  *graft_rules_panel_get_next_text (GraftRulesPanel *self);
GtkListView *graft_rules_panel_get_rule_list (GraftRulesPanel *self);
GtkListView *graft_rules_panel_get_history_list (GraftRulesPanel *self);
void         graft_rules_panel_drop_rule (GraftRulesPanel *self,
                                          guint            from,
                                          guint            onto,
                                          gboolean         after);

const char *graft_rules_panel_get_run_text (GraftRulesPanel *self);
GtkWidget  *graft_rules_panel_get_cancel_button (GraftRulesPanel *self);

G_END_DECLS
