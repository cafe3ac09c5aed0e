/* sq-pose.h: a clip's skeleton posed at a time, for previews
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The skeleton is the clip's own hierarchy where its format has one (BVH:
 * parents and rest OFFSETs), else the file's own frames (a DirectX file's
 * Frame hierarchy: parents and FrameTransformMatrix translations, its
 * position keys replacing them), else the one its joint names stand for
 * (the Second Life rest skeleton, reached through the joint maps of
 * sq-joint-map.h; joints with no known place hang from the root). A joint
 * no source places gets a default bone of 10 cm along its parent's bone
 * (up from the root), as in conversions (sq-convert.c). Posing
 * samples every joint's tracks at a time and chains the rotations from the
 * root down. Positions are in metres on Second Life's axes (+X forward,
 * +Y left, +Z up), whatever the file's units and axes.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"

G_BEGIN_DECLS

typedef struct _SqPose SqPose;


/* The skeleton of `clip` as it is now; make a new one after an edit */
SqPose       *sq_pose_new          (const SqClip *clip);
void          sq_pose_free         (SqPose       *pose);
gsize         sq_pose_get_n_joints (const SqPose *pose);
/* per joint (in clip order): its parent's index, -1 for a root */
const gssize *sq_pose_get_parents  (const SqPose *pose);
/* TRUE when a joint's translation keys replace its rest offset (BVH
 * channels, .anim positions, a .x's position keys); FALSE when they move
 * the joint from it (ActiveWorlds' SEQ locations, and a clip read back
 * from a glTF file Sequin wrote of one: its SQ_TRANSLATIONS_ADD field) */
gboolean      sq_pose_translations_replace (const SqPose *pose);
/* 3 doubles per joint: where it is at `time` (held before the first and
 * after the last key). `clip` must be the one the pose was made from. */
void          sq_pose_evaluate     (const SqPose *pose,
                                    const SqClip *clip,
                                    double        time,
                                    double       *points);

/* What one joint is posed with in place of its keys (a turn or a move
 * being dragged in the preview): `rotation` (w, x, y, z) and `position`
 * (x, y, z) in the file's axes and units as its keys hold them, each NULL
 * to keep the keys' value; `joint` -1 for none */
typedef struct
{
  gssize        joint;
  const double *rotation;
  const double *position;
} SqPoseOverride;

/* sq_pose_evaluate with `override` (NULL for none) in place of its joint's
 * keys at `time` */
void          sq_pose_evaluate_with (const SqPose         *pose,
                                     const SqClip         *clip,
                                     double                time,
                                     const SqPoseOverride *override,
                                     double               *points);
/* The rotation (w, x, y, z, Second Life's axes) that joint `joint`'s
 * parents give its own at `time`: the rotations from the root down to its
 * parent, composed; the identity for a root */
void          sq_pose_parent_rotation (const SqPose *pose,
                                       const SqClip *clip,
                                       double        time,
                                       gsize         joint,
                                       double        q[4]);
/* The translation (x, y, z in the file's units and axes) the pose gives
 * joint `joint` at `time`: its keys' value; with no keys, the rest offset
 * where keys replace it (BVH, Second Life), else 0 (keys add to it) */
void          sq_pose_position_value  (const SqPose *pose,
                                       const SqClip *clip,
                                       double        time,
                                       gsize         joint,
                                       double        v[3]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SqPose, sq_pose_free)

G_END_DECLS
