/* test-layout.c: the work area gets the room; panes keep their sizes; the
 * keyboard moves through the window (issue 17)
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sequin-test-ui.h"
#include "sequin-timeline-private.h"
#include "sequin-window-private.h"

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
  g_autofree char *path = sequin_test_corpus_path ("seq-binary/walk.seq");
  g_autoptr(GSettings) s = settings ();
  SequinWindow *window;
  GtkAdjustment *h;
  int width_1100, tree_1100, sidebar_1100, gained;

  g_settings_reset (s, "sidebar-width");
  g_settings_reset (s, "header-width");

  window = window_at (1100, 720, path);
  width_1100 = gtk_widget_get_width (GTK_WIDGET (window));
  tree_1100 = gtk_widget_get_width (GTK_WIDGET (window->joint_tree));
  sidebar_1100 = gtk_widget_get_width (window->sidebar);
  sequin_test_window_destroy (window);

  /* a wider window (1400, or as wide as the screen allows): all the width
   * it gains goes to the tree and the timeline */
  window = window_at (1400, 900, path);
  gained = gtk_widget_get_width (GTK_WIDGET (window)) - width_1100;
  g_test_message ("window +%d: tree %d → %d, sidebar %d → %d", gained, tree_1100,
                  gtk_widget_get_width (GTK_WIDGET (window->joint_tree)),
                  sidebar_1100, gtk_widget_get_width (window->sidebar));
  g_assert_cmpint (gained, >=, 150);
  g_assert_cmpint (abs (gtk_widget_get_width (window->sidebar) - sidebar_1100), <=, 2);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window->joint_tree)), >=, tree_1100 + gained - 5);
  g_assert_cmpint (gtk_widget_get_width (window->timeline), >=, gtk_widget_get_width (GTK_WIDGET (window->joint_tree)) - 2);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window->joint_tree)), >,
                   2 * gtk_widget_get_width (window->sidebar));

  /* with a root's translations shown, every column of the tree is in view
   * at 1400 pixels; in a narrower window the tree scrolls to them */
  g_assert_true (sequin_joint_tree_expand_joint (window->joint_tree, 0, TRUE));
  sequin_test_flush ();
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  h = gtk_scrolled_window_get_hadjustment (tree_scroller (window));
  g_test_message ("tree content %g in %g", gtk_adjustment_get_upper (h), gtk_adjustment_get_page_size (h));
  if (gtk_widget_get_width (GTK_WIDGET (window)) >= 1400)
    g_assert_cmpfloat (gtk_adjustment_get_upper (h), <=, gtk_adjustment_get_page_size (h) + 0.5);
  else
    {
      GtkPolicyType hpolicy;

      gtk_scrolled_window_get_policy (tree_scroller (window), &hpolicy, NULL);
      g_assert_true (hpolicy != GTK_POLICY_NEVER && hpolicy != GTK_POLICY_EXTERNAL);
      gtk_adjustment_set_value (h, gtk_adjustment_get_upper (h));
      g_assert_cmpfloat (gtk_adjustment_get_value (h) + gtk_adjustment_get_page_size (h), >=,
                         gtk_adjustment_get_upper (h) - 0.5);
    }
  sequin_test_window_destroy (window);
}

/* ---- The panes keep the sizes they were given ------------------------------ */

static void
test_panes_remembered (void)
{
  g_autofree char *path = sequin_test_corpus_path ("seq-binary/walk.seq");
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

/* ---- The timeline gets room for many joints -------------------------------- */

/* A 31-joint capture at 1400×900: the timeline shows 16 lanes (all it asks
 * for) instead of the 7 of its default height, the tree keeps the rest;
 * once the user has a height of their own, it is what they get */
static void
test_timeline_room (void)
{
  g_autofree char *path = sequin_test_corpus_path ("bvh/131_01.bvh");
  g_autoptr(GSettings) s = settings ();
  SequinWindow *window;
  int natural = 0, shown;

  g_settings_reset (s, "timeline-height");
  window = window_at (1400, 900, path);
  gtk_widget_measure (window->timeline, GTK_ORIENTATION_VERTICAL, -1, NULL, &natural, NULL, NULL);
  shown = gtk_widget_get_height (window->timeline);
  g_test_message ("timeline %d of the %d it asks for, window %d high", shown, natural,
                  gtk_widget_get_height (GTK_WIDGET (window)));
  if (gtk_widget_get_height (GTK_WIDGET (window)) >= 880)
    g_assert_cmpint (shown, >=, natural - 2);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window->timeline_box)), >, 260);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window->joint_tree)), >=, 120);
  sequin_test_window_destroy (window);

  /* the user's own height wins */
  g_settings_set_int (s, "timeline-height", 200);
  window = window_at (1400, 900, path);
  g_assert_cmpint (abs (gtk_widget_get_height (GTK_WIDGET (window->timeline_box)) - 200), <=, 1);
  sequin_test_window_destroy (window);
  g_settings_reset (s, "timeline-height");
}

/* ---- Tab leaves the tree in one press -------------------------------------- */

static gboolean
press (GtkWidget       *widget,
       guint            keyval,
       GdkModifierType  state)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  gboolean handled = FALSE;

  /* what GTK does with a key press: the widget's key controllers see it */
  for (guint i = 0; i < g_list_model_get_n_items (controllers) && !handled; i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (c))
        g_signal_emit_by_name (c, "key-pressed", keyval, 0, state, &handled);
    }
  sequin_test_flush ();
  return handled;
}

static GtkWidget *
focus (SequinWindow *window)
{
  return gtk_root_get_focus (GTK_ROOT (window));
}

static void
test_tab_leaves_tree (void)
{
  g_autofree char *path = sequin_test_corpus_path ("seq-binary/walk.seq");
  SequinWindow *window = window_at (1400, 900, path);
  GtkWidget *tree = GTK_WIDGET (window->joint_tree);
  GtkWidget *after, *before;

  /* in the tree, on a row; Down moves to the next row, in the tree */
  g_assert_true (gtk_widget_grab_focus (tree));
  sequin_test_flush ();
  g_assert_true (focus (window) != NULL && gtk_widget_is_ancestor (focus (window), tree));

  /* Tab: out, in one press (44 joints, 44 rows) */
  g_assert_true (press (tree, GDK_KEY_Tab, 0));
  after = focus (window);
  g_assert_nonnull (after);
  g_assert_false (gtk_widget_is_ancestor (after, tree));
  g_test_message ("Tab went to %s", G_OBJECT_TYPE_NAME (after));
  g_assert_true (after == window->timeline || gtk_widget_is_ancestor (after, GTK_WIDGET (window->timeline_box)));

  /* Shift+Tab from the tree: out the other way */
  g_assert_true (gtk_widget_grab_focus (tree));
  sequin_test_flush ();
  g_assert_true (press (tree, GDK_KEY_ISO_Left_Tab, GDK_SHIFT_MASK));
  before = focus (window);
  g_assert_nonnull (before);
  g_assert_false (gtk_widget_is_ancestor (before, tree));
  g_assert_true (before != after);
  g_test_message ("Shift+Tab went to %s", G_OBJECT_TYPE_NAME (before));

  /* other keys are the rows' */
  g_assert_true (gtk_widget_grab_focus (tree));
  g_assert_false (press (tree, GDK_KEY_Down, 0));
  sequin_test_window_destroy (window);
}

/* ---- The timeline: fit, loop, and its keys in the Shortcuts window --------- */

static void
collect_accels (GtkWidget *widget,
                GString   *out)
{
  if (GTK_IS_SHORTCUTS_SHORTCUT (widget))
    {
      g_autofree char *accel = NULL;
      g_autofree char *title = NULL;

      g_object_get (widget, "accelerator", &accel, "title", &title, NULL);
      g_string_append_printf (out, "[%s] %s\n", accel != NULL ? accel : "", title);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect_accels (child, out);
}

static void
test_timeline_keys (void)
{
  g_autofree char *path = sequin_test_corpus_path ("sl-anim/Tower.anim");
  SequinWindow *window = window_at (1400, 900, path);
  SequinTimeline *tl = SEQUIN_TIMELINE (window->timeline);
  GtkWidget *overlay = GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_autoptr(GString) accels = g_string_new (NULL);
  GtkWidget *fit = NULL;
  double fitted, in, out;
  SqSlFields f;
  /* every key the timeline and the preview bind (sequin-timeline.c,
   * sequin-preview.c), as the Shortcuts window writes them */
  const char *keys[] = {
    "[Left Right] Previous or next frame", "[comma period] Previous or next key",
    "[Home End] First or last frame", "[<Control>0] Fit the animation to the width",
    "[<Control>plus <Control>minus] Zoom in or out", "[Left Right Up Down] Turn around the skeleton",
    "[plus minus] Zoom in or out", "[Home] See all of it", "[Tab <Shift>Tab] Leave the tree",
  };

  /* the Shortcuts window lists them */
  collect_accels (overlay, accels);
  g_test_message ("%s", accels->str);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (strstr (accels->str, keys[i]) == NULL)
      g_error ("the Shortcuts window lacks “%s”", keys[i]);

  /* Ctrl+0 (timeline.zoom-fit) and the Fit button: the clip in the width */
  g_assert_true (gtk_widget_activate_action (window->timeline, "timeline.zoom-fit", NULL));
  fitted = sequin_timeline_get_zoom (tl);
  /* the whole clip in the lanes' width */
  g_assert_cmpfloat (fitted * sequin_test_window_clip (window)->duration, <=,
                     gtk_widget_get_width (window->timeline) - _sequin_timeline_lanes_x (tl));
  g_assert_cmpfloat (fitted * sequin_test_window_clip (window)->duration, >,
                     0.8 * (gtk_widget_get_width (window->timeline) - _sequin_timeline_lanes_x (tl)));
  g_assert_true (gtk_widget_activate_action (window->timeline, "timeline.zoom-in", NULL));
  g_assert_true (gtk_widget_activate_action (window->timeline, "timeline.zoom-in", NULL));
  g_assert_cmpfloat (sequin_timeline_get_zoom (tl), >, fitted * 1.5);
  for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (window->timeline_box)); w && fit == NULL;
       w = gtk_widget_get_next_sibling (w))
    for (GtkWidget *c = gtk_widget_get_first_child (w); c && fit == NULL; c = gtk_widget_get_next_sibling (c))
      if (GTK_IS_BUTTON (c) && g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (c)), "zoom-fit-best-symbolic") == 0)
        fit = c;
  g_assert_nonnull (fit);
  /* (a button activated from the keyboard is clicked at the end of its press) */
  g_assert_true (gtk_widget_activate (fit));
  SEQUIN_TEST_WAIT_UNTIL (fabs (sequin_timeline_get_zoom (tl) - fitted) < 1e-6);
  g_assert_true (gtk_widget_activate_action (window->timeline, "timeline.zoom-out", NULL));
  g_assert_cmpfloat (sequin_timeline_get_zoom (tl), <, fitted);
  g_assert_true (gtk_widget_activate_action (window->timeline, "timeline.zoom-fit", NULL));
  g_assert_cmpfloat_with_epsilon (sequin_timeline_get_zoom (tl), fitted, 1e-6);

  /* the .anim's loop is on the timeline, and follows its edits */
  sq_sl_fields_get (sequin_test_window_clip (window), &f);
  g_assert_true (f.loop);
  g_assert_true (sequin_timeline_get_loop (tl, &in, &out));
  g_assert_cmpfloat (in, ==, f.loop_in);
  g_assert_cmpfloat (out, ==, f.loop_out);
  g_assert_true (sequin_document_apply (sequin_window_get_document (window), sq_edit_sl_loop_new (TRUE, 0.5, 1.5), NULL));
  sequin_test_flush ();
  g_assert_true (sequin_timeline_get_loop (tl, &in, &out));
  g_assert_cmpfloat (in, ==, 0.5);
  g_assert_cmpfloat (out, ==, 1.5);
  g_assert_true (sequin_document_apply (sequin_window_get_document (window), sq_edit_sl_loop_new (FALSE, 0.5, 1.5), NULL));
  g_assert_false (sequin_timeline_get_loop (tl, NULL, NULL));
  sequin_test_window_destroy (window);
}

/* ---- The joint tree shows each file's skeleton ----------------------------- */

static void
test_joint_hierarchy (void)
{
  g_autofree char *path = sequin_test_corpus_path ("bvh/SLMale.bvh");
  SequinWindow *window = window_at (1400, 900, path);
  GListModel *rows = sequin_joint_tree_get_rows (window->joint_tree);
  const SqClip *clip = sequin_test_window_clip (window);
  g_autoptr(SqPose) pose = sq_pose_new (clip);
  const gssize *parents = sq_pose_get_parents (pose);
  guint roots = 0;
  gssize deep = -1;
  gssize joint, key;
  SqChannel channel;

  /* the file's own parents: the top rows are its roots */
  for (gsize j = 0; j < clip->n_joints; j++)
    roots += parents[j] < 0;
  g_assert_true (sequin_joint_tree_get_hierarchy (window->joint_tree));
  g_assert_cmpuint (roots, <, clip->n_joints);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, roots);
  for (gsize j = 0; j < clip->n_joints; j++)
    g_assert_cmpint (sequin_joint_tree_get_parent (window->joint_tree, j), ==, parents[j]);

  /* a joint three levels down: selecting it opens its ancestors */
  for (gsize j = 0; j < clip->n_joints && deep < 0; j++)
    if (parents[j] >= 0 && parents[parents[j]] >= 0 && parents[parents[parents[j]]] >= 0)
      deep = j;
  g_assert_cmpint (deep, >=, 0);
  sequin_joint_tree_select_joint (window->joint_tree, deep);
  sequin_test_flush ();
  g_assert_cmpint (sequin_joint_tree_get_current_joint (window->joint_tree), ==, deep);
  {
    g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (sequin_joint_tree_get_selection (window->joint_tree));
    g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, gtk_bitset_get_minimum (selected));

    g_assert_cmpuint (gtk_tree_list_row_get_depth (row), >=, 3);
  }
  /* its key: the key row under it */
  g_assert_true (sequin_joint_tree_select_key (window->joint_tree, deep, SQ_CHANNEL_ROTATION, 0));
  g_assert_true (sequin_joint_tree_get_selected_key (window->joint_tree, &joint, &channel, &key, NULL));
  g_assert_cmpint (joint, ==, deep);
  g_assert_cmpint (key, ==, 0);

  /* the flat view, from the main menu's action: every joint on top */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.joint-hierarchy", NULL));
  sequin_test_flush ();
  g_assert_false (sequin_joint_tree_get_hierarchy (window->joint_tree));
  rows = sequin_joint_tree_get_rows (window->joint_tree);
  g_assert_cmpuint (g_list_model_get_n_items (rows), >=, clip->n_joints);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.joint-hierarchy", NULL));
  sequin_test_flush ();
  g_assert_true (sequin_joint_tree_get_hierarchy (window->joint_tree));

  /* an edit that changes the hierarchy (a joint deleted): its children
   * move up to its parent */
  {
    gssize parent = parents[deep];
    g_autofree char *name = g_strdup (clip->joints[parent].name);

    sequin_joint_tree_select_joint (window->joint_tree, parent);
    sequin_test_flush ();
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.delete-joint", NULL));
    sequin_test_flush ();
    g_assert_cmpint (sq_clip_find_joint (sequin_test_window_clip (window), name), <, 0);
  }
  g_assert_cmpuint (g_list_model_get_n_items (sequin_joint_tree_get_rows (window->joint_tree)), >=, 1);
  sequin_test_window_destroy (window);
}

/* ---- A joint selected in the tree is the lane in the timeline, and back ---- */

static void
test_joint_and_lane (void)
{
  g_autofree char *path = sequin_test_corpus_path ("seq-binary/walk.seq");
  SequinWindow *window = window_at (1400, 900, path);
  SequinTimeline *tl = SEQUIN_TIMELINE (window->timeline);
  const SqClip *clip = sequin_test_window_clip (window);
  gssize last = clip->n_joints - 1;
  double y;

  /* the last joint, far below: its lane is highlighted and scrolled to */
  sequin_joint_tree_select_joint (window->joint_tree, last);
  sequin_test_flush ();
  g_assert_cmpint (sequin_joint_tree_get_current_joint (window->joint_tree), ==, last);
  g_assert_cmpint (sequin_timeline_get_selected_joint (tl), ==, last);
  y = _sequin_timeline_y_for_key (tl, last, SQ_CHANNEL_ROTATION);
  g_assert_cmpfloat (y, >, 0);
  g_assert_cmpfloat (y, <, gtk_widget_get_height (window->timeline));

  /* a click on a joint's name in the timeline selects it in the tree */
  _sequin_timeline_press (tl, 1, 5, _sequin_timeline_y_for_key (tl, last - 2, SQ_CHANNEL_ROTATION));
  sequin_test_flush ();
  g_assert_cmpint (sequin_timeline_get_selected_joint (tl), ==, last - 2);
  g_assert_cmpint (sequin_joint_tree_get_current_joint (window->joint_tree), ==, last - 2);
  sequin_test_window_destroy (window);
}

int
main (int argc, char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  sequin_test_application ();

  g_test_add_func ("/layout/work-area-width", test_work_area_width);
  g_test_add_func ("/layout/panes-remembered", test_panes_remembered);
  g_test_add_func ("/layout/timeline-room", test_timeline_room);
  g_test_add_func ("/layout/tab-leaves-tree", test_tab_leaves_tree);
  g_test_add_func ("/layout/timeline-keys", test_timeline_keys);
  g_test_add_func ("/layout/joint-hierarchy", test_joint_hierarchy);
  g_test_add_func ("/layout/joint-and-lane", test_joint_and_lane);
  return g_test_run ();
}
