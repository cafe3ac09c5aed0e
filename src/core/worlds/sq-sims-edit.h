/* sq-sims-edit.h: the Sims world's own edits (pose libraries, KFD and
 * skill fields), undoable SqEdits shared by the editor and the CLI
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A pose library (PSL) is a strip of poses: pose i is the i-th keyed frame
 * (a key at i/30 s in every track), named by the "pose-names" extra, with
 * its Time value in "pose-times". The pose edits rebuild that strip (pose
 * i again at i/30 s) and its names and times together; they refuse, with a
 * reason, an unknown pose, a name another pose has, an empty or unwritable
 * name (a line of Latin-1), and deleting the last pose.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"
#include "sq-edit.h"

G_BEGIN_DECLS

/* TRUE for a SimPose-ium pose library */
gboolean    sq_sims_is_pose_library     (const SqClip *clip);
/* TRUE for a KFD, whose poses are named by their Time values (frames) */
gboolean    sq_sims_poses_are_frames    (const SqClip *clip);
/* The poses' names in order: a library's (the writer's "Pose N" where a
 * name is missing), a KFD's frames ("0", "12", …); a NULL-terminated
 * array; NULL for a clip that is neither */
char      **sq_sims_pose_names          (const SqClip *clip);
/* The time of pose `index` (its frame / 30), -1 when there is none */
double      sq_sims_pose_time           (const SqClip *clip,
                                         gsize         index);

/* On a KFD the pose edits name poses by their frames and keep the times
 * strictly increasing, the first and last pose where they are: rename
 * moves a pose to another frame between its neighbours, duplicate copies
 * it to the free frame `new_name`, delete takes out a pose between the
 * first and the last, move reorders the poses (each place keeps its
 * frame). */
SqEdit     *sq_edit_sims_rename_pose_new    (const char *old_name,
                                             const char *new_name);
/* A copy of pose `name`, named `new_name`, right after it */
SqEdit     *sq_edit_sims_duplicate_pose_new (const char *name,
                                             const char *new_name);
SqEdit     *sq_edit_sims_delete_pose_new    (const char *name);
/* Moves pose `name` to position `index` (0 = the first) */
SqEdit     *sq_edit_sims_move_pose_new      (const char *name,
                                             guint       index);

/* KFD: bounce (SequenceLength twice Frames) or not; start or end pose name
 * ("" for none). Refused for clips that are no KFD. */
SqEdit     *sq_edit_sims_kfd_bounce_new     (gboolean    bounce);
SqEdit     *sq_edit_sims_kfd_pose_name_new  (gboolean    end,
                                             const char *name);
/* CMX skill: its name, and its duration in milliseconds (written while
 * the keys are unchanged; edited keys write the duration of their frames).
 * Refused for clips that are no skill. */
SqEdit     *sq_edit_sims_skill_name_new     (const char *name);
SqEdit     *sq_edit_sims_skill_duration_new (double      ms);

/* What the properties panel shows (the writer's values) */
typedef struct
{
  gboolean    is_kfd, is_skill;
  gint64      frames, sequence_length;
  gboolean    bounce;
  const char *start_pose, *end_pose;  /* owned by the clip */
  const char *skill;                  /* owned by the clip */
  double      skill_duration;         /* ms */
} SqSimsFields;

void        sq_sims_fields_get          (const SqClip *clip,
                                         SqSimsFields *out);

G_END_DECLS
