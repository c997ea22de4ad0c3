/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-dot-reader.c: graphs from Graphviz DOT: Graft's own DOT
 * (graft-dot-writer.c) back exactly, any other directed DOT graph as a
 * generic dataflow graph.  Reading DOT text is cgraph's job (through
 * graft-gv.c, the only file that includes Graphviz); graft_dot_parse()
 * checks the text, has cgraph read it, finds where the nodes are
 * (graft-dot-scanner.c) and hands the document to the importer of Graft's
 * DOT (graft-dot-import-graft.c) or of plain DOT (graft-dot-import-plain.c).
 *
 * Reading.  The text must be UTF-8 without NUL bytes, at most
 * GRAFT_MAX_DOT_BYTES, must not end inside a comment or a string (cgraph's
 * global lexer would stay there, graft-gv.c), and must hold a directed
 * graph; only its first graph is read.  Then:
 *
 *  - If any node has `graft_op`, the file is Graft's and every node must
 *    have one: a node without it (say, one that a hand edit added through
 *    an edge) is an error rather than a guess.  Nodes keep their names,
 *    which must be Python identifiers, and their file order; a `%name`
 *    must name a node of the file; exactly one node is the output, and it
 *    comes last.  Other attributes and the edges are ignored.
 *  - Otherwise the graph is plain DOT and becomes a dataflow graph.  Nodes
 *    with no in-edge are placeholders and come first, in file order; every
 *    other node is a call_function whose args are the nodes its in-edges
 *    come from, one per edge, in file order; the nodes that feed no other
 *    are returned by the output node (one alone, several as a tuple, in
 *    file order; an empty graph returns None).  The call_function nodes
 *    follow in topological order, earliest in the file first among those
 *    ready; a cycle is an error at the first node in file order that lies
 *    on one.  Names become legal
 *    and unique as torch.fx's namespace makes them, in graph order
 *    (`my-node` becomes `my_node`, `1` becomes `_1`), and a placeholder's
 *    target is its name.  A call_function's target is its `label` (or its
 *    name when it has none) made a dotted Python name: the label's escapes
 *    are expanded (`\N` is the node's name, `\G` the graph's, a line break
 *    separates like a space), then within each dot-separated part every
 *    run of characters other than ASCII letters, digits and `_` becomes
 *    one `_` (runs at either end of a part are dropped), empty parts are
 *    dropped, a part that starts with a digit gets a `_` prefix and a
 *    keyword gets a `_` suffix.  So `torch.relu` stays itself (and codegen
 *    calls it), `Conv 3x3` becomes `Conv_3x3`, and a label with nothing
 *    left (`+`) falls back to the node's legal name.  An HTML label is
 *    cleaned the same way, markup and all (`<b>x</b>` gives `b_x_b`).
 *    Nothing is marked wrapped, so code has no `wrap(...)` lines.
 *
 * Errors are located: cgraph's syntax errors at the token it names,
 * everything about a node at the first place the node appears in the text
 * (found by graft-dot-scanner.c), values inside an attribute at their
 * node, with the character position within the value in the message.
 */
#include "config.h"

#include "graft-dot.h"
#include "graft-dot-importer-private.h"
#include "graft-limits.h"
#include "graft-source.h"

#include <string.h>

static void
importer_clear (Importer *im)
{
  g_clear_pointer (&im->index, g_hash_table_unref);
  g_clear_pointer (&im->spans, g_free);
}

/* Sets a located error at document node @i. */
void
_graft_dot_node_error (Importer           *im,
                       guint               i,
                       GError            **error,
                       GraftParseErrorCode code,
                       const char         *format,
                       ...)
{
  va_list          ap;
  g_autofree char *message = NULL;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  graft_set_error_at_offset (error, im->source, im->spans[i].start, im->spans[i].end,
                             (GraftParseErrorCode) code, "%s", message);
}

/**
 * graft_dot_parse:
 * @source: DOT text
 * @dialect: the torch the graph follows (the one a Graft DOT file records
 *   in `graft_torch` is only informative: the caller's choice wins)
 * @error: return location for a located error
 *
 * Reads a directed DOT graph: Graft's own DOT (graft_dot_print()) back
 * into the graph it was written from, any other DOT as a dataflow graph.
 * The file comment of graft-dot-reader.c gives the rules.
 *
 * Returns: (transfer full) (nullable): the graph, or %NULL with @error set
 */
GraftGraph *
graft_dot_parse (GraftSource        *source,
                 const GraftDialect *dialect,
                 GError            **error)
{
  const char *text;
  gsize       length;
  const char *nul;
  const char *bad = NULL;
  g_autoptr (GraftGvDoc) doc = NULL;
  g_autoptr (GraftSource) cleaned = NULL;
  Importer         im = { 0 };
  gboolean         is_graft = FALSE;
  GraftGraph      *graph;
  GraftGvDocReader read_doc = _graft_gv_get_doc_reader ();

  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (read_doc == NULL)
    {
      graft_set_error_at_offset (error, source, 0, 0, GRAFT_PARSE_ERROR_NO_DOT_READER,
                                 "this program reads no DOT: it does not link Graphviz "
                                 "(graft-render does)");
      return NULL;
    }
  text = graft_source_get_text (source);
  length = graft_source_get_length (source);
  if (length > GRAFT_MAX_DOT_BYTES)
    {
      graft_set_error_at_offset (error, source, 0, 0, GRAFT_PARSE_ERROR_LIMIT,
                                 "DOT input is larger than %u MiB",
                                 GRAFT_MAX_DOT_BYTES / (1024u * 1024u));
      return NULL;
    }
  nul = memchr (text, '\0', length);
  if (nul != NULL)
    {
      graft_set_error_at_offset (error, source, (gsize) (nul - text), (gsize) (nul - text) + 1,
                                 GRAFT_PARSE_ERROR_SYNTAX, "a NUL byte in DOT text");
      return NULL;
    }
  if (!g_utf8_validate_len (text, length, &bad))
    {
      graft_set_error_at_offset (error, source, (gsize) (bad - text), (gsize) (bad - text) + 1,
                                 GRAFT_PARSE_ERROR_SYNTAX,
                                 "DOT input is not valid UTF-8 (byte 0x%02x)", (guchar) *bad);
      return NULL;
    }
  if (!_graft_dot_check_text (source, error))
    return NULL;

  /* cgraph would take a byte order mark for part of a name; spaces keep
   * the lines where they are. */
  if (length >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
    {
      g_autofree char *copy = g_strndup (text, length);

      memset (copy, ' ', 3);
      cleaned = graft_source_new (graft_source_get_filename (source), copy, (gssize) length);
    }
  doc = read_doc (cleaned != NULL ? cleaned : source, error);
  if (doc == NULL)
    return NULL;

  im.source = source;
  im.doc = doc;
  im.dialect = dialect;
  im.index = g_hash_table_new (g_str_hash, g_str_equal);
  im.spans = g_new0 (Span, MAX (doc->nodes->len, 1));
  for (guint i = 0; i < doc->nodes->len; i++)
    {
      g_hash_table_insert (im.index, doc_node (&im, i)->name, GUINT_TO_POINTER (i + 1));
      if (_graft_gv_doc_node_get (doc_node (&im, i), "graft_op") != NULL)
        is_graft = TRUE;
    }
  _graft_dot_find_node_spans (text, length, im.index, im.spans);

  graph = is_graft ? _graft_dot_import_graft (&im, error) : _graft_dot_import_plain (&im, error);
  importer_clear (&im);
  return graph;
}
