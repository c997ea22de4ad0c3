/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-keys.c: the window's keys sent as a user's are (xdotool, on the
 * X display the suite has to itself: Xvfb in CI), for what an emitted
 * signal would not prove.
 *
 * - The side panel's split from the keyboard: Ctrl+F8 takes the keyboard
 *   to it (GtkPaned's own F8 is Next Match here), Page Up moves it,
 *   Return keeps it and gives the keyboard back, Escape puts it back;
 *   on the Rules page the split moved so is the page's, as a drag is.
 */
#include "config.h"

#include "window-util.h"

#include "graft-application.h"
#include "graft-rules-panel.h"
#include "graft-window-private.h"

static char *
data_path (const char *folder,
           const char *name)
{
  return g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", folder, name, NULL);
}

/* The application, registered (its keys set), not run: a window added
 * to it has the application's keys. */
static GraftApplication *
application_new (void)
{
  g_autoptr (GError) error = NULL;
  GraftApplication *app = graft_application_new ();

  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  return app;
}

static void
application_free (GraftApplication *app)
{
  g_application_set_default (NULL);
  g_object_unref (app);
}

/* resnet18 with the four rules of the acceptance case in a window of
 * @app, the Rules page shown. */
static GraftWindow *
open_rules_page (GraftApplication *app)
{
  g_autofree char *model = data_path ("torchvision", "resnet18.py");
  g_autofree char *rules = data_path ("rules", "editor_steps_rules.py");
  g_autoptr (GFile) file = g_file_new_for_path (rules);
  GraftWindow *window = open_path (model);

  gtk_application_add_window (GTK_APPLICATION (app), GTK_WINDOW (window));

  graft_window_open_rules (window, file);
  iterate_until (layout_ready, window);
  activate (window, "show-rules", NULL);
  iterate_until_drawn (GTK_WIDGET (window));
  return window;
}

static gboolean
is_focus (gpointer widget)
{
  return gtk_widget_is_focus (widget);
}

typedef struct
{
  GtkPaned *paned;
  int       from;
  int       sign; /* -1: wait until above @from, 1: below, 0: at it */
} SplitWait;

static gboolean
split_moved (gpointer data)
{
  SplitWait *wait = data;
  int        position = gtk_paned_get_position (wait->paned);

  if (wait->sign < 0)
    return position < wait->from;
  if (wait->sign > 0)
    return position > wait->from;
  return position == wait->from;
}

/* Sends @key with the keyboard on the split, and waits until the split
 * moved by it (@sign -1: up, 1: down). */
static void
key_split (GraftWindow *window,
           const char  *key,
           int          sign)
{
  SplitWait wait = { window->side_paned, gtk_paned_get_position (window->side_paned), sign };

  xdotool ("key", key, NULL);
  iterate_until (split_moved, &wait);
}

/* Ctrl+F8, Page Up three times, Return: the split moved up stays, with a
 * visit to the Pattern page between (which fits the Rules page's split
 * again unless the user chose one), and the keyboard is back on the rule
 * list.  Ctrl+F8, Page Down, Down, Up, Escape: the split is back where Return left
 * it, and stays there after a visit to the Pattern page (GtkPaned's
 * Escape put it back, the page's choice too).  On main Ctrl+F8 did
 * nothing (the first wait ran out): F8 is Next Match, and GtkPaned's own
 * F8 never reached the split. */
static void
test_rules_split (void)
{
  GraftApplication *app = application_new ();
  GraftWindow      *window = open_rules_page (app);
  GtkWidget        *paned = GTK_WIDGET (window->side_paned);
  GtkWidget        *list =
      GTK_WIDGET (graft_rules_panel_get_rule_list (GRAFT_RULES_PANEL (window->rules_panel)));
  SplitWait at;
  int       fitted;
  int       moved;

  iterate_until (page_fitted, window);
  fitted = gtk_paned_get_position (window->side_paned);
  focus_window (window);
  graft_rules_panel_focus_rules (GRAFT_RULES_PANEL (window->rules_panel));
  g_assert_true (gtk_widget_has_focus (list));

  xdotool ("key", "ctrl+F8", NULL);
  iterate_until (is_focus, paned);
  for (guint i = 0; i < 3; i++)
    key_split (window, "Page_Up", -1);
  moved = gtk_paned_get_position (window->side_paned);
  g_assert_cmpint (moved, <, fitted - 20);
  xdotool ("key", "Return", NULL);
  iterate_until (is_focus, list);
  g_assert_cmpint (gtk_paned_get_position (window->side_paned), ==, moved);

  gtk_stack_set_visible_child_name (window->editor_stack, "pattern");
  iterate_until_drawn (GTK_WIDGET (window));
  gtk_stack_set_visible_child_name (window->editor_stack, "rules");
  iterate_until_drawn (GTK_WIDGET (window));
  at = (SplitWait){ window->side_paned, moved, 0 };
  iterate_until (split_moved, &at);

  /* Escape puts it back. */
  xdotool ("key", "ctrl+F8", NULL);
  iterate_until (is_focus, paned);
  key_split (window, "Page_Down", 1);
  g_assert_cmpint (gtk_paned_get_position (window->side_paned), >, moved);
  /* Down and Up move it by 16 pixels, a step a user sees (GtkPaned's own
   * step is a pixel). */
  {
    int from = gtk_paned_get_position (window->side_paned);

    key_split (window, "Down", 1);
    g_assert_cmpint (gtk_paned_get_position (window->side_paned), ==, from + 16);
    key_split (window, "Up", -1);
    g_assert_cmpint (gtk_paned_get_position (window->side_paned), ==, from);
  }
  xdotool ("key", "Escape", NULL);
  iterate_until (is_focus, list);
  g_assert_cmpint (gtk_paned_get_position (window->side_paned), ==, moved);
  gtk_stack_set_visible_child_name (window->editor_stack, "pattern");
  iterate_until_drawn (GTK_WIDGET (window));
  gtk_stack_set_visible_child_name (window->editor_stack, "rules");
  iterate_until_drawn (GTK_WIDGET (window));
  g_assert_cmpint (gtk_paned_get_position (window->side_paned), ==, moved);
  close_window (window);
  application_free (app);
}

int
main (int    argc,
      char **argv)
{
  if (!ui_test_init (&argc, &argv))
    return 0;
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  g_test_add_func ("/ui/keys/rules-split", test_rules_split);
  return g_test_run ();
}
