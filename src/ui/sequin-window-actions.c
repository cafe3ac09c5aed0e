/* sequin-window-actions.c: the window's actions, and what is enabled when
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every win.* action is installed on the class here; their keyboard
 * shortcuts are set in sequin-application.c so that menus show them.
 * _sequin_window_actions_update() is the one place that decides which
 * actions are enabled.
 */
#define G_LOG_DOMAIN "sequin-window-actions"

#include "config.h"

#include <glib/gi18n.h>

#include "sequin-motion-dialog.h"
#include "sequin-posing.h"
#include "sequin-take-dialog.h"
#include "sequin-utils.h"
#include "sequin-window-private.h"

/* the question or error shown now over the window (one at a time) */
void
_sequin_window_show_message (SequinWindow *self,
                             GtkWidget    *dialog)
{
  g_assert (SEQUIN_IS_WINDOW (self));

  if (self->message_dialog != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->message_dialog), (gpointer *) &self->message_dialog);
  self->message_dialog = dialog;
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &self->message_dialog);
  sequin_accessible_single_names (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}

void
_sequin_window_actions_update (SequinWindow *self)
{
  SequinDocument *doc = self->document;
  const SqClip *clip = doc != NULL ? sequin_document_get_clip (doc) : NULL;
  gboolean has_clip = clip != NULL;
  gboolean busy = doc != NULL && sequin_document_get_busy (doc);
  gboolean can_undo = has_clip && sequin_document_can_undo (doc);
  gboolean can_redo = has_clip && sequin_document_can_redo (doc);
  gssize current = has_clip ? sequin_joint_tree_get_current_joint (self->joint_tree) : -1;
  g_auto(GStrv) selected = has_clip ? sequin_joint_tree_dup_selected_joints (self->joint_tree) : NULL;
  gboolean any_selected = selected != NULL && selected[0] != NULL;
  gssize key_joint, key_index;
  SqChannel key_channel;
  double key_time;
  gboolean key_selected = has_clip && sequin_joint_tree_get_selected_key (self->joint_tree, &key_joint, &key_channel,
                                                                         &key_index, &key_time);
  g_autofree char *undo_tip = NULL;
  g_autofree char *redo_tip = NULL;
  gsize n_takes = 0;

  if (has_clip)
    sq_clip_get_takes (clip, &n_takes, NULL);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save", has_clip && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-as", has_clip && !busy);
  /* a menu button does not follow the actions of its menu */
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_as_button), has_clip && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.undo", can_undo);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.redo", can_redo);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.invert-xz-all", has_clip && clip->n_joints > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.invert-xz-selected", any_selected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.rename-joint", current >= 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.delete-joint", current >= 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.delete-keys", key_selected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.delete", current >= 0 || key_selected
                                 || _sequin_window_keys_selected (self) > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.rename-root", has_clip);
  /* the timeline's keys, or else the pose (sequin-window-keys.c) */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy", has_clip && clip->n_joints > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.paste", has_clip && clip->n_joints > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.paste-flipped", has_clip && clip->n_joints > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.select-all-keys", has_clip);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.rescale", has_clip);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.set-first-frame", has_clip);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.motion", has_clip);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.choose-take", has_clip && !busy && n_takes > 1
                                 && sequin_document_get_file (doc) != NULL);

  /* TRANSLATORS: %s names an edit, like “Rename Joint” */
  undo_tip = can_undo ? g_strdup_printf (_("Undo %s"), sequin_document_get_undo_label (doc)) : g_strdup (_("Undo"));
  redo_tip = can_redo ? g_strdup_printf (_("Redo %s"), sequin_document_get_redo_label (doc)) : g_strdup (_("Redo"));
  sequin_set_tooltip (GTK_WIDGET (self->undo_button), undo_tip);
  sequin_set_tooltip (GTK_WIDGET (self->redo_button), redo_tip);
  sequin_posing_update (self);
}

/* ---- File ------------------------------------------------------------------ */

static GFile *
last_folder (SequinWindow *self)
{
  g_autofree char *path = NULL;
  GFile *file = self->document != NULL ? sequin_document_get_file (self->document) : NULL;

  if (file != NULL)
    return g_file_get_parent (file);
  if (self->settings == NULL)
    return NULL;
  path = g_settings_get_string (self->settings, "last-folder");
  if (path[0] == '\0' || !g_file_test (path, G_FILE_TEST_IS_DIR))
    return NULL;
  return g_file_new_for_path (path);
}

static void
remember_folder (SequinWindow *self,
                 GFile        *file)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *path = parent != NULL ? g_file_get_path (parent) : NULL;

  if (self->settings != NULL && path != NULL)
    g_settings_set_string (self->settings, "last-folder", path);
}

static void
drop_chooser (SequinWindow *self)
{
  if (self->file_chooser != NULL)
    {
      gtk_native_dialog_destroy (self->file_chooser);
      g_clear_object (&self->file_chooser);
    }
}

static void
open_response_cb (GtkNativeDialog *chooser,
                  int              response,
                  SequinWindow    *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));

      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        {
          g_autoptr(GFile) file = g_list_model_get_item (files, i);

          if (i == 0)
            remember_folder (self, file);
          sequin_window_open_file (self, file, FALSE);
        }
    }
  drop_chooser (self);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);
  g_autoptr(GFile) folder = last_folder (self);
  GtkFileChooserNative *chooser;

  drop_chooser (self);
  chooser = gtk_file_chooser_native_new (_("Open Animation"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
  sequin_add_format_filters (GTK_FILE_CHOOSER (chooser), FALSE, NULL);
  if (folder != NULL)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
  self->file_chooser = GTK_NATIVE_DIALOG (chooser);
  g_signal_connect (chooser, "response", G_CALLBACK (open_response_cb), self);
  gtk_native_dialog_show (self->file_chooser);
}

static void
open_sample_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);
  g_autoptr(GFile) sample = sequin_find_sample ();
  GtkWidget *dialog;

  if (sample != NULL)
    {
      /* a copy: saving asks where, instead of writing into the installation */
      sequin_window_open_file (self, sample, TRUE);
      return;
    }
  dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", _("The Sample Is Missing"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                            _("The sample animation wave.seq was not installed with Sequin."));
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  _sequin_window_show_message (self, dialog);
}

typedef struct
{
  SequinWindow   *self;
  const SqFormat *format;
} SaveAsData;

static void
save_as_response_cb (GtkNativeDialog *chooser,
                     int              response,
                     gpointer         user_data)
{
  SaveAsData *data = user_data;
  SequinWindow *self = data->self;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *name = g_file_get_basename (file);
      const SqFormat *named = sq_format_for_filename (name, data->format);

      remember_folder (self, file);
      /* a name typed with another format's extension saves in that format */
      sequin_window_save_to (self, file, named != NULL && sq_format_can_write (named) ? named : data->format);
    }
  else
    self->close_after_save = FALSE;
  drop_chooser (self);
}

static char *
suggested_name (SequinWindow   *self,
                const SqFormat *format)
{
  const char *title = sequin_document_get_title (self->document);
  const char *dot = strrchr (title, '.');
  g_autofree char *stem = dot != NULL && dot != title ? g_strndup (title, dot - title) : g_strdup (title);

  g_autofree char *name = g_strdup_printf ("%s.%s", stem, sequin_format_get_extension (format));
  const char *kind;

  /* walk.seq as BVH is walk.bvh; only a name that would replace the file
   * itself in another format (binary SEQ as text SEQ, both .seq) gets the
   * kind of format added: walk-text.seq */
  if (format == sequin_document_get_format (self->document) || g_strcmp0 (name, title) != 0)
    return g_steal_pointer (&name);
  kind = strrchr (format->id, '-');
  return g_strdup_printf ("%s-%s.%s", stem, kind != NULL ? kind + 1 : format->id,
                          sequin_format_get_extension (format));
}

void
_sequin_window_save (SequinWindow   *self,
                     gboolean        ask_for_file,
                     const SqFormat *format)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GFile) folder = NULL;
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  SaveAsData *data;
  GFile *file;

  g_assert (SEQUIN_IS_WINDOW (self));

  if (self->document == NULL)
    return;
  if (format == NULL)
    format = sequin_document_get_format (self->document);
  if (format == NULL || !sq_format_can_write (format))
    format = sq_format_default ();

  file = sequin_document_get_file (self->document);
  if (!ask_for_file && file != NULL)
    {
      sequin_window_save_to (self, file, format);
      return;
    }

  drop_chooser (self);
  /* TRANSLATORS: the title of the save dialog; %s is a format */
  title = g_strdup_printf (_("Save As %s"), sq_format_get_name (format));
  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  sequin_add_format_filters (GTK_FILE_CHOOSER (chooser), TRUE, format);
  folder = last_folder (self);
  if (folder != NULL)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
  name = suggested_name (self, format);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);

  data = g_new0 (SaveAsData, 1);
  data->self = self;
  data->format = format;
  g_signal_connect_data (chooser, "response", G_CALLBACK (save_as_response_cb), data,
                         (GClosureNotify) (void (*) (void)) g_free, 0);
  self->file_chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_show (self->file_chooser);
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  _sequin_window_save (SEQUIN_WINDOW (widget), FALSE, NULL);
}

static void
save_as_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  const char *id = g_variant_get_string (param, NULL);

  _sequin_window_save (SEQUIN_WINDOW (widget), TRUE, id[0] != '\0' ? sq_format_by_id (id) : NULL);
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  gtk_window_close (GTK_WINDOW (widget));
}

/* ---- Edit ------------------------------------------------------------------ */

gboolean
_sequin_window_apply_edit (SequinWindow *self,
                           SqEdit       *edit)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *primary = NULL;
  g_autofree char *label = g_strdup (sq_edit_get_label (edit));
  GtkWidget *dialog;

  if (sequin_document_apply (self->document, edit, &error))
    return TRUE;

  /* TRANSLATORS: %s names an edit, like “Delete Joint” */
  primary = g_strdup_printf (_("Could Not %s"), label);
  dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", primary);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", error->message);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  _sequin_window_show_message (self, dialog);
  return FALSE;
}

static void
apply_edit (SequinWindow *self,
            SqEdit       *edit)
{
  _sequin_window_apply_edit (self, edit);
}

static void
show_edit_dialog (SequinWindow   *self,
                  SequinEditKind  kind,
                  gssize          joint)
{
  if (self->document == NULL || sequin_document_get_clip (self->document) == NULL)
    return;
  if (self->edit_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->edit_dialog));

  self->edit_dialog = sequin_edit_dialog_new (GTK_WINDOW (self), self->document, kind, joint);
  g_object_add_weak_pointer (G_OBJECT (self->edit_dialog), (gpointer *) &self->edit_dialog);
  gtk_window_present (GTK_WINDOW (self->edit_dialog));
}

static void
undo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);

  if (self->document != NULL)
    sequin_document_undo (self->document);
}

static void
redo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);

  if (self->document != NULL)
    sequin_document_redo (self->document);
}

static void
invert_xz_all_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);

  if (self->document != NULL)
    apply_edit (self, sq_edit_invert_xz_new (NULL));
}

static void
invert_xz_selected_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);
  g_auto(GStrv) names = sequin_joint_tree_dup_selected_joints (self->joint_tree);

  /* an empty list would mean every joint: not what "selected" says */
  if (self->document != NULL && names != NULL && names[0] != NULL)
    apply_edit (self, sq_edit_invert_xz_new ((const char * const *) names));
}

static void
rename_joint_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);
  gssize joint = sequin_joint_tree_get_current_joint (self->joint_tree);

  if (joint >= 0)
    show_edit_dialog (self, SEQUIN_EDIT_RENAME_JOINT, joint);
}

static void
delete_joint_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);
  gssize joint = sequin_joint_tree_get_current_joint (self->joint_tree);
  const SqClip *clip;

  if (joint < 0 || self->document == NULL)
    return;
  clip = sequin_document_get_clip (self->document);
  /* no question asked: Undo brings the joint back */
  apply_edit (self, sq_edit_delete_joint_new (clip->joints[joint].name));
}

/* Deletes the keys of every channel at the selected key row's time (Undo
 * brings them back); FALSE when no key row is selected */
static gboolean
delete_selected_keys (SequinWindow *self)
{
  gssize joint, key;
  SqChannel channel;
  double time;

  if (_sequin_window_keys_delete (self))
    return TRUE;
  if (self->document == NULL
      || !sequin_joint_tree_get_selected_key (self->joint_tree, &joint, &channel, &key, &time))
    return FALSE;
  apply_edit (self, sq_edit_delete_keys_new (sequin_document_get_clip (self->document)->joints[joint].name, time));
  return TRUE;
}

static void
delete_keys_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  delete_selected_keys (SEQUIN_WINDOW (widget));
}

/* The Delete key: the selected key row's keys, or else the selected joint */
static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  if (!delete_selected_keys (SEQUIN_WINDOW (widget)))
    delete_joint_action (widget, action_name, param);
}

static void
rename_root_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  show_edit_dialog (SEQUIN_WINDOW (widget), SEQUIN_EDIT_RENAME_ROOT, -1);
}

static void
rescale_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  show_edit_dialog (SEQUIN_WINDOW (widget), SEQUIN_EDIT_RESCALE, -1);
}

static void
set_first_frame_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  show_edit_dialog (SEQUIN_WINDOW (widget), SEQUIN_EDIT_SET_FIRST_FRAME, -1);
}

/* ---- Animation sets ------------------------------------------------------- */

/* A file of several animations (sq_clip_get_takes) shows one; choosing
 * another reads the file again with that one, into a new document the
 * window then shows (its views start afresh, as after opening) */

static void
take_loaded_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(SequinWindow) self = user_data;
  g_autoptr(SequinDocument) document = SEQUIN_DOCUMENT (object);
  g_autoptr(GError) error = NULL;
  GtkWidget *dialog;

  if (sequin_document_load_finish (document, result, &error))
    {
      sequin_window_set_document (self, document);
      return;
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", _("Could Not Show the Animation Set"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", error->message);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  _sequin_window_show_message (self, dialog);
}

static void
load_take (SequinWindow *self,
           guint         take)
{
  GFile *file = self->document != NULL ? sequin_document_get_file (self->document) : NULL;

  if (file == NULL)
    return;
  sequin_document_load_take_async (sequin_document_new (), file, SEQUIN_LOAD_DEFAULT, take, self->cancellable,
                                   take_loaded_cb, g_object_ref (self));
}

static void
discard_response_cb (GtkDialog    *dialog,
                     int           response,
                     SequinWindow *self)
{
  guint take = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dialog), "take"));

  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_REJECT)
    load_take (self, take);
}

/* The chosen take: read at once, or after asking when there are unsaved
 * changes (they are lost: the file is read again) */
static void
take_chosen_cb (SequinTakeDialog *chooser,
                guint             take,
                SequinWindow     *self)
{
  const SqClip *clip = self->document != NULL ? sequin_document_get_clip (self->document) : NULL;
  const char * const *takes;
  g_autofree char *primary = NULL;
  GtkWidget *dialog, *button;
  guint current;
  gsize n;

  if (clip == NULL)
    return;
  takes = sq_clip_get_takes (clip, &n, &current);
  if (take >= n || (take == current && !sequin_document_get_modified (self->document)))
    return;
  if (!sequin_document_get_modified (self->document))
    {
      load_take (self, take);
      return;
    }
  /* TRANSLATORS: %s is the name of the file's animation set shown now */
  primary = g_strdup_printf (_("Discard the Changes to “%s”?"), takes[current][0] ? takes[current] : _("(no name)"));
  dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, "%s", primary);
  /* TRANSLATORS: %s is the name of the animation set to show */
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                            _("Showing “%s” reads it from the file: the changes not saved are lost."),
                                            takes[take][0] ? takes[take] : _("(no name)"));
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL);
  button = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Discard Changes"), GTK_RESPONSE_REJECT);
  gtk_widget_add_css_class (button, "destructive-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  g_object_set_data (G_OBJECT (dialog), "take", GUINT_TO_POINTER (take));
  g_signal_connect_object (dialog, "response", G_CALLBACK (discard_response_cb), self, 0);
  _sequin_window_show_message (self, dialog);
}

static void
choose_take_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);
  const SqClip *clip = self->document != NULL ? sequin_document_get_clip (self->document) : NULL;
  SequinTakeDialog *dialog;

  if (clip == NULL)
    return;
  dialog = sequin_take_dialog_new (GTK_WINDOW (self), clip, sequin_document_get_title (self->document));
  g_signal_connect_object (dialog, "take-chosen", G_CALLBACK (take_chosen_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Alt+1 / Alt+2 / Alt+3: the tree, the structure view or the preview */
static void
show_view_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);

  gtk_stack_set_visible_child_name (self->view_stack, g_variant_get_string (param, NULL));
}

/* Alt+E: the Edit menu, from anywhere in the window */
static void
edit_menu_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);

  if (gtk_widget_is_sensitive (GTK_WIDGET (self->edit_menu_button)))
    gtk_menu_button_popup (self->edit_menu_button);
}

void
_sequin_window_class_actions_init (SequinWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-sample", NULL, open_sample_action);
  gtk_widget_class_install_action (widget_class, "win.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.save-as", "s", save_as_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "win.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "win.redo", NULL, redo_action);
  gtk_widget_class_install_action (widget_class, "win.invert-xz-all", NULL, invert_xz_all_action);
  gtk_widget_class_install_action (widget_class, "win.invert-xz-selected", NULL, invert_xz_selected_action);
  gtk_widget_class_install_action (widget_class, "win.rename-joint", NULL, rename_joint_action);
  gtk_widget_class_install_action (widget_class, "win.delete-joint", NULL, delete_joint_action);
  gtk_widget_class_install_action (widget_class, "win.delete-keys", NULL, delete_keys_action);
  gtk_widget_class_install_action (widget_class, "win.delete", NULL, delete_action);
  gtk_widget_class_install_action (widget_class, "win.rename-root", NULL, rename_root_action);
  gtk_widget_class_install_action (widget_class, "win.rescale", NULL, rescale_action);
  gtk_widget_class_install_action (widget_class, "win.set-first-frame", NULL, set_first_frame_action);
  gtk_widget_class_install_action (widget_class, "win.show-view", "s", show_view_action);
  gtk_widget_class_install_action (widget_class, "win.choose-take", NULL, choose_take_action);
  gtk_widget_class_install_action (widget_class, "win.edit-menu", NULL, edit_menu_action);
  sequin_motion_install_actions (widget_class);
  sequin_posing_install_actions (widget_class);
  _sequin_window_keys_install_actions (widget_class);
  gtk_widget_class_install_property_action (widget_class, "win.show-sidebar", "sidebar-visible");
  gtk_widget_class_install_property_action (widget_class, "win.play", "playing");
  gtk_widget_class_install_property_action (widget_class, "win.joint-hierarchy", "joint-hierarchy");
}
