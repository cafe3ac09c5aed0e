/* sequin-keys-screenshot.c: the timeline with keys selected and a rubber
 * band being dragged (run by screenshots/take-keys-screenshot.sh under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: sequin-keys-screenshot OUTPUT-FOLDER FILE JOINT
 * FILE opened as `sequin FILE` does, the sidebar hidden, JOINT selected
 * in the tree; a rubber
 * band dragged over the keys of JOINT's lane and the next one from 20 % to
 * 55 % of the duration and released, then a second band (Shift: added)
 * held over the two lanes below from 60 % to 85 %; the window captured
 * with ImageMagick's `import` (timeline-keys.png).
 */
#include "config.h"

#include <gtk/gtk.h>

#include "sequin-test-ui.h"
#include "sequin-timeline-private.h"
#include "sequin-window-private.h"

static void
shot (const char *folder,
      const char *name)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "import", "-window", "root", path, NULL };
  int status = 0;

  sequin_test_settle (400);
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    g_error ("import failed: %s", error->message);
  g_print ("wrote %s\n", path);
}

/* a band from `from` to `to` (fractions of the duration) over the lanes
 * of joints j0 .. j1 */
static void
band (SequinTimeline  *tl,
      const SqClip    *clip,
      gsize            j0,
      gsize            j1,
      double           from,
      double           to,
      GdkModifierType  state)
{
  double x0 = _sequin_timeline_x_for_time (tl, clip->duration * from);
  double x1 = _sequin_timeline_x_for_time (tl, clip->duration * to);
  double y0 = _sequin_timeline_y_for_key (tl, j0, SQ_CHANNEL_ROTATION) - 9;
  double y1 = _sequin_timeline_y_for_key (tl, j1, SQ_CHANNEL_ROTATION) + 9;

  _sequin_timeline_drag_begin_full (tl, x0, y0, state);
  _sequin_timeline_drag_update (tl, (x1 - x0) / 2, (y1 - y0) / 2);
  _sequin_timeline_drag_update (tl, x1 - x0, y1 - y0);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GFile) file = NULL;
  SequinWindow *window;
  SequinTimeline *tl;
  const SqClip *clip;
  gssize j;

  gtk_init ();
  if (argc != 4)
    {
      g_printerr ("Usage: sequin-keys-screenshot OUTPUT-FOLDER FILE JOINT\n");
      return 2;
    }
  file = g_file_new_for_commandline_arg (argv[2]);
  g_application_open (G_APPLICATION (sequin_test_application ()), &file, 1, "");
  SEQUIN_TEST_WAIT_UNTIL ((window = sequin_test_app_window ()) != NULL && sequin_window_get_document (window) != NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1240, 780);
  clip = sequin_document_get_clip (sequin_window_get_document (window));
  tl = SEQUIN_TIMELINE (window->timeline);
  /* the timeline as wide as the window allows */
  gtk_widget_set_visible (window->sidebar, FALSE);
  if ((j = sq_clip_find_joint (clip, argv[3])) < 0 || (gsize) j + 3 >= clip->n_joints)
    g_error ("%s has no joint %s with three after it", argv[2], argv[3]);
  sequin_joint_tree_select_joint (window->joint_tree, j);
  sequin_test_settle (300);
  /* the tree short, the timeline tall */
  gtk_paned_set_position (window->content_paned, 150);
  sequin_test_settle (200);
  sequin_timeline_zoom_to_fit (tl);
  sequin_timeline_select_joint (tl, j);
  sequin_test_settle (200);
  band (tl, clip, (gsize) j, (gsize) j + 1, 0.2, 0.55, 0);
  _sequin_timeline_drag_end (tl, 0, 0);
  band (tl, clip, (gsize) j + 2, (gsize) j + 3, 0.6, 0.85, GDK_SHIFT_MASK);
  sequin_timeline_set_time (tl, clip->duration / 3);
  gtk_widget_grab_focus (GTK_WIDGET (tl));
  shot (argv[1], "timeline-keys.png");

  window->force_close = TRUE;
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
