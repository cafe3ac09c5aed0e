/* sq-edit-frame-rate.c: the frame rate edit, for formats whose time base is
 * a field of the file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A format says by SQ_FORMAT_FRAME_RATE that its frame rate is a field (BVH's
 * Frame Time, .x's AnimTicksPerSecond); clips built in memory take any rate.
 * Keys keep their frame (tick) numbers, so key times and the duration scale:
 * the animation plays faster or slower, as changing the field does.
 */
#define G_LOG_DOMAIN "sq-edit"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "sq-edit-private.h"
#include "sq-format.h"
#include "sq-world.h"

/* a key this close to a frame (in frames) is on it */
#define FRAME_EPSILON  1e-6

typedef struct
{
  double   value;          /* frames per second, or the frame time */
  gboolean by_frame_time;  /* value is BVH's frame time in seconds */
} RateArgs;

/* The time of a key at `t` once the frame rate changes from `old_fps`: on
 * the frame grid it keeps its frame number (the time computed as the format's
 * reader computes it: frame × frame time for BVH, tick / rate for .x), off it
 * it scales. */
static double
retime (double   t,
        double   old_fps,
        double   new_fps,
        double   new_ft,
        gboolean by_frame_time)
{
  double s = t * old_fps;
  double r = floor (s + 0.5);

  if (fabs (s - r) <= FRAME_EPSILON)
    return by_frame_time ? r * new_ft : r / new_fps;
  return s / new_fps;
}

/* The rate and the format allow it, and the keys stay in order */
static gboolean
check_rate (const RateArgs *a,
            const SqClip   *clip,
            double          fps,
            double          ft,
            gboolean        dx,
            gboolean        by_frame_time,
            GError        **error)
{
  if (!isfinite (a->value) || !(a->value > 0) || !(ft >= SQ_MIN_FRAME_TIME && ft <= SQ_MAX_FRAME_TIME))
    return a->by_frame_time
           ? _sq_edit_invalid (error, _("The frame time %g s is not within %g to %g s"), a->value,
                               SQ_MIN_FRAME_TIME, SQ_MAX_FRAME_TIME)
           : _sq_edit_invalid (error, _("The frame rate %g is not within %g to %g frames per second"), a->value,
                               1.0 / SQ_MAX_FRAME_TIME, 1.0 / SQ_MIN_FRAME_TIME);
  if (clip->format != NULL && !(clip->format->flags & SQ_FORMAT_FRAME_RATE))
    return _sq_edit_invalid (error, _("The frame rate of a %s file is fixed; it cannot be changed"),
                             sq_format_get_name (clip->format));
  if (dx && fps != floor (fps))
    return _sq_edit_invalid (error, _("A DirectX file holds whole ticks per second; %g is not one"), fps);

  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *t = &clip->joints[j].tracks[c];
        double prev = -INFINITY;

        for (gsize k = 0; k < t->n_keys; k++)
          {
            double nt = retime (sq_track_time (t, k), clip->fps, fps, ft, by_frame_time);

            if (!isfinite (nt) || !(nt > prev))
              return _sq_edit_invalid (error, _("Joint “%s”: at %g frames per second two keys would fall on the "
                                                "same time"), clip->joints[j].name, fps);
            prev = nt;
          }
      }
  return TRUE;
}

static gboolean
frame_rate_apply (SqEdit  *edit,
                  SqClip  *clip,
                  GError **error)
{
  const RateArgs *a = _sq_edit_get_params (edit);
  /* a rate in whole ticks (.x), or one kept as a frame time (BVH) */
  gboolean dx = clip->format != NULL && (clip->format->flags & SQ_FORMAT_TICKS) != 0;
  gboolean bvh = clip->format != NULL && (clip->format->flags & SQ_FORMAT_FRAME_RATE) != 0
                 && !(clip->format->flags & SQ_FORMAT_TICKS);
  gboolean by_frame_time = bvh || a->by_frame_time;
  double fps = a->by_frame_time ? 1.0 / a->value : a->value;
  double ft = a->by_frame_time ? a->value : 1.0 / a->value;
  double old_fps = clip->fps;

  if (!check_rate (a, clip, fps, ft, dx, by_frame_time, error))
    return FALSE;

  _sq_edit_journal_timing (edit, clip);
  _sq_edit_journal_extra (edit, clip);
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      gboolean any = FALSE;

      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        any |= clip->joints[j].tracks[c].n_keys > 0;
      if (!any)
        continue;
      _sq_edit_journal_joint (edit, clip, j);
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        {
          SqTrack *t = &clip->joints[j].tracks[c];
          SqKey *keys = sq_track_unpack (t);

          for (gsize k = 0; k < t->n_keys; k++)
            keys[k].time = retime (keys[k].time, old_fps, fps, ft, by_frame_time);
        }
    }
  clip->duration = MAX (0.0, retime (clip->duration, old_fps, fps, ft, by_frame_time));
  clip->fps = fps;
  /* BVH keeps its Frame Time exactly; its writer uses it while 1 / it is
   * the clip's rate, and the text read from the file while that reads as it */
  if (bvh || sq_props_get (clip->extra, "frame-time") != NULL)
    sq_props_set (clip->extra, "frame-time", g_variant_new_double (ft));
  return TRUE;
}

static char *
frame_rate_describe (const SqEdit *edit)
{
  const RateArgs *a = _sq_edit_get_params (edit);

  return g_strdup_printf (_("Set the frame rate to %g frames per second"), a->value);
}

static char *
frame_time_describe (const SqEdit *edit)
{
  const RateArgs *a = _sq_edit_get_params (edit);

  return g_strdup_printf (_("Set the frame time to %g s"), a->value);
}

static const SqEditClass frame_rate_class = {
  N_("Set Frame Rate"), frame_rate_describe, frame_rate_apply, NULL, NULL,
};

static const SqEditClass frame_time_class = {
  N_("Set Frame Time"), frame_time_describe, frame_rate_apply, NULL, NULL,
};

static SqEdit *
rate_edit_new (double   value,
               gboolean by_frame_time)
{
  RateArgs *a = g_new0 (RateArgs, 1);

  a->value = value;
  a->by_frame_time = by_frame_time;
  return _sq_edit_new (by_frame_time ? &frame_time_class : &frame_rate_class, a);
}

SqEdit *
sq_edit_set_frame_rate_new (double fps)
{
  return rate_edit_new (fps, FALSE);
}

SqEdit *
sq_edit_set_frame_time_new (double seconds)
{
  return rate_edit_new (seconds, TRUE);
}
