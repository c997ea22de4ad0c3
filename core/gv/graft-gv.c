/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-gv.c: Graft's door to Graphviz's cgraph, one of the two files that
 * include Graphviz (graft-gv-layout.c, which needs gvc and so lives in
 * the view library, is the other).  It reads DOT text with cgraph and
 * gives back Graft-owned copies of what it found; Graphviz's own
 * structures never outlive a call.  It also owns the lock and the error
 * capture that every Graphviz call in the process goes through.
 *
 * Graphviz keeps global state (its error handler, the lexer, the context)
 * and is not thread-safe, so every entry point here holds one process-wide
 * lock for its whole call.  cgraph's error handler is process-global and
 * prints to stderr by default; ours collects the text into a buffer that
 * the current call turns into a GError (or drops, for warnings).
 *
 * Graphviz can also crash its host on some inputs and options
 * (../shared/spec/layout-notes.md): `splines=ortho` and `nslimit=0.1` are
 * never used, and graft-layout.c bounds the size of every graph it hands to
 * dot.  cgraph's `char *` parameters are not const; this file owns the
 * casts.
 */
#include "config.h"

#include "graft-gv.h"
#include "graft-gv-private.h"
#include "graft-error.h"
#include "graft-limits.h"
#include "graft-source.h"

#include <cgraph.h>
#include <stdlib.h>

/* cgraph's flex scanner, exported by libcgraph but not declared in its
 * headers (Graphviz 2.42/2.43). */
extern int aaglex_destroy (void);
#include <string.h>

static GMutex   gv_lock;
static GThread *gv_owner; /* the thread holding gv_lock, or NULL; atomic */
static gboolean gv_ready;
static GString *gv_messages; /* what Graphviz said during the current call */

static int
collect_message_cb (char *message)
{
  if (gv_messages != NULL && gv_messages->len < 4096)
    g_string_append (gv_messages, message);
  return 0;
}

/**
 * _graft_gv_enter:
 *
 * Takes the lock every Graphviz call in the process holds, and starts
 * collecting what Graphviz says.
 */
void
_graft_gv_enter (void)
{
  g_mutex_lock (&gv_lock);
  g_atomic_pointer_set (&gv_owner, g_thread_self ());
  if (!gv_ready)
    {
      agseterrf (collect_message_cb);
      agseterr (AGWARN);
      gv_ready = TRUE;
    }
  gv_messages = g_string_new (NULL);
  agreseterrors ();
}

/**
 * _graft_gv_leave:
 *
 * Releases the lock.
 *
 * Returns: (transfer full): what Graphviz said since _graft_gv_enter()
 */
char *
_graft_gv_leave (void)
{
  char *messages = g_string_free (g_steal_pointer (&gv_messages), FALSE);

  g_atomic_pointer_set (&gv_owner, NULL);
  g_mutex_unlock (&gv_lock);
  return messages;
}

/**
 * _graft_gv_close:
 * @deadline: a time of g_get_monotonic_time() not to wait past
 *
 * For the exit of the process: waits for the Graphviz call another thread
 * is making to end, and keeps the lock, so that no call starts any more
 * (a thread that would make one waits for the process to end).  On the
 * thread holding the lock (Graphviz called exit()), returns at once.
 *
 * Returns: whether no call is running
 */
gboolean
_graft_gv_close (gint64 deadline)
{
  if (g_atomic_pointer_get (&gv_owner) == g_thread_self ())
    return TRUE;
  while (!g_mutex_trylock (&gv_lock))
    {
      if (g_get_monotonic_time () >= deadline)
        return FALSE;
      g_usleep (1000);
    }
  g_atomic_pointer_set (&gv_owner, g_thread_self ());
  return TRUE;
}

typedef struct
{
  guint64 seq;
  guint   tail;
  guint   head;
} SeqEdge;

static gint
compare_seq_edges (gconstpointer a,
                   gconstpointer b)
{
  const SeqEdge *x = a;
  const SeqEdge *y = b;

  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* cgraph reports a syntax error as `syntax error in line N near 'TOKEN'`;
 * this turns it into a located error, at TOKEN's column when it is on
 * that line. */
static void
set_read_error (GError     **error,
                GraftSource *source,
                const char  *messages)
{
  g_autofree char *line_text = _graft_gv_first_message_line (messages);
  const char      *filename = graft_source_get_filename (source);
  const char      *text = graft_source_get_text (source);
  gsize            length = graft_source_get_length (source);
  const char      *in_line = strstr (line_text, " in line ");
  guint            line = 1;
  guint            column = 1;
  g_autofree char *what = NULL;

  if (in_line != NULL)
    {
      const char *near = strstr (in_line, " near '");

      line =
          (guint) CLAMP (g_ascii_strtoull (in_line + strlen (" in line "), NULL, 10), 1, G_MAXUINT);
      what = g_strndup (line_text, (gsize) (in_line - line_text));
      if (near != NULL)
        {
          const char *token = near + strlen (" near '");
          const char *token_end = strrchr (token, '\'');
          gsize       start = 0;
          guint       l = 1;

          /* Find the line in the text, then the token on it. */
          while (l < line && start < length)
            {
              const char *nl = memchr (text + start, '\n', length - start);

              if (nl == NULL)
                break;
              start = (gsize) (nl - text) + 1;
              l++;
            }
          if (l == line && token_end != NULL && token_end > token)
            {
              const char      *nl = memchr (text + start, '\n', length - start);
              gsize            line_end = nl != NULL ? (gsize) (nl - text) : length;
              g_autofree char *tok = g_strndup (token, (gsize) (token_end - token));
              const char      *hit = g_strstr_len (text + start, (gssize) (line_end - start), tok);

              if (hit != NULL)
                {
                  graft_set_error_at_offset (error, source, (gsize) (hit - text),
                                             (gsize) (hit - text) + strlen (tok),
                                             GRAFT_PARSE_ERROR_SYNTAX, "%s near '%s'", what, tok);
                  return;
                }
              g_free (g_steal_pointer (&what));
              what =
                  g_strdup_printf ("%.*s near '%s'", (int) (in_line - line_text), line_text, tok);
            }
        }
    }
  else
    what = g_strdup (*line_text != '\0' ? line_text : "not a DOT graph");
  graft_set_error_at (error, filename, line, column, GRAFT_PARSE_ERROR_SYNTAX, "%s", what);
}

static GraftGvDoc *
copy_doc (Agraph_t    *g,
          GraftSource *source,
          GError     **error)
{
  g_autoptr (GraftGvDoc) doc = g_new0 (GraftGvDoc, 1);
  g_autoptr (GHashTable) index = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) seq_edges = g_array_new (FALSE, FALSE, sizeof (SeqEdge));
  Agnode_t *n;

  doc->name = g_strdup (agnameof (g));
  doc->is_strict = agisstrict (g);
  doc->nodes = g_ptr_array_new_with_free_func (_graft_gv_doc_node_free);
  doc->edges = g_array_new (FALSE, FALSE, sizeof (GraftGvDocEdge));
  if ((guint) agnnodes (g) > GRAFT_MAX_NODES || (guint) agnedges (g) > GRAFT_MAX_NODES)
    {
      graft_set_error_at (error, graft_source_get_filename (source), 1, 1, GRAFT_PARSE_ERROR_LIMIT,
                          "the graph has more than %u nodes or edges", GRAFT_MAX_NODES);
      return NULL;
    }

  doc->graph_attrs = g_new0 (GraftGvDocNode, 1);
  doc->graph_attrs->name = g_strdup (doc->name);
  doc->graph_attrs->attr_names = g_ptr_array_new_with_free_func (g_free);
  doc->graph_attrs->attr_values = g_ptr_array_new_with_free_func (g_free);
  for (Agsym_t *sym = agnxtattr (g, AGRAPH, NULL); sym != NULL; sym = agnxtattr (g, AGRAPH, sym))
    {
      const char *value = agxget (g, sym);

      if (value == NULL || *value == '\0')
        continue;
      g_ptr_array_add (doc->graph_attrs->attr_names, g_strdup (sym->name));
      g_ptr_array_add (doc->graph_attrs->attr_values, g_strdup (value));
    }

  for (n = agfstnode (g); n != NULL; n = agnxtnode (g, n))
    {
      GraftGvDocNode *node = g_new0 (GraftGvDocNode, 1);

      node->name = g_strdup (agnameof (n));
      node->attr_names = g_ptr_array_new_with_free_func (g_free);
      node->attr_values = g_ptr_array_new_with_free_func (g_free);
      for (Agsym_t *sym = agnxtattr (g, AGNODE, NULL); sym != NULL;
           sym = agnxtattr (g, AGNODE, sym))
        {
          const char *value = agxget (n, sym);

          if (value == NULL || *value == '\0')
            continue;
          g_ptr_array_add (node->attr_names, g_strdup (sym->name));
          g_ptr_array_add (node->attr_values, g_strdup (value));
        }
      g_hash_table_insert (index, n, GUINT_TO_POINTER (doc->nodes->len));
      g_ptr_array_add (doc->nodes, node);
    }

  /* cgraph keeps a node's edges ordered by the other end; the file's
   * order is the edges' creation sequence. */
  for (n = agfstnode (g); n != NULL; n = agnxtnode (g, n))
    for (Agedge_t *e = agfstout (g, n); e != NULL; e = agnxtout (g, e))
      {
        SeqEdge se = {
          AGSEQ (e),
          GPOINTER_TO_UINT (g_hash_table_lookup (index, agtail (e))),
          GPOINTER_TO_UINT (g_hash_table_lookup (index, aghead (e))),
        };

        g_array_append_val (seq_edges, se);
      }
  g_array_sort (seq_edges, compare_seq_edges);
  for (guint i = 0; i < seq_edges->len; i++)
    {
      SeqEdge       *se = &g_array_index (seq_edges, SeqEdge, i);
      GraftGvDocEdge de = { se->tail, se->head };

      g_array_append_val (doc->edges, de);
    }
  return g_steal_pointer (&doc);
}

/* cgraph reads through this, as agmemread() does, a line at a time. */
typedef struct
{
  const char *text;
  gsize       length;
  gsize       pos;
} MemReader;

static int
mem_read_cb (void *chan,
             char *buf,
             int   bufsize)
{
  MemReader *reader = chan;
  int        n = 0;

  while (n < bufsize && reader->pos < reader->length)
    {
      char c = reader->text[reader->pos++];

      buf[n++] = c;
      if (c == '\n')
        break;
    }
  return n;
}

/**
 * _graft_gv_doc_read:
 * @source: DOT text, which must not end inside a comment, a quoted string
 *   or an HTML string (graft-dot-scanner.c checks): cgraph's lexer would stay in
 *   that state for every later read in the process
 * @error: return location for a located error
 *
 * Reads the first graph of @source with cgraph.  Only a directed graph is
 * accepted.
 *
 * Returns: (transfer full) (nullable): the graph's nodes, attributes and
 *   edges
 */
GraftGvDoc *
_graft_gv_doc_read (GraftSource *source,
                    GError     **error)
{
  const char      *text = graft_source_get_text (source);
  gsize            length = graft_source_get_length (source);
  const char      *nul = memchr (text, '\0', length);
  g_autofree char *messages = NULL;
  GraftGvDoc      *doc = NULL;
  GError          *local_error = NULL;
  MemReader        reader = { text, length, 0 };
  Agiodisc_t       io = { mem_read_cb, AgIoDisc.putstr, AgIoDisc.flush };
  Agdisc_t         disc = { &AgMemDisc, &AgIdDisc, &io };
  Agraph_t        *g;

  if (nul != NULL)
    {
      graft_set_error_at_offset (error, source, (gsize) (nul - text), (gsize) (nul - text) + 1,
                                 GRAFT_PARSE_ERROR_SYNTAX, "a NUL byte in DOT text");
      return NULL;
    }
  if (length > GRAFT_MAX_DOT_BYTES)
    {
      graft_set_error_at (error, graft_source_get_filename (source), 1, 1, GRAFT_PARSE_ERROR_LIMIT,
                          "DOT input is larger than %u bytes", GRAFT_MAX_DOT_BYTES);
      return NULL;
    }
  {
    /* Arrows, counted cheaply (one in a string counts too), so a huge
     * graph fails at once rather than after cgraph's seconds of work. */
    guint arrows = 0;

    for (const char *p = text; (p = memchr (p, '-', (gsize) (text + length - p))) != NULL; p++)
      if (p + 1 < text + length && p[1] == '>' && ++arrows > GRAFT_MAX_DOT_EDGES)
        {
          graft_set_error_at_offset (error, source, (gsize) (p - text), (gsize) (p - text) + 2,
                                     GRAFT_PARSE_ERROR_LIMIT, "the graph has more than %u edges",
                                     GRAFT_MAX_DOT_EDGES);
          return NULL;
        }
  }

  _graft_gv_enter ();
  /* cgraph's lexer keeps its line count, whatever it buffered past the
   * first graph, and its start condition (inside a string or a comment)
   * from one read to the next (agmemread() does too).  Its flex scanner is
   * destroyed, which makes the next read start from scratch, and the line
   * count reset; the rest of the text is read, and dropped, after.  (A
   * file that ended inside a string once broke every later read in the
   * process: found by fuzz-dot.) */
  aaglex_destroy ();
  agsetfile (NULL);
  g = agread (&reader, &disc);
  if (g != NULL)
    {
      Agraph_t *extra;

      if (!agisdirected (g))
        graft_set_error_at (&local_error, graft_source_get_filename (source), 1, 1,
                            GRAFT_PARSE_ERROR_SYNTAX, "expected a directed graph (digraph)");
      else
        doc = copy_doc (g, source, &local_error);
      agclose (g);
      messages = g_string_free (g_steal_pointer (&gv_messages), FALSE);
      gv_messages = g_string_new (NULL);
      while ((extra = agread (&reader, &disc)) != NULL)
        agclose (extra);
      g_free (_graft_gv_leave ());
    }
  else
    messages = _graft_gv_leave ();

  if (g == NULL)
    {
      set_read_error (error, source, messages);
      return NULL;
    }
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return NULL;
    }
  return doc;
}

/**
 * graft_gv_enable_dot_reader:
 *
 * Lets graft_dot_parse() read DOT, through cgraph.  Programs that link
 * Graphviz call it once at start-up; in the others (the lean `graft` CLI)
 * graft_dot_parse() fails with %GRAFT_PARSE_ERROR_NO_DOT_READER.
 */
void
graft_gv_enable_dot_reader (void)
{
  _graft_gv_set_doc_reader (_graft_gv_doc_read);
}
