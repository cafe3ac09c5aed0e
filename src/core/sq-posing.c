/* sq-posing.c: set rotation and position, insert, delete and move keys,
 * paste and flip poses and copied keys, symmetrize
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * These edits are what an animator does hundreds of times a session, on
 * clips of millions of keys, so they do not journal whole joints: each
 * apply logs exactly the changes it makes (a key's old value with its side
 * arrays, a key inserted or removed, or a packed track as it was before it
 * was rewritten or decoded: a copy that shares its records), and undo
 * takes them back in reverse order, so the clip is bitwise what it was.
 * Apply checks everything first and changes nothing when it refuses.
 */
#define G_LOG_DOMAIN "sq-posing"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "sq-edit-private.h"
#include "sq-format.h"
#include "sq-math.h"
#include "sq-motion.h"
#include "sq-posing.h"

/* a key's time this close to a time given is at it, in a clip with no
 * frame rate (otherwise half a frame) */
#define KEY_TIME_EPSILON 1e-6
/* the largest record a codec may have for encoding in place */
#define MAX_RECORD 64

typedef enum
{
  CHANGE_TRACK,      /* the whole track as it was (packed: shares its records) */
  CHANGE_SET,        /* key `index`'s value and side arrays as they were */
  CHANGE_INSERT,     /* key `index` was inserted */
  CHANGE_REMOVE,     /* key `index` was removed: it was `key` */
} ChangeKind;

typedef struct
{
  ChangeKind kind;
  gsize      joint;
  SqChannel  channel;
  gsize      index;
  SqKey      key;
  guint8     present;
  double     alt[4];
  SqTrack    track;
} Change;

/* what every posing edit has: its log, then its own parameters */
typedef struct
{
  GArray *changes;   /* Change */
  SqClip *clip;      /* the clip of the apply or undo running now */
} Log;

static void
log_init (Log *log)
{
  log->changes = g_array_new (FALSE, TRUE, sizeof (Change));
}

static void
log_clear (Log *log)
{
  for (guint i = 0; i < log->changes->len; i++)
    sq_track_clear (&g_array_index (log->changes, Change, i).track);
  g_array_set_size (log->changes, 0);
}

static void
log_free (Log *log)
{
  log_clear (log);
  g_array_unref (log->changes);
}

static SqTrack *
track_of (SqClip   *clip,
          gsize     joint,
          SqChannel channel)
{
  return &clip->joints[joint].tracks[channel];
}

static Change *
log_add (Log      *log,
         ChangeKind kind,
         gsize     joint,
         SqChannel channel,
         gsize     index)
{
  Change c = { 0 };

  /* the views of this joint's keys look again */
  _sq_edit_mark_joint (log->clip, joint);
  c.kind = kind;
  c.joint = joint;
  c.channel = channel;
  c.index = index;
  g_array_append_val (log->changes, c);
  return &g_array_index (log->changes, Change, log->changes->len - 1);
}

/* records key `index` with its side arrays into `c` */
static void
save_key (Change        *c,
          const SqTrack *t,
          gsize          index)
{
  c->key = t->keys[index];
  c->present = t->present != NULL ? t->present[index] : SQ_PRESENT_ALL;
  if (t->alt != NULL)
    memcpy (c->alt, &t->alt[index * 4], sizeof c->alt);
}

static void
restore_key (const Change *c,
             SqTrack      *t,
             gsize         index)
{
  t->keys[index] = c->key;
  if (t->present != NULL)
    t->present[index] = c->present;
  if (t->alt != NULL)
    memcpy (&t->alt[index * 4], c->alt, sizeof c->alt);
}

static void
log_undo (Log    *log,
          SqClip *clip)
{
  for (guint i = log->changes->len; i > 0; i--)
    {
      Change *c = &g_array_index (log->changes, Change, i - 1);
      SqTrack *t = track_of (clip, c->joint, c->channel);

      _sq_edit_mark_joint (clip, c->joint);
      switch (c->kind)
        {
        case CHANGE_TRACK:
          sq_track_clear (t);
          *t = c->track;
          memset (&c->track, 0, sizeof c->track);
          break;
        case CHANGE_SET:
          restore_key (c, t, c->index);
          break;
        case CHANGE_INSERT:
          sq_track_remove (t, c->index);
          break;
        case CHANGE_REMOVE:
          restore_key (c, t, sq_track_insert (t, c->key.time));
          break;
        }
    }
  log_clear (log);
}

/* the track, decoded when packed (the packed track logged) */
static SqTrack *
unpacked_track (Log    *log,
                SqClip *clip,
                gsize   joint,
                SqChannel channel)
{
  SqTrack *t = track_of (clip, joint, channel);

  if (sq_track_is_packed (t))
    {
      sq_track_copy (&log_add (log, CHANGE_TRACK, joint, channel, 0)->track, t);
      sq_track_unpack (t);
    }
  return t;
}

/* Writes `v` into packed key `index` through the codec, the track's
 * records copied first (they are shared with the file and with undo);
 * FALSE when the codec cannot hold it, nothing changed */
static gboolean
put_packed (Log          *log,
            SqClip       *clip,
            gsize         joint,
            SqChannel     channel,
            gsize         index,
            const double  v[4])
{
  SqTrack *t = track_of (clip, joint, channel);
  gsize stride = t->codec->stride;
  guint8 record[MAX_RECORD];
  GBytes *copy;

  if (t->codec->encode == NULL || stride > MAX_RECORD
      || !t->codec->encode (t, v, record))
    return FALSE;
  sq_track_copy (&log_add (log, CHANGE_TRACK, joint, channel, 0)->track, t);
  copy = g_bytes_new (t->packed, t->n_keys * stride);
  g_bytes_unref (t->packed_bytes);
  t->packed_bytes = copy;
  t->packed = g_bytes_get_data (copy, NULL);
  memcpy ((guint8 *) t->packed + index * stride, record, stride);
  return TRUE;
}

/* Sets the value of joint `joint`'s `channel` at `time` (a key time from
 * sq_posing_key_time) to `v`, replacing its key there or inserting one */
static void
put_key (Log          *log,
         SqClip       *clip,
         gsize         joint,
         SqChannel     channel,
         double        time,
         const double  v[4])
{
  SqTrack *t = track_of (clip, joint, channel);
  gssize at = sq_track_find (t, time);

  if (at >= 0 && sq_track_is_packed (t) && put_packed (log, clip, joint, channel, (gsize) at, v))
    return;
  t = unpacked_track (log, clip, joint, channel);
  if (at >= 0)
    {
      save_key (log_add (log, CHANGE_SET, joint, channel, (gsize) at), t, (gsize) at);
      if (t->present != NULL)
        t->present[at] = SQ_PRESENT_ALL;
      if (t->alt != NULL)
        for (guint i = 0; i < 4; i++)
          t->alt[at * 4 + i] = NAN;
    }
  else
    {
      at = (gssize) sq_track_insert (t, time);
      log_add (log, CHANGE_INSERT, joint, channel, (gsize) at);
    }
  memcpy (t->keys[at].v, v, 4 * sizeof (double));
}

/* ---- times ---------------------------------------------------------------- */

static double
tolerance_of (const SqClip *clip)
{
  return clip->fps > 0 && isfinite (clip->fps) ? 0.5 / clip->fps : KEY_TIME_EPSILON;
}

/* the key of `t` nearest `time` within the clip's tolerance, or -1 */
static gssize
key_near (const SqClip  *clip,
          const SqTrack *t,
          double         time)
{
  gsize i = sq_track_lower_bound (t, time, 0, t->n_keys);

  if (i > 0 && (i == t->n_keys || time - sq_track_time (t, i - 1) <= sq_track_time (t, i) - time))
    i--;
  return i < t->n_keys && fabs (sq_track_time (t, i) - time) <= tolerance_of (clip) ? (gssize) i : -1;
}

static double
snap_to_frame (const SqClip *clip,
               double        time)
{
  if (!(clip->fps > 0) || !isfinite (clip->fps))
    return time;
  return round (time * clip->fps) / clip->fps;
}

double
sq_posing_key_time (const SqClip *clip,
                    gsize         joint,
                    double        time)
{
  g_return_val_if_fail (joint < clip->n_joints, time);

  for (guint c = 0; c < SQ_N_CHANNELS; c++)
    {
      const SqTrack *t = &clip->joints[joint].tracks[c];
      gssize k = key_near (clip, t, time);

      if (k >= 0)
        return sq_track_time (t, (gsize) k);
    }
  return snap_to_frame (clip, time);
}

static gboolean
check_time (const SqClip *clip,
            double        time,
            GError      **error)
{
  if (!isfinite (time) || time < 0 || time > clip->duration + tolerance_of (clip))
    return _sq_edit_invalid (error, _("%g s is outside the animation (0 to %g s)"), time, clip->duration);
  return TRUE;
}

/* ---- Euler axes ----------------------------------------------------------- */

guint
sq_posing_euler_axes (const SqClip *clip,
                      gsize         joint,
                      int           axes[3])
{
  GVariant *v = joint < clip->n_joints ? sq_props_get (clip->joints[joint].extra, "channels") : NULL;
  gboolean used[3] = { FALSE, FALSE, FALSE };
  guint n = 0, m;

  if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_STRING_ARRAY))
    for (gsize i = 0; i < g_variant_n_children (v) && n < 3; i++)
      {
        const char *s;

        g_variant_get_child (v, i, "&s", &s);
        if (strlen (s) == 9 && g_ascii_strcasecmp (s + 1, "rotation") == 0)
          {
            int a = g_ascii_tolower (s[0]) - 'x';

            if (a >= 0 && a <= 2 && !used[a])
              {
                used[a] = TRUE;
                axes[n++] = a;
              }
          }
      }
  if (v == NULL)
    {
      for (int a = 0; a < 3; a++)
        axes[a] = a;
      return 3;
    }
  m = n;
  for (int a = 0; a < 3; a++)
    if (!used[a])
      axes[m++] = a;
  return n;
}

/* ---- set rotation, set position ------------------------------------------- */

typedef struct
{
  Log        log;
  char      *joint;
  double     time;
  SqChannel  channel;
  double     v[4];
} SetArgs;

static void
set_args_free (gpointer params)
{
  SetArgs *a = params;

  log_free (&a->log);
  g_free (a->joint);
}

static gboolean
set_apply (SqEdit  *edit,
           SqClip  *clip,
           GError **error)
{
  SetArgs *a = _sq_edit_get_params (edit);
  gssize j = _sq_edit_find_joint (clip, a->joint, error);

  a->log.clip = clip;

  if (j < 0 || !check_time (clip, a->time, error))
    return FALSE;
  for (guint i = 0; i < (a->channel == SQ_CHANNEL_ROTATION ? 4u : 3u); i++)
    if (!isfinite (a->v[i]))
      return _sq_edit_invalid (error, _("The value is not a finite number"));
  put_key (&a->log, clip, (gsize) j, a->channel, sq_posing_key_time (clip, (gsize) j, a->time), a->v);
  return TRUE;
}

static void
set_undo (SqEdit *edit,
          SqClip *clip)
{
  SetArgs *a = _sq_edit_get_params (edit);

  log_undo (&a->log, clip);
}

static char *
set_describe (const SqEdit *edit)
{
  const SetArgs *a = _sq_edit_get_params (edit);

  if (a->channel == SQ_CHANNEL_ROTATION)
    return g_strdup_printf (_("Set the rotation of “%s” at %g s to %g %g %g %g (w x y z)"),
                            a->joint, a->time, a->v[0], a->v[1], a->v[2], a->v[3]);
  return g_strdup_printf (_("Set the position of “%s” at %g s to %g %g %g"),
                          a->joint, a->time, a->v[0], a->v[1], a->v[2]);
}

static const SqEditClass set_rotation_class = {
  N_("Set Rotation"), set_describe, set_apply, set_undo, set_args_free, TRUE,
};

static const SqEditClass set_position_class = {
  N_("Set Position"), set_describe, set_apply, set_undo, set_args_free, TRUE,
};

static SqEdit *
set_new (const SqEditClass *klass,
         const char        *joint,
         double             time,
         SqChannel          channel,
         const double      *v,
         guint              n)
{
  SetArgs *a = g_new0 (SetArgs, 1);

  log_init (&a->log);
  a->joint = g_strdup (joint);
  a->time = time;
  a->channel = channel;
  memcpy (a->v, v, n * sizeof (double));
  if (channel == SQ_CHANNEL_ROTATION)
    {
      double len = sqrt (a->v[0] * a->v[0] + a->v[1] * a->v[1] + a->v[2] * a->v[2] + a->v[3] * a->v[3]);

      if (len > 0 && isfinite (len))
        for (guint i = 0; i < 4; i++)
          a->v[i] /= len;
    }
  return _sq_edit_new (klass, a);
}

SqEdit *
sq_edit_set_rotation_new (const char   *joint,
                          double        time,
                          const double  q[4])
{
  return set_new (&set_rotation_class, joint, time, SQ_CHANNEL_ROTATION, q, 4);
}

SqEdit *
sq_edit_set_position_new (const char   *joint,
                          double        time,
                          const double  v[3])
{
  return set_new (&set_position_class, joint, time, SQ_CHANNEL_TRANSLATION, v, 3);
}

/* ---- insert keys ---------------------------------------------------------- */

typedef struct
{
  Log     log;
  char  **joints;    /* NULL: every joint */
  double  time;
} InsertArgs;

static void
insert_args_free (gpointer params)
{
  InsertArgs *a = params;

  log_free (&a->log);
  g_strfreev (a->joints);
}

/* the joints an edit names, as indices (every joint for NULL) */
static GArray *
joint_indices (const SqClip       *clip,
               const char * const *names,
               GError            **error)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (gsize));

  if (names == NULL)
    for (gsize j = 0; j < clip->n_joints; j++)
      g_array_append_val (out, j);
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    {
      gssize j = _sq_edit_find_joint (clip, names[i], error);
      gsize u = (gsize) j;

      if (j < 0)
        {
          g_array_unref (out);
          return NULL;
        }
      g_array_append_val (out, u);
    }
  return out;
}

static gboolean
insert_apply (SqEdit  *edit,
              SqClip  *clip,
              GError **error)
{
  InsertArgs *a = _sq_edit_get_params (edit);
  g_autoptr(GArray) joints = NULL;
  guint inserted = 0;

  a->log.clip = clip;

  if (!check_time (clip, a->time, error)
      || (joints = joint_indices (clip, (const char * const *) a->joints, error)) == NULL)
    return FALSE;
  for (guint i = 0; i < joints->len; i++)
    {
      gsize j = g_array_index (joints, gsize, i);
      double time = sq_posing_key_time (clip, j, a->time);

      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        {
          SqTrack *t = track_of (clip, j, c);
          double v[4];

          if ((c != SQ_CHANNEL_ROTATION && t->n_keys == 0) || sq_track_find (t, time) >= 0)
            continue;
          sq_track_sample (t, c, time, v);
          put_key (&a->log, clip, j, c, time, v);
          inserted++;
        }
    }
  if (inserted == 0)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_EXISTS, _("There is a key at %g s already"), a->time);
      return FALSE;
    }
  return TRUE;
}

static void
insert_undo (SqEdit *edit,
             SqClip *clip)
{
  InsertArgs *a = _sq_edit_get_params (edit);

  log_undo (&a->log, clip);
}

static char *
insert_describe (const SqEdit *edit)
{
  const InsertArgs *a = _sq_edit_get_params (edit);
  g_autofree char *list = NULL;

  if (a->joints == NULL)
    return g_strdup_printf (_("Insert keys of every joint at %g s"), a->time);
  list = g_strjoinv (", ", a->joints);
  return g_strdup_printf (_("Insert keys of %s at %g s"), list, a->time);
}

static const SqEditClass insert_class = {
  N_("Insert Keys"), insert_describe, insert_apply, insert_undo, insert_args_free, TRUE,
};

SqEdit *
sq_edit_insert_keys_new (const char * const *joints,
                         double              time)
{
  InsertArgs *a = g_new0 (InsertArgs, 1);

  log_init (&a->log);
  if (joints != NULL && joints[0] != NULL)
    a->joints = g_strdupv ((char **) joints);
  a->time = time;
  return _sq_edit_new (&insert_class, a);
}

/* ---- key lists: delete, move ---------------------------------------------- */

typedef struct
{
  gsize     joint;
  SqChannel channel;
  gsize     index;
  double    to;        /* move: the new time */
} Found;

typedef struct
{
  Log      log;
  char   **joints;
  double  *times;
  guint   *channels;   /* the SqKeyRef's mask; 0: every channel */
  gsize    n;
  double   delta;
} ListArgs;

static void
list_args_free (gpointer params)
{
  ListArgs *a = params;

  log_free (&a->log);
  g_strfreev (a->joints);
  g_free (a->times);
  g_free (a->channels);
}

static int
found_compare (gconstpointer pa,
               gconstpointer pb)
{
  const Found *a = pa, *b = pb;

  if (a->joint != b->joint)
    return a->joint < b->joint ? -1 : 1;
  if (a->channel != b->channel)
    return a->channel < b->channel ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index ? 1 : 0;
}

static gboolean
found_sorted (const GArray *found)
{
  for (guint i = 1; i < found->len; i++)
    if (found_compare (&g_array_index (found, Found, i - 1), &g_array_index (found, Found, i)) > 0)
      return FALSE;
  return TRUE;
}

/* The keys the list names, sorted by track and index, each once; NULL
 * with an error for an unknown joint or when none is there */
static GArray *
find_listed (const ListArgs *a,
             const SqClip   *clip,
             GError        **error)
{
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (Found));
  GArray *unique;

  for (gsize i = 0; i < a->n; i++)
    {
      gssize j = _sq_edit_find_joint (clip, a->joints[i], error);

      if (j < 0)
        return NULL;
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        {
          gssize k = key_near (clip, &clip->joints[j].tracks[c], a->times[i]);
          Found f = { (gsize) j, c, (gsize) k, 0 };

          if (k >= 0 && (a->channels[i] == 0 || (a->channels[i] & SQ_KEY_REF_CHANNEL (c))))
            g_array_append_val (found, f);
        }
    }
  if (found->len == 0)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND, a->n == 1 ? _("Joint “%s” has no key at %g s")
                   : _("No key is at the times given (the first: “%s” at %g s)"),
                   a->n > 0 ? a->joints[0] : "", a->n > 0 ? a->times[0] : 0.0);
      return NULL;
    }
  if (!found_sorted (found))
    g_array_sort (found, found_compare);
  unique = g_array_new (FALSE, FALSE, sizeof (Found));
  for (guint i = 0; i < found->len; i++)
    if (i == 0 || found_compare (&g_array_index (found, Found, i), &g_array_index (found, Found, i - 1)) != 0)
      g_array_append_val (unique, g_array_index (found, Found, i));
  return unique;
}

static void
list_undo (SqEdit *edit,
           SqClip *clip)
{
  ListArgs *a = _sq_edit_get_params (edit);

  log_undo (&a->log, clip);
}

/* a track losing more keys than this is logged whole and compacted in one
 * pass (a box of a million keys deletes in linear time); fewer are logged
 * key by key */
#define MANY_KEYS 32

/* the track, logged whole as it was, then decoded when packed */
static SqTrack *
logged_whole (Log      *log,
              SqClip   *clip,
              gsize     joint,
              SqChannel channel)
{
  SqTrack *t = track_of (clip, joint, channel);

  sq_track_copy (&log_add (log, CHANGE_TRACK, joint, channel, 0)->track, t);
  sq_track_unpack (t);
  return t;
}

/* removes the n found keys of one track (indices rising) in one pass, the
 * track as it was logged first */
static void
remove_many (Log         *log,
             SqClip      *clip,
             const Found *found,
             gsize        n)
{
  SqTrack *t = logged_whole (log, clip, found[0].joint, found[0].channel);
  gsize w = found[0].index, next = 0;

  for (gsize r = found[0].index; r < t->n_keys; r++)
    {
      if (next < n && found[next].index == r)
        {
          next++;
          continue;
        }
      t->keys[w] = t->keys[r];
      if (t->present != NULL)
        t->present[w] = t->present[r];
      if (t->alt != NULL)
        memcpy (&t->alt[w * 4], &t->alt[r * 4], 4 * sizeof (double));
      w++;
    }
  t->n_keys = w;
}

/* removes the found keys, track by track: a few from the last to the
 * first, so indices hold, many in one pass */
static void
remove_found (Log    *log,
              SqClip *clip,
              GArray *found)
{
  for (guint end = found->len; end > 0;)
    {
      const Found *last = &g_array_index (found, Found, end - 1);
      guint start = end - 1;

      while (start > 0 && g_array_index (found, Found, start - 1).joint == last->joint
             && g_array_index (found, Found, start - 1).channel == last->channel)
        start--;
      if (end - start > MANY_KEYS)
        remove_many (log, clip, &g_array_index (found, Found, start), end - start);
      else
        for (guint i = end; i > start; i--)
          {
            const Found *f = &g_array_index (found, Found, i - 1);
            SqTrack *t = unpacked_track (log, clip, f->joint, f->channel);

            save_key (log_add (log, CHANGE_REMOVE, f->joint, f->channel, f->index), t, f->index);
            sq_track_remove (t, f->index);
          }
      end = start;
    }
}

static gboolean
delete_list_apply (SqEdit  *edit,
                   SqClip  *clip,
                   GError **error)
{
  ListArgs *a = _sq_edit_get_params (edit);
  g_autoptr(GArray) found = find_listed (a, clip, error);

  a->log.clip = clip;

  if (found == NULL)
    return FALSE;
  remove_found (&a->log, clip, found);
  return TRUE;
}

static char *
list_describe (const SqEdit *edit)
{
  const ListArgs *a = _sq_edit_get_params (edit);

  if (isnan (a->delta))
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Delete the keys of %u joint and time",
                                         "Delete the keys of %u joints and times", a->n), (guint) a->n);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Move the keys of %u joint and time by %g s",
                                       "Move the keys of %u joints and times by %g s", a->n),
                          (guint) a->n, a->delta);
}

static const SqEditClass delete_list_class = {
  N_("Delete Keys"), list_describe, delete_list_apply, list_undo, list_args_free, TRUE,
};

static SqEdit *
list_new (const SqEditClass *klass,
          const SqKeyRef    *keys,
          gsize              n,
          double             delta)
{
  ListArgs *a = g_new0 (ListArgs, 1);

  log_init (&a->log);
  a->joints = g_new0 (char *, n + 1);
  a->times = g_new0 (double, MAX (n, 1));
  a->channels = g_new0 (guint, MAX (n, 1));
  a->n = n;
  a->delta = delta;
  for (gsize i = 0; i < n; i++)
    {
      a->joints[i] = g_strdup (keys[i].joint);
      a->times[i] = keys[i].time;
      a->channels[i] = keys[i].channels;
    }
  return _sq_edit_new (klass, a);
}

SqEdit *
sq_edit_delete_key_list_new (const SqKeyRef *keys,
                             gsize           n_keys)
{
  return list_new (&delete_list_class, keys, n_keys, NAN);
}

/* Whether the found keys of the track that `found[from]` starts can move
 * to their new times: inside the clip, every key of the track still in
 * order (keys that stay keep theirs); *end gets the first of the next
 * track */
static gboolean
check_track_move (const SqClip *clip,
                  const GArray *found,
                  guint         from,
                  guint        *end,
                  GError      **error)
{
  const Found *f0 = &g_array_index (found, Found, from);
  const SqTrack *t = &clip->joints[f0->joint].tracks[f0->channel];
  double prev = -INFINITY;
  guint i = from;

  for (gsize k = 0; k < t->n_keys; k++)
    {
      const Found *f = i < found->len ? &g_array_index (found, Found, i) : NULL;
      gboolean moved = f != NULL && f->joint == f0->joint && f->channel == f0->channel && f->index == k;
      double time = moved ? f->to : sq_track_time (t, k);

      if (moved && !check_time (clip, f->to, error))
        return FALSE;
      if (!(time > prev))
        return _sq_edit_invalid (error, _("The keys of “%s” would reach or pass each other at %g s: "
                                          "a key cannot move past its neighbour"),
                                 clip->joints[f0->joint].name, MAX (time, prev));
      prev = time;
      i += moved;
    }
  *end = i;
  return TRUE;
}

static gboolean
move_apply (SqEdit  *edit,
            SqClip  *clip,
            GError **error)
{
  ListArgs *a = _sq_edit_get_params (edit);
  g_autoptr(GArray) found = NULL;

  a->log.clip = clip;

  if (!isfinite (a->delta))
    return _sq_edit_invalid (error, _("The time to move by is not a number"));
  if ((found = find_listed (a, clip, error)) == NULL)
    return FALSE;
  for (guint i = 0; i < found->len; i++)
    {
      Found *f = &g_array_index (found, Found, i);
      f->to = snap_to_frame (clip, sq_track_time (&clip->joints[f->joint].tracks[f->channel], f->index) + a->delta);
    }
  for (guint i = 0; i < found->len;)
    if (!check_track_move (clip, found, i, &i, error))
      return FALSE;
  /* the checks keep every track's order, so each key takes its new time
   * in place (its notation dropped: it may hold the old time); a track
   * with many keys moving is logged whole, one with few key by key */
  for (guint start = 0, end; start < found->len; start = end)
    {
      const Found *first = &g_array_index (found, Found, start);
      gboolean whole;
      SqTrack *t;

      for (end = start + 1; end < found->len && g_array_index (found, Found, end).joint == first->joint
           && g_array_index (found, Found, end).channel == first->channel; end++)
        ;
      whole = end - start > MANY_KEYS;
      t = whole ? logged_whole (&a->log, clip, first->joint, first->channel)
                : unpacked_track (&a->log, clip, first->joint, first->channel);
      for (guint i = start; i < end; i++)
        {
          const Found *f = &g_array_index (found, Found, i);

          if (!whole)
            save_key (log_add (&a->log, CHANGE_SET, f->joint, f->channel, f->index), t, f->index);
          t->keys[f->index].time = f->to;
          if (t->alt != NULL)
            for (guint k = 0; k < 4; k++)
              t->alt[f->index * 4 + k] = NAN;
        }
    }
  return TRUE;
}

static const SqEditClass move_class = {
  N_("Move Keys"), list_describe, move_apply, list_undo, list_args_free, TRUE,
};

SqEdit *
sq_edit_move_keys_new (const SqKeyRef *keys,
                       gsize           n_keys,
                       double          delta)
{
  return list_new (&move_class, keys, n_keys, delta);
}

/* ---- paste a pose, flip, symmetrize --------------------------------------- */

/* `e`'s values as the pose's entry of its joint */
static void
pose_put (SqJointPose       *pose,
          const SqPoseEntry *e)
{
  SqPoseEntry *to = sq_joint_pose_entry (pose, e->joint);

  to->has = e->has;
  memcpy (to->rotation, e->rotation, sizeof to->rotation);
  memcpy (to->position, e->position, sizeof to->position);
}

/* A clip with `clip`'s format, joints and their fields and no keys, but
 * the pose's as keys at 0 */
static SqClip *
pose_clip (const SqJointPose *pose,
           const SqClip      *clip)
{
  SqClip *tmp = sq_clip_new ();

  tmp->format = clip->format;
  tmp->fps = clip->fps;
  tmp->duration = 0;
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      SqJoint *joint = sq_clip_add_joint (tmp, clip->joints[j].name);
      const SqPoseEntry *e = sq_joint_pose_lookup (pose, clip->joints[j].name);

      sq_props_free (joint->extra);
      joint->extra = sq_props_copy (clip->joints[j].extra);
      if (e != NULL && (e->has & SQ_POSE_HAS_ROTATION))
        memcpy (sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], 0)->v, e->rotation, sizeof e->rotation);
      if (e != NULL && (e->has & SQ_POSE_HAS_POSITION))
        memcpy (sq_track_append (&joint->tracks[SQ_CHANNEL_TRANSLATION], 0)->v, e->position, sizeof e->position);
    }
  return tmp;
}

SqJointPose *
sq_joint_pose_flip (const SqJointPose *pose,
                    const SqClip      *clip)
{
  g_autoptr(SqClip) tmp = pose_clip (pose, clip);
  g_autoptr(SqEdit) mirror = sq_edit_mirror_new ();
  SqJointPose *out = sq_joint_pose_new (pose->name, pose->world);

  /* the world's pairs and reflection, as Mirror does them */
  if (!sq_edit_apply (mirror, tmp, NULL))
    g_return_val_if_reached (out);
  for (gsize j = 0; j < tmp->n_joints; j++)
    {
      const SqJoint *joint = &tmp->joints[j];
      const SqPoseEntry *was = sq_joint_pose_lookup (pose, clip->joints[sq_motion_mirror_partner (clip, j)].name);
      SqPoseEntry *e;

      if (was == NULL)
        continue;
      e = sq_joint_pose_entry (out, joint->name);
      if (joint->tracks[SQ_CHANNEL_ROTATION].n_keys > 0)
        {
          memcpy (e->rotation, sq_track_key (&joint->tracks[SQ_CHANNEL_ROTATION], 0).v, sizeof e->rotation);
          e->has |= SQ_POSE_HAS_ROTATION;
        }
      if (joint->tracks[SQ_CHANNEL_TRANSLATION].n_keys > 0)
        {
          memcpy (e->position, sq_track_key (&joint->tracks[SQ_CHANNEL_TRANSLATION], 0).v, sizeof e->position);
          e->has |= SQ_POSE_HAS_POSITION;
        }
    }
  /* joints the clip lacks stay as they are (a paste reports them) */
  for (guint i = 0; i < pose->entries->len; i++)
    {
      const SqPoseEntry *e = &g_array_index (pose->entries, SqPoseEntry, i);

      if (sq_clip_find_joint (clip, e->joint) < 0)
        pose_put (out, e);
    }
  return out;
}

typedef struct
{
  Log             log;
  SqJointPose    *pose;
  double          time;
  gboolean        flip;
  char          **sources;   /* symmetrize */
  SqPoseSequence *keys;      /* paste keys */
} PasteArgs;

static void
paste_args_free (gpointer params)
{
  PasteArgs *a = params;

  log_free (&a->log);
  sq_joint_pose_free (a->pose);
  g_strfreev (a->sources);
  sq_pose_sequence_free (a->keys);
}

/* puts the pose's values into the clip at `time`; the joints it lacks are
 * reported; FALSE when it has none of them */
static gboolean
paste (SqEdit            *edit,
       Log               *log,
       SqClip            *clip,
       const SqJointPose *pose,
       double             time,
       GError           **error)
{
  g_autoptr(GString) missing = g_string_new (NULL);
  guint pasted = 0, lacking = 0;

  for (guint i = 0; i < pose->entries->len; i++)
    {
      const SqPoseEntry *e = &g_array_index (pose->entries, SqPoseEntry, i);
      gssize j = sq_clip_find_joint (clip, e->joint);
      double v[4] = { 0, 0, 0, 0 };
      double at;

      if (j < 0)
        {
          g_string_append_printf (missing, "%s%s", lacking++ > 0 ? ", " : "", e->joint);
          continue;
        }
      at = sq_posing_key_time (clip, (gsize) j, time);
      if (e->has & SQ_POSE_HAS_ROTATION)
        put_key (log, clip, (gsize) j, SQ_CHANNEL_ROTATION, at, e->rotation);
      memcpy (v, e->position, sizeof e->position);
      if (e->has & SQ_POSE_HAS_POSITION)
        put_key (log, clip, (gsize) j, SQ_CHANNEL_TRANSLATION, at, v);
      pasted++;
    }
  if (pasted == 0)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND, _("None of the pose's joints is in this animation"));
      return FALSE;
    }
  if (lacking > 0)
    _sq_edit_set_report (edit, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                             "%u joint of the pose is not in this animation: %s",
                                                             "%u joints of the pose are not in this animation: %s",
                                                             lacking), lacking, missing->str));
  return TRUE;
}

/* `pose` in the clip's space, flipped when asked */
static SqJointPose *
pose_to_paste (const SqJointPose *pose,
               const SqClip      *clip,
               gboolean           flip)
{
  SqJointPose *mine = sq_joint_pose_for_clip (pose, clip);

  if (flip)
    {
      SqJointPose *flipped = sq_joint_pose_flip (mine, clip);
      sq_joint_pose_free (mine);
      mine = flipped;
    }
  return mine;
}

static gboolean
paste_apply (SqEdit  *edit,
             SqClip  *clip,
             GError **error)
{
  PasteArgs *a = _sq_edit_get_params (edit);
  g_autoptr(SqJointPose) mine = NULL;

  a->log.clip = clip;

  if (!check_time (clip, a->time, error))
    return FALSE;
  mine = pose_to_paste (a->pose, clip, a->flip);
  return paste (edit, &a->log, clip, mine, a->time, error);
}

static gboolean
paste_keys_apply (SqEdit  *edit,
                  SqClip  *clip,
                  GError **error)
{
  PasteArgs *a = _sq_edit_get_params (edit);
  const SqPoseSequence *keys = a->keys;

  a->log.clip = clip;

  if (keys->times->len == 0)
    return _sq_edit_invalid (error, _("There are no keys to paste"));
  for (guint i = 0; i < keys->times->len; i++)
    if (!check_time (clip, a->time + g_array_index (keys->times, double, i), error))
      return FALSE;
  for (guint i = 0; i < keys->times->len; i++)
    {
      g_autoptr(SqJointPose) mine = pose_to_paste (g_ptr_array_index (keys->poses, i), clip, a->flip);

      if (!paste (edit, &a->log, clip, mine, a->time + g_array_index (keys->times, double, i), error))
        {
          log_undo (&a->log, clip);
          return FALSE;
        }
    }
  return TRUE;
}

static void
paste_undo (SqEdit *edit,
            SqClip *clip)
{
  PasteArgs *a = _sq_edit_get_params (edit);

  log_undo (&a->log, clip);
}

static char *
paste_describe (const SqEdit *edit)
{
  const PasteArgs *a = _sq_edit_get_params (edit);

  if (a->sources != NULL)
    return g_strdup_printf (_("Give the partners of %u joints their mirror image at %g s"),
                            g_strv_length (a->sources), a->time);
  if (a->keys != NULL)
    return g_strdup_printf (a->flip ? _("Paste the keys of %u times flipped at %g s")
                            : _("Paste the keys of %u times at %g s"), a->keys->times->len, a->time);
  return g_strdup_printf (a->flip ? _("Paste the pose “%s” flipped at %g s") : _("Paste the pose “%s” at %g s"),
                          a->pose->name, a->time);
}

static const SqEditClass paste_class = {
  N_("Paste Pose"), paste_describe, paste_apply, paste_undo, paste_args_free, TRUE,
};

static const SqEditClass paste_flipped_class = {
  N_("Paste Pose Flipped"), paste_describe, paste_apply, paste_undo, paste_args_free, TRUE,
};

SqEdit *
sq_edit_paste_pose_new (const SqJointPose *pose,
                        double             time,
                        gboolean           flip)
{
  PasteArgs *a = g_new0 (PasteArgs, 1);

  log_init (&a->log);
  a->pose = sq_joint_pose_copy (pose);
  a->time = time;
  a->flip = flip;
  return _sq_edit_new (flip ? &paste_flipped_class : &paste_class, a);
}

static const SqEditClass paste_keys_class = {
  N_("Paste Keys"), paste_describe, paste_keys_apply, paste_undo, paste_args_free, TRUE,
};

static const SqEditClass paste_keys_flipped_class = {
  N_("Paste Keys Flipped"), paste_describe, paste_keys_apply, paste_undo, paste_args_free, TRUE,
};

SqEdit *
sq_edit_paste_keys_new (const SqPoseSequence *keys,
                        double                time,
                        gboolean              flip)
{
  PasteArgs *a = g_new0 (PasteArgs, 1);

  log_init (&a->log);
  a->pose = sq_joint_pose_new ("", NULL);
  a->keys = sq_pose_sequence_copy (keys);
  a->time = time;
  a->flip = flip;
  return _sq_edit_new (flip ? &paste_keys_flipped_class : &paste_keys_class, a);
}

static gboolean
symmetrize_apply (SqEdit  *edit,
                  SqClip  *clip,
                  GError **error)
{
  PasteArgs *a = _sq_edit_get_params (edit);
  g_autoptr(GArray) sources = NULL;
  g_autoptr(SqJointPose) pose = NULL;
  g_autoptr(SqJointPose) flipped = NULL;
  g_autoptr(SqJointPose) targets = sq_joint_pose_new ("", NULL);

  a->log.clip = clip;

  if (!check_time (clip, a->time, error)
      || (sources = joint_indices (clip, (const char * const *) a->sources, error)) == NULL)
    return FALSE;
  pose = sq_joint_pose_capture (clip, (const gsize *) (gpointer) sources->data, sources->len, a->time, "");
  flipped = sq_joint_pose_flip (pose, clip);
  /* only the partners: a joint with none stays as it is */
  for (guint i = 0; i < flipped->entries->len; i++)
    {
      const SqPoseEntry *e = &g_array_index (flipped->entries, SqPoseEntry, i);

      if (sq_joint_pose_lookup (pose, e->joint) == NULL)
        pose_put (targets, e);
    }
  if (targets->entries->len == 0)
    return _sq_edit_invalid (error, _("No partner on the other side: the joints are in the middle or both sides are chosen"));
  return paste (edit, &a->log, clip, targets, a->time, error);
}

static const SqEditClass symmetrize_class = {
  N_("Symmetrize"), paste_describe, symmetrize_apply, paste_undo, paste_args_free, TRUE,
};

SqEdit *
sq_edit_symmetrize_new (const char * const *sources,
                        double              time)
{
  PasteArgs *a = g_new0 (PasteArgs, 1);

  log_init (&a->log);
  a->pose = sq_joint_pose_new ("", NULL);
  a->sources = g_strdupv ((char **) sources);
  a->time = time;
  return _sq_edit_new (&symmetrize_class, a);
}
