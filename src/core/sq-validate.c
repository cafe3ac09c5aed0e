/* sq-validate.c: model invariants and target-world validation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-validate"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>

#include "sq-error.h"
#include "sq-math.h"
#include "sq-motion.h"
#include "sq-validate.h"
#include "sq-world.h"

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

/* ---- findings ---------------------------------------------------------------- */

static void add_finding_valist (GPtrArray  *findings,
                                SqSeverity  severity,
                                gssize      joint,
                                SqChannel   channel,
                                gssize      key,
                                const char *format,
                                va_list     args) G_GNUC_PRINTF (6, 0);

static void
add_finding_valist (GPtrArray  *findings,
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
  add_finding_valist (findings, severity, joint, channel, key, format, args);
  va_end (args);
}

static void
finding_free (gpointer data)
{
  SqFinding *f = data;

  g_free (f->message);
  g_free (f);
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

GPtrArray *
sq_findings_new (void)
{
  return g_ptr_array_new_with_free_func (finding_free);
}

/* The worlds' ids, in their order, NULL-terminated */
const char * const *
sq_validate_targets (void)
{
  static const char **targets;

  if (g_once_init_enter (&targets))
    {
      gsize n;
      const SqWorldHome * const *worlds = sq_worlds (&n);
      const char **ids = g_new0 (const char *, n + 1);

      for (gsize i = 0; i < n; i++)
        ids[i] = worlds[i]->id;
      g_once_init_leave (&targets, ids);
    }
  return targets;
}

GPtrArray *
sq_validate (const SqClip *clip,
             const char   *target,
             GError      **error)
{
  const SqWorldHome *world = target != NULL ? sq_world_by_id (target) : NULL;
  GPtrArray *findings;

  if (world == NULL)
    {
      g_autofree char *known = g_strjoinv (", ", (char **) sq_validate_targets ());

      g_set_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                   _("Unknown target “%s” (known: %s)"), target, known);
      return NULL;
    }
  findings = sq_findings_new ();
  world->validate (clip, findings);
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
