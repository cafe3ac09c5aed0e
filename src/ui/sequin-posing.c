/* sequin-posing.c: making an animation in the window
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * New (a world, a duration, a frame rate), the sidebar's Pose page (the
 * selected joint's rotation at the playhead as Euler degrees in the
 * joint's channel order and as a quaternion, and its position: typing a
 * value keys it), insert keys (K), copy and paste poses (Ctrl+C, Ctrl+V,
 * Ctrl+Shift+V flipped), symmetrize. Every change is one core edit
 * (sq-posing.h) through the document, so the command line makes the same.
 * The pose library dialog is in sequin-pose-library.c.
 */
#define G_LOG_DOMAIN "sequin-posing"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sequin-pose-library.h"
#include "sequin-posing.h"
#include "sequin-utils.h"
#include "sequin-window-private.h"

/* the pose copied last, for every window */
static SqJointPose *copied_pose;

typedef struct
{
  SequinWindow *window;
  GtkWidget    *page;
  GtkWidget    *heading;
  GtkWidget    *angle_labels[3];
  GtkWidget    *angles[3];
  GtkWidget    *quaternion;
  GtkWidget    *positions[3];
  GtkWidget    *refusal;
  char         *refused;
  gboolean      updating;
} PosePage;

static PosePage *
page_of (SequinWindow *window)
{
  return g_object_get_data (G_OBJECT (window), "sequin-pose-page");
}

static void
pose_page_free (PosePage *page)
{
  g_free (page->refused);
  g_free (page);
}

static double
playhead (SequinWindow *self)
{
  return sequin_playback_get_position (self->playback);
}

static const SqClip *
clip_of (SequinWindow *self)
{
  return self->document != NULL ? sequin_document_get_clip (self->document) : NULL;
}

/* ---- the Pose page ---------------------------------------------------------- */

static const char * const axis_names[] = { "X", "Y", "Z" };

static void
page_apply (PosePage *page,
            SqEdit   *edit)
{
  sequin_apply_or_explain (page->window->document, edit, page->refusal, &page->refused);
}

static void
angle_changed_cb (GtkSpinButton *spin,
                  PosePage      *page)
{
  SequinWindow *self = page->window;
  const SqClip *clip = clip_of (self);
  gssize j = clip != NULL ? sequin_joint_tree_get_current_joint (self->joint_tree) : -1;
  double angles[3], q[4];
  int axes[3];

  if (page->updating || j < 0)
    return;
  sq_posing_euler_axes (clip, (gsize) j, axes);
  for (guint i = 0; i < 3; i++)
    angles[i] = gtk_spin_button_get_value (GTK_SPIN_BUTTON (page->angles[i]));
  sq_euler_to_quat (angles, axes, 3, q);
  page_apply (page, sq_edit_set_rotation_new (clip->joints[j].name, playhead (self), q));
}

static void
position_changed_cb (GtkSpinButton *spin,
                     PosePage      *page)
{
  SequinWindow *self = page->window;
  const SqClip *clip = clip_of (self);
  gssize j = clip != NULL ? sequin_joint_tree_get_current_joint (self->joint_tree) : -1;
  double v[3];

  if (page->updating || j < 0)
    return;
  for (guint i = 0; i < 3; i++)
    v[i] = gtk_spin_button_get_value (GTK_SPIN_BUTTON (page->positions[i]));
  page_apply (page, sq_edit_set_position_new (clip->joints[j].name, playhead (self), v));
}

/* With no joint selected (the field insensitive) the field is empty: a
 * spin button left to itself would show its minimum whenever it formats
 * its value again (when it is mapped, say) */
static gboolean
spin_output_cb (GtkSpinButton *spin)
{
  if (gtk_widget_get_sensitive (GTK_WIDGET (spin)))
    return FALSE;
  gtk_editable_set_text (GTK_EDITABLE (spin), "");
  return TRUE;
}

static GtkWidget *
value_spin (PosePage   *page,
            double      min,
            double      max,
            guint       digits,
            const char *name,
            GCallback   changed)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (min, max, digits == 2 ? 1 : 0.01);

  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), digits);
  gtk_widget_set_hexpand (spin, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  g_signal_connect (spin, "value-changed", changed, page);
  g_signal_connect (spin, "output", G_CALLBACK (spin_output_cb), NULL);
  return spin;
}

static GtkWidget *
page_button (const char *label,
             const char *action,
             const char *tooltip)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  sequin_set_tooltip (button, tooltip);
  return button;
}

static GtkWidget *
page_buttons (void)
{
  GtkWidget *flow = gtk_flow_box_new ();

  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (flow), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (flow), 2);
  gtk_flow_box_append (GTK_FLOW_BOX (flow), page_button (_("_Insert Keys"), "win.insert-keys",
                                                         _("Key the selected joints (or all) at the playhead (K)")));
  gtk_flow_box_append (GTK_FLOW_BOX (flow), page_button (_("S_ymmetrize"), "win.symmetrize",
                                                         _("Give the other side the mirror image of the selected joints")));
  gtk_flow_box_append (GTK_FLOW_BOX (flow), page_button (_("_Copy Pose"), "win.copy-pose",
                                                         _("Copy the pose of the selected joints (or all) at the playhead (Ctrl+C)")));
  gtk_flow_box_append (GTK_FLOW_BOX (flow), page_button (_("_Paste Pose"), "win.paste-pose",
                                                         _("Key the copied pose at the playhead (Ctrl+V)")));
  gtk_flow_box_append (GTK_FLOW_BOX (flow), page_button (_("Paste _Flipped"), "win.paste-pose-flipped",
                                                         _("Key the copied pose left to right (Ctrl+Shift+V)")));
  gtk_flow_box_append (GTK_FLOW_BOX (flow), page_button (_("Pose _Library…"), "win.pose-library",
                                                         _("Saved poses and hand presets")));
  return flow;
}

static GtkWidget *
pose_page_new (PosePage *page)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *label;

  page->heading = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (page->heading), TRUE);
  gtk_label_set_xalign (GTK_LABEL (page->heading), 0);
  gtk_widget_add_css_class (page->heading, "heading");
  gtk_box_append (GTK_BOX (box), page->heading);

  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 6);
  label = gtk_label_new (_("Rotation (degrees, in the joint's channel order)"));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_grid_attach (GTK_GRID (grid), label, 0, 0, 2, 1);
  for (guint i = 0; i < 3; i++)
    {
      /* the name and label follow the joint's channel order (update) */
      page->angle_labels[i] = gtk_label_new (axis_names[i]);
      page->angles[i] = value_spin (page, -360, 360, 2, axis_names[i], G_CALLBACK (angle_changed_cb));
      /* Up and Down turn the joint about this axis by a degree, Page Up
       * and Page Down by 5 */
      gtk_spin_button_set_increments (GTK_SPIN_BUTTON (page->angles[i]), 1, 5);
      sequin_set_tooltip (page->angles[i], _("Up and Down turn the joint by 1°, Page Up and Page Down by 5°"));
      gtk_grid_attach (GTK_GRID (grid), page->angle_labels[i], 0, 1 + i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), page->angles[i], 1, 1 + i, 1, 1);
    }
  page->quaternion = gtk_label_new (NULL);
  gtk_label_set_selectable (GTK_LABEL (page->quaternion), TRUE);
  gtk_label_set_xalign (GTK_LABEL (page->quaternion), 0);
  gtk_grid_attach (GTK_GRID (grid), page->quaternion, 0, 4, 2, 1);
  label = gtk_label_new (_("Position (file units)"));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_grid_attach (GTK_GRID (grid), label, 0, 5, 2, 1);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *name = g_strdup_printf (_("Position %s"), axis_names[i]);

      page->positions[i] = value_spin (page, -1e6, 1e6, 4, name, G_CALLBACK (position_changed_cb));
      gtk_grid_attach (GTK_GRID (grid), gtk_label_new (axis_names[i]), 0, 6 + i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), page->positions[i], 1, 6 + i, 1, 1);
    }
  gtk_box_append (GTK_BOX (box), grid);
  page->refusal = sequin_refusal_label_new ();
  gtk_box_append (GTK_BOX (box), page->refusal);
  gtk_box_append (GTK_BOX (box), page_buttons ());
  return box;
}

/* the axes' labels and names in the joint's channel order */
static void
update_axes (PosePage *page,
             const int axes[3])
{
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *name = g_strdup_printf (_("Rotation about %s"), axis_names[axes[i]]);

      gtk_label_set_text (GTK_LABEL (page->angle_labels[i]), axis_names[axes[i]]);
      gtk_accessible_update_property (GTK_ACCESSIBLE (page->angles[i]), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
    }
}

static void
update_page (SequinWindow *self)
{
  PosePage *page = page_of (self);
  const SqClip *clip = clip_of (self);
  gssize j = clip != NULL ? sequin_joint_tree_get_current_joint (self->joint_tree) : -1;
  double t = playhead (self), q[4], v[4], angles[3];
  int axes[3];
  g_autofree char *heading = NULL;
  g_autofree char *quat = NULL;

  if (page == NULL)
    return;
  page->updating = TRUE;
  for (guint i = 0; i < 3; i++)
    {
      gtk_widget_set_sensitive (page->angles[i], j >= 0);
      gtk_widget_set_sensitive (page->positions[i], j >= 0);
    }
  if (j < 0)
    {
      gtk_label_set_text (GTK_LABEL (page->heading), _("Select a joint to pose it"));
      gtk_label_set_text (GTK_LABEL (page->quaternion), "");
      /* no joint, no numbers (an idle spin button would show its minimum) */
      for (guint i = 0; i < 3; i++)
        {
          gtk_editable_set_text (GTK_EDITABLE (page->angles[i]), "");
          gtk_editable_set_text (GTK_EDITABLE (page->positions[i]), "");
        }
      page->updating = FALSE;
      return;
    }
  sq_posing_euler_axes (clip, (gsize) j, axes);
  update_axes (page, axes);
  sq_track_sample (&clip->joints[j].tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, t, q);
  sq_track_sample (&clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION], SQ_CHANNEL_TRANSLATION, t, v);
  /* a turn or a move being dragged in the preview: its value, live */
  {
    gssize dragged;
    gboolean rotation;
    double value[4];

    if (sequin_preview_get_gizmo_value (self->preview, &dragged, &rotation, value) && dragged == j)
      memcpy (rotation ? q : v, value, (rotation ? 4 : 3) * sizeof (double));
  }
  sq_quat_to_euler (q, axes, 3, angles);
  for (guint i = 0; i < 3; i++)
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (page->angles[i]), angles[i]);
  for (guint i = 0; i < 3; i++)
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (page->positions[i]), v[i]);
  /* TRANSLATORS: a joint's name, the playhead's time and frame */
  heading = g_strdup_printf (_("%s at %.3f s (frame %d)"), clip->joints[j].name, t, sq_clip_time_to_frame (clip, t));
  gtk_label_set_text (GTK_LABEL (page->heading), heading);
  quat = g_strdup_printf (_("Quaternion W X Y Z: %.5f %.5f %.5f %.5f"), q[0], q[1], q[2], q[3]);
  gtk_label_set_text (GTK_LABEL (page->quaternion), quat);
  page->updating = FALSE;
}

/* ---- actions ------------------------------------------------------------------ */

/* the selected joints' indices (NULL: none selected) */
static GArray *
selected_indices (SequinWindow *self,
                  const SqClip *clip)
{
  g_auto(GStrv) names = sequin_joint_tree_dup_selected_joints (self->joint_tree);
  GArray *out;

  if (names == NULL || names[0] == NULL)
    return NULL;
  out = g_array_new (FALSE, FALSE, sizeof (gsize));
  for (guint i = 0; names[i] != NULL; i++)
    {
      gssize j = sq_clip_find_joint (clip, names[i]);
      gsize u = (gsize) j;

      if (j >= 0)
        g_array_append_val (out, u);
    }
  return out;
}

static void
window_apply (SequinWindow *self,
              SqEdit       *edit)
{
  PosePage *page = page_of (self);

  sequin_apply_or_explain (self->document, edit, page->refusal, &page->refused);
}

static void
insert_keys_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);
  g_auto(GStrv) names = sequin_joint_tree_dup_selected_joints (self->joint_tree);

  window_apply (self, sq_edit_insert_keys_new ((const char * const *) names, playhead (self)));
}

static void
copy_pose_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);
  const SqClip *clip = clip_of (self);
  g_autoptr(GArray) joints = selected_indices (self, clip);
  g_autofree char *text = NULL;

  /* Ctrl+V pastes what was copied last: this pose, not keys */
  _sequin_window_keys_forget ();
  g_clear_pointer (&copied_pose, sq_joint_pose_free);
  copied_pose = sq_joint_pose_capture (clip, joints != NULL ? (const gsize *) (gpointer) joints->data : NULL,
                                       joints != NULL ? joints->len : 0, playhead (self), _("Copied pose"));
  /* other programs get the pose file's text */
  text = sq_joint_pose_to_text (copied_pose);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
  sequin_posing_update (self);
}

static void
paste_pose_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);

  if (copied_pose != NULL)
    window_apply (self, sq_edit_paste_pose_new (copied_pose, playhead (self),
                                                g_str_equal (action_name, "win.paste-pose-flipped")));
}

static void
symmetrize_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);
  g_auto(GStrv) names = sequin_joint_tree_dup_selected_joints (self->joint_tree);

  window_apply (self, sq_edit_symmetrize_new ((const char * const *) names, playhead (self)));
}

static void
pose_library_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  sequin_pose_library_show (SEQUIN_WINDOW (widget));
}

/* ---- New ------------------------------------------------------------------------ */

typedef struct
{
  SequinWindow *window;
  GtkWidget    *dialog;
  GtkWidget    *world;
  GtkWidget    *duration;
  GtkWidget    *fps;
  GtkWidget    *refusal;
  char         *refused;
} NewDialog;

static void
new_dialog_free (NewDialog *d)
{
  g_free (d->refused);
  g_object_unref (d->window);
  g_free (d);
}

static void
new_create_cb (NewDialog *d)
{
  const char *world = sq_clip_new_worlds ()[gtk_drop_down_get_selected (GTK_DROP_DOWN (d->world))];
  g_autoptr(GError) error = NULL;
  SqClip *clip = sq_clip_new_for_world (world, gtk_spin_button_get_value (GTK_SPIN_BUTTON (d->duration)),
                                        gtk_spin_button_get_value (GTK_SPIN_BUTTON (d->fps)), &error);
  g_autoptr(SequinDocument) document = NULL;
  SequinWindow *target = d->window;

  if (clip == NULL)
    {
      sequin_refusal_show (d->refusal, &d->refused, error->message);
      return;
    }
  document = sequin_document_new_for_clip (clip, _("New Animation"));
  if (!sequin_window_is_empty (target))
    target = sequin_window_new (SEQUIN_APPLICATION (gtk_window_get_application (GTK_WINDOW (target))));
  sequin_window_set_document (target, document);
  gtk_window_present (GTK_WINDOW (target));
  gtk_window_destroy (GTK_WINDOW (d->dialog));
}

static GtkWidget *
new_row (GtkWidget  *grid,
         int         row,
         const char *label,
         GtkWidget  *control)
{
  GtkWidget *l = gtk_label_new_with_mnemonic (label);

  gtk_label_set_xalign (GTK_LABEL (l), 1);
  gtk_label_set_mnemonic_widget (GTK_LABEL (l), control);
  gtk_grid_attach (GTK_GRID (grid), l, 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), control, 1, row, 1, 1);
  gtk_widget_set_hexpand (control, TRUE);
  return control;
}

static GtkWidget *
new_world_dropdown (void)
{
  const char * const *worlds = sq_clip_new_worlds ();
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);

  for (guint i = 0; worlds[i] != NULL; i++)
    gtk_string_list_append (names, sq_clip_new_world_name (worlds[i]));
  return gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&names)), NULL);
}

static void
new_animation_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  NewDialog *d = g_new0 (NewDialog, 1);
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  GtkWidget *create = gtk_button_new_with_mnemonic (_("C_reate"));

  d->window = g_object_ref (SEQUIN_WINDOW (widget));
  d->dialog = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (d->dialog), _("New Animation"));
  gtk_window_set_modal (GTK_WINDOW (d->dialog), TRUE);
  gtk_window_set_transient_for (GTK_WINDOW (d->dialog), GTK_WINDOW (widget));
  gtk_window_set_resizable (GTK_WINDOW (d->dialog), FALSE);
  g_object_set_data_full (G_OBJECT (d->dialog), "new-dialog", d, (GDestroyNotify) new_dialog_free);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  d->world = new_row (grid, 0, _("_World"), new_world_dropdown ());
  d->duration = new_row (grid, 1, _("_Duration (seconds)"), gtk_spin_button_new_with_range (0.1, 3600, 0.5));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (d->duration), 5);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (d->duration), 2);
  d->fps = new_row (grid, 2, _("_Frames per second"), gtk_spin_button_new_with_range (1, 1000, 1));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (d->fps), 30);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_box_append (GTK_BOX (box), grid);
  d->refusal = sequin_refusal_label_new ();
  gtk_box_append (GTK_BOX (box), d->refusal);
  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  gtk_box_append (GTK_BOX (buttons), cancel);
  gtk_box_append (GTK_BOX (buttons), create);
  gtk_widget_add_css_class (create, "suggested-action");
  gtk_box_append (GTK_BOX (box), buttons);
  gtk_window_set_child (GTK_WINDOW (d->dialog), box);
  gtk_window_set_default_widget (GTK_WINDOW (d->dialog), create);
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_destroy), d->dialog);
  g_signal_connect_swapped (create, "clicked", G_CALLBACK (new_create_cb), d);
  sequin_accessible_single_names (d->dialog);
  gtk_window_present (GTK_WINDOW (d->dialog));
}

/* ---- setup ---------------------------------------------------------------------- */

void
sequin_posing_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.new-animation", NULL, new_animation_action);
  gtk_widget_class_install_action (widget_class, "win.insert-keys", NULL, insert_keys_action);
  gtk_widget_class_install_action (widget_class, "win.copy-pose", NULL, copy_pose_action);
  gtk_widget_class_install_action (widget_class, "win.paste-pose", NULL, paste_pose_action);
  gtk_widget_class_install_action (widget_class, "win.paste-pose-flipped", NULL, paste_pose_action);
  gtk_widget_class_install_action (widget_class, "win.symmetrize", NULL, symmetrize_action);
  gtk_widget_class_install_action (widget_class, "win.pose-library", NULL, pose_library_action);
}

/* K, Ctrl+C, Ctrl+V and Ctrl+Shift+V where keys and joints are chosen
 * (not window-wide, so text fields keep their own); Ctrl+C copies the
 * keys selected in the timeline when it has the focus, else the pose
 * (sequin-window-keys.c) */
static void
add_posing_keys (GtkWidget *widget)
{
  static const struct { const char *trigger, *action; } keys[] = {
    { "k", "win.insert-keys" },
    { "<Control>c", "win.copy" },
    { "<Control>v", "win.paste" },
    { "<Control><Shift>v", "win.paste-flipped" },
  };
  GtkEventController *controller = gtk_shortcut_controller_new ();

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                          gtk_shortcut_new (gtk_shortcut_trigger_parse_string (keys[i].trigger),
                                                            gtk_named_action_new (keys[i].action)));
  gtk_widget_add_controller (widget, controller);
}

/* a click (no drag) on a bone or joint of the preview selects its joint,
 * as the tree and the timeline do */
static void
preview_released_cb (GtkGestureClick *gesture,
                     int              n_press,
                     double           x,
                     double           y,
                     SequinWindow    *self)
{
  gssize j;

  if (n_press != 1 || clip_of (self) == NULL || sequin_preview_gizmo_took_press (self->preview))
    return;
  j = sequin_preview_joint_at (self->preview, x, y);
  if (j >= 0)
    sequin_joint_tree_select_joint (self->joint_tree, (gsize) j);
}

/* the gizmo's edit (a turn or a move let go, an arrow key's step) */
static void
preview_edit_cb (SequinPreview *preview,
                 SqEdit        *edit,
                 gpointer       data)
{
  (void) preview;
  window_apply (SEQUIN_WINDOW (data), edit);
}

void
sequin_posing_follow_preview (SequinWindow *self,
                              gboolean      own_clip)
{
  sequin_preview_set_posable (self->preview, own_clip && self->document != NULL, preview_edit_cb, self);
}

/* the box of groups inside the properties panel's scroller */
static GtkWidget *
panel_content (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (GTK_IS_BOX (c) && GTK_IS_VIEWPORT (gtk_widget_get_parent (c)))
        return c;
      if ((found = panel_content (c)) != NULL)
        return found;
    }
  return NULL;
}

void
sequin_posing_window_init (SequinWindow *window)
{
  PosePage *page = g_new0 (PosePage, 1);
  GtkWidget *content = panel_content (GTK_WIDGET (window->properties_panel));
  GtkGesture *click;

  page->window = window;
  page->page = pose_page_new (page);
  sequin_accessible_single_names (page->page);
  g_object_set_data_full (G_OBJECT (window), "sequin-pose-page", page, (GDestroyNotify) pose_page_free);
  /* the first group of the Properties page (a page of its own would
   * widen the sidebar's switcher) */
  g_return_if_fail (content != NULL);
  gtk_box_prepend (GTK_BOX (content), page->page);
  add_posing_keys (window->timeline);
  add_posing_keys (GTK_WIDGET (window->joint_tree));
  add_posing_keys (GTK_WIDGET (window->preview));
  click = gtk_gesture_click_new ();
  g_signal_connect (click, "released", G_CALLBACK (preview_released_cb), window);
  gtk_widget_add_controller (GTK_WIDGET (window->preview), GTK_EVENT_CONTROLLER (click));
  g_signal_connect_object (window->playback, "notify::position", G_CALLBACK (sequin_posing_update),
                           window, G_CONNECT_SWAPPED);
  /* the Pose page follows a drag of the preview's gizmo */
  g_signal_connect_object (window->preview, "gizmo-changed", G_CALLBACK (update_page), window, G_CONNECT_SWAPPED);
}

void
sequin_posing_update (SequinWindow *self)
{
  const SqClip *clip = clip_of (self);
  gboolean has_clip = clip != NULL && clip->n_joints > 0;
  g_auto(GStrv) selected = has_clip ? sequin_joint_tree_dup_selected_joints (self->joint_tree) : NULL;
  gboolean any = selected != NULL && selected[0] != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.insert-keys", has_clip);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-pose", has_clip);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.paste-pose", has_clip && copied_pose != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.paste-pose-flipped", has_clip && copied_pose != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.symmetrize", any);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.pose-library", has_clip);
  update_page (self);
}

GtkWidget *
sequin_posing_get_value_spin (SequinWindow *window,
                              guint         index)
{
  PosePage *page = page_of (window);

  g_return_val_if_fail (page != NULL && index < 6, NULL);
  return index < 3 ? page->angles[index] : page->positions[index - 3];
}

char *
sequin_posing_library_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "sequin", "poses", NULL);
}

char *
sequin_posing_presets_dir (void)
{
  const char *dirs[3];
  guint n = 0;

  dirs[n++] = g_getenv ("SEQUIN_POSES");
  dirs[n++] = PKGDATADIR G_DIR_SEPARATOR_S "poses";
#ifdef SEQUIN_SOURCE_POSE_DIR
  dirs[n++] = SEQUIN_SOURCE_POSE_DIR;
#endif
  for (guint i = 0; i < n; i++)
    if (dirs[i] != NULL && dirs[i][0] != '\0' && g_file_test (dirs[i], G_FILE_TEST_IS_DIR))
      return g_strdup (dirs[i]);
  return NULL;
}
