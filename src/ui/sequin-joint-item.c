/* sequin-joint-item.c: one joint as a row of the joint/keyframe tree
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The item does not copy the joint: it reads it from the clip each time, by
 * index, through the joint model that the clip belongs to. "changed" tells
 * the row widgets to read it again.
 */
#define G_LOG_DOMAIN "sequin-joint-item"

#include "config.h"

#include "sequin-joint-item.h"
#include "sequin-joint-model.h"
#include "sequin-key-model.h"

struct _SequinJointItem
{
  GObject           parent_instance;

  SequinJointModel *model;   /* weak */
  gssize            index;   /* -1: detached */
  char             *name;
  SequinKeyModel   *keys;
  guint64           generation; /* the joint's SqJoint.generation when last updated */
};

G_DEFINE_FINAL_TYPE (SequinJointItem, sequin_joint_item, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
sequin_joint_item_dispose (GObject *object)
{
  SequinJointItem *self = (SequinJointItem *)object;

  if (self->model != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->model), (gpointer *) &self->model);
  self->model = NULL;
  g_clear_object (&self->keys);

  G_OBJECT_CLASS (sequin_joint_item_parent_class)->dispose (object);
}

static void
sequin_joint_item_finalize (GObject *object)
{
  SequinJointItem *self = (SequinJointItem *)object;

  g_free (self->name);

  G_OBJECT_CLASS (sequin_joint_item_parent_class)->finalize (object);
}

static void
sequin_joint_item_class_init (SequinJointItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sequin_joint_item_dispose;
  object_class->finalize = sequin_joint_item_finalize;

  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sequin_joint_item_init (SequinJointItem *self)
{
  self->index = -1;
}

SequinJointItem *
sequin_joint_item_new (SequinJointModel *model,
                       gsize             index)
{
  SequinJointItem *self = g_object_new (SEQUIN_TYPE_JOINT_ITEM, NULL);
  const SqClip *clip = sequin_joint_model_get_clip (model);

  g_return_val_if_fail (clip != NULL && index < clip->n_joints, self);

  self->model = model;
  g_object_add_weak_pointer (G_OBJECT (model), (gpointer *) &self->model);
  self->index = index;
  self->name = g_strdup (clip->joints[index].name);
  return self;
}

const SqClip *
sequin_joint_item_get_clip (SequinJointItem *self)
{
  g_return_val_if_fail (SEQUIN_IS_JOINT_ITEM (self), NULL);

  return self->model != NULL ? sequin_joint_model_get_clip (self->model) : NULL;
}

const SqJoint *
sequin_joint_item_get_joint (SequinJointItem *self)
{
  const SqClip *clip;

  g_return_val_if_fail (SEQUIN_IS_JOINT_ITEM (self), NULL);

  clip = sequin_joint_item_get_clip (self);
  if (clip == NULL || self->index < 0 || (gsize) self->index >= clip->n_joints)
    return NULL;
  return &clip->joints[self->index];
}

gssize
sequin_joint_item_get_index (SequinJointItem *self)
{
  g_return_val_if_fail (SEQUIN_IS_JOINT_ITEM (self), -1);
  return self->index;
}

const char *
sequin_joint_item_get_name (SequinJointItem *self)
{
  g_return_val_if_fail (SEQUIN_IS_JOINT_ITEM (self), NULL);
  return self->name;
}

gboolean
sequin_joint_item_is_root (SequinJointItem *self)
{
  const SqClip *clip;

  g_return_val_if_fail (SEQUIN_IS_JOINT_ITEM (self), FALSE);

  clip = sequin_joint_item_get_clip (self);
  return clip != NULL && self->index >= 0 && sq_clip_get_root_index (clip) == self->index;
}

SequinKeyModel *
sequin_joint_item_get_keys (SequinJointItem *self)
{
  g_return_val_if_fail (SEQUIN_IS_JOINT_ITEM (self), NULL);

  if (self->keys == NULL)
    self->keys = sequin_key_model_new (self);
  return self->keys;
}

void
_sequin_joint_item_set_index (SequinJointItem *self,
                              gssize           index)
{
  g_return_if_fail (SEQUIN_IS_JOINT_ITEM (self));
  self->index = index;
}

void
_sequin_joint_item_update (SequinJointItem *self,
                           gssize           index)
{
  const SqJoint *joint;

  g_return_if_fail (SEQUIN_IS_JOINT_ITEM (self));

  {
    const SqClip *clip = sequin_joint_item_get_clip (self);

    joint = clip != NULL && index >= 0 && (gsize) index < clip->n_joints ? &clip->joints[index] : NULL;
  }
  /* a joint no edit touched (SqJoint.generation; 0 is a new joint's)
   * shows what it showed: its row is left alone */
  if (joint != NULL && self->index == index && joint->generation != 0 && joint->generation == self->generation
      && g_strcmp0 (self->name, joint->name) == 0)
    return;
  self->index = index;
  if (joint != NULL)
    {
      g_free (self->name);
      self->name = g_strdup (joint->name);
      self->generation = joint->generation;
    }
  if (self->keys != NULL)
    sequin_key_model_refresh (self->keys);
  g_signal_emit (self, signals[CHANGED], 0);
}
