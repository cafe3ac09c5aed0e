/* sq-sims-edit-table.c: the Sims' own edits by name (the edit table,
 * sq-world.h): poses of a pose library or a KFD, a KFD's bounce and pose
 * names, a CMX skill's name and duration
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-sims-edit"

#include "config.h"

#include "sq-world.h"
#include "worlds/sq-sims-edit.h"

#define TABLE_EDIT(name, expr) \
  static SqEdit *name (const SqClip *clip, const SqEditArgs *args) { (void) clip; (void) args; return expr; }

TABLE_EDIT (make_rename_pose, sq_edit_sims_rename_pose_new (args->text, args->text2))
TABLE_EDIT (make_duplicate_pose, sq_edit_sims_duplicate_pose_new (args->text, args->text2))
TABLE_EDIT (make_delete_pose, sq_edit_sims_delete_pose_new (args->text))
TABLE_EDIT (make_move_pose, sq_edit_sims_move_pose_new (args->text, (guint) (args->n - 1)))
TABLE_EDIT (make_bounce, sq_edit_sims_kfd_bounce_new (TRUE))
TABLE_EDIT (make_no_bounce, sq_edit_sims_kfd_bounce_new (FALSE))
TABLE_EDIT (make_start_pose, sq_edit_sims_kfd_pose_name_new (FALSE, args->text))
TABLE_EDIT (make_end_pose, sq_edit_sims_kfd_pose_name_new (TRUE, args->text))
TABLE_EDIT (make_skill_name, sq_edit_sims_skill_name_new (args->text))
TABLE_EDIT (make_skill_duration, sq_edit_sims_skill_duration_new (args->v[0]))

const SqWorldEdit sq_sims_edits[] = {
  { "rename-pose", NULL, make_rename_pose },
  { "duplicate-pose", NULL, make_duplicate_pose },
  { "delete-pose", NULL, make_delete_pose },
  { "move-pose", NULL, make_move_pose },
  { "bounce", NULL, make_bounce },
  { "no-bounce", NULL, make_no_bounce },
  { "start-pose", NULL, make_start_pose },
  { "end-pose", NULL, make_end_pose },
  { "skill-name", NULL, make_skill_name },
  { "skill-duration", NULL, make_skill_duration },
  { NULL, NULL, NULL },
};
