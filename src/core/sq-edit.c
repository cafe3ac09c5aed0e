/* sq-edit.c: the document's edits, undoable through a small journal
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Applying an edit first checks everything it needs, so a refused edit leaves
 * the clip untouched. While it changes the clip it records what it replaced:
 * whole joints it modifies or removes (copied once, before the change), the
 * joints it adds, the header's root name and the clip's generation. Undo puts
 * all of that back, so the clip is bitwise what it was; apply again redoes.
 * Inverting quaternion signs is its own exact inverse and records nothing.
 * The Second Life edits change the clip's format fields: the journal keeps a
 * copy of the clip's property list from before (it is small), or the one
 * joint they change.
 */
#define G_LOG_DOMAIN "sq-edit"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "sq-edit.h"
#include "sq-format.h"
#include "sq-motion.h"
#include "sq-motion-private.h"
#include "sq-private.h"

typedef enum
{
  EDIT_INVERT_XZ,
  EDIT_RENAME_JOINT,
  EDIT_DELETE_JOINT,
  EDIT_DELETE_KEYS,
  EDIT_RENAME_ROOT,
  EDIT_RESCALE,
  EDIT_SET_FIRST_FRAME,
  EDIT_SL_PRIORITY,
  EDIT_SL_JOINT_PRIORITY,
  EDIT_SL_LOOP,
  EDIT_SL_EASE,
  EDIT_SL_HAND_POSE,
  EDIT_SL_EMOTE,
  EDIT_SL_DELETE_CONSTRAINT,
  EDIT_SL_CONSTRAINT,
  EDIT_SET_FRAME_RATE,
  EDIT_SET_FRAME_TIME,
  EDIT_DX_SET_NAME,
  EDIT_MOTION,         /* sq-motion.c */
  EDIT_SIMS,           /* worlds/sq-sims-edit.c */
} EditKind;

/* sq-fields.h holds the Second Life limits and defaults */
#define SL_MIN_PRIORITY SQ_SL_MIN_PRIORITY
#define SL_MAX_PRIORITY SQ_SL_MAX_PRIORITY
#define SL_N_HAND_POSES SQ_SL_N_HAND_POSES
#define SL_CONSTRAINTS_TYPE SQ_SL_CONSTRAINTS_VARIANT_TYPE

/* frame times the frame rate edits accept */
#define MIN_FRAME_TIME 0.001
#define MAX_FRAME_TIME 10.0
/* a key this close to a frame (in frames) is on it */
#define FRAME_EPSILON  1e-6
/* a key this close to a time given (in seconds) is at it, in a clip with no
 * frame rate (otherwise half a frame) */
#define KEY_TIME_EPSILON 1e-6
#define DX_MAX_NAME    200

typedef struct
{
  gsize    index;
  gboolean removed;    /* the joint was taken out of the clip */
  SqJoint  joint;      /* copy from before the change */
} SavedJoint;

struct _SqEdit
{
  EditKind  kind;
  char    **names;     /* invert: the chosen joints, NULL for all */
  char     *name;      /* rename/delete: the joint; rename root: the new name */
  char     *new_name;
  double    value[3];
  gint64    number;    /* SL: priority, hand pose, constraint index; loop on/off */
  SqSlConstraint constraint;
  gboolean  appended;  /* the constraint edit added one in its last apply */
  SqMotionOp motion;
  int       world_op;  /* EDIT_SIMS: the world's own operation */
  char     *report;    /* what the last apply found worth telling, or NULL */

  /* journal of the last apply */
  gboolean  applied;
  GArray   *saved;     /* SavedJoint, in the order saved */
  GArray   *added;     /* gsize: indices of joints the edit appended */
  GArray   *inverted;  /* gsize: joints whose signs were flipped */
  char     *old_root;
  SqProps  *old_extra; /* the clip's property list from before */
  gboolean  old_timing;
  double    old_fps;
  double    old_duration;
  guint64   old_generation;
};

static SqEdit *
edit_new (EditKind kind)
{
  SqEdit *edit = g_new0 (SqEdit, 1);

  edit->kind = kind;
  edit->saved = g_array_new (FALSE, FALSE, sizeof (SavedJoint));
  edit->added = g_array_new (FALSE, FALSE, sizeof (gsize));
  edit->inverted = g_array_new (FALSE, FALSE, sizeof (gsize));
  return edit;
}

SqEdit *
sq_edit_invert_xz_new (const char * const *joints)
{
  SqEdit *edit = edit_new (EDIT_INVERT_XZ);

  if (joints != NULL && joints[0] != NULL)
    edit->names = g_strdupv ((char **) joints);
  return edit;
}

SqEdit *
sq_edit_rename_joint_new (const char *old_name,
                          const char *new_name)
{
  SqEdit *edit = edit_new (EDIT_RENAME_JOINT);

  edit->name = g_strdup (old_name);
  edit->new_name = g_strdup (new_name);
  return edit;
}

SqEdit *
sq_edit_delete_joint_new (const char *name)
{
  SqEdit *edit = edit_new (EDIT_DELETE_JOINT);

  edit->name = g_strdup (name);
  return edit;
}

SqEdit *
sq_edit_delete_keys_new (const char *name,
                         double      time)
{
  SqEdit *edit = edit_new (EDIT_DELETE_KEYS);

  edit->name = g_strdup (name);
  edit->value[0] = time;
  return edit;
}

SqEdit *
sq_edit_rename_root_new (const char *new_name)
{
  SqEdit *edit = edit_new (EDIT_RENAME_ROOT);

  edit->new_name = g_strdup (new_name);
  return edit;
}

SqEdit *
sq_edit_rescale_new (double factor)
{
  SqEdit *edit = edit_new (EDIT_RESCALE);

  edit->value[0] = factor;
  return edit;
}

SqEdit *
sq_edit_set_first_frame_new (double x,
                             double y,
                             double z)
{
  SqEdit *edit = edit_new (EDIT_SET_FIRST_FRAME);

  edit->value[0] = x;
  edit->value[1] = y;
  edit->value[2] = z;
  return edit;
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

SqEdit *
sq_edit_sl_priority_new (gint32 priority)
{
  SqEdit *edit = edit_new (EDIT_SL_PRIORITY);

  edit->number = priority;
  return edit;
}

SqEdit *
sq_edit_sl_joint_priority_new (const char *joint,
                               gint32      priority)
{
  SqEdit *edit = edit_new (EDIT_SL_JOINT_PRIORITY);

  edit->name = g_strdup (joint);
  edit->number = priority;
  return edit;
}

SqEdit *
sq_edit_sl_loop_new (gboolean loop,
                     double   in,
                     double   out)
{
  SqEdit *edit = edit_new (EDIT_SL_LOOP);

  edit->number = loop != FALSE;
  edit->value[0] = in;
  edit->value[1] = out;
  return edit;
}

SqEdit *
sq_edit_sl_ease_new (double ease_in,
                     double ease_out)
{
  SqEdit *edit = edit_new (EDIT_SL_EASE);

  edit->value[0] = ease_in;
  edit->value[1] = ease_out;
  return edit;
}

SqEdit *
sq_edit_sl_hand_pose_new (guint32 hand_pose)
{
  SqEdit *edit = edit_new (EDIT_SL_HAND_POSE);

  edit->number = hand_pose;
  return edit;
}

SqEdit *
sq_edit_sl_emote_new (const char *emote)
{
  SqEdit *edit = edit_new (EDIT_SL_EMOTE);

  edit->new_name = g_strdup (emote ? emote : "");
  return edit;
}

SqEdit *
sq_edit_sl_delete_constraint_new (guint index)
{
  SqEdit *edit = edit_new (EDIT_SL_DELETE_CONSTRAINT);

  edit->number = index;
  return edit;
}

SqEdit *
sq_edit_sl_constraint_new (guint                 index,
                           const SqSlConstraint *c)
{
  SqEdit *edit = edit_new (EDIT_SL_CONSTRAINT);

  g_return_val_if_fail (c != NULL, edit);
  edit->number = index;
  edit->constraint = *c;
  /* the names are strings whatever the caller left after them */
  edit->constraint.source_volume[sizeof c->source_volume - 1] = '\0';
  edit->constraint.target_volume[sizeof c->target_volume - 1] = '\0';
  return edit;
}

SqEdit *
sq_edit_set_frame_rate_new (double fps)
{
  SqEdit *edit = edit_new (EDIT_SET_FRAME_RATE);

  edit->value[0] = fps;
  return edit;
}

SqEdit *
sq_edit_set_frame_time_new (double seconds)
{
  SqEdit *edit = edit_new (EDIT_SET_FRAME_TIME);

  edit->value[0] = seconds;
  return edit;
}

SqEdit *
sq_edit_dx_set_name_new (const char *name)
{
  SqEdit *edit = edit_new (EDIT_DX_SET_NAME);

  edit->new_name = g_strdup (name ? name : "");
  return edit;
}

static void
journal_clear (SqEdit *edit)
{
  for (guint i = 0; i < edit->saved->len; i++)
    sq_joint_clear (&g_array_index (edit->saved, SavedJoint, i).joint);
  g_array_set_size (edit->saved, 0);
  g_array_set_size (edit->added, 0);
  g_array_set_size (edit->inverted, 0);
  g_clear_pointer (&edit->old_root, g_free);
  g_clear_pointer (&edit->old_extra, sq_props_free);
  edit->old_timing = FALSE;
  edit->applied = FALSE;
}

void
sq_edit_free (SqEdit *edit)
{
  if (edit == NULL)
    return;
  journal_clear (edit);
  g_array_unref (edit->saved);
  g_array_unref (edit->added);
  g_array_unref (edit->inverted);
  g_strfreev (edit->names);
  g_free (edit->name);
  g_free (edit->new_name);
  g_free (edit->report);
  g_free (edit);
}

static gboolean
is_saved (const SqEdit *edit,
          gsize         index)
{
  for (guint i = 0; i < edit->saved->len; i++)
    if (g_array_index (edit->saved, SavedJoint, i).index == index)
      return TRUE;
  return FALSE;
}

static void
save_joint (SqEdit *edit,
            SqClip *clip,
            gsize   index)
{
  SavedJoint s = { index, FALSE, { 0 } };

  if (is_saved (edit, index))
    return;
  sq_joint_copy (&s.joint, &clip->joints[index]);
  g_array_append_val (edit->saved, s);
}

static void
rename_joint (SqEdit     *edit,
              SqClip     *clip,
              gsize       index,
              const char *name)
{
  save_joint (edit, clip, index);
  g_free (clip->joints[index].name);
  clip->joints[index].name = g_strdup (name);
}

static gboolean
check_new_name (const SqClip *clip,
                const char   *name,
                gssize        allowed_index,
                GError      **error)
{
  gssize existing;

  if (name == NULL || name[0] == '\0')
    {
      g_set_error_literal (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT, _("The new name is empty"));
      return FALSE;
    }
  if (!g_utf8_validate (name, -1, NULL) || strpbrk (name, "\r\n") != NULL)
    {
      g_set_error_literal (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                           _("The new name has a line break or is not valid text"));
      return FALSE;
    }
  existing = sq_clip_find_joint (clip, name);
  if (existing >= 0 && existing != allowed_index)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_EXISTS, _("A joint called “%s” already exists"), name);
      return FALSE;
    }
  return TRUE;
}

static gssize
find_or_fail (const SqClip *clip,
              const char   *name,
              GError      **error)
{
  gssize i = sq_clip_find_joint (clip, name);

  if (i < 0)
    g_set_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND, _("There is no joint called “%s”"), name);
  return i;
}

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
      save_joint (edit, clip, k);
      sq_props_set (clip->joints[k].extra, "parent", g_variant_new_int32 (np));
    }
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

static gboolean
apply_invert (SqEdit  *edit,
              SqClip  *clip,
              GError **error)
{
  if (edit->names == NULL)
    {
      for (gsize j = 0; j < clip->n_joints; j++)
        g_array_append_val (edit->inverted, j);
    }
  else
    {
      for (guint i = 0; edit->names[i] != NULL; i++)
        {
          gssize j = find_or_fail (clip, edit->names[i], error);
          gboolean seen = FALSE;

          if (j < 0)
            {
              g_array_set_size (edit->inverted, 0);
              return FALSE;
            }
          for (guint k = 0; k < edit->inverted->len; k++)
            seen |= g_array_index (edit->inverted, gsize, k) == (gsize) j;
          if (!seen)
            g_array_append_val (edit->inverted, j);
        }
    }
  for (guint i = 0; i < edit->inverted->len; i++)
    {
      gsize j = g_array_index (edit->inverted, gsize, i);

      /* a packed track is kept as it is for undo, which gives its records
       * back (the copy shares them) instead of inverting decoded keys */
      if (sq_track_is_packed (&clip->joints[j].tracks[SQ_CHANNEL_ROTATION]))
        save_joint (edit, clip, j);
      invert_joint (clip, j);
    }
  return TRUE;
}

static SqTrack *
root_translations (SqClip  *clip,
                   gssize  *index)
{
  *index = sq_clip_get_root_index (clip);
  return *index >= 0 ? &clip->joints[*index].tracks[SQ_CHANNEL_TRANSLATION] : NULL;
}

static gboolean
invalid (GError    **error,
         const char *format,
         ...) G_GNUC_PRINTF (2, 3);

static gboolean
invalid (GError    **error,
         const char *format,
         ...)
{
  va_list args;

  va_start (args, format);
  if (error != NULL)
    *error = g_error_new_valist (SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT, format, args);
  va_end (args);
  return FALSE;
}

static gboolean
check_priority (gint64   priority,
                GError **error)
{
  if (priority < SL_MIN_PRIORITY || priority > SL_MAX_PRIORITY)
    return invalid (error, _("The priority %" PRId64 " is not one of -1 to %d"), priority, SL_MAX_PRIORITY);
  return TRUE;
}

/* A time the .anim header holds: finite, ≥ 0 and a single-precision number */
static gboolean
is_sl_time (double t)
{
  return isfinite (t) && t >= 0 && t <= G_MAXFLOAT;
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
apply_sl (SqEdit  *edit,
          SqClip  *clip,
          GError **error)
{
  gssize j = -1;
  GVariant *constraints = NULL;
  g_autoptr(GBytes) latin1 = NULL;

  /* check everything first */
  switch (edit->kind)
    {
    case EDIT_SL_PRIORITY:
      if (!check_priority (edit->number, error))
        return FALSE;
      break;
    case EDIT_SL_JOINT_PRIORITY:
      if ((j = find_or_fail (clip, edit->name, error)) < 0 || !check_priority (edit->number, error))
        return FALSE;
      break;
    case EDIT_SL_LOOP:
      /* the rule is 0 ≤ in ≤ out ≤ duration; each way to break it says which */
      if (edit->number && is_sl_time (edit->value[0]) && is_sl_time (edit->value[1])
          && edit->value[1] < edit->value[0])
        return invalid (error, _("Loop out (%g s) comes before loop in (%g s): the loop must end after it starts"),
                        edit->value[1], edit->value[0]);
      if (edit->number && is_sl_time (edit->value[1]) && edit->value[1] > clip->duration)
        return invalid (error, _("Loop out (%g s) is after the end of the animation (%g s)"),
                        edit->value[1], clip->duration);
      if (edit->number
          && !(is_sl_time (edit->value[0]) && is_sl_time (edit->value[1]) && edit->value[0] <= edit->value[1]
               && edit->value[1] <= clip->duration))
        return invalid (error, _("The loop needs 0 ≤ in ≤ out ≤ %g s (the duration); in %g s, out %g s is not"),
                        clip->duration, edit->value[0], edit->value[1]);
      break;
    case EDIT_SL_EASE:
      if (!is_sl_time (edit->value[0]) || !is_sl_time (edit->value[1]))
        return invalid (error, _("The ease times must be finite numbers of seconds ≥ 0, not %g and %g"),
                        edit->value[0], edit->value[1]);
      break;
    case EDIT_SL_HAND_POSE:
      if (edit->number < 0 || edit->number >= SL_N_HAND_POSES)
        return invalid (error, _("The hand pose %" PRId64 " is not one of 0 to %d"), edit->number,
                        SL_N_HAND_POSES - 1);
      break;
    case EDIT_SL_EMOTE:
      if ((latin1 = emote_latin1 (edit->new_name)) == NULL)
        return invalid (error, _("The emote name “%s” has characters that a Second Life animation cannot hold "
                                 "(it takes Latin-1)"), edit->new_name);
      if (g_bytes_get_size (latin1) > SQ_SL_EMOTE_MAX_BYTES)
        return invalid (error, _("The emote name is %zu characters long; at most %d fit"),
                        g_bytes_get_size (latin1), SQ_SL_EMOTE_MAX_BYTES);
      break;
    case EDIT_SL_DELETE_CONSTRAINT:
      constraints = sq_props_get (clip->extra, "constraints");
      if (constraints == NULL || !g_variant_is_of_type (constraints, G_VARIANT_TYPE (SL_CONSTRAINTS_TYPE))
          || edit->number < 0 || (guint64) edit->number >= g_variant_n_children (constraints))
        return invalid (error, _("There is no constraint %" PRId64 " (the animation has %zu)"), edit->number + 1,
                        constraints != NULL && g_variant_is_of_type (constraints, G_VARIANT_TYPE (SL_CONSTRAINTS_TYPE))
                        ? g_variant_n_children (constraints) : (gsize) 0);
      break;
    default:
      g_assert_not_reached ();
    }

  if (edit->kind == EDIT_SL_JOINT_PRIORITY)
    {
      save_joint (edit, clip, j);
      sq_props_set (clip->joints[j].extra, "priority", g_variant_new_int32 ((gint32) edit->number));
      return TRUE;
    }

  edit->old_extra = sq_props_copy (clip->extra);
  switch (edit->kind)
    {
    case EDIT_SL_PRIORITY:
      sq_props_set (clip->extra, "priority", g_variant_new_int32 ((gint32) edit->number));
      break;
    case EDIT_SL_LOOP:
      sq_props_set (clip->extra, "loop", g_variant_new_int32 ((gint32) edit->number));
      if (edit->number)
        {
          sq_props_set (clip->extra, "loop-in", g_variant_new_double (edit->value[0]));
          sq_props_set (clip->extra, "loop-out", g_variant_new_double (edit->value[1]));
        }
      break;
    case EDIT_SL_EASE:
      sq_props_set (clip->extra, "ease-in", g_variant_new_double (edit->value[0]));
      sq_props_set (clip->extra, "ease-out", g_variant_new_double (edit->value[1]));
      break;
    case EDIT_SL_HAND_POSE:
      sq_props_set (clip->extra, "hand-pose", g_variant_new_uint32 ((guint32) edit->number));
      break;
    case EDIT_SL_EMOTE:
      sq_props_set (clip->extra, "emote", g_variant_new_string (edit->new_name));
      /* the bytes as Latin-1 when they read back so (not as UTF-8), else
       * the writer's UTF-8 */
      if (!g_utf8_validate (g_bytes_get_data (latin1, NULL), (gssize) g_bytes_get_size (latin1), NULL))
        sq_props_set (clip->extra, "emote-field",
                      g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, g_bytes_get_data (latin1, NULL),
                                                 g_bytes_get_size (latin1), 1));
      else
        sq_props_remove (clip->extra, "emote-field");
      break;
    case EDIT_SL_DELETE_CONSTRAINT:
      {
        GVariantBuilder b;
        gsize n = g_variant_n_children (constraints);

        g_variant_builder_init (&b, G_VARIANT_TYPE (SL_CONSTRAINTS_TYPE));
        for (gsize i = 0; i < n; i++)
          if (i != (gsize) edit->number)
            {
              g_autoptr(GVariant) c = g_variant_get_child_value (constraints, i);
              g_variant_builder_add_value (&b, c);
            }
        /* `constraints` belongs to the list until this replaces it */
        sq_props_set (clip->extra, "constraints", g_variant_builder_end (&b));
      }
      break;
    default:
      g_assert_not_reached ();
    }
  return TRUE;
}

/* A number a .anim field holds: finite in single precision */
static gboolean
is_sl_number (double v)
{
  return isfinite (v) && fabs (v) <= G_MAXFLOAT;
}

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
    return invalid (error, _("There is no constraint %u (the animation has %u); a new one is number %u"),
                    index + 1, count, count + 1);
  if (index == count && count >= SQ_SL_MAX_CONSTRAINTS)
    return invalid (error, _("The animation has %u constraints; Second Life takes at most %d"),
                    count, SQ_SL_MAX_CONSTRAINTS);
  if (c->chain_length > SQ_SL_MAX_CHAIN_LENGTH)
    return invalid (error, _("The chain length %u is more than %d: longer chains overflow the viewer's arrays"),
                    c->chain_length, SQ_SL_MAX_CHAIN_LENGTH);
  if (c->chain_length > clip->n_joints)
    return invalid (error, _("The chain length %u is more than the %zu joints of the animation"),
                    c->chain_length, clip->n_joints);
  if (c->type >= SQ_SL_N_CONSTRAINT_TYPES)
    return invalid (error, _("The constraint type %u is neither 0 (point) nor 1 (plane)"), c->type);
  if (!sq_sl_is_collision_volume (c->source_volume))
    return invalid (error, _("The source “%s” is not a collision volume (such as L_HAND or R_FOOT)"),
                    c->source_volume);
  if (strcmp (c->target_volume, SQ_SL_GROUND) != 0 && !sq_sl_is_collision_volume (c->target_volume))
    return invalid (error, _("The target “%s” is neither GROUND nor a collision volume"), c->target_volume);
  for (guint v = 0; v < 3; v++)
    for (guint k = 0; k < 3; k++)
      if (!is_sl_number (vectors[v][k]))
        return invalid (error, _("The offsets and the direction must be finite numbers"));
  for (guint k = 0; k < 4; k++)
    if (!is_sl_time (ease[k]))
      return invalid (error, _("The ease times must be finite numbers of seconds ≥ 0"));
  if (c->ease_in_start > c->ease_in_stop || c->ease_out_start > c->ease_out_stop)
    return invalid (error, _("An ease starts after it stops (in %g–%g s, out %g–%g s)"),
                    ease[0], ease[1], ease[2], ease[3]);
  return TRUE;
}

static gboolean
apply_constraint (SqEdit  *edit,
                  SqClip  *clip,
                  GError **error)
{
  GVariant *old = sq_props_get (clip->extra, "constraints");
  guint count = sq_sl_constraint_count (clip);
  guint index = (guint) edit->number;
  GVariantBuilder b;

  if (edit->number < 0 || edit->number > G_MAXUINT
      || !check_constraint (clip, &edit->constraint, index, error))
    return FALSE;

  edit->old_extra = sq_props_copy (clip->extra);
  g_variant_builder_init (&b, G_VARIANT_TYPE (SL_CONSTRAINTS_TYPE));
  for (guint i = 0; i < count; i++)
    {
      g_autoptr(GVariant) c = g_variant_get_child_value (old, i);

      if (i == index)
        g_variant_builder_add_value (&b, _sq_sl_constraint_to_variant (&edit->constraint, c));
      else
        g_variant_builder_add_value (&b, c);
    }
  if (index == count)
    g_variant_builder_add_value (&b, _sq_sl_constraint_to_variant (&edit->constraint, NULL));
  edit->appended = index == count;
  /* `old` belongs to the list until this replaces it */
  sq_props_set (clip->extra, "constraints", g_variant_builder_end (&b));
  /* an out-of-range count the file had no longer applies */
  sq_props_remove (clip->extra, "constraint-count");
  return TRUE;
}

/* The time of a key at `t` once the frame rate changes from `old_fps`: on
 * the frame grid it keeps its frame number (the time computed as the format's
 * reader computes it: frame × frame time for BVH, tick / rate for .x), off it
 * it scales. */
static double
retime (double   t,
        double   old_fps,
        double   new_fps,
        double   new_ft,
        gboolean by_frame_time)
{
  double s = t * old_fps;
  double r = floor (s + 0.5);

  if (fabs (s - r) <= FRAME_EPSILON)
    return by_frame_time ? r * new_ft : r / new_fps;
  return s / new_fps;
}

static gboolean
apply_frame_rate (SqEdit  *edit,
                  SqClip  *clip,
                  GError **error)
{
  gboolean dx = clip->format != NULL && g_strcmp0 (clip->format->id, "dx") == 0;
  gboolean bvh = clip->format != NULL && g_strcmp0 (clip->format->id, "bvh") == 0;
  gboolean by_frame_time = bvh || edit->kind == EDIT_SET_FRAME_TIME;
  double fps, ft, old_fps = clip->fps;

  if (edit->kind == EDIT_SET_FRAME_TIME)
    {
      ft = edit->value[0];
      fps = 1.0 / ft;
    }
  else
    {
      fps = edit->value[0];
      ft = 1.0 / fps;
    }
  if (!isfinite (edit->value[0]) || !(edit->value[0] > 0) || !(ft >= MIN_FRAME_TIME && ft <= MAX_FRAME_TIME))
    return edit->kind == EDIT_SET_FRAME_TIME
           ? invalid (error, _("The frame time %g s is not within %g to %g s"), edit->value[0],
                      MIN_FRAME_TIME, MAX_FRAME_TIME)
           : invalid (error, _("The frame rate %g is not within %g to %g frames per second"), edit->value[0],
                      1.0 / MAX_FRAME_TIME, 1.0 / MIN_FRAME_TIME);
  if (clip->format != NULL && !(clip->format->flags & SQ_FORMAT_FRAME_RATE))
    return invalid (error, _("The frame rate of a %s file is fixed; it cannot be changed"),
                    sq_format_get_name (clip->format));
  if (dx && fps != floor (fps))
    return invalid (error, _("A DirectX file holds whole ticks per second; %g is not one"), fps);

  /* check that the keys stay in order before changing anything */
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *t = &clip->joints[j].tracks[c];
        double prev = -INFINITY;

        for (gsize k = 0; k < t->n_keys; k++)
          {
            double nt = retime (sq_track_time (t, k), old_fps, fps, ft, by_frame_time);

            if (!isfinite (nt) || !(nt > prev))
              return invalid (error, _("Joint “%s”: at %g frames per second two keys would fall on the same time"),
                              clip->joints[j].name, fps);
            prev = nt;
          }
      }

  edit->old_timing = TRUE;
  edit->old_fps = clip->fps;
  edit->old_duration = clip->duration;
  edit->old_extra = sq_props_copy (clip->extra);
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      gboolean any = FALSE;

      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        any |= clip->joints[j].tracks[c].n_keys > 0;
      if (!any)
        continue;
      save_joint (edit, clip, j);
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        {
          SqTrack *t = &clip->joints[j].tracks[c];
          SqKey *keys = sq_track_unpack (t);

          for (gsize k = 0; k < t->n_keys; k++)
            keys[k].time = retime (keys[k].time, old_fps, fps, ft, by_frame_time);
        }
    }
  clip->duration = MAX (0.0, retime (clip->duration, old_fps, fps, ft, by_frame_time));
  clip->fps = fps;
  /* BVH keeps its Frame Time exactly; its writer uses it while 1 / it is
   * the clip's rate, and the text read from the file while that reads as it */
  if (bvh || sq_props_get (clip->extra, "frame-time") != NULL)
    sq_props_set (clip->extra, "frame-time", g_variant_new_double (ft));
  return TRUE;
}

static const char * const dx_reserved[] = {
  "ARRAY", "BINARY", "BINARY_RESOURCE", "CHAR", "CSTRING", "DOUBLE", "DWORD", "FLOAT", "SDWORD",
  "STRING", "SWORD", "TEMPLATE", "UCHAR", "ULONGLONG", "UNICODE", "WORD",
};

static gboolean
check_dx_name (const char *name,
               GError    **error)
{
  glong n;

  if (name[0] == '\0')
    return TRUE;
  if (!g_utf8_validate (name, -1, NULL))
    return invalid (error, _("The name is not valid text"));
  n = g_utf8_strlen (name, -1);
  if (n > DX_MAX_NAME)
    return invalid (error, _("The name is %ld characters long; at most %d fit"), n, DX_MAX_NAME);
  for (const char *p = name; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      gboolean letter = c <= 0xff && (g_unichar_isalpha (c) || c == '_');

      if (c > 0xff || !(letter || (p != name && ((c < 0x80 && g_ascii_isdigit (c)) || c == '-' || c == '.'))))
        return invalid (error, _("“%s” is not a DirectX name: it must start with a letter or “_” and hold only "
                                 "Latin-1 letters, digits, “_”, “-” and “.”"), name);
    }
  for (guint i = 0; i < G_N_ELEMENTS (dx_reserved); i++)
    if (g_ascii_strcasecmp (dx_reserved[i], name) == 0)
      return invalid (error, _("“%s” is a reserved word of DirectX files"), name);
  return TRUE;
}

static gboolean
apply_dx_name (SqEdit  *edit,
               SqClip  *clip,
               GError **error)
{
  if (!check_dx_name (edit->new_name, error))
    return FALSE;
  edit->old_extra = sq_props_copy (clip->extra);
  if (edit->new_name[0] == '\0')
    sq_props_remove (clip->extra, "set_name");
  else
    sq_props_set (clip->extra, "set_name", g_variant_new_string (edit->new_name));
  return TRUE;
}

gboolean
sq_edit_apply (SqEdit  *edit,
               SqClip  *clip,
               GError **error)
{
  gssize j, root;
  SqTrack *track;

  g_return_val_if_fail (edit != NULL && clip != NULL, FALSE);
  g_return_val_if_fail (!edit->applied, FALSE);

  journal_clear (edit);

  switch (edit->kind)
    {
    case EDIT_INVERT_XZ:
      if (!apply_invert (edit, clip, error))
        return FALSE;
      break;

    case EDIT_RENAME_JOINT:
      if ((j = find_or_fail (clip, edit->name, error)) < 0 || !check_new_name (clip, edit->new_name, j, error))
        return FALSE;
      if (j == sq_clip_get_root_index (clip) && strcmp (edit->name, edit->new_name) != 0)
        {
          if (clip->format != NULL && (clip->format->flags & SQ_FORMAT_ROOT_APART)
              && !sq_props_get_bool (clip->joints[j].extra, "no-entry", FALSE))
            {
              /* binary SEQ: renaming a joint entry changes only its name; the
               * locations stay with the header's root, now a joint of its own */
              if (clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION].n_keys > 0)
                {
                  SqJoint *loc;
                  gsize added;

                  save_joint (edit, clip, j);
                  loc = sq_clip_add_joint (clip, edit->name);
                  added = clip->n_joints - 1;
                  g_array_append_val (edit->added, added);
                  sq_props_set (loc->extra, "no-entry", g_variant_new_boolean (TRUE));
                  loc->tracks[SQ_CHANNEL_TRANSLATION] = clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION];
                  memset (&clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION], 0, sizeof (SqTrack));
                }
            }
          else
            {
              /* elsewhere the root is a joint like the others: the header's
               * root (where the format has one) follows its name */
              edit->old_root = g_strdup (clip->root);
              g_free (clip->root);
              clip->root = g_strdup (edit->new_name);
            }
        }
      rename_joint (edit, clip, j, edit->new_name);
      break;

    case EDIT_DELETE_JOINT:
      if ((j = find_or_fail (clip, edit->name, error)) < 0)
        return FALSE;
      reparent_children (edit, clip, j);
      {
        SavedJoint s = { j, TRUE, clip->joints[j] };
        /* the clip's joint moves into the journal as it is */
        g_array_append_val (edit->saved, s);
        memmove (&clip->joints[j], &clip->joints[j + 1], (clip->n_joints - j - 1) * sizeof (SqJoint));
        clip->n_joints--;
      }
      break;

    case EDIT_DELETE_KEYS:
      {
        gssize at[SQ_N_CHANNELS];
        gboolean any = FALSE;

        if ((j = find_or_fail (clip, edit->name, error)) < 0)
          return FALSE;
        double tolerance = clip->fps > 0 && isfinite (clip->fps) ? 0.5 / clip->fps : KEY_TIME_EPSILON;

        for (int c = 0; c < SQ_N_CHANNELS; c++)
          {
            const SqTrack *t = &clip->joints[j].tracks[c];
            gsize i = sq_track_lower_bound (t, edit->value[0], 0, t->n_keys);

            /* the nearest key, before or after */
            if (i > 0 && (i == t->n_keys || edit->value[0] - sq_track_time (t, i - 1) <= sq_track_time (t, i) - edit->value[0]))
              i--;
            at[c] = i < t->n_keys && fabs (sq_track_time (t, i) - edit->value[0]) <= tolerance ? (gssize) i : -1;
            any |= at[c] >= 0;
          }
        if (!any)
          {
            g_set_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND, _("Joint “%s” has no key at %g s"),
                         edit->name, edit->value[0]);
            return FALSE;
          }
        save_joint (edit, clip, j);
        for (int c = 0; c < SQ_N_CHANNELS; c++)
          if (at[c] >= 0)
            sq_track_remove (&clip->joints[j].tracks[c], (gsize) at[c]);
      }
      break;

    case EDIT_RENAME_ROOT:
      root = sq_clip_get_root_index (clip);
      if (!check_new_name (clip, edit->new_name, root, error))
        return FALSE;
      edit->old_root = g_strdup (clip->root);
      g_free (clip->root);
      clip->root = g_strdup (edit->new_name);
      if (root >= 0)
        rename_joint (edit, clip, root, edit->new_name);
      break;

    case EDIT_RESCALE:
      if (!sq_edit_check_rescale_factor (edit->value[0], error))
        return FALSE;
      track = root_translations (clip, &root);
      if (track == NULL || track->n_keys == 0)
        {
          g_set_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND,
                       _("The root joint “%s” has no locations to rescale"), sq_clip_get_effective_root (clip));
          return FALSE;
        }
      save_joint (edit, clip, root);
      sq_track_unpack (track);
      for (gsize k = 0; k < track->n_keys; k++)
        for (guint c = 0; c < 3; c++)
          track->keys[k].v[c] *= edit->value[0];
      break;

    case EDIT_SET_FIRST_FRAME:
      if (!isfinite (edit->value[0]) || !isfinite (edit->value[1]) || !isfinite (edit->value[2]))
        {
          g_set_error_literal (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT, _("The location must be finite numbers"));
          return FALSE;
        }
      track = root_translations (clip, &root);
      if (root < 0)
        {
          SqJoint *joint = sq_clip_add_joint (clip, sq_clip_get_effective_root (clip));
          gsize added = clip->n_joints - 1;

          sq_props_set (joint->extra, "no-entry", g_variant_new_boolean (TRUE));
          g_array_append_val (edit->added, added);
          root = added;
          track = &joint->tracks[SQ_CHANNEL_TRANSLATION];
        }
      else
        save_joint (edit, clip, root);
      {
        gsize k = sq_track_insert (track, 0.0);
        memcpy (track->keys[k].v, edit->value, 3 * sizeof (double));
        track->keys[k].v[3] = 0.0;
        if (track->present != NULL)
          track->present[k] = SQ_PRESENT_ALL;
      }
      break;

    case EDIT_SL_PRIORITY:
    case EDIT_SL_JOINT_PRIORITY:
    case EDIT_SL_LOOP:
    case EDIT_SL_EASE:
    case EDIT_SL_HAND_POSE:
    case EDIT_SL_EMOTE:
    case EDIT_SL_DELETE_CONSTRAINT:
      if (!apply_sl (edit, clip, error))
        {
          journal_clear (edit);
          return FALSE;
        }
      break;

    case EDIT_SL_CONSTRAINT:
      if (!apply_constraint (edit, clip, error))
        return FALSE;
      break;

    case EDIT_SET_FRAME_RATE:
    case EDIT_SET_FRAME_TIME:
      if (!apply_frame_rate (edit, clip, error))
        return FALSE;
      break;

    case EDIT_DX_SET_NAME:
      if (!apply_dx_name (edit, clip, error))
        return FALSE;
      break;

    case EDIT_MOTION:
      g_clear_pointer (&edit->report, g_free);
      if (!_sq_motion_apply (edit, clip, error))
        return FALSE;   /* refused before any change */
      break;

    case EDIT_SIMS:
      if (!_sq_sims_edit_apply (edit, clip, error))
        return FALSE;   /* refused before any change */
      break;

    default:
      g_assert_not_reached ();
    }

  edit->applied = TRUE;
  edit->old_generation = clip->generation;
  clip->generation = _sq_clip_new_generation ();
  return TRUE;
}

void
sq_edit_undo (SqEdit *edit,
              SqClip *clip)
{
  g_return_if_fail (edit != NULL && clip != NULL);
  g_return_if_fail (edit->applied);

  for (guint i = 0; i < edit->inverted->len; i++)
    if (!is_saved (edit, g_array_index (edit->inverted, gsize, i)))
      invert_joint (clip, g_array_index (edit->inverted, gsize, i));

  for (guint i = edit->added->len; i > 0; i--)
    sq_clip_remove_joint (clip, g_array_index (edit->added, gsize, i - 1));

  for (guint i = edit->saved->len; i > 0; i--)
    {
      SavedJoint *s = &g_array_index (edit->saved, SavedJoint, i - 1);

      if (s->removed)
        {
          if (clip->n_joints == clip->joints_alloc)
            {
              clip->joints_alloc = MAX (8, clip->joints_alloc * 2);
              clip->joints = g_renew (SqJoint, clip->joints, clip->joints_alloc);
            }
          memmove (&clip->joints[s->index + 1], &clip->joints[s->index],
                   (clip->n_joints - s->index) * sizeof (SqJoint));
          clip->n_joints++;
        }
      else
        sq_joint_clear (&clip->joints[s->index]);
      /* the saved joint goes back into the clip */
      clip->joints[s->index] = s->joint;
      memset (&s->joint, 0, sizeof s->joint);
    }
  g_array_set_size (edit->saved, 0);

  if (edit->old_root != NULL)
    {
      g_free (clip->root);
      clip->root = g_steal_pointer (&edit->old_root);
    }
  if (edit->old_extra != NULL)
    {
      sq_props_free (clip->extra);
      clip->extra = g_steal_pointer (&edit->old_extra);
    }
  if (edit->old_timing)
    {
      clip->fps = edit->old_fps;
      clip->duration = edit->old_duration;
    }

  clip->generation = edit->old_generation;
  journal_clear (edit);
}

const char *
sq_edit_get_label (const SqEdit *edit)
{
  switch (edit->kind)
    {
    case EDIT_INVERT_XZ: return _("Invert Sign of Quat X & Z");
    case EDIT_RENAME_JOINT: return _("Rename Joint");
    case EDIT_DELETE_JOINT: return _("Delete Joint");
    case EDIT_DELETE_KEYS: return _("Delete Keys");
    case EDIT_RENAME_ROOT: return _("Rename Root Joint");
    case EDIT_RESCALE: return _("Rescale Distances");
    case EDIT_SET_FIRST_FRAME: return _("Set First Frame");
    case EDIT_SL_PRIORITY: return _("Set Priority");
    case EDIT_SL_JOINT_PRIORITY: return _("Set Joint Priority");
    case EDIT_SL_LOOP: return _("Set Loop");
    case EDIT_SL_EASE: return _("Set Ease In and Out");
    case EDIT_SL_HAND_POSE: return _("Set Hand Pose");
    case EDIT_SL_EMOTE: return _("Set Emote");
    case EDIT_SL_DELETE_CONSTRAINT: return _("Delete Constraint");
    case EDIT_SL_CONSTRAINT: return _("Set Constraint");
    case EDIT_SET_FRAME_RATE: return _("Set Frame Rate");
    case EDIT_SET_FRAME_TIME: return _("Set Frame Time");
    case EDIT_DX_SET_NAME: return _("Set Animation Set Name");
    case EDIT_MOTION: return _sq_motion_label (edit->motion);
    case EDIT_SIMS: return _sq_sims_edit_label (edit);
    default: g_assert_not_reached ();
    }
}

char *
sq_edit_describe (const SqEdit *edit)
{
  switch (edit->kind)
    {
    case EDIT_INVERT_XZ:
      if (edit->names == NULL)
        return g_strdup (_("Invert the sign of quaternion X and Z of every joint"));
      {
        g_autofree char *list = g_strjoinv (", ", edit->names);
        return g_strdup_printf (_("Invert the sign of quaternion X and Z of %s"), list);
      }
    case EDIT_RENAME_JOINT:
      return g_strdup_printf (_("Rename joint “%s” to “%s”"), edit->name, edit->new_name);
    case EDIT_DELETE_JOINT:
      return g_strdup_printf (_("Delete joint “%s”"), edit->name);
    case EDIT_DELETE_KEYS:
      return g_strdup_printf (_("Delete the keys of joint “%s” at %g s"), edit->name, edit->value[0]);
    case EDIT_RENAME_ROOT:
      return g_strdup_printf (_("Rename the root joint to “%s”"), edit->new_name);
    case EDIT_RESCALE:
      return g_strdup_printf (_("Rescale the root's locations by %g"), edit->value[0]);
    case EDIT_SET_FIRST_FRAME:
      return g_strdup_printf (_("Set the root's location at the first frame to (%g, %g, %g)"),
                              edit->value[0], edit->value[1], edit->value[2]);
    case EDIT_SL_PRIORITY:
      return g_strdup_printf (_("Set the base priority to %" PRId64), edit->number);
    case EDIT_SL_JOINT_PRIORITY:
      return g_strdup_printf (_("Set the priority of joint “%s” to %" PRId64), edit->name, edit->number);
    case EDIT_SL_LOOP:
      return edit->number ? g_strdup_printf (_("Loop from %g s to %g s"), edit->value[0], edit->value[1])
                          : g_strdup (_("Turn looping off"));
    case EDIT_SL_EASE:
      return g_strdup_printf (_("Set the ease in to %g s and the ease out to %g s"), edit->value[0], edit->value[1]);
    case EDIT_SL_HAND_POSE:
      return g_strdup_printf (_("Set the hand pose to %" PRId64), edit->number);
    case EDIT_SL_EMOTE:
      return edit->new_name[0] == '\0' ? g_strdup (_("Remove the emote"))
                                        : g_strdup_printf (_("Set the emote to “%s”"), edit->new_name);
    case EDIT_SL_DELETE_CONSTRAINT:
      return g_strdup_printf (_("Delete constraint %" PRId64), edit->number + 1);
    case EDIT_SL_CONSTRAINT:
      {
        const SqSlConstraint *c = &edit->constraint;
        const char *type = sq_sl_constraint_type_name (c->type);

        return g_strdup_printf (edit->appended ? _("Add constraint %" PRId64 ": %s, chain %u, from %s to %s")
                                               : _("Set constraint %" PRId64 " to %s, chain %u, from %s to %s"),
                                edit->number + 1, type ? type : "?", c->chain_length, c->source_volume,
                                c->target_volume);
      }
    case EDIT_SET_FRAME_RATE:
      return g_strdup_printf (_("Set the frame rate to %g frames per second"), edit->value[0]);
    case EDIT_SET_FRAME_TIME:
      return g_strdup_printf (_("Set the frame time to %g s"), edit->value[0]);
    case EDIT_DX_SET_NAME:
      return edit->new_name[0] == '\0' ? g_strdup (_("Remove the animation set name"))
                                        : g_strdup_printf (_("Name the animation set “%s”"), edit->new_name);
    case EDIT_MOTION:
      return _sq_motion_describe (edit->motion, edit->value);
    case EDIT_SIMS:
      return _sq_sims_edit_describe (edit);
    default:
      g_assert_not_reached ();
    }
}

/* ---- the motion edits' hooks (sq-motion-private.h) ---- */

SqEdit *
_sq_edit_motion_new (SqMotionOp op,
                     double     a,
                     double     b)
{
  SqEdit *edit = edit_new (EDIT_MOTION);

  edit->motion = op;
  edit->value[0] = a;
  edit->value[1] = b;
  return edit;
}

SqMotionOp
_sq_edit_motion_op (const SqEdit *edit,
                    double        params[2])
{
  params[0] = edit->value[0];
  params[1] = edit->value[1];
  return edit->motion;
}

SqEdit *
_sq_edit_world_new (int         op,
                    const char *name,
                    const char *new_name,
                    double      number)
{
  SqEdit *edit = edit_new (EDIT_SIMS);

  edit->world_op = op;
  edit->name = g_strdup (name);
  edit->new_name = g_strdup (new_name);
  edit->value[0] = number;
  return edit;
}

int
_sq_edit_world_op (const SqEdit *edit,
                   const char  **name,
                   const char  **new_name,
                   double       *number)
{
  *name = edit->name;
  *new_name = edit->new_name;
  *number = edit->value[0];
  return edit->world_op;
}

void
_sq_edit_journal_joint (SqEdit *edit,
                        SqClip *clip,
                        gsize   index)
{
  save_joint (edit, clip, index);
}

void
_sq_edit_journal_extra (SqEdit *edit,
                        SqClip *clip)
{
  if (edit->old_extra == NULL)
    edit->old_extra = sq_props_copy (clip->extra);
}

void
_sq_edit_journal_timing (SqEdit *edit,
                         SqClip *clip)
{
  if (edit->old_timing)
    return;
  edit->old_timing = TRUE;
  edit->old_fps = clip->fps;
  edit->old_duration = clip->duration;
}

void
_sq_edit_set_report (SqEdit *edit,
                     char   *report)
{
  g_free (edit->report);
  edit->report = report;
}

const char *
sq_edit_get_report (const SqEdit *edit)
{
  return edit->report;
}
