/* sq-pose-library.h: a pose (some joints' rotations and positions) and the
 * small text file a pose library keeps each in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pose file (".pose", UTF-8, one file per pose; README "Pose files"):
 *
 *   sequin-pose 1
 *   name Relaxed left hand
 *   world sl-anim
 *   rotation W X Y Z JOINT
 *   position X Y Z JOINT
 *
 * The first line is the version. "name" is the pose's name (the rest of
 * the line). "world" is the id of the format whose axes and units the
 * values are in (sequin-cli convert --to's names; none: Second Life's).
 * Each "rotation" line is a joint's rotation as a unit quaternion, each
 * "position" line its position; the joint's name is the rest of the line
 * (it may hold spaces). Numbers are written so that they read back
 * exactly. Blank lines and lines starting with "#" are ignored; lines
 * are separated by LF or CRLF. The core parses and writes the text from
 * memory; the editor and the command line read and write the files.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"

G_BEGIN_DECLS

#define SQ_POSE_HAS_ROTATION (1u << 0)
#define SQ_POSE_HAS_POSITION (1u << 1)

typedef struct
{
  char   *joint;
  guint8  has;            /* SQ_POSE_HAS_* */
  double  rotation[4];    /* w, x, y, z */
  double  position[3];
} SqPoseEntry;

typedef struct
{
  char   *name;           /* UTF-8, may be "" */
  char   *world;          /* a format id; NULL: Second Life's space */
  GArray *entries;        /* SqPoseEntry, one per joint */
} SqJointPose;

SqJointPose *sq_joint_pose_new       (const char        *name,
                                      const char        *world);
void         sq_joint_pose_free      (SqJointPose       *pose);
SqJointPose *sq_joint_pose_copy      (const SqJointPose *pose);
/* The entry of `joint`, added (with nothing set) when missing */
SqPoseEntry *sq_joint_pose_entry     (SqJointPose       *pose,
                                      const char        *joint);
/* The entry of `joint`, or NULL */
const SqPoseEntry *sq_joint_pose_lookup (const SqJointPose *pose,
                                      const char        *joint);

/* The pose of `clip` at `time` of the joints `joints` (indices, n of them;
 * NULL: every joint) as the world plays it: each joint's rotation, and its
 * position when its translation track has keys; in the clip's space */
SqJointPose *sq_joint_pose_capture   (const SqClip      *clip,
                                      const gsize       *joints,
                                      gsize              n,
                                      double             time,
                                      const char        *name);
/* `pose` in the space (axes, units) of `clip`'s format (a copy) */
SqJointPose *sq_joint_pose_for_clip  (const SqJointPose *pose,
                                      const SqClip      *clip);

/* Reads a pose file; errors name line and column */
SqJointPose *sq_joint_pose_parse     (const char        *text,
                                      gsize              len,
                                      GError           **error);
char        *sq_joint_pose_to_text   (const SqJointPose *pose);

/* Keys of some joints at several times: a pose per time, the times in
 * seconds after the first key (0 is the first). Its text is the pose
 * file's with "time T" lines: the value lines after one are keys at T
 * seconds (before any: at 0), e.g.
 *
 *   sequin-pose 1
 *   name Copied keys
 *   world sl-anim
 *   time 0
 *   rotation 1 0 0 0 mHead
 *   time 0.5
 *   rotation 0.7071067811865476 0 0.7071067811865476 0 mHead
 *   position 0 0 1.2 mPelvis
 *
 * so a pose file is a sequence of one pose at 0. */
typedef struct
{
  char      *name;
  char      *world;       /* as a pose's */
  GArray    *times;       /* double, ascending, each once */
  GPtrArray *poses;       /* SqJointPose, one per time */
} SqPoseSequence;

SqPoseSequence *sq_pose_sequence_new     (const char           *name,
                                          const char           *world);
void            sq_pose_sequence_free    (SqPoseSequence       *seq);
SqPoseSequence *sq_pose_sequence_copy    (const SqPoseSequence *seq);
/* The pose at `time` (added when missing, in time order) */
SqJointPose    *sq_pose_sequence_at      (SqPoseSequence       *seq,
                                          double                time);
/* Adds key `index` of joint `joint`'s `channel` in `clip` as it is (not
 * as played) at `time`: a rotation or a position; FALSE for a scale key
 * (a pose holds none), nothing added */
gboolean        sq_pose_sequence_add_key (SqPoseSequence       *seq,
                                          double                time,
                                          const SqClip         *clip,
                                          gsize                 joint,
                                          SqChannel             channel,
                                          gsize                 index);
/* Reads a pose file, with or without times; errors name line and column */
SqPoseSequence *sq_pose_sequence_parse   (const char           *text,
                                          gsize                 len,
                                          GError              **error);
char           *sq_pose_sequence_to_text (const SqPoseSequence *seq);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SqPoseSequence, sq_pose_sequence_free)

/* The poses of a pose list (a SimPose-ium PSL read as a clip: pose i is
 * frame i at 1/30 s) as a library: one pose per frame, named by the
 * clip's pose names where it has them, else "Pose N" */
GPtrArray   *sq_joint_pose_library_from_clip (const SqClip *clip);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SqJointPose, sq_joint_pose_free)

G_END_DECLS
