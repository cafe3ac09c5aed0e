/* test-sims.c: The Sims world: CMX + CFP skills, PSL, KFD and SPS
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every file here is built by the test to the grammar of formats.md 5 and
 * the SimPose-ium spec: known answers for each rule, exact round trips,
 * truncations and byte changes (an error with a message, never a crash).
 */
#include "config.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <sys/wait.h>
#include <math.h>
#include <string.h>

#include "test-utils.h"
#include "sq-core.h"
#include "sq-numbers.h"
#include "worlds/sq-world-sims.h"

/* ---- builders ----------------------------------------------------------- */

/* A skill CMX: ROOT (translation and rotation), PELVIS (translation only)
 * and L_LEG (rotation only), two frames each, keys in "xskill-test.cfp" */
static const char skill_cmx[] =
  "// Character File. Copyright 1997, Maxis Inc.\r\n"
  "version 300\r\n"
  "0\r\n"
  "0\r\n"
  "1\r\n"
  "test-skill\r\n"
  "xskill-test\r\n"
  "66\r\n"
  "0\r\n"
  "0\r\n"
  "4\r\n"
  "4\r\n"
  "3\r\n"
  /* motion 1: with one property list of one property and one time prop */
  "ROOT\r\n2\r\n66\r\n1\r\n1\r\n0\r\n0\r\n1\r\n1\r\nkey\r\nvalue\r\n1\r\n1\r\n33\r\n1\r\nxevt\r\n7\r\n"
  "PELVIS\r\n2\r\n66\r\n1\r\n0\r\n2\r\n-1\r\n0\r\n0\r\n"
  "L_LEG\r\n2\r\n66\r\n0\r\n1\r\n-1\r\n2\r\n0\r\n0\r\n";

static void
put_f32 (GByteArray *b,
         float       v)
{
  guint8 c = 255;

  g_byte_array_append (b, &c, 1);
  tu_le_f32 (b, v);
}

static void
put_code (GByteArray *b,
          guint8      c)
{
  g_byte_array_append (b, &c, 1);
}

static void
put_repeat (GByteArray *b,
            guint       n)
{
  put_code (b, 254);
  tu_le16 (b, n);
}

/* The CFP of skill_cmx: 4 translations, 4 rotations, using codes 255, 254
 * and the deltas 0 (−0.1), 63 (−0.00625), 126 (0), 189 (+0.00625) and
 * 252 (+0.1) */
static GBytes *
skill_cfp (void)
{
  GByteArray *b = g_byte_array_new ();

  /* translations x: 1.5, +0.1, −0.1, +0.00625 */
  put_f32 (b, 1.5f);
  put_code (b, 252);
  put_code (b, 0);
  put_code (b, 189);
  /* y: the running value carries over from x, four times */
  put_repeat (b, 3);
  /* z: −2, 0, −0.00625, repeated once */
  put_f32 (b, -2.0f);
  put_code (b, 126);
  put_code (b, 63);
  put_repeat (b, 0);
  /* rotations x: the running value starts again at 0 */
  put_repeat (b, 3);
  /* y: +0.00625, +0.00625, −0.00625, 0 */
  put_code (b, 189);
  put_code (b, 189);
  put_code (b, 63);
  put_code (b, 126);
  /* z: 0 four times; w: 1 four times */
  put_f32 (b, 0.0f);
  put_repeat (b, 2);
  put_f32 (b, 1.0f);
  put_repeat (b, 2);
  return g_byte_array_free_to_bytes (b);
}

typedef struct
{
  const char *name;
  GBytes     *bytes;      /* NULL: missing */
  guint       calls;
} Companion;

static GBytes *
give_companion (const char *name,
                gpointer    user_data,
                GError    **error)
{
  Companion *c = user_data;

  c->calls++;
  if (c->bytes == NULL || g_strcmp0 (name, c->name) != 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "No such file");
      return NULL;
    }
  return g_bytes_ref (c->bytes);
}

static SqClip *
load_with (GBytes     *bytes,
           Companion  *c,
           GError    **error)
{
  SqLoadOptions options = { 0 };

  options.companion = c != NULL ? give_companion : NULL;
  options.companion_data = c;
  return sq_load_bytes (bytes, "test.cmx", NULL, &options, error);
}

static SqClip *
load_skill (GBytes *cfp)
{
  g_autoptr(GBytes) cmx = g_bytes_new_static (skill_cmx, strlen (skill_cmx));
  g_autoptr(GError) error = NULL;
  Companion c = { "xskill-test.cfp", cfp, 0 };
  SqClip *clip = load_with (cmx, &c, &error);

  g_assert_no_error (error);
  g_assert_nonnull (clip);
  g_assert_true (sq_clip_check (clip, &error));
  g_assert_cmpuint (c.calls, ==, 1);
  return clip;
}

/* Saves through the writer: the main file and its companions */
static GBytes *
save_with (const SqClip *clip,
           const char   *format_id,
           GPtrArray   **companions,
           GPtrArray    *losses)
{
  SqSaveOptions options = { 0 };
  g_autoptr(GError) error = NULL;
  GBytes *out;

  *companions = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_companion_free);
  options.companions = *companions;
  options.no_source_copy = TRUE;
  out = sq_save_bytes (clip, sq_format_by_id (format_id), &options, losses, &error);
  g_assert_no_error (error);
  g_assert_nonnull (out);
  return out;
}

static void
assert_bytes_equal (GBytes *a,
                    GBytes *b)
{
  gsize la, lb;
  const guint8 *pa = g_bytes_get_data (a, &la), *pb = g_bytes_get_data (b, &lb);

  for (gsize i = 0; i < MIN (la, lb); i++)
    if (pa[i] != pb[i])
      g_error ("bytes differ at offset %zu: %02x against %02x", i, pa[i], pb[i]);
  g_assert_cmpuint (la, ==, lb);
}

static SqKey
key_of (const SqClip *clip,
        const char   *joint,
        SqChannel     channel,
        gsize         i)
{
  gssize j = sq_clip_find_joint (clip, joint);

  g_assert_cmpint (j, >=, 0);
  g_assert_cmpuint (i, <, clip->joints[j].tracks[channel].n_keys);
  return sq_track_key (&clip->joints[j].tracks[channel], i);
}

/* ---- CMX + CFP ------------------------------------------------------------- */

static void
test_cmx_known_answer (void)
{
  g_autoptr(GBytes) cfp = skill_cfp ();
  g_autoptr(SqClip) clip = load_skill (cfp);
  const float x1 = 1.5f + 0.1f, x2 = x1 + -0.1f, x3 = x2 + 0.00625f;
  const float z2 = -2.0f + -0.00625f;
  const float y1 = 0.00625f, y2 = y1 + 0.00625f, y3 = y2 + -0.00625f;
  SqKey k;

  g_assert_cmpstr (clip->format->id, ==, "sims-cmx");
  g_assert_cmpstr (clip->name, ==, "test-skill");
  /* the 29 bones in skeleton order */
  g_assert_cmpuint (clip->n_joints, ==, SQ_SIMS_N_BONES);
  g_assert_cmpstr (clip->joints[0].name, ==, "ROOT");
  g_assert_cmpstr (clip->joints[14].name, ==, "SPINE");
  g_assert_cmpstr (clip->joints[28].name, ==, "R_FINGER0");
  g_assert_cmpfloat (clip->fps, ==, 30);
  g_assert_cmpfloat (clip->duration, ==, 1 / 30.0);

  /* ROOT translations (x, y, z arrays) */
  k = key_of (clip, "ROOT", SQ_CHANNEL_TRANSLATION, 0);
  g_assert_cmpfloat (k.time, ==, 0);
  g_assert_cmpfloat (k.v[0], ==, 1.5f);
  g_assert_cmpfloat (k.v[1], ==, x3);
  g_assert_cmpfloat (k.v[2], ==, -2.0f);
  k = key_of (clip, "ROOT", SQ_CHANNEL_TRANSLATION, 1);
  g_assert_cmpfloat (k.time, ==, 1 / 30.0);
  g_assert_cmpfloat (k.v[0], ==, x1);
  g_assert_cmpfloat (k.v[1], ==, x3);
  g_assert_cmpfloat (k.v[2], ==, -2.0f);
  /* PELVIS: translations 2 and 3 of each array, no rotation track */
  k = key_of (clip, "PELVIS", SQ_CHANNEL_TRANSLATION, 0);
  g_assert_cmpfloat (k.v[0], ==, x2);
  g_assert_cmpfloat (k.v[2], ==, z2);
  k = key_of (clip, "PELVIS", SQ_CHANNEL_TRANSLATION, 1);
  g_assert_cmpfloat (k.v[0], ==, x3);
  g_assert_cmpfloat (k.v[2], ==, z2);
  g_assert_cmpuint (clip->joints[1].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 0);
  /* ROOT rotations: stored x y z w → w x y z */
  k = key_of (clip, "ROOT", SQ_CHANNEL_ROTATION, 0);
  g_assert_cmpfloat (k.v[0], ==, 1);
  g_assert_cmpfloat (k.v[1], ==, 0);
  g_assert_cmpfloat (k.v[2], ==, y1);
  g_assert_cmpfloat (k.v[3], ==, 0);
  k = key_of (clip, "ROOT", SQ_CHANNEL_ROTATION, 1);
  g_assert_cmpfloat (k.v[2], ==, y2);
  /* L_LEG: rotations 2 and 3, no translation track */
  k = key_of (clip, "L_LEG", SQ_CHANNEL_ROTATION, 0);
  g_assert_cmpfloat (k.v[2], ==, y3);
  k = key_of (clip, "L_LEG", SQ_CHANNEL_ROTATION, 1);
  g_assert_cmpfloat (k.v[2], ==, y3);
  g_assert_cmpfloat (k.v[0], ==, 1);
  g_assert_cmpuint (clip->joints[2].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, 0);
  /* bones without a motion have no keys */
  g_assert_cmpuint (clip->joints[3].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 0);
}

static void
test_cmx_dump_contract (void)
{
  g_autoptr(GBytes) cfp = skill_cfp ();
  g_autoptr(SqClip) clip = load_skill (cfp);
  g_autofree char *json = sq_dump_json (clip);
  g_autofree char *expect = g_strdup_printf ("[0.03333333333333333,1,0,%.17g,0]", (double) (0.00625f + 0.00625f));

  g_assert_nonnull (strstr (json, "\"format\":\"sims-cmx\""));
  g_assert_nonnull (strstr (json, "{\"name\":\"ROOT\",\"rotations\":[[0,1,0,0.0062500000931322575,0],"));
  g_assert_nonnull (strstr (json, "\"cfp-bytes\":{\"size\":44}"));
  g_assert_nonnull (strstr (json, "\"cfp\":\"xskill-test\""));
  /* ROOT's second rotation: the first plus one step of delta code 127 */
  g_assert_nonnull (strstr (json, expect));
}

static void
test_cmx_round_trip (void)
{
  g_autoptr(GBytes) cfp = skill_cfp ();
  g_autoptr(SqClip) clip = load_skill (cfp);
  g_autoptr(GBytes) cmx = g_bytes_new_static (skill_cmx, strlen (skill_cmx));
  g_autoptr(GPtrArray) companions = NULL;
  g_autoptr(GBytes) out = save_with (clip, "sims-cmx", &companions, NULL);
  const SqCompanion *c;

  assert_bytes_equal (out, cmx);
  g_assert_cmpuint (companions->len, ==, 1);
  c = companions->pdata[0];
  g_assert_cmpstr (c->name, ==, "xskill-test.cfp");
  assert_bytes_equal (c->bytes, cfp);
}

/* An edited key is coded anew: the file reads back with the edit, every
 * other value as it was; an absolute float where no delta reaches it */
static void
test_cmx_edited_keys (void)
{
  g_autoptr(GBytes) cfp = skill_cfp ();
  g_autoptr(SqClip) clip = load_skill (cfp);
  g_autoptr(SqClip) back = NULL;
  g_autoptr(GPtrArray) companions = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;
  SqTrack *track = &clip->joints[0].tracks[SQ_CHANNEL_ROTATION];
  Companion comp = { "xskill-test.cfp", NULL, 0 };
  SqKey *k;

  sq_track_unpack (track);
  k = &track->keys[1];
  k->v[0] = 0.8;
  k->v[2] = 0.6;
  clip->generation++;
  out = save_with (clip, "sims-cmx", &companions, NULL);
  g_assert_cmpuint (companions->len, ==, 1);
  comp.bytes = ((SqCompanion *) companions->pdata[0])->bytes;
  g_assert_false (g_bytes_equal (comp.bytes, cfp));
  back = load_with (out, &comp, &error);
  g_assert_no_error (error);
  for (gsize j = 0; j < clip->n_joints; j++)
    for (int ch = 0; ch < 2; ch++)
      {
        const SqTrack *a = &clip->joints[j].tracks[ch], *b = &back->joints[j].tracks[ch];

        g_assert_cmpuint (a->n_keys, ==, b->n_keys);
        for (gsize i = 0; i < a->n_keys; i++)
          for (int d = 0; d < 4; d++)
            g_assert_cmpfloat ((float) sq_track_key (a, i).v[d], ==, sq_track_key (b, i).v[d]);
      }
  g_assert_cmpfloat (key_of (back, "ROOT", SQ_CHANNEL_ROTATION, 1).v[2], ==, 0.6f);
}

/* The coder: every value of a long track comes back as its float32 */
static void
test_cfp_coder (void)
{
  g_autoptr(GBytes) cfp = skill_cfp ();
  g_autoptr(SqClip) clip = load_skill (cfp);
  g_autoptr(SqClip) back = NULL;
  g_autoptr(GPtrArray) companions = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;
  Companion comp = { "xskill-test.cfp", NULL, 0 };
  SqTrack *track = &clip->joints[5].tracks[SQ_CHANNEL_ROTATION];
  gsize size;

  /* a slow turn: small steps the deltas reach, some they do not, and holds */
  for (int i = 0; i < 300; i++)
    {
      double a = i < 100 ? i * 0.001 : i < 200 ? 0.1 : 0.1 + (i - 200) * 0.0123;
      SqKey *k = sq_track_append (track, i / 30.0);

      k->v[0] = cos (a);
      k->v[2] = sin (a);
    }
  clip->generation++;
  out = save_with (clip, "sims-cmx", &companions, NULL);
  comp.bytes = ((SqCompanion *) companions->pdata[0])->bytes;
  size = g_bytes_get_size (comp.bytes);
  /* 300 × 4 values: held values cost one repeat, not 5 bytes each */
  g_assert_cmpuint (size, <, 300 * 4 * 5 / 2);
  back = load_with (out, &comp, &error);
  g_assert_no_error (error);
  for (int i = 0; i < 300; i++)
    {
      SqKey a = sq_track_key (track, i), b = key_of (back, "L_TOE0", SQ_CHANNEL_ROTATION, i);

      for (int d = 0; d < 4; d++)
        g_assert_cmpfloat ((float) a.v[d], ==, b.v[d]);
    }
}

static void
assert_load_fails (GBytes     *cmx,
                   Companion  *c,
                   const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = load_with (cmx, c, &error);

  g_assert_null (clip);
  tu_assert_mentions (error, fragment);
}

static void
test_cmx_cfp_errors (void)
{
  g_autoptr(GBytes) cmx = g_bytes_new_static (skill_cmx, strlen (skill_cmx));
  g_autoptr(GBytes) cfp = skill_cfp ();
  Companion missing = { "xskill-test.cfp", NULL, 0 };
  gsize len = g_bytes_get_size (cfp);
  g_autofree char *over = NULL;
  g_autoptr(GBytes) over_bytes = NULL;

  assert_load_fails (cmx, NULL, "xskill-test.cfp");
  assert_load_fails (cmx, &missing, "xskill-test.cfp");
  /* every shorter CFP names the file */
  for (gsize n = 0; n < len; n++)
    {
      g_autoptr(GBytes) part = g_bytes_new_from_bytes (cfp, 0, n);
      Companion c = { "xskill-test.cfp", part, 0 };

      assert_load_fails (cmx, &c, "xskill-test.cfp");
    }
  /* a CFP that ends inside its first float, or has a byte that is no code
   * (253 where the second value's code is), names the offset in the CFP */
  {
    g_autoptr(GBytes) part = g_bytes_new_from_bytes (cfp, 0, 3);
    g_autofree guint8 *bad = g_memdup2 (g_bytes_get_data (cfp, NULL), len);
    g_autoptr(GBytes) bad_bytes = NULL;
    Companion c = { "xskill-test.cfp", part, 0 };

    assert_load_fails (cmx, &c, "ends inside the translations (value 1 of 12) at offset 0x1 (1)");
    g_assert_cmpuint (bad[5], ==, 252);
    bad[5] = 253;
    bad_bytes = g_bytes_new (bad, len);
    c.bytes = bad_bytes;
    assert_load_fails (cmx, &c, "byte 253 is no CFP code (in the translations, value 2 of 12) at offset 0x5 (5)");
  }
  /* offsets beyond the arrays name the motion */
  over = g_strdup (skill_cmx);
  {
    static const char at[] = "L_LEG\r\n2\r\n66\r\n0\r\n1\r\n-1\r\n2";
    char *p = strstr (over, at);

    g_assert_nonnull (p);
    p[strlen (at) - 1] = '3';
  }
  over_bytes = g_bytes_new (over, strlen (over));
  {
    Companion c = { "xskill-test.cfp", cfp, 0 };
    assert_load_fails (over_bytes, &c, "motion “L_LEG”");
  }
}

/* Two skills (the second kept as text), a motion for a bone the skeleton
 * does not have, and a byte after the CFP's keys: shown, warned about,
 * and saved back as they were */
static void
test_cmx_more_skills (void)
{
  g_autofree char *text = g_strconcat (skill_cmx, "other\r\nxskill-other\r\n0\r\n0\r\n0\r\n0\r\n0\r\n0\r\n", NULL);
  g_autoptr(GBytes) cfp = skill_cfp ();
  g_autoptr(GByteArray) longer = g_byte_array_new ();
  g_autoptr(GBytes) cfp_longer = NULL, cmx = NULL, out = NULL;
  g_autoptr(GPtrArray) companions = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = NULL;
  Companion c = { "xskill-test.cfp", NULL, 0 };
  char *count = strstr (text, "\r\n1\r\ntest-skill");
  char *bone = strstr (text, "L_LEG\r\n2\r\n66");

  g_assert_nonnull (count);
  count[2] = '2';
  memcpy (bone, "L_EAR", 5);
  g_byte_array_append (longer, g_bytes_get_data (cfp, NULL), g_bytes_get_size (cfp));
  g_byte_array_append (longer, (const guint8 *) "\x7e", 1);
  cfp_longer = g_bytes_new (longer->data, longer->len);
  c.bytes = cfp_longer;
  cmx = g_bytes_new (text, strlen (text));
  clip = load_with (cmx, &c, &error);
  g_assert_no_error (error);
  g_assert_true (sq_clip_check (clip, &error));
  {
    gsize n;
    guint take;
    const char * const *takes = sq_clip_get_takes (clip, &n, &take);

    /* two skills: two takes, the first shown; no warning about it */
    g_assert_cmpuint (n, ==, 2);
    g_assert_cmpuint (take, ==, 0);
    g_assert_cmpstr (takes[0], ==, "test-skill");
    g_assert_cmpstr (takes[1], ==, "other");
    g_assert_false (tu_has_line (clip->warnings, "skills"));
  }
  g_assert_true (tu_has_line (clip->warnings, "motion “L_EAR” is not one of the 29 bones"));
  g_assert_true (tu_has_line (clip->warnings, "“xskill-test.cfp” has 1 bytes after its keys (kept)"));
  g_assert_cmpuint (clip->n_joints, ==, SQ_SIMS_N_BONES + 1);
  g_assert_cmpstr (clip->joints[SQ_SIMS_N_BONES].name, ==, "L_EAR");
  g_assert_cmpfloat (key_of (clip, "L_EAR", SQ_CHANNEL_ROTATION, 1).v[2], ==, 0.00625f);
  out = save_with (clip, "sims-cmx", &companions, NULL);
  assert_bytes_equal (out, cmx);
  assert_bytes_equal (((SqCompanion *) companions->pdata[0])->bytes, cfp_longer);
}

/* The second skill of a CMX chosen (SqLoadOptions.take): its CFP read, an
 * unedited one saved exactly, an edited one written in its place with the
 * first as it was; a skill the file lacks refused */
static void
test_cmx_take (void)
{
  const char *skill = strstr (skill_cmx, "test-skill\r\n");
  g_autofree char *block = g_strdup (skill);
  g_autofree char *second = NULL, *text = NULL;
  g_autoptr(GBytes) cfp = skill_cfp ();
  g_autoptr(GBytes) cmx = NULL, out = NULL;
  g_autoptr(GPtrArray) companions = NULL;
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(SqClip) back = NULL;
  g_autoptr(SqClip) first = NULL;
  Companion c = { "xskill-test.cfp", NULL, 0 };
  SqLoadOptions options = { 0 };
  gsize n;
  guint take;
  char *count;

  /* the same skill twice, the second named "second" */
  memcpy (block, "second-sk", 9);   /* "second-skl" */
  second = g_strconcat (skill_cmx, block, NULL);
  count = strstr (second, "\r\n1\r\ntest-skill");
  g_assert_nonnull (count);
  count[2] = '2';
  text = g_steal_pointer (&second);
  cmx = g_bytes_new (text, strlen (text));
  c.bytes = cfp;
  options.companion = give_companion;
  options.companion_data = &c;
  options.take = 1;
  clip = sq_load_bytes (cmx, "test.cmx", NULL, &options, &error);
  g_assert_no_error (error);
  g_assert_true (sq_clip_check (clip, &error));
  g_assert_cmpstr (sq_clip_get_takes (clip, &n, &take)[1], ==, "second-skl");
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (take, ==, 1);
  g_assert_cmpstr (clip->name, ==, "second-skl");
  g_assert_cmpuint (clip->n_joints, ==, SQ_SIMS_N_BONES);

  /* unedited: written as it was (the first skill before it) */
  out = save_with (clip, "sims-cmx", &companions, NULL);
  assert_bytes_equal (out, cmx);
  g_clear_pointer (&out, g_bytes_unref);
  g_clear_pointer (&companions, g_ptr_array_unref);

  /* edited: the first skill's text untouched, the second written anew */
  {
    g_autoptr(SqEdit) rename = sq_edit_sims_skill_name_new ("renamed");

    g_assert_true (sq_edit_apply (rename, clip, &error));
    g_assert_no_error (error);
  }
  out = save_with (clip, "sims-cmx", &companions, losses);
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (out, NULL), g_bytes_get_size (out), skill));
  g_assert_cmpuint (losses->len, ==, 0);
  options.take = 0;
  c.calls = 0;
  first = sq_load_bytes (out, "test.cmx", NULL, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (first->name, ==, "test-skill");
  options.take = 1;
  back = sq_load_bytes (out, "test.cmx", NULL, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (back->name, ==, "renamed");
  g_assert_cmpstr (sq_clip_get_takes (back, NULL, NULL)[0], ==, "test-skill");

  /* a third skill there is not */
  g_clear_pointer (&back, sq_clip_free);
  options.take = 2;
  back = sq_load_bytes (cmx, "test.cmx", NULL, &options, &error);
  g_assert_null (back);
  g_assert_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "there is no skill 3: the file has 2"));
}

static const char skeleton_cmx[] =
  "// Character File. Copyright 1997, Maxis Inc.\n"
  "version 300\n"
  "1\n"
  "tiny\n"
  "3\n"
  "ROOT\nNULL\n0\n| 0 3 0 |\n| 0 0 0 1 |\n1\n1\n0\n0\n0\n"
  "PELVIS\nROOT\n1\n1\nname\ntiny\n| 0.5 0 0 |\n| 0.5 0.5 0.5 -0.5 |\n1\n1\n0\n0\n0\n"
  "HEAD\nPELVIS\n0\n| 1 0 0 |\n| 0 0.707107 0 0.707107 |\n0\n1\n1\n700000\n0.05\n"
  "0\n"
  "0\n";

static void
test_cmx_skeleton (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (skeleton_cmx, strlen (skeleton_cmx));
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = load_with (bytes, NULL, &error);
  g_autoptr(GPtrArray) companions = NULL;
  g_autoptr(GBytes) out = NULL;
  SqKey k;
  double off[3];

  g_assert_no_error (error);
  g_assert_true (sq_clip_check (clip, &error));
  g_assert_cmpuint (clip->n_joints, ==, 3);
  g_assert_cmpstr (clip->joints[2].name, ==, "HEAD");
  g_assert_cmpint (sq_props_get_int (clip->joints[2].extra, "parent", -9), ==, 1);
  g_assert_cmpint (sq_props_get_int (clip->joints[0].extra, "parent", -9), ==, -1);
  g_variant_get (sq_props_get (clip->joints[1].extra, "offset"), "(ddd)", &off[0], &off[1], &off[2]);
  g_assert_cmpfloat (off[0], ==, 0.5);
  /* the rest rotation is the one key: x y z w → w x y z */
  k = key_of (clip, "PELVIS", SQ_CHANNEL_ROTATION, 0);
  g_assert_cmpfloat (k.v[0], ==, -0.5);
  g_assert_cmpfloat (k.v[1], ==, 0.5);
  out = save_with (clip, "sims-cmx", &companions, NULL);
  g_assert_cmpuint (companions->len, ==, 0);
  assert_bytes_equal (out, bytes);
}

/* A skeleton's edits are written: a renamed bone (and its children's
 * parent lines), a turned bone, a deleted bone; the other lines as read,
 * and an unedited skeleton written anew gives the same bytes */
static void
test_cmx_skeleton_edits (void)
{
  static const char *invert[] = { "HIPS", NULL };
  g_autoptr(GBytes) bytes = g_bytes_new_static (skeleton_cmx, strlen (skeleton_cmx));
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = load_with (bytes, NULL, &error);
  g_autoptr(SqEdit) rename = sq_edit_rename_joint_new ("PELVIS", "HIPS");
  g_autoptr(SqEdit) turn = sq_edit_invert_xz_new (invert);
  g_autoptr(SqEdit) del = sq_edit_delete_joint_new ("HEAD");
  g_autoptr(GPtrArray) companions = NULL;
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GBytes) same = NULL, renamed = NULL, turned = NULL, deleted = NULL;
  g_autofree char *renamed_text = NULL, *turned_text = NULL, *deleted_text = NULL;
  g_autoptr(SqClip) back = NULL;
  SqKey k;

  g_assert_no_error (error);
  same = save_with (clip, "sims-cmx", &companions, NULL);
  assert_bytes_equal (same, bytes);

  g_assert_true (sq_edit_apply (rename, clip, &error));
  g_assert_no_error (error);
  g_clear_pointer (&companions, g_ptr_array_unref);
  renamed = save_with (clip, "sims-cmx", &companions, losses);
  g_assert_cmpuint (losses->len, ==, 0);
  renamed_text = g_strndup (g_bytes_get_data (renamed, NULL), g_bytes_get_size (renamed));
  /* the bone's line and its child's parent line, nothing else */
  g_assert_cmpstr (renamed_text, ==,
                   "// Character File. Copyright 1997, Maxis Inc.\n"
                   "version 300\n"
                   "1\n"
                   "tiny\n"
                   "3\n"
                   "ROOT\nNULL\n0\n| 0 3 0 |\n| 0 0 0 1 |\n1\n1\n0\n0\n0\n"
                   "HIPS\nROOT\n1\n1\nname\ntiny\n| 0.5 0 0 |\n| 0.5 0.5 0.5 -0.5 |\n1\n1\n0\n0\n0\n"
                   "HEAD\nHIPS\n0\n| 1 0 0 |\n| 0 0.707107 0 0.707107 |\n0\n1\n1\n700000\n0.05\n"
                   "0\n"
                   "0\n");

  /* a turned bone gets its rotation line written anew */
  g_assert_true (sq_edit_apply (turn, clip, &error));
  g_clear_pointer (&companions, g_ptr_array_unref);
  turned = save_with (clip, "sims-cmx", &companions, NULL);
  back = load_with (turned, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (back->joints[1].name, ==, "HIPS");
  k = key_of (back, "HIPS", SQ_CHANNEL_ROTATION, 0);
  g_assert_cmpfloat (k.v[0], ==, -0.5);
  g_assert_cmpfloat (k.v[1], ==, -0.5);
  g_assert_cmpfloat (k.v[2], ==, 0.5);
  g_assert_cmpfloat (k.v[3], ==, -0.5);
  turned_text = g_strndup (g_bytes_get_data (turned, NULL), g_bytes_get_size (turned));
  g_assert_nonnull (strstr (turned_text, "\n| -0.5 0.5 -0.5 -0.5 |\n"));
  g_clear_pointer (&back, sq_clip_free);

  /* a deleted bone leaves the skeleton, the count follows */
  g_assert_true (sq_edit_apply (del, clip, &error));
  g_clear_pointer (&companions, g_ptr_array_unref);
  deleted = save_with (clip, "sims-cmx", &companions, NULL);
  back = load_with (deleted, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->n_joints, ==, 2);
  g_assert_cmpint (sq_clip_find_joint (back, "HEAD"), <, 0);
  deleted_text = g_strndup (g_bytes_get_data (deleted, NULL), g_bytes_get_size (deleted));
  g_assert_nonnull (strstr (deleted_text, "tiny\n2\nROOT\n"));
}

/* ---- SimPose-ium poses ------------------------------------------------------ */

/* A pose with Time `time`: translations and 29 rotations derived from `seed` */
static void
put_pose (GString    *s,
          gint64      time,
          int         seed,
          const char *eol)
{
  g_string_append_printf (s, "Time %" G_GINT64_FORMAT "%s", time, eol);
  g_string_append_printf (s, "| %.6f %.6f %.6f |%s", 0.01 * seed, 3.0 + 0.001 * seed, -0.5, eol);
  g_string_append_printf (s, "| %.6f %.6f %.6f |%s", -0.036678, 0.0, 0.002 * seed, eol);
  for (int b = 0; b < SQ_SIMS_N_BONES; b++)
    {
      double a = 0.01 * (b + seed);
      g_string_append_printf (s, "| %.6f %.6f %.6f %.6f |%s", sin (a), 0.0, -0.0, cos (a), eol);
    }
}

static char *
build_psl (int v,
           const char *eol)
{
  GString *s = g_string_new (NULL);

  if (v == 5)
    g_string_append_printf (s, "POSELIBRARY2 3 4%s", eol);
  else
    g_string_append_printf (s, "POSELIBRARY 3%s", eol);
  g_string_append_printf (s, "Stand%s", eol);
  put_pose (s, 0, 1, eol);
  g_string_append_printf (s, "Sit down%s", eol);
  put_pose (s, v == 5 ? 1 : 0, 2, eol);
  g_string_append_printf (s, "Wave é%s", eol);
  put_pose (s, v == 5 ? -1 : 7, 3, eol);
  if (v == 5)
    g_string_append_printf (s, "Arms%s00000000000000000001111111111111%sLegs child%s11100001111110000000000000000000%s",
                            eol, eol, eol, eol);
  return g_string_free (s, FALSE);
}

static SqClip *
load_text_ok (const char *text,
              const char *id)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
  SqClip *clip = sq_load_bytes (bytes, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (clip);
  g_assert_cmpstr (clip->format->id, ==, id);
  g_assert_true (sq_clip_check (clip, &error));
  g_assert_no_error (error);
  return clip;
}

static void
assert_writer_exact (const SqClip *clip,
                     const char   *text)
{
  g_autoptr(GPtrArray) companions = NULL;
  g_autoptr(GBytes) out = save_with (clip, clip->format->id, &companions, NULL);
  g_autoptr(GBytes) want = g_bytes_new_static (text, strlen (text));

  assert_bytes_equal (out, want);
  g_assert_cmpuint (companions->len, ==, 0);
}

static void
test_psl (gconstpointer data)
{
  int v = GPOINTER_TO_INT (data);
  g_autofree char *latin1 = NULL;
  g_autofree char *text = build_psl (v, v == 5 ? "\r\n" : "\n");
  g_autoptr(SqClip) clip = NULL;
  g_autofree char *json = NULL;
  SqKey k;
  gsize n;

  /* names are Latin-1 in the file */
  latin1 = g_convert (text, -1, "ISO-8859-1", "UTF-8", NULL, &n, NULL);
  clip = load_text_ok (latin1, "simpose-psl");
  g_assert_cmpuint (clip->n_joints, ==, SQ_SIMS_N_BONES);
  g_assert_cmpint (sq_props_get_int (clip->extra, "version", 0), ==, v);
  /* pose i at i/30 s */
  k = key_of (clip, "ROOT", SQ_CHANNEL_TRANSLATION, 2);
  g_assert_cmpfloat (k.time, ==, 2 / 30.0);
  g_assert_cmpfloat (k.v[0], ==, 0.03);
  g_assert_cmpfloat (k.v[1], ==, 3.003);
  k = key_of (clip, "PELVIS", SQ_CHANNEL_TRANSLATION, 1);
  g_assert_cmpfloat (k.v[2], ==, 0.004);
  /* rotation 28 of pose 1: x = sin(0.30), s = cos(0.30) */
  k = key_of (clip, "R_FINGER0", SQ_CHANNEL_ROTATION, 1);
  g_assert_cmpfloat (k.v[0], ==, 0.955336);
  g_assert_cmpfloat (k.v[1], ==, 0.295520);
  g_assert_cmpuint (clip->joints[5].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, 0);

  json = sq_dump_json (clip);
  g_assert_nonnull (strstr (json, "\"pose-names\":[\"Stand\",\"Sit down\",\"Wave é\"]"));
  if (v == 5)
    {
      g_assert_nonnull (strstr (json, "\"pose-times\":[0,1,-1]"));
      g_assert_nonnull (strstr (json, "\"subsets\":[{\"name\":\"Arms\",\"skeleton\":\"adult\","
                                      "\"mask\":\"00000000000000000001111111111111\"},"
                                      "{\"name\":\"Legs child\",\"skeleton\":\"child\""));
    }
  else
    g_assert_nonnull (strstr (json, "\"pose-times\":[0,0,7]"));
  assert_writer_exact (clip, latin1);
}

static char *
build_kfd (gint64 seq,
           const gint64 *times,
           guint n,
           const char *start)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "KeyFrame %u 40 %" G_GINT64_FORMAT "\r\n", n, seq);
  g_string_append_printf (s, "s%s%s\r\ne\r\n", start[0] ? " " : "", start);
  for (guint i = 0; i < n; i++)
    put_pose (s, times[i], (int) i + 4, "\r\n");
  return g_string_free (s, FALSE);
}

static void
test_kfd (void)
{
  static const gint64 times[] = { 0, 10, 25, 39 };
  g_autofree char *text = build_kfd (80, times, 4, "Stand up");
  g_autoptr(SqClip) clip = load_text_ok (text, "simpose-kfd");
  g_autofree char *json = sq_dump_json (clip);
  SqKey k;

  /* Time n at n/30 s */
  k = key_of (clip, "HEAD", SQ_CHANNEL_ROTATION, 2);
  g_assert_cmpfloat (k.time, ==, 25 / 30.0);
  g_assert_cmpfloat (k.v[1], ==, 0.237703);   /* sin (0.01 × (18 + 6)) to 6 decimals */
  g_assert_cmpfloat (clip->duration, ==, 39 / 30.0);
  g_assert_cmpint (sq_props_get_int (clip->extra, "frames", 0), ==, 40);
  g_assert_cmpint (sq_props_get_int (clip->extra, "sequence-length", 0), ==, 80);
  g_assert_true (sq_props_get_bool (clip->extra, "bounce", FALSE));
  g_assert_nonnull (strstr (json, "\"start-pose\":\"Stand up\",\"end-pose\":\"\""));
  assert_writer_exact (clip, text);
}

static void
assert_text_fails (const char *text,
                   const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
  g_autoptr(SqClip) clip = sq_load_bytes (bytes, NULL, NULL, NULL, &error);

  g_assert_null (clip);
  tu_assert_mentions (error, fragment);
}

static void
test_kfd_errors (void)
{
  static const gint64 backwards[] = { 0, 12, 12 };
  static const gint64 fine[] = { 0, 39 };
  g_autofree char *a = build_kfd (40, backwards, 3, "");
  g_autofree char *b = build_kfd (40, fine, 2, "");
  g_autofree char *lying = NULL;

  assert_text_fails (a, "Time 12 is not after the previous pose's Time 12");
  lying = g_strdup (b);
  lying[9] = '3';   /* KeyFrame 3 …: a pose more than the file holds */
  assert_text_fails (lying, "ends where Time was expected");
  lying[9] = '1';   /* one pose fewer: text after them */
  assert_text_fails (lying, "text after");
}

static const char sps_text[] =
  "SimPoseSPS 1\r\n"
  "|Start\r\n"
  "N 0 0 0 1 0 0\r\n"
  "N 4 1 0 3 0 -2\r\n"
  "A a2o-wave\r\n"
  "N 1 1 3 2 0 3\r\n"
  "|End\r\n"
  "|Start\r\n"
  "N 0 0 0 1 0 0\r\n"
  "|End\r\n"
  "|Start\r\n"
  "|End\r\n"
  "Selected 1\r\n"
  "f 0 0 0 1 0\r\n"
  "m 0 xskin-head\r\n"
  "t 0 head.bmp\r\n"
  "m 1 xskin-body\r\n"
  "t 1 body.bmp\r\n"
  "f - end\r\n"
  "f 1 3 1 1 1\r\n"
  "m 0 c-head\r\n"
  "t 0 c head.bmp\r\n"
  "f - end\r\n";

static void
test_sps (void)
{
  g_autoptr(SqClip) clip = load_text_ok (sps_text, "simpose-sps");
  g_autofree char *json = sq_dump_json (clip);

  g_assert_cmpuint (clip->n_joints, ==, 0);
  g_assert_nonnull (strstr (json, "\"trees\":[[{\"type\":0,\"parent\":0,\"sibling\":0,\"id\":1,\"m\":0,\"n\":0,"
                                  "\"animations\":[]},{\"type\":4,\"parent\":1,\"sibling\":0,\"id\":3,\"m\":0,"
                                  "\"n\":-2,\"animations\":[\"a2o-wave\"]},"));
  g_assert_nonnull (strstr (json, "\"selected\":1"));
  g_assert_nonnull (strstr (json, "{\"id\":1,\"type\":3,\"hidden\":1,\"offset\":1,\"skeleton\":1,\"parts\":"
                                  "[{\"kind\":\"mesh\",\"part\":0,\"name\":\"c-head\"},"
                                  "{\"kind\":\"texture\",\"part\":0,\"name\":\"c head.bmp\"}]}"));
  assert_writer_exact (clip, sps_text);
}

/* ---- across worlds ----------------------------------------------------------- */

/* A KFD of `n` frames: every bone at rest but those that have a Second Life
 * counterpart, which swing as in a walk; PELVIS bobs */
static char *
build_walk (int n)
{
  const SqSimsBone *bones = sq_sims_skeleton (SQ_SIMS_ADULT);
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "KeyFrame %d %d %d\r\ns\r\ne\r\n", n, n, n);
  for (int f = 0; f < n; f++)
    {
      double phase = 2 * G_PI * f / (n - 1);

      g_string_append_printf (s, "Time %d\r\n", f);
      g_string_append_printf (s, "| %.6f %.6f %.6f |\r\n", bones[0].pos[0], bones[0].pos[1], bones[0].pos[2]);
      g_string_append_printf (s, "| %.6f %.6f %.6f |\r\n", bones[1].pos[0] + 0.05 * sin (2 * phase), bones[1].pos[1],
                              bones[1].pos[2]);
      for (int b = 0; b < SQ_SIMS_N_BONES; b++)
        {
          double rest[4], swing[4], q[4], out[4];
          double a = sq_sims_bone_sl_name (b) != NULL && b != 1 ? 0.3 * sin (phase + b) : b == 1 ? 0.05 * sin (phase) : 0;

          _sq_sims_quat_from_file (bones[b].rot, rest);
          swing[0] = cos (a / 2);
          swing[1] = sin (a / 2) * 0.6;
          swing[2] = 0;
          swing[3] = sin (a / 2) * 0.8;
          sq_quat_multiply (rest, swing, q);
          sq_quat_normalize (q);
          _sq_sims_quat_to_file (q, out);
          g_string_append_printf (s, "| %.6f %.6f %.6f %.6f |\r\n", out[0], out[1], out[2], out[3]);
        }
    }
  return g_string_free (s, FALSE);
}

/* A Sims walk → .anim (which passes the SL checks) → KFD gives the walk
 * back within the .anim quantum; and → BVH reads back */
static void
test_walk_to_anim_and_back (void)
{
  g_autofree char *text = build_walk (31);
  g_autoptr(SqClip) walk = load_text_ok (text, "simpose-kfd");
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GBytes) anim = tu_save (walk, "sl-anim", losses);
  g_autoptr(SqClip) sl = tu_load_ok (anim);
  g_autoptr(GPtrArray) findings = sq_validate (sl, "sl", NULL);
  g_autoptr(GBytes) kfd = NULL, bvh = NULL;
  g_autoptr(SqClip) back = NULL, from_bvh = NULL;
  double worst = 0, worst_t = 0;

  g_assert_false (sq_findings_have_errors (findings));
  g_assert_cmpuint (sl->n_joints, ==, 21);
  g_assert_cmpint (sq_clip_find_joint (sl, "mPelvis"), >=, 0);
  g_assert_cmpint (sq_clip_find_joint (sl, "mWristRight"), >=, 0);
  kfd = tu_save (sl, "simpose-kfd", NULL);
  back = tu_load_ok (kfd);
  g_assert_cmpstr (back->format->id, ==, "simpose-kfd");
  g_assert_cmpuint (back->n_joints, ==, SQ_SIMS_N_BONES);
  for (int b = 0; b < SQ_SIMS_N_BONES; b++)
    {
      const SqTrack *a = &walk->joints[b].tracks[SQ_CHANNEL_ROTATION], *c = &back->joints[b].tracks[SQ_CHANNEL_ROTATION];

      g_assert_cmpuint (c->n_keys, ==, a->n_keys);
      for (gsize k = 0; k < a->n_keys; k++)
        {
          SqKey x = sq_track_key (a, k), y = sq_track_key (c, k);
          double dot = 0, d = 0;

          for (int i = 0; i < 4; i++)
            dot += x.v[i] * y.v[i];
          for (int i = 0; i < 4; i++)
            d = MAX (d, fabs (x.v[i] - (dot < 0 ? -y.v[i] : y.v[i])));
          worst = MAX (worst, d);
        }
    }
  for (gsize k = 0; k < walk->joints[1].tracks[SQ_CHANNEL_TRANSLATION].n_keys; k++)
    for (int i = 0; i < 3; i++)
      worst_t = MAX (worst_t, fabs (sq_track_key (&walk->joints[1].tracks[SQ_CHANNEL_TRANSLATION], k).v[i]
                                    - sq_track_key (&back->joints[1].tracks[SQ_CHANNEL_TRANSLATION], k).v[i]));
  /* 16-bit rotations chained over up to six bones, 6 decimals in the KFD */
  g_assert_cmpfloat (worst, <, 2e-3);
  g_assert_cmpfloat (worst_t, <, 2e-3);
  g_assert_true (tu_has_line (losses, "bone “L_TOE02” has no Second Life counterpart") == FALSE);

  /* BVH: written and read back with the SL names' BVH aliases */
  bvh = tu_save (walk, "bvh", NULL);
  from_bvh = tu_load_ok (bvh);
  g_assert_cmpstr (from_bvh->format->id, ==, "bvh");
  g_assert_cmpuint (from_bvh->n_joints, >=, 21);
}

/* The walk skill of tests/data/sims (make-walk.py): walk.cmx and its
 * xskill-walk.cfp, read as the CLI reads them */
static GBytes *
data_file (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "sims", name, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;
  gsize len = 0;

  g_file_get_contents (path, &text, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (text, len);
}

static SqClip *
load_walk_skill (void)
{
  g_autoptr(GBytes) cmx = data_file ("walk.cmx");
  g_autoptr(GBytes) cfp = data_file ("xskill-walk.cfp");
  g_autoptr(GError) error = NULL;
  Companion c = { "xskill-walk.cfp", cfp, 0 };
  SqClip *clip = load_with (cmx, &c, &error);

  g_assert_no_error (error);
  g_assert_nonnull (clip);
  g_assert_cmpstr (clip->format->id, ==, "sims-cmx");
  g_assert_cmpuint (clip->n_joints, ==, SQ_SIMS_N_BONES);
  return clip;
}

/* The unit direction from joint `a` to joint `b` of a posed skeleton */
static void
bone_direction (const SqClip *clip,
                const double *points,
                const char   *a,
                const char   *b,
                double        out[3])
{
  gssize i = sq_clip_find_joint (clip, a), j = sq_clip_find_joint (clip, b);
  double len = 0;

  g_assert_cmpint (i, >=, 0);
  g_assert_cmpint (j, >=, 0);
  for (int k = 0; k < 3; k++)
    {
      out[k] = points[3 * j + k] - points[3 * i + k];
      len += out[k] * out[k];
    }
  g_assert_cmpfloat (len, >, 1e-8);
  for (int k = 0; k < 3; k++)
    out[k] /= sqrt (len);
}

/* The largest angle (degrees), over every frame, between the limbs of the
 * Sims clip and those of its conversion (posed on its own skeleton, `lag`
 * frames later): the same motion on another skeleton points every limb
 * the same way in the world */
static double
worst_limb_angle (const SqClip *sims,
                  const SqClip *other,
                  const char   *names[][4],
                  gsize         n_names,
                  int           lag)
{
  g_autoptr(SqPose) a = sq_pose_new (sims);
  g_autoptr(SqPose) b = sq_pose_new (other);
  g_autofree double *pa = g_new (double, 3 * sims->n_joints);
  g_autofree double *pb = g_new (double, 3 * other->n_joints);
  double worst = 0;

  for (int f = 0; f <= (int) floor (sims->duration * SQ_SIMS_FPS + 0.5); f++)
    {
      sq_pose_evaluate (a, sims, f / SQ_SIMS_FPS, pa);
      sq_pose_evaluate (b, other, (f + lag) / SQ_SIMS_FPS, pb);
      for (gsize i = 0; i < n_names; i++)
        {
          double u[3], v[3];

          bone_direction (sims, pa, names[i][0], names[i][1], u);
          bone_direction (other, pb, names[i][2], names[i][3], v);
          worst = MAX (worst, acos (CLAMP (u[0] * v[0] + u[1] * v[1] + u[2] * v[2], -1, 1)) * 180 / G_PI);
        }
    }
  return worst;
}

/* The built walk skill (arms down at rest, as every Sim) converted to
 * .anim and BVH swings the same limbs the same way on Second Life's
 * skeleton (arms out at rest), passes the SL checks, and comes back to a
 * CMX skill within the .anim quantum */
static void
test_walk_skill_retargeted (void)
{
  static const char *anim_limbs[][4] = {
    { "L_ARM1", "L_ARM2", "mShoulderLeft", "mElbowLeft" }, { "L_ARM2", "L_HAND", "mElbowLeft", "mWristLeft" },
    { "R_ARM1", "R_ARM2", "mShoulderRight", "mElbowRight" }, { "R_ARM2", "R_HAND", "mElbowRight", "mWristRight" },
    { "L_LEG", "L_LEG1", "mHipLeft", "mKneeLeft" }, { "L_LEG1", "L_FOOT", "mKneeLeft", "mAnkleLeft" },
    { "R_LEG", "R_LEG1", "mHipRight", "mKneeRight" }, { "R_LEG1", "R_FOOT", "mKneeRight", "mAnkleRight" },
    { "SPINE2", "NECK", "mChest", "mNeck" }, { "NECK", "HEAD", "mNeck", "mHead" },
  };
  static const char *bvh_limbs[][4] = {
    { "L_ARM1", "L_ARM2", "lShldr", "lForeArm" }, { "L_ARM2", "L_HAND", "lForeArm", "lHand" },
    { "R_ARM1", "R_ARM2", "rShldr", "rForeArm" }, { "R_ARM2", "R_HAND", "rForeArm", "rHand" },
    { "L_LEG", "L_LEG1", "lThigh", "lShin" }, { "L_LEG1", "L_FOOT", "lShin", "lFoot" },
    { "R_LEG", "R_LEG1", "rThigh", "rShin" }, { "R_LEG1", "R_FOOT", "rShin", "rFoot" },
    { "SPINE2", "NECK", "chest", "neck" }, { "NECK", "HEAD", "neck", "head" },
  };
  static const char *aw_limbs[][4] = {
    { "L_ARM1", "L_ARM2", "lfshoulder", "lfelbow" }, { "L_ARM2", "L_HAND", "lfelbow", "lfwrist" },
    { "R_ARM1", "R_ARM2", "rtshoulder", "rtelbow" }, { "R_ARM2", "R_HAND", "rtelbow", "rtwrist" },
    { "L_LEG", "L_LEG1", "lfhip", "lfknee" }, { "L_LEG1", "L_FOOT", "lfknee", "lfankle" },
    { "R_LEG", "R_LEG1", "rthip", "rtknee" }, { "R_LEG1", "R_FOOT", "rtknee", "rtankle" },
    { "NECK", "HEAD", "neck", "head" },
  };
  g_autoptr(SqClip) walk = load_walk_skill ();
  g_autoptr(GBytes) seq = tu_save (walk, "seq-binary", NULL);
  g_autoptr(SqClip) aw = tu_load_ok (seq);
  g_autoptr(SqClip) aw_back = NULL;
  g_autoptr(GBytes) anim = tu_save (walk, "sl-anim", NULL);
  g_autoptr(GBytes) bvh = tu_save (walk, "bvh", NULL);
  g_autoptr(SqClip) sl = tu_load_ok (anim);
  g_autoptr(SqClip) from_bvh = tu_load_ok (bvh);
  g_autoptr(GPtrArray) findings = sq_validate (sl, "sl", NULL);
  g_autoptr(GPtrArray) companions = NULL;
  g_autoptr(GBytes) cmx = NULL;
  g_autoptr(SqClip) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree double *p = g_new (double, 3 * SQ_SIMS_N_BONES);
  g_autoptr(SqPose) pose = sq_pose_new (walk);
  double worst = 0, arm_swing = 0;
  Companion c = { "xskill-walk.cfp", NULL, 0 };

  g_assert_false (sq_findings_have_errors (findings));
  /* the walk swings the arms down by the body, not held out */
  for (int f = 0; f < 30; f++)
    {
      double u[3];

      sq_pose_evaluate (pose, walk, f / SQ_SIMS_FPS, p);
      bone_direction (walk, p, "L_ARM1", "L_ARM2", u);
      g_assert_cmpfloat (u[2], <, -0.85);
      arm_swing = MAX (arm_swing, fabs (u[0]));
    }
  g_assert_cmpfloat (arm_swing, >, 0.25);
  g_assert_cmpfloat (worst_limb_angle (walk, sl, anim_limbs, G_N_ELEMENTS (anim_limbs), 0), <, 1.0);
  /* a BVH made from a skill starts with the walk, as one made from an
   * ActiveWorlds file (only a .anim's BVH gets a rest frame before it) */
  g_assert_cmpfloat (worst_limb_angle (walk, from_bvh, bvh_limbs, G_N_ELEMENTS (bvh_limbs), 0), <, 1.0);
  /* ActiveWorlds' avatars stand with their arms down: the same limbs on them */
  g_assert_cmpfloat (worst_limb_angle (walk, aw, aw_limbs, G_N_ELEMENTS (aw_limbs), 0), <, 1.0);
  /* and back from ActiveWorlds */
  aw_back = sq_convert (aw, sq_format_by_id ("simpose-kfd"), NULL, NULL, &error);
  g_assert_no_error (error);
  {
    static const char *sims_limbs[][4] = {
      { "L_ARM1", "L_ARM2", "L_ARM1", "L_ARM2" }, { "R_ARM2", "R_HAND", "R_ARM2", "R_HAND" },
      { "L_LEG1", "L_FOOT", "L_LEG1", "L_FOOT" }, { "NECK", "HEAD", "NECK", "HEAD" },
    };
    g_assert_cmpfloat (worst_limb_angle (walk, aw_back, sims_limbs, G_N_ELEMENTS (sims_limbs), 0), <, 1.0);
  }

  /* and back to a skill: every key within the .anim quantum */
  cmx = save_with (sl, "sims-cmx", &companions, NULL);
  g_assert_cmpuint (companions->len, ==, 1);
  c.name = ((SqCompanion *) companions->pdata[0])->name;
  c.bytes = ((SqCompanion *) companions->pdata[0])->bytes;
  back = load_with (cmx, &c, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);
  for (int b = 0; b < SQ_SIMS_N_BONES; b++)
    for (int c2 = 0; c2 < 2; c2++)
      {
        SqChannel ch = c2 == 0 ? SQ_CHANNEL_ROTATION : SQ_CHANNEL_TRANSLATION;
        const SqTrack *x = &walk->joints[b].tracks[ch], *y = &back->joints[b].tracks[ch];
        int n = ch == SQ_CHANNEL_ROTATION ? 4 : 3;

        g_assert_cmpuint (y->n_keys, ==, x->n_keys);
        for (gsize k = 0; k < x->n_keys; k++)
          {
            SqKey kx = sq_track_key (x, k), ky = sq_track_key (y, k);
            double dot = 0;

            for (int i = 0; i < n; i++)
              dot += kx.v[i] * ky.v[i];
            for (int i = 0; i < n; i++)
              worst = MAX (worst, fabs (kx.v[i] - (n == 4 && dot < 0 ? -ky.v[i] : ky.v[i])));
          }
      }
  g_assert_cmpfloat (worst, <, 2e-3);
}

/* The Sims bones in the shared joint table: names across the worlds, the
 * renames reported by the Sims names, a user map by the Sims names */
static guint
count_renames (GPtrArray *losses)
{
  guint n = 0;

  for (guint i = 0; i < losses->len; i++)
    n += sq_loss_renamed (losses->pdata[i]) != NULL;
  return n;
}

static void
test_joint_names (void)
{
  g_autofree char *text = build_walk (4);
  g_autoptr(SqClip) walk = load_text_ok (text, "simpose-kfd");
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) back_losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) map_losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) in_losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SqJointMap) out_map = sq_joint_map_new ();
  g_autoptr(SqJointMap) in_map = sq_joint_map_new ();
  g_autoptr(SqClip) bvh = NULL, back = NULL, mapped = NULL, sl = NULL, renamed_sl = NULL, in = NULL, plain = NULL;
  g_autoptr(SqEdit) rename = sq_edit_rename_joint_new ("mHead", "Kopf");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bvh_bytes = NULL;
  gssize head, plain_head;

  /* the table, both ways */
  g_assert_cmpstr (sq_joint_name_for_scheme ("L_ARM1", SQ_JOINT_SCHEME_AW_SEQ, 0), ==, "lfshoulder");
  g_assert_cmpstr (sq_joint_name_for_scheme ("PELVIS", SQ_JOINT_SCHEME_AW_DX, 0), ==, "aw_pelvis");
  g_assert_cmpstr (sq_joint_name_for_scheme ("L_ARM1", SQ_JOINT_SCHEME_SL, 0), ==, "mShoulderLeft");
  g_assert_cmpstr (sq_joint_name_for_scheme ("R_LEG1", SQ_JOINT_SCHEME_SL_BVH, 0), ==, "rShin");
  g_assert_cmpstr (sq_joint_name_for_scheme ("LeftArm", SQ_JOINT_SCHEME_SIMS, 0), ==, "L_ARM1");
  g_assert_cmpstr (sq_joint_name_for_scheme ("lfshoulder", SQ_JOINT_SCHEME_SIMS, 0), ==, "L_ARM1");
  g_assert_cmpstr (sq_joint_name_for_scheme ("Hips", SQ_JOINT_SCHEME_SIMS, 0), ==, "PELVIS");
  g_assert_cmpstr (sq_joint_name_for_scheme ("mChest", SQ_JOINT_SCHEME_SIMS, 0), ==, "SPINE2");
  g_assert_cmpstr (sq_joint_name_for_scheme ("LeftHip", SQ_JOINT_SCHEME_SIMS, 0), ==, "L_LEG");
  /* SPINE1 is no mocap Spine1: it has no counterpart */
  g_assert_null (sq_joint_name_for_scheme ("SPINE1", SQ_JOINT_SCHEME_SL, 0));
  g_assert_null (sq_joint_name_for_scheme ("ROOT", SQ_JOINT_SCHEME_AW_SEQ, 0));
  g_assert_cmpstr (sq_joint_name_for_scheme ("ROOT", SQ_JOINT_SCHEME_SIMS, 0), ==, "ROOT");
  g_assert_cmpstr (sq_sims_bone_sl_name (sq_sims_bone_index ("R_TOE0")), ==, "mFootRight");

  /* out of the Sims: every rename says the Sims bone */
  bvh_bytes = tu_save (walk, "bvh", losses);
  bvh = tu_load_ok (bvh_bytes);
  g_assert_true (tu_has_line (losses, "renamed: PELVIS → hip"));
  g_assert_true (tu_has_line (losses, "renamed: L_ARM1 → lShldr"));
  g_assert_true (tu_has_line (losses, "renamed: R_TOE0 → mFootRight"));
  g_assert_false (tu_has_line (losses, "renamed: mPelvis"));
  g_assert_cmpuint (count_renames (losses), ==, 21);
  g_assert_cmpint (sq_clip_find_joint (bvh, "lShldr"), >=, 0);

  /* and into them */
  back = sq_convert (bvh, sq_format_by_id ("simpose-kfd"), NULL, back_losses, &error);
  g_assert_no_error (error);
  g_assert_true (tu_has_line (back_losses, "renamed: hip → PELVIS"));
  g_assert_true (tu_has_line (back_losses, "renamed: lShldr → L_ARM1"));
  g_assert_true (tu_has_line (back_losses, "renamed: mFootRight → R_TOE0"));
  g_assert_cmpuint (count_renames (back_losses), ==, 21);

  /* a user map by the Sims names: HEAD left out, L_ARM1 named */
  sq_joint_map_add (out_map, "HEAD", NULL);
  sq_joint_map_add (out_map, "L_ARM1", "LeftUpperArm");
  mapped = sq_convert (walk, sq_format_by_id ("sl-anim"), out_map, map_losses, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sq_clip_find_joint (mapped, "mHead"), <, 0);
  g_assert_cmpint (sq_clip_find_joint (mapped, "LeftUpperArm"), >=, 0);
  g_assert_cmpint (sq_clip_find_joint (mapped, "mShoulderLeft"), <, 0);
  g_assert_true (tu_has_line (map_losses, "renamed: L_ARM1 → LeftUpperArm"));
  g_assert_true (tu_has_line (map_losses, "joint “HEAD” left out (the joint map drops it)"));
  g_assert_false (tu_has_line (map_losses, "mHead"));
  g_assert_true (tu_has_line (map_losses, "renamed: PELVIS → mPelvis"));
  g_assert_cmpuint (count_renames (map_losses), ==, 20);

  /* a map whose target is a Sims bone: "Kopf" turns the HEAD as mHead did */
  {
    g_autoptr(GBytes) anim = tu_save (walk, "sl-anim", NULL);
    sl = tu_load_ok (anim);
  }
  renamed_sl = sq_clip_copy (sl);
  g_assert_true (sq_edit_apply (rename, renamed_sl, NULL));
  sq_joint_map_add (in_map, "Kopf", "HEAD");
  in = sq_convert (renamed_sl, sq_format_by_id ("simpose-kfd"), in_map, in_losses, &error);
  g_assert_no_error (error);
  plain = sq_convert (sl, sq_format_by_id ("simpose-kfd"), NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (tu_has_line (in_losses, "renamed: Kopf → HEAD"));
  head = sq_clip_find_joint (in, "HEAD");
  plain_head = sq_clip_find_joint (plain, "HEAD");
  g_assert_cmpuint (in->joints[head].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 4);
  for (gsize k = 0; k < 4; k++)
    {
      SqKey a = sq_track_key (&in->joints[head].tracks[SQ_CHANNEL_ROTATION], k);
      SqKey b = sq_track_key (&plain->joints[plain_head].tracks[SQ_CHANNEL_ROTATION], k);
      g_assert_cmpmem (a.v, sizeof a.v, b.v, sizeof b.v);
    }
}

/* The preview's skeleton: the rest pose stands on its feet, left on the
 * left (SL axes: +X forward, +Y left, +Z up; metres) */
static void
test_preview_rest_pose (void)
{
  g_autofree char *text = build_walk (2);
  g_autoptr(SqClip) clip = load_text_ok (text, "simpose-kfd");
  g_autoptr(SqPose) pose = NULL;
  g_autofree double *p = NULL;
  const SqSimsBone *bones = sq_sims_skeleton (SQ_SIMS_ADULT);

  /* pose 0 is the rest pose for the bones with no counterpart and close
   * to it for the others: put every bone at rest */
  for (int b = 0; b < SQ_SIMS_N_BONES; b++)
    {
      SqTrack *t = &clip->joints[b].tracks[SQ_CHANNEL_ROTATION];

      sq_track_unpack (t);
      _sq_sims_quat_from_file (bones[b].rot, t->keys[0].v);
    }
  sq_track_unpack (&clip->joints[1].tracks[SQ_CHANNEL_TRANSLATION]);
  memcpy (clip->joints[1].tracks[SQ_CHANNEL_TRANSLATION].keys[0].v, bones[1].pos, sizeof bones[1].pos);
  pose = sq_pose_new (clip);
  p = g_new (double, 3 * clip->n_joints);
  sq_pose_evaluate (pose, clip, 0, p);
  /* L_FOOT (4): a little ahead, 8 cm to the left, 8 cm up */
  g_assert_cmpfloat_with_epsilon (p[4 * 3 + 0], 0.007 / 3, 2e-3);
  g_assert_cmpfloat_with_epsilon (p[4 * 3 + 1], 0.241 / 3, 2e-3);
  g_assert_cmpfloat_with_epsilon (p[4 * 3 + 2], 0.250 / 3, 2e-3);
  /* R_FOOT (10) on the right */
  g_assert_cmpfloat_with_epsilon (p[10 * 3 + 1], -0.241 / 3, 2e-3);
  /* L_TOE0 (5) ahead of the ankle, on the floor */
  g_assert_cmpfloat (p[5 * 3 + 0], >, p[4 * 3 + 0] + 0.1);
  g_assert_cmpfloat_with_epsilon (p[5 * 3 + 2], 0, 3e-3);
  /* HEAD (18) 1.68 m up */
  g_assert_cmpfloat_with_epsilon (p[18 * 3 + 2], 5.050 / 3, 3e-3);
  /* L_HAND (22) on the left, at the hip */
  g_assert_cmpfloat_with_epsilon (p[22 * 3 + 1], 0.666 / 3, 3e-3);
  g_assert_cmpfloat_with_epsilon (p[22 * 3 + 2], 2.875 / 3, 3e-3);
}

/* ---- the writers' numbers ------------------------------------------------------- */

static guint fixed_checked;

static void
check_fixed (double v)
{
  char want[400];
  GString *got = g_string_new (NULL);

  g_ascii_formatd (want, sizeof want, "%.6f", v);
  _sq_append_fixed (got, v, 6);
  if (strcmp (got->str, want) != 0)
    g_error ("%.17g: “%s”, printf gives “%s”", v, got->str, want);
  g_string_free (got, TRUE);
  fixed_checked++;
}

/* The Sims text writers print six decimals with the core's printer: the
 * same text as "%.6f" for every kind of value (signs, -0, ties, values
 * next to ties, floats, subnormals, large values) */
static void
test_six_decimals (void)
{
  GRand *rand = g_rand_new_with_seed (1607);
  static const double special[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, 1e-6, 5e-7, -5e-7, 4.9999999999999998e-7, 1.5e-6, 2.5e-6, 0.9999995, 0.99999949999999,
    999999.9999995, 1e14, -1e14, 123456789012.345678, 9.999999999999e14, 1.8446744073709552e13, 1.8e13, 2e13,
    4.9406564584124654e-324, -2.2250738585072014e-308, 1e-300, 0.000001234567, 3.01362, -0.706899, 1e15 - 1,
  };

  fixed_checked = 0;
  for (gsize i = 0; i < G_N_ELEMENTS (special); i++)
    {
      check_fixed (special[i]);
      check_fixed (nextafter (special[i], INFINITY));
      check_fixed (nextafter (special[i], -INFINITY));
    }
  /* exact ties at the seventh decimal: (2m + 1) / 2^k, k >= 7, and their neighbours */
  for (int k = 7; k <= 24; k++)
    for (int m = 0; m < 4000; m++)
      {
        double v = ldexp (2.0 * m + 1, -k) * (m % 7 == 0 ? 1 : 1 + g_rand_int_range (rand, 0, 1000));

        check_fixed (v);
        check_fixed (-v);
        check_fixed (nextafter (v, 0));
        check_fixed (nextafter (v, INFINITY));
      }
  /* decimals that end in 5 at the seventh place, as a person types them */
  for (int m = 0; m < 20000; m++)
    {
      double v = (m * 10 + 5) / 1e7 * (1 + g_rand_int_range (rand, 0, 5000));

      check_fixed (v);
      check_fixed (-v);
    }
  /* values of every size, and floats (what quaternions and offsets are) */
  for (int i = 0; i < 200000; i++)
    {
      double e = g_rand_double_range (rand, -14, 15);
      double v = pow (10, e) * (g_rand_boolean (rand) ? -1 : 1);

      check_fixed (v);
      check_fixed ((float) g_rand_double_range (rand, -1, 1));
    }
  g_rand_free (rand);
  g_assert_cmpuint (fixed_checked, >, 700000);
}

/* ---- validate --target sims ---------------------------------------------------- */

static gboolean
has_finding (GPtrArray  *findings,
             const char *fragment)
{
  for (guint i = 0; i < findings->len; i++)
    if (strstr (((SqFinding *) findings->pdata[i])->message, fragment) != NULL)
      return TRUE;
  return FALSE;
}

static void
test_validate (void)
{
  static const gint64 times[] = { 0, 10, 25, 39 };
  g_autofree char *good = build_kfd (80, times, 4, "");
  g_autofree char *bad = build_kfd (50, times, 4, "");
  g_autoptr(SqClip) a = load_text_ok (good, "simpose-kfd");
  g_autoptr(SqClip) b = load_text_ok (bad, "simpose-kfd");
  g_autoptr(SqClip) psl = NULL, sps = NULL, skill = NULL;
  g_autoptr(GPtrArray) fa = sq_validate (a, "sims", NULL);
  g_autoptr(GPtrArray) fb = sq_validate (b, "sims", NULL);
  g_autoptr(GPtrArray) fp = NULL, fs = NULL, fk = NULL;
  g_autofree char *v5 = build_psl (5, "\n");
  g_autofree char *links = NULL;
  g_autoptr(GBytes) cfp = skill_cfp ();
  char *mask;

  g_assert_nonnull (fa);
  g_assert_cmpuint (fa->len, ==, 0);
  g_assert_true (has_finding (fb, "SequenceLength 50 is neither Frames (40) nor twice Frames"));
  /* a translation where the Sims have none, a quaternion that is not unit */
  sq_track_append (&b->joints[5].tracks[SQ_CHANNEL_TRANSLATION], 0);
  sq_track_unpack (&b->joints[7].tracks[SQ_CHANNEL_ROTATION]);
  b->joints[7].tracks[SQ_CHANNEL_ROTATION].keys[1].v[0] = 2;
  g_ptr_array_unref (fb);
  fb = sq_validate (b, "sims", NULL);
  g_assert_true (has_finding (fb, "joint “L_TOE0” has translations: only ROOT and PELVIS translate"));
  g_assert_true (has_finding (fb, "joint “L_TOE02” rotation key 2 is not a unit quaternion"));
  /* a PSL mask with a character that is neither 0 nor 1 */
  mask = strstr (v5, "00000000000000000001111111111111");
  mask[5] = '2';
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) bytes = g_bytes_new (v5, strlen (v5));

    psl = sq_load_bytes (bytes, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
  }
  fp = sq_validate (psl, "sims", NULL);
  g_assert_true (has_finding (fp, "subset “Arms”: the mask “00000200000000000001111111111111” is not 32 characters 0 or 1"));
  /* SPS links: a parent and a sibling that are no node, an Action without its animation */
  links = g_strdup (sps_text);
  memcpy (strstr (links, "N 4 1 0 3 0 -2\r\nA a2o-wave\r\nN 1 1 3 2 0 3"), "N 4 9 0 3 0 -2\r\nA a2o-wave\r\nN 4 1 7 2 0 3", 41);
  sps = load_text_ok (links, "simpose-sps");
  fs = sq_validate (sps, "sims", NULL);
  g_assert_true (has_finding (fs, "tree 1, node 3: its parent 9 is no node of the tree"));
  g_assert_true (has_finding (fs, "tree 1, node 2: its sibling 7 is no node of the tree"));
  g_assert_true (has_finding (fs, "tree 1, Action node 2: M 0 and N 3 use 2 animations but the node names 0"));
  /* the skill's motions against the skeleton */
  skill = load_skill (cfp);
  fk = sq_validate (skill, "sims", NULL);
  g_assert_cmpuint (fk->len, ==, 0);
}

/* ---- robustness ------------------------------------------------------------- */

/* Every prefix and every byte changed (to a digit, a bar, a line end, a
 * 0xff) of `data`: a clip that passes the model checks, or an error with a
 * message */
static void
shake (const char *data,
       gsize       len,
       GBytes     *cfp,
       gsize       stride)
{
  static const char swaps[] = { '9', '|', '\n', '\xff', '-' };

  for (gsize n = 0; n <= len; n += (n < 64 ? 1 : stride))
    for (int s = -1; s < (int) G_N_ELEMENTS (swaps); s++)
      {
        g_autofree char *copy = g_memdup2 (data, len);
        gsize use = s < 0 ? n : len;
        g_autoptr(GBytes) bytes = NULL;
        g_autoptr(GError) error = NULL;
        g_autoptr(SqClip) clip = NULL;
        Companion c = { "xskill-test.cfp", cfp, 0 };

        if (s >= 0)
          {
            if (n >= len)
              break;
            copy[n] = swaps[s];
          }
        bytes = g_bytes_new (copy, use);
        clip = load_with (bytes, &c, &error);
        if (clip == NULL)
          {
            g_assert_nonnull (error);
            g_assert_cmpuint (strlen (error->message), >, 10);
          }
        else
          {
            g_assert_true (sq_clip_check (clip, &error));
            g_assert_no_error (error);
          }
      }
}

static void
test_truncations_and_flips (void)
{
  g_autoptr(GBytes) cfp = skill_cfp ();
  g_autofree char *psl4 = build_psl (4, "\n"), *psl5 = build_psl (5, "\r\n");
  static const gint64 times[] = { 0, 10, 39 };
  g_autofree char *kfd = build_kfd (40, times, 3, "a");
  gsize clen;
  const guint8 *cdata = g_bytes_get_data (cfp, &clen);

  shake (skill_cmx, strlen (skill_cmx), cfp, 1);
  shake (skeleton_cmx, strlen (skeleton_cmx), cfp, 1);
  shake (psl4, strlen (psl4), NULL, 7);
  shake (psl5, strlen (psl5), NULL, 7);
  shake (kfd, strlen (kfd), NULL, 7);
  shake (sps_text, strlen (sps_text), NULL, 1);
  /* and the CFP's bytes changed one by one */
  for (gsize i = 0; i < clen; i++)
    for (guint v = 0; v < 256; v += v == 204 ? 49 : 51)   /* 0 … 204, 253 (no code) */
      {
        g_autofree guint8 *copy = g_memdup2 (cdata, clen);
        g_autoptr(GBytes) bytes = NULL;
        g_autoptr(GBytes) cmx = g_bytes_new_static (skill_cmx, strlen (skill_cmx));
        g_autoptr(GError) error = NULL;
        g_autoptr(SqClip) clip = NULL;
        Companion c = { "xskill-test.cfp", NULL, 0 };

        copy[i] = (guint8) v;
        bytes = g_bytes_new (copy, clen);
        c.bytes = bytes;
        clip = load_with (cmx, &c, &error);
        g_assert_true (clip != NULL || error != NULL);
        if (clip != NULL)
          g_assert_true (sq_clip_check (clip, NULL));
      }
}

/* ---- the world's edits: poses, KFD and skill fields --------------------------- */

/* tu_apply_undo_redo, and the undone clip saves the bytes it saved before */
static void
sims_apply_undo_redo (SqClip     *clip,
                      SqEdit     *edit,
                      void      (*check) (const SqClip *before, const SqClip *after))
{
  g_autoptr(GPtrArray) c1 = NULL, c2 = NULL;
  g_autoptr(GBytes) saved_before = save_with (clip, clip->format->id, &c1, NULL);
  g_autoptr(GBytes) saved_undone = NULL;

  tu_apply_undo_redo (clip, edit, check);
  saved_undone = save_with (clip, clip->format->id, &c2, NULL);
  assert_bytes_equal (saved_before, saved_undone);
}

static void
assert_pose_names (const SqClip *clip,
                   const char   *joined)
{
  g_auto(GStrv) names = sq_sims_pose_names (clip);
  g_autofree char *got = g_strjoinv ("|", names);

  g_assert_cmpstr (got, ==, joined);
}

static void
assert_pose_times (const SqClip *clip,
                   const char   *want)
{
  GVariant *v = sq_props_get (clip->extra, "pose-times");
  g_autofree char *got = NULL;

  g_assert_nonnull (v);
  got = g_variant_print (v, FALSE);
  g_assert_cmpstr (got, ==, want);
}

/* pose `to` of `after` holds pose `from` of `before` in every track */
static void
assert_same_pose (const SqClip *before,
                  gsize         from,
                  const SqClip *after,
                  gsize         to)
{
  for (gsize j = 0; j < after->n_joints; j++)
    for (int c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *tb = &before->joints[j].tracks[c], *ta = &after->joints[j].tracks[c];

        if (tb->n_keys == 0)
          {
            g_assert_cmpuint (ta->n_keys, ==, 0);
            continue;
          }
        SqKey kb = sq_track_key (tb, from), ka = sq_track_key (ta, to);
        g_assert_cmpfloat (ka.time, ==, to / 30.0);
        g_assert_cmpmem (ka.v, sizeof ka.v, kb.v, sizeof kb.v);
      }
}

static void
check_rename (const SqClip *b,
              const SqClip *a)
{
  assert_pose_names (a, "Stand|Sitting|Wave é");
  assert_pose_times (a, "[0, 1, -1]");
  assert_same_pose (b, 1, a, 1);
}

static void
check_duplicate (const SqClip *b,
                 const SqClip *a)
{
  assert_pose_names (a, "Stand|Sit down|Sit again|Wave é");
  assert_pose_times (a, "[0, 1, 1, -1]");
  assert_same_pose (b, 0, a, 0);
  assert_same_pose (b, 1, a, 1);
  assert_same_pose (b, 1, a, 2);
  assert_same_pose (b, 2, a, 3);
  g_assert_cmpfloat (a->duration, ==, 3 / 30.0);
}

static void
check_delete (const SqClip *b,
              const SqClip *a)
{
  assert_pose_names (a, "Sit down|Wave é");
  assert_pose_times (a, "[1, -1]");
  assert_same_pose (b, 1, a, 0);
  assert_same_pose (b, 2, a, 1);
  g_assert_cmpfloat (a->duration, ==, 1 / 30.0);
  g_assert_cmpuint (a->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 2);
}

static void
check_move (const SqClip *b,
            const SqClip *a)
{
  assert_pose_names (a, "Wave é|Stand|Sit down");
  assert_pose_times (a, "[-1, 0, 1]");
  assert_same_pose (b, 2, a, 0);
  assert_same_pose (b, 0, a, 1);
  assert_same_pose (b, 1, a, 2);
}

static void
check_move_down (const SqClip *b,
                 const SqClip *a)
{
  assert_pose_names (a, "Sit down|Stand|Wave é");
  assert_same_pose (b, 0, a, 1);
  assert_same_pose (b, 1, a, 0);
}

static void
assert_refused (SqClip     *clip,
                SqEdit     *edit,
                const char *fragment)
{
  g_autoptr(SqClip) before = sq_clip_copy (clip);
  g_autoptr(GError) error = NULL;
  guint64 generation = clip->generation;

  g_assert_false (sq_edit_apply (edit, clip, &error));
  tu_assert_mentions (error, fragment);
  g_assert_true (sq_clip_equal (before, clip));
  g_assert_cmpuint (clip->generation, ==, generation);
  sq_edit_free (edit);
}

static void
test_pose_edits (void)
{
  g_autofree char *text = build_psl (5, "\r\n");
  g_autofree char *latin1 = g_convert (text, -1, "ISO-8859-1", "UTF-8", NULL, NULL, NULL);
  g_autoptr(SqClip) clip = load_text_ok (latin1, "simpose-psl");
  g_autoptr(SqEdit) rename = sq_edit_sims_rename_pose_new ("Sit down", "Sitting");
  g_autoptr(SqEdit) dup = sq_edit_sims_duplicate_pose_new ("Sit down", "Sit again");
  g_autoptr(SqEdit) del = sq_edit_sims_delete_pose_new ("Stand");
  g_autoptr(SqEdit) move = sq_edit_sims_move_pose_new ("Wave é", 0);
  g_autoptr(SqEdit) down = sq_edit_sims_move_pose_new ("Stand", 1);
  g_autoptr(SqClip) one = NULL;
  g_autoptr(GPtrArray) companions = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autofree char *one_text = NULL;
  GString *s;

  assert_pose_names (clip, "Stand|Sit down|Wave é");
  g_assert_cmpfloat (sq_sims_pose_time (clip, 2), ==, 2 / 30.0);
  g_assert_cmpfloat (sq_sims_pose_time (clip, 3), ==, -1);
  sims_apply_undo_redo (clip, rename, check_rename);
  sims_apply_undo_redo (clip, dup, check_duplicate);
  sims_apply_undo_redo (clip, del, check_delete);
  sims_apply_undo_redo (clip, move, check_move);
  sims_apply_undo_redo (clip, down, check_move_down);
  g_assert_cmpstr (sq_edit_get_label (dup), ==, "Duplicate Pose");

  /* the duplicated library saves as the grammar says: 4 poses, the copy's Time */
  g_assert_true (sq_edit_apply (dup, clip, NULL));
  out = save_with (clip, "simpose-psl", &companions, NULL);
  g_assert_true (g_str_has_prefix (g_bytes_get_data (out, NULL), "POSELIBRARY2 4 4\r\nStand\r\nTime 0\r\n"));
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (out, NULL), g_bytes_get_size (out), "\r\nSit again\r\nTime 1\r\n"));
  sq_edit_undo (dup, clip);

  /* refusals, each with its reason, the clip untouched */
  assert_refused (clip, sq_edit_sims_rename_pose_new ("Jump", "Hop"), "no pose “Jump”");
  assert_refused (clip, sq_edit_sims_delete_pose_new ("Jump"), "no pose “Jump”");
  assert_refused (clip, sq_edit_sims_rename_pose_new ("Stand", "Sit down"), "already named “Sit down”");
  assert_refused (clip, sq_edit_sims_duplicate_pose_new ("Stand", "Stand"), "name of its own");
  assert_refused (clip, sq_edit_sims_duplicate_pose_new ("Stand", "Wave é"), "already named");
  assert_refused (clip, sq_edit_sims_rename_pose_new ("Stand", ""), "must not be empty");
  assert_refused (clip, sq_edit_sims_rename_pose_new ("Stand", "two\nlines"), "line break");
  assert_refused (clip, sq_edit_sims_rename_pose_new ("Stand", "Snow ☃"), "Latin-1");
  assert_refused (clip, sq_edit_sims_move_pose_new ("Stand", 3), "no place 4");

  /* a library of one pose keeps it */
  s = g_string_new ("POSELIBRARY 1\nOnly\n");
  put_pose (s, 0, 1, "\n");
  one_text = g_string_free (s, FALSE);
  one = load_text_ok (one_text, "simpose-psl");
  assert_refused (one, sq_edit_sims_delete_pose_new ("Only"), "last pose");
  /* a KFD's poses go by their frames, not by a library's names */
  {
    static const gint64 times[] = { 0, 39 };
    g_autofree char *kfd_text = build_kfd (40, times, 2, "");
    g_autoptr(SqClip) kfd = load_text_ok (kfd_text, "simpose-kfd");
    assert_refused (kfd, sq_edit_sims_delete_pose_new ("Pose 1"), "no pose at frame");
    assert_pose_names (kfd, "0|39");
  }
}

/* KFD poses: key `to` of `after`, at `frame`, holds key `from` of `before` */
static void
assert_kfd_pose (const SqClip *before,
                 gsize         from,
                 const SqClip *after,
                 gsize         to,
                 gint64        frame)
{
  for (gsize j = 0; j < after->n_joints; j++)
    for (int c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *tb = &before->joints[j].tracks[c], *ta = &after->joints[j].tracks[c];
        SqKey kb, ka;

        if (tb->n_keys == 0)
          continue;
        kb = sq_track_key (tb, from);
        ka = sq_track_key (ta, to);
        g_assert_cmpfloat (ka.time, ==, frame / 30.0);
        g_assert_cmpmem (ka.v, sizeof ka.v, kb.v, sizeof kb.v);
      }
}

static void
check_kfd_retime (const SqClip *b,
                  const SqClip *a)
{
  assert_pose_names (a, "0|12|25|39");
  assert_kfd_pose (b, 1, a, 1, 12);
  assert_kfd_pose (b, 2, a, 2, 25);
}

static void
check_kfd_duplicate (const SqClip *b,
                     const SqClip *a)
{
  assert_pose_names (a, "0|10|17|25|39");
  assert_kfd_pose (b, 1, a, 1, 10);
  assert_kfd_pose (b, 1, a, 2, 17);
  assert_kfd_pose (b, 2, a, 3, 25);
  assert_kfd_pose (b, 3, a, 4, 39);
}

static void
check_kfd_delete (const SqClip *b,
                  const SqClip *a)
{
  assert_pose_names (a, "0|25|39");
  assert_kfd_pose (b, 2, a, 1, 25);
  assert_kfd_pose (b, 3, a, 2, 39);
}

static void
check_kfd_move (const SqClip *b,
                const SqClip *a)
{
  /* the pose at 25 goes first; every place keeps its frame */
  assert_pose_names (a, "0|10|25|39");
  assert_kfd_pose (b, 2, a, 0, 0);
  assert_kfd_pose (b, 0, a, 1, 10);
  assert_kfd_pose (b, 1, a, 2, 25);
  assert_kfd_pose (b, 3, a, 3, 39);
}

/* A KFD's poses are named by their frames; the pose edits keep its times
 * strictly increasing from the first pose to the last */
static void
test_kfd_pose_edits (void)
{
  static const gint64 times[] = { 0, 10, 25, 39 };
  g_autofree char *text = build_kfd (40, times, 4, "");
  g_autoptr(SqClip) clip = load_text_ok (text, "simpose-kfd");
  g_autoptr(SqEdit) retime = sq_edit_sims_rename_pose_new ("10", "12");
  g_autoptr(SqEdit) dup = sq_edit_sims_duplicate_pose_new ("10", "17");
  g_autoptr(SqEdit) del = sq_edit_sims_delete_pose_new ("10");
  g_autoptr(SqEdit) move = sq_edit_sims_move_pose_new ("25", 0);
  g_autoptr(GPtrArray) companions = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(SqClip) back = NULL;
  g_autoptr(GPtrArray) findings = NULL;
  g_autofree char *out_text = NULL;

  g_assert_true (sq_sims_poses_are_frames (clip));
  g_assert_false (sq_sims_is_pose_library (clip));
  assert_pose_names (clip, "0|10|25|39");
  g_assert_cmpfloat (sq_sims_pose_time (clip, 2), ==, 25 / 30.0);
  sims_apply_undo_redo (clip, retime, check_kfd_retime);
  sims_apply_undo_redo (clip, dup, check_kfd_duplicate);
  sims_apply_undo_redo (clip, del, check_kfd_delete);
  sims_apply_undo_redo (clip, move, check_kfd_move);

  /* the copy saves as the grammar says: one more key, its Time, valid */
  g_assert_true (sq_edit_apply (dup, clip, NULL));
  out = save_with (clip, "simpose-kfd", &companions, NULL);
  out_text = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  g_assert_true (g_str_has_prefix (out_text, "KeyFrame 5 40 40\r\n"));
  g_assert_nonnull (strstr (out_text, "\r\nTime 17\r\n"));
  back = tu_load_ok (out);
  findings = sq_validate (back, "sims", NULL);
  g_assert_false (sq_findings_have_errors (findings));
  sq_edit_undo (dup, clip);

  /* refusals, each with its reason, the clip untouched */
  assert_refused (clip, sq_edit_sims_delete_pose_new ("11"), "no pose at frame “11”");
  assert_refused (clip, sq_edit_sims_delete_pose_new ("Pose 1"), "no pose at frame");
  assert_refused (clip, sq_edit_sims_delete_pose_new ("0"), "first");
  assert_refused (clip, sq_edit_sims_delete_pose_new ("39"), "last");
  assert_refused (clip, sq_edit_sims_rename_pose_new ("0", "3"), "first");
  assert_refused (clip, sq_edit_sims_rename_pose_new ("10", "25"), "not between frames 0 and 25");
  assert_refused (clip, sq_edit_sims_rename_pose_new ("10", "ten"), "no frame number");
  assert_refused (clip, sq_edit_sims_duplicate_pose_new ("10", "25"), "has a pose already");
  assert_refused (clip, sq_edit_sims_duplicate_pose_new ("10", "39"), "not between");
  assert_refused (clip, sq_edit_sims_move_pose_new ("10", 4), "no place 5");
}

static void
check_bounce_off (const SqClip *b,
                  const SqClip *a)
{
  g_assert_true (sq_props_get_bool (b->extra, "bounce", FALSE));
  g_assert_false (sq_props_get_bool (a->extra, "bounce", TRUE));
  g_assert_cmpint (sq_props_get_int (a->extra, "sequence-length", 0), ==, 40);
}

static void
check_start_pose (const SqClip *b,
                  const SqClip *a)
{
  SqSimsFields f;

  (void) b;
  sq_sims_fields_get (a, &f);
  g_assert_true (f.is_kfd);
  g_assert_cmpstr (f.start_pose, ==, "Sit");
  g_assert_cmpstr (f.end_pose, ==, "");
  g_assert_cmpint (f.frames, ==, 40);
}

static void
check_skill_name (const SqClip *b,
                  const SqClip *a)
{
  SqSimsFields f;

  (void) b;
  sq_sims_fields_get (a, &f);
  g_assert_true (f.is_skill);
  g_assert_cmpstr (f.skill, ==, "a-dance");
  g_assert_cmpfloat (f.skill_duration, ==, 66);
}

static void
check_skill_duration (const SqClip *b,
                      const SqClip *a)
{
  SqSimsFields f;

  (void) b;
  sq_sims_fields_get (a, &f);
  g_assert_cmpfloat (f.skill_duration, ==, 1999.5);
}

static void
test_field_edits (void)
{
  static const gint64 times[] = { 0, 10, 25, 39 };
  g_autofree char *text = build_kfd (80, times, 4, "Stand up");
  g_autoptr(SqClip) kfd = load_text_ok (text, "simpose-kfd");
  g_autoptr(GBytes) cfp = skill_cfp ();
  g_autoptr(SqClip) skill = load_skill (cfp);
  g_autoptr(SqEdit) bounce = sq_edit_sims_kfd_bounce_new (FALSE);
  g_autoptr(SqEdit) start = sq_edit_sims_kfd_pose_name_new (FALSE, "Sit");
  g_autoptr(SqEdit) name = sq_edit_sims_skill_name_new ("a-dance");
  g_autoptr(SqEdit) duration = sq_edit_sims_skill_duration_new (1999.5);
  g_autoptr(GPtrArray) companions = NULL;
  g_autoptr(GBytes) out = NULL;
  const char *p;

  sims_apply_undo_redo (kfd, bounce, check_bounce_off);
  sims_apply_undo_redo (kfd, start, check_start_pose);
  g_assert_true (sq_edit_apply (bounce, kfd, NULL));
  g_assert_true (sq_edit_apply (start, kfd, NULL));
  out = save_with (kfd, "simpose-kfd", &companions, NULL);
  g_assert_true (g_str_has_prefix (g_bytes_get_data (out, NULL), "KeyFrame 4 40 40\r\ns Sit\r\ne\r\nTime 0\r\n"));
  g_clear_pointer (&out, g_bytes_unref);
  g_clear_pointer (&companions, g_ptr_array_unref);

  sims_apply_undo_redo (skill, name, check_skill_name);
  sims_apply_undo_redo (skill, duration, check_skill_duration);
  g_assert_true (sq_edit_apply (name, skill, NULL));
  g_assert_true (sq_edit_apply (duration, skill, NULL));
  out = save_with (skill, "sims-cmx", &companions, NULL);
  p = g_strstr_len (g_bytes_get_data (out, NULL), g_bytes_get_size (out), "1\r\na-dance\r\nxskill-test\r\n1999.5\r\n");
  g_assert_nonnull (p);
  /* the keys are unchanged: the CFP keeps its bytes */
  g_assert_cmpuint (companions->len, ==, 1);
  assert_bytes_equal (((SqCompanion *) companions->pdata[0])->bytes, cfp);

  assert_refused (skill, sq_edit_sims_skill_name_new (""), "must not be empty");
  assert_refused (skill, sq_edit_sims_skill_duration_new (-1), "within 0");
  assert_refused (skill, sq_edit_sims_kfd_bounce_new (TRUE), "KFD");
  assert_refused (kfd, sq_edit_sims_skill_name_new ("x"), "skill");
  assert_refused (kfd, sq_edit_sims_kfd_pose_name_new (TRUE, "a\rb"), "line break");
}

/* ---- the command line -------------------------------------------------------- */

static int
run_cli (char **err,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *arg;
  int status = 0;
  va_list args;

  g_ptr_array_add (argv, (char *) g_getenv ("SEQUIN_CLI"));
  g_assert_nonnull (argv->pdata[0]);
  va_start (args, err);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                               NULL, err, &status, &error));
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

static void
test_cli_companion (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sequin-sims-XXXXXX", NULL);
  g_autofree char *in = g_build_filename (dir, "in.cmx", NULL);
  g_autofree char *in_cfp = g_build_filename (dir, "XSKILL-TEST.CFP", NULL);
  g_autofree char *outdir = g_build_filename (dir, "out", NULL);
  g_autofree char *out = g_build_filename (outdir, "copy.cmx", NULL);
  g_autofree char *out_cfp = g_build_filename (outdir, "xskill-copy.cfp", NULL);
  g_autoptr(GBytes) cfp = skill_cfp ();
  g_autofree char *err = NULL, *got = NULL, *got_cfp = NULL;
  g_auto(GStrv) parts = g_strsplit (skill_cmx, "\r\nxskill-test\r\n", -1);
  g_autofree char *want = g_strjoinv ("\r\nxskill-copy\r\n", parts);
  gsize n, n_cfp;

  g_assert_nonnull (dir);
  g_assert_cmpint (g_mkdir (outdir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (in, skill_cmx, -1, NULL));
  /* without its CFP: exit 1, the message names the file, no output */
  g_assert_cmpint (run_cli (&err, "convert", in, out, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "xskill-test.cfp"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_clear_pointer (&err, g_free);
  /* found beside it whatever the case of its name; both written, the
   * keys as they were in a CFP named after the new file, which the CMX
   * names */
  g_assert_true (g_file_set_contents (in_cfp, g_bytes_get_data (cfp, NULL), g_bytes_get_size (cfp), NULL));
  g_assert_cmpint (run_cli (&err, "convert", in, out, NULL), ==, 0);
  g_assert_nonnull (strstr (err, "copy.cmx: note: keys in xskill-copy.cfp"));
  g_assert_true (g_file_get_contents (out, &got, &n, NULL));
  g_assert_true (g_file_get_contents (out_cfp, &got_cfp, &n_cfp, NULL));
  g_assert_cmpmem (got, n, want, strlen (want));
  g_assert_cmpmem (got_cfp, n_cfp, g_bytes_get_data (cfp, NULL), g_bytes_get_size (cfp));

  g_unlink (out);
  g_unlink (out_cfp);
  g_rmdir (outdir);
  g_unlink (in);
  g_unlink (in_cfp);
  g_rmdir (dir);
}

/* edit's Sims options make the core's edits: the same bytes as the core
 * gives; a refused one exits 1 with its reason and writes nothing */
static void
test_cli_pose_edits (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sequin-sims-XXXXXX", NULL);
  g_autofree char *in = g_build_filename (dir, "lib.psl", NULL);
  g_autofree char *out = g_build_filename (dir, "out.psl", NULL);
  g_autofree char *kfd_in = g_build_filename (dir, "in.kfd", NULL);
  g_autofree char *kfd_out = g_build_filename (dir, "out.kfd", NULL);
  g_autofree char *utf8 = build_psl (4, "\n");
  g_autofree char *text = g_convert (utf8, -1, "ISO-8859-1", "UTF-8", NULL, NULL, NULL);
  static const gint64 times[] = { 0, 10, 25, 39 };
  g_autofree char *kfd_text = build_kfd (80, times, 4, "Stand up");
  g_autoptr(SqClip) clip = load_text_ok (text, "simpose-psl");
  g_autoptr(SqEdit) e1 = sq_edit_sims_duplicate_pose_new ("Sit down", "Sit again");
  g_autoptr(SqEdit) e2 = sq_edit_sims_move_pose_new ("Sit again", 0);
  g_autoptr(SqEdit) e3 = sq_edit_sims_rename_pose_new ("Stand", "Standing");
  g_autoptr(SqEdit) e4 = sq_edit_sims_delete_pose_new ("Wave é");
  g_autoptr(GPtrArray) companions = NULL;
  g_autoptr(GBytes) want = NULL;
  g_autofree char *err = NULL, *got = NULL;
  gsize n;

  g_assert_nonnull (dir);
  g_assert_true (g_file_set_contents (in, text, -1, NULL));
  g_assert_true (g_file_set_contents (kfd_in, kfd_text, -1, NULL));
  g_assert_true (sq_edit_apply (e1, clip, NULL) && sq_edit_apply (e2, clip, NULL) && sq_edit_apply (e3, clip, NULL)
                 && sq_edit_apply (e4, clip, NULL));
  want = save_with (clip, "simpose-psl", &companions, NULL);
  g_assert_cmpint (run_cli (&err, "edit", in, "-o", out, "--duplicate-pose", "Sit down=Sit again",
                            "--move-pose=Sit again=1", "--rename-pose", "Stand=Standing", "--delete-pose", "Wave é",
                            NULL), ==, 0);
  g_assert_true (g_file_get_contents (out, &got, &n, NULL));
  g_assert_cmpmem (got, n, g_bytes_get_data (want, NULL), g_bytes_get_size (want));
  g_assert_true (g_str_has_prefix (got, "POSELIBRARY 3\nSit again\nTime 0\n"));
  g_unlink (out);
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&got, g_free);

  /* refused: exit 1, the reason, no output */
  g_assert_cmpint (run_cli (&err, "edit", in, "-o", out, "--delete-pose", "Jump", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "no pose “Jump”"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (&err, "edit", in, "-o", out, "--rename-pose", "Stand=Sit down", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "already named “Sit down”"));
  g_clear_pointer (&err, g_free);
  /* bad usage: exit 2 */
  g_assert_cmpint (run_cli (&err, "edit", in, "-o", out, "--move-pose", "Stand", NULL), ==, 2);
  g_assert_nonnull (strstr (err, "--move-pose needs NAME=PLACE"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_clear_pointer (&err, g_free);

  /* KFD fields */
  g_assert_cmpint (run_cli (&err, "edit", kfd_in, "-o", kfd_out, "--no-bounce", "--start-pose", "",
                            "--end-pose", "Sit", NULL), ==, 0);
  g_assert_true (g_file_get_contents (kfd_out, &got, &n, NULL));
  g_assert_true (g_str_has_prefix (got, "KeyFrame 4 40 40\r\ns\r\ne Sit\r\nTime 0\r\n"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (&err, "edit", kfd_in, "-o", out, "--skill-name", "x", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "skill"));

  g_unlink (kfd_out);
  g_unlink (kfd_in);
  g_unlink (in);
  g_rmdir (dir);
}

/* ---- mirror ---- */

/* World rotations (column-vector quaternions) and positions (game units,
 * the Sims' axes) of the 29 bones at frame `frame` */
static void
world_pose (const SqClip *clip,
            gsize         frame,
            double        rot[SQ_SIMS_N_BONES][4],
            double        pos[SQ_SIMS_N_BONES][3])
{
  const SqSimsBone *bones = sq_sims_skeleton (SQ_SIMS_ADULT);
  double trans[2][3], stored[SQ_SIMS_N_BONES][4];
  gssize joint_of[SQ_SIMS_N_BONES];

  _sq_sims_bone_joints (clip, joint_of);
  _sq_sims_pose_at (clip, joint_of, frame, trans, stored);
  for (int b = 0; b < SQ_SIMS_N_BONES; b++)
    {
      double key[4], local[4], off[3];
      int p = bones[b].parent;

      _sq_sims_quat_from_file (stored[b], key);
      sq_quat_conjugate (key, local);
      if (p < 0)
        {
          memcpy (rot[b], local, sizeof local);
          memcpy (pos[b], trans[0], sizeof pos[b]);
          continue;
        }
      sq_quat_multiply (rot[p], local, rot[b]);
      sq_quat_rotate (rot[p], b < 2 ? trans[b] : bones[b].pos, off);
      for (int i = 0; i < 3; i++)
        pos[b][i] = pos[p][i] + off[i];
    }
}

/* The bone a bone mirrors to: L_ ⇄ R_ */
static int
sims_partner (int b)
{
  const char *name = sq_sims_skeleton (SQ_SIMS_ADULT)[b].name;
  g_autofree char *other = NULL;

  if (!g_str_has_prefix (name, "L_") && !g_str_has_prefix (name, "R_"))
    return b;
  other = g_strdup_printf ("%c%s", name[0] == 'L' ? 'R' : 'L', name + 1);
  return sq_sims_bone_index (other);
}

/* A mirrored clip in the world is the original reflected through its
 * sagittal plane (X = 0, the Sim's left at −X): every bone stands where
 * its partner stood with X negated, and points (its X axis runs along the
 * bone) as its partner pointed with X negated, at every frame */
static void
assert_mirrored_in_world (const SqClip *orig,
                          const SqClip *mirrored)
{
  gsize frames = _sq_sims_pose_count (orig);
  guint moved = 0;

  g_assert_cmpuint (frames, >, 0);
  for (gsize f = 0; f < frames; f++)
    {
      double ra[SQ_SIMS_N_BONES][4], pa[SQ_SIMS_N_BONES][3];
      double rb[SQ_SIMS_N_BONES][4], pb[SQ_SIMS_N_BONES][3];

      world_pose (orig, f, ra, pa);
      world_pose (mirrored, f, rb, pb);
      for (int b = 2; b < SQ_SIMS_N_BONES; b++)
        {
          const double along[3] = { 1, 0, 0 };
          int m = sims_partner (b);
          double da[3], db[3];

          sq_quat_rotate (ra[b], along, da);
          sq_quat_rotate (rb[m], along, db);
          /* the rest skeleton's sides differ by up to 1e-6 units */
          g_assert_cmpfloat_with_epsilon (pb[m][0], -pa[b][0], 1e-5);
          g_assert_cmpfloat_with_epsilon (pb[m][1], pa[b][1], 1e-5);
          g_assert_cmpfloat_with_epsilon (pb[m][2], pa[b][2], 1e-5);
          g_assert_cmpfloat_with_epsilon (db[0], -da[0], 1e-9);
          g_assert_cmpfloat_with_epsilon (db[1], da[1], 1e-9);
          g_assert_cmpfloat_with_epsilon (db[2], da[2], 1e-9);
          moved += m != b && fabs (da[0] - db[0]) > 1e-3;
        }
    }
  g_assert_cmpuint (moved, >, 0);
}

/* A Sims skill, a PSL and a KFD mirror in the world: the left arm's wave
 * is the right arm's */
static void
test_mirror_in_world (void)
{
  const char *files[] = { "wave-v4.psl", "wave-v5.psl", "nod-bounce.kfd" };
  g_autoptr(SqClip) walk = load_walk_skill ();

  for (guint i = 0; i <= G_N_ELEMENTS (files); i++)
    {
      g_autoptr(GBytes) bytes = i < G_N_ELEMENTS (files) ? data_file (files[i]) : NULL;
      g_autoptr(SqClip) orig = bytes != NULL ? tu_load_ok (bytes) : sq_clip_copy (walk);
      g_autoptr(SqClip) clip = sq_clip_copy (orig);
      g_autoptr(SqEdit) mirror = sq_edit_mirror_new ();

      g_assert_true (sq_edit_apply (mirror, clip, NULL));
      assert_mirrored_in_world (orig, clip);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sims/cmx/known-answer", test_cmx_known_answer);
  g_test_add_func ("/sims/mirror/in-world", test_mirror_in_world);
  g_test_add_func ("/sims/cmx/dump-contract", test_cmx_dump_contract);
  g_test_add_func ("/sims/cmx/round-trip", test_cmx_round_trip);
  g_test_add_func ("/sims/cmx/edited-keys", test_cmx_edited_keys);
  g_test_add_func ("/sims/cmx/cfp-coder", test_cfp_coder);
  g_test_add_func ("/sims/cmx/cfp-errors", test_cmx_cfp_errors);
  g_test_add_func ("/sims/cmx/skeleton", test_cmx_skeleton);
  g_test_add_func ("/sims/cmx/more-skills", test_cmx_more_skills);
  g_test_add_func ("/sims/cmx/skeleton-edits", test_cmx_skeleton_edits);
  g_test_add_func ("/sims/cmx/take", test_cmx_take);
  g_test_add_data_func ("/sims/psl/v4", GINT_TO_POINTER (4), test_psl);
  g_test_add_data_func ("/sims/psl/v5", GINT_TO_POINTER (5), test_psl);
  g_test_add_func ("/sims/kfd/bounce", test_kfd);
  g_test_add_func ("/sims/kfd/errors", test_kfd_errors);
  g_test_add_func ("/sims/sps/trees", test_sps);
  g_test_add_func ("/sims/validate", test_validate);
  g_test_add_func ("/sims/numbers/six-decimals", test_six_decimals);
  g_test_add_func ("/sims/convert/walk-to-anim-and-back", test_walk_to_anim_and_back);
  g_test_add_func ("/sims/convert/walk-skill-retargeted", test_walk_skill_retargeted);
  g_test_add_func ("/sims/convert/joint-names", test_joint_names);
  g_test_add_func ("/sims/preview/rest-pose", test_preview_rest_pose);
  g_test_add_func ("/sims/robustness", test_truncations_and_flips);
  g_test_add_func ("/sims/cli/companion", test_cli_companion);
  g_test_add_func ("/sims/edit/poses", test_pose_edits);
  g_test_add_func ("/sims/edit/kfd-poses", test_kfd_pose_edits);
  g_test_add_func ("/sims/edit/fields", test_field_edits);
  g_test_add_func ("/sims/cli/pose-edits", test_cli_pose_edits);
  return g_test_run ();
}
