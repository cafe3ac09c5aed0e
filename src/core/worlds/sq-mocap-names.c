/* sq-mocap-names.c: motion capture's joint names (BVH and .x rigs) across
 * the worlds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The motion capture names are the ones in the CMU corpus files (Hips,
 * LeftHip, LeftCollar…) and the common Hips/Spine/LeftUpLeg/LeftArm set.
 * The rigs people bring, recognised by name: CMU's, Mixamo's
 * (mixamorig:Hips, LeftUpLeg, LeftArm …), 3ds Max Biped's (Bip01 Pelvis,
 * Bip01 L Thigh, Bip01 L UpperArm …; Bip01 itself is the placement above
 * the pelvis) and the Unreal / Rokoko style (pelvis, spine_01, thigh_l,
 * upperarm_l …). The same tables ship as map files a user can copy and
 * edit (data/maps/). Each name stands for a Second Life bone (the common
 * world's), or for an ActiveWorlds tag where Second Life has no bone.
 */
#include "config.h"

#include <string.h>

#include "worlds/sq-world-names.h"

/* One concept: the Second Life bone (or, without one, the ActiveWorlds
 * tag) and its motion capture names ('|'-separated, compared ignoring
 * case) */
typedef struct
{
  const char *sl;
  guint8      aw_tag;
  const char *mocap;
} Concept;

static const Concept concepts[] = {
  { "mPelvis", 0, "Hips|Hip|Pelvis" },
  { "mTorso", 0, "Spine|lowerback|Abdomen|LowerBack|spine_01" },
  { "mChest", 0, "Spine1|Chest|UpperBack|spine_03" },
  { "mNeck", 0, "Neck|neck_01" },
  { "mHead", 0, "Head" },
  { "mSkull", 0, "HeadTop_End|Head_End" },
  { "mEyeRight", 0, "RightEye" },
  { "mEyeLeft", 0, "LeftEye" },
  { "mCollarLeft", 0, "LeftShoulder|LeftCollar|LCollar|L Clavicle|clavicle_l" },
  { "mShoulderLeft", 0, "LeftArm|LeftUpArm|LeftUpperArm|L UpperArm|upperarm_l" },
  { "mElbowLeft", 0, "LeftForeArm|LeftElbow|LeftLowArm|LeftLowerArm|L Forearm|lowerarm_l" },
  { "mWristLeft", 0, "LeftHand|LeftWrist|L Hand|hand_l" },
  { "mCollarRight", 0, "RightShoulder|RightCollar|RCollar|R Clavicle|clavicle_r" },
  { "mShoulderRight", 0, "RightArm|RightUpArm|RightUpperArm|R UpperArm|upperarm_r" },
  { "mElbowRight", 0, "RightForeArm|RightElbow|RightLowArm|RightLowerArm|R Forearm|lowerarm_r" },
  { "mWristRight", 0, "RightHand|RightWrist|R Hand|hand_r" },
  { "mHipRight", 0, "RightUpLeg|RightHip|RightThigh|RightUpperLeg|R Thigh|thigh_r" },
  { "mKneeRight", 0, "RightLeg|RightKnee|RightShin|RightLowLeg|RightLowerLeg|R Calf|calf_r" },
  { "mAnkleRight", 0, "RightFoot|RightAnkle|R Foot|foot_r" },
  { "mFootRight", 0, "RightToeBase|RightToe|R Toe0|ball_r" },
  { "mToeRight", 0, "RightToe_End|RightToeEnd" },
  { "mHipLeft", 0, "LeftUpLeg|LeftHip|LeftThigh|LeftUpperLeg|L Thigh|thigh_l" },
  { "mKneeLeft", 0, "LeftLeg|LeftKnee|LeftShin|LeftLowLeg|LeftLowerLeg|L Calf|calf_l" },
  { "mAnkleLeft", 0, "LeftFoot|LeftAnkle|L Foot|foot_l" },
  { "mFootLeft", 0, "LeftToeBase|LeftToe|L Toe0|ball_l" },
  { "mToeLeft", 0, "LeftToe_End|LeftToeEnd" },
  { "mTail1", 0, "Tail|Tail1" },
  { "mTail2", 0, "Tail2" },
  { "mTail3", 0, "Tail3" },
  { "mTail4", 0, "Tail4" },
  { "mFaceEar1Right", 0, "RightEar" },
  { "mFaceEar1Left", 0, "LeftEar" },
  { "mFaceChin", 0, "Chin" },
  { "mHandThumb1Right", 0, "RightHandThumb1|RThumb" },
  { "mHandThumb2Right", 0, "RightHandThumb2" },
  { "mHandIndex1Right", 0, "RightHandIndex1" },
  { "mHandIndex2Right", 0, "RightHandIndex2" },
  { "mHandMiddle1Right", 0, "RightHandMiddle1" },
  { "mHandMiddle2Right", 0, "RightHandMiddle2" },
  { "mHandRing1Right", 0, "RightHandRing1" },
  { "mHandRing2Right", 0, "RightHandRing2" },
  { "mHandPinky1Right", 0, "RightHandPinky1" },
  { "mHandPinky2Right", 0, "RightHandPinky2" },
  { "mHandThumb1Left", 0, "LeftHandThumb1|LThumb" },
  { "mHandThumb2Left", 0, "LeftHandThumb2" },
  { "mHandIndex1Left", 0, "LeftHandIndex1" },
  { "mHandIndex2Left", 0, "LeftHandIndex2" },
  { "mHandMiddle1Left", 0, "LeftHandMiddle1" },
  { "mHandMiddle2Left", 0, "LeftHandMiddle2" },
  { "mHandRing1Left", 0, "LeftHandRing1" },
  { "mHandRing2Left", 0, "LeftHandRing2" },
  { "mHandPinky1Left", 0, "LeftHandPinky1" },
  { "mHandPinky2Left", 0, "LeftHandPinky2" },
  /* ActiveWorlds' finger limbs (rtfingers 9, lffingers 14), no Second
   * Life bone */
  { NULL, 9, "RFingers|RightFingers" },
  { NULL, 14, "LFingers|LeftFingers" },
};

/* prefixes rigs put before the names above (compared ignoring case) */
static const char * const rig_prefixes[] = { "mixamorig:", "mixamorig_", "Bip01 ", "Bip01_", NULL };

/* the CMU spelling, where the names above mean a different joint */
static const struct { const char *name; const char *sl; } cmu_names[] = {
  { "LeftShoulder", "mShoulderLeft" }, { "RightShoulder", "mShoulderRight" },
};

/* ignoring case, and a space and an underscore alike (Bip01 L Thigh is
 * Bip01_L_Thigh in some exports) */
static gboolean
names_match (const char *a,
             const char *b,
             gsize       n)
{
  for (gsize i = 0; i < n; i++)
    {
      char x = a[i] == '_' ? ' ' : g_ascii_tolower (a[i]);
      char y = b[i] == '_' ? ' ' : g_ascii_tolower (b[i]);

      if (x != y)
        return FALSE;
    }
  return TRUE;
}

static gboolean
mocap_matches (const char *list,
               const char *name)
{
  gsize n = strlen (name);

  while (list != NULL && *list != '\0')
    {
      const char *bar = strchr (list, '|');
      gsize len = bar ? (gsize) (bar - list) : strlen (list);

      if (len == n && names_match (list, name, n))
        return TRUE;
      list = bar ? bar + 1 : NULL;
    }
  return FALSE;
}

/* the CMU spelling first (with its flag), then the other rigs' names */
static SqJointNameFind
mocap_lookup (const char         *name,
              SqJointLookupFlags  flags,
              SqJointConcept     *out)
{
  if (flags & SQ_JOINT_LOOKUP_CMU)
    for (gsize i = 0; i < G_N_ELEMENTS (cmu_names); i++)
      if (g_ascii_strcasecmp (cmu_names[i].name, name) == 0)
        {
          out->sl_bone = cmu_names[i].sl;
          return SQ_JOINT_NAME_FOUND;
        }
  for (gsize i = 0; i < G_N_ELEMENTS (concepts); i++)
    if (mocap_matches (concepts[i].mocap, name))
      {
        out->sl_bone = concepts[i].sl;
        out->aw_tag = concepts[i].aw_tag;
        return SQ_JOINT_NAME_FOUND;
      }
  return SQ_JOINT_NAME_UNKNOWN;
}

/* a clip with CMU's LeftCollar, RightCollar or LHipJoint uses its spelling */
static SqJointLookupFlags
mocap_lookup_flags (const SqClip *clip)
{
  for (gsize j = 0; j < clip->n_joints; j++)
    if (g_ascii_strcasecmp (clip->joints[j].name, "LeftCollar") == 0
        || g_ascii_strcasecmp (clip->joints[j].name, "RightCollar") == 0
        || g_ascii_strcasecmp (clip->joints[j].name, "LHipJoint") == 0)
      return SQ_JOINT_LOOKUP_CMU;
  return 0;
}

const SqWorldNames sq_mocap_names = {
  .prefixes = rig_prefixes,
  .lookup = mocap_lookup,
  .lookup_flags = mocap_lookup_flags,
};
