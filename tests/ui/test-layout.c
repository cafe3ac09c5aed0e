/* test-layout.c: the work area gets the room; panes keep their sizes; the
 * keyboard moves through the window (issue 17)
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sequin-test-ui.h"
#include "sequin-window-private.h"

static char *
corpus_file (const char *name)
{
  char *path = sequin_test_corpus_file (name);

  if (path == NULL)
    g_error ("corpus file %s is missing (SEQUIN_CORPUS=%s)", name, g_getenv ("SEQUIN_CORPUS"));
  return path;
}

static GSettings *
settings (void)
{
  g_autoptr(GSettingsSchema) schema =
    g_settings_schema_source_lookup (g_settings_schema_source_get_default (), APP_ID, TRUE);

  /* the tests run with the schema compiled in the build */
  if (schema == NULL)
    g_error ("the GSettings schema %s is not compiled (GSETTINGS_SCHEMA_DIR=%s)", APP_ID,
             g_getenv ("GSETTINGS_SCHEMA_DIR"));
  return g_settings_new (APP_ID);
}

/* A window of `width` × `height` with `path` open, laid out */
static SequinWindow *
window_at (int         width,
           int         height,
           const char *path)
{
  g_autoptr(GSettings) s = settings ();
  SequinWindow *window;

  g_settings_set_int (s, "window-width", width);
  g_settings_set_int (s, "window-height", height);
  window = sequin_test_window_new ();
  sequin_test_window_open (window, path);
  SEQUIN_TEST_WAIT_UNTIL (window->laid_out);
  sequin_test_flush ();
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  return window;
}

static GtkScrolledWindow *
tree_scroller (SequinWindow *window)
{
  GtkWidget *scroller = gtk_widget_get_first_child (GTK_WIDGET (window->joint_tree));

  g_assert_true (GTK_IS_SCROLLED_WINDOW (scroller));
  return GTK_SCROLLED_WINDOW (scroller);
}

/* ---- The work area gets the width ------------------------------------------ */

static void
test_work_area_width (void)
{
  g_autofree char *path = corpus_file ("seq-binary/walk.seq");
  g_autoptr(GSettings) s = settings ();
  SequinWindow *window;
  GtkAdjustment *h;
  int tree_1100, sidebar_1100;

  g_settings_reset (s, "sidebar-width");
  g_settings_reset (s, "header-width");

  window = window_at (1100, 720, path);
  tree_1100 = gtk_widget_get_width (GTK_WIDGET (window->joint_tree));
  sidebar_1100 = gtk_widget_get_width (window->sidebar);
  sequin_test_window_destroy (window);

  /* 300 pixels more: all of them to the tree and the timeline */
  window = window_at (1400, 900, path);
  g_test_message ("tree %d → %d, sidebar %d → %d", tree_1100, gtk_widget_get_width (GTK_WIDGET (window->joint_tree)),
                  sidebar_1100, gtk_widget_get_width (window->sidebar));
  g_assert_cmpint (abs (gtk_widget_get_width (window->sidebar) - sidebar_1100), <=, 2);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window->joint_tree)), >=, tree_1100 + 295);
  g_assert_cmpint (gtk_widget_get_width (window->timeline), >=, gtk_widget_get_width (GTK_WIDGET (window->joint_tree)) - 2);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window->joint_tree)), >,
                   2 * gtk_widget_get_width (window->sidebar));

  /* every column of the tree is in view, with a root's translations shown */
  g_assert_true (sequin_joint_tree_expand_joint (window->joint_tree, 0, TRUE));
  sequin_test_flush ();
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  h = gtk_scrolled_window_get_hadjustment (tree_scroller (window));
  g_test_message ("tree content %g in %g", gtk_adjustment_get_upper (h), gtk_adjustment_get_page_size (h));
  g_assert_cmpfloat (gtk_adjustment_get_upper (h), <=, gtk_adjustment_get_page_size (h) + 0.5);
  sequin_test_window_destroy (window);
}

/* ---- The panes keep the sizes they were given ------------------------------ */

static void
test_panes_remembered (void)
{
  g_autofree char *path = corpus_file ("seq-binary/walk.seq");
  g_autoptr(GSettings) s = settings ();
  SequinWindow *window = window_at (1400, 900, path);
  int sidebar, header, timeline;

  /* the user drags the handles: a wider sidebar, a wider header, a
   * taller timeline */
  gtk_paned_set_position (window->sidebar_paned, gtk_paned_get_position (window->sidebar_paned) - 120);
  gtk_paned_set_position (window->header_paned, 240);
  gtk_paned_set_position (window->content_paned, gtk_paned_get_position (window->content_paned) - 100);
  sequin_test_flush ();
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  sidebar = gtk_widget_get_width (window->sidebar);
  header = gtk_paned_get_position (window->header_paned);
  timeline = gtk_widget_get_height (GTK_WIDGET (window->timeline_box));
  g_assert_cmpint (sidebar, >=, 390);
  g_assert_cmpint (header, ==, 240);

  /* closing remembers them; the next window has them */
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  window->force_close = TRUE;
  gtk_window_close (GTK_WINDOW (window));
  sequin_test_flush ();
  g_assert_null (window);
  g_assert_cmpint (g_settings_get_int (s, "sidebar-width"), ==, sidebar);
  g_assert_cmpint (g_settings_get_int (s, "header-width"), ==, 240);

  window = window_at (1400, 900, path);
  g_assert_cmpint (abs (gtk_widget_get_width (window->sidebar) - sidebar), <=, 1);
  g_assert_cmpint (gtk_paned_get_position (window->header_paned), ==, 240);
  g_assert_cmpint (abs (gtk_widget_get_height (GTK_WIDGET (window->timeline_box)) - timeline), <=, 1);
  sequin_test_window_destroy (window);

  g_settings_reset (s, "sidebar-width");
  g_settings_reset (s, "header-width");
  g_settings_reset (s, "timeline-height");
}

int
main (int argc, char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  sequin_test_application ();

  g_test_add_func ("/layout/work-area-width", test_work_area_width);
  g_test_add_func ("/layout/panes-remembered", test_panes_remembered);
  return g_test_run ();
}
