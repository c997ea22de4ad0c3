/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-comparison-builder.c: the comparison graft_document_compare()
 * makes, in steps over main-loop turns, for the split view.
 *
 * Contract: a builder makes the same comparison as graft_document_compare()
 * with the same arguments, whatever the size of its steps, as long as the
 * document's history and graph do not change between the builder's creation
 * and its end; whoever steps it frees it when they do (the split window
 * starts again).  The builder first reads what the change did to each
 * node from its edit, by steps, without moving the graph
 * (graft_edit_add_changes()).  Then it takes the document's graph to the position
 * of the side it works on (undoing or redoing the edits in between, as
 * graft_document_compare() does: the cost of those edits, not of the
 * graph), goes on with that side's scopes, layout request
 * (GraftScopesBuilder, GraftLayoutRequestBuilder) or changes, and brings
 * the graph back at the end, silently, all of it by steps of a few
 * milliseconds: the graph stays where it is between two steps, so that a
 * Replace All of a million nodes is undone and redone once for the whole
 * comparison, a few thousand operations a step, not at once in every
 * step.  While the graph is elsewhere (graft_comparison_builder_get_away())
 * nothing else may read it: the caller runs the steps alone
 * (graft_turns_add_alone()), and what reads or changes the document calls
 * _graft_document_settle() first, which brings the graph back at once
 * (the rest of the edits in one go; the next step takes it away again).
 * Freeing the builder brings it back too.  Between visits the graph is
 * the same list of the same nodes, which is all the builders keep.
 */
#include "config.h"

#include "graft-comparison-private.h"

typedef enum {
  PHASE_SCOPES,
  PHASE_REQUEST,
  PHASE_LABELS,
  PHASE_CHANGES,
  PHASE_DONE,
} Phase;

struct _GraftComparisonBuilder
{
  /* Owned */
  GraftDocument             *document;
  GraftComparison           *comparison;
  GHashTable                *changes;   /* GraftNode -> GraftChange, made by the first steps */
  GHashTable                *collapsed; /* the modules both sides fold, or NULL */
  GraftScopes               *scopes;    /* of the side being made, while it needs them */
  GraftScopesBuilder        *scopes_builder;
  GraftLayoutRequestBuilder *request_builder;
  GraftCodegenJob           *codegen; /* PHASE_LABELS: the side's code, for its names */
  GPtrArray                 *names[4];

  guint      change;
  guint      changes_from; /* the change's next operation to read into changes */
  gboolean   changes_made; /* changes holds the whole change */
  guint      overview_boxes;
  guint      side;  /* 1, the side after the change, then 0 */
  GraftVisit visit; /* where the graph is: the side's position, or on the way */
  Phase      phase;
  GraftNode *cursor; /* PHASE_CHANGES: the next node */
  guint      index;  /* its index */
};

/**
 * graft_comparison_builder_new:
 * @document: a document
 * @change: a change of its history
 * @overview_boxes: as for graft_document_compare()
 * @error: return location for an error
 *
 * Returns: (transfer full) (nullable): a builder that has done nothing
 *   yet, or %NULL as graft_document_compare() returns it
 */
GraftComparisonBuilder *
graft_comparison_builder_new (GraftDocument *document,
                              guint          change,
                              guint          overview_boxes,
                              GError       **error)
{
  GraftComparisonBuilder *self;
  HistoryEntry           *entry;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (change < document->history->len, NULL);

  entry = document->history->pdata[change];
  if (entry->rules != NULL)
    {
      g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE,
                   "'%s' changed the rules, not the graph", entry->label);
      return NULL;
    }
  if (document->graph == NULL)
    {
      g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_REWRITE, "no graph is open");
      return NULL;
    }
  self = g_new0 (GraftComparisonBuilder, 1);
  self->document = g_object_ref (document);
  self->comparison = g_new0 (GraftComparison, 1);
  self->comparison->label = g_strdup (entry->label);
  self->comparison->change = change;
  self->change = change;
  self->overview_boxes = overview_boxes;
  self->side = 1;
  self->phase = PHASE_SCOPES;
  for (guint c = 0; c < G_N_ELEMENTS (self->names); c++)
    self->names[c] = g_ptr_array_new ();
  return self;
}

static void
next_side (GraftComparisonBuilder *self)
{
  g_clear_pointer (&self->scopes, graft_scopes_free);
  if (self->side == 0)
    {
      self->phase = PHASE_DONE;
      return;
    }
  self->side = 0;
  self->phase = PHASE_SCOPES;
}

/* Goes through up to @n nodes of the current side of @graph, at its
 * position.  Returns whether the side is done. */
static gboolean
step_side (GraftComparisonBuilder *self,
           GraftGraph             *graph,
           guint                   n)
{
  static const gboolean classes[2][4] = {
    { FALSE, FALSE, TRUE, FALSE }, /* before: the removed */
    { TRUE, TRUE, FALSE, TRUE },   /* after: the others */
  };
  GraftComparison *comparison = self->comparison;
  guint            side = self->side;

  switch (self->phase)
    {
    case PHASE_SCOPES:
      /* Each side's own scopes: its module frames, as the main canvas
       * draws them (it was drawn without them), and on the side after
       * the change, the overview both sides fold as it says. */
      if (self->scopes_builder == NULL)
        self->scopes_builder = graft_scopes_builder_new (graph);
      if (!graft_scopes_builder_step (self->scopes_builder, n))
        return FALSE;
      self->scopes = graft_scopes_builder_finish (g_steal_pointer (&self->scopes_builder));
      if (side == 1 && self->overview_boxes > 0)
        self->collapsed = graft_scopes_new_overview (self->scopes, self->overview_boxes);
      self->phase = PHASE_REQUEST;
      return FALSE;
    case PHASE_REQUEST:
      if (self->request_builder == NULL)
        {
          gboolean folded = self->collapsed != NULL && g_hash_table_size (self->collapsed) > 0;

          self->request_builder = graft_layout_request_builder_new (
              graph, self->scopes, folded ? self->collapsed : NULL, NULL);
        }
      if (!graft_layout_request_builder_step (self->request_builder, n))
        return FALSE;
      comparison->requests[side] =
          graft_layout_request_builder_finish (g_steal_pointer (&self->request_builder));
      /* Where two nodes share a name, the boxes say the code's names. */
      self->phase =
          G_UNLIKELY (graft_graph_has_shared_names (graph)) ? PHASE_LABELS : PHASE_CHANGES;
      if (self->phase == PHASE_LABELS)
        self->codegen = graft_codegen_job_new (graph);
      comparison->changes[side] = g_new0 (guint8, MAX (graft_graph_get_n_nodes (graph), 1));
      self->cursor = graft_graph_get_first (graph);
      self->index = 0;
      return FALSE;
    case PHASE_LABELS:
      if (!graft_codegen_job_step (self->codegen, n))
        return FALSE;
      {
        g_autoptr (GHashTable) renamed = NULL;

        g_free (graft_codegen_job_take_code (self->codegen));
        renamed = graft_codegen_job_dup_renamed (self->codegen);
        g_clear_pointer (&self->codegen, graft_codegen_job_free);
        _graft_comparison_label_as_code (comparison->requests[side], graph, renamed);
      }
      self->phase = PHASE_CHANGES;
      return FALSE;
    case PHASE_CHANGES:
      for (guint k = 0; k < n && self->cursor != NULL; k++)
        {
          GraftChange change =
              GPOINTER_TO_INT (g_hash_table_lookup (self->changes, self->cursor));

          comparison->changes[side][self->index++] = (guint8) change;
          if (classes[side][change])
            g_ptr_array_add (self->names[change],
                             g_strdup (graft_node_get_name (self->cursor)));
          self->cursor = graft_node_get_next (self->cursor);
        }
      if (self->cursor != NULL)
        return FALSE;
      next_side (self);
      return TRUE;
    case PHASE_DONE:
    default:
      return TRUE;
    }
}

/* Takes the graph towards @to until @deadline, or at once if 0; returns
 * whether it is there. */
static gboolean
travel (GraftComparisonBuilder *self,
        guint                   to,
        gint64                  deadline)
{
  return _graft_visit_travel (&self->visit, to, deadline);
}

/* Operations of the change read between two looks at the clock. */
#define CHANGES_WORK 4096

/* Reads what the change's edit did to each node into changes, until
 * @deadline (at least one pass); returns whether it is all read.  The
 * edit's operations are read, never replayed: the graph stays where it
 * is.  A change without an edit (a graph of its own) is compared by
 * name, later, at its positions. */
static gboolean
read_changes (GraftComparisonBuilder *self,
              gint64                  deadline)
{
  HistoryEntry *entry = self->document->history->pdata[self->change];
  guint         test_work = _graft_comparison_get_travel_step ();

  if (self->changes_made || entry->edit == NULL)
    return TRUE;
  if (self->changes == NULL)
    self->changes = g_hash_table_new (NULL, NULL);
  do
    self->changes_from = graft_edit_add_changes (entry->edit, self->changes, self->changes_from,
                                                 test_work > 0 ? test_work : CHANGES_WORK);
  while (self->changes_from < graft_edit_get_n_operations (entry->edit) && test_work == 0 &&
         g_get_monotonic_time () < deadline);
  self->changes_made = self->changes_from == graft_edit_get_n_operations (entry->edit);
  return self->changes_made;
}

/**
 * graft_comparison_builder_get_away:
 * @self: a builder
 *
 * Returns: whether the builder holds the document's graph at another
 *   position of the history, or half-way there, between two steps: until
 *   it does not, no other deferred work may read the graph
 */
gboolean
graft_comparison_builder_get_away (GraftComparisonBuilder *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->visit.away;
}

/**
 * graft_comparison_builder_step:
 * @self: a builder
 * @usec: about how long the step may take, at least one pass of @n_nodes
 * @n_nodes: nodes per pass, at least 1
 *
 * First reads what the change did to each node (a few thousand of its
 * edit's operations a pass, the graph left where it is), then takes the
 * graph to the position of the side being made (or on its way there),
 * goes on with that side, and once both are made brings the graph back,
 * for about @usec in all (at least one pass of @n_nodes, or of a few
 * thousand operations of an edit to read or replay).  Between two steps the graph
 * may be elsewhere (graft_comparison_builder_get_away()).  While the
 * document has a Replace All or a move by steps under way, a step does
 * nothing.
 *
 * Returns: whether the comparison is made
 *   (graft_comparison_builder_finish()) and the graph back
 */
gboolean
graft_comparison_builder_step (GraftComparisonBuilder *self,
                               gint64                  usec,
                               guint                   n_nodes)
{
  gint64         start = g_get_monotonic_time ();
  GraftDocument *document;
  GraftGraph    *graph;
  HistoryEntry  *entry;

  g_return_val_if_fail (self != NULL, TRUE);
  document = self->document;
  if (!self->visit.away)
    {
      if (self->phase == PHASE_DONE)
        return TRUE;
      /* Their jobs hold the graph: this waits for their end. */
      if (document->moving || document->rewriting != NULL || document->running != NULL)
        return FALSE;
      if (!read_changes (self, start + usec))
        return FALSE;
      _graft_visit_start (&self->visit, document);
    }
  for (;;)
    {
      guint position = self->phase == PHASE_DONE ? document->position
                                                 : self->change + self->side;

      if (!travel (self, position, start + usec))
        return FALSE;
      if (self->phase == PHASE_DONE)
        return TRUE;
      graph = _graft_comparison_graph_at (document, position);
      if (!self->changes_made)
        {
          /* As graft_document_compare(), a change without an edit: by
           * name, at the position after the change. */
          entry = document->history->pdata[self->change];
          g_assert (entry->edit == NULL);
          self->changes = _graft_comparison_changes_by_name (
              _graft_comparison_graph_at (document, self->change), graph);
          self->changes_made = TRUE;
        }
      while (!step_side (self, graph, MAX (n_nodes, 1)) &&
             g_get_monotonic_time () - start < usec)
        ;
      if (g_get_monotonic_time () - start >= usec &&
          !(self->phase == PHASE_DONE && !self->visit.away))
        return FALSE;
    }
}

/* For a test: how many operations of the change's edit the builder has
 * read into its table so far. */
guint
_graft_comparison_builder_get_n_read (GraftComparisonBuilder *self)
{
  return self->changes_from;
}

/**
 * graft_comparison_builder_finish:
 * @self: (transfer full): a builder whose last step returned %TRUE
 *
 * Returns: (transfer full): the comparison
 */
GraftComparison *
graft_comparison_builder_finish (GraftComparisonBuilder *self)
{
  GraftComparison *comparison;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->phase == PHASE_DONE, NULL);
  comparison = g_steal_pointer (&self->comparison);
  for (guint c = 0; c < G_N_ELEMENTS (self->names); c++)
    {
      g_ptr_array_add (self->names[c], NULL);
      comparison->names[c] = (GStrv) g_ptr_array_free (g_steal_pointer (&self->names[c]), FALSE);
    }
  graft_comparison_builder_free (self);
  return comparison;
}

/**
 * graft_comparison_builder_free:
 * @self: (transfer full) (nullable): a builder, done or not
 */
void
graft_comparison_builder_free (GraftComparisonBuilder *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->codegen, graft_codegen_job_free);
  _graft_visit_come_back (&self->visit);
  g_clear_pointer (&self->comparison, graft_comparison_free);
  g_clear_pointer (&self->changes, g_hash_table_unref);
  g_clear_pointer (&self->collapsed, g_hash_table_unref);
  g_clear_pointer (&self->scopes, graft_scopes_free);
  g_clear_pointer (&self->scopes_builder, graft_scopes_builder_free);
  g_clear_pointer (&self->request_builder, graft_layout_request_builder_free);
  for (guint c = 0; c < G_N_ELEMENTS (self->names); c++)
    if (self->names[c] != NULL)
      g_ptr_array_free (self->names[c], TRUE);
  g_object_unref (self->document);
  g_free (self);
}
