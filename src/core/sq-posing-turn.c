/* sq-posing-turn.c: the values a turn or a move in the preview gives a
 * joint's key (the gizmo), and which joints carry positions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The preview poses a clip as sq-pose.h does: each joint's rotation on
 * Second Life's axes, composed from the root down. A turn about a
 * direction of the world (R) changes the joint's own rotation q, under
 * its parents' P, so that the joint ends turned by R in the world:
 * P q' = R P q, so q' = P⁻¹ R P q. A move by a world vector d adds P⁻¹ d
 * (its parents' frame) to the joint's translation. Both go back to the
 * file's axes and units (sq_space_*_from_sl), so the edit made of them
 * (sq_edit_set_rotation_new, sq_edit_set_position_new) is what the
 * command line's --set-rotation and --set-position make.
 */
#define G_LOG_DOMAIN "sq-posing"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sq-convert.h"
#include "sq-format.h"
#include "sq-math.h"
#include "sq-posing.h"
#include "sq-world.h"

static const SqSpace *
space_of (const SqClip *clip)
{
  return clip->format != NULL && clip->format->space != NULL ? clip->format->space : &sq_space_second_life;
}

void
sq_posing_turned (const SqClip *clip,
                  const SqPose *pose,
                  gsize         joint,
                  double        time,
                  const double  axis[3],
                  double        degrees,
                  double        q[4])
{
  const SqSpace *space;
  double aa[4] = { axis[0], axis[1], axis[2], degrees };
  double p[4], pinv[4], r[4], v[4], local[4], t[4];

  g_return_if_fail (joint < clip->n_joints && sq_pose_get_n_joints (pose) == clip->n_joints);
  space = space_of (clip);
  sq_track_sample (&clip->joints[joint].tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, time, v);
  sq_space_rotation_to_sl (space, v, local);
  sq_quat_normalize (local);
  sq_axis_angle_to_quat (aa, r);
  sq_pose_parent_rotation (pose, clip, time, joint, p);
  sq_quat_conjugate (p, pinv);
  /* q' = P⁻¹ R P q */
  sq_quat_multiply (p, local, t);
  sq_quat_multiply (r, t, t);
  sq_quat_multiply (pinv, t, t);
  sq_quat_normalize (t);
  sq_space_rotation_from_sl (space, t, q);
  /* on the side of the value it started from (the same rotation) */
  if (q[0] * v[0] + q[1] * v[1] + q[2] * v[2] + q[3] * v[3] < 0)
    for (int i = 0; i < 4; i++)
      q[i] = -q[i];
}

void
sq_posing_moved (const SqClip *clip,
                 const SqPose *pose,
                 gsize         joint,
                 double        time,
                 const double  delta[3],
                 double        v[3])
{
  double p[4], pinv[4], d[3], file[3];

  g_return_if_fail (joint < clip->n_joints && sq_pose_get_n_joints (pose) == clip->n_joints);
  sq_pose_position_value (pose, clip, time, joint, v);
  sq_pose_parent_rotation (pose, clip, time, joint, p);
  sq_quat_conjugate (p, pinv);
  sq_quat_rotate (pinv, delta, d);
  sq_space_vector_from_sl (space_of (clip), d, file);
  for (int i = 0; i < 3; i++)
    v[i] += file[i];
}

gboolean
sq_posing_joint_moves (const SqClip *clip,
                       gsize         joint)
{
  const SqWorldHome *world = sq_format_get_world (clip->format);

  g_return_val_if_fail (joint < clip->n_joints, FALSE);
  if (world == NULL)
    world = sq_world_common ();
  if (world->joint_moves != NULL)
    return world->joint_moves (clip, joint);
  return clip->joints[joint].tracks[SQ_CHANNEL_TRANSLATION].n_keys > 0
         || sq_clip_get_root_index (clip) == (gssize) joint;
}

double
sq_posing_move_step (const SqClip *clip)
{
  double unit = space_of (clip)->metres_per_unit;

  /* a centimetre in a world of metres; one of the file's units where that
   * is between a centimetre and a decimetre (a BVH's inch); else the
   * smallest power of ten of them that reaches a centimetre */
  if (unit >= 0.1)
    return 0.01;
  if (unit >= 0.01)
    return unit;
  return unit * pow (10, ceil (log10 (0.01 / unit) - 1e-9));
}
