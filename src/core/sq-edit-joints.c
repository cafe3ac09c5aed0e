/* sq-edit-joints.c: the edits of any clip's joints and root
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Invert the quaternions' X and Z signs, rename or delete a joint, delete
 * the keys at a time, rename the root, rescale the root's locations and set
 * its location at the first frame: SeqFileViewer's edits, for every format.
 * Inverting signs is its own exact inverse and records nothing but the
 * joints it inverted; the others go through the journal (sq-edit-private.h).
 */
#define G_LOG_DOMAIN "sq-edit"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "sq-edit-private.h"
#include "sq-format.h"

/* a key this close to a time given (in seconds) is at it, in a clip with no
 * frame rate (otherwise half a frame) */
#define KEY_TIME_EPSILON 1e-6

/* the parameters of the joint edits that take names */
typedef struct
{
  char   *name;        /* the joint (rename, delete, delete keys) */
  char   *new_name;    /* rename joint, rename root */
  double  time;        /* delete keys */
} NameArgs;

static void
name_args_free (gpointer params)
{
  NameArgs *a = params;

  g_free (a->name);
  g_free (a->new_name);
}

static SqEdit *
name_edit_new (const SqEditClass *klass,
               const char        *name,
               const char        *new_name,
               double             time)
{
  NameArgs *a = g_new0 (NameArgs, 1);

  a->name = g_strdup (name);
  a->new_name = g_strdup (new_name);
  a->time = time;
  return _sq_edit_new (klass, a);
}

static void
rename_joint (SqEdit     *edit,
              SqClip     *clip,
              gsize       index,
              const char *name)
{
  _sq_edit_journal_joint (edit, clip, index);
  g_free (clip->joints[index].name);
  clip->joints[index].name = g_strdup (name);
}

/* ---- invert X and Z ---- */

typedef struct
{
  char   **names;      /* the chosen joints, NULL for all */
  GArray  *inverted;   /* gsize: joints whose signs the last apply flipped */
} InvertArgs;

static void
invert_args_free (gpointer params)
{
  InvertArgs *a = params;

  g_strfreev (a->names);
  g_array_unref (a->inverted);
}

static void
invert_joint (SqClip *clip,
              gsize   index)
{
  SqTrack *t = &clip->joints[index].tracks[SQ_CHANNEL_ROTATION];
  SqKey *keys = sq_track_unpack (t);

  for (gsize k = 0; k < t->n_keys; k++)
    {
      keys[k].v[1] = -keys[k].v[1];
      keys[k].v[3] = -keys[k].v[3];
    }
}

/* the joints to invert, each once, into a->inverted; FALSE for a name the
 * clip lacks */
static gboolean
choose_inverted (InvertArgs   *a,
                 const SqClip *clip,
                 GError      **error)
{
  if (a->names == NULL)
    {
      for (gsize j = 0; j < clip->n_joints; j++)
        g_array_append_val (a->inverted, j);
      return TRUE;
    }
  for (guint i = 0; a->names[i] != NULL; i++)
    {
      gssize j = _sq_edit_find_joint (clip, a->names[i], error);
      gboolean seen = FALSE;

      if (j < 0)
        {
          g_array_set_size (a->inverted, 0);
          return FALSE;
        }
      for (guint k = 0; k < a->inverted->len; k++)
        seen |= g_array_index (a->inverted, gsize, k) == (gsize) j;
      if (!seen)
        g_array_append_val (a->inverted, j);
    }
  return TRUE;
}

static gboolean
invert_apply (SqEdit  *edit,
              SqClip  *clip,
              GError **error)
{
  InvertArgs *a = _sq_edit_get_params (edit);

  g_array_set_size (a->inverted, 0);
  if (!choose_inverted (a, clip, error))
    return FALSE;
  for (guint i = 0; i < a->inverted->len; i++)
    {
      gsize j = g_array_index (a->inverted, gsize, i);

      /* a packed track is kept as it is for undo, which gives its records
       * back (the copy shares them) instead of inverting decoded keys */
      if (sq_track_is_packed (&clip->joints[j].tracks[SQ_CHANNEL_ROTATION]))
        _sq_edit_journal_joint (edit, clip, j);
      invert_joint (clip, j);
    }
  return TRUE;
}

static void
invert_undo (SqEdit *edit,
             SqClip *clip)
{
  InvertArgs *a = _sq_edit_get_params (edit);

  for (guint i = 0; i < a->inverted->len; i++)
    if (!_sq_edit_journal_has_joint (edit, g_array_index (a->inverted, gsize, i)))
      invert_joint (clip, g_array_index (a->inverted, gsize, i));
  g_array_set_size (a->inverted, 0);
}

static char *
invert_describe (const SqEdit *edit)
{
  const InvertArgs *a = _sq_edit_get_params (edit);
  g_autofree char *list = NULL;

  if (a->names == NULL)
    return g_strdup (_("Invert the sign of quaternion X and Z of every joint"));
  list = g_strjoinv (", ", a->names);
  return g_strdup_printf (_("Invert the sign of quaternion X and Z of %s"), list);
}

static const SqEditClass invert_class = {
  N_("Invert Sign of Quat X & Z"), invert_describe, invert_apply, invert_undo, invert_args_free,
};

SqEdit *
sq_edit_invert_xz_new (const char * const *joints)
{
  InvertArgs *a = g_new0 (InvertArgs, 1);

  if (joints != NULL && joints[0] != NULL)
    a->names = g_strdupv ((char **) joints);
  a->inverted = g_array_new (FALSE, FALSE, sizeof (gsize));
  return _sq_edit_new (&invert_class, a);
}

/* ---- rename a joint ---- */

/* Renaming the root joint `j` of a binary SEQ file (its root apart from the
 * joint entries) changes only the entry's name; the locations stay with the
 * header's root, now a joint of its own. Elsewhere the root is a joint like
 * the others: the header's root (where the format has one) follows its
 * name. */
static void
rename_root_joint (SqEdit         *edit,
                   SqClip         *clip,
                   gssize          j,
                   const NameArgs *a)
{
  SqJoint *loc;

  if (!(clip->format != NULL && (clip->format->flags & SQ_FORMAT_ROOT_APART)
        && !sq_props_get_bool (clip->joints[j].extra, "no-entry", FALSE)))
    {
      _sq_edit_journal_root (edit, clip);
      g_free (clip->root);
      clip->root = g_strdup (a->new_name);
      return;
    }
  if (clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION].n_keys == 0)
    return;
  _sq_edit_journal_joint (edit, clip, j);
  loc = sq_clip_add_joint (clip, a->name);
  _sq_edit_journal_added_joint (edit, clip->n_joints - 1);
  sq_props_set (loc->extra, "no-entry", g_variant_new_boolean (TRUE));
  loc->tracks[SQ_CHANNEL_TRANSLATION] = clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION];
  memset (&clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION], 0, sizeof (SqTrack));
}

static gboolean
rename_joint_apply (SqEdit  *edit,
                    SqClip  *clip,
                    GError **error)
{
  const NameArgs *a = _sq_edit_get_params (edit);
  gssize j;

  if ((j = _sq_edit_find_joint (clip, a->name, error)) < 0
      || !sq_edit_check_joint_name (clip, a->new_name, j, error))
    return FALSE;
  if (j == sq_clip_get_root_index (clip) && strcmp (a->name, a->new_name) != 0)
    rename_root_joint (edit, clip, j, a);
  rename_joint (edit, clip, j, a->new_name);
  return TRUE;
}

static char *
rename_joint_describe (const SqEdit *edit)
{
  const NameArgs *a = _sq_edit_get_params (edit);

  return g_strdup_printf (_("Rename joint “%s” to “%s”"), a->name, a->new_name);
}

static const SqEditClass rename_joint_class = {
  N_("Rename Joint"), rename_joint_describe, rename_joint_apply, NULL, name_args_free,
};

SqEdit *
sq_edit_rename_joint_new (const char *old_name,
                          const char *new_name)
{
  return name_edit_new (&rename_joint_class, old_name, new_name, 0);
}

/* ---- delete a joint ---- */

/* Formats with a hierarchy (BVH) keep each joint's parent index in the
 * "parent" extra. Before joint `j` goes, its children move to its parent and
 * later indices shift down; the joints changed are journalled first, so undo
 * (which re-inserts `j`, then restores them) gives the clip back exactly. */
static void
reparent_children (SqEdit *edit,
                   SqClip *clip,
                   gssize  j)
{
  gint32 grandparent = (gint32) sq_props_get_int (clip->joints[j].extra, "parent", -1);

  if (grandparent > j)
    grandparent--;
  for (gsize k = 0; k < clip->n_joints; k++)
    {
      GVariant *v;
      gint32 p, np;

      if ((gssize) k == j)
        continue;
      v = sq_props_get (clip->joints[k].extra, "parent");
      if (v == NULL || !g_variant_is_of_type (v, G_VARIANT_TYPE_INT32))
        continue;
      p = g_variant_get_int32 (v);
      np = p == j ? grandparent : p > j ? p - 1 : p;
      if (np == p)
        continue;
      _sq_edit_journal_joint (edit, clip, k);
      sq_props_set (clip->joints[k].extra, "parent", g_variant_new_int32 (np));
    }
}

static gboolean
delete_joint_apply (SqEdit  *edit,
                    SqClip  *clip,
                    GError **error)
{
  const NameArgs *a = _sq_edit_get_params (edit);
  gssize j;

  if ((j = _sq_edit_find_joint (clip, a->name, error)) < 0)
    return FALSE;
  reparent_children (edit, clip, j);
  _sq_edit_journal_take_joint (edit, clip, j);
  return TRUE;
}

static char *
delete_joint_describe (const SqEdit *edit)
{
  const NameArgs *a = _sq_edit_get_params (edit);

  return g_strdup_printf (_("Delete joint “%s”"), a->name);
}

static const SqEditClass delete_joint_class = {
  N_("Delete Joint"), delete_joint_describe, delete_joint_apply, NULL, name_args_free,
};

SqEdit *
sq_edit_delete_joint_new (const char *name)
{
  return name_edit_new (&delete_joint_class, name, NULL, 0);
}

/* ---- delete the keys at a time ---- */

static gboolean
delete_keys_apply (SqEdit  *edit,
                   SqClip  *clip,
                   GError **error)
{
  const NameArgs *a = _sq_edit_get_params (edit);
  gssize at[SQ_N_CHANNELS];
  gboolean any = FALSE;
  double tolerance;
  gssize j;

  if ((j = _sq_edit_find_joint (clip, a->name, error)) < 0)
    return FALSE;
  tolerance = clip->fps > 0 && isfinite (clip->fps) ? 0.5 / clip->fps : KEY_TIME_EPSILON;
  for (int c = 0; c < SQ_N_CHANNELS; c++)
    {
      const SqTrack *t = &clip->joints[j].tracks[c];
      gsize i = sq_track_lower_bound (t, a->time, 0, t->n_keys);

      /* the nearest key, before or after */
      if (i > 0 && (i == t->n_keys || a->time - sq_track_time (t, i - 1) <= sq_track_time (t, i) - a->time))
        i--;
      at[c] = i < t->n_keys && fabs (sq_track_time (t, i) - a->time) <= tolerance ? (gssize) i : -1;
      any |= at[c] >= 0;
    }
  if (!any)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND, _("Joint “%s” has no key at %g s"), a->name, a->time);
      return FALSE;
    }
  _sq_edit_journal_joint (edit, clip, j);
  for (int c = 0; c < SQ_N_CHANNELS; c++)
    if (at[c] >= 0)
      sq_track_remove (&clip->joints[j].tracks[c], (gsize) at[c]);
  return TRUE;
}

static char *
delete_keys_describe (const SqEdit *edit)
{
  const NameArgs *a = _sq_edit_get_params (edit);

  return g_strdup_printf (_("Delete the keys of joint “%s” at %g s"), a->name, a->time);
}

static const SqEditClass delete_keys_class = {
  N_("Delete Keys"), delete_keys_describe, delete_keys_apply, NULL, name_args_free,
};

SqEdit *
sq_edit_delete_keys_new (const char *name,
                         double      time)
{
  return name_edit_new (&delete_keys_class, name, NULL, time);
}

/* ---- rename the root ---- */

static gboolean
rename_root_apply (SqEdit  *edit,
                   SqClip  *clip,
                   GError **error)
{
  const NameArgs *a = _sq_edit_get_params (edit);
  gssize root = sq_clip_get_root_index (clip);

  if (!sq_edit_check_joint_name (clip, a->new_name, root, error))
    return FALSE;
  _sq_edit_journal_root (edit, clip);
  g_free (clip->root);
  clip->root = g_strdup (a->new_name);
  if (root >= 0)
    rename_joint (edit, clip, root, a->new_name);
  return TRUE;
}

static char *
rename_root_describe (const SqEdit *edit)
{
  const NameArgs *a = _sq_edit_get_params (edit);

  return g_strdup_printf (_("Rename the root joint to “%s”"), a->new_name);
}

static const SqEditClass rename_root_class = {
  N_("Rename Root Joint"), rename_root_describe, rename_root_apply, NULL, name_args_free,
};

SqEdit *
sq_edit_rename_root_new (const char *new_name)
{
  return name_edit_new (&rename_root_class, NULL, new_name, 0);
}

/* ---- the root's locations ---- */

/* the parameters of rescale (value[0]) and set first frame */
typedef struct
{
  double value[3];
} ValueArgs;

static SqEdit *
value_edit_new (const SqEditClass *klass,
                double             x,
                double             y,
                double             z)
{
  ValueArgs *a = g_new0 (ValueArgs, 1);

  a->value[0] = x;
  a->value[1] = y;
  a->value[2] = z;
  return _sq_edit_new (klass, a);
}

static SqTrack *
root_translations (SqClip  *clip,
                   gssize  *index)
{
  *index = sq_clip_get_root_index (clip);
  return *index >= 0 ? &clip->joints[*index].tracks[SQ_CHANNEL_TRANSLATION] : NULL;
}

gboolean
sq_edit_check_rescale_factor (double   factor,
                              GError **error)
{
  if (!isfinite (factor))
    {
      g_set_error_literal (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT, _("The factor must be a finite number"));
      return FALSE;
    }
  if (factor == 0)
    {
      g_set_error_literal (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                           _("The factor must be above 0: 0 would put every location at the same point"));
      return FALSE;
    }
  if (factor < 0)
    {
      g_set_error_literal (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                           _("The factor must be above 0: a negative factor would mirror the path"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
rescale_apply (SqEdit  *edit,
               SqClip  *clip,
               GError **error)
{
  const ValueArgs *a = _sq_edit_get_params (edit);
  SqTrack *track;
  gssize root;

  if (!sq_edit_check_rescale_factor (a->value[0], error))
    return FALSE;
  track = root_translations (clip, &root);
  if (track == NULL || track->n_keys == 0)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND,
                   _("The root joint “%s” has no locations to rescale"), sq_clip_get_effective_root (clip));
      return FALSE;
    }
  _sq_edit_journal_joint (edit, clip, root);
  sq_track_unpack (track);
  for (gsize k = 0; k < track->n_keys; k++)
    for (guint c = 0; c < 3; c++)
      track->keys[k].v[c] *= a->value[0];
  return TRUE;
}

static char *
rescale_describe (const SqEdit *edit)
{
  const ValueArgs *a = _sq_edit_get_params (edit);

  return g_strdup_printf (_("Rescale the root's locations by %g"), a->value[0]);
}

static const SqEditClass rescale_class = {
  N_("Rescale Distances"), rescale_describe, rescale_apply, NULL, NULL,
};

SqEdit *
sq_edit_rescale_new (double factor)
{
  return value_edit_new (&rescale_class, factor, 0, 0);
}

static gboolean
first_frame_apply (SqEdit  *edit,
                   SqClip  *clip,
                   GError **error)
{
  const ValueArgs *a = _sq_edit_get_params (edit);
  SqTrack *track;
  gssize root;
  gsize k;

  if (!isfinite (a->value[0]) || !isfinite (a->value[1]) || !isfinite (a->value[2]))
    {
      g_set_error_literal (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT, _("The location must be finite numbers"));
      return FALSE;
    }
  track = root_translations (clip, &root);
  if (root < 0)
    {
      /* a root with no joint gets one, for its location */
      SqJoint *joint = sq_clip_add_joint (clip, sq_clip_get_effective_root (clip));

      sq_props_set (joint->extra, "no-entry", g_variant_new_boolean (TRUE));
      _sq_edit_journal_added_joint (edit, clip->n_joints - 1);
      track = &joint->tracks[SQ_CHANNEL_TRANSLATION];
    }
  else
    _sq_edit_journal_joint (edit, clip, root);
  k = sq_track_insert (track, 0.0);
  memcpy (track->keys[k].v, a->value, 3 * sizeof (double));
  track->keys[k].v[3] = 0.0;
  if (track->present != NULL)
    track->present[k] = SQ_PRESENT_ALL;
  return TRUE;
}

static char *
first_frame_describe (const SqEdit *edit)
{
  const ValueArgs *a = _sq_edit_get_params (edit);

  return g_strdup_printf (_("Set the root's location at the first frame to (%g, %g, %g)"),
                          a->value[0], a->value[1], a->value[2]);
}

static const SqEditClass first_frame_class = {
  N_("Set First Frame"), first_frame_describe, first_frame_apply, NULL, NULL,
};

SqEdit *
sq_edit_set_first_frame_new (double x,
                             double y,
                             double z)
{
  return value_edit_new (&first_frame_class, x, y, z);
}
