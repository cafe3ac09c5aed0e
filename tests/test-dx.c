/* test-dx.c: ActiveWorlds DirectX text animation (.x)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sq-parallel.h"
#include "test-utils.h"

static gsize
count_channel (const SqClip *clip,
               SqChannel     c)
{
  gsize n = 0;
  for (gsize j = 0; j < clip->n_joints; j++)
    n += clip->joints[j].tracks[c].n_keys;
  return n;
}

/* The writer's own output: CRLF only, no line over 250 characters, and it
 * reads back to the same joints and keys and writes the same bytes again. */
static GBytes *
assert_written_well (const SqClip *clip)
{
  SqSaveOptions opts = { .no_source_copy = TRUE };
  const SqFormat *dx = sq_format_by_id ("dx");
  g_autoptr(GError) error = NULL;
  GBytes *out = sq_save_bytes (clip, dx, &opts, NULL, &error);
  g_autoptr(SqClip) back = NULL;
  g_autoptr(GBytes) again = NULL;
  gsize len, line_len = 0;
  g_autofree char *s = NULL;

  g_assert_no_error (error);
  g_assert_true (g_bytes_get_size (out) > 16 && memcmp (g_bytes_get_data (out, NULL), "xof 0303txt 0032\r\n", 18) == 0);
  /* the other sets and objects of the file come as they were read: the
   * writer's own lines are the rest */
  s = tu_dx_own_text (clip, g_bytes_get_data (out, NULL), g_bytes_get_size (out), &len);
  for (gsize i = 0; i < len; i++)
    {
      if (s[i] == '\n')
        {
          g_assert_true (i > 0 && s[i - 1] == '\r');
          line_len = 0;
        }
      else if (s[i] != '\r')
        g_assert_cmpuint (++line_len, <=, 250);
      else
        g_assert_true (i + 1 < len && s[i + 1] == '\n');
    }
  back = sq_load_bytes (out, NULL, dx, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (sq_clip_check (back, NULL));
  g_assert_cmpuint (back->n_joints, ==, clip->n_joints);
  g_assert_cmpfloat (back->fps, ==, clip->fps);
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      g_assert_cmpstr (back->joints[j].name, ==, clip->joints[j].name);
      g_assert_true (sq_props_equal (back->joints[j].extra, clip->joints[j].extra));
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        {
          const SqTrack *a = &clip->joints[j].tracks[c], *b = &back->joints[j].tracks[c];
          g_assert_cmpuint (a->n_keys, ==, b->n_keys);
          for (gsize k = 0; k < a->n_keys; k++)
            {
              g_assert_cmpfloat (sq_track_time (a, k), ==, sq_track_time (b, k));
              {
                SqKey ka = sq_track_key (a, k), kb = sq_track_key (b, k);
                g_assert_cmpmem (ka.v, sizeof ka.v, kb.v, sizeof kb.v);
              }
            }
        }
    }
  again = sq_save_bytes (back, dx, &opts, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (out, again));
  return out;
}

typedef struct
{
  const char *file;
  gsize joints, rot, scale, pos;
  double tps, duration;
  guint other_sets;
  const char *first_joint, *set_name;
} CorpusCase;

/* counted independently from the files' AnimationKey headers */
static const CorpusCase corpus_cases[] = {
  { "BCN_Epileptic.X", 57, 1621, 57, 156, 4800, 15840.0 / 4800, 0, "Torso", "Epileptisch" },
  { "Testwuson.X", 39, 906, 39, 68, 4800, 4640.0 / 4800, 2, "Wuson", "Wuson_Run" },
  { "anim_test.x", 4, 96, 96, 96, 24, 1.0, 0, "pCylinder1", "cylinder_test" },
  { "coolguy_opt.x", 11, 162, 0, 22, 30, 29.0 / 30, 0, "Armature", NULL },
};

static void
test_corpus (void)
{
  const char *dir = tu_corpus_dir ();

  for (guint i = 0; i < G_N_ELEMENTS (corpus_cases); i++)
    {
      const CorpusCase *cc = &corpus_cases[i];
      g_autofree char *path = g_build_filename (dir, "dx-anim", cc->file, NULL);
      g_autoptr(GBytes) bytes = tu_read (path);
      g_autoptr(SqClip) clip = tu_load_ok (bytes);
      g_autoptr(GBytes) same = NULL;
      g_autoptr(GBytes) written = NULL;
      g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GBytes) seq = NULL;
      GVariant *v;

      g_test_message ("%s", cc->file);
      g_assert_cmpstr (clip->format->id, ==, "dx");
      g_assert_cmpuint (clip->n_joints, ==, cc->joints);
      g_assert_cmpuint (count_channel (clip, SQ_CHANNEL_ROTATION), ==, cc->rot);
      g_assert_cmpuint (count_channel (clip, SQ_CHANNEL_SCALE), ==, cc->scale);
      g_assert_cmpuint (count_channel (clip, SQ_CHANNEL_TRANSLATION), ==, cc->pos);
      g_assert_cmpfloat (clip->fps, ==, cc->tps);
      g_assert_cmpfloat_with_epsilon (clip->duration, cc->duration, 1e-12);
      g_assert_cmpstr (clip->joints[0].name, ==, cc->first_joint);
      v = sq_props_get (clip->extra, "set_name");
      g_assert_cmpstr (v ? g_variant_get_string (v, NULL) : NULL, ==, cc->set_name);
      v = sq_props_get (clip->extra, "other_sets");
      g_assert_cmpuint (v ? g_variant_n_children (v) : 0, ==, cc->other_sets);
      /* 4800 ticks per second is outside AW's 2-200: a warning, not a refusal */
      if (cc->tps > 200)
        g_assert_cmpuint (clip->warnings->len, >=, 1);

      /* unedited: the source bytes */
      same = sq_save_bytes (clip, clip->format, NULL, NULL, NULL);
      g_assert_true (g_bytes_equal (same, bytes));
      /* serialised: the animation (not the meshes) reads back the same */
      written = assert_written_well (clip);
      /* to text SEQ: the frames and meshes are listed as lost */
      seq = sq_save_bytes (clip, sq_format_by_id ("seq-text"), NULL, losses, NULL);
      g_assert_nonnull (seq);
      g_assert_true (tu_has_line (losses, "frames, meshes and other templates"));
    }
}

static const char aw_example[] =
  "xof 0303txt 0032\r\n"
  "#  Exported from Blender using AWDXAnimExporter.py version 0.91 (C) 2010 PP3D.\r\n"
  "// a C++ comment\r\n"
  "AnimationSet BlenderAnim_Armature0 {\r\n"
  "  AnimTicksPerSecond {\r\n"
  "    25;\r\n"
  "  }\r\n"
  "  Animation {\r\n"
  "    {aw_pelvis}\r\n"
  "    AnimationKey {\r\n"
  "      2; //Position\r\n"
  "      3;\r\n"
  "      0;3;    0.000000,-0.033048,0.054183;;\r\n"
  "      14;3;   0.000000,0.013172,0.072930;;\r\n"
  "      99;3;   -0.000000,-0.033048,0.054183;;\r\n"
  "    }\r\n"
  "    AnimationKey {\r\n"
  "      0; # Rotation\r\n"
  "      2;\r\n"
  "      0;4;1.000000,0.000000,-0.000000,-0.000000;;,\r\n"
  "      50;4;0.876362,0.475199,0.074648,0.024572;;;\r\n"
  "    }\r\n"
  "  }\r\n"
  "  Animation knee {\n"                       /* LF only, named Animation */
  "    { aw_knee_l }\n"
  "    AnimationOptions { 1; 0; }\n"
  "    AnimationKey rot { 0 2 10 4 0.9981 -0.061619 -0.000153 -0.00014 0 4 1 0 0 0 }\n"  /* no separators, unsorted */
  "    AnimationKey { 1; 1; 5; 3; 2, 2, 2;;; }\n"
  "  }\n"
  "}\n";

static void
test_aw_example (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = tu_load_text (aw_example, "dx", &error);
  const SqTrack *t;
  GVariant *v;

  g_assert_no_error (error);
  g_assert_true (sq_clip_check (clip, NULL));
  g_assert_cmpuint (clip->n_joints, ==, 2);
  g_assert_cmpfloat (clip->fps, ==, 25);
  g_assert_null (sq_props_get (clip->extra, "ticks_at_top"));
  g_assert_cmpstr (g_variant_get_string (sq_props_get (clip->extra, "set_name"), NULL), ==, "BlenderAnim_Armature0");
  g_assert_cmpstr (clip->joints[0].name, ==, "aw_pelvis");
  g_assert_cmpstr (clip->joints[1].name, ==, "aw_knee_l");
  g_assert_cmpfloat (clip->duration, ==, 99.0 / 25);

  t = &clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION];
  g_assert_cmpuint (t->n_keys, ==, 3);
  g_assert_cmpfloat (sq_track_time (t, 1), ==, 14.0 / 25);
  g_assert_cmpfloat (sq_track_key (t, 1).v[1], ==, 0.013172);
  g_assert_true (signbit (sq_track_key (t, 2).v[0]));
  t = &clip->joints[0].tracks[SQ_CHANNEL_ROTATION];
  g_assert_cmpuint (t->n_keys, ==, 2);
  g_assert_cmpfloat (sq_track_time (t, 1), ==, 2.0);
  g_assert_cmpfloat (sq_track_key (t, 1).v[0], ==, 0.876362);   /* w first, as stored */
  g_assert_cmpfloat (sq_track_key (t, 1).v[3], ==, 0.024572);

  t = &clip->joints[1].tracks[SQ_CHANNEL_ROTATION];
  g_assert_cmpuint (t->n_keys, ==, 2);
  g_assert_cmpfloat (sq_track_time (t, 0), ==, 0.0);
  g_assert_cmpfloat (sq_track_key (t, 1).v[1], ==, -0.061619);
  g_assert_cmpfloat (sq_track_key (&clip->joints[1].tracks[SQ_CHANNEL_SCALE], 0).v[2], ==, 2.0);
  v = sq_props_get (clip->joints[1].extra, "animation_options");
  g_assert_nonnull (v);
  g_assert_cmpstr (g_variant_get_string (sq_props_get (clip->joints[1].extra, "animation_name"), NULL), ==, "knee");

  /* unedited: exact through the source copy; written: the same clip */
  {
    g_autoptr(GBytes) same = sq_save_bytes (clip, clip->format, NULL, NULL, NULL);
    g_autoptr(GBytes) out = assert_written_well (clip);
    g_autoptr(SqClip) back = tu_load_ok (out);

    g_assert_cmpmem (g_bytes_get_data (same, NULL), g_bytes_get_size (same), aw_example, strlen (aw_example));
    g_assert_true (sq_clip_equal (clip, back));
  }
}

static void
test_matrix_keys (void)
{
  /* a 90° turn about z, scale 2, translation (1, 2, 3), in D3D row-vector layout */
  const char *text =
    "xof 0302txt 0064\n"
    "AnimTicksPerSecond fps { 10; }\n"
    "AnimationSet { Animation { { bone } AnimationKey { 4; 1;\n"
    "  5;16;0,2,0,0, -2,0,0,0, 0,0,2,0, 1,2,3,1;;; } } }\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = tu_load_text (text, "dx", &error);
  const SqJoint *j;
  double s = sqrt (0.5);

  g_assert_no_error (error);
  g_assert_true (sq_clip_check (clip, NULL));
  j = &clip->joints[0];
  g_assert_cmpuint (j->tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 1);
  g_assert_cmpfloat (sq_track_time (&j->tracks[SQ_CHANNEL_ROTATION], 0), ==, 0.5);
  g_assert_cmpfloat_with_epsilon (fabs (sq_track_key (&j->tracks[SQ_CHANNEL_ROTATION], 0).v[0]), s, 1e-12);
  g_assert_cmpfloat_with_epsilon (fabs (sq_track_key (&j->tracks[SQ_CHANNEL_ROTATION], 0).v[3]), s, 1e-12);
  g_assert_cmpfloat (sq_track_key (&j->tracks[SQ_CHANNEL_SCALE], 0).v[0], ==, 2.0);
  g_assert_cmpfloat (sq_track_key (&j->tracks[SQ_CHANNEL_TRANSLATION], 0).v[2], ==, 3.0);
  g_assert_nonnull (sq_props_get (clip->extra, "header"));
  g_assert_true (sq_props_get_bool (clip->extra, "ticks_at_top", FALSE));
  g_assert_cmpstr (g_variant_get_string (sq_props_get (clip->extra, "ticks_name"), NULL), ==, "fps");
  g_bytes_unref (assert_written_well (clip));

  /* shear is read with a warning */
  {
    const char *sheared =
      "xof 0303txt 0032\n"
      "AnimationSet { Animation { { bone } AnimationKey { 3; 1;\n"
      "  0;16;1,0,0,0, 1,1,0,0, 0,0,1,0, 0,0,0,1;;; } } }\n";
    g_autoptr(SqClip) c2 = tu_load_text (sheared, "dx", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (c2->warnings->len, >=, 1);
    g_assert_cmpfloat (c2->fps, ==, 30);    /* the default */
  }
}

static void
test_from_seq (void)
{
  g_autoptr(SqClip) seq = tu_load_text ("xof 0303txt 0032\n"
                                     "AnimationSet a { Animation { {p} AnimationKey { 0; 1; 0;4;1,0,0,0;;; } } }", "dx", NULL);
  g_autoptr(GBytes) text = tu_save (seq, "seq-text", NULL);
  g_autoptr(SqClip) clip = tu_load_ok (text);
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GBytes) out = sq_save_bytes (clip, sq_format_by_id ("dx"), NULL, losses, NULL);
  g_autoptr(SqClip) back = tu_load_ok (out);

  g_assert_cmpuint (back->n_joints, ==, 1);
  g_assert_cmpuint (back->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 2);
  g_assert_cmpfloat (back->fps, ==, 30);
  /* text SEQ's 33 ms is 1/30 s again */
  g_assert_cmpfloat (sq_track_time (&back->joints[0].tracks[SQ_CHANNEL_ROTATION], 1), ==, 1.0 / 30);
  g_bytes_unref (assert_written_well (back));
}

/* frame `i` of a "frames" extra: its name and parent, its matrix (16
 * numbers, held by *m) */
static const double *
frame_at (GVariant    *frames,
          gsize        i,
          const char **name,
          gint32      *parent,
          GVariant   **m)
{
  gsize len;
  const double *v;

  g_clear_pointer (m, g_variant_unref);
  g_variant_get_child (frames, i, "(&si@ad)", name, parent, m);
  v = g_variant_get_fixed_array (*m, &len, sizeof (double));
  g_assert_cmpuint (len, ==, 16);
  return v;
}

/* The Frame hierarchy is kept as the "frames" extra: names, nesting (a
 * parent's index), FrameTransformMatrix (identity when a frame has none or
 * a bad one, which is a warning); a Mesh inside a frame is skipped; a
 * frame cut short is an error naming where it opened */
static void
test_frames (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = tu_load_text ("xof 0303txt 0032\n"
                                         "template Frame { <3d82ab46-62da-11cf-ab39-0020af71e433> [...] }\n"
                                         "Frame top {\n"
                                         " FrameTransformMatrix { 1,0,0,0, 0,1,0,0, 0,0,1,0, 1.5,2,-3,1;; }\n"
                                         " Mesh m { 1; 0;0;0;; 1; 3;0,0,0;; }\n"
                                         " Frame child { FrameTransformMatrix { 0,1,0,0, -1,0,0,0, 0,0,1,0, 0,4,0,1;; } }\n"
                                         " Frame bad { FrameTransformMatrix { 1, 2, x; } }\n"
                                         "}\n"
                                         "Frame { }\n"
                                         "AnimationSet a { Animation { {child} AnimationKey { 0; 1; 0;4;1,0,0,0;;; } } }",
                                         "dx", &error);
  g_autoptr(GVariant) m = NULL;
  GVariant *frames;
  const char *name;
  gint32 parent;
  const double *v;

  g_assert_no_error (error);
  frames = sq_props_get (clip->extra, "frames");
  g_assert_nonnull (frames);
  g_assert_cmpuint (g_variant_n_children (frames), ==, 4);
  v = frame_at (frames, 0, &name, &parent, &m);
  g_assert_cmpstr (name, ==, "top");
  g_assert_cmpint (parent, ==, -1);
  g_assert_cmpfloat (v[12], ==, 1.5);
  g_assert_cmpfloat (v[14], ==, -3.0);
  v = frame_at (frames, 1, &name, &parent, &m);
  g_assert_cmpstr (name, ==, "child");
  g_assert_cmpint (parent, ==, 0);
  g_assert_cmpfloat (v[1], ==, 1.0);
  g_assert_cmpfloat (v[13], ==, 4.0);
  v = frame_at (frames, 2, &name, &parent, &m);
  g_assert_cmpstr (name, ==, "bad");
  g_assert_cmpint (parent, ==, 0);
  g_assert_cmpfloat (v[0], ==, 1.0);
  g_assert_cmpfloat (v[1], ==, 0.0);
  frame_at (frames, 3, &name, &parent, &m);
  g_assert_cmpstr (name, ==, "");
  g_assert_cmpint (parent, ==, -1);
  g_assert_true (tu_has_line (clip->warnings, "line 7: the FrameTransformMatrix of frame “bad” is not 16 numbers"));

  /* cut short inside a frame */
  {
    g_autoptr(SqClip) cut = tu_load_text ("xof 0303txt 0032\nFrame top {\n Frame child {\n  FrameTransformMatrix { 1,0,0",
                                          "dx", &error);
    g_assert_null (cut);
    g_assert_error (error, SQ_ERROR, SQ_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (error->message, "opened at line 4, column 24"));
  }
}

typedef struct
{
  const char *text;
  SqErrorCode code;
  const char *where;
} BadCase;

static const BadCase bad_cases[] = {
  { "", SQ_ERROR_BAD_MAGIC, "line 1, column 1" },
  { "xof 0303bin 0032\n", SQ_ERROR_UNSUPPORTED, "line 1, column 9" },
  { "xof 0303txt 0016\n", SQ_ERROR_UNSUPPORTED, "line 1, column 13" },
  { "xof 0303txt 0032\nFrame a { }\n", SQ_ERROR_UNSUPPORTED, "line 3" },
  { "xof 0303txt 0032\nAnimationSet {\n Animation {\n", SQ_ERROR_TRUNCATED, "line 4" },
  { "xof 0303txt 0032\nAnimationSet { }\n}\n", SQ_ERROR_SYNTAX, "line 3, column 1" },
  { "xof 0303txt 0032\nFrame a { { }\nAnimationSet { }\n", SQ_ERROR_TRUNCATED, "line 4" },
  { "xof 0303txt 0032\nAnimationSet { Animation { {a} AnimationKey { 0; 400000000;\n0;4;1,0,0,0;;; } } }\n",
    SQ_ERROR_LIMIT_EXCEEDED, "line 2, column 50" },
  { "xof 0303txt 0032\nAnimationSet { Animation { {a} AnimationKey { 0; 99999999999;\n", SQ_ERROR_SYNTAX, "line 2, column 50" },
  { "xof 0303txt 0032\nAnimationSet { Animation { {a}\n  AnimationKey { 7; 1; 0;4;1,0,0,0;;; } } }\n",
    SQ_ERROR_BAD_VALUE, "line 3, column 18" },
  { "xof 0303txt 0032\nAnimationSet { Animation { {a} AnimationKey { 0; 1; 0;3;1,0,0;;; } } }\n",
    SQ_ERROR_BAD_VALUE, "line 2, column 55" },
  { "xof 0303txt 0032\nAnimationSet { Animation { {a} AnimationKey { 0; 2; 0;4;1,0,0,0;;; } } }\n",
    SQ_ERROR_SYNTAX, "line 2, column 68" },
  { "xof 0303txt 0032\nAnimationSet { Animation { {a} AnimationKey { 0; 1; 0;4;1,x,0,0;;; } } }\n",
    SQ_ERROR_SYNTAX, "line 2, column 59" },
  { "xof 0303txt 0032\nAnimationSet { Animation { {a} AnimationKey { 0; 1; 0;4;1,0,0,nan;;; } } }\n",
    SQ_ERROR_SYNTAX, "line 2, column 63" },
  { "xof 0303txt 0032\nAnimationSet { Animation { {a} AnimationKey { 0; 1; -1;4;1,0,0,0;;; } } }\n",
    SQ_ERROR_SYNTAX, "line 2, column 53" },
  { "xof 0303txt 0032\nAnimTicksPerSecond { 0; }\nAnimationSet { }\n", SQ_ERROR_BAD_VALUE, "line 2, column 22" },
  { "xof 0303txt 0032\nAnimationSet { Animation { {a} AnimationKey { 0; 1; 0;4;1,0,0", SQ_ERROR_TRUNCATED, "line 2" },
  { "xof 0303txt 0032\nMaterial m { \"tex}.png\n", SQ_ERROR_TRUNCATED, "line 2, column 14" },
  { "xof 0303txt 0032\nAnimationSet x y z {\n", SQ_ERROR_SYNTAX, "line 2, column 18" },
  { "xof 0303txt 0032\nAnimationSet { Animation { {} } }\n", SQ_ERROR_SYNTAX, "line 2, column 29" },
};

static void
test_errors (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SqClip) clip = tu_load_text (bad_cases[i].text, "dx", &error);

      g_test_message ("case %u: %s", i, error ? error->message : "(no error)");
      g_assert_null (clip);
      g_assert_error (error, SQ_ERROR, (gint) bad_cases[i].code);
      g_assert_nonnull (strstr (error->message, bad_cases[i].where));
    }
}

static void
test_deep_nesting (void)
{
  GString *s = g_string_new ("xof 0303txt 0032\nFrame a ");
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GBytes) bytes = NULL;

  for (guint i = 0; i < 10000; i++)
    g_string_append (s, "{ ");
  for (guint i = 0; i < 10000; i++)
    g_string_append (s, "} ");
  g_string_append (s, "\nAnimationSet { }\n");
  bytes = g_string_free_to_bytes (s);
  clip = sq_load_bytes (bytes, NULL, NULL, NULL, &error);
  g_assert_null (clip);
  g_assert_error (error, SQ_ERROR, SQ_ERROR_LIMIT_EXCEEDED);
  g_assert_nonnull (strstr (error->message, "line 2"));

  /* also inside an Animation */
  {
    GString *t = g_string_new ("xof 0303txt 0032\nAnimationSet { Animation { {a} Thing ");
    g_autoptr(GBytes) b2 = NULL;
    g_autoptr(GError) e2 = NULL;
    for (guint i = 0; i < 10000; i++)
      g_string_append_c (t, '{');
    b2 = g_string_free_to_bytes (t);
    g_assert_null (sq_load_bytes (b2, NULL, NULL, NULL, &e2));
    g_assert_error (e2, SQ_ERROR, SQ_ERROR_LIMIT_EXCEEDED);
  }
}

/* A clean error or a valid clip that writes stably, for every truncation and
 * for byte changes (the robustness test runs only the SEQ samples). */
static void
try_read (const guint8 *data,
          gsize         len)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, len);
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = sq_load_bytes (bytes, NULL, sq_format_by_id ("dx"), NULL, &error);

  if (clip == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == SQ_ERROR);
      g_assert_nonnull (strstr (error->message, "line "));
      return;
    }
  g_assert_true (sq_clip_check (clip, NULL));
  /* names with control characters are changed (and reported) on writing,
   * so only the stability of what is written is required here */
  {
    SqSaveOptions opts = { .no_source_copy = TRUE };
    g_autoptr(GBytes) once = sq_save_bytes (clip, clip->format, &opts, NULL, NULL);
    g_autoptr(SqClip) back = tu_load_ok (once);
    g_autoptr(GBytes) twice = sq_save_bytes (back, clip->format, &opts, NULL, NULL);
    g_assert_true (g_bytes_equal (once, twice));
  }
}

static void
test_damage (void)
{
  g_autoptr(GPtrArray) inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  GRand *rand = g_rand_new_with_seed (4);
  static const guint8 interesting[] = { 0, '{', '}', ';', ',', ' ', '\n', '\r', '#', '/', '"', '9', '-', '.' };
  const char *dir = tu_corpus_dir ();

  g_ptr_array_add (inputs, g_bytes_new_static (aw_example, strlen (aw_example)));
  if (dir != NULL)
    {
      g_autofree char *path = g_build_filename (dir, "dx-anim", "coolguy_opt.x", NULL);
      g_ptr_array_add (inputs, tu_read (path));
    }
  for (guint i = 0; i < inputs->len; i++)
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (inputs->pdata[i], &len);
      g_autofree guint8 *copy = g_memdup2 (data, len);

      for (gsize n = 0; n < len; n += len > 4096 ? 7 : 1)
        try_read (data, n);
      for (guint round = 0; round < 2000; round++)
        {
          gsize pos = g_rand_int_range (rand, 0, (gint32) len);
          guint8 old = copy[pos];
          copy[pos] = g_rand_boolean (rand) ? interesting[g_rand_int_range (rand, 0, sizeof interesting)]
                                            : (guint8) g_rand_int_range (rand, 0, 256);
          try_read (copy, len);
          copy[pos] = old;
        }
    }
  g_rand_free (rand);
}

static void
test_detection (void)
{
  g_autoptr(GBytes) b = g_bytes_new_static (aw_example, strlen (aw_example));
  g_assert_true (sq_format_detect (b, NULL) == sq_format_by_id ("dx"));
  g_assert_true (sq_format_for_filename ("walk.X", NULL) == sq_format_by_id ("dx"));
}

/* Keys long enough for the reader's straight path (no tokens), in every
 * shape beside those it leaves to the token reading (comments, signs,
 * "#IND", keys across lines, lone CRs): each key has the values strtod
 * gives, and an error far into the file keeps its line and column */
static void
test_fast_keys (void)
{
  GRand *rand = g_rand_new_with_seed (3);
  GString *text = g_string_new ("xof 0303txt 0032\r\nAnimationSet {\r\n  Animation {\r\n    {hip}\r\n"
                                "    AnimationKey {\r\n      2;\r\n      300;\r\n");
  double want[300][3];
  guint line = 8, bad_line = 0, bad_col = 0;

  for (guint i = 0; i < 300; i++)
    {
      char num[3][48];
      const char *end = i + 1 < 300 ? ";;,\r\n" : ";;;\r\n";

      for (guint c = 0; c < 3; c++)
        {
          double v = (float) g_rand_double_range (rand, -2, 2);

          if ((i + c) % 5 == 0)
            g_snprintf (num[c], sizeof num[c], "%.17g", v);
          else if ((i + c) % 5 == 1)
            g_snprintf (num[c], sizeof num[c], "%.6f", v);
          else if ((i + c) % 5 == 2)
            g_snprintf (num[c], sizeof num[c], "%.5e", v);
          else
            g_snprintf (num[c], sizeof num[c], "%.16g", v);
          want[i][c] = g_ascii_strtod (num[c], NULL);
        }
      if (i == 250)
        {
          /* the first value is no number: reported where its word starts */
          bad_line = line;
          bad_col = 7 + strlen ("250;3;");
          g_string_append_printf (text, "      %u;3;%sq,%s,%s%s", i, num[0], num[1], num[2], end);
          line++;
          continue;
        }
      switch (i % 9)
        {
        case 4:   /* across lines, lone CR and LF */
          g_string_append_printf (text, "      %u;\r3;\n%s,\r\n%s,%s%s", i, num[0], num[1], num[2], end);
          line += 3;
          break;
        case 5:   /* a comment between the fields */
          g_string_append_printf (text, "      %u; // time\r\n 3;%s, %s ,%s%s", i, num[0], num[1], num[2], end);
          line += 1;
          break;
        case 6:   /* a sign */
          g_string_append_printf (text, "      +%u;3;%s,%s,%s%s", i, num[0], num[1], num[2], end);
          break;
        default:
          g_string_append_printf (text, "      %u;3;%s,%s,%s%s", i, num[0], num[1], num[2], end);
          break;
        }
      line++;
    }
  g_string_append (text, "    }\r\n  }\r\n}\r\n");
  g_rand_free (rand);

  {
    g_autoptr(GError) error = NULL;
    g_autofree char *good = g_strdup (text->str);
    g_autoptr(SqClip) clip = NULL;
    char *q = strstr (good, "q,");
    const SqTrack *pos;

    memmove (q, q + 1, strlen (q));     /* the same text without the error */
    clip = tu_load_text (good, "dx", &error);
    g_assert_no_error (error);
    pos = &clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION];
    g_assert_cmpuint (pos->n_keys, ==, 300);
    for (guint i = 0; i < 300; i++)
      {
        g_assert_cmpfloat (sq_track_time (pos, i), ==, i / 30.0);
        for (guint c = 0; c < 3; c++)
          g_assert_true (memcmp (&sq_track_key (pos, i).v[c], &want[i][c], sizeof (double)) == 0);
        g_assert_cmpfloat (sq_track_key (pos, i).v[3], ==, 0.0);
      }
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(SqClip) clip = tu_load_text (text->str, "dx", &error);
    g_autofree char *where = g_strdup_printf ("line %u, column %u", bad_line, bad_col);

    g_assert_null (clip);
    g_assert_error (error, SQ_ERROR, SQ_ERROR_SYNTAX);
    g_test_message ("%s (expected %s)", error->message, where);
    g_assert_nonnull (strstr (error->message, where));
  }
  g_string_free (text, TRUE);
}

/* The reader leaves each AnimationKey's keys for later and reads on from
 * the first "}" after them, with the lines counted up to it; a block then
 * checks that it does end there, and when it does not (a "}" in a comment,
 * line ends it cannot count ahead), the file is read again in place.
 * Either way the clip, the warnings and the first error (with its line and
 * column) are those of reading in order. Each text is read as it is ('@'
 * taken out), on one thread and on four, and with a "}" in a comment at
 * the '@', which makes the whole file read in place. */
typedef struct
{
  const char *text;
  SqErrorCode code;             /* 0: read */
  const char *where;            /* the error's place */
  gboolean    nul;              /* the text goes on after a NUL byte */
} DeferCase;

static const DeferCase defer_cases[] = {
  /* CRLF, CR alone, LF alone, each in a block: the line after them */
  { "xof 0303txt 0032\r\nAnimationSet {\r\n Animation { {a}\r\n  AnimationKey { 0; 2;\r\n   0;4;1,0,0,0;;,@\r\n"
    "   1;4;1,0,0,0;;; }\r  AnimationKey { 2; 2;\r 0;3;1,2,3;;,\r 1;3;1,2,3;;; }\n AnimationKey { 1; 2;\n"
    " 0;3;1,1,1;;,\n 5;3;1,1,1;;; }\n }\r\n Animation { {b} }\r\n x }\r\n",
    SQ_ERROR_SYNTAX, "line 15, column 4:" },
  /* LF then CR alone ("\n\r") in one block: counted when read in place */
  { "xof 0303txt 0032\nAnimationSet {\n Animation { {a}\n  AnimationKey { 0; 2;\n   0;4;1,0,0,0;;,@\n\r"
    "   1;4;1,0,0,0;;;\n\r }\n }\n x }\n",
    SQ_ERROR_SYNTAX, "line 11, column 4:" },
  /* a "}" in a comment late in a block: the first pass reads on from it
   * (and meets a word where it wants "{"), the block does not end there */
  { "xof 0303txt 0032\nAnimationSet { Animation { {a} AnimationKey { 0; 1;\n 0;4;1,0,0,0;; // } x\n } } }\n", 0,
    NULL },
  /* the same, a block further, with an error in that block */
  { "xof 0303txt 0032\nAnimationSet { Animation { {a} AnimationKey { 0; 1;\n 0;4;1,0,0,0;;;@\n }\n"
    "AnimationKey { 2; 2; 0;3;1,2,3;; // } x\n 1;3;1,2,q;;; } } }\n",
    SQ_ERROR_SYNTAX, "line 6, column 10:" },
  /* a NUL byte in a comment in a block, after an error in an earlier block */
  { "xof 0303txt 0032\nAnimationSet { Animation { {a} AnimationKey { 0; 1;\n 0;4;1,0,0,q;;;@\n }\n"
    "AnimationKey { 2; 1; 0;3;1,2,3;;; // \0\n } } }\n",
    SQ_ERROR_SYNTAX, "line 5, column 38:", TRUE },
  /* a block's error comes before the first pass's later one */
  { "xof 0303txt 0032\nAnimationSet { Animation { {a} AnimationKey { 0; 2;\n 0;4;1,0,0,0;;,@\n 1;4;1,0,-,0;;; }\n"
    "AnimationOptions { 1; x; } } }\n",
    SQ_ERROR_SYNTAX, "line 4, column 10:" },
  /* the first pass's error before a block's later one */
  { "xof 0303txt 0032\nAnimationSet { Animation { {a} AnimationKey { 0; 2;\n 0;4;1,0,0,0;;,@\n 1;4;1,0,0,0;;; }\n"
    "AnimationOptions { 1; x; } AnimationKey { 0; 1; 0;4;q;;; } } }\n",
    SQ_ERROR_SYNTAX, "line 5, column 23:" },
  /* no keys; the last value against the "}"; a count beyond the keys */
  { "xof 0303txt 0032\nAnimationSet { Animation { {a} AnimationKey { 0; 1;\n 0;4;1,0,0,0;;;@\n }\n"
    "AnimationKey { 2; 0; } AnimationKey { 1; 1; 3;3;1,2,3} } }\n", 0, NULL },
  { "xof 0303txt 0032\nAnimationSet { Animation { {a} AnimationKey { 0; 1;\n 0;4;1,0,0,0;;;@\n }\n"
    "AnimationKey { 2; 2; 0;3;1,2,3;;; } } }\n", SQ_ERROR_SYNTAX, "line 5, column 35:" },
  /* warnings from the blocks among the others, in the order of the file */
  { "xof 0303txt 0032\nAnimationSet { Animation { {a} AnimationKey { 0; 2;\n 0;4;1,0,0,0;;,@\n 1;4;1,0,-1.#IND,0;;; }\n"
    "AnimationKey { 4; 1; 0;16;1,0,0,0,0,3,0,0,0,0,1,0,0,0,0,1;;; } {b} }\n"
    "Animation { AnimationKey { 0; 1; 7;4;1,-1.#QNAN0,0,0;;; } }\n"
    "AnimationKey { 0; 1; 7;4;1,0,0,0;;; } }\n", 0, NULL },
};

static void
test_deferred_blocks (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (defer_cases); i++)
    {
      const DeferCase *dc = &defer_cases[i];
      gsize len = strlen (dc->text);
      SqClip *clips[3] = { NULL, NULL, NULL };
      GError *errors[3] = { NULL, NULL, NULL };

      if (dc->nul)
        len += strlen (dc->text + len + 1) + 1;
      for (guint way = 0; way < 3; way++)
        {
          GString *t = g_string_sized_new (len + 8);
          g_autoptr(GBytes) bytes = NULL;

          for (gsize k = 0; k < len; k++)
            if (dc->text[k] != '@')
              g_string_append_c (t, dc->text[k]);
            else if (way == 2)
              g_string_append (t, " // }");
          bytes = g_string_free_to_bytes (t);
          _sq_parallel_set_limits (way == 1 ? 1 : SQ_PARALLEL_MIN_BYTES, way == 1 ? 4 : 0);
          clips[way] = sq_load_bytes (bytes, NULL, sq_format_by_id ("dx"), NULL, &errors[way]);
          _sq_parallel_set_limits (SQ_PARALLEL_MIN_BYTES, 0);
        }
      g_test_message ("case %u: %s", i, errors[0] ? errors[0]->message : "read");
      if (dc->code == 0)
        {
          g_assert_no_error (errors[0]);
          g_assert_true (sq_clip_check (clips[0], NULL));
          for (guint w = 0; w < clips[0]->warnings->len; w++)
            g_test_message ("  %s", (const char *) clips[0]->warnings->pdata[w]);
        }
      else
        {
          g_assert_error (errors[0], SQ_ERROR, (gint) dc->code);
          g_assert_true (g_str_has_prefix (errors[0]->message, dc->where));
        }
      for (guint way = 1; way < 3; way++)
        {
          g_assert_true ((clips[way] == NULL) == (clips[0] == NULL));
          if (clips[0] != NULL)
            {
              g_assert_true (sq_clip_equal (clips[0], clips[way]));
              g_assert_cmpuint (clips[0]->warnings->len, ==, clips[way]->warnings->len);
              for (guint w = 0; w < clips[0]->warnings->len; w++)
                g_assert_cmpstr (clips[0]->warnings->pdata[w], ==, clips[way]->warnings->pdata[w]);
            }
          else
            {
              g_assert_error (errors[way], SQ_ERROR, (gint) dc->code);
              g_assert_cmpstr (errors[0]->message, ==, errors[way]->message);
            }
        }
      if (i == 2)
        {
          g_assert_cmpuint (clips[0]->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 1);
          g_assert_cmpuint (clips[0]->warnings->len, ==, 0);
        }
      if (i == 7)
        {
          g_assert_cmpuint (clips[0]->joints[0].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, 0);
          g_assert_cmpfloat (sq_track_key (&clips[0]->joints[0].tracks[SQ_CHANNEL_SCALE], 0).v[2], ==, 3.0);
          g_assert_cmpfloat (clips[0]->duration, ==, 0.1);
        }
      if (i == 9)
        {
          /* the first "#IND", not the second Animation's "#QNAN"; the
           * first pass's warning, then the matrix keys' (at the end of
           * their Animation); the AnimationKey outside an Animation is
           * skipped; the matrix key's tick is the first rotation's */
          GPtrArray *w = clips[0]->warnings;

          g_assert_cmpuint (w->len, ==, 5);
          g_assert_true (g_str_has_prefix (w->pdata[0], "line 4: “-1.#IND”"));
          g_assert_true (g_str_has_prefix (w->pdata[1], "line 5: a second frame reference"));
          g_assert_nonnull (strstr (w->pdata[2], "joint “a”: matrix keys with non-uniform scale"));
          g_assert_true (g_str_has_prefix (w->pdata[3], "line 6: an Animation names no frame"));
          g_assert_nonnull (strstr (w->pdata[4], "joint “a”: 1 keys repeat the tick"));
          g_assert_cmpuint (clips[0]->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 2);
        }
      for (guint way = 0; way < 3; way++)
        {
          g_clear_error (&errors[way]);
          g_clear_pointer (&clips[way], sq_clip_free);
        }
    }

  /* many small blocks (past some thousands the file is read in place) */
  for (guint n = 2000; n <= 6000; n += 4000)
    {
      GString *t = g_string_new ("xof 0303txt 0032\nAnimationSet {\n");
      g_autoptr(SqClip) clip = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *prefix = g_strdup_printf ("Animation { {j%u} AnimationKey { 2; 1; %u;3;1,2,", n - 1, n - 1);
      g_autofree char *where = g_strdup_printf ("line %u, column %zu:", n + 2, strlen (prefix) + 1);

      for (guint j = 0; j < n; j++)
        g_string_append_printf (t, "Animation { {j%u} AnimationKey { 2; 1; %u;3;1,2,%u;;; } }\n", j, j, j);
      g_string_append (t, "}\n");
      clip = tu_load_text (t->str, "dx", &error);
      g_assert_no_error (error);
      g_assert_cmpuint (clip->n_joints, ==, n);
      g_assert_cmpfloat (sq_track_key (&clip->joints[n - 1].tracks[SQ_CHANNEL_TRANSLATION], 0).v[2], ==, n - 1);
      g_assert_cmpfloat (clip->duration, ==, (n - 1) / 30.0);
      g_clear_pointer (&clip, sq_clip_free);
      t->str[t->len - 11] = 'x';        /* in the last value */
      clip = tu_load_text (t->str, "dx", &error);
      g_assert_null (clip);
      g_assert_error (error, SQ_ERROR, SQ_ERROR_SYNTAX);
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message, where));
      g_string_free (t, TRUE);
    }
}

/* The bytes of the AnimationSet named `name` in `data` (from its word to
 * its closing brace), found by brace counting */
static GBytes *
set_text (GBytes     *bytes,
          const char *name)
{
  gsize len, depth = 0;
  const char *d = g_bytes_get_data (bytes, &len);
  g_autofree char *head = g_strconcat ("\nAnimationSet ", name, " {", NULL);
  const char *start = g_strstr_len (d, len, head), *p;

  g_assert_nonnull (start);
  start++;
  for (p = strchr (start, '{'); p < d + len; p++)
    if (*p == '{')
      depth++;
    else if (*p == '}' && --depth == 0)
      break;
  g_assert_true (p < d + len);
  return g_bytes_new (start, p + 1 - start);
}

static SqClip *
load_take (GBytes  *bytes,
           guint    take,
           GError **error)
{
  SqLoadOptions options = { 0 };

  options.take = take;
  return sq_load_bytes (bytes, NULL, sq_format_by_id ("dx"), &options, error);
}

/* Testwuson.X's three AnimationSets are takes: each can be read, an
 * unedited one saves back byte for byte, an edited one is written in its
 * place with the others as they were, and a take the file lacks fails */
static void
test_takes (void)
{
  g_autofree char *path = g_build_filename (tu_corpus_dir (), "dx-anim", "Testwuson.X", NULL);
  g_autoptr(GBytes) bytes = tu_read (path);
  static const char * const names[] = { "Wuson_Run", "Wuson_Walk", "Wuson_Bind" };
  /* counted from the sets' AnimationKey headers */
  static const gsize rot[] = { 906, 3357, 39 };
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) walk = NULL;
  g_autoptr(SqClip) none = NULL;
  g_autoptr(GBytes) same = NULL, written = NULL;
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  SqSaveOptions opts = { .no_source_copy = TRUE };
  const char * const *takes;
  gsize n;
  guint take;
  SqKey *key;

  for (guint t = 0; t < 3; t++)
    {
      g_autoptr(SqClip) clip = load_take (bytes, t, &error);
      GVariant *v;

      g_assert_no_error (error);
      g_assert_true (sq_clip_check (clip, NULL));
      takes = sq_clip_get_takes (clip, &n, &take);
      g_assert_cmpuint (n, ==, 3);
      g_assert_cmpuint (take, ==, t);
      for (guint i = 0; i < 3; i++)
        g_assert_cmpstr (takes[i], ==, names[i]);
      g_assert_cmpstr (g_variant_get_string (sq_props_get (clip->extra, "set_name"), NULL), ==, names[t]);
      g_assert_cmpuint (count_channel (clip, SQ_CHANNEL_ROTATION), ==, rot[t]);
      v = sq_props_get (clip->extra, "other_sets");
      g_assert_cmpuint (g_variant_n_children (v), ==, 2);
      /* the reader no longer warns about the other sets: they are takes */
      g_assert_false (tu_has_line (clip->warnings, "AnimationSet"));
      same = sq_save_bytes (clip, clip->format, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (g_bytes_equal (same, bytes));
      g_clear_pointer (&same, g_bytes_unref);
    }

  walk = load_take (bytes, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (walk->n_joints, ==, 39);
  g_assert_cmpfloat_with_epsilon (walk->duration, 17280.0 / 4800, 1e-12);
  /* edited: a rotation of the first joint */
  key = &sq_track_unpack (&walk->joints[0].tracks[SQ_CHANNEL_ROTATION])[0];
  key->v[0] = 0.5;
  walk->generation++;
  written = sq_save_bytes (walk, walk->format, &opts, losses, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < losses->len; i++)
    g_assert_null (strstr (losses->pdata[i], "AnimationSet"));
  /* the other sets are there as they were read, in their order */
  for (guint i = 0; i < 3; i += 2)
    {
      g_autoptr(GBytes) a = set_text (bytes, names[i]);
      g_autoptr(GBytes) b = set_text (written, names[i]);

      g_assert_true (g_bytes_equal (a, b));
    }
  {
    const char *w = g_bytes_get_data (written, NULL);
    const char *run = strstr (w, "AnimationSet Wuson_Run {");
    const char *walk_at = strstr (w, "AnimationSet Wuson_Walk {");
    const char *bind = strstr (w, "AnimationSet Wuson_Bind {");

    g_assert_true (run != NULL && walk_at != NULL && bind != NULL);
    g_assert_true (run < walk_at && walk_at < bind);
  }
  /* read back: the edited take holds the edit, the others what they held */
  for (guint t = 0; t < 3; t++)
    {
      g_autoptr(SqClip) back = load_take (written, t, &error);
      g_autoptr(SqClip) orig = load_take (bytes, t, NULL);

      g_assert_no_error (error);
      takes = sq_clip_get_takes (back, &n, NULL);
      g_assert_cmpuint (n, ==, 3);
      g_assert_cmpstr (takes[t], ==, names[t]);
      if (t == 1)
        {
          g_assert_cmpfloat (sq_track_key (&back->joints[0].tracks[SQ_CHANNEL_ROTATION], 0).v[0], ==, 0.5);
          g_assert_cmpuint (count_channel (back, SQ_CHANNEL_ROTATION), ==, rot[1]);
        }
      else
        {
          g_assert_cmpuint (back->n_joints, ==, orig->n_joints);
          for (gsize j = 0; j < orig->n_joints; j++)
            for (guint c = 0; c < SQ_N_CHANNELS; c++)
              {
                const SqTrack *a = &orig->joints[j].tracks[c], *b = &back->joints[j].tracks[c];

                g_assert_cmpuint (a->n_keys, ==, b->n_keys);
                for (gsize k = 0; k < a->n_keys; k++)
                  {
                    SqKey ka = sq_track_key (a, k), kb = sq_track_key (b, k);

                    g_assert_cmpmem (&ka, sizeof ka, &kb, sizeof kb);
                  }
              }
        }
    }

  /* no loss about the other sets' ticks while the rate stays */
  g_assert_false (tu_has_line (losses, "the other AnimationSets take the file's AnimTicksPerSecond"));
  /* the file's ticks (at its top level) are every set's: another rate for
   * set 2 is theirs too, said */
  {
    g_autoptr(GPtrArray) rate_losses = g_ptr_array_new_with_free_func (g_free);
    g_autoptr(GBytes) faster = NULL;
    g_autoptr(SqClip) run_back = NULL;

    g_assert_cmpuint (sq_props_get_uint (walk->extra, "other_sets_ticks", 0), ==, 4800);
    walk->fps = 2400;
    walk->generation++;
    faster = sq_save_bytes (walk, walk->format, &opts, rate_losses, &error);
    g_assert_no_error (error);
    g_assert_true (tu_has_line (rate_losses, "the other AnimationSets take the file's AnimTicksPerSecond too: they "
                                             "play at 2400 ticks per second instead of 4800"));
    run_back = load_take (faster, 0, &error);
    g_assert_no_error (error);
    g_assert_cmpfloat (run_back->fps, ==, 2400);
  }

  /* a take the file does not have */
  none = load_take (bytes, 3, &error);
  g_assert_null (none);
  g_assert_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "there is no AnimationSet 4: the file has 3"));
}

/* Two small sets, the second unnamed, each with its own ticks: the second
 * taken, written after the first as it was read */
static void
test_takes_small (void)
{
  static const char text[] =
    "xof 0303txt 0032\n"
    "AnimationSet first {\n AnimTicksPerSecond { 24; }\n"
    " Animation { {j} AnimationKey { 2; 1; 0;3;1,2,3;;; } }\n}\n"
    "AnimationSet {\n AnimTicksPerSecond { 30; }\n"
    " Animation { {k} AnimationKey { 2; 2; 0;3;0,0,0;;, 30;3;1,1,1;;; } }\n}\n";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, sizeof text - 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) second = load_take (bytes, 1, &error);
  g_autoptr(SqClip) back = NULL;
  g_autoptr(SqClip) first = NULL;
  g_autoptr(GBytes) written = NULL;
  SqSaveOptions opts = { .no_source_copy = TRUE };
  const char * const *takes;
  gsize n;
  const char *w;

  g_assert_no_error (error);
  takes = sq_clip_get_takes (second, &n, NULL);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (takes[0], ==, "first");
  g_assert_cmpstr (takes[1], ==, "");
  g_assert_cmpfloat (second->fps, ==, 30);
  g_assert_cmpuint (second->n_joints, ==, 1);
  g_assert_cmpstr (second->joints[0].name, ==, "k");
  g_assert_cmpfloat (second->duration, ==, 1.0);

  written = sq_save_bytes (second, second->format, &opts, NULL, &error);
  g_assert_no_error (error);
  w = g_bytes_get_data (written, NULL);
  /* the first set's own bytes (LF lines and all), before the clip's */
  g_assert_nonnull (strstr (w, "AnimationSet first {\n AnimTicksPerSecond { 24; }\n"
                                " Animation { {j} AnimationKey { 2; 1; 0;3;1,2,3;;; } }\n}\r\n\r\nAnimationSet {"));
  back = load_take (written, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (back->joints[0].name, ==, "k");
  g_assert_cmpfloat (back->fps, ==, 30);
  first = load_take (written, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (first->joints[0].name, ==, "j");
  g_assert_cmpfloat (first->fps, ==, 24);
}

/* The top-level objects of the file other than AnimationSets, in order:
 * "type@sets-before" for each, read back from `clip`'s "other_blocks" */
static char *
kept_layout (const SqClip *clip)
{
  GVariant *blocks = sq_props_get (clip->extra, "other_blocks");
  GString *out = g_string_new (NULL);

  for (gsize i = 0; blocks != NULL && i < g_variant_n_children (blocks); i++)
    {
      const char *type;
      guint32 at;

      g_variant_get_child (blocks, i, "(u&s@ay)", &at, &type, NULL);
      g_string_append_printf (out, "%s@%u ", type, at);
    }
  return g_string_free (out, FALSE);
}

/* An edited .x keeps every top-level object of the file (frames, meshes,
 * templates) as it was read, in its place among the sets: the edit is the
 * only change. A small file, written by hand, then every corpus file. */
static void
test_kept_objects (void)
{
  static const char text[] =
    "xof 0303txt 0032\n"
    "template Thing {\n <01234567-89ab-cdef-0123-456789abcdef>\n DWORD n;\n}\n"
    "Frame root {\n FrameTransformMatrix { 1,0,0,0, 0,1,0,0, 0,0,1,0, 0,2,0,1;; }\n"
    " Frame arm { Mesh { 1; 0;0;0;; 0; } }\n}\n"
    "AnimationSet first {\n Animation { {root} AnimationKey { 2; 1; 0;3;1,2,3;;; } }\n}\n"
    "Material red { 1;0;0;1;; 0; 0;0;0;; 0;0;0;; }\n"
    "AnimationSet second {\n Animation { {arm} AnimationKey { 2; 2; 0;3;0,0,0;;, 30;3;1,1,1;;; } }\n}\n"
    "Thing last { 7; }\n";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, sizeof text - 1);
  SqSaveOptions opts = { .no_source_copy = TRUE };
  g_autoptr(GPtrArray) files = tu_corpus_files ("dx-anim");

  for (guint t = 0; t < 2; t++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SqClip) clip = load_take (bytes, t, &error);
      g_autoptr(SqClip) back = NULL;
      g_autoptr(GBytes) written = NULL;
      g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
      g_autofree char *layout = NULL;
      g_autofree char *layout_back = NULL;
      const char *w;

      g_assert_no_error (error);
      layout = kept_layout (clip);
      g_assert_cmpstr (layout, ==, "template@0 Frame@0 Material@1 Thing@2 ");
      /* edited: the clip's first key */
      sq_track_unpack (&clip->joints[0].tracks[SQ_CHANNEL_TRANSLATION])[0].v[0] = 5;
      clip->generation++;
      written = sq_save_bytes (clip, clip->format, &opts, losses, &error);
      g_assert_no_error (error);
      for (guint i = 0; i < losses->len; i++)
        g_test_message ("loss: %s", (const char *) losses->pdata[i]);
      g_assert_false (tu_has_line (losses, "frames, meshes"));
      g_assert_false (tu_has_line (losses, "the file's frames have none"));
      w = g_bytes_get_data (written, NULL);
      /* each object's own bytes, in the file's order around the sets */
      {
        const char *tmpl = strstr (w, "template Thing {\n <01234567-89ab-cdef-0123-456789abcdef>\n DWORD n;\n}");
        const char *frame = strstr (w, "Frame root {\n FrameTransformMatrix { 1,0,0,0, 0,1,0,0, 0,0,1,0, 0,2,0,1;; }\n"
                                       " Frame arm { Mesh { 1; 0;0;0;; 0; } }\n}");
        const char *set1 = strstr (w, "AnimationSet first");
        const char *material = strstr (w, "Material red { 1;0;0;1;; 0; 0;0;0;; 0;0;0;; }");
        const char *set2 = strstr (w, "AnimationSet second");
        const char *last = strstr (w, "Thing last { 7; }");

        g_assert_true (tmpl != NULL && frame != NULL && set1 != NULL && material != NULL && set2 != NULL
                       && last != NULL);
        g_assert_true (tmpl < frame && frame < set1 && set1 < material && material < set2 && set2 < last);
      }
      back = load_take (written, t, &error);
      g_assert_no_error (error);
      layout_back = kept_layout (back);
      g_assert_cmpstr (layout_back, ==, layout);
      g_assert_cmpfloat (sq_track_key (&back->joints[0].tracks[SQ_CHANNEL_TRANSLATION], 0).v[0], ==, 5);
      g_assert_true (g_variant_equal (sq_props_get (back->extra, "frames"), sq_props_get (clip->extra, "frames")));
      g_assert_true (g_variant_equal (sq_props_get (back->extra, "other_objects"),
                                      sq_props_get (clip->extra, "other_objects")));
    }

  /* a joint renamed: its animation refers to a frame the file lacks, said */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(SqClip) clip = load_take (bytes, 0, &error);
    g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
    g_autoptr(GBytes) written = NULL;

    g_free (clip->joints[0].name);
    clip->joints[0].name = g_strdup ("renamed");
    clip->generation++;
    written = sq_save_bytes (clip, clip->format, &opts, losses, &error);
    g_assert_no_error (error);
    g_assert_true (tu_has_line (losses, "joint “renamed”: the file's frames have none of that name"));
  }

  /* every corpus file, edited: every object's bytes in the written file,
   * read back in the same places */
  g_assert_cmpuint (files->len, >, 0);
  for (guint f = 0; f < files->len; f++)
    {
      g_autoptr(GBytes) file = tu_read (files->pdata[f]);
      g_autoptr(GError) error = NULL;
      g_autoptr(SqClip) clip = tu_load_ok (file);
      g_autoptr(SqClip) back = NULL;
      g_autoptr(GBytes) written = NULL;
      g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
      g_autofree char *layout = kept_layout (clip);
      g_autofree char *layout_back = NULL;
      GVariant *blocks = sq_props_get (clip->extra, "other_blocks");
      gsize len;
      const char *w;

      g_assert_nonnull (blocks);   /* every file of the corpus has frames or templates */
      clip->generation++;
      written = sq_save_bytes (clip, clip->format, &opts, losses, &error);
      g_assert_no_error (error);
      g_assert_false (tu_has_line (losses, "frames, meshes"));
      w = g_bytes_get_data (written, &len);
      for (gsize i = 0; i < g_variant_n_children (blocks); i++)
        {
          g_autoptr(GVariant) block = g_variant_get_child_value (blocks, i);
          g_autoptr(GVariant) kept = g_variant_get_child_value (block, 2);
          gsize n;
          const void *piece = g_variant_get_fixed_array (kept, &n, 1);

          g_assert_nonnull (memmem (w, len, piece, n));
        }
      back = tu_load_ok (written);
      layout_back = kept_layout (back);
      g_assert_cmpstr (layout_back, ==, layout);
      g_assert_true (g_variant_equal (sq_props_get (back->extra, "frames"), sq_props_get (clip->extra, "frames")));
      g_test_message ("%s: %zu objects kept", (const char *) files->pdata[f], g_variant_n_children (blocks));
    }
}

/* A format of one animation a file has no takes, and refuses a second */
static void
test_takes_other_formats (void)
{
  const char *sample = g_getenv ("SEQUIN_SAMPLE");
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  SqLoadOptions options = { 0 };
  gsize n = 1;

  clip = tu_load_text ("xof 0303txt 0032\nAnimationSet a { Animation { {j} AnimationKey { 2; 1; 0;3;1,2,3;;; } } }\n",
                       "dx", &error);
  g_assert_no_error (error);
  g_assert_nonnull (sq_clip_get_takes (clip, &n, NULL));
  g_assert_cmpuint (n, ==, 1);
  g_clear_pointer (&clip, sq_clip_free);

  g_assert_nonnull (sample);
  bytes = tu_read (sample);
  clip = sq_load_bytes (bytes, NULL, NULL, &options, &error);
  g_assert_no_error (error);
  g_assert_null (sq_clip_get_takes (clip, &n, NULL));
  g_assert_cmpuint (n, ==, 0);
  g_clear_pointer (&clip, sq_clip_free);
  options.take = 1;
  clip = sq_load_bytes (bytes, NULL, NULL, &options, &error);
  g_assert_null (clip);
  g_assert_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "take 2 was asked for"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dx/corpus", test_corpus);
  g_test_add_func ("/dx/takes", test_takes);
  g_test_add_func ("/dx/takes-small", test_takes_small);
  g_test_add_func ("/dx/kept-objects", test_kept_objects);
  g_test_add_func ("/dx/takes-other-formats", test_takes_other_formats);
  g_test_add_func ("/dx/aw-example", test_aw_example);
  g_test_add_func ("/dx/matrix-keys", test_matrix_keys);
  g_test_add_func ("/dx/from-seq", test_from_seq);
  g_test_add_func ("/dx/frames", test_frames);
  g_test_add_func ("/dx/errors", test_errors);
  g_test_add_func ("/dx/deep-nesting", test_deep_nesting);
  g_test_add_func ("/dx/damage", test_damage);
  g_test_add_func ("/dx/detection", test_detection);
  g_test_add_func ("/dx/fast-keys", test_fast_keys);
  g_test_add_func ("/dx/deferred-blocks", test_deferred_blocks);
  return g_test_run ();
}
