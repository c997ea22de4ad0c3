/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-diff-window.c: "Show Changes": the code before the last change on
 * the left and after it on the right, lines aligned (graft_diff_lines()),
 * removed lines tinted red, added ones green, blank filler where one side
 * has nothing; both sides scroll together.  Built in code: two read-only
 * source views in a paned, under a header bar that says what changed.
 */
#include "config.h"

#include "graft-diff-window.h"
#include "graft-pattern-editor.h"
#include "graft-view.h"

#include <gtksourceview/gtksource.h>

struct _GraftDiffWindow
{
  AdwWindow parent_instance;

  guint n_removed;
  guint n_added;
};

G_DEFINE_FINAL_TYPE (GraftDiffWindow, graft_diff_window, ADW_TYPE_WINDOW)

static void
graft_diff_window_class_init (GraftDiffWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  /* A window to glance at: Escape and Ctrl+W close it. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close",
                                       NULL);
}

static void
graft_diff_window_init (GraftDiffWindow *self)
{
}

static GtkWidget *
make_view (GtkTextBuffer **out_buffer,
           GtkAdjustment  *vadjustment)
{
  GtkSourceLanguage *python =
      gtk_source_language_manager_get_language (gtk_source_language_manager_get_default (),
                                                "python3");
  GtkSourceBuffer *buffer = gtk_source_buffer_new_with_language (python);
  GtkWidget       *view = gtk_source_view_new_with_buffer (buffer);
  GtkWidget       *scroller = gtk_scrolled_window_new ();

  graft_source_buffer_follow_style (buffer);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (view), 6);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (view), 6);
  gtk_source_view_set_show_line_numbers (GTK_SOURCE_VIEW (view), FALSE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), view);
  if (vadjustment != NULL)
    gtk_scrolled_window_set_vadjustment (GTK_SCROLLED_WINDOW (scroller), vadjustment);
  gtk_widget_set_hexpand (scroller, TRUE);
  gtk_widget_set_vexpand (scroller, TRUE);
  *out_buffer = GTK_TEXT_BUFFER (buffer);
  g_object_unref (buffer);
  return scroller;
}

static void
append_line (GtkTextBuffer *buffer,
             const char    *text,
             GtkTextTag    *tag)
{
  GtkTextIter end;

  gtk_text_buffer_get_end_iter (buffer, &end);
  if (tag != NULL)
    gtk_text_buffer_insert_with_tags (buffer, &end, text, -1, tag, NULL);
  else
    gtk_text_buffer_insert (buffer, &end, text, -1);
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert (buffer, &end, "\n", 1);
}

/**
 * graft_diff_window_new:
 * @parent: (nullable): the editor window
 * @what: the change (`Replace all`)
 * @before: the code before it
 * @after: the code after it
 *
 * Returns: (transfer full): the window, not shown yet
 */
GtkWidget *
graft_diff_window_new (GtkWindow  *parent,
                       const char *what,
                       const char *before,
                       const char *after)
{
  GraftDiffWindow *self = g_object_new (GRAFT_TYPE_DIFF_WINDOW,
                                        "transient-for", parent,
                                        "default-width", 1100,
                                        "default-height", 700,
                                        "title", "Changes",
                                        NULL);
  g_auto (GStrv) a = g_strsplit (before, "\n", -1);
  g_auto (GStrv) b = g_strsplit (after, "\n", -1);
  g_autoptr (GArray) lines = graft_diff_lines ((const char *const *) a, (const char *const *) b);
  GtkWidget       *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget       *header = adw_header_bar_new ();
  g_autofree char *subtitle = NULL;
  GtkWidget       *title;
  GtkWidget       *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkTextBuffer   *left;
  GtkTextBuffer   *right;
  GtkWidget       *left_view = make_view (&left, NULL);
  GtkWidget       *right_view =
      make_view (&right, gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (left_view)));
  gboolean    dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GtkTextTag *removed = gtk_text_buffer_create_tag (left, "removed", "paragraph-background",
                                                    dark ? "#5c2a2a" : "#fbdada", NULL);
  GtkTextTag *added = gtk_text_buffer_create_tag (right, "added", "paragraph-background",
                                                  dark ? "#1f4a2c" : "#d6f2dd", NULL);
  GtkTextTag *left_filler = gtk_text_buffer_create_tag (left, "filler", "paragraph-background",
                                                        dark ? "#2a2a2a" : "#efefef", NULL);
  GtkTextTag *right_filler = gtk_text_buffer_create_tag (right, "filler", "paragraph-background",
                                                         dark ? "#2a2a2a" : "#efefef", NULL);

  /* Each run of changed lines is one hunk: its removed lines face its
   * added ones row by row, filler pads the shorter side. */
  for (guint i = 0; i < lines->len;)
    {
      GraftDiffLine *line = &g_array_index (lines, GraftDiffLine, i);
      g_autoptr (GPtrArray) gone = NULL;
      g_autoptr (GPtrArray) come = NULL;

      if (line->kind == GRAFT_DIFF_SAME)
        {
          append_line (left, a[line->before], NULL);
          append_line (right, b[line->after], NULL);
          i++;
          continue;
        }
      gone = g_ptr_array_new ();
      come = g_ptr_array_new ();
      for (; i < lines->len && g_array_index (lines, GraftDiffLine, i).kind != GRAFT_DIFF_SAME; i++)
        {
          line = &g_array_index (lines, GraftDiffLine, i);
          if (line->kind == GRAFT_DIFF_REMOVED)
            g_ptr_array_add (gone, a[line->before]);
          else
            g_ptr_array_add (come, b[line->after]);
        }
      for (guint k = 0; k < MAX (gone->len, come->len); k++)
        {
          if (k < gone->len)
            append_line (left, gone->pdata[k], removed);
          else
            append_line (left, "", left_filler);
          if (k < come->len)
            append_line (right, come->pdata[k], added);
          else
            append_line (right, "", right_filler);
        }
      self->n_removed += gone->len;
      self->n_added += come->len;
    }

  subtitle = g_strdup_printf ("%s: %u line%s removed, %u added", what, self->n_removed,
                              self->n_removed == 1 ? "" : "s", self->n_added);
  title = adw_window_title_new ("Changes", subtitle);
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), title);
  gtk_paned_set_start_child (GTK_PANED (paned), left_view);
  gtk_paned_set_end_child (GTK_PANED (paned), right_view);
  gtk_paned_set_position (GTK_PANED (paned), 550);
  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), paned);
  adw_window_set_content (ADW_WINDOW (self), box);
  return GTK_WIDGET (self);
}

guint
graft_diff_window_get_n_removed (GraftDiffWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_DIFF_WINDOW (self), 0);
  return self->n_removed;
}

guint
graft_diff_window_get_n_added (GraftDiffWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_DIFF_WINDOW (self), 0);
  return self->n_added;
}
