/* sequin-key-model.h: the keyframes of one joint as a list model
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sequin-joint-item.h"

G_BEGIN_DECLS

/* One row: the keys of every channel at one time (-1 where a channel has none) */
typedef struct
{
  double time;
  gint32 key[SQ_N_CHANNELS];
} SequinKeyRow;

#define SEQUIN_TYPE_KEY_MODEL (sequin_key_model_get_type ())

G_DECLARE_FINAL_TYPE (SequinKeyModel, sequin_key_model, SEQUIN, KEY_MODEL, GObject)

SequinKeyModel     *sequin_key_model_new       (SequinJointItem *joint);
SequinJointItem    *sequin_key_model_get_joint (SequinKeyModel  *self);
const SequinKeyRow *sequin_key_model_get_row   (SequinKeyModel  *self,
                                                guint            position);
/* The row holding key `key` of `channel`, or -1 */
gssize              sequin_key_model_find_key  (SequinKeyModel  *self,
                                                SqChannel        channel,
                                                gsize            key);
void                sequin_key_model_refresh   (SequinKeyModel  *self);

/* For SequinKeyItem */
void                _sequin_key_model_forget   (SequinKeyModel  *self,
                                                gpointer         item);

G_END_DECLS
