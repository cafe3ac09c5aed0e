/* sequin-playback.h: playing an animation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SequinPlayback holds the playhead's position (seconds) and moves it
 * while playing, with the frame clock of the widget it is made for: `rate`
 * times real time; when `loop` is set, around the animation's own loop
 * range once it reaches its end (the part before it plays once, as Second
 * Life plays a looping animation; a range of no length holds the pose
 * there), or around the whole animation when there is none; else to the
 * end, where it stops. The timeline, the preview and the window follow
 * (or bind to) its `position`; it knows nothing of them.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SEQUIN_TYPE_PLAYBACK (sequin_playback_get_type ())

G_DECLARE_FINAL_TYPE (SequinPlayback, sequin_playback, SEQUIN, PLAYBACK, GObject)

/* ticks with `widget`'s frame clock (not kept: playing stops when it goes) */
SequinPlayback *sequin_playback_new          (GtkWidget      *widget);
double          sequin_playback_get_position (SequinPlayback *self);
/* a finite time at or after 0 (the caller keeps it within the animation) */
void            sequin_playback_set_position (SequinPlayback *self,
                                              double          position);
double          sequin_playback_get_duration (SequinPlayback *self);
/* the animation's length: nothing plays while it is 0 */
void            sequin_playback_set_duration (SequinPlayback *self,
                                              double          duration);
gboolean        sequin_playback_get_playing  (SequinPlayback *self);
/* starts (from 0 when the position is at the end) or stops; does nothing
 * while the duration is 0 */
void            sequin_playback_set_playing  (SequinPlayback *self,
                                              gboolean        playing);
void            sequin_playback_play         (SequinPlayback *self);
void            sequin_playback_pause        (SequinPlayback *self);
gboolean        sequin_playback_get_loop     (SequinPlayback *self);
void            sequin_playback_set_loop     (SequinPlayback *self,
                                              gboolean        loop);
/* The animation's own loop: [loop_in, loop_out] seconds (loop_in ==
 * loop_out: a pose held there); an invalid one (loop_out < loop_in, a
 * negative or not finite time) is none: the whole animation loops */
void            sequin_playback_set_loop_range (SequinPlayback *self,
                                                double          loop_in,
                                                double          loop_out);
/* TRUE when there is a range; *loop_in and *loop_out (may be NULL) get
 * what looping goes around (the whole animation without a range) */
gboolean        sequin_playback_get_loop_range (SequinPlayback *self,
                                                double         *loop_in,
                                                double         *loop_out);
double          sequin_playback_get_rate     (SequinPlayback *self);
/* seconds of animation per second of real time, > 0 */
void            sequin_playback_set_rate     (SequinPlayback *self,
                                              double          rate);
/* what one tick does after `seconds` of real time (tests call it) */
void            sequin_playback_advance      (SequinPlayback *self,
                                              double          seconds);

G_END_DECLS
