/* test-layers.c: animations played together, combined per joint as the
 * Second Life viewer combines them (sq-layers.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "test-utils.h"

/* A .anim (written and read back) that turns each joint by `degrees` about
 * Z, at base priority `priority`, with no ease unless given */
static SqClip *
anim (const char * const *joints, double degrees, gint32 priority, double ease_in, double ease_out)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  g_autoptr(GBytes) bytes = NULL;
  double h = degrees * G_PI / 360.0;

  clip->duration = 4.0;
  for (guint i = 0; joints[i] != NULL; i++)
    {
      SqJoint *joint = sq_clip_add_joint (clip, joints[i]);

      for (double t = 0; t <= 4.0; t += 4.0)
        {
          SqKey *k = sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], t);
          k->v[0] = cos (h);
          k->v[3] = sin (h);
        }
    }
  sq_props_set (clip->extra, "priority", g_variant_new_int32 (priority));
  sq_props_set (clip->extra, "ease-in", g_variant_new_double (ease_in));
  sq_props_set (clip->extra, "ease-out", g_variant_new_double (ease_out));
  sq_props_set (clip->extra, "loop", g_variant_new_int32 (1));
  sq_props_set (clip->extra, "loop-in", g_variant_new_double (0));
  sq_props_set (clip->extra, "loop-out", g_variant_new_double (4.0));
  bytes = tu_save (clip, "sl-anim", NULL);
  return tu_load_ok (bytes);
}

static const SqLayerJoint *
joint_of (GArray *joints, const char *name)
{
  for (guint i = 0; i < joints->len; i++)
    if (strcmp (g_array_index (joints, SqLayerJoint, i).joint, name) == 0)
      return &g_array_index (joints, SqLayerJoint, i);
  g_assert_not_reached ();
  return NULL;
}

static double
z_degrees (const SqLayerJoint *j)
{
  return 2 * atan2 (j->rotation[3], j->rotation[0]) * 180 / G_PI;
}

/* The pose (priority 4 on the arms, 2 elsewhere) against an AO stand at 3:
 * the pose keeps its arms and loses its head */
static void
test_priorities (void)
{
  static const char * const stand_joints[] = { "mPelvis", "mHead", "mShoulderLeft", "mTail1", NULL };
  static const char * const pose_joints[] = { "mHead", "mShoulderLeft", "mShoulderRight", NULL };
  g_autoptr(SqClip) stand = anim (stand_joints, 10, 3, 0, 0);
  g_autoptr(SqClip) pose = anim (pose_joints, 50, 2, 0, 0);
  g_autoptr(SqLayers) layers = sq_layers_new ();
  g_autoptr(GArray) joints = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *why_shoulder = NULL, *why_head = NULL, *why_tail = NULL;
  const SqLayerJoint *j;

  sq_props_set (pose->joints[sq_clip_find_joint (pose, "mShoulderLeft")].extra, "priority", g_variant_new_int32 (4));
  g_assert_true (sq_layers_add (layers, stand, "stand.anim", 0, &error));
  g_assert_true (sq_layers_add (layers, pose, "pose.anim", 0, &error));
  g_assert_no_error (error);
  joints = sq_layers_resolve (layers, 1.0);
  /* every joint any of them animates, in skeleton order */
  g_assert_cmpuint (joints->len, ==, 5);
  g_assert_cmpstr (g_array_index (joints, SqLayerJoint, 0).joint, ==, "mPelvis");

  j = joint_of (joints, "mHead");
  g_assert_cmpint (j->winner, ==, 0);
  g_assert_cmpint (j->reason, ==, SQ_LAYER_PRIORITY);
  g_assert_cmpfloat_with_epsilon (z_degrees (j), 10, 0.01);
  why_head = sq_layers_explain (layers, j);
  g_assert_cmpstr (why_head, ==, "(priority 3 over pose.anim's 2)");

  j = joint_of (joints, "mShoulderLeft");
  g_assert_cmpint (j->winner, ==, 1);
  g_assert_true (j->joint_priority);
  g_assert_cmpfloat_with_epsilon (z_degrees (j), 50, 0.01);
  why_shoulder = sq_layers_explain (layers, j);
  g_assert_cmpstr (why_shoulder, ==, "(joint priority 4 over stand.anim's 3)");

  j = joint_of (joints, "mTail1");
  g_assert_cmpint (j->winner, ==, 0);
  g_assert_cmpint (j->reason, ==, SQ_LAYER_ONLY);
  why_tail = sq_layers_explain (layers, j);
  g_assert_cmpstr (why_tail, ==, "(only it moves the joint)");
  g_assert_cmpint (joint_of (joints, "mShoulderRight")->winner, ==, 1);
}

/* Equal priority: the one started last wins; before it starts the other */
static void
test_started_last (void)
{
  static const char * const arm[] = { "mElbowLeft", NULL };
  g_autoptr(SqClip) a = anim (arm, 20, 3, 0, 0);
  g_autoptr(SqClip) b = anim (arm, 60, 3, 0, 0);
  g_autoptr(SqLayers) layers = sq_layers_new ();
  g_autoptr(GArray) early = NULL, late = NULL;
  g_autofree char *why = NULL;
  const SqLayerJoint *j;

  g_assert_true (sq_layers_add (layers, b, "b.anim", 0.0, NULL));
  g_assert_true (sq_layers_add (layers, a, "a.anim", 1.0, NULL));
  early = sq_layers_resolve (layers, 0.5);
  g_assert_cmpint (joint_of (early, "mElbowLeft")->winner, ==, 0);
  g_assert_cmpint (joint_of (early, "mElbowLeft")->reason, ==, SQ_LAYER_ONLY);
  late = sq_layers_resolve (layers, 2.0);
  j = joint_of (late, "mElbowLeft");
  g_assert_cmpint (j->winner, ==, 1);
  g_assert_cmpint (j->reason, ==, SQ_LAYER_STARTED_LAST);
  g_assert_cmpfloat_with_epsilon (z_degrees (j), 20, 0.01);
  why = sq_layers_explain (layers, j);
  g_assert_cmpstr (why, ==, "(priority 3 as b.anim's, started last)");
}

/* Easing in: weight cubic_step(t / ease); the lower one fills what is left */
static void
test_ease_blend (void)
{
  static const char * const arm[] = { "mElbowLeft", NULL };
  g_autoptr(SqClip) low = anim (arm, 0, 1, 0, 0);
  g_autoptr(SqClip) high = anim (arm, 40, 4, 1.0, 0.5);
  g_autoptr(SqLayers) layers = sq_layers_new ();
  g_autoptr(GArray) half = NULL, full = NULL;
  const SqLayerJoint *j;
  g_autofree char *why = NULL;

  g_assert_true (sq_layers_add (layers, low, "low.anim", 0.0, NULL));
  g_assert_true (sq_layers_add (layers, high, "high.anim", 0.0, NULL));
  g_assert_cmpfloat_with_epsilon (sq_layers_weight (layers, 1, 0.5), 0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (sq_layers_weight (layers, 1, 0.25), 0.15625, 1e-9);
  half = sq_layers_resolve (layers, 0.5);
  j = joint_of (half, "mElbowLeft");
  g_assert_cmpint (j->winner, ==, 1);
  /* weight 0.5, then the low one's 1: the high one keeps 0.5 of the turn */
  g_assert_cmpfloat_with_epsilon (j->share, 0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (z_degrees (j), 20, 0.5);
  why = sq_layers_explain (layers, j);
  g_assert_cmpstr (why, ==, "(priority 4 over low.anim's 1; easing, 50 % of the joint's turn)");
  full = sq_layers_resolve (layers, 2.0);
  g_assert_cmpfloat_with_epsilon (z_degrees (joint_of (full, "mElbowLeft")), 40, 0.01);
}

/* A clip that does not loop stops at its duration minus its ease out */
static void
test_stops (void)
{
  static const char * const arm[] = { "mElbowLeft", NULL };
  g_autoptr(SqClip) once = anim (arm, 30, 2, 0, 1.0);
  g_autoptr(SqLayers) layers = sq_layers_new ();
  g_autoptr(GArray) after = NULL;
  g_autoptr(SqClip) baked = NULL;

  sq_props_set (once->extra, "loop", g_variant_new_int32 (0));
  g_assert_true (sq_layers_add (layers, once, "once.anim", 0.0, NULL));
  g_assert_cmpfloat_with_epsilon (sq_layers_weight (layers, 0, 3.0), 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (sq_layers_weight (layers, 0, 3.5), 0.5, 1e-9);
  g_assert_cmpfloat (sq_layers_weight (layers, 0, 4.01), ==, 0.0);
  after = sq_layers_resolve (layers, 4.5);
  g_assert_cmpint (joint_of (after, "mElbowLeft")->winner, ==, -1);
  g_assert_cmpint (joint_of (after, "mElbowLeft")->reason, ==, SQ_LAYER_NOT_PLAYING);
  /* the combined motion as a clip: a key a frame */
  baked = sq_layers_bake (layers, 10, 2.0);
  g_assert_cmpuint (baked->n_joints, ==, 1);
  g_assert_cmpuint (baked->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 21);
  g_assert_true (sq_clip_check (baked, NULL));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/layers/priorities", test_priorities);
  g_test_add_func ("/layers/started-last", test_started_last);
  g_test_add_func ("/layers/ease-blend", test_ease_blend);
  g_test_add_func ("/layers/stops", test_stops);
  return g_test_run ();
}
