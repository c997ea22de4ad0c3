/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-application.c: the Graft Editor as a GApplication: one instance
 * per session (a second `graft-editor FILE` opens FILE in the running
 * one), a window per opened file, the app-wide actions (new window, open,
 * about, quit) and their accelerators, and the torch new windows speak:
 * GRAFT_TORCH when the editor starts with it set (as for `graft`), else
 * the `torch` key, the last choice made in a window's menu; after such a
 * choice, new windows take it.  Windows do the rest.
 */
#include "config.h"

#include "graft-application.h"
#include "graft-autosave.h"
#include "graft-window.h"

struct _GraftApplication
{
  AdwApplication parent_instance;

  const GraftDialect *dialect;  /* static: the torch new windows speak */
  GSettings          *settings; /* Owned: NULL when the schema is not installed */
};

G_DEFINE_FINAL_TYPE (GraftApplication, graft_application, ADW_TYPE_APPLICATION)

/**
 * graft_application_new:
 *
 * Returns: (transfer full): the application
 */
GraftApplication *
graft_application_new (void)
{
  return g_object_new (GRAFT_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", RESOURCE_PATH,
                       NULL);
}

/**
 * graft_application_get_dialect:
 * @self: the application
 *
 * Returns: (transfer none): the torch a new window speaks
 */
const GraftDialect *
graft_application_get_dialect (GraftApplication *self)
{
  g_return_val_if_fail (GRAFT_IS_APPLICATION (self), graft_dialect_get_default ());
  return self->dialect;
}

/* A window's menu chose a torch: new windows take it. */
static void
torch_changed_cb (GSettings        *settings,
                  const char       *key,
                  GraftApplication *self)
{
  g_autofree char    *name = g_settings_get_string (settings, key);
  const GraftDialect *dialect = graft_dialect_from_name (name);

  if (dialect != NULL)
    self->dialect = dialect;
}

/* GRAFT_TORCH wins at start-up, then the remembered choice. */
static void
choose_dialect (GraftApplication *self)
{
  GSettingsSchemaSource *schemas = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;
  const char *env = g_getenv ("GRAFT_TORCH");

  self->dialect = graft_dialect_get_default ();
  schema = schemas != NULL ? g_settings_schema_source_lookup (schemas, APPLICATION_ID, TRUE) : NULL;
  if (schema != NULL)
    {
      self->settings = g_settings_new (APPLICATION_ID);
      torch_changed_cb (self->settings, "torch", self);
      g_signal_connect (self->settings, "changed::torch", G_CALLBACK (torch_changed_cb), self);
    }
  if (env != NULL && *env != '\0')
    {
      const GraftDialect *dialect = graft_dialect_from_environment ();

      if (dialect != NULL)
        self->dialect = dialect;
      else
        g_printerr ("graft-editor: GRAFT_TORCH: unknown torch '%s' (%s)\n", env,
                    graft_dialect_list_names ());
    }
}

/* The active window if it shows nothing yet, else a new one. */
static GraftWindow *
window_for_file (GraftApplication *self)
{
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (GRAFT_IS_WINDOW (active) && graft_window_is_empty (GRAFT_WINDOW (active)))
    return GRAFT_WINDOW (active);
  return graft_window_new (self);
}

static void
graft_application_activate (GApplication *app)
{
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (active == NULL)
    active = GTK_WINDOW (graft_window_new (GRAFT_APPLICATION (app)));
  gtk_window_present (active);
}

static void
graft_application_open (GApplication *app,
                        GFile       **files,
                        int           n_files,
                        const char   *hint)
{
  for (int i = 0; i < n_files; i++)
    {
      GraftWindow *window = window_for_file (GRAFT_APPLICATION (app));

      graft_window_open_file (window, files[i]);
      gtk_window_present (GTK_WINDOW (window));
    }
}

static void
new_window_cb (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  gtk_window_present (GTK_WINDOW (graft_window_new (user_data)));
}

static void
quit_cb (GSimpleAction *action,
         GVariant      *param,
         gpointer       user_data)
{
  g_autoptr (GList) windows =
      g_list_copy (gtk_application_get_windows (GTK_APPLICATION (user_data)));

  /* Each window asks about its own unsaved changes. */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
}

static void
about_cb (GSimpleAction *action,
          GVariant      *param,
          gpointer       user_data)
{
  static const char *developers[] = { "The Graft developers", NULL };
  GtkWindow         *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  GtkWidget         *about = adw_about_window_new ();

  g_object_set (about,
                "transient-for", parent,
                "application-name", "Graft",
                "application-icon", APPLICATION_ID,
                "version", PACKAGE_VERSION,
                "comments", "See and rewrite dataflow graphs the way torch.fx does",
                "developers", developers,
                "license-type", GTK_LICENSE_GPL_3_0,
                NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
graft_application_startup (GApplication *app)
{
  static const GActionEntry entries[] = {
    { "new-window", new_window_cb },
    { "quit", quit_cb },
    { "about", about_cb },
  };
  static const struct
  {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.new-window", { "<Control>n", NULL } },
    { "app.quit", { "<Control>q", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.save", { "<Control>s", NULL } },
    { "win.save-as", { "<Control><Shift>s", NULL } },
    { "win.export", { "<Control>e", NULL } },
    { "win.find", { "<Control>f", NULL } },
    { "win.show-changes", { "<Control>d", NULL } },
    { "win.compare", { "<Control><Shift>d", NULL } },
    { "win.collapse-all", { "<Control>m", NULL } },
    { "win.expand-all", { "<Control><Shift>m", NULL } },
    { "win.expand-level", { "<Control><Alt>m", NULL } },
    { "win.show-overview", { "<Control><Alt>o", NULL } },
    { "win.undo", { "<Control>z", NULL } },
    { "win.redo", { "<Control><Shift>z", "<Control>y", NULL } },
    { "win.replace-all", { "<Control>r", NULL } },
    { "win.replace-selected", { "<Control><Shift>r", NULL } },
    { "win.next-match", { "<Control>g", "F8", NULL } },
    { "win.previous-match", { "<Control><Shift>g", "<Shift>F8", NULL } },
    { "window.close", { "<Control>w", NULL } },
    { "win.show-help-overlay", { "<Control>question", "F1", NULL } },
    { "win.show-properties", { "F9", "<Control>i", NULL } },
    { "win.show-side-panel", { "<Shift>F9", NULL } },
    { "win.show-rules", { "<Control>l", NULL } },
    { "win.show-page::pattern", { "<Alt>1", NULL } },
    { "win.show-page::replacement", { "<Alt>2", NULL } },
    { "win.show-page::rules", { "<Alt>3", NULL } },
    { "win.show-page::code", { "<Alt>4", NULL } },
    { "win.rule-add", { "<Control><Shift>n", NULL } },
    { "win.rules-open", { "<Control><Shift>o", NULL } },
    { "win.rules-save", { "<Control><Alt>s", NULL } },
    { "win.export-pass", { "<Control><Shift>e", NULL } },
    { "win.run-all", { "F5", NULL } },
    { "win.step", { "<Shift>F5", NULL } },
    { "win.focus-next-pane", { "F6", NULL } },
    { "win.focus-previous-pane", { "<Shift>F6", NULL } },
    { "win.move-split", { "<Control>F8", NULL } },
    { "win.step-match", { "F7", NULL } },
    { "win.skip-match", { "<Shift>F7", NULL } },
  };

  G_APPLICATION_CLASS (graft_application_parent_class)->startup (app);
  graft_gv_enable_dot_reader ();
  choose_dialect (GRAFT_APPLICATION (app));
  g_action_map_add_action_entries (G_ACTION_MAP (app), entries, G_N_ELEMENTS (entries), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action,
                                           accels[i].accels);
}

/* Autosaves still being written finish before the process ends. */
static void
graft_application_shutdown (GApplication *app)
{
  graft_autosave_flush ();
  G_APPLICATION_CLASS (graft_application_parent_class)->shutdown (app);
}

static void
graft_application_finalize (GObject *object)
{
  GraftApplication *self = GRAFT_APPLICATION (object);

  g_clear_object (&self->settings);
  G_OBJECT_CLASS (graft_application_parent_class)->finalize (object);
}

static void
graft_application_class_init (GraftApplicationClass *klass)
{
  GObjectClass      *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = graft_application_finalize;
  app_class->activate = graft_application_activate;
  app_class->open = graft_application_open;
  app_class->startup = graft_application_startup;
  app_class->shutdown = graft_application_shutdown;
}

static void
graft_application_init (GraftApplication *self)
{
  self->dialect = graft_dialect_get_default ();
  g_type_ensure (GRAFT_TYPE_WINDOW);
}
