/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-gv-doc.c: the parts of Graft's Graphviz door that need no Graphviz:
 * the documents graft-gv.c reads DOT into, and the wording of Graphviz's
 * messages.  They live in the text core; graft-gv.c, which links cgraph,
 * lives in its own library, which the lean `graft` CLI does not link (it
 * hands DOT inputs to graft-render).
 */
#include "config.h"

#include "graft-gv-private.h"

#include <string.h>

static GraftGvDocReader doc_reader; /* atomic; set once at start-up */

GraftGvDocReader
_graft_gv_get_doc_reader (void)
{
  return (GraftGvDocReader) g_atomic_pointer_get (&doc_reader);
}

void
_graft_gv_set_doc_reader (GraftGvDocReader reader)
{
  g_atomic_pointer_set (&doc_reader, reader);
}

/* The first line of what Graphviz said, without its `Error: ` prefix. */
char *
_graft_gv_first_message_line (const char *messages)
{
  const char *p = messages;
  const char *nl;

  while (*p == '\n' || *p == ' ')
    p++;
  if (g_str_has_prefix (p, "Error: "))
    p += strlen ("Error: ");
  else if (g_str_has_prefix (p, "Error:"))
    p += strlen ("Error:");
  while (*p == ' ')
    p++;
  nl = strchr (p, '\n');
  return g_strndup (p, nl != NULL ? (gsize) (nl - p) : strlen (p));
}

/* Frees a node of a document (the free function of its nodes array). */
void
_graft_gv_doc_node_free (gpointer data)
{
  GraftGvDocNode *node = data;

  g_free (node->name);
  g_ptr_array_unref (node->attr_names);
  g_ptr_array_unref (node->attr_values);
  g_free (node);
}

/**
 * _graft_gv_doc_free:
 * @doc: (transfer full): a document
 */
void
_graft_gv_doc_free (GraftGvDoc *doc)
{
  if (doc == NULL)
    return;
  g_free (doc->name);
  g_ptr_array_unref (doc->nodes);
  g_array_unref (doc->edges);
  if (doc->graph_attrs != NULL)
    _graft_gv_doc_node_free (doc->graph_attrs);
  g_free (doc);
}

/**
 * _graft_gv_doc_node_get:
 * @node: a node of a document
 * @attr: an attribute name
 *
 * Returns: (nullable) (transfer none): the node's value for @attr
 */
const char *
_graft_gv_doc_node_get (const GraftGvDocNode *node,
                        const char           *attr)
{
  for (guint i = 0; i < node->attr_names->len; i++)
    if (strcmp (g_ptr_array_index (node->attr_names, i), attr) == 0)
      return g_ptr_array_index (node->attr_values, i);
  return NULL;
}
