/* sequin-preview-mesh.h: the preview's figure as triangles and lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Both of the preview's renderers (OpenGL and the cairo fallback) draw the
 * same vertices: position, normal and colour, SEQUIN_MESH_FLOATS floats
 * each. Bones are octahedra (the shape animation tools use: wide near the
 * joint they turn from, pointed at the child), joints small spheres; a
 * zero normal marks a vertex that is not lit (grid lines, the trail).
 * Lighting is one light from the viewer's side plus an ambient part, the
 * same formula in the shader and in sequin_mesh_shade().
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SEQUIN_MESH_FLOATS 10   /* x, y, z, nx, ny, nz, r, g, b, a */

/* the shade a face with `normal` gets from a light shining along `light`
 * (both unit length): between the ambient part and 1; either side of a
 * face is lit alike */
#define SEQUIN_MESH_AMBIENT 0.35f
float  sequin_mesh_shade  (const float   normal[3],
                           const float   light[3]);

/* one vertex; `normal` NULL for an unlit one */
void   sequin_mesh_vertex (GArray       *out,
                           const double  p[3],
                           const double *normal,
                           const float   rgba[4]);
/* an octahedral bone from `head` to `tail`, `width` across at its widest
 * (a tenth of the way along); nothing when the two points coincide */
void   sequin_mesh_bone   (GArray       *out,
                           const double  head[3],
                           const double  tail[3],
                           double        width,
                           const float   rgba[4]);
/* a sphere of `radius` around `centre` (an octahedron split once, 32
 * triangles, with the sphere's own normals) */
void   sequin_mesh_ball   (GArray       *out,
                           const double  centre[3],
                           double        radius,
                           const float   rgba[4]);

G_END_DECLS
