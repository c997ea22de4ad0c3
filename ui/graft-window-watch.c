/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-window-watch.c: the window's file, watched on disk (a
 * GFileMonitor).  When another program changes it, a bar under the header
 * says so and offers to read it again (win.reload-file); when it is
 * deleted or moved away, the bar says that (the window keeps its graph
 * until it is saved).  The window's own saves are told apart by the file's etag,
 * recorded after each read and each save.
 *
 * A file that could not be read (the window shows its error, and holds
 * nothing to lose) is read again by itself once it changes, without the
 * bar: fixing a syntax error in another editor and saving shows the graph
 * (or the next error).  It is read a moment after the last event, so that
 * a file written in several pieces is read whole.
 *
 * Reloading never loses work: a window without unsaved changes reads the
 * file again in its place, one with unsaved changes opens the new version
 * in a new window and keeps its own; either way the pattern and
 * replacement being edited come along (graft-window-open.c).  libadwaita
 * 1.2 has no AdwBanner, so the bar is a revealer styled as the warning
 * bar.
 */
#include "config.h"

#include "graft-document-private.h"
#include "graft-window-private.h"

/* The etag of @file, or NULL when it cannot be read (deleted). */
static char *
dup_etag (GFile *file)
{
  g_autoptr (GFileInfo) info =
      g_file_query_info (file, G_FILE_ATTRIBUTE_ETAG_VALUE, G_FILE_QUERY_INFO_NONE, NULL, NULL);

  return info != NULL ? g_strdup (g_file_info_get_etag (info)) : NULL;
}

static void
hide_bar (GraftWindow *self)
{
  if (self->file_bar != NULL)
    gtk_revealer_set_reveal_child (GTK_REVEALER (self->file_bar), FALSE);
}

/* Shows the bar saying @text, with the Reload button or without. */
static void
show_bar (GraftWindow *self,
          const char  *text,
          gboolean     reload)
{
  gtk_label_set_text (GTK_LABEL (self->file_bar_label), text);
  gtk_widget_set_visible (self->file_bar_reload, reload);
  gtk_button_set_label (GTK_BUTTON (self->file_bar_reload),
                        graft_document_get_modified (self->document) ? "Open the _New Version"
                                                                     : "_Reload");
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->file_bar), TRUE);
}

/* How long after the last change of a file that could not be read it is
 * read again: editors write a file in pieces (a truncation, then the
 * text), each an event. */
#define REREAD_DELAY_MS 200

static gboolean
reread_cb (gpointer user_data)
{
  GraftWindow *self = user_data;
  GFile       *file = graft_document_get_file (self->document);

  self->reread_id = 0;
  if (file != NULL && graft_document_get_load_error (self->document) != NULL && !self->loading)
    _graft_window_open_from (self, file);
  return G_SOURCE_REMOVE;
}

static void
cancel_reread (GraftWindow *self)
{
  g_clear_handle_id (&self->reread_id, g_source_remove);
}

static void check_file (GraftWindow *self);

static void
file_changed_cb (GFileMonitor     *monitor,
                 GFile            *file,
                 GFile            *other,
                 GFileMonitorEvent event,
                 GraftWindow      *self)
{
  if (graft_document_get_file (self->document) == NULL || self->loading ||
      event == G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED || event == G_FILE_MONITOR_EVENT_PRE_UNMOUNT)
    return;
  check_file (self);
}

/* The window's file changed on disk, or may have: says so, or reads it
 * again (one that could not be read). */
static void
check_file (GraftWindow *self)
{
  g_autofree char *etag = dup_etag (graft_document_get_file (self->document));
  g_autofree char *text = NULL;

  if (etag == NULL)
    {
      /* A file that could not be read left no graph to keep: a file put
       * back there is read (below). */
      text = g_strdup_printf (graft_document_get_load_error (self->document) != NULL
                                  ? "“%s” was deleted or moved away on disk."
                                  : "“%s” was deleted or moved away on disk: the window keeps "
                                    "the graph until you save it.",
                              graft_document_get_title (self->document));
      cancel_reread (self);
      show_bar (self, text, FALSE);
      return;
    }
  if (g_strcmp0 (etag, self->file_etag) == 0)
    {
      /* Back as it was read or saved (a deletion undone). */
      hide_bar (self);
      return;
    }
  /* Nothing was read, so nothing can be lost: read it again. */
  if (graft_document_get_load_error (self->document) != NULL &&
      !graft_document_get_modified (self->document))
    {
      hide_bar (self);
      cancel_reread (self);
      self->reread_id = g_timeout_add (REREAD_DELAY_MS, reread_cb, self);
      return;
    }
  text = g_strdup_printf (graft_document_get_modified (self->document)
                              ? "“%s” changed on disk. Open the new version in a new window, "
                                "and keep your unsaved changes here?"
                              : "“%s” changed on disk.",
                          graft_document_get_title (self->document));
  show_bar (self, text, TRUE);
}

/* Making the monitor watches the file's folder, which takes the kernel
 * tens of milliseconds in a folder of a few thousand files: it is made on
 * a worker thread.  A thread without a main context of its own makes a
 * monitor whose events go to the global default context, the window's. */
static void
monitor_thread_cb (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  GError       *error = NULL;
  GFileMonitor *monitor =
      g_file_monitor_file (task_data, G_FILE_MONITOR_WATCH_MOVES, cancellable, &error);

  if (monitor == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, monitor, g_object_unref);
}

/* The task has no source object: a GTask may be finalized on its worker
 * thread, and it would then drop the last reference to a window closed
 * meanwhile there, outside GTK's thread.  The window is @user_data,
 * unreferenced: whatever stops the watch (a closed window's dispose
 * included) cancels the task first, and then the window is not read. */
static void
monitor_ready_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  GTask *task = G_TASK (result);
  g_autoptr (GFileMonitor) monitor = g_task_propagate_pointer (task, NULL);
  GraftWindow *self;

  /* Stopped: the window went, or watches another file. */
  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      if (monitor != NULL)
        g_file_monitor_cancel (monitor);
      return;
    }
  self = GRAFT_WINDOW (user_data);
  g_assert (g_task_get_cancellable (task) == self->watch_start);
  g_clear_object (&self->watch_start);
  if (monitor == NULL)
    return;
  self->file_monitor = g_steal_pointer (&monitor);
  self->watched = g_object_ref (g_task_get_task_data (task));
  g_signal_connect_object (self->file_monitor, "changed", G_CALLBACK (file_changed_cb), self, 0);
}

static void
stop_monitor_start (GraftWindow *self)
{
  if (self->watch_start == NULL)
    return;
  g_cancellable_cancel (self->watch_start);
  g_clear_object (&self->watch_start);
}

static void
start_monitor (GraftWindow *self,
               GFile       *file)
{
  g_autoptr (GTask) task = NULL;

  stop_monitor_start (self);
  self->watch_start = g_cancellable_new ();
  task = g_task_new (NULL, self->watch_start, monitor_ready_cb, self);
  g_task_set_source_tag (task, start_monitor);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, monitor_thread_cb);
}

/**
 * graft_window_get_watch_pending:
 * @self: a window
 *
 * Returns: whether the monitor of the window's file is still being made
 */
gboolean
graft_window_get_watch_pending (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), FALSE);
  return self->watch_start != NULL;
}

/**
 * _graft_window_watch_file:
 * @self: a window
 *
 * After the window's file was read or saved: watches it (again, if it is
 * another file) and takes what is on disk now as the window's own.
 */
void
_graft_window_watch_file (GraftWindow *self)
{
  GFile *file = graft_document_get_file (self->document);

  hide_bar (self);
  cancel_reread (self);
  g_clear_pointer (&self->file_etag, g_free);
  if (file == NULL || (self->watched != NULL && !g_file_equal (file, self->watched)))
    {
      stop_monitor_start (self);
      if (self->file_monitor != NULL)
        g_file_monitor_cancel (self->file_monitor);
      g_clear_object (&self->file_monitor);
      g_clear_object (&self->watched);
    }
  if (file == NULL)
    return;
  self->file_etag = dup_etag (file);
  if (self->file_monitor != NULL)
    return;
  start_monitor (self, file);
}

/**
 * _graft_window_watch_read_file:
 * @self: a window
 *
 * _graft_window_watch_file() after a read: a change made while the file
 * was read (its events were dropped meanwhile, and the etag on disk is
 * the new version's) is a change, as if it came now: a broken file saved
 * twice, fixed the second time while the first was read, stayed broken.
 */
void
_graft_window_watch_read_file (GraftWindow *self)
{
  const char *read = _graft_document_get_read_etag (self->document);

  _graft_window_watch_file (self);
  /* Deleted meanwhile (no etag now) is a change too. */
  if (read == NULL || g_strcmp0 (read, self->file_etag) == 0)
    return;
  g_free (self->file_etag);
  self->file_etag = g_strdup (read);
  check_file (self);
}

/**
 * _graft_window_unwatch_file:
 * @self: a window
 *
 * Stops watching (the window goes).
 */
void
_graft_window_unwatch_file (GraftWindow *self)
{
  stop_monitor_start (self);
  cancel_reread (self);
  if (self->file_monitor != NULL)
    g_file_monitor_cancel (self->file_monitor);
  g_clear_object (&self->file_monitor);
  g_clear_object (&self->watched);
  g_clear_pointer (&self->file_etag, g_free);
}

static void
reload_cb (GSimpleAction *action,
           GVariant      *param,
           gpointer       user_data)
{
  GraftWindow *self = user_data;
  GFile       *file = graft_document_get_file (self->document);

  hide_bar (self);
  if (file != NULL)
    _graft_window_open_from (self, file);
}

static void
dismiss_cb (GSimpleAction *action,
            GVariant      *param,
            gpointer       user_data)
{
  hide_bar (user_data);
}

static const GActionEntry watch_entries[] = {
  { "reload-file", reload_cb },
  { "dismiss-file-bar", dismiss_cb },
};

/**
 * _graft_window_init_watch:
 * @self: a window
 *
 * Adds the bar under the header (after the warning bar) and its actions.
 */
void
_graft_window_init_watch (GraftWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-information-symbolic");
  GtkWidget *close = gtk_button_new_from_icon_name ("window-close-symbolic");
  GtkWidget *parent = gtk_widget_get_parent (GTK_WIDGET (self->warning_revealer));

  g_action_map_add_action_entries (G_ACTION_MAP (self), watch_entries,
                                   G_N_ELEMENTS (watch_entries), self);
  self->file_bar = gtk_revealer_new ();
  self->file_bar_label = gtk_label_new (NULL);
  self->file_bar_reload = gtk_button_new_with_mnemonic ("_Reload");
  gtk_widget_add_css_class (box, "warning-bar");
  gtk_widget_set_hexpand (self->file_bar_label, TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->file_bar_label), 0);
  gtk_label_set_wrap (GTK_LABEL (self->file_bar_label), TRUE);
  gtk_widget_set_valign (self->file_bar_reload, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->file_bar_reload), "win.reload-file");
  gtk_widget_add_css_class (self->file_bar_reload, "suggested-action");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (close), "win.dismiss-file-bar");
  gtk_widget_set_tooltip_text (close, "Dismiss");
  gtk_widget_add_css_class (close, "flat");
  gtk_widget_add_css_class (close, "circular");
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), self->file_bar_label);
  gtk_box_append (GTK_BOX (box), self->file_bar_reload);
  gtk_box_append (GTK_BOX (box), close);
  gtk_revealer_set_child (GTK_REVEALER (self->file_bar), box);
  gtk_box_insert_child_after (GTK_BOX (parent), self->file_bar,
                              GTK_WIDGET (self->warning_revealer));
}

/**
 * graft_window_get_file_notice:
 * @self: a window
 *
 * Returns: (nullable): what the bar about the file on disk says, or %NULL
 *   while it is hidden
 */
const char *
graft_window_get_file_notice (GraftWindow *self)
{
  g_return_val_if_fail (GRAFT_IS_WINDOW (self), NULL);
  return self->file_bar != NULL && gtk_revealer_get_reveal_child (GTK_REVEALER (self->file_bar))
             ? gtk_label_get_text (GTK_LABEL (self->file_bar_label))
             : NULL;
}
