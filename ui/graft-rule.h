/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-rule.h: one rule of a document's rule set: a pattern and a
 * replacement as Python text, what they trace to, whether the rule takes
 * part, and how many matches it has on the document's graph.
 */
#pragma once

#include <glib-object.h>

#include "graft-view.h"

G_BEGIN_DECLS

#define GRAFT_TYPE_RULE (graft_rule_get_type ())

G_DECLARE_FINAL_TYPE (GraftRule, graft_rule, GRAFT, RULE, GObject)

GraftRule    *graft_rule_new (const char *pattern_text,
                              const char *replacement_text) G_GNUC_WARN_UNUSED_RESULT;
const char   *graft_rule_get_pattern_text (GraftRule *self);
const char   *graft_rule_get_replacement_text (GraftRule *self);
const char   *graft_rule_get_name (GraftRule *self);
const char   *graft_rule_get_pattern_entry (GraftRule *self);
const char   *graft_rule_get_replacement_entry (GraftRule *self);
const char   *graft_rule_get_replacement_name (GraftRule *self);
char         *graft_rule_dup_title (GraftRule *self) G_GNUC_WARN_UNUSED_RESULT;
gboolean      graft_rule_get_enabled (GraftRule *self);
guint         graft_rule_get_position (GraftRule *self);
guint         graft_rule_get_n_matches (GraftRule *self);
gboolean      graft_rule_get_is_next (GraftRule *self);
GraftPattern *graft_rule_get_pattern (GraftRule *self);
GraftGraph   *graft_rule_get_replacement (GraftRule *self);
const GError *graft_rule_get_pattern_error (GraftRule *self);
const GError *graft_rule_get_replacement_error (GraftRule *self);
const char   *graft_rule_get_problem (GraftRule *self);
const GError *graft_rule_get_fit_error (GraftRule *self);

/* For the document that holds the rule (graft-document.c): */
void       _graft_rule_set_pattern (GraftRule    *self,
                                    const char   *text,
                                    char         *name,
                                    GraftPattern *pattern,
                                    GError       *error);
void       _graft_rule_set_replacement (GraftRule  *self,
                                        const char *text,
                                        char       *name,
                                        GraftGraph *replacement,
                                        GError     *error);
void       _graft_rule_set_entries (GraftRule  *self,
                                    const char *pattern_entry,
                                    const char *replacement_entry);
void       _graft_rule_set_enabled (GraftRule *self,
                                    gboolean   enabled);
void       _graft_rule_set_position (GraftRule *self,
                                     guint      position);
void       _graft_rule_set_is_next (GraftRule *self,
                                    gboolean   is_next);
void       _graft_rule_take_matches (GraftRule *self,
                                     GPtrArray *matches,
                                     guint      n_matches);
GPtrArray *_graft_rule_get_matches (GraftRule *self);

G_END_DECLS
