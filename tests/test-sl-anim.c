/* test-sl-anim.c: Second Life .anim, read and written exactly
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sq-edit.h"
#include "worlds/sq-sl-skeleton.h"
#include "test-utils.h"

#define KNOWN_FILE "0f86e355-dd31-a61c-fdb0-3a96b9aad05f.dat"

/* little-endian builders for hand-made files: tu_le16, tu_le32, tu_le_f32 */
static void
cstr (GByteArray *b, const char *s)
{
  g_byte_array_append (b, (const guint8 *) s, strlen (s) + 1);
}

static void
header (GByteArray *b, guint version, guint sub, float duration, guint32 n_joints)
{
  tu_le16 (b, version);
  tu_le16 (b, sub);
  tu_le32 (b, 4);
  tu_le_f32 (b, duration);
  cstr (b, "");
  tu_le_f32 (b, 0);
  tu_le_f32 (b, duration);
  tu_le32 (b, 1);
  tu_le_f32 (b, 0.5f);
  tu_le_f32 (b, 0.5f);
  tu_le32 (b, 0);
  tu_le32 (b, n_joints);
}

static GBytes *
saved (const SqClip *clip, const char *id, GPtrArray *losses)
{
  return tu_save (clip, id, losses);
}

static void
assert_exact_roundtrip (GBytes *bytes)
{
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autoptr(GBytes) out = saved (clip, "sl-anim", NULL);

  g_assert_true (g_bytes_equal (bytes, out));
}

static void
test_corpus (void)
{
  g_autoptr(GPtrArray) files = tu_corpus_files ("sl-anim");
  guint n = 0, with_constraints = 0;
  gsize keys = 0;

  for (guint i = 0; i < files->len; i++)
    {
      g_autoptr(GBytes) bytes = tu_read (files->pdata[i]);
      g_autoptr(SqClip) clip = tu_load_ok (bytes);
      g_autoptr(GBytes) out = NULL;
      GVariant *c;

      g_assert_cmpstr (clip->format->id, ==, "sl-anim");
      out = saved (clip, "sl-anim", NULL);
      if (!g_bytes_equal (bytes, out))
        g_error ("%s does not save back byte for byte", (const char *) files->pdata[i]);
      c = sq_props_get (clip->extra, "constraints");
      if (c != NULL && g_variant_n_children (c) > 0)
        with_constraints++;
      keys += sq_clip_count_keys (clip);
      n++;
    }
  g_test_message ("%u files, %u with constraints, %zu keys", n, with_constraints, keys);
  g_assert_cmpuint (n, ==, 156);
  g_assert_cmpuint (with_constraints, ==, 31);
}

static GBytes *
known_bytes (void)
{
  g_autofree char *path = NULL;

  path = g_build_filename (tu_corpus_dir (), "sl-anim", KNOWN_FILE, NULL);
  return tu_read (path);
}

/* Values decoded by hand from the bytes (offsets in the comments). */
static void
test_known_answer (void)
{
  g_autoptr(GBytes) bytes = known_bytes ();
  g_autoptr(SqClip) clip = NULL;
  const SqJoint *torso;
  const SqTrack *rot;
  GVariant *c;
  g_autoptr(GVariant) con = NULL, src = NULL, dst = NULL;
  guint8 chain, type;
  double so[3], to[3], dir[3], e[4];
  double y;

  clip = tu_load_ok (bytes);
  g_assert_cmpuint (clip->warnings->len, ==, 0);
  g_assert_cmpuint (sq_props_get_uint (clip->extra, "hand-pose", 99), ==, 1);       /* @52 */
  g_assert_cmpint (g_variant_get_uint16 (sq_props_get (clip->extra, "version")), ==, 1);
  g_assert_cmpint (g_variant_get_uint16 (sq_props_get (clip->extra, "sub-version")), ==, 0);
  g_assert_cmpint (g_variant_get_int32 (sq_props_get (clip->extra, "priority")), ==, 2); /* @4 */
  g_assert_cmpfloat (clip->duration, ==, 3.0);                                      /* @8 */
  g_assert_cmpstr (g_variant_get_string (sq_props_get (clip->extra, "emote"), NULL), ==, "Express_Laugh_Emote");
  g_assert_cmpfloat (g_variant_get_double (sq_props_get (clip->extra, "loop-in")), ==, 0.0);
  g_assert_cmpfloat (g_variant_get_double (sq_props_get (clip->extra, "loop-out")), ==, 3.0);
  g_assert_cmpint (g_variant_get_int32 (sq_props_get (clip->extra, "loop")), ==, 0);
  g_assert_cmpfloat (g_variant_get_double (sq_props_get (clip->extra, "ease-in")), ==, (double) 0.2f);
  g_assert_cmpfloat (g_variant_get_double (sq_props_get (clip->extra, "ease-out")), ==, (double) 0.3f);
  g_assert_cmpuint (clip->n_joints, ==, 12);                                        /* @56 */

  /* joint 0 @60: "mTorso", priority 2, 8 rotation keys from @75 */
  torso = &clip->joints[0];
  g_assert_cmpstr (torso->name, ==, "mTorso");
  g_assert_cmpint (g_variant_get_int32 (sq_props_get (torso->extra, "priority")), ==, 2);
  rot = &torso->tracks[SQ_CHANNEL_ROTATION];
  g_assert_cmpuint (rot->n_keys, ==, 8);
  g_assert_cmpuint (torso->tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, 0);
  /* key 0: codes 2184, 32767 ×3: t = 2184 · 3 / 65535, identity (zero snap) */
  g_assert_cmpfloat_with_epsilon (sq_track_time (rot, 0), 2184 * 3.0 / 65535, 1e-15);
  g_assert_cmpfloat (sq_track_key (rot, 0).v[0], ==, 1.0);
  g_assert_cmpfloat (sq_track_key (rot, 0).v[1], ==, 0.0);
  g_assert_cmpfloat (sq_track_key (rot, 0).v[2], ==, 0.0);
  g_assert_cmpfloat (sq_track_key (rot, 0).v[3], ==, 0.0);
  /* no code of this track is 32768: the codes come back from the keys and
   * are not kept */
  g_assert_null (rot->alt);
  /* key 1: codes 13107, 32767, 28568, 32767: t = 0.6 s, y = 28568·2/65535 − 1 */
  y = 28568 * 2.0 / 65535 - 1;
  g_assert_cmpfloat_with_epsilon (sq_track_time (rot, 1), 0.6, 1e-12);
  g_assert_cmpfloat_with_epsilon (sq_track_key (rot, 1).v[2], y, 1e-12);
  g_assert_cmpfloat_with_epsilon (sq_track_key (rot, 1).v[0], sqrt (1 - y * y), 1e-12);
  /* last key at code 65535: exactly the duration */
  g_assert_cmpfloat (sq_track_time (rot, 7), ==, 3.0);

  /* one constraint @1042: chain 2, point, R_HAND (1.1, 0, -1) → HEAD */
  c = sq_props_get (clip->extra, "constraints");
  g_assert_nonnull (c);
  g_assert_cmpuint (g_variant_n_children (c), ==, 1);
  con = g_variant_get_child_value (c, 0);
  g_variant_get (con, "(yy@ay(ddd)@ay(ddd)(ddd)dddd)", &chain, &type, &src, &so[0], &so[1], &so[2],
                 &dst, &to[0], &to[1], &to[2], &dir[0], &dir[1], &dir[2], &e[0], &e[1], &e[2], &e[3]);
  g_assert_cmpuint (chain, ==, 2);
  g_assert_cmpuint (type, ==, 0);
  g_assert_cmpuint (g_variant_n_children (src), ==, 16);
  g_assert_cmpstr (g_variant_get_data (src), ==, "R_HAND");
  g_assert_cmpstr (g_variant_get_data (dst), ==, "HEAD");
  g_assert_cmpfloat (so[0], ==, (double) 1.1f);
  g_assert_cmpfloat (so[1], ==, 0.0);
  g_assert_cmpfloat (so[2], ==, -1.0);
  g_assert_cmpfloat (e[3], ==, 2.0);
  assert_exact_roundtrip (bytes);

  /* dump --json shows the fields */
  {
    g_autofree char *json = sq_dump_json (clip);
    g_assert_nonnull (strstr (json, "\"emote\":\"Express_Laugh_Emote\""));
    g_assert_nonnull (strstr (json, "\"source_volume\":\"R_HAND\""));
  }
}

static void
assert_error_with_offset (GBytes *bytes, int code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = sq_load_bytes (bytes, NULL, sq_format_by_id ("sl-anim"), NULL, &error);

  g_assert_null (clip);
  g_assert_error (error, SQ_ERROR, code);
  g_assert_nonnull (strstr (error->message, "offset"));
}

static void
test_truncations (void)
{
  g_autoptr(GBytes) bytes = known_bytes ();
  gsize len;
  const guint8 *data;

  data = g_bytes_get_data (bytes, &len);
  for (gsize n = 0; n < len; n++)
    {
      g_autoptr(GBytes) cut = g_bytes_new (data, n);
      g_autoptr(GError) error = NULL;
      g_autoptr(SqClip) clip = sq_load_bytes (cut, NULL, sq_format_by_id ("sl-anim"), NULL, &error);

      g_assert_null (clip);
      g_assert_nonnull (error);
      g_assert_true (error->domain == SQ_ERROR);
      if (n >= 4)
        g_assert_nonnull (strstr (error->message, "offset"));
    }
}

static void
test_huge_counts (void)
{
  /* joint count */
  {
    GByteArray *b = g_byte_array_new ();
    g_autoptr(GBytes) bytes = NULL;

    header (b, 1, 0, 1.0f, 0xfffffff0u);
    tu_le32 (b, 0);
    bytes = g_byte_array_free_to_bytes (b);
    assert_error_with_offset (bytes, SQ_ERROR_LIMIT_EXCEEDED);
  }
  /* key count */
  {
    GByteArray *b = g_byte_array_new ();
    g_autoptr(GBytes) bytes = NULL;

    header (b, 1, 0, 1.0f, 1);
    cstr (b, "mPelvis");
    tu_le32 (b, 4);
    tu_le32 (b, 0x7ffffff0u);
    tu_le32 (b, 0);
    tu_le32 (b, 0);
    bytes = g_byte_array_free_to_bytes (b);
    assert_error_with_offset (bytes, SQ_ERROR_LIMIT_EXCEEDED);
  }
  /* negative key count */
  {
    GByteArray *b = g_byte_array_new ();
    g_autoptr(GBytes) bytes = NULL;

    header (b, 1, 0, 1.0f, 1);
    cstr (b, "mPelvis");
    tu_le32 (b, 4);
    tu_le32 (b, 0xffffffffu);
    tu_le32 (b, 0);
    tu_le32 (b, 0);
    bytes = g_byte_array_free_to_bytes (b);
    assert_error_with_offset (bytes, SQ_ERROR_BAD_VALUE);
  }
  /* constraint count beyond the data, ≤ 10: an error */
  {
    GByteArray *b = g_byte_array_new ();
    g_autoptr(GBytes) bytes = NULL;

    header (b, 1, 0, 1.0f, 0);
    tu_le32 (b, 5);
    bytes = g_byte_array_free_to_bytes (b);
    assert_error_with_offset (bytes, SQ_ERROR_LIMIT_EXCEEDED);
  }
  /* a huge constraint count: the viewer ignores it; kept, with a warning */
  {
    GByteArray *b = g_byte_array_new ();
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(SqClip) clip = NULL;

    header (b, 1, 0, 1.0f, 0);
    tu_le32 (b, 0x10000000u);
    bytes = g_byte_array_free_to_bytes (b);
    clip = tu_load_ok (bytes);
    g_assert_cmpuint (clip->warnings->len, ==, 1);
    assert_exact_roundtrip (bytes);
  }
  /* bad version, NaN duration */
  {
    GByteArray *b = g_byte_array_new ();
    g_autoptr(GBytes) bytes = NULL;

    header (b, 2, 0, 1.0f, 0);
    tu_le32 (b, 0);
    bytes = g_byte_array_free_to_bytes (b);
    assert_error_with_offset (bytes, SQ_ERROR_UNSUPPORTED);
  }
  {
    GByteArray *b = g_byte_array_new ();
    g_autoptr(GBytes) bytes = NULL;

    header (b, 1, 0, NAN, 0);
    tu_le32 (b, 0);
    bytes = g_byte_array_free_to_bytes (b);
    assert_error_with_offset (bytes, SQ_ERROR_BAD_VALUE);
  }
}

/* Keys out of order and at the same time: sorted, the last read wins, as in
 * the viewer's map; written back stably. */
static void
test_unsorted_keys (void)
{
  GByteArray *b = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL, once = NULL, twice = NULL;
  g_autoptr(SqClip) clip = NULL, back = NULL;
  const SqTrack *rot;

  header (b, 1, 0, 2.0f, 1);
  cstr (b, "mHead");
  tu_le32 (b, 4);
  tu_le32 (b, 3);
  tu_le16 (b, 65535); tu_le16 (b, 40000); tu_le16 (b, 32767); tu_le16 (b, 32767);
  tu_le16 (b, 0); tu_le16 (b, 32767); tu_le16 (b, 30000); tu_le16 (b, 32767);
  tu_le16 (b, 0); tu_le16 (b, 32767); tu_le16 (b, 32767); tu_le16 (b, 20000);
  tu_le32 (b, 1);
  tu_le16 (b, 100); tu_le16 (b, 0); tu_le16 (b, 65535); tu_le16 (b, 32768);
  tu_le32 (b, 0);
  bytes = g_byte_array_free_to_bytes (b);

  clip = tu_load_ok (bytes);
  rot = &clip->joints[0].tracks[SQ_CHANNEL_ROTATION];
  g_assert_cmpuint (rot->n_keys, ==, 2);
  g_assert_cmpfloat (sq_track_time (rot, 0), ==, 0.0);
  g_assert_cmpfloat (sq_track_key (rot, 0).v[3], ==, 20000 * 2.0 / 65535 - 1);    /* the last of the two at code 0 */
  g_assert_null (rot->alt);
  /* the position key has a z code of 32768, which decodes to 0 like 32767:
   * its track stays as the file's records, and keeps its codes once decoded */
  g_assert_true (sq_track_is_packed (&clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION]));
  sq_track_unpack (&clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION]);
  g_assert_nonnull (clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION].alt);
  g_assert_cmpfloat (clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION].alt[3], ==, 32768);
  g_assert_cmpfloat (sq_track_time (rot, 1), ==, 2.0);
  g_assert_cmpuint (clip->warnings->len, ==, 1);
  {
    const SqTrack *pos = &clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION];
    g_assert_cmpfloat (sq_track_key (pos, 0).v[0], ==, -5.0);
    g_assert_cmpfloat (sq_track_key (pos, 0).v[1], ==, 5.0);
    g_assert_cmpfloat (sq_track_key (pos, 0).v[2], ==, 0.0);
  }
  once = saved (clip, "sl-anim", NULL);
  back = tu_load_ok (once);
  g_assert_cmpuint (back->warnings->len, ==, 0);
  twice = saved (back, "sl-anim", NULL);
  g_assert_true (g_bytes_equal (once, twice));
}

/* Every code of every field comes back byte for byte at extreme durations,
 * with no codes kept except for a track holding 32768 (which the viewer's zero
 * snap decodes like 32767) or for a duration of 0. */
static void
test_every_code (void)
{
  const float durations[] = { 1.4e-45f, 1.17549435e-38f, 1e-30f, 0.001f, 1 / 3.0f, 1.0f, 2.5f,
                              60.0f, 3600.0f, 3.4028235e38f, 0.0f };

  for (gsize d = 0; d < G_N_ELEMENTS (durations); d++)
    for (int with_32768 = 0; with_32768 < 2; with_32768++)
      {
        GByteArray *b = g_byte_array_new ();
        g_autoptr(GBytes) bytes = NULL, out = NULL;
        g_autoptr(SqClip) clip = NULL;
        g_autoptr(GError) error = NULL;
        SqSaveOptions opts = { .no_source_copy = TRUE };
        const gsize n = durations[d] > 0 ? 65536 : 1;

        header (b, 1, 0, durations[d], 1);
        cstr (b, "mHead");
        tu_le32 (b, 4);
        for (int channel = 0; channel < 2; channel++)
          {
            tu_le32 (b, (guint32) n);
            for (gsize k = 0; k < n; k++)
              {
                /* times 0…65535 in order; values run through every code */
                guint x = (guint) k, y = (guint) ((k * 7919) & 0xffff), z = (guint) (65535 - k);

                if (!with_32768)
                  {
                    x = x == 32768 ? 32767 : x;
                    y = y == 32768 ? 32767 : y;
                    z = z == 32768 ? 32767 : z;
                  }
                tu_le16 (b, (guint) k);
                tu_le16 (b, x);
                tu_le16 (b, y);
                tu_le16 (b, z);
              }
          }
        tu_le32 (b, 0);
        bytes = g_byte_array_free_to_bytes (b);

        /* the format named: durations beyond an hour do not look like .anim */
        clip = sq_load_bytes (bytes, NULL, sq_format_by_id ("sl-anim"), NULL, &error);
        g_assert_no_error (error);
        g_assert_nonnull (clip);
        /* the records as they are, then decoded: both write the file back */
        out = sq_save_bytes (clip, clip->format, &opts, NULL, &error);
        g_assert_no_error (error);
        g_assert_true (g_bytes_equal (bytes, out));
        g_clear_pointer (&out, g_bytes_unref);
        tu_unpack (clip);
        for (int channel = 0; channel < 2; channel++)
          {
            const SqTrack *track = &clip->joints[0].tracks[channel == 0 ? SQ_CHANNEL_ROTATION
                                                                        : SQ_CHANNEL_TRANSLATION];
            g_assert_cmpuint (track->n_keys, ==, n);
            if (with_32768 && n > 1)
              g_assert_nonnull (track->alt);
            else
              g_assert_null (track->alt);
          }
        out = sq_save_bytes (clip, clip->format, &opts, NULL, &error);
        g_assert_no_error (error);
        g_assert_true (g_bytes_equal (bytes, out));
      }
}

/* The old 0.1 variant: f32 times, Euler degrees (mayaQ ZYX), f32 metres */
static void
test_old_variant (void)
{
  GByteArray *b = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SqClip) clip = NULL;
  const SqTrack *rot, *pos;
  double h = sqrt (0.5);

  header (b, 0, 1, 1.0f, 1);
  cstr (b, "mPelvis");
  tu_le32 (b, 3);
  tu_le32 (b, 2);
  tu_le_f32 (b, 0); tu_le_f32 (b, 90); tu_le_f32 (b, 0); tu_le_f32 (b, 0);
  tu_le_f32 (b, 1); tu_le_f32 (b, 0); tu_le_f32 (b, 0); tu_le_f32 (b, 90);
  tu_le32 (b, 1);
  tu_le_f32 (b, 0.5f); tu_le_f32 (b, 1); tu_le_f32 (b, 2); tu_le_f32 (b, -3);
  tu_le32 (b, 0);
  bytes = g_byte_array_free_to_bytes (b);

  clip = tu_load_ok (bytes);
  g_assert_cmpint (g_variant_get_uint16 (sq_props_get (clip->extra, "version")), ==, 0);
  rot = &clip->joints[0].tracks[SQ_CHANNEL_ROTATION];
  pos = &clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION];
  g_assert_cmpuint (rot->n_keys, ==, 2);
  g_assert_cmpfloat_with_epsilon (sq_track_key (rot, 0).v[0], h, 1e-12);
  g_assert_cmpfloat_with_epsilon (sq_track_key (rot, 0).v[1], h, 1e-12);
  g_assert_cmpfloat_with_epsilon (sq_track_key (rot, 1).v[3], h, 1e-12);
  g_assert_cmpfloat (sq_track_time (rot, 1), ==, 1.0);
  g_assert_cmpfloat (sq_track_time (pos, 0), ==, 0.5);
  g_assert_cmpfloat (sq_track_key (pos, 0).v[2], ==, -3.0);
  assert_exact_roundtrip (bytes);

  /* edited: written as Euler angles again, reading back the same rotation */
  {
    g_autoptr(SqEdit) edit = sq_edit_invert_xz_new (NULL);
    g_autoptr(GBytes) out = NULL;
    g_autoptr(SqClip) back = NULL;

    g_assert_true (sq_edit_apply (edit, clip, NULL));
    out = saved (clip, "sl-anim", NULL);
    back = tu_load_ok (out);
    for (int c = 0; c < 4; c++)
      g_assert_cmpfloat_with_epsilon (sq_track_key (&back->joints[0].tracks[SQ_CHANNEL_ROTATION], 0).v[c],
                                      sq_track_key (rot, 0).v[c], 1e-6);
  }
}

/* An edit re-quantises only the keys it changed: the other joints' bytes stay */
static void
test_edit_requantises_only_changed (void)
{
  g_autoptr(GBytes) bytes = known_bytes ();
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GBytes) out = NULL, undone = NULL;
  g_autoptr(SqClip) back = NULL;
  g_autoptr(SqEdit) edit = NULL;
  const SqJoint *joint = NULL;
  const char *names[2] = { NULL, NULL };
  const guint8 *a, *b, *hit = NULL;
  gsize len, len_out, start, end, joint_index = 0;

  clip = tu_load_ok (bytes);
  /* the first joint that turns about x */
  for (gsize j = 0; j < clip->n_joints && joint == NULL; j++)
    for (gsize k = 0; k < clip->joints[j].tracks[SQ_CHANNEL_ROTATION].n_keys; k++)
      if (sq_track_key (&clip->joints[j].tracks[SQ_CHANNEL_ROTATION], k).v[1] != 0)
        {
          joint = &clip->joints[j];
          joint_index = j;
          break;
        }
  g_assert_nonnull (joint);
  names[0] = joint->name;
  edit = sq_edit_invert_xz_new (names);
  g_assert_true (sq_edit_apply (edit, clip, NULL));
  out = saved (clip, "sl-anim", NULL);

  a = g_bytes_get_data (bytes, &len);
  b = g_bytes_get_data (out, &len_out);
  g_assert_cmpuint (len, ==, len_out);
  /* the joint's block: name, priority, counts, keys */
  for (gsize i = 60; i + strlen (names[0]) < len && hit == NULL; i++)
    if (memcmp (a + i, names[0], strlen (names[0]) + 1) == 0 && a[i - 1] == 0)
      hit = a + i;
  g_assert_nonnull (hit);
  start = (gsize) (hit - a);
  end = start + strlen (names[0]) + 1 + 12
        + 8 * (joint->tracks[SQ_CHANNEL_ROTATION].n_keys + joint->tracks[SQ_CHANNEL_TRANSLATION].n_keys);
  g_assert_cmpmem (a, start, b, start);
  g_assert_cmpmem (a + end, len - end, b + end, len - end);
  g_assert_true (memcmp (a + start, b + start, end - start) != 0);
  /* time codes of the edited joint's keys are kept (only values changed) */
  back = tu_load_ok (out);
  {
    const SqTrack *t0 = &clip->joints[joint_index].tracks[SQ_CHANNEL_ROTATION];
    const SqTrack *t1 = &back->joints[joint_index].tracks[SQ_CHANNEL_ROTATION];

    g_assert_cmpuint (t0->n_keys, ==, t1->n_keys);
    for (gsize k = 0; k < t0->n_keys; k++)
      {
        g_assert_cmpfloat (sq_track_time (t0, k), ==, sq_track_time (t1, k));
        for (int c = 0; c < 4; c++)
          g_assert_cmpfloat_with_epsilon (sq_track_key (t0, k).v[c], sq_track_key (t1, k).v[c], 4e-5);
      }
  }
  /* undo: exact again */
  sq_edit_undo (edit, clip);
  undone = saved (clip, "sl-anim", NULL);
  g_assert_true (g_bytes_equal (undone, bytes));
}

static gboolean
losses_mention (GPtrArray *losses, const char *text)
{
  for (guint i = 0; i < losses->len; i++)
    if (strstr (losses->pdata[i], text) != NULL)
      return TRUE;
  return FALSE;
}

/* SL → binary SEQ lists what SEQ cannot hold; SEQ → SL back too */
static void
test_conversion_losses (void)
{
  g_autoptr(GBytes) bytes = known_bytes ();
  g_autoptr(SqClip) clip = NULL, seq = NULL, again = NULL;
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) back_losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GBytes) seq_bytes = NULL, sl_bytes = NULL;

  clip = tu_load_ok (bytes);
  seq_bytes = saved (clip, "seq-binary", losses);
  for (guint i = 0; i < losses->len; i++)
    g_test_message ("SL → SEQ: %s", (const char *) losses->pdata[i]);
  g_assert_true (losses_mention (losses, "Express_Laugh_Emote"));
  g_assert_true (losses_mention (losses, "1 constraints"));
  g_assert_true (losses_mention (losses, "hand pose 1"));
  g_assert_true (losses_mention (losses, "priority 2"));

  /* the classic ActiveWorlds avatar has no chest: its turn is carried
   * into the neck and the collars (their world rotations stay) */
  g_assert_true (losses_mention (losses, "“mChest” has no ActiveWorlds counterpart: left out, its turn carried into"));
  seq = tu_load_ok (seq_bytes);
  g_assert_cmpuint (seq->n_joints, ==, clip->n_joints - 1);
  sl_bytes = saved (seq, "sl-anim", back_losses);
  for (guint i = 0; i < back_losses->len; i++)
    g_test_message ("SEQ → SL: %s", (const char *) back_losses->pdata[i]);
  g_assert_true (losses_mention (back_losses, "quantised"));
  again = tu_load_ok (sl_bytes);
  g_assert_cmpuint (again->n_joints, ==, clip->n_joints - 1);
  /* rotations survive within the 16-bit precision and 1/30 s frames
   * (the joints the chest's turn went into aside) */
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqTrack *t = &clip->joints[j].tracks[SQ_CHANNEL_ROTATION];
      gssize at = sq_clip_find_joint (again, clip->joints[j].name);
      const SqTrack *u;
      gboolean below_chest = FALSE;

      for (const char *b = clip->joints[j].name; b != NULL; b = sq_sl_bone_parent (b))
        below_chest = below_chest || g_strcmp0 (b, "mChest") == 0;
      if (below_chest || t->n_keys == 0)
        continue;
      g_assert_cmpint (at, >=, 0);
      u = &again->joints[at].tracks[SQ_CHANNEL_ROTATION];
      g_assert_cmpuint (u->n_keys, >, 0);
      {
        double a[4], c[4], dot = 0;
        sq_track_sample (t, SQ_CHANNEL_ROTATION, sq_track_time (t, 0), a);
        sq_track_sample (u, SQ_CHANNEL_ROTATION, sq_track_time (t, 0), c);
        for (int i = 0; i < 4; i++)
          dot += a[i] * c[i];
        g_assert_cmpfloat (fabs (dot), >, 0.999);
      }
    }
}

/* A clip from another format: written, read back, written again the same */
static void
test_foreign_stable (void)
{
  g_autoptr(GBytes) text = g_bytes_new_static (tu_spec_example, strlen (tu_spec_example));
  g_autoptr(SqClip) clip = tu_load_ok (text);
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GBytes) once = saved (clip, "sl-anim", losses);
  g_autoptr(SqClip) back = tu_load_ok (once);
  g_autoptr(GBytes) twice = saved (back, "sl-anim", NULL);

  g_assert_true (g_bytes_equal (once, twice));
  g_assert_cmpuint (back->n_joints, ==, 7);
  g_assert_cmpint (g_variant_get_int32 (sq_props_get (back->extra, "priority")), ==, 2);
  g_assert_cmpuint (sq_props_get_uint (back->extra, "hand-pose", 99), ==, 1);
}

/* Every corpus file cut short and changed byte by byte: a clean error or a
 * valid clip that writes in every format, and stably in this one. */
static guint n_valid;

static void
check_input (const guint8 *data,
             gsize         len)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, len);
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = sq_load_bytes (bytes, NULL, sq_format_by_id ("sl-anim"), NULL, &error);
  SqSaveOptions opts = { .no_source_copy = TRUE };
  gsize n_formats;
  const SqFormat * const *formats = sq_formats (&n_formats);

  if (clip == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == SQ_ERROR);
      g_assert_nonnull (strstr (error->message, "offset"));
      return;
    }
  g_assert_true (sq_clip_check (clip, NULL));
  n_valid++;
  for (gsize f = 0; f < n_formats; f++)
    {
      g_autoptr(GError) werr = NULL;
      g_autoptr(GBytes) once = NULL;

      /* the other writers on every 8th clip, to keep the test quick */
      if (!g_str_equal (formats[f]->id, "sl-anim") && n_valid % 8 != 0)
        continue;
      once = sq_save_bytes (clip, formats[f], &opts, NULL, &werr);
      if (once == NULL)
        g_assert_nonnull (werr);
      else if (g_str_equal (formats[f]->id, "sl-anim"))
        {
          g_autoptr(SqClip) back = sq_load_bytes (once, NULL, formats[f], NULL, NULL);
          g_autoptr(GBytes) twice = NULL;

          g_assert_nonnull (back);
          twice = sq_save_bytes (back, formats[f], &opts, NULL, NULL);
          g_assert_true (g_bytes_equal (once, twice));
        }
    }
}

static void
test_corpus_damage (void)
{
  g_autoptr(GPtrArray) files = tu_corpus_files ("sl-anim");
  GRand *rand = g_rand_new_with_seed (4242);

  for (guint i = 0; i < files->len; i++)
    {
      g_autoptr(GBytes) bytes = tu_read (files->pdata[i]);
      gsize len;
      const guint8 *data = g_bytes_get_data (bytes, &len);
      g_autofree guint8 *copy = g_memdup2 (data, len);

      for (gsize n = 0; n < len; n++)
        if (n < 128 || n + 64 > len || n % 509 == 0)
          check_input (data, n);
      for (guint round = 0; round < 12; round++)
        {
          gsize pos = g_rand_int_range (rand, 0, (gint32) len);
          guint8 old = copy[pos];

          copy[pos] = (guint8) g_rand_int_range (rand, 0, 256);
          check_input (copy, len);
          copy[pos] = old;
        }
      /* the header, each byte through many values */
      for (gsize pos = 0; pos < MIN (len, 48); pos++)
        for (guint v = 0; v < 256; v += 51)
          {
            guint8 old = copy[pos];
            copy[pos] = v;
            check_input (copy, len);
            copy[pos] = old;
          }
    }
  g_rand_free (rand);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sl-anim/corpus", test_corpus);
  g_test_add_func ("/sl-anim/known-answer", test_known_answer);
  g_test_add_func ("/sl-anim/truncations", test_truncations);
  g_test_add_func ("/sl-anim/huge-counts", test_huge_counts);
  g_test_add_func ("/sl-anim/unsorted-keys", test_unsorted_keys);
  g_test_add_func ("/sl-anim/every-code", test_every_code);
  g_test_add_func ("/sl-anim/old-variant", test_old_variant);
  g_test_add_func ("/sl-anim/edit-requantises-only-changed", test_edit_requantises_only_changed);
  g_test_add_func ("/sl-anim/conversion-losses", test_conversion_losses);
  g_test_add_func ("/sl-anim/foreign-stable", test_foreign_stable);
  g_test_add_func ("/sl-anim/corpus-damage", test_corpus_damage);
  return g_test_run ();
}
