/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-document-steps.c: the steps that apply a document's rules.
 *
 * The loop that `graft rewrite --rules FILE --fixpoint N` runs
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
 * that replaced something recorded as a step of its own.  A session's
 * steps are done again here too (_graft_document_replay_rule()).
 */
#include "config.h"

#include "graft-document.h"
#include "graft-document-private.h"
#include "graft-rule.h"
#include "graft-turns.h"

#include <string.h>

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
  _graft_document_settle (self);
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
  _graft_document_settle (self);
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

/* Whether any match of @rule's call in @pass was skipped (its matches'
 * keys are only worth making then: a rule may have thousands). */
static gboolean
may_skip (GraftDocument *self,
          const Cursor  *c,
          guint          pass,
          guint          rule)
{
  return (c->in_call && pass == c->pass && rule == c->rule && c->skipped != NULL &&
          c->skipped[0] != NULL) ||
         (self->pending_skips->len > 0 && pass == self->pending_pass &&
          rule == self->pending_rule);
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
      if (!may_skip (self, c, pass, r))
        {
          count = matches->len;
          first = 0;
        }
      else
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
  _graft_document_ensure_matches (self);
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

  /* While the matches are found by steps, asking would finish the search
   * and count every other rule in this turn (loading a rules file into a
   * million-node graph: a turn of 100 ms): the search works the next step
   * out when it is done (match_step_cb()), and says so again then. */
  if (graft_document_get_matches_pending (self))
    {
      self->next_due = TRUE;
      g_signal_emit_by_name (self, "rules-changed");
      return;
    }
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
  /* Not "Done: no rule has a match", as if the rules had looked. */
  if (graft_document_get_load_error (self) != NULL)
    return g_strdup ("Nothing to run: the file cannot be read");
  if (graft_document_get_file (self) == NULL &&
      graft_graph_get_n_nodes (graft_document_get_graph (self)) == 0)
    return g_strdup ("Nothing to run: no graph is open");
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
        return g_strdup_printf ("Rule %u (%s) cannot run: %s", next.rule + 1, title,
                                graft_rule_get_problem (rule));
      }
    case GRAFT_NEXT_DONE:
    default:
      if (next.bound_reached)
        return g_strdup_printf ("Done: pass %u, the last allowed, still replaced matches",
                                next.pass);
      /* One pass (Repeat Passes off) may end with matches left, as
       * `graft rewrite --rules` without --fixpoint does: say so. */
      for (guint i = 0; i < graft_document_get_n_rules (self); i++)
        {
          rule = graft_document_get_rule (self, i);
          if (graft_rule_get_enabled (rule) && graft_rule_get_n_matches (rule) > 0)
            {
              guint n = graft_rule_get_n_matches (rule);

              return g_strdup_printf ("Done: one pass; %s still has %u match%s "
                                      "(Repeat Passes goes on)",
                                      graft_rule_get_name (rule), n, n == 1 ? "" : "es");
            }
        }
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
  /* Taking nodes out never breaks the code: the graph after holds it if
   * the graph before did (a quiet step records it in a run's last). */
  if (!quiet)
    {
      self->code_holds_next = self->pushed_unchanged == 0 && _graft_document_code_holds (self);
      self->rewrite_ok_next = self->pushed_unchanged == 0 && _graft_document_rewrite_ok (self);
    }
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
  _graft_document_settle (self);
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
  _graft_document_settle (self);
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
  _graft_document_settle (self);
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
  _graft_document_settle (self);
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

/* A run of the rules, at once or by steps (graft_document_begin_run_all()). */
struct _GraftRunning
{
  /* Owned */
  GraftRuleSet      *set;
  GArray            *positions; /* guint: where each rule of set stands in the document's */
  GraftRulesJob     *job;       /* the run under way, or NULL once it is over */
  GraftRulesRun     *run;       /* what it did, once it is over, or NULL */
  GError            *error;     /* why it failed, once it is over */
  GraftCodegenCheck *check;     /* the check of the graph it left, by steps, or NULL */
  char              *before;    /* the code before the run, if it was known */
  gboolean           checked;   /* the check is done: the names are found next */
  /* The names of the nodes the run added that are still there, found by
   * steps (running_names_some()) from the node names_at of the call
   * names_step on, once names_done; seen borrows them. */
  GPtrArray  *names;
  GHashTable *seen;
  guint       names_step;
  guint       names_at;
  gboolean    names_done;
  gboolean    stepped; /* only the end is left (running_end()) */
};

static void
running_free (GraftRunning *r)
{
  g_clear_pointer (&r->seen, g_hash_table_unref);
  g_clear_pointer (&r->names, g_ptr_array_unref);
  g_clear_pointer (&r->check, graft_codegen_check_free);
  /* A run not over undoes itself. */
  g_clear_pointer (&r->job, graft_rules_job_free);
  if (r->run != NULL)
    graft_rules_run_undo (r->run);
  g_clear_pointer (&r->run, graft_rules_run_free);
  g_clear_pointer (&r->set, graft_rule_set_free);
  g_clear_pointer (&r->positions, g_array_unref);
  g_clear_error (&r->error);
  g_free (r->before);
  g_free (r);
}

/* Begins a run of the enabled rules on the graph as it is, or says why
 * it cannot. */
static GraftRunning *
running_new (GraftDocument *self,
             GError       **error)
{
  g_autoptr (GraftRuleSet) set = NULL;
  g_autoptr (GArray) positions = NULL;
  GraftRulesOptions options;
  GraftRunning     *r;

  if (graft_document_get_load_error (self) != NULL)
    {
      g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, "there is no graph");
      return NULL;
    }
  set = make_rule_set (self, &positions, error);
  if (set == NULL)
    return NULL;
  if (graft_rule_set_get_n_rules (set) == 0)
    {
      g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, "every rule is left out");
      return NULL;
    }
  graft_rules_options_init (&options);
  options.fixpoint = self->fixpoint;
  r = g_new0 (GraftRunning, 1);
  r->set = g_steal_pointer (&set);
  r->positions = g_steal_pointer (&positions);
  r->job = graft_rules_job_new (self->graph, r->set, &options);
  /* The code now is the code before the run, when it is known: else it
   * is made if Show Changes asks for it (graft_document_dup_last_change()),
   * not here, where it took half a second at a million nodes. */
  r->before = g_steal_pointer (&self->code);
  return r;
}

/* Nodes of the check of the graph a run left, per look at the clock:
 * 1-2 ms. */
#define RUN_CHECK_NODES 50000
/* Added nodes looked up per look at the clock (about 0.5 us each). */
#define RUN_NAMES_NODES 8192

/* Finds, @n nodes at most, the names of the nodes the run added that are
 * still there (running_end() records them, which at a million nodes took
 * 110 ms at once); returns whether every one is looked at. */
static gboolean
running_names_some (GraftDocument *self,
                    GraftRunning  *r,
                    guint          n)
{
  guint n_steps = graft_rules_run_get_n_steps (r->run);

  if (r->names == NULL)
    {
      r->names = g_ptr_array_new_with_free_func (g_free);
      r->seen = g_hash_table_new (g_str_hash, g_str_equal);
    }
  for (; r->names_step < n_steps; r->names_step++, r->names_at = 0)
    {
      GPtrArray *nodes =
          graft_rewrite_get_added_nodes (graft_rules_run_get_rewrite (r->run, r->names_step));

      for (; r->names_at < nodes->len; r->names_at++)
        {
          const char *name;

          if (n-- == 0)
            return FALSE;
          /* A node a later call erased is its edit's, still there to read. */
          name = graft_node_get_name (nodes->pdata[r->names_at]);
          if (!g_hash_table_contains (r->seen, name) &&
              graft_graph_find_node (self->graph, name) != NULL)
            {
              char *copy = g_strdup (name);

              g_hash_table_add (r->seen, copy);
              g_ptr_array_add (r->names, copy);
            }
        }
    }
  r->names_done = TRUE;
  return TRUE;
}

/* Runs the rules for about a turn's share of processor time from @start
 * (_graft_document_thread_time()), then checks, as `graft rewrite
 * --rules` ends, whether the module of the graph they left holds its
 * code, by steps too (the whole graph at once took 20-34 ms at a million
 * nodes). */
static void
running_some (GraftDocument *self,
              GraftRunning  *r,
              gint64         start,
              guint          work)
{
  gint64 deadline = start + _GRAFT_DOCUMENT_STEP_USEC;

  do
    {
      if (r->job != NULL)
        {
          if (!graft_rules_job_step (r->job, work))
            continue;
          r->run = graft_rules_job_finish (r->job, &r->error);
          g_clear_pointer (&r->job, graft_rules_job_free);
          if (r->run == NULL)
            {
              r->stepped = TRUE;
              return;
            }
          r->check = graft_codegen_check_new (self->graph);
        }
      else if (!r->checked)
        r->checked = graft_codegen_check_step (r->check, RUN_CHECK_NODES);
      else if (running_names_some (self, r, RUN_NAMES_NODES))
        {
          r->stepped = TRUE;
          return;
        }
    }
  while (_graft_document_thread_time () < deadline);
}

/* Ends the run @r (taken), done or not: on error (the rules', or a program
 * left with code torch cannot compile) the graph is as it was and nothing
 * is recorded; else each call that replaced something is a change of the
 * history, and so is the dead-code removal, those after the first joined
 * to it (one undo). */
static gboolean
running_end (GraftDocument *self,
             GraftRunning  *r,
             guint         *out_n_replaced,
             GError       **error)
{
  g_autoptr (GHashTable) added = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GraftRulesRun) run = NULL;
  g_autofree char *before = g_steal_pointer (&r->before);
  GArray          *positions = r->positions;
  guint            pushed = 0;
  guint            pass_replaced = 0;
  guint            pass = 0;
  guint            start;
  gboolean         dce_removed = FALSE;
  gboolean         ok;

  *out_n_replaced = 0;
  if (r->job != NULL)
    {
      r->run = graft_rules_job_finish (r->job, &r->error);
      g_clear_pointer (&r->job, graft_rules_job_free);
    }
  if (r->run == NULL)
    ok = FALSE;
  else if (r->check == NULL)
    /* As `graft rewrite --rules` ends, at once. */
    ok = _graft_document_check_rewritten (self, NULL, &r->error);
  else
    {
      /* The same check, by steps: what is left of it now. */
      if (!r->checked)
        self->n_code_checks++;
      ok = graft_codegen_check_finish (g_steal_pointer (&r->check), &r->error);
    }
  if (!ok)
    {
      if (r->run != NULL)
        graft_rules_run_undo (r->run);
      g_clear_pointer (&r->run, graft_rules_run_free);
      /* The graph is as it was: its code too. */
      g_free (self->code);
      self->code = g_steal_pointer (&before);
      g_propagate_error (error, g_steal_pointer (&r->error));
      running_free (r);
      return FALSE;
    }
  run = g_steal_pointer (&r->run);
  start = self->position;

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
      if (!r->names_done)
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
          /* It may have taken out nodes the run added. */
          dce_removed = TRUE;
          if (pushed == 0)
            ((HistoryEntry *) self->history->pdata[self->position - 1])->before =
                g_steal_pointer (&before);
          pushed++;
        }
      else if (dce_error != NULL)
        g_warning ("dead-code removal failed: %s", dce_error->message);
    }
  /* The run is one change to the user: Ctrl+Z, the menu's Undo and the
   * toast's take it back whole, the History keeps its steps. */
  for (guint k = start + 1; k < self->position; k++)
    ((HistoryEntry *) self->history->pdata[k])->joined = TRUE;
  /* The nodes the run added that are still there keep their ring. */
  g_ptr_array_set_size (self->added_names, 0);
  if (r->names_done)
    {
      /* Found by steps. */
      for (guint k = 0; k < r->names->len; k++)
        if (!dce_removed || graft_graph_find_node (self->graph, r->names->pdata[k]) != NULL)
          g_ptr_array_add (self->added_names, g_strdup (r->names->pdata[k]));
    }
  else
    {
      GHashTableIter iter;
      gpointer       key;

      g_hash_table_iter_init (&iter, added);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        if (graft_graph_find_node (self->graph, key) != NULL)
          g_ptr_array_add (self->added_names, g_strdup (key));
    }
  *out_n_replaced = graft_rules_run_get_n_replaced (run);
  if (pushed > 0)
    _graft_document_changed (self);
  else
    {
      /* Nothing changed: the code is still the graph's. */
      g_free (self->code);
      self->code = g_steal_pointer (&before);
    }
  running_free (r);
  return TRUE;
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
  GraftRunning *r;
  guint         n;
  gboolean      ok;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  _graft_document_settle (self);
  r = running_new (self, error);
  if (r == NULL)
    return FALSE;
  ok = running_end (self, r, &n, error);
  if (out_n_replaced != NULL)
    *out_n_replaced = n;
  return ok;
}

/**
 * _graft_document_ran_all:
 * @self: a document running the rules by steps
 *
 * Ends the run under way, what is left of it at once, and says so
 * (::ran-all).
 */
void
_graft_document_ran_all (GraftDocument *self)
{
  GraftRunning *r = g_steal_pointer (&self->running);
  g_autoptr (GError) error = NULL;
  guint n = 0;

  graft_turns_remove (self->run_job);
  self->run_job = 0;
  running_end (self, r, &n, &error);
  _graft_document_emit_ran_all (self, n, error);
}

/* For tests: when not 0, each turn of a run makes one step of this much
 * work (_graft_document_set_run_step()). */
static guint run_step_work;

/**
 * _graft_document_set_run_step:
 * @work: the work of a turn's one step, or 0 for the usual time budget
 *
 * Makes Run All by steps go by a fixed amount of work a turn (for tests,
 * which then know a small graph's run takes many turns).
 */
void
_graft_document_set_run_step (guint work)
{
  run_step_work = work;
}

/* A turn's share of the run. */
static void
run_some (GraftDocument *self,
          gint64         start)
{
  GraftRunning *r = self->running;

  if (run_step_work == 0)
    running_some (self, r, start, _GRAFT_DOCUMENT_STEP_WORK);
  else if (r->job != NULL || r->check != NULL)
    /* One step of the given work, with no look at the clock. */
    running_some (self, r, G_MININT64 / 2, run_step_work);
}

/* A turn of Run All: its steps for about a turn's share, then, in a turn
 * of its own, its end (the history, ::graph-changed). */
static gboolean
run_step_cb (gpointer user_data)
{
  GraftDocument *self = user_data;

  if (self->running->stepped)
    {
      /* _graft_document_ran_all() removes this job: from inside its step,
       * once the step returns. */
      _graft_document_ran_all (self);
      return G_SOURCE_REMOVE;
    }
  run_some (self, _graft_document_thread_time ());
  _graft_document_emit_run_progress (self);
  return G_SOURCE_CONTINUE;
}

/**
 * graft_document_begin_run_all:
 * @self: a document
 * @error: return location for why the rules cannot run
 *
 * graft_document_run_all() over the turns to come, a turn's share of
 * processor time each (the rules' searches and rewrites, then the check
 * of the code of the graph they left), then its end in a turn of its
 * own: at a million nodes the run took seconds in one turn.  Meanwhile
 * the document shows the graph, the matches and the history as they were
 * (graft_document_get_running_all()); whatever reads or changes them
 * finishes the run first, at once (graft_document_settle()), and
 * graft_document_cancel_run_all() gives the graph back as it was.
 * ::ran-all says when it is over, how many matches it replaced and why
 * it failed, if it did.
 *
 * Returns: whether the run began (%FALSE with @error: it cannot run)
 */
gboolean
graft_document_begin_run_all (GraftDocument *self,
                              GError       **error)
{
  gint64 start;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  _graft_document_settle (self);
  start = _graft_document_thread_time ();
  self->running = running_new (self, error);
  if (self->running == NULL)
    return FALSE;
  /* A first step now: a small graph's run is over at once. */
  run_some (self, start);
  if (self->running->stepped)
    _graft_document_ran_all (self);
  else
    {
      self->run_job = graft_turns_add_alone (run_step_cb, self, NULL);
      _graft_document_emit_run_progress (self);
    }
  return TRUE;
}

/**
 * graft_document_get_running_all:
 * @self: a document
 *
 * Returns: whether a Run All is under way (graft_document_begin_run_all())
 */
gboolean
graft_document_get_running_all (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  return self->running != NULL;
}

/**
 * graft_document_get_run_progress:
 * @self: a document
 * @pass: (out): the pass under way, from 1
 * @rule: (out): the rule under way, from 0: @n_rules while the code of
 *   the graph the run left is checked, after the last rule
 * @n_rules: (out): how many rules run
 *
 * Where the Run All under way stands (::run-progress says when it moved).
 *
 * Returns: whether a Run All is under way; if not, the outs are 0
 */
gboolean
graft_document_get_run_progress (GraftDocument *self,
                                 guint         *pass,
                                 guint         *rule,
                                 guint         *n_rules)
{
  GraftRunning *r;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (pass != NULL && rule != NULL && n_rules != NULL, FALSE);
  r = self->running;
  *pass = *rule = *n_rules = 0;
  if (r == NULL)
    return FALSE;
  *n_rules = graft_rule_set_get_n_rules (r->set);
  if (r->job != NULL)
    graft_rules_job_get_position (r->job, pass, rule);
  else
    {
      *pass = r->run != NULL ? graft_rules_run_get_n_passes (r->run) : 1;
      *rule = *n_rules;
    }
  return TRUE;
}

/**
 * graft_document_cancel_run_all:
 * @self: a document
 *
 * Stops the Run All under way, if any: the graph is as it was before it,
 * nothing is recorded, and ::ran-all says it was cancelled.
 */
void
graft_document_cancel_run_all (GraftDocument *self)
{
  g_autoptr (GError) error = NULL;

  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  if (self->running == NULL)
    return;
  _graft_document_running_drop (self);
  g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "the run was cancelled");
  _graft_document_emit_ran_all (self, 0, error);
}

/**
 * _graft_document_running_drop:
 * @self: a document
 *
 * Drops a run under way, if any: the graph is as it was before it, and so
 * is its code.
 */
void
_graft_document_running_drop (GraftDocument *self)
{
  GraftRunning *r = g_steal_pointer (&self->running);

  graft_turns_remove (self->run_job);
  self->run_job = 0;
  if (r == NULL)
    return;
  g_free (self->code);
  self->code = g_steal_pointer (&r->before);
  running_free (r);
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

  _graft_document_settle (self);
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
