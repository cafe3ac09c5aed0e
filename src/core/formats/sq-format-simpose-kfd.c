/* sq-format-simpose-kfd.c: SimPose-ium keyframed animations (.kfd)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Text (formats.md 5.4, the SimPose-ium spec):
 *   KeyFrame <NumberOfKeys> <Frames> <SequenceLength>
 *   s [<StartPoseName>]
 *   e [<EndPoseName>]
 *   <pose> * NumberOfKeys
 * A pose's Time n is its key's time n/30 s; times must increase (the
 * reader refuses poses out of order). Frames, SequenceLength (a "bounce"
 * when it is twice Frames) and the start/end pose names are clip extras.
 */
#define G_LOG_DOMAIN "sq-kfd"

#include "config.h"

#include "sq-parallel.h"
#include "sq-private.h"
#include "worlds/sq-world-sims.h"

static const char * const kfd_extensions[] = { "kfd", NULL };
static const char * const kfd_fields[] = {
  "parent", "offset", "frames", "sequence-length", "bounce", "start-pose", "end-pose", "line-ending", NULL
};

static int
kfd_probe (const guint8 *data,
           gsize         len)
{
  return len >= 9 && memcmp (data, "KeyFrame ", 9) == 0 ? 100 : 0;
}

/* "s" or "e", alone or followed by a space and the name */
static char *
read_pose_name (SqSimsText  *t,
                char         letter,
                GError     **error)
{
  const char what[] = { letter, '\0' };

  if (!_sq_sims_text_line (t, letter == 's' ? "the start pose line “s”" : "the end pose line “e”", error))
    return NULL;
  if (t->lines.cur_len < 1 || t->lines.cur[0] != letter || (t->lines.cur_len > 1 && t->lines.cur[1] != ' '))
    {
      _sq_sims_text_error (t, error, SQ_ERROR_SYNTAX, _("a line “%s [pose name]” expected"), what);
      return NULL;
    }
  return t->lines.cur_len > 2 ? _sq_latin1_to_utf8 ((const guint8 *) t->lines.cur + 2, t->lines.cur_len - 2) : g_strdup ("");
}

static SqClip *
kfd_read (GBytes              *bytes,
          const SqLoadOptions *options,
          GError             **error)
{
  g_autoptr(SqClip) clip = _sq_sims_clip_new (&_sq_format_simpose_kfd, SQ_SIMS_ADULT);
  g_autofree char *start = NULL, *end = NULL;
  g_autoptr(SqSimsPoses) poses = NULL;
  SqSimsText t;
  gint64 head[3], time = 0;

  (void) options;
  _sq_sims_text_init (&t, bytes, "KFD");
  if (!_sq_sims_text_line (&t, "“KeyFrame”", error))
    return NULL;
  if (t.lines.cur_len < 9 || memcmp (t.lines.cur, "KeyFrame ", 9) != 0)
    {
      _sq_sims_text_error (&t, error, SQ_ERROR_BAD_MAGIC, _("not a SimPose-ium KFD file (no “KeyFrame” line)"));
      return NULL;
    }
  if (!_sq_sims_text_ints (&t, 9, head, 3, "KeyFrame NumberOfKeys Frames SequenceLength", error))
    return NULL;
  for (int i = 0; i < 3; i++)
    if (head[i] < 0 || head[i] > SQ_SIMS_MAX_FRAME)
      {
        _sq_sims_text_error (&t, error, SQ_ERROR_BAD_VALUE, _("KeyFrame: %s %" PRId64 " is outside 0–%d"),
                             i == 0 ? "NumberOfKeys" : i == 1 ? "Frames" : "SequenceLength", head[i],
                             SQ_SIMS_MAX_FRAME);
        return NULL;
      }
  /* a pose is 32 lines of at least 5 bytes: a lying count fails here, before anything grows */
  if ((guint64) head[0] > (t.lines.len - t.lines.pos) / (32 * 5))
    {
      _sq_sims_text_error (&t, error, SQ_ERROR_LIMIT_EXCEEDED,
                           _("KeyFrame announces %" PRId64 " poses but only %zu bytes are left"),
                           head[0], t.lines.len - t.lines.pos);
      return NULL;
    }
  if ((start = read_pose_name (&t, 's', error)) == NULL || (end = read_pose_name (&t, 'e', error)) == NULL)
    return NULL;
  poses = _sq_sims_poses_new (bytes, (gsize) head[0]);
  for (gint64 k = 0; k < head[0]; k++)
    {
      if (!_sq_sims_read_pose (&t, poses, -1, &time, error))
        return NULL;
      if (k == 0 && time != 0)
        sq_clip_add_warning (clip, _("the first pose is at Time %" PRId64 ", not 0"), time);
    }
  while (!_sq_sims_text_at_end (&t))
    {
      _sq_sims_text_line (&t, "", NULL);
      for (gsize i = 0; i < t.lines.cur_len; i++)
        if (t.lines.cur[i] != ' ' && t.lines.cur[i] != '\t')
          {
            _sq_sims_text_error (&t, error, SQ_ERROR_SYNTAX,
                                 _("text after the %" PRId64 " poses KeyFrame announces"), head[0]);
            return NULL;
          }
    }
  if (head[0] > 0 && time != head[1] - 1)
    sq_clip_add_warning (clip, _("the last pose is at Time %" PRId64 ", not Frames − 1 = %" PRId64),
                         time, head[1] - 1);

  _sq_sims_poses_pack (g_steal_pointer (&poses), clip);
  sq_props_set (clip->extra, "frames", g_variant_new_int64 (head[1]));
  sq_props_set (clip->extra, "sequence-length", g_variant_new_int64 (head[2]));
  sq_props_set (clip->extra, "bounce", g_variant_new_boolean (head[2] == 2 * head[1] && head[1] > 0));
  sq_props_set (clip->extra, "start-pose", g_variant_new_string (start));
  sq_props_set (clip->extra, "end-pose", g_variant_new_string (end));
  sq_props_set (clip->extra, "line-ending", g_variant_new_string (_sq_sims_text_eol (bytes)));
  clip->duration = MAX (head[1] - 1, time) / SQ_SIMS_FPS;
  return g_steal_pointer (&clip);
}

static GPtrArray *
kfd_write (const SqClip        *clip,
           const SqSaveOptions *options,
           GPtrArray           *losses,
           GError             **error)
{
  g_autoptr(GArray) frames = _sq_sims_key_frames (clip);
  const char *eol = _sq_sims_eol (clip);
  gint64 n_frames = sq_props_get_int (clip->extra, "frames", 0);
  gint64 seq = sq_props_get_int (clip->extra, "sequence-length", 0);
  gint64 last = frames->len > 0 ? g_array_index (frames, gint64, frames->len - 1) : -1;
  GVariant *s = sq_props_get (clip->extra, "start-pose"), *e = sq_props_get (clip->extra, "end-pose");
  GString *out = g_string_new (NULL);
  gssize joint_of[SQ_SIMS_N_BONES];

  (void) options;
  (void) error;
  _sq_sims_bone_joints (clip, joint_of);
  /* Frames covers the last key; SequenceLength stays Frames or twice it */
  if (n_frames < last + 1)
    {
      if (n_frames > 0)
        _sq_loss (losses, _("Frames grows from %" PRId64 " to %" PRId64 " to hold the last key"),
                  n_frames, last + 1);
      n_frames = last + 1;
    }
  if (seq != n_frames && seq != 2 * n_frames)
    seq = sq_props_get_bool (clip->extra, "bounce", FALSE) ? 2 * n_frames : n_frames;
  g_string_append_printf (out, "KeyFrame %u %" PRId64 " %" PRId64 "%s",
                          frames->len, n_frames, seq, eol);
  g_string_append (out, "s");
  if (s != NULL && g_variant_is_of_type (s, G_VARIANT_TYPE_STRING) && *g_variant_get_string (s, NULL))
    {
      g_string_append_c (out, ' ');
      _sq_sims_put_string (out, g_variant_get_string (s, NULL), eol);
    }
  else
    g_string_append (out, eol);
  g_string_append (out, "e");
  if (e != NULL && g_variant_is_of_type (e, G_VARIANT_TYPE_STRING) && *g_variant_get_string (e, NULL))
    {
      g_string_append_c (out, ' ');
      _sq_sims_put_string (out, g_variant_get_string (e, NULL), eol);
    }
  else
    g_string_append (out, eol);
  for (guint i = 0; i < frames->len; i++)
    {
      gint64 f = g_array_index (frames, gint64, i);
      _sq_sims_write_pose (out, clip, joint_of, (gsize) f, f, eol);
    }
  return _sq_pieces_new (g_string_free_to_bytes (out));
}

static char *
kfd_describe_field (const char *key,
                    GVariant   *value)
{
  (void) value;
  if (g_str_equal (key, "line-ending") || g_str_equal (key, "bounce"))
    return NULL;
  if (g_str_equal (key, "start-pose") || g_str_equal (key, "end-pose"))
    return g_variant_get_string (value, NULL)[0] ? g_strdup_printf (_("the KFD's %s name"), key) : NULL;
  return g_strdup_printf (_("the KFD's %s"), key);
}

const SqFormat _sq_format_simpose_kfd = {
  .id = "simpose-kfd",
  .name = N_("SimPose-ium keyframe animation"),
  .extensions = kfd_extensions,
  .mime_type = "text/x-simpose-kfd",
  .default_root = "ROOT",
  .flags = SQ_FORMAT_READ | SQ_FORMAT_WRITE | SQ_FORMAT_TEXT,
  .fields = kfd_fields,
  .describe_field = kfd_describe_field,
  .probe = kfd_probe,
  .read = kfd_read,
  .write = kfd_write,
  .space = &sq_space_sims,
  .world = &sq_world_sims,
  .field_set = &sq_sims_kfd_fields,
};
