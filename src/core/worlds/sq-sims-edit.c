/* sq-sims-edit.c: the Sims world's own edits, a class each (sq-edit-private.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Pose library edits (rename, duplicate, delete, move a pose), the KFD's
 * bounce flag and start/end pose names, and a CMX skill's name and
 * duration. Each checks everything first, so a refused edit leaves the
 * clip untouched; then it journals the joints and the property list it
 * changes (sq-edit-private.h), so undo gives back the clip bitwise.
 */
#define G_LOG_DOMAIN "sq-sims-edit"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "sq-edit-private.h"
#include "sq-private.h"
#include "worlds/sq-sims-edit.h"
#include "worlds/sq-world-sims.h"

typedef enum
{
  OP_RENAME_POSE,
  OP_DUPLICATE_POSE,
  OP_DELETE_POSE,
  OP_MOVE_POSE,
  OP_KFD_BOUNCE,
  OP_KFD_START_POSE,
  OP_KFD_END_POSE,
  OP_SKILL_NAME,
  OP_SKILL_DURATION,
} SimsOp;

/* the longest name line the edits accept (SimPose-ium's own limit is not
 * known; this keeps a name a line) */
#define MAX_NAME_BYTES 255
/* a skill lasting longer than this (ms, about 92 hours) is refused */
#define MAX_SKILL_MS (SQ_SIMS_MAX_FRAME * 1000.0 / SQ_SIMS_FPS)

/* ---- reading the library ------------------------------------------------ */

gboolean
sq_sims_is_pose_library (const SqClip *clip)
{
  return clip != NULL && clip->format == &_sq_format_simpose_psl;
}

/* The names of `n` poses: the "pose-names" extra, then the writer's
 * fallback "Pose N" */
static GPtrArray *
pose_names (const SqClip *clip,
            gsize         n)
{
  GVariant *v = sq_props_get (clip->extra, "pose-names");
  gsize have = v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE ("as")) ? g_variant_n_children (v) : 0;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  for (gsize i = 0; i < n; i++)
    {
      if (i < have)
        {
          const char *s;
          g_variant_get_child (v, i, "&s", &s);
          g_ptr_array_add (names, g_strdup (s));
        }
      else
        g_ptr_array_add (names, g_strdup_printf ("Pose %zu", i + 1));
    }
  return names;
}

/* The Time values of `n` poses, 0 where the library has none */
static GArray *
pose_times (const SqClip *clip,
            gsize         n)
{
  GVariant *v = sq_props_get (clip->extra, "pose-times");
  gsize have = v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE ("ax")) ? g_variant_n_children (v) : 0;
  GArray *times = g_array_sized_new (FALSE, TRUE, sizeof (gint64), n);

  g_array_set_size (times, n);
  for (gsize i = 0; i < n && i < have; i++)
    g_variant_get_child (v, i, "x", &g_array_index (times, gint64, i));
  return times;
}

gboolean
sq_sims_poses_are_frames (const SqClip *clip)
{
  return clip != NULL && clip->format == &_sq_format_simpose_kfd;
}

/* A KFD's poses are named by their Time values (frames) */
static GPtrArray *
frame_names (const GArray *frames)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < frames->len; i++)
    g_ptr_array_add (names, g_strdup_printf ("%" PRId64, g_array_index (frames, gint64, i)));
  return names;
}

char **
sq_sims_pose_names (const SqClip *clip)
{
  g_autoptr(GArray) frames = NULL;
  GPtrArray *names;

  if (!sq_sims_is_pose_library (clip) && !sq_sims_poses_are_frames (clip))
    return NULL;
  frames = _sq_sims_key_frames (clip);
  names = sq_sims_poses_are_frames (clip) ? frame_names (frames) : pose_names (clip, frames->len);
  g_ptr_array_set_free_func (names, NULL);
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

double
sq_sims_pose_time (const SqClip *clip,
                   gsize         index)
{
  g_autoptr(GArray) frames = _sq_sims_key_frames (clip);

  return index < frames->len ? g_array_index (frames, gint64, index) / SQ_SIMS_FPS : -1;
}

static gssize
find_pose (GPtrArray  *names,
           const char *name)
{
  for (guint i = 0; i < names->len; i++)
    if (g_strcmp0 (g_ptr_array_index (names, i), name) == 0)
      return i;
  return -1;
}

/* ---- checks -------------------------------------------------------------- */

/* sets the error and gives FALSE, for `return refuse (…)` */
#define refuse(error, code, ...) (g_set_error ((error), SQ_ERROR, (code), __VA_ARGS__), FALSE)

/* A name the Sims files hold as one Latin-1 line; `empty_ok` for the KFD's
 * optional pose names */
static gboolean
check_line (const char *what,
            const char *name,
            gboolean    empty_ok,
            GError    **error)
{
  g_autoptr(GByteArray) latin1 = g_byte_array_new ();

  if (name == NULL || (!empty_ok && name[0] == '\0'))
    return refuse (error, SQ_ERROR_INVALID_ARGUMENT, _("The %s must not be empty"), what);
  if (strchr (name, '\n') != NULL || strchr (name, '\r') != NULL)
    return refuse (error, SQ_ERROR_INVALID_ARGUMENT, _("The %s “%s” has a line break: it must fit on one line"),
                   what, name);
  if (!g_utf8_validate (name, -1, NULL) || !_sq_utf8_to_latin1 (name, latin1))
    return refuse (error, SQ_ERROR_INVALID_ARGUMENT,
                   _("The %s “%s” has characters a Sims file cannot hold (it takes Latin-1)"), what, name);
  if (latin1->len > MAX_NAME_BYTES)
    return refuse (error, SQ_ERROR_INVALID_ARGUMENT, _("The %s is %u characters long; at most %d fit"),
                   what, latin1->len, MAX_NAME_BYTES);
  return TRUE;
}

/* ---- the pose strip ------------------------------------------------------ */

/* Rebuilds every track as the strip `src` (new pose k = old pose src[k],
 * at frame to[k], or k without `to`), with its names and times when
 * `names` is given, journalled */
static void
rebuild_strip (SqEdit       *edit,
               SqClip       *clip,
               const GArray *frames,
               const guint  *src,
               const gint64 *to,
               guint         m,
               GPtrArray    *names,
               const GArray *times)
{
  GVariantBuilder nb, tb;

  for (gsize j = 0; j < clip->n_joints; j++)
    for (int c = 0; c < SQ_N_CHANNELS; c++)
      {
        SqTrack *old = &clip->joints[j].tracks[c], fresh = { 0 };

        if (old->n_keys == 0)
          continue;
        _sq_edit_journal_joint (edit, clip, j);
        for (guint k = 0; k < m; k++)
          {
            gssize i = _sq_sims_key_on_frame (old, g_array_index (frames, gint64, src[k]));
            SqKey key, *put;

            if (i < 0)
              continue;
            key = sq_track_key (old, (gsize) i);
            put = sq_track_append (&fresh, (to != NULL ? to[k] : k) / SQ_SIMS_FPS);
            memcpy (put->v, key.v, sizeof key.v);
            if (old->present != NULL)
              {
                sq_track_ensure_present (&fresh);
                fresh.present[fresh.n_keys - 1] = old->present[i];
              }
            if (old->alt != NULL)
              {
                sq_track_ensure_alt (&fresh);
                memcpy (&fresh.alt[4 * (fresh.n_keys - 1)], &old->alt[4 * i], 4 * sizeof (double));
              }
          }
        sq_track_clear (old);
        *old = fresh;
      }
  _sq_edit_journal_extra (edit, clip);
  _sq_edit_journal_timing (edit, clip);
  if (names == NULL)
    {
      clip->duration = m > 0 ? to[m - 1] / SQ_SIMS_FPS : 0;
      return;
    }
  g_variant_builder_init (&nb, G_VARIANT_TYPE ("as"));
  g_variant_builder_init (&tb, G_VARIANT_TYPE ("ax"));
  for (guint k = 0; k < m; k++)
    {
      g_variant_builder_add (&nb, "s", (const char *) g_ptr_array_index (names, k));
      g_variant_builder_add (&tb, "x", g_array_index (times, gint64, k));
    }
  sq_props_set (clip->extra, "pose-names", g_variant_builder_end (&nb));
  sq_props_set (clip->extra, "pose-times", g_variant_builder_end (&tb));
  clip->duration = m > 0 ? (m - 1) / SQ_SIMS_FPS : 0;
}

static gboolean
apply_pose (SqEdit     *edit,
            SqClip     *clip,
            SimsOp      op,
            const char *name,
            const char *new_name,
            double      number,
            GError    **error)
{
  g_autoptr(GArray) frames = NULL;
  g_autoptr(GPtrArray) names = NULL, new_names = NULL;
  g_autoptr(GArray) times = NULL, new_times = NULL;
  g_autofree guint *src = NULL;
  gssize at;
  guint n, m = 0;

  if (!sq_sims_is_pose_library (clip))
    return refuse (error, SQ_ERROR_INVALID_ARGUMENT, _("Only a SimPose-ium pose library has named poses"));
  frames = _sq_sims_key_frames (clip);
  n = frames->len;
  names = pose_names (clip, n);
  times = pose_times (clip, n);
  if ((at = find_pose (names, name)) < 0)
    return refuse (error, SQ_ERROR_NOT_FOUND, _("The pose library has no pose “%s”"), name ? name : "");
  if (op == OP_RENAME_POSE || op == OP_DUPLICATE_POSE)
    {
      gssize other = find_pose (names, new_name);

      if (!check_line (_("pose name"), new_name, FALSE, error))
        return FALSE;
      if (other >= 0 && other != at)
        return refuse (error, SQ_ERROR_INVALID_ARGUMENT, _("Pose %zd is already named “%s”"), other + 1, new_name);
      if (other == at && op == OP_DUPLICATE_POSE)
        return refuse (error, SQ_ERROR_INVALID_ARGUMENT, _("The copy needs a name of its own, not “%s”"), new_name);
    }
  if (op == OP_DELETE_POSE && n == 1)
    return refuse (error, SQ_ERROR_INVALID_ARGUMENT, _("“%s” is the library's last pose: a library keeps at least one"),
                   name);
  if (op == OP_MOVE_POSE && !(number >= 0 && number < n))
    return refuse (error, SQ_ERROR_INVALID_ARGUMENT, _("There is no place %g in a library of %u poses (1 to %u)"),
                   number + 1, n, n);

  if (op == OP_RENAME_POSE)
    {
      g_free (names->pdata[at]);
      names->pdata[at] = g_strdup (new_name);
      _sq_edit_journal_extra (edit, clip);
      {
        g_autofree const char **strv = g_new0 (const char *, n + 1);
        for (guint i = 0; i < n; i++)
          strv[i] = g_ptr_array_index (names, i);
        sq_props_set (clip->extra, "pose-names", g_variant_new_strv (strv, n));
      }
      /* a library from elsewhere gets Time values too, as the writer writes them */
      if (sq_props_get (clip->extra, "pose-times") == NULL)
        sq_props_set (clip->extra, "pose-times",
                      g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, times->data, n, sizeof (gint64)));
      return TRUE;
    }

  /* the new strip as indices of the old poses */
  src = g_new (guint, n + 1);
  new_names = g_ptr_array_new ();
  new_times = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < n; i++)
    {
      if (op == OP_DELETE_POSE && i == (guint) at)
        continue;
      if (op == OP_MOVE_POSE && i == (guint) at)
        continue;
      src[m++] = i;
      if (op == OP_DUPLICATE_POSE && i == (guint) at)
        src[m++] = i;
    }
  if (op == OP_MOVE_POSE)
    {
      guint to = (guint) number;
      memmove (&src[to + 1], &src[to], (m - to) * sizeof (guint));
      src[to] = (guint) at;
      m++;
    }
  for (guint k = 0; k < m; k++)
    {
      gboolean copy = op == OP_DUPLICATE_POSE && k == (guint) at + 1;

      g_ptr_array_add (new_names, copy ? (gpointer) new_name : g_ptr_array_index (names, src[k]));
      g_array_append_val (new_times, g_array_index (times, gint64, src[k]));
    }
  rebuild_strip (edit, clip, frames, src, NULL, m, new_names, new_times);
  return TRUE;
}

/* ---- a KFD's poses, named by their frames ------------------------------- */

/* `text` as a frame number (digits only), -1 when it is none */
static gint64
frame_of (const char *text)
{
  gint64 v = 0;

  if (text == NULL || *text == '\0' || strlen (text) > 9)
    return -1;
  for (const char *p = text; *p != '\0'; p++)
    {
      if (!g_ascii_isdigit (*p))
        return -1;
      v = v * 10 + (*p - '0');
    }
  return v;
}

/* Pose edits on a KFD: its poses are named by their Time values, which
 * stay strictly increasing with the first and the last pose where they
 * are (times run from 0 to Frames − 1). Rename gives a pose another frame
 * between its neighbours; duplicate copies a pose to a free frame between
 * the first and the last; delete takes out a pose between them; move
 * reorders the poses, each place keeping its frame. */
static gboolean
apply_kfd_pose (SqEdit     *edit,
                SqClip     *clip,
                SimsOp      op,
                const char *name,
                const char *new_name,
                double      number,
                GError    **error)
{
  g_autoptr(GArray) frames = _sq_sims_key_frames (clip);
  guint n = frames->len, m = 0;
  gint64 at_frame = frame_of (name), to_frame = frame_of (new_name);
  g_autofree guint *src = g_new (guint, n + 1);
  g_autofree gint64 *to = g_new (gint64, n + 1);
  gssize at = -1;

  for (guint i = 0; i < n; i++)
    if (g_array_index (frames, gint64, i) == at_frame)
      at = i;
  if (at < 0)
    return refuse (error, SQ_ERROR_NOT_FOUND, _("The KFD has no pose at frame “%s” (its poses are named by their Time)"),
                   name ? name : "");
  if ((op == OP_RENAME_POSE || op == OP_DELETE_POSE) && at == 0)
    return refuse (error, SQ_ERROR_INVALID_ARGUMENT,
                   _("Pose %s is the KFD's first: its times start there, so it stays"), name);
  if ((op == OP_RENAME_POSE || op == OP_DELETE_POSE) && (guint) at == n - 1)
    return refuse (error, SQ_ERROR_INVALID_ARGUMENT,
                   _("Pose %s is the KFD's last: its times end there, so it stays"), name);
  if (op == OP_RENAME_POSE || op == OP_DUPLICATE_POSE)
    {
      gint64 low = op == OP_RENAME_POSE ? g_array_index (frames, gint64, at - 1) : g_array_index (frames, gint64, 0);
      gint64 high = op == OP_RENAME_POSE ? g_array_index (frames, gint64, at + 1) : g_array_index (frames, gint64, n - 1);

      if (to_frame < 0)
        return refuse (error, SQ_ERROR_INVALID_ARGUMENT, _("A KFD pose is named by its frame: “%s” is no frame number"),
                       new_name ? new_name : "");
      if (to_frame <= low || to_frame >= high)
        return refuse (error, SQ_ERROR_INVALID_ARGUMENT,
                       _("Frame %" PRId64 " is not between frames %" PRId64 " and %" PRId64 ", where the pose must go"),
                       to_frame, low, high);
      for (guint i = 0; op == OP_DUPLICATE_POSE && i < n; i++)
        if (g_array_index (frames, gint64, i) == to_frame)
          return refuse (error, SQ_ERROR_INVALID_ARGUMENT, _("Frame %" PRId64 " has a pose already"), to_frame);
    }
  if (op == OP_MOVE_POSE && !(number >= 0 && number < n))
    return refuse (error, SQ_ERROR_INVALID_ARGUMENT, _("There is no place %g in a KFD of %u poses (1 to %u)"),
                   number + 1, n, n);

  for (guint i = 0; i < n; i++)
    {
      gint64 f = g_array_index (frames, gint64, i);

      if (op == OP_DELETE_POSE && i == (guint) at)
        continue;
      if (op == OP_DUPLICATE_POSE && m > 0 && to[m - 1] < to_frame && to_frame < f)
        {
          src[m] = (guint) at;
          to[m++] = to_frame;
        }
      src[m] = i;
      to[m++] = op == OP_RENAME_POSE && i == (guint) at ? to_frame : f;
    }
  if (op == OP_MOVE_POSE)
    {
      guint dest = (guint) number;

      /* the poses in their new order, the frames in theirs */
      memmove (&src[at], &src[at + 1], (n - 1 - at) * sizeof (guint));
      memmove (&src[dest + 1], &src[dest], (n - 1 - dest) * sizeof (guint));
      src[dest] = (guint) at;
    }
  rebuild_strip (edit, clip, frames, src, to, m, NULL, NULL);
  return TRUE;
}

/* ---- KFD and skill fields ------------------------------------------------ */

static gboolean
apply_field (SqEdit     *edit,
             SqClip     *clip,
             SimsOp      op,
             const char *new_name,
             double      number,
             GError    **error)
{
  gboolean kfd = op == OP_KFD_BOUNCE || op == OP_KFD_START_POSE || op == OP_KFD_END_POSE;

  if (kfd && clip->format != &_sq_format_simpose_kfd)
    return refuse (error, SQ_ERROR_INVALID_ARGUMENT, _("Only a SimPose-ium KFD has a bounce flag and start and end poses"));
  if (!kfd && (clip->format != &_sq_format_sims_cmx || sq_props_get (clip->extra, "skill") == NULL))
    return refuse (error, SQ_ERROR_INVALID_ARGUMENT, _("Only a CMX file with a skill has a skill name and duration"));
  switch (op)
    {
    case OP_KFD_START_POSE:
    case OP_KFD_END_POSE:
      if (!check_line (op == OP_KFD_START_POSE ? _("start pose name") : _("end pose name"), new_name, TRUE, error))
        return FALSE;
      break;
    case OP_SKILL_NAME:
      if (!check_line (_("skill name"), new_name, FALSE, error))
        return FALSE;
      break;
    case OP_SKILL_DURATION:
      if (!isfinite (number) || number < 0 || number > MAX_SKILL_MS)
        return refuse (error, SQ_ERROR_INVALID_ARGUMENT, _("The duration must lie within 0 to %g ms, not %g"),
                       MAX_SKILL_MS, number);
      break;
    default:
      break;
    }

  _sq_edit_journal_extra (edit, clip);
  switch (op)
    {
    case OP_KFD_BOUNCE:
      {
        gint64 frames = sq_props_get_int (clip->extra, "frames", 0);

        frames = MAX (frames, (gint64) _sq_sims_pose_count (clip));
        sq_props_set (clip->extra, "bounce", g_variant_new_boolean (number != 0));
        sq_props_set (clip->extra, "sequence-length", g_variant_new_int64 (number != 0 ? 2 * frames : frames));
      }
      break;
    case OP_KFD_START_POSE:
      sq_props_set (clip->extra, "start-pose", g_variant_new_string (new_name));
      break;
    case OP_KFD_END_POSE:
      sq_props_set (clip->extra, "end-pose", g_variant_new_string (new_name));
      break;
    case OP_SKILL_NAME:
      sq_props_set (clip->extra, "skill", g_variant_new_string (new_name));
      break;
    case OP_SKILL_DURATION:
      {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        sq_props_set (clip->extra, "skill-duration", g_variant_new_string (g_ascii_dtostr (buf, sizeof buf, number)));
      }
      break;
    default:
      g_assert_not_reached ();
    }
  return TRUE;
}

/* ---- the edit classes, one per operation ------------------------------- */

typedef struct
{
  SimsOp  op;
  char   *name;
  char   *new_name;
  double  number;
} SimsArgs;

static void
sims_args_free (gpointer params)
{
  SimsArgs *a = params;

  g_free (a->name);
  g_free (a->new_name);
}

static gboolean
sims_apply (SqEdit  *edit,
            SqClip  *clip,
            GError **error)
{
  const SimsArgs *a = _sq_edit_get_params (edit);

  if (a->op <= OP_MOVE_POSE && sq_sims_poses_are_frames (clip))
    return apply_kfd_pose (edit, clip, a->op, a->name, a->new_name, a->number, error);
  if (a->op <= OP_MOVE_POSE)
    return apply_pose (edit, clip, a->op, a->name, a->new_name, a->number, error);
  return apply_field (edit, clip, a->op, a->new_name, a->number, error);
}

static char *
describe_rename_pose (const SqEdit *edit)
{
  const SimsArgs *a = _sq_edit_get_params (edit);
  return g_strdup_printf (_("Rename pose “%s” to “%s”"), a->name, a->new_name);
}

static char *
describe_duplicate_pose (const SqEdit *edit)
{
  const SimsArgs *a = _sq_edit_get_params (edit);
  return g_strdup_printf (_("Copy pose “%s” as “%s”"), a->name, a->new_name);
}

static char *
describe_delete_pose (const SqEdit *edit)
{
  const SimsArgs *a = _sq_edit_get_params (edit);
  return g_strdup_printf (_("Delete pose “%s”"), a->name);
}

static char *
describe_move_pose (const SqEdit *edit)
{
  const SimsArgs *a = _sq_edit_get_params (edit);
  return g_strdup_printf (_("Move pose “%s” to place %g"), a->name, a->number + 1);
}

static char *
describe_kfd_bounce (const SqEdit *edit)
{
  const SimsArgs *a = _sq_edit_get_params (edit);
  return g_strdup (a->number != 0 ? _("Play forward then back (bounce)") : _("Play forward only"));
}

static char *
describe_kfd_start_pose (const SqEdit *edit)
{
  const SimsArgs *a = _sq_edit_get_params (edit);
  return g_strdup_printf (_("Set the start pose to “%s”"), a->new_name);
}

static char *
describe_kfd_end_pose (const SqEdit *edit)
{
  const SimsArgs *a = _sq_edit_get_params (edit);
  return g_strdup_printf (_("Set the end pose to “%s”"), a->new_name);
}

static char *
describe_skill_name (const SqEdit *edit)
{
  const SimsArgs *a = _sq_edit_get_params (edit);
  return g_strdup_printf (_("Rename the skill to “%s”"), a->new_name);
}

static char *
describe_skill_duration (const SqEdit *edit)
{
  const SimsArgs *a = _sq_edit_get_params (edit);
  return g_strdup_printf (_("Set the skill's duration to %g ms"), a->number);
}

static const SqEditClass sims_classes[] = {
  [OP_RENAME_POSE] = { N_("Rename Pose"), describe_rename_pose, sims_apply, NULL, sims_args_free },
  [OP_DUPLICATE_POSE] = { N_("Duplicate Pose"), describe_duplicate_pose, sims_apply, NULL, sims_args_free },
  [OP_DELETE_POSE] = { N_("Delete Pose"), describe_delete_pose, sims_apply, NULL, sims_args_free },
  [OP_MOVE_POSE] = { N_("Move Pose"), describe_move_pose, sims_apply, NULL, sims_args_free },
  [OP_KFD_BOUNCE] = { N_("Set Bounce"), describe_kfd_bounce, sims_apply, NULL, sims_args_free },
  [OP_KFD_START_POSE] = { N_("Set Start Pose"), describe_kfd_start_pose, sims_apply, NULL, sims_args_free },
  [OP_KFD_END_POSE] = { N_("Set End Pose"), describe_kfd_end_pose, sims_apply, NULL, sims_args_free },
  [OP_SKILL_NAME] = { N_("Rename Skill"), describe_skill_name, sims_apply, NULL, sims_args_free },
  [OP_SKILL_DURATION] = { N_("Set Skill Duration"), describe_skill_duration, sims_apply, NULL, sims_args_free },
};

static SqEdit *
sims_edit_new (SimsOp      op,
               const char *name,
               const char *new_name,
               double      number)
{
  SimsArgs *a = g_new0 (SimsArgs, 1);

  a->op = op;
  a->name = g_strdup (name);
  a->new_name = g_strdup (new_name);
  a->number = number;
  return _sq_edit_new (&sims_classes[op], a);
}

/* ---- constructors -------------------------------------------------------- */

SqEdit *
sq_edit_sims_rename_pose_new (const char *old_name,
                              const char *new_name)
{
  return sims_edit_new (OP_RENAME_POSE, old_name, new_name, 0);
}

SqEdit *
sq_edit_sims_duplicate_pose_new (const char *name,
                                 const char *new_name)
{
  return sims_edit_new (OP_DUPLICATE_POSE, name, new_name, 0);
}

SqEdit *
sq_edit_sims_delete_pose_new (const char *name)
{
  return sims_edit_new (OP_DELETE_POSE, name, NULL, 0);
}

SqEdit *
sq_edit_sims_move_pose_new (const char *name,
                            guint       index)
{
  return sims_edit_new (OP_MOVE_POSE, name, NULL, index);
}

SqEdit *
sq_edit_sims_kfd_bounce_new (gboolean bounce)
{
  return sims_edit_new (OP_KFD_BOUNCE, NULL, NULL, bounce ? 1 : 0);
}

SqEdit *
sq_edit_sims_kfd_pose_name_new (gboolean    end,
                                const char *name)
{
  return sims_edit_new (end ? OP_KFD_END_POSE : OP_KFD_START_POSE, NULL, name ? name : "", 0);
}

SqEdit *
sq_edit_sims_skill_name_new (const char *name)
{
  return sims_edit_new (OP_SKILL_NAME, NULL, name ? name : "", 0);
}

SqEdit *
sq_edit_sims_skill_duration_new (double ms)
{
  return sims_edit_new (OP_SKILL_DURATION, NULL, NULL, ms);
}

/* ---- the properties panel's view ---------------------------------------- */

void
sq_sims_fields_get (const SqClip *clip,
                    SqSimsFields *out)
{
  memset (out, 0, sizeof *out);
  out->is_kfd = clip->format == &_sq_format_simpose_kfd;
  out->is_skill = clip->format == &_sq_format_sims_cmx && sq_props_get (clip->extra, "skill") != NULL;
  out->frames = sq_props_get_int (clip->extra, "frames", 0);
  out->sequence_length = sq_props_get_int (clip->extra, "sequence-length", 0);
  out->bounce = sq_props_get_bool (clip->extra, "bounce", FALSE);
  out->start_pose = _sq_sims_string_extra (clip, "start-pose", "");
  out->end_pose = _sq_sims_string_extra (clip, "end-pose", "");
  out->skill = _sq_sims_string_extra (clip, "skill", "");
  out->skill_duration = g_ascii_strtod (_sq_sims_string_extra (clip, "skill-duration", ""), NULL);
}
