/* sq-joint-map.h: joint names across the worlds, and user map files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A joint concept (pelvis, left elbow, …) has a name in each naming
 * scheme: ActiveWorlds classic SEQ names, the ActiveWorlds DirectX aw_
 * names, Second Life bones and their BVH aliases, The Sims' bones (PELVIS,
 * L_ARM1…), and the usual motion capture names (Hips, Spine, LeftUpLeg…
 * and the CMU files' LeftHip, LeftCollar…). Each world's names live in
 * its home and are reached through the world interface (sq-world.h,
 * SqWorldNames). A user map file (sq_joint_map_parse) overrides them.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"
#include "sq-format.h"

G_BEGIN_DECLS

typedef enum
{
  SQ_JOINT_SCHEME_NONE,       /* names are kept as they are */
  SQ_JOINT_SCHEME_AW_SEQ,     /* pelvis, back, lfshoulder … */
  SQ_JOINT_SCHEME_AW_DX,      /* aw_pelvis, aw_lfshoulder … */
  SQ_JOINT_SCHEME_SL,         /* mPelvis, mShoulderLeft … */
  SQ_JOINT_SCHEME_SL_BVH,     /* hip, lShldr … where SL has a BVH alias, else the SL bone */
  SQ_JOINT_SCHEME_SIMS,       /* PELVIS, SPINE, L_ARM1 … (The Sims' 29 bones, exact case) */
} SqJointScheme;

/* What a joint name stands for: a Second Life bone, an ActiveWorlds tag,
 * or both; neither when the name is unknown. */
typedef struct
{
  const char *sl_bone;        /* static string, NULL for none */
  guint       aw_tag;         /* 1..SQ_AW_MAX_TAG, 0 for none */
} SqJointConcept;

/* flags for sq_joint_concept_lookup */
typedef enum
{
  /* the clip uses the CMU spelling (LeftCollar, LeftShoulder = upper arm,
   * LeftHip = thigh) rather than the Mixamo-like one (LeftShoulder = collar,
   * LeftArm, LeftUpLeg) */
  SQ_JOINT_LOOKUP_CMU = 1 << 0,
} SqJointLookupFlags;

gboolean     sq_joint_concept_lookup    (const char         *name,
                                         SqJointLookupFlags  flags,
                                         SqJointConcept     *out);
/* The name of a concept in a scheme, NULL when the scheme has none */
const char  *sq_joint_concept_name      (const SqJointConcept *concept,
                                         SqJointScheme         scheme);
/* TRUE when `name` is already a name of `scheme` (kept as it is) */
gboolean     sq_joint_name_in_scheme    (const char    *name,
                                         SqJointScheme  scheme);
/* The name the table gives `name` in `scheme`: `name` itself when it is
 * already valid there, NULL when the scheme has no counterpart. */
const char  *sq_joint_name_for_scheme   (const char         *name,
                                         SqJointScheme       scheme,
                                         SqJointLookupFlags  flags);
/* The flags that read a clip's names right (the CMU spelling when the
 * clip uses it) */
SqJointLookupFlags sq_joint_lookup_flags (const SqClip *clip);

/* ---- limbs (sq-retarget.h) ---------------------------------------------- */

/* The concepts (Second Life bone names) a concept's bone may point at, the
 * nearest first, NULL-terminated; NULL when it is no limb a retarget
 * matches (spine, neck and head, collars, arms, hands, legs, feet) */
const char * const *sq_joint_concept_tips     (const char *sl_bone);
/* Where a concept's joint is in the shared rest the limbs are aligned
 * through (Second Life's T-pose): metres, SL axes; FALSE when unknown */
gboolean            sq_joint_concept_hub_position (const char *sl_bone,
                                                   double      out[3]);

/* ---- user map files ---------------------------------------------------- */

/* Text, UTF-8; `#` starts a comment; blank lines are ignored; every other
 * line is `source = target`: the joint named `source` (exact, case-sensitive)
 * is written as `target`, or left out when `target` is `-`. Spaces around
 * the names are ignored; a name may be quoted ("Left Ear") to keep spaces,
 * `=` or `#` in it. */
SqJointMap  *sq_joint_map_parse         (GBytes            *bytes,
                                         GError           **error);
SqJointMap  *sq_joint_map_new           (void);
void         sq_joint_map_free          (SqJointMap        *map);
/* Adds or replaces one entry; `target` NULL drops the joint */
void         sq_joint_map_add           (SqJointMap        *map,
                                         const char        *source,
                                         const char        *target);
gsize        sq_joint_map_size          (const SqJointMap  *map);
/* The source of entry `index` (0 = the first, in file order), NULL past
 * the end */
const char  *sq_joint_map_source_at     (const SqJointMap  *map,
                                         gsize              index);
/* TRUE when the map has an entry for `source`; *target gets the new name,
 * or NULL when the joint is dropped. */
gboolean     sq_joint_map_lookup        (const SqJointMap  *map,
                                         const char        *source,
                                         const char       **target);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SqJointMap, sq_joint_map_free)

G_END_DECLS
