/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-code-rows.c: code shown as a list of rows (a GtkListView) rather
 * than in a text view, for the Changes window and the Code tab of a big
 * graph: a model of n rows that makes an item (a row's index) only when a
 * row comes into view, the colours a source view gives a line of Python,
 * and a line too long to lay out shortened.
 */
#include "config.h"

#include "graft-code-rows.h"

#include <adwaita.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

/* A row shows this many bytes of a longer line, and says how long it is:
 * a torch.export program's code at a million nodes has a line of 42 MB
 * (its outputs), which Pango would lay out for minutes. */
#define SHOWN_BYTES 2000
/* What the highlighting tells apart in a line of Python: the colours of
 * the Adwaita source style the code views use (light or dark). */
typedef enum {
  HL_KEYWORD,
  HL_CONSTANT,
  HL_STRING,
  HL_NUMBER,
  HL_COMMENT,
  HL_FUNCTION,
} Highlight;

G_STATIC_ASSERT (HL_FUNCTION + 1 == GRAFT_N_HIGHLIGHTS);

/* Each highlight's style ids in the scheme, the first found wins (as
 * python3.lang maps them, and their fallbacks). */
static const char *const highlight_ids[GRAFT_N_HIGHLIGHTS][4] = {
  [HL_KEYWORD] = { "python:keyword", "def:keyword", "def:statement", NULL },
  [HL_CONSTANT] = { "python:builtin-constant", "def:special-constant", "def:constant", NULL },
  [HL_STRING] = { "python:string", "def:string", NULL },
  [HL_NUMBER] = { "python:decimal", "def:decimal", "def:number", NULL },
  [HL_COMMENT] = { "python:comment", "def:comment", NULL },
  [HL_FUNCTION] = { "python:function-name", "def:function", NULL },
};

/* Separated by spaces. */
static const char python_keywords[] =
    "and as assert async await break class continue def del elif else except finally for from "
    "global if import in is lambda nonlocal not or pass raise return try while with yield";
static const char python_constants[] = "None True False Ellipsis";

/* Whether @word (@len bytes) is one of @words. */
static gboolean
word_in (const char *word,
         gsize       len,
         const char *words)
{
  for (const char *w = words;;)
    {
      const char *end = strchr (w, ' ');
      gsize       n = end != NULL ? (gsize) (end - w) : strlen (w);

      if (n == len && memcmp (w, word, len) == 0)
        return TRUE;
      if (end == NULL)
        return FALSE;
      w = end + 1;
    }
}

/**
 * graft_code_rows_load_styles:
 * @styles: (out caller-allocates): what to fill
 *
 * Loads the colours of the Adwaita source style (dark when the style
 * manager is dark) that graft_code_rows_highlight() gives.
 */
void
graft_code_rows_load_styles (GraftHighlightStyle styles[GRAFT_N_HIGHLIGHTS])
{
  GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme (
      gtk_source_style_scheme_manager_get_default (),
      adw_style_manager_get_dark (adw_style_manager_get_default ()) ? "Adwaita-dark" : "Adwaita");

  memset (styles, 0, sizeof (GraftHighlightStyle) * GRAFT_N_HIGHLIGHTS);
  for (guint h = 0; scheme != NULL && h < GRAFT_N_HIGHLIGHTS; h++)
    for (guint i = 0; highlight_ids[h][i] != NULL; i++)
      {
        GtkSourceStyle  *style = gtk_source_style_scheme_get_style (scheme, highlight_ids[h][i]);
        g_autofree char *foreground = NULL;
        gboolean         foreground_set = FALSE;
        gboolean         bold = FALSE;
        gboolean         bold_set = FALSE;

        if (style == NULL)
          continue;
        g_object_get (style, "foreground", &foreground, "foreground-set", &foreground_set, "bold",
                      &bold, "bold-set", &bold_set, NULL);
        styles[h].set = foreground_set && foreground != NULL &&
                        gdk_rgba_parse (&styles[h].color, foreground);
        styles[h].bold = bold_set && bold;
        break;
      }
}

static void
add_highlight (PangoAttrList             *attrs,
               const GraftHighlightStyle *style,
               gsize                      start,
               gsize                      end)
{
  PangoAttribute *attr;

  if (!style->set || start >= end)
    return;
  attr = pango_attr_foreground_new ((guint16) (style->color.red * 65535),
                                    (guint16) (style->color.green * 65535),
                                    (guint16) (style->color.blue * 65535));
  attr->start_index = (guint) start;
  attr->end_index = (guint) end;
  pango_attr_list_insert (attrs, attr);
  if (style->bold)
    {
      attr = pango_attr_weight_new (PANGO_WEIGHT_BOLD);
      attr->start_index = (guint) start;
      attr->end_index = (guint) end;
      pango_attr_list_insert (attrs, attr);
    }
}

/* The colours of a line of Python code after its number (@number_bytes),
 * as a source view gives the graph's code: keywords, constants, strings,
 * numbers, comments and the name a `def` defines.  One pass over the
 * line, when its row comes into view. */
PangoAttrList *
graft_code_rows_highlight (const char                *line,
                           gsize                      number_bytes,
                           const GraftHighlightStyle *styles)
{
  PangoAttrList  *attrs = pango_attr_list_new ();
  gboolean        after_def = FALSE;
  gsize           i = number_bytes;
  PangoAttribute *dim = pango_attr_foreground_alpha_new (65535 * 45 / 100);

  /* The line number, dimmed as a source view's gutter. */
  dim->start_index = 0;
  dim->end_index = (guint) number_bytes;
  pango_attr_list_insert (attrs, dim);

  while (line[i] != '\0')
    {
      char  c = line[i];
      gsize start = i;

      if (c == '#')
        {
          add_highlight (attrs, &styles[HL_COMMENT], i, strlen (line));
          break;
        }
      if (c == '\'' || c == '"')
        {
          for (i++; line[i] != '\0' && line[i] != c; i++)
            if (line[i] == '\\' && line[i + 1] != '\0')
              i++;
          if (line[i] != '\0')
            i++;
          add_highlight (attrs, &styles[HL_STRING], start, i);
          continue;
        }
      if (g_ascii_isdigit (c))
        {
          while (g_ascii_isalnum (line[i]) || line[i] == '.' || line[i] == '_')
            i++;
          add_highlight (attrs, &styles[HL_NUMBER], start, i);
          continue;
        }
      if (g_ascii_isalpha (c) || c == '_')
        {
          while (g_ascii_isalnum (line[i]) || line[i] == '_')
            i++;
          if (after_def)
            add_highlight (attrs, &styles[HL_FUNCTION], start, i);
          else if (word_in (line + start, i - start, python_keywords))
            add_highlight (attrs, &styles[HL_KEYWORD], start, i);
          else if (word_in (line + start, i - start, python_constants))
            add_highlight (attrs, &styles[HL_CONSTANT], start, i);
          after_def = i - start == 3 && memcmp (line + start, "def", 3) == 0;
          /* An attribute's name is not a keyword: `x.is_cuda`, `torch.ops.aten.add`. */
          while (line[i] == '.' && (g_ascii_isalpha (line[i + 1]) || line[i + 1] == '_'))
            for (i++; g_ascii_isalnum (line[i]) || line[i] == '_'; i++)
              ;
          continue;
        }
      if (c != ' ')
        after_def = FALSE;
      i++;
    }
  return attrs;
}

/* The list's items: a row's index, made when a row comes into view. */
struct _GraftRowItem
{
  GObject parent_instance;
  guint   row;
};

G_DEFINE_FINAL_TYPE (GraftRowItem, graft_row_item, G_TYPE_OBJECT)

static void
graft_row_item_class_init (GraftRowItemClass *klass)
{
}

static void
graft_row_item_init (GraftRowItem *self)
{
}

/* The list's model: n items, each a GraftRowItem made when asked for. */
struct _GraftRowModel
{
  GObject parent_instance;
  guint   n_items;
};

static GType
graft_row_model_get_item_type (GListModel *list)
{
  return GRAFT_TYPE_ROW_ITEM;
}

static guint
graft_row_model_get_n_items (GListModel *list)
{
  return GRAFT_ROW_MODEL (list)->n_items;
}

static gpointer
graft_row_model_get_item (GListModel *list,
                          guint       position)
{
  GraftRowItem *item;

  if (position >= GRAFT_ROW_MODEL (list)->n_items)
    return NULL;
  item = g_object_new (GRAFT_TYPE_ROW_ITEM, NULL);
  item->row = position;
  return item;
}

static void
graft_row_model_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = graft_row_model_get_item_type;
  iface->get_n_items = graft_row_model_get_n_items;
  iface->get_item = graft_row_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (GraftRowModel,
                               graft_row_model,
                               G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      graft_row_model_list_model_init))

static void
graft_row_model_class_init (GraftRowModelClass *klass)
{
}

static void
graft_row_model_init (GraftRowModel *self)
{
}

/**
 * graft_row_model_set_n_items:
 * @self: a row model
 * @n_items: how many rows it has now
 *
 * Replaces all its rows by @n_items new ones.
 */
void
graft_row_model_set_n_items (GraftRowModel *self,
                             guint          n_items)
{
  guint removed = self->n_items;

  self->n_items = n_items;
  if (removed != 0 || n_items != 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, n_items);
}

/**
 * graft_row_model_add_items:
 * @self: a row model
 * @n_items: how many rows to add
 *
 * Adds @n_items rows after its rows.
 */
void
graft_row_model_add_items (GraftRowModel *self,
                           guint          n_items)
{
  guint have;

  g_return_if_fail (GRAFT_IS_ROW_MODEL (self));
  have = self->n_items;
  self->n_items += n_items;
  if (n_items != 0)
    g_list_model_items_changed (G_LIST_MODEL (self), have, 0, n_items);
}

/**
 * graft_row_model_grow:
 * @self: a row model
 * @n_items: how many rows it is to have
 *
 * Adds rows up to @n_items, at once.  A list view makes the
 * widgets of its first screenful and more (up to 200 in GTK 4.8) when it
 * gets rows, in that turn: rows drawn by a GraftCodeRow cost little
 * enough (6-7 ms for 200 under load 11) that they all come at once, and
 * a small change is whole in the first frame; labels had cost 100-150 ms
 * and came 8 rows a turn.  Call it in a turn of its own.
 */
void
graft_row_model_grow (GraftRowModel *self,
                      guint          n_items)
{
  g_return_if_fail (GRAFT_IS_ROW_MODEL (self));
  if (self->n_items < n_items)
    graft_row_model_add_items (self, n_items - self->n_items);
}

/**
 * graft_row_item_get_row:
 * @self: an item of a GraftRowModel
 *
 * Returns: its row's index
 */
guint
graft_row_item_get_row (GraftRowItem *self)
{
  g_return_val_if_fail (GRAFT_IS_ROW_ITEM (self), 0);
  return self->row;
}

/**
 * graft_row_model_new:
 *
 * Returns: (transfer full): a model of no rows
 */
GraftRowModel *
graft_row_model_new (void)
{
  return g_object_new (GRAFT_TYPE_ROW_MODEL, NULL);
}

/**
 * graft_code_rows_shorten:
 * @line: a line, not necessarily terminated at @len
 * @len: its length in bytes
 *
 * Returns: (transfer full): the line as a row shows it: whole, or its
 *   first SHOWN_BYTES (whole characters) and how long it is
 */
char *
graft_code_rows_shorten (const char *line,
                         gsize       len)
{
  const char *end;

  if (len <= SHOWN_BYTES)
    return g_strndup (line, len);
  end = g_utf8_find_prev_char (line, line + SHOWN_BYTES + 1);
  return g_strdup_printf ("%.*s … (the line goes on: %" G_GSIZE_FORMAT " bytes in all)",
                          (int) (end - line), line, len);
}

/* A row of code: one line of code a side (one side in the Code tab, two
 * in the Changes window), drawn by the row itself rather than by labels:
 * a list makes up to 200 rows at once, and a label a side made each
 * row's text laid out to measure it, its tooltip set (a round trip to the
 * X server each) and its own CSS node.  The row measures a line's height
 * and a monospace character's width once for all rows, lays a side's
 * line out only when it is drawn, and finds its tooltip when asked
 * (::query-tooltip). */
typedef struct
{
  char        *shown;        /* Owned: the line number, then the line, or NULL */
  gsize        number_bytes; /* of the line number, dimmed */
  gsize        line_start;   /* where the line starts in @shown */
  guint        n_chars;      /* in @shown */
  GraftRowTint tint;
  PangoLayout *layout; /* Owned: laid out when drawn, or NULL */
  int          layout_width;
} RowSide;

struct _GraftCodeRow
{
  GtkWidget parent_instance;

  guint                      n_sides;
  const GraftHighlightStyle *styles; /* Borrowed: the list's owner's */
  RowSide                    sides[2];
};

G_DEFINE_FINAL_TYPE (GraftCodeRow, graft_code_row, GTK_TYPE_WIDGET)

/* A line over this many bytes may not fit its side: it is its tooltip. */
#define TOOLTIP_BYTES 60
/* Two sides (the Changes window) have a pixel above and below each line,
 * six after it and a line between them, as the labels had. */
#define PAD_Y(self)     ((self)->n_sides > 1 ? 1 : 0)
#define PAD_RIGHT(self) ((self)->n_sides > 1 ? 6 : 0)

/* A line's height and a character's width in the rows' font, measured
 * once for all rows (their font is monospace). */
static guint metrics_font;
static int   metrics_height;
static int   metrics_char_width;

static void
row_metrics (GtkWidget *widget,
             int       *height,
             int       *char_width)
{
  PangoContext *context = gtk_widget_get_pango_context (widget);
  guint         font = pango_font_description_hash (pango_context_get_font_description (context));

  if (metrics_height == 0 || font != metrics_font)
    {
      g_autoptr (PangoLayout) layout = pango_layout_new (context);

      pango_layout_set_text (layout, "0", 1);
      pango_layout_get_pixel_size (layout, &metrics_char_width, &metrics_height);
      metrics_font = font;
    }
  *height = metrics_height;
  *char_width = metrics_char_width;
}

static void
row_side_clear (RowSide *side)
{
  g_clear_pointer (&side->shown, g_free);
  g_clear_object (&side->layout);
}

static void
graft_code_row_finalize (GObject *object)
{
  GraftCodeRow *self = GRAFT_CODE_ROW (object);

  for (guint s = 0; s < G_N_ELEMENTS (self->sides); s++)
    row_side_clear (&self->sides[s]);
  G_OBJECT_CLASS (graft_code_row_parent_class)->finalize (object);
}

static GtkSizeRequestMode
graft_code_row_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_CONSTANT_SIZE;
}

static void
graft_code_row_measure (GtkWidget     *widget,
                        GtkOrientation orientation,
                        int            for_size,
                        int           *minimum,
                        int           *natural,
                        int           *minimum_baseline,
                        int           *natural_baseline)
{
  GraftCodeRow *self = GRAFT_CODE_ROW (widget);
  int           height;
  int           char_width;

  row_metrics (widget, &height, &char_width);
  if (orientation == GTK_ORIENTATION_VERTICAL)
    *minimum = *natural = height + 2 * PAD_Y (self);
  else
    {
      guint widest = 0;

      for (guint s = 0; s < self->n_sides; s++)
        widest = MAX (widest, self->sides[s].n_chars);
      *minimum = 0;
      *natural = (int) self->n_sides * ((int) widest * char_width + PAD_RIGHT (self) + 1);
    }
}

/* The tint of a side, over the row's own background. */
static gboolean
tint_color (GtkWidget     *widget,
            GraftRowTint   tint,
            const GdkRGBA *text,
            GdkRGBA       *color)
{
  GtkStyleContext *context = gtk_widget_get_style_context (widget);

  switch (tint)
    {
    case GRAFT_ROW_TINT_REMOVED:
      if (!gtk_style_context_lookup_color (context, "error_color", color))
        gdk_rgba_parse (color, "#c01c28");
      color->alpha = 0.18f;
      return TRUE;
    case GRAFT_ROW_TINT_ADDED:
      if (!gtk_style_context_lookup_color (context, "success_color", color))
        gdk_rgba_parse (color, "#26a269");
      color->alpha = 0.18f;
      return TRUE;
    case GRAFT_ROW_TINT_FILLER:
      *color = *text;
      color->alpha *= 0.05f;
      return TRUE;
    case GRAFT_ROW_TINT_NONE:
    default:
      return FALSE;
    }
}

static void
graft_code_row_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  GraftCodeRow *self = GRAFT_CODE_ROW (widget);
  int           width = gtk_widget_get_width (widget);
  int           height = gtk_widget_get_height (widget);
  int           side_width = width / (int) self->n_sides;
  GdkRGBA       text;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &text);
  for (guint s = 0; s < self->n_sides; s++)
    {
      RowSide *side = &self->sides[s];
      int      x = (int) s * side_width;
      int      w = s + 1 == self->n_sides ? width - x : side_width;
      int      left = s > 0 ? 1 : 0;
      int      text_width = MAX (w - left - PAD_RIGHT (self), 1);
      GdkRGBA  color;

      if (tint_color (widget, side->tint, &text, &color))
        gtk_snapshot_append_color (snapshot, &color, &GRAPHENE_RECT_INIT (x, 0, w, height));
      if (s > 0)
        {
          color = text;
          color.alpha *= 0.15f;
          gtk_snapshot_append_color (snapshot, &color, &GRAPHENE_RECT_INIT (x, 0, 1, height));
        }
      if (side->shown == NULL)
        continue;
      if (side->layout == NULL)
        {
          PangoAttrList *attrs =
              graft_code_rows_highlight (side->shown, side->number_bytes, self->styles);

          side->layout = gtk_widget_create_pango_layout (widget, side->shown);
          pango_layout_set_attributes (side->layout, attrs);
          pango_layout_set_ellipsize (side->layout, PANGO_ELLIPSIZE_END);
          pango_layout_set_single_paragraph_mode (side->layout, TRUE);
          pango_attr_list_unref (attrs);
          side->layout_width = -1;
        }
      if (side->layout_width != text_width)
        {
          pango_layout_set_width (side->layout, text_width * PANGO_SCALE);
          side->layout_width = text_width;
        }
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x + left, PAD_Y (self)));
      gtk_snapshot_append_layout (snapshot, side->layout, &text);
      gtk_snapshot_restore (snapshot);
    }
}

/* A line too long to be sure it fits is its own tooltip. */
static gboolean
graft_code_row_query_tooltip (GtkWidget  *widget,
                              int         x,
                              int         y,
                              gboolean    keyboard_mode,
                              GtkTooltip *tooltip)
{
  GraftCodeRow *self = GRAFT_CODE_ROW (widget);
  int           width = MAX (gtk_widget_get_width (widget), 1);

  for (guint s = 0; s < self->n_sides; s++)
    {
      RowSide *side = &self->sides[s];

      if (!keyboard_mode && self->n_sides > 1 && (guint) (x * (int) self->n_sides / width) != s)
        continue;
      if (side->shown != NULL && strlen (side->shown + side->line_start) > TOOLTIP_BYTES)
        {
          gtk_tooltip_set_text (tooltip, side->shown + side->line_start);
          return TRUE;
        }
    }
  return FALSE;
}

static void
graft_code_row_class_init (GraftCodeRowClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = graft_code_row_finalize;
  widget_class->get_request_mode = graft_code_row_get_request_mode;
  widget_class->measure = graft_code_row_measure;
  widget_class->snapshot = graft_code_row_snapshot;
  widget_class->query_tooltip = graft_code_row_query_tooltip;
  gtk_widget_class_set_css_name (widget_class, "coderow");
}

static void
graft_code_row_init (GraftCodeRow *self)
{
  gtk_widget_add_css_class (GTK_WIDGET (self), "monospace");
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
}

/**
 * graft_code_row_new:
 * @n_sides: 1 (a line of code) or 2 (a line before and after a change)
 * @styles: (array fixed-size=6): the Python colours, owned by the list's
 *   owner as long as the row lives
 *
 * Returns: (transfer floating): a row showing nothing yet
 */
GtkWidget *
graft_code_row_new (guint                      n_sides,
                    const GraftHighlightStyle *styles)
{
  GraftCodeRow *self = g_object_new (GRAFT_TYPE_CODE_ROW, NULL);

  g_return_val_if_fail (n_sides >= 1 && n_sides <= G_N_ELEMENTS (self->sides), NULL);
  self->n_sides = n_sides;
  self->styles = styles;
  return GTK_WIDGET (self);
}

/**
 * graft_code_row_set_side:
 * @self: a row
 * @side: which side
 * @shown: (transfer full) (nullable): what it shows: the line number
 *   (@number_bytes, dimmed), then the line (from @line_start); %NULL for
 *   nothing
 * @number_bytes: the line number's length in @shown
 * @line_start: where the line starts in @shown
 * @tint: the side's tint
 */
void
graft_code_row_set_side (GraftCodeRow *self,
                         guint         side,
                         char         *shown,
                         gsize         number_bytes,
                         gsize         line_start,
                         GraftRowTint  tint)
{
  RowSide *to;

  g_return_if_fail (GRAFT_IS_CODE_ROW (self));
  g_return_if_fail (side < self->n_sides);
  to = &self->sides[side];
  row_side_clear (to);
  to->shown = shown;
  to->number_bytes = number_bytes;
  to->line_start = line_start;
  to->n_chars = shown != NULL ? (guint) g_utf8_strlen (shown, -1) : 0;
  to->tint = tint;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/**
 * graft_code_row_get_text:
 * @self: a row
 * @side: which side
 *
 * Returns: (nullable): what the side shows: its line's number, then the
 *   line (shortened when long), or %NULL
 */
const char *
graft_code_row_get_text (GraftCodeRow *self,
                         guint         side)
{
  g_return_val_if_fail (GRAFT_IS_CODE_ROW (self), NULL);
  g_return_val_if_fail (side < self->n_sides, NULL);
  return self->sides[side].shown;
}

/**
 * graft_code_rows_restyle:
 * @list: a list view whose items' children are rows
 *
 * The Python colours changed (dark mode was switched): the rows made
 * colour their lines anew when drawn next.
 */
void
graft_code_rows_restyle (GtkWidget *list)
{
  for (GtkWidget *item = gtk_widget_get_first_child (list); item != NULL;
       item = gtk_widget_get_next_sibling (item))
    for (GtkWidget *child = gtk_widget_get_first_child (item); child != NULL;
         child = gtk_widget_get_next_sibling (child))
      if (GRAFT_IS_CODE_ROW (child))
        {
          GraftCodeRow *row = GRAFT_CODE_ROW (child);

          for (guint s = 0; s < row->n_sides; s++)
            g_clear_object (&row->sides[s].layout);
          gtk_widget_queue_draw (child);
        }
}

/* Rows copied: their text written when a paste asks for it, on a worker
 * thread, so that Ctrl+A Ctrl+C of a million rows (300 MB of text) is no
 * long turn.  The provider holds what it writes (the rows' source, which
 * does not change, and the rows selected then). */
#define GRAFT_TYPE_ROWS_PROVIDER (graft_rows_provider_get_type ())
G_DECLARE_FINAL_TYPE (GraftRowsProvider,
                      graft_rows_provider,
                      GRAFT,
                      ROWS_PROVIDER,
                      GdkContentProvider)

struct _GraftRowsProvider
{
  GdkContentProvider parent_instance;

  GtkBitset         *rows;
  gpointer           source;
  GDestroyNotify     source_free;
  GraftRowsWriteFunc write;
};

G_DEFINE_FINAL_TYPE (GraftRowsProvider, graft_rows_provider, GDK_TYPE_CONTENT_PROVIDER)

/* Bytes of text written to a paste's stream at a time. */
#define WRITE_BYTES (1024 * 1024)

static const char *const rows_mime_types[] = { "text/plain;charset=utf-8", "text/plain" };

static void
graft_rows_provider_finalize (GObject *object)
{
  GraftRowsProvider *self = GRAFT_ROWS_PROVIDER (object);

  gtk_bitset_unref (self->rows);
  if (self->source_free != NULL)
    self->source_free (self->source);
  G_OBJECT_CLASS (graft_rows_provider_parent_class)->finalize (object);
}

static GdkContentFormats *
graft_rows_provider_ref_formats (GdkContentProvider *provider)
{
  return gdk_content_formats_new ((const char **) rows_mime_types,
                                  G_N_ELEMENTS (rows_mime_types));
}

/* Holds the provider (and so the rows) while a worker writes them. */
static void
rows_write_thread_cb (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  GraftRowsProvider *self = GRAFT_ROWS_PROVIDER (source_object);
  g_autoptr (GString) out = g_string_sized_new (WRITE_BYTES + 4096);
  GError *error = NULL;

  if (self->write (self->source, self->rows, out, task_data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
graft_rows_provider_write_mime_type_async (GdkContentProvider *provider,
                                           const char         *mime_type,
                                           GOutputStream      *stream,
                                           int                 io_priority,
                                           GCancellable       *cancellable,
                                           GAsyncReadyCallback callback,
                                           gpointer            user_data)
{
  g_autoptr (GTask) task = g_task_new (provider, cancellable, callback, user_data);

  g_task_set_source_tag (task, graft_rows_provider_write_mime_type_async);
  g_task_set_priority (task, io_priority);
  if (!g_strv_contains (rows_mime_types, mime_type))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               "Cannot give the rows as %s", mime_type);
      return;
    }
  g_task_set_task_data (task, g_object_ref (stream), g_object_unref);
  g_task_run_in_thread (task, rows_write_thread_cb);
}

static gboolean
graft_rows_provider_write_mime_type_finish (GdkContentProvider *provider,
                                            GAsyncResult       *result,
                                            GError            **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
graft_rows_provider_class_init (GraftRowsProviderClass *klass)
{
  GdkContentProviderClass *provider_class = GDK_CONTENT_PROVIDER_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = graft_rows_provider_finalize;
  provider_class->ref_formats = graft_rows_provider_ref_formats;
  provider_class->write_mime_type_async = graft_rows_provider_write_mime_type_async;
  provider_class->write_mime_type_finish = graft_rows_provider_write_mime_type_finish;
}

static void
graft_rows_provider_init (GraftRowsProvider *self)
{
}

/**
 * graft_rows_provider_new:
 * @rows: the rows to copy (copied: the selection may change)
 * @source: (transfer full): what @write reads them from; it must not
 *   change, and is freed on any thread
 * @source_free: (nullable): frees @source
 * @write: writes the rows' text, on a worker thread
 *
 * Returns: (transfer full): a content provider for the clipboard that
 *   gives the rows as text when asked, written on a worker thread
 */
GdkContentProvider *
graft_rows_provider_new (GtkBitset         *rows,
                         gpointer           source,
                         GDestroyNotify     source_free,
                         GraftRowsWriteFunc write)
{
  GraftRowsProvider *self = g_object_new (GRAFT_TYPE_ROWS_PROVIDER, NULL);

  self->rows = gtk_bitset_copy (rows);
  self->source = source;
  self->source_free = source_free;
  self->write = write;
  return GDK_CONTENT_PROVIDER (self);
}

/**
 * graft_rows_flush:
 * @text: text made so far
 * @all: write it whatever its length, else only from a megabyte on
 * @stream: (nullable): where to write it, or %NULL to keep it in @text
 * @cancellable: (nullable): stops the writing
 * @error: set if it fails
 *
 * Writes @text to @stream and empties it, at its end (@all) or once it is
 * long enough.
 *
 * Returns: whether it did not fail
 */
gboolean
graft_rows_flush (GString       *text,
                  gboolean       all,
                  GOutputStream *stream,
                  GCancellable  *cancellable,
                  GError       **error)
{
  if (stream == NULL || text->len == 0 || (!all && text->len < WRITE_BYTES))
    return TRUE;
  if (!g_output_stream_write_all (stream, text->str, text->len, NULL, cancellable, error))
    return FALSE;
  g_string_truncate (text, 0);
  return TRUE;
}
