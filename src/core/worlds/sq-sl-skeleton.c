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

#include "worlds/sq-sl-skeleton.h"

typedef struct
{
  const char *name;
  const char *parent;
  const char *alias;           /* the BVH alias of a base bone, "" for none */
  double      pos[3];           /* rest position relative to the parent, metres, SL axes */
} Bone;

static const Bone bones[SQ_SL_N_BONES] = {
  { "mPelvis", NULL, "hip", { 0.000, 0.000, 1.067 } },
  { "mSpine1", "mPelvis", "", { 0.000, 0.000, 0.084 } },
  { "mSpine2", "mSpine1", "", { 0.000, 0.000, -0.084 } },
  { "mTorso", "mSpine2", "abdomen", { 0.000, 0.000, 0.084 } },
  { "mSpine3", "mTorso", "", { -0.015, 0.000, 0.205 } },
  { "mSpine4", "mSpine3", "", { 0.015, 0.000, -0.205 } },
  { "mChest", "mSpine4", "chest", { -0.015, 0.000, 0.205 } },
  { "mNeck", "mChest", "neck", { -0.010, 0.000, 0.251 } },
  { "mHead", "mNeck", "head", { 0.000, 0.000, 0.076 } },
  { "mSkull", "mHead", "figureHair", { 0.000, 0.000, 0.079 } },
  { "mEyeRight", "mHead", "", { 0.098, -0.036, 0.079 } },
  { "mEyeLeft", "mHead", "", { 0.098, 0.036, 0.079 } },
  { "mFaceRoot", "mHead", "", { 0.025, 0.000, 0.045 } },
  { "mFaceEyeAltRight", "mFaceRoot", "", { 0.073, -0.036, 0.034 } },
  { "mFaceEyeAltLeft", "mFaceRoot", "", { 0.073, 0.036, 0.034 } },
  { "mFaceForeheadLeft", "mFaceRoot", "", { 0.061, 0.035, 0.083 } },
  { "mFaceForeheadRight", "mFaceRoot", "", { 0.061, -0.035, 0.083 } },
  { "mFaceEyebrowOuterLeft", "mFaceRoot", "", { 0.064, 0.051, 0.048 } },
  { "mFaceEyebrowCenterLeft", "mFaceRoot", "", { 0.070, 0.043, 0.056 } },
  { "mFaceEyebrowInnerLeft", "mFaceRoot", "", { 0.075, 0.022, 0.051 } },
  { "mFaceEyebrowOuterRight", "mFaceRoot", "", { 0.064, -0.051, 0.048 } },
  { "mFaceEyebrowCenterRight", "mFaceRoot", "", { 0.070, -0.043, 0.056 } },
  { "mFaceEyebrowInnerRight", "mFaceRoot", "", { 0.075, -0.022, 0.051 } },
  { "mFaceEyeLidUpperLeft", "mFaceRoot", "", { 0.073, 0.036, 0.034 } },
  { "mFaceEyeLidLowerLeft", "mFaceRoot", "", { 0.073, 0.036, 0.034 } },
  { "mFaceEyeLidUpperRight", "mFaceRoot", "", { 0.073, -0.036, 0.034 } },
  { "mFaceEyeLidLowerRight", "mFaceRoot", "", { 0.073, -0.036, 0.034 } },
  { "mFaceEar1Left", "mFaceRoot", "", { 0.000, 0.080, 0.002 } },
  { "mFaceEar2Left", "mFaceEar1Left", "", { -0.019, 0.018, 0.025 } },
  { "mFaceEar1Right", "mFaceRoot", "", { 0.000, -0.080, 0.002 } },
  { "mFaceEar2Right", "mFaceEar1Right", "", { -0.019, -0.018, 0.025 } },
  { "mFaceNoseLeft", "mFaceRoot", "", { 0.086, 0.015, -0.004 } },
  { "mFaceNoseCenter", "mFaceRoot", "", { 0.102, 0.000, 0.000 } },
  { "mFaceNoseRight", "mFaceRoot", "", { 0.086, -0.015, -0.004 } },
  { "mFaceCheekLowerLeft", "mFaceRoot", "", { 0.050, 0.034, -0.031 } },
  { "mFaceCheekUpperLeft", "mFaceRoot", "", { 0.070, 0.034, -0.005 } },
  { "mFaceCheekLowerRight", "mFaceRoot", "", { 0.050, -0.034, -0.031 } },
  { "mFaceCheekUpperRight", "mFaceRoot", "", { 0.070, -0.034, -0.005 } },
  { "mFaceJaw", "mFaceRoot", "", { -0.001, 0.000, -0.015 } },
  { "mFaceChin", "mFaceJaw", "", { 0.074, 0.000, -0.054 } },
  { "mFaceTeethLower", "mFaceJaw", "", { 0.021, 0.000, -0.039 } },
  { "mFaceLipLowerLeft", "mFaceTeethLower", "", { 0.045, 0.000, 0.000 } },
  { "mFaceLipLowerRight", "mFaceTeethLower", "", { 0.045, 0.000, 0.000 } },
  { "mFaceLipLowerCenter", "mFaceTeethLower", "", { 0.045, 0.000, 0.000 } },
  { "mFaceTongueBase", "mFaceTeethLower", "", { 0.039, 0.000, 0.005 } },
  { "mFaceTongueTip", "mFaceTongueBase", "", { 0.022, 0.000, 0.007 } },
  { "mFaceJawShaper", "mFaceRoot", "", { 0.000, 0.000, 0.000 } },
  { "mFaceForeheadCenter", "mFaceRoot", "", { 0.069, 0.000, 0.065 } },
  { "mFaceNoseBase", "mFaceRoot", "", { 0.094, 0.000, -0.016 } },
  { "mFaceTeethUpper", "mFaceRoot", "", { 0.020, 0.000, -0.030 } },
  { "mFaceLipUpperLeft", "mFaceTeethUpper", "", { 0.045, 0.000, -0.003 } },
  { "mFaceLipUpperRight", "mFaceTeethUpper", "", { 0.045, 0.000, -0.003 } },
  { "mFaceLipCornerLeft", "mFaceTeethUpper", "", { 0.028, -0.019, -0.010 } },
  { "mFaceLipCornerRight", "mFaceTeethUpper", "", { 0.028, 0.019, -0.010 } },
  { "mFaceLipUpperCenter", "mFaceTeethUpper", "", { 0.045, 0.000, -0.003 } },
  { "mFaceEyecornerInnerLeft", "mFaceRoot", "", { 0.075, 0.017, 0.032 } },
  { "mFaceEyecornerInnerRight", "mFaceRoot", "", { 0.075, -0.017, 0.032 } },
  { "mFaceNoseBridge", "mFaceRoot", "", { 0.091, 0.000, 0.020 } },
  { "mCollarLeft", "mChest", "lCollar", { -0.021, 0.085, 0.165 } },
  { "mShoulderLeft", "mCollarLeft", "lShldr", { 0.000, 0.079, 0.000 } },
  { "mElbowLeft", "mShoulderLeft", "lForeArm", { 0.000, 0.248, 0.000 } },
  { "mWristLeft", "mElbowLeft", "lHand", { 0.000, 0.205, 0.000 } },
  { "mHandMiddle1Left", "mWristLeft", "", { 0.013, 0.101, 0.015 } },
  { "mHandMiddle2Left", "mHandMiddle1Left", "", { -0.001, 0.040, -0.006 } },
  { "mHandMiddle3Left", "mHandMiddle2Left", "", { -0.001, 0.049, -0.008 } },
  { "mHandIndex1Left", "mWristLeft", "", { 0.038, 0.097, 0.015 } },
  { "mHandIndex2Left", "mHandIndex1Left", "", { 0.017, 0.036, -0.006 } },
  { "mHandIndex3Left", "mHandIndex2Left", "", { 0.014, 0.032, -0.006 } },
  { "mHandRing1Left", "mWristLeft", "", { -0.010, 0.099, 0.009 } },
  { "mHandRing2Left", "mHandRing1Left", "", { -0.013, 0.038, -0.008 } },
  { "mHandRing3Left", "mHandRing2Left", "", { -0.013, 0.040, -0.009 } },
  { "mHandPinky1Left", "mWristLeft", "", { -0.031, 0.095, 0.003 } },
  { "mHandPinky2Left", "mHandPinky1Left", "", { -0.024, 0.025, -0.006 } },
  { "mHandPinky3Left", "mHandPinky2Left", "", { -0.015, 0.018, -0.004 } },
  { "mHandThumb1Left", "mWristLeft", "", { 0.031, 0.026, 0.004 } },
  { "mHandThumb2Left", "mHandThumb1Left", "", { 0.028, 0.032, -0.001 } },
  { "mHandThumb3Left", "mHandThumb2Left", "", { 0.023, 0.031, -0.001 } },
  { "mCollarRight", "mChest", "rCollar", { -0.021, -0.085, 0.165 } },
  { "mShoulderRight", "mCollarRight", "rShldr", { 0.000, -0.079, 0.000 } },
  { "mElbowRight", "mShoulderRight", "rForeArm", { 0.000, -0.248, 0.000 } },
  { "mWristRight", "mElbowRight", "rHand", { 0.000, -0.205, 0.000 } },
  { "mHandMiddle1Right", "mWristRight", "", { 0.013, -0.101, 0.015 } },
  { "mHandMiddle2Right", "mHandMiddle1Right", "", { -0.001, -0.040, -0.006 } },
  { "mHandMiddle3Right", "mHandMiddle2Right", "", { -0.001, -0.049, -0.008 } },
  { "mHandIndex1Right", "mWristRight", "", { 0.038, -0.097, 0.015 } },
  { "mHandIndex2Right", "mHandIndex1Right", "", { 0.017, -0.036, -0.006 } },
  { "mHandIndex3Right", "mHandIndex2Right", "", { 0.014, -0.032, -0.006 } },
  { "mHandRing1Right", "mWristRight", "", { -0.010, -0.099, 0.009 } },
  { "mHandRing2Right", "mHandRing1Right", "", { -0.013, -0.038, -0.008 } },
  { "mHandRing3Right", "mHandRing2Right", "", { -0.013, -0.040, -0.009 } },
  { "mHandPinky1Right", "mWristRight", "", { -0.031, -0.095, 0.003 } },
  { "mHandPinky2Right", "mHandPinky1Right", "", { -0.024, -0.025, -0.006 } },
  { "mHandPinky3Right", "mHandPinky2Right", "", { -0.015, -0.018, -0.004 } },
  { "mHandThumb1Right", "mWristRight", "", { 0.031, -0.026, 0.004 } },
  { "mHandThumb2Right", "mHandThumb1Right", "", { 0.028, -0.032, -0.001 } },
  { "mHandThumb3Right", "mHandThumb2Right", "", { 0.023, -0.031, -0.001 } },
  { "mWingsRoot", "mChest", "", { -0.014, 0.000, 0.000 } },
  { "mWing1Left", "mWingsRoot", "", { -0.099, 0.105, 0.181 } },
  { "mWing2Left", "mWing1Left", "", { -0.168, 0.169, 0.067 } },
  { "mWing3Left", "mWing2Left", "", { -0.181, 0.183, 0.000 } },
  { "mWing4Left", "mWing3Left", "", { -0.171, 0.173, 0.000 } },
  { "mWing4FanLeft", "mWing3Left", "", { -0.171, 0.173, 0.000 } },
  { "mWing1Right", "mWingsRoot", "", { -0.099, -0.105, 0.181 } },
  { "mWing2Right", "mWing1Right", "", { -0.168, -0.169, 0.067 } },
  { "mWing3Right", "mWing2Right", "", { -0.181, -0.183, 0.000 } },
  { "mWing4Right", "mWing3Right", "", { -0.171, -0.173, 0.000 } },
  { "mWing4FanRight", "mWing3Right", "", { -0.171, -0.173, 0.000 } },
  { "mHipRight", "mPelvis", "rThigh", { 0.034, -0.129, -0.041 } },
  { "mKneeRight", "mHipRight", "rShin", { -0.001, 0.049, -0.491 } },
  { "mAnkleRight", "mKneeRight", "rFoot", { -0.029, 0.000, -0.468 } },
  { "mFootRight", "mAnkleRight", "", { 0.112, 0.000, -0.061 } },
  { "mToeRight", "mFootRight", "", { 0.109, 0.000, 0.000 } },
  { "mHipLeft", "mPelvis", "lThigh", { 0.034, 0.127, -0.041 } },
  { "mKneeLeft", "mHipLeft", "lShin", { -0.001, -0.046, -0.491 } },
  { "mAnkleLeft", "mKneeLeft", "lFoot", { -0.029, 0.001, -0.468 } },
  { "mFootLeft", "mAnkleLeft", "", { 0.112, 0.000, -0.061 } },
  { "mToeLeft", "mFootLeft", "", { 0.109, 0.000, 0.000 } },
  { "mTail1", "mPelvis", "", { -0.116, 0.000, 0.047 } },
  { "mTail2", "mTail1", "", { -0.197, 0.000, 0.000 } },
  { "mTail3", "mTail2", "", { -0.168, 0.000, 0.000 } },
  { "mTail4", "mTail3", "", { -0.142, 0.000, 0.000 } },
  { "mTail5", "mTail4", "", { -0.112, 0.000, 0.000 } },
  { "mTail6", "mTail5", "", { -0.094, 0.000, 0.000 } },
  { "mGroin", "mPelvis", "", { 0.064, 0.000, -0.097 } },
  { "mHindLimbsRoot", "mPelvis", "", { -0.200, 0.000, 0.084 } },
  { "mHindLimb1Left", "mHindLimbsRoot", "", { -0.204, 0.129, -0.125 } },
  { "mHindLimb2Left", "mHindLimb1Left", "", { 0.002, -0.046, -0.491 } },
  { "mHindLimb3Left", "mHindLimb2Left", "", { -0.030, -0.003, -0.468 } },
  { "mHindLimb4Left", "mHindLimb3Left", "", { 0.112, 0.000, -0.061 } },
  { "mHindLimb1Right", "mHindLimbsRoot", "", { -0.204, -0.129, -0.125 } },
  { "mHindLimb2Right", "mHindLimb1Right", "", { 0.002, 0.046, -0.491 } },
  { "mHindLimb3Right", "mHindLimb2Right", "", { -0.030, 0.003, -0.468 } },
  { "mHindLimb4Right", "mHindLimb3Right", "", { 0.112, 0.000, -0.061 } },
};

/* The collision volumes in avatar_lad.xml order, and the bone each hangs from */
#define N_VOLUMES 26
static const char * const volumes[N_VOLUMES + 1] = {
  "PELVIS", "BUTT", "BELLY", "LEFT_HANDLE", "RIGHT_HANDLE", "LOWER_BACK", "CHEST", "LEFT_PEC",
  "RIGHT_PEC", "UPPER_BACK", "NECK", "HEAD", "L_CLAVICLE", "L_UPPER_ARM", "L_LOWER_ARM", "L_HAND",
  "R_CLAVICLE", "R_UPPER_ARM", "R_LOWER_ARM", "R_HAND", "R_UPPER_LEG", "R_LOWER_LEG", "R_FOOT",
  "L_UPPER_LEG", "L_LOWER_LEG", "L_FOOT", NULL
};
static const char * const volume_bones[N_VOLUMES] = {
  "mPelvis", "mPelvis", "mTorso", "mTorso", "mTorso", "mTorso", "mChest", "mChest",
  "mChest", "mChest", "mNeck", "mHead", "mCollarLeft", "mShoulderLeft", "mElbowLeft", "mWristLeft",
  "mCollarRight", "mShoulderRight", "mElbowRight", "mWristRight", "mHipRight", "mKneeRight", "mAnkleRight",
  "mHipLeft", "mKneeLeft", "mAnkleLeft",
};

static int
find_volume (const char *name)
{
  for (int i = 0; name != NULL && i < N_VOLUMES; i++)
    if (strcmp (volumes[i], name) == 0)
      return i;
  return -1;
}

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

/* Every name sq_sl_lookup_name resolves, in one table made once: a value
 * is the kind and the index of the row it came from (+ 1). The rows are
 * entered in the order the rules apply (mScreen/mRoot, a bone, "avatar_"
 * and a bone, a bone's alias, a collision volume, an attachment point with
 * each space written as ' ' or '_'), and a name keeps its first entry: the
 * answer is the first rule that matches, as a search through the lists in
 * that order gives. The validation looks up every joint's name more than
 * once, so the lists' ~450 comparisons for a name of no rule (every bone of
 * a Sims or ActiveWorlds clip) were most of it. */
static GHashTable *names;

#define NAME_VALUE(kind, i) GUINT_TO_POINTER (((guint) (kind) << 16) | ((guint) (i) + 1))

static void
add_name (const char  *name,
          SqSlNameKind kind,
          guint        i)
{
  if (!g_hash_table_contains (names, name))
    g_hash_table_insert (names, g_strdup (name), NAME_VALUE (kind, i));
}

/* "Left Ear", "Left_Ear": every way of writing each space */
static void
add_attachment (const char *attachment,
                guint       i)
{
  g_autofree char *name = g_strdup (attachment);
  guint spaces[8], n = 0;

  for (guint k = 0; name[k] != '\0' && n < G_N_ELEMENTS (spaces); k++)
    if (name[k] == ' ')
      spaces[n++] = k;
  for (guint mask = 0; mask < (1u << n); mask++)
    {
      for (guint b = 0; b < n; b++)
        name[spaces[b]] = mask & (1u << b) ? '_' : ' ';
      add_name (name, SQ_SL_NAME_ATTACHMENT, i);
    }
}

static void
names_init (void)
{
  static gsize done = 0;

  if (!g_once_init_enter (&done))
    return;
  names = g_hash_table_new (g_str_hash, g_str_equal);
  add_name ("mScreen", SQ_SL_NAME_SPECIAL, 0);
  add_name ("mRoot", SQ_SL_NAME_SPECIAL, 0);
  for (guint i = 0; i < SQ_SL_N_BONES; i++)
    add_name (bones[i].name, SQ_SL_NAME_BONE, i);
  for (guint i = 0; i < SQ_SL_N_BONES; i++)
    {
      g_autofree char *alias = g_strconcat ("avatar_", bones[i].name, NULL);
      add_name (alias, SQ_SL_NAME_ALIAS, i);
    }
  for (guint i = 0; i < SQ_SL_N_BONES; i++)
    if (bones[i].alias[0] != '\0')
      add_name (bones[i].alias, SQ_SL_NAME_ALIAS, i);
  for (guint i = 0; i < N_VOLUMES; i++)
    add_name (volumes[i], SQ_SL_NAME_COLLISION_VOLUME, i);
  for (guint i = 0; i < G_N_ELEMENTS (attachments); i++)
    add_attachment (attachments[i][0], i);
  g_once_init_leave (&done, 1);
}

static const Bone *
find_bone (const char *name)
{
  guint v;

  names_init ();
  v = GPOINTER_TO_UINT (g_hash_table_lookup (names, name));
  return v != 0 && (v >> 16) == SQ_SL_NAME_BONE ? &bones[(v & 0xffff) - 1] : NULL;
}

SqSlNameKind
sq_sl_lookup_name (const char  *name,
                   const char **bone)
{
  const char *dummy;
  guint v, i;
  SqSlNameKind kind;

  if (bone == NULL)
    bone = &dummy;
  *bone = NULL;
  if (name == NULL)
    return SQ_SL_NAME_UNKNOWN;
  names_init ();
  v = GPOINTER_TO_UINT (g_hash_table_lookup (names, name));
  if (v == 0)
    return SQ_SL_NAME_UNKNOWN;
  kind = v >> 16;
  i = (v & 0xffff) - 1;
  switch (kind)
    {
    case SQ_SL_NAME_BONE:
    case SQ_SL_NAME_ALIAS:
      *bone = bones[i].name;
      break;
    case SQ_SL_NAME_COLLISION_VOLUME:
      *bone = volume_bones[i];
      break;
    case SQ_SL_NAME_ATTACHMENT:
      *bone = attachments[i][1];
      break;
    case SQ_SL_NAME_SPECIAL:
    case SQ_SL_NAME_UNKNOWN:
    default:
      break;
    }
  return kind;
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
  int i = find_volume (volume);

  return i >= 0 ? volume_bones[i] : NULL;
}

const char * const *
sq_sl_collision_volumes (void)
{
  return volumes;
}

gboolean
sq_sl_is_collision_volume (const char *name)
{
  return find_volume (name) >= 0;
}

gboolean
sq_sl_bone_rest_position (const char *bone,
                          double      out[3])
{
  const Bone *b = bone != NULL ? find_bone (bone) : NULL;
  guint depth = 0;

  out[0] = out[1] = out[2] = 0.0;
  if (b == NULL)
    return FALSE;
  /* the skeleton is a tree of at most a dozen levels */
  while (b != NULL && depth++ < SQ_SL_N_BONES)
    {
      for (int k = 0; k < 3; k++)
        out[k] += b->pos[k];
      b = b->parent != NULL ? find_bone (b->parent) : NULL;
    }
  return TRUE;
}
