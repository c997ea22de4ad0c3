/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-edit.c: GraftEdit, a change to a graph that can be undone and
 * redone.  While an edit records (graft_graph_begin_edit()), every change
 * graft-graph.c makes appends, through _graft_edit_record(), the operation
 * that undoes it: a node added (undone by detaching it and releasing its
 * name), a node erased (kept detached in the graph's trash, undone by
 * linking it back where it was), arguments changed (the old ones kept),
 * one input replaced by another in a node's arguments (undone by
 * replacing it back, as no copy is needed) and a node moved.  Undo runs the operations backwards,
 * redo forwards, so an undo costs the size of the change, not of the graph; both can go by
 * steps of a few operations (graft_edit_undo_step(), so that an editor does a large one over
 * several main-loop turns).  The edit changes the graph only through the primitives of
 * graft-graph-private.h.
 *
 * The inverses give every users list its users back, but append them;
 * the edit also keeps a record (UserRecord) of each change of a list that
 * an append does not invert: a user that left from inside a list, an
 * index the list got.  Undo puts each user back at its place right after
 * undoing its operation, so the lists are, in order, as the edit found
 * them, and redo from there changes them as the edit did.
 */
#include "config.h"

#include "graft-edit.h"
#include "graft-graph.h"
#include "graft-graph-private.h"
#include "graft-edit-private.h"
#include "graft-memory-private.h"

/* The chunk and place of operation @i. */
static inline EditOp *
op_at (GraftEdit *edit,
       guint      i)
{
  guint k = g_bit_storage (i / FIRST_CHUNK + 1) - 1;

  return &edit->chunks[k][i - FIRST_CHUNK * ((1u << k) - 1)];
}

/* A new chunk, twice as large as the last, for add_op(): made now, or
 * by _graft_edit_reserve(). */
void
_graft_edit_add_chunk (GraftEdit *edit)
{
  guint k = edit->n_chunks++;

  g_assert (k < MAX_CHUNKS);
  if (edit->chunks[k] == NULL)
    edit->chunks[k] = g_new (EditOp, (gsize) FIRST_CHUNK << k);
  edit->next_op = edit->chunks[k];
  edit->ops_left = FIRST_CHUNK << k;
}

/*
 * _graft_edit_reserve:
 * @n: how many operations are about to be recorded (an estimate)
 *
 * Makes the chunks the next @n operations go to and faults in their
 * memory at once (_graft_memory_prefault()): a rewrite records about one
 * a node it touches.
 */
void
_graft_edit_reserve (GraftEdit *edit,
                     guint      n)
{
  guint k = edit->n_chunks;
  guint left = MIN (n, edit->ops_left);

  _graft_memory_prefault (edit->next_op, (gsize) left * sizeof (EditOp));
  n -= left;
  for (; n > 0 && k < MAX_CHUNKS; k++)
    {
      guint size = FIRST_CHUNK << k;

      if (edit->chunks[k] == NULL)
        edit->chunks[k] = g_new (EditOp, (gsize) size);
      left = MIN (n, size);
      _graft_memory_prefault (edit->chunks[k], (gsize) left * sizeof (EditOp));
      n -= left;
    }
}

/* How many operations chunk @k holds: all it has room for but in the
 * newest. */
static inline guint
chunk_ops (GraftEdit *edit,
           guint      k)
{
  return k + 1 < edit->n_chunks ? FIRST_CHUNK << k : (FIRST_CHUNK << k) - edit->ops_left;
}

/* Records the arguments @node has now, before they change. */
void
_graft_edit_record_args (GraftEdit *edit,
                         GraftNode *node)
{
  EditOp *op = add_op (edit);

  op->node_kind = op_node_kind (node, GRAFT_EDIT_SET_ARGS);
  op->next = NULL;
  op->args = g_new (EditArgs, 1);
  /* In the graph's pool, as the node's own arguments are, since undo
   * swaps them in. */
  _graft_graph_copy_arg (edit->graph, &op->args->args, graft_node_get_args (node));
  _graft_graph_copy_arg (edit->graph, &op->args->kwargs, graft_node_get_kwargs (node));
}

/* The graph is being freed: the edit can no longer be undone or redone,
 * and the arguments it keeps went with the graph's pool. */
void
_graft_edit_forget_graph (GraftEdit *edit)
{
  edit->graph = NULL;
}

void
_graft_edit_set_index (GraftEdit *edit,
                       guint      index)
{
  edit->index = index;
}

/*
 * _graft_edit_grow_user_records:
 * @n: how many records are about to be made (an estimate)
 *
 * Makes room for @n more user records at least, faulted in at once (a
 * rewrite that defers removals knows about how many it makes).
 */
void
_graft_edit_grow_user_records (GraftEdit *edit,
                               guint      n)
{
  guint size = edit->user_records_size;

  if (size - edit->n_user_records >= n)
    return;
  size = MAX (MAX (2 * size, 16), edit->n_user_records + n);
  edit->user_records = g_renew (UserRecord, edit->user_records, size);
  _graft_memory_prefault (edit->user_records + edit->user_records_size,
                          (size - edit->user_records_size) * sizeof (UserRecord));
  edit->user_records_size = size;
}

/*
 * _graft_edit_take_departures:
 * @departures: (transfer full): settled, in the order of the operations,
 *   after those the edit holds
 *
 * The deferred removals of a rewrite, once settled, as records of the
 * edit.
 */
void
_graft_edit_take_departures (GraftEdit     *edit,
                             UserDeparture *departures,
                             guint          n)
{
  if (edit->departures == NULL)
    {
      edit->departures = departures;
      edit->n_departures = n;
      return;
    }
  edit->departures = g_renew (UserDeparture, edit->departures, edit->n_departures + n);
  memcpy (edit->departures + edit->n_departures, departures, n * sizeof (UserDeparture));
  edit->n_departures += n;
  g_free (departures);
}

static gint
compare_user_records (gconstpointer a,
                      gconstpointer b,
                      gpointer      user_data)
{
  const UserRecord *ra = a;
  const UserRecord *rb = b;

  return ra->op < rb->op ? -1 : ra->op > rb->op;
}

/* The records by operation, in the order they were made within one
 * (g_qsort_with_data() is stable): an index made while a node is added
 * belongs to the next operation, and may come before the removals of the
 * operation under way. */
static void
sort_user_records (GraftEdit *edit)
{
  gboolean sorted = TRUE;

  if (edit->user_records_sorted)
    return;
  for (guint i = 1; i < edit->n_user_records && sorted; i++)
    sorted = edit->user_records[i - 1].op <= edit->user_records[i].op;
  if (!sorted)
    g_qsort_with_data (edit->user_records, (gint) edit->n_user_records, sizeof (UserRecord),
                       compare_user_records, NULL);
  edit->user_records_sorted = TRUE;
}

/**
 * graft_graph_begin_edit:
 *
 * Starts recording changes to the graph into an edit that can be undone
 * and redone (graft_graph_end_edit()).  Edits do not nest.
 */
void
graft_graph_begin_edit (GraftGraph *self)
{
  GraftEdit *edit;

  g_return_if_fail (self != NULL);
  g_return_if_fail (_graft_graph_get_recording (self) == NULL);

  edit = g_new0 (GraftEdit, 1);
  edit->graph = self;
  edit->index = _graft_graph_add_edit (self, edit);
  edit->applied = TRUE;
  _graft_graph_set_recording (self, edit);
}

/**
 * graft_graph_end_edit:
 *
 * Stops recording.
 *
 * Returns: (transfer full): the edit, applied; free it with
 *   graft_edit_free() (an edit freed after its graph can no longer be
 *   undone or redone, but is freed safely)
 */
GraftEdit *
graft_graph_end_edit (GraftGraph *self)
{
  GraftEdit *edit;

  g_return_val_if_fail (self != NULL && _graft_graph_get_recording (self) != NULL, NULL);

  edit = _graft_graph_get_recording (self);
  _graft_graph_set_recording (self, NULL);
  return edit;
}

/* Applies one operation's inverse (@undo) or the operation again. */
static void
replay (GraftGraph *self,
        EditOp     *op,
        gboolean    undo)
{
  GraftNode *node = op_node (op);

  switch (op_kind (op))
    {
    case GRAFT_EDIT_ADD:
      if (undo)
        _graft_graph_take_out (self, node, TRUE);
      else
        _graft_graph_put_back (self, node, op->next, TRUE);
      break;
    case GRAFT_EDIT_ERASE:
      if (undo)
        _graft_graph_put_back (self, node, op->next, FALSE);
      else
        _graft_graph_take_out (self, node, FALSE);
      break;
    case GRAFT_EDIT_SET_ARGS:
      _graft_node_swap_args (node, &op->args->args, &op->args->kwargs);
      break;
    case GRAFT_EDIT_REPLACE_INPUT:
      if (undo)
        _graft_node_replace_input (node, op->input, op->next);
      else
        _graft_node_replace_input (node, op->next, op->input);
      break;
    case GRAFT_EDIT_MOVE:
      {
        GraftNode *next = graft_node_get_next (node);

        /* Nothing records while an edit replays. */
        graft_graph_move_before (self, node, op->next);
        op->next = next;
      }
      break;
    default:
      g_assert_not_reached ();
    }
}

/**
 * graft_edit_undo:
 *
 * Undoes an applied edit.  The graph must be as the edit left it (undo and
 * redo edits in stack order).
 */
void
graft_edit_undo (GraftEdit *edit)
{
  g_return_if_fail (edit != NULL && edit->graph != NULL && edit->applied && !edit->replaying);

  graft_edit_undo_step (edit, G_MAXUINT);
}

/**
 * graft_edit_undo_step:
 * @edit: an applied edit, or one being undone by steps
 * @work: how many operations to undo now (at least 1)
 *
 * Undoes the edit by steps: its next @work operations, backwards (each
 * with the users lists it changed put back in order, as graft_edit_undo()
 * does).  Between two steps the graph is half-way and belongs to the
 * undo: nothing may read or change it but the next step (its nodes,
 * names and users lists are each valid, but the graph is neither the one
 * before the edit nor the one after); graft_edit_is_applied() still says
 * %TRUE.  Steps to the end give exactly what graft_edit_undo() gives.
 * An edit freed half-way (or with its graph) is freed safely.
 *
 * Returns: %TRUE when the undo is over (the edit is then not applied)
 */
gboolean
graft_edit_undo_step (GraftEdit *edit,
                      guint      work)
{
  UserRecord    *records;
  UserDeparture *departures;
  guint          r, d, i, stop;

  g_return_val_if_fail (edit != NULL && edit->graph != NULL && edit->applied, TRUE);
  g_return_val_if_fail (_graft_graph_get_recording (edit->graph) == NULL, TRUE);

  records = edit->user_records;
  departures = edit->departures;
  if (!edit->replaying)
    {
      /* Each operation's inverse appends the users it removed: each record
       * then puts one where it was, so that every users list is, after each
       * operation undone, as it was before that operation (an inverse that
       * removes a user removes the last one, the order of the rest unchanged). */
      sort_user_records (edit);
      records = edit->user_records;
      r = edit->n_user_records;
      /* Made while the next operation was being made (an index). */
      for (; r > 0 && records[r - 1].op >= edit->n_ops; r--)
        _graft_graph_restore_user (records[r - 1].used, records[r - 1].pos_kind);
      edit->replaying = TRUE;
      edit->replay_op = edit->n_ops;
      edit->replay_record = r;
      edit->replay_departure = edit->n_departures;
    }
  r = edit->replay_record;
  d = edit->replay_departure;
  i = edit->replay_op;
  stop = i > MAX (work, 1) ? i - MAX (work, 1) : 0;
  for (; i > stop; i--)
    {
      replay (edit->graph, op_at (edit, i - 1), TRUE);
      /* Within one operation a deferred removal came after an index it
       * may have made (recorded as the next operation's). */
      for (; d > 0 && departures[d - 1].op == i - 1; d--)
        _graft_graph_restore_user (departures[d - 1].node, departures[d - 1].pos_kind);
      for (; r > 0 && records[r - 1].op == i - 1; r--)
        _graft_graph_restore_user (records[r - 1].used, records[r - 1].pos_kind);
    }
  edit->replay_op = i;
  edit->replay_record = r;
  edit->replay_departure = d;
  if (i > 0)
    return FALSE;
  edit->replaying = FALSE;
  edit->applied = FALSE;
  return TRUE;
}

/**
 * graft_edit_redo:
 *
 * Applies an undone edit again, with the same nodes and names.  From the
 * graph as the edit found it, replaying its operations changes every
 * users list as they did (an index a list got is dropped by undo, so that
 * removals go as they went), so each ends as the edit left it.
 */
void
graft_edit_redo (GraftEdit *edit)
{
  g_return_if_fail (edit != NULL && edit->graph != NULL && !edit->applied && !edit->replaying);

  graft_edit_redo_step (edit, G_MAXUINT);
}

/**
 * graft_edit_redo_step:
 * @edit: an undone edit, or one being redone by steps
 * @work: how many operations to replay now (at least 1)
 *
 * Redoes the edit by steps, its next @work operations, as
 * graft_edit_undo_step() undoes it (the graph is the redo's between two
 * steps; graft_edit_is_applied() says %FALSE until the end).
 *
 * Returns: %TRUE when the redo is over (the edit is then applied)
 */
gboolean
graft_edit_redo_step (GraftEdit *edit,
                      guint      work)
{
  guint i, stop;

  g_return_val_if_fail (edit != NULL && edit->graph != NULL && !edit->applied, TRUE);
  g_return_val_if_fail (_graft_graph_get_recording (edit->graph) == NULL, TRUE);

  if (!edit->replaying)
    {
      edit->replaying = TRUE;
      edit->replay_op = 0;
    }
  i = edit->replay_op;
  stop = edit->n_ops - i > MAX (work, 1) ? i + MAX (work, 1) : edit->n_ops;
  for (; i < stop; i++)
    replay (edit->graph, op_at (edit, i), FALSE);
  edit->replay_op = i;
  if (i < edit->n_ops)
    return FALSE;
  edit->replaying = FALSE;
  edit->applied = TRUE;
  return TRUE;
}

/**
 * graft_edit_is_replaying:
 *
 * Returns: whether an undo or a redo by steps is under way
 *   (graft_edit_undo_step(), graft_edit_redo_step())
 */
gboolean
graft_edit_is_replaying (GraftEdit *edit)
{
  g_return_val_if_fail (edit != NULL, FALSE);
  return edit->replaying;
}

gboolean
graft_edit_is_applied (GraftEdit *edit)
{
  g_return_val_if_fail (edit != NULL, FALSE);
  return edit->applied;
}

/**
 * graft_edit_get_n_operations:
 *
 * Returns: how many primitive changes the edit holds
 */
guint
graft_edit_get_n_operations (GraftEdit *edit)
{
  g_return_val_if_fail (edit != NULL, 0);
  return edit->n_ops;
}

/**
 * graft_edit_add_changes:
 * @edit: an edit
 * @changes: (element-type GraftNode GraftChange): a table that holds what
 *   operations 0 to @from - 1 of @edit said (empty when @from is 0)
 * @from: the first operation to read
 * @n: how many to read at most
 *
 * Reads what operations @from to @from + @n - 1 of @edit did into
 * @changes, as graft_edit_dup_changes() does for all of them at once, so
 * that a caller spreads a large edit's table over several main-loop
 * turns.  The edit must not change meanwhile (its operations are only
 * read; undo and redo do not change them).
 *
 * Returns: the next operation to read: graft_edit_get_n_operations()
 *   once all are
 */
guint
graft_edit_add_changes (GraftEdit  *edit,
                        GHashTable *changes,
                        guint       from,
                        guint       n)
{
  guint end;

  g_return_val_if_fail (edit != NULL, 0);
  g_return_val_if_fail (changes != NULL, from);
  g_return_val_if_fail (from <= edit->n_ops, edit->n_ops);

  end = from + MIN (n, edit->n_ops - from);
  for (guint i = from; i < end; i++)
    {
      EditOp    *op = op_at (edit, i);
      GraftNode *node = op_node (op);
      gpointer   seen = NULL;
      gboolean   known = g_hash_table_lookup_extended (changes, node, NULL, &seen);

      switch (op_kind (op))
        {
        case GRAFT_EDIT_ADD:
          g_hash_table_insert (changes, node, GINT_TO_POINTER (GRAFT_CHANGE_ADDED));
          break;
        case GRAFT_EDIT_ERASE:
          /* Added by this edit and erased again: the edit shows it nowhere. */
          if (known && GPOINTER_TO_INT (seen) == GRAFT_CHANGE_ADDED)
            g_hash_table_remove (changes, node);
          else
            g_hash_table_insert (changes, node, GINT_TO_POINTER (GRAFT_CHANGE_REMOVED));
          break;
        case GRAFT_EDIT_SET_ARGS:
        case GRAFT_EDIT_REPLACE_INPUT:
          if (!known)
            g_hash_table_insert (changes, node, GINT_TO_POINTER (GRAFT_CHANGE_REWIRED));
          break;
        case GRAFT_EDIT_MOVE:
          break;
        default:
          g_assert_not_reached ();
        }
    }
  return end;
}

/**
 * graft_edit_dup_changes:
 * @edit: an edit
 *
 * Says what the edit did to each node it touched, by node identity (a
 * node keeps its address through undo and redo): the nodes it added and
 * kept, those it erased (a node added and erased again within the edit
 * is in neither), and the nodes on both sides whose arguments it changed.
 * A node only moved is not listed.  Linear in the edit's size; by steps,
 * graft_edit_add_changes().
 *
 * Returns: (transfer full) (element-type GraftNode GraftChange): a table
 *   from each changed node (borrowed: it lives as long as the edit) to
 *   its #GraftChange
 */
GHashTable *
graft_edit_dup_changes (GraftEdit *edit)
{
  GHashTable *changes;

  g_return_val_if_fail (edit != NULL, NULL);

  changes = g_hash_table_new (NULL, NULL);
  graft_edit_add_changes (edit, changes, 0, edit->n_ops);
  return changes;
}

void
graft_edit_free (GraftEdit *edit)
{
  if (edit == NULL)
    return;
  if (edit->graph != NULL && _graft_graph_get_recording (edit->graph) == edit)
    _graft_graph_set_recording (edit->graph, NULL);
  /* The arguments kept are in the graph's pool: gone with the graph, or
   * given back to it. */
  for (guint k = 0; k < edit->n_chunks; k++)
    {
      /* Only a change of arguments keeps any. */
      for (guint j = 0, n = chunk_ops (edit, k); j < n; j++)
        if (op_kind (&edit->chunks[k][j]) == GRAFT_EDIT_SET_ARGS)
          {
            EditArgs *args = edit->chunks[k][j].args;

            if (edit->graph != NULL)
              {
                _graft_graph_release_arg (edit->graph, &args->args);
                _graft_graph_release_arg (edit->graph, &args->kwargs);
              }
            g_free (args);
          }
      g_free (edit->chunks[k]);
    }
  /* Chunks reserved and never reached. */
  for (guint k = edit->n_chunks; k < MAX_CHUNKS && edit->chunks[k] != NULL; k++)
    g_free (edit->chunks[k]);
  if (edit->graph != NULL)
    _graft_graph_remove_edit (edit->graph, edit->index);
  g_free (edit->user_records);
  g_free (edit->departures);
  g_free (edit);
}
