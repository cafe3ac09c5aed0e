/* sequin-sl-screenshot.c: screenshots/play-over.png, taken from the real
 * application (run by screenshots/take-sl-screenshot.sh under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: sequin-sl-screenshot OUTPUT.png FILE
 * Opens FILE (a .anim pose) as `sequin FILE` does, writes beside it an AO
 * stand made by the core (arms down and head at priority 3), lowers the
 * pose's arms to priority 2 (the question users ask: why does my pose lose
 * to my AO), plays the stand under it with Play Over…, starts Export
 * Continuously To… into a file beside it, moves the playhead into the pose
 * and captures the X screen with ImageMagick's `import`.
 */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

#include "sequin-live-export.h"
#include "sequin-play-over.h"
#include "sequin-test-ui.h"
#include "sequin-window-private.h"

/* Without a window manager a window opens in the corner: put the dialog
 * over the sidebar's empty lower part, and the pointer out of the way */
static void
place (GtkWindow *dialog)
{
#ifdef GDK_WINDOWING_X11
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (dialog));

  if (GDK_IS_X11_SURFACE (surface))
    {
      Display *display = gdk_x11_display_get_xdisplay (gdk_surface_get_display (surface));

      XMoveWindow (display, gdk_x11_surface_get_xid (surface), 1400 - gtk_widget_get_width (GTK_WIDGET (dialog)) - 8,
                   560);
      XWarpPointer (display, None, DefaultRootWindow (display), 0, 0, 0, 0, 1399, 899);
      XFlush (display);
    }
#endif
}

static GFile *
write_stand (const char *folder)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  const struct { const char *joint; double x, z; } joints[] = {
    { "mHead", 0, 0 }, { "mShoulderLeft", 75, 0 }, { "mShoulderRight", -75, 0 }, { "mElbowLeft", 0, 10 },
    { "mElbowRight", 0, -10 },
  };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (folder, "AO stand.anim", NULL);

  clip->duration = 2.0;
  for (guint i = 0; i < G_N_ELEMENTS (joints); i++)
    {
      SqJoint *joint = sq_clip_add_joint (clip, joints[i].joint);

      for (double t = 0; t <= 2.0; t += 2.0)
        {
          SqKey *k = sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], t);
          double a = joints[i].x * G_PI / 360, b = joints[i].z * G_PI / 360;

          k->v[0] = cos (a) * cos (b);
          k->v[1] = sin (a) * cos (b);
          k->v[3] = cos (a) * sin (b);
        }
    }
  sq_props_set (clip->extra, "priority", g_variant_new_int32 (3));
  sq_props_set (clip->extra, "loop", g_variant_new_int32 (1));
  sq_props_set (clip->extra, "loop-out", g_variant_new_double (2.0));
  bytes = sq_save_bytes (clip, sq_format_by_id ("sl-anim"), NULL, NULL, &error);
  if (bytes == NULL || !g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error))
    g_error ("could not write %s: %s", path, error->message);
  return g_file_new_for_path (path);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GFile) file = NULL, stand = NULL, live = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = NULL, *live_path = NULL, *crop = NULL;
  const char *arms[] = { "mShoulderLeft", "mShoulderRight", "mElbowLeft", "mElbowRight" };
  const char *import[] = { "import", "-window", "root", "-crop", NULL, "+repage", NULL, NULL };
  SequinWindow *window;
  GtkWidget *dialog;
  GdkSurface *surface;
  int status = 0;

  gtk_init ();
  if (argc != 3)
    {
      g_printerr ("Usage: sequin-sl-screenshot OUTPUT.png FILE\n");
      return 2;
    }
  file = g_file_new_for_commandline_arg (argv[2]);
  folder = g_path_get_dirname (argv[2]);
  window = sequin_test_open_sized (file);
  /* SEQUIN_SL_VALIDATION=1: the validation panel of FILE only */
  if (g_strcmp0 (g_getenv ("SEQUIN_SL_VALIDATION"), "1") == 0)
    {
      sequin_test_show_validation (window);
      sequin_test_settle (800);
      goto capture;
    }
  stand = write_stand (folder);
  for (guint i = 0; i < G_N_ELEMENTS (arms); i++)
    if (!sequin_document_apply (sequin_window_get_document (window), sq_edit_sl_joint_priority_new (arms[i], 2),
                                &error))
      g_error ("%s", error->message);
  gtk_stack_set_visible_child_name (window->view_stack, "preview");
  sequin_play_over_add_file_async (window, stand);
  SEQUIN_TEST_WAIT_UNTIL (sequin_play_over_get_n (window) == 1);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.motion", "s", "play-over");
  live_path = g_build_filename (folder, "Kneel 1 live.anim", NULL);
  live = g_file_new_for_path (live_path);
  if (!sequin_live_export_start (window, live, &error))
    g_error ("%s", error->message);
  sequin_playback_set_position (window->playback, 2.0);
  SEQUIN_TEST_WAIT_UNTIL (sequin_live_export_get_count (window) > 0);
  sequin_test_settle (800);
  dialog = sequin_play_over_get_dialog (window);
  gtk_window_set_default_size (GTK_WINDOW (dialog), 380, 300);
  sequin_test_settle (200);
  place (GTK_WINDOW (dialog));
  sequin_test_settle (600);
capture:
  surface = gtk_native_get_surface (GTK_NATIVE (window));
  crop = g_strdup_printf ("%dx%d+0+0", gdk_surface_get_width (surface), gdk_surface_get_height (surface));
  import[4] = crop;
  import[6] = argv[1];
  if (!g_spawn_sync (NULL, (char **) import, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    g_error ("import failed: %s", error->message);
  g_print ("wrote %s\n", argv[1]);
  window->force_close = TRUE;
  gtk_window_destroy (GTK_WINDOW (window));
  sequin_test_settle (100);
  return 0;
}
