/* sq-world-aw.c: ActiveWorlds: its conventions, validation and fields
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-world-aw"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "worlds/sq-aw-skeleton.h"
#include "sq-convert.h"
#include "sq-fields.h"
#include "sq-private.h"
#include "sq-validate.h"
#include "sq-world.h"
#include "worlds/sq-world-aw.h"

/* ---- conventions ----------------------------------------------------------- */

/* formats.md 4.1: the avatar faces -Z in a SEQ's numbers, Y up, X its
 * left: SL (x, y, z) = SEQ (-z, x, y), so a rotation (w, x, y, z) is SL
 * (w, z, -x, -y) (a mirror: the axes are left-handed against Second
 * Life's). The .x profile is the same avatar on the same axes, its
 * rotations stored conjugated (3.5); its units are taken as metres like
 * SEQ's (UNCONFIRMED). */
const SqSpace sq_space_aw_seq_binary = {
  .world = N_("ActiveWorlds"),
  .world_id = SQ_WORLD_ACTIVEWORLDS,
  .metres_per_unit = 1.0,
  .axis = { 1, 2, 0 },
  .sign = { 1, 1, -1 },
  .scheme = SQ_JOINT_SCHEME_AW_SEQ,
  .time_grid = 30,
  .frame_base = 1,
};

const SqSpace sq_space_aw_seq_text = {
  .world = N_("ActiveWorlds"),
  .world_id = SQ_WORLD_ACTIVEWORLDS,
  .metres_per_unit = 1.0,
  .axis = { 1, 2, 0 },
  .sign = { 1, 1, -1 },
  .scheme = SQ_JOINT_SCHEME_AW_SEQ,
  .time_grid = 1000,
  .frame_base = 1,
};

const SqSpace sq_space_aw_dx = {
  .world = N_("ActiveWorlds DirectX"),
  .world_id = SQ_WORLD_ACTIVEWORLDS,
  .metres_per_unit = 1.0,
  .axis = { 1, 2, 0 },
  .sign = { 1, 1, -1 },
  .conjugate = TRUE,
  .scheme = SQ_JOINT_SCHEME_AW_DX,
  .time_grid = -1,
  /* AnimTicksPerSecond: whole numbers, 2-200 for ActiveWorlds */
  .fps_min = 2,
  .fps_max = 200,
};

/* ---- validation: the DirectX profile (formats.md 3.6, 4) -------------------- */

/* findings of each kind about the file's lines, before a count of the rest */
#define MAX_LINE_FINDINGS 20

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
      if (text_end - start > SQ_AW_DX_MAX_LINE && n_long++ < MAX_LINE_FINDINGS)
        _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                     _("line %u is %zu characters long; ActiveWorlds reads at most %d"),
                     line, text_end - start, SQ_AW_DX_MAX_LINE);
      if (bare && !crlf && n_bad_end++ < MAX_LINE_FINDINGS)
        _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                     d[text_end] == '\n' ? _("line %u ends with LF alone; ActiveWorlds needs CRLF line ends")
                                         : _("line %u ends with CR alone; ActiveWorlds needs CRLF line ends"),
                     line);
      line++;
      start = end;
    }
  if (n_long > MAX_LINE_FINDINGS)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                 _("%zu more lines are longer than %d characters"), n_long - MAX_LINE_FINDINGS, SQ_AW_DX_MAX_LINE);
  if (n_bad_end > MAX_LINE_FINDINGS)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                 _("%zu more lines do not end with CRLF"), n_bad_end - MAX_LINE_FINDINGS);
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
                 g_variant_get_string (v, NULL), SQ_AW_DX_HEADER);
  if ((v = sq_props_get (clip->extra, "other_sets")) != NULL && g_variant_n_children (v) > 0 && clip->take == 0)
    _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, 0, -1,
                 _("the file holds %zu AnimationSets; ActiveWorlds plays only the first"),
                 g_variant_n_children (v) + 1);
  else if (v != NULL && g_variant_n_children (v) > 0)
    _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, 0, -1,
                 _("the file holds %zu AnimationSets and this is set %u; ActiveWorlds plays only the first"),
                 g_variant_n_children (v) + 1, clip->take + 1);
  if (!(clip->fps >= SQ_AW_DX_MIN_TICKS && clip->fps <= SQ_AW_DX_MAX_TICKS))
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                 _("AnimTicksPerSecond is %g; ActiveWorlds takes %d to %d"), clip->fps, SQ_AW_DX_MIN_TICKS,
                 SQ_AW_DX_MAX_TICKS);
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
  if (n_limbs > SQ_AW_DX_MAX_LIMBS)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                 _("%u distinct limbs; ActiveWorlds allows at most %d per model"), n_limbs, SQ_AW_DX_MAX_LIMBS);
  else if (n_limbs > SQ_AW_DX_SAFE_LIMBS)
    _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, 0, -1,
                 _("%u distinct limbs; the DX animation page allows %d but the Tag page only %d"), n_limbs,
                 SQ_AW_DX_MAX_LIMBS, SQ_AW_DX_SAFE_LIMBS);

  if (clip->source != NULL && !sq_clip_is_modified (clip))
    validate_aw_dx_lines (clip->source, findings);
}

void
sq_aw_validate (const SqClip *clip,
                GPtrArray    *findings)
{
  gboolean text = clip->format != NULL && clip->format == &_sq_format_seq_text;
  gssize root = sq_clip_get_root_index (clip);
  double last_frame_time = clip->duration;

  /* .x files: the DirectX profile has rules of its own */
  if (clip->format != NULL && clip->format == &_sq_format_dx)
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

/* ---- .x fields ------------------------------------------------------------- */

static void
get_ticks (const SqClip *clip, gssize joint, SqFieldValue *out)
{
  out->number = clip->fps;
}

static SqEdit *
edit_ticks (const SqClip *clip, const char *joint, const SqFieldValue *value)
{
  return sq_edit_set_frame_rate_new (value->number);
}

static void
get_set_name (const SqClip *clip, gssize joint, SqFieldValue *out)
{
  out->text = g_strdup (sq_dx_set_name (clip));
}

static SqEdit *
edit_set_name (const SqClip *clip, const char *joint, const SqFieldValue *value)
{
  return sq_edit_dx_set_name_new (value->text != NULL ? value->text : "");
}

static const SqField dx_fields[] = {
  /* whole ticks, and frame times within the frame rate edit's range */
  { .key = "ticks-per-second", .label = N_("_Ticks per second"),
    .description = N_("AnimTicksPerSecond: the key times count in these ticks"),
    .type = SQ_FIELD_DOUBLE, .min = 1, .max = 1.0 / SQ_MIN_FRAME_TIME, .step = 1, .digits = 0,
    .get = get_ticks, .edit = edit_ticks,
    .option = "frame-rate", .arg = "FPS",
    .help = "frames (.x: ticks, whole) per second; keys keep their frame numbers: plays faster or slower" },
  { .key = "set-name", .label = N_("A_nimation set"), .description = N_("The name of the AnimationSet, blank for none"),
    .type = SQ_FIELD_TEXT, .placeholder = N_("No name"), .get = get_set_name, .edit = edit_set_name,
    .option = "set-name", .arg = "NAME", .help = "the .x AnimationSet name (\"\" for none)" },
};

const SqFieldSet sq_dx_fields = {
  .title = N_("DirectX Animation"),
  .fields = dx_fields,
  .n_fields = G_N_ELEMENTS (dx_fields),
};

/* ---- the world ---- */

/* ---- the skeleton (formats.md 4, 4.1) -------------------------------------- */

/* The classic avatar: Second Life's skeleton by the limbs' names (the
 * nearest known proportions) standing with its arms hanging at its sides;
 * a .x whose frames its joints name stands in its frames */
static gssize
aw_rest_arrays (const SqClip   *clip,
                const SqFormat *format,
                gint32         *parent,
                double        (*offset)[3],
                gboolean       *from_file)
{
  gsize n = clip->n_joints;
  g_autofree guint *tags = NULL;
  gssize root;

  *from_file = FALSE;
  if (format != NULL && format->space == &sq_space_aw_dx && sq_props_get (clip->extra, "frames") != NULL)
    {
      root = _sq_skeleton_rest (clip, parent, offset, from_file, NULL);
      if (*from_file)
        return root;
    }
  root = _sq_skeleton_by_names (clip, parent, offset);
  tags = g_new (guint, MAX (n, 1));
  for (gsize j = 0; j < n; j++)
    tags[j] = sq_aw_tag_for_name (clip->joints[j].name);
  if (root >= 0)
    parent[root] = -1;
  sq_aw_rest_arms_down (n, tags, parent, offset);
  return root;
}

static gssize
aw_rest_skeleton (const SqClip   *clip,
                  const SqFormat *format,
                  SqRest         *rest)
{
  return aw_rest_arrays (clip, format, rest->parent, rest->offset, &rest->from_file);
}

/* The classic avatar's pelvis and legs, parents first */
static const char * const aw_legs[] = {
  "pelvis", "lfhip", "lfknee", "lfankle", "lftoes", "rthip", "rtknee", "rtankle", "rttoes",
};

/* Metres from the classic avatar's lowest joint at rest (its toes: the
 * ball of the foot, on the ground) up to its pelvis, on the rest skeleton
 * above (aw_rest_skeleton: the limbs' offsets are Second Life's
 * avatar_skeleton.xml proportions by their names, formats.md 1 "Base 26"
 * and 4.1; SEQ units are metres, formats.md 4.1 "Units") */
static double
aw_rest_hip_height (void)
{
  gsize n = G_N_ELEMENTS (aw_legs);
  g_autoptr(SqClip) legs = sq_clip_new ();
  gint32 parent[G_N_ELEMENTS (aw_legs)];
  double offset[G_N_ELEMENTS (aw_legs)][3], z[G_N_ELEMENTS (aw_legs)], low;
  gboolean from_file;
  gssize root;

  for (gsize j = 0; j < n; j++)
    sq_clip_add_joint (legs, aw_legs[j]);
  root = aw_rest_arrays (legs, NULL, parent, offset, &from_file);
  if (root < 0)
    return 0;
  /* parents come first in aw_legs */
  for (gsize j = 0; j < n; j++)
    z[j] = offset[j][2] + (parent[j] >= 0 && (gsize) parent[j] < j ? z[parent[j]] : 0);
  low = z[root];
  for (gsize j = 0; j < n; j++)
    low = MIN (low, z[j]);
  return z[root] - low;
}

static double
aw_hip_height (void)
{
  static gsize done = 0;
  static double height;

  if (g_once_init_enter (&done))
    {
      height = aw_rest_hip_height ();
      g_once_init_leave (&done, 1);
    }
  return height;
}

/* ---- mirroring ------------------------------------------------------------ */

/* ActiveWorlds (X sideways): lfshoulder/rtshoulder, aw_lfhip/aw_rthip,
 * aw_hip_l/aw_hip_r; the .x files' rigs from modelling tools: B_Hip_Left,
 * Ear_L, HindLeg_L_01 (.x's conjugate rotations reflect alike: conjugation
 * and reflection commute) */
static const SqMirrorPair aw_pairs[] = {
  { SQ_MIRROR_PREFIX, "aw_lf", "aw_rt" },
  { SQ_MIRROR_PREFIX, "lf", "rt" },
  { SQ_MIRROR_SUFFIX, "_l", "_r" },
  { SQ_MIRROR_SUFFIX, "_L", "_R" },
  { SQ_MIRROR_INFIX, "_L_", "_R_" },
  { SQ_MIRROR_SUFFIX, "Left", "Right" },
  { 0, NULL, NULL },
};

static const SqMirror aw_mirror = {
  .pairs = aw_pairs,
  .lateral = 0,
};

static const SqMirror *
aw_mirror_of (const SqClip *clip)
{
  (void) clip;
  return &aw_mirror;
}

/* ---- new animations ---------------------------------------------------------- */

static const SqWorldNewClip aw_new_clips[] = {
  { "aw", N_("ActiveWorlds") },
  { NULL, NULL },
};

/* a binary SEQ of the humanoid's limbs (tags 1..22), pelvis first */
static SqClip *
aw_new_clip (const char      *variant G_GNUC_UNUSED,
             double           duration,
             double           fps,
             const SqFormat **through)
{
  static const double identity[4] = { 1, 0, 0, 0 }, zero[3] = { 0, 0, 0 };
  SqClip *clip = sq_clip_new ();

  clip->fps = fps;
  clip->duration = round (duration * fps) / fps > 0 ? round (duration * fps) / fps : duration;
  for (guint tag = 1; tag <= 22; tag++)
    sq_clip_add_held_joint (clip, sq_aw_seq_name (tag), identity, tag == 1 ? zero : NULL);
  *through = sq_format_by_id ("seq-binary");
  return clip;
}


/* ---- conversions (sq-convert.c) ---------------------------------------------- */

/* A limb's name in the other ActiveWorlds spelling (SEQ's pelvis, .x's
 * aw_pelvis), by its tag */
static const char *
aw_respell (const char    *name,
            SqJointScheme  scheme)
{
  guint tag = sq_aw_tag_for_name (name);

  if (tag == 0 || sq_joint_name_in_scheme (name, scheme))
    return name;
  /* a limb the other spelling has no name for: NULL, reported */
  return scheme == SQ_JOINT_SCHEME_AW_DX ? sq_aw_dx_name (tag) : sq_aw_seq_name (tag);
}

const SqWorldHome sq_world_aw = {
  .id = "aw",
  .name = N_("ActiveWorlds"),
  .validate = sq_aw_validate,

  /* ---- skeleton (sq-retarget.h) ---- */
  .rest_skeleton = aw_rest_skeleton,
  .hip_height = aw_hip_height,
  .mirror = aw_mirror_of,
  .new_clips = aw_new_clips,
  .new_clip = aw_new_clip,

  /* ---- conversions (sq-convert.c) ---- */
  .respell = aw_respell,
  .tag_parent = sq_aw_parent_tag,
  .root_tag = 1,
  .max_tag = SQ_AW_MAX_TAG,
};
