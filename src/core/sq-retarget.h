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
  double  (*offset)[3];   /* from its parent at rest (a root: its place), metres, Second Life axes */
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

G_END_DECLS
