/* sq-edit.c: an edit is its class and its parameters; undo through a journal
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * sq_edit_apply, sq_edit_undo, sq_edit_get_label and sq_edit_describe go
 * through the edit's class (sq-edit-private.h). The kinds live with what
 * they change: the joint edits in sq-edit-joints.c, the frame rate in
 * sq-edit-frame-rate.c, the motion edits in sq-motion.c, each world's own
 * edits in its home (worlds/sq-sl-edit.c, worlds/sq-aw-edit.c,
 * worlds/sq-sims-edit.c).
 *
 * The journal records what an apply replaced: whole joints it modifies or
 * removes (copied once, before the change), the joints it adds, the header's
 * root name, the clip's property list (it is small), the duration and frame
 * rate, and the clip's generation. Undo puts all of that back, so the clip is
 * bitwise what it was; apply again redoes.
 */
#define G_LOG_DOMAIN "sq-edit"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sq-edit-private.h"
#include "sq-motion.h"

typedef struct
{
  gsize    index;
  gboolean removed;    /* the joint was taken out of the clip */
  SqJoint  joint;      /* copy from before the change */
} SavedJoint;

struct _SqEdit
{
  const SqEditClass *klass;
  gpointer  params;
  char     *report;    /* what the last apply found worth telling, or NULL */

  /* journal of the last apply */
  gboolean  applied;
  GArray   *saved;     /* SavedJoint, in the order saved */
  GArray   *added;     /* gsize: indices of joints the edit appended */
  char     *old_root;
  SqProps  *old_extra; /* the clip's property list from before */
  gboolean  old_timing;
  double    old_fps;
  double    old_duration;
  guint64   old_generation;
};

SqEdit *
_sq_edit_new (const SqEditClass *klass,
              gpointer           params)
{
  SqEdit *edit = g_new0 (SqEdit, 1);

  edit->klass = klass;
  edit->params = params;
  edit->saved = g_array_new (FALSE, FALSE, sizeof (SavedJoint));
  edit->added = g_array_new (FALSE, FALSE, sizeof (gsize));
  return edit;
}

gpointer
_sq_edit_get_params (const SqEdit *edit)
{
  return edit->params;
}

static void
journal_clear (SqEdit *edit)
{
  for (guint i = 0; i < edit->saved->len; i++)
    sq_joint_clear (&g_array_index (edit->saved, SavedJoint, i).joint);
  g_array_set_size (edit->saved, 0);
  g_array_set_size (edit->added, 0);
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
  if (edit->klass->free != NULL)
    edit->klass->free (edit->params);
  g_free (edit->params);
  g_free (edit->report);
  g_free (edit);
}

/* ---- the journal ---- */

gboolean
_sq_edit_journal_has_joint (const SqEdit *edit,
                            gsize         index)
{
  for (guint i = 0; i < edit->saved->len; i++)
    if (g_array_index (edit->saved, SavedJoint, i).index == index)
      return TRUE;
  return FALSE;
}

void
_sq_edit_journal_joint (SqEdit *edit,
                        SqClip *clip,
                        gsize   index)
{
  SavedJoint s = { index, FALSE, { 0 } };

  if (_sq_edit_journal_has_joint (edit, index))
    return;
  sq_joint_copy (&s.joint, &clip->joints[index]);
  g_array_append_val (edit->saved, s);
}

void
_sq_edit_journal_take_joint (SqEdit *edit,
                             SqClip *clip,
                             gsize   index)
{
  SavedJoint s = { index, TRUE, clip->joints[index] };

  /* the clip's joint moves into the journal as it is */
  g_array_append_val (edit->saved, s);
  memmove (&clip->joints[index], &clip->joints[index + 1], (clip->n_joints - index - 1) * sizeof (SqJoint));
  clip->n_joints--;
}

void
_sq_edit_journal_added_joint (SqEdit *edit,
                              gsize   index)
{
  g_array_append_val (edit->added, index);
}

void
_sq_edit_journal_root (SqEdit *edit,
                       SqClip *clip)
{
  if (edit->old_root == NULL)
    edit->old_root = g_strdup (clip->root);
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

/* ---- the shared checks ---- */

gssize
_sq_edit_find_joint (const SqClip *clip,
                     const char   *name,
                     GError      **error)
{
  gssize i = sq_clip_find_joint (clip, name);

  if (i < 0)
    g_set_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND, _("There is no joint called “%s”"), name);
  return i;
}

gboolean
_sq_edit_invalid (GError    **error,
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

gboolean
sq_edit_check_joint_name (const SqClip *clip,
                          const char   *name,
                          gssize        joint,
                          GError      **error)
{
  gssize existing;

  g_return_val_if_fail (clip != NULL, FALSE);

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
  if (existing >= 0 && existing != joint)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_EXISTS, _("A joint called “%s” already exists"), name);
      return FALSE;
    }
  return TRUE;
}

/* ---- dispatch through the class ---- */

void
_sq_edit_mark_joint (SqClip *clip,
                     gsize   index)
{
  if (index < clip->n_joints)
    clip->joints[index].generation = _sq_clip_new_generation ();
}

/* after an edit class that does not mark its joints: all of them */
static void
mark_all_joints (const SqEdit *edit,
                 SqClip       *clip)
{
  if (!edit->klass->marks_joints)
    for (gsize j = 0; j < clip->n_joints; j++)
      _sq_edit_mark_joint (clip, j);
}

gboolean
sq_edit_apply (SqEdit  *edit,
               SqClip  *clip,
               GError **error)
{
  g_return_val_if_fail (edit != NULL && clip != NULL, FALSE);
  g_return_val_if_fail (!edit->applied, FALSE);

  journal_clear (edit);
  g_clear_pointer (&edit->report, g_free);
  if (!edit->klass->apply (edit, clip, error))
    {
      /* refused before any change: nothing to keep */
      journal_clear (edit);
      return FALSE;
    }
  mark_all_joints (edit, clip);
  edit->applied = TRUE;
  edit->old_generation = clip->generation;
  clip->generation = _sq_clip_new_generation ();
  return TRUE;
}

static void
restore_joints (SqEdit *edit,
                SqClip *clip)
{
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
}

void
sq_edit_undo (SqEdit *edit,
              SqClip *clip)
{
  g_return_if_fail (edit != NULL && clip != NULL);
  g_return_if_fail (edit->applied);

  if (edit->klass->undo != NULL)
    edit->klass->undo (edit, clip);
  restore_joints (edit, clip);
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
  mark_all_joints (edit, clip);
  journal_clear (edit);
}

const char *
sq_edit_get_label (const SqEdit *edit)
{
  return _(edit->klass->label);
}

char *
sq_edit_describe (const SqEdit *edit)
{
  return edit->klass->describe (edit);
}
