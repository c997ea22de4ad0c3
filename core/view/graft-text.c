/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-text.c: fonts and text measurement for drawn graphs.
 *
 * Text is laid out at 72 units per inch (one unit is one layout point) with
 * hinting off, both when layout measures a label and when the renderer
 * draws it, so a label's width does not depend on the zoom or the output
 * format.  Labels are code (names, targets), set in a monospace font: the
 * width of an ASCII label is its length times one advance, measured once,
 * which keeps sizing 10,000 boxes cheap; other text goes through Pango.
 */
#include "config.h"

#include "graft-text-private.h"

#include <string.h>

static const char *const font_descriptions[GRAFT_TEXT_N_STYLES] = {
  [GRAFT_TEXT_NAME] = "DejaVu Sans Mono, Monospace Bold 9.5",
  [GRAFT_TEXT_CAPTION] = "DejaVu Sans Mono, Monospace 8",
  [GRAFT_TEXT_STUB] = "DejaVu Sans Mono, Monospace 7.5",
  [GRAFT_TEXT_BADGE] = "DejaVu Sans, Sans Bold 8",
  [GRAFT_TEXT_EDGE] = "DejaVu Sans Mono, Monospace 7",
};

struct _GraftText
{
  /* Owned */
  PangoContext *context;
  PangoLayout  *layouts[GRAFT_TEXT_N_STYLES];
  double        advance[GRAFT_TEXT_N_STYLES]; /* one ASCII character, or 0 if not monospace */
  double        line_height[GRAFT_TEXT_N_STYLES];
};

static void
set_up_context (PangoContext *context)
{
  cairo_font_options_t *options = cairo_font_options_create ();

  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_antialias (options, CAIRO_ANTIALIAS_GRAY);
  pango_cairo_context_set_font_options (context, options);
  pango_cairo_context_set_resolution (context, 72.0);
  pango_context_set_round_glyph_positions (context, FALSE);
  cairo_font_options_destroy (options);
}

static double
measure (PangoLayout *layout,
         const char  *text,
         int          length,
         double      *out_height)
{
  PangoRectangle logical;

  pango_layout_set_text (layout, text, length);
  pango_layout_get_extents (layout, NULL, &logical);
  if (out_height != NULL)
    *out_height = (double) logical.height / PANGO_SCALE;
  return (double) logical.width / PANGO_SCALE;
}

static GraftText *
text_new (PangoContext *context)
{
  GraftText *self = g_new0 (GraftText, 1);

  self->context = context;
  set_up_context (context);
  for (guint i = 0; i < GRAFT_TEXT_N_STYLES; i++)
    {
      PangoFontDescription *desc = pango_font_description_from_string (font_descriptions[i]);
      double                one;
      double                ten;

      self->layouts[i] = pango_layout_new (context);
      pango_layout_set_font_description (self->layouts[i], desc);
      pango_font_description_free (desc);
      one = measure (self->layouts[i], "M", -1, &self->line_height[i]);
      ten = measure (self->layouts[i], "iMw_.0(W:l", -1, NULL);
      /* Monospace when ten different characters are ten advances wide. */
      self->advance[i] = (ABS (ten - 10 * one) < 0.01) ? one : 0;
    }
  return self;
}

/**
 * _graft_text_new:
 *
 * Returns: (transfer full): a measurer with its own Pango context, usable
 *   on any one thread
 */
GraftText *
_graft_text_new (void)
{
  return text_new (pango_font_map_create_context (pango_cairo_font_map_get_default ()));
}

/**
 * _graft_text_new_for_cairo:
 * @cr: the context to draw on
 *
 * Returns: (transfer full): text set up to draw on @cr with the same
 *   metrics as _graft_text_new() measures
 */
GraftText *
_graft_text_new_for_cairo (cairo_t *cr)
{
  return text_new (pango_cairo_create_context (cr));
}

/**
 * _graft_text_free:
 * @self: (transfer full) (nullable): a measurer
 */
void
_graft_text_free (GraftText *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < GRAFT_TEXT_N_STYLES; i++)
    g_object_unref (self->layouts[i]);
  g_object_unref (self->context);
  g_free (self);
}

/**
 * _graft_text_width:
 * @self: a measurer
 * @style: the font
 * @text: UTF-8 text, one line
 *
 * Returns: the width of @text in points
 */
double
_graft_text_width (GraftText     *self,
                   GraftTextStyle style,
                   const char    *text)
{
  gsize n = 0;

  if (self->advance[style] > 0)
    {
      for (const char *p = text; *p != '\0'; p++, n++)
        if ((guchar) *p < 0x20 || (guchar) *p >= 0x7f)
          return measure (self->layouts[style], text, -1, NULL);
      return (double) n * self->advance[style];
    }
  return measure (self->layouts[style], text, -1, NULL);
}

/**
 * _graft_text_line_height:
 * @self: a measurer
 * @style: the font
 *
 * Returns: the height of one line of @style in points
 */
double
_graft_text_line_height (GraftText     *self,
                         GraftTextStyle style)
{
  return self->line_height[style];
}

/**
 * _graft_text_layout:
 * @self: text set up for drawing
 * @style: the font
 * @text: UTF-8 text
 *
 * Returns: (transfer none): a layout holding @text in @style, valid until
 *   the next call for the same style
 */
PangoLayout *
_graft_text_layout (GraftText     *self,
                    GraftTextStyle style,
                    const char    *text)
{
  pango_layout_set_text (self->layouts[style], text, -1);
  return self->layouts[style];
}
