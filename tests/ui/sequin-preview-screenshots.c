/* sequin-preview-screenshots.c: screenshots of the motion preview, one per
 * file (run by screenshots/take-preview-screenshots.sh under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: sequin-preview-screenshots OUTPUT-FOLDER SHOT…
 * where each SHOT is PNG=FILE@FRACTION[:JOINT][+onion][+trail][+window]:
 * FILE opened as `sequin FILE` does, the playhead at FRACTION of its
 * duration, JOINT selected, the onion skins and the trail on as asked; the
 * preview alone is captured (the whole window with +window) with
 * ImageMagick's `import`.
 */
#include "config.h"

#include <gtk/gtk.h>

#include "sequin-test-ui.h"
#include "sequin-window-private.h"

/* the X screen, or the part of it under `widget` (no window manager: the
 * window's surface is at the screen's origin) */
static void
shot (const char *path,
      GtkWidget  *widget)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  int status = 0;

  sequin_test_settle (800);
  g_ptr_array_add (argv, g_strdup ("import"));
  g_ptr_array_add (argv, g_strdup ("-window"));
  g_ptr_array_add (argv, g_strdup ("root"));
  if (widget != NULL)
    {
      GtkNative *native = gtk_widget_get_native (widget);
      graphene_rect_t r;
      double sx = 0, sy = 0;

      if (!gtk_widget_compute_bounds (widget, GTK_WIDGET (native), &r))
        g_error ("the preview has no place on the screen");
      gtk_native_get_surface_transform (native, &sx, &sy);
      g_ptr_array_add (argv, g_strdup ("-crop"));
      g_ptr_array_add (argv, g_strdup_printf ("%dx%d+%d+%d", (int) r.size.width, (int) r.size.height,
                                              (int) (r.origin.x + sx), (int) (r.origin.y + sy)));
    }
  g_ptr_array_add (argv, g_strdup (path));
  g_ptr_array_add (argv, NULL);
  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    g_error ("import failed: %s", error->message);
  g_print ("wrote %s\n", path);
}

static void
take (const char *folder,
      const char *spec)
{
  g_auto(GStrv) parts = g_strsplit (spec, "=", 2);
  g_autofree char *png = NULL, *file_name = NULL, *joint = NULL;
  g_autoptr(GFile) file = NULL;
  const char *at, *rest;
  double fraction;
  SequinWindow *window;
  const SqClip *clip;

  if (g_strv_length (parts) != 2 || (at = strrchr (parts[1], '@')) == NULL)
    g_error ("bad shot: %s (PNG=FILE@FRACTION[:JOINT][+onion][+trail][+window])", spec);
  png = g_build_filename (folder, parts[0], NULL);
  file_name = g_strndup (parts[1], at - parts[1]);
  fraction = g_ascii_strtod (at + 1, (char **) &rest);
  if (*rest == ':')
    {
      const char *end = strchr (rest, '+');
      joint = end != NULL ? g_strndup (rest + 1, end - rest - 1) : g_strdup (rest + 1);
    }

  file = g_file_new_for_commandline_arg (file_name);
  g_application_open (G_APPLICATION (sequin_test_application ()), &file, 1, "");
  SEQUIN_TEST_WAIT_UNTIL ((window = sequin_test_app_window ()) != NULL && sequin_window_get_document (window) != NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 720);
  clip = sequin_document_get_clip (sequin_window_get_document (window));

  gtk_stack_set_visible_child_name (window->view_stack, "preview");
  /* the pointer rests over the preview: no tooltip in the picture */
  gtk_widget_set_has_tooltip (GTK_WIDGET (window->preview), FALSE);
  if (joint != NULL)
    {
      gssize j = sq_clip_find_joint (clip, joint);
      if (j < 0)
        g_error ("%s has no joint %s", file_name, joint);
      sequin_joint_tree_select_joint (window->joint_tree, j);
    }
  g_object_set (window->preview, "onion-skins", strstr (rest, "+onion") != NULL,
                "motion-trail", strstr (rest, "+trail") != NULL, NULL);
  sequin_timeline_set_time (SEQUIN_TIMELINE (window->timeline), clip->duration * fraction);
  shot (png, strstr (rest, "+window") != NULL ? NULL : GTK_WIDGET (window->preview));

  window->force_close = TRUE;
  gtk_window_destroy (GTK_WINDOW (window));
  sequin_test_settle (100);
}

int
main (int   argc,
      char *argv[])
{
  gtk_init ();
  if (argc < 3)
    {
      g_printerr ("Usage: sequin-preview-screenshots OUTPUT-FOLDER PNG=FILE@FRACTION[:JOINT][+onion][+trail][+window]…\n");
      return 2;
    }
  for (int i = 2; i < argc; i++)
    take (argv[1], argv[i]);
  return 0;
}
