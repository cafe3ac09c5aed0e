/* sq-sims-poses.c: the poses of a PSL or KFD kept as their text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A pose is 31 vector lines (ROOT and PELVIS translations, 29 rotations).
 * The reader checks each line and keeps where it starts; the clip's tracks
 * then keep those pointers as their records (8 bytes a key instead of the
 * 40 of a decoded key), pose by pose: track c of the pose library sees
 * record i at lines[i * 31 + c], so a track's stride is 31 pointers. A key
 * is read from its line again when it is asked for, with the reader's own
 * scan (_sq_sims_scan_bars), so its values are the same to the bit; the
 * pose times are kept once for all tracks.
 */
#include "config.h"

#include "sq-private.h"
#include "worlds/sq-world-sims.h"

struct _SqSimsPoses
{
  GBytes     *text;           /* the bytes read, held while the records are */
  const char *text_end;
  gsize       n, room;
  double     *times;          /* n pose times, seconds */
  const char *lines[];        /* n × SQ_SIMS_POSE_LINES line starts */
};

#define POSE_STRIDE (SQ_SIMS_POSE_LINES * sizeof (const char *))

SqSimsPoses *
_sq_sims_poses_new (GBytes *bytes,
                    gsize   n_poses)
{
  /* one pose more, zeroed: track c's n records then lie within the bytes
   * (sq_clip_check: n records of the stride from track c's first) */
  SqSimsPoses *poses = g_malloc (sizeof *poses + (n_poses + 1) * POSE_STRIDE);
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  poses->text = g_bytes_ref (bytes);
  poses->text_end = data != NULL ? data + len : NULL;
  poses->n = 0;
  poses->room = n_poses;
  poses->times = g_new (double, MAX (n_poses, 1));
  memset (&poses->lines[n_poses * SQ_SIMS_POSE_LINES], 0, POSE_STRIDE);
  return poses;
}

void
_sq_sims_poses_free (SqSimsPoses *poses)
{
  if (poses == NULL)
    return;
  g_bytes_unref (poses->text);
  g_free (poses->times);
  g_free (poses);
}

void
_sq_sims_poses_add (SqSimsPoses *poses,
                    double       time,
                    const char  *lines[SQ_SIMS_POSE_LINES])
{
  g_return_if_fail (poses->n < poses->room);
  poses->times[poses->n] = time;
  memcpy (&poses->lines[poses->n * SQ_SIMS_POSE_LINES], lines, POSE_STRIDE);
  poses->n++;
}

gboolean
_sq_sims_poses_last_time (const SqSimsPoses *poses,
                          double            *time)
{
  if (poses->n == 0)
    return FALSE;
  *time = poses->times[poses->n - 1];
  return TRUE;
}

/* ---- the codecs ---------------------------------------------------------- */

static const SqSimsPoses *
poses_of (const SqTrack *track)
{
  return g_bytes_get_data (track->packed_bytes, NULL);
}

static double
pose_time (const SqTrack *track,
           const guint8  *record)
{
  return poses_of (track)->times[(gsize) (record - track->packed) / POSE_STRIDE];
}

/* the numbers of the line at `record` (checked when it was read) */
static void
pose_line (const SqTrack *track,
           const guint8  *record,
           double        *v,
           guint          n)
{
  const char *p, *bad;
  SqLines lines;

  memcpy (&p, record, sizeof p);
  _sq_lines_init (&lines, p, (gsize) (poses_of (track)->text_end - p));
  if (!_sq_lines_next_lf (&lines) || !_sq_sims_scan_bars (lines.cur, lines.cur_len, v, n, &bad))
    memset (v, 0, n * sizeof (double));
}

static void
pose_translation (const SqTrack *track,
                  const guint8  *record,
                  SqKey         *key)
{
  key->time = pose_time (track, record);
  pose_line (track, record, key->v, 3);
  key->v[3] = 0.0;
}

static void
pose_rotation (const SqTrack *track,
               const guint8  *record,
               SqKey         *key)
{
  double v[4];

  key->time = pose_time (track, record);
  pose_line (track, record, v, 4);
  _sq_sims_quat_from_file (v, key->v);
}

static const SqKeyCodec pose_translation_codec = { POSE_STRIDE, pose_time, pose_translation, NULL, NULL, NULL };
static const SqKeyCodec pose_rotation_codec = { POSE_STRIDE, pose_time, pose_rotation, NULL, NULL, NULL };

void
_sq_sims_poses_pack (SqSimsPoses *poses,
                     SqClip      *clip)
{
  g_autoptr(GBytes) records = NULL;
  gsize n = poses->n;

  if (n == 0 || clip->n_joints < SQ_SIMS_N_BONES)
    {
      _sq_sims_poses_free (poses);
      return;
    }
  records = g_bytes_new_with_free_func (poses, sizeof *poses + (poses->room + 1) * POSE_STRIDE,
                                        (GDestroyNotify) _sq_sims_poses_free, poses);
  for (int b = 0; b < 2; b++)
    sq_track_pack (&clip->joints[b].tracks[SQ_CHANNEL_TRANSLATION], &pose_translation_codec, records,
                   (const guint8 *) &poses->lines[b], n, 0.0);
  for (int b = 0; b < SQ_SIMS_N_BONES; b++)
    sq_track_pack (&clip->joints[b].tracks[SQ_CHANNEL_ROTATION], &pose_rotation_codec, records,
                   (const guint8 *) &poses->lines[2 + b], n, 0.0);
}
