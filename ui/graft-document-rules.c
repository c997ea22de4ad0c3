/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-document-rules.c: a document's rule set and the steps that apply
 * it.
 *
 * The rule set: rules are added, removed, moved, left out and renamed as
 * changes of the document's history (GRAFT_STEP_RULES), so Ctrl+Z takes
 * them back like a rewrite; a change keeps the set as it was before and
 * after (the rules themselves, shared, and whether each took part), or,
 * for a rename, the names, undone by renaming back in the texts as they
 * are then (an edit typed since is kept).  A rules file is read into the
 * set (graft_document_load_rules(), one change) and written from it
 * (graft_document_dup_rules_text()), and the enabled rules make a torch.fx
 * pass (graft_document_dup_pass()).
 *
 * The steps: the loop that `graft rewrite --rules FILE --fixpoint N` runs
 * (graft-rules.c) is walked a call at a time.  Where the loop stands is
 * read from the history, never kept beside it: the newest change of the
 * graph, when it is a step of the loop, says its pass, its rule, what the
 * pass has replaced so far, whether the rule's call is over and which
 * matches the call skipped; anything else starts the loop again at pass 1.
 * So undo, redo and reopening a session put the loop where the graph is.
 * From there graft_document_get_next_step() goes round the rules in order
 * and the passes as the CLI loop does, passing over rules left out and
 * rules with no match (their call would replace nothing), and ends when a
 * pass replaced nothing or the bound is reached; then dead-code removal,
 * if asked and there is dead code.  Next (graft_document_step()) is that
 * rule's `replace_pattern` call; Next Match replaces its next match alone
 * and Skip passes over one (the call then leaves it alone).  Run All
 * (graft_document_run_all()) is graft_rules_apply() on the graph as it is,
 * then graft_eliminate_dead_code(), exactly as the CLI, with each call
 * that replaced something recorded as a step of its own.
 */
#include "config.h"

#include "graft-document.h"
#include "graft-document-private.h"
#include "graft-rule.h"

#include <string.h>

struct _GraftRulesChange
{
  /* Owned: the set before and after, or NULL for a rename */
  GPtrArray *rules[2];   /* GraftRule */
  GArray    *enabled[2]; /* gboolean, per rule */
  guint      selected[2];

  /* Owned: a rename of @renamed, from the first names to the second */
  GraftRule *renamed;
  char      *pattern_names[2];
  char      *replacement_names[2];
};

void
_graft_rules_change_free (GraftRulesChange *change)
{
  if (change == NULL)
    return;
  for (guint k = 0; k < 2; k++)
    {
      g_clear_pointer (&change->rules[k], g_ptr_array_unref);
      g_clear_pointer (&change->enabled[k], g_array_unref);
      g_free (change->pattern_names[k]);
      g_free (change->replacement_names[k]);
    }
  g_clear_object (&change->renamed);
  g_free (change);
}

/* The rule set now, into side @k of @change. */
static void
snapshot (GraftDocument    *self,
          GraftRulesChange *change,
          guint             k)
{
  guint n = graft_document_get_n_rules (self);

  change->rules[k] = g_ptr_array_new_with_free_func (g_object_unref);
  change->enabled[k] = g_array_sized_new (FALSE, FALSE, sizeof (gboolean), n);
  for (guint i = 0; i < n; i++)
    {
      GraftRule *rule = graft_document_get_rule (self, i);
      gboolean   enabled = graft_rule_get_enabled (rule);

      g_ptr_array_add (change->rules[k], g_object_ref (rule));
      g_array_append_val (change->enabled[k], enabled);
    }
  change->selected[k] = graft_document_get_selected_rule (self);
}

/* Records @change (taken), already made, as the newest change of the
 * history. */
static void
record (GraftDocument    *self,
        GraftRulesChange *change,
        const char       *label)
{
  HistoryEntry *entry = _graft_document_new_entry (GRAFT_STEP_RULES);

  entry->rules = change;
  _graft_document_push (self, entry, label, NULL, TRUE);
  _graft_document_history_changed (self);
  _graft_document_update_next (self);
}

/* Starts a change of the set: what it is now. */
static GraftRulesChange *
begin_change (GraftDocument *self)
{
  GraftRulesChange *change = g_new0 (GraftRulesChange, 1);

  snapshot (self, change, 0);
  return change;
}

/* Ends @change (taken): the set as it is now, recorded. */
static void
end_change (GraftDocument    *self,
            GraftRulesChange *change,
            const char       *label)
{
  snapshot (self, change, 1);
  record (self, change, label);
}

static void rename_in_texts (GraftDocument *self,
                             GraftRule     *rule,
                             const char    *pattern_from,
                             const char    *pattern_to,
                             const char    *replacement_from,
                             const char    *replacement_to);

/**
 * _graft_rules_change_apply:
 * @self: a document
 * @change: a change of its rule set
 * @redo: make it again, rather than undo it
 *
 * Undoes or redoes @change.
 */
void
_graft_rules_change_apply (GraftDocument    *self,
                           GraftRulesChange *change,
                           gboolean          redo)
{
  guint to = redo ? 1 : 0;
  guint from = 1 - to;

  if (change->renamed != NULL)
    {
      rename_in_texts (self, change->renamed, change->pattern_names[from],
                       change->pattern_names[to], change->replacement_names[from],
                       change->replacement_names[to]);
      return;
    }
  _graft_document_set_rules_snapshot (self, change->rules[to], change->enabled[to],
                                      change->selected[to]);
}

/* A name no rule's text uses yet for its pattern or replacement: @base,
 * `@base_2`, ... */
static char *
fresh_name (GraftDocument *self,
            const char    *base)
{
  for (guint k = 1;; k++)
    {
      g_autofree char *name = k == 1 ? g_strdup (base) : g_strdup_printf ("%s_%u", base, k);
      gboolean         used = FALSE;

      for (guint i = 0; i < graft_document_get_n_rules (self) && !used; i++)
        {
          GraftRule *rule = graft_document_get_rule (self, i);

          used = g_strcmp0 (graft_rule_get_name (rule), name) == 0 ||
                 g_strcmp0 (graft_rule_get_replacement_name (rule), name) == 0;
        }
      if (!used)
        return g_steal_pointer (&name);
    }
}

/* Inserts @rule at @position and chooses it. */
static void
insert_rule (GraftDocument *self,
             GraftRule     *rule,
             guint          position)
{
  g_list_store_insert (G_LIST_STORE (graft_document_get_rules (self)), position, rule);
  self->selected = position;
  _graft_document_trace_rule (self, rule, NULL, NULL);
  _graft_document_rules_changed (self);
}

/**
 * graft_document_add_rule:
 * @self: a document
 * @pattern_text: (nullable): the new rule's pattern, or %NULL for a
 *   template whose function has a name no other rule uses
 * @replacement_text: (nullable): its replacement, or %NULL likewise
 *
 * Adds a rule after the chosen one and chooses it, as one change of the
 * history.
 *
 * Returns: the new rule's position
 */
guint
graft_document_add_rule (GraftDocument *self,
                         const char    *pattern_text,
                         const char    *replacement_text)
{
  g_autoptr (GraftRule) rule = NULL;
  g_autofree char  *pattern = NULL;
  g_autofree char  *replacement = NULL;
  g_autofree char  *label = NULL;
  GraftRulesChange *change;
  guint             position;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), 0);

  if (pattern_text == NULL)
    {
      g_autofree char *name = fresh_name (self, "pattern");

      pattern = g_strdup_printf ("import torch\n\n\ndef %s(x):\n    return torch.relu(x)\n", name);
    }
  if (replacement_text == NULL)
    {
      g_autofree char *name = fresh_name (self, "replacement");

      replacement = g_strdup_printf (
          "import torch\n\n\ndef %s(x):\n    return torch.nn.functional.relu(x)\n", name);
    }
  change = begin_change (self);
  rule = graft_rule_new (pattern_text != NULL ? pattern_text : pattern,
                         replacement_text != NULL ? replacement_text : replacement);
  position = graft_document_get_selected_rule (self) + 1;
  insert_rule (self, rule, position);
  {
    g_autofree char *title = graft_rule_dup_title (rule);

    label = g_strdup_printf ("Add rule %s", title);
  }
  end_change (self, change, label);
  return position;
}

/**
 * graft_document_remove_rule:
 * @self: a document
 * @i: a rule's position
 *
 * Removes rule @i, as one change of the history; the last rule stays.
 *
 * Returns: whether it was removed
 */
gboolean
graft_document_remove_rule (GraftDocument *self,
                            guint          i)
{
  g_autofree char  *title = NULL;
  g_autofree char  *label = NULL;
  GraftRulesChange *change;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  if (i >= graft_document_get_n_rules (self) || graft_document_get_n_rules (self) == 1)
    return FALSE;
  title = graft_rule_dup_title (graft_document_get_rule (self, i));
  change = begin_change (self);
  g_list_store_remove (G_LIST_STORE (graft_document_get_rules (self)), i);
  if (self->selected > i || self->selected >= graft_document_get_n_rules (self))
    self->selected--;
  _graft_document_rules_changed (self);
  label = g_strdup_printf ("Remove rule %s", title);
  end_change (self, change, label);
  return TRUE;
}

/**
 * graft_document_move_rule:
 * @self: a document
 * @from: a rule's position
 * @to: the position it moves to
 *
 * Moves a rule, as one change of the history; the chosen rule stays
 * chosen.
 *
 * Returns: whether it moved
 */
gboolean
graft_document_move_rule (GraftDocument *self,
                          guint          from,
                          guint          to)
{
  g_autoptr (GraftRule) rule = NULL;
  g_autoptr (GraftRule) selected = NULL;
  g_autofree char  *title = NULL;
  g_autofree char  *label = NULL;
  GraftRulesChange *change;
  guint             n;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  n = graft_document_get_n_rules (self);
  if (from >= n || to >= n || from == to)
    return FALSE;
  rule = g_object_ref (graft_document_get_rule (self, from));
  selected = g_object_ref (_graft_document_get_selected (self));
  change = begin_change (self);
  g_list_store_remove (G_LIST_STORE (graft_document_get_rules (self)), from);
  g_list_store_insert (G_LIST_STORE (graft_document_get_rules (self)), to, rule);
  for (guint i = 0; i < n; i++)
    if (graft_document_get_rule (self, i) == selected)
      self->selected = i;
  _graft_document_rules_changed (self);
  title = graft_rule_dup_title (rule);
  label = g_strdup_printf ("Move rule %s %s", title, to < from ? "up" : "down");
  end_change (self, change, label);
  return TRUE;
}

/**
 * graft_document_set_rule_enabled:
 * @self: a document
 * @i: a rule's position
 * @enabled: whether the rule takes part in steps, runs, saved rules files
 *   and passes
 *
 * Leaves rule @i out, or takes it in again, as one change of the history.
 */
void
graft_document_set_rule_enabled (GraftDocument *self,
                                 guint          i,
                                 gboolean       enabled)
{
  g_autofree char  *title = NULL;
  g_autofree char  *label = NULL;
  GraftRulesChange *change;
  GraftRule        *rule;

  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  g_return_if_fail (i < graft_document_get_n_rules (self));
  rule = graft_document_get_rule (self, i);
  if (graft_rule_get_enabled (rule) == !!enabled)
    return;
  change = begin_change (self);
  _graft_rule_set_enabled (rule, enabled);
  _graft_document_rules_changed (self);
  title = graft_rule_dup_title (rule);
  label = g_strdup_printf ("%s rule %s", enabled ? "Take in" : "Leave out", title);
  end_change (self, change, label);
}

/* Renaming ---------------------------------------------------------------- */

static const char *const keywords[] = {
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
  NULL,
};

/* Whether @name can name a rule's function in a rules file. */
static gboolean
check_name (const char *name,
            GError    **error)
{
  gboolean ok = g_ascii_isalpha (name[0]) || name[0] == '_';

  for (const char *c = name; *c != '\0' && ok; c++)
    ok = g_ascii_isalnum (*c) || *c == '_';
  if (!ok || g_strv_contains (keywords, name))
    {
      g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE,
                   "'%s' is not a Python name (letters, digits and _, not a keyword)", name);
      return FALSE;
    }
  if (strcmp (name, "RULES") == 0 || strcmp (name, "torch") == 0)
    {
      g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, "'%s' is taken by the rules file",
                   name);
      return FALSE;
    }
  return TRUE;
}

/* @text with its top-level definition @from renamed @to, or NULL when it
 * has no such definition.  Only the definition's own name changes. */
static char *
rename_definition (const char *text,
                   const char *from,
                   const char *to)
{
  g_autoptr (GraftSource) source = graft_source_new ("rule", text, -1);
  g_autoptr (GraftPyModule) module = graft_py_parse (source, NULL);
  g_autofree char *escaped = NULL;
  g_autofree char *pattern = NULL;
  g_autoptr (GRegex) regex = NULL;
  g_autoptr (GMatchInfo) info = NULL;
  const GraftPyStmtList *body;

  if (module == NULL)
    return NULL;
  body = graft_py_module_get_body (module);
  escaped = g_regex_escape_string (from, -1);
  pattern = g_strdup_printf ("^(?:async[ \\t]+)?(?:def|class)[ \\t]+(%s)\\b", escaped);
  regex = g_regex_new (pattern, G_REGEX_MULTILINE, 0, NULL);
  for (guint i = 0; i < body->len; i++)
    {
      const GraftPyStmt *stmt = body->items[i];
      const char        *name = stmt->kind == GRAFT_PY_STMT_FUNCTION_DEF ? stmt->function_def.name
                                : stmt->kind == GRAFT_PY_STMT_CLASS_DEF  ? stmt->class_def.name
                                                                         : NULL;
      int                start;
      int                end;

      if (g_strcmp0 (name, from) != 0)
        continue;
      if (!g_regex_match_full (regex, text, stmt->end, stmt->start, 0, &info, NULL) ||
          !g_match_info_fetch_pos (info, 1, &start, &end))
        return NULL;
      return g_strdup_printf ("%.*s%s%s", start, text, to, text + end);
    }
  return NULL;
}

/* Renames @rule's definitions in its texts as they are now (a name NULL
 * or not found stays), names them its entries, and traces them again. */
static void
rename_in_texts (GraftDocument *self,
                 GraftRule     *rule,
                 const char    *pattern_from,
                 const char    *pattern_to,
                 const char    *replacement_from,
                 const char    *replacement_to)
{
  g_autofree char *pattern = NULL;
  g_autofree char *replacement = NULL;

  if (pattern_from != NULL && pattern_to != NULL)
    pattern = rename_definition (graft_rule_get_pattern_text (rule), pattern_from, pattern_to);
  if (replacement_from != NULL && replacement_to != NULL)
    replacement = rename_definition (graft_rule_get_replacement_text (rule), replacement_from,
                                     replacement_to);
  _graft_rule_set_entries (rule, pattern != NULL ? pattern_to : graft_rule_get_pattern_entry (rule),
                           replacement != NULL ? replacement_to
                                               : graft_rule_get_replacement_entry (rule));
  graft_document_set_rule_texts (self, rule, pattern, replacement);
  _graft_document_emit_rule_texts_changed (self, rule);
  _graft_document_rules_changed (self);
}

/**
 * graft_document_rename_rule:
 * @self: a document
 * @i: a rule's position
 * @pattern_name: (nullable): the new name of its pattern's function or
 *   class, which names the rule, or %NULL to keep it
 * @replacement_name: (nullable): likewise for the replacement
 * @error: return location for why the name cannot be
 *
 * Renames the definitions in the rule's texts, as one change of the
 * history (Ctrl+Z renames them back, in the texts as they are then).  A
 * rules file names a rule by its functions, so the saved file, the CLI and
 * a pass all use the new names.
 *
 * Returns: whether anything was renamed
 */
gboolean
graft_document_rename_rule (GraftDocument *self,
                            guint          i,
                            const char    *pattern_name,
                            const char    *replacement_name,
                            GError       **error)
{
  GraftRulesChange *change;
  GraftRule        *rule;
  g_autofree char  *label = NULL;
  const char       *old_pattern;
  const char       *old_replacement;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (i < graft_document_get_n_rules (self), FALSE);

  rule = graft_document_get_rule (self, i);
  old_pattern = graft_rule_get_name (rule);
  old_replacement = graft_rule_get_replacement_name (rule);
  if (g_strcmp0 (pattern_name, old_pattern) == 0)
    pattern_name = NULL;
  if (g_strcmp0 (replacement_name, old_replacement) == 0)
    replacement_name = NULL;
  if (pattern_name == NULL && replacement_name == NULL)
    return FALSE;
  if ((pattern_name != NULL && old_pattern == NULL) ||
      (replacement_name != NULL && old_replacement == NULL))
    {
      g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE,
                           "the text defines no function or class to rename");
      return FALSE;
    }
  if ((pattern_name != NULL && !check_name (pattern_name, error)) ||
      (replacement_name != NULL && !check_name (replacement_name, error)))
    return FALSE;
  if (g_strcmp0 (pattern_name != NULL ? pattern_name : old_pattern,
                 replacement_name != NULL ? replacement_name : old_replacement) == 0)
    {
      g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE,
                           "the pattern and the replacement need names of their own");
      return FALSE;
    }
  change = g_new0 (GraftRulesChange, 1);
  change->renamed = g_object_ref (rule);
  change->pattern_names[0] = g_strdup (pattern_name != NULL ? old_pattern : NULL);
  change->pattern_names[1] = g_strdup (pattern_name);
  change->replacement_names[0] = g_strdup (replacement_name != NULL ? old_replacement : NULL);
  change->replacement_names[1] = g_strdup (replacement_name);
  label = g_strdup_printf ("Rename rule %s → %s", old_pattern != NULL ? old_pattern : "?",
                           pattern_name != NULL ? pattern_name : old_pattern);
  rename_in_texts (self, rule, old_pattern, pattern_name, old_replacement, replacement_name);
  record (self, change, label);
  return TRUE;
}

/* Options ------------------------------------------------------------------ */

guint
graft_document_get_fixpoint (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), 0);
  return self->fixpoint;
}

/**
 * graft_document_set_fixpoint:
 * @self: a document
 * @fixpoint: 0 for one pass; N for passes until one replaces nothing, at
 *   most N (`--fixpoint N`)
 *
 * How many passes steps and runs make.
 */
void
graft_document_set_fixpoint (GraftDocument *self,
                             guint          fixpoint)
{
  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  if (self->fixpoint == fixpoint)
    return;
  self->fixpoint = fixpoint;
  self->text_changes++;
  _graft_document_notify_modified (self);
  _graft_document_update_next (self);
}

gboolean
graft_document_get_dce (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  return self->dce;
}

/**
 * graft_document_set_dce:
 * @self: a document
 * @dce: remove dead code after the last pass (`--dce`)
 */
void
graft_document_set_dce (GraftDocument *self,
                        gboolean       dce)
{
  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  dce = !!dce;
  if (self->dce == dce)
    return;
  self->dce = dce;
  self->text_changes++;
  _graft_document_notify_modified (self);
  _graft_document_update_next (self);
}

/* Where the loop stands -------------------------------------------------- */

/* Where the newest change of the graph left the loop. */
typedef struct
{
  guint        pass;
  guint        rule;
  guint        replaced; /* in the pass so far */
  gboolean     in_call;  /* @rule's call has begun: @skipped holds */
  const char **skipped;  /* Borrowed, or NULL */
  gboolean     dce_done;
} Cursor;

static void
get_cursor (GraftDocument *self,
            Cursor        *c)
{
  HistoryEntry *entry = NULL;

  memset (c, 0, sizeof *c);
  c->pass = 1;
  for (guint i = self->position; i > 0 && entry == NULL; i--)
    if (((HistoryEntry *) self->history->pdata[i - 1])->rules == NULL)
      entry = self->history->pdata[i - 1];
  if (entry == NULL || !entry->looped)
    return;
  c->pass = entry->pass;
  c->replaced = entry->pass_replaced;
  if (entry->kind == GRAFT_STEP_DCE)
    c->dce_done = TRUE;
  else if (entry->call_done)
    c->rule = entry->rule + 1;
  else
    {
      c->rule = entry->rule;
      c->in_call = TRUE;
      c->skipped = (const char **) entry->skipped;
    }
}

/**
 * _graft_match_key:
 * @match: a match
 *
 * Returns: (transfer full): what names @match among the matches of its
 *   rule on the same graph: its nodes' names
 */
char *
_graft_match_key (const GraftMatch *match)
{
  g_autoptr (GPtrArray) nodes = graft_match_dup_nodes (match);
  g_autoptr (GString) key = g_string_new (NULL);

  for (guint i = 0; i < nodes->len; i++)
    {
      if (i > 0)
        g_string_append_c (key, ',');
      g_string_append (key, graft_node_get_name (nodes->pdata[i]));
    }
  return g_string_free (g_steal_pointer (&key), FALSE);
}

/* Whether the match of @key was skipped in the call of @rule in @pass. */
static gboolean
is_skipped (GraftDocument *self,
            const Cursor  *c,
            guint          pass,
            guint          rule,
            const char    *key)
{
  if (c->in_call && pass == c->pass && rule == c->rule && c->skipped != NULL &&
      g_strv_contains (c->skipped, key))
    return TRUE;
  if (self->pending_skips->len > 0 && pass == self->pending_pass && rule == self->pending_rule)
    for (guint i = 0; i < self->pending_skips->len; i++)
      if (strcmp (self->pending_skips->pdata[i], key) == 0)
        return TRUE;
  return FALSE;
}

/* How many nodes dead-code removal would remove now. */
static guint
count_dead (GraftDocument *self)
{
  g_autoptr (GraftEdit) edit = NULL;
  guint n = 0;

  if (graft_document_get_load_error (self) != NULL)
    return 0;
  edit = graft_eliminate_dead_code (self->graph, &n, NULL);
  if (edit != NULL)
    graft_edit_undo (edit);
  return edit != NULL ? n : 0;
}

/* What the next step is, from @c. */
static void
resolve (GraftDocument *self,
         const Cursor  *c,
         GraftNextStep *next)
{
  guint n_rules = graft_document_get_n_rules (self);
  guint max_passes = MAX (self->fixpoint, 1);
  guint pass = c->pass;
  guint r = c->rule;
  guint replaced = c->replaced;

  memset (next, 0, sizeof *next);
  next->pass = pass;
  next->kind = GRAFT_NEXT_DONE;
  if (c->dce_done)
    return;
  /* Two turns round the rules at most: a pass that replaced nothing ends
   * the loop, and this walk replaces nothing. */
  for (guint guard = 0; guard <= 2 * (n_rules + 1); guard++)
    {
      GraftRule *rule;
      GPtrArray *matches;
      guint      count = 0;
      guint      skipped = 0;
      gint       first = -1;

      if (r >= n_rules)
        {
          if (replaced == 0 || pass >= max_passes)
            {
              guint dead = self->dce ? count_dead (self) : 0;

              next->pass = pass;
              next->bound_reached = replaced > 0 && self->fixpoint > 0 && pass >= max_passes;
              next->kind = dead > 0 ? GRAFT_NEXT_DCE : GRAFT_NEXT_DONE;
              next->n_matches = dead;
              return;
            }
          pass++;
          r = 0;
          replaced = 0;
          continue;
        }
      rule = graft_document_get_rule (self, r);
      if (!graft_rule_get_enabled (rule))
        {
          r++;
          continue;
        }
      if (graft_rule_get_problem (rule) != NULL)
        {
          next->kind = GRAFT_NEXT_BLOCKED;
          next->pass = pass;
          next->rule = r;
          return;
        }
      matches = _graft_document_get_rule_matches (self, rule);
      for (guint i = 0; i < matches->len; i++)
        {
          g_autofree char *key = _graft_match_key (matches->pdata[i]);

          if (is_skipped (self, c, pass, r, key))
            skipped++;
          else
            {
              if (first < 0)
                first = (gint) i;
              count++;
            }
        }
      if (count > 0)
        {
          next->kind = GRAFT_NEXT_RULE;
          next->pass = pass;
          next->rule = r;
          next->n_matches = count;
          next->match = (guint) first;
          next->n_skipped = skipped;
          next->in_call = skipped > 0 || (c->in_call && pass == c->pass && r == c->rule);
          return;
        }
      r++;
    }
}

/**
 * graft_document_get_next_step:
 * @self: a document
 * @out_next: (out caller-allocates): what the next step is
 *
 * Where the loop of passes stands, from the history (see the top of
 * graft-document-rules.c).
 */
void
graft_document_get_next_step (GraftDocument *self,
                              GraftNextStep *out_next)
{
  Cursor c;

  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  g_return_if_fail (out_next != NULL);
  get_cursor (self, &c);
  resolve (self, &c, out_next);
}

/**
 * _graft_document_update_next:
 * @self: a document
 *
 * After anything that may change the next step: marks its rule, and emits
 * `rules-changed`.
 */
void
_graft_document_update_next (GraftDocument *self)
{
  GraftNextStep next;

  graft_document_get_next_step (self, &next);
  for (guint i = 0; i < graft_document_get_n_rules (self); i++)
    _graft_rule_set_is_next (graft_document_get_rule (self, i),
                             next.kind == GRAFT_NEXT_RULE && next.rule == i);
  g_signal_emit_by_name (self, "rules-changed");
}

/* `pass 1 · relu_add → clamp_add`, what the history's labels start with. */
static char *
step_prefix (guint       pass,
             const char *pattern,
             const char *replacement)
{
  return g_strdup_printf ("pass %u · %s → %s", pass, pattern != NULL ? pattern : "?",
                          replacement != NULL ? replacement : "?");
}

/**
 * graft_document_dup_next_text:
 * @self: a document
 *
 * Returns: (transfer full): what the next step does, in a sentence for the
 *   Rules panel
 */
char *
graft_document_dup_next_text (GraftDocument *self)
{
  GraftNextStep next;
  GraftRule    *rule;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  graft_document_get_next_step (self, &next);
  switch (next.kind)
    {
    case GRAFT_NEXT_RULE:
      {
        g_autofree char *prefix = NULL;

        rule = graft_document_get_rule (self, next.rule);
        prefix = step_prefix (next.pass, graft_rule_get_name (rule),
                              graft_rule_get_replacement_name (rule));
        if (next.n_skipped > 0)
          return g_strdup_printf ("Next: %s · %u match%s, match %u first (%u skipped)", prefix,
                                  next.n_matches, next.n_matches == 1 ? "" : "es", next.match + 1,
                                  next.n_skipped);
        return g_strdup_printf ("Next: %s · %u match%s, match %u first", prefix, next.n_matches,
                                next.n_matches == 1 ? "" : "es", next.match + 1);
      }
    case GRAFT_NEXT_DCE:
      return g_strdup_printf ("Next: remove dead code · %u node%s", next.n_matches,
                              next.n_matches == 1 ? "" : "s");
    case GRAFT_NEXT_BLOCKED:
      {
        g_autofree char *title = NULL;

        rule = graft_document_get_rule (self, next.rule);
        title = graft_rule_dup_title (rule);
        return g_strdup_printf ("Rule %u (%s) cannot run. %s", next.rule + 1, title,
                                graft_rule_get_problem (rule));
      }
    case GRAFT_NEXT_DONE:
    default:
      if (next.bound_reached)
        return g_strdup_printf ("Done: pass %u, the last allowed, still replaced matches",
                                next.pass);
      if (graft_document_get_position (self) == 0 || next.pass == 1)
        return g_strdup ("Done: no rule has a match");
      return g_strdup_printf ("Done: pass %u replaced nothing", next.pass);
    }
}

/* Steps ------------------------------------------------------------------ */

/* The entry of a step of @rule in the loop, at @pass. */
static HistoryEntry *
new_step (GraftRule *rule,
          guint      pass,
          guint      position)
{
  HistoryEntry *entry = _graft_document_new_entry (GRAFT_STEP_RULE);

  entry->pattern_text = g_strdup (graft_rule_get_pattern_text (rule));
  entry->replacement_text = g_strdup (graft_rule_get_replacement_text (rule));
  entry->pattern_name = g_strdup (graft_rule_get_name (rule));
  entry->replacement_name = g_strdup (graft_rule_get_replacement_name (rule));
  entry->looped = TRUE;
  entry->pass = pass;
  entry->rule = position;
  return entry;
}

/* The pass's count before a step at @next: the cursor's, in its pass. */
static guint
replaced_before (const Cursor        *c,
                 const GraftNextStep *next)
{
  return next->pass == c->pass ? c->replaced : 0;
}

/* The keys of the matches of @next's call skipped so far. */
static GStrv
skipped_keys (GraftDocument       *self,
              const Cursor        *c,
              const GraftNextStep *next)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  if (c->in_call && c->pass == next->pass && c->rule == next->rule && c->skipped != NULL)
    g_strv_builder_addv (builder, c->skipped);
  if (self->pending_pass == next->pass && self->pending_rule == next->rule)
    for (guint i = 0; i < self->pending_skips->len; i++)
      g_strv_builder_add (builder, self->pending_skips->pdata[i]);
  return g_strv_builder_end (builder);
}

static gboolean
refuse (GraftDocument       *self,
        const GraftNextStep *next,
        GError             **error)
{
  if (next->kind == GRAFT_NEXT_BLOCKED)
    {
      GraftRule       *rule = graft_document_get_rule (self, next->rule);
      g_autofree char *title = graft_rule_dup_title (rule);

      g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, "rule %u (%s) cannot run: %s",
                   next->rule + 1, title, graft_rule_get_problem (rule));
      return TRUE;
    }
  if (next->kind == GRAFT_NEXT_DONE)
    {
      g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, "nothing is left to do");
      return TRUE;
    }
  return FALSE;
}

/* The last step of the loop: dead code removed. */
static gboolean
remove_dead_code (GraftDocument *self,
                  guint          pass,
                  gboolean       quiet,
                  GError       **error)
{
  g_autofree char *before = NULL;
  g_autofree char *label = NULL;
  HistoryEntry    *entry;
  GraftEdit       *edit;
  guint            n = 0;

  if (!quiet)
    before = graft_document_dup_code (self);
  edit = graft_eliminate_dead_code (self->graph, &n, error);
  if (edit == NULL)
    return FALSE;
  entry = _graft_document_new_entry (GRAFT_STEP_DCE);
  entry->edit = edit;
  entry->n_replaced = n;
  entry->looped = TRUE;
  entry->pass = pass;
  label = g_strdup_printf ("dead code · %u node%s removed", n, n == 1 ? "" : "s");
  g_ptr_array_set_size (self->warnings, 0);
  g_ptr_array_set_size (self->added_names, 0);
  _graft_document_push (self, entry, label, g_steal_pointer (&before), quiet);
  return TRUE;
}

/**
 * _graft_document_replay_dce:
 * @self: a document
 * @looped: it was the loop's last step
 * @pass: the pass it followed
 * @error: return location for an error
 *
 * Removes dead code again (reopening a session).
 *
 * Returns: whether it was done
 */
gboolean
_graft_document_replay_dce (GraftDocument *self,
                            gboolean       looped,
                            guint          pass,
                            GError       **error)
{
  if (!remove_dead_code (self, pass, FALSE, error))
    return FALSE;
  ((HistoryEntry *) self->history->pdata[self->position - 1])->looped = looped;
  return TRUE;
}

/**
 * graft_document_step:
 * @self: a document
 * @error: return location for an error
 *
 * Next: the next step of the loop, as one change of the history: the next
 * rule's `replace_pattern` call (the matches of its call that were skipped
 * left alone), or, once the passes are over, dead-code removal.
 *
 * Returns: whether a step was made
 */
gboolean
graft_document_step (GraftDocument *self,
                     GError       **error)
{
  g_autoptr (GPtrArray) subset = NULL;
  g_autofree char *prefix = NULL;
  g_autofree char *label = NULL;
  g_auto (GStrv) skipped = NULL;
  GraftNextStep next;
  HistoryEntry *entry;
  GraftRule    *rule;
  GPtrArray    *matches;
  Cursor        c;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  get_cursor (self, &c);
  resolve (self, &c, &next);
  if (refuse (self, &next, error))
    return FALSE;
  if (next.kind == GRAFT_NEXT_DCE)
    return remove_dead_code (self, next.pass, FALSE, error);

  rule = graft_document_get_rule (self, next.rule);
  matches = _graft_document_get_rule_matches (self, rule);
  entry = new_step (rule, next.pass, next.rule);
  skipped = skipped_keys (self, &c, &next);
  if (skipped[0] != NULL)
    {
      /* Every match but those skipped: the rewriter, on that subset. */
      subset = g_ptr_array_new ();
      entry->except = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint i = 0; i < matches->len; i++)
        {
          g_autofree char *key = _graft_match_key (matches->pdata[i]);

          if (g_strv_contains ((const char *const *) skipped, key))
            g_array_append_val (entry->except, i);
          else
            g_ptr_array_add (subset, matches->pdata[i]);
        }
    }
  entry->call_done = TRUE;
  entry->skipped = g_steal_pointer (&skipped);
  prefix = step_prefix (next.pass, graft_rule_get_name (rule),
                        graft_rule_get_replacement_name (rule));
  label = g_strdup_printf ("%s · %u match%s", prefix, next.n_matches,
                           next.n_matches == 1 ? "" : "es");
  entry->pass_replaced = replaced_before (&c, &next);
  /* The count is the rewrite's; it is known once it is made. */
  {
    guint before = entry->pass_replaced;

    if (!_graft_document_apply_rewrite (self, graft_rule_get_pattern (rule),
                                        graft_rule_get_replacement (rule), subset, entry, label,
                                        error))
      return FALSE;
    entry = self->history->pdata[self->position - 1];
    entry->pass_replaced = before + entry->n_replaced;
  }
  /* Where the loop goes next depends on the count just known. */
  _graft_document_update_next (self);
  return TRUE;
}

/**
 * graft_document_step_match:
 * @self: a document
 * @error: return location for an error
 *
 * Next Match: replaces the next rule's next match alone (the first not
 * skipped), as one change of the history; the rule stays next while its
 * call has matches left.
 *
 * Returns: whether a match was replaced
 */
gboolean
graft_document_step_match (GraftDocument *self,
                           GError       **error)
{
  g_autoptr (GPtrArray) one = g_ptr_array_new ();
  g_autofree char *prefix = NULL;
  g_autofree char *label = NULL;
  GraftNextStep    next;
  HistoryEntry    *entry;
  GraftRule       *rule;
  GPtrArray       *matches;
  Cursor           c;
  guint            before;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  get_cursor (self, &c);
  resolve (self, &c, &next);
  if (refuse (self, &next, error))
    return FALSE;
  if (next.kind == GRAFT_NEXT_DCE)
    return remove_dead_code (self, next.pass, FALSE, error);

  rule = graft_document_get_rule (self, next.rule);
  matches = _graft_document_get_rule_matches (self, rule);
  g_ptr_array_add (one, matches->pdata[next.match]);
  entry = new_step (rule, next.pass, next.rule);
  entry->match = (gint) next.match;
  entry->skipped = skipped_keys (self, &c, &next);
  entry->call_done = FALSE;
  before = replaced_before (&c, &next);
  prefix = step_prefix (next.pass, graft_rule_get_name (rule),
                        graft_rule_get_replacement_name (rule));
  label = g_strdup_printf ("%s · match %u", prefix, next.match + 1);
  if (!_graft_document_apply_rewrite (self, graft_rule_get_pattern (rule),
                                      graft_rule_get_replacement (rule), one, entry, label, error))
    return FALSE;
  entry = self->history->pdata[self->position - 1];
  entry->pass_replaced = before + entry->n_replaced;
  _graft_document_update_next (self);
  return TRUE;
}

/**
 * graft_document_skip_match:
 * @self: a document
 *
 * Skip: passes over the match Next Match would replace; the rest of the
 * rule's call leaves it alone.  Skipping is no change of the graph: it
 * holds until the next change (recorded then with the step that follows).
 *
 * Returns: whether a match was skipped
 */
gboolean
graft_document_skip_match (GraftDocument *self)
{
  GraftNextStep next;
  GraftRule    *rule;
  GPtrArray    *matches;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  graft_document_get_next_step (self, &next);
  if (next.kind != GRAFT_NEXT_RULE)
    return FALSE;
  rule = graft_document_get_rule (self, next.rule);
  matches = _graft_document_get_rule_matches (self, rule);
  if (self->pending_skips->len == 0 || self->pending_pass != next.pass ||
      self->pending_rule != next.rule)
    {
      g_ptr_array_set_size (self->pending_skips, 0);
      self->pending_pass = next.pass;
      self->pending_rule = next.rule;
    }
  g_ptr_array_add (self->pending_skips, _graft_match_key (matches->pdata[next.match]));
  _graft_document_update_next (self);
  return TRUE;
}

/* Run All ------------------------------------------------------------------ */

/* The enabled rules as the core's rule set; @out_positions says where each
 * stands in the document's. */
static GraftRuleSet *
make_rule_set (GraftDocument *self,
               GArray       **out_positions,
               GError       **error)
{
  g_autoptr (GraftRuleSet) set = graft_rule_set_new ();
  g_autoptr (GArray) positions = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < graft_document_get_n_rules (self); i++)
    {
      GraftRule *rule = graft_document_get_rule (self, i);
      g_autoptr (GraftSource) source = NULL;
      GraftGraph *replacement;

      if (!graft_rule_get_enabled (rule))
        continue;
      if (graft_rule_get_problem (rule) != NULL)
        {
          g_autofree char *title = graft_rule_dup_title (rule);

          g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, "rule %u (%s) cannot run: %s",
                       i + 1, title, graft_rule_get_problem (rule));
          return NULL;
        }
      /* The set takes a graph of its own. */
      source = graft_source_new ("replacement", graft_rule_get_replacement_text (rule), -1);
      replacement = graft_input_trace_entry (source, self->dialect,
                                             graft_rule_get_replacement_name (rule), error);
      if (replacement == NULL)
        return NULL;
      graft_rule_set_add (set, graft_rule_get_name (rule), graft_rule_get_pattern (rule),
                          graft_rule_get_replacement_name (rule), replacement);
      g_array_append_val (positions, i);
    }
  *out_positions = g_steal_pointer (&positions);
  return g_steal_pointer (&set);
}

/**
 * graft_document_run_all:
 * @self: a document
 * @out_n_replaced: (out) (optional): how many matches were replaced
 * @error: return location for an error
 *
 * Run All: graft_rules_apply() with the enabled rules on the graph as it
 * is, in the passes the fixpoint option allows, then, if asked,
 * graft_eliminate_dead_code(): the CLI's `graft rewrite --rules FILE
 * [--fixpoint N] [--dce]`.  Each call that replaced something is a change
 * of the history of its own (`pass 1 · relu_add → clamp_add · 3
 * matches`), and so is the dead-code removal; on error nothing changes.
 *
 * Returns: whether the rules ran
 */
gboolean
graft_document_run_all (GraftDocument *self,
                        guint         *out_n_replaced,
                        GError       **error)
{
  g_autoptr (GraftRuleSet) set = NULL;
  g_autoptr (GArray) positions = NULL;
  g_autoptr (GraftRulesRun) run = NULL;
  g_autoptr (GHashTable) added = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char  *before = NULL;
  GraftRulesOptions options;
  guint             pushed = 0;
  guint             pass_replaced = 0;
  guint             pass = 0;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  if (graft_document_get_load_error (self) != NULL)
    {
      g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, "there is no graph");
      return FALSE;
    }
  set = make_rule_set (self, &positions, error);
  if (set == NULL)
    return FALSE;
  if (graft_rule_set_get_n_rules (set) == 0)
    {
      g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, "every rule is left out");
      return FALSE;
    }
  graft_rules_options_init (&options);
  options.fixpoint = self->fixpoint;
  before = graft_document_dup_code (self);
  run = graft_rules_apply (self->graph, set, &options, error);
  if (run == NULL)
    return FALSE;

  g_ptr_array_set_size (self->warnings, 0);
  for (guint i = 0; i < graft_rules_run_get_n_steps (run); i++)
    {
      const GraftRuleStep *step = graft_rules_run_get_step (run, i);
      GraftRewrite        *rewrite = graft_rules_run_get_rewrite (run, i);
      GraftRule           *rule = graft_document_get_rule (self, g_array_index (positions, guint,
                                                                                step->rule));
      GPtrArray           *warnings = graft_rewrite_get_warnings (rewrite);
      GPtrArray           *nodes = graft_rewrite_get_added_nodes (rewrite);
      g_autofree char     *prefix = NULL;
      g_autofree char     *label = NULL;
      HistoryEntry        *entry;

      if (step->pass != pass)
        pass_replaced = 0;
      pass = step->pass;
      if (step->n_replaced == 0)
        continue;
      pass_replaced += step->n_replaced;
      for (guint k = 0; k < warnings->len; k++)
        g_ptr_array_add (self->warnings, g_strdup (warnings->pdata[k]));
      for (guint k = 0; k < nodes->len; k++)
        g_hash_table_add (added, g_strdup (graft_node_get_name (nodes->pdata[k])));
      entry = new_step (rule, step->pass, g_array_index (positions, guint, step->rule));
      entry->edit = graft_rewrite_steal_edit (rewrite);
      entry->n_replaced = step->n_replaced;
      entry->pass_replaced = pass_replaced;
      entry->call_done = TRUE;
      prefix = step_prefix (step->pass, graft_rule_get_name (rule),
                            graft_rule_get_replacement_name (rule));
      label = g_strdup_printf ("%s · %u match%s", prefix, step->n_replaced,
                               step->n_replaced == 1 ? "" : "es");
      /* The code before the first step is known; the others' is made if
       * Show Changes asks for it. */
      _graft_document_push (self, entry, label, pushed == 0 ? g_steal_pointer (&before) : NULL,
                            TRUE);
      pushed++;
    }
  if (self->dce)
    {
      g_autoptr (GError) dce_error = NULL;
      guint dead = count_dead (self);

      if (dead > 0 && remove_dead_code (self, MAX (pass, 1), TRUE, &dce_error))
        {
          if (pushed == 0)
            ((HistoryEntry *) self->history->pdata[self->position - 1])->before =
                g_steal_pointer (&before);
          pushed++;
        }
      else if (dce_error != NULL)
        g_warning ("dead-code removal failed: %s", dce_error->message);
    }
  /* The nodes the run added that are still there keep their ring. */
  g_ptr_array_set_size (self->added_names, 0);
  {
    GHashTableIter iter;
    gpointer       key;

    g_hash_table_iter_init (&iter, added);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      if (graft_graph_find_node (self->graph, key) != NULL)
        g_ptr_array_add (self->added_names, g_strdup (key));
  }
  if (out_n_replaced != NULL)
    *out_n_replaced = graft_rules_run_get_n_replaced (run);
  if (pushed > 0)
    _graft_document_changed (self);
  return TRUE;
}

/**
 * _graft_document_replay_rule:
 * @self: a document
 * @entry: (transfer full): a rule's step as a session keeps it: texts,
 *   names, which matches, where in the loop
 * @label: what the history calls it
 * @error: return location for an error
 *
 * Does the step again on the graph as it is (reopening a session): traces
 * the texts as they were, finds their matches and replaces those the step
 * replaced.
 *
 * Returns: whether it was done
 */
gboolean
_graft_document_replay_rule (GraftDocument *self,
                             HistoryEntry  *entry,
                             const char    *label,
                             GError       **error)
{
  g_autoptr (GraftSource) pattern_source = NULL;
  g_autoptr (GraftSource) replacement_source = NULL;
  g_autoptr (GraftGraph) pattern_graph = NULL;
  g_autoptr (GraftPattern) pattern = NULL;
  g_autoptr (GraftGraph) replacement = NULL;
  g_autoptr (GPtrArray) matches = NULL;
  g_autoptr (GPtrArray) subset = NULL;

  pattern_source = graft_source_new ("pattern", entry->pattern_text, -1);
  replacement_source = graft_source_new ("replacement", entry->replacement_text, -1);
  pattern_graph = graft_input_trace_entry (
      pattern_source, self->dialect,
      entry->pattern_name != NULL ? entry->pattern_name : "pattern", error);
  if (pattern_graph != NULL)
    pattern = graft_pattern_new (g_steal_pointer (&pattern_graph), error);
  if (pattern != NULL)
    replacement = graft_input_trace_entry (
        replacement_source, self->dialect,
        entry->replacement_name != NULL ? entry->replacement_name : "replacement", error);
  if (replacement == NULL)
    {
      _graft_document_free_entry (entry);
      return FALSE;
    }
  matches = graft_matcher_find (pattern, self->graph, NULL, NULL);
  if (entry->match >= 0)
    {
      if ((guint) entry->match >= matches->len)
        {
          g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE,
                       "the step replaced match %d, and the pattern has %u matches here",
                       entry->match + 1, matches->len);
          _graft_document_free_entry (entry);
          return FALSE;
        }
      subset = g_ptr_array_new ();
      g_ptr_array_add (subset, matches->pdata[entry->match]);
    }
  else if (entry->except != NULL && entry->except->len > 0)
    {
      subset = g_ptr_array_new ();
      for (guint i = 0; i < matches->len; i++)
        {
          gboolean left = FALSE;

          for (guint k = 0; k < entry->except->len; k++)
            left |= g_array_index (entry->except, guint, k) == i;
          if (!left)
            g_ptr_array_add (subset, matches->pdata[i]);
        }
    }
  return _graft_document_apply_rewrite (self, pattern, replacement, subset, entry, label, error);
}

/* Rules files and passes ---------------------------------------------------- */

/* The `RULES = [...]` statement of @module, or NULL. */
static const GraftPyStmt *
find_rules_statement (GraftPyModule *module)
{
  const GraftPyStmtList *body = graft_py_module_get_body (module);

  for (guint i = 0; i < body->len; i++)
    {
      const GraftPyStmt *stmt = body->items[i];

      if (stmt->kind == GRAFT_PY_STMT_ASSIGN && stmt->assign.targets.len == 1 &&
          stmt->assign.targets.items[0]->kind == GRAFT_PY_EXPR_NAME &&
          strcmp (stmt->assign.targets.items[0]->name.id, "RULES") == 0)
        return stmt;
    }
  return NULL;
}

/* A rule read from a file: its texts and entries, where it stands. */
typedef struct
{
  char    *pattern;
  char    *replacement;
  char    *pattern_entry;
  char    *replacement_entry;
  gboolean enabled;
  guint32  offset;
} ReadRule;

static void
read_rule_clear (gpointer data)
{
  ReadRule *rule = data;

  g_free (rule->pattern);
  g_free (rule->replacement);
  g_free (rule->pattern_entry);
  g_free (rule->replacement_entry);
}

static gint
compare_offsets (gconstpointer a,
                 gconstpointer b)
{
  const ReadRule *x = a;
  const ReadRule *y = b;

  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Appends the rule of @pattern and @replacement in @source, at @offset. */
static gboolean
read_pair (GArray      *rules,
           GraftSource *source,
           const char  *pattern,
           const char  *replacement,
           gboolean     enabled,
           guint32      offset,
           GError     **error)
{
  ReadRule rule = { NULL };

  rule.pattern = graft_pass_dup_definition (source, pattern, error);
  if (rule.pattern == NULL)
    return FALSE;
  rule.replacement = graft_pass_dup_definition (source, replacement, error);
  if (rule.replacement == NULL)
    {
      read_rule_clear (&rule);
      return FALSE;
    }
  rule.pattern_entry = g_strdup (pattern);
  rule.replacement_entry = g_strdup (replacement);
  rule.enabled = enabled;
  rule.offset = offset;
  g_array_append_val (rules, rule);
  return TRUE;
}

/* The rules a left-out line of RULES names (`# (relu_add, clamp_add),`,
 * as graft_rules_file_write() writes it) whose definitions @source has. */
static void
read_left_out (GArray            *rules,
               GraftSource       *source,
               const GraftPyStmt *statement)
{
  g_autoptr (GRegex) regex =
      g_regex_new ("^[ \\t]*#[ \\t]*\\([ \\t]*([A-Za-z_][A-Za-z0-9_]*)[ \\t]*,"
                   "[ \\t]*([A-Za-z_][A-Za-z0-9_]*)[ \\t]*\\)[ \\t]*,",
                   G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GMatchInfo) info = NULL;
  const char *text = graft_source_get_text (source);

  g_regex_match_full (regex, text, statement->end, statement->start, 0, &info, NULL);
  for (; g_match_info_matches (info); g_match_info_next (info, NULL))
    {
      g_autofree char *pattern = g_match_info_fetch (info, 1);
      g_autofree char *replacement = g_match_info_fetch (info, 2);
      int              start = 0;
      int              end = 0;

      g_match_info_fetch_pos (info, 0, &start, &end);
      /* A comment that names nothing of the file is only a comment. */
      read_pair (rules, source, pattern, replacement, FALSE, (guint32) start, NULL);
    }
}

/* Reads the rules of @path: RULES (and its left-out lines), or a file that
 * defines `pattern` and `replacement`, one rule. */
static GArray *
read_rules_file (const char         *path,
                 const GraftDialect *dialect,
                 GError            **error)
{
  g_autoptr (GraftInputSet) inputs = graft_input_set_new (dialect);
  g_autoptr (GArray) rules = g_array_new (FALSE, TRUE, sizeof (ReadRule));
  g_autoptr (GraftPyModule) module = NULL;
  g_autoptr (GPtrArray) refs = NULL;
  const GraftPyStmt *statement;
  GraftPyProgram    *program;
  GraftSource       *source;

  g_array_set_clear_func (rules, read_rule_clear);
  source = graft_input_set_get_source (inputs, path, error);
  if (source == NULL)
    return NULL;
  if (graft_input_detect (source) != GRAFT_INPUT_PYTHON)
    {
      graft_set_error_at (error, path, 1, 1, GRAFT_PARSE_ERROR_NAME,
                          "a rules file is Python that defines RULES, a list of (pattern, "
                          "replacement) pairs");
      return NULL;
    }
  module = graft_py_parse (source, error);
  if (module == NULL)
    return NULL;
  statement = find_rules_statement (module);
  if (statement == NULL)
    {
      /* The simple case: one pair, the editors' own names. */
      g_autofree char *pattern = graft_input_dup_definition (source, "pattern");
      g_autofree char *replacement = graft_input_dup_definition (source, "replacement");
      ReadRule         rule = { NULL };

      if (pattern == NULL || replacement == NULL)
        {
          graft_set_error_at (error, path, 1, 1, GRAFT_PARSE_ERROR_NAME,
                              "the file defines no RULES, nor pattern and replacement functions");
          return NULL;
        }
      rule.pattern = g_steal_pointer (&pattern);
      rule.replacement = g_steal_pointer (&replacement);
      rule.enabled = TRUE;
      g_array_append_val (rules, rule);
      return g_steal_pointer (&rules);
    }
  read_left_out (rules, source, statement);
  /* A RULES of left-out lines only is empty for the CLI, not for us. */
  if (rules->len == 0 || statement->assign.value == NULL ||
      statement->assign.value->kind != GRAFT_PY_EXPR_LIST ||
      statement->assign.value->sequence.elts.len > 0)
    {
      program = graft_input_set_get_program (inputs, path, error);
      if (program == NULL)
        return NULL;
      refs = graft_py_program_get_rules (program, error);
      if (refs == NULL)
        return NULL;
      for (guint i = 0; i < refs->len; i++)
        {
          GraftPyRuleRef *ref = refs->pdata[i];

          if (!read_pair (rules, source, ref->pattern_entry, ref->replacement_entry, TRUE,
                          ref->start, error))
            return NULL;
        }
    }
  g_array_sort (rules, compare_offsets);
  return g_steal_pointer (&rules);
}

/**
 * graft_document_load_rules:
 * @self: a document
 * @file: a rules file: Python that defines `RULES` (cli.md, "Rules"), or
 *   `pattern` and `replacement`
 * @error: return location for a located error
 *
 * Makes the file's rules the document's, as one change of the history.
 * Each rule's editors hold its pattern's and its replacement's definition
 * with what they use of the file (graft_pass_dup_definition()); a rule
 * left out in the file (`# (a, b),` in `RULES`, as the editor saves it)
 * comes back left out.  A rule that does not trace shows its error; on an
 * error reading the file nothing changes.
 *
 * Returns: %TRUE on success
 */
gboolean
graft_document_load_rules (GraftDocument *self,
                           GFile         *file,
                           GError       **error)
{
  g_autofree char *path = NULL;
  g_autofree char *base = NULL;
  g_autofree char *label = NULL;
  g_autoptr (GArray) read = NULL;
  g_autoptr (GPtrArray) rules = g_ptr_array_new_with_free_func (g_object_unref);
  GraftRulesChange *change;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_autofree char *display = g_file_get_parse_name (file);

      graft_set_file_error (error, display, GRAFT_ERROR_IO, "not a local file");
      return FALSE;
    }
  read = read_rules_file (path, self->dialect, error);
  if (read == NULL)
    return FALSE;
  for (guint i = 0; i < read->len; i++)
    {
      ReadRule  *r = &g_array_index (read, ReadRule, i);
      GraftRule *rule = graft_rule_new (r->pattern, r->replacement);

      _graft_rule_set_entries (rule, r->pattern_entry, r->replacement_entry);
      _graft_rule_set_enabled (rule, r->enabled);
      _graft_document_trace_rule (self, rule, NULL, NULL);
      g_ptr_array_add (rules, rule);
    }
  change = begin_change (self);
  g_list_store_splice (G_LIST_STORE (graft_document_get_rules (self)), 0,
                       graft_document_get_n_rules (self), rules->pdata, rules->len);
  self->selected = 0;
  _graft_document_rules_changed (self);
  base = g_file_get_basename (file);
  g_free (self->rules_name);
  self->rules_name = g_strdup (base);
  label = g_strdup_printf ("Open rules %s", base);
  end_change (self, change, label);
  return TRUE;
}

/* Each rule's texts as sources, for the core's writers: every rule, or
 * the enabled ones. */
static GArray *
pass_rules (GraftDocument *self,
            gboolean       enabled_only,
            GPtrArray     *sources,
            GArray        *left_out,
            GError       **error)
{
  g_autoptr (GArray) rules = g_array_new (FALSE, TRUE, sizeof (GraftPassRule));

  for (guint i = 0; i < graft_document_get_n_rules (self); i++)
    {
      GraftRule    *rule = graft_document_get_rule (self, i);
      GraftPassRule pass_rule;
      gboolean      out = !graft_rule_get_enabled (rule);

      if (enabled_only && out)
        continue;
      if (graft_rule_get_name (rule) == NULL || graft_rule_get_replacement_name (rule) == NULL)
        {
          g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE,
                       "rule %u defines no %s function or class", i + 1,
                       graft_rule_get_name (rule) == NULL ? "pattern" : "replacement");
          return NULL;
        }
      {
        g_autofree char *pattern_label = g_strdup_printf ("rule %u pattern", i + 1);
        g_autofree char *replacement_label = g_strdup_printf ("rule %u replacement", i + 1);

        pass_rule.pattern_source =
            graft_source_new (pattern_label, graft_rule_get_pattern_text (rule), -1);
        pass_rule.replacement_source =
            graft_source_new (replacement_label, graft_rule_get_replacement_text (rule), -1);
      }
      g_ptr_array_add (sources, pass_rule.pattern_source);
      g_ptr_array_add (sources, pass_rule.replacement_source);
      pass_rule.pattern = graft_rule_get_name (rule);
      pass_rule.replacement = graft_rule_get_replacement_name (rule);
      g_array_append_val (rules, pass_rule);
      if (left_out != NULL)
        g_array_append_val (left_out, out);
    }
  return g_steal_pointer (&rules);
}

/**
 * graft_document_dup_rules_text:
 * @self: a document
 * @error: return location for an error
 *
 * Returns: (transfer full) (nullable): every rule as a rules file that
 *   `graft rewrite --rules` reads (graft_rules_file_write()), the rules
 *   left out as comments in `RULES`; %NULL when two rules define one name
 *   differently, or a text defines no function
 */
char *
graft_document_dup_rules_text (GraftDocument *self,
                               GError       **error)
{
  g_autoptr (GPtrArray) sources =
      g_ptr_array_new_with_free_func ((GDestroyNotify) graft_source_unref);
  g_autoptr (GArray) left_out = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_autoptr (GArray) rules = NULL;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  rules = pass_rules (self, FALSE, sources, left_out, error);
  if (rules == NULL)
    return NULL;
  return graft_rules_file_write ((const GraftPassRule *) (gpointer) rules->data, rules->len,
                                 (const gboolean *) (gpointer) left_out->data,
                                 "Rules written by Graft: `graft rewrite MODEL --rules FILE` "
                                 "applies "
                                 "them in order,\neach as one torch.fx replace_pattern call; a "
                                 "rule "
                                 "commented out in RULES is left out.",
                                 error);
}

/**
 * graft_document_save_rules:
 * @self: a document
 * @file: where to write
 * @error: return location for an error
 *
 * Writes graft_document_dup_rules_text() to @file, atomically.
 *
 * Returns: %TRUE on success
 */
gboolean
graft_document_save_rules (GraftDocument *self,
                           GFile         *file,
                           GError       **error)
{
  g_autofree char *text = NULL;
  g_autofree char *path = NULL;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           "only local files can be written");
      return FALSE;
    }
  text = graft_document_dup_rules_text (self, error);
  if (text == NULL || !graft_output_write_file (path, text, strlen (text), error))
    return FALSE;
  g_free (self->rules_name);
  self->rules_name = g_file_get_basename (file);
  return TRUE;
}

/**
 * graft_document_dup_pass:
 * @self: a document
 * @error: return location for an error
 *
 * Returns: (transfer full) (nullable): the enabled rules with the passes
 *   and dead-code removal the options ask for, as a standalone torch.fx
 *   pass for the document's torch (graft_pass_write(): what `graft rewrite
 *   --rules FILE --to pass` writes for the rules file the editor saves)
 */
char *
graft_document_dup_pass (GraftDocument *self,
                         GError       **error)
{
  g_autoptr (GPtrArray) sources =
      g_ptr_array_new_with_free_func ((GDestroyNotify) graft_source_unref);
  g_autoptr (GArray) rules = NULL;
  GraftPassOptions options = { 0 };

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  rules = pass_rules (self, TRUE, sources, NULL, error);
  if (rules == NULL)
    return NULL;
  if (rules->len == 0)
    {
      g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, "every rule is left out");
      return NULL;
    }
  options.dialect = self->dialect;
  options.origin = self->rules_name;
  options.fixpoint = self->fixpoint;
  options.dce = self->dce;
  return graft_pass_write ((const GraftPassRule *) (gpointer) rules->data, rules->len, &options,
                           error);
}

/**
 * graft_document_export_pass:
 * @self: a document
 * @file: where to write
 * @error: return location for an error
 *
 * Writes graft_document_dup_pass() to @file, atomically.
 *
 * Returns: %TRUE on success
 */
gboolean
graft_document_export_pass (GraftDocument *self,
                            GFile         *file,
                            GError       **error)
{
  g_autofree char *text = NULL;
  g_autofree char *path = NULL;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           "only local files can be written");
      return FALSE;
    }
  text = graft_document_dup_pass (self, error);
  return text != NULL && graft_output_write_file (path, text, strlen (text), error);
}
