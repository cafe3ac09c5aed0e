/* test-posing.c: new animations, posing edits, poses and their files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "sq-core.h"
#include "test-utils.h"

static SqClip *
new_clip (const char *world,
          double      duration,
          double      fps)
{
  g_autoptr(GError) error = NULL;
  SqClip *clip = sq_clip_new_for_world (world, duration, fps, &error);

  g_assert_no_error (error);
  g_assert_nonnull (clip);
  g_assert_true (sq_clip_check (clip, NULL));
  return clip;
}

static void
assert_quat (const double *a,
             double        w,
             double        x,
             double        y,
             double        z,
             double        tolerance)
{
  double s = a[0] * w + a[1] * x + a[2] * y + a[3] * z < 0 ? -1 : 1;

  g_assert_cmpfloat_with_epsilon (a[0], s * w, tolerance);
  g_assert_cmpfloat_with_epsilon (a[1], s * x, tolerance);
  g_assert_cmpfloat_with_epsilon (a[2], s * y, tolerance);
  g_assert_cmpfloat_with_epsilon (a[3], s * z, tolerance);
}

static void
axis_angle (double  out[4],
            int     axis,
            double  degrees)
{
  double h = degrees * G_PI / 360.0;

  out[0] = cos (h);
  out[1] = out[2] = out[3] = 0;
  out[1 + axis] = sin (h);
}

static const SqTrack *
rot_track (const SqClip *clip,
           const char   *joint)
{
  gssize j = sq_clip_find_joint (clip, joint);

  g_assert_cmpint (j, >=, 0);
  return &clip->joints[j].tracks[SQ_CHANNEL_ROTATION];
}

/* ---- new ---- */

static void
test_new_worlds (void)
{
  static const struct { const char *world, *format; gsize joints; } cases[] = {
    { "sl", "sl-anim", 26 }, { "sl-bento", "sl-anim", SQ_SL_N_BONES }, { "aw", "seq-binary", 22 },
    { "sims", "sims-cmx", 29 }, { "sims-child", "sims-cmx", 29 }, { "bvh", "bvh", 26 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(SqClip) clip = new_clip (cases[i].world, 2.0, 30);

      g_assert_cmpstr (clip->format->id, ==, cases[i].format);
      g_assert_cmpuint (clip->n_joints, ==, cases[i].joints);
      g_assert_cmpfloat_with_epsilon (clip->duration, 2.0, 1e-9);
      for (gsize j = 0; j < clip->n_joints; j++)
        {
          const SqTrack *t = &clip->joints[j].tracks[SQ_CHANNEL_ROTATION];
          double q[4];

          g_assert_cmpuint (t->n_keys, >=, 2);
          if (!g_str_has_prefix (cases[i].world, "sims"))
            {
              sq_track_sample (t, SQ_CHANNEL_ROTATION, 1.0, q);
              assert_quat (q, 1, 0, 0, 0, 1e-4);
            }
        }
    }
}

static void
test_new_sl_validates (void)
{
  g_autoptr(SqClip) clip = new_clip ("sl-bento", 3.0, 30);
  g_autoptr(GPtrArray) findings = sq_validate (clip, "sl", NULL);

  g_assert_false (sq_findings_have_errors (findings));
}

static void
test_new_bvh_every_frame (void)
{
  g_autoptr(SqClip) clip = new_clip ("bvh", 2.0, 24);
  const SqTrack *t = rot_track (clip, "mShoulderLeft");

  /* 0 .. 2 s at 24 frames a second, packed as read */
  g_assert_cmpuint (t->n_keys, ==, 49);
  g_assert_true (sq_track_is_packed (t));
  g_assert_cmpfloat_with_epsilon (clip->fps, 24, 1e-9);
}

static void
test_new_refused (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_null (sq_clip_new_for_world ("moon", 1, 30, &error));
  tu_assert_mentions (error, "moon");
  g_clear_error (&error);
  g_assert_null (sq_clip_new_for_world ("sl", 0, 30, &error));
  g_assert_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT);
}

/* ---- set rotation / position ---- */

static double check_q[4];

static void
check_bvh_set (const SqClip *before,
               const SqClip *after)
{
  const SqTrack *t = rot_track (after, "mElbowLeft");
  const SqTrack *was = rot_track (before, "mElbowLeft");
  SqKey k = sq_track_key (t, 30);

  /* every frame, only frame 30 changed (a track read as the text's own
   * angles, sq-format-bvh.c, is decoded on its first change; one kept as
   * angles in memory stays packed) */
  g_assert_true (!sq_track_is_packed (t) || t->codec->encode != NULL);
  g_assert_cmpuint (t->n_keys, ==, was->n_keys);
  assert_quat (k.v, check_q[0], check_q[1], check_q[2], check_q[3], 1e-12);
  for (gsize i = 0; i < t->n_keys; i++)
    if (i != 30)
      {
        SqKey a = sq_track_key (t, i), b = sq_track_key (was, i);
        g_assert_cmpmem (&a, sizeof a, &b, sizeof b);
      }
  /* the other joints keep their very records */
  g_assert_true (rot_track (after, "mHead")->packed == rot_track (before, "mHead")->packed);
}

static void
test_set_rotation_bvh (void)
{
  g_autoptr(SqClip) clip = new_clip ("bvh", 2.0, 30);
  g_autoptr(SqEdit) edit = NULL;
  g_autoptr(GBytes) before = tu_save (clip, "bvh", NULL);
  g_autoptr(GBytes) after = NULL;
  g_auto(GStrv) a = NULL;
  g_auto(GStrv) b = NULL;
  int axes[3];
  double angles[3] = { 15, -30, 45 };
  guint lines_differ = 0;

  g_assert_cmpuint (sq_posing_euler_axes (clip, sq_clip_find_joint (clip, "mElbowLeft"), axes), ==, 3);
  g_assert_cmpint (axes[0], ==, 2);   /* Zrotation Xrotation Yrotation */
  g_assert_cmpint (axes[1], ==, 0);
  g_assert_cmpint (axes[2], ==, 1);
  sq_euler_to_quat (angles, axes, 3, check_q);
  edit = sq_edit_set_rotation_new ("mElbowLeft", 1.0 + 1e-4, check_q);
  tu_apply_undo_redo (clip, edit, check_bvh_set);

  g_assert_true (sq_edit_apply (edit, clip, NULL));
  after = tu_save (clip, "bvh", NULL);
  a = g_strsplit (g_bytes_get_data (before, NULL), "\n", -1);
  b = g_strsplit (g_bytes_get_data (after, NULL), "\n", -1);
  g_assert_cmpuint (g_strv_length (a), ==, g_strv_length (b));
  for (guint i = 0; a[i] != NULL; i++)
    if (strcmp (a[i], b[i]) != 0)
      {
        lines_differ++;
        g_assert_nonnull (strstr (b[i], "15.000000 -30.000000 45.000000"));
      }
  g_assert_cmpuint (lines_differ, ==, 1);
}

static void
check_anim_insert (const SqClip *before,
                   const SqClip *after)
{
  const SqTrack *t = rot_track (after, "mShoulderLeft");
  double q[4];

  g_assert_cmpuint (t->n_keys, ==, rot_track (before, "mShoulderLeft")->n_keys + 1);
  g_assert_false (sq_track_is_packed (t));
  g_assert_cmpfloat (sq_track_time (t, 1), ==, 1.0);
  assert_quat (t->keys[1].v, check_q[0], check_q[1], check_q[2], check_q[3], 1e-12);
  /* between keys: slerp from the rest pose */
  sq_track_sample (t, SQ_CHANNEL_ROTATION, 0.5, q);
  axis_angle (check_q, 2, 45);
  assert_quat (q, check_q[0], check_q[1], check_q[2], check_q[3], 1e-9);
  axis_angle (check_q, 2, 90);
  /* untouched joints stay packed */
  g_assert_true (sq_track_is_packed (rot_track (after, "mHead")));
}

static void
test_set_rotation_anim_inserts (void)
{
  g_autoptr(SqClip) clip = new_clip ("sl", 2.0, 30);
  g_autoptr(SqEdit) edit = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SqClip) back = NULL;
  double q[4];

  axis_angle (check_q, 2, 90);
  edit = sq_edit_set_rotation_new ("mShoulderLeft", 1.0, check_q);
  tu_apply_undo_redo (clip, edit, check_anim_insert);
  g_assert_true (sq_edit_apply (edit, clip, NULL));
  bytes = tu_save (clip, "sl-anim", NULL);
  back = tu_load_ok (bytes);
  sq_track_sample (rot_track (back, "mShoulderLeft"), SQ_CHANNEL_ROTATION, 1.0, q);
  assert_quat (q, check_q[0], check_q[1], check_q[2], check_q[3], 1e-4);
}

static void
check_position (const SqClip *before,
                const SqClip *after)
{
  gssize j = sq_clip_find_joint (after, "mPelvis");
  double v[4];

  sq_track_sample (&after->joints[j].tracks[SQ_CHANNEL_TRANSLATION], SQ_CHANNEL_TRANSLATION, 0.5, v);
  g_assert_cmpfloat (v[0], ==, 0.1);
  g_assert_cmpfloat (v[1], ==, -0.2);
  g_assert_cmpfloat (v[2], ==, 0.3);
}

static void
test_set_position (void)
{
  g_autoptr(SqClip) clip = new_clip ("sl", 2.0, 30);
  double v[3] = { 0.1, -0.2, 0.3 };
  g_autoptr(SqEdit) edit = sq_edit_set_position_new ("mPelvis", 0.5, v);
  g_autoptr(SqEdit) outside = sq_edit_set_position_new ("mPelvis", 3.0, v);
  g_autoptr(SqEdit) nobody = sq_edit_set_position_new ("mNobody", 0.5, v);
  g_autoptr(GError) error = NULL;

  tu_apply_undo_redo (clip, edit, check_position);
  g_assert_false (sq_edit_apply (outside, clip, &error));
  tu_assert_mentions (error, "outside");
  g_clear_error (&error);
  g_assert_false (sq_edit_apply (nobody, clip, &error));
  g_assert_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND);
  g_assert_false (sq_clip_is_modified (clip));
}

/* ---- insert, delete, move keys ---- */

static void
check_insert_all (const SqClip *before,
                  const SqClip *after)
{
  for (gsize j = 0; j < after->n_joints; j++)
    {
      const SqTrack *t = &after->joints[j].tracks[SQ_CHANNEL_ROTATION];
      gssize k = sq_track_find (t, 10.0 / 30.0);
      double was[4];

      g_assert_cmpint (k, >=, 0);
      sq_track_sample (&before->joints[j].tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, 10.0 / 30.0, was);
      g_assert_cmpmem (sq_track_key (t, k).v, sizeof was, was, sizeof was);
    }
}

static void
test_insert_keys (void)
{
  g_autoptr(SqClip) clip = new_clip ("aw", 1.0, 30);
  /* 0.34 s snaps to frame 10 */
  g_autoptr(SqEdit) edit = sq_edit_insert_keys_new (NULL, 0.34);
  g_autoptr(SqEdit) again = sq_edit_insert_keys_new ((const char *[]) { "pelvis", NULL }, 0.0);
  g_autoptr(GError) error = NULL;

  tu_apply_undo_redo (clip, edit, check_insert_all);
  g_assert_false (sq_edit_apply (again, clip, &error));
  g_assert_error (error, SQ_ERROR, SQ_ERROR_EXISTS);
}

static void
check_moved (const SqClip *before,
             const SqClip *after)
{
  const SqTrack *t = rot_track (after, "mShoulderLeft");

  g_assert_cmpuint (t->n_keys, ==, 3);
  g_assert_cmpfloat_with_epsilon (sq_track_time (t, 1), 1.5, 1e-12);
  assert_quat (t->keys[1].v, check_q[0], check_q[1], check_q[2], check_q[3], 1e-12);
}

static void
check_deleted (const SqClip *before,
               const SqClip *after)
{
  g_assert_cmpuint (rot_track (after, "mShoulderLeft")->n_keys, ==, 2);
  g_assert_cmpuint (rot_track (after, "mHead")->n_keys, ==, 1);
}

static void
test_move_and_delete_keys (void)
{
  g_autoptr(SqClip) clip = new_clip ("sl", 2.0, 30);
  g_autoptr(SqEdit) set = NULL;
  g_autoptr(SqEdit) move = NULL;
  g_autoptr(SqEdit) past = NULL;
  g_autoptr(SqEdit) outside = NULL;
  g_autoptr(SqEdit) del = NULL;
  g_autoptr(GError) error = NULL;
  SqKeyRef ref = { "mShoulderLeft", 1.0, 0 };
  SqKeyRef refs[] = { { "mShoulderLeft", 1.5, 0 }, { "mHead", 0.0, 0 } };

  axis_angle (check_q, 0, 30);
  set = sq_edit_set_rotation_new ("mShoulderLeft", 1.0, check_q);
  g_assert_true (sq_edit_apply (set, clip, NULL));
  /* start from the saved file, unmodified */
  {
    g_autoptr(GBytes) bytes = tu_save (clip, "sl-anim", NULL);
    sq_clip_free (clip);
    clip = tu_load_ok (bytes);
  }
  memcpy (check_q, sq_track_key (rot_track (clip, "mShoulderLeft"), 1).v, sizeof check_q);
  /* 0.49 s later snaps to 0.5 s (frame 15 of 30) */
  move = sq_edit_move_keys_new (&ref, 1, 0.49);
  tu_apply_undo_redo (clip, move, check_moved);

  past = sq_edit_move_keys_new (&ref, 1, 1.0);
  g_assert_false (sq_edit_apply (past, clip, &error));
  tu_assert_mentions (error, "neighbour");
  g_clear_error (&error);
  outside = sq_edit_move_keys_new (&ref, 1, -2.0);
  g_assert_false (sq_edit_apply (outside, clip, &error));
  tu_assert_mentions (error, "outside");
  g_clear_error (&error);
  g_assert_false (sq_clip_is_modified (clip));

  g_assert_true (sq_edit_apply (move, clip, NULL));
  del = sq_edit_delete_key_list_new (refs, G_N_ELEMENTS (refs));
  {
    g_autoptr(SqClip) before = sq_clip_copy (clip);
    g_assert_true (sq_edit_apply (del, clip, NULL));
    check_deleted (before, clip);
    sq_edit_undo (del, clip);
    g_assert_true (sq_clip_equal (before, clip));
  }
}

/* ---- many keys at once: a box of keys moved or deleted ---- */

#define MANY_N 300        /* keys of the track, on even frames */
#define MANY_FROM 50      /* the keys moved: MANY_FROM .. MANY_TO - 1 */
#define MANY_TO 250

/* a clip whose mShoulderLeft has MANY_N keys, key k at frame 2k, each
 * turned by k/10 degrees */
static SqClip *
many_keys_clip (void)
{
  SqClip *clip = new_clip ("sl", 2.0 * MANY_N / 30, 30);
  SqTrack *t = (SqTrack *) rot_track (clip, "mShoulderLeft");

  for (gsize k = 0; k < MANY_N; k++)
    {
      gsize at = sq_track_insert (t, 2.0 * k / 30);

      axis_angle (t->keys[at].v, 0, k / 10.0);
    }
  return clip;
}

static void
check_many_moved (const SqClip *before,
                  const SqClip *after)
{
  const SqTrack *b = rot_track (before, "mShoulderLeft");
  const SqTrack *a = rot_track (after, "mShoulderLeft");

  g_assert_cmpuint (a->n_keys, ==, b->n_keys);
  for (gsize k = 0; k < b->n_keys; k++)
    {
      gboolean moved = k >= MANY_FROM && k < MANY_TO;

      g_assert_cmpfloat_with_epsilon (sq_track_time (a, k), sq_track_time (b, k) + (moved ? 1.0 / 30 : 0), 1e-9);
      g_assert_cmpmem (sq_track_key (a, k).v, sizeof (double) * 4, sq_track_key (b, k).v, sizeof (double) * 4);
    }
}

static void
check_many_deleted (const SqClip *before,
                    const SqClip *after)
{
  const SqTrack *b = rot_track (before, "mShoulderLeft");
  const SqTrack *a = rot_track (after, "mShoulderLeft");

  /* every even key went, the odd ones stay in order with their values,
   * then the keys past the made ones (the new clip's last) */
  g_assert_cmpuint (a->n_keys, ==, b->n_keys - MANY_N / 2);
  for (gsize k = 0; k < a->n_keys; k++)
    {
      gsize was = k < MANY_N / 2 ? 2 * k + 1 : k + MANY_N / 2;

      g_assert_cmpfloat (sq_track_time (a, k), ==, sq_track_time (b, was));
      g_assert_cmpmem (sq_track_key (a, k).v, sizeof (double) * 4, sq_track_key (b, was).v, sizeof (double) * 4);
    }
}

static void
test_move_and_delete_many (void)
{
  g_autoptr(SqClip) clip = many_keys_clip ();
  g_autofree SqKeyRef *refs = g_new0 (SqKeyRef, MANY_N);
  g_autoptr(SqEdit) move = NULL;
  g_autoptr(SqEdit) del = NULL;

  g_assert_false (sq_clip_is_modified (clip));   /* keys made, not edited */
  for (gsize k = MANY_FROM; k < MANY_TO; k++)
    refs[k - MANY_FROM] = (SqKeyRef) { "mShoulderLeft", 2.0 * k / 30, 0 };
  move = sq_edit_move_keys_new (refs, MANY_TO - MANY_FROM, 1.0 / 30);
  tu_apply_undo_redo (clip, move, check_many_moved);

  for (gsize k = 0; k < MANY_N / 2; k++)
    refs[k] = (SqKeyRef) { "mShoulderLeft", 2.0 * (2 * k) / 30, 0 };
  del = sq_edit_delete_key_list_new (refs, MANY_N / 2);
  tu_apply_undo_redo (clip, del, check_many_deleted);
}

static void
test_move_bvh_refused (void)
{
  g_autoptr(SqClip) clip = new_clip ("bvh", 1.0, 30);
  SqKeyRef ref = { "mHead", 0.5, 0 };
  g_autoptr(SqEdit) move = sq_edit_move_keys_new (&ref, 1, 0.1);
  g_autoptr(GError) error = NULL;

  g_assert_false (sq_edit_apply (move, clip, &error));
  tu_assert_mentions (error, "neighbour");
  g_assert_true (sq_track_is_packed (rot_track (clip, "mHead")));
}

/* ---- poses ---- */

static void
check_flipped (const SqClip *before,
               const SqClip *after)
{
  double q[4];

  /* Second Life: Y is the lateral axis; a reflection keeps w and y and
   * negates x and z */
  sq_track_sample (rot_track (after, "mShoulderRight"), SQ_CHANNEL_ROTATION, 1.0, q);
  assert_quat (q, check_q[0], -check_q[1], check_q[2], -check_q[3], 1e-12);
  sq_track_sample (rot_track (after, "mShoulderLeft"), SQ_CHANNEL_ROTATION, 1.0, q);
  assert_quat (q, 1, 0, 0, 0, 1e-12);
}

static void
test_paste_flipped (void)
{
  g_autoptr(SqClip) clip = new_clip ("sl", 2.0, 30);
  g_autoptr(SqJointPose) pose = sq_joint_pose_new ("arm", "sl-anim");
  SqPoseEntry *e = sq_joint_pose_entry (pose, "mShoulderLeft");
  g_autoptr(SqEdit) paste = NULL;
  g_autoptr(SqEdit) plain = NULL;
  double q[4];

  check_q[0] = 0.5;
  check_q[1] = 0.5;
  check_q[2] = -0.5;
  check_q[3] = 0.5;
  memcpy (e->rotation, check_q, sizeof check_q);
  e->has = SQ_POSE_HAS_ROTATION;
  sq_joint_pose_entry (pose, "mTail9")->has = SQ_POSE_HAS_ROTATION;
  paste = sq_edit_paste_pose_new (pose, 1.0, TRUE);
  tu_apply_undo_redo (clip, paste, check_flipped);
  g_assert_true (sq_edit_apply (paste, clip, NULL));
  g_assert_nonnull (strstr (sq_edit_get_report (paste), "mTail9"));
  sq_edit_undo (paste, clip);

  plain = sq_edit_paste_pose_new (pose, 1.0, FALSE);
  g_assert_true (sq_edit_apply (plain, clip, NULL));
  sq_track_sample (rot_track (clip, "mShoulderLeft"), SQ_CHANNEL_ROTATION, 1.0, q);
  assert_quat (q, 0.5, 0.5, -0.5, 0.5, 1e-12);
}

static void
check_symmetric (const SqClip *before,
                 const SqClip *after)
{
  double l[4], r[4];

  sq_track_sample (rot_track (after, "mElbowLeft"), SQ_CHANNEL_ROTATION, 0.5, l);
  sq_track_sample (rot_track (after, "mElbowRight"), SQ_CHANNEL_ROTATION, 0.5, r);
  assert_quat (r, l[0], -l[1], l[2], -l[3], 1e-12);
}

static void
test_symmetrize (void)
{
  g_autoptr(SqClip) clip = new_clip ("sl", 1.0, 30);
  g_autoptr(SqEdit) set = NULL;
  g_autoptr(SqEdit) sym = NULL;
  g_autoptr(SqEdit) middle = sq_edit_symmetrize_new ((const char *[]) { "mHead", NULL }, 0.5);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  double q[4];

  axis_angle (q, 2, 40);
  set = sq_edit_set_rotation_new ("mElbowLeft", 0.5, q);
  g_assert_true (sq_edit_apply (set, clip, NULL));
  bytes = tu_save (clip, "sl-anim", NULL);
  sq_clip_free (clip);
  clip = tu_load_ok (bytes);
  sym = sq_edit_symmetrize_new ((const char *[]) { "mElbowLeft", NULL }, 0.5);
  tu_apply_undo_redo (clip, sym, check_symmetric);
  g_assert_false (sq_edit_apply (middle, clip, &error));
  tu_assert_mentions (error, "partner");
}

static void
test_pose_text (void)
{
  g_autoptr(SqClip) clip = new_clip ("sl", 1.0, 30);
  gsize joints[] = { 0, 9 };
  g_autoptr(SqJointPose) pose = sq_joint_pose_capture (clip, joints, 2, 0.5, "Hip and shoulder");
  g_autofree char *text = NULL;
  g_autoptr(SqJointPose) back = NULL;
  g_autofree char *again = NULL;
  g_autoptr(GError) error = NULL;
  static const char bad[] = "sequin-pose 1\nname x\nrotation 1 0 zero 0 mHead\n";

  sq_joint_pose_entry (pose, "mPelvis")->position[1] = 0.1;
  text = sq_joint_pose_to_text (pose);
  g_assert_true (g_str_has_prefix (text, "sequin-pose 1\nname Hip and shoulder\nworld sl-anim\n"));
  back = sq_joint_pose_parse (text, strlen (text), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (back->name, ==, "Hip and shoulder");
  g_assert_cmpuint (back->entries->len, ==, 2);
  g_assert_cmpfloat (sq_joint_pose_lookup (back, "mPelvis")->position[1], ==, 0.1);
  g_assert_cmpuint (sq_joint_pose_lookup (back, "mPelvis")->has, ==, SQ_POSE_HAS_ROTATION | SQ_POSE_HAS_POSITION);
  again = sq_joint_pose_to_text (back);
  g_assert_cmpstr (text, ==, again);

  g_assert_null (sq_joint_pose_parse (bad, strlen (bad), &error));
  tu_assert_mentions (error, "line 3, column 14");
  g_clear_error (&error);
  g_assert_null (sq_joint_pose_parse ("POSE", 4, &error));
  tu_assert_mentions (error, "line 1");
}

/* a pose sequence: its text with times reads back the same; a pose file is
 * a sequence of one pose at 0; bad times are refused with their place */
static void
test_sequence_text (void)
{
  g_autoptr(SqClip) clip = new_clip ("sl", 2.0, 30);
  g_autoptr(SqPoseSequence) seq = sq_pose_sequence_new ("Copied keys", "sl-anim");
  g_autoptr(SqPoseSequence) back = NULL;
  g_autoptr(SqPoseSequence) single = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *again = NULL;
  gsize pelvis = (gsize) sq_clip_find_joint (clip, "mPelvis");
  static const char pose[] = "sequin-pose 1\nname p\nrotation 1 0 0 0 mHead\n";
  static const char bad[] = "sequin-pose 1\nname x\ntime -1\nrotation 1 0 0 0 mHead\n";

  g_assert_true (sq_pose_sequence_add_key (seq, 0.5, clip, pelvis, SQ_CHANNEL_TRANSLATION, 1));
  g_assert_true (sq_pose_sequence_add_key (seq, 0, clip, pelvis, SQ_CHANNEL_ROTATION, 0));
  g_assert_cmpuint (seq->times->len, ==, 2);
  g_assert_cmpfloat (g_array_index (seq->times, double, 0), ==, 0);
  text = sq_pose_sequence_to_text (seq);
  g_assert_true (g_str_has_prefix (text, "sequin-pose 1\nname Copied keys\nworld sl-anim\ntime 0\nrotation 1 0 0 0 mPelvis\n"
                                         "time 0.5\nposition "));
  back = sq_pose_sequence_parse (text, strlen (text), &error);
  g_assert_no_error (error);
  again = sq_pose_sequence_to_text (back);
  g_assert_cmpstr (again, ==, text);
  g_assert_cmpuint (sq_joint_pose_lookup (g_ptr_array_index (back->poses, 1), "mPelvis")->has, ==, SQ_POSE_HAS_POSITION);

  single = sq_pose_sequence_parse (pose, strlen (pose), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (single->times->len, ==, 1);
  g_assert_cmpfloat (g_array_index (single->times, double, 0), ==, 0);
  g_assert_null (sq_pose_sequence_parse (bad, strlen (bad), &error));
  tu_assert_mentions (error, "line 3, column 6");
  g_clear_error (&error);
  /* a pose file does not take times */
  g_assert_null (sq_joint_pose_parse (text, strlen (text), &error));
  tu_assert_mentions (error, "line 4");
}

/* Keys named with their channel: only that channel's key is moved or
 * deleted (the timeline's selection), the other channel's at that time
 * stays */
static void
test_channel_keys (void)
{
  g_autoptr(SqClip) clip = new_clip ("sl", 2.0, 30);
  const double v[3] = { 0.1, 0.2, 0.3 };
  double q[4];
  g_autoptr(SqEdit) rot = NULL;
  g_autoptr(SqEdit) pos = NULL;
  g_autoptr(SqEdit) del = NULL;
  g_autoptr(SqEdit) move = NULL;
  SqKeyRef only_rot = { "mPelvis", 1.0, SQ_KEY_REF_CHANNEL (SQ_CHANNEL_ROTATION) };
  SqKeyRef only_pos = { "mPelvis", 1.0, SQ_KEY_REF_CHANNEL (SQ_CHANNEL_TRANSLATION) };
  gssize j = sq_clip_find_joint (clip, "mPelvis");
  const SqTrack *r = &clip->joints[j].tracks[SQ_CHANNEL_ROTATION];
  const SqTrack *t = &clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION];

  axis_angle (q, 1, 30);
  rot = sq_edit_set_rotation_new ("mPelvis", 1.0, q);
  pos = sq_edit_set_position_new ("mPelvis", 1.0, v);
  g_assert_true (sq_edit_apply (rot, clip, NULL));
  g_assert_true (sq_edit_apply (pos, clip, NULL));
  g_assert_cmpint (sq_track_find (r, 1.0), >=, 0);
  g_assert_cmpint (sq_track_find (t, 1.0), >=, 0);
  {
    g_autoptr(SqClip) before = sq_clip_copy (clip);

    del = sq_edit_delete_key_list_new (&only_rot, 1);
    g_assert_true (sq_edit_apply (del, clip, NULL));
    g_assert_cmpint (sq_track_find (r, 1.0), <, 0);
    g_assert_cmpint (sq_track_find (t, 1.0), >=, 0);
    sq_edit_undo (del, clip);
    g_assert_true (sq_clip_equal (before, clip));

    move = sq_edit_move_keys_new (&only_pos, 1, 0.2);
    g_assert_true (sq_edit_apply (move, clip, NULL));
    g_assert_cmpint (sq_track_find (r, 1.0), >=, 0);
    g_assert_cmpint (sq_track_find (t, 1.0), <, 0);
    g_assert_cmpint (sq_track_find (t, 36 / 30.0), >=, 0);
    sq_edit_undo (move, clip);
    g_assert_true (sq_clip_equal (before, clip));
  }
}

static void
check_keys_pasted (const SqClip *before,
                   const SqClip *after)
{
  const SqTrack *left = rot_track (after, "mShoulderLeft");
  const SqTrack *right = rot_track (after, "mShoulderRight");
  double a[4], b[4];

  /* the left shoulder's keys at 0.5 and 1 s, flipped onto the right at
   * 1 and 1.5 s: Second Life's mirror keeps w and y, negates x and z */
  for (guint i = 0; i < 2; i++)
    {
      gssize k = sq_track_find (right, 1.0 + 0.5 * i);

      g_assert_cmpint (k, >=, 0);
      memcpy (a, sq_track_key (left, 1 + i).v, sizeof a);
      memcpy (b, sq_track_key (right, (gsize) k).v, sizeof b);
      assert_quat (b, a[0], -a[1], a[2], -a[3], 1e-12);
    }
  g_assert_false (sq_clip_equal (before, after));
}

static void
test_paste_keys (void)
{
  g_autoptr(SqClip) clip = new_clip ("sl", 2.0, 30);
  g_autoptr(SqPoseSequence) keys = sq_pose_sequence_new ("", "sl-anim");
  g_autoptr(SqEdit) flipped = NULL;
  g_autoptr(SqEdit) outside = NULL;
  g_autoptr(GError) error = NULL;
  gsize left = (gsize) sq_clip_find_joint (clip, "mShoulderLeft");

  for (guint i = 1; i <= 2; i++)
    {
      double q[4];
      g_autoptr(SqEdit) set = NULL;

      axis_angle (q, 2, 20.0 * i);
      set = sq_edit_set_rotation_new ("mShoulderLeft", 0.5 * i, q);
      g_assert_true (sq_edit_apply (set, clip, NULL));
    }
  /* start from the saved file, unmodified */
  {
    g_autoptr(GBytes) bytes = tu_save (clip, "sl-anim", NULL);
    sq_clip_free (clip);
    clip = tu_load_ok (bytes);
  }
  g_assert_true (sq_pose_sequence_add_key (keys, 0, clip, left, SQ_CHANNEL_ROTATION, 1));
  g_assert_true (sq_pose_sequence_add_key (keys, 0.5, clip, left, SQ_CHANNEL_ROTATION, 2));
  flipped = sq_edit_paste_keys_new (keys, 1.0, TRUE);
  tu_apply_undo_redo (clip, flipped, check_keys_pasted);
  /* the last key would be at 2.5 s, past the end: refused, nothing done */
  outside = sq_edit_paste_keys_new (keys, 2.0, FALSE);
  g_assert_false (sq_edit_apply (outside, clip, &error));
  tu_assert_mentions (error, "outside");
}

static void
test_hand_presets (void)
{
  const char *dir = g_getenv ("SEQUIN_POSES");
  g_autoptr(GDir) d = NULL;
  g_autoptr(SqClip) clip = new_clip ("sl-bento", 1.0, 30);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(SqJointPose) pose = NULL;
      g_autoptr(SqEdit) paste = NULL;
      g_autoptr(GError) error = NULL;

      if (!g_str_has_suffix (name, ".pose"))
        continue;
      bytes = tu_read (path);
      pose = sq_joint_pose_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
      g_assert_no_error (error);
      g_assert_cmpuint (pose->entries->len, ==, 15);   /* five fingers, three bones each */
      paste = sq_edit_paste_pose_new (pose, 0.5, FALSE);
      g_assert_true (sq_edit_apply (paste, clip, &error));
      g_assert_null (sq_edit_get_report (paste));
      sq_edit_undo (paste, clip);
      n++;
    }
  g_assert_cmpuint (n, >=, 4);
}

static void
test_psl_library (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "sims", "wave-v5.psl", NULL);
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autoptr(GPtrArray) poses = sq_joint_pose_library_from_clip (clip);
  GVariant *names = sq_props_get (clip->extra, "pose-names");
  const char *first;

  g_assert_nonnull (names);
  g_assert_cmpuint (poses->len, ==, g_variant_n_children (names));
  g_variant_get_child (names, 0, "&s", &first);
  g_assert_cmpstr (((SqJointPose *) poses->pdata[0])->name, ==, first);
  g_assert_cmpuint (((SqJointPose *) poses->pdata[0])->entries->len, ==, 29);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/posing/new/worlds", test_new_worlds);
  g_test_add_func ("/posing/new/sl-validates", test_new_sl_validates);
  g_test_add_func ("/posing/new/bvh-every-frame", test_new_bvh_every_frame);
  g_test_add_func ("/posing/new/refused", test_new_refused);
  g_test_add_func ("/posing/set-rotation/bvh-stays-packed", test_set_rotation_bvh);
  g_test_add_func ("/posing/set-rotation/anim-inserts", test_set_rotation_anim_inserts);
  g_test_add_func ("/posing/set-position", test_set_position);
  g_test_add_func ("/posing/insert-keys", test_insert_keys);
  g_test_add_func ("/posing/move-and-delete-keys", test_move_and_delete_keys);
  g_test_add_func ("/posing/move-bvh-refused", test_move_bvh_refused);
  g_test_add_func ("/posing/move-and-delete-many", test_move_and_delete_many);
  g_test_add_func ("/posing/paste-flipped", test_paste_flipped);
  g_test_add_func ("/posing/symmetrize", test_symmetrize);
  g_test_add_func ("/posing/pose-text", test_pose_text);
  g_test_add_func ("/posing/hand-presets", test_hand_presets);
  g_test_add_func ("/posing/sequence-text", test_sequence_text);
  g_test_add_func ("/posing/channel-keys", test_channel_keys);
  g_test_add_func ("/posing/paste-keys", test_paste_keys);
  g_test_add_func ("/posing/psl-library", test_psl_library);
  return g_test_run ();
}
