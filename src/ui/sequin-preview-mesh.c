/* sequin-preview-mesh.c: the preview's figure as triangles and lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sequin-preview-mesh.h"

float
sequin_mesh_shade (const float normal[3],
                   const float light[3])
{
  float d = normal[0] * light[0] + normal[1] * light[1] + normal[2] * light[2];

  return SEQUIN_MESH_AMBIENT + (1.0f - SEQUIN_MESH_AMBIENT) * fabsf (d);
}

void
sequin_mesh_vertex (GArray       *out,
                    const double  p[3],
                    const double *normal,
                    const float   rgba[4])
{
  float v[SEQUIN_MESH_FLOATS] = {
    (float) p[0], (float) p[1], (float) p[2],
    normal != NULL ? (float) normal[0] : 0, normal != NULL ? (float) normal[1] : 0,
    normal != NULL ? (float) normal[2] : 0,
    rgba[0], rgba[1], rgba[2], rgba[3],
  };

  g_array_append_vals (out, v, SEQUIN_MESH_FLOATS);
}

static double
normalize (double v[3])
{
  double len = sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);

  if (len > 0)
    for (int i = 0; i < 3; i++)
      v[i] /= len;
  return len;
}

static void
cross (const double a[3],
       const double b[3],
       double       out[3])
{
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* a flat triangle facing away from `inside` */
static void
flat_triangle (GArray       *out,
               const double  a[3],
               const double  b[3],
               const double  c[3],
               const double  inside[3],
               const float   rgba[4])
{
  double e1[3], e2[3], n[3], away = 0;

  for (int i = 0; i < 3; i++)
    {
      e1[i] = b[i] - a[i];
      e2[i] = c[i] - a[i];
    }
  cross (e1, e2, n);
  normalize (n);
  for (int i = 0; i < 3; i++)
    away += n[i] * ((a[i] + b[i] + c[i]) / 3 - inside[i]);
  if (away < 0)
    for (int i = 0; i < 3; i++)
      n[i] = -n[i];
  sequin_mesh_vertex (out, a, n, rgba);
  sequin_mesh_vertex (out, b, n, rgba);
  sequin_mesh_vertex (out, c, n, rgba);
}

void
sequin_mesh_bone (GArray       *out,
                  const double  head[3],
                  const double  tail[3],
                  double        width,
                  const float   rgba[4])
{
  double u[3], a[3], b[3], ref[3] = { 0, 0, 0 }, mid[3], ring[4][3], len;
  int least = 0;

  for (int i = 0; i < 3; i++)
    u[i] = tail[i] - head[i];
  len = normalize (u);
  if (!(len > 1e-9) || !isfinite (len))
    return;
  /* two directions across the bone: from the axis least along it */
  for (int i = 1; i < 3; i++)
    if (fabs (u[i]) < fabs (u[least]))
      least = i;
  ref[least] = 1;
  cross (u, ref, a);
  normalize (a);
  cross (u, a, b);
  for (int i = 0; i < 3; i++)
    mid[i] = head[i] + u[i] * len * 0.1;
  for (int k = 0; k < 4; k++)
    {
      double ca = k == 0 ? 1 : k == 2 ? -1 : 0, cb = k == 1 ? 1 : k == 3 ? -1 : 0;

      for (int i = 0; i < 3; i++)
        ring[k][i] = mid[i] + (a[i] * ca + b[i] * cb) * width / 2;
    }
  for (int k = 0; k < 4; k++)
    {
      flat_triangle (out, head, ring[k], ring[(k + 1) % 4], mid, rgba);
      flat_triangle (out, tail, ring[(k + 1) % 4], ring[k], mid, rgba);
    }
}

static void
ball_vertex (GArray       *out,
             const double  centre[3],
             double        radius,
             const double  dir[3],
             const float   rgba[4])
{
  double n[3] = { dir[0], dir[1], dir[2] }, p[3];

  normalize (n);
  for (int i = 0; i < 3; i++)
    p[i] = centre[i] + n[i] * radius;
  sequin_mesh_vertex (out, p, n, rgba);
}

void
sequin_mesh_ball (GArray       *out,
                  const double  centre[3],
                  double        radius,
                  const float   rgba[4])
{
  /* the octahedron's 8 faces, each split into 4 at its edges' middles */
  for (int f = 0; f < 8; f++)
    {
      double corner[3][3] = { { f & 1 ? -1 : 1, 0, 0 }, { 0, f & 2 ? -1 : 1, 0 }, { 0, 0, f & 4 ? -1 : 1 } };
      double half[3][3];

      for (int e = 0; e < 3; e++)
        for (int i = 0; i < 3; i++)
          half[e][i] = (corner[e][i] + corner[(e + 1) % 3][i]) / 2;
      for (int e = 0; e < 3; e++)
        {
          ball_vertex (out, centre, radius, corner[e], rgba);
          ball_vertex (out, centre, radius, half[e], rgba);
          ball_vertex (out, centre, radius, half[(e + 2) % 3], rgba);
        }
      for (int e = 0; e < 3; e++)
        ball_vertex (out, centre, radius, half[e], rgba);
    }
}
