/* sequin-diff-lane.c: how far the clip is from the one compared with, over
 * time: the selected joint's curve, every joint's heat (sequin-diff-lane.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sequin-diff-lane"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sequin-diff-lane.h"
#include "sequin-timeline-private.h"

#define LANE_HEIGHT 56      /* the curve's part */
#define HEAT_ROW    4       /* a joint's row in the heat, while they fit… */
#define HEAT_MAX    80      /* …in this many pixels; more rows share them */
#define HEAT_GAP    4

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

  /* the heat: each joint's largest difference in each span of time */
  char          **heat_names;   /* n_rows */
  double         *heat_values;  /* n_rows × n_columns, row after row */
  cairo_surface_t *heat;        /* A8, a pixel per value: how hot, against heat_scale */
  guint           n_rows;
  gsize           n_columns;
  double          heat_end;     /* the spans cover [0, heat_end] */
  double          heat_scale;   /* the hottest value, at least 1° */

  double          drag_start_x;
  gboolean        scrubbing;    /* a drag that began right of the name column */

  /* what does not move with the playhead (the curve, the heat, the rules),
   * drawn once for the lane's size, zoom, scroll and colours: scrubbing
   * draws only the playhead and the value at it over it */
  guint           serial;       /* counts changes of the curve and the heat */
  GdkTexture     *drawn;
  guint           drawn_serial;
  double          drawn_key[8];
};

G_DEFINE_FINAL_TYPE (SequinDiffLane, sequin_diff_lane, GTK_TYPE_WIDGET)

enum {
  JOINT_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

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
  self->serial++;
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static int
heat_height (SequinDiffLane *self)
{
  return self->n_rows == 0 ? 0 : (int) MIN (self->n_rows * HEAT_ROW, HEAT_MAX);
}

/* the mask the heat is drawn through: a pixel per value */
static cairo_surface_t *
heat_mask (const double *values,
           guint         n_rows,
           gsize         n_columns,
           double        scale)
{
  cairo_surface_t *mask = cairo_image_surface_create (CAIRO_FORMAT_A8, (int) n_columns, (int) n_rows);
  int stride = cairo_image_surface_get_stride (mask);
  guchar *data;

  cairo_surface_flush (mask);
  data = cairo_image_surface_get_data (mask);
  for (guint r = 0; data != NULL && r < n_rows; r++)
    for (gsize c = 0; c < n_columns; c++)
      {
        double v = values[r * n_columns + c], f = isnan (v) ? 1 : CLAMP (v / scale, 0, 1);

        /* the square root: a tenth of the hottest still shows (a third as strong) */
        data[r * stride + c] = (guchar) lround (sqrt (f) * 255);
      }
  cairo_surface_mark_dirty (mask);
  return mask;
}

void
sequin_diff_lane_set_heat (SequinDiffLane      *self,
                           const char * const  *names,
                           const double * const *peaks,
                           guint                n_rows,
                           gsize                n_columns,
                           double               end)
{
  g_return_if_fail (SEQUIN_IS_DIFF_LANE (self));
  g_return_if_fail (n_rows == 0 || n_columns == 0 || (names != NULL && peaks != NULL));

  g_clear_pointer (&self->heat_names, g_strfreev);
  g_clear_pointer (&self->heat_values, g_free);
  g_clear_pointer (&self->heat, cairo_surface_destroy);
  self->n_rows = 0;
  self->n_columns = 0;
  self->heat_scale = 1.0;
  /* a cairo surface is at most 32767 pixels a side */
  if (n_rows > 0 && n_columns > 0 && n_rows <= G_MAXINT16 && n_columns <= G_MAXINT16)
    {
      self->n_rows = n_rows;
      self->n_columns = n_columns;
      self->heat_end = end;
      self->heat_names = g_new0 (char *, n_rows + 1);
      self->heat_values = g_new (double, (gsize) n_rows * n_columns);
      for (guint r = 0; r < n_rows; r++)
        {
          self->heat_names[r] = g_strdup (names[r]);
          memcpy (self->heat_values + (gsize) r * n_columns, peaks[r], n_columns * sizeof (double));
          for (gsize c = 0; c < n_columns; c++)
            if (isfinite (peaks[r][c]))
              self->heat_scale = MAX (self->heat_scale, peaks[r][c]);
        }
      self->heat = heat_mask (self->heat_values, n_rows, n_columns, self->heat_scale);
    }
  self->serial++;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

gboolean
sequin_diff_lane_heat_at (SequinDiffLane *self,
                          double          x,
                          double          y,
                          const char    **joint,
                          double         *time,
                          double         *degrees)
{
  double top = LANE_HEIGHT, t, column;
  guint row;
  gsize c;

  g_return_val_if_fail (SEQUIN_IS_DIFF_LANE (self), FALSE);
  if (self->n_rows == 0 || self->timeline == NULL || y < top || y >= top + heat_height (self)
      || x < _sequin_timeline_lanes_x (self->timeline))
    return FALSE;
  row = MIN ((guint) ((y - top) / heat_height (self) * self->n_rows), self->n_rows - 1);
  t = _sequin_timeline_time_at_x (self->timeline, x);
  column = self->heat_end > 0 ? t / self->heat_end * (double) self->n_columns : 0;
  if (!(column >= 0) || column >= (double) self->n_columns)
    return FALSE;
  c = (gsize) column;
  if (joint != NULL)
    *joint = self->heat_names[row];
  if (time != NULL)
    *time = t;
  if (degrees != NULL)
    *degrees = self->heat_values[(gsize) row * self->n_columns + c];
  return TRUE;
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

/* The curve's last point left of x = `left` (where drawing starts), or 0 */
static gsize
first_shown (SequinDiffLane *self,
             double          left)
{
  double x0 = _sequin_timeline_x_for_time (self->timeline, 0);
  double per_second = _sequin_timeline_x_for_time (self->timeline, 1) - x0;
  double t = per_second > 0 ? (left - x0) / per_second : -G_MAXDOUBLE;
  gsize lo = 0, hi = self->n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (self->times[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 ? lo - 1 : 0;
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

  double column = -G_MAXDOUBLE, low = 0, high = 0, last = 0;

  cairo_save (cr);
  cairo_rectangle (cr, left, 0, width - left, bottom + 1);
  cairo_clip (cr);
  /* tens of thousands of points over a few hundred pixels: within a pixel
   * column only where the line enters, its lowest and highest and where it
   * leaves are drawn (the same pixels, a path a hundred times shorter) */
  for (gsize i = first_shown (self, left); i < self->n; i++)
    {
      double y = bottom - (isfinite (self->degrees[i]) ? self->degrees[i] : self->most) * scale;

      x = _sequin_timeline_x_for_time (self->timeline, self->times[i]);
      /* zoomed in, most of the curve is beyond the right edge */
      if (first >= 0 && x > width + 1 && floor (x) != column)
        {
          cairo_line_to (cr, x, y);
          break;
        }
      if (first < 0)
        {
          first = x;
          cairo_move_to (cr, x, y);
          column = floor (x);
          low = high = last = y;
          continue;
        }
      if (floor (x) == column)
        {
          low = MIN (low, y);
          high = MAX (high, y);
          last = y;
          continue;
        }
      if (low < last || high > last)
        {
          cairo_line_to (cr, column + 0.5, low);
          cairo_line_to (cr, column + 0.5, high);
          cairo_line_to (cr, column + 0.5, last);
        }
      cairo_line_to (cr, x, y);
      column = floor (x);
      low = high = last = y;
    }
  if (first >= 0 && (low < last || high > last))
    {
      cairo_line_to (cr, column + 0.5, low);
      cairo_line_to (cr, column + 0.5, high);
      cairo_line_to (cr, x, last);
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

/* every joint's heat, a row each, under the curve; the curve's joint
 * outlined */
static void
draw_heat (SequinDiffLane *self,
           cairo_t        *cr,
           const GdkRGBA  *fg,
           const GdkRGBA  *curve,
           double          left,
           double          width)
{
  double top = LANE_HEIGHT, h = heat_height (self);
  double x0 = _sequin_timeline_x_for_time (self->timeline, 0);
  double x1 = _sequin_timeline_x_for_time (self->timeline, self->heat_end);
  double cell_w = (x1 - x0) / (double) self->n_columns, row_h = h / self->n_rows;
  g_autoptr(PangoLayout) layout = NULL;
  cairo_pattern_t *pattern;
  cairo_matrix_t matrix;

  cairo_save (cr);
  cairo_rectangle (cr, left, top, width - left, h);
  cairo_clip (cr);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.06);
  cairo_paint (cr);
  if (x1 > x0)
    {
      pattern = cairo_pattern_create_for_surface (self->heat);
      /* whole cells when they are a pixel or more; averaged when they share one */
      cairo_pattern_set_filter (pattern, cell_w >= 1 && row_h >= 1 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
      cairo_matrix_init_scale (&matrix, 1 / cell_w, 1 / row_h);
      cairo_matrix_translate (&matrix, -x0, -top);
      cairo_pattern_set_matrix (pattern, &matrix);
      cairo_set_source_rgba (cr, curve->red, curve->green, curve->blue, 1);
      cairo_mask (cr, pattern);
      cairo_pattern_destroy (pattern);
    }
  for (guint r = 0; self->joint != NULL && r < self->n_rows; r++)
    if (g_strcmp0 (self->heat_names[r], self->joint) == 0)
      {
        double from = MAX (left, x0), to = MIN (width, x1);

        cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
        cairo_set_line_width (cr, 1);
        cairo_rectangle (cr, from + 0.5, top + r * row_h - 0.5, MAX (to - from - 1, 0), MAX (row_h, 1) + 1);
        cairo_stroke (cr);
      }
  cairo_restore (cr);

  /* TRANSLATORS: the difference lane's heat map: a row per joint */
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), _("All joints"));
  pango_layout_set_width (layout, (int) MAX (left - 8, 10) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.6);
  cairo_move_to (cr, 6, top);
  pango_cairo_show_layout (cr, layout);
}

/* What does not move with the playhead: the rules, the curve and its
 * scale, the heat */
static void
draw_still (SequinDiffLane *self,
            cairo_t        *cr,
            const GdkRGBA  *fg,
            const GdkRGBA  *curve,
            double          left,
            double          width)
{
  double top = 18, bottom = LANE_HEIGHT - 4;

  /* a rule above, the floor line */
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.15);
  cairo_rectangle (cr, 0, 0, width, 1);
  cairo_rectangle (cr, left, bottom, width - left, 1);
  cairo_fill (cr);

  if (self->n > 0)
    draw_curve (self, cr, curve, left, width, top, bottom);
  if (self->n_rows > 0)
    draw_heat (self, cr, fg, curve, left, width);
  if (self->n > 0)
    {
      /* TRANSLATORS: the top of the difference lane's curve, in degrees */
      g_autofree char *scale = g_strdup_printf (_("max %.3g°"), self->most);
      g_autoptr(PangoLayout) top_label = gtk_widget_create_pango_layout (GTK_WIDGET (self), scale);

      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.6);
      cairo_move_to (cr, left + 4, 1);
      pango_cairo_show_layout (cr, top_label);
    }
}

/* draw_still's picture for the lane as it is now, made again only when
 * the curve, the heat, the size, the zoom, the scroll or the colours change */
static GdkTexture *
still_texture (SequinDiffLane *self,
               const GdkRGBA  *fg,
               const GdkRGBA  *curve,
               double          left,
               int             width,
               int             height)
{
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  double key[8] = { width, height, left, scale,
                    _sequin_timeline_x_for_time (self->timeline, 0),
                    _sequin_timeline_x_for_time (self->timeline, 1),
                    fg->red + 2 * fg->green + 4 * fg->blue, curve->red + 2 * curve->green + 4 * curve->blue };
  cairo_surface_t *surface;
  cairo_t *cr;
  GBytes *bytes;

  if (self->drawn != NULL && self->drawn_serial == self->serial && memcmp (key, self->drawn_key, sizeof key) == 0)
    return self->drawn;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  draw_still (self, cr, fg, curve, left, width);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  /* cairo's ARGB32 is GDK's default memory format (premultiplied, native) */
  bytes = g_bytes_new (cairo_image_surface_get_data (surface),
                       (gsize) cairo_image_surface_get_stride (surface) * (gsize) (height * scale));
  g_clear_object (&self->drawn);
  self->drawn = gdk_memory_texture_new (width * scale, height * scale, GDK_MEMORY_DEFAULT, bytes,
                                        (gsize) cairo_image_surface_get_stride (surface));
  g_bytes_unref (bytes);
  cairo_surface_destroy (surface);
  self->drawn_serial = self->serial;
  memcpy (self->drawn_key, key, sizeof key);
  return self->drawn;
}

static void
sequin_diff_lane_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  SequinDiffLane *self = SEQUIN_DIFF_LANE (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  double left, time, x;
  g_autofree char *label = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  GdkRGBA fg, curve, playhead;
  cairo_t *cr;

  if (width <= 0 || height <= 0 || self->timeline == NULL)
    return;
  colors (self, &fg, &curve, &playhead);
  left = _sequin_timeline_lanes_x (self->timeline);
  time = sequin_timeline_get_time (self->timeline);
  gtk_snapshot_append_texture (snapshot, still_texture (self, &fg, &curve, left, width, height),
                               &GRAPHENE_RECT_INIT (0, 0, width, height));

  /* the name column: the joint and its value at the playhead */
  if (self->n > 0)
    /* TRANSLATORS: the difference lane's name column: joint, degrees at the playhead */
    label = g_strdup_printf (_("Δ %s\n%.1f°"), self->joint, sequin_diff_lane_value_at (self, time));
  else
    label = g_strdup (_("Δ no joint"));
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, MAX (left, 1), LANE_HEIGHT));
  layout = gtk_widget_create_pango_layout (widget, label);
  pango_layout_set_width (layout, (int) MAX (left - 8, 10) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.8);
  cairo_move_to (cr, 6, 4);
  pango_cairo_show_layout (cr, layout);
  cairo_destroy (cr);

  x = floor (_sequin_timeline_x_for_time (self->timeline, time)) + 0.5;
  if (x >= left)
    gtk_snapshot_append_color (snapshot, &playhead, &GRAPHENE_RECT_INIT (x - 0.75, 0, 1.5, height));

  /* the keyboard focus, as the timeline draws its own */
  if (gtk_widget_has_visible_focus (widget))
    {
      cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
      cairo_set_source_rgba (cr, curve.red, curve.green, curve.blue, 1);
      cairo_set_line_width (cr, 2);
      cairo_rectangle (cr, 1, 1, width - 2, height - 2);
      cairo_stroke (cr);
      cairo_destroy (cr);
    }
}

/* ---- input: the playhead, snapped as on the timeline's ruler --------------- */

void
_sequin_diff_lane_press (SequinDiffLane *self,
                         double          x,
                         double          y)
{
  const char *joint;

  g_return_if_fail (SEQUIN_IS_DIFF_LANE (self));

  if (gtk_widget_get_focusable (GTK_WIDGET (self)))
    gtk_widget_grab_focus (GTK_WIDGET (self));
  /* the name column is not on the time axis */
  if (self->timeline == NULL || x < _sequin_timeline_lanes_x (self->timeline))
    return;
  /* on the heat: that joint, there */
  if (sequin_diff_lane_heat_at (self, x, y, &joint, NULL, NULL))
    {
      g_autofree char *name = g_strdup (joint);   /* the handler may set new heat */

      g_signal_emit (self, signals[JOINT_ACTIVATED], 0, name);
    }
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
  _sequin_diff_lane_press (self, x, y);
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

/* on the heat: the joint, the time and how far apart it is there */
static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip)
{
  const char *joint;
  double time, degrees;
  g_autofree char *text = NULL;

  if (keyboard || !sequin_diff_lane_heat_at (SEQUIN_DIFF_LANE (widget), x, y, &joint, &time, &degrees))
    return FALSE;
  /* TRANSLATORS: a tooltip on the difference lane's heat: joint, degrees, seconds */
  text = g_strdup_printf (_("%s: up to %.3g° apart near %.3f s"), joint, degrees, time);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
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
  SequinDiffLane *self = SEQUIN_DIFF_LANE (widget);
  int heat = heat_height (self);

  (void) for_size;
  *minimum = *natural = orientation == GTK_ORIENTATION_VERTICAL ? LANE_HEIGHT + (heat > 0 ? heat + HEAT_GAP : 0) : 0;
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
  g_strfreev (self->heat_names);
  g_free (self->heat_values);
  g_clear_pointer (&self->heat, cairo_surface_destroy);
  g_clear_object (&self->drawn);
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
  /* a click on the heat: the joint of that row (the playhead goes there too) */
  signals[JOINT_ACTIVATED] = g_signal_new ("joint-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                           NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
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
  gtk_widget_set_has_tooltip (widget, TRUE);
  g_signal_connect (widget, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);

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
