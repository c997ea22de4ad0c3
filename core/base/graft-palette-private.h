/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-palette-private.h: the colours of a drawn graph, shared by the
 * cairo renderer (screen, PNG, SVG, PDF) and the DOT writer, so every
 * picture of a graph uses the same ones.
 *
 * Boxes are tinted by op; the tints are pale in the light style and deep in
 * the dark one, so black (light) or white (dark) text keeps a contrast
 * ratio above 7:1 on all of them.  Matches use the Okabe-Ito palette, which
 * stays distinguishable under the common colour-vision deficiencies; the
 * renderer also numbers each match and varies its outline dash, so no
 * match is told apart by colour alone.
 */
#pragma once

#if !defined(GRAFT_COMPILATION)
#error "graft-palette-private.h is internal to the core."
#endif

#include "graft-types.h"

G_BEGIN_DECLS

typedef struct
{
  guint32 fill;   /* 0xRRGGBB */
  guint32 border; /* 0xRRGGBB */
} GraftOpColors;

/* Indexed by GraftOp. */
static const GraftOpColors graft_palette_light[] = {
  { 0xdcefe2, 0x4e8a62 }, /* placeholder */
  { 0xf3e8d3, 0x9a7535 }, /* get_attr */
  { 0xdde7f5, 0x4a6fa5 }, /* call_function */
  { 0xe7e1f4, 0x6f5ca6 }, /* call_method */
  { 0xf5dfe6, 0xa14c66 }, /* call_module */
  { 0xe6e6e6, 0x666666 }, /* output */
};

static const GraftOpColors graft_palette_dark[] = {
  { 0x1f3b29, 0x7fc596 },
  { 0x43361d, 0xd2ac68 },
  { 0x1f3150, 0x85a8dd },
  { 0x31294f, 0xa999dd },
  { 0x48222f, 0xdc8aa3 },
  { 0x333333, 0xaaaaaa },
};

/* The drawing itself, light then dark: background, text, edges. */
typedef struct
{
  guint32 background;
  guint32 text;
  guint32 edge;
} GraftThemeColors;

static const GraftThemeColors graft_palette_themes[] = {
  { 0xfafafa, 0x141414, 0x6b6b6b },
  { 0x1e1e1e, 0xf2f2f2, 0x9a9a9a },
};

/* Okabe-Ito, most distinct first. */
static const guint32 graft_palette_matches[] = {
  0xe69f00, /* orange */
  0x0072b2, /* blue */
  0x009e73, /* bluish green */
  0xcc79a7, /* reddish purple */
  0xd55e00, /* vermillion */
  0x56b4e9, /* sky blue */
  0xf0e442, /* yellow */
};

#define GRAFT_PALETTE_N_MATCH_COLORS G_N_ELEMENTS (graft_palette_matches)

G_END_DECLS
