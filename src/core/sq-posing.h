/* sq-posing.h: posing by hand: set a joint's rotation or position at a
 * time, insert, delete and move keys, paste and flip poses and copied
 * keys, symmetrize
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each operation is an SqEdit (sq-edit.h), shared by the editor and the
 * command line; undo gives the clip back bitwise. They change only the
 * keys they touch: every other key stays as it was read (a packed track
 * that is not touched stays packed; a BVH rotation track stays packed as
 * its angles, the touched frame's record rewritten; other packed tracks
 * (binary SEQ, .anim) are decoded only when touched, one track at a time).
 *
 * Times: a key of the joint within half a frame of the time given is the
 * key at that time; otherwise the time snaps to the nearest frame of the
 * clip (its frame rate), so a BVH keeps its key on every frame and new
 * keys sit on frames. Times outside 0 .. the duration are refused.
 * Values between keys are what the world plays (sq_track_sample: slerp for
 * rotations, linear otherwise), which is what a new key starts from.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"
#include "sq-edit.h"
#include "sq-pose-library.h"
#include "sq-pose.h"

G_BEGIN_DECLS

/* A key of a joint, by name and time (seconds): the keys at that time (the
 * nearest within half a frame) in every channel, or only in the channels
 * `channels` names (bit 1 << SqChannel each; 0: every channel), as the
 * timeline selects them */
typedef struct
{
  const char *joint;
  double      time;
  guint       channels;
} SqKeyRef;

#define SQ_KEY_REF_CHANNEL(c) (1u << (c))

/* Sets joint `joint`'s rotation (unit quaternion w, x, y, z in the file's
 * own axes) at `time`, replacing its key there or inserting one. */
SqEdit  *sq_edit_set_rotation_new   (const char   *joint,
                                     double        time,
                                     const double  q[4]);
/* The same for its position (x, y, z in the file's units and axes) */
SqEdit  *sq_edit_set_position_new   (const char   *joint,
                                     double        time,
                                     const double  v[3]);
/* Inserts a key at `time` holding the value played there into each track
 * of the joints (NULL or empty: every joint) that has no key there: the
 * rotation always, translation and scale when the track has keys.
 * Refused when every one of them already has a key there. */
SqEdit  *sq_edit_insert_keys_new    (const char * const *joints,
                                     double        time);
/* Deletes the keys `keys` name (each joint's keys at its time in every
 * channel); refused when none is there */
SqEdit  *sq_edit_delete_key_list_new (const SqKeyRef *keys,
                                     gsize         n_keys);
/* Moves the keys `keys` name by `delta` seconds, each snapped to a frame;
 * refused when one would leave 0 .. duration or reach or pass a key of its
 * track that does not move (a BVH, with a key on every frame, refuses). */
SqEdit  *sq_edit_move_keys_new      (const SqKeyRef *keys,
                                     gsize         n_keys,
                                     double        delta);
/* Sets each joint of `pose` the clip has to the pose's values at `time`
 * (as set rotation / set position do); joints the clip lacks are
 * reported (sq_edit_get_report). `flip`: left and right swapped first
 * (sq_joint_pose_flip). Refused when no joint of the pose is in the clip. */
SqEdit  *sq_edit_paste_pose_new     (const SqJointPose *pose,
                                     double        time,
                                     gboolean      flip);
/* Pastes the keys of `keys` with their first at `time` (each pose of the
 * sequence at `time` plus its own time, as paste pose does it, flipped
 * when `flip`); refused when a time would be outside the animation or no
 * joint of the keys is in the clip */
SqEdit  *sq_edit_paste_keys_new     (const SqPoseSequence *keys,
                                     double        time,
                                     gboolean      flip);
/* At `time`, gives each partner of the joints `sources` (left ⇄ right,
 * the world's mirror pairs) the mirror image of its source's pose; refused
 * when none of them has a partner. */
SqEdit  *sq_edit_symmetrize_new     (const char * const *sources,
                                     double        time);

/* `pose` with left and right swapped: each joint's values go to its mirror
 * partner in `clip` (sq_motion_mirror_partner), reflected across the
 * world's sagittal plane as sq_edit_mirror_new reflects them; a joint with
 * no partner is reflected in place. Values are taken to be in `clip`'s
 * space (sq_joint_pose_for_clip first). */
SqJointPose *sq_joint_pose_flip     (const SqJointPose *pose,
                                     const SqClip      *clip);

/* The time a posing edit of joint `joint` at `time` acts at (see above) */
double   sq_posing_key_time         (const SqClip *clip,
                                     gsize         joint,
                                     double        time);
/* The Euler axes (0 X, 1 Y, 2 Z) in which joint `joint`'s rotation is
 * shown and typed, applied in that order (intrinsic, as sq_euler_to_quat):
 * a BVH joint's own rotation channels (completed with the axes it lacks),
 * else X, Y, Z about the file's own axes. Returns how many of the three
 * the joint's channels hold (3 when it has no channels of its own). */
guint    sq_posing_euler_axes       (const SqClip *clip,
                                     gsize         joint,
                                     int           axes[3]);

/* ---- turning and moving in the preview (sq-posing-turn.c) ---- */

/* The value (w, x, y, z, the file's axes) of joint `joint`'s rotation at
 * `time` turned `degrees` about `axis` (a direction on Second Life's
 * axes, as sq-pose.h poses; any length but 0): the joint turns about that
 * direction in the world, whatever its parents' rotations at `time` (from
 * `pose`, made of `clip`). It starts from the value played at `time`. */
void     sq_posing_turned           (const SqClip *clip,
                                     const SqPose *pose,
                                     gsize         joint,
                                     double        time,
                                     const double  axis[3],
                                     double        degrees,
                                     double        q[4]);
/* The value (x, y, z, the file's units and axes) of joint `joint`'s
 * translation at `time` moved by `delta` (metres on Second Life's axes) in
 * the world; it starts from what the pose uses (sq_pose_position_value) */
void     sq_posing_moved            (const SqClip *clip,
                                     const SqPose *pose,
                                     gsize         joint,
                                     double        time,
                                     const double  delta[3],
                                     double        v[3]);
/* Whether joint `joint` carries positions a user may key: as its world
 * says (SqWorldHome.joint_moves); a world that does not say lets the root
 * and the joints that have translation keys move */
gboolean sq_posing_joint_moves      (const SqClip *clip,
                                     gsize         joint);
/* The step (metres) a move snaps to: a round length of the clip's unit
 * (1 cm in a world of metres, an inch in a BVH of inches) */
double   sq_posing_move_step        (const SqClip *clip);

G_END_DECLS
