/* sq-layers.h: several animations played together on one Second Life avatar
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The viewer combines the motions an avatar plays per joint (SLV
 * indra/llcharacter/llpose.cpp LLJointStateBlender, llmotioncontroller.cpp;
 * formats.md 1.10a): each joint takes the motions that move it in order of
 * priority (the joint's own, else the motion's), at equal priority the one
 * started last first, at most 4 of them; the first gives the joint its
 * value with its ease weight, each next one blends in only with what weight
 * is left (so a higher one at full weight hides the rest). A motion's ease
 * weight rises over its ease-in time as a cubic step; one that does not
 * loop stops at its duration minus its ease-out time and fades over that.
 * The viewer's own motions (abdomen, breathing, hands, face) are not
 * simulated. Each clip is taken as it would be saved as .anim (converted
 * from its own format), named by the Second Life bones.
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"

G_BEGIN_DECLS

/* the viewer's slots per joint (JSB_NUM_JOINT_STATES) */
#define SQ_LAYERS_MAX_PER_JOINT 4

typedef struct _SqLayers SqLayers;

typedef enum
{
  SQ_LAYER_NOT_PLAYING,  /* no animation moves the joint at that time */
  SQ_LAYER_ONLY,         /* one animation moves it */
  SQ_LAYER_PRIORITY,     /* the highest priority wins */
  SQ_LAYER_STARTED_LAST, /* equal priority: the one started last wins */
} SqLayerReason;

typedef struct
{
  const char    *joint;          /* the Second Life bone (a static string) */
  int            winner;         /* the layer that sets it, -1 when none plays */
  int            rival;          /* the strongest other layer that moves it, -1 */
  gint32         priority;       /* the winner's priority for the joint */
  gint32         rival_priority;
  gboolean       joint_priority; /* the winner's priority is the joint's own, not its base */
  double         weight;         /* the winner's ease weight, 0..1 */
  double         share;          /* how much of the joint's rotation is the winner's, 0..1 */
  SqLayerReason  reason;
  double         rotation[4];    /* the blended rotation (identity when none) */
  gboolean       has_position;
  double         position[3];    /* the blended position offset, metres, SL axes */
} SqLayerJoint;

SqLayers   *sq_layers_new          (void);
void        sq_layers_free         (SqLayers      *layers);
/* Adds an animation started at `start` seconds (after the ones before it at
 * the same time); `name` names it in explanations. FALSE with an error
 * when it cannot be taken as a .anim. */
gboolean    sq_layers_add          (SqLayers      *layers,
                                    const SqClip  *clip,
                                    const char    *name,
                                    double         start,
                                    GError       **error);
gsize       sq_layers_get_n        (const SqLayers *layers);
const char *sq_layers_get_name     (const SqLayers *layers,
                                    gsize          index);
/* The layer's ease weight at `time` (0 before it starts and after it
 * ends) */
double      sq_layers_weight       (const SqLayers *layers,
                                    gsize          index,
                                    double         time);
/* Every joint any layer animates, in skeleton order (SqLayerJoint) */
GArray     *sq_layers_resolve      (const SqLayers *layers,
                                    double          time);
/* Why the winner wins, in words: "(priority 4 over a.anim's 2)" */
char       *sq_layers_explain      (const SqLayers     *layers,
                                    const SqLayerJoint *joint);
/* The combined motion as a clip (Second Life names and axes, no format):
 * the blended values sampled at `fps` from 0 to `duration` */
SqClip     *sq_layers_bake         (const SqLayers *layers,
                                    double          fps,
                                    double          duration);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SqLayers, sq_layers_free)

/* The Second Life bone a joint name stands for (its name or an alias's
 * bone; the combined clip of sq_layers_bake() names its joints so), or the
 * name itself when it names none */
const char *sq_layers_bone_of (const char *name);

G_END_DECLS
