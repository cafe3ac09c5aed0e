/* sq-joint-map.c: joint names across the worlds, and user map files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Facts: formats.md 1.8 (Second Life bones, their BVH aliases), Appendix A
 * (rest positions), 4 (ActiveWorlds tags, through sq-aw-skeleton.c). The
 * motion capture names are the ones in the CMU corpus files (Hips,
 * LeftHip, LeftCollar…) and the common Hips/Spine/LeftUpLeg/LeftArm set.
 * The Sims' bones: formats.md 5.5 (ROOT, SPINE1, the toes' tips and the
 * fingers have no counterpart: their parents carry their motion).
 * The rigs people bring, recognised by name: CMU's, Mixamo's
 * (mixamorig:Hips, LeftUpLeg, LeftArm …), 3ds Max Biped's (Bip01 Pelvis,
 * Bip01 L Thigh, Bip01 L UpperArm …; Bip01 itself is the placement above
 * the pelvis) and the Unreal / Rokoko style (pelvis, spine_01, thigh_l,
 * upperarm_l …). The same tables ship as map files a user can copy and
 * edit (data/maps/).
 */
#define G_LOG_DOMAIN "sq-joint-map"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "worlds/sq-aw-skeleton.h"
#include "sq-error.h"
#include "sq-joint-map.h"
#include "worlds/sq-sl-skeleton.h"
#include "worlds/sq-world-sims.h"

/* One concept: the SL bone, the AW tag, and motion capture names
 * ('|'-separated, compared ignoring case). */
typedef struct
{
  const char *sl;
  guint8      tag;
  const char *mocap;
} Concept;

static const Concept concepts[] = {
  { "mPelvis", 1, "Hips|Hip|Pelvis" },
  { "mTorso", 2, "Spine|lowerback|Abdomen|LowerBack|spine_01" },
  { "mChest", 55, "Spine1|Chest|UpperBack|spine_03" },
  { "mNeck", 3, "Neck|neck_01" },
  { "mHead", 4, "Head" },
  { "mSkull", 31, "HeadTop_End|Head_End" },
  { "mEyeRight", 37, "RightEye" },
  { "mEyeLeft", 38, "LeftEye" },
  { "mCollarLeft", 10, "LeftShoulder|LeftCollar|LCollar|L Clavicle|clavicle_l" },
  { "mShoulderLeft", 11, "LeftArm|LeftUpArm|LeftUpperArm|L UpperArm|upperarm_l" },
  { "mElbowLeft", 12, "LeftForeArm|LeftElbow|LeftLowArm|LeftLowerArm|L Forearm|lowerarm_l" },
  { "mWristLeft", 13, "LeftHand|LeftWrist|L Hand|hand_l" },
  { "mCollarRight", 5, "RightShoulder|RightCollar|RCollar|R Clavicle|clavicle_r" },
  { "mShoulderRight", 6, "RightArm|RightUpArm|RightUpperArm|R UpperArm|upperarm_r" },
  { "mElbowRight", 7, "RightForeArm|RightElbow|RightLowArm|RightLowerArm|R Forearm|lowerarm_r" },
  { "mWristRight", 8, "RightHand|RightWrist|R Hand|hand_r" },
  { "mHipRight", 15, "RightUpLeg|RightHip|RightThigh|RightUpperLeg|R Thigh|thigh_r" },
  { "mKneeRight", 16, "RightLeg|RightKnee|RightShin|RightLowLeg|RightLowerLeg|R Calf|calf_r" },
  { "mAnkleRight", 17, "RightFoot|RightAnkle|R Foot|foot_r" },
  { "mFootRight", 18, "RightToeBase|RightToe|R Toe0|ball_r" },
  { "mToeRight", 0, "RightToe_End|RightToeEnd" },
  { "mHipLeft", 19, "LeftUpLeg|LeftHip|LeftThigh|LeftUpperLeg|L Thigh|thigh_l" },
  { "mKneeLeft", 20, "LeftLeg|LeftKnee|LeftShin|LeftLowLeg|LeftLowerLeg|L Calf|calf_l" },
  { "mAnkleLeft", 21, "LeftFoot|LeftAnkle|L Foot|foot_l" },
  { "mFootLeft", 22, "LeftToeBase|LeftToe|L Toe0|ball_l" },
  { "mToeLeft", 0, "LeftToe_End|LeftToeEnd" },
  { "mTail1", 24, "Tail|Tail1" },
  { "mTail2", 25, "Tail2" },
  { "mTail3", 26, "Tail3" },
  { "mTail4", 27, "Tail4" },
  { "mFaceEar1Right", 41, "RightEar" },
  { "mFaceEar1Left", 42, "LeftEar" },
  { "mFaceChin", 54, "Chin" },
  /* fingers: ActiveWorlds numbers them from 1 = thumb, two joints each */
  { "mHandThumb1Right", 59, "RightHandThumb1|RThumb" },
  { "mHandThumb2Right", 60, "RightHandThumb2" },
  { "mHandIndex1Right", 61, "RightHandIndex1" },
  { "mHandIndex2Right", 62, "RightHandIndex2" },
  { "mHandMiddle1Right", 63, "RightHandMiddle1" },
  { "mHandMiddle2Right", 64, "RightHandMiddle2" },
  { "mHandRing1Right", 65, "RightHandRing1" },
  { "mHandRing2Right", 66, "RightHandRing2" },
  { "mHandPinky1Right", 67, "RightHandPinky1" },
  { "mHandPinky2Right", 68, "RightHandPinky2" },
  { "mHandThumb1Left", 69, "LeftHandThumb1|LThumb" },
  { "mHandThumb2Left", 70, "LeftHandThumb2" },
  { "mHandIndex1Left", 71, "LeftHandIndex1" },
  { "mHandIndex2Left", 72, "LeftHandIndex2" },
  { "mHandMiddle1Left", 73, "LeftHandMiddle1" },
  { "mHandMiddle2Left", 74, "LeftHandMiddle2" },
  { "mHandRing1Left", 75, "LeftHandRing1" },
  { "mHandRing2Left", 76, "LeftHandRing2" },
  { "mHandPinky1Left", 77, "LeftHandPinky1" },
  { "mHandPinky2Left", 78, "LeftHandPinky2" },
  /* ActiveWorlds limbs with no Second Life bone */
  { NULL, 9, "RFingers|RightFingers" },
  { NULL, 14, "LFingers|LeftFingers" },
};

/* prefixes rigs put before the names above (compared ignoring case) */
static const char * const rig_prefixes[] = { "mixamorig:", "mixamorig_", "Bip01 ", "Bip01_" };

/* the CMU spelling, where the names above mean a different joint */
static const struct { const char *name; const char *sl; } cmu_names[] = {
  { "LeftShoulder", "mShoulderLeft" }, { "RightShoulder", "mShoulderRight" },
};

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

/* The Sims bones with a counterpart, and its Second Life bone */
static const char * const sims_bones[][2] = {
  { "PELVIS", "mPelvis" }, { "SPINE", "mTorso" }, { "SPINE2", "mChest" }, { "NECK", "mNeck" },
  { "HEAD", "mHead" }, { "L_ARM", "mCollarLeft" }, { "L_ARM1", "mShoulderLeft" },
  { "L_ARM2", "mElbowLeft" }, { "L_HAND", "mWristLeft" }, { "R_ARM", "mCollarRight" },
  { "R_ARM1", "mShoulderRight" }, { "R_ARM2", "mElbowRight" }, { "R_HAND", "mWristRight" },
  { "L_LEG", "mHipLeft" }, { "L_LEG1", "mKneeLeft" }, { "L_FOOT", "mAnkleLeft" }, { "L_TOE0", "mFootLeft" },
  { "R_LEG", "mHipRight" }, { "R_LEG1", "mKneeRight" }, { "R_FOOT", "mAnkleRight" }, { "R_TOE0", "mFootRight" },
};

static const char *
sims_bone_of_sl (const char *bone)
{
  for (gsize i = 0; bone != NULL && i < G_N_ELEMENTS (sims_bones); i++)
    if (strcmp (sims_bones[i][1], bone) == 0)
      return sims_bones[i][0];
  return NULL;
}

static const Concept *
concept_for_sl (const char *bone)
{
  for (gsize i = 0; i < G_N_ELEMENTS (concepts); i++)
    if (concepts[i].sl != NULL && strcmp (concepts[i].sl, bone) == 0)
      return &concepts[i];
  return NULL;
}

static const Concept *
concept_for_tag (guint tag)
{
  for (gsize i = 0; i < G_N_ELEMENTS (concepts); i++)
    if (concepts[i].tag == tag)
      return &concepts[i];
  return NULL;
}

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

/* Second Life names first (exact, as the viewer), then The Sims' bones
 * (exact), then ActiveWorlds (ignoring case, as ActiveWorlds), then the
 * motion capture names. */
gboolean
sq_joint_concept_lookup (const char         *name,
                         SqJointLookupFlags  flags,
                         SqJointConcept     *out)
{
  const char *bone = NULL;
  SqSlNameKind kind;
  guint tag;

  out->sl_bone = NULL;
  out->aw_tag = 0;
  if (name == NULL || *name == '\0')
    return FALSE;

  kind = sq_sl_lookup_name (name, &bone);
  if ((kind == SQ_SL_NAME_BONE || kind == SQ_SL_NAME_ALIAS) && bone != NULL)
    {
      const Concept *c = concept_for_sl (bone);
      out->sl_bone = bone;
      out->aw_tag = c ? c->tag : 0;
      return TRUE;
    }
  if (sq_sims_bone_index (name) >= 0)
    {
      /* a Sims bone without a counterpart stands for nothing elsewhere */
      for (gsize i = 0; i < G_N_ELEMENTS (sims_bones); i++)
        if (strcmp (sims_bones[i][0], name) == 0)
          {
            const Concept *c = concept_for_sl (sims_bones[i][1]);
            out->sl_bone = c->sl;
            out->aw_tag = c->tag;
            return TRUE;
          }
      return FALSE;
    }
  tag = sq_aw_tag_for_name (name);
  if (tag != 0)
    {
      const Concept *c = concept_for_tag (tag);
      out->aw_tag = tag;
      out->sl_bone = c ? c->sl : NULL;
      return TRUE;
    }
  /* a rig's prefix: Mixamo's namespace, Biped's figure name */
  for (gsize i = 0; i < G_N_ELEMENTS (rig_prefixes); i++)
    if (g_ascii_strncasecmp (name, rig_prefixes[i], strlen (rig_prefixes[i])) == 0
        && name[strlen (rig_prefixes[i])] != '\0')
      return sq_joint_concept_lookup (name + strlen (rig_prefixes[i]), flags, out);
  if (flags & SQ_JOINT_LOOKUP_CMU)
    for (gsize i = 0; i < G_N_ELEMENTS (cmu_names); i++)
      if (g_ascii_strcasecmp (cmu_names[i].name, name) == 0)
        {
          const Concept *c = concept_for_sl (cmu_names[i].sl);
          out->sl_bone = c->sl;
          out->aw_tag = c->tag;
          return TRUE;
        }
  for (gsize i = 0; i < G_N_ELEMENTS (concepts); i++)
    if (mocap_matches (concepts[i].mocap, name))
      {
        out->sl_bone = concepts[i].sl;
        out->aw_tag = concepts[i].tag;
        return TRUE;
      }
  return FALSE;
}

/* The limbs a retarget matches (sq-retarget.c): each concept's bone points
 * at the next one along its chain (the nearest the skeleton has) */
static const char * const limb_chains[][7] = {
  { "mPelvis", "mTorso", "mChest", "mNeck", "mHead", "mSkull", NULL },
  { "mCollarLeft", "mShoulderLeft", "mElbowLeft", "mWristLeft", "mHandMiddle1Left", NULL },
  { "mCollarRight", "mShoulderRight", "mElbowRight", "mWristRight", "mHandMiddle1Right", NULL },
  { "mHipLeft", "mKneeLeft", "mAnkleLeft", "mFootLeft", "mToeLeft", NULL },
  { "mHipRight", "mKneeRight", "mAnkleRight", "mFootRight", "mToeRight", NULL },
};

const char * const *
sq_joint_concept_tips (const char *sl_bone)
{
  for (gsize c = 0; sl_bone != NULL && c < G_N_ELEMENTS (limb_chains); c++)
    for (gsize i = 0; limb_chains[c][i] != NULL; i++)
      if (strcmp (limb_chains[c][i], sl_bone) == 0)
        return limb_chains[c][i + 1] != NULL ? &limb_chains[c][i + 1] : NULL;
  return NULL;
}

gboolean
sq_joint_concept_hub_position (const char *sl_bone,
                               double      out[3])
{
  return sq_sl_bone_rest_position (sl_bone, out);
}

SqJointLookupFlags
sq_joint_lookup_flags (const SqClip *clip)
{
  for (gsize j = 0; j < clip->n_joints; j++)
    if (g_ascii_strcasecmp (clip->joints[j].name, "LeftCollar") == 0
        || g_ascii_strcasecmp (clip->joints[j].name, "RightCollar") == 0
        || g_ascii_strcasecmp (clip->joints[j].name, "LHipJoint") == 0)
      return SQ_JOINT_LOOKUP_CMU;
  return 0;
}

static const char *
sl_bvh_alias (const char *bone)
{
  for (gsize i = 0; i < G_N_ELEMENTS (sl_bvh_aliases); i++)
    if (strcmp (sl_bvh_aliases[i][0], bone) == 0)
      return sl_bvh_aliases[i][1];
  return NULL;
}

const char *
sq_joint_concept_name (const SqJointConcept *concept,
                       SqJointScheme         scheme)
{
  switch (scheme)
    {
    case SQ_JOINT_SCHEME_AW_SEQ:
      return concept->aw_tag ? sq_aw_seq_name (concept->aw_tag) : NULL;
    case SQ_JOINT_SCHEME_AW_DX:
      return concept->aw_tag ? sq_aw_dx_name (concept->aw_tag) : NULL;
    case SQ_JOINT_SCHEME_SL:
      return concept->sl_bone;
    case SQ_JOINT_SCHEME_SL_BVH:
      if (concept->sl_bone == NULL)
        return NULL;
      return sl_bvh_alias (concept->sl_bone) ? sl_bvh_alias (concept->sl_bone) : concept->sl_bone;
    case SQ_JOINT_SCHEME_SIMS:
      return sims_bone_of_sl (concept->sl_bone);
    case SQ_JOINT_SCHEME_NONE:
    default:
      return NULL;
    }
}

gboolean
sq_joint_name_in_scheme (const char    *name,
                         SqJointScheme  scheme)
{
  const char *bone = NULL;

  if (name == NULL)
    return FALSE;
  switch (scheme)
    {
    case SQ_JOINT_SCHEME_NONE:
      return TRUE;
    case SQ_JOINT_SCHEME_AW_SEQ:
      return sq_aw_joint_tag (name) != 0;
    case SQ_JOINT_SCHEME_AW_DX:
      return g_ascii_strncasecmp (name, "aw_", 3) == 0 && sq_aw_tag_for_name (name) != 0;
    case SQ_JOINT_SCHEME_SL:
      return sq_sl_lookup_name (name, NULL) == SQ_SL_NAME_BONE;
    case SQ_JOINT_SCHEME_SIMS:
      return sq_sims_bone_index (name) >= 0;
    case SQ_JOINT_SCHEME_SL_BVH:
      switch (sq_sl_lookup_name (name, &bone))
        {
        case SQ_SL_NAME_BONE:
          return sl_bvh_alias (name) == NULL;
        case SQ_SL_NAME_ALIAS:
          return bone != NULL && g_strcmp0 (sl_bvh_alias (bone), name) == 0;
        default:
          return FALSE;
        }
    default:
      return FALSE;
    }
}

const char *
sq_joint_name_for_scheme (const char         *name,
                          SqJointScheme       scheme,
                          SqJointLookupFlags  flags)
{
  SqJointConcept c;

  if (sq_joint_name_in_scheme (name, scheme))
    return name;
  if (!sq_joint_concept_lookup (name, flags, &c))
    return NULL;
  return sq_joint_concept_name (&c, scheme);
}

/* ---- user map files ---------------------------------------------------- */

struct _SqJointMap
{
  GHashTable *entries;        /* source → target, "" for a dropped joint */
  GPtrArray  *order;          /* sources in file order */
};

SqJointMap *
sq_joint_map_new (void)
{
  SqJointMap *map = g_new0 (SqJointMap, 1);

  map->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  map->order = g_ptr_array_new ();
  return map;
}

void
sq_joint_map_free (SqJointMap *map)
{
  if (map == NULL)
    return;
  g_hash_table_unref (map->entries);
  g_ptr_array_unref (map->order);
  g_free (map);
}

void
sq_joint_map_add (SqJointMap *map,
                  const char *source,
                  const char *target)
{
  if (!g_hash_table_contains (map->entries, source))
    {
      char *key = g_strdup (source);
      g_ptr_array_add (map->order, key);
      g_hash_table_insert (map->entries, key, g_strdup (target ? target : ""));
    }
  else
    /* g_hash_table_insert keeps the stored key, which `order` points to */
    g_hash_table_insert (map->entries, g_strdup (source), g_strdup (target ? target : ""));
}

gsize
sq_joint_map_size (const SqJointMap *map)
{
  return map ? g_hash_table_size (map->entries) : 0;
}

const char *
sq_joint_map_source_at (const SqJointMap *map,
                        gsize             index)
{
  return map != NULL && index < map->order->len ? g_ptr_array_index (map->order, index) : NULL;
}

gboolean
sq_joint_map_lookup (const SqJointMap *map,
                     const char       *source,
                     const char      **target)
{
  const char *t;

  if (map == NULL || source == NULL)
    return FALSE;
  t = g_hash_table_lookup (map->entries, source);
  if (t == NULL)
    return FALSE;
  if (target != NULL)
    *target = *t == '\0' ? NULL : t;
  return TRUE;
}

/* One name at `p` (quoted or bare, bare ends at `stop` or the line end,
 * trailing blanks removed); returns the character after it. */
static const char *
scan_name (const char  *line,
           const char  *p,
           const char  *end,
           char         stop,
           guint        lineno,
           char       **out,
           GError     **error)
{
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  if (p < end && *p == '"')
    {
      const char *start = ++p;
      while (p < end && *p != '"')
        p++;
      if (p >= end)
        {
          sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lineno, (guint) (start - line),
                                _("a quoted name has no closing quote"));
          return NULL;
        }
      *out = g_strndup (start, p - start);
      return p + 1;
    }
  else
    {
      const char *start = p, *last;
      while (p < end && *p != stop && *p != '#' && *p != '"')
        p++;
      last = p;
      while (last > start && (last[-1] == ' ' || last[-1] == '\t'))
        last--;
      *out = g_strndup (start, last - start);
      return p;
    }
}

SqJointMap *
sq_joint_map_parse (GBytes  *bytes,
                    GError **error)
{
  g_autoptr(SqJointMap) map = sq_joint_map_new ();
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  const char *end = data + len;
  const char *line = data;
  guint lineno = 0;

  if (data == NULL)
    return g_steal_pointer (&map);
  if (!g_utf8_validate_len (data, len, NULL))
    {
      const char *bad = NULL;
      guint l = 1;
      g_utf8_validate_len (data, len, &bad);
      for (const char *q = data; q < bad; q++)
        if (*q == '\n')
          {
            l++;
            line = q + 1;
          }
      sq_set_error_at_line (error, SQ_ERROR_SYNTAX, l, (guint) (bad - line) + 1,
                            _("the joint map is not valid UTF-8"));
      return NULL;
    }
  /* a UTF-8 byte order mark */
  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    line = data + 3;

  while (line < end)
    {
      const char *eol = memchr (line, '\n', end - line);
      const char *stop = eol ? eol : end;
      const char *p = line;
      g_autofree char *source = NULL;
      g_autofree char *target = NULL;

      lineno++;
      if (stop > line && stop[-1] == '\r')
        stop--;
      while (p < stop && (*p == ' ' || *p == '\t'))
        p++;
      if (p == stop || *p == '#')
        goto next;

      p = scan_name (line, p, stop, '=', lineno, &source, error);
      if (p == NULL)
        return NULL;
      while (p < stop && (*p == ' ' || *p == '\t'))
        p++;
      if (*source == '\0')
        {
          sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lineno, (guint) (p - line) + 1,
                                _("a joint name is missing before “=”"));
          return NULL;
        }
      if (p >= stop || *p != '=')
        {
          /* "a b": point at the blank where "=" was expected */
          const char *q = line;
          while (q < p && (*q == ' ' || *q == '\t'))
            q++;
          while (q < p && *q != ' ' && *q != '\t' && *q != '"')
            q++;
          if (q >= p || *q == '"')
            q = p;
          sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lineno, (guint) (q - line) + 1,
                                _("“=” expected after the joint name “%s”"), source);
          return NULL;
        }
      p++;
      {
        gboolean quoted;
        while (p < stop && (*p == ' ' || *p == '\t'))
          p++;
        quoted = p < stop && *p == '"';
        p = scan_name (line, p, stop, '\0', lineno, &target, error);
        if (p == NULL)
          return NULL;
        while (p < stop && (*p == ' ' || *p == '\t'))
          p++;
        if (p < stop && *p != '#')
          {
            sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lineno, (guint) (p - line) + 1,
                                  _("unexpected text after the target name"));
            return NULL;
          }
        if (*target == '\0')
          {
            sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lineno, (guint) (p - line) + 1,
                                  _("a target name (or “-” to drop the joint) is missing after “=”"));
            return NULL;
          }
        if (sq_joint_map_lookup (map, source, NULL))
          {
            sq_set_error_at_line (error, SQ_ERROR_SYNTAX, lineno, 1,
                                  _("the joint “%s” is mapped twice"), source);
            return NULL;
          }
        sq_joint_map_add (map, source, !quoted && strcmp (target, "-") == 0 ? NULL : target);
      }
    next:
      line = eol ? eol + 1 : end;
    }
  return g_steal_pointer (&map);
}
