/* sq-parallel.h: splitting a reader's key decoding over the processors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Below this many bytes of keys, decoding stays on the calling thread. */
#define SQ_PARALLEL_MIN_BYTES (8u << 20)
/* A byte of text printed costs about what sixteen bytes of keys decoded do
 * (numbers print at 100-300 MB/s, keys decode at 2-4 GB/s): writers weigh
 * their output so, and a text file of half a megabyte is worth two threads */
#define SQ_PARALLEL_PRINT_WEIGHT 16u

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

/* How many threads _sq_parallel_items uses for items costing `total` in
 * all, when there are at least as many items (1: all on the calling one) */
guint _sq_parallel_threads (gsize total);

/* Calls func (i, data) once for every i in [0, n_items) on as many threads
 * as _sq_parallel_items would use for a cost of `total` (up to n_items),
 * the calling one among them: each thread takes the next item no thread
 * has taken, so that a thread the system holds back takes fewer (for
 * items of about equal cost, more than the threads). Returns when every
 * call has returned. */
void _sq_parallel_claim (guint       n_items,
                         gsize       total,
                         SqItemFunc  func,
                         gpointer    data);

/* Loss lists, one per item, for items run on threads (NULL when `losses`
 * is NULL); _sq_item_losses_merge moves their strings into `losses` in
 * item order and frees the lists. */
GPtrArray **_sq_item_losses_new   (GPtrArray  *losses,
                                   gsize       n_items);
void        _sq_item_losses_merge (GPtrArray  *losses,
                                   GPtrArray **lists,
                                   gsize       n_items);

typedef void (*SqPartFunc) (gsize      item,
                            GString   *out,
                            GPtrArray *losses,
                            gpointer   data);

/* For writers: calls func (i, part, part_losses, data) for every item, each
 * with a loss list of its own (NULL when `losses` is NULL), on as many
 * threads as _sq_parallel_items would use (`cost`: the bytes an item
 * prints, about, times SQ_PARALLEL_PRINT_WEIGHT). The calling thread takes
 * items in order from the first and prints them straight into `out`; the
 * others take them from the last backwards, each into a string of its own,
 * until they meet (the estimates are rough: fixed runs cut from them ended
 * far apart). Those strings then follow in `refs` (_sq_refer_take, at
 * the end of `out`), not copied, and the losses go to `losses`, in item
 * order: the result is the same as one pass in order. */
void _sq_parallel_parts (gsize        n_items,
                         const gsize *cost,
                         SqPartFunc   func,
                         gpointer     data,
                         GString     *out,
                         GArray      *refs,
                         GPtrArray   *losses);

/* Making freshly allocated memory present ahead of a reader that fills it:
 * the kernel clears each page on its first write, a large part of reading
 * a big file; a second thread asks for the pages first (MADV_POPULATE_WRITE,
 * which changes no byte, so the reader may write anywhere meanwhile). */
typedef struct _SqPrefault SqPrefault;

/* Starts on `n` ranges (in their order) for a read of `input_size` bytes,
 * or NULL when it is not worth it (a file under SQ_PARALLEL_MIN_BYTES,
 * ranges under a megabyte in all, one processor) or not possible here.
 * NULL ranges are skipped. The ranges must stay allocated until
 * _sq_prefault_finish. */
SqPrefault *_sq_prefault_start  (gsize         input_size,
                                 void * const *ranges,
                                 const gsize  *sizes,
                                 gsize         n);
/* Stops (what is left is not needed any more) and waits; NULL is fine. */
void        _sq_prefault_finish (SqPrefault   *prefault);
/* Makes the whole pages inside a range present now, on this thread: for a
 * thread about to fill the range, when the other processors are busy too
 * (cheaper than a fault a page). Changes no byte; NULL is fine. */
void        _sq_prefault_now    (void         *start,
                                 gsize         size);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SqPrefault, _sq_prefault_finish)

/* A writer's output as pieces (GBytes, in order; see sq_save_pieces): the
 * writer builds its output in one buffer, and bytes it leaves where they
 * are (records kept as read, parts printed on other threads) it refers to,
 * each at the offset of that buffer where it comes. _sq_refer notes `len`
 * bytes at `from`, inside `owner`; _sq_refer_take notes all of `bytes`
 * (taken); offsets must not decrease. _sq_pieces_take gives the stretches
 * of `whole` (the finished buffer, taken) between the references, and the
 * references, in order, and frees `refs` (NULL: no references). */
GArray    *_sq_refs_new    (void);
void       _sq_refer       (GArray       *refs,
                            gsize         at,
                            GBytes       *owner,
                            const guint8 *from,
                            gsize         len);
void       _sq_refer_take  (GArray       *refs,
                            gsize         at,
                            GBytes       *bytes);
GPtrArray *_sq_pieces_take (GBytes       *whole,
                            GArray       *refs);
/* Every piece of `pieces` (taken), at `at`: a part of an output made as
 * pieces itself */
void       _sq_refer_pieces (GArray      *refs,
                             gsize        at,
                             GPtrArray   *pieces);
/* The last byte of an output so far (`out`, then what refers to its end),
 * or -1 when there is none */
int        _sq_refs_last_byte (const guint8 *out,
                               gsize         out_len,
                               GArray       *refs);
/* One piece: `bytes` (taken) */
GPtrArray *_sq_pieces_new  (GBytes       *bytes);
gsize      _sq_pieces_size (GPtrArray    *pieces);
/* The pieces as one buffer (a single piece is given back as it is); a
 * large one is copied in pieces of 4 MB on several threads, each making
 * the pages it fills present itself (one thread copying while
 * another only makes fresh pages present leaves half of the work on one side). */
GBytes    *_sq_pieces_join (GPtrArray    *pieces);

/* For tests: the threshold instead of SQ_PARALLEL_MIN_BYTES (G_MAXSIZE: never
 * split), and the most threads to use (0: the processors, up to four). */
void _sq_parallel_set_limits (gsize min_bytes,
                              guint max_threads);

G_END_DECLS
