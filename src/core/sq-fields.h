/* sq-fields.h: typed read access to the format fields a clip carries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The editor's properties panel and the CLI read format fields through these
 * functions, so neither knows how the formats keep them (GVariants in the
 * clip's and joints' extras). Every getter gives what the format's writer
 * would write, its defaults included, so a clip from another format shows
 * the values it would get when saved in that format. Second Life's fields
 * are its home's (worlds/sq-world-sl.h, included here for them).
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"
#include "worlds/sq-sl-skeleton.h"
#include "worlds/sq-world-sl.h"

G_BEGIN_DECLS

/* ---- DirectX .x ---- */

/* The AnimationSet's name, "" when none */
const char *sq_dx_set_name            (const SqClip *clip);

/* ---- BVH and .x: frame time ---- */

/* 1 / fps: BVH's Frame Time; .x holds fps as AnimTicksPerSecond */
double      sq_clip_frame_time        (const SqClip *clip);

G_END_DECLS
