/* sq-time-grid.c: key times snapped to a writer's grid of frames or milliseconds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-time-grid"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "sq-losses.h"
#include "sq-time-grid.h"

GArray *
_sq_track_to_grid (const SqTrack *track,
                   double         rate,
                   gint64         base,
                   double         lossless_rate,
                   const char    *joint,
                   const char    *what,
                   GArray       **steps_out,
                   GPtrArray     *losses)
{
  GArray *kept = g_array_sized_new (FALSE, FALSE, sizeof (gsize), track->n_keys);
  GArray *steps = g_array_sized_new (FALSE, FALSE, sizeof (gint64), track->n_keys);
  gsize *k_out = (gsize *) (void *) kept->data;
  gint64 *s_out = (gint64 *) (void *) steps->data;
  gsize n = 0;
  guint rounded = 0, dropped = 0, outside = 0;
  double first_rounded = 0.0, first_dropped = 0.0;

  for (gsize i = 0; i < track->n_keys; i++)
    {
      double time = sq_track_time (track, i);
      double t = time * rate;
      double r;
      gint64 step;

      if (!(t > -2e9 && t < 2e9))
        {
          outside++;
          continue;
        }
      /* the nearest step, halves up: floor without the library call
       * (truncation, one less below zero) */
      r = (double) (gint64) (t + 0.5);
      if (r > t + 0.5)
        r -= 1;
      if (G_UNLIKELY (fabs (t - r) > 1e-6)
          && !(lossless_rate > 0
               && fabs (time * lossless_rate - floor (time * lossless_rate + 0.5)) < 1e-6))
        {
          if (rounded++ == 0)
            first_rounded = time;
        }
      step = (gint64) r + base;
      if (n > 0 && s_out[n - 1] == step)
        {
          /* two keys on one step: the first one stays */
          if (dropped++ == 0)
            first_dropped = time;
          continue;
        }
      k_out[n] = i;
      s_out[n] = step;
      n++;
    }
  g_array_set_size (kept, n);
  g_array_set_size (steps, n);

  if (rounded > 0)
    _sq_loss (losses, _("joint “%s”: %u %s key times rounded to the nearest 1/%g s (first at %.6g s)"),
              joint, rounded, what, rate, first_rounded);
  if (dropped > 0)
    _sq_loss (losses, _("joint “%s”: %u %s keys dropped because they fall on the same step as another key (first at %.6g s)"),
              joint, dropped, what, first_dropped);
  if (outside > 0)
    _sq_loss (losses, _("joint “%s”: %u %s keys dropped because their time is out of range"),
              joint, outside, what);

  *steps_out = steps;
  return kept;
}
