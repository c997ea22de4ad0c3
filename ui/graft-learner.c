/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-learner.c: what the editor learns of each revision of a graph by
 * walking it, a share of the nodes a main-loop turn.
 *
 * Contract: a learner finds one answer per revision of its owner's graph
 * (whether the code compiles, whether every node passes the rewriter's
 * check: graft-document-code.c) by a walk its class defines: begun on the
 * graph as it is, stepped a turn's share at a time (graft_learner_due(),
 * in turns of graft-turns.c) or finished at once (graft_learner_learn()).
 * The owner keeps the answer itself; the learner keeps of which revision
 * it is (graft_learner_knows()), and an owner that knows the answer of a
 * new revision without a walk (a rewrite checked what it left) says so
 * with graft_learner_know().
 *
 * What it keeps when the revision changes: the answer stays the older
 * revision's, so it is no longer known; a walk under way, begun on an
 * older revision, is dropped at its next step and begun again on the
 * graph as it is.  When the graph changes, or is freed, without a new
 * revision, the owner must say so first, because the walk reads the
 * graph between turns: graft_learner_drop() for a change of a moment (a
 * step undone and redone: the answer still holds once it is back), or
 * graft_learner_forget() for a graph that is not the revision's any more
 * (changed before the revision is counted, or freed: the answer goes
 * too).  Either way no walk reads it again.  graft_learner_clear() ends
 * it all with its owner.
 */
#include "config.h"

#include "graft-learner.h"

#include "graft-turns.h"

/**
 * graft_learner_init:
 * @self: a learner, zeroed (a field of @owner)
 * @klass: (transfer none): its walk, static
 * @owner: (transfer none): passed to @klass's functions; outlives @self
 * @revision: (transfer none): @owner's count of its graph's changes
 */
void
graft_learner_init (GraftLearner            *self,
                    const GraftLearnerClass *klass,
                    gpointer                 owner,
                    const guint             *revision)
{
  self->klass = klass;
  self->owner = owner;
  self->revision = revision;
}

/**
 * graft_learner_knows:
 * @self: a learner
 *
 * Returns: whether the owner's answer is that of its graph's revision
 */
gboolean
graft_learner_knows (const GraftLearner *self)
{
  return self->known && self->known_revision == *self->revision;
}

/**
 * graft_learner_know:
 * @self: a learner
 *
 * The owner has recorded the answer of the revision (its graph's loader
 * found it, or the rewrite that made the revision checked it): no walk
 * is needed.
 */
void
graft_learner_know (GraftLearner *self)
{
  self->known = TRUE;
  self->known_revision = *self->revision;
}

/**
 * graft_learner_is_walking:
 * @self: a learner
 *
 * Returns: whether a walk has begun and not ended (on any revision)
 */
gboolean
graft_learner_is_walking (const GraftLearner *self)
{
  return self->walk != NULL;
}

/**
 * graft_learner_learn:
 * @self: a learner
 * @at_once: finish the walk now, rather than step a turn's share of it
 *
 * Walks the graph of the revision on from where the last call left it (a
 * walk of an older revision begins again), a turn's share, or what is
 * left at once; at its end the owner records the answer.  The graph must
 * not have changed since the walk began unless the revision did, or the
 * owner dropped it.
 *
 * Returns: whether the answer of the revision is known
 */
gboolean
graft_learner_learn (GraftLearner *self,
                     gboolean      at_once)
{
  if (graft_learner_knows (self))
    return TRUE;
  if (self->walk != NULL && self->walk_revision != *self->revision)
    g_clear_pointer (&self->walk, self->klass->free_walk);
  if (self->walk == NULL)
    {
      self->walk = self->klass->begin (self->owner);
      self->walk_revision = *self->revision;
      self->n_walks++;
    }
  if (!at_once && !self->klass->step (self->owner, self->walk))
    return FALSE;
  self->klass->finish (self->owner, g_steal_pointer (&self->walk));
  graft_learner_know (self);
  return TRUE;
}

static gboolean
turn_cb (gpointer user_data)
{
  GraftLearner *self = user_data;

  if (self->klass->wanted (self->owner) && !graft_learner_learn (self, FALSE))
    return G_SOURCE_CONTINUE;
  self->job = 0;
  return G_SOURCE_REMOVE;
}

/**
 * graft_learner_due:
 * @self: a learner
 *
 * The answer of the revision is wanted: unless it is known, it is learnt
 * in the turns to come, a share of the nodes a turn, while the owner
 * wants it.
 */
void
graft_learner_due (GraftLearner *self)
{
  if (self->job != 0 || graft_learner_knows (self) || !self->klass->wanted (self->owner))
    return;
  self->job = graft_turns_add (turn_cb, self, NULL);
}

/**
 * graft_learner_drop:
 * @self: a learner
 *
 * The graph changes for a moment, without a new revision: a walk under
 * way goes (its next step begins again from the start); the answer stays.
 */
void
graft_learner_drop (GraftLearner *self)
{
  g_clear_pointer (&self->walk, self->klass->free_walk);
}

/**
 * graft_learner_forget:
 * @self: a learner
 *
 * The graph is no longer the revision's, which has not changed yet (an
 * edit recorded before the revision is counted, or the graph freed): a
 * walk under way goes, and so does the answer.
 */
void
graft_learner_forget (GraftLearner *self)
{
  graft_learner_drop (self);
  self->known = FALSE;
}

/**
 * graft_learner_clear:
 * @self: a learner
 *
 * Its owner goes: the walk and its turns end.
 */
void
graft_learner_clear (GraftLearner *self)
{
  graft_learner_drop (self);
  graft_turns_remove (self->job);
  self->job = 0;
}
