/* sequin-pose-library.c: the pose library dialog
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A list of poses: the user's (files in the user data folder, which the
 * dialog saves, renames and deletes), the installed presets and the poses
 * of pose lists (.psl) opened here (both read only). Apply keys a pose at
 * the playhead on the selected joints (all of the pose's when none is
 * selected), flipped or not; Save keeps the pose at the playhead (all
 * joints, or the selected ones) under the name typed. The dialog does the
 * files; the core parses and writes their text (sq-pose-library.h).
 */
#define G_LOG_DOMAIN "sequin-pose-library"

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "sequin-pose-library.h"
#include "sequin-posing.h"
#include "sequin-utils.h"
#include "sequin-window-private.h"

typedef struct
{
  SequinWindow *window;
  GtkWidget    *dialog;
  GtkWidget    *list;
  GtkWidget    *name;
  GtkWidget    *selected_only;
  GtkWidget    *status;
  char         *refused;
} Library;

/* a row's pose and its file (NULL: read only) */
#define ROW_POSE "sequin-pose"
#define ROW_PATH "sequin-pose-path"

static void
library_free (Library *lib)
{
  g_free (lib->refused);
  g_object_unref (lib->window);
  g_free (lib);
}

static void
say (Library    *lib,
     const char *message)
{
  sequin_refusal_show (lib->status, &lib->refused, message);
}

static void
add_row (Library     *lib,
         SqJointPose *pose,
         const char  *path,
         const char  *source)
{
  g_autofree char *text = source != NULL ? g_strdup_printf ("%s — %s", pose->name, source) : g_strdup (pose->name);
  GtkWidget *label = gtk_label_new (text);
  GtkWidget *row = gtk_list_box_row_new ();

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_margin_start (label, 6);
  gtk_widget_set_margin_top (label, 3);
  gtk_widget_set_margin_bottom (label, 3);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
  g_object_set_data_full (G_OBJECT (row), ROW_POSE, pose, (GDestroyNotify) sq_joint_pose_free);
  g_object_set_data_full (G_OBJECT (row), ROW_PATH, g_strdup (path), g_free);
  gtk_list_box_append (GTK_LIST_BOX (lib->list), row);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* every .pose file of `dir` as a row, sorted by file name */
static void
add_folder (Library    *lib,
            const char *dir,
            gboolean    writable,
            const char *source)
{
  g_autoptr(GDir) d = dir != NULL ? g_dir_open (dir, 0, NULL) : NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".pose"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, names->pdata[i], NULL);
      g_autofree char *text = NULL;
      gsize len;
      SqJointPose *pose;

      if (!g_file_get_contents (path, &text, &len, NULL))
        continue;
      pose = sq_joint_pose_parse (text, len, NULL);
      if (pose != NULL)
        add_row (lib, pose, writable ? path : NULL, source);
    }
}

static void
reload (Library *lib)
{
  g_autofree char *mine = sequin_posing_library_dir ();
  g_autofree char *presets = sequin_posing_presets_dir ();
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (lib->list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (lib->list), child);
  add_folder (lib, mine, TRUE, NULL);
  add_folder (lib, presets, FALSE, _("preset"));
}

static GtkListBoxRow *
chosen (Library *lib)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (GTK_LIST_BOX (lib->list));

  if (row == NULL)
    say (lib, _("Choose a pose in the list first"));
  return row;
}

/* ---- apply ---- */

/* the pose, only the selected joints' part when some are selected and the
 * pose has them */
static SqJointPose *
pose_for_selection (Library           *lib,
                    const SqJointPose *pose)
{
  g_auto(GStrv) names = sequin_joint_tree_dup_selected_joints (lib->window->joint_tree);
  SqJointPose *part = sq_joint_pose_new (pose->name, pose->world);

  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    {
      const SqPoseEntry *e = sq_joint_pose_lookup (pose, names[i]);

      if (e != NULL)
        {
          SqPoseEntry *to = sq_joint_pose_entry (part, e->joint);
          *to = (SqPoseEntry) { to->joint, e->has, { e->rotation[0], e->rotation[1], e->rotation[2], e->rotation[3] },
                                { e->position[0], e->position[1], e->position[2] } };
        }
    }
  if (part->entries->len > 0)
    return part;
  sq_joint_pose_free (part);
  return sq_joint_pose_copy (pose);
}

static void
apply (Library *lib,
       gboolean flip)
{
  GtkListBoxRow *row = chosen (lib);
  g_autoptr(SqJointPose) pose = NULL;
  SqEdit *edit;

  if (row == NULL || lib->window->document == NULL)
    return;
  pose = pose_for_selection (lib, g_object_get_data (G_OBJECT (row), ROW_POSE));
  edit = sq_edit_paste_pose_new (pose, sequin_playback_get_position (lib->window->playback), flip);
  sequin_apply_or_explain (lib->window->document, edit, lib->status, &lib->refused);
}

static void
apply_cb (Library *lib)
{
  apply (lib, FALSE);
}

static void
apply_flipped_cb (Library *lib)
{
  apply (lib, TRUE);
}

/* ---- files ---- */

/* a file name for a pose name in the library folder: its letters and
 * digits, others as "-", and a number when taken */
static char *
file_for_name (const char *name)
{
  g_autofree char *dir = sequin_posing_library_dir ();
  g_autoptr(GString) base = g_string_new (NULL);

  for (const char *p = name; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isalnum (c))
        g_string_append_unichar (base, c);
      else if (base->len > 0 && base->str[base->len - 1] != '-')
        g_string_append_c (base, '-');
    }
  if (base->len == 0)
    g_string_append (base, "pose");
  for (guint n = 1;; n++)
    {
      g_autofree char *file = n == 1 ? g_strdup_printf ("%s.pose", base->str)
                                     : g_strdup_printf ("%s-%u.pose", base->str, n);
      char *path = g_build_filename (dir, file, NULL);

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        return path;
      g_free (path);
    }
}

static gboolean
write_pose (Library           *lib,
            const SqJointPose *pose,
            const char        *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *text = sq_joint_pose_to_text (pose);
  g_autoptr(GError) error = NULL;

  /* g_file_set_contents writes a temporary file and renames it */
  if (g_mkdir_with_parents (dir, 0755) != 0 || !g_file_set_contents (path, text, -1, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Could not save the pose in %s: %s"), dir,
                                                  error != NULL ? error->message : g_strerror (errno));
      say (lib, message);
      return FALSE;
    }
  return TRUE;
}

static const char *
typed_name (Library *lib)
{
  const char *name = gtk_editable_get_text (GTK_EDITABLE (lib->name));

  if (name[0] == '\0')
    say (lib, _("Type the pose's name first"));
  return name[0] != '\0' ? name : NULL;
}

static void
save_cb (Library *lib)
{
  const SqClip *clip = lib->window->document != NULL ? sequin_document_get_clip (lib->window->document) : NULL;
  const char *name = typed_name (lib);
  g_autoptr(GArray) joints = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr(SqJointPose) pose = NULL;
  g_autofree char *path = NULL;

  if (clip == NULL || name == NULL)
    return;
  if (gtk_check_button_get_active (GTK_CHECK_BUTTON (lib->selected_only)))
    {
      g_auto(GStrv) names = sequin_joint_tree_dup_selected_joints (lib->window->joint_tree);

      for (guint i = 0; names != NULL && names[i] != NULL; i++)
        {
          gssize j = sq_clip_find_joint (clip, names[i]);
          gsize u = (gsize) j;

          if (j >= 0)
            g_array_append_val (joints, u);
        }
      if (joints->len == 0)
        {
          say (lib, _("Select the joints to save first"));
          return;
        }
    }
  pose = sq_joint_pose_capture (clip, joints->len > 0 ? (const gsize *) (gpointer) joints->data : NULL, joints->len,
                                sequin_playback_get_position (lib->window->playback), name);
  path = file_for_name (name);
  if (write_pose (lib, pose, path))
    {
      say (lib, NULL);
      reload (lib);
    }
}

static void
rename_cb (Library *lib)
{
  GtkListBoxRow *row = chosen (lib);
  const char *name = row != NULL ? typed_name (lib) : NULL;
  const char *old_path = row != NULL ? g_object_get_data (G_OBJECT (row), ROW_PATH) : NULL;
  g_autoptr(SqJointPose) pose = NULL;
  g_autofree char *path = NULL;

  if (name == NULL)
    return;
  if (old_path == NULL)
    {
      say (lib, _("Presets and pose lists are read only: save the pose under a name of your own"));
      return;
    }
  pose = sq_joint_pose_copy (g_object_get_data (G_OBJECT (row), ROW_POSE));
  g_free (pose->name);
  pose->name = g_strdup (name);
  path = file_for_name (name);
  /* the new file first: the old one goes only once it is written */
  if (write_pose (lib, pose, path))
    {
      g_unlink (old_path);
      say (lib, NULL);
      reload (lib);
    }
}

static void
delete_cb (Library *lib)
{
  GtkListBoxRow *row = chosen (lib);
  const char *path = row != NULL ? g_object_get_data (G_OBJECT (row), ROW_PATH) : NULL;

  if (row == NULL)
    return;
  if (path == NULL)
    {
      say (lib, _("Presets and pose lists are read only"));
      return;
    }
  if (g_unlink (path) != 0)
    say (lib, g_strerror (errno));
  else
    reload (lib);
}

/* ---- a pose list (.psl) ---- */

static void
psl_response_cb (GtkNativeDialog *chooser,
                 int              response,
                 Library         *lib)
{
  g_autoptr(GFile) file = response == GTK_RESPONSE_ACCEPT ? gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser)) : NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GPtrArray) poses = NULL;
  g_autofree char *base = NULL;

  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
  if (file == NULL)
    return;
  base = g_file_get_basename (file);
  if ((bytes = g_file_load_bytes (file, NULL, NULL, &error)) == NULL
      || (clip = sq_load_bytes (bytes, base, sq_format_with_flags (SQ_FORMAT_POSE_LIST), NULL, &error)) == NULL)
    {
      say (lib, error->message);
      return;
    }
  poses = sq_joint_pose_library_from_clip (clip);
  for (guint i = 0; i < poses->len; i++)
    add_row (lib, g_steal_pointer (&poses->pdata[i]), NULL, base);
  g_ptr_array_set_free_func (poses, NULL);
  say (lib, NULL);
}

static void
open_psl (Library *lib)
{
  GtkFileChooserNative *chooser = gtk_file_chooser_native_new (_("Open Pose List"), GTK_WINDOW (lib->dialog),
                                                               GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("SimPose-ium pose lists (.psl)"));
  gtk_file_filter_add_suffix (filter, "psl");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_object_unref (filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (psl_response_cb), lib);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* ---- the dialog ---- */

static GtkWidget *
button (Library    *lib,
        GtkWidget  *box,
        const char *label,
        GCallback   cb)
{
  GtkWidget *b = gtk_button_new_with_mnemonic (label);

  g_signal_connect_swapped (b, "clicked", cb, lib);
  gtk_flow_box_append (GTK_FLOW_BOX (box), b);
  return b;
}

static GtkWidget *
library_buttons (Library *lib)
{
  GtkWidget *flow = gtk_flow_box_new ();

  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (flow), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (flow), 3);
  button (lib, flow, _("_Apply"), G_CALLBACK (apply_cb));
  button (lib, flow, _("Apply _Flipped"), G_CALLBACK (apply_flipped_cb));
  button (lib, flow, _("_Save Current Pose"), G_CALLBACK (save_cb));
  button (lib, flow, _("Re_name"), G_CALLBACK (rename_cb));
  button (lib, flow, _("_Delete"), G_CALLBACK (delete_cb));
  button (lib, flow, _("_Open Pose List…"), G_CALLBACK (open_psl));
  return flow;
}

void
sequin_pose_library_show (SequinWindow *window)
{
  Library *lib = g_new0 (Library, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *name_label = gtk_label_new_with_mnemonic (_("Pose _name"));
  GtkWidget *name_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  lib->window = g_object_ref (window);
  lib->dialog = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (lib->dialog), _("Pose Library"));
  gtk_window_set_transient_for (GTK_WINDOW (lib->dialog), GTK_WINDOW (window));
  gtk_window_set_default_size (GTK_WINDOW (lib->dialog), 420, 480);
  g_object_set_data_full (G_OBJECT (lib->dialog), "pose-library", lib, (GDestroyNotify) library_free);
  lib->list = gtk_list_box_new ();
  gtk_accessible_update_property (GTK_ACCESSIBLE (lib->list), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Poses"), -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), lib->list);
  gtk_widget_set_vexpand (scrolled, TRUE);
  lib->name = gtk_entry_new ();
  gtk_widget_set_hexpand (lib->name, TRUE);
  gtk_label_set_mnemonic_widget (GTK_LABEL (name_label), lib->name);
  gtk_box_append (GTK_BOX (name_box), name_label);
  gtk_box_append (GTK_BOX (name_box), lib->name);
  lib->selected_only = gtk_check_button_new_with_mnemonic (_("Save the selected _joints only"));
  lib->status = sequin_refusal_label_new ();
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_box_append (GTK_BOX (box), scrolled);
  gtk_box_append (GTK_BOX (box), name_box);
  gtk_box_append (GTK_BOX (box), lib->selected_only);
  gtk_box_append (GTK_BOX (box), lib->status);
  gtk_box_append (GTK_BOX (box), library_buttons (lib));
  gtk_window_set_child (GTK_WINDOW (lib->dialog), box);
  reload (lib);
  sequin_accessible_single_names (lib->dialog);
  gtk_window_present (GTK_WINDOW (lib->dialog));
}
