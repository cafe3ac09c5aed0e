/* sequin-key-item.c: one keyframe row of the joint/keyframe tree
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Key items are made only for the rows a view asks for (the visible ones), and
 * read their values from the clip when they are drawn.
 */
#define G_LOG_DOMAIN "sequin-key-item"

#include "config.h"

#include "sequin-key-item.h"

struct _SequinKeyItem
{
  GObject          parent_instance;

  SequinJointItem *joint;
  guint            row;
};

G_DEFINE_FINAL_TYPE (SequinKeyItem, sequin_key_item, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
sequin_key_item_finalize (GObject *object)
{
  SequinKeyItem *self = (SequinKeyItem *)object;

  _sequin_key_model_forget (sequin_joint_item_get_keys (self->joint), self);
  g_clear_object (&self->joint);

  G_OBJECT_CLASS (sequin_key_item_parent_class)->finalize (object);
}

static void
sequin_key_item_class_init (SequinKeyItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sequin_key_item_finalize;

  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sequin_key_item_init (SequinKeyItem *self)
{
}

SequinKeyItem *
sequin_key_item_new (SequinJointItem *joint,
                     guint            row)
{
  SequinKeyItem *self = g_object_new (SEQUIN_TYPE_KEY_ITEM, NULL);

  self->joint = g_object_ref (joint);
  self->row = row;
  return self;
}

SequinJointItem *
sequin_key_item_get_joint (SequinKeyItem *self)
{
  g_return_val_if_fail (SEQUIN_IS_KEY_ITEM (self), NULL);
  return self->joint;
}

guint
sequin_key_item_get_row (SequinKeyItem *self)
{
  g_return_val_if_fail (SEQUIN_IS_KEY_ITEM (self), 0);
  return self->row;
}

const SequinKeyRow *
sequin_key_item_get_data (SequinKeyItem *self)
{
  g_return_val_if_fail (SEQUIN_IS_KEY_ITEM (self), NULL);
  return sequin_key_model_get_row (sequin_joint_item_get_keys (self->joint), self->row);
}

gboolean
sequin_key_item_get_key (SequinKeyItem *self,
                         SqChannel      channel,
                         SqKey         *key)
{
  const SequinKeyRow *row;
  const SqJoint *joint;

  g_return_val_if_fail (SEQUIN_IS_KEY_ITEM (self), FALSE);
  g_return_val_if_fail (channel < SQ_N_CHANNELS, FALSE);

  row = sequin_key_item_get_data (self);
  joint = sequin_joint_item_get_joint (self->joint);
  if (row == NULL || joint == NULL || row->key[channel] < 0
      || (gsize) row->key[channel] >= joint->tracks[channel].n_keys)
    return FALSE;
  *key = sq_track_key (&joint->tracks[channel], row->key[channel]);
  return TRUE;
}

gboolean
sequin_key_item_get_first (SequinKeyItem *self,
                           SqChannel     *channel,
                           gsize         *key)
{
  const SequinKeyRow *row;

  g_return_val_if_fail (SEQUIN_IS_KEY_ITEM (self), FALSE);

  row = sequin_key_item_get_data (self);
  for (guint c = 0; row != NULL && c < SQ_N_CHANNELS; c++)
    if (row->key[c] >= 0)
      {
        *channel = c;
        *key = row->key[c];
        return TRUE;
      }
  return FALSE;
}

void
_sequin_key_item_changed (SequinKeyItem *self)
{
  g_signal_emit (self, signals[CHANGED], 0);
}

void
_sequin_key_item_set_row (SequinKeyItem *self,
                          guint          row)
{
  g_return_if_fail (SEQUIN_IS_KEY_ITEM (self));
  self->row = row;
}
