/* sequin-timeline-keys.c: the timeline's selected keys, the rubber band,
 * dragging keys in time and stepping from key to key by keyboard
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The selection is an array of SequinTimelineKey sorted by joint, channel
 * and index, each key once, so a lookup is a binary search and drawing a
 * lane's selected keys starts at its first one. Each entry keeps its key's
 * time: after an edit (keys inserted or removed before it move its index)
 * the key is found again by that time, and dropped when it is gone, unless
 * the edit was the undo or redo of a move made here: the keys are then
 * selected where it put them (self->moves keeps each move's selections).
 *
 * A drag of the selected keys moves them by whole frames. Its limits are
 * worked out when it starts: per selected key, the frames to the nearest
 * key of its track that is not selected (a key cannot reach or pass it)
 * and to the ends of the clip; the drag stops at the nearest limit and
 * the timeline says so, rather than letting the edit be refused. The
 * clip is not changed while dragging: the keys are drawn where they would
 * go, and releasing emits ::move-keys (one edit, by the window).
 */
#define G_LOG_DOMAIN "sequin-timeline"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sequin-timeline-draw.h"
#include "sequin-timeline-private.h"

/* a time this close to a frame (in frames) is on it */
#define FRAME_EPS 1e-6

static int
key_compare (gconstpointer pa,
             gconstpointer pb)
{
  const SequinTimelineKey *a = pa, *b = pb;

  if (a->joint != b->joint)
    return a->joint < b->joint ? -1 : 1;
  if (a->channel != b->channel)
    return a->channel < b->channel ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index ? 1 : 0;
}

/* the position of `key` in the selection, or where it would go */
static guint
find (GArray                  *selection,
      const SequinTimelineKey *key,
      gboolean                *found)
{
  guint lo = 0, hi = selection->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      int c = key_compare (&g_array_index (selection, SequinTimelineKey, mid), key);

      if (c == 0)
        {
          *found = TRUE;
          return mid;
        }
      if (c < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  *found = FALSE;
  return lo;
}

static void
sort_unique (GArray *keys)
{
  guint out = 0;

  g_array_sort (keys, key_compare);
  for (guint i = 0; i < keys->len; i++)
    if (out == 0 || key_compare (&g_array_index (keys, SequinTimelineKey, i),
                                 &g_array_index (keys, SequinTimelineKey, out - 1)) != 0)
      g_array_index (keys, SequinTimelineKey, out++) = g_array_index (keys, SequinTimelineKey, i);
  g_array_set_size (keys, out);
}

static SequinTimelineKey
make_key (SequinTimeline *self,
          gsize           joint,
          SqChannel       channel,
          gsize           index)
{
  SequinTimelineKey k = { joint, channel, index, sq_track_time (&self->clip->joints[joint].tracks[channel], index) };

  return k;
}

static gboolean
valid (SequinTimeline *self,
       gsize           joint,
       SqChannel       channel,
       gsize           index)
{
  return self->clip != NULL && joint < self->clip->n_joints && channel < SQ_N_CHANNELS
         && index < self->clip->joints[joint].tracks[channel].n_keys;
}

/* the drag's picture and description (the selection is the same) */
static void
redraw (SequinTimeline *self)
{
  _sequin_timeline_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
changed (SequinTimeline *self)
{
  _sequin_timeline_selection_changed (self);
  _sequin_timeline_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* a move of selected keys made here: the selection before and after it */
typedef struct
{
  GArray *before;
  GArray *after;
} KeyMove;

#define MOVES_KEPT 64

static void
key_move_free (gpointer data)
{
  KeyMove *m = data;

  g_array_unref (m->before);
  g_array_unref (m->after);
  g_free (m);
}

void
_sequin_timeline_keys_init (SequinTimeline *self)
{
  self->selection = g_array_new (FALSE, FALSE, sizeof (SequinTimelineKey));
  self->moves = g_ptr_array_new_with_free_func (key_move_free);
}

void
_sequin_timeline_keys_finalize (SequinTimeline *self)
{
  g_clear_pointer (&self->selection, g_array_unref);
  g_clear_pointer (&self->box_base, g_array_unref);
  g_clear_pointer (&self->moves, g_ptr_array_unref);
}

gboolean
_sequin_timeline_key_is_selected (SequinTimeline *self,
                                  gsize           joint,
                                  SqChannel       channel,
                                  gsize           index)
{
  SequinTimelineKey k = { joint, channel, index, 0 };
  gboolean found;

  find (self->selection, &k, &found);
  return found;
}

guint
_sequin_timeline_first_selected_of (SequinTimeline *self,
                                    gsize           joint)
{
  return _sequin_timeline_selected_from (self, joint, SQ_CHANNEL_ROTATION, 0);
}

guint
_sequin_timeline_selected_from (SequinTimeline *self,
                                gsize           joint,
                                SqChannel       channel,
                                gsize           index)
{
  SequinTimelineKey k = { joint, channel, index, 0 };
  gboolean found;

  return find (self->selection, &k, &found);
}

/* the key of `track` at exactly `time` (as it was read back), or -1 */
static gssize
key_at_time (const SqTrack *track,
             double         time)
{
  gsize i = sq_track_lower_bound (track, time, 0, track->n_keys);

  return i < track->n_keys && sq_track_time (track, i) == time ? (gssize) i : -1;
}

static GArray *
keys_copy (GArray *keys)
{
  GArray *copy = g_array_sized_new (FALSE, FALSE, sizeof (SequinTimelineKey), keys->len);

  g_array_append_vals (copy, keys->data, keys->len);
  return copy;
}

/* the key's index in the clip now (found by its time), -1 when gone */
static gssize
key_now (SequinTimeline          *self,
         const SequinTimelineKey *k)
{
  const SqTrack *track;

  if (k->joint >= self->clip->n_joints)
    return -1;
  track = &self->clip->joints[k->joint].tracks[k->channel];
  if (k->index < track->n_keys && sq_track_time (track, k->index) == k->time)
    return (gssize) k->index;
  return key_at_time (track, k->time);
}

/* the same keys (joint, channel, time) */
static gboolean
same_keys (GArray *a,
           GArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    {
      const SequinTimelineKey *x = &g_array_index (a, SequinTimelineKey, i), *y = &g_array_index (b, SequinTimelineKey, i);

      if (x->joint != y->joint || x->channel != y->channel || x->time != y->time)
        return FALSE;
    }
  return TRUE;
}

/* `count` of the keys of `keys` in the clip now */
static guint
keys_there (SequinTimeline *self,
            GArray         *keys)
{
  guint n = 0;

  for (guint i = 0; i < keys->len; i++)
    n += key_now (self, &g_array_index (keys, SequinTimelineKey, i)) >= 0;
  return n;
}

/* The selected keys all gone from their times: when they are where a move
 * made here left them (or found them) and that move was undone (or
 * redone), they are selected where it put them back */
static void
follow_move (SequinTimeline *self)
{
  if (self->selection->len == 0 || keys_there (self, self->selection) > 0)
    return;
  for (guint i = self->moves->len; i-- > 0;)
    {
      KeyMove *m = g_ptr_array_index (self->moves, i);
      GArray *to = NULL;

      if (same_keys (self->selection, m->after) && keys_there (self, m->before) == m->before->len)
        to = m->before;
      else if (same_keys (self->selection, m->before) && keys_there (self, m->after) == m->after->len)
        to = m->after;
      if (to == NULL)
        continue;
      g_array_set_size (self->selection, 0);
      g_array_append_vals (self->selection, to->data, to->len);
      return;
    }
}

void
_sequin_timeline_keys_clip_changed (SequinTimeline *self)
{
  guint out = 0;

  if (self->clip == NULL)
    {
      g_array_set_size (self->selection, 0);
      g_ptr_array_set_size (self->moves, 0);
    }
  if (self->shift_pending != 0)
    {
      /* a drag's move is being made: the keys are at their new times */
      KeyMove *m = g_new (KeyMove, 1);

      m->before = keys_copy (self->selection);
      _sequin_timeline_keys_shift (self, self->shift_pending);
      self->shift_pending = 0;
      m->after = keys_copy (self->selection);
      if (self->moves->len >= MOVES_KEPT)
        g_ptr_array_remove_index (self->moves, 0);
      g_ptr_array_add (self->moves, m);
    }
  else if (self->clip != NULL)
    follow_move (self);
  for (guint i = 0; i < self->selection->len; i++)
    {
      SequinTimelineKey k = g_array_index (self->selection, SequinTimelineKey, i);
      gssize at = key_now (self, &k);

      if (at < 0)
        continue;
      k.index = (gsize) at;
      g_array_index (self->selection, SequinTimelineKey, out++) = k;
    }
  g_array_set_size (self->selection, out);
  sort_unique (self->selection);
  /* the current key follows its time too, or goes with its key */
  if (self->sel_joint >= 0 && valid (self, (gsize) self->sel_joint, self->sel_channel, 0))
    {
      gssize at = -1;

      for (guint i = _sequin_timeline_first_selected_of (self, (gsize) self->sel_joint); i < self->selection->len; i++)
        {
          const SequinTimelineKey *k = &g_array_index (self->selection, SequinTimelineKey, i);

          if (k->joint != (gsize) self->sel_joint)
            break;
          if (k->channel == self->sel_channel && (gssize) k->index == self->sel_key)
            at = self->sel_key;
        }
      if (at < 0)
        self->sel_joint = self->sel_key = -1;
    }
}

/* ---- choosing keys ----------------------------------------------------------- */

static void
set_only (SequinTimeline *self,
          gsize           joint,
          SqChannel       channel,
          gsize           index)
{
  SequinTimelineKey k = make_key (self, joint, channel, index);

  g_array_set_size (self->selection, 0);
  g_array_append_val (self->selection, k);
}

static void
add_key (SequinTimeline *self,
         gsize           joint,
         SqChannel       channel,
         gsize           index,
         gboolean        toggle)
{
  SequinTimelineKey k = make_key (self, joint, channel, index);
  gboolean found;
  guint at = find (self->selection, &k, &found);

  if (found && toggle)
    g_array_remove_index (self->selection, at);
  else if (!found)
    g_array_insert_val (self->selection, at, k);
}

void
_sequin_timeline_keys_press (SequinTimeline *self,
                             gsize           joint,
                             SqChannel       channel,
                             gsize           index,
                             GdkModifierType state)
{
  self->collapse_on_release = FALSE;
  if (state & GDK_CONTROL_MASK)
    add_key (self, joint, channel, index, TRUE);
  else if (state & GDK_SHIFT_MASK)
    add_key (self, joint, channel, index, FALSE);
  else if (_sequin_timeline_key_is_selected (self, joint, channel, index) && self->selection->len > 1)
    /* the selection stays for a drag; a click without one keeps this key */
    self->collapse_on_release = TRUE;
  else
    set_only (self, joint, channel, index);
  if (_sequin_timeline_key_is_selected (self, joint, channel, index))
    _sequin_timeline_set_current (self, (gssize) joint, channel, (gssize) index);
  else
    _sequin_timeline_set_current (self, -1, SQ_CHANNEL_ROTATION, -1);
  changed (self);
}

const SequinTimelineKey *
sequin_timeline_get_selected_keys (SequinTimeline *self,
                                   gsize          *n)
{
  g_return_val_if_fail (SEQUIN_IS_TIMELINE (self), NULL);

  if (n != NULL)
    *n = self->selection->len;
  return (const SequinTimelineKey *) (gpointer) self->selection->data;
}

void
sequin_timeline_set_selected_keys (SequinTimeline          *self,
                                   const SequinTimelineKey *keys,
                                   gsize                    n)
{
  g_return_if_fail (SEQUIN_IS_TIMELINE (self));
  g_return_if_fail (keys != NULL || n == 0);

  g_array_set_size (self->selection, 0);
  for (gsize i = 0; i < n; i++)
    if (valid (self, keys[i].joint, keys[i].channel, keys[i].index))
      {
        SequinTimelineKey k = make_key (self, keys[i].joint, keys[i].channel, keys[i].index);
        g_array_append_val (self->selection, k);
      }
  sort_unique (self->selection);
  if (n > 0 && valid (self, keys[0].joint, keys[0].channel, keys[0].index))
    _sequin_timeline_set_current (self, (gssize) keys[0].joint, keys[0].channel, (gssize) keys[0].index);
  else
    _sequin_timeline_set_current (self, -1, SQ_CHANNEL_ROTATION, -1);
  changed (self);
}

void
sequin_timeline_select_all_keys (SequinTimeline *self,
                                 const gsize    *joints,
                                 gsize           n)
{
  gsize count;

  g_return_if_fail (SEQUIN_IS_TIMELINE (self));

  g_array_set_size (self->selection, 0);
  count = joints != NULL && n > 0 ? n : self->clip != NULL ? self->clip->n_joints : 0;
  for (gsize i = 0; i < count; i++)
    {
      gsize j = joints != NULL && n > 0 ? joints[i] : i;

      if (self->clip == NULL || j >= self->clip->n_joints)
        continue;
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        for (gsize k = 0; k < self->clip->joints[j].tracks[c].n_keys; k++)
          {
            SequinTimelineKey key = make_key (self, j, (SqChannel) c, k);
            g_array_append_val (self->selection, key);
          }
    }
  sort_unique (self->selection);
  if (self->selection->len > 0)
    {
      const SequinTimelineKey *first = &g_array_index (self->selection, SequinTimelineKey, 0);
      _sequin_timeline_set_current (self, (gssize) first->joint, first->channel, (gssize) first->index);
    }
  else
    _sequin_timeline_set_current (self, -1, SQ_CHANNEL_ROTATION, -1);
  changed (self);
}

/* ---- the rubber band ----------------------------------------------------------- */

void
_sequin_timeline_box_begin (SequinTimeline *self,
                            double          x,
                            double          y,
                            GdkModifierType state)
{
  self->boxing = TRUE;
  self->box_x0 = self->box_x1 = x;
  self->box_y0 = self->box_y1 = y;
  self->box_add = (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK)) != 0;
  g_clear_pointer (&self->box_base, g_array_unref);
  self->box_base = g_array_sized_new (FALSE, FALSE, sizeof (SequinTimelineKey), self->selection->len);
  g_array_append_vals (self->box_base, self->selection->data, self->selection->len);
}

/* the current key: kept when still selected, else the first selected */
static void
current_from_selection (SequinTimeline *self)
{
  if (self->selection->len == 0)
    _sequin_timeline_set_current (self, -1, SQ_CHANNEL_ROTATION, -1);
  else if (self->sel_joint < 0
           || !_sequin_timeline_key_is_selected (self, (gsize) self->sel_joint, self->sel_channel, (gsize) self->sel_key))
    {
      const SequinTimelineKey *first = &g_array_index (self->selection, SequinTimelineKey, 0);
      _sequin_timeline_set_current (self, (gssize) first->joint, first->channel, (gssize) first->index);
    }
}

gboolean
_sequin_timeline_keys_cancel (SequinTimeline *self)
{
  if (self->boxing && self->box_base != NULL)
    {
      g_array_set_size (self->selection, 0);
      g_array_append_vals (self->selection, self->box_base->data, self->box_base->len);
      current_from_selection (self);
    }
  else if (!self->moving)
    return FALSE;
  if (self->moving)
    _sequin_timeline_emit_moving (self, 0);
  self->boxing = self->moving = self->drag_on_key = FALSE;
  self->move_frames = self->move_wanted = 0;
  changed (self);
  return TRUE;
}

void
_sequin_timeline_keys_shift (SequinTimeline *self,
                             int             frames)
{
  double fps = self->clip != NULL ? self->clip->fps : 0;
  gboolean snaps = fps > 0 && isfinite (fps);

  for (guint i = 0; i < self->selection->len; i++)
    {
      SequinTimelineKey *k = &g_array_index (self->selection, SequinTimelineKey, i);
      /* as sq_edit_move_keys_new snaps a key: time + delta to a frame */
      double delta = snaps ? frames / fps : frames / _sequin_timeline_clip_fps (self->clip);

      k->time = snaps ? round ((k->time + delta) * fps) / fps : k->time + delta;
    }
}

/* adds the keys whose marks' centres are in the box to the selection */
static void
add_keys_in_box (SequinTimeline *self,
                 double          x0,
                 double          y0,
                 double          x1,
                 double          y1)
{
  double t0 = _sequin_timeline_time_at_x (self, MAX (x0, _sequin_timeline_lanes_x (self)));
  double t1 = _sequin_timeline_time_at_x (self, x1);
  gsize first = (gsize) MAX (0.0, floor ((MAX (y0, RULER_H) - RULER_H + _sequin_timeline_voffset (self)) / LANE_H));

  for (gsize j = first; j < self->clip->n_joints; j++)
    {
      if (RULER_H + j * LANE_H - _sequin_timeline_voffset (self) > y1)
        break;
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        {
          const SqTrack *track = &self->clip->joints[j].tracks[c];
          double cy;

          if (track->n_keys == 0)
            continue;
          cy = _sequin_timeline_y_for_key (self, j, (SqChannel) c);
          if (cy < y0 || cy > y1)
            continue;
          for (gsize k = sq_track_lower_bound (track, t0, 0, track->n_keys);
               k < track->n_keys && sq_track_time (track, k) <= t1; k++)
            {
              SequinTimelineKey key = make_key (self, j, (SqChannel) c, k);
              g_array_append_val (self->selection, key);
            }
        }
    }
}

void
_sequin_timeline_box_update (SequinTimeline *self,
                             double          x,
                             double          y)
{
  if (!self->boxing || self->clip == NULL)
    return;
  self->box_x1 = x;
  self->box_y1 = y;
  g_array_set_size (self->selection, 0);
  if (self->box_add && self->box_base != NULL)
    g_array_append_vals (self->selection, self->box_base->data, self->box_base->len);
  add_keys_in_box (self, MIN (self->box_x0, x), MIN (self->box_y0, y), MAX (self->box_x0, x), MAX (self->box_y0, y));
  sort_unique (self->selection);
  current_from_selection (self);
  changed (self);
}

/* ---- dragging keys in time -------------------------------------------------------- */

static double
fps_of (SequinTimeline *self)
{
  return _sequin_timeline_clip_fps (self->clip);
}

/* The frames a run of selected keys (indices first .. last of one track,
 * each selected) may move by: down to *lo, up to *hi. Only the keys
 * around the run stay: a key cannot reach or pass them, nor land on their
 * frame (a key between frames, as an .anim's, is on its nearest); the
 * clip's ends bound it too. */
static void
run_limits (SequinTimeline          *self,
            const SequinTimelineKey *first,
            const SequinTimelineKey *last,
            int                     *lo,
            int                     *hi)
{
  const SqTrack *track = &self->clip->joints[first->joint].tracks[first->channel];
  double fps = fps_of (self);
  double start = floor (first->time * fps + 0.5), end = floor (last->time * fps + 0.5);
  double clip_end = floor (MAX (self->clip->duration, 0.0) * fps + 0.5 + FRAME_EPS);
  double top = clip_end - end, bottom = -start;

  if (last->index + 1 < track->n_keys)
    top = MIN (top, floor (sq_track_time (track, last->index + 1) * fps + 0.5) - 1 - end);
  if (first->index > 0)
    bottom = MAX (bottom, floor (sq_track_time (track, first->index - 1) * fps + 0.5) + 1 - start);
  *lo = (int) CLAMP (bottom, -G_MAXINT / 2, 0);
  *hi = (int) CLAMP (top, 0, G_MAXINT / 2);
}

/* The limits of a drag: the nearest of every run's. O(selected keys). */
void
_sequin_timeline_move_begin (SequinTimeline *self)
{
  guint i = 0;

  self->moving = TRUE;
  self->move_frames = self->move_wanted = 0;
  self->move_min = -G_MAXINT / 2;
  self->move_max = G_MAXINT / 2;
  self->move_t0 = G_MAXDOUBLE;
  self->move_t1 = -G_MAXDOUBLE;
  while (i < self->selection->len)
    {
      const SequinTimelineKey *first = &g_array_index (self->selection, SequinTimelineKey, i);
      const SequinTimelineKey *last = first;
      int lo, hi;

      /* the run: the same track, consecutive indices */
      while (++i < self->selection->len)
        {
          const SequinTimelineKey *k = &g_array_index (self->selection, SequinTimelineKey, i);

          if (k->joint != last->joint || k->channel != last->channel || k->index != last->index + 1)
            break;
          last = k;
        }
      run_limits (self, first, last, &lo, &hi);
      self->move_t0 = MIN (self->move_t0, first->time);
      self->move_t1 = MAX (self->move_t1, last->time);
      self->move_min = MAX (self->move_min, lo);
      self->move_max = MIN (self->move_max, hi);
    }
  redraw (self);
}

void
_sequin_timeline_move_update (SequinTimeline *self,
                              double          dx)
{
  if (!self->moving)
    return;
  int was = self->move_frames;

  self->move_wanted = (int) CLAMP (round (dx / self->zoom * fps_of (self)), -G_MAXINT / 2, G_MAXINT / 2);
  self->move_frames = CLAMP (self->move_wanted, self->move_min, self->move_max);
  if (self->move_frames != was)
    _sequin_timeline_emit_moving (self, self->move_frames);
  redraw (self);
}

char *
_sequin_timeline_move_text (SequinTimeline *self)
{
  g_autofree char *by = NULL;

  if (!self->moving)
    return NULL;
  by = g_strdup_printf (g_dngettext (NULL, "%+d frame", "%+d frames", ABS (self->move_frames)), self->move_frames);
  if (self->move_wanted > self->move_frames)
    /* Translators: a drag of keys stopped; %s is "+3 frames" */
    return g_strdup_printf (self->move_max == 0 && self->move_frames == 0
                            ? _("%s: a key that is not selected or the end is in the way")
                            : _("%s: stopped by a key that is not selected or the end"), by);
  if (self->move_wanted < self->move_frames)
    return g_strdup_printf (self->move_min == 0 && self->move_frames == 0
                            ? _("%s: a key that is not selected or the start is in the way")
                            : _("%s: stopped by a key that is not selected or the start"), by);
  return g_steal_pointer (&by);
}

/* ---- the keyboard -------------------------------------------------------------------- */

void
_sequin_timeline_step_key (SequinTimeline *self,
                           int             direction,
                           gboolean        extend)
{
  gssize joint = self->sel_joint >= 0 ? self->sel_joint : self->lane;
  SqChannel channel = self->sel_joint >= 0 ? self->sel_channel : SQ_CHANNEL_ROTATION;
  const SqTrack *track;
  gssize to;

  if (self->clip == NULL || joint < 0 || (gsize) joint >= self->clip->n_joints)
    return;
  if (self->sel_joint < 0)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      if (self->clip->joints[joint].tracks[c].n_keys > 0)
        {
          channel = (SqChannel) c;
          break;
        }
  track = &self->clip->joints[joint].tracks[channel];
  if (track->n_keys == 0)
    return;
  if (self->sel_joint >= 0)
    to = CLAMP (self->sel_key + direction, 0, (gssize) track->n_keys - 1);
  else
    {
      /* from the playhead: the first key after (before) it */
      double t = sequin_timeline_get_time (self);
      gsize i = sq_track_lower_bound (track, t, 0, track->n_keys);

      if (direction > 0)
        to = (gssize) MIN (i < track->n_keys && sq_track_time (track, i) == t ? i + 1 : i, track->n_keys - 1);
      else
        to = i > 0 ? (gssize) i - 1 : 0;
    }
  if (extend)
    add_key (self, (gsize) joint, channel, (gsize) to, FALSE);
  else
    set_only (self, (gsize) joint, channel, (gsize) to);
  _sequin_timeline_focus_key (self, (gsize) joint, channel, (gsize) to);
}

gboolean
_sequin_timeline_get_move (SequinTimeline *self,
                           int            *frames,
                           int            *min,
                           int            *max,
                           int            *wanted)
{
  g_return_val_if_fail (SEQUIN_IS_TIMELINE (self), FALSE);

  if (frames != NULL)
    *frames = self->move_frames;
  if (min != NULL)
    *min = self->move_min;
  if (max != NULL)
    *max = self->move_max;
  if (wanted != NULL)
    *wanted = self->move_wanted;
  return self->moving;
}
