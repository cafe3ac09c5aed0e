/* test-parallel.c: readers that decode keys on several threads give the
 * same clip as on one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sq-parallel.h"
#include "test-utils.h"

/* ---- the splitter ---------------------------------------------------------- */

typedef struct
{
  guint    *visits;
  GThread **thread;
} Visits;

static void
visit (gsize    item,
       gpointer data)
{
  Visits *v = data;

  g_atomic_int_inc (&v->visits[item]);
  v->thread[item] = g_thread_self ();
}

static void
test_split (void)
{
  const gsize n = 37;
  g_autofree gsize *cost = g_new (gsize, n);
  g_autofree guint *visits = g_new0 (guint, n);
  g_autofree GThread **thread = g_new0 (GThread *, n);
  Visits v = { visits, thread };
  guint n_threads;

  /* uneven costs, one item far above the rest */
  for (gsize i = 0; i < n; i++)
    cost[i] = (i * 7919) % 1000 + (i == 5 ? 100000 : 0);

  for (guint threads = 1; threads <= 4; threads++)
    {
      g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

      memset (visits, 0, n * sizeof *visits);
      _sq_parallel_set_limits (1, threads);
      _sq_parallel_items (n, cost, visit, &v);
      for (gsize i = 0; i < n; i++)
        {
          g_assert_cmpuint (visits[i], ==, 1);
          g_hash_table_add (seen, thread[i]);
        }
      /* runs are contiguous: the thread changes at most threads - 1 times */
      n_threads = 1;
      for (gsize i = 1; i < n; i++)
        if (thread[i] != thread[i - 1])
          n_threads++;
      g_assert_cmpuint (n_threads, ==, g_hash_table_size (seen));
      g_assert_cmpuint (n_threads, <=, threads);
      if (threads > 1)
        g_assert_cmpuint (n_threads, >, 1);
      else
        g_assert_true (thread[0] == g_thread_self ());
    }

  /* below the threshold: all on this thread, in order */
  memset (visits, 0, n * sizeof *visits);
  _sq_parallel_set_limits (G_MAXSIZE, 4);
  _sq_parallel_items (n, cost, visit, &v);
  for (gsize i = 0; i < n; i++)
    {
      g_assert_cmpuint (visits[i], ==, 1);
      g_assert_true (thread[i] == g_thread_self ());
    }
  /* no items */
  _sq_parallel_set_limits (1, 4);
  _sq_parallel_items (0, cost, visit, &v);
  _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
}

/* The pages of ranges made present while this thread writes them: every
 * byte ends as written, whatever the order */
static void
test_prefault (void)
{
  const gsize n = 5, size = 3u << 20;
  void *ranges[7];
  gsize sizes[7];
  SqPrefault *pf;

  for (gsize i = 0; i < n; i++)
    {
      sizes[i] = size + i * 4097 - i;
      ranges[i] = (guint8 *) g_malloc (size + i * 4097) + i;
    }
  ranges[5] = NULL;                 /* skipped */
  sizes[5] = 100;
  ranges[6] = ranges[0];            /* no whole page: nothing */
  sizes[6] = 10;
  _sq_parallel_set_limits (1, 4);
  pf = _sq_prefault_start (1, ranges, sizes, 7);
  _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
  if (pf == NULL && g_get_num_processors () > 1)
    g_test_message ("no prefaulting here (MADV_POPULATE_WRITE unsupported?)");
  for (gsize off = 0; off < size; off += 997)
    for (gsize i = 0; i < n; i++)
      ((guint8 *) ranges[i])[off] = (guint8) (off * 7 + i);
  _sq_prefault_finish (pf);
  for (gsize off = 0; off < size; off += 997)
    for (gsize i = 0; i < n; i++)
      g_assert_cmpuint (((guint8 *) ranges[i])[off], ==, (guint8) (off * 7 + i));
  for (gsize i = 0; i < n; i++)
    g_free ((guint8 *) ranges[i] - i);

  /* stopped early; a small file or small ranges: not started */
  ranges[0] = g_malloc (64u << 20);
  sizes[0] = 64u << 20;
  _sq_parallel_set_limits (1, 4);
  pf = _sq_prefault_start (1, ranges, sizes, 1);
  _sq_prefault_finish (pf);
  _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
  g_assert_null (_sq_prefault_start (1000, ranges, sizes, 1));
  g_assert_null (_sq_prefault_start (SQ_PARALLEL_MIN_BYTES, ranges, (gsize[]) { 4096 }, 1));
  g_free (ranges[0]);
  _sq_prefault_finish (NULL);
}

/* ---- readers ------------------------------------------------------------------- */

/* Reads `bytes` on one thread and on four (which also makes the pages of
 * the keys present on another thread while they are read, for any size);
 * the clips must be equal, warnings included, and save back alike. */
static void
assert_same_both_ways (GBytes *bytes)
{
  g_autoptr(SqClip) one = NULL, four = NULL;
  g_autoptr(GError) error1 = NULL, error4 = NULL;
  SqSaveOptions opts = { .no_source_copy = TRUE };

  _sq_parallel_set_limits (G_MAXSIZE, 1);
  one = tu_load (bytes, &error1);
  _sq_parallel_set_limits (1, 4);
  four = tu_load (bytes, &error4);
  _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);

  g_assert_true ((one == NULL) == (four == NULL));
  if (one == NULL)
    {
      g_assert_cmpstr (error1->message, ==, error4->message);
      return;
    }
  g_assert_true (sq_clip_equal (one, four));
  g_assert_cmpuint (one->warnings->len, ==, four->warnings->len);
  for (guint i = 0; i < one->warnings->len; i++)
    g_assert_cmpstr (one->warnings->pdata[i], ==, four->warnings->pdata[i]);
  for (gsize j = 0; j < one->n_joints; j++)
    for (int c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *a = &one->joints[j].tracks[c], *b = &four->joints[j].tracks[c];

        g_assert_true ((a->alt == NULL) == (b->alt == NULL));
        if (a->alt != NULL)
          g_assert_cmpmem (a->alt, a->n_keys * 4 * sizeof (double), b->alt, b->n_keys * 4 * sizeof (double));
      }
  {
    g_autoptr(GBytes) out1 = sq_save_bytes (one, one->format, &opts, NULL, NULL);
    g_autoptr(GBytes) out4 = sq_save_bytes (four, four->format, &opts, NULL, NULL);

    g_assert_nonnull (out1);
    g_assert_true (g_bytes_equal (out1, out4));
  }
}

/* Every writer gives the same bytes and losses on one thread and on four */
static void
assert_writes_alike (const SqClip *clip)
{
  g_autoptr(GPtrArray) one = NULL, four = NULL;

  _sq_parallel_set_limits (G_MAXSIZE, 1);
  one = tu_save_every_format (clip);
  _sq_parallel_set_limits (1, 4);
  four = tu_save_every_format (clip);
  _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
  tu_assert_same_saves (one, four);
}

static void
test_corpus (void)
{
  const char *dirs[] = { "seq-binary", "sl-anim", "bvh", "dx-anim" };
  guint n = 0;

  if (tu_corpus_dir () == NULL)
    {
      g_test_skip ("no corpus");
      return;
    }
  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autoptr(GPtrArray) files = tu_corpus_files (dirs[d]);

      for (guint i = 0; i < files->len; i++, n++)
        {
          g_autoptr(GBytes) bytes = tu_read (files->pdata[i]);
          g_autoptr(SqClip) clip = tu_load (bytes, NULL);

          assert_same_both_ways (bytes);
          if (clip != NULL && i % 4 == 0)
            assert_writes_alike (clip);
        }
    }
  g_test_message ("%u corpus files read both ways", n);
  g_assert_cmpuint (n, >, 0);
}

/* A binary SEQ above the threshold: 40 joints of 12,000 keys (9.6 MB), one
 * of them out of frame order, one with a repeated frame in a second file. */
static GBytes *
big_seq (gboolean repeat)
{
  const guint n_joints = 40, n_keys = 12000;
  GByteArray *b = tu_seq_header (n_keys, n_joints);

  for (guint j = 0; j < n_joints; j++)
    {
      g_autofree char *name = g_strdup_printf ("joint%u", j);

      tu_name (b, name);
      tu_be32 (b, 16);
      tu_be32 (b, n_keys);
      for (guint k = 0; k < n_keys; k++)
        {
          guint frame = k + 1;

          if (j == 17 && k < 2)
            frame = 2 - k;            /* 2, 1, 3, 4…: sorted with a warning */
          if (repeat && j == 33 && k == 500)
            frame = k;                /* the frame of the key before */
          tu_be32 (b, frame);
          tu_f32 (b, (float) (j + 1) / 64);
          tu_f32 (b, (float) k / n_keys);
          tu_f32 (b, -(float) k / n_keys);
          tu_f32 (b, 0.25f);
        }
    }
  return g_byte_array_free_to_bytes (b);
}

static void
test_big_seq (void)
{
  g_autoptr(GBytes) bytes = big_seq (FALSE);
  g_autoptr(GBytes) repeated = big_seq (TRUE);
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (g_bytes_get_size (bytes), >, SQ_PARALLEL_MIN_BYTES);
  assert_same_both_ways (bytes);
  clip = tu_load_ok (bytes);
  g_assert_cmpuint (clip->warnings->len, ==, 1);
  g_assert_nonnull (strstr (clip->warnings->pdata[0], "joint17"));
  g_assert_cmpfloat (sq_track_key (&clip->joints[39].tracks[SQ_CHANNEL_ROTATION], 11999).v[1], ==, (float) 11999 / 12000);

  assert_writes_alike (clip);
  /* the same keys as text SEQ and BVH, read with the pages made present
   * ahead */
  {
    g_autoptr(GBytes) text = tu_save (clip, "seq-text", NULL);
    g_autoptr(GBytes) bvh = tu_save (clip, "bvh", NULL);

    g_assert_cmpuint (g_bytes_get_size (text), >, SQ_PARALLEL_MIN_BYTES);
    assert_same_both_ways (text);
    g_assert_cmpuint (g_bytes_get_size (bvh), >, SQ_PARALLEL_MIN_BYTES);
    assert_same_both_ways (bvh);
  }

  assert_same_both_ways (repeated);
  _sq_parallel_set_limits (1, 4);
  g_assert_null (tu_load (repeated, &error));
  _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
  g_assert_error (error, SQ_ERROR, SQ_ERROR_BAD_VALUE);
  g_assert_nonnull (strstr (error->message, "joint33"));
}

/* An .anim above the threshold: 10 joints, 60,000 rotation and position
 * keys each (9.6 MB); joint 2's rotations hold a code 32768 (kept codes),
 * joint 4's positions are out of order. */
static void
test_big_anim (void)
{
  const guint n_joints = 10, n_keys = 60000;
  GByteArray *b = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SqClip) clip = NULL;
  float duration = 60.0f;
  guint32 bits;

  tu_le16 (b, 1);
  tu_le16 (b, 0);
  tu_le32 (b, 3);
  memcpy (&bits, &duration, 4);
  tu_le32 (b, bits);
  g_byte_array_append (b, (const guint8 *) "", 1);
  tu_le32 (b, 0);
  tu_le32 (b, bits);
  tu_le32 (b, 1);
  tu_le32 (b, 0);
  tu_le32 (b, 0);
  tu_le32 (b, 1);
  tu_le32 (b, n_joints);
  for (guint j = 0; j < n_joints; j++)
    {
      g_autofree char *name = g_strdup_printf ("mJoint%u", j);

      g_byte_array_append (b, (const guint8 *) name, strlen (name) + 1);
      tu_le32 (b, 3);
      for (int channel = 0; channel < 2; channel++)
        {
          tu_le32 (b, n_keys);
          for (guint k = 0; k < n_keys; k++)
            {
              guint t = k;

              if (j == 4 && channel == 1 && k == 0)
                t = n_keys - 1;       /* a key at the end, first: sorted, the later one wins */
              guint x = (k * 13) & 0xffff, y = (k * 7919 + j) & 0xffff;

              /* 32768 only where the test wants it */
              x = x == 32768 ? 32769 : x;
              y = y == 32768 ? 32769 : y;
              tu_le16 (b, t);
              tu_le16 (b, j == 2 && channel == 0 && k == 700 ? 32768 : x);
              tu_le16 (b, y);
              tu_le16 (b, 32767);
            }
        }
    }
  tu_le32 (b, 0);
  bytes = g_byte_array_free_to_bytes (b);

  g_assert_cmpuint (g_bytes_get_size (bytes), >, SQ_PARALLEL_MIN_BYTES);
  assert_same_both_ways (bytes);
  _sq_parallel_set_limits (1, 4);
  clip = tu_load_ok (bytes);
  _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
  tu_unpack (clip);
  g_assert_nonnull (clip->joints[2].tracks[SQ_CHANNEL_ROTATION].alt);
  g_assert_cmpfloat (clip->joints[2].tracks[SQ_CHANNEL_ROTATION].alt[700 * 4 + 1], ==, 32768);
  g_assert_null (clip->joints[3].tracks[SQ_CHANNEL_ROTATION].alt);
  g_assert_cmpuint (clip->joints[4].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, n_keys - 1);
  g_assert_cmpuint (clip->warnings->len, ==, 1);
  g_assert_nonnull (strstr (clip->warnings->pdata[0], "mJoint4"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/parallel/split", test_split);
  g_test_add_func ("/parallel/prefault", test_prefault);
  g_test_add_func ("/parallel/corpus", test_corpus);
  g_test_add_func ("/parallel/big-seq", test_big_seq);
  g_test_add_func ("/parallel/big-anim", test_big_anim);
  return g_test_run ();
}
