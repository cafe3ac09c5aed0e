/* test-seq-binary.c: ActiveWorlds binary SEQ, read and written exactly
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "test-utils.h"

/* A small file with every feature: two joints, three location blocks whose
 * frames differ, a facing block and an unknown float block. */
static GBytes *
build_full (guint32     magic,
            const char *model,
            const char *root,
            gboolean    with_blocks)
{
  GByteArray *b = g_byte_array_new ();

  tu_be32 (b, magic);
  tu_be16 (b, 31);
  tu_be32 (b, 2);
  tu_name (b, model);
  tu_name (b, root);

  tu_name (b, "pelvis");
  tu_be32 (b, 16);
  tu_be32 (b, 2);
  tu_be32 (b, 1); tu_f32 (b, 1); tu_f32 (b, 0); tu_f32 (b, 0); tu_f32 (b, 0);
  tu_be32 (b, 31); tu_f32 (b, 0.70710677f); tu_f32 (b, 0); tu_f32 (b, 0.70710677f); tu_f32 (b, 0);

  tu_name (b, "lfknee");
  tu_be32 (b, 16);
  tu_be32 (b, 1);
  tu_be32 (b, 16); tu_f32 (b, 0.5f); tu_f32 (b, 0.5f); tu_f32 (b, 0.5f); tu_f32 (b, 0.5f);

  if (with_blocks)
    {
      tu_be32 (b, 5);
      tu_be32 (b, 4); tu_be32 (b, 2);                       /* X: frames 1, 31 */
      tu_be32 (b, 1); tu_f32 (b, 0);
      tu_be32 (b, 31); tu_f32 (b, 1.5f);
      tu_be32 (b, 4); tu_be32 (b, 1);                       /* Y: frame 1 */
      tu_be32 (b, 1); tu_f32 (b, 0.25f);
      tu_be32 (b, 4); tu_be32 (b, 2);                       /* Z: frames 1, 16 */
      tu_be32 (b, 1); tu_f32 (b, 0);
      tu_be32 (b, 16); tu_f32 (b, -2);
      tu_be32 (b, 16); tu_be32 (b, 1);                      /* facing */
      tu_be32 (b, 1); tu_f32 (b, 1); tu_f32 (b, 0); tu_f32 (b, 0); tu_f32 (b, 0);
      tu_be32 (b, 4); tu_be32 (b, 1);                       /* unknown */
      tu_be32 (b, 7); tu_f32 (b, 42);
    }
  return g_byte_array_free_to_bytes (b);
}

static void
assert_exact_roundtrip (GBytes *bytes)
{
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autoptr(GBytes) out = tu_save (clip, "seq-binary", NULL);
  g_autoptr(GBytes) again = NULL;

  g_assert_true (g_bytes_equal (bytes, out));
  /* and through the public path (unedited: the source itself) */
  again = sq_save_bytes (clip, clip->format, NULL, NULL, NULL);
  g_assert_true (g_bytes_equal (bytes, again));
}

static void
test_known_answer (void)
{
  g_autoptr(GBytes) bytes = build_full (0x7f7f7f79, "test", "pelvis", TRUE);
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  const SqTrack *rot, *loc;

  g_assert_cmpstr (clip->format->id, ==, "seq-binary");
  g_assert_cmpstr (clip->name, ==, "test");
  g_assert_cmpstr (clip->root, ==, "pelvis");
  g_assert_cmpfloat_with_epsilon (clip->duration, 1.0, 1e-12);
  g_assert_cmpuint (sq_clip_get_frame_count (clip), ==, 31);
  g_assert_cmpuint (clip->n_joints, ==, 2);
  g_assert_cmpuint (clip->warnings->len, ==, 0);

  rot = &clip->joints[0].tracks[SQ_CHANNEL_ROTATION];
  g_assert_cmpuint (rot->n_keys, ==, 2);
  g_assert_cmpfloat (sq_track_time (rot, 0), ==, 0.0);
  g_assert_cmpfloat_with_epsilon (sq_track_time (rot, 1), 1.0, 1e-12);
  g_assert_cmpfloat (sq_track_key (rot, 1).v[0], ==, (double) 0.70710677f);
  g_assert_cmpfloat (sq_track_key (rot, 1).v[2], ==, (double) 0.70710677f);
  g_assert_cmpfloat_with_epsilon (sq_track_time (&clip->joints[1].tracks[SQ_CHANNEL_ROTATION], 0), 0.5, 1e-12);

  /* location: keyed at the union of frames 1, 16, 31 */
  loc = &clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION];
  g_assert_cmpuint (loc->n_keys, ==, 3);
  g_assert_nonnull (loc->present);
  g_assert_cmpfloat_with_epsilon (sq_track_time (loc, 1), 0.5, 1e-12);
  g_assert_cmpfloat (sq_track_key (loc, 1).v[0], ==, 0.75);          /* X interpolated */
  g_assert_cmpfloat (sq_track_key (loc, 1).v[1], ==, 0.25);          /* Y held */
  g_assert_cmpfloat (sq_track_key (loc, 1).v[2], ==, -2.0);          /* Z given */
  g_assert_cmpuint (loc->present[1], ==, SQ_PRESENT_Z);
  g_assert_cmpfloat (sq_track_key (loc, 2).v[0], ==, 1.5);
  g_assert_cmpfloat (sq_track_key (loc, 2).v[2], ==, -2.0);          /* Z held after its end */
  g_assert_cmpuint (loc->present[2], ==, SQ_PRESENT_X);
  g_assert_cmpuint (loc->present[0], ==, SQ_PRESENT_ALL);

  g_assert_cmpuint (sq_props_get_uint (clip->extra, "magic", 0), ==, 0x7f7f7f79);
  g_assert_nonnull (sq_props_get (clip->extra, "blocks"));
  assert_exact_roundtrip (bytes);
}

static void
test_both_magics (void)
{
  g_autoptr(GBytes) a = build_full (0x7f7f7f7a, "m", "pelvis", TRUE);
  g_autoptr(SqClip) clip = tu_load_ok (a);

  g_assert_cmpuint (sq_props_get_uint (clip->extra, "magic", 0), ==, 0x7f7f7f7a);
  assert_exact_roundtrip (a);
}

static void
test_no_blocks (void)
{
  g_autoptr(GBytes) bytes = build_full (0x7f7f7f79, "wave", "pelvis", FALSE);
  g_autoptr(SqClip) clip = tu_load_ok (bytes);

  g_assert_false (sq_props_get_bool (clip->extra, "blocks-present", TRUE));
  g_assert_cmpuint (clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, 0);
  assert_exact_roundtrip (bytes);
}

static void
test_pelvis_anomaly (void)
{
  /* the model is called pelvis, the root is blank: the location belongs to
   * the joint called pelvis */
  g_autoptr(GBytes) bytes = build_full (0x7f7f7f79, "pelvis", "", TRUE);
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autofree char *json = sq_dump_json (clip);

  g_assert_cmpstr (clip->root, ==, "");
  g_assert_cmpstr (sq_clip_get_effective_root (clip), ==, "pelvis");
  g_assert_cmpint (sq_clip_get_root_index (clip), ==, 0);
  g_assert_cmpuint (clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, 3);
  g_assert_nonnull (strstr (json, "\"root\":\"pelvis\""));
  g_assert_nonnull (strstr (json, "\"name\":\"pelvis\""));
  assert_exact_roundtrip (bytes);
}

static void
test_root_without_entry (void)
{
  /* root "hips" has no joint entry: its locations form a joint listed last */
  g_autoptr(GBytes) bytes = build_full (0x7f7f7f79, "m", "hips", TRUE);
  g_autoptr(SqClip) clip = tu_load_ok (bytes);

  g_assert_cmpuint (clip->n_joints, ==, 3);
  g_assert_cmpstr (clip->joints[2].name, ==, "hips");
  g_assert_cmpuint (clip->joints[2].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 0);
  g_assert_cmpuint (clip->joints[2].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, 3);
  g_assert_cmpuint (clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, 0);
  assert_exact_roundtrip (bytes);
}

static void
test_latin1_and_odd_names (void)
{
  GByteArray *b = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SqClip) clip = NULL;
  static const guint8 odd[] = { 'b', 'a', 'c', 'k', 0, 'x', 'y' };   /* junk after the NUL */
  static const guint8 no_nul[] = { 'n', 'e', 'c', 'k' };

  tu_be32 (b, 0x7f7f7f79);
  tu_be16 (b, 2);
  tu_be32 (b, 3);
  tu_name (b, "Ren\xe9");            /* é in Latin-1 */
  tu_be16 (b, 0);                   /* empty root field: no NUL at all */
  tu_be16 (b, sizeof odd);
  g_byte_array_append (b, odd, sizeof odd);
  tu_be32 (b, 16); tu_be32 (b, 0);
  tu_be16 (b, sizeof no_nul);
  g_byte_array_append (b, no_nul, sizeof no_nul);
  tu_be32 (b, 16); tu_be32 (b, 0);
  tu_name (b, "\xe6\xf8\xe5");      /* æøå */
  tu_be32 (b, 16); tu_be32 (b, 1);
  tu_be32 (b, 2); tu_f32 (b, 1); tu_f32 (b, 0); tu_f32 (b, 0); tu_f32 (b, 0);
  bytes = g_byte_array_free_to_bytes (b);

  clip = tu_load_ok (bytes);
  g_assert_cmpstr (clip->name, ==, "René");
  g_assert_cmpstr (clip->root, ==, "");
  g_assert_cmpstr (clip->joints[0].name, ==, "back");
  g_assert_cmpstr (clip->joints[1].name, ==, "neck");
  g_assert_cmpstr (clip->joints[2].name, ==, "æøå");
  assert_exact_roundtrip (bytes);
}

static void
test_nan_payload (void)
{
  GByteArray *b = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SqClip) clip = NULL;

  tu_be32 (b, 0x7f7f7f79);
  tu_be16 (b, 1);
  tu_be32 (b, 1);
  tu_name (b, "m");
  tu_name (b, "pelvis");
  tu_name (b, "pelvis");
  tu_be32 (b, 16); tu_be32 (b, 1);
  tu_be32 (b, 1);
  tu_be32 (b, 0x7fa00001);          /* signalling NaN with a payload */
  tu_be32 (b, 0xffc12345);          /* negative quiet NaN */
  tu_be32 (b, 0x80000000);          /* -0 */
  tu_be32 (b, 0x00000001);          /* denormal */
  bytes = g_byte_array_free_to_bytes (b);
  clip = tu_load_ok (bytes);
  g_assert_true (isnan (sq_track_key (&clip->joints[0].tracks[0], 0).v[0]));
  assert_exact_roundtrip (bytes);
}

static void
test_unsorted_keys (void)
{
  GByteArray *b = tu_seq_header (10, 1);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SqClip) clip = NULL;

  tu_name (b, "back");
  tu_be32 (b, 16); tu_be32 (b, 2);
  tu_be32 (b, 9); tu_f32 (b, 1); tu_f32 (b, 0); tu_f32 (b, 0); tu_f32 (b, 0);
  tu_be32 (b, 1); tu_f32 (b, 0); tu_f32 (b, 1); tu_f32 (b, 0); tu_f32 (b, 0);
  bytes = g_byte_array_free_to_bytes (b);
  clip = tu_load_ok (bytes);
  g_assert_cmpuint (clip->warnings->len, ==, 1);
  g_assert_cmpfloat (sq_track_time (&clip->joints[0].tracks[0], 0), ==, 0.0);
  g_assert_cmpfloat (sq_track_key (&clip->joints[0].tracks[0], 0).v[1], ==, 1.0);
}

static void
expect_error (GBytes     *bytes,
              SqErrorCode code,
              const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = sq_load_bytes (bytes, NULL, sq_format_by_id ("seq-binary"), NULL, &error);

  g_assert_null (clip);
  g_assert_error (error, SQ_ERROR, (int) code);
  g_assert_nonnull (strstr (error->message, "offset"));
  if (fragment)
    g_assert_nonnull (strstr (error->message, fragment));
}

static void
test_errors (void)
{
  GByteArray *b;
  g_autoptr(GBytes) huge = NULL, magic = NULL, size = NULL, dup = NULL, keys = NULL;

  /* 60 bytes that announce four billion joints: refused before allocating */
  b = tu_seq_header (30, 0xffffffff);
  while (b->len < 60)
    g_byte_array_append (b, (const guint8 *) "", 1);
  huge = g_byte_array_free_to_bytes (b);
  expect_error (huge, SQ_ERROR_LIMIT_EXCEEDED, "4294967295");

  /* a key count four billion in a short file */
  b = tu_seq_header (30, 1);
  tu_name (b, "back");
  tu_be32 (b, 16);
  tu_be32 (b, 0xfffffff0);
  keys = g_byte_array_free_to_bytes (b);
  expect_error (keys, SQ_ERROR_LIMIT_EXCEEDED, "key count");

  b = g_byte_array_new ();
  tu_be32 (b, 0x7f7f7f78);
  tu_be16 (b, 30);
  magic = g_byte_array_free_to_bytes (b);
  expect_error (magic, SQ_ERROR_BAD_MAGIC, "7F7F7F78");

  b = tu_seq_header (30, 1);
  tu_name (b, "back");
  tu_be32 (b, 12);
  tu_be32 (b, 0);
  size = g_byte_array_free_to_bytes (b);
  expect_error (size, SQ_ERROR_BAD_VALUE, "record size 12");

  b = tu_seq_header (30, 1);
  tu_name (b, "back");
  tu_be32 (b, 16); tu_be32 (b, 2);
  tu_be32 (b, 3); tu_f32 (b, 1); tu_f32 (b, 0); tu_f32 (b, 0); tu_f32 (b, 0);
  tu_be32 (b, 3); tu_f32 (b, 1); tu_f32 (b, 0); tu_f32 (b, 0); tu_f32 (b, 0);
  dup = g_byte_array_free_to_bytes (b);
  expect_error (dup, SQ_ERROR_BAD_VALUE, "frame 3");
}

static void
test_truncations (void)
{
  g_autoptr(GBytes) bytes = build_full (0x7f7f7f79, "test", "pelvis", TRUE);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  guint failures = 0;

  /* every prefix: a clean error, or (where the prefix ends between blocks'
   * sections, e.g. right after the joints) a valid clip */
  for (gsize n = 0; n < len; n++)
    {
      g_autoptr(GBytes) prefix = g_bytes_new_static (data, n);
      g_autoptr(GError) error = NULL;
      g_autoptr(SqClip) clip = sq_load_bytes (prefix, NULL, sq_format_by_id ("seq-binary"), NULL, &error);

      if (clip == NULL)
        {
          g_assert_nonnull (error);
          g_assert_true (error->domain == SQ_ERROR);
          failures++;
        }
      else
        g_assert_true (sq_clip_check (clip, NULL));
    }
  g_assert_cmpuint (failures, >=, len - 1);
}

static void
test_corpus (void)
{
  g_autoptr(GPtrArray) files = tu_corpus_files ("seq-binary");

  for (guint i = 0; i < files->len; i++)
    {
      g_autoptr(GBytes) bytes = tu_read (files->pdata[i]);
      g_autoptr(SqClip) clip = tu_load_ok (bytes);

      g_test_message ("%s: %" G_GSIZE_FORMAT " joints, %" G_GSIZE_FORMAT " keys",
                      (char *) files->pdata[i], clip->n_joints, sq_clip_count_keys (clip));
      assert_exact_roundtrip (bytes);
      if (g_str_has_suffix (files->pdata[i], "maca.seq"))
        {
          g_assert_cmpstr (clip->name, ==, "lmarsha");
          g_assert_cmpuint (clip->n_joints, ==, 27);
          g_assert_cmpuint (sq_clip_get_frame_count (clip), ==, 413);
          g_assert_cmpuint (clip->joints[0].tracks[0].n_keys, ==, 88);
          g_assert_cmpuint (g_variant_n_children (sq_props_get (clip->extra, "blocks")), ==, 6);
        }
      if (g_str_has_suffix (files->pdata[i], "walk.seq"))
        {
          g_assert_cmpstr (clip->name, ==, "male");
          g_assert_cmpuint (clip->n_joints, ==, 44);
          g_assert_cmpuint (sq_clip_get_frame_count (clip), ==, 34);
          g_assert_cmpuint (sq_props_get_uint (clip->extra, "magic", 0), ==, 0x7f7f7f7a);
        }
    }
}

static void
test_sample (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "wave.seq", NULL);
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(SqClip) clip = tu_load_ok (bytes);

  g_assert_cmpuint (clip->n_joints, ==, 9);
  assert_exact_roundtrip (bytes);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/seq-binary/known-answer", test_known_answer);
  g_test_add_func ("/seq-binary/both-magics", test_both_magics);
  g_test_add_func ("/seq-binary/no-blocks", test_no_blocks);
  g_test_add_func ("/seq-binary/pelvis-anomaly", test_pelvis_anomaly);
  g_test_add_func ("/seq-binary/root-without-entry", test_root_without_entry);
  g_test_add_func ("/seq-binary/latin1-and-odd-names", test_latin1_and_odd_names);
  g_test_add_func ("/seq-binary/nan-payload", test_nan_payload);
  g_test_add_func ("/seq-binary/unsorted-keys", test_unsorted_keys);
  g_test_add_func ("/seq-binary/errors", test_errors);
  g_test_add_func ("/seq-binary/truncations", test_truncations);
  g_test_add_func ("/seq-binary/corpus", test_corpus);
  g_test_add_func ("/seq-binary/sample", test_sample);
  return g_test_run ();
}
