/* sequin-timeline-private.h: the timeline's geometry and input paths, for tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The event controllers of SequinTimeline call these functions and nothing
 * else, so a test that calls them exercises the same code as real input.
 */
#pragma once

#include "sequin-timeline.h"

G_BEGIN_DECLS

#define SEQUIN_TIMELINE_ZOOM_MIN 0.05
#define SEQUIN_TIMELINE_ZOOM_MAX 20000.0

/* widget x of a time, and the time at a widget x */
double   _sequin_timeline_x_for_time  (SequinTimeline *self,
                                       double          time);
double   _sequin_timeline_time_at_x   (SequinTimeline *self,
                                       double          x);
/* widget y of the centre of a channel's row in a joint's lane */
double   _sequin_timeline_y_for_key   (SequinTimeline *self,
                                       gsize           joint,
                                       SqChannel       channel);
/* the name column's width: lanes and ruler start there */
double   _sequin_timeline_lanes_x     (SequinTimeline *self);

/* a pointer at `seconds` (on the ruler, a lane or the difference lane):
 * the playhead to the nearest frame, or key when that is nearer */
void     _sequin_timeline_set_time_snapped (SequinTimeline *self,
                                            double          seconds);

/* GtkGestureClick::pressed */
void     _sequin_timeline_press       (SequinTimeline *self,
                                       int             n_press,
                                       double          x,
                                       double          y);
/* the same with the modifiers held (Shift adds the key, Ctrl toggles it) */
void     _sequin_timeline_press_full  (SequinTimeline  *self,
                                       int              n_press,
                                       double           x,
                                       double           y,
                                       GdkModifierType  state);
/* GtkGestureDrag::drag-begin, ::drag-update (offsets from the start) and
 * ::drag-end; begin with the modifiers held (a rubber band with Shift or
 * Ctrl adds to the selection) */
void     _sequin_timeline_drag_begin  (SequinTimeline *self,
                                       double          x,
                                       double          y);
void     _sequin_timeline_drag_begin_full (SequinTimeline  *self,
                                       double           x,
                                       double           y,
                                       GdkModifierType  state);
void     _sequin_timeline_drag_update (SequinTimeline *self,
                                       double          dx,
                                       double          dy);
void     _sequin_timeline_drag_end    (SequinTimeline *self,
                                       double          dx,
                                       double          dy);
/* Escape during a drag: the keys or the selection back as they were;
 * FALSE when no drag of keys or rubber band was on */
gboolean _sequin_timeline_cancel_drag (SequinTimeline *self);
/* during a drag of keys: the frames they are offset by now, the limits
 * (frames down and up) and the frames the pointer asks for; FALSE when no
 * keys are being dragged */
gboolean _sequin_timeline_get_move    (SequinTimeline *self,
                                       int            *frames,
                                       int            *min,
                                       int            *max,
                                       int            *wanted);
/* multiplies the zoom by `factor`, keeping the time at widget x under x */
void     _sequin_timeline_zoom_at     (SequinTimeline *self,
                                       double          x,
                                       double          factor);
/* GtkEventControllerScroll::scroll, with the pointer at (x, y); `wheel`
 * says the deltas are wheel clicks rather than pixels */
gboolean _sequin_timeline_scroll      (SequinTimeline  *self,
                                       double           x,
                                       double           y,
                                       double           dx,
                                       double           dy,
                                       GdkModifierType  state,
                                       gboolean         wheel);
/* the horizontal and vertical scroll offsets in pixels */
double   _sequin_timeline_get_hoffset (SequinTimeline *self);
double   _sequin_timeline_get_voffset (SequinTimeline *self);

G_END_DECLS
