/* sq-world-sl.h: Second Life: one home for the world
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The world's limits (each written here only), its conventions (metres,
 * Second Life's axes; BVH, its upload format, in inches on Y-up axes), its
 * validation (the viewer's load checks and the upload limits, formats.md
 * 1.5-1.6) and the .anim fields every clip keeps (sq-fields.h reads them,
 * sq-edit.h's sq_edit_sl_* set them). The skeleton and the names the viewer
 * resolves are in sq-sl-skeleton.c; the byte layout of .anim is in
 * formats/sq-format-sl-anim.c, BVH's text in formats/sq-format-bvh.c.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"
#include "sq-format.h"

G_BEGIN_DECLS

/* ---- limits (formats.md 1.5: LLKeyframeMotion::deserialize; 1.6: upload) */

/* the largest serialised .anim the upload takes */
#define SQ_SL_UPLOAD_LIMIT       250000
/* the longest animation, in seconds */
#define SQ_SL_MAX_DURATION       60.0
#define SQ_SL_MAX_JOINTS         216
/* positions are stored within ±5 m of the pelvis, in metres */
#define SQ_SL_POS_RANGE          5.0
#define SQ_SL_MIN_PRIORITY       (-1)
#define SQ_SL_MAX_PRIORITY       6
/* hand poses 0..13 (HAND_POSE_SPREAD .. HAND_POSE_PALM_R) */
#define SQ_SL_N_HAND_POSES       14
/* more constraints than this and the viewer ignores them all */
#define SQ_SL_MAX_CONSTRAINTS    10
/* chain lengths 0..3 are safe; longer ones overflow the viewer's runtime
 * arrays (formats.md 1.5, 6): the constraint edit refuses them */
#define SQ_SL_MAX_CHAIN_LENGTH   3
/* a volume name field is 16 bytes; the viewer reads at most 15 of them */
#define SQ_SL_VOLUME_NAME_MAX    15
/* the emote name field: at most this many bytes of Latin-1 */
#define SQ_SL_EMOTE_MAX_BYTES    255

/* Defaults the .anim writer uses for a clip without these fields
 * (LLBVHLoader::reset) */
#define SQ_SL_DEFAULT_PRIORITY   2
#define SQ_SL_DEFAULT_EASE       0.3
#define SQ_SL_DEFAULT_HAND_POSE  1

/* LLBVHLoader's INCHES_TO_METERS (not exactly 0.0254) */
#define SQ_BVH_INCHES_TO_METRES  0.02540005

/* ---- conventions (sq-convert.h) ---- */

/* .anim: metres on Second Life's axes (X forward, Y left, Z up), any time */
extern const SqSpace sq_space_second_life;
/* BVH for the upload: inches, Y up, hierarchy with offsets, frame times */
extern const SqSpace sq_space_bvh;

/* ---- the world ---- */

extern const SqWorldHome sq_world_sl;
/* the fields every clip keeps for .anim */
extern const SqFieldSet  sq_sl_fields;
/* BVH's own field: its frame time */
extern const SqFieldSet  sq_bvh_fields;

/* Appends SqFinding*s for what Second Life would ignore or reject */
void     sq_sl_validate          (const SqClip *clip,
                                  GPtrArray    *findings);

G_END_DECLS
