/* sq-clip-private.h: clip internals for the core's own files (sq-clip.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <math.h>
#include <string.h>

#include "sq-clip.h"

G_BEGIN_DECLS

guint64  _sq_clip_new_generation   (void);
void     _sq_clip_mark_source      (SqClip       *clip,
                                    const SqFormat *format,
                                    GBytes       *bytes);

/* The next key of a track that has room for it (n_keys < alloc): zeroed,
 * at `time`, its side arrays filled as sq_track_append does. */
static inline SqKey *
_sq_track_push (SqTrack *track,
                double   time)
{
  SqKey *key = &track->keys[track->n_keys];

  memset (key, 0, sizeof *key);
  key->time = time;
  if (track->present != NULL)
    track->present[track->n_keys] = SQ_PRESENT_ALL;
  if (track->alt != NULL)
    for (guint i = 0; i < 4; i++)
      track->alt[track->n_keys * 4 + i] = NAN;
  track->n_keys++;
  return key;
}

G_END_DECLS
