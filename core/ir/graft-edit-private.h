/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-edit-private.h: an edit's operations and their recording, for
 * graft-edit.c and graft-graph.c, which records a few per node a rewrite
 * changes: inline, as a call cost as much as the append.
 */
#pragma once

#include "graft-graph-private.h"

G_BEGIN_DECLS

#define FIRST_CHUNK 16u

#define MAX_CHUNKS 28 /* FIRST_CHUNK << 27 operations: more than G_MAXUINT */

/* The arguments a GRAFT_EDIT_SET_ARGS operation keeps (the other ones:
 * old when applied), apart from the operation, as few edits change
 * arguments: every other operation is three pointers. */
typedef struct
{
  GraftArg args;
  GraftArg kwargs;
} EditArgs;

/* An operation is 24 bytes: a rewrite records about one a node it
 * touches, and the chunks it fills are fresh memory (a page fault for
 * every 4 KB costs more than the rest of the record).  The kind sits in
 * the low bits of the node's address, which a node's alignment leaves
 * zero. */
typedef struct
{
  guintptr   node_kind; /* the node | the GraftEditKind */
  GraftNode *next;      /* ADD, ERASE, MOVE: the node that followed it;
                         * REPLACE_INPUT: the input replaced */
  union
  {
    GraftNode *input; /* REPLACE_INPUT: the input that replaced it */
    EditArgs  *args;  /* SET_ARGS: owned */
  };
} EditOp;

#define EDIT_KIND_MASK ((guintptr) 7)
G_STATIC_ASSERT (G_ALIGNOF (GraftNode) > EDIT_KIND_MASK);
G_STATIC_ASSERT (GRAFT_EDIT_REPLACE_INPUT <= EDIT_KIND_MASK);

static inline GraftEditKind
op_kind (const EditOp *op)
{
  return (GraftEditKind) (op->node_kind & EDIT_KIND_MASK);
}

static inline GraftNode *
op_node (const EditOp *op)
{
  return (GraftNode *) (op->node_kind & ~EDIT_KIND_MASK);
}

static inline guintptr
op_node_kind (GraftNode    *node,
              GraftEditKind kind)
{
  return (guintptr) node | (guintptr) kind;
}

/* How a user left a users list from inside it, or how the list changed
 * otherwise than by appends and by removals of its last user, which undo
 * inverts exactly (graft-graph.c records it): undo puts the user, which
 * the operation's inverse appended, back at @pos.  A list without an
 * index shifted the users after it back (USER_SHIFTED); an indexed one
 * moved its last user into the gap (USER_SWAPPED); USER_INDEX_MADE: the
 * list got its index, which undo drops, so that a redo removes users as
 * the edit did. */
typedef enum {
  USER_SHIFTED,
  USER_SWAPPED,
  USER_INDEX_MADE,
  USER_LEFT_LAST, /* a deferred removal of the list's last user: nothing to put back */
} UserRecordKind;

/* 16 bytes: a rewrite of 2,000 matches on two busy inputs makes 4,000. */
typedef struct
{
  GraftNode *used;     /* whose users list */
  guint32    op;       /* the operation it belongs to: undo puts it right after undoing that */
  guint32    pos_kind; /* the position << 2 | the UserRecordKind */
} UserRecord;

#define USER_RECORD_KIND_MASK 3u

/* A user that left a long users list while the graph deferred removals
 * (graft-graph.c): made as it leaves, settled when the list is (its
 * place found), then handed with the others of the rewrite to the edit,
 * whose record of it it is (as a UserRecord).  24 bytes: a rewrite makes
 * about one a match, in place of a record and a departure of 16 each. */
typedef struct
{
  /* The user that left; once settled, the list's owner. */
  GraftNode *node;
  /* The list's length as stored when it left (every user that came, none
   * that left); once settled, as UserRecord's. */
  guint32 pos_kind;
  guint32 next; /* the list's next departure, until settled */
  guint32 op;   /* the operation it is part of */
} UserDeparture;

struct _GraftEdit
{
  /* Borrowed */
  GraftGraph *graph; /* NULL once the graph is freed */
  guint       index; /* in the graph's list of its edits */

  /* Owned: the operations in the order the changes were made, in chunks
   * that double in size (chunk k holds FIRST_CHUNK << k), so that a long
   * edit (a rewrite records a few per node) is never copied to grow */
  EditOp  *chunks[MAX_CHUNKS];
  guint    n_ops;
  guint    n_chunks;
  EditOp  *next_op;  /* where the next operation goes, in the newest chunk */
  guint    ops_left; /* in it */
  gboolean applied;  /* the state before a replay under way, until it ends */

  /* An undo or a redo under way by steps (graft_edit_undo_step()): the
   * operations left to undo, or replayed already; the user records and
   * departures an undo has not put back yet */
  gboolean replaying;
  guint    replay_op;
  guint    replay_record;
  guint    replay_departure;

  /* Owned: how users lists changed otherwise than undo inverts, in the
   * order recorded (an index made while a node is added belongs to the
   * next operation: sorted by operation at the first undo) */
  UserRecord *user_records;
  guint       n_user_records;
  guint       user_records_size;
  gboolean    user_records_sorted;
  /* Owned: the deferred removals, settled, in the order of the operations */
  UserDeparture *departures;
  guint          n_departures;
};

void _graft_graph_restore_user (GraftNode *used,
                                guint32    pos_kind);
void _graft_edit_take_departures (GraftEdit     *edit,
                                  UserDeparture *departures,
                                  guint          n);
void _graft_edit_grow_user_records (GraftEdit *edit,
                                    guint      n);

/* Records how @used's users list changed in operation @op (UserRecord):
 * inline, as a rewrite makes one for about every match. */
static inline void
_graft_edit_record_user (GraftEdit     *edit,
                         GraftNode     *used,
                         guint          op,
                         guint          pos,
                         UserRecordKind kind)
{
  if (G_UNLIKELY (edit->n_user_records == edit->user_records_size))
    _graft_edit_grow_user_records (edit, 1);
  edit->user_records[edit->n_user_records++] = (UserRecord){
    .used = used, .op = op, .pos_kind = (guint32) pos << 2 | kind
  };
}

/* A new operation at the end, for the caller to fill in (a rewrite
 * records a few per node: this is an inline append, not a GArray's). */
void _graft_edit_add_chunk (GraftEdit *edit);
void _graft_edit_reserve (GraftEdit *edit,
                          guint      n);

static inline EditOp *
add_op (GraftEdit *edit)
{
  if (G_UNLIKELY (edit->ops_left == 0))
    _graft_edit_add_chunk (edit);
  edit->n_ops++;
  edit->ops_left--;
  return edit->next_op++;
}

/**
 * _graft_edit_record:
 * @kind: %GRAFT_EDIT_ADD (just after), %GRAFT_EDIT_ERASE or
 *   %GRAFT_EDIT_MOVE (just before the change)
 *
 * Records a change to @node, which is in the list, followed by its next
 * node: where an undo puts it back.
 */
static inline void
_graft_edit_record (GraftEdit    *edit,
                    GraftEditKind kind,
                    GraftNode    *node)
{
  EditOp *op = add_op (edit);

  op->node_kind = op_node_kind (node, kind);
  op->next = _graft_node_get_next_inline (node);
}

/* Records that every use of @old_input in @node's arguments becomes
 * @new_input, which @node does not use yet, before the change. */
static inline void
_graft_edit_record_replace (GraftEdit *edit,
                            GraftNode *node,
                            GraftNode *old_input,
                            GraftNode *new_input)
{
  EditOp *op = add_op (edit);

  op->node_kind = op_node_kind (node, GRAFT_EDIT_REPLACE_INPUT);
  op->next = old_input;
  op->input = new_input;
}

G_END_DECLS
