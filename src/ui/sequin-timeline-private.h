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
/* GtkGestureDrag::drag-begin and ::drag-update (offsets from the start) */
void     _sequin_timeline_drag_begin  (SequinTimeline *self,
                                       double          x,
                                       double          y);
void     _sequin_timeline_drag_update (SequinTimeline *self,
                                       double          dx,
                                       double          dy);
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
