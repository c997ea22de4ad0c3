/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-document-rules.c: a document's rule set.  Rules are added,
 * removed, moved, left out and renamed as changes of the document's
 * history (GRAFT_STEP_RULES), so Ctrl+Z takes them back like a rewrite; a
 * change keeps the set as it was before and after (the rules themselves,
 * shared, and whether each took part), or, for a rename, the names, undone
 * by renaming back in the texts as they are then (an edit typed since is
 * kept).  A rules file is read into the set (graft_document_load_rules(),
 * one change) and written from it (graft_document_dup_rules_text()), and
 * the enabled rules make a torch.fx pass (graft_document_dup_pass()).  The
 * steps that apply the rules are graft-document-steps.c's.
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
  _graft_document_settle (self);

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
  _graft_document_settle (self);
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
  _graft_document_settle (self);
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
  _graft_document_settle (self);
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
  _graft_document_settle (self);

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
  _graft_document_settle (self);

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
  _graft_document_settle (self);
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
  _graft_document_settle (self);
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
