/* sequin-screenshots.c: the screenshots in screenshots/, taken from the real
 * application (run by screenshots/take-screenshots.sh under Xvfb)
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: sequin-screenshots OUTPUT-FOLDER FILE [ANIM]
 * Opens FILE as `sequin FILE` does, drives the window through its actions
 * and captures the X screen with ImageMagick's `import`. ANIM, a Second
 * Life .anim, is shown in the properties and validation panels.
 */
#include "config.h"

#include <gtk/gtk.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

#include "sequin-test-ui.h"
#include "sequin-window-private.h"

static void
shot (const char *folder,
      const char *name,
      GtkWindow  *window)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *crop = NULL;
  GdkSurface *surface;
  const char *argv[] = { "import", "-window", "root", "-crop", NULL, "+repage", path, NULL };
  int status = 0;

  sequin_test_settle (800);
  surface = gtk_native_get_surface (GTK_NATIVE (window));
  crop = g_strdup_printf ("%dx%d+0+0", gdk_surface_get_width (surface), gdk_surface_get_height (surface));
  argv[4] = crop;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    g_error ("import failed: %s", error->message);
  g_print ("wrote %s\n", path);
}

/* Without a window manager a dialog opens in the corner: put it where a
 * window manager would, over the middle of its parent. */
static void
center_over (GtkWindow *dialog,
             GtkWindow *parent)
{
#ifdef GDK_WINDOWING_X11
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (dialog));
  GdkSurface *parent_surface = gtk_native_get_surface (GTK_NATIVE (parent));

  if (GDK_IS_X11_SURFACE (surface))
    {
      Display *display = gdk_x11_display_get_xdisplay (gdk_surface_get_display (surface));
      int x = (gdk_surface_get_width (parent_surface) - gdk_surface_get_width (surface)) / 2;
      int y = (gdk_surface_get_height (parent_surface) - gdk_surface_get_height (surface)) / 3;

      XMoveWindow (display, gdk_x11_surface_get_xid (surface), MAX (x, 0), MAX (y, 0));
      XFlush (display);
    }
#endif
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GFile) file = NULL;
  SequinWindow *window;
  const char *folder;

  gtk_init ();
  if (argc != 3 && argc != 4)
    {
      g_printerr ("Usage: sequin-screenshots OUTPUT-FOLDER FILE [ANIM]\n");
      return 2;
    }
  folder = argv[1];
  file = g_file_new_for_commandline_arg (argv[2]);

  /* what `sequin FILE` does, in a window of the size issue 17 asks the work
   * area to use well */
  window = sequin_test_open_sized (file);

  /* the main window: a joint expanded, one of its keys selected (the timeline follows) */
  /* (the root: its keys, then its child joints in the hierarchy) */
  sequin_joint_tree_expand_joint (window->joint_tree, 0, TRUE);
  sequin_joint_tree_select_key (window->joint_tree, 0, SQ_CHANNEL_ROTATION, 4);
  shot (folder, "main-window.png", GTK_WINDOW (window));

  /* an edit dialog, with a name typed in */
  sequin_joint_tree_select_joint (window->joint_tree, 2);
  sequin_test_settle (100);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.rename-joint", NULL);
  SEQUIN_TEST_WAIT_UNTIL (window->edit_dialog != NULL && gtk_widget_get_mapped (GTK_WIDGET (window->edit_dialog)));
  sequin_edit_dialog_set_text (window->edit_dialog, 0, "nape");
  sequin_test_settle (300);
  center_over (GTK_WINDOW (window->edit_dialog), GTK_WINDOW (window));
  shot (folder, "edit-dialog.png", GTK_WINDOW (window));
  gtk_window_destroy (GTK_WINDOW (window->edit_dialog));

  /* the structure view */
  gtk_stack_set_visible_child_name (window->view_stack, "structure");
  shot (folder, "structure-view.png", GTK_WINDOW (window));

  window->force_close = TRUE;
  gtk_window_destroy (GTK_WINDOW (window));
  sequin_test_settle (100);

  if (argc == 4)
    {
      g_autoptr(GFile) anim = g_file_new_for_commandline_arg (argv[3]);
      GPtrArray *findings;

      g_application_open (G_APPLICATION (sequin_test_application ()), &anim, 1, "");
      SEQUIN_TEST_WAIT_UNTIL ((window = sequin_test_app_window ()) != NULL && sequin_window_get_document (window) != NULL);

      /* the properties of a .anim, one joint selected for its priority */
      g_object_set (window, "sidebar-visible", TRUE, NULL);
      sequin_joint_tree_select_joint (window->joint_tree, 1);
      gtk_stack_set_visible_child_name (window->sidebar_stack, "properties");
      shot (folder, "properties-panel.png", GTK_WINDOW (window));

      /* the motion preview, halfway through, the selected joint highlighted */
      gtk_stack_set_visible_child_name (window->view_stack, "preview");
      sequin_timeline_set_time (SEQUIN_TIMELINE (window->timeline),
                                sequin_document_get_clip (sequin_window_get_document (window))->duration / 2);
      shot (folder, "preview.png", GTK_WINDOW (window));
      gtk_stack_set_visible_child_name (window->view_stack, "tree");

      /* its validation for Second Life, a finding activated */
      gtk_stack_set_visible_child_name (window->sidebar_stack, "validation");
      SEQUIN_TEST_WAIT_UNTIL (sequin_validation_panel_is_current (window->validation_panel));
      findings = sequin_validation_panel_get_findings (window->validation_panel);
      for (guint i = 0; findings != NULL && i < findings->len; i++)
        if (((SqFinding *) findings->pdata[i])->joint >= 0)
          {
            sequin_validation_panel_activate (window->validation_panel, i);
            break;
          }
      shot (folder, "validation-panel.png", GTK_WINDOW (window));

      window->force_close = TRUE;
      gtk_window_destroy (GTK_WINDOW (window));
      sequin_test_settle (100);
    }
  return 0;
}
