/* sequin-joint-tree.c: joints that expand into their keyframes, in columns
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GtkColumnView over a GtkTreeListModel. In the flat view the top level is
 * a SequinJointModel and a joint's children are its SequinKeyModel, made
 * when the joint is expanded. In the hierarchy (the default) the top level
 * is the root joints, and a joint's children are its keys, then its child
 * joints (the parents sq_pose_get_parents() gives: BVH's own, the world
 * skeleton a SEQ's or .anim's names map to).
 * Cells are plain labels filled in bind (GtkSignalListItemFactory), so only
 * the visible rows have widgets, whatever the number of keys.
 */
#define G_LOG_DOMAIN "sequin-joint-tree"

#include "config.h"

#include <glib/gi18n.h>

#include "sequin-joint-model.h"
#include "sequin-joint-tree.h"
#include "sequin-key-item.h"
#include "sequin-key-model.h"
#include "sequin-utils.h"

typedef enum
{
  COLUMN_NAME,
  COLUMN_FRAME,
  COLUMN_ROTATION,
  COLUMN_AXIS_ANGLE,
  COLUMN_TRANSLATION,
  COLUMN_SCALE,
} Column;

struct _SequinJointTree
{
  GtkWidget            parent_instance;

  /* Template widgets */
  GtkScrolledWindow   *scroller;
  GtkColumnView       *column_view;
  GtkColumnViewColumn *name_column;
  GtkColumnViewColumn *frame_column;
  GtkColumnViewColumn *rotation_column;
  GtkColumnViewColumn *axis_angle_column;
  GtkColumnViewColumn *translation_column;
  GtkColumnViewColumn *scale_column;

  /* Owned references */
  SequinDocument      *document;
  SequinJointModel    *joints;
  GtkTreeListModel    *rows;
  GtkMultiSelection   *selection;
  GtkWidget           *context_menu;
  const SqClip        *clip;      /* the document's, to notice a reload */

  gboolean             hierarchy; /* child joints under their parents */
  gssize              *parents;   /* per joint, in the hierarchy; NULL in the flat view */
  gsize                n_parents;
  GListStore          *roots;     /* the top joints of the hierarchy */
  GPtrArray           *children;  /* GListStore per joint: its child joints */
  SequinClipShape     *made_from; /* what the hierarchy shown was made from */
};

G_DEFINE_FINAL_TYPE (SequinJointTree, sequin_joint_tree, GTK_TYPE_WIDGET)

enum {
  SELECTION_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- Cells ----------------------------------------------------------------- */

static GtkLabel *
cell_label (GtkListItem *list_item)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);

  if (GTK_IS_TREE_EXPANDER (child))
    return g_object_get_data (G_OBJECT (child), "sequin-name");
  return GTK_LABEL (child);
}

static void
set_text (GtkLabel   *label,
          const char *text)
{
  gtk_label_set_text (label, text != NULL ? text : "");
}

static char *
key_count_text (const SqJoint *joint,
                SqChannel      channel)
{
  gsize n = joint->tracks[channel].n_keys;

  if (n == 0)
    return NULL;
  switch (channel)
    {
    case SQ_CHANNEL_ROTATION:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu rotation key", "%zu rotation keys", n), n);
    case SQ_CHANNEL_TRANSLATION:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu translation key", "%zu translation keys", n), n);
    case SQ_CHANNEL_SCALE:
    case SQ_N_CHANNELS:
    default:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu scale key", "%zu scale keys", n), n);
    }
}

static void
update_joint_cell (GtkListItem     *list_item,
                   Column           column,
                   SequinJointItem *item)
{
  const SqJoint *joint = sequin_joint_item_get_joint (item);
  GtkLabel *label = cell_label (list_item);
  g_autofree char *text = NULL;

  if (joint == NULL)
    {
      set_text (label, NULL);
      return;
    }

  switch (column)
    {
    case COLUMN_NAME:
      {
        GtkWidget *badge = g_object_get_data (G_OBJECT (gtk_list_item_get_child (list_item)), "sequin-badge");

        /* a joint with no name shows as such rather than as an empty row */
        if (joint->name[0] == '\0')
          {
            set_text (label, _("(no name)"));
            gtk_widget_add_css_class (GTK_WIDGET (label), "dim-label");
          }
        else
          {
            set_text (label, joint->name);
            gtk_widget_remove_css_class (GTK_WIDGET (label), "dim-label");
          }
        gtk_widget_set_visible (badge, sequin_joint_item_is_root (item));
        return;
      }
    case COLUMN_ROTATION:
      text = key_count_text (joint, SQ_CHANNEL_ROTATION);
      break;
    case COLUMN_TRANSLATION:
      text = key_count_text (joint, SQ_CHANNEL_TRANSLATION);
      break;
    case COLUMN_SCALE:
      text = key_count_text (joint, SQ_CHANNEL_SCALE);
      break;
    case COLUMN_FRAME:
    case COLUMN_AXIS_ANGLE:
    default:
      break;
    }
  gtk_widget_add_css_class (GTK_WIDGET (label), "dim-label");
  set_text (label, text);
}

static void
update_key_cell (GtkListItem   *list_item,
                 Column         column,
                 SequinKeyItem *item)
{
  const SequinKeyRow *row = sequin_key_item_get_data (item);
  const SqClip *clip = sequin_joint_item_get_clip (sequin_key_item_get_joint (item));
  GtkLabel *label = cell_label (list_item);
  g_autofree char *text = NULL;
  SqKey key;

  gtk_widget_remove_css_class (GTK_WIDGET (label), "dim-label");
  if (row == NULL || clip == NULL)
    {
      set_text (label, NULL);
      return;
    }

  switch (column)
    {
    case COLUMN_NAME:
      {
        GtkWidget *badge = g_object_get_data (G_OBJECT (gtk_list_item_get_child (list_item)), "sequin-badge");

        gtk_widget_set_visible (badge, FALSE);
        /* TRANSLATORS: a key's time in seconds */
        text = g_strdup_printf (_("%.4f s"), row->time);
      }
      break;
    case COLUMN_FRAME:
      text = g_strdup_printf ("%d", sq_clip_time_to_frame (clip, row->time));
      break;
    case COLUMN_ROTATION:
      if (sequin_key_item_get_key (item, SQ_CHANNEL_ROTATION, &key))
        text = sequin_format_vector (key.v, 4, 6);
      break;
    case COLUMN_AXIS_ANGLE:
      if (sequin_key_item_get_key (item, SQ_CHANNEL_ROTATION, &key))
        {
          double aa[4];
          g_autofree char *axis = NULL;

          sq_quat_to_axis_angle (key.v, aa);
          axis = sequin_format_vector (aa, 3, 4);
          /* TRANSLATORS: a rotation axis (three numbers) and its angle in degrees */
          text = g_strdup_printf (_("%s  %.2f°"), axis, aa[3]);
        }
      break;
    case COLUMN_TRANSLATION:
      if (sequin_key_item_get_key (item, SQ_CHANNEL_TRANSLATION, &key))
        text = sequin_format_vector (key.v, 3, 5);
      break;
    case COLUMN_SCALE:
      if (sequin_key_item_get_key (item, SQ_CHANNEL_SCALE, &key))
        text = sequin_format_vector (key.v, 3, 5);
      break;
    default:
      break;
    }
  set_text (label, text);
}

static void
update_cell (GtkListItem *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  Column column = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (child), "sequin-column"));
  gpointer item;

  if (row == NULL)
    return;
  item = gtk_tree_list_row_get_item (row);
  if (SEQUIN_IS_JOINT_ITEM (item))
    update_joint_cell (list_item, column, item);
  else if (SEQUIN_IS_KEY_ITEM (item))
    update_key_cell (list_item, column, item);
  g_clear_object (&item);
}

static void
context_pressed_cb (GtkGestureClick *gesture,
                    int              n_press,
                    double           x,
                    double           y,
                    GtkListItem     *list_item)
{
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  SequinJointTree *self = SEQUIN_JOINT_TREE (gtk_widget_get_ancestor (widget, SEQUIN_TYPE_JOINT_TREE));
  guint position = gtk_list_item_get_position (list_item);
  graphene_point_t point;

  if (self == NULL || self->context_menu == NULL || position == GTK_INVALID_LIST_POSITION)
    return;

  if (!gtk_selection_model_is_selected (GTK_SELECTION_MODEL (self->selection), position))
    gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), position, TRUE);

  if (!gtk_widget_compute_point (widget, GTK_WIDGET (self), &GRAPHENE_POINT_INIT (x, y), &point))
    return;
  gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu),
                               &(GdkRectangle) { (int) point.x, (int) point.y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->context_menu));
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
add_context_gesture (GtkWidget   *widget,
                     GtkListItem *list_item)
{
  GtkGesture *gesture = gtk_gesture_click_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect_object (gesture, "pressed", G_CALLBACK (context_pressed_cb), list_item, 0);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));
}

static void
factory_setup_cb (GtkSignalListItemFactory *factory,
                  GtkListItem              *list_item,
                  gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  GtkWidget *child;

  if (column == COLUMN_NAME)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *name = gtk_label_new (NULL);
      GtkWidget *badge = gtk_label_new (_("root"));

      gtk_label_set_xalign (GTK_LABEL (name), 0);
      gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
      gtk_widget_add_css_class (name, "numeric");
      gtk_widget_add_css_class (badge, "root-badge");
      sequin_set_tooltip (badge, _("The root joint: its locations move the whole avatar"));
      gtk_box_append (GTK_BOX (box), name);
      gtk_box_append (GTK_BOX (box), badge);

      child = gtk_tree_expander_new ();
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (child), box);
      g_object_set_data (G_OBJECT (child), "sequin-name", name);
      g_object_set_data (G_OBJECT (child), "sequin-badge", badge);
    }
  else
    {
      child = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (child), column == COLUMN_FRAME ? 1 : 0);
      gtk_widget_add_css_class (child, "numeric");
    }
  g_object_set_data (G_OBJECT (child), "sequin-column", GINT_TO_POINTER (column));
  add_context_gesture (child, list_item);
  gtk_list_item_set_child (list_item, child);
}

/* The expander arrow of a joint row is named after its joint ("Expand
 * mPelvis"), not just "Expand"; the name follows the row's state */
static void
name_expander (GtkTreeExpander *expander)
{
  GtkTreeListRow *row = gtk_tree_expander_get_list_row (expander);
  g_autoptr(GObject) item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  const SqJoint *joint = SEQUIN_IS_JOINT_ITEM (item) ? sequin_joint_item_get_joint (SEQUIN_JOINT_ITEM (item)) : NULL;
  g_autofree char *label = NULL;
  const char *name;

  if (joint == NULL)
    return;
  name = joint->name[0] != '\0' ? joint->name : _("(no name)");
  if (gtk_tree_list_row_get_expanded (row))
    /* TRANSLATORS: the accessible name of a joint's expander arrow; %s is the joint */
    label = g_strdup_printf (_("Collapse %s"), name);
  else
    /* TRANSLATORS: the accessible name of a joint's expander arrow; %s is the joint */
    label = g_strdup_printf (_("Expand %s"), name);
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (expander));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (gtk_widget_get_css_name (child), "expander") == 0)
      gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (expander), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

static void
factory_bind_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 gpointer                  user_data)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  g_autoptr(GObject) item = NULL;

  if (row == NULL)
    return;
  if (GPOINTER_TO_INT (user_data) == COLUMN_NAME)
    {
      GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item));

      gtk_tree_expander_set_list_row (expander, row);
      name_expander (expander);
      g_signal_connect_object (row, "notify::expanded", G_CALLBACK (name_expander), expander, G_CONNECT_SWAPPED);
    }
  /* a key row's item is made afresh each time the tree list model is asked
   * for it: the cell keeps the one it shows, or it would be gone (and its
   * "changed" with it) as soon as this returns */
  item = gtk_tree_list_row_get_item (row);
  g_object_set_data_full (G_OBJECT (gtk_list_item_get_child (list_item)), "sequin-item",
                          g_object_ref (item), g_object_unref);
  g_signal_connect_object (item, "changed", G_CALLBACK (update_cell), list_item, G_CONNECT_SWAPPED);
  update_cell (list_item);
}

static void
factory_unbind_cb (GtkSignalListItemFactory *factory,
                   GtkListItem              *list_item,
                   gpointer                  user_data)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  g_autoptr(GObject) item = NULL;

  if (row == NULL)
    return;
  item = g_object_steal_data (G_OBJECT (gtk_list_item_get_child (list_item)), "sequin-item");
  if (item != NULL)
    g_signal_handlers_disconnect_by_func (item, update_cell, list_item);
  if (GPOINTER_TO_INT (user_data) == COLUMN_NAME)
    {
      GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item));

      g_signal_handlers_disconnect_by_func (row, name_expander, expander);
      gtk_tree_expander_set_list_row (expander, NULL);
    }
}

static void
set_factory (GtkColumnViewColumn *column,
             Column               id)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (factory_setup_cb), GINT_TO_POINTER (id));
  g_signal_connect (factory, "bind", G_CALLBACK (factory_bind_cb), GINT_TO_POINTER (id));
  g_signal_connect (factory, "unbind", G_CALLBACK (factory_unbind_cb), GINT_TO_POINTER (id));
  gtk_column_view_column_set_factory (column, factory);
}

/* ---- Models ---------------------------------------------------------------- */

/* The child joints of joint `index` in the hierarchy, or NULL */
static GListModel *
child_joints (SequinJointTree *self,
              gssize           index)
{
  GListModel *children;

  if (self->children == NULL || index < 0 || (gsize) index >= self->children->len)
    return NULL;
  children = g_ptr_array_index (self->children, index);
  return g_list_model_get_n_items (children) > 0 ? children : NULL;
}

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  SequinJointTree *self = user_data;
  const SqJoint *joint;
  GListModel *joints;
  GListStore *parts;
  gsize n = 0;

  if (!SEQUIN_IS_JOINT_ITEM (item) || (joint = sequin_joint_item_get_joint (item)) == NULL)
    return NULL;
  for (guint c = 0; c < SQ_N_CHANNELS; c++)
    n += joint->tracks[c].n_keys;
  joints = child_joints (self, sequin_joint_item_get_index (item));
  if (joints == NULL)
    return n == 0 ? NULL : g_object_ref (G_LIST_MODEL (sequin_joint_item_get_keys (item)));
  if (n == 0)
    return g_object_ref (joints);
  /* the joint's own keys, then its child joints */
  parts = g_list_store_new (G_TYPE_LIST_MODEL);
  g_list_store_append (parts, sequin_joint_item_get_keys (item));
  g_list_store_append (parts, joints);
  return G_LIST_MODEL (gtk_flatten_list_model_new (G_LIST_MODEL (parts)));
}

/* The hierarchy of the clip's joints: `parents` and a store of child
 * joints per joint; FALSE (flat) when no joint has a parent */
static gboolean
build_hierarchy (SequinJointTree *self,
                 const SqClip    *clip)
{
  g_autoptr(SqPose) pose = NULL;
  const gssize *parents;
  gboolean any = FALSE;

  g_clear_pointer (&self->parents, g_free);
  g_clear_pointer (&self->children, g_ptr_array_unref);
  g_clear_object (&self->roots);
  self->n_parents = 0;
  if (!self->hierarchy || clip == NULL || clip->n_joints == 0)
    return FALSE;

  pose = sq_pose_new (clip);
  parents = sq_pose_get_parents (pose);
  g_clear_pointer (&self->made_from, sequin_clip_shape_free);
  self->made_from = sequin_clip_shape_new (clip);
  for (gsize j = 0; j < clip->n_joints && !any; j++)
    any = parents[j] >= 0 && (gsize) parents[j] < clip->n_joints;
  if (!any)
    return FALSE;
  self->parents = g_memdup2 (parents, clip->n_joints * sizeof (gssize));
  self->n_parents = clip->n_joints;
  self->roots = g_list_store_new (SEQUIN_TYPE_JOINT_ITEM);
  self->children = g_ptr_array_new_with_free_func (g_object_unref);
  for (gsize j = 0; j < clip->n_joints; j++)
    g_ptr_array_add (self->children, g_list_store_new (SEQUIN_TYPE_JOINT_ITEM));
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      gssize p = self->parents[j];
      GListStore *into = p >= 0 && (gsize) p < clip->n_joints && (gsize) p != j
                         ? g_ptr_array_index (self->children, p) : self->roots;

      if (into == self->roots)
        self->parents[j] = -1;
      g_list_store_append (into, sequin_joint_model_get_joint (self->joints, j));
    }
  return TRUE;
}

/* The parents the hierarchy would have now equal those shown */
static gboolean
same_parents (SequinJointTree *self,
              const SqClip    *clip)
{
  g_autoptr(SqPose) pose = NULL;
  const gssize *parents;

  pose = sq_pose_new (clip);
  parents = sq_pose_get_parents (pose);
  if (self->parents == NULL)
    {
      for (gsize j = 0; j < clip->n_joints; j++)
        if (parents[j] >= 0 && (gsize) parents[j] < clip->n_joints)
          return FALSE;
      return TRUE;
    }
  if (self->n_parents != clip->n_joints)
    return FALSE;
  for (gsize j = 0; j < clip->n_joints; j++)
    if ((parents[j] >= 0 && (gsize) parents[j] < clip->n_joints && (gsize) parents[j] != j ? parents[j] : -1)
        != self->parents[j])
      return FALSE;
  return TRUE;
}

static gboolean
same_hierarchy (SequinJointTree *self,
                const SqClip    *clip)
{
  if (!self->hierarchy || clip->n_joints == 0)
    return self->parents == NULL;
  /* an edit of keys, the most common, leaves what it is made from alone */
  if (sequin_clip_shape_matches (self->made_from, clip))
    return TRUE;
  if (!same_parents (self, clip))
    return FALSE;
  g_clear_pointer (&self->made_from, sequin_clip_shape_free);
  self->made_from = sequin_clip_shape_new (clip);
  return TRUE;
}

static void
selection_changed_cb (SequinJointTree *self)
{
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

static void
update_scale_column (SequinJointTree *self)
{
  gboolean any = FALSE;

  for (gsize j = 0; self->clip != NULL && j < self->clip->n_joints && !any; j++)
    any = self->clip->joints[j].tracks[SQ_CHANNEL_SCALE].n_keys > 0;
  gtk_column_view_column_set_visible (self->scale_column, any);
}

/* The joints whose rows are expanded */
static GStrv
expanded_names (SequinJointTree *self)
{
  GStrvBuilder *builder;
  GStrv names;

  if (self->rows == NULL)
    return NULL;
  builder = g_strv_builder_new ();
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->rows)); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->rows), i);
      g_autoptr(GObject) item = gtk_tree_list_row_get_item (row);

      if (SEQUIN_IS_JOINT_ITEM (item) && gtk_tree_list_row_get_expanded (row))
        g_strv_builder_add (builder, sequin_joint_item_get_name (SEQUIN_JOINT_ITEM (item)));
    }
  names = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return names;
}

static void
rebuild (SequinJointTree *self)
{
  const SqClip *clip = self->document != NULL ? sequin_document_get_clip (self->document) : NULL;

  g_auto(GStrv) expanded = expanded_names (self);

  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_func (self->selection, selection_changed_cb, self);
  gtk_column_view_set_model (self->column_view, NULL);
  g_clear_object (&self->selection);
  g_clear_object (&self->rows);
  g_clear_object (&self->joints);
  if (clip != self->clip)
    g_clear_pointer (&expanded, g_strfreev);
  self->clip = clip;

  if (clip != NULL)
    {
      GListModel *top;

      self->joints = sequin_joint_model_new (clip);
      top = build_hierarchy (self, clip) ? G_LIST_MODEL (self->roots) : G_LIST_MODEL (self->joints);
      self->rows = gtk_tree_list_model_new (g_object_ref (top), FALSE, FALSE,
                                            create_children, self, NULL);
      self->selection = gtk_multi_selection_new (g_object_ref (G_LIST_MODEL (self->rows)));
      g_signal_connect_swapped (self->selection, "selection-changed", G_CALLBACK (selection_changed_cb), self);
      gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
    }
  /* the joints the user had open stay open (an edit that changes the
   * hierarchy builds it again) */
  for (guint i = 0; expanded != NULL && expanded[i] != NULL && clip != NULL; i++)
    {
      gssize j = sq_clip_find_joint (clip, expanded[i]);
      if (j >= 0)
        sequin_joint_tree_expand_joint (self, j, TRUE);
    }
  update_scale_column (self);
  /* a .x numbers its keys in ticks */
  gtk_column_view_column_set_title (self->frame_column,
                                    sequin_clip_counts_ticks (clip) ? _("Tick") : _("Frame"));
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

static void
document_changed_cb (SequinJointTree *self,
                     SequinDocument  *document)
{
  if (sequin_document_get_clip (document) != self->clip || self->joints == NULL)
    rebuild (self);
  else if (!same_hierarchy (self, self->clip))
    {
      /* joints deleted, renamed to another bone: the rows follow the new
       * parents (after the joint model is right for the clip) */
      sequin_joint_model_refresh (self->joints);
      rebuild (self);
    }
  else
    {
      sequin_joint_model_refresh (self->joints);
      update_scale_column (self);
      g_signal_emit (self, signals[SELECTION_CHANGED], 0);
    }
}

/* ---- GObject --------------------------------------------------------------- */

static void
sequin_joint_tree_dispose (GObject *object)
{
  SequinJointTree *self = (SequinJointTree *)object;

  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_func (self->selection, selection_changed_cb, self);
  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  gtk_widget_dispose_template (GTK_WIDGET (self), SEQUIN_TYPE_JOINT_TREE);
  g_clear_object (&self->selection);
  g_clear_object (&self->rows);
  g_clear_pointer (&self->children, g_ptr_array_unref);
  g_clear_object (&self->roots);
  g_clear_pointer (&self->parents, g_free);
  g_clear_pointer (&self->made_from, sequin_clip_shape_free);
  g_clear_object (&self->joints);
  g_clear_object (&self->document);

  G_OBJECT_CLASS (sequin_joint_tree_parent_class)->dispose (object);
}

/* ---- Keyboard -------------------------------------------------------------- */

static gboolean
is_tab_stop (GtkWidget *widget)
{
  return gtk_widget_get_focusable (widget) && gtk_widget_get_can_focus (widget)
         && gtk_widget_is_sensitive (widget) && gtk_widget_get_mapped (widget)
         && gtk_widget_get_child_visible (widget);
}

/* The focusable widgets of `root` in tree order, leaving out those inside
 * `skip` but putting `skip` itself in their place */
static void
collect_tab_stops (GtkWidget *root,
                   GtkWidget *skip,
                   GPtrArray *stops)
{
  if (root == skip)
    {
      g_ptr_array_add (stops, root);
      return;
    }
  /* popovers (natives inside the window) are not in its Tab order */
  if (!gtk_widget_get_mapped (root) || (GTK_IS_NATIVE (root) && gtk_widget_get_parent (root) != NULL))
    return;
  if (is_tab_stop (root))
    g_ptr_array_add (stops, root);
  if (!gtk_widget_get_can_focus (root))
    return;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    collect_tab_stops (child, skip, stops);
}

/* Tab and Shift+Tab leave the tree in one press, to the widget before or
 * after it (GtkColumnView's rows would each take a Tab: 44 for 44 joints);
 * the arrow keys move within it */
static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                SequinJointTree       *self)
{
  g_autoptr(GPtrArray) stops = NULL;
  GtkWidget *root;
  gboolean back = keyval == GDK_KEY_ISO_Left_Tab || (state & GDK_SHIFT_MASK);
  guint here;

  if ((keyval != GDK_KEY_Tab && keyval != GDK_KEY_KP_Tab && keyval != GDK_KEY_ISO_Left_Tab)
      || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)))
    return FALSE;
  root = GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (self)));
  if (root == NULL)
    return FALSE;
  stops = g_ptr_array_new ();
  collect_tab_stops (root, GTK_WIDGET (self), stops);
  if (!g_ptr_array_find (stops, self, &here) || stops->len < 2)
    return FALSE;
  /* around the window, as Tab goes */
  for (guint i = 1; i < stops->len; i++)
    {
      GtkWidget *next = stops->pdata[(here + (back ? stops->len - i : i)) % stops->len];

      if (gtk_widget_grab_focus (next))
        return TRUE;
    }
  return FALSE;
}

static gboolean
sequin_joint_tree_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (GTK_WIDGET (SEQUIN_JOINT_TREE (widget)->column_view));
}

static void
sequin_joint_tree_class_init (SequinJointTreeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sequin_joint_tree_dispose;
  widget_class->grab_focus = sequin_joint_tree_grab_focus;

  /* the selection changed, or the rows did */
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sequin/Sequin/sequin-joint-tree.ui");
  gtk_widget_class_bind_template_child (widget_class, SequinJointTree, scroller);
  gtk_widget_class_bind_template_child (widget_class, SequinJointTree, column_view);
  gtk_widget_class_bind_template_child (widget_class, SequinJointTree, name_column);
  gtk_widget_class_bind_template_child (widget_class, SequinJointTree, frame_column);
  gtk_widget_class_bind_template_child (widget_class, SequinJointTree, rotation_column);
  gtk_widget_class_bind_template_child (widget_class, SequinJointTree, axis_angle_column);
  gtk_widget_class_bind_template_child (widget_class, SequinJointTree, translation_column);
  gtk_widget_class_bind_template_child (widget_class, SequinJointTree, scale_column);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
sequin_joint_tree_init (SequinJointTree *self)
{
  self->hierarchy = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));

  set_factory (self->name_column, COLUMN_NAME);
  set_factory (self->frame_column, COLUMN_FRAME);
  set_factory (self->rotation_column, COLUMN_ROTATION);
  set_factory (self->axis_angle_column, COLUMN_AXIS_ANGLE);
  set_factory (self->translation_column, COLUMN_TRANSLATION);
  set_factory (self->scale_column, COLUMN_SCALE);

  {
    GtkEventController *keys = gtk_event_controller_key_new ();

    /* before the rows see Tab */
    gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
    g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
    gtk_widget_add_controller (GTK_WIDGET (self), keys);
  }
  gtk_widget_add_css_class (GTK_WIDGET (self->column_view), "joint-tree");
}

GtkWidget *
sequin_joint_tree_new (void)
{
  return g_object_new (SEQUIN_TYPE_JOINT_TREE, NULL);
}

void
sequin_joint_tree_set_document (SequinJointTree *self,
                                SequinDocument  *document)
{
  g_return_if_fail (SEQUIN_IS_JOINT_TREE (self));
  g_return_if_fail (document == NULL || SEQUIN_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_func (self->document, document_changed_cb, self);
  g_set_object (&self->document, document);
  if (document != NULL)
    g_signal_connect_object (document, "changed", G_CALLBACK (document_changed_cb), self, G_CONNECT_SWAPPED);
  rebuild (self);
}

void
sequin_joint_tree_set_context_menu (SequinJointTree *self,
                                    GMenuModel      *menu)
{
  g_return_if_fail (SEQUIN_IS_JOINT_TREE (self));

  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  if (menu == NULL)
    return;
  self->context_menu = gtk_popover_menu_new_from_model (menu);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->context_menu), FALSE);
  gtk_widget_set_halign (self->context_menu, GTK_ALIGN_START);
  gtk_widget_set_parent (self->context_menu, GTK_WIDGET (self));
}

GListModel *
sequin_joint_tree_get_rows (SequinJointTree *self)
{
  g_return_val_if_fail (SEQUIN_IS_JOINT_TREE (self), NULL);
  return self->rows != NULL ? G_LIST_MODEL (self->rows) : NULL;
}

GtkSelectionModel *
sequin_joint_tree_get_selection (SequinJointTree *self)
{
  g_return_val_if_fail (SEQUIN_IS_JOINT_TREE (self), NULL);
  return self->selection != NULL ? GTK_SELECTION_MODEL (self->selection) : NULL;
}

/* How many key rows a joint's children start with */
static guint
n_key_rows (SequinJointTree *self,
            gsize            joint)
{
  SequinJointItem *item = sequin_joint_model_get_joint (self->joints, joint);
  const SqJoint *j = item != NULL ? sequin_joint_item_get_joint (item) : NULL;
  gsize n = 0;

  for (guint c = 0; j != NULL && c < SQ_N_CHANNELS; c++)
    n += j->tracks[c].n_keys;
  return n > 0 ? g_list_model_get_n_items (G_LIST_MODEL (sequin_joint_item_get_keys (item))) : 0;
}

/* Where joint `index` is among its siblings (in the hierarchy) */
static gboolean
sibling_position (SequinJointTree *self,
                  gsize            index,
                  guint           *position)
{
  gssize p = self->parents[index];
  GListModel *siblings = p >= 0 ? g_ptr_array_index (self->children, p) : G_LIST_MODEL (self->roots);
  gpointer item = sequin_joint_model_get_joint (self->joints, index);

  return g_list_store_find (G_LIST_STORE (siblings), item, position);
}

/* The row of a joint; in the hierarchy its ancestors are expanded to make it */
static GtkTreeListRow *
joint_row (SequinJointTree *self,
           gsize            joint)
{
  g_autoptr(GtkTreeListRow) parent = NULL;
  guint position;

  if (self->rows == NULL || joint > G_MAXUINT)
    return NULL;
  if (self->parents == NULL)
    return gtk_tree_list_model_get_child_row (self->rows, (guint) joint);
  if (joint >= self->n_parents || !sibling_position (self, joint, &position))
    return NULL;
  if (self->parents[joint] < 0)
    return gtk_tree_list_model_get_child_row (self->rows, position);
  /* a joint's child joints come after its keys */
  parent = joint_row (self, self->parents[joint]);
  if (parent == NULL)
    return NULL;
  gtk_tree_list_row_set_expanded (parent, TRUE);
  return gtk_tree_list_row_get_child_row (parent, n_key_rows (self, self->parents[joint]) + position);
}

gboolean
sequin_joint_tree_expand_joint (SequinJointTree *self,
                                gsize            joint,
                                gboolean         expanded)
{
  g_autoptr(GtkTreeListRow) row = NULL;

  g_return_val_if_fail (SEQUIN_IS_JOINT_TREE (self), FALSE);

  if ((row = joint_row (self, joint)) == NULL)
    return FALSE;
  gtk_tree_list_row_set_expanded (row, expanded);
  return gtk_tree_list_row_get_expanded (row) == expanded;
}

static void
scroll_to (SequinJointTree *self,
           guint            position)
{
  /* GTK 4.8 has no gtk_column_view_scroll_to(): the column view's list
   * (a GtkListView child) offers the action */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      {
        gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
        return;
      }
}

void
sequin_joint_tree_select_joint (SequinJointTree *self,
                                gsize            joint)
{
  g_autoptr(GtkTreeListRow) row = NULL;
  guint position;

  g_return_if_fail (SEQUIN_IS_JOINT_TREE (self));

  if ((row = joint_row (self, joint)) == NULL)
    return;
  position = gtk_tree_list_row_get_position (row);
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), position, TRUE);
  scroll_to (self, position);
}

gboolean
sequin_joint_tree_select_key (SequinJointTree *self,
                              gsize            joint,
                              SqChannel        channel,
                              gsize            key)
{
  g_autoptr(GtkTreeListRow) row = NULL;
  SequinJointItem *item;
  gssize index;
  guint position;

  g_return_val_if_fail (SEQUIN_IS_JOINT_TREE (self), FALSE);

  if ((row = joint_row (self, joint)) == NULL || channel >= SQ_N_CHANNELS)
    return FALSE;
  item = sequin_joint_model_get_joint (self->joints, joint);
  index = sequin_key_model_find_key (sequin_joint_item_get_keys (item), channel, key);
  if (index < 0)
    return FALSE;
  gtk_tree_list_row_set_expanded (row, TRUE);
  {
    g_autoptr(GtkTreeListRow) key_row = gtk_tree_list_row_get_child_row (row, (guint) index);
    if (key_row == NULL)
      return FALSE;
    position = gtk_tree_list_row_get_position (key_row);
  }
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), position, TRUE);
  scroll_to (self, position);
  return TRUE;
}

/* Calls `func` for the item of every selected row, until it returns FALSE */
static void
foreach_selected (SequinJointTree *self,
                  gboolean       (*func) (gpointer item, gpointer data),
                  gpointer         data)
{
  g_autoptr(GtkBitset) selected = NULL;
  GtkBitsetIter iter;
  guint position;

  if (self->selection == NULL)
    return;
  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  for (gboolean ok = gtk_bitset_iter_init_first (&iter, selected, &position);
       ok;
       ok = gtk_bitset_iter_next (&iter, &position))
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->rows), position);
      g_autoptr(GObject) item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

      if (item != NULL && !func (item, data))
        return;
    }
}

static gboolean
collect_joint (gpointer item,
               gpointer data)
{
  GArray *indices = data;
  SequinJointItem *joint = SEQUIN_IS_KEY_ITEM (item) ? sequin_key_item_get_joint (item) : item;
  gssize index = sequin_joint_item_get_index (joint);

  if (index < 0)
    return TRUE;
  for (guint i = 0; i < indices->len; i++)
    if (g_array_index (indices, gssize, i) == index)
      return TRUE;
  g_array_append_val (indices, index);
  return TRUE;
}

char **
sequin_joint_tree_dup_selected_joints (SequinJointTree *self)
{
  g_autoptr(GArray) indices = g_array_new (FALSE, FALSE, sizeof (gssize));
  GStrvBuilder *builder = g_strv_builder_new ();
  char **names;

  g_return_val_if_fail (SEQUIN_IS_JOINT_TREE (self), NULL);

  foreach_selected (self, collect_joint, indices);
  for (guint i = 0; i < indices->len && self->clip != NULL; i++)
    g_strv_builder_add (builder, self->clip->joints[g_array_index (indices, gssize, i)].name);
  names = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return names;
}

gssize
sequin_joint_tree_get_current_joint (SequinJointTree *self)
{
  g_autoptr(GArray) indices = g_array_new (FALSE, FALSE, sizeof (gssize));

  g_return_val_if_fail (SEQUIN_IS_JOINT_TREE (self), -1);

  foreach_selected (self, collect_joint, indices);
  return indices->len == 1 ? g_array_index (indices, gssize, 0) : -1;
}

gboolean
sequin_joint_tree_get_selected_key (SequinJointTree *self,
                                    gssize          *joint,
                                    SqChannel       *channel,
                                    gssize          *key,
                                    double          *time)
{
  g_autoptr(GtkBitset) selected = NULL;
  g_autoptr(GtkTreeListRow) row = NULL;
  g_autoptr(GObject) item = NULL;
  const SequinKeyRow *data;
  SqChannel c;
  gsize k;

  g_return_val_if_fail (SEQUIN_IS_JOINT_TREE (self), FALSE);

  if (self->selection == NULL)
    return FALSE;
  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  if (gtk_bitset_get_size (selected) != 1)
    return FALSE;
  row = g_list_model_get_item (G_LIST_MODEL (self->rows), gtk_bitset_get_minimum (selected));
  item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  if (!SEQUIN_IS_KEY_ITEM (item) || !sequin_key_item_get_first (SEQUIN_KEY_ITEM (item), &c, &k))
    return FALSE;
  data = sequin_key_item_get_data (SEQUIN_KEY_ITEM (item));
  if (joint != NULL)
    *joint = sequin_joint_item_get_index (sequin_key_item_get_joint (SEQUIN_KEY_ITEM (item)));
  if (channel != NULL)
    *channel = c;
  if (key != NULL)
    *key = k;
  if (time != NULL)
    *time = data->time;
  return TRUE;
}

void
sequin_joint_tree_set_hierarchy (SequinJointTree *self,
                                 gboolean         hierarchy)
{
  g_return_if_fail (SEQUIN_IS_JOINT_TREE (self));

  hierarchy = !!hierarchy;
  if (self->hierarchy == hierarchy)
    return;
  self->hierarchy = hierarchy;
  rebuild (self);
}

gboolean
sequin_joint_tree_get_hierarchy (SequinJointTree *self)
{
  g_return_val_if_fail (SEQUIN_IS_JOINT_TREE (self), FALSE);
  return self->hierarchy;
}

gssize
sequin_joint_tree_get_parent (SequinJointTree *self,
                              gsize            joint)
{
  g_return_val_if_fail (SEQUIN_IS_JOINT_TREE (self), -1);
  return self->parents != NULL && joint < self->n_parents ? self->parents[joint] : -1;
}
