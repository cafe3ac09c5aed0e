/* sq-aw-skeleton.h: the ActiveWorlds avatar's limb names and tags
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * formats.md 4: tags 1-42 carry the classic SEQ names (RWX help, the SEQ
 * spec); the skinned avatars' frames use "aw_" names for tags 1-78 with a
 * parent for each; the AW DirectX example spells some of them aw_hip_l,
 * aw_knee_l, … All three spellings resolve to a tag here. Lookups ignore
 * case, as ActiveWorlds does for SEQ names.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* the highest tag the DX profile allows (84 limbs; 51-53 and 79-84 have no
 * known name) */
#define SQ_AW_MAX_TAG 84

/* The tag a limb name resolves to (classic SEQ name, aw_ frame name or the
 * DX example's aw_<limb>_l/_r spelling), 0 when it is none of them. */
guint        sq_aw_tag_for_name (const char *name);
/* The classic SEQ name of a tag (1..42), NULL when it has none */
const char  *sq_aw_seq_name     (guint       tag);
/* The skinned avatars' frame name of a tag ("aw_pelvis"), NULL when none is known */
const char  *sq_aw_dx_name      (guint       tag);
/* The tag's parent in the skinned hierarchy, 0 for the root or when unknown */
guint        sq_aw_parent_tag   (guint       tag);

/* The classic names only: tags 1..42 (as sq_aw_seq_name), and the tag of a
 * classic name (0 when it is not one, aw_ names included) */
const char  *sq_aw_joint_name   (guint       tag);
guint        sq_aw_joint_tag    (const char *name);

/* ActiveWorlds' rest pose: the avatars are built standing with their arms
 * hanging at their sides, not in Second Life's T-pose. Turns a skeleton
 * laid out on the Second Life rest skeleton (`offset`: each joint's offset
 * from its parent, metres, Second Life axes +X forward, +Y left, +Z up)
 * into that pose: the offset of every joint below a shoulder (tags 6 and
 * 11) is turned 90° about the forward axis, so the arm points down.
 * `tags[j]` is joint j's tag (0 for none), `parent[j]` its parent (< 0 for
 * a root; a chain that loops is left alone). */
void         sq_aw_rest_arms_down (gsize         n,
                                   const guint  *tags,
                                   const gint32 *parent,
                                   double      (*offset)[3]);

G_END_DECLS
