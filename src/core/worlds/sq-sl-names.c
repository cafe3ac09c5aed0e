/* sq-sl-names.c: Second Life's joint names across the worlds: its bones
 * and aliases, their BVH aliases, and its limbs, through which the
 * worlds' limbs are matched
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Facts: formats.md 1.8 (Second Life bones, their BVH aliases), Appendix A
 * (rest positions).
 */
#include "config.h"

#include <string.h>

#include "worlds/sq-sl-skeleton.h"
#include "worlds/sq-world-names.h"

/* Second Life's BVH aliases of the base bones (formats.md 1.8) */
static const char * const sl_bvh_aliases[][2] = {
  { "mPelvis", "hip" }, { "mTorso", "abdomen" }, { "mChest", "chest" }, { "mNeck", "neck" },
  { "mHead", "head" }, { "mSkull", "figureHair" }, { "mCollarLeft", "lCollar" },
  { "mShoulderLeft", "lShldr" }, { "mElbowLeft", "lForeArm" }, { "mWristLeft", "lHand" },
  { "mCollarRight", "rCollar" }, { "mShoulderRight", "rShldr" }, { "mElbowRight", "rForeArm" },
  { "mWristRight", "rHand" }, { "mHipRight", "rThigh" }, { "mKneeRight", "rShin" },
  { "mAnkleRight", "rFoot" }, { "mHipLeft", "lThigh" }, { "mKneeLeft", "lShin" },
  { "mAnkleLeft", "lFoot" },
};

/* The limbs a retarget matches (sq-retarget.c): each bone points at the
 * next one along its chain (the nearest the skeleton has) */
static const char * const limb_chains[][7] = {
  { "mPelvis", "mTorso", "mChest", "mNeck", "mHead", "mSkull", NULL },
  { "mCollarLeft", "mShoulderLeft", "mElbowLeft", "mWristLeft", "mHandMiddle1Left", NULL },
  { "mCollarRight", "mShoulderRight", "mElbowRight", "mWristRight", "mHandMiddle1Right", NULL },
  { "mHipLeft", "mKneeLeft", "mAnkleLeft", "mFootLeft", "mToeLeft", NULL },
  { "mHipRight", "mKneeRight", "mAnkleRight", "mFootRight", "mToeRight", NULL },
};

static const char *
sl_bvh_alias (const char *bone)
{
  for (gsize i = 0; i < G_N_ELEMENTS (sl_bvh_aliases); i++)
    if (strcmp (sl_bvh_aliases[i][0], bone) == 0)
      return sl_bvh_aliases[i][1];
  return NULL;
}

/* Second Life names exactly, as the viewer */
static SqJointNameFind
sl_lookup (const char         *name,
           SqJointLookupFlags  flags,
           SqJointConcept     *out)
{
  const char *bone = NULL;
  SqSlNameKind kind = sq_sl_lookup_name (name, &bone);

  (void) flags;
  if ((kind == SQ_SL_NAME_BONE || kind == SQ_SL_NAME_ALIAS) && bone != NULL)
    {
      out->sl_bone = bone;
      return SQ_JOINT_NAME_FOUND;
    }
  return SQ_JOINT_NAME_UNKNOWN;
}

static const char *
sl_name_of (const SqJointConcept *concept,
            SqJointScheme         scheme)
{
  switch (scheme)
    {
    case SQ_JOINT_SCHEME_SL:
      return concept->sl_bone;
    case SQ_JOINT_SCHEME_SL_BVH:
      if (concept->sl_bone == NULL)
        return NULL;
      return sl_bvh_alias (concept->sl_bone) ? sl_bvh_alias (concept->sl_bone) : concept->sl_bone;
    case SQ_JOINT_SCHEME_NONE:
    case SQ_JOINT_SCHEME_AW_SEQ:
    case SQ_JOINT_SCHEME_AW_DX:
    case SQ_JOINT_SCHEME_SIMS:
    default:
      return NULL;
    }
}

static gboolean
sl_in_scheme (const char    *name,
              SqJointScheme  scheme)
{
  const char *bone = NULL;

  if (scheme == SQ_JOINT_SCHEME_SL)
    return sq_sl_lookup_name (name, NULL) == SQ_SL_NAME_BONE;
  if (scheme != SQ_JOINT_SCHEME_SL_BVH)
    return FALSE;
  switch (sq_sl_lookup_name (name, &bone))
    {
    case SQ_SL_NAME_BONE:
      return sl_bvh_alias (name) == NULL;
    case SQ_SL_NAME_ALIAS:
      return bone != NULL && g_strcmp0 (sl_bvh_alias (bone), name) == 0;
    case SQ_SL_NAME_UNKNOWN:
    case SQ_SL_NAME_COLLISION_VOLUME:
    case SQ_SL_NAME_ATTACHMENT:
    case SQ_SL_NAME_SPECIAL:
    default:
      return FALSE;
    }
}

static const char * const *
sl_tips (const char *bone)
{
  for (gsize c = 0; bone != NULL && c < G_N_ELEMENTS (limb_chains); c++)
    for (gsize i = 0; limb_chains[c][i] != NULL; i++)
      if (strcmp (limb_chains[c][i], bone) == 0)
        return limb_chains[c][i + 1] != NULL ? &limb_chains[c][i + 1] : NULL;
  return NULL;
}

const SqWorldNames sq_sl_names = {
  .lookup = sl_lookup,
  .name_of = sl_name_of,
  .in_scheme = sl_in_scheme,
  .tips = sl_tips,
  .hub_position = sq_sl_bone_rest_position,
};
