/* test-compare.c: Compare With… in the editor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * walk.seq against a mirrored copy written to a file by the core: the
 * per-joint list, the reference's ghost in the preview (posed as the core
 * poses it, drawn by the renderer), the difference lane under the
 * timeline (the core's numbers), and all three following an edit of the
 * document and its undo; closing ends the comparison. A click or drag on
 * the lane moves the playhead, snapped to frames as on the ruler, and the
 * lane steps with the timeline's keys.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sq-pose.h"
#include "sequin-compare-window.h"
#include "sequin-test-ui.h"
#include "sequin-timeline-private.h"
#include "sequin-window-private.h"

#define WALK "seq-binary/walk.seq"

/* the mirrored copy of `clip`, saved as its format and read back */
static SqClip *
mirrored_file (const SqClip *clip,
               char        **path)
{
  g_autoptr(SqClip) copy = sq_clip_copy (clip);
  g_autoptr(SqEdit) mirror = sq_edit_mirror_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (sq_edit_apply (mirror, copy, &error));
  g_assert_no_error (error);
  bytes = sq_save_bytes (copy, clip->format, NULL, NULL, &error);
  g_assert_no_error (error);
  *path = g_build_filename (sequin_test_tmpdir (), "walk-mirrored.seq", NULL);
  g_assert_true (g_file_set_contents (*path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  return sequin_test_load_clip (*path);
}

/* the triangles of the ghost in a cairo drawing of the preview */
static guint
ghost_triangles (SequinWindow *window)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 320, 240);
  cairo_t *cr = cairo_create (surface);

  sequin_preview_draw_cairo (window->preview, cr, 320, 240);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return sequin_preview_get_drawn_reference (window->preview);
}

static double
curve_max (SequinWindow *window,
           const char  **joint)
{
  gsize n;
  const double *curve = sequin_diff_lane_get_curve (SEQUIN_DIFF_LANE (window->diff_lane), &n, joint);
  double most = 0;

  g_assert_cmpuint (n, >, 1);
  for (gsize i = 0; i < n; i++)
    most = MAX (most, curve[i]);
  return most;
}

/* the ghost is the reference as the core poses it, at the playhead, on
 * the preview's axes (Second Life's X, Y, Z are its Z, X, Y) */
static void
assert_ghost_at (SequinWindow *window,
                 const SqClip *reference,
                 double        time)
{
  g_autoptr(SqPose) pose = sq_pose_new (reference);
  g_autofree double *sl = g_new (double, 3 * reference->n_joints);
  const double *ghost;
  gsize n;

  ghost = sequin_preview_get_reference (window->preview, &n, NULL);
  g_assert_nonnull (ghost);
  g_assert_cmpuint (n, ==, reference->n_joints);
  sq_pose_evaluate (pose, reference, time, sl);
  for (gsize j = 0; j < n; j++)
    {
      g_assert_cmpfloat (fabs (ghost[j * 3 + 0] - sl[j * 3 + 1]), <, 1e-9);
      g_assert_cmpfloat (fabs (ghost[j * 3 + 1] - sl[j * 3 + 2]), <, 1e-9);
      g_assert_cmpfloat (fabs (ghost[j * 3 + 2] - sl[j * 3 + 0]), <, 1e-9);
    }
}

static void
test_compare_follows (void)
{
  SequinWindow *window = sequin_test_window_new ();
  g_autofree char *path = sequin_test_corpus_path (WALK);
  g_autofree char *other_path = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *row0 = NULL;
  g_autoptr(SqClip) other = NULL;
  g_autoptr(SqDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  SequinDocument *document;
  SequinCompareWindow *compare;
  const SqJointDiff *worst = NULL;
  const SqClip *clip;
  const char *joint = NULL;
  double most, time;
  gssize selected;

  sequin_test_window_open (window, path);
  gtk_stack_set_visible_child_name (window->view_stack, "preview");
  sequin_test_flush ();
  document = sequin_window_get_document (window);
  clip = sequin_test_window_clip (window);
  other = mirrored_file (clip, &other_path);
  diff = sq_diff_clips (clip, other, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < diff->joints->len; i++)
    {
      const SqJointDiff *d = &g_array_index (diff->joints, SqJointDiff, i);

      if (worst == NULL || d->rotation > worst->rotation
          || (d->rotation == worst->rotation && d->translation > worst->translation))
        worst = d;
    }
  g_assert_cmpfloat (worst->rotation, >, 10.0);
  g_assert_null (sequin_preview_get_reference (window->preview, &(gsize) { 0 }, NULL));
  g_assert_false (gtk_widget_get_visible (window->diff_lane));

  compare = sequin_compare_window_new (window, other, "walk-mirrored.seq");
  SEQUIN_TEST_WAIT_UNTIL (sequin_compare_window_is_current (compare));
  g_object_ref_sink (compare);
  gtk_window_present (GTK_WINDOW (compare));
  sequin_test_flush ();

  /* the list: a row per joint, the one most apart first */
  g_assert_cmpuint (sequin_compare_window_get_n_rows (compare), ==, clip->n_joints);
  g_assert_true (g_str_has_prefix (sequin_compare_window_get_row_text (compare, 0), worst->name));
  summary = g_strdup (sequin_compare_window_get_summary (compare));
  row0 = g_strdup (sequin_compare_window_get_row_text (compare, 0));

  /* the ghost: the reference posed at the playhead, drawn see-through by
   * the renderer in use (OpenGL when there is a context), and by cairo */
  time = sequin_timeline_get_time (SEQUIN_TIMELINE (window->timeline));
  assert_ghost_at (window, other, time);
  gtk_widget_queue_draw (GTK_WIDGET (window->preview));
  sequin_test_settle (300);
  g_test_message ("the preview drew with OpenGL: %s", sequin_preview_has_rendered (window->preview) ? "yes" : "no");
  if (sequin_preview_has_rendered (window->preview))
    g_assert_cmpuint (sequin_preview_get_drawn_reference (window->preview), >, 0);
  g_assert_cmpuint (ghost_triangles (window), >, 0);
  /* the lane: the joint most apart (none selected), its largest value the list's */
  g_assert_true (gtk_widget_get_visible (window->diff_lane));
  most = curve_max (window, &joint);
  g_assert_cmpstr (joint, ==, worst->name);
  g_assert_cmpfloat (fabs (most - worst->rotation), <, 1e-9);

  /* a row selects its joint and moves the playhead: ghost and lane follow */
  sequin_compare_window_activate_row (compare, 0);
  sequin_test_flush ();
  time = sequin_timeline_get_time (SEQUIN_TIMELINE (window->timeline));
  g_assert_cmpfloat (fabs (time - worst->rotation_time), <, 1e-9);
  assert_ghost_at (window, other, time);
  sequin_preview_get_reference (window->preview, &(gsize) { 0 }, &selected);
  g_assert_cmpint (selected, ==, sq_clip_find_joint (other, worst->name));
  g_assert_cmpfloat (fabs (sequin_diff_lane_value_at (SEQUIN_DIFF_LANE (window->diff_lane), time) - worst->rotation),
                     <, 1e-9);

  /* another joint selected: the lane shows it */
  {
    const char *row = sequin_compare_window_get_row_text (compare, 1);
    g_autofree char *first = g_strndup (row, strcspn (row, ":"));
    gssize j = sq_clip_find_joint (clip, first);

    g_assert_cmpint (j, >=, 0);
    sequin_joint_tree_select_joint (window->joint_tree, (gsize) j);
    sequin_test_flush ();
    curve_max (window, &joint);
    g_assert_cmpstr (joint, ==, first);
    sequin_compare_window_activate_row (compare, 0);
    sequin_test_flush ();
  }

  /* mirroring the document makes it the reference: everything recomputes */
  /* the document takes the edit */
  g_assert_true (sequin_document_apply (document, sq_edit_mirror_new (), &error));
  g_assert_no_error (error);
  sequin_test_flush ();
  SEQUIN_TEST_WAIT_UNTIL (sequin_compare_window_is_current (compare));
  g_assert_cmpstr (sequin_compare_window_get_summary (compare), !=, summary);
  g_assert_true (g_str_has_prefix (sequin_compare_window_get_summary (compare), "Largest difference: rotation "));
  g_assert_cmpstr (sequin_compare_window_get_row_text (compare, 0), !=, row0);
  g_assert_cmpfloat (curve_max (window, &joint), <, 0.01);   /* the file's float32 rounding at most */
  g_assert_cmpuint (ghost_triangles (window), >, 0);

  /* undo: back to the first comparison, to the digit */
  g_assert_true (sequin_document_undo (document));
  sequin_test_flush ();
  SEQUIN_TEST_WAIT_UNTIL (sequin_compare_window_is_current (compare));
  g_assert_cmpstr (sequin_compare_window_get_summary (compare), ==, summary);
  g_assert_cmpstr (sequin_compare_window_get_row_text (compare, 0), ==, row0);
  g_assert_cmpfloat (fabs (curve_max (window, &joint) - worst->rotation), <, 1e-9);
  /* redo: apart no more */
  g_assert_true (sequin_document_redo (document));
  sequin_test_flush ();
  SEQUIN_TEST_WAIT_UNTIL (sequin_compare_window_is_current (compare));
  g_assert_cmpfloat (curve_max (window, &joint), <, 0.01);
  g_assert_true (sequin_document_undo (document));
  sequin_test_flush ();
  SEQUIN_TEST_WAIT_UNTIL (sequin_compare_window_is_current (compare));

  /* the ghost toggle hides it; it comes back */
  g_object_set (window->preview, "show-reference", FALSE, NULL);
  g_assert_cmpuint (ghost_triangles (window), ==, 0);
  g_object_set (window->preview, "show-reference", TRUE, NULL);
  g_assert_cmpuint (ghost_triangles (window), >, 0);

  /* closing stops comparing: no ghost, no lane */
  gtk_window_destroy (GTK_WINDOW (compare));
  g_object_unref (compare);
  sequin_test_flush ();
  g_assert_null (sequin_preview_get_reference (window->preview, &(gsize) { 0 }, NULL));
  g_assert_cmpuint (ghost_triangles (window), ==, 0);
  g_assert_false (gtk_widget_get_visible (window->diff_lane));
  sequin_test_window_destroy (window);
}

/* two formats: the wave sample as binary SEQ against its BVH; the list,
 * ghost and lane pair joints through the joint maps, as `diff` does */
static void
test_compare_across_formats (void)
{
  SequinWindow *window = sequin_test_window_new ();
  g_autofree char *seq = g_build_filename (g_getenv ("SEQUIN_SAMPLE_DIR"), "wave.seq", NULL);
  g_autofree char *bvh = g_build_filename (g_getenv ("SEQUIN_SAMPLE_DIR"), "wave.bvh", NULL);
  g_autoptr(SqClip) other = sequin_test_load_clip (bvh);
  g_autoptr(GError) error = NULL;
  SequinCompareWindow *compare;
  const SqClip *clip;
  const char *joint = NULL;
  gssize selected, current;
  gsize n;
  guint both;

  g_assert_nonnull (other);
  sequin_test_window_open (window, seq);
  gtk_stack_set_visible_child_name (window->view_stack, "preview");
  sequin_test_flush ();
  clip = sequin_test_window_clip (window);
  compare = sequin_compare_window_new (window, other, "wave.bvh");
  SEQUIN_TEST_WAIT_UNTIL (sequin_compare_window_is_current (compare));
  g_object_ref_sink (compare);
  sequin_test_flush ();
  g_assert_cmpuint (sequin_compare_window_get_n_rows (compare), >, 0);

  /* the lane: the joint most apart that both have, named as diff names it */
  for (both = 0; both < sequin_compare_window_get_n_rows (compare); both++)
    if (strstr (sequin_compare_window_get_row_text (compare, both), ": rotation ") != NULL)
      break;
  g_assert_cmpuint (both, <, sequin_compare_window_get_n_rows (compare));
  curve_max (window, &joint);
  g_assert_true (g_str_has_prefix (sequin_compare_window_get_row_text (compare, both), joint));
  /* the ghost: the BVH on its own skeleton; the selected joint's counterpart lit */
  g_assert_nonnull (sequin_preview_get_reference (window->preview, &n, NULL));
  g_assert_cmpuint (n, ==, other->n_joints);
  g_assert_cmpuint (ghost_triangles (window), >, 0);
  sequin_compare_window_activate_row (compare, both);
  sequin_test_flush ();
  current = sequin_joint_tree_get_current_joint (window->joint_tree);
  g_assert_cmpint (current, >=, 0);
  sequin_preview_get_reference (window->preview, &n, &selected);
  g_assert_cmpint (selected, >=, 0);
  g_assert_cmpstr (sq_joint_name_for_scheme (clip->joints[current].name, SQ_JOINT_SCHEME_SL, 0), ==,
                   sq_joint_name_for_scheme (other->joints[selected].name, SQ_JOINT_SCHEME_SL, 0));

  gtk_window_destroy (GTK_WINDOW (compare));
  g_object_unref (compare);
  sequin_test_window_destroy (window);
}

/* Activates the lane's own binding for `keyval` (no modifiers), as a key
 * press would: the shortcut GTK made of gtk_widget_class_add_binding() */
static void
press_key (GtkWidget *widget,
           guint      keyval)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  gboolean found = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && !found; i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)) && !found; j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger)
              && gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval
              && gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == 0)
            {
              g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, widget,
                                                           gtk_shortcut_get_arguments (shortcut)));
              found = TRUE;
            }
        }
    }
  g_assert_true (found);
}

/* the lane's accessible value: the playhead, and the difference there */
static void
assert_lane_value (SequinWindow *window)
{
  SequinTimeline *timeline = SEQUIN_TIMELINE (window->timeline);
  double time = sequin_timeline_get_time (timeline);
  g_autofree char *where = sequin_timeline_describe_time (timeline);
  g_autofree char *text = g_strdup_printf ("%s: %.1f° apart", where,
                                           sequin_diff_lane_value_at (SEQUIN_DIFF_LANE (window->diff_lane), time));
  g_autofree char *now = gtk_test_accessible_check_property (GTK_ACCESSIBLE (window->diff_lane),
                                                              GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, time);
  g_autofree char *value = gtk_test_accessible_check_property (GTK_ACCESSIBLE (window->diff_lane),
                                                                GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, text);

  g_assert_null (now);
  g_assert_null (value);
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              int        *count)
{
  (*count)++;
}

/* a click or drag on the lane moves the playhead to the frame nearest the
 * pointer, as a click on the timeline's ruler does; its keys step it */
static void
test_compare_lane_input (void)
{
  SequinWindow *window = sequin_test_window_new ();
  g_autofree char *path = sequin_test_corpus_path (WALK);
  g_autofree char *other_path = NULL;
  g_autoptr(SqClip) other = NULL;
  g_autoptr(GError) error = NULL;
  SequinCompareWindow *compare;
  SequinTimeline *timeline;
  SequinDiffLane *lane;
  const SqClip *clip;
  double fps, pointer, expected, x, zoom, end;
  int notified = 0;

  sequin_test_window_open (window, path);
  sequin_test_flush ();
  clip = sequin_test_window_clip (window);
  other = mirrored_file (clip, &other_path);
  compare = sequin_compare_window_new (window, other, "walk-mirrored.seq");
  SEQUIN_TEST_WAIT_UNTIL (sequin_compare_window_is_current (compare));
  g_object_ref_sink (compare);
  gtk_window_present (GTK_WINDOW (compare));
  sequin_test_flush ();
  timeline = SEQUIN_TIMELINE (window->timeline);
  lane = SEQUIN_DIFF_LANE (window->diff_lane);
  g_assert_true (gtk_widget_get_visible (window->diff_lane));
  g_assert_true (gtk_widget_get_focusable (window->diff_lane));
  g_assert_cmpfloat (clip->fps, >, 0);
  g_assert_cmpfloat (clip->duration, >, 10 / clip->fps);
  fps = clip->fps;
  sequin_timeline_set_zoom (timeline, 600);
  sequin_timeline_set_time (timeline, 0);
  sequin_test_flush ();
  zoom = sequin_timeline_get_zoom (timeline);

  /* a click 0.3 frame past frame 7: the playhead on frame 7 */
  pointer = 7.3 / fps;
  expected = 7 / fps;
  x = _sequin_timeline_x_for_time (timeline, pointer);
  g_assert_cmpfloat (x, >, _sequin_timeline_lanes_x (timeline));
  g_assert_cmpfloat (x, <, gtk_widget_get_width (window->diff_lane));
  g_signal_connect (timeline, "notify::time", G_CALLBACK (count_notify), &notified);
  _sequin_diff_lane_press (lane, x, 1);
  g_assert_cmpfloat_with_epsilon (sequin_timeline_get_time (timeline), expected, 1e-12);
  g_assert_cmpint (notified, ==, 1);
  g_assert_true (gtk_root_get_focus (gtk_widget_get_root (window->diff_lane)) == window->diff_lane);
  assert_lane_value (window);
  /* the same as a click there on the timeline's ruler */
  sequin_timeline_set_time (timeline, 0);
  _sequin_timeline_press (timeline, 1, x, 10);
  g_assert_cmpfloat (sequin_timeline_get_time (timeline), ==, expected);
  _sequin_diff_lane_press (lane, x, 1);

  /* 0.6 frame past frame 4: frame 5, not 4 */
  _sequin_diff_lane_press (lane, _sequin_timeline_x_for_time (timeline, 4.6 / fps), 1);
  g_assert_cmpfloat_with_epsilon (sequin_timeline_get_time (timeline), 5 / fps, 1e-12);

  /* a drag scrubs from frame to frame, clamped to the clip */
  _sequin_diff_lane_drag_begin (lane, x);
  _sequin_diff_lane_drag_update (lane, 2.4 / fps * zoom);
  g_assert_cmpfloat_with_epsilon (sequin_timeline_get_time (timeline), 10 / fps, 1e-12);
  assert_lane_value (window);
  _sequin_diff_lane_drag_update (lane, -100000);
  g_assert_cmpfloat (sequin_timeline_get_time (timeline), ==, 0);
  _sequin_diff_lane_drag_update (lane, 100000);
  end = sequin_timeline_get_time (timeline);
  g_assert_cmpfloat (end, >, clip->duration - 1 / fps);
  /* the last frame, as a drag on the ruler gives */
  _sequin_timeline_drag_begin (timeline, x, 10);
  _sequin_timeline_drag_update (timeline, -100000, 0);
  g_assert_cmpfloat (sequin_timeline_get_time (timeline), ==, 0);
  _sequin_timeline_drag_update (timeline, 100000, 0);
  g_assert_cmpfloat (sequin_timeline_get_time (timeline), ==, end);

  /* the name column is not on the time axis: nothing moves */
  notified = 0;
  _sequin_diff_lane_press (lane, 2, 1);
  _sequin_diff_lane_drag_begin (lane, 2);
  _sequin_diff_lane_drag_update (lane, 200);
  g_assert_cmpint (notified, ==, 0);

  /* the timeline's keys: Home, Right a frame, End, Left a frame */
  press_key (window->diff_lane, GDK_KEY_Home);
  g_assert_cmpfloat (sequin_timeline_get_time (timeline), ==, 0);
  press_key (window->diff_lane, GDK_KEY_Right);
  press_key (window->diff_lane, GDK_KEY_Right);
  g_assert_cmpfloat_with_epsilon (sequin_timeline_get_time (timeline), 2 / fps, 1e-12);
  assert_lane_value (window);
  press_key (window->diff_lane, GDK_KEY_Left);
  g_assert_cmpfloat_with_epsilon (sequin_timeline_get_time (timeline), 1 / fps, 1e-12);
  press_key (window->diff_lane, GDK_KEY_End);
  g_assert_cmpfloat (sequin_timeline_get_time (timeline), >=, clip->duration - 1e-9);

  gtk_window_destroy (GTK_WINDOW (compare));
  g_object_unref (compare);
  sequin_test_window_destroy (window);
}

/* the y in the lane of `joint`'s row in the heat, the middle of its span */
static double
heat_row_y (SequinDiffLane *lane,
            double          x,
            const char     *joint)
{
  double first = -1, last = -1;

  for (double y = 0; y < gtk_widget_get_height (GTK_WIDGET (lane)); y += 0.25)
    {
      const char *name;

      if (sequin_diff_lane_heat_at (lane, x, y, &name, NULL, NULL) && g_strcmp0 (name, joint) == 0)
        {
          if (first < 0)
            first = y;
          last = y;
        }
    }
  g_assert_cmpfloat (first, >=, 0);
  return (first + last) / 2;
}

/* The lane's heat: a row per joint in both, each cell the core's peak
 * (sq_diff_pair_diff) for that joint in that frame's span; a click on a
 * row selects its joint and moves the playhead there */
static void
test_compare_heat (void)
{
  SequinWindow *window = sequin_test_window_new ();
  g_autofree char *path = sequin_test_corpus_path (WALK);
  g_autofree char *other_path = NULL;
  g_autoptr(SqClip) other = NULL;
  g_autoptr(SqDiffPair) pair = NULL;
  g_autoptr(SqDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  SequinCompareWindow *compare;
  SequinTimeline *timeline;
  SequinDiffLane *lane;
  const SqJointDiff *worst = NULL;
  const SqClip *clip;
  guint rows = 0, checked = 0;
  double end, x, y;
  gsize n_columns;

  sequin_test_window_open (window, path);
  sequin_test_flush ();
  clip = sequin_test_window_clip (window);
  other = mirrored_file (clip, &other_path);
  compare = sequin_compare_window_new (window, other, "walk-mirrored.seq");
  g_object_ref_sink (compare);
  gtk_window_present (GTK_WINDOW (compare));
  SEQUIN_TEST_WAIT_UNTIL (sequin_compare_window_is_current (compare));
  sequin_test_flush ();
  timeline = SEQUIN_TIMELINE (window->timeline);
  lane = SEQUIN_DIFF_LANE (window->diff_lane);
  sequin_timeline_set_zoom (timeline, 400);
  sequin_test_flush ();

  /* the core's numbers: a column a frame */
  end = MAX (clip->duration, other->duration);
  n_columns = (gsize) (floor (end * clip->fps + 1e-6) + 1);
  pair = sq_diff_pair_new (clip, other, &error);
  g_assert_no_error (error);
  diff = sq_diff_pair_diff (pair, n_columns);
  for (guint i = 0; i < diff->joints->len; i++)
    {
      const SqJointDiff *d = &g_array_index (diff->joints, SqJointDiff, i);

      if (d->peaks == NULL)
        continue;
      rows++;
      if (worst == NULL || d->rotation > worst->rotation)
        worst = d;
      /* a few frames of each joint: the cell under the pointer is the peak of its span */
      for (gsize c = 0; c < n_columns; c += MAX (n_columns / 5, 1))
        {
          const char *name = NULL;
          double degrees = -1, time = -1;

          x = _sequin_timeline_x_for_time (timeline, (c + 0.5) * end / n_columns);
          if (x >= gtk_widget_get_width (window->diff_lane))
            continue;
          y = heat_row_y (lane, x, d->name);
          g_assert_true (sequin_diff_lane_heat_at (lane, x, y, &name, &time, &degrees));
          g_assert_cmpstr (name, ==, d->name);
          g_assert_cmpfloat (fabs (degrees - d->peaks[c]), <, 1e-9);
          checked++;
        }
    }
  g_assert_cmpuint (rows, ==, clip->n_joints);
  g_assert_cmpuint (checked, >=, rows);
  g_assert_cmpfloat (worst->rotation, >, 10);

  /* above the heat (the curve) and in the name column: no joint */
  g_assert_false (sequin_diff_lane_heat_at (lane, _sequin_timeline_x_for_time (timeline, 0.1), 1, NULL, NULL, NULL));
  g_assert_false (sequin_diff_lane_heat_at (lane, 2, heat_row_y (lane, _sequin_timeline_x_for_time (timeline, 0.1),
                                                                 worst->name), NULL, NULL, NULL));

  /* a click on the worst joint's row where it parts most: that joint, that frame */
  sequin_timeline_set_time (timeline, 0);
  x = _sequin_timeline_x_for_time (timeline, worst->rotation_time);
  g_assert_cmpfloat (x, <, gtk_widget_get_width (window->diff_lane));
  _sequin_diff_lane_press (lane, x, heat_row_y (lane, x, worst->name));
  sequin_test_flush ();
  g_assert_cmpint (sequin_joint_tree_get_current_joint (window->joint_tree), ==, sq_clip_find_joint (clip, worst->name));
  g_assert_cmpfloat_with_epsilon (sequin_timeline_get_time (timeline), round (worst->rotation_time * clip->fps) / clip->fps,
                                  1e-9);
  {
    const char *joint = NULL;

    sequin_diff_lane_get_curve (lane, &(gsize) { 0 }, &joint);
    g_assert_cmpstr (joint, ==, worst->name);
  }

  /* an edit that makes them one: the heat cools */
  g_assert_true (sequin_document_apply (sequin_window_get_document (window), sq_edit_mirror_new (), &error));
  SEQUIN_TEST_WAIT_UNTIL (sequin_compare_window_is_current (compare));
  {
    double degrees = -1;

    y = heat_row_y (lane, x, worst->name);
    g_assert_true (sequin_diff_lane_heat_at (lane, x, y, NULL, NULL, &degrees));
    g_assert_cmpfloat (degrees, <, 0.01);
  }

  /* closing: no heat */
  gtk_window_destroy (GTK_WINDOW (compare));
  g_object_unref (compare);
  sequin_test_flush ();
  g_assert_false (sequin_diff_lane_heat_at (lane, x, y, NULL, NULL, NULL));
  sequin_test_window_destroy (window);
}

/* a slow wave, and its mirror image */
static double
wave (guint key)
{
  return 0.5 * sin (key * 0.01);
}

static double
wave_mirrored (guint key)
{
  return -wave (key);
}

static void
assert_rows_are (SequinCompareWindow *compare,
                 const SqClip        *clip,
                 const SqClip        *other)
{
  g_autoptr(SqDiff) diff = sq_diff_clips (clip, other, NULL);
  g_autofree char *largest = g_strdup_printf ("Largest difference: rotation %.3g°, translation %.3g.", diff->rotation,
                                              diff->translation);

  g_assert_cmpuint (sequin_compare_window_get_n_rows (compare), ==, diff->joints->len);
  g_assert_true (g_str_has_prefix (sequin_compare_window_get_summary (compare), largest));
}

/* The comparison runs on a worker: an edit returns at once and marks the
 * comparison not current; edits while it runs give one more run, of the
 * document as it is then; what is shown in the end is the core's
 * comparison of the edited clip */
static void
test_compare_worker (void)
{
  SequinWindow *window = sequin_test_window_new ();
  g_autoptr(SqClip) built = sequin_test_turning_clip (4, 60000, wave);
  g_autoptr(SqClip) other = sequin_test_turning_clip (4, 60000, wave_mirrored);
  SequinCompareWindow *compare;
  SequinDocument *document;

  sequin_test_window_open_clip (window, built, "compare-long.seq");
  document = sequin_window_get_document (window);

  compare = sequin_compare_window_new (window, other, "other.seq");
  g_object_ref_sink (compare);
  g_assert_false (sequin_compare_window_is_current (compare));
  SEQUIN_TEST_WAIT_UNTIL (sequin_compare_window_is_current (compare));
  assert_rows_are (compare, sequin_document_get_clip (document), other);

  /* three edits at once: not current until the runs after them are done */
  for (int i = 0; i < 3; i++)
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.invert-xz-all", NULL));
  g_assert_false (sequin_compare_window_is_current (compare));
  SEQUIN_TEST_WAIT_UNTIL (sequin_compare_window_is_current (compare));
  assert_rows_are (compare, sequin_document_get_clip (document), other);
  g_assert_true (g_str_has_prefix (sequin_compare_window_get_row_text (compare, 0), "pelvis: rotation "));

  /* closed while a worker runs: the worker ends, nothing is shown */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.invert-xz-all", NULL));
  gtk_window_destroy (GTK_WINDOW (compare));
  g_object_unref (compare);
  /* once the worker has ended (it may take a while on a busy machine) */
  SEQUIN_TEST_WAIT_UNTIL (window->compare == NULL);
  sequin_test_settle (100);
  g_assert_null (window->compare);
  g_assert_false (gtk_widget_get_visible (window->diff_lane));
  sequin_test_window_destroy (window);
}

static void
got_result (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GtkWidget *
find_error_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* not ours */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return GTK_WIDGET (window);
    }
  return NULL;
}

/* Compare With… on files: read on a worker, then the comparison; a
 * second one replaces the first; a file that cannot be read says why;
 * another document in the window is compared in its turn */
static void
test_compare_open_file (void)
{
  SequinWindow *window = sequin_test_window_new ();
  g_autofree char *path = sequin_test_corpus_path (WALK);
  g_autofree char *other_path = NULL;
  g_autofree char *bad_path = g_build_filename (sequin_test_tmpdir (), "not-an-animation.seq", NULL);
  g_autoptr(SqClip) other = NULL;
  g_autoptr(GFile) other_file = NULL;
  g_autoptr(GFile) bad_file = g_file_new_for_path (bad_path);
  g_autoptr(SequinDocument) mirrored = sequin_document_new ();
  SequinCompareWindow *first, *second;
  GtkWidget *dialog;
  const SqClip *clip;
  g_autoptr(GAsyncResult) loaded = NULL;

  sequin_test_window_open (window, path);
  sequin_test_flush ();
  clip = sequin_test_window_clip (window);
  other = mirrored_file (clip, &other_path);
  other_file = g_file_new_for_path (other_path);

  sequin_compare_window_open_file (window, other_file);
  SEQUIN_TEST_WAIT_UNTIL (window->compare != NULL && sequin_compare_window_is_current (window->compare));
  first = g_object_ref (window->compare);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (first)), ==, "Compared With walk-mirrored.seq");
  assert_rows_are (first, clip, other);
  g_assert_nonnull (sequin_preview_get_reference (window->preview, &(gsize) { 0 }, NULL));

  /* again: the new one replaces it */
  sequin_compare_window_open_file (window, other_file);
  SEQUIN_TEST_WAIT_UNTIL (window->compare != NULL && window->compare != first
                          && sequin_compare_window_is_current (window->compare));
  second = window->compare;
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (first)));
  g_object_unref (first);
  assert_rows_are (second, clip, other);

  /* another document in the window (here the mirrored file itself): compared in its turn */
  sequin_document_load_async (mirrored, other_file, SEQUIN_LOAD_DEFAULT, NULL, got_result, &loaded);
  SEQUIN_TEST_WAIT_UNTIL (loaded != NULL);
  g_assert_true (sequin_document_load_finish (mirrored, loaded, NULL));
  sequin_window_set_document (window, mirrored);
  SEQUIN_TEST_WAIT_UNTIL (sequin_compare_window_is_current (second));
  g_assert_true (g_str_has_prefix (sequin_compare_window_get_summary (second),
                                   "Largest difference: rotation 0°, translation 0."));

  /* a file that is no animation: an error, no comparison */
  g_assert_true (g_file_set_contents (bad_path, "not an animation", -1, NULL));
  sequin_compare_window_open_file (window, bad_file);
  SEQUIN_TEST_WAIT_UNTIL (find_error_dialog () != NULL);
  dialog = find_error_dialog ();
  {
    g_autofree char *text = NULL;
    g_autofree char *secondary = NULL;

    g_object_get (dialog, "text", &text, "secondary-text", &secondary, NULL);
    g_assert_cmpstr (text, ==, "Could Not Compare");
    g_assert_nonnull (strstr (secondary, "not a binary SEQ"));
  }
  g_assert_true (window->compare == second);
  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (second));
  sequin_test_flush ();
  g_assert_null (window->compare);
  sequin_test_window_destroy (window);
}

/* the core's comparison of take `a` of `path` with its take `b` */
static SqDiff *
diff_of_takes (const char *path,
               guint       a,
               guint       b)
{
  g_autoptr(GBytes) bytes = sequin_test_read_bytes (path);
  SqLoadOptions options = { 0 };
  g_autoptr(SqClip) first = NULL;
  g_autoptr(SqClip) second = NULL;

  options.take = a;
  first = sq_load_bytes (bytes, path, NULL, &options, NULL);
  options.take = b;
  second = sq_load_bytes (bytes, path, NULL, &options, NULL);
  g_assert_true (first != NULL && second != NULL);
  return sq_diff_clips (first, second, NULL);
}

/* A file of several animation sets compared with: a chooser of its sets;
 * another set is read on a worker and compared, the ghost its skeleton */
static void
test_compare_take (void)
{
  SequinWindow *window = sequin_test_window_new ();
  g_autofree char *path = sequin_test_corpus_path ("dx-anim/Testwuson.X");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SqDiff) diff = diff_of_takes (path, 0, 2);
  g_autofree char *largest = g_strdup_printf ("Largest difference: rotation %.3g°, translation %.3g.", diff->rotation,
                                              diff->translation);
  g_autoptr(SqClip) third = NULL;
  SequinCompareWindow *compare;
  GListModel *sets;
  gsize n;

  sequin_test_window_open (window, path);
  sequin_compare_window_open_file (window, file);
  SEQUIN_TEST_WAIT_UNTIL (window->compare != NULL && sequin_compare_window_is_current (window->compare));
  compare = g_object_ref (window->compare);
  g_assert_true (g_str_has_prefix (sequin_compare_window_get_summary (compare),
                                   "Largest difference: rotation 0°, translation 0."));
  /* the chooser: the file's three sets, the first compared with */
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_parent (GTK_WIDGET (sequin_compare_window_get_take_chooser (compare)))));
  sets = gtk_drop_down_get_model (sequin_compare_window_get_take_chooser (compare));
  g_assert_cmpuint (g_list_model_get_n_items (sets), ==, 3);
  {
    g_autoptr(GtkStringObject) item = g_list_model_get_item (sets, 1);

    g_assert_cmpstr (gtk_string_object_get_string (item), ==, "Set 2: Wuson_Walk");
  }
  g_assert_cmpuint (gtk_drop_down_get_selected (sequin_compare_window_get_take_chooser (compare)), ==, 0);

  /* set 2, then at once set 3: in the end, set 3 is compared with */
  gtk_drop_down_set_selected (sequin_compare_window_get_take_chooser (compare), 1);
  gtk_drop_down_set_selected (sequin_compare_window_get_take_chooser (compare), 2);
  g_assert_false (sequin_compare_window_is_current (compare));
  SEQUIN_TEST_WAIT_UNTIL (sequin_compare_window_is_current (compare)
                          && g_str_has_prefix (sequin_compare_window_get_summary (compare), largest));
  g_assert_cmpuint (sequin_compare_window_get_n_rows (compare), ==, diff->joints->len);
  {
    g_autoptr(GBytes) bytes = sequin_test_read_bytes (path);
    SqLoadOptions options = { .take = 2 };

    third = sq_load_bytes (bytes, path, NULL, &options, NULL);
  }
  g_assert_nonnull (sequin_preview_get_reference (window->preview, &n, NULL));
  g_assert_cmpuint (n, ==, third->n_joints);
  gtk_window_destroy (GTK_WINDOW (compare));
  g_object_unref (compare);

  /* a clip given, not a file: no chooser (nothing to read the sets from) */
  compare = sequin_compare_window_new (window, sequin_test_window_clip (window), "itself");
  g_object_ref_sink (compare);
  SEQUIN_TEST_WAIT_UNTIL (sequin_compare_window_is_current (compare));
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_parent (GTK_WIDGET (sequin_compare_window_get_take_chooser (compare)))));
  gtk_window_destroy (GTK_WINDOW (compare));
  g_object_unref (compare);
  sequin_test_window_destroy (window);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare/follows-the-document", test_compare_follows);
  g_test_add_func ("/compare/across-formats", test_compare_across_formats);
  g_test_add_func ("/compare/lane-input", test_compare_lane_input);
  g_test_add_func ("/compare/heat", test_compare_heat);
  g_test_add_func ("/compare/worker", test_compare_worker);
  g_test_add_func ("/compare/open-file", test_compare_open_file);
  g_test_add_func ("/compare/take", test_compare_take);
  return g_test_run ();
}
