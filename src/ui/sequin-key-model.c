/* sequin-key-model.c: the keyframes of one joint as a list model
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rotation, translation and scale tracks of a joint are merged by time
 * into rows: 16 bytes per row, made when the joint is first expanded. Items
 * are created only when a view asks for a row, and not kept; the model
 * remembers the live ones (weakly) to tell them when the values change.
 */
#define G_LOG_DOMAIN "sequin-key-model"

#include "config.h"

#include "sequin-key-item.h"
#include "sequin-key-model.h"

struct _SequinKeyModel
{
  GObject          parent_instance;

  SequinJointItem *joint;   /* weak: the joint owns this model */
  GArray          *rows;    /* SequinKeyRow; NULL until a view asks */
  guint64          generation; /* the joint's SqJoint.generation when the rows were made */
  GHashTable      *live;    /* SequinKeyItem* (not owned) */
};

static GType
sequin_key_model_get_item_type (GListModel *model)
{
  return SEQUIN_TYPE_KEY_ITEM;
}

static GArray *build_rows (const SqJoint *joint);

/* Rows are made when a view first asks for them (the joint is expanded), not
 * when the tree only wants to know whether a joint can be expanded. */
static GArray *
ensure_rows (SequinKeyModel *self)
{
  if (self->rows == NULL)
    {
      const SqJoint *joint = self->joint != NULL ? sequin_joint_item_get_joint (self->joint) : NULL;

      self->rows = build_rows (joint);
      self->generation = joint != NULL ? joint->generation : 0;
    }
  return self->rows;
}

static guint
sequin_key_model_get_n_items (GListModel *model)
{
  return ensure_rows (SEQUIN_KEY_MODEL (model))->len;
}

static gpointer
sequin_key_model_get_item (GListModel *model,
                           guint       position)
{
  SequinKeyModel *self = SEQUIN_KEY_MODEL (model);
  SequinKeyItem *item;

  if (position >= ensure_rows (self)->len || self->joint == NULL)
    return NULL;
  item = sequin_key_item_new (self->joint, position);
  g_hash_table_add (self->live, item);
  return item;
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = sequin_key_model_get_item_type;
  iface->get_n_items = sequin_key_model_get_n_items;
  iface->get_item = sequin_key_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (SequinKeyModel, sequin_key_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
sequin_key_model_finalize (GObject *object)
{
  SequinKeyModel *self = (SequinKeyModel *)object;

  if (self->joint != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->joint), (gpointer *) &self->joint);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->live, g_hash_table_unref);

  G_OBJECT_CLASS (sequin_key_model_parent_class)->finalize (object);
}

static void
sequin_key_model_class_init (SequinKeyModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sequin_key_model_finalize;
}

static void
sequin_key_model_init (SequinKeyModel *self)
{
  self->live = g_hash_table_new (NULL, NULL);
}

/* Merges the sorted tracks by time. */
static GArray *
build_rows (const SqJoint *joint)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (SequinKeyRow));
  gsize next[SQ_N_CHANNELS] = { 0 };

  if (joint == NULL)
    return rows;

  g_array_set_size (rows, 0);
  for (;;)
    {
      SequinKeyRow row;
      gboolean any = FALSE;

      row.time = 0;
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        if (next[c] < joint->tracks[c].n_keys)
          {
            double t = sq_track_time (&joint->tracks[c], next[c]);
            if (!any || t < row.time)
              row.time = t;
            any = TRUE;
          }
      if (!any)
        break;
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        {
          row.key[c] = -1;
          if (next[c] < joint->tracks[c].n_keys && sq_track_time (&joint->tracks[c], next[c]) == row.time)
            row.key[c] = (gint32) next[c]++;
        }
      g_array_append_val (rows, row);
    }
  return rows;
}

SequinKeyModel *
sequin_key_model_new (SequinJointItem *joint)
{
  SequinKeyModel *self = g_object_new (SEQUIN_TYPE_KEY_MODEL, NULL);

  self->joint = joint;
  g_object_add_weak_pointer (G_OBJECT (joint), (gpointer *) &self->joint);
  return self;
}

SequinJointItem *
sequin_key_model_get_joint (SequinKeyModel *self)
{
  g_return_val_if_fail (SEQUIN_IS_KEY_MODEL (self), NULL);
  return self->joint;
}

const SequinKeyRow *
sequin_key_model_get_row (SequinKeyModel *self,
                          guint           position)
{
  g_return_val_if_fail (SEQUIN_IS_KEY_MODEL (self), NULL);
  return position < ensure_rows (self)->len ? &g_array_index (self->rows, SequinKeyRow, position) : NULL;
}

gssize
sequin_key_model_find_key (SequinKeyModel *self,
                           SqChannel       channel,
                           gsize           key)
{
  const SqJoint *joint;
  guint lo = 0, hi;
  double time;

  g_return_val_if_fail (SEQUIN_IS_KEY_MODEL (self), -1);
  g_return_val_if_fail (channel < SQ_N_CHANNELS, -1);

  joint = self->joint != NULL ? sequin_joint_item_get_joint (self->joint) : NULL;
  if (joint == NULL || key >= joint->tracks[channel].n_keys)
    return -1;

  /* rows are sorted by time: binary search for the key's time */
  time = sq_track_time (&joint->tracks[channel], key);
  hi = ensure_rows (self)->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (self->rows, SequinKeyRow, mid).time < time)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < self->rows->len && g_array_index (self->rows, SequinKeyRow, lo).key[channel] == (gint32) key)
    return lo;
  return -1;
}

void
sequin_key_model_refresh (SequinKeyModel *self)
{
  g_autoptr(GArray) old = NULL;
  g_autoptr(GPtrArray) live = NULL;
  guint n_old, n_new, n_min, prefix = 0, suffix = 0;
  GHashTableIter iter;
  gpointer item;

  g_return_if_fail (SEQUIN_IS_KEY_MODEL (self));

  /* nobody has seen rows yet: they will be made from the new clip */
  if (self->rows == NULL)
    return;

  /* a joint no edit touched (SqJoint.generation) keeps its rows and its
   * values: nothing to tell */
  {
    const SqJoint *joint = self->joint != NULL ? sequin_joint_item_get_joint (self->joint) : NULL;

    if (joint != NULL && joint->generation == self->generation)
      return;
    self->generation = joint != NULL ? joint->generation : 0;
  }
  old = self->rows;
  self->rows = build_rows (self->joint != NULL ? sequin_joint_item_get_joint (self->joint) : NULL);

  n_old = old->len;
  n_new = self->rows->len;
  n_min = MIN (n_old, n_new);
#define ROW_EQUAL(a, b) (memcmp (&g_array_index (old, SequinKeyRow, a), \
                                 &g_array_index (self->rows, SequinKeyRow, b), sizeof (SequinKeyRow)) == 0)
  while (prefix < n_min && ROW_EQUAL (prefix, prefix))
    prefix++;
  while (suffix < n_min - prefix && ROW_EQUAL (n_old - 1 - suffix, n_new - 1 - suffix))
    suffix++;
#undef ROW_EQUAL

  /* the live items (the views hold the ones they show) keep pointing at
   * their row: the ones after the changed block move with it, the ones in
   * it are gone (their views get new items). Done before the views hear
   * of the change, as the items they then make already have the new rows. */
  live = g_ptr_array_new_with_free_func (g_object_unref);
  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, &item, NULL))
    {
      guint row = sequin_key_item_get_row (item);

      if (row >= n_old)
        continue;
      if (row >= n_old - suffix)
        _sequin_key_item_set_row (item, row - n_old + n_new);
      else if (row >= prefix)
        _sequin_key_item_set_row (item, G_MAXUINT);
      g_ptr_array_add (live, g_object_ref (item));
    }

  if (n_old != n_new || prefix + suffix < n_old)
    g_list_model_items_changed (G_LIST_MODEL (self), prefix, n_old - prefix - suffix, n_new - prefix - suffix);

  /* the rows that stayed may show new values (a sign flip, a rescale, an
   * undo: same times, other numbers) */
  for (guint i = 0; i < live->len; i++)
    if (sequin_key_item_get_row (g_ptr_array_index (live, i)) != G_MAXUINT)
      _sequin_key_item_changed (g_ptr_array_index (live, i));
}

void
_sequin_key_model_forget (SequinKeyModel *self,
                          gpointer        item)
{
  g_return_if_fail (SEQUIN_IS_KEY_MODEL (self));
  g_hash_table_remove (self->live, item);
}
