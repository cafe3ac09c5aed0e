/* sequin-preview.h: the OpenGL preview of a posed skeleton
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SequinPreview draws a clip's skeleton posed at a time (shaded bones from
 * each joint to its children, round joints) over a floor grid with the
 * world's axes and unit, seen by an orbiting camera: drag to turn around
 * the figure, scroll to come closer, double-click (or Home) to see the
 * whole figure again; the arrow keys turn, +/- zoom; O and T (and the
 * buttons in its corner) show onion skins and the selected joint's trail.
 * Positions are in metres, Y up. Posing is the core's job (sq_pose_*).
 */
#pragma once

#include <gtk/gtk.h>

#include "sq-clip.h"

G_BEGIN_DECLS

#define SEQUIN_TYPE_PREVIEW (sequin_preview_get_type ())

G_DECLARE_FINAL_TYPE (SequinPreview, sequin_preview, SEQUIN, PREVIEW, GtkWidget)

GtkWidget *sequin_preview_new          (void);
/* Shows `clip` posed at `time` (seconds) on its own skeleton (sq_pose_new:
 * the file's hierarchy, else its world's rest pose), `selected` (-1 for
 * none) highlighted; the skeleton is made again when the clip's generation
 * changes. With onion skins on, the poses at the clip's previous and next
 * key (any joint) are drawn see-through; with the trail on, the selected
 * joint's path through the clip. NULL clears the figure. The clip is not
 * kept. */
void       sequin_preview_set_clip     (SequinPreview *self,
                                        const SqClip  *clip,
                                        double         time,
                                        gssize         selected);
/* Compare With…: `reference` (copied; NULL stops) drawn as a see-through
 * ghost on its own skeleton, posed at the time of the figure, the
 * counterpart of the selected joint (the same name, or through the joint
 * maps as sq-diff pairs them) highlighted; `name` labels it. The property
 * "show-reference" hides and shows it. */
void       sequin_preview_set_reference (SequinPreview *self,
                                         const SqClip  *reference,
                                         const char    *name);
/* for tests: the ghost as posed (3 per joint, NULL when not comparing) and
 * its highlighted joint */
const double *sequin_preview_get_reference (SequinPreview *self,
                                            gsize         *n,
                                            gssize        *selected);
/* for tests: triangles of the ghost in the last draw (either renderer) */
guint      sequin_preview_get_drawn_reference (SequinPreview *self);
/* frames the whole figure: the camera looks at its centre from a distance
 * where all of it fits */
void       sequin_preview_reset_view   (SequinPreview *self);
/* for tests: the camera's angles (degrees) and distance (metres) */
void       sequin_preview_get_camera   (SequinPreview *self,
                                        double        *yaw,
                                        double        *pitch,
                                        double        *distance);
/* for tests: the figure as set (points borrowed, 3 per joint) */
const double *sequin_preview_get_figure (SequinPreview *self,
                                        gsize         *n,
                                        gssize        *selected);
/* for tests: the figure at the previous (next = FALSE) or next key, and
 * that key's time; NULL when there is none */
const double *sequin_preview_get_onion  (SequinPreview *self,
                                        gboolean       next,
                                        double        *time);
/* for tests: the selected joint's path, 3 doubles per sample, the first at
 * 0 s (a Second Life BVH's frame 1: its frame 0 is the reference pose) and
 * the last at the clip's duration */
const double *sequin_preview_get_trail  (SequinPreview *self,
                                        gsize         *n);
/* The line over the preview when the trail is on but the selected joint
 * (the root, at first) stays in place; NULL when its trail shows */
const char  *sequin_preview_get_trail_hint (SequinPreview *self);
/* for tests: what the last draw (either renderer) held: triangles of the
 * figure, of the onion skins, vertices of the trail's lines */
void       sequin_preview_get_drawn    (SequinPreview *self,
                                        guint         *figure_triangles,
                                        guint         *ghost_triangles,
                                        guint         *trail_vertices);
/* the cairo fallback's drawing, for tests and printing */
void       sequin_preview_draw_cairo   (SequinPreview *self,
                                        cairo_t       *cr,
                                        int            width,
                                        int            height);
/* The joint drawn at widget point (x, y): a joint within 10 pixels (the
 * nearest), else the joint that turns the bone within 8 pixels; -1 for
 * none */
gssize     sequin_preview_joint_at     (SequinPreview *self,
                                        double         x,
                                        double         y);
/* for tests: whether the last render drew with OpenGL (FALSE: no context) */
gboolean   sequin_preview_has_rendered (SequinPreview *self);

G_END_DECLS
