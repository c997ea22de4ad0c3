/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-dot-import-graft.c: Graft's own DOT (graft-dot-writer.c) back into
 * the graph it was written from: every node's graft_* attributes, values
 * read by the shared value reader (graft-value-reader.c), escaped text by
 * graft-dot-escape.c.  graft-dot-reader.c gives the rules.
 */
#include "config.h"

#include "graft-dot-importer-private.h"
#include "graft-arg.h"
#include "graft-dot-escape-private.h"
#include "graft-graph.h"
#include "graft-limits.h"
#include "graft-namespace.h"
#include "graft-source.h"
#include "graft-value-reader-private.h"

#include <string.h>

/* A `%name` in a value: a GRAFT_ARG_NODE with a NULL node and `n` the
 * referenced document node's index, linked once every node exists. */
static gboolean
find_ref (GraftValueReader *vr,
          gsize             start,
          gsize             name_start,
          gsize             end,
          GraftArg         *out)
{
  GHashTable      *index = vr->user_data;
  g_autofree char *name = NULL;
  guint            found;

  if (end - name_start > GRAFT_MAX_NAME_LENGTH)
    return _graft_value_fail (vr, start, start, GRAFT_PARSE_ERROR_SYNTAX,
                              "the node name is too long");
  name = g_strndup (vr->text + name_start, end - name_start);
  found = GPOINTER_TO_UINT (g_hash_table_lookup (index, name));
  if (found == 0)
    return _graft_value_fail (vr, start, start, GRAFT_PARSE_ERROR_SYNTAX,
                              "'%%%s' is not a node of the graph", name);
  graft_arg_init_node (out, NULL);
  out->n = found - 1;
  return TRUE;
}

/* Reads attribute @attr of document node @i as a value. */
static gboolean
read_attr_value (Importer   *im,
                 guint       i,
                 const char *attr,
                 const char *text,
                 GraftArg   *out,
                 GError    **error)
{
  GraftValueReader vr;
  GraftArg         value;
  gboolean         ok = FALSE;

  _graft_value_reader_init (&vr, text, find_ref, im->index);
  vr.end = strlen (text);
  if (!_graft_value_read (&vr, GRAFT_VALUE_DOT, &value))
    _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_SYNTAX,
                           "%s of '%s': %s at character %ld", attr, doc_node (im, i)->name,
                           vr.message, g_utf8_strlen (text, (gssize) vr.fail_start) + 1);
  else
    {
      _graft_value_skip_blanks (&vr);
      if (vr.pos < vr.end)
        {
          graft_arg_clear (&value);
          _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_SYNTAX,
                                 "%s of '%s': unexpected text at character %ld", attr,
                                 doc_node (im, i)->name, g_utf8_strlen (text, (gssize) vr.pos) + 1);
        }
      else
        {
          *out = value;
          ok = TRUE;
        }
    }
  _graft_value_reader_clear (&vr);
  return ok;
}

/* Reads the escaped text of attribute @attr of document node @i. */
static char *
read_attr_text (Importer   *im,
                guint       i,
                const char *attr,
                const char *text,
                GError    **error)
{
  g_autoptr (GString) buf = g_string_new (NULL);
  const char *end = NULL;
  const char *message = NULL;

  if (!_graft_dot_read_escaped (text, text + strlen (text), 0, buf, &end, &message))
    {
      _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_SYNTAX,
                             "%s of '%s': %s at character %ld", attr, doc_node (im, i)->name,
                             message, g_utf8_strlen (text, end - text) + 1);
      return NULL;
    }
  if (strlen (buf->str) != buf->len)
    {
      _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_SYNTAX,
                             "%s of '%s' holds a NUL character", attr, doc_node (im, i)->name);
      return NULL;
    }
  return g_string_free (g_steal_pointer (&buf), FALSE);
}

/* Points the references in @arg at the nodes they name. */
static void
link_refs (GraftArg   *arg,
           GraftNode **nodes)
{
  guint n_items;

  if (arg->kind == GRAFT_ARG_NODE)
    {
      arg->node = nodes[arg->n];
      arg->n = 0;
      return;
    }
  n_items = graft_arg_count_items (arg);
  for (guint i = 0; i < n_items; i++)
    link_refs (&arg->items[i], nodes);
}

/* One Graft node, read but not yet made. */
typedef struct
{
  /* Owned */
  char    *target;
  char    *type; /* nullable */
  GraftArg args;
  GraftArg kwargs;

  GraftOp  op;
  gboolean is_wrapped;
} Record;

static void
record_clear (Record *rec)
{
  g_free (rec->target);
  g_free (rec->type);
  graft_arg_clear (&rec->args);
  graft_arg_clear (&rec->kwargs);
}

static gboolean
read_record (Importer *im,
             guint     i,
             Record   *rec,
             GError  **error)
{
  GraftGvDocNode *dn = doc_node (im, i);
  const char     *op = _graft_gv_doc_node_get (dn, "graft_op");
  const char     *target = _graft_gv_doc_node_get (dn, "graft_target");
  const char     *args = _graft_gv_doc_node_get (dn, "graft_args");
  const char     *kwargs = _graft_gv_doc_node_get (dn, "graft_kwargs");
  const char     *type = _graft_gv_doc_node_get (dn, "graft_type");
  const char     *wrapped = _graft_gv_doc_node_get (dn, "graft_wrapped");
  gsize           name_len = strlen (dn->name);

  graft_arg_init_seq (&rec->args, GRAFT_ARG_TUPLE, 0);
  graft_arg_init_dict (&rec->kwargs, 0);
  if (!graft_op_from_string (op, strlen (op), &rec->op))
    {
      _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH, "unknown graft_op '%s' of '%s'",
                             op, dn->name);
      return FALSE;
    }
  if (name_len > GRAFT_MAX_NAME_LENGTH)
    {
      _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_LIMIT,
                             "the node name is longer than %u bytes", GRAFT_MAX_NAME_LENGTH);
      return FALSE;
    }
  if (!graft_is_python_identifier (dn->name) || graft_is_python_keyword (dn->name))
    {
      _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                             "'%s' cannot name a node (a Graft node name is a Python identifier)",
                             dn->name);
      return FALSE;
    }
  rec->target =
      target != NULL ? read_attr_text (im, i, "graft_target", target, error) : g_strdup ("");
  if (rec->target == NULL)
    return FALSE;
  if (type != NULL && (rec->type = read_attr_text (im, i, "graft_type", type, error)) == NULL)
    return FALSE;
  if (wrapped != NULL)
    {
      if (strcmp (wrapped, "true") != 0 && strcmp (wrapped, "false") != 0)
        {
          _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_SYNTAX,
                                 "graft_wrapped of '%s' must be true or false", dn->name);
          return FALSE;
        }
      rec->is_wrapped = wrapped[0] == 't';
    }
  if (args != NULL)
    {
      graft_arg_clear (&rec->args);
      if (!read_attr_value (im, i, "graft_args", args, &rec->args, error))
        return FALSE;
      if (rec->args.kind != GRAFT_ARG_TUPLE)
        {
          _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                                 "graft_args of '%s' must be a tuple", dn->name);
          return FALSE;
        }
    }
  if (kwargs != NULL)
    {
      graft_arg_clear (&rec->kwargs);
      if (!read_attr_value (im, i, "graft_kwargs", kwargs, &rec->kwargs, error))
        return FALSE;
      if (rec->kwargs.kind != GRAFT_ARG_DICT)
        {
          _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                                 "graft_kwargs of '%s' must be a dict", dn->name);
          return FALSE;
        }
      for (guint k = 0; k < rec->kwargs.n; k++)
        if (rec->kwargs.items[2 * k].kind != GRAFT_ARG_STR)
          {
            _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                                   "graft_kwargs of '%s' must have str keys", dn->name);
            return FALSE;
          }
    }
  return TRUE;
}

GraftGraph *
_graft_dot_import_graft (Importer *im,
                         GError  **error)
{
  guint                  n = im->doc->nodes->len;
  g_autofree Record     *records = g_new0 (Record, MAX (n, 1));
  g_autofree GraftNode **nodes = g_new0 (GraftNode *, MAX (n, 1));
  g_autoptr (GraftGraph) graph = NULL;
  gint     output = -1;
  gboolean ok = TRUE;

  for (guint i = 0; i < n && ok; i++)
    {
      if (_graft_gv_doc_node_get (doc_node (im, i), "graft_op") == NULL)
        {
          guint other = 0;

          while (_graft_gv_doc_node_get (doc_node (im, other), "graft_op") == NULL)
            other++;
          _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                                 "node '%s' has no graft_op, though node '%s' has one (a Graft DOT "
                                 "file sets it on every node)",
                                 doc_node (im, i)->name, doc_node (im, other)->name);
          ok = FALSE;
          break;
        }
      ok = read_record (im, i, &records[i], error);
      if (ok && records[i].op == GRAFT_OP_OUTPUT)
        {
          if (output >= 0)
            {
              _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                                     "a second output node (the first is '%s')",
                                     doc_node (im, (guint) output)->name);
              ok = FALSE;
            }
          output = (gint) i;
        }
      else if (ok && output >= 0)
        {
          _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                                 "node '%s' comes after the output node", doc_node (im, i)->name);
          ok = FALSE;
        }
    }
  if (ok && output < 0)
    {
      gsize end = graft_source_get_length (im->source);

      graft_set_error_at_offset (error, im->source, end, end, GRAFT_PARSE_ERROR_GRAPH,
                                 "the graph has no output node");
      ok = FALSE;
    }

  if (ok)
    {
      graph = graft_graph_new (im->dialect);
      graft_graph_set_source (graph, im->source);
      for (guint i = 0; i < n; i++)
        {
          Record     *rec = &records[i];
          const char *name = doc_node (im, i)->name;

          /* A fresh namespace holds nothing, and cgraph's names are
           * unique; checked all the same. */
          if (graft_namespace_contains (graft_graph_get_namespace (graph), name))
            {
              _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_GRAPH,
                                     "'%s' cannot name a node", name);
              ok = FALSE;
              break;
            }
          nodes[i] =
              graft_graph_create_node_named (graph, rec->op, rec->target, NULL, NULL, name, NULL);
          graft_node_set_type_annotation (nodes[i], rec->type);
          graft_node_set_is_wrapped (nodes[i], rec->is_wrapped);
          graft_node_set_span (nodes[i], im->spans[i].start, im->spans[i].end);
        }
      for (guint i = 0; i < n && ok; i++)
        {
          link_refs (&records[i].args, nodes);
          link_refs (&records[i].kwargs, nodes);
          graft_graph_set_args (graph, nodes[i], &records[i].args, &records[i].kwargs);
        }
    }
  for (guint i = 0; i < n; i++)
    record_clear (&records[i]);
  return ok ? g_steal_pointer (&graph) : NULL;
}
