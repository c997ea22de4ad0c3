/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-search.c: the canvas's search.
 *
 * Contract: whenever the entry's text changes, the hits are the nodes of
 * the document's graph whose name, op or target contains the text (case
 * folded), in graph order; they are all selected on the canvas, the first
 * is centred, and the count label says "N of M" (or "No nodes" for a text
 * that finds none, nothing for an empty one).  Enter and the entry's
 * next/previous keys, or graft_search_step(), move through the hits, and
 * zoom in to a readable zoom if the view is too small to read a node.  The
 * hits are names, kept until the text changes again.  ::changed is
 * emitted after each of these, so the window can update its actions.
 *
 * The graph is read a few milliseconds per main-loop turn (graft-turns.c):
 * a million nodes take a few hundred milliseconds.  Until the last node
 * is read the earlier hits stay, selected and counted as they were, and
 * nothing else changes; the new ones replace them in one turn.  A change
 * of the graph meanwhile starts the reading again from its first node
 * (nodes are only looked at in a turn in which the document's revision is
 * the one reading began at), and graft_search_step() finishes a reading
 * in progress first, so Enter always moves through the text's hits.
 */
#include "config.h"

#include "graft-search.h"

#include "graft-document-private.h"

#include "graft-turns.h"

#include <string.h>

struct _GraftSearch
{
  GObject parent_instance;

  GraftDocument  *document; /* Owned: whose graph is searched */
  GraftCanvas    *canvas;   /* Owned: shows the hits */
  GtkSearchEntry *entry;    /* Owned: the text looked for */
  GtkLabel       *count;    /* Owned: says which hit is shown */
  GPtrArray      *hits;     /* Owned: char *, names of the nodes found */
  GArray         *places;   /* Owned: guint, their positions in graph order */
  guint           current;  /* the hit shown, when there are any */

  /* A reading of the graph in progress (job != 0), for the entry's text. */
  guint       job;      /* graft_turns_add() */
  char       *needle;   /* Owned: the text, case folded */
  gsize       length;   /* strlen (needle) */
  gboolean    ascii;    /* needle is ASCII */
  GraftGraph *graph;    /* the graph read, not owned */
  guint       revision; /* the document's revision when reading began */
  GraftNode  *next;     /* the next node to read, or NULL when all are */
  guint       at;       /* @next's position in graph order */
  GHashTable *renamed;  /* Owned, nullable: node -> the name the code gives it otherwise */
  GPtrArray  *found;    /* Owned: char *, the hits so far */
  GArray     *found_at; /* Owned: guint, their positions in graph order */
};

/* How long a turn reads the graph, in microseconds. */
#define SCAN_TURN_USEC 4000
/* Nodes read between looks at the clock. */
#define SCAN_CHUNK 512

/* For tests: one step of this many nodes per turn, if not 0. */
static guint test_step_nodes;

/**
 * _graft_search_set_step:
 * @n_nodes: nodes read per main-loop turn, or 0 for the default (as many
 *   as fit in a few milliseconds)
 *
 * For tests: a small graph searched in several turns.
 */
void
_graft_search_set_step (guint n_nodes)
{
  test_step_nodes = n_nodes;
}

G_DEFINE_FINAL_TYPE (GraftSearch, graft_search, G_TYPE_OBJECT)

enum {
  SIGNAL_CHANGED,
  N_SIGNALS,
};

static guint signals[N_SIGNALS];

/* Whether @haystack contains @needle, an ASCII text already folded to
 * lower case, ignoring ASCII case: with no allocation, so that a search of
 * a 50,000-node graph fits in a frame. */
static gboolean
contains_ascii_folded (const char *haystack,
                       const char *needle,
                       gsize       length)
{
  for (const char *h = haystack; *h != '\0'; h++)
    {
      gsize k = 0;

      while (k < length && h[k] != '\0' && g_ascii_tolower (h[k]) == needle[k])
        k++;
      if (k == length)
        return TRUE;
    }
  return FALSE;
}

/* Whether @text contains @needle (case folded), as the Unicode case
 * folding of both says. */
static gboolean
contains_folded (const char *text,
                 const char *needle)
{
  g_autofree char *folded = g_utf8_casefold (text, -1);

  return strstr (folded, needle) != NULL;
}

static gboolean
is_ascii (const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    if ((guchar) *p >= 0x80)
      return FALSE;
  return TRUE;
}

/* Whether @node is a hit of the needle being looked for. */
static gboolean
is_hit (GraftSearch *self,
        GraftNode   *node)
{
  const char *name = graft_node_get_name (node);
  const char *target = graft_node_get_target (node);
  const char *code_name;
  gboolean    hit;

  /* Of two nodes of one name, the copy is found by the name its box and
   * the code give it (`sym_size_int_2`). */
  if (G_UNLIKELY (self->renamed != NULL) &&
      (code_name = g_hash_table_lookup (self->renamed, node)) != NULL)
    name = code_name;
  /* Names, targets and ops are mostly ASCII: Unicode's case folding is
   * needed only where either side is not. */
  if (self->ascii && is_ascii (name) && is_ascii (target))
    hit = contains_ascii_folded (name, self->needle, self->length) ||
          contains_ascii_folded (target, self->needle, self->length);
  else
    hit = contains_folded (name, self->needle) || contains_folded (target, self->needle);
  return hit || strstr (graft_op_to_string (graft_node_get_op (node)), self->needle) != NULL;
}

/* Drops a reading in progress. */
static void
stop_scan (GraftSearch *self)
{
  if (self->job != 0)
    graft_turns_remove (self->job);
  self->job = 0;
  g_clear_pointer (&self->needle, g_free);
  g_clear_pointer (&self->found, g_ptr_array_unref);
  g_clear_pointer (&self->found_at, g_array_unref);
  g_clear_pointer (&self->renamed, g_hash_table_unref);
  self->next = NULL;
  self->graph = NULL;
}

/* Reads the graph from its first node again, as it is now. */
static void
restart_scan (GraftSearch *self)
{
  GHashTable *code_names;

  self->graph = graft_document_get_graph (self->document);
  self->revision = graft_document_get_revision (self->document);
  self->next = graft_graph_get_first (self->graph);
  self->at = 0;
  /* NULL but for a graph with shared names; copied: the document's goes
   * with its code. */
  g_clear_pointer (&self->renamed, g_hash_table_unref);
  code_names = _graft_document_get_code_names (self->document);
  if (code_names != NULL && g_hash_table_size (code_names) > 0)
    {
      GHashTableIter iter;
      gpointer       node;
      gpointer       name;

      self->renamed = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      g_hash_table_iter_init (&iter, code_names);
      while (g_hash_table_iter_next (&iter, &node, &name))
        g_hash_table_insert (self->renamed, node, g_strdup (name));
    }
  g_ptr_array_set_size (self->found, 0);
  g_array_set_size (self->found_at, 0);
}

/* Reads on for about @usec microseconds (G_MAXINT64: to the end), from
 * the first node again if the graph changed since the last turn.  Returns
 * whether every node has been read. */
static gboolean
scan (GraftSearch *self,
      gint64       usec)
{
  gint64 start = g_get_monotonic_time ();
  guint  chunk = test_step_nodes > 0 && usec != G_MAXINT64 ? test_step_nodes : SCAN_CHUNK;

  if (self->graph != graft_document_get_graph (self->document) ||
      self->revision != graft_document_get_revision (self->document))
    restart_scan (self);
  while (self->next != NULL)
    {
      for (guint k = 0; k < chunk && self->next != NULL; k++)
        {
          if (is_hit (self, self->next))
            {
              g_ptr_array_add (self->found, g_strdup (graft_node_get_name (self->next)));
              g_array_append_val (self->found_at, self->at);
            }
          self->next = graft_node_get_next (self->next);
          self->at++;
        }
      if (self->next != NULL && usec != G_MAXINT64 &&
          (test_step_nodes > 0 || g_get_monotonic_time () - start >= usec))
        return FALSE;
    }
  return TRUE;
}

/* The reading done: its hits are the search's, selected and counted. */
static void
finish_scan (GraftSearch *self)
{
  GArray *places = g_steal_pointer (&self->found_at);

  if (self->job != 0)
    graft_turns_remove (self->job);
  self->job = 0;
  g_ptr_array_unref (self->hits);
  self->hits = g_steal_pointer (&self->found);
  g_clear_pointer (&self->needle, g_free);
  g_clear_pointer (&self->renamed, g_hash_table_unref);
  self->next = NULL;
  self->graph = NULL;
  self->current = 0;
  /* Where each hit is in graph order: the canvas finds it there in a
   * layout of this graph without looking its name up. */
  graft_canvas_set_selection_placed (self->canvas, (const char *const *) self->hits->pdata,
                                     (const guint *) (gpointer) places->data, self->hits->len);
  g_array_unref (self->places);
  self->places = places;
  graft_search_step (self, 0);
}

static gboolean
scan_step_cb (gpointer user_data)
{
  GraftSearch *self = user_data;

  /* Selecting the hits takes a turn of its own, after the last read. */
  if (self->next != NULL || self->graph != graft_document_get_graph (self->document) ||
      self->revision != graft_document_get_revision (self->document))
    {
      scan (self, SCAN_TURN_USEC);
      return G_SOURCE_CONTINUE;
    }
  self->job = 0;
  finish_scan (self);
  return G_SOURCE_REMOVE;
}

static void
search_changed_cb (GtkSearchEntry *entry,
                   GraftSearch    *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  stop_scan (self);
  self->needle = g_utf8_casefold (text, -1);
  self->length = strlen (self->needle);
  self->ascii = is_ascii (self->needle);
  self->found = g_ptr_array_new_with_free_func (g_free);
  self->found_at = g_array_new (FALSE, FALSE, sizeof (guint));
  restart_scan (self);
  if (*self->needle == '\0')
    self->next = NULL;
  /* A small graph is read at once; a large one from the next turn on. */
  if (scan (self, SCAN_TURN_USEC))
    finish_scan (self);
  else
    self->job = graft_turns_add (scan_step_cb, self, NULL);
}

static void
search_next_cb (GtkSearchEntry *entry,
                GraftSearch    *self)
{
  graft_search_step (self, 1);
}

static void
search_previous_cb (GtkSearchEntry *entry,
                    GraftSearch    *self)
{
  graft_search_step (self, -1);
}

/**
 * graft_search_new:
 * @document: the document whose graph is searched
 * @canvas: the canvas that shows the hits
 * @entry: the entry whose text is looked for
 * @count: the label that says which hit is shown
 *
 * Returns: (transfer full): a search that follows @entry
 */
GraftSearch *
graft_search_new (GraftDocument  *document,
                  GraftCanvas    *canvas,
                  GtkSearchEntry *entry,
                  GtkLabel       *count)
{
  GraftSearch *self;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (GRAFT_IS_CANVAS (canvas), NULL);
  g_return_val_if_fail (GTK_IS_SEARCH_ENTRY (entry), NULL);
  g_return_val_if_fail (GTK_IS_LABEL (count), NULL);
  self = g_object_new (GRAFT_TYPE_SEARCH, NULL);
  self->document = g_object_ref (document);
  self->canvas = g_object_ref (canvas);
  self->entry = g_object_ref (entry);
  self->count = g_object_ref (count);
  g_signal_connect_object (entry, "search-changed", G_CALLBACK (search_changed_cb), self, 0);
  g_signal_connect_object (entry, "activate", G_CALLBACK (search_next_cb), self, 0);
  g_signal_connect_object (entry, "next-match", G_CALLBACK (search_next_cb), self, 0);
  g_signal_connect_object (entry, "previous-match", G_CALLBACK (search_previous_cb), self, 0);
  return self;
}

/**
 * graft_search_step:
 * @self: a search
 * @step: 1 for the next hit, -1 for the previous, 0 to show the current
 *
 * Centres the canvas on a search hit and says which it is.
 */
void
graft_search_step (GraftSearch *self,
                   int          step)
{
  guint            n;
  g_autofree char *count = NULL;

  g_return_if_fail (GRAFT_IS_SEARCH (self));
  /* The hits of the entry's text, not the earlier ones still shown. */
  if (self->found != NULL)
    {
      scan (self, G_MAXINT64);
      finish_scan (self);
      if (step == 0)
        return;
    }
  n = self->hits->len;
  if (n == 0)
    {
      const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));

      gtk_label_set_text (self->count, *text != '\0' ? "No nodes" : "");
      g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
      return;
    }
  self->current = (guint) (((gint) self->current + step + (gint) n) % (gint) n);
  /* A hit found as the text is typed is centred at the view's zoom (the
   * view does not jump in and out at each key); one asked for by Enter
   * or the next and previous keys is shown readable, as a chosen match
   * is. */
  /* By place: of two nodes of one name, each hit its own box. */
  if (step != 0)
    graft_canvas_show_node_placed (self->canvas, self->hits->pdata[self->current],
                                   graft_search_get_current_place (self));
  else
    graft_canvas_center_on_placed (self->canvas, self->hits->pdata[self->current],
                                   graft_search_get_current_place (self));
  count = g_strdup_printf ("%u of %u", self->current + 1, n);
  gtk_label_set_text (self->count, count);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

/**
 * graft_search_get_current:
 * @self: a search
 *
 * Returns: (nullable): the name of the hit shown, or %NULL when the
 *   search found nothing
 */
const char *
graft_search_get_current (GraftSearch *self)
{
  g_return_val_if_fail (GRAFT_IS_SEARCH (self), NULL);
  return self->hits->len > 0 ? self->hits->pdata[self->current] : NULL;
}

/**
 * graft_search_get_current_place:
 * @self: a search
 *
 * Returns: where the hit shown is in the graph's order as it was read
 *   (of two nodes of one name, which), or %G_MAXUINT when there is none
 */
guint
graft_search_get_current_place (GraftSearch *self)
{
  g_return_val_if_fail (GRAFT_IS_SEARCH (self), G_MAXUINT);
  return self->places->len > 0 ? g_array_index (self->places, guint, self->current) : G_MAXUINT;
}

/**
 * graft_search_get_pending:
 * @self: a search
 *
 * Returns: whether the graph is still being read for the entry's text
 *   (the earlier hits are shown meanwhile)
 */
gboolean
graft_search_get_pending (GraftSearch *self)
{
  g_return_val_if_fail (GRAFT_IS_SEARCH (self), FALSE);
  return self->found != NULL;
}

static void
graft_search_finalize (GObject *object)
{
  GraftSearch *self = GRAFT_SEARCH (object);

  stop_scan (self);
  g_clear_pointer (&self->hits, g_ptr_array_unref);
  g_clear_pointer (&self->places, g_array_unref);
  g_clear_object (&self->count);
  g_clear_object (&self->entry);
  g_clear_object (&self->canvas);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (graft_search_parent_class)->finalize (object);
}

static void
graft_search_class_init (GraftSearchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = graft_search_finalize;

  /**
   * GraftSearch::changed:
   * @self: the search
   *
   * Emitted when the hits or the hit shown may have changed.
   */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
graft_search_init (GraftSearch *self)
{
  self->hits = g_ptr_array_new_with_free_func (g_free);
  self->places = g_array_new (FALSE, FALSE, sizeof (guint));
}
