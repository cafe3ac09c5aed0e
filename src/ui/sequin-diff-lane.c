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

static void
update_accessible (SequinDiffLane *self)
{
  g_autofree char *text = NULL;

  if (self->n == 0)
    text = g_strdup (_("No joint compared"));
  else
    /* TRANSLATORS: the difference lane under the timeline: joint, degrees, seconds */
    text = g_strdup_printf (_("%s: up to %.3g° apart, at %.3f s"), self->joint, self->most, self->most_time);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
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
  cairo_destroy (cr);
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
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
sequin_diff_lane_init (SequinDiffLane *self)
{
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
  g_signal_connect_object (timeline, "notify::time", G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (timeline, "notify::zoom", G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
  g_object_get (timeline, "hadjustment", &hadjustment, NULL);
  if (hadjustment != NULL)
    {
      g_signal_connect_object (hadjustment, "value-changed", G_CALLBACK (gtk_widget_queue_draw), self,
                               G_CONNECT_SWAPPED);
      g_object_unref (hadjustment);
    }
  return GTK_WIDGET (self);
}
