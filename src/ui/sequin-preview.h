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
#include "sq-edit.h"
#include "sequin-preview-gizmo.h"

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
/* ---- posing: the gizmo on the selected joint ----
 *
 * While the clip shown is the document's own (posable), the selected
 * joint carries a gizmo: three rings about the world's axes and a free
 * ring (rotate, R or E), or three arrows along the axes (move, G or W;
 * for joints that carry positions, sq_posing_joint_moves; others keep the
 * rings). Dragging a ring or an arrow shows the turned pose live; letting
 * go hands `func` one edit (sq_edit_set_rotation_new or
 * sq_edit_set_position_new at the playhead: the command line's
 * --set-rotation / --set-position); Ctrl snaps to 5° (or the world's move
 * step); Escape cancels. X, Y, Z, V choose an axis for the keyboard: the
 * arrow keys then step 1° (Shift: 10°) or one move step (Shift: ten),
 * each step one edit. The clip given to set_clip is kept (borrowed) until
 * the next call: the document's clip, which lives as long as it is shown. */
typedef void (*SequinPreviewEditFunc) (SequinPreview *preview,
                                       SqEdit        *edit,      /* transfer full */
                                       gpointer       data);
void       sequin_preview_set_posable  (SequinPreview         *self,
                                        gboolean               posable,
                                        SequinPreviewEditFunc  func,
                                        gpointer               data);
void       sequin_preview_set_gizmo_mode (SequinPreview   *self,
                                          SequinGizmoMode  mode);
/* the mode the selected joint shows (move only where it may move) */
SequinGizmoMode sequin_preview_get_gizmo_mode (SequinPreview *self);
/* the axis the arrow keys use: 0..2 the world's X, Y, Z, SEQUIN_GIZMO_VIEW
 * the line of sight, -1 none (the arrow keys turn the view) */
void       sequin_preview_set_gizmo_axis (SequinPreview *self,
                                          int            axis);
int        sequin_preview_get_gizmo_axis (SequinPreview *self);
/* the pointer's path, as the drag gesture gives it (and tests and the
 * bench): a press at (x, y) takes the handle there (returned, -1 for
 * none); each motion from the press (x0, y0) to (x, y) shows the pose;
 * release makes the edit; cancel drops the drag (or the chosen axis), FALSE
 * when there was neither */
int        sequin_preview_gizmo_press  (SequinPreview *self,
                                        double         x,
                                        double         y);
void       sequin_preview_gizmo_motion (SequinPreview *self,
                                        double         x0,
                                        double         y0,
                                        double         x,
                                        double         y,
                                        gboolean       snap);
void       sequin_preview_gizmo_release (SequinPreview *self);
gboolean   sequin_preview_gizmo_cancel (SequinPreview *self);
/* whether the last press was on the gizmo (a click there selects no joint,
 * even when its drag was cancelled) */
gboolean   sequin_preview_gizmo_took_press (SequinPreview *self);
/* the arrow keys' step: `steps` (±1, ±10) about or along the chosen axis */
void       sequin_preview_gizmo_step   (SequinPreview *self,
                                        double         steps);
/* for tests: the widget point of a handle at `fraction` of its ring's
 * turn or its arrow's length; FALSE when there is no gizmo */
gboolean   sequin_preview_gizmo_point  (SequinPreview *self,
                                        int            handle,
                                        double         fraction,
                                        double        *x,
                                        double        *y);
/* for tests: the axis rings' radius (the arrows' length, 1.4 times what
 * the rings' would be) on the screen, in pixels: from the selected
 * joint's bone (sequin-preview.c, GIZMO_BONE); 0 when there is no gizmo */
double     sequin_preview_get_gizmo_radius (SequinPreview *self);
/* Where the line saying what the gizmo does is drawn (widget
 * coordinates), clear of the preview's toggles; FALSE when it is not
 * drawn (no gizmo, or the gizmo hidden: the "show-gizmo" property, the
 * action preview.show-gizmo, H) */
gboolean   sequin_preview_get_gizmo_line (SequinPreview   *self,
                                          graphene_rect_t *box);
/* The value of the drag under way (the joint, whether it is its rotation
 * (w, x, y, z) or its position (x, y, z), the file's axes and units):
 * what the Pose page shows while dragging; FALSE when no drag is under
 * way. The signal "gizmo-changed" says it changed or ended. */
gboolean   sequin_preview_get_gizmo_value (SequinPreview *self,
                                           gssize        *joint,
                                           gboolean      *rotation,
                                           double         value[4]);
/* for tests: the amount (degrees, metres) of the drag under way as shown
 * (snapped), and its handle (-1 for none) */
double     sequin_preview_get_gizmo_drag (SequinPreview *self,
                                          int           *handle);
/* for tests: whether the last render drew with OpenGL (FALSE: no context) */
gboolean   sequin_preview_has_rendered (SequinPreview *self);

G_END_DECLS
