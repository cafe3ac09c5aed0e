/* test-bvh.c: Biovision Hierarchy (BVH)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "sq-parallel.h"
#include "test-utils.h"

/* Rotation about one axis as a 3x3 matrix, angle in degrees */
/* The angles a rotation track read from BVH keeps, in SqTrack.alt once
 * the track is unpacked (a track read stays packed: its records are those
 * angles) */
static const double *
kept (const SqTrack *rot)
{
  sq_track_unpack ((SqTrack *) rot);
  return rot->alt;
}

static void
axis_matrix (int    axis,
             double deg,
             double m[3][3])
{
  double r = deg * G_PI / 180.0, c = cos (r), s = sin (r);
  int a = (axis + 1) % 3, b = (axis + 2) % 3;

  memset (m, 0, sizeof (double) * 9);
  m[axis][axis] = 1;
  m[a][a] = c;
  m[a][b] = -s;
  m[b][a] = s;
  m[b][b] = c;
}

static void
mat_mul (double a[3][3],
         double b[3][3],
         double out[3][3])
{
  double t[3][3];

  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      t[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
  memcpy (out, t, sizeof t);
}

static void
quat_matrix (const double q[4],
             double       R[3][3])
{
  double w = q[0], x = q[1], y = q[2], z = q[3];

  R[0][0] = 1 - 2 * (y * y + z * z);
  R[0][1] = 2 * (x * y - w * z);
  R[0][2] = 2 * (x * z + w * y);
  R[1][0] = 2 * (x * y + w * z);
  R[1][1] = 1 - 2 * (x * x + z * z);
  R[1][2] = 2 * (y * z - w * x);
  R[2][0] = 2 * (x * z - w * y);
  R[2][1] = 2 * (y * z + w * x);
  R[2][2] = 1 - 2 * (x * x + y * y);
}

/* The same rotation (q and -q are one) */
static void
assert_same_rotation (const double a[4],
                      const double b[4],
                      double       eps)
{
  double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];

  g_assert_cmpfloat (1.0 - fabs (dot), <, eps);
}

static const int orders[6][3] = {
  { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 },
};

static void
test_euler_orders (void)
{
  GRand *rand = g_rand_new_with_seed (4);

  for (guint o = 0; o < 6; o++)
    for (guint round = 0; round < 2000; round++)
      {
        double ang[3], q[4], back[3], q2[4], M[3][3], A[3][3], R[3][3];

        /* the canonical ranges, where the decomposition is unique */
        ang[0] = g_rand_double_range (rand, -179.999, 179.999);
        ang[1] = g_rand_double_range (rand, -89.999, 89.999);
        ang[2] = g_rand_double_range (rand, -179.999, 179.999);
        sq_euler_to_quat (ang, orders[o], 3, q);

        /* the convention: R = R_first · R_second · R_third */
        axis_matrix (orders[o][0], ang[0], M);
        axis_matrix (orders[o][1], ang[1], A);
        mat_mul (M, A, M);
        axis_matrix (orders[o][2], ang[2], A);
        mat_mul (M, A, M);
        quat_matrix (q, R);
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++)
            g_assert_cmpfloat_with_epsilon (R[i][j], M[i][j], 1e-12);

        g_assert_true (sq_quat_to_euler (q, orders[o], 3, back));
        for (int c = 0; c < 3; c++)
          g_assert_cmpfloat_with_epsilon (back[c], ang[c], 1e-9);

        /* any angles, also beyond the ranges and at gimbal lock: the same rotation */
        ang[0] = g_rand_double_range (rand, -720, 720);
        ang[1] = round % 10 == 0 ? (round % 20 == 0 ? 90.0 : -90.0) : g_rand_double_range (rand, -720, 720);
        ang[2] = g_rand_double_range (rand, -720, 720);
        sq_euler_to_quat (ang, orders[o], 3, q);
        sq_quat_to_euler (q, orders[o], 3, back);
        sq_euler_to_quat (back, orders[o], 3, q2);
        assert_same_rotation (q, q2, 1e-12);
      }
  g_rand_free (rand);
}

static const char small_bvh[] =
  "HIERARCHY\n"
  "ROOT hip\n"
  "{\n"
  "\tOFFSET 0.000000 0.000000 0.000000\n"
  "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
  "\tJOINT abdomen\n"
  "\t{\n"
  "\t\tOFFSET 0.000000 3.500000 -0.500000\n"
  "\t\tCHANNELS 3 Xrotation Zrotation Yrotation\n"
  "\t\tEnd Site\n"
  "\t\t{\n"
  "\t\t\tOFFSET 0.000000 2.000000 0.000000\n"
  "\t\t}\n"
  "\t}\n"
  "\tJOINT lThigh\n"
  "\t{\n"
  "\t\tOFFSET 4.000000 -1.000000 0.000000\n"
  "\t\tCHANNELS 2 Yposition Yrotation\n"
  "\t}\n"
  "}\n"
  "MOTION\n"
  "Frames: 2\n"
  "Frame Time: 0.041667\n"
  "1.000000 43.500000 -2.000000 10.000000 20.000000 30.000000 90.000000 0.000000 -45.000000 0.500000 12.000000 \n"
  "0.000000 43.000000 0.000000 0.000000 0.000000 0.000000 0.000000 0.000000 0.000000 -0.000000 0.000000 \n";

static void
test_known_answer (void)
{
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GBytes) bytes = g_bytes_new_static (small_bvh, strlen (small_bvh));
  const SqTrack *rot, *pos;
  GVariant *v;
  double M[3][3], A[3][3], R[3][3];
  double h;

  clip = tu_load_ok (bytes);
  g_assert_cmpstr (clip->format->id, ==, "bvh");
  g_assert_cmpuint (clip->n_joints, ==, 3);
  g_assert_cmpuint (clip->warnings->len, ==, 0);
  g_assert_cmpstr (clip->joints[0].name, ==, "hip");
  g_assert_cmpstr (clip->joints[1].name, ==, "abdomen");
  g_assert_cmpstr (clip->joints[2].name, ==, "lThigh");
  g_assert_cmpstr (clip->root, ==, "hip");
  g_assert_cmpfloat (clip->fps, ==, 1.0 / 0.041667);
  g_assert_cmpfloat (clip->duration, ==, 0.041667);

  /* extras */
  v = sq_props_get (clip->joints[0].extra, "parent");
  g_assert_cmpint (g_variant_get_int32 (v), ==, -1);
  v = sq_props_get (clip->joints[2].extra, "parent");
  g_assert_cmpint (g_variant_get_int32 (v), ==, 0);
  v = sq_props_get (clip->joints[1].extra, "channels");
  {
    g_autofree const char **names = g_variant_get_strv (v, NULL);
    g_assert_cmpstr (names[0], ==, "Xrotation");
    g_assert_cmpstr (names[1], ==, "Zrotation");
    g_assert_cmpstr (names[2], ==, "Yrotation");
  }
  {
    double x, y, z;
    g_variant_get (sq_props_get (clip->joints[1].extra, "offset"), "(ddd)", &x, &y, &z);
    g_assert_cmpfloat (y, ==, 3.5);
    g_assert_cmpfloat (z, ==, -0.5);
    g_variant_get (sq_props_get (clip->joints[1].extra, "end-site"), "(ddd)", &x, &y, &z);
    g_assert_cmpfloat (y, ==, 2.0);
    g_assert_null (sq_props_get (clip->joints[0].extra, "end-site"));
  }

  /* hip frame 0: position 1 43.5 -2, rotation Rz(10) Rx(20) Ry(30) */
  pos = &clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION];
  rot = &clip->joints[0].tracks[SQ_CHANNEL_ROTATION];
  g_assert_cmpuint (pos->n_keys, ==, 2);
  g_assert_cmpuint (rot->n_keys, ==, 2);
  g_assert_cmpfloat (sq_track_key (pos, 0).v[0], ==, 1.0);
  g_assert_cmpfloat (sq_track_key (pos, 0).v[1], ==, 43.5);
  g_assert_cmpfloat (sq_track_key (pos, 0).v[2], ==, -2.0);
  g_assert_cmpfloat (sq_track_time (rot, 1), ==, 0.041667);
  axis_matrix (2, 10, M);
  axis_matrix (0, 20, A);
  mat_mul (M, A, M);
  axis_matrix (1, 30, A);
  mat_mul (M, A, M);
  quat_matrix (sq_track_key (rot, 0).v, R);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      g_assert_cmpfloat_with_epsilon (R[i][j], M[i][j], 1e-14);
  /* by hand: qz(10) ⊗ qx(20) ⊗ qy(30) */
  {
    double cz = cos (G_PI / 36), sz = sin (G_PI / 36);
    double cx = cos (G_PI / 18), sx = sin (G_PI / 18);
    double cy = cos (G_PI / 12), sy = sin (G_PI / 12);
    double w = cz * cx * cy - sz * sx * sy;
    double x = cz * sx * cy - sz * cx * sy;
    double y = cz * cx * sy + sz * sx * cy;
    double z = sz * cx * cy + cz * sx * sy;
    g_assert_cmpfloat_with_epsilon (sq_track_key (rot, 0).v[0], w, 1e-15);
    g_assert_cmpfloat_with_epsilon (sq_track_key (rot, 0).v[1], x, 1e-15);
    g_assert_cmpfloat_with_epsilon (sq_track_key (rot, 0).v[2], y, 1e-15);
    g_assert_cmpfloat_with_epsilon (sq_track_key (rot, 0).v[3], z, 1e-15);
  }
  g_assert_true (sq_track_is_packed (rot));
  g_assert_nonnull (kept (rot));
  g_assert_cmpfloat (kept (rot)[0], ==, 10.0);
  g_assert_cmpfloat (kept (rot)[1], ==, 20.0);
  g_assert_cmpfloat (kept (rot)[2], ==, 30.0);
  g_assert_cmpfloat (kept (rot)[3], ==, 0.0);

  /* abdomen: Rx(90) Rz(0) Ry(-45) */
  rot = &clip->joints[1].tracks[SQ_CHANNEL_ROTATION];
  h = sqrt (0.5);
  {
    double c = cos (-G_PI / 8), s = sin (-G_PI / 8);
    g_assert_cmpfloat_with_epsilon (sq_track_key (rot, 0).v[0], h * c, 1e-15);
    g_assert_cmpfloat_with_epsilon (sq_track_key (rot, 0).v[1], h * c, 1e-15);
    g_assert_cmpfloat_with_epsilon (sq_track_key (rot, 0).v[2], h * s, 1e-15);
    g_assert_cmpfloat_with_epsilon (sq_track_key (rot, 0).v[3], h * s, 1e-15);
  }
  g_assert_null (clip->joints[1].tracks[SQ_CHANNEL_TRANSLATION].keys);

  /* lThigh: a Y position only */
  pos = &clip->joints[2].tracks[SQ_CHANNEL_TRANSLATION];
  g_assert_cmpuint (pos->n_keys, ==, 2);
  g_assert_cmpfloat (sq_track_key (pos, 0).v[1], ==, 0.5);
  g_assert_nonnull (pos->present);
  g_assert_cmpuint (pos->present[0], ==, SQ_PRESENT_Y);

  /* the writer gives the file back by itself */
  {
    g_autoptr(GBytes) out = tu_save (clip, "bvh", NULL);
    gsize len;
    const char *data = g_bytes_get_data (out, &len);
    g_assert_cmpmem (data, len, small_bvh, strlen (small_bvh));
  }
}

static void
test_line_ends_and_loose_numbers (void)
{
  /* CR only, tabs after the colons, a leading-dot frame time, a name with
   * spaces, the brace on the ROOT line, End Site with a name, mixed case */
  const char *text =
    "hierarchy\rROOT my hips {\r  offset 0 0 0\r  CHANNELS 3 Yrotation Xrotation Zrotation\r"
    "  End Site tip\r  {\r    OFFSET 0 1 .5\r  }\r}\rMotion\rFrames:\t3\rFrame Time:\t.0083333\r"
    "1 2 3\r-.5 +4 5e1\r7 8 9";
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = tu_load_text (text, NULL, &error);
  g_autoptr(GBytes) out = NULL;
  const SqTrack *rot;

  g_assert_no_error (error);
  g_assert_true (sq_clip_check (clip, NULL));
  g_assert_cmpstr (clip->joints[0].name, ==, "my hips");
  g_assert_cmpfloat (clip->fps, ==, 1.0 / 0.0083333);
  rot = &clip->joints[0].tracks[SQ_CHANNEL_ROTATION];
  g_assert_cmpuint (rot->n_keys, ==, 3);
  g_assert_cmpfloat (kept (rot)[4], ==, -0.5);
  g_assert_cmpfloat (kept (rot)[6], ==, 50.0);
  g_assert_cmpfloat (sq_track_time (rot, 2), ==, 2 * 0.0083333);

  /* written back with CR line ends and its own frame time text */
  out = tu_save (clip, "bvh", NULL);
  {
    gsize len;
    const char *data = g_bytes_get_data (out, &len);
    g_autofree char *s = g_strndup (data, len);
    g_assert_null (strchr (s, '\n'));
    g_assert_nonnull (strstr (s, "Frame Time:\t.0083333\r"));
  }
}

static void
assert_error (const char *text,
              gsize       len,
              SqErrorCode code,
              const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_bytes_new (text, len);
  g_autoptr(SqClip) clip = sq_load_bytes (bytes, NULL, sq_format_by_id ("bvh"), NULL, &error);

  g_assert_null (clip);
  g_assert_error (error, SQ_ERROR, (gint) code);
  g_assert_nonnull (strstr (error->message, "line "));
  if (fragment != NULL && strstr (error->message, fragment) == NULL)
    g_error ("“%s” not in “%s”", fragment, error->message);
}

static void
test_malformed (void)
{
  const char *head = "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n"
                     "End Site\n{\nOFFSET 0 1 0\n}\n}\n";
  g_autofree char *huge = g_strconcat (head, "MOTION\nFrames: 2147483647\nFrame Time: 0.1\n0 0 0\n", NULL);
  g_autofree char *two_roots = g_strconcat (head, "ROOT b\n{\nOFFSET 0 0 0\nCHANNELS 0\n}\nMOTION\nFrames: 0\nFrame Time: 0.1\n", NULL);
  g_autofree char *no_motion = g_strdup (head);
  g_autofree char *short_frames = g_strconcat (head, "MOTION\nFrames: 3\nFrame Time: 0.1\n0 0 0\n1 1 1\n", NULL);
  g_autofree char *bad_number = g_strconcat (head, "MOTION\nFrames: 1\nFrame Time: 0.1\n0 x 0\n", NULL);
  g_autofree char *zero_time = g_strconcat (head, "MOTION\nFrames: 1\nFrame Time: 0\n0 0 0\n", NULL);
  g_autofree char *bad_channel = g_strdup ("HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 2 Xrotation Wrotation\n}\n");
  g_autofree char *twice = g_strdup ("HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 2 Xrotation Xrotation\n}\n");
  GString *deep = g_string_new ("HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 0\n");

  assert_error (huge, strlen (huge), SQ_ERROR_LIMIT_EXCEEDED, "line 12, column 9");
  assert_error (two_roots, strlen (two_roots), SQ_ERROR_UNSUPPORTED, "line 11, column 1");
  assert_error (no_motion, strlen (no_motion), SQ_ERROR_TRUNCATED, "MOTION");
  assert_error (short_frames, strlen (short_frames), SQ_ERROR_TRUNCATED, "frame 3 of 3");
  assert_error (bad_number, strlen (bad_number), SQ_ERROR_SYNTAX, "line 14, column 3");
  assert_error (zero_time, strlen (zero_time), SQ_ERROR_BAD_VALUE, NULL);
  assert_error (bad_channel, strlen (bad_channel), SQ_ERROR_SYNTAX, "Wrotation");
  assert_error (twice, strlen (twice), SQ_ERROR_BAD_VALUE, "twice");

  for (guint i = 0; i < 10000; i++)
    g_string_append (deep, "JOINT j\n{\nOFFSET 0 0 0\nCHANNELS 0\n");
  assert_error (deep->str, deep->len, SQ_ERROR_LIMIT_EXCEEDED, "levels");
  g_string_free (deep, TRUE);

  /* every truncation of a small file: a clean error or a valid clip */
  for (gsize n = 0; n < strlen (small_bvh); n++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) bytes = g_bytes_new (small_bvh, n);
      g_autoptr(SqClip) clip = sq_load_bytes (bytes, NULL, sq_format_by_id ("bvh"), NULL, &error);

      if (clip == NULL)
        {
          g_assert_nonnull (error);
          g_assert_true (strstr (error->message, "line ") != NULL || strstr (error->message, "offset") != NULL);
        }
      else
        g_assert_true (sq_clip_check (clip, NULL));
    }
}

/* Two clips say the same within the printing precision. */
static void
assert_clips_close (const SqClip *a,
                    const SqClip *b)
{
  g_assert_cmpuint (a->n_joints, ==, b->n_joints);
  g_assert_cmpfloat_with_epsilon (a->fps, b->fps, 1e-9 * a->fps);
  g_assert_cmpfloat_with_epsilon (a->duration, b->duration, 1e-9);
  for (gsize j = 0; j < a->n_joints; j++)
    {
      g_assert_cmpstr (a->joints[j].name, ==, b->joints[j].name);
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        {
          const SqTrack *ta = &a->joints[j].tracks[c], *tb = &b->joints[j].tracks[c];

          g_assert_cmpuint (ta->n_keys, ==, tb->n_keys);
          for (gsize k = 0; k < ta->n_keys; k++)
            {
              g_assert_cmpfloat_with_epsilon (sq_track_time (ta, k), sq_track_time (tb, k), 1e-9);
              if (c == SQ_CHANNEL_ROTATION)
                assert_same_rotation (sq_track_key (ta, k).v, sq_track_key (tb, k).v, 1e-12);
              else
                for (int i = 0; i < 3; i++)
                  g_assert_cmpfloat_with_epsilon (sq_track_key (ta, k).v[i], sq_track_key (tb, k).v[i],
                                                  1e-6 * MAX (1.0, fabs (sq_track_key (ta, k).v[i])));
            }
        }
    }
}

static void
test_corpus (void)
{
  g_autoptr(GPtrArray) files = tu_corpus_files ("bvh");
  guint n_read = 0, n_exact = 0;
  GString *not_exact = g_string_new (NULL);

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = files->pdata[i];
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(SqClip) clip = NULL;
      g_autoptr(GBytes) out = NULL;
      g_autoptr(GBytes) again = NULL;
      g_autoptr(SqClip) back = NULL;
      g_autoptr(GBytes) twice = NULL;
      g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);

      if (!g_str_has_suffix (path, ".bvh"))
        continue;
      bytes = tu_read (path);
      clip = tu_load_ok (bytes);
      g_assert_cmpstr (clip->format->id, ==, "bvh");
      g_assert_cmpuint (clip->n_joints, >, 0);
      n_read++;

      /* the registry gives an unedited file back as it was */
      again = sq_save_bytes (clip, clip->format, NULL, NULL, NULL);
      g_assert_true (g_bytes_equal (bytes, again));

      /* the writer on its own */
      out = tu_save (clip, "bvh", losses);
      g_assert_cmpuint (losses->len, ==, 0);
      if (g_bytes_equal (bytes, out))
        n_exact++;
      else
        {
          g_autofree char *base = g_path_get_basename (path);
          g_string_append_printf (not_exact, " %s", base);
        }
      back = tu_load_ok (out);
      assert_clips_close (clip, back);
      twice = tu_save (back, "bvh", NULL);
      g_assert_true (g_bytes_equal (out, twice));
    }
  g_test_message ("%u BVH files read, %u written back byte for byte by the writer; not exact:%s",
                  n_read, n_exact, not_exact->str);
  /* the ones with a regular motion section (one separator, fixed decimals) */
  g_assert_cmpuint (n_exact, >=, 30);
  g_string_free (not_exact, TRUE);
}

static void
test_edit_uses_quaternion (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (small_bvh, strlen (small_bvh));
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autoptr(GBytes) out = NULL;
  g_autoptr(SqClip) back = NULL;
  SqTrack *rot = &clip->joints[1].tracks[SQ_CHANNEL_ROTATION];
  double ang[3] = { 12.5, -33.25, 140.0 };
  static const int xzy[3] = { 0, 2, 1 };

  /* a new value: the alt no longer matches, the Euler angles are recomputed */
  sq_euler_to_quat (ang, xzy, 3, sq_track_unpack (rot)[1].v);
  clip->generation++;
  out = tu_save (clip, "bvh", NULL);
  back = tu_load_ok (out);
  assert_same_rotation (sq_track_key (&back->joints[1].tracks[SQ_CHANNEL_ROTATION], 1).v, sq_track_key (rot, 1).v, 1e-14);
  g_assert_cmpfloat_with_epsilon (kept (&back->joints[1].tracks[SQ_CHANNEL_ROTATION])[4], 12.5, 1e-6);
  g_assert_cmpfloat_with_epsilon (kept (&back->joints[1].tracks[SQ_CHANNEL_ROTATION])[5], -33.25, 1e-6);
  g_assert_cmpfloat_with_epsilon (kept (&back->joints[1].tracks[SQ_CHANNEL_ROTATION])[6], 140.0, 1e-6);
}

static void
test_conversions (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (small_bvh, strlen (small_bvh));
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GBytes) seq = NULL;
  g_autoptr(SqClip) from_seq = NULL;
  g_autoptr(GBytes) bvh = NULL;
  g_autoptr(SqClip) back = NULL;
  g_autoptr(GBytes) spec = g_bytes_new_static (tu_spec_example, strlen (tu_spec_example));

  /* BVH → text SEQ: the hierarchy, offsets and channel orders are reported */
  seq = tu_save (clip, "seq-text", losses);
  g_assert_true (tu_has_line (losses, "OFFSET"));
  g_assert_true (tu_has_line (losses, "channel order"));
  g_assert_true (tu_has_line (losses, "End Site"));
  g_assert_true (tu_has_line (losses, "hierarchy"));

  /* text SEQ → BVH: one ROOT, the others under it, keys on the frame grid */
  from_seq = tu_load_ok (spec);
  g_ptr_array_set_size (losses, 0);
  bvh = tu_save (from_seq, "bvh", losses);
  /* the conversion gives the limbs the Second Life skeleton's tree */
  g_assert_false (tu_has_line (losses, "ROOT"));
  back = tu_load_ok (bvh);
  g_assert_cmpint (g_variant_get_int32 (sq_props_get (back->joints[1].extra, "parent")), >=, 0);
  g_assert_cmpuint (back->n_joints, ==, from_seq->n_joints);
  g_assert_cmpstr (back->joints[0].name, ==, "hip");   /* pelvis, in Second Life's BVH names */
  g_assert_cmpfloat_with_epsilon (back->fps, 30.0, 1e-9);
  /* frame 0 keeps the rotation, sampled or keyed, on BVH's axes: an
   * ActiveWorlds avatar faces -Z, a BVH's +Z (formats.md 4.1), so SEQ
   * (w, x, y, z) is BVH (w, -x, -y, z) */
  {
    const SqKey k = sq_track_key (&from_seq->joints[1].tracks[SQ_CHANNEL_ROTATION], 0);
    const double mirrored[4] = { k.v[0], -k.v[1], -k.v[2], k.v[3] };

    assert_same_rotation (sq_track_key (&back->joints[1].tracks[SQ_CHANNEL_ROTATION], 0).v, mirrored, 1e-12);
  }
  {
    /* and the second write is the first */
    g_autoptr(GBytes) twice = tu_save (back, "bvh", NULL);
    g_assert_true (g_bytes_equal (bvh, twice));
  }
}

/* ---- the Euler conversion's own sine and cosine ------------------------- */

/* The spacing of doubles at `exact` (2^(e-53) for 2^(e-1) <= |exact| < 2^e) */
static double
ulp_at (long double exact)
{
  int e;

  if (exact == 0)
    return 0x1p-1074;
  frexpl (exact, &e);
  return MAX (ldexp (1.0, e - 53), 0x1p-1074);
}

/* sin and cos of a/2 degrees, reduced exactly by quarter turns, in long
 * double: the reference */
static void
half_deg_reference (double       a,
                    long double *s,
                    long double *c)
{
  const long double pi = 3.141592653589793238462643383279502884L;
  long double x = fmodl ((long double) a * 0.5L, 360.0L);
  long double k = nearbyintl (x / 90.0L);
  long double t = (x - k * 90.0L) * (pi / 180.0L);
  long double s0 = sinl (t), c0 = cosl (t);

  switch (((long) k % 4 + 4) % 4)
    {
    case 0: *s = s0; *c = c0; break;
    case 1: *s = c0; *c = -s0; break;
    case 2: *s = -s0; *c = -c0; break;
    default: *s = -c0; *c = s0; break;
    }
}

static void
test_euler_sincos_accuracy (void)
{
  static const int x_axis[1] = { 0 };
  GRand *rand = g_rand_new_with_seed (11);
  /* long double with a 64-bit mantissa is exact enough to judge a double;
   * with a 53-bit one the reference itself can be half an ulp off */
  double bound = LDBL_MANT_DIG >= 64 ? 1.0 : 2.0;
  double worst = 0, worst_angle = 0, worst_libm = 0;
  const guint n = 2000000;

  for (guint i = 0; i < n; i++)
    {
      double a, q[4], err_s, err_c;
      long double s, c;

      switch (i % 6)
        {
        case 0: a = g_rand_double_range (rand, -360, 360); break;
        case 1: a = g_rand_double_range (rand, -1e6, 1e6); break;
        case 2: a = g_rand_double_range (rand, -1, 1) * pow (10, g_rand_double_range (rand, -30, 3)); break;
        /* six-decimal text values near the quarter turns of the half angle */
        case 3: a = (180.0 * g_rand_int_range (rand, -8, 9)) + g_rand_int_range (rand, -1000, 1001) / 1e6; break;
        case 4: a = g_rand_double_range (rand, -4e9, 4e9); break;
        default: a = g_rand_double_range (rand, -1, 1) * pow (10, g_rand_double_range (rand, 9, 17)); break;
        }
      sq_euler_to_quat (&a, x_axis, 1, q);
      half_deg_reference (a, &s, &c);
      err_s = (double) (fabsl ((long double) q[1] - s) / ulp_at (s));
      err_c = (double) (fabsl ((long double) q[0] - c) / ulp_at (c));
      if (MAX (err_s, err_c) > worst)
        {
          worst = MAX (err_s, err_c);
          worst_angle = a;
        }
      /* the former way, for the record: libm on the angle in radians
       * (away from zero results, where its error is unbounded in ulps) */
      if (fabs (a) <= 720 && fabsl (s) >= 0.01L && fabsl (c) >= 0.01L)
        {
          double h = a * (G_PI / 360.0);
          worst_libm = MAX (worst_libm, (double) (fabsl ((long double) sin (h) - s) / ulp_at (s)));
          worst_libm = MAX (worst_libm, (double) (fabsl ((long double) cos (h) - c) / ulp_at (c)));
        }
    }
  g_test_message ("half-angle sin/cos: at most %.3f ulp off over %u angles (at %.17g); "
                  "libm on the radian angle: %.3f ulp (|angle| <= 720, results >= 0.01)", worst, n, worst_angle, worst_libm);
  g_assert_cmpfloat (worst, <=, bound);

  /* whole half turns are exact: 0, ±1, and +0 rather than −0 */
  for (int m = -8; m <= 8; m++)
    {
      double a = 180.0 * m, q[4];

      sq_euler_to_quat (&a, x_axis, 1, q);
      g_assert_cmpfloat (q[0], ==, (m % 2 != 0) ? 0.0 : ((m / 2) % 2 == 0 ? 1.0 : -1.0));
      g_assert_cmpfloat (q[1], ==, (m % 2 == 0) ? 0.0 : ((((m % 4) + 4) % 4) == 1 ? 1.0 : -1.0));
      for (int c = 0; c < 4; c++)
        g_assert_false (q[c] == 0.0 && signbit (q[c]));
    }
  /* not numbers in, not numbers out */
  {
    double a = INFINITY, q[4];
    sq_euler_to_quat (&a, x_axis, 1, q);
    g_assert_true (isnan (q[0]) && isnan (q[1]));
  }
  g_rand_free (rand);
}

/* The three-axis shortcut gives the numbers of the general products, and
 * no −0 */
static void
test_euler_closed_form (void)
{
  GRand *rand = g_rand_new_with_seed (12);

  for (guint o = 0; o < 6; o++)
    for (guint round = 0; round < 20000; round++)
      {
        double ang[3], q[4], p[4] = { 1, 0, 0, 0 };

        for (int c = 0; c < 3; c++)
          switch (g_rand_int_range (rand, 0, 4))
            {
            case 0: ang[c] = 90.0 * g_rand_int_range (rand, -8, 9); break;
            case 1: ang[c] = g_rand_boolean (rand) ? -0.0 : 0.0; break;
            default: ang[c] = g_rand_double_range (rand, -720, 720); break;
            }
        sq_euler_to_quat (ang, orders[o], 3, q);
        for (int c = 0; c < 3; c++)
          {
            double r[4];
            sq_euler_to_quat (&ang[c], &orders[o][c], 1, r);
            sq_quat_multiply (p, r, p);
          }
        for (int c = 0; c < 4; c++)
          {
            g_assert_cmpfloat (q[c], ==, p[c]);
            g_assert_false (q[c] == 0.0 && signbit (q[c]));
          }
      }
  g_rand_free (rand);
}

/* sq_euler_to_quat_n (vectorised, and on x86-64 the AVX copies) gives the
 * bits of sq_euler_to_quat, for any axes, strides and counts, huge angles
 * and not-numbers among them */
static void
test_euler_batch (void)
{
  static const int odd[][3] = {
    { 2, 0, 1 }, { 1, 0, 0 }, { 0, 0, 1 }, { 2, 2, 2 }, { 1, 2, 0 },
  };
  static const guint odd_n[] = { 1, 2, 3, 3, 0 };
  static const gsize lens[] = { 0, 1, 15, 16, 17, 39, 1000 };
  GRand *rand = g_rand_new_with_seed (13);
  const gsize count = 1000;
  g_autofree double *angles = g_new (double, count * 5);
  g_autofree double *batch = g_new (double, count * 6);
  g_autofree double *one = g_new (double, count * 6);

  for (guint set = 0; set < 6 + G_N_ELEMENTS (odd); set++)
    {
      const int *axes = set < 6 ? orders[set] : odd[set - 6];
      guint n = set < 6 ? 3 : odd_n[set - 6];
      gsize astride = 3 + set % 3, qstride = 4 + set % 3;

      for (gsize i = 0; i < count * 5; i++)
        {
          guint kind = g_rand_int_range (rand, 0, 200);
          angles[i] = kind == 0 ? NAN : kind == 1 ? -INFINITY : kind == 2 ? 3.5e15
                      : kind < 20 ? 45.0 * g_rand_int_range (rand, -40, 41)
                      : g_rand_double_range (rand, -1e4, 1e4);
        }
      /* one not-a-number block at least */
      angles[astride * 20] = NAN;
      memset (one, 0xa5, count * 6 * sizeof (double));
      for (gsize i = 0; i < count; i++)
        sq_euler_to_quat (&angles[i * astride], axes, n, &one[i * qstride]);
      for (guint l = 0; l < G_N_ELEMENTS (lens); l++)
        {
          gsize len = MIN (lens[l], count), used = len * qstride * sizeof (double);

          memset (batch, 0xa5, count * 6 * sizeof (double));
          sq_euler_to_quat_n (angles, astride, axes, n, batch, qstride, len);
          g_assert_cmpmem (batch, used, one, used);
          for (gsize b = used; b < count * 6 * sizeof (double); b++)
            g_assert_cmpuint (((const guint8 *) batch)[b], ==, 0xa5);
        }
    }
  g_rand_free (rand);
}

/* ---- the motion reader's fast paths ------------------------------------- */

/* A file read and written again by the writer alone comes back byte for
 * byte, and every rotation key is sq_euler_to_quat of the file's angles */
static SqClip *
assert_exact_round_trip (const char *text,
                         gsize       len)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, len);
  SqClip *clip = tu_load_ok (bytes);
  g_autoptr(GBytes) out = tu_save (clip, "bvh", NULL);
  double ft = g_variant_get_double (sq_props_get (clip->extra, "frame-time"));

  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out), text, len);
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const SqTrack *rot = &clip->joints[j].tracks[SQ_CHANNEL_ROTATION];
      GVariant *v = sq_props_get (clip->joints[j].extra, "channels");
      g_autofree const char **names = g_variant_get_strv (v, NULL);
      int axes[3];
      guint n_rot = 0;

      for (guint c = 0; names[c] != NULL; c++)
        if (g_str_has_suffix (names[c], "rotation"))
          axes[n_rot++] = names[c][0] - 'X';
      for (gsize k = 0; k < rot->n_keys; k++)
        {
          double q[4];

          sq_euler_to_quat (&kept (rot)[k * 4], axes, n_rot, q);
          g_assert_cmpmem (q, sizeof q, sq_track_key (rot, k).v, sizeof q);
          g_assert_cmpfloat (sq_track_time (rot, k), ==, (double) k * ft);
        }
    }
  return clip;
}

static void
test_motion_layouts (void)
{
  const char *head = "HIERARCHY\nROOT a\n{\n\tOFFSET 0 0 0\n\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
                     "\tEnd Site\n\t{\n\t\tOFFSET 0 1 0\n\t}\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n";
  static const char * const motions[] = {
    /* the '.' past the first eight bytes: one decimal is the fewest */
    "12345678.5 -98765432.5 1.5\n0.0 -1234567.25 -7.25\n",
    /* no final line end, the last value in the last bytes */
    "1.5 2.5 3.5\n4.5 5.5 6.5",
    "1.5 2.5 3.5\n4.5 5.5 6",
    /* CRLF, a tab, spaces after the last value */
    "1.50\t2.50\t3.50 \r\n4.50\t5.50\t6.50 \r\n",
    "1 2 3\n4 5 6\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (motions); i++)
    {
      g_autofree char *text = g_strconcat (head, motions[i], NULL);
      g_autoptr(SqClip) clip = NULL;

      if (strchr (motions[i], '\r') != NULL)
        {
          /* the whole file with CRLF */
          GString *s = g_string_new (NULL);
          for (const char *p = head; *p; p++)
            {
              if (*p == '\n')
                g_string_append_c (s, '\r');
              g_string_append_c (s, *p);
            }
          g_string_append (s, motions[i]);
          g_free (text);
          text = g_string_free (s, FALSE);
        }
      clip = assert_exact_round_trip (text, strlen (text));
      g_assert_cmpuint (clip->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 2);
      g_assert_null (sq_props_get (clip->extra, "irregular-layout"));
    }

  /* values with an exponent say nothing of the decimals */
  {
    g_autofree char *text = g_strconcat (head, "1.000 2.000 3.000\n4.000 5e-7 6.000\n", NULL);
    g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
    g_autoptr(SqClip) clip = tu_load_ok (bytes);

    g_assert_cmpint (g_variant_get_int32 (sq_props_get (clip->extra, "decimals")), ==, 3);
    g_assert_cmpfloat (kept (&clip->joints[0].tracks[SQ_CHANNEL_ROTATION])[5], ==, 5e-7);
  }

  /* one irregular separator: still read, marked irregular */
  {
    g_autofree char *text = g_strconcat (head, "1.5 2.5  3.5\n4.5 5.5 6.5\n", NULL);
    g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
    g_autoptr(SqClip) clip = tu_load_ok (bytes);

    g_assert_true (sq_props_get_bool (clip->extra, "irregular-layout", FALSE));
    g_assert_cmpfloat (kept (&clip->joints[0].tracks[SQ_CHANNEL_ROTATION])[2], ==, 3.5);
  }
}

/* Many frames and joints: the values go to the tracks a block of frames at
 * a time, in the reader and in the writer; blocks end inside the file */
static void
test_motion_blocks (void)
{
  /* blocks of 64, 39 and 1 frames in the reader, 256, 159 and 7 in the
   * writer */
  static const guint joints[] = { 3, 100, 2100 };
  static const guint frames[] = { 300, 400, 3 };
  GRand *rand = g_rand_new_with_seed (14);

  for (guint t = 0; t < G_N_ELEMENTS (joints); t++)
    {
      GString *s = g_string_new ("HIERARCHY\nROOT j0\n{\n\tOFFSET 0 0 0\n\tCHANNELS 6 Xposition Yposition Zposition "
                                 "Zrotation Xrotation Yrotation\n");
      g_autoptr(SqClip) clip = NULL;
      guint n_values = 6;

      for (guint j = 1; j < joints[t]; j++)
        {
          /* channel lists of every kind: 3 rotations, 2, positions alone, mixed */
          static const char * const lists[] = {
            "3 Xrotation Yrotation Zrotation", "2 Yrotation Xrotation", "1 Xposition",
            "4 Zrotation Yposition Xrotation Yrotation", "0",
          };
          const char *list = lists[j % G_N_ELEMENTS (lists)];

          g_string_append_printf (s, "\tJOINT j%u\n\t{\n\t\tOFFSET 0 0 0\n\t\tCHANNELS %s\n"
                                  "\t\tEnd Site\n\t\t{\n\t\t\tOFFSET 0 1 0\n\t\t}\n\t}\n", j, list);
          n_values += (guint) (list[0] - '0');
        }
      g_string_append_printf (s, "}\nMOTION\nFrames: %u\nFrame Time: 0.033333\n", frames[t]);
      for (guint f = 0; f < frames[t]; f++)
        {
          for (guint v = 0; v < n_values; v++)
            {
              char buf[G_ASCII_DTOSTR_BUF_SIZE];
              g_ascii_formatd (buf, sizeof buf, "%.6f", g_rand_double_range (rand, -400, 400));
              if (v > 0)
                g_string_append_c (s, ' ');
              g_string_append (s, buf);
            }
          g_string_append_c (s, '\n');
        }
      clip = assert_exact_round_trip (s->str, s->len);
      g_assert_cmpuint (clip->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, frames[t]);
      g_assert_cmpuint (clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, frames[t]);
      g_string_free (s, TRUE);
    }
  g_rand_free (rand);
}

/* A NUL byte anywhere is the error, whatever else is wrong */
static void
assert_nul_error (const char *text,
                  gsize       len,
                  gsize       offset)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_bytes_new (text, len);
  g_autoptr(SqClip) clip = sq_load_bytes (bytes, NULL, sq_format_by_id ("bvh"), NULL, &error);
  g_autofree char *where = g_strdup_printf ("(%zu)", offset);

  g_assert_null (clip);
  g_assert_error (error, SQ_ERROR, SQ_ERROR_SYNTAX);
  g_assert_nonnull (strstr (error->message, "NUL"));
  g_assert_nonnull (strstr (error->message, where));
}

static void
test_nul_bytes (void)
{
  const char *head = "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n}\n"
                     "MOTION\nFrames: 2\nFrame Time: 0.1\n";
  const char *motion = "1.5 2.5 3.5\n4.5 5.5 6.5\n";
  gsize hl = strlen (head);
  g_autofree char *text = g_strconcat (head, motion, "tail\n", NULL);
  gsize len = strlen (text);

  /* in every place: the name, the header, a value, a separator, a line
   * end, the text after the frames */
  static const gsize in_head[] = { 15, 60, 85, 100, 105 };
  for (guint i = 0; i < G_N_ELEMENTS (in_head); i++)
    {
      g_autofree char *t = g_memdup2 (text, len);
      t[in_head[i]] = '\0';
      assert_nul_error (t, len, in_head[i]);
    }
  for (gsize at = hl; at < len; at++)
    {
      g_autofree char *t = g_memdup2 (text, len);
      t[at] = '\0';
      assert_nul_error (t, len, at);
    }
  /* the first of two, also after a syntax error */
  {
    g_autofree char *t = g_strconcat ("HIERARCHY\nROOT a\n{\nOFFSET x 0 0\n", motion, NULL);
    gsize tl = strlen (t);
    t[tl - 3] = '\0';
    t[tl - 8] = '\0';
    assert_nul_error (t, tl, tl - 8);
  }
}

/* ---- frames read in parts on several threads --------------------------- */

static SqClip *
load_bvh (const char *text,
          gsize       len,
          GError    **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, len);

  return sq_load_bytes (bytes, NULL, sq_format_by_id ("bvh"), NULL, error);
}

/* Reads `text` on one thread, then with the frames cut in parts for 2, 3
 * and 4 threads (the threshold lowered to a byte; up to 8, 12 and 16 parts
 * of a line or more): the same clip (extras included, so the layout),
 * warnings, angles and saved bytes, or the same error, line and column
 * included. Returns the clip read on one thread, or NULL. */
static SqClip *
assert_parts_alike (const char *text,
                    gsize       len)
{
  g_autoptr(SqClip) one = NULL;
  g_autoptr(GError) error1 = NULL;
  g_autoptr(GBytes) out1 = NULL;
  SqSaveOptions opts = { .no_source_copy = TRUE };

  _sq_parallel_set_limits (G_MAXSIZE, 1);
  one = load_bvh (text, len, &error1);
  if (one != NULL)
    {
      g_assert_true (sq_clip_check (one, NULL));
      out1 = sq_save_bytes (one, one->format, &opts, NULL, NULL);
    }
  for (guint threads = 2; threads <= 4; threads++)
    {
      g_autoptr(SqClip) more = NULL;
      g_autoptr(GError) error = NULL;

      _sq_parallel_set_limits (1, threads);
      more = load_bvh (text, len, &error);
      _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
      g_assert_true ((one == NULL) == (more == NULL));
      if (one == NULL)
        {
          g_assert_error (error, SQ_ERROR, error1->code);
          g_assert_cmpstr (error->message, ==, error1->message);
          continue;
        }
      g_assert_no_error (error);
      g_assert_true (sq_clip_equal (one, more));
      g_assert_cmpuint (one->warnings->len, ==, more->warnings->len);
      for (guint i = 0; i < one->warnings->len; i++)
        g_assert_cmpstr (one->warnings->pdata[i], ==, more->warnings->pdata[i]);
      for (gsize j = 0; j < one->n_joints; j++)
        {
          const SqTrack *a = &one->joints[j].tracks[SQ_CHANNEL_ROTATION];
          const SqTrack *b = &more->joints[j].tracks[SQ_CHANNEL_ROTATION];

          g_assert_true ((kept (a) == NULL) == (kept (b) == NULL));
          if (a->alt != NULL)
            g_assert_cmpmem (a->alt, a->n_keys * 4 * sizeof (double), b->alt, b->n_keys * 4 * sizeof (double));
        }
      {
        g_autoptr(GBytes) out = sq_save_bytes (more, more->format, &opts, NULL, NULL);

        g_assert_true (g_bytes_equal (out, out1));
      }
    }
  _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
  return g_steal_pointer (&one);
}

/* A file of `written` frames (of 9 values: a root with positions, a joint
 * with rotations) announcing `frames`, its lines ended by `eol`, values
 * parted by `sep`, with `trail` after each frame's last value; values of
 * two decimals, and whole numbers among them with `ints` */
static char *
parts_bvh (guint       frames,
           guint       written,
           const char *eol,
           const char *sep,
           const char *trail,
           gboolean    ints)
{
  GString *s = g_string_new (NULL);
  const char *head[] = {
    "HIERARCHY", "ROOT hips", "{", "\tOFFSET 0 0 0",
    "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation",
    "\tJOINT chest", "\t{", "\t\tOFFSET 0 1 0", "\t\tCHANNELS 3 Yrotation Xrotation Zrotation",
    "\t\tEnd Site", "\t\t{", "\t\t\tOFFSET 0 1 0", "\t\t}", "\t}", "}", "MOTION",
  };

  for (guint i = 0; i < G_N_ELEMENTS (head); i++)
    g_string_append_printf (s, "%s%s", head[i], eol);
  g_string_append_printf (s, "Frames: %u%sFrame Time: 0.04%s", frames, eol, eol);
  for (guint f = 0; f < written; f++)
    {
      for (guint v = 0; v < 9; v++)
        {
          /* values of several lengths and decimals */
          int x = (int) ((f * 9 + v) * 7919 % 2001) - 1000;

          if (v > 0)
            g_string_append (s, sep);
          if (ints && v == 4 && f % 3 == 0)
            g_string_append_printf (s, "%d", x);
          else
            g_string_append_printf (s, "%d.%02u", x / 10, (guint) ABS (x) % 100);
        }
      g_string_append_printf (s, "%s%s", trail, eol);
    }
  return g_string_free (s, FALSE);
}

static void
test_parallel_frames (void)
{
  struct { guint frames, written; const char *eol, *sep, *trail, *tail; } files[] = {
    { 40, 40, "\n", " ", "", "" },
    { 40, 40, "\r\n", "\t", " ", "" },
    { 40, 40, "\r", " ", "", "" },          /* CR alone: read in one pass */
    { 40, 40, "\n", "  ", "\t", "" },
    { 25, 40, "\n", " ", "", "" },          /* more lines than frames: numbers after */
    { 25, 25, "\n", " ", "", "more text\nand more\n" },
    { 40, 30, "\n", " ", "", "" },          /* fewer: the file ends in a frame */
    { 40, 40, "\n", " ", "", "\n\n" },
    { 1, 1, "\n", " ", "", "" },
    { 3, 3, "\n", " ", "", "" },
  };
  guint n_clips = 0;

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *base = parts_bvh (files[i].frames, files[i].written, files[i].eol, files[i].sep, files[i].trail, TRUE);
      g_autofree char *text = g_strconcat (base, files[i].tail, NULL);
      gsize len = strlen (text);
      g_autoptr(SqClip) clip = assert_parts_alike (text, len);

      g_assert_true ((clip != NULL) == (files[i].written >= files[i].frames));
      if (clip != NULL)
        g_assert_cmpuint (clip->joints[1].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, files[i].frames);
      n_clips += clip != NULL;
      /* without the last line end */
      if (text[len - 1] == '\n')
        {
          g_autoptr(SqClip) cut = assert_parts_alike (text, len - 1);

          g_assert_true ((cut != NULL) == (clip != NULL));
        }
    }
  g_assert_cmpuint (n_clips, >=, 6);

  /* tabs for spaces from the middle, or fewer decimals at the end: each
   * part regular on its own, the whole not, or with fewer decimals */
  {
    g_autofree char *text = parts_bvh (40, 40, "\n", " ", "", FALSE);
    gsize len = strlen (text);
    g_autoptr(SqClip) tabs = NULL, fewer = NULL;
    char *last;

    g_strdelimit (text + len / 2, " ", '\t');
    tabs = assert_parts_alike (text, len);
    g_assert_true (sq_props_get_bool (tabs->extra, "irregular-layout", FALSE));
    g_strdelimit (text + len / 2, "\t", ' ');
    /* the last value's second decimal taken out */
    last = strrchr (text, '.');
    memmove (last + 2, last + 3, len - (last + 3 - text));
    fewer = assert_parts_alike (text, len - 1);
    g_assert_null (sq_props_get (fewer->extra, "irregular-layout"));
    g_assert_cmpint (g_variant_get_int32 (sq_props_get (fewer->extra, "decimals")), ==, 1);
  }

  /* every byte of the frames changed in turn: an error (a letter, a NUL),
   * a line end more, a CR alone, a separator more, less or another: the
   * first error in the file's order, or the same clip */
  {
    g_autofree char *text = parts_bvh (9, 9, "\n", " ", "", TRUE);
    gsize len = strlen (text), motion = strstr (text, "0.04\n") - text + 4;
    static const char changes[] = { 'x', '\0', '\n', '\r', ' ', '\t' };
    guint read = 0, failed = 0;

    for (gsize at = motion; at < len; at++)
      for (guint c = 0; c < G_N_ELEMENTS (changes) + 1; c++)
        {
          g_autofree char *t = g_memdup2 (text, len);
          g_autoptr(SqClip) clip = NULL;
          gsize tl = len;

          if (c < G_N_ELEMENTS (changes))
            t[at] = changes[c];
          else
            {
              /* the byte taken out */
              memmove (t + at, t + at + 1, len - at - 1);
              tl--;
            }
          clip = assert_parts_alike (t, tl);
          if (clip != NULL)
            read++;
          else
            failed++;
        }
    g_assert_cmpuint (read, >, 0);
    g_assert_cmpuint (failed, >, 0);
  }

  /* an error in the last part, and two errors in two parts: the first */
  {
    g_autofree char *text = parts_bvh (40, 40, "\n", " ", "", TRUE);
    gsize len = strlen (text);
    g_autoptr(GError) error = NULL;
    char *last = strrchr (text, ' ');
    char *line30 = text;

    /* 18 lines before the frames */
    for (guint i = 0; i < 18 + 30; i++)
      line30 = strchr (line30, '\n') + 1;
    last[1] = 'x';
    g_assert_null (assert_parts_alike (text, len));
    line30[0] = 'y';
    g_assert_null (assert_parts_alike (text, len));
    g_assert_null (load_bvh (text, len, &error));
    g_assert_error (error, SQ_ERROR, SQ_ERROR_SYNTAX);
    g_assert_nonnull (strstr (error->message, "line 49, column 1"));
    g_assert_nonnull (strstr (error->message, "“y"));
  }
}

/* ---- frames written in runs on several threads ------------------------- */

/* A BVH of `n_joints` joints (channel lists of every kind) and `frames`
 * frames, lines ended by `eol`, values parted by `sep`, `trail` after each
 * frame's last value, no final line end when `final_eol` is FALSE */
static char *
runs_bvh (guint       n_joints,
          guint       frames,
          const char *eol,
          const char *sep,
          const char *trail,
          gboolean    final_eol,
          GRand      *rand)
{
  static const char * const lists[] = {
    "3 Zrotation Xrotation Yrotation", "2 Yrotation Xrotation", "1 Xposition",
    "4 Zrotation Yposition Xrotation Yrotation", "0", "6 Xposition Yposition Zposition Xrotation Yrotation Zrotation",
  };
  GString *s = g_string_new (NULL);
  guint n_values = 6;

  g_string_append_printf (s, "HIERARCHY%sROOT j0%s{%s\tOFFSET 0 0 0%s\tCHANNELS 6 Xposition Yposition Zposition "
                          "Zrotation Xrotation Yrotation%s", eol, eol, eol, eol, eol);
  for (guint j = 1; j < n_joints; j++)
    {
      const char *list = lists[j % G_N_ELEMENTS (lists)];

      g_string_append_printf (s, "\tJOINT j%u%s\t{%s\t\tOFFSET 0 0 0%s\t\tCHANNELS %s%s"
                              "\t\tEnd Site%s\t\t{%s\t\t\tOFFSET 0 1 0%s\t\t}%s\t}%s",
                              j, eol, eol, eol, list, eol, eol, eol, eol, eol, eol);
      n_values += (guint) (list[0] - '0');
    }
  g_string_append_printf (s, "}%sMOTION%sFrames: %u%sFrame Time: 0.033333", eol, eol, frames, eol);
  for (guint f = 0; f < frames; f++)
    {
      g_string_append (s, eol);
      for (guint v = 0; v < n_values; v++)
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];

          if (v > 0)
            g_string_append (s, sep);
          g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.4f", g_rand_double_range (rand, -179, 179)));
        }
      g_string_append (s, trail);
    }
  if (final_eol)
    g_string_append (s, eol);
  return g_string_free (s, FALSE);
}

/* The clip saved as BVH on `threads` threads (1: one pass, 0: as the
 * limits are by default), with its losses */
static GBytes *
save_on_threads (const SqClip *clip,
                 guint         threads,
                 GPtrArray    *losses)
{
  SqSaveOptions opts = { .no_source_copy = TRUE };
  g_autoptr(GError) error = NULL;
  GBytes *out;

  if (threads == 1)
    _sq_parallel_set_limits (G_MAXSIZE, 1);
  else if (threads > 1)
    _sq_parallel_set_limits (1, threads);
  out = sq_save_bytes (clip, sq_format_by_id ("bvh"), &opts, losses, &error);
  _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
  g_assert_no_error (error);
  g_assert_nonnull (out);
  return out;
}

/* One pass and 2, 3 and 4 threads (with the threshold lowered to a byte)
 * give the same bytes and the same losses in the same order; returns the
 * bytes and fills `losses` with those of one pass */
static GBytes *
assert_runs_alike (const SqClip *clip,
                   GPtrArray    *losses)
{
  GBytes *one = save_on_threads (clip, 1, losses);

  for (guint threads = 0; threads <= 4; threads++)
    {
      g_autoptr(GPtrArray) more_losses = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GBytes) more = NULL;

      if (threads == 1)
        continue;
      more = save_on_threads (clip, threads, more_losses);
      g_assert_cmpmem (g_bytes_get_data (more, NULL), g_bytes_get_size (more),
                       g_bytes_get_data (one, NULL), g_bytes_get_size (one));
      g_assert_cmpuint (more_losses->len, ==, losses->len);
      for (guint i = 0; i < losses->len; i++)
        g_assert_cmpstr (more_losses->pdata[i], ==, losses->pdata[i]);
    }
  return one;
}

/* The frames written in runs of frames on several threads: the text and
 * the losses are those of one pass, for frames written from the file's
 * own angles, converted from edited keys, sampled between sparse keys, with
 * keys off the frame grid, before time 0 or two on one frame, values that
 * are not numbers and rotations about an axis a joint's CHANNELS lacks;
 * runs of many frames of few values and of few frames of many values, with
 * every line end, separators, trails, with and without the final line end */
static void
test_parallel_write (void)
{
  struct { guint joints, frames; const char *eol, *sep, *trail; gboolean final_eol; } files[] = {
    { 13, 4000, "\n", " ", "", TRUE },
    { 13, 3001, "\r\n", "\t", " ", FALSE },
    { 700, 233, "\r", "  ", "\t", TRUE },
    { 4, 257, "\n", " ", "", FALSE },
    { 2, 1, "\n", " ", "", TRUE },
  };
  GRand *rand = g_rand_new_with_seed (2090);

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *text = runs_bvh (files[i].joints, files[i].frames, files[i].eol, files[i].sep,
                                        files[i].trail, files[i].final_eol, rand);
      g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
      g_autoptr(SqClip) clip = tu_load_ok (bytes);
      g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GBytes) out = NULL;

      g_test_message ("%u joints, %u frames", files[i].joints, files[i].frames);

      /* unedited: the file itself, from the kept angles */
      out = assert_runs_alike (clip, losses);
      g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out), text, strlen (text));
      g_assert_cmpuint (losses->len, ==, 0);
      g_clear_pointer (&out, g_bytes_unref);

      /* edited */
      for (gsize j = 0; j < clip->n_joints; j++)
        {
          SqTrack *rot = &clip->joints[j].tracks[SQ_CHANNEL_ROTATION];
          SqTrack *pos = &clip->joints[j].tracks[SQ_CHANNEL_TRANSLATION];

          if (rot->n_keys > 2)
            {
              SqKey *keys = sq_track_unpack (rot);

              /* turns about Z, which "2 Yrotation Xrotation" lacks, and
               * about other axes the lists have */
              for (gsize k = j % 5; k < rot->n_keys; k += 37)
                {
                  double a = (double) k / (double) rot->n_keys * G_PI;
                  double q[4] = { cos (a), 0, 0, sin (a) };

                  memcpy (keys[k].v, q, sizeof q);
                }
              /* sparse: a stretch of keys out, sampled between the others */
              for (gsize k = rot->n_keys - 2; k > rot->n_keys / 3; k -= 1 + (k % 3 != 0))
                sq_track_remove (rot, k);
              /* off the frame grid, before time 0, two on one frame */
              {
                const double times[] = { 0.5 * 0.033333 + 0.004, -0.1 - (double) j, 5 * 0.033333 + 0.00001 };
                const double q[4] = { 0.5, 0.5, -0.5, 0.5 };

                for (guint t = 0; t < G_N_ELEMENTS (times); t++)
                  memcpy (rot->keys[sq_track_insert (rot, times[t])].v, q, sizeof q);
              }
            }
          if (pos->n_keys > 2)
            {
              SqKey *keys = sq_track_unpack (pos);

              /* values that are not numbers, far apart */
              for (gsize k = 3; k < pos->n_keys; k += pos->n_keys / 4 + 1)
                keys[k].v[k % 3] = k % 2 ? NAN : -INFINITY;
              for (gsize k = pos->n_keys - 2; k > 2 * pos->n_keys / 3; k -= 2)
                sq_track_remove (pos, k);
            }
        }
      g_ptr_array_set_size (losses, 0);
      out = assert_runs_alike (clip, losses);
      for (guint l = 0; l < losses->len; l++)
        g_test_message ("  %s", (const char *) losses->pdata[l]);
      if (files[i].frames > 2)
        {
          g_assert_true (tu_has_line (losses, "not numbers"));
          g_assert_true (tu_has_line (losses, "an axis its CHANNELS list lacks"));
          g_assert_true (tu_has_line (losses, "before time 0"));
          g_assert_true (tu_has_line (losses, "rounded"));
          g_assert_true (tu_has_line (losses, "same step"));
        }
    }

  /* more values than a BVH file Sequin writes: the error, and nothing of
   * the keys' preparation left allocated */
  {
    g_autofree char *text = runs_bvh (3, 10, "\n", " ", "", TRUE, rand);
    g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
    g_autoptr(SqClip) clip = tu_load_ok (bytes);
    g_autoptr(GError) error = NULL;
    SqSaveOptions opts = { .no_source_copy = TRUE };

    clip->duration = 1e6;
    g_assert_null (sq_save_bytes (clip, sq_format_by_id ("bvh"), &opts, NULL, &error));
    g_assert_error (error, SQ_ERROR, SQ_ERROR_CANNOT_WRITE);
  }
  g_rand_free (rand);
}

/* Renaming joints keeps the rest of the hierarchy's text: only the names
 * change (the OFFSETs keep their own decimals, the line ends their mix); a
 * name that cannot stand on a BVH line is written changed, with a loss. */
/* A file written with many decimals (here 17) keeps them after an edit:
 * each new value rounded to them as printf would, large values too (whose
 * digits do not fit in 64 bits at that scale). */
static void
test_many_decimals (void)
{
  const char *text =
    "HIERARCHY\nROOT hip\n{\n\tOFFSET 0.00000000000000000 0.00000000000000000 0.00000000000000000\n"
    "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    "\tEnd Site\n\t{\n\t\tOFFSET 0.00000000000000000 1.00000000000000000 0.00000000000000000\n\t}\n}\n"
    "MOTION\nFrames: 2\nFrame Time: 0.03333333333333333\n"
    "994.00000000000000000 0.12345678901234567 8395.62379302778900000 10.00000000000000000 20.00000000000000000 30.00000000000000000\n"
    "995.00000000000000000 0.12345678901234567 0.50000000000000000 10.00000000000000000 20.00000000000000000 30.00000000000000000\n";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autoptr(SqEdit) edit = sq_edit_rescale_new (1.5);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autofree char *motion = NULL;
  SqSaveOptions opts = { .no_source_copy = TRUE };

  g_assert_true (sq_edit_apply (edit, clip, &error));
  g_assert_no_error (error);
  out = sq_save_bytes (clip, clip->format, &opts, NULL, &error);
  g_assert_no_error (error);
  motion = g_strndup (strstr (g_bytes_get_data (out, NULL), "Frame Time"), 400);
  /* 994 · 1.5, 0.12345678901234567 · 1.5 and 8395.623793027789 · 1.5,
   * each with the file's 17 decimals */
  {
    char value[G_ASCII_DTOSTR_BUF_SIZE];
    g_autofree char *want = g_strconcat ("\n1491.00000000000000000 0.18518518351851848 ",
                                         g_ascii_formatd (value, sizeof value, "%.17f", 8395.623793027789 * 1.5), " ", NULL);

    g_assert_nonnull (strstr (motion, want));
  }
  g_assert_nonnull (strstr (motion, "\n1492.50000000000000000 0.18518518351851848 0.75000000000000000 "));
}

static void
test_rename_keeps_text (void)
{
  g_autofree char *path = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GString) want = NULL;
  const char *renames[][3] = {
    { "LHipJoint", "Left hip joint", "Left hip joint" },
    { "Hips", "pelvis", "pelvis" },
    { "Neck", "neck\tupper ", "neck upper" },
  };
  SqSaveOptions opts = { .no_source_copy = TRUE };

  path = g_build_filename (tu_corpus_dir (), "bvh", "131_01.bvh", NULL);
  bytes = tu_read (path);
  clip = tu_load_ok (bytes);
  want = g_string_new_len (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  for (guint i = 0; i < G_N_ELEMENTS (renames); i++)
    {
      g_autoptr(SqEdit) edit = sq_edit_rename_joint_new (renames[i][0], renames[i][1]);
      g_autoptr(GError) error = NULL;
      /* the name's line, ended by CR or LF (this file mixes them) */
      g_autofree char *old_line = g_strdup_printf ("%s %s", i == 1 ? "ROOT" : "JOINT", renames[i][0]);
      g_autofree char *new_line = g_strdup_printf ("%s %s", i == 1 ? "ROOT" : "JOINT", renames[i][2]);
      const char *at = want->str;

      while ((at = strstr (at, old_line)) != NULL && at[strlen (old_line)] != '\r' && at[strlen (old_line)] != '\n')
        at++;
      g_assert_true (sq_edit_apply (edit, clip, &error));
      g_assert_no_error (error);
      g_assert_nonnull (at);
      g_assert_null (strstr (at + 1, old_line));
      {
        gsize pos = at - want->str;
        g_string_erase (want, pos, strlen (old_line));
        g_string_insert (want, pos, new_line);
      }
    }
  {
    g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
    g_autoptr(GBytes) out = sq_save_bytes (clip, clip->format, &opts, losses, NULL);

    const char *text = g_bytes_get_data (out, NULL);
    const char *motion = g_strstr_len (text, g_bytes_get_size (out), "MOTION");

    /* the hierarchy text (this file's frames do not all write back as
     * they were: its decimals vary from line to line) */
    g_assert_nonnull (motion);
    g_assert_cmpmem (text, motion - text, want->str, strstr (want->str, "MOTION") - want->str);
    g_assert_cmpuint (losses->len, ==, 1);
    g_assert_true (tu_has_line (losses, "written as “neck upper”"));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/bvh/euler-orders", test_euler_orders);
  g_test_add_func ("/bvh/known-answer", test_known_answer);
  g_test_add_func ("/bvh/line-ends-loose-numbers", test_line_ends_and_loose_numbers);
  g_test_add_func ("/bvh/malformed", test_malformed);
  g_test_add_func ("/bvh/corpus", test_corpus);
  g_test_add_func ("/bvh/edit", test_edit_uses_quaternion);
  g_test_add_func ("/bvh/conversions", test_conversions);
  g_test_add_func ("/bvh/euler-sincos-accuracy", test_euler_sincos_accuracy);
  g_test_add_func ("/bvh/euler-closed-form", test_euler_closed_form);
  g_test_add_func ("/bvh/euler-batch", test_euler_batch);
  g_test_add_func ("/bvh/motion-layouts", test_motion_layouts);
  g_test_add_func ("/bvh/motion-blocks", test_motion_blocks);
  g_test_add_func ("/bvh/nul-bytes", test_nul_bytes);
  g_test_add_func ("/bvh/parallel-frames", test_parallel_frames);
  g_test_add_func ("/bvh/parallel-write", test_parallel_write);
  g_test_add_func ("/bvh/rename-keeps-text", test_rename_keeps_text);
  g_test_add_func ("/bvh/many-decimals", test_many_decimals);
  return g_test_run ();
}
