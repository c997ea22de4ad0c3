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
 *
 * Text is measured on workers (layouts) and drawn on them (exports), each
 * with a context of its own on that thread's own font map
 * (pango_cairo_font_map_get_default() is one per thread): no Pango object
 * is shared between threads.  What they share is HarfBuzz's, and HarfBuzz
 * 6.0 frees the strings of its languages (hb_language_t) in an exit handler
 * (atexit(), registered as it makes its first language): a worker still
 * shaping text as the process exits reads them freed (AddressSanitizer saw
 * it once as a test program ended).  So every call that may shape runs in
 * a text section (_graft_text_enter() and _graft_text_leave()), and an
 * exit handler registered after HarfBuzz's, so run before it, waits for
 * the sections under way to end and for the Graphviz call under way (its
 * text plugin shapes cluster labels with Pango), and lets no other start:
 * a worker that would then waits for the process to end.
 */
#include "config.h"

#include "graft-text-private.h"
#include "graft-gv-private.h"

#include <hb.h>
#include <stdlib.h>
#include <string.h>

/* The exit of the process waits this long at most for the work above to
 * end (a section is microseconds; a Graphviz call, dot on one segment, up
 * to seconds), then goes on as if nothing ran. */
#define EXIT_WAIT_USEC (10 * G_USEC_PER_SEC)

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

static GMutex   gate_lock;
static GCond    gate_cond;
static gint     gate_busy;   /* threads in a text section; atomic */
static gint     gate_closed; /* the process exits; atomic */
static GThread *gate_closer; /* the thread running the exit handlers: under gate_lock */
/* This thread's sections, nested. */
static _Thread_local guint section_depth;

/* The exit handler: no text is shaped on another thread after it. */
static void
close_at_exit (void)
{
  gint64 deadline = g_get_monotonic_time () + EXIT_WAIT_USEC;

  /* exit() called in a section of this thread's: not waited for. */
  gint own = section_depth > 0 ? 1 : 0;

  g_mutex_lock (&gate_lock);
  gate_closer = g_thread_self ();
  g_atomic_int_set (&gate_closed, TRUE);
  while (g_atomic_int_get (&gate_busy) > own)
    if (!g_cond_wait_until (&gate_cond, &gate_lock, deadline))
      break;
  g_mutex_unlock (&gate_lock);
  _graft_gv_close (deadline);
}

/* A section starting after close_at_exit(): on another thread than the
 * one exiting, it never runs. */
static void
wait_for_exit (void)
{
  g_mutex_lock (&gate_lock);
  if (gate_closer == g_thread_self ())
    {
      g_mutex_unlock (&gate_lock);
      return;
    }
  if (g_atomic_int_dec_and_test (&gate_busy))
    g_cond_broadcast (&gate_cond);
  for (;;)
    g_cond_wait (&gate_cond, &gate_lock);
}

/**
 * _graft_text_enter:
 *
 * Starts a text section: Pango may shape text until _graft_text_leave().
 * Sections run on any number of threads at once, and nest (a section
 * inside one of the same thread's never waits); once the process exits,
 * one starting on another thread than the exiting one waits for the
 * process to end.
 */
void
_graft_text_enter (void)
{
  static gsize hooked;

  if (g_once_init_enter (&hooked))
    {
      /* HarfBuzz registers its exit handler with its first language:
       * made now if it is not yet, so that this one, registered after,
       * runs before. */
      hb_language_get_default ();
      atexit (close_at_exit);
      g_once_init_leave (&hooked, 1);
    }
  if (section_depth++ > 0)
    return;
  g_atomic_int_inc (&gate_busy);
  if (G_UNLIKELY (g_atomic_int_get (&gate_closed)))
    wait_for_exit ();
}

/**
 * _graft_text_leave:
 *
 * Ends the section _graft_text_enter() started.
 */
void
_graft_text_leave (void)
{
  if (--section_depth > 0)
    return;
  if (g_atomic_int_dec_and_test (&gate_busy) && g_atomic_int_get (&gate_closed))
    {
      g_mutex_lock (&gate_lock);
      g_cond_broadcast (&gate_cond);
      g_mutex_unlock (&gate_lock);
    }
}

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

  _graft_text_enter ();
  pango_layout_set_text (layout, text, length);
  pango_layout_get_extents (layout, NULL, &logical);
  _graft_text_leave ();
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
 * Called, and the layout measured and drawn, in a text section
 * (_graft_text_enter()).
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
