/* sequin-pose-list.c: the poses of a SimPose-ium pose library or KFD,
 * editable
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A list of the poses (sq_sims_pose_names()); selecting one emits
 * "pose-selected" with its time, so the window moves the playhead (tree,
 * timeline, preview) to it. Below the list: the selected pose's name
 * (Enter renames it) and buttons that duplicate, delete and move it up or
 * down. A KFD's poses are named by their frames: the entry moves a pose
 * to another frame, a copy goes to the free frame halfway to the next
 * pose. Every change is a core SqEdit (worlds/sq-sims-edit.h) on the
 * document's undo stack, the same the CLI makes; a refusal shows the
 * core's reason. The sidebar page holding the list is shown only for pose
 * libraries and KFDs.
 */
#define G_LOG_DOMAIN "sequin-pose-list"

#include "config.h"

#include <glib/gi18n.h>

#include "sequin-pose-list.h"
#include "sequin-utils.h"

enum
{
  BUTTON_DUPLICATE,
  BUTTON_DELETE,
  BUTTON_UP,
  BUTTON_DOWN,
  N_BUTTONS
};

struct _SequinPoseList
{
  GtkWidget       parent_instance;

  GtkWidget      *box;
  GtkWidget      *list;          /* a list view: rows made only for the poses in sight */
  GtkStringList  *poses;         /* the names the list shows */
  GtkSingleSelection *selection;
  GtkWidget      *name_label;
  GtkWidget      *name_entry;
  GtkWidget      *buttons[N_BUTTONS];
  GtkWidget      *error_label;

  SequinDocument *document;
  char          **names;         /* the poses shown */
  gboolean        frames;        /* a KFD: the names are frames */
  int             want;          /* the row to select after the next refresh */
  char           *error;
  guint           updating : 1;
  guint           follow : 1;    /* the next refresh moves the playhead to the pose */
};

G_DEFINE_FINAL_TYPE (SequinPoseList, sequin_pose_list, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_POSE_SELECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- Showing the library ----------------------------------------------------- */

static const SqClip *
current_clip (SequinPoseList *self)
{
  return self->document != NULL ? sequin_document_get_clip (self->document) : NULL;
}

/* the sidebar page holding the list, shown for pose libraries only */
static void
update_page (SequinPoseList *self,
             gboolean        library)
{
  GtkWidget *parent = gtk_widget_get_parent (GTK_WIDGET (self));

  if (parent != NULL && GTK_IS_STACK (parent))
    gtk_stack_page_set_visible (gtk_stack_get_page (GTK_STACK (parent), GTK_WIDGET (self)), library);
}

static void
update_buttons (SequinPoseList *self)
{
  int selected = sequin_pose_list_get_selected (self);
  guint n = self->names != NULL ? g_strv_length (self->names) : 0;

  gtk_widget_set_sensitive (self->name_entry, selected >= 0);
  gtk_widget_set_sensitive (self->buttons[BUTTON_DUPLICATE], selected >= 0);
  /* a library keeps one pose, a KFD its first and last */
  gtk_widget_set_sensitive (self->buttons[BUTTON_DELETE],
                            self->frames ? selected > 0 && (guint) selected + 1 < n : selected >= 0 && n > 1);
  gtk_widget_set_sensitive (self->buttons[BUTTON_UP], selected > 0);
  gtk_widget_set_sensitive (self->buttons[BUTTON_DOWN], selected >= 0 && (guint) selected + 1 < n);
  gtk_editable_set_text (GTK_EDITABLE (self->name_entry), selected >= 0 ? self->names[selected] : "");
}

/* a row: the pose's name, or a KFD pose's frame */
static void
row_setup_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              SequinPoseList           *self)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_margin_start (label, 6);
  gtk_widget_set_margin_end (label, 6);
  gtk_widget_set_margin_top (label, 4);
  gtk_widget_set_margin_bottom (label, 4);
  gtk_list_item_set_child (item, label);
}

static void
row_bind_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             SequinPoseList           *self)
{
  const char *name = gtk_string_object_get_string (GTK_STRING_OBJECT (gtk_list_item_get_item (item)));
  /* TRANSLATORS: a KFD pose in the list of poses, by its frame number */
  g_autofree char *text = self->frames ? g_strdup_printf (_("Frame %s"), name) : g_strdup (name);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

static void
set_button_tip (GtkWidget  *button,
                const char *tip)
{
  sequin_set_tooltip (button, tip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, tip, -1);
}

/* the entry names a library's pose, or moves a KFD's to another frame */
static void
update_name_field (SequinPoseList *self)
{
  const char *tip = self->frames ? _("The selected pose’s frame: press Enter to move the pose there")
                                 : _("The selected pose’s name: press Enter to rename it");

  gtk_label_set_text_with_mnemonic (GTK_LABEL (self->name_label), self->frames ? _("Pose _frame") : _("Pose _name"));
  sequin_set_tooltip (self->name_entry, tip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->name_entry), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, tip, -1);
  set_button_tip (self->buttons[BUTTON_DUPLICATE],
                  self->frames ? _("Add a copy of the selected pose halfway to the next one")
                               : _("Add a copy of the selected pose after it"));
  set_button_tip (self->buttons[BUTTON_DELETE],
                  self->frames ? _("Delete the selected pose (a KFD keeps its first and last)")
                               : _("Delete the selected pose (a library keeps at least one)"));
}

/* whether the list shows `names` (NULL: none) */
static gboolean
same_names (GtkStringList      *poses,
            const char * const *names)
{
  guint n = names != NULL ? g_strv_length ((char **) names) : 0;

  if (poses == NULL || g_list_model_get_n_items (G_LIST_MODEL (poses)) != n)
    return poses == NULL && n == 0;
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (poses, i), names[i]) != 0)
      return FALSE;
  return TRUE;
}

static void
refresh (SequinPoseList *self)
{
  const SqClip *clip = current_clip (self);
  gboolean frames_before = self->frames;
  guint n;
  int want = self->want;

  g_clear_pointer (&self->names, g_strfreev);
  self->names = clip != NULL ? sq_sims_pose_names (clip) : NULL;
  self->frames = sq_sims_poses_are_frames (clip);
  update_page (self, self->names != NULL);
  update_name_field (self);
  self->updating = TRUE;
  n = self->names != NULL ? g_strv_length (self->names) : 0;
  /* the rows again only when the poses or their kind changed (every edit
   * of the clip comes here; a library may hold tens of thousands) */
  if (!same_names (self->poses, (const char * const *) self->names) || frames_before != self->frames)
    {
      g_autoptr(GtkStringList) fresh = gtk_string_list_new ((const char * const *) self->names);

      g_set_object (&self->poses, fresh);
      gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->poses));
    }
  if (n > 0)
    {
      want = CLAMP (want, 0, (int) n - 1);
      gtk_single_selection_set_selected (self->selection, (guint) want);
    }
  self->updating = FALSE;
  update_buttons (self);
  /* after the list's own edits and a new library: the playhead to the pose */
  if (n > 0 && self->follow)
    g_signal_emit (self, signals[SIGNAL_POSE_SELECTED], 0, (guint) want, sq_sims_pose_time (clip, want));
  self->follow = FALSE;
}

static void
selected_cb (GtkSingleSelection *selection,
             GParamSpec         *pspec,
             SequinPoseList     *self)
{
  const SqClip *clip = current_clip (self);
  int index;

  if (self->updating)
    return;
  update_buttons (self);
  index = sequin_pose_list_get_selected (self);
  if (index < 0 || clip == NULL)
    return;
  self->want = index;
  g_signal_emit (self, signals[SIGNAL_POSE_SELECTED], 0, (guint) index, sq_sims_pose_time (clip, index));
}

/* ---- Edits ------------------------------------------------------------------- */

static void
show_error (SequinPoseList *self,
            const char     *message)
{
  sequin_refusal_show (self->error_label, &self->error, message);
}

/* Applies `edit`; `want` is the row to select once it is done */
static void
apply (SequinPoseList *self,
       SqEdit         *edit,
       int             want)
{
  int before = self->want;

  self->want = want;
  self->follow = TRUE;
  if (sequin_apply_or_explain (self->document, edit, self->error_label, &self->error))
    return;
  self->follow = FALSE;
  self->want = before;
  update_buttons (self);
}

/* a KFD copy's frame: halfway to the next pose (to the one before for
 * the last); the core refuses, saying why, when no frame is free there */
static char *
copy_frame (SequinPoseList *self,
            int             selected)
{
  guint n = g_strv_length (self->names);
  gint64 at = g_ascii_strtoll (self->names[selected], NULL, 10);
  gint64 other = (guint) selected + 1 < n ? g_ascii_strtoll (self->names[selected + 1], NULL, 10)
                 : selected > 0 ? g_ascii_strtoll (self->names[selected - 1], NULL, 10) : at;
  gint64 mid = at + (other - at) / 2;

  return g_strdup_printf ("%" G_GINT64_FORMAT, mid != at ? mid : at + 1);
}

/* a name no pose has: “NAME copy”, “NAME copy 2”, … */
static char *
copy_name (SequinPoseList *self,
           const char     *name)
{
  /* TRANSLATORS: the name of a copy of the pose named %s */
  char *candidate = g_strdup_printf (_("%s copy"), name);

  for (guint i = 2; g_strv_contains ((const char * const *) self->names, candidate); i++)
    {
      g_free (candidate);
      /* TRANSLATORS: the name of the i-th copy of the pose named %s */
      candidate = g_strdup_printf (_("%s copy %u"), name, i);
    }
  return candidate;
}

/* A pose edit of the clip's world, from the edit table (sq-world.h);
 * `place` counts from 1 */
static SqEdit *
pose_edit (const char   *id,
           const SqClip *clip,
           const char   *name,
           const char   *other,
           int           place)
{
  SqEditArgs args = { .text = name, .text2 = other, .n = place };

  return sq_world_edit_new (id, clip, &args);
}

static void
button_clicked_cb (GtkButton      *button,
                   SequinPoseList *self)
{
  int which = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "sequin-button"));
  int selected = sequin_pose_list_get_selected (self);
  const SqClip *clip = current_clip (self);
  const char *name;

  if (selected < 0 || clip == NULL)
    return;
  name = self->names[selected];
  switch (which)
    {
    case BUTTON_DUPLICATE:
      {
        g_autofree char *copy = self->frames ? copy_frame (self, selected) : copy_name (self, name);
        /* a KFD's copy before the last pose goes before it */
        int at = self->frames && (guint) selected + 1 == g_strv_length (self->names) ? selected : selected + 1;

        apply (self, pose_edit ("duplicate-pose", clip, name, copy, 0), at);
      }
      break;
    case BUTTON_DELETE:
      apply (self, pose_edit ("delete-pose", clip, name, NULL, 0), selected);
      break;
    case BUTTON_UP:
      apply (self, pose_edit ("move-pose", clip, name, NULL, selected), selected - 1);
      break;
    case BUTTON_DOWN:
      apply (self, pose_edit ("move-pose", clip, name, NULL, selected + 2), selected + 1);
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
name_activate_cb (GtkEntry       *entry,
                  SequinPoseList *self)
{
  int selected = sequin_pose_list_get_selected (self);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  if (selected < 0 || current_clip (self) == NULL || g_strcmp0 (text, self->names[selected]) == 0)
    return;
  apply (self, pose_edit ("rename-pose", current_clip (self), self->names[selected], text, 0), selected);
}

static void
document_changed_cb (SequinPoseList *self)
{
  /* a refusal is about the library as it was */
  show_error (self, NULL);
  refresh (self);
}

/* ---- Construction ------------------------------------------------------------ */

static GtkWidget *
button_new (SequinPoseList *self,
            int             which,
            const char     *icon,
            const char     *name,
            const char     *tooltip)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  g_object_set_data (G_OBJECT (button), "sequin-button", GINT_TO_POINTER (which));
  sequin_set_tooltip (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, tooltip, -1);
  g_signal_connect (button, "clicked", G_CALLBACK (button_clicked_cb), self);
  self->buttons[which] = button;
  return button;
}

static void
sequin_pose_list_init (SequinPoseList *self)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkListItemFactory *factory;
  GtkWidget *label;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_widget_set_margin_top (self->box, 12);
  gtk_widget_set_margin_bottom (self->box, 12);
  gtk_widget_set_margin_start (self->box, 12);
  gtk_widget_set_margin_end (self->box, 12);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->error_label = sequin_refusal_label_new ();
  gtk_box_append (GTK_BOX (self->box), self->error_label);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (row_setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (row_bind_cb), self);
  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_can_unselect (self->selection, FALSE);
  g_signal_connect (self->selection, "notify::selected", G_CALLBACK (selected_cb), self);
  self->list = gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection)), factory);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Poses"), -1);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_has_frame (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->list);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (self->box), scroller);

  label = self->name_label = gtk_label_new_with_mnemonic (_("Pose _name"));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (self->box), label);
  /* named by its mnemonic label alone, described by its tooltip (update_name_field) */
  self->name_entry = gtk_entry_new ();
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), self->name_entry);
  g_signal_connect (self->name_entry, "activate", G_CALLBACK (name_activate_cb), self);
  gtk_box_append (GTK_BOX (self->box), self->name_entry);

  gtk_box_append (GTK_BOX (buttons), button_new (self, BUTTON_DUPLICATE, "edit-copy-symbolic", _("Duplicate Pose"),
                                                 _("Add a copy of the selected pose after it")));
  gtk_box_append (GTK_BOX (buttons), button_new (self, BUTTON_DELETE, "user-trash-symbolic", _("Delete Pose"),
                                                 _("Delete the selected pose (a library keeps at least one)")));
  gtk_box_append (GTK_BOX (buttons), button_new (self, BUTTON_UP, "go-up-symbolic", _("Move Pose Up"),
                                                 _("Move the selected pose one place up")));
  gtk_box_append (GTK_BOX (buttons), button_new (self, BUTTON_DOWN, "go-down-symbolic", _("Move Pose Down"),
                                                 _("Move the selected pose one place down")));
  gtk_box_append (GTK_BOX (self->box), buttons);
  update_name_field (self);
  update_buttons (self);
}

static void
sequin_pose_list_dispose (GObject *object)
{
  SequinPoseList *self = SEQUIN_POSE_LIST (object);

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  g_clear_object (&self->selection);
  g_clear_object (&self->poses);

  G_OBJECT_CLASS (sequin_pose_list_parent_class)->dispose (object);
}

static void
sequin_pose_list_finalize (GObject *object)
{
  SequinPoseList *self = SEQUIN_POSE_LIST (object);

  g_strfreev (self->names);
  g_free (self->error);

  G_OBJECT_CLASS (sequin_pose_list_parent_class)->finalize (object);
}

static void
sequin_pose_list_root (GtkWidget *widget)
{
  SequinPoseList *self = SEQUIN_POSE_LIST (widget);

  GTK_WIDGET_CLASS (sequin_pose_list_parent_class)->root (widget);
  /* now in its stack: the page follows the document */
  update_page (self, self->names != NULL);
}

static void
sequin_pose_list_class_init (SequinPoseListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sequin_pose_list_dispose;
  object_class->finalize = sequin_pose_list_finalize;
  widget_class->root = sequin_pose_list_root;

  /**
   * SequinPoseList::pose-selected:
   * @index: the pose
   * @time: its time in seconds
   */
  signals[SIGNAL_POSE_SELECTED] =
    g_signal_new ("pose-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_DOUBLE);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_widget_class_set_css_name (widget_class, "poselist");
}

GtkWidget *
sequin_pose_list_new (void)
{
  return g_object_new (SEQUIN_TYPE_POSE_LIST, NULL);
}

void
sequin_pose_list_set_document (SequinPoseList *self,
                               SequinDocument *document)
{
  g_return_if_fail (SEQUIN_IS_POSE_LIST (self));
  g_return_if_fail (document == NULL || SEQUIN_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  self->want = 0;
  self->follow = TRUE;
  show_error (self, NULL);
  if (document != NULL)
    {
      g_signal_connect_swapped (document, "changed", G_CALLBACK (document_changed_cb), self);
      g_signal_connect_swapped (document, "notify::file", G_CALLBACK (refresh), self);
    }
  refresh (self);
}

int
sequin_pose_list_get_selected (SequinPoseList *self)
{
  guint selected;

  g_return_val_if_fail (SEQUIN_IS_POSE_LIST (self), -1);
  selected = gtk_single_selection_get_selected (self->selection);
  return selected != GTK_INVALID_LIST_POSITION ? (int) selected : -1;
}

const char *
sequin_pose_list_get_error (SequinPoseList *self)
{
  g_return_val_if_fail (SEQUIN_IS_POSE_LIST (self), NULL);
  return self->error;
}
