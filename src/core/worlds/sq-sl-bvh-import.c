/* sq-sl-bvh-import.c: Second Life's own BVH importer (LLBVHLoader), as the
 * conversion of a BVH clip into a .anim clip, and the reference frame a BVH
 * written from a .anim gets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reached through the world interface (SqWorldHome.import_clip,
 * .after_frames): the converter names none of this.
 */
#define G_LOG_DOMAIN "sq-sl-bvh-import"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "sq-convert.h"
#include "sq-losses.h"
#include "sq-math.h"
#include "sq-clip.h"
#include "worlds/sq-sl-behaviour.h"
#include "worlds/sq-world-sl.h"

static gint32
joint_parent (const SqJoint *joint)
{
  GVariant *v = sq_props_get (joint->extra, "parent");

  if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_INT32))
    return g_variant_get_int32 (v);
  return -1;
}


/* LLBVHLoader's thresholds (formats.md 1.9) */
#define POSITION_KEYFRAME_THRESHOLD_SQ (0.03 * 0.03)   /* BVH units */
#define POSITION_MOTION_THRESHOLD_SQ   (0.001 * 0.001)
#define ROTATION_KEYFRAME_THRESHOLD    0.01
#define ROTATION_MOTION_THRESHOLD      0.001
#define LL_MAX_PELVIS_OFFSET           5.0

static double rot_distance (const double a[4],
                            const double b[4]);

/* Second Life BVH: frame 0 is the reference pose the importer does not play
 * (formats.md 1.9); a clip from a .anim gets one (the rest pose) so that
 * its first key stays the first frame played. A joint keyed at the rest
 * pose all along would not move from that frame and the importer would drop
 * it (though its keys override lower-priority animations): its reference
 * rotation is turned 10° about X instead, so it is kept. The root's stays
 * the rest pose: its keys are made relative to it. */
static void
add_reference_frame (SqClip *clip,
                     double  frame_time)
{
  static const double identity[4] = { 1, 0, 0, 0 };
  const double turned[4] = { cos (G_PI / 36), sin (G_PI / 36), 0, 0 };

  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        SqJoint *joint = &clip->joints[j];
        SqTrack *track = &joint->tracks[c];
        gboolean still = c == SQ_CHANNEL_ROTATION && joint_parent (joint) >= 0;
        SqKey *key;
        gsize idx;

        if (track->n_keys == 0)
          continue;
        sq_track_unpack (track);
        for (gsize k = 0; k < track->n_keys; k++)
          {
            track->keys[k].time += frame_time;
            if (still && rot_distance (identity, track->keys[k].v) > ROTATION_MOTION_THRESHOLD)
              still = FALSE;
          }
        idx = sq_track_insert (track, 0.0);
        key = &track->keys[idx];
        key->v[0] = c == SQ_CHANNEL_TRANSLATION ? 0.0 : 1.0;
        key->v[1] = key->v[2] = 0.0;
        key->v[3] = c == SQ_CHANNEL_SCALE ? 1.0 : 0.0;
        if (c == SQ_CHANNEL_SCALE)
          key->v[1] = key->v[2] = 1.0;
        if (still)
          memcpy (key->v, turned, sizeof turned);
      }
  clip->duration += frame_time;
}

/* ---- BVH → Second Life, as the viewer's importer -------------------------- */


typedef struct
{
  double   rot[4];
  double   pos[3];
  gboolean ignore_rot;
  gboolean ignore_pos;
} Frame;

static double
vec_dist (const double a[3],
          const double b[3])
{
  return sqrt ((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

static double
vec_dist_sq (const double a[3],
             const double b[3])
{
  return (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]);
}

/* |X·q1 − X·q2| + |Y·q1 − Y·q2|: how far the rotated X and Y axes move */
static double
rot_distance (const double a[4],
              const double b[4])
{
  static const double x[3] = { 1, 0, 0 }, y[3] = { 0, 1, 0 };
  double ax[3], bx[3], ay[3], by[3];

  sq_quat_rotate (a, x, ax);
  sq_quat_rotate (b, x, bx);
  sq_quat_rotate (a, y, ay);
  sq_quat_rotate (b, y, by);
  return vec_dist (ax, bx) + vec_dist (ay, by);
}

/* LLQuaternion lerp(t, p, q): p + t (q − p), normalised, no hemisphere check */
static void
ll_lerp (double        t,
         const double  p[4],
         const double  q[4],
         double        out[4])
{
  double m = 0;

  for (int i = 0; i < 4; i++)
    {
      out[i] = p[i] + t * (q[i] - p[i]);
      m += out[i] * out[i];
    }
  m = sqrt (m);
  if (m > 1e-6)
    for (int i = 0; i < 4; i++)
      out[i] /= m;
  else
    {
      out[0] = 1;
      out[1] = out[2] = out[3] = 0;
    }
}

/* LLBVHLoader::optimize() for one joint: marks the frames it would leave
 * out; returns FALSE when the joint never moves beyond the thresholds from
 * frame 0 (the viewer drops the whole joint). */
static gboolean
optimize_joint (Frame  *frames,
                gsize   n,
                guint   child_depth)
{
  gboolean pos_changed = FALSE, rot_changed = FALSE;
  double rot_threshold = ROTATION_KEYFRAME_THRESHOLD / MAX (child_depth * 0.33, 1.0);
  const double *first_pos = frames[0].pos, *first_rot = frames[0].rot;
  gsize ki, ki_prev, last_good_pos, last_good_rot, ki_max;
  guint n_pos_considered = 2, n_rot_considered = 2;
  double diff_max = 0;

  if (n == 0)
    return FALSE;
  ki = 0;
  if (n == 1)
    rot_changed = TRUE;
  else
    {
      frames[0].ignore_pos = frames[0].ignore_rot = TRUE;
      ki = 1;
    }
  ki_prev = last_good_pos = last_good_rot = ki_max = ki;
  for (; ki < n; ki++)
    {
      if (ki_prev == last_good_pos)
        {
          if (vec_dist_sq (frames[ki_prev].pos, first_pos) > POSITION_MOTION_THRESHOLD_SQ)
            pos_changed = TRUE;
        }
      else
        {
          double interp[3];
          double u = 1.0 / n_pos_considered;
          for (int i = 0; i < 3; i++)
            interp[i] = frames[ki].pos[i] + (frames[last_good_pos].pos[i] - frames[ki].pos[i]) * u;
          if (vec_dist_sq (frames[ki].pos, first_pos) > POSITION_MOTION_THRESHOLD_SQ)
            pos_changed = TRUE;
          if (vec_dist_sq (interp, frames[ki_prev].pos) < POSITION_KEYFRAME_THRESHOLD_SQ)
            {
              frames[ki_prev].ignore_pos = TRUE;
              n_pos_considered++;
            }
          else
            {
              n_pos_considered = 2;
              last_good_pos = ki_prev;
            }
        }

      if (ki_prev == last_good_rot)
        {
          if (rot_distance (first_rot, frames[ki_prev].rot) > ROTATION_MOTION_THRESHOLD)
            rot_changed = TRUE;
        }
      else
        {
          double interp[4], test;

          ll_lerp (1.0 / n_rot_considered, frames[ki].rot, frames[last_good_rot].rot, interp);
          if (rot_distance (first_rot, frames[ki_prev].rot) > ROTATION_MOTION_THRESHOLD)
            rot_changed = TRUE;
          test = rot_distance (interp, frames[ki_prev].rot);
          if (test >= rot_threshold || (ki + 1 == n && n_rot_considered > 2))
            {
              n_rot_considered = 2;
              last_good_rot = ki_prev;
              if (diff_max > 0)
                {
                  frames[ki_max].ignore_rot = FALSE;
                  diff_max = 0;
                }
            }
          else
            {
              frames[ki_prev].ignore_rot = TRUE;
              n_rot_considered++;
              if (test > diff_max)
                {
                  diff_max = test;
                  ki_max = ki;
                }
            }
        }
      ki_prev = ki;
    }
  return pos_changed || rot_changed;
}

static guint
bvh_channel_count (const SqJoint *joint)
{
  GVariant *v = sq_props_get (joint->extra, "channels");

  if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_STRING_ARRAY))
    return (guint) g_variant_n_children (v);
  return joint->tracks[SQ_CHANNEL_TRANSLATION].n_keys > 0 ? 6 : 3;
}

static const double identity_rotation[4] = { 1, 0, 0, 0 };

/* What the import counts for its report */
typedef struct
{
  GString *still;
  guint    n_still, clamped, reduced, total;
} ImportCounts;

/* The frame time and the number of frames of a BVH clip */
static gsize
bvh_frames (const SqClip *bvh,
            double       *frame_time)
{
  double ft = bvh->fps > 0 && isfinite (bvh->fps) ? 1.0 / bvh->fps : 1.0 / 30.0;
  GVariant *v = sq_props_get (bvh->extra, "frame-time");
  gsize n_frames;

  if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_DOUBLE) && g_variant_get_double (v) > 0)
    ft = g_variant_get_double (v);
  n_frames = sq_props_get_uint (bvh->extra, "frames", 0);
  for (gsize j = 0; j < bvh->n_joints; j++)
    for (guint c = 0; c < 2; c++)
      if (bvh->joints[j].tracks[c].n_keys > 0)
        {
          const SqTrack *track = &bvh->joints[j].tracks[c];
          double last = sq_track_time (track, track->n_keys - 1);
          double f = floor (last / ft + 0.5) + 1;
          if (f > n_frames && f < 1e7)
            n_frames = (gsize) f;
        }
  *frame_time = ft;
  return n_frames;
}

/* The root, and the depth of the tree below each joint, counted in the
 * viewer's way: from the End Sites up */
static gssize
bvh_depths (const SqClip *bvh,
            guint        *depth)
{
  gsize n = bvh->n_joints;
  g_autofree gboolean *leafy = g_new0 (gboolean, MAX (n, 1));
  gssize root = -1;

  for (gsize j = n; j > 0; j--)
    {
      gsize i = j - 1;
      gint32 p = joint_parent (&bvh->joints[i]);
      if (sq_props_get (bvh->joints[i].extra, "end-site") != NULL)
        leafy[i] = TRUE;
      if (p >= 0 && (gsize) p < i && leafy[i])
        {
          depth[p] = MAX (depth[p], depth[i] + 1);
          leafy[p] = TRUE;
        }
      if (p < 0)
        root = (gssize) i;
    }
  return root;
}

/* The .anim fields the importer gives a clip of `duration` seconds:
 * LLBVHLoader::reset() defaults, ease scaled when they overlap */
static void
set_import_fields (SqClip *out,
                   double  duration)
{
  double ease_in = SQ_SL_DEFAULT_EASE, ease_out = SQ_SL_DEFAULT_EASE;

  if (ease_in + ease_out > duration && duration != 0)
    {
      double f = duration / (ease_in + ease_out);
      ease_in *= f;
      ease_out *= f;
    }
  sq_props_set (out->extra, "version", g_variant_new_uint16 (1));
  sq_props_set (out->extra, "sub-version", g_variant_new_uint16 (0));
  sq_props_set (out->extra, "priority", g_variant_new_int32 (SQ_SL_DEFAULT_PRIORITY));
  sq_props_set (out->extra, "emote", g_variant_new_string (""));
  sq_props_set (out->extra, "loop-in", g_variant_new_double (0.0));
  sq_props_set (out->extra, "loop-out", g_variant_new_double (duration));
  sq_props_set (out->extra, "loop", g_variant_new_int32 (0));
  sq_props_set (out->extra, "ease-in", g_variant_new_double (ease_in));
  sq_props_set (out->extra, "ease-out", g_variant_new_double (ease_out));
  sq_props_set (out->extra, "hand-pose", g_variant_new_uint32 (SQ_SL_DEFAULT_HAND_POSE));
}

/* The rotation keys the importer keeps of one joint's frames */
static void
import_rotations (const Frame  *frames,
                  gsize         n_frames,
                  double        ft,
                  gboolean      pelvis,
                  SqJoint      *dst,
                  ImportCounts *counts)
{
  double first_inv[4];

  sq_quat_conjugate (frames[0].rot, first_inv);
  for (gsize f = 0; f < n_frames; f++)
    {
      double t = (double) (float) (MAX ((double) f - 1.0, 0.0) * ft);
      double q[4];
      SqKey *key;

      counts->total++;
      if (frames[f].ignore_rot)
        {
          if (f > 0)
            counts->reduced++;
          continue;
        }
      if (pelvis)
        sq_quat_multiply (first_inv, frames[f].rot, q);
      else
        memcpy (q, frames[f].rot, sizeof q);
      /* frame 1 and frame 0 (a one-frame file) both land at time 0 */
      if (sq_track_find (&dst->tracks[SQ_CHANNEL_ROTATION], t) >= 0)
        continue;
      key = sq_track_append (&dst->tracks[SQ_CHANNEL_ROTATION], t);
      sq_space_rotation_to_sl (&sq_space_bvh, q, key->v);
    }
}

/* The position keys the importer keeps of one joint's frames (the pelvis's
 * relative to its first frame), clamped to its range */
static void
import_positions (const Frame  *frames,
                  gsize         n_frames,
                  double        ft,
                  gboolean      pelvis,
                  SqJoint      *dst,
                  ImportCounts *counts)
{
  double first_inv[4];

  sq_quat_conjugate (frames[0].rot, first_inv);
  for (gsize f = 0; f < n_frames; f++)
    {
      double t = (double) (float) (MAX ((double) f - 1.0, 0.0) * ft);
      double p[3];
      SqKey *key;

      if (frames[f].ignore_pos)
        continue;
      memcpy (p, frames[f].pos, sizeof p);
      if (pelvis)
        {
          for (int i = 0; i < 3; i++)
            p[i] -= frames[0].pos[i];
          sq_quat_rotate (first_inv, p, p);
        }
      if (sq_track_find (&dst->tracks[SQ_CHANNEL_TRANSLATION], t) >= 0)
        continue;
      key = sq_track_append (&dst->tracks[SQ_CHANNEL_TRANSLATION], t);
      sq_space_vector_to_sl (&sq_space_bvh, p, key->v);
      for (int i = 0; i < 3; i++)
        if (key->v[i] > LL_MAX_PELVIS_OFFSET || key->v[i] < -LL_MAX_PELVIS_OFFSET)
          {
            key->v[i] = CLAMP (key->v[i], -LL_MAX_PELVIS_OFFSET, LL_MAX_PELVIS_OFFSET);
            counts->clamped++;
          }
    }
}

/* One joint of the BVH into `out`, sampled frame by frame and reduced as
 * the importer does; a joint that never moves is left out and counted */
static void
import_joint (const SqJoint *src,
              gsize          n_frames,
              double         ft,
              guint          depth,
              SqClip        *out,
              ImportCounts  *counts)
{
  g_autofree Frame *frames = g_new0 (Frame, n_frames);
  gboolean pelvis = strcmp (src->name, "mPelvis") == 0;
  SqJoint *dst;

  for (gsize f = 0; f < n_frames; f++)
    {
      double v[4];
      sq_track_sample (&src->tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, f * ft, frames[f].rot);
      sq_track_sample (&src->tracks[SQ_CHANNEL_TRANSLATION], SQ_CHANNEL_TRANSLATION, f * ft, v);
      memcpy (frames[f].pos, v, sizeof frames[f].pos);
    }
  /* a joint retargeted off the file's rest pose is kept even when it
   * holds still: frame 0 is no longer Second Life's rest for it */
  if (!optimize_joint (frames, n_frames, depth)
      && !(sq_props_get (src->extra, "retargeted") != NULL
           && rot_distance (identity_rotation, frames[0].rot) > ROTATION_MOTION_THRESHOLD))
    {
      if (counts->n_still++ > 0)
        g_string_append (counts->still, ", ");
      g_string_append_printf (counts->still, "“%s”", src->name);
      return;
    }
  dst = sq_clip_add_joint (out, src->name);
  import_rotations (frames, n_frames, ft, pelvis, dst, counts);
  if (bvh_channel_count (src) == 6)
    import_positions (frames, n_frames, ft, pelvis, dst, counts);
}

/* The importer's lines on the root's name */
static void
report_root (const SqClip *bvh,
             gssize        root,
             const char   *root_source_name,
             GPtrArray    *losses)
{
  if (root >= 0 && strcmp (bvh->joints[root].name, "mPelvis") != 0)
    _sq_loss (losses, _("the BVH ROOT “%s” maps to “%s”, not to mPelvis: the Second Life importer would refuse this file (E_ST_BAD_ROOT)"),
              root_source_name, bvh->joints[root].name);
  else if (root >= 0 && root_source_name != NULL && strcmp (root_source_name, "hip") != 0
           && strcmp (root_source_name, "mPelvis") != 0 && strcmp (root_source_name, "avatar_mPelvis") != 0)
    _sq_loss (losses, _("the BVH ROOT “%s” is written as mPelvis; the Second Life importer itself would refuse the BVH (it wants “hip”, E_ST_BAD_ROOT)"),
              root_source_name);
}

static SqClip *
bvh_to_second_life (const SqClip *bvh,
                    const char   *root_source_name,
                    GPtrArray    *losses)
{
  SqClip *out = sq_clip_new ();
  gsize n = bvh->n_joints;
  g_autofree guint *depth = g_new0 (guint, MAX (n, 1));
  ImportCounts counts = { g_string_new (NULL), 0, 0, 0, 0 };
  double ft, duration;
  gsize n_frames = bvh_frames (bvh, &ft);

  report_root (bvh, bvh_depths (bvh, depth), root_source_name, losses);
  /* the viewer computes times in single precision; so does this, so the
   * last key lands exactly on the duration */
  ft = (double) (float) ft;
  duration = (double) (float) (MAX ((double) n_frames - 2.0, 1.0) * ft);
  out->duration = duration;
  out->fps = 1.0 / ft;
  out->frame_base = 0;
  g_free (out->root);
  out->root = g_strdup ("");
  set_import_fields (out, duration);
  for (gsize j = 0; j < n && n_frames > 0; j++)
    import_joint (&bvh->joints[j], n_frames, ft, depth[j], out, &counts);

  if (n_frames > 1)
    _sq_loss (losses, _("BVH frame 0 is the reference pose and is not played (Second Life importer rules); key times start at frame 1, duration %.6g s"),
              duration);
  if (counts.n_still > 0)
    _sq_loss (losses, ngettext ("joint %s never moves beyond the importer's thresholds from frame 0 and is left out",
                                "joints %s never move beyond the importer's thresholds from frame 0 and are left out",
                                counts.n_still),
              counts.still->str);
  if (counts.reduced > 0)
    _sq_loss (losses, _("%u of %u rotation frames left out by the importer's key reduction"), counts.reduced, counts.total);
  if (counts.clamped > 0)
    _sq_loss (losses, _("%u position values beyond ±%g m clamped"), counts.clamped, SQ_SL_POS_RANGE);
  g_string_free (counts.still, TRUE);
  return out;
}

/* ---- the world interface ---------------------------------------------------- */

SqClip *
_sq_sl_import_clip (const SqClip   *renamed,
                    const SqFormat *from,
                    const SqFormat *target,
                    const char     *root_source_name,
                    GPtrArray      *losses)
{
  SqClip *sl;

  if (from == NULL || from->space != &sq_space_bvh || target->space != &sq_space_second_life)
    return NULL;
  _sq_loss (losses, _("the joint hierarchy (parents, rest OFFSETs, channel orders, End Sites) has no place in %s"),
            sq_format_get_name (target));
  sl = bvh_to_second_life (renamed, root_source_name, losses);
  sl->format = from;
  return sl;
}

void
_sq_sl_after_frames (SqClip         *out,
                     const SqFormat *from,
                     const SqFormat *target,
                     double          fps,
                     GPtrArray      *losses)
{
  if (from == NULL || from->space != &sq_space_second_life || !target->space->hierarchy)
    return;
  add_reference_frame (out, 1.0 / fps);
  _sq_loss (losses, "%s", _(SQ_BVH_REFERENCE_NOTE));
}
