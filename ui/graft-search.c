/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-search.c: the canvas's search.
 *
 * Contract: whenever the entry's text changes, the hits are the nodes of
 * the document's graph whose name, op or target contains the text (case
 * folded), in graph order; they are all selected on the canvas, the first
 * is centred, and the count label says "N of M" (or "No nodes" for a text
 * that finds none, nothing for an empty one).  Enter and the entry's
 * next/previous keys, or graft_search_step(), move through the hits.  The
 * hits are names, kept until the text changes again.  ::changed is
 * emitted after each of these, so the window can update its actions.
 */
#include "config.h"

#include "graft-search.h"

#include <string.h>

struct _GraftSearch
{
  GObject parent_instance;

  GraftDocument  *document; /* Owned: whose graph is searched */
  GraftCanvas    *canvas;   /* Owned: shows the hits */
  GtkSearchEntry *entry;    /* Owned: the text looked for */
  GtkLabel       *count;    /* Owned: says which hit is shown */
  GPtrArray      *hits;     /* Owned: char *, names of the nodes found */
  guint           current;  /* the hit shown, when there are any */
};

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

static void
search_changed_cb (GtkSearchEntry *entry,
                   GraftSearch    *self)
{
  const char      *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  g_autofree char *needle = g_utf8_casefold (text, -1);
  gsize            length = strlen (needle);
  gboolean         ascii = is_ascii (needle);
  GraftGraph      *graph = graft_document_get_graph (self->document);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  g_ptr_array_set_size (self->hits, 0);
  self->current = 0;
  if (*needle != '\0')
    for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
         node = graft_node_get_next (node))
      {
        const char *name = graft_node_get_name (node);
        const char *target = graft_node_get_target (node);
        gboolean    hit;

        /* Names, targets and ops are mostly ASCII: Unicode's case folding
         * is needed only where either side is not. */
        if (ascii && is_ascii (name) && is_ascii (target))
          hit = contains_ascii_folded (name, needle, length) ||
                contains_ascii_folded (target, needle, length);
        else
          hit = contains_folded (name, needle) || contains_folded (target, needle);
        if (hit || strstr (graft_op_to_string (graft_node_get_op (node)), needle) != NULL)
          g_ptr_array_add (self->hits, g_strdup (name));
      }
  for (guint i = 0; i < self->hits->len; i++)
    g_ptr_array_add (names, self->hits->pdata[i]);
  g_ptr_array_add (names, NULL);
  graft_canvas_set_selection (self->canvas, (const char *const *) names->pdata);
  graft_search_step (self, 0);
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
  n = self->hits->len;
  if (n == 0)
    {
      const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));

      gtk_label_set_text (self->count, *text != '\0' ? "No nodes" : "");
      g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
      return;
    }
  self->current = (guint) (((gint) self->current + step + (gint) n) % (gint) n);
  graft_canvas_center_on (self->canvas, self->hits->pdata[self->current]);
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

static void
graft_search_finalize (GObject *object)
{
  GraftSearch *self = GRAFT_SEARCH (object);

  g_clear_pointer (&self->hits, g_ptr_array_unref);
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
}
