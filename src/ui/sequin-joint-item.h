/* sequin-joint-item.h: one joint as a row of the joint/keyframe tree
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sq-core.h"

G_BEGIN_DECLS

#define SEQUIN_TYPE_JOINT_ITEM (sequin_joint_item_get_type ())

G_DECLARE_FINAL_TYPE (SequinJointItem, sequin_joint_item, SEQUIN, JOINT_ITEM, GObject)

typedef struct _SequinJointModel SequinJointModel;
typedef struct _SequinKeyModel SequinKeyModel;

SequinJointItem *sequin_joint_item_new        (SequinJointModel *model,
                                               gsize             index);
/* NULL once the joint left the clip */
const SqJoint   *sequin_joint_item_get_joint  (SequinJointItem  *self);
const SqClip    *sequin_joint_item_get_clip   (SequinJointItem  *self);
gssize           sequin_joint_item_get_index  (SequinJointItem  *self);
const char      *sequin_joint_item_get_name   (SequinJointItem  *self);
gboolean         sequin_joint_item_is_root    (SequinJointItem  *self);
/* Created on first use: the keyframes exist as rows only once asked for. */
SequinKeyModel  *sequin_joint_item_get_keys   (SequinJointItem  *self);

/* For the joint model: follow the clip after an edit. set_index only moves
 * the item; update also re-reads the joint and tells the views. */
void             _sequin_joint_item_set_index (SequinJointItem  *self,
                                               gssize            index);
void             _sequin_joint_item_update    (SequinJointItem  *self,
                                               gssize            index);

G_END_DECLS
