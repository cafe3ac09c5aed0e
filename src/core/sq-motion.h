/* sq-motion.h: the animator's edits of the motion itself
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Mirror, resample, speed, trim, reverse, reduce and close the loop. Each is
 * an SqEdit (sq-edit.h): applying checks its parameters first and refuses
 * what makes no sense with the reason, leaving the clip untouched; undo gives
 * the clip back bitwise; the editor and the CLI call these same functions.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"
#include "sq-edit.h"

G_BEGIN_DECLS

/* Swaps left and right and reflects every rotation and translation across
 * the world's sagittal plane (the world is the clip's format's: Second Life
 * for .anim and clips built in memory, ActiveWorlds for SEQ and .x, motion
 * capture for BVH). Joints pair by the world's names; a joint with no
 * partner is reflected in place. Mirroring twice gives the clip back. */
SqEdit     *sq_edit_mirror_new       (void);
/* Keys on one grid at `fps` from the clip's first key time to its last (the
 * last kept), the values sampled as the clip plays (slerp, linear). Tracks
 * with fewer than two keys stay. Refused: fps ≤ 0 or not finite, more than
 * SQ_MOTION_MAX_KEYS keys a track or SQ_MOTION_MAX_CLIP_KEYS in all (40
 * bytes a key). */
#define SQ_MOTION_MAX_KEYS      1000000
#define SQ_MOTION_MAX_CLIP_KEYS 20000000
SqEdit     *sq_edit_resample_new     (double      fps);
/* Key times, the duration, the loop points and the ease times divided by
 * `factor` (> 0); a frame rate of the clip's own (BVH, clips built in
 * memory) multiplied by it, so the keys stay on their frames. */
SqEdit     *sq_edit_speed_new        (double      factor);
/* Keeps [start, end] seconds (0 ≤ start < end ≤ duration), with keys
 * sampled at both cuts, shifted to start at 0; loop points follow. */
SqEdit     *sq_edit_trim_new         (double      start,
                                      double      end);
/* Plays backwards: a key at t goes to D − t, D the duration (or the last
 * key's time when later); the loop points follow. */
SqEdit     *sq_edit_reverse_new      (void);
/* Removes keys while no value, at every original key time, moves more than
 * `degrees` (rotations) or `distance` (translations and scales, file units)
 * from the original; the first and last key of each track stay. The report
 * (sq_edit_get_report) gives the keys before and after. */
SqEdit     *sq_edit_reduce_new       (double      degrees,
                                      double      distance);
/* Ends the clip on its first pose: for each track with keys, the value at
 * the loop-in point (0 when the clip does not loop) is set at the loop-out
 * point (the duration when it does not loop), replacing a key there or
 * adding one. */
SqEdit     *sq_edit_close_loop_new   (void);

/* What the last apply found worth telling (reduce: the keys before and
 * after), or NULL. */
const char *sq_edit_get_report       (const SqEdit *edit);

/* The joint that `index` swaps with when mirrored, or `index` itself when
 * it has no partner (the world's name pairs, as sq_edit_mirror_new). */
gsize       sq_motion_mirror_partner (const SqClip *clip,
                                      gsize         index);

/* The angle in degrees between two rotations (quaternions w, x, y, z, not
 * necessarily unit; q and −q are the same rotation). */
double      sq_quat_angle_between    (const double a[4],
                                      const double b[4]);

G_END_DECLS
