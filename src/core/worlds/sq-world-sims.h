/* sq-world-sims.h: The Sims (1) and SimPose-ium: one home for the world
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The 29-bone skeleton (adult and child) in SimPose-ium's order with its
 * rest pose (formats.md 5.1), the world's conventions (units, axes, time
 * base), the clip layout every Sims format reads into, the text grammar
 * the four formats share (lines, counts, `| x y z |` vectors, poses), the
 * world's validation, and what a conversion asks of it (sq-world.h): the
 * rest skeleton of a clip's age with the bones' rest rotations, and a clip
 * converted into the world made whole (its 29 bones on every frame). The byte and text layouts of each format are in
 * formats/sq-format-sims-cmx.c (CMX + CFP), sq-format-simpose-psl.c,
 * sq-format-simpose-kfd.c and sq-format-simpose-sps.c.
 *
 * Clip layout (the dump contract): a skill, a KFD and a PSL are the 29
 * bones in skeleton order, each with "parent" (int32, index) and "offset"
 * (rest position, (ddd)) extras and its rotation keys (w, x, y, z from the
 * stored x y z w); ROOT and PELVIS carry translations; key i is at i/30 s.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"
#include "sq-convert.h"
#include "sq-error.h"
#include "sq-format.h"
#include "sq-joint-map.h"
#include "sq-text-reader.h"

G_BEGIN_DECLS

#define SQ_SIMS_N_BONES     29
#define SQ_SIMS_FPS         30.0
/* a PSL subset mask: skeleton, ROOT and PELVIS translations, 29 rotations */
#define SQ_SIMS_MASK_LEN    32
/* the highest frame number a Sims reader accepts (about 92 hours) */
#define SQ_SIMS_MAX_FRAME   10000000
/* the longest animation a conversion retargets (an hour at 30 frames per second) */
#define SQ_SIMS_MAX_CONVERT_FRAMES 108000

enum
{
  SQ_SIMS_CAN_TRANSLATE = 1 << 0,
  SQ_SIMS_CAN_ROTATE    = 1 << 1,
  SQ_SIMS_CAN_BLEND     = 1 << 2,
  SQ_SIMS_CAN_WIGGLE    = 1 << 3,
};

typedef enum
{
  SQ_SIMS_ADULT,
  SQ_SIMS_CHILD,
} SqSimsAge;

typedef struct
{
  const char *name;
  int         parent;       /* index, -1 for ROOT */
  double      pos[3];       /* rest position in the parent's frame, game units */
  double      rot[4];       /* rest rotation as stored: x, y, z, w */
  guint8      flags;        /* SQ_SIMS_CAN_* */
} SqSimsBone;

/* The 29 bones of the adult or child skeleton, in SimPose-ium's order */
const SqSimsBone *sq_sims_skeleton      (SqSimsAge   age);
/* The index of a bone name (exact), -1 when it is none of the 29 */
int               sq_sims_bone_index    (const char *name);

/* The world's conventions: game units (a third of a metre, see README),
 * Y up, DirectX left-handed axes, 30 keys per second */
extern const SqSpace sq_space_sims;

extern const SqFormat _sq_format_sims_cmx;
extern const SqFormat _sq_format_simpose_psl;
extern const SqFormat _sq_format_simpose_kfd;
extern const SqFormat _sq_format_simpose_sps;

/* ---- the clip layout -------------------------------------------------- */

/* A new clip of `format` holding the 29 bones of `age` with their "parent"
 * and "offset" extras and no keys (fps 30, frame base 0) */
SqClip  *_sq_sims_clip_new            (const SqFormat *format,
                                       SqSimsAge       age);
/* Stored x y z w → a key's w x y z, and back */
void     _sq_sims_quat_from_file      (const double xyzw[4],
                                       double       wxyz[4]);
void     _sq_sims_quat_to_file        (const double wxyz[4],
                                       double       xyzw[4]);
/* The frames (1/30 s steps, rounded) at which any track has a key, sorted,
 * each once (gint64) */
GArray  *_sq_sims_key_frames          (const SqClip *clip);
/* The number of poses (frames) a clip's keys span on the 1/30 s grid */
gsize    _sq_sims_pose_count          (const SqClip *clip);
/* The key of `track` at frame `frame` (within a hundredth of a frame), or
 * the track sampled there; FALSE for an empty track */
gboolean _sq_sims_track_value         (const SqTrack *track,
                                       SqChannel      channel,
                                       gsize          frame,
                                       double         v[4]);
/* The key of `track` on frame `frame` (within a hundredth of a frame), -1
 * for none */
gssize   _sq_sims_key_on_frame        (const SqTrack *track,
                                       gint64         frame);
/* A string extra of the clip, `fallback` when it has none */
const char *_sq_sims_string_extra     (const SqClip *clip,
                                       const char   *key,
                                       const char   *fallback);
/* Each of the 29 bones' joint in the clip (-1 for none), found once for
 * the frames of a write */
void     _sq_sims_bone_joints         (const SqClip *clip,
                                       gssize        joint_of[SQ_SIMS_N_BONES]);
/* The ROOT and PELVIS translations and 29 rotations (x y z w, as stored)
 * of the clip at frame `frame`: the keys there, or the tracks sampled;
 * `joint_of` from _sq_sims_bone_joints */
void     _sq_sims_pose_at             (const SqClip *clip,
                                       const gssize  joint_of[SQ_SIMS_N_BONES],
                                       gsize         frame,
                                       double        trans[2][3],
                                       double        rot[SQ_SIMS_N_BONES][4]);

/* ---- the shared text grammar ------------------------------------------ */

/* Lines of a Sims text file (Latin-1, LF or CRLF), with errors that name
 * the line */
typedef struct
{
  SqLines     lines;        /* the shared reader's line cursor (sq-text-reader.h) */
  const char *what;         /* the file kind, for messages */
} SqSimsText;

void     _sq_sims_text_init           (SqSimsText  *t,
                                       GBytes      *bytes,
                                       const char  *what);
gboolean _sq_sims_text_at_end         (const SqSimsText *t);
/* The next line (without its end); `what` names what was expected */
gboolean _sq_sims_text_line           (SqSimsText  *t,
                                       const char  *what,
                                       GError     **error);
/* The next line as a whole integer in [min, max] */
gboolean _sq_sims_text_int            (SqSimsText  *t,
                                       const char  *what,
                                       gint64       min,
                                       gint64       max,
                                       gint64      *out,
                                       GError     **error);
/* The next line as a string (Latin-1 → UTF-8, newly allocated) */
char    *_sq_sims_text_string         (SqSimsText  *t,
                                       const char  *what,
                                       GError     **error);
/* Splits the current line into whitespace-separated integers: exactly `n`
 * after the first `skip` characters */
gboolean _sq_sims_text_ints           (SqSimsText  *t,
                                       gsize        skip,
                                       gint64      *out,
                                       guint        n,
                                       const char  *what,
                                       GError     **error);
/* The next line as `| f f f |` (n = 3) or `| f f f f |` (n = 4) */
gboolean _sq_sims_text_bars           (SqSimsText  *t,
                                       double      *out,
                                       guint        n,
                                       const char  *what,
                                       GError     **error);
void     _sq_sims_text_error          (const SqSimsText *t,
                                       GError     **error,
                                       SqErrorCode  code,
                                       const char  *format,
                                       ...) G_GNUC_PRINTF (4, 5);
/* "\r\n" when the first line of the file ends so, else "\n" */
const char *_sq_sims_text_eol         (GBytes      *bytes);

/* The poses of a PSL or KFD as they are read: for each pose its time and
 * where each of its 31 vector lines starts in the text (sq-sims-poses.c).
 * Packed into the clip (_sq_sims_poses_pack), a track keeps per key only
 * where its line starts, and a key is read from its line again when it
 * is asked for, with the reader's own scan: the same values to the bit. */
typedef struct _SqSimsPoses SqSimsPoses;

/* Room for `n_poses` poses of the text `bytes` (n_poses must be bounded by
 * its length: the room is allocated at once) */
SqSimsPoses *_sq_sims_poses_new       (GBytes      *bytes,
                                       gsize        n_poses);
void         _sq_sims_poses_free      (SqSimsPoses *poses);
/* Gives the poses read to the clip's tracks (ROOT and PELVIS translations,
 * 29 rotations), packed; frees `poses` */
void         _sq_sims_poses_pack      (SqSimsPoses *poses,
                                       SqClip      *clip);
/* `| a b c |` (n = 3) or `| a b c d |` (n = 4) in the line cur[0..len):
 * TRUE with the numbers, else FALSE with `bad` where it stops fitting */
gboolean     _sq_sims_scan_bars       (const char  *cur,
                                       gsize        len,
                                       double      *out,
                                       guint        n,
                                       const char **bad);
/* the lines of a pose after its Time line: two translations, 29 rotations */
#define SQ_SIMS_POSE_LINES (2 + SQ_SIMS_N_BONES)
/* Adds a pose at `time` s whose vector lines start at `lines` (checked) */
void         _sq_sims_poses_add       (SqSimsPoses *poses,
                                       double       time,
                                       const char  *lines[SQ_SIMS_POSE_LINES]);
/* The time of the last pose added; FALSE when there is none */
gboolean     _sq_sims_poses_last_time (const SqSimsPoses *poses,
                                       double      *time);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SqSimsPoses, _sq_sims_poses_free)

/* A SimPose-ium pose (`Time n`, two vectors, 29 quaternions): read as pose
 * `frame` (time frame/30), or, for `frame` -1, at its Time n/30 (which
 * must be after the previous pose's), into `poses` (which must have room
 * for it); `time` receives n */
gboolean _sq_sims_read_pose           (SqSimsText  *t,
                                       SqSimsPoses *poses,
                                       gssize       frame,
                                       gint64      *time,
                                       GError     **error);
/* Writes frame `frame` of the clip as a pose with Time `time`
 * (`joint_of` from _sq_sims_bone_joints) */
void     _sq_sims_write_pose          (GString      *out,
                                       const SqClip *clip,
                                       const gssize  joint_of[SQ_SIMS_N_BONES],
                                       gsize         frame,
                                       gint64        time,
                                       const char   *eol);
/* The clip's "line-ending" extra: "\n", or "\r\n" (the default, as the
 * game's files) */
const char *_sq_sims_eol              (const SqClip *clip);
/* A name line: UTF-8 → Latin-1 (unmappable characters become '?') */
void     _sq_sims_put_string          (GString      *out,
                                       const char   *utf8,
                                       const char   *eol);
/* A line `| a b c |` of n numbers (not a number: 0): as "%.6f" when
 * `fixed` (a pose, but %g for values too large for a line), else as the
 * game writes a bone's numbers (%g) */
void     _sq_sims_put_bars            (GString      *out,
                                       const double *v,
                                       guint         n,
                                       gboolean      fixed,
                                       const char   *eol);

/* ---- across worlds (formats.md 5.5) ----------------------------------- */

/* The Second Life bone a Sims bone (index) stands for, NULL for none */
const char *sq_sims_bone_sl_name      (int           bone);

/* ---- validation (validate --target sims) ------------------------------ */

/* Appends SqFinding*s for what SimPose-ium or the game would reject */
void     sq_sims_validate             (const SqClip *clip,
                                       GPtrArray    *findings);

/* The world (sq-world.h), and the fields of a KFD and of a CMX skill
 * (sq-sims-fields.c) */
extern const SqWorldHome sq_world_sims;
extern const SqFieldSet  sq_sims_kfd_fields;
extern const SqFieldSet  sq_sims_skill_fields;

G_END_DECLS
