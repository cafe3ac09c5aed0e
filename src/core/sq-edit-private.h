/* sq-edit-private.h: how an edit kind plugs into SqEdit, and the undo journal
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each kind of edit is a class: a constant table entry with its label and
 * the functions that describe and apply it. An SqEdit is its class and its
 * parameters (a block the class defines, owned by the edit).
 *
 * An apply function checks everything first and returns FALSE with an error,
 * the clip untouched, when it refuses. Otherwise it changes the clip, and
 * before each change records what it replaces in the edit's journal (the
 * functions below). sq_edit_undo() first calls the class's undo, if it has
 * one (for changes that are their own inverse and recorded nothing), then
 * puts back everything journalled, so the clip is bitwise what it was.
 */
#pragma once

#include "sq-edit.h"
#include "sq-private.h"

G_BEGIN_DECLS

typedef struct _SqEditClass SqEditClass;

struct _SqEditClass
{
  /* the menu and undo-history label, marked for translation (N_ ...);
   * sq_edit_get_label translates it */
  const char *label;
  /* one sentence saying what the edit does, with its parameters */
  char     *(*describe) (const SqEdit *edit);
  gboolean  (*apply)    (SqEdit       *edit,
                         SqClip       *clip,
                         GError      **error);
  /* optional: undoes what is not journalled, before the journal is put back */
  void      (*undo)     (SqEdit       *edit,
                         SqClip       *clip);
  /* optional: frees what the parameters own (the block itself is freed
   * with the edit) */
  void      (*free)     (gpointer      params);
  /* TRUE: apply and undo mark the joints they change themselves
   * (_sq_edit_mark_joint); otherwise every joint is marked after each */
  gboolean    marks_joints;
};

/* A new SqJoint.generation for joint `index` of `clip` */
void        _sq_edit_mark_joint          (SqClip       *clip,
                                          gsize         index);

/* A new edit of `klass`, taking `params` (allocated with g_malloc) */
SqEdit     *_sq_edit_new                 (const SqEditClass *klass,
                                          gpointer           params);
gpointer    _sq_edit_get_params          (const SqEdit      *edit);

/* ---- the journal: call each before the change it records ---- */

/* joint `index` as it is now (copied once per apply) */
void        _sq_edit_journal_joint       (SqEdit       *edit,
                                          SqClip       *clip,
                                          gsize         index);
/* TRUE when joint `index` is journalled */
gboolean    _sq_edit_journal_has_joint   (const SqEdit *edit,
                                          gsize         index);
/* takes joint `index` out of the clip into the journal (later joints move
 * down); undo puts it back in its place */
void        _sq_edit_journal_take_joint  (SqEdit       *edit,
                                          SqClip       *clip,
                                          gsize         index);
/* joint `index` was just appended; undo removes it */
void        _sq_edit_journal_added_joint (SqEdit       *edit,
                                          gsize         index);
/* the header's root name */
void        _sq_edit_journal_root        (SqEdit       *edit,
                                          SqClip       *clip);
/* the clip's property list */
void        _sq_edit_journal_extra       (SqEdit       *edit,
                                          SqClip       *clip);
/* the duration and the frame rate */
void        _sq_edit_journal_timing      (SqEdit       *edit,
                                          SqClip       *clip);
/* what the apply found worth telling (sq_edit_get_report); takes `report` */
void        _sq_edit_set_report          (SqEdit       *edit,
                                          char         *report);

/* ---- helpers the edits share ---- */

/* The index of joint `name`, or -1 with SQ_ERROR_NOT_FOUND */
gssize      _sq_edit_find_joint          (const SqClip *clip,
                                          const char   *name,
                                          GError      **error);
/* Sets SQ_ERROR_INVALID_ARGUMENT; returns FALSE */
gboolean    _sq_edit_invalid             (GError      **error,
                                          const char   *format,
                                          ...) G_GNUC_PRINTF (2, 3);

G_END_DECLS
