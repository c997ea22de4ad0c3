/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What a learner walks (graft-learner.c): its owner is passed to each. */
typedef struct
{
  /* Whether the owner wants an answer at all now (a graph that did not
   * load has none): else a walk in turns stops. */
  gboolean (*wanted) (gpointer owner);
  /* A new walk of the owner's graph as it is now (owned by the learner). */
  gpointer (*begin) (gpointer owner);
  /* A turn's share of @walk; %TRUE once its answer is found. */
  gboolean (*step) (gpointer owner,
                    gpointer walk);
  /* What is left of @walk, at once, and its answer recorded (the owner's
   * own field): the learner then knows the revision. */
  void (*finish) (gpointer owner,
                  gpointer walk);
  GDestroyNotify free_walk;
} GraftLearnerClass;

typedef struct
{
  /* Borrowed */
  const GraftLearnerClass *klass;
  gpointer                 owner;
  const guint             *revision; /* the owner's count of the graph's changes */
  /* Owned */
  gpointer walk;          /* the walk under way, or NULL */
  guint    walk_revision; /* the revision walk began on */
  guint    job;           /* the walk in turns (graft-turns.c), or 0 */
  /* The answer the owner keeps is of revision known_revision, when known. */
  gboolean known;
  guint    known_revision;
  guint    n_walks; /* walks begun (tests) */
} GraftLearner;

void     graft_learner_init (GraftLearner            *self,
                             const GraftLearnerClass *klass,
                             gpointer                 owner,
                             const guint             *revision);
gboolean graft_learner_knows (const GraftLearner *self);
void     graft_learner_know (GraftLearner *self);
gboolean graft_learner_is_walking (const GraftLearner *self);
gboolean graft_learner_learn (GraftLearner *self,
                              gboolean      at_once);
void     graft_learner_due (GraftLearner *self);
void     graft_learner_drop (GraftLearner *self);
void     graft_learner_forget (GraftLearner *self);
void     graft_learner_clear (GraftLearner *self);

G_END_DECLS
