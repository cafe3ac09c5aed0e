/* sequin-diff-lane.h: how far the clip is from the one compared with
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SequinDiffLane sits under the timeline while Compare With… is open and
 * draws, on the timeline's time axis (its zoom and scroll), how far the
 * clip is from the reference, in degrees: the selected joint's rotation
 * difference as a filled curve scaled to its largest value, with the
 * joint and the value at the playhead in the name column; under it the
 * heat of every joint, a row each, each cell its largest difference in
 * that frame's span (darker is further apart; a tooltip tells the
 * number). The numbers are the core's (sq_diff_pair_curve and the peaks
 * of sq_diff_pair_diff); the lane only draws them.
 *
 * Input: a click or drag right of the name column moves the playhead,
 * snapped to frames and keys as a click on the timeline's ruler is; a
 * click on the heat also emits ::joint-activated with that row's joint. The
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
/* every joint's heat: `peaks[r]` holds row `r`'s (joint `names[r]`)
 * largest difference in degrees in each of `n_columns` equal spans of
 * [0, `end`] seconds (sq-diff.h's peaks); n_rows 0 for none */
void          sequin_diff_lane_set_heat  (SequinDiffLane       *self,
                                          const char * const   *names,
                                          const double * const *peaks,
                                          guint                 n_rows,
                                          gsize                 n_columns,
                                          double                end);
/* What the heat holds at (x, y) in the lane: joint, time and degrees
 * (each may be NULL); FALSE when (x, y) is not on it */
gboolean      sequin_diff_lane_heat_at   (SequinDiffLane       *self,
                                          double                x,
                                          double                y,
                                          const char          **joint,
                                          double               *time,
                                          double               *degrees);
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
                                              double          x,
                                              double          y);
void          _sequin_diff_lane_drag_begin   (SequinDiffLane *self,
                                              double          x);
void          _sequin_diff_lane_drag_update  (SequinDiffLane *self,
                                              double          dx);

G_END_DECLS
