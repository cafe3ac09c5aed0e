/* test-posing.c: making an animation in the window: New, the Pose page's
 * values (typing keys them), insert keys, copy and paste (flipped), and
 * the same bytes as the core's (and so the command line's) edits
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sequin-posing.h"
#include "sequin-test-ui.h"
#include "sequin-window-private.h"

static SequinWindow *
window_with_new (const char *world)
{
  SequinWindow *window = sequin_test_window_new_animation (world);

  gtk_widget_set_visible (window->sidebar, TRUE);
  gtk_stack_set_visible_child_name (window->sidebar_stack, "properties");
  sequin_test_flush ();
  return window;
}


static void
type_value (SequinWindow *window,
            guint         index,
            double        value)
{
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (sequin_posing_get_value_spin (window, index)), value);
  sequin_test_flush ();
}

/* The page shows the joint's rotation at the playhead in its channel
 * order; typing keys it; the window's bytes are the core's */
static void
test_page_keys_values (void)
{
  SequinWindow *window = window_with_new ("bvh");
  g_autoptr(SqClip) expect = sq_clip_copy (sequin_test_window_clip (window));
  const double angles[3] = { 10, 20, 0 }, pos[3] = { 1.5, 0, 0 };
  int axes[3];
  double q[4];
  g_autoptr(GBytes) got = NULL;
  g_autoptr(GBytes) want = NULL;
  SqEdit *rot_edit, *pos_edit;

  sequin_test_select_at (window, "mElbowLeft", 1.0);
  /* BVH channels Z X Y: the first value is about Z */
  g_assert_true (sequin_test_shows (GTK_WIDGET (window), "Z"));
  type_value (window, 0, 10);
  type_value (window, 1, 20);
  sequin_test_select_at (window, "mPelvis", 0.5);
  type_value (window, 3, 1.5);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (sequin_posing_get_value_spin (window, 3))), ==, 1.5);

  /* the same edits in the core: each typed value is one edit */
  sq_posing_euler_axes (expect, (gsize) sq_clip_find_joint (expect, "mElbowLeft"), axes);
  g_assert_cmpint (axes[0], ==, 2);
  {
    double first[3] = { 10, 0, 0 };
    sq_euler_to_quat (first, axes, 3, q);
    rot_edit = sq_edit_set_rotation_new ("mElbowLeft", 1.0, q);
    g_assert_true (sq_edit_apply (rot_edit, expect, NULL));
    sq_edit_free (rot_edit);
  }
  sq_euler_to_quat (angles, axes, 3, q);
  rot_edit = sq_edit_set_rotation_new ("mElbowLeft", 1.0, q);
  g_assert_true (sq_edit_apply (rot_edit, expect, NULL));
  pos_edit = sq_edit_set_position_new ("mPelvis", 0.5, pos);
  g_assert_true (sq_edit_apply (pos_edit, expect, NULL));
  sq_edit_free (rot_edit);
  sq_edit_free (pos_edit);
  got = sq_save_bytes (sequin_test_window_clip (window), sq_format_by_id ("bvh"), NULL, NULL, NULL);
  want = sq_save_bytes (expect, sq_format_by_id ("bvh"), NULL, NULL, NULL);
  g_assert_true (g_bytes_equal (got, want));
  g_assert_nonnull (strstr (g_bytes_get_data (got, NULL), " 10.000000 20.000000 "));

  /* undo takes the three edits back, and the page follows */
  for (guint i = 0; i < 3; i++)
    sequin_test_activate (window, "win.undo");
  sequin_test_select_at (window, "mElbowLeft", 1.0);
  g_assert_cmpfloat_with_epsilon (gtk_spin_button_get_value (GTK_SPIN_BUTTON (sequin_posing_get_value_spin (window, 1))),
                                  0.0, 1e-9);
  g_assert_false (sequin_document_get_modified (sequin_window_get_document (window)));
  sequin_test_window_destroy (window);
}

/* K's action keys the selected joint; copy and paste flipped puts the
 * left arm's pose on the right */
static void
test_insert_copy_paste (void)
{
  SequinWindow *window = window_with_new ("sl");
  const SqClip *clip;
  gssize left, right;
  double l[4], r[4];

  sequin_test_select_at (window, "mShoulderLeft", 0.5);
  type_value (window, 2, 60);   /* about Z */
  clip = sequin_test_window_clip (window);
  left = sq_clip_find_joint (clip, "mShoulderLeft");
  right = sq_clip_find_joint (clip, "mShoulderRight");
  g_assert_cmpuint (clip->joints[left].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 3);

  sequin_playback_set_position (window->playback, 1.0);
  sequin_test_activate (window, "win.insert-keys");
  clip = sequin_test_window_clip (window);
  g_assert_cmpuint (clip->joints[left].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 4);

  sequin_playback_set_position (window->playback, 0.5);
  sequin_test_activate (window, "win.copy-pose");
  sequin_playback_set_position (window->playback, 1.5);
  sequin_test_activate (window, "win.paste-pose-flipped");
  clip = sequin_test_window_clip (window);
  sq_track_sample (&clip->joints[left].tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, 0.5, l);
  sq_track_sample (&clip->joints[right].tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, 1.5, r);
  /* Second Life's mirror keeps w and y, negates x and z */
  g_assert_cmpfloat_with_epsilon (r[0], l[0], 1e-12);
  g_assert_cmpfloat_with_epsilon (r[3], -l[3], 1e-12);
  g_assert_cmpfloat_with_epsilon (fabs (l[3]), sin (G_PI / 6), 1e-9);

  /* symmetrize from the left shoulder at 0.5 s */
  sequin_playback_set_position (window->playback, 0.5);
  sequin_test_activate (window, "win.symmetrize");
  clip = sequin_test_window_clip (window);
  sq_track_sample (&clip->joints[right].tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, 0.5, r);
  g_assert_cmpfloat_with_epsilon (r[3], -l[3], 1e-12);
  sequin_test_window_destroy (window);
}

static GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_button (c, label);
      if (found != NULL)
        return found;
    }
  return NULL;
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

/* New… in an empty window makes the animation there */
static void
test_new_dialog (void)
{
  SequinWindow *window = sequin_test_window_new ();
  GtkWindow *dialog;
  const SqClip *clip;

  sequin_test_activate (window, "win.new-animation");
  dialog = find_toplevel ("New Animation");
  g_assert_nonnull (dialog);
  g_signal_emit_by_name (find_button (GTK_WIDGET (dialog), "C_reate"), "clicked");
  sequin_test_flush ();
  SEQUIN_TEST_WAIT_UNTIL (sequin_window_get_document (window) != NULL);
  clip = sequin_test_window_clip (window);
  g_assert_cmpstr (clip->format->id, ==, "sl-anim");
  g_assert_cmpuint (clip->n_joints, ==, 26);
  g_assert_cmpfloat_with_epsilon (clip->duration, 5.0, 1e-9);
  g_assert_null (find_toplevel ("New Animation"));
  sequin_test_window_destroy (window);
}

/* the preview finds the joint under a point: several joints across the
 * figure, none in the empty corner */
static void
test_preview_pick (void)
{
  SequinWindow *window = window_with_new ("sl");
  GHashTable *hit = g_hash_table_new (NULL, NULL);
  int w, h;

  gtk_stack_set_visible_child_name (window->view_stack, "preview");
  sequin_test_select_at (window, "mPelvis", 1.0);
  SEQUIN_TEST_WAIT_UNTIL (gtk_widget_get_width (GTK_WIDGET (window->preview)) > 100);
  sequin_test_settle (200);
  w = gtk_widget_get_width (GTK_WIDGET (window->preview));
  h = gtk_widget_get_height (GTK_WIDGET (window->preview));
  for (int y = 0; y < h; y += 3)
    for (int x = 0; x < w; x += 3)
      {
        gssize j = sequin_preview_joint_at (window->preview, x, y);
        if (j >= 0)
          g_hash_table_add (hit, GSIZE_TO_POINTER ((gsize) j + 1));
      }
  g_test_message ("%u joints found under points of the preview", g_hash_table_size (hit));
  g_assert_cmpuint (g_hash_table_size (hit), >=, 10);
  g_assert_cmpint (sequin_preview_joint_at (window->preview, 1, 1), ==, -1);
  g_hash_table_unref (hit);
  sequin_test_window_destroy (window);
}

/* With no joint selected every field is empty, also once the window has
 * been shown and laid out (a spin button formats itself again then) */
static void
test_page_empty_without_joint (void)
{
  g_autofree char *sample = g_build_filename (g_getenv ("SEQUIN_SAMPLE_DIR"), "wave.seq", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (sample);
  /* as a window opened for a second file is: made, given its document,
   * then shown */
  SequinWindow *window = sequin_window_new (sequin_test_application ());

  sequin_window_open_file (window, file, FALSE);
  SEQUIN_TEST_WAIT_UNTIL (sequin_window_get_document (window) != NULL);
  gtk_window_present (GTK_WINDOW (window));
  sequin_test_settle (300);
  g_assert_true (gtk_widget_get_visible (window->sidebar));
  for (guint i = 0; i < 6; i++)
    {
      GtkWidget *spin = sequin_posing_get_value_spin (window, i);

      g_assert_false (gtk_widget_get_sensitive (spin));
      g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "");
    }
  /* a joint selected: its numbers */
  sequin_test_select_at (window, "rtelbow", 0.5);
  g_assert_true (gtk_widget_get_sensitive (sequin_posing_get_value_spin (window, 0)));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (sequin_posing_get_value_spin (window, 0))), !=, "");
  sequin_test_window_destroy (window);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  sequin_test_application ();
  g_test_add_func ("/posing/page-keys-values", test_page_keys_values);
  g_test_add_func ("/posing/page-empty-without-joint", test_page_empty_without_joint);
  g_test_add_func ("/posing/insert-copy-paste", test_insert_copy_paste);
  g_test_add_func ("/posing/new-dialog", test_new_dialog);
  g_test_add_func ("/posing/preview-pick", test_preview_pick);
  return g_test_run ();
}
