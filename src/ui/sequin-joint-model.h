/* sequin-joint-model.h: the joints of a clip as a list model
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sequin-joint-item.h"

G_BEGIN_DECLS

#define SEQUIN_TYPE_JOINT_MODEL (sequin_joint_model_get_type ())

G_DECLARE_FINAL_TYPE (SequinJointModel, sequin_joint_model, SEQUIN, JOINT_MODEL, GObject)

/* `clip` is borrowed: it must outlive the model */
SequinJointModel *sequin_joint_model_new      (const SqClip     *clip);
const SqClip     *sequin_joint_model_get_clip (SequinJointModel *self);
/* After an edit, undo or redo: brings the rows in line with the clip, keeping
 * the rows (and so their expanded state) of joints that stayed. */
void              sequin_joint_model_refresh  (SequinJointModel *self);
/* borrowed */
SequinJointItem  *sequin_joint_model_get_joint (SequinJointModel *self,
                                                guint             position);

G_END_DECLS
