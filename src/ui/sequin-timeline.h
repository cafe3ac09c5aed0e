/* sequin-timeline.h: the cairo timeline of a clip's keys
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SequinTimeline draws a clip as a ruler (seconds above, frame numbers
 * below), a fixed name column, one lane per joint with a mark per key
 * (rotation: diamonds, translation: squares, scale: triangles; each channel
 * a row of its own within the lane) and a playhead. It only reads the clip,
 * which stays owned by the caller; call sequin_timeline_clip_changed() after
 * every edit or undo.
 *
 * Scrolling: the widget implements GtkScrollable. The horizontal adjustment
 * is the time pan in pixels, the vertical one the lanes in pixels; the ruler
 * and the name column never scroll away. Put it in a GtkScrolledWindow to get
 * scrollbars, or use it on its own (it then keeps its own adjustments). It
 * handles the wheel itself in both cases: Ctrl+scroll zooms around the
 * pointer, Shift+scroll and horizontal (touchpad) scrolling pan in time, and
 * plain scrolling moves the lanes when they do not all fit, and pans in time
 * when they do.
 *
 * Input: a click on a key selects it, moves the playhead to it and emits
 * ::key-selected (Shift and Ctrl add to the selection, see
 * sequin_timeline_get_selected_keys); a click on a lane or a click or drag
 * on the ruler moves ("scrubs") the playhead; a drag over empty lanes
 * selects the keys in its box, one from a selected key moves them
 * (::move-keys). Left/Right step one frame, Home/End go to the start/end;
 * these keys activate the widget actions timeline.step-frames(i),
 * timeline.go-to-start and timeline.go-to-end, enabled while there is a clip
 * (timeline.next-frame and timeline.previous-frame step without a
 * parameter, for assistive technologies). Ctrl+Left/Right
 * (timeline.step-key(i)) and Ctrl+Shift+Left/Right (timeline.extend-key(i))
 * go from key to key; timeline.select-all; Alt+Left/Right
 * (timeline.nudge-keys(i)) move the selected keys a frame as a drag does;
 * Escape cancels a drag or lets the selected keys go. While keys are
 * dragged, ::moving tells by how much (for a live preview).
 */
#pragma once

#include <gtk/gtk.h>

#include "sq-core.h"

G_BEGIN_DECLS

#define SEQUIN_TYPE_TIMELINE (sequin_timeline_get_type ())

G_DECLARE_FINAL_TYPE (SequinTimeline, sequin_timeline, SEQUIN, TIMELINE, GtkWidget)

/* A selected key: its joint, channel, index in that track and time */
typedef struct
{
  gsize     joint;
  SqChannel channel;
  gsize     index;
  double    time;
} SequinTimelineKey;

GtkWidget *sequin_timeline_new              (void);
/* `clip` is borrowed: it must outlive the timeline or be unset (NULL clears).
 * A new clip resets the view: scrolled to the start, zoomed to fit (at most
 * 1500 px/s), no selection. */
void       sequin_timeline_set_clip         (SequinTimeline *self,
                                             const SqClip   *clip);
/* after an edit or undo: joints and keys may have changed; O(joints) */
void       sequin_timeline_clip_changed     (SequinTimeline *self);
/* moves the playhead (clamped to [0, duration]) and scrolls it into view */
void       sequin_timeline_set_time         (SequinTimeline *self,
                                             double          seconds);
double     sequin_timeline_get_time         (SequinTimeline *self);
/* "0.467 s, frame 15", or "0.451 s, key at frame 14.53" when the playhead
 * is on a key between frames: what the corner of the ruler shows */
char      *sequin_timeline_describe_time    (SequinTimeline *self);
/* joint or key -1: no selection; scrolls the key into view; no signal */
void       sequin_timeline_select_key       (SequinTimeline *self,
                                             gssize          joint,
                                             SqChannel       channel,
                                             gssize          key);
gboolean   sequin_timeline_get_selected_key (SequinTimeline *self,
                                             gssize         *joint,
                                             SqChannel      *channel,
                                             gssize         *key);
/* The selected keys, sorted by joint, channel and index (n: how many).
 * One key is selected by a click (or sequin_timeline_select_key), more
 * with Shift+click (adds) and Ctrl+click (toggles), a rubber band dragged
 * over empty lane space (with Shift or Ctrl: added to the selection),
 * Ctrl+Left/Right (the previous or next key of the current key's joint;
 * with Shift: added) and timeline.select-all. The selection survives
 * scrolling, zoom and edits that keep its keys (followed by their times).
 * Dragging a selected key moves the selected keys in whole frames, never
 * onto or past a key that is not selected nor outside the clip (the drag
 * stops there and says so); releasing emits ::move-keys, Escape cancels. */
const SequinTimelineKey *sequin_timeline_get_selected_keys (SequinTimeline *self,
                                                            gsize          *n);
/* selects exactly `keys` (their times are looked up; keys that are not in
 * the clip are left out); the first is the current key */
void       sequin_timeline_set_selected_keys (SequinTimeline          *self,
                                              const SequinTimelineKey *keys,
                                              gsize                    n);
/* every key of the joints `joints` (n of them; 0: every joint) */
void       sequin_timeline_select_all_keys  (SequinTimeline *self,
                                             const gsize    *joints,
                                             gsize           n);
/* pixels per second; keeps the playhead in place when it is visible */
void       sequin_timeline_set_zoom         (SequinTimeline *self,
                                             double          pixels_per_second);
double     sequin_timeline_get_zoom         (SequinTimeline *self);
/* highlights the lane of `joint` (-1: none) and scrolls it into view */
void       sequin_timeline_select_joint     (SequinTimeline *self,
                                             gssize          joint);
/* the joint of the selected key, else of the highlighted lane, or -1 */
gssize     sequin_timeline_get_selected_joint (SequinTimeline *self);
/* the whole animation in the lanes' width (Ctrl+0, timeline.zoom-fit) */
void       sequin_timeline_zoom_to_fit      (SequinTimeline *self);
/* the loop of a looping animation (.anim), drawn on the timeline; FALSE
 * when it does not loop */
gboolean   sequin_timeline_get_loop         (SequinTimeline *self,
                                             double         *in,
                                             double         *out);
/* for tests and accessibility: the key under a widget point, FALSE if none */
gboolean   sequin_timeline_key_at           (SequinTimeline *self,
                                             double          x,
                                             double          y,
                                             gssize         *joint,
                                             SqChannel      *channel,
                                             gssize         *key);

G_END_DECLS
