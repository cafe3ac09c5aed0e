/* sequin-window-keys.c: what the window does with the keys selected in the
 * timeline: move them (a drag), delete them (Delete), copy and paste them
 * (Ctrl+C, Ctrl+V, Ctrl+Shift+V flipped) and select all of the selected
 * joints' keys (Ctrl+A); while keys are dragged, the preview plays them
 * where they would go
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each is one core edit through the document (sq-posing.h), the same the
 * command line makes: sq_edit_move_keys_new, sq_edit_delete_key_list_new
 * and sq_edit_paste_keys_new, each key named by its joint, time and
 * channel. Copied keys are a pose sequence (sq-pose-library.h): each
 * selected key's value at its time after the first selected one, which
 * other programs get as the pose file's text.
 */
#define G_LOG_DOMAIN "sequin-window-keys"

#include "config.h"

#include <glib/gi18n.h>

#include "sequin-play-over.h"
#include "sequin-window-private.h"

/* the keys copied last, for every window (NULL: a pose was copied last) */
static SqPoseSequence *copied_keys;

static const SqClip *
clip_of (SequinWindow *self)
{
  return self->document != NULL ? sequin_document_get_clip (self->document) : NULL;
}

gsize
_sequin_window_keys_selected (SequinWindow *self)
{
  gsize n = 0;

  if (clip_of (self) != NULL)
    sequin_timeline_get_selected_keys (SEQUIN_TIMELINE (self->timeline), &n);
  return n;
}

/* the selected keys as the core names them: joint, time, channel */
static GArray *
selected_refs (SequinWindow *self)
{
  const SqClip *clip = clip_of (self);
  gsize n = 0;
  const SequinTimelineKey *keys = sequin_timeline_get_selected_keys (SEQUIN_TIMELINE (self->timeline), &n);
  GArray *refs = g_array_sized_new (FALSE, FALSE, sizeof (SqKeyRef), (guint) n);

  for (gsize i = 0; clip != NULL && i < n; i++)
    {
      SqKeyRef ref = { clip->joints[keys[i].joint].name, keys[i].time, SQ_KEY_REF_CHANNEL (keys[i].channel) };

      g_array_append_val (refs, ref);
    }
  return refs;
}

static gboolean
move_keys_cb (SequinTimeline *timeline,
              double          delta,
              SequinWindow   *self)
{
  g_autoptr(GArray) refs = NULL;

  if (clip_of (self) == NULL)
    return FALSE;
  refs = selected_refs (self);
  if (refs->len == 0)
    return FALSE;
  return _sequin_window_apply_edit (self, sq_edit_move_keys_new ((const SqKeyRef *) (gpointer) refs->data,
                                                                 refs->len, delta));
}

/* A drag of keys: the preview shows the motion with the keys moved (a
 * copy of the clip the move is made on, not kept), the clip itself when
 * the drag is back at 0, ends or is cancelled */
static void
moving_cb (SequinTimeline *timeline,
           double          delta,
           SequinWindow   *self)
{
  const SqClip *clip = clip_of (self);
  gssize selected = sequin_joint_tree_get_current_joint (self->joint_tree);
  double time = sequin_timeline_get_time (timeline);
  g_autoptr(SqClip) moved = NULL;
  g_autoptr(GArray) refs = NULL;
  g_autoptr(SqEdit) edit = NULL;

  /* not while other animations play over this one (the preview shows
   * their combination) nor when the preview is not shown */
  if (clip == NULL || clip->n_joints == 0 || !gtk_widget_get_mapped (GTK_WIDGET (self->preview))
      || sequin_play_over_get_n (self) > 0)
    return;
  if (delta != 0)
    {
      refs = selected_refs (self);
      moved = sq_clip_copy (clip);
      edit = sq_edit_move_keys_new ((const SqKeyRef *) (gpointer) refs->data, refs->len, delta);
      if (!sq_edit_apply (edit, moved, NULL))
        g_clear_pointer (&moved, sq_clip_free);
    }
  sequin_preview_set_clip (self->preview, moved != NULL ? moved : clip, time, selected);
}

gboolean
_sequin_window_keys_delete (SequinWindow *self)
{
  g_autoptr(GArray) refs = NULL;

  if (_sequin_window_keys_selected (self) == 0 || !gtk_widget_has_focus (self->timeline))
    return FALSE;
  refs = selected_refs (self);
  _sequin_window_apply_edit (self, sq_edit_delete_key_list_new ((const SqKeyRef *) (gpointer) refs->data, refs->len));
  return TRUE;
}

void
_sequin_window_keys_forget (void)
{
  g_clear_pointer (&copied_keys, sq_pose_sequence_free);
}

/* win.copy (Ctrl+C): the timeline's selected keys when it has the focus,
 * else the pose (win.copy-pose) */
static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);
  const SqClip *clip = clip_of (self);
  gsize n = 0;
  const SequinTimelineKey *keys = NULL;
  g_autofree char *text = NULL;
  double first = G_MAXDOUBLE;

  if (clip != NULL && gtk_widget_has_focus (self->timeline))
    keys = sequin_timeline_get_selected_keys (SEQUIN_TIMELINE (self->timeline), &n);
  if (n == 0)
    {
      gtk_widget_activate_action (widget, "win.copy-pose", NULL);
      return;
    }
  g_clear_pointer (&copied_keys, sq_pose_sequence_free);
  for (gsize i = 0; i < n; i++)
    first = MIN (first, keys[i].time);
  copied_keys = sq_pose_sequence_new (_("Copied keys"), clip->format != NULL ? clip->format->id : NULL);
  for (gsize i = 0; i < n; i++)
    sq_pose_sequence_add_key (copied_keys, keys[i].time - first, clip, keys[i].joint, keys[i].channel, keys[i].index);
  text = sq_pose_sequence_to_text (copied_keys);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
}

/* win.paste, win.paste-flipped (Ctrl+V, Ctrl+Shift+V): the keys copied
 * last at the playhead, or the pose when a pose was copied last */
static void
paste_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);
  gboolean flip = g_str_equal (action_name, "win.paste-flipped");

  if (clip_of (self) == NULL)
    return;
  if (copied_keys == NULL)
    gtk_widget_activate_action (widget, flip ? "win.paste-pose-flipped" : "win.paste-pose", NULL);
  else
    _sequin_window_apply_edit (self, sq_edit_paste_keys_new (copied_keys,
                                                             sequin_playback_get_position (self->playback), flip));
}

/* win.select-all-keys (Ctrl+A in the timeline): every key of the joints
 * selected in the tree, or of the timeline's selected ones without */
static void
select_all_keys_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  SequinWindow *self = SEQUIN_WINDOW (widget);
  const SqClip *clip = clip_of (self);
  g_auto(GStrv) names = clip != NULL ? sequin_joint_tree_dup_selected_joints (self->joint_tree) : NULL;
  g_autoptr(GArray) joints = g_array_new (FALSE, FALSE, sizeof (gsize));

  if (clip == NULL)
    return;
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    {
      gssize j = sq_clip_find_joint (clip, names[i]);
      gsize u = (gsize) j;

      if (j >= 0)
        g_array_append_val (joints, u);
    }
  if (joints->len == 0)
    gtk_widget_activate_action (self->timeline, "timeline.select-all", NULL);
  else
    sequin_timeline_select_all_keys (SEQUIN_TIMELINE (self->timeline), (const gsize *) (gpointer) joints->data,
                                     joints->len);
}

static void
selection_changed_cb (SequinWindow *self)
{
  _sequin_window_actions_update (self);
}

void
_sequin_window_keys_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.select-all-keys", NULL, select_all_keys_action);
  gtk_widget_class_install_action (widget_class, "win.copy", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "win.paste", NULL, paste_action);
  gtk_widget_class_install_action (widget_class, "win.paste-flipped", NULL, paste_action);
}

void
_sequin_window_keys_init (SequinWindow *self)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();

  g_signal_connect_object (self->timeline, "move-keys", G_CALLBACK (move_keys_cb), self, 0);
  g_signal_connect_object (self->timeline, "moving", G_CALLBACK (moving_cb), self, 0);
  g_signal_connect_object (self->timeline, "selection-changed", G_CALLBACK (selection_changed_cb), self,
                           G_CONNECT_SWAPPED);
  /* Ctrl+A where keys are chosen, not window-wide (text fields keep it) */
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Control>a"),
                                                          gtk_named_action_new ("win.select-all-keys")));
  gtk_widget_add_controller (self->timeline, controller);
}
