/* sq-format-sl-anim.c: Second Life internal animation (.anim, OpenSim .dat)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout (formats.md 1.2, SLV LLKeyframeMotion::serialize/deserialize), all
 * numbers little-endian, strings NUL-terminated without a length:
 *   u16 version, u16 sub-version, s32 base priority, f32 duration,
 *   emote name, f32 loop in, f32 loop out, s32 loop, f32 ease in,
 *   f32 ease out, u32 hand pose, u32 joint count;
 *   per joint: name, s32 priority, s32 rotation key count, keys of
 *   { u16 time, u16 x, u16 y, u16 z }, s32 position key count, keys alike;
 *   s32 constraint count, 86-byte constraint records.
 * Version 1.0 quantises times to [0, duration] and values to [-1, 1]
 * (rotation x, y, z; w is implied ≥ 0) or [-5, 5] m (positions). The old 0.1
 * variant holds f32 seconds, Euler angles in degrees (mayaQ, ZYX order) and
 * f32 metres.
 *
 * Exactness: the viewer's decode → encode is not stable (formats.md 1.4): its
 * zero snap decodes codes 32767 and 32768 both to 0, and a duration of 0 sends
 * every time code to 0. A decoded key is written back with the codes that
 * decode to exactly it (key_exact_codes); a track with a key whose file codes
 * differ from those keeps the raw codes of its keys in SqTrack.alt as
 * {time, x, y, z}, written back while they still decode to exactly the key.
 * Only keys an edit changed are quantised again (to the nearest code). Other
 * tracks keep no codes: a key costs the model 40 bytes, not 72.
 * Volume name fields keep their 16 raw bytes, names that are not UTF-8 keep
 * their raw bytes.
 */
#define G_LOG_DOMAIN "sq-sl-anim"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "sq-fields.h"
#include "sq-math.h"
#include "sq-parallel.h"
#include "sq-private.h"

#define SL_U16MAX        65535.0
#define SL_ROT_RANGE     1.0
#define SL_POS_RANGE     SQ_SL_POS_RANGE
#define SL_KEY_SIZE      8u
#define SL_OLD_KEY_SIZE  16u
#define SL_CONSTRAINT_SIZE 86u
#define SL_VOLUME_SIZE   16u
#define SL_MAX_CONSTRAINTS SQ_SL_MAX_CONSTRAINTS

/* Each constraint: chain length, type, source volume (16 raw bytes), source
 * offset, target volume (16 raw bytes), target offset, target direction,
 * ease in start/stop, ease out start/stop. */
#define SL_CONSTRAINT_TYPE SQ_SL_CONSTRAINT_VARIANT_TYPE
#define SL_CONSTRAINTS_TYPE "a" SL_CONSTRAINT_TYPE

/* Defaults for a clip from another format (LLBVHLoader::reset): sq-fields.h
 * holds them, for the properties panel and the edits too */
#define SL_DEFAULT_PRIORITY SQ_SL_DEFAULT_PRIORITY
#define SL_DEFAULT_EASE     SQ_SL_DEFAULT_EASE
#define SL_DEFAULT_HAND     SQ_SL_DEFAULT_HAND_POSE

/* ---- primitives ---------------------------------------------------------- */

static inline guint16
le16 (const guint8 *p)
{
  return (guint16) (p[0] | ((guint) p[1] << 8));
}

static inline guint32
le32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
}

static inline double
le_float (const guint8 *p)
{
  return sq_float_bits_to_double (le32 (p));
}

static gboolean
rd_u16 (SqReader *r, guint16 *out, const char *what, GError **error)
{
  if (!sq_reader_need (r, 2, what, error))
    return FALSE;
  *out = le16 (r->data + r->pos);
  r->pos += 2;
  return TRUE;
}

static gboolean
rd_u32 (SqReader *r, guint32 *out, const char *what, GError **error)
{
  if (!sq_reader_need (r, 4, what, error))
    return FALSE;
  *out = le32 (r->data + r->pos);
  r->pos += 4;
  return TRUE;
}

static gboolean
rd_f32 (SqReader *r, double *out, const char *what, GError **error)
{
  if (!sq_reader_need (r, 4, what, error))
    return FALSE;
  *out = le_float (r->data + r->pos);
  r->pos += 4;
  return TRUE;
}

static void
put_le16 (GByteArray *out, guint v)
{
  guint8 b[2] = { v & 0xff, (v >> 8) & 0xff };
  g_byte_array_append (out, b, 2);
}

static void
put_le32 (GByteArray *out, guint32 v)
{
  guint8 b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24 };
  g_byte_array_append (out, b, 4);
}

static void
put_f32 (GByteArray *out, double v)
{
  put_le32 (out, sq_double_to_float_bits (v));
}

/* A C string: UTF-8 as it is; anything else is read as Latin-1 and its raw
 * bytes are kept in *raw. */
static gboolean
rd_cstring (SqReader   *r,
            const char *what,
            char      **str,
            GVariant  **raw,
            GError    **error)
{
  const guint8 *p = r->data + r->pos;
  const guint8 *nul = memchr (p, 0, sq_reader_left (r));
  gsize n;

  *raw = NULL;
  if (nul == NULL)
    {
      sq_set_error_at_offset (error, SQ_ERROR_TRUNCATED, r->pos,
                              _("file ends inside %s (no terminating NUL in the %zu bytes left)"),
                              g_dgettext (GETTEXT_PACKAGE, what), sq_reader_left (r));
      return FALSE;
    }
  n = (gsize) (nul - p);
  if (g_utf8_validate ((const char *) p, n, NULL))
    *str = g_strndup ((const char *) p, n);
  else
    {
      *str = _sq_latin1_to_utf8 (p, n);
      *raw = g_variant_ref_sink (g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, p, n, 1));
    }
  r->pos += n + 1;
  return TRUE;
}

/* Writes `str` as a C string: the raw bytes when they still read as `str`. */
static void
put_cstring (GByteArray *out,
             const char *str,
             GVariant   *raw)
{
  if (raw != NULL && g_variant_is_of_type (raw, G_VARIANT_TYPE_BYTESTRING))
    {
      gsize n;
      const guint8 *p = g_variant_get_fixed_array (raw, &n, 1);
      g_autofree char *decoded = NULL;

      if (memchr (p, 0, n) == NULL)
        {
          decoded = _sq_latin1_to_utf8 (p, n);
          if (g_strcmp0 (decoded, str) == 0)
            {
              g_byte_array_append (out, p, n);
              g_byte_array_append (out, (const guint8 *) "", 1);
              return;
            }
        }
    }
  g_byte_array_append (out, (const guint8 *) str, strlen (str) + 1);
}

/* ---- quantisation (formats.md 1.3) --------------------------------------- */

/* The viewer's U16_to_F32 in double precision, with its zero snap. */
static inline double
code_to_value (guint code, double range)
{
  double v = (double) code * (2.0 * range) / SL_U16MAX - range;

  if (fabs (v) < (2.0 * range) / SL_U16MAX)
    v = 0.0;
  return v;
}

static inline double
code_to_time (guint code, double duration)
{
  return (double) code * duration / SL_U16MAX;
}

/* The code that decodes nearest to v (the lower one on a tie: 0 → 32767 as
 * the viewer writes it). v must be finite and within the range. */
static guint
value_to_code (double v, double range)
{
  double c = floor ((v + range) / (2.0 * range) * SL_U16MAX);
  guint best = 0;
  double best_d = INFINITY;

  for (int d = -1; d <= 2; d++)
    {
      double cc = c + d;
      double dist;

      if (cc < 0 || cc > SL_U16MAX)
        continue;
      dist = fabs (code_to_value ((guint) cc, range) - v);
      if (dist < best_d)
        {
          best_d = dist;
          best = (guint) cc;
        }
    }
  return best;
}

static guint
time_to_code (double t, double duration)
{
  double c;
  guint best = 0;
  double best_d = INFINITY;

  if (!(duration > 0))
    return 0;
  c = floor (t / duration * SL_U16MAX);
  for (int d = -1; d <= 2; d++)
    {
      double cc = c + d, dist;

      if (cc < 0 || cc > SL_U16MAX)
        continue;
      dist = fabs (code_to_time ((guint) cc, duration) - t);
      if (dist < best_d)
        {
          best_d = dist;
          best = (guint) cc;
        }
    }
  return best;
}

/* LLQuaternion::unpackFromVector3: w from the other three, no renormalising. */
static void
rotation_from_codes (guint x, guint y, guint z, double q[4])
{
  double t;

  q[1] = code_to_value (x, SL_ROT_RANGE);
  q[2] = code_to_value (y, SL_ROT_RANGE);
  q[3] = code_to_value (z, SL_ROT_RANGE);
  t = 1.0 - (q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  q[0] = t > 0 ? sqrt (t) : 0.0;
}

/* The inverse of code_to_value for the values it gives: the code of v when
 * v is one of them (0 gives 32767, as the viewer writes it), else any code
 * or SL_NO_CODE; the caller checks by decoding. */
#define SL_NO_CODE 0x10000u

static inline guint
exact_value_code (double v, double half_scale, double range)
{
  double c;

  if (v == 0)
    return 32767;
  /* rounded by truncation of c + 0.5 (c is not negative there): rint is a
   * library call on the baseline x86-64 */
  c = (v + range) * half_scale;
  return c > -0.5 && c < SL_U16MAX + 0.5 ? (guint) (c + 0.5) : SL_NO_CODE;
}

static inline guint
exact_time_code (double t, double time_scale)
{
  double c = t * time_scale;

  return c > -0.5 && c < SL_U16MAX + 0.5 ? (guint) (c + 0.5) : SL_NO_CODE;
}

/* Scale factors of the inverses for a clip of `duration` seconds */
typedef struct
{
  double time;                /* codes per second, 0 when the duration is not above 0 */
  double rot;                 /* codes per unit of rotation value */
  double pos;                 /* codes per metre */
} CodeScale;

static void
code_scale_init (CodeScale *cs, double duration)
{
  cs->time = duration > 0 ? SL_U16MAX / duration : 0.0;
  cs->rot = SL_U16MAX / (2.0 * SL_ROT_RANGE);
  cs->pos = SL_U16MAX / (2.0 * SL_POS_RANGE);
}

/* Do these codes of version 1.0 decode to exactly the key? */
static gboolean
codes_decode_to (const guint  codes[4],
                 const SqKey *key,
                 SqChannel    channel,
                 double       duration)
{
  double v[4];

  if (code_to_time (codes[0], duration) != key->time)
    return FALSE;
  if (channel == SQ_CHANNEL_ROTATION)
    rotation_from_codes (codes[1], codes[2], codes[3], v);
  else
    {
      for (int c = 0; c < 3; c++)
        v[c] = code_to_value (codes[c + 1], SL_POS_RANGE);
      v[3] = key->v[3];
    }
  return memcmp (v, key->v, sizeof v) == 0;
}

/* The codes a key of version 1.0 writes back as when no codes are kept:
 * those that decode to exactly the key, if there are any. */
static gboolean
key_exact_codes (const SqKey     *key,
                 SqChannel        channel,
                 const CodeScale *cs,
                 double           duration,
                 guint            codes[4])
{
  codes[0] = exact_time_code (key->time, cs->time);
  if (channel == SQ_CHANNEL_ROTATION)
    for (int c = 1; c < 4; c++)
      codes[c] = exact_value_code (key->v[c], cs->rot, SL_ROT_RANGE);
  else
    for (int c = 1; c < 4; c++)
      codes[c] = exact_value_code (key->v[c - 1], cs->pos, SL_POS_RANGE);
  if ((codes[0] | codes[1] | codes[2] | codes[3]) >= SL_NO_CODE)
    return FALSE;
  return codes_decode_to (codes, key, channel, duration);
}

/* ---- the old 0.1 variant: Euler degrees, mayaQ(x, y, z, ZYX) --------------- */

/* LL's zQ * yQ * xQ is, in Hamilton order, qx ⊗ qy ⊗ qz. */
static void
euler_zyx_to_quat (const double deg[3], double q[4])
{
  double qa[3][4] = { { 0 } };

  for (int i = 0; i < 3; i++)
    {
      double h = deg[i] * G_PI / 360.0;
      qa[i][0] = cos (h);
      qa[i][1 + i] = sin (h);
    }
  sq_quat_multiply (qa[0], qa[1], q);
  sq_quat_multiply (q, qa[2], q);
}

static void
quat_to_euler_zyx (const double q_in[4], double deg[3])
{
  double q[4];
  double w, x, y, z, r02, r12, r22, r01, r00;

  memcpy (q, q_in, sizeof q);
  sq_quat_normalize (q);
  w = q[0], x = q[1], y = q[2], z = q[3];
  r00 = 1 - 2 * (y * y + z * z);
  r01 = 2 * (x * y - w * z);
  r02 = 2 * (x * z + w * y);
  r12 = 2 * (y * z - w * x);
  r22 = 1 - 2 * (x * x + y * y);
  deg[1] = asin (CLAMP (r02, -1.0, 1.0)) * 180.0 / G_PI;
  deg[0] = atan2 (-r12, r22) * 180.0 / G_PI;
  deg[2] = atan2 (-r01, r00) * 180.0 / G_PI;
}

/* ---- reading ------------------------------------------------------------- */

static int
sl_probe (const guint8 *data,
          gsize         len)
{
  guint16 version, sub;
  gint32 priority;
  double duration;
  const guint8 *nul;

  if (len < 12)
    return 0;
  version = le16 (data);
  sub = le16 (data + 2);
  if (!((version == 1 && sub == 0) || (version == 0 && sub == 1)))
    return 0;
  priority = (gint32) le32 (data + 4);
  duration = le_float (data + 8);
  if (priority < -1 || priority > 127 || !(duration >= 0 && duration <= 3600))
    return 10;
  nul = memchr (data + 12, 0, len - 12);
  return nul != NULL ? 80 : 40;
}

typedef struct
{
  double time;
  gsize  index;
} KeyOrder;

static int
key_order_compare (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data G_GNUC_UNUSED)
{
  const KeyOrder *ka = a, *kb = b;

  if (ka->time != kb->time)
    return ka->time < kb->time ? -1 : 1;
  return ka->index < kb->index ? -1 : ka->index > kb->index;
}

/* Keys in time order with distinct times. The viewer keeps keys in a map by
 * time: keys are sorted, and of keys at the same time the last one read wins.
 * That is done here too, with a warning (the file no longer saves back byte
 * for byte). */
static void
finish_track (SqClip     *clip,
              SqTrack    *track,
              const char *joint,
              const char *what)
{
  gboolean ordered = TRUE;
  g_autofree KeyOrder *order = NULL;
  g_autofree SqKey *keys = NULL;
  g_autofree double *alt = NULL;
  gsize n = 0, dropped = 0;

  for (gsize i = 1; i < track->n_keys; i++)
    if (!(track->keys[i].time > track->keys[i - 1].time))
      ordered = FALSE;
  if (ordered)
    return;

  order = g_new (KeyOrder, track->n_keys);
  for (gsize i = 0; i < track->n_keys; i++)
    {
      order[i].time = track->keys[i].time;
      order[i].index = i;
    }
  g_qsort_with_data (order, (gint) track->n_keys, sizeof (KeyOrder), key_order_compare, NULL);
  keys = g_new (SqKey, track->n_keys);
  if (track->alt != NULL)
    alt = g_new (double, track->n_keys * 4);
  for (gsize i = 0; i < track->n_keys; i++)
    {
      /* of equal times keep the last read, which sorts last */
      if (i + 1 < track->n_keys && order[i + 1].time == order[i].time)
        {
          dropped++;
          continue;
        }
      keys[n] = track->keys[order[i].index];
      if (alt != NULL)
        memcpy (&alt[n * 4], &track->alt[order[i].index * 4], 4 * sizeof (double));
      n++;
    }
  memcpy (track->keys, keys, n * sizeof (SqKey));
  if (alt != NULL)
    memcpy (track->alt, alt, n * 4 * sizeof (double));
  track->n_keys = n;
  if (dropped > 0)
    sq_clip_add_warning (clip, _("joint “%s”: %zu %s keys share a time with a later key and are dropped, "
                                 "as the viewer does"), joint, dropped, what);
  else
    sq_clip_add_warning (clip, _("joint “%s”: %s keys are not in time order; they are sorted"), joint, what);
}

/* ---- key records of version 1.0: { u16 time, x, y, z } ----------------- */

static inline void
record_to_key (const guint8 *p,
               SqChannel     channel,
               double        duration,
               SqKey        *key)
{
  key->time = code_to_time (le16 (p), duration);
  if (channel == SQ_CHANNEL_ROTATION)
    rotation_from_codes (le16 (p + 2), le16 (p + 4), le16 (p + 6), key->v);
  else
    {
      key->v[0] = code_to_value (le16 (p + 2), SL_POS_RANGE);
      key->v[1] = code_to_value (le16 (p + 4), SL_POS_RANGE);
      key->v[2] = code_to_value (le16 (p + 6), SL_POS_RANGE);
      key->v[3] = 0.0;
    }
}

/* Codes come back from a decoded key by the inverse decoding
 * (key_exact_codes) in all but two cases: 32768, which the zero snap
 * decodes to 0 like 32767, and time codes when the duration is not above 0.
 * Times: a code times a duration read as a float is exact in a double, so
 * distinct codes give distinct times (test-sl-anim checks every code at
 * extreme durations). Only a track with one of those keeps its codes in
 * `alt`. */
static inline gboolean
record_needs_codes (const guint8 *p,
                    gboolean      times_invert)
{
  return le16 (p + 2) == 32768 || le16 (p + 4) == 32768 || le16 (p + 6) == 32768
         || (le16 (p) != 0 && !times_invert);
}

static void
keep_codes (SqTrack      *track,
            const guint8 *records,
            double        duration)
{
  gsize k = 0;

  while (k < track->n_keys && !record_needs_codes (records + k * SL_KEY_SIZE, duration > 0))
    k++;
  if (k == track->n_keys)
    return;
  sq_track_ensure_alt (track);
  for (gsize i = 0; i < track->n_keys; i++)
    for (int c = 0; c < 4; c++)
      track->alt[i * 4 + c] = le16 (records + i * SL_KEY_SIZE + 2 * c);
}

/* A packed track (SqKeyCodec) of such records; its parameter is the
 * duration the times scale by. */
static double
record_time (const SqTrack *track,
             const guint8  *p)
{
  return code_to_time (le16 (p), track->packed_param);
}

static void
rotation_record_key (const SqTrack *track,
                     const guint8  *p,
                     SqKey         *key)
{
  record_to_key (p, SQ_CHANNEL_ROTATION, track->packed_param, key);
}

static void
position_record_key (const SqTrack *track,
                     const guint8  *p,
                     SqKey         *key)
{
  record_to_key (p, SQ_CHANNEL_TRANSLATION, track->packed_param, key);
}

/* unpacked: the codes kept where the keys do not give them back */
static void
records_unpacked (SqTrack       *track,
                  const SqTrack *packed)
{
  keep_codes (track, packed->packed, packed->packed_param);
}

static const SqKeyCodec record_codecs[2] = {
  [SQ_CHANNEL_ROTATION] = { SL_KEY_SIZE, record_time, rotation_record_key, records_unpacked },
  [SQ_CHANNEL_TRANSLATION] = { SL_KEY_SIZE, record_time, position_record_key, records_unpacked },
};

/* One track's keys of version 1.0: the count is already checked against
 * the bytes left. */
typedef struct
{
  gsize         joint;
  SqChannel     channel;
  const guint8 *start;
  guint32       count;
  double        duration;
  SqTrack      *track;
  gboolean      packable;     /* out: the track can stay as its records */
  gboolean      ordered;      /* out: times strictly increase */
} KeysJob;

/* Run on several threads for a large file (sq-parallel.h); it touches only
 * its own track. Records whose times strictly increase stay as they are
 * (the caller packs the track: a key then costs no memory and no
 * decoding until it is asked for); others are decoded to be put in order. */
static void
decode_keys (gsize    item,
             gpointer data)
{
  KeysJob *job = &((KeysJob *) data)[item];
  SqTrack *track = job->track;
  const guint8 *start = job->start;
  double duration = job->duration;
  gboolean ordered = TRUE;
  guint prev = 0;

  for (guint32 k = 0; k < job->count; k++)
    {
      guint t = le16 (start + (gsize) k * SL_KEY_SIZE);

      if (k > 0 && t <= prev)
        {
          ordered = FALSE;
          break;
        }
      prev = t;
    }
  /* distinct codes give distinct times only for a duration above 0 */
  job->packable = ordered && (job->count <= 1 || (duration > 0 && isfinite (duration)));
  job->ordered = TRUE;
  if (job->packable)
    return;

  sq_track_reserve (track, job->count);
  for (guint32 k = 0; k < job->count; k++)
    {
      SqKey *key = &track->keys[k];

      record_to_key (start + (gsize) k * SL_KEY_SIZE, job->channel, duration, key);
      if (k > 0 && !(key->time > key[-1].time))
        job->ordered = FALSE;
    }
  track->n_keys = job->count;
  keep_codes (track, start, duration);
}

static gboolean
read_keys (SqClip     *clip,
           SqReader   *r,
           SqTrack    *track,
           SqChannel   channel,
           gboolean    old,
           const char *joint,
           GArray     *jobs,
           GArray     *costs,
           GError    **error)
{
  guint32 count;
  gsize count_offset = r->pos;
  gsize size = old ? SL_OLD_KEY_SIZE : SL_KEY_SIZE;
  const char *what = channel == SQ_CHANNEL_ROTATION ? _("rotation") : _("position");

  if (!rd_u32 (r, &count, channel == SQ_CHANNEL_ROTATION ? N_("a rotation key count")
                                                         : N_("a position key count"), error))
    return FALSE;
  if ((gint32) count < 0)
    {
      sq_set_error_at_offset (error, SQ_ERROR_BAD_VALUE, count_offset,
                              _("joint “%s”: negative %s key count %d"), joint, what, (gint32) count);
      return FALSE;
    }
  if (!sq_reader_check_count (r, count, size, count_offset, N_("key"), error))
    return FALSE;

  if (!old)
    {
      /* packed or decoded with the others once every joint is there (decode_keys) */
      KeysJob job = { clip->n_joints - 1, channel, r->data + r->pos, count, clip->duration, NULL, TRUE, TRUE };
      gsize cost = (gsize) count * SL_KEY_SIZE;

      g_array_append_val (jobs, job);
      g_array_append_val (costs, cost);
      r->pos += cost;
      return TRUE;
    }
  /* the old 0.1 variant: f32 seconds, Euler degrees, f32 metres */
  sq_track_reserve (track, count);
  sq_track_ensure_alt (track);
  for (guint32 k = 0; k < count; k++)
    {
      const guint8 *p = r->data + r->pos;
      gsize key_offset = r->pos;
      SqKey *key = &track->keys[k];
      double *alt = &track->alt[k * 4];
      double v[3];

      key->time = le_float (p);
      for (int c = 0; c < 3; c++)
        v[c] = le_float (p + 4 + 4 * c);
      if (!isfinite (key->time) || !isfinite (v[0]) || !isfinite (v[1]) || !isfinite (v[2]))
        {
          sq_set_error_at_offset (error, SQ_ERROR_BAD_VALUE, key_offset,
                                  _("joint “%s”: %s key %u holds a number that is not finite"),
                                  joint, what, k);
          return FALSE;
        }
      if (channel == SQ_CHANNEL_ROTATION)
        {
          euler_zyx_to_quat (v, key->v);
          memcpy (alt, v, sizeof v);
          alt[3] = 0.0;
        }
      else
        {
          memcpy (key->v, v, sizeof v);
          key->v[3] = 0.0;
          alt[0] = alt[1] = alt[2] = alt[3] = NAN;
          if (fabs (v[0]) > SL_POS_RANGE || fabs (v[1]) > SL_POS_RANGE || fabs (v[2]) > SL_POS_RANGE)
            sq_clip_add_warning (clip, _("joint “%s”: position key %u (offset %zu) lies beyond ±%g m; "
                                         "the viewer clamps it"), joint, k, key_offset, SL_POS_RANGE);
        }
      r->pos += SL_OLD_KEY_SIZE;
    }
  track->n_keys = count;
  finish_track (clip, track, joint, what);
  return TRUE;
}

static GVariant *
read_constraint (const guint8 *p)
{
  SqSlConstraint c = { .chain_length = p[0], .type = p[1] };
  double *ease[4] = { &c.ease_in_start, &c.ease_in_stop, &c.ease_out_start, &c.ease_out_stop };

  /* source offset, target offset, target direction, four ease times */
  for (int i = 0; i < 3; i++)
    {
      c.source_offset[i] = le_float (p + 18 + 4 * i);
      c.target_offset[i] = le_float (p + 46 + 4 * i);
      c.target_dir[i] = le_float (p + 58 + 4 * i);
    }
  for (int i = 0; i < 4; i++)
    *ease[i] = le_float (p + 70 + 4 * i);
  /* the volume fields as the file's raw bytes */
  return _sq_sl_constraint_pack (&c, g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, p + 2, SL_VOLUME_SIZE, 1),
                                 g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, p + 30, SL_VOLUME_SIZE, 1));
}

static void
set_float_prop (SqProps *props, const char *key, double v)
{
  sq_props_set (props, key, g_variant_new_double (v));
}

static SqClip *
sl_read (GBytes              *bytes,
         const SqLoadOptions *options,
         GError             **error)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  SqReader r = { 0 };
  guint16 version, sub;
  guint32 priority, loop, hand, n_joints, n_constraints;
  double duration, loop_in, loop_out, ease_in, ease_out;
  g_autofree char *emote = NULL;
  g_autoptr(GVariant) emote_raw = NULL;
  gsize offset;
  gboolean old;
  guint max_joints = options->max_joints ? options->max_joints : 65536;
  g_autoptr(GArray) jobs = g_array_new (FALSE, FALSE, sizeof (KeysJob));
  g_autoptr(GArray) costs = g_array_new (FALSE, FALSE, sizeof (gsize));

  r.data = g_bytes_get_data (bytes, &r.len);

  if (!rd_u16 (&r, &version, N_("the version"), error)
      || !rd_u16 (&r, &sub, N_("the sub-version"), error))
    return NULL;
  if (!((version == 1 && sub == 0) || (version == 0 && sub == 1)))
    {
      sq_set_error_at_offset (error, SQ_ERROR_UNSUPPORTED, 0,
                              _("version %u.%u is not a Second Life animation (1.0, or the old 0.1)"),
                              version, sub);
      return NULL;
    }
  old = version == 0;
  if (!rd_u32 (&r, &priority, N_("the base priority"), error))
    return NULL;
  offset = r.pos;
  if (!rd_f32 (&r, &duration, N_("the duration"), error))
    return NULL;
  if (!isfinite (duration) || duration < 0)
    {
      sq_set_error_at_offset (error, SQ_ERROR_BAD_VALUE, offset,
                              _("duration %g s is not a finite time ≥ 0"), duration);
      return NULL;
    }
  if (!rd_cstring (&r, N_("the emote name"), &emote, &emote_raw, error)
      || !rd_f32 (&r, &loop_in, N_("the loop in point"), error)
      || !rd_f32 (&r, &loop_out, N_("the loop out point"), error)
      || !rd_u32 (&r, &loop, N_("the loop flag"), error)
      || !rd_f32 (&r, &ease_in, N_("the ease in time"), error)
      || !rd_f32 (&r, &ease_out, N_("the ease out time"), error)
      || !rd_u32 (&r, &hand, N_("the hand pose"), error))
    return NULL;
  offset = r.pos;
  if (!rd_u32 (&r, &n_joints, N_("the joint count"), error))
    return NULL;
  /* a joint takes at least 13 bytes: a NUL, priority and two key counts */
  if (!sq_reader_check_count (&r, n_joints, 13, offset, N_("joint"), error))
    return NULL;
  if (n_joints > max_joints)
    {
      sq_set_error_at_offset (error, SQ_ERROR_LIMIT_EXCEEDED, offset,
                              _("%u joints, more than the limit of %u"), n_joints, max_joints);
      return NULL;
    }

  clip->duration = duration;
  clip->fps = 30.0;
  clip->frame_base = 0;
  sq_props_set (clip->extra, "version", g_variant_new_uint16 (version));
  sq_props_set (clip->extra, "sub-version", g_variant_new_uint16 (sub));
  sq_props_set (clip->extra, "priority", g_variant_new_int32 ((gint32) priority));
  sq_props_set (clip->extra, "emote", g_variant_new_string (emote));
  if (emote_raw)
    sq_props_set (clip->extra, "emote-field", emote_raw);
  set_float_prop (clip->extra, "loop-in", loop_in);
  set_float_prop (clip->extra, "loop-out", loop_out);
  sq_props_set (clip->extra, "loop", g_variant_new_int32 ((gint32) loop));
  set_float_prop (clip->extra, "ease-in", ease_in);
  set_float_prop (clip->extra, "ease-out", ease_out);
  sq_props_set (clip->extra, "hand-pose", g_variant_new_uint32 (hand));

  for (guint32 j = 0; j < n_joints; j++)
    {
      g_autofree char *name = NULL;
      g_autoptr(GVariant) raw = NULL;
      guint32 jprio;
      SqJoint *joint;

      if (!rd_cstring (&r, N_("a joint name"), &name, &raw, error)
          || !rd_u32 (&r, &jprio, N_("a joint priority"), error))
        return NULL;
      if (sq_clip_find_joint (clip, name) >= 0)
        sq_clip_add_warning (clip, _("joint “%s” appears more than once; edits by name act on the first"), name);
      joint = sq_clip_add_joint (clip, name);
      if (raw)
        sq_props_set (joint->extra, "name-bytes", raw);
      sq_props_set (joint->extra, "priority", g_variant_new_int32 ((gint32) jprio));
      if (!read_keys (clip, &r, &joint->tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, old, name,
                      jobs, costs, error)
          || !read_keys (clip, &r, &joint->tracks[SQ_CHANNEL_TRANSLATION], SQ_CHANNEL_TRANSLATION, old, name,
                         jobs, costs, error))
        return NULL;
    }

  /* the joints are all there now (their array no longer moves): pack or
   * decode the keys, then put them in order */
  for (guint i = 0; i < jobs->len; i++)
    {
      KeysJob *job = &g_array_index (jobs, KeysJob, i);
      job->track = &clip->joints[job->joint].tracks[job->channel];
    }
  _sq_parallel_items (jobs->len, (const gsize *) (gpointer) costs->data, decode_keys, jobs->data);
  for (guint i = 0; i < jobs->len; i++)
    {
      const KeysJob *job = &g_array_index (jobs, KeysJob, i);

      if (job->packable)
        sq_track_pack (job->track, &record_codecs[job->channel], bytes, job->start, job->count, job->duration);
      else if (!job->ordered)
        finish_track (clip, job->track, clip->joints[job->joint].name,
                      job->channel == SQ_CHANNEL_ROTATION ? _("rotation") : _("position"));
    }

  offset = r.pos;
  if (!rd_u32 (&r, &n_constraints, N_("the constraint count"), error))
    return NULL;
  if ((gint32) n_constraints < 0
      || ((gint32) n_constraints > SL_MAX_CONSTRAINTS
          && n_constraints > sq_reader_left (&r) / SL_CONSTRAINT_SIZE))
    {
      /* the viewer ignores the constraints then, whatever follows */
      sq_clip_add_warning (clip, _("constraint count %d at offset %zu is out of range; the viewer ignores "
                                   "the constraints"), (gint32) n_constraints, offset);
      sq_props_set (clip->extra, "constraint-count", g_variant_new_int32 ((gint32) n_constraints));
    }
  else
    {
      GVariantBuilder b;

      if (!sq_reader_check_count (&r, n_constraints, SL_CONSTRAINT_SIZE, offset, N_("constraint"), error))
        return NULL;
      if (n_constraints > SL_MAX_CONSTRAINTS)
        sq_clip_add_warning (clip, _("%u constraints, more than 10: the viewer ignores them all"), n_constraints);
      g_variant_builder_init (&b, G_VARIANT_TYPE (SL_CONSTRAINTS_TYPE));
      for (guint32 c = 0; c < n_constraints; c++)
        {
          g_variant_builder_add_value (&b, read_constraint (r.data + r.pos));
          r.pos += SL_CONSTRAINT_SIZE;
        }
      sq_props_set (clip->extra, "constraints", g_variant_builder_end (&b));
    }

  if (sq_reader_left (&r) > 0)
    {
      sq_clip_add_warning (clip, _("%zu bytes after the constraints at offset %zu are kept as they are"),
                           sq_reader_left (&r), r.pos);
      sq_props_set (clip->extra, "trailing",
                    g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, r.data + r.pos, sq_reader_left (&r), 1));
    }
  return g_steal_pointer (&clip);
}

/* ---- writing ------------------------------------------------------------- */

typedef struct
{
  const SqClip *clip;
  gboolean      own;          /* alt holds this format's codes */
  gboolean      old;
  double        duration;     /* as written, single precision */
  CodeScale     scale;        /* of the inverse decoding, for that duration */
  GPtrArray    *losses;
  GArray       *refs;         /* records as read are referred to (_sq_refer), or NULL: copied */
  gsize         requantised;
  gsize         clamped;
  gsize         nonfinite;
} WriteState;

static double
finite_or_zero (WriteState *st, double v)
{
  if (isfinite (v))
    return v;
  st->nonfinite++;
  return 0.0;
}

static double
clamp_range (WriteState *st, double v, double range)
{
  v = finite_or_zero (st, v);
  if (v > range || v < -range)
    {
      st->clamped++;
      return CLAMP (v, -range, range);
    }
  return v;
}

/* The codes of one key for version 1.0: the kept ones while they still
 * decode to exactly the key, else quantised again. */
static void
key_codes (WriteState    *st,
           const SqTrack *track,
           SqChannel      channel,
           gsize          k,
           guint          codes[4])
{
  const SqKey key_value = sq_track_key (track, k), *key = &key_value;
  double t;

  if (st->own && track->alt != NULL)
    {
      const double *alt = &track->alt[k * 4];
      gboolean ok = TRUE;

      /* in range, then whole: the cast is exact there (no floor call) */
      for (int c = 0; c < 4; c++)
        if (!(alt[c] >= 0 && alt[c] <= SL_U16MAX && alt[c] == (double) (guint) alt[c]))
          ok = FALSE;
      if (ok)
        {
          for (int c = 0; c < 4; c++)
            codes[c] = (guint) alt[c];
          if (codes_decode_to (codes, key, channel, st->duration))
            return;
        }
    }
  /* kept codes first: they may differ from these where two codes decode alike */
  if (st->own && key_exact_codes (key, channel, &st->scale, st->duration, codes))
    return;

  st->requantised++;
  t = finite_or_zero (st, key->time);
  if (t < 0 || t > st->duration)
    st->clamped++;
  codes[0] = time_to_code (CLAMP (t, 0.0, st->duration), st->duration);
  if (channel == SQ_CHANNEL_ROTATION)
    {
      double q[4];

      for (int c = 0; c < 4; c++)
        q[c] = key->v[c];
      if (!(isfinite (q[0]) && isfinite (q[1]) && isfinite (q[2]) && isfinite (q[3])))
        {
          st->nonfinite++;
          q[0] = 1, q[1] = q[2] = q[3] = 0;
        }
      sq_quat_normalize (q);
      if (q[0] < 0)
        q[1] = -q[1], q[2] = -q[2], q[3] = -q[3];
      for (int c = 1; c < 4; c++)
        codes[c] = value_to_code (CLAMP (q[c], -1.0, 1.0), SL_ROT_RANGE);
    }
  else
    for (int c = 0; c < 3; c++)
      codes[c + 1] = value_to_code (clamp_range (st, key->v[c], SL_POS_RANGE), SL_POS_RANGE);
}

/* Whether write_track writes the track's records as they are */
static gboolean
track_kept_as_read (const WriteState *st,
                    const SqTrack    *track,
                    SqChannel         channel)
{
  return !st->old && st->own && track->codec == &record_codecs[channel]
         && memcmp (&track->packed_param, &st->duration, sizeof (double)) == 0;
}

static void
write_track (WriteState    *st,
             GByteArray    *out,
             const SqJoint *joint,
             SqChannel      channel)
{
  const SqTrack *track = &joint->tracks[channel];
  gsize count_pos = out->len;
  guint32 count = 0;
  gsize dropped = 0;
  gint64 last = -1;
  double last_time = -INFINITY;
  gsize wpos;

  if (track_kept_as_read (st, track, channel))
    {
      /* the keys are still the records read, for this duration: they are
       * written back as they are, which is what key_codes gives */
      put_le32 (out, (guint32) track->n_keys);
      if (st->refs != NULL)
        _sq_refer (st->refs, out->len, track->packed_bytes, track->packed, track->n_keys * SL_KEY_SIZE);
      else
        g_byte_array_append (out, track->packed, track->n_keys * SL_KEY_SIZE);
      return;
    }
  put_le32 (out, 0);
  /* room for every key at once; cut to what was written after */
  wpos = out->len;
  if (!st->old)
    g_byte_array_set_size (out, wpos + track->n_keys * 8);
  for (gsize k = 0; k < track->n_keys; k++)
    {
      if (!st->old)
        {
          guint codes[4];

          key_codes (st, track, channel, k, codes);
          if ((gint64) codes[0] <= last)
            {
              dropped++;
              continue;
            }
          last = codes[0];
          {
            guint8 *w = out->data + wpos;
            for (int c = 0; c < 4; c++)
              w[2 * c] = (guint8) codes[c], w[2 * c + 1] = (guint8) (codes[c] >> 8);
            wpos += 8;
          }
        }
      else
        {
          const SqKey key_value = sq_track_key (track, k), *key = &key_value;
          double t = sq_float_bits_to_double (sq_double_to_float_bits (finite_or_zero (st, key->time)));
          double v[3];

          if (!(t > last_time))
            {
              dropped++;
              continue;
            }
          last_time = t;
          if (channel == SQ_CHANNEL_ROTATION)
            {
              const double *alt = st->own && track->alt ? &track->alt[k * 4] : NULL;
              double q[4];

              if (alt != NULL && isfinite (alt[0]) && isfinite (alt[1]) && isfinite (alt[2]))
                {
                  euler_zyx_to_quat (alt, q);
                  if (memcmp (q, key->v, sizeof q) != 0)
                    alt = NULL;
                }
              else
                alt = NULL;
              if (alt != NULL)
                memcpy (v, alt, sizeof v);
              else
                {
                  for (int c = 0; c < 4; c++)
                    q[c] = finite_or_zero (st, key->v[c]);
                  if (q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0)
                    q[0] = 1;
                  quat_to_euler_zyx (q, v);
                  st->requantised++;
                }
            }
          else
            for (int c = 0; c < 3; c++)
              v[c] = finite_or_zero (st, key->v[c]);
          put_f32 (out, t);
          for (int c = 0; c < 3; c++)
            put_f32 (out, v[c]);
        }
      count++;
    }
  if (!st->old)
    g_byte_array_set_size (out, wpos);
  out->data[count_pos] = count & 0xff;
  out->data[count_pos + 1] = (count >> 8) & 0xff;
  out->data[count_pos + 2] = (count >> 16) & 0xff;
  out->data[count_pos + 3] = count >> 24;
  if (dropped > 0)
    _sq_loss (st->losses, _("joint “%s”: %zu %s keys fall on the same time step as the key before and are "
                            "dropped"), joint->name, dropped,
              channel == SQ_CHANNEL_ROTATION ? _("rotation") : _("position"));
}

static void
put_volume (GByteArray *out,
            GVariant   *field)
{
  gsize n = 0;
  const guint8 *p = g_variant_get_fixed_array (field, &n, 1);
  guint8 buf[SL_VOLUME_SIZE] = { 0 };

  memcpy (buf, p, MIN (n, SL_VOLUME_SIZE));
  g_byte_array_append (out, buf, SL_VOLUME_SIZE);
}

static void
write_constraints (GByteArray   *out,
                   const SqClip *clip,
                   gboolean      own,
                   GPtrArray    *losses)
{
  GVariant *v = sq_props_get (clip->extra, "constraints");
  GVariant *count_v = sq_props_get (clip->extra, "constraint-count");
  gsize n = 0;

  if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE (SL_CONSTRAINTS_TYPE)))
    n = g_variant_n_children (v);
  if (n == 0 && own && count_v != NULL && g_variant_is_of_type (count_v, G_VARIANT_TYPE_INT32))
    {
      put_le32 (out, (guint32) g_variant_get_int32 (count_v));
      return;
    }
  put_le32 (out, (guint32) n);
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) c = g_variant_get_child_value (v, i);
      g_autoptr(GVariant) src = NULL, dst = NULL;
      SqSlConstraint r;

      _sq_sl_constraint_unpack (c, &r, &src, &dst);
      if (g_variant_n_children (src) > SL_VOLUME_SIZE || g_variant_n_children (dst) > SL_VOLUME_SIZE)
        _sq_loss (losses, _("constraint %zu: a volume name longer than 16 bytes is cut"), i + 1);
      g_byte_array_append (out, &r.chain_length, 1);
      g_byte_array_append (out, &r.type, 1);
      put_volume (out, src);
      for (int k = 0; k < 3; k++)
        put_f32 (out, r.source_offset[k]);
      put_volume (out, dst);
      for (int k = 0; k < 3; k++)
        put_f32 (out, r.target_offset[k]);
      for (int k = 0; k < 3; k++)
        put_f32 (out, r.target_dir[k]);
      put_f32 (out, r.ease_in_start);
      put_f32 (out, r.ease_in_stop);
      put_f32 (out, r.ease_out_start);
      put_f32 (out, r.ease_out_stop);
    }
}

/* One joint's block: the joints of a large clip are encoded on several
 * threads (quantising is about as slow as printing text), each with a state
 * of its own, then put together in order (sq-parallel.h) */
typedef struct
{
  const WriteState *st;
  WriteState       *states;   /* out: per joint, its counts */
} JointsWrite;

static void
write_joint_to (WriteState    *st,
                GByteArray    *out,
                const SqJoint *joint,
                GPtrArray     *losses)
{
  const SqClip *clip = st->clip;

  put_cstring (out, joint->name, st->own ? sq_props_get (joint->extra, "name-bytes") : NULL);
  put_le32 (out, (guint32) (gint32) sq_props_get_int (joint->extra, "priority",
                                                      (gint32) sq_props_get_int (clip->extra, "priority",
                                                                                 SL_DEFAULT_PRIORITY)));
  write_track (st, out, joint, SQ_CHANNEL_ROTATION);
  write_track (st, out, joint, SQ_CHANNEL_TRANSLATION);
  if (joint->tracks[SQ_CHANNEL_SCALE].n_keys > 0)
    _sq_loss (losses, _("joint “%s”: %zu scale keys dropped (Second Life animations have no scale)"),
              joint->name, joint->tracks[SQ_CHANNEL_SCALE].n_keys);
}

static void
write_joint (gsize      j,
             GString   *part,
             GPtrArray *losses,
             gpointer   data)
{
  JointsWrite *jw = data;
  WriteState *st = &jw->states[j];
  const SqJoint *joint = &jw->st->clip->joints[j];
  g_autoptr(GByteArray) out = g_byte_array_sized_new (strlen (joint->name) + 13
                                                      + SL_KEY_SIZE * (joint->tracks[SQ_CHANNEL_ROTATION].n_keys
                                                                       + joint->tracks[SQ_CHANNEL_TRANSLATION].n_keys));

  *st = *jw->st;
  st->losses = losses;
  st->requantised = st->clamped = st->nonfinite = 0;
  write_joint_to (st, out, joint, losses);
  g_string_append_len (part, (const char *) out->data, out->len);
}

/* About the bytes sl_write writes (so the output need not grow): header,
 * constraints and leftovers, every joint with its name, and 8 bytes a key
 * unless `as_read` (the records are referred to) */
static gsize
output_size (const SqClip *clip,
             gboolean      as_read)
{
  gsize size = 1024 + SL_MAX_CONSTRAINTS * SL_CONSTRAINT_SIZE;
  GVariant *trailing = sq_props_get (clip->extra, "trailing");

  if (trailing != NULL)
    size += g_variant_get_size (trailing);
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      GVariant *raw = sq_props_get (clip->joints[j].extra, "name-bytes");

      size += 64 + strlen (clip->joints[j].name) + (raw != NULL ? g_variant_get_size (raw) : 0)
              + (as_read ? 0 : SL_KEY_SIZE * (clip->joints[j].tracks[SQ_CHANNEL_ROTATION].n_keys
                                              + clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION].n_keys));
    }
  return size;
}

static GPtrArray *
sl_write (const SqClip        *clip,
          const SqSaveOptions *options G_GNUC_UNUSED,
          GPtrArray           *losses,
          GError             **error)
{
  gsize reserved;
  g_autoptr(GByteArray) out = NULL;
  g_autoptr(SqPrefault) prefault = NULL;
  g_autoptr(GArray) refs = _sq_refs_new ();
  gboolean as_read = TRUE;
  WriteState st = { 0 };
  const SqProps *x = clip->extra;
  gboolean own = clip->format == &_sq_format_sl_anim;
  guint version = sq_props_get_uint (x, "version", 1), sub = 0;
  GVariant *v;
  float dur_f;

  if ((v = sq_props_get (x, "version")) != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_UINT16))
    version = g_variant_get_uint16 (v);
  if ((v = sq_props_get (x, "sub-version")) != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_UINT16))
    sub = g_variant_get_uint16 (v);
  st.old = version == 0 && sub == 1;
  if (!st.old)
    version = 1, sub = 0;

  if (!isfinite (clip->duration) || clip->duration < 0 || clip->duration > G_MAXFLOAT)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_CANNOT_WRITE,
                   _("The duration %g s cannot be written as a single-precision number"), clip->duration);
      return NULL;
    }
  dur_f = (float) clip->duration;
  st.clip = clip;
  st.own = own;
  st.duration = dur_f;
  code_scale_init (&st.scale, st.duration);
  st.losses = losses;

  for (gsize j = 0; j < clip->n_joints && as_read; j++)
    as_read = track_kept_as_read (&st, &clip->joints[j].tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION)
              && track_kept_as_read (&st, &clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION], SQ_CHANNEL_TRANSLATION);
  reserved = output_size (clip, as_read);
  out = _sq_byte_array_sized_new (reserved);
  /* a second thread makes the output's fresh pages present */
  prefault = _sq_prefault_start (reserved, (void * const *) &out->data, &reserved, 1);

  if (clip->name != NULL && clip->name[0] != '\0')
    _sq_loss (losses, _("the model name “%s” has no place in a Second Life animation"), clip->name);

  put_le16 (out, version);
  put_le16 (out, sub);
  put_le32 (out, (guint32) (gint32) sq_props_get_int (x, "priority", SL_DEFAULT_PRIORITY));
  put_f32 (out, clip->duration);
  {
    GVariant *emote = sq_props_get (x, "emote");
    const char *s = emote && g_variant_is_of_type (emote, G_VARIANT_TYPE_STRING)
                    ? g_variant_get_string (emote, NULL) : "";
    put_cstring (out, s, own ? sq_props_get (x, "emote-field") : NULL);
  }
  put_f32 (out, sq_props_get_double (x, "loop-in", 0.0));
  put_f32 (out, sq_props_get_double (x, "loop-out", clip->duration));
  put_le32 (out, (guint32) (gint32) sq_props_get_int (x, "loop", 0));
  put_f32 (out, sq_props_get_double (x, "ease-in", SL_DEFAULT_EASE));
  put_f32 (out, sq_props_get_double (x, "ease-out", SL_DEFAULT_EASE));
  put_le32 (out, (guint32) (gint32) sq_props_get_int (x, "hand-pose", SL_DEFAULT_HAND));
  if (clip->n_joints > G_MAXINT32)
    {
      g_set_error_literal (error, SQ_ERROR, SQ_ERROR_CANNOT_WRITE, _("Too many joints"));
      return NULL;
    }
  put_le32 (out, (guint32) clip->n_joints);

  {
    if (as_read)
      {
        /* every track is its records as read: the output refers to them */
        st.refs = refs;
        for (gsize j = 0; j < clip->n_joints; j++)
          write_joint_to (&st, out, &clip->joints[j], losses);
        st.refs = NULL;
      }
    else
      {
        JointsWrite jw = { &st, g_new0 (WriteState, MAX (clip->n_joints, 1)) };
        g_autofree gsize *costs = g_new (gsize, MAX (clip->n_joints, 1));
        GString *joints = g_string_new (NULL);
        GArray *joint_refs = _sq_refs_new ();

        for (gsize j = 0; j < clip->n_joints; j++)
          costs[j] = SL_KEY_SIZE * SQ_PARALLEL_PRINT_WEIGHT * (clip->joints[j].tracks[SQ_CHANNEL_ROTATION].n_keys
                                                              + clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION].n_keys);
        _sq_parallel_parts (clip->n_joints, costs, write_joint, &jw, joints, joint_refs, losses);
        _sq_refer_pieces (refs, out->len, _sq_pieces_take (g_string_free_to_bytes (joints), joint_refs));
        for (gsize j = 0; j < clip->n_joints; j++)
          {
            st.requantised += jw.states[j].requantised;
            st.clamped += jw.states[j].clamped;
            st.nonfinite += jw.states[j].nonfinite;
          }
        g_free (jw.states);
      }
  }
  write_constraints (out, clip, own, losses);

  /* raw leftovers are only this format's own */
  if (own && (v = sq_props_get (x, "trailing")) != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_BYTESTRING))
    {
      gsize n;
      const guint8 *p = g_variant_get_fixed_array (v, &n, 1);
      g_byte_array_append (out, p, n);
    }

  if (st.requantised > 0)
    {
      if (st.old)
        _sq_loss (losses, _("%zu rotation keys written as Euler angles in single precision"), st.requantised);
      else
        _sq_loss (losses, _("%zu keys quantised to 16 bits (times in steps of %g s, rotations of 3.1e-5, "
                            "positions of 0.15 mm)"), st.requantised, (double) dur_f / SL_U16MAX);
    }
  if (st.clamped > 0)
    _sq_loss (losses, _("%zu key times or positions outside the duration or ±%g m are clamped"), st.clamped,
              SL_POS_RANGE);
  if (st.nonfinite > 0)
    _sq_loss (losses, _("%zu numbers that are not finite are written as 0"), st.nonfinite);

  g_clear_pointer (&prefault, _sq_prefault_finish);
  return _sq_pieces_take (g_byte_array_free_to_bytes (g_steal_pointer (&out)), g_steal_pointer (&refs));
}

/* ---- descriptions and dumps ---------------------------------------------- */

static char *
volume_name (GVariant *field)
{
  gsize n;
  const guint8 *p = g_variant_get_fixed_array (field, &n, 1);
  const guint8 *nul = memchr (p, 0, n);

  return _sq_latin1_to_utf8 (p, nul ? (gsize) (nul - p) : n);
}

static char *
sl_describe_field (const char *key,
                   GVariant   *value)
{
  if (g_str_equal (key, "priority") && g_variant_is_of_type (value, G_VARIANT_TYPE_INT32))
    return g_strdup_printf (_("priority %d"), g_variant_get_int32 (value));
  if (g_str_equal (key, "emote") && g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    return g_variant_get_string (value, NULL)[0] == '\0' ? NULL
           : g_strdup_printf (_("the emote “%s”"), g_variant_get_string (value, NULL));
  if (g_str_equal (key, "loop") && g_variant_is_of_type (value, G_VARIANT_TYPE_INT32))
    return g_variant_get_int32 (value) != 0 ? g_strdup (_("looping")) : NULL;
  if ((g_str_equal (key, "loop-in") || g_str_equal (key, "loop-out") || g_str_equal (key, "ease-in")
       || g_str_equal (key, "ease-out")) && g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
    return g_strdup_printf (_("the %s time %g s"), key, g_variant_get_double (value));
  if (g_str_equal (key, "hand-pose") && g_variant_is_of_type (value, G_VARIANT_TYPE_UINT32))
    {
      guint32 h = g_variant_get_uint32 (value);
      return g_strdup_printf (_("hand pose %u (%s)"), h, sq_sl_hand_pose_name (h) ? sq_sl_hand_pose_name (h) : "?");
    }
  if (g_str_equal (key, "constraints") && g_variant_is_of_type (value, G_VARIANT_TYPE (SL_CONSTRAINTS_TYPE)))
    return g_variant_n_children (value) == 0 ? NULL
           : g_strdup_printf (_("%zu constraints"), g_variant_n_children (value));
  if (g_str_equal (key, "trailing"))
    return g_strdup_printf (_("%zu bytes after the constraints"), g_variant_n_children (value));
  if (g_str_equal (key, "version") || g_str_equal (key, "sub-version"))
    return NULL;
  if (g_str_equal (key, "constraint-count"))
    return g_strdup (_("an out-of-range constraint count"));
  /* emote-field, name-bytes: raw spellings of names that are kept anyway */
  return NULL;
}

static void
json_vec (GString *out, double a, double b, double c)
{
  g_string_append_c (out, '[');
  _sq_json_number (out, a);
  g_string_append_c (out, ',');
  _sq_json_number (out, b);
  g_string_append_c (out, ',');
  _sq_json_number (out, c);
  g_string_append_c (out, ']');
}

static gboolean
sl_dump_field (GString    *out,
               const char *key,
               GVariant   *value,
               gboolean    json)
{
  gsize n;

  if (!g_str_equal (key, "constraints") || !g_variant_is_of_type (value, G_VARIANT_TYPE (SL_CONSTRAINTS_TYPE)))
    return FALSE;
  n = g_variant_n_children (value);
  if (json)
    g_string_append_c (out, '[');
  else
    g_string_append_printf (out, _("Constraints: %zu\n"), n);
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) c = g_variant_get_child_value (value, i);
      g_autoptr(GVariant) src = NULL, dst = NULL;
      g_autofree char *src_name = NULL, *dst_name = NULL;
      SqSlConstraint r;
      const double *so = r.source_offset, *to = r.target_offset, *dir = r.target_dir;
      double e[4];
      guint chain, type;

      _sq_sl_constraint_unpack (c, &r, &src, &dst);
      chain = r.chain_length;
      type = r.type;
      e[0] = r.ease_in_start;
      e[1] = r.ease_in_stop;
      e[2] = r.ease_out_start;
      e[3] = r.ease_out_stop;
      src_name = volume_name (src);
      dst_name = volume_name (dst);
      if (json)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          g_string_append_printf (out, "{\"chain_length\":%u,\"type\":%u,\"source_volume\":", chain, type);
          _sq_json_string (out, src_name);
          g_string_append (out, ",\"source_offset\":");
          json_vec (out, so[0], so[1], so[2]);
          g_string_append (out, ",\"target_volume\":");
          _sq_json_string (out, dst_name);
          g_string_append (out, ",\"target_offset\":");
          json_vec (out, to[0], to[1], to[2]);
          g_string_append (out, ",\"target_dir\":");
          json_vec (out, dir[0], dir[1], dir[2]);
          g_string_append (out, ",\"ease_in\":[");
          _sq_json_number (out, e[0]);
          g_string_append_c (out, ',');
          _sq_json_number (out, e[1]);
          g_string_append (out, "],\"ease_out\":[");
          _sq_json_number (out, e[2]);
          g_string_append_c (out, ',');
          _sq_json_number (out, e[3]);
          g_string_append (out, "]}");
        }
      else
        {
          char b[13][G_ASCII_DTOSTR_BUF_SIZE];
          const double *vals[13] = { &so[0], &so[1], &so[2], &to[0], &to[1], &to[2],
                                     &dir[0], &dir[1], &dir[2], &e[0], &e[1], &e[2], &e[3] };

          for (int k = 0; k < 13; k++)
            g_ascii_formatd (b[k], sizeof b[k], "%g", *vals[k]);
          g_string_append_printf (out, _("  %zu: %s chain %u, %s (%s %s %s) → %s (%s %s %s), "
                                         "direction (%s %s %s), ease in %s–%s s, out %s–%s s\n"),
                                  i + 1, type == 0 ? "point" : type == 1 ? "plane" : "?", chain,
                                  src_name, b[0], b[1], b[2], dst_name, b[3], b[4], b[5],
                                  b[6], b[7], b[8], b[9], b[10], b[11], b[12]);
        }
    }
  if (json)
    g_string_append_c (out, ']');
  return TRUE;
}

static const char * const sl_extensions[] = { "anim", "dat", NULL };
static const char * const sl_fields[] = {
  "version", "sub-version", "priority", "emote", "emote-field", "loop-in", "loop-out", "loop", "ease-in",
  "ease-out", "hand-pose", "constraints", "constraint-count", "trailing", "name-bytes", NULL
};

const SqFormat _sq_format_sl_anim = {
  .id = "sl-anim",
  .name = N_("Second Life animation"),
  .extensions = sl_extensions,
  .mime_type = "application/x-secondlife-animation",
  .default_root = "mPelvis",
  .flags = SQ_FORMAT_READ | SQ_FORMAT_WRITE | SQ_FORMAT_QUANTISED,
  .fields = sl_fields,
  .describe_field = sl_describe_field,
  .dump_field = sl_dump_field,
  .probe = sl_probe,
  .read = sl_read,
  .write = sl_write,
  .space = &sq_space_second_life,
  .world = &sq_world_sl,
};
