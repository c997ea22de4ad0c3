/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-text-private.h: the fonts of a drawn graph, and text measurement
 * that agrees with drawing.  Layout sizes boxes with these widths and the
 * renderer draws with the same fonts, resolution and font options, so text
 * fits its box at every zoom and in every file format.
 */
#pragma once

#if !defined(GRAFT_COMPILATION)
#error "graft-text-private.h is internal to the core."
#endif

#include "graft-types.h"

#include <cairo.h>
#include <pango/pangocairo.h>

G_BEGIN_DECLS

typedef enum {
  GRAFT_TEXT_NAME,    /* a node's name, first line of its box */
  GRAFT_TEXT_CAPTION, /* what the node does, second line */
  GRAFT_TEXT_STUB,    /* the name in a stub */
  GRAFT_TEXT_BADGE,   /* a match number */
  GRAFT_TEXT_EDGE,    /* what flows on an edge (`f32[2, 3]`) */
  GRAFT_TEXT_N_STYLES,
} GraftTextStyle;

/* Box metrics in points, shared by layout and renderer. */
#define GRAFT_BOX_PAD_X     8.0
#define GRAFT_BOX_HEIGHT    34.0
#define GRAFT_BOX_MIN_WIDTH 48.0
#define GRAFT_STUB_PAD_X    5.0
#define GRAFT_STUB_HEIGHT   16.0
/* A program's parameter, buffer or constant: a pill labelled with its
 * target. */
#define GRAFT_WEIGHT_HEIGHT 20.0
/* What flows out of a box is written under it, on its edges, this far
 * below the box and this tall. */
#define GRAFT_EDGE_LABEL_GAP    2.0
#define GRAFT_EDGE_LABEL_HEIGHT 10.0

typedef struct _GraftText GraftText;

GraftText   *_graft_text_new (void) G_GNUC_WARN_UNUSED_RESULT;
GraftText   *_graft_text_new_for_cairo (cairo_t *cr) G_GNUC_WARN_UNUSED_RESULT;
void         _graft_text_free (GraftText *self);
double       _graft_text_width (GraftText     *self,
                                GraftTextStyle style,
                                const char    *text);
PangoLayout *_graft_text_layout (GraftText     *self,
                                 GraftTextStyle style,
                                 const char    *text);
double       _graft_text_line_height (GraftText     *self,
                                      GraftTextStyle style);
/* Around every call into Pango that may shape text (measuring, drawing):
 * the process's exit waits for the sections under way (graft-text.c). */
void _graft_text_enter (void);
void _graft_text_leave (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftText, _graft_text_free)

G_END_DECLS
