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

G_BEGIN_DECLS

typedef struct _SqEdit SqEdit;

/* `joints` NULL or empty: every joint */
SqEdit     *sq_edit_invert_xz_new       (const char * const *joints);
SqEdit     *sq_edit_rename_joint_new    (const char *old_name,
                                         const char *new_name);
SqEdit     *sq_edit_delete_joint_new    (const char *name);
SqEdit     *sq_edit_rename_root_new     (const char *new_name);
SqEdit     *sq_edit_rescale_new         (double      factor);
SqEdit     *sq_edit_set_first_frame_new (double      x,
                                         double      y,
                                         double      z);

/* Second Life animation fields (the "sl-anim" extras, formats.md 1.2); any
 * clip takes them, they are used when it is saved as .anim. Out-of-range
 * values are refused with SQ_ERROR_INVALID_ARGUMENT. */
#define SQ_SL_EMOTE_MAX_BYTES 255
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
