/* sq-validate.c: model invariants and target-world validation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-validate"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "sq-private.h"
#include "sq-validate.h"

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

          if (t->n_keys > t->alloc || (t->n_keys > 0 && t->keys == NULL))
            FAIL ("joint “%s” channel %u: key storage is inconsistent", joint->name, c);
          for (gsize k = 0; k < t->n_keys; k++)
            {
              if (!isfinite (t->keys[k].time))
                FAIL ("joint “%s” channel %u key %zu: time is not finite", joint->name, c, k);
              if (k > 0 && !(t->keys[k].time > t->keys[k - 1].time))
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

/* Tags 1-42 (formats.md 4; the SEQ spec's table). Tag 28 is "obj" in the AW
 * 5.1 help and "obj1" in the SEQ page: both are accepted. */
static const char * const aw_names[] = {
  NULL, "pelvis", "back", "neck", "head", "rtsternum", "rtshoulder", "rtelbow", "rtwrist",
  "rtfingers", "lfsternum", "lfshoulder", "lfelbow", "lfwrist", "lffingers", "rthip", "rtknee",
  "rtankle", "rttoes", "lfhip", "lfknee", "lfankle", "lftoes", "neck2", "tail", "tail2", "tail3",
  "tail4", "obj1", "obj2", "obj3", "hair", "hair2", "hair3", "hair4", "rtbreast", "lfbreast",
  "rteye", "lfeye", "lips", "nose", "rtear", "lfear",
};

const char *
sq_aw_joint_name (guint tag)
{
  return tag >= 1 && tag < G_N_ELEMENTS (aw_names) ? aw_names[tag] : NULL;
}

guint
sq_aw_joint_tag (const char *name)
{
  if (g_ascii_strcasecmp (name, "obj") == 0)
    return 28;
  for (guint i = 1; i < G_N_ELEMENTS (aw_names); i++)
    if (g_ascii_strcasecmp (aw_names[i], name) == 0)
      return i;
  return 0;
}

static void
add_finding (GPtrArray  *findings,
             SqSeverity  severity,
             gssize      joint,
             SqChannel   channel,
             gssize      key,
             const char *format,
             ...) G_GNUC_PRINTF (6, 7);

static void
add_finding (GPtrArray  *findings,
             SqSeverity  severity,
             gssize      joint,
             SqChannel   channel,
             gssize      key,
             const char *format,
             ...)
{
  SqFinding *f = g_new0 (SqFinding, 1);
  va_list args;

  f->severity = severity;
  f->joint = joint;
  f->channel = channel;
  f->key = key;
  va_start (args, format);
  f->message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (findings, f);
}

static void
finding_free (gpointer data)
{
  SqFinding *f = data;

  g_free (f->message);
  g_free (f);
}

static void
validate_aw (const SqClip *clip,
             GPtrArray    *findings)
{
  gboolean text = clip->format != NULL && g_str_equal (clip->format->id, "seq-text");
  gssize root = sq_clip_get_root_index (clip);
  double last_frame_time = clip->duration;

  if (clip->n_joints == 0)
    add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1, _("the animation has no joints"));

  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqJoint *joint = &clip->joints[j];
      const SqTrack *rot = &joint->tracks[SQ_CHANNEL_ROTATION];

      if (sq_aw_joint_tag (joint->name) == 0)
        add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_ROTATION, -1,
                     _("joint “%s” is not one of the 42 ActiveWorlds joint names: ActiveWorlds ignores it"),
                     joint->name);
      else if (sq_aw_joint_tag (joint->name) > 31 && sq_aw_joint_tag (joint->name) <= 42)
        add_finding (findings, SQ_SEVERITY_INFO, j, SQ_CHANNEL_ROTATION, -1,
                     _("joint “%s” (tag %u) works only in ActiveWorlds 3.6 and later"),
                     joint->name, sq_aw_joint_tag (joint->name));
      if (j > 0 && sq_clip_find_joint (clip, joint->name) != (gssize) j)
        add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_ROTATION, -1,
                     _("joint “%s” appears more than once"), joint->name);

      for (gsize k = 0; k < rot->n_keys; k++)
        {
          const double *q = rot->keys[k].v;
          double n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];

          if (!isfinite (n))
            add_finding (findings, SQ_SEVERITY_ERROR, j, SQ_CHANNEL_ROTATION, k,
                         _("joint “%s” key %zu (frame %d): the rotation is not a finite number"),
                         joint->name, k + 1, sq_clip_time_to_frame (clip, rot->keys[k].time));
          else if (fabs (n - 1.0) > 1e-3)
            add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_ROTATION, k,
                         _("joint “%s” key %zu (frame %d): the quaternion's length is %.4f, not 1"),
                         joint->name, k + 1, sq_clip_time_to_frame (clip, rot->keys[k].time), sqrt (n));
          if (rot->keys[k].time < -1e-9)
            add_finding (findings, SQ_SEVERITY_ERROR, j, SQ_CHANNEL_ROTATION, k,
                         _("joint “%s” key %zu: frame %d is before the first frame"),
                         joint->name, k + 1, sq_clip_time_to_frame (clip, rot->keys[k].time));
          else if (rot->keys[k].time > last_frame_time + 1e-9)
            add_finding (findings, text ? SQ_SEVERITY_ERROR : SQ_SEVERITY_WARNING, j, SQ_CHANNEL_ROTATION, k,
                         _("joint “%s” key %zu at %.3f s (frame %d) is after the end of the animation (%.3f s)"),
                         joint->name, k + 1, rot->keys[k].time,
                         sq_clip_time_to_frame (clip, rot->keys[k].time), clip->duration);
        }

      if (text)
        {
          if (rot->n_keys < 2)
            add_finding (findings, SQ_SEVERITY_ERROR, j, SQ_CHANNEL_ROTATION, -1,
                         _("limb “%s” has %zu key(s); text SEQ needs at least two"),
                         joint->name, rot->n_keys);
          if (rot->n_keys > 0 && rot->keys[0].time != 0.0)
            add_finding (findings, SQ_SEVERITY_ERROR, j, SQ_CHANNEL_ROTATION, 0,
                         _("limb “%s”: the first key is at %.0f ms; text SEQ needs one at 0"),
                         joint->name, rot->keys[0].time * 1000.0);
          if (rot->n_keys > 0 && rot->keys[rot->n_keys - 1].time <= 0.0)
            add_finding (findings, SQ_SEVERITY_ERROR, j, SQ_CHANNEL_ROTATION, rot->n_keys - 1,
                         _("limb “%s” has no key after 0 ms"), joint->name);
          if ((gssize) j != root && joint->tracks[SQ_CHANNEL_SCALE].n_keys > 0)
            add_finding (findings, SQ_SEVERITY_INFO, j, SQ_CHANNEL_SCALE, -1,
                         _("limb “%s”: ActiveWorlds ignores scale keys"), joint->name);
        }
    }

  if (text && clip->duration <= 0)
    add_finding (findings, SQ_SEVERITY_ERROR, -1, 0, -1, _("the duration is 0 ms; text SEQ needs a key after 0"));

  if (!text)
    {
      const SqTrack *loc = root >= 0 ? &clip->joints[root].tracks[SQ_CHANNEL_TRANSLATION] : NULL;
      gssize first = loc ? sq_track_find (loc, 0.0) : -1;

      if (!sq_props_get_bool (clip->extra, "blocks-present", TRUE) && (loc == NULL || loc->n_keys == 0))
        add_finding (findings, SQ_SEVERITY_INFO, -1, 0, -1,
                     _("the file has no location blocks (like the wave animations): LifeForms cannot read it, ActiveWorlds can"));
      else if (first < 0 || (loc->present && loc->present[first] != SQ_PRESENT_ALL))
        add_finding (findings, SQ_SEVERITY_ERROR, root, SQ_CHANNEL_TRANSLATION, -1,
                     _("no location X, Y and Z for frame 1: ActiveWorlds places the avatar at random (use Set First Frame)"));
      else if (loc->keys[first].v[0] != 0 || loc->keys[first].v[1] != 0 || loc->keys[first].v[2] != 0)
        add_finding (findings, SQ_SEVERITY_INFO, root, SQ_CHANNEL_TRANSLATION, first,
                     _("the location at frame 1 is (%g, %g, %g), not (0, 0, 0)"),
                     loc->keys[first].v[0], loc->keys[first].v[1], loc->keys[first].v[2]);
      if (clip->root[0] != '\0' && g_ascii_strcasecmp (clip->root, "pelvis") != 0)
        add_finding (findings, SQ_SEVERITY_INFO, root, SQ_CHANNEL_ROTATION, -1,
                     _("the root joint is called “%s”; ActiveWorlds animations call it “pelvis”"), clip->root);
      for (gsize j = 0; j < clip->n_joints; j++)
        if ((gssize) j != root && clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION].n_keys > 0)
          add_finding (findings, SQ_SEVERITY_WARNING, j, SQ_CHANNEL_TRANSLATION, -1,
                       _("joint “%s” has translations; only the root moves in binary SEQ"), clip->joints[j].name);
    }
}

static const char * const targets[] = { "aw", NULL };

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

  if (g_strcmp0 (target, "aw") != 0)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                   _("Unknown target “%s” (known: aw)"), target);
      return NULL;
    }
  findings = g_ptr_array_new_with_free_func (finding_free);
  validate_aw (clip, findings);
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
