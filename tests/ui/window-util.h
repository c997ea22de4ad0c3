/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * window-util.h: what the editor's widget tests share: bounded waits on
 * the main loop, opening and closing windows, finding widgets, pressing
 * keys, and the start of a test program.
 */
#pragma once

#include "graft-window.h"

#include <adwaita.h>

gboolean ui_test_init (int    *argc,
                       char ***argv);

void set_wait_limit (guint seconds);
void iterate_until_named (gboolean (*done) (gpointer),
                          gpointer    data,
                          const char *what);
#define iterate_until(done, data) iterate_until_named (done, data, #done)
void iterate_for (guint ms);
void iterate_pending (void);
void iterate_until_drawn (GtkWidget *widget);

gboolean     layout_ready (gpointer window);
GraftWindow *open_path_sized (const char *path,
                              int         width,
                              int         height);
GraftWindow *open_path (const char *path);
GraftWindow *open_example_sized (int width,
                                 int height);
GraftWindow *open_example (void);
void         activate (GraftWindow *window,
                       const char  *action,
                       GVariant    *param);
void         close_window (gpointer window);
gboolean     no_windows (gpointer data);
void         close_last_window (gpointer window);

GtkWidget *find_widget_where (GtkWidget *widget,
                              gboolean (*test) (GtkWidget *widget, gconstpointer data),
                              gconstpointer data);
GtkWidget *find_widget (GtkWidget *widget,
                        GType      type);
GtkWidget *find_child (GtkWidget *widget,
                       GType      type);
GtkWidget *find_styled (GtkWidget  *widget,
                        const char *css_class);
GtkWidget *find_label_showing (GtkWidget  *widget,
                               const char *text);
GtkWidget *find_action_widget (GtkWidget  *widget,
                               const char *action);
GtkWidget *find_code_row (GtkWidget  *widget,
                          const char *prefix);
GtkWidget *find_code_row_ending (GtkWidget   *widget,
                                 const char  *suffix,
                                 const char **text);

GtkWidget      *find_text_view (GtkWidget *widget);
GtkWidget      *find_toplevel (GType type);
GtkWidget      *open_toplevel (GraftWindow *window,
                               const char  *action,
                               GVariant    *param,
                               GType        type);
GtkFileChooser *shown_file_chooser (void);
gboolean        file_chooser_shown (gpointer data);
char           *buffer_text (GtkTextBuffer *buffer);

GtkWidget  *find_toast (GraftWindow *window);
const char *shown_toast (GraftWindow *window);
gboolean    toast_shown (gpointer window);
gboolean    session_written (gpointer window);

char       *clipboard_text (GdkClipboard *clipboard) G_GNUC_WARN_UNUSED_RESULT;
GHashTable *widget_text_colors (GtkWidget *widget) G_GNUC_WARN_UNUSED_RESULT;
char       *keyword_color (void) G_GNUC_WARN_UNUSED_RESULT;
gboolean    press_shortcut (GtkWidget  *widget,
                            const char *accel);

gboolean diff_ready (gpointer diff);
gboolean context_ready (gpointer context);
gboolean split_ready (gpointer split);
gboolean matches_known (gpointer window);
gboolean has_file_notice (gpointer window);
gboolean code_made (gpointer document);

gint find_layout_box (GraftLayout *layout,
                      const char  *name);

gboolean flap_settled (gpointer flap);
gboolean page_fitted (gpointer window);
gboolean node_in_view (GraftCanvas *canvas,
                       const char  *name);
void     assert_view_filled (GraftCanvas *canvas);

/* Real keys: xdotool's command run while the main loop turns (a suite
 * alone on its display, or the keys go to another suite's window), and
 * the X keyboard focus given to a window. */
void xdotool (const char *first,
              ...) G_GNUC_NULL_TERMINATED;
void focus_window (GraftWindow *window);
