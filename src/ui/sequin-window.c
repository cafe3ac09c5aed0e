/* sequin-window.c: a window showing one animation
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window arranges the views of its document: the header in the side
 * panel, the joint/keyframe tree and the structure text in a stack, the
 * timeline below. It opens and saves through SequinDocument and asks the
 * questions that keep work from being lost. Actions live in
 * sequin-window-actions.c.
 */
#define G_LOG_DOMAIN "sequin-window"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "sequin-utils.h"
#include "sequin-play-over.h"
#include "sequin-posing.h"
#include "sequin-window-private.h"

G_DEFINE_FINAL_TYPE (SequinWindow, sequin_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_SIDEBAR_VISIBLE,
  PROP_PLAYING,
  PROP_JOINT_HIERARCHY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* the list of losses and renames in the question before a lossy save
 * scrolls beyond this height (pixels): every line is in it */
#define LOSS_LIST_MAX_HEIGHT 320

/* ---- Messages -------------------------------------------------------------- */

static GtkWidget *
message_new (SequinWindow   *self,
             GtkMessageType  type,
             const char     *primary,
             const char     *secondary)
{
  GtkWidget *dialog;

  dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   type, GTK_BUTTONS_NONE, "%s", primary);
  if (secondary != NULL)
    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", secondary);
  return dialog;
}

static void
error_response_cb (GtkDialog *dialog,
                   int        response)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
show_error (SequinWindow *self,
            const char   *primary,
            const char   *secondary)
{
  GtkWidget *dialog = message_new (self, GTK_MESSAGE_ERROR, primary, secondary);

  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Close"), GTK_RESPONSE_CLOSE);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CLOSE);
  g_signal_connect (dialog, "response", G_CALLBACK (error_response_cb), NULL);
  _sequin_window_show_message (self, dialog);
}

/* ---- Views of the document ------------------------------------------------- */

static char *
display_folder (GFile *file)
{
  g_autoptr(GFile) parent = file != NULL ? g_file_get_parent (file) : NULL;
  g_autofree char *path = NULL;
  const char *home = g_get_home_dir ();

  if (parent == NULL)
    return NULL;
  path = g_file_get_path (parent);
  if (path == NULL)
    return g_file_get_parse_name (parent);
  if (home != NULL && g_str_has_prefix (path, home) && (path[strlen (home)] == '/' || path[strlen (home)] == '\0'))
    return g_strconcat ("~", path + strlen (home), NULL);
  return g_steal_pointer (&path);
}

/* "Set 2 of 3: Wuson_Walk" for a file of several animations, else NULL */
static char *
describe_take (const SqClip *clip)
{
  gsize n = 0;
  guint take = 0;
  const char * const *takes = sq_clip_get_takes (clip, &n, &take);

  if (takes == NULL || n < 2 || take >= n)
    return NULL;
  if (takes[take][0] == '\0')
    /* TRANSLATORS: which animation of the file the window shows */
    return g_strdup_printf (_("Set %u of %zu"), take + 1, n);
  /* TRANSLATORS: which animation of the file the window shows, and its name */
  return g_strdup_printf (_("Set %u of %zu: %s"), take + 1, n, takes[take]);
}

static void
update_title (SequinWindow *self)
{
  g_autofree char *title = NULL;
  g_autofree char *window_title = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *take = NULL;
  g_autofree char *subtitle = NULL;
  const char *where;

  if (self->document == NULL)
    {
      gtk_label_set_text (self->title_label, _("Sequin"));
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), FALSE);
      gtk_window_set_title (GTK_WINDOW (self), _("Sequin"));
      return;
    }

  if (sequin_document_get_modified (self->document))
    /* TRANSLATORS: the title of a document with unsaved changes */
    title = g_strdup_printf (_("• %s"), sequin_document_get_title (self->document));
  else
    title = g_strdup (sequin_document_get_title (self->document));
  gtk_label_set_text (self->title_label, title);
  sequin_set_tooltip (GTK_WIDGET (self->title_label),
                               sequin_document_get_modified (self->document) ? _("Modified: not saved yet") : NULL);

  folder = display_folder (sequin_document_get_file (self->document));
  where = folder != NULL ? folder : _("Not saved to a file yet");
  take = describe_take (sequin_document_get_clip (self->document));
  if (take != NULL)
    /* TRANSLATORS: the subtitle: the file's folder, then which animation of the file is shown */
    subtitle = g_strdup_printf (_("%s · %s"), where, take);
  gtk_label_set_text (self->subtitle_label, subtitle != NULL ? subtitle : where);
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), TRUE);

  if (take != NULL)
    /* TRANSLATORS: the window title: a file name, which of its animations, then the program */
    window_title = g_strdup_printf (_("%s (%s) — Sequin"), title, take);
  else
    /* TRANSLATORS: the window title: a file name, then the program */
    window_title = g_strdup_printf (_("%s — Sequin"), title);
  /* set on a change only: a new title is a round trip to an X server */
  if (g_strcmp0 (gtk_window_get_title (GTK_WINDOW (self)), window_title) != 0)
    gtk_window_set_title (GTK_WINDOW (self), window_title);
}

static void
update_side_panel (SequinWindow *self)
{
  const SqClip *clip = sequin_document_get_clip (self->document);
  const SqFormat *format = sequin_document_get_format (self->document);
  SqClipSummary s;
  g_autofree char *root = NULL;
  g_autofree char *keys = NULL;
  g_autofree char *frames = NULL;
  g_autofree char *rate = NULL;
  g_autofree char *joints = NULL;
  g_autofree char *duration = NULL;

  sq_clip_summarize (clip, &s);
  gtk_label_set_text (self->format_value, format != NULL ? sq_format_get_name (format) : s.format_name);
  gtk_label_set_text (self->model_value, clip->name[0] != '\0' ? clip->name : _("(none)"));
  if (clip->root[0] != '\0')
    root = g_strdup (clip->root);
  else
    /* TRANSLATORS: the root joint when the file leaves it blank; %s is the name used instead */
    root = g_strdup_printf (_("%s (blank in the header)"), sq_clip_get_effective_root (clip));
  gtk_label_set_text (self->root_value, root);

  joints = g_strdup_printf ("%zu", s.n_joints);
  gtk_label_set_text (self->joints_value, joints);
  if (s.n_scale_keys > 0)
    keys = g_strdup_printf (_("%zu (%zu rotation, %zu translation, %zu scale)"),
                            s.n_keys, s.n_rotation_keys, s.n_translation_keys, s.n_scale_keys);
  else
    keys = g_strdup_printf (_("%zu (%zu rotation, %zu translation)"),
                            s.n_keys, s.n_rotation_keys, s.n_translation_keys);
  gtk_label_set_text (self->keys_value, keys);
  rate = sequin_format_rate (clip->fps);
  if (sequin_clip_counts_ticks (clip))
    {
      /* a .x counts its time in ticks, thousands a second: no frames */
      gtk_label_set_text (self->frames_key, _("Ticks"));
      /* TRANSLATORS: the length in ticks, then how many ticks make a second */
      frames = g_strdup_printf (_("%u (%s per second)"), s.frames, rate);
    }
  else
    {
      gtk_label_set_text (self->frames_key, _("Frames"));
      /* TRANSLATORS: the number of frames, then the frame rate */
      frames = g_strdup_printf (_("%u at %s per second"), s.frames, rate);
    }
  gtk_label_set_text (self->frames_value, frames);
  duration = sq_format_seconds (s.duration);
  gtk_label_set_text (self->duration_value, duration);

  if (clip->warnings->len > 0)
    {
      g_autoptr(GString) text = g_string_new (NULL);

      for (guint i = 0; i < clip->warnings->len; i++)
        g_string_append_printf (text, "%s• %s", i > 0 ? "\n" : "", (const char *) clip->warnings->pdata[i]);
      gtk_label_set_text (self->warnings_label, text->str);
    }
  gtk_widget_set_visible (self->warnings_box, clip->warnings->len > 0);
}

/* A selectable label that had the focus keeps its text selected (GTK selects
 * it all on focus): not wanted once the focus moved on. */
static void
unselect_side_panel (SequinWindow *self)
{
  GtkLabel *labels[] = { self->format_value, self->model_value, self->root_value, self->joints_value,
                         self->keys_value, self->frames_value, self->duration_value, self->warnings_label };

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    gtk_label_select_region (labels[i], 0, 0);
}

static void
update_structure (SequinWindow *self)
{
  const SqClip *clip;

  if (self->document == NULL || (clip = sequin_document_get_clip (self->document)) == NULL)
    {
      sequin_line_model_set_text (self->structure_lines, NULL);
      return;
    }
  /* the dump can be long: make it only when it is shown */
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->view_stack), "structure") != 0)
    {
      self->structure_stale = TRUE;
      return;
    }
  if (!self->structure_stale && self->structure_generation == clip->generation)
    return;
  sequin_line_model_set_text (self->structure_lines, sq_dump_text (clip));
  self->structure_generation = clip->generation;
  self->structure_stale = FALSE;
}

/* ---- Preview and playback ---------------------------------------------------- */

/* The pose at the playhead, when the preview is shown */
static void
update_preview (SequinWindow *self)
{
  const SqClip *clip = self->document != NULL ? sequin_document_get_clip (self->document) : NULL;

  if (clip == NULL || clip->n_joints == 0)
    {
      sequin_preview_set_clip (self->preview, NULL, 0, -1);
      return;
    }
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->view_stack), "preview") != 0)
    return;
  {
    /* Play Over…: the combined motion, while other animations play with it */
    gssize selected = sequin_joint_tree_get_current_joint (self->joint_tree);
    const SqClip *own = clip;

    clip = sequin_play_over_preview_clip (self, clip, &selected);
    sequin_preview_set_clip (self->preview, clip, sequin_timeline_get_time (SEQUIN_TIMELINE (self->timeline)),
                             selected);
    /* the gizmo poses the document's own clip, not Play Over's mix */
    sequin_posing_follow_preview (self, clip == own);
  }
}

static void
update_play_time (SequinWindow *self)
{
  const SqClip *clip = self->document != NULL ? sequin_document_get_clip (self->document) : NULL;
  g_autofree char *text = NULL, *now = NULL, *end = NULL;

  if (clip == NULL)
    {
      gtk_label_set_text (self->play_time_label, "");
      return;
    }
  now = sq_format_seconds (sequin_timeline_get_time (SEQUIN_TIMELINE (self->timeline)));
  end = sq_format_seconds (clip->duration);
  /* Translators: the playhead's time and the animation's duration ("0.500 s of 2.033 s") */
  text = g_strdup_printf (_("%s of %s"), now, end);
  gtk_label_set_text (self->play_time_label, text);
}

static void
fit_clicked_cb (SequinWindow *self)
{
  sequin_timeline_zoom_to_fit (SEQUIN_TIMELINE (self->timeline));
}

static void
playhead_moved_cb (SequinWindow *self)
{
  update_play_time (self);
  update_preview (self);
}

/* the play button and the window's `playing` follow the playback */
static void
playing_cb (SequinWindow *self)
{
  gboolean playing = sequin_playback_get_playing (self->playback);

  gtk_button_set_icon_name (GTK_BUTTON (self->play_button),
                            playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->play_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, playing ? _("Pause") : _("Play"),
                                  -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYING]);
}

static const double rates[] = SEQUIN_WINDOW_RATES;

/* the playback's rate as the drop-down's item: the nearest speed it lists */
static gboolean
rate_to_selected (GBinding     *binding,
                  const GValue *from,
                  GValue       *to,
                  gpointer      user_data)
{
  double rate = g_value_get_double (from);
  guint best = 0;

  for (guint i = 1; i < G_N_ELEMENTS (rates); i++)
    if (fabs (log (rates[i] / rate)) < fabs (log (rates[best] / rate)))
      best = i;
  g_value_set_uint (to, best);
  return TRUE;
}

static gboolean
selected_to_rate (GBinding     *binding,
                  const GValue *from,
                  GValue       *to,
                  gpointer      user_data)
{
  guint selected = g_value_get_uint (from);

  if (selected >= G_N_ELEMENTS (rates))
    return FALSE;
  g_value_set_double (to, rates[selected]);
  return TRUE;
}

/* what plays is the document's animation, as long as it is now, looping
 * as its world plays it (the loop the timeline shows) */
static void
update_duration (SequinWindow *self)
{
  const SqClip *clip = self->document != NULL ? sequin_document_get_clip (self->document) : NULL;
  double in = 0, out = 0;

  sequin_playback_set_duration (self->playback, clip != NULL ? clip->duration : 0);
  if (!sequin_timeline_get_loop (SEQUIN_TIMELINE (self->timeline), &in, &out))
    in = out = -1;   /* none */
  sequin_playback_set_loop_range (self->playback, in, out);
}

static void
view_changed_cb (SequinWindow *self)
{
  update_structure (self);
  update_preview (self);
}

static void
document_changed_cb (SequinWindow *self)
{
  update_side_panel (self);
  update_title (self);
  self->structure_stale = TRUE;
  update_structure (self);
  sequin_timeline_clip_changed (SEQUIN_TIMELINE (self->timeline));
  update_duration (self);
  update_play_time (self);
  update_preview (self);
  _sequin_window_actions_update (self);
}

static void
document_notify_cb (SequinWindow *self)
{
  update_title (self);
  update_side_panel (self);
  _sequin_window_actions_update (self);
}

static void
set_document (SequinWindow   *self,
              SequinDocument *document)
{
  sequin_playback_pause (self->playback);
  g_set_object (&self->document, document);
  sequin_preview_set_clip (self->preview, NULL, 0, -1);

  sequin_joint_tree_set_document (self->joint_tree, document);
  sequin_properties_panel_set_document (self->properties_panel, document);
  sequin_validation_panel_set_document (self->validation_panel, document);
  sequin_pose_list_set_document (self->pose_list, document);
  sequin_timeline_set_clip (SEQUIN_TIMELINE (self->timeline),
                            document != NULL ? sequin_document_get_clip (document) : NULL);
  /* after the panels, so their handlers run before the window's */
  g_signal_group_set_target (self->document_signals, document);
  if (self->compare != NULL)
    sequin_compare_window_set_document (self->compare, document);
  update_duration (self);
  if (document != NULL)
    {
      update_side_panel (self);
      gtk_stack_set_visible_child_name (self->main_stack, "document");
      gtk_widget_grab_focus (GTK_WIDGET (self->joint_tree));
      unselect_side_panel (self);
    }
  else
    gtk_stack_set_visible_child_name (self->main_stack, "empty");

  self->structure_stale = TRUE;
  update_structure (self);
  update_play_time (self);
  update_preview (self);
  update_title (self);
  _sequin_window_actions_update (self);
}

void
sequin_window_set_document (SequinWindow   *self,
                            SequinDocument *document)
{
  g_return_if_fail (SEQUIN_IS_WINDOW (self));
  g_return_if_fail (SEQUIN_IS_DOCUMENT (document));

  set_document (self, document);
}

/* ---- Tree and timeline follow each other ----------------------------------- */

static void
tree_selection_changed_cb (SequinWindow *self)
{
  gssize joint, key;
  SqChannel channel;
  double time;

  _sequin_window_actions_update (self);
  sequin_properties_panel_set_joint (self->properties_panel, sequin_joint_tree_get_current_joint (self->joint_tree));
  update_preview (self);
  if (self->syncing || self->timeline == NULL)
    return;
  if (sequin_joint_tree_get_selected_key (self->joint_tree, &joint, &channel, &key, &time))
    {
      self->syncing = TRUE;
      sequin_timeline_select_key (SEQUIN_TIMELINE (self->timeline), joint, channel, key);
      sequin_timeline_set_time (SEQUIN_TIMELINE (self->timeline), time);
      self->syncing = FALSE;
    }
  else
    /* a joint: its lane, highlighted and in view */
    sequin_timeline_select_joint (SEQUIN_TIMELINE (self->timeline),
                                  sequin_joint_tree_get_current_joint (self->joint_tree));
}

static void
timeline_joint_selected_cb (SequinWindow *self,
                            gint64        joint)
{
  if (self->syncing || self->document == NULL)
    return;
  self->syncing = TRUE;
  sequin_joint_tree_select_joint (self->joint_tree, joint);
  self->syncing = FALSE;
  tree_selection_changed_cb (self);
}

static void
timeline_key_selected_cb (SequinWindow *self,
                          gint64        joint,
                          int           channel,
                          gint64        key,
                          gpointer      timeline)
{
  if (self->syncing || joint < 0 || key < 0 || channel < 0 || channel >= SQ_N_CHANNELS)
    return;
  self->syncing = TRUE;
  sequin_joint_tree_select_key (self->joint_tree, joint, channel, key);
  self->syncing = FALSE;
}

/* A pose of a pose library was selected: the playhead goes to it, and the
 * tree selects the current joint's key there (the ROOT's without one) */
static void
pose_selected_cb (SequinWindow *self,
                  guint         index,
                  double        time,
                  gpointer      list)
{
  const SqClip *clip = self->document != NULL ? sequin_document_get_clip (self->document) : NULL;
  gssize joint = sequin_joint_tree_get_current_joint (self->joint_tree);
  const SqTrack *track;
  gsize k;

  if (clip == NULL || clip->n_joints == 0 || time < 0)
    return;
  if (joint < 0 || (gsize) joint >= clip->n_joints)
    joint = 0;
  track = &clip->joints[joint].tracks[SQ_CHANNEL_ROTATION];
  k = sq_track_lower_bound (track, time - 1e-6, 0, track->n_keys);
  if (k < track->n_keys && fabs (sq_track_time (track, k) - time) <= 1e-6)
    sequin_joint_tree_select_key (self->joint_tree, joint, SQ_CHANNEL_ROTATION, k);
  sequin_timeline_set_time (SEQUIN_TIMELINE (self->timeline), time);
}

/* A validation finding was activated: its joint, and its key when it names
 * one, are selected in the tree (which moves the timeline to the key) */
static void
finding_activated_cb (SequinWindow *self,
                      gint64        joint,
                      int           channel,
                      gint64        key,
                      gpointer      panel)
{
  const SqClip *clip = self->document != NULL ? sequin_document_get_clip (self->document) : NULL;

  if (clip == NULL || joint < 0 || (guint64) joint >= clip->n_joints)
    return;
  gtk_stack_set_visible_child_name (self->view_stack, "tree");
  if (key >= 0 && channel >= 0 && channel < SQ_N_CHANNELS
      && (guint64) key < clip->joints[joint].tracks[channel].n_keys
      && sequin_joint_tree_select_key (self->joint_tree, joint, channel, key))
    return;
  sequin_joint_tree_select_joint (self->joint_tree, joint);
}

/* ---- Opening --------------------------------------------------------------- */

typedef struct
{
  SequinWindow   *self;
  SequinDocument *document;
  GFile          *file;
  gboolean        here;      /* this window is empty and waits for this file */
  gboolean        as_copy;
  GCancellable   *cancellable; /* this open's: its Cancel, or the window going */
  gulong          window_gone; /* the window's cancellable connected to it */
} OpenRequest;

static void
open_request_free (OpenRequest *req)
{
  g_cancellable_disconnect (req->self->cancellable, req->window_gone);
  g_clear_object (&req->cancellable);
  g_clear_object (&req->self);
  g_clear_object (&req->document);
  g_clear_object (&req->file);
  g_free (req);
}

static void
add_recent (GFile *file)
{
  g_autofree char *uri = g_file_get_uri (file);

  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  OpenRequest *req = user_data;
  SequinWindow *self = req->self;
  g_autoptr(GError) error = NULL;

  if (req->here)
    self->loading--;

  if (!sequin_document_load_finish (req->document, result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *name = g_file_get_basename (req->file);
          g_autofree char *primary = g_strdup_printf (_("Could Not Open “%s”"), name);
          const char *cause = sq_error_plain_cause (error);
          /* the plain cause first, the reader's detail (offset, line) under it */
          g_autofree char *secondary = cause != NULL ? g_strdup_printf ("%s\n\n%s", cause, error->message)
                                                     : g_strdup (error->message);

          show_error (self, primary, secondary);
        }
      open_request_free (req);
      return;
    }

  if (!req->as_copy)
    add_recent (req->file);

  if (req->here && self->document == NULL)
    set_document (self, req->document);
  else
    {
      GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
      SequinWindow *window = sequin_window_new (SEQUIN_APPLICATION (app));

      set_document (window, req->document);
      gtk_window_present (GTK_WINDOW (window));
    }
  open_request_free (req);
}

/* The open of `file` under way, for a window given before the main loop
 * runs again (open_request_attach): its result comes through the loop */
static OpenRequest *
open_request_start (GFile    *file,
                    gboolean  as_copy)
{
  OpenRequest *req = g_new0 (OpenRequest, 1);

  req->document = sequin_document_new ();
  req->file = g_object_ref (file);
  req->as_copy = as_copy;
  req->cancellable = g_cancellable_new ();
  sequin_document_load_async (req->document, file, as_copy ? SEQUIN_LOAD_AS_COPY : SEQUIN_LOAD_DEFAULT,
                              req->cancellable, load_cb, req);
  return req;
}

static void
open_request_attach (SequinWindow *self,
                     OpenRequest  *req)
{
  req->self = g_object_ref (self);
  req->here = self->document == NULL && self->loading == 0;
  if (req->here)
    self->loading++;
  req->window_gone = g_cancellable_connect (self->cancellable, G_CALLBACK (g_cancellable_cancel),
                                            g_object_ref (req->cancellable), g_object_unref);
  sequin_open_progress_watch (self->open_progress, req->document, req->file, req->cancellable);
}

void
sequin_window_open_file (SequinWindow *self,
                         GFile        *file,
                         gboolean      as_copy)
{
  g_return_if_fail (SEQUIN_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  open_request_attach (self, open_request_start (file, as_copy));
}

SequinWindow *
sequin_window_new_for_files (SequinApplication *application,
                             GFile            **files,
                             int                n_files)
{
  g_autoptr(GPtrArray) requests = g_ptr_array_new ();
  SequinWindow *self;

  /* the files are read and parsed on workers while the window is made */
  for (int i = 0; i < n_files; i++)
    g_ptr_array_add (requests, open_request_start (files[i], FALSE));
  self = sequin_window_new (application);
  for (guint i = 0; i < requests->len; i++)
    open_request_attach (self, requests->pdata[i]);
  return self;
}

/* ---- Saving ---------------------------------------------------------------- */

typedef struct
{
  SequinWindow   *self;
  GFile          *file;
  const SqFormat *format;
  SequinSaveFlags flags;
  GCancellable   *cancellable; /* this save's: its Cancel, or the window going */
  gulong          window_gone; /* the window's cancellable connected to it */
  const SqFormat *from;          /* the document's format when asked */
  gboolean        notes_shown;   /* the question before the save listed its notes */
} SaveRequest;

static void
save_request_forget_cancellable (SaveRequest *req)
{
  if (req->cancellable != NULL)
    g_cancellable_disconnect (req->self->cancellable, req->window_gone);
  req->window_gone = 0;
  g_clear_object (&req->cancellable);
}

static void
save_request_free (SaveRequest *req)
{
  save_request_forget_cancellable (req);
  g_clear_object (&req->self);
  g_clear_object (&req->file);
  g_free (req);
}

static void save_request_start (SaveRequest *req);

static void
save_question_response_cb (GtkDialog   *dialog,
                           int          response,
                           SaveRequest *req)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_ACCEPT)
    {
      save_request_start (req);
      return;
    }
  req->self->close_after_save = FALSE;
  save_request_free (req);
}

/* Asks `dialog` (a message dialog without buttons): Cancel, or go on with
 * `flag` set. */
static void
ask_save_dialog (SaveRequest *req,
                 GtkWidget   *dialog,
                 const char  *accept_label,
                 guint        flag)
{
  GtkWidget *button;

  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL);
  button = gtk_dialog_add_button (GTK_DIALOG (dialog), accept_label, GTK_RESPONSE_ACCEPT);
  gtk_widget_add_css_class (button, "destructive-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  req->flags |= flag;
  g_signal_connect (dialog, "response", G_CALLBACK (save_question_response_cb), req);
  _sequin_window_show_message (req->self, dialog);
}

/* A question before a save: Cancel, or go on with `flag` set. */
static void
ask_save_question (SaveRequest    *req,
                   GtkMessageType  type,
                   const char     *primary,
                   const char     *secondary,
                   const char     *accept_label,
                   guint           flag)
{
  ask_save_dialog (req, message_new (req->self, type, primary, secondary), accept_label, flag);
}

/* A message dialog's list of lines: wrapped, selectable, scrolling beyond
 * LOSS_LIST_MAX_HEIGHT, named `name` for assistive technologies */
static GtkWidget *
line_list_new (const char *text,
               const char *name)
{
  GtkWidget *scrolled, *label;

  label = gtk_label_new (text);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_yalign (GTK_LABEL (label), 0.0);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), LOSS_LIST_MAX_HEIGHT);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), label);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (scrolled), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  return scrolled;
}

/* The conversion's notes (root motion scaled, joints retargeted), each a
 * bullet, under their heading */
static void
append_notes (GString            *list,
              const char * const *notes)
{
  guint n = notes != NULL ? g_strv_length ((GStrv) notes) : 0;

  if (n == 0)
    return;
  if (list->len > 0)
    g_string_append (list, "\n\n");
  g_string_append (list, g_dngettext (GETTEXT_PACKAGE, "Note:", "Notes:", n));
  for (guint i = 0; i < n; i++)
    g_string_append_printf (list, "\n• %s", notes[i]);
}

/* After a save into another world: what its conversion did to the motion,
 * as the command line's note: lines say it */
static void
show_save_notes (SequinWindow       *self,
                 const SqFormat     *format,
                 const char * const *notes)
{
  g_autoptr(GString) list = g_string_new (NULL);
  g_autofree char *primary = NULL;
  GtkWidget *dialog;

  append_notes (list, notes);
  /* TRANSLATORS: %s is a file format, like “ActiveWorlds binary SEQ” */
  primary = g_strdup_printf (_("Saved as %s"), sq_format_get_name (format));
  dialog = message_new (self, GTK_MESSAGE_INFO, primary, _("The conversion moved the motion onto this world’s avatar:"));
  gtk_box_append (GTK_BOX (gtk_message_dialog_get_message_area (GTK_MESSAGE_DIALOG (dialog))),
                  line_list_new (list->str, _("What the conversion did")));
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Close"), GTK_RESPONSE_CLOSE);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CLOSE);
  g_signal_connect (dialog, "response", G_CALLBACK (error_response_cb), NULL);
  _sequin_window_show_message (self, dialog);
}

/* The question before a save that loses or renames something: what the
 * target cannot keep, then every joint the conversion renames, then its
 * notes, all of it in one scrollable list (the core's report,
 * sq_loss_renamed() telling the renames apart). */
static void
ask_about_losses (SaveRequest        *req,
                  GStrv               losses,
                  const char * const *notes)
{
  g_autoptr(GString) list = g_string_new (NULL);
  g_autoptr(GString) renamed = g_string_new (NULL);
  g_autofree char *primary = NULL;
  g_autofree char *secondary = NULL;
  guint n_lost = 0, n_renamed = 0;
  GtkWidget *dialog;

  for (guint i = 0; losses[i] != NULL; i++)
    {
      const char *rename = sq_loss_renamed (losses[i]);
      if (rename != NULL)
        {
          g_string_append_printf (renamed, "\n• %s", rename);
          n_renamed++;
        }
      else
        {
          g_string_append_printf (list, "%s• %s", n_lost > 0 ? "\n" : "", losses[i]);
          n_lost++;
        }
    }
  if (n_renamed > 0)
    {
      if (n_lost > 0)
        g_string_append (list, "\n\n");
      g_string_append (list, g_dngettext (GETTEXT_PACKAGE, "Joint renamed:", "Joints renamed:", n_renamed));
      g_string_append (list, renamed->str);
    }
  append_notes (list, notes);
  req->notes_shown = notes != NULL && notes[0] != NULL;

  /* TRANSLATORS: %s is a file format, like “ActiveWorlds text SEQ” */
  primary = g_strdup_printf (_("Save as %s?"), sq_format_get_name (req->format));
  if (n_lost > 0)
    secondary = g_strdup_printf (_("%s cannot keep everything this animation has:"),
                                 sq_format_get_name (req->format));
  else
    secondary = g_strdup_printf (_("Saving as %s renames joints:"), sq_format_get_name (req->format));

  dialog = message_new (req->self, GTK_MESSAGE_QUESTION, primary, secondary);
  gtk_box_append (GTK_BOX (gtk_message_dialog_get_message_area (GTK_MESSAGE_DIALOG (dialog))),
                  line_list_new (list->str, _("What the save loses and the joints it renames")));

  ask_save_dialog (req, dialog, _("_Save Anyway"), SEQUIN_SAVE_ACCEPT_LOSSES);
}

static void
ask_about_changes_on_disk (SaveRequest *req)
{
  g_autofree char *name = g_file_get_basename (req->file);
  g_autofree char *primary = NULL;

  primary = g_strdup_printf (_("“%s” Changed on Disk"), name);
  ask_save_question (req, GTK_MESSAGE_WARNING, primary,
                     _("Another program changed the file since Sequin read it. "
                       "Saving replaces its changes with this animation."),
                     _("_Replace"), SEQUIN_SAVE_IGNORE_CHANGES_ON_DISK);
}

/* A companion the save writes (a skill's CFP) belongs to another file */
static void
ask_about_companion (SaveRequest  *req,
                     const GError *error)
{
  g_autofree char *name = g_file_get_basename (req->file);
  g_autofree char *primary = NULL;
  g_autofree char *secondary = NULL;
  GtkWidget *dialog;

  /* TRANSLATORS: %s is the file being saved */
  primary = g_strdup_printf (_("Saving “%s” Replaces Another File’s Data"), name);
  /* TRANSLATORS: %s says which file belongs to which, e.g. “xskill-walk.cfp” belongs to “walk.cmx” */
  secondary = g_strdup_printf (_("%s. Replacing it changes that file too; "
                                 "to keep it, cancel and save under another name."), error->message);
  dialog = message_new (req->self, GTK_MESSAGE_WARNING, primary, secondary);
  gtk_accessible_update_property (GTK_ACCESSIBLE (dialog), GTK_ACCESSIBLE_PROPERTY_LABEL, primary,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, secondary, -1);
  ask_save_dialog (req, dialog, _("_Replace"), SEQUIN_SAVE_REPLACE_COMPANIONS);
}

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  SaveRequest *req = user_data;
  SequinWindow *self = req->self;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) losses = NULL;
  g_auto(GStrv) notes = NULL;

  if (sequin_document_save_finish (SEQUIN_DOCUMENT (object), result, &losses, &notes, &error))
    {
      add_recent (req->file);
      _sequin_window_actions_update (self);
      if (self->close_after_save)
        {
          self->close_after_save = FALSE;
          gtk_window_close (GTK_WINDOW (self));
        }
      else if (!req->notes_shown && notes[0] != NULL
               && sq_format_get_world (req->from) != sq_format_get_world (req->format))
        show_save_notes (self, req->format, (const char * const *) notes);
      save_request_free (req);
      return;
    }

  if (g_error_matches (error, SEQUIN_DOCUMENT_ERROR, SEQUIN_DOCUMENT_ERROR_LOSSES))
    {
      ask_about_losses (req, losses, (const char * const *) notes);
      return;
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG))
    {
      ask_about_changes_on_disk (req);
      return;
    }
  if (g_error_matches (error, SEQUIN_DOCUMENT_ERROR, SEQUIN_DOCUMENT_ERROR_COMPANION_TAKEN))
    {
      ask_about_companion (req, error);
      return;
    }

  self->close_after_save = FALSE;
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *name = g_file_get_basename (req->file);
      g_autofree char *primary = g_strdup_printf (_("Could Not Save “%s”"), name);
      g_autofree char *secondary = g_strdup_printf (_("%s\nThe file on disk was not changed."), error->message);

      show_error (self, primary, secondary);
    }
  save_request_free (req);
}

/* Each start has a cancellable of its own (one cancelled stays so):
 * the progress bar's Cancel, and the window going, cancel it */
static void
save_request_start (SaveRequest *req)
{
  SequinWindow *self = req->self;

  save_request_forget_cancellable (req);
  req->cancellable = g_cancellable_new ();
  req->window_gone = g_cancellable_connect (self->cancellable, G_CALLBACK (g_cancellable_cancel),
                                            g_object_ref (req->cancellable), g_object_unref);
  sequin_document_save_async (self->document, req->file, req->format, req->flags,
                              req->cancellable, save_cb, req);
  sequin_open_progress_watch_save (self->open_progress, self->document, req->file, req->format,
                                   req->cancellable);
}

void
sequin_window_save_to (SequinWindow   *self,
                       GFile          *file,
                       const SqFormat *format)
{
  SaveRequest *req;

  g_return_if_fail (SEQUIN_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (self->document != NULL);

  req = g_new0 (SaveRequest, 1);
  req->self = g_object_ref (self);
  req->file = g_object_ref (file);
  req->from = sequin_document_get_format (self->document);
  req->format = format != NULL ? format : req->from;
  if (req->format == NULL)
    req->format = sq_format_default ();
  save_request_start (req);
}

/* ---- The panes ------------------------------------------------------------- */

#define DEFAULT_SIDEBAR_WIDTH   270
#define DEFAULT_TIMELINE_HEIGHT 260

/* The timeline's height: the one the user left it at; until there is one,
 * room for the file's lanes (up to 16, as the timeline asks) when they
 * need more than the default, up to 3/5 of the height beside the tree */
static int
timeline_room (SequinWindow *self,
               int           height)
{
  g_autoptr(GVariant) chosen = NULL;
  int natural = 0;

  if (self->settings != NULL && (chosen = g_settings_get_user_value (self->settings, "timeline-height")) != NULL)
    return self->timeline_height;
  gtk_widget_measure (GTK_WIDGET (self->timeline_box), GTK_ORIENTATION_VERTICAL, -1, NULL, &natural, NULL, NULL);
  return MAX (self->timeline_height, MIN (natural - self->diff_lane_room, height * 3 / 5));
}

/* The sidebar and the timeline get their remembered sizes; the tree and
 * the timeline's lanes take the rest of the window, and any width or height
 * it gains later (GtkPaned gives a change of size to the child that
 * resizes). Done once the panes have their first size: a position set
 * before that is kept as it is, whatever the window's size. */
static gboolean
place_panes (gpointer data)
{
  SequinWindow *self = data;
  int width = gtk_widget_get_width (GTK_WIDGET (self->sidebar_paned));
  int height = gtk_widget_get_height (GTK_WIDGET (self->content_paned));

  self->layout_idle = 0;
  if (width <= 0 || height <= 0)
    return G_SOURCE_REMOVE;
  /* the handle is a pixel wide; the tree keeps at least 300 */
  gtk_paned_set_position (self->sidebar_paned, MAX (300, width - self->sidebar_width - 1));
  gtk_paned_set_position (self->content_paned,
                          MAX (120, height - timeline_room (self, height) - self->diff_lane_room - 1));
  self->laid_out = TRUE;
  return G_SOURCE_REMOVE;
}

/* The difference lane comes and goes (Compare With…): the timeline's pane
 * grows by its height and gives it back, so the lanes keep their room */
static void
diff_lane_visible_cb (SequinWindow *self)
{
  int room = 0, grown;

  if (gtk_widget_get_visible (self->diff_lane))
    gtk_widget_measure (self->diff_lane, GTK_ORIENTATION_VERTICAL, -1, NULL, &room, NULL, NULL);
  grown = room - self->diff_lane_room;
  self->diff_lane_room = room;
  /* before the panes are placed, place_panes counts it */
  if (self->laid_out && grown != 0)
    gtk_paned_set_position (self->content_paned, MAX (120, gtk_paned_get_position (self->content_paned) - grown));
}

static void
panes_allocated_cb (SequinWindow *self)
{
  if (!self->laid_out && self->layout_idle == 0 && gtk_widget_get_width (GTK_WIDGET (self->sidebar_paned)) > 0)
    self->layout_idle = g_idle_add_full (G_PRIORITY_HIGH_IDLE, place_panes, self, NULL);
}

/* ---- Closing --------------------------------------------------------------- */

static void
save_window_state (SequinWindow *self)
{
  int width, height;

  if (self->settings == NULL)
    return;
  /* the panes as the user left them (the document page has been shown) */
  if (self->laid_out)
    {
      g_settings_set_int (self->settings, "header-width", MAX (120, gtk_paned_get_position (self->header_paned)));
      if (gtk_widget_get_visible (self->sidebar) && gtk_widget_get_width (self->sidebar) > 0)
        g_settings_set_int (self->settings, "sidebar-width", MAX (200, gtk_widget_get_width (self->sidebar)));
      if (gtk_widget_get_height (GTK_WIDGET (self->timeline_box)) > 0)
        g_settings_set_int (self->settings, "timeline-height",
                            MAX (100, gtk_widget_get_height (GTK_WIDGET (self->timeline_box)) - self->diff_lane_room));
    }
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
  if (!gtk_window_is_maximized (GTK_WINDOW (self)) && width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
}

static gboolean
close_now (gpointer data)
{
  SequinWindow *self = data;

  self->force_close = TRUE;
  gtk_window_close (GTK_WINDOW (self));
  g_object_unref (self);
  return G_SOURCE_REMOVE;
}

static void
close_response_cb (GtkDialog    *dialog,
                   int           response,
                   SequinWindow *self)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  switch (response)
    {
    case GTK_RESPONSE_ACCEPT:
      self->close_after_save = TRUE;
      _sequin_window_save (self, FALSE, NULL);
      break;
    case GTK_RESPONSE_REJECT:
      /* once the question is gone: it must not outlive the window it is transient for */
      g_idle_add (close_now, g_object_ref (self));
      break;
    default:
      break;
    }
}

static gboolean
sequin_window_close_request (GtkWindow *window)
{
  SequinWindow *self = SEQUIN_WINDOW (window);

  if (!self->force_close && self->document != NULL && sequin_document_get_modified (self->document))
    {
      g_autofree char *primary = NULL;
      GtkWidget *dialog;
      GtkWidget *button;

      primary = g_strdup_printf (_("Save Changes to “%s”?"), sequin_document_get_title (self->document));
      dialog = message_new (self, GTK_MESSAGE_QUESTION, primary,
                            _("If you close without saving, your changes are lost."));
      gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL);
      button = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Discard"), GTK_RESPONSE_REJECT);
      gtk_widget_add_css_class (button, "destructive-action");
      button = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Save"), GTK_RESPONSE_ACCEPT);
      gtk_widget_add_css_class (button, "suggested-action");
      gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
      g_signal_connect_object (dialog, "response", G_CALLBACK (close_response_cb), self, 0);
      _sequin_window_show_message (self, dialog);
      gtk_window_present (window);
      return TRUE;
    }

  save_window_state (self);
  return GTK_WINDOW_CLASS (sequin_window_parent_class)->close_request (window);
}

/* ---- Drag and drop --------------------------------------------------------- */

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         SequinWindow  *self)
{
  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      GSList *files = gdk_file_list_get_files (g_value_get_boxed (value));

      for (GSList *l = files; l != NULL; l = l->next)
        sequin_window_open_file (self, l->data, FALSE);
      g_slist_free (files);
      return files != NULL;
    }
  if (G_VALUE_HOLDS (value, G_TYPE_FILE))
    {
      sequin_window_open_file (self, g_value_get_object (value), FALSE);
      return TRUE;
    }
  return FALSE;
}

/* ---- GObject --------------------------------------------------------------- */

static void
sequin_window_dispose (GObject *object)
{
  SequinWindow *self = (SequinWindow *)object;

  g_cancellable_cancel (self->cancellable);
  if (self->playback != NULL)
    {
      sequin_playback_pause (self->playback);
      g_signal_handlers_disconnect_by_data (self->playback, self);
      g_clear_object (&self->playback);
    }
  if (self->document_signals != NULL)
    g_signal_group_set_target (self->document_signals, NULL);
  g_clear_object (&self->document_signals);
  if (self->message_dialog != NULL)
    {
      g_object_remove_weak_pointer (G_OBJECT (self->message_dialog), (gpointer *) &self->message_dialog);
      self->message_dialog = NULL;
    }
  if (self->edit_dialog != NULL)
    {
      g_object_remove_weak_pointer (G_OBJECT (self->edit_dialog), (gpointer *) &self->edit_dialog);
      self->edit_dialog = NULL;
    }
  if (self->file_chooser != NULL)
    {
      gtk_native_dialog_destroy (self->file_chooser);
      g_clear_object (&self->file_chooser);
    }
  /* no gtk_widget_dispose_template (): GtkWindow unparents its own child and
   * titlebar, and would find them gone (GTK 4.8) */
  g_clear_object (&self->document);
  g_clear_handle_id (&self->layout_idle, g_source_remove);
  g_clear_object (&self->settings);
  g_clear_object (&self->structure_lines);

  G_OBJECT_CLASS (sequin_window_parent_class)->dispose (object);
}

static void
sequin_window_finalize (GObject *object)
{
  SequinWindow *self = (SequinWindow *)object;

  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (sequin_window_parent_class)->finalize (object);
}

static void
sequin_window_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  SequinWindow *self = SEQUIN_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SIDEBAR_VISIBLE:
      /* asked for by the property action before the template is built */
      g_value_set_boolean (value, self->sidebar == NULL || gtk_widget_get_visible (self->sidebar));
      break;
    case PROP_PLAYING:
      g_value_set_boolean (value, self->playback != NULL && sequin_playback_get_playing (self->playback));
      break;
    case PROP_JOINT_HIERARCHY:
      g_value_set_boolean (value, self->joint_tree == NULL || sequin_joint_tree_get_hierarchy (self->joint_tree));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sequin_window_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  SequinWindow *self = SEQUIN_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SIDEBAR_VISIBLE:
      if (gtk_widget_get_visible (self->sidebar) != g_value_get_boolean (value))
        {
          gtk_widget_set_visible (self->sidebar, g_value_get_boolean (value));
          if (self->settings != NULL)
            g_settings_set_boolean (self->settings, "sidebar-visible", g_value_get_boolean (value));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_PLAYING:
      sequin_playback_set_playing (self->playback, g_value_get_boolean (value));
      break;
    case PROP_JOINT_HIERARCHY:
      if (sequin_joint_tree_get_hierarchy (self->joint_tree) != g_value_get_boolean (value))
        {
          sequin_joint_tree_set_hierarchy (self->joint_tree, g_value_get_boolean (value));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sequin_window_class_init (SequinWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = sequin_window_dispose;
  object_class->finalize = sequin_window_finalize;
  object_class->get_property = sequin_window_get_property;
  object_class->set_property = sequin_window_set_property;
  window_class->close_request = sequin_window_close_request;

  /* the properties and validation panels beside the tree */
  properties[PROP_SIDEBAR_VISIBLE] =
    g_param_spec_boolean ("sidebar-visible", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* the animation plays in a loop (win.play) */
  properties[PROP_PLAYING] =
    g_param_spec_boolean ("playing", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* the joint tree shows child joints under their parents (win.joint-hierarchy) */
  properties[PROP_JOINT_HIERARCHY] =
    g_param_spec_boolean ("joint-hierarchy", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (SEQUIN_TYPE_JOINT_TREE);
  g_type_ensure (SEQUIN_TYPE_PROPERTIES_PANEL);
  g_type_ensure (SEQUIN_TYPE_VALIDATION_PANEL);
  g_type_ensure (SEQUIN_TYPE_POSE_LIST);
  g_type_ensure (SEQUIN_TYPE_PREVIEW);
  g_type_ensure (SEQUIN_TYPE_OPEN_PROGRESS);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sequin/Sequin/sequin-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, undo_button);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, redo_button);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, save_as_button);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, edit_menu_button);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, primary_menu);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, open_progress);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, joint_tree);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, structure_view);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, timeline_box);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, format_value);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, model_value);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, root_value);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, joints_value);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, keys_value);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, frames_key);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, frames_value);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, duration_value);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, warnings_box);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, warnings_label);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, header_paned);
  gtk_widget_class_bind_template_callback (widget_class, fit_clicked_cb);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, content_paned);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, sidebar_paned);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, sidebar_stack);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, properties_panel);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, validation_panel);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, pose_list);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, preview);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, play_button);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, play_time_label);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, loop_button);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, rate_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SequinWindow, context_menu);
  gtk_widget_class_bind_template_callback (widget_class, view_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, tree_selection_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, finding_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, pose_selected_cb);

  _sequin_window_class_actions_init (klass);
}

static GSettings *
settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  /* running uninstalled without the compiled schema: remember nothing */
  if (source == NULL || (schema = g_settings_schema_source_lookup (source, APP_ID, TRUE)) == NULL)
    return NULL;
  return g_settings_new (APP_ID);
}

static void
build_save_as_menu (SequinWindow *self)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) section = g_menu_new ();
  gsize n = 0;
  const SqFormat * const *formats = sq_formats (&n);

  /* one entry per format the core can write */
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *label = NULL;
      g_autoptr(GMenuItem) item = NULL;

      if (!sq_format_can_write (formats[i]))
        continue;
      /* TRANSLATORS: a menu item that saves in a format, like “ActiveWorlds binary SEQ…” */
      label = g_strdup_printf (_("%s…"), sq_format_get_name (formats[i]));
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "win.save-as", g_variant_new_string (formats[i]->id));
      g_menu_append_item (section, item);
    }
  g_menu_append_section (menu, _("Save As"), G_MENU_MODEL (section));
  gtk_menu_button_set_menu_model (self->save_as_button, G_MENU_MODEL (menu));
  /* the same list in the main menu, so F10 reaches it too */
  if (self->primary_menu != NULL)
    {
      g_autoptr(GMenu) first = g_menu_new ();

      g_menu_append_submenu (first, _("Save _As"), G_MENU_MODEL (section));
      g_menu_prepend_section (self->primary_menu, NULL, G_MENU_MODEL (first));
    }
}

static void
structure_setup_cb (GtkSignalListItemFactory *factory,
                    GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "monospace");
  gtk_list_item_set_child (item, label);
}

static void
structure_bind_cb (GtkSignalListItemFactory *factory,
                   GtkListItem              *item)
{
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      gtk_string_object_get_string (gtk_list_item_get_item (item)));
}

static void
setup_structure_view (SequinWindow *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  self->structure_lines = sequin_line_model_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (structure_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (structure_bind_cb), NULL);
  gtk_list_view_set_factory (self->structure_view, factory);
  gtk_list_view_set_model (self->structure_view,
                           GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->structure_lines)))));
}

static void
sequin_window_init (SequinWindow *self)
{
  GtkDropTarget *target;
  GType types[] = { GDK_TYPE_FILE_LIST, G_TYPE_FILE };

  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  self->settings = settings_new ();
  self->sidebar_width = DEFAULT_SIDEBAR_WIDTH;
  self->timeline_height = DEFAULT_TIMELINE_HEIGHT;
  if (self->settings != NULL)
    {
      gtk_paned_set_position (self->header_paned, g_settings_get_int (self->settings, "header-width"));
      self->sidebar_width = g_settings_get_int (self->settings, "sidebar-width");
      self->timeline_height = g_settings_get_int (self->settings, "timeline-height");
      gtk_window_set_default_size (GTK_WINDOW (self),
                                   g_settings_get_int (self->settings, "window-width"),
                                   g_settings_get_int (self->settings, "window-height"));
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      gtk_widget_set_visible (self->sidebar, g_settings_get_boolean (self->settings, "sidebar-visible"));
    }

  setup_structure_view (self);

  self->timeline = sequin_timeline_new ();
  gtk_widget_set_vexpand (self->timeline, TRUE);
  gtk_widget_set_hexpand (self->timeline, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->timeline),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline"),
                                  -1);
  gtk_box_append (self->timeline_box, self->timeline);
  /* Compare With… fills and shows it */
  self->diff_lane = sequin_diff_lane_new (SEQUIN_TIMELINE (self->timeline));
  gtk_widget_set_visible (self->diff_lane, FALSE);
  gtk_box_append (self->timeline_box, self->diff_lane);
  g_signal_connect_swapped (self->diff_lane, "notify::visible", G_CALLBACK (diff_lane_visible_cb), self);
  g_signal_connect_object (self->timeline, "key-selected", G_CALLBACK (timeline_key_selected_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "joint-selected", G_CALLBACK (timeline_joint_selected_cb),
                           self, G_CONNECT_SWAPPED);

  /* the playhead: the timeline shows and moves the playback's position */
  self->playback = sequin_playback_new (GTK_WIDGET (self));
  g_object_bind_property (self->playback, "position", self->timeline, "time",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (self->playback, "notify::position", G_CALLBACK (playhead_moved_cb), self);
  g_signal_connect_swapped (self->playback, "notify::playing", G_CALLBACK (playing_cb), self);
  g_object_bind_property (self->loop_button, "active", self->playback, "loop",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property_full (self->playback, "rate", self->rate_dropdown, "selected",
                               G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE, rate_to_selected, selected_to_rate,
                               NULL, NULL);

  self->document_signals = g_signal_group_new (SEQUIN_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "changed", G_CALLBACK (document_changed_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::modified", G_CALLBACK (document_notify_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::title", G_CALLBACK (document_notify_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::file", G_CALLBACK (document_notify_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::busy", G_CALLBACK (document_notify_cb), self);

  sequin_joint_tree_set_context_menu (self->joint_tree, self->context_menu);
  build_save_as_menu (self);
  sequin_posing_window_init (self);
  _sequin_window_keys_init (self);

  target = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);
  gtk_drop_target_set_gtypes (target, types, G_N_ELEMENTS (types));
  g_signal_connect (target, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));

  /* the sidebar and the timeline keep their sizes, the tree takes the rest:
   * placed once the panes have a size (see place_panes) */
  g_signal_connect_object (self->sidebar_paned, "notify::max-position", G_CALLBACK (panes_allocated_cb),
                           self, G_CONNECT_SWAPPED);

  set_document (self, NULL);
  /* one name per control, check buttons with an action (sequin-utils.h) */
  sequin_accessible_single_names (GTK_WIDGET (self));
}

SequinWindow *
sequin_window_new (SequinApplication *application)
{
  SequinWindow *self = g_object_new (SEQUIN_TYPE_WINDOW,
                                     "application", application,
                                     NULL);
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (self));

  /* the application gave it the shortcuts window (gtk/help-overlay.ui) */
  if (overlay != NULL)
    sequin_accessible_single_names (GTK_WIDGET (overlay));
  return self;
}

SequinDocument *
sequin_window_get_document (SequinWindow *self)
{
  g_return_val_if_fail (SEQUIN_IS_WINDOW (self), NULL);
  return self->document;
}

gboolean
sequin_window_is_empty (SequinWindow *self)
{
  g_return_val_if_fail (SEQUIN_IS_WINDOW (self), FALSE);
  return self->document == NULL;
}

/* ---- Following the document -------------------------------------------------- */

/* `group` follows the window's document (its own signal group's target) */
static void
rebind_group (GSignalGroup *group,
              GObject      *instance)
{
  g_signal_group_set_target (group, instance);
}

GSignalGroup *
_sequin_window_follow_document (SequinWindow *self,
                                GCallback     changed,
                                gpointer      data)
{
  GSignalGroup *group = g_signal_group_new (SEQUIN_TYPE_DOCUMENT);
  g_autoptr(GObject) target = g_signal_group_dup_target (self->document_signals);

  /* handlers first: a group takes none once it has a target */
  g_signal_group_connect_swapped (group, "changed", changed, data);
  g_signal_group_set_target (group, target);
  g_signal_connect_object (self->document_signals, "bind", G_CALLBACK (rebind_group), group, G_CONNECT_SWAPPED);
  return group;
}
