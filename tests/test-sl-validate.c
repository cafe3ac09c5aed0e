/* test-sl-validate.c: validate --target sl, the viewer's load checks and the
 * upload limits (formats.md 1.5, 1.6)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "test-utils.h"

/* A valid clip built in memory (no format: the writer's defaults apply):
 * mPelvis, mTorso, mChest, mHipLeft, mKneeLeft, mAnkleLeft, each with two
 * rotation keys; mPelvis with two position keys. */
static SqClip *
good_clip (void)
{
  SqClip *clip = sq_clip_new ();
  const char *names[] = { "mPelvis", "mTorso", "mChest", "mHipLeft", "mKneeLeft", "mAnkleLeft" };

  clip->duration = 2.0;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      SqJoint *joint = sq_clip_add_joint (clip, names[i]);

      sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], 0.0)->v[0] = 1;
      sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], 2.0)->v[0] = 1;
      if (i == 0)
        {
          sq_track_append (&joint->tracks[SQ_CHANNEL_TRANSLATION], 0.0);
          sq_track_append (&joint->tracks[SQ_CHANNEL_TRANSLATION], 1.0)->v[2] = 0.5;
        }
    }
  return clip;
}

static GVariant *
constraint (guint8 chain, guint8 type, const char *src, const char *dst, double ease)
{
  guint8 s[16] = { 0 }, d[16] = { 0 };

  memcpy (s, src, MIN (strlen (src), 16));
  memcpy (d, dst, MIN (strlen (dst), 16));
  return g_variant_new ("(yy@ay(ddd)@ay(ddd)(ddd)dddd)", chain, type,
                        g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, s, 16, 1), 0.0, 0.0, 0.0,
                        g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, d, 16, 1), 0.0, 0.0, 0.0,
                        0.0, 0.0, 0.0, 0.0, ease, 1.0, 2.0);
}

static void
set_constraints (SqClip *clip, GVariant **items, gsize n)
{
  sq_props_set (clip->extra, "constraints",
                g_variant_new_array (G_VARIANT_TYPE ("(yyay(ddd)ay(ddd)(ddd)dddd)"), items, n));
}

static GPtrArray *
validate (const SqClip *clip)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *findings = sq_validate (clip, "sl", &error);

  g_assert_no_error (error);
  g_assert_nonnull (findings);
  for (guint i = 0; i < findings->len; i++)
    {
      const SqFinding *f = findings->pdata[i];
      g_test_message ("  %d joint %zd key %zd: %s", f->severity, f->joint, f->key, f->message);
    }
  return findings;
}

static guint
count_at_least (GPtrArray *findings, SqSeverity severity)
{
  guint n = 0;

  for (guint i = 0; i < findings->len; i++)
    n += ((SqFinding *) findings->pdata[i])->severity >= severity;
  return n;
}

/* Exactly one finding of `severity` or worse, with this joint, channel, key
 * and text */
static void
expect_one (const SqClip *clip, SqSeverity severity, gssize joint, SqChannel channel, gssize key, const char *text)
{
  g_autoptr(GPtrArray) findings = validate (clip);
  const SqFinding *f = NULL;

  g_assert_cmpuint (count_at_least (findings, SQ_SEVERITY_WARNING), ==, 1);
  for (guint i = 0; i < findings->len; i++)
    if (((SqFinding *) findings->pdata[i])->severity >= SQ_SEVERITY_WARNING)
      f = findings->pdata[i];
  g_assert_cmpint (f->severity, ==, severity);
  g_assert_cmpint (f->joint, ==, joint);
  if (joint >= 0)
    g_assert_cmpint (f->channel, ==, channel);
  g_assert_cmpint (f->key, ==, key);
  g_assert_nonnull (strstr (f->message, text));
}

static void
test_corpus (void)
{
  g_autoptr(GPtrArray) files = tu_corpus_files ("sl-anim");
  guint warned = 0, seams = 0, hips = 0, bobs = 0;

  for (guint i = 0; i < files->len; i++)
    {
      g_autoptr(GBytes) bytes = tu_read (files->pdata[i]);
      g_autoptr(SqClip) clip = tu_load_ok (bytes);
      g_autoptr(GPtrArray) findings = sq_validate (clip, "sl", NULL);

      guint seam = 0, behaviour = 0;

      for (guint k = 0; k < findings->len; k++)
        {
          const SqFinding *f = findings->pdata[k];

          if (f->severity == SQ_SEVERITY_ERROR)
            g_error ("%s: %s", (const char *) files->pdata[i], f->message);
          g_test_message ("%s: %s", (const char *) files->pdata[i], f->message);
          seam += strstr (f->message, "the loop jumps") != NULL;
          /* what the avatar does with it (test-sl-behaviour.c) */
          hips += strstr (f->message, "floats or sinks") != NULL;
          bobs += strstr (f->message, "bob up and down") != NULL;
          behaviour += f->severity == SQ_SEVERITY_WARNING
                       && (strstr (f->message, "floats or sinks") != NULL || strstr (f->message, "bob up") != NULL);
        }
      warned += count_at_least (findings, SQ_SEVERITY_WARNING) > seam + behaviour;
      seams += seam > 0;
    }
  /* two files animate props (WISDOM_SWORD_1, bow_and_arrow: 4 files), one
   * has 11 constraints */
  g_assert_cmpuint (warned, ==, 5);
  /* 12 looping files jump by more than 2° somewhere at their loop's end
   * (a walk's pelvis by 10.5°) */
  g_assert_cmpuint (seams, ==, 12);
  /* 11 poses hold the hip far from standing and ground-sit heights (kneels,
   * a windsurf stance); StiffNeck moves mNeck */
  g_assert_cmpuint (hips, ==, 11);
  g_assert_cmpuint (bobs, ==, 1);
}

static void
test_good (void)
{
  g_autoptr(SqClip) clip = good_clip ();
  g_autoptr(GPtrArray) findings = NULL;
  GVariant *c[] = { constraint (2, 0, "L_FOOT", "GROUND", 0.5) };

  set_constraints (clip, c, 1);
  findings = validate (clip);
  g_assert_cmpuint (findings->len, ==, 0);
  g_assert_cmpint (sq_findings_have_errors (findings), ==, FALSE);
}

static void
test_header_rules (void)
{
  {
    g_autoptr(SqClip) clip = good_clip ();
    clip->duration = 60.5;
    expect_one (clip, SQ_SEVERITY_ERROR, -1, 0, -1, "60");
  }
  {
    g_autoptr(SqClip) clip = good_clip ();
    sq_props_set (clip->extra, "priority", g_variant_new_int32 (-2));
    /* the joints take the base priority: each is below -1 too */
    g_autoptr(GPtrArray) findings = validate (clip);
    g_assert_cmpuint (count_at_least (findings, SQ_SEVERITY_ERROR), ==, 1 + clip->n_joints);
  }
  {
    g_autoptr(SqClip) clip = good_clip ();
    sq_props_set (clip->extra, "priority", g_variant_new_int32 (7));
    for (gsize j = 0; j < clip->n_joints; j++)
      sq_props_set (clip->joints[j].extra, "priority", g_variant_new_int32 (4));
    expect_one (clip, SQ_SEVERITY_WARNING, -1, 0, -1, "base priority 7");
  }
  {
    g_autoptr(SqClip) clip = good_clip ();
    sq_props_set (clip->extra, "hand-pose", g_variant_new_uint32 (14));
    expect_one (clip, SQ_SEVERITY_WARNING, -1, 0, -1, "hand pose 14");
    sq_props_set (clip->extra, "hand-pose", g_variant_new_uint32 (15));
    expect_one (clip, SQ_SEVERITY_ERROR, -1, 0, -1, "hand pose 15");
    sq_props_set (clip->extra, "hand-pose", g_variant_new_uint32 (13));
    sq_props_set (clip->extra, "ease-out", g_variant_new_double (NAN));
    expect_one (clip, SQ_SEVERITY_ERROR, -1, 0, -1, "ease out");
    sq_props_set (clip->extra, "ease-out", g_variant_new_double (0));
    sq_props_set (clip->extra, "loop-in", g_variant_new_double (INFINITY));
    expect_one (clip, SQ_SEVERITY_ERROR, -1, 0, -1, "loop in");
  }
}

static void
test_joint_rules (void)
{
  {
    g_autoptr(SqClip) clip = good_clip ();
    sq_props_set (clip->joints[2].extra, "priority", g_variant_new_int32 (-2));
    expect_one (clip, SQ_SEVERITY_ERROR, 2, SQ_CHANNEL_ROTATION, -1, "mChest");
    sq_props_set (clip->joints[2].extra, "priority", g_variant_new_int32 (9));
    expect_one (clip, SQ_SEVERITY_WARNING, 2, SQ_CHANNEL_ROTATION, -1, "priority 9");
  }
  {
    g_autoptr(SqClip) clip = good_clip ();
    g_free (clip->joints[3].name);
    clip->joints[3].name = g_strdup ("mScreen");
    expect_one (clip, SQ_SEVERITY_ERROR, 3, SQ_CHANNEL_ROTATION, -1, "mScreen");
    g_free (clip->joints[3].name);
    clip->joints[3].name = g_strdup ("mRoot");
    expect_one (clip, SQ_SEVERITY_ERROR, 3, SQ_CHANNEL_ROTATION, -1, "mRoot");
    g_free (clip->joints[3].name);
    clip->joints[3].name = g_strdup ("LeftUpLeg");
    expect_one (clip, SQ_SEVERITY_WARNING, 3, SQ_CHANNEL_ROTATION, -1, "LeftUpLeg");
  }
  {
    /* aliases, collision volumes and attachment points resolve */
    g_autoptr(SqClip) clip = good_clip ();
    const char *names[] = { "hip", "abdomen", "avatar_mChest", "lThigh", "Left_Ear", "Left Ear", "BELLY",
                            "mHindLimb4Right", "figureHair" };
    g_autoptr(GPtrArray) findings = NULL;

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      sq_clip_add_joint (clip, names[i]);
    findings = validate (clip);
    g_assert_cmpuint (findings->len, ==, 0);
    g_assert_cmpint (sq_sl_lookup_name ("hip", NULL), ==, SQ_SL_NAME_ALIAS);
    g_assert_cmpint (sq_sl_lookup_name ("Hip", NULL), ==, SQ_SL_NAME_UNKNOWN);
    g_assert_cmpstr (sq_sl_bone_name (132), ==, "mHindLimb4Right");
    g_assert_null (sq_sl_bone_name (133));
  }
  {
    g_autoptr(SqClip) clip = sq_clip_new ();
    expect_one (clip, SQ_SEVERITY_ERROR, -1, 0, -1, "no joints");
    for (guint i = 0; i < 217; i++)
      {
        g_autofree char *name = g_strdup_printf ("%s", i < 133 ? sq_sl_bone_name (i) : "mPelvis");
        sq_clip_add_joint (clip, name);
      }
    /* 217 joints; the repeated names are warned about too */
    {
      g_autoptr(GPtrArray) findings = validate (clip);
      g_assert_cmpuint (count_at_least (findings, SQ_SEVERITY_ERROR), ==, 1);
      g_assert_nonnull (strstr (((SqFinding *) findings->pdata[0])->message, "217"));
    }
  }
}

static void
test_key_rules (void)
{
  {
    g_autoptr(SqClip) clip = good_clip ();
    sq_track_unpack (&clip->joints[4].tracks[SQ_CHANNEL_ROTATION])[1].v[2] = NAN;
    expect_one (clip, SQ_SEVERITY_ERROR, 4, SQ_CHANNEL_ROTATION, 1, "mKneeLeft");
  }
  {
    g_autoptr(SqClip) clip = good_clip ();
    sq_track_unpack (&clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION])[0].v[1] = INFINITY;
    expect_one (clip, SQ_SEVERITY_ERROR, 0, SQ_CHANNEL_TRANSLATION, 0, "position key 1");
  }
  {
    g_autoptr(SqClip) clip = good_clip ();
    sq_track_append (&clip->joints[5].tracks[SQ_CHANNEL_ROTATION], 2.5)->v[0] = 1;
    expect_one (clip, SQ_SEVERITY_ERROR, 5, SQ_CHANNEL_ROTATION, 2, "2.5");
  }
  {
    g_autoptr(SqClip) clip = good_clip ();
    sq_track_append (&clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION], 3.0);
    expect_one (clip, SQ_SEVERITY_WARNING, 0, SQ_CHANNEL_TRANSLATION, 2, "position key 3");
  }
  {
    g_autoptr(SqClip) clip = good_clip ();
    sq_track_unpack (&clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION])[1].v[0] = 5.5;
    expect_one (clip, SQ_SEVERITY_WARNING, 0, SQ_CHANNEL_TRANSLATION, 1, "5 m");
  }
  {
    /* 250,000 bytes: 31,300 rotation keys of 8 bytes on one joint */
    g_autoptr(SqClip) clip = good_clip ();
    SqTrack *t = &clip->joints[1].tracks[SQ_CHANNEL_ROTATION];

    clip->duration = 60.0;
    sq_track_clear (t);
    for (guint k = 0; k < 31300; k++)
      sq_track_append (t, k * (60.0 / 31300))->v[0] = 1;
    expect_one (clip, SQ_SEVERITY_ERROR, -1, 0, -1, "250000");
    /* just under the limit */
    t->n_keys = 31200;
    {
      g_autoptr(GBytes) bytes = tu_save (clip, "sl-anim", NULL);
      g_autoptr(GPtrArray) findings = validate (clip);
      g_assert_cmpuint (g_bytes_get_size (bytes), <=, 250000);
      g_assert_cmpuint (findings->len, ==, 0);
    }
  }
}

static void
test_constraint_rules (void)
{
  struct { GVariant *c; SqSeverity severity; gssize joint; const char *text; } cases[] = {
    { constraint (4, 0, "L_FOOT", "GROUND", 0), SQ_SEVERITY_ERROR, 5, "chain length 4" },
    { constraint (1, 2, "L_FOOT", "GROUND", 0), SQ_SEVERITY_ERROR, 5, "type 2" },
    { constraint (1, 0, "L_SHOE", "GROUND", 0), SQ_SEVERITY_ERROR, -1, "L_SHOE" },
    { constraint (1, 0, "L_FOOT", "FLOOR", 0), SQ_SEVERITY_ERROR, 5, "FLOOR" },
    { constraint (1, 0, "L_FOOT", "GROUND", NAN), SQ_SEVERITY_ERROR, 5, "finite" },
    /* R_FOOT's chain needs mAnkleRight, which the clip lacks */
    { constraint (0, 0, "R_FOOT", "GROUND", 0), SQ_SEVERITY_ERROR, -1, "mAnkleRight" },
    /* L_FOOT, 3: mAnkleLeft, mKneeLeft, mHipLeft, mPelvis: all present */
    /* CHEST, 1: mChest, then mSpine4 (v2.0 skeleton), missing */
    { constraint (1, 0, "CHEST", "GROUND", 0), SQ_SEVERITY_ERROR, 2, "mSpine4" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(SqClip) clip = good_clip ();
      GVariant *one[] = { cases[i].c };

      g_test_message ("constraint case %u", i);
      set_constraints (clip, one, 1);
      expect_one (clip, cases[i].severity, cases[i].joint, SQ_CHANNEL_ROTATION, -1, cases[i].text);
    }
  {
    g_autoptr(SqClip) clip = good_clip ();
    GVariant *c[] = { constraint (3, 1, "L_FOOT", "GROUND", 0) };
    g_autoptr(GPtrArray) findings = NULL;

    set_constraints (clip, c, 1);
    findings = validate (clip);
    g_assert_cmpuint (findings->len, ==, 0);
  }
  {
    /* chain length beyond the joint count */
    g_autoptr(SqClip) clip = sq_clip_new ();
    GVariant *c[] = { constraint (2, 0, "PELVIS", "GROUND", 0) };
    g_autoptr(GPtrArray) findings = NULL;

    sq_track_append (&sq_clip_add_joint (clip, "mPelvis")->tracks[SQ_CHANNEL_ROTATION], 0)->v[0] = 1;
    set_constraints (clip, c, 1);
    findings = validate (clip);
    g_assert_cmpuint (count_at_least (findings, SQ_SEVERITY_ERROR), >=, 1);
    g_assert_nonnull (strstr (((SqFinding *) findings->pdata[0])->message, "1 joints"));
    g_assert_cmpint (((SqFinding *) findings->pdata[0])->joint, ==, 0);
  }
  {
    /* 11 constraints: all ignored, a warning only (even for broken ones) */
    g_autoptr(SqClip) clip = good_clip ();
    GVariant *c[11];

    for (guint i = 0; i < 11; i++)
      c[i] = constraint (9, 9, "X", "Y", 0);
    set_constraints (clip, c, 11);
    expect_one (clip, SQ_SEVERITY_WARNING, -1, 0, -1, "11 constraints");
  }
}

static void
test_other_formats (void)
{
  /* the sample binary SEQ: ActiveWorlds joint names */
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "wave.seq", NULL);
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autoptr(GPtrArray) findings = validate (clip);
  guint unknown = 0;

  for (guint i = 0; i < findings->len; i++)
    {
      const SqFinding *f = findings->pdata[i];
      g_assert_cmpint (f->severity, !=, SQ_SEVERITY_ERROR);
      if (strstr (f->message, "not a Second Life joint name"))
        {
          g_assert_cmpint (f->joint, >=, 0);
          unknown++;
        }
    }
  /* all but "neck" and "head", which are the BVH aliases of mNeck and mHead */
  g_assert_cmpint (sq_clip_find_joint (clip, "neck"), >=, 0);
  g_assert_cmpint (sq_clip_find_joint (clip, "head"), >=, 0);
  g_assert_cmpuint (unknown, ==, clip->n_joints - 2);
  g_assert_true (g_strv_contains (sq_validate_targets (), "sl"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sl-validate/corpus", test_corpus);
  g_test_add_func ("/sl-validate/good", test_good);
  g_test_add_func ("/sl-validate/header", test_header_rules);
  g_test_add_func ("/sl-validate/joints", test_joint_rules);
  g_test_add_func ("/sl-validate/keys", test_key_rules);
  g_test_add_func ("/sl-validate/constraints", test_constraint_rules);
  g_test_add_func ("/sl-validate/other-formats", test_other_formats);
  return g_test_run ();
}
