/* sq-world-sl.c: Second Life: its conventions, validation and fields
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-world-sl"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "sq-convert.h"
#include "sq-diff.h"
#include "sq-fields.h"
#include "sq-math.h"
#include "sq-private.h"
#include "worlds/sq-sl-skeleton.h"
#include "sq-validate.h"
#include "sq-world.h"
#include "worlds/sq-sl-behaviour.h"
#include "worlds/sq-world-sl.h"

/* ---- conventions ----------------------------------------------------------- */

const SqSpace sq_space_second_life = {
  .world = N_("Second Life"),
  .world_id = SQ_WORLD_SECOND_LIFE,
  .metres_per_unit = 1.0,
  .axis = { 0, 1, 2 },
  .sign = { 1, 1, 1 },
  .scheme = SQ_JOINT_SCHEME_SL,
  .time_grid = 0,
  /* key times are 16-bit steps of the duration (formats.md 1.8) */
  .duration_steps = 65535.0,
};

const SqSpace sq_space_bvh = {
  .world = N_("Second Life BVH"),
  .world_id = SQ_WORLD_MOTION_CAPTURE,
  .metres_per_unit = SQ_BVH_INCHES_TO_METRES,
  .unit_name = NC_("length unit", "in"),
  .axis = { 1, 2, 0 },
  .sign = { 1, 1, 1 },
  .scheme = SQ_JOINT_SCHEME_SL_BVH,
  .hierarchy = TRUE,
  .time_grid = -1,
};

/* ---- validation (formats.md 1.5: LLKeyframeMotion::deserialize, 1.6: upload) */

/* the value as the writer stores it, in single precision */
static double
sl_f32 (double v)
{
  return sq_float_bits_to_double (sq_double_to_float_bits (v));
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
  if (v == NULL || !g_variant_is_of_type (v, G_VARIANT_TYPE (SQ_SL_CONSTRAINTS_VARIANT_TYPE)))
    return;
  n = g_variant_n_children (v);
  if (n > SQ_SL_MAX_CONSTRAINTS)
    {
      _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, 0, -1,
                   _("%zu constraints, more than %d: Second Life ignores them all"), n, SQ_SL_MAX_CONSTRAINTS);
      return;
    }

  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) c = g_variant_get_child_value (v, i);
      g_autoptr(GVariant) src = NULL, dst = NULL;
      g_autofree char *src_name = NULL, *dst_name = NULL;
      SqSlConstraint r;
      const double *so = r.source_offset, *to = r.target_offset, *dir = r.target_dir;
      double e[4];
      guint8 chain, type;
      const char *bone;
      gssize joint;
      gboolean finite = TRUE;

      _sq_sl_constraint_unpack (c, &r, &src, &dst);
      chain = r.chain_length;
      type = r.type;
      e[0] = r.ease_in_start;
      e[1] = r.ease_in_stop;
      e[2] = r.ease_out_start;
      e[3] = r.ease_out_stop;
      /* the names in full, as the viewer reads them */
      src_name = _sq_sl_volume_name (src);
      dst_name = _sq_sl_volume_name (dst);
      bone = sq_sl_collision_volume_bone (src_name);
      joint = bone ? sl_find_bone (clip, bone) : -1;

      if (chain > SQ_SL_MAX_CHAIN_LENGTH)
        _sq_add_finding (findings, SQ_SEVERITY_ERROR, joint, SQ_CHANNEL_ROTATION, -1,
                     _("constraint %zu: chain length %u is more than %d; the viewer's arrays hold 4 joints "
                       "and it crashes or misplays"), i + 1, chain, SQ_SL_MAX_CHAIN_LENGTH);
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
      if (bone != NULL && chain <= SQ_SL_MAX_CHAIN_LENGTH)
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

void
sq_sl_validate (const SqClip *clip,
                GPtrArray    *findings)
{
  const SqProps *x = clip->extra;
  gint64 base = sq_props_get_int (x, "priority", SQ_SL_DEFAULT_PRIORITY);
  gint64 hand = sq_props_get_int (x, "hand-pose", SQ_SL_DEFAULT_HAND_POSE);
  double duration = sl_f32 (clip->duration);
  const char *fields[] = { "loop-in", "loop-out", "ease-in", "ease-out" };
  const char *labels[] = { N_("loop in point"), N_("loop out point"), N_("ease in time"), N_("ease out time") };
  double defaults[] = { 0.0, clip->duration, SQ_SL_DEFAULT_EASE, SQ_SL_DEFAULT_EASE };

  /* the exact size of the file Second Life gets */
  {
    SqSaveOptions options = { .no_source_copy = TRUE };
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) bytes = sq_save_bytes (clip, &_sq_format_sl_anim, &options, NULL, &error);

    if (bytes == NULL)
      _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                   _("the animation cannot be written as a Second Life animation: %s"), error->message);
    else if (g_bytes_get_size (bytes) > SQ_SL_UPLOAD_LIMIT)
      _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                   _("the animation is %zu bytes as a Second Life animation, more than the upload limit of "
                     "%d bytes"), g_bytes_get_size (bytes), SQ_SL_UPLOAD_LIMIT);
  }

  if (!isfinite (duration) || duration > SQ_SL_MAX_DURATION)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                 _("the animation lasts %.3f s; Second Life allows at most %.0f s"), clip->duration, SQ_SL_MAX_DURATION);

  if (base < SQ_SL_MIN_PRIORITY)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                 _("the base priority %" PRId64 " is below %d: Second Life rejects the animation"), base,
                 SQ_SL_MIN_PRIORITY);
  else if (base > SQ_SL_MAX_PRIORITY)
    _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, 0, -1,
                 _("the base priority %" PRId64 " is above %d: Second Life uses %d"), base, SQ_SL_MAX_PRIORITY,
                 SQ_SL_MAX_PRIORITY);

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    if (!isfinite (sl_f32 (sq_props_get_double (x, fields[i], defaults[i]))))
      _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1, _("the %s is not a finite number"),
                   g_dgettext (GETTEXT_PACKAGE, labels[i]));

  if (hand < 0 || hand > SQ_SL_N_HAND_POSES)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                 _("hand pose %" PRId64 " is not one of 0–%d: Second Life rejects the animation"), hand,
                 SQ_SL_N_HAND_POSES - 1);
  else if (hand == SQ_SL_N_HAND_POSES)
    _sq_add_finding (findings, SQ_SEVERITY_WARNING, -1, 0, -1,
                 _("hand pose %d is not one of 0–%d; the viewer accepts it only through an off-by-one error"),
                 SQ_SL_N_HAND_POSES, SQ_SL_N_HAND_POSES - 1);

  if (clip->n_joints == 0)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1, _("the animation has no joints"));
  else if (clip->n_joints > SQ_SL_MAX_JOINTS)
    _sq_add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1,
                 _("the animation has %zu joints; Second Life allows at most %d"), clip->n_joints, SQ_SL_MAX_JOINTS);

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

      if (prio < SQ_SL_MIN_PRIORITY)
        _sq_add_finding (findings, SQ_SEVERITY_ERROR, j, SQ_CHANNEL_ROTATION, -1,
                     _("joint “%s”: priority %" PRId64 " is below %d: Second Life rejects the animation"),
                     joint->name, prio, SQ_SL_MIN_PRIORITY);
      else if (prio > SQ_SL_MAX_PRIORITY)
        _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_ROTATION, -1,
                     _("joint “%s”: priority %" PRId64 " is above %d, the highest Second Life priority"),
                     joint->name, prio, SQ_SL_MAX_PRIORITY);

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
                  if (fabs (m[0]) > SQ_SL_POS_RANGE || fabs (m[1]) > SQ_SL_POS_RANGE || fabs (m[2]) > SQ_SL_POS_RANGE)
                    _sq_add_finding (findings, SQ_SEVERITY_WARNING, j, c, k,
                                 _("joint “%s” position key %zu (%g, %g, %g m) lies beyond ±%g m and is clamped"),
                                 joint->name, k + 1, m[0], m[1], m[2], SQ_SL_POS_RANGE);
                }
            }
        }
    }

  validate_sl_constraints (clip, findings);
  /* what the avatar does with it (formats.md 1.10a) */
  sq_sl_add_behaviour_findings (clip, findings);
}


/* ---- what saving as .anim does ------------------------------------------------ */

/* The clip's joint that the .anim calls `name`: the joint of that name, or
 * the one the conversion renamed to it (`report`'s "renamed:" lines); -1 */
static gssize
loss_joint (const SqClip *clip,
            GPtrArray    *report,
            const char   *name)
{
  gssize j = sq_clip_find_joint (clip, name);

  for (guint i = 0; j < 0 && i < report->len; i++)
    {
      const char *renamed = sq_loss_renamed (report->pdata[i]);
      const char *arrow = renamed != NULL ? strstr (renamed, " → ") : NULL;

      if (arrow != NULL && g_str_equal (arrow + strlen (" → "), name))
        {
          g_autofree char *old = g_strndup (renamed, arrow - renamed);

          j = sq_clip_find_joint (clip, old);
        }
    }
  return j;
}

/* The clip against the .anim written from it and read back */
SqDiff *
sq_diff_sl_loss (const SqClip *clip,
                 GPtrArray    *losses,
                 GPtrArray    *notes,
                 gsize        *size,
                 GError      **error)
{
  const SqFormat *sl = &_sq_format_sl_anim;
  SqSaveOptions options = { .notes = notes };
  g_autoptr(GBytes) bytes = sq_save_bytes (clip, sl, &options, losses, error);
  g_autoptr(SqClip) back = NULL;

  if (bytes == NULL || (back = sq_load_bytes (bytes, NULL, sl, NULL, error)) == NULL)
    return NULL;
  if (size != NULL)
    *size = g_bytes_get_size (bytes);
  return sq_diff_clips (clip, back, error);
}

void
sq_validate_add_sl_loss (const SqClip *clip,
                         GPtrArray    *findings)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) report = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SqDiff) loss = sq_diff_sl_loss (clip, report, NULL, NULL, &error);

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

      gssize j;

      if (!d->in_a || !d->in_b || !(d->rotation > SQ_LOSS_NOTE_DEGREES || d->translation > SQ_LOSS_NOTE_METRES))
        continue;
      /* named as the clip names it */
      j = loss_joint (clip, report, d->name);
      _sq_add_finding (findings, SQ_SEVERITY_INFO, j, SQ_CHANNEL_ROTATION, -1,
                   _("joint “%s” saved as .anim: rotation off by up to %.3g° (at %.3f s), position by up to "
                     "%.3g m (at %.3f s)"),
                   j >= 0 ? clip->joints[j].name : d->name, d->rotation, d->rotation_time, d->translation,
                   d->translation_time);
    }
}

/* ---- fields ---------------------------------------------------------------- */

static void
get_priority (const SqClip *clip, gssize joint, SqFieldValue *out)
{
  SqSlFields f;

  sq_sl_fields_get (clip, &f);
  out->number = f.priority;
}

static SqEdit *
edit_priority (const SqClip *clip, const char *joint, const SqFieldValue *value)
{
  return sq_edit_sl_priority_new ((gint32) value->number);
}

static void
get_loop (const SqClip *clip, gssize joint, SqFieldValue *out)
{
  SqSlFields f;

  sq_sl_fields_get (clip, &f);
  out->number = f.loop;
}

static SqEdit *
edit_loop (const SqClip *clip, const char *joint, const SqFieldValue *value)
{
  SqSlFields f;

  sq_sl_fields_get (clip, &f);
  return sq_edit_sl_loop_new (value->number != 0, f.loop_in, f.loop_out);
}

static void
get_loop_in (const SqClip *clip, gssize joint, SqFieldValue *out)
{
  SqSlFields f;

  sq_sl_fields_get (clip, &f);
  out->number = f.loop_in;
}

static SqEdit *
edit_loop_in (const SqClip *clip, const char *joint, const SqFieldValue *value)
{
  SqSlFields f;

  sq_sl_fields_get (clip, &f);
  return sq_edit_sl_loop_new (f.loop, value->number, f.loop_out);
}

static void
get_loop_out (const SqClip *clip, gssize joint, SqFieldValue *out)
{
  SqSlFields f;

  sq_sl_fields_get (clip, &f);
  out->number = f.loop_out;
}

static SqEdit *
edit_loop_out (const SqClip *clip, const char *joint, const SqFieldValue *value)
{
  SqSlFields f;

  sq_sl_fields_get (clip, &f);
  return sq_edit_sl_loop_new (f.loop, f.loop_in, value->number);
}

static void
get_ease_in (const SqClip *clip, gssize joint, SqFieldValue *out)
{
  SqSlFields f;

  sq_sl_fields_get (clip, &f);
  out->number = f.ease_in;
}

static SqEdit *
edit_ease_in (const SqClip *clip, const char *joint, const SqFieldValue *value)
{
  SqSlFields f;

  sq_sl_fields_get (clip, &f);
  return sq_edit_sl_ease_new (value->number, f.ease_out);
}

static void
get_ease_out (const SqClip *clip, gssize joint, SqFieldValue *out)
{
  SqSlFields f;

  sq_sl_fields_get (clip, &f);
  out->number = f.ease_out;
}

static SqEdit *
edit_ease_out (const SqClip *clip, const char *joint, const SqFieldValue *value)
{
  SqSlFields f;

  sq_sl_fields_get (clip, &f);
  return sq_edit_sl_ease_new (f.ease_in, value->number);
}

static void
get_hand_pose (const SqClip *clip, gssize joint, SqFieldValue *out)
{
  SqSlFields f;

  sq_sl_fields_get (clip, &f);
  out->number = f.hand_pose;
}

static SqEdit *
edit_hand_pose (const SqClip *clip, const char *joint, const SqFieldValue *value)
{
  return sq_edit_sl_hand_pose_new ((guint32) value->number);
}

static const char *
hand_pose_name (guint index)
{
  return sq_sl_hand_pose_name (index);
}

static void
get_emote (const SqClip *clip, gssize joint, SqFieldValue *out)
{
  SqSlFields f;

  sq_sl_fields_get (clip, &f);
  out->text = g_strdup (f.emote);
}

static SqEdit *
edit_emote (const SqClip *clip, const char *joint, const SqFieldValue *value)
{
  return sq_edit_sl_emote_new (value->text != NULL ? value->text : "");
}

static void
get_joint_priority (const SqClip *clip, gssize joint, SqFieldValue *out)
{
  out->number = joint >= 0 && (gsize) joint < clip->n_joints ? sq_sl_joint_priority (clip, joint) : 0;
}

static SqEdit *
edit_joint_priority (const SqClip *clip, const char *joint, const SqFieldValue *value)
{
  return sq_edit_sl_joint_priority_new (joint, (gint32) value->number);
}

/* A number as short as it reads: 3 significant digits, no −0 */
static char *
short_number (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (v == 0)
    v = 0;
  g_ascii_formatd (buf, sizeof buf, "%.3g", v);
  return g_strdup (buf);
}

static char *
format_offset (const double v[3])
{
  g_autofree char *x = short_number (v[0]);
  g_autofree char *y = short_number (v[1]);
  g_autofree char *z = short_number (v[2]);

  /* TRANSLATORS: an offset in metres: x, y, z */
  return g_strdup_printf (_("(%s, %s, %s)"), x, y, z);
}

static guint
constraint_count (const SqClip *clip)
{
  return sq_sl_constraint_count (clip);
}

/* A constraint's title, and its source, target and ease times a line each */
static char *
describe_constraint (const SqClip *clip,
                     guint         index,
                     char       ***details)
{
  SqSlConstraint c;
  const char *type;
  g_autofree char *type_text = NULL;
  g_autofree char *source_offset = NULL;
  g_autofree char *target_offset = NULL;
  g_autofree char *in0 = NULL, *in1 = NULL, *out0 = NULL, *out1 = NULL;
  char **lines = g_new0 (char *, 4);

  sq_sl_constraint_get (clip, index, &c);
  type = sq_sl_constraint_type_name (c.type);
  type_text = type != NULL ? g_strdup (type) : g_strdup_printf (_("Type %u"), c.type);
  source_offset = format_offset (c.source_offset);
  target_offset = format_offset (c.target_offset);
  in0 = short_number (c.ease_in_start);
  in1 = short_number (c.ease_in_stop);
  out0 = short_number (c.ease_out_start);
  out1 = short_number (c.ease_out_stop);
  /* TRANSLATORS: a constraint's source: a collision volume and an offset */
  lines[0] = g_strdup_printf (_("From %s %s"), c.source_volume, source_offset);
  /* TRANSLATORS: a constraint's target: a collision volume (or GROUND) and an offset */
  lines[1] = g_strdup_printf (_("To %s %s"), c.target_volume, target_offset);
  /* TRANSLATORS: a constraint's ease times in seconds: in from–to, out from–to */
  lines[2] = g_strdup_printf (_("Ease in %s–%s s, out %s–%s s"), in0, in1, out0, out1);
  *details = lines;
  /* TRANSLATORS: a constraint's title: its number, its type (Point or Plane)
   * and how many joints up the chain it moves */
  return g_strdup_printf (_("%u. %s, chain of %u"), index + 1, type_text, (guint) c.chain_length);
}

static SqEdit *
delete_constraint (const SqClip *clip,
                   guint         index)
{
  return sq_edit_sl_delete_constraint_new (index);
}

static char *
delete_constraint_label (guint index)
{
  /* TRANSLATORS: the tooltip of a constraint's delete button; %u is its number */
  return g_strdup_printf (_("Delete constraint %u"), index + 1);
}

static const SqField sl_fields[] = {
  { .key = "priority", .label = N_("_Priority"),
    .description = N_("Base priority of the animation: the higher one wins where two animations "
                      "move a joint"),
    .type = SQ_FIELD_INT, .flags = SQ_FIELD_HELP_RANGE, .min = SQ_SL_MIN_PRIORITY, .max = SQ_SL_MAX_PRIORITY,
    .step = 1, .get = get_priority, .edit = edit_priority,
    .option = "priority", .arg = "N", .help = "base priority" },
  { .key = "loop", .label = N_("_Loop"), .description = N_("Play the part between loop in and loop out again and again"),
    .type = SQ_FIELD_BOOL, .min = 0, .max = 1, .get = get_loop, .edit = edit_loop },
  { .key = "loop-in", .label = N_("Loop _in (s)"), .description = N_("Where the loop starts, in seconds"),
    .type = SQ_FIELD_DOUBLE, .min = 0, .max = SQ_FIELD_UNBOUNDED, .step = 0.1, .digits = 3, .enabled_by = "loop",
    .get = get_loop_in, .edit = edit_loop_in },
  { .key = "loop-out", .label = N_("Loop o_ut (s)"), .description = N_("Where the loop ends, in seconds"),
    .type = SQ_FIELD_DOUBLE, .min = 0, .max = SQ_FIELD_UNBOUNDED, .step = 0.1, .digits = 3, .enabled_by = "loop",
    .get = get_loop_out, .edit = edit_loop_out },
  { .key = "ease-in", .label = N_("_Ease in (s)"), .description = N_("Time to blend in from the avatar’s pose, in seconds"),
    .type = SQ_FIELD_DOUBLE, .min = 0, .max = SQ_FIELD_UNBOUNDED, .step = 0.1, .digits = 3,
    .get = get_ease_in, .edit = edit_ease_in },
  { .key = "ease-out", .label = N_("E_ase out (s)"),
    .description = N_("Time to blend out back to the avatar’s pose, in seconds"),
    .type = SQ_FIELD_DOUBLE, .min = 0, .max = SQ_FIELD_UNBOUNDED, .step = 0.1, .digits = 3,
    .get = get_ease_out, .edit = edit_ease_out },
  { .key = "hand-pose", .label = N_("_Hand pose"), .description = N_("The shape of the hands while the animation plays"),
    .type = SQ_FIELD_CHOICE, .flags = SQ_FIELD_HELP_RANGE, .min = 0, .max = SQ_SL_N_HAND_POSES - 1,
    .choice_name = hand_pose_name, .get = get_hand_pose, .edit = edit_hand_pose,
    .option = "hand-pose", .arg = "N", .help = "hand pose" },
  { .key = "emote", .label = N_("E_mote"), .description = N_("Facial expression played with the animation, blank for none"),
    .type = SQ_FIELD_TEXT, .max = SQ_SL_EMOTE_MAX_BYTES, .placeholder = N_("None"), .get = get_emote, .edit = edit_emote,
    .option = "emote", .arg = "NAME", .help = "emote name (Latin-1; \"\" for none)" },
  { .key = "joint-priority", .label = N_("_Joint priority"),
    .description = N_("Priority of the joint selected in the tree"),
    .type = SQ_FIELD_INT, .flags = SQ_FIELD_PER_JOINT | SQ_FIELD_HELP_RANGE,
    .min = SQ_SL_MIN_PRIORITY, .max = SQ_SL_MAX_PRIORITY, .step = 1,
    .get = get_joint_priority, .edit = edit_joint_priority,
    .option = "joint-priority", .arg = "JOINT=N", .help = "one joint's priority" },
  { .key = "constraints", .label = N_("Constraints"), .type = SQ_FIELD_LIST, .min = 0, .max = SQ_SL_MAX_CONSTRAINTS,
    .placeholder = N_("No constraints"), .n_items = constraint_count, .describe_item = describe_constraint,
    .delete_item = delete_constraint, .delete_label = delete_constraint_label },
};

const SqFieldSet sq_sl_fields = {
  .title = N_("Second Life Animation"),
  .fields = sl_fields,
  .n_fields = G_N_ELEMENTS (sl_fields),
  .format = &_sq_format_sl_anim,
  .kept_title = N_("Secon_d Life Fields"),
  .kept_description = N_("The Second Life fields this animation would be saved with"),
  .kept_note = N_("Used when the animation is saved as Second Life .anim."),
};

/* ---- BVH's frame time ---- */

static void
get_frame_time (const SqClip *clip, gssize joint, SqFieldValue *out)
{
  out->number = sq_clip_frame_time (clip);
}

static SqEdit *
edit_frame_time (const SqClip *clip, const char *joint, const SqFieldValue *value)
{
  return sq_edit_set_frame_time_new (value->number);
}

static const SqField bvh_fields[] = {
  { .key = "frame-time", .label = N_("_Frame time (s)"), .description = N_("Seconds from one frame to the next"),
    .type = SQ_FIELD_DOUBLE, .flags = SQ_FIELD_HELP_RANGE, .min = SQ_MIN_FRAME_TIME, .max = SQ_MAX_FRAME_TIME,
    .step = 0.001, .digits = 6, .get = get_frame_time, .edit = edit_frame_time,
    .option = "frame-time", .arg = "SECONDS", .help = "the same as BVH's Frame Time", .help_unit = "s" },
};

const SqFieldSet sq_bvh_fields = {
  .title = N_("BVH Motion"),
  .fields = bvh_fields,
  .n_fields = G_N_ELEMENTS (bvh_fields),
};

/* ---- the world ---- */

/* ---- the skeleton ------------------------------------------------------- */

/* A BVH of Second Life's own rig (its ROOT is one the importer takes): the
 * viewer reads its rotations as turns from Second Life's T-pose, whatever
 * its OFFSETs say (formats.md 1.9), and so does Sequin */
static gboolean
sl_rig (const SqClip *clip)
{
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      GVariant *v = sq_props_get (clip->joints[j].extra, "parent");

      if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_INT32) && g_variant_get_int32 (v) < 0)
        return g_strcmp0 (clip->joints[j].name, "hip") == 0 || g_strcmp0 (clip->joints[j].name, "mPelvis") == 0
               || g_strcmp0 (clip->joints[j].name, "avatar_mPelvis") == 0;
    }
  return FALSE;
}

/* Second Life's rest: the T-pose of avatar_skeleton.xml by the joints'
 * names; a BVH of another rig stands in its own OFFSETs */
static gssize
sl_rest_skeleton (const SqClip   *clip,
                  const SqFormat *format,
                  SqRest         *rest)
{
  gint32 *parent = rest->parent;
  double (*offset)[3] = rest->offset;
  gboolean *from_file = &rest->from_file;
  gssize root = -1;

  *from_file = FALSE;
  if (format == NULL || format->space == NULL || !format->space->hierarchy)
    return _sq_skeleton_by_names (clip, parent, offset);
  if (!sl_rig (clip) && (root = _sq_skeleton_from_tree (clip, format->space, parent, offset)) >= 0)
    {
      *from_file = TRUE;
      return root;
    }
  /* a BVH about to be written: the hierarchy the conversion gives it (a
   * .x's frames, else the Second Life skeleton by the names) */
  return _sq_skeleton_rest (clip, parent, offset, from_file, NULL);
}

/* mPelvis 1.067 m above the avatar's origin, mFootLeft 0.006 m
 * (avatar_skeleton.xml v2.0, formats.md Appendix A) */
static double
sl_hip_height (void)
{
  return 1.061;
}

/* ---- saving ---------------------------------------------------------------- */

/* A .anim made from another format: its size against the upload limit */
static void
sl_add_save_notes (const SqFormat *format,
                   gsize           size,
                   GPtrArray      *notes)
{
  /* the limit with a thousands separator, as the message has always read */
  g_autofree char *limit = g_strdup_printf ("%d,%03d", SQ_SL_UPLOAD_LIMIT / 1000, SQ_SL_UPLOAD_LIMIT % 1000);

  if (format != &_sq_format_sl_anim)
    return;
  if (size > SQ_SL_UPLOAD_LIMIT)
    _sq_loss (notes, _("the animation is %zu bytes, over Second Life's upload limit of %s bytes"), size, limit);
  else
    _sq_loss (notes, _("the animation is %zu bytes (Second Life's upload limit is %s bytes)"), size, limit);
}

/* ---- mirroring ------------------------------------------------------------ */

/* Second Life (X forward, Y left, Z up): mShoulderLeft/mShoulderRight and
 * every Bento bone (mFaceEar1Left, mHandThumb2Left, mWing4Left,
 * mHindLimb3Left…), and the BVH aliases lShldr/rShldr */
static const SqMirrorPair sl_pairs[] = {
  { SQ_MIRROR_SUFFIX, "Left", "Right" },
  { SQ_MIRROR_PREFIX_UPPER, "l", "r" },
  { 0, NULL, NULL },
};

static const SqMirror sl_mirror = {
  .pairs = sl_pairs,
  .lateral = 1,
};

/* Motion capture (BVH: Y up, X sideways): LeftArm/RightArm, CMU
 * lhumerus/rhumerus, LHipJoint and lShldr, and the Second Life bones
 * Sequin writes into BVH when there is no alias; the file's Euler angles
 * are reflected with the keys */
static const SqMirrorPair mocap_pairs[] = {
  { SQ_MIRROR_PREFIX, "Left", "Right" },
  { SQ_MIRROR_SUFFIX, "Left", "Right" },
  { SQ_MIRROR_PREFIX, "l", "r" },
  { SQ_MIRROR_PREFIX_UPPER, "L", "R" },
  { SQ_MIRROR_SUFFIX, "_L", "_R" },
  { 0, NULL, NULL },
};

static const SqMirror mocap_mirror = {
  .pairs = mocap_pairs,
  .lateral = 0,
  .euler_alt = TRUE,
};

static const SqMirror *
sl_mirror_of (const SqClip *clip)
{
  return clip->format == &_sq_format_bvh ? &mocap_mirror : &sl_mirror;
}

/* the world's own edits by name (sq-sl-edit-table.c), ended by a NULL id */
extern const SqWorldEdit sq_sl_edits[];

/* ---- new animations ---------------------------------------------------------- */

/* Second Life's classic skeleton (avatar_skeleton.xml's 26 bones before
 * Bento) */
static const char * const sl_classic[] = {
  "mPelvis", "mTorso", "mChest", "mNeck", "mHead", "mSkull", "mEyeLeft", "mEyeRight",
  "mCollarLeft", "mShoulderLeft", "mElbowLeft", "mWristLeft",
  "mCollarRight", "mShoulderRight", "mElbowRight", "mWristRight",
  "mHipLeft", "mKneeLeft", "mAnkleLeft", "mFootLeft", "mToeLeft",
  "mHipRight", "mKneeRight", "mAnkleRight", "mFootRight", "mToeRight", NULL,
};

static const SqWorldNewClip sl_new_clips[] = {
  { "sl", N_("Second Life") },
  { "sl-bento", N_("Second Life with Bento bones") },
  { "bvh", N_("BVH on Second Life's skeleton") },
  { NULL, NULL },
};

static void
build_sl (SqClip  *clip,
          gboolean bento)
{
  static const double identity[4] = { 1, 0, 0, 0 }, zero[3] = { 0, 0, 0 };
  guint n = bento ? SQ_SL_N_BONES : g_strv_length ((char **) sl_classic);

  for (guint i = 0; i < n; i++)
    {
      const char *name = bento ? sq_sl_bone_name (i) : sl_classic[i];

      sq_clip_add_held_joint (clip, name, identity, g_str_equal (name, "mPelvis") ? zero : NULL);
    }
}

/* a joint of a new BVH: its nearest ancestor among the classic bones
 * (Bento's spine bones lie between some), offset and channels */
static SqJoint *
add_bvh_joint (SqClip     *clip,
               const char *name)
{
  static const char * const root_channels[] = { "Xposition", "Yposition", "Zposition",
                                                "Zrotation", "Xrotation", "Yrotation" };
  SqJoint *joint = sq_clip_add_joint (clip, name);
  const char *parent = sq_sl_bone_parent (name);
  double here[3] = { 0, 0, 0 }, there[3] = { 0, 0, 0 }, rel[3], off[3];
  gssize p = -1;

  while (parent != NULL && (p = sq_clip_find_joint (clip, parent)) < 0)
    parent = sq_sl_bone_parent (parent);
  sq_sl_bone_rest_position (name, here);
  if (p >= 0)
    sq_sl_bone_rest_position (parent, there);
  for (guint c = 0; c < 3; c++)
    rel[c] = here[c] - there[c];
  sq_space_vector_from_sl (&sq_space_bvh, rel, off);
  sq_props_set (joint->extra, "parent", g_variant_new_int32 ((gint32) p));
  sq_props_set (joint->extra, "offset", g_variant_new ("(ddd)", off[0], off[1], off[2]));
  sq_props_set (joint->extra, "channels", g_variant_new_strv (p < 0 ? root_channels : root_channels + 3,
                                                               p < 0 ? 6 : 3));
  return joint;
}

/* A BVH on Second Life's classic skeleton: the bones' rest offsets (from
 * avatar_skeleton.xml) in BVH's axes and units, the hip with position and
 * rotation channels, the others with rotations, in the order Second Life's
 * own BVH files use (Z, X, Y); a key on every frame */
static void
build_bvh (SqClip *clip)
{
  guint n = g_strv_length ((char **) sl_classic);
  gsize frames = (gsize) llround (clip->duration * clip->fps) + 1;

  for (guint i = 0; i < n; i++)
    {
      SqJoint *joint = add_bvh_joint (clip, sl_classic[i]);
      gboolean root = sq_props_get_int (joint->extra, "parent", -1) < 0;

      for (gsize f = 0; f < frames; f++)
        {
          sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], (double) f / clip->fps)->v[0] = 1.0;
          if (root)
            sq_track_append (&joint->tracks[SQ_CHANNEL_TRANSLATION], (double) f / clip->fps);
        }
    }
  /* a leaf's end: its bone's length along its parent's, 10 cm when none */
  for (guint i = 0; i < n; i++)
    {
      gboolean leaf = TRUE;

      for (guint k = 0; k < n; k++)
        leaf &= sq_props_get_int (clip->joints[k].extra, "parent", -1) != (gint64) i;
      if (leaf)
        {
          double end[3] = { 0, 0, 0.1 }, out[3];

          sq_space_vector_from_sl (&sq_space_bvh, end, out);
          sq_props_set (clip->joints[i].extra, "end-site", g_variant_new ("(ddd)", out[0], out[1], out[2]));
        }
    }
}

/* in Second Life's conventions, so a BVH gets its hierarchy and rest
 * offsets the way a converted .anim does */
static SqClip *
sl_new_clip (const char      *variant,
             double           duration,
             double           fps,
             const SqFormat **through)
{
  SqClip *clip = sq_clip_new ();
  gboolean bvh = g_str_equal (variant, "bvh");

  clip->fps = fps;
  clip->duration = round (duration * fps) / fps > 0 ? round (duration * fps) / fps : duration;
  clip->format = sq_format_by_id (bvh ? "bvh" : "sl-anim");
  if (bvh)
    build_bvh (clip);
  else
    build_sl (clip, g_str_equal (variant, "sl-bento"));
  *through = clip->format;
  return clip;
}


/* An .anim carries position keys on any joint (Bento moves the face's and
 * hands' bones); a BVH joint read with its CHANNELS list, only when that
 * list has position channels (the writer leaves others' out) */
static gboolean
sl_joint_moves (const SqClip *clip,
                gsize         joint)
{
  GVariant *v = sq_props_get (clip->joints[joint].extra, "channels");

  if (v == NULL || !g_variant_is_of_type (v, G_VARIANT_TYPE_STRING_ARRAY))
    return TRUE;
  for (gsize i = 0; i < g_variant_n_children (v); i++)
    {
      const char *s;

      g_variant_get_child (v, i, "&s", &s);
      if (strlen (s) == 9 && g_ascii_strcasecmp (s + 1, "position") == 0)
        return TRUE;
    }
  return FALSE;
}

/* validate --loss: sq_diff_sl_loss, with the size note also where the
 * save adds none (a clip of the .anim format itself, or one built in
 * memory: nothing converted) */
static SqDiff *
sl_save_loss (const SqClip *clip,
              GPtrArray    *losses,
              GPtrArray    *notes,
              gsize        *size,
              GError      **error)
{
  gsize bytes = 0;
  SqDiff *diff = sq_diff_sl_loss (clip, losses, notes, &bytes, error);

  if (diff == NULL)
    return NULL;
  if (clip->format == NULL || clip->format == &_sq_format_sl_anim)
    sl_add_save_notes (&_sq_format_sl_anim, bytes, notes != NULL ? notes : losses);
  if (size != NULL)
    *size = bytes;
  return diff;
}

const SqWorldHome sq_world_sl = {
  .id = "sl",
  .name = N_("Second Life"),
  .validate = sq_sl_validate,
  .add_save_loss = sq_validate_add_sl_loss,
  /* TRANSLATORS: the heading of the validation panel's list of what saving
   * as Second Life .anim does to each joint's motion */
  .save_loss_title = N_("Saved as .anim"),
  .fields = &sq_sl_fields,

  /* ---- skeleton (sq-retarget.h) ---- */
  .rest_skeleton = sl_rest_skeleton,
  .hip_height = sl_hip_height,
  .add_save_notes = sl_add_save_notes,
  .before_convert = _sq_sl_before_convert,
  .after_convert = _sq_sl_after_convert,
  .loop_key = "loop",
  .loop_in_key = "loop-in",
  .loop_out_key = "loop-out",
  .duration_keys = (const char * const []) { "ease-in", "ease-out", NULL },
  .edits = sq_sl_edits,
  .mirror = sl_mirror_of,
  .new_clips = sl_new_clips,
  .new_clip = sl_new_clip,
  .joint_moves = sl_joint_moves,

  /* ---- conversions (sq-convert.c) ---- */
  .bone_parent = sq_sl_bone_parent,
  .bone_rest_position = sq_sl_bone_rest_position,
  .root_bone = "mPelvis",
  .import_clip = _sq_sl_import_clip,
  .after_frames = _sq_sl_after_frames,
  .save_loss = sl_save_loss,
};
