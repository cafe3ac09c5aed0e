/* sq-diff.c: how far apart two clips are (sq-diff.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-diff"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "sq-convert.h"
#include "sq-diff.h"
#include "sq-error.h"
#include "sq-format.h"
#include "sq-json.h"
#include "sq-motion.h"

struct _SqDiffPair
{
  const SqClip *a, *b;        /* the clips as compared: the caller's, or… */
  SqClip       *owned_a;      /* …their conversions into Second Life's */
  SqClip       *owned_b;
};

/* where a difference goes in a joint's peaks */
typedef struct
{
  double *peaks;
  gsize   n;
  double  end;
} Peaks;

static void
joint_diff_clear (gpointer data)
{
  SqJointDiff *d = data;

  g_free (d->name);
  g_free (d->peaks);
}

void
sq_diff_free (SqDiff *diff)
{
  if (diff == NULL)
    return;
  g_array_unref (diff->joints);
  g_free (diff->label_a);
  g_free (diff->label_b);
  g_free (diff);
}

/* How far apart two tracks are at `t`, the values interpolated as the
 * clips play them: degrees for rotations, distance for translations */
static double
track_diff_at (const SqTrack *a,
               const SqTrack *b,
               SqChannel      channel,
               double         t,
               gsize          cursors[2])
{
  double va[4], vb[4];

  sq_track_sample_near (a, channel, t, va, &cursors[0]);
  sq_track_sample_near (b, channel, t, vb, &cursors[1]);
  if (channel == SQ_CHANNEL_ROTATION)
    return sq_quat_angle_between (va, vb);
  return sqrt ((va[0] - vb[0]) * (va[0] - vb[0]) + (va[1] - vb[1]) * (va[1] - vb[1])
               + (va[2] - vb[2]) * (va[2] - vb[2]));
}

static void
peaks_add (const Peaks *p,
           double       t,
           double       d)
{
  double x;
  gsize c;

  if (p == NULL)
    return;
  x = p->end > 0 ? t / p->end * (double) p->n : 0;
  c = !(x > 0) ? 0 : x >= (double) (p->n - 1) ? p->n - 1 : (gsize) x;
  if (!(d <= p->peaks[c]))   /* NaN counts as the worst */
    p->peaks[c] = isnan (d) ? INFINITY : d;
}

/* The largest difference between two tracks over the union of their key
 * times; *at gets where it is. `peaks` (may be NULL) also gets each
 * span's largest, with the difference at its middle. */
static double
track_diff (const SqTrack *a,
            const SqTrack *b,
            SqChannel      channel,
            double        *at,
            const Peaks   *peaks)
{
  gsize i = 0, k = 0, cursors[2] = { 0, 0 };
  double worst = 0.0;

  *at = 0.0;
  /* times in order, in each loop: each search goes on from the last */
  for (gsize c = 0; peaks != NULL && c < peaks->n; c++)
    {
      double t = peaks->end * ((double) c + 0.5) / (double) peaks->n;

      peaks_add (peaks, t, track_diff_at (a, b, channel, t, cursors));
    }
  cursors[0] = cursors[1] = 0;
  while (i < a->n_keys || k < b->n_keys)
    {
      double ta = i < a->n_keys ? sq_track_time (a, i) : INFINITY;
      double tb = k < b->n_keys ? sq_track_time (b, k) : INFINITY;
      double t = MIN (ta, tb), d;

      i += ta == t;
      k += tb == t;
      d = track_diff_at (a, b, channel, t, cursors);
      peaks_add (peaks, t, d);
      if (!(d <= worst))   /* NaN counts as the worst */
        {
          worst = isnan (d) ? INFINITY : d;
          *at = t;
        }
    }
  return worst;
}

SqDiffPair *
sq_diff_pair_new (const SqClip *a,
                  const SqClip *b,
                  GError      **error)
{
  /* converted as a save converts them (with the world's hooks: a BVH
   * pose keeps its pose) */
  static const SqSaveOptions defaults = { 0 };
  const SqFormat *sl = sq_format_common ();
  g_autoptr(SqDiffPair) pair = g_new0 (SqDiffPair, 1);

  g_return_val_if_fail (a != NULL && b != NULL, NULL);
  pair->a = a;
  pair->b = b;
  if (a->format == b->format || a->format == NULL || b->format == NULL)
    return g_steal_pointer (&pair);
  if (a->format != sl && (pair->a = pair->owned_a = _sq_convert_for_save (a, sl, &defaults, NULL, error)) == NULL)
    return NULL;
  if (b->format != sl && (pair->b = pair->owned_b = _sq_convert_for_save (b, sl, &defaults, NULL, error)) == NULL)
    return NULL;
  return g_steal_pointer (&pair);
}

void
sq_diff_pair_free (SqDiffPair *pair)
{
  if (pair == NULL)
    return;
  sq_clip_free (pair->owned_a);
  sq_clip_free (pair->owned_b);
  g_free (pair);
}

gssize
sq_diff_find_joint (const SqClip *clip,
                    const char   *name)
{
  gssize j;

  g_return_val_if_fail (clip != NULL && name != NULL, -1);
  j = sq_clip_find_joint (clip, name);
  for (gsize k = 0; j < 0 && k < clip->n_joints; k++)
    if (g_strcmp0 (sq_joint_name_for_scheme (clip->joints[k].name, SQ_JOINT_SCHEME_SL, 0), name) == 0)
      j = (gssize) k;
  return j;
}

gboolean
sq_diff_pair_curve (const SqDiffPair *pair,
                    const char       *name,
                    const double     *times,
                    gsize             n,
                    double           *rotation,
                    double           *translation,
                    GError          **error)
{
  gssize ja, jb;

  g_return_val_if_fail (pair != NULL && name != NULL, FALSE);
  g_return_val_if_fail (n == 0 || times != NULL, FALSE);
  ja = sq_clip_find_joint (pair->a, name);
  jb = sq_clip_find_joint (pair->b, name);
  if (ja < 0 || jb < 0)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT, _("“%s” is not in both animations"), name);
      return FALSE;
    }
  /* the times in order: each track's search goes on from the last */
  for (gsize i = 0, rot[2] = { 0, 0 }, pos[2] = { 0, 0 }; i < n; i++)
    {
      const SqJoint *ka = &pair->a->joints[ja], *kb = &pair->b->joints[jb];

      if (rotation != NULL)
        rotation[i] = track_diff_at (&ka->tracks[SQ_CHANNEL_ROTATION], &kb->tracks[SQ_CHANNEL_ROTATION],
                                     SQ_CHANNEL_ROTATION, times[i], rot);
      if (translation != NULL)
        translation[i] = track_diff_at (&ka->tracks[SQ_CHANNEL_TRANSLATION], &kb->tracks[SQ_CHANNEL_TRANSLATION],
                                        SQ_CHANNEL_TRANSLATION, times[i], pos);
    }
  return TRUE;
}

static int
by_value (gconstpointer a,
          gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

double *
sq_diff_pair_curve_times (const SqDiffPair *pair,
                          const char       *name,
                          double            end,
                          gsize             n_grid,
                          gsize             max_keys,
                          gsize            *n)
{
  GArray *times = g_array_new (FALSE, FALSE, sizeof (double));
  const SqClip *clips[2] = { pair->a, pair->b };
  guint kept = 0;

  n_grid = MAX (n_grid, 2);
  for (gsize i = 0; i < n_grid; i++)
    {
      double t = end * (double) i / (double) (n_grid - 1);
      g_array_append_val (times, t);
    }
  for (int c = 0; c < 2; c++)
    {
      gssize j = sq_clip_find_joint (clips[c], name);

      for (int ch = 0; j >= 0 && ch < SQ_N_CHANNELS; ch++)
        {
          const SqTrack *track = &clips[c]->joints[j].tracks[ch];

          for (gsize k = 0; k < track->n_keys && k < max_keys; k++)
            {
              double t = sq_track_time (track, k);
              g_array_append_val (times, t);
            }
        }
    }
  g_array_sort (times, by_value);
  for (guint i = 0; i < times->len; i++)
    if (kept == 0 || g_array_index (times, double, i) != g_array_index (times, double, kept - 1))
      g_array_index (times, double, kept++) = g_array_index (times, double, i);
  *n = kept;
  return (double *) (gpointer) g_array_free (times, FALSE);
}

/* the two joints' differences, and their peaks when asked */
static SqJointDiff
joint_diff (const SqDiff  *diff,
            const SqJoint *ja,
            const SqJoint *jb)
{
  SqJointDiff d = { g_strdup (ja->name), TRUE, TRUE, 0, 0, 0, 0, NULL };
  Peaks peaks = { NULL, diff->n_peaks, MAX (diff->duration_a, diff->duration_b) };

  if (diff->n_peaks > 0)
    d.peaks = peaks.peaks = g_new0 (double, diff->n_peaks);
  d.rotation = track_diff (&ja->tracks[SQ_CHANNEL_ROTATION], &jb->tracks[SQ_CHANNEL_ROTATION],
                           SQ_CHANNEL_ROTATION, &d.rotation_time, d.peaks != NULL ? &peaks : NULL);
  d.translation = track_diff (&ja->tracks[SQ_CHANNEL_TRANSLATION], &jb->tracks[SQ_CHANNEL_TRANSLATION],
                              SQ_CHANNEL_TRANSLATION, &d.translation_time, NULL);
  return d;
}

SqDiff *
sq_diff_pair_diff (const SqDiffPair *pair,
                   gsize             n_peaks)
{
  const SqClip *a, *b;
  SqDiff *diff;

  g_return_val_if_fail (pair != NULL, NULL);
  a = pair->a;
  b = pair->b;
  diff = g_new0 (SqDiff, 1);
  diff->joints = g_array_new (FALSE, TRUE, sizeof (SqJointDiff));
  g_array_set_clear_func (diff->joints, joint_diff_clear);
  diff->duration_a = a->duration;
  diff->duration_b = b->duration;
  diff->n_peaks = n_peaks;
  for (gsize j = 0; j < a->n_joints; j++)
    {
      gssize o = sq_clip_find_joint (b, a->joints[j].name);
      SqJointDiff d = { NULL, TRUE, FALSE, 0, 0, 0, 0, NULL };

      if (o >= 0)
        {
          d = joint_diff (diff, &a->joints[j], &b->joints[o]);
          diff->rotation = MAX (diff->rotation, d.rotation);
          diff->translation = MAX (diff->translation, d.translation);
        }
      else
        d.name = g_strdup (a->joints[j].name);
      g_array_append_val (diff->joints, d);
    }
  for (gsize j = 0; j < b->n_joints; j++)
    if (sq_clip_find_joint (a, b->joints[j].name) < 0)
      {
        SqJointDiff d = { g_strdup (b->joints[j].name), FALSE, TRUE, 0, 0, 0, 0, NULL };
        g_array_append_val (diff->joints, d);
      }
  return diff;
}

SqDiff *
sq_diff_clips (const SqClip *a,
               const SqClip *b,
               GError      **error)
{
  g_autoptr(SqDiffPair) pair = NULL;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);
  if ((pair = sq_diff_pair_new (a, b, error)) == NULL)
    return NULL;
  return sq_diff_pair_diff (pair, 0);
}


gboolean
sq_diff_within (const SqDiff *diff,
                double        degrees,
                double        distance)
{
  if (!(fabs (diff->duration_a - diff->duration_b) <= SQ_DIFF_DURATION_EPSILON))
    return FALSE;
  for (guint i = 0; i < diff->joints->len; i++)
    {
      const SqJointDiff *d = &g_array_index (diff->joints, SqJointDiff, i);

      if (!d->in_a || !d->in_b || !(d->rotation <= degrees) || !(d->translation <= distance))
        return FALSE;
    }
  return TRUE;
}

char *
sq_diff_to_text (const SqDiff *diff)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, _("duration: %g s and %g s (difference %g s)\n"), diff->duration_a,
                          diff->duration_b, diff->duration_b - diff->duration_a);
  g_string_append_printf (out, _("largest: rotation %g°, translation %g\n"), diff->rotation, diff->translation);
  for (guint i = 0; i < diff->joints->len; i++)
    {
      const SqJointDiff *d = &g_array_index (diff->joints, SqJointDiff, i);

      if (!d->in_b)
        g_string_append_printf (out, _("%s: only in the first\n"), d->name);
      else if (!d->in_a)
        g_string_append_printf (out, _("%s: only in the second\n"), d->name);
      else
        g_string_append_printf (out, _("%s: rotation %g° at %g s, translation %g at %g s\n"), d->name,
                                d->rotation, d->rotation_time, d->translation, d->translation_time);
    }
  return g_string_free (out, FALSE);
}

char *
sq_diff_to_json (const SqDiff *diff)
{
  GString *out = g_string_new ("{");

  if (diff->label_a != NULL && diff->label_b != NULL)
    {
      g_string_append (out, "\"a\": ");
      _sq_json_string (out, diff->label_a);
      g_string_append (out, ", \"b\": ");
      _sq_json_string (out, diff->label_b);
      g_string_append (out, ", ");
    }
  g_string_append (out, "\"duration\": [");
  _sq_json_number (out, diff->duration_a);
  g_string_append (out, ", ");
  _sq_json_number (out, diff->duration_b);
  g_string_append (out, "], \"rotation\": ");
  _sq_json_number (out, diff->rotation);
  g_string_append (out, ", \"translation\": ");
  _sq_json_number (out, diff->translation);
  g_string_append (out, ", \"joints\": [");
  for (guint i = 0; i < diff->joints->len; i++)
    {
      const SqJointDiff *d = &g_array_index (diff->joints, SqJointDiff, i);

      g_string_append (out, i ? ",\n  {\"name\": " : "\n  {\"name\": ");
      _sq_json_string (out, d->name);
      g_string_append_printf (out, ", \"in\": \"%s\"", !d->in_b ? "first" : !d->in_a ? "second" : "both");
      if (d->in_a && d->in_b)
        {
          const double v[4] = { d->rotation, d->rotation_time, d->translation, d->translation_time };
          const char *keys[4] = { "rotation", "rotation_time", "translation", "translation_time" };

          for (int k = 0; k < 4; k++)
            {
              g_string_append_printf (out, ", \"%s\": ", keys[k]);
              _sq_json_number (out, v[k]);
            }
        }
      g_string_append_c (out, '}');
    }
  g_string_append (out, "]}\n");
  return g_string_free (out, FALSE);
}
