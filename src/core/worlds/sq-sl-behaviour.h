/* sq-sl-behaviour.h: what the Second Life avatar does with a clip, and the
 * BVH upload's reference frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * formats.md 1.10a: the viewer plays a clip on an avatar that has a shape,
 * its own motions and a face; these findings tell the animator what that
 * does to the clip (bobbing, shape sliders overridden, the viewer's own
 * abdomen motion and breathing, emotes it ignores, a hip height that makes
 * other shapes float or sink). formats.md 1.9: the BVH upload takes frame 0
 * as a reference pose it does not play.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"
#include "sq-edit.h"
#include "sq-format.h"

G_BEGIN_DECLS

/* The SL wiki's "Suggested BVH Hip Y Locations", inches (formats.md 1.10a) */
#define SQ_SL_HIP_Y_STANDING     42.1
#define SQ_SL_HIP_Y_GROUND_SIT   8.325
/* farther than this from both, inches: other shapes float or sink */
#define SQ_SL_HIP_Y_TOLERANCE    4.0

/* Appends the behaviour findings (warnings and notes) for `clip` */
void        sq_sl_add_behaviour_findings (const SqClip *clip,
                                          GPtrArray    *findings);

/* Whether the name is an emote the viewer knows (gAnimLibrary,
 * case-insensitive; formats.md 1.7); "" is none and counts as known */
gboolean    sq_sl_emote_is_known         (const char   *name);

/* ---- the BVH reference frame (formats.md 1.9, 1.10a) ---- */

typedef enum
{
  SQ_BVH_REFERENCE_NONE,      /* not a BVH of several frames */
  SQ_BVH_REFERENCE_FIRST,     /* frame 0 is a reference pose (a jump from it
                               * to frame 1, the motion smooth after it) */
  SQ_BVH_REFERENCE_MOTION,    /* frame 0 is part of the motion: the upload
                               * would not play it all the same */
  SQ_BVH_REFERENCE_POSE_ONLY, /* every frame holds the same pose: the upload
                               * leaves out every joint, uploads nothing */
} SqBvhReference;

/* What frame 0 of a BVH clip is; `why` (may be NULL) gets a translated
 * sentence saying so (NULL for SQ_BVH_REFERENCE_NONE) */
SqBvhReference sq_bvh_reference_frame    (const SqClip *clip,
                                          char        **why);
/* What sq_bvh_reference_frame() says of frame 0 (newly allocated,
 * translated), NULL when the clip is not a BVH of several frames */
char       *sq_bvh_reference_describe    (const SqClip *clip);
/* The number of frames of a BVH clip (its "frames" field or its keys) and
 * its frame time in *frame_time */
gsize       sq_bvh_frame_count           (const SqClip *clip,
                                          double       *frame_time);
/* The edit that drops the first `n` frames of a clip with frames (BVH,
 * .x): a trim from frame n to the end; NULL with an error when it has no
 * more than n frames */
SqEdit     *sq_edit_skip_frames_new      (const SqClip *clip,
                                          guint         n,
                                          GError      **error);

/* For the BVH reader: a warning in the clip's when every frame holds the
 * same pose (what SQ_BVH_REFERENCE_POSE_ONLY says) */
void        _sq_bvh_warn_pose_only       (SqClip       *clip);

/* For saving (sq-load-save.c): a copy of a BVH pose clip (every frame the
 * same pose) with the skeleton's rest pose as frame 0, so the upload keeps
 * the pose; NULL when the clip is no such pose. `literal`: the viewer's
 * own behaviour instead (no copy, a loud line in `losses` naming the
 * cause). Notes go to `notes`. */
SqClip     *_sq_bvh_pose_with_reference  (const SqClip *clip,
                                          gboolean      literal,
                                          GPtrArray    *losses,
                                          GPtrArray    *notes);
/* The note sq_convert() gives when it prepends a reference frame to a BVH
 * written from a .anim (N_: translate it with _()) */
#define SQ_BVH_REFERENCE_NOTE \
  N_("frame 0 is a reference pose (the rest pose), as the Second Life importer expects; the animation starts at " \
     "frame 1")
/* Takes that frame out of a converted clip again (the save's option to
 * leave it out), and its note out of `notes` */
void        _sq_bvh_drop_reference_frame (SqClip       *clip,
                                          GPtrArray    *notes);
/* The Second Life home's hooks of a save's conversion
 * (SqWorldHome.before_convert, .after_convert): a BVH pose converted to
 * .anim gets the rest pose as its reference frame (by the save's
 * literal_pose); a BVH written from a .anim has its reference frame's line
 * moved to the notes, or the frame dropped (no_reference_frame) */
SqClip     *_sq_sl_before_convert        (const SqClip        *clip,
                                          const SqFormat      *format,
                                          const SqSaveOptions *options,
                                          GPtrArray           *losses);
void        _sq_sl_after_convert         (const SqClip        *clip,
                                          const SqFormat      *format,
                                          SqClip              *converted,
                                          const SqSaveOptions *options,
                                          GPtrArray           *losses);

G_END_DECLS
