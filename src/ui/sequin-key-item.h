/* sequin-key-item.h: one keyframe row of the joint/keyframe tree
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sequin-joint-item.h"
#include "sequin-key-model.h"

G_BEGIN_DECLS

#define SEQUIN_TYPE_KEY_ITEM (sequin_key_item_get_type ())

G_DECLARE_FINAL_TYPE (SequinKeyItem, sequin_key_item, SEQUIN, KEY_ITEM, GObject)

SequinKeyItem      *sequin_key_item_new       (SequinJointItem *joint,
                                               guint            row);
SequinJointItem    *sequin_key_item_get_joint (SequinKeyItem   *self);
guint               sequin_key_item_get_row   (SequinKeyItem   *self);
/* NULL once the row is gone */
const SequinKeyRow *sequin_key_item_get_data  (SequinKeyItem   *self);
/* The key of `channel` at this row's time into `key`; FALSE when there is none */
gboolean            sequin_key_item_get_key   (SequinKeyItem   *self,
                                               SqChannel        channel,
                                               SqKey           *key);
/* The first channel that has a key here (rotation before translation), and its key index */
gboolean            sequin_key_item_get_first (SequinKeyItem   *self,
                                               SqChannel       *channel,
                                               gsize           *key);
void                _sequin_key_item_changed  (SequinKeyItem   *self);
/* The row moved (rows before it were added or removed); G_MAXUINT: gone */
void                _sequin_key_item_set_row  (SequinKeyItem   *self,
                                               guint            row);

G_END_DECLS
