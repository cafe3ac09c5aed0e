/* sequin-compare-screenshot.c: screenshots/compare.png, taken from the real
 * application (run by screenshots/take-compare-screenshot.sh under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: sequin-compare-screenshot OUTPUT.png FILE
 * Opens FILE as `sequin FILE` does, writes a mirrored copy of it beside it
 * (through the core's mirror edit, saved in FILE's format), compares the
 * window's animation with that copy as Compare With… does, selects the
 * joint most apart at the time of its largest difference, shows the
 * preview with the ghost and the difference lane, and captures the X
 * screen with ImageMagick's `import`.
 */
#include "config.h"

#include <gtk/gtk.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

#include "sequin-compare-window.h"
#include "sequin-test-ui.h"
#include "sequin-window-private.h"

/* Without a window manager a window opens in the corner: put the
 * comparison over the right of the main window, clear of the preview */
static void
move_to (GtkWindow *window,
         int        x,
         int        y)
{
#ifdef GDK_WINDOWING_X11
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));

  if (GDK_IS_X11_SURFACE (surface))
    {
      Display *display = gdk_x11_display_get_xdisplay (gdk_surface_get_display (surface));

      XMoveWindow (display, gdk_x11_surface_get_xid (surface), x, y);
      XFlush (display);
    }
#endif
}

/* the mirrored copy of `clip`, written beside `path`: its file */
static GFile *
mirrored_copy (const SqClip *clip,
               const char   *path,
               char        **name)
{
  g_autoptr(SqClip) copy = sq_clip_copy (clip);
  g_autoptr(SqEdit) mirror = sq_edit_mirror_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *folder = g_path_get_dirname (path);
  g_autofree char *out = NULL;
  const char *dot = strrchr (base, '.');

  *name = g_strdup_printf ("%.*s-mirrored%s", dot != NULL ? (int) (dot - base) : (int) strlen (base), base,
                           dot != NULL ? dot : "");
  out = g_build_filename (folder, *name, NULL);
  if (!sq_edit_apply (mirror, copy, &error)
      || (bytes = sq_save_bytes (copy, clip->format, NULL, NULL, &error)) == NULL
      || !g_file_set_contents (out, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error))
    g_error ("could not write %s: %s", out, error->message);
  return g_file_new_for_path (out);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) other = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *crop = NULL;
  SequinCompareWindow *compare;
  SequinWindow *window;
  GdkSurface *surface;
  const char *import[] = { "import", "-window", "root", "-crop", NULL, "+repage", NULL, NULL };
  int status = 0;

  gtk_init ();
  if (argc != 3)
    {
      g_printerr ("Usage: sequin-compare-screenshot OUTPUT.png FILE\n");
      return 2;
    }
  file = g_file_new_for_commandline_arg (argv[2]);
  window = sequin_test_open_sized (file);

  other = mirrored_copy (sequin_test_window_clip (window), argv[2], &name);
  gtk_stack_set_visible_child_name (window->view_stack, "preview");
  /* as Compare With… does once the file is chosen */
  sequin_compare_window_open_file (window, other);
  SEQUIN_TEST_WAIT_UNTIL (window->compare != NULL && sequin_compare_window_is_current (window->compare));
  compare = window->compare;
  if (sequin_compare_window_get_n_rows (compare) == 0)
    g_error ("could not compare: %s", sequin_compare_window_get_summary (compare));
  gtk_window_present (GTK_WINDOW (compare));
  sequin_test_settle (300);
  /* the joint most apart, at the time of its largest difference */
  sequin_compare_window_activate_row (compare, 0);
  sequin_test_settle (300);
  /* at the screen's right edge, whatever its width */
  move_to (GTK_WINDOW (compare), 1400 - gtk_widget_get_width (GTK_WIDGET (compare)) - 8, 160);
#ifdef GDK_WINDOWING_X11
  /* the pointer out of the way: no tooltip in the picture */
  if (GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    {
      Display *display = gdk_x11_display_get_xdisplay (gdk_display_get_default ());

      XWarpPointer (display, None, DefaultRootWindow (display), 0, 0, 0, 0, 1399, 899);
      XFlush (display);
    }
#endif

  sequin_test_settle (800);
  surface = gtk_native_get_surface (GTK_NATIVE (window));
  crop = g_strdup_printf ("%dx%d+0+0", gdk_surface_get_width (surface), gdk_surface_get_height (surface));
  import[4] = crop;
  import[6] = argv[1];
  if (!g_spawn_sync (NULL, (char **) import, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    g_error ("import failed: %s", error->message);
  g_print ("wrote %s\n", argv[1]);

  gtk_window_destroy (GTK_WINDOW (compare));
  window->force_close = TRUE;
  gtk_window_destroy (GTK_WINDOW (window));
  sequin_test_settle (100);
  return 0;
}
