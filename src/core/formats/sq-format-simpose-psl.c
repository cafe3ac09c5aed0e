/* sq-format-simpose-psl.c: SimPose-ium pose libraries (.psl)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Text (formats.md 5.4, the SimPose-ium spec), two versions:
 *   v4: POSELIBRARY <n>              then n × (<name line>, <pose>)
 *   v5: POSELIBRARY2 <n> <m>         then n × (<name line>, <pose>), then
 *       m strings: m/2 subsets, each a name line and a 32-character mask
 * The library is a strip of poses: pose i is a key at i/30 s. The pose
 * names, their Time values (ignored by v4; in v5 the skeleton the pose is
 * for), the subsets and the version are clip extras; the writer writes the
 * version it read (v4 for a clip from elsewhere).
 */
#define G_LOG_DOMAIN "sq-psl"

#include "config.h"

#include "sq-parallel.h"
#include "sq-private.h"
#include "worlds/sq-world-sims.h"

static const char * const psl_extensions[] = { "psl", NULL };
static const char * const psl_fields[] = {
  "parent", "offset", "version", "pose-names", "pose-times", "subsets", "line-ending", NULL
};

static int
psl_probe (const guint8 *data,
           gsize         len)
{
  return len >= 12 && memcmp (data, "POSELIBRARY", 11) == 0 && (data[11] == ' ' || data[11] == '2') ? 100 : 0;
}

/* The m strings of a v5 library: name and mask pairs */
static gboolean
read_subsets (SqSimsText      *t,
              gint64           m,
              GVariantBuilder *subsets,
              GError         **error)
{
  for (gint64 i = 0; i < m; i += 2)
    {
      g_autofree char *name = _sq_sims_text_string (t, "a subset name", error);
      g_autofree char *mask = NULL;

      if (name == NULL || (mask = _sq_sims_text_string (t, "a subset mask", error)) == NULL)
        return FALSE;
      g_variant_builder_add (subsets, "(ss)", name, mask);
    }
  return TRUE;
}

/* An "as" from strings laid end to end, each with its NUL (`body`), and
 * where each ends (`ends`), in GVariant's serialized form: the body, then
 * each string's end as a little-endian offset of the smallest size that
 * holds the whole. Thousands of pose names cost their bytes, not a
 * GVariant each. */
static GVariant *
strings_variant (GByteArray *body,
                 GArray     *ends)
{
  gsize n = ends->len, size = 1, total;

  while (size < 8 && body->len + n * size > (G_GUINT64_CONSTANT (1) << (8 * size)) - 1)
    size *= 2;
  total = body->len + n * size;
  for (gsize i = 0; i < n; i++)
    {
      guint64 end = GUINT64_TO_LE (g_array_index (ends, guint64, i));

      g_byte_array_append (body, (const guint8 *) &end, (guint) size);
    }
  g_assert (body->len == total);
  {
    /* the variant takes its own reference */
    g_autoptr(GBytes) data = g_byte_array_free_to_bytes (body);

    return g_variant_new_from_bytes (G_VARIANT_TYPE ("as"), data, FALSE);
  }
}

static SqClip *
psl_read (GBytes              *bytes,
          const SqLoadOptions *options,
          GError             **error)
{
  g_autoptr(SqClip) clip = _sq_sims_clip_new (&_sq_format_simpose_psl, SQ_SIMS_ADULT);
  g_autoptr(GByteArray) names = g_byte_array_new ();
  g_autoptr(GArray) name_ends = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_auto(GVariantBuilder) subsets = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a(ss)"));
  g_autoptr(SqSimsPoses) poses = NULL;
  SqSimsText t;
  gint64 head[2] = { 0, 0 };
  int version;

  (void) options;
  _sq_sims_text_init (&t, bytes, "PSL");
  if (!_sq_sims_text_line (&t, "“POSELIBRARY”", error))
    return NULL;
  if (t.lines.cur_len >= 13 && memcmp (t.lines.cur, "POSELIBRARY2 ", 13) == 0)
    version = 5;
  else if (t.lines.cur_len >= 12 && memcmp (t.lines.cur, "POSELIBRARY ", 12) == 0)
    version = 4;
  else
    {
      _sq_sims_text_error (&t, error, SQ_ERROR_BAD_MAGIC, _("not a SimPose-ium pose library (no “POSELIBRARY” line)"));
      return NULL;
    }
  if (!_sq_sims_text_ints (&t, version == 5 ? 13 : 12, head, version == 5 ? 2 : 1,
                           version == 5 ? "POSELIBRARY2 NumberOfPoses NumSubStr" : "POSELIBRARY NumberOfPoses",
                           error))
    return NULL;
  /* a named pose is 33 lines of at least 5 bytes, a subset string at least a line end */
  if (head[0] < 0 || head[1] < 0 || (guint64) head[0] > (t.lines.len - t.lines.pos) / (33 * 5)
      || (guint64) head[1] > (t.lines.len - t.lines.pos))
    {
      _sq_sims_text_error (&t, error, SQ_ERROR_LIMIT_EXCEEDED,
                           _("the library announces %" PRId64 " poses and %" PRId64
                             " subset strings; the %zu bytes left cannot hold them"),
                           head[0], head[1], t.lines.len - t.lines.pos);
      return NULL;
    }
  if (head[1] % 2 != 0)
    {
      _sq_sims_text_error (&t, error, SQ_ERROR_BAD_VALUE,
                           _("NumSubStr %" PRId64 " is odd: each subset is two strings"), head[1]);
      return NULL;
    }
  poses = _sq_sims_poses_new (bytes, (gsize) head[0]);
  for (gint64 i = 0; i < head[0]; i++)
    {
      g_autofree char *name = _sq_sims_text_string (&t, "a pose name", error);
      gint64 time;

      if (name == NULL || !_sq_sims_read_pose (&t, poses, i, &time, error))
        return NULL;
      g_byte_array_append (names, (const guint8 *) name, (guint) strlen (name) + 1);
      g_array_append_val (name_ends, (guint64) { names->len });
      g_array_append_val (times, time);
    }
  if (!read_subsets (&t, head[1], &subsets, error))
    return NULL;
  while (!_sq_sims_text_at_end (&t))
    {
      _sq_sims_text_line (&t, "", NULL);
      for (gsize i = 0; i < t.lines.cur_len; i++)
        if (t.lines.cur[i] != ' ' && t.lines.cur[i] != '\t')
          {
            _sq_sims_text_error (&t, error, SQ_ERROR_SYNTAX, _("text after the end of the pose library"));
            return NULL;
          }
    }

  _sq_sims_poses_pack (g_steal_pointer (&poses), clip);
  sq_props_set (clip->extra, "version", g_variant_new_int32 (version));
  sq_props_set (clip->extra, "pose-names", strings_variant (g_steal_pointer (&names), name_ends));
  sq_props_set (clip->extra, "pose-times",
                g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, times->data, times->len, sizeof (gint64)));
  if (version == 5)
    sq_props_set (clip->extra, "subsets", g_variant_builder_end (&subsets));
  sq_props_set (clip->extra, "line-ending", g_variant_new_string (_sq_sims_text_eol (bytes)));
  clip->duration = head[0] > 0 ? (head[0] - 1) / SQ_SIMS_FPS : 0;
  return g_steal_pointer (&clip);
}

static GPtrArray *
psl_write (const SqClip        *clip,
           const SqSaveOptions *options,
           GPtrArray           *losses,
           GError             **error)
{
  g_autoptr(GArray) frames = _sq_sims_key_frames (clip);
  const char *eol = _sq_sims_eol (clip);
  int version = (int) sq_props_get_int (clip->extra, "version", 4) == 5 ? 5 : 4;
  GVariant *names = sq_props_get (clip->extra, "pose-names");
  GVariant *times = sq_props_get (clip->extra, "pose-times");
  GVariant *subsets = sq_props_get (clip->extra, "subsets");
  gsize n_names = names != NULL && g_variant_is_of_type (names, G_VARIANT_TYPE ("as")) ? g_variant_n_children (names) : 0;
  gsize n_times = times != NULL && g_variant_is_of_type (times, G_VARIANT_TYPE ("ax")) ? g_variant_n_children (times) : 0;
  gsize n_subsets = version == 5 && subsets != NULL && g_variant_is_of_type (subsets, G_VARIANT_TYPE ("a(ss)"))
                    ? g_variant_n_children (subsets) : 0;
  GString *out = g_string_new (NULL);
  gssize joint_of[SQ_SIMS_N_BONES];

  (void) options;
  (void) error;
  _sq_sims_bone_joints (clip, joint_of);
  if (version == 5)
    g_string_append_printf (out, "POSELIBRARY2 %u %zu%s", frames->len, 2 * n_subsets, eol);
  else
    g_string_append_printf (out, "POSELIBRARY %u%s", frames->len, eol);
  /* pose i is the i-th keyed frame: a library edited into gaps closes them */
  for (guint i = 0; i < frames->len; i++)
    {
      gint64 f = g_array_index (frames, gint64, i), time = 0;

      if (i < n_names)
        {
          g_autoptr(GVariant) name = g_variant_get_child_value (names, i);
          _sq_sims_put_string (out, g_variant_get_string (name, NULL), eol);
        }
      else
        {
          g_autofree char *name = g_strdup_printf ("Pose %u", i + 1);
          _sq_sims_put_string (out, name, eol);
        }
      if (i < n_times)
        g_variant_get_child (times, i, "x", &time);
      if (f != (gint64) i)
        _sq_loss (losses, _("the key at frame %" PRId64 " becomes pose %u of the library"), f, i + 1);
      _sq_sims_write_pose (out, clip, joint_of, (gsize) f, time, eol);
    }
  for (gsize i = 0; i < n_subsets; i++)
    {
      const char *name, *mask;

      g_variant_get_child (subsets, i, "(&s&s)", &name, &mask);
      _sq_sims_put_string (out, name, eol);
      _sq_sims_put_string (out, mask, eol);
    }
  return _sq_pieces_new (g_string_free_to_bytes (out));
}

static char *
psl_describe_field (const char *key,
                    GVariant   *value)
{
  if (g_str_equal (key, "subsets"))
    return g_variant_n_children (value) > 0
           ? g_strdup_printf (_("the pose library's %zu subsets"), g_variant_n_children (value)) : NULL;
  if (g_str_equal (key, "pose-names"))
    return g_variant_n_children (value) > 0 ? g_strdup (_("the pose names")) : NULL;
  return NULL;
}

/* the subsets as objects: name, skeleton (from the mask's first character), mask */
static gboolean
psl_dump_field (GString    *out,
                const char *key,
                GVariant   *value,
                gboolean    json)
{
  if (!g_str_equal (key, "subsets") || !g_variant_is_of_type (value, G_VARIANT_TYPE ("a(ss)")))
    return FALSE;
  if (json)
    g_string_append_c (out, '[');
  for (gsize i = 0; i < g_variant_n_children (value); i++)
    {
      const char *name, *mask, *skeleton;

      g_variant_get_child (value, i, "(&s&s)", &name, &mask);
      skeleton = mask[0] == '0' ? "adult" : mask[0] == '1' ? "child" : "unknown";
      if (json)
        {
          g_string_append (out, i > 0 ? ",{\"name\":" : "{\"name\":");
          _sq_json_string (out, name);
          g_string_append_printf (out, ",\"skeleton\":\"%s\",\"mask\":", skeleton);
          _sq_json_string (out, mask);
          g_string_append_c (out, '}');
        }
      else
        g_string_append_printf (out, "%s%s (%s) %s", i > 0 ? "; " : "", name, skeleton, mask);
    }
  if (json)
    g_string_append_c (out, ']');
  return TRUE;
}

const SqFormat _sq_format_simpose_psl = {
  .id = "simpose-psl",
  .name = N_("SimPose-ium pose library"),
  .extensions = psl_extensions,
  .mime_type = "text/x-simpose-psl",
  .default_root = "ROOT",
  .flags = SQ_FORMAT_READ | SQ_FORMAT_WRITE | SQ_FORMAT_TEXT | SQ_FORMAT_POSE_LIST,
  .fields = psl_fields,
  .describe_field = psl_describe_field,
  .dump_field = psl_dump_field,
  .probe = psl_probe,
  .read = psl_read,
  .write = psl_write,
  .space = &sq_space_sims,
  .world = &sq_world_sims,
};
