/* sequin-preview-gizmo.c: the posing gizmo's geometry in the preview
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Rings and arrows are flat ribbons turned toward the viewer, a few
 * pixels wide whatever the distance, so both renderers (OpenGL's core
 * profile has only one-pixel lines) draw them alike. A ring's far half is
 * paler, as in Blender and Godot, so which way it turns reads at once.
 */
#include "config.h"

#include <math.h>

#include "sequin-preview-gizmo.h"
#include "sequin-preview-mesh.h"

#define RING_SEGMENTS 72
#define VIEW_RING     1.22    /* the free ring's radius, of the axis rings' */
#define PICK_PIXELS   8.0
#define FAR_PENALTY   3.0     /* pixels: a ring's near half is picked first */

static double
dot (const double a[3],
     const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void
cross (const double a[3],
       const double b[3],
       double       out[3])
{
  double r[3] = { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0] };

  out[0] = r[0];
  out[1] = r[1];
  out[2] = r[2];
}

static gboolean
normalize (double v[3])
{
  double len = sqrt (dot (v, v));

  if (len < 1e-12 || !isfinite (len))
    return FALSE;
  for (int i = 0; i < 3; i++)
    v[i] /= len;
  return TRUE;
}

void
sequin_gizmo_axis (const SequinGizmo *g,
                   int                handle,
                   double             dir[3])
{
  const double *src = handle == SEQUIN_GIZMO_VIEW ? g->toward : g->axes[CLAMP (handle, 0, 2)];

  for (int i = 0; i < 3; i++)
    dir[i] = src[i];
}

/* two unit vectors across `a`, so that u × v = a */
static void
across (const double a[3],
        double       u[3],
        double       v[3])
{
  double helper[3] = { 0, 0, 0 };

  helper[fabs (a[0]) < 0.6 ? 0 : fabs (a[1]) < 0.6 ? 1 : 2] = 1;
  cross (helper, a, u);
  normalize (u);
  cross (a, u, v);
}

/* point `t` (radians) of handle `handle`'s ring, and whether it is on the
 * viewer's side of the joint */
static gboolean
ring_point (const SequinGizmo *g,
            int                handle,
            double             t,
            double             p[3])
{
  double a[3], u[3], v[3], r = g->radius * (handle == SEQUIN_GIZMO_VIEW ? VIEW_RING : 1), off[3];

  sequin_gizmo_axis (g, handle, a);
  across (a, u, v);
  for (int i = 0; i < 3; i++)
    {
      off[i] = r * (u[i] * cos (t) + v[i] * sin (t));
      p[i] = g->centre[i] + off[i];
    }
  return handle == SEQUIN_GIZMO_VIEW || dot (off, g->toward) >= -1e-9;
}

/* a quad from a–b, `width` metres across as seen from the viewer */
static void
ribbon (const SequinGizmo *g,
        const double       a[3],
        const double       b[3],
        double             width_a,
        double             width_b,
        const float        rgba[4],
        GArray            *out)
{
  double t[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, w[3], p[4][3];

  cross (t, g->toward, w);
  if (!normalize (w))
    return;
  for (int i = 0; i < 3; i++)
    {
      p[0][i] = a[i] - w[i] * width_a / 2;
      p[1][i] = a[i] + w[i] * width_a / 2;
      p[2][i] = b[i] + w[i] * width_b / 2;
      p[3][i] = b[i] - w[i] * width_b / 2;
    }
  sequin_mesh_vertex (out, p[0], NULL, rgba);
  sequin_mesh_vertex (out, p[1], NULL, rgba);
  sequin_mesh_vertex (out, p[2], NULL, rgba);
  sequin_mesh_vertex (out, p[0], NULL, rgba);
  sequin_mesh_vertex (out, p[2], NULL, rgba);
  sequin_mesh_vertex (out, p[3], NULL, rgba);
}

static void
build_ring (const SequinGizmo *g,
            int                handle,
            double             width,
            const float        colour[4],
            GArray            *out)
{
  double a[3], b[3];

  ring_point (g, handle, 0, a);
  for (int s = 1; s <= RING_SEGMENTS; s++)
    {
      double t = 2 * G_PI * s / RING_SEGMENTS, mid[3];
      float rgba[4] = { colour[0], colour[1], colour[2], colour[3] };

      ring_point (g, handle, t, b);
      if (!ring_point (g, handle, t - G_PI / RING_SEGMENTS, mid))
        rgba[3] *= 0.3f;
      ribbon (g, a, b, width, width, rgba, out);
      for (int i = 0; i < 3; i++)
        a[i] = b[i];
    }
}

static void
build_arrow (const SequinGizmo *g,
             int                handle,
             double             width,
             const float        colour[4],
             GArray            *out)
{
  double a[3], from[3], base[3], tip[3];

  sequin_gizmo_axis (g, handle, a);
  for (int i = 0; i < 3; i++)
    {
      from[i] = g->centre[i] + a[i] * g->radius * 0.12;
      base[i] = g->centre[i] + a[i] * g->radius * 0.78;
      tip[i] = g->centre[i] + a[i] * g->radius;
    }
  ribbon (g, from, base, width, width, colour, out);
  /* the head: a triangle, wide at its base, to a point */
  ribbon (g, base, tip, width * 4, 0, colour, out);
}

void
sequin_gizmo_build (const SequinGizmo *g,
                    int                hover,
                    int                active,
                    const float        colours[SEQUIN_GIZMO_N_HANDLES][4],
                    GArray            *out)
{
  int n = g->mode == SEQUIN_GIZMO_ROTATE ? SEQUIN_GIZMO_N_HANDLES : 3;

  for (int h = 0; h < n; h++)
    {
      gboolean strong = h == hover || h == active;
      double width = g->pixel * (strong ? 5.0 : 2.5);
      float rgba[4] = { colours[h][0], colours[h][1], colours[h][2], colours[h][3] };

      /* while one is dragged the others step back */
      if (active >= 0 && h != active)
        rgba[3] *= 0.35f;
      if (!strong)
        rgba[3] *= 0.8f;
      if (g->mode == SEQUIN_GIZMO_ROTATE)
        build_ring (g, h, width, rgba, out);
      else
        build_arrow (g, h, width, rgba, out);
    }
}

double
sequin_segment_distance (double x,
                         double y,
                         double ax,
                         double ay,
                         double bx,
                         double by)
{
  double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? CLAMP (((x - ax) * dx + (y - ay) * dy) / len2, 0.0, 1.0) : 0.0;

  return hypot (x - (ax + t * dx), y - (ay + t * dy));
}

/* how far (pixels, the far half's penalty added) (x, y) is from the
 * handle's ring or arrow */
static double
handle_distance (const SequinGizmo *g,
                 int                handle,
                 double             x,
                 double             y)
{
  double best = G_MAXDOUBLE, p[3], ax, ay, bx, by;

  if (g->mode == SEQUIN_GIZMO_MOVE)
    {
      double a[3];

      sequin_gizmo_axis (g, handle, a);
      for (int i = 0; i < 3; i++)
        p[i] = g->centre[i] + a[i] * g->radius;
      if (!g->project (g->project_data, g->centre, &ax, &ay) || !g->project (g->project_data, p, &bx, &by))
        return best;
      return sequin_segment_distance (x, y, ax, ay, bx, by);
    }
  ring_point (g, handle, 0, p);
  if (!g->project (g->project_data, p, &ax, &ay))
    return best;
  for (int s = 1; s <= RING_SEGMENTS; s++)
    {
      double t = 2 * G_PI * s / RING_SEGMENTS, mid[3], d;
      gboolean near = ring_point (g, handle, t - G_PI / RING_SEGMENTS, mid);

      ring_point (g, handle, t, p);
      if (!g->project (g->project_data, p, &bx, &by))
        return G_MAXDOUBLE;
      d = sequin_segment_distance (x, y, ax, ay, bx, by) + (near ? 0 : FAR_PENALTY);
      best = MIN (best, d);
      ax = bx;
      ay = by;
    }
  return best;
}

int
sequin_gizmo_pick (const SequinGizmo *g,
                   double             x,
                   double             y)
{
  int n = g->mode == SEQUIN_GIZMO_ROTATE ? SEQUIN_GIZMO_N_HANDLES : 3, found = -1;
  double best = PICK_PIXELS;

  for (int h = 0; h < n; h++)
    {
      double d = handle_distance (g, h, x, y);

      if (d < best)
        {
          best = d;
          found = h;
        }
    }
  return found;
}

gboolean
sequin_gizmo_point (const SequinGizmo *g,
                    int                handle,
                    double             fraction,
                    double            *x,
                    double            *y)
{
  double p[3], a[3];

  if (handle < 0 || handle >= (g->mode == SEQUIN_GIZMO_ROTATE ? SEQUIN_GIZMO_N_HANDLES : 3))
    return FALSE;
  if (g->mode == SEQUIN_GIZMO_ROTATE)
    ring_point (g, handle, 2 * G_PI * fraction, p);
  else
    {
      sequin_gizmo_axis (g, handle, a);
      for (int i = 0; i < 3; i++)
        p[i] = g->centre[i] + a[i] * g->radius * fraction;
    }
  return g->project (g->project_data, p, x, y);
}

/* where the pointer's ray meets the plane of handle `handle`'s ring,
 * from the centre; FALSE when it does not (behind, or along the plane) */
static gboolean
plane_hit (const SequinGizmo *g,
           const double       a[3],
           double             x,
           double             y,
           double             out[3])
{
  double o[3], d[3], c[3], t, along;

  g->ray (g->project_data, x, y, o, d);
  along = dot (d, a);
  if (fabs (along) < 1e-9)
    return FALSE;
  for (int i = 0; i < 3; i++)
    c[i] = g->centre[i] - o[i];
  t = dot (c, a) / along;
  if (t <= 0 || !isfinite (t))
    return FALSE;
  for (int i = 0; i < 3; i++)
    out[i] = o[i] + t * d[i] - g->centre[i];
  return TRUE;
}

/* radians along the ring's direction on the screen at its point nearest
 * (x0, y0) */
static double
tangent_turn (const SequinGizmo *g,
              int                handle,
              double             x0,
              double             y0,
              double             x,
              double             y)
{
  double best = G_MAXDOUBLE, at = 0, p[3], px, py, qx, qy, tx, ty, len2, floor2;
  const double step = 0.01;

  for (int s = 0; s < RING_SEGMENTS; s++)
    {
      double t = 2 * G_PI * s / RING_SEGMENTS, sx, sy;

      ring_point (g, handle, t, p);
      if (g->project (g->project_data, p, &sx, &sy) && hypot (sx - x0, sy - y0) < best)
        {
          best = hypot (sx - x0, sy - y0);
          at = t;
        }
    }
  ring_point (g, handle, at, p);
  if (!g->project (g->project_data, p, &px, &py))
    return 0;
  ring_point (g, handle, at + step, p);
  if (!g->project (g->project_data, p, &qx, &qy))
    return 0;
  /* pixels a radian moves the ring's point there, never under a third
   * of the ring's radius on the screen (its edge-on ends barely move) */
  tx = (qx - px) / step;
  ty = (qy - py) / step;
  len2 = tx * tx + ty * ty;
  floor2 = (g->radius / g->pixel / 3) * (g->radius / g->pixel / 3);
  return ((x - x0) * tx + (y - y0) * ty) / MAX (len2, floor2);
}

double
sequin_gizmo_drag (const SequinGizmo *g,
                   int                handle,
                   double             x0,
                   double             y0,
                   double             x,
                   double             y)
{
  double cx, cy, a[3];

  if (!g->project (g->project_data, g->centre, &cx, &cy))
    return 0;
  sequin_gizmo_axis (g, handle, a);
  if (g->mode == SEQUIN_GIZMO_ROTATE)
    {
      double r0[3], r1[3], c[3];

      if (g->ray != NULL && fabs (dot (a, g->toward)) > 0.2 && plane_hit (g, a, x0, y0, r0)
          && plane_hit (g, a, x, y, r1))
        {
          cross (r0, r1, c);
          return atan2 (dot (c, a), dot (r0, r1)) * 180 / G_PI;
        }
      return tangent_turn (g, handle, x0, y0, x, y) * 180 / G_PI;
    }
  {
    double tip[3], tx, ty, sx, sy, len2;

    for (int i = 0; i < 3; i++)
      tip[i] = g->centre[i] + a[i] * g->radius;
    if (!g->project (g->project_data, tip, &tx, &ty))
      return 0;
    sx = tx - cx;
    sy = ty - cy;
    len2 = sx * sx + sy * sy;
    if (len2 < 1e-6)
      return 0;
    return ((x - x0) * sx + (y - y0) * sy) / len2 * g->radius;
  }
}
