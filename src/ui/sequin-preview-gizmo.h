/* sequin-preview-gizmo.h: the posing gizmo's geometry in the preview
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Around the selected joint: three rings about the world's axes (X red,
 * Y green, Z blue) and a wider free ring facing the viewer (turning about
 * the line of sight), or three arrows along the world's axes (moving).
 * Their size (`radius`) is the preview's choice: it follows the selected
 * joint's bone on the screen. This file only builds their
 * triangles (for both of the preview's renderers), finds the handle under
 * the pointer and turns a pointer's path into an angle or a distance; the
 * preview (sequin-preview.c) keeps the state and makes the edits.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  SEQUIN_GIZMO_ROTATE,
  SEQUIN_GIZMO_MOVE,
} SequinGizmoMode;

/* handles: the world's axes 0..2, the free ring; -1 for none */
#define SEQUIN_GIZMO_VIEW 3
#define SEQUIN_GIZMO_N_HANDLES 4

/* Widget coordinates of a view point; FALSE behind the camera */
typedef gboolean (*SequinGizmoProject) (gconstpointer  data,
                                        const double   p[3],
                                        double        *x,
                                        double        *y);

/* The ray under widget point (x, y): from `origin` along `dir` (view
 * coordinates) */
typedef void     (*SequinGizmoRay)     (gconstpointer  data,
                                        double         x,
                                        double         y,
                                        double         origin[3],
                                        double         dir[3]);

typedef struct
{
  SequinGizmoMode    mode;
  double             centre[3];   /* the joint, view coordinates (metres, Y up) */
  double             radius;      /* metres: the axis rings' radius, the arrows' length */
  double             axes[3][3];  /* the world's X, Y, Z as unit view directions */
  double             toward[3];   /* unit: from the centre toward the camera */
  double             pixel;       /* metres a pixel spans at the centre */
  SequinGizmoProject project;
  SequinGizmoRay     ray;
  gconstpointer      project_data;  /* for both */
} SequinGizmo;

/* The handle's direction (a world axis, or `toward` for the free ring) */
void     sequin_gizmo_axis     (const SequinGizmo *g,
                                int                handle,
                                double             dir[3]);
/* The gizmo's triangles (unlit: zero normals) into `out`; `colours` per
 * handle; `hover` and `active` (-1 for none) drawn stronger */
void     sequin_gizmo_build    (const SequinGizmo *g,
                                int                hover,
                                int                active,
                                const float        colours[SEQUIN_GIZMO_N_HANDLES][4],
                                GArray            *out);
/* The handle drawn within 8 pixels of widget point (x, y), the nearest
 * (a ring's near half before its far half); -1 for none */
int      sequin_gizmo_pick     (const SequinGizmo *g,
                                double             x,
                                double             y);
/* The widget point of handle `handle` at `fraction` of its ring's turn
 * (from its first point) or of its arrow's length; FALSE when not on
 * the screen */
gboolean sequin_gizmo_point    (const SequinGizmo *g,
                                int                handle,
                                double             fraction,
                                double            *x,
                                double            *y);
/* A drag from (x0, y0) to (x, y) on handle `handle`: the degrees it turns
 * (right-handed about the handle's direction), or the metres it moves
 * along the arrow. A ring seen open turns by the angle between the two
 * points where the pointer meets its plane (what the pointer shows); a
 * ring seen nearly edge-on, by the pointer's way along the ring's
 * direction on the screen there. */
double   sequin_gizmo_drag     (const SequinGizmo *g,
                                int                handle,
                                double             x0,
                                double             y0,
                                double             x,
                                double             y);

/* distance (pixels) from (x, y) to the segment a–b */
double   sequin_segment_distance (double x,
                                  double y,
                                  double ax,
                                  double ay,
                                  double bx,
                                  double by);

G_END_DECLS
