/* sq-sl-behaviour.c: what the Second Life avatar does with a clip
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Facts: formats.md 1.10a (SL wiki "Avatar body size", "Animation Upload
 * Priority", "Suggested BVH Hip Y Locations"; Avastar notes; viewer
 * issue #1331 on Closed_Mouth) and 1.7 (the emote names gAnimLibrary
 * knows, indra/llcharacter/llanimationstates.cpp).
 */
#define G_LOG_DOMAIN "sq-sl-behaviour"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "sq-convert.h"
#include "sq-fields.h"
#include "sq-motion.h"
#include "sq-sl-skeleton.h"
#include "sq-validate.h"
#include "worlds/sq-sl-behaviour.h"
#include "worlds/sq-world-sl.h"

/* the joints whose positions set the avatar's height above the ground,
 * mPelvis aside (SL wiki "Avatar body size") */
static const char * const body_size_bones[] = {
  "mSkull", "mNeck", "mChest", "mHead", "mTorso", "mHipLeft", "mHipRight", "mKneeLeft", "mKneeRight",
  "mAnkleLeft", "mAnkleRight", "mFootLeft", "mFootRight",
};

/* gAnimLibrary's names (formats.md 1.7): any of them passes the viewer's
 * check, case-insensitively */
static const char * const known_emotes[] = {
  "express_afraid", "express_anger", "express_laugh", "express_bored", "express_cry", "express_embarrased",
  "express_afraid_emote", "express_anger_emote", "express_bored_emote", "express_cry_emote",
  "express_disdain", "express_embarrassed_emote", "express_frown", "express_kiss", "express_laugh_emote",
  "express_open_mouth", "express_repulsed_emote", "express_sad_emote", "express_shrug_emote",
  "express_smile", "express_surprise_emote", "express_tongue_out", "express_toothsmile",
  "express_wink_emote", "express_worry_emote", "express_repulsed", "express_sad", "express_shrug",
  "express_surprise", "express_wink", "express_worry",
  "aim_r_bazooka", "aim_l_bow", "aim_r_handgun", "aim_r_rifle", "away", "backflip", "blowkiss", "bow",
  "brush", "busy", "clap", "courtbow", "crouch", "crouchwalk", "turn_180", "turnback_180", "dance1",
  "dance2", "dance3", "dance4", "dance5", "dance6", "dance7", "dance8", "dead", "drink", "falldown",
  "female_run_new", "female_walk", "female_walk_new", "angry_fingerwag", "fist_pump", "fly", "flyslow",
  "hello", "hold_r_bazooka", "hold_l_bow", "hold_r_handgun", "hold_r_rifle", "hold_throw_r", "hover",
  "hover_down", "hover_up", "impatient", "jump", "jumpforjoy", "kissmybutt", "land", "laugh_short",
  "soft_land", "motorcycle_sit", "musclebeach", "no_head", "no_unhappy", "nyanya", "punch_onetwo", "peace",
  "point_me", "point_you", "prejump", "punch_l", "punch_r", "kick_roundhouse_r", "rps_countdown",
  "rps_paper", "rps_rock", "rps_scissors", "run", "run_new", "salute", "shoot_l_bow", "shout", "sit",
  "sit_female", "sit_ground", "sit_ground_constrained", "sit_generic", "sit_to_stand", "sleep",
  "smoke_idle", "smoke_inhale", "smoke_throw_down", "snapshot", "stand", "standup", "stand_1", "stand_2",
  "stand_3", "stand_4", "stretch", "stride", "surf", "talk", "angry_tantrum", "throw_r", "tryon_shirt",
  "turnleft", "turnright", "type", "walk", "walk_new", "whisper", "whistle", "wink_hollywood", "yes_head",
  "yes_happy", "yoga_float",
};

/* a pose: no rotation moves more than this (degrees) nor a position more
 * than POSE_METRES over the part that plays */
#define POSE_DEGREES 1.0
#define POSE_METRES  0.01

gboolean
sq_sl_emote_is_known (const char *name)
{
  if (name == NULL || name[0] == '\0')
    return TRUE;
  for (gsize i = 0; i < G_N_ELEMENTS (known_emotes); i++)
    if (g_ascii_strcasecmp (name, known_emotes[i]) == 0)
      return TRUE;
  return FALSE;
}

/* The bone a joint's name resolves to (bone or alias), NULL for none */
static const char *
joint_bone (const SqJoint *joint)
{
  const char *bone = NULL;
  SqSlNameKind kind = sq_sl_lookup_name (joint->name, &bone);

  return kind == SQ_SL_NAME_BONE || kind == SQ_SL_NAME_ALIAS ? bone : NULL;
}

static gssize
find_bone (const SqClip *clip,
           const char   *bone)
{
  for (gsize j = 0; j < clip->n_joints; j++)
    if (g_strcmp0 (joint_bone (&clip->joints[j]), bone) == 0)
      return (gssize) j;
  return -1;
}

static gboolean
is_body_size_bone (const char *bone)
{
  for (gsize i = 0; i < G_N_ELEMENTS (body_size_bones); i++)
    if (strcmp (bone, body_size_bones[i]) == 0)
      return TRUE;
  return FALSE;
}

static const SqSpace *
clip_space (const SqClip *clip)
{
  return clip->format != NULL && clip->format->space != NULL ? clip->format->space : &sq_space_second_life;
}

static gboolean
is_bvh (const SqClip *clip)
{
  return clip->format != NULL && clip->format->space == &sq_space_bvh;
}

/* Position keys on joints other than mPelvis: the body-size ones bob, all
 * of them override the shape */
static void
add_position_findings (const SqClip *clip,
                       GPtrArray    *findings)
{
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqJoint *joint = &clip->joints[j];
      const SqTrack *t = &joint->tracks[SQ_CHANNEL_TRANSLATION];
      const char *bone = joint_bone (joint);
      double first;

      if (t->n_keys == 0 || bone == NULL || strcmp (bone, "mPelvis") == 0)
        continue;
      first = sq_track_time (t, 0);
      if (is_body_size_bone (bone))
        _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_TRANSLATION, 0,
                         g_dngettext (GETTEXT_PACKAGE,
                                      "joint “%s” has %zu position key (key 1, at %.3f s): %s is one of the joints "
                                      "that set the avatar's height above the ground, so moving it makes the avatar "
                                      "bob up and down; while the animation plays it also overrides the wearer's shape",
                                      "joint “%s” has %zu position keys (key 1 at %.3f s): %s is one of the joints "
                                      "that set the avatar's height above the ground, so moving it makes the avatar "
                                      "bob up and down; while the animation plays it also overrides the wearer's shape",
                                      t->n_keys),
                         joint->name, t->n_keys, first, bone);
      else
        _sq_add_finding (findings, SQ_SEVERITY_INFO, j, SQ_CHANNEL_TRANSLATION, 0,
                         g_dngettext (GETTEXT_PACKAGE,
                                      "joint “%s” has %zu position key (key 1, at %.3f s): while the animation plays, "
                                      "it puts the joint where the key says instead of where the wearer's shape "
                                      "sliders put it",
                                      "joint “%s” has %zu position keys (key 1 at %.3f s): while the animation plays, "
                                      "they put the joint where the keys say instead of where the wearer's shape "
                                      "sliders put it",
                                      t->n_keys),
                         joint->name, t->n_keys, first);
    }
}

/* The viewer's own abdomen motion and breathing */
static void
add_idle_findings (const SqClip *clip,
                   GPtrArray    *findings)
{
  SqSlFields f;
  gssize torso = find_bone (clip, "mTorso");
  gssize chest = find_bone (clip, "mChest");

  sq_sl_fields_get (clip, &f);
  if (f.priority <= 1)
    _sq_add_finding (findings, SQ_SEVERITY_INFO, torso, SQ_CHANNEL_ROTATION, -1,
                     _("base priority %d is 1 or lower: the viewer adds its own random abdomen motion (mTorso) "
                       "while the animation plays"), (int) f.priority);
  else if (torso < 0 || clip->joints[torso].tracks[SQ_CHANNEL_ROTATION].n_keys == 0)
    _sq_add_finding (findings, SQ_SEVERITY_INFO, torso, SQ_CHANNEL_ROTATION, -1,
                     _("no key on mTorso: the viewer adds its own random abdomen motion while the animation plays"));
  if (chest < 0 || clip->joints[chest].tracks[SQ_CHANNEL_ROTATION].n_keys == 0)
    _sq_add_finding (findings, SQ_SEVERITY_INFO, chest, SQ_CHANNEL_ROTATION, -1,
                     _("no key on mChest: the viewer adds its breathing motion to the chest while the animation "
                       "plays"));
}

static void
add_emote_findings (const SqClip *clip,
                    GPtrArray    *findings)
{
  SqSlFields f;

  sq_sl_fields_get (clip, &f);
  if (f.emote[0] != '\0' && g_ascii_strcasecmp (f.emote, "Closed_Mouth") == 0)
    _sq_add_finding (findings, SQ_SEVERITY_INFO, -1, 0, -1,
                     _("the emote “%s” does nothing: the viewer clears it when it loads the animation (many "
                       "motions name it)"), f.emote);
  else if (!sq_sl_emote_is_known (f.emote))
    _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, 0, -1,
                     _("the emote “%s” is not one the viewer knows: it ignores it (and notes so in its log)"),
                     f.emote);
  else if (f.emote[0] != '\0')
    _sq_add_finding (findings, SQ_SEVERITY_INFO, -1, 0, -1,
                     _("the emote “%s” moves the face of the system avatar only: Bento mesh heads ignore the "
                       "built-in emotes"), f.emote);
  if (f.hand_pose >= 2 && f.hand_pose < SQ_SL_N_HAND_POSES)
    _sq_add_finding (findings, SQ_SEVERITY_INFO, -1, 0, -1,
                     _("the hand pose “%s” shapes the hands of the system avatar only: Bento mesh hands follow "
                       "their finger joints"), sq_sl_hand_pose_name (f.hand_pose));
}

/* Whether nothing moves after `start`: the clip is a pose */
static gboolean
clip_is_pose (const SqClip *clip,
              double        start)
{
  const SqSpace *space = clip_space (clip);

  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_CHANNEL_SCALE; c++)
      {
        const SqTrack *t = &clip->joints[j].tracks[c];
        double first[4];

        if (t->n_keys < 2)
          continue;
        sq_track_sample (t, c, start, first);
        for (gsize k = sq_track_lower_bound (t, start, 0, t->n_keys); k < t->n_keys; k++)
          {
            SqKey key = sq_track_key (t, k);
            double a[3], b[3];

            if (c == SQ_CHANNEL_ROTATION)
              {
                if (sq_quat_angle_between (first, key.v) > POSE_DEGREES)
                  return FALSE;
                continue;
              }
            sq_space_vector_to_sl (space, first, a);
            sq_space_vector_to_sl (space, key.v, b);
            if (fabs (a[0] - b[0]) > POSE_METRES || fabs (a[1] - b[1]) > POSE_METRES
                || fabs (a[2] - b[2]) > POSE_METRES)
              return FALSE;
          }
      }
  return TRUE;
}

/* A pose whose hip stands far from the usual standing and ground-sit
 * heights (the SL wiki's suggested BVH hip Y) */
static void
add_hip_height_finding (const SqClip *clip,
                        GPtrArray    *findings)
{
  gssize pelvis = find_bone (clip, "mPelvis");
  const SqTrack *t;
  double start = 0, rest[3] = { 0, 0, 1.067 }, m[3], inches, to_stand, to_sit;
  SqKey key;

  if (pelvis < 0 || (t = &clip->joints[pelvis].tracks[SQ_CHANNEL_TRANSLATION])->n_keys == 0)
    return;
  if (is_bvh (clip) && sq_bvh_reference_frame (clip, NULL) == SQ_BVH_REFERENCE_FIRST)
    {
      double ft;

      sq_bvh_frame_count (clip, &ft);
      start = ft;
    }
  if (!clip_is_pose (clip, start))
    return;
  key = sq_track_key (t, t->n_keys - 1);
  sq_space_vector_to_sl (clip_space (clip), key.v, m);
  /* a BVH's hip holds its height; a .anim's pelvis is offset from the
   * avatar's own */
  if (!is_bvh (clip))
    {
      sq_sl_bone_rest_position ("mPelvis", rest);
      m[2] += rest[2];
    }
  inches = m[2] / SQ_BVH_INCHES_TO_METRES;
  to_stand = fabs (inches - SQ_SL_HIP_Y_STANDING);
  to_sit = fabs (inches - SQ_SL_HIP_Y_GROUND_SIT);
  if (MIN (to_stand, to_sit) <= SQ_SL_HIP_Y_TOLERANCE)
    return;
  _sq_add_finding (findings, SQ_SEVERITY_WARNING, pelvis, SQ_CHANNEL_TRANSLATION, (gssize) t->n_keys - 1,
                   to_stand < to_sit
                   ? _("joint “%s” position key %zu puts the hip %.1f in above the ground in this pose, far from "
                       "the %.1f in usual for a standing pose: on shorter and taller shapes the avatar floats or "
                       "sinks into the ground")
                   : _("joint “%s” position key %zu puts the hip %.1f in above the ground in this pose, far from "
                       "the %.1f in usual for a ground sit: on shorter and taller shapes the avatar floats or sinks "
                       "into the ground"),
                   clip->joints[pelvis].name, t->n_keys, inches,
                   to_stand < to_sit ? SQ_SL_HIP_Y_STANDING : SQ_SL_HIP_Y_GROUND_SIT);
}

static void
add_reference_finding (const SqClip *clip,
                       GPtrArray    *findings)
{
  g_autofree char *why = NULL;
  SqBvhReference kind = sq_bvh_reference_frame (clip, &why);

  if (kind == SQ_BVH_REFERENCE_POSE_ONLY)
    _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, 0, -1, "%s", why);
  else if (kind != SQ_BVH_REFERENCE_NONE)
    _sq_add_finding (findings, SQ_SEVERITY_INFO, -1, 0, -1, "%s", why);
}

void
sq_sl_add_behaviour_findings (const SqClip *clip,
                              GPtrArray    *findings)
{
  add_position_findings (clip, findings);
  add_idle_findings (clip, findings);
  add_emote_findings (clip, findings);
  add_hip_height_finding (clip, findings);
  if (is_bvh (clip))
    add_reference_finding (clip, findings);
}
