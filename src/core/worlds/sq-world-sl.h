/* sq-world-sl.h: Second Life: one home for the world
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The world's limits (each written here only), its conventions (metres,
 * Second Life's axes; BVH, its upload format, in inches on Y-up axes), its
 * validation (the viewer's load checks and the upload limits, formats.md
 * 1.5-1.6), the .anim fields every clip keeps (sq-sl-fields.c reads them
 * and packs and unpacks a constraint record, sq-sl-edit.c's edits set them)
 * and its mirror. The skeleton and the names the viewer
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

/* ---- the .anim fields every clip keeps (formats.md 1.2, 1.5-1.7), sq-sl-fields.c ---- */

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

/* ---- the constraint record, for the core's readers, writers and edits only ---- */

/* How the .anim reader keeps one constraint (volume fields: 16 raw bytes) */
#define SQ_SL_CONSTRAINT_VARIANT_TYPE  "(yyay(ddd)ay(ddd)(ddd)dddd)"
#define SQ_SL_CONSTRAINTS_VARIANT_TYPE "a" SQ_SL_CONSTRAINT_VARIANT_TYPE

/* The one unpack of a constraint record (SQ_SL_CONSTRAINT_VARIANT_TYPE):
 * its numbers and volume names (as sq_sl_constraint_get gives them) into
 * *out; its raw 16-byte volume fields, when `source` and `target` are not
 * NULL, into them (new references) */
void        _sq_sl_constraint_unpack     (GVariant             *record,
                                          SqSlConstraint       *out,
                                          GVariant            **source,
                                          GVariant            **target);
/* The one pack: a floating record of c's numbers with these raw volume
 * fields (floating ones are sunk) */
GVariant   *_sq_sl_constraint_pack       (const SqSlConstraint *c,
                                          GVariant             *source,
                                          GVariant             *target);
/* A volume field's name, as the viewer reads it (newly allocated UTF-8) */
char       *_sq_sl_volume_name           (GVariant             *field);
/* A floating constraint variant; `old` (may be NULL) is the one it
 * replaces, whose raw volume fields are kept where the names are unchanged */
GVariant   *_sq_sl_constraint_to_variant (const SqSlConstraint *c,
                                          GVariant             *old);

/* ---- the world ---- */

extern const SqWorldHome sq_world_sl;
/* the fields every clip keeps for .anim */
extern const SqFieldSet  sq_sl_fields;
/* BVH's own field: its frame time */
extern const SqFieldSet  sq_bvh_fields;

/* Notes (SQ_SEVERITY_INFO) on what saving the clip as a Second Life .anim
 * does to its motion (sq_diff_sl_loss): the largest rotation and position
 * error, and each joint whose error passes these (the world's
 * SqWorldHome.add_save_loss) */
#define SQ_LOSS_NOTE_DEGREES 0.01
#define SQ_LOSS_NOTE_METRES  0.0005
void        sq_validate_add_sl_loss (const SqClip *clip,
                                     GPtrArray    *findings);

/* Appends SqFinding*s for what Second Life would ignore or reject */
void     sq_sl_validate          (const SqClip *clip,
                                  GPtrArray    *findings);

/* Second Life's BVH importer (worlds/sq-sl-bvh-import.c), for the
 * conversions: SqWorldHome.import_clip and .after_frames */
SqClip     *_sq_sl_import_clip  (const SqClip   *renamed,
                                 const SqFormat *from,
                                 const SqFormat *target,
                                 const char     *root_source_name,
                                 GPtrArray      *losses);
void        _sq_sl_after_frames (SqClip         *out,
                                 const SqFormat *from,
                                 const SqFormat *target,
                                 double          fps,
                                 GPtrArray      *losses);

G_END_DECLS
