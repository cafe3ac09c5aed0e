/* sequin-timeline-draw.c: how the timeline paints itself
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The ruler, the name column, a lane per joint with its keys' marks, the
 * loop of a looping clip, the playhead and the corner label, all with
 * cairo in one snapshot node. Geometry and drawing cost: see
 * sequin-timeline.c.
 */
#define G_LOG_DOMAIN "sequin-timeline"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sequin-timeline-draw.h"
#include "sequin-timeline-private.h"
#include "sequin-utils.h"

/* ---- drawing ------------------------------------------------------------- */

typedef struct
{
  GdkRGBA fg;
  GdkRGBA bg;
  GdkRGBA accent;      /* backgrounds */
  GdkRGBA accent_fg;   /* lines and marks on the view background */
  GdkRGBA channel[SQ_N_CHANNELS];
  GdkRGBA playhead;
} Colors;

static void
set_source (cairo_t       *cr,
            const GdkRGBA *color,
            double         alpha)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha * alpha);
}

static void
lookup_colors (SequinTimeline *self,
               Colors         *colors)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  GtkStyleContext *style = gtk_widget_get_style_context (GTK_WIDGET (self));
  gboolean dark;

  /* gtk_widget_get_color() is GTK 4.10; the style context is what 4.8 has */
  gtk_style_context_get_color (style, &colors->fg);
  dark = 0.299 * colors->fg.red + 0.587 * colors->fg.green + 0.114 * colors->fg.blue > 0.5;

  if (!gtk_style_context_lookup_color (style, "view_bg_color", &colors->bg)
      && !gtk_style_context_lookup_color (style, "theme_base_color", &colors->bg))
    gdk_rgba_parse (&colors->bg, dark ? "#1e1e1e" : "#ffffff");
  if (!gtk_style_context_lookup_color (style, "accent_bg_color", &colors->accent)
      && !gtk_style_context_lookup_color (style, "theme_selected_bg_color", &colors->accent))
    gdk_rgba_parse (&colors->accent, "#3584e4");
  if (!gtk_style_context_lookup_color (style, "accent_color", &colors->accent_fg))
    colors->accent_fg = colors->accent;
  G_GNUC_END_IGNORE_DEPRECATIONS

  /* GNOME palette: blue, orange, green, red; lighter shades on dark themes */
  gdk_rgba_parse (&colors->channel[SQ_CHANNEL_ROTATION], dark ? "#62a0ea" : "#1c71d8");
  gdk_rgba_parse (&colors->channel[SQ_CHANNEL_TRANSLATION], dark ? "#ffa348" : "#e66100");
  gdk_rgba_parse (&colors->channel[SQ_CHANNEL_SCALE], dark ? "#57e389" : "#26a269");
  gdk_rgba_parse (&colors->playhead, dark ? "#ff7b63" : "#e01b24");
}

/* One mark, or a band from xs to xe, added to the current path; w is the
 * half width of a mark, r its half height. */
static void
add_mark (cairo_t   *cr,
          SqChannel  channel,
          double     xs,
          double     xe,
          double     cy,
          double     w,
          double     r)
{
  /* thin marks (dense keys) are pixel-aligned bars whatever the channel:
   * they look the same at that size and cairo fills boxes much faster */
  if (w <= 2)
    {
      double y0 = round (cy - r), y1 = round (cy + r);

      cairo_rectangle (cr, floor (xs - w), y0, ceil (xe + w) - floor (xs - w), y1 - y0);
      return;
    }

  switch (channel)
    {
    case SQ_CHANNEL_ROTATION:       /* diamond */
      cairo_move_to (cr, xs - w, cy);
      cairo_line_to (cr, xs, cy - r);
      cairo_line_to (cr, xe, cy - r);
      cairo_line_to (cr, xe + w, cy);
      cairo_line_to (cr, xe, cy + r);
      cairo_line_to (cr, xs, cy + r);
      cairo_close_path (cr);
      break;

    case SQ_CHANNEL_TRANSLATION:    /* square */
      w = MIN (w, r * 0.8);
      r *= 0.8;
      cairo_rectangle (cr, xs - w, cy - r, xe - xs + 2 * w, 2 * r);
      break;

    case SQ_CHANNEL_SCALE:          /* triangle */
    case SQ_N_CHANNELS:
    default:
      cairo_move_to (cr, xs, cy - r);
      cairo_line_to (cr, xe, cy - r);
      cairo_line_to (cr, xe + w, cy + 0.8 * r);
      cairo_line_to (cr, xs - w, cy + 0.8 * r);
      cairo_close_path (cr);
      break;
    }
}

/* Adds the marks of the keys of `track` whose x lies in [x0, x1] to the path:
 * one per pixel column, neighbours closer than RUN_GAP merged into bands. */
static void
add_track_marks (cairo_t       *cr,
                 const SqTrack *track,
                 SqChannel      channel,
                 double         origin,
                 double         zoom,
                 double         x0,
                 double         x1,
                 double         cy,
                 double         w,
                 double         r)
{
  double run_start = 0, run_end = 0;
  gboolean in_run = FALSE;
  gsize i;

  i = _sequin_timeline_lower_bound (track, (x0 - origin) / zoom, 0);
  while (i < track->n_keys)
    {
      double x = origin + sq_track_time (track, i) * zoom;
      double column, xc;

      if (x > x1)
        break;
      column = floor (x);
      xc = column + 0.5;
      if (in_run && xc - run_end <= RUN_GAP)
        run_end = xc;
      else
        {
          if (in_run)
            add_mark (cr, channel, run_start, run_end, cy, w, r);
          run_start = run_end = xc;
          in_run = TRUE;
        }
      /* the first key of the next pixel column */
      i = _sequin_timeline_gallop (track, (column + 1 - origin) / zoom, i + 1);
    }
  if (in_run)
    add_mark (cr, channel, run_start, run_end, cy, w, r);
}

/* The smallest step of the 1-2-5 series (times `unit`) at least `min`. */
static double
nice_step (double min,
           double unit)
{
  double base = pow (10, floor (log10 (MAX (min / unit, 1e-9))));

  for (;;)
    {
      static const double mult[] = { 1, 2, 5 };

      for (guint i = 0; i < G_N_ELEMENTS (mult); i++)
        if (base * mult[i] * unit >= min)
          return base * mult[i] * unit;
      base *= 10;
    }
}

static void
format_seconds (char   *buf,
                gsize   size,
                double  t,
                int     decimals)
{
  /* Translators: a time on the ruler, in seconds */
  g_snprintf (buf, size, _("%.*f s"), decimals, t);
}

static void
draw_ruler (SequinTimeline *self,
            cairo_t        *cr,
            const Colors   *colors,
            PangoLayout    *small,
            double          width)
{
  double left = self->names_w;
  double fps = _sequin_timeline_clip_fps (self->clip);
  int base = _sequin_timeline_clip_frame_base (self->clip);
  double t_start = MAX (0.0, _sequin_timeline_time_at_x (self, left));
  double t_end = MIN (self->extent, _sequin_timeline_time_at_x (self, width));
  double end_x = MIN (width, _sequin_timeline_x_for_time (self, self->extent));
  char buf[64];
  int label_w, label_h, decimals;
  double step, fstep, minor;
  long f_first, f_last;

  cairo_save (cr);
  cairo_rectangle (cr, left, 0, width - left, RULER_H);
  cairo_clip (cr);

  set_source (cr, &colors->fg, 0.05);
  cairo_paint (cr);

  /* seconds: the smallest step that leaves room for the widest label
   * written with as many decimals as that step needs */
  step = nice_step (24 / self->zoom, 0.001);
  for (;;)
    {
      decimals = (int) CLAMP (ceil (-log10 (step) - 1e-9), 0, 3);
      format_seconds (buf, sizeof buf, MAX (self->extent, 10.0), decimals);
      pango_layout_set_text (small, buf, -1);
      pango_layout_get_pixel_size (small, &label_w, &label_h);
      if (label_w + 16 <= step * self->zoom)
        break;
      step = nice_step (step * 1.5, 0.001);
    }

  for (double k = ceil (t_start / step - 1e-9); k * step <= t_end + 1e-9; k++)
    {
      double t = k * step + 0.0;   /* never -0 */
      double x = floor (_sequin_timeline_x_for_time (self, t)) + 0.5;

      set_source (cr, &colors->fg, 0.35);
      cairo_move_to (cr, x, 2);
      cairo_line_to (cr, x, RULER_SPLIT);
      cairo_stroke (cr);

      format_seconds (buf, sizeof buf, t, decimals);
      pango_layout_set_text (small, buf, -1);
      set_source (cr, &colors->fg, 0.8);
      cairo_move_to (cr, x + 3, (RULER_SPLIT - label_h) / 2 + 1);
      pango_cairo_show_layout (cr, small);
    }

  /* frames: labels on multiples of the step, minor ticks in between */
  g_snprintf (buf, sizeof buf, "%d", _sequin_timeline_frame_of (self->clip, self->extent) + 10);
  pango_layout_set_text (small, buf, -1);
  pango_layout_get_pixel_size (small, &label_w, &label_h);
  fstep = nice_step (MAX (1.0, (label_w + 10) * fps / self->zoom), 1);
  minor = fstep / 5 >= 1 && fstep / 5 * self->zoom / fps >= 5 ? fstep / 5
        : fstep / 2 >= 1 && fstep / 2 * self->zoom / fps >= 5 ? fstep / 2
        : 0;

  f_first = (long) ceil (t_start * fps - 1e-6) + base;
  f_last = (long) floor (t_end * fps + 1e-6) + base;
  if (minor > 0)
    {
      set_source (cr, &colors->fg, 0.3);
      for (long f = (long) (ceil (f_first / minor) * minor); f <= f_last; f += (long) minor)
        {
          double x = floor (_sequin_timeline_x_for_time (self, (f - base) / fps)) + 0.5;

          cairo_move_to (cr, x, RULER_H - 4);
          cairo_line_to (cr, x, RULER_H);
        }
      cairo_stroke (cr);
    }
  for (long f = (long) (ceil (f_first / fstep) * fstep); f <= f_last; f += (long) fstep)
    {
      double x = floor (_sequin_timeline_x_for_time (self, (f - base) / fps)) + 0.5;

      set_source (cr, &colors->fg, 0.45);
      cairo_move_to (cr, x, RULER_H - 8);
      cairo_line_to (cr, x, RULER_H);
      cairo_stroke (cr);

      g_snprintf (buf, sizeof buf, "%ld", f);
      pango_layout_set_text (small, buf, -1);
      set_source (cr, &colors->fg, 0.6);
      cairo_move_to (cr, x + 3, RULER_SPLIT + (RULER_H - RULER_SPLIT - label_h) / 2 - 1);
      pango_cairo_show_layout (cr, small);
    }

  /* past the end */
  if (end_x < width)
    {
      set_source (cr, &colors->fg, 0.06);
      cairo_rectangle (cr, end_x, 0, width - end_x, RULER_H);
      cairo_fill (cr);
    }

  cairo_restore (cr);

  set_source (cr, &colors->fg, 0.2);
  cairo_rectangle (cr, 0, RULER_H - 1, width, 1);
  cairo_fill (cr);
}

/* One selected key's mark: larger, outlined; while dragged, drawn where
 * the drag puts it and its old place outlined faintly */
static void
draw_selected_mark (SequinTimeline          *self,
                    cairo_t                 *cr,
                    const Colors            *colors,
                    const SequinTimelineKey *k,
                    double                   origin,
                    double                   offset)
{
  const SqJoint *joint = &self->clip->joints[k->joint];
  double x = floor (origin + k->time * self->zoom) + 0.5;
  double y = _sequin_timeline_y_for_key (self, k->joint, k->channel);
  guint n_rows;
  double r;

  _sequin_timeline_channel_row (joint, k->channel, &n_rows);
  r = _sequin_timeline_mark_radius (n_rows) + 1.5;
  if (offset != 0)
    {
      add_mark (cr, k->channel, x, x, y, r, r);
      cairo_set_line_width (cr, 1);
      set_source (cr, &colors->fg, 0.5);
      cairo_stroke (cr);
      x = floor (x + offset) + 0.5;
    }
  add_mark (cr, k->channel, x, x, y, r, r);
  set_source (cr, &colors->channel[k->channel], 1.0);
  cairo_fill_preserve (cr);
  cairo_set_line_width (cr, 2);
  set_source (cr, (gssize) k->joint == self->sel_joint && k->channel == self->sel_channel
              && (gssize) k->index == self->sel_key ? &colors->playhead : &colors->fg, 1.0);
  cairo_stroke (cr);
}

/* The selected keys of one track that are in view (x in the lanes, after
 * the drag's offset): one per pixel column, the next found by galloping,
 * so that a track of a million selected keys costs its columns */
static void
draw_selected_of_track (SequinTimeline *self,
                        cairo_t        *cr,
                        const Colors   *colors,
                        gsize           joint,
                        SqChannel       channel,
                        double          origin,
                        double          offset,
                        double          width)
{
  const SqTrack *track = &self->clip->joints[joint].tracks[channel];
  double left = self->names_w - 20;
  gsize k;
  guint i;

  if (track->n_keys == 0)
    return;
  k = _sequin_timeline_lower_bound (track, (left - offset - origin) / self->zoom, 0);
  i = _sequin_timeline_selected_from (self, joint, channel, k);
  while (i < self->selection->len)
    {
      const SequinTimelineKey *key = &g_array_index (self->selection, SequinTimelineKey, i);
      double x;

      if (key->joint != joint || key->channel != channel || key->index >= track->n_keys)
        break;
      x = origin + key->time * self->zoom + offset;
      if (x > width + 20)
        break;
      draw_selected_mark (self, cr, colors, key, origin, offset);
      /* the first key of the next pixel column */
      k = _sequin_timeline_gallop (track, (floor (x) + 1 - offset - origin) / self->zoom, key->index + 1);
      i = MAX (i + 1, _sequin_timeline_selected_from (self, joint, channel, k));
    }
}

/* The selected keys of the lanes first .. last (on top of the others),
 * where a drag puts them, the drag's limit and its text, and the rubber
 * band */
static void
draw_selection (SequinTimeline *self,
                cairo_t        *cr,
                const Colors   *colors,
                gsize           first,
                gsize           last,
                double          origin)
{
  double fps = _sequin_timeline_clip_fps (self->clip);
  double offset = self->moving ? self->move_frames / fps * self->zoom : 0;
  double width = gtk_widget_get_width (GTK_WIDGET (self));

  for (gsize j = first; j < last; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      draw_selected_of_track (self, cr, colors, j, (SqChannel) c, origin, offset, width);
  if (self->moving && self->move_wanted != self->move_frames)
    {
      /* the limit the drag stopped at: a red bar beside the leading key */
      gboolean right = self->move_wanted > self->move_frames;
      double edge = origin + (right ? self->move_t1 : self->move_t0) * self->zoom + offset
                    + (right ? 1 : -1) * (self->zoom / fps / 2);

      set_source (cr, &colors->playhead, 0.9);
      cairo_rectangle (cr, floor (edge) - 1, RULER_H, 3, gtk_widget_get_height (GTK_WIDGET (self)) - RULER_H);
      cairo_fill (cr);
    }
  if (self->moving)
    {
      g_autofree char *text = _sequin_timeline_move_text (self);
      PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
      int w, h;
      double tx, ty = RULER_H + 4;

      pango_layout_get_pixel_size (layout, &w, &h);
      tx = CLAMP (self->drag_start_x + offset + 12, self->names_w + 4, MAX (self->names_w + 4, width - w - 8));
      set_source (cr, &colors->bg, 0.9);
      cairo_rectangle (cr, tx - 4, ty - 2, w + 8, h + 4);
      cairo_fill (cr);
      set_source (cr, self->move_wanted != self->move_frames ? &colors->playhead : &colors->fg, 1.0);
      cairo_move_to (cr, tx, ty);
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);
    }
  if (self->boxing && (self->box_x0 != self->box_x1 || self->box_y0 != self->box_y1))
    {
      double x0 = MIN (self->box_x0, self->box_x1), y0 = MIN (self->box_y0, self->box_y1);

      cairo_rectangle (cr, floor (x0) + 0.5, floor (y0) + 0.5,
                       floor (fabs (self->box_x1 - self->box_x0)), floor (fabs (self->box_y1 - self->box_y0)));
      set_source (cr, &colors->accent, 0.18);
      cairo_fill_preserve (cr);
      cairo_set_line_width (cr, 1);
      set_source (cr, &colors->accent_fg, 0.9);
      cairo_stroke (cr);
    }
}

static void
draw_lanes (SequinTimeline *self,
            cairo_t        *cr,
            const Colors   *colors,
            PangoLayout    *names,
            double          width,
            double          height)
{
  const SqClip *clip = self->clip;
  double left = self->names_w;
  double voff = _sequin_timeline_voffset (self);
  double origin = _sequin_timeline_x_for_time (self, 0);
  double end_x = _sequin_timeline_x_for_time (self, self->extent);
  gssize root = sq_clip_get_root_index (clip);
  gsize first, last;
  PangoAttrList *bold;

  first = (gsize) MAX (0.0, floor (voff / LANE_H));
  last = (gsize) MIN ((double) clip->n_joints, ceil ((voff + height - RULER_H) / LANE_H));

  cairo_save (cr);
  cairo_rectangle (cr, 0, RULER_H, width, height - RULER_H);
  cairo_clip (cr);

  /* lane backgrounds */
  for (gsize j = first; j < last; j++)
    {
      double y = RULER_H + j * LANE_H - voff;

      if ((gssize) j == self->sel_joint || (gssize) j == self->lane)
        {
          set_source (cr, &colors->accent, 0.15);
          cairo_rectangle (cr, 0, y, width, LANE_H);
          cairo_fill (cr);
        }
      else if (j % 2 == 1)
        {
          set_source (cr, &colors->fg, 0.04);
          cairo_rectangle (cr, 0, y, width, LANE_H);
          cairo_fill (cr);
        }
    }

  /* the lanes, clipped to the right of the name column */
  cairo_save (cr);
  cairo_rectangle (cr, left, RULER_H, width - left, height - RULER_H);
  cairo_clip (cr);

  if (end_x < width)
    {
      set_source (cr, &colors->fg, 0.06);
      cairo_rectangle (cr, end_x, RULER_H, width - end_x, height - RULER_H);
      cairo_fill (cr);
      set_source (cr, &colors->fg, 0.3);
      cairo_rectangle (cr, floor (end_x), RULER_H, 1, height - RULER_H);
      cairo_fill (cr);
    }

  for (guint c = 0; c < SQ_N_CHANNELS; c++)
    {
      for (gsize j = first; j < last; j++)
        {
          const SqJoint *joint = &clip->joints[j];
          guint row, n_rows;
          double cy, r;

          if (joint->tracks[c].n_keys == 0)
            continue;
          row = _sequin_timeline_channel_row (joint, c, &n_rows);
          r = _sequin_timeline_mark_radius (n_rows);
          cy = RULER_H + j * LANE_H - voff + LANE_H * (row + 0.5) / n_rows;
          add_track_marks (cr, &joint->tracks[c], c, origin, self->zoom,
                           left - r - 1, width + r + 1, cy, _sequin_timeline_mark_half_width (self, r), r);
        }
      set_source (cr, &colors->channel[c], 1.0);
      cairo_fill (cr);
    }

  draw_selection (self, cr, colors, first, last, origin);
  cairo_restore (cr);

  /* name column */
  set_source (cr, &colors->fg, 0.04);
  cairo_rectangle (cr, 0, RULER_H, left, height - RULER_H);
  cairo_fill (cr);
  set_source (cr, &colors->fg, 0.2);
  cairo_rectangle (cr, left - 1, 0, 1, height);
  cairo_fill (cr);

  bold = pango_attr_list_new ();
  pango_attr_list_insert (bold, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  pango_layout_set_ellipsize (names, PANGO_ELLIPSIZE_END);
  pango_layout_set_width (names, (int) ((left - NAME_INDENT - 6) * PANGO_SCALE));
  for (gsize j = first; j < last; j++)
    {
      double y = RULER_H + j * LANE_H - voff;
      int h;

      pango_layout_set_text (names, clip->joints[j].name, -1);
      pango_layout_set_attributes (names, (gssize) j == root ? bold : NULL);
      pango_layout_get_pixel_size (names, NULL, &h);
      set_source (cr, &colors->fg, (gssize) j == root ? 1.0 : 0.85);
      cairo_move_to (cr, NAME_INDENT, y + (LANE_H - h) / 2);
      pango_cairo_show_layout (cr, names);

      if ((gssize) j == root)
        {
          /* the root badge: a filled dot before the name */
          set_source (cr, &colors->accent_fg, 1.0);
          cairo_arc (cr, NAME_INDENT / 2 + 1, y + LANE_H / 2, 3.5, 0, 2 * G_PI);
          cairo_fill (cr);
        }
    }
  pango_layout_set_attributes (names, NULL);
  pango_attr_list_unref (bold);

  cairo_restore (cr);
}

static void
draw_playhead (SequinTimeline *self,
               cairo_t        *cr,
               const Colors   *colors,
               double          width,
               double          height)
{
  double x = floor (_sequin_timeline_x_for_time (self, self->time)) + 0.5;
  double left = self->names_w;

  if (x < left - 6 || x > width + 6)
    return;

  cairo_save (cr);
  cairo_rectangle (cr, left, 0, width - left, height);
  cairo_clip (cr);

  set_source (cr, &colors->playhead, 1.0);
  cairo_rectangle (cr, x - 0.75, RULER_SPLIT, 1.5, height - RULER_SPLIT);
  cairo_fill (cr);

  /* the handle: a pentagon pointing down onto the frame row */
  cairo_move_to (cr, x - 6, RULER_SPLIT - 2);
  cairo_line_to (cr, x + 6, RULER_SPLIT - 2);
  cairo_line_to (cr, x + 6, RULER_SPLIT + 6);
  cairo_line_to (cr, x, RULER_SPLIT + 12);
  cairo_line_to (cr, x - 6, RULER_SPLIT + 6);
  cairo_close_path (cr);
  cairo_fill (cr);

  cairo_restore (cr);
}

/* the top-left corner: the playhead's time and frame */
static void
draw_corner (SequinTimeline *self,
             cairo_t        *cr,
             const Colors   *colors,
             PangoLayout    *small)
{
  char buf[64];
  int w, h;

  set_source (cr, &colors->fg, 0.05);
  cairo_rectangle (cr, 0, 0, self->names_w - 1, RULER_H - 1);
  cairo_fill (cr);

  if (self->clip == NULL)
    return;

  format_seconds (buf, sizeof buf, self->time, 3);
  pango_layout_set_width (small, (int) ((self->names_w - 12) * PANGO_SCALE));
  pango_layout_set_ellipsize (small, PANGO_ELLIPSIZE_END);
  pango_layout_set_text (small, buf, -1);
  pango_layout_get_pixel_size (small, &w, &h);
  set_source (cr, &colors->fg, 0.9);
  cairo_move_to (cr, 6, (RULER_SPLIT - h) / 2 + 1);
  pango_cairo_show_layout (cr, small);

  {
    g_autofree char *where = _sequin_timeline_position_text (self);
    pango_layout_set_text (small, where, -1);
  }
  set_source (cr, &colors->fg, 0.6);
  cairo_move_to (cr, 6, RULER_SPLIT + (RULER_H - RULER_SPLIT - h) / 2 - 1);
  pango_cairo_show_layout (cr, small);

  pango_layout_set_width (small, -1);
  pango_layout_set_ellipsize (small, PANGO_ELLIPSIZE_NONE);
}

gboolean
sequin_timeline_get_loop (SequinTimeline *self,
                          double         *in,
                          double         *out)
{
  SqSlFields f;

  g_return_val_if_fail (SEQUIN_IS_TIMELINE (self), FALSE);

  if (self->clip == NULL)
    return FALSE;
  sq_sl_fields_get (self->clip, &f);
  if (!f.loop || !(f.loop_in <= f.loop_out))
    return FALSE;
  if (in != NULL)
    *in = f.loop_in;
  if (out != NULL)
    *out = f.loop_out;
  return TRUE;
}

/* A looping animation (.anim): the loop's part of the lanes shaded, its
 * in and out marked on the ruler */
static void
draw_loop (SequinTimeline *self,
           cairo_t        *cr,
           const Colors   *colors,
           PangoLayout    *small,
           double          width,
           double          height)
{
  double in, out, x_in, x_out;
  int w, h;

  if (!sequin_timeline_get_loop (self, &in, &out))
    return;
  x_in = _sequin_timeline_x_for_time (self, in);
  x_out = _sequin_timeline_x_for_time (self, out);

  cairo_save (cr);
  cairo_rectangle (cr, self->names_w, 0, width - self->names_w, height);
  cairo_clip (cr);
  set_source (cr, &colors->accent, 0.07);
  cairo_rectangle (cr, x_in, RULER_H, x_out - x_in, height - RULER_H);
  cairo_fill (cr);
  set_source (cr, &colors->accent, 0.9);
  cairo_set_line_width (cr, 2);
  for (guint i = 0; i < 2; i++)
    {
      double x = floor (i == 0 ? x_in : x_out) + 0.5;
      /* a flag at the ruler's foot, pointing into the loop */
      double d = i == 0 ? 7 : -7;

      cairo_move_to (cr, x, RULER_SPLIT);
      cairo_line_to (cr, x, height);
      cairo_stroke (cr);
      cairo_move_to (cr, x, RULER_SPLIT);
      cairo_line_to (cr, x + d, RULER_SPLIT + 4);
      cairo_line_to (cr, x, RULER_SPLIT + 8);
      cairo_close_path (cr);
      cairo_fill (cr);
    }
  /* TRANSLATORS: the mark of the loop's start and end on the timeline */
  pango_layout_set_text (small, _("loop"), -1);
  pango_layout_get_pixel_size (small, &w, &h);
  if (x_out - x_in > w + 16)
    {
      double y = RULER_SPLIT + (RULER_H - RULER_SPLIT - h) / 2 - 1;

      /* over the frame numbers, on the ruler's own colour */
      set_source (cr, &colors->bg, 1.0);
      cairo_rectangle (cr, x_in + 8, y, w + 4, h);
      cairo_fill (cr);
      set_source (cr, &colors->accent, 0.9);
      cairo_move_to (cr, x_in + 10, y);
      pango_cairo_show_layout (cr, small);
    }
  cairo_restore (cr);
}

void
_sequin_timeline_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  SequinTimeline *self = SEQUIN_TIMELINE (widget);
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  g_autoptr(PangoLayout) names = NULL;
  g_autoptr(PangoLayout) small = NULL;
  PangoFontDescription *font;
  Colors colors;
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;

  _sequin_timeline_ensure_names_width (self);
  lookup_colors (self, &colors);

  names = gtk_widget_create_pango_layout (widget, NULL);
  small = gtk_widget_create_pango_layout (widget, NULL);
  font = pango_font_description_copy (pango_context_get_font_description (pango_layout_get_context (small)));
  if (pango_font_description_get_size (font) > 0)
    {
      if (pango_font_description_get_size_is_absolute (font))
        pango_font_description_set_absolute_size (font, pango_font_description_get_size (font) * 0.85);
      else
        pango_font_description_set_size (font, (int) (pango_font_description_get_size (font) * 0.85));
    }
  pango_layout_set_font_description (small, font);
  pango_font_description_free (font);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_line_width (cr, 1);

  set_source (cr, &colors.bg, 1.0);
  cairo_paint (cr);

  draw_ruler (self, cr, &colors, small, width);
  if (self->clip != NULL)
    {
      draw_lanes (self, cr, &colors, names, width, height);
      draw_loop (self, cr, &colors, small, width, height);
    }
  else
    {
      int w, h;

      pango_layout_set_text (names, _("No clip"), -1);
      pango_layout_get_pixel_size (names, &w, &h);
      set_source (cr, &colors.fg, 0.5);
      cairo_move_to (cr, (width - w) / 2, RULER_H + (height - RULER_H - h) / 2);
      pango_cairo_show_layout (cr, names);
    }
  draw_playhead (self, cr, &colors, width, height);
  draw_corner (self, cr, &colors, small);

  if (gtk_widget_has_visible_focus (widget))
    {
      set_source (cr, &colors.accent_fg, 1.0);
      cairo_set_line_width (cr, 2);
      cairo_rectangle (cr, 1, 1, width - 2, height - 2);
      cairo_stroke (cr);
    }

  cairo_destroy (cr);
}
