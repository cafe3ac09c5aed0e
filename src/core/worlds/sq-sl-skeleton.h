/* sq-sl-skeleton.h: the names Second Life resolves to avatar joints
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * formats.md 1.8 and Appendix A (avatar_skeleton.xml v2.0, avatar_lad.xml):
 * the 133 bones, their aliases (avatar_<bone>, the BVH names of the 26 base
 * bones), the 26 collision volumes and the attachment points. Lookups are
 * exact and case-sensitive, as in the viewer.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  SQ_SL_NAME_UNKNOWN,
  SQ_SL_NAME_BONE,              /* one of the 133 bones */
  SQ_SL_NAME_ALIAS,             /* an alias of a bone */
  SQ_SL_NAME_COLLISION_VOLUME,
  SQ_SL_NAME_ATTACHMENT,        /* an attachment point ("Left Ear" or "Left_Ear") */
  SQ_SL_NAME_SPECIAL,           /* mScreen or mRoot: the viewer refuses to animate them */
} SqSlNameKind;

#define SQ_SL_N_BONES 133

/* What `name` is; *bone (may be NULL) gets the bone it resolves to, or NULL
 * (HUD attachment points and "Avatar Center" resolve to mScreen/mRoot). */
SqSlNameKind  sq_sl_lookup_name          (const char  *name,
                                          const char **bone);
/* Bone i (0..132) in file order, and its parent (NULL for mPelvis) */
const char   *sq_sl_bone_name            (guint        i);
const char   *sq_sl_bone_parent          (const char  *bone);
/* The bone's position in the avatar at rest (avatar_skeleton.xml v2.0,
 * formats.md Appendix A), metres, SL axes; FALSE for a name that is not a
 * bone */
gboolean      sq_sl_bone_rest_position   (const char  *bone,
                                          double       out[3]);
/* The bone a collision volume hangs from, NULL when `volume` is not one */
const char   *sq_sl_collision_volume_bone (const char *volume);
/* The 26 collision volume names in avatar_lad.xml order, NULL-terminated
 * (for a chooser); "GROUND" is not among them */
const char * const *sq_sl_collision_volumes   (void);
gboolean      sq_sl_is_collision_volume   (const char *name);

G_END_DECLS
