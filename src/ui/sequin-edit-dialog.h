/* sequin-edit-dialog.h: the small dialogs that ask for an edit's value
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sequin-document.h"

G_BEGIN_DECLS

typedef enum
{
  SEQUIN_EDIT_RENAME_JOINT,
  SEQUIN_EDIT_RENAME_ROOT,
  SEQUIN_EDIT_RESCALE,
  SEQUIN_EDIT_SET_FIRST_FRAME,
} SequinEditKind;

#define SEQUIN_TYPE_EDIT_DIALOG (sequin_edit_dialog_get_type ())

G_DECLARE_FINAL_TYPE (SequinEditDialog, sequin_edit_dialog, SEQUIN, EDIT_DIALOG, GtkWindow)

/* `joint`: the joint to rename (SEQUIN_EDIT_RENAME_JOINT), else ignored */
SequinEditDialog *sequin_edit_dialog_new        (GtkWindow        *parent,
                                                 SequinDocument   *document,
                                                 SequinEditKind    kind,
                                                 gssize            joint);
SequinEditKind    sequin_edit_dialog_get_kind   (SequinEditDialog *self);
/* The entries, in order: the name; the factor; X, Y, Z */
guint             sequin_edit_dialog_get_n_fields (SequinEditDialog *self);
void              sequin_edit_dialog_set_text   (SequinEditDialog *self,
                                                 guint             field,
                                                 const char       *text);
const char       *sequin_edit_dialog_get_text   (SequinEditDialog *self,
                                                 guint             field);
/* Whether OK is enabled, and if not, why (NULL when there is nothing to say) */
gboolean          sequin_edit_dialog_can_apply  (SequinEditDialog *self);
const char       *sequin_edit_dialog_get_message (SequinEditDialog *self);
/* What OK does: applies the edit to the document and closes the dialog; on
 * error the dialog stays open and shows why. */
gboolean          sequin_edit_dialog_apply      (SequinEditDialog *self,
                                                 GError          **error);

G_END_DECLS
