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

  /* items taken in turn: each once, on several threads when there are
   * several; on this one below the threshold */
  for (guint threads = 1; threads <= 4; threads++)
    {
      g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

      memset (visits, 0, n * sizeof *visits);
      _sq_parallel_set_limits (1, threads);
      _sq_parallel_claim (n, 1000, visit, &v);
      _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
      for (gsize i = 0; i < n; i++)
        {
          g_assert_cmpuint (visits[i], ==, 1);
          g_hash_table_add (seen, thread[i]);
        }
      g_assert_cmpuint (g_hash_table_size (seen), <=, threads);
    }
  memset (visits, 0, n * sizeof *visits);
  _sq_parallel_set_limits (G_MAXSIZE, 4);
  _sq_parallel_claim (n, 1000, visit, &v);
  _sq_parallel_claim (0, 1000, visit, &v);
  _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
  for (gsize i = 0; i < n; i++)
    {
      g_assert_cmpuint (visits[i], ==, 1);
      g_assert_true (thread[i] == g_thread_self ());
    }
  g_assert_cmpuint (_sq_parallel_threads (SQ_PARALLEL_MIN_BYTES - 1), ==, 1);
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

  /* at once, on this thread: what was written stays */
  {
    const gsize mem_size = 5u << 20;
    guint8 *mem = g_malloc (mem_size);

    for (gsize off = 0; off < mem_size; off += 4093)
      mem[off] = (guint8) (off * 3);
    _sq_prefault_now (mem + 1, mem_size - 2);
    _sq_prefault_now (NULL, 100);
    _sq_prefault_now (mem, 10);
    for (gsize off = 0; off < mem_size; off += 4093)
      g_assert_cmpuint (mem[off], ==, (guint8) (off * 3));
    g_free (mem);
  }
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
        SqTrack ua, ub;
        const SqTrack *a = &ua, *b = &ub;

        /* the notation kept beside the keys, a packed track's once unpacked */
        sq_track_copy (&ua, &one->joints[j].tracks[c]);
        sq_track_copy (&ub, &four->joints[j].tracks[c]);
        sq_track_unpack (&ua);
        sq_track_unpack (&ub);

        g_assert_true ((a->alt == NULL) == (b->alt == NULL));
        if (a->alt != NULL)
          g_assert_cmpmem (a->alt, a->n_keys * 4 * sizeof (double), b->alt, b->n_keys * 4 * sizeof (double));
        sq_track_clear (&ua);
        sq_track_clear (&ub);
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

/* ---- output as pieces ------------------------------------------------------ */

static char *
concat (GPtrArray *pieces,
        gsize     *len)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < pieces->len; i++)
    {
      gsize n;
      const char *p = g_bytes_get_data (pieces->pdata[i], &n);
      g_string_append_len (s, p, n);
    }
  *len = s->len;
  return g_string_free (s, FALSE);
}

static void
test_pieces (void)
{
  static const char digits[] = "0123456789";
  g_autoptr(GBytes) owner = g_bytes_new_static (digits, 10);
  GArray *refs = _sq_refs_new ();
  GByteArray *out = g_byte_array_new ();
  g_autoptr(GPtrArray) pieces = NULL;
  g_autoptr(GBytes) joined = NULL;
  g_autofree char *text = NULL;
  gsize len;

  g_assert_cmpint (_sq_refs_last_byte (out->data, out->len, refs), ==, -1);
  /* at the start, between, three at one offset (an empty one dropped), at the end */
  _sq_refer (refs, 0, owner, (const guint8 *) digits + 1, 2);
  g_assert_cmpint (_sq_refs_last_byte (out->data, out->len, refs), ==, '2');
  g_byte_array_append (out, (const guint8 *) "ab", 2);
  g_assert_cmpint (_sq_refs_last_byte (out->data, out->len, refs), ==, 'b');
  _sq_refer (refs, 2, owner, (const guint8 *) digits + 5, 3);
  _sq_refer_take (refs, 2, g_bytes_new ("XY", 2));
  _sq_refer_take (refs, 2, g_bytes_new (NULL, 0));
  g_assert_cmpint (_sq_refs_last_byte (out->data, out->len, refs), ==, 'Y');
  g_byte_array_append (out, (const guint8 *) "cd", 2);
  g_assert_cmpint (_sq_refs_last_byte (out->data, out->len, refs), ==, 'd');
  {
    /* a part made of pieces itself */
    GArray *part_refs = _sq_refs_new ();

    _sq_refer (part_refs, 0, owner, (const guint8 *) digits + 9, 1);
    _sq_refer_pieces (refs, 4, _sq_pieces_take (g_bytes_new ("!", 1), part_refs));
  }
  g_assert_cmpint (_sq_refs_last_byte (out->data, out->len, refs), ==, '!');
  pieces = _sq_pieces_take (g_byte_array_free_to_bytes (out), refs);

  text = concat (pieces, &len);
  g_assert_cmpstr (text, ==, "12ab567XYcd9!");
  g_assert_cmpuint (_sq_pieces_size (pieces), ==, 13);
  g_assert_cmpuint (pieces->len, ==, 7);
  /* referred to, not copied */
  g_assert_true (g_bytes_get_data (pieces->pdata[0], NULL) == (gconstpointer) (digits + 1));
  g_assert_true (g_bytes_get_data (pieces->pdata[2], NULL) == (gconstpointer) (digits + 5));
  g_assert_true (g_bytes_get_data (pieces->pdata[5], NULL) == (gconstpointer) (digits + 9));
  joined = _sq_pieces_join (pieces);
  g_assert_cmpmem (g_bytes_get_data (joined, NULL), g_bytes_get_size (joined), text, len);
  g_clear_pointer (&pieces, g_ptr_array_unref);
  g_clear_pointer (&joined, g_bytes_unref);

  /* one piece is given back as it is; nothing is one empty piece */
  pieces = _sq_pieces_new (g_bytes_ref (owner));
  joined = _sq_pieces_join (pieces);
  g_assert_true (joined == owner);
  g_clear_pointer (&pieces, g_ptr_array_unref);
  g_clear_pointer (&joined, g_bytes_unref);
  pieces = _sq_pieces_take (g_bytes_new (NULL, 0), _sq_refs_new ());
  g_assert_cmpuint (pieces->len, ==, 1);
  joined = _sq_pieces_join (pieces);
  g_assert_cmpuint (g_bytes_get_size (joined), ==, 0);
  g_clear_pointer (&pieces, g_ptr_array_unref);
  g_clear_pointer (&joined, g_bytes_unref);

  /* a large output joined on threads, in pieces of 4 MB */
  {
    const gsize sizes[] = { (9u << 20) + 3, 1, (5u << 20) - 1, 4u << 20 };
    GRand *rand = g_rand_new_with_seed (7);
    g_autofree char *expected = NULL;

    pieces = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
    for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
      {
        guint8 *p = g_malloc (sizes[i]);

        for (gsize k = 0; k < sizes[i]; k++)
          p[k] = (guint8) g_rand_int (rand);
        g_ptr_array_add (pieces, g_bytes_new_take (p, sizes[i]));
      }
    g_rand_free (rand);
    expected = concat (pieces, &len);
    for (guint threads = 1; threads <= 4; threads += 3)
      {
        _sq_parallel_set_limits (threads == 1 ? G_MAXSIZE : 1, threads);
        joined = _sq_pieces_join (pieces);
        g_assert_cmpuint (g_bytes_get_size (joined), ==, len);
        g_assert_true (memcmp (g_bytes_get_data (joined, NULL), expected, len) == 0);
        g_clear_pointer (&joined, g_bytes_unref);
      }
    _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
  }
}

/* Saved after an edit that leaves the keys as they were read (`edit`),
 * the records kept as read come as slices of the bytes read, `referred`
 * bytes of them, and the pieces make the file one buffer makes. */
static void
assert_records_referred (GBytes *bytes,
                         SqEdit *edit,
                         gsize   referred)
{
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) pieces = NULL;
  g_autoptr(GBytes) joined = NULL;
  g_autofree char *text = NULL;
  gsize len, size, found = 0;
  const guint8 *start = g_bytes_get_data (bytes, &size);

  g_assert_true (sq_edit_apply (edit, clip, &error));
  g_assert_no_error (error);
  pieces = sq_save_pieces (clip, clip->format, NULL, NULL, &error);
  g_assert_no_error (error);
  joined = sq_save_bytes (clip, clip->format, NULL, NULL, &error);
  g_assert_no_error (error);
  text = concat (pieces, &len);
  g_assert_cmpmem (text, len, g_bytes_get_data (joined, NULL), g_bytes_get_size (joined));
  for (guint i = 0; i < pieces->len; i++)
    {
      gsize n;
      const guint8 *p = g_bytes_get_data (pieces->pdata[i], &n);

      if (p >= start && p + n <= start + size)
        found += n;
    }
  g_assert_cmpuint (found, ==, referred);
  sq_edit_free (edit);
}

typedef void (*CorpusFunc) (const char *dir,
                            const char *path,
                            guint       i,
                            GBytes     *bytes,
                            SqClip     *clip,
                            gpointer    data);

/* func for every file of the corpus folders (clip NULL when it does not
 * load); FALSE, the test skipped, without a corpus */
static gboolean
each_corpus_file (const char * const *dirs,
                  CorpusFunc          func,
                  gpointer            data)
{
  guint n = 0;

  for (guint d = 0; dirs[d] != NULL; d++)
    {
      g_autoptr(GPtrArray) files = tu_corpus_files (dirs[d]);

      for (guint i = 0; i < files->len; i++, n++)
        {
          g_autoptr(GBytes) bytes = tu_read (files->pdata[i]);
          g_autoptr(SqClip) clip = tu_load (bytes, NULL);

          func (dirs[d], files->pdata[i], i, bytes, clip, data);
        }
    }
  g_test_message ("%u corpus files", n);
  g_assert_cmpuint (n, >, 0);
  return TRUE;
}

static void
records_referred (const char *dir,
                  const char *path,
                  guint       i G_GNUC_UNUSED,
                  GBytes     *bytes,
                  SqClip     *clip,
                  gpointer    data)
{
  guint *with_records = data;
  gboolean anim = g_str_equal (dir, "sl-anim"), all_packed = TRUE;
  gsize referred = 0;

  if (clip == NULL)
    return;
  /* what the writers keep as read: binary SEQ's packed rotations; an
   * .anim's packed tracks when every track is */
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *t = &clip->joints[j].tracks[c];

        if (anim && c != SQ_CHANNEL_SCALE && !sq_track_is_packed (t) && t->n_keys > 0)
          all_packed = FALSE;
        if (sq_track_is_packed (t) && (anim || c == SQ_CHANNEL_ROTATION))
          referred += t->n_keys * (anim ? 8 : 20);
      }
  if (anim && (!all_packed || sq_props_get_uint (clip->extra, "version", 1) != 1))
    referred = 0;
  g_test_message ("%s: %zu bytes of records", path, referred);
  *with_records += referred > 0;
  assert_records_referred (bytes, anim ? sq_edit_sl_priority_new (2) : sq_edit_rename_root_new ("renamed"),
                           referred);
}

static void
test_pieces_records (void)
{
  const char * const dirs[] = { "seq-binary", "sl-anim", NULL };
  guint with_records = 0;

  if (each_corpus_file (dirs, records_referred, &with_records))
    g_assert_cmpuint (with_records, >, 0);
}

static void
same_both_ways (const char *dir G_GNUC_UNUSED,
                const char *path G_GNUC_UNUSED,
                guint       i,
                GBytes     *bytes,
                SqClip     *clip,
                gpointer    data G_GNUC_UNUSED)
{
  assert_same_both_ways (bytes);
  if (clip != NULL && i % 4 == 0)
    assert_writes_alike (clip);
}

static void
test_corpus (void)
{
  const char * const dirs[] = { "seq-binary", "sl-anim", "bvh", "dx-anim", NULL };

  each_corpus_file (dirs, same_both_ways, NULL);
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

/* ---- text SEQ read in parts ---------------------------------------------- */

/* Reads `bytes` as text SEQ on one thread, then in 2, 3 and 4 parts (the
 * threshold lowered to a byte): the same clip (axis-angle notation
 * included), the same warnings in the same order, or the same error. The
 * one-thread result goes to `one` and `error` when not NULL. */
static void
assert_text_same_in_parts (GBytes  *bytes,
                           SqClip **one_out,
                           GError **error_out)
{
  const SqFormat *format = sq_format_by_id ("seq-text");
  g_autoptr(SqClip) one = NULL;
  g_autoptr(GError) error1 = NULL;

  _sq_parallel_set_limits (G_MAXSIZE, 1);
  one = sq_load_bytes (bytes, NULL, format, NULL, &error1);
  for (guint threads = 2; threads <= 4; threads++)
    {
      g_autoptr(SqClip) many = NULL;
      g_autoptr(GError) error = NULL;

      _sq_parallel_set_limits (1, threads);
      many = sq_load_bytes (bytes, NULL, format, NULL, &error);
      _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
      g_assert_true ((one == NULL) == (many == NULL));
      if (one == NULL)
        {
          g_assert_cmpint (error1->code, ==, error->code);
          g_assert_cmpstr (error1->message, ==, error->message);
          continue;
        }
      g_assert_true (sq_clip_equal (one, many));
      g_assert_cmpuint (one->warnings->len, ==, many->warnings->len);
      for (guint i = 0; i < one->warnings->len; i++)
        g_assert_cmpstr (one->warnings->pdata[i], ==, many->warnings->pdata[i]);
      for (gsize j = 0; j < one->n_joints; j++)
        {
          SqTrack ua, ub;
          const SqTrack *a = &ua, *b = &ub;

          /* the axis-angles kept, a packed track's once unpacked */
          sq_track_copy (&ua, &one->joints[j].tracks[SQ_CHANNEL_ROTATION]);
          sq_track_copy (&ub, &many->joints[j].tracks[SQ_CHANNEL_ROTATION]);
          sq_track_unpack (&ua);
          sq_track_unpack (&ub);

          g_assert_cmpmem (a->alt, a->n_keys * 4 * sizeof (double), b->alt, b->n_keys * 4 * sizeof (double));
          sq_track_clear (&ua);
          sq_track_clear (&ub);
        }
    }
  if (one != NULL)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (sq_clip_check (one, &error));
      g_assert_no_error (error);
    }
  if (one_out != NULL)
    *one_out = g_steal_pointer (&one);
  if (error_out != NULL)
    *error_out = g_steal_pointer (&error1);
}

/* A text SEQ of 12 limbs of 30 keys as lines (without their ends), with
 * what the reader warns about spread over it: keys out of order (limb 3), a
 * zero axis (limb 5), a repeated name (limb 7), scale on some lines (limb
 * 9), a key after the duration (limb 10), one key (limb 11); comments and
 * blank lines between and inside limbs; a limb name of digits. */
static GPtrArray *
text_lines (void)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (lines, g_strdup ("AWSQ Version=1 Limbs=12 Duration=1000"));
  for (guint l = 0; l < 12; l++)
    {
      guint n = l == 11 ? 1 : 30;

      if (l % 4 == 1)
        g_ptr_array_add (lines, g_strdup ("# between limbs"));
      if (l % 5 == 2)
        g_ptr_array_add (lines, g_strdup (""));
      if (l == 7)
        g_ptr_array_add (lines, g_strdup ("limb2 frames=30"));
      else if (l == 8)
        g_ptr_array_add (lines, g_strdup ("  88 frames = 30  "));
      else
        g_ptr_array_add (lines, g_strdup_printf ("limb%u frames=%u", l, n));
      for (guint k = 0; k < n; k++)
        {
          guint ms = k * 33 + (l == 10 && k == n - 1 ? 900 : 0);

          if (l == 3 && k == 10)
            ms = 5;
          if (k == 15)
            g_ptr_array_add (lines, g_strdup ("// inside a limb"));
          if (l == 5 && k == 4)
            g_ptr_array_add (lines, g_strdup_printf ("%u 0 0 0 45 1 2 3", ms));
          else if (l == 9 && k % 3 == 0)
            g_ptr_array_add (lines, g_strdup_printf ("%u,0.5,-0.25,0.125,%u.5,%u,-%u.0625,1e-3,1,1.5,2", ms, k, l, k));
          else
            g_ptr_array_add (lines, g_strdup_printf ("%u 0.%u %u.25 -0.5 %u.75 %u -%u.5 0.0%u", ms, k + 1, l, k * 7, k, l, k));
        }
    }
  return lines;
}

/* The lines with their ends: CRLF, LF for limbs 4 to 6, a lone CR for some */
static GBytes *
text_join (GPtrArray *lines)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < lines->len; i++)
    {
      g_string_append (s, lines->pdata[i]);
      if (i > 150 && i < 250)
        g_string_append (s, "\n");
      else if (i % 17 == 9)
        g_string_append (s, "\r");
      else
        g_string_append (s, "\r\n");
    }
  return g_string_free_to_bytes (s);
}

/* The line of `lines` that starts with `prefix` */
static guint
line_with (GPtrArray  *lines,
           const char *prefix)
{
  for (guint i = 0; i < lines->len; i++)
    if (g_str_has_prefix (lines->pdata[i], prefix))
      return i;
  g_assert_not_reached ();
}

static void
set_line (GPtrArray  *lines,
          guint       i,
          const char *text)
{
  g_free (lines->pdata[i]);
  lines->pdata[i] = g_strdup (text);
}

/* Reads the lines in parts and on one thread; the error must be `code` and
 * contain `where` */
static void
assert_text_error (GPtrArray   *lines,
                   SqErrorCode  code,
                   const char  *where)
{
  g_autoptr(GBytes) bytes = text_join (lines);
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = NULL;

  assert_text_same_in_parts (bytes, &clip, &error);
  g_test_message ("%s (expected %s)", error != NULL ? error->message : "(no error)", where);
  g_assert_null (clip);
  g_assert_error (error, SQ_ERROR, (int) code);
  g_assert_nonnull (strstr (error->message, where));
}

static void
test_text_parts (void)
{
  g_autoptr(GPtrArray) lines = text_lines ();
  g_autoptr(GBytes) bytes = text_join (lines);
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GError) error = NULL;
  guint mid = line_with (lines, "limb6 ") + 10, last = line_with (lines, "limb11 ") + 1;
  g_autofree char *where = NULL;

  assert_text_same_in_parts (bytes, &clip, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (clip->n_joints, ==, 12);
  g_assert_cmpstr (clip->joints[8].name, ==, "88");
  g_assert_cmpuint (clip->joints[9].tracks[SQ_CHANNEL_SCALE].n_keys, ==, 10);
  /* out of order, zero axis, repeated name, after the end, one key */
  g_assert_cmpuint (clip->warnings->len, ==, 5);
  g_assert_nonnull (strstr (clip->warnings->pdata[0], "limb3"));
  g_assert_nonnull (strstr (clip->warnings->pdata[1], "limb5"));
  g_assert_nonnull (strstr (clip->warnings->pdata[2], "more than once"));
  g_assert_nonnull (strstr (clip->warnings->pdata[3], "limb10"));
  g_assert_nonnull (strstr (clip->warnings->pdata[4], "limb11"));

  /* one limb: the parts after the first find no limb header to start at */
  {
    GString *one = g_string_new ("AWSQ Version=1 Limbs=1 Duration=2000\r\npelvis frames=60\r\n");
    g_autoptr(GBytes) one_bytes = NULL;
    g_autoptr(SqClip) one_clip = NULL;

    for (guint k = 0; k < 60; k++)
      g_string_append_printf (one, "%u 0 1 0 %u 0 0 %u\r\n", k * 33, k, k);
    one_bytes = g_string_free_to_bytes (one);
    assert_text_same_in_parts (one_bytes, &one_clip, NULL);
    g_assert_nonnull (one_clip);
    g_assert_cmpuint (one_clip->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 60);
  }

  /* an error in the first limb, in the middle one, in the last */
  {
    g_autoptr(GPtrArray) bad = text_lines ();

    set_line (bad, 3, "33 0 0 1 x 0 0 0");
    assert_text_error (bad, SQ_ERROR_SYNTAX, "line 4, column 10");
  }
  {
    g_autoptr(GPtrArray) bad = text_lines ();

    set_line (bad, mid, "297 0 0 1 0 0 0 0 0");
    where = g_strdup_printf ("line %u, column 20", mid + 1);
    assert_text_error (bad, SQ_ERROR_SYNTAX, where);
    g_clear_pointer (&where, g_free);
  }
  {
    g_autoptr(GPtrArray) bad = text_lines ();

    set_line (bad, last, "0 0 0 1 0 0 0 0.5.5");
    where = g_strdup_printf ("line %u, column 15", last + 1);
    assert_text_error (bad, SQ_ERROR_SYNTAX, where);
    g_clear_pointer (&where, g_free);
  }
  /* two keys at one time in the middle limb: at its header */
  {
    g_autoptr(GPtrArray) bad = text_lines ();

    set_line (bad, mid, "264 0 0 1 0 0 0 0");
    where = g_strdup_printf ("line %u, column 1", line_with (bad, "limb6 ") + 1);
    assert_text_error (bad, SQ_ERROR_BAD_VALUE, where);
    g_clear_pointer (&where, g_free);
  }
  /* a limb header in error in the middle; a frame count that takes the
   * next limb header for a key line */
  {
    g_autoptr(GPtrArray) bad = text_lines ();
    guint at = line_with (bad, "limb6 ");

    set_line (bad, at, "limb6 frames=0");
    where = g_strdup_printf ("line %u, column 14", at + 1);
    assert_text_error (bad, SQ_ERROR_BAD_VALUE, where);
    g_clear_pointer (&where, g_free);
    set_line (bad, at, "limb6 frames=31");
    /* 30 keys, a comment among them, a blank line, the next header */
    where = g_strdup_printf ("line %u, column 1", at + 34);
    assert_text_error (bad, SQ_ERROR_SYNTAX, where);
    g_clear_pointer (&where, g_free);
  }
  /* more limbs than the header says: at the first one over, also with an
   * error after it; fewer: at the end */
  {
    g_autoptr(GPtrArray) bad = text_lines ();

    set_line (bad, 0, "AWSQ Version=1 Limbs=11 Duration=1000");
    where = g_strdup_printf ("line %u, column 1", last);
    assert_text_error (bad, SQ_ERROR_SYNTAX, where);
    g_clear_pointer (&where, g_free);
    set_line (bad, 0, "AWSQ Version=1 Limbs=4 Duration=1000");
    set_line (bad, mid, "x");
    where = g_strdup_printf ("line %u, column 1", line_with (bad, "limb4 ") + 1);
    assert_text_error (bad, SQ_ERROR_SYNTAX, where);
    g_clear_pointer (&where, g_free);
    set_line (bad, 0, "AWSQ Version=1 Limbs=13 Duration=1000");
    set_line (bad, mid, "297 0 0 1 0 0 0 0");
    where = g_strdup_printf ("line %u, column 1", bad->len + 1);
    assert_text_error (bad, SQ_ERROR_TRUNCATED, where);
    g_clear_pointer (&where, g_free);
  }
  /* the last limb short of a key */
  {
    g_autoptr(GPtrArray) bad = text_lines ();

    set_line (bad, last - 1, "limb11 frames=2");
    where = g_strdup_printf ("line %u, column 1", bad->len + 1);
    assert_text_error (bad, SQ_ERROR_TRUNCATED, where);
    g_clear_pointer (&where, g_free);
  }
  /* a NUL byte in a comment near the end, with an error before it */
  {
    g_autoptr(GPtrArray) bad = text_lines ();
    g_autoptr(GBytes) nul = NULL;
    GByteArray *b;
    gsize size;
    const guint8 *data;

    set_line (bad, mid, "x");
    g_ptr_array_insert (bad, last, g_strdup ("#  "));
    nul = text_join (bad);
    data = g_bytes_get_data (nul, &size);
    b = g_byte_array_new ();
    g_byte_array_append (b, data, size);
    for (gsize i = size - 1; i > 0; i--)
      if (b->data[i] == '#')
        {
          b->data[i + 1] = '\0';
          where = g_strdup_printf ("(%zu)", i + 1);
          break;
        }
    g_bytes_unref (nul);
    nul = g_byte_array_free_to_bytes (b);
    g_clear_pointer (&clip, sq_clip_free);
    g_clear_error (&error);
    assert_text_same_in_parts (nul, &clip, &error);
    g_assert_error (error, SQ_ERROR, SQ_ERROR_SYNTAX);
    g_assert_nonnull (strstr (error->message, "NUL"));
    g_assert_nonnull (strstr (error->message, where));
  }
}

/* The binary SEQ corpus written as text SEQ, read in parts */
static void
test_text_parts_corpus (void)
{
  g_autoptr(GPtrArray) files = NULL;

  files = tu_corpus_files ("seq-binary");
  for (guint i = 0; i < files->len; i++)
    {
      g_autoptr(GBytes) bytes = tu_read (files->pdata[i]);
      g_autoptr(SqClip) clip = tu_load (bytes, NULL);
      g_autoptr(GBytes) text = NULL;
      g_autoptr(SqClip) again = NULL;

      if (clip == NULL)
        continue;
      text = tu_save (clip, "seq-text", NULL);
      assert_text_same_in_parts (text, &again, NULL);
      g_assert_nonnull (again);
      g_assert_cmpuint (again->n_joints, ==, clip->n_joints);
    }
  g_assert_cmpuint (files->len, >, 0);
}

/* Random changes to the lines (a byte, a line removed, doubled, a limb
 * header put in): in parts as on one thread, whatever comes out */
static void
test_text_parts_mutated (void)
{
  static const char bytes_in[] = "0 1-.e#/,\t\r\n=fx";
  GRand *rand = g_rand_new_with_seed (4242);
  guint failed = 0, more_warnings = 0, n = 600;
  g_autoptr(GHashTable) kinds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GPtrArray) lines = text_lines ();
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(SqClip) clip = NULL;
      g_autoptr(GError) error = NULL;
      guint changes = g_rand_int_range (rand, 1, 3);

      for (guint c = 0; c < changes; c++)
        {
          guint at = g_rand_int_range (rand, 1, lines->len);
          char *line = lines->pdata[at];

          switch (g_rand_int_range (rand, 0, 7))
            {
            case 0:           /* a digit for a digit: times out of order, alike, after the end */
              for (char *p = line; *p != '\0'; p++)
                if (g_ascii_isdigit (*p) && g_rand_int_range (rand, 0, 4) == 0)
                  {
                    *p = '0' + g_rand_int_range (rand, 0, 10);
                    break;
                  }
              break;
            case 1:
              if (line[0] != '\0')
                line[g_rand_int_range (rand, 0, strlen (line))] = bytes_in[g_rand_int_range (rand, 0, sizeof bytes_in - 1)];
              break;
            case 2:
              g_ptr_array_remove_index (lines, at);
              break;
            case 3:
              g_ptr_array_insert (lines, at, g_strdup (line));
              break;
            case 4:
              g_ptr_array_insert (lines, at, g_strdup_printf ("new%u frames=%u", at, g_rand_int_range (rand, 0, 40)));
              break;
            case 5:
              g_ptr_array_insert (lines, at, g_strdup (g_rand_boolean (rand) ? "# new" : " "));
              break;
            default:
              set_line (lines, 0, g_rand_boolean (rand) ? "AWSQ Version=1 Limbs=11 Duration=1000"
                                                         : "AWSQ Version=1 Limbs=13 Duration=1000");
              break;
            }
        }
      bytes = text_join (lines);
      assert_text_same_in_parts (bytes, &clip, &error);
      if (clip == NULL)
        {
          /* the message without its numbers */
          g_autofree char *kind = g_strdup (strchr (error->message, ':') != NULL ? strchr (error->message, ':') + 2 : error->message);

          for (char *p = kind; *p != '\0'; p++)
            if (g_ascii_isdigit (*p))
              *p = '#';
          g_hash_table_add (kinds, g_steal_pointer (&kind));
          failed++;
        }
      else if (clip->warnings->len > 5)
        more_warnings++;
    }
  {
    GHashTableIter iter;
    gpointer key;

    g_hash_table_iter_init (&iter, kinds);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      g_test_message ("error: %s", (const char *) key);
  }
  g_test_message ("%u of %u changed files read with more warnings", more_warnings, n);
  g_rand_free (rand);
  g_test_message ("%u of %u changed files failed to read", failed, n);
  g_assert_cmpuint (failed, >, n / 4);
  g_assert_cmpuint (failed, <, n * 9 / 10);
  g_assert_cmpuint (more_warnings, >, 10);
  g_assert_cmpuint (g_hash_table_size (kinds), >=, 8);
}

/* "line L, column C:" of byte `at`, lines ended as the reader takes them
 * (LF, CRLF or CR alone) */
static char *
dx_where (const guint8 *text,
          gsize         len,
          gsize         at)
{
  guint line = 1;
  gsize line_start = 0;

  for (gsize k = 0; k < at; k++)
    if (text[k] == '\n' || (text[k] == '\r' && (k + 1 >= len || text[k + 1] != '\n')))
      {
        line++;
        line_start = k + 1;
      }
  return g_strdup_printf ("line %u, column %zu:", line, at - line_start + 1);
}

/* A DirectX .x file read by blocks of keys (on four threads, or in order
 * on one) must give what reading it in place gives: the same clip, the
 * same warnings in the same order, the same first error with its line and
 * column (in a middle block, in the last, before an error of the first
 * pass, a NUL byte, a cut). A "}" in a comment of the first block makes
 * the reader read the whole file in place, so each text is read three
 * ways. */
static void
test_big_dx (void)
{
  const guint n_joints = 10, n_keys = 300;
  GString *s = g_string_new ("xof 0303txt 0032\r\n// generated\r\nAnimationSet walk {\r\n"
                             "  AnimTicksPerSecond {\r\n    24;\r\n  }\r\n");
  gsize first_key_end = 0, mid_value = 0, last_value = 0, truncate_at = 0, ind_at = 0;

  for (guint j = 0; j < n_joints; j++)
    {
      /* joint 6 names no frame; joint 3 names a second one after its first block */
      g_string_append_printf (s, "  Animation anim%u {\r\n", j);
      if (j != 6)
        g_string_append_printf (s, "    {j%u}\r\n", j);
      for (guint block = 0; block < (j == 7 ? 3u : 2u); block++)
        {
          /* types: rotation then position; joint 4 matrix keys of a
           * non-uniform scale; joint 7 a second position block, half of
           * its ticks those of the first, out of order */
          guint type = j == 4 ? 4 : block == 0 ? 0 : 2;
          guint nv = type == 0 ? 4 : type == 4 ? 16 : 3;
          /* line ends: CRLF, LF alone in joint 8's blocks, CR alone in joint 2's second */
          const char *eol = j == 8 ? "\n" : j == 2 && block == 1 ? "\r" : "\r\n";

          if (j == 4 && block == 1)
            break;
          g_string_append_printf (s, "    AnimationKey {%s      %u;%s      %u;%s", eol, type, eol, n_keys, eol);
          for (guint k = 0; k < n_keys; k++)
            {
              guint tick = block == 2 ? 150 + (k * 7) % n_keys : k * 2;

              g_string_append_printf (s, "      %u;%u;", tick, nv);
              for (guint v = 0; v < nv; v++)
                {
                  char num[G_ASCII_DTOSTR_BUF_SIZE];
                  double x = (double) ((k * 31 + v * 17 + j * 7) % 199) / 199.0 - 0.5;

                  if (type == 4)
                    x = v == 0 ? 1.0 : v == 5 ? 2.0 : v == 10 || v == 15 ? 1.0 : v >= 12 ? x : 0.0;
                  if (j == 5 && block == 0 && k == 150 && v == 0)
                    mid_value = s->len;
                  if (j == n_joints - 1 && block == 1 && k == 200 && v == 1)
                    last_value = s->len;
                  if (j == n_joints - 1 && block == 1 && k == 250 && v == 0)
                    truncate_at = s->len + 2;
                  if ((j == 2 || j == 5) && block == 0 && k == 40 && v == 2)
                    {
                      /* joint 2's is said, joint 5's not */
                      ind_at = ind_at == 0 ? s->len : ind_at;
                      g_string_append (s, "-1.#IND00");
                    }
                  else
                    g_string_append (s, g_ascii_dtostr (num, sizeof num, x));
                  if (v + 1 < nv)
                    g_string_append_c (s, ',');
                }
              g_string_append (s, k + 1 < n_keys ? ";;," : ";;;");
              if (j == 0 && block == 0 && k == 0)
                first_key_end = s->len;
              if (j == 1 && k % 50 == 7)
                g_string_append (s, " // a comment");
              g_string_append (s, eol);
            }
          g_string_append_printf (s, "    }%s", eol);
          if (j == 3 && block == 0)
            g_string_append (s, "    { j3b }\r\n");
        }
      g_string_append (s, "  }\r\n");
    }
  g_string_append (s, "}\r\nAnimationSet other {\r\n  Animation { {x} }\r\n}\r\n");

  const struct
  {
    const char *what;
    gsize       at;               /* where the text is changed */
    char        byte;             /* to this (0: a NUL) … */
    gboolean    stray;            /* … and/or a "}" added at the end */
    gboolean    cut;              /* or the text cut at `at` */
    SqErrorCode code;
    gsize       error_at;         /* G_MAXSIZE: no error, else where it is */
  } variants[] = {
    { "good", 0, 0, FALSE, FALSE, 0, G_MAXSIZE },
    { "middle", mid_value, 'x', FALSE, FALSE, SQ_ERROR_SYNTAX, mid_value },
    { "last", last_value, 'x', FALSE, FALSE, SQ_ERROR_SYNTAX, last_value },
    { "stray", 0, 0, TRUE, FALSE, SQ_ERROR_SYNTAX, s->len },
    { "middle+stray", mid_value, 'x', TRUE, FALSE, SQ_ERROR_SYNTAX, mid_value },
    { "nul", last_value, 0, TRUE, FALSE, SQ_ERROR_SYNTAX, last_value },
    { "cut", truncate_at, 0, FALSE, TRUE, SQ_ERROR_TRUNCATED, truncate_at },
  };

  for (guint i = 0; i < G_N_ELEMENTS (variants); i++)
    {
      GByteArray *text = g_byte_array_new ();
      SqClip *clips[3] = { NULL, NULL, NULL };
      GError *errors[3] = { NULL, NULL, NULL };

      g_byte_array_append (text, (const guint8 *) s->str, variants[i].cut ? variants[i].at : s->len);
      if (variants[i].at > 0 && !variants[i].cut)
        text->data[variants[i].at] = (guint8) variants[i].byte;
      if (variants[i].stray)
        g_byte_array_append (text, (const guint8 *) "}\r\n", 3);
      for (guint way = 0; way < 3; way++)
        {
          g_autoptr(GBytes) bytes = NULL;
          GByteArray *copy = g_byte_array_new ();

          g_byte_array_append (copy, text->data, first_key_end);
          if (way == 2)
            g_byte_array_append (copy, (const guint8 *) " // }", 5);   /* the same lines */
          g_byte_array_append (copy, text->data + first_key_end, text->len - first_key_end);
          bytes = g_byte_array_free_to_bytes (copy);
          if (way == 0)
            _sq_parallel_set_limits (G_MAXSIZE, 1);
          else
            _sq_parallel_set_limits (1, 4);
          clips[way] = sq_load_bytes (bytes, NULL, sq_format_by_id ("dx"), NULL, &errors[way]);
          _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
          if (clips[way] != NULL)
            {
              g_assert_true (sq_clip_check (clips[way], NULL));
              if (way > 0)
                {
                  g_assert_true (sq_clip_equal (clips[0], clips[way]));
                  g_assert_cmpuint (clips[0]->warnings->len, ==, clips[way]->warnings->len);
                  for (guint w = 0; w < clips[0]->warnings->len; w++)
                    g_assert_cmpstr (clips[0]->warnings->pdata[w], ==, clips[way]->warnings->pdata[w]);
                }
            }
        }
      g_test_message ("%s: %s", variants[i].what, errors[0] ? errors[0]->message : "read");
      if (variants[i].error_at == G_MAXSIZE)
        {
          const SqClip *clip = clips[0];
          g_autofree char *ind_where = dx_where (text->data, text->len, ind_at);
          g_autofree char *ind_line = g_strndup (ind_where, strchr (ind_where, ',') - ind_where);
          const char * const expected[] = {
            ind_line, "“-1.#IND00” (not a number)", "a second frame reference", "joint “j4”: matrix keys with non-uniform scale",
            "an Animation names no frame; it is called “anim6”", "joint “j7”: 150 keys repeat the tick",
          };

          g_assert_nonnull (clip);
          for (guint w = 0; w < clip->warnings->len; w++)
            g_test_message ("  %s", (const char *) clip->warnings->pdata[w]);
          g_assert_cmpuint (clip->warnings->len, ==, G_N_ELEMENTS (expected) - 1);
          g_assert_true (g_str_has_prefix (clip->warnings->pdata[0], ind_line));
          for (guint w = 1; w < G_N_ELEMENTS (expected); w++)
            g_assert_nonnull (strstr (clip->warnings->pdata[w - 1], expected[w]));
          g_assert_cmpuint (clip->n_joints, ==, n_joints);
          g_assert_cmpstr (clip->joints[6].name, ==, "anim6");
          g_assert_cmpuint (clip->joints[4].tracks[SQ_CHANNEL_SCALE].n_keys, ==, n_keys);
          g_assert_cmpfloat (sq_track_key (&clip->joints[4].tracks[SQ_CHANNEL_SCALE], 9).v[1], ==, 2.0);
          g_assert_cmpuint (clip->joints[7].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, n_keys + n_keys / 2);
          /* ticks 0, 2, … 148, then 150, 151, … 449 (the odd ones from the second block) */
          g_assert_cmpfloat (sq_track_time (&clip->joints[7].tracks[SQ_CHANNEL_TRANSLATION], n_keys), ==, 375 / 24.0);
          g_assert_cmpfloat (clip->duration, ==, (2 * n_keys - 2) / 24.0);
        }
      else
        {
          g_autofree char *where = dx_where (text->data, text->len, variants[i].error_at);
          g_assert_null (clips[0]);
          g_assert_error (errors[0], SQ_ERROR, (gint) variants[i].code);
          g_test_message ("  expected at %s", where);
          if (!variants[i].cut)
            g_assert_true (g_str_has_prefix (errors[0]->message, where));
          for (guint way = 1; way < 3; way++)
            {
              g_assert_null (clips[way]);
              g_assert_error (errors[way], SQ_ERROR, (gint) variants[i].code);
              g_assert_cmpstr (errors[0]->message, ==, errors[way]->message);
            }
        }
      for (guint way = 0; way < 3; way++)
        {
          g_clear_error (&errors[way]);
          g_clear_pointer (&clips[way], sq_clip_free);
        }
      g_byte_array_unref (text);
    }
  g_string_free (s, TRUE);
}

/* A BVH above the threshold (about 9.5 MB): a root with positions and 40
 * joints, `frames` frames announced, `written` written, frame `bad` (when
 * below written) with a value that is no number */
static GBytes *
big_bvh (guint frames,
         guint written,
         guint bad)
{
  const guint n_joints = 40;
  GString *s = g_string_new ("HIERARCHY\nROOT hips\n{\n\tOFFSET 0 0 0\n"
                             "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n");

  for (guint j = 0; j < n_joints; j++)
    g_string_append_printf (s, "\tJOINT j%u\n\t{\n\t\tOFFSET 0 1 0\n\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
                            "\t\tEnd Site\n\t\t{\n\t\t\tOFFSET 0 1 0\n\t\t}\n\t}\n", j);
  g_string_append_printf (s, "}\nMOTION\nFrames: %u\nFrame Time: 0.0333333\n", frames);
  for (guint f = 0; f < written; f++)
    {
      for (guint v = 0; v < 6 + 3 * n_joints; v++)
        {
          guint x = (f * 131 + v * 7919) % 360000;

          if (v > 0)
            g_string_append_c (s, ' ');
          if (f == bad && v == 50)
            g_string_append (s, "1.2.3");
          else
            g_string_append_printf (s, "%s%u.%04u", x & 1 ? "-" : "", x / 2000, x % 2000 * 5);
        }
      g_string_append_c (s, '\n');
    }
  return g_string_free_to_bytes (s);
}

/* The frames of a big BVH read in parts on several threads, with the real
 * threshold: the same clip, or the same first error, as on one thread */
static void
test_big_bvh (void)
{
  const guint n = 8000;
  g_autoptr(GBytes) good = big_bvh (n, n, G_MAXUINT);
  g_autoptr(GBytes) bad_middle = big_bvh (n, n, n / 2);
  g_autoptr(GBytes) bad_end = big_bvh (n, n, n - 1);
  g_autoptr(GBytes) short_frames = big_bvh (n + 3, n, G_MAXUINT);
  g_autoptr(GBytes) more_lines = big_bvh (n - 1000, n, G_MAXUINT);
  GBytes *all[] = { good, bad_middle, bad_end, short_frames, more_lines };

  g_assert_cmpuint (g_bytes_get_size (good), >, SQ_PARALLEL_MIN_BYTES);
  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    {
      g_autoptr(SqClip) one = NULL, more = NULL;
      g_autoptr(GError) error1 = NULL, error = NULL;

      assert_same_both_ways (all[i]);
      _sq_parallel_set_limits (G_MAXSIZE, 1);
      one = tu_load (all[i], &error1);
      _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
      more = tu_load (all[i], &error);
      g_assert_true ((one == NULL) == (more == NULL));
      if (one != NULL)
        {
          g_assert_true (sq_clip_equal (one, more));
          g_assert_cmpuint (one->warnings->len, ==, more->warnings->len);
          for (guint w = 0; w < one->warnings->len; w++)
            g_assert_cmpstr (one->warnings->pdata[w], ==, more->warnings->pdata[w]);
        }
      else
        g_assert_cmpstr (error1->message, ==, error->message);
    }

  /* the messages themselves: the bad value's line and column, the frame
   * the file ends in, the line of the text after the frames */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(SqClip) clip = NULL;
    /* 5 lines of the root, 9 a joint, 4 more before the frames */
    g_autofree char *where = g_strdup_printf ("line %u,", 5 + 40 * 9 + 4 + n / 2 + 1);

    _sq_parallel_set_limits (1, 4);
    g_assert_null (tu_load (bad_middle, &error));
    g_assert_error (error, SQ_ERROR, SQ_ERROR_SYNTAX);
    g_assert_nonnull (strstr (error->message, where));
    g_assert_nonnull (strstr (error->message, "1.2.3"));
    g_clear_error (&error);
    g_assert_null (tu_load (short_frames, &error));
    g_assert_error (error, SQ_ERROR, SQ_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (error->message, "frame 8001 of 8003"));
    clip = tu_load_ok (more_lines);
    _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
    g_assert_cmpuint (clip->joints[40].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, n - 1000);
    g_assert_cmpuint (clip->warnings->len, ==, 1);
    g_assert_nonnull (strstr (clip->warnings->pdata[0], "line 7370:"));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/parallel/split", test_split);
  g_test_add_func ("/parallel/prefault", test_prefault);
  g_test_add_func ("/parallel/corpus", test_corpus);
  g_test_add_func ("/parallel/pieces", test_pieces);
  g_test_add_func ("/parallel/pieces-records", test_pieces_records);
  g_test_add_func ("/parallel/big-seq", test_big_seq);
  g_test_add_func ("/parallel/big-anim", test_big_anim);
  g_test_add_func ("/parallel/text-parts", test_text_parts);
  g_test_add_func ("/parallel/text-parts-corpus", test_text_parts_corpus);
  g_test_add_func ("/parallel/text-parts-mutated", test_text_parts_mutated);
  g_test_add_func ("/parallel/big-dx", test_big_dx);
  g_test_add_func ("/parallel/big-bvh", test_big_bvh);
  return g_test_run ();
}
