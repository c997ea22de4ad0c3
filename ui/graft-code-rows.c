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
/* A model grows by GROW_STEP rows at a time to GROW_WIDGET_ROWS. */
#define GROW_WIDGET_ROWS 256
#define GROW_STEP        8

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
 * @deadline: when to stop, in g_get_monotonic_time()'s microseconds
 *
 * Adds rows towards @n_items until @deadline: its first GROW_WIDGET_ROWS
 * GROW_STEP at a time, then the rest at once.  A list view makes the
 * widgets of its first screenful and more when it gets rows: all at once,
 * 98-158 ms at 50,000 nodes under load; no widget is made for the rows
 * after them.
 *
 * Returns: whether it has @n_items rows
 */
gboolean
graft_row_model_grow (GraftRowModel *self,
                      guint          n_items,
                      gint64         deadline)
{
  g_return_val_if_fail (GRAFT_IS_ROW_MODEL (self), TRUE);
  while (self->n_items < n_items)
    {
      guint have = self->n_items;

      graft_row_model_add_items (
          self, have < GROW_WIDGET_ROWS ? MIN (GROW_STEP, n_items - have) : n_items - have);
      if (self->n_items < n_items && g_get_monotonic_time () >= deadline)
        return FALSE;
    }
  return TRUE;
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
