/* sequin-motion-dialog.c: the Animation menu's dialogs
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One dialog for the seven motion edits of the core (sq-motion.h): a line
 * saying what the edit does, the numbers it needs (checked as they are
 * typed, so Apply is only enabled for values that make sense, with the
 * reason shown otherwise), and Apply. The core checks again and has the
 * last word; its refusal is shown here. The edit goes through the
 * document, so Undo reverts it.
 */
#define G_LOG_DOMAIN "sequin-motion-dialog"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sequin-compare-window.h"
#include "sequin-live-export.h"
#include "sequin-motion-dialog.h"
#include "sequin-play-over.h"
#include "sequin-utils.h"
#include "sequin-window-private.h"
#include "sequin-window.h"

#define N_FIELDS 2

struct _SequinMotionDialog
{
  GtkWindow         parent_instance;

  GtkLabel         *description;
  GtkLabel         *labels[N_FIELDS];
  GtkEntry         *entries[N_FIELDS];
  GtkLabel         *message_label;
  GtkButton        *apply_button;
  GtkButton        *cancel_button;
  GtkCheckButton   *frames_toggle;   /* trim: the fields count frames */
  GtkButton        *playhead_button; /* trim: the start at the playhead */

  SequinDocument   *document;
  double            playhead;         /* seconds */
  SequinMotionKind  kind;
  guint             n_fields;
  gboolean          valid;
  gboolean          done;       /* applied; the dialog shows the report */
  char             *message;
};

G_DEFINE_FINAL_TYPE (SequinMotionDialog, sequin_motion_dialog, GTK_TYPE_WINDOW)

/* What each kind asks: its action parameter, title, description, fields */
static const struct
{
  const char *nick;
  const char *title;
  const char *description;
  const char *fields[N_FIELDS];
} kinds[SEQUIN_MOTION_N_KINDS] = {
  [SEQUIN_MOTION_MIRROR] = { "mirror", N_("Mirror"),
    N_("Swap the left and right joints and reflect the whole motion across the body's middle plane."),
    { NULL, NULL } },
  [SEQUIN_MOTION_RESAMPLE] = { "resample", N_("Resample"),
    N_("Put keys on an even grid from the first key to the last, the values as the animation plays them."),
    { N_("_Frames per second"), NULL } },
  [SEQUIN_MOTION_SPEED] = { "speed", N_("Change Speed"),
    N_("Play faster or slower: 2 plays twice as fast, 0.5 half as fast. Loop points and ease follow."),
    { N_("_Factor"), NULL } },
  [SEQUIN_MOTION_TRIM] = { "trim", N_("Trim"),
    N_("Keep the part between two times (seconds, or frames), with keys at both cuts; it then starts at 0."),
    { N_("_Start"), N_("_End") } },
  [SEQUIN_MOTION_REVERSE] = { "reverse", N_("Reverse"),
    N_("Play the animation backwards. The loop points follow."),
    { NULL, NULL } },
  [SEQUIN_MOTION_REDUCE] = { "reduce", N_("Reduce Keys"),
    N_("Remove the keys that the others give back within these limits, at every key's time. "
       "The first and last keys stay."),
    { N_("_Rotation (degrees)"), N_("_Translation (file units)") } },
  [SEQUIN_MOTION_CLOSE_LOOP] = { "close-loop", N_("Close the Loop"),
    N_("End on the first pose: at the loop's end (or the animation's), every joint takes its pose from "
       "the loop's start (or the animation's), so the loop has no seam."),
    { NULL, NULL } },
  [SEQUIN_MOTION_SKIP_FRAMES] = { "skip-frames", N_("Skip First Frames"),
    N_("Drop the first frames: a BVH's frame 0 is often a reference pose that the Second Life upload does not "
       "play (the validation panel tells)."),
    { N_("_Frames"), NULL } },
};

static void
set_message (SequinMotionDialog *self,
             const char         *message)
{
  g_free (self->message);
  self->message = g_strdup (message);
  gtk_label_set_text (self->message_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), message != NULL);
}

/* The number in field `f`, or FALSE */
static gboolean
field_number (SequinMotionDialog *self,
              guint               f,
              double             *out)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entries[f]));
  g_autofree char *trimmed = g_strstrip (g_strdup (text));
  char *end = NULL;

  if (trimmed[0] == '\0')
    return FALSE;
  *out = g_ascii_strtod (trimmed, &end);
  return *end == '\0' && isfinite (*out);
}

/* The clip's frame rate for the trim's frames (30 when it has none) */
static double
trim_fps (SequinMotionDialog *self)
{
  const SqClip *clip = sequin_document_get_clip (self->document);

  return clip != NULL && clip->fps > 0 && isfinite (clip->fps) ? clip->fps : 30;
}

static gboolean
in_frames (SequinMotionDialog *self)
{
  return self->kind == SEQUIN_MOTION_TRIM && gtk_check_button_get_active (self->frames_toggle);
}

/* A trim field as seconds: frames divided by the rate; a time shown
 * rounded (3 decimals) that is the clip's end is its end exactly */
static gboolean
field_seconds (SequinMotionDialog *self,
               guint               f,
               double             *out)
{
  const SqClip *clip = sequin_document_get_clip (self->document);

  if (!field_number (self, f, out))
    return FALSE;
  /* only Trim's fields are times; the others are numbers as typed */
  if (self->kind != SEQUIN_MOTION_TRIM)
    return TRUE;
  if (in_frames (self))
    *out /= trim_fps (self);
  if (clip != NULL && fabs (*out - clip->duration) < (in_frames (self) ? 1e-6 : 0.0005))
    *out = clip->duration;
  return TRUE;
}

/* Checks the fields; sets the message and Apply's state */
static void
validate (SequinMotionDialog *self)
{
  const SqClip *clip = sequin_document_get_clip (self->document);
  g_autofree char *message = NULL;
  double v[N_FIELDS] = { 0, 0 };

  if (self->done)
    return;
  for (guint f = 0; f < self->n_fields && message == NULL; f++)
    if (!field_seconds (self, f, &v[f]))
      message = g_strdup_printf (_("%s is not a number"),
                                 gtk_label_get_text (self->labels[f]));
  if (message == NULL && clip == NULL)
    message = g_strdup (_("There is no animation to edit"));
  if (message == NULL)
    switch (self->kind)
      {
      case SEQUIN_MOTION_RESAMPLE:
        if (!(v[0] > 0))
          message = g_strdup (_("The frame rate must be above 0"));
        break;
      case SEQUIN_MOTION_SPEED:
        if (!(v[0] > 0))
          message = g_strdup (_("The factor must be above 0"));
        else if (v[0] == 1)
          message = g_strdup (_("A factor of 1 plays at the same speed: nothing would change"));
        break;
      case SEQUIN_MOTION_TRIM:
        if (v[0] < 0 || v[1] > clip->duration)
          {
            g_autofree char *end = sq_format_seconds (clip->duration);

            message = g_strdup_printf (_("The times must lie within the animation (0 to %s)"), end);
          }
        else if (!(v[0] < v[1]))
          message = g_strdup (_("The start must come before the end"));
        break;
      case SEQUIN_MOTION_REDUCE:
        if (v[0] < 0 || v[1] < 0)
          message = g_strdup (_("The limits must be 0 or more"));
        break;
      case SEQUIN_MOTION_SKIP_FRAMES:
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(SqEdit) edit = NULL;

          if (v[0] != floor (v[0]) || v[0] < 1 || v[0] > G_MAXUINT)
            message = g_strdup (_("The number of frames must be a whole number from 1"));
          else if ((edit = sq_edit_skip_frames_new (clip, (guint) v[0], &error)) == NULL)
            message = g_strdup (error->message);
        }
        break;
      default:
        break;
      }
  self->valid = message == NULL;
  set_message (self, message);
  gtk_widget_set_sensitive (GTK_WIDGET (self->apply_button), self->valid);
}

static SqEdit *
make_edit (SequinMotionDialog *self)
{
  double v[N_FIELDS] = { 0, 0 };

  for (guint f = 0; f < self->n_fields; f++)
    field_seconds (self, f, &v[f]);
  switch (self->kind)
    {
    case SEQUIN_MOTION_MIRROR: return sq_edit_mirror_new ();
    case SEQUIN_MOTION_RESAMPLE: return sq_edit_resample_new (v[0]);
    case SEQUIN_MOTION_SPEED: return sq_edit_speed_new (v[0]);
    case SEQUIN_MOTION_TRIM: return sq_edit_trim_new (v[0], v[1]);
    case SEQUIN_MOTION_REVERSE: return sq_edit_reverse_new ();
    case SEQUIN_MOTION_REDUCE: return sq_edit_reduce_new (v[0], v[1]);
    case SEQUIN_MOTION_CLOSE_LOOP: return sq_edit_close_loop_new ();
    case SEQUIN_MOTION_SKIP_FRAMES:
      return sq_edit_skip_frames_new (sequin_document_get_clip (self->document), (guint) v[0], NULL);
    default: g_assert_not_reached ();
    }
}

gboolean
sequin_motion_dialog_apply (SequinMotionDialog *self,
                            GError            **error)
{
  g_autoptr(GError) local = NULL;
  SqEdit *edit;
  const char *report;

  g_return_val_if_fail (SEQUIN_IS_MOTION_DIALOG (self), FALSE);
  validate (self);
  if (!self->valid || self->done)
    {
      g_set_error_literal (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                           self->message != NULL ? self->message : _("Nothing to apply"));
      return FALSE;
    }
  edit = make_edit (self);
  if (!sequin_document_apply (self->document, edit, &local))
    {
      set_message (self, local->message);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  /* the document keeps the edit for undo: its report is still there */
  report = sq_edit_get_report (edit);
  if (report == NULL)
    {
      gtk_window_destroy (GTK_WINDOW (self));
      return TRUE;
    }
  self->done = TRUE;
  set_message (self, report);
  gtk_widget_set_visible (GTK_WIDGET (self->apply_button), FALSE);
  gtk_button_set_label (self->cancel_button, _("_Close"));
  sequin_accessible_single_names (GTK_WIDGET (self->cancel_button));
  for (guint f = 0; f < self->n_fields; f++)
    gtk_widget_set_sensitive (GTK_WIDGET (self->entries[f]), FALSE);
  return TRUE;
}

static void
apply_clicked (SequinMotionDialog *self)
{
  sequin_motion_dialog_apply (self, NULL);
}

static void
entry_changed (SequinMotionDialog *self)
{
  validate (self);
}

/* the trim's fields in the other unit: 2.033 s ⇄ frame 61 */
static void
frames_toggled (SequinMotionDialog *self)
{
  double fps = trim_fps (self);

  for (guint f = 0; f < self->n_fields; f++)
    {
      double v;
      g_autofree char *text = NULL;

      if (!field_number (self, f, &v))
        continue;
      if (in_frames (self))
        text = sq_format_frame (v * fps);
      else
        text = sq_format_seconds_value (v / fps);
      gtk_editable_set_text (GTK_EDITABLE (self->entries[f]), text);
    }
  validate (self);
}

/* the trim starts at the playhead */
static void
playhead_clicked (SequinMotionDialog *self)
{
  g_autofree char *text = in_frames (self) ? sq_format_frame (self->playhead * trim_fps (self))
                                           : sq_format_seconds_value (self->playhead);

  gtk_editable_set_text (GTK_EDITABLE (self->entries[0]), text);
}

static void
sequin_motion_dialog_dispose (GObject *object)
{
  SequinMotionDialog *self = SEQUIN_MOTION_DIALOG (object);

  g_clear_object (&self->document);
  g_clear_pointer (&self->message, g_free);
  G_OBJECT_CLASS (sequin_motion_dialog_parent_class)->dispose (object);
}

static void
sequin_motion_dialog_class_init (SequinMotionDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sequin_motion_dialog_dispose;
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
sequin_motion_dialog_init (SequinMotionDialog *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
  gtk_window_set_resizable (GTK_WINDOW (self), FALSE);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);

  self->description = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->description, TRUE);
  gtk_label_set_max_width_chars (self->description, 48);
  gtk_label_set_xalign (self->description, 0);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->description));

  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  for (guint f = 0; f < N_FIELDS; f++)
    {
      self->labels[f] = GTK_LABEL (gtk_label_new (NULL));
      gtk_label_set_xalign (self->labels[f], 1);
      self->entries[f] = GTK_ENTRY (gtk_entry_new ());
      gtk_entry_set_activates_default (self->entries[f], TRUE);
      gtk_widget_set_hexpand (GTK_WIDGET (self->entries[f]), TRUE);
      /* the label names the entry for assistive technologies */
      gtk_label_set_mnemonic_widget (self->labels[f], GTK_WIDGET (self->entries[f]));
      gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->labels[f]), 0, (int) f, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->entries[f]), 1, (int) f, 1, 1);
      g_signal_connect_swapped (self->entries[f], "changed", G_CALLBACK (entry_changed), self);
    }
  gtk_box_append (GTK_BOX (box), grid);

  /* the trim's unit and its start at the playhead */
  {
    GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

    self->frames_toggle = GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic (_("In _frames")));
    sequin_set_tooltip (GTK_WIDGET (self->frames_toggle), _("Type the start and end as frame numbers"));
    g_signal_connect_swapped (self->frames_toggle, "toggled", G_CALLBACK (frames_toggled), self);
    self->playhead_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("From the _Playhead")));
    sequin_set_tooltip (GTK_WIDGET (self->playhead_button), _("Start where the playhead stands"));
    g_signal_connect_swapped (self->playhead_button, "clicked", G_CALLBACK (playhead_clicked), self);
    gtk_widget_set_halign (GTK_WIDGET (self->playhead_button), GTK_ALIGN_END);
    gtk_widget_set_hexpand (GTK_WIDGET (self->playhead_button), TRUE);
    gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->frames_toggle));
    gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->playhead_button));
    gtk_widget_set_visible (row, FALSE);
    gtk_box_append (GTK_BOX (box), row);
  }

  self->message_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->message_label, TRUE);
  gtk_label_set_xalign (self->message_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->message_label), "dim-label");
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->message_label));

  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  self->cancel_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Cancel")));
  self->apply_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Apply")));
  gtk_widget_add_css_class (GTK_WIDGET (self->apply_button), "suggested-action");
  g_signal_connect_swapped (self->cancel_button, "clicked", G_CALLBACK (gtk_window_destroy), self);
  g_signal_connect_swapped (self->apply_button, "clicked", G_CALLBACK (apply_clicked), self);
  gtk_box_append (GTK_BOX (buttons), GTK_WIDGET (self->cancel_button));
  gtk_box_append (GTK_BOX (buttons), GTK_WIDGET (self->apply_button));
  gtk_box_append (GTK_BOX (box), buttons);

  gtk_window_set_child (GTK_WINDOW (self), box);
  gtk_window_set_default_widget (GTK_WINDOW (self), GTK_WIDGET (self->apply_button));
}

/* The values a field starts with: what leaves the clip as it is, or the
 * usual choice */
static char *
initial_text (const SqClip    *clip,
              SequinMotionKind kind,
              guint            field)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  double v = 0;

  switch (kind)
    {
    case SEQUIN_MOTION_RESAMPLE: v = clip != NULL && clip->fps > 0 ? sq_rate_as_shown (clip->fps) : 30; break;
    case SEQUIN_MOTION_SPEED: v = 1; break;
    case SEQUIN_MOTION_TRIM:
      /* the times as the window shows them (3 decimals) */
      return field == 0 || clip == NULL ? g_strdup ("0") : sq_format_seconds_value (clip->duration);
    case SEQUIN_MOTION_REDUCE: v = field == 0 ? 0.5 : 0; break;
    case SEQUIN_MOTION_SKIP_FRAMES: v = 1; break;
    default: break;
    }
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%g", v));
}

SequinMotionDialog *
sequin_motion_dialog_new (GtkWindow        *parent,
                          SequinDocument   *document,
                          SequinMotionKind  kind)
{
  SequinMotionDialog *self;
  const SqClip *clip;

  g_return_val_if_fail (SEQUIN_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (kind < SEQUIN_MOTION_N_KINDS, NULL);

  self = g_object_new (SEQUIN_TYPE_MOTION_DIALOG, "transient-for", parent,
                       "title", _(kinds[kind].title), NULL);
  self->document = g_object_ref (document);
  self->kind = kind;
  clip = sequin_document_get_clip (document);
  gtk_label_set_text (self->description, _(kinds[kind].description));
  for (guint f = 0; f < N_FIELDS; f++)
    {
      gboolean used = kinds[kind].fields[f] != NULL;

      gtk_widget_set_visible (GTK_WIDGET (self->labels[f]), used);
      gtk_widget_set_visible (GTK_WIDGET (self->entries[f]), used);
      if (!used)
        continue;
      self->n_fields = f + 1;
      gtk_label_set_text_with_mnemonic (self->labels[f], _(kinds[kind].fields[f]));
      {
        g_autofree char *text = initial_text (clip, kind, f);
        gtk_editable_set_text (GTK_EDITABLE (self->entries[f]), text);
      }
    }
  gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (self->frames_toggle)), kind == SEQUIN_MOTION_TRIM);
  validate (self);
  sequin_accessible_single_names (GTK_WIDGET (self));
  return self;
}

void
sequin_motion_dialog_set_playhead (SequinMotionDialog *self,
                                   double              seconds)
{
  g_return_if_fail (SEQUIN_IS_MOTION_DIALOG (self));
  self->playhead = seconds;
}

void
sequin_motion_dialog_set_in_frames (SequinMotionDialog *self,
                                    gboolean            frames)
{
  g_return_if_fail (SEQUIN_IS_MOTION_DIALOG (self));
  gtk_check_button_set_active (self->frames_toggle, frames);
}

void
sequin_motion_dialog_start_at_playhead (SequinMotionDialog *self)
{
  g_return_if_fail (SEQUIN_IS_MOTION_DIALOG (self));
  playhead_clicked (self);
}

guint
sequin_motion_dialog_get_n_fields (SequinMotionDialog *self)
{
  return self->n_fields;
}

void
sequin_motion_dialog_set_text (SequinMotionDialog *self,
                               guint               field,
                               const char         *text)
{
  g_return_if_fail (field < self->n_fields);
  gtk_editable_set_text (GTK_EDITABLE (self->entries[field]), text);
}

const char *
sequin_motion_dialog_get_text (SequinMotionDialog *self,
                               guint               field)
{
  g_return_val_if_fail (field < self->n_fields, NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->entries[field]));
}

gboolean
sequin_motion_dialog_can_apply (SequinMotionDialog *self)
{
  return self->valid && !self->done;
}

const char *
sequin_motion_dialog_get_message (SequinMotionDialog *self)
{
  return self->message;
}

/* ---- the window's action ---- */

static void
dialog_destroyed (GtkWidget *dialog,
                  GtkWidget *window)
{
  if (g_object_get_data (G_OBJECT (window), "sequin-motion-dialog") == dialog)
    g_object_set_data (G_OBJECT (window), "sequin-motion-dialog", NULL);
}

static void
motion_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  const char *nick = g_variant_get_string (param, NULL);
  SequinDocument *document = sequin_window_get_document (SEQUIN_WINDOW (widget));
  SequinMotionDialog *dialog;

  if (document == NULL || sequin_document_get_clip (document) == NULL)
    return;
  if (g_str_equal (nick, "compare"))
    {
      sequin_compare_window_choose (SEQUIN_WINDOW (widget));
      return;
    }
  if (g_str_equal (nick, "play-over"))
    {
      sequin_play_over_choose (SEQUIN_WINDOW (widget));
      return;
    }
  if (g_str_equal (nick, "export-continuously"))
    {
      sequin_live_export_choose (SEQUIN_WINDOW (widget));
      return;
    }
  for (guint k = 0; k < SEQUIN_MOTION_N_KINDS; k++)
    if (g_str_equal (kinds[k].nick, nick))
      {
        /* one at a time: a new one replaces the one open */
        dialog = g_object_get_data (G_OBJECT (widget), "sequin-motion-dialog");
        if (dialog != NULL)
          gtk_window_destroy (GTK_WINDOW (dialog));
        dialog = sequin_motion_dialog_new (GTK_WINDOW (widget), document, k);
        sequin_motion_dialog_set_playhead (dialog, sequin_timeline_get_time (SEQUIN_TIMELINE (SEQUIN_WINDOW (widget)->timeline)));
        g_object_set_data (G_OBJECT (widget), "sequin-motion-dialog", dialog);
        g_signal_connect_object (dialog, "destroy", G_CALLBACK (dialog_destroyed), widget, 0);
        gtk_window_present (GTK_WINDOW (dialog));
        return;
      }
  g_warning ("no motion edit “%s”", nick);
}

void
sequin_motion_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.motion", "s", motion_action);
}
