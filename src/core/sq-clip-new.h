/* sq-clip-new.h: a new animation in a world's rest pose
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"

G_BEGIN_DECLS

/* The worlds a new animation can be made for, NULL-terminated ids, as
 * their homes offer them (SqWorldHome.new_clips), Second Life's first:
 * "sl" (Second Life .anim, the 26 classic bones), "sl-bento" (.anim, all
 * 133 bones), "aw" (ActiveWorlds binary SEQ, its 22 limbs), "sims"
 * (The Sims skill, adult), "sims-child", "bvh" (BVH on Second Life's
 * skeleton) */
const char * const *sq_clip_new_worlds     (void);
/* the translated name of a world id above */
const char         *sq_clip_new_world_name (const char *world);

/* A clip of `duration` seconds at `fps` frames a second in the world's
 * rest pose: every joint's rotation (and the hip's position) keyed at the
 * start and the end, in the world's format, read back from that format's
 * bytes so it is what opening the saved file gives (a BVH has a key on
 * every frame). The Sims' clips are at 30 frames a second; ActiveWorlds'
 * and Second Life's times are those their files hold. Refused: an unknown
 * world, a duration not above 0 (or above an hour), fps outside 1..1000. */
SqClip             *sq_clip_new_for_world  (const char *world,
                                            double      duration,
                                            double      fps,
                                            GError    **error);

G_END_DECLS
