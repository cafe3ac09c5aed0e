/* sq-world-aw.h: ActiveWorlds: one home for the world
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The world's limits, its conventions (binary SEQ on a 1/30 s grid, text
 * SEQ in milliseconds, DirectX .x in ticks with conjugate rotations; the
 * same axes), its validation (formats.md 3.6, 4) and the .x fields. The
 * limb names and tags are in sq-aw-skeleton.c; the layouts of the formats
 * in formats/sq-format-seq-binary.c, sq-format-seq-text.c and
 * sq-format-dx.c.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"
#include "sq-format.h"

G_BEGIN_DECLS

/* ---- limits of ActiveWorlds' DirectX animations (formats.md 3.6, 4) ---- */

/* AnimTicksPerSecond ActiveWorlds takes */
#define SQ_AW_DX_MIN_TICKS     2
#define SQ_AW_DX_MAX_TICKS     200
#define SQ_AW_DX_MAX_LIMBS     64      /* the DX Animation page */
#define SQ_AW_DX_SAFE_LIMBS    62      /* the Tag (RWX) page: the sources disagree */
/* the longest line ActiveWorlds reads */
#define SQ_AW_DX_MAX_LINE      250
#define SQ_AW_DX_HEADER        "xof 0303txt 0032"

/* ---- conventions (sq-convert.h) ---- */

extern const SqSpace sq_space_aw_seq_binary;
extern const SqSpace sq_space_aw_seq_text;
extern const SqSpace sq_space_aw_dx;

/* ---- the world ---- */

extern const SqWorldHome sq_world_aw;
/* .x's own fields: ticks per second, the AnimationSet's name */
extern const SqFieldSet  sq_dx_fields;

/* Appends SqFinding*s for what ActiveWorlds would ignore or reject */
void     sq_aw_validate          (const SqClip *clip,
                                  GPtrArray    *findings);

G_END_DECLS
