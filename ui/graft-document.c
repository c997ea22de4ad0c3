/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-document.c: the model behind an editor window.  It holds the
 * graph read from a file (Python traced as torch.fx would, an FX listing
 * or DOT), a set of rules (GraftRule: a pattern and a replacement as
 * Python text with the graphs traced from them, or the located errors
 * that stopped them; at least one), the matches of the chosen rule's
 * pattern in the graph as a list model, every rule's count, and the undo
 * history.  The pattern and replacement the editors show, and Replace and
 * Replace All, are the chosen rule's (graft_document_get_pattern_text(),
 * graft_document_select_rule()).
 *
 * After a change of the graph or of a pattern the matches are found again
 * in the main-loop turns that follow (graft-turns.c): searching, then
 * installing what was found (the list changes only the rows that differ,
 * graft-match-model.c), then the other rules' counts and the next step,
 * each in a turn of its own, so that none of them adds to the turn of the
 * edit (at 50,000 nodes, searching took 4-10 ms and the list 6-24 ms).
 * Whatever asks for the matches before then (graft_document_get_n_matches()
 * and every other accessor of matches, counts and the next step) finishes
 * the work at once, so callers always see the matches of the graph as it
 * is; the window's displays read what the list shows
 * (graft_document_get_n_matches_shown()) and update on `matches-changed`.
 * The widgets that type debounce their own edits.  Every rewrite records the core's edit
 * (graft_rewrite_steal_edit()), so undo and redo cost what the rewrite
 * changed, not the graph's size, and the history has no limit.  Each
 * change of the history also says what it did (a rule's texts and
 * matches, nodes deleted, a text restored, a switch of torch), so that a
 * session can do it again (graft-session.c), and the history can be
 * walked to any position (graft_document_go_to()).
 *
 * Reading a file or a text into a graph (graft_document_load_*()) is
 * graft-document-loader.c's; changing the rule set is
 * graft-document-rules.c's, and the steps that apply it are
 * graft-document-steps.c's; they share the document's struct through
 * graft-document-private.h.
 *
 * The document speaks one torch (a GraftDialect, its `torch` property):
 * its graph and rules are all made for it, so that code, listings,
 * matching, rewriting and exports follow.  Switching
 * (graft_document_set_dialect()) reads the graph again from the text it
 * came from, or from its own code once edited, as one step of the history.
 *
 * Signals: `graph-changed` after any change of the graph (the window lays
 * it out again); `matches-changed` after the chosen rule's matches were
 * found again; `patterns-changed` when the chosen rule's texts were traced
 * again (their errors may have changed) or another rule was chosen;
 * `rules-changed` when the rule set, the chosen rule, a count, an option
 * or the next step changed; `matches-pending` when the matches and the
 * counts begin to be found again by steps (the next step is not known
 * until `rules-changed`); `rule-texts-changed` when the document itself
 * changed a rule's texts (a rename); `history-changed` after a change was
 * made, undone or redone.
 */
#include "config.h"

#include "graft-document.h"
#include "graft-document-private.h"
#include "graft-autosave.h"
#include "graft-export.h"
#include "graft-match-item.h"
#include "graft-rule.h"
#include "graft-session.h"
#include "graft-turns.h"

#include <string.h>
#include <time.h>

#define DEFAULT_PATTERN \
  "import torch\n"      \
  "\n"                  \
  "\n"                  \
  "def pattern(x):\n"   \
  "    return torch.relu(x)\n"

#define DEFAULT_REPLACEMENT \
  "import torch\n"          \
  "\n"                      \
  "\n"                      \
  "def replacement(x):\n"   \
  "    return torch.nn.functional.relu(x)\n"

/* A program's first rule: its ReLUs as torch.export writes them, into the
 * clamp that computes the same (docs/programs.md, "Rewriting programs"). */
#define PROGRAM_PATTERN(OP) \
  "import torch\n"          \
  "\n"                      \
  "\n"                      \
  "def pattern(x):\n"       \
  "    return torch.ops.aten." OP ".default(x)\n"

#define PROGRAM_REPLACEMENT(OP) \
  "import torch\n"              \
  "\n"                          \
  "\n"                          \
  "def replacement(x):\n"       \
  "    return torch.ops.aten." OP ".default(x, 0)\n"

/* The texts a document starts with, by what it shows: a module (or a
 * listing, or DOT), a program with ReLUs, one with only in-place ones. */
static const char *const default_texts[][2] = {
  { DEFAULT_PATTERN, DEFAULT_REPLACEMENT },
  { PROGRAM_PATTERN ("relu"), PROGRAM_REPLACEMENT ("clamp_min") },
  { PROGRAM_PATTERN ("relu_"), PROGRAM_REPLACEMENT ("clamp_min_") },
};

G_DEFINE_FINAL_TYPE (GraftDocument, graft_document, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TITLE,
  PROP_FILE,
  PROP_MODIFIED,
  PROP_N_MATCHES,
  PROP_CAN_UNDO,
  PROP_CAN_REDO,
  PROP_TORCH,
  N_PROPS,
};

enum {
  SIGNAL_GRAPH_CHANGED,
  SIGNAL_MATCHES_CHANGED,
  SIGNAL_PATTERNS_CHANGED,
  SIGNAL_RULES_CHANGED,
  SIGNAL_MATCHES_PENDING,
  SIGNAL_RULE_TEXTS_CHANGED,
  SIGNAL_HISTORY_CHANGED,
  SIGNAL_REPLACED_ALL,
  SIGNAL_RAN_ALL,
  SIGNAL_RUN_PROGRESS,
  SIGNAL_MOVED,
  SIGNAL_SWITCHED,
  N_SIGNALS,
};

static GParamSpec *properties[N_PROPS];
static guint       signals[N_SIGNALS];

/* Matches (and occurrences left alone) freed by graft_turns_free_later()
 * when the document goes, from this many on. */
#define FREE_LATER_MATCHES 10000

/* Frees @graph, and drops @source (either nullable): a big graph
 * (GRAFT_TURNS_FREE_LATER_NODES), with its source, on another thread,
 * once no edit of it is alive (they are told when it goes, on their own
 * thread).  Returns whether it went to the other thread. */
static gboolean
drop_graph (GraftGraph  *graph,
            GraftSource *source)
{
  if (graph != NULL && graft_graph_get_n_nodes (graph) >= GRAFT_TURNS_FREE_LATER_NODES &&
      !graft_graph_has_edits (graph))
    {
      graft_turns_free_later (graph, (GDestroyNotify) graft_graph_free);
      graft_turns_free_later (source, (GDestroyNotify) graft_source_unref);
      return TRUE;
    }
  graft_graph_free (graph);
  if (source != NULL)
    graft_source_unref (source);
  return FALSE;
}

/* Drops @self's graph, its source and the file its history began from:
 * with the graph on the other thread when it goes there (drop_graph()),
 * as unmapping the file is part of the cost. */
static void
drop_own_graph (GraftDocument *self)
{
  if (drop_graph (g_steal_pointer (&self->graph), g_steal_pointer (&self->source)))
    graft_turns_free_later (g_steal_pointer (&self->root_source),
                            (GDestroyNotify) graft_source_unref);
  g_clear_pointer (&self->root_source, graft_source_unref);
}

static void
history_entry_free (gpointer data)
{
  HistoryEntry *entry = data;

  graft_edit_free (entry->edit);
  drop_graph (g_steal_pointer (&entry->graph), g_steal_pointer (&entry->source));
  g_clear_error (&entry->load_error);
  g_clear_pointer (&entry->rules, _graft_rules_change_free);
  g_free (entry->label);
  g_free (entry->before);
  g_free (entry->pattern_text);
  g_free (entry->replacement_text);
  g_free (entry->pattern_name);
  g_free (entry->replacement_name);
  g_clear_pointer (&entry->except, g_array_unref);
  g_strfreev (entry->skipped);
  g_strfreev (entry->names);
  g_clear_pointer (&entry->ranks, g_array_unref);
  g_free (entry->restore_name);
  g_free (entry->restore_text);
  g_free (entry);
}

/* Drops the history's entries from @length on.  Edits refer to their
 * graph's nodes, and a later entry's edit may be on a graph an earlier
 * dropped entry holds: every edit goes before any graph does. */
static void search_drop (GraftDocument *self);

static void     rewriting_drop (GraftDocument *self);
static gboolean move_some (GraftDocument *self,
                           gint64         start,
                           gboolean       unbounded);
static void     moved (GraftDocument *self);

/* The first layout's request made while the file was read, of a graph
 * that is no longer the document's or that the runner did not take. */
static void
drop_loaded_request (GraftDocument *self)
{
  g_clear_pointer (&self->loaded_request, graft_layout_request_free);
  g_clear_pointer (&self->loaded_collapsed, g_hash_table_unref);
}

static void
truncate_history (GraftDocument *self,
                  guint          length)
{
  for (guint i = length; i < self->history->len; i++)
    g_clear_pointer (&((HistoryEntry *) self->history->pdata[i])->edit, graft_edit_free);
  g_ptr_array_set_size (self->history, length);
}

static void
graft_document_finalize (GObject *object)
{
  GraftDocument *self = GRAFT_DOCUMENT (object);

  /* A Replace All under way gives the graph back as it was; a move by
   * steps stops half-way, its graphs and edits freed as they are. */
  rewriting_drop (self);
  _graft_document_running_drop (self);
  graft_turns_remove (self->move_job);
  graft_turns_remove (self->match_job);
  _graft_document_code_dispose (self);
  g_clear_pointer (&self->loaded_scopes, graft_scopes_free);
  drop_loaded_request (self);
  search_drop (self);
  g_clear_pointer (&self->found, _graft_found_matches_free);
  /* Edits refer to the graph's nodes: free them first. */
  truncate_history (self, 0);
  g_clear_pointer (&self->history, g_ptr_array_unref);
  /* A big graph's matches too (105,472 at a million nodes: 3-4 ms in the
   * turn that closed the window); a match reads no node when freed. */
  if (self->matches->len + self->dropped->len >= FREE_LATER_MATCHES)
    {
      graft_turns_free_later (g_steal_pointer (&self->matches),
                              (GDestroyNotify) g_ptr_array_unref);
      graft_turns_free_later (g_steal_pointer (&self->dropped),
                              (GDestroyNotify) g_ptr_array_unref);
      graft_turns_free_later (g_steal_pointer (&self->match_of),
                              (GDestroyNotify) g_hash_table_unref);
      graft_turns_free_later (g_steal_pointer (&self->dropped_of),
                              (GDestroyNotify) g_hash_table_unref);
    }
  g_clear_pointer (&self->matches, g_ptr_array_unref);
  g_clear_pointer (&self->dropped, g_ptr_array_unref);
  g_clear_pointer (&self->match_of, g_hash_table_unref);
  g_clear_pointer (&self->dropped_of, g_hash_table_unref);
  g_clear_object (&self->match_items);
  g_clear_pointer (&self->code, g_free);
  _graft_document_code_names_clear (self);
  g_clear_error (&self->code_error);
  g_clear_pointer (&self->recovery, graft_recovery_free);
  drop_own_graph (self);
  g_clear_object (&self->rules);
  g_clear_object (&self->file);
  g_clear_error (&self->load_error);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  if (self->added_names->len >= FREE_LATER_MATCHES)
    graft_turns_free_later (g_steal_pointer (&self->added_names),
                            (GDestroyNotify) g_ptr_array_unref);
  g_clear_pointer (&self->added_names, g_ptr_array_unref);
  g_clear_pointer (&self->pending_skips, g_ptr_array_unref);
  g_free (self->rules_name);
  g_free (self->read_etag);
  g_free (self->title);
  g_free (self->entry);
  g_strfreev (self->models);
  G_OBJECT_CLASS (graft_document_parent_class)->finalize (object);
}

static void
graft_document_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  GraftDocument *self = GRAFT_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_MODIFIED:
      g_value_set_boolean (value, graft_document_get_modified (self));
      break;
    case PROP_N_MATCHES:
      g_value_set_uint (value, graft_document_get_n_matches (self));
      break;
    case PROP_CAN_UNDO:
      g_value_set_boolean (value, graft_document_get_can_undo (self));
      break;
    case PROP_CAN_REDO:
      g_value_set_boolean (value, graft_document_get_can_redo (self));
      break;
    case PROP_TORCH:
      g_value_set_string (value, self->dialect->name);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
graft_document_class_init (GraftDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = graft_document_finalize;
  object_class->get_property = graft_document_get_property;

  properties[PROP_TITLE] =
      g_param_spec_string ("title", NULL, NULL, NULL,
                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_FILE] =
      g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_MODIFIED] =
      g_param_spec_boolean ("modified", NULL, NULL, FALSE,
                            G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_N_MATCHES] =
      g_param_spec_uint ("n-matches", NULL, NULL, 0, G_MAXUINT, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_CAN_UNDO] =
      g_param_spec_boolean ("can-undo", NULL, NULL, FALSE,
                            G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_CAN_REDO] =
      g_param_spec_boolean ("can-redo", NULL, NULL, FALSE,
                            G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The name of the document's dialect (`2.6`, `1.13`); see
   * graft_document_set_dialect(). */
  properties[PROP_TORCH] =
      g_param_spec_string ("torch", NULL, NULL, NULL,
                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_GRAPH_CHANGED] =
      g_signal_new ("graph-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_MATCHES_CHANGED] =
      g_signal_new ("matches-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_PATTERNS_CHANGED] =
      g_signal_new ("patterns-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 0);
  /* The rule set, the chosen rule, a rule's count or the next step changed. */
  signals[SIGNAL_RULES_CHANGED] =
      g_signal_new ("rules-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 0);
  /* The matches, the counts and the next step begin to be found again by
   * steps (graft_document_get_matches_pending()): what was said of the
   * next step is of the graph or the rules before, and the counts change
   * in the turns to come, until `rules-changed` says the next step.  The
   * Rules panel's line said "Done: one pass; pattern still has 488
   * matches" for seconds while the list and the header said 0. */
  signals[SIGNAL_MATCHES_PENDING] =
      g_signal_new ("matches-pending", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                    NULL, NULL, G_TYPE_NONE, 0);
  /* The document changed a rule's texts itself (a rename, its undo): the
   * editors that show them follow. */
  signals[SIGNAL_RULE_TEXTS_CHANGED] =
      g_signal_new ("rule-texts-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                    NULL, NULL, G_TYPE_NONE, 1, GRAFT_TYPE_RULE);
  /* A change was made, undone or redone. */
  signals[SIGNAL_HISTORY_CHANGED] =
      g_signal_new ("history-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 0);
  /* A Replace All by steps (graft_document_begin_replace_all()) is over:
   * it replaced that many matches, or failed with the error (the graph as
   * it was). */
  signals[SIGNAL_REPLACED_ALL] =
      g_signal_new ("replaced-all", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_ERROR);
  /* A Run All begun by graft_document_begin_run_all() is over: the matches
   * it replaced, and why it failed (nothing changed), if it did. */
  signals[SIGNAL_RAN_ALL] =
      g_signal_new ("ran-all", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                    G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_ERROR);
  /* A Run All by steps went on (graft_document_get_run_progress()); it
   * is not over. */
  signals[SIGNAL_RUN_PROGRESS] =
      g_signal_new ("run-progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                    NULL, G_TYPE_NONE, 0);
  /* A move in the history begun by graft_document_begin_go_to() is over:
   * from that position to that one. */
  signals[SIGNAL_MOVED] =
      g_signal_new ("moved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                    G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
  /* A switch of torch begun by graft_document_begin_set_dialect() is over:
   * the graph read again is the document's. */
  signals[SIGNAL_SWITCHED] =
      g_signal_new ("switched", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                    G_TYPE_NONE, 0);
}

static void
graft_document_init (GraftDocument *self)
{
  self->dialect = graft_dialect_get_default ();
  self->graph = graft_graph_new (self->dialect);
  self->title = g_strdup ("Untitled");
  _graft_document_learners_init (self);
  self->matches = g_ptr_array_new_with_free_func ((GDestroyNotify) graft_match_free);
  self->match_items = graft_match_model_new ();
  self->match_of = g_hash_table_new (g_str_hash, g_str_equal);
  self->dropped = g_ptr_array_new_with_free_func ((GDestroyNotify) graft_match_free);
  self->dropped_of = g_hash_table_new (g_str_hash, g_str_equal);
  self->history = g_ptr_array_new_with_free_func (history_entry_free);
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  self->added_names = g_ptr_array_new_with_free_func (g_free);
  self->pending_skips = g_ptr_array_new_with_free_func (g_free);
  self->rules = g_list_store_new (GRAFT_TYPE_RULE);
  {
    g_autoptr (GraftRule) rule = graft_rule_new (DEFAULT_PATTERN, DEFAULT_REPLACEMENT);

    g_list_store_append (self->rules, rule);
  }
}

/**
 * graft_document_new:
 *
 * Returns: (transfer full): an empty document with the default pattern
 */
GraftDocument *
graft_document_new (void)
{
  GraftDocument *self = g_object_new (GRAFT_TYPE_DOCUMENT, NULL);

  graft_document_set_pattern_text (self, DEFAULT_PATTERN);
  graft_document_set_replacement_text (self, DEFAULT_REPLACEMENT);
  self->text_changes = self->saved_text_changes = 0;
  return self;
}

/* What a search for the chosen rule's matches found on the graph, with
 * the list's rows and the lookup tables, made in steps (search_some())
 * and made the document's in a turn of its own (install_matches()). */
struct _FoundMatches
{
  GPtrArray      *matches;    /* GraftMatch, owned */
  GPtrArray      *dropped;    /* GraftMatch, owned */
  GHashTable     *match_of;   /* node name -> match + 1 */
  GHashTable     *dropped_of; /* node name -> dropped candidate + 1 */
  GraftMatchRows *rows;       /* Owned */
  gboolean        searched;   /* the matches are all there (not the rows yet) */
  guint           next_row;   /* rows made: the matches', then the dropped ones' */
};

/* How long a turn of the main loop finds matches and makes their rows
 * (search_some()): with GTK's frame around it, a turn stays well under
 * 16 ms.  The matcher is stepped by MATCH_STEP_WORK (about as many nodes
 * of the graph), the rows made MATCH_STEP_ROWS at a time, between looks
 * at the clock. */
#define MATCH_STEP_USEC 5000
#define MATCH_STEP_WORK 16384
#define MATCH_STEP_ROWS 256

/* For tests: when not 0, each turn makes one step of this much work, or
 * this many rows, whatever the clock says (_graft_document_set_match_step()). */
static guint match_step_work;

/**
 * _graft_document_set_match_step:
 * @work: the work of a turn's one step, or 0 for the usual time budget
 *
 * Makes the search by steps go by a fixed amount of work a turn (for
 * tests, which then know a search of a small graph takes many turns).
 */
void
_graft_document_set_match_step (guint work)
{
  match_step_work = work;
}

static FoundMatches *
found_matches_new (void)
{
  FoundMatches *found = g_new0 (FoundMatches, 1);

  found->matches = g_ptr_array_new_with_free_func ((GDestroyNotify) graft_match_free);
  found->dropped = g_ptr_array_new_with_free_func ((GDestroyNotify) graft_match_free);
  found->match_of = g_hash_table_new (g_str_hash, g_str_equal);
  found->dropped_of = g_hash_table_new (g_str_hash, g_str_equal);
  found->rows = graft_match_rows_new ();
  return found;
}

void
_graft_found_matches_free (FoundMatches *found)
{
  if (found == NULL)
    return;
  g_ptr_array_unref (found->matches);
  g_ptr_array_unref (found->dropped);
  g_hash_table_unref (found->match_of);
  g_hash_table_unref (found->dropped_of);
  graft_match_rows_free (found->rows);
  g_free (found);
}

/* The nodes of @match as the list writes them; the first node of each
 * goes in @of with @value, if not there yet. */
static char *
join_names (const GraftMatch *match,
            GHashTable       *of,
            guint             value,
            GHashTable       *match_of,
            gint             *out_overlapped)
{
  g_autoptr (GPtrArray) nodes = graft_match_dup_nodes (match);
  GString *names = g_string_new (NULL);

  for (guint k = 0; k < nodes->len; k++)
    {
      const char *name = graft_node_get_name (nodes->pdata[k]);

      if (k > 0)
        g_string_append (names, ", ");
      g_string_append (names, name);
      if (out_overlapped != NULL && *out_overlapped < 0)
        *out_overlapped = (gint) GPOINTER_TO_UINT (g_hash_table_lookup (match_of, name)) - 1;
      if (!g_hash_table_contains (of, name))
        g_hash_table_insert (of, (gpointer) name, GUINT_TO_POINTER (value));
    }
  return g_string_free (names, FALSE);
}

/* The search's results, taken (either may be %NULL: none). */
static void
found_matches_take (FoundMatches *found,
                    GPtrArray    *matches,
                    GPtrArray    *dropped)
{
  if (matches != NULL)
    g_ptr_array_extend_and_steal (found->matches, matches);
  if (dropped != NULL)
    g_ptr_array_extend_and_steal (found->dropped, dropped);
  found->searched = TRUE;
}

static void
add_match_row (FoundMatches *found,
               guint         i)
{
  const GraftMatch *match = found->matches->pdata[i];
  GraftNode        *anchor = graft_match_get_returning_node (match, 0);
  g_autofree char  *names = join_names (match, found->match_of, i + 1, NULL, NULL);

  graft_match_rows_add (found->rows, NULL, names,
                        anchor != NULL ? graft_node_get_name (anchor) : "");
}

/* A dropped candidate's row, once every match has its own (the reason
 * names the match it overlaps). */
static void
add_dropped_row (FoundMatches *found,
                 guint         i)
{
  const GraftMatch *match = found->dropped->pdata[i];
  GraftNode        *anchor = graft_match_get_returning_node (match, 0);
  gint              overlapped = -1;
  g_autofree char  *names =
      join_names (match, found->dropped_of, i + 1, found->match_of, &overlapped);
  g_autofree char *reason = NULL;

  switch (graft_match_get_drop_reason (match))
    {
    case GRAFT_MATCH_DROPPED_OVERLAP:
      reason = overlapped >= 0 ? g_strdup_printf ("Not replaced: overlaps match %d", overlapped + 1)
                               : g_strdup ("Not replaced: overlaps an earlier match");
      break;
    case GRAFT_MATCH_DROPPED_LEAK:
      reason = g_strdup ("Not replaced: an inner value is used outside it");
      break;
    case GRAFT_MATCH_DROPPED_CYCLE:
      reason = g_strdup ("Not replaced: the replacement would make a cycle");
      break;
    case GRAFT_MATCH_DROPPED_FILTER:
    case GRAFT_MATCH_KEPT:
    default:
      reason = g_strdup ("Not replaced: filtered out");
      break;
    }
  graft_match_rows_add (found->rows, reason, names,
                        anchor != NULL ? graft_node_get_name (anchor) : "");
}

/* Makes at most @n more rows of the matches found (the search is over).
 * Returns whether every row is made. */
static gboolean
found_matches_add_rows (FoundMatches *found,
                        guint         n)
{
  guint n_matches = found->matches->len;
  guint total = n_matches + found->dropped->len;
  guint end = found->next_row + MIN (n, total - found->next_row);

  for (guint r = found->next_row; r < end; r++)
    if (r < n_matches)
      add_match_row (found, r);
    else
      add_dropped_row (found, r - n_matches);
  found->next_row = end;
  return end == total;
}

/* Whether the search and the rows are done. */
static gboolean
found_matches_complete (FoundMatches *found)
{
  return found->searched && found->next_row == found->matches->len + found->dropped->len;
}

/**
 * _graft_found_matches_new:
 * @pattern: (nullable): the pattern, %NULL for none (no matches)
 * @graph: the graph to search
 *
 * Finds @pattern's matches on @graph with the list's rows and the lookup
 * tables, at once.  Touches no document: the loading worker calls it on a
 * graph still its own (graft-document-loader.c).
 *
 * Returns: (transfer full): what was found
 */
FoundMatches *
_graft_found_matches_new (GraftPattern *pattern,
                          GraftGraph   *graph)
{
  FoundMatches *found = found_matches_new ();
  GPtrArray    *matches = NULL;
  GPtrArray    *dropped = NULL;

  if (pattern != NULL)
    matches = graft_matcher_find (pattern, graph, NULL, &dropped);
  found_matches_take (found, matches, dropped);
  found_matches_add_rows (found, G_MAXUINT);
  return found;
}

/* Ends the search by steps, if one runs: of the graph as it was, it
 * touches none of its nodes, only the graph, which must still be there. */
static void
search_drop (GraftDocument *self)
{
  g_clear_pointer (&self->search, graft_match_search_free);
  g_clear_pointer (&self->search_pattern, graft_pattern_unref);
  /* And the count of the other rules, which goes on from the first. */
  g_clear_pointer (&self->count_search, graft_match_search_free);
  g_clear_pointer (&self->count_pattern, graft_pattern_unref);
  self->count_at = 0;
}

/* Begins finding the chosen rule's matches on the graph as it is now, by
 * steps (search_some()), into self->found. */
static void
search_begin (GraftDocument *self)
{
  GraftPattern *pattern = graft_rule_get_pattern (_graft_document_get_selected (self));

  search_drop (self);
  _graft_found_matches_free (self->found);
  self->found = found_matches_new ();
  if (pattern != NULL && self->load_error == NULL)
    {
      self->search_pattern = graft_pattern_ref (pattern);
      self->search = graft_match_search_new (pattern, self->graph, NULL);
    }
  else
    found_matches_take (self->found, NULL, NULL);
  self->matches_stale = FALSE;
}

/* Goes on with what search_begin() began, until the monotonic clock
 * passes @deadline (at least one step; G_MAXINT64: to the end).  Nothing
 * changed the graph or the pattern since: a change makes the matches
 * stale, which drops the search (matches_stale()).  Returns whether
 * self->found is complete. */
static gboolean
search_some (GraftDocument *self,
             gint64         deadline)
{
  gboolean all = deadline == G_MAXINT64;
  guint    work = all ? G_MAXUINT : match_step_work > 0 ? match_step_work
                                                        : MATCH_STEP_WORK;
  guint    rows = all ? G_MAXUINT : match_step_work > 0 ? match_step_work
                                                        : MATCH_STEP_ROWS;

  if (!all && match_step_work > 0)
    deadline = 0;
  if (self->search != NULL)
    {
      GPtrArray *matches;
      GPtrArray *dropped = NULL;

      while (!graft_match_search_step (self->search, work))
        if (g_get_monotonic_time () >= deadline)
          return FALSE;
      /* Where torch fails, no match (graft_matcher_find()). */
      matches = graft_match_search_finish (self->search, &dropped, NULL);
      /* Taken whole. */
      found_matches_take (self->found, matches, dropped);
      g_clear_pointer (&self->search, graft_match_search_free);
      g_clear_pointer (&self->search_pattern, graft_pattern_unref);
    }
  while (!found_matches_add_rows (self->found, rows))
    if (g_get_monotonic_time () >= deadline)
      return FALSE;
  return TRUE;
}

/* Makes the matches found the document's: the lookups, the list's rows
 * (only those that changed), the chosen rule's count; then says so. */
static void
install_matches (GraftDocument *self)
{
  FoundMatches *found = g_steal_pointer (&self->found);
  guint         old = self->matches->len;

  g_ptr_array_unref (self->matches);
  self->matches = g_steal_pointer (&found->matches);
  g_ptr_array_unref (self->dropped);
  self->dropped = g_steal_pointer (&found->dropped);
  g_hash_table_unref (self->match_of);
  self->match_of = g_steal_pointer (&found->match_of);
  self->matches_serial++;
  g_hash_table_unref (self->dropped_of);
  self->dropped_of = g_steal_pointer (&found->dropped_of);
  graft_match_model_set_rows (self->match_items, g_steal_pointer (&found->rows));
  g_free (found);
  _graft_rule_take_matches (_graft_document_get_selected (self), NULL, self->matches->len);
  if (old != self->matches->len)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_MATCHES]);
  g_signal_emit (self, signals[SIGNAL_MATCHES_CHANGED], 0);
}

/* Goes on counting the other rules than the chosen one (count_rule()),
 * a search by steps each, until the monotonic clock passes @deadline (at
 * least one step): at a million nodes each took a second or two, all in
 * one turn.  Nothing changed the graph or the rules since: a change drops
 * the count (search_drop()).  Returns whether every rule is counted. */
static gboolean
count_some (GraftDocument *self,
            gint64         deadline)
{
  guint work = match_step_work > 0 ? match_step_work : MATCH_STEP_WORK;

  if (match_step_work > 0)
    deadline = 0;
  for (; self->count_at < graft_document_get_n_rules (self); self->count_at++)
    {
      GraftRule    *rule = graft_document_get_rule (self, self->count_at);
      GraftPattern *pattern = graft_rule_get_pattern (rule);
      GPtrArray    *found;

      if (rule == _graft_document_get_selected (self))
        continue;
      if (pattern == NULL || self->load_error != NULL)
        {
          _graft_rule_take_matches (rule, NULL, 0);
          continue;
        }
      if (self->count_search == NULL)
        {
          /* The search borrows it. */
          self->count_pattern = graft_pattern_ref (pattern);
          self->count_search = graft_match_search_new (pattern, self->graph, NULL);
        }
      while (!graft_match_search_step (self->count_search, work))
        if (g_get_monotonic_time () >= deadline)
          return FALSE;
      /* Where torch fails, no match (graft_matcher_find()). */
      found = graft_match_search_finish (self->count_search, NULL, NULL);
      g_clear_pointer (&self->count_search, graft_match_search_free);
      g_clear_pointer (&self->count_pattern, graft_pattern_unref);
      _graft_rule_take_matches (rule, found, found != NULL ? found->len : 0);
      if (g_get_monotonic_time () >= deadline &&
          self->count_at + 1 < graft_document_get_n_rules (self))
        {
          self->count_at++;
          return FALSE;
        }
    }
  self->count_at = 0;
  /* Counted: the next step is what is left to work out. */
  self->recount_due = FALSE;
  self->next_due = TRUE;
  return TRUE;
}

/* Counts the other rules again if due, and works out the next step. */
static void
finish_counts (GraftDocument *self)
{
  gboolean recount = self->recount_due;
  gboolean next = self->next_due;

  /* A count by steps under way is made again whole. */
  g_clear_pointer (&self->count_search, graft_match_search_free);
  g_clear_pointer (&self->count_pattern, graft_pattern_unref);
  self->count_at = 0;
  self->recount_due = self->next_due = FALSE;
  if (recount)
    _graft_document_recount (self);
  else if (next)
    _graft_document_update_next (self);
}

/* One step of finding the matches again: a turn or more for searching
 * (search_some()), then a turn for installing what was found, and one for
 * counting the other rules and working out the next step.  Until the
 * matches are installed the list, the count and the canvas show the ones
 * before (a search made stale by a change starts again, and what it had
 * found is never shown). */
static gboolean
match_step_cb (gpointer user_data)
{
  GraftDocument *self = user_data;
  /* The turn's budget counts the search's start, which at a million nodes
   * gives every page of the graph its marks (about 4 ms). */
  gint64 deadline = g_get_monotonic_time () + MATCH_STEP_USEC;

  if (self->matches_stale)
    search_begin (self);
  if (self->found != NULL && !found_matches_complete (self->found))
    {
      search_some (self, deadline);
      return G_SOURCE_CONTINUE;
    }
  if (self->found != NULL)
    {
      install_matches (self);
      if (self->matches_stale || self->recount_due || self->next_due)
        return G_SOURCE_CONTINUE;
      self->match_job = 0;
      return G_SOURCE_REMOVE;
    }
  if (self->recount_due && !count_some (self, deadline))
    return G_SOURCE_CONTINUE;
  self->match_job = 0;
  finish_counts (self);
  return G_SOURCE_REMOVE;
}

/* Begins the job of match_step_cb(), if it is not under way, and says so
 * (`matches-pending`). */
static void
match_job_begin (GraftDocument *self)
{
  if (self->match_job != 0)
    return;
  self->match_job = graft_turns_add (match_step_cb, self, NULL);
  g_signal_emit (self, signals[SIGNAL_MATCHES_PENDING], 0);
}

/* After a change of the graph or of the chosen rule's pattern: its
 * matches are found again, in the turns to come or when first asked for;
 * @recount: the other rules' counts too (else only the next step). */
static void
matches_stale (GraftDocument *self,
               gboolean       recount)
{
  search_drop (self);
  g_clear_pointer (&self->found, _graft_found_matches_free);
  self->matches_stale = TRUE;
  self->recount_due |= recount;
  self->next_due = TRUE;
  match_job_begin (self);
}

/* After a change of another rule's pattern than the chosen one's: the
 * other rules are counted again in the turns to come (count_some()), from
 * the first, and the chosen rule's search, if one is under way, goes on. */
static void
counts_stale (GraftDocument *self)
{
  g_clear_pointer (&self->count_search, graft_match_search_free);
  g_clear_pointer (&self->count_pattern, graft_pattern_unref);
  self->count_at = 0;
  self->recount_due = TRUE;
  self->next_due = TRUE;
  match_job_begin (self);
}

/* Finishes the chosen rule's search, begun or due, at once, and installs
 * what it found (if it was not installed yet). */
static void
finish_search (GraftDocument *self)
{
  if (self->matches_stale)
    search_begin (self);
  if (self->found != NULL && !found_matches_complete (self->found))
    search_some (self, G_MAXINT64);
  if (self->found != NULL)
    install_matches (self);
}

/**
 * _graft_document_ensure_matches:
 * @self: a document
 *
 * Finishes finding the matches again, if a change left that to the turns
 * to come: what asks for the matches gets those of the graph as it is.
 */
void
_graft_document_ensure_matches (GraftDocument *self)
{
  _graft_document_settle (self);
  if (self->match_job == 0)
    return;
  graft_turns_remove (self->match_job);
  self->match_job = 0;
  finish_search (self);
  finish_counts (self);
}

/* Finishes finding the chosen rule's matches, if a change left that to
 * the turns to come, but not the other rules' counts nor the next step,
 * which go on by steps (match_step_cb()): for what reads only the chosen
 * rule's matches, when they come (a million nodes: counting the other
 * rules at once took 25-50 ms of the turn that installed them). */
static void
ensure_chosen_matches (GraftDocument *self)
{
  /* With no other rule to count, the rest is the next step: all of it. */
  if (!self->recount_due || graft_document_get_n_rules (self) < 2)
    {
      _graft_document_ensure_matches (self);
      return;
    }
  _graft_document_settle (self);
  if (self->match_job != 0)
    finish_search (self);
}

/**
 * graft_document_get_matches_pending:
 * @self: a document
 *
 * Returns: whether the matches of the graph as it is now are still being
 *   found (the list and the counts then show the earlier ones until
 *   ::matches-changed)
 */
gboolean
graft_document_get_matches_pending (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  return self->match_job != 0;
}

/**
 * graft_document_get_n_matches_shown:
 * @self: a document
 *
 * Returns: how many matches the list shows, which is
 *   graft_document_get_n_matches() once they are not pending; asking does
 *   not finish finding them
 */
guint
graft_document_get_n_matches_shown (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), 0);
  return graft_match_model_get_n_matches (self->match_items);
}

static void
notify_history (GraftDocument *self)
{
  /* What was skipped belongs to the graph it was skipped on. */
  g_ptr_array_set_size (self->pending_skips, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_UNDO]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_REDO]);
  g_signal_emit (self, signals[SIGNAL_HISTORY_CHANGED], 0);
}

/* After a change of the graph; @code (taken) is its new code if known. */
static void
graph_changed_with_code (GraftDocument *self,
                         char          *code)
{
  self->revision++;
  _graft_document_learners_told (self);
  self->pushed_unchanged = 0;
  /* Made of the graph before. */
  g_clear_pointer (&self->loaded_scopes, graft_scopes_free);
  drop_loaded_request (self);
  /* 150 MB at a million nodes: unmapped off the main thread. */
  graft_turns_free_later (self->code, g_free);
  self->code = code;
  _graft_document_code_names_clear (self);
  matches_stale (self, TRUE);
  _graft_document_learners_due (self);
  g_signal_emit (self, signals[SIGNAL_GRAPH_CHANGED], 0);
}

static void
graph_changed (GraftDocument *self)
{
  graph_changed_with_code (self, NULL);
}

static void
set_file (GraftDocument *self,
          GFile         *file)
{
  g_autofree char *basename = NULL;

  if (file != self->file)
    {
      g_set_object (&self->file, file);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
    }
  basename = file != NULL ? g_file_get_basename (file) : g_strdup ("Untitled");
  if (g_strcmp0 (basename, self->title) != 0)
    {
      g_free (self->title);
      self->title = g_steal_pointer (&basename);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
    }
}

/**
 * graft_document_get_dialect:
 *
 * Returns: (transfer none): the torch the document traces, prints, matches
 *   and rewrites as
 */
const GraftDialect *
graft_document_get_dialect (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), graft_dialect_get_default ());
  return self->dialect;
}

/* Traces @text's entry (graft_input_dup_entry(): the function or class
 * named @name, else the first one) into a graph; errors point into @text,
 * named @label. */
static GraftGraph *
trace_text (const GraftDialect *dialect,
            const char         *label,
            const char         *text,
            const char         *name,
            GError            **error)
{
  g_autoptr (GraftSource) source = graft_source_new (label, text, -1);

  return graft_input_trace_entry (source, dialect, name, error);
}

/* Makes @file the document's file and @recovery (taken) what was found of
 * its autosave (see graft-document-private.h). */
void
_graft_document_set_loaded_file (GraftDocument *self,
                                 GFile         *file,
                                 GraftRecovery *recovery)
{
  set_file (self, file);
  graft_recovery_free (self->recovery);
  self->recovery = recovery;
}

/* Makes @graph (taken; %NULL after @error) the document's graph, read
 * from @source (taken; %NULL when even the text could not be read).
 * @code (taken), when not %NULL, is its code, already generated.
 * @pattern and @replacement (taken) are the file's definitions, if any. */
void
_graft_document_load_graph (GraftDocument *self,
                            GraftSource   *source,
                            GraftGraph    *graph,
                            GError        *error,
                            char          *code,
                            char          *pattern,
                            char          *replacement)
{
  g_return_if_fail (graph == NULL || graft_graph_get_dialect (graph) == self->dialect);
  _graft_document_settle (self);

  /* The history belongs to the old graph, and so does a search of it. */
  search_drop (self);
  truncate_history (self, 0);
  g_ptr_array_set_size (self->matches, 0);
  self->position = 0;
  self->saved = 0;
  drop_own_graph (self);
  g_clear_pointer (&self->code, g_free);
  _graft_document_code_names_clear (self);
  g_clear_error (&self->load_error);
  self->graph = graph != NULL ? graph : graft_graph_new (self->dialect);
  self->source = source;
  self->load_error = error;
  self->root_source = source != NULL ? graft_source_ref (source) : NULL;
  self->root_dialect = self->dialect;
  self->is_session = FALSE;
  g_ptr_array_set_size (self->warnings, 0);
  g_ptr_array_set_size (self->added_names, 0);

  /* A Python file that defines the pattern and the replacement fills the
   * editors (the chosen rule's). */
  if (pattern != NULL)
    graft_document_set_pattern_text (self, pattern);
  if (replacement != NULL)
    graft_document_set_replacement_text (self, replacement);
  g_free (pattern);
  g_free (replacement);
  self->saved_text_changes = self->text_changes;
  notify_history (self);
  graph_changed_with_code (self, code);
}

/**
 * _graft_document_set_loaded_scopes:
 * @self: a document
 * @scopes: (transfer full) (nullable): the scopes of the document's graph
 *   as it is now, made while its file was read
 *
 * Keeps @scopes for graft_document_steal_scopes().
 */
void
_graft_document_set_loaded_scopes (GraftDocument *self,
                                   GraftScopes   *scopes)
{
  g_clear_pointer (&self->loaded_scopes, graft_scopes_free);
  self->loaded_scopes = scopes;
  self->loaded_scopes_revision = self->revision;
}

/**
 * _graft_document_set_loaded_matches:
 * @self: a document
 * @pattern_text: (nullable): the pattern @found is of
 * @pattern_entry: (nullable): the definition its text was traced for
 *   (the rule's entry; %NULL for `pattern`)
 * @found: (transfer full) (nullable): that pattern's matches on the
 *   document's graph as it is now, found while its file was read
 *
 * Hands @found to the search the new graph is waiting for, when the
 * chosen rule's pattern is still that one (the loader checks the
 * dialect): a million nodes took that search a turn of 20 ms on the main
 * loop.
 */
void
_graft_document_set_loaded_matches (GraftDocument *self,
                                    const char    *pattern_text,
                                    const char    *pattern_entry,
                                    FoundMatches  *found)
{
  GraftRule *rule = _graft_document_get_selected (self);

  if (found != NULL && pattern_text != NULL && self->matches_stale && self->load_error == NULL &&
      graft_rule_get_pattern (rule) != NULL &&
      g_strcmp0 (graft_rule_get_pattern_text (rule), pattern_text) == 0 &&
      g_strcmp0 (graft_rule_get_pattern_entry (rule), pattern_entry) == 0)
    {
      _graft_found_matches_free (self->found);
      self->found = found;
      self->matches_stale = FALSE;
      return;
    }
  _graft_found_matches_free (found);
}

/**
 * graft_document_steal_scopes:
 * @self: a document
 *
 * The scopes of the graph made on the loading worker while its file was
 * read (graft_document_load_file_async(); a large graph's take a second
 * at a million nodes, which the layout runner would otherwise spend on
 * the main loop), while the graph has not changed since; they are handed
 * out once.
 *
 * Returns: (transfer full) (nullable): the scopes of the graph as it is,
 *   or %NULL
 */
GraftScopes *
graft_document_steal_scopes (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  if (self->loaded_scopes != NULL && self->loaded_scopes_revision != self->revision)
    g_clear_pointer (&self->loaded_scopes, graft_scopes_free);
  return g_steal_pointer (&self->loaded_scopes);
}

/**
 * _graft_document_set_loaded_request:
 * @self: a document
 * @request: (transfer full) (nullable): the request of the first layout of
 *   the document's graph as it is now, made while its file was read from
 *   the scopes _graft_document_set_loaded_scopes() keeps
 *   (graft_layout_runner_new_first_request())
 * @collapsed: (transfer full) (nullable): the scopes @request folds
 * @overview_boxes: the overview they were chosen as (at most this many
 *   boxes)
 *
 * Keeps them for _graft_document_steal_loaded_request().
 */
void
_graft_document_set_loaded_request (GraftDocument      *self,
                                    GraftLayoutRequest *request,
                                    GHashTable         *collapsed,
                                    guint               overview_boxes)
{
  drop_loaded_request (self);
  self->loaded_request = request;
  self->loaded_collapsed = collapsed;
  self->loaded_overview_boxes = overview_boxes;
  self->loaded_request_revision = self->revision;
}

/**
 * _graft_document_steal_loaded_request:
 * @self: a document
 * @overview_boxes: the overview the layout runner is about to choose
 * @out_collapsed: (out) (transfer full): the scopes the request folds
 *
 * The request of the graph's first layout made on the loading worker
 * (about 0.1 s of turns of the main loop at a million nodes), while the
 * graph has not changed since and for the same overview; handed out once.
 *
 * Returns: (transfer full) (nullable): the request, or %NULL
 */
GraftLayoutRequest *
_graft_document_steal_loaded_request (GraftDocument *self,
                                      guint          overview_boxes,
                                      GHashTable   **out_collapsed)
{
  GraftLayoutRequest *request;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (out_collapsed != NULL, NULL);
  *out_collapsed = NULL;
  if (self->loaded_request == NULL || self->loaded_request_revision != self->revision ||
      self->loaded_overview_boxes != overview_boxes)
    {
      drop_loaded_request (self);
      return NULL;
    }
  request = g_steal_pointer (&self->loaded_request);
  *out_collapsed = g_steal_pointer (&self->loaded_collapsed);
  return request;
}

/**
 * graft_document_steal_recovery:
 * @self: a document
 *
 * What the last graft_document_load_file() or
 * graft_document_load_file_async() found of the file's autosave (see
 * graft_autosave_find()); it is handed out once.
 *
 * Returns: (transfer full) (nullable): the autosave's texts, or %NULL when
 *   the file had no autosave newer than itself
 */
GraftRecovery *
graft_document_steal_recovery (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  return g_steal_pointer (&self->recovery);
}

GFile *
graft_document_get_file (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  return self->file;
}

const char *
graft_document_get_title (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  return self->title;
}

/**
 * graft_document_get_keeps_rules:
 * @self: a document
 *
 * Returns: whether what a save writes holds the rules: the document is a
 *   session (graft_document_save_session()), or has more than one rule,
 *   which only a session keeps
 */
gboolean
graft_document_get_keeps_rules (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  return self->is_session || graft_document_get_n_rules (self) > 1;
}

/**
 * graft_document_get_modified:
 * @self: a document
 *
 * Returns: whether the graph differs from what was last loaded or saved,
 *   or (graft_document_get_keeps_rules()) the rules or options do
 */
gboolean
graft_document_get_modified (GraftDocument *self)
{
  guint from;
  guint to;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  if (self->saved < 0)
    return TRUE;
  if (graft_document_get_keeps_rules (self) && self->text_changes != self->saved_text_changes)
    return TRUE;
  /* Switching the dialect changes nothing a save would keep. */
  from = MIN ((guint) self->saved, self->position);
  to = MAX ((guint) self->saved, self->position);
  for (guint i = from; i < to; i++)
    if (!((HistoryEntry *) self->history->pdata[i])->switch_dialect)
      return TRUE;
  return FALSE;
}

/**
 * graft_document_get_load_error:
 * @self: a document
 *
 * Returns: (nullable) (transfer none): why the file could not be read
 */
const GError *
graft_document_get_load_error (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  return self->load_error;
}

static void settle_work (GraftDocument *self);

/**
 * graft_document_get_graph:
 * @self: a document
 *
 * A switch of torch under way (graft_document_begin_set_dialect()) is not
 * ended here: until ::switched the graph is the one before it, whole.
 * Ending it from a reader (the layout runner, in the middle of a request
 * of the graph) changed the graph under that reader.
 *
 * Returns: (transfer none): the graph, valid until the next change
 */
GraftGraph *
graft_document_get_graph (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  settle_work (self);
  return self->graph;
}

/**
 * graft_document_get_texts_are_default:
 * @self: a document
 *
 * Returns: whether the chosen rule's pattern and replacement are the texts
 *   a new document starts with, so that nobody wrote or opened them
 */
gboolean
graft_document_get_texts_are_default (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (default_texts); i++)
    if (g_strcmp0 (graft_document_get_pattern_text (self), default_texts[i][0]) == 0 &&
        g_strcmp0 (graft_document_get_replacement_text (self), default_texts[i][1]) == 0)
      return TRUE;
  return FALSE;
}

/* Which of default_texts[] a program starts with: its ReLUs
 * (`relu.default`), or its in-place ones (`relu_.default`) when it has
 * only those; found in one walk of @graph. */
static guint
program_default (GraftGraph *graph)
{
  gboolean in_place = FALSE;

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      const char *target;

      if (graft_node_get_op (node) != GRAFT_OP_CALL_FUNCTION)
        continue;
      target = graft_node_get_target (node);
      if (g_strcmp0 (target, "torch.ops.aten.relu.default") == 0)
        return 1;
      if (!in_place && g_strcmp0 (target, "torch.ops.aten.relu_.default") == 0)
        in_place = TRUE;
    }
  return in_place ? 2 : 1;
}

/**
 * _graft_document_dup_default_texts:
 * @kind: what @graph was read from
 * @graph: a graph just read
 * @out_replacement: (out) (transfer full): the replacement that goes with
 *   the pattern
 *
 * The rule a document that nobody gave a rule (graft_document_get_texts_are_default())
 * starts with for @graph: `torch.relu(x)` for a module, a listing or DOT;
 * for a torch.export program, which has no `torch.relu` calls, its ReLUs
 * as torch.export writes them: `relu.default`, or `relu_.default` when it
 * has only in-place ones (torchvision's `ReLU(inplace=True)`).  Safe on
 * any thread.
 *
 * Returns: (transfer full): the pattern
 */
char *
_graft_document_dup_default_texts (GraftInputKind kind,
                                   GraftGraph    *graph,
                                   char         **out_replacement)
{
  guint which = 0;

  if (kind == GRAFT_INPUT_EXPORTED_PROGRAM || kind == GRAFT_INPUT_READABLE_PROGRAM ||
      kind == GRAFT_INPUT_ARCHIVE)
    which = program_default (graph);
  *out_replacement = g_strdup (default_texts[which][1]);
  return g_strdup (default_texts[which][0]);
}

/**
 * graft_document_get_revision:
 * @self: a document
 *
 * Returns: a number that changes with every change of the graph
 */
guint
graft_document_get_revision (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), 0);
  return self->revision;
}

const char *
graft_document_get_pattern_text (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  return graft_rule_get_pattern_text (_graft_document_get_selected (self));
}

const char *
graft_document_get_replacement_text (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  return graft_rule_get_replacement_text (_graft_document_get_selected (self));
}

/* Traces @text as a pattern (@replacement FALSE) or a replacement of
 * @rule, in the document's dialect, and gives the rule what it found. */
static void
trace_half (GraftDocument *self,
            GraftRule     *rule,
            const char    *text,
            gboolean       replacement)
{
  const char *label = replacement ? "replacement" : "pattern";
  const char *hint = replacement ? graft_rule_get_replacement_entry (rule)
                                 : graft_rule_get_pattern_entry (rule);
  g_autoptr (GraftSource) source = graft_source_new (label, text, -1);
  GraftGraph *graph;
  GError     *error = NULL;
  char       *name;

  if (hint == NULL)
    hint = label;
  name = graft_input_dup_entry (source, hint, NULL);
  graph = trace_text (self->dialect, label, text, hint, &error);
  if (replacement)
    {
      _graft_rule_set_replacement (rule, text, name, graph, error);
      return;
    }
  {
    GraftPattern *pattern = graph != NULL ? graft_pattern_new (graph, &error) : NULL;

    _graft_rule_set_pattern (rule, text, name, pattern, error);
  }
}

/**
 * _graft_document_trace_rule:
 * @self: a document
 * @rule: one of its rules
 * @pattern_text: (nullable): the pattern's new text; %NULL traces the one
 *   it has again
 * @replacement_text: (nullable): likewise for the replacement
 *
 * Traces the rule's texts; the caller finds matches again.
 */
void
_graft_document_trace_rule (GraftDocument *self,
                            GraftRule     *rule,
                            const char    *pattern_text,
                            const char    *replacement_text)
{
  g_autofree char *pattern = g_strdup (pattern_text != NULL ? pattern_text
                                                            : graft_rule_get_pattern_text (rule));
  g_autofree char *replacement =
      g_strdup (replacement_text != NULL ? replacement_text
                                         : graft_rule_get_replacement_text (rule));

  /* A Replace All under way borrows the chosen rule's pattern and
   * replacement. */
  _graft_document_settle (self);
  trace_half (self, rule, replacement, TRUE);
  trace_half (self, rule, pattern, FALSE);
}

/**
 * graft_document_set_rule_texts:
 * @self: a document
 * @rule: one of its rules
 * @pattern_text: (nullable): the pattern's new text, or %NULL to keep it
 * @replacement_text: (nullable): the replacement's new text, or %NULL
 *
 * Traces what changed again and finds the rule's matches.  An edit of the
 * texts is the editors' to undo, not the history's.
 */
void
graft_document_set_rule_texts (GraftDocument *self,
                               GraftRule     *rule,
                               const char    *pattern_text,
                               const char    *replacement_text)
{
  gboolean selected;

  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  g_return_if_fail (GRAFT_IS_RULE (rule));

  selected = rule == _graft_document_get_selected (self);
  if ((pattern_text != NULL && g_strcmp0 (pattern_text, graft_rule_get_pattern_text (rule)) != 0) ||
      (replacement_text != NULL &&
       g_strcmp0 (replacement_text, graft_rule_get_replacement_text (rule)) != 0))
    self->text_changes++;
  if (replacement_text != NULL)
    trace_half (self, rule, replacement_text, TRUE);
  if (pattern_text != NULL)
    trace_half (self, rule, pattern_text, FALSE);
  if (selected)
    g_signal_emit (self, signals[SIGNAL_PATTERNS_CHANGED], 0);
  if (pattern_text == NULL && self->match_job != 0)
    /* The search under way works the next step out when it is done;
     * asking now would finish it in this turn (opening a million-node
     * program, whose starting rule is set as it is installed: a turn of
     * 120-180 ms). */
    self->next_due = TRUE;
  else if (pattern_text == NULL)
    _graft_document_update_next (self);
  else if (selected)
    matches_stale (self, FALSE);
  else
    counts_stale (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
}

/**
 * graft_document_set_pattern_text:
 * @self: a document
 * @text: Python defining the pattern (`pattern`, or the first function or
 *   class)
 *
 * Gives the chosen rule a new pattern: traces it again and finds its
 * matches.
 */
void
graft_document_set_pattern_text (GraftDocument *self,
                                 const char    *text)
{
  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  g_return_if_fail (text != NULL);
  _graft_document_settle (self);
  graft_document_set_rule_texts (self, _graft_document_get_selected (self), text, NULL);
}

/**
 * graft_document_set_replacement_text:
 * @self: a document
 * @text: Python defining the replacement
 *
 * Gives the chosen rule a new replacement and traces it again.
 */
void
graft_document_set_replacement_text (GraftDocument *self,
                                     const char    *text)
{
  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  g_return_if_fail (text != NULL);
  _graft_document_settle (self);
  graft_document_set_rule_texts (self, _graft_document_get_selected (self), NULL, text);
}

const GError *
graft_document_get_pattern_error (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  return graft_rule_get_pattern_error (_graft_document_get_selected (self));
}

const GError *
graft_document_get_replacement_error (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  return graft_rule_get_replacement_error (_graft_document_get_selected (self));
}

/**
 * graft_document_get_pattern_graph:
 * @self: a document
 *
 * Returns: (nullable) (transfer none): the chosen rule's traced pattern
 */
GraftGraph *
graft_document_get_pattern_graph (GraftDocument *self)
{
  GraftPattern *pattern;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  pattern = graft_rule_get_pattern (_graft_document_get_selected (self));
  return pattern != NULL ? graft_pattern_get_graph (pattern) : NULL;
}

/**
 * graft_document_get_pattern:
 * @self: a document
 *
 * Returns: (nullable) (transfer none): the chosen rule's traced pattern,
 *   ready to match
 */
GraftPattern *
graft_document_get_pattern (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  return graft_rule_get_pattern (_graft_document_get_selected (self));
}

/**
 * graft_document_get_replacement_graph:
 * @self: a document
 *
 * Returns: (nullable) (transfer none): the chosen rule's traced replacement
 */
GraftGraph *
graft_document_get_replacement_graph (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  return graft_rule_get_replacement (_graft_document_get_selected (self));
}

/* The rule set ------------------------------------------------------------ */

/* Returns: (transfer none): the rule the editors show */
GraftRule *
_graft_document_get_selected (GraftDocument *self)
{
  g_autoptr (GraftRule) rule = g_list_model_get_item (G_LIST_MODEL (self->rules), self->selected);

  return rule;
}

/**
 * graft_document_get_rules:
 * @self: a document
 *
 * Returns: (transfer none): the rules as #GraftRule, in the order they run;
 *   there is always at least one
 */
GListModel *
graft_document_get_rules (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  return G_LIST_MODEL (self->rules);
}

guint
graft_document_get_n_rules (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->rules));
}

/**
 * graft_document_get_rule:
 * @self: a document
 * @i: a rule's position
 *
 * Returns: (transfer none): rule @i
 */
GraftRule *
graft_document_get_rule (GraftDocument *self,
                         guint          i)
{
  g_autoptr (GraftRule) rule = NULL;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (i < graft_document_get_n_rules (self), NULL);
  rule = g_list_model_get_item (G_LIST_MODEL (self->rules), i);
  return rule;
}

/**
 * graft_document_get_selected_rule:
 * @self: a document
 *
 * Returns: the position of the rule the pattern and replacement editors
 *   show, whose matches the document lists
 */
guint
graft_document_get_selected_rule (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), 0);
  return self->selected;
}

/* Finds @rule's matches (not the chosen rule's: the document keeps
 * those) and keeps them in the rule. */
static void
count_rule (GraftDocument *self,
            GraftRule     *rule)
{
  GraftPattern *pattern = graft_rule_get_pattern (rule);
  GPtrArray    *found = NULL;

  if (pattern != NULL && self->load_error == NULL)
    found = graft_matcher_find (pattern, self->graph, NULL, NULL);
  _graft_rule_take_matches (rule, found, found != NULL ? found->len : 0);
}

/**
 * _graft_document_recount:
 * @self: a document
 *
 * Finds the matches of every rule but the chosen one (find_matches()
 * does that one), then what the next step is.
 */
void
_graft_document_recount (GraftDocument *self)
{
  GraftRule *selected = _graft_document_get_selected (self);

  for (guint i = 0; i < graft_document_get_n_rules (self); i++)
    {
      GraftRule *rule = graft_document_get_rule (self, i);

      if (rule != selected)
        count_rule (self, rule);
    }
  _graft_document_update_next (self);
}

/**
 * _graft_document_get_rule_matches:
 * @self: a document
 * @rule: one of its rules
 *
 * Returns: (transfer none) (element-type GraftMatch): @rule's matches on
 *   the graph now, in the order `replace_pattern` replaces them
 */
GPtrArray *
_graft_document_get_rule_matches (GraftDocument *self,
                                  GraftRule     *rule)
{
  _graft_document_ensure_matches (self);
  /* Finishing the counts says what the next step is, and the window then
   * chooses its rule (_graft_window_follow_next()): the rule chosen now
   * has its matches still to find, and read as they were (none) the step
   * went past it (F6 pressed again before the first one's counts were
   * done took pass 2's first rule instead of pass 1's next). */
  while (self->match_job != 0)
    _graft_document_ensure_matches (self);
  if (rule == _graft_document_get_selected (self))
    return self->matches;
  if (_graft_rule_get_matches (rule) == NULL)
    count_rule (self, rule);
  if (_graft_rule_get_matches (rule) == NULL)
    _graft_rule_take_matches (rule, g_ptr_array_new (), 0);
  return _graft_rule_get_matches (rule);
}

/**
 * _graft_document_rules_changed:
 * @self: a document
 *
 * After a change of the rule set or of the chosen rule: positions, the
 * chosen rule's matches and texts, the next step.
 */
void
_graft_document_rules_changed (GraftDocument *self)
{
  guint n = graft_document_get_n_rules (self);

  for (guint i = 0; i < n; i++)
    _graft_rule_set_position (graft_document_get_rule (self, i), i);
  if (self->selected >= n)
    self->selected = n - 1;
  /* The chosen rule's matches are the document's own. */
  _graft_rule_take_matches (_graft_document_get_selected (self), NULL,
                            graft_rule_get_n_matches (_graft_document_get_selected (self)));
  /* Stale before anyone is told: what asks for the next step waits. */
  matches_stale (self, TRUE);
  g_signal_emit (self, signals[SIGNAL_PATTERNS_CHANGED], 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
  g_signal_emit (self, signals[SIGNAL_RULES_CHANGED], 0);
}

/**
 * graft_document_select_rule:
 * @self: a document
 * @i: a rule's position
 *
 * Makes rule @i the one the editors show and whose matches are listed.
 * Choosing is no change of the document.
 */
void
graft_document_select_rule (GraftDocument *self,
                            guint          i)
{
  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  g_return_if_fail (i < graft_document_get_n_rules (self));
  _graft_document_settle (self);
  if (i == self->selected)
    return;
  self->selected = i;
  _graft_document_rules_changed (self);
}

/**
 * _graft_document_set_rules_snapshot:
 * @self: a document
 * @rules: (element-type GraftRule): the rules, in order
 * @enabled: (element-type gboolean): whether each takes part
 * @selected: the chosen rule
 *
 * Makes @rules the rule set (undoing or redoing a change of it).
 */
void
_graft_document_set_rules_snapshot (GraftDocument *self,
                                    GPtrArray     *rules,
                                    GArray        *enabled,
                                    guint          selected)
{
  g_list_store_splice (self->rules, 0, graft_document_get_n_rules (self), rules->pdata,
                       rules->len);
  for (guint i = 0; i < rules->len; i++)
    _graft_rule_set_enabled (rules->pdata[i], g_array_index (enabled, gboolean, i));
  self->selected = selected;
  _graft_document_rules_changed (self);
}

void
_graft_document_emit_rule_texts_changed (GraftDocument *self,
                                         GraftRule     *rule)
{
  g_signal_emit (self, signals[SIGNAL_RULE_TEXTS_CHANGED], 0, rule);
}

/**
 * graft_document_get_matches:
 * @self: a document
 *
 * Returns: (transfer none): the matches as #GraftMatchItem, in the order
 *   `replace_pattern` replaces them, then the occurrences its rules drop
 *   (graft_match_item_get_dropped())
 */
GListModel *
graft_document_get_matches (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  ensure_chosen_matches (self);
  return G_LIST_MODEL (self->match_items);
}

guint
graft_document_get_n_matches (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), 0);
  ensure_chosen_matches (self);
  return self->matches->len;
}

/**
 * graft_document_get_match:
 * @self: a document
 * @i: a match number
 *
 * Returns: (transfer none): match @i, valid until the matches change
 */
const GraftMatch *
graft_document_get_match (GraftDocument *self,
                          guint          i)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  ensure_chosen_matches (self);
  g_return_val_if_fail (i < self->matches->len, NULL);
  return self->matches->pdata[i];
}

/**
 * graft_document_get_match_of_node:
 * @self: a document
 * @name: a graph node's name
 *
 * Returns: the match that replaces the node, or -1
 */
gint
graft_document_get_match_of_node (GraftDocument *self,
                                  const char    *name)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), -1);
  ensure_chosen_matches (self);
  return (gint) GPOINTER_TO_UINT (g_hash_table_lookup (self->match_of, name)) - 1;
}

/* Each matched node (owned table), its first match + 1, as match_of has
 * it by name. */
static GHashTable *
match_of_nodes (GraftDocument *self)
{
  GHashTable *of = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < self->matches->len; i++)
    {
      g_autoptr (GPtrArray) nodes = graft_match_dup_nodes (self->matches->pdata[i]);

      for (guint k = 0; k < nodes->len; k++)
        if (!g_hash_table_contains (of, nodes->pdata[k]))
          g_hash_table_insert (of, nodes->pdata[k], GUINT_TO_POINTER (i + 1));
    }
  return of;
}

/**
 * graft_document_get_match_of_graph_node:
 * @self: a document
 * @node: a node of the document's graph
 *
 * graft_document_get_match_of_node() of one of two nodes of one name: the
 * match that replaces that node.
 *
 * Returns: the match that replaces @node, or -1
 */
gint
graft_document_get_match_of_graph_node (GraftDocument *self,
                                        GraftNode     *node)
{
  g_autoptr (GHashTable) of = NULL;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), -1);
  g_return_val_if_fail (node != NULL, -1);
  if (!graft_graph_has_shared_names (self->graph))
    return graft_document_get_match_of_node (self, graft_node_get_name (node));
  ensure_chosen_matches (self);
  of = match_of_nodes (self);
  return (gint) GPOINTER_TO_UINT (g_hash_table_lookup (of, node)) - 1;
}

/**
 * graft_document_get_n_dropped:
 * @self: a document
 *
 * Returns: how many complete occurrences torch's rules leave alone
 */
guint
graft_document_get_n_dropped (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), 0);
  ensure_chosen_matches (self);
  return self->dropped->len;
}

/**
 * graft_document_dup_layout_dropped:
 * @self: a document
 * @layout: a layout of the graph
 *
 * Returns: (transfer full): for each graph node of @layout, whether it is
 *   part of a dropped occurrence and of no match
 */
gboolean *
graft_document_dup_layout_dropped (GraftDocument *self,
                                   GraftLayout   *layout)
{
  guint          n;
  gboolean      *dropped;
  GHashTableIter iter;
  gpointer       name;

  ensure_chosen_matches (self);
  n = graft_layout_get_n_graph_nodes (layout);
  dropped = g_new0 (gboolean, MAX (n, 1));
  /* The dropped nodes looked up in the layout, as matched ones are
   * (graft_document_dup_layout_marks()). */
  g_hash_table_iter_init (&iter, self->dropped_of);
  while (g_hash_table_iter_next (&iter, &name, NULL))
    {
      gint i = graft_layout_find_graph_node (layout, name);

      if (i >= 0 && !g_hash_table_contains (self->match_of, name))
        dropped[i] = TRUE;
    }
  return dropped;
}

static gboolean
check_ready (GraftDocument *self,
             GError       **error)
{
  GraftRule *rule = _graft_document_get_selected (self);

  if (graft_rule_get_pattern (rule) == NULL)
    {
      g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, "the pattern has errors");
      return FALSE;
    }
  if (graft_rule_get_replacement (rule) == NULL)
    {
      g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, "the replacement has errors");
      return FALSE;
    }
  return TRUE;
}

void
_graft_document_free_entry (HistoryEntry *entry)
{
  history_entry_free (entry);
}

/**
 * _graft_document_new_entry:
 * @kind: what the change does
 *
 * Returns: (transfer full): an empty change of the history
 */
HistoryEntry *
_graft_document_new_entry (GraftStepKind kind)
{
  HistoryEntry *entry = g_new0 (HistoryEntry, 1);

  entry->kind = kind;
  entry->match = -1;
  return entry;
}

/**
 * _graft_document_push:
 * @self: a document
 * @entry: (transfer full): the change, already made
 * @label: what the history calls it
 * @before: (transfer full) (nullable): the graph's code before it
 * @quiet: record it only: the caller calls _graft_document_changed() when
 *   it has recorded all it makes (a run of the rules)
 *
 * Records @entry as the newest change of the history; its label, code
 * before and serial are set here.
 */
void
_graft_document_push (GraftDocument *self,
                      HistoryEntry  *entry,
                      const char    *label,
                      char          *before,
                      gboolean       quiet)
{
  _graft_document_settle (self);
  /* A new edit drops what could be redone. */
  if (self->saved > (gint) self->position)
    self->saved = -1;
  truncate_history (self, self->position);
  /* What the check said of the graph before and after, while the graph
   * of the revision is still the one before (the first change recorded
   * since it changed); a change of the rules leaves the graph as it is. */
  entry->holds_before = self->pushed_unchanged == 0 && _graft_document_code_holds (self);
  if (entry->rules != NULL)
    entry->holds_after = entry->holds_before;
  else
    {
      entry->holds_after = !quiet && self->pushed_unchanged == 0 && self->code_holds_next;
      if (quiet || self->pushed_unchanged > 0)
        self->rewrite_ok_next = FALSE;
      self->pushed_unchanged++;
      /* The graph changed: a walk under way read the one before, and what
       * is known is of that one. */
      _graft_document_learners_forget (self);
    }
  entry->label = g_strdup (label);
  entry->before = before;
  entry->serial = ++self->last_serial;
  g_ptr_array_add (self->history, entry);
  self->position++;
  if (!quiet)
    _graft_document_changed (self);
}

/**
 * _graft_document_changed:
 * @self: a document
 *
 * After new changes were recorded: the history and the graph changed.
 */
void
_graft_document_changed (GraftDocument *self)
{
  notify_history (self);
  graph_changed (self);
}

/**
 * _graft_document_history_changed:
 * @self: a document
 *
 * After a change of the rule set was recorded: the history changed, the
 * graph did not.
 */
void
_graft_document_history_changed (GraftDocument *self)
{
  notify_history (self);
}

void
_graft_document_notify_modified (GraftDocument *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
}

/* Records @entry (taken), with @before (taken) the code before it, as the
 * newest step of the history. */
static void
push_entry (GraftDocument *self,
            HistoryEntry  *entry,
            const char    *label,
            char          *before)
{
  _graft_document_push (self, entry, label, before, FALSE);
}

/* Installs @graph (taken; %NULL: an empty graph of @source's failed read),
 * read from @source (taken) with @error (taken) as the document's graph,
 * and records the replacement as @entry (taken), the newest step of the
 * history: the graph, text and error that were there go into the step. */
static void
push_graph (GraftDocument *self,
            HistoryEntry  *entry,
            GraftGraph    *graph,
            GraftSource   *source,
            GError        *error,
            gboolean       switch_dialect,
            const char    *label)
{
  char *before;

  /* A switch of torch keeps the graph before in @entry: its code is made
   * from it if Show Changes asks (graft_document_dup_last_change()), not
   * here, where a million nodes' would stop the window for a second. */
  if (!switch_dialect)
    graft_document_get_code (self);
  before = g_steal_pointer (&self->code);
  entry->graph = self->graph;
  entry->source = self->source;
  entry->load_error = self->load_error;
  entry->switch_dialect = switch_dialect;
  self->graph = graph != NULL ? graph : graft_graph_new (self->dialect);
  self->source = source;
  self->load_error = error;
  g_ptr_array_set_size (self->warnings, 0);
  g_ptr_array_set_size (self->added_names, 0);
  push_entry (self, entry, label, before);
}

/* Keeps what @rewrite warned about and the nodes it added, to show them. */
static void
keep_rewrite_notes (GraftDocument *self,
                    GraftRewrite  *rewrite)
{
  GPtrArray *added = graft_rewrite_get_added_nodes (rewrite);

  g_ptr_array_set_size (self->warnings, 0);
  for (guint i = 0; i < graft_rewrite_get_warnings (rewrite)->len; i++)
    g_ptr_array_add (self->warnings, g_strdup (graft_rewrite_get_warnings (rewrite)->pdata[i]));
  g_ptr_array_set_size (self->added_names, 0);
  for (guint i = 0; i < added->len; i++)
    g_ptr_array_add (self->added_names, g_strdup (graft_node_get_name (added->pdata[i])));
}

/* A rewrite of the graph under way, by steps (graft_document_begin_replace_all()). */
struct _GraftRewriting
{
  /* Owned */
  GraftRewriteJob *job;
  GraftPattern    *pattern;     /* a reference: the job borrows it */
  GraftGraph      *replacement; /* the rule's, which it keeps while the job lives */
  GraftRule       *rule;        /* a reference, which keeps the replacement */
  GPtrArray       *matches;     /* GraftMatch, borrowed from the document's */
  HistoryEntry    *entry;
  char            *label;
  char            *before;  /* the code before, or NULL */
  gboolean         checked; /* the check of the graph before is done: the job may step */
  gboolean         stepped; /* the job is done: only its end is left */
};

static void
rewriting_free (GraftRewriting *rw)
{
  graft_rewrite_job_free (rw->job);
  graft_pattern_unref (rw->pattern);
  g_clear_object (&rw->rule);
  g_ptr_array_unref (rw->matches);
  if (rw->entry != NULL)
    history_entry_free (rw->entry);
  g_free (rw->label);
  g_free (rw->before);
  g_free (rw);
}

/* Drops a rewrite under way: the graph is as it was before it. */
static void
rewriting_drop (GraftDocument *self)
{
  graft_turns_remove (self->rewrite_job);
  self->rewrite_job = 0;
  g_clear_pointer (&self->rewriting, rewriting_free);
}

/* Begins rewriting the graph: @matches (taken) by @rule's pattern, into
 * its replacement, as @entry (taken); the code before, if known, kept. */
static GraftRewriting *
rewriting_new (GraftDocument *self,
               GraftRule     *rule,
               GPtrArray     *matches,
               HistoryEntry  *entry,
               const char    *label)
{
  GraftRewriting *rw = g_new0 (GraftRewriting, 1);

  rw->rule = g_object_ref (rule);
  rw->pattern = graft_pattern_ref (graft_rule_get_pattern (rule));
  rw->replacement = graft_rule_get_replacement (rule);
  rw->matches = matches;
  rw->entry = entry;
  rw->label = g_strdup (label);
  /* The graph's code now is what it was before the edit, when it is known:
   * else it is made if Show Changes asks for it (graft_document_dup_last_change()),
   * not here, where it would stop the window for tens of milliseconds on a
   * large graph. */
  rw->before = g_steal_pointer (&self->code);
  rw->job = graft_rewrite_job_new (self->graph, rw->pattern, rw->replacement, matches);
  /* What the rewriter checks of the graph it leaves: only what it adds
   * when the graph before is known to pass. */
  graft_rewrite_job_set_checked (rw->job, _graft_document_rewrite_ok (self));
  return rw;
}

/* Ends the rewrite @rw (taken), done or not: on error (the rewriter's, or
 * a program left with code torch cannot compile) the graph is as it was
 * and nothing is recorded. */
static gboolean
rewriting_end (GraftDocument  *self,
               GraftRewriting *rw,
               guint          *out_n,
               GError        **error)
{
  g_autoptr (GraftRewrite) rewrite = NULL;
  gboolean ok;

  /* The job has not stepped yet: the graph is the one the check began on. */
  if (!rw->checked)
    _graft_document_learn_code_holds (self, TRUE);
  rewrite = graft_rewrite_job_finish (rw->job, error);
  ok = rewrite != NULL;

  *out_n = 0;
  if (ok && !_graft_document_check_rewritten (self, graft_rewrite_get_added_nodes (rewrite), error))
    {
      graft_edit_undo (graft_rewrite_get_edit (rewrite));
      ok = FALSE;
    }
  if (!ok)
    /* The rewriter rolled the graph back: its code still holds. */
    self->code = g_steal_pointer (&rw->before);
  else
    {
      HistoryEntry *entry = g_steal_pointer (&rw->entry);

      keep_rewrite_notes (self, rewrite);
      entry->edit = graft_rewrite_steal_edit (rewrite);
      entry->n_replaced = *out_n = graft_rewrite_get_n_replaced (rewrite);
      /* The rewriter checked the graph it left. */
      self->rewrite_ok_next = self->pushed_unchanged == 0;
      push_entry (self, entry, rw->label, g_steal_pointer (&rw->before));
    }
  rewriting_free (rw);
  return ok;
}

/**
 * _graft_document_emit_ran_all:
 * @self: a document
 * @n_replaced: the matches the run replaced
 * @error: (nullable): why it failed
 *
 * Says a Run All by steps is over (::ran-all).
 */
void
_graft_document_emit_ran_all (GraftDocument *self,
                              guint          n_replaced,
                              const GError  *error)
{
  g_signal_emit (self, signals[SIGNAL_RAN_ALL], 0, n_replaced, error);
}

/**
 * _graft_document_emit_run_progress:
 * @self: a document running the rules by steps
 *
 * Says the Run All under way went on (::run-progress).
 */
void
_graft_document_emit_run_progress (GraftDocument *self)
{
  g_signal_emit (self, signals[SIGNAL_RUN_PROGRESS], 0);
}

/* Ends the Replace All under way and says so (::replaced-all). */
static void
replaced_all (GraftDocument *self)
{
  GraftRewriting *rw = g_steal_pointer (&self->rewriting);
  g_autoptr (GError) error = NULL;
  guint n;

  graft_turns_remove (self->rewrite_job);
  self->rewrite_job = 0;
  rewriting_end (self, rw, &n, &error);
  g_signal_emit (self, signals[SIGNAL_REPLACED_ALL], 0, n, error);
}

/* For tests: when not 0, each turn makes one step of this much work
 * (_graft_document_set_rewrite_step()). */
static guint rewrite_step_work;

/**
 * _graft_document_set_rewrite_step:
 * @work: the work of a turn's one step, or 0 for the usual time budget
 *
 * Makes Replace All by steps go by a fixed amount of work a turn (for
 * tests, which then know a small graph's rewrite takes many turns).
 */
void
_graft_document_set_rewrite_step (guint work)
{
  rewrite_step_work = work;
}

/**
 * _graft_document_thread_time:
 *
 * Returns: the main thread's processor time, in microseconds
 */
gint64
_graft_document_thread_time (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* Rewrites for about _GRAFT_DOCUMENT_STEP_USEC of processor time from @start
 * (thread_time()). */
static void
rewrite_some (GraftRewriting *rw,
              gint64          start)
{
  gint64 deadline = start + _GRAFT_DOCUMENT_STEP_USEC;

  if (rewrite_step_work > 0)
    rw->stepped = graft_rewrite_job_step (rw->job, rewrite_step_work);
  else
    while (!(rw->stepped = graft_rewrite_job_step (rw->job, _GRAFT_DOCUMENT_STEP_WORK)) &&
           _graft_document_thread_time () < deadline)
      ;
}

/* A turn's share of Replace All from @start (thread_time()): first, when
 * the check's answer for the graph before is not known (a graph read or
 * restored, the graph after a run of the rules), that check, a share of
 * the nodes a turn, so that its end checks only what it added
 * (_graft_document_check_rewritten(); the whole graph at once took 28-34
 * ms at a million nodes); then the rewrite. */
static void
rewriting_some (GraftDocument *self,
                gint64         start)
{
  GraftRewriting *rw = self->rewriting;

  if (!rw->checked)
    rw->checked = _graft_document_learn_code_holds (self, FALSE);
  if (rw->checked)
    rewrite_some (rw, start);
}

/* A turn of Replace All: the rewrite for about _GRAFT_DOCUMENT_STEP_USEC, then,
 * in a turn of its own, its end (the history, ::graph-changed). */
static gboolean
rewrite_step_cb (gpointer user_data)
{
  GraftDocument  *self = user_data;
  GraftRewriting *rw = self->rewriting;

  if (rw->stepped)
    {
      /* replaced_all() removes this job: from inside its step, once the
       * step returns. */
      replaced_all (self);
      return G_SOURCE_REMOVE;
    }
  rewriting_some (self, _graft_document_thread_time ());
  return G_SOURCE_CONTINUE;
}

static void switched (GraftDocument *self);

/**
 * _graft_document_settle:
 * @self: a document
 *
 * Finishes a Replace All under way at once, if there is one (and a switch
 * of torch, waiting for its worker's graph), and brings
 * back at once a graph a comparison holds elsewhere in the history: what
 * reads or changes the graph (or the history, the rules, the matches)
 * calls this first, so that it never sees a half-rewritten graph.
 */
void
_graft_document_settle (GraftDocument *self)
{
  if (self->switching != NULL)
    switched (self);
  settle_work (self);
}

/* _graft_document_settle() but for a switch of torch under way: the work
 * that holds the graph half changed. */
static void
settle_work (GraftDocument *self)
{
  if (self->away_back != NULL)
    self->away_back (self->away_data);
  if (self->rewriting != NULL)
    replaced_all (self);
  if (self->running != NULL)
    _graft_document_ran_all (self);
  if (self->moving)
    {
      move_some (self, 0, TRUE);
      moved (self);
    }
}

/**
 * graft_document_settle:
 * @self: a document
 *
 * Finishes at once the work under way that holds the graph, if any: a
 * Replace All by steps (::replaced-all) or a move in the history by steps
 * (::moved), both emitted from here.  Whatever reads or changes the
 * document does so itself; a caller that is about to read the history's
 * position and labels to change them calls this first.
 */
void
graft_document_settle (GraftDocument *self)
{
  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  _graft_document_settle (self);
}

/**
 * graft_document_get_rewriting:
 * @self: a document
 *
 * Returns: whether a Replace All is under way (graft_document_begin_replace_all());
 *   the document shows the graph, the matches and the history as they were
 *   before it until ::replaced-all
 */
gboolean
graft_document_get_rewriting (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  return self->rewriting != NULL;
}

/**
 * _graft_document_apply_rewrite:
 * @self: a document
 * @pattern: the pattern
 * @replacement: its replacement
 * @matches: (nullable) (element-type GraftMatch): the matches to replace,
 *   a subset of the pattern's matches now, in order; %NULL for
 *   `replace_pattern`, which finds them all
 * @entry: (transfer full): the step it is, with what it did said
 * @label: what the history calls it
 * @error: return location for an error
 *
 * Rewrites the graph and records the edit as @entry; on error (the
 * rewriter's, or a program left with code torch cannot compile:
 * _graft_document_check_rewritten()) the graph is as it was and @entry is
 * freed.
 *
 * Returns: %TRUE if the graph was rewritten
 */
gboolean
_graft_document_apply_rewrite (GraftDocument *self,
                               GraftPattern  *pattern,
                               GraftGraph    *replacement,
                               GPtrArray     *matches,
                               HistoryEntry  *entry,
                               const char    *label,
                               GError       **error)
{
  g_autoptr (GraftRewrite) rewrite = NULL;
  g_autofree char *before = NULL;

  _graft_document_settle (self);
  /* A check of the graph before under way (_graft_document_code_holds_due())
   * is finished while the graph is the one it began on: the rewrite then
   * checks only what it adds. */
  if (_graft_document_code_learning (self))
    _graft_document_learn_code_holds (self, TRUE);
  /* As in rewriting_new(). */
  before = g_steal_pointer (&self->code);
  if (matches != NULL)
    {
      /* graft_rewriter_apply(), checking only what it adds when the graph
       * before is known to pass the rewriter's check. */
      g_autoptr (GraftRewriteJob) job =
          graft_rewrite_job_new (self->graph, pattern, replacement, matches);

      graft_rewrite_job_set_checked (job, _graft_document_rewrite_ok (self));
      rewrite = graft_rewrite_job_finish (job, error);
    }
  else
    rewrite = graft_replace_pattern (self->graph, pattern, replacement, NULL, error);
  if (rewrite != NULL &&
      !_graft_document_check_rewritten (self, graft_rewrite_get_added_nodes (rewrite), error))
    {
      graft_edit_undo (graft_rewrite_get_edit (rewrite));
      g_clear_pointer (&rewrite, graft_rewrite_free);
    }
  if (rewrite == NULL)
    {
      /* The rewriter rolled the graph back: its code still holds. */
      self->code = g_steal_pointer (&before);
      history_entry_free (entry);
      return FALSE;
    }
  keep_rewrite_notes (self, rewrite);
  entry->edit = graft_rewrite_steal_edit (rewrite);
  entry->n_replaced = graft_rewrite_get_n_replaced (rewrite);
  /* The rewriter checked the graph it left. */
  self->rewrite_ok_next = self->pushed_unchanged == 0;
  push_entry (self, entry, label, g_steal_pointer (&before));
  return TRUE;
}

/* A step of the chosen rule, by hand (Replace, Replace All): what it does
 * is kept so that a session can do it again. */
static HistoryEntry *
new_rule_entry (GraftDocument *self,
                gint           match)
{
  GraftRule    *rule = _graft_document_get_selected (self);
  HistoryEntry *entry = _graft_document_new_entry (GRAFT_STEP_RULE);

  entry->pattern_text = g_strdup (graft_rule_get_pattern_text (rule));
  entry->replacement_text = g_strdup (graft_rule_get_replacement_text (rule));
  entry->pattern_name = g_strdup (graft_rule_get_name (rule));
  entry->replacement_name = g_strdup (graft_rule_get_replacement_name (rule));
  entry->rule = graft_rule_get_position (rule);
  entry->match = match;
  return entry;
}

/* Applies @matches (a subset of the chosen rule's current ones, in order,
 * or %NULL for all) and records the edit. */
static gboolean
apply (GraftDocument *self,
       GPtrArray     *matches,
       gint           match,
       const char    *label,
       GError       **error)
{
  GraftRule *rule = _graft_document_get_selected (self);

  return _graft_document_apply_rewrite (self, graft_rule_get_pattern (rule),
                                        graft_rule_get_replacement (rule), matches,
                                        new_rule_entry (self, match), label, error);
}

/**
 * graft_document_restore_text:
 * @self: a document
 * @filename: the name errors use
 * @text: a Python module, an FX listing or DOT
 * @label: what the history calls the change
 * @error: return location for the located error that stopped reading
 *
 * Replaces the document's graph with the one @text stands for, as one
 * change of the history (restoring unsaved work: graft_document_undo()
 * brings back the graph that was there).  The file stays the document's;
 * the pattern and the replacement stay as they are.  On error nothing
 * changes.
 *
 * Returns: %TRUE on success
 */
gboolean
graft_document_restore_text (GraftDocument *self,
                             const char    *filename,
                             const char    *text,
                             const char    *label,
                             GError       **error)
{
  g_autoptr (GraftSource) source = NULL;
  HistoryEntry *entry;
  GraftGraph   *graph;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  _graft_document_settle (self);

  source = graft_source_new (filename, text, -1);
  graph = graft_input_load_graph (source, self->dialect, NULL, error);
  if (graph == NULL)
    return FALSE;
  entry = _graft_document_new_entry (GRAFT_STEP_RESTORE);
  entry->restore_name = g_strdup (filename);
  entry->restore_text = g_strdup (text);
  push_graph (self, entry, graph, g_steal_pointer (&source), NULL, FALSE, label);
  return TRUE;
}

/* Makes @dialect the document's and traces every rule again in it; the
 * graph, and finding its matches, are the caller's. */
static void
speak (GraftDocument      *self,
       const GraftDialect *dialect)
{
  self->dialect = dialect;
  for (guint i = 0; i < graft_document_get_n_rules (self); i++)
    _graft_document_trace_rule (self, graft_document_get_rule (self, i), NULL, NULL);
  g_signal_emit (self, signals[SIGNAL_PATTERNS_CHANGED], 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TORCH]);
}

/**
 * _graft_document_speak:
 * @self: a document
 * @dialect: a torch
 *
 * Makes @dialect the document's without a change of the history (a
 * session about to read its input in it).
 */
void
_graft_document_speak (GraftDocument      *self,
                       const GraftDialect *dialect)
{
  _graft_document_settle (self);
  if (dialect == self->dialect)
    return;
  /* The history's edits refer to the graph: they go first, and so does a
   * search of it. */
  search_drop (self);
  truncate_history (self, 0);
  self->position = 0;
  self->saved = 0;
  g_ptr_array_set_size (self->matches, 0);
  g_ptr_array_set_size (self->dropped, 0);
  g_hash_table_remove_all (self->match_of);
  self->matches_serial++;
  g_hash_table_remove_all (self->dropped_of);
  g_clear_pointer (&self->graph, graft_graph_free);
  g_clear_pointer (&self->code, g_free);
  _graft_document_code_names_clear (self);
  /* A walk under way read the graph freed, and what is known is of it
   * (the revision stays: a session reads its input next). */
  _graft_document_learners_forget (self);
  self->graph = graft_graph_new (dialect);
  speak (self, dialect);
}

/**
 * _graft_document_install_rules:
 * @self: a document
 * @rules: (element-type GraftRule): the rules, not traced yet
 * @selected: the chosen one
 * @fixpoint: the passes option
 * @dce: the dead-code option
 *
 * Makes @rules the rule set, with no change of the history (a session
 * read).
 */
void
_graft_document_install_rules (GraftDocument *self,
                               GPtrArray     *rules,
                               guint          selected,
                               guint          fixpoint,
                               gboolean       dce)
{
  g_return_if_fail (rules->len > 0);
  for (guint i = 0; i < rules->len; i++)
    _graft_document_trace_rule (self, rules->pdata[i], NULL, NULL);
  g_list_store_splice (self->rules, 0, graft_document_get_n_rules (self), rules->pdata,
                       rules->len);
  self->selected = MIN (selected, rules->len - 1);
  self->fixpoint = fixpoint;
  self->dce = dce;
  _graft_document_rules_changed (self);
}

/**
 * _graft_document_reset_rules:
 * @self: a document
 *
 * Back to one rule, the template, and one pass (a session that failed to
 * read leaves nothing of its own).
 */
void
_graft_document_reset_rules (GraftDocument *self)
{
  g_autoptr (GPtrArray) rules = g_ptr_array_new_with_free_func (g_object_unref);

  g_ptr_array_add (rules, graft_rule_new (DEFAULT_PATTERN, DEFAULT_REPLACEMENT));
  _graft_document_install_rules (self, rules, 0, 0, FALSE);
}

/**
 * _graft_document_mark_saved:
 * @self: a document
 * @is_session: what was saved, or read, is a session
 *
 * The document is as saved now.
 */
void
_graft_document_mark_saved (GraftDocument *self,
                            gboolean       is_session)
{
  self->saved = (gint) self->position;
  self->saved_text_changes = self->text_changes;
  self->is_session = is_session;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
}

/**
 * graft_document_get_is_session:
 * @self: a document
 *
 * Returns: whether the document was read from or saved as a session
 */
gboolean
graft_document_get_is_session (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  return self->is_session;
}

/* Whether the graph is what its source reads as: nothing since the last
 * load, restore or switch has edited it (changes of the rule set leave
 * the graph alone). */
static gboolean
graph_is_as_read (GraftDocument *self)
{
  for (guint i = self->position; i > 0; i--)
    {
      HistoryEntry *entry = self->history->pdata[i - 1];

      if (entry->rules == NULL)
        return entry->edit == NULL;
    }
  return TRUE;
}

/* What a switch of torch reads the graph again from: the text it was read
 * from when nothing has edited it since, else its own code (taken). */
static GraftSource *
switch_source (GraftDocument *self)
{
  g_autofree char *name = NULL;
  char            *text;

  if (self->source != NULL && graph_is_as_read (self))
    return graft_source_ref (self->source);
  name = g_strdup_printf ("%s (edited)", self->title);
  text = graft_document_dup_file_text (self);
  return graft_source_new_take (name, text, strlen (text));
}

/* Makes @graph (taken; NULL: an empty graph, @error's), read from @source
 * (taken) in @dialect, the document's graph, as one step of the history. */
static void
install_switch (GraftDocument      *self,
                const GraftDialect *dialect,
                GraftGraph         *graph,
                GraftSource        *source,
                GError             *error)
{
  g_autofree char *label = g_strdup_printf ("Switch to torch %s", dialect->name);
  HistoryEntry    *entry = _graft_document_new_entry (GRAFT_STEP_TORCH);

  /* `torch` is notified once the graph is in. */
  g_object_freeze_notify (G_OBJECT (self));
  /* The texts first: the new graph's matches are found with them. */
  speak (self, dialect);
  entry->torch = dialect;
  push_graph (self, entry, graph, source, error, TRUE, label);
  g_object_thaw_notify (G_OBJECT (self));
}

/* Whether the document has read nothing: it just speaks @dialect, with
 * nothing to undo. */
static gboolean
switch_empty (GraftDocument      *self,
              const GraftDialect *dialect)
{
  if (self->source != NULL || graft_graph_get_n_nodes (self->graph) > 0)
    return FALSE;
  g_object_freeze_notify (G_OBJECT (self));
  search_drop (self);
  g_clear_pointer (&self->graph, graft_graph_free);
  self->graph = graft_graph_new (dialect);
  speak (self, dialect);
  graph_changed (self);
  g_object_thaw_notify (G_OBJECT (self));
  return TRUE;
}

/**
 * graft_document_set_dialect:
 * @self: a document
 * @dialect: the torch to speak
 *
 * Reads the document's graph again as @dialect's torch does and traces the
 * pattern and the replacement again in it; everything the document prints
 * and matches then follows @dialect.  What is read again is the text the
 * graph was read from (the file's, as it was opened, or the unsaved work
 * restored) when nothing has edited the graph since; after rewrites or
 * deletions, the graph's own code as a save would write it, so that no
 * edit is lost.  When that text does not read in @dialect, the document
 * shows why (graft_document_get_load_error()) with an empty graph.
 *
 * The switch is one step of the history: graft_document_undo() gives back
 * the graph, its error and its dialect as they were, and the steps before
 * it work on that graph as before.  It does not make the document
 * modified.  A document that has read nothing just speaks @dialect, with
 * nothing to undo.
 */
void
graft_document_set_dialect (GraftDocument      *self,
                            const GraftDialect *dialect)
{
  GraftSource *source;
  GraftGraph  *graph;
  GError      *error = NULL;

  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  g_return_if_fail (dialect != NULL);
  _graft_document_settle (self);

  if (dialect == self->dialect || switch_empty (self, dialect))
    return;
  source = switch_source (self);
  /* The file as read traces the class it was traced from; the graph's
   * own code has one. */
  graph = graft_input_load_graph (source, dialect, source == self->source ? self->entry : NULL,
                                  &error);
  install_switch (self, dialect, graph, source, error);
}

/* A switch of torch under way: what the worker reads, and what it read.
 * The document and the worker share it (an atomic reference each); the
 * worker fills the results under @lock and says so by @done. */
struct _GraftSwitching
{
  GMutex lock;
  GCond  cond;
  /* Owned, set before the worker starts */
  GraftSource *source; /* or NULL: the worker makes it of @code */
  char        *entry;  /* the class to trace, or NULL */
  /* An edited graph is read from its code: the document's, made and
   * copied by steps on the main loop (@turn), then made a file's text on
   * the worker.  Owned, the worker's once started. */
  GraftCodeCopy code;
  char         *name;    /* the source's */
  guint         turn;    /* the copy's (graft-turns.c), or 0 */
  gboolean      started; /* the worker runs */
  /* Static */
  const GraftDialect *dialect;
  /* Owned, the worker's once @done */
  gboolean    done;
  GraftGraph *graph;
  GError     *error;
};

/* For tests: the bytes of code a switch copies a step, if not 0. */
static gsize switch_copy_step;

/**
 * _graft_document_set_switch_copy_step:
 * @n_bytes: bytes of an edited graph's code a switch of torch copies a
 *   main-loop turn, or 0 for the default (as many megabytes as fit in a
 *   few milliseconds)
 *
 * For tests: a small graph's copy over several turns.
 */
void
_graft_document_set_switch_copy_step (gsize n_bytes)
{
  switch_copy_step = n_bytes;
}

static void
switching_clear (gpointer data)
{
  GraftSwitching *sw = data;

  g_clear_pointer (&sw->source, graft_source_unref);
  g_clear_pointer (&sw->entry, g_free);
  _graft_code_copy_clear (&sw->code);
  g_free (sw->name);
  g_clear_pointer (&sw->graph, graft_graph_free);
  g_clear_error (&sw->error);
  g_mutex_clear (&sw->lock);
  g_cond_clear (&sw->cond);
}

static void
switching_unref (GraftSwitching *sw)
{
  g_atomic_rc_box_release_full (sw, switching_clear);
}

static void
switch_thread_cb (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  GraftSwitching *sw = task_data;
  GError         *error = NULL;
  GraftGraph     *graph;

  /* The file's text of the code, as graft_document_dup_file_text() makes
   * it (switch_source()). */
  if (sw->source == NULL)
    {
      g_autofree char *code = _graft_code_copy_join (&sw->code);
      char            *text = graft_document_code_to_file_text (code);

      sw->source = graft_source_new_take (sw->name, text, strlen (text));
    }
  graph = graft_input_load_graph (sw->source, sw->dialect, sw->entry, &error);

  g_mutex_lock (&sw->lock);
  sw->graph = graph;
  sw->error = error;
  sw->done = TRUE;
  g_cond_broadcast (&sw->cond);
  g_mutex_unlock (&sw->lock);
  g_task_return_boolean (task, TRUE);
}

/* The switch under way is over: its graph is the document's (waiting for
 * the worker if it is still reading), and ::switched says so. */
static void
switched (GraftDocument *self)
{
  GraftSwitching *sw = g_steal_pointer (&self->switching);

  if (!sw->started)
    {
      /* Still copying the code: read at once, as before the worker. */
      g_object_ref (self);
      g_clear_handle_id (&sw->turn, graft_turns_remove);
      _graft_code_copy_clear (&sw->code);
      sw->source = switch_source (self);
      sw->graph = graft_input_load_graph (sw->source, sw->dialect, sw->entry, &sw->error);
      sw->done = TRUE;
      install_switch (self, sw->dialect, g_steal_pointer (&sw->graph),
                      graft_source_ref (sw->source), g_steal_pointer (&sw->error));
      switching_unref (sw);
      g_signal_emit (self, signals[SIGNAL_SWITCHED], 0);
      g_object_unref (self);
      return;
    }
  g_mutex_lock (&sw->lock);
  while (!sw->done)
    g_cond_wait (&sw->cond, &sw->lock);
  g_mutex_unlock (&sw->lock);
  install_switch (self, sw->dialect, g_steal_pointer (&sw->graph),
                  graft_source_ref (sw->source), g_steal_pointer (&sw->error));
  switching_unref (sw);
  g_signal_emit (self, signals[SIGNAL_SWITCHED], 0);
}

/* The worker is done (on the main loop): the switch ends here unless
 * something settled the document first. */
static void
switch_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr (GraftDocument) self = user_data;

  if (self->switching == g_task_get_task_data (G_TASK (result)))
    switched (self);
}

/* The switch's worker reads the graph (its source made of the code
 * first, if it is an edited graph's). */
static void
switch_start_worker (GraftDocument *self)
{
  g_autoptr (GTask) task = NULL;
  GraftSwitching *sw = self->switching;

  sw->started = TRUE;
  /* The worker's task has no source object (see the loader's): the
   * document's reference is its callback's, dropped on the main loop. */
  task = g_task_new (NULL, NULL, switch_read_cb, g_object_ref (self));
  g_task_set_task_data (task, g_atomic_rc_box_acquire (sw), (GDestroyNotify) switching_unref);
  g_task_run_in_thread (task, switch_thread_cb);
}

/* A turn of a switch of an edited graph: its code made by the document's
 * job (by steps), then copied a megabyte a step for about
 * SWITCH_COPY_USEC, then the worker started.  The graph does not change
 * meanwhile: what would change it ends the switch first (switched()). */
#define SWITCH_COPY_USEC  4000
#define SWITCH_COPY_CHUNK (1 << 20)

static gboolean
switch_copy_cb (gpointer user_data)
{
  GraftDocument  *self = user_data;
  GraftSwitching *sw = self->switching;
  const char     *code = self->code;
  gsize           chunk = switch_copy_step > 0 ? switch_copy_step : SWITCH_COPY_CHUNK;
  gint64          start = g_get_monotonic_time ();

  if (code == NULL)
    {
      _graft_document_code_begin (self);
      return G_SOURCE_CONTINUE;
    }
  do
    {
      if (_graft_code_copy_step (&sw->code, code, chunk))
        {
          sw->turn = 0;
          switch_start_worker (self);
          return G_SOURCE_REMOVE;
        }
    }
  while (switch_copy_step == 0 && g_get_monotonic_time () - start < SWITCH_COPY_USEC);
  return G_SOURCE_CONTINUE;
}

/**
 * graft_document_begin_set_dialect:
 * @self: a document
 * @dialect: the torch to speak
 *
 * graft_document_set_dialect() with the graph read on a worker thread: a
 * million-node program takes seconds to read.  Until ::switched, the
 * document is as it was (graft_document_get_switching()); anything that
 * reads or changes it meanwhile (graft_document_settle()) waits for the
 * worker and ends the switch first, as one done at once.
 *
 * Returns: %TRUE if the switch is under way (::switched ends it),
 *   %FALSE if there was nothing to read: done, or nothing to do
 */
gboolean
graft_document_begin_set_dialect (GraftDocument      *self,
                                  const GraftDialect *dialect)
{
  GraftSwitching *sw;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (dialect != NULL, FALSE);
  _graft_document_settle (self);

  if (dialect == self->dialect || switch_empty (self, dialect))
    return FALSE;
  sw = g_atomic_rc_box_new0 (GraftSwitching);
  g_mutex_init (&sw->lock);
  g_cond_init (&sw->cond);
  sw->dialect = dialect;
  self->switching = sw;
  if (self->source != NULL && graph_is_as_read (self))
    {
      sw->source = graft_source_ref (self->source);
      sw->entry = g_strdup (self->entry);
      switch_start_worker (self);
      return TRUE;
    }
  /* Edited: read from its code, which at a million nodes took 161-363
   * ms to make at once and as much to make a file of, in one turn. */
  sw->name = g_strdup_printf ("%s (edited)", self->title);
  if (switch_copy_cb (self) == G_SOURCE_CONTINUE)
    sw->turn = graft_turns_add (switch_copy_cb, g_object_ref (self), g_object_unref);
  return TRUE;
}

/**
 * graft_document_get_switching:
 * @self: a document
 *
 * Returns: whether a switch of torch is under way
 *   (graft_document_begin_set_dialect())
 */
gboolean
graft_document_get_switching (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  return self->switching != NULL;
}

/* Deletes the nodes of @chosen that nothing outside them uses, as one
 * undoable edit recorded as @names (with @ranks, which node of each name,
 * or NULL: every node of each; both taken). */
static guint
delete_chosen (GraftDocument *self,
               GHashTable    *chosen,
               GStrv          names,
               GArray        *ranks,
               GError       **error)
{
  g_autofree char *before = NULL;
  GraftEdit       *edit;
  guint            n = 0;

  /* Known or not, as for a rewrite (_graft_document_apply_rewrite()). */
  before = g_steal_pointer (&self->code);
  graft_graph_begin_edit (self->graph);
  /* Users come after what they use: going backwards, a chain of chosen
   * nodes goes whole. */
  for (GraftNode *node = graft_graph_get_last (self->graph), *prev; node != NULL; node = prev)
    {
      prev = graft_node_get_prev (node);
      if (g_hash_table_contains (chosen, node) && graft_node_get_n_users (node) == 0)
        {
          graft_graph_erase_node (self->graph, node);
          n++;
        }
    }
  edit = graft_graph_end_edit (self->graph);
  if (n == 0)
    {
      graft_edit_free (edit);
      self->code = g_steal_pointer (&before);
      g_strfreev (names);
      g_clear_pointer (&ranks, g_array_unref);
      g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_SELECTION,
                           "the selected nodes are used by other nodes");
      return 0;
    }
  {
    g_autofree char *label = g_strdup_printf ("Delete %u node%s", n, n == 1 ? "" : "s");
    HistoryEntry    *entry = _graft_document_new_entry (GRAFT_STEP_DELETE);

    entry->edit = edit;
    entry->names = names;
    entry->ranks = ranks;
    entry->n_replaced = n;
    g_ptr_array_set_size (self->warnings, 0);
    g_ptr_array_set_size (self->added_names, 0);
    /* Taking nodes out never breaks the code (graft_codegen_check_module_added()):
     * the graph after holds it if the graph before did. */
    self->code_holds_next = self->pushed_unchanged == 0 && _graft_document_code_holds (self);
    self->rewrite_ok_next = self->pushed_unchanged == 0 && _graft_document_rewrite_ok (self);
    push_entry (self, entry, label, g_steal_pointer (&before));
  }
  return n;
}

/**
 * graft_document_delete_nodes:
 * @self: a document
 * @names: (array zero-terminated=1): names of nodes to delete
 * @error: return location for an error
 *
 * Deletes the named nodes that nothing outside them uses (not the output),
 * as one undoable edit: of two nodes of one name, both.
 * graft_document_delete_graph_nodes() deletes the nodes given.
 *
 * Returns: how many nodes were deleted; 0 with @error set when none could be
 */
guint
graft_document_delete_nodes (GraftDocument     *self,
                             const char *const *names,
                             GError           **error)
{
  g_autoptr (GHashTable) chosen = g_hash_table_new (NULL, NULL);
  g_autoptr (GPtrArray) nodes = g_ptr_array_new ();

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), 0);
  _graft_document_settle (self);

  /* Every node of a name two share. */
  graft_graph_find_nodes (self->graph, names, nodes);
  for (guint i = 0; i < nodes->len; i++)
    if (graft_node_get_op (nodes->pdata[i]) != GRAFT_OP_OUTPUT)
      g_hash_table_add (chosen, nodes->pdata[i]);
  return delete_chosen (self, chosen, g_strdupv ((char **) names), NULL, error);
}

/**
 * graft_document_delete_graph_nodes:
 * @self: a document
 * @nodes: (element-type GraftNode): nodes of its graph, each once
 * @error: return location for an error
 *
 * graft_document_delete_nodes() of these nodes alone: of two nodes of one
 * name (a program's copy named as the program's node), the one given.
 * The history (and a session) keeps each node's name and, where two
 * nodes share a name, its rank among them in graph order.
 *
 * Returns: how many nodes were deleted; 0 with @error set when none could be
 */
guint
graft_document_delete_graph_nodes (GraftDocument *self,
                                   GPtrArray     *nodes,
                                   GError       **error)
{
  g_autoptr (GHashTable) chosen = g_hash_table_new (NULL, NULL);
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();
  GArray *ranks = NULL;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), 0);
  g_return_val_if_fail (nodes != NULL, 0);
  _graft_document_settle (self);

  for (guint i = 0; i < nodes->len; i++)
    if (graft_node_get_op (nodes->pdata[i]) != GRAFT_OP_OUTPUT)
      g_hash_table_add (chosen, nodes->pdata[i]);
  if (G_UNLIKELY (graft_graph_has_shared_names (self->graph)))
    {
      /* In graph order, each with its rank among the nodes of its name. */
      g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

      ranks = g_array_new (FALSE, FALSE, sizeof (guint));
      for (GraftNode *node = graft_graph_get_first (self->graph); node != NULL;
           node = graft_node_get_next (node))
        {
          const char *name = graft_node_get_name (node);
          guint       rank = GPOINTER_TO_UINT (g_hash_table_lookup (seen, name));

          g_hash_table_insert (seen, (gpointer) name, GUINT_TO_POINTER (rank + 1));
          if (g_hash_table_contains (chosen, node))
            {
              g_strv_builder_add (names, name);
              g_array_append_val (ranks, rank);
            }
        }
    }
  else
    for (guint i = 0; i < nodes->len; i++)
      if (g_hash_table_contains (chosen, nodes->pdata[i]))
        g_strv_builder_add (names, graft_node_get_name (nodes->pdata[i]));
  return delete_chosen (self, chosen, g_strv_builder_end (names), ranks, error);
}

/**
 * _graft_document_delete_ranked:
 * @self: a document
 * @names: (array zero-terminated=1): names of nodes to delete
 * @ranks: (nullable) (element-type guint): per name, which node of it
 *   (its rank among the nodes of that name in graph order), or %NULL:
 *   every node of each name
 * @error: return location for an error
 *
 * Deletes again what graft_document_delete_graph_nodes() recorded (a
 * session's step).
 *
 * Returns: how many nodes were deleted; 0 with @error set when none could be
 */
guint
_graft_document_delete_ranked (GraftDocument     *self,
                               const char *const *names,
                               GArray            *ranks,
                               GError           **error)
{
  g_autoptr (GHashTable) chosen = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) wanted = NULL;
  g_autoptr (GHashTable) seen = NULL;

  if (ranks == NULL)
    return graft_document_delete_nodes (self, names, error);
  _graft_document_settle (self);
  /* Name -> the ranks wanted, as a list of (rank + 1). */
  wanted = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_array_unref);
  seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; names[i] != NULL && i < ranks->len; i++)
    {
      GArray *list = g_hash_table_lookup (wanted, names[i]);

      if (list == NULL)
        g_hash_table_insert (wanted, (gpointer) names[i],
                             list = g_array_new (FALSE, FALSE, sizeof (guint)));
      g_array_append_val (list, g_array_index (ranks, guint, i));
    }
  for (GraftNode *node = graft_graph_get_first (self->graph); node != NULL;
       node = graft_node_get_next (node))
    {
      const char *name = graft_node_get_name (node);
      GArray     *list = g_hash_table_lookup (wanted, name);
      guint       rank;

      if (list == NULL)
        continue;
      rank = GPOINTER_TO_UINT (g_hash_table_lookup (seen, name));
      g_hash_table_insert (seen, (gpointer) name, GUINT_TO_POINTER (rank + 1));
      for (guint k = 0; k < list->len; k++)
        if (g_array_index (list, guint, k) == rank && graft_node_get_op (node) != GRAFT_OP_OUTPUT)
          g_hash_table_add (chosen, node);
    }
  /* A node the step names that the graph lacks (a session edited by hand
   * or of another file) is said as such, not as nodes in use. */
  for (guint i = 0; names[i] != NULL && i < ranks->len; i++)
    {
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (seen, names[i]));
      guint rank = g_array_index (ranks, guint, i);

      if (rank < n)
        continue;
      if (n == 0)
        g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_SELECTION, "the graph has no node '%s'",
                     names[i]);
      else
        g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_SELECTION,
                     "no node '%s' of rank %u: the graph has %u of that name", names[i], rank, n);
      return 0;
    }
  return delete_chosen (self, chosen, g_strdupv ((char **) names), g_array_ref (ranks), error);
}

/**
 * graft_document_replace:
 * @self: a document
 * @match: a match number
 * @error: return location for an error
 *
 * Replaces match @match alone, with `replace_pattern`'s rules.
 *
 * Returns: %TRUE if the graph was rewritten
 */
gboolean
graft_document_replace (GraftDocument *self,
                        guint          match,
                        GError       **error)
{
  g_autoptr (GPtrArray) one = g_ptr_array_new ();
  g_autofree char *label = NULL;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  _graft_document_settle (self);
  _graft_document_ensure_matches (self);
  g_return_val_if_fail (match < self->matches->len, FALSE);

  if (!check_ready (self, error))
    return FALSE;
  g_ptr_array_add (one, self->matches->pdata[match]);
  label = g_strdup_printf ("Replace match %u", match + 1);
  return apply (self, one, (gint) match, label, error);
}

/* The chosen rule's matches, all of them, borrowed: they die when the
 * rewrite finds new ones. */
static GPtrArray *
dup_all_matches (GraftDocument *self)
{
  GPtrArray *all = g_ptr_array_sized_new (self->matches->len);

  for (guint i = 0; i < self->matches->len; i++)
    g_ptr_array_add (all, self->matches->pdata[i]);
  return all;
}

/**
 * graft_document_replace_all:
 * @self: a document
 * @error: return location for an error
 *
 * `replace_pattern(gm, pattern, replacement)`: replaces every match.
 *
 * Returns: %TRUE if the graph was rewritten (also with no match)
 */
gboolean
graft_document_replace_all (GraftDocument *self,
                            GError       **error)
{
  GraftRewriting *rw;
  guint           n;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  _graft_document_ensure_matches (self);

  if (!check_ready (self, error))
    return FALSE;
  if (self->matches->len == 0)
    return TRUE;
  rw = rewriting_new (self, _graft_document_get_selected (self), dup_all_matches (self),
                      new_rule_entry (self, -1), "Replace all");
  return rewriting_end (self, rw, &n, error);
}

/**
 * graft_document_begin_replace_all:
 * @self: a document
 * @error: return location for an error
 *
 * graft_document_replace_all() over the main-loop turns to come, a few
 * milliseconds of rewriting a turn (graft-turns.c; no other deferred work
 * runs meanwhile); a rewrite that takes no more than the first few
 * milliseconds is over before this returns.  Until it is over the document shows the graph, its
 * matches and the history as they were; whatever reads or changes the
 * graph, the matches, the rules or the history meanwhile finishes it at
 * once first (_graft_document_settle()), so nothing ever sees a
 * half-rewritten graph.  ::replaced-all says when it is over and how it
 * went; freeing the document meanwhile gives the graph back as it was.
 *
 * Returns: %TRUE if the rewrite began; %FALSE with @error set if it cannot
 *   (the rule has errors), or with no error if there is no match
 */
gboolean
graft_document_begin_replace_all (GraftDocument *self,
                                  GError       **error)
{
  gint64 start;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  _graft_document_ensure_matches (self);

  if (!check_ready (self, error))
    return FALSE;
  if (self->matches->len == 0)
    return FALSE;
  start = _graft_document_thread_time ();
  self->rewriting = rewriting_new (self, _graft_document_get_selected (self),
                                   dup_all_matches (self), new_rule_entry (self, -1),
                                   "Replace all");
  /* A first step now: the rewrite of a small graph is over at once. */
  rewriting_some (self, start);
  if (self->rewriting->stepped)
    replaced_all (self);
  else
    self->rewrite_job = graft_turns_add_alone (rewrite_step_cb, self, NULL);
  return TRUE;
}

/**
 * graft_document_get_warnings:
 * @self: a document
 *
 * Returns: (transfer none) (element-type utf8): what the last rewrite
 *   warned about (the insertion-point hazard)
 */
GPtrArray *
graft_document_get_warnings (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  return self->warnings;
}

/**
 * graft_document_get_added_names:
 * @self: a document
 *
 * Returns: (transfer none) (element-type utf8): the names of the nodes the
 *   last rewrite added
 */
GPtrArray *
graft_document_get_added_names (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  return self->added_names;
}

/* The newest applied change of the graph (not of the rule set) at or
 * before @position, or NULL. */
static HistoryEntry *
last_graph_change (GraftDocument *self,
                   guint          position)
{
  for (guint i = position; i > 0; i--)
    {
      HistoryEntry *entry = self->history->pdata[i - 1];

      if (entry->rules == NULL)
        return entry;
    }
  return NULL;
}

/**
 * graft_document_dup_last_change:
 * @self: a document
 * @out_label: (out) (optional) (transfer none): what the change was
 *
 * Returns: (transfer full) (nullable): the graph's code before the most
 *   recent change of the graph that is applied, or %NULL if none is
 */
char *
graft_document_dup_last_change (GraftDocument *self,
                                const char   **out_label)
{
  HistoryEntry *entry;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  _graft_document_settle (self);
  entry = last_graph_change (self, self->position);
  if (entry == NULL)
    return NULL;
  /* A run of the rules records its steps without their code: it is made
   * when asked for, the step undone for a moment. */
  if (entry->before == NULL && entry->edit == NULL && entry->switch_dialect)
    entry->before = g_string_free (graft_codegen_module_code_string (entry->graph), FALSE);
  if (entry->before == NULL && entry->edit != NULL)
    {
      _graft_document_code_drop (self);
      graft_edit_undo (entry->edit);
      /* The graph of the moment: not the revision's, whose check is kept. */
      entry->before = g_string_free (graft_codegen_module_code_string (self->graph), FALSE);
      graft_edit_redo (entry->edit);
    }
  if (out_label != NULL)
    *out_label = entry->label;
  return g_strdup (entry->before);
}

/**
 * graft_document_get_last_change_serial:
 * @self: a document
 *
 * Each change of the history has a serial number of its own, never given
 * again to another change of this document, even after an undo, a new
 * change or a new file.  A button that undoes "this change" keeps it and
 * compares.
 *
 * Returns: the serial of the most recent change that is applied (the one
 *   graft_document_undo() would undo), or 0 if none is
 */
guint
graft_document_get_last_change_serial (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), 0);
  if (self->position == 0)
    return 0;
  return ((HistoryEntry *) self->history->pdata[self->position - 1])->serial;
}

gboolean
graft_document_get_can_undo (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  return self->position > 0;
}

gboolean
graft_document_get_can_redo (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  return self->position < self->history->len;
}

/* Undoes or redoes @entry's change of the graph or of the rules. */
static void
step (GraftDocument *self,
      HistoryEntry  *entry,
      gboolean       redo)
{
  GraftGraph *other;

  if (entry->rules != NULL)
    {
      _graft_rules_change_apply (self, entry->rules, redo);
      return;
    }
  if (entry->edit != NULL)
    {
      if (redo)
        graft_edit_redo (entry->edit);
      else
        graft_edit_undo (entry->edit);
      return;
    }
  other = entry->graph;
  entry->graph = self->graph;
  self->graph = other;
  {
    GraftSource *source = entry->source;
    GError      *error = entry->load_error;

    entry->source = self->source;
    entry->load_error = self->load_error;
    self->source = source;
    self->load_error = error;
  }
  /* A switch of dialect undone or redone: the graph's torch is the
   * document's again. */
  if (graft_graph_get_dialect (self->graph) != self->dialect)
    speak (self, graft_graph_get_dialect (self->graph));
}

/* Before a move in the history: what the check said of the graph now is
 * kept by the changes on either side of the position. */
static void
note_code_holds (GraftDocument *self)
{
  if (self->pushed_unchanged > 0 || !_graft_document_code_holds (self))
    return;
  if (self->position > 0)
    ((HistoryEntry *) self->history->pdata[self->position - 1])->holds_after = TRUE;
  if (self->position < self->history->len)
    ((HistoryEntry *) self->history->pdata[self->position])->holds_before = TRUE;
}

/* After a move in the history: whether the graph at the position was
 * known to hold its code (then not checked again: 20 ms at a million
 * nodes). */
static gboolean
position_code_holds (GraftDocument *self)
{
  return (self->position > 0 &&
          ((HistoryEntry *) self->history->pdata[self->position - 1])->holds_after) ||
         (self->position < self->history->len &&
          ((HistoryEntry *) self->history->pdata[self->position])->holds_before);
}

/* After @entry was undone (@redo FALSE) or redone: what follows. */
static void
stepped (GraftDocument *self,
         HistoryEntry  *entry,
         gboolean       redo)
{
  g_ptr_array_set_size (self->warnings, 0);
  g_ptr_array_set_size (self->added_names, 0);
  notify_history (self);
  if (entry->rules != NULL)
    {
      /* The graph is as it was; the rules did their own notifying. */
      _graft_document_update_next (self);
      return;
    }
  self->code_holds_next = position_code_holds (self);
  if (!redo)
    {
      /* Undone, the graph is what it was before the edit, code and all. */
      graph_changed_with_code (self, g_strdup (entry->before));
      return;
    }
  /* The next edit, if any, recorded the code this one left. */
  graph_changed_with_code (self,
                           self->position < self->history->len
                               ? g_strdup (((HistoryEntry *) self->history->pdata[self->position])
                                               ->before)
                               : NULL);
}

/**
 * graft_document_undo:
 * @self: a document
 *
 * Undoes the last change: a rewrite, a step of the rules, a change of the
 * rule set; of a Run All, its last step (the window undoes the run whole:
 * graft_document_get_undo_position()).
 *
 * Returns: (nullable): what was undone, or %NULL if nothing was
 */
const char *
graft_document_undo (GraftDocument *self)
{
  HistoryEntry *entry;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  _graft_document_settle (self);

  if (self->position == 0)
    return NULL;
  note_code_holds (self);
  g_object_freeze_notify (G_OBJECT (self));
  entry = self->history->pdata[--self->position];
  step (self, entry, FALSE);
  stepped (self, entry, FALSE);
  g_object_thaw_notify (G_OBJECT (self));
  return entry->label;
}

/**
 * graft_document_redo:
 * @self: a document
 *
 * Applies again the last change that was undone.
 *
 * Returns: (nullable): what was redone, or %NULL if nothing was
 */
const char *
graft_document_redo (GraftDocument *self)
{
  HistoryEntry *entry;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  _graft_document_settle (self);

  if (self->position >= self->history->len)
    return NULL;
  note_code_holds (self);
  g_object_freeze_notify (G_OBJECT (self));
  entry = self->history->pdata[self->position++];
  step (self, entry, TRUE);
  stepped (self, entry, TRUE);
  g_object_thaw_notify (G_OBJECT (self));
  return entry->label;
}

/**
 * graft_document_get_undo_position:
 * @self: a document
 *
 * Where the user's undo goes: one change back, or, when that change is a
 * step of a Run All, to before the run (its steps are one change to the
 * user, though the History lists each; from the middle of a run, its
 * start).  graft_document_undo() undoes one step.
 *
 * Returns: the position an undo goes to; the position itself when
 *   there is nothing to undo
 */
guint
graft_document_get_undo_position (GraftDocument *self)
{
  guint position;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), 0);
  position = self->position;
  if (position == 0)
    return 0;
  position--;
  while (position > 0 && ((HistoryEntry *) self->history->pdata[position])->joined)
    position--;
  return position;
}

/**
 * graft_document_get_redo_position:
 * @self: a document
 *
 * Where the user's redo goes: one change on, or to the end of the Run
 * All that change begins (or is in).
 *
 * Returns: the position a redo goes to; the position itself when there
 *   is nothing to redo
 */
guint
graft_document_get_redo_position (GraftDocument *self)
{
  guint position;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), 0);
  position = self->position;
  if (position >= self->history->len)
    return position;
  position++;
  while (position < self->history->len &&
         ((HistoryEntry *) self->history->pdata[position])->joined)
    position++;
  return position;
}

/**
 * graft_document_get_history_length:
 * @self: a document
 *
 * Returns: how many changes the history holds, applied or undone
 */
guint
graft_document_get_history_length (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), 0);
  return self->history->len;
}

/**
 * graft_document_get_history_label:
 * @self: a document
 * @i: a change of the history, from 0
 *
 * Returns: what the history calls change @i (for a step of the rules,
 *   `pass 1 · relu_add → clamp_add · 3 matches`)
 */
const char *
graft_document_get_history_label (GraftDocument *self,
                                  guint          i)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (i < self->history->len, NULL);
  return ((HistoryEntry *) self->history->pdata[i])->label;
}

/**
 * graft_document_get_history_match:
 * @self: a document
 * @i: a change of the history, from 0
 *
 * Returns: the match change @i replaced alone (graft_document_replace(),
 *   not a step of the rules' loop) when the rule chosen now has the
 *   pattern and replacement it had then; else -1
 */
gint
graft_document_get_history_match (GraftDocument *self,
                                  guint          i)
{
  HistoryEntry *entry;
  GraftRule    *rule;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), -1);
  g_return_val_if_fail (i < self->history->len, -1);
  entry = self->history->pdata[i];
  if (entry->kind != GRAFT_STEP_RULE || entry->looped || entry->match < 0)
    return -1;
  rule = _graft_document_get_selected (self);
  if (g_strcmp0 (entry->pattern_text, graft_rule_get_pattern_text (rule)) != 0 ||
      g_strcmp0 (entry->replacement_text, graft_rule_get_replacement_text (rule)) != 0)
    return -1;
  return entry->match;
}

/**
 * graft_document_get_position:
 * @self: a document
 *
 * Returns: how many changes of the history are applied: 0 for the graph as
 *   read, graft_document_get_history_length() after the newest
 */
guint
graft_document_get_position (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), 0);
  return self->position;
}

/* After a move in the history from position @from to self->position
 * (changes of the graph among them if @graph_moved): what follows. */
static void
went_to (GraftDocument *self,
         guint          from,
         gboolean       graph_moved)
{
  guint position = self->position;

  g_ptr_array_set_size (self->warnings, 0);
  g_ptr_array_set_size (self->added_names, 0);
  notify_history (self);
  if (graph_moved)
    {
      HistoryEntry *after = position < self->history->len ? self->history->pdata[position] : NULL;

      /* Going back, the change after the position recorded the code
       * before it, which is the code now; going forward too. */
      self->code_holds_next = position_code_holds (self);
      graph_changed_with_code (self, after != NULL && from != position ? g_strdup (after->before)
                                                                       : NULL);
    }
  else
    _graft_document_update_next (self);
}

/**
 * graft_document_go_to:
 * @self: a document
 * @position: a position of the history (see graft_document_get_position())
 *
 * Undoes or redoes changes until @position changes are applied: the
 * document is then as it was after the change @position - 1 (as read, for
 * 0).  Nothing is copied; each change is undone or redone in turn, and the
 * graph changes once.
 */
void
graft_document_go_to (GraftDocument *self,
                      guint          position)
{
  gboolean graph_moved = FALSE;
  guint    from;

  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  g_return_if_fail (position <= self->history->len);
  _graft_document_settle (self);

  if (position == self->position)
    return;
  from = self->position;
  note_code_holds (self);
  g_object_freeze_notify (G_OBJECT (self));
  while (self->position > position)
    {
      HistoryEntry *entry = self->history->pdata[--self->position];

      step (self, entry, FALSE);
      graph_moved |= entry->rules == NULL;
    }
  while (self->position < position)
    {
      HistoryEntry *entry = self->history->pdata[self->position++];

      step (self, entry, TRUE);
      graph_moved |= entry->rules == NULL;
    }
  went_to (self, from, graph_moved);
  g_object_thaw_notify (G_OBJECT (self));
}

/* For a test: when not 0, each turn of a move by steps replays this much
 * (_graft_document_set_move_step()). */
static guint move_step_work;

/**
 * _graft_document_set_move_step:
 * @work: the operations a turn of a move replays, or 0 for the usual time
 *   budget
 *
 * Makes moves by steps (graft_document_begin_go_to()) go by a fixed amount
 * of work a turn, so that a test knows a small graph's undo takes many
 * turns.
 */
void
_graft_document_set_move_step (guint work)
{
  move_step_work = work;
}

/**
 * _graft_document_replay:
 * @self: a document
 * @at: (inout): the history position the graph is at
 * @to: the position to take it to
 * @work: operations replayed between two looks at @clock
 * @each: stop at every look, whatever @clock says (a test's steps)
 * @clock: the clock @deadline is in
 * @deadline: when to stop, or 0 for all at once
 *
 * Undoes or redoes, in place, the edits from *@at towards @to until
 * @deadline has passed, looked at every @work operations.  An edit begun
 * is finished in the same direction before *@at moves: a replay stopped
 * half-way goes on towards the same @to.  The document's moves in its
 * history and the visits of Compare Graphs and Show Changes replay so.
 *
 * Returns: whether the graph is at @to (*@at == @to, no edit half-way)
 */
gboolean
_graft_document_replay (GraftDocument *self,
                        guint         *at,
                        guint          to,
                        guint          work,
                        gboolean       each,
                        gint64 (*clock) (void),
                        gint64 deadline)
{
  gboolean unbounded = deadline == 0;

  if (unbounded)
    work = G_MAXUINT;
  while (*at != to)
    {
      gboolean      back = *at > to;
      HistoryEntry *entry = self->history->pdata[back ? *at - 1 : *at];

      if (entry->edit != NULL &&
          !(back ? graft_edit_undo_step (entry->edit, work)
                 : graft_edit_redo_step (entry->edit, work)))
        {
          if (!unbounded && (each || clock () >= deadline))
            return FALSE;
          continue;
        }
      *at = back ? *at - 1 : *at + 1;
      if (entry->edit != NULL && !unbounded && *at != to && (each || clock () >= deadline))
        return FALSE;
    }
  return TRUE;
}

/* Replays the edits of the move under way, towards self->move_to, for
 * about _GRAFT_DOCUMENT_STEP_USEC of processor time from @start (thread_time()),
 * or all of them (@unbounded).  The other changes (of the rules, a graph
 * swapped) wait for its end: an edit replays on its own graph, so the
 * order between them does not matter.
 *
 * Returns: whether every edit of the move is replayed */
static gboolean
move_some (GraftDocument *self,
           gint64         start,
           gboolean       unbounded)
{
  return _graft_document_replay (self, &self->move_at, self->move_to,
                                 move_step_work > 0 ? move_step_work : _GRAFT_DOCUMENT_STEP_WORK,
                                 move_step_work > 0, _graft_document_thread_time,
                                 unbounded ? 0 : start + _GRAFT_DOCUMENT_STEP_USEC);
}

/* Ends the move under way, its edits replayed: the other changes, then
 * the position, the code and the notifications, as graft_document_go_to(),
 * and ::moved. */
static void
moved (GraftDocument *self)
{
  guint    from = self->position;
  guint    to = self->move_to;
  gboolean graph_moved = FALSE;

  g_assert (self->moving && self->move_at == to);
  self->moving = FALSE;
  self->move_replayed = FALSE;
  graft_turns_remove (self->move_job);
  self->move_job = 0;
  g_object_freeze_notify (G_OBJECT (self));
  while (self->position > to)
    {
      HistoryEntry *entry = self->history->pdata[--self->position];

      if (entry->edit == NULL)
        step (self, entry, FALSE);
      graph_moved |= entry->rules == NULL;
    }
  while (self->position < to)
    {
      HistoryEntry *entry = self->history->pdata[self->position++];

      if (entry->edit == NULL)
        step (self, entry, TRUE);
      graph_moved |= entry->rules == NULL;
    }
  went_to (self, from, graph_moved);
  g_object_thaw_notify (G_OBJECT (self));
  g_signal_emit (self, signals[SIGNAL_MOVED], 0, from, to);
}

/* A turn of a move by steps: its edits for about _GRAFT_DOCUMENT_STEP_USEC, then,
 * in a turn of its own, its end. */
static gboolean
move_step_cb (gpointer user_data)
{
  GraftDocument *self = user_data;

  if (self->move_replayed)
    {
      /* moved() removes this job: from inside its step, once it returns. */
      moved (self);
      return G_SOURCE_REMOVE;
    }
  self->move_replayed = move_some (self, _graft_document_thread_time (), FALSE);
  return G_SOURCE_CONTINUE;
}

/**
 * graft_document_begin_go_to:
 * @self: a document
 * @position: a position of the history (see graft_document_get_position())
 *
 * graft_document_go_to() over the main-loop turns to come: the edits to
 * undo or redo are replayed a few milliseconds a turn (graft-turns.c; no
 * other deferred work runs meanwhile), and a move that takes no more than
 * the first few milliseconds is over before this returns.  Until it is
 * over the document shows the graph, its matches and the history as they
 * were (its position, can-undo, modified); whatever reads or changes the
 * graph, the matches, the rules or the history meanwhile finishes the move
 * at once first (_graft_document_settle()), so that an undo, an edit or a
 * save meanwhile comes after it.  ::moved says when it is over; freeing
 * the document meanwhile stops it where it is.
 *
 * Returns: whether a move began (%FALSE: the document is at @position)
 */
gboolean
graft_document_begin_go_to (GraftDocument *self,
                            guint          position)
{
  gint64 start;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (position <= self->history->len, FALSE);
  _graft_document_settle (self);

  if (position == self->position)
    return FALSE;
  start = _graft_document_thread_time ();
  note_code_holds (self);
  self->moving = TRUE;
  self->move_to = position;
  self->move_at = self->position;
  /* A first step now: a small change is undone or redone at once. */
  if (move_some (self, start, FALSE))
    moved (self);
  else
    self->move_job = graft_turns_add_alone (move_step_cb, self, NULL);
  return TRUE;
}

/**
 * graft_document_get_moving:
 * @self: a document
 *
 * Returns: whether a move in the history is under way
 *   (graft_document_begin_go_to()); the document shows the graph and the
 *   history as they were before it until ::moved
 */
gboolean
graft_document_get_moving (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  return self->moving;
}

/**
 * graft_document_get_holding:
 * @self: a document
 *
 * Returns: whether work holds the graph over turns: a switch of torch, a
 *   Replace All, a Run All or a move in the history by steps, or a
 *   comparison holding the graph elsewhere in the history (Show Changes
 *   or Compare Graphs making the code before a change): what
 *   _graft_document_settle() would finish at once
 */
gboolean
graft_document_get_holding (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  return self->switching != NULL || self->away_back != NULL || self->rewriting != NULL ||
         self->running != NULL || self->moving;
}

/**
 * graft_document_dup_code:
 * @self: a document
 *
 * Returns: (transfer full): the graph's code, as `graft code` prints it
 */
char *
graft_document_dup_code (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  _graft_document_settle (self);
  return g_strdup (graft_document_get_code (self));
}

/**
 * graft_document_get_code:
 * @self: a document
 *
 * The code is generated once per change of the graph, on first request
 * (opening a file of up to 200,000 nodes generates it on the worker that
 * reads the file).
 *
 * Returns: (transfer none): the graph's code, as `graft code` prints it,
 *   valid until the next change
 */
const char *
graft_document_get_code (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  _graft_document_settle (self);
  if (self->code == NULL)
    {
      /* A job in steps on this graph is finished rather than started over. */
      if (self->codegen != NULL && self->codegen_revision == self->revision)
        self->code = graft_codegen_job_finish (g_steal_pointer (&self->codegen));
      else
        self->code = _graft_document_make_code (self);
      _graft_document_code_finish_now (self);
    }
  return self->code;
}

/**
 * graft_document_peek_code:
 * @self: a document
 *
 * Unlike graft_document_get_code(), makes nothing and finishes nothing.
 *
 * Returns: (transfer none) (nullable): the code graft_document_get_code()
 *   returned last, if the document still holds it (as it does until the
 *   graph changes; the same text, not always at the same address), or
 *   %NULL
 */
const char *
graft_document_peek_code (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  return self->code;
}

static gboolean
write_file (GFile      *file,
            const char *data,
            gsize       length,
            GError    **error)
{
  g_autofree char *path = g_file_get_path (file);

  if (path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           "only local files can be written");
      return FALSE;
    }
  return graft_output_write_file (path, data, length, error);
}

/**
 * graft_document_code_to_file_text:
 * @code: a graph's code, as graft_document_get_code() returns it
 *
 * The code is torch's text (what `graft code` prints), which opens with
 * three blank lines and ends with the indentation of a next line; a file
 * is tidied as a Python file is: the imports, two blank lines, the code
 * without trailing whitespace on any line, one final newline.  Whitespace
 * at the ends of lines means nothing to Python, so the file reads back
 * into the same graph.  It touches no document: any thread can call it
 * (the autosave's does).
 *
 * Returns: (transfer full): the graph as a Python file Graft reads back
 *   into the same graph: the imports its code needs, then the code
 */
char *
graft_document_code_to_file_text (const char *code)
{
  GString    *out = g_string_new ("import torch\n");
  gboolean    started = FALSE;
  const char *line = code;

  g_return_val_if_fail (code != NULL, NULL);
  if (strstr (code, "operator.") != NULL)
    g_string_append (out, "import operator\n");
  if (strstr (code, "math.") != NULL)
    g_string_append (out, "import math\n");
  g_string_append (out, "\n\n");
  for (;;)
    {
      const char *nl = strchr (line, '\n');
      gsize       len = nl != NULL ? (gsize) (nl - line) : strlen (line);

      while (len > 0 && g_ascii_isspace (line[len - 1]))
        len--;
      if (started || len > 0)
        {
          started = TRUE;
          g_string_append_len (out, line, (gssize) len);
          g_string_append_c (out, '\n');
        }
      if (nl == NULL)
        break;
      line = nl + 1;
    }
  /* One final newline, not the blank lines of the last indentation. */
  while (out->len >= 2 && out->str[out->len - 1] == '\n' && out->str[out->len - 2] == '\n')
    g_string_truncate (out, out->len - 1);
  return g_string_free (out, FALSE);
}

/**
 * graft_document_dup_file_text:
 * @self: a document
 *
 * Returns: (transfer full): the graph as a Python file Graft reads back
 *   into the same graph (graft_document_code_to_file_text())
 */
char *
graft_document_dup_file_text (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  _graft_document_settle (self);
  return graft_document_code_to_file_text (graft_document_get_code (self));
}

/**
 * graft_document_dup_recovery:
 * @self: a document
 *
 * Returns: (transfer full): what an autosave keeps of @self: the graph as
 *   graft_document_dup_file_text() writes it, the pattern and the
 *   replacement
 */
GraftRecovery *
graft_document_dup_recovery (GraftDocument *self)
{
  GraftRecovery *recovery;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  _graft_document_settle (self);
  recovery = graft_document_dup_recovery_code (self);
  {
    char *text = graft_document_code_to_file_text (recovery->code);

    g_free (recovery->code);
    recovery->code = text;
  }
  if (recovery->session_draft != NULL)
    recovery->session = graft_session_draft_finish (g_steal_pointer (&recovery->session_draft));
  return recovery;
}

/**
 * graft_document_dup_recovery_code:
 * @self: a document
 *
 * Returns: (transfer full): graft_document_dup_recovery(), but with the
 *   graph's code as graft_document_get_code() returns it, for
 *   graft_autosave_write_code_take() to tidy on its thread
 */
GraftRecovery *
graft_document_dup_recovery_code (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  _graft_document_settle (self);
  return _graft_document_dup_recovery_take_code (self, g_strdup (graft_document_get_code (self)));
}

/**
 * _graft_document_dup_recovery_take_code:
 * @self: a document
 * @code: (transfer full): a copy of graft_document_get_code()'s text
 *
 * Returns: (transfer full): graft_document_dup_recovery_code() with @code,
 *   copied by the caller (the autosave copies a large graph's code over
 *   several turns)
 */
GraftRecovery *
_graft_document_dup_recovery_take_code (GraftDocument *self,
                                        char          *code)
{
  GraftRecovery *recovery;

  recovery = g_new0 (GraftRecovery, 1);
  recovery->code = code;
  recovery->pattern = g_strdup (graft_document_get_pattern_text (self));
  recovery->replacement = g_strdup (graft_document_get_replacement_text (self));
  /* The rules and the history are lost to a crash otherwise.  The input
   * is written into the session on the autosave thread. */
  if (graft_document_get_keeps_rules (self) && self->root_source != NULL)
    recovery->session_draft = graft_session_draft (self, NULL);
  return recovery;
}

/**
 * graft_document_save:
 * @self: a document
 * @file: where to write
 * @error: return location for an error
 *
 * Writes the graph as Python code (what `graft code` prints, after the
 * imports it needs, so Graft reads it back) and makes @file the document's
 * file.  A program whose code torch cannot compile
 * (graft_document_get_code_error()) is refused: its code is torch's empty
 * forward.
 *
 * Returns: %TRUE on success
 */
gboolean
graft_document_save (GraftDocument *self,
                     GFile         *file,
                     GError       **error)
{
  g_autofree char *code = NULL;
  const GError    *code_error;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  _graft_document_settle (self);

  /* Its code is torch's empty forward, which reads back as an empty
   * graph: a Python file cannot hold this graph. */
  code_error = _graft_document_code_error (self);
  if (code_error != NULL)
    {
      g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_GRAPH,
                   "torch cannot compile the graph's code, so no Python file holds it: %s",
                   code_error->message);
      return FALSE;
    }
  code = graft_document_dup_file_text (self);
  if (!write_file (file, code, strlen (code), error))
    return FALSE;
  set_file (self, file);
  self->saved = (gint) self->position;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
  return TRUE;
}

/* A save of the graph as code by graft_document_save_async(): work by
 * steps that holds the graph is waited for, then the code check learnt
 * by steps, then an export of the code (graft_export_new_graph_text())
 * copies the code by steps and writes the file on its worker; what the
 * document was when the save began, to mark it saved if it still is. */
typedef struct
{
  GraftDocument *document; /* Owned: let go on the main loop */
  GFile         *file;     /* Owned */
  GraftExport *export;     /* Owned, once the check is known */
  GTask   *task;           /* Owned: the caller's */
  guint    turn;           /* waiting or checking (graft-turns.c), or 0 */
  guint    revision;       /* the document's when the save began */
  guint    position;
  guint    serial; /* of the change before @position, or 0 */
  gboolean begun;
} CodeSave;

static void
code_save_free (CodeSave *save)
{
  g_clear_handle_id (&save->turn, graft_turns_remove);
  if (save->document->saving_export == save->export)
    save->document->saving_export = NULL;
  g_clear_object (&save->document);
  g_clear_object (&save->file);
  g_clear_object (&save->export);
  g_clear_object (&save->task);
  g_free (save);
}

/* Ends the save with @error (taken). */
static void
code_save_fail (CodeSave *save,
                GError   *error)
{
  g_task_return_error (save->task, error);
  code_save_free (save);
}

static GError *
graph_changed_error (void)
{
  return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                              "the graph changed while it was written");
}

/* Back on the main loop, the file renamed over the target: it is the
 * document's now, and the document is marked saved as it was when the
 * save began, if the history still holds that state. */
static void
code_saved_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  CodeSave      *save = user_data;
  GraftDocument *self = save->document;
  GError        *error = NULL;

  if (!graft_export_run_finish (GRAFT_EXPORT (object), result, &error))
    {
      if (graft_export_get_graph_changed (GRAFT_EXPORT (object)))
        {
          g_clear_error (&error);
          error = graph_changed_error ();
        }
      code_save_fail (save, error);
      return;
    }
  set_file (self, save->file);
  if (save->position <= self->history->len &&
      (save->position == 0 ||
       ((HistoryEntry *) self->history->pdata[save->position - 1])->serial == save->serial))
    self->saved = (gint) save->position;
  else
    self->saved = -1;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
  g_task_return_boolean (save->task, TRUE);
  code_save_free (save);
}

/* Until the save's export runs: waits for work by steps that holds the
 * graph to end, then learns by steps whether the graph holds its code. */
static gboolean
code_save_turn_cb (gpointer user_data)
{
  CodeSave      *save = user_data;
  GraftDocument *self = save->document;
  const GError  *code_error;

  if (graft_document_get_holding (self))
    {
      if (!save->begun)
        return G_SOURCE_CONTINUE;
      save->turn = 0;
      code_save_fail (save, graph_changed_error ());
      return G_SOURCE_REMOVE;
    }
  if (!save->begun)
    {
      save->begun = TRUE;
      save->revision = self->revision;
      save->position = self->position;
      save->serial = self->position > 0
                         ? ((HistoryEntry *) self->history->pdata[self->position - 1])->serial
                         : 0;
    }
  else if (self->revision != save->revision)
    {
      save->turn = 0;
      code_save_fail (save, graph_changed_error ());
      return G_SOURCE_REMOVE;
    }
  /* Whether the graph holds its code: a walk of the whole graph (30-40
   * ms at a million nodes), by steps when not known yet. */
  if (self->load_error == NULL && !_graft_document_learn_code_holds (self, FALSE))
    return G_SOURCE_CONTINUE;
  save->turn = 0;
  /* Its code is torch's empty forward, which reads back as an empty
   * graph: a Python file cannot hold this graph. */
  code_error = _graft_document_code_error (self);
  if (code_error != NULL)
    {
      code_save_fail (save, g_error_new (GRAFT_ERROR, GRAFT_ERROR_GRAPH,
                                         "torch cannot compile the graph's code, so no Python "
                                         "file holds it: %s",
                                         code_error->message));
      return G_SOURCE_REMOVE;
    }
  /* Of the graph as it is now: a change while the code is made or
   * copied cancels it. */
  save->export = graft_export_new_graph_text (self, save->file, GRAFT_FORMAT_CODE, FALSE);
  self->saving_export = save->export;
  graft_export_run_async (save->export, code_saved_cb, save);
  return G_SOURCE_REMOVE;
}

/**
 * _graft_document_get_saving_export:
 * @self: a document
 *
 * For tests: the export of the save as code under way, once its code
 * check is known (graft_document_save_async()).
 *
 * Returns: (nullable) (transfer none): the GraftExport, or %NULL
 */
gpointer
_graft_document_get_saving_export (GraftDocument *self)
{
  return self->saving_export;
}

/**
 * graft_document_save_async:
 * @self: a document
 * @file: where to write
 * @callback: called on the main loop once the file is written, or not
 * @user_data: its data
 *
 * graft_document_save() over main-loop turns of a few milliseconds (at a
 * million nodes Save took one turn of 309-428 ms): a Replace All, a run,
 * a move in the history or a switch of torch under way is waited for,
 * the code check and the code are made by steps, copied by steps, made a
 * file and written on a worker (a temporary file beside @file, renamed
 * over it).  The file is of the graph when the save began: a change of
 * the graph meanwhile ends the save with %G_IO_ERROR_CANCELLED ("the
 * graph changed while it was written") and leaves @file as it was.  Once
 * written, @file is the document's, and the document is marked saved
 * where it was when the save began if the history still holds that state.
 */
void
graft_document_save_async (GraftDocument      *self,
                           GFile              *file,
                           GAsyncReadyCallback callback,
                           gpointer            user_data)
{
  CodeSave        *save;
  g_autofree char *path = NULL;

  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  g_return_if_fail (G_IS_FILE (file));

  save = g_new0 (CodeSave, 1);
  save->task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (save->task, graft_document_save_async);
  save->document = g_object_ref (self);
  save->file = g_object_ref (file);
  path = g_file_get_path (file);
  if (path == NULL)
    {
      code_save_fail (save, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                                 "only local files can be written"));
      return;
    }
  if (code_save_turn_cb (save) == G_SOURCE_CONTINUE)
    save->turn = graft_turns_add (code_save_turn_cb, save, NULL);
}

/**
 * graft_document_save_finish:
 * @self: a document
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Returns: whether the graph is written
 */
gboolean
graft_document_save_finish (GraftDocument *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * graft_document_dup_layout_marks:
 * @self: a document
 * @layout: a layout of the graph, possibly of an earlier revision
 *
 * Returns: (transfer full): for each graph node of @layout, the current
 *   match of the node of that name, or -1; for graft_render_draw()
 */
gint *
graft_document_dup_layout_marks (GraftDocument *self,
                                 GraftLayout   *layout)
{
  /* The matched nodes looked up in the layout (whose index of names the
   * runner's worker builds), not every node of the layout in the matches:
   * a million nodes have few matched.  In one go. */
  return _graft_document_layout_marks_finish (_graft_document_layout_marks_new (self, layout));
}

/* graft_document_dup_layout_marks() by steps: the matched nodes' names
 * (the graph's strings) and matches are taken from the lookup table at the
 * start, then looked up in the layout a few at a time.  A change of the
 * graph or of the matches meanwhile starts it again. */
struct _GraftLayoutMarks
{
  GraftDocument *document; /* Owned */
  GraftLayout   *layout;   /* Owned: a reference */
  gint          *marks;    /* Owned: per graph node of @layout */
  guint          n;        /* graph nodes of @layout */
  const char   **names;    /* Owned array: the matched nodes' names, the graph's */
  guint         *matches;  /* Owned: per name, its match + 1 */
  guint          n_names;
  guint          next;     /* the next name to look up */
  guint          revision; /* the document's, at the start */
  guint          serial;   /* its matches_serial, likewise */
  gboolean       waiting;  /* for a Replace All, a run or a move by steps to end */
};

/* Takes the matched names from the document as it is now (its matches
 * found first, as graft_document_dup_layout_marks() does).  Unless
 * @settle, a Replace All, a run of the rules or a move in the history by
 * steps is not finished at once (at a million nodes a Replace All's rest
 * took a turn of 114-131 ms when a layout ended meanwhile): the marks
 * wait for it (m->waiting), and start when a step finds it over. */
static void
layout_marks_start (GraftLayoutMarks *m,
                    gboolean          settle)
{
  GraftDocument *self = m->document;
  GHashTableIter iter;
  gpointer       name;
  gpointer       match;
  guint          k = 0;

  /* A search of the chosen rule's matches by steps is waited for too,
   * not finished in the turn (a million nodes' first layout done before
   * their search: a turn of 20-35 ms). */
  m->waiting = !settle && (self->rewriting != NULL || self->running != NULL || self->moving ||
                           (self->match_job != 0 && (self->matches_stale || self->found != NULL)));
  if (m->waiting)
    return;
  ensure_chosen_matches (self);
  m->revision = self->revision;
  m->serial = self->matches_serial;
  g_free (m->names);
  g_free (m->matches);
  m->n_names = g_hash_table_size (self->match_of);
  m->names = g_new (const char *, MAX (m->n_names, 1));
  m->matches = g_new (guint, MAX (m->n_names, 1));
  g_hash_table_iter_init (&iter, self->match_of);
  while (g_hash_table_iter_next (&iter, &name, &match))
    {
      m->names[k] = name;
      m->matches[k++] = GPOINTER_TO_UINT (match);
    }
  m->next = 0;
  for (guint i = 0; i < m->n; i++)
    m->marks[i] = -1;
}

/**
 * _graft_document_layout_marks_new:
 * @self: a document
 * @layout: a layout of the graph, possibly of an earlier revision
 *
 * Begins graft_document_dup_layout_marks() for @layout, to be made by
 * steps (_graft_document_layout_marks_step()): at a million nodes, the
 * 100,000 or so matched nodes looked up in one turn took 15-20 ms.
 *
 * Returns: (transfer full): the marks, begun
 */
GraftLayoutMarks *
_graft_document_layout_marks_new (GraftDocument *self,
                                  GraftLayout   *layout)
{
  GraftLayoutMarks *m = g_new0 (GraftLayoutMarks, 1);

  m->document = g_object_ref (self);
  m->layout = graft_layout_ref (layout);
  m->n = graft_layout_get_n_graph_nodes (layout);
  m->marks = g_new (gint, MAX (m->n, 1));
  layout_marks_start (m, FALSE);
  return m;
}

/**
 * _graft_document_layout_marks_get_waiting:
 * @marks: marks begun
 *
 * Returns: whether the marks wait for a Replace All, a run of the rules, a
 *   move in the history or the chosen rule's search by steps to end: a
 *   step does nothing until then
 */
gboolean
_graft_document_layout_marks_get_waiting (GraftLayoutMarks *m)
{
  g_return_val_if_fail (m != NULL, FALSE);
  return m->waiting;
}

/**
 * _graft_document_get_marks_need_names:
 * @self: a document
 *
 * Whether a layout's match marks may look names up in it
 * (_graft_document_layout_marks_new()): the chosen rule has matches, shown
 * or found and not shown yet, or they are to be found again.  Without, a new layout's index by name
 * is not needed to show it.
 *
 * Returns: whether the marks may need names
 */
gboolean
_graft_document_get_marks_need_names (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), TRUE);
  return self->matches_stale || self->rewriting != NULL || g_hash_table_size (self->match_of) > 0 ||
         self->search != NULL ||
         (self->found != NULL &&
          (!found_matches_complete (self->found) || g_hash_table_size (self->found->match_of) > 0));
}

/* Whether the graph or the matches changed since the names were taken. */
static gboolean
layout_marks_stale (GraftLayoutMarks *m)
{
  GraftDocument *self = m->document;

  return self->rewriting != NULL || self->running != NULL || m->revision != self->revision ||
         m->serial != self->matches_serial;
}

/* Marks made by name again by node, where two nodes share a name (a
 * program's and a rewrite's copy: the layout's index knows the last of
 * a name, which may be in no match).  A walk of the graph, in the step
 * that ends the marks; only for a layout of the graph as it is. */
static void
layout_marks_by_node (GraftLayoutMarks *m)
{
  GraftDocument *self = m->document;
  g_autoptr (GHashTable) of = NULL;
  guint i = 0;

  if (m->n != graft_graph_get_n_nodes (self->graph))
    return;
  of = match_of_nodes (self);
  for (GraftNode *node = graft_graph_get_first (self->graph); node != NULL;
       node = graft_node_get_next (node), i++)
    m->marks[i] = (gint) GPOINTER_TO_UINT (g_hash_table_lookup (of, node)) - 1;
}

/* _graft_document_layout_marks_step(); with @settle, what the marks wait
 * for is finished at once. */
static gboolean
layout_marks_step (GraftLayoutMarks *m,
                   guint             n_names,
                   gboolean          settle)
{
  g_autofree gint *at = NULL;
  guint            count;

  if (m->waiting || layout_marks_stale (m))
    {
      layout_marks_start (m, settle);
      return !m->waiting && m->n_names == 0;
    }
  count = MIN (MAX (n_names, 1), m->n_names - m->next);
  at = g_new (gint, MAX (count, 1));
  graft_layout_find_graph_nodes (m->layout, m->names + m->next, count, at);
  for (guint k = 0; k < count; k++)
    if (at[k] >= 0)
      m->marks[at[k]] = (gint) m->matches[m->next + k] - 1;
  m->next += count;
  if (m->next == m->n_names && G_UNLIKELY (graft_layout_has_shared_names (m->layout)))
    layout_marks_by_node (m);
  return m->next == m->n_names;
}

/**
 * _graft_document_layout_marks_step:
 * @marks: marks begun
 * @n_names: how many matched nodes to look up, at least one
 *
 * Goes on; from the start again if the graph or the matches shown have
 * changed since the last step (as at the start, a search of them under way
 * is then finished first); nothing while they wait
 * (_graft_document_layout_marks_get_waiting()).
 *
 * Returns: whether the marks are made (_graft_document_layout_marks_finish())
 */
gboolean
_graft_document_layout_marks_step (GraftLayoutMarks *m,
                                   guint             n_names)
{
  g_return_val_if_fail (m != NULL, TRUE);
  return layout_marks_step (m, n_names, FALSE);
}

/**
 * _graft_document_layout_marks_finish:
 * @marks: (transfer full): marks made
 *
 * Returns: (transfer full): what graft_document_dup_layout_marks() gives
 *   for the layout now, made again at once if the graph or the matches
 *   changed since the last step
 */
gint *
_graft_document_layout_marks_finish (GraftLayoutMarks *m)
{
  gint *marks;

  g_return_val_if_fail (m != NULL, NULL);
  while (!layout_marks_step (m, G_MAXUINT, TRUE))
    ;
  marks = g_steal_pointer (&m->marks);
  _graft_document_layout_marks_free (m);
  return marks;
}

void
_graft_document_layout_marks_free (GraftLayoutMarks *m)
{
  if (m == NULL)
    return;
  g_clear_object (&m->document);
  g_clear_pointer (&m->layout, graft_layout_free);
  g_free (m->marks);
  g_free (m->names);
  g_free (m->matches);
  g_free (m);
}

/**
 * graft_document_export:
 * @self: a document
 * @file: where to write
 * @format: what to write
 * @highlights: pictures and DOT: mark the matches
 * @dark: pictures: the dark style
 * @error: return location for an error
 *
 * Writes the graph through the core, atomically; code is written as a
 * Python file (graft_document_dup_file_text()).
 *
 * Returns: %TRUE on success
 */
gboolean
graft_document_export (GraftDocument *self,
                       GFile         *file,
                       GraftFormat    format,
                       gboolean       highlights,
                       gboolean       dark,
                       GError       **error)
{
  g_autofree char *text = NULL;
  g_autoptr (GraftLayout) layout = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autofree gint   *marks = NULL;
  GraftRenderOptions options;
  gsize              length;
  const char        *data;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  _graft_document_settle (self);

  if (format == GRAFT_FORMAT_CODE)
    {
      /* A Python file, as Save writes it; `graft code` keeps torch's text. */
      text = graft_document_dup_file_text (self);
      return write_file (file, text, strlen (text), error);
    }
  if (format == GRAFT_FORMAT_GRAPH || format == GRAFT_FORMAT_JSON)
    {
      if (format == GRAFT_FORMAT_GRAPH)
        text = graft_listing_print (self->graph);
      else
        text = graft_json_graph (self->graph);
      return write_file (file, text, strlen (text), error);
    }
  if (format == GRAFT_FORMAT_DOT)
    {
      GraftDotOptions dot_options;

      graft_dot_options_init (&dot_options);
      if (highlights)
        {
          marks = graft_matches_dup_node_marks (self->matches, self->graph);
          dot_options.node_match = marks;
        }
      text = graft_dot_print (self->graph, &dot_options);
      return write_file (file, text, strlen (text), error);
    }

  layout = graft_layout_new (self->graph, error);
  if (layout == NULL)
    return FALSE;
  graft_render_options_init (&options);
  options.style = dark ? GRAFT_RENDER_DARK : GRAFT_RENDER_LIGHT;
  if (highlights)
    {
      marks = graft_document_dup_layout_marks (self, layout);
      options.node_match = marks;
    }
  bytes = graft_render_to_bytes (layout, format, &options, error);
  if (bytes == NULL)
    return FALSE;
  data = g_bytes_get_data (bytes, &length);
  return write_file (file, data, length, error);
}
