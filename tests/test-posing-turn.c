/* test-posing-turn.c: the values the preview's gizmo keys (sq_posing_turned,
 * sq_posing_moved) in every world: after the edit, the joint's child has
 * turned about the world's direction around the joint, the joint itself
 * has not moved; a move puts the joint where the world vector says; which
 * joints carry positions, as their worlds say
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "sq-core.h"
#include "test-utils.h"

static SqClip *
new_clip (const char *world)
{
  g_autoptr(GError) error = NULL;
  SqClip *clip = sq_clip_new_for_world (world, 2.0, 30, &error);

  g_assert_no_error (error);
  return clip;
}

/* a joint with a parent and a child at least 5 cm away (its bone) */
static void
pick_joint (const SqPose *pose,
            const double *points,
            gsize         n,
            gsize        *joint,
            gsize        *child)
{
  const gssize *parent = sq_pose_get_parents (pose);

  for (gsize c = n; c-- > 0;)
    {
      gssize j = parent[c];
      const double *a = &points[c * 3], *b;

      if (j < 0 || parent[j] < 0 || parent[parent[j]] < 0)
        continue;
      b = &points[j * 3];
      if (sqrt ((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2])) > 0.05)
        {
          *joint = (gsize) j;
          *child = c;
          return;
        }
    }
  g_assert_not_reached ();
}

/* v turned `degrees` about unit `axis` (Rodrigues' formula) */
static void
turn_vector (const double v[3],
             const double axis[3],
             double       degrees,
             double       out[3])
{
  double a = degrees * G_PI / 180, c = cos (a), s = sin (a);
  double d = v[0] * axis[0] + v[1] * axis[1] + v[2] * axis[2];
  double x[3] = { axis[1] * v[2] - axis[2] * v[1], axis[2] * v[0] - axis[0] * v[2], axis[0] * v[1] - axis[1] * v[0] };

  for (int i = 0; i < 3; i++)
    out[i] = v[i] * c + x[i] * s + axis[i] * d * (1 - c);
}

static void
apply (SqClip *clip,
       SqEdit *edit)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (sq_edit_apply (edit, clip, &error));
  g_assert_no_error (error);
  sq_edit_free (edit);
}

/* in each world: the joint's parents turned first, then a turn of 35°
 * about a slanted world direction at a time between keys */
static void
test_turn_worlds (void)
{
  static const char * const worlds[] = { "sl", "sl-bento", "aw", "sims", "bvh" };
  const double axis[3] = { 0.36, -0.48, 0.8 };   /* unit */
  const double time = 1.0;

  for (gsize w = 0; w < G_N_ELEMENTS (worlds); w++)
    {
      g_autoptr(SqClip) clip = new_clip (worlds[w]);
      g_autoptr(SqPose) pose = sq_pose_new (clip);
      gsize n = clip->n_joints, joint, child;
      g_autofree double *before = g_new (double, 3 * n);
      g_autofree double *after = g_new (double, 3 * n);
      const gssize *parent = sq_pose_get_parents (pose);
      double q[4], bone[3], want[3];
      const double tilt[4] = { 0.9, 0.2, -0.3, 0.25 };

      sq_pose_evaluate (pose, clip, time, before);
      pick_joint (pose, before, n, &joint, &child);
      /* its parent and grandparent turned, so the world's axis is not the
       * joint's own */
      apply (clip, sq_edit_set_rotation_new (clip->joints[parent[joint]].name, time, tilt));
      apply (clip, sq_edit_set_rotation_new (clip->joints[parent[parent[joint]]].name, 0.0, tilt));
      g_clear_pointer (&pose, sq_pose_free);
      pose = sq_pose_new (clip);
      sq_pose_evaluate (pose, clip, time, before);

      sq_posing_turned (clip, pose, joint, time, axis, 35, q);
      apply (clip, sq_edit_set_rotation_new (clip->joints[joint].name, time, q));
      g_clear_pointer (&pose, sq_pose_free);
      pose = sq_pose_new (clip);
      sq_pose_evaluate (pose, clip, time, after);

      g_test_message ("%s: %s turned, %s follows", worlds[w], clip->joints[joint].name, clip->joints[child].name);
      for (int i = 0; i < 3; i++)
        {
          g_assert_cmpfloat_with_epsilon (after[joint * 3 + i], before[joint * 3 + i], 1e-9);
          bone[i] = before[child * 3 + i] - before[joint * 3 + i];
        }
      turn_vector (bone, axis, 35, want);
      for (int i = 0; i < 3; i++)
        g_assert_cmpfloat_with_epsilon (after[child * 3 + i] - after[joint * 3 + i], want[i], 1e-9);
    }
}

/* a move of 3 cm forward, 2 cm up of the root in each world: the root's
 * place at that time moves by that, in metres on Second Life's axes */
static void
test_move_worlds (void)
{
  static const char * const worlds[] = { "sl", "aw", "sims", "bvh" };
  const double delta[3] = { 0.03, 0, 0.02 };

  for (gsize w = 0; w < G_N_ELEMENTS (worlds); w++)
    {
      g_autoptr(SqClip) clip = new_clip (worlds[w]);
      g_autoptr(SqPose) pose = sq_pose_new (clip);
      gssize root = sq_clip_get_root_index (clip);
      g_autofree double *before = g_new (double, 3 * clip->n_joints);
      g_autofree double *after = g_new (double, 3 * clip->n_joints);
      double v[3];

      g_assert_cmpint (root, >=, 0);
      g_assert_true (sq_posing_joint_moves (clip, (gsize) root));
      sq_pose_evaluate (pose, clip, 1.0, before);
      sq_posing_moved (clip, pose, (gsize) root, 1.0, delta, v);
      apply (clip, sq_edit_set_position_new (clip->joints[root].name, 1.0, v));
      g_clear_pointer (&pose, sq_pose_free);
      pose = sq_pose_new (clip);
      sq_pose_evaluate (pose, clip, 1.0, after);
      g_test_message ("%s: %s moved", worlds[w], clip->joints[root].name);
      for (int i = 0; i < 3; i++)
        g_assert_cmpfloat_with_epsilon (after[root * 3 + i] - before[root * 3 + i], delta[i], 1e-9);
    }
}

/* Which joints carry positions: any of a Second Life .anim's; a BVH's
 * only where its CHANNELS have positions (the root); ActiveWorlds' root */
static void
test_joint_moves (void)
{
  g_autoptr(SqClip) sl = new_clip ("sl");
  g_autoptr(SqClip) bvh = new_clip ("bvh");
  g_autoptr(SqClip) aw = new_clip ("aw");
  gsize moving = 0;

  for (gsize j = 0; j < sl->n_joints; j++)
    g_assert_true (sq_posing_joint_moves (sl, j));
  for (gsize j = 0; j < bvh->n_joints; j++)
    moving += sq_posing_joint_moves (bvh, j);
  g_assert_cmpuint (moving, ==, 1);
  g_assert_true (sq_posing_joint_moves (bvh, (gsize) sq_clip_get_root_index (bvh)));
  g_assert_true (sq_posing_joint_moves (aw, (gsize) sq_clip_get_root_index (aw)));
  g_assert_false (sq_posing_joint_moves (aw, (gsize) sq_clip_find_joint (aw, "head")));
  /* the move step: a centimetre in metres, an inch in a BVH */
  g_assert_cmpfloat_with_epsilon (sq_posing_move_step (sl), 0.01, 1e-12);
  g_assert_cmpfloat_with_epsilon (sq_posing_move_step (bvh), bvh->format->space->metres_per_unit, 1e-15);
  g_assert_cmpfloat_with_epsilon (sq_posing_move_step (bvh), 0.0254, 1e-6);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/posing-turn/turn-worlds", test_turn_worlds);
  g_test_add_func ("/posing-turn/move-worlds", test_move_worlds);
  g_test_add_func ("/posing-turn/joint-moves", test_joint_moves);
  return g_test_run ();
}
