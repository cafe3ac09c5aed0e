/* sequin-application.c: the editor application
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One window per document. Files given on the command line or by a file
 * manager open in the active window when it is empty, else in new windows.
 */
#define G_LOG_DOMAIN "sequin-application"

#include "config.h"

#include <glib/gi18n.h>

#include "sequin-application.h"
#include "sequin-window.h"

struct _SequinApplication
{
  GtkApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (SequinApplication, sequin_application, GTK_TYPE_APPLICATION)

static SequinWindow *
new_window (SequinApplication *self)
{
  SequinWindow *window = sequin_window_new (self);

  gtk_window_present (GTK_WINDOW (window));
  return window;
}

static void
sequin_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (new_window (SEQUIN_APPLICATION (app)));
  gtk_window_present (window);
}

static void
sequin_application_open (GApplication  *app,
                         GFile        **files,
                         int            n_files,
                         const char    *hint)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL || !SEQUIN_IS_WINDOW (window))
    window = GTK_WINDOW (sequin_window_new_for_files (SEQUIN_APPLICATION (app), files, n_files));
  else
    for (int i = 0; i < n_files; i++)
      sequin_window_open_file (SEQUIN_WINDOW (window), files[i], FALSE);
  gtk_window_present (window);
}

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  GtkApplication *app = user_data;
  g_autoptr(GList) windows = g_list_copy (gtk_application_get_windows (app));

  /* each window asks about its own unsaved changes; the last one to go ends the program */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
}

static void
new_window_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  new_window (SEQUIN_APPLICATION (user_data));
}

static void
about_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  GtkApplication *app = user_data;
  static const char *authors[] = { "The Sequin authors", NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (app),
                         "program-name", _("Sequin"),
                         "logo-icon-name", APP_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("Edit avatar keyframe animations"),
                         "copyright", "© 2026 The Sequin authors",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", authors,
                         /* TRANSLATORS: your name(s), shown in the About window */
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static const GActionEntry app_actions[] = {
  { .name = "quit", .activate = quit_action },
  { .name = "new-window", .activate = new_window_action },
  { .name = "about", .activate = about_action },
};

/* Every accelerator, once, next to the action it runs */
static const struct {
  const char *action;
  const char *accels[3];
} accels[] = {
  { "app.quit", { "<Control>q", NULL } },
  { "app.new-window", { "<Control>n", NULL } },
  { "win.open", { "<Control>o", NULL } },
  { "win.save", { "<Control>s", NULL } },
  { "win.save-as('')", { "<Control><Shift>s", NULL } },
  { "win.close", { "<Control>w", NULL } },
  { "win.undo", { "<Control>z", NULL } },
  { "win.redo", { "<Control><Shift>z", "<Control>y", NULL } },
  { "win.rename-joint", { "F2", NULL } },
  { "win.delete", { "Delete", NULL } },
  { "win.show-view('tree')", { "<Alt>1", NULL } },
  { "win.show-view('structure')", { "<Alt>2", NULL } },
  { "win.show-view('preview')", { "<Alt>3", NULL } },
  { "win.play", { "<Control>space", NULL } },
  { "win.show-sidebar", { "F9", NULL } },
  { "win.show-help-overlay", { "<Control>question", NULL } },
  { "win.edit-menu", { "<Alt>e", NULL } },
};

static void
sequin_application_startup (GApplication *app)
{
  g_autoptr(GtkCssProvider) css = NULL;

  G_APPLICATION_CLASS (sequin_application_parent_class)->startup (app);

  /* the recent files list records who opened a file, and how to run it */
  if (g_get_prgname () == NULL)
    g_set_prgname ("sequin");
  if (g_get_application_name () == NULL)
    g_set_application_name (_("Sequin"));

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);

  css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/io/github/sequin/Sequin/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  gtk_window_set_default_icon_name (APP_ID);
}

static void
sequin_application_class_init (SequinApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->startup = sequin_application_startup;
  app_class->activate = sequin_application_activate;
  app_class->open = sequin_application_open;
}

static void
sequin_application_init (SequinApplication *self)
{
}

SequinApplication *
sequin_application_new (void)
{
  return g_object_new (SEQUIN_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/sequin/Sequin",
                       NULL);
}
