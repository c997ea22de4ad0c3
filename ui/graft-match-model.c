/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-match-model.c: the matches as the match list shows them.
 *
 * Contract: a GListModel of #GraftMatchItem, the matches in the order
 * `replace_pattern` replaces them, then the occurrences its rules drop.
 * Its contents are given whole, as rows of text (graft_match_model_set_rows(),
 * copied from the matches when they are found, so that the model never
 * reads a graph that may have changed since), and it says what changed as
 * one ::items-changed over the smallest range: the rows the old and new
 * contents do not share at their start and at their end.  A row's item is
 * made the first time it is asked for and kept until its row changes, so a
 * GtkListView's widgets for rows that did not change stay bound to the
 * same items, and a list of thousands of matches costs what its visible
 * rows cost.  A kept match's title says its number, so a match that moved
 * to another number is a changed row.
 */
#include "config.h"

#include "graft-match-model.h"
#include "graft-match-item.h"
#include "graft-turns.h"

#include <string.h>

/* One row: a match (@reason NULL) or a dropped occurrence. */
typedef struct
{
  char *reason; /* Owned, or NULL */
  char *nodes;  /* Owned */
  char *anchor; /* Owned */
} Row;

/* GraftMatchRows made and not freed yet, in any thread (for tests). */
static gint n_rows_alive;

struct _GraftMatchRows
{
  GArray *rows;   /* Row */
  guint   n_kept; /* rows that are matches, all before the dropped ones */
};

struct _GraftMatchModel
{
  GObject parent_instance;

  GraftMatchRows *rows;      /* Owned */
  GPtrArray      *items;     /* Owned: GraftMatchItem or NULL, one per row */
  guint           n_created; /* items made so far (for tests and benchmarks) */
  guint           gap_at;    /* while the rows going are said: where the rows */
  guint           gap;       /*   coming are, and how many (hidden till then) */
};

/* A change of more rows coming than this is said as two ::items-changed,
 * the rows going, then the rows coming: told both at once, GTK 4.8's list
 * view looked through every row coming for the items of its rows going,
 * to keep their widgets, and so made every item (choosing another rule at
 * a million nodes: 105,472 items, about 12 ms, and 30 ms to free them at
 * the next change). */
#define SPLIT_ROWS 4096

static void graft_match_model_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GraftMatchModel,
                               graft_match_model,
                               G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      graft_match_model_list_model_init))

static void
clear_item (gpointer data)
{
  if (data != NULL)
    g_object_unref (data);
}

static void
row_clear (gpointer data)
{
  Row *row = data;

  g_free (row->reason);
  g_free (row->nodes);
  g_free (row->anchor);
}

/**
 * graft_match_rows_new:
 *
 * Returns: (transfer full): no rows yet
 */
GraftMatchRows *
graft_match_rows_new (void)
{
  GraftMatchRows *self = g_new0 (GraftMatchRows, 1);

  self->rows = g_array_new (FALSE, FALSE, sizeof (Row));
  g_array_set_clear_func (self->rows, row_clear);
  g_atomic_int_inc (&n_rows_alive);
  return self;
}

/**
 * graft_match_rows_add:
 * @self: rows
 * @reason: (nullable): why `replace_pattern` drops the occurrence, or
 *   %NULL for a match (every match comes before the first dropped one)
 * @nodes: the graph nodes it replaces, comma-separated
 * @anchor: the node to centre on
 *
 * Adds a row at the end.
 */
void
graft_match_rows_add (GraftMatchRows *self,
                      const char     *reason,
                      const char     *nodes,
                      const char     *anchor)
{
  Row row = { g_strdup (reason), g_strdup (nodes), g_strdup (anchor) };

  g_return_if_fail (reason != NULL || self->n_kept == self->rows->len);
  g_array_append_val (self->rows, row);
  if (reason == NULL)
    self->n_kept++;
}

guint
graft_match_rows_get_n_rows (GraftMatchRows *self)
{
  return self->rows->len;
}

void
graft_match_rows_free (GraftMatchRows *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->rows);
  g_free (self);
  g_atomic_int_add (&n_rows_alive, -1);
}

/**
 * graft_match_rows_get_n_alive:
 *
 * Returns: how many sets of rows are made and not freed yet (for tests:
 *   the model frees a large set it no longer shows in later turns)
 */
guint
graft_match_rows_get_n_alive (void)
{
  return (guint) g_atomic_int_get (&n_rows_alive);
}

/* Rows freed per look at the clock, and the processor time a turn frees
 * rows for (free_rows_step()). */
#define FREE_ROWS_CHUNK 4096
#define FREE_ROWS_USEC  3000

/* Frees the last rows of @data (GraftMatchRows), a chunk at a time for
 * about FREE_ROWS_USEC; the rows themselves once none is left. */
static gboolean
free_rows_step (gpointer data)
{
  GraftMatchRows *rows = data;
  gint64          deadline = g_get_monotonic_time () + FREE_ROWS_USEC;

  while (rows->rows->len > 0)
    {
      guint n = MIN (rows->rows->len, FREE_ROWS_CHUNK);

      g_array_remove_range (rows->rows, rows->rows->len - n, n);
      if (g_get_monotonic_time () >= deadline)
        break;
    }
  if (rows->rows->len > 0)
    return G_SOURCE_CONTINUE;
  graft_match_rows_free (rows);
  return G_SOURCE_REMOVE;
}

/* Frees @rows, at once if there are few, else in the turns to come: the
 * three strings of each of 100,000 rows took about 6 ms to free in the
 * turn that shows new ones (nothing else refers to them). */
static void
free_rows_later (GraftMatchRows *rows)
{
  if (rows->rows->len <= FREE_ROWS_CHUNK)
    graft_match_rows_free (rows);
  else
    graft_turns_add (free_rows_step, rows, NULL);
}

/* Items of changed rows unreferenced per look at the clock, and the
 * processor time a turn unreferences them for (free_items_step()). */
#define FREE_ITEMS_CHUNK 1024
#define FREE_ITEMS_USEC  3000

/* Drops the last items of @data (a GPtrArray of GraftMatchItem or NULL),
 * a chunk at a time for about FREE_ITEMS_USEC; the array once none is left. */
static gboolean
free_items_step (gpointer data)
{
  GPtrArray *items = data;
  gint64     deadline = g_get_monotonic_time () + FREE_ITEMS_USEC;

  while (items->len > 0)
    {
      guint n = MIN (items->len, FREE_ITEMS_CHUNK);

      g_ptr_array_remove_range (items, items->len - n, n);
      if (g_get_monotonic_time () >= deadline)
        break;
    }
  if (items->len > 0)
    return G_SOURCE_CONTINUE;
  g_ptr_array_unref (items);
  return G_SOURCE_REMOVE;
}

/* Drops @items (taken), the items of rows that changed, at once if there
 * are few, else in the turns to come: a list whose selection looked for
 * its item among 52,000 changed rows (GtkSingleSelection and GTK's list
 * item manager do, asking for each) had made an item of each, and freeing
 * them took most of the next change's 26-37 ms turn at a million nodes.
 * Nothing but GTK's widgets, which hold their own references, refers to
 * them. */
static void
free_items_later (GPtrArray *items)
{
  if (items->len <= FREE_ITEMS_CHUNK * 4)
    g_ptr_array_unref (items);
  else
    graft_turns_add (free_items_step, items, NULL);
}

/* Whether row @i of @a shows what row @j of @b does. */
static gboolean
rows_equal (GraftMatchRows *a,
            guint           i,
            GraftMatchRows *b,
            guint           j)
{
  const Row *x = &g_array_index (a->rows, Row, i);
  const Row *y = &g_array_index (b->rows, Row, j);

  /* A match's title is its number. */
  if ((x->reason == NULL) != (y->reason == NULL) || (x->reason == NULL && i != j))
    return FALSE;
  return g_strcmp0 (x->reason, y->reason) == 0 && strcmp (x->nodes, y->nodes) == 0 &&
         strcmp (x->anchor, y->anchor) == 0;
}

/**
 * graft_match_model_new:
 *
 * Returns: (transfer full): an empty model
 */
GraftMatchModel *
graft_match_model_new (void)
{
  return g_object_new (GRAFT_TYPE_MATCH_MODEL, NULL);
}

/**
 * graft_match_model_set_rows:
 * @self: a model
 * @rows: (transfer full): what the model holds from now on
 *
 * Emits ::items-changed once, over the rows that differ from the ones it
 * held (not at all if none does).
 */
void
graft_match_model_set_rows (GraftMatchModel *self,
                            GraftMatchRows  *rows)
{
  GraftMatchRows *old;
  guint           n_old;
  guint           n_new;
  guint           head = 0;
  guint           tail = 0;

  g_return_if_fail (GRAFT_IS_MATCH_MODEL (self));
  g_return_if_fail (rows != NULL);

  old = self->rows;
  n_old = old->rows->len;
  n_new = rows->rows->len;
  while (head < MIN (n_old, n_new) && rows_equal (old, head, rows, head))
    head++;
  while (tail < MIN (n_old, n_new) - head &&
         rows_equal (old, n_old - 1 - tail, rows, n_new - 1 - tail))
    tail++;
  self->rows = rows;
  free_rows_later (old);
  if (head + tail == n_old && n_old == n_new)
    return;
  /* The items of changed rows go; those of the rest stay where they are. */
  {
    GPtrArray *items = g_ptr_array_new_full (n_new, clear_item);

    for (guint i = 0; i < n_new; i++)
      {
        guint from = i < head ? i : i >= n_new - tail ? i - n_new + n_old
                                                      : G_MAXUINT;

        g_ptr_array_add (items, from != G_MAXUINT ? g_steal_pointer (&self->items->pdata[from])
                                                  : NULL);
      }
    free_items_later (g_steal_pointer (&self->items));
    self->items = items;
  }
  if (n_old - head - tail > 0 && n_new - head - tail > SPLIT_ROWS)
    {
      /* Between the two, the model is the rows kept alone. */
      self->gap_at = head;
      self->gap = n_new - head - tail;
      g_list_model_items_changed (G_LIST_MODEL (self), head, n_old - head - tail, 0);
      self->gap = 0;
      g_list_model_items_changed (G_LIST_MODEL (self), head, 0, n_new - head - tail);
      return;
    }
  g_list_model_items_changed (G_LIST_MODEL (self), head, n_old - head - tail,
                              n_new - head - tail);
}

/**
 * graft_match_model_get_n_matches:
 * @self: a model
 *
 * Returns: how many rows are matches (the rest are dropped occurrences)
 */
guint
graft_match_model_get_n_matches (GraftMatchModel *self)
{
  g_return_val_if_fail (GRAFT_IS_MATCH_MODEL (self), 0);
  return self->rows->n_kept;
}

/**
 * graft_match_model_get_n_created:
 * @self: a model
 *
 * Returns: how many items the model has made since it was created
 */
guint
graft_match_model_get_n_created (GraftMatchModel *self)
{
  g_return_val_if_fail (GRAFT_IS_MATCH_MODEL (self), 0);
  return self->n_created;
}

/**
 * graft_match_model_get_n_coming:
 * @self: a model
 *
 * Returns: while ::items-changed tells the rows going of a change said in
 *   two (more than SPLIT_ROWS rows coming), how many rows the next
 *   ::items-changed adds; 0 otherwise
 */
guint
graft_match_model_get_n_coming (GraftMatchModel *self)
{
  g_return_val_if_fail (GRAFT_IS_MATCH_MODEL (self), 0);
  return self->gap;
}

static GType
get_item_type (GListModel *model)
{
  return GRAFT_TYPE_MATCH_ITEM;
}

static guint
get_n_items (GListModel *model)
{
  GraftMatchModel *self = GRAFT_MATCH_MODEL (model);

  return self->rows->rows->len - self->gap;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  GraftMatchModel *self = GRAFT_MATCH_MODEL (model);
  const Row       *row;

  if (position >= self->gap_at)
    position += self->gap;
  if (position >= self->rows->rows->len)
    return NULL;
  if (self->items->pdata[position] == NULL)
    {
      row = &g_array_index (self->rows->rows, Row, position);
      self->items->pdata[position] =
          row->reason == NULL ? graft_match_item_new (position, row->nodes, row->anchor)
                              : graft_match_item_new_dropped (row->reason, row->nodes, row->anchor);
      self->n_created++;
    }
  return g_object_ref (self->items->pdata[position]);
}

static void
graft_match_model_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
graft_match_model_finalize (GObject *object)
{
  GraftMatchModel *self = GRAFT_MATCH_MODEL (object);

  g_ptr_array_unref (self->items);
  /* A window closed with a million nodes' matches shown: their rows go
   * in the turns to come too, not in the closing one. */
  free_rows_later (self->rows);
  G_OBJECT_CLASS (graft_match_model_parent_class)->finalize (object);
}

static void
graft_match_model_class_init (GraftMatchModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = graft_match_model_finalize;
}

static void
graft_match_model_init (GraftMatchModel *self)
{
  self->rows = graft_match_rows_new ();
  self->items = g_ptr_array_new_with_free_func (clear_item);
}
