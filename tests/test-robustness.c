/* test-robustness.c: every reader against every truncation and against
 * random byte changes of every test file: a clean error or a valid clip,
 * never a crash, a hang or an allocation the input does not justify.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/resource.h>

#include "test-utils.h"

static guint n_tries;

static void
try_all_readers (const guint8 *data,
                 gsize         len)
{
  /* every reader on every input; the writers on a deterministic tenth of
   * the inputs that load (they are the slow half, and the stable-writes and
   * regressions tests write every file they have) */
  gboolean write = n_tries++ % 10 == 0;
  gsize n_formats;
  const SqFormat * const *formats = sq_formats (&n_formats);
  g_autoptr(GBytes) bytes = g_bytes_new (data, len);

  for (gsize f = 0; f <= n_formats; f++)
    {
      g_autoptr(GError) error = NULL;
      /* f == n_formats: detection */
      g_autoptr(SqClip) clip = sq_load_bytes (bytes, NULL, f < n_formats ? formats[f] : NULL, NULL, &error);

      if (clip == NULL)
        {
          g_assert_nonnull (error);
          g_assert_true (error->domain == SQ_ERROR);
          g_assert_cmpuint (strlen (error->message), >, 10);
        }
      else
        {
          g_autoptr(GError) werr = NULL;

          g_assert_no_error (error);
          g_assert_true (sq_clip_check (clip, NULL));
          /* a valid clip must also write in every format (or refuse cleanly) */
          for (gsize w = 0; write && w < n_formats; w++)
            {
              SqSaveOptions opts = { .no_source_copy = TRUE };
              g_autoptr(GBytes) o = sq_save_bytes (clip, formats[w], &opts, NULL, &werr);
              if (o == NULL)
                {
                  g_assert_nonnull (werr);
                  g_clear_error (&werr);
                }
            }
        }
    }
}

static GPtrArray *
test_inputs (void)
{
  GPtrArray *inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) files = tu_corpus_files ("seq-binary");
  g_autofree char *sample = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "wave.seq", NULL);
  g_autoptr(GBytes) wave = tu_read (sample);
  g_autoptr(SqClip) clip = tu_load_ok (wave);

  g_ptr_array_add (inputs, g_bytes_ref (wave));
  g_ptr_array_add (inputs, tu_save (clip, "seq-text", NULL));
  g_ptr_array_add (inputs, g_bytes_new_static (tu_spec_example, strlen (tu_spec_example)));
  for (guint i = 0; i < files->len; i++)
    g_ptr_array_add (inputs, tu_read (files->pdata[i]));
  return inputs;
}

static void
test_truncations (void)
{
  g_autoptr(GPtrArray) inputs = test_inputs ();

  for (guint i = 0; i < inputs->len; i++)
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (inputs->pdata[i], &len);
      /* every length for small files; for the larger ones every length in the
       * first and last 2 KiB and a stride through the middle */
      for (gsize n = 0; n < len; n++)
        {
          if (len > 4096 && n > 1024 && n < len - 1024 && n % 197 != 0)
            continue;
          try_all_readers (data, n);
        }
    }
}

static void
test_byte_changes (void)
{
  g_autoptr(GPtrArray) inputs = test_inputs ();
  GRand *rand = g_rand_new_with_seed (20261121);
  static const guint8 interesting[] = { 0x00, 0xff, 0x7f, 0x80, '\n', '\r', ' ', ',', '=', '#', '-', '.', 'e', '9' };

  for (guint i = 0; i < inputs->len; i++)
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (inputs->pdata[i], &len);
      g_autofree guint8 *copy = g_memdup2 (data, len);

      for (guint round = 0; round < 300; round++)
        {
          gsize pos = g_rand_int_range (rand, 0, (gint32) len);
          guint8 old = copy[pos];
          guint8 val = g_rand_boolean (rand) ? interesting[g_rand_int_range (rand, 0, sizeof interesting)]
                                             : (guint8) g_rand_int_range (rand, 0, 256);
          copy[pos] = val;
          try_all_readers (copy, len);
          copy[pos] = old;
        }
      /* and the header bytes, each through every value */
      for (gsize pos = 0; pos < MIN (len, 24); pos++)
        for (guint v = 0; v < 256; v += 7)
          {
            guint8 old = copy[pos];
            copy[pos] = v;
            try_all_readers (copy, len);
            copy[pos] = old;
          }
    }
  g_rand_free (rand);
}

/* Writing what was read back gives the same bytes (the fuzz-roundtrip
 * harness's property) */
static void
assert_stable_writes (GBytes *bytes)
{
  g_autoptr(SqClip) clip = sq_load_bytes (bytes, NULL, NULL, NULL, NULL);
  SqSaveOptions opts = { .no_source_copy = TRUE };
  gsize n_formats;
  const SqFormat * const *formats = sq_formats (&n_formats);

  if (clip == NULL)
    return;
  for (gsize f = 0; f < n_formats; f++)
    {
      g_autoptr(GBytes) once = sq_save_bytes (clip, formats[f], &opts, NULL, NULL);
      g_autoptr(SqClip) back = NULL;
      g_autoptr(GBytes) twice = NULL;

      if (once == NULL)
        continue;
      back = sq_load_bytes (once, NULL, formats[f], NULL, NULL);
      g_assert_nonnull (back);
      twice = sq_save_bytes (back, formats[f], &opts, NULL, NULL);
      /* glTF writes a clip of any world with that world's rest skeleton:
       * what it reads back is a glTF clip, whose second save is its own
       * (test-gltf.c checks that it reads back into the same clip) */
      if (formats[f]->flags & SQ_FORMAT_ANY_WORLD)
        {
          g_autoptr(SqClip) again = sq_load_bytes (twice, NULL, formats[f], NULL, NULL);
          g_assert_nonnull (again);
          g_assert_cmpuint (again->n_joints, ==, back->n_joints);
          continue;
        }
      g_assert_true (g_bytes_equal (once, twice));
    }
}

/* Every file the fuzzers ever found, replayed */
static void
test_regressions (void)
{
  g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, "data", "regressions", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autoptr(GBytes) bytes = NULL;

      if (g_str_equal (name, "README"))
        continue;
      bytes = tu_read (path);
      gsize len;
      const guint8 *data = g_bytes_get_data (bytes, &len);

      g_test_message ("replaying %s", name);
      try_all_readers (data, len);
      assert_stable_writes (bytes);
      n++;
    }
  g_assert_cmpuint (n, >, 0);
}

static void
test_stable_writes (void)
{
  g_autoptr(GPtrArray) inputs = test_inputs ();

  for (guint i = 0; i < inputs->len; i++)
    assert_stable_writes (inputs->pdata[i]);
}

int
main (int    argc,
      char **argv)
{
  struct rlimit limit = { 4ul << 30, 4ul << 30 };

  /* no reader may allocate what the input cannot justify: cap the address
   * space (sanitizer builds reserve huge shadow maps, so not there) */
  if (g_getenv ("SEQUIN_NO_RLIMIT") == NULL)
    setrlimit (RLIMIT_AS, &limit);

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/robustness/truncations", test_truncations);
  g_test_add_func ("/robustness/byte-changes", test_byte_changes);
  g_test_add_func ("/robustness/regressions", test_regressions);
  g_test_add_func ("/robustness/stable-writes", test_stable_writes);
  return g_test_run ();
}
