/* test-sl-behaviour.c: what the Second Life avatar does with a clip
 * (validate --target sl's behaviour findings, formats.md 1.10a) and the BVH
 * upload's reference frame (formats.md 1.9)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The .anim files are written by the core's .anim writer and read back from
 * their bytes, so each test checks a file as a user would have it.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "test-utils.h"

/* A clip built in memory: each joint turns 20° about X from 0 to 2 s */
static SqClip *
moving_clip (const char * const *names)
{
  SqClip *clip = sq_clip_new ();

  clip->duration = 2.0;
  for (guint i = 0; names[i] != NULL; i++)
    {
      SqJoint *joint = sq_clip_add_joint (clip, names[i]);
      SqKey *k;

      sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], 0.0)->v[0] = 1;
      k = sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], 2.0);
      k->v[0] = cos (G_PI / 18);
      k->v[1] = sin (G_PI / 18);
    }
  return clip;
}

/* The clip as a .anim file, read back */
static SqClip *
as_anim_file (const SqClip *clip)
{
  g_autoptr(GBytes) bytes = tu_save (clip, "sl-anim", NULL);

  return tu_load_ok (bytes);
}

static GPtrArray *
validate (const SqClip *clip)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *findings = sq_validate (clip, "sl", &error);

  g_assert_no_error (error);
  for (guint i = 0; i < findings->len; i++)
    {
      const SqFinding *f = findings->pdata[i];
      g_test_message ("  %d joint %zd key %zd: %s", f->severity, f->joint, f->key, f->message);
    }
  return findings;
}

/* The finding whose message holds `fragment`, NULL when none */
static const SqFinding *
find (GPtrArray  *findings,
      const char *fragment)
{
  for (guint i = 0; i < findings->len; i++)
    if (strstr (((SqFinding *) findings->pdata[i])->message, fragment) != NULL)
      return findings->pdata[i];
  return NULL;
}

static const char * const base_names[] = { "mPelvis", "mTorso", "mChest", "mNeck", "mHead", "mShoulderLeft", NULL };

static void
test_body_size_positions (void)
{
  g_autoptr(SqClip) with = moving_clip (base_names);
  g_autoptr(SqClip) without = NULL, with_file = NULL;
  g_autoptr(GPtrArray) f1 = NULL, f2 = NULL;
  const SqFinding *f;
  gssize head = sq_clip_find_joint (with, "mHead");

  /* mPelvis may move: no finding for it */
  sq_track_append (&with->joints[0].tracks[SQ_CHANNEL_TRANSLATION], 0.0);
  sq_track_append (&with->joints[0].tracks[SQ_CHANNEL_TRANSLATION], 1.0)->v[0] = 0.2;
  without = as_anim_file (with);
  sq_track_append (&with->joints[head].tracks[SQ_CHANNEL_TRANSLATION], 0.5)->v[2] = 0.05;
  sq_track_append (&with->joints[head].tracks[SQ_CHANNEL_TRANSLATION], 1.5)->v[2] = 0.08;
  with_file = as_anim_file (with);

  f1 = validate (with_file);
  f = find (f1, "bob");
  g_assert_nonnull (f);
  g_assert_cmpint (f->severity, ==, SQ_SEVERITY_WARNING);
  g_assert_cmpint (f->joint, ==, sq_clip_find_joint (with_file, "mHead"));
  g_assert_cmpint (f->channel, ==, SQ_CHANNEL_TRANSLATION);
  g_assert_cmpint (f->key, ==, 0);
  g_assert_nonnull (strstr (f->message, "“mHead” has 2 position keys"));
  g_assert_nonnull (strstr (f->message, "0.500 s"));
  g_assert_null (find (f1, "“mPelvis” has"));

  f2 = validate (without);
  g_assert_null (find (f2, "bob"));
  g_assert_null (find (f2, "shape sliders"));
}

static void
test_shape_override (void)
{
  g_autoptr(SqClip) clip = moving_clip (base_names);
  g_autoptr(SqClip) file = NULL;
  g_autoptr(GPtrArray) findings = NULL;
  gssize shoulder = sq_clip_find_joint (clip, "mShoulderLeft");
  const SqFinding *f;

  sq_track_append (&clip->joints[shoulder].tracks[SQ_CHANNEL_TRANSLATION], 0.0)->v[1] = 0.08;
  file = as_anim_file (clip);
  findings = validate (file);
  f = find (findings, "shape sliders");
  g_assert_nonnull (f);
  g_assert_cmpint (f->severity, ==, SQ_SEVERITY_INFO);
  g_assert_cmpint (f->joint, ==, sq_clip_find_joint (file, "mShoulderLeft"));
  g_assert_cmpint (f->key, ==, 0);
  g_assert_null (find (findings, "bob"));
}

static void
test_abdomen_and_breathing (void)
{
  static const char * const no_chest[] = { "mPelvis", "mTorso", "mHead", NULL };
  static const char * const no_torso[] = { "mPelvis", "mChest", NULL };
  g_autoptr(SqClip) full = moving_clip (base_names);
  g_autoptr(SqClip) low = moving_clip (base_names);
  g_autoptr(SqClip) chestless = moving_clip (no_chest);
  g_autoptr(SqClip) torsoless = moving_clip (no_torso);
  g_autoptr(SqClip) a = NULL, b = NULL, c = NULL, d = NULL;
  g_autoptr(GPtrArray) fa = NULL, fb = NULL, fc = NULL, fd = NULL;
  const SqFinding *f;

  sq_props_set (low->extra, "priority", g_variant_new_int32 (1));
  a = as_anim_file (full);
  b = as_anim_file (low);
  c = as_anim_file (chestless);
  d = as_anim_file (torsoless);
  fa = validate (a);
  g_assert_null (find (fa, "abdomen"));
  g_assert_null (find (fa, "breathing"));
  fb = validate (b);
  f = find (fb, "base priority 1 is 1 or lower");
  g_assert_nonnull (f);
  g_assert_cmpint (f->joint, ==, sq_clip_find_joint (b, "mTorso"));
  fc = validate (c);
  f = find (fc, "no key on mChest");
  g_assert_nonnull (f);
  g_assert_cmpint (f->severity, ==, SQ_SEVERITY_INFO);
  g_assert_null (find (fc, "abdomen"));
  fd = validate (d);
  g_assert_nonnull (find (fd, "no key on mTorso"));
  g_assert_null (find (fd, "breathing"));
}

static void
test_emotes (void)
{
  struct { const char *emote; const char *fragment; SqSeverity severity; } cases[] = {
    { "express_grin_nonexistent", "is not one the viewer knows", SQ_SEVERITY_WARNING },
    { "Closed_Mouth", "does nothing", SQ_SEVERITY_INFO },
    { "Express_Smile", "Bento mesh heads", SQ_SEVERITY_INFO },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(SqClip) clip = moving_clip (base_names);
      g_autoptr(SqClip) file = NULL;
      g_autoptr(GPtrArray) findings = NULL;
      const SqFinding *f;

      sq_props_set (clip->extra, "emote", g_variant_new_string (cases[i].emote));
      file = as_anim_file (clip);
      findings = validate (file);
      f = find (findings, cases[i].fragment);
      g_assert_nonnull (f);
      g_assert_cmpint (f->severity, ==, cases[i].severity);
      g_assert_nonnull (strstr (f->message, cases[i].emote));
    }
  g_assert_true (sq_sl_emote_is_known ("dance3"));
  g_assert_true (sq_sl_emote_is_known ("EXPRESS_EMBARRASED"));
  g_assert_false (sq_sl_emote_is_known ("dance9"));

  {
    g_autoptr(SqClip) clip = moving_clip (base_names);
    g_autoptr(SqClip) plain = NULL, fist = NULL;
    g_autoptr(GPtrArray) fp = NULL, ff = NULL;

    plain = as_anim_file (clip);
    sq_props_set (clip->extra, "hand-pose", g_variant_new_uint32 (3));
    fist = as_anim_file (clip);
    fp = validate (plain);
    g_assert_null (find (fp, "Bento"));
    ff = validate (fist);
    g_assert_nonnull (find (ff, "Bento mesh hands"));
  }
}

/* A pose (nothing moves) with the pelvis `z` metres from its rest */
static SqClip *
pose_with_hip (double z)
{
  SqClip *clip = sq_clip_new ();
  const char *names[] = { "mPelvis", "mTorso", "mChest" };

  clip->duration = 1.0;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      SqJoint *joint = sq_clip_add_joint (clip, names[i]);
      sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], 0.0)->v[0] = 1;
      sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], 1.0)->v[0] = 1;
    }
  sq_track_append (&clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION], 0.0)->v[2] = z;
  sq_track_append (&clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION], 1.0)->v[2] = z;
  return clip;
}

static void
test_hip_height (void)
{
  /* 1.067 m − 0.5 m = 22.3 in: neither standing (42.1) nor a ground sit (8.3) */
  g_autoptr(SqClip) kneeling = pose_with_hip (-0.5);
  g_autoptr(SqClip) ground = pose_with_hip (-0.855);
  g_autoptr(SqClip) standing = pose_with_hip (0.0);
  g_autoptr(SqClip) a = as_anim_file (kneeling), b = as_anim_file (ground), c = as_anim_file (standing);
  g_autoptr(GPtrArray) fa = validate (a), fb = validate (b), fc = validate (c);
  const SqFinding *f = find (fa, "floats or sinks");
  g_autoptr(SqClip) moving = moving_clip (base_names);
  g_autoptr(SqClip) d = NULL;
  g_autoptr(GPtrArray) fd = NULL;

  g_assert_nonnull (f);
  g_assert_cmpint (f->severity, ==, SQ_SEVERITY_WARNING);
  g_assert_cmpint (f->joint, ==, 0);
  g_assert_cmpint (f->key, ==, 1);
  g_assert_nonnull (strstr (f->message, "22.3 in"));
  g_assert_nonnull (strstr (f->message, "ground sit"));
  g_assert_null (find (fb, "floats or sinks"));
  g_assert_null (find (fc, "floats or sinks"));
  /* not a pose: no hip check */
  sq_track_append (&moving->joints[0].tracks[SQ_CHANNEL_TRANSLATION], 0.0)->v[2] = -0.5;
  d = as_anim_file (moving);
  fd = validate (d);
  g_assert_null (find (fd, "floats or sinks"));
}

/* ---- BVH ---- */

/* A BVH of a root and one joint, its frames as given (6 + 3 values) */
static SqClip *
bvh_with_frames (const char *frames, guint n)
{
  g_autofree char *text = g_strdup_printf (
    "HIERARCHY\nROOT hip\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    "  JOINT lShldr\n  {\n    OFFSET 3 10 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "    End Site\n    {\n      OFFSET 10 0 0\n    }\n  }\n}\nMOTION\nFrames: %u\nFrame Time: 0.1\n%s", n, frames);
  g_autoptr(GError) error = NULL;
  SqClip *clip = tu_load_text (text, "bvh", &error);

  g_assert_no_error (error);
  return clip;
}

static void
test_bvh_reference_kinds (void)
{
  g_autoptr(SqClip) ref = bvh_with_frames ("0 42 0 0 0 0 0 0 0\n0 42 0 0 0 0 -70 5 0\n0 42 0 0 0 0 -70 5 0\n", 3);
  g_autoptr(SqClip) pose = bvh_with_frames ("0 42 0 0 0 0 -70 5 0\n0 42 0 0 0 0 -70 5 0\n0 42 0 0 0 0 -70 5 0\n", 3);
  g_autoptr(SqClip) motion = bvh_with_frames ("0 42 0 0 0 0 -10 0 0\n0 42 0 0 0 0 -12 0 0\n0 42 0 0 0 0 -14 0 0\n", 3);
  g_autofree char *why = NULL;
  g_autoptr(GPtrArray) findings = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SqEdit) skip = NULL;

  g_assert_cmpint (sq_bvh_reference_frame (ref, &why), ==, SQ_BVH_REFERENCE_FIRST);
  g_assert_nonnull (strstr (why, "rest pose"));
  g_assert_cmpint (sq_bvh_reference_frame (pose, NULL), ==, SQ_BVH_REFERENCE_POSE_ONLY);
  g_assert_cmpint (sq_bvh_reference_frame (motion, NULL), ==, SQ_BVH_REFERENCE_MOTION);
  g_assert_true (tu_has_line (pose->warnings, "holds the same pose"));
  g_assert_false (tu_has_line (ref->warnings, "holds the same pose"));
  g_assert_false (tu_has_line (motion->warnings, "holds the same pose"));
  findings = validate (pose);
  g_assert_cmpint (find (findings, "holds the same pose")->severity, ==, SQ_SEVERITY_WARNING);

  /* --skip-frames 1: the reference goes, what is left is the pose */
  skip = sq_edit_skip_frames_new (ref, 1, &error);
  g_assert_no_error (error);
  g_assert_true (sq_edit_apply (skip, ref, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sq_bvh_frame_count (ref, NULL), ==, 2);
  g_assert_cmpint (sq_bvh_reference_frame (ref, NULL), ==, SQ_BVH_REFERENCE_POSE_ONLY);
  g_assert_null (sq_edit_skip_frames_new (motion, 3, &error));
  g_assert_nonnull (error);
}

static gsize
anim_joints (const SqClip *clip, const SqSaveOptions *options, GPtrArray *losses, GPtrArray *notes)
{
  SqSaveOptions o = *options;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SqClip) back = NULL;

  o.notes = notes;
  bytes = sq_save_bytes (clip, sq_format_by_id ("sl-anim"), &o, losses, &error);
  g_assert_no_error (error);
  back = tu_load_ok (bytes);
  return back->n_joints;
}

static void
test_bvh_pose_to_anim (void)
{
  g_autofree char *path = tu_corpus_path ("bvh", "Relaxed.bvh");
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(SqClip) relaxed = tu_load_ok (bytes);
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) losses2 = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) notes2 = g_ptr_array_new_with_free_func (g_free);
  SqSaveOptions keep = { .no_source_copy = TRUE }, literal = { .no_source_copy = TRUE, .literal_pose = TRUE };

  g_assert_cmpint (sq_bvh_reference_frame (relaxed, NULL), ==, SQ_BVH_REFERENCE_POSE_ONLY);
  /* the reader says so loudly */
  g_assert_true (tu_has_line (relaxed->warnings, "every one of the 30 frames holds the same pose"));
  /* by default the pose is kept: every one of its 19 joints */
  g_assert_cmpuint (anim_joints (relaxed, &keep, losses, notes), ==, relaxed->n_joints);
  g_assert_cmpuint (relaxed->n_joints, ==, 19);
  g_assert_true (tu_has_line (notes, "the rest pose is taken as its reference frame"));
  g_assert_false (tu_has_line (losses, "no joints"));
  /* the viewer's own way: nothing, and a line saying why */
  g_assert_cmpuint (anim_joints (relaxed, &literal, losses2, notes2), ==, 0);
  g_assert_true (tu_has_line (losses2, "so the animation has no joints"));
}

static void
test_anim_to_bvh_reference (void)
{
  g_autoptr(SqClip) clip = moving_clip (base_names);
  g_autoptr(SqClip) anim = NULL, with = NULL, without = NULL;
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) losses2 = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) notes2 = g_ptr_array_new_with_free_func (g_free);
  SqSaveOptions o = { .no_source_copy = TRUE };
  g_autoptr(GBytes) b1 = NULL, b2 = NULL;
  g_autoptr(GError) error = NULL;

  /* the animation starts away from the rest pose */
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      clip->joints[j].tracks[SQ_CHANNEL_ROTATION].keys[0].v[0] = cos (G_PI / 12);
      clip->joints[j].tracks[SQ_CHANNEL_ROTATION].keys[0].v[2] = sin (G_PI / 12);
    }
  anim = as_anim_file (clip);
  o.notes = notes;
  b1 = sq_save_bytes (anim, sq_format_by_id ("bvh"), &o, losses, &error);
  g_assert_no_error (error);
  g_assert_true (tu_has_line (notes, "frame 0 is a reference pose"));
  g_assert_false (tu_has_line (losses, "frame 0 is a reference pose"));
  o.notes = notes2;
  o.no_reference_frame = TRUE;
  b2 = sq_save_bytes (anim, sq_format_by_id ("bvh"), &o, losses2, &error);
  g_assert_no_error (error);
  g_assert_false (tu_has_line (notes2, "frame 0 is a reference pose"));
  g_assert_false (tu_has_line (losses2, "frame 0 is a reference pose"));
  with = tu_load_ok (b1);
  without = tu_load_ok (b2);
  /* one frame more with the reference; it is the rest pose, and the
   * upload takes it as such */
  g_assert_cmpuint (sq_bvh_frame_count (with, NULL), ==, sq_bvh_frame_count (without, NULL) + 1);
  g_assert_cmpint (sq_bvh_reference_frame (with, NULL), ==, SQ_BVH_REFERENCE_FIRST);
  g_assert_cmpint (sq_bvh_reference_frame (without, NULL), !=, SQ_BVH_REFERENCE_FIRST);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sl-behaviour/body-size-positions", test_body_size_positions);
  g_test_add_func ("/sl-behaviour/shape-override", test_shape_override);
  g_test_add_func ("/sl-behaviour/abdomen-breathing", test_abdomen_and_breathing);
  g_test_add_func ("/sl-behaviour/emotes", test_emotes);
  g_test_add_func ("/sl-behaviour/hip-height", test_hip_height);
  g_test_add_func ("/sl-behaviour/bvh-reference-kinds", test_bvh_reference_kinds);
  g_test_add_func ("/sl-behaviour/bvh-pose-to-anim", test_bvh_pose_to_anim);
  g_test_add_func ("/sl-behaviour/anim-to-bvh-reference", test_anim_to_bvh_reference);
  return g_test_run ();
}
