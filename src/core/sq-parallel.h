/* sq-parallel.h: splitting a reader's key decoding over the processors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Below this many bytes of keys, decoding stays on the calling thread. */
#define SQ_PARALLEL_MIN_BYTES (8u << 20)

typedef void (*SqItemFunc) (gsize    item,
                            gpointer data);

/* Calls func (i, data) once for every i in [0, n_items). When the items'
 * costs (`cost[i]`, in bytes read) add up to at least SQ_PARALLEL_MIN_BYTES
 * (see _sq_parallel_set_limits) and the machine has more than one processor, the items are cut into
 * contiguous runs of about equal cost and the runs go to up to four threads,
 * the calling one among them; otherwise all run here, in order. func must
 * touch only what belongs to its item. Returns when every call has returned. */
void _sq_parallel_items (gsize        n_items,
                         const gsize *cost,
                         SqItemFunc   func,
                         gpointer     data);

/* For tests: the threshold instead of SQ_PARALLEL_MIN_BYTES (G_MAXSIZE: never
 * split), and the most threads to use (0: the processors, up to four). */
void _sq_parallel_set_limits (gsize min_bytes,
                              guint max_threads);

G_END_DECLS
