/* sq-sl-skeleton.c: the names Second Life resolves to avatar joints
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tables from formats.md 1.8 and Appendix A (SLV avatar_skeleton.xml v2.0,
 * avatar_lad.xml, LLAvatarAppearance::makeJointAliases). Every bone also has
 * the alias "avatar_<bone>", handled in code.
 */
#include "config.h"

#include <string.h>

#include "sq-sl-skeleton.h"

typedef struct
{
  const char *name;
  const char *parent;
  const char *alias;           /* the BVH alias of a base bone, "" for none */
} Bone;

static const Bone bones[SQ_SL_N_BONES] = {
  { "mPelvis", NULL, "hip" },
  { "mSpine1", "mPelvis", "" },
  { "mSpine2", "mSpine1", "" },
  { "mTorso", "mSpine2", "abdomen" },
  { "mSpine3", "mTorso", "" },
  { "mSpine4", "mSpine3", "" },
  { "mChest", "mSpine4", "chest" },
  { "mNeck", "mChest", "neck" },
  { "mHead", "mNeck", "head" },
  { "mSkull", "mHead", "figureHair" },
  { "mEyeRight", "mHead", "" },
  { "mEyeLeft", "mHead", "" },
  { "mFaceRoot", "mHead", "" },
  { "mFaceEyeAltRight", "mFaceRoot", "" },
  { "mFaceEyeAltLeft", "mFaceRoot", "" },
  { "mFaceForeheadLeft", "mFaceRoot", "" },
  { "mFaceForeheadRight", "mFaceRoot", "" },
  { "mFaceEyebrowOuterLeft", "mFaceRoot", "" },
  { "mFaceEyebrowCenterLeft", "mFaceRoot", "" },
  { "mFaceEyebrowInnerLeft", "mFaceRoot", "" },
  { "mFaceEyebrowOuterRight", "mFaceRoot", "" },
  { "mFaceEyebrowCenterRight", "mFaceRoot", "" },
  { "mFaceEyebrowInnerRight", "mFaceRoot", "" },
  { "mFaceEyeLidUpperLeft", "mFaceRoot", "" },
  { "mFaceEyeLidLowerLeft", "mFaceRoot", "" },
  { "mFaceEyeLidUpperRight", "mFaceRoot", "" },
  { "mFaceEyeLidLowerRight", "mFaceRoot", "" },
  { "mFaceEar1Left", "mFaceRoot", "" },
  { "mFaceEar2Left", "mFaceEar1Left", "" },
  { "mFaceEar1Right", "mFaceRoot", "" },
  { "mFaceEar2Right", "mFaceEar1Right", "" },
  { "mFaceNoseLeft", "mFaceRoot", "" },
  { "mFaceNoseCenter", "mFaceRoot", "" },
  { "mFaceNoseRight", "mFaceRoot", "" },
  { "mFaceCheekLowerLeft", "mFaceRoot", "" },
  { "mFaceCheekUpperLeft", "mFaceRoot", "" },
  { "mFaceCheekLowerRight", "mFaceRoot", "" },
  { "mFaceCheekUpperRight", "mFaceRoot", "" },
  { "mFaceJaw", "mFaceRoot", "" },
  { "mFaceChin", "mFaceJaw", "" },
  { "mFaceTeethLower", "mFaceJaw", "" },
  { "mFaceLipLowerLeft", "mFaceTeethLower", "" },
  { "mFaceLipLowerRight", "mFaceTeethLower", "" },
  { "mFaceLipLowerCenter", "mFaceTeethLower", "" },
  { "mFaceTongueBase", "mFaceTeethLower", "" },
  { "mFaceTongueTip", "mFaceTongueBase", "" },
  { "mFaceJawShaper", "mFaceRoot", "" },
  { "mFaceForeheadCenter", "mFaceRoot", "" },
  { "mFaceNoseBase", "mFaceRoot", "" },
  { "mFaceTeethUpper", "mFaceRoot", "" },
  { "mFaceLipUpperLeft", "mFaceTeethUpper", "" },
  { "mFaceLipUpperRight", "mFaceTeethUpper", "" },
  { "mFaceLipCornerLeft", "mFaceTeethUpper", "" },
  { "mFaceLipCornerRight", "mFaceTeethUpper", "" },
  { "mFaceLipUpperCenter", "mFaceTeethUpper", "" },
  { "mFaceEyecornerInnerLeft", "mFaceRoot", "" },
  { "mFaceEyecornerInnerRight", "mFaceRoot", "" },
  { "mFaceNoseBridge", "mFaceRoot", "" },
  { "mCollarLeft", "mChest", "lCollar" },
  { "mShoulderLeft", "mCollarLeft", "lShldr" },
  { "mElbowLeft", "mShoulderLeft", "lForeArm" },
  { "mWristLeft", "mElbowLeft", "lHand" },
  { "mHandMiddle1Left", "mWristLeft", "" },
  { "mHandMiddle2Left", "mHandMiddle1Left", "" },
  { "mHandMiddle3Left", "mHandMiddle2Left", "" },
  { "mHandIndex1Left", "mWristLeft", "" },
  { "mHandIndex2Left", "mHandIndex1Left", "" },
  { "mHandIndex3Left", "mHandIndex2Left", "" },
  { "mHandRing1Left", "mWristLeft", "" },
  { "mHandRing2Left", "mHandRing1Left", "" },
  { "mHandRing3Left", "mHandRing2Left", "" },
  { "mHandPinky1Left", "mWristLeft", "" },
  { "mHandPinky2Left", "mHandPinky1Left", "" },
  { "mHandPinky3Left", "mHandPinky2Left", "" },
  { "mHandThumb1Left", "mWristLeft", "" },
  { "mHandThumb2Left", "mHandThumb1Left", "" },
  { "mHandThumb3Left", "mHandThumb2Left", "" },
  { "mCollarRight", "mChest", "rCollar" },
  { "mShoulderRight", "mCollarRight", "rShldr" },
  { "mElbowRight", "mShoulderRight", "rForeArm" },
  { "mWristRight", "mElbowRight", "rHand" },
  { "mHandMiddle1Right", "mWristRight", "" },
  { "mHandMiddle2Right", "mHandMiddle1Right", "" },
  { "mHandMiddle3Right", "mHandMiddle2Right", "" },
  { "mHandIndex1Right", "mWristRight", "" },
  { "mHandIndex2Right", "mHandIndex1Right", "" },
  { "mHandIndex3Right", "mHandIndex2Right", "" },
  { "mHandRing1Right", "mWristRight", "" },
  { "mHandRing2Right", "mHandRing1Right", "" },
  { "mHandRing3Right", "mHandRing2Right", "" },
  { "mHandPinky1Right", "mWristRight", "" },
  { "mHandPinky2Right", "mHandPinky1Right", "" },
  { "mHandPinky3Right", "mHandPinky2Right", "" },
  { "mHandThumb1Right", "mWristRight", "" },
  { "mHandThumb2Right", "mHandThumb1Right", "" },
  { "mHandThumb3Right", "mHandThumb2Right", "" },
  { "mWingsRoot", "mChest", "" },
  { "mWing1Left", "mWingsRoot", "" },
  { "mWing2Left", "mWing1Left", "" },
  { "mWing3Left", "mWing2Left", "" },
  { "mWing4Left", "mWing3Left", "" },
  { "mWing4FanLeft", "mWing3Left", "" },
  { "mWing1Right", "mWingsRoot", "" },
  { "mWing2Right", "mWing1Right", "" },
  { "mWing3Right", "mWing2Right", "" },
  { "mWing4Right", "mWing3Right", "" },
  { "mWing4FanRight", "mWing3Right", "" },
  { "mHipRight", "mPelvis", "rThigh" },
  { "mKneeRight", "mHipRight", "rShin" },
  { "mAnkleRight", "mKneeRight", "rFoot" },
  { "mFootRight", "mAnkleRight", "" },
  { "mToeRight", "mFootRight", "" },
  { "mHipLeft", "mPelvis", "lThigh" },
  { "mKneeLeft", "mHipLeft", "lShin" },
  { "mAnkleLeft", "mKneeLeft", "lFoot" },
  { "mFootLeft", "mAnkleLeft", "" },
  { "mToeLeft", "mFootLeft", "" },
  { "mTail1", "mPelvis", "" },
  { "mTail2", "mTail1", "" },
  { "mTail3", "mTail2", "" },
  { "mTail4", "mTail3", "" },
  { "mTail5", "mTail4", "" },
  { "mTail6", "mTail5", "" },
  { "mGroin", "mPelvis", "" },
  { "mHindLimbsRoot", "mPelvis", "" },
  { "mHindLimb1Left", "mHindLimbsRoot", "" },
  { "mHindLimb2Left", "mHindLimb1Left", "" },
  { "mHindLimb3Left", "mHindLimb2Left", "" },
  { "mHindLimb4Left", "mHindLimb3Left", "" },
  { "mHindLimb1Right", "mHindLimbsRoot", "" },
  { "mHindLimb2Right", "mHindLimb1Right", "" },
  { "mHindLimb3Right", "mHindLimb2Right", "" },
  { "mHindLimb4Right", "mHindLimb3Right", "" },
};

/* name, parent bone */
static const char * const volumes[][2] = {
  { "PELVIS", "mPelvis" }, { "BUTT", "mPelvis" }, { "BELLY", "mTorso" }, { "LEFT_HANDLE", "mTorso" },
  { "RIGHT_HANDLE", "mTorso" }, { "LOWER_BACK", "mTorso" }, { "CHEST", "mChest" }, { "LEFT_PEC", "mChest" },
  { "RIGHT_PEC", "mChest" }, { "UPPER_BACK", "mChest" }, { "NECK", "mNeck" }, { "HEAD", "mHead" },
  { "L_CLAVICLE", "mCollarLeft" }, { "L_UPPER_ARM", "mShoulderLeft" }, { "L_LOWER_ARM", "mElbowLeft" },
  { "L_HAND", "mWristLeft" }, { "R_CLAVICLE", "mCollarRight" }, { "R_UPPER_ARM", "mShoulderRight" },
  { "R_LOWER_ARM", "mElbowRight" }, { "R_HAND", "mWristRight" }, { "R_UPPER_LEG", "mHipRight" },
  { "R_LOWER_LEG", "mKneeRight" }, { "R_FOOT", "mAnkleRight" }, { "L_UPPER_LEG", "mHipLeft" },
  { "L_LOWER_LEG", "mKneeLeft" }, { "L_FOOT", "mAnkleLeft" },
};

/* avatar_lad.xml attachment points 1-55: name, joint */
static const char * const attachments[][2] = {
  { "Chest", "mChest" }, { "Skull", "mHead" }, { "Left Shoulder", "mCollarLeft" },
  { "Right Shoulder", "mCollarRight" }, { "Left Hand", "mWristLeft" }, { "Right Hand", "mWristRight" },
  { "Left Foot", "mFootLeft" }, { "Right Foot", "mFootRight" }, { "Spine", "mChest" }, { "Pelvis", "mPelvis" },
  { "Mouth", "mHead" }, { "Chin", "mHead" }, { "Left Ear", "mHead" }, { "Right Ear", "mHead" },
  { "Left Eyeball", "mEyeLeft" }, { "Right Eyeball", "mEyeRight" }, { "Nose", "mHead" },
  { "R Upper Arm", "mShoulderRight" }, { "R Forearm", "mElbowRight" }, { "L Upper Arm", "mShoulderLeft" },
  { "L Forearm", "mElbowLeft" }, { "Right Hip", "mHipRight" }, { "R Upper Leg", "mHipRight" },
  { "R Lower Leg", "mKneeRight" }, { "Left Hip", "mHipLeft" }, { "L Upper Leg", "mHipLeft" },
  { "L Lower Leg", "mKneeLeft" }, { "Stomach", "mPelvis" }, { "Left Pec", "mTorso" }, { "Right Pec", "mTorso" },
  { "Center 2", NULL }, { "Top Right", NULL }, { "Top", NULL }, { "Top Left", NULL }, { "Center", NULL },
  { "Bottom Left", NULL }, { "Bottom", NULL }, { "Bottom Right", NULL }, { "Neck", "mNeck" },
  { "Avatar Center", NULL }, { "Left Ring Finger", "mHandRing1Left" }, { "Right Ring Finger", "mHandRing1Right" },
  { "Tail Base", "mTail1" }, { "Tail Tip", "mTail6" }, { "Left Wing", "mWing4Left" },
  { "Right Wing", "mWing4Right" }, { "Jaw", "mFaceJaw" }, { "Alt Left Ear", "mFaceEar1Left" },
  { "Alt Right Ear", "mFaceEar1Right" }, { "Alt Left Eye", "mFaceEyeAltLeft" },
  { "Alt Right Eye", "mFaceEyeAltRight" }, { "Tongue", "mFaceTongueTip" }, { "Groin", "mGroin" },
  { "Left Hind Foot", "mHindLimb4Left" }, { "Right Hind Foot", "mHindLimb4Right" },
};

static const Bone *
find_bone (const char *name)
{
  for (guint i = 0; i < SQ_SL_N_BONES; i++)
    if (strcmp (bones[i].name, name) == 0)
      return &bones[i];
  return NULL;
}

/* an attachment name with its spaces, or each written as '_' */
static gboolean
attachment_matches (const char *attachment,
                    const char *name)
{
  for (; *attachment != '\0' && *name != '\0'; attachment++, name++)
    if (*attachment != *name && !(*attachment == ' ' && *name == '_'))
      return FALSE;
  return *attachment == '\0' && *name == '\0';
}

SqSlNameKind
sq_sl_lookup_name (const char  *name,
                   const char **bone)
{
  const Bone *b;
  const char *dummy;

  if (bone == NULL)
    bone = &dummy;
  *bone = NULL;
  if (name == NULL)
    return SQ_SL_NAME_UNKNOWN;
  if (strcmp (name, "mScreen") == 0 || strcmp (name, "mRoot") == 0)
    return SQ_SL_NAME_SPECIAL;
  if ((b = find_bone (name)) != NULL)
    {
      *bone = b->name;
      return SQ_SL_NAME_BONE;
    }
  if (g_str_has_prefix (name, "avatar_") && (b = find_bone (name + strlen ("avatar_"))) != NULL)
    {
      *bone = b->name;
      return SQ_SL_NAME_ALIAS;
    }
  for (guint i = 0; i < SQ_SL_N_BONES; i++)
    if (bones[i].alias[0] != '\0' && strcmp (bones[i].alias, name) == 0)
      {
        *bone = bones[i].name;
        return SQ_SL_NAME_ALIAS;
      }
  for (guint i = 0; i < G_N_ELEMENTS (volumes); i++)
    if (strcmp (volumes[i][0], name) == 0)
      {
        *bone = volumes[i][1];
        return SQ_SL_NAME_COLLISION_VOLUME;
      }
  for (guint i = 0; i < G_N_ELEMENTS (attachments); i++)
    if (attachment_matches (attachments[i][0], name))
      {
        *bone = attachments[i][1];
        return SQ_SL_NAME_ATTACHMENT;
      }
  return SQ_SL_NAME_UNKNOWN;
}

const char *
sq_sl_bone_name (guint i)
{
  return i < SQ_SL_N_BONES ? bones[i].name : NULL;
}

const char *
sq_sl_bone_parent (const char *bone)
{
  const Bone *b = bone ? find_bone (bone) : NULL;

  return b ? b->parent : NULL;
}

const char *
sq_sl_collision_volume_bone (const char *volume)
{
  for (guint i = 0; volume != NULL && i < G_N_ELEMENTS (volumes); i++)
    if (strcmp (volumes[i][0], volume) == 0)
      return volumes[i][1];
  return NULL;
}
