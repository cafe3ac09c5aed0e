/* test-gizmo.c: the preview's posing gizmo: a drag on a ring turns the
 * selected joint about the world's axis (live, one edit when let go, Ctrl
 * snapping to 5°, Escape cancelling), the arrows move a joint that may
 * move, and the keyboard path (an axis chosen, arrow keys stepping) does
 * the same, each checked against values computed here from the clip as it
 * was, with undo and redo giving the bytes back
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

/* ---- quaternions, written out here (not the core's) ---- */

static void
qmul (const double a[4],
      const double b[4],
      double       out[4])
{
  double r[4] = {
    a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
  };

  memcpy (out, r, sizeof r);
}

static void
qaxis (int    axis,
       double degrees,
       double q[4])
{
  double h = degrees * G_PI / 360;

  q[0] = cos (h);
  q[1] = q[2] = q[3] = 0;
  q[1 + axis] = sin (h);
}

/* the same rotation (either sign) within eps */
static void
assert_same_rotation (const double a[4],
                      const double b[4],
                      double       eps)
{
  double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];

  if (fabs (fabs (d) - 1) > eps)
    g_error ("rotations differ: %g %g %g %g and %g %g %g %g", a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]);
}

static void
rotation_at (const SqClip *clip,
             const char   *joint,
             double        time,
             double        q[4])
{
  gssize j = sq_clip_find_joint (clip, joint);

  g_assert_cmpint (j, >=, 0);
  sq_track_sample (&clip->joints[j].tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, time, q);
}

/* the rotation its parents give `joint` (Second Life's axes: the clips
 * here are Second Life's), the parents' keys composed from the root */
static void
parents_rotation (const SqClip *clip,
                  const char   *joint,
                  double        time,
                  double        p[4])
{
  g_autoptr(SqPose) pose = sq_pose_new (clip);
  const gssize *parent = sq_pose_get_parents (pose);
  double local[4];

  p[0] = 1;
  p[1] = p[2] = p[3] = 0;
  for (gssize k = parent[sq_clip_find_joint (clip, joint)]; k >= 0; k = parent[k])
    {
      rotation_at (clip, clip->joints[k].name, time, local);
      qmul (local, p, p);
    }
}

/* P⁻¹ R P q: `joint` turned `degrees` about the world's `axis` */
static void
expected_turn (const SqClip *before,
               const char   *joint,
               double        time,
               int           axis,
               double        degrees,
               double        out[4])
{
  double p[4], pinv[4], r[4], q[4];

  parents_rotation (before, joint, time, p);
  pinv[0] = p[0];
  pinv[1] = -p[1];
  pinv[2] = -p[2];
  pinv[3] = -p[3];
  rotation_at (before, joint, time, q);
  qaxis (axis, degrees, r);
  qmul (p, q, out);
  qmul (r, out, out);
  qmul (pinv, out, out);
}

/* ---- the window ---- */

static SequinWindow *
window_with_new (const char *world)
{
  SequinWindow *window = sequin_test_window_new_animation (world);

  gtk_stack_set_visible_child_name (window->view_stack, "preview");
  sequin_test_flush ();
  SEQUIN_TEST_WAIT_UNTIL (gtk_widget_get_width (GTK_WIDGET (window->preview)) > 100);
  sequin_test_settle (100);
  return window;
}


static void
apply (SequinWindow *window,
       SqEdit       *edit)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (sequin_document_apply (sequin_window_get_document (window), edit, &error));
  g_assert_no_error (error);
  sequin_test_flush ();
}

static GBytes *
bytes_of (SequinWindow *window)
{
  const SqClip *clip = sequin_test_window_clip (window);

  return sq_save_bytes (clip, clip->format, NULL, NULL, NULL);
}

/* the figure as drawn now, copied */
static double *
figure (SequinWindow *window,
        gsize        *n)
{
  gssize selected;
  const double *points = sequin_preview_get_figure (window->preview, n, &selected);

  return g_memdup2 (points, *n * 3 * sizeof (double));
}

/* A drag on the Z ring of the left shoulder (its parents turned, the
 * playhead between keys): the pose follows live without an edit; let go,
 * one edit keys P⁻¹ R P q at the playhead, a multiple of 5° with Ctrl;
 * undo gives the bytes back, redo the same again */
static void
test_drag_ring (void)
{
  SequinWindow *window = window_with_new ("sl");
  SequinDocument *doc = sequin_window_get_document (window);
  const double collar[4] = { 0.9, 0.1, 0.3, -0.2 }, chest[4] = { 0.95, -0.2, 0.1, 0.05 };
  const double shoulder0[4] = { 0.8, 0.4, -0.3, 0.2 };
  g_autoptr(SqClip) before = NULL;
  g_autoptr(GBytes) old_bytes = NULL;
  g_autoptr(GBytes) new_bytes = NULL;
  g_autoptr(GBytes) redone = NULL;
  g_autoptr(GBytes) during = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autofree double *still = NULL;
  g_autofree double *live = NULL;
  gsize n;
  double x0, y0, x, y, shown, got[4], want[4];
  int handle;
  gssize shoulder, elbow;

  apply (window, sq_edit_set_rotation_new ("mCollarLeft", 1.0, collar));
  apply (window, sq_edit_set_rotation_new ("mChest", 0.0, chest));
  apply (window, sq_edit_set_rotation_new ("mShoulderLeft", 0.0, shoulder0));
  sequin_test_select_at (window, "mShoulderLeft", 1.0);
  before = sq_clip_copy (sequin_test_window_clip (window));
  shoulder = sq_clip_find_joint (before, "mShoulderLeft");
  elbow = sq_clip_find_joint (before, "mElbowLeft");
  /* no key at the playhead yet: the value there is played between keys */
  g_assert_cmpint (sq_track_find (&before->joints[shoulder].tracks[SQ_CHANNEL_ROTATION], 1.0), <, 0);
  old_bytes = bytes_of (window);
  still = figure (window, &n);

  g_assert_true (sequin_preview_gizmo_point (window->preview, 2, 0.02, &x0, &y0));
  handle = sequin_preview_gizmo_press (window->preview, x0, y0);
  g_assert_cmpint (handle, ==, 2);
  for (int i = 1; i <= 8; i++)
    {
      g_assert_true (sequin_preview_gizmo_point (window->preview, 2, 0.02 + 0.01 * i, &x, &y));
      sequin_preview_gizmo_motion (window->preview, x0, y0, x, y, TRUE);
    }
  shown = sequin_preview_get_gizmo_drag (window->preview, &handle);
  g_test_message ("dragged %g° about Z", shown);
  g_assert_cmpint (handle, ==, 2);
  /* the pointer went 0.08 of the way round the ring (28.8°): Ctrl snaps
   * that to 30°, a whole number of 5° steps */
  g_assert_cmpfloat (shown, ==, 30);
  /* live: the arm moved on the screen, the clip did not */
  live = figure (window, &n);
  g_assert_cmpfloat (fabs (live[elbow * 3] - still[elbow * 3]) + fabs (live[elbow * 3 + 2] - still[elbow * 3 + 2]), >, 1e-4);
  during = bytes_of (window);
  g_assert_true (g_bytes_equal (during, old_bytes));
  /* the Pose page shows the value being dragged (two decimals of a degree) */
  {
    double angles[3], shown_q[4];
    const int axes[3] = { 0, 1, 2 };

    sequin_test_flush ();
    for (guint i = 0; i < 3; i++)
      angles[i] = gtk_spin_button_get_value (GTK_SPIN_BUTTON (sequin_posing_get_value_spin (window, i)));
    sq_euler_to_quat (angles, axes, 3, shown_q);
    expected_turn (before, "mShoulderLeft", 1.0, 2, shown, want);
    assert_same_rotation (shown_q, want, 1e-6);
  }

  sequin_preview_gizmo_release (window->preview);
  sequin_test_flush ();
  g_assert_cmpint (sq_track_find (&sequin_test_window_clip (window)->joints[shoulder].tracks[SQ_CHANNEL_ROTATION], 1.0), >=, 0);
  rotation_at (sequin_test_window_clip (window), "mShoulderLeft", 1.0, got);
  expected_turn (before, "mShoulderLeft", 1.0, 2, shown, want);
  assert_same_rotation (got, want, 1e-9);
  /* the joints' turn in the world about Z keeps the elbow's height */
  {
    g_autofree double *after = figure (window, &n);

    g_assert_cmpfloat (fabs (after[elbow * 3 + 1] - still[elbow * 3 + 1]), <, 1e-6);
  }

  new_bytes = bytes_of (window);
  g_assert_false (g_bytes_equal (new_bytes, old_bytes));
  /* one edit: one undo gives the bytes back */
  g_assert_true (sequin_document_undo (doc));
  sequin_test_flush ();
  undone = bytes_of (window);
  g_assert_true (g_bytes_equal (undone, old_bytes));
  g_assert_true (sequin_document_redo (doc));
  sequin_test_flush ();
  redone = bytes_of (window);
  g_assert_true (g_bytes_equal (redone, new_bytes));
  sequin_test_window_destroy (window);
}

/* Escape during a drag: the pose as it was, no edit */
static void
test_drag_cancel (void)
{
  SequinWindow *window = window_with_new ("sl");
  g_autoptr(GBytes) old_bytes = NULL;
  g_autoptr(GBytes) now = NULL;
  g_autofree double *still = NULL;
  g_autofree double *after = NULL;
  gsize n;
  double x0, y0, x, y;

  sequin_test_select_at (window, "mElbowLeft", 0.5);
  old_bytes = bytes_of (window);
  still = figure (window, &n);
  g_assert_true (sequin_preview_gizmo_point (window->preview, SEQUIN_GIZMO_VIEW, 0.0, &x0, &y0));
  g_assert_cmpint (sequin_preview_gizmo_press (window->preview, x0, y0), ==, SEQUIN_GIZMO_VIEW);
  g_assert_true (sequin_preview_gizmo_point (window->preview, SEQUIN_GIZMO_VIEW, 0.15, &x, &y));
  sequin_preview_gizmo_motion (window->preview, x0, y0, x, y, FALSE);
  g_assert_cmpfloat (fabs (sequin_preview_get_gizmo_drag (window->preview, NULL)), >, 1);
  gtk_widget_activate_action (GTK_WIDGET (window->preview), "preview.gizmo-cancel", NULL);
  sequin_preview_gizmo_release (window->preview);
  sequin_test_flush ();
  now = bytes_of (window);
  g_assert_true (g_bytes_equal (now, old_bytes));
  g_assert_false (sequin_document_can_undo (sequin_window_get_document (window)));
  after = figure (window, &n);
  g_assert_cmpmem (after, n * 3 * sizeof (double), still, n * 3 * sizeof (double));
  /* that press was the gizmo's: its release selects no joint; a press in
   * the empty corner is not */
  g_assert_true (sequin_preview_gizmo_took_press (window->preview));
  g_assert_cmpint (sequin_preview_gizmo_press (window->preview, 1, 1), ==, -1);
  g_assert_false (sequin_preview_gizmo_took_press (window->preview));
  sequin_test_window_destroy (window);
}

/* X, Y, Z choose the axis, the arrow keys' action steps 1° (Shift: 10°),
 * each step one edit; the accessible description says the mode and axis */
static void
test_keyboard_turn (void)
{
  SequinWindow *window = window_with_new ("sl");
  SequinDocument *doc = sequin_window_get_document (window);
  GtkWidget *preview = GTK_WIDGET (window->preview);
  g_autoptr(SqClip) before = NULL;
  g_autoptr(GBytes) one = NULL;
  g_autoptr(GBytes) two = NULL;
  g_autoptr(GBytes) again = NULL;
  g_autofree char *error = NULL;
  double got[4], want[4];

  sequin_test_select_at (window, "mPelvis", 0.5);
  before = sq_clip_copy (sequin_test_window_clip (window));
  /* no axis: the arrow keys turn the view, not the joint */
  {
    double yaw0, yaw, pitch, distance;

    sequin_preview_get_camera (window->preview, &yaw0, &pitch, &distance);
    g_assert_true (gtk_widget_activate_action (preview, "preview.turn-right", NULL));
    gtk_widget_activate_action (preview, "preview.gizmo-step", "d", 10.0);
    sequin_test_flush ();
    sequin_preview_get_camera (window->preview, &yaw, &pitch, &distance);
    g_assert_cmpfloat (fabs (yaw - yaw0), >, 1);
    g_assert_false (sequin_document_can_undo (doc));
  }
  g_assert_true (gtk_widget_activate_action (preview, "preview.gizmo-axis", "i", 0));
  g_assert_cmpint (sequin_preview_get_gizmo_axis (window->preview), ==, 0);
  error = gtk_test_accessible_check_property (GTK_ACCESSIBLE (preview), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                              "The skeleton posed at the playhead. Arrow keys turn the view, plus and minus zoom, Home shows the whole figure, O shows onion skins, T the selected joint's trail, H the gizmo. R rotates the selected joint, G moves it. Rotate, axis X: arrow keys step, Shift ten steps, Escape ends");
  g_assert_null (error);

  /* Right (the arrow key's action): 1° */
  g_assert_true (gtk_widget_activate_action (preview, "preview.turn-right", NULL));
  sequin_test_flush ();
  one = bytes_of (window);
  g_assert_true (gtk_widget_activate_action (preview, "preview.gizmo-step", "d", 10.0));
  sequin_test_flush ();
  two = bytes_of (window);
  rotation_at (sequin_test_window_clip (window), "mPelvis", 0.5, got);
  expected_turn (before, "mPelvis", 0.5, 0, 11, want);
  assert_same_rotation (got, want, 1e-9);
  /* each step is an edit of its own */
  g_assert_true (sequin_document_undo (doc));
  sequin_test_flush ();
  again = bytes_of (window);
  g_assert_true (g_bytes_equal (again, one));
  rotation_at (sequin_test_window_clip (window), "mPelvis", 0.5, got);
  expected_turn (before, "mPelvis", 0.5, 0, 1, want);
  assert_same_rotation (got, want, 1e-9);
  g_assert_true (sequin_document_redo (doc));
  sequin_test_flush ();
  g_clear_pointer (&again, g_bytes_unref);
  again = bytes_of (window);
  g_assert_true (g_bytes_equal (again, two));

  /* Escape gives the arrow keys back to the view */
  g_assert_true (gtk_widget_activate_action (preview, "preview.gizmo-cancel", NULL));
  g_assert_cmpint (sequin_preview_get_gizmo_axis (window->preview), ==, -1);
  gtk_widget_activate_action (preview, "preview.gizmo-step", "d", 1.0);
  sequin_test_flush ();
  g_clear_pointer (&again, g_bytes_unref);
  again = bytes_of (window);
  g_assert_true (g_bytes_equal (again, two));
  sequin_test_window_destroy (window);
}

/* G: the pelvis moves by its world's step along an axis (the keyboard)
 * and by a snapped drag of an arrow; a BVH's shoulder, whose CHANNELS
 * hold no position, keeps the rings */
static void
test_move (void)
{
  SequinWindow *window = window_with_new ("sl");
  GtkWidget *preview = GTK_WIDGET (window->preview);
  const SqClip *clip;
  gssize pelvis;
  double v0[4], v[4], x0, y0, x, y, shown;

  sequin_test_select_at (window, "mPelvis", 1.0);
  clip = sequin_test_window_clip (window);
  pelvis = sq_clip_find_joint (clip, "mPelvis");
  sq_track_sample (&clip->joints[pelvis].tracks[SQ_CHANNEL_TRANSLATION], SQ_CHANNEL_TRANSLATION, 1.0, v0);
  g_assert_true (gtk_widget_activate_action (preview, "preview.gizmo-mode", "s", "move"));
  g_assert_cmpint (sequin_preview_get_gizmo_mode (window->preview), ==, SEQUIN_GIZMO_MOVE);
  g_assert_true (gtk_widget_activate_action (preview, "preview.gizmo-axis", "i", 2));
  g_assert_true (gtk_widget_activate_action (preview, "preview.gizmo-step", "d", 10.0));
  sequin_test_flush ();
  clip = sequin_test_window_clip (window);
  sq_track_sample (&clip->joints[pelvis].tracks[SQ_CHANNEL_TRANSLATION], SQ_CHANNEL_TRANSLATION, 1.0, v);
  /* ten steps of 1 cm up (Second Life's Z, in metres) */
  g_assert_cmpfloat_with_epsilon (v[0], v0[0], 1e-12);
  g_assert_cmpfloat_with_epsilon (v[1], v0[1], 1e-12);
  g_assert_cmpfloat_with_epsilon (v[2], v0[2] + 0.1, 1e-12);

  /* a drag along X (forward), Ctrl: whole centimetres */
  sequin_preview_set_gizmo_axis (window->preview, -1);
  memcpy (v0, v, sizeof v);
  g_assert_true (sequin_preview_gizmo_point (window->preview, 0, 0.6, &x0, &y0));
  g_assert_true (sequin_preview_gizmo_point (window->preview, 0, 1.4, &x, &y));
  g_assert_cmpint (sequin_preview_gizmo_press (window->preview, x0, y0), ==, 0);
  sequin_preview_gizmo_motion (window->preview, x0, y0, x, y, TRUE);
  shown = sequin_preview_get_gizmo_drag (window->preview, NULL);
  g_test_message ("moved %g m along X", shown);
  g_assert_cmpfloat (shown, >, 0.005);
  g_assert_cmpfloat (fabs (shown / 0.01 - round (shown / 0.01)), <, 1e-6);
  sequin_preview_gizmo_release (window->preview);
  sequin_test_flush ();
  clip = sequin_test_window_clip (window);
  sq_track_sample (&clip->joints[pelvis].tracks[SQ_CHANNEL_TRANSLATION], SQ_CHANNEL_TRANSLATION, 1.0, v);
  g_assert_cmpfloat_with_epsilon (v[0], v0[0] + shown, 1e-12);
  g_assert_cmpfloat_with_epsilon (v[1], v0[1], 1e-12);
  g_assert_cmpfloat_with_epsilon (v[2], v0[2], 1e-12);
  sequin_test_window_destroy (window);

  window = window_with_new ("bvh");
  sequin_test_select_at (window, "mShoulderLeft", 1.0);
  sequin_preview_set_gizmo_mode (window->preview, SEQUIN_GIZMO_MOVE);
  g_assert_cmpint (sequin_preview_get_gizmo_mode (window->preview), ==, SEQUIN_GIZMO_ROTATE);
  sequin_test_select_at (window, "mPelvis", 1.0);
  g_assert_cmpint (sequin_preview_get_gizmo_mode (window->preview), ==, SEQUIN_GIZMO_MOVE);
  sequin_test_window_destroy (window);
}

/* ---- its size, its line, hiding it ---- */

/* the free ring's centre and radius on the screen (it faces the viewer:
 * its points half a turn apart are a diameter) */
static void
view_ring (SequinWindow *window,
           double       *cx,
           double       *cy,
           double       *r)
{
  double x0, y0, x1, y1;

  g_assert_true (sequin_preview_gizmo_point (window->preview, SEQUIN_GIZMO_VIEW, 0.0, &x0, &y0));
  g_assert_true (sequin_preview_gizmo_point (window->preview, SEQUIN_GIZMO_VIEW, 0.5, &x1, &y1));
  *cx = (x0 + x1) / 2;
  *cy = (y0 + y1) / 2;
  *r = hypot (x1 - x0, y1 - y0) / 2;
}

/* The rings follow the bone: a hand's are smaller than the pelvis's,
 * both at least 14 pixels and at most 10% of the preview's smaller side;
 * the free ring drawn (and picked) is 1.22 times the axis rings; a press
 * on a ring takes it, a press well outside takes nothing */
static void
test_size (void)
{
  SequinWindow *window = window_with_new ("sl-bento");
  GtkWidget *preview = GTK_WIDGET (window->preview);
  int before = gtk_widget_get_height (preview);
  double side, hand, pelvis, shoulder, cx, cy, r, x, y;

  /* a preview tall enough that neither is at the smallest size */
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 1000);
  SEQUIN_TEST_WAIT_UNTIL (gtk_widget_get_height (preview) != before);
  sequin_test_settle (100);
  side = MIN (gtk_widget_get_width (preview), gtk_widget_get_height (preview));

  sequin_test_select_at (window, "mWristLeft", 1.0);
  hand = sequin_preview_get_gizmo_radius (window->preview);
  view_ring (window, &cx, &cy, &r);
  g_assert_cmpfloat (fabs (r - 1.22 * hand), <, 0.1 * hand);
  g_assert_true (sequin_preview_gizmo_point (window->preview, 2, 0.3, &x, &y));
  g_assert_cmpint (sequin_preview_gizmo_press (window->preview, x, y), >=, 0);
  g_assert_true (sequin_preview_gizmo_cancel (window->preview));
  g_assert_cmpint (sequin_preview_gizmo_press (window->preview, cx + 2.2 * (x - cx), cy + 2.2 * (y - cy)), ==, -1);
  g_assert_false (sequin_preview_gizmo_took_press (window->preview));

  sequin_test_select_at (window, "mPelvis", 1.0);
  pelvis = sequin_preview_get_gizmo_radius (window->preview);
  sequin_test_select_at (window, "mShoulderLeft", 1.0);
  shoulder = sequin_preview_get_gizmo_radius (window->preview);
  g_test_message ("rings: hand %.1f, pelvis %.1f, shoulder %.1f pixels in a %.0f-pixel preview",
                  hand, pelvis, shoulder, side);
  g_assert_cmpfloat (hand, >=, 14.0);
  g_assert_cmpfloat (hand, <, pelvis);
  g_assert_cmpfloat (pelvis, <=, 0.10 * side + 1e-9);
  g_assert_cmpfloat (shoulder, <=, 0.10 * side + 1e-9);

  /* the move gizmo's arrows: 1.4 times the rings' radius, an arrow seen
   * foreshortened no longer than that */
  sequin_test_select_at (window, "mPelvis", 1.0);
  sequin_preview_set_gizmo_mode (window->preview, SEQUIN_GIZMO_MOVE);
  g_assert_cmpfloat_with_epsilon (sequin_preview_get_gizmo_radius (window->preview), 1.4 * pelvis, 1e-9);
  {
    double ax, ay, bx, by;

    g_assert_true (sequin_preview_gizmo_point (window->preview, 1, 0.0, &ax, &ay));
    g_assert_true (sequin_preview_gizmo_point (window->preview, 1, 1.0, &bx, &by));
    g_assert_cmpfloat (hypot (bx - ax, by - ay), <=, 1.4 * pelvis * 1.05);
    g_assert_cmpfloat (hypot (bx - ax, by - ay), >, 0.3 * pelvis);
  }
  sequin_test_window_destroy (window);
}

static void
collect_buttons (GtkWidget *widget,
                 GPtrArray *out)
{
  if (GTK_IS_BUTTON (widget) && gtk_widget_get_mapped (widget))
    g_ptr_array_add (out, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_buttons (c, out);
}

/* the mode line inside the preview and over none of its buttons */
static void
assert_line_clear (SequinWindow *window)
{
  GtkWidget *preview = GTK_WIDGET (window->preview);
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  graphene_rect_t line;

  g_assert_true (sequin_preview_get_gizmo_line (window->preview, &line));
  g_assert_cmpfloat (line.size.width, >, 20);
  g_assert_cmpfloat (line.origin.x, >=, 0);
  g_assert_cmpfloat (line.origin.x + line.size.width, <=, gtk_widget_get_width (preview));
  g_assert_cmpfloat (line.origin.y + line.size.height, <=, gtk_widget_get_height (preview));
  collect_buttons (preview, buttons);
  g_assert_cmpuint (buttons->len, ==, 3);
  for (guint i = 0; i < buttons->len; i++)
    {
      graphene_rect_t b;

      g_assert_true (gtk_widget_compute_bounds (buttons->pdata[i], preview, &b));
      if (graphene_rect_intersection (&line, &b, NULL))
        g_error ("the gizmo's line (%g,%g %g×%g) is over the button “%s” (%g,%g %g×%g)",
                 line.origin.x, line.origin.y, line.size.width, line.size.height,
                 gtk_button_get_label (buttons->pdata[i]), b.origin.x, b.origin.y, b.size.width, b.size.height);
    }
}

/* The line saying what the gizmo does is clear of the preview's toggles,
 * at the window's default size and at 900×600, with and without an axis
 * chosen */
static void
test_line (void)
{
  SequinWindow *window = window_with_new ("sl-bento");
  int before;

  sequin_test_select_at (window, "mShoulderLeft", 1.0);
  assert_line_clear (window);
  sequin_preview_set_gizmo_axis (window->preview, 2);
  assert_line_clear (window);
  sequin_preview_set_gizmo_axis (window->preview, -1);
  before = gtk_widget_get_width (GTK_WIDGET (window->preview));
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);
  SEQUIN_TEST_WAIT_UNTIL (gtk_widget_get_width (GTK_WIDGET (window->preview)) != before);
  sequin_test_settle (100);
  g_test_message ("preview %d, then %d pixels wide", before, gtk_widget_get_width (GTK_WIDGET (window->preview)));
  assert_line_clear (window);
  sequin_preview_set_gizmo_axis (window->preview, 0);
  assert_line_clear (window);
  sequin_test_window_destroy (window);
}

static GtkWidget *
gizmo_toggle (GtkWidget *widget)
{
  if (GTK_IS_TOGGLE_BUTTON (widget)
      && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), "preview.show-gizmo") == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = gizmo_toggle (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Hidden (the toggle, the action): no rings, no line, nothing picked, a
 * drag there and the arrow keys change nothing, a click there finds the
 * bone under it; shown again, all back. Hiding during a drag cancels it. */
static void
test_hide (void)
{
  SequinWindow *window = window_with_new ("sl-bento");
  GtkWidget *preview = GTK_WIDGET (window->preview), *toggle = gizmo_toggle (preview);
  g_autoptr(GBytes) before = NULL, after = NULL;
  double cx, cy, r, x, y;
  gboolean shown;

  g_assert_nonnull (toggle);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (toggle)), ==, "_Gizmo");
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  sequin_test_select_at (window, "mWristLeft", 1.0);
  view_ring (window, &cx, &cy, &r);
  sequin_test_select_at (window, "mShoulderLeft", 1.0);
  g_assert_true (sequin_preview_gizmo_point (window->preview, 2, 0.1, &x, &y));
  before = bytes_of (window);

  g_assert_true (gtk_widget_activate_action (preview, "preview.show-gizmo", NULL));
  sequin_test_flush ();
  g_object_get (preview, "show-gizmo", &shown, NULL);
  g_assert_false (shown);
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  g_assert_cmpfloat (sequin_preview_get_gizmo_radius (window->preview), ==, 0);
  g_assert_false (sequin_preview_gizmo_point (window->preview, 2, 0.1, &x, &y));
  {
    graphene_rect_t line;

    g_assert_false (sequin_preview_get_gizmo_line (window->preview, &line));
  }
  g_assert_cmpint (sequin_preview_gizmo_press (window->preview, x, y), ==, -1);
  g_assert_false (sequin_preview_gizmo_took_press (window->preview));
  sequin_preview_gizmo_motion (window->preview, x, y, x + 40, y + 30, FALSE);
  sequin_preview_gizmo_release (window->preview);
  sequin_preview_set_gizmo_axis (window->preview, 2);
  sequin_preview_gizmo_step (window->preview, 10);
  sequin_test_flush ();
  after = bytes_of (window);
  g_assert_true (g_bytes_equal (before, after));
  g_assert_false (sequin_document_can_undo (sequin_window_get_document (window)));
  /* the bone under the pointer is still found: the hand where its rings were */
  g_assert_cmpint (sequin_preview_joint_at (window->preview, cx, cy), ==,
                   sq_clip_find_joint (sequin_test_window_clip (window), "mWristLeft"));
  sequin_preview_set_gizmo_axis (window->preview, -1);

  /* shown again by its button; hidden in a drag, the drag ends unmade */
  g_signal_emit_by_name (toggle, "clicked");
  sequin_test_flush ();
  g_object_get (preview, "show-gizmo", &shown, NULL);
  g_assert_true (shown);
  g_assert_cmpfloat (sequin_preview_get_gizmo_radius (window->preview), >, 0);
  g_assert_true (sequin_preview_gizmo_point (window->preview, 2, 0.1, &x, &y));
  g_assert_cmpint (sequin_preview_gizmo_press (window->preview, x, y), >=, 0);
  sequin_preview_gizmo_motion (window->preview, x, y, x + 20, y + 20, FALSE);
  g_object_set (preview, "show-gizmo", FALSE, NULL);
  g_assert_cmpfloat (sequin_preview_get_gizmo_drag (window->preview, NULL), ==, 0);
  sequin_preview_gizmo_release (window->preview);
  sequin_test_flush ();
  g_clear_pointer (&after, g_bytes_unref);
  after = bytes_of (window);
  g_assert_true (g_bytes_equal (before, after));
  g_object_set (preview, "show-gizmo", TRUE, NULL);
  sequin_test_window_destroy (window);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  sequin_test_application ();
  g_test_add_func ("/gizmo/drag-ring", test_drag_ring);
  g_test_add_func ("/gizmo/drag-cancel", test_drag_cancel);
  g_test_add_func ("/gizmo/keyboard-turn", test_keyboard_turn);
  g_test_add_func ("/gizmo/move", test_move);
  g_test_add_func ("/gizmo/size", test_size);
  g_test_add_func ("/gizmo/line", test_line);
  g_test_add_func ("/gizmo/hide", test_hide);
  return g_test_run ();
}
