/* sq-math.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-math"

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sq-math.h"

double
sq_float_bits_to_double (guint32 bits)
{
  if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu) != 0)
    {
      /* NaN: build the double by hand so the quiet bit is not forced on */
      guint64 d = ((guint64) (bits & 0x80000000u) << 32)
                  | G_GUINT64_CONSTANT (0x7ff0000000000000)
                  | ((guint64) (bits & 0x007fffffu) << 29);
      double out;
      memcpy (&out, &d, sizeof out);
      return out;
    }
  else
    {
      float f;
      memcpy (&f, &bits, sizeof f);
      return (double) f;
    }
}

guint32
sq_double_to_float_bits (double value)
{
  guint32 bits;

  if (G_UNLIKELY (isnan (value)))
    {
      guint64 d;
      guint32 mant;

      memcpy (&d, &value, sizeof d);
      mant = (guint32) ((d >> 29) & 0x007fffffu);
      if (mant == 0)
        mant = 0x00400000u;   /* a NaN made in double arithmetic: quiet NaN */
      return (guint32) ((d >> 32) & 0x80000000u) | 0x7f800000u | mant;
    }
  else
    {
      float f = (float) value;
      memcpy (&bits, &f, sizeof bits);
      return bits;
    }
}

gboolean
sq_axis_angle_to_quat (const double aa[4],
                       double       q[4])
{
  double len = sqrt (aa[0] * aa[0] + aa[1] * aa[1] + aa[2] * aa[2]);
  double half = aa[3] * G_PI / 360.0;
  double s = sin (half);

  q[0] = cos (half);
  if (len > 0.0 && isfinite (len))
    {
      q[1] = aa[0] / len * s;
      q[2] = aa[1] / len * s;
      q[3] = aa[2] / len * s;
      return TRUE;
    }

  q[1] = q[2] = q[3] = 0.0;
  if (fabs (s) < 1e-12)
    return TRUE;

  /* no axis to turn about: no rotation */
  q[0] = 1.0;
  return FALSE;
}

void
sq_quat_to_axis_angle (const double q[4],
                       double       aa[4])
{
  double w = q[0];
  double s;

  if (w > 1.0)
    w = 1.0;
  else if (w < -1.0)
    w = -1.0;

  s = sqrt (q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (s < 1e-12)
    {
      aa[0] = 0.0;
      aa[1] = 0.0;
      aa[2] = 1.0;
      aa[3] = w < 0.0 ? 360.0 : 0.0;
      return;
    }

  aa[0] = q[1] / s;
  aa[1] = q[2] / s;
  aa[2] = q[3] / s;
  aa[3] = 2.0 * atan2 (s, w) * 180.0 / G_PI;
}

void
sq_quat_normalize (double q[4])
{
  double len = sqrt (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);

  if (len > 0.0 && isfinite (len))
    for (guint i = 0; i < 4; i++)
      q[i] /= len;
}

void
sq_quat_slerp (const double a[4],
               const double b[4],
               double       t,
               double       out[4])
{
  double bb[4] = { b[0], b[1], b[2], b[3] };
  double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  double wa, wb;

  if (dot < 0.0)
    {
      dot = -dot;
      for (guint i = 0; i < 4; i++)
        bb[i] = -bb[i];
    }

  if (dot > 0.9995)
    {
      wa = 1.0 - t;
      wb = t;
    }
  else
    {
      double theta = acos (dot);
      double st = sin (theta);

      wa = sin ((1.0 - t) * theta) / st;
      wb = sin (t * theta) / st;
    }

  for (guint i = 0; i < 4; i++)
    out[i] = wa * a[i] + wb * bb[i];
  sq_quat_normalize (out);
}

char *
sq_format_double (char  *buf,
                  gsize  size,
                  double value)
{
  if (isnan (value))
    g_strlcpy (buf, "NaN", size);
  else if (isinf (value))
    g_strlcpy (buf, value > 0 ? "Infinity" : "-Infinity", size);
  else if (value == 0.0)
    g_strlcpy (buf, signbit (value) ? "-0" : "0", size);
  else
    {
      /* shortest of %.15g .. %.17g that reads back exactly */
      for (int prec = 15; prec <= 17; prec++)
        {
          g_ascii_formatd (buf, size, prec == 15 ? "%.15g" : prec == 16 ? "%.16g" : "%.17g", value);
          if (g_ascii_strtod (buf, NULL) == value)
            break;
        }
    }
  return buf;
}

/* ---- Euler angles (BVH channel orders) --------------------------------- */

/* axes: 0 X, 1 Y, 2 Z; angles in degrees; n rotation channels (0..3) */
void
sq_euler_to_quat (const double *angles,
                   const int    *axes,
                   guint         n,
                   double        q[4])
{
  q[0] = 1.0;
  q[1] = q[2] = q[3] = 0.0;
  for (guint i = 0; i < n; i++)
    {
      double h = angles[i] * (G_PI / 360.0);
      double s = sin (h), c = cos (h);
      double r[4] = { c, 0, 0, 0 };

      r[1 + axes[i]] = s;
      sq_quat_multiply (q, r, q);
    }
}

/* Unit quaternion → R = R_i(a) · R_j(b) · R_k(c) for three distinct axes;
 * a, c in (-180, 180], b in [-90, 90]. */
static void
bvh_quat_to_euler3 (const double  qin[4],
                    const int     axes[3],
                    double        out[3])
{
  double q[4];
  double n = sqrt (qin[0] * qin[0] + qin[1] * qin[1] + qin[2] * qin[2] + qin[3] * qin[3]);
  double R[3][3];
  int i = axes[0], j = axes[1], k = axes[2];
  double s = ((j - i + 3) % 3 == 1) ? 1.0 : -1.0;
  double w, x, y, z, cb;

  if (!(n > 0) || !isfinite (n))
    {
      out[0] = out[1] = out[2] = 0.0;
      return;
    }
  for (guint c = 0; c < 4; c++)
    q[c] = qin[c] / n;
  w = q[0], x = q[1], y = q[2], z = q[3];
  R[0][0] = 1 - 2 * (y * y + z * z);
  R[0][1] = 2 * (x * y - w * z);
  R[0][2] = 2 * (x * z + w * y);
  R[1][0] = 2 * (x * y + w * z);
  R[1][1] = 1 - 2 * (x * x + z * z);
  R[1][2] = 2 * (y * z - w * x);
  R[2][0] = 2 * (x * z - w * y);
  R[2][1] = 2 * (y * z + w * x);
  R[2][2] = 1 - 2 * (x * x + y * y);

  cb = sqrt (R[i][i] * R[i][i] + R[i][j] * R[i][j]);
  out[1] = atan2 (s * R[i][k], cb);
  if (cb > 1e-12)
    {
      out[0] = atan2 (-s * R[j][k], R[k][k]);
      out[2] = atan2 (-s * R[i][j], R[i][i]);
    }
  else
    {
      /* gimbal lock: only a ± c is defined; c = 0 */
      out[0] = atan2 (s * R[k][j], R[j][j]);
      out[2] = 0.0;
    }
  for (guint c = 0; c < 3; c++)
    out[c] *= 180.0 / G_PI;
}

/* n rotation channels on `axes`: the missing axes are appended so any
 * rotation decomposes; returns FALSE when they would carry a rotation. */
gboolean
sq_quat_to_euler (const double q[4],
                   const int   *axes,
                   guint        n,
                   double       out[3])
{
  int full[3];
  guint m = 0;
  gboolean used[3] = { FALSE, FALSE, FALSE };

  for (guint i = 0; i < n; i++)
    {
      full[m++] = axes[i];
      used[axes[i]] = TRUE;
    }
  for (int a = 0; a < 3; a++)
    if (!used[a])
      full[m++] = a;
  bvh_quat_to_euler3 (q, full, out);
  for (guint i = n; i < 3; i++)
    {
      if (fabs (out[i]) > 1e-9)
        return FALSE;
      out[i] = 0.0;
    }
  return TRUE;
}

void
sq_quat_multiply (const double a[4],
                  const double b[4],
                  double       out[4])
{
  double r[4];

  r[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  r[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  r[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  r[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  memcpy (out, r, sizeof r);
}

void
sq_quat_conjugate (const double q[4],
                   double       out[4])
{
  out[0] = q[0];
  out[1] = -q[1];
  out[2] = -q[2];
  out[3] = -q[3];
}

void
sq_quat_rotate (const double q[4],
                const double v[3],
                double       out[3])
{
  double p[4] = { 0, v[0], v[1], v[2] }, c[4];

  sq_quat_conjugate (q, c);
  sq_quat_multiply (q, p, p);
  sq_quat_multiply (p, c, p);
  out[0] = p[1];
  out[1] = p[2];
  out[2] = p[3];
}
