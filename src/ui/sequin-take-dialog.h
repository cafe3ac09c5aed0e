/* sequin-take-dialog.h: choosing which animation of a file to show
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sq-core.h"

G_BEGIN_DECLS

#define SEQUIN_TYPE_TAKE_DIALOG (sequin_take_dialog_get_type ())

G_DECLARE_FINAL_TYPE (SequinTakeDialog, sequin_take_dialog, SEQUIN, TAKE_DIALOG, GtkWindow)

/* Lists the takes of the file `clip` was read from (sq_clip_get_takes),
 * the clip's own selected; `file_name` names the file in its text.
 * "take-chosen" (guint take) is emitted when one is confirmed, then the
 * dialog closes. */
SequinTakeDialog *sequin_take_dialog_new          (GtkWindow        *parent,
                                                   const SqClip     *clip,
                                                   const char       *file_name);
guint             sequin_take_dialog_get_n_takes  (SequinTakeDialog *self);
guint             sequin_take_dialog_get_selected (SequinTakeDialog *self);
void              sequin_take_dialog_select       (SequinTakeDialog *self,
                                                   guint             take);
/* What Show does: emits "take-chosen" for the selected take and closes */
void              sequin_take_dialog_confirm      (SequinTakeDialog *self);

G_END_DECLS
