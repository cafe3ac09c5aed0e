/* sq-fields.c: typed read access to the format fields a clip carries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The .x reader keeps the AnimationSet's name as "set_name"; BVH keeps its
 * frame time exactly as "frame-time". This file turns those into plain
 * values; Second Life's fields are its home's (worlds/sq-sl-fields.c).
 */
#define G_LOG_DOMAIN "sq-fields"

#include "config.h"

#include <math.h>

#include "sq-fields.h"

const char *
sq_dx_set_name (const SqClip *clip)
{
  GVariant *v;

  g_return_val_if_fail (clip != NULL, "");
  v = sq_props_get (clip->extra, "set_name");
  return v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_STRING) ? g_variant_get_string (v, NULL) : "";
}

double
sq_clip_frame_time (const SqClip *clip)
{
  GVariant *v;

  g_return_val_if_fail (clip != NULL, 0.0);
  /* BVH's exact Frame Time while it still gives the clip's rate, as the
   * BVH writer writes it */
  v = sq_props_get (clip->extra, "frame-time");
  if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_DOUBLE) && g_variant_get_double (v) > 0
      && 1.0 / g_variant_get_double (v) == clip->fps)
    return g_variant_get_double (v);
  return clip->fps > 0 ? 1.0 / clip->fps : 0.0;
}
