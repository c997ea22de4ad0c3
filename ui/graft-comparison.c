/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-comparison.c: the graph before and after one change of the
 * history, for the split view (graft-split-window.c).
 *
 * The document holds one graph and moves it through the history by
 * undoing and redoing edits in place.  A comparison visits the two
 * positions around a change the same way, silently (no signal, no
 * notification: the graph is back where it was before the function
 * returns), and at each copies what laying out needs into a layout
 * request (linear in the graph, tens of milliseconds at 50,000 nodes);
 * the slow half, Graphviz, runs later on a worker.  Visiting costs the size
 * of the edits passed over, not of the graph.
 *
 * What the change did to each node comes from the edit itself
 * (graft_edit_dup_changes()): a node keeps its identity through undo and
 * redo, so removed, added, rewired and kept are exact, not guessed from
 * names or text.  A change that replaced the whole graph (a switch of
 * torch, restored work) has no edit: there nodes are matched by name, op
 * and target.  A change of the rule set leaves the graph as it is and has
 * nothing to compare.
 *
 * Part of the document's files: it reads the history through
 * graft-document-private.h and changes nothing in it.
 */
#include "config.h"

#include "graft-comparison-private.h"

/* The graph the document would hold at @position.  A change that
 * replaced the whole graph keeps the graph it does not show (the one
 * before it while applied, the one after it while undone), so that graph
 * is looked up rather than installed.  Edits keep a graph's identity. */
GraftGraph *
_graft_comparison_graph_at (GraftDocument *self,
                            guint          position)
{
  GraftGraph *graph = self->graph;

  for (guint k = self->position; k > position; k--)
    {
      HistoryEntry *entry = self->history->pdata[k - 1];

      if (entry->edit == NULL && entry->rules == NULL)
        graph = entry->graph;
    }
  for (guint k = self->position; k < position; k++)
    {
      HistoryEntry *entry = self->history->pdata[k];

      if (entry->edit == NULL && entry->rules == NULL)
        graph = entry->graph;
    }
  return graph;
}

/* Undoes or redoes, in place, the edits between the document's position
 * and @position, and returns the graph there.  Undo with leave(). */
GraftGraph *
_graft_comparison_visit (GraftDocument *self,
                         guint          position)
{
  for (guint k = self->position; k > position; k--)
    {
      HistoryEntry *entry = self->history->pdata[k - 1];

      if (entry->edit != NULL)
        graft_edit_undo (entry->edit);
    }
  for (guint k = self->position; k < position; k++)
    {
      HistoryEntry *entry = self->history->pdata[k];

      if (entry->edit != NULL)
        graft_edit_redo (entry->edit);
    }
  return _graft_comparison_graph_at (self, position);
}

/* For a test: when not 0, each look at the clock of a travel by steps
 * comes after this many operations (_graft_comparison_set_travel_step()). */
static guint travel_step_work;

/* Operations replayed between two looks at the clock. */
#define TRAVEL_WORK 1024

/**
 * _graft_comparison_set_travel_step:
 * @work: operations between two looks at the clock, or 0 for the usual
 *
 * Makes travels by steps (_graft_comparison_travel()) and the reading of
 * a change's edit (graft_comparison_builder_step()) look at the clock
 * after each @work operations, and stop there, so that a test knows a
 * small graph's edit takes many steps.
 */
void
_graft_comparison_set_travel_step (guint work)
{
  travel_step_work = work;
}

/* The test's step (_graft_comparison_set_travel_step()), or 0. */
guint
_graft_comparison_get_travel_step (void)
{
  return travel_step_work;
}

/* Undoes or redoes, in place, the edits from the position @at says the
 * graph is at towards @to, until @deadline (g_get_monotonic_time()) has
 * passed, looked at every TRAVEL_WORK operations, or all of them if
 * @deadline is 0 (_graft_document_replay()).
 *
 * Returns: whether the graph is at @to (*@at == @to, no edit half-way) */
gboolean
_graft_comparison_travel (GraftDocument *self,
                          guint         *at,
                          guint          to,
                          gint64         deadline)
{
  return _graft_document_replay (self, at, to,
                                 travel_step_work > 0 ? travel_step_work : TRAVEL_WORK,
                                 travel_step_work > 0, g_get_monotonic_time, deadline);
}

/**
 * _graft_visit_start:
 * @visit: a visit whose graph is at its document's position
 * @document: the document
 *
 * Starts @visit from @document's position.
 */
void
_graft_visit_start (GraftVisit    *visit,
                    GraftDocument *document)
{
  g_assert (!visit->away);
  visit->document = document;
  visit->at = document->position;
  visit->to = document->position;
}

static void visit_back_cb (gpointer data);

/* Tells the document whether @visit holds its graph away. */
static void
visit_set_away (GraftVisit *visit,
                gboolean    away)
{
  GraftDocument *document = visit->document;

  if (away == visit->away)
    return;
  visit->away = away;
  if (away)
    {
      /* Another visit holding the graph brings it back first (the steps of
       * two visits do not run in the same turns). */
      if (document->away_back != NULL)
        document->away_back (document->away_data);
      document->away_back = visit_back_cb;
      document->away_data = visit;
    }
  else
    {
      g_assert (document->away_data == visit);
      document->away_back = NULL;
      document->away_data = NULL;
    }
}

/**
 * _graft_visit_travel:
 * @visit: a visit (_graft_visit_start())
 * @to: a position of the document's history
 * @deadline: g_get_monotonic_time() to stop at, or 0 for all at once
 *
 * Takes the document's graph towards @to by steps
 * (_graft_comparison_travel()).  While the graph is not at the document's
 * position (@visit->away) the document calls _graft_visit_come_back()
 * from _graft_document_settle(); until then no other deferred work may
 * read the graph (whoever steps the visit runs its steps alone).
 *
 * Returns: whether the graph is at @to
 */
gboolean
_graft_visit_travel (GraftVisit *visit,
                     guint       to,
                     gint64      deadline)
{
  gboolean there;

  visit->to = to;
  there = _graft_comparison_travel (visit->document, &visit->at, to, deadline);
  visit_set_away (visit, !there || visit->at != visit->document->position);
  return there;
}

/**
 * _graft_visit_come_back:
 * @visit: a visit
 *
 * Brings the graph back to the document's position at once, if it is away:
 * the edit under way finished first, in its direction.
 */
void
_graft_visit_come_back (GraftVisit *visit)
{
  if (!visit->away)
    return;
  _graft_visit_travel (visit, visit->to, 0);
  _graft_visit_travel (visit, visit->document->position, 0);
}

static void
visit_back_cb (gpointer data)
{
  _graft_visit_come_back (data);
}

/* Brings the edits visit() moved back to the document's position. */
void
_graft_comparison_leave (GraftDocument *self,
                         guint          position)
{
  for (guint k = position; k < self->position; k++)
    {
      HistoryEntry *entry = self->history->pdata[k];

      if (entry->edit != NULL)
        graft_edit_redo (entry->edit);
    }
  for (guint k = position; k > self->position; k--)
    {
      HistoryEntry *entry = self->history->pdata[k - 1];

      if (entry->edit != NULL)
        graft_edit_undo (entry->edit);
    }
}

/* The node of @other named as @node of @graph is, if @node is the one
 * @graph finds by its name: the second of two nodes of one name (a
 * program's copy named by torch's namespace, docs/programs.md) has no
 * twin, or a copy beside the program's node would be taken for it. */
static GraftNode *
find_twin (GraftGraph *graph,
           gboolean    shared,
           GraftNode  *node,
           GraftGraph *other)
{
  const char *name = graft_node_get_name (node);

  if (G_UNLIKELY (shared) && graft_graph_find_node (graph, name) != node)
    return NULL;
  return graft_graph_find_node (other, name);
}

/* For a change without an edit: the nodes of @before that have a node of
 * the same name, op and target in @after are kept; the others are
 * removed, and those of @after without such a twin added. */
GHashTable *
_graft_comparison_changes_by_name (GraftGraph *before,
                                   GraftGraph *after)
{
  GHashTable *changes = g_hash_table_new (NULL, NULL);
  gboolean    before_shared = graft_graph_has_shared_names (before);
  gboolean    after_shared = graft_graph_has_shared_names (after);

  for (GraftNode *node = graft_graph_get_first (before); node != NULL;
       node = graft_node_get_next (node))
    {
      GraftNode *twin = find_twin (before, before_shared, node, after);

      if (twin == NULL || graft_node_get_op (twin) != graft_node_get_op (node) ||
          g_strcmp0 (graft_node_get_target (twin), graft_node_get_target (node)) != 0)
        g_hash_table_insert (changes, node, GINT_TO_POINTER (GRAFT_CHANGE_REMOVED));
    }
  for (GraftNode *node = graft_graph_get_first (after); node != NULL;
       node = graft_node_get_next (node))
    {
      GraftNode *twin = find_twin (after, after_shared, node, before);

      if (twin == NULL || g_hash_table_contains (changes, twin))
        g_hash_table_insert (changes, node, GINT_TO_POINTER (GRAFT_CHANGE_ADDED));
    }
  return changes;
}

/**
 * _graft_comparison_label_as_code:
 * @request: a layout request of @graph
 * @graph: a graph with shared names
 * @renamed: (nullable): code name -> node, graft_codegen_job_dup_renamed()
 *   of @graph's code
 *
 * Labels the boxes of the nodes @graph's code calls otherwise than by their
 * names (the second of two nodes of one name, `sym_size_int_2`), as the
 * main canvas labels them (graft-layout-runner.c): both sides of a
 * comparison tell the copy from the program's node by name too.
 */
void
_graft_comparison_label_as_code (GraftLayoutRequest *request,
                                 GraftGraph         *graph,
                                 GHashTable         *renamed)
{
  g_autoptr (GHashTable) names = NULL;
  GHashTableIter iter;
  gpointer       name;
  gpointer       node;
  guint          i = 0;

  if (renamed == NULL || g_hash_table_size (renamed) == 0)
    return;
  names = g_hash_table_new (NULL, NULL);
  g_hash_table_iter_init (&iter, renamed);
  while (g_hash_table_iter_next (&iter, &name, &node))
    g_hash_table_insert (names, node, name);
  for (GraftNode *n = graft_graph_get_first (graph); n != NULL; n = graft_node_get_next (n), i++)
    if ((name = g_hash_table_lookup (names, n)) != NULL)
      graft_layout_request_set_label (request, i, name);
}

/* Fills side @side of @self from @graph: its layout request (folded as
 * @collapsed says, if not %NULL; @scopes are @graph's, when known) and
 * each node's change; adds the names of the nodes of the classes @classes
 * lists to @names. */
static void
fill_side (GraftComparison *self,
           guint            side,
           GraftGraph      *graph,
           GraftScopes     *scopes,
           GHashTable      *changes,
           GHashTable      *collapsed,
           GPtrArray      **names,
           const gboolean  *classes)
{
  g_autoptr (GraftScopes) own = scopes == NULL ? graft_scopes_new (graph) : NULL;
  guint n = graft_graph_get_n_nodes (graph);
  guint i = 0;

  /* With the scopes always: the module frames the main canvas draws. */
  self->requests[side] = graft_layout_request_new_folded (
      graph, scopes != NULL ? scopes : own,
      collapsed != NULL && g_hash_table_size (collapsed) > 0 ? collapsed : NULL, NULL);
  /* Labelled as the code calls the nodes, where two share a name. */
  if (G_UNLIKELY (graft_graph_has_shared_names (graph)))
    {
      g_autoptr (GraftCodegenJob) job = graft_codegen_job_new (graph);
      g_autoptr (GHashTable) renamed = NULL;

      g_free (graft_codegen_job_take_code (job));
      renamed = graft_codegen_job_dup_renamed (job);
      _graft_comparison_label_as_code (self->requests[side], graph, renamed);
    }
  self->changes[side] = g_new0 (guint8, MAX (n, 1));
  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node), i++)
    {
      GraftChange change = GPOINTER_TO_INT (g_hash_table_lookup (changes, node));

      self->changes[side][i] = (guint8) change;
      if (classes[change])
        g_ptr_array_add (names[change], g_strdup (graft_node_get_name (node)));
    }
}

/**
 * graft_document_get_compared_change:
 * @self: a document
 *
 * Returns: the change the split view shows unless told otherwise: the
 *   newest applied change of the graph (a change of the rule set leaves
 *   the graph alone), or -1 if there is none
 */
gint
graft_document_get_compared_change (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), -1);
  for (guint k = self->position; k > 0; k--)
    if (((HistoryEntry *) self->history->pdata[k - 1])->rules == NULL)
      return (gint) k - 1;
  return -1;
}

/**
 * graft_document_compare:
 * @self: a document
 * @change: a change of the history, applied or undone, from 0
 * @overview_boxes: fold graphs that have modules into an overview of at
 *   most this many boxes (the same modules folded on both sides); 0 never
 *   folds
 * @error: return location for an error
 *
 * Takes the graph as it was before @change and as @change left it, and
 * what @change did to each node.  The document and its graph are as they
 * were when this returns, and nothing is notified.
 *
 * Returns: (transfer full) (nullable): the comparison, or %NULL if
 *   @change did not change the graph (a change of the rule set) or the
 *   graph is being read
 */
GraftComparison *
graft_document_compare (GraftDocument *self,
                        guint          change,
                        guint          overview_boxes,
                        GError       **error)
{
  static const gboolean before_classes[] = { FALSE, FALSE, TRUE, FALSE };
  static const gboolean after_classes[] = { TRUE, TRUE, FALSE, TRUE };
  g_autoptr (GraftComparison) comparison = NULL;
  g_autoptr (GHashTable) changes = NULL;
  g_autoptr (GHashTable) collapsed = NULL;
  g_autoptr (GraftScopes) after_scopes = NULL;
  GPtrArray    *names[4];
  HistoryEntry *entry;
  GraftGraph   *before;
  GraftGraph   *after;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (change < self->history->len, NULL);

  entry = self->history->pdata[change];
  if (entry->rules != NULL)
    {
      g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE,
                   "'%s' changed the rules, not the graph", entry->label);
      return NULL;
    }
  if (self->graph == NULL)
    {
      g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, "no graph is open");
      return NULL;
    }

  comparison = g_new0 (GraftComparison, 1);
  comparison->label = g_strdup (entry->label);
  comparison->change = change;
  for (guint c = 0; c < G_N_ELEMENTS (names); c++)
    names[c] = g_ptr_array_new ();

  /* After first: its modules decide what both sides fold. */
  after = _graft_comparison_visit (self, change + 1);
  if (entry->edit != NULL)
    changes = graft_edit_dup_changes (entry->edit);
  else
    {
      /* Without an edit the change swapped graphs, and both live: the
       * edits around it are where they are at either position. */
      changes =
          _graft_comparison_changes_by_name (_graft_comparison_graph_at (self, change), after);
    }
  /* The after side's scopes serve its request too. */
  after_scopes = graft_scopes_new (after);
  if (overview_boxes > 0)
    collapsed = graft_scopes_new_overview (after_scopes, overview_boxes);
  fill_side (comparison, 1, after, after_scopes, changes, collapsed, names, after_classes);
  _graft_comparison_leave (self, change + 1);

  before = _graft_comparison_visit (self, change);
  fill_side (comparison, 0, before, NULL, changes, collapsed, names, before_classes);
  _graft_comparison_leave (self, change);

  for (guint c = 0; c < G_N_ELEMENTS (names); c++)
    {
      g_ptr_array_add (names[c], NULL);
      comparison->names[c] = (GStrv) g_ptr_array_free (names[c], FALSE);
    }
  return g_steal_pointer (&comparison);
}

/**
 * graft_comparison_get_change:
 * @self: a comparison
 *
 * Returns: the change of the history compared, from 0
 */
guint
graft_comparison_get_change (GraftComparison *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->change;
}

/**
 * graft_comparison_get_label:
 * @self: a comparison
 *
 * Returns: what the history calls the change (`Replace all`)
 */
const char *
graft_comparison_get_label (GraftComparison *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->label;
}

/**
 * graft_comparison_steal_request:
 * @self: a comparison
 * @after: the side after the change, else the side before
 *
 * Returns: (transfer full) (nullable): the layout request of that side,
 *   to run on a worker; %NULL once taken
 */
GraftLayoutRequest *
graft_comparison_steal_request (GraftComparison *self,
                                gboolean         after)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_steal_pointer (&self->requests[after ? 1 : 0]);
}

/**
 * graft_comparison_steal_node_changes:
 * @self: a comparison
 * @after: the side after the change, else the side before
 *
 * Returns: (transfer full) (nullable): per graph node of that side, in
 *   graph order, a #GraftChange (the renderer's `node_change`); %NULL
 *   once taken
 */
guint8 *
graft_comparison_steal_node_changes (GraftComparison *self,
                                     gboolean         after)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_steal_pointer (&self->changes[after ? 1 : 0]);
}

/**
 * graft_comparison_get_names:
 * @self: a comparison
 * @change: a class of nodes
 *
 * Returns: (transfer none) (array zero-terminated=1): the names of the
 *   nodes of that class: the removed ones in the order of the graph
 *   before, the others in the order of the graph after
 */
const char *const *
graft_comparison_get_names (GraftComparison *self,
                            GraftChange      change)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail ((guint) change < G_N_ELEMENTS (self->names), NULL);
  return (const char *const *) self->names[change];
}

void
graft_comparison_free (GraftComparison *self)
{
  if (self == NULL)
    return;
  g_free (self->label);
  for (guint s = 0; s < 2; s++)
    {
      g_clear_pointer (&self->requests[s], graft_layout_request_free);
      g_free (self->changes[s]);
    }
  for (guint c = 0; c < G_N_ELEMENTS (self->names); c++)
    g_strfreev (self->names[c]);
  g_free (self);
}
