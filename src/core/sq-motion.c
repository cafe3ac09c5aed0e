/* sq-motion.c: mirror, resample, speed, trim, reverse, reduce, close the loop
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each operation first checks its parameters against the clip and refuses
 * with the reason, changing nothing. Then it journals every joint it will
 * change, the property list and the timing (sq-edit-private.h), and
 * changes the clip; undo puts the copies back, so the clip is bitwise what it
 * was. Keys an operation keeps carry their side arrays (present masks, the
 * format's own notation in `alt`, which writers use only while it still
 * gives exactly the key); keys it makes are complete and have no notation.
 */
#define G_LOG_DOMAIN "sq-motion"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "sq-convert.h"
#include "sq-error.h"
#include "sq-format.h"
#include "sq-math.h"
#include "sq-motion.h"
#include "sq-world.h"
#include "sq-units.h"
#include "sq-edit-private.h"

/* two times this close (seconds) are one */
#define TIME_EPSILON 1e-9

/* A world's mirror comes from its home (sq-world.h); a clip built in
 * memory mirrors as the common space's world does */
static const SqMirror *
mirror_of (const SqClip *clip)
{
  const SqWorldHome *home = sq_format_get_world (clip->format);

  if (home == NULL || home->mirror == NULL)
    home = sq_world_common ();
  return home->mirror (clip);
}

/* `name` with `from` replaced by `to` where the rule finds it, or NULL */
static char *
swap_side (const char       *name,
           SqMirrorPairKind  kind,
           const char       *from,
           const char       *to)
{
  gsize n = strlen (name), f = strlen (from);

  if (n <= f)
    return NULL;
  if (kind == SQ_MIRROR_INFIX)
    {
      const char *at = strstr (name, from);

      if (at == NULL)
        return NULL;
      return g_strdup_printf ("%.*s%s%s", (int) (at - name), name, to, at + f);
    }
  if (kind == SQ_MIRROR_SUFFIX)
    {
      if (strcmp (name + n - f, from) != 0)
        return NULL;
      return g_strdup_printf ("%.*s%s", (int) (n - f), name, to);
    }
  if (strncmp (name, from, f) != 0)
    return NULL;
  if (kind == SQ_MIRROR_PREFIX_UPPER && !g_ascii_isupper (name[f]))
    return NULL;
  return g_strconcat (to, name + f, NULL);
}

/* The partner of joint `index` among joints not yet paired, or -1 */
static gssize
find_partner (const SqClip    *clip,
              const SqMirror  *mirror,
              gsize            index,
              const gssize    *paired)
{
  const char *name = clip->joints[index].name;

  for (const SqMirrorPair *r = mirror->pairs; r->left != NULL; r++)
    for (int side = 0; side < 2; side++)
      {
        g_autofree char *other = swap_side (name, r->kind, side ? r->right : r->left,
                                            side ? r->left : r->right);
        gssize j = other != NULL ? sq_clip_find_joint (clip, other) : -1;

        if (j >= 0 && (gsize) j != index && (paired == NULL || paired[j] < 0))
          return j;
      }
  return -1;
}

/* partner[j] for every joint: its partner, or j itself */
static gsize *
mirror_pairs (const SqClip *clip)
{
  const SqMirror *mirror = mirror_of (clip);
  g_autofree gssize *paired = g_new (gssize, MAX (clip->n_joints, 1));
  gsize *partner = g_new (gsize, MAX (clip->n_joints, 1));

  for (gsize j = 0; j < clip->n_joints; j++)
    paired[j] = -1;
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      gssize k;

      if (paired[j] >= 0)
        continue;
      k = find_partner (clip, mirror, j, paired);
      paired[j] = k >= 0 ? k : (gssize) j;
      if (k >= 0)
        paired[k] = (gssize) j;
    }
  for (gsize j = 0; j < clip->n_joints; j++)
    partner[j] = (gsize) paired[j];
  return partner;
}

gsize
sq_motion_mirror_partner (const SqClip *clip,
                          gsize         index)
{
  g_autofree gsize *partner = NULL;

  g_return_val_if_fail (index < clip->n_joints, index);
  partner = mirror_pairs (clip);
  return partner[index];
}

double
sq_quat_angle_between (const double a[4],
                       const double b[4])
{
  double na = sqrt (a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
  double nb = sqrt (b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3]);
  double dot = 0, diff = 0, sum = 0, s;

  if (memcmp (a, b, 4 * sizeof (double)) == 0)
    return 0.0;
  if (!(na > 0) || !(nb > 0))
    return na == nb ? 0.0 : 180.0;
  for (int c = 0; c < 4; c++)
    dot += a[c] * b[c];
  s = dot < 0 ? -1.0 : 1.0;   /* q and −q: the nearer one */
  for (int c = 0; c < 4; c++)
    {
      double u = a[c] / na, v = s * b[c] / nb;

      diff += (u - v) * (u - v);
      sum += (u + v) * (u + v);
    }
  /* the angle between the unit 4-vectors is 2·atan2(|u − v|, |u + v|)
   * (exact near 0, where acos of the dot product is not); the rotation
   * between them is twice that */
  return 4.0 * atan2 (sqrt (diff), sqrt (sum)) * (180.0 / G_PI);
}

static double
distance3 (const double a[4],
           const double b[4])
{
  return sqrt ((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

/* refuses an edit: the reason in *error, FALSE */
#define invalid(error, ...) \
  (g_set_error ((error), SQ_ERROR, SQ_ERROR_INVALID_ARGUMENT, __VA_ARGS__), FALSE)

/* ---- building tracks ---------------------------------------------------- */

/* A track made key by key, with the side arrays the old one had */
static void
builder_init (SqTrack       *out,
              const SqTrack *like,
              gsize          n)
{
  memset (out, 0, sizeof *out);
  sq_track_reserve (out, MAX (n, 1));
  if (like->present != NULL)
    sq_track_ensure_present (out);
  if (like->alt != NULL)
    sq_track_ensure_alt (out);
}

/* appends key `k` of `src` as it is, with its side arrays, at `time` */
static void
builder_copy (SqTrack       *out,
              const SqTrack *src,
              gsize          k,
              double         time)
{
  SqKey key = sq_track_key (src, k);
  SqKey *dst = sq_track_append (out, time);

  memcpy (dst->v, key.v, sizeof key.v);
  if (out->present != NULL && src->present != NULL)
    out->present[out->n_keys - 1] = src->present[k];
  if (out->alt != NULL && src->alt != NULL && time == key.time)
    memcpy (&out->alt[(out->n_keys - 1) * 4], &src->alt[k * 4], 4 * sizeof (double));
}

/* appends the value of `src` sampled at `at` as a new key at `time` */
static void
builder_sample (SqTrack       *out,
                const SqTrack *src,
                SqChannel      channel,
                double         at,
                double         time)
{
  double v[4];

  sq_track_sample (src, channel, at, v);
  memcpy (sq_track_append (out, time)->v, v, sizeof v);
}

/* the built track replaces the joint's */
static void
builder_commit (SqTrack *track,
                SqTrack *built)
{
  sq_track_clear (track);
  *track = *built;
  memset (built, 0, sizeof *built);
}

/* Every joint with keys is journalled before an operation changes it */
static void
journal_joints (SqEdit *edit,
                SqClip *clip)
{
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      if (clip->joints[j].tracks[c].n_keys > 0)
        {
          _sq_edit_journal_joint (edit, clip, j);
          break;
        }
}

/* the first and last key time of the clip; FALSE when it has no keys */
static gboolean
key_span (const SqClip *clip,
          double       *first,
          double       *last)
{
  *first = INFINITY;
  *last = -INFINITY;
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *t = &clip->joints[j].tracks[c];

        if (t->n_keys == 0)
          continue;
        *first = MIN (*first, sq_track_time (t, 0));
        *last = MAX (*last, sq_track_time (t, t->n_keys - 1));
      }
  return isfinite (*first) && isfinite (*last);
}

/* A time field of the clip (loop points, ease) mapped by `map` */
static void
map_time_field (SqClip     *clip,
                const char *key,
                double    (*map) (double t, const double *p),
                const double *p)
{
  GVariant *v = sq_props_get (clip->extra, key);

  if (v == NULL || !g_variant_is_of_type (v, G_VARIANT_TYPE_DOUBLE))
    return;
  sq_props_set (clip->extra, key, g_variant_new_double (map (g_variant_get_double (v), p)));
}

/* Every world's loop points (sq-world.h) mapped by `map`, and its
 * durations too when `durations` */
static void
map_loop_fields (SqClip       *clip,
                 double      (*map) (double t, const double *p),
                 const double *p,
                 gboolean      durations)
{
  gsize n;
  const SqWorldHome * const *worlds = sq_worlds (&n);

  for (gsize w = 0; w < n; w++)
    {
      if (worlds[w]->loop_in_key != NULL)
        {
          map_time_field (clip, worlds[w]->loop_in_key, map, p);
          map_time_field (clip, worlds[w]->loop_out_key, map, p);
        }
      for (const char * const *k = worlds[w]->duration_keys; durations && k != NULL && *k != NULL; k++)
        map_time_field (clip, *k, map, p);
    }
}

/* ---- mirror ------------------------------------------------------------- */

/* e·q (before) or q·e (after), e the unit pure quaternion of `axis` (0 x,
 * 1 y, 2 z): a signed permutation of q's components, so exact */
static void
times_axis (double   q[4],
            int      axis,
            gboolean before)
{
  static const int perm[2][3][4] = {
    { { 1, 0, 3, 2 }, { 2, 3, 0, 1 }, { 3, 2, 1, 0 } },   /* q·e */
    { { 1, 0, 3, 2 }, { 2, 3, 0, 1 }, { 3, 2, 1, 0 } },   /* e·q */
  };
  static const double sign[2][3][4] = {
    { { -1, 1, 1, -1 }, { -1, -1, 1, 1 }, { -1, 1, -1, 1 } },
    { { -1, 1, -1, 1 }, { -1, 1, 1, -1 }, { -1, -1, 1, 1 } },
  };
  double r[4];

  for (int i = 0; i < 4; i++)
    r[i] = sign[before][axis][i] * q[perm[before][axis][i]];
  memcpy (q, r, sizeof r);
}

/* A rotation key reflected where the sideways axis of the frame it turns
 * from (`from`: the parent's) and of the one it turns to (`to`: the
 * joint's own) differ: −(e_from·q·e_to) for column-vector rotations, the
 * other way round for their conjugates (L·q·L' for the two reflections
 * L = −R(e, 180°)) */
static void
reflect_between_frames (double   q[4],
                        int      from,
                        int      to,
                        gboolean conjugate)
{
  times_axis (q, conjugate ? from : to, FALSE);
  times_axis (q, conjugate ? to : from, TRUE);
  for (int i = 0; i < 4; i++)
    q[i] = -q[i];
}

/* Joint `joint`'s keys reflected: translations in its parent's frame,
 * whose sideways axis is `from`; rotations from that frame into its own,
 * whose sideways axis is `to` */
static void
reflect_track (SqTrack        *t,
               SqChannel       channel,
               int             from,
               int             to,
               gboolean        conjugate)
{
  SqKey *keys;

  if (t->n_keys == 0 || channel == SQ_CHANNEL_SCALE)
    return;
  keys = sq_track_unpack (t);
  for (gsize k = 0; k < t->n_keys; k++)
    {
      if (channel == SQ_CHANNEL_TRANSLATION)
        keys[k].v[from] = -keys[k].v[from];
      else if (from != to)
        reflect_between_frames (keys[k].v, from, to, conjugate);
      else
        for (int c = 0; c < 3; c++)
          if (c != from)
            keys[k].v[1 + c] = -keys[k].v[1 + c];
    }
}

/* A joint's rotation keys reflected through the file's Euler angles (BVH
 * keeps them in SqTrack.alt once unpacked, in the order of the joint's
 * "channels"): an
 * elementary rotation about the lateral axis keeps its angle, one about
 * another axis turns the other way (M·R(a, θ)·M = R(M·a, −θ) for the
 * reflection M, M·a = −a only for the lateral axis). A key that its angles
 * gave exactly becomes the rotation of the reflected angles (equal to the
 * reflected key but perhaps for the sign of a zero), so writers keep
 * using the angles and mirroring twice gives the key and its angles back
 * bit for bit. Returns FALSE when the track has no such angles (its keys
 * are then reflected as they are). */
static gboolean
reflect_euler_track (SqJoint *joint,
                     int      lateral)
{
  SqTrack *t = &joint->tracks[SQ_CHANNEL_ROTATION];
  GVariant *v = sq_props_get (joint->extra, "channels");
  gboolean negate[3] = { FALSE, FALSE, FALSE };
  int axes[3];
  guint r = 0;

  if (t->n_keys == 0 || v == NULL || !g_variant_is_of_type (v, G_VARIANT_TYPE_STRING_ARRAY))
    return FALSE;
  /* a track read from a BVH file keeps its angles as its packed records;
   * unpacked, they are in alt */
  sq_track_unpack (t);
  if (t->alt == NULL)
    return FALSE;
  for (gsize i = 0; i < g_variant_n_children (v); i++)
    {
      const char *name;
      int axis;

      g_variant_get_child (v, i, "&s", &name);
      if (name[0] == '\0' || g_ascii_strcasecmp (name + 1, "rotation") != 0)
        continue;
      axis = g_ascii_toupper (name[0]) - 'X';
      if (axis < 0 || axis > 2 || r == 3)
        return FALSE;
      axes[r] = axis;
      negate[r++] = axis != lateral;
    }
  if (r == 0)
    return FALSE;
  for (gsize k = 0; k < t->n_keys; k++)
    {
      double *alt = &t->alt[k * 4], *key = t->keys[k].v, q[4], mirrored[4];
      gboolean exact;

      sq_euler_to_quat_n (alt, 4, axes, r, q, 4, 1);
      exact = memcmp (q, key, sizeof q) == 0;
      mirrored[0] = key[0];
      for (int c = 0; c < 3; c++)
        mirrored[1 + c] = c == lateral ? key[1 + c] : -key[1 + c];
      for (guint c = 0; c < r; c++)
        if (negate[c])
          alt[c] = -alt[c];
      sq_euler_to_quat_n (alt, 4, axes, r, q, 4, 1);
      for (int c = 0; c < 4 && exact; c++)
        exact = q[c] == mirrored[c];
      memcpy (key, exact ? q : mirrored, sizeof q);
    }
  return TRUE;
}

static gboolean
apply_mirror (SqEdit *edit,
              SqClip *clip)
{
  const SqMirror *mirror = mirror_of (clip);
  g_autofree gsize *partner = mirror_pairs (clip);
  g_autofree gboolean *done = g_new0 (gboolean, MAX (clip->n_joints, 1));   /* rotations reflected */

  journal_joints (edit, clip);
  /* rotations with the file's angles, by the joint's own channels, before
   * they move */
  if (mirror->euler_alt)
    for (gsize j = 0; j < clip->n_joints; j++)
      done[partner[j]] = reflect_euler_track (&clip->joints[j], mirror->lateral);
  for (gsize j = 0; j < clip->n_joints; j++)
    if (partner[j] > j)
      {
        SqJoint *a = &clip->joints[j], *b = &clip->joints[partner[j]];

        /* both were journalled when either has keys */
        _sq_edit_journal_joint (edit, clip, j);
        _sq_edit_journal_joint (edit, clip, partner[j]);
        for (guint c = 0; c < SQ_N_CHANNELS; c++)
          {
            SqTrack tmp = a->tracks[c];
            a->tracks[c] = b->tracks[c];
            b->tracks[c] = tmp;
          }
      }
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      int from = mirror->lateral, to = mirror->lateral;

      if (mirror->frame_axes != NULL)
        mirror->frame_axes (clip, j, &from, &to);
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        if (!(c == SQ_CHANNEL_ROTATION && done[j]))
          reflect_track (&clip->joints[j].tracks[c], c, from, to, mirror->conjugate);
    }
  return TRUE;
}

/* ---- the frame grid (resample, speed, trim) ------------------------------
 * A format whose keys live on frames (BVH and .x at their own rate, binary
 * SEQ and the Sims' files at 1/30 s) gets its keys, its start and its end
 * on that grid from these edits, so that saving it rounds nothing; what the
 * grid moves is said in the edit's report (a note, not a loss). */

/* Steps per second of the grid the clip's format keeps its keys on once
 * its frame rate is `fps`; 0: keys anywhere, or on steps much finer than
 * frames (text SEQ's milliseconds, a .anim's 1/65535 of the duration) */
static double
frame_grid (const SqClip *clip,
            double        fps)
{
  const SqSpace *space = clip->format != NULL ? clip->format->space : NULL;

  if (space == NULL)
    return 0;
  if (space->time_grid < 0)
    return isfinite (fps) && fps > 0 ? fps : 0;
  if (space->time_grid > 0 && space->time_grid <= 120)
    return space->time_grid;
  return 0;
}

/* `t` on the nearest step of `grid` */
static double
on_grid (double t,
         double grid)
{
  return floor (t * grid + 0.5) / grid;
}

/* "frame 20 (2.000 s)": a time on the grid, as the format numbers it */
static char *
grid_place (const SqClip *clip,
            double        t,
            double        grid)
{
  g_autofree char *frame = sq_format_frame (floor (t * grid + 0.5) + (double) clip->frame_base);
  g_autofree char *time = sq_format_seconds (t);

  /* TRANSLATORS: where a clip ends or a cut falls: "frame 20 (2.000 s)" */
  return g_strdup_printf (_("frame %s (%s)"), frame, time);
}

/* appends one sentence to the edit's report */
static void
report_add (GString    *report,
            const char *sentence)
{
  if (report->len > 0)
    g_string_append (report, " ");
  g_string_append (report, sentence);
}

/* The report becomes the edit's (or none, when empty) */
static void
report_commit (SqEdit  *edit,
               GString *report)
{
  if (report->len > 0)
    _sq_edit_set_report (edit, g_string_free (report, FALSE));
  else
    {
      _sq_edit_set_report (edit, NULL);
      g_string_free (report, TRUE);
    }
}

/* The end of a clip moved onto the grid: which way, and what it means */
static void
report_end (GString      *report,
            const SqClip *clip,
            double        was,
            double        now,
            double        grid)
{
  g_autofree char *place = NULL, *gap = NULL, *text = NULL;

  if (fabs (was - now) <= TIME_EPSILON * MAX (1.0, was))
    return;
  place = grid_place (clip, now, grid);
  gap = sq_format_seconds (fabs (was - now));
  if (now < was)
    /* TRANSLATORS: the end moved down onto the format's frame grid */
    text = g_strdup_printf (_("The clip now ends on the frame grid at %s, the nearest frame: the last %s, "
                              "less than half a frame, is cut."), place, gap);
  else
    /* TRANSLATORS: the end moved up onto the format's frame grid */
    text = g_strdup_printf (_("The clip now ends on the frame grid at %s, the nearest frame: "
                              "the last pose is held %s longer to reach it."), place, gap);
  report_add (report, text);
}

/* Moves every key of `t` to the nearest step of `grid`; of the keys that
 * land on one step the nearest to it stays. Counts the keys moved and
 * dropped. */
static void
snap_track (SqTrack *t,
            double   grid,
            guint   *moved,
            guint   *dropped)
{
  SqTrack built;
  gsize k = 0;
  gboolean on = TRUE;

  /* a track on the grid stays as it is, its keys' notation kept */
  for (gsize i = 0; i < t->n_keys && on; i++)
    {
      double f = sq_track_time (t, i) * grid;

      on = fabs (f - floor (f + 0.5)) <= 1e-6
           && (i == 0 || floor (f + 0.5) != floor (sq_track_time (t, i - 1) * grid + 0.5));
    }
  if (on)
    return;
  builder_init (&built, t, t->n_keys);
  while (k < t->n_keys)
    {
      double step = floor (sq_track_time (t, k) * grid + 0.5);
      double best_d = fabs (sq_track_time (t, k) * grid - step);
      gsize best = k, e = k + 1;

      for (; e < t->n_keys && floor (sq_track_time (t, e) * grid + 0.5) == step; e++)
        if (fabs (sq_track_time (t, e) * grid - step) < best_d)
          {
            best = e;
            best_d = fabs (sq_track_time (t, e) * grid - step);
          }
      if (best_d > 1e-6)
        (*moved)++;
      *dropped += (guint) (e - k - 1);
      builder_copy (&built, t, best, step / grid);
      k = e;
    }
  builder_commit (t, &built);
}

/* Every key of the clip on the grid (snap_track), reported */
static void
snap_clip (SqClip  *clip,
           double   grid,
           GString *report)
{
  guint moved = 0, dropped = 0;
  g_autofree char *rate = sq_format_rate (grid);

  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      if (clip->joints[j].tracks[c].n_keys > 0)
        snap_track (&clip->joints[j].tracks[c], grid, &moved, &dropped);
  if (moved > 0)
    {
      g_autofree char *text = NULL;

      /* TRANSLATORS: %s is a format's name, then its frame rate */
      text = g_strdup_printf (_("%s keeps keys on frames (%s a second): %u keys moved to the nearest frame."),
                              sq_format_get_name (clip->format), rate, moved);
      report_add (report, text);
    }
  if (dropped > 0)
    {
      g_autofree char *text = NULL;

      text = g_strdup_printf (_("%u keys fell on a frame with another key and were left out (the one nearest "
                                "the frame stays)."), dropped);
      report_add (report, text);
    }
}

/* ---- resample ----------------------------------------------------------- */

/* One track's keys on the grid f0..f1 at `fps`, each time on the format's
 * `grid` (0: none), the last at `last` when the clip has no grid */
static void
resample_track (SqTrack  *t,
                SqChannel c,
                double    fps,
                double    grid,
                double    f0,
                double    f1,
                double    first,
                double    last,
                gsize     n)
{
  SqTrack built;

  builder_init (&built, t, n);
  if (grid > 0)
    for (double f = f0; f <= f1; f++)
      {
        double time = on_grid (f / fps, grid);

        builder_sample (&built, t, c, time, time);
      }
  else
    {
      for (gsize f = 0;; f++)
        {
          double time = first + (double) f / fps;

          if (time >= last - TIME_EPSILON)
            break;
          builder_sample (&built, t, c, time, time);
        }
      builder_sample (&built, t, c, last, last);
    }
  builder_commit (t, &built);
}

static gboolean
apply_resample (SqEdit  *edit,
                SqClip  *clip,
                double   fps,
                GError **error)
{
  /* a format whose frame rate is a field plays the new grid as frames */
  /* a format whose frame rate is a field plays the new grid as frames
   * (not one counting in ticks, .x's) */
  gboolean takes_rate = clip->format == NULL || ((clip->format->flags & SQ_FORMAT_FRAME_RATE)
                                                 && !(clip->format->flags & SQ_FORMAT_TICKS));
  double first, last, n, grid, f0 = 0, f1 = 0;
  GString *report;

  if (!isfinite (fps) || !(fps > 0))
    return invalid (error, _("The frame rate must be a number of frames per second above 0, not %g"), fps);
  if (!key_span (clip, &first, &last))
    return invalid (error, _("The clip has no keys to resample"));
  grid = frame_grid (clip, takes_rate ? fps : clip->fps);
  if (grid > 0 && fps > grid * (1 + 1e-9))
    {
      g_autofree char *rate = sq_format_rate (grid);

      return invalid (error, _("%s keeps keys on frames, %s a second: it cannot hold %g frames per second"),
                      sq_format_get_name (clip->format), rate, fps);
    }
  if (grid > 0)
    {
      /* from the frame at or before the first key (nothing cut there) to
       * the frame nearest the last */
      f0 = floor (first * fps + 1e-6);
      f1 = MAX (floor (last * fps + 0.5), f0 + 1);
      n = f1 - f0 + 1;
    }
  else
    n = floor ((last - first) * fps + TIME_EPSILON) + 2;
  if (!(n <= SQ_MOTION_MAX_KEYS))
    return invalid (error, _("%g frames per second over %g s makes more than %d keys a track"),
                    fps, last - first, SQ_MOTION_MAX_KEYS);
  {
    gsize tracks = 0;

    for (gsize j = 0; j < clip->n_joints; j++)
      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        tracks += clip->joints[j].tracks[c].n_keys >= 2;
    if (!(n * (double) tracks <= SQ_MOTION_MAX_CLIP_KEYS))
      return invalid (error, _("%g frames per second over %g s makes more than %d keys in all"),
                      fps, last - first, SQ_MOTION_MAX_CLIP_KEYS);
  }

  journal_joints (edit, clip);
  _sq_edit_journal_timing (edit, clip);
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      if (clip->joints[j].tracks[c].n_keys >= 2)
        resample_track (&clip->joints[j].tracks[c], c, fps, grid, f0, f1, first, last, (gsize) n);
  if (takes_rate)
    {
      _sq_edit_journal_extra (edit, clip);
      clip->fps = fps;
      if (sq_props_get (clip->extra, "frame-time") != NULL)
        sq_props_set (clip->extra, "frame-time", g_variant_new_double (1.0 / fps));
    }
  report = g_string_new (NULL);
  if (grid > 0)
    {
      double end = on_grid (f1 / fps, grid);

      if (fabs (grid / fps - floor (grid / fps + 0.5)) > 1e-9)
        {
          g_autofree char *rate = sq_format_rate (grid);
          g_autofree char *text = NULL;

          /* TRANSLATORS: a format's name, its frame rate, the asked rate */
          text = g_strdup_printf (_("%s keeps keys on frames (%s a second): at %g a second the keys are on the "
                                    "nearest of them, not evenly apart."), sq_format_get_name (clip->format), rate, fps);
          report_add (report, text);
        }
      report_end (report, clip, last, end, grid);
      /* the clip lasts to its new last frame (or its old end, on the grid,
       * when that came after the last key) */
      clip->duration = clip->duration > last + TIME_EPSILON ? MAX (end, on_grid (clip->duration, grid)) : end;
    }
  report_commit (edit, report);
  return TRUE;
}

/* ---- speed -------------------------------------------------------------- */

static double
map_speed (double t, const double *p)
{
  return t / p[0];
}

static gboolean
apply_speed (SqEdit  *edit,
             SqClip  *clip,
             double   factor,
             GError **error)
{
  double grid, was_end;
  GString *report;

  if (!isfinite (factor) || !(factor > 0))
    return invalid (error, _("The speed factor must be a number above 0, not %g"), factor);
  if (factor == 1)
    return invalid (error, _("A factor of 1 plays at the same speed: it changes nothing"));
  /* keys must stay apart */
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *t = &clip->joints[j].tracks[c];

        for (gsize k = 1; k < t->n_keys; k++)
          if (!(sq_track_time (t, k - 1) / factor < sq_track_time (t, k) / factor))
            return invalid (error, _("At %g times the speed, keys of joint “%s” fall at the same time"),
                            factor, clip->joints[j].name);
      }

  journal_joints (edit, clip);
  _sq_edit_journal_timing (edit, clip);
  _sq_edit_journal_extra (edit, clip);
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        SqTrack *t = &clip->joints[j].tracks[c];
        SqKey *keys;

        if (t->n_keys == 0)
          continue;
        keys = sq_track_unpack (t);
        for (gsize k = 0; k < t->n_keys; k++)
          keys[k].time /= factor;
      }
  clip->duration /= factor;
  /* where the frame rate is the clip's own (a field counted in frames,
   * BVH's; built in memory), it follows: the keys stay on their frames,
   * nothing is resampled */
  if (clip->format == NULL || ((clip->format->flags & SQ_FORMAT_FRAME_RATE)
                               && !(clip->format->flags & SQ_FORMAT_TICKS)))
    {
      GVariant *ft = sq_props_get (clip->extra, "frame-time");
      double fps = clip->fps * factor;

      if (isfinite (fps) && 1.0 / fps >= 0.001 && 1.0 / fps <= 10.0)
        {
          clip->fps = fps;
          if (ft != NULL && g_variant_is_of_type (ft, G_VARIANT_TYPE_DOUBLE))
            sq_props_set (clip->extra, "frame-time", g_variant_new_double (g_variant_get_double (ft) / factor));
        }
    }
  map_loop_fields (clip, map_speed, &factor, TRUE);
  /* a format of fixed frames (binary SEQ, the Sims, .x ticks) keeps them */
  report = g_string_new (NULL);
  if ((grid = frame_grid (clip, clip->fps)) > 0)
    {
      snap_clip (clip, grid, report);
      was_end = clip->duration;
      clip->duration = on_grid (clip->duration, grid);
      report_end (report, clip, was_end, clip->duration, grid);
    }
  report_commit (edit, report);
  return TRUE;
}

/* ---- trim --------------------------------------------------------------- */

static double
map_trim (double t, const double *p)
{
  return CLAMP (t - p[0], 0.0, p[1] - p[0]);
}

/* The cuts on the clip's frame grid (nearest frames, the end not past the
 * clip's), said in the report when they move; FALSE when no frame is left
 * between them */
static gboolean
trim_on_grid (const SqClip *clip,
              double       *start,
              double       *end,
              GString      *report,
              GError      **error)
{
  double grid = frame_grid (clip, clip->fps);
  double s, e;

  if (grid <= 0)
    return TRUE;
  s = on_grid (*start, grid);
  e = on_grid (*end, grid);
  if (e > clip->duration + TIME_EPSILON)
    e = floor (*end * grid + 1e-6) / grid;
  if (!(s < e))
    return invalid (error, _("The range %g–%g s holds no whole frame of the clip's frame grid"), *start, *end);
  if (fabs (s - *start) > TIME_EPSILON || fabs (e - *end) > TIME_EPSILON)
    {
      g_autofree char *from = grid_place (clip, s, grid), *to = grid_place (clip, e, grid);
      g_autofree char *text = NULL;

      /* TRANSLATORS: the cuts of a trim, moved to the nearest frames */
      text = g_strdup_printf (_("The cuts are on the nearest frames: the clip keeps %s to %s."), from, to);
      report_add (report, text);
    }
  *start = s;
  *end = e;
  return TRUE;
}

static gboolean
apply_trim (SqEdit  *edit,
            SqClip  *clip,
            double   start,
            double   end,
            GError **error)
{
  double range[2];
  GString *report;

  if (!isfinite (start) || !isfinite (end) || start < 0 || end > clip->duration + TIME_EPSILON)
    return invalid (error, _("The range %g–%g s is not within the clip (0–%g s)"), start, end, clip->duration);
  if (!(start < end))
    return invalid (error, _("The range %g–%g s is empty: the start must come before the end"), start, end);
  report = g_string_new (NULL);
  if (!trim_on_grid (clip, &start, &end, report, error))
    {
      g_string_free (report, TRUE);
      return FALSE;
    }
  range[0] = start;
  range[1] = end;

  journal_joints (edit, clip);
  _sq_edit_journal_timing (edit, clip);
  _sq_edit_journal_extra (edit, clip);
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        SqTrack *t = &clip->joints[j].tracks[c];
        SqTrack built;
        gsize from, to;

        if (t->n_keys == 0)
          continue;
        if (t->n_keys == 1)
          {
            builder_init (&built, t, 1);
            builder_copy (&built, t, 0, 0.0);
            builder_commit (t, &built);
            continue;
          }
        from = sq_track_lower_bound (t, start + TIME_EPSILON, 0, t->n_keys);
        to = sq_track_lower_bound (t, end - TIME_EPSILON, from, t->n_keys);
        builder_init (&built, t, to - from + 2);
        builder_sample (&built, t, c, start, 0.0);
        for (gsize k = from; k < to; k++)
          builder_copy (&built, t, k, sq_track_time (t, k) - start);
        builder_sample (&built, t, c, end, end - start);
        builder_commit (t, &built);
      }
  clip->duration = end - start;
  map_loop_fields (clip, map_trim, range, FALSE);
  report_commit (edit, report);
  return TRUE;
}

/* ---- reverse ------------------------------------------------------------ */

static double
map_reverse (double t, const double *p)
{
  return MAX (p[0] - t, 0.0);
}

/* A world's loop played backwards: its ends swap (reversed in `d` s) */
static void
swap_loop_ends (SqClip            *clip,
                const SqWorldHome *world,
                double             d)
{
  GVariant *in = sq_props_get (clip->extra, world->loop_in_key);
  GVariant *out = sq_props_get (clip->extra, world->loop_out_key);
  double i, o;

  if (in == NULL || out == NULL || !g_variant_is_of_type (in, G_VARIANT_TYPE_DOUBLE)
      || !g_variant_is_of_type (out, G_VARIANT_TYPE_DOUBLE))
    return;
  i = g_variant_get_double (in);
  o = g_variant_get_double (out);
  sq_props_set (clip->extra, world->loop_in_key, g_variant_new_double (map_reverse (o, &d)));
  sq_props_set (clip->extra, world->loop_out_key, g_variant_new_double (map_reverse (i, &d)));
}

static void
reverse_track (SqTrack *t,
               double   d)
{
  SqKey *keys = sq_track_unpack (t);
  gsize n = t->n_keys;

  for (gsize a = 0, b = n - 1; a < b; a++, b--)
    {
      SqKey k = keys[a];
      keys[a] = keys[b];
      keys[b] = k;
      if (t->present != NULL)
        {
          guint8 p = t->present[a];
          t->present[a] = t->present[b];
          t->present[b] = p;
        }
      if (t->alt != NULL)
        {
          double alt[4];
          memcpy (alt, &t->alt[a * 4], sizeof alt);
          memcpy (&t->alt[a * 4], &t->alt[b * 4], sizeof alt);
          memcpy (&t->alt[b * 4], alt, sizeof alt);
        }
    }
  for (gsize k = 0; k < n; k++)
    keys[k].time = d - keys[k].time;
}

static gboolean
apply_reverse (SqEdit  *edit,
               SqClip  *clip,
               GError **error)
{
  gsize n_worlds;
  const SqWorldHome * const *worlds = sq_worlds (&n_worlds);
  double first, last, d;

  if (!key_span (clip, &first, &last))
    return invalid (error, _("The clip has no keys to reverse"));
  d = MAX (clip->duration, last);
  if (first < 0)
    return invalid (error, _("A key lies before the start (at %g s); it has no place in the reversed clip"), first);

  journal_joints (edit, clip);
  _sq_edit_journal_extra (edit, clip);
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      if (clip->joints[j].tracks[c].n_keys > 0)
        reverse_track (&clip->joints[j].tracks[c], d);
  /* the loop plays the same stretch backwards: its ends swap */
  for (gsize w = 0; w < n_worlds; w++)
    if (worlds[w]->loop_in_key != NULL)
      swap_loop_ends (clip, worlds[w], d);
  return TRUE;
}

/* ---- reduce ------------------------------------------------------------- */

/* TRUE when the line from key a to key b stays within the bound at every
 * key between them */
static gboolean
segment_fits (const SqKey *keys,
              gsize        a,
              gsize        b,
              SqChannel    channel,
              double       bound)
{
  for (gsize k = a + 1; k < b; k++)
    {
      double f = (keys[k].time - keys[a].time) / (keys[b].time - keys[a].time);
      double v[4];

      if (channel == SQ_CHANNEL_ROTATION)
        {
          sq_quat_slerp (keys[a].v, keys[b].v, f, v);
          if (!(sq_quat_angle_between (v, keys[k].v) <= bound))
            return FALSE;
        }
      else
        {
          for (int c = 0; c < 4; c++)
            v[c] = keys[a].v[c] + (keys[b].v[c] - keys[a].v[c]) * f;
          if (!(distance3 (v, keys[k].v) <= bound))
            return FALSE;
        }
    }
  return TRUE;
}

/* From each kept key, a far next key whose line fits: the reach doubles
 * while it fits, then a binary search between the last fit and the first
 * miss (every accepted line is checked at every key it spans, so the bound
 * holds; a long still stretch costs n log n, not n²) */
static void
reduce_track (SqTrack  *t,
              SqChannel channel,
              double    bound)
{
  g_autofree SqKey *tmp = NULL;
  const SqKey *keys = sq_track_peek (t, &tmp);
  g_autoptr(GArray) kept = g_array_new (FALSE, FALSE, sizeof (gsize));
  SqTrack built;
  gsize a = 0, n = t->n_keys;

  g_array_append_val (kept, a);
  while (a + 1 < n)
    {
      gsize lo = a + 1, hi, step = 1;

      while (lo + step < n && segment_fits (keys, a, lo + step, channel, bound))
        {
          lo += step;
          step *= 2;
        }
      hi = MIN (lo + step, n);   /* does not fit, or past the end */
      while (hi - lo > 1)
        {
          gsize mid = lo + (hi - lo) / 2;

          if (segment_fits (keys, a, mid, channel, bound))
            lo = mid;
          else
            hi = mid;
        }
      g_array_append_val (kept, lo);
      a = lo;
    }
  if (kept->len == t->n_keys)
    return;
  builder_init (&built, t, kept->len);
  for (guint i = 0; i < kept->len; i++)
    {
      gsize k = g_array_index (kept, gsize, i);
      builder_copy (&built, t, k, keys[k].time);
    }
  builder_commit (t, &built);
}

static gboolean
apply_reduce (SqEdit  *edit,
              SqClip  *clip,
              double   degrees,
              double   distance,
              GError **error)
{
  gsize before, after;

  if (!isfinite (degrees) || degrees < 0)
    return invalid (error, _("The rotation tolerance must be a number of degrees ≥ 0, not %g"), degrees);
  if (!isfinite (distance) || distance < 0)
    return invalid (error, _("The translation tolerance must be a distance ≥ 0, not %g"), distance);

  before = sq_clip_count_keys (clip);
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        SqTrack *t = &clip->joints[j].tracks[c];
        gsize n = t->n_keys;

        if (n < 3)
          continue;
        /* journal only what changes; a journalled joint is copied once */
        {
          SqTrack probe;

          sq_track_copy (&probe, t);
          reduce_track (&probe, c, c == SQ_CHANNEL_ROTATION ? degrees : distance);
          if (probe.n_keys != n)
            {
              _sq_edit_journal_joint (edit, clip, j);
              builder_commit (t, &probe);
            }
          else
            sq_track_clear (&probe);
        }
      }
  after = sq_clip_count_keys (clip);
  _sq_edit_set_report (edit, g_strdup_printf (_("%zu keys before, %zu after"), before, after));
  return TRUE;
}

/* ---- close the loop ----------------------------------------------------- */

/* The loop of the first world whose loop the clip has on (sq-world.h);
 * `in` and `out` stay as they are when none */
static void
clip_loop (const SqClip *clip,
           double       *in,
           double       *out)
{
  gsize n;
  const SqWorldHome * const *worlds = sq_worlds (&n);

  for (gsize w = 0; w < n; w++)
    if (worlds[w]->loop_key != NULL && sq_props_get_int (clip->extra, worlds[w]->loop_key, 0) != 0)
      {
        *in = sq_props_get_double (clip->extra, worlds[w]->loop_in_key, *in);
        *out = sq_props_get_double (clip->extra, worlds[w]->loop_out_key, *out);
        return;
      }
}

static gboolean
apply_close_loop (SqEdit  *edit,
                  SqClip  *clip,
                  GError **error)
{
  double in = 0.0, out = clip->duration;

  clip_loop (clip, &in, &out);
  if (!isfinite (in) || !isfinite (out) || !(out > in))
    return invalid (error, _("The loop from %g s to %g s has no length to close"), in, out);

  journal_joints (edit, clip);
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        SqTrack *t = &clip->joints[j].tracks[c];
        double v[4];
        gsize k;

        if (t->n_keys < 2)
          continue;   /* one key holds still: nothing to close */
        sq_track_sample (t, c, in, v);
        k = sq_track_lower_bound (t, out - TIME_EPSILON, 0, t->n_keys);
        if (k >= t->n_keys || sq_track_time (t, k) > out + TIME_EPSILON)
          k = sq_track_insert (t, out);
        sq_track_unpack (t);
        memcpy (t->keys[k].v, v, sizeof v);
        if (t->present != NULL)
          t->present[k] = SQ_PRESENT_ALL;
        if (t->alt != NULL)
          for (int i = 0; i < 4; i++)
            t->alt[k * 4 + i] = NAN;
      }
  return TRUE;
}

/* ---- the edits: one class each, with up to two numbers ------------------ */

typedef struct
{
  double p[2];
} MotionArgs;

static SqEdit *
motion_edit_new (const SqEditClass *klass,
                 double             a,
                 double             b)
{
  MotionArgs *args = g_new0 (MotionArgs, 1);

  args->p[0] = a;
  args->p[1] = b;
  return _sq_edit_new (klass, args);
}

static const double *
motion_params (const SqEdit *edit)
{
  return ((const MotionArgs *) _sq_edit_get_params (edit))->p;
}

static gboolean
mirror_apply (SqEdit  *edit,
              SqClip  *clip,
              GError **error)
{
  return apply_mirror (edit, clip);
}

static char *
mirror_describe (const SqEdit *edit)
{
  return g_strdup (_("Mirror left and right"));
}

static const SqEditClass mirror_class = {
  N_("Mirror"), mirror_describe, mirror_apply, NULL, NULL,
};

SqEdit *
sq_edit_mirror_new (void)
{
  return motion_edit_new (&mirror_class, 0, 0);
}

static gboolean
resample_apply (SqEdit  *edit,
                SqClip  *clip,
                GError **error)
{
  return apply_resample (edit, clip, motion_params (edit)[0], error);
}

static char *
resample_describe (const SqEdit *edit)
{
  return g_strdup_printf (_("Resample at %g frames per second"), motion_params (edit)[0]);
}

static const SqEditClass resample_class = {
  N_("Resample"), resample_describe, resample_apply, NULL, NULL,
};

SqEdit *
sq_edit_resample_new (double fps)
{
  return motion_edit_new (&resample_class, fps, 0);
}

static gboolean
speed_apply (SqEdit  *edit,
             SqClip  *clip,
             GError **error)
{
  return apply_speed (edit, clip, motion_params (edit)[0], error);
}

static char *
speed_describe (const SqEdit *edit)
{
  return g_strdup_printf (_("Play at %g times the speed"), motion_params (edit)[0]);
}

static const SqEditClass speed_class = {
  N_("Change Speed"), speed_describe, speed_apply, NULL, NULL,
};

SqEdit *
sq_edit_speed_new (double factor)
{
  return motion_edit_new (&speed_class, factor, 0);
}

static gboolean
trim_apply (SqEdit  *edit,
            SqClip  *clip,
            GError **error)
{
  return apply_trim (edit, clip, motion_params (edit)[0], motion_params (edit)[1], error);
}

static char *
trim_describe (const SqEdit *edit)
{
  return g_strdup_printf (_("Keep %g s to %g s"), motion_params (edit)[0], motion_params (edit)[1]);
}

static const SqEditClass trim_class = {
  N_("Trim"), trim_describe, trim_apply, NULL, NULL,
};

SqEdit *
sq_edit_trim_new (double start,
                  double end)
{
  return motion_edit_new (&trim_class, start, end);
}

static char *
reverse_describe (const SqEdit *edit)
{
  return g_strdup (_("Play backwards"));
}

static const SqEditClass reverse_class = {
  N_("Reverse"), reverse_describe, apply_reverse, NULL, NULL,
};

SqEdit *
sq_edit_reverse_new (void)
{
  return motion_edit_new (&reverse_class, 0, 0);
}

static gboolean
reduce_apply (SqEdit  *edit,
              SqClip  *clip,
              GError **error)
{
  return apply_reduce (edit, clip, motion_params (edit)[0], motion_params (edit)[1], error);
}

static char *
reduce_describe (const SqEdit *edit)
{
  return g_strdup_printf (_("Reduce keys within %g° and %g"), motion_params (edit)[0], motion_params (edit)[1]);
}

static const SqEditClass reduce_class = {
  N_("Reduce Keys"), reduce_describe, reduce_apply, NULL, NULL,
};

SqEdit *
sq_edit_reduce_new (double degrees,
                    double distance)
{
  return motion_edit_new (&reduce_class, degrees, distance);
}

static char *
close_loop_describe (const SqEdit *edit)
{
  return g_strdup (_("End on the first pose"));
}

static const SqEditClass close_loop_class = {
  N_("Close the Loop"), close_loop_describe, apply_close_loop, NULL, NULL,
};

SqEdit *
sq_edit_close_loop_new (void)
{
  return motion_edit_new (&close_loop_class, 0, 0);
}
