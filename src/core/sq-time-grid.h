/* sq-time-grid.h: key times snapped to a writer's grid (sq-time-grid.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"

G_BEGIN_DECLS

/* Keys of a track mapped onto a grid of `rate` steps per second (frame
 * numbers, milliseconds). Keys off the grid are rounded and reported (not
 * those on a grid of `lossless_rate` steps per second, which the rounding
 * keeps recoverable: 1/30 s frames written as whole milliseconds); keys
 * that land on an occupied step are dropped and reported. Returns the indices
 * of the kept keys; `steps` receives their step numbers. */
GArray  *_sq_track_to_grid         (const SqTrack *track,
                                    double        rate,
                                    gint64        base,
                                    double        lossless_rate,
                                    const char   *joint,
                                    const char   *what,
                                    GArray      **steps,
                                    GPtrArray    *losses);

G_END_DECLS
