/* sq-sl-edit.c: the Second Life animation field edits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The base and joint priorities, the loop, the ease times, the hand pose,
 * the emote and the constraints (the "sl-anim" extras, formats.md 1.2). Any
 * clip takes them; they are used when it is saved as .anim. Each checks its
 * value against Second Life's limits (sq-fields.h), then journals the clip's
 * property list (or the one joint it changes) before it sets the field.
 */
#define G_LOG_DOMAIN "sq-edit"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "sq-edit-private.h"
#include "sq-format.h"

/* ---- the checks ---- */

static gboolean
check_priority (gint64   priority,
                GError **error)
{
  if (priority < SQ_SL_MIN_PRIORITY || priority > SQ_SL_MAX_PRIORITY)
    return _sq_edit_invalid (error, _("The priority %" PRId64 " is not one of -1 to %d"), priority,
                             SQ_SL_MAX_PRIORITY);
  return TRUE;
}

/* A time the .anim header holds: finite, ≥ 0 and a single-precision number */
static gboolean
is_sl_time (double t)
{
  return isfinite (t) && t >= 0 && t <= G_MAXFLOAT;
}

/* A number a .anim field holds: finite in single precision */
static gboolean
is_sl_number (double v)
{
  return isfinite (v) && fabs (v) <= G_MAXFLOAT;
}

/* ---- priorities and the hand pose: one number ---- */

typedef struct
{
  gint64 number;
} NumberArgs;

static SqEdit *
number_edit_new (const SqEditClass *klass,
                 gint64             number)
{
  NumberArgs *a = g_new0 (NumberArgs, 1);

  a->number = number;
  return _sq_edit_new (klass, a);
}

static gboolean
priority_apply (SqEdit  *edit,
                SqClip  *clip,
                GError **error)
{
  const NumberArgs *a = _sq_edit_get_params (edit);

  if (!check_priority (a->number, error))
    return FALSE;
  _sq_edit_journal_extra (edit, clip);
  sq_props_set (clip->extra, "priority", g_variant_new_int32 ((gint32) a->number));
  return TRUE;
}

static char *
priority_describe (const SqEdit *edit)
{
  const NumberArgs *a = _sq_edit_get_params (edit);

  return g_strdup_printf (_("Set the base priority to %" PRId64), a->number);
}

static const SqEditClass priority_class = {
  N_("Set Priority"), priority_describe, priority_apply, NULL, NULL,
};

SqEdit *
sq_edit_sl_priority_new (gint32 priority)
{
  return number_edit_new (&priority_class, priority);
}

static gboolean
hand_pose_apply (SqEdit  *edit,
                 SqClip  *clip,
                 GError **error)
{
  const NumberArgs *a = _sq_edit_get_params (edit);

  if (a->number < 0 || a->number >= SQ_SL_N_HAND_POSES)
    return _sq_edit_invalid (error, _("The hand pose %" PRId64 " is not one of 0 to %d"), a->number,
                             SQ_SL_N_HAND_POSES - 1);
  _sq_edit_journal_extra (edit, clip);
  sq_props_set (clip->extra, "hand-pose", g_variant_new_uint32 ((guint32) a->number));
  return TRUE;
}

static char *
hand_pose_describe (const SqEdit *edit)
{
  const NumberArgs *a = _sq_edit_get_params (edit);

  return g_strdup_printf (_("Set the hand pose to %" PRId64), a->number);
}

static const SqEditClass hand_pose_class = {
  N_("Set Hand Pose"), hand_pose_describe, hand_pose_apply, NULL, NULL,
};

SqEdit *
sq_edit_sl_hand_pose_new (guint32 hand_pose)
{
  return number_edit_new (&hand_pose_class, hand_pose);
}

typedef struct
{
  char   *joint;
  gint64  priority;
} JointPriorityArgs;

static void
joint_priority_free (gpointer params)
{
  g_free (((JointPriorityArgs *) params)->joint);
}

static gboolean
joint_priority_apply (SqEdit  *edit,
                      SqClip  *clip,
                      GError **error)
{
  const JointPriorityArgs *a = _sq_edit_get_params (edit);
  gssize j;

  if ((j = _sq_edit_find_joint (clip, a->joint, error)) < 0 || !check_priority (a->priority, error))
    return FALSE;
  _sq_edit_journal_joint (edit, clip, j);
  sq_props_set (clip->joints[j].extra, "priority", g_variant_new_int32 ((gint32) a->priority));
  return TRUE;
}

static char *
joint_priority_describe (const SqEdit *edit)
{
  const JointPriorityArgs *a = _sq_edit_get_params (edit);

  return g_strdup_printf (_("Set the priority of joint “%s” to %" PRId64), a->joint, a->priority);
}

static const SqEditClass joint_priority_class = {
  N_("Set Joint Priority"), joint_priority_describe, joint_priority_apply, NULL, joint_priority_free,
};

SqEdit *
sq_edit_sl_joint_priority_new (const char *joint,
                               gint32      priority)
{
  JointPriorityArgs *a = g_new0 (JointPriorityArgs, 1);

  a->joint = g_strdup (joint);
  a->priority = priority;
  return _sq_edit_new (&joint_priority_class, a);
}

/* ---- loop and ease: two times ---- */

typedef struct
{
  gboolean loop;       /* the loop edit: on or off */
  double   t[2];       /* loop in and out, or ease in and out */
} TimesArgs;

static SqEdit *
times_edit_new (const SqEditClass *klass,
                gboolean           loop,
                double             t0,
                double             t1)
{
  TimesArgs *a = g_new0 (TimesArgs, 1);

  a->loop = loop;
  a->t[0] = t0;
  a->t[1] = t1;
  return _sq_edit_new (klass, a);
}

/* the rule is 0 ≤ in ≤ out ≤ duration; each way to break it says which */
static gboolean
check_loop (const TimesArgs *a,
            const SqClip    *clip,
            GError         **error)
{
  double in = a->t[0], out = a->t[1];

  if (!a->loop)
    return TRUE;
  if (is_sl_time (in) && is_sl_time (out) && out < in)
    return _sq_edit_invalid (error, _("Loop out (%g s) comes before loop in (%g s): the loop must end after it "
                                      "starts"), out, in);
  if (is_sl_time (out) && out > clip->duration)
    return _sq_edit_invalid (error, _("Loop out (%g s) is after the end of the animation (%g s)"),
                             out, clip->duration);
  if (!(is_sl_time (in) && is_sl_time (out) && in <= out && out <= clip->duration))
    return _sq_edit_invalid (error, _("The loop needs 0 ≤ in ≤ out ≤ %g s (the duration); in %g s, out %g s is "
                                      "not"), clip->duration, in, out);
  return TRUE;
}

static gboolean
loop_apply (SqEdit  *edit,
            SqClip  *clip,
            GError **error)
{
  const TimesArgs *a = _sq_edit_get_params (edit);

  if (!check_loop (a, clip, error))
    return FALSE;
  _sq_edit_journal_extra (edit, clip);
  sq_props_set (clip->extra, "loop", g_variant_new_int32 (a->loop ? 1 : 0));
  if (a->loop)
    {
      sq_props_set (clip->extra, "loop-in", g_variant_new_double (a->t[0]));
      sq_props_set (clip->extra, "loop-out", g_variant_new_double (a->t[1]));
    }
  return TRUE;
}

static char *
loop_describe (const SqEdit *edit)
{
  const TimesArgs *a = _sq_edit_get_params (edit);

  return a->loop ? g_strdup_printf (_("Loop from %g s to %g s"), a->t[0], a->t[1])
                 : g_strdup (_("Turn looping off"));
}

static const SqEditClass loop_class = {
  N_("Set Loop"), loop_describe, loop_apply, NULL, NULL,
};

SqEdit *
sq_edit_sl_loop_new (gboolean loop,
                     double   in,
                     double   out)
{
  return times_edit_new (&loop_class, loop != FALSE, in, out);
}

static gboolean
ease_apply (SqEdit  *edit,
            SqClip  *clip,
            GError **error)
{
  const TimesArgs *a = _sq_edit_get_params (edit);

  if (!is_sl_time (a->t[0]) || !is_sl_time (a->t[1]))
    return _sq_edit_invalid (error, _("The ease times must be finite numbers of seconds ≥ 0, not %g and %g"),
                             a->t[0], a->t[1]);
  _sq_edit_journal_extra (edit, clip);
  sq_props_set (clip->extra, "ease-in", g_variant_new_double (a->t[0]));
  sq_props_set (clip->extra, "ease-out", g_variant_new_double (a->t[1]));
  return TRUE;
}

static char *
ease_describe (const SqEdit *edit)
{
  const TimesArgs *a = _sq_edit_get_params (edit);

  return g_strdup_printf (_("Set the ease in to %g s and the ease out to %g s"), a->t[0], a->t[1]);
}

static const SqEditClass ease_class = {
  N_("Set Ease In and Out"), ease_describe, ease_apply, NULL, NULL,
};

SqEdit *
sq_edit_sl_ease_new (double ease_in,
                     double ease_out)
{
  return times_edit_new (&ease_class, FALSE, ease_in, ease_out);
}

/* ---- the emote ---- */

typedef struct
{
  char *emote;
} EmoteArgs;

static void
emote_free (gpointer params)
{
  g_free (((EmoteArgs *) params)->emote);
}

/* The emote's bytes in the file: Latin-1, as the .anim reader reads any name
 * that is not UTF-8. NULL when a character is beyond Latin-1. */
static GBytes *
emote_latin1 (const char *emote)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();

  if (!g_utf8_validate (emote, -1, NULL))
    return NULL;
  for (const char *p = emote; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      guint8 b = (guint8) c;

      if (c > 0xff)
        return NULL;
      g_byte_array_append (bytes, &b, 1);
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&bytes));
}

static gboolean
emote_apply (SqEdit  *edit,
             SqClip  *clip,
             GError **error)
{
  const EmoteArgs *a = _sq_edit_get_params (edit);
  g_autoptr(GBytes) latin1 = emote_latin1 (a->emote);

  if (latin1 == NULL)
    return _sq_edit_invalid (error, _("The emote name “%s” has characters that a Second Life animation cannot "
                                      "hold (it takes Latin-1)"), a->emote);
  if (g_bytes_get_size (latin1) > SQ_SL_EMOTE_MAX_BYTES)
    return _sq_edit_invalid (error, _("The emote name is %zu characters long; at most %d fit"),
                             g_bytes_get_size (latin1), SQ_SL_EMOTE_MAX_BYTES);
  _sq_edit_journal_extra (edit, clip);
  sq_props_set (clip->extra, "emote", g_variant_new_string (a->emote));
  /* the bytes as Latin-1 when they read back so (not as UTF-8), else the
   * writer's UTF-8 */
  if (!g_utf8_validate (g_bytes_get_data (latin1, NULL), (gssize) g_bytes_get_size (latin1), NULL))
    sq_props_set (clip->extra, "emote-field",
                  g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, g_bytes_get_data (latin1, NULL),
                                             g_bytes_get_size (latin1), 1));
  else
    sq_props_remove (clip->extra, "emote-field");
  return TRUE;
}

static char *
emote_describe (const SqEdit *edit)
{
  const EmoteArgs *a = _sq_edit_get_params (edit);

  return a->emote[0] == '\0' ? g_strdup (_("Remove the emote"))
                             : g_strdup_printf (_("Set the emote to “%s”"), a->emote);
}

static const SqEditClass emote_class = {
  N_("Set Emote"), emote_describe, emote_apply, NULL, emote_free,
};

SqEdit *
sq_edit_sl_emote_new (const char *emote)
{
  EmoteArgs *a = g_new0 (EmoteArgs, 1);

  a->emote = g_strdup (emote ? emote : "");
  return _sq_edit_new (&emote_class, a);
}

/* ---- constraints ---- */

static gboolean
delete_constraint_apply (SqEdit  *edit,
                         SqClip  *clip,
                         GError **error)
{
  const NumberArgs *a = _sq_edit_get_params (edit);
  GVariant *constraints = sq_props_get (clip->extra, "constraints");
  gboolean typed = constraints != NULL
                   && g_variant_is_of_type (constraints, G_VARIANT_TYPE (SQ_SL_CONSTRAINTS_VARIANT_TYPE));
  GVariantBuilder b;
  gsize n;

  if (!typed || a->number < 0 || (guint64) a->number >= g_variant_n_children (constraints))
    return _sq_edit_invalid (error, _("There is no constraint %" PRId64 " (the animation has %zu)"), a->number + 1,
                             typed ? g_variant_n_children (constraints) : (gsize) 0);

  _sq_edit_journal_extra (edit, clip);
  n = g_variant_n_children (constraints);
  g_variant_builder_init (&b, G_VARIANT_TYPE (SQ_SL_CONSTRAINTS_VARIANT_TYPE));
  for (gsize i = 0; i < n; i++)
    if (i != (gsize) a->number)
      {
        g_autoptr(GVariant) c = g_variant_get_child_value (constraints, i);
        g_variant_builder_add_value (&b, c);
      }
  /* `constraints` belongs to the list until this replaces it */
  sq_props_set (clip->extra, "constraints", g_variant_builder_end (&b));
  return TRUE;
}

static char *
delete_constraint_describe (const SqEdit *edit)
{
  const NumberArgs *a = _sq_edit_get_params (edit);

  return g_strdup_printf (_("Delete constraint %" PRId64), a->number + 1);
}

static const SqEditClass delete_constraint_class = {
  N_("Delete Constraint"), delete_constraint_describe, delete_constraint_apply, NULL, NULL,
};

SqEdit *
sq_edit_sl_delete_constraint_new (guint index)
{
  return number_edit_new (&delete_constraint_class, index);
}

typedef struct
{
  gint64         index;
  SqSlConstraint constraint;
  gboolean       appended;  /* the last apply added one */
} ConstraintArgs;

static gboolean
check_constraint (const SqClip         *clip,
                  const SqSlConstraint *c,
                  guint                 index,
                  GError              **error)
{
  const double *vectors[3] = { c->source_offset, c->target_offset, c->target_dir };
  const double ease[4] = { c->ease_in_start, c->ease_in_stop, c->ease_out_start, c->ease_out_stop };
  guint count = sq_sl_constraint_count (clip);

  if (index > count)
    return _sq_edit_invalid (error, _("There is no constraint %u (the animation has %u); a new one is number %u"),
                             index + 1, count, count + 1);
  if (index == count && count >= SQ_SL_MAX_CONSTRAINTS)
    return _sq_edit_invalid (error, _("The animation has %u constraints; Second Life takes at most %d"),
                             count, SQ_SL_MAX_CONSTRAINTS);
  if (c->chain_length > SQ_SL_MAX_CHAIN_LENGTH)
    return _sq_edit_invalid (error, _("The chain length %u is more than %d: longer chains overflow the viewer's "
                                      "arrays"), c->chain_length, SQ_SL_MAX_CHAIN_LENGTH);
  if (c->chain_length > clip->n_joints)
    return _sq_edit_invalid (error, _("The chain length %u is more than the %zu joints of the animation"),
                             c->chain_length, clip->n_joints);
  if (c->type >= SQ_SL_N_CONSTRAINT_TYPES)
    return _sq_edit_invalid (error, _("The constraint type %u is neither 0 (point) nor 1 (plane)"), c->type);
  if (!sq_sl_is_collision_volume (c->source_volume))
    return _sq_edit_invalid (error, _("The source “%s” is not a collision volume (such as L_HAND or R_FOOT)"),
                             c->source_volume);
  if (strcmp (c->target_volume, SQ_SL_GROUND) != 0 && !sq_sl_is_collision_volume (c->target_volume))
    return _sq_edit_invalid (error, _("The target “%s” is neither GROUND nor a collision volume"),
                             c->target_volume);
  for (guint v = 0; v < 3; v++)
    for (guint k = 0; k < 3; k++)
      if (!is_sl_number (vectors[v][k]))
        return _sq_edit_invalid (error, _("The offsets and the direction must be finite numbers"));
  for (guint k = 0; k < 4; k++)
    if (!is_sl_time (ease[k]))
      return _sq_edit_invalid (error, _("The ease times must be finite numbers of seconds ≥ 0"));
  if (c->ease_in_start > c->ease_in_stop || c->ease_out_start > c->ease_out_stop)
    return _sq_edit_invalid (error, _("An ease starts after it stops (in %g–%g s, out %g–%g s)"),
                             ease[0], ease[1], ease[2], ease[3]);
  return TRUE;
}

static gboolean
constraint_apply (SqEdit  *edit,
                  SqClip  *clip,
                  GError **error)
{
  ConstraintArgs *a = _sq_edit_get_params (edit);
  GVariant *old = sq_props_get (clip->extra, "constraints");
  guint count = sq_sl_constraint_count (clip);
  guint index = (guint) a->index;
  GVariantBuilder b;

  if (a->index < 0 || a->index > G_MAXUINT || !check_constraint (clip, &a->constraint, index, error))
    return FALSE;

  _sq_edit_journal_extra (edit, clip);
  g_variant_builder_init (&b, G_VARIANT_TYPE (SQ_SL_CONSTRAINTS_VARIANT_TYPE));
  for (guint i = 0; i < count; i++)
    {
      g_autoptr(GVariant) c = g_variant_get_child_value (old, i);

      if (i == index)
        g_variant_builder_add_value (&b, _sq_sl_constraint_to_variant (&a->constraint, c));
      else
        g_variant_builder_add_value (&b, c);
    }
  if (index == count)
    g_variant_builder_add_value (&b, _sq_sl_constraint_to_variant (&a->constraint, NULL));
  a->appended = index == count;
  /* `old` belongs to the list until this replaces it */
  sq_props_set (clip->extra, "constraints", g_variant_builder_end (&b));
  /* an out-of-range count the file had no longer applies */
  sq_props_remove (clip->extra, "constraint-count");
  return TRUE;
}

static char *
constraint_describe (const SqEdit *edit)
{
  const ConstraintArgs *a = _sq_edit_get_params (edit);
  const SqSlConstraint *c = &a->constraint;
  const char *type = sq_sl_constraint_type_name (c->type);

  return g_strdup_printf (a->appended ? _("Add constraint %" PRId64 ": %s, chain %u, from %s to %s")
                                      : _("Set constraint %" PRId64 " to %s, chain %u, from %s to %s"),
                          a->index + 1, type ? type : "?", c->chain_length, c->source_volume, c->target_volume);
}

static const SqEditClass constraint_class = {
  N_("Set Constraint"), constraint_describe, constraint_apply, NULL, NULL,
};

SqEdit *
sq_edit_sl_constraint_new (guint                 index,
                           const SqSlConstraint *c)
{
  ConstraintArgs *a = g_new0 (ConstraintArgs, 1);
  SqEdit *edit = _sq_edit_new (&constraint_class, a);

  g_return_val_if_fail (c != NULL, edit);
  a->index = index;
  a->constraint = *c;
  /* the names are strings whatever the caller left after them */
  a->constraint.source_volume[sizeof c->source_volume - 1] = '\0';
  a->constraint.target_volume[sizeof c->target_volume - 1] = '\0';
  return edit;
}
