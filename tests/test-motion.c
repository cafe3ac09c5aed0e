/* test-motion.c: mirror, resample, speed, trim, reverse, reduce and close
 * the loop: their numbers on a built clip, exact undo and redo, refusals
 * that leave the clip untouched, and mirror twice on corpus files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "test-utils.h"

#define DEG (G_PI / 180.0)

static void
set_rot (SqTrack *t,
         double   time,
         double   axis_x,
         double   axis_y,
         double   axis_z,
         double   degrees)
{
  SqKey *k = sq_track_append (t, time);
  double s = sin (degrees * DEG / 2);

  k->v[0] = cos (degrees * DEG / 2);
  k->v[1] = axis_x * s;
  k->v[2] = axis_y * s;
  k->v[3] = axis_z * s;
}

static void
set_pos (SqTrack *t,
         double   time,
         double   x,
         double   y,
         double   z)
{
  SqKey *k = sq_track_append (t, time);

  k->v[0] = x;
  k->v[1] = y;
  k->v[2] = z;
}

/* A Second Life clip (built in memory: Second Life axes, +Y left) of 2 s:
 * the pelvis turns and moves, the left arm rises (about +X, so its +Y
 * direction goes up) to 90° at 1 s, the right arm holds still, the head
 * nods on a dense track. Looping from 0.5 to 1.5 s. */
static SqClip *
built_clip (void)
{
  SqClip *clip = sq_clip_new ();
  SqJoint *pelvis = sq_clip_add_joint (clip, "mPelvis");
  SqJoint *left = sq_clip_add_joint (clip, "mShoulderLeft");
  SqJoint *right = sq_clip_add_joint (clip, "mShoulderRight");
  SqJoint *head = sq_clip_add_joint (clip, "mHead");

  clip->duration = 2.0;
  clip->fps = 30.0;
  g_free (clip->root);
  clip->root = g_strdup ("mPelvis");
  for (int i = 0; i <= 4; i++)
    {
      set_rot (&pelvis->tracks[SQ_CHANNEL_ROTATION], i * 0.5, 0, 0, 1, 20.0 * i);
      set_pos (&pelvis->tracks[SQ_CHANNEL_TRANSLATION], i * 0.5, 0.1 * i, 0.05 * i, 1.0 + 0.01 * i);
    }
  set_rot (&left->tracks[SQ_CHANNEL_ROTATION], 0.0, 1, 0, 0, 0);
  set_rot (&left->tracks[SQ_CHANNEL_ROTATION], 1.0, 1, 0, 0, 90);
  set_rot (&left->tracks[SQ_CHANNEL_ROTATION], 2.0, 1, 0, 0, 45);
  set_rot (&right->tracks[SQ_CHANNEL_ROTATION], 0.0, 1, 0, 0, 0);
  set_rot (&right->tracks[SQ_CHANNEL_ROTATION], 2.0, 1, 0, 0, 0);
  for (int i = 0; i <= 60; i++)
    set_rot (&head->tracks[SQ_CHANNEL_ROTATION], i / 30.0, 0, 1, 0, 10.0 * sin (i / 30.0 * G_PI) + (i == 30 ? 3 : 0));
  sq_props_set (clip->extra, "loop", g_variant_new_int32 (1));
  sq_props_set (clip->extra, "loop-in", g_variant_new_double (0.5));
  sq_props_set (clip->extra, "loop-out", g_variant_new_double (1.5));
  sq_props_set (clip->extra, "ease-in", g_variant_new_double (0.8));
  clip->source_generation = clip->generation;
  return clip;
}

static const SqTrack *
track_of (const SqClip *clip,
          const char   *name,
          SqChannel     c)
{
  gssize j = sq_clip_find_joint (clip, name);

  g_assert_cmpint (j, >=, 0);
  return &clip->joints[j].tracks[c];
}

/* apply, undo (bitwise back, generation too), redo (the same as the first
 * apply), undo again; returns the clip as the edit left it */
static SqClip *
apply_undo_redo (SqClip *clip,
                 SqEdit *edit)
{
  g_autoptr(SqClip) before = sq_clip_copy (clip);
  SqClip *after;
  g_autoptr(GError) error = NULL;
  guint64 generation = clip->generation;

  sq_edit_apply (edit, clip, &error);
  g_assert_no_error (error);
  g_assert_true (sq_clip_check (clip, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (clip->generation, !=, generation);
  after = sq_clip_copy (clip);

  sq_edit_undo (edit, clip);
  g_assert_true (sq_clip_equal (before, clip));
  g_assert_cmpuint (clip->generation, ==, generation);
  g_assert_cmpfloat (clip->duration, ==, before->duration);
  g_assert_cmpfloat (clip->fps, ==, before->fps);

  g_assert_true (sq_edit_apply (edit, clip, &error));
  g_assert_no_error (error);
  g_assert_true (sq_clip_equal (after, clip));
  g_assert_cmpfloat (clip->duration, ==, after->duration);
  sq_edit_undo (edit, clip);
  g_assert_true (sq_clip_equal (before, clip));
  return after;
}

/* a refused edit: an error naming the reason, the clip untouched */
static void
assert_refused (SqEdit     *edit,
                const char *fragment)
{
  g_autoptr(SqClip) clip = built_clip ();
  g_autoptr(SqClip) before = sq_clip_copy (clip);
  g_autoptr(GError) error = NULL;
  guint64 generation = clip->generation;

  g_assert_false (sq_edit_apply (edit, clip, &error));
  g_assert_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT);
  if (strstr (error->message, fragment) == NULL)
    g_error ("“%s” does not say “%s”", error->message, fragment);
  g_assert_true (sq_clip_equal (before, clip));
  g_assert_cmpuint (clip->generation, ==, generation);
  g_assert_cmpfloat (clip->duration, ==, before->duration);
  sq_edit_free (edit);
}

static double
prop (const SqClip *clip,
      const char   *key)
{
  return sq_props_get_double (clip->extra, key, NAN);
}

/* The corpus files of `subdir`, sorted by path; fails when there are none */
static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static GPtrArray *
corpus (const char *subdir)
{
  GPtrArray *files = tu_corpus_files (subdir);

  if (files->len == 0)
    g_error ("no corpus files in %s (SEQUIN_CORPUS=%s)", subdir, g_getenv ("SEQUIN_CORPUS"));
  g_ptr_array_sort (files, compare_paths);
  return files;
}

/* ---- mirror ---- */

static void
test_mirror_numbers (void)
{
  g_autoptr(SqClip) clip = built_clip ();
  g_autoptr(SqEdit) edit = sq_edit_mirror_new ();
  g_autoptr(SqClip) m = apply_undo_redo (clip, edit);
  const SqTrack *r = track_of (m, "mShoulderRight", SQ_CHANNEL_ROTATION);
  const SqTrack *l = track_of (m, "mShoulderLeft", SQ_CHANNEL_ROTATION);
  const SqTrack *p = track_of (m, "mPelvis", SQ_CHANNEL_TRANSLATION);
  const SqTrack *pr = track_of (m, "mPelvis", SQ_CHANNEL_ROTATION);
  SqKey k = sq_track_key (r, 1);
  const double right_arm[3] = { 0, -1, 0 };
  double dir[3];

  /* the right arm (pointing −Y at rest) now rises to straight up at 1 s */
  g_assert_cmpuint (r->n_keys, ==, 3);
  g_assert_cmpfloat (k.time, ==, 1.0);
  sq_quat_rotate (k.v, right_arm, dir);
  g_assert_cmpfloat_with_epsilon (dir[0], 0.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (dir[1], 0.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (dir[2], 1.0, 1e-12);
  /* and the left one holds still (it had the right's two identity keys) */
  g_assert_cmpuint (l->n_keys, ==, 2);
  g_assert_cmpfloat (sq_track_key (l, 1).v[0], ==, 1.0);
  /* the pelvis moves to the right instead of the left, turns the other way */
  g_assert_cmpfloat (sq_track_key (p, 4).v[0], ==, 0.4);
  g_assert_cmpfloat (sq_track_key (p, 4).v[1], ==, -0.2);
  g_assert_cmpfloat (sq_track_key (p, 4).v[2], ==, 1.04);
  g_assert_cmpfloat (sq_track_key (pr, 1).v[3], ==, -sin (10 * DEG));
  g_assert_cmpfloat (sq_track_key (pr, 1).v[0], ==, cos (10 * DEG));

  /* twice gives the clip back, bitwise */
  {
    g_autoptr(SqEdit) again = sq_edit_mirror_new ();
    g_autoptr(SqClip) orig = built_clip ();

    g_assert_true (sq_edit_apply (again, m, NULL));
    g_assert_true (sq_clip_equal (orig, m));
  }
}

static void
assert_partner (const char *format_id,
                const char *a,
                const char *b)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  gsize ia, ib;

  clip->format = format_id ? sq_format_by_id (format_id) : NULL;
  g_assert_true (format_id == NULL || clip->format != NULL);
  sq_clip_add_joint (clip, "filler");
  sq_clip_add_joint (clip, a);
  ia = clip->n_joints - 1;
  if (b != NULL)
    sq_clip_add_joint (clip, b);
  ib = b != NULL ? clip->n_joints - 1 : ia;
  if (sq_motion_mirror_partner (clip, ia) != ib || sq_motion_mirror_partner (clip, ib) != ia)
    g_error ("%s: %s and %s are not partners", format_id ? format_id : "built", a, b ? b : a);
  g_assert_cmpuint (sq_motion_mirror_partner (clip, 0), ==, 0);
}

static void
test_mirror_pairs (void)
{
  /* Second Life, Bento included, and its BVH aliases */
  assert_partner ("sl-anim", "mShoulderLeft", "mShoulderRight");
  assert_partner ("sl-anim", "mFaceEar1Left", "mFaceEar1Right");
  assert_partner ("sl-anim", "mHandThumb2Right", "mHandThumb2Left");
  assert_partner ("sl-anim", "mWing4Left", "mWing4Right");
  assert_partner ("sl-anim", "mHindLimb3Left", "mHindLimb3Right");
  assert_partner (NULL, "lShldr", "rShldr");
  assert_partner ("sl-anim", "mSkull", NULL);
  /* ActiveWorlds */
  assert_partner ("seq-binary", "lfshoulder", "rtshoulder");
  assert_partner ("seq-text", "rtknee", "lfknee");
  assert_partner ("dx", "aw_lfhip", "aw_rthip");
  assert_partner ("dx", "aw_hip_l", "aw_hip_r");
  assert_partner ("dx", "HindLeg_L_01", "HindLeg_R_01");
  assert_partner ("dx", "Ear_L", "Ear_R");
  assert_partner ("seq-binary", "pelvis", NULL);
  /* motion capture, CMU and the SL names Sequin writes into BVH */
  assert_partner ("bvh", "LeftArm", "RightArm");
  assert_partner ("bvh", "LeftUpLeg", "RightUpLeg");
  assert_partner ("bvh", "lhumerus", "rhumerus");
  assert_partner ("bvh", "LHipJoint", "RHipJoint");
  assert_partner ("bvh", "lShldr", "rShldr");
  assert_partner ("bvh", "mHandIndex1Left", "mHandIndex1Right");
  assert_partner ("bvh", "lowerback", NULL);
  assert_partner ("bvh", "Hips", NULL);
  /* The Sims, every format of the world */
  assert_partner ("sims-cmx", "L_ARM", "R_ARM");
  assert_partner ("simpose-psl", "R_LEG1", "L_LEG1");
  assert_partner ("simpose-kfd", "L_HAND", "R_HAND");
  assert_partner ("simpose-sps", "L_FINGER0", "R_FINGER0");
  assert_partner ("simpose-psl", "SPINE", NULL);
  assert_partner ("sims-cmx", "PELVIS", NULL);
}

/* A Sims file mirrored: L_ and R_ bones trade keys. Below the pelvis every
 * bone's frame has Y sideways, so the partner's rotation is the original
 * with X and Z negated (W and Y kept); ROOT's translation, in the world's
 * axes, moves to the other side of X */
static void
test_mirror_sims (void)
{
  const char *files[] = { "wave-v4.psl", "wave-v5.psl", "nod-bounce.kfd" };

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "sims", files[f], NULL);
      g_autoptr(GBytes) bytes = tu_read (path);
      g_autoptr(SqClip) orig = tu_load_ok (bytes);
      g_autoptr(SqClip) clip = sq_clip_copy (orig);
      g_autoptr(SqEdit) edit = sq_edit_mirror_new ();
      g_autoptr(SqClip) once = apply_undo_redo (clip, edit);
      guint limbs = 0;

      for (gsize j = 0; j < orig->n_joints; j++)
        {
          const char *name = orig->joints[j].name;
          g_autofree char *other = NULL;
          const SqTrack *a, *b;
          gssize p;

          if (!g_str_has_prefix (name, "L_") && !g_str_has_prefix (name, "R_"))
            continue;
          other = g_strdup_printf ("%c%s", name[0] == 'L' ? 'R' : 'L', name + 1);
          p = sq_clip_find_joint (orig, other);
          g_assert_cmpint (p, >=, 0);
          g_assert_cmpuint (sq_motion_mirror_partner (orig, j), ==, (gsize) p);
          a = &once->joints[p].tracks[SQ_CHANNEL_ROTATION];
          b = &orig->joints[j].tracks[SQ_CHANNEL_ROTATION];
          g_assert_cmpuint (a->n_keys, ==, b->n_keys);
          for (gsize k = 0; k < a->n_keys; k++)
            {
              SqKey ka = sq_track_key (a, k), kb = sq_track_key (b, k);

              g_assert_cmpfloat (ka.v[0], ==, kb.v[0]);
              g_assert_cmpfloat (ka.v[1], ==, -kb.v[1]);
              g_assert_cmpfloat (ka.v[2], ==, kb.v[2]);
              g_assert_cmpfloat (ka.v[3], ==, -kb.v[3]);
              limbs += kb.v[1] != 0 || kb.v[3] != 0;
            }
        }
      if (limbs == 0)
        g_error ("%s: no turned limb to mirror", files[f]);
      {
        const SqTrack *a = &once->joints[0].tracks[SQ_CHANNEL_TRANSLATION];
        const SqTrack *b = &orig->joints[0].tracks[SQ_CHANNEL_TRANSLATION];

        g_assert_cmpstr (orig->joints[0].name, ==, "ROOT");
        g_assert_cmpuint (a->n_keys, ==, b->n_keys);
        for (gsize k = 0; k < a->n_keys; k++)
          {
            g_assert_cmpfloat (sq_track_key (a, k).v[0], ==, -sq_track_key (b, k).v[0]);
            g_assert_cmpfloat (sq_track_key (a, k).v[1], ==, sq_track_key (b, k).v[1]);
          }
      }
      /* twice: the file as it was */
      {
        g_autoptr(SqEdit) twice = sq_edit_mirror_new ();

        g_assert_true (sq_edit_apply (twice, once, NULL));
        g_assert_true (sq_clip_equal (orig, once));
      }
    }
}

/* Every Second Life bone named …Left pairs with its …Right (Bento face,
 * hands, wings and hind limbs included), the others stay in place */
static void
test_mirror_sl_bones (void)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  guint pairs = 0;

  for (guint i = 0; i < SQ_SL_N_BONES; i++)
    sq_clip_add_joint (clip, sq_sl_bone_name (i));
  g_assert_cmpuint (clip->n_joints, ==, 133);
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const char *name = clip->joints[j].name;
      gsize p = sq_motion_mirror_partner (clip, j);

      if (g_str_has_suffix (name, "Left"))
        {
          g_autofree char *right = g_strdup_printf ("%.*sRight", (int) strlen (name) - 4, name);

          g_assert_cmpstr (clip->joints[p].name, ==, right);
          pairs++;
        }
      else if (!g_str_has_suffix (name, "Right"))
        g_assert_cmpuint (p, ==, j);
    }
  g_assert_cmpuint (pairs, ==, 50);
}

/* One file of each corpus folder: mirrored twice it is the original; once,
 * each paired joint has its partner's keys reflected */
static void
test_mirror_corpus (void)
{
  const char *dirs[] = { "bvh", "dx-anim", "seq-binary", "sl-anim" };

  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autoptr(GPtrArray) files = corpus (dirs[d]);
      guint done = 0, paired_files = 0;

      for (guint f = 0; f < files->len && done < 3; f++, done++)
        {
          g_autoptr(GBytes) bytes = tu_read (files->pdata[f]);
          g_autoptr(SqClip) clip = tu_load_ok (bytes);
          g_autoptr(SqClip) orig = sq_clip_copy (clip);
          g_autoptr(SqEdit) edit = sq_edit_mirror_new ();
          g_autoptr(SqClip) once = apply_undo_redo (clip, edit);
          g_autoptr(SqEdit) twice = sq_edit_mirror_new ();
          int lateral = strcmp (dirs[d], "sl-anim") == 0 ? 1 : 0;
          guint pairs = 0;

          for (gsize j = 0; j < orig->n_joints; j++)
            {
              gsize p = sq_motion_mirror_partner (orig, j);
              const SqTrack *a = &once->joints[j].tracks[SQ_CHANNEL_ROTATION];
              const SqTrack *b = &orig->joints[p].tracks[SQ_CHANNEL_ROTATION];

              pairs += p != j;
              g_assert_cmpuint (a->n_keys, ==, b->n_keys);
              for (gsize k = 0; k < a->n_keys; k++)
                {
                  SqKey ka = sq_track_key (a, k), kb = sq_track_key (b, k);

                  g_assert_cmpfloat (ka.time, ==, kb.time);
                  g_assert_cmpfloat (ka.v[0], ==, kb.v[0]);
                  for (int c = 0; c < 3; c++)
                    g_assert_cmpfloat (ka.v[1 + c], ==, c == lateral ? kb.v[1 + c] : -kb.v[1 + c]);
                }
            }
          paired_files += pairs > 0;
          g_assert_true (sq_edit_apply (edit, clip, NULL));
          g_assert_true (sq_edit_apply (twice, clip, NULL));
          g_assert_true (sq_clip_equal (orig, clip));
        }
      if (paired_files == 0)
        g_error ("%s: no file with left/right pairs", dirs[d]);
    }
}

/* BVH mirrored twice through its own files is written with its own numbers:
 * the file's Euler angles are reflected with the keys */
static void
test_mirror_bvh_text (void)
{
  g_autoptr(GPtrArray) files = corpus ("bvh");

  for (guint f = 0; f < files->len && f < 6; f++)
    {
      g_autoptr(GBytes) bytes = tu_read (files->pdata[f]);
      g_autoptr(SqClip) clip = tu_load_ok (bytes);
      g_autoptr(SqEdit) once = sq_edit_mirror_new ();
      g_autoptr(SqEdit) twice = sq_edit_mirror_new ();
      g_autoptr(SqEdit) invert = sq_edit_invert_xz_new (NULL);
      g_autoptr(SqEdit) back = sq_edit_invert_xz_new (NULL);
      g_autoptr(GBytes) first = NULL, second = NULL, edited = NULL;
      g_autoptr(SqClip) reread = NULL;

      g_assert_true (sq_edit_apply (once, clip, NULL));
      first = tu_save (clip, "bvh", NULL);
      reread = tu_load_ok (first);
      g_assert_true (sq_edit_apply (twice, reread, NULL));
      second = tu_save (reread, "bvh", NULL);
      /* the original, edited and edited back: the writer's own text */
      sq_edit_undo (once, clip);
      g_assert_true (sq_edit_apply (invert, clip, NULL));
      g_assert_true (sq_edit_apply (back, clip, NULL));
      edited = tu_save (clip, "bvh", NULL);
      if (!g_bytes_equal (second, edited))
        g_error ("%s: mirrored twice through its files, not written as it was", (char *) files->pdata[f]);
    }
}

/* ---- resample ---- */

static void
test_resample (void)
{
  g_autoptr(SqClip) clip = built_clip ();
  g_autoptr(SqClip) orig = built_clip ();
  g_autoptr(SqEdit) edit = sq_edit_resample_new (10);
  g_autoptr(SqClip) r = apply_undo_redo (clip, edit);
  const SqTrack *t = track_of (r, "mShoulderLeft", SQ_CHANNEL_ROTATION);
  const SqTrack *o = track_of (orig, "mShoulderLeft", SQ_CHANNEL_ROTATION);

  /* 0, 0.1, …, 1.9 and the last, 2 */
  g_assert_cmpuint (t->n_keys, ==, 21);
  for (gsize k = 0; k < t->n_keys; k++)
    {
      SqKey key = sq_track_key (t, k);
      double at = k / 10.0, angle = at <= 1 ? 90 * at : 90 - 45 * (at - 1);

      g_assert_cmpfloat_with_epsilon (key.time, at, 1e-12);
      /* slerp about one axis: the angle moves linearly */
      g_assert_cmpfloat_with_epsilon (key.v[0], cos (angle * DEG / 2), 1e-9);
      g_assert_cmpfloat_with_epsilon (key.v[1], sin (angle * DEG / 2), 1e-9);
    }
  g_assert_cmpfloat (sq_track_key (t, 20).v[0], ==, sq_track_key (o, 2).v[0]);
  /* every track is on the same grid; the translation linear */
  g_assert_cmpuint (track_of (r, "mHead", SQ_CHANNEL_ROTATION)->n_keys, ==, 21);
  g_assert_cmpfloat_with_epsilon (sq_track_key (track_of (r, "mPelvis", SQ_CHANNEL_TRANSLATION), 3).v[0],
                                  0.06, 1e-12);
  g_assert_cmpfloat (r->fps, ==, 10.0);
  g_assert_cmpfloat (r->duration, ==, 2.0);

  assert_refused (sq_edit_resample_new (0), "above 0");
  assert_refused (sq_edit_resample_new (-24), "above 0");
  assert_refused (sq_edit_resample_new (NAN), "above 0");
  assert_refused (sq_edit_resample_new (1e12), "more than");
}

/* ---- speed ---- */

static void
test_speed (void)
{
  g_autoptr(SqClip) clip = built_clip ();
  g_autoptr(SqClip) orig = built_clip ();
  g_autoptr(SqEdit) edit = sq_edit_speed_new (2);
  g_autoptr(SqClip) s = apply_undo_redo (clip, edit);

  g_assert_cmpfloat (s->duration, ==, 1.0);
  g_assert_cmpfloat (s->fps, ==, 60.0);   /* a frame rate of its own follows */
  g_assert_cmpfloat (prop (s, "loop-in"), ==, 0.25);
  g_assert_cmpfloat (prop (s, "loop-out"), ==, 0.75);
  g_assert_cmpfloat (prop (s, "ease-in"), ==, 0.4);
  for (gsize j = 0; j < s->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      for (gsize k = 0; k < s->joints[j].tracks[c].n_keys; k++)
        {
          SqKey a = sq_track_key (&s->joints[j].tracks[c], k), b = sq_track_key (&orig->joints[j].tracks[c], k);

          g_assert_cmpfloat (a.time, ==, b.time / 2);
          g_assert_cmpmem (a.v, sizeof a.v, b.v, sizeof b.v);
        }

  /* a BVH keeps its frames, each half as long: its file read back has the
   * same values at half the times */
  {
    g_autoptr(GPtrArray) files = corpus ("bvh");
    g_autoptr(GBytes) bytes = tu_read (files->pdata[0]);
    g_autoptr(SqClip) bvh = tu_load_ok (bytes);
    g_autoptr(SqEdit) fast = sq_edit_speed_new (2);
    g_autoptr(GBytes) written = NULL;
    g_autoptr(SqClip) back = NULL;

    g_assert_true (sq_edit_apply (fast, bvh, NULL));
    written = tu_save (bvh, "bvh", NULL);
    back = tu_load_ok (written);
    sq_edit_undo (fast, bvh);
    g_assert_cmpuint (back->n_joints, ==, bvh->n_joints);
    g_assert_cmpfloat_with_epsilon (back->fps, bvh->fps * 2, 1e-9);
    for (gsize j = 0; j < bvh->n_joints; j++)
      {
        const SqTrack *a = &back->joints[j].tracks[SQ_CHANNEL_ROTATION], *b = &bvh->joints[j].tracks[SQ_CHANNEL_ROTATION];

        g_assert_cmpuint (a->n_keys, ==, b->n_keys);
        for (gsize k = 0; k < a->n_keys; k++)
          {
            SqKey ka = sq_track_key (a, k), kb = sq_track_key (b, k);

            g_assert_cmpfloat_with_epsilon (ka.time, kb.time / 2, 1e-9);
            g_assert_cmpmem (ka.v, sizeof ka.v, kb.v, sizeof kb.v);
          }
      }
  }

  assert_refused (sq_edit_speed_new (1), "changes nothing");
  assert_refused (sq_edit_speed_new (0), "above 0");
  assert_refused (sq_edit_speed_new (-2), "above 0");
  assert_refused (sq_edit_speed_new (INFINITY), "above 0");
  assert_refused (sq_edit_speed_new (1e-320), "same time");
}

/* ---- trim ---- */

static void
test_trim (void)
{
  g_autoptr(SqClip) clip = built_clip ();
  g_autoptr(SqClip) orig = built_clip ();
  g_autoptr(SqEdit) edit = sq_edit_trim_new (0.25, 1.25);
  g_autoptr(SqClip) t = apply_undo_redo (clip, edit);
  const SqTrack *p = track_of (t, "mPelvis", SQ_CHANNEL_TRANSLATION);
  const SqTrack *l = track_of (t, "mShoulderLeft", SQ_CHANNEL_ROTATION);
  const SqTrack *h = track_of (t, "mHead", SQ_CHANNEL_ROTATION);
  const double want_t[] = { 0, 0.25, 0.75, 1.0 };
  const double want_x[] = { 0.05, 0.1, 0.2, 0.25 };

  g_assert_cmpfloat (t->duration, ==, 1.0);
  g_assert_cmpuint (p->n_keys, ==, 4);
  for (gsize k = 0; k < 4; k++)
    {
      g_assert_cmpfloat_with_epsilon (sq_track_key (p, k).time, want_t[k], 1e-12);
      g_assert_cmpfloat_with_epsilon (sq_track_key (p, k).v[0], want_x[k], 1e-12);
    }
  /* the arm: cut keys at 22.5° and 78.75°, the 90° key at 0.75 */
  g_assert_cmpuint (l->n_keys, ==, 3);
  g_assert_cmpfloat_with_epsilon (sq_track_key (l, 0).v[0], cos (22.5 * DEG / 2), 1e-9);
  g_assert_cmpfloat_with_epsilon (sq_track_key (l, 1).time, 0.75, 1e-12);
  g_assert_cmpfloat_with_epsilon (sq_track_key (l, 2).v[0], cos (78.75 * DEG / 2), 1e-9);
  /* the head: 0.25 s and 1.25 s are off its 1/30 s keys: 30 inside, 2 cuts */
  g_assert_cmpuint (h->n_keys, ==, 32);
  g_assert_cmpmem (sq_track_key (h, 1).v, 4 * sizeof (double),
                   sq_track_key (track_of (orig, "mHead", SQ_CHANNEL_ROTATION), 8).v, 4 * sizeof (double));
  /* the loop 0.5–1.5 becomes 0.25–1 (its end cut off) */
  g_assert_cmpfloat (prop (t, "loop-in"), ==, 0.25);
  g_assert_cmpfloat (prop (t, "loop-out"), ==, 1.0);

  assert_refused (sq_edit_trim_new (1, 1), "empty");
  assert_refused (sq_edit_trim_new (1.5, 0.5), "empty");
  assert_refused (sq_edit_trim_new (0, 3), "not within");
  assert_refused (sq_edit_trim_new (-1, 1), "not within");
}

/* ---- reverse ---- */

static void
test_reverse (void)
{
  g_autoptr(SqClip) clip = built_clip ();
  g_autoptr(SqClip) orig = built_clip ();
  g_autoptr(SqEdit) edit = sq_edit_reverse_new ();
  g_autoptr(SqClip) r = apply_undo_redo (clip, edit);

  for (gsize j = 0; j < r->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *a = &r->joints[j].tracks[c], *b = &orig->joints[j].tracks[c];

        g_assert_cmpuint (a->n_keys, ==, b->n_keys);
        for (gsize k = 0; k < a->n_keys; k++)
          {
            SqKey ka = sq_track_key (a, k), kb = sq_track_key (b, b->n_keys - 1 - k);

            g_assert_cmpfloat (ka.time, ==, 2.0 - kb.time);
            g_assert_cmpmem (ka.v, sizeof ka.v, kb.v, sizeof kb.v);
          }
      }
  /* the arm is at 45° at the start, 90° at 1 s, down at the end */
  g_assert_cmpfloat (sq_track_key (track_of (r, "mShoulderLeft", 0), 0).v[0], ==, cos (45 * DEG / 2));
  g_assert_cmpfloat (prop (r, "loop-in"), ==, 0.5);
  g_assert_cmpfloat (prop (r, "loop-out"), ==, 1.5);
  g_assert_cmpfloat (r->duration, ==, 2.0);
}

/* ---- reduce ---- */

static void
assert_within (const SqClip *reduced,
               const SqClip *orig,
               double        degrees,
               double        distance)
{
  for (gsize j = 0; j < orig->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *o = &orig->joints[j].tracks[c], *t = &reduced->joints[j].tracks[c];

        if (o->n_keys > 0)
          {
            g_assert_cmpfloat (sq_track_time (t, 0), ==, sq_track_time (o, 0));
            g_assert_cmpfloat (sq_track_time (t, t->n_keys - 1), ==, sq_track_time (o, o->n_keys - 1));
          }
        for (gsize k = 0; k < o->n_keys; k++)
          {
            SqKey ko = sq_track_key (o, k);
            double v[4];

            sq_track_sample (t, c, ko.time, v);
            if (c == SQ_CHANNEL_ROTATION)
              g_assert_cmpfloat (sq_quat_angle_between (v, ko.v), <=, degrees);
            else
              g_assert_cmpfloat (sqrt ((v[0] - ko.v[0]) * (v[0] - ko.v[0]) + (v[1] - ko.v[1]) * (v[1] - ko.v[1])
                                       + (v[2] - ko.v[2]) * (v[2] - ko.v[2])), <=, distance);
          }
      }
}

static void
test_reduce (void)
{
  g_autoptr(SqClip) clip = built_clip ();
  g_autoptr(SqClip) orig = built_clip ();
  g_autoptr(SqEdit) edit = sq_edit_reduce_new (0.5, 0.001);
  g_autoptr(SqClip) r = apply_undo_redo (clip, edit);
  const SqTrack *h = track_of (r, "mHead", SQ_CHANNEL_ROTATION);
  const SqTrack *p = track_of (r, "mPelvis", SQ_CHANNEL_TRANSLATION);

  /* 76 keys: the pelvis' straight lines go down to their ends, the head's
   * sine to a few keys, its 3° bump at 1 s stays */
  g_assert_cmpuint (sq_clip_count_keys (orig), ==, 5 + 5 + 3 + 2 + 61);
  g_assert_cmpuint (p->n_keys, ==, 2);
  g_assert_cmpuint (h->n_keys, <, 20);
  g_assert_cmpuint (h->n_keys, >, 4);
  g_assert_cmpint (sq_track_find (h, 1.0), >=, 0);
  assert_within (r, orig, 0.5, 0.001);
  {
    g_autofree char *want = g_strdup_printf ("76 keys before, %zu after", sq_clip_count_keys (r));
    /* the report is of the last apply (apply_undo_redo applied twice) */
    g_assert_true (sq_edit_apply (edit, clip, NULL));
    g_assert_cmpstr (sq_edit_get_report (edit), ==, want);
    sq_edit_undo (edit, clip);
  }
  /* 0 keeps every key that is not exactly on a line: only the pelvis' go */
  {
    g_autoptr(SqEdit) zero = sq_edit_reduce_new (0, 0);

    g_assert_true (sq_edit_apply (zero, clip, NULL));
    assert_within (clip, orig, 1e-6, 1e-12);
    g_assert_cmpuint (track_of (clip, "mHead", 0)->n_keys, ==, 61);
    sq_edit_undo (zero, clip);
    g_assert_true (sq_clip_equal (orig, clip));
  }

  assert_refused (sq_edit_reduce_new (-1, 0), "degrees");
  assert_refused (sq_edit_reduce_new (1, -0.5), "distance");
  assert_refused (sq_edit_reduce_new (NAN, 0), "degrees");
}

/* A long track: a still stretch, then a slow turn with a wobble; the
 * reduction takes n log n (a quadratic search would take minutes) and
 * keeps its bound */
static void
test_reduce_long (void)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  g_autoptr(SqClip) orig = NULL;
  g_autoptr(SqEdit) edit = sq_edit_reduce_new (0.2, 0);
  SqJoint *joint = sq_clip_add_joint (clip, "mHead");
  const gsize n = 200000;
  gint64 start;

  for (gsize k = 0; k < n; k++)
    {
      double t = k / 1000.0, angle = k < n / 2 ? 5.0 : 5.0 + (t - 100.0) * 0.5 + 0.3 * sin (t * 7.0);

      set_rot (&joint->tracks[SQ_CHANNEL_ROTATION], t, 0, 0, 1, angle);
    }
  clip->duration = (n - 1) / 1000.0;
  orig = sq_clip_copy (clip);
  start = g_get_monotonic_time ();
  g_assert_true (sq_edit_apply (edit, clip, NULL));
  g_test_message ("reduced %zu keys to %zu in %.2f s", n, clip->joints[0].tracks[0].n_keys,
                  (g_get_monotonic_time () - start) / 1e6);
  g_assert_cmpuint (clip->joints[0].tracks[0].n_keys, <, n / 20);
  g_assert_cmpuint (clip->joints[0].tracks[0].n_keys, >, 10);
  assert_within (clip, orig, 0.2, 0);
}

/* On corpus files of every format: the bound holds at every original key */
static void
test_reduce_corpus (void)
{
  const char *dirs[] = { "bvh", "dx-anim", "seq-binary", "sl-anim" };

  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autoptr(GPtrArray) files = corpus (dirs[d]);

      for (guint f = 0; f < files->len && f < 2; f++)
        {
          g_autoptr(GBytes) bytes = tu_read (files->pdata[f]);
          g_autoptr(SqClip) clip = tu_load_ok (bytes);
          g_autoptr(SqClip) orig = sq_clip_copy (clip);
          g_autoptr(SqEdit) edit = sq_edit_reduce_new (1.0, 0.01);
          g_autoptr(SqClip) r = apply_undo_redo (clip, edit);

          assert_within (r, orig, 1.0, 0.01);
        }
    }
}

/* ---- close the loop ---- */

static void
test_close_loop (void)
{
  g_autoptr(SqClip) clip = built_clip ();
  g_autoptr(SqEdit) edit = sq_edit_close_loop_new ();
  g_autoptr(SqClip) c = apply_undo_redo (clip, edit);

  /* looping 0.5–1.5: every track's value at 1.5 is its value at 0.5 */
  for (gsize j = 0; j < c->n_joints; j++)
    for (guint ch = 0; ch < SQ_N_CHANNELS; ch++)
      {
        const SqTrack *t = &c->joints[j].tracks[ch], *o = &clip->joints[j].tracks[ch];
        double a[4], b[4], want[4];

        if (t->n_keys == 0)
          continue;
        sq_track_sample (t, ch, 0.5, a);
        sq_track_sample (t, ch, 1.5, b);
        sq_track_sample (o, ch, 0.5, want);
        g_assert_cmpmem (a, sizeof a, want, sizeof want);
        g_assert_cmpmem (b, sizeof b, want, sizeof want);
      }
  /* the arm got a key at 1.5 (it had none), the pelvis' key there changed */
  g_assert_cmpuint (track_of (c, "mShoulderLeft", 0)->n_keys, ==, 4);
  g_assert_cmpuint (track_of (c, "mPelvis", 1)->n_keys, ==, 5);
  g_assert_cmpfloat (sq_track_key (track_of (c, "mPelvis", 1), 3).v[0], ==, 0.1);

  /* not looping: the end takes the pose at 0 */
  {
    g_autoptr(SqEdit) off = sq_edit_sl_loop_new (FALSE, 0, 0);
    g_autoptr(SqEdit) close = sq_edit_close_loop_new ();

    g_assert_true (sq_edit_apply (off, clip, NULL));
    g_assert_true (sq_edit_apply (close, clip, NULL));
    g_assert_cmpfloat (sq_track_key (track_of (clip, "mShoulderLeft", 0), 2).v[0], ==, 1.0);
    g_assert_cmpfloat (sq_track_key (track_of (clip, "mShoulderLeft", 0), 2).time, ==, 2.0);
  }
  /* a loop with no length */
  {
    g_autoptr(SqClip) z = built_clip ();
    g_autoptr(SqClip) before = NULL;
    g_autoptr(SqEdit) e = sq_edit_close_loop_new ();
    g_autoptr(GError) error = NULL;

    sq_props_set (z->extra, "loop-out", g_variant_new_double (0.5));
    before = sq_clip_copy (z);
    g_assert_false (sq_edit_apply (e, z, &error));
    g_assert_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT);
    g_assert_true (sq_clip_equal (before, z));
  }
}

/* Every edit on files of each format: undo gives them back bitwise; a loop
 * with no length is refused, the clip untouched */
static void
test_undo_corpus (void)
{
  const char *dirs[] = { "bvh", "dx-anim", "seq-binary", "sl-anim" };

  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autoptr(GPtrArray) files = corpus (dirs[d]);

      for (guint f = 0; f < files->len; f += MAX (files->len / 3, 1))
        {
          g_autoptr(GBytes) bytes = tu_read (files->pdata[f]);
          g_autoptr(SqClip) clip = tu_load_ok (bytes);
          gboolean loop = sq_props_get_int (clip->extra, "loop", 0) != 0;
          double in = loop ? sq_props_get_double (clip->extra, "loop-in", 0) : 0;
          double out = loop ? sq_props_get_double (clip->extra, "loop-out", clip->duration) : clip->duration;
          SqEdit *edits[] = {
            sq_edit_resample_new (24), sq_edit_speed_new (1.5),
            sq_edit_trim_new (clip->duration / 4, clip->duration / 2), sq_edit_reverse_new (),
            sq_edit_reduce_new (2, 0.05), sq_edit_mirror_new (), sq_edit_close_loop_new (),
          };

          for (guint e = 0; e < G_N_ELEMENTS (edits); e++)
            {
              /* closing a loop with no length, trimming a clip with none */
              if ((e == G_N_ELEMENTS (edits) - 1 && !(out > in)) || (e == 2 && !(clip->duration > 0)))
                {
                  g_autoptr(SqClip) before = sq_clip_copy (clip);
                  g_autoptr(GError) error = NULL;

                  g_assert_false (sq_edit_apply (edits[e], clip, &error));
                  g_assert_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT);
                  g_assert_true (sq_clip_equal (before, clip));
                }
              else
                {
                  g_autoptr(SqClip) after = apply_undo_redo (clip, edits[e]);
                }
              g_assert_false (sq_clip_is_modified (clip));
              sq_edit_free (edits[e]);
            }
        }
    }
}

/* ---- the frame grid (BVH, binary SEQ) ---- */

/* every key of `clip` on a grid of `grid` steps a second, the last at the
 * clip's end */
static void
assert_on_grid (const SqClip *clip,
                double        grid)
{
  double last = 0;

  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      for (gsize k = 0; k < clip->joints[j].tracks[c].n_keys; k++)
        {
          double t = sq_track_time (&clip->joints[j].tracks[c], k);

          if (fabs (t * grid - round (t * grid)) > 1e-6)
            g_error ("%s: key %zu at %.9g s is off the grid of %g a second", clip->joints[j].name, k, t, grid);
          last = MAX (last, t);
        }
  g_assert_cmpfloat_with_epsilon (last, clip->duration, 1e-9);
}

/* saved in its own format: nothing lost, and it reads back */
static void
assert_saves_whole (const SqClip *clip)
{
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GBytes) bytes = tu_save (clip, clip->format->id, losses);
  g_autoptr(SqClip) back = tu_load_ok (bytes);

  for (guint i = 0; i < losses->len; i++)
    g_test_message ("lost: %s", (const char *) losses->pdata[i]);
  g_assert_cmpuint (losses->len, ==, 0);
  g_assert_cmpfloat_with_epsilon (back->duration, clip->duration, 1e-5);
}

static SqClip *
load_corpus (const char *subdir,
             const char *name)
{
  g_autofree char *path = tu_corpus_path (subdir, name);
  g_autoptr(GBytes) bytes = tu_read (path);

  return tu_load_ok (bytes);
}

/* A resample of the sample-like BVH (the last key a third of a frame past
 * 2 s at 10 a second) ends on frame 20, cut and said; speed and trim keep
 * its frames */
static void
test_grid_bvh (void)
{
  g_autoptr(SqClip) clip = load_corpus ("bvh", "131_01.bvh");
  double last = clip->duration;
  /* at 7 a second the last key (8.275 s, frame 57.9) goes up to frame 58 */
  g_autoptr(SqEdit) resample = sq_edit_resample_new (7);
  g_autoptr(SqClip) r = apply_undo_redo (clip, resample);
  g_autoptr(SqEdit) speed = sq_edit_speed_new (1.5);
  g_autoptr(SqEdit) trim = sq_edit_trim_new (1.0 / 360, last / 3 + 1.0 / 500);
  g_autoptr(SqClip) s = NULL, t = NULL;

  g_assert_cmpfloat_with_epsilon (last * 7, 57.925, 1e-3);
  g_assert_cmpuint (track_of (r, "Hips", SQ_CHANNEL_ROTATION)->n_keys, ==, 59);
  g_assert_cmpfloat_with_epsilon (r->duration, 58.0 / 7, 1e-12);
  g_assert_cmpfloat (r->fps, ==, 7.0);
  assert_on_grid (r, 7);
  g_assert_nonnull (strstr (sq_edit_get_report (resample), "frame 58 (8.286 s)"));
  g_assert_nonnull (strstr (sq_edit_get_report (resample), "held"));
  assert_saves_whole (r);

  s = apply_undo_redo (clip, speed);
  g_assert_cmpfloat_with_epsilon (s->fps, clip->fps * 1.5, 1e-9);
  assert_on_grid (s, s->fps);
  g_assert_null (sq_edit_get_report (speed));
  assert_saves_whole (s);

  t = apply_undo_redo (clip, trim);
  assert_on_grid (t, t->fps);
  /* the cuts on the nearest frames: 0 and frame 331 of 120 a second */
  g_assert_cmpfloat_with_epsilon (t->duration, 331.0 / clip->fps, 1e-9);
  g_assert_nonnull (strstr (sq_edit_get_report (trim), "frame 0 (0.000 s) to frame 331 (2.758 s)"));
  assert_saves_whole (t);
}

/* Binary SEQ keeps keys on 1/30 s frames whatever the rate asked */
static void
test_grid_seq (void)
{
  g_autoptr(SqClip) clip = load_corpus ("seq-binary", "walk.seq");
  g_autoptr(SqEdit) resample = sq_edit_resample_new (7);
  g_autoptr(SqEdit) speed = sq_edit_speed_new (1.5);
  g_autoptr(SqEdit) slow = sq_edit_speed_new (0.7);
  g_autoptr(SqEdit) trim = sq_edit_trim_new (0.05, 0.71);
  g_autoptr(SqClip) r = apply_undo_redo (clip, resample);
  g_autoptr(SqClip) s = apply_undo_redo (clip, speed);
  g_autoptr(SqClip) w = apply_undo_redo (clip, slow);
  g_autoptr(SqClip) t = apply_undo_redo (clip, trim);
  g_autoptr(SqClip) copy = sq_clip_copy (clip);
  g_autoptr(SqEdit) fast = sq_edit_resample_new (60);
  g_autoptr(GError) error = NULL;

  g_assert_cmpfloat_with_epsilon (clip->duration, 1.1, 1e-9);
  /* 1.1 s at 7 a second: frames 0..8 (8/7 s, held from 1.1 s), each on
   * the nearest 1/30 s */
  assert_on_grid (r, 30);
  g_assert_cmpuint (track_of (r, "pelvis", SQ_CHANNEL_ROTATION)->n_keys, ==, 9);
  g_assert_cmpfloat_with_epsilon (r->duration, 34.0 / 30, 1e-12);
  g_assert_nonnull (strstr (sq_edit_get_report (resample), "not evenly apart"));
  assert_saves_whole (r);

  assert_on_grid (s, 30);
  g_assert_nonnull (strstr (sq_edit_get_report (speed), "left out"));
  assert_saves_whole (s);
  assert_on_grid (w, 30);
  g_assert_nonnull (strstr (sq_edit_get_report (slow), "moved to the nearest frame"));
  assert_saves_whole (w);

  assert_on_grid (t, 30);
  /* 0.05 s is frame 1.5: up to 2; 0.71 s (21.3) down to 21 */
  g_assert_cmpfloat_with_epsilon (t->duration, 19.0 / 30, 1e-12);
  assert_saves_whole (t);

  g_assert_false (sq_edit_apply (fast, copy, &error));
  tu_assert_mentions (error, "cannot hold 60");
  g_assert_true (sq_clip_equal (copy, clip));
}

/* ---- the angle between two rotations ---- */

static void
test_angle_between (void)
{
  const double id[4] = { 1, 0, 0, 0 }, neg[4] = { -1, -0.0, 0, 0 };
  const double z90[4] = { cos (G_PI / 4), 0, 0, sin (G_PI / 4) };
  const double x180[4] = { 0, 1, 0, 0 };
  /* not unit, and its own copy: exactly 0, where acos of the dot product
   * gives about 1e-6° */
  const double odd[4] = { 0.7071, 0.0123, -0.4, 0.58 };
  const double odd2[4] = { 0.7071 * 3, 0.0123 * 3, -0.4 * 3, 0.58 * 3 };

  g_assert_cmpfloat (sq_quat_angle_between (odd, odd), ==, 0.0);
  g_assert_cmpfloat_with_epsilon (sq_quat_angle_between (odd, odd2), 0.0, 1e-12);
  g_assert_cmpfloat (sq_quat_angle_between (id, neg), ==, 0.0);
  g_assert_cmpfloat_with_epsilon (sq_quat_angle_between (id, z90), 90.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (sq_quat_angle_between (z90, id), 90.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (sq_quat_angle_between (id, x180), 180.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (sq_quat_angle_between (neg, z90), 90.0, 1e-12);
}

/* ---- validation: loop seams, the .anim encoding's loss ---- */

static guint
count_seams (const SqClip *clip,
             const char   *target,
             const char   *joint)
{
  g_autoptr(GPtrArray) findings = sq_validate (clip, target, NULL);
  guint n = 0;

  for (guint i = 0; i < findings->len; i++)
    {
      const SqFinding *f = findings->pdata[i];

      if (strstr (f->message, "the loop jumps") == NULL)
        continue;
      g_assert_cmpint (f->severity, ==, SQ_SEVERITY_WARNING);
      g_assert_cmpint (f->joint, >=, 0);
      if (joint != NULL && strcmp (clip->joints[f->joint].name, joint) == 0)
        g_assert_nonnull (strstr (f->message, "40.0°"));
      n++;
    }
  return n;
}

static void
test_loop_seam (void)
{
  g_autoptr(SqClip) clip = built_clip ();
  g_autoptr(SqEdit) close = sq_edit_close_loop_new ();
  g_autoptr(SqEdit) off = sq_edit_sl_loop_new (FALSE, 0, 0);

  /* looping 0.5–1.5 s: the pelvis turns 20° → 60° (40°), the left arm
   * 45° → 67.5°, the head's nod 10 sin(π/2) → 10 sin(3π/2) (20°); the right
   * arm holds still; in every world's validation */
  for (int t = 0; t < 2; t++)
    g_assert_cmpuint (count_seams (clip, t ? "aw" : "sl", "mPelvis"), ==, 3);
  /* closed, no seam */
  g_assert_true (sq_edit_apply (close, clip, NULL));
  g_assert_cmpuint (count_seams (clip, "sl", NULL), ==, 0);
  sq_edit_undo (close, clip);
  /* a clip that does not loop has none */
  g_assert_true (sq_edit_apply (off, clip, NULL));
  g_assert_cmpuint (count_seams (clip, "sl", NULL), ==, 0);
}

static void
test_sl_loss (void)
{
  g_autoptr(SqClip) clip = built_clip ();
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(SqDiff) loss = sq_diff_sl_loss (clip, losses, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (loss);
  g_assert_cmpuint (loss->joints->len, ==, clip->n_joints);
  /* U16 rotation components in steps of 2/65535 and positions in steps
   * of 10/65535 m (a key's error at most half of that per component) */
  g_assert_cmpfloat (loss->rotation, >, 0.0);
  g_assert_cmpfloat (loss->rotation, <, 0.01);
  g_assert_cmpfloat (loss->translation, >, 0.0);
  g_assert_cmpfloat (loss->translation, <=, sqrt (3) * 5.0 / 65535);
  g_assert_true (tu_has_line (losses, "quantised to 16 bits"));
  /* the same as validation notes: the largest first, then the joints past
   * SQ_LOSS_NOTE_DEGREES or SQ_LOSS_NOTE_METRES, never a warning */
  {
    g_autoptr(GPtrArray) findings = g_ptr_array_new_with_free_func (NULL);
    g_autofree char *largest = g_strdup_printf ("rotations move by up to %.3g°", loss->rotation);
    guint joints = 0;

    sq_validate_add_sl_loss (clip, findings);
    g_assert_cmpuint (findings->len, >=, 1);
    g_assert_nonnull (strstr (((SqFinding *) findings->pdata[0])->message, largest));
    for (guint i = 0; i < findings->len; i++)
      {
        SqFinding *f = findings->pdata[i];

        g_assert_cmpint (f->severity, ==, SQ_SEVERITY_INFO);
        joints += f->joint >= 0;
        g_free (f->message);
        g_free (f);
      }
    for (guint i = 0; i < loss->joints->len; i++)
      {
        const SqJointDiff *d = &g_array_index (loss->joints, SqJointDiff, i);
        joints -= d->rotation > SQ_LOSS_NOTE_DEGREES || d->translation > SQ_LOSS_NOTE_METRES;
      }
    g_assert_cmpuint (joints, ==, 0);
  }
  /* the .anim read back has nothing more to lose */
  {
    g_autoptr(GBytes) bytes = tu_save (clip, "sl-anim", NULL);
    g_autoptr(SqClip) anim = tu_load_ok (bytes);
    g_autoptr(SqDiff) again = sq_diff_sl_loss (anim, NULL, NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpfloat (again->rotation, ==, 0.0);
    g_assert_cmpfloat (again->translation, ==, 0.0);
  }
}

/* one joint's difference over time: its largest value over the key times
 * is the comparison's, a joint in one clip only is refused, a name in
 * Second Life's spelling finds the joint it stands for */
static void
test_diff_curve (void)
{
  g_autoptr(SqClip) a = built_clip ();
  g_autoptr(SqClip) b = sq_clip_copy (a);
  g_autoptr(SqEdit) mirror = sq_edit_mirror_new ();
  g_autoptr(SqDiff) diff = NULL;
  g_autoptr(SqDiffPair) pair = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) aw = sq_clip_new ();
  double times[61], rotation[61], translation[61];
  guint compared = 0;
  double at;

  g_assert_true (sq_edit_apply (mirror, b, &error));
  diff = sq_diff_clips (a, b, &error);
  g_assert_no_error (error);
  pair = sq_diff_pair_new (a, b, &error);
  g_assert_no_error (error);
  for (int i = 0; i <= 60; i++)
    times[i] = i / 30.0;   /* every key time of built_clip () */
  for (guint i = 0; i < diff->joints->len; i++)
    {
      const SqJointDiff *d = &g_array_index (diff->joints, SqJointDiff, i);
      double most_r = 0, most_t = 0;

      if (!d->in_a || !d->in_b)
        continue;
      g_assert_true (sq_diff_pair_curve (pair, d->name, times, 61, rotation, translation, &error));
      g_assert_no_error (error);
      for (int k = 0; k <= 60; k++)
        {
          most_r = MAX (most_r, rotation[k]);
          most_t = MAX (most_t, translation[k]);
        }
      g_assert_cmpfloat (fabs (most_r - d->rotation), <, 1e-9);
      g_assert_cmpfloat (fabs (most_t - d->translation), <, 1e-9);
      at = d->rotation_time;
      g_assert_true (sq_diff_pair_curve (pair, d->name, &at, 1, rotation, NULL, NULL));
      g_assert_cmpfloat (fabs (rotation[0] - d->rotation), <, 1e-9);
      g_assert_cmpint (sq_diff_find_joint (a, d->name), ==, sq_clip_find_joint (a, d->name));
      compared++;
    }
  g_assert_cmpuint (compared, ==, a->n_joints);
  /* mirrored: the left arm's rise is now the right's, 90° apart at 1 s */
  at = 1.0;
  g_assert_true (sq_diff_pair_curve (pair, "mShoulderLeft", &at, 1, rotation, NULL, NULL));
  g_assert_cmpfloat (fabs (rotation[0] - 90.0), <, 1e-6);

  g_assert_false (sq_diff_pair_curve (pair, "mNoSuchJoint", times, 1, rotation, NULL, &error));
  g_assert_error (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "mNoSuchJoint"));

  sq_clip_add_joint (aw, "head");
  sq_clip_add_joint (aw, "pelvis");
  g_assert_cmpint (sq_diff_find_joint (aw, "pelvis"), ==, 1);
  g_assert_cmpint (sq_diff_find_joint (aw, sq_joint_name_for_scheme ("pelvis", SQ_JOINT_SCHEME_SL, 0)), ==, 1);
  g_assert_cmpint (sq_diff_find_joint (aw, "mNoSuchJoint"), ==, -1);
}

/* One pair, several questions: the comparison with peaks (each span's
 * largest rotation difference, at the key times within it and at its
 * middle: measured here again through the pair's curve), and the times a
 * curve is drawn at */
static void
test_diff_peaks (void)
{
  g_autoptr(SqClip) a = built_clip ();
  g_autoptr(SqClip) b = sq_clip_copy (a);
  g_autoptr(SqEdit) mirror = sq_edit_mirror_new ();
  g_autoptr(SqDiffPair) pair = NULL;
  g_autoptr(SqDiffPair) same = NULL;
  g_autoptr(SqDiff) diff = NULL;
  g_autoptr(SqDiff) plain = NULL;
  g_autoptr(SqDiff) none = NULL;
  g_autoptr(GError) error = NULL;
  const gsize n_peaks = 7;
  const double end = 2.0;

  g_assert_true (sq_edit_apply (mirror, b, &error));
  pair = sq_diff_pair_new (a, b, &error);
  g_assert_no_error (error);
  diff = sq_diff_pair_diff (pair, n_peaks);
  plain = sq_diff_clips (a, b, &error);
  g_assert_cmpuint (diff->n_peaks, ==, n_peaks);
  g_assert_cmpuint (plain->n_peaks, ==, 0);
  g_assert_cmpuint (diff->joints->len, ==, plain->joints->len);
  for (guint i = 0; i < diff->joints->len; i++)
    {
      const SqJointDiff *d = &g_array_index (diff->joints, SqJointDiff, i);
      const SqJointDiff *p = &g_array_index (plain->joints, SqJointDiff, i);
      double most = 0;

      /* the same numbers as without peaks */
      g_assert_cmpstr (d->name, ==, p->name);
      g_assert_cmpfloat (d->rotation, ==, p->rotation);
      g_assert_cmpfloat (d->rotation_time, ==, p->rotation_time);
      g_assert_cmpfloat (d->translation, ==, p->translation);
      g_assert_null (p->peaks);
      g_assert_nonnull (d->peaks);
      for (gsize c = 0; c < n_peaks; c++)
        {
          double lo = end * c / n_peaks, hi = end * (c + 1) / n_peaks, mid = (lo + hi) / 2, expect, r;

          g_assert_true (sq_diff_pair_curve (pair, d->name, &mid, 1, &expect, NULL, &error));
          for (int which = 0; which < 2; which++)   /* both rotation tracks' key times */
            {
              const SqClip *clip = which == 0 ? a : b;
              const SqTrack *track = &clip->joints[sq_clip_find_joint (clip, d->name)].tracks[SQ_CHANNEL_ROTATION];

              for (gsize k = 0; k < track->n_keys; k++)
                {
                  double t = sq_track_time (track, k);

                  if (t * n_peaks / end >= c && (t * n_peaks / end < c + 1 || c == n_peaks - 1))
                    {
                      g_assert_true (sq_diff_pair_curve (pair, d->name, &t, 1, &r, NULL, &error));
                      expect = MAX (expect, r);
                    }
                }
            }
          g_assert_cmpfloat (fabs (d->peaks[c] - expect), <, 1e-9);
          most = MAX (most, d->peaks[c]);
        }
      g_assert_cmpfloat (most, >=, d->rotation - 1e-9);
    }
  /* the left shoulder parts most near 1 s: its span (1 s is in span 3 of 7) is its hottest */
  {
    const SqJointDiff *left = &g_array_index (diff->joints, SqJointDiff, sq_clip_find_joint (a, "mShoulderLeft"));

    for (gsize c = 0; c < n_peaks; c++)
      g_assert_cmpfloat (left->peaks[c], <=, left->peaks[3]);
    g_assert_cmpfloat (fabs (left->peaks[3] - 90.0), <, 1e-6);
  }
  /* a clip against itself: no heat anywhere */
  same = sq_diff_pair_new (a, a, &error);
  none = sq_diff_pair_diff (same, n_peaks);
  for (guint i = 0; i < none->joints->len; i++)
    for (gsize c = 0; c < n_peaks; c++)
      g_assert_cmpfloat (g_array_index (none->joints, SqJointDiff, i).peaks[c], ==, 0);

  /* the curve's times: the grid and the head's 61 key times, ascending, once each */
  {
    gsize n = 0;
    g_autofree double *times = sq_diff_pair_curve_times (pair, "mHead", end, 5, 1000, &n);

    g_assert_cmpuint (n, ==, 61);   /* the grid's 0, 0.5, 1, 1.5, 2 are key times too */
    for (gsize i = 1; i < n; i++)
      g_assert_cmpfloat (times[i], >, times[i - 1]);
    g_clear_pointer (&times, g_free);
    times = sq_diff_pair_curve_times (pair, "mShoulderLeft", end, 9, 1000, &n);
    g_assert_cmpuint (n, ==, 9);    /* its keys 0, 1, 2 are on the grid */
    g_clear_pointer (&times, g_free);
    times = sq_diff_pair_curve_times (pair, "mHead", end, 2, 10, &n);
    g_assert_cmpuint (n, ==, 11);   /* the first 10 keys and the end */
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/motion/mirror/numbers", test_mirror_numbers);
  g_test_add_func ("/motion/mirror/pairs", test_mirror_pairs);
  g_test_add_func ("/motion/mirror/sl-bones", test_mirror_sl_bones);
  g_test_add_func ("/motion/mirror/corpus", test_mirror_corpus);
  g_test_add_func ("/motion/mirror/sims", test_mirror_sims);
  g_test_add_func ("/motion/mirror/bvh-text", test_mirror_bvh_text);
  g_test_add_func ("/motion/resample", test_resample);
  g_test_add_func ("/motion/speed", test_speed);
  g_test_add_func ("/motion/trim", test_trim);
  g_test_add_func ("/motion/grid-bvh", test_grid_bvh);
  g_test_add_func ("/motion/grid-seq", test_grid_seq);
  g_test_add_func ("/motion/reverse", test_reverse);
  g_test_add_func ("/motion/reduce", test_reduce);
  g_test_add_func ("/motion/reduce/corpus", test_reduce_corpus);
  g_test_add_func ("/motion/reduce/long", test_reduce_long);
  g_test_add_func ("/motion/close-loop", test_close_loop);
  g_test_add_func ("/motion/undo-corpus", test_undo_corpus);
  g_test_add_func ("/motion/loop-seam", test_loop_seam);
  g_test_add_func ("/motion/angle-between", test_angle_between);
  g_test_add_func ("/motion/sl-loss", test_sl_loss);
  g_test_add_func ("/motion/diff-curve", test_diff_curve);
  g_test_add_func ("/motion/diff-peaks", test_diff_peaks);
  return g_test_run ();
}
