/* sq-retarget.h: a clip's motion moved from one rest skeleton onto another
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A rotation key turns a joint from its rest pose, and the worlds' rest
 * poses differ (ActiveWorlds' avatar stands with its arms down, Second
 * Life's in a T-pose, a BVH however its OFFSETs say). A conversion
 * therefore poses the source clip in the world on its own rest skeleton
 * (SqRest, from the source world's SqWorldHome.rest_skeleton) and gives each
 * joint of the target the world rotation that makes its limb point the
 * same way on the target's rest skeleton. Limbs are matched through the
 * joint table's concepts (sq-joint-map.h) and aligned through one shared
 * rest, Second Life's T-pose, so that conversions there and back compose
 * to nothing. Where the two rests agree for a joint and all above it,
 * its keys are left exactly as they were.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"
#include "sq-format.h"

G_BEGIN_DECLS

typedef struct
{
  gsize     n;            /* the clip's joints */
  gint32   *parent;       /* per joint: its parent's index, -1 for a root */
  /* from its parent at rest, in its parent's frame at rest (a root: its
   * place), metres, Second Life axes */
  double  (*offset)[3];
  /* per joint: its rotation at rest from its parent's (a root: in the
   * world), a column-vector quaternion on Second Life's axes; the identity
   * where a key is the turn from the rest (every world but the Sims',
   * whose keys are whole rotations, their rest included) */
  double  (*rotation)[4];
  /* a translation key holds the joint's whole offset from its parent, in
   * its parent's frame (the Sims), not how far it moved from its rest */
  gboolean  absolute;
  /* per joint: where its limb points at rest (towards the joint the
   * first of its concept's tips stands for, sq_joint_concept_tips) on the
   * world's whole skeleton, whether the clip has that joint or not; zero
   * where the world does not say (most worlds: the clip's joints say it) */
  double  (*limb)[3];
  /* the common world's rest by the joints' names (Second Life's T-pose,
   * through which the limbs are matched) */
  gboolean  hub;
  gssize    root;         /* -1 when the clip has no joints */
  /* the file's own skeleton (BVH OFFSETs, a .x's frames), not its world's */
  gboolean  from_file;
  /* metres from the lowest point of the rest skeleton up to the root; 0
   * when unknown */
  double    hip_height;
} SqRest;

/* The rest skeleton `clip`'s joints stand on when the clip is (or is about
 * to become) a file of `format`: its world's (SqWorldHome.rest_skeleton),
 * or the Second Life skeleton by the joints' names when the format has no
 * world */
SqRest  *_sq_rest_new     (const SqClip   *clip,
                           const SqFormat *format);
void     _sq_rest_free    (SqRest         *rest);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SqRest, _sq_rest_free)

/* The joints of `src` that a retarget can leave out because their turn
 * can be carried by joints below them: TRUE in `carried` for each joint of
 * `src` with a mapped joint (keep[i] TRUE) below it in `rest` */
void     _sq_rest_carried (const SqRest   *rest,
                           const gboolean *keep,
                           gboolean       *carried);

/* Moves the rotations of `out` from the rest of `src` onto `target_rest`.
 * `out`'s joints are joints of `src` renamed (out joint k is src joint
 * src_index[k]), their keys still in `space` (the source format's).
 * Each joint whose limb is matched keeps its limb pointing in the world as
 * in `src` at each of its keys (the keys of the source joints above it);
 * a joint with no limb to match keeps its turn relative to its parent's
 * limb. Each joint whose keys changed gets the boolean extra
 * "retargeted" (the caller removes it); returns how many. */
guint    _sq_retarget     (const SqClip   *src,
                           const SqRest   *src_rest,
                           const SqSpace  *space,
                           SqClip         *out,
                           const gint32   *src_index,
                           const SqRest   *target_rest);

/* The root motion of `out` (its root is a joint of `src` renamed, as for
 * _sq_retarget) where either rest's translations are absolute: the source
 * root's place in the world at each key, less its place at rest, times
 * `factor`, added to the target root's rest place when the target's are
 * absolute; in `space` (the source format's) */
void     _sq_retarget_root_motion (const SqClip  *src,
                                   const SqRest  *src_rest,
                                   const SqSpace *space,
                                   SqClip        *out,
                                   const gint32  *src_index,
                                   const SqRest  *target_rest,
                                   double         factor);

G_END_DECLS
