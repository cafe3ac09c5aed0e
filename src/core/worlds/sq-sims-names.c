/* sq-sims-names.c: the Sims' joint names across the worlds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Facts: formats.md 5.5 (the bones; ROOT, SPINE1, the toes' tips and the
 * fingers have no counterpart: their parents carry their motion).
 */
#include "config.h"

#include <string.h>

#include "worlds/sq-world-names.h"
#include "worlds/sq-world-sims.h"

/* The Sims bones with a counterpart, and its Second Life bone */
static const char * const sims_bones[][2] = {
  { "PELVIS", "mPelvis" }, { "SPINE", "mTorso" }, { "SPINE2", "mChest" }, { "NECK", "mNeck" },
  { "HEAD", "mHead" }, { "L_ARM", "mCollarLeft" }, { "L_ARM1", "mShoulderLeft" },
  { "L_ARM2", "mElbowLeft" }, { "L_HAND", "mWristLeft" }, { "R_ARM", "mCollarRight" },
  { "R_ARM1", "mShoulderRight" }, { "R_ARM2", "mElbowRight" }, { "R_HAND", "mWristRight" },
  { "L_LEG", "mHipLeft" }, { "L_LEG1", "mKneeLeft" }, { "L_FOOT", "mAnkleLeft" }, { "L_TOE0", "mFootLeft" },
  { "R_LEG", "mHipRight" }, { "R_LEG1", "mKneeRight" }, { "R_FOOT", "mAnkleRight" }, { "R_TOE0", "mFootRight" },
};

/* the Sims' bones, exactly */
static SqJointNameFind
sims_lookup (const char         *name,
             SqJointLookupFlags  flags,
             SqJointConcept     *out)
{
  (void) flags;
  if (sq_sims_bone_index (name) < 0)
    return SQ_JOINT_NAME_UNKNOWN;
  for (gsize i = 0; i < G_N_ELEMENTS (sims_bones); i++)
    if (strcmp (sims_bones[i][0], name) == 0)
      {
        out->sl_bone = sims_bones[i][1];
        return SQ_JOINT_NAME_FOUND;
      }
  /* a Sims bone without a counterpart stands for nothing elsewhere */
  return SQ_JOINT_NAME_NO_COUNTERPART;
}

static const char *
sims_name_of (const SqJointConcept *concept,
              SqJointScheme         scheme)
{
  if (scheme != SQ_JOINT_SCHEME_SIMS)
    return NULL;
  for (gsize i = 0; concept->sl_bone != NULL && i < G_N_ELEMENTS (sims_bones); i++)
    if (strcmp (sims_bones[i][1], concept->sl_bone) == 0)
      return sims_bones[i][0];
  return NULL;
}

static gboolean
sims_in_scheme (const char    *name,
                SqJointScheme  scheme)
{
  return scheme == SQ_JOINT_SCHEME_SIMS && sq_sims_bone_index (name) >= 0;
}

const SqWorldNames sq_sims_names = {
  .lookup = sims_lookup,
  .name_of = sims_name_of,
  .in_scheme = sims_in_scheme,
};
