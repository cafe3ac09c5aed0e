/* test-pose.c: skeletons posed at a time (the editor's preview)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sq-core.h"
#include "test-utils.h"

#define IN 0.02540005             /* BVH inches, as the Second Life importer reads them */

static void
assert_point (const double *p,
              double        x,
              double        y,
              double        z)
{
  g_assert_cmpfloat_with_epsilon (p[0], x, 1e-6);
  g_assert_cmpfloat_with_epsilon (p[1], y, 1e-6);
  g_assert_cmpfloat_with_epsilon (p[2], z, 1e-6);
}

/* BVH: its own hierarchy and OFFSETs, inches, Y up → metres, Z up */
static void
test_bvh_chain (void)
{
  static const char bvh[] =
    "HIERARCHY\n"
    "ROOT hip\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    "  JOINT abdomen\n  {\n    OFFSET 0 10 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "    JOINT chest\n    {\n      OFFSET 0 0 5\n      CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "      End Site\n      {\n        OFFSET 0 1 0\n      }\n    }\n  }\n}\n"
    "MOTION\nFrames: 2\nFrame Time: 0.5\n"
    "0 40 0 0 0 0 0 0 0 0 0 0\n"
    "0 40 0 90 0 0 0 0 0 0 0 0\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = tu_load_text (bvh, "bvh", &error);
  g_autoptr(SqPose) pose = NULL;
  double p[9];

  g_assert_no_error (error);
  pose = sq_pose_new (clip);
  g_assert_cmpuint (sq_pose_get_n_joints (pose), ==, 3);
  g_assert_cmpint (sq_pose_get_parents (pose)[0], ==, -1);
  g_assert_cmpint (sq_pose_get_parents (pose)[1], ==, 0);
  g_assert_cmpint (sq_pose_get_parents (pose)[2], ==, 1);

  /* frame 0: standing; BVH (x, y, z) is SL (z, x, y) */
  sq_pose_evaluate (pose, clip, 0.0, p);
  assert_point (&p[0], 0, 0, 40 * IN);
  assert_point (&p[3], 0, 0, 50 * IN);
  assert_point (&p[6], 5 * IN, 0, 50 * IN);

  /* frame 1: the hip turned 90° about BVH Z (SL X, forward): up becomes
   * BVH -X (SL -Y, right) */
  sq_pose_evaluate (pose, clip, 0.5, p);
  assert_point (&p[0], 0, 0, 40 * IN);
  assert_point (&p[3], 0, -10 * IN, 40 * IN);
  assert_point (&p[6], 5 * IN, -10 * IN, 40 * IN);

  /* halfway: slerp, the abdomen on the arc */
  sq_pose_evaluate (pose, clip, 0.25, p);
  assert_point (&p[3], 0, -10 * IN * sin (G_PI / 4), (40 + 10 * cos (G_PI / 4)) * IN);
}

/* Binary SEQ has no hierarchy: its names place it on the Second Life rest
 * skeleton, and the root's locations move it from its rest place */
static void
test_seq_names (void)
{
  g_autofree char *path = g_build_filename (tu_corpus_dir (), "seq-binary", "walk.seq", NULL);
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autoptr(SqPose) pose = sq_pose_new (clip);
  const gssize *parents = sq_pose_get_parents (pose);
  gssize pelvis = sq_clip_find_joint (clip, "pelvis");
  gssize head = sq_clip_find_joint (clip, "head");
  gssize neck = sq_clip_find_joint (clip, "neck");
  gssize lfknee = sq_clip_find_joint (clip, "lfknee");
  gssize lfhip = sq_clip_find_joint (clip, "lfhip");
  g_autofree double *p = g_new (double, 3 * clip->n_joints);
  guint roots = 0;

  g_assert_cmpint (pelvis, >=, 0);
  g_assert_cmpint (parents[pelvis], ==, -1);
  g_assert_cmpint (parents[head], ==, neck);
  g_assert_cmpint (parents[lfknee], ==, lfhip);
  for (gsize j = 0; j < clip->n_joints; j++)
    roots += parents[j] < 0;
  g_assert_cmpuint (roots, ==, 1);

  for (double t = 0; t <= clip->duration; t += clip->duration / 7)
    {
      sq_pose_evaluate (pose, clip, t, p);
      for (gsize k = 0; k < 3 * clip->n_joints; k++)
        g_assert_true (isfinite (p[k]));
      /* a walking figure keeps its head above its pelvis above its knees */
      g_assert_cmpfloat (p[head * 3 + 2], >, p[pelvis * 3 + 2] + 0.3);
      g_assert_cmpfloat (p[lfknee * 3 + 2], <, p[pelvis * 3 + 2] - 0.2);
    }
}

/* ActiveWorlds' rest pose has the arms down: walk.seq at a key where the
 * arms barely turn keeps each wrist below its shoulder, not out to the
 * side; with no rotation at all they hang straight down */
static void
test_aw_arms_down (void)
{
  g_autofree char *path = g_build_filename (tu_corpus_dir (), "seq-binary", "walk.seq", NULL);
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autoptr(SqPose) pose = NULL;
  static const char * const sides[][2] = { { "lfshoulder", "lfwrist" }, { "rtshoulder", "rtwrist" } };
  g_autofree double *p = g_new (double, 3 * clip->n_joints);

  /* every rotation the identity: the rest pose itself */
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      SqTrack *track = &clip->joints[j].tracks[SQ_CHANNEL_ROTATION];

      sq_track_clear (track);
      sq_track_append (track, 0.0)->v[0] = 1;
    }
  pose = sq_pose_new (clip);
  sq_pose_evaluate (pose, clip, 0.0, p);
  for (guint s = 0; s < 2; s++)
    {
      gssize shoulder = sq_clip_find_joint (clip, sides[s][0]);
      gssize wrist = sq_clip_find_joint (clip, sides[s][1]);
      double drop, out;

      g_assert_cmpint (shoulder, >=, 0);
      g_assert_cmpint (wrist, >=, 0);
      drop = p[shoulder * 3 + 2] - p[wrist * 3 + 2];
      out = fabs (p[wrist * 3 + 1] - p[shoulder * 3 + 1]);
      /* the SL arm (shoulder to wrist) is about 0.5 m long */
      g_assert_cmpfloat (drop, >, 0.4);
      g_assert_cmpfloat (drop, <, 0.7);
      g_assert_cmpfloat (out, <, 0.05);
      /* on its own side of the body: left is +Y */
      g_assert_cmpfloat (p[wrist * 3 + 1] * (s == 0 ? 1 : -1), >, 0.1);
    }
}

/* A hierarchy whose parents lead in a circle, and parents out of range:
 * every joint is still placed, once */
static void
test_bad_parents (void)
{
  g_autoptr(SqClip) clip = sq_clip_new ();
  g_autoptr(SqPose) pose = NULL;
  const gint32 parents[] = { 2, 0, 1, 7, -5 };
  double p[15];

  clip->format = sq_format_by_id ("bvh");
  for (guint j = 0; j < G_N_ELEMENTS (parents); j++)
    {
      g_autofree char *name = g_strdup_printf ("j%u", j);
      SqJoint *joint = sq_clip_add_joint (clip, name);
      SqKey *key = sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], 0.0);

      key->v[0] = 1;
      sq_props_set (joint->extra, "parent", g_variant_new_int32 (parents[j]));
      sq_props_set (joint->extra, "offset", g_variant_new ("(ddd)", 0.0, 1.0, 0.0));
    }
  pose = sq_pose_new (clip);
  sq_pose_evaluate (pose, clip, 0, p);
  for (guint k = 0; k < 15; k++)
    g_assert_true (isfinite (p[k]));
  g_assert_cmpint (sq_pose_get_parents (pose)[3], ==, -1);
  g_assert_cmpint (sq_pose_get_parents (pose)[4], ==, -1);
  /* the circle is cut at one joint, which becomes a root */
  g_assert_true (sq_pose_get_parents (pose)[0] < 0 || sq_pose_get_parents (pose)[1] < 0
                 || sq_pose_get_parents (pose)[2] < 0);
}

/* A DirectX file's frames are its skeleton: Testwuson.X's 39 joints stand
 * in their Frame tree (not in a fan from the root), and each bone is as
 * long as the joint's position key, which replaces its frame's translation */
static void
test_dx_frames (void)
{
  g_autofree char *path = g_build_filename (tu_corpus_dir (), "dx-anim", "Testwuson.X", NULL);
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autoptr(SqPose) pose = sq_pose_new (clip);
  const gssize *parents = sq_pose_get_parents (pose);
  gssize root = sq_clip_find_joint (clip, "Root");
  guint under_root = 0;
  double *p;

  g_assert_cmpuint (clip->n_joints, ==, 39);
  g_assert_cmpint (root, >=, 0);
  g_assert_cmpint (parents[root], ==, -1);
  for (gsize j = 0; j < clip->n_joints; j++)
    if (parents[j] == root)
      under_root++;
  /* Spine_Back01, Spine_Front01, and Wuson (a frame beside Root) */
  g_assert_cmpuint (under_root, ==, 3);
  g_assert_cmpint (parents[sq_clip_find_joint (clip, "Tail02")], ==, sq_clip_find_joint (clip, "Tail01"));
  g_assert_cmpint (parents[sq_clip_find_joint (clip, "Pelvis")], ==, sq_clip_find_joint (clip, "Spine_Back03"));
  g_assert_cmpint (parents[sq_clip_find_joint (clip, "ForeLeg_L_01")], ==, sq_clip_find_joint (clip, "Spine_Front03"));

  p = g_new (double, 3 * clip->n_joints);
  sq_pose_evaluate (pose, clip, 0.0, p);
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqTrack *t = &clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION];
      SqKey k;
      double d = 0, len = 0;

      if (parents[j] < 0 || (gssize) j == sq_clip_find_joint (clip, "Wuson"))
        continue;
      g_assert_cmpuint (t->n_keys, >, 0);
      k = sq_track_key (t, 0);
      g_assert_cmpfloat (k.time, ==, 0.0);
      for (int i = 0; i < 3; i++)
        {
          double e = p[j * 3 + i] - p[parents[j] * 3 + i];
          d += e * e;
          len += k.v[i] * k.v[i];
        }
      g_assert_cmpfloat (len, >, 1e-6);
      g_assert_cmpfloat (fabs (sqrt (d) - sqrt (len)), <, 1e-9);
    }
  g_free (p);
}

/* Every corpus file poses to finite points at its start, middle and end */
static void
test_corpus (void)
{
  static const char * const dirs[] = { "seq-binary", "bvh", "dx-anim", "sl-anim" };
  guint files = 0;

  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autoptr(GPtrArray) paths = tu_corpus_files (dirs[d]);

      for (guint i = 0; i < paths->len; i++)
        {
          g_autoptr(GBytes) bytes = tu_read (paths->pdata[i]);
          g_autoptr(SqClip) clip = tu_load_ok (bytes);
          g_autoptr(SqPose) pose = sq_pose_new (clip);
          g_autofree double *p = g_new (double, 3 * MAX (clip->n_joints, 1));

          for (int s = 0; s <= 2; s++)
            {
              sq_pose_evaluate (pose, clip, clip->duration * s / 2, p);
              for (gsize k = 0; k < 3 * clip->n_joints; k++)
                g_assert_true (isfinite (p[k]));
            }
          files++;
        }
    }
  g_assert_cmpuint (files, >=, 200);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pose/bvh-chain", test_bvh_chain);
  g_test_add_func ("/pose/seq-names", test_seq_names);
  g_test_add_func ("/pose/aw-arms-down", test_aw_arms_down);
  g_test_add_func ("/pose/bad-parents", test_bad_parents);
  g_test_add_func ("/pose/dx-frames", test_dx_frames);
  g_test_add_func ("/pose/corpus", test_corpus);
  return g_test_run ();
}
