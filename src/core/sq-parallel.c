/* sq-parallel.c: splitting a reader's key decoding over the processors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A large file's keys land in freshly mapped memory, and the kernel zeroes
 * every page on its first write: for a 50 MB binary SEQ that is about half
 * of the reading time. Decoding the joints of such a file on
 * several threads shares the page faults and the decoding among the cores.
 * Readers first walk the file's structure on one thread (checking every
 * count against the bytes left, allocating every track), then decode the
 * fixed-size key records here, then finish (warnings, sorting) on one
 * thread again.
 */
#define G_LOG_DOMAIN "sq-parallel"

#include "config.h"

#include <sys/mman.h>
#include <unistd.h>

#include "sq-parallel.h"
#include "sq-memory.h"

#define SQ_PARALLEL_MAX_THREADS 4

typedef struct
{
  gsize      first, last;     /* items [first, last) */
  SqItemFunc func;
  gpointer   data;
} Run;

static gsize min_bytes = SQ_PARALLEL_MIN_BYTES;
static guint max_threads = 0;

void
_sq_parallel_set_limits (gsize min,
                         guint max)
{
  min_bytes = min;
  max_threads = max;
}

static gpointer
run_items (gpointer user_data)
{
  Run *run = user_data;

  for (gsize i = run->first; i < run->last; i++)
    run->func (i, run->data);
  return NULL;
}

/* the machine's processors, asked once: glibc reads
 * /sys/devices/system/cpu/online each time, which cost a small file's
 * whole load several times over */
static guint
n_processors (void)
{
  static gsize n = 0;

  if (g_once_init_enter (&n))
    g_once_init_leave (&n, (gsize) MAX (g_get_num_processors (), 1));
  return (guint) n;
}

guint
_sq_parallel_threads (gsize total)
{
  guint n_threads;

  if (total < min_bytes)
    return 1;
  n_threads = MIN (n_processors (), SQ_PARALLEL_MAX_THREADS);
  if (max_threads > 0)
    n_threads = MIN (max_threads, SQ_PARALLEL_MAX_THREADS);
  return MAX (n_threads, 1);
}

void
_sq_parallel_items (gsize        n_items,
                    const gsize *cost,
                    SqItemFunc   func,
                    gpointer     data)
{
  Run runs[SQ_PARALLEL_MAX_THREADS];
  GThread *threads[SQ_PARALLEL_MAX_THREADS] = { NULL };
  guint n_threads;
  gsize total = 0, item = 0, done = 0;

  for (gsize i = 0; i < n_items; i++)
    total += cost[i];
  n_threads = _sq_parallel_threads (total);
  if (n_threads < 2 || n_items < 2)
    {
      Run all = { 0, n_items, func, data };
      run_items (&all);
      return;
    }
  n_threads = (guint) MIN ((gsize) n_threads, n_items);

  /* contiguous runs: run t ends where the cost so far passes (t + 1) / n of the total */
  for (guint t = 0; t < n_threads; t++)
    {
      gsize goal = t + 1 == n_threads ? total : total / n_threads * (t + 1);

      runs[t].first = item;
      while (item < n_items && (done < goal || item == runs[t].first))
        done += cost[item++];
      if (t + 1 == n_threads)
        item = n_items;
      runs[t].last = item;
      runs[t].func = func;
      runs[t].data = data;
    }
  /* run 0 here; the others on threads (a thread that cannot start runs here) */
  for (guint t = 1; t < n_threads; t++)
    {
      if (runs[t].first == runs[t].last)
        continue;
      threads[t] = g_thread_try_new ("sq-decode", run_items, &runs[t], NULL);
      if (threads[t] == NULL)
        run_items (&runs[t]);
    }
  run_items (&runs[0]);
  for (guint t = 1; t < n_threads; t++)
    if (threads[t] != NULL)
      g_thread_join (threads[t]);
}

/* ---- items taken in turn ----------------------------------------------------- */

typedef struct
{
  guint      n_items;
  gint       next;            /* atomic: the first item not taken */
  SqItemFunc func;
  gpointer   data;
} Claim;

static gpointer
run_claimed (gpointer user_data)
{
  Claim *c = user_data;

  for (;;)
    {
      guint i = (guint) g_atomic_int_add (&c->next, 1);

      if (i >= c->n_items)
        break;
      c->func (i, c->data);
    }
  return NULL;
}

void
_sq_parallel_claim (guint       n_items,
                    gsize       total,
                    SqItemFunc  func,
                    gpointer    data)
{
  GThread *threads[SQ_PARALLEL_MAX_THREADS] = { NULL };
  Claim c = { MIN (n_items, (guint) G_MAXINT), 0, func, data };
  guint n_threads = MIN (_sq_parallel_threads (total), c.n_items);

  /* a thread that cannot start leaves its items to the others */
  for (guint t = 1; t < n_threads; t++)
    threads[t] = g_thread_try_new ("sq-decode", run_claimed, &c, NULL);
  run_claimed (&c);
  for (guint t = 1; t < n_threads; t++)
    if (threads[t] != NULL)
      g_thread_join (threads[t]);
}

/* ---- losses per item ---------------------------------------------------------- */

GPtrArray **
_sq_item_losses_new (GPtrArray *losses,
                     gsize      n_items)
{
  GPtrArray **lists;

  if (losses == NULL)
    return NULL;
  lists = g_new (GPtrArray *, MAX (n_items, 1));
  for (gsize i = 0; i < n_items; i++)
    lists[i] = g_ptr_array_new ();
  return lists;
}

void
_sq_item_losses_merge (GPtrArray  *losses,
                       GPtrArray **lists,
                       gsize       n_items)
{
  if (lists == NULL)
    return;
  for (gsize i = 0; i < n_items; i++)
    {
      /* the strings move over */
      for (guint k = 0; k < lists[i]->len; k++)
        g_ptr_array_add (losses, lists[i]->pdata[k]);
      g_ptr_array_unref (lists[i]);
    }
  g_free (lists);
}

/* ---- writers' parts ---------------------------------------------------------- */

typedef struct
{
  SqPartFunc  func;
  gpointer    data;
  GString    *out;
  GString   **parts;
  GPtrArray **losses;
  const gsize *cost;          /* printed bytes × SQ_PARALLEL_PRINT_WEIGHT */
  gint        n_items;
  gint        taken;          /* atomic: items taken from either end */
  gint        from_back;      /* atomic: items taken from the back */
} Parts;

/* Room for `room` more bytes (and the NUL) in `s`, in huge pages when that
 * is large (_sq_huge_realloc: big outputs otherwise spend much of
 * their time in page faults). GString's buffer is plain malloc memory, as
 * GLib grows and frees it. */
static void
string_reserve (GString *s,
                gsize    room)
{
  gsize want = s->len + room + 1;

  if (want <= s->allocated_len)
    return;
  s->str = _sq_huge_realloc (s->str, s->len + 1, want);
  s->allocated_len = want;
}

/* The calling thread takes items from the front and prints them straight
 * into the output, in order; the others take them from the back, each
 * into a string of its own, which follows the front ones as a piece of
 * the output (printing every part apart and then copying it would make the output's
 * bytes twice, in fresh pages twice). */
static gpointer
run_parts (gpointer data,
           gboolean from_front)
{
  Parts *p = data;
  gsize front = 0;            /* only the calling thread takes from the front */

  /* a turn is taken first, then an item from its end: the two ends never
   * pass each other, and every item is taken once */
  while (g_atomic_int_add (&p->taken, 1) < p->n_items)
    {
      gsize item = from_front ? front++ : (gsize) (p->n_items - 1 - g_atomic_int_add (&p->from_back, 1));

      if (from_front)
        p->func (item, p->out, p->losses != NULL ? p->losses[item] : NULL, p->data);
      else
        {
          p->parts[item] = g_string_new (NULL);
          string_reserve (p->parts[item], p->cost[item] / SQ_PARALLEL_PRINT_WEIGHT + 64);
          p->func (item, p->parts[item], p->losses != NULL ? p->losses[item] : NULL, p->data);
        }
    }
  return NULL;
}

static gpointer
run_parts_from_back (gpointer data)
{
  return run_parts (data, FALSE);
}

void
_sq_parallel_parts (gsize        n_items,
                    const gsize *cost,
                    SqPartFunc   func,
                    gpointer     data,
                    GString     *out,
                    GArray      *refs,
                    GPtrArray   *losses)
{
  Parts p = { func, data, out, g_new0 (GString *, MAX (n_items, 1)), _sq_item_losses_new (losses, n_items), cost,
              (gint) MIN (n_items, (gsize) G_MAXINT / 2), 0, 0 };
  GThread *threads[SQ_PARALLEL_MAX_THREADS] = { NULL };
  gsize estimate = 0;
  guint n_threads;

  for (gsize i = 0; i < n_items; i++)
    estimate += cost[i];
  n_threads = (guint) MIN ((gsize) _sq_parallel_threads (estimate), MAX (n_items, 1));
  /* room for about all of it: what the back threads take is left unused,
   * and pages never written are never made present */
  string_reserve (out, estimate / SQ_PARALLEL_PRINT_WEIGHT + 64);
  if (n_items > G_MAXINT / 2)
    {
      /* more items than the turns count: all here, in order */
      for (gsize i = 0; i < n_items; i++)
        func (i, out, p.losses != NULL ? p.losses[i] : NULL, data);
    }
  else
    {
      for (guint t = 1; t < n_threads; t++)
        threads[t] = g_thread_try_new ("sq-write", run_parts_from_back, &p, NULL);
      run_parts (&p, TRUE);
      for (guint t = 1; t < n_threads; t++)
        if (threads[t] != NULL)
          g_thread_join (threads[t]);
    }

  /* the back threads' parts follow the front ones as they are */
  for (gsize i = 0; i < n_items; i++)
    if (p.parts[i] != NULL)
      _sq_refer_take (refs, out->len, g_string_free_to_bytes (g_steal_pointer (&p.parts[i])));
  g_free (p.parts);
  _sq_item_losses_merge (losses, p.losses, n_items);
}

/* ---- output as pieces -------------------------------------------------------- */

/* bytes of a piece copied by one item of _sq_pieces_join */
#define COPY_PIECE (4u << 20)

typedef struct
{
  gsize   at;                 /* where it comes in the output made so far */
  GBytes *bytes;
} Ref;

static void
ref_clear (gpointer data)
{
  g_bytes_unref (((Ref *) data)->bytes);
}

GArray *
_sq_refs_new (void)
{
  GArray *refs = g_array_new (FALSE, FALSE, sizeof (Ref));

  g_array_set_clear_func (refs, ref_clear);
  return refs;
}

void
_sq_refer_take (GArray *refs,
                gsize   at,
                GBytes *bytes)
{
  Ref r = { at, bytes };

  if (g_bytes_get_size (bytes) == 0)
    {
      g_bytes_unref (bytes);
      return;
    }
  g_return_if_fail (refs->len == 0 || g_array_index (refs, Ref, refs->len - 1).at <= at);
  g_array_append_val (refs, r);
}

void
_sq_refer (GArray       *refs,
           gsize         at,
           GBytes       *owner,
           const guint8 *from,
           gsize         len)
{
  gsize size;
  const guint8 *base = g_bytes_get_data (owner, &size);

  g_return_if_fail (from >= base && len <= size && (gsize) (from - base) <= size - len);
  _sq_refer_take (refs, at, g_bytes_new_from_bytes (owner, from - base, len));
}

void
_sq_refer_pieces (GArray    *refs,
                  gsize      at,
                  GPtrArray *pieces)
{
  for (guint i = 0; i < pieces->len; i++)
    _sq_refer_take (refs, at, g_bytes_ref (pieces->pdata[i]));
  g_ptr_array_unref (pieces);
}

int
_sq_refs_last_byte (const guint8 *out,
                    gsize         out_len,
                    GArray       *refs)
{
  /* references are never empty (_sq_refer_take drops those) */
  if (refs != NULL && refs->len > 0 && g_array_index (refs, Ref, refs->len - 1).at >= out_len)
    {
      gsize size;
      const guint8 *p = g_bytes_get_data (g_array_index (refs, Ref, refs->len - 1).bytes, &size);

      return p[size - 1];
    }
  return out_len > 0 ? out[out_len - 1] : -1;
}

static void
add_piece (GPtrArray *pieces,
           GBytes    *whole,
           gsize      from,
           gsize      to)
{
  if (to > from)
    g_ptr_array_add (pieces, g_bytes_new_from_bytes (whole, from, to - from));
}

GPtrArray *
_sq_pieces_take (GBytes *whole,
                 GArray *refs)
{
  GPtrArray *pieces = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  gsize size = g_bytes_get_size (whole), done = 0;

  if (refs == NULL || refs->len == 0)
    {
      g_ptr_array_add (pieces, whole);
      if (refs != NULL)
        g_array_unref (refs);
      return pieces;
    }
  for (guint i = 0; i < refs->len; i++)
    {
      Ref *r = &g_array_index (refs, Ref, i);
      gsize at = MIN (r->at, size);

      add_piece (pieces, whole, done, at);
      done = at;
      g_ptr_array_add (pieces, g_steal_pointer (&r->bytes));
    }
  add_piece (pieces, whole, done, size);
  g_array_set_clear_func (refs, NULL);
  g_array_unref (refs);
  g_bytes_unref (whole);
  return pieces;
}

GPtrArray *
_sq_pieces_new (GBytes *bytes)
{
  return _sq_pieces_take (bytes, NULL);
}

gsize
_sq_pieces_size (GPtrArray *pieces)
{
  gsize size = 0;

  for (guint i = 0; i < pieces->len; i++)
    size += g_bytes_get_size (pieces->pdata[i]);
  return size;
}

typedef struct
{
  gsize         at;
  const guint8 *from;
  gsize         len;
} Copy;

typedef struct
{
  guint8     *out;
  const Copy *copies;
} Copies;

static void
run_copy (gsize    item,
          gpointer data)
{
  const Copies *cs = data;
  const Copy *c = &cs->copies[item];

  memcpy (cs->out + c->at, c->from, c->len);
}

GBytes *
_sq_pieces_join (GPtrArray *pieces)
{
  gsize total = _sq_pieces_size (pieces), at = 0;
  g_autoptr(GArray) copies = g_array_new (FALSE, FALSE, sizeof (Copy));
  g_autoptr(GArray) costs = g_array_new (FALSE, FALSE, sizeof (gsize));
  guint8 *out;
  Copies cs;

  if (pieces->len == 1)
    return g_bytes_ref (pieces->pdata[0]);
  if (total == 0)
    return g_bytes_new (NULL, 0);
  /* in pieces of 4 MB, so that a large output is copied on several
   * threads, each making its own fresh pages present */
  out = _sq_huge_realloc (NULL, 0, total);
  for (guint i = 0; i < pieces->len; i++)
    {
      gsize len;
      const guint8 *from = g_bytes_get_data (pieces->pdata[i], &len);

      for (gsize done = 0; done < len; done += COPY_PIECE)
        {
          Copy c = { at + done, from + done, MIN ((gsize) COPY_PIECE, len - done) };
          g_array_append_val (copies, c);
          g_array_append_val (costs, c.len);
        }
      at += len;
    }
  cs = (Copies) { out, (const Copy *) (void *) copies->data };
  _sq_parallel_items (copies->len, (const gsize *) (void *) costs->data, run_copy, &cs);
  return g_bytes_new_take (out, total);
}

/* ---- prefaulting ---------------------------------------------------------- */

/* a step of a range at a time, looking for the stop between them */
#define PREFAULT_STEP (256u << 10)
/* below this many bytes in all, the thread costs more than it saves */
#define PREFAULT_MIN  (1u << 20)

/* The ranges are fixed when the thread starts, and the thread's only other
 * input is the atomic stop (so that thread checkers see every access
 * ordered by the thread's start and join). */
struct _SqPrefault
{
  GThread *thread;
  gint     stop;              /* atomic */
  gsize    n;
  guint8 **start;             /* page-aligned */
  gsize   *size;              /* whole pages */
};

static gpointer
prefault_run (gpointer data)
{
#ifdef MADV_POPULATE_WRITE
  SqPrefault *pf = data;

  for (gsize i = 0; i < pf->n; i++)
    for (gsize done = 0; done < pf->size[i]; done += PREFAULT_STEP)
      {
        if (g_atomic_int_get (&pf->stop))
          return NULL;
        if (madvise (pf->start[i] + done, MIN ((gsize) PREFAULT_STEP, pf->size[i] - done), MADV_POPULATE_WRITE) != 0)
          return NULL;        /* not supported here, or no memory: the reader faults them itself */
      }
#endif
  return NULL;
}

#ifdef MADV_POPULATE_WRITE
/* The whole pages inside [start, start + size): FALSE when there are none
 * (or the page size is not one to round to) */
static gboolean
whole_pages (const void *start,
             gsize       size,
             guint8    **first,
             gsize      *length)
{
  long page = sysconf (_SC_PAGESIZE);
  guintptr a, b;

  if (start == NULL || page <= 0 || (page & (page - 1)) != 0)
    return FALSE;
  a = ((guintptr) start + (gsize) page - 1) & ~(guintptr) (page - 1);
  b = ((guintptr) start + size) & ~(guintptr) (page - 1);
  if (b <= a)
    return FALSE;
  *first = (guint8 *) a;
  *length = b - a;
  return TRUE;
}
#endif

SqPrefault *
_sq_prefault_start (gsize         input_size,
                    void * const *ranges,
                    const gsize  *sizes,
                    gsize         n)
{
#ifdef MADV_POPULATE_WRITE
  SqPrefault *pf;
  gsize total = 0;

  for (gsize i = 0; i < n; i++)
    total += sizes[i];
  if (input_size < min_bytes || total < MIN (min_bytes, (gsize) PREFAULT_MIN)
      || n_processors () < 2 || max_threads == 1)
    return NULL;
  pf = g_new0 (SqPrefault, 1);
  pf->start = g_new (guint8 *, MAX (n, 1));
  pf->size = g_new (gsize, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    if (whole_pages (ranges[i], sizes[i], &pf->start[pf->n], &pf->size[pf->n]))
      pf->n++;
  pf->thread = g_thread_try_new ("sq-prefault", prefault_run, pf, NULL);
  if (pf->thread == NULL)
    {
      _sq_prefault_finish (pf);
      return NULL;
    }
  return pf;
#else
  return NULL;
#endif
}

void
_sq_prefault_now (void  *start,
                  gsize  size)
{
#ifdef MADV_POPULATE_WRITE
  guint8 *first;
  gsize length;

  /* failing (not supported here, no memory) is fine: the writer faults them itself */
  if (whole_pages (start, size, &first, &length))
    madvise (first, length, MADV_POPULATE_WRITE);
#endif
}

void
_sq_prefault_finish (SqPrefault *pf)
{
  if (pf == NULL)
    return;
  g_atomic_int_set (&pf->stop, 1);
  if (pf->thread != NULL)
    g_thread_join (pf->thread);
  g_free (pf->start);
  g_free (pf->size);
  g_free (pf);
}
