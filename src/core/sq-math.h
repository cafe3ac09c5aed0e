/* sq-math.h: rotations and exact number conversions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

/* float32 bits <-> double, keeping every NaN's sign and payload (a signalling
 * NaN stays signalling), so a float read and written back keeps its bits. */
double   sq_float_bits_to_double (guint32 bits);
guint32  sq_double_to_float_bits_slow (double value);

/* The single-precision bits of `value` (NaN payloads kept): inline for the
 * writers' loops, the NaN case out of line */
static inline guint32
sq_double_to_float_bits (double value)
{
  float f = (float) value;
  guint32 bits;

  if (G_UNLIKELY (value != value))
    return sq_double_to_float_bits_slow (value);
  memcpy (&bits, &f, sizeof bits);
  return bits;
}

/* Axis-angle in degrees -> unit quaternion w, x, y, z (identity for a null axis).
 * Returns FALSE when the axis is null and the angle is not a whole turn. */
gboolean sq_axis_angle_to_quat   (const double aa[4],
                                  double       q[4]);
/* Unit quaternion -> axis (x, y, z) and angle in degrees in [0, 360]. */
void     sq_quat_to_axis_angle   (const double q[4],
                                  double       aa[4]);
void     sq_quat_normalize       (double       q[4]);
/* Hamilton product a ⊗ b (apply b, then a, to column vectors); `out` may
 * be `a` or `b` */
void     sq_quat_multiply        (const double a[4],
                                  const double b[4],
                                  double       out[4]);
void     sq_quat_conjugate       (const double q[4],
                                  double       out[4]);
/* v rotated by the unit quaternion q; `out` may be `v` */
void     sq_quat_rotate          (const double q[4],
                                  const double v[3],
                                  double       out[3]);
void     sq_quat_slerp           (const double a[4],
                                  const double b[4],
                                  double       t,
                                  double       out[4]);

/* Euler angles in degrees about `axes` (0 X, 1 Y, 2 Z) applied in the
 * order given (intrinsic, as BVH channels), n of them (0..3), to and from a
 * unit quaternion w, x, y, z. sq_quat_to_euler appends the missing axes so
 * any rotation decomposes, and returns FALSE when they would carry part of
 * it (the channels cannot hold that rotation). */
void     sq_euler_to_quat        (const double *angles,
                                  const int    *axes,
                                  guint         n,
                                  double        q[4]);
/* sq_euler_to_quat for `count` rotations at once, with the same numbers,
 * faster: rotation m has its angles at angles + m * angle_stride and its
 * quaternion goes to q + m * q_stride (strides in doubles). */
void     sq_euler_to_quat_n      (const double *angles,
                                  gsize         angle_stride,
                                  const int    *axes,
                                  guint         n,
                                  double       *q,
                                  gsize         q_stride,
                                  gsize         count);
gboolean sq_quat_to_euler        (const double  q[4],
                                  const int    *axes,
                                  guint         n,
                                  double        out[3]);

/* Locale-independent shortest text that reads back as exactly `value`. */
char    *sq_format_double        (char        *buf,
                                  gsize        size,
                                  double       value);
#define SQ_DOUBLE_BUF 32

/* The shortest rotation taking direction u onto direction v (the identity
 * when either has no length; half a turn across u when they are opposite) */
void     sq_quat_between         (const double u[3],
                                  const double v[3],
                                  double       q[4]);

G_END_DECLS
