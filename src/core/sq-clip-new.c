/* sq-clip-new.c: a new animation in a world's rest pose
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one place that reaches the worlds' skeletons for a new animation
 * (Second Life's bones, ActiveWorlds' limbs, The Sims' 29 bones). A clip
 * is built in memory with every joint at rest (the identity, and The
 * Sims' stored rest rotations), keyed at the start and the end, then saved
 * in the world's format and read back, so the new document is exactly the
 * file it will be.
 */
#define G_LOG_DOMAIN "sq-clip-new"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "worlds/sq-aw-skeleton.h"
#include "sq-clip-new.h"
#include "sq-error.h"
#include "sq-format.h"
#include "worlds/sq-sl-skeleton.h"
#include "worlds/sq-world-sims.h"
#include "worlds/sq-world-sl.h"

#define NEW_MAX_DURATION 3600.0

static const char * const worlds[] = { "sl", "sl-bento", "aw", "sims", "sims-child", "bvh", NULL };

/* Second Life's classic skeleton (avatar_skeleton.xml's 26 bones before
 * Bento) */
static const char * const sl_classic[] = {
  "mPelvis", "mTorso", "mChest", "mNeck", "mHead", "mSkull", "mEyeLeft", "mEyeRight",
  "mCollarLeft", "mShoulderLeft", "mElbowLeft", "mWristLeft",
  "mCollarRight", "mShoulderRight", "mElbowRight", "mWristRight",
  "mHipLeft", "mKneeLeft", "mAnkleLeft", "mFootLeft", "mToeLeft",
  "mHipRight", "mKneeRight", "mAnkleRight", "mFootRight", "mToeRight", NULL,
};

const char * const *
sq_clip_new_worlds (void)
{
  return worlds;
}

const char *
sq_clip_new_world_name (const char *world)
{
  static const char * const names[] = {
    N_("Second Life"), N_("Second Life with Bento bones"), N_("ActiveWorlds"),
    N_("The Sims (adult)"), N_("The Sims (child)"), N_("BVH on Second Life's skeleton"),
  };

  for (guint i = 0; worlds[i] != NULL; i++)
    if (g_strcmp0 (world, worlds[i]) == 0)
      return _(names[i]);
  return NULL;
}

/* a joint keyed at rest at 0 and at the end */
static SqJoint *
add_rest_joint (SqClip       *clip,
                const char   *name,
                const double  rotation[4],
                const double *position)
{
  SqJoint *joint = sq_clip_add_joint (clip, name);
  double times[2] = { 0.0, clip->duration };

  for (guint i = 0; i < 2; i++)
    {
      memcpy (sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], times[i])->v, rotation, 4 * sizeof (double));
      if (position != NULL)
        memcpy (sq_track_append (&joint->tracks[SQ_CHANNEL_TRANSLATION], times[i])->v, position, 3 * sizeof (double));
    }
  return joint;
}

static void
build_sl (SqClip  *clip,
          gboolean bento)
{
  static const double identity[4] = { 1, 0, 0, 0 }, zero[3] = { 0, 0, 0 };
  guint n = bento ? SQ_SL_N_BONES : g_strv_length ((char **) sl_classic);

  for (guint i = 0; i < n; i++)
    {
      const char *name = bento ? sq_sl_bone_name (i) : sl_classic[i];

      add_rest_joint (clip, name, identity, g_str_equal (name, "mPelvis") ? zero : NULL);
    }
}

static void
build_aw (SqClip *clip)
{
  static const double identity[4] = { 1, 0, 0, 0 }, zero[3] = { 0, 0, 0 };

  /* tags 1..22: the ActiveWorlds humanoid's limbs, pelvis first */
  for (guint tag = 1; tag <= 22; tag++)
    add_rest_joint (clip, sq_aw_seq_name (tag), identity, tag == 1 ? zero : NULL);
}

static SqClip *
build_sims (SqSimsAge age,
            double    duration)
{
  const SqSimsBone *bones = sq_sims_skeleton (age);
  SqClip *clip = _sq_sims_clip_new (&_sq_format_sims_cmx, age);

  clip->duration = round (duration * SQ_SIMS_FPS) / SQ_SIMS_FPS;
  for (int i = 0; i < SQ_SIMS_N_BONES; i++)
    {
      SqJoint *joint = &clip->joints[i];
      double q[4], times[2] = { 0.0, clip->duration };

      _sq_sims_quat_from_file (bones[i].rot, q);
      for (guint k = 0; k < 2; k++)
        {
          memcpy (sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], times[k])->v, q, sizeof q);
          if (i <= 1)   /* ROOT and PELVIS carry translations */
            memcpy (sq_track_append (&joint->tracks[SQ_CHANNEL_TRANSLATION], times[k])->v,
                    bones[i].pos, sizeof bones[i].pos);
        }
    }
  return clip;
}

/* A BVH on Second Life's classic skeleton: the bones' rest offsets (from
 * avatar_skeleton.xml) in BVH's axes and units, the hip with position and
 * rotation channels, the others with rotations, in the order Second Life's
 * own BVH files use (Z, X, Y); a key on every frame */
static void
build_bvh (SqClip *clip)
{
  static const char * const root_channels[] = { "Xposition", "Yposition", "Zposition",
                                                "Zrotation", "Xrotation", "Yrotation" };
  guint n = g_strv_length ((char **) sl_classic);
  gsize frames = (gsize) llround (clip->duration * clip->fps) + 1;

  for (guint i = 0; i < n; i++)
    {
      SqJoint *joint = sq_clip_add_joint (clip, sl_classic[i]);
      const char *parent = sq_sl_bone_parent (sl_classic[i]);
      gssize p = -1;

      /* the nearest ancestor among the classic bones (Bento's spine
       * bones lie between some) */
      while (parent != NULL && (p = sq_clip_find_joint (clip, parent)) < 0)
        parent = sq_sl_bone_parent (parent);
      double here[3] = { 0, 0, 0 }, there[3] = { 0, 0, 0 }, rel[3], off[3];

      sq_sl_bone_rest_position (sl_classic[i], here);
      if (p >= 0)
        sq_sl_bone_rest_position (parent, there);
      for (guint c = 0; c < 3; c++)
        rel[c] = here[c] - there[c];
      sq_space_vector_from_sl (&sq_space_bvh, rel, off);
      sq_props_set (joint->extra, "parent", g_variant_new_int32 ((gint32) p));
      sq_props_set (joint->extra, "offset", g_variant_new ("(ddd)", off[0], off[1], off[2]));
      sq_props_set (joint->extra, "channels", g_variant_new_strv (p < 0 ? root_channels : root_channels + 3,
                                                                   p < 0 ? 6 : 3));
      for (gsize f = 0; f < frames; f++)
        {
          sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], (double) f / clip->fps)->v[0] = 1.0;
          if (p < 0)
            sq_track_append (&joint->tracks[SQ_CHANNEL_TRANSLATION], (double) f / clip->fps);
        }
    }
  /* a leaf's end: its bone's length along its parent's, 10 cm when none */
  for (guint i = 0; i < n; i++)
    {
      gboolean leaf = TRUE;

      for (guint k = 0; k < n; k++)
        leaf &= sq_props_get_int (clip->joints[k].extra, "parent", -1) != (gint64) i;
      if (leaf)
        {
          double end[3] = { 0, 0, 0.1 }, out[3];

          sq_space_vector_from_sl (&sq_space_bvh, end, out);
          sq_props_set (clip->joints[i].extra, "end-site", g_variant_new ("(ddd)", out[0], out[1], out[2]));
        }
    }
}

/* the clip as the format's bytes give it back */
static SqClip *
through_format (const SqClip   *clip,
                const SqFormat *format,
                GError        **error)
{
  g_autoptr(GBytes) bytes = sq_save_bytes (clip, format, NULL, NULL, error);

  if (bytes == NULL)
    return NULL;
  return sq_load_bytes (bytes, NULL, format, NULL, error);
}

SqClip *
sq_clip_new_for_world (const char *world,
                       double      duration,
                       double      fps,
                       GError    **error)
{
  g_autoptr(SqClip) clip = NULL;
  const char *format = NULL;

  if (sq_clip_new_world_name (world) == NULL)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                   _("Unknown world “%s” (sl, sl-bento, aw, sims, sims-child or bvh)"), world);
      return NULL;
    }
  if (!(duration > 0) || duration > NEW_MAX_DURATION || !(fps >= 1) || fps > 1000)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                   _("A new animation lasts more than 0 and at most %g seconds, at 1 to 1000 frames a second"),
                   NEW_MAX_DURATION);
      return NULL;
    }
  if (g_str_has_prefix (world, "sims"))
    return build_sims (g_str_equal (world, "sims") ? SQ_SIMS_ADULT : SQ_SIMS_CHILD, duration);

  clip = sq_clip_new ();
  clip->fps = fps;
  clip->duration = round (duration * fps) / fps > 0 ? round (duration * fps) / fps : duration;
  if (g_str_equal (world, "aw"))
    {
      build_aw (clip);
      format = "seq-binary";
    }
  else if (g_str_equal (world, "bvh"))
    {
      clip->format = sq_format_by_id ("bvh");
      build_bvh (clip);
      format = "bvh";
    }
  else
    {
      /* in Second Life's conventions, so a BVH gets its hierarchy and
       * rest offsets the way a converted .anim does */
      clip->format = sq_format_by_id ("sl-anim");
      build_sl (clip, g_str_equal (world, "sl-bento"));
      format = "sl-anim";
    }
  return through_format (clip, sq_format_by_id (format), error);
}
