/* sequin-diff-lane.h: a joint's difference from the clip compared with
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SequinDiffLane sits under the timeline while Compare With… is open and
 * draws, on the timeline's time axis (its zoom and scroll), how far one
 * joint's rotation is from the reference's over the clip, in degrees: a
 * filled curve scaled to its largest value, the playhead across it and,
 * in the name column, the joint and the value at the playhead. The
 * numbers are the core's (sq_diff_joint_curve); the lane only draws them.
 *
 * Input: a click or drag right of the name column moves the playhead,
 * snapped to frames and keys as a click on the timeline's ruler is. The
 * lane takes the keyboard focus and the timeline's keys (Left/Right a
 * frame, comma/period a key, Home/End), which activate the timeline's own
 * actions. For accessibility it is a slider: its value is the playhead's
 * time, its value text the difference there.
 */
#pragma once

#include <gtk/gtk.h>

#include "sequin-timeline.h"

G_BEGIN_DECLS

#define SEQUIN_TYPE_DIFF_LANE (sequin_diff_lane_get_type ())

G_DECLARE_FINAL_TYPE (SequinDiffLane, sequin_diff_lane, SEQUIN, DIFF_LANE, GtkWidget)

/* follows `timeline` (not kept beyond its life) */
GtkWidget    *sequin_diff_lane_new       (SequinTimeline *timeline);
/* `degrees` at each of `times` (ascending seconds), copied, for `joint`;
 * n = 0 clears the lane */
void          sequin_diff_lane_set_curve (SequinDiffLane *self,
                                          const char     *joint,
                                          const double   *times,
                                          const double   *degrees,
                                          gsize           n);
/* for tests: the curve as set and its joint (NULL when clear) */
const double *sequin_diff_lane_get_curve (SequinDiffLane *self,
                                          gsize          *n,
                                          const char    **joint);
/* the difference at `time`, interpolated between samples (0 when clear) */
double        sequin_diff_lane_value_at  (SequinDiffLane *self,
                                          double          time);

/* the input paths its event controllers call, and nothing else, so tests
 * that call them exercise real input: GtkGestureClick::pressed at widget
 * x, GtkGestureDrag::drag-begin at x and ::drag-update (offset from it) */
void          _sequin_diff_lane_press        (SequinDiffLane *self,
                                              double          x);
void          _sequin_diff_lane_drag_begin   (SequinDiffLane *self,
                                              double          x);
void          _sequin_diff_lane_drag_update  (SequinDiffLane *self,
                                              double          dx);

G_END_DECLS
