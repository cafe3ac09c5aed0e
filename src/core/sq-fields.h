/* sq-fields.h: typed read access to the format fields a clip carries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The editor's properties panel and the CLI read format fields through these
 * functions, so neither knows how the formats keep them (GVariants in the
 * clip's and joints' extras). Every getter gives what the format's writer
 * would write, its defaults included, so a clip from another format shows
 * the values it would get when saved in that format. The tables and
 * defaults here are the only ones: the .anim writer and the Second Life
 * edits use them too.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"
#include "worlds/sq-sl-skeleton.h"
#include "worlds/sq-world-sl.h"

G_BEGIN_DECLS

/* ---- Second Life .anim (formats.md 1.2, 1.5-1.7) ---- */

/* the limits and defaults: worlds/sq-world-sl.h */
#define SQ_SL_CONSTRAINT_POINT   0
#define SQ_SL_CONSTRAINT_PLANE   1
#define SQ_SL_N_CONSTRAINT_TYPES 2
/* the target volume that means the ground */
#define SQ_SL_GROUND             "GROUND"

typedef struct {
  guint8 chain_length;
  guint8 type;                    /* 0 point, 1 planar (formats.md 1.7) */
  char   source_volume[17];       /* collision volume name, NUL-terminated */
  double source_offset[3];
  char   target_volume[17];       /* collision volume or "GROUND" */
  double target_offset[3];
  double target_dir[3];
  double ease_in_start, ease_in_stop, ease_out_start, ease_out_stop;
} SqSlConstraint;

typedef struct {
  gint32   priority; gboolean loop; double loop_in, loop_out, ease_in, ease_out;
  guint32  hand_pose; char emote[256];   /* UTF-8 */
} SqSlFields;

/* What the .anim writer would write, its defaults included */
void        sq_sl_fields_get          (const SqClip *clip,
                                       SqSlFields   *out);
/* The writer's value for that joint: its own priority, else the base one */
gint32      sq_sl_joint_priority      (const SqClip *clip,
                                       gsize         joint);
/* 0 when the clip has none (or an out-of-range count the viewer ignores) */
guint       sq_sl_constraint_count    (const SqClip *clip);
/* FALSE (and *out zeroed) when there is no constraint `index`. Volume names
 * are the field's bytes up to the first NUL (Latin-1 bytes as UTF-8,
 * cut at 16 bytes of it) */
gboolean    sq_sl_constraint_get      (const SqClip   *clip,
                                       guint           index,
                                       SqSlConstraint *out);
/* Translatable display name (already translated), NULL out of range */
const char *sq_sl_hand_pose_name      (guint32 hand_pose);
/* "Point" or "Plane" (translated), NULL out of range */
const char *sq_sl_constraint_type_name(guint8 type);
/* The collision volume names: sq_sl_collision_volumes() and
 * sq_sl_is_collision_volume() in sq-sl-skeleton.h */

/* ---- DirectX .x ---- */

/* The AnimationSet's name, "" when none */
const char *sq_dx_set_name            (const SqClip *clip);

/* ---- BVH and .x: frame time ---- */

/* 1 / fps: BVH's Frame Time; .x holds fps as AnimTicksPerSecond */
double      sq_clip_frame_time        (const SqClip *clip);

/* ---- for the core's readers, writers and edits only ---- */

/* How the .anim reader keeps one constraint (volume fields: 16 raw bytes) */
#define SQ_SL_CONSTRAINT_VARIANT_TYPE  "(yyay(ddd)ay(ddd)(ddd)dddd)"
#define SQ_SL_CONSTRAINTS_VARIANT_TYPE "a" SQ_SL_CONSTRAINT_VARIANT_TYPE

/* A volume field's name, as the viewer reads it (newly allocated UTF-8) */
char       *_sq_sl_volume_name           (GVariant             *field);
/* A floating constraint variant; `old` (may be NULL) is the one it
 * replaces, whose raw volume fields are kept where the names are unchanged */
GVariant   *_sq_sl_constraint_to_variant (const SqSlConstraint *c,
                                          GVariant             *old);

G_END_DECLS
