/* sequin-diff-lane.c: a joint's difference from the clip compared with
 * (sequin-diff-lane.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sequin-diff-lane"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sequin-diff-lane.h"
#include "sequin-timeline-private.h"

#define LANE_HEIGHT 56

struct _SequinDiffLane
{
  GtkWidget       parent_instance;

  SequinTimeline *timeline;     /* weak */
  char           *joint;
  double         *times;
  double         *degrees;
  gsize           n;
  double          most;         /* the largest value, degrees */
  double          most_time;

  double          drag_start_x;
  gboolean        scrubbing;    /* a drag that began right of the name column */
};

G_DEFINE_FINAL_TYPE (SequinDiffLane, sequin_diff_lane, GTK_TYPE_WIDGET)

double
sequin_diff_lane_value_at (SequinDiffLane *self,
                           double          time)
{
  gsize lo = 0, hi;

  g_return_val_if_fail (SEQUIN_IS_DIFF_LANE (self), 0);
  if (self->n == 0)
    return 0;
  if (time <= self->times[0])
    return self->degrees[0];
  if (time >= self->times[self->n - 1])
    return self->degrees[self->n - 1];
  /* times[lo] <= time < times[hi] */
  hi = self->n - 1;
  while (hi - lo > 1)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (self->times[mid] <= time)
        lo = mid;
      else
        hi = mid;
    }
  {
    double span = self->times[hi] - self->times[lo], f = span > 0 ? (time - self->times[lo]) / span : 0;

    return self->degrees[lo] + f * (self->degrees[hi] - self->degrees[lo]);
  }
}

/* A slider over the clip's time: its value is the playhead, its value
 * text the difference there, its description the joint's largest one */
static void
update_accessible (SequinDiffLane *self)
{
  g_autofree char *text = NULL;
  g_autofree char *value_text = NULL;
  g_autofree char *where = NULL;
  double time = self->timeline != NULL ? sequin_timeline_get_time (self->timeline) : 0;

  if (self->timeline != NULL)
    where = sequin_timeline_describe_time (self->timeline);
  if (self->n == 0)
    {
      text = g_strdup (_("No joint compared"));
      value_text = g_strdup (where != NULL ? where : "");
    }
  else
    {
      /* TRANSLATORS: the difference lane under the timeline: joint, degrees, seconds */
      text = g_strdup_printf (_("%s: up to %.3g° apart, at %.3f s"), self->joint, self->most, self->most_time);
      /* TRANSLATORS: the difference lane at the playhead: the playhead's
       * time ("0.467 s, frame 15"), degrees apart there */
      value_text = g_strdup_printf (_("%s: %.1f° apart"), where != NULL ? where : "",
                                    sequin_diff_lane_value_at (self, time));
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_MIN, 0.0,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_MAX, self->n > 0 ? MAX (self->times[self->n - 1], time) : time,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, time,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, value_text,
                                  -1);
}

void
sequin_diff_lane_set_curve (SequinDiffLane *self,
                            const char     *joint,
                            const double   *times,
                            const double   *degrees,
                            gsize           n)
{
  g_return_if_fail (SEQUIN_IS_DIFF_LANE (self));
  g_return_if_fail (n == 0 || (times != NULL && degrees != NULL && joint != NULL));

  g_clear_pointer (&self->joint, g_free);
  g_clear_pointer (&self->times, g_free);
  g_clear_pointer (&self->degrees, g_free);
  self->n = n;
  self->most = self->most_time = 0;
  if (n > 0)
    {
      self->joint = g_strdup (joint);
      self->times = g_memdup2 (times, n * sizeof (double));
      self->degrees = g_memdup2 (degrees, n * sizeof (double));
      for (gsize i = 0; i < n; i++)
        if (self->degrees[i] > self->most || (i == 0 && isfinite (self->degrees[i])))
          {
            self->most = self->degrees[i];
            self->most_time = self->times[i];
          }
    }
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const double *
sequin_diff_lane_get_curve (SequinDiffLane *self,
                            gsize          *n,
                            const char    **joint)
{
  g_return_val_if_fail (SEQUIN_IS_DIFF_LANE (self), NULL);
  *n = self->n;
  if (joint != NULL)
    *joint = self->joint;
  return self->degrees;
}

static void
colors (SequinDiffLane *self,
        GdkRGBA        *fg,
        GdkRGBA        *curve,
        GdkRGBA        *playhead)
{
  gboolean dark;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  /* gtk_widget_get_color() is GTK 4.10; the style context is what 4.8 has */
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  dark = 0.299 * fg->red + 0.587 * fg->green + 0.114 * fg->blue > 0.5;
  /* the preview's ghost colour: the lane measures the distance to it */
  gdk_rgba_parse (curve, dark ? "#dc8add" : "#9141ac");
  gdk_rgba_parse (playhead, dark ? "#ff7b63" : "#e01b24");
}

/* the curve, filled down to the lane's floor, within [left, width] */
static void
draw_curve (SequinDiffLane *self,
            cairo_t        *cr,
            const GdkRGBA  *curve,
            double          left,
            double          width,
            double          top,
            double          bottom)
{
  double scale = (bottom - top) / MAX (self->most, 1.0), first = -1, x = 0;

  cairo_save (cr);
  cairo_rectangle (cr, left, 0, width - left, bottom + 1);
  cairo_clip (cr);
  for (gsize i = 0; i < self->n; i++)
    {
      double y = bottom - (isfinite (self->degrees[i]) ? self->degrees[i] : self->most) * scale;

      x = _sequin_timeline_x_for_time (self->timeline, self->times[i]);
      if (first < 0)
        {
          first = x;
          cairo_move_to (cr, x, y);
        }
      else
        cairo_line_to (cr, x, y);
    }
  cairo_set_source_rgba (cr, curve->red, curve->green, curve->blue, 0.95);
  cairo_set_line_width (cr, 1.5);
  cairo_stroke_preserve (cr);
  cairo_line_to (cr, x, bottom);
  cairo_line_to (cr, first, bottom);
  cairo_close_path (cr);
  cairo_set_source_rgba (cr, curve->red, curve->green, curve->blue, 0.25);
  cairo_fill (cr);
  cairo_restore (cr);
}

static void
sequin_diff_lane_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  SequinDiffLane *self = SEQUIN_DIFF_LANE (widget);
  double width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  double left, time, top = 18, bottom = height - 4;
  g_autofree char *label = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  GdkRGBA fg, curve, playhead;
  cairo_t *cr;

  if (width <= 0 || height <= 0 || self->timeline == NULL)
    return;
  colors (self, &fg, &curve, &playhead);
  left = _sequin_timeline_lanes_x (self->timeline);
  time = sequin_timeline_get_time (self->timeline);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  /* a rule above, the floor line */
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.15);
  cairo_rectangle (cr, 0, 0, width, 1);
  cairo_rectangle (cr, left, bottom, width - left, 1);
  cairo_fill (cr);

  if (self->n > 0)
    draw_curve (self, cr, &curve, left, width, top, bottom);

  /* the name column: the joint and its value at the playhead; the scale
   * (the curve's top) at the top left of the curve */
  if (self->n > 0)
    {
      /* TRANSLATORS: the top of the difference lane's curve, in degrees */
      g_autofree char *scale = g_strdup_printf (_("max %.3g°"), self->most);
      g_autoptr(PangoLayout) top_label = gtk_widget_create_pango_layout (widget, scale);

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.6);
      cairo_move_to (cr, left + 4, 1);
      pango_cairo_show_layout (cr, top_label);
      /* TRANSLATORS: the difference lane's name column: joint, degrees at the playhead */
      label = g_strdup_printf (_("Δ %s\n%.1f°"), self->joint, sequin_diff_lane_value_at (self, time));
    }
  else
    label = g_strdup (_("Δ no joint"));
  layout = gtk_widget_create_pango_layout (widget, label);
  pango_layout_set_width (layout, (int) MAX (left - 8, 10) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.8);
  cairo_move_to (cr, 6, 4);
  pango_cairo_show_layout (cr, layout);

  {
    double x = floor (_sequin_timeline_x_for_time (self->timeline, time)) + 0.5;

    if (x >= left)
      {
        cairo_set_source_rgba (cr, playhead.red, playhead.green, playhead.blue, 1);
        cairo_rectangle (cr, x - 0.75, 0, 1.5, height);
        cairo_fill (cr);
      }
  }

  /* the keyboard focus, as the timeline draws its own */
  if (gtk_widget_has_visible_focus (widget))
    {
      cairo_set_source_rgba (cr, curve.red, curve.green, curve.blue, 1);
      cairo_set_line_width (cr, 2);
      cairo_rectangle (cr, 1, 1, width - 2, height - 2);
      cairo_stroke (cr);
    }
  cairo_destroy (cr);
}

/* ---- input: the playhead, snapped as on the timeline's ruler --------------- */

void
_sequin_diff_lane_press (SequinDiffLane *self,
                         double          x)
{
  g_return_if_fail (SEQUIN_IS_DIFF_LANE (self));

  if (gtk_widget_get_focusable (GTK_WIDGET (self)))
    gtk_widget_grab_focus (GTK_WIDGET (self));
  /* the name column is not on the time axis */
  if (self->timeline == NULL || x < _sequin_timeline_lanes_x (self->timeline))
    return;
  _sequin_timeline_set_time_snapped (self->timeline, _sequin_timeline_time_at_x (self->timeline, x));
  /* "key at frame …" is known only once the snap is done, after ::notify */
  update_accessible (self);
}

void
_sequin_diff_lane_drag_begin (SequinDiffLane *self,
                              double          x)
{
  g_return_if_fail (SEQUIN_IS_DIFF_LANE (self));

  self->scrubbing = self->timeline != NULL && x >= _sequin_timeline_lanes_x (self->timeline);
  self->drag_start_x = x;
}

void
_sequin_diff_lane_drag_update (SequinDiffLane *self,
                               double          dx)
{
  g_return_if_fail (SEQUIN_IS_DIFF_LANE (self));

  if (!self->scrubbing || self->timeline == NULL)
    return;
  _sequin_timeline_set_time_snapped (self->timeline,
                                     _sequin_timeline_time_at_x (self->timeline, self->drag_start_x + dx));
  update_accessible (self);
}

static void
on_click_pressed (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  SequinDiffLane  *self)
{
  _sequin_diff_lane_press (self, x);
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               SequinDiffLane *self)
{
  _sequin_diff_lane_drag_begin (self, x);
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                SequinDiffLane *self)
{
  _sequin_diff_lane_drag_update (self, dx);
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             SequinDiffLane *self)
{
  self->scrubbing = FALSE;
}

/* A key binding: the timeline's action named in `args` ("s", or "(si)"
 * with its step), so the lane steps exactly as the timeline does */
static gboolean
forward_to_timeline (GtkWidget *widget,
                     GVariant  *args,
                     gpointer   user_data)
{
  SequinDiffLane *self = SEQUIN_DIFF_LANE (widget);
  const char *action;
  gint32 n;

  if (self->timeline == NULL)
    return FALSE;
  if (g_variant_is_of_type (args, G_VARIANT_TYPE ("(si)")))
    {
      g_variant_get (args, "(&si)", &action, &n);
      return gtk_widget_activate_action (GTK_WIDGET (self->timeline), action, "i", n);
    }
  return gtk_widget_activate_action (GTK_WIDGET (self->timeline), g_variant_get_string (args, NULL), NULL);
}

static void
on_time_changed (SequinDiffLane *self)
{
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
sequin_diff_lane_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  (void) widget; (void) for_size;
  *minimum = *natural = orientation == GTK_ORIENTATION_VERTICAL ? LANE_HEIGHT : 0;
  *minimum_baseline = *natural_baseline = -1;
}

static void
sequin_diff_lane_finalize (GObject *object)
{
  SequinDiffLane *self = SEQUIN_DIFF_LANE (object);

  if (self->timeline != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->timeline), (gpointer *) &self->timeline);
  g_free (self->joint);
  g_free (self->times);
  g_free (self->degrees);
  G_OBJECT_CLASS (sequin_diff_lane_parent_class)->finalize (object);
}

static void
sequin_diff_lane_class_init (SequinDiffLaneClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = sequin_diff_lane_finalize;
  widget_class->snapshot = sequin_diff_lane_snapshot;
  widget_class->measure = sequin_diff_lane_measure;
  gtk_widget_class_set_css_name (widget_class, "difflane");
  /* the lane moves the playhead: a slider, its value the playhead's time */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_SLIDER);

  /* the timeline's keys (sequin-timeline.h) */
  {
    static const struct { guint key; const char *action; int step; } keys[] = {
      { GDK_KEY_Left, "timeline.step-frames", -1 }, { GDK_KEY_KP_Left, "timeline.step-frames", -1 },
      { GDK_KEY_Right, "timeline.step-frames", 1 }, { GDK_KEY_KP_Right, "timeline.step-frames", 1 },
      { GDK_KEY_comma, "timeline.step-keys", -1 }, { GDK_KEY_period, "timeline.step-keys", 1 },
      { GDK_KEY_Home, "timeline.go-to-start", 0 }, { GDK_KEY_KP_Home, "timeline.go-to-start", 0 },
      { GDK_KEY_End, "timeline.go-to-end", 0 }, { GDK_KEY_KP_End, "timeline.go-to-end", 0 },
    };

    for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
      if (keys[i].step != 0)
        gtk_widget_class_add_binding (widget_class, keys[i].key, 0, forward_to_timeline, "(si)",
                                      keys[i].action, keys[i].step);
      else
        gtk_widget_class_add_binding (widget_class, keys[i].key, 0, forward_to_timeline, "s", keys[i].action);
  }
}

static void
sequin_diff_lane_init (SequinDiffLane *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkGesture *click, *drag;

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_focus_on_click (widget, TRUE);

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

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Difference from the compared animation"), -1);
  update_accessible (self);
}

GtkWidget *
sequin_diff_lane_new (SequinTimeline *timeline)
{
  SequinDiffLane *self = g_object_new (SEQUIN_TYPE_DIFF_LANE, NULL);
  GtkAdjustment *hadjustment = NULL;

  self->timeline = timeline;
  g_object_add_weak_pointer (G_OBJECT (timeline), (gpointer *) &self->timeline);
  /* the timeline's axis: redrawn when its playhead, zoom or scroll move */
  g_signal_connect_object (timeline, "notify::time", G_CALLBACK (on_time_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (timeline, "notify::zoom", G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
  g_object_get (timeline, "hadjustment", &hadjustment, NULL);
  if (hadjustment != NULL)
    {
      g_signal_connect_object (hadjustment, "value-changed", G_CALLBACK (gtk_widget_queue_draw), self,
                               G_CONNECT_SWAPPED);
      g_object_unref (hadjustment);
    }
  update_accessible (self);
  return GTK_WIDGET (self);
}
