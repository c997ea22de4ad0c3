/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-diff-window.c: "Show Changes": the code before the last change on
 * the left and after it on the right, lines aligned (graft_diff_lines()),
 * removed lines tinted red, added ones green, blank filler where one side
 * has nothing; both sides scroll together.  Built in code: two read-only
 * source views in a paned, under a header bar that says what changed.
 * Each side's text goes into its buffer in one insertion, and each run of
 * tinted lines gets its tag once, so a diff of 100,000 lines opens as
 * fast as a small one.
 */
#include "config.h"

#include "graft-diff-window.h"
#include "graft-pattern-editor.h"
#include "graft-view.h"

#include <gtksourceview/gtksource.h>
#include <string.h>

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

/* One side of the window as it is built: its text, and the runs of lines
 * each tint covers, applied once the text is in (one insertion and one
 * tag per run, not per line: a 50,000-line diff stays fast). */
typedef struct
{
  GString *text;
  guint    n_lines;
  GArray  *runs; /* of Run */
} Side;

typedef struct
{
  guint       first;
  guint       end;
  GtkTextTag *tag;
} Run;

static void
append_line (Side       *side,
             const char *text,
             GtkTextTag *tag)
{
  Run *last = side->runs->len > 0 ? &g_array_index (side->runs, Run, side->runs->len - 1) : NULL;

  g_string_append (side->text, text);
  g_string_append_c (side->text, '\n');
  if (tag != NULL)
    {
      if (last != NULL && last->tag == tag && last->end == side->n_lines)
        last->end++;
      else
        {
          Run run = { side->n_lines, side->n_lines + 1, tag };

          g_array_append_val (side->runs, run);
        }
    }
  side->n_lines++;
}

static void
fill_buffer (GtkTextBuffer *buffer,
             Side          *side)
{
  gtk_text_buffer_set_text (buffer, side->text->str, (int) side->text->len);
  for (guint i = 0; i < side->runs->len; i++)
    {
      Run        *run = &g_array_index (side->runs, Run, i);
      GtkTextIter start, end;

      gtk_text_buffer_get_iter_at_line (buffer, &start, (int) run->first);
      gtk_text_buffer_get_iter_at_line (buffer, &end, (int) run->end);
      gtk_text_buffer_apply_tag (buffer, run->tag, &start, &end);
    }
  g_string_free (side->text, TRUE);
  g_array_unref (side->runs);
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
  Side        left_side = { g_string_sized_new (strlen (before) + 1024), 0,
                            g_array_new (FALSE, FALSE, sizeof (Run)) };
  Side        right_side = { g_string_sized_new (strlen (after) + 1024), 0,
                             g_array_new (FALSE, FALSE, sizeof (Run)) };

  /* Each run of changed lines is one hunk: its removed lines face its
   * added ones row by row, filler pads the shorter side. */
  for (guint i = 0; i < lines->len;)
    {
      GraftDiffLine *line = &g_array_index (lines, GraftDiffLine, i);
      g_autoptr (GPtrArray) gone = NULL;
      g_autoptr (GPtrArray) come = NULL;

      if (line->kind == GRAFT_DIFF_SAME)
        {
          append_line (&left_side, a[line->before], NULL);
          append_line (&right_side, b[line->after], NULL);
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
            append_line (&left_side, gone->pdata[k], removed);
          else
            append_line (&left_side, "", left_filler);
          if (k < come->len)
            append_line (&right_side, come->pdata[k], added);
          else
            append_line (&right_side, "", right_filler);
        }
      self->n_removed += gone->len;
      self->n_added += come->len;
    }

  fill_buffer (left, &left_side);
  fill_buffer (right, &right_side);

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
