/* sq-edit.h: the edits of the document, each one undoable
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An SqEdit is created with its parameters, then applied to a clip; applying
 * validates the parameters against the clip and either changes it or leaves it
 * untouched and returns an error. An applied edit remembers what it replaced,
 * so sq_edit_undo() restores the clip exactly and sq_edit_apply() again redoes
 * it. The editor's undo stack and the CLI both go through these.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"
#include "sq-fields.h"

G_BEGIN_DECLS

typedef struct _SqEdit SqEdit;

/* `joints` NULL or empty: every joint */
SqEdit     *sq_edit_invert_xz_new       (const char * const *joints);
SqEdit     *sq_edit_rename_joint_new    (const char *old_name,
                                         const char *new_name);
SqEdit     *sq_edit_delete_joint_new    (const char *name);
/* Deletes the keys of joint `name` at `time` (seconds): in every channel,
 * the key nearest to it within half a frame; refused when no channel has
 * one there. */
SqEdit     *sq_edit_delete_keys_new     (const char *name,
                                         double      time);
SqEdit     *sq_edit_rename_root_new     (const char *new_name);
/* `factor` must be finite and above 0 (sq_edit_check_rescale_factor) */
SqEdit     *sq_edit_rescale_new         (double      factor);
/* Why a rescale factor is refused (0 puts every location at one point, a
 * negative factor mirrors the path), or TRUE; what sq_edit_apply checks,
 * for dialogs to say before */
gboolean    sq_edit_check_rescale_factor (double     factor,
                                         GError    **error);
/* Why `name` cannot be the new name of joint `joint` (its index, -1 for a
 * name no joint has yet), or TRUE: it must be non-empty text of one line,
 * and no other joint may have it. What the rename edits check, for dialogs
 * to say before, in the same words. */
gboolean    sq_edit_check_joint_name    (const SqClip *clip,
                                         const char   *name,
                                         gssize        joint,
                                         GError      **error);
SqEdit     *sq_edit_set_first_frame_new (double      x,
                                         double      y,
                                         double      z);

/* Second Life animation fields (the "sl-anim" extras, formats.md 1.2); any
 * clip takes them, they are used when it is saved as .anim. Out-of-range
 * values are refused with SQ_ERROR_INVALID_ARGUMENT. */
/* base priority, -1..6 */
SqEdit     *sq_edit_sl_priority_new     (gint32      priority);
/* one joint's priority, -1..6 */
SqEdit     *sq_edit_sl_joint_priority_new (const char *joint,
                                         gint32      priority);
/* loop on between `in` and `out` (0 ≤ in ≤ out ≤ duration), or off (the
 * points are kept) */
SqEdit     *sq_edit_sl_loop_new         (gboolean    loop,
                                         double      in,
                                         double      out);
/* ease in and out times, finite and ≥ 0 */
SqEdit     *sq_edit_sl_ease_new         (double      ease_in,
                                         double      ease_out);
/* hand pose 0..13 (formats.md 1.7) */
SqEdit     *sq_edit_sl_hand_pose_new    (guint32     hand_pose);
/* emote name, "" for none: Latin-1 characters, at most
 * SQ_SL_EMOTE_MAX_BYTES of them */
SqEdit     *sq_edit_sl_emote_new        (const char *emote);
/* removes constraint `index` (0 = the first) */
SqEdit     *sq_edit_sl_delete_constraint_new (guint   index);
/* replaces constraint `index` (0 = the first) with `c`, or appends it when
 * `index` is the number of constraints. Refused: more than
 * SQ_SL_MAX_CONSTRAINTS; a chain length above SQ_SL_MAX_CHAIN_LENGTH (3:
 * longer chains overflow the viewer's arrays, formats.md 1.5 and 6) or above
 * the number of joints (0, found in real files, is accepted); a type other
 * than 0 (point) or 1 (plane); a source that is not a collision volume
 * (sq_sl_collision_volumes()); a target that is neither a collision volume
 * nor "GROUND" (an empty target is refused: the viewer rejects it); offsets
 * or direction that are not finite single-precision numbers; ease times
 * below 0 or a start after its stop. Whether the chain's joints are in the
 * animation is left to validation. Unchanged volume names keep their raw
 * 16 bytes. */
SqEdit     *sq_edit_sl_constraint_new   (guint                 index,
                                         const SqSlConstraint *c);

/* The frame rate, for formats whose time base is a field of the file (BVH's
 * Frame Time, .x's AnimTicksPerSecond: SQ_FORMAT_FRAME_RATE) and clips built
 * in memory; refused for formats with a fixed time base (SEQ, .anim). Keys
 * keep their frame (tick) numbers, so key times and the duration scale by
 * old / new rate: the animation plays faster or slower, as changing the field
 * in the file does. The frame time must lie within 0.001..10 s; a .x file
 * takes whole ticks per second only. Keys off the frame grid scale too. */
SqEdit     *sq_edit_set_frame_rate_new  (double      fps);
/* The same, given as BVH's frame time in seconds (kept exactly for BVH) */
SqEdit     *sq_edit_set_frame_time_new  (double      seconds);

/* The .x AnimationSet name ("set_name"), "" for none. A name is a .x
 * identifier: a letter (Latin-1) or "_", then letters, digits, "_", "-" or
 * "."; at most 200 characters; not a reserved word (formats.md 3.2) nor
 * "template". */
SqEdit     *sq_edit_dx_set_name_new     (const char *name);

gboolean    sq_edit_apply               (SqEdit     *edit,
                                         SqClip     *clip,
                                         GError    **error);
void        sq_edit_undo                (SqEdit     *edit,
                                         SqClip     *clip);
const char *sq_edit_get_label           (const SqEdit *edit);
char       *sq_edit_describe            (const SqEdit *edit);
void        sq_edit_free                (SqEdit     *edit);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SqEdit, sq_edit_free)

G_END_DECLS
