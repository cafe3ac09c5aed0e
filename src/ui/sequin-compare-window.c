/* sequin-compare-window.c: Compare With…
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's animation against another file (the reference) through the
 * core's comparison (sq_diff_clips: each joint's largest rotation and
 * translation difference over both clips' key times; two formats meet in
 * Second Life's space). While it is open: a summary line and a row per
 * joint, the largest difference first (activating a row selects its joint
 * and the time of its largest difference in the main window); the
 * reference as a ghost in the preview; under the timeline, the selected
 * joint's difference over time (sq_diff_joint_curve). All of it is
 * computed again after every edit, undo and redo of the document. Closing
 * the window (or Stop Comparing) ends the comparison.
 */
#define G_LOG_DOMAIN "sequin-compare-window"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sequin-compare-window.h"
#include "sequin-timeline.h"
#include "sequin-utils.h"
#include "sequin-window-private.h"

/* the lane's samples: the clip's frames, at most this many */
#define LANE_MAX_SAMPLES 4000

struct _SequinCompareWindow
{
  GtkWindow     parent_instance;

  GtkLabel     *summary;
  GtkListBox   *list;
  GtkWidget    *ghost_toggle;
  SequinWindow *window;       /* weak: the compare window goes with it */
  GSignalGroup *document_signals;
  SqClip       *reference;    /* the file compared with, as read */
  char         *reference_name;
  SqDiff       *diff;         /* NULL when the comparison failed */
  GArray       *order;        /* guint: row → index into diff->joints */
  GPtrArray    *texts;        /* char *: each row's text */
  char         *summary_text;
};

G_DEFINE_FINAL_TYPE (SequinCompareWindow, sequin_compare_window, GTK_TYPE_WINDOW)

static double
worst (const SqJointDiff *d)
{
  return d->in_a && d->in_b ? d->rotation : G_MAXDOUBLE;   /* a missing joint first */
}

static gint
by_difference (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const SqDiff *diff = user_data;
  const SqJointDiff *da = &g_array_index (diff->joints, SqJointDiff, *(const guint *) a);
  const SqJointDiff *db = &g_array_index (diff->joints, SqJointDiff, *(const guint *) b);
  double wa = worst (da), wb = worst (db);

  if (wa != wb)
    return wa > wb ? -1 : 1;
  if (da->translation != db->translation)
    return da->translation > db->translation ? -1 : 1;
  return *(const guint *) a < *(const guint *) b ? -1 : *(const guint *) a > *(const guint *) b;   /* file order */
}

static char *
row_text (const SqJointDiff *d,
          const char        *other_name)
{
  if (!d->in_b)
    return g_strdup_printf (_("%s: only in this animation"), d->name);
  if (!d->in_a)
    return g_strdup_printf (_("%s: only in %s"), d->name, other_name);
  return g_strdup_printf (_("%s: rotation %.3g° at %.3f s, translation %.3g at %.3f s"), d->name, d->rotation,
                          d->rotation_time, d->translation, d->translation_time);
}

static const SqClip *
document_clip (SequinCompareWindow *self)
{
  SequinDocument *document = self->window != NULL ? sequin_window_get_document (self->window) : NULL;

  return document != NULL ? sequin_document_get_clip (document) : NULL;
}

void
sequin_compare_window_activate_row (SequinCompareWindow *self,
                                    guint                row)
{
  const SqJointDiff *d;
  const SqClip *clip;
  gssize joint;

  g_return_if_fail (row < self->order->len);
  if ((clip = document_clip (self)) == NULL || self->diff == NULL)
    return;
  d = &g_array_index (self->diff->joints, SqJointDiff, g_array_index (self->order, guint, row));
  joint = sq_diff_find_joint (clip, d->name);
  if (joint >= 0)
    sequin_joint_tree_select_joint (self->window->joint_tree, (gsize) joint);
  if (d->in_a && d->in_b)
    sequin_timeline_set_time (SEQUIN_TIMELINE (self->window->timeline),
                              d->rotation > 0 || d->translation == 0 ? d->rotation_time : d->translation_time);
}

static void
row_activated (SequinCompareWindow *self,
               GtkListBoxRow       *row)
{
  sequin_compare_window_activate_row (self, (guint) gtk_list_box_row_get_index (row));
}

guint
sequin_compare_window_get_n_rows (SequinCompareWindow *self)
{
  return self->order->len;
}

const char *
sequin_compare_window_get_row_text (SequinCompareWindow *self,
                                    guint                row)
{
  g_return_val_if_fail (row < self->texts->len, NULL);
  return self->texts->pdata[row];
}

const char *
sequin_compare_window_get_summary (SequinCompareWindow *self)
{
  return self->summary_text;
}

/* ---- the difference lane ---- */

/* The joint the lane shows: the one selected in the window when both
 * clips have it, else the one most apart */
static const SqJointDiff *
lane_joint (SequinCompareWindow *self,
            const SqClip        *clip)
{
  gssize current = sequin_joint_tree_get_current_joint (self->window->joint_tree);
  const SqJointDiff *first = NULL;

  for (guint r = 0; r < self->order->len; r++)
    {
      const SqJointDiff *d = &g_array_index (self->diff->joints, SqJointDiff, g_array_index (self->order, guint, r));

      if (!d->in_a || !d->in_b)
        continue;
      if (current >= 0 && sq_diff_find_joint (clip, d->name) == current)
        return d;
      if (first == NULL)
        first = d;
    }
  return first;
}

static int
by_value (gconstpointer a,
          gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* ascending, without repeats: the clip's frames over both durations and
 * both joints' key times (where the comparison finds its largest value) */
static GArray *
lane_times (const SqClip *clip,
            const SqClip *reference,
            const char   *name,
            double        duration)
{
  GArray *times = g_array_new (FALSE, FALSE, sizeof (double));
  const SqClip *clips[2] = { clip, reference };
  double fps = clip->fps > 0 && isfinite (clip->fps) ? clip->fps : 30;
  gsize n = (gsize) MIN (floor (duration * fps + 1e-6) + 1, (double) LANE_MAX_SAMPLES);
  guint kept = 0;

  n = MAX (n, 2);
  for (gsize i = 0; i < n; i++)
    {
      double t = duration * i / (n - 1);
      g_array_append_val (times, t);
    }
  for (int c = 0; c < 2; c++)
    {
      gssize j = sq_diff_find_joint (clips[c], name);

      for (int ch = 0; j >= 0 && ch < SQ_N_CHANNELS; ch++)
        {
          const SqTrack *track = &clips[c]->joints[j].tracks[ch];

          for (gsize k = 0; k < track->n_keys && k < LANE_MAX_SAMPLES; k++)
            {
              double t = sq_track_time (track, k);
              g_array_append_val (times, t);
            }
        }
    }
  g_array_sort (times, by_value);
  for (guint i = 0; i < times->len; i++)
    if (kept == 0 || g_array_index (times, double, i) != g_array_index (times, double, kept - 1))
      g_array_index (times, double, kept++) = g_array_index (times, double, i);
  g_array_set_size (times, kept);
  return times;
}

static void
update_lane (SequinCompareWindow *self)
{
  SequinDiffLane *lane;
  const SqClip *clip = document_clip (self);
  const SqJointDiff *d;
  g_autoptr(GArray) times = NULL;
  g_autofree double *degrees = NULL;

  if (self->window == NULL)
    return;
  lane = SEQUIN_DIFF_LANE (self->window->diff_lane);
  gtk_widget_set_visible (GTK_WIDGET (lane), TRUE);
  if (clip == NULL || self->diff == NULL || (d = lane_joint (self, clip)) == NULL)
    {
      sequin_diff_lane_set_curve (lane, NULL, NULL, NULL, 0);
      return;
    }
  times = lane_times (clip, self->reference, d->name, MAX (self->diff->duration_a, self->diff->duration_b));
  degrees = g_new (double, MAX (times->len, 1));
  if (!sq_diff_joint_curve (clip, self->reference, d->name, (const double *) (gpointer) times->data, times->len,
                            degrees, NULL, NULL))
    {
      sequin_diff_lane_set_curve (lane, NULL, NULL, NULL, 0);
      return;
    }
  sequin_diff_lane_set_curve (lane, d->name, (const double *) (gpointer) times->data, degrees, times->len);
}

/* ---- the comparison, again after every change of the document ---- */

static void
recompute (SequinCompareWindow *self)
{
  const SqClip *clip = document_clip (self);
  g_autoptr(GError) error = NULL;
  GtkWidget *child;

  g_clear_pointer (&self->diff, sq_diff_free);
  g_clear_pointer (&self->summary_text, g_free);
  g_array_set_size (self->order, 0);
  g_ptr_array_set_size (self->texts, 0);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);

  if (clip == NULL)
    g_set_error_literal (&error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT, _("There is no animation to compare"));
  else
    self->diff = sq_diff_clips (clip, self->reference, &error);
  if (self->diff == NULL)
    {
      self->summary_text = g_strdup (error->message);
      gtk_label_set_text (self->summary, self->summary_text);
      update_lane (self);
      return;
    }
  for (guint i = 0; i < self->diff->joints->len; i++)
    g_array_append_val (self->order, i);
  g_array_sort_with_data (self->order, by_difference, self->diff);

  self->summary_text = g_strdup_printf (_("Largest difference: rotation %.3g°, translation %.3g. "
                                          "Duration %.3f s here, %.3f s in %s."),
                                        self->diff->rotation, self->diff->translation, self->diff->duration_a,
                                        self->diff->duration_b, self->reference_name);
  gtk_label_set_text (self->summary, self->summary_text);
  for (guint r = 0; r < self->order->len; r++)
    {
      const SqJointDiff *d = &g_array_index (self->diff->joints, SqJointDiff, g_array_index (self->order, guint, r));
      char *text = row_text (d, self->reference_name);
      GtkWidget *label = gtk_label_new (text);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_set_margin_top (label, 4);
      gtk_widget_set_margin_bottom (label, 4);
      gtk_list_box_append (self->list, label);
      g_ptr_array_add (self->texts, text);
    }
  update_lane (self);
}

/* the main window without the comparison: no ghost, no lane */
static void
stop_comparing (SequinCompareWindow *self)
{
  if (self->window == NULL)
    return;
  sequin_preview_set_reference (self->window->preview, NULL, NULL);
  sequin_diff_lane_set_curve (SEQUIN_DIFF_LANE (self->window->diff_lane), NULL, NULL, NULL, 0);
  gtk_widget_set_visible (self->window->diff_lane, FALSE);
  g_signal_handlers_disconnect_by_data (self->window->joint_tree, self);
  g_object_remove_weak_pointer (G_OBJECT (self->window), (gpointer *) &self->window);
  self->window = NULL;
}

static void
sequin_compare_window_dispose (GObject *object)
{
  SequinCompareWindow *self = SEQUIN_COMPARE_WINDOW (object);

  stop_comparing (self);
  if (self->document_signals != NULL)
    g_signal_group_set_target (self->document_signals, NULL);
  g_clear_object (&self->document_signals);
  g_clear_pointer (&self->diff, sq_diff_free);
  g_clear_pointer (&self->reference, sq_clip_free);
  g_clear_pointer (&self->reference_name, g_free);
  g_clear_pointer (&self->order, g_array_unref);
  g_clear_pointer (&self->texts, g_ptr_array_unref);
  g_clear_pointer (&self->summary_text, g_free);
  G_OBJECT_CLASS (sequin_compare_window_parent_class)->dispose (object);
}

static void
sequin_compare_window_class_init (SequinCompareWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = sequin_compare_window_dispose;
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
sequin_compare_window_init (SequinCompareWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *controls = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *stop = gtk_button_new_with_mnemonic (_("_Stop Comparing"));
  GtkWidget *scroll = gtk_scrolled_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (self), 520, 420);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  self->summary = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->summary, TRUE);
  gtk_label_set_xalign (self->summary, 0);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->summary));

  self->ghost_toggle = gtk_check_button_new_with_mnemonic (_("Show _Ghost in the Preview"));
  gtk_widget_set_tooltip_text (self->ghost_toggle,
                               _("Draw the animation compared with, see-through, over the skeleton in the preview"));
  gtk_widget_set_hexpand (self->ghost_toggle, TRUE);
  gtk_box_append (GTK_BOX (controls), self->ghost_toggle);
  gtk_widget_set_tooltip_text (stop, _("Close the comparison: the ghost and the difference lane go"));
  g_signal_connect_swapped (stop, "clicked", G_CALLBACK (gtk_window_destroy), self);
  gtk_box_append (GTK_BOX (controls), stop);
  gtk_box_append (GTK_BOX (box), controls);

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_activate_on_single_click (self->list, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Differences by joint"), -1);
  g_signal_connect_swapped (self->list, "row-activated", G_CALLBACK (row_activated), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), GTK_WIDGET (self->list));
  gtk_widget_set_vexpand (scroll, TRUE);
  gtk_box_append (GTK_BOX (box), scroll);
  gtk_window_set_child (GTK_WINDOW (self), box);

  self->order = g_array_new (FALSE, FALSE, sizeof (guint));
  self->texts = g_ptr_array_new_with_free_func (g_free);
  self->document_signals = g_signal_group_new (SEQUIN_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "changed", G_CALLBACK (recompute), self);
  sequin_accessible_single_names (box);
}

SequinCompareWindow *
sequin_compare_window_new (SequinWindow *window,
                           const SqClip *other,
                           const char   *other_name,
                           GError      **error)
{
  SequinDocument *document = sequin_window_get_document (window);
  const SqClip *clip = document != NULL ? sequin_document_get_clip (document) : NULL;
  g_autoptr(SqDiff) diff = NULL;
  g_autofree char *title = NULL;
  SequinCompareWindow *self;

  if (clip == NULL)
    {
      g_set_error_literal (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT, _("There is no animation to compare"));
      return NULL;
    }
  /* refused before the window opens: two clips that cannot be compared */
  if ((diff = sq_diff_clips (clip, other, error)) == NULL)
    return NULL;

  /* TRANSLATORS: %s is the name of the file compared with */
  title = g_strdup_printf (_("Compared With %s"), other_name);
  self = g_object_new (SEQUIN_TYPE_COMPARE_WINDOW, "transient-for", window, "destroy-with-parent", TRUE,
                       "title", title, NULL);
  self->window = window;
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &self->window);
  self->reference = sq_clip_copy (other);
  self->reference_name = g_strdup (other_name);

  sequin_preview_set_reference (window->preview, self->reference, other_name);
  g_object_bind_property (window->preview, "show-reference", self->ghost_toggle, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (window->joint_tree, "selection-changed", G_CALLBACK (update_lane), self);
  g_signal_group_set_target (self->document_signals, document);
  recompute (self);
  return self;
}

/* ---- choosing the file ---- */

static void
show_error (SequinWindow *window,
            const char   *message)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (window), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", _("Could Not Compare"));

  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", message);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
chosen (GtkNativeDialog *chooser,
        int              response,
        SequinWindow    *window)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) other = NULL;
  g_autofree char *name = NULL;
  SequinCompareWindow *compare;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_object_unref (chooser);
  if (file == NULL)
    return;
  name = g_file_get_basename (file);
  if ((bytes = g_file_load_bytes (file, NULL, NULL, &error)) == NULL
      || (other = sq_load_bytes (bytes, name, NULL, NULL, &error)) == NULL
      || (compare = sequin_compare_window_new (window, other, name, &error)) == NULL)
    {
      show_error (window, error->message);
      return;
    }
  gtk_window_present (GTK_WINDOW (compare));
}

void
sequin_compare_window_choose (SequinWindow *window)
{
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Compare With"), GTK_WINDOW (window), GTK_FILE_CHOOSER_ACTION_OPEN,
                                         _("_Compare"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  sequin_add_format_filters (GTK_FILE_CHOOSER (chooser), FALSE, NULL);
  g_signal_connect (chooser, "response", G_CALLBACK (chosen), window);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}
