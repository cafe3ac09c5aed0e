/* sequin-joint-model.c: the joints of a clip as a list model
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sequin-joint-model"

#include "config.h"

#include "sequin-joint-model.h"

struct _SequinJointModel
{
  GObject       parent_instance;

  const SqClip *clip;
  GPtrArray    *items;   /* SequinJointItem*, one per joint */
};

static GType
sequin_joint_model_get_item_type (GListModel *model)
{
  return SEQUIN_TYPE_JOINT_ITEM;
}

static guint
sequin_joint_model_get_n_items (GListModel *model)
{
  return SEQUIN_JOINT_MODEL (model)->items->len;
}

static gpointer
sequin_joint_model_get_item (GListModel *model,
                             guint       position)
{
  SequinJointModel *self = SEQUIN_JOINT_MODEL (model);

  if (position >= self->items->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = sequin_joint_model_get_item_type;
  iface->get_n_items = sequin_joint_model_get_n_items;
  iface->get_item = sequin_joint_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (SequinJointModel, sequin_joint_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
sequin_joint_model_finalize (GObject *object)
{
  SequinJointModel *self = (SequinJointModel *)object;

  g_clear_pointer (&self->items, g_ptr_array_unref);

  G_OBJECT_CLASS (sequin_joint_model_parent_class)->finalize (object);
}

static void
sequin_joint_model_class_init (SequinJointModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sequin_joint_model_finalize;
}

static void
sequin_joint_model_init (SequinJointModel *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
}

SequinJointModel *
sequin_joint_model_new (const SqClip *clip)
{
  SequinJointModel *self;

  g_return_val_if_fail (clip != NULL, NULL);

  self = g_object_new (SEQUIN_TYPE_JOINT_MODEL, NULL);
  self->clip = clip;
  for (gsize i = 0; i < clip->n_joints; i++)
    g_ptr_array_add (self->items, sequin_joint_item_new (self, i));
  return self;
}

const SqClip *
sequin_joint_model_get_clip (SequinJointModel *self)
{
  g_return_val_if_fail (SEQUIN_IS_JOINT_MODEL (self), NULL);
  return self->clip;
}

SequinJointItem *
sequin_joint_model_get_joint (SequinJointModel *self,
                              guint             position)
{
  g_return_val_if_fail (SEQUIN_IS_JOINT_MODEL (self), NULL);
  return position < self->items->len ? g_ptr_array_index (self->items, position) : NULL;
}

static gboolean
same_name (SequinJointModel *self,
           guint             item,
           gsize             joint)
{
  return g_strcmp0 (sequin_joint_item_get_name (g_ptr_array_index (self->items, item)),
                    self->clip->joints[joint].name) == 0;
}

void
sequin_joint_model_refresh (SequinJointModel *self)
{
  g_autoptr(GPtrArray) gone = NULL;
  guint n_old, n_new, n_min, prefix = 0, suffix = 0, removed, added;

  g_return_if_fail (SEQUIN_IS_JOINT_MODEL (self));

  n_old = self->items->len;
  n_new = self->clip->n_joints;

  if (n_old == n_new)
    {
      /* renames, sign flips, rescales: same rows, new values */
      for (guint i = 0; i < n_new; i++)
        _sequin_joint_item_update (g_ptr_array_index (self->items, i), i);
      return;
    }

  /* joints removed or added: one block of rows changes */
  n_min = MIN (n_old, n_new);
  while (prefix < n_min && same_name (self, prefix, prefix))
    prefix++;
  while (suffix < n_min - prefix && same_name (self, n_old - 1 - suffix, n_new - 1 - suffix))
    suffix++;
  removed = n_old - prefix - suffix;
  added = n_new - prefix - suffix;

  /* first make the list and every index right, then tell the views; only
   * then may the rows that stayed change (a view that hears of a change in
   * a child model looks the parent up, which must be consistent by then) */
  gone = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < removed; i++)
    g_ptr_array_add (gone, g_ptr_array_steal_index (self->items, prefix));
  for (guint i = 0; i < added; i++)
    g_ptr_array_insert (self->items, prefix + i, sequin_joint_item_new (self, prefix + i));
  for (guint i = 0; i < n_new; i++)
    _sequin_joint_item_set_index (g_ptr_array_index (self->items, i), i);
  for (guint i = 0; i < gone->len; i++)
    _sequin_joint_item_set_index (g_ptr_array_index (gone, i), -1);

  g_list_model_items_changed (G_LIST_MODEL (self), prefix, removed, added);

  for (guint i = 0; i < gone->len; i++)
    _sequin_joint_item_update (g_ptr_array_index (gone, i), -1);
  for (guint i = 0; i < n_new; i++)
    if (i < prefix || i >= prefix + added)
      _sequin_joint_item_update (g_ptr_array_index (self->items, i), i);
}
