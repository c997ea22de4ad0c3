/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-window-fit.c: a replacement that traces but cannot stand for a
 * match of the pattern (torch.fx asserts that both take as many
 * parameters and return as many values) is flagged as it is typed, not
 * when a replacement fails: graft-window.c underlines it in the
 * replacement's editor and says so above the matches, and this file keeps
 * Replace and Replace All disabled with a tooltip that says why.  The
 * rule works the problem out (graft_rule_get_fit_error()).
 */
#include "config.h"

#include "graft-window-private.h"

/**
 * _graft_window_get_fit_error:
 * @self: a window
 *
 * Returns: (nullable): why the chosen rule's replacement does not fit its
 *   pattern, located in the replacement's text, or %NULL
 */
const GError *
_graft_window_get_fit_error (GraftWindow *self)
{
  GraftRule *rule = graft_document_get_rule (self->document,
                                             graft_document_get_selected_rule (self->document));

  return rule != NULL ? graft_rule_get_fit_error (rule) : NULL;
}

/* @button's tooltip: @usual, or why it cannot replace. */
static void
explain_button (GtkWidget    *button,
                const char   *usual,
                const GError *fit_error)
{
  g_autofree char *text = NULL;

  if (fit_error != NULL)
    text = g_strdup_printf ("Cannot replace: the replacement does not fit the pattern: %s",
                            fit_error->message);
  /* Only if it changes: GTK 4.8 asks the X server where the pointer is
   * on every call (a round trip). */
  if (g_strcmp0 (gtk_widget_get_tooltip_text (button), text != NULL ? text : usual) != 0)
    gtk_widget_set_tooltip_text (button, text != NULL ? text : usual);
}

/**
 * _graft_window_explain_replace:
 * @self: a window
 * @fit_error: (nullable): what _graft_window_get_fit_error() says
 *
 * The Replace and Replace All buttons say why they are disabled when the
 * replacement does not fit (a disabled button's tooltip still shows).
 */
void
_graft_window_explain_replace (GraftWindow  *self,
                               const GError *fit_error)
{
  explain_button (self->replace_all_button, "Replace every match, as replace_pattern does (Ctrl+R)",
                  fit_error);
  explain_button (self->replace_button, "Replace the chosen match alone (Shift+Ctrl+R)",
                  fit_error);
}
