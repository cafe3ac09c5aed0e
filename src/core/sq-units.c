/* sq-units.c: times, frame rates and frame numbers as a person reads them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-units"

#include "config.h"

#include <math.h>

#include "sq-units.h"

double
sq_rate_as_shown (double fps)
{
  double n;

  if (!isfinite (fps) || fps <= 0)
    return fps;
  n = round (fps);
  /* the frame time a whole rate has, to the 6 decimals files write it with
   * (float error included) */
  if (n >= 1 && fabs (1 / fps - 1 / n) <= 1e-6 && fabs (fps - n) <= 1e-4 * n)
    return n;
  return fps;
}

char *
sq_format_rate (double fps)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (fps) || fps <= 0)
    return g_strdup ("?");
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.6g", sq_rate_as_shown (fps)));
}

char *
sq_format_seconds_value (double seconds)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (fabs (seconds) < 0.0005)
    seconds = 0;   /* no "-0.000" */
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.3f", seconds));
}

char *
sq_format_seconds (double seconds)
{
  g_autofree char *value = sq_format_seconds_value (seconds);

  return g_strconcat (value, " s", NULL);
}

char *
sq_format_frame (double frame)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  double n = round (frame);

  if (!isfinite (frame))
    return g_strdup ("?");
  if (fabs (frame - n) < 1e-3)
    return g_strdup_printf ("%.0f", n == 0 ? 0.0 : n);
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.2f", frame));
}
