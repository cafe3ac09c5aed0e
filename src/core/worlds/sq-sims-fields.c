/* sq-sims-fields.c: the fields of the Sims' formats, as descriptors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A SimPose-ium KFD's bounce and start/end pose names, a CMX skill's name
 * and duration (sq-sims-edit.h reads and sets them); the properties panel
 * and the command line build on these.
 */
#define G_LOG_DOMAIN "sq-sims-fields"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sq-world.h"
#include "worlds/sq-sims-edit.h"
#include "worlds/sq-world-sims.h"

static void
get_bounce (const SqClip *clip, gssize joint, SqFieldValue *out)
{
  SqSimsFields f;

  sq_sims_fields_get (clip, &f);
  out->number = f.bounce;
}

static SqEdit *
edit_bounce (const SqClip *clip, const char *joint, const SqFieldValue *value)
{
  return sq_edit_sims_kfd_bounce_new (value->number != 0);
}

static void
get_start_pose (const SqClip *clip, gssize joint, SqFieldValue *out)
{
  SqSimsFields f;

  sq_sims_fields_get (clip, &f);
  out->text = g_strdup (f.start_pose);
}

static SqEdit *
edit_start_pose (const SqClip *clip, const char *joint, const SqFieldValue *value)
{
  return sq_edit_sims_kfd_pose_name_new (FALSE, value->text != NULL ? value->text : "");
}

static void
get_end_pose (const SqClip *clip, gssize joint, SqFieldValue *out)
{
  SqSimsFields f;

  sq_sims_fields_get (clip, &f);
  out->text = g_strdup (f.end_pose);
}

static SqEdit *
edit_end_pose (const SqClip *clip, const char *joint, const SqFieldValue *value)
{
  return sq_edit_sims_kfd_pose_name_new (TRUE, value->text != NULL ? value->text : "");
}

static const SqField kfd_fields[] = {
  { .key = "bounce", .label = N_("_Bounce"),
    .description = N_("Play forward, then back: SequenceLength is twice Frames"),
    .type = SQ_FIELD_BOOL, .min = 0, .max = 1, .get = get_bounce, .edit = edit_bounce },
  { .key = "start-pose", .label = N_("_Start pose"), .description = N_("The pose the animation starts from, blank for none"),
    .type = SQ_FIELD_TEXT, .get = get_start_pose, .edit = edit_start_pose },
  { .key = "end-pose", .label = N_("E_nd pose"), .description = N_("The pose the animation ends on, blank for none"),
    .type = SQ_FIELD_TEXT, .get = get_end_pose, .edit = edit_end_pose },
};

const SqFieldSet sq_sims_kfd_fields = {
  .title = N_("SimPose-ium Keyframe Animation"),
  .fields = kfd_fields,
  .n_fields = G_N_ELEMENTS (kfd_fields),
  .partial = TRUE,
};

static void
get_skill (const SqClip *clip, gssize joint, SqFieldValue *out)
{
  SqSimsFields f;

  sq_sims_fields_get (clip, &f);
  out->text = g_strdup (f.skill);
}

static SqEdit *
edit_skill (const SqClip *clip, const char *joint, const SqFieldValue *value)
{
  return sq_edit_sims_skill_name_new (value->text != NULL ? value->text : "");
}

static void
get_skill_duration (const SqClip *clip, gssize joint, SqFieldValue *out)
{
  SqSimsFields f;

  sq_sims_fields_get (clip, &f);
  out->number = f.skill_duration;
}

static SqEdit *
edit_skill_duration (const SqClip *clip, const char *joint, const SqFieldValue *value)
{
  return sq_edit_sims_skill_duration_new (value->number);
}

static gboolean
has_skill (const SqClip *clip)
{
  SqSimsFields f;

  sq_sims_fields_get (clip, &f);
  return f.is_skill;
}

static const SqField skill_fields[] = {
  { .key = "skill", .label = N_("S_kill"), .description = N_("The skill’s name in the CMX file"),
    .type = SQ_FIELD_TEXT, .get = get_skill, .edit = edit_skill },
  /* whole milliseconds, as the file writes them; named apart from the
   * header's duration, which runs from the first frame to the last */
  { .key = "skill-duration", .label = N_("Du_ration in the File (ms)"),
    .description = N_("How long the CMX file says the skill plays, in milliseconds: all its frames, 1/30 s each. "
                      "The header’s duration runs from the first frame to the last, one frame less. "
                      "Edited keys write their own."),
    .type = SQ_FIELD_DOUBLE, .min = 0, .max = 1e9, .step = 1, .digits = 0,
    .get = get_skill_duration, .edit = edit_skill_duration },
};

const SqFieldSet sq_sims_skill_fields = {
  .title = N_("The Sims Skill"),
  .fields = skill_fields,
  .n_fields = G_N_ELEMENTS (skill_fields),
  .applies = has_skill,
  .partial = TRUE,
};
