/* sq-bvh-reference.c: the BVH upload's reference frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * formats.md 1.9 and 1.10a: the viewer's BVH upload takes frame 0 as the
 * reference pose (NUMBER_OF_IGNORED_FRAMES_AT_START), does not play it,
 * and leaves out every joint that never moves from it; so a pose BVH whose
 * every frame holds the pose uploads as nothing. Tools prepend the rest
 * pose as frame 0 ("Prepend reference", "Protect First Frame"); so does
 * Sequin's BVH written from a .anim (sq-convert.c).
 */
#define G_LOG_DOMAIN "sq-bvh-reference"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "sq-convert.h"
#include "sq-error.h"
#include "sq-losses.h"
#include "sq-fields.h"
#include "sq-motion.h"
#include "sq-sl-skeleton.h"
#include "worlds/sq-sl-behaviour.h"
#include "worlds/sq-world-sl.h"

/* within these of frame 0 all along, a frame is "the same pose" (about
 * the importer's motion thresholds, formats.md 1.9) */
#define SAME_DEGREES        0.1
#define SAME_METRES         0.0005
/* a reference frame: the step from it to frame 1 at least this, and at
 * least JUMP_FACTOR times any later step */
#define JUMP_DEGREES        5.0
#define JUMP_METRES         0.05
#define JUMP_FACTOR         3.0

static gboolean
is_bvh (const SqClip *clip)
{
  return clip->format != NULL && clip->format->space == &sq_space_bvh;
}

gsize
sq_bvh_frame_count (const SqClip *clip,
                    double       *frame_time)
{
  double ft = sq_clip_frame_time (clip);
  gsize n = 0;

  if (!(ft > 0) || !isfinite (ft))
    ft = 1.0 / 30.0;
  /* from the duration and the keys (an edit leaves the file's count behind) */
  if (clip->duration > 0 && clip->duration / ft < 1e7)
    n = (gsize) floor (clip->duration / ft + 0.5) + 1;
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *t = &clip->joints[j].tracks[c];
        double f;

        if (t->n_keys == 0)
          continue;
        f = floor (sq_track_time (t, t->n_keys - 1) / ft + 0.5) + 1;
        if (f > n && f < 1e7)
          n = (gsize) f;
      }
  if (frame_time != NULL)
    *frame_time = ft;
  return n;
}

/* How far apart two frames are: the largest rotation of any joint
 * (degrees) and the largest move (metres) */
static void
frame_distance (const SqClip *clip,
                double        a,
                double        b,
                double       *degrees,
                double       *metres)
{
  *degrees = *metres = 0;
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqJoint *joint = &clip->joints[j];
      double qa[4], qb[4], pa[4], pb[4], ma[3], mb[3];

      sq_track_sample (&joint->tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, a, qa);
      sq_track_sample (&joint->tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, b, qb);
      *degrees = MAX (*degrees, sq_quat_angle_between (qa, qb));
      if (joint->tracks[SQ_CHANNEL_TRANSLATION].n_keys < 2)
        continue;
      sq_track_sample (&joint->tracks[SQ_CHANNEL_TRANSLATION], SQ_CHANNEL_TRANSLATION, a, pa);
      sq_track_sample (&joint->tracks[SQ_CHANNEL_TRANSLATION], SQ_CHANNEL_TRANSLATION, b, pb);
      sq_space_vector_to_sl (&sq_space_bvh, pa, ma);
      sq_space_vector_to_sl (&sq_space_bvh, pb, mb);
      for (int i = 0; i < 3; i++)
        *metres = MAX (*metres, fabs (ma[i] - mb[i]));
    }
}

/* Whether every frame holds frame 0's pose (stops at the first that does
 * not) */
static gboolean
pose_only (const SqClip *clip,
           gsize         n,
           double        ft)
{
  for (gsize f = 1; f < n; f++)
    {
      double d, m;

      frame_distance (clip, 0, f * ft, &d, &m);
      if (d > SAME_DEGREES || m > SAME_METRES)
        return FALSE;
    }
  return TRUE;
}

static char *
pose_only_text (gsize n)
{
  return g_strdup_printf (_("every one of the %zu frames holds the same pose and none is a reference: the Second "
                            "Life upload takes frame 0 as its reference pose and leaves out every joint that never "
                            "moves from it, so it would upload an animation with no joints; Sequin saves the pose "
                            "with the rest pose as its reference instead"), n);
}

void
_sq_bvh_warn_pose_only (SqClip *clip)
{
  double ft;
  gsize n = sq_bvh_frame_count (clip, &ft);

  if (n >= 2 && pose_only (clip, n, ft))
    {
      g_autofree char *text = pose_only_text (n);

      sq_clip_add_warning (clip, "%s", text);
    }
}

/* Whether frame 0 is the rest pose: no joint turned */
static gboolean
at_rest (const SqClip *clip)
{
  const double identity[4] = { 1, 0, 0, 0 };

  for (gsize j = 0; j < clip->n_joints; j++)
    {
      double q[4];

      sq_track_sample (&clip->joints[j].tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, 0, q);
      if (sq_quat_angle_between (identity, q) > SAME_DEGREES)
        return FALSE;
    }
  return TRUE;
}

SqBvhReference
sq_bvh_reference_frame (const SqClip *clip,
                        char        **why)
{
  double ft, jump_deg = 0, jump_m = 0, later = 0, later_m = 0;
  gsize n;

  if (why != NULL)
    *why = NULL;
  if (clip == NULL || !is_bvh (clip) || (n = sq_bvh_frame_count (clip, &ft)) < 2)
    return SQ_BVH_REFERENCE_NONE;
  if (pose_only (clip, n, ft))
    {
      if (why != NULL)
        *why = pose_only_text (n);
      return SQ_BVH_REFERENCE_POSE_ONLY;
    }
  frame_distance (clip, 0, ft, &jump_deg, &jump_m);
  for (gsize f = 1; f + 1 < n; f++)
    {
      double d, m;

      frame_distance (clip, f * ft, (f + 1) * ft, &d, &m);
      later = MAX (later, d);
      later_m = MAX (later_m, m);
    }
  if (at_rest (clip))
    {
      if (why != NULL)
        *why = g_strdup (_("frame 0 is the rest pose, a reference pose: the Second Life upload does not play it, "
                           "as it should"));
      return SQ_BVH_REFERENCE_FIRST;
    }
  if ((jump_deg >= JUMP_DEGREES && jump_deg >= JUMP_FACTOR * later)
      || (jump_m >= JUMP_METRES && jump_m >= JUMP_FACTOR * later_m))
    {
      if (why != NULL)
        *why = g_strdup_printf (_("frame 0 is a reference pose (it jumps by %.0f° and %.2f m to frame 1): the "
                                  "Second Life upload does not play it, as it should"), jump_deg, jump_m);
      return SQ_BVH_REFERENCE_FIRST;
    }
  if (why != NULL)
    *why = g_strdup (_("frame 0 is part of the motion, not a reference pose: the Second Life upload does not play "
                       "it (skip no frame, or add a reference pose as frame 0)"));
  return SQ_BVH_REFERENCE_MOTION;
}

SqEdit *
sq_edit_skip_frames_new (const SqClip *clip,
                         guint         n,
                         GError      **error)
{
  double ft;
  gsize frames = sq_bvh_frame_count (clip, &ft);

  if (n == 0 || n >= frames || clip->duration <= n * ft)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                   g_dngettext (GETTEXT_PACKAGE, "cannot skip %u frame of an animation of %zu frames",
                                "cannot skip %u frames of an animation of %zu frames", n),
                   n, frames);
      return NULL;
    }
  return sq_edit_trim_new (n * ft, clip->duration);
}

/* ---- for saving ---- */

/* Keys of every track of `clip` one frame later, and a key at 0 from
 * `first` (channel, joint → value); the duration and frame count follow */
static void
prepend_frame (SqClip *clip,
               double  ft,
               void  (*first) (const SqClip *clip, gsize joint, guint channel, double v[4]))
{
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        SqTrack *t = &clip->joints[j].tracks[c];
        gsize idx;

        if (t->n_keys == 0)
          continue;
        sq_track_unpack (t);
        for (gsize k = 0; k < t->n_keys; k++)
          t->keys[k].time += ft;
        idx = sq_track_insert (t, 0.0);
        first (clip, j, c, t->keys[idx].v);
      }
  clip->duration += ft;
  if (sq_props_get (clip->extra, "frames") != NULL)
    sq_props_set (clip->extra, "frames",
                  g_variant_new_uint32 (sq_props_get_uint (clip->extra, "frames", 0) + 1));
}

/* The rest pose: no rotation (a joint that never turns from it, 10° about
 * X, so the importer keeps it, as sq-convert.c's reference frame does);
 * the root at the avatar's standing height, where the pose has it
 * sideways; other positions as the pose has them */
static void
rest_value (const SqClip *clip,
            gsize         joint,
            guint         channel,
            double        v[4])
{
  const SqTrack *t = &clip->joints[joint].tracks[channel];
  SqKey pose = sq_track_key (t, t->n_keys > 1 ? 1 : 0);
  gboolean root = sq_props_get_int (clip->joints[joint].extra, "parent", -1) < 0;

  memcpy (v, pose.v, sizeof pose.v);
  if (channel == SQ_CHANNEL_ROTATION)
    {
      const double identity[4] = { 1, 0, 0, 0 };

      if (!root && sq_quat_angle_between (identity, pose.v) < SAME_DEGREES)
        {
          v[0] = cos (G_PI / 36);
          v[1] = sin (G_PI / 36);
          v[2] = v[3] = 0;
        }
      else
        memcpy (v, identity, sizeof identity);
    }
  else if (channel == SQ_CHANNEL_TRANSLATION && root)
    {
      double rest[3] = { 0, 0, 1.067 }, sl[3];

      sq_sl_bone_rest_position ("mPelvis", rest);
      sq_space_vector_to_sl (&sq_space_bvh, pose.v, sl);
      sl[2] = rest[2];
      sq_space_vector_from_sl (&sq_space_bvh, sl, v);
    }
}

SqClip *
_sq_bvh_pose_with_reference (const SqClip *clip,
                             gboolean      literal,
                             GPtrArray    *losses,
                             GPtrArray    *notes)
{
  SqClip *copy;
  double ft;

  if (sq_bvh_reference_frame (clip, NULL) != SQ_BVH_REFERENCE_POSE_ONLY)
    return NULL;
  if (literal)
    {
      _sq_loss (losses, _("every frame of the BVH holds the same pose and none is a reference: the Second Life "
                          "upload takes frame 0 as its reference pose and leaves out every joint that never moves "
                          "from it, so the animation has no joints (without the viewer's literal behaviour "
                          "Sequin takes the rest pose as the reference and keeps the pose)"));
      return NULL;
    }
  sq_bvh_frame_count (clip, &ft);
  copy = sq_clip_copy (clip);
  g_clear_pointer (&copy->source, g_bytes_unref);
  prepend_frame (copy, ft, rest_value);
  _sq_loss (notes, _("every frame of the BVH holds the same pose: the rest pose is taken as its reference frame, "
                     "so the pose is kept (the viewer's own upload would leave out every joint)"));
  return copy;
}

void
_sq_bvh_drop_reference_frame (SqClip    *clip,
                              GPtrArray *notes)
{
  double ft = clip->fps > 0 ? 1.0 / clip->fps : 0;
  const char *note = _(SQ_BVH_REFERENCE_NOTE);

  for (guint i = 0; notes != NULL && i < notes->len; i++)
    if (strcmp (notes->pdata[i], note) == 0)
      g_ptr_array_remove_index (notes, i--);
  if (!(ft > 0))
    return;
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        SqTrack *t = &clip->joints[j].tracks[c];

        if (t->n_keys < 2)
          continue;
        sq_track_unpack (t);
        if (t->keys[0].time == 0.0)
          sq_track_remove (t, 0);
        for (gsize k = 0; k < t->n_keys; k++)
          t->keys[k].time = MAX (t->keys[k].time - ft, 0.0);
      }
  clip->duration = MAX (clip->duration - ft, 0.0);
}

/* Moves the reference frame's line from the losses to the notes (or out,
 * with the frame, when the options leave it out) */
static void
reference_line_to_notes (SqClip              *converted,
                         const SqSaveOptions *options,
                         GPtrArray           *losses)
{
  const char *note = _(SQ_BVH_REFERENCE_NOTE);
  gboolean had = FALSE;

  for (guint i = 0; losses != NULL && i < losses->len; i++)
    if (strcmp (losses->pdata[i], note) == 0)
      {
        g_ptr_array_remove_index (losses, i--);
        had = TRUE;
      }
  if (had && options->no_reference_frame)
    {
      _sq_bvh_drop_reference_frame (converted, NULL);
      return;
    }
  if (had && options->notes != NULL)
    g_ptr_array_add (options->notes, g_strdup (note));
  else if (had)
    g_ptr_array_add (losses, g_strdup (note));
}

SqClip *
_sq_sl_before_convert (const SqClip        *clip,
                       const SqFormat      *format,
                       const SqSaveOptions *options,
                       GPtrArray           *losses)
{
  if (format->space != &sq_space_second_life || !is_bvh (clip))
    return NULL;
  return _sq_bvh_pose_with_reference (clip, options->literal_pose, losses,
                                      options->notes != NULL ? options->notes : losses);
}

void
_sq_sl_after_convert (const SqClip        *clip,
                      const SqFormat      *format,
                      SqClip              *converted,
                      const SqSaveOptions *options,
                      GPtrArray           *losses)
{
  if (format->space == &sq_space_bvh && clip->format != NULL && clip->format->space == &sq_space_second_life)
    reference_line_to_notes (converted, options, losses);
}

char *
sq_bvh_reference_describe (const SqClip *clip)
{
  char *why = NULL;

  sq_bvh_reference_frame (clip, &why);
  return why;
}
