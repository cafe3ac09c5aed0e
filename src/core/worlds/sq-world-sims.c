/* sq-world-sims.c: The Sims (1) and SimPose-ium: skeleton, conventions,
 * shared text grammar and validation (see sq-world-sims.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-sims"

#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

#include "sq-math.h"
#include "sq-private.h"
#include "sq-validate.h"
#include "sq-world.h"
#include "worlds/sq-world-sims.h"

#define T SQ_SIMS_CAN_TRANSLATE
#define R SQ_SIMS_CAN_ROTATE
#define B SQ_SIMS_CAN_BLEND
#define W SQ_SIMS_CAN_WIGGLE

/* formats.md 5.1: the game's adult-skeleton.cmx, in its order */
static const SqSimsBone adult[SQ_SIMS_N_BONES] = {
  { "ROOT", -1, { -5.88894e-005, 3.01362, 0.00807638 }, { -0.0262998, -0.706899, 0.0262789, -0.706336 }, T | R },
  { "PELVIS", 0, { -0.0366778, -1.72489e-008, -2.62766e-012 }, { 0.499999, 0.5, 0.5, -0.500001 }, T | R },
  { "L_LEG", 1, { -4.26205e-007, 0.241228, 2.06089e-007 }, { 0.0137635, 2.41525e-006, -0.999905, -3.00579e-007 }, R | B },
  { "L_LEG1", 2, { 1.44737, -3.40221e-010, -3.65496e-009 }, { -2.21297e-011, 0.0357504, -4.92061e-013, -0.999361 }, R | B },
  { "L_FOOT", 3, { 1.31579, 6.72219e-010, 1.85087e-009 }, { 1.18358e-006, -0.0116309, 5.24389e-007, -0.999932 }, R | B },
  { "L_TOE0", 4, { 0.253839, -4.82293e-009, 0.339987 }, { -1.9198e-011, -0.707107, 1.91956e-011, -0.707107 }, R | B },
  { "L_TOE01", 5, { 0.251088, -3.00624e-009, -2.91078e-010 }, { -2.95136e-015, 1.25923e-014, 1.67305e-011, -1 }, R | B },
  { "L_TOE02", 6, { 0.056929, -3.05933e-009, 3.05676e-010 }, { 7.81281e-017, -5.38587e-015, -1.04296e-011, -1 }, R | B },
  { "R_LEG", 1, { 2.44632e-007, -0.241228, -4.62491e-007 }, { 0.0165402, 5.5519e-007, -0.999863, -1.00484e-006 }, R | B },
  { "R_LEG1", 8, { 1.44737, 1.03675e-008, 8.03626e-009 }, { -2.11848e-011, 0.0298356, 8.86403e-013, -0.999555 }, R | B },
  { "R_FOOT", 9, { 1.31579, 1.12555e-008, -6.11749e-009 }, { -6.65177e-007, -0.00860503, -3.73375e-007, -0.999963 }, R | B },
  { "R_TOE0", 10, { 0.253839, -4.72826e-009, 0.339987 }, { 1.97569e-011, -0.707107, -1.97538e-011, -0.707107 }, R | B },
  { "R_TOE01", 11, { 0.251088, -2.92067e-009, -5.78397e-010 }, { -4.94409e-015, 1.09617e-014, 5.30648e-012, -1 }, R | B },
  { "R_TOE02", 12, { 0.056929, -2.8047e-009, 5.1338e-010 }, { 7.98796e-016, 2.99644e-015, -1.37573e-011, -1 }, R | B },
  { "SPINE", 1, { 0.381066, 5.29048e-007, -0.000334763 }, { 2.10104e-006, -0.0315231, 7.14932e-007, -0.999503 }, R | B },
  { "SPINE1", 14, { 0.421059, -9.27955e-010, -0.00033528 }, { -3.30452e-012, 7.52235e-011, -8.18583e-015, -1 }, R | B },
  { "SPINE2", 15, { 0.421059, -9.33352e-010, -0.000335277 }, { -3.30452e-012, 7.52235e-011, -8.18583e-015, -1 }, R | B },
  { "NECK", 16, { 0.421097, -8.79169e-010, -0.000315105 }, { -1.2815e-011, -0.0604161, 1.67573e-007, -0.998173 }, R | B },
  { "HEAD", 17, { 0.398615, -1.0225e-012, -1.18576e-008 }, { 2.9478e-012, -0.0668782, 1.85489e-007, -0.997761 }, R | B | W },
  { "L_ARM", 17, { 4.56552e-007, 0.130263, 0.000317027 }, { -0.618227, -0.783643, 0.0376674, -0.0477436 }, R | B },
  { "L_ARM1", 19, { 0.376316, -5.49453e-008, 1.60809e-009 }, { -0.00849216, -0.0173039, -0.57938, -0.81483 }, R | B | W },
  { "L_ARM2", 20, { 0.881536, 2.63531e-008, 9.20282e-009 }, { -8.57358e-011, 0.0500412, 5.23877e-009, -0.998747 }, R | B | W },
  { "L_HAND", 21, { 0.820474, 1.81877e-008, 3.02261e-009 }, { 0.705821, 0.0376602, 0.0376902, -0.706383 }, R | B | W },
  { "L_FINGER0", 22, { 0.302072, 8.54501e-009, -1.60412e-008 }, { 0.000391826, -0.177342, -7.06052e-005, -0.984149 }, R | B },
  { "R_ARM", 17, { 4.57471e-007, -0.130263, 0.000317749 }, { 0.618227, -0.783643, -0.0376652, -0.0477453 }, R | B },
  { "R_ARM1", 24, { 0.376316, 5.23017e-008, 1.85675e-009 }, { 0.00849222, -0.0173038, 0.57938, -0.81483 }, R | B | W },
  { "R_ARM2", 25, { 0.881536, -1.63993e-008, 5.11895e-009 }, { 1.00755e-010, 0.0500412, -3.82142e-009, -0.998747 }, R | B | W },
  { "R_HAND", 26, { 0.820474, -4.87935e-008, -3.3423e-009 }, { -0.706605, 0.0176475, -0.0176615, -0.707168 }, R | B | W },
  { "R_FINGER0", 27, { 0.302072, 1.54253e-010, 6.47549e-008 }, { -0.000394579, -0.133423, 5.31174e-005, -0.991059 }, R | B },
};

/* the game's child-skeleton.cmx: same names, order and parents */
static const SqSimsBone child[SQ_SIMS_N_BONES] = {
  { "ROOT", -1, { -5.90384e-005, 2.27301, 0.00807638 }, { -0.0262998, -0.706899, 0.0262789, -0.706336 }, T | R },
  { "PELVIS", 0, { -0.0296833, 3.66689e-008, 3.46361e-012 }, { 0.499999, 0.5, 0.5, -0.500001 }, T | R },
  { "L_LEG", 1, { -2.1259e-007, 0.189804, 1.64868e-007 }, { 0.0130909, 2.57269e-006, -0.999914, -8.51161e-007 }, R | B },
  { "L_LEG1", 2, { 1.07374, 2.98182e-009, -3.95786e-009 }, { -2.89517e-011, 0.0357047, 7.10838e-013, -0.999362 }, R | B },
  { "L_FOOT", 3, { 0.976131, -1.10992e-010, -2.6442e-009 }, { 1.2817e-006, -0.0113756, 1.16816e-007, -0.999935 }, R | B },
  { "L_TOE0", 4, { 0.222551, -1.93023e-009, 0.261303 }, { -4.55542e-012, -0.707107, 4.57347e-012, -0.707107 }, R | B },
  { "L_TOE01", 5, { 0.17882, -4.68068e-009, -7.39353e-012 }, { 1.01038e-014, -1.48296e-014, -1.19092e-013, -1 }, R | B },
  { "L_TOE02", 6, { 0.038393, -1.92182e-009, 5.5256e-012 }, { -3.17532e-016, 4.42791e-015, 2.8756e-011, -1 }, R | B },
  { "R_LEG", 1, { 3.15199e-007, -0.189804, -3.60634e-007 }, { 0.0160391, 6.20286e-007, -0.999871, -5.31094e-007 }, R | B },
  { "R_LEG1", 8, { 1.07374, 1.90346e-009, -2.69023e-009 }, { -5.21694e-011, 0.029435, -9.74972e-013, -0.999567 }, R | B },
  { "R_FOOT", 9, { 0.976131, 5.76657e-009, 6.58573e-010 }, { -6.71978e-007, -0.00807534, 5.77038e-007, -0.999967 }, R | B },
  { "R_TOE0", 10, { 0.222551, 5.48558e-010, 0.261303 }, { -2.64256e-011, -0.707107, 2.64493e-011, -0.707107 }, R | B },
  { "R_TOE01", 11, { 0.17882, -1.19399e-008, 6.68456e-012 }, { 1.76002e-014, -5.83173e-014, -2.1884e-011, -1 }, R | B },
  { "R_TOE02", 12, { 0.038393, 1.10652e-008, 1.87201e-011 }, { 9.2022e-016, 1.36906e-014, 1.25962e-011, -1 }, R | B },
  { "SPINE", 1, { 0.257, 3.56872e-007, -0.000270915 }, { 2.10102e-006, -0.0315231, 7.14932e-007, -0.999503 }, R | B },
  { "SPINE1", 14, { 0.340763, -7.4936e-010, -0.000271343 }, { 1.47255e-012, -3.67194e-010, -1.63898e-014, -1 }, R | B },
  { "SPINE2", 15, { 0.340763, -7.53901e-010, -0.000271339 }, { 1.47255e-012, -3.67194e-010, -1.63898e-014, -1 }, R | B },
  { "NECK", 16, { 0.340791, -6.3747e-010, -0.000229513 }, { 1.57954e-011, -0.0604161, 1.6757e-007, -0.998173 }, R | B },
  { "HEAD", 17, { 0.290339, -3.0497e-012, -1.10718e-008 }, { 1.91153e-011, -0.0710542, 1.97074e-007, -0.997472 }, R | B | W },
  { "L_ARM", 17, { 1.15506e-007, 0.099624, 0.000230912 }, { -0.618967, -0.783461, 0.0342787, -0.0435146 }, R | B },
  { "L_ARM1", 19, { 0.279174, 1.67349e-007, 3.65367e-011 }, { -0.00818339, -0.0168337, -0.579558, -0.814716 }, R | B | W },
  { "L_ARM2", 20, { 0.653974, -8.88153e-009, -2.42324e-009 }, { -6.30755e-012, 0.050996, -3.02819e-009, -0.998699 }, R | B | W },
  { "L_HAND", 21, { 0.608675, 2.23463e-009, -3.24589e-011 }, { 0.705804, 0.0379763, 0.0380066, -0.706366 }, R | B | W },
  { "L_FINGER0", 22, { 0.244467, 2.88512e-009, -3.64724e-008 }, { 0.000393077, -0.158918, -6.32736e-005, -0.987292 }, R | B },
  { "R_ARM", 17, { 1.15993e-007, -0.099624, 0.000231462 }, { 0.618967, -0.783461, -0.0342765, -0.0435163 }, R | B },
  { "R_ARM1", 24, { 0.279174, -5.25246e-008, -2.66707e-009 }, { 0.00818345, -0.0168336, 0.579558, -0.814716 }, R | B | W },
  { "R_ARM2", 25, { 0.653974, -1.92991e-008, 9.06037e-009 }, { 2.43677e-010, 0.050996, -4.31971e-010, -0.998699 }, R | B | W },
  { "R_HAND", 26, { 0.608675, -2.00577e-008, -1.08242e-008 }, { -0.706601, 0.0177966, -0.0178108, -0.707164 }, R | B | W },
  { "R_FINGER0", 27, { 0.244467, -9.02608e-009, 3.42137e-008 }, { -0.000395306, -0.119049, 4.73989e-005, -0.992888 }, R | B },
};

#undef T
#undef R
#undef B
#undef W

/* Game units: the tools that import Sims files divide by 3 to get metres
 * (formats.md 5.1, UNCONFIRMED as a unit). Axes: Y up, DirectX
 * left-handed: the rest skeleton chained as below stands on its feet at
 * y = 0 with the toes towards +Z and its left side at -X, so SL X
 * (forward) = Z, SL Y (left) = -X, SL Z (up) = Y. The stored quaternions
 * are the conjugates of column-vector rotations (DirectX's row vectors):
 * only so does the rest skeleton stand (legs down, head up). */
const SqSpace sq_space_sims = {
  .world = N_("The Sims"),
  .world_id = SQ_WORLD_THE_SIMS,
  .metres_per_unit = 1.0 / 3.0,
  .axis = { 1, 2, 0 },
  .sign = { -1, 1, 1 },
  .conjugate = TRUE,
  .scheme = SQ_JOINT_SCHEME_SIMS,
  .hierarchy = TRUE,
  .time_grid = SQ_SIMS_FPS,
};

const SqSimsBone *
sq_sims_skeleton (SqSimsAge age)
{
  return age == SQ_SIMS_CHILD ? child : adult;
}

int
sq_sims_bone_index (const char *name)
{
  for (int i = 0; i < SQ_SIMS_N_BONES; i++)
    if (g_strcmp0 (adult[i].name, name) == 0)
      return i;
  return -1;
}

/* ---- the clip layout -------------------------------------------------- */

/* Each bone's "parent" and "offset" values, made once per age and shared
 * by every clip (a GVariant never changes): every CMX, PSL and KFD read
 * starts from the 29 bones, and making 58 values each time was most of
 * reading a small file. */
static GVariant *bone_values[2][SQ_SIMS_N_BONES][2];

static void
bone_values_init (void)
{
  static gsize done = 0;

  if (!g_once_init_enter (&done))
    return;
  for (int a = 0; a < 2; a++)
    {
      const SqSimsBone *bones = sq_sims_skeleton (a == 1 ? SQ_SIMS_CHILD : SQ_SIMS_ADULT);

      for (int i = 0; i < SQ_SIMS_N_BONES; i++)
        {
          bone_values[a][i][0] = g_variant_ref_sink (g_variant_new_int32 (bones[i].parent));
          bone_values[a][i][1] = g_variant_ref_sink (g_variant_new ("(ddd)", bones[i].pos[0],
                                                                    bones[i].pos[1], bones[i].pos[2]));
        }
    }
  g_once_init_leave (&done, 1);
}

SqClip *
_sq_sims_clip_new (const SqFormat *format,
                   SqSimsAge       age)
{
  const SqSimsBone *bones = sq_sims_skeleton (age);
  int a = age == SQ_SIMS_CHILD ? 1 : 0;
  SqClip *clip = sq_clip_new ();

  bone_values_init ();
  clip->format = format;
  clip->fps = SQ_SIMS_FPS;
  clip->frame_base = 0;
  g_free (clip->root);
  clip->root = g_strdup ("ROOT");
  clip->joints = g_new (SqJoint, SQ_SIMS_N_BONES);
  clip->joints_alloc = SQ_SIMS_N_BONES;
  for (int i = 0; i < SQ_SIMS_N_BONES; i++)
    {
      SqJoint *joint = sq_clip_add_joint (clip, bones[i].name);

      sq_props_set (joint->extra, "parent", bone_values[a][i][0]);
      sq_props_set (joint->extra, "offset", bone_values[a][i][1]);
    }
  return clip;
}

void
_sq_sims_quat_from_file (const double xyzw[4],
                         double       wxyz[4])
{
  wxyz[0] = xyzw[3];
  wxyz[1] = xyzw[0];
  wxyz[2] = xyzw[1];
  wxyz[3] = xyzw[2];
}

void
_sq_sims_quat_to_file (const double wxyz[4],
                       double       xyzw[4])
{
  xyzw[0] = wxyz[1];
  xyzw[1] = wxyz[2];
  xyzw[2] = wxyz[3];
  xyzw[3] = wxyz[0];
}

gsize
_sq_sims_pose_count (const SqClip *clip)
{
  gsize n = 0;

  for (gsize j = 0; j < clip->n_joints; j++)
    for (int c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *track = &clip->joints[j].tracks[c];

        if (track->n_keys > 0)
          {
            double last = sq_track_time (track, track->n_keys - 1) * SQ_SIMS_FPS;

            if (isfinite (last) && last >= 0 && last < 1e7)
              n = MAX (n, (gsize) floor (last + 0.5) + 1);
          }
      }
  return n;
}

gboolean
_sq_sims_track_value (const SqTrack *track,
          SqChannel      channel,
          gsize          frame,
          double         v[4])
{
  gssize i;

  if (track->n_keys == 0)
    return FALSE;
  if ((i = _sq_sims_key_on_frame (track, (gint64) frame)) >= 0)
    {
      SqKey key = sq_track_key (track, (gsize) i);
      memcpy (v, key.v, sizeof key.v);
    }
  else
    sq_track_sample (track, channel, frame / SQ_SIMS_FPS, v);
  return TRUE;
}

gssize
_sq_sims_key_on_frame (const SqTrack *track,
                       gint64         frame)
{
  double time = frame / SQ_SIMS_FPS, eps = 0.01 / SQ_SIMS_FPS;
  gsize i = sq_track_lower_bound (track, time - eps, 0, track->n_keys);

  return i < track->n_keys && fabs (sq_track_time (track, i) - time) <= eps ? (gssize) i : -1;
}

const char *
_sq_sims_string_extra (const SqClip *clip,
                       const char   *key,
                       const char   *fallback)
{
  GVariant *v = sq_props_get (clip->extra, key);

  return v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_STRING) ? g_variant_get_string (v, NULL) : fallback;
}

void
_sq_sims_bone_joints (const SqClip *clip,
                      gssize        joint_of[SQ_SIMS_N_BONES])
{
  const SqSimsBone *bones = sq_sims_skeleton (SQ_SIMS_ADULT);

  for (int b = 0; b < SQ_SIMS_N_BONES; b++)
    joint_of[b] = sq_clip_find_joint (clip, bones[b].name);
}

void
_sq_sims_pose_at (const SqClip *clip,
                  const gssize  joint_of[SQ_SIMS_N_BONES],
                  gsize         frame,
                  double        trans[2][3],
                  double        rot[SQ_SIMS_N_BONES][4])
{
  const SqSimsBone *bones = sq_sims_skeleton (SQ_SIMS_ADULT);

  for (int b = 0; b < SQ_SIMS_N_BONES; b++)
    {
      gssize j = joint_of[b];
      double v[4];

      if (b < 2)
        {
          if (j >= 0 && _sq_sims_track_value (&clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION], SQ_CHANNEL_TRANSLATION, frame, v))
            memcpy (trans[b], v, sizeof trans[b]);
          else
            memcpy (trans[b], bones[b].pos, sizeof trans[b]);
        }
      if (j >= 0 && _sq_sims_track_value (&clip->joints[j].tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, frame, v))
        _sq_sims_quat_to_file (v, rot[b]);
      else
        memcpy (rot[b], bones[b].rot, sizeof rot[b]);
    }
}

/* ---- the shared text grammar ------------------------------------------ */

static int
cmp_int64 (gconstpointer a,
           gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

void
_sq_sims_text_init (SqSimsText *t,
                    GBytes     *bytes,
                    const char *what)
{
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  memset (t, 0, sizeof *t);
  _sq_lines_init (&t->lines, data != NULL ? data : "", data != NULL ? len : 0);
  t->what = what;
}

gboolean
_sq_sims_text_at_end (const SqSimsText *t)
{
  return t->lines.pos >= t->lines.len;
}

void
_sq_sims_text_error (const SqSimsText *t,
                     GError          **error,
                     SqErrorCode       code,
                     const char       *format,
                     ...)
{
  va_list args;

  va_start (args, format);
  sq_set_error_at_line_valist (error, code, MAX (t->lines.line, 1), 1, format, args);
  va_end (args);
}

/* The next line: only LF ends a line (a CR before it is dropped) */
gboolean
_sq_sims_text_line (SqSimsText  *t,
                    const char  *what,
                    GError     **error)
{
  if (!_sq_lines_next_lf (&t->lines))
    {
      sq_set_error_at_line (error, SQ_ERROR_TRUNCATED, t->lines.line + 1, 1,
                            _("the %s file ends where %s was expected"), t->what, what);
      return FALSE;
    }
  return TRUE;
}

gboolean
_sq_sims_text_ints (SqSimsText  *t,
                    gsize        skip,
                    gint64      *out,
                    guint        n,
                    const char  *what,
                    GError     **error)
{
  const char *cur = t->lines.cur, *end = cur + t->lines.cur_len;
  const char *p = cur + MIN (skip, t->lines.cur_len);

  for (guint i = 0; i < n; i++)
    if (!_sq_text_scan_int64 (p, end, &out[i], &p))
      {
        sq_set_error_at_line (error, SQ_ERROR_SYNTAX, t->lines.line, (guint) (p - cur) + 1,
                              _("%s: %u whole numbers expected"), what, n);
        return FALSE;
      }
  if (_sq_text_skip_spaces (p, end) != end)
    {
      sq_set_error_at_line (error, SQ_ERROR_SYNTAX, t->lines.line, (guint) (p - cur) + 1,
                            _("%s: unexpected text after %u numbers"), what, n);
      return FALSE;
    }
  return TRUE;
}

gboolean
_sq_sims_text_int (SqSimsText  *t,
                   const char  *what,
                   gint64       min,
                   gint64       max,
                   gint64      *out,
                   GError     **error)
{
  if (!_sq_sims_text_line (t, what, error) || !_sq_sims_text_ints (t, 0, out, 1, what, error))
    return FALSE;
  if (*out < min || *out > max)
    {
      sq_set_error_at_line (error, SQ_ERROR_BAD_VALUE, t->lines.line, 1,
                            _("%s %" PRId64 " is outside %" PRId64 "–%" PRId64),
                            what, *out, min, max);
      return FALSE;
    }
  return TRUE;
}

char *
_sq_sims_text_string (SqSimsText  *t,
                      const char  *what,
                      GError     **error)
{
  if (!_sq_sims_text_line (t, what, error))
    return NULL;
  return _sq_latin1_to_utf8 ((const guint8 *) t->lines.cur, t->lines.cur_len);
}

gboolean
_sq_sims_scan_bars (const char  *cur,
                    gsize        len,
                    double      *out,
                    guint        n,
                    const char **bad)
{
  const char *end = cur + len, *p = _sq_text_skip_spaces (cur, end);

  if (p >= end || *p != '|')
    goto bad;
  p++;
  for (guint i = 0; i < n; i++)
    {
      const char *tok = _sq_text_skip_spaces (p, end), *q = tok;

      while (q < end && *q != ' ' && *q != '\t' && *q != '|')
        q++;
      if (q == tok || (p = _sq_scan_double (tok, q, &out[i])) != q)
        {
          p = tok;
          goto bad;
        }
    }
  p = _sq_text_skip_spaces (p, end);
  if (p >= end || *p != '|' || _sq_text_skip_spaces (p + 1, end) != end)
    goto bad;
  return TRUE;

bad:
  *bad = MIN (p, end);
  return FALSE;
}

gboolean
_sq_sims_text_bars (SqSimsText  *t,
                    double      *out,
                    guint        n,
                    const char  *what,
                    GError     **error)
{
  const char *bad = NULL;

  if (!_sq_sims_text_line (t, what, error))
    return FALSE;
  if (_sq_sims_scan_bars (t->lines.cur, t->lines.cur_len, out, n, &bad))
    return TRUE;
  sq_set_error_at_line (error, SQ_ERROR_SYNTAX, t->lines.line, (guint) (bad - t->lines.cur) + 1,
                        _("%s: “| %s |” expected"), what, n == 3 ? "x y z" : "x y z w");
  return FALSE;
}

const char *
_sq_sims_text_eol (GBytes *bytes)
{
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  const char *nl = data != NULL ? memchr (data, '\n', len) : NULL;

  return nl != NULL && nl > data && nl[-1] == '\r' ? "\r\n" : "\n";
}

gboolean
_sq_sims_read_pose (SqSimsText  *t,
                    SqSimsPoses *poses,
                    gssize       frame,
                    gint64      *time,
                    GError     **error)
{
  const SqSimsBone *bones = sq_sims_skeleton (SQ_SIMS_ADULT);
  const char *lines[SQ_SIMS_POSE_LINES];
  double v[4], at, last;

  if (!_sq_sims_text_line (t, "Time", error))
    return FALSE;
  if (t->lines.cur_len < 4 || memcmp (t->lines.cur, "Time", 4) != 0)
    {
      _sq_sims_text_error (t, error, SQ_ERROR_SYNTAX, _("“Time n” expected"));
      return FALSE;
    }
  if (!_sq_sims_text_ints (t, 4, time, 1, "Time", error))
    return FALSE;
  if (frame < 0)
    {
      /* the pose sits at its Time: times must increase from 0 */
      if (*time < 0 || *time > SQ_SIMS_MAX_FRAME)
        {
          _sq_sims_text_error (t, error, SQ_ERROR_BAD_VALUE, _("Time %" PRId64 " is outside 0–%d"),
                               *time, SQ_SIMS_MAX_FRAME);
          return FALSE;
        }
      if (_sq_sims_poses_last_time (poses, &last) && *time / SQ_SIMS_FPS <= last)
        {
          _sq_sims_text_error (t, error, SQ_ERROR_BAD_VALUE,
                               _("Time %" PRId64 " is not after the previous pose's Time %.0f"),
                               *time, last * SQ_SIMS_FPS);
          return FALSE;
        }
      at = *time / SQ_SIMS_FPS;
    }
  else
    at = frame / SQ_SIMS_FPS;
  for (int b = 0; b < 2; b++)
    {
      if (!_sq_sims_text_bars (t, v, 3, b == 0 ? "ROOT translation" : "PELVIS translation", error))
        return FALSE;
      lines[b] = t->lines.cur;
    }
  for (int b = 0; b < SQ_SIMS_N_BONES; b++)
    {
      if (!_sq_sims_text_bars (t, v, 4, bones[b].name, error))
        return FALSE;
      lines[2 + b] = t->lines.cur;
    }
  _sq_sims_poses_add (poses, at, lines);
  return TRUE;
}

GArray *
_sq_sims_key_frames (const SqClip *clip)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint w = 0;

  for (gsize j = 0; j < clip->n_joints; j++)
    for (int c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *track = &clip->joints[j].tracks[c];

        for (gsize k = 0; k < track->n_keys; k++)
          {
            double f = sq_track_time (track, k) * SQ_SIMS_FPS;
            gint64 n;

            if (!isfinite (f) || f < -0.5 || f > SQ_SIMS_MAX_FRAME)
              continue;
            n = (gint64) floor (f + 0.5);
            g_array_append_val (frames, n);
          }
      }
  g_array_sort (frames, cmp_int64);
  for (guint i = 0; i < frames->len; i++)
    if (w == 0 || g_array_index (frames, gint64, i) != g_array_index (frames, gint64, w - 1))
      g_array_index (frames, gint64, w++) = g_array_index (frames, gint64, i);
  g_array_set_size (frames, w);
  return frames;
}

void
_sq_sims_put_bars (GString      *out,
                   const double *v,
                   guint         n,
                   gboolean      fixed,
                   const char   *eol)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_c (out, '|');
  for (guint i = 0; i < n; i++)
    {
      double x = isfinite (v[i]) ? v[i] : 0.0;

      g_string_append_c (out, ' ');
      if (fixed && fabs (x) < 1e15)
        _sq_append_fixed (out, x, 6);     /* the text of "%.6f" */
      else
        g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%g", x));
    }
  g_string_append (out, " |");
  g_string_append (out, eol);
}

void
_sq_sims_write_pose (GString      *out,
                     const SqClip *clip,
                     const gssize  joint_of[SQ_SIMS_N_BONES],
                     gsize         frame,
                     gint64        time,
                     const char   *eol)
{
  double trans[2][3], rot[SQ_SIMS_N_BONES][4];

  _sq_sims_pose_at (clip, joint_of, frame, trans, rot);
  g_string_append_printf (out, "Time %" PRId64 "%s", time, eol);
  _sq_sims_put_bars (out, trans[0], 3, TRUE, eol);
  _sq_sims_put_bars (out, trans[1], 3, TRUE, eol);
  for (int b = 0; b < SQ_SIMS_N_BONES; b++)
    _sq_sims_put_bars (out, rot[b], 4, TRUE, eol);
}

const char *
_sq_sims_eol (const SqClip *clip)
{
  GVariant *v = sq_props_get (clip->extra, "line-ending");

  return v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_STRING)
         && g_str_equal (g_variant_get_string (v, NULL), "\n") ? "\n" : "\r\n";
}

void
_sq_sims_put_string (GString    *out,
                     const char *utf8,
                     const char *eol)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();

  _sq_utf8_to_latin1 (utf8 != NULL ? utf8 : "", bytes);
  for (guint i = 0; i < bytes->len; i++)
    if (bytes->data[i] == '\n' || bytes->data[i] == '\r')
      bytes->data[i] = ' ';     /* a name is one line */
  g_string_append_len (out, (const char *) bytes->data, bytes->len);
  g_string_append (out, eol);
}

/* ---- validation (validate --target sims) ------------------------------ */

/* KFD: NumberOfKeys ≤ Frames, SequenceLength = Frames or 2 × Frames,
 * poses from 0 to Frames − 1 */
static void
validate_kfd (const SqClip *clip,
              GArray       *frames,
              GPtrArray    *findings)
{
  gint64 n_frames = sq_props_get_int (clip->extra, "frames", frames->len > 0
                                      ? g_array_index (frames, gint64, frames->len - 1) + 1 : 0);
  gint64 seq = sq_props_get_int (clip->extra, "sequence-length", n_frames);

  if ((gint64) frames->len > n_frames)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, SQ_CHANNEL_ROTATION, -1,
         _("%u poses but Frames is %" PRId64 ": NumberOfKeys must not exceed Frames"), frames->len, n_frames);
  if (seq != n_frames && seq != 2 * n_frames)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, SQ_CHANNEL_ROTATION, -1,
         _("SequenceLength %" PRId64 " is neither Frames (%" PRId64 ") nor twice Frames (a bounce)"),
         seq, n_frames);
  if (frames->len > 0 && g_array_index (frames, gint64, 0) != 0)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, SQ_CHANNEL_ROTATION, -1,
         _("the first pose is at Time %" PRId64 ", not 0"), g_array_index (frames, gint64, 0));
  if (frames->len > 0 && g_array_index (frames, gint64, frames->len - 1) != n_frames - 1)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, SQ_CHANNEL_ROTATION, -1,
         _("the last pose is at Time %" PRId64 ", not Frames − 1 = %" PRId64),
         g_array_index (frames, gint64, frames->len - 1), n_frames - 1);
}

/* PSL: a name and a Time per pose, subsets of a name and a 32-character mask */
static void
validate_psl (const SqClip *clip,
              GArray       *frames,
              GPtrArray    *findings)
{
  GVariant *names = sq_props_get (clip->extra, "pose-names");
  GVariant *subsets = sq_props_get (clip->extra, "subsets");

  if (names != NULL && g_variant_n_children (names) != frames->len)
    _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, SQ_CHANNEL_ROTATION, -1,
         _("%zu pose names for %u poses: the writer names the others “Pose n” or drops the extra names"),
         g_variant_n_children (names), frames->len);
  for (gsize i = 0; i < frames->len; i++)
    if (g_array_index (frames, gint64, i) != (gint64) i)
      {
        _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, SQ_CHANNEL_ROTATION, -1,
             _("the poses are not at consecutive frames (pose %zu is at frame %" PRId64 ")"),
             i + 1, g_array_index (frames, gint64, i));
        break;
      }
  for (gsize i = 0; subsets != NULL && g_variant_is_of_type (subsets, G_VARIANT_TYPE ("a(ss)"))
       && i < g_variant_n_children (subsets); i++)
    {
      const char *name, *mask;
      gboolean ok;

      g_variant_get_child (subsets, i, "(&s&s)", &name, &mask);
      ok = strlen (mask) == SQ_SIMS_MASK_LEN && strspn (mask, "01") == SQ_SIMS_MASK_LEN;
      if (!ok)
        _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, SQ_CHANNEL_ROTATION, -1,
             _("subset “%s”: the mask “%s” is not %d characters 0 or 1"), name, mask, SQ_SIMS_MASK_LEN);
    }
}

/* SPS: ids unique, parents and siblings among them, Actions' animations named */
static void
validate_sps (const SqClip *clip,
              GPtrArray    *findings)
{
  GVariant *trees = sq_props_get (clip->extra, "trees");

  for (gsize t = 0; trees != NULL && g_variant_is_of_type (trees, G_VARIANT_TYPE ("aa(xxxxxxas)"))
       && t < g_variant_n_children (trees); t++)
    {
      g_autoptr(GVariant) tree = g_variant_get_child_value (trees, t);
      g_autoptr(GHashTable) ids = g_hash_table_new (g_int64_hash, g_int64_equal);
      gsize n = g_variant_n_children (tree);
      g_autofree gint64 *v = g_new0 (gint64, MAX (n, 1) * 7);

      for (gsize k = 0; k < n; k++)
        {
          g_autoptr(GVariant) anims = NULL;
          gint64 *x = &v[k * 7];

          g_variant_get_child (tree, k, "(xxxxxx@as)", &x[0], &x[1], &x[2], &x[3], &x[4], &x[5], &anims);
          x[6] = (gint64) g_variant_n_children (anims);
          if (x[3] < 1 || g_hash_table_contains (ids, &x[3]))
            _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, SQ_CHANNEL_ROTATION, -1,
                 _("tree %zu, node %zu: the id %" PRId64 " is not a new id of 1 or more"), t + 1, k + 1, x[3]);
          else
            g_hash_table_add (ids, &x[3]);
          if (x[0] < -1 || x[0] > 5)
            _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, SQ_CHANNEL_ROTATION, -1,
                 _("tree %zu, node %zu: unknown node type %" PRId64), t + 1, k + 1, x[0]);
          if (x[0] == 4 && (x[4] >= 0) + (x[5] >= 0) > x[6])
            _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, SQ_CHANNEL_ROTATION, -1,
                 _("tree %zu, Action node %" PRId64 ": M %" PRId64 " and N %" PRId64
                   " use %d animations but the node names %" PRId64),
                 t + 1, x[3], x[4], x[5], (x[4] >= 0) + (x[5] >= 0), x[6]);
        }
      for (gsize k = 0; k < n; k++)
        {
          gint64 *x = &v[k * 7];

          if (x[1] != 0 && !g_hash_table_contains (ids, &x[1]))
            _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, SQ_CHANNEL_ROTATION, -1,
                 _("tree %zu, node %" PRId64 ": its parent %" PRId64 " is no node of the tree"),
                 t + 1, x[3], x[1]);
          if (x[2] != 0 && !g_hash_table_contains (ids, &x[2]))
            _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, SQ_CHANNEL_ROTATION, -1,
                 _("tree %zu, node %" PRId64 ": its sibling %" PRId64 " is no node of the tree"),
                 t + 1, x[3], x[2]);
        }
    }
}

/* Bones, translations, unit quaternions, a rotation per bone and pose */
static void
validate_bones (const SqClip *clip,
                GArray       *frames,
                gboolean      poses,
                GPtrArray    *findings)
{
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqJoint *joint = &clip->joints[j];
      const SqTrack *rot = &joint->tracks[SQ_CHANNEL_ROTATION];
      int b = sq_sims_bone_index (joint->name);

      if (b < 0)
        {
          _sq_add_finding (findings, SQ_SEVERITY_ERROR, (gssize) j, SQ_CHANNEL_ROTATION, -1,
               _("joint “%s” is not one of the 29 bones of the Sims skeleton"), joint->name);
          continue;
        }
      if (joint->tracks[SQ_CHANNEL_TRANSLATION].n_keys > 0 && b > 1)
        _sq_add_finding (findings, SQ_SEVERITY_ERROR, (gssize) j, SQ_CHANNEL_TRANSLATION, 0,
             _("joint “%s” has translations: only ROOT and PELVIS translate"), joint->name);
      if (joint->tracks[SQ_CHANNEL_SCALE].n_keys > 0)
        _sq_add_finding (findings, SQ_SEVERITY_WARNING, (gssize) j, SQ_CHANNEL_SCALE, 0,
             _("joint “%s” has scale keys: the Sims formats have none"), joint->name);
      for (gsize k = 0; k < rot->n_keys; k++)
        {
          SqKey key = sq_track_key (rot, k);
          double n = sqrt (key.v[0] * key.v[0] + key.v[1] * key.v[1] + key.v[2] * key.v[2] + key.v[3] * key.v[3]);

          /* the CFP coding is lossy: the game's own skills are unit within 0.2 % */
          if (!(fabs (n - 1) <= 5e-3))
            {
              _sq_add_finding (findings, SQ_SEVERITY_ERROR, (gssize) j, SQ_CHANNEL_ROTATION, (gssize) k,
                   _("joint “%s” rotation key %zu is not a unit quaternion (length %g)"), joint->name, k + 1, n);
              break;
            }
        }
      /* a pose holds all 29 rotations: each bone a key at every pose */
      if (poses && rot->n_keys != frames->len)
        _sq_add_finding (findings, SQ_SEVERITY_WARNING, (gssize) j, SQ_CHANNEL_ROTATION, -1,
             _("joint “%s” has %zu rotation keys for %u poses: the others are interpolated when written"),
             joint->name, rot->n_keys, frames->len);
    }
  for (int b = 0; poses && b < SQ_SIMS_N_BONES; b++)
    if (sq_clip_find_joint (clip, adult[b].name) < 0)
      _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, SQ_CHANNEL_ROTATION, -1,
           _("bone “%s” is missing: a pose is written with its rest rotation"), adult[b].name);
}

/* A skill: every motion's tracks hold its frames */
static void
validate_skill (const SqClip *clip,
                GPtrArray    *findings)
{
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqJoint *joint = &clip->joints[j];
      gint64 frames = sq_props_get_int (joint->extra, "frames", -1);
      gsize nt = joint->tracks[SQ_CHANNEL_TRANSLATION].n_keys, nr = joint->tracks[SQ_CHANNEL_ROTATION].n_keys;

      if (nt > 0 && nr > 0 && nt != nr)
        _sq_add_finding (findings, SQ_SEVERITY_WARNING, (gssize) j, SQ_CHANNEL_ROTATION, -1,
             _("motion “%s” has %zu translations and %zu rotations: a motion has one frame count"),
             joint->name, nt, nr);
      if (frames >= 0 && ((nt > 0 && (gint64) nt != frames) || (nr > 0 && (gint64) nr != frames)))
        _sq_add_finding (findings, SQ_SEVERITY_INFO, (gssize) j, SQ_CHANNEL_ROTATION, -1,
             _("motion “%s” was %" PRId64 " frames and is written with its keys' count"), joint->name, frames);
    }
}

void
sq_sims_validate (const SqClip *clip,
                  GPtrArray    *findings)
{
  const char *id = clip->format != NULL ? clip->format->id : "";
  g_autoptr(GArray) frames = _sq_sims_key_frames (clip);
  gboolean kfd = g_str_equal (id, "simpose-kfd"), psl = g_str_equal (id, "simpose-psl");

  if (g_str_equal (id, "simpose-sps"))
    {
      validate_sps (clip, findings);
      return;
    }
  /* a clip from elsewhere is checked as the KFD it would become */
  validate_bones (clip, frames, kfd || psl || !g_str_equal (id, "sims-cmx"), findings);
  if (kfd || !(psl || g_str_equal (id, "sims-cmx")))
    validate_kfd (clip, frames, findings);
  else if (psl)
    validate_psl (clip, frames, findings);
  else
    validate_skill (clip, findings);
}

/* ---- across worlds: retargeting through the rest poses ------------------ */

/* formats.md 5.5: the Second Life bone of each Sims bone, NULL for those
 * without one (the others' motion is carried by their parents' on that
 * side); from the shared joint table (sq-joint-map.c), filled once */
static const char *sl_of_bone[SQ_SIMS_N_BONES];

static void
ensure_sl_of_bone (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      for (int b = 0; b < SQ_SIMS_N_BONES; b++)
        sl_of_bone[b] = sq_joint_name_for_scheme (adult[b].name, SQ_JOINT_SCHEME_SL, 0);
      g_once_init_leave (&done, 1);
    }
}

const char *
sq_sims_bone_sl_name (int bone)
{
  ensure_sl_of_bone ();
  return bone >= 0 && bone < SQ_SIMS_N_BONES ? sl_of_bone[bone] : NULL;
}

/* ---- the rest skeleton, for conversions (sq-retarget.h) ------------------ */

/* The bones' world rotations (column-vector quaternions, SL axes) and
 * places (metres, SL axes) at rest: each bone's stored rotation and offset
 * chained from ROOT */
static void
rest_world (SqSimsAge age,
            double    world[SQ_SIMS_N_BONES][4],
            double    pos[SQ_SIMS_N_BONES][3])
{
  const SqSimsBone *bones = sq_sims_skeleton (age);

  for (int b = 0; b < SQ_SIMS_N_BONES; b++)
    {
      double stored[4], q[4], v[3], off[3];
      int p = bones[b].parent;

      _sq_sims_quat_from_file (bones[b].rot, stored);
      sq_space_rotation_to_sl (&sq_space_sims, stored, q);
      sq_space_vector_to_sl (&sq_space_sims, bones[b].pos, v);
      if (p < 0)
        {
          memcpy (world[b], q, sizeof q);
          memcpy (pos[b], v, sizeof v);
          continue;
        }
      sq_quat_multiply (world[p], q, world[b]);
      sq_quat_normalize (world[b]);
      sq_quat_rotate (world[p], v, off);
      for (int i = 0; i < 3; i++)
        pos[b][i] = pos[p][i] + off[i];
    }
}

/* A child's clip has the child skeleton's offsets (a new child clip);
 * every other clip stands on the adult's */
static SqSimsAge
clip_age (const SqClip *clip)
{
  const SqSimsBone *child_bones = sq_sims_skeleton (SQ_SIMS_CHILD);
  gssize j = sq_clip_find_joint (clip, "L_LEG1");
  GVariant *v = j >= 0 ? sq_props_get (clip->joints[j].extra, "offset") : NULL;
  double o[3];

  if (v == NULL || !g_variant_is_of_type (v, G_VARIANT_TYPE ("(ddd)")))
    return SQ_SIMS_ADULT;
  g_variant_get (v, "(ddd)", &o[0], &o[1], &o[2]);
  return fabs (o[0] - child_bones[3].pos[0]) < 1e-4 ? SQ_SIMS_CHILD : SQ_SIMS_ADULT;
}

/* The nearest bone above bone b that `have` marks, -1 for none */
static int
present_above (const SqSimsBone *bones,
               const gssize      have[SQ_SIMS_N_BONES],
               int               b)
{
  for (int p = bones[b].parent; p >= 0; p = bones[p].parent)
    if (have[p] >= 0)
      return p;
  return -1;
}

/* metres from the soles (the lowest bone at rest) up to PELVIS */
static double
rest_hip_height (const double pos[SQ_SIMS_N_BONES][3])
{
  double low = pos[1][2];

  for (int b = 0; b < SQ_SIMS_N_BONES; b++)
    low = MIN (low, pos[b][2]);
  return pos[1][2] - low;
}

/* Where each bone's limb points (formats.md 5.5): at the bone beside its
 * concept's first tip (sq_joint_concept_tips: the hand at its finger, the
 * foot at its toes), on the whole skeleton, whether a clip has that bone
 * or not; it matches the limb of Second Life's bone across the rests */
static const struct
{
  const char *bone, *tip;
} limb_tips[] = {
  { "PELVIS", "SPINE" }, { "SPINE", "SPINE2" }, { "SPINE2", "NECK" }, { "NECK", "HEAD" },
  { "L_LEG", "L_LEG1" }, { "L_LEG1", "L_FOOT" }, { "L_FOOT", "L_TOE0" }, { "L_TOE0", "L_TOE01" },
  { "R_LEG", "R_LEG1" }, { "R_LEG1", "R_FOOT" }, { "R_FOOT", "R_TOE0" }, { "R_TOE0", "R_TOE01" },
  { "L_ARM", "L_ARM1" }, { "L_ARM1", "L_ARM2" }, { "L_ARM2", "L_HAND" }, { "L_HAND", "L_FINGER0" },
  { "R_ARM", "R_ARM1" }, { "R_ARM1", "R_ARM2" }, { "R_ARM2", "R_HAND" }, { "R_HAND", "R_FINGER0" },
};

static void
rest_limb (int          b,
           double       pos[SQ_SIMS_N_BONES][3],
           double       out[3])
{
  const SqSimsBone *bones = sq_sims_skeleton (SQ_SIMS_ADULT);
  int tip = -1;

  for (gsize i = 0; i < G_N_ELEMENTS (limb_tips) && tip < 0; i++)
    if (g_str_equal (limb_tips[i].bone, bones[b].name))
      tip = sq_sims_bone_index (limb_tips[i].tip);
  for (int i = 0; i < 3; i++)
    out[i] = tip >= 0 ? pos[tip][i] - pos[b][i] : 0;
}

/* The skeleton of the clip's age by the bones' names, each joint under
 * the nearest bone above it the clip has; a key is a whole rotation and
 * a translation a whole offset */
static gssize
sims_rest_skeleton (const SqClip   *clip,
                    const SqFormat *format,
                    SqRest         *rest)
{
  SqSimsAge age = clip_age (clip);
  const SqSimsBone *bones = sq_sims_skeleton (age);
  double world[SQ_SIMS_N_BONES][4], pos[SQ_SIMS_N_BONES][3];
  gssize have[SQ_SIMS_N_BONES], root = -1;

  (void) format;
  rest_world (age, world, pos);
  _sq_sims_bone_joints (clip, have);
  for (int b = 0; b < SQ_SIMS_N_BONES; b++)
    {
      gssize j = have[b];
      int p = present_above (bones, have, b);
      double inv[4] = { 1, 0, 0, 0 }, d[3];

      if (j < 0)
        continue;
      if (p >= 0)
        sq_quat_conjugate (world[p], inv);
      for (int i = 0; i < 3; i++)
        d[i] = pos[b][i] - (p >= 0 ? pos[p][i] : 0);
      sq_quat_rotate (inv, d, rest->offset[j]);
      sq_quat_multiply (inv, world[b], rest->rotation[j]);
      sq_quat_normalize (rest->rotation[j]);
      rest_limb (b, pos, rest->limb[j]);
      rest->parent[j] = p >= 0 ? (gint32) have[p] : -1;
      if (p < 0 && root < 0)
        root = j;
    }
  /* a joint that is no bone hangs from nothing, at no place */
  for (gsize j = 0; j < clip->n_joints; j++)
    if (sq_sims_bone_index (clip->joints[j].name) < 0)
      rest->parent[j] = -1;
  rest->absolute = TRUE;
  rest->hip_height = rest_hip_height (pos);
  return root;
}

/* ---- across worlds ----------------------------------------------------------- */

static gboolean
sims_check_convert (const SqClip   *clip,
                    const SqFormat *target,
                    GError        **error)
{
  (void) target;
  if (clip->n_joints > 0)
    return TRUE;
  g_set_error (error, SQ_ERROR, SQ_ERROR_CANNOT_WRITE,
               _("a SimPose-ium sequence has no animation to convert: convert its KFD or CMX files"));
  return FALSE;
}

/* Bone b's rotation (the clip's, SL axes) at `time` under the nearest
 * bone above it the clip has, as a rotation under its own parent: the
 * bones between stay at rest (`world`: the rest's world rotations) */
static void
bone_local (const SqClip     *out,
            const SqSimsBone *bones,
            const gssize      have[SQ_SIMS_N_BONES],
            double            world[SQ_SIMS_N_BONES][4],
            int               b,
            double            time,
            double            local[4])
{
  const SqTrack *track = have[b] >= 0 ? &out->joints[have[b]].tracks[SQ_CHANNEL_ROTATION] : NULL;
  int a = present_above (bones, have, b), p = bones[b].parent;
  double v[4], q[4], between[4], inv[4] = { 1, 0, 0, 0 };

  if (track == NULL || track->n_keys == 0)
    {
      _sq_sims_quat_from_file (bones[b].rot, v);
      sq_space_rotation_to_sl (&sq_space_sims, v, local);
      return;
    }
  sq_track_sample (track, SQ_CHANNEL_ROTATION, time, v);
  sq_space_rotation_to_sl (&sq_space_sims, v, q);
  if (p < 0)
    {
      memcpy (local, q, sizeof q);
      return;
    }
  /* the rest turn from the joint above (or the world) to b's parent */
  if (a >= 0)
    sq_quat_conjugate (world[a], inv);
  sq_quat_multiply (inv, world[p], between);
  sq_quat_conjugate (between, inv);
  sq_quat_multiply (inv, q, local);
  sq_quat_normalize (local);
}

/* PELVIS's place at `time` in ROOT's frame at rest, as stored: the
 * clip's (in the world) or its rest */
static void
pelvis_place (const SqClip     *out,
              const SqSimsBone *bones,
              gssize            pelvis,
              double            world[SQ_SIMS_N_BONES][4],
              double            pos[SQ_SIMS_N_BONES][3],
              double            time,
              double            v[3])
{
  const SqTrack *track = pelvis >= 0 ? &out->joints[pelvis].tracks[SQ_CHANNEL_TRANSLATION] : NULL;
  double w[4], sl[3], d[3], inv[4];

  if (track == NULL || track->n_keys == 0)
    {
      memcpy (v, bones[1].pos, 3 * sizeof (double));
      return;
    }
  sq_track_sample (track, SQ_CHANNEL_TRANSLATION, time, w);
  sq_space_vector_to_sl (&sq_space_sims, w, sl);
  for (int i = 0; i < 3; i++)
    d[i] = sl[i] - pos[0][i];
  sq_quat_conjugate (world[0], inv);
  sq_quat_rotate (inv, d, sl);
  sq_space_vector_from_sl (&sq_space_sims, sl, v);
}

/* Says what of `out` the bones cannot hold: joints that are no bone,
 * moves of any bone but PELVIS */
static void
report_left_out (const SqClip *out,
                 GPtrArray    *losses)
{
  for (gsize j = 0; j < out->n_joints; j++)
    {
      int b = sq_sims_bone_index (out->joints[j].name);

      if (b < 0)
        _sq_loss (losses, _("joint “%s” has no place on the Sims skeleton"), out->joints[j].name);
      else if (b != 1 && out->joints[j].tracks[SQ_CHANNEL_TRANSLATION].n_keys > 0)
        _sq_loss (losses, _("the position keys of “%s” are left out: of the Sims' bones only PELVIS moves"),
                  out->joints[j].name);
    }
}

/* The 29 bones of the adult skeleton, a key on every frame: the bones
 * `out` has turn as it turns them, the others stay at rest; ROOT stays at
 * rest and PELVIS moves as `out` moves it */
static SqClip *
sims_complete_clip (const SqClip   *out,
                    const SqFormat *target,
                    GPtrArray      *losses,
                    GError        **error)
{
  const SqSimsBone *bones = sq_sims_skeleton (SQ_SIMS_ADULT);
  double world[SQ_SIMS_N_BONES][4], pos[SQ_SIMS_N_BONES][3], d = out->duration;
  gssize have[SQ_SIMS_N_BONES];
  gint64 last;
  SqClip *clip;

  if (target == &_sq_format_simpose_sps)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_CANNOT_WRITE,
                   _("a SimPose-ium sequence holds no animation: convert to a KFD, a PSL or a CMX skill"));
      return NULL;
    }
  for (gsize j = 0; j < out->n_joints; j++)
    for (int c = 0; c < SQ_N_CHANNELS; c++)
      if (out->joints[j].tracks[c].n_keys > 0)
        d = MAX (d, sq_track_time (&out->joints[j].tracks[c], out->joints[j].tracks[c].n_keys - 1));
  last = isfinite (d) && d >= 0 ? (gint64) MIN (floor (d * SQ_SIMS_FPS + 0.5), 1e9) : 0;
  if (last >= SQ_SIMS_MAX_CONVERT_FRAMES)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_LIMIT_EXCEEDED,
                   _("the animation runs %" PRId64 " frames: a conversion retargets at most %d (an hour)"),
                   last + 1, SQ_SIMS_MAX_CONVERT_FRAMES);
      return NULL;
    }
  report_left_out (out, losses);
  rest_world (SQ_SIMS_ADULT, world, pos);
  _sq_sims_bone_joints (out, have);
  clip = _sq_sims_clip_new (target, SQ_SIMS_ADULT);
  /* the source's fields stay for the writer to report as lost, but for
   * those whose keys the target writes as its own (a BVH's "frames") */
  for (gsize i = 0; i < sq_props_size (out->extra); i++)
    {
      const char *key = sq_props_key_at (out->extra, i);

      if (target->fields == NULL || !g_strv_contains ((const char * const *) target->fields, key))
        sq_props_set (clip->extra, key, sq_props_value_at (out->extra, i));
    }
  clip->duration = last / SQ_SIMS_FPS;
  for (gint64 f = 0; f <= last; f++)
    {
      double t = f / SQ_SIMS_FPS;

      for (int b = 0; b < SQ_SIMS_N_BONES; b++)
        {
          double local[4], *v = sq_track_append (&clip->joints[b].tracks[SQ_CHANNEL_ROTATION], t)->v;

          bone_local (out, bones, have, world, b, t, local);
          sq_space_rotation_from_sl (&sq_space_sims, local, v);
          /* the sign that keeps w ≥ 0 is the same rotation, read more easily */
          if (v[0] < 0)
            for (int i = 0; i < 4; i++)
              v[i] = -v[i];
        }
      memcpy (sq_track_append (&clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION], t)->v, bones[0].pos,
              sizeof bones[0].pos);
      pelvis_place (out, bones, have[1], world, pos, t,
                    sq_track_append (&clip->joints[1].tracks[SQ_CHANNEL_TRANSLATION], t)->v);
    }
  return clip;
}

/* ---- mirroring (formats.md 5.1) --------------------------------------------- */

/* L_ARM/R_ARM */
static const SqMirrorPair sims_pairs[] = {
  { SQ_MIRROR_PREFIX, "L_", "R_" },
  { 0, NULL, NULL },
};

/* The sideways axis of each frame, as the rest skeletons show it (a left
 * bone's rest rotation and offset reflected are its right partner's): X in
 * the world's (DirectX) axes, where ROOT's keys are; Z in ROOT's frame,
 * where PELVIS's keys are; Y in PELVIS's and every bone's below it (their
 * X runs along the bone) */
static void
sims_frame_axes (const SqClip *clip,
                 gsize         joint,
                 int          *parent_axis,
                 int          *own_axis)
{
  int bone = sq_sims_bone_index (clip->joints[joint].name);

  *parent_axis = bone == 0 ? 0 : bone == 1 ? 2 : 1;
  *own_axis = bone == 0 ? 2 : 1;
}

static const SqMirror sims_mirror = {
  .pairs = sims_pairs,
  .lateral = 0,
  .frame_axes = sims_frame_axes,
  .conjugate = TRUE,
};

static const SqMirror *
sims_mirror_of (const SqClip *clip)
{
  (void) clip;
  return &sims_mirror;
}

/* the world's own edits by name (sq-sims-edit-table.c), ended by a NULL id */
extern const SqWorldEdit sq_sims_edits[];

/* ---- new animations ---------------------------------------------------------- */

static const SqWorldNewClip sims_new_clips[] = {
  { "sims", N_("The Sims (adult)") },
  { "sims-child", N_("The Sims (child)") },
  { NULL, NULL },
};

/* a skill of the 29 bones at their stored rest (ROOT and PELVIS with
 * their positions), on the 30 frames a second grid */
static SqClip *
sims_new_clip (const char      *variant,
               double           duration,
               double           fps G_GNUC_UNUSED,
               const SqFormat **through)
{
  SqSimsAge age = g_str_equal (variant, "sims-child") ? SQ_SIMS_CHILD : SQ_SIMS_ADULT;
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
          if (i <= 1)
            memcpy (sq_track_append (&joint->tracks[SQ_CHANNEL_TRANSLATION], times[k])->v,
                    bones[i].pos, sizeof bones[i].pos);
        }
    }
  *through = NULL;
  return clip;
}


const SqWorldHome sq_world_sims = {
  .id = "sims",
  .name = N_("The Sims"),
  .validate = sq_sims_validate,

  /* ---- skeleton (sq-retarget.h): the bones' rest rotations are not the
   * identity; a clip of the world has its 29 bones ---- */
  .rest_skeleton = sims_rest_skeleton,
  .check_convert = sims_check_convert,
  .complete_clip = sims_complete_clip,
  .fixed_skeleton = TRUE,
  .edits = sq_sims_edits,
  .mirror = sims_mirror_of,
  .new_clips = sims_new_clips,
  .new_clip = sims_new_clip,
};
