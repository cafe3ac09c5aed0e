/* test-gltf.c: glTF 2.0, written and read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every test file of every format (each take) goes through .glb and .gltf
 * and must read back into the same clip: the same joints in the same
 * order, the same keys (times and values within 32-bit float precision, in
 * glTF's axes), the same header and every field. Then hand-made foreign
 * files (tests/data/gltf/, made by make-gltf.py): CUBICSPLINE sampled at the
 * clip's rate, STEP holding, lost channels reported; and damaged input.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "sq-core.h"
#include "test-utils.h"

/* A file of the samples' folder (beside SEQUIN_SAMPLE) */
static char *
sample_file (const char *name)
{
  g_autofree char *dir = g_path_get_dirname (g_getenv ("SEQUIN_SAMPLE"));

  return g_build_filename (dir, name, NULL);
}

static const SqFormat *
gltf (void)
{
  const SqFormat *f = sq_format_by_id ("gltf");
  g_assert_nonnull (f);
  return f;
}

/* ---- loading with companions -------------------------------------------------- */

typedef struct
{
  const char *dir;          /* the folder beside the file */
  GPtrArray  *companions;   /* or what a save made */
} Beside;

static GBytes *
companion (const char *name,
           gpointer    user_data,
           GError    **error)
{
  const Beside *b = user_data;
  g_autofree char *path = NULL;
  char *contents = NULL;
  gsize len = 0;

  for (guint i = 0; b->companions != NULL && i < b->companions->len; i++)
    {
      const SqCompanion *c = b->companions->pdata[i];
      if (g_str_equal (c->name, name))
        return g_bytes_ref (c->bytes);
    }
  if (b->dir == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "no %s", name);
      return NULL;
    }
  path = g_build_filename (b->dir, name, NULL);
  /* the game's names vary in case: the test files' companions are lower case */
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *lower = g_ascii_strdown (name, -1);
      g_free (path);
      path = g_build_filename (b->dir, lower, NULL);
    }
  if (!g_file_get_contents (path, &contents, &len, error))
    return NULL;
  return g_bytes_new_take (contents, len);
}

static SqClip *
load_take (GBytes     *bytes,
           const char *name,
           Beside     *beside,
           guint       take,
           GError    **error)
{
  SqLoadOptions lo = { 0 };

  lo.take = take;
  lo.companion = companion;
  lo.companion_data = beside;
  return sq_load_bytes (bytes, name, NULL, &lo, error);
}

/* The clip saved as glTF (.gltf with its .bin when `json`), read back */
static SqClip *
through_gltf (const SqClip *clip,
              gboolean      json,
              GPtrArray    *losses)
{
  static const char * const names[] = { "out.bin", NULL };
  g_autoptr(GPtrArray) companions = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_companion_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  SqSaveOptions so = { 0 };
  Beside beside = { NULL, companions };
  SqClip *back;

  so.companions = companions;
  so.companion_names = json ? names : NULL;
  bytes = sq_save_bytes (clip, gltf (), &so, losses, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (companions->len, ==, json ? 1 : 0);
  if (json)
    g_assert_cmpstr (((SqCompanion *) companions->pdata[0])->name, ==, "out.bin");
  else
    g_assert_cmpmem (g_bytes_get_data (bytes, NULL), 4, "glTF", 4);
  back = load_take (bytes, json ? "out.gltf" : "out.glb", &beside, clip->take, &error);
  g_assert_no_error (error);
  g_assert_true (sq_clip_check (back, NULL));
  g_assert_true (back->format == gltf ());
  return back;
}

/* ---- comparing ---------------------------------------------------------------- */

/* What the writer does not carry: a source file's bytes for its other takes
 * and exact save, and the skeleton (written as the nodes) */
static gboolean
carried (const char *key)
{
  static const char * const not_carried[] = {
    "other_sets", "more-skills", "skills-before", "cfp-bytes", "gltf-buffer", "source-format",
    "parent", "offset", "end-site", "rest-rotation", NULL
  };
  return !g_strv_contains (not_carried, key);
}

static void
assert_fields (const SqProps *want,
               const SqProps *got,
               const char    *what)
{
  for (gsize i = 0; i < sq_props_size (want); i++)
    {
      const char *key = sq_props_key_at (want, i);
      GVariant *g = sq_props_get (got, key);

      if (!carried (key))
        continue;
      if (g == NULL || !g_variant_equal (g, sq_props_value_at (want, i)))
        g_error ("%s: field %s differs", what, key);
    }
}

/* A key of `src` (in its format's space) in glTF's space */
static void
in_gltf (const SqClip *src,
         SqChannel     c,
         const SqKey  *key,
         double        out[4])
{
  const SqSpace *from = src->format->space, *to = gltf ()->space;
  double sl[4];

  memcpy (out, key->v, sizeof key->v);
  if (from == NULL || src->format == gltf ())
    return;
  if (c == SQ_CHANNEL_ROTATION)
    {
      double len;
      sq_space_rotation_to_sl (from, key->v, sl);
      sq_space_rotation_from_sl (to, sl, out);
      len = sqrt (out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
      for (int i = 0; i < 4; i++)
        out[i] /= len;
    }
  else if (c == SQ_CHANNEL_TRANSLATION)
    {
      sq_space_vector_to_sl (from, key->v, sl);
      sq_space_vector_from_sl (to, sl, out);
    }
}

/* A BVH End Site comes back on its joint (in glTF's axes and metres,
 * within 32-bit float precision) */
static void
assert_end_site (const SqClip *a,
                 const SqClip *b,
                 gsize         j,
                 const char   *what)
{
  GVariant *ea = sq_props_get (a->joints[j].extra, "end-site");
  GVariant *eb = sq_props_get (b->joints[j].extra, "end-site");
  double va[3], vb[3], sl[3], want[3];

  if (ea == NULL)
    return;
  if (eb == NULL)
    g_error ("%s: joint %s: its End Site is not read back", what, a->joints[j].name);
  g_variant_get (ea, "(ddd)", &va[0], &va[1], &va[2]);
  g_variant_get (eb, "(ddd)", &vb[0], &vb[1], &vb[2]);
  memcpy (want, va, sizeof want);
  if (a->format != gltf ())
    {
      sq_space_vector_to_sl (a->format->space, va, sl);
      sq_space_vector_from_sl (gltf ()->space, sl, want);
    }
  for (int k = 0; k < 3; k++)
    if (fabs (want[k] - vb[k]) > 1e-6 * MAX (1.0, fabs (want[k])))
      g_error ("%s: joint %s: End Site %d is %.9g, read back %.9g", what, a->joints[j].name, k, want[k], vb[k]);
}

static void
assert_same_clip (const SqClip *a,
                  const SqClip *b,
                  const char   *what)
{
  g_assert_cmpuint (a->n_joints, ==, b->n_joints);
  g_assert_cmpstr (a->name, ==, b->name);
  g_assert_cmpstr (a->root, ==, b->root);
  g_assert_cmpfloat (a->fps, ==, b->fps);
  g_assert_cmpint (a->frame_base, ==, b->frame_base);
  g_assert_cmpfloat (a->duration, ==, b->duration);
  assert_fields (a->extra, b->extra, what);
  for (gsize j = 0; j < a->n_joints; j++)
    {
      g_assert_cmpstr (a->joints[j].name, ==, b->joints[j].name);
      assert_fields (a->joints[j].extra, b->joints[j].extra, what);
      assert_end_site (a, b, j, what);
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        {
          const SqTrack *ta = &a->joints[j].tracks[c], *tb = &b->joints[j].tracks[c];

          if (ta->n_keys != tb->n_keys)
            g_error ("%s: joint %s channel %u: %zu keys, read back %zu", what, a->joints[j].name, c, ta->n_keys, tb->n_keys);
          for (gsize k = 0; k < ta->n_keys; k++)
            {
              SqKey ka = sq_track_key (ta, k), kb = sq_track_key (tb, k);
              double want[4];

              in_gltf (a, c, &ka, want);
              if (fabs (ka.time - kb.time) > 1e-6 * MAX (1.0, fabs (ka.time)))
                g_error ("%s: joint %s channel %u key %zu: time %.9g read back as %.9g", what, a->joints[j].name, c, k,
                         ka.time, kb.time);
              for (int i = 0; i < (c == SQ_CHANNEL_ROTATION ? 4 : 3); i++)
                if (fabs (want[i] - kb.v[i]) > 2e-6 * MAX (1.0, fabs (want[i])))
                  g_error ("%s: joint %s channel %u key %zu: value %d %.9g read back as %.9g", what, a->joints[j].name, c, k,
                           i, want[i], kb.v[i]);
            }
        }
    }
}

/* Sequin poses the clip read back as the clip it was written from: every
 * joint at the same place at each of the first keys' times (an ActiveWorlds
 * location moves the pelvis from its rest, as before) */
static void
assert_same_pose (const SqClip *a,
                  const SqClip *b,
                  const char   *what)
{
  g_autoptr(SqPose) pa = sq_pose_new (a);
  g_autoptr(SqPose) pb = sq_pose_new (b);
  g_autofree double *xa = g_new0 (double, 3 * MAX (a->n_joints, 1));
  g_autofree double *xb = g_new0 (double, 3 * MAX (b->n_joints, 1));
  const SqTrack *track = NULL;

  for (gsize j = 0; j < a->n_joints && track == NULL; j++)
    if (a->joints[j].tracks[SQ_CHANNEL_TRANSLATION].n_keys > 0)
      track = &a->joints[j].tracks[SQ_CHANNEL_TRANSLATION];
  for (gsize j = 0; j < a->n_joints && track == NULL; j++)
    if (a->joints[j].tracks[SQ_CHANNEL_ROTATION].n_keys > 0)
      track = &a->joints[j].tracks[SQ_CHANNEL_ROTATION];
  for (gsize k = 0; track != NULL && k < MIN (track->n_keys, 8); k++)
    {
      double t = sq_track_key (track, k).time;

      sq_pose_evaluate (pa, a, t, xa);
      sq_pose_evaluate (pb, b, t, xb);
      for (gsize i = 0; i < 3 * a->n_joints; i++)
        if (fabs (xa[i] - xb[i]) > 1e-5)
          g_error ("%s: joint %s at %g s is posed at %.6f read back, %.6f before", what, a->joints[i / 3].name, t,
                   xb[i], xa[i]);
    }
}

/* ---- the round trips -------------------------------------------------------- */

static guint n_round_trips;

static void
round_trip_file (const char *path)
{
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;
  Beside beside = { dir, NULL };
  g_autoptr(SqClip) first = load_take (bytes, path, &beside, 0, &error);
  gsize n_takes = 0;

  g_assert_no_error (error);
  sq_clip_get_takes (first, &n_takes, NULL);
  for (guint t = 0; t < MAX (n_takes, 1); t++)
    {
      g_autoptr(SqClip) clip = load_take (bytes, path, &beside, t, &error);
      g_autofree char *what = g_strdup_printf ("%s take %u", path, t + 1);

      g_assert_no_error (error);
      if (clip->n_joints == 0)
        continue;
      for (int json = 0; json < 2; json++)
        {
          g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
          g_autoptr(SqClip) back = through_gltf (clip, json, losses);
          gsize n_back = 0;

          assert_same_clip (clip, back, what);
          assert_same_pose (clip, back, what);
          /* every take comes along */
          g_assert_nonnull (sq_clip_get_takes (back, &n_back, NULL));
          g_assert_cmpuint (n_back, ==, MAX (n_takes, 1));
          n_round_trips++;
        }
    }
}

static void
test_round_trip_every_file (void)
{
  static const char * const subdirs[] = { "bvh", "dx-anim", "seq-binary", "sl-anim" };
  static const char * const sims[] = { "nod.cmx", "walk.cmx", "nod-bounce.kfd", "wave-v4.psl", "wave-v5.psl" };
  static const char * const samples[] = { "wave.seq", "wave-text.seq", "wave.anim", "wave.bvh", "wave.x" };
  g_autofree char *sample_dir = g_path_get_dirname (g_getenv ("SEQUIN_SAMPLE"));
  guint n_files = 0;

  for (gsize s = 0; s < G_N_ELEMENTS (subdirs); s++)
    {
      g_autoptr(GPtrArray) files = tu_corpus_files (subdirs[s]);
      g_assert_cmpuint (files->len, >, 0);
      for (guint i = 0; i < files->len; i++, n_files++)
        round_trip_file (files->pdata[i]);
    }
  for (gsize s = 0; s < G_N_ELEMENTS (sims); s++, n_files++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "sims", sims[s], NULL);
      round_trip_file (path);
    }
  for (gsize s = 0; s < G_N_ELEMENTS (samples); s++, n_files++)
    {
      g_autofree char *path = g_build_filename (sample_dir, samples[s], NULL);
      round_trip_file (path);
    }
  {
    g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "aw-wiki-example.x", NULL);
    round_trip_file (path);
    n_files++;
  }
  g_test_message ("%u files, %u round trips", n_files, n_round_trips);
  g_assert_cmpuint (n_round_trips, >=, 2 * n_files);
}

/* A .anim through .glb and back to .anim is the same file, byte for byte */
static void
test_back_to_the_world (void)
{
  g_autofree char *path = sample_file ("wave.anim");
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autoptr(SqClip) back = through_gltf (clip, FALSE, NULL);
  g_autoptr(GBytes) again = tu_save (back, "sl-anim", NULL);

  g_assert_true (g_bytes_equal (again, bytes));
}

static void
test_companion_names (void)
{
  g_auto(GStrv) a = gltf ()->companions_for ("some/where/out.gltf");
  g_auto(GStrv) b = gltf ()->companions_for ("out.GLTF");
  g_auto(GStrv) c = gltf ()->companions_for ("out.glb");

  g_assert_nonnull (a);
  g_assert_cmpstr (a[0], ==, "out.bin");
  g_assert_null (a[1]);
  g_assert_cmpstr (b[0], ==, "out.bin");
  g_assert_null (c);
  g_assert_true (sq_format_for_filename ("x.glb", NULL) == gltf ());
  g_assert_true (sq_format_for_filename ("x.gltf", NULL) == gltf ());

  /* the files a .gltf's buffers name beside it: a save over it may
   * replace them, and another file's save may not (sq_save_files) */
  {
    static const char json[] =
      "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"uri\":\"a.bin\",\"byteLength\":4},"
      "{\"uri\":\"data:application/octet-stream;base64,AAAA\",\"byteLength\":3},"
      "{\"uri\":\"../elsewhere.bin\",\"byteLength\":4},{\"byteLength\":4},{\"uri\":7}]}";
    g_autoptr(GBytes) bytes = g_bytes_new_static (json, sizeof json - 1);
    g_autoptr(GBytes) glb = g_bytes_new_static ("glTF\2\0\0\0", 8);
    g_autoptr(GBytes) junk = g_bytes_new_static ("{\"buffers\":", 11);
    g_auto(GStrv) named = gltf ()->companions_in (bytes);

    g_assert_nonnull (named);
    g_assert_cmpstr (named[0], ==, "a.bin");
    g_assert_null (named[1]);
    g_assert_null (gltf ()->companions_in (glb));
    g_assert_null (gltf ()->companions_in (junk));
  }
}

/* A .gltf without the place for its .bin fails clearly */
static void
test_gltf_needs_companions (void)
{
  static const char * const names[] = { "out.bin", NULL };
  g_autofree char *path = sample_file ("wave.anim");
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) out = NULL;
  SqSaveOptions so = { 0 };

  so.companion_names = names;
  out = sq_save_bytes (clip, gltf (), &so, NULL, &error);
  g_assert_null (out);
  tu_assert_mentions (error, ".bin");
}


/* The JSON of a .glb (its first chunk) */
static JsonNode *
glb_json (GBytes *glb)
{
  gsize len;
  const guint8 *d = g_bytes_get_data (glb, &len);
  g_autoptr(JsonParser) parser = json_parser_new ();
  guint32 n;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (len, >=, 20);
  memcpy (&n, d + 12, 4);
  n = GUINT32_FROM_LE (n);
  g_assert_cmpuint (n, <=, len - 20);
  json_parser_load_from_data (parser, (const char *) d + 20, n, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* A SEQ's keys before 0 s: glTF's times must not be negative, so the
 * writer moves every key later by the same time, says so in a note, and
 * reads them back where they were */
/* A position beyond what a 32-bit float holds (CI's fuzzer found one
 * written as an infinite float, which no reader takes): the key is left
 * out and said, and the file reads back with its other keys */
static void
test_huge_values (void)
{
  static const char bvh[] =
    "HIERARCHY\nROOT hip\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    "  JOINT abdomen\n  {\n    OFFSET 0 5 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "    End Site\n    {\n      OFFSET 0 5 0\n    }\n  }\n}\n"
    "MOTION\nFrames: 3\nFrame Time: 0.1\n"
    "0 40 0 0 0 0 0 0 0\n"
    "1e41 40 0 0 0 0 0 10 0\n"
    "2 40 0 0 0 0 0 20 0\n";
  g_autoptr(GBytes) bytes = g_bytes_new_static (bvh, sizeof bvh - 1);
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) glb = sq_save_bytes (clip, gltf (), &(SqSaveOptions) { 0 }, losses, &error);
  g_autoptr(SqClip) back = NULL;
  gssize hip;

  g_assert_no_error (error);
  g_assert_true (tu_has_line (losses, "1 key holds a value beyond glTF's 32-bit floats and is left out"));
  back = tu_load_ok (glb);
  hip = sq_clip_find_joint (back, "hip");
  g_assert_cmpint (hip, >=, 0);
  g_assert_cmpuint (back->joints[hip].tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, 2);
  for (gsize k = 0; k < 2; k++)
    {
      SqKey key = sq_track_key (&back->joints[hip].tracks[SQ_CHANNEL_TRANSLATION], k);
      for (int c = 0; c < 3; c++)
        g_assert_true (isfinite (key.v[c]) && fabs (key.v[c]) < 10);
    }
}

static void
test_negative_times (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "gltf", "negative-times.seq", NULL);
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) glb = NULL;
  g_autoptr(JsonNode) doc = NULL;
  g_autoptr(SqClip) back = NULL;
  JsonArray *samplers, *accessors;
  SqSaveOptions so = { 0 };

  g_assert_cmpfloat (sq_track_key (&clip->joints[0].tracks[SQ_CHANNEL_ROTATION], 0).time, ==, -0.5);
  so.notes = notes;
  glb = sq_save_bytes (clip, gltf (), &so, losses, &error);
  g_assert_no_error (error);
  /* not silent, and no loss: a note */
  g_assert_true (tu_has_line (notes, "keys start at -0.5 s"));
  g_assert_true (tu_has_line (notes, "0.5 s later"));
  g_assert_false (tu_has_line (losses, "-0.5"));
  /* every sampler's times from 0 s up */
  doc = glb_json (glb);
  accessors = json_object_get_array_member (json_node_get_object (doc), "accessors");
  samplers = json_object_get_array_member (json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (doc), "animations"), 0), "samplers");
  g_assert_cmpuint (json_array_get_length (samplers), ==, 4);
  for (guint i = 0; i < json_array_get_length (samplers); i++)
    {
      gint64 in = json_object_get_int_member (json_array_get_object_element (samplers, i), "input");
      JsonObject *acc = json_array_get_object_element (accessors, (guint) in);
      double lo = json_array_get_double_element (json_object_get_array_member (acc, "min"), 0);

      g_assert_cmpfloat (lo, >=, 0.0);
    }
  /* the pelvis's first key at 0 s in the file, 0.25 s before the back's */
  {
    gint64 in = json_object_get_int_member (json_array_get_object_element (samplers, 0), "input");
    JsonObject *acc = json_array_get_object_element (accessors, (guint) in);
    g_assert_cmpfloat (json_array_get_double_element (json_object_get_array_member (acc, "min"), 0), ==, 0.0);
    g_assert_cmpfloat (json_array_get_double_element (json_object_get_array_member (acc, "max"), 0), ==, 1.5);
  }
  /* and read back where they were */
  back = through_gltf (clip, FALSE, NULL);
  assert_same_clip (clip, back, path);
  g_assert_cmpfloat (sq_track_key (&back->joints[1].tracks[SQ_CHANNEL_ROTATION], 0).time, ==, -0.25);
}

/* ---- foreign files ---------------------------------------------------------- */

static SqClip *
load_foreign (const char *name,
              guint       take)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "data", "gltf", NULL);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(GError) error = NULL;
  Beside beside = { dir, NULL };
  SqClip *clip = load_take (bytes, path, &beside, take, &error);

  g_assert_no_error (error);
  g_assert_true (sq_clip_check (clip, NULL));
  return clip;
}

/* The interpolation and key count of the sampler of `path` on node `name`
 * in the first animation of a .glb */
static const char *
sampler_of (JsonNode   *doc,
            const char *name,
            const char *path,
            gint64     *n_keys)
{
  JsonObject *root = json_node_get_object (doc);
  JsonArray *nodes = json_object_get_array_member (root, "nodes");
  JsonObject *anim = json_array_get_object_element (json_object_get_array_member (root, "animations"), 0);
  JsonArray *channels = json_object_get_array_member (anim, "channels");

  for (guint c = 0; c < json_array_get_length (channels); c++)
    {
      JsonObject *ch = json_array_get_object_element (channels, c);
      JsonObject *target = json_object_get_object_member (ch, "target");
      JsonObject *node = json_array_get_object_element (nodes, (guint) json_object_get_int_member (target, "node"));
      JsonObject *sampler;

      if (!g_str_equal (json_object_get_string_member (node, "name"), name)
          || !g_str_equal (json_object_get_string_member (target, "path"), path))
        continue;
      sampler = json_array_get_object_element (json_object_get_array_member (anim, "samplers"),
                                               (guint) json_object_get_int_member (ch, "sampler"));
      *n_keys = json_object_get_int_member (json_array_get_object_element (
          json_object_get_array_member (root, "accessors"), (guint) json_object_get_int_member (sampler, "input")), "count");
      return json_object_get_string_member (sampler, "interpolation");
    }
  g_error ("no %s channel on “%s”", path, name);
  return NULL;
}

/* STEP where the clip holds a value: a track of one value throughout, and
 * one that holds each value until the frame before it changes (a STEP
 * channel read); LINEAR where it moves. Each reads back as it was. */
static void
test_step (void)
{
  g_autoptr(SqClip) foreign = load_foreign ("blender-style.glb", 0);
  g_autofree char *path = sample_file ("wave.seq");
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(SqClip) wave = tu_load_ok (bytes);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) glb = NULL, wave_glb = NULL;
  g_autoptr(JsonNode) doc = NULL, wave_doc = NULL;
  g_autoptr(SqClip) back = NULL;
  SqSaveOptions so = { 0 };
  gint64 n = 0;

  /* Head: STEP identity to 90° at 1 s, read as 3 keys (the hold at 23/24 s);
   * written as the 2 keys of a STEP again */
  g_assert_cmpuint (foreign->joints[2].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 3);
  so.no_source_copy = TRUE;
  glb = sq_save_bytes (foreign, gltf (), &so, NULL, &error);
  g_assert_no_error (error);
  doc = glb_json (glb);
  g_assert_cmpstr (sampler_of (doc, "Head", "rotation", &n), ==, "STEP");
  g_assert_cmpint (n, ==, 2);
  /* Spine turns at every frame (sampled CUBICSPLINE): LINEAR, every key */
  g_assert_cmpstr (sampler_of (doc, "Spine", "rotation", &n), ==, "LINEAR");
  g_assert_cmpint (n, ==, 25);
  back = load_take (glb, "out.glb", &(Beside) { NULL, NULL }, 0, &error);
  g_assert_no_error (error);
  assert_same_clip (foreign, back, "blender-style.glb");

  /* wave.seq: the pelvis holds its place at every key (STEP), its turn moves */
  wave_glb = sq_save_bytes (wave, gltf (), &so, NULL, &error);
  g_assert_no_error (error);
  wave_doc = glb_json (wave_glb);
  g_assert_cmpstr (sampler_of (wave_doc, "pelvis", "rotation", &n), ==, "LINEAR");
  g_assert_cmpint (n, ==, 13);
  g_assert_cmpstr (sampler_of (wave_doc, "pelvis", "translation", &n), ==, "STEP");
  g_assert_cmpint (n, ==, 3);
  /* the left arm hangs still: 13 keys of one turn */
  g_assert_cmpstr (sampler_of (wave_doc, "lfshoulder", "rotation", &n), ==, "STEP");
  g_assert_cmpint (n, ==, 13);
}

/* ---- a file Blender exported ---------------------------------------------- */

/* Where Blender put each bone's head at each time (blender-export.json,
 * made with the .glb by make-blender-export.py), in Second Life's axes:
 * Blender's (x, y, z), facing -Y, is SL's (-y, x, z) */
static void
blender_head (JsonObject *heads,
              double      t,
              const char *name,
              double      out[3])
{
  g_autofree char *key = NULL;
  JsonObject *at = NULL;
  JsonArray *p;
  g_autoptr(GList) times = json_object_get_members (heads);

  for (GList *l = times; l != NULL && at == NULL; l = l->next)
    if (fabs (g_ascii_strtod (l->data, NULL) - t) < 1e-9)
      at = json_object_get_object_member (heads, l->data);
  g_assert_nonnull (at);
  g_assert_true (json_object_has_member (at, name));
  p = json_object_get_array_member (at, name);
  out[0] = -json_array_get_double_element (p, 1);
  out[1] = json_array_get_double_element (p, 0);
  out[2] = json_array_get_double_element (p, 2);
}

static gssize
joint_index (const SqClip *clip,
             const char   *name)
{
  for (gsize j = 0; j < clip->n_joints; j++)
    if (g_str_equal (clip->joints[j].name, name))
      return (gssize) j;
  g_error ("no joint %s", name);
  return -1;
}

static double
angle_between (const double a[3],
               const double b[3])
{
  double d = 0, la = 0, lb = 0;

  for (int k = 0; k < 3; k++)
    d += a[k] * b[k], la += a[k] * a[k], lb += b[k] * b[k];
  return acos (CLAMP (d / sqrt (la * lb), -1.0, 1.0)) * 180 / G_PI;
}

/* Node `name` of a glTF document: its translation and rotation (x, y, z, w) */
static void
node_rest (JsonNode   *doc,
           const char *name,
           double      t[3],
           double      r[4])
{
  JsonArray *nodes = json_object_get_array_member (json_node_get_object (doc), "nodes");

  t[0] = t[1] = t[2] = 0, r[0] = r[1] = r[2] = 0, r[3] = 1;
  for (guint i = 0; i < json_array_get_length (nodes); i++)
    {
      JsonObject *n = json_array_get_object_element (nodes, i);

      if (!g_str_equal (json_object_get_string_member (n, "name"), name))
        continue;
      for (guint k = 0; k < 3 && json_object_has_member (n, "translation"); k++)
        t[k] = json_array_get_double_element (json_object_get_array_member (n, "translation"), k);
      for (guint k = 0; k < 4 && json_object_has_member (n, "rotation"); k++)
        r[k] = json_array_get_double_element (json_object_get_array_member (n, "rotation"), k);
      return;
    }
  g_error ("no node %s", name);
}

/* A foreign glTF written again keeps the file's rest pose: each bone's
 * node as the file had it (rest turn and place), and it reads back as the
 * same clip (keys, rest turns) */
static void
assert_rest_kept (const SqClip *clip)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "gltf", "blender-export.glb", NULL);
  g_autoptr(GBytes) original = tu_read (path);
  g_autoptr(JsonNode) a = glb_json (original);
  g_autoptr(JsonNode) b = NULL;
  g_autoptr(GBytes) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) back = NULL;
  SqSaveOptions so = { 0 };
  guint turned = 0;

  so.no_source_copy = TRUE;
  again = sq_save_bytes (clip, gltf (), &so, NULL, &error);
  g_assert_no_error (error);
  b = glb_json (again);
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      double ta[3], ra[4], tb[3], rb[4], same = 0, flipped = 0;

      node_rest (a, clip->joints[j].name, ta, ra);
      node_rest (b, clip->joints[j].name, tb, rb);
      for (int k = 0; k < 3; k++)
        g_assert_cmpfloat_with_epsilon (ta[k], tb[k], 1e-6);
      for (int k = 0; k < 4; k++)
        same = MAX (same, fabs (ra[k] - rb[k])), flipped = MAX (flipped, fabs (ra[k] + rb[k]));
      g_assert_cmpfloat (MIN (same, flipped), <, 1e-6);
      turned += fabs (fabs (ra[3]) - 1) > 1e-3;
    }
  /* Blender's bones point along the limbs: most are turned at rest */
  g_assert_cmpuint (turned, >=, 15);
  back = load_take (again, "again.glb", &(Beside) { NULL, NULL }, 0, &error);
  g_assert_no_error (error);
  assert_same_clip (clip, back, "blender-export.glb written again");
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      GVariant *va = sq_props_get (clip->joints[j].extra, "rest-rotation");
      GVariant *vb = sq_props_get (back->joints[j].extra, "rest-rotation");
      double qa[4], qb[4];

      g_assert_true ((va == NULL) == (vb == NULL));
      if (va == NULL)
        continue;
      g_variant_get (va, "(dddd)", &qa[0], &qa[1], &qa[2], &qa[3]);
      g_variant_get (vb, "(dddd)", &qb[0], &qb[1], &qb[2], &qb[3]);
      for (int k = 0; k < 4; k++)
        g_assert_cmpfloat_with_epsilon (qa[k], qb[k], 1e-6);
    }
}

/* A glTF Blender exported (bones along the limbs: a rest rotation on every
 * joint, rolled arms): Sequin poses it where Blender does, and converted to
 * a Second Life .anim each limb points the same way in the world as in
 * Blender at every time (the retarget through the rest pose) */
static void
test_blender_export (void)
{
  static const char * const limbs[][4] = {
    { "LeftArm", "LeftForeArm", "mShoulderLeft", "mElbowLeft" },
    { "LeftForeArm", "LeftHand", "mElbowLeft", "mWristLeft" },
    { "RightArm", "RightForeArm", "mShoulderRight", "mElbowRight" },
    { "Spine", "Chest", "mTorso", "mChest" },
    { "Neck", "Head", "mNeck", "mHead" },
    { "LeftUpLeg", "LeftLeg", "mHipLeft", "mKneeLeft" },
    { "LeftLeg", "LeftFoot", "mKneeLeft", "mAnkleLeft" },
  };
  g_autofree char *json_path = g_test_build_filename (G_TEST_DIST, "data", "gltf", "blender-export.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = load_foreign ("blender-export.glb", 0);
  g_autoptr(GBytes) anim_bytes = NULL;
  g_autoptr(SqClip) anim = NULL;
  g_autoptr(SqPose) pose = NULL, anim_pose = NULL;
  g_autofree double *x = NULL, *y = NULL;
  JsonObject *heads;
  double worst = 0, worst_deg = 0;

  json_parser_load_from_file (parser, json_path, &error);
  g_assert_no_error (error);
  heads = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "heads");
  g_assert_cmpuint (clip->n_joints, ==, 19);
  g_assert_cmpfloat (clip->fps, ==, 24);
  pose = sq_pose_new (clip);
  x = g_new (double, 3 * clip->n_joints);
  anim_bytes = tu_save (clip, "sl-anim", NULL);
  anim = tu_load_ok (anim_bytes);
  anim_pose = sq_pose_new (anim);
  y = g_new (double, 3 * anim->n_joints);
  for (int f = 0; f <= 24; f += 6)
    {
      double t = f / 24.0;

      /* the glTF as Blender poses it */
      sq_pose_evaluate (pose, clip, t, x);
      for (gsize j = 0; j < clip->n_joints; j++)
        {
          double b[3];

          blender_head (heads, t, clip->joints[j].name, b);
          for (int k = 0; k < 3; k++)
            worst = MAX (worst, fabs (b[k] - x[3 * j + k]));
        }
      /* the .anim's limbs as Blender's */
      sq_pose_evaluate (anim_pose, anim, t, y);
      for (gsize l = 0; l < G_N_ELEMENTS (limbs); l++)
        {
          double b0[3], b1[3], want[3], got[3], a;
          gssize from = joint_index (anim, limbs[l][2]), to = joint_index (anim, limbs[l][3]);

          blender_head (heads, t, limbs[l][0], b0);
          blender_head (heads, t, limbs[l][1], b1);
          for (int k = 0; k < 3; k++)
            {
              want[k] = b1[k] - b0[k];
              got[k] = y[3 * to + k] - y[3 * from + k];
            }
          a = angle_between (want, got);
          if (a > worst_deg)
            worst_deg = a;
          if (a > 1.0)
            g_error ("%s → %s at %g s: %.3f° from Blender's", limbs[l][2], limbs[l][3], t, a);
        }
    }
  g_test_message ("Blender's export: largest difference %.3g mm in place, %.3g° in the .anim's limbs",
                  worst * 1000, worst_deg);
  g_assert_cmpfloat (worst, <, 1e-4);
  assert_rest_kept (clip);
}

static void
assert_quat (SqKey        key,
             double       w,
             double       x,
             double       y,
             double       z)
{
  double want[4] = { w, x, y, z };
  for (int i = 0; i < 4; i++)
    g_assert_cmpfloat_with_epsilon (key.v[i], want[i], 1e-6);
}

/* tests/data/gltf/make-gltf.py says what each file holds */
static void
check_blender_style (const char *name)
{
  g_autoptr(SqClip) clip = load_foreign (name, 0);
  g_autoptr(SqClip) idle = load_foreign (name, 1);
  const double s = sqrt (0.5), c22 = cos (G_PI / 8), s22 = sin (G_PI / 8);
  gsize n_takes = 0;
  const char * const *takes = sq_clip_get_takes (clip, &n_takes, NULL);
  const SqJoint *hips, *spine, *head;
  GVariant *off;
  double o[3];

  g_assert_cmpuint (n_takes, ==, 2);
  g_assert_cmpstr (takes[0], ==, "Wave");
  g_assert_cmpstr (takes[1], ==, "Idle");
  /* the skin's joints; Armature, Face, Body and Prop are no joints */
  g_assert_cmpuint (clip->n_joints, ==, 3);
  hips = &clip->joints[0], spine = &clip->joints[1], head = &clip->joints[2];
  g_assert_cmpstr (hips->name, ==, "Hips");
  g_assert_cmpstr (spine->name, ==, "Spine");
  g_assert_cmpstr (head->name, ==, "Head");
  g_assert_cmpfloat (clip->fps, ==, 24);
  g_assert_cmpfloat_with_epsilon (clip->duration, 1.0, 1e-9);
  /* rest offsets in the unturned frame: Head's (0.1, 0.3, 0) under Spine's
   * 90° about +Y is (0, 0.3, -0.1); Hips carries the Armature's 1 m */
  g_assert_cmpint (sq_props_get_int (head->extra, "parent", 9), ==, 1);
  off = sq_props_get (head->extra, "offset");
  g_variant_get (off, "(ddd)", &o[0], &o[1], &o[2]);
  g_assert_cmpfloat_with_epsilon (o[0], 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (o[1], 0.3, 1e-9);
  g_assert_cmpfloat_with_epsilon (o[2], -0.1, 1e-9);
  g_variant_get (sq_props_get (hips->extra, "offset"), "(ddd)", &o[0], &o[1], &o[2]);
  g_assert_cmpfloat_with_epsilon (o[0], 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (o[1], 1.0, 1e-9);
  /* LINEAR translation as it is, plus the Armature's place */
  g_assert_cmpuint (hips->tracks[SQ_CHANNEL_TRANSLATION].n_keys, ==, 2);
  g_assert_cmpfloat_with_epsilon (sq_track_key (&hips->tracks[SQ_CHANNEL_TRANSLATION], 1).v[0], 1.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (sq_track_key (&hips->tracks[SQ_CHANNEL_TRANSLATION], 1).v[2], 0.5, 1e-6);
  /* CUBICSPLINE sampled at the clip's 24 frames a second: 25 keys from the
   * rest (the identity) to 90° about +Y, 45° half way (tangents 0) */
  g_assert_cmpuint (spine->tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 25);
  assert_quat (sq_track_key (&spine->tracks[SQ_CHANNEL_ROTATION], 0), 1, 0, 0, 0);
  g_assert_cmpfloat_with_epsilon (sq_track_key (&spine->tracks[SQ_CHANNEL_ROTATION], 12).time, 0.5, 1e-9);
  assert_quat (sq_track_key (&spine->tracks[SQ_CHANNEL_ROTATION], 12), c22, 0, s22, 0);
  assert_quat (sq_track_key (&spine->tracks[SQ_CHANNEL_ROTATION], 24), s, 0, s, 0);
  /* STEP holds the identity until the frame before 1 s; then 90° about +X
   * under Spine's rest turn is 90° about -Z */
  g_assert_cmpuint (head->tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 3);
  g_assert_cmpfloat_with_epsilon (sq_track_key (&head->tracks[SQ_CHANNEL_ROTATION], 1).time, 23.0 / 24.0, 1e-6);
  assert_quat (sq_track_key (&head->tracks[SQ_CHANNEL_ROTATION], 1), 1, 0, 0, 0);
  assert_quat (sq_track_key (&head->tracks[SQ_CHANNEL_ROTATION], 2), s, 0, 0, -s);
  /* the lost channels, named */
  g_assert_true (tu_has_line (clip->warnings, "morph-target weights of node 4 “Face”"));
  g_assert_true (tu_has_line (clip->warnings, "node 6 “Prop”, which is no joint"));
  /* the second take: 30° about +Y over 2 s */
  g_assert_cmpstr (idle->joints[0].name, ==, "Hips");
  g_assert_cmpuint (idle->joints[0].tracks[SQ_CHANNEL_ROTATION].n_keys, ==, 2);
  assert_quat (sq_track_key (&idle->joints[0].tracks[SQ_CHANNEL_ROTATION], 1), cos (G_PI / 12), 0, sin (G_PI / 12), 0);
  g_assert_cmpfloat_with_epsilon (idle->duration, 2.0, 1e-9);
  g_assert_cmpuint (idle->warnings->len, ==, 0);
}

static void
test_foreign (void)
{
  check_blender_style ("blender-style.glb");
  check_blender_style ("blender-style.gltf");
}

/* A foreign file converted to a world and written back as glTF reads as
 * the same motion */
static void
test_foreign_through_bvh (void)
{
  g_autoptr(SqClip) clip = load_foreign ("blender-style.glb", 0);
  g_autoptr(GBytes) bvh = tu_save (clip, "bvh", NULL);
  g_autoptr(SqClip) from_bvh = tu_load_ok (bvh);
  g_autoptr(SqPose) a = sq_pose_new (clip);
  g_autoptr(SqPose) b = sq_pose_new (from_bvh);
  double pa[9], pb[9];

  g_assert_cmpuint (from_bvh->n_joints, ==, 3);
  for (double t = 0; t <= 1.0; t += 0.125)
    {
      sq_pose_evaluate (a, clip, t, pa);
      sq_pose_evaluate (b, from_bvh, t, pb);
      for (int i = 0; i < 9; i++)
        g_assert_cmpfloat_with_epsilon (pa[i], pb[i], 1e-4);
    }
}

/* ---- damaged input ---------------------------------------------------------- */

static void
assert_refused (const char *json,
                const char *fragment)
{
  g_autoptr(GBytes) bytes = g_bytes_new (json, strlen (json));
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = sq_load_bytes (bytes, "bad.gltf", gltf (), NULL, &error);

  g_assert_null (clip);
  tu_assert_mentions (error, fragment);
}

#define ASSET "\"asset\":{\"version\":\"2.0\"}"
/* 8 bytes of buffer: two floats, 0 and 1 */
#define BUF "\"buffers\":[{\"byteLength\":8,\"uri\":\"data:application/octet-stream;base64,AAAAAAAAgD8=\"}]"

static void
test_damaged (void)
{
  assert_refused ("{" ASSET ",\"nodes\":[{\"children\":[1]},{\"children\":[0]}]}", "cycle");
  assert_refused ("{" ASSET ",\"nodes\":[{\"children\":[5]}]}", "child 0");
  assert_refused ("{" ASSET ",\"nodes\":[{}],\"skins\":[{\"joints\":[3]}]}", "joint 0 is not a node");
  assert_refused ("{" ASSET ",\"nodes\":[{}],\"skins\":[{\"joints\":[0,0]}]}", "a joint twice");
  assert_refused ("{\"asset\":{\"version\":\"1.0\"}}", "version 1.0");
  assert_refused ("{" ASSET ",\"nodes\":[{\"rotation\":[0,0,0,0]}]}", "no length");
  assert_refused ("{" ASSET ",\"nodes\":[{\"translation\":[1,2]}]}", "3 numbers");
  assert_refused ("{" ASSET ", \"nodes\": [", "does not parse");
  /* JSON is one value: a string or an object before the glTF's, or one
   * after it, is refused (the parser would take the last and leak the
   * others); spaces and zeros of padding after it are not */
  assert_refused ("\"count\"{" ASSET "}", "not an object");
  assert_refused ("[1] {" ASSET "}", "goes on after its object ends, at byte 4 of the JSON");
  assert_refused ("{" ASSET "}{" ASSET "}", "at byte 27 of the JSON");
  {
    static const char padded[] = "{" ASSET ",\"nodes\":[{\"name\":\"hip\"}]} \n\0\0";
    g_autoptr(GBytes) bytes = g_bytes_new (padded, sizeof padded - 1);
    g_autoptr(GError) error = NULL;
    g_autoptr(SqClip) clip = sq_load_bytes (bytes, "padded.gltf", gltf (), NULL, &error);

    g_assert_no_error (error);
    g_assert_nonnull (clip);
  }
  /* animations: accessors, views and the buffer checked */
#define ANIM(acc) "{" ASSET ",\"nodes\":[{}]," BUF ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":8}]," \
  "\"accessors\":[" acc "],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],"                \
  "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]}"
  assert_refused (ANIM ("{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\"}"), "do not fit");
  assert_refused (ANIM ("{\"bufferView\":7,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"}"), "buffer view 7");
  assert_refused (ANIM ("{\"bufferView\":0,\"componentType\":5123,\"count\":1,\"type\":\"SCALAR\"}"), "component type 5123");
  assert_refused (ANIM ("{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}"), "type “VEC3”");
  assert_refused (ANIM ("{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\",\"byteOffset\":8}"), "do not fit");
  assert_refused (ANIM ("{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"}"), "accessor 1 does not exist");
  assert_refused (ANIM ("{\"bufferView\":0,\"componentType\":5126,\"count\":-1,\"type\":\"SCALAR\"}"), "“count” is -1");
  {
    /* a view past the buffer; a stride below the element */
    const char *past = "{" ASSET ",\"nodes\":[{}]," BUF ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":12}],"
      "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"}],"
      "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":0}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}]}]}";
    const char *stride = "{" ASSET ",\"nodes\":[{}]," BUF ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":8,\"byteStride\":4}],"
      "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"},"
      "{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],"
      "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]}";
    assert_refused (past, "buffer of 8");
    assert_refused (stride, "byte stride 4");
  }
  {
    /* a NaN among the times (0, then NaN: 00 00 c0 7f), named by its
     * offset in the buffer */
    const char *nan = "{" ASSET ",\"nodes\":[{}],"
      "\"buffers\":[{\"byteLength\":8,\"uri\":\"data:application/octet-stream;base64,AAAAAAAAwH8=\"}],"
      "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8}],"
      "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"}],"
      "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":0}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}]}]}";
    assert_refused (nan, "accessor 0: element 1 is not a finite number at offset 0x4 (4)");
  }
}

/* Every cut of a .glb fails cleanly or reads a whole clip */
static void
test_truncated (void)
{
  g_autofree char *path = sample_file ("wave.bvh");
  g_autoptr(GBytes) bytes = tu_read (path);
  g_autoptr(SqClip) clip = tu_load_ok (bytes);
  g_autoptr(GBytes) glb = sq_save_bytes (clip, gltf (), NULL, NULL, NULL);
  gsize len;
  const guint8 *data = g_bytes_get_data (glb, &len);
  guint refused = 0;

  for (gsize cut = 0; cut < len; cut += 1 + cut / 64)
    {
      g_autoptr(GBytes) part = g_bytes_new (data, cut);
      g_autoptr(GError) error = NULL;
      g_autoptr(SqClip) c = sq_load_bytes (part, "cut.glb", gltf (), NULL, &error);

      if (c == NULL)
        {
          g_assert_nonnull (error);
          refused++;
        }
      else
        g_assert_true (sq_clip_check (c, NULL));
    }
  g_assert_cmpuint (refused, >, 100);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gltf/round-trip-every-file", test_round_trip_every_file);
  g_test_add_func ("/gltf/back-to-the-world", test_back_to_the_world);
  g_test_add_func ("/gltf/companion-names", test_companion_names);
  g_test_add_func ("/gltf/gltf-needs-companions", test_gltf_needs_companions);
  g_test_add_func ("/gltf/negative-times", test_negative_times);
  g_test_add_func ("/gltf/huge-values", test_huge_values);
  g_test_add_func ("/gltf/foreign", test_foreign);
  g_test_add_func ("/gltf/step", test_step);
  g_test_add_func ("/gltf/blender-export", test_blender_export);
  g_test_add_func ("/gltf/foreign-through-bvh", test_foreign_through_bvh);
  g_test_add_func ("/gltf/damaged", test_damaged);
  g_test_add_func ("/gltf/truncated", test_truncated);
  return g_test_run ();
}
