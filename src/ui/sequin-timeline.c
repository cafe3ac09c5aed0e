/* sequin-timeline.c: the cairo timeline of a clip's keys
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Geometry. The widget is split into a name column on the left (width
 * names_w, measured from the joint names) and the lanes on the right, with
 * the ruler across the top. A time t is drawn at
 *
 *   x = names_w + PAD_X + t * zoom - hoffset
 *
 * and joint j's lane starts at y = RULER_H + j * LANE_H - voffset, where
 * hoffset and voffset are the values of the GtkScrollable adjustments. Each
 * channel that has keys gets a row of its own within the lane.
 *
 * Drawing cost. Only visible lanes are drawn, and per track only the keys in
 * the visible time range: the first one is found by binary search, and after
 * drawing a mark in a pixel column the next key is found by a galloping
 * search for the start of the next column, so a track costs
 * O(visible columns × log n) whatever its number of keys. Marks are never
 * wider than the frame spacing (keys on neighbouring frames do not overlap),
 * thin ones are pixel-aligned boxes, and marks closer than RUN_GAP pixels
 * merge into one band. Every mark of a channel goes into one cairo path,
 * filled once. A clip change is O(joints).
 */
#define G_LOG_DOMAIN "sequin-timeline"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sequin-timeline.h"
#include "sequin-timeline-private.h"
#include "sequin-timeline-draw.h"
#include "sequin-utils.h"

enum {
  PROP_0,
  PROP_TIME,
  PROP_ZOOM,
  N_PROPS,

  /* GtkScrollable */
  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

enum {
  KEY_SELECTED,
  JOINT_SELECTED,
  MOVE_KEYS,
  MOVING,
  SELECTION_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE_WITH_CODE (SequinTimeline, sequin_timeline, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

/* ---- helpers ------------------------------------------------------------- */

static const char *
channel_name (SqChannel channel)
{
  switch (channel)
    {
    case SQ_CHANNEL_ROTATION:
      return _("rotation");
    case SQ_CHANNEL_TRANSLATION:
      return _("translation");
    case SQ_CHANNEL_SCALE:
      return _("scale");
    case SQ_N_CHANNELS:
    default:
      return "";
    }
}

double
_sequin_timeline_clip_fps (const SqClip *clip)
{
  if (clip != NULL && isfinite (clip->fps) && clip->fps > 0)
    return clip->fps;
  return 30.0;
}

int
_sequin_timeline_clip_frame_base (const SqClip *clip)
{
  return clip != NULL ? clip->frame_base : 0;
}

int
_sequin_timeline_frame_of (const SqClip *clip,
                           double        time)
{
  if (clip != NULL && isfinite (clip->fps) && clip->fps > 0)
    return sq_clip_time_to_frame (clip, time);
  return (int) floor (time * 30.0 + 0.5);
}

/* A time this close to a frame (in frames) is on it */
#define ON_FRAME_EPS 1e-6

/* The frame at `time` as a number with a fraction, frame base included */
static double
fractional_frame (const SqClip *clip,
                  double        time)
{
  return time * _sequin_timeline_clip_fps (clip) + _sequin_timeline_clip_frame_base (clip);
}

static gboolean
is_on_frame (const SqClip *clip,
             double        time)
{
  double f = time * _sequin_timeline_clip_fps (clip);

  return fabs (f - floor (f + 0.5)) < ON_FRAME_EPS;
}

/* first index >= from whose time is >= t */
gsize
_sequin_timeline_lower_bound (const SqTrack *track,
                              double         t,
                              gsize          from)
{
  return sq_track_lower_bound (track, t, from, track->n_keys);
}

/* the same, searching forward from `from` by doubling steps: cheap when the
 * answer is near, as it is when walking a track column by column */
gsize
_sequin_timeline_gallop (const SqTrack *track,
                         double         t,
                         gsize          from)
{
  gsize lo = from, hi, step = 1;

  if (lo >= track->n_keys || sq_track_time (track, lo) >= t)
    return lo;
  /* keys[lo] < t: find hi with keys[hi] >= t (or the end) */
  for (;;)
    {
      hi = lo + step;
      if (hi >= track->n_keys)
        {
          hi = track->n_keys;
          break;
        }
      if (sq_track_time (track, hi) >= t)
        break;
      lo = hi;
      step *= 2;
    }
  /* keys[lo] < t <= keys[hi] */
  return sq_track_lower_bound (track, t, lo + 1, hi);
}

/* The time of the key (any joint, any channel) nearest to `t`; FALSE when
 * the clip has no key. O(tracks × log keys). */
static gboolean
nearest_key_time (const SqClip *clip,
                  double        t,
                  double       *nearest)
{
  gboolean found = FALSE;

  for (gsize j = 0; clip != NULL && j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *track = &clip->joints[j].tracks[c];
        gsize k = _sequin_timeline_lower_bound (track, t, 0);

        for (gsize i = k > 0 ? k - 1 : 0; i <= k && i < track->n_keys; i++)
          {
            double kt = sq_track_time (track, i);
            if (!found || fabs (kt - t) < fabs (*nearest - t))
              *nearest = kt;
            found = TRUE;
          }
      }
  return found;
}

/* The channels of a joint that have keys, in order; returns how many. */
static guint
joint_rows (const SqJoint *joint,
            SqChannel      rows[SQ_N_CHANNELS])
{
  guint n = 0;

  for (guint c = 0; c < SQ_N_CHANNELS; c++)
    if (joint->tracks[c].n_keys > 0)
      rows[n++] = (SqChannel) c;
  return n;
}

/* row index of a channel in its joint's lane, and the number of rows */
guint
_sequin_timeline_channel_row (const SqJoint *joint,
                              SqChannel      channel,
                              guint         *n_rows)
{
  SqChannel rows[SQ_N_CHANNELS];
  guint n = joint_rows (joint, rows);
  guint row = 0;

  for (guint i = 0; i < n; i++)
    if (rows[i] == channel)
      row = i;
  *n_rows = MAX (n, 1);
  return row;
}

double
_sequin_timeline_mark_radius (guint n_rows)
{
  return n_rows <= 1 ? 5.5 : n_rows == 2 ? 4.5 : 3.5;
}

/* Half the width of a mark: narrower than its height when frames are close,
 * so that marks of keys on neighbouring frames do not overlap. */
double
_sequin_timeline_mark_half_width (SequinTimeline *self,
                                  double          r)
{
  return CLAMP (self->zoom / _sequin_timeline_clip_fps (self->clip) / 2 - 0.5, 1.0, r);
}

static double
lanes_height (SequinTimeline *self)
{
  return MAX (0.0, gtk_widget_get_height (GTK_WIDGET (self)) - RULER_H);
}

static double
hoffset (SequinTimeline *self)
{
  return gtk_adjustment_get_value (self->hadjustment);
}

double
_sequin_timeline_voffset (SequinTimeline *self)
{
  return gtk_adjustment_get_value (self->vadjustment);
}

void
_sequin_timeline_ensure_names_width (SequinTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  PangoContext *context = gtk_widget_get_pango_context (widget);
  const PangoFontDescription *font = pango_context_get_font_description (context);
  guint hash = font != NULL ? pango_font_description_hash (font) : 0;
  g_autoptr(PangoLayout) layout = NULL;
  PangoAttrList *attrs;
  int widest = 0;

  /* measured again only when the font or the names change, not for every
   * edit of the keys */
  if (self->clip != NULL)
    for (gsize j = 0; j < MIN (self->clip->n_joints, NAMES_MEASURED); j++)
      hash = hash * 31 + g_str_hash (self->clip->joints[j].name);
  if (self->names_w > 0 && hash == self->names_font_hash)
    return;

  layout = gtk_widget_create_pango_layout (widget, NULL);
  attrs = pango_attr_list_new ();
  pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);

  if (self->clip != NULL)
    for (gsize j = 0; j < MIN (self->clip->n_joints, NAMES_MEASURED); j++)
      {
        int w;

        pango_layout_set_text (layout, self->clip->joints[j].name, -1);
        pango_layout_get_pixel_size (layout, &w, NULL);
        widest = MAX (widest, w);
      }

  self->names_w = CLAMP (ceil (NAME_INDENT + widest + 12), NAMES_W_MIN, NAMES_W_MAX);
  self->names_font_hash = hash;
}

static double
content_width (SequinTimeline *self)
{
  return PAD_X + self->extent * self->zoom + PAD_END;
}

/* Reconfigures both adjustments for the current size, zoom and clip, with
 * the values asked for (clamped by the adjustments). */
static void
configure_adjustments (SequinTimeline *self,
                       double          hvalue,
                       double          vvalue)
{
  double page_w, page_h, upper_h;

  if (self->hadjustment == NULL || self->vadjustment == NULL)
    return;   /* disposed */
  _sequin_timeline_ensure_names_width (self);
  page_w = MAX (0.0, gtk_widget_get_width (GTK_WIDGET (self)) - self->names_w);
  page_h = lanes_height (self);
  upper_h = self->clip != NULL ? self->clip->n_joints * LANE_H : 0;

  gtk_adjustment_configure (self->hadjustment,
                            CLAMP (hvalue, 0, MAX (0.0, content_width (self) - page_w)),
                            0, MAX (content_width (self), page_w),
                            WHEEL_STEP, page_w * 0.9, page_w);
  gtk_adjustment_configure (self->vadjustment,
                            CLAMP (vvalue, 0, MAX (0.0, upper_h - page_h)),
                            0, MAX (upper_h, page_h),
                            LANE_H, page_h * 0.9, page_h);
}

/* the selection still names a key of the clip (it always should, as long as
 * the owner calls sequin_timeline_clip_changed() after every edit) */
gboolean
_sequin_timeline_has_selection (SequinTimeline *self)
{
  return self->clip != NULL
         && self->sel_joint >= 0 && (gsize) self->sel_joint < self->clip->n_joints
         && self->sel_key >= 0
         && (gsize) self->sel_key < self->clip->joints[self->sel_joint].tracks[self->sel_channel].n_keys;
}

/* What the playhead is on: "frame 15", "key at frame 15.43" (snapped to a
 * key between frames) or "frame 15.43" (between frames, as when playing) */
char *
_sequin_timeline_position_text (SequinTimeline *self)
{
  if (sequin_clip_counts_ticks (self->clip))
    /* Translators: the tick under the playhead (a .x counts time in ticks) */
    return g_strdup_printf (_("tick %d"), _sequin_timeline_frame_of (self->clip, self->time));
  if (self->clip == NULL || is_on_frame (self->clip, self->time))
    /* Translators: the frame number under the playhead */
    return g_strdup_printf (_("frame %d"), _sequin_timeline_frame_of (self->clip, self->time));
  {
    /* one rule for frame numbers (sq-units.h): "20.33", whole on a frame */
    g_autofree char *frame = sq_format_frame (fractional_frame (self->clip, self->time));

    if (self->on_key)
      /* Translators: the playhead is on a key between two frames; %s is its frame number with a fraction */
      return g_strdup_printf (_("key at frame %s"), frame);
    /* Translators: the playhead is between two frames; %s is its frame number with a fraction */
    return g_strdup_printf (_("frame %s"), frame);
  }
}

char *
sequin_timeline_describe_time (SequinTimeline *self)
{
  g_autofree char *where = NULL, *seconds = NULL;

  g_return_val_if_fail (SEQUIN_IS_TIMELINE (self), NULL);
  where = _sequin_timeline_position_text (self);
  seconds = sq_format_seconds (self->time);
  /* Translators: the playhead's time ("2.033 s") and what it is on ("frame 15") */
  return g_strdup_printf (_("%s, %s"), seconds, where);
}

void
_sequin_timeline_emit_moving (SequinTimeline *self,
                              int             frames)
{
  g_signal_emit (self, signals[MOVING], 0, frames / _sequin_timeline_clip_fps (self->clip));
}

void
_sequin_timeline_selection_changed (SequinTimeline *self)
{
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

void
_sequin_timeline_update_accessible (SequinTimeline *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *value_text = NULL;

  value_text = sequin_timeline_describe_time (self);
  g_string_append_printf (text, _("Playhead at %s"), value_text);

  if (_sequin_timeline_has_selection (self))
    {
      const SqJoint *joint = &self->clip->joints[self->sel_joint];
      const SqKey key_value = sq_track_key (&joint->tracks[self->sel_channel], self->sel_key), *key = &key_value;

      g_string_append (text, "; ");
      /* Translators: "selected: pelvis rotation key 5 at frame 12" */
      g_string_append_printf (text, _("selected: %s %s key %zd at frame %d"),
                              joint->name, channel_name (self->sel_channel),
                              self->sel_key, _sequin_timeline_frame_of (self->clip, key->time));
    }
  if (self->selection != NULL && self->selection->len > 0)
    {
      g_string_append (text, "; ");
      g_string_append_printf (text, g_dngettext (NULL, "%u key selected", "%u keys selected", self->selection->len),
                              self->selection->len);
    }
  if (self->moving)
    {
      g_autofree char *move = _sequin_timeline_move_text (self);

      g_string_append (text, "; ");
      /* Translators: what a drag of keys does now, e.g. "moving +3 frames" */
      g_string_append_printf (text, _("moving %s"), move);
    }

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text->str,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_MIN, 0.0,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_MAX, self->extent,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, self->time,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, value_text,
                                  -1);
}

/* Scrolls horizontally so that x (widget coordinates) is in view; `lead` is
 * where to put it, as a fraction of the lanes' width, when it is not. */
static void
scroll_x_into_view (SequinTimeline *self,
                    double          x,
                    double          lead)
{
  double left = _sequin_timeline_lanes_x (self);
  double right = gtk_widget_get_width (GTK_WIDGET (self));
  double margin = MIN (24.0, (right - left) / 4);

  if (right - left <= 0)
    return;
  if (x >= left + margin && x <= right - margin)
    return;
  gtk_adjustment_set_value (self->hadjustment,
                            hoffset (self) + x - (left + lead * (right - left)));
}

static void
set_time_internal (SequinTimeline *self,
                   double          seconds,
                   gboolean        scroll)
{
  double t;

  if (isnan (seconds))
    return;
  t = CLAMP (seconds, 0.0, self->extent);
  self->on_key = FALSE;
  if (t == self->time)
    {
      _sequin_timeline_update_accessible (self);
      return;
    }

  if (scroll)
    {
      double x = _sequin_timeline_x_for_time (self, t);
      scroll_x_into_view (self, x, t < self->time ? 0.9 : 0.1);
    }

  self->time = t;
  _sequin_timeline_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME]);
}

/* Where a pointer at `seconds` puts the playhead: on the nearest frame, or
 * on the nearest key when that is nearer (keys off the frame grid, as the
 * U16 times of .anim files are) */
void
_sequin_timeline_set_time_snapped (SequinTimeline *self,
                                   double          seconds)
{
  double fps = _sequin_timeline_clip_fps (self->clip);
  double frame, key;
  gboolean to_key;

  if (isnan (seconds))
    return;
  seconds = CLAMP (seconds, 0.0, self->extent);
  frame = floor (seconds * fps + 0.5) / fps;
  if (frame > self->extent)
    frame = floor (self->extent * fps) / fps;
  to_key = nearest_key_time (self->clip, seconds, &key) && fabs (key - seconds) < fabs (frame - seconds)
           && !is_on_frame (self->clip, key);
  set_time_internal (self, to_key ? key : frame, FALSE);
  if (to_key)
    {
      self->on_key = TRUE;
      _sequin_timeline_update_accessible (self);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

void
_sequin_timeline_set_current (SequinTimeline *self,
                              gssize          joint,
                              SqChannel       channel,
                              gssize          key)
{
  if (joint < 0 || key < 0)
    joint = key = -1;
  self->sel_joint = joint;
  self->sel_channel = joint < 0 ? SQ_CHANNEL_ROTATION : channel;
  self->sel_key = key;
}

static void
select_internal (SequinTimeline *self,
                 gssize          joint,
                 SqChannel       channel,
                 gssize          key)
{
  _sequin_timeline_set_current (self, joint, channel, key);
  g_array_set_size (self->selection, 0);
  if (self->sel_joint >= 0)
    {
      SequinTimelineKey k = { (gsize) joint, channel, (gsize) key,
                              sq_track_time (&self->clip->joints[joint].tracks[channel], (gsize) key) };
      g_array_append_val (self->selection, k);
    }
  _sequin_timeline_selection_changed (self);
  _sequin_timeline_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- geometry (private API) ---------------------------------------------- */

double
_sequin_timeline_lanes_x (SequinTimeline *self)
{
  g_return_val_if_fail (SEQUIN_IS_TIMELINE (self), 0);

  _sequin_timeline_ensure_names_width (self);
  return self->names_w;
}

double
_sequin_timeline_x_for_time (SequinTimeline *self,
                             double          time)
{
  g_return_val_if_fail (SEQUIN_IS_TIMELINE (self), 0);

  return _sequin_timeline_lanes_x (self) + PAD_X + time * self->zoom - hoffset (self);
}

double
_sequin_timeline_time_at_x (SequinTimeline *self,
                            double          x)
{
  g_return_val_if_fail (SEQUIN_IS_TIMELINE (self), 0);

  return (x - _sequin_timeline_lanes_x (self) - PAD_X + hoffset (self)) / self->zoom;
}

double
_sequin_timeline_y_for_key (SequinTimeline *self,
                            gsize           joint,
                            SqChannel       channel)
{
  guint row, n_rows = 1;

  g_return_val_if_fail (SEQUIN_IS_TIMELINE (self), 0);
  g_return_val_if_fail (self->clip != NULL && joint < self->clip->n_joints, 0);
  g_return_val_if_fail (channel < SQ_N_CHANNELS, 0);

  row = _sequin_timeline_channel_row (&self->clip->joints[joint], channel, &n_rows);
  return RULER_H + joint * LANE_H - _sequin_timeline_voffset (self) + LANE_H * (row + 0.5) / n_rows;
}

double
_sequin_timeline_get_hoffset (SequinTimeline *self)
{
  g_return_val_if_fail (SEQUIN_IS_TIMELINE (self), 0);
  return hoffset (self);
}

double
_sequin_timeline_get_voffset (SequinTimeline *self)
{
  g_return_val_if_fail (SEQUIN_IS_TIMELINE (self), 0);
  return _sequin_timeline_voffset (self);
}

/* ---- hit testing --------------------------------------------------------- */

gboolean
sequin_timeline_key_at (SequinTimeline *self,
                        double          x,
                        double          y,
                        gssize         *joint,
                        SqChannel      *channel,
                        gssize         *key)
{
  const SqJoint *j;
  const SqTrack *track;
  SqChannel rows[SQ_N_CHANNELS];
  guint n_rows, row;
  double lane_y, r, t, tol, best_d = G_MAXDOUBLE;
  gssize lane, best = -1;
  gsize i;

  g_return_val_if_fail (SEQUIN_IS_TIMELINE (self), FALSE);

  if (joint != NULL)
    *joint = -1;
  if (channel != NULL)
    *channel = SQ_CHANNEL_ROTATION;
  if (key != NULL)
    *key = -1;

  if (self->clip == NULL
      || x < _sequin_timeline_lanes_x (self) || x >= gtk_widget_get_width (GTK_WIDGET (self))
      || y < RULER_H || y >= gtk_widget_get_height (GTK_WIDGET (self)))
    return FALSE;

  lane_y = y - RULER_H + _sequin_timeline_voffset (self);
  lane = (gssize) floor (lane_y / LANE_H);
  if (lane < 0 || (gsize) lane >= self->clip->n_joints)
    return FALSE;

  j = &self->clip->joints[lane];
  n_rows = joint_rows (j, rows);
  if (n_rows == 0)
    return FALSE;
  row = MIN ((guint) floor ((lane_y - lane * LANE_H) / (LANE_H / n_rows)), n_rows - 1);
  track = &j->tracks[rows[row]];

  r = _sequin_timeline_mark_radius (n_rows);
  t = _sequin_timeline_time_at_x (self, x);
  tol = (_sequin_timeline_mark_half_width (self, r) + HIT_SLOP) / self->zoom;

  /* the nearest key on either side of t */
  i = _sequin_timeline_lower_bound (track, t, 0);
  if (i < track->n_keys && sq_track_time (track, i) - t <= tol)
    {
      best = i;
      best_d = sq_track_time (track, i) - t;
    }
  if (i > 0 && t - sq_track_time (track, i - 1) <= tol && t - sq_track_time (track, i - 1) <= best_d)
    best = i - 1;

  if (best < 0)
    return FALSE;
  if (joint != NULL)
    *joint = lane;
  if (channel != NULL)
    *channel = rows[row];
  if (key != NULL)
    *key = best;
  return TRUE;
}

/* timeline.zoom-fit, timeline.zoom-in, timeline.zoom-out */
static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SequinTimeline *self = SEQUIN_TIMELINE (widget);

  if (g_str_equal (action_name, "timeline.zoom-fit"))
    sequin_timeline_zoom_to_fit (self);
  else
    _sequin_timeline_zoom_at (self, _sequin_timeline_x_for_time (self, self->time),
                              g_str_equal (action_name, "timeline.zoom-in") ? ZOOM_WHEEL : 1 / ZOOM_WHEEL);
}


/* ---- input --------------------------------------------------------------- */

static void lane_into_view (SequinTimeline *self,
                            gssize          joint);

void
_sequin_timeline_focus_key (SequinTimeline *self,
                            gsize           joint,
                            SqChannel       channel,
                            gsize           key)
{
  double time = sq_track_time (&self->clip->joints[joint].tracks[channel], key);

  _sequin_timeline_set_current (self, (gssize) joint, channel, (gssize) key);
  lane_into_view (self, (gssize) joint);
  set_time_internal (self, time, TRUE);
  self->on_key = !is_on_frame (self->clip, self->time);
  _sequin_timeline_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[KEY_SELECTED], 0, (gint64) joint, (int) channel, (gint64) key);
}

static gboolean
select_key_at (SequinTimeline *self,
               double          x,
               double          y,
               GdkModifierType state)
{
  gssize joint, key;
  SqChannel channel;

  if (!sequin_timeline_key_at (self, x, y, &joint, &channel, &key))
    return FALSE;

  _sequin_timeline_keys_press (self, (gsize) joint, channel, (gsize) key, state);
  if (self->sel_joint < 0)
    return TRUE;   /* Ctrl+click took it out of the selection */
  set_time_internal (self, sq_track_time (&self->clip->joints[joint].tracks[channel], key), FALSE);
  self->on_key = !is_on_frame (self->clip, self->time);
  _sequin_timeline_update_accessible (self);
  g_signal_emit (self, signals[KEY_SELECTED], 0, (gint64) joint, (int) channel, (gint64) key);
  return TRUE;
}

void
_sequin_timeline_press (SequinTimeline *self,
                        int             n_press,
                        double          x,
                        double          y)
{
  _sequin_timeline_press_full (self, n_press, x, y, 0);
}

void
_sequin_timeline_press_full (SequinTimeline  *self,
                             int              n_press,
                             double           x,
                             double           y,
                             GdkModifierType  state)
{
  g_return_if_fail (SEQUIN_IS_TIMELINE (self));

  if (gtk_widget_get_focusable (GTK_WIDGET (self)))
    gtk_widget_grab_focus (GTK_WIDGET (self));

  if (self->clip == NULL)
    return;
  if (x < _sequin_timeline_lanes_x (self))
    {
      /* a joint's name: its lane, and the joint in the tree */
      double lane = floor ((y - RULER_H + _sequin_timeline_voffset (self)) / LANE_H);

      if (y >= RULER_H && lane >= 0 && lane < (double) self->clip->n_joints)
        {
          sequin_timeline_select_joint (self, (gssize) lane);
          g_signal_emit (self, signals[JOINT_SELECTED], 0, (gint64) lane);
        }
      return;
    }
  if (select_key_at (self, x, y, state))
    return;
  _sequin_timeline_set_time_snapped (self, _sequin_timeline_time_at_x (self, x));
}

void
_sequin_timeline_drag_begin (SequinTimeline *self,
                             double          x,
                             double          y)
{
  _sequin_timeline_drag_begin_full (self, x, y, 0);
}

/* A drag on the ruler scrubs; one from a key moves the selected keys (once
 * the pointer moves, whichever of press and drag-begin came first); one
 * from an empty lane draws a rubber band. */
void
_sequin_timeline_drag_begin_full (SequinTimeline  *self,
                                  double           x,
                                  double           y,
                                  GdkModifierType  state)
{
  g_return_if_fail (SEQUIN_IS_TIMELINE (self));

  self->scrubbing = self->boxing = self->moving = self->drag_on_key = FALSE;
  self->drag_start_x = x;
  self->drag_start_y = y;
  if (self->clip == NULL || x < _sequin_timeline_lanes_x (self))
    return;
  if (sequin_timeline_key_at (self, x, y, NULL, NULL, NULL))
    self->drag_on_key = TRUE;
  else if (y < RULER_H)
    self->scrubbing = TRUE;
  else
    _sequin_timeline_box_begin (self, x, y, state);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* pointer moves smaller than this (px) are a click, not a drag */
#define DRAG_THRESHOLD 3.0

void
_sequin_timeline_drag_update (SequinTimeline *self,
                              double          dx,
                              double          dy)
{
  g_return_if_fail (SEQUIN_IS_TIMELINE (self));

  if (self->scrubbing)
    _sequin_timeline_set_time_snapped (self, _sequin_timeline_time_at_x (self, self->drag_start_x + dx));
  else if (self->drag_on_key)
    {
      gssize joint, key;
      SqChannel channel;

      if (!self->moving && fabs (dx) < DRAG_THRESHOLD)
        return;
      if (!self->moving)
        {
          /* the key pressed: selected (it is, unless Ctrl took it out) */
          if (!sequin_timeline_key_at (self, self->drag_start_x, self->drag_start_y, &joint, &channel, &key)
              || !_sequin_timeline_key_is_selected (self, (gsize) joint, channel, (gsize) key))
            {
              self->drag_on_key = FALSE;
              return;
            }
          self->collapse_on_release = FALSE;
          _sequin_timeline_move_begin (self);
        }
      _sequin_timeline_move_update (self, dx);
    }
  else if (self->boxing && (self->box_x0 != self->box_x1 || fabs (dx) + fabs (dy) >= DRAG_THRESHOLD))
    _sequin_timeline_box_update (self, self->drag_start_x + dx, self->drag_start_y + dy);
}

/* The drag ends: a move of the keys is one edit (::move-keys), the
 * selection following the keys to their new times */
void
_sequin_timeline_drag_end (SequinTimeline *self,
                           double          dx,
                           double          dy)
{
  g_return_if_fail (SEQUIN_IS_TIMELINE (self));

  if (self->moving)
    _sequin_timeline_emit_moving (self, 0);
  if (self->moving && self->move_frames != 0)
    {
      double fps = _sequin_timeline_clip_fps (self->clip);
      gboolean done = FALSE;

      /* the handler names the keys at their times now; the edit's clip
       * change finds them at their new ones */
      self->moving = FALSE;
      self->shift_pending = self->move_frames;
      self->move_frames = self->move_wanted = 0;
      g_signal_emit (self, signals[MOVE_KEYS], 0, self->shift_pending / fps, &done);
      self->shift_pending = 0;
    }
  else if (self->collapse_on_release && self->sel_joint >= 0)
    select_internal (self, self->sel_joint, self->sel_channel, self->sel_key);
  self->scrubbing = self->boxing = self->moving = self->drag_on_key = FALSE;
  self->collapse_on_release = FALSE;
  self->move_frames = self->move_wanted = 0;
  g_clear_pointer (&self->box_base, g_array_unref);
  _sequin_timeline_update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
_sequin_timeline_cancel_drag (SequinTimeline *self)
{
  g_return_val_if_fail (SEQUIN_IS_TIMELINE (self), FALSE);

  self->scrubbing = FALSE;
  return _sequin_timeline_keys_cancel (self);
}

/* sets the zoom, keeping the time at widget x under x */
static void
zoom_to (SequinTimeline *self,
         double          x,
         double          zoom)
{
  double t;

  zoom = CLAMP (zoom, SEQUIN_TIMELINE_ZOOM_MIN, SEQUIN_TIMELINE_ZOOM_MAX);
  if (zoom == self->zoom)
    return;

  t = _sequin_timeline_time_at_x (self, x);
  self->zoom = zoom;
  /* x = lanes_x + PAD_X + t * zoom - hoffset, solved for hoffset */
  configure_adjustments (self, _sequin_timeline_lanes_x (self) + PAD_X + t * zoom - x,
                         _sequin_timeline_voffset (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

/* zooms so that the whole clip fits, scrolled to its start */
static void
fit_clip (SequinTimeline *self)
{
  double page_w = gtk_widget_get_width (GTK_WIDGET (self)) - _sequin_timeline_lanes_x (self);

  if (page_w <= 2 * (PAD_X + PAD_END))
    return;
  self->fit_pending = FALSE;
  if (self->extent > 0)
    zoom_to (self, _sequin_timeline_lanes_x (self),
             MIN ((page_w - PAD_X - PAD_END) / self->extent, ZOOM_FIT_MAX));
  gtk_adjustment_set_value (self->hadjustment, 0);
}

void
_sequin_timeline_zoom_at (SequinTimeline *self,
                          double          x,
                          double          factor)
{
  g_return_if_fail (SEQUIN_IS_TIMELINE (self));
  g_return_if_fail (isfinite (factor) && factor > 0);

  zoom_to (self, x, self->zoom * factor);
}

gboolean
_sequin_timeline_scroll (SequinTimeline  *self,
                         double           x,
                         double           y,
                         double           dx,
                         double           dy,
                         GdkModifierType  state,
                         gboolean         wheel)
{
  double step = wheel ? WHEEL_STEP : 1.0;

  g_return_val_if_fail (SEQUIN_IS_TIMELINE (self), FALSE);

  if (self->clip == NULL)
    return FALSE;

  if (state & GDK_CONTROL_MASK)
    {
      double d = dy != 0 ? dy : dx;

      _sequin_timeline_zoom_at (self, MAX (x, _sequin_timeline_lanes_x (self)),
                                wheel ? pow (ZOOM_WHEEL, -d) : exp (-d * 0.01));
      return TRUE;
    }

  /* Shift turns vertical scrolling into horizontal, as everywhere */
  if ((state & GDK_SHIFT_MASK) && dx == 0)
    {
      dx = dy;
      dy = 0;
    }
  /* when every lane fits, vertical scrolling pans in time */
  if (gtk_adjustment_get_upper (self->vadjustment) <= gtk_adjustment_get_page_size (self->vadjustment))
    {
      dx += dy;
      dy = 0;
    }

  if (dx != 0)
    gtk_adjustment_set_value (self->hadjustment, hoffset (self) + dx * step);
  if (dy != 0)
    gtk_adjustment_set_value (self->vadjustment, _sequin_timeline_voffset (self) + dy * step);
  return TRUE;
}

static void
on_click_pressed (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  SequinTimeline  *self)
{
  _sequin_timeline_press_full (self, n_press, x, y,
                               gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture)));
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               SequinTimeline *self)
{
  _sequin_timeline_drag_begin_full (self, x, y,
                                    gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture)));
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                SequinTimeline *self)
{
  _sequin_timeline_drag_update (self, dx, dy);
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             SequinTimeline *self)
{
  _sequin_timeline_drag_end (self, dx, dy);
}

/* Escape: a drag of keys or a rubber band goes back; else the selected
 * keys are let go */
static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                SequinTimeline        *self)
{
  if (keyval != GDK_KEY_Escape || (state & (GDK_CONTROL_MASK | GDK_SHIFT_MASK | GDK_ALT_MASK)))
    return FALSE;
  if (_sequin_timeline_cancel_drag (self))
    return TRUE;
  if (self->selection->len == 0)
    return FALSE;
  select_internal (self, -1, SQ_CHANNEL_ROTATION, -1);
  return TRUE;
}

/* timeline.step-key(i), timeline.extend-key(i): to the previous or next
 * key of the current key's joint, alone or added to the selection */
static void
step_key_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  _sequin_timeline_step_key (SEQUIN_TIMELINE (widget), g_variant_get_int32 (parameter),
                             g_str_equal (action_name, "timeline.extend-key"));
}

/* timeline.nudge-keys(i): the selected keys moved by i frames, as a drag
 * does it (one edit, ::move-keys); at a limit, nothing but the error bell */
static void
nudge_keys_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  SequinTimeline *self = SEQUIN_TIMELINE (widget);
  int n = g_variant_get_int32 (parameter);

  if (self->clip == NULL || self->selection->len == 0 || self->moving || self->boxing)
    return;
  _sequin_timeline_move_begin (self);
  self->move_wanted = n;
  self->move_frames = CLAMP (n, self->move_min, self->move_max);
  if (self->move_frames != n)
    {
      self->moving = FALSE;
      self->move_frames = self->move_wanted = 0;
      gtk_widget_error_bell (widget);
      _sequin_timeline_update_accessible (self);
      return;
    }
  _sequin_timeline_drag_end (self, 0, 0);
}

/* timeline.select-all: every key of the highlighted lane's joint or of the
 * joints of the selected keys, every key when there is neither (the
 * window's Ctrl+A uses the tree's selected joints instead) */
static void
select_all_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  SequinTimeline *self = SEQUIN_TIMELINE (widget);
  g_autoptr(GArray) joints = g_array_new (FALSE, FALSE, sizeof (gsize));

  for (guint i = 0; i < self->selection->len; i++)
    {
      gsize j = g_array_index (self->selection, SequinTimelineKey, i).joint;

      if (joints->len == 0 || g_array_index (joints, gsize, joints->len - 1) != j)
        g_array_append_val (joints, j);
    }
  if (joints->len == 0 && self->lane >= 0)
    {
      gsize j = (gsize) self->lane;
      g_array_append_val (joints, j);
    }
  sequin_timeline_select_all_keys (self, (const gsize *) (gpointer) joints->data, joints->len);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           SequinTimeline           *self)
{
  GdkModifierType state;
  gboolean wheel;

  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  wheel = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL;
  return _sequin_timeline_scroll (self, self->pointer_x, self->pointer_y, dx, dy, state, wheel);
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           SequinTimeline           *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
}

/* timeline.step-frames(i): moves the playhead by whole frames */
static void
step_frames_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  SequinTimeline *self = SEQUIN_TIMELINE (widget);
  double fps = _sequin_timeline_clip_fps (self->clip);
  double now = self->time * fps;
  int n = g_variant_get_int32 (parameter);
  /* the next (previous) frame after the playhead, wherever it is: from a
   * key between frames or a time while playing, no frame is skipped */
  double frame = n > 0 ? floor (now + ON_FRAME_EPS) + n : ceil (now - ON_FRAME_EPS) + n;

  set_time_internal (self, MIN (frame / fps, self->extent), TRUE);
}

/* timeline.next-frame, timeline.previous-frame: the same without a
 * parameter, which assistive technologies can run (they list only those) */
static void
next_frame_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  g_autoptr(GVariant) step = g_variant_ref_sink (g_variant_new_int32 (g_str_equal (action_name, "timeline.next-frame")
                                                                      ? 1 : -1));

  step_frames_action (widget, "timeline.step-frames", step);
}

/* timeline.step-keys(i): to the next (previous) time any joint has a key */
static void
step_keys_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  SequinTimeline *self = SEQUIN_TIMELINE (widget);
  int n = g_variant_get_int32 (parameter);
  double t = self->time;

  for (int i = 0; i < ABS (n) && self->clip != NULL; i++)
    {
      gboolean found = FALSE;
      double best = t;

      for (gsize j = 0; j < self->clip->n_joints; j++)
        for (guint c = 0; c < SQ_N_CHANNELS; c++)
          {
            const SqTrack *track = &self->clip->joints[j].tracks[c];
            gsize k;
            double kt;

            if (n > 0)
              {
                /* first key after t (keys within a micro-frame of t are at t) */
                k = _sequin_timeline_lower_bound (track, t + ON_FRAME_EPS / _sequin_timeline_clip_fps (self->clip), 0);
                if (k >= track->n_keys)
                  continue;
                kt = sq_track_time (track, k);
                if (!found || kt < best)
                  best = kt;
              }
            else
              {
                k = _sequin_timeline_lower_bound (track, t - ON_FRAME_EPS / _sequin_timeline_clip_fps (self->clip), 0);
                if (k == 0)
                  continue;
                kt = sq_track_time (track, k - 1);
                if (!found || kt > best)
                  best = kt;
              }
            found = TRUE;
          }
      if (!found)
        break;
      t = best;
    }
  set_time_internal (self, t, TRUE);
  self->on_key = !is_on_frame (self->clip, self->time);
  _sequin_timeline_update_accessible (self);
  gtk_widget_queue_draw (widget);
}

/* timeline.go-to-start, timeline.go-to-end */
static void
go_to_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  SequinTimeline *self = SEQUIN_TIMELINE (widget);

  set_time_internal (self, g_str_equal (action_name, "timeline.go-to-end") ? self->extent : 0.0, TRUE);
}

static gboolean
sequin_timeline_query_tooltip (GtkWidget  *widget,
                               int         x,
                               int         y,
                               gboolean    keyboard_mode,
                               GtkTooltip *tooltip)
{
  SequinTimeline *self = SEQUIN_TIMELINE (widget);
  g_autoptr(GString) text = NULL;
  gssize joint, key, lane;
  SqChannel channel;
  const SqJoint *j;

  if (self->clip == NULL || keyboard_mode)
    return FALSE;

  if (sequin_timeline_key_at (self, x, y, &joint, &channel, &key))
    {
      const SqKey k_value = sq_track_key (&self->clip->joints[joint].tracks[channel], key), *k = &k_value;
      double kx = floor (_sequin_timeline_x_for_time (self, k->time));
      double ky = _sequin_timeline_y_for_key (self, joint, channel);

      text = g_string_new (NULL);
      /* Translators: "pelvis: rotation key 5" */
      g_string_append_printf (text, _("%s: %s key %zd"), self->clip->joints[joint].name,
                              channel_name (channel), key);
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Frame %d, %.4f s"), _sequin_timeline_frame_of (self->clip, k->time), k->time);
      g_string_append_c (text, '\n');
      if (channel == SQ_CHANNEL_ROTATION)
        {
          double aa[4];

          sq_quat_to_axis_angle (k->v, aa);
          g_string_append_printf (text, "w %.5f  x %.5f  y %.5f  z %.5f\n", k->v[0], k->v[1], k->v[2], k->v[3]);
          g_string_append_printf (text, _("axis (%.4f, %.4f, %.4f), angle %.3f°"), aa[0], aa[1], aa[2], aa[3]);
        }
      else
        g_string_append_printf (text, "x %.5f  y %.5f  z %.5f", k->v[0], k->v[1], k->v[2]);

      gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) { (int) kx - 6, (int) ky - 6, 13, 13 });
      gtk_tooltip_set_text (tooltip, text->str);
      return TRUE;
    }

  /* the name column: the whole name (it may be ellipsized) and the counts */
  if (x >= _sequin_timeline_lanes_x (self) || y < RULER_H)
    return FALSE;
  lane = (gssize) floor ((y - RULER_H + _sequin_timeline_voffset (self)) / LANE_H);
  if (lane < 0 || (gsize) lane >= self->clip->n_joints)
    return FALSE;
  j = &self->clip->joints[lane];
  text = g_string_new (j->name);
  if (lane == sq_clip_get_root_index (self->clip))
    g_string_append_printf (text, " (%s)", _("root joint"));
  for (guint c = 0; c < SQ_N_CHANNELS; c++)
    if (j->tracks[c].n_keys > 0)
      {
        g_string_append_c (text, '\n');
        /* Translators: "120 rotation keys" */
        g_string_append_printf (text, _("%zu %s keys"), j->tracks[c].n_keys,
                                channel_name (c));
      }
  gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) {
    0, (int) (RULER_H + lane * LANE_H - _sequin_timeline_voffset (self)), (int) self->names_w, (int) LANE_H });
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

/* ---- size and scrolling -------------------------------------------------- */

static void
sequin_timeline_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  SequinTimeline *self = SEQUIN_TIMELINE (widget);

  _sequin_timeline_ensure_names_width (self);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = (int) (self->names_w + 120);
      *natural = (int) (self->names_w + 600);
    }
  else
    {
      gsize n = self->clip != NULL ? self->clip->n_joints : 0;

      *minimum = (int) (RULER_H + 2 * LANE_H);
      *natural = (int) (RULER_H + MAX (2, MIN (n, 16)) * LANE_H);
    }
}

static void
sequin_timeline_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  SequinTimeline *self = SEQUIN_TIMELINE (widget);

  configure_adjustments (self, hoffset (self), _sequin_timeline_voffset (self));
  if (self->fit_pending)
    fit_clip (self);
}

static void
sequin_timeline_state_flags_changed (GtkWidget     *widget,
                                     GtkStateFlags  previous)
{
  GTK_WIDGET_CLASS (sequin_timeline_parent_class)->state_flags_changed (widget, previous);

  if ((gtk_widget_get_state_flags (widget) ^ previous) & GTK_STATE_FLAG_FOCUS_VISIBLE)
    gtk_widget_queue_draw (widget);
}

static void
on_adjustment_value_changed (GtkAdjustment  *adjustment,
                             SequinTimeline *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_adjustment (SequinTimeline  *self,
                GtkAdjustment  **slot,
                GtkAdjustment   *adjustment)
{
  if (adjustment != NULL && adjustment == *slot)
    return;

  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_func (*slot, on_adjustment_value_changed, self);
      g_clear_object (slot);
    }
  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  *slot = g_object_ref_sink (adjustment);
  g_signal_connect (adjustment, "value-changed", G_CALLBACK (on_adjustment_value_changed), self);
  if (self->hadjustment != NULL && self->vadjustment != NULL)
    configure_adjustments (self, hoffset (self), _sequin_timeline_voffset (self));
}

/* ---- GObject ------------------------------------------------------------- */

static void
sequin_timeline_dispose (GObject *object)
{
  SequinTimeline *self = SEQUIN_TIMELINE (object);

  self->clip = NULL;
  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->hadjustment, on_adjustment_value_changed, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->vadjustment, on_adjustment_value_changed, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);

  G_OBJECT_CLASS (sequin_timeline_parent_class)->dispose (object);
}

static void
sequin_timeline_finalize (GObject *object)
{
  SequinTimeline *self = SEQUIN_TIMELINE (object);

  /* a scrolled window may hand back adjustments after dispose */
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);
  _sequin_timeline_keys_finalize (self);

  G_OBJECT_CLASS (sequin_timeline_parent_class)->finalize (object);
}

static void
sequin_timeline_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SequinTimeline *self = SEQUIN_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_TIME:
      g_value_set_double (value, self->time);
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sequin_timeline_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  SequinTimeline *self = SEQUIN_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_TIME:
      sequin_timeline_set_time (self, g_value_get_double (value));
      break;
    case PROP_ZOOM:
      sequin_timeline_set_zoom (self, g_value_get_double (value));
      break;
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value));
      break;
    case PROP_HSCROLL_POLICY:
      if (self->hscroll_policy != (GtkScrollablePolicy) g_value_get_enum (value))
        {
          self->hscroll_policy = g_value_get_enum (value);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_VSCROLL_POLICY:
      if (self->vscroll_policy != (GtkScrollablePolicy) g_value_get_enum (value))
        {
          self->vscroll_policy = g_value_get_enum (value);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sequin_timeline_class_init (SequinTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sequin_timeline_dispose;
  object_class->finalize = sequin_timeline_finalize;
  object_class->get_property = sequin_timeline_get_property;
  object_class->set_property = sequin_timeline_set_property;

  widget_class->snapshot = _sequin_timeline_snapshot;
  widget_class->measure = sequin_timeline_measure;
  widget_class->size_allocate = sequin_timeline_size_allocate;
  widget_class->query_tooltip = sequin_timeline_query_tooltip;
  widget_class->state_flags_changed = sequin_timeline_state_flags_changed;

  /**
   * SequinTimeline:time:
   *
   * The playhead's time in seconds, in [0, duration].
   */
  properties[PROP_TIME] =
    g_param_spec_double ("time", NULL, NULL,
                         0, G_MAXDOUBLE, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * SequinTimeline:zoom:
   *
   * The horizontal scale in pixels per second.
   */
  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL,
                         SEQUIN_TIMELINE_ZOOM_MIN, SEQUIN_TIMELINE_ZOOM_MAX, ZOOM_DEFAULT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  /**
   * SequinTimeline::key-selected:
   * @self: the timeline
   * @joint: the joint's index
   * @channel: the #SqChannel
   * @key: the key's index in the joint's track of that channel
   *
   * The user clicked a key; not emitted by sequin_timeline_select_key().
   */
  /* a joint's name was clicked: the joint index */
  signals[JOINT_SELECTED] =
    g_signal_new ("joint-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);
  signals[KEY_SELECTED] =
    g_signal_new ("key-selected",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_INT64, G_TYPE_INT, G_TYPE_INT64);
  /**
   * SequinTimeline::move-keys:
   * @self: the timeline
   * @delta: seconds (whole frames) to move the selected keys by
   *
   * A drag of the selected keys was released. The handler makes the edit
   * and returns TRUE when it was made (the selection then follows the
   * keys to their new times).
   */
  /* during a drag of keys, each time the seconds they are moved by change
   * (0: back where they are, as when it ends or is cancelled), for a live
   * preview of the motion */
  signals[MOVING] =
    g_signal_new ("moving", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_DOUBLE);
  /* the selected keys changed (a click, a rubber band, the keyboard) */
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[MOVE_KEYS] =
    g_signal_new ("move-keys", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, g_signal_accumulator_true_handled, NULL, NULL,
                  G_TYPE_BOOLEAN, 1, G_TYPE_DOUBLE);

  gtk_widget_class_install_action (widget_class, "timeline.step-frames", "i", step_frames_action);
  gtk_widget_class_install_action (widget_class, "timeline.step-keys", "i", step_keys_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-fit", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "timeline.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_0, GDK_CONTROL_MASK, "timeline.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, GDK_CONTROL_MASK, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, GDK_CONTROL_MASK, "timeline.zoom-out", NULL);
  gtk_widget_class_install_action (widget_class, "timeline.next-frame", NULL, next_frame_action);
  gtk_widget_class_install_action (widget_class, "timeline.previous-frame", NULL, next_frame_action);
  gtk_widget_class_install_action (widget_class, "timeline.step-key", "i", step_key_action);
  gtk_widget_class_install_action (widget_class, "timeline.extend-key", "i", step_key_action);
  gtk_widget_class_install_action (widget_class, "timeline.select-all", NULL, select_all_action);
  gtk_widget_class_install_action (widget_class, "timeline.nudge-keys", "i", nudge_keys_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "timeline.nudge-keys", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK, "timeline.nudge-keys", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_CONTROL_MASK, "timeline.step-key", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_CONTROL_MASK, "timeline.step-key", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "timeline.extend-key", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "timeline.extend-key", "i", 1);
  gtk_widget_class_install_action (widget_class, "timeline.go-to-start", NULL, go_to_action);
  gtk_widget_class_install_action (widget_class, "timeline.go-to-end", NULL, go_to_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.step-frames", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Left, 0, "timeline.step-frames", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.step-frames", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_period, 0, "timeline.step-keys", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_comma, 0, "timeline.step-keys", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Right, 0, "timeline.step-frames", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "timeline.go-to-start", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Home, 0, "timeline.go-to-start", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_End, 0, "timeline.go-to-end", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_End, 0, "timeline.go-to-end", NULL);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_SLIDER);
}

static void
sequin_timeline_init (SequinTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkGesture *click, *drag;
  GtkEventController *scroll, *motion, *keys;

  self->zoom = ZOOM_DEFAULT;
  _sequin_timeline_keys_init (self);
  self->sel_joint = self->sel_key = -1;
  self->lane = -1;
  self->sel_channel = SQ_CHANNEL_ROTATION;
  self->hadjustment = g_object_ref_sink (gtk_adjustment_new (0, 0, 0, 0, 0, 0));
  self->vadjustment = g_object_ref_sink (gtk_adjustment_new (0, 0, 0, 0, 0, 0));
  g_signal_connect (self->hadjustment, "value-changed", G_CALLBACK (on_adjustment_value_changed), self);
  g_signal_connect (self->vadjustment, "value-changed", G_CALLBACK (on_adjustment_value_changed), self);

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_focus_on_click (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "pressed", G_CALLBACK (on_click_pressed), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (click));

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drag));

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (widget, scroll);

  keys = gtk_event_controller_key_new ();
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (widget, keys);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "enter", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  gtk_widget_add_controller (widget, motion);

  gtk_widget_action_set_enabled (widget, "timeline.step-frames", FALSE);
  gtk_widget_action_set_enabled (widget, "timeline.step-keys", FALSE);
  gtk_widget_action_set_enabled (widget, "timeline.next-frame", FALSE);
  gtk_widget_action_set_enabled (widget, "timeline.previous-frame", FALSE);
  gtk_widget_action_set_enabled (widget, "timeline.go-to-start", FALSE);
  gtk_widget_action_set_enabled (widget, "timeline.go-to-end", FALSE);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline"),
                                  -1);
  _sequin_timeline_update_accessible (self);
}

/* ---- public API ---------------------------------------------------------- */

GtkWidget *
sequin_timeline_new (void)
{
  return g_object_new (SEQUIN_TYPE_TIMELINE, NULL);
}

void
sequin_timeline_set_clip (SequinTimeline *self,
                          const SqClip   *clip)
{
  g_return_if_fail (SEQUIN_IS_TIMELINE (self));

  if (clip != self->clip)
    {
      self->clip = clip;
      self->sel_joint = self->sel_key = -1;
      g_array_set_size (self->selection, 0);
      self->boxing = self->moving = self->drag_on_key = self->scrubbing = FALSE;
      self->lane = -1;
      self->fit_pending = clip != NULL;
      gtk_adjustment_set_value (self->hadjustment, 0);
      gtk_adjustment_set_value (self->vadjustment, 0);
    }
  sequin_timeline_clip_changed (self);
  if (self->fit_pending)
    fit_clip (self);
}

void
sequin_timeline_clip_changed (SequinTimeline *self)
{
  const SqClip *clip;
  double extent = 0;

  g_return_if_fail (SEQUIN_IS_TIMELINE (self));

  clip = self->clip;
  if (clip != NULL)
    {
      if (isfinite (clip->duration))
        extent = MAX (0.0, clip->duration);
      for (gsize j = 0; j < clip->n_joints; j++)
        for (guint c = 0; c < SQ_N_CHANNELS; c++)
          {
            const SqTrack *track = &clip->joints[j].tracks[c];

            if (track->n_keys > 0 && isfinite (sq_track_time (track, track->n_keys - 1)))
              extent = MAX (extent, sq_track_time (track, track->n_keys - 1));
          }
    }
  /* an edit that changes the length (speed, trim, their undo and redo)
   * shows the whole new length */
  if (clip != NULL && self->extent > 0 && fabs (extent - self->extent) > 1e-9)
    self->fit_pending = TRUE;
  self->extent = extent;

  /* the selection survives an edit when its keys still exist */
  _sequin_timeline_keys_clip_changed (self);
  if (!_sequin_timeline_has_selection (self))
    self->sel_joint = self->sel_key = -1;
  /* a drag in progress ends with the clip it was over */
  self->moving = self->boxing = self->drag_on_key = FALSE;
  if (clip == NULL || self->lane >= (gssize) clip->n_joints)
    self->lane = -1;

  /* without a clip the keys fall through to focus navigation */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.step-frames", clip != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.step-keys", clip != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.next-frame", clip != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.previous-frame", clip != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.go-to-start", clip != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.go-to-end", clip != NULL);

  configure_adjustments (self, hoffset (self), _sequin_timeline_voffset (self));
  if (self->fit_pending && clip != NULL)
    fit_clip (self);

  if (self->time > extent)
    {
      self->time = extent;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME]);
    }
  _sequin_timeline_update_accessible (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sequin_timeline_set_time (SequinTimeline *self,
                          double          seconds)
{
  g_return_if_fail (SEQUIN_IS_TIMELINE (self));
  g_return_if_fail (!isnan (seconds));

  set_time_internal (self, seconds, TRUE);
}

double
sequin_timeline_get_time (SequinTimeline *self)
{
  g_return_val_if_fail (SEQUIN_IS_TIMELINE (self), 0);

  return self->time;
}

/* Scrolls joint `joint`'s lane into view */
static void
lane_into_view (SequinTimeline *self,
                gssize          joint)
{
  double lane_top = joint * LANE_H;
  double page = lanes_height (self);

  if (page < LANE_H)
    ;   /* not laid out yet: nothing to scroll into */
  else if (lane_top < _sequin_timeline_voffset (self))
    gtk_adjustment_set_value (self->vadjustment, lane_top);
  else if (lane_top + LANE_H > _sequin_timeline_voffset (self) + page)
    {
      /* scroll by whole lanes, so no lane is cut under the ruler */
      double value = ceil ((lane_top + LANE_H - page) / LANE_H) * LANE_H;
      gtk_adjustment_set_value (self->vadjustment, value <= lane_top ? value : lane_top + LANE_H - page);
    }
}

void
sequin_timeline_select_key (SequinTimeline *self,
                            gssize          joint,
                            SqChannel       channel,
                            gssize          key)
{
  g_return_if_fail (SEQUIN_IS_TIMELINE (self));

  if (joint < 0 || key < 0 || self->clip == NULL)
    {
      select_internal (self, -1, SQ_CHANNEL_ROTATION, -1);
      return;
    }
  g_return_if_fail ((gsize) joint < self->clip->n_joints);
  g_return_if_fail (channel < SQ_N_CHANNELS);
  g_return_if_fail ((gsize) key < self->clip->joints[joint].tracks[channel].n_keys);

  select_internal (self, joint, channel, key);

  /* into view: the lane vertically, the key horizontally (centred) */
  lane_into_view (self, joint);
  scroll_x_into_view (self, _sequin_timeline_x_for_time (self, sq_track_time (&self->clip->joints[joint].tracks[channel],
                                                                                key)), 0.5);
}

void
sequin_timeline_select_joint (SequinTimeline *self,
                              gssize          joint)
{
  g_return_if_fail (SEQUIN_IS_TIMELINE (self));

  if (self->clip == NULL || joint < 0 || (gsize) joint >= self->clip->n_joints)
    joint = -1;
  self->lane = joint;
  if (joint >= 0)
    lane_into_view (self, joint);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gssize
sequin_timeline_get_selected_joint (SequinTimeline *self)
{
  g_return_val_if_fail (SEQUIN_IS_TIMELINE (self), -1);
  return _sequin_timeline_has_selection (self) ? self->sel_joint : self->lane;
}

gboolean
sequin_timeline_get_selected_key (SequinTimeline *self,
                                  gssize         *joint,
                                  SqChannel      *channel,
                                  gssize         *key)
{
  g_return_val_if_fail (SEQUIN_IS_TIMELINE (self), FALSE);

  if (joint != NULL)
    *joint = self->sel_joint;
  if (channel != NULL)
    *channel = self->sel_channel;
  if (key != NULL)
    *key = self->sel_key;
  return self->sel_joint >= 0;
}

void
sequin_timeline_set_zoom (SequinTimeline *self,
                          double          pixels_per_second)
{
  double x, left;

  g_return_if_fail (SEQUIN_IS_TIMELINE (self));
  g_return_if_fail (isfinite (pixels_per_second) && pixels_per_second > 0);

  /* keep the playhead where it is when it is visible, else the left edge */
  left = _sequin_timeline_lanes_x (self);
  x = _sequin_timeline_x_for_time (self, self->time);
  if (x < left || x > gtk_widget_get_width (GTK_WIDGET (self)))
    x = left;
  zoom_to (self, x, pixels_per_second);
}

double
sequin_timeline_get_zoom (SequinTimeline *self)
{
  g_return_val_if_fail (SEQUIN_IS_TIMELINE (self), 0);

  return self->zoom;
}

void
sequin_timeline_zoom_to_fit (SequinTimeline *self)
{
  g_return_if_fail (SEQUIN_IS_TIMELINE (self));

  if (gtk_widget_get_width (GTK_WIDGET (self)) > 0)
    fit_clip (self);
  else
    self->fit_pending = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
