/* sequin-preview.h: the OpenGL preview of a posed skeleton
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SequinPreview draws a figure (joints as points, bones as lines to their
 * parents) over a floor grid, seen by an orbiting camera: drag to turn
 * around the figure, scroll to come closer, double-click (or Home) to see
 * the whole figure again; the arrow keys turn, +/- zoom. Positions are in
 * metres, Y up. It draws what it is given; posing a clip at a time is the
 * core's job (sq_pose_*).
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SEQUIN_TYPE_PREVIEW (sequin_preview_get_type ())

G_DECLARE_FINAL_TYPE (SequinPreview, sequin_preview, SEQUIN, PREVIEW, GtkWidget)

GtkWidget *sequin_preview_new          (void);
/* `parents[i]` is the index of joint i's parent, or -1; `points` holds x, y, z
 * per joint. Copies both. n = 0 clears the figure. `selected` (-1 for none)
 * is drawn highlighted. */
void       sequin_preview_set_figure   (SequinPreview *self,
                                        gsize          n,
                                        const gssize  *parents,
                                        const double  *points,
                                        gssize         selected);
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
/* for tests: whether the last render drew with OpenGL (FALSE: no context) */
gboolean   sequin_preview_has_rendered (SequinPreview *self);

G_END_DECLS
