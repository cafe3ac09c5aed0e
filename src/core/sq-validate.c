/* sq-validate.c: model invariants and target-world validation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-validate"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>

#include "sq-fields.h"
#include "sq-math.h"
#include "sq-encoding.h"
#include "sq-sl-skeleton.h"
#include "sq-convert.h"
#include "sq-validate.h"
#include "sq-motion.h"
#include "sq-diff.h"
#include "worlds/sq-world-sims.h"

gboolean
sq_clip_check (const SqClip *clip,
               GError      **error)
{
#define FAIL(...) G_STMT_START { g_set_error (error, SQ_ERROR, SQ_ERROR_BAD_VALUE, __VA_ARGS__); return FALSE; } G_STMT_END
  if (clip->name == NULL || clip->root == NULL || !g_utf8_validate (clip->name, -1, NULL)
      || !g_utf8_validate (clip->root, -1, NULL))
    FAIL ("clip names missing or not UTF-8");
  if (!isfinite (clip->duration) || clip->duration < 0)
    FAIL ("duration %g is not a finite time ≥ 0", clip->duration);
  if (!(clip->fps > 0) || !isfinite (clip->fps))
    FAIL ("frame rate %g is not positive", clip->fps);
  if (clip->extra == NULL || clip->warnings == NULL || clip->n_joints > clip->joints_alloc)
    FAIL ("clip bookkeeping is inconsistent");
  if (clip->takes != NULL && clip->take >= g_strv_length (clip->takes))
    FAIL ("take %u is not one of the file's %u", clip->take, g_strv_length (clip->takes));
  for (guint i = 0; clip->takes != NULL && clip->takes[i] != NULL; i++)
    if (!g_utf8_validate (clip->takes[i], -1, NULL))
      FAIL ("the name of take %u is not UTF-8", i);

  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqJoint *joint = &clip->joints[j];

      if (joint->name == NULL || !g_utf8_validate (joint->name, -1, NULL))
        FAIL ("joint %zu has no UTF-8 name", j);
      if (joint->extra == NULL)
        FAIL ("joint “%s” has no property list", joint->name);
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        {
          const SqTrack *t = &joint->tracks[c];

          if (t->codec != NULL)
            {
              gsize len = 0;
              const guint8 *data = t->packed_bytes ? g_bytes_get_data (t->packed_bytes, &len) : NULL;

              if (data == NULL || t->packed < data || t->keys != NULL || t->present != NULL || t->alt != NULL
                  || (gsize) (t->packed - data) > len
                  || t->n_keys > (len - (gsize) (t->packed - data)) / t->codec->stride)
                FAIL ("joint “%s” channel %u: packed keys are inconsistent", joint->name, c);
            }
          else if (t->n_keys > t->alloc || (t->n_keys > 0 && t->keys == NULL))
            FAIL ("joint “%s” channel %u: key storage is inconsistent", joint->name, c);
          for (gsize k = 0; k < t->n_keys; k++)
            {
              if (!isfinite (sq_track_time (t, k)))
                FAIL ("joint “%s” channel %u key %zu: time is not finite", joint->name, c, k);
              if (k > 0 && !(sq_track_time (t, k) > sq_track_time (t, k - 1)))
                FAIL ("joint “%s” channel %u key %zu: times not strictly increasing",
                      joint->name, c, k);
              if (t->present != NULL && (t->present[k] & ~SQ_PRESENT_ALL) != 0)
                FAIL ("joint “%s” channel %u key %zu: bad component mask", joint->name, c, k);
            }
        }
    }
  return TRUE;
#undef FAIL
}

/* ---- ActiveWorlds ---------------------------------------------------------- */

void
_sq_add_finding_valist (GPtrArray  *findings,
                        SqSeverity  severity,
                        gssize      joint,
                        SqChannel   channel,
                        gssize      key,
                        const char *format,
                        va_list     args)
{
  SqFinding *f = g_new0 (SqFinding, 1);

  f->severity = severity;
  f->joint = joint;
  f->channel = channel;
  f->key = key;
  f->message = g_strdup_vprintf (format, args);
  g_ptr_array_add (findings, f);
}

void
_sq_add_finding (GPtrArray  *findings,
                 SqSeverity  severity,
                 gssize      joint,
                 SqChannel   channel,
                 gssize      key,
                 const char *format,
                 ...)
{
  va_list args;

  va_start (args, format);
  _sq_add_finding_valist (findings, severity, joint, channel, key, format, args);
  va_end (args);
}

static void
finding_free (gpointer data)
{
  SqFinding *f = data;

  g_free (f->message);
  g_free (f);
}

/* ---- ActiveWorlds DirectX profile (formats.md 3.6, 4) ------------------------ */

#define AW_DX_MIN_TICKS     2
#define AW_DX_MAX_TICKS     200
#define AW_DX_MAX_LIMBS     64      /* the DX Animation page */
#define AW_DX_SAFE_LIMBS    62      /* the Tag (RWX) page: the sources disagree */
#define AW_DX_MAX_LINE      250
#define AW_DX_HEADER        "xof 0303txt 0032"
#define AW_DX_MAX_LINE_FINDINGS 20

/* The file as read: lines over 250 characters and line ends other than
 * CRLF, by line number (the writer always writes CRLF and short lines). */
static void
validate_aw_dx_lines (GBytes    *source,
                      GPtrArray *findings)
{
  gsize len, start = 0, n_long = 0, n_bad_end = 0;
  const char *d = g_bytes_get_data (source, &len);
  guint line = 1;

  while (start < len)
    {
      gsize end = start, text_end;
      gboolean crlf = FALSE, bare = FALSE;

      while (end < len && d[end] != '\n' && d[end] != '\r')
        end++;
      text_end = end;
      if (end < len && d[end] == '\r' && end + 1 < len && d[end + 1] == '\n')
        crlf = TRUE, end += 2;
      else if (end < len)
        bare = TRUE, end += 1;
      /* the last line may end without a line break */
      if (text_end - start > AW_DX_MAX_LINE && n_long++ < AW_DX_MAX_LINE_FINDINGS)
        _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                     _("line %u is %zu characters long; ActiveWorlds reads at most %d"),
                     line, text_end - start, AW_DX_MAX_LINE);
      if (bare && !crlf && n_bad_end++ < AW_DX_MAX_LINE_FINDINGS)
        _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                     d[text_end] == '\n' ? _("line %u ends with LF alone; ActiveWorlds needs CRLF line ends")
                                         : _("line %u ends with CR alone; ActiveWorlds needs CRLF line ends"),
                     line);
      line++;
      start = end;
    }
  if (n_long > AW_DX_MAX_LINE_FINDINGS)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                 _("%zu more lines are longer than %d characters"), n_long - AW_DX_MAX_LINE_FINDINGS, AW_DX_MAX_LINE);
  if (n_bad_end > AW_DX_MAX_LINE_FINDINGS)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                 _("%zu more lines do not end with CRLF"), n_bad_end - AW_DX_MAX_LINE_FINDINGS);
}

static void
validate_aw_dx (const SqClip *clip,
                GPtrArray    *findings)
{
  guint pelvis_tag = sq_aw_tag_for_name ("pelvis");
  g_autofree gssize *by_tag = g_new (gssize, SQ_AW_MAX_TAG + 1);
  guint n_limbs = 0;
  gboolean have_pelvis = FALSE;
  GVariant *v;

  for (guint t = 0; t <= SQ_AW_MAX_TAG; t++)
    by_tag[t] = -1;

  if ((v = sq_props_get (clip->extra, "header")) != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_STRING))
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                 _("the first line is “%s”; ActiveWorlds needs exactly “%s” (saving writes it)"),
                 g_variant_get_string (v, NULL), AW_DX_HEADER);
  if ((v = sq_props_get (clip->extra, "other_sets")) != NULL && g_variant_n_children (v) > 0 && clip->take == 0)
    _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, 0, -1,
                 _("the file holds %zu AnimationSets; ActiveWorlds plays only the first"),
                 g_variant_n_children (v) + 1);
  else if (v != NULL && g_variant_n_children (v) > 0)
    _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, 0, -1,
                 _("the file holds %zu AnimationSets and this is set %u; ActiveWorlds plays only the first"),
                 g_variant_n_children (v) + 1, clip->take + 1);
  if (!(clip->fps >= AW_DX_MIN_TICKS && clip->fps <= AW_DX_MAX_TICKS))
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                 _("AnimTicksPerSecond is %g; ActiveWorlds takes %d to %d"), clip->fps, AW_DX_MIN_TICKS,
                 AW_DX_MAX_TICKS);
  if (clip->n_joints == 0)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1, _("the animation has no limbs"));

  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqJoint *joint = &clip->joints[j];
      const SqTrack *rot = &joint->tracks[SQ_CHANNEL_ROTATION];
      guint tag = sq_aw_tag_for_name (joint->name);

      if (tag == 0 || tag > SQ_AW_MAX_TAG)
        _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_ROTATION, -1,
                     _("limb “%s” is not an ActiveWorlds limb name (such as aw_pelvis or pelvis): "
                       "ActiveWorlds ignores it"), joint->name);
      else if (by_tag[tag] >= 0)
        _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_ROTATION, -1,
                     _("limb “%s” is the same limb (tag %u) as “%s”"), joint->name, tag,
                     clip->joints[by_tag[tag]].name);
      else
        {
          by_tag[tag] = j;
          n_limbs++;
          have_pelvis |= tag == pelvis_tag;
        }

      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        {
          const SqTrack *t = &joint->tracks[c];

          if (t->n_keys > 0 && sq_track_time (t, 0) != 0.0)
            _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, c, 0,
                         _("limb “%s”: the first %s key is at tick %d; ActiveWorlds animations start at tick 0"),
                         joint->name,
                         c == SQ_CHANNEL_ROTATION ? _("rotation") : c == SQ_CHANNEL_SCALE ? _("scale") : _("position"),
                         sq_clip_time_to_frame (clip, sq_track_time (t, 0)));
        }
      if (joint->tracks[SQ_CHANNEL_SCALE].n_keys > 0)
        _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_SCALE, -1,
                     _("limb “%s”: %zu scale keys; ActiveWorlds does not support scale keys"),
                     joint->name, joint->tracks[SQ_CHANNEL_SCALE].n_keys);
      if (joint->tracks[SQ_CHANNEL_TRANSLATION].n_keys > 0 && tag != pelvis_tag)
        _sq_add_finding (findings, SQ_SEVERITY_INFO, j, SQ_CHANNEL_TRANSLATION, -1,
                     _("limb “%s” has position keys: limbs other than the pelvis move only in ActiveWorlds "
                       "browsers from build 1176"), joint->name);

      for (gsize k = 0; k < rot->n_keys; k++)
        {
          double q[4], n;

          memcpy (q, sq_track_key (rot, k).v, sizeof q);
          n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
          if (!isfinite (n) || n == 0)
            {
              _sq_add_finding (findings, SQ_SEVERITY_ERROR, j, SQ_CHANNEL_ROTATION, k,
                           _("limb “%s” rotation key %zu (tick %d) is not a rotation"),
                           joint->name, k + 1, sq_clip_time_to_frame (clip, sq_track_time (rot, k)));
              continue;
            }
          if (fabs (n - 1.0) > 1e-3)
            _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_ROTATION, k,
                         _("limb “%s” rotation key %zu (tick %d): the quaternion's length is %.4f, not 1"),
                         joint->name, k + 1, sq_clip_time_to_frame (clip, sq_track_time (rot, k)), sqrt (n));
          if (k > 0)
            {
              const SqKey prev = sq_track_key (rot, k - 1);
              const double *p = prev.v;
              double pn = sqrt (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
              double dot = (p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3]) / (pn * sqrt (n));

              /* interpolated as stored, the turn from one key to the next
               * is 2·acos(dot): more than 180° when the dot is negative */
              if (isfinite (dot) && dot < 0)
                _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_ROTATION, k,
                             _("limb “%s” rotation keys %zu and %zu (ticks %d and %d) are %.1f° apart; "
                               "ActiveWorlds recommends less than 180° between keys"),
                             joint->name, k, k + 1, sq_clip_time_to_frame (clip, sq_track_time (rot, k - 1)),
                             sq_clip_time_to_frame (clip, sq_track_time (rot, k)),
                             2.0 * acos (CLAMP (dot, -1.0, 1.0)) * 180.0 / G_PI);
            }
        }
    }

  if (clip->n_joints > 0 && !have_pelvis)
    _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, 0, -1,
                 _("there is no pelvis limb (aw_pelvis); ActiveWorlds animations should include it as the root"));
  if (n_limbs > AW_DX_MAX_LIMBS)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                 _("%u distinct limbs; ActiveWorlds allows at most %d per model"), n_limbs, AW_DX_MAX_LIMBS);
  else if (n_limbs > AW_DX_SAFE_LIMBS)
    _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, 0, -1,
                 _("%u distinct limbs; the DX animation page allows 64 but the Tag page only 62"), n_limbs);

  if (clip->source != NULL && !sq_clip_is_modified (clip))
    validate_aw_dx_lines (clip->source, findings);
}

static void
validate_aw (const SqClip *clip,
             GPtrArray    *findings)
{
  gboolean text = clip->format != NULL && g_str_equal (clip->format->id, "seq-text");
  gssize root = sq_clip_get_root_index (clip);
  double last_frame_time = clip->duration;

  /* .x files: the DirectX profile has rules of its own */
  if (clip->format != NULL && g_str_equal (clip->format->id, "dx"))
    {
      validate_aw_dx (clip, findings);
      return;
    }
  if (clip->n_joints == 0)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1, _("the animation has no joints"));

  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqJoint *joint = &clip->joints[j];
      const SqTrack *rot = &joint->tracks[SQ_CHANNEL_ROTATION];

      if (sq_aw_joint_tag (joint->name) == 0)
        _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_ROTATION, -1,
                     _("joint “%s” is not one of the 42 ActiveWorlds joint names: ActiveWorlds ignores it"),
                     joint->name);
      else if (sq_aw_joint_tag (joint->name) > 31 && sq_aw_joint_tag (joint->name) <= 42)
        _sq_add_finding (findings, SQ_SEVERITY_INFO, j, SQ_CHANNEL_ROTATION, -1,
                     _("joint “%s” (tag %u) works only in ActiveWorlds 3.6 and later"),
                     joint->name, sq_aw_joint_tag (joint->name));
      if (j > 0 && sq_clip_find_joint (clip, joint->name) != (gssize) j)
        _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_ROTATION, -1,
                     _("joint “%s” appears more than once"), joint->name);

      for (gsize k = 0; k < rot->n_keys; k++)
        {
          const SqKey key = sq_track_key (rot, k);
          const double *q = key.v;
          double n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];

          if (!isfinite (n))
            _sq_add_finding (findings, SQ_SEVERITY_ERROR, j, SQ_CHANNEL_ROTATION, k,
                         _("joint “%s” key %zu (frame %d): the rotation is not a finite number"),
                         joint->name, k + 1, sq_clip_time_to_frame (clip, sq_track_time (rot, k)));
          else if (fabs (n - 1.0) > 1e-3)
            _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_ROTATION, k,
                         _("joint “%s” key %zu (frame %d): the quaternion's length is %.4f, not 1"),
                         joint->name, k + 1, sq_clip_time_to_frame (clip, sq_track_time (rot, k)), sqrt (n));
          if (sq_track_time (rot, k) < -1e-9)
            _sq_add_finding (findings, SQ_SEVERITY_ERROR, j, SQ_CHANNEL_ROTATION, k,
                         _("joint “%s” key %zu: frame %d is before the first frame"),
                         joint->name, k + 1, sq_clip_time_to_frame (clip, sq_track_time (rot, k)));
          else if (sq_track_time (rot, k) > last_frame_time + 1e-9)
            _sq_add_finding (findings, text ? SQ_SEVERITY_ERROR : SQ_SEVERITY_WARNING, j, SQ_CHANNEL_ROTATION, k,
                         _("joint “%s” key %zu at %.3f s (frame %d) is after the end of the animation (%.3f s)"),
                         joint->name, k + 1, sq_track_time (rot, k),
                         sq_clip_time_to_frame (clip, sq_track_time (rot, k)), clip->duration);
        }

      if (text)
        {
          if (rot->n_keys < 2)
            _sq_add_finding (findings, SQ_SEVERITY_ERROR, j, SQ_CHANNEL_ROTATION, -1,
                         _("limb “%s” has %zu key(s); text SEQ needs at least two"),
                         joint->name, rot->n_keys);
          if (rot->n_keys > 0 && sq_track_time (rot, 0) != 0.0)
            _sq_add_finding (findings, SQ_SEVERITY_ERROR, j, SQ_CHANNEL_ROTATION, 0,
                         _("limb “%s”: the first key is at %.0f ms; text SEQ needs one at 0"),
                         joint->name, sq_track_time (rot, 0) * 1000.0);
          if (rot->n_keys > 0 && sq_track_time (rot, rot->n_keys - 1) <= 0.0)
            _sq_add_finding (findings, SQ_SEVERITY_ERROR, j, SQ_CHANNEL_ROTATION, rot->n_keys - 1,
                         _("limb “%s” has no key after 0 ms"), joint->name);
          if ((gssize) j != root && joint->tracks[SQ_CHANNEL_SCALE].n_keys > 0)
            _sq_add_finding (findings, SQ_SEVERITY_INFO, j, SQ_CHANNEL_SCALE, -1,
                         _("limb “%s”: ActiveWorlds ignores scale keys"), joint->name);
        }
    }

  if (text && clip->duration <= 0)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1, _("the duration is 0 ms; text SEQ needs a key after 0"));

  if (!text)
    {
      const SqTrack *loc = root >= 0 ? &clip->joints[root].tracks[SQ_CHANNEL_TRANSLATION] : NULL;
      gssize first = loc ? sq_track_find (loc, 0.0) : -1;

      if (!sq_props_get_bool (clip->extra, "blocks-present", TRUE) && (loc == NULL || loc->n_keys == 0))
        _sq_add_finding (findings, SQ_SEVERITY_INFO, -1, 0, -1,
                     _("the file has no location blocks (like the wave animations): LifeForms cannot read it, ActiveWorlds can"));
      else if (first < 0 || (loc->present && loc->present[first] != SQ_PRESENT_ALL))
        _sq_add_finding (findings, SQ_SEVERITY_ERROR, root, SQ_CHANNEL_TRANSLATION, -1,
                     _("no location X, Y and Z for frame 1: ActiveWorlds places the avatar at random (use Set First Frame)"));
      else if (sq_track_key (loc, first).v[0] != 0 || sq_track_key (loc, first).v[1] != 0 || sq_track_key (loc, first).v[2] != 0)
        _sq_add_finding (findings, SQ_SEVERITY_INFO, root, SQ_CHANNEL_TRANSLATION, first,
                     _("the location at frame 1 is (%g, %g, %g), not (0, 0, 0)"),
                     sq_track_key (loc, first).v[0], sq_track_key (loc, first).v[1], sq_track_key (loc, first).v[2]);
      if (clip->root[0] != '\0' && g_ascii_strcasecmp (clip->root, "pelvis") != 0)
        _sq_add_finding (findings, SQ_SEVERITY_INFO, root, SQ_CHANNEL_ROTATION, -1,
                     _("the root joint is called “%s”; ActiveWorlds animations call it “pelvis”"), clip->root);
      for (gsize j = 0; j < clip->n_joints; j++)
        if ((gssize) j != root && clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION].n_keys > 0)
          _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_TRANSLATION, -1,
                       _("joint “%s” has translations; only the root moves in binary SEQ"), clip->joints[j].name);
    }
}


/* ---- Second Life ------------------------------------------------------------ */

/* formats.md 1.5 (LLKeyframeMotion::deserialize) and 1.6 (upload) */
#define SL_MAX_SIZE          250000
#define SL_MAX_DURATION      60.0
#define SL_MAX_JOINTS        216
#define SL_MAX_CONSTRAINTS   10
#define SL_MAX_SAFE_CHAIN    3
#define SL_NUM_HAND_POSES    14
#define SL_MAX_PRIORITY      6
#define SL_POS_RANGE         5.0
#define SL_CONSTRAINTS_TYPE  "a(yyay(ddd)ay(ddd)(ddd)dddd)"
/* what the sl-anim writer uses for a clip without these fields (sq-fields.h) */
#define SL_DEFAULT_PRIORITY  SQ_SL_DEFAULT_PRIORITY
#define SL_DEFAULT_EASE      SQ_SL_DEFAULT_EASE
#define SL_DEFAULT_HAND      SQ_SL_DEFAULT_HAND_POSE

/* the value as the writer stores it, in single precision */
static double
sl_f32 (double v)
{
  return sq_float_bits_to_double (sq_double_to_float_bits (v));
}

static char *
sl_volume_name (GVariant *field)
{
  gsize n;
  const guint8 *p = g_variant_get_fixed_array (field, &n, 1);
  const guint8 *nul = memchr (p, 0, MIN (n, 16));

  /* the viewer terminates the 16 bytes at the first NUL, or at byte 16 */
  return _sq_latin1_to_utf8 (p, nul ? (gsize) (nul - p) : MIN (n, 15));
}

/* The clip's joint that a skeleton bone is, by its name or an alias */
static gssize
sl_find_bone (const SqClip *clip,
              const char   *bone)
{
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const char *b = NULL;
      SqSlNameKind kind = sq_sl_lookup_name (clip->joints[j].name, &b);

      if ((kind == SQ_SL_NAME_BONE || kind == SQ_SL_NAME_ALIAS) && g_strcmp0 (b, bone) == 0)
        return j;
    }
  return -1;
}

static void
validate_sl_constraints (const SqClip *clip,
                         GPtrArray    *findings)
{
  GVariant *v = sq_props_get (clip->extra, "constraints");
  GVariant *count_v = sq_props_get (clip->extra, "constraint-count");
  gsize n = 0;

  if (count_v != NULL && g_variant_is_of_type (count_v, G_VARIANT_TYPE_INT32)
      && (v == NULL || g_variant_n_children (v) == 0))
    {
      _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, 0, -1,
                   _("the constraint count %d is out of range: Second Life ignores the constraints"),
                   g_variant_get_int32 (count_v));
      return;
    }
  if (v == NULL || !g_variant_is_of_type (v, G_VARIANT_TYPE (SL_CONSTRAINTS_TYPE)))
    return;
  n = g_variant_n_children (v);
  if (n > SL_MAX_CONSTRAINTS)
    {
      _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, 0, -1,
                   _("%zu constraints, more than %d: Second Life ignores them all"), n, SL_MAX_CONSTRAINTS);
      return;
    }

  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) c = g_variant_get_child_value (v, i);
      g_autoptr(GVariant) src = NULL, dst = NULL;
      g_autofree char *src_name = NULL, *dst_name = NULL;
      guint8 chain, type;
      double so[3], to[3], dir[3], e[4];
      const char *bone;
      gssize joint;
      gboolean finite = TRUE;

      g_variant_get (c, "(yy@ay(ddd)@ay(ddd)(ddd)dddd)", &chain, &type, &src, &so[0], &so[1], &so[2],
                     &dst, &to[0], &to[1], &to[2], &dir[0], &dir[1], &dir[2], &e[0], &e[1], &e[2], &e[3]);
      src_name = sl_volume_name (src);
      dst_name = sl_volume_name (dst);
      bone = sq_sl_collision_volume_bone (src_name);
      joint = bone ? sl_find_bone (clip, bone) : -1;

      if (chain > SL_MAX_SAFE_CHAIN)
        _sq_add_finding (findings, SQ_SEVERITY_ERROR, joint, SQ_CHANNEL_ROTATION, -1,
                     _("constraint %zu: chain length %u is more than %d; the viewer's arrays hold 4 joints "
                       "and it crashes or misplays"), i + 1, chain, SL_MAX_SAFE_CHAIN);
      if (chain > clip->n_joints)
        _sq_add_finding (findings, SQ_SEVERITY_ERROR, joint, SQ_CHANNEL_ROTATION, -1,
                     _("constraint %zu: chain length %u is more than the %zu joints of the animation"),
                     i + 1, chain, clip->n_joints);
      if (type > 1)
        _sq_add_finding (findings, SQ_SEVERITY_ERROR, joint, SQ_CHANNEL_ROTATION, -1,
                     _("constraint %zu: type %u is neither 0 (point) nor 1 (plane)"), i + 1, type);
      if (bone == NULL)
        _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, SQ_CHANNEL_ROTATION, -1,
                     _("constraint %zu: the source volume “%s” is not a collision volume"), i + 1, src_name);
      if (strcmp (dst_name, "GROUND") != 0 && sq_sl_collision_volume_bone (dst_name) == NULL)
        _sq_add_finding (findings, SQ_SEVERITY_ERROR, joint, SQ_CHANNEL_ROTATION, -1,
                     _("constraint %zu: the target volume “%s” is neither GROUND nor a collision volume"),
                     i + 1, dst_name);
      for (int k = 0; k < 3; k++)
        finite = finite && isfinite (sl_f32 (so[k])) && isfinite (sl_f32 (to[k])) && isfinite (sl_f32 (dir[k]));
      for (int k = 0; k < 4; k++)
        finite = finite && isfinite (sl_f32 (e[k]));
      if (!finite)
        _sq_add_finding (findings, SQ_SEVERITY_ERROR, joint, SQ_CHANNEL_ROTATION, -1,
                     _("constraint %zu: an offset, the direction or an ease time is not a finite number"), i + 1);

      /* the chain: the volume's bone and chain length more parents, each one
       * of the animation's joints */
      if (bone != NULL && chain <= SL_MAX_SAFE_CHAIN)
        {
          const char *b = bone;

          for (guint k = 0; k <= chain; k++)
            {
              if (b == NULL)
                {
                  _sq_add_finding (findings, SQ_SEVERITY_ERROR, joint, SQ_CHANNEL_ROTATION, -1,
                               _("constraint %zu: the chain of %u from “%s” goes past the skeleton's root"),
                               i + 1, chain, src_name);
                  break;
                }
              if (sl_find_bone (clip, b) < 0)
                {
                  _sq_add_finding (findings, SQ_SEVERITY_ERROR, joint, SQ_CHANNEL_ROTATION, -1,
                               _("constraint %zu: the chain from “%s” needs joint “%s”, which the animation "
                                 "does not have"), i + 1, src_name, b);
                  break;
                }
              b = sq_sl_bone_parent (b);
            }
        }
    }
}

static void
validate_sl (const SqClip *clip,
             GPtrArray    *findings)
{
  const SqProps *x = clip->extra;
  gint64 base = sq_props_get_int (x, "priority", SL_DEFAULT_PRIORITY);
  gint64 hand = sq_props_get_int (x, "hand-pose", SL_DEFAULT_HAND);
  double duration = sl_f32 (clip->duration);
  const char *fields[] = { "loop-in", "loop-out", "ease-in", "ease-out" };
  const char *labels[] = { N_("loop in point"), N_("loop out point"), N_("ease in time"), N_("ease out time") };
  double defaults[] = { 0.0, clip->duration, SL_DEFAULT_EASE, SL_DEFAULT_EASE };

  /* the exact size of the file Second Life gets */
  {
    SqSaveOptions options = { .no_source_copy = TRUE };
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) bytes = sq_save_bytes (clip, sq_format_by_id ("sl-anim"), &options, NULL, &error);

    if (bytes == NULL)
      _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                   _("the animation cannot be written as a Second Life animation: %s"), error->message);
    else if (g_bytes_get_size (bytes) > SL_MAX_SIZE)
      _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                   _("the animation is %zu bytes as a Second Life animation, more than the upload limit of "
                     "%d bytes"), g_bytes_get_size (bytes), SL_MAX_SIZE);
  }

  if (!isfinite (duration) || duration > SL_MAX_DURATION)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                 _("the animation lasts %.3f s; Second Life allows at most %.0f s"), clip->duration, SL_MAX_DURATION);

  if (base < -1)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                 _("the base priority %" PRId64 " is below -1: Second Life rejects the animation"), base);
  else if (base > SL_MAX_PRIORITY)
    _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, 0, -1,
                 _("the base priority %" PRId64 " is above %d: Second Life uses %d"), base, SL_MAX_PRIORITY,
                 SL_MAX_PRIORITY);

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    if (!isfinite (sl_f32 (sq_props_get_double (x, fields[i], defaults[i]))))
      _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1, _("the %s is not a finite number"),
                   g_dgettext (GETTEXT_PACKAGE, labels[i]));

  if (hand < 0 || hand > SL_NUM_HAND_POSES)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                 _("hand pose %" PRId64 " is not one of 0–13: Second Life rejects the animation"), hand);
  else if (hand == SL_NUM_HAND_POSES)
    _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, 0, -1,
                 _("hand pose 14 is not one of 0–13; the viewer accepts it only through an off-by-one error"));

  if (clip->n_joints == 0)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1, _("the animation has no joints"));
  else if (clip->n_joints > SL_MAX_JOINTS)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                 _("the animation has %zu joints; Second Life allows at most %d"), clip->n_joints, SL_MAX_JOINTS);

  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqJoint *joint = &clip->joints[j];
      gint64 prio = sq_props_get_int (joint->extra, "priority", base);
      SqSlNameKind kind = sq_sl_lookup_name (joint->name, NULL);

      if (kind == SQ_SL_NAME_SPECIAL)
        _sq_add_finding (findings, SQ_SEVERITY_ERROR, j, SQ_CHANNEL_ROTATION, -1,
                     _("joint “%s” cannot be animated: Second Life rejects the animation"), joint->name);
      else if (kind == SQ_SL_NAME_UNKNOWN)
        _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_ROTATION, -1,
                     _("joint “%s” is not a Second Life joint name: viewers ignore it, and the upload of the "
                       "file refuses it"), joint->name);
      if (j > 0 && sq_clip_find_joint (clip, joint->name) != (gssize) j)
        _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_ROTATION, -1,
                     _("joint “%s” appears more than once"), joint->name);

      if (prio < -1)
        _sq_add_finding (findings, SQ_SEVERITY_ERROR, j, SQ_CHANNEL_ROTATION, -1,
                     _("joint “%s”: priority %" PRId64 " is below -1: Second Life rejects the animation"),
                     joint->name, prio);
      else if (prio > SL_MAX_PRIORITY)
        _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_ROTATION, -1,
                     _("joint “%s”: priority %" PRId64 " is above %d, the highest Second Life priority"),
                     joint->name, prio, SL_MAX_PRIORITY);

      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        {
          const SqTrack *t = &joint->tracks[c];
          gboolean rot = c == SQ_CHANNEL_ROTATION;

          if (c == SQ_CHANNEL_SCALE)
            {
              if (t->n_keys > 0)
                _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, c, -1,
                             _("joint “%s”: %zu scale keys; Second Life animations have no scale"),
                             joint->name, t->n_keys);
              continue;
            }
          for (gsize k = 0; k < t->n_keys; k++)
            {
              const SqKey key_value = sq_track_key (t, k), *key = &key_value;
              double time = key->time;

              if (!isfinite (time) || !isfinite (key->v[0]) || !isfinite (key->v[1]) || !isfinite (key->v[2])
                  || (rot && !isfinite (key->v[3])))
                {
                  _sq_add_finding (findings, SQ_SEVERITY_ERROR, j, c, k,
                               rot ? _("joint “%s” rotation key %zu: a number is not finite")
                                   : _("joint “%s” position key %zu: a number is not finite"),
                               joint->name, k + 1);
                  continue;
                }
              if (time < -1e-9 || time > clip->duration + 1e-9)
                _sq_add_finding (findings, rot ? SQ_SEVERITY_ERROR : SQ_SEVERITY_WARNING, j, c, k,
                             rot ? _("joint “%s” rotation key %zu at %.4f s is outside the animation (0–%.4f s)")
                                 : _("joint “%s” position key %zu at %.4f s is outside the animation (0–%.4f s); "
                                     "it is moved to the nearest end"),
                             joint->name, k + 1, time, clip->duration);
              if (!rot)
                {
                  /* in metres on SL's axes, as the file would be written */
                  double m[3];

                  if (clip->format != NULL && clip->format->space != NULL)
                    sq_space_vector_to_sl (clip->format->space, key->v, m);
                  else
                    memcpy (m, key->v, sizeof m);
                  if (fabs (m[0]) > SL_POS_RANGE || fabs (m[1]) > SL_POS_RANGE || fabs (m[2]) > SL_POS_RANGE)
                    _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, c, k,
                                 _("joint “%s” position key %zu (%g, %g, %g m) lies beyond ±5 m and is clamped"),
                                 joint->name, k + 1, m[0], m[1], m[2]);
                }
            }
        }
    }

  validate_sl_constraints (clip, findings);
}

/* ---- every world ------------------------------------------------------------ */

/* A looping clip (the Second Life loop fields, which any clip takes) whose
 * pose at the loop-out point differs from the pose at loop-in: the loop
 * jumps there. One warning per joint beyond SQ_LOOP_SEAM_DEGREES;
 * --close-loop (sq_edit_close_loop_new) removes the seam. */
static void
validate_loop_seam (const SqClip *clip,
                    GPtrArray    *findings)
{
  double in = sq_props_get_double (clip->extra, "loop-in", 0.0);
  double out = sq_props_get_double (clip->extra, "loop-out", clip->duration);

  if (sq_props_get_int (clip->extra, "loop", 0) == 0 || !isfinite (in) || !isfinite (out) || !(out > in))
    return;
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqTrack *t = &clip->joints[j].tracks[SQ_CHANNEL_ROTATION];
      double a[4], b[4], d;

      if (t->n_keys < 2)
        continue;
      sq_track_sample (t, SQ_CHANNEL_ROTATION, in, a);
      sq_track_sample (t, SQ_CHANNEL_ROTATION, out, b);
      d = sq_quat_angle_between (a, b);
      if (d > SQ_LOOP_SEAM_DEGREES)
        _sq_add_finding (findings, SQ_SEVERITY_WARNING, (gssize) j, SQ_CHANNEL_ROTATION, -1,
                     _("joint “%s” is %.1f° away at the loop's end (%.3f s) from where the loop starts (%.3f s): "
                       "the loop jumps; Close the Loop removes the seam"),
                     clip->joints[j].name, d, out, in);
    }
}

/* ---- what saving as .anim does ------------------------------------------------ */

void
sq_validate_add_sl_loss (const SqClip *clip,
                         GPtrArray    *findings)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SqDiff) loss = sq_diff_sl_loss (clip, NULL, &error);

  if (loss == NULL)
    {
      _sq_add_finding (findings, SQ_SEVERITY_INFO, -1, 0, -1, _("the .anim encoding's loss is unknown: %s"),
                   error->message);
      return;
    }
  _sq_add_finding (findings, SQ_SEVERITY_INFO, -1, 0, -1,
               _("saved as .anim, rotations move by up to %.3g° and positions by up to %.3g m"),
               loss->rotation, loss->translation);
  for (guint i = 0; i < loss->joints->len; i++)
    {
      const SqJointDiff *d = &g_array_index (loss->joints, SqJointDiff, i);
      gssize j = sq_clip_find_joint (clip, d->name);

      if (d->in_a && d->in_b
          && (d->rotation > SQ_LOSS_NOTE_DEGREES || d->translation > SQ_LOSS_NOTE_METRES))
        _sq_add_finding (findings, SQ_SEVERITY_INFO, j, SQ_CHANNEL_ROTATION, -1,
                     _("joint “%s” saved as .anim: rotation off by up to %.3g° (at %.3f s), position by up to "
                       "%.3g m (at %.3f s)"),
                     d->name, d->rotation, d->rotation_time, d->translation, d->translation_time);
    }
}

static const char * const targets[] = { "aw", "sl", "sims", NULL };

const char * const *
sq_validate_targets (void)
{
  return targets;
}

GPtrArray *
sq_validate (const SqClip *clip,
             const char   *target,
             GError      **error)
{
  GPtrArray *findings;

  if (g_strcmp0 (target, "aw") != 0 && g_strcmp0 (target, "sl") != 0 && g_strcmp0 (target, "sims") != 0)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                   _("Unknown target “%s” (known: aw, sl, sims)"), target);
      return NULL;
    }
  findings = g_ptr_array_new_with_free_func (finding_free);
  if (g_str_equal (target, "sl"))
    validate_sl (clip, findings);
  else if (g_str_equal (target, "sims"))
    sq_sims_validate (clip, findings);
  else
    validate_aw (clip, findings);
  validate_loop_seam (clip, findings);
  return findings;
}

/* A validation fails on anything the target rejects or ignores. */
gboolean
sq_findings_have_errors (GPtrArray *findings)
{
  for (guint i = 0; i < findings->len; i++)
    if (((SqFinding *) findings->pdata[i])->severity >= SQ_SEVERITY_WARNING)
      return TRUE;
  return FALSE;
}
