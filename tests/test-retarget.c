/* test-retarget.c: conversions across worlds keep each limb pointing the
 * same way in the world
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Held-out checks on real files: each clip is posed on its own world's
 * rest skeleton (sq-pose.h, as the preview shows it), converted, read back
 * from the written bytes and posed on the target world's rest skeleton;
 * every mapped limb (spine, neck and head, collar, upper arm, forearm,
 * thigh, shin, foot) is compared in the world at every key. The average
 * and worst angle of each conversion are printed.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sq-core.h"
#include "sq-joint-map.h"
#include "sq-math.h"
#include "sq-pose.h"
#include "test-utils.h"
#include "worlds/sq-sl-skeleton.h"

/* the limbs compared: from the joint standing for the first concept to
 * the one standing for the second (the nearest the skeletons have) */
static const char * const limbs[][3] = {
  { "spine", "mTorso", "mNeck" },
  { "neck", "mNeck", "mHead" },
  { "left collar", "mCollarLeft", "mShoulderLeft" },
  { "left upper arm", "mShoulderLeft", "mElbowLeft" },
  { "left forearm", "mElbowLeft", "mWristLeft" },
  { "right collar", "mCollarRight", "mShoulderRight" },
  { "right upper arm", "mShoulderRight", "mElbowRight" },
  { "right forearm", "mElbowRight", "mWristRight" },
  { "left thigh", "mHipLeft", "mKneeLeft" },
  { "left shin", "mKneeLeft", "mAnkleLeft" },
  { "left foot", "mAnkleLeft", "mFootLeft" },
  { "right thigh", "mHipRight", "mKneeRight" },
  { "right shin", "mKneeRight", "mAnkleRight" },
  { "right foot", "mAnkleRight", "mFootRight" },
};

static gssize
joint_of (const SqClip *clip,
          const char   *concept)
{
  SqJointLookupFlags flags = sq_joint_lookup_flags (clip);

  for (gsize j = 0; j < clip->n_joints; j++)
    {
      SqJointConcept c;
      if (sq_joint_concept_lookup (clip->joints[j].name, flags, &c) && g_strcmp0 (c.sl_bone, concept) == 0)
        return (gssize) j;
    }
  return -1;
}

/* The limb's direction at `time`, unit length; FALSE when the clip has
 * no such limb */
static gboolean
limb_direction (const SqClip *clip,
                const SqPose *pose,
                double        time,
                gsize         limb,
                double        dir[3])
{
  gssize a = joint_of (clip, limbs[limb][1]), b = joint_of (clip, limbs[limb][2]);
  g_autofree double *points = NULL;
  double len = 0;

  if (a < 0 || b < 0)
    return FALSE;
  points = g_new (double, 3 * MAX (clip->n_joints, 1));
  sq_pose_evaluate (pose, clip, time, points);
  for (int k = 0; k < 3; k++)
    {
      dir[k] = points[3 * b + k] - points[3 * a + k];
      len += dir[k] * dir[k];
    }
  len = sqrt (len);
  if (len < 1e-9)
    return FALSE;
  for (int k = 0; k < 3; k++)
    dir[k] /= len;
  return TRUE;
}

static double
angle_deg (const double a[3],
           const double b[3])
{
  double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

  return acos (CLAMP (dot, -1.0, 1.0)) * 180.0 / G_PI;
}

/* The rotation key times of a clip, each once */
static GArray *
key_times (const SqClip *clip)
{
  GArray *times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (gsize j = 0; j < clip->n_joints; j++)
    for (gsize k = 0; k < clip->joints[j].tracks[SQ_CHANNEL_ROTATION].n_keys; k++)
      {
        double t = sq_track_time (&clip->joints[j].tracks[SQ_CHANNEL_ROTATION], k);
        gint64 *ms = g_new (gint64, 1);

        *ms = (gint64) floor (t * 1e6 + 0.5);
        if (g_hash_table_contains (seen, ms))
          {
            g_free (ms);
            continue;
          }
        g_hash_table_add (seen, ms);
        g_array_append_val (times, t);
      }
  return times;
}

typedef struct
{
  double   mean, worst;
  guint    n;
  char    *worst_limb;
} Score;

/* Compares `a` at each of its key times t with `b` at t + shift; `turn`
 * (may be NULL) turns a's directions first */
static Score
compare_limbs (const SqClip *a,
               const SqClip *b,
               double        shift,
               const double *turn)
{
  g_autoptr(SqPose) pa = sq_pose_new (a);
  g_autoptr(SqPose) pb = sq_pose_new (b);
  g_autoptr(GArray) times = key_times (a);
  Score s = { 0, 0, 0, NULL };
  double sum = 0;

  for (guint i = 0; i < times->len; i++)
    {
      double t = g_array_index (times, double, i);

      if (t + shift < 0 || t + shift > b->duration + 1e-6)
        continue;
      for (gsize l = 0; l < G_N_ELEMENTS (limbs); l++)
        {
          double da[3], db[3], ang;

          if (!limb_direction (a, pa, t, l, da) || !limb_direction (b, pb, t + shift, l, db))
            continue;
          if (turn != NULL)
            sq_quat_rotate (turn, da, da);
          ang = angle_deg (da, db);
          sum += ang;
          s.n++;
          if (ang > s.worst)
            {
              s.worst = ang;
              g_free (s.worst_limb);
              s.worst_limb = g_strdup_printf ("%s at %.3f s", limbs[l][0], t);
            }
        }
    }
  s.mean = s.n > 0 ? sum / s.n : 0;
  return s;
}

static SqClip *
load_corpus (const char *subdir,
             const char *name)
{
  g_autofree char *path = tu_corpus_path (subdir, name);
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(GError) error = NULL;
  SqClip *clip = sq_load_bytes (bytes, name, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (clip);
  return clip;
}

/* `clip` saved as `format_id` and read back */
static SqClip *
convert (const SqClip *clip,
         const char   *format_id,
         GPtrArray    *losses)
{
  const SqFormat *format = sq_format_by_id (format_id);
  g_autoptr(GBytes) bytes = tu_save (clip, format_id, losses);
  g_autoptr(GError) error = NULL;
  SqClip *back = sq_load_bytes (bytes, NULL, format, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (back);
  return back;
}

static void
check_turned (const char   *what,
              const SqClip *a,
              const SqClip *b,
              double        shift,
              const double *turn,
              double        max_mean,
              double        max_worst)
{
  Score s = compare_limbs (a, b, shift, turn);

  g_test_message ("%s: %u limb directions compared, average %.2f°, worst %.2f° (%s)",
                  what, s.n, s.mean, s.worst, s.worst_limb ? s.worst_limb : "-");
  g_assert_cmpuint (s.n, >, 0);
  g_assert_cmpfloat (s.mean, <=, max_mean);
  g_assert_cmpfloat (s.worst, <=, max_worst);
  g_free (s.worst_limb);
}

static void
check (const char   *what,
       const SqClip *a,
       const SqClip *b,
       double        shift,
       double        max_mean,
       double        max_worst)
{
  check_turned (what, a, b, shift, NULL, max_mean, max_worst);
}

/* The upper arms point down (the arms hang) at every key */
static void
assert_arms_down (const SqClip *clip)
{
  g_autoptr(SqPose) pose = sq_pose_new (clip);
  g_autoptr(GArray) times = key_times (clip);

  for (guint i = 0; i < times->len; i++)
    for (gsize l = 3; l <= 6; l += 3)
      {
        double d[3];

        g_assert_true (limb_direction (clip, pose, g_array_index (times, double, i), l, d));
        g_assert_cmpfloat (d[2], <, -0.7);   /* Second Life's axes: Z up */
      }
}

static void
test_aw_walk (void)
{
  g_autoptr(SqClip) walk = load_corpus ("seq-binary", "walk.seq");
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SqClip) anim = convert (walk, "sl-anim", losses);
  g_autoptr(SqClip) bvh = convert (walk, "bvh", NULL);
  g_autoptr(SqClip) dx = convert (walk, "dx", NULL);

  /* as the preview shows the source: its arms swing at its sides */
  assert_arms_down (walk);
  assert_arms_down (anim);
  assert_arms_down (bvh);
  check ("ActiveWorlds walk.seq → .anim", walk, anim, 0, 1.0, 3.0);
  check ("ActiveWorlds walk.seq → BVH", walk, bvh, 0, 1.0, 3.0);
  check ("ActiveWorlds walk.seq → .x", walk, dx, 0, 1e-3, 1e-2);
}

static void
test_sl_walk (void)
{
  /* Second Life's WALK (opensim's asset set) */
  g_autoptr(SqClip) walk = load_corpus ("sl-anim", "6ed24bd8-91aa-4b12-ccc7-c97c857ab4e0.dat");
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SqClip) seq = convert (walk, "seq-binary", losses);
  g_autoptr(SqClip) dx = convert (walk, "dx", NULL);
  g_autoptr(SqClip) text = convert (walk, "seq-text", NULL);

  /* the chest has no classic ActiveWorlds limb: its turn goes on */
  g_assert_true (tu_has_line (losses, "“mChest” has no ActiveWorlds counterpart: left out, its turn carried into"));
  g_assert_cmpint (sq_clip_find_joint (seq, "mChest"), <, 0);
  check ("Second Life WALK → binary SEQ", walk, seq, 0, 0.1, 0.5);
  check ("Second Life WALK → text SEQ", walk, text, 0, 0.1, 0.5);
  check ("Second Life WALK → .x", walk, dx, 0, 0.1, 0.5);
}

static void
test_cmu_walk (void)
{
  g_autoptr(SqClip) cmu = load_corpus ("bvh", "131_01.bvh");
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SqClip) anim = NULL;
  g_autoptr(GError) error = NULL;
  SqSaveOptions options = { 0 };

  options.notes = notes;
  bytes = sq_save_bytes (cmu, sq_format_by_id ("sl-anim"), &options, losses, &error);
  g_assert_no_error (error);
  anim = sq_load_bytes (bytes, NULL, sq_format_by_id ("sl-anim"), NULL, &error);
  g_assert_no_error (error);
  /* the motion capture actor's size against Second Life's avatar */
  g_assert_true (tu_has_line (notes, "root motion scaled by"));
  g_assert_true (tu_has_line (notes, "retargeted"));
  /* the importer's rules: BVH frame 0 is not played, so SL time t is BVH
   * t + one frame, and the root's turn at frame 0 is taken off the whole
   * body (formats.md 1.9); its key reduction leaves frames out, which
   * costs a foot up to about 15° between two kept keys (the worst, the
   * right foot at 7.358 s: with the reduction's threshold at 0 the same
   * conversion is 0.05° on average and 1.21° at worst) */
  {
    gssize root = sq_clip_find_joint (cmu, "Hips");
    double q[4], sl[4], turn[4];

    g_assert_cmpint (root, >=, 0);
    sq_track_sample (&cmu->joints[root].tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, 0, q);
    sq_space_rotation_to_sl (cmu->format->space, q, sl);
    sq_quat_conjugate (sl, turn);
    check_turned ("CMU 131_01.bvh → .anim", cmu, anim, -1.0 / cmu->fps, turn, 1.0, 16.0);
  }
  /* the retarget alone, every frame kept (text SEQ's 1 ms steps): CMU's
   * rest feet, legs and arms onto ActiveWorlds' rest point the same way */
  {
    g_autoptr(SqClip) text = convert (cmu, "seq-text", NULL);

    check ("CMU 131_01.bvh → text SEQ", cmu, text, 0, 0.1, 1.0);
  }
  /* onto 30 fps steps (.x) from 120 fps: of the frames on one step the
   * nearest is kept, so the motion plays on time, not a frame late (keeping
   * the first of them gave 0.92° on average and 11.0° at worst; now 0.18°
   * and 6.2°, the foot between two 30 fps steps) */
  {
    g_autoptr(SqClip) dx = convert (cmu, "dx", NULL);

    check ("CMU 131_01.bvh → .x", cmu, dx, 0, 0.3, 7.0);
  }
}

/* Whether every clip of `via` (NULL-terminated) has a joint standing for
 * what joint `j` of `a` stands for */
static gboolean
kept_through (const SqClip        *a,
              gsize                j,
              const SqClip * const *via)
{
  SqJointConcept c;

  if (!sq_joint_concept_lookup (a->joints[j].name, sq_joint_lookup_flags (a), &c) || c.sl_bone == NULL)
    return FALSE;
  for (gsize v = 0; via[v] != NULL; v++)
    if (joint_of (via[v], c.sl_bone) < 0)
      return FALSE;
  return TRUE;
}

/* Every joint of `a` that `b` has (by name) and every clip of `via`
 * (the worlds between) stands for, seen from the nearest joint above it
 * kept likewise, compared in the world at every key of `a`: each error
 * over `report`° is printed (joint, time, degrees); returns the worst */
static double
compare_joints (const SqClip        *a,
                const SqClip        *b,
                const SqClip * const *via,
                double               report)
{
  g_autoptr(SqPose) pa = sq_pose_new (a);
  g_autoptr(SqPose) pb = sq_pose_new (b);
  g_autoptr(GArray) times = key_times (a);
  const gssize *parent = sq_pose_get_parents (pa);
  g_autofree double *xa = g_new (double, 3 * MAX (a->n_joints, 1));
  g_autofree double *xb = g_new (double, 3 * MAX (b->n_joints, 1));
  double worst = 0;

  g_assert_cmpuint (sq_pose_get_n_joints (pa), ==, a->n_joints);
  for (guint i = 0; i < times->len; i++)
    {
      double t = g_array_index (times, double, i);

      sq_pose_evaluate (pa, a, t, xa);
      sq_pose_evaluate (pb, b, t, xb);
      for (gsize j = 0; j < a->n_joints; j++)
        {
          gssize jb = sq_clip_find_joint (b, a->joints[j].name), p = parent[j], pb_ = -1;
          double da[3], db[3], la = 0, lb = 0, ang;

          for (; p >= 0 && ((pb_ = sq_clip_find_joint (b, a->joints[p].name)) < 0 || !kept_through (a, p, via));
               p = parent[p])
            ;
          if (jb < 0 || p < 0 || pb_ < 0 || !kept_through (a, j, via))
            continue;
          for (int k = 0; k < 3; k++)
            {
              da[k] = xa[3 * j + k] - xa[3 * p + k];
              db[k] = xb[3 * jb + k] - xb[3 * pb_ + k];
              la += da[k] * da[k];
              lb += db[k] * db[k];
            }
          if (la < 1e-18 || lb < 1e-18)
            continue;
          for (int k = 0; k < 3; k++)
            da[k] /= sqrt (la), db[k] /= sqrt (lb);
          ang = angle_deg (da, db);
          if (ang > report)
            g_test_message ("  %s from %s at %.3f s: %.2f°", a->joints[j].name, a->joints[p].name, t, ang);
          worst = MAX (worst, ang);
        }
    }
  return worst;
}

/* Second Life's walks and dances (opensim's asset set) */
static const char * const sl_clips[][2] = {
  { "WALK", "6ed24bd8-91aa-4b12-ccc7-c97c857ab4e0.dat" },
  { "FEMALE_WALK", "f5fc7433-043d-e819-8298-f519a119b688.dat" },
  { "DANCE1", "b68a3d7c-de9e-fc87-eec8-543d787e5b0d.dat" },
  { "DANCE2", "928cae18-e31d-76fd-9cc9-2f55160ff818.dat" },
  { "DANCE5", "4bd69a1d-1114-a0b4-625f-84e0a5237155.dat" },
  { "DANCE7", "a54d8ee2-28bb-80a9-7f0c-7afbbe24a5d6.dat" },
};

/* Second Life → ActiveWorlds (binary SEQ, .x) → The Sims → Second Life:
 * every limb, and every joint seen from the one above it, within 1° at
 * every key. The classic SEQ avatar has no chest: its turn is carried
 * into the spine (aimed along the chest's chord), the neck and the
 * collars, so the joints beyond it stay where they were. */
static void
test_round_trip (void)
{
  static const char * const via[] = { "seq-binary", "dx" };

  for (gsize c = 0; c < G_N_ELEMENTS (sl_clips); c++)
    for (gsize v = 0; v < G_N_ELEMENTS (via); v++)
      {
        g_autoptr(SqClip) start = load_corpus ("sl-anim", sl_clips[c][1]);
        g_autoptr(SqClip) aw = convert (start, via[v], NULL);
        g_autoptr(SqClip) sims = convert (aw, "simpose-kfd", NULL);
        g_autoptr(SqClip) back = convert (sims, "sl-anim", NULL);
        g_autofree char *what = g_strdup_printf ("Second Life %s → %s → The Sims → Second Life", sl_clips[c][0], via[v]);
        double worst;

        const SqClip *between[] = { aw, sims, NULL };

        check (what, start, back, 0, 0.5, 1.0);
        worst = compare_joints (start, back, between, 1.0);
        g_test_message ("%s: every joint from the one above it, worst %.2f°", what, worst);
        g_assert_cmpfloat (worst, <=, 1.0);
      }
}

/* Second Life → binary SEQ keeps every limb and every joint beyond the
 * chest the SEQ avatar lacks (the error the chord aim removed: 4.3° at
 * the spine of WALK) */
static void
test_sl_to_seq_joints (void)
{
  for (gsize c = 0; c < G_N_ELEMENTS (sl_clips); c++)
    {
      g_autoptr(SqClip) start = load_corpus ("sl-anim", sl_clips[c][1]);
      g_autoptr(SqClip) seq = convert (start, "seq-binary", NULL);
      g_autoptr(SqClip) back = convert (seq, "sl-anim", NULL);
      g_autofree char *what = g_strdup_printf ("Second Life %s → binary SEQ", sl_clips[c][0]);
      double worst;

      const SqClip *between[] = { seq, NULL };

      check (what, start, seq, 0, 0.5, 1.0);
      worst = compare_joints (start, back, between, 1.0);
      g_test_message ("%s → Second Life: every joint from the one above it, worst %.2f°", what, worst);
      g_assert_cmpfloat (worst, <=, 1.0);
    }
}

static GBytes *
give_cfp (const char *name,
          gpointer    user_data,
          GError    **error)
{
  (void) name;
  (void) error;
  return g_bytes_ref (user_data);
}

/* The Sims' walk skill (tests/data/sims, made on the adult skeleton) */
static SqClip *
load_sims_walk (void)
{
  g_autofree char *cmx_path = g_test_build_filename (G_TEST_DIST, "data", "sims", "walk.cmx", NULL);
  g_autofree char *cfp_path = g_test_build_filename (G_TEST_DIST, "data", "sims", "xskill-walk.cfp", NULL);
  g_autoptr(GBytes) cmx = tu_read (cmx_path);
  g_autoptr(GBytes) cfp = tu_read (cfp_path);
  g_autoptr(GError) error = NULL;
  SqLoadOptions options = { 0 };
  SqClip *clip;

  options.companion = give_cfp;
  options.companion_data = cfp;
  clip = sq_load_bytes (cmx, "walk.cmx", NULL, &options, &error);
  g_assert_no_error (error);
  g_assert_nonnull (clip);
  return clip;
}

/* Second Life ⇄ The Sims: the SL WALK and a dance onto the adult Sim, and
 * the Sims' walk skill onto Second Life's T-pose avatar */
static void
test_sims (void)
{
  g_autoptr(SqClip) sims_walk = load_sims_walk ();
  g_autoptr(SqClip) sl = convert (sims_walk, "sl-anim", NULL);

  check ("The Sims walk.cmx → .anim", sims_walk, sl, 0, 0.1, 0.5);
  for (gsize c = 0; c < 3; c++)
    {
      g_autoptr(SqClip) start = load_corpus ("sl-anim", sl_clips[c * 2][1]);
      g_autoptr(SqClip) kfd = convert (start, "simpose-kfd", NULL);
      g_autofree char *what = g_strdup_printf ("Second Life %s → The Sims (KFD)", sl_clips[c * 2][0]);

      /* the Sims' spine has three bones where Second Life's has two */
      check (what, start, kfd, 0, 0.5, 2.5);
    }
  /* the other worlds, both ways: ActiveWorlds' walk, a CMU capture */
  {
    g_autoptr(SqClip) aw = load_corpus ("seq-binary", "walk.seq");
    g_autoptr(SqClip) cmu = load_corpus ("bvh", "131_01.bvh");
    g_autoptr(SqClip) aw_sims = convert (aw, "simpose-psl", NULL);
    g_autoptr(SqClip) cmu_sims = convert (cmu, "simpose-kfd", NULL);
    g_autoptr(SqClip) sims_aw = convert (sims_walk, "seq-binary", NULL);
    g_autoptr(SqClip) sims_x = convert (sims_walk, "dx", NULL);
    g_autoptr(SqClip) sims_bvh = convert (sims_walk, "bvh", NULL);

    check ("ActiveWorlds walk.seq → The Sims (PSL)", aw, aw_sims, 0, 0.5, 2.5);
    check ("CMU 131_01 → The Sims (KFD, every fourth frame)", cmu, cmu_sims, 0, 0.5, 7.0);
    check ("The Sims walk.cmx → binary SEQ", sims_walk, sims_aw, 0, 0.1, 0.5);
    check ("The Sims walk.cmx → .x", sims_walk, sims_x, 0, 0.1, 0.5);
    check ("The Sims walk.cmx → BVH", sims_walk, sims_bvh, 0, 0.1, 0.5);
  }
}

/* A new clip of each Sims age, standing at rest, converted to .anim: its
 * pelvis stays where Second Life's stands (its own skeleton's rest, a
 * child's too) and every limb points where it does on the Sims' rest */
static void
test_sims_ages (void)
{
  static const char * const ages[] = { "sims", "sims-child" };

  for (gsize a = 0; a < G_N_ELEMENTS (ages); a++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SqClip) sims = sq_clip_new_for_world (ages[a], 1.0, 30, &error);
      g_autoptr(SqClip) sl = NULL;
      g_autofree char *what = g_strdup_printf ("a new %s clip → .anim", ages[a]);
      gssize pelvis;
      double worst = 0;

      g_assert_no_error (error);
      sl = convert (sims, "sl-anim", NULL);
      pelvis = sq_clip_find_joint (sl, "mPelvis");
      g_assert_cmpint (pelvis, >=, 0);
      for (gsize k = 0; k < sl->joints[pelvis].tracks[SQ_CHANNEL_TRANSLATION].n_keys; k++)
        {
          SqKey key = sq_track_key (&sl->joints[pelvis].tracks[SQ_CHANNEL_TRANSLATION], k);
          worst = MAX (worst, sqrt (key.v[0] * key.v[0] + key.v[1] * key.v[1] + key.v[2] * key.v[2]));
        }
      g_test_message ("%s: the pelvis at most %.2f mm from its rest", what, worst * 1000);
      g_assert_cmpfloat (worst, <, 0.001);
      check (what, sims, sl, 0, 0.1, 0.5);
    }
}

/* ActiveWorlds' hip height comes from its own rest skeleton (the classic
 * avatar's pelvis above its toes, on Second Life's proportions by the
 * limbs' names), and root motion into ActiveWorlds is scaled by it */
static void
test_aw_hip_height (void)
{
  const SqWorldHome *aw = sq_world_by_id ("aw");
  double pelvis[3], ball[3], height;
  g_autoptr(SqClip) cmu = load_corpus ("bvh", "131_01.bvh");
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SqClip) seq = convert (cmu, "seq-binary", losses);
  g_autofree char *named = NULL;

  g_assert_nonnull (aw);
  g_assert_nonnull (aw->hip_height);
  height = aw->hip_height ();
  g_assert_true (sq_sl_bone_rest_position ("mPelvis", pelvis));
  g_assert_true (sq_sl_bone_rest_position ("mFootLeft", ball));
  g_test_message ("ActiveWorlds hip height %.4f m", height);
  g_assert_cmpfloat_with_epsilon (height, pelvis[2] - ball[2], 1e-9);
  named = g_strdup_printf ("the ratio of the hip heights (%.3g m in ActiveWorlds binary SEQ,", height);
  g_assert_true (tu_has_line (losses, named));
}

/* Within one world nothing is retargeted: the rotations stay as they were */
static void
test_same_world (void)
{
  g_autoptr(SqClip) walk = load_corpus ("seq-binary", "walk.seq");
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GBytes) text = tu_save (walk, "seq-text", losses);
  g_autoptr(SqClip) from_text = tu_load_ok (text);

  g_assert_false (tu_has_line (losses, "retargeted"));
  check ("binary SEQ → text SEQ (its printed decimals)", walk, from_text, 0, 0.05, 0.5);
  {
    g_autoptr(SqClip) anim = load_corpus ("sl-anim", "6ed24bd8-91aa-4b12-ccc7-c97c857ab4e0.dat");
    g_autoptr(GPtrArray) l = g_ptr_array_new_with_free_func (g_free);
    g_autoptr(SqClip) bvh = convert (anim, "bvh", l);

    g_assert_false (tu_has_line (l, "retargeted"));
    check (".anim → Second Life BVH", anim, bvh, 1.0 / bvh->fps, 0.05, 0.2);
  }
}


/* ---- rigs recognised by name ---------------------------------------------- */

/* A small rig standing with its arms hanging (BVH inches, Y up, +Z
 * forward, +X its left), in a rig's own names: ROOT, then spine, neck,
 * head, left and right collar, upper arm, forearm, hand, thigh, shin,
 * foot, toe; it stands still for three frames but for a nod */
static char *
rig_bvh (const char * const n[20])
{
  GString *b = g_string_new ("HIERARCHY\n");

#define J(name, x, y, z) g_string_append_printf (b, "JOINT %s\n{\nOFFSET %g %g %g\nCHANNELS 3 Zrotation Xrotation Yrotation\n", name, (double) (x), (double) (y), (double) (z))
#define END(x, y, z) g_string_append_printf (b, "End Site\n{\nOFFSET %g %g %g\n}\n", (double) (x), (double) (y), (double) (z))
  g_string_append_printf (b, "ROOT %s\n{\nOFFSET 0 40 0\nCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n", n[0]);
  J (n[1], 0, 4, 0);
  J (n[2], 0, 16, 0);
  J (n[3], 0, 3, 0);
  END (0, 5, 0);
  g_string_append (b, "}\n}\n");
  for (int side = 0; side < 2; side++)
    {
      double x = side == 0 ? 1 : -1;
      J (n[4 + 4 * side], 2 * x, 14, 0);
      J (n[5 + 4 * side], 5 * x, 0, 0);
      J (n[6 + 4 * side], 0, -11, 0);
      J (n[7 + 4 * side], 0, -10, 0);
      END (0, -3, 0);
      g_string_append (b, "}\n}\n}\n}\n");
    }
  g_string_append (b, "}\n");
  for (int side = 0; side < 2; side++)
    {
      double x = side == 0 ? 1 : -1;
      J (n[12 + 4 * side], 4 * x, 0, 0);
      J (n[13 + 4 * side], 0, -18, 0);
      J (n[14 + 4 * side], 0, -18, 0);
      J (n[15 + 4 * side], 0, -2, 4);
      END (0, 0, 2);
      g_string_append (b, "}\n}\n}\n}\n");
    }
  g_string_append (b, "}\nMOTION\nFrames: 3\nFrame Time: 0.1\n");
  /* 6 root values, then 3 per joint; frame 2 nods the head */
  for (int f = 0; f < 3; f++)
    {
      g_string_append (b, "0 40 0 0 0 0");
      for (int j = 1; j < 20; j++)
        g_string_append (b, j == 3 && f == 2 ? " 0 20 0" : " 0 0 0");
      g_string_append (b, "\n");
    }
#undef J
#undef END
  return g_string_free (b, FALSE);
}

static void
check_rig (const char         *what,
           const char * const  names[20],
           const char         *map_file)
{
  g_autofree char *text = rig_bvh (names);
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
  g_autoptr(SqClip) rig = tu_load_ok (bytes);
  g_autoptr(SqJointMap) map = NULL;
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GBytes) out = NULL;
  g_autoptr(SqClip) anim = NULL;
  g_autoptr(GError) error = NULL;
  SqSaveOptions options = { 0 };

  if (map_file != NULL)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "maps", map_file, NULL);
      g_autoptr(GBytes) map_bytes = tu_read (path);

      map = sq_joint_map_parse (map_bytes, &error);
      g_assert_no_error (error);
      options.map = map;
    }
  out = sq_save_bytes (rig, sq_format_by_id ("sl-anim"), &options, losses, &error);
  g_assert_no_error (error);
  anim = sq_load_bytes (out, NULL, sq_format_by_id ("sl-anim"), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sq_clip_find_joint (anim, "mShoulderLeft"), >=, 0);
  g_assert_cmpint (sq_clip_find_joint (anim, "mShoulderRight"), >=, 0);
  /* a joint the importer left out stays at rest in the viewer: posed so */
  for (gsize l = 0; l < G_N_ELEMENTS (limbs); l++)
    for (int e = 1; e <= 2; e++)
      if (sq_clip_find_joint (anim, limbs[l][e]) < 0)
        sq_clip_add_joint (anim, limbs[l][e]);
  /* on Second Life's T-pose avatar the arms hang as they do in the rig */
  assert_arms_down (anim);
  /* the importer leaves out a joint that stays within its thresholds of
   * the rest: a few degrees on a foot */
  check (what, rig, anim, -0.1, 2.0, 5.0);
}

static const char * const mixamo[20] = {
  "mixamorig:Hips", "mixamorig:Spine", "mixamorig:Neck", "mixamorig:Head",
  "mixamorig:LeftShoulder", "mixamorig:LeftArm", "mixamorig:LeftForeArm", "mixamorig:LeftHand",
  "mixamorig:RightShoulder", "mixamorig:RightArm", "mixamorig:RightForeArm", "mixamorig:RightHand",
  "mixamorig:LeftUpLeg", "mixamorig:LeftLeg", "mixamorig:LeftFoot", "mixamorig:LeftToeBase",
  "mixamorig:RightUpLeg", "mixamorig:RightLeg", "mixamorig:RightFoot", "mixamorig:RightToeBase",
};
static const char * const biped[20] = {
  "Bip01_Pelvis", "Bip01_Spine", "Bip01_Neck", "Bip01_Head",
  "Bip01_L_Clavicle", "Bip01_L_UpperArm", "Bip01_L_Forearm", "Bip01_L_Hand",
  "Bip01_R_Clavicle", "Bip01_R_UpperArm", "Bip01_R_Forearm", "Bip01_R_Hand",
  "Bip01_L_Thigh", "Bip01_L_Calf", "Bip01_L_Foot", "Bip01_L_Toe0",
  "Bip01_R_Thigh", "Bip01_R_Calf", "Bip01_R_Foot", "Bip01_R_Toe0",
};
static const char * const unreal[20] = {
  "pelvis", "spine_01", "neck_01", "head",
  "clavicle_l", "upperarm_l", "lowerarm_l", "hand_l",
  "clavicle_r", "upperarm_r", "lowerarm_r", "hand_r",
  "thigh_l", "calf_l", "foot_l", "ball_l",
  "thigh_r", "calf_r", "foot_r", "ball_r",
};
/* a rig no table knows, with its map */
static const char * const own[20] = {
  "Root", "Back", "Nape", "Skull",
  "ClavL", "ArmL", "ForeL", "PalmL",
  "ClavR", "ArmR", "ForeR", "PalmR",
  "LegL", "ShinL", "FootL", "ToeL",
  "LegR", "ShinR", "FootR", "ToeR",
};

static void
test_rigs (void)
{
  check_rig ("Mixamo rig, arms down → .anim", mixamo, NULL);
  check_rig ("3ds Max Biped rig, arms down → .anim", biped, NULL);
  check_rig ("Unreal-style rig, arms down → .anim", unreal, NULL);
  check_rig ("Mixamo rig with data/maps/mixamo-to-sl.map → .anim", mixamo, "mixamo-to-sl.map");
}

/* A rig of the user's own, named through a map (written here as a user
 * would, from data/maps' example) */
static void
test_own_rig_map (void)
{
  static const char * const sl[20] = {
    "mPelvis", "mTorso", "mNeck", "mHead",
    "mCollarLeft", "mShoulderLeft", "mElbowLeft", "mWristLeft",
    "mCollarRight", "mShoulderRight", "mElbowRight", "mWristRight",
    "mHipLeft", "mKneeLeft", "mAnkleLeft", "mFootLeft",
    "mHipRight", "mKneeRight", "mAnkleRight", "mFootRight",
  };
  g_autofree char *text = rig_bvh (own);
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
  g_autoptr(SqClip) rig = tu_load_ok (bytes);
  g_autoptr(SqJointMap) map = sq_joint_map_new ();
  g_autoptr(GBytes) out = NULL;
  g_autoptr(SqClip) anim = NULL;
  g_autoptr(GError) error = NULL;
  SqSaveOptions options = { 0 };

  for (gsize i = 0; i < 20; i++)
    sq_joint_map_add (map, own[i], sl[i]);
  options.map = map;
  out = sq_save_bytes (rig, sq_format_by_id ("sl-anim"), &options, NULL, &error);
  g_assert_no_error (error);
  anim = sq_load_bytes (out, NULL, sq_format_by_id ("sl-anim"), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sq_clip_find_joint (anim, "mShoulderLeft"), >=, 0);
  for (gsize l = 0; l < G_N_ELEMENTS (limbs); l++)
    for (int e = 1; e <= 2; e++)
      if (sq_clip_find_joint (anim, limbs[l][e]) < 0)
        sq_clip_add_joint (anim, limbs[l][e]);
  assert_arms_down (anim);
}

/* The shipped maps say what the table does: each of their joints stands
 * for the Second Life bone the map names */
static void
test_map_files (void)
{
  static const char * const files[] = { "cmu-to-sl.map", "mixamo-to-sl.map", "biped-to-sl.map", "unreal-to-sl.map" };

  for (gsize f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "maps", files[f], NULL);
      g_autoptr(GBytes) bytes = tu_read (path);
      g_autoptr(GError) error = NULL;
      g_autoptr(SqJointMap) map = sq_joint_map_parse (bytes, &error);
      SqJointLookupFlags flags = f == 0 ? SQ_JOINT_LOOKUP_CMU : 0;

      g_assert_no_error (error);
      g_assert_cmpuint (sq_joint_map_size (map), ==, 21);
      for (gsize i = 0; i < sq_joint_map_size (map); i++)
        {
          const char *source = sq_joint_map_source_at (map, i), *target = NULL;
          SqJointConcept c;

          g_assert_true (sq_joint_map_lookup (map, source, &target));
          g_assert_true (sq_joint_concept_lookup (source, flags, &c));
          g_assert_cmpstr (c.sl_bone, ==, target);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/retarget/aw-walk", test_aw_walk);
  g_test_add_func ("/retarget/sl-walk", test_sl_walk);
  g_test_add_func ("/retarget/cmu-walk", test_cmu_walk);
  g_test_add_func ("/retarget/round-trip", test_round_trip);
  g_test_add_func ("/retarget/sl-to-seq-joints", test_sl_to_seq_joints);
  g_test_add_func ("/retarget/sims", test_sims);
  g_test_add_func ("/retarget/sims-ages", test_sims_ages);
  g_test_add_func ("/retarget/aw-hip-height", test_aw_hip_height);
  g_test_add_func ("/retarget/same-world", test_same_world);
  g_test_add_func ("/retarget/rigs", test_rigs);
  g_test_add_func ("/retarget/own-rig-map", test_own_rig_map);
  g_test_add_func ("/retarget/map-files", test_map_files);
  return g_test_run ();
}
