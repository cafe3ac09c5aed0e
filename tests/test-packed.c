/* test-packed.c: tracks left in a file's own records (SqKeyCodec)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Binary SEQ rotation tracks and .anim tracks whose keys come in time order
 * stay packed, and so do a Sims skill's tracks (coded in its CFP) and
 * glTF's LINEAR channels (floats in the buffer). A packed clip must be, in every respect the rest of the
 * program sees, the clip its decoded keys make: equal content, the same
 * samples, the same bytes and losses from every writer, the same results
 * from every edit, and undo gives the packed clip back.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sq-core.h"
#include "test-utils.h"

static guint
count_packed (const SqClip *clip)
{
  guint n = 0;

  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      n += sq_track_is_packed (&clip->joints[j].tracks[c]);
  return n;
}

static SqClip *
unpacked_copy (const SqClip *clip)
{
  SqClip *copy = sq_clip_copy (clip);

  tu_unpack (copy);
  g_assert_cmpuint (count_packed (copy), ==, 0);
  return copy;
}

/* Every writer: the same bytes (or the same refusal) and the same losses */
static void
assert_writes_alike (const SqClip *a,
                     const SqClip *b)
{
  g_autoptr(GPtrArray) saves_a = tu_save_every_format (a);
  g_autoptr(GPtrArray) saves_b = tu_save_every_format (b);

  tu_assert_same_saves (saves_a, saves_b);
}

/* Samples and searches at key times, between keys and beyond the ends */
static void
assert_samples_alike (const SqClip *a,
                      const SqClip *b)
{
  for (gsize j = 0; j < a->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *ta = &a->joints[j].tracks[c], *tb = &b->joints[j].tracks[c];
        gsize step = MAX (ta->n_keys / 50, 1);

        g_assert_cmpuint (ta->n_keys, ==, tb->n_keys);
        for (gsize k = 0; k < ta->n_keys; k += step)
          {
            double t = sq_track_time (ta, k);
            double probes[3] = { t, t + 0.004, t - 1.0 };

            g_assert_cmpint (sq_track_find (ta, t), ==, (gssize) k);
            g_assert_cmpint (sq_track_find (tb, t), ==, (gssize) k);
            for (guint p = 0; p < 3; p++)
              {
                double va[4], vb[4];

                sq_track_sample (ta, c, probes[p], va);
                sq_track_sample (tb, c, probes[p], vb);
                g_assert_cmpmem (va, sizeof va, vb, sizeof vb);
                g_assert_cmpuint (sq_track_lower_bound (ta, probes[p], 0, ta->n_keys), ==,
                                  sq_track_lower_bound (tb, probes[p], 0, tb->n_keys));
              }
          }
      }
}

static void
test_corpus (void)
{
  const char *dirs[] = { "seq-binary", "sl-anim" };
  guint n_files = 0, n_packed = 0;

  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autoptr(GPtrArray) files = tu_corpus_files (dirs[d]);

      for (guint i = 0; i < files->len; i++)
        {
          g_autoptr(GBytes) bytes = tu_read (files->pdata[i]);
          g_autoptr(SqClip) clip = tu_load (bytes, NULL);
          g_autoptr(SqClip) plain = NULL;
          g_autoptr(GError) error = NULL;

          if (clip == NULL)
            continue;
          n_files++;
          n_packed += count_packed (clip);
          plain = unpacked_copy (clip);
          g_assert_true (sq_clip_check (plain, &error));
          g_assert_no_error (error);
          g_assert_true (sq_clip_equal (clip, plain));
          g_assert_true (sq_clip_equal (plain, clip));
          assert_samples_alike (clip, plain);
          assert_writes_alike (clip, plain);
        }
    }
  g_test_message ("%u files, %u packed tracks", n_files, n_packed);
  g_assert_cmpuint (n_files, >, 100);
  g_assert_cmpuint (n_packed, >, 1000);
}

/* The same checks on what the text readers keep as their text (BVH
 * angles, text SEQ key lines: each key read from the text again): every
 * corpus BVH, and every corpus binary SEQ and .anim file converted to text
 * SEQ */
static void
check_text_packed (GBytes  *bytes,
                   guint   *n_files,
                   guint   *n_packed)
{
  g_autoptr(SqClip) clip = tu_load (bytes, NULL);
  g_autoptr(SqClip) plain = NULL;
  g_autoptr(GError) error = NULL;

  if (clip == NULL)
    return;
  (*n_files)++;
  *n_packed += count_packed (clip);
  plain = unpacked_copy (clip);
  g_assert_true (sq_clip_check (clip, &error));
  g_assert_no_error (error);
  g_assert_true (sq_clip_check (plain, &error));
  g_assert_no_error (error);
  g_assert_true (sq_clip_equal (clip, plain));
  assert_samples_alike (clip, plain);
  assert_writes_alike (clip, plain);
}

static void
test_text_records (void)
{
  const char *dirs[] = { "bvh", "seq-binary", "sl-anim" };
  guint n_files = 0, n_packed = 0;

  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autoptr(GPtrArray) files = tu_corpus_files (dirs[d]);

      for (guint i = 0; i < files->len && i < 20; i++)
        {
          g_autoptr(GBytes) bytes = tu_read (files->pdata[i]);
          g_autoptr(SqClip) clip = NULL;
          g_autoptr(GBytes) text = NULL;

          if (g_str_equal (dirs[d], "bvh"))
            {
              check_text_packed (bytes, &n_files, &n_packed);
              continue;
            }
          if ((clip = tu_load (bytes, NULL)) == NULL)
            continue;
          text = sq_save_bytes (clip, sq_format_by_id ("seq-text"), NULL, NULL, NULL);
          if (text != NULL)
            check_text_packed (text, &n_files, &n_packed);
        }
    }
  g_test_message ("%u files, %u packed tracks", n_files, n_packed);
  g_assert_cmpuint (n_files, >, 40);
  g_assert_cmpuint (n_packed, >, 500);
}

/* A packed clip lives on after the caller's bytes and the clip it was
 * copied from are gone (the tracks hold the bytes). */
static void
test_lifetime (void)
{
  GByteArray *b = tu_seq_header (40, 2);
  GBytes *bytes;
  SqClip *clip, *copy;
  g_autoptr(GBytes) out = NULL;
  SqSaveOptions opts = { .no_source_copy = TRUE };
  g_autoptr(GBytes) again = NULL;

  tu_seq_joint (b, "pelvis", 40);
  tu_seq_joint (b, "neck", 40);
  bytes = g_byte_array_free_to_bytes (b);
  clip = tu_load_ok (bytes);
  g_assert_cmpuint (count_packed (clip), ==, 2);
  out = g_bytes_ref (bytes);
  g_bytes_unref (bytes);
  copy = sq_clip_copy (clip);
  sq_clip_free (clip);
  g_assert_cmpfloat (sq_track_time (&copy->joints[1].tracks[SQ_CHANNEL_ROTATION], 39), ==, 39 / 30.0);
  again = sq_save_bytes (copy, copy->format, &opts, NULL, NULL);
  g_assert_true (g_bytes_equal (again, out));
  sq_clip_free (copy);
}

/* Which tracks stay packed: keys in order only, and for .anim a duration
 * above 0 (distinct codes give distinct times only then) */
static void
test_which (void)
{
  {
    GByteArray *b = tu_seq_header (10, 2);
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(SqClip) clip = NULL;

    tu_seq_joint (b, "pelvis", 3);
    tu_name (b, "neck");
    tu_be32 (b, 16);
    tu_be32 (b, 2);
    for (guint k = 0; k < 2; k++)
      {
        tu_be32 (b, 5 - k);        /* frames 5, 4: sorted with a warning */
        tu_f32 (b, 1), tu_f32 (b, 0), tu_f32 (b, 0), tu_f32 (b, 0);
      }
    bytes = g_byte_array_free_to_bytes (b);
    clip = tu_load_ok (bytes);
    g_assert_true (sq_track_is_packed (&clip->joints[0].tracks[SQ_CHANNEL_ROTATION]));
    g_assert_false (sq_track_is_packed (&clip->joints[1].tracks[SQ_CHANNEL_ROTATION]));
    g_assert_cmpfloat (sq_track_time (&clip->joints[1].tracks[SQ_CHANNEL_ROTATION], 0), ==, 3 / 30.0);
    g_assert_cmpuint (clip->warnings->len, ==, 1);
  }
  for (int zero = 0; zero < 2; zero++)
    {
      GByteArray *b = g_byte_array_new ();
      g_autoptr(GBytes) bytes = NULL, out = NULL;
      g_autoptr(SqClip) clip = NULL;
      SqSaveOptions opts = { .no_source_copy = TRUE };
      float duration = zero ? 0.0f : 2.0f;

      /* version 1.0, priority 3, duration, no emote, loop 0–duration off,
       * eases 0.5, hand pose 0, one joint */
      tu_le16 (b, 1), tu_le16 (b, 0);
      tu_le32 (b, 3);
      tu_le_f32 (b, duration);
      g_byte_array_append (b, (const guint8 *) "", 1);
      tu_le_f32 (b, 0), tu_le_f32 (b, duration);
      tu_le32 (b, 0);
      tu_le_f32 (b, 0.5f), tu_le_f32 (b, 0.5f);
      tu_le32 (b, 0);
      tu_le32 (b, 1);
      g_byte_array_append (b, (const guint8 *) "mPelvis", 8);
      tu_le32 (b, 3);
      tu_le32 (b, 1);                 /* one rotation key */
      tu_le16 (b, 100), tu_le16 (b, 32767), tu_le16 (b, 32767), tu_le16 (b, 32768);
      tu_le32 (b, 2);                 /* two position keys */
      tu_le16 (b, 0), tu_le16 (b, 1), tu_le16 (b, 2), tu_le16 (b, 3);
      tu_le16 (b, 9), tu_le16 (b, 1), tu_le16 (b, 2), tu_le16 (b, 3);
      tu_le32 (b, 0);
      bytes = g_byte_array_free_to_bytes (b);
      clip = tu_load (bytes, NULL);
      g_assert_nonnull (clip);
      g_assert_true (sq_track_is_packed (&clip->joints[0].tracks[SQ_CHANNEL_ROTATION]));
      /* at a duration of 0 both position keys are at 0 s: the last one stays */
      g_assert_true (sq_track_is_packed (&clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION]) == !zero);
      g_assert_cmpuint (clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, zero ? 1 : 2);
      if (!zero)
        {
          out = sq_save_bytes (clip, clip->format, &opts, NULL, NULL);
          g_assert_true (g_bytes_equal (out, bytes));
          g_clear_pointer (&out, g_bytes_unref);
          /* decoded, the 32768 and the time code at duration 0 are kept */
          tu_unpack (clip);
          g_assert_nonnull (clip->joints[0].tracks[SQ_CHANNEL_ROTATION].alt);
          out = sq_save_bytes (clip, clip->format, &opts, NULL, NULL);
          g_assert_true (g_bytes_equal (out, bytes));
        }
    }
}

static SqEdit *
make_edit (guint         i,
           const SqClip *clip)
{
  const char *first[] = { clip->joints[0].name, NULL };
  double t = sq_track_time (&clip->joints[0].tracks[SQ_CHANNEL_ROTATION], 2);

  switch (i)
    {
    case 0: return sq_edit_invert_xz_new (NULL);
    case 1: return sq_edit_invert_xz_new (first);
    case 2: return sq_edit_rescale_new (2.5);
    case 3: return sq_edit_set_first_frame_new (1, 2, 3);
    case 4: return sq_edit_delete_keys_new (clip->joints[0].name, t);
    case 5: return sq_edit_set_frame_rate_new (24);
    case 6: return sq_edit_delete_joint_new (clip->joints[1].name);
    case 7: return sq_edit_rename_joint_new (clip->joints[1].name, "head");
    default: return NULL;
    }
}

static void
assert_edits_alike (const SqClip *clip)
{
  guint applied = 0, n_packed = count_packed (clip);

  g_assert_cmpuint (n_packed, >=, 2);
  for (guint i = 0; i < 8; i++)
    {
      g_autoptr(SqEdit) ea = make_edit (i, clip), eb = make_edit (i, clip);
      g_autoptr(SqClip) a = sq_clip_copy (clip);
      g_autoptr(SqClip) plain = unpacked_copy (clip);
      g_autoptr(GError) error_a = NULL, error_b = NULL;
      gboolean ok_a, ok_b;

      ok_a = sq_edit_apply (ea, a, &error_a);
      ok_b = sq_edit_apply (eb, plain, &error_b);
      g_assert_true (ok_a == ok_b);
      if (!ok_a)
        {
          /* refused alike (the frame rate of binary SEQ is fixed) */
          g_assert_cmpstr (error_a->message, ==, error_b->message);
          g_assert_true (sq_clip_equal (a, clip));
          continue;
        }
      applied++;
      g_assert_true (sq_clip_equal (a, plain));
      g_assert_true (sq_clip_check (a, &error_a));
      assert_writes_alike (a, plain);
      sq_edit_undo (ea, a);
      g_assert_true (sq_clip_equal (a, clip));
      g_assert_cmpuint (count_packed (a), ==, n_packed);
    }
  g_assert_cmpuint (applied, >=, 6);
}

/* Every edit acts on a packed clip as on its decoded copy; undo gives the
 * clip back, packed tracks packed again. */
static void
test_edits (void)
{
  GByteArray *b = tu_seq_header (40, 2);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GPtrArray) files = tu_corpus_files ("sl-anim");

  tu_seq_joint (b, "pelvis", 40);
  tu_seq_joint (b, "neck", 40);
  tu_be32 (b, 3);                      /* location blocks X, Y, Z */
  for (guint a = 0; a < 3; a++)
    {
      tu_be32 (b, 4);
      tu_be32 (b, 2);
      tu_be32 (b, 1), tu_f32 (b, 0.5f * a);
      tu_be32 (b, 40), tu_f32 (b, 1.0f + a);
    }
  bytes = g_byte_array_free_to_bytes (b);
  clip = tu_load_ok (bytes);
  assert_edits_alike (clip);

  /* .anim: the first corpus files with two joints of several keys */
  for (guint i = 0, n = 0; i < files->len && n < 5; i++)
    {
      g_autoptr(GBytes) anim = tu_read (files->pdata[i]);
      g_autoptr(SqClip) c = tu_load (anim, NULL);

      if (c == NULL || c->n_joints < 2 || c->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys < 3
          || count_packed (c) < 2)
        continue;
      assert_edits_alike (c);
      n++;
    }
}

/* A save in the clip's own format with its companions (a skill's CFP): the
 * file, then each companion, in one buffer */
static GBytes *
save_own (const SqClip *clip)
{
  g_autoptr(GPtrArray) companions = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_companion_free);
  SqSaveOptions opts = { .no_source_copy = TRUE, .companions = companions };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) out = sq_save_bytes (clip, clip->format, &opts, NULL, &error);
  GByteArray *b = g_byte_array_new ();

  g_assert_no_error (error);
  g_byte_array_append (b, g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  for (guint i = 0; i < companions->len; i++)
    {
      const SqCompanion *c = companions->pdata[i];

      g_byte_array_append (b, (const guint8 *) c->name, strlen (c->name) + 1);
      g_byte_array_append (b, g_bytes_get_data (c->bytes, NULL), g_bytes_get_size (c->bytes));
    }
  return g_byte_array_free_to_bytes (b);
}

/* The Sims' skills (keys coded in the CFP) and glTF's LINEAR channels
 * (floats in the buffer) stay packed: the clip is its decoded copy in every
 * respect, and with one joint's rotations edited (the rest untouched) it
 * writes the same bytes, CFP included, as the decoded copy edited alike;
 * the other joints' keys stay exactly as read. */
static void
test_skills_and_gltf (void)
{
  /* how many tracks stay packed: every motion's; every LINEAR channel's
   * (blender-style's others are STEP and CUBICSPLINE, the last file's STEP) */
  static const struct { const char *dir, *name; guint packed; } files[] = {
    { "sims", "walk.cmx", 31 }, { "sims", "nod.cmx", 7 },
    { "gltf", "blender-style.glb", 1 }, { "gltf", "blender-export.glb", 57 }, { "gltf", "blender-style.gltf", 1 },
    { "regressions", "gltf-write-step-key-same-float-time.glb", 0 },
  };
  guint n_packed = 0, n_edited = 0;

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "data", files[f].dir, NULL);
      g_autoptr(SqClip) clip = tu_load_in (dir, files[f].name);
      g_autoptr(SqClip) plain = unpacked_copy (clip), a = sq_clip_copy (clip), b = unpacked_copy (clip);
      gssize edited = -1;
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) save_a = NULL, save_b = NULL;

      g_assert_cmpuint (count_packed (clip), ==, files[f].packed);
      n_packed += count_packed (clip);
      g_assert_true (sq_clip_check (clip, &error));
      g_assert_no_error (error);
      g_assert_true (sq_clip_equal (clip, plain));
      assert_samples_alike (clip, plain);
      assert_writes_alike (clip, plain);
      save_a = save_own (clip);
      save_b = save_own (plain);
      g_assert_true (g_bytes_equal (save_a, save_b));
      g_clear_pointer (&save_a, g_bytes_unref);
      g_clear_pointer (&save_b, g_bytes_unref);

      /* one packed rotation track edited */
      for (gsize j = 0; j < clip->n_joints && edited < 0; j++)
        if (sq_track_is_packed (&clip->joints[j].tracks[SQ_CHANNEL_ROTATION]))
          edited = (gssize) j;
      if (edited < 0)
        {
          g_test_message ("%s: no packed rotations", files[f].name);
          continue;
        }
      n_edited++;
      {
        const char *names[] = { clip->joints[edited].name, NULL };
        g_autoptr(SqEdit) ea = sq_edit_invert_xz_new (names), eb = sq_edit_invert_xz_new (names);

        g_assert_true (sq_edit_apply (ea, a, NULL));
        g_assert_true (sq_edit_apply (eb, b, NULL));
      }
      g_assert_false (sq_track_is_packed (&a->joints[edited].tracks[SQ_CHANNEL_ROTATION]));
      g_assert_true (sq_clip_equal (a, b));
      g_assert_false (sq_clip_equal (a, clip));
      for (gsize j = 0; j < clip->n_joints; j++)
        for (guint c = 0; c < SQ_N_CHANNELS; c++)
          {
            const SqTrack *ta = &a->joints[j].tracks[c], *t0 = &clip->joints[j].tracks[c];

            if ((gssize) j == edited && c == SQ_CHANNEL_ROTATION)
              continue;
            g_assert_true (sq_track_is_packed (ta) == sq_track_is_packed (t0));
            g_assert_cmpuint (ta->n_keys, ==, t0->n_keys);
            for (gsize k = 0; k < ta->n_keys; k++)
              {
                SqKey ka = sq_track_key (ta, k), k0 = sq_track_key (t0, k);
                g_assert_true (memcmp (&ka, &k0, sizeof ka) == 0);
              }
          }
      assert_writes_alike (a, b);
      save_a = save_own (a);
      save_b = save_own (b);
      g_assert_true (g_bytes_equal (save_a, save_b));
    }
  g_test_message ("%u packed tracks, %u files edited", n_packed, n_edited);
  g_assert_cmpuint (n_edited, ==, 3);
}

/* ---- SimPose-ium poses (PSL, KFD): each track keeps where its lines
 * start, and a key is read from its line again ------------------------- */

static GBytes *
sims_file (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "sims", name, NULL);

  return tu_read (path);
}

/* 2 translation tracks (ROOT, PELVIS) and 29 rotation tracks packed; the
 * clip is its decoded copy in every respect, and every edit acts alike */
static void
check_sims_packed (GBytes *bytes)
{
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  guint n_files = 0, n_packed = 0;

  g_assert_cmpuint (count_packed (clip), ==, 31);
  check_text_packed (bytes, &n_files, &n_packed);
  g_assert_cmpuint (n_packed, ==, 31);
  if (clip->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys >= 3)
    assert_edits_alike (clip);
}

static void
test_sims_poses (void)
{
  const char *names[] = { "wave-v4.psl", "wave-v5.psl", "nod-bounce.kfd" };
  const char *formats[] = { "simpose-psl", "simpose-kfd" };
  g_autoptr(GPtrArray) files = tu_corpus_files ("bvh");
  guint n_converted = 0;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(GBytes) bytes = sims_file (names[i]);

      check_sims_packed (bytes);
    }
  /* longer ones: corpus BVH files as a pose library and as a KFD */
  for (guint i = 0; i < files->len && i < 4; i++)
    {
      g_autoptr(GBytes) bvh = tu_read (files->pdata[i]);
      g_autoptr(SqClip) clip = tu_load (bvh, NULL);

      if (clip == NULL)
        continue;
      for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
        {
          g_autoptr(GBytes) text = sq_save_bytes (clip, sq_format_by_id (formats[f]), NULL, NULL, NULL);

          g_assert_nonnull (text);
          check_sims_packed (text);
          n_converted++;
        }
    }
  g_assert_cmpuint (n_converted, ==, 8);
}

/* One track edited (PELVIS's rotations, x and z inverted): written again,
 * every other line is the line read, byte for byte; the edited lines are
 * PELVIS's rotation line of each pose (line `row` of `per_pose` after
 * `head` lines) */
static void
check_one_track_edited (const char *name,
                        guint       head,
                        guint       per_pose,
                        guint       row)
{
  g_autoptr(GBytes) bytes = sims_file (name);
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  const char *pelvis[] = { "PELVIS", NULL };
  g_autoptr(SqEdit) edit = sq_edit_invert_xz_new (pelvis);
  SqSaveOptions opts = { .no_source_copy = TRUE };
  g_autoptr(GBytes) out = NULL;
  g_autofree char *in_text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_autofree char *out_text = NULL;
  g_auto(GStrv) in_lines = NULL, out_lines = NULL;
  guint changed = 0, n_poses = clip->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys;

  g_assert_true (sq_edit_apply (edit, clip, NULL));
  g_assert_cmpuint (count_packed (clip), ==, 30);
  out = sq_save_bytes (clip, clip->format, &opts, NULL, NULL);
  g_assert_nonnull (out);
  out_text = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  in_lines = g_strsplit (in_text, "\n", -1);
  out_lines = g_strsplit (out_text, "\n", -1);
  g_assert_cmpuint (g_strv_length (out_lines), ==, g_strv_length (in_lines));
  for (guint l = 0; in_lines[l] != NULL; l++)
    {
      gboolean edited = l >= head && l < head + n_poses * per_pose && (l - head) % per_pose == row;

      if (!edited)
        g_assert_cmpstr (out_lines[l], ==, in_lines[l]);
      else if (strcmp (out_lines[l], in_lines[l]) != 0)
        changed++;
    }
  g_assert_cmpuint (changed, ==, n_poses);
}

static void
test_sims_one_track (void)
{
  /* PSL: the header line, then per pose its name, Time, two translations
   * and 29 rotations; KFD: three header lines, then Time, … */
  check_one_track_edited ("wave-v4.psl", 1, 33, 5);
  check_one_track_edited ("wave-v5.psl", 1, 33, 5);
  check_one_track_edited ("nod-bounce.kfd", 3, 32, 4);
}

/* A damaged number in the last pose: an error at its line and column,
 * from the reader that keeps lines as it does for whole files */
static void
check_bad_number (const char *name,
                  const char *expected)
{
  g_autoptr(GBytes) bytes = sims_file (name);
  g_autoptr(GString) text = g_string_new_len (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_autoptr(GBytes) bad = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = NULL;
  const char *last_time = g_strrstr (text->str, "Time ");
  const char *line = strchr (last_time, '\n') + 1;      /* ROOT's translation */

  line = strchr (line, '\n') + 1;                       /* PELVIS's */
  line = strchr (line, '\n') + 1;                       /* ROOT's rotation */
  text->str[line - text->str + 4] = 'x';                /* "| 0.x…" */
  bad = g_bytes_new (text->str, text->len);
  clip = tu_load (bad, &error);
  g_assert_null (clip);
  tu_assert_mentions (error, expected);
}

static void
test_sims_errors (void)
{
  /* wave-v4.psl: 2 poses of 33 lines after the header line; the last
   * pose's ROOT rotation is line 1 + 33 + 5 = 39 */
  check_bad_number ("wave-v4.psl", "line 39, column 3: ROOT: “| x y z w |” expected");
  check_bad_number ("wave-v5.psl", "line 39, column 3: ROOT: “| x y z w |” expected");
  /* nod-bounce.kfd: 3 header lines, 3 poses of 32: 3 + 64 + 4 = 71 */
  check_bad_number ("nod-bounce.kfd", "line 71, column 3: ROOT: “| x y z w |” expected");
}

/* ---- DirectX .x: a track of one AnimationKey of rising ticks keeps
 * where each key's text starts ------------------------------------------ */

static void
test_dx_keys (void)
{
  g_autoptr(GPtrArray) files = tu_corpus_files ("dx-anim");
  guint n_files = 0, n_packed = 0, n_edited = 0;

  for (guint i = 0; i < files->len; i++)
    {
      g_autoptr(GBytes) bytes = tu_read (files->pdata[i]);
      g_autoptr(SqClip) clip = tu_load (bytes, NULL);

      check_text_packed (bytes, &n_files, &n_packed);
      if (clip != NULL && clip->n_joints >= 2 && count_packed (clip) >= 2
          && clip->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys >= 3)
        {
          assert_edits_alike (clip);
          n_edited++;
        }
    }
  g_test_message ("%u files, %u packed tracks, %u edited", n_files, n_packed, n_edited);
  g_assert_cmpuint (n_files, ==, files->len);
  g_assert_cmpuint (n_packed, >, 50);
  g_assert_cmpuint (n_edited, >=, 1);
}

/* A .x Sequin wrote (a corpus BVH converted), one joint's rotations
 * edited: written again, every line outside that joint's Animation is
 * the line read, byte for byte */
static void
test_dx_one_track (void)
{
  g_autoptr(GPtrArray) files = tu_corpus_files ("bvh");
  g_autoptr(GBytes) bvh = tu_read (files->pdata[0]);
  g_autoptr(SqClip) source = tu_load_ok (bvh);
  g_autoptr(GBytes) x = sq_save_bytes (source, sq_format_by_id ("dx"), NULL, NULL, NULL);
  g_autoptr(SqClip) clip = tu_load_ok (x);
  const char *joint[] = { clip->joints[1].name, NULL };
  g_autoptr(SqEdit) edit = sq_edit_invert_xz_new (joint);
  SqSaveOptions opts = { .no_source_copy = TRUE };
  g_autoptr(GBytes) out = NULL;
  g_autofree char *in_text = g_strndup (g_bytes_get_data (x, NULL), g_bytes_get_size (x));
  g_autofree char *out_text = NULL;
  g_autofree char *mark = g_strdup_printf ("    {%s}\r", joint[0]);
  g_auto(GStrv) in_lines = NULL, out_lines = NULL;
  guint packed = count_packed (clip), changed = 0;
  gboolean inside = FALSE;

  g_assert_cmpuint (packed, >, 10);
  g_assert_true (sq_edit_apply (edit, clip, NULL));
  g_assert_cmpuint (count_packed (clip), ==, packed - 1);
  out = sq_save_bytes (clip, clip->format, &opts, NULL, NULL);
  g_assert_nonnull (out);
  out_text = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  in_lines = g_strsplit (in_text, "\n", -1);
  out_lines = g_strsplit (out_text, "\n", -1);
  g_assert_cmpuint (g_strv_length (out_lines), ==, g_strv_length (in_lines));
  for (guint l = 0; in_lines[l] != NULL; l++)
    {
      if (g_str_equal (in_lines[l], mark))
        inside = TRUE;
      else if (inside && g_str_equal (in_lines[l], "  }\r"))
        inside = FALSE;
      if (!inside)
        g_assert_cmpstr (out_lines[l], ==, in_lines[l]);
      else if (strcmp (out_lines[l], in_lines[l]) != 0)
        changed++;
    }
  g_assert_cmpuint (changed, ==, clip->joints[1].tracks[SQ_CHANNEL_ROTATION].n_keys);
}

/* A damaged number in a key: an error at its line and column */
static void
test_dx_errors (void)
{
  const char text[] =
    "xof 0303txt 0032\r\n"
    "AnimationSet {\r\n"
    "  Animation {\r\n"
    "    {aw_pelvis}\r\n"
    "    AnimationKey {\r\n"
    "      0;\r\n"
    "      2;\r\n"
    "      0;4;1.000000,0.000000,0.000000,0.000000;;,\r\n"
    "      1;4;1.0x0000,0.000000,0.000000,0.000000;;;\r\n"
    "    }\r\n"
    "  }\r\n"
    "}\r\n";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, sizeof text - 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = tu_load (bytes, &error);

  g_assert_null (clip);
  tu_assert_mentions (error, "line 9, column 11: “1.0x0000” is not a finite number");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/packed/corpus", test_corpus);
  g_test_add_func ("/packed/text-records", test_text_records);
  g_test_add_func ("/packed/lifetime", test_lifetime);
  g_test_add_func ("/packed/which", test_which);
  g_test_add_func ("/packed/edits", test_edits);
  g_test_add_func ("/packed/skills-and-gltf", test_skills_and_gltf);
  g_test_add_func ("/packed/sims-poses", test_sims_poses);
  g_test_add_func ("/packed/sims-one-track", test_sims_one_track);
  g_test_add_func ("/packed/sims-errors", test_sims_errors);
  g_test_add_func ("/packed/dx-keys", test_dx_keys);
  g_test_add_func ("/packed/dx-one-track", test_dx_one_track);
  g_test_add_func ("/packed/dx-errors", test_dx_errors);
  return g_test_run ();
}
