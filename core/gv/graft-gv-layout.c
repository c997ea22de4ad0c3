/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-gv-layout.c: runs dot on a plain graph spec and copies the
 * geometry out (see graft-gv-private.h).  It is the view library's half of
 * graft-gv.c: it needs Graphviz's gvc and its layout plugins, which the
 * text-only `graft` commands do not load.  Calls hold graft-gv.c's lock.
 *
 * Graphviz can crash its host on some inputs and options
 * (../shared/spec/layout-notes.md): `splines=ortho` and `nslimit=0.1` are
 * never used, and graft-layout.c bounds the size of every graph it hands to
 * dot.
 */
#include "config.h"

#include "graft-gv-layout-private.h"
#include "graft-gv-private.h"
#include "graft-error.h"

#include <gvc.h>
#include <string.h>

#define GV_POINTS_PER_INCH 72.0

static GVC_t *gv_context; /* created on first use, under the lock; never freed */

/* Object IDs in the order objects are made.  cgraph's default ID
 * discipline makes a named object's ID the address of its interned name,
 * and keeps a graph's subgraphs ordered by ID: dot then walks the clusters
 * (and the rank=source/sink sets) in the order malloc placed their names.
 * That order is the same for the first layout of every run of a program,
 * but it changes with what earlier layouts allocated and freed, and dot's
 * ranking, crossing minimisation and placement follow that walk: the same
 * graph laid out again came out 435 or 355 points wide instead of 475
 * (resnet18 with its 15 module frames).  This discipline gives out IDs from a counter, names
 * or not, and declines to map names itself, so that cgraph keeps each name
 * in its own map (agmapnametoid(): "disc. can't map strings"), which
 * agnameof() reads: dot still finds clusters by name. */
static void *
seq_id_open (Agraph_t *g,
             Agdisc_t *disc)
{
  (void) g;
  (void) disc;
  return g_new0 (IDTYPE, 1);
}

static long
seq_id_map (void   *state,
            int     objtype,
            char   *str,
            IDTYPE *id,
            int     createflag)
{
  IDTYPE *last = state;

  (void) objtype;
  (void) createflag;
  if (str != NULL)
    return FALSE;
  *id = ++*last;
  return TRUE;
}

static long
seq_id_alloc (void  *state,
              int    objtype,
              IDTYPE request)
{
  (void) state;
  (void) objtype;
  (void) request;
  return FALSE;
}

static void
seq_id_free (void  *state,
             int    objtype,
             IDTYPE id)
{
  (void) state;
  (void) objtype;
  (void) id;
}

static char *
seq_id_print (void  *state,
              int    objtype,
              IDTYPE id)
{
  (void) state;
  (void) objtype;
  (void) id;
  return NULL;
}

static void
seq_id_close (void *state)
{
  g_free (state);
}

static void
seq_id_register (void *state,
                 int   objtype,
                 void *obj)
{
  (void) state;
  (void) objtype;
  (void) obj;
}

static Agiddisc_t seq_id_disc = {
  seq_id_open,
  seq_id_map,
  seq_id_alloc,
  seq_id_free,
  seq_id_print,
  seq_id_close,
  seq_id_register,
};

static void
set_attr (void       *object,
          const char *name,
          const char *value)
{
  agsafeset (object, (char *) name, (char *) value, (char *) "");
}

static void
set_inches (void       *object,
            const char *name,
            double      points)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (buf, sizeof buf, "%.4f", points / GV_POINTS_PER_INCH);
  set_attr (object, name, buf);
}

static void
copy_geometry (Agraph_t               *g,
               Agnode_t              **nodes,
               Agedge_t              **edges,
               Agraph_t              **clusters,
               const GraftGvGraphSpec *spec,
               GraftGvGeometry        *out)
{
  boxf bb = GD_bb (g);

  out->clusters = g_new0 (GraftRect, MAX (spec->n_clusters, 1));
  for (guint i = 0; i < spec->n_clusters; i++)
    {
      boxf cb = GD_bb (clusters[i]);

      out->clusters[i].x = cb.LL.x - bb.LL.x;
      out->clusters[i].y = bb.UR.y - cb.UR.y;
      out->clusters[i].width = cb.UR.x - cb.LL.x;
      out->clusters[i].height = cb.UR.y - cb.LL.y;
    }

  out->width = bb.UR.x - bb.LL.x;
  out->height = bb.UR.y - bb.LL.y;
  out->centers = g_new0 (GraftPoint, MAX (spec->n_nodes, 1));
  for (guint i = 0; i < spec->n_nodes; i++)
    {
      out->centers[i].x = ND_coord (nodes[i]).x - bb.LL.x;
      out->centers[i].y = bb.UR.y - ND_coord (nodes[i]).y;
    }

  out->points = g_array_sized_new (FALSE, FALSE, sizeof (GraftPoint), spec->n_edges * 4);
  out->edge_start = g_new0 (guint, spec->n_edges + 1);
  out->has_arrow = g_new0 (gboolean, MAX (spec->n_edges, 1));
  out->arrow_tip = g_new0 (GraftPoint, MAX (spec->n_edges, 1));
  for (guint i = 0; i < spec->n_edges; i++)
    {
      splines *spl = ED_spl (edges[i]);

      out->edge_start[i] = out->points->len;
      if (spl != NULL && spl->size > 0 && spl->list[0].size >= 4 &&
          (spl->list[0].size - 1) % 3 == 0)
        {
          bezier *bz = &spl->list[0];

          for (int k = 0; k < bz->size; k++)
            {
              GraftPoint p = { bz->list[k].x - bb.LL.x, bb.UR.y - bz->list[k].y };

              g_array_append_val (out->points, p);
            }
          if (bz->eflag)
            {
              out->has_arrow[i] = TRUE;
              out->arrow_tip[i].x = bz->ep.x - bb.LL.x;
              out->arrow_tip[i].y = bb.UR.y - bz->ep.y;
            }
        }
      else
        {
          /* dot routed no spline (it does not for some degenerate
           * edges): a straight segment between the two centres. */
          GraftPoint a = out->centers[spec->edges[i].tail];
          GraftPoint b = out->centers[spec->edges[i].head];
          GraftPoint seg[4] = {
            a,
            { a.x + (b.x - a.x) / 3, a.y + (b.y - a.y) / 3 },
            { a.x + 2 * (b.x - a.x) / 3, a.y + 2 * (b.y - a.y) / 3 },
            b,
          };

          g_array_append_vals (out->points, seg, 4);
        }
    }
  out->edge_start[spec->n_edges] = out->points->len;
}

/**
 * _graft_gv_layout:
 * @spec: the graph: fixed-size boxes and edges
 * @out: (out caller-allocates): the geometry; clear it with
 *   _graft_gv_geometry_clear()
 * @error: return location for an error
 *
 * Lays @spec out with dot, top to bottom, and copies the geometry out.
 * Serialised with every other Graphviz call in the process.
 *
 * Returns: %TRUE on success
 */
gboolean
_graft_gv_layout (const GraftGvGraphSpec *spec,
                  GraftGvGeometry        *out,
                  GError                **error)
{
  g_autofree Agnode_t **nodes = g_new0 (Agnode_t *, MAX (spec->n_nodes, 1));
  g_autofree Agedge_t **edges = g_new0 (Agedge_t *, MAX (spec->n_edges, 1));
  g_autofree Agraph_t **clusters = g_new0 (Agraph_t *, MAX (spec->n_clusters, 1));
  g_autofree char      *messages = NULL;
  Agdisc_t              disc = { &AgMemDisc, &seq_id_disc, &AgIoDisc };
  Agraph_t             *g;
  Agraph_t             *top = NULL;
  Agraph_t             *bottom = NULL;
  int                   rc;

  memset (out, 0, sizeof *out);
  _graft_gv_enter ();
  if (gv_context == NULL)
    gv_context = gvContext ();

  g = agopen ((char *) "graft", Agdirected, &disc);
  set_attr (g, "rankdir", "TB");
  set_attr (g, "splines", "spline");
  /* dot's default ranking collapses rank=source/sink sets into union-find
   * sets whose leaders it frees before mincross still reads them
   * (valgrind: decompose() reads memory dot_rank() freed; it crashed on
   * torchvision's maxvit_t).  The newer ranking keeps them as
   * constraints. */
  set_attr (g, "newrank", "true");
  set_inches (g, "nodesep", spec->nodesep);
  set_inches (g, "ranksep", spec->ranksep);
  if (spec->budget)
    {
      /* Bounds on dot's network simplex and crossing minimisation
       * (layout-notes.md: 10-30x faster on FX graphs).  nslimit is kept
       * below 0.1, which crashes dot on hub graphs. */
      set_attr (g, "nslimit", "0.05");
      set_attr (g, "nslimit1", "0.05");
      set_attr (g, "mclimit", "0.1");
      set_attr (g, "searchsize", "10");
      set_attr (g, "remincross", "false");
    }
  agattr (g, AGNODE, (char *) "shape", (char *) "box");
  agattr (g, AGNODE, (char *) "fixedsize", (char *) "true");
  agattr (g, AGNODE, (char *) "label", (char *) "");
  agattr (g, AGNODE, (char *) "width", (char *) "0.75");
  agattr (g, AGNODE, (char *) "height", (char *) "0.5");
  agattr (g, AGEDGE, (char *) "arrowhead", (char *) "normal");

  /* Clusters, each inside its parent; a node goes into its innermost one
   * (and so into all that hold it). */
  for (guint i = 0; i < spec->n_clusters; i++)
    {
      const GraftGvClusterSpec *cs = &spec->clusters[i];
      char                      name[32];

      g_snprintf (name, sizeof name, "cluster_%u", i);
      clusters[i] = agsubg (cs->parent < i ? clusters[cs->parent] : g, name, TRUE);
      /* dot sizes the label with its Courier metrics, which match the
       * monospace font the renderer draws it in. */
      set_attr (clusters[i], "label", cs->label);
      set_attr (clusters[i], "fontname", "Courier");
      set_attr (clusters[i], "fontsize", "8");
      set_attr (clusters[i], "labeljust", "l");
      set_attr (clusters[i], "margin", "6");
    }
  for (guint i = 0; i < spec->n_nodes; i++)
    {
      const GraftGvNodeSpec *ns = &spec->nodes[i];
      char                   name[32];

      g_snprintf (name, sizeof name, "n%u", i);
      nodes[i] = agnode (g, name, TRUE);
      set_inches (nodes[i], "width", MAX (ns->width, 1.0));
      set_inches (nodes[i], "height", MAX (ns->height, 1.0));
      if (ns->is_point)
        set_attr (nodes[i], "shape", "point");
      if (ns->cluster < spec->n_clusters)
        agsubnode (clusters[ns->cluster], nodes[i], TRUE);
      if (ns->rank == GRAFT_GV_RANK_SOURCE)
        {
          if (top == NULL)
            {
              top = agsubg (g, (char *) "graft_top", TRUE);
              set_attr (top, "rank", "source");
            }
          agsubnode (top, nodes[i], TRUE);
        }
      else if (ns->rank == GRAFT_GV_RANK_SINK)
        {
          if (bottom == NULL)
            {
              bottom = agsubg (g, (char *) "graft_bottom", TRUE);
              set_attr (bottom, "rank", "sink");
            }
          agsubnode (bottom, nodes[i], TRUE);
        }
    }
  for (guint i = 0; i < spec->n_edges; i++)
    {
      const GraftGvEdgeSpec *es = &spec->edges[i];

      edges[i] = agedge (g, nodes[es->tail], nodes[es->head], NULL, TRUE);
      if (spec->nodes[es->head].is_point)
        set_attr (edges[i], "arrowhead", "none");
    }

  rc = gvLayout (gv_context, g, "dot");
  if (rc == 0)
    {
      copy_geometry (g, nodes, edges, clusters, spec, out);
      gvFreeLayout (gv_context, g);
    }
  agclose (g);
  messages = _graft_gv_leave ();

  if (rc != 0)
    {
      g_autofree char *line = _graft_gv_first_message_line (messages);

      g_set_error (error, GRAFT_ERROR, GRAFT_ERROR_DRAW,
                   "graphviz could not lay out the graph%s%s",
                   *line != '\0' ? ": " : "", line);
      return FALSE;
    }
  if (*messages != '\0')
    g_debug ("graphviz said: %s", messages);
  return TRUE;
}

/**
 * _graft_gv_geometry_clear:
 * @geometry: what _graft_gv_layout() filled in
 *
 * Frees what @geometry owns and zeroes it.
 */
void
_graft_gv_geometry_clear (GraftGvGeometry *geometry)
{
  g_clear_pointer (&geometry->centers, g_free);
  g_clear_pointer (&geometry->points, g_array_unref);
  g_clear_pointer (&geometry->edge_start, g_free);
  g_clear_pointer (&geometry->has_arrow, g_free);
  g_clear_pointer (&geometry->arrow_tip, g_free);
  g_clear_pointer (&geometry->clusters, g_free);
}
