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
sq_double_to_float_bits_slow (double value)
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

static void sq_sincos_half_deg (double  deg,
                                double *s_out,
                                double *c_out);

gboolean
sq_axis_angle_to_quat (const double aa[4],
                       double       q[4])
{
  double len = sqrt (aa[0] * aa[0] + aa[1] * aa[1] + aa[2] * aa[2]);
  double s;

  /* the half angle's sine and cosine in degrees, as for Euler angles (exact
   * at whole quarter turns, under 1 ulp, and cheaper than libm's sincos,
   * which reading a text SEQ calls for every key) */
  sq_sincos_half_deg (aa[3], &s, &q[0]);
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

/* sin and cos of half of `deg` degrees, |deg| / 2 <= 1e9 (cheaper than
 * libm's sincos, which reading a BVH file calls for every angle). The half angle is reduced exactly
 * by whole quarter turns in degrees (so 90, 180, 360 ... give exact 0 and
 * ±1), then r·π/180 is formed as u + e (r split so r_hi·C_HI is exact) and
 * the polynomials, Chebyshev fits made for this file (mpmath chebyfit on
 * [0, (π/4·1.001)²]), are evaluated at u with e as a first-order
 * correction. Error against the exact value: under 1 ulp (test-bvh
 * measures it). Double arithmetic only, no table and no branch, so that
 * sq_euler_to_quat_n's loops vectorize and give exactly the numbers of the
 * one-at-a-time path. */
#define SQ_DEG_C_HI 0x1.1df46ap-6               /* π/180 to 25 bits */
#define SQ_DEG_C_LO 0x1.294e9c8ae0ec6p-33       /* π/180 − SQ_DEG_C_HI */
#define SQ_ROUND_MAGIC 0x1.8p52                 /* (y + M) − M: y rounded to a whole number */

static inline double
sq_sincos_half_deg_poly (double  deg,
                         double *sn_out,
                         double *cs_out)
{
  double x = deg * 0.5;
  /* nearest whole number of quarter turns (|x| / 90 < 2^51), and which
   * of the four it ends on (−2 … 2, −2 and 2 the same); the sums with the
   * magic number are stored, which rounds them to double even where the
   * arithmetic is wider (x87) */
  double big = x * (1.0 / 90.0) + SQ_ROUND_MAGIC;
  double kd = big - SQ_ROUND_MAGIC;
  double big4 = kd * 0.25 + SQ_ROUND_MAGIC;
  double m = kd - 4.0 * (big4 - SQ_ROUND_MAGIC);
  double r = x - kd * 90.0;     /* exact: both are multiples of ulp(x) */
  /* Veltkamp split: r_hi has 26 bits */
  double split = r * 134217729.0;
  double r_hi = split - (split - r);
  double r_lo = r - r_hi;
  double t_hi = r_hi * SQ_DEG_C_HI;     /* 26 × 25 bits: exact */
  double t_lo = r_lo * SQ_DEG_C_HI + r * SQ_DEG_C_LO;
  double u = t_hi + t_lo;
  double e = t_lo - (u - t_hi);
  double z = u * u, z2 = z * z, hz = 0.5 * z, w = 1.0 - hz;

  /* the polynomials by Estrin's scheme: shorter dependency chains */
  *sn_out = u + (u * z * ((-0x1.5555555555555p-3 + z * 0x1.1111111110ba5p-7)
                          + z2 * ((-0x1.a01a019e80693p-13 + z * 0x1.71de379252004p-19)
                                  + z2 * (-0x1.ae60069e53ef1p-26 + z * 0x1.5e098556d302ep-33)))
                 + e * (1.0 - 0.5 * z));
  *cs_out = w + (((1.0 - w) - hz)
                 + (z2 * ((0x1.5555555555555p-5 + z * -0x1.6c16c16c16960p-10)
                          + z2 * ((0x1.a01a019f4d0edp-16 + z * -0x1.27e4fa15bd814p-22)
                                  + z2 * (0x1.1eeb66b683028p-29 + z * -0x1.907c0e63adbb6p-37)))
                    - e * u));
  return m;
}

/* Quarter turns m = 0, 1, ±2, −1: (sn, cs), (cs, −sn), (−sn, −cs), (−cs,
 * sn). Two ways to the same bits: compares, which vectorize (for
 * sq_euler_to_quat_n's loops), and tables, which do not branch in scalar
 * code (a compare there is a branch the quadrants of real data mispredict) */
static inline void
sq_sincos_half_deg_vec (double  deg,
                        double *s_out,
                        double *c_out)
{
  double sn, cs;
  double m = sq_sincos_half_deg_poly (deg, &sn, &cs);
  double am = fabs (m);
  double a = am == 1.0 ? cs : sn;
  double b = am == 1.0 ? sn : cs;

  *s_out = (am == 2.0 || m == -1.0) ? -a : a;
  *c_out = (am == 2.0 || m == 1.0) ? -b : b;
}

static inline void
sq_sincos_half_deg_table (double  deg,
                          double *s_out,
                          double *c_out)
{
  static const double sign_s[4] = { 1.0, 1.0, -1.0, -1.0 };
  static const double sign_c[4] = { 1.0, -1.0, -1.0, 1.0 };
  double pair[2];
  guint quadrant = (guint) ((gint64) sq_sincos_half_deg_poly (deg, &pair[0], &pair[1]) & 3);

  /* −sn as −1.0 · sn: the same bits, −0 included */
  *s_out = sign_s[quadrant] * pair[quadrant & 1];
  *c_out = sign_c[quadrant] * pair[(quadrant & 1) ^ 1];
}

/* The same for any angle: huge ones reduced by whole turns first (fmod is
 * exact), NaN for infinities and NaN */
static void
sq_sincos_half_deg (double  deg,
                    double *s_out,
                    double *c_out)
{
  if (G_UNLIKELY (!(fabs (deg) <= 2e9)))
    {
      if (!isfinite (deg))
        {
          *s_out = *c_out = NAN;
          return;
        }
      deg = fmod (deg * 0.5, 360.0) * 2.0;
    }
  sq_sincos_half_deg_table (deg, s_out, c_out);
}

/* qi ⊗ qj ⊗ qk for three distinct axes i, j, k (the usual BVH
 * case) written out, from the half-angle sines and cosines; the zero terms
 * of the general products left out, which gives the same numbers. eps: +1
 * when e_i × e_j = e_k, −1 otherwise. + 0.0 turns −0 into +0. */
static inline void
sq_quat_from_3 (double  si,
                double  ci,
                double  sj,
                double  cj,
                double  sk,
                double  ck,
                double  eps,
                double *w,
                double *qi,
                double *qj,
                double *qk)
{
  /* p = qi ⊗ qj */
  double p0 = ci * cj, pi = si * cj, pj = ci * sj, pk = eps * (si * sj);

  /* p ⊗ qk */
  *w = (p0 * ck - pk * sk) + 0.0;
  *qi = (pi * ck + eps * (pj * sk)) + 0.0;
  *qj = (pj * ck - eps * (pi * sk)) + 0.0;
  *qk = (p0 * sk + pk * ck) + 0.0;
}

static gboolean
sq_axes_distinct (const int *axes,
                  guint      n)
{
  return n == 3 && axes[0] != axes[1] && axes[1] != axes[2] && axes[0] != axes[2];
}

/* axes: 0 X, 1 Y, 2 Z; angles in degrees; n rotation channels (0..3) */
void
sq_euler_to_quat (const double *angles,
                   const int    *axes,
                   guint         n,
                   double        q[4])
{
  if (sq_axes_distinct (axes, n))
    {
      int i = axes[0], j = axes[1], k = axes[2];
      double si, ci, sj, cj, sk, ck;

      sq_sincos_half_deg (angles[0], &si, &ci);
      sq_sincos_half_deg (angles[1], &sj, &cj);
      sq_sincos_half_deg (angles[2], &sk, &ck);
      sq_quat_from_3 (si, ci, sj, cj, sk, ck, ((j - i + 3) % 3 == 1) ? 1.0 : -1.0,
                      &q[0], &q[1 + i], &q[1 + j], &q[1 + k]);
    }
  else
    {
      q[0] = 1.0;
      q[1] = q[2] = q[3] = 0.0;
      for (guint i = 0; i < n; i++)
        {
          double r[4] = { 0, 0, 0, 0 };

          sq_sincos_half_deg (angles[i], &r[1 + axes[i]], &r[0]);
          sq_quat_multiply (q, r, q);
        }
      /* one sign for zero (+0) whatever path made it: the BVH writer
       * compares the result bit for bit */
      for (guint c = 0; c < 4; c++)
        q[c] += 0.0;
    }
}

#define SQ_EULER_BLOCK 16

/* On x86-64 with GCC, copies of this function for AVX-512 and AVX2
 * processors, chosen when the program starts (function multi-versioning;
 * the plain SSE2 copy everywhere else): eight or four lanes instead of two,
 * 2x faster. Every copy rounds each operation the same way, as
 * ISO C mode (c_std=c11) keeps GCC from fusing multiplies and adds, so all
 * give the same bits (test-bvh compares them with sq_euler_to_quat). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__) && defined(__linux__) \
    && !defined(__SANITIZE_THREAD__)     /* the resolver runs before ThreadSanitizer is set up */
#define SQ_EULER_CLONES __attribute__ ((target_clones ("avx512f", "avx2", "default")))
#else
#define SQ_EULER_CLONES
#endif

SQ_EULER_CLONES void
sq_euler_to_quat_n (const double *angles,
                    gsize         angle_stride,
                    const int    *axes,
                    guint         n,
                    double       *q,
                    gsize         q_stride,
                    gsize         count)
{
  gsize done = 0;

  /* blocks of SQ_EULER_BLOCK rotations, each step a loop over the block
   * that the compiler turns into vector operations */
  if (sq_axes_distinct (axes, n))
    {
      int i = axes[0], j = axes[1], k = axes[2];
      double eps = ((j - i + 3) % 3 == 1) ? 1.0 : -1.0;

      for (; done + SQ_EULER_BLOCK <= count; done += SQ_EULER_BLOCK)
        {
          double a[3 * SQ_EULER_BLOCK], s[3 * SQ_EULER_BLOCK], c[3 * SQ_EULER_BLOCK];
          double w[SQ_EULER_BLOCK], qi[SQ_EULER_BLOCK], qj[SQ_EULER_BLOCK], qk[SQ_EULER_BLOCK];
          gboolean plain = TRUE;

          for (guint b = 0; b < SQ_EULER_BLOCK; b++)
            for (guint r = 0; r < 3; r++)
              a[r * SQ_EULER_BLOCK + b] = angles[(done + b) * angle_stride + r];
          for (guint b = 0; b < 3 * SQ_EULER_BLOCK; b++)
            plain &= fabs (a[b]) <= 2e9;
          if (!plain)
            {
              /* a huge angle or not a number: one at a time */
              for (guint b = 0; b < SQ_EULER_BLOCK; b++)
                sq_euler_to_quat (&angles[(done + b) * angle_stride], axes, n, &q[(done + b) * q_stride]);
              continue;
            }
          for (guint b = 0; b < 3 * SQ_EULER_BLOCK; b++)
            sq_sincos_half_deg_vec (a[b], &s[b], &c[b]);
          for (guint b = 0; b < SQ_EULER_BLOCK; b++)
            sq_quat_from_3 (s[b], c[b], s[SQ_EULER_BLOCK + b], c[SQ_EULER_BLOCK + b],
                            s[2 * SQ_EULER_BLOCK + b], c[2 * SQ_EULER_BLOCK + b], eps,
                            &w[b], &qi[b], &qj[b], &qk[b]);
          for (guint b = 0; b < SQ_EULER_BLOCK; b++)
            {
              double *out = &q[(done + b) * q_stride];

              out[0] = w[b];
              out[1 + i] = qi[b];
              out[1 + j] = qj[b];
              out[1 + k] = qk[b];
            }
        }
    }
  for (; done < count; done++)
    sq_euler_to_quat (&angles[done * angle_stride], axes, n, &q[done * q_stride]);
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

void
sq_quat_between (const double u[3],
                 const double v[3],
                 double       q[4])
{
  double lu = sqrt (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  double lv = sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);

  q[0] = 1, q[1] = q[2] = q[3] = 0;
  if (lu < 1e-12 || lv < 1e-12)
    return;
  q[0] = 1 + (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) / (lu * lv);
  q[1] = (u[1] * v[2] - u[2] * v[1]) / (lu * lv);
  q[2] = (u[2] * v[0] - u[0] * v[2]) / (lu * lv);
  q[3] = (u[0] * v[1] - u[1] * v[0]) / (lu * lv);
  if (q[0] < 1e-9)
    {
      /* opposite: half a turn about an axis across u */
      double a[3] = { -u[1], u[0], 0 };
      double la = sqrt (a[0] * a[0] + a[1] * a[1]);

      if (la < 1e-9)
        a[0] = 1, a[1] = 0, a[2] = 0, la = 1;
      q[0] = 0, q[1] = a[0] / la, q[2] = a[1] / la, q[3] = a[2] / la;
    }
  sq_quat_normalize (q);
}
