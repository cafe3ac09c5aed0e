/* sequin-compare-window.c: Compare With…
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's animation against another file (the reference) through the
 * core's comparison (sq-diff.h: each joint's largest rotation and
 * translation difference over both clips' key times; two formats meet in
 * Second Life's space). While it is open: a summary line and a row per
 * joint, the largest difference first (activating a row selects its joint
 * and the time of its largest difference in the main window); the
 * reference as a ghost in the preview; under the timeline, the difference
 * lane: every joint's heat over time and the selected joint's curve.
 *
 * All of it is computed again after every edit, undo and redo, on a worker
 * thread with a copy of the clip (a million keys take over half a second):
 * one worker at a time, and changes that come while it runs make one more
 * run when it ends, of the document as it is then. The shown comparison
 * keeps the pair of clips it was made from, so the lane's curve for another
 * selected joint is drawn at once. Closing the window (or Stop Comparing)
 * ends the comparison; a window shows one comparison at a time.
 */
#define G_LOG_DOMAIN "sequin-compare-window"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sequin-compare-window.h"
#include "sequin-timeline.h"
#include "sequin-utils.h"
#include "sequin-window-private.h"

/* the lane's curve: the clip's frames, at most this many, and of each
 * track at most this many key times */
#define LANE_MAX_SAMPLES 4000
/* the heat's columns: the clip's frames, at most this many */
#define HEAT_MAX_COLUMNS 2048
/* a comparison that takes longer says so */
#define BUSY_DELAY_MS 200

/* The file compared with, shared by the window and the comparisons made
 * with it: a worker or the shown comparison may still use one the window
 * has replaced (another animation set chosen) */
typedef struct
{
  SqClip *clip;
  char   *name;
} Reference;

static void
reference_clear (gpointer data)
{
  Reference *r = data;

  sq_clip_free (r->clip);
  g_free (r->name);
}

static Reference *
reference_new (const SqClip *clip,
               const char   *name)
{
  Reference *r = g_atomic_rc_box_new0 (Reference);

  r->clip = sq_clip_copy (clip);
  r->name = g_strdup (name);
  return r;
}

static void
reference_unref (Reference *r)
{
  g_atomic_rc_box_release_full (r, reference_clear);
}

/* One comparison of the document's clip (as it was) with the reference,
 * made on a worker */
typedef struct
{
  const SqClip *source;       /* the document's clip compared… */
  guint64       generation;   /* …as it was at this generation */
  SqClip       *clip;         /* a copy of it */
  Reference    *reference;    /* held */
  SqDiffPair   *pair;         /* NULL when the two cannot be compared… */
  char         *error;        /* …and why */
  SqDiff       *diff;
  GArray       *order;        /* guint: row → index into diff->joints */
  char        **texts;        /* each row's text */
  char         *summary;
} Comparison;

struct _SequinCompareWindow
{
  GtkWindow     parent_instance;

  GtkLabel     *summary;
  GtkListView  *list;
  GtkStringList *rows;
  GtkWidget    *ghost_toggle;
  SequinWindow *window;       /* weak: the compare window goes with it */
  GSignalGroup *document_signals;
  Reference    *reference;    /* the file compared with, as read */
  GFile        *reference_file; /* where it was read, NULL for a clip given */
  GtkWidget    *take_row;     /* the animation set of the file compared with… */
  GtkDropDown  *take_chooser; /* …when it has several */
  guint         loading_take; /* a set is being read */
  Comparison   *shown;        /* the comparison shown, or NULL before the first */
  gboolean      running;      /* a worker compares now… */
  gboolean      pending;      /* …and the document changed since it began */
  guint         busy_id;
};

G_DEFINE_FINAL_TYPE (SequinCompareWindow, sequin_compare_window, GTK_TYPE_WINDOW)

static void
comparison_free (Comparison *c)
{
  sq_diff_pair_free (c->pair);
  sq_clip_free (c->clip);
  sq_diff_free (c->diff);
  g_clear_pointer (&c->order, g_array_unref);
  g_strfreev (c->texts);
  g_clear_pointer (&c->reference, reference_unref);
  g_free (c->error);
  g_free (c->summary);
  g_free (c);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Comparison, comparison_free)

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

static const SqJointDiff *
row_joint (const Comparison *c,
           guint             row)
{
  return &g_array_index (c->diff->joints, SqJointDiff, g_array_index (c->order, guint, row));
}

/* ---- the comparison, on a worker ---- */

/* everything shown, from the copy and the reference */
static void
comparison_run (Comparison *c)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *texts;

  if ((c->pair = sq_diff_pair_new (c->clip, c->reference->clip, &error)) == NULL)
    {
      c->error = g_strdup (error->message);
      return;
    }
  /* the heat's columns: a frame each, over both durations */
  c->diff = sq_diff_pair_diff (c->pair, sequin_clip_frames_over (c->clip, MAX (c->clip->duration,
                                                                              c->reference->clip->duration),
                                                                 HEAT_MAX_COLUMNS));
  c->order = g_array_sized_new (FALSE, FALSE, sizeof (guint), c->diff->joints->len);
  for (guint i = 0; i < c->diff->joints->len; i++)
    g_array_append_val (c->order, i);
  g_array_sort_with_data (c->order, by_difference, c->diff);
  texts = g_ptr_array_new_full (c->order->len + 1, g_free);
  for (guint r = 0; r < c->order->len; r++)
    g_ptr_array_add (texts, row_text (row_joint (c, r), c->reference->name));
  g_ptr_array_add (texts, NULL);
  c->texts = (char **) g_ptr_array_free (texts, FALSE);
  c->summary = g_strdup_printf (_("Largest difference: rotation %.3g°, translation %.3g. "
                                  "Duration %.3f s here, %.3f s in %s."),
                                c->diff->rotation, c->diff->translation, c->diff->duration_a, c->diff->duration_b,
                                c->reference->name);
}

static void
compare_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Comparison *c = task_data;

  comparison_run (c);
  g_task_return_pointer (task, c, (GDestroyNotify) comparison_free);
}

static const SqClip *
document_clip (SequinCompareWindow *self)
{
  SequinDocument *document = self->window != NULL ? sequin_window_get_document (self->window) : NULL;

  return document != NULL ? sequin_document_get_clip (document) : NULL;
}

/* ---- what the window shows ---- */

void
sequin_compare_window_activate_row (SequinCompareWindow *self,
                                    guint                row)
{
  const SqJointDiff *d;
  const SqClip *clip;
  gssize joint;

  g_return_if_fail (SEQUIN_IS_COMPARE_WINDOW (self));
  g_return_if_fail (row < sequin_compare_window_get_n_rows (self));
  if ((clip = document_clip (self)) == NULL)
    return;
  d = row_joint (self->shown, row);
  joint = sq_diff_find_joint (clip, d->name);
  if (joint >= 0)
    sequin_joint_tree_select_joint (self->window->joint_tree, (gsize) joint);
  if (d->in_a && d->in_b)
    sequin_timeline_set_time (SEQUIN_TIMELINE (self->window->timeline),
                              d->rotation > 0 || d->translation == 0 ? d->rotation_time : d->translation_time);
}

static void
row_activated (SequinCompareWindow *self,
               guint                position)
{
  if (position < sequin_compare_window_get_n_rows (self))
    sequin_compare_window_activate_row (self, position);
}

guint
sequin_compare_window_get_n_rows (SequinCompareWindow *self)
{
  g_return_val_if_fail (SEQUIN_IS_COMPARE_WINDOW (self), 0);
  return self->shown != NULL && self->shown->order != NULL ? self->shown->order->len : 0;
}

const char *
sequin_compare_window_get_row_text (SequinCompareWindow *self,
                                    guint                row)
{
  g_return_val_if_fail (row < sequin_compare_window_get_n_rows (self), NULL);
  return self->shown->texts[row];
}

const char *
sequin_compare_window_get_summary (SequinCompareWindow *self)
{
  g_return_val_if_fail (SEQUIN_IS_COMPARE_WINDOW (self), NULL);
  return gtk_label_get_text (self->summary);
}

gboolean
sequin_compare_window_is_current (SequinCompareWindow *self)
{
  const SqClip *clip;

  g_return_val_if_fail (SEQUIN_IS_COMPARE_WINDOW (self), FALSE);
  clip = document_clip (self);
  return !self->running && !self->pending && self->loading_take == 0 && self->shown != NULL && clip != NULL
         && self->shown->source == clip && self->shown->generation == clip->generation
         && self->shown->reference == self->reference;
}

/* The joint the lane's curve shows: the one selected in the window when
 * both clips have it, else the one most apart */
static const SqJointDiff *
lane_joint (SequinCompareWindow *self)
{
  gssize current = sequin_joint_tree_get_current_joint (self->window->joint_tree);
  const SqJointDiff *first = NULL;

  for (guint r = 0; r < self->shown->order->len; r++)
    {
      const SqJointDiff *d = row_joint (self->shown, r);

      if (!d->in_a || !d->in_b)
        continue;
      if (current >= 0 && sq_diff_find_joint (self->shown->clip, d->name) == current)
        return d;
      if (first == NULL)
        first = d;
    }
  return first;
}

/* the lane's curve: the joint's difference at the clip's frames and at
 * both joints' key times, from the shown comparison's pair (no worker:
 * a few thousand samples) */
static void
update_curve (SequinCompareWindow *self)
{
  SequinDiffLane *lane;
  const SqJointDiff *d;
  g_autofree double *times = NULL;
  g_autofree double *degrees = NULL;
  double end;
  gsize n;

  if (self->window == NULL)
    return;
  lane = SEQUIN_DIFF_LANE (self->window->diff_lane);
  if (self->shown == NULL || self->shown->pair == NULL || (d = lane_joint (self)) == NULL)
    {
      sequin_diff_lane_set_curve (lane, NULL, NULL, NULL, 0);
      return;
    }
  end = MAX (self->shown->diff->duration_a, self->shown->diff->duration_b);
  times = sq_diff_pair_curve_times (self->shown->pair, d->name, end,
                                    sequin_clip_frames_over (self->shown->clip, end, LANE_MAX_SAMPLES),
                                    LANE_MAX_SAMPLES, &n);
  degrees = g_new (double, MAX (n, 1));
  if (!sq_diff_pair_curve (self->shown->pair, d->name, times, n, degrees, NULL, NULL))
    n = 0;
  sequin_diff_lane_set_curve (lane, d->name, times, degrees, n);
}

/* the lane's heat: every joint in both, in the animation's order */
static void
update_heat (SequinCompareWindow *self)
{
  SequinDiffLane *lane = SEQUIN_DIFF_LANE (self->window->diff_lane);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GPtrArray) peaks = g_ptr_array_new ();
  const SqDiff *diff = self->shown->diff;

  for (guint i = 0; diff != NULL && i < diff->joints->len; i++)
    {
      const SqJointDiff *d = &g_array_index (diff->joints, SqJointDiff, i);

      if (d->peaks == NULL)
        continue;
      g_ptr_array_add (names, d->name);
      g_ptr_array_add (peaks, d->peaks);
    }
  sequin_diff_lane_set_heat (lane, (const char * const *) names->pdata, (const double * const *) peaks->pdata,
                             names->len, diff != NULL ? diff->n_peaks : 0,
                             diff != NULL ? MAX (diff->duration_a, diff->duration_b) : 0);
}

static void
set_summary (SequinCompareWindow *self,
             const char          *text)
{
  gtk_label_set_text (self->summary, text);
}

/* Shows `c` (taken): summary, rows, the lane */
static void
show (SequinCompareWindow *self,
      Comparison          *c)
{
  guint before = g_list_model_get_n_items (G_LIST_MODEL (self->rows));

  g_clear_handle_id (&self->busy_id, g_source_remove);
  g_clear_pointer (&self->shown, comparison_free);
  self->shown = c;
  set_summary (self, c->error != NULL ? c->error : c->summary);
  gtk_string_list_splice (self->rows, 0, before, c->texts != NULL ? (const char * const *) c->texts : NULL);
  if (self->window == NULL)
    return;
  update_heat (self);
  update_curve (self);
  gtk_widget_set_visible (self->window->diff_lane, TRUE);
}

static gboolean
show_busy (gpointer data)
{
  SequinCompareWindow *self = data;

  self->busy_id = 0;
  set_summary (self, _("Comparing…"));
  return G_SOURCE_REMOVE;
}

static void start (SequinCompareWindow *self);

static void
compare_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  SequinCompareWindow *self = SEQUIN_COMPARE_WINDOW (object);
  g_autoptr(Comparison) c = g_task_propagate_pointer (G_TASK (result), NULL);

  self->running = FALSE;
  if (self->window == NULL)
    return;
  if (self->pending)
    {
      /* the document changed meanwhile: what this found is already old */
      self->pending = FALSE;
      start (self);
      return;
    }
  show (self, g_steal_pointer (&c));
}

static void
start (SequinCompareWindow *self)
{
  const SqClip *clip = document_clip (self);
  g_autoptr(GTask) task = NULL;
  Comparison *c;

  if (clip == NULL)
    {
      c = g_new0 (Comparison, 1);
      c->error = g_strdup (_("There is no animation to compare"));
      show (self, c);
      return;
    }
  c = g_new0 (Comparison, 1);
  c->source = clip;
  c->generation = clip->generation;
  c->clip = sq_clip_copy (clip);
  c->reference = g_atomic_rc_box_acquire (self->reference);
  self->running = TRUE;
  if (self->busy_id == 0)
    self->busy_id = g_timeout_add (BUSY_DELAY_MS, show_busy, self);
  task = g_task_new (self, NULL, compare_done_cb, NULL);
  g_task_set_source_tag (task, start);
  g_task_set_task_data (task, c, NULL);   /* the worker returns it */
  g_task_run_in_thread (task, compare_thread);
}

/* after every change of the document: once more when the worker is done */
static void
schedule (SequinCompareWindow *self)
{
  if (self->window == NULL)
    return;
  if (self->running)
    self->pending = TRUE;
  else
    start (self);
}

void
sequin_compare_window_set_document (SequinCompareWindow *self,
                                    SequinDocument      *document)
{
  g_return_if_fail (SEQUIN_IS_COMPARE_WINDOW (self));

  g_signal_group_set_target (self->document_signals, document);
  schedule (self);
}

/* the main window without the comparison: no ghost, no lane */
static void
stop_comparing (SequinCompareWindow *self)
{
  if (self->window == NULL)
    return;
  sequin_preview_set_reference (self->window->preview, NULL, NULL);
  sequin_diff_lane_set_curve (SEQUIN_DIFF_LANE (self->window->diff_lane), NULL, NULL, NULL, 0);
  sequin_diff_lane_set_heat (SEQUIN_DIFF_LANE (self->window->diff_lane), NULL, NULL, 0, 0, 0);
  gtk_widget_set_visible (self->window->diff_lane, FALSE);
  g_signal_handlers_disconnect_by_data (self->window->joint_tree, self);
  g_signal_handlers_disconnect_by_data (self->window->diff_lane, self);
  if (self->window->compare == self)
    self->window->compare = NULL;
  g_object_remove_weak_pointer (G_OBJECT (self->window), (gpointer *) &self->window);
  self->window = NULL;
}

static void
sequin_compare_window_dispose (GObject *object)
{
  SequinCompareWindow *self = SEQUIN_COMPARE_WINDOW (object);

  stop_comparing (self);
  g_clear_handle_id (&self->busy_id, g_source_remove);
  if (self->document_signals != NULL)
    g_signal_group_set_target (self->document_signals, NULL);
  g_clear_object (&self->document_signals);
  g_clear_pointer (&self->shown, comparison_free);
  G_OBJECT_CLASS (sequin_compare_window_parent_class)->dispose (object);
}

static void
sequin_compare_window_finalize (GObject *object)
{
  SequinCompareWindow *self = SEQUIN_COMPARE_WINDOW (object);

  g_clear_pointer (&self->reference, reference_unref);
  g_clear_object (&self->reference_file);
  G_OBJECT_CLASS (sequin_compare_window_parent_class)->finalize (object);
}

static void
sequin_compare_window_class_init (SequinCompareWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = sequin_compare_window_dispose;
  G_OBJECT_CLASS (klass)->finalize = sequin_compare_window_finalize;
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
row_setup_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  /* a narrow window wraps a row rather than hiding its end */
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_margin_top (label, 4);
  gtk_widget_set_margin_bottom (label, 4);
  gtk_widget_set_margin_start (label, 6);
  gtk_list_item_set_child (item, label);
}

static void
row_bind_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *item)
{
  GtkStringObject *row = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), gtk_string_object_get_string (row));
}

static GtkWidget *
rows_view (SequinCompareWindow *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkWidget *scroll = gtk_scrolled_window_new ();
  GtkSingleSelection *selection;

  g_signal_connect (factory, "setup", G_CALLBACK (row_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (row_bind_cb), NULL);
  self->rows = gtk_string_list_new (NULL);
  selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->rows)));
  /* a row is chosen by activating it; none is until then */
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  self->list = GTK_LIST_VIEW (gtk_list_view_new (GTK_SELECTION_MODEL (selection), factory));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Differences by joint"), -1);
  g_signal_connect_swapped (self->list, "activate", G_CALLBACK (row_activated), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), GTK_WIDGET (self->list));
  gtk_widget_set_vexpand (scroll, TRUE);
  return scroll;
}

static void take_chosen (SequinCompareWindow *self);

/* "Animation Set: [Set 2: Wuson_Walk]", shown for a file of several */
static GtkWidget *
take_row (SequinCompareWindow *self)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (_("Animation _Set"));

  self->take_row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  self->take_chooser = GTK_DROP_DOWN (gtk_drop_down_new (NULL, NULL));
  sequin_set_tooltip (GTK_WIDGET (self->take_chooser),
                               _("Which animation of the file compared with (it holds several)"));
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (self->take_chooser));
  gtk_widget_set_hexpand (GTK_WIDGET (self->take_chooser), TRUE);
  g_signal_connect_swapped (self->take_chooser, "notify::selected", G_CALLBACK (take_chosen), self);
  gtk_box_append (GTK_BOX (self->take_row), label);
  gtk_box_append (GTK_BOX (self->take_row), GTK_WIDGET (self->take_chooser));
  gtk_widget_set_visible (self->take_row, FALSE);
  return self->take_row;
}

static void
sequin_compare_window_init (SequinCompareWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *controls = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *stop = gtk_button_new_with_mnemonic (_("_Stop Comparing"));

  gtk_window_set_default_size (GTK_WINDOW (self), 520, 420);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  self->summary = GTK_LABEL (gtk_label_new (_("Comparing…")));
  gtk_label_set_wrap (self->summary, TRUE);
  gtk_label_set_xalign (self->summary, 0);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->summary));

  self->ghost_toggle = gtk_check_button_new_with_mnemonic (_("Show _Ghost in the Preview"));
  sequin_set_tooltip (self->ghost_toggle,
                               _("Draw the animation compared with, see-through, over the skeleton in the preview"));
  gtk_widget_set_hexpand (self->ghost_toggle, TRUE);
  gtk_box_append (GTK_BOX (controls), self->ghost_toggle);
  sequin_set_tooltip (stop, _("Close the comparison: the ghost and the difference lane go"));
  g_signal_connect_swapped (stop, "clicked", G_CALLBACK (gtk_window_destroy), self);
  gtk_box_append (GTK_BOX (controls), stop);
  gtk_box_append (GTK_BOX (box), controls);
  gtk_box_append (GTK_BOX (box), take_row (self));
  gtk_box_append (GTK_BOX (box), rows_view (self));
  gtk_window_set_child (GTK_WINDOW (self), box);

  self->document_signals = g_signal_group_new (SEQUIN_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "changed", G_CALLBACK (schedule), self);
  sequin_accessible_single_names (box);
}

/* ---- the animation set of the file compared with ---- */

/* the chooser, when the file holds several animations and can be read again */
static void
fill_takes (SequinCompareWindow *self)
{
  gsize n = 0;
  guint take = 0;
  const char * const *takes = sq_clip_get_takes (self->reference->clip, &n, &take);
  g_autoptr(GtkStringList) names = NULL;

  if (self->reference_file == NULL || takes == NULL || n < 2)
    {
      gtk_widget_set_visible (self->take_row, FALSE);
      return;
    }
  names = gtk_string_list_new (NULL);
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *text = takes[i][0] != '\0'
                                /* TRANSLATORS: an animation set of the file compared with: number, name */
                                ? g_strdup_printf (_("Set %zu: %s"), i + 1, takes[i])
                                /* TRANSLATORS: an animation set without a name: its number */
                                : g_strdup_printf (_("Set %zu"), i + 1);

      gtk_string_list_append (names, text);
    }
  g_signal_handlers_block_by_func (self->take_chooser, take_chosen, self);
  gtk_drop_down_set_model (self->take_chooser, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->take_chooser, take);
  g_signal_handlers_unblock_by_func (self->take_chooser, take_chosen, self);
  gtk_widget_set_visible (self->take_row, TRUE);
}

static void
take_loaded_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(SequinCompareWindow) self = user_data;
  g_autoptr(SequinDocument) document = SEQUIN_DOCUMENT (object);
  g_autoptr(GError) error = NULL;
  Reference *reference;

  self->loading_take--;
  if (!sequin_document_load_finish (document, result, &error))
    {
      set_summary (self, error->message);
      fill_takes (self);   /* the set still compared with */
      return;
    }
  /* gone, or another set chosen since (its own read comes) */
  if (self->window == NULL
      || sequin_document_get_clip (document)->take != gtk_drop_down_get_selected (self->take_chooser))
    return;
  reference = reference_new (sequin_document_get_clip (document), self->reference->name);
  g_clear_pointer (&self->reference, reference_unref);
  self->reference = reference;
  sequin_preview_set_reference (self->window->preview, reference->clip, reference->name);
  schedule (self);
}

/* another animation set of the file: read on a worker, then compared */
static void
take_chosen (SequinCompareWindow *self)
{
  guint take = gtk_drop_down_get_selected (self->take_chooser);

  if (take == GTK_INVALID_LIST_POSITION || take == self->reference->clip->take || self->reference_file == NULL)
    return;
  self->loading_take++;
  sequin_document_load_take_async (sequin_document_new (), self->reference_file, SEQUIN_LOAD_AS_COPY, take, NULL,
                                   take_loaded_cb, g_object_ref (self));
}

GtkDropDown *
sequin_compare_window_get_take_chooser (SequinCompareWindow *self)
{
  g_return_val_if_fail (SEQUIN_IS_COMPARE_WINDOW (self), NULL);
  return self->take_chooser;
}

/* a click on the lane's heat: that joint, at that time */
static void
heat_activated (SequinCompareWindow *self,
                const char          *name)
{
  const SqClip *clip = document_clip (self);
  gssize joint = clip != NULL ? sq_diff_find_joint (clip, name) : -1;

  if (joint >= 0)
    sequin_joint_tree_select_joint (self->window->joint_tree, (gsize) joint);
}

SequinCompareWindow *
sequin_compare_window_new (SequinWindow *window,
                           const SqClip *other,
                           const char   *other_name)
{
  SequinDocument *document;
  g_autofree char *title = NULL;
  SequinCompareWindow *self;

  g_return_val_if_fail (SEQUIN_IS_WINDOW (window), NULL);
  g_return_val_if_fail (other != NULL && other_name != NULL, NULL);

  /* one comparison at a time in a window */
  if (window->compare != NULL)
    gtk_window_destroy (GTK_WINDOW (window->compare));
  document = sequin_window_get_document (window);
  /* TRANSLATORS: %s is the name of the file compared with */
  title = g_strdup_printf (_("Compared With %s"), other_name);
  self = g_object_new (SEQUIN_TYPE_COMPARE_WINDOW, "transient-for", window, "destroy-with-parent", TRUE,
                       "title", title, NULL);
  self->window = window;
  window->compare = self;
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &self->window);
  self->reference = reference_new (other, other_name);

  sequin_preview_set_reference (window->preview, self->reference->clip, other_name);
  g_object_bind_property (window->preview, "show-reference", self->ghost_toggle, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (window->joint_tree, "selection-changed", G_CALLBACK (update_curve), self);
  g_signal_connect_swapped (window->diff_lane, "joint-activated", G_CALLBACK (heat_activated), self);
  if (document != NULL)
    g_signal_group_set_target (self->document_signals, document);
  schedule (self);
  return self;
}

/* ---- choosing the file ---- */

typedef struct
{
  SequinWindow   *window;
  SequinDocument *document;   /* the file compared with, read as documents are (on a worker) */
  GFile          *file;
  char           *name;
} OpenRequest;

static void
open_request_free (OpenRequest *req)
{
  g_clear_object (&req->window);
  g_clear_object (&req->document);
  g_clear_object (&req->file);
  g_free (req->name);
  g_free (req);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OpenRequest, open_request_free)

static void
show_error (SequinWindow *window,
            const char   *message)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (window), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", _("Could Not Compare"));

  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", message);
  gtk_accessible_update_property (GTK_ACCESSIBLE (dialog), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Could Not Compare"), -1);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(OpenRequest) req = user_data;
  g_autoptr(GError) error = NULL;
  SequinCompareWindow *compare;

  if (!sequin_document_load_finish (req->document, result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (req->window, error->message);
      return;
    }
  if (sequin_window_get_document (req->window) == NULL)
    return;   /* the animation went meanwhile */
  compare = sequin_compare_window_new (req->window, sequin_document_get_clip (req->document), req->name);
  compare->reference_file = g_object_ref (req->file);
  fill_takes (compare);
  gtk_window_present (GTK_WINDOW (compare));
}

void
sequin_compare_window_open_file (SequinWindow *window,
                                 GFile        *file)
{
  OpenRequest *req;

  g_return_if_fail (SEQUIN_IS_WINDOW (window));
  g_return_if_fail (G_IS_FILE (file));

  req = g_new0 (OpenRequest, 1);
  req->window = g_object_ref (window);
  req->document = sequin_document_new ();
  req->file = g_object_ref (file);
  req->name = g_file_get_basename (file);
  sequin_document_load_async (req->document, file, SEQUIN_LOAD_AS_COPY, window->cancellable, loaded_cb, req);
}

static void
chosen (GtkNativeDialog *chooser,
        int              response,
        SequinWindow    *window)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_object_unref (chooser);
  if (file != NULL)
    sequin_compare_window_open_file (window, file);
}

void
sequin_compare_window_choose (SequinWindow *window)
{
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Compare With"), GTK_WINDOW (window), GTK_FILE_CHOOSER_ACTION_OPEN,
                                         _("_Compare"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  sequin_add_format_filters (GTK_FILE_CHOOSER (chooser), FALSE, NULL);
  /* in the open file's folder (where its other takes and versions are),
   * not in Recent */
  {
    SequinDocument *document = sequin_window_get_document (window);
    GFile *file = document != NULL ? sequin_document_get_file (document) : NULL;
    g_autoptr(GFile) folder = file != NULL ? g_file_get_parent (file) : NULL;

    if (folder != NULL)
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
  }
  g_signal_connect (chooser, "response", G_CALLBACK (chosen), window);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}
