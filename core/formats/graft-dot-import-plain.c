/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-dot-import-plain.c: any directed DOT graph without graft_* attributes
 * as a generic dataflow graph: placeholders for the nodes without in-edges,
 * call_functions in topological order, an output of the sinks.
 * graft-dot-reader.c gives the rules.
 */
#include "config.h"

#include "graft-dot-importer-private.h"
#include "graft-arg.h"
#include "graft-graph.h"
#include "graft-limits.h"
#include "graft-namespace.h"
#include "graft-source.h"

#include <string.h>

/* A small binary min-heap of document node indices. */
static void
heap_push (GArray *heap,
           guint   value)
{
  guint *h;
  guint  i;

  g_array_append_val (heap, value);
  h = &g_array_index (heap, guint, 0);
  for (i = heap->len - 1; i > 0 && h[(i - 1) / 2] > h[i]; i = (i - 1) / 2)
    {
      guint tmp = h[i];

      h[i] = h[(i - 1) / 2];
      h[(i - 1) / 2] = tmp;
    }
}

static guint
heap_pop (GArray *heap)
{
  guint *h = &g_array_index (heap, guint, 0);
  guint  top = h[0];
  guint  n = heap->len - 1;
  guint  i = 0;

  h[0] = h[n];
  g_array_set_size (heap, n);
  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, m = i;

      if (l < n && h[l] < h[m])
        m = l;
      if (r < n && h[r] < h[m])
        m = r;
      if (m == i)
        break;
      h[m] ^= h[i];
      h[i] ^= h[m];
      h[m] ^= h[i];
      i = m;
    }
  return top;
}

/* The first node in file order that lies on a cycle, by Tarjan's strongly
 * connected components (iterative, so a long chain cannot overflow the
 * stack).  @succ_start/@succ are the out-edges in CSR form. */
static guint
first_node_on_cycle (guint        n,
                     const guint *succ_start,
                     const guint *succ)
{
  g_autofree guint    *order = g_new (guint, n);
  g_autofree guint    *low = g_new (guint, n);
  g_autofree gboolean *on_stack = g_new0 (gboolean, n);
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint) * 2);
  guint counter = 0;
  guint best = G_MAXUINT;

  for (guint v = 0; v < n; v++)
    {
      order[v] = G_MAXUINT;
      for (guint k = succ_start[v]; k < succ_start[v + 1]; k++)
        if (succ[k] == v)
          best = MIN (best, v);
    }
  for (guint s = 0; s < n; s++)
    {
      guint frame[2] = { s, succ_start[s] };

      if (order[s] != G_MAXUINT)
        continue;
      order[s] = low[s] = counter++;
      g_array_append_val (stack, s);
      on_stack[s] = TRUE;
      g_array_append_val (frames, frame);
      while (frames->len > 0)
        {
          guint *top = &g_array_index (frames, guint, 2 * (frames->len - 1));
          guint  v = top[0];

          if (top[1] < succ_start[v + 1])
            {
              guint w = succ[top[1]++];

              if (order[w] == G_MAXUINT)
                {
                  guint next[2] = { w, succ_start[w] };

                  order[w] = low[w] = counter++;
                  g_array_append_val (stack, w);
                  on_stack[w] = TRUE;
                  g_array_append_val (frames, next);
                }
              else if (on_stack[w])
                low[v] = MIN (low[v], order[w]);
              continue;
            }
          g_array_set_size (frames, frames->len - 1);
          if (frames->len > 0)
            {
              guint parent = g_array_index (frames, guint, 2 * (frames->len - 1));

              low[parent] = MIN (low[parent], low[v]);
            }
          if (low[v] == order[v])
            {
              guint size = 0, smallest = G_MAXUINT, w;

              do
                {
                  w = g_array_index (stack, guint, stack->len - 1);
                  g_array_set_size (stack, stack->len - 1);
                  on_stack[w] = FALSE;
                  smallest = MIN (smallest, w);
                  size++;
                }
              while (w != v);
              if (size > 1)
                best = MIN (best, smallest);
            }
        }
    }
  return best;
}

/* A call_function target from a plain node's label, as the file comment
 * says; %NULL when nothing is left of it. */
static char *
target_from_label (const char *label,
                   const char *node_name,
                   const char *graph_name)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GString) target = g_string_new (NULL);
  const char *p;

  /* Expand the escString. */
  for (p = label; *p != '\0'; p++)
    {
      if (*p != '\\' || p[1] == '\0')
        {
          g_string_append_c (text, *p);
          continue;
        }
      p++;
      switch (*p)
        {
        case 'N':
          g_string_append (text, node_name);
          break;
        case 'G':
          /* cgraph names an anonymous graph `%N`. */
          if (graph_name != NULL && graph_name[0] != '%')
            g_string_append (text, graph_name);
          break;
        case 'n':
        case 'l':
        case 'r':
          g_string_append_c (text, ' ');
          break;
        case 'E':
        case 'T':
        case 'H':
        case 'L':
          break;
        default:
          g_string_append_c (text, *p);
          break;
        }
    }

  /* Each dot-separated part, cleaned. */
  p = text->str;
  for (;;)
    {
      const char *end = strchr (p, '.');
      gsize       part_start;
      gboolean    pending = FALSE;

      if (end == NULL)
        end = p + strlen (p);
      if (target->len > 0)
        g_string_append_c (target, '.');
      part_start = target->len;
      for (const char *q = p; q < end; q++)
        {
          if (g_ascii_isalnum (*q) || *q == '_')
            {
              if (pending && target->len > part_start)
                g_string_append_c (target, '_');
              pending = FALSE;
              g_string_append_c (target, *q);
            }
          else
            pending = TRUE;
        }
      if (target->len == part_start)
        {
          /* An empty part goes, with its dot. */
          g_string_truncate (target, part_start > 0 ? part_start - 1 : 0);
        }
      else
        {
          if (g_ascii_isdigit (target->str[part_start]))
            g_string_insert_c (target, (gssize) part_start, '_');
          if (graft_is_python_keyword (target->str + part_start))
            g_string_append_c (target, '_');
        }
      if (*end == '\0')
        break;
      p = end + 1;
    }
  if (target->len == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&target), FALSE);
}

GraftGraph *
_graft_dot_import_plain (Importer *im,
                         GError  **error)
{
  GraftGvDoc            *doc = im->doc;
  guint                  n = doc->nodes->len;
  guint                  n_edges = doc->edges->len;
  g_autofree guint      *in_degree = g_new0 (guint, MAX (n, 1));
  g_autofree guint      *pred_start = g_new0 (guint, n + 1);
  g_autofree guint      *pred = g_new (guint, MAX (n_edges, 1));
  g_autofree guint      *succ_start = g_new0 (guint, n + 1);
  g_autofree guint      *succ = g_new (guint, MAX (n_edges, 1));
  g_autofree guint      *fill = g_new0 (guint, MAX (n, 1));
  g_autofree guint      *order = g_new (guint, MAX (n, 1));
  g_autofree GraftNode **nodes = g_new0 (GraftNode *, MAX (n, 1));
  g_autoptr (GArray) heap = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GraftNamespace) names = graft_namespace_new (im->dialect);
  g_autoptr (GraftGraph) graph = graft_graph_new (im->dialect);
  g_autoptr (GArray) sinks = g_array_new (FALSE, FALSE, sizeof (guint));
  guint    n_ordered = 0;
  GraftArg out_args;

  for (guint i = 0; i < n; i++)
    if (strlen (doc_node (im, i)->name) > GRAFT_MAX_NAME_LENGTH)
      {
        _graft_dot_node_error (im, i, error, GRAFT_PARSE_ERROR_LIMIT,
                               "the node name is longer than %u bytes", GRAFT_MAX_NAME_LENGTH);
        return NULL;
      }

  /* In-edges and out-edges per node, each in file order. */
  for (guint e = 0; e < n_edges; e++)
    {
      GraftGvDocEdge *edge = &g_array_index (doc->edges, GraftGvDocEdge, e);

      pred_start[edge->head + 1]++;
      succ_start[edge->tail + 1]++;
    }
  for (guint i = 0; i < n; i++)
    {
      pred_start[i + 1] += pred_start[i];
      succ_start[i + 1] += succ_start[i];
      in_degree[i] = pred_start[i + 1] - pred_start[i];
    }
  for (guint e = 0; e < n_edges; e++)
    {
      GraftGvDocEdge *edge = &g_array_index (doc->edges, GraftGvDocEdge, e);

      pred[pred_start[edge->head] + fill[edge->head]++] = edge->tail;
    }
  memset (fill, 0, sizeof (guint) * MAX (n, 1));
  for (guint e = 0; e < n_edges; e++)
    {
      GraftGvDocEdge *edge = &g_array_index (doc->edges, GraftGvDocEdge, e);

      succ[succ_start[edge->tail] + fill[edge->tail]++] = edge->head;
    }

  /* Placeholders first, then Kahn's algorithm, earliest in file first. */
  for (guint i = 0; i < n; i++)
    if (in_degree[i] == 0)
      order[n_ordered++] = i;
  for (guint k = 0; k < n_ordered || heap->len > 0;)
    {
      guint v;

      if (k < n_ordered)
        v = order[k++];
      else
        {
          v = heap_pop (heap);
          order[n_ordered++] = v;
          k = n_ordered;
        }
      for (guint s = succ_start[v]; s < succ_start[v + 1]; s++)
        if (--in_degree[succ[s]] == 0)
          heap_push (heap, succ[s]);
    }
  if (n_ordered < n)
    {
      guint on_cycle = first_node_on_cycle (n, succ_start, succ);

      if (on_cycle >= n)
        on_cycle = 0; /* Cannot happen: what Kahn leaves holds a cycle. */
      _graft_dot_node_error (im, on_cycle, error, GRAFT_PARSE_ERROR_GRAPH,
                             "the graph has a cycle through '%s'", doc_node (im, on_cycle)->name);
      return NULL;
    }

  graft_graph_set_source (graph, im->source);
  for (guint k = 0; k < n; k++)
    {
      guint           v = order[k];
      GraftGvDocNode *dn = doc_node (im, v);
      const char     *name = graft_namespace_create_name (names, dn->name, GRAFT_NAME_DEFAULT);
      guint           n_preds = pred_start[v + 1] - pred_start[v];

      if (n_preds == 0)
        nodes[v] = graft_graph_create_node_named (graph, GRAFT_OP_PLACEHOLDER, name, NULL, NULL,
                                                  name, NULL);
      else
        {
          const char      *label = _graft_gv_doc_node_get (dn, "label");
          g_autofree char *target =
              target_from_label (label != NULL ? label : dn->name, dn->name, doc->name);
          GraftArg args, kwargs;

          if (target != NULL && strlen (target) > GRAFT_MAX_NAME_LENGTH)
            {
              _graft_dot_node_error (im, v, error, GRAFT_PARSE_ERROR_LIMIT,
                                     "the label of '%s' is longer than %u bytes", dn->name,
                                     GRAFT_MAX_NAME_LENGTH);
              return NULL;
            }
          graft_arg_init_seq (&args, GRAFT_ARG_TUPLE, n_preds);
          for (guint a = 0; a < n_preds; a++)
            graft_arg_init_node (&args.items[a], nodes[pred[pred_start[v] + a]]);
          graft_arg_init_dict (&kwargs, 0);
          nodes[v] = graft_graph_create_node_named (graph, GRAFT_OP_CALL_FUNCTION,
                                                    target != NULL ? target : name, &args, &kwargs,
                                                    name, NULL);
        }
      graft_node_set_span (nodes[v], im->spans[v].start, im->spans[v].end);
    }

  /* The sinks, in file order. */
  for (guint i = 0; i < n; i++)
    if (succ_start[i + 1] == succ_start[i])
      g_array_append_val (sinks, i);
  graft_arg_init_seq (&out_args, GRAFT_ARG_TUPLE, 1);
  if (sinks->len == 1)
    graft_arg_init_node (&out_args.items[0], nodes[g_array_index (sinks, guint, 0)]);
  else if (sinks->len > 1)
    {
      graft_arg_init_seq (&out_args.items[0], GRAFT_ARG_TUPLE, sinks->len);
      for (guint s = 0; s < sinks->len; s++)
        graft_arg_init_node (&out_args.items[0].items[s], nodes[g_array_index (sinks, guint, s)]);
    }
  {
    const char *name = graft_namespace_create_name (names, "output", GRAFT_NAME_DEFAULT);
    GraftArg    kwargs;

    graft_arg_init_dict (&kwargs, 0);
    graft_graph_create_node_named (graph, GRAFT_OP_OUTPUT, "output", &out_args, &kwargs, name,
                                   NULL);
  }
  return g_steal_pointer (&graph);
}
