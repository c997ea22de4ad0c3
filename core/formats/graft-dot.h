/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-dot.h: graphs as Graphviz DOT, out (for viewers and for reading
 * back) and in (Graft's own DOT exactly, any other directed DOT graph as a
 * generic dataflow graph).
 */
#pragma once

#if !defined(GRAFT_INSIDE) && !defined(GRAFT_COMPILATION)
#error "Only <graft.h> can be included directly."
#endif

#include "graft-types.h"
#include "graft-dialect.h"

G_BEGIN_DECLS

/**
 * GraftDotStyle:
 * @GRAFT_DOT_LIGHT: pale boxes, dark text, light background
 * @GRAFT_DOT_DARK: deep boxes, light text, dark background
 *
 * The colours of an exported DOT graph (graft-palette-private.h), the same
 * as the renderer's.
 */
typedef enum {
  GRAFT_DOT_LIGHT,
  GRAFT_DOT_DARK,
} GraftDotStyle;

/**
 * GraftDotOptions:
 * @style: light or dark colours
 * @node_match: (nullable): one entry per graph node (graph order): the
 *   number of the match it belongs to (0, 1, ...), or -1
 * @node_matches: (nullable): instead of @node_match, a graph node to the
 *   number of its match plus one; a node not in it is in none
 *
 * How to write a graph as DOT.  A zeroed struct, or one set up by
 * graft_dot_options_init(), means the defaults; later fields may be added,
 * always with zero as their default.
 */
typedef struct
{
  GraftDotStyle style;
  const gint   *node_match;
  GHashTable   *node_matches;
} GraftDotOptions;

void  graft_dot_options_init (GraftDotOptions *options);
char *graft_dot_print (GraftGraph            *graph,
                       const GraftDotOptions *options) G_GNUC_WARN_UNUSED_RESULT;

typedef struct _GraftDotJob GraftDotJob;

GraftDotJob *graft_dot_job_new (GraftGraph            *graph,
                                const GraftDotOptions *options) G_GNUC_WARN_UNUSED_RESULT;
gboolean     graft_dot_job_step (GraftDotJob *job,
                                 guint        n_nodes);
char        *graft_dot_job_finish (GraftDotJob *job) G_GNUC_WARN_UNUSED_RESULT;
void         graft_dot_job_free (GraftDotJob *job);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftDotJob, graft_dot_job_free)

GraftGraph *graft_dot_parse (GraftSource        *source,
                             const GraftDialect *dialect,
                             GError            **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
