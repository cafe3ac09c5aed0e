/* sequin-posing-screenshots.c: screenshots of posing (run by
 * screenshots/take-posing-screenshots.sh under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: sequin-posing-screenshots OUTPUT-FOLDER FILE JOINT FRACTION
 * FILE opened as `sequin FILE` does, the preview shown with JOINT selected
 * at FRACTION of the duration and the Pose group of the Properties page
 * (posing.png); the rotation gizmo on it in the middle of a drag about
 * the world's Z (gizmo.png) and the move gizmo on the pelvis
 * (gizmo-move.png); then the New Animation dialog (new-animation.png) and the
 * Pose Library (pose-library.png), each captured with ImageMagick's
 * `import`.
 */
#include "config.h"

#include <gtk/gtk.h>

#include "sequin-test-ui.h"
#include "sequin-window-private.h"

static void
shot (const char *folder,
      const char *name,
      GtkWidget  *widget)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "import", "-window", "root", NULL, NULL, NULL, NULL };
  g_autofree char *crop = NULL;
  int status = 0;

  sequin_test_settle (400);
  if (widget != NULL)
    crop = g_strdup_printf ("%dx%d+0+0", gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  argv[3] = crop != NULL ? "-crop" : path;
  argv[4] = crop != NULL ? crop : NULL;
  if (crop != NULL)
    argv[5] = path;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    g_error ("import failed: %s", error->message);
  g_print ("wrote %s\n", path);
}

static GtkWindow *
find_toplevel (const char *title)
{
  GListModel *tops = gtk_window_get_toplevels ();   /* not owned */

  for (guint i = 0; i < g_list_model_get_n_items (tops); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (tops, i);
      if (g_strcmp0 (gtk_window_get_title (w), title) == 0)
        return w;
    }
  return NULL;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GFile) file = NULL;
  SequinWindow *window;
  const SqClip *clip;
  GtkWindow *dialog;
  gssize j;

  gtk_init ();
  if (argc != 5)
    {
      g_printerr ("Usage: sequin-posing-screenshots OUTPUT-FOLDER FILE JOINT FRACTION\n");
      return 2;
    }
  file = g_file_new_for_commandline_arg (argv[2]);
  g_application_open (G_APPLICATION (sequin_test_application ()), &file, 1, "");
  SEQUIN_TEST_WAIT_UNTIL ((window = sequin_test_app_window ()) != NULL && sequin_window_get_document (window) != NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1240, 780);
  clip = sequin_document_get_clip (sequin_window_get_document (window));
  gtk_stack_set_visible_child_name (window->view_stack, "preview");
  gtk_widget_set_has_tooltip (GTK_WIDGET (window->preview), FALSE);
  gtk_widget_set_visible (window->sidebar, TRUE);
  gtk_stack_set_visible_child_name (window->sidebar_stack, "properties");
  if ((j = sq_clip_find_joint (clip, argv[3])) < 0)
    g_error ("%s has no joint %s", argv[2], argv[3]);
  sequin_joint_tree_select_joint (window->joint_tree, j);
  sequin_timeline_set_time (SEQUIN_TIMELINE (window->timeline), clip->duration * g_ascii_strtod (argv[4], NULL));
  shot (argv[1], "posing.png", NULL);

  /* a turn about Z under way: pressed on the ring, a quarter of it along */
  {
    double x0, y0, x, y;

    /* a taller preview over the timeline */
    gtk_paned_set_position (window->content_paned, 560);
    sequin_test_settle (100);
    if (!sequin_preview_gizmo_point (window->preview, 2, 0.1, &x0, &y0)
        || !sequin_preview_gizmo_point (window->preview, 2, 0.2, &x, &y)
        || sequin_preview_gizmo_press (window->preview, x0, y0) != 2)
      g_error ("no gizmo on %s", argv[3]);
    sequin_preview_gizmo_motion (window->preview, x0, y0, x, y, TRUE);
    shot (argv[1], "gizmo.png", NULL);
    sequin_preview_gizmo_cancel (window->preview);
  }
  if ((j = sq_clip_find_joint (clip, "mPelvis")) >= 0)
    {
      sequin_joint_tree_select_joint (window->joint_tree, j);
      sequin_preview_set_gizmo_mode (window->preview, SEQUIN_GIZMO_MOVE);
      sequin_preview_set_gizmo_axis (window->preview, 0);
      shot (argv[1], "gizmo-move.png", NULL);
      sequin_preview_set_gizmo_mode (window->preview, SEQUIN_GIZMO_ROTATE);
      sequin_preview_set_gizmo_axis (window->preview, -1);
    }

  gtk_widget_activate_action (GTK_WIDGET (window), "win.pose-library", NULL);
  SEQUIN_TEST_WAIT_UNTIL ((dialog = find_toplevel ("Pose Library")) != NULL);
  shot (argv[1], "pose-library.png", GTK_WIDGET (dialog));
  gtk_window_destroy (dialog);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.new-animation", NULL);
  SEQUIN_TEST_WAIT_UNTIL ((dialog = find_toplevel ("New Animation")) != NULL);
  shot (argv[1], "new-animation.png", GTK_WIDGET (dialog));
  gtk_window_destroy (dialog);

  window->force_close = TRUE;
  gtk_window_destroy (GTK_WINDOW (window));
  sequin_test_settle (100);
  return 0;
}
