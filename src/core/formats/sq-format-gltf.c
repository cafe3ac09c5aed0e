/* sq-format-gltf.c: glTF 2.0, written (the reader is sq-format-gltf-read.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * glTF takes a clip of any world as it is (SQ_FORMAT_ANY_WORLD): the save
 * gives the writer the clip unconverted, with its joint names, its fields
 * and its takes. The writer puts the clip's rest skeleton (the one it is
 * previewed on: gltf_rest_skeleton) as nodes joined by one skin, with rest
 * rotations of identity (a glTF Sequin read: its file's, GLTF_REST_TURN),
 * and each take as an animation whose keys are the clip's, turned into
 * glTF's axes and metres (LINEAR, or STEP where the clip holds a value:
 * held_steps; times in seconds, from 0).
 * The world's fields go in each animation's `extras.sequin` (see
 * put_take_extras), so a file Sequin writes reads back into the same clip.
 *
 * .glb or .gltf: the save's companion names decide (SqSaveOptions:
 * companion_names, made by gltf_companions_for from the output's name):
 * "out.gltf" writes its buffer to "out.bin", a .glb has no companion.
 */
#define G_LOG_DOMAIN "sq-gltf"

#include "config.h"

#include <json-glib/json-glib.h>

#include "sq-format-gltf.h"
#include "sq-math.h"
#include "sq-parallel.h"
#include "sq-pose.h"
#include "worlds/sq-world-sl.h"

/* glTF's axes as Second Life's: x left, y up, z forward; metres. Joint names
 * are kept as they are, and the file has a hierarchy of its own. */
const SqSpace gltf_space = {
  .world = N_("glTF"),
  .world_id = SQ_WORLD_MOTION_CAPTURE,
  .metres_per_unit = 1.0,
  .axis = { 1, 2, 0 },
  .sign = { 1, 1, 1 },
  .scheme = SQ_JOINT_SCHEME_NONE,
  .hierarchy = TRUE,
  .time_grid = 0,
};

static const char * const gltf_extensions[] = { "glb", "gltf", NULL };

gboolean
_sq_gltf_is_skeleton_key (const char *key)
{
  return g_str_equal (key, "parent") || g_str_equal (key, "offset") || g_str_equal (key, "end-site")
         || g_str_equal (key, SQ_TRANSLATIONS_ADD) || g_str_equal (key, GLTF_REST_TURN);
}

/* Extras that are a source file's bytes for its other takes or its exact
 * save, not fields of the animation: the takes become animations instead */
static gboolean
is_carried (const char *key)
{
  static const char * const not_carried[] = {
    "other_sets", "more-skills", "skills-before", "cfp-bytes", GLTF_BUFFER, GLTF_SOURCE_FORMAT, NULL
  };

  return !g_strv_contains (not_carried, key) && !_sq_gltf_is_skeleton_key (key);
}

/* ---- the rest skeleton ------------------------------------------------------ */

typedef struct
{
  gsize     n;
  gint32   *parent;          /* per joint, -1 for a root */
  double  (*offset)[3];      /* from the parent (a root: from the origin), glTF axes, metres */
  gboolean  replace;         /* translation keys replace the offset (else add to it) */
  double  (*turn)[4];        /* how each bone is turned at rest, from the scene (GLTF_REST_TURN) */
} Rest;

static void
rest_clear (Rest *rest)
{
  g_clear_pointer (&rest->parent, g_free);
  g_clear_pointer (&rest->offset, g_free);
  g_clear_pointer (&rest->turn, g_free);
}

/* The turn at rest of joint j's parent, undone (the identity for a root) */
static void
parent_turn_inv (const Rest *rest,
                 gssize      j,
                 double      out[4])
{
  static const double id[4] = { 1, 0, 0, 0 };
  gint32 p = j >= 0 ? rest->parent[j] : -1;

  sq_quat_conjugate (p >= 0 ? rest->turn[p] : id, out);
}

/* Joint j's turn at rest from its parent: the node's rotation */
static void
local_turn (const Rest *rest,
            gsize       j,
            double      out[4])
{
  double inv[4];

  parent_turn_inv (rest, (gssize) j, inv);
  sq_quat_multiply (inv, rest->turn[j], out);
}

/* The bones' turns at rest: a glTF Sequin read keeps its file's (the keys
 * are from the unturned rest); every other clip's are the identity */
static void
rest_turns (const SqClip *clip,
            Rest         *rest)
{
  rest->turn = g_malloc_n (MAX (rest->n, 1), sizeof *rest->turn);
  for (gsize j = 0; j < rest->n; j++)
    {
      GVariant *v = sq_props_get (clip->joints[j].extra, GLTF_REST_TURN);
      double *q = rest->turn[j];

      q[0] = 1, q[1] = q[2] = q[3] = 0;
      if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE ("(dddd)")))
        {
          g_variant_get (v, "(dddd)", &q[0], &q[1], &q[2], &q[3]);
          if (!(isfinite (q[0]) && isfinite (q[1]) && isfinite (q[2]) && isfinite (q[3]))
              || !(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] > 1e-12))
            q[0] = 1, q[1] = q[2] = q[3] = 0;
          sq_quat_normalize (q);
        }
    }
}

static const SqSpace *
clip_space (const SqClip *clip)
{
  return clip->format != NULL && clip->format->space != NULL ? clip->format->space : &gltf_space;
}

/* The rest skeleton of the clip's world, as the clip is previewed on it
 * (sq-pose.c: its own hierarchy, a .x's frames, the Second Life skeleton
 * its names stand for, ActiveWorlds' arms down). The one place the writer
 * asks for it. */
static void
gltf_rest_skeleton (const SqClip *clip,
                    Rest         *rest)
{
  g_autoptr(SqClip) bare = sq_clip_new ();
  g_autoptr(SqPose) pose = NULL;
  g_autofree double *points = NULL;
  const gssize *parents;
  gsize n = clip->n_joints;

  /* the joints without their keys: every joint at its rest place */
  bare->format = clip->format;
  sq_props_free (bare->extra);
  bare->extra = sq_props_copy (clip->extra);
  for (gsize j = 0; j < n; j++)
    {
      SqJoint *b = sq_clip_add_joint (bare, clip->joints[j].name);
      sq_props_free (b->extra);
      b->extra = sq_props_copy (clip->joints[j].extra);
    }
  pose = sq_pose_new (bare);
  parents = sq_pose_get_parents (pose);
  points = g_new0 (double, 3 * MAX (n, 1));
  if (n > 0)
    sq_pose_evaluate (pose, bare, 0.0, points);

  rest->n = n;
  rest->parent = g_new (gint32, MAX (n, 1));
  rest->offset = g_malloc_n (MAX (n, 1), sizeof *rest->offset);
  for (gsize j = 0; j < n; j++)
    {
      double d[3];

      rest->parent[j] = (gint32) parents[j];
      for (int k = 0; k < 3; k++)
        d[k] = points[3 * j + k] - (parents[j] >= 0 ? points[3 * parents[j] + k] : 0.0);
      sq_space_vector_from_sl (&gltf_space, d, rest->offset[j]);
    }
  /* as sq-pose.c poses them */
  rest->replace = sq_pose_translations_replace (pose);
  rest_turns (clip, rest);
}

/* ---- the buffer ------------------------------------------------------------- */

typedef struct
{
  JsonArray  *accessors;
  JsonArray  *views;
  GByteArray *bin;
} Buf;

static JsonArray *
number_array (const double *v,
              guint         n)
{
  JsonArray *a = json_array_sized_new (n);

  for (guint i = 0; i < n; i++)
    json_array_add_double_element (a, v[i]);
  return a;
}

/* `count` elements of `ncomp` floats as an accessor; returns its index */
static gint64
put_floats (Buf         *b,
            const float *v,
            gsize        count,
            guint        ncomp,
            const char  *type,
            gboolean     minmax)
{
  JsonObject *view = json_object_new ();
  JsonObject *acc = json_object_new ();
  gsize offset;

  while (b->bin->len % 4 != 0)
    g_byte_array_append (b->bin, (const guint8 *) "", 1);
  offset = b->bin->len;
  for (gsize i = 0; i < count * ncomp; i++)
    {
      guint32 bits;
      memcpy (&bits, &v[i], 4);
      bits = GUINT32_TO_LE (bits);
      g_byte_array_append (b->bin, (const guint8 *) &bits, 4);
    }
  json_object_set_int_member (view, "buffer", 0);
  json_object_set_int_member (view, "byteOffset", (gint64) offset);
  json_object_set_int_member (view, "byteLength", (gint64) (count * ncomp * 4));
  json_array_add_object_element (b->views, view);

  json_object_set_int_member (acc, "bufferView", json_array_get_length (b->views) - 1);
  json_object_set_int_member (acc, "componentType", GLTF_FLOAT);
  json_object_set_int_member (acc, "count", (gint64) count);
  json_object_set_string_member (acc, "type", type);
  if (minmax && count > 0)
    {
      double lo[4], hi[4];

      for (guint c = 0; c < ncomp; c++)
        {
          lo[c] = hi[c] = v[c];
          for (gsize i = 1; i < count; i++)
            {
              lo[c] = MIN (lo[c], (double) v[i * ncomp + c]);
              hi[c] = MAX (hi[c], (double) v[i * ncomp + c]);
            }
        }
      json_object_set_array_member (acc, "min", number_array (lo, ncomp));
      json_object_set_array_member (acc, "max", number_array (hi, ncomp));
    }
  json_array_add_object_element (b->accessors, acc);
  return json_array_get_length (b->accessors) - 1;
}

/* `count` VEC4s of unsigned shorts (joint indices) as an accessor */
static gint64
put_joint_indices (Buf           *b,
                   const guint16 *v,
                   gsize          count)
{
  JsonObject *view = json_object_new ();
  JsonObject *acc = json_object_new ();
  gsize offset;

  while (b->bin->len % 4 != 0)
    g_byte_array_append (b->bin, (const guint8 *) "", 1);
  offset = b->bin->len;
  for (gsize i = 0; i < count * 4; i++)
    {
      guint16 le = GUINT16_TO_LE (v[i]);
      g_byte_array_append (b->bin, (const guint8 *) &le, 2);
    }
  json_object_set_int_member (view, "buffer", 0);
  json_object_set_int_member (view, "byteOffset", (gint64) offset);
  json_object_set_int_member (view, "byteLength", (gint64) (count * 8));
  json_array_add_object_element (b->views, view);
  json_object_set_int_member (acc, "bufferView", json_array_get_length (b->views) - 1);
  json_object_set_int_member (acc, "componentType", 5123);
  json_object_set_int_member (acc, "count", (gint64) count);
  json_object_set_string_member (acc, "type", "VEC4");
  json_array_add_object_element (b->accessors, acc);
  return json_array_get_length (b->accessors) - 1;
}

/* A thin triangle along each bone (from a joint's parent to it, moving
 * with the parent; a small one at each root), skinned to the skeleton:
 * a mesh for the tools that want one to show the armature (Assimp reads
 * no file without one) */
static gint64
put_bone_mesh (JsonObject   *root,
               Buf          *buf,
               const Rest   *rest,
               double      (*global)[3])
{
  gsize n = rest->n;
  g_autofree float *pos = g_new (float, 9 * n);
  g_autofree float *weights = g_new0 (float, 12 * n);
  g_autofree guint16 *joints = g_new0 (guint16, 12 * n);
  JsonObject *mesh = json_object_new (), *prim = json_object_new (), *attrs = json_object_new ();
  JsonArray *meshes = json_array_new (), *prims = json_array_new ();

  for (gsize j = 0; j < n; j++)
    {
      gint32 p = rest->parent[j];
      const double *to = global[j];
      double from[3], d[3], side[3], len;

      for (int k = 0; k < 3; k++)
        {
          from[k] = p >= 0 ? global[p][k] : to[k];
          d[k] = to[k] - from[k];
        }
      len = sqrt (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      if (len < 1e-6)
        {
          /* a root, or a joint where its parent is: 2 cm up */
          d[0] = 0, d[1] = 0.02, d[2] = 0, len = 0.02;
          memcpy (from, to, sizeof from);
        }
      /* sideways: across the bone, in the ground plane where it can be */
      side[0] = d[2], side[1] = 0, side[2] = -d[0];
      if (sqrt (side[0] * side[0] + side[2] * side[2]) < 1e-6 * len)
        side[0] = len, side[1] = 0, side[2] = 0;
      {
        double sl = sqrt (side[0] * side[0] + side[1] * side[1] + side[2] * side[2]);
        for (int k = 0; k < 3; k++)
          {
            pos[9 * j + k] = (float) from[k];
            pos[9 * j + 3 + k] = (float) (from[k] + 0.1 * len * side[k] / sl + 0.2 * d[k]);
            pos[9 * j + 6 + k] = (float) (from[k] + d[k]);
          }
      }
      for (int v = 0; v < 3; v++)
        {
          joints[12 * j + 4 * v] = (guint16) (p >= 0 ? p : (gint32) j);
          weights[12 * j + 4 * v] = 1.0f;
        }
    }
  json_object_set_int_member (attrs, "POSITION", put_floats (buf, pos, 3 * n, 3, "VEC3", TRUE));
  json_object_set_int_member (attrs, "JOINTS_0", put_joint_indices (buf, joints, 3 * n));
  json_object_set_int_member (attrs, "WEIGHTS_0", put_floats (buf, weights, 3 * n, 4, "VEC4", FALSE));
  json_object_set_object_member (prim, "attributes", attrs);
  json_array_add_object_element (prims, prim);
  json_object_set_string_member (mesh, "name", "Sequin bones");
  json_object_set_array_member (mesh, "primitives", prims);
  json_array_add_object_element (meshes, mesh);
  json_object_set_array_member (root, "meshes", meshes);
  return 0;
}

/* ---- fields ----------------------------------------------------------------- */

static gboolean
variant_all_finite (GVariant *v)
{
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_DOUBLE))
    return isfinite (g_variant_get_double (v));
  if (g_variant_is_container (v))
    {
      gsize n = g_variant_n_children (v);

      for (gsize i = 0; i < n; i++)
        {
          g_autoptr(GVariant) c = g_variant_get_child_value (v, i);
          if (!variant_all_finite (c))
            return FALSE;
        }
    }
  return TRUE;
}

/* Each carried field as JSON in fields[key], its GVariant type in
 * types[key]; a value JSON cannot give back exactly goes as GVariant text
 * (type "gvariant-text"), bytes and large values as their GVariant
 * serialisation in base64 (type "base64:" and the GVariant type). */
static void
put_fields (JsonObject    *into,
            const SqProps *props,
            const char    *joint,
            GPtrArray     *losses)
{
  JsonObject *fields = json_object_new ();
  JsonObject *types = json_object_new ();

  for (gsize i = 0; i < sq_props_size (props); i++)
    {
      const char *key = sq_props_key_at (props, i);
      GVariant *v = sq_props_value_at (props, i);
      JsonNode *node;
      g_autoptr(GVariant) back = NULL;

      if (!is_carried (key))
        continue;
      /* bytes and large values: GVariant's own serialised form, little-endian */
      if (g_variant_get_size (v) > 1024 || g_variant_is_of_type (v, G_VARIANT_TYPE_BYTESTRING))
        {
          g_autoptr(GVariant) le = G_BYTE_ORDER == G_BIG_ENDIAN ? g_variant_byteswap (v) : g_variant_ref (v);
          g_autofree char *b64 = g_base64_encode (g_variant_get_data (le), g_variant_get_size (le));
          g_autofree char *type = g_strconcat ("base64:", g_variant_get_type_string (v), NULL);

          json_object_set_string_member (fields, key, b64);
          json_object_set_string_member (types, key, type);
          continue;
        }
      node = json_gvariant_serialize (v);
      if (variant_all_finite (v))
        back = json_gvariant_deserialize (node, g_variant_get_type_string (v), NULL);
      if (back != NULL && g_variant_equal (back, v))
        {
          json_object_set_member (fields, key, node);
          json_object_set_string_member (types, key, g_variant_get_type_string (v));
          continue;
        }
      json_node_unref (node);
      {
        g_autofree char *text = g_variant_print (v, TRUE);
        g_autoptr(GVariant) parsed = g_variant_parse (NULL, text, NULL, NULL, NULL);

        if (parsed == NULL || !g_variant_equal (parsed, v))
          {
            if (joint != NULL)
              _sq_loss (losses, _("joint “%s”: the field %s cannot be written in glTF's extras"), joint, key);
            else
              _sq_loss (losses, _("the field %s cannot be written in glTF's extras"), key);
            continue;
          }
        json_object_set_string_member (fields, key, text);
        json_object_set_string_member (types, key, "gvariant-text");
      }
    }
  json_object_set_object_member (into, "fields", fields);
  json_object_set_object_member (into, "types", types);
}

static const char *
source_format_id (const SqClip *clip)
{
  GVariant *v = sq_props_get (clip->extra, GLTF_SOURCE_FORMAT);

  if (clip->format == &_sq_format_gltf && v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_STRING))
    return g_variant_get_string (v, NULL);
  return clip->format != NULL ? clip->format->id : "";
}

/* What the reader needs to give the take back as it was: the clip's
 * header, its fields and each joint's, the joint order, and what an
 * additive world's translations were added to */
static JsonObject *
take_extras (const SqClip *t,
             const Rest   *rest,
             gboolean      empty,
             GPtrArray    *losses)
{
  JsonObject *sequin = json_object_new ();
  JsonArray *joints = json_array_new ();

  json_object_set_int_member (sequin, "version", 1);
  json_object_set_string_member (sequin, "format", source_format_id (t));
  json_object_set_string_member (sequin, "name", t->name);
  json_object_set_string_member (sequin, "root", t->root);
  json_object_set_double_member (sequin, "fps", t->fps);
  json_object_set_int_member (sequin, "frame-base", t->frame_base);
  json_object_set_double_member (sequin, "duration", t->duration);
  if (empty)
    json_object_set_boolean_member (sequin, "empty", TRUE);
  put_fields (sequin, t->extra, NULL, losses);
  for (gsize j = 0; j < t->n_joints; j++)
    {
      JsonObject *jo = json_object_new ();

      json_object_set_string_member (jo, "name", t->joints[j].name);
      put_fields (jo, t->joints[j].extra, t->joints[j].name, losses);
      if (!rest->replace && t->joints[j].tracks[SQ_CHANNEL_TRANSLATION].n_keys > 0)
        json_object_set_array_member (jo, "translation-base", number_array (rest->offset[j], 3));
      json_array_add_object_element (joints, jo);
    }
  json_object_set_array_member (sequin, "joints", joints);
  return sequin;
}

/* ---- animations ------------------------------------------------------------- */

typedef struct
{
  Buf        *buf;
  JsonArray  *samplers;
  JsonArray  *channels;
  guint       n_unnormal;
  double      shift;        /* added to every key time: glTF's times are ≥ 0 */
  guint       n_same_time;  /* keys on their previous one's time as 32-bit floats */
  guint       n_beyond;     /* keys later than a 32-bit float holds */
  guint       n_huge;       /* keys whose values a 32-bit float does not hold */
} Anim;

static void
add_channel (Anim       *a,
             gint64      input,
             gint64      output,
             gint64      node,
             const char *path,
             gboolean    step)
{
  JsonObject *sampler = json_object_new ();
  JsonObject *channel = json_object_new ();
  JsonObject *target = json_object_new ();

  json_object_set_int_member (sampler, "input", input);
  json_object_set_int_member (sampler, "output", output);
  json_object_set_string_member (sampler, "interpolation", step ? "STEP" : "LINEAR");
  json_array_add_object_element (a->samplers, sampler);
  json_object_set_int_member (target, "node", node);
  json_object_set_string_member (target, "path", path);
  json_object_set_int_member (channel, "sampler", json_array_get_length (a->samplers) - 1);
  json_object_set_object_member (channel, "target", target);
  json_array_add_object_element (a->channels, channel);
}

/* Where the clip holds a value, STEP: a track that holds one value at
 * every key (LINEAR and STEP play it alike), or one that holds each value
 * until the frame before the next and then changes within that frame (as
 * a STEP channel is read: sq-format-gltf-read.c channel_keys), each change
 * after a held value. The second
 * is written with its changes only, the hold keys left out; reading it
 * back gives them again. Returns TRUE for STEP, with *n the keys kept. */
static gboolean
same_value (const float *values,
            gsize        i,
            gsize        k,
            guint        ncomp)
{
  return memcmp (&values[i * ncomp], &values[k * ncomp], ncomp * sizeof *values) == 0;
}

static gboolean
held_steps (float  *times,
            float  *values,
            gsize  *n,
            guint   ncomp,
            double  fps)
{
  gsize m = 0, holds = 0, count = *n;
  double frame = fps > 0 && isfinite (fps) ? 1.0 / fps : 0;
  gboolean constant = TRUE;

  if (count < 2)
    return FALSE;
  for (gsize i = 1; i < count; i++)
    constant = constant && same_value (values, i, 0, ncomp);
  if (constant)
    return TRUE;
  if (frame <= 0)
    return FALSE;
  for (gsize i = 0; i + 1 < count; i++)
    {
      double gap = (double) times[i + 1] - times[i], tol = 1e-6 * MAX (1.0, fabs ((double) times[i + 1]));

      /* each change within one frame, after a value held (a change
       * right after a change is motion, not a step) */
      if (!same_value (values, i, i + 1, ncomp)
          && (gap > frame + tol || i == 0 || !same_value (values, i, i - 1, ncomp)))
        return FALSE;
      /* a hold key: the value before it, a change one frame after it */
      if (i > 0 && same_value (values, i, i - 1, ncomp) && !same_value (values, i, i + 1, ncomp)
          && fabs (gap - frame) <= tol && (double) times[i] - times[i - 1] > 1e-6)
        holds++;
    }
  if (holds == 0)
    return FALSE;
  /* the hold keys out; reading puts them back one frame before each change */
  for (gsize i = 0; i < count; i++)
    {
      gboolean hold = i > 0 && i + 1 < count && same_value (values, i, i - 1, ncomp)
                      && !same_value (values, i, i + 1, ncomp)
                      && fabs ((double) times[i + 1] - times[i] - frame) <= 1e-6 * MAX (1.0, fabs ((double) times[i + 1]));

      if (hold)
        continue;
      times[m] = times[i];
      memmove (&values[m * ncomp], &values[i * ncomp], ncomp * sizeof *values);
      m++;
    }
  *n = m;
  return TRUE;
}

/* One track as a sampler and a channel: its keys in glTF's axes */
static void
put_track (Anim          *a,
           const SqClip  *t,
           const SqTrack *track,
           SqChannel      c,
           const Rest    *rest,
           gsize          j,
           gint64         node)
{
  const double *base = rest->replace ? NULL : rest->offset[j];
  double pinv[4];

  static const char * const paths[] = { "rotation", "translation", "scale" };
  const SqSpace *space = clip_space (t);
  guint ncomp = c == SQ_CHANNEL_ROTATION ? 4 : 3;
  g_autofree float *times = g_new (float, track->n_keys);
  g_autofree float *values = g_new (float, track->n_keys * ncomp);
  gsize n = 0;
  gboolean step;

  parent_turn_inv (rest, (gssize) j, pinv);
  for (gsize k = 0; k < track->n_keys; k++)
    {
      SqKey key = sq_track_key (track, k);
      float *out = &values[n * ncomp];
      double v[4];

      /* glTF's times increase: a key its previous one's time as a float
       * cannot be told apart from it */
      times[n] = (float) (key.time + a->shift);
      if (!isfinite (times[n]))
        {
          /* a time beyond 3.4e38 s (with the shift) would be written "inf",
           * which is not JSON */
          a->n_beyond++;
          continue;
        }
      if (n > 0 && !(times[n] > times[n - 1]))
        {
          a->n_same_time++;
          continue;
        }
      n++;
      if (c == SQ_CHANNEL_ROTATION)
        {
          double sl[4], len;

          sq_space_rotation_to_sl (space, key.v, sl);
          sq_space_rotation_from_sl (&gltf_space, sl, v);
          /* from the unturned rest to the node's: the parent's rest turn
           * undone before, the bone's own after */
          sq_quat_multiply (pinv, v, sl);
          sq_quat_multiply (sl, rest->turn[j], v);
          len = sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
          if (fabs (len - 1.0) > 1e-5)
            a->n_unnormal++;
          if (!(len > 0) || !isfinite (len))
            v[0] = 1, v[1] = v[2] = v[3] = 0, len = 1;
          /* glTF's order: x, y, z, w */
          for (int i = 0; i < 3; i++)
            out[i] = (float) (v[1 + i] / len);
          out[3] = (float) (v[0] / len);
        }
      else if (c == SQ_CHANNEL_TRANSLATION)
        {
          double sl[3];

          sq_space_vector_to_sl (space, key.v, sl);
          sq_space_vector_from_sl (&gltf_space, sl, v);
          for (int i = 0; i < 3; i++)
            sl[i] = v[i] + (base != NULL ? base[i] : 0.0);
          /* in the parent's turned frame */
          sq_quat_rotate (pinv, sl, v);
          for (int i = 0; i < 3; i++)
            out[i] = (float) v[i];
        }
      else
        {
          /* scale factors follow the axes, without unit or sign */
          double s[3];
          for (int i = 0; i < 3; i++)
            s[space->axis[i]] = key.v[i];
          for (int i = 0; i < 3; i++)
            out[i] = (float) s[gltf_space.axis[i]];
        }
      /* a value beyond 3.4e38 would be written as an infinite float, which
       * no reader takes */
      for (guint i = 0; i < ncomp; i++)
        if (!isfinite (out[i]))
          {
            a->n_huge++;
            n--;
            break;
          }
    }
  step = held_steps (times, values, &n, ncomp, t->fps);
  add_channel (a, put_floats (a->buf, times, n, 1, "SCALAR", TRUE),
               put_floats (a->buf, values, n, ncomp, ncomp == 4 ? "VEC4" : "VEC3", FALSE),
               node, paths[c], step);
}

/* The time of the take's first key, or 0 without keys */
static double
earliest_key (const SqClip *t)
{
  double first = 0;
  gboolean any = FALSE;

  for (gsize j = 0; j < t->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      if (t->joints[j].tracks[c].n_keys > 0)
        {
          double k0 = sq_track_key (&t->joints[j].tracks[c], 0).time;
          first = any ? MIN (first, k0) : k0;
          any = TRUE;
        }
  return any ? first : 0.0;
}

/* Take `t` as an animation on the nodes named as its joints */
static void
put_animation (Buf          *buf,
               JsonArray    *animations,
               const SqClip *t,
               GHashTable   *node_of,
               GPtrArray    *losses)
{
  JsonObject *anim = json_object_new ();
  JsonObject *extras = json_object_new ();
  Anim a = { buf, json_array_new (), json_array_new (), 0, 0.0, 0, 0 };
  Rest rest = { 0 };
  const char *name = t->takes != NULL && t->takes[t->take] != NULL && t->takes[t->take][0] != '\0'
                     ? t->takes[t->take] : t->name;
  double first = earliest_key (t);

  gltf_rest_skeleton (t, &rest);
  /* glTF's key times are not negative: keys before 0 s (a SEQ's frames
   * before its first) move later, all by the same time */
  if (first < 0)
    {
      a.shift = -first;
      if (name[0] != '\0')
        _sq_note (losses, _("take “%s” has keys from %g s; glTF's times start at 0 s, so every key is written %g s later (Sequin reads them back where they were)"),
                  name, first, a.shift);
      else
        _sq_note (losses, _("the keys start at %g s; glTF's times start at 0 s, so every key is written %g s later (Sequin reads them back where they were)"),
                  first, a.shift);
    }
  for (gsize j = 0; j < t->n_joints; j++)
    {
      gpointer node;

      if (!g_hash_table_lookup_extended (node_of, t->joints[j].name, NULL, &node))
        {
          _sq_loss (losses, _("take “%s”: joint “%s” is not in the skeleton of the first take; its keys are not written"),
                    name, t->joints[j].name);
          continue;
        }
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        if (t->joints[j].tracks[c].n_keys > 0)
          put_track (&a, t, &t->joints[j].tracks[c], c, &rest, j, GPOINTER_TO_INT (node));
    }
  /* an animation has a channel: a take without keys gets the rest of
   * the first node, marked to be left out on reading */
  if (json_array_get_length (a.channels) == 0)
    {
      float zero = 0, id[4] = { 0, 0, 0, 1 };
      add_channel (&a, put_floats (buf, &zero, 1, 1, "SCALAR", TRUE), put_floats (buf, id, 1, 4, "VEC4", FALSE),
                   0, "rotation", FALSE);
      json_object_set_object_member (extras, "sequin", take_extras (t, &rest, TRUE, losses));
    }
  else
    json_object_set_object_member (extras, "sequin", take_extras (t, &rest, FALSE, losses));
  if (a.shift > 0)
    json_object_set_double_member (json_object_get_object_member (extras, "sequin"), "time-shift", a.shift);
  if (a.n_same_time > 0)
    _sq_loss (losses, ngettext ("take “%s”: %u key is on its previous key's time in glTF's 32-bit times and is left out",
                                "take “%s”: %u keys are on their previous key's time in glTF's 32-bit times and are left out",
                                a.n_same_time),
              name, a.n_same_time);
  if (a.n_beyond > 0)
    _sq_loss (losses, ngettext ("take “%s”: %u key is later than glTF's 32-bit times hold and is left out",
                                "take “%s”: %u keys are later than glTF's 32-bit times hold and are left out",
                                a.n_beyond),
              name, a.n_beyond);
  if (a.n_huge > 0)
    _sq_loss (losses, ngettext ("take “%s”: %u key holds a value beyond glTF's 32-bit floats and is left out",
                                "take “%s”: %u keys hold values beyond glTF's 32-bit floats and are left out",
                                a.n_huge),
              name, a.n_huge);
  if (a.n_unnormal > 0)
    _sq_loss (losses, ngettext ("take “%s”: %u rotation is not of unit length; glTF holds it normalised",
                                "take “%s”: %u rotations are not of unit length; glTF holds them normalised",
                                a.n_unnormal),
              name, a.n_unnormal);
  json_object_set_string_member (anim, "name", name);
  json_object_set_array_member (anim, "channels", a.channels);
  json_object_set_array_member (anim, "samplers", a.samplers);
  json_object_set_object_member (anim, "extras", extras);
  json_array_add_object_element (animations, anim);
  rest_clear (&rest);
}

/* ---- the skeleton ----------------------------------------------------------- */

/* The inverse of a bone's place and turn at rest, column by column */
static void
put_inverse_bind (const double q[4],
                  const double pos[3],
                  float        m[16])
{
  double inv[4], col[3][3];
  static const double axes[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };

  sq_quat_conjugate (q, inv);
  for (int c = 0; c < 3; c++)
    {
      sq_quat_rotate (inv, axes[c], col[c]);
      for (int r = 0; r < 3; r++)
        m[4 * c + r] = (float) col[c][r];
      m[4 * c + 3] = 0;
    }
  for (int r = 0; r < 3; r++)
    m[12 + r] = (float) -(col[0][r] * pos[0] + col[1][r] * pos[1] + col[2][r] * pos[2]);
  m[15] = 1;
}

/* Joint j as a node: its rest place from its parent, and its rest turn
 * when the clip came from a file that had one */
static JsonObject *
joint_node (const SqClip *clip,
            const Rest   *rest,
            gsize         j)
{
  JsonObject *node = json_object_new ();
  double pinv[4], off[3], q[4];

  parent_turn_inv (rest, (gssize) j, pinv);
  sq_quat_rotate (pinv, rest->offset[j], off);
  local_turn (rest, j, q);
  json_object_set_string_member (node, "name", clip->joints[j].name);
  json_object_set_array_member (node, "translation", number_array (off, 3));
  /* glTF's order: x, y, z, w */
  if (fabs (fabs (q[0]) - 1.0) > 1e-12)
    {
      double xyzw[4] = { q[1], q[2], q[3], q[0] };
      json_object_set_array_member (node, "rotation", number_array (xyzw, 4));
    }
  return node;
}

/* The End Site joint j keeps (BVH) as a node, or NULL */
static JsonObject *
end_site_node (const SqClip *clip,
               const Rest   *rest,
               gsize         j)
{
  GVariant *end = sq_props_get (clip->joints[j].extra, "end-site");
  const SqSpace *space = clip_space (clip);
  JsonObject *node, *extras, *sequin;
  double e[3], sl[3], g[3], inv[4];

  if (end == NULL || !g_variant_is_of_type (end, G_VARIANT_TYPE ("(ddd)")))
    return NULL;
  g_variant_get (end, "(ddd)", &e[0], &e[1], &e[2]);
  sq_space_vector_to_sl (space, e, sl);
  sq_space_vector_from_sl (&gltf_space, sl, e);
  sq_quat_conjugate (rest->turn[j], inv);
  sq_quat_rotate (inv, e, g);
  node = json_object_new ();
  json_object_set_string_member (node, "name", clip->joints[j].name);
  json_object_set_array_member (node, "translation", number_array (g, 3));
  extras = json_object_new (), sequin = json_object_new ();
  json_object_set_boolean_member (sequin, "end-site", TRUE);
  json_object_set_object_member (extras, "sequin", sequin);
  json_object_set_object_member (node, "extras", extras);
  return node;
}

/* Joint j as node j (its rest offset and turn), an End Site the clip
 * keeps (BVH) as an extra node under it, never a skin joint; the skin with
 * each joint's inverse bind matrix. */
static void
put_skeleton (JsonObject   *root,
              Buf          *buf,
              const SqClip *clip,
              const Rest   *rest)
{
  JsonArray *nodes = json_array_new (), *roots = json_array_new (), *joints = json_array_new ();
  g_autofree JsonArray **children = g_new0 (JsonArray *, MAX (rest->n, 1));
  g_autofree double (*global)[3] = g_malloc_n (MAX (rest->n, 1), sizeof *global);
  g_autofree float *ibm = g_new0 (float, 16 * MAX (rest->n, 1));
  gsize n = rest->n, extra_node = n;

  for (gsize j = 0; j < n; j++)
    {
      json_array_add_object_element (nodes, joint_node (clip, rest, j));
      json_array_add_int_element (joints, (gint64) j);
      if (rest->parent[j] < 0)
        json_array_add_int_element (roots, (gint64) j);
      else
        {
          if (children[rest->parent[j]] == NULL)
            children[rest->parent[j]] = json_array_new ();
          json_array_add_int_element (children[rest->parent[j]], (gint64) j);
        }
    }
  for (gsize j = 0; j < n; j++)
    {
      JsonObject *node = end_site_node (clip, rest, j);

      if (node == NULL)
        continue;
      json_array_add_object_element (nodes, node);
      if (children[j] == NULL)
        children[j] = json_array_new ();
      json_array_add_int_element (children[j], (gint64) extra_node++);
    }
  for (gsize j = 0; j < n; j++)
    if (children[j] != NULL)
      json_object_set_array_member (json_array_get_object_element (nodes, j), "children", children[j]);

  /* where each joint is at rest: sq_pose_new put parents first in its
   * evaluation, not in the clip's order, so follow the chain */
  for (gsize j = 0; j < n; j++)
    {
      gsize steps = 0;
      memcpy (global[j], rest->offset[j], sizeof global[j]);
      for (gint32 p = rest->parent[j]; p >= 0 && steps < n; p = rest->parent[p], steps++)
        for (int k = 0; k < 3; k++)
          global[j][k] += rest->offset[p][k];
      put_inverse_bind (rest->turn[j], global[j], &ibm[16 * j]);
    }
  json_object_set_array_member (root, "nodes", nodes);
  if (n > 0)
    {
      JsonArray *skins = json_array_new (), *scene_list = json_array_new ();
      JsonObject *skin = json_object_new (), *scene = json_object_new ();

      json_object_set_int_member (skin, "inverseBindMatrices", put_floats (buf, ibm, n, 16, "MAT4", FALSE));
      json_object_set_int_member (skin, "skeleton", json_array_get_int_element (roots, 0));
      json_object_set_array_member (skin, "joints", joints);
      json_object_set_string_member (skin, "name", clip->name[0] != '\0' ? clip->name : "Sequin");
      json_array_add_object_element (skins, skin);
      json_object_set_array_member (root, "skins", skins);
      /* the bones' mesh, on a node of its own at the top */
      {
        JsonObject *mnode = json_object_new ();

        json_object_set_string_member (mnode, "name", "Sequin bones");
        json_object_set_int_member (mnode, "mesh", put_bone_mesh (root, buf, rest, global));
        json_object_set_int_member (mnode, "skin", 0);
        json_array_add_object_element (nodes, mnode);
        json_array_add_int_element (roots, (gint64) extra_node++);
      }
      json_object_set_array_member (scene, "nodes", roots);
      json_array_add_object_element (scene_list, scene);
      json_object_set_array_member (root, "scenes", scene_list);
      json_object_set_int_member (root, "scene", 0);
    }
  else
    {
      json_array_unref (roots);
      json_array_unref (joints);
    }
}

/* ---- takes ------------------------------------------------------------------ */

typedef struct
{
  GPtrArray  *companions;   /* SqCompanion*, or NULL */
  GBytes     *buffer;       /* a .gltf's buffer, or NULL */
} Beside;

static GBytes *
beside_companion (const char *name,
                  gpointer    user_data,
                  GError    **error)
{
  const Beside *b = user_data;

  for (guint i = 0; b->companions != NULL && i < b->companions->len; i++)
    {
      const SqCompanion *c = b->companions->pdata[i];
      if (g_ascii_strcasecmp (c->name, name) == 0)
        return g_bytes_ref (c->bytes);
    }
  if (b->buffer != NULL)
    return g_bytes_ref (b->buffer);
  g_set_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND, _("“%s” is not at hand"), name);
  return NULL;
}

/* The file's other takes, read again from its bytes (the clip's own saved
 * in its format first when it was edited, the others kept as they were
 * read); each one that cannot be read is reported lost. */
static void
collect_takes (const SqClip *clip,
               GPtrArray    *takes,
               GPtrArray    *owned,
               GPtrArray    *losses)
{
  g_autoptr(GPtrArray) companions = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_companion_free);
  g_autoptr(GBytes) bytes = NULL;
  GVariant *kept;
  Beside beside = { companions, NULL };
  gsize n_takes = 0;
  const char * const *names = sq_clip_get_takes (clip, &n_takes, NULL);

  for (gsize i = 0; i < n_takes; i++)
    g_ptr_array_add (takes, i == clip->take ? (gpointer) clip : NULL);
  if (n_takes == 0)
    {
      g_ptr_array_add (takes, (gpointer) clip);
      return;
    }
  if (clip->format == &_sq_format_gltf || (!sq_clip_is_modified (clip) && clip->source != NULL))
    bytes = clip->source != NULL ? g_bytes_ref (clip->source) : NULL;
  else if (clip->format != NULL && sq_format_can_write (clip->format))
    {
      SqSaveOptions so = { 0 };
      so.companions = companions;
      bytes = sq_save_bytes (clip, clip->format, &so, NULL, NULL);
    }
  if ((kept = sq_props_get (clip->extra, GLTF_BUFFER)) != NULL && g_variant_is_of_type (kept, G_VARIANT_TYPE_BYTESTRING))
    beside.buffer = g_variant_get_data_as_bytes (kept);
  else if ((kept = sq_props_get (clip->extra, "cfp-bytes")) != NULL)
    beside.buffer = g_variant_get_data_as_bytes (kept);

  for (gsize i = 0; i < n_takes; i++)
    {
      SqLoadOptions lo = { 0 };
      g_autoptr(GError) local = NULL;
      SqClip *t;

      if (i == clip->take)
        continue;
      lo.take = (guint) i;
      lo.companion = beside_companion;
      lo.companion_data = &beside;
      t = bytes != NULL ? sq_load_bytes (bytes, NULL, clip->format, &lo, &local) : NULL;
      if (t == NULL)
        {
          _sq_loss (losses, _("take %zu “%s” is not written: %s"), i + 1, names[i],
                    local != NULL ? local->message : _("the file's bytes are not at hand"));
          continue;
        }
      g_ptr_array_add (owned, t);
      takes->pdata[i] = t;
    }
  g_clear_pointer (&beside.buffer, g_bytes_unref);
  for (guint i = takes->len; i > 0; i--)
    if (takes->pdata[i - 1] == NULL)
      g_ptr_array_remove_index (takes, i - 1);
}

/* ---- the file --------------------------------------------------------------- */

/* "out.gltf" keeps its buffer in "out.bin"; a .glb has no companion */
static char **
gltf_companions_for (const char *out_name)
{
  g_autofree char *base = out_name != NULL ? g_path_get_basename (out_name) : NULL;
  const char *dot = base != NULL ? strrchr (base, '.') : NULL;
  char **names;

  if (dot == NULL || g_ascii_strcasecmp (dot, ".gltf") != 0)
    return NULL;
  names = g_new0 (char *, 2);
  names[0] = g_strdup_printf ("%.*s.bin", (int) (dot - base), base);
  return names;
}

/* The files a .gltf's buffers name beside it (not data: URIs, nor a path
 * elsewhere), so that a save over it may replace them; a .glb: none */
static char **
gltf_companions_in (GBytes *bytes)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  GPtrArray *names;
  JsonNode *root;
  JsonObject *top;
  JsonArray *buffers;

  if ((len >= 4 && memcmp (data, "glTF", 4) == 0) || !json_parser_load_from_data (parser, data, (gssize) len, NULL)
      || (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  top = json_node_get_object (root);
  if (!json_object_has_member (top, "buffers") || !JSON_NODE_HOLDS_ARRAY (json_object_get_member (top, "buffers")))
    return NULL;
  buffers = json_object_get_array_member (top, "buffers");
  names = g_ptr_array_new ();
  for (guint i = 0; i < json_array_get_length (buffers); i++)
    {
      JsonNode *b = json_array_get_element (buffers, i);
      JsonNode *uri = JSON_NODE_HOLDS_OBJECT (b) ? json_object_get_member (json_node_get_object (b), "uri") : NULL;
      const char *name = uri != NULL && JSON_NODE_HOLDS_VALUE (uri)
                         && json_node_get_value_type (uri) == G_TYPE_STRING ? json_node_get_string (uri) : NULL;

      if (name != NULL && !g_str_has_prefix (name, "data:") && strchr (name, '/') == NULL
          && strchr (name, '\\') == NULL && *name != '\0')
        g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

static const char *
bin_name (const SqSaveOptions *options)
{
  if (options->companion_names != NULL && options->companion_names[0] != NULL
      && g_str_has_suffix (options->companion_names[0], ".bin"))
    return options->companion_names[0];
  return NULL;
}

/* The glTF document of the clip's skeleton and takes; its buffer in *bin */
static JsonNode *
build_document (const SqClip *clip,
                GByteArray   *bin,
                const char   *uri,
                GPtrArray    *losses)
{
  JsonObject *root = json_object_new (), *asset = json_object_new ();
  JsonArray *animations = json_array_new ();
  Buf buf = { json_array_new (), json_array_new (), bin };
  g_autoptr(GPtrArray) takes = g_ptr_array_new ();
  g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_clip_free);
  g_autoptr(GHashTable) node_of = g_hash_table_new (g_str_hash, g_str_equal);
  Rest rest = { 0 };
  JsonNode *node;

  json_object_set_string_member (asset, "version", "2.0");
  json_object_set_string_member (asset, "generator", "Sequin " PACKAGE_VERSION);
  json_object_set_object_member (root, "asset", asset);

  gltf_rest_skeleton (clip, &rest);
  put_skeleton (root, &buf, clip, &rest);
  for (gsize j = 0; j < clip->n_joints; j++)
    if (!g_hash_table_contains (node_of, clip->joints[j].name))
      g_hash_table_insert (node_of, clip->joints[j].name, GINT_TO_POINTER ((int) j));
  collect_takes (clip, takes, owned, losses);
  if (clip->n_joints == 0)
    _sq_loss (losses, _("the clip has no joints: glTF has no animation to hold its fields"));
  else
    for (guint i = 0; i < takes->len; i++)
      put_animation (&buf, animations, takes->pdata[i], node_of, losses);
  rest_clear (&rest);

  if (json_array_get_length (animations) > 0)
    json_object_set_array_member (root, "animations", animations);
  else
    json_array_unref (animations);
  if (bin->len > 0)
    {
      JsonArray *buffers = json_array_new ();
      JsonObject *b = json_object_new ();

      json_object_set_int_member (b, "byteLength", bin->len);
      if (uri != NULL)
        json_object_set_string_member (b, "uri", uri);
      json_array_add_object_element (buffers, b);
      json_object_set_array_member (root, "buffers", buffers);
      json_object_set_array_member (root, "bufferViews", buf.views);
      json_object_set_array_member (root, "accessors", buf.accessors);
    }
  else
    {
      json_array_unref (buf.views);
      json_array_unref (buf.accessors);
    }
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, root);
  return node;
}

static void
put_le32 (GByteArray *out,
          guint32     v)
{
  v = GUINT32_TO_LE (v);
  g_byte_array_append (out, (const guint8 *) &v, 4);
}

/* GLB: the header, the JSON chunk (padded with spaces), the BIN chunk
 * (padded with zeros) */
static GBytes *
glb_bytes (const char *json,
           gsize       json_len,
           GByteArray *bin)
{
  gsize jpad = (4 - json_len % 4) % 4, bpad = (4 - bin->len % 4) % 4;
  gsize total = 12 + 8 + json_len + jpad + (bin->len > 0 ? 8 + bin->len + bpad : 0);
  GByteArray *out = g_byte_array_sized_new (total);

  put_le32 (out, GLTF_MAGIC);
  put_le32 (out, 2);
  put_le32 (out, (guint32) total);
  put_le32 (out, (guint32) (json_len + jpad));
  put_le32 (out, GLTF_CHUNK_JSON);
  g_byte_array_append (out, (const guint8 *) json, json_len);
  g_byte_array_append (out, (const guint8 *) "   ", jpad);
  if (bin->len > 0)
    {
      put_le32 (out, (guint32) (bin->len + bpad));
      put_le32 (out, GLTF_CHUNK_BIN);
      g_byte_array_append (out, bin->data, bin->len);
      g_byte_array_append (out, (const guint8 *) "\0\0\0", bpad);
    }
  return g_byte_array_free_to_bytes (out);
}

static GPtrArray *
gltf_write (const SqClip        *clip,
            const SqSaveOptions *options,
            GPtrArray           *losses,
            GError             **error)
{
  const char *bin_file = bin_name (options);
  g_autoptr(GByteArray) bin = g_byte_array_new ();
  g_autoptr(JsonNode) doc = NULL;
  g_autoptr(JsonGenerator) gen = NULL;
  g_autofree char *json = NULL;
  gsize json_len = 0;
  gsize len;
  const guint8 *src = clip->source != NULL ? g_bytes_get_data (clip->source, &len) : NULL;

  /* an unedited .glb saved as a .glb: the bytes read */
  if (!options->no_source_copy && clip->format == &_sq_format_gltf && src != NULL && len >= 4
      && !sq_clip_is_modified (clip) && bin_file == NULL && memcmp (src, "glTF", 4) == 0)
    return _sq_pieces_new (g_bytes_ref (clip->source));
  if (bin_file != NULL && options->companions == NULL)
    {
      g_set_error_literal (error, SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT,
                           _("a .gltf is written with its .bin file, and this save gave no place for it"));
      return NULL;
    }

  doc = build_document (clip, bin, bin_file, losses);
  gen = json_generator_new ();
  json_generator_set_root (gen, doc);
  if (bin_file == NULL)
    {
      json = json_generator_to_data (gen, &json_len);
      return _sq_pieces_new (glb_bytes (json, json_len, bin));
    }
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 1);
  json = json_generator_to_data (gen, &json_len);
  if (bin->len > 0)
    {
      SqCompanion *c = g_new0 (SqCompanion, 1);

      c->name = g_strdup (bin_file);
      c->bytes = g_bytes_new (bin->data, bin->len);
      g_ptr_array_add (options->companions, c);
    }
  return _sq_pieces_new (g_bytes_new_take (g_steal_pointer (&json), json_len));
}

/* ---- the format ------------------------------------------------------------- */

static int
gltf_probe (const guint8 *data,
            gsize         len)
{
  gsize i = 0;

  if (len >= 8 && memcmp (data, "glTF", 4) == 0 && data[4] == 2 && data[5] == 0 && data[6] == 0 && data[7] == 0)
    return 100;
  /* JSON with an "asset" near the start */
  while (i < len && i < 64 && g_ascii_isspace (data[i]))
    i++;
  if (i < len && data[i] == '{')
    {
      gsize n = MIN (len, 4096);
      for (gsize k = i; k + 7 <= n; k++)
        if (memcmp (data + k, "\"asset\"", 7) == 0)
          return 80;
    }
  return 0;
}

/* A field read back from a Sequin file is another format's: its own words */
static char *
gltf_describe_field (const char *key,
                     GVariant   *value)
{
  gsize n_formats;
  const SqFormat * const *formats = sq_formats (&n_formats);

  if (g_str_equal (key, GLTF_REST_TURN))
    return g_strdup (_("its bone's turn at rest (the motion is kept, from the unturned rest)"));
  if (g_str_equal (key, GLTF_SOURCE_FORMAT) || g_str_equal (key, GLTF_BUFFER) || _sq_gltf_is_skeleton_key (key))
    return NULL;
  for (gsize f = 0; f < n_formats; f++)
    for (guint i = 0; formats[f] != &_sq_format_gltf && formats[f]->fields != NULL && formats[f]->fields[i] != NULL; i++)
      if (g_str_equal (formats[f]->fields[i], key))
        return formats[f]->describe_field != NULL ? formats[f]->describe_field (key, value) : g_strdup (key);
  return g_strdup (key);
}

const SqFormat _sq_format_gltf = {
  .id = "gltf",
  .name = N_("glTF 2.0"),
  .extensions = gltf_extensions,
  .mime_type = "model/gltf-binary",
  .flags = SQ_FORMAT_READ | SQ_FORMAT_WRITE | SQ_FORMAT_COMPANIONS | SQ_FORMAT_ANY_WORLD,
  .describe_field = gltf_describe_field,
  .probe = gltf_probe,
  .read = _sq_gltf_read,
  .write = gltf_write,
  .space = &gltf_space,
  .companions_in = gltf_companions_in,
  .companions_for = gltf_companions_for,
};
