/* sq-convert.h: a clip in one world's conventions, converted to another's
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every format declares its conventions (SqFormat.space): the unit of its
 * translations, its axes, whether its rotation keys hold the conjugate of
 * the column-vector quaternion, its joint names, whether it keeps a joint
 * hierarchy and the time grid its keys sit on. sq_convert() maps a clip
 * from its own format's conventions to a target format's: joint names
 * through the table of sq-joint-map.h (a user map first), rotations and
 * translations through Second Life's space (metres, +X forward, +Y left,
 * +Z up), a hierarchy with rest offsets when the target needs one, key
 * times onto the target's grid; BVH → Second Life follows the viewer's own
 * importer (formats.md 1.9), which Second Life's home offers
 * (SqWorldHome.import_clip). sq_save_bytes() calls it whenever a clip is
 * saved in a format other than its own.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"
#include "sq-format.h"
#include "sq-joint-map.h"

G_BEGIN_DECLS

/* The worlds whose players read the formats: a conversion within one world
 * keeps every joint name the user made (formats.md: ActiveWorlds SEQ binary
 * and text and ActiveWorlds .x; Second Life .anim; BVH motion capture) */
typedef enum
{
  SQ_WORLD_ACTIVEWORLDS,
  SQ_WORLD_SECOND_LIFE,
  SQ_WORLD_MOTION_CAPTURE,
  SQ_WORLD_THE_SIMS,
} SqWorld;

struct _SqSpace
{
  const char   *world;            /* for messages, translatable (N_): "Second Life" */
  SqWorld       world_id;
  double        metres_per_unit;  /* length of one translation unit */
  /* the unit's short name when it is not the metre, with the context
   * "length unit" (NC_: "in"); NULL: none or metres */
  const char   *unit_name;
  /* the format's x, y, z axes as Second Life axes (0 X forward, 1 Y left,
   * 2 Z up) with a sign: v_sl[axis[i]] = sign[i] · v[i] */
  guint8        axis[3];
  gint8         sign[3];
  gboolean      conjugate;        /* rotation keys store the conjugate (.x) */
  SqJointScheme scheme;           /* the joint names it writes */
  gboolean      hierarchy;        /* joints carry "parent" and "offset" extras (BVH) */
  /* key times sit on steps of 1/time_grid s; 0: anywhere (the writer
   * quantises and reports); < 0: on the clip's frame rate */
  double        time_grid;
  /* the number of the first frame the format writes (1: SEQ) */
  guint         frame_base;
  /* > 0: the format numbers frames at a whole number of frames a second,
   * at least fps_min, at most fps_max (.x's AnimTicksPerSecond) */
  double        fps_min, fps_max;
  /* > 0: key times sit on this many steps of the duration and the clip's
   * own frame rate says nothing of them (.anim's 16-bit times) */
  double        duration_steps;
};

/* The spaces are defined in the worlds' homes: sq_space_second_life and
 * sq_space_bvh in worlds/sq-world-sl.h, sq_space_aw_* in
 * worlds/sq-world-aw.h, sq_space_sims in worlds/sq-world-sims.h */

/* A line of a conversion's report (the `losses` below) that says a joint
 * was renamed starts with SQ_LOSS_RENAMED ("renamed: OLD → NEW"; not
 * translated, like the command line's "lost:"); sq_loss_renamed() gives
 * the "OLD → NEW" part of such a line, NULL for any other line. */
#define SQ_LOSS_RENAMED "renamed: "
const char *sq_loss_renamed       (const char *line);
/* A line that is no loss but worth knowing (root motion scaled to the
 * other avatar's size, joints retargeted) starts with SQ_LOSS_NOTE; a save
 * moves such lines to SqSaveOptions.notes without the prefix.
 * sq_loss_note() gives the text after it, NULL for any other line. */
#define SQ_LOSS_NOTE "note: "
const char *sq_loss_note          (const char *line);

/* A copy of `clip` in the conventions of `target`. `map` (may be NULL)
 * overrides the joint table. `losses` (may be NULL) receives one line per
 * thing the conversion changes or cannot carry. A clip already in
 * `target`'s format, or built in memory (format NULL), only goes through
 * the user map. Joint names: the user map first; then, between formats of
 * one naming scheme (binary and text SEQ) every name stays as it is;
 * between the two ActiveWorlds schemes (SEQ and .x) only the spelling of
 * ActiveWorlds limb names changes (pelvis ⇄ aw_pelvis, by tag); across
 * worlds the joint table applies. Every joint whose name changes gets a
 * SQ_LOSS_RENAMED line. */
SqClip  *sq_convert               (const SqClip     *clip,
                                   const SqFormat   *target,
                                   const SqJointMap *map,
                                   GPtrArray        *losses,
                                   GError          **error);

/* For the core (saving, diff, layers): sq_convert() as a save converts,
 * with the target world's hooks (SqWorldHome.before_convert,
 * .after_convert) by the save's options (the user map among them) */
SqClip  *_sq_convert_for_save     (const SqClip        *clip,
                                   const SqFormat      *format,
                                   const SqSaveOptions *options,
                                   GPtrArray           *losses,
                                   GError             **error);

/* A rotation (w, x, y, z) or a vector of `space` into Second Life's space
 * (vectors in metres) and back. */
void     sq_space_rotation_to_sl   (const SqSpace *space,
                                    const double   in[4],
                                    double         out[4]);
void     sq_space_rotation_from_sl (const SqSpace *space,
                                    const double   in[4],
                                    double         out[4]);
void     sq_space_vector_to_sl     (const SqSpace *space,
                                    const double   in[3],
                                    double         out[3]);
void     sq_space_vector_from_sl   (const SqSpace *space,
                                    const double   in[3],
                                    double         out[3]);

G_END_DECLS
