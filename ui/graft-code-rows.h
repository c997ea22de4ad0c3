/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-code-rows.h: code as rows of a list view, coloured as Python.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define GRAFT_N_HIGHLIGHTS 6

/* How a source view's style shows one kind of Python word. */
typedef struct
{
  gboolean set;
  GdkRGBA  color;
  gboolean bold;
} GraftHighlightStyle;

void           graft_code_rows_load_styles (GraftHighlightStyle styles[GRAFT_N_HIGHLIGHTS]);
PangoAttrList *graft_code_rows_highlight (const char                *line,
                                          gsize                      number_bytes,
                                          const GraftHighlightStyle *styles);
char          *graft_code_rows_shorten (const char *line,
                                        gsize       len) G_GNUC_WARN_UNUSED_RESULT;

#define GRAFT_TYPE_ROW_ITEM (graft_row_item_get_type ())
G_DECLARE_FINAL_TYPE (GraftRowItem, graft_row_item, GRAFT, ROW_ITEM, GObject)
#define GRAFT_TYPE_ROW_MODEL (graft_row_model_get_type ())
G_DECLARE_FINAL_TYPE (GraftRowModel, graft_row_model, GRAFT, ROW_MODEL, GObject)

guint          graft_row_item_get_row (GraftRowItem *self);
GraftRowModel *graft_row_model_new (void) G_GNUC_WARN_UNUSED_RESULT;
void           graft_row_model_set_n_items (GraftRowModel *self,
                                            guint          n_items);
void           graft_row_model_add_items (GraftRowModel *self,
                                          guint          n_items);
void           graft_row_model_grow (GraftRowModel *self,
                                     guint          n_items);

/* How a side of a row is tinted: the same on both sides of a change,
 * removed, added, or filler facing a line of the other side. */
typedef enum {
  GRAFT_ROW_TINT_NONE,
  GRAFT_ROW_TINT_REMOVED,
  GRAFT_ROW_TINT_ADDED,
  GRAFT_ROW_TINT_FILLER,
} GraftRowTint;

#define GRAFT_TYPE_CODE_ROW (graft_code_row_get_type ())
G_DECLARE_FINAL_TYPE (GraftCodeRow, graft_code_row, GRAFT, CODE_ROW, GtkWidget)

GtkWidget  *graft_code_row_new (guint                      n_sides,
                                const GraftHighlightStyle *styles);
void        graft_code_row_set_side (GraftCodeRow *self,
                                     guint         side,
                                     char         *shown,
                                     gsize         number_bytes,
                                     gsize         line_start,
                                     GraftRowTint  tint);
const char *graft_code_row_get_text (GraftCodeRow *self,
                                     guint         side);
void        graft_code_rows_restyle (GtkWidget *list);

/* Appends the text of the rows @rows of @source to @out, and writes it to
 * @stream (graft_rows_flush()) as it goes when @stream is not NULL.  Runs
 * on a worker thread for a paste. */
typedef gboolean (*GraftRowsWriteFunc) (gpointer       source,
                                        GtkBitset     *rows,
                                        GString       *out,
                                        GOutputStream *stream,
                                        GCancellable  *cancellable,
                                        GError       **error);

GdkContentProvider *graft_rows_provider_new (GtkBitset         *rows,
                                             gpointer           source,
                                             GDestroyNotify     source_free,
                                             GraftRowsWriteFunc write) G_GNUC_WARN_UNUSED_RESULT;
gboolean            graft_rows_flush (GString       *text,
                                      gboolean       all,
                                      GOutputStream *stream,
                                      GCancellable  *cancellable,
                                      GError       **error);

G_END_DECLS
