/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-document-code.c: the graph's code, made without stopping the main
 * loop.
 *
 * Contract: graft_document_code_async() completes once the document holds
 * the code of its graph as it is then (graft_document_get_code() returns it
 * at once).  The code is generated a few thousand nodes per main-loop turn
 * (a GraftCodegenJob stepped by graft-turns.c), so that a graph of 50,000
 * nodes, whose code takes tens of milliseconds, never stops the window for
 * more than a few; a change of the graph meanwhile starts the job again on
 * the new graph, so what completes is always the code of the graph the
 * document has when the callback runs.  Anything that asks for the code
 * synchronously (graft_document_get_code()) finishes the job at once.  The
 * job keeps nothing in the graph between steps (the matcher and the layout
 * use its scratch slots then), and it is dropped before anything changes
 * the graph, even for a moment (_graft_document_code_drop()).
 *
 * The code is torch's `gm.code`, as `graft code` prints it: for an
 * exported program whose code does not compile, an empty forward
 * (graft_codegen_module_code_string()).  Whether it does is decided here
 * for the whole editor, by graft_codegen_check_module() as the command
 * line decides it: the code view says why (graft_document_get_code_error()),
 * and a rewrite that would leave such a program is refused
 * (_graft_document_check_rewritten()), as `graft rewrite` refuses it.
 *
 * Two answers of each revision of a program's graph are learnt in the
 * turns after a change that leaves them unknown, by the two learners of
 * graft-learner.c here: whether the code compiles (the check above, a
 * GraftCodegenCheck as its walk) and whether every node passes the
 * rewriter's own check (a walk of the nodes).  A rewrite then checks only
 * what it adds.  What a change tells of the graph it leaves is the new
 * revision's answer (_graft_document_learners_told()); a graph changed or
 * freed before its revision is counted makes both forget
 * (_graft_document_learners_forget()); one changed for a moment drops
 * their walks (_graft_document_code_drop()).
 */
#include "config.h"

#include <string.h>

#include "graft-document-private.h"
#include "graft-turns.h"

/* Nodes per step: about a millisecond at 1,000-1,500 instructions each. */
#define DEFAULT_STEP_NODES 2000

static guint step_nodes = DEFAULT_STEP_NODES;

/* Nodes the check whether the code compiles looks at per turn, per node
 * of a code step: 30-40 ns a node against the code's 500-1,000. */
#define CHECK_STEP_FACTOR 25

/**
 * _graft_document_set_code_step:
 * @n_nodes: nodes per main-loop turn, or 0 for the default
 *
 * For tests: a small graph's code made in several turns.
 */
void
_graft_document_set_code_step (guint n_nodes)
{
  step_nodes = n_nodes > 0 ? n_nodes : DEFAULT_STEP_NODES;
}

/**
 * _graft_document_peek_code:
 * @self: a document
 *
 * Returns: (nullable): the graph's code if it is made, without making it
 */
const char *
_graft_document_peek_code (GraftDocument *self)
{
  return self->code;
}

/* Whether the document knows what the check said of its graph as it is. */
static inline gboolean
code_error_current (GraftDocument *self)
{
  return graft_learner_knows (&self->code_learner);
}

/**
 * _graft_document_code_error:
 * @self: a document
 *
 * graft_document_get_code_error() without settling a Replace All under
 * way (the graph is the one before it meanwhile).
 *
 * Returns: (nullable) (transfer none): why torch's module of the graph
 *   does not hold the graph's code, or %NULL if it does
 */
const GError *
_graft_document_code_error (GraftDocument *self)
{
  if (!code_error_current (self))
    {
      /* What a check in steps has seen of the revision is not seen again. */
      if (self->load_error == NULL)
        _graft_document_learn_code_holds (self, TRUE);
      else
        _graft_document_set_code_error (self, NULL);
    }
  return self->code_error;
}

/**
 * _graft_document_code_holds:
 * @self: a document
 *
 * Returns: whether the graph of the document's revision is known to hold
 *   its code (checked, and no error), without checking it
 */
gboolean
_graft_document_code_holds (GraftDocument *self)
{
  return code_error_current (self) && self->code_error == NULL;
}

/**
 * _graft_document_get_n_code_checks:
 * @self: a document
 *
 * For tests: how many times the whole graph's code was checked.
 *
 * Returns: the count since the document was made
 */
guint
_graft_document_get_n_code_checks (GraftDocument *self)
{
  return self->n_code_checks;
}

/**
 * _graft_document_set_code_error:
 * @self: a document
 * @error: (transfer full) (nullable): what graft_codegen_check_module()
 *   said of the graph the document has now (its loader checked it)
 */
void
_graft_document_set_code_error (GraftDocument *self,
                                GError        *error)
{
  g_clear_error (&self->code_error);
  self->code_error = error;
  graft_learner_know (&self->code_learner);
}

/**
 * graft_document_get_code_error:
 * @self: a document
 *
 * Why the code graft_document_get_code() returns is not the graph's: an
 * exported program whose code torch cannot compile (an input named by a
 * Python keyword, ...) has torch's empty forward as its code, as `graft
 * code` prints it.  Checked once per change of the graph.
 *
 * Returns: (nullable) (transfer none): the error (%GRAFT_ERROR_GRAPH,
 *   its message `SyntaxError: ...` as `graft rewrite` reports it), or
 *   %NULL when the code is the graph's; valid until the graph changes
 */
const GError *
graft_document_get_code_error (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  _graft_document_settle (self);
  return _graft_document_code_error (self);
}

/**
 * _graft_document_make_code:
 * @self: a document
 *
 * Returns: (transfer full): the code of the graph, made at once
 */
char *
_graft_document_make_code (GraftDocument *self)
{
  if (_graft_document_code_error (self) != NULL)
    return g_string_free (graft_codegen_empty_module_code_string (self->graph), FALSE);
  return graft_codegen_python (self->graph);
}

/* The code check as a learner's walk: a GraftCodegenCheck of the graph,
 * CHECK_STEP_FACTOR nodes a turn per node of a code step. */
static gboolean
wanted (gpointer owner)
{
  GraftDocument *self = owner;

  return self->load_error == NULL;
}

static gpointer
code_begin (gpointer owner)
{
  GraftDocument *self = owner;

  return graft_codegen_check_new (self->graph);
}

static gboolean
code_step (gpointer owner,
           gpointer walk)
{
  return graft_codegen_check_step (walk, step_nodes * CHECK_STEP_FACTOR);
}

static void
code_finish (gpointer owner,
             gpointer walk)
{
  GError *error = NULL;

  graft_codegen_check_finish (walk, &error);
  _graft_document_set_code_error (owner, error);
}

static const GraftLearnerClass code_class = {
  .wanted = wanted,
  .begin = code_begin,
  .step = code_step,
  .finish = code_finish,
  .free_walk = (GDestroyNotify) graft_codegen_check_free,
};

/* The rewriter's own check as a learner's walk: the next node to look at
 * (borrowed; NULL at the end), as many nodes a turn as the code check's. */
typedef struct
{
  GraftNode *next;
  gboolean   failed;
} RewriteWalk;

static gpointer
rewrite_begin (gpointer owner)
{
  GraftDocument *self = owner;
  RewriteWalk   *walk = g_new0 (RewriteWalk, 1);

  walk->next = graft_graph_get_first (self->graph);
  return walk;
}

/* Looks at @n nodes of @walk, or every node left if @n is 0; %TRUE at its
 * end, or at the first node that fails. */
static gboolean
rewrite_walk (RewriteWalk *walk,
              guint        n)
{
  for (guint i = 0; walk->next != NULL && (n == 0 || i < n); i++)
    {
      if (!graft_rewriter_check_node (walk->next, NULL))
        {
          /* The rewrite checks the whole graph, and fails as it should. */
          walk->failed = TRUE;
          return TRUE;
        }
      walk->next = graft_node_get_next (walk->next);
    }
  return walk->next == NULL;
}

static gboolean
rewrite_step (gpointer owner,
              gpointer walk)
{
  return rewrite_walk (walk, step_nodes * CHECK_STEP_FACTOR);
}

static void
rewrite_finish (gpointer owner,
                gpointer walk)
{
  GraftDocument *self = owner;
  RewriteWalk   *w = walk;

  rewrite_walk (w, 0);
  self->rewrite_ok = !w->failed;
  g_free (w);
}

static const GraftLearnerClass rewrite_class = {
  .wanted = wanted,
  .begin = rewrite_begin,
  .step = rewrite_step,
  .finish = rewrite_finish,
  .free_walk = g_free,
};

/**
 * _graft_document_learners_init:
 * @self: a document being made
 */
void
_graft_document_learners_init (GraftDocument *self)
{
  graft_learner_init (&self->code_learner, &code_class, self, &self->revision);
  graft_learner_init (&self->rewrite_learner, &rewrite_class, self, &self->revision);
}

/**
 * _graft_document_learners_told:
 * @self: a document whose revision has just changed
 *
 * What the change said of the graph it left (a rewrite checked it, a
 * deletion kept what the graph before passed) is the new revision's
 * answer.
 */
void
_graft_document_learners_told (GraftDocument *self)
{
  if (self->code_holds_next)
    _graft_document_set_code_error (self, NULL);
  self->code_holds_next = FALSE;
  if (self->rewrite_ok_next)
    {
      self->rewrite_ok = TRUE;
      graft_learner_know (&self->rewrite_learner);
    }
  self->rewrite_ok_next = FALSE;
}

/**
 * _graft_document_learners_due:
 * @self: a document whose graph has just changed
 *
 * What is not known of the new graph (a graph read or restored, the
 * graph after a run of the rules or an undo, one the check did not pass
 * before) is learnt, for an exported program, in the turns to come, a
 * share of the nodes a turn: whether its code compiles (the next rewrite,
 * which needs it (_graft_document_check_rewritten()), then checks only
 * what it adds, where the whole graph at once took 20-34 ms at a million
 * nodes), and whether every node passes the rewriter's own check (the next
 * Replace then checks only the nodes it adds, where the rewriter's walk
 * of every node took 8-12 ms).
 */
void
_graft_document_learners_due (GraftDocument *self)
{
  if (graft_graph_get_program (self->graph) == NULL)
    return;
  graft_learner_due (&self->code_learner);
  graft_learner_due (&self->rewrite_learner);
}

/**
 * _graft_document_learners_forget:
 * @self: a document
 *
 * The graph is not the revision's any more, which is not counted yet (a
 * change recorded before its revision, or the graph freed): no walk under
 * way reads it again, and what was known of the revision is forgotten.
 */
void
_graft_document_learners_forget (GraftDocument *self)
{
  graft_learner_forget (&self->code_learner);
  graft_learner_forget (&self->rewrite_learner);
}

/**
 * _graft_document_learn_code_holds:
 * @self: a document
 * @at_once: look at every node left now, rather than a turn's share
 *
 * Checks whether torch's module of the graph as it is holds its code,
 * in steps (a turn's share, CHECK_STEP_FACTOR nodes per node of a code
 * step) or what is left of it at once: the check of the revision goes on
 * from one call to the next (one begun for an older revision starts
 * again), and what it finds is the revision's answer
 * (_graft_document_code_holds()).  The graph must not have changed since
 * the check began unless the revision did.
 *
 * Returns: whether the answer for the revision is known
 */
gboolean
_graft_document_learn_code_holds (GraftDocument *self,
                                  gboolean       at_once)
{
  if (self->load_error != NULL || code_error_current (self))
    return TRUE;
  if (at_once)
    self->n_code_checks++;
  return graft_learner_learn (&self->code_learner, at_once);
}

/**
 * _graft_document_code_learning:
 * @self: a document
 *
 * Returns: whether a check of the code is under way, begun on the graph
 *   as it is unless the revision changed since
 */
gboolean
_graft_document_code_learning (GraftDocument *self)
{
  return graft_learner_is_walking (&self->code_learner);
}

/**
 * _graft_document_rewrite_ok:
 * @self: a document
 *
 * Returns: whether every node of the graph of the document's revision is
 *   known to pass the rewriter's own check (graft_rewriter_check_node()),
 *   so that a rewrite need check only what it adds
 *   (graft_rewrite_job_set_checked())
 */
gboolean
_graft_document_rewrite_ok (GraftDocument *self)
{
  return graft_learner_knows (&self->rewrite_learner) && self->rewrite_ok;
}

/**
 * _graft_document_get_n_rewrite_walks:
 * @self: a document
 *
 * For tests: how many walks of the whole graph for the rewriter's check
 * the document began.
 *
 * Returns: the count since the document was made
 */
guint
_graft_document_get_n_rewrite_walks (GraftDocument *self)
{
  return self->rewrite_learner.n_walks;
}

/**
 * _graft_document_check_rewritten:
 * @self: a document whose graph a rewrite has just changed, before it is
 *   recorded
 * @added: (nullable) (element-type GraftNode): the nodes the rewrite
 *   added, or %NULL to check the whole graph
 * @error: return location for the reason
 *
 * torch's `replace_pattern` ends in `gm.recompile()`, which fails on code
 * that does not compile: so does `graft rewrite`, and so does a rewrite
 * of the editor, whose caller then undoes it.  With @added, the caller
 * records the rewrite next if it holds (the graph's next revision is then
 * known to hold).
 *
 * Returns: %TRUE if the rewritten graph's module holds its code
 */
gboolean
_graft_document_check_rewritten (GraftDocument *self,
                                 GPtrArray     *added,
                                 GError       **error)
{
  gboolean ok;

  /* Known to hold before it (the revision is still the one before): only
   * what it added can break it (20 ms at a million nodes otherwise). */
  if (added != NULL && _graft_document_code_holds (self))
    self->code_holds_next = graft_codegen_check_module_added (self->graph, added, error);
  else
    {
      self->n_code_checks++;
      self->code_holds_next = graft_codegen_check_module (self->graph, error);
    }
  /* The rewrite of one rule is recorded next, at once, when it holds;
   * a run of the rules may record nothing. */
  ok = self->code_holds_next;
  if (added == NULL)
    self->code_holds_next = FALSE;
  return ok;
}

/* Completes every task waiting for the code. */
static void
complete_waiting (GraftDocument *self)
{
  GPtrArray *waiting = g_steal_pointer (&self->code_waiting);

  if (waiting == NULL)
    return;
  for (guint i = 0; i < waiting->len; i++)
    {
      GTask *task = waiting->pdata[i];

      if (!g_task_return_error_if_cancelled (task))
        g_task_return_boolean (task, TRUE);
    }
  g_ptr_array_unref (waiting);
}

static void set_code_names (GraftDocument *self,
                            GHashTable    *renamed);

static gboolean
code_step_cb (gpointer user_data)
{
  GraftDocument *self = user_data;

  if (self->code != NULL)
    {
      /* Made meanwhile, synchronously. */
      g_clear_pointer (&self->codegen, graft_codegen_job_free);
      graft_learner_drop (&self->code_learner);
      self->code_job = 0;
      complete_waiting (self);
      return G_SOURCE_REMOVE;
    }
  if (self->codegen != NULL && self->codegen_revision != self->revision)
    graft_turns_free_later (g_steal_pointer (&self->codegen),
                            (GDestroyNotify) graft_codegen_job_free);
  /* Whether the code is the graph's, a walk of the whole graph: in steps
   * too (30-40 ms at a million nodes). */
  if (self->codegen == NULL && !_graft_document_learn_code_holds (self, FALSE))
    return G_SOURCE_CONTINUE;
  if (self->codegen == NULL && _graft_document_code_error (self) != NULL)
    {
      /* torch's empty forward: a few lines. */
      self->code = _graft_document_make_code (self);
      self->code_job = 0;
      complete_waiting (self);
      return G_SOURCE_REMOVE;
    }
  if (self->codegen == NULL)
    {
      /* Its first steps look at the graph's names (in steps too: a walk
       * of 30-40 ms at a million nodes was this turn's, on redo). */
      self->codegen = graft_codegen_job_new (self->graph);
      self->codegen_revision = self->revision;
      return G_SOURCE_CONTINUE;
    }
  if (!graft_codegen_job_step (self->codegen, step_nodes))
    return G_SOURCE_CONTINUE;
  self->code = graft_codegen_job_take_code (self->codegen);
  /* Which node each line is of, where two share a name: read now, from
   * the names the code was written with. */
  if (graft_graph_has_shared_names (self->graph))
    set_code_names (self, graft_codegen_job_dup_renamed (self->codegen));
  /* Its tables: 9-12 ms to free at a million nodes. */
  graft_turns_free_later (g_steal_pointer (&self->codegen),
                          (GDestroyNotify) graft_codegen_job_free);
  self->code_job = 0;
  complete_waiting (self);
  return G_SOURCE_REMOVE;
}

/**
 * graft_document_code_async:
 * @self: a document
 * @cancellable: (nullable): stops waiting (the code is still made)
 * @callback: called once the document holds its graph's code, with no
 *   source object
 * @user_data: for @callback
 *
 * Makes the graph's code in steps, a few per main-loop turn, unless it is
 * known already (then @callback runs on the next turn).
 */
void
graft_document_code_async (GraftDocument      *self,
                           GCancellable       *cancellable,
                           GAsyncReadyCallback callback,
                           gpointer            user_data)
{
  GTask *task;

  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  _graft_document_settle (self);
  /* Without the document as its source: waiting keeps no reference, so
   * the document goes with its window (whose handlers would outlive it);
   * whoever still waits is told then (_graft_document_code_dispose()). */
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, graft_document_code_async);
  if (self->code != NULL && self->code_job == 0)
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }
  if (self->code_waiting == NULL)
    self->code_waiting = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (self->code_waiting, task);
  if (self->code_job == 0)
    self->code_job = graft_turns_add (code_step_cb, self, NULL);
}

/**
 * _graft_code_copy_clear:
 * @copy: a copy of a document's code by steps, zero-filled or used
 *
 * Frees what was copied; @copy is empty again.
 */
void
_graft_code_copy_clear (GraftCodeCopy *copy)
{
  g_clear_pointer (&copy->pieces, g_ptr_array_unref);
  copy->len = 0;
  copy->from = NULL;
}

/**
 * _graft_code_copy_step:
 * @copy: a copy of a document's code by steps
 * @code: the document's code; another text than the last step's starts
 *   the copy again
 * @chunk: how many bytes to copy at most
 *
 * Copies the next @chunk bytes of @code into a piece of their own: a
 * string grown by doubling copied all it held at each growth (a turn of
 * 28-96 ms at a million nodes, 16 to 32 MB copied into fresh pages).
 *
 * Returns: whether the whole of @code is copied
 */
gboolean
_graft_code_copy_step (GraftCodeCopy *copy,
                       const char    *code,
                       gsize          chunk)
{
  gsize n;

  if (copy->pieces == NULL || code != copy->from)
    {
      _graft_code_copy_clear (copy);
      copy->pieces = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      copy->from = code;
    }
  n = strnlen (code + copy->len, chunk);
  g_ptr_array_add (copy->pieces, g_bytes_new (code + copy->len, n));
  copy->len += n;
  return n < chunk;
}

/**
 * _graft_code_copy_join:
 * @copy: a copy of a document's code, whole (_graft_code_copy_step())
 *
 * Any thread may call it (the worker that writes the code does).
 *
 * Returns: (transfer full): the code copied, one string; @copy is empty
 */
char *
_graft_code_copy_join (GraftCodeCopy *copy)
{
  char *text = copy->pieces != NULL ? graft_output_join_pieces (copy->pieces, NULL) : g_strdup ("");

  _graft_code_copy_clear (copy);
  return text;
}

/**
 * _graft_document_code_begin:
 * @self: a document
 *
 * Makes the graph's code in steps if it is not made nor being made,
 * without settling the document (a switch of torch under way waits for
 * it, and the graph does not change meanwhile).
 */
void
_graft_document_code_begin (GraftDocument *self)
{
  if (self->code == NULL && self->code_job == 0)
    self->code_job = graft_turns_add (code_step_cb, self, NULL);
}

/**
 * graft_document_code_finish:
 * @self: (nullable): the document, or %NULL (the callback has no source
 *   object, and the document may have gone)
 * @result: the result
 * @error: return location for an error (cancelled, or the document went)
 *
 * Returns: %TRUE when graft_document_get_code() returns the code of the
 *   graph the document has now, without making it
 */
gboolean
graft_document_code_finish (GraftDocument *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (self == NULL || GRAFT_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == graft_document_code_async,
                        FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * graft_document_get_code_pending:
 * @self: a document
 *
 * Returns: whether the code is being made in steps
 */
gboolean
graft_document_get_code_pending (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  return self->code_job != 0;
}

/* Forgets the code's names of nodes (code_renamed). */
void
_graft_document_code_names_clear (GraftDocument *self)
{
  g_clear_pointer (&self->code_names, g_hash_table_unref);
  g_clear_pointer (&self->code_renamed, g_hash_table_unref);
  self->code_renamed_graph = NULL;
}

/* Keeps @renamed (transfer full, nullable: graft_codegen_job_dup_renamed())
 * as the names of the graph as it is. */
static void
set_code_names (GraftDocument *self,
                GHashTable    *renamed)
{
  GHashTableIter iter;
  gpointer       name;
  gpointer       node;

  _graft_document_code_names_clear (self);
  self->code_renamed = renamed;
  self->code_renamed_graph = self->graph;
  self->code_renamed_revision = self->revision;
  if (renamed == NULL)
    return;
  self->code_names = g_hash_table_new (NULL, NULL);
  g_hash_table_iter_init (&iter, renamed);
  while (g_hash_table_iter_next (&iter, &name, &node))
    g_hash_table_insert (self->code_names, node, name);
}

/* The code's names of nodes found otherwise than by their names, known
 * for the graph as it is; %NULL when a name finds the node its line is of
 * (a graph without shared names: those are one node's code names). */
static GHashTable *
code_renamed (GraftDocument *self)
{
  g_autoptr (GraftCodegenJob) job = NULL;

  if (self->graph == NULL || self->load_error != NULL)
    return NULL;
  /* Known: asked per line of the code, and whether names are shared is a
   * walk of the graph's sharers. */
  if (self->code_renamed_graph == self->graph && self->code_renamed_revision == self->revision)
    return self->code_renamed;
  if (!graft_graph_has_shared_names (self->graph))
    {
      set_code_names (self, NULL);
      return NULL;
    }
  /* Made with the code (code_step_cb()) unless the code was made at once
   * or kept across an undo: the code once more then, to read its names
   * (only a graph with shared names: a program's). */
  job = graft_codegen_job_new (self->graph);
  g_free (graft_codegen_job_take_code (job));
  set_code_names (self, graft_codegen_job_dup_renamed (job));
  return self->code_renamed;
}

/**
 * graft_document_find_code_node:
 * @self: a document
 * @code_name: a name the graph's code gives a node (`    name = ...`)
 *
 * The code names the second of two nodes of one name otherwise (as torch's
 * python_code does): its own name finds the first.
 *
 * Returns: (transfer none) (nullable): the node the code calls @code_name
 */
GraftNode *
graft_document_find_code_node (GraftDocument *self,
                               const char    *code_name)
{
  GHashTable *renamed;
  GraftNode  *node;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  if (self->graph == NULL)
    return NULL;
  renamed = code_renamed (self);
  if (renamed != NULL && (node = g_hash_table_lookup (renamed, code_name)) != NULL)
    return node;
  node = graft_graph_find_node (self->graph, code_name);
  /* A node the code calls otherwise: another's line, or none. */
  if (node != NULL && self->code_names != NULL && g_hash_table_contains (self->code_names, node))
    return NULL;
  return node;
}

/**
 * _graft_document_get_code_names:
 * @self: a document
 *
 * Returns: (transfer none) (nullable): node -> the name the graph's code
 *   gives it, for the nodes it names otherwise than by their own names
 *   (the second of two nodes of one name); %NULL for a graph without
 *   shared names (asked per layout: no walk of the graph then)
 */
GHashTable *
_graft_document_get_code_names (GraftDocument *self)
{
  if (code_renamed (self) == NULL)
    return NULL;
  return self->code_names;
}

/**
 * graft_document_get_code_name:
 * @self: a document
 * @node: a node of the document's graph
 *
 * Returns: the name the graph's code gives @node (its own, but for the
 *   second of two nodes of one name)
 */
const char *
graft_document_get_code_name (GraftDocument *self,
                              GraftNode     *node)
{
  const char *name;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (node != NULL, NULL);
  if (code_renamed (self) != NULL && (name = g_hash_table_lookup (self->code_names, node)) != NULL)
    return name;
  return graft_node_get_name (node);
}

/**
 * _graft_document_code_drop:
 * @self: a document
 *
 * Before the graph changes for a moment (a step undone and redone): the
 * job's half-made code is dropped, and made again from the start at its
 * next step.
 */
void
_graft_document_code_drop (GraftDocument *self)
{
  self->code_drops++;
  graft_learner_drop (&self->code_learner);
  graft_learner_drop (&self->rewrite_learner);
  graft_turns_free_later (g_steal_pointer (&self->codegen),
                          (GDestroyNotify) graft_codegen_job_free);
}

/**
 * _graft_document_code_finish_now:
 * @self: a document
 *
 * graft_document_get_code() made the code at once: whoever waits for it
 * is told, and the job ends.
 */
void
_graft_document_code_finish_now (GraftDocument *self)
{
  _graft_document_settle (self);
  g_clear_pointer (&self->codegen, graft_codegen_job_free);
  graft_learner_drop (&self->code_learner);
  if (self->code_job == 0)
    return;
  graft_turns_remove (self->code_job);
  self->code_job = 0;
  complete_waiting (self);
}

/**
 * _graft_document_code_dispose:
 * @self: a document going away
 *
 * Ends the job; whoever still waits is told the wait was cancelled.
 */
void
_graft_document_code_dispose (GraftDocument *self)
{
  GPtrArray *waiting = g_steal_pointer (&self->code_waiting);

  g_clear_pointer (&self->codegen, graft_codegen_job_free);
  graft_turns_remove (self->code_job);
  self->code_job = 0;
  graft_learner_clear (&self->code_learner);
  graft_learner_clear (&self->rewrite_learner);
  if (waiting == NULL)
    return;
  for (guint i = 0; i < waiting->len; i++)
    g_task_return_new_error (waiting->pdata[i], G_IO_ERROR, G_IO_ERROR_CANCELLED,
                             "the document went away");
  g_ptr_array_unref (waiting);
}
