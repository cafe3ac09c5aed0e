/* sq-pose-library.c: a pose of some joints, its text file, a PSL as poses
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The file format is described in sq-pose-library.h. Reading is strict
 * about what it understands (a number that is not one, a line it does not
 * know) and names the line and column of what it refuses.
 */
#define G_LOG_DOMAIN "sq-pose-library"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "sq-convert.h"
#include "sq-error.h"
#include "sq-format.h"
#include "sq-math.h"
#include "sq-pose-library.h"

#define POSE_MAGIC "sequin-pose"
/* a pose of more joints than this is refused (Second Life has 133 bones) */
#define POSE_MAX_ENTRIES 4096

SqJointPose *
sq_joint_pose_new (const char *name,
                   const char *world)
{
  SqJointPose *pose = g_new0 (SqJointPose, 1);

  pose->name = g_strdup (name != NULL ? name : "");
  pose->world = g_strdup (world);
  pose->entries = g_array_new (FALSE, TRUE, sizeof (SqPoseEntry));
  return pose;
}

void
sq_joint_pose_free (SqJointPose *pose)
{
  if (pose == NULL)
    return;
  for (guint i = 0; i < pose->entries->len; i++)
    g_free (g_array_index (pose->entries, SqPoseEntry, i).joint);
  g_array_unref (pose->entries);
  g_free (pose->name);
  g_free (pose->world);
  g_free (pose);
}

SqJointPose *
sq_joint_pose_copy (const SqJointPose *pose)
{
  SqJointPose *copy = sq_joint_pose_new (pose->name, pose->world);

  for (guint i = 0; i < pose->entries->len; i++)
    {
      SqPoseEntry e = g_array_index (pose->entries, SqPoseEntry, i);

      e.joint = g_strdup (e.joint);
      g_array_append_val (copy->entries, e);
    }
  return copy;
}

const SqPoseEntry *
sq_joint_pose_lookup (const SqJointPose *pose,
                      const char        *joint)
{
  for (guint i = 0; i < pose->entries->len; i++)
    if (strcmp (g_array_index (pose->entries, SqPoseEntry, i).joint, joint) == 0)
      return &g_array_index (pose->entries, SqPoseEntry, i);
  return NULL;
}

SqPoseEntry *
sq_joint_pose_entry (SqJointPose *pose,
                     const char  *joint)
{
  SqPoseEntry e = { 0 };

  if (sq_joint_pose_lookup (pose, joint) != NULL)
    return (SqPoseEntry *) sq_joint_pose_lookup (pose, joint);
  e.joint = g_strdup (joint);
  e.rotation[0] = 1.0;
  g_array_append_val (pose->entries, e);
  return &g_array_index (pose->entries, SqPoseEntry, pose->entries->len - 1);
}

SqJointPose *
sq_joint_pose_capture (const SqClip *clip,
                       const gsize  *joints,
                       gsize         n,
                       double        time,
                       const char   *name)
{
  SqJointPose *pose = sq_joint_pose_new (name, clip->format != NULL ? clip->format->id : NULL);
  gsize count = joints != NULL ? n : clip->n_joints;

  for (gsize i = 0; i < count; i++)
    {
      gsize j = joints != NULL ? joints[i] : i;
      const SqJoint *joint;
      SqPoseEntry *e;
      double v[4];

      if (j >= clip->n_joints)
        continue;
      joint = &clip->joints[j];
      e = sq_joint_pose_entry (pose, joint->name);
      sq_track_sample (&joint->tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, time, e->rotation);
      e->has |= SQ_POSE_HAS_ROTATION;
      if (joint->tracks[SQ_CHANNEL_TRANSLATION].n_keys > 0)
        {
          sq_track_sample (&joint->tracks[SQ_CHANNEL_TRANSLATION], SQ_CHANNEL_TRANSLATION, time, v);
          memcpy (e->position, v, sizeof e->position);
          e->has |= SQ_POSE_HAS_POSITION;
        }
    }
  return pose;
}

static const SqSpace *
space_of_world (const char *world)
{
  const SqFormat *format = world != NULL ? sq_format_by_id (world) : NULL;

  return format != NULL ? format->space : NULL;
}

SqJointPose *
sq_joint_pose_for_clip (const SqJointPose *pose,
                        const SqClip      *clip)
{
  const SqSpace *common = sq_format_common ()->space;
  const SqSpace *from = pose->world != NULL ? space_of_world (pose->world) : common;
  const SqSpace *to = clip->format != NULL ? clip->format->space : common;
  SqJointPose *copy = sq_joint_pose_copy (pose);

  g_free (copy->world);
  copy->world = g_strdup (clip->format != NULL ? clip->format->id : NULL);
  if (from == to || from == NULL || to == NULL)
    return copy;
  for (guint i = 0; i < copy->entries->len; i++)
    {
      SqPoseEntry *e = &g_array_index (copy->entries, SqPoseEntry, i);
      double q[4], v[3];

      sq_space_rotation_to_sl (from, e->rotation, q);
      sq_space_rotation_from_sl (to, q, e->rotation);
      sq_space_vector_to_sl (from, e->position, v);
      sq_space_vector_from_sl (to, v, e->position);
    }
  return copy;
}

/* ---- the text ------------------------------------------------------------ */

static void
append_numbers (GString      *out,
                const double *v,
                guint         n)
{
  char buf[SQ_DOUBLE_BUF];

  for (guint i = 0; i < n; i++)
    {
      g_string_append (out, sq_format_double (buf, sizeof buf, v[i]));
      g_string_append_c (out, ' ');
    }
}

/* a name on one line: line breaks become spaces */
static void
append_line_text (GString    *out,
                  const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    g_string_append_c (out, *p == '\n' || *p == '\r' ? ' ' : *p);
  g_string_append_c (out, '\n');
}

char *
sq_joint_pose_to_text (const SqJointPose *pose)
{
  GString *out = g_string_new (POSE_MAGIC " 1\n");

  g_string_append (out, "name ");
  append_line_text (out, pose->name);
  if (pose->world != NULL)
    g_string_append_printf (out, "world %s\n", pose->world);
  for (guint i = 0; i < pose->entries->len; i++)
    {
      const SqPoseEntry *e = &g_array_index (pose->entries, SqPoseEntry, i);

      if (e->has & SQ_POSE_HAS_ROTATION)
        {
          g_string_append (out, "rotation ");
          append_numbers (out, e->rotation, 4);
          append_line_text (out, e->joint);
        }
      if (e->has & SQ_POSE_HAS_POSITION)
        {
          g_string_append (out, "position ");
          append_numbers (out, e->position, 3);
          append_line_text (out, e->joint);
        }
    }
  return g_string_free (out, FALSE);
}

static gboolean
line_error (GError    **error,
            guint       line,
            gsize       column,
            const char *what)
{
  g_set_error (error, SQ_ERROR, SQ_ERROR_SYNTAX, _("line %u, column %u: %s"), line, (guint) column + 1, what);
  return FALSE;
}

/* n numbers at *p, each followed by one space; *p moves past them */
static gboolean
parse_numbers (const char **p,
               const char  *line,
               guint        number,
               double      *out,
               guint        n,
               GError     **error)
{
  for (guint i = 0; i < n; i++)
    {
      char *end = NULL;

      out[i] = g_ascii_strtod (*p, &end);
      if (end == *p || !isfinite (out[i]) || *end != ' ')
        return line_error (error, number, (gsize) (*p - line), _("expected a number followed by a space"));
      *p = end + 1;
    }
  return TRUE;
}

static gboolean
parse_value_line (SqJointPose *pose,
                  const char  *line,
                  guint        number,
                  gboolean     rotation,
                  GError     **error)
{
  const char *p = line + (rotation ? strlen ("rotation ") : strlen ("position "));
  double v[4];
  SqPoseEntry *e;

  if (!parse_numbers (&p, line, number, v, rotation ? 4 : 3, error))
    return FALSE;
  if (*p == '\0')
    return line_error (error, number, (gsize) (p - line), _("the joint's name is missing"));
  if (sq_joint_pose_lookup (pose, p) == NULL && pose->entries->len >= POSE_MAX_ENTRIES)
    return line_error (error, number, 0, _("too many joints for a pose"));
  e = sq_joint_pose_entry (pose, p);
  if (rotation)
    {
      double len = sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);

      if (fabs (len - 1.0) > 1e-3)
        return line_error (error, number, strlen ("rotation "), _("the rotation is not a unit quaternion"));
      memcpy (e->rotation, v, sizeof e->rotation);
      e->has |= SQ_POSE_HAS_ROTATION;
    }
  else
    {
      memcpy (e->position, v, sizeof e->position);
      e->has |= SQ_POSE_HAS_POSITION;
    }
  return TRUE;
}

static gboolean
parse_line (SqJointPose *pose,
            const char  *line,
            guint        number,
            GError     **error)
{
  if (line[0] == '\0' || line[0] == '#')
    return TRUE;
  if (g_str_has_prefix (line, "name "))
    {
      g_free (pose->name);
      pose->name = g_strdup (line + 5);
      return TRUE;
    }
  if (g_str_has_prefix (line, "world "))
    {
      if (sq_format_by_id (line + 6) == NULL)
        return line_error (error, number, 6, _("unknown world (a format id such as sl-anim)"));
      g_free (pose->world);
      pose->world = g_strdup (line + 6);
      return TRUE;
    }
  if (g_str_has_prefix (line, "rotation ") || g_str_has_prefix (line, "position "))
    return parse_value_line (pose, line, number, line[0] == 'r', error);
  return line_error (error, number, 0, _("expected name, world, rotation or position"));
}

/* The lines of a pose file (CR of CRLF taken off), its first checked;
 * NULL with an error */
static GStrv
pose_lines (const char *text,
            gsize       len,
            GError    **error)
{
  g_autofree char *copy = NULL;
  g_auto(GStrv) lines = NULL;

  if (memchr (text, '\0', len) != NULL || !g_utf8_validate (text, (gssize) len, NULL))
    {
      g_set_error_literal (error, SQ_ERROR, SQ_ERROR_BAD_VALUE, _("a pose file is UTF-8 text"));
      return NULL;
    }
  copy = g_strndup (text, len);
  lines = g_strsplit (copy, "\n", -1);
  if (lines[0] == NULL || !(g_str_has_prefix (lines[0], POSE_MAGIC " 1")
                            && (lines[0][13] == '\0' || lines[0][13] == '\r')))
    {
      line_error (error, 1, 0, _("not a Sequin pose (expected “sequin-pose 1”)"));
      return NULL;
    }
  for (guint i = 1; lines[i] != NULL; i++)
    {
      gsize n = strlen (lines[i]);

      if (n > 0 && lines[i][n - 1] == '\r')
        lines[i][n - 1] = '\0';
    }
  return g_steal_pointer (&lines);
}

SqJointPose *
sq_joint_pose_parse (const char *text,
                     gsize       len,
                     GError    **error)
{
  g_autoptr(SqJointPose) pose = sq_joint_pose_new ("", NULL);
  g_auto(GStrv) lines = pose_lines (text, len, error);

  if (lines == NULL)
    return NULL;
  for (guint i = 1; lines[i] != NULL; i++)
    if (!parse_line (pose, lines[i], i + 1, error))
      return NULL;
  return g_steal_pointer (&pose);
}

/* ---- a pose sequence ------------------------------------------------------ */

/* a sequence of more poses than this is refused */
#define SEQUENCE_MAX_POSES 100000

SqPoseSequence *
sq_pose_sequence_new (const char *name,
                      const char *world)
{
  SqPoseSequence *seq = g_new0 (SqPoseSequence, 1);

  seq->name = g_strdup (name != NULL ? name : "");
  seq->world = g_strdup (world);
  seq->times = g_array_new (FALSE, FALSE, sizeof (double));
  seq->poses = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_joint_pose_free);
  return seq;
}

void
sq_pose_sequence_free (SqPoseSequence *seq)
{
  if (seq == NULL)
    return;
  g_free (seq->name);
  g_free (seq->world);
  g_array_unref (seq->times);
  g_ptr_array_unref (seq->poses);
  g_free (seq);
}

SqPoseSequence *
sq_pose_sequence_copy (const SqPoseSequence *seq)
{
  SqPoseSequence *copy = sq_pose_sequence_new (seq->name, seq->world);

  g_array_append_vals (copy->times, seq->times->data, seq->times->len);
  for (guint i = 0; i < seq->poses->len; i++)
    g_ptr_array_add (copy->poses, sq_joint_pose_copy (g_ptr_array_index (seq->poses, i)));
  return copy;
}

SqJointPose *
sq_pose_sequence_at (SqPoseSequence *seq,
                     double          time)
{
  guint i = 0;

  while (i < seq->times->len && g_array_index (seq->times, double, i) < time)
    i++;
  if (i < seq->times->len && g_array_index (seq->times, double, i) == time)
    return g_ptr_array_index (seq->poses, i);
  g_array_insert_val (seq->times, i, time);
  g_ptr_array_insert (seq->poses, (gint) i, sq_joint_pose_new (seq->name, seq->world));
  return g_ptr_array_index (seq->poses, i);
}

gboolean
sq_pose_sequence_add_key (SqPoseSequence *seq,
                          double          time,
                          const SqClip   *clip,
                          gsize           joint,
                          SqChannel       channel,
                          gsize           index)
{
  const SqTrack *track;
  SqKey key;
  SqPoseEntry *e;

  g_return_val_if_fail (joint < clip->n_joints && channel < SQ_N_CHANNELS, FALSE);
  track = &clip->joints[joint].tracks[channel];
  g_return_val_if_fail (index < track->n_keys, FALSE);

  if (channel == SQ_CHANNEL_SCALE)
    return FALSE;
  key = sq_track_key (track, index);
  e = sq_joint_pose_entry (sq_pose_sequence_at (seq, time), clip->joints[joint].name);
  if (channel == SQ_CHANNEL_ROTATION)
    {
      memcpy (e->rotation, key.v, sizeof e->rotation);
      e->has |= SQ_POSE_HAS_ROTATION;
    }
  else
    {
      memcpy (e->position, key.v, sizeof e->position);
      e->has |= SQ_POSE_HAS_POSITION;
    }
  return TRUE;
}

char *
sq_pose_sequence_to_text (const SqPoseSequence *seq)
{
  GString *out = g_string_new (POSE_MAGIC " 1\n");
  char buf[SQ_DOUBLE_BUF];

  g_string_append (out, "name ");
  append_line_text (out, seq->name);
  if (seq->world != NULL)
    g_string_append_printf (out, "world %s\n", seq->world);
  for (guint i = 0; i < seq->poses->len; i++)
    {
      g_autofree char *text = sq_joint_pose_to_text (g_ptr_array_index (seq->poses, i));
      const char *values = text;

      g_string_append_printf (out, "time %s\n", sq_format_double (buf, sizeof buf,
                                                                  g_array_index (seq->times, double, i)));
      /* the pose's own lines after its header (name, world) */
      for (guint skip = 0; skip < 3 && values != NULL; skip++)
        if (g_str_has_prefix (values, POSE_MAGIC) || g_str_has_prefix (values, "name ")
            || g_str_has_prefix (values, "world "))
          values = strchr (values, '\n') != NULL ? strchr (values, '\n') + 1 : NULL;
      if (values != NULL)
        g_string_append (out, values);
    }
  return g_string_free (out, FALSE);
}

/* "time T": T seconds, not negative */
static gboolean
parse_time_line (const char *line,
                 guint       number,
                 double     *time,
                 GError    **error)
{
  const char *p = line + strlen ("time ");
  char *end = NULL;

  *time = g_ascii_strtod (p, &end);
  if (end == p || *end != '\0' || !isfinite (*time) || *time < 0)
    return line_error (error, number, (gsize) (p - line), _("expected a time in seconds, not negative"));
  return TRUE;
}

SqPoseSequence *
sq_pose_sequence_parse (const char *text,
                        gsize       len,
                        GError    **error)
{
  g_autoptr(SqPoseSequence) seq = sq_pose_sequence_new ("", NULL);
  g_auto(GStrv) lines = pose_lines (text, len, error);
  SqJointPose *pose = NULL;

  if (lines == NULL)
    return NULL;
  for (guint i = 1; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      double time;

      if (g_str_has_prefix (line, "time "))
        {
          if (!parse_time_line (line, i + 1, &time, error))
            return NULL;
          if (seq->times->len >= SEQUENCE_MAX_POSES)
            {
              line_error (error, i + 1, 0, _("too many times for a pose file"));
              return NULL;
            }
          pose = sq_pose_sequence_at (seq, time);
        }
      else if (g_str_has_prefix (line, "rotation ") || g_str_has_prefix (line, "position "))
        {
          if (pose == NULL)
            pose = sq_pose_sequence_at (seq, 0);
          if (!parse_value_line (pose, line, i + 1, line[0] == 'r', error))
            return NULL;
        }
      else
        {
          g_autoptr(SqJointPose) header = sq_joint_pose_new (seq->name, seq->world);

          /* name, world, blank and comment lines: the pose's own rules */
          if (!parse_line (header, line, i + 1, error))
            return NULL;
          g_free (seq->name);
          seq->name = g_strdup (header->name);
          g_free (seq->world);
          seq->world = g_strdup (header->world);
        }
    }
  /* every pose is in the sequence's world */
  for (guint i = 0; i < seq->poses->len; i++)
    {
      SqJointPose *p = g_ptr_array_index (seq->poses, i);

      g_free (p->world);
      p->world = g_strdup (seq->world);
    }
  return g_steal_pointer (&seq);
}

/* ---- a pose list as a library -------------------------------------------- */

GPtrArray *
sq_joint_pose_library_from_clip (const SqClip *clip)
{
  GPtrArray *poses = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_joint_pose_free);
  GVariant *names = sq_props_get (clip->extra, "pose-names");
  gsize n = 0;

  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      n = MAX (n, clip->joints[j].tracks[c].n_keys);
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *fallback = g_strdup_printf (_("Pose %u"), (guint) i + 1);
      const char *name = fallback;

      if (names != NULL && g_variant_is_of_type (names, G_VARIANT_TYPE_STRING_ARRAY)
          && i < g_variant_n_children (names))
        g_variant_get_child (names, i, "&s", &name);
      g_ptr_array_add (poses, sq_joint_pose_capture (clip, NULL, 0, (double) i / 30.0, name));
    }
  return poses;
}
