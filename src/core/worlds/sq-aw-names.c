/* sq-aw-names.c: ActiveWorlds' joint names across the worlds: its limbs'
 * tags and the Second Life bone each stands for
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Facts: formats.md 4 (ActiveWorlds tags, through sq-aw-skeleton.c), 1.8
 * (Second Life's bones).
 */
#include "config.h"

#include <string.h>

#include "worlds/sq-aw-skeleton.h"
#include "worlds/sq-world-names.h"

/* A Second Life bone and the ActiveWorlds tag of the same limb (0: none;
 * NULL: no Second Life bone) */
static const struct { const char *sl; guint8 tag; } limbs[] = {
  { "mPelvis", 1 }, { "mTorso", 2 }, { "mChest", 55 }, { "mNeck", 3 }, { "mHead", 4 },
  { "mSkull", 31 }, { "mEyeRight", 37 }, { "mEyeLeft", 38 },
  { "mCollarLeft", 10 }, { "mShoulderLeft", 11 }, { "mElbowLeft", 12 }, { "mWristLeft", 13 },
  { "mCollarRight", 5 }, { "mShoulderRight", 6 }, { "mElbowRight", 7 }, { "mWristRight", 8 },
  { "mHipRight", 15 }, { "mKneeRight", 16 }, { "mAnkleRight", 17 }, { "mFootRight", 18 }, { "mToeRight", 0 },
  { "mHipLeft", 19 }, { "mKneeLeft", 20 }, { "mAnkleLeft", 21 }, { "mFootLeft", 22 }, { "mToeLeft", 0 },
  { "mTail1", 24 }, { "mTail2", 25 }, { "mTail3", 26 }, { "mTail4", 27 },
  { "mFaceEar1Right", 41 }, { "mFaceEar1Left", 42 }, { "mFaceChin", 54 },
  /* fingers: ActiveWorlds numbers them from 1 = thumb, two joints each */
  { "mHandThumb1Right", 59 }, { "mHandThumb2Right", 60 }, { "mHandIndex1Right", 61 },
  { "mHandIndex2Right", 62 }, { "mHandMiddle1Right", 63 }, { "mHandMiddle2Right", 64 },
  { "mHandRing1Right", 65 }, { "mHandRing2Right", 66 }, { "mHandPinky1Right", 67 },
  { "mHandPinky2Right", 68 }, { "mHandThumb1Left", 69 }, { "mHandThumb2Left", 70 },
  { "mHandIndex1Left", 71 }, { "mHandIndex2Left", 72 }, { "mHandMiddle1Left", 73 },
  { "mHandMiddle2Left", 74 }, { "mHandRing1Left", 75 }, { "mHandRing2Left", 76 },
  { "mHandPinky1Left", 77 }, { "mHandPinky2Left", 78 },
  /* ActiveWorlds limbs with no Second Life bone: rtfingers, lffingers */
  { NULL, 9 }, { NULL, 14 },
};

/* ActiveWorlds' names, ignoring case, as ActiveWorlds */
static SqJointNameFind
aw_lookup (const char         *name,
           SqJointLookupFlags  flags,
           SqJointConcept     *out)
{
  guint tag = sq_aw_tag_for_name (name);

  (void) flags;
  if (tag == 0)
    return SQ_JOINT_NAME_UNKNOWN;
  out->aw_tag = tag;
  return SQ_JOINT_NAME_FOUND;
}

/* the tag of a Second Life bone, the bone of a tag */
static void
aw_complete (SqJointConcept *concept)
{
  for (gsize i = 0; i < G_N_ELEMENTS (limbs); i++)
    if (concept->sl_bone != NULL ? limbs[i].sl != NULL && strcmp (limbs[i].sl, concept->sl_bone) == 0
                                 : concept->aw_tag != 0 && limbs[i].tag == concept->aw_tag)
      {
        if (concept->sl_bone != NULL)
          concept->aw_tag = limbs[i].tag;
        else
          concept->sl_bone = limbs[i].sl;
        return;
      }
  if (concept->sl_bone != NULL)
    concept->aw_tag = 0;
}

static const char *
aw_name_of (const SqJointConcept *concept,
            SqJointScheme         scheme)
{
  if (scheme == SQ_JOINT_SCHEME_AW_SEQ)
    return concept->aw_tag ? sq_aw_seq_name (concept->aw_tag) : NULL;
  if (scheme == SQ_JOINT_SCHEME_AW_DX)
    return concept->aw_tag ? sq_aw_dx_name (concept->aw_tag) : NULL;
  return NULL;
}

static gboolean
aw_in_scheme (const char    *name,
              SqJointScheme  scheme)
{
  if (scheme == SQ_JOINT_SCHEME_AW_SEQ)
    return sq_aw_joint_tag (name) != 0;
  if (scheme == SQ_JOINT_SCHEME_AW_DX)
    return g_ascii_strncasecmp (name, "aw_", 3) == 0 && sq_aw_tag_for_name (name) != 0;
  return FALSE;
}

const SqWorldNames sq_aw_names = {
  .lookup = aw_lookup,
  .complete = aw_complete,
  .name_of = aw_name_of,
  .in_scheme = aw_in_scheme,
};
