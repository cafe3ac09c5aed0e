/* sq-retarget.c: a clip's motion moved from one rest skeleton onto another
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * World rotations are column-vector quaternions on Second Life's axes. A
 * joint's world rotation W is its parent's times its local rotation (its
 * key: in most worlds the turn from the rest offsets, the rest rotation
 * being the identity; in the Sims' a whole rotation, rest included). Its
 * turn in the world is D = W · W_rest⁻¹. For a matched limb (a joint and
 * the joint its bone points at, by concept), C maps the limb's direction
 * in Second Life's T-pose onto its direction in a rest (the shortest
 * turn); the target joint's turn is the source joint's times
 * A = C_source · C_target⁻¹, so its limb points where the source's does,
 * and A composes to nothing over a round trip through any worlds.
 */
#define G_LOG_DOMAIN "sq-retarget"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sq-convert.h"
#include "sq-joint-map.h"
#include "sq-math.h"
#include "sq-private.h"
#include "sq-retarget.h"
#include "sq-world.h"

/* ---- rests ---------------------------------------------------------------- */

/* The joints of `rest`, parents first (where parents loop, the joint that
 * closes the loop comes first and stands as a root) */
static void
parents_first (const SqRest *rest,
               gsize        *order)
{
  gsize n = rest->n, w = 0;
  g_autofree guint8 *state = g_new0 (guint8, MAX (n, 1));
  g_autofree gsize *chain = g_new (gsize, MAX (n, 1));

  for (gsize j = 0; j < n; j++)
    {
      gsize len = 0;

      for (gint32 p = (gint32) j; p >= 0 && (gsize) p < n && state[p] == 0; p = rest->parent[p])
        {
          state[p] = 1;
          chain[len++] = (gsize) p;
        }
      while (len > 0)
        order[w++] = chain[--len];
    }
}

static gboolean
is_identity (const double q[4])
{
  return fabs (q[0]) > 1.0 - 1e-12;
}

static gboolean
same_rotation (const double a[4],
               const double b[4])
{
  return fabs (a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) > 1.0 - 1e-12;
}

/* Where each joint is at rest (metres, SL axes) and its world rotation
 * there (may be NULL) */
static void
rest_world (const SqRest *rest,
            double      (*pos)[3],
            double      (*rot)[4])
{
  gsize n = rest->n;
  g_autofree gsize *order = g_new (gsize, MAX (n, 1));
  g_autofree double (*w)[4] = g_malloc_n (MAX (n, 1), sizeof *w);
  g_autofree guint8 *done = g_new0 (guint8, MAX (n, 1));
  gboolean plain = TRUE;

  for (gsize j = 0; j < n && plain; j++)
    plain = is_identity (rest->rotation[j]);
  if (plain)
    {
      /* offsets only: each summed up its chain (as it always was, to the
       * last bit) */
      for (gsize j = 0; j < n; j++)
        {
          gsize steps = 0;

          pos[j][0] = pos[j][1] = pos[j][2] = 0;
          for (gint32 p = (gint32) j; p >= 0 && (gsize) p < n && steps++ <= n; p = rest->parent[p])
            for (int k = 0; k < 3; k++)
              pos[j][k] += rest->offset[p][k];
          if (rot != NULL)
            rot[j][0] = 1, rot[j][1] = rot[j][2] = rot[j][3] = 0;
        }
      return;
    }
  parents_first (rest, order);
  for (gsize i = 0; i < n; i++)
    {
      gsize c = order[i];
      gint32 p = rest->parent[c];

      if (p >= 0 && (gsize) p < n && done[p])
        {
          double off[3];

          sq_quat_multiply (w[p], rest->rotation[c], w[c]);
          sq_quat_rotate (w[p], rest->offset[c], off);
          for (int k = 0; k < 3; k++)
            pos[c][k] = pos[p][k] + off[k];
        }
      else
        {
          memcpy (w[c], rest->rotation[c], sizeof w[c]);
          memcpy (pos[c], rest->offset[c], sizeof pos[c]);
        }
      sq_quat_normalize (w[c]);
      done[c] = 1;
    }
  if (rot != NULL)
    memcpy (rot, w, MAX (n, 1) * sizeof *w);
}

/* The lowest point (joints and BVH End Sites) below the root, up to the root */
static double
file_hip_height (const SqClip  *clip,
                 const SqSpace *space,
                 const SqRest  *rest)
{
  g_autofree double (*pos)[3] = g_malloc_n (MAX (rest->n, 1), sizeof *pos);
  double low;

  if (rest->root < 0)
    return 0;
  rest_world (rest, pos, NULL);
  low = pos[rest->root][2];
  for (gsize j = 0; j < rest->n; j++)
    {
      GVariant *v = sq_props_get (clip->joints[j].extra, "end-site");

      low = MIN (low, pos[j][2]);
      if (v != NULL && space != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE ("(ddd)")))
        {
          double e[3], sl[3];

          g_variant_get (v, "(ddd)", &e[0], &e[1], &e[2]);
          sq_space_vector_to_sl (space, e, sl);
          low = MIN (low, pos[j][2] + sl[2]);
        }
    }
  return pos[rest->root][2] - low;
}

SqRest *
_sq_rest_new (const SqClip   *clip,
              const SqFormat *format)
{
  SqRest *rest = g_new0 (SqRest, 1);
  const SqWorldHome *world = sq_format_get_world (format);
  gsize n = clip->n_joints;

  rest->n = n;
  rest->parent = g_new (gint32, MAX (n, 1));
  rest->offset = g_malloc0_n (MAX (n, 1), sizeof *rest->offset);
  rest->rotation = g_malloc0_n (MAX (n, 1), sizeof *rest->rotation);
  rest->limb = g_malloc0_n (MAX (n, 1), sizeof *rest->limb);
  rest->root = -1;
  for (gsize j = 0; j < n; j++)
    {
      rest->rotation[j][0] = 1;
      rest->parent[j] = -1;
    }
  if (n == 0)
    return rest;
  if (world != NULL && world->rest_skeleton != NULL)
    rest->root = world->rest_skeleton (clip, format, rest);
  else
    rest->root = _sq_skeleton_by_names (clip, rest->parent, rest->offset);
  if (rest->root >= 0)
    rest->parent[rest->root] = -1;
  rest->hub = !rest->from_file && (world == NULL || world == sq_world_common ());
  if (rest->hip_height > 0)
    return rest;
  if (rest->from_file)
    rest->hip_height = file_hip_height (clip, format != NULL ? format->space : NULL, rest);
  else if (world != NULL && world->hip_height != NULL)
    rest->hip_height = world->hip_height ();
  return rest;
}

void
_sq_rest_free (SqRest *rest)
{
  if (rest == NULL)
    return;
  g_free (rest->parent);
  g_free (rest->offset);
  g_free (rest->rotation);
  g_free (rest->limb);
  g_free (rest);
}

static gboolean
is_below (const SqRest *rest,
          gsize         j,
          gsize         ancestor)
{
  gsize steps = 0;

  for (gint32 p = rest->parent[j]; p >= 0 && (gsize) p < rest->n && steps++ <= rest->n; p = rest->parent[p])
    if ((gsize) p == ancestor)
      return TRUE;
  return FALSE;
}

void
_sq_rest_carried (const SqRest   *rest,
                  const gboolean *keep,
                  gboolean       *carried)
{
  for (gsize j = 0; j < rest->n; j++)
    {
      carried[j] = FALSE;
      if (keep[j])
        continue;
      for (gsize c = 0; c < rest->n && !carried[j]; c++)
        if (keep[c] && is_below (rest, c, j))
          carried[j] = TRUE;
    }
}

/* ---- limbs ---------------------------------------------------------------- */

/* The joint below `j` in `rest` standing for concept `tip`, -1 for none */
static gssize
find_below (const SqRest       *rest,
            const char * const *concept,
            gsize               j,
            const char         *tip)
{
  for (gsize c = 0; c < rest->n; c++)
    if (concept[c] != NULL && strcmp (concept[c], tip) == 0 && is_below (rest, c, j))
      return (gssize) c;
  return -1;
}

/* Per out joint, A = C_source · C_target⁻¹ (see the top); a joint whose
 * limb is not matched in both rests takes its parent's (parents first:
 * computed by recursion with a guard) */
typedef struct
{
  const SqRest       *src_rest, *tgt_rest;
  const char * const *src_concept, *const *tgt_concept;
  const gint32       *src_index;
  double            (*src_pos)[3], (*tgt_pos)[3];
  double            (*align)[4];
  guint8             *state;     /* 0 to do, 1 doing, 2 done */
} Align;

static gboolean
has_limb (const SqRest *rest,
          gsize         j)
{
  return rest->limb[j][0] != 0 || rest->limb[j][1] != 0 || rest->limb[j][2] != 0;
}

/* The turn C that takes the limb's direction `d_hub` in the common rest
 * onto where it points in `rest` for joint j: towards `tip` (a joint, or
 * -1), else along the world's own limb (rest->limb), else nowhere when
 * the rest is the common one; FALSE when nothing says */
static gboolean
limb_turn (const SqRest *rest,
           double      (*pos)[3],
           gsize         j,
           gssize        tip,
           gboolean      first,
           const double  d_hub[3],
           double        c[4])
{
  double d[3];

  if (tip >= 0)
    for (int k = 0; k < 3; k++)
      d[k] = pos[tip][k] - pos[j][k];
  else if (first && has_limb (rest, j))
    memcpy (d, rest->limb[j], sizeof d);
  else if (first && rest->hub)
    memcpy (d, d_hub, sizeof d);
  else
    return FALSE;
  sq_quat_between (d_hub, d, c);
  return TRUE;
}

static gboolean
limb_alignment (Align  *a,
                gsize   k,
                double  out[4])
{
  gsize j = (gsize) a->src_index[k];
  const char *concept = a->tgt_concept[k];
  const char * const *tips;

  if (concept == NULL || (tips = sq_joint_concept_tips (concept)) == NULL)
    return FALSE;
  for (gsize i = 0; tips[i] != NULL; i++)
    {
      gssize ts = find_below (a->src_rest, a->src_concept, j, tips[i]);
      gssize tt = find_below (a->tgt_rest, a->tgt_concept, k, tips[i]);
      /* a world's own limb stands for its first tip's joint */
      gboolean first = i == 0 && (has_limb (a->src_rest, j) || has_limb (a->tgt_rest, k));
      double hub_from[3], hub_to[3], d_hub[3], cs[4], ct[4], ict[4];

      if (ts < 0 && tt < 0 && !first)
        continue;
      if (!sq_joint_concept_hub_position (concept, hub_from) || !sq_joint_concept_hub_position (tips[i], hub_to))
        return FALSE;
      for (int c = 0; c < 3; c++)
        d_hub[c] = hub_to[c] - hub_from[c];
      if (!limb_turn (a->src_rest, a->src_pos, j, ts, first, d_hub, cs)
          || !limb_turn (a->tgt_rest, a->tgt_pos, k, tt, first, d_hub, ct))
        {
          if (ts < 0 && tt < 0)
            continue;
          return FALSE;
        }
      sq_quat_conjugate (ct, ict);
      sq_quat_multiply (cs, ict, out);
      sq_quat_normalize (out);
      return TRUE;
    }
  return FALSE;
}

static void
alignment (Align *a,
           gsize  k)
{
  gsize n = a->tgt_rest->n, len = 0;
  g_autofree gsize *chain = g_new (gsize, MAX (n, 1));

  /* up to the first joint done (a loop of parents ends where it closes),
   * then down: parents before children, without recursion */
  for (gint32 p = (gint32) k; p >= 0 && (gsize) p < n && a->state[p] == 0; p = a->tgt_rest->parent[p])
    {
      a->state[p] = 1;
      chain[len++] = (gsize) p;
    }
  while (len > 0)
    {
      gsize c = chain[--len];
      gint32 p = a->tgt_rest->parent[c];

      if (!limb_alignment (a, c, a->align[c]))
        {
          if (p >= 0 && (gsize) p < n && a->state[p] == 2)
            memcpy (a->align[c], a->align[p], sizeof a->align[c]);
          else
            a->align[c][0] = 1, a->align[c][1] = a->align[c][2] = a->align[c][3] = 0;
        }
      a->state[c] = 2;
    }
}

/* Per out joint, the out joint its limb points at when the source reaches
 * that joint's source only through joints the out clip has not (Second
 * Life's mChest between the torso and the neck, for ActiveWorlds' classic
 * avatar): the limb is then aimed along the source's chord from one to the
 * other, so the joints beyond still sit where they did; -1 for none */
static void
chord_tips (const Align *a,
            gssize      *tip)
{
  for (gsize k = 0; k < a->tgt_rest->n; k++)
    {
      const char *concept = a->tgt_concept[k];
      const char * const *tips = concept != NULL ? sq_joint_concept_tips (concept) : NULL;

      tip[k] = -1;
      for (gsize i = 0; tips != NULL && tips[i] != NULL; i++)
        {
          gssize tt = find_below (a->tgt_rest, a->tgt_concept, k, tips[i]);

          if (tt < 0)
            continue;
          if (a->src_rest->parent[a->src_index[tt]] != a->src_index[k])
            tip[k] = tt;
          break;
        }
    }
}

/* ---- sampling ------------------------------------------------------------- */

static int
cmp_double (gconstpointer a,
            gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Sorts the times and keeps each once */
static void
sort_unique (GArray *times)
{
  guint w = 0;

  g_array_sort (times, cmp_double);
  for (guint i = 0; i < times->len; i++)
    if (w == 0 || g_array_index (times, double, i) != g_array_index (times, double, w - 1))
      g_array_index (times, double, w++) = g_array_index (times, double, i);
  g_array_set_size (times, w);
}

/* Appends every key time of the track */
static void
add_times (GArray        *times,
           const SqTrack *track)
{
  for (gsize k = 0; k < track->n_keys; k++)
    {
      double t = sq_track_time (track, k);
      g_array_append_val (times, t);
    }
}

/* Every rotation key time of the clip, sorted, each once */
static GArray *
all_times (const SqClip *clip)
{
  GArray *times = g_array_new (FALSE, FALSE, sizeof (double));

  for (gsize j = 0; j < clip->n_joints; j++)
    add_times (times, &clip->joints[j].tracks[SQ_CHANNEL_ROTATION]);
  sort_unique (times);
  return times;
}

/* The source posed at one time, and the out clip's world rotations */
typedef struct
{
  const SqClip  *src;
  const SqRest  *src_rest, *tgt_rest;
  const SqSpace *space;
  const gint32  *src_index;
  double       (*align)[4];
  const gssize  *tip;
  double       (*tgt_pos)[3];   /* out joints at rest */
  double       (*src_rest_w)[4]; /* per source joint, its world rotation at rest */
  double       (*tgt_rest_w)[4]; /* per out joint, its world rotation at rest */
  gsize         *src_order, *tgt_order;
  double       (*world)[4];     /* per source joint */
  double       (*place)[3];     /* per source joint, from its root */
  double       (*out_world)[4]; /* per out joint: its turn from its rest, in the world */
  guint8        *done;
} Posed;

/* Each source joint's world rotation and place at `time` */
static void
pose_source (Posed  *p,
             double  time)
{
  const SqRest *rest = p->src_rest;

  memset (p->done, 0, rest->n);
  for (gsize i = 0; i < rest->n; i++)
    {
      gsize c = p->src_order[i];
      gint32 up = rest->parent[c];
      const SqTrack *track = &p->src->joints[c].tracks[SQ_CHANNEL_ROTATION];
      double v[4], local[4], off[3];

      if (track->n_keys > 0)
        {
          sq_track_sample (track, SQ_CHANNEL_ROTATION, time, v);
          sq_space_rotation_to_sl (p->space, v, local);
        }
      else
        memcpy (local, rest->rotation[c], sizeof local);
      sq_quat_normalize (local);
      if (up >= 0 && (gsize) up < rest->n && p->done[up])
        {
          sq_quat_multiply (p->world[up], local, p->world[c]);
          sq_quat_rotate (p->world[up], rest->offset[c], off);
          for (int k = 0; k < 3; k++)
            p->place[c][k] = p->place[up][k] + off[k];
        }
      else
        {
          memcpy (p->world[c], local, sizeof local);
          memcpy (p->place[c], rest->offset[c], sizeof p->place[c]);
        }
      sq_quat_normalize (p->world[c]);
      p->done[c] = 1;
    }
}

/* Where out joint c is from out joint k in the world when k turns by w,
 * and where its source is from k's source */
static void
out_and_source (const Posed  *p,
                gsize         k,
                gsize         c,
                const double  w[4],
                double        d_out[3],
                double        d_src[3])
{
  double rest_dir[3];

  for (int i = 0; i < 3; i++)
    {
      rest_dir[i] = p->tgt_pos[c][i] - p->tgt_pos[k][i];
      d_src[i] = p->place[p->src_index[c]][i] - p->place[p->src_index[k]][i];
    }
  sq_quat_rotate (w, rest_dir, d_out);
}

/* Turns w about the chord (unit `axis`) so that the other joints hanging
 * from out joint k through joints the out clip has not (the collars
 * beside the neck) come nearest their sources' places */
static void
twist_to_fit (const Posed  *p,
              gsize         k,
              const double  axis[3],
              double        w[4])
{
  double s = 0, c = 0, half, turn[4], turned[4];

  for (gsize m = 0; m < p->tgt_rest->n; m++)
    {
      double u[3], v[3], du, dv, cross[3];

      if (p->tgt_rest->parent[m] != (gint32) k || (gssize) m == p->tip[k]
          || p->src_rest->parent[p->src_index[m]] == p->src_index[k])
        continue;
      out_and_source (p, k, m, w, u, v);
      du = u[0] * axis[0] + u[1] * axis[1] + u[2] * axis[2];
      dv = v[0] * axis[0] + v[1] * axis[1] + v[2] * axis[2];
      for (int i = 0; i < 3; i++)
        u[i] -= du * axis[i], v[i] -= dv * axis[i];
      cross[0] = u[1] * v[2] - u[2] * v[1];
      cross[1] = u[2] * v[0] - u[0] * v[2];
      cross[2] = u[0] * v[1] - u[1] * v[0];
      s += cross[0] * axis[0] + cross[1] * axis[1] + cross[2] * axis[2];
      c += u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    }
  if (!(fabs (s) > 1e-12))
    return;
  half = 0.5 * atan2 (s, c);
  turn[0] = cos (half);
  for (int i = 0; i < 3; i++)
    turn[i + 1] = sin (half) * axis[i];
  sq_quat_multiply (turn, w, turned);
  memcpy (w, turned, sizeof turned);
}

/* Out joint k's turn in the world: the source joint's times its
 * alignment; with a chord, turned the shortest way to lie along it, then
 * about it to fit the joints that hang from it beside the chord's end */
static void
pose_out_joint (Posed *p,
                gsize  k)
{
  double *w = p->out_world[k], turn0[4], unrest[4];
  gint32 s = p->src_index[k];

  sq_quat_conjugate (p->src_rest_w[s], unrest);
  sq_quat_multiply (p->world[s], unrest, turn0);
  sq_quat_multiply (turn0, p->align[k], w);
  if (p->tip[k] >= 0)
    {
      double d_out[3], d_src[3], turn[4], turned[4], len;

      out_and_source (p, k, (gsize) p->tip[k], w, d_out, d_src);
      sq_quat_between (d_out, d_src, turn);
      sq_quat_multiply (turn, w, turned);
      memcpy (w, turned, sizeof turned);
      len = sqrt (d_src[0] * d_src[0] + d_src[1] * d_src[1] + d_src[2] * d_src[2]);
      if (len > 1e-9)
        {
          for (int i = 0; i < 3; i++)
            d_src[i] /= len;
          twist_to_fit (p, k, d_src, w);
        }
    }
  sq_quat_normalize (w);
}

/* Out joint k's rotation seen from its parent's (both posed) */
static void
out_local (const Posed *p,
           gsize        k,
           double       local[4])
{
  gint32 tp = p->tgt_rest->parent[k];
  double ip[4] = { 1, 0, 0, 0 }, wk[4];

  if (tp >= 0)
    {
      double wp[4];

      sq_quat_multiply (p->out_world[tp], p->tgt_rest_w[tp], wp);
      sq_quat_conjugate (wp, ip);
    }
  sq_quat_multiply (p->out_world[k], p->tgt_rest_w[k], wk);
  sq_quat_multiply (ip, wk, local);
  sq_quat_normalize (local);
}

static void
pose (Posed  *p,
      double  time)
{
  pose_source (p, time);
  for (gsize i = 0; i < p->tgt_rest->n; i++)
    pose_out_joint (p, p->tgt_order[i]);
}

/* Whether source joint `j` or one above it has a key at `time` */
static gboolean
chain_keyed (const SqClip *src,
             const SqRest *rest,
             gsize         j,
             double        time)
{
  gsize steps = 0;

  for (gint32 p = (gint32) j; p >= 0 && steps++ <= rest->n; p = rest->parent[p])
    if (sq_track_find (&src->joints[p].tracks[SQ_CHANNEL_ROTATION], time) >= 0)
      return TRUE;
  return FALSE;
}

/* Whether out joint k turns at `time`: a source joint above it, or above
 * the one its chord ends at, has a key */
static gboolean
out_keyed (const Posed *p,
           gsize        k,
           double       time)
{
  return chain_keyed (p->src, p->src_rest, (gsize) p->src_index[k], time)
         || (p->tip[k] >= 0 && chain_keyed (p->src, p->src_rest, (gsize) p->src_index[p->tip[k]], time));
}

/* ---- the retarget --------------------------------------------------------- */

static const char **
concepts_of (const SqClip *clip)
{
  const char **concept = g_new0 (const char *, MAX (clip->n_joints, 1));
  SqJointLookupFlags flags = sq_joint_lookup_flags (clip);

  for (gsize j = 0; j < clip->n_joints; j++)
    {
      SqJointConcept c;

      if (sq_joint_concept_lookup (clip->joints[j].name, flags, &c))
        concept[j] = c.sl_bone;
    }
  return concept;
}

/* Appends a key, in the hemisphere of the key before (so the keys
 * interpolate the short way), in the source format's space */
static void
append_key (SqTrack       *track,
            const SqSpace *space,
            double         time,
            double         local[4])
{
  double dot = 0, *v;

  if (track->n_keys > 0)
    {
      double prev[4];

      sq_space_rotation_to_sl (space, sq_track_key (track, track->n_keys - 1).v, prev);
      for (int c = 0; c < 4; c++)
        dot += local[c] * prev[c];
      if (dot < 0)
        for (int c = 0; c < 4; c++)
          local[c] = -local[c];
    }
  v = sq_track_append (track, time)->v;
  sq_space_rotation_from_sl (space, local, v);
}

/* The new keys of the joints not copied: at each time a source joint at or
 * above theirs (or above their chord's end) has a key; a joint with no
 * such time gets one key at 0 when it is turned at all. The source is
 * posed once per time. */
static void
resample (Posed          *p,
          SqClip         *out,
          const gboolean *copy)
{
  gsize no = out->n_joints;
  g_autoptr(GArray) times = all_times (p->src);

  for (gsize k = 0; k < no; k++)
    if (!copy[k])
      sq_track_clear (&out->joints[k].tracks[SQ_CHANNEL_ROTATION]);
  for (guint i = 0; i < times->len; i++)
    {
      double t = g_array_index (times, double, i);

      pose (p, t);
      for (gsize k = 0; k < no; k++)
        {
          double local[4];

          if (copy[k] || !out_keyed (p, k, t))
            continue;
          out_local (p, k, local);
          append_key (&out->joints[k].tracks[SQ_CHANNEL_ROTATION], p->space, t, local);
        }
    }
  pose (p, 0.0);
  for (gsize k = 0; k < no; k++)
    {
      double local[4];

      if (copy[k] || out->joints[k].tracks[SQ_CHANNEL_ROTATION].n_keys > 0)
        continue;
      out_local (p, k, local);
      if (!same_rotation (local, p->tgt_rest->rotation[k]))
        append_key (&out->joints[k].tracks[SQ_CHANNEL_ROTATION], p->space, 0.0, local);
    }
}

/* Which out joints keep their keys: a joint no world knows (nothing says
 * where its limb points), and one aligned already, with no chord, hanging
 * from the same joint as in the source, as is every joint above it.
 * Returns whether all do. */
static gboolean
copies (const Align  *a,
        const gssize *tip,
        gboolean     *copy)
{
  const SqRest *tgt_rest = a->tgt_rest;
  gsize no = tgt_rest->n;
  gboolean all_copy = TRUE;

  for (gsize k = 0; k < no; k++)
    {
      gint32 tp = tgt_rest->parent[k];
      gint32 sp = a->src_rest->parent[a->src_index[k]];

      /* a key means the same on both rests */
      if (!same_rotation (a->src_rest->rotation[a->src_index[k]], tgt_rest->rotation[k]))
        copy[k] = FALSE;
      else
        copy[k] = a->tgt_concept[k] == NULL
                  || (is_identity (a->align[k]) && tip[k] < 0
                      && (tp < 0 ? sp < 0 : (sp == a->src_index[tp] && is_identity (a->align[tp]))));
    }
  for (gsize k = 0; k < no; k++)
    {
      gsize steps = 0;
      for (gint32 p = tgt_rest->parent[k]; p >= 0 && copy[k] && steps++ <= no; p = tgt_rest->parent[p])
        if (!copy[p])
          copy[k] = FALSE;
      all_copy = all_copy && copy[k];
    }
  return all_copy;
}

/* Poses the source at each of its key times onto the out clip's rest */
static void
retarget_keys (const Align    *a,
               const SqClip   *src,
               const SqSpace  *space,
               SqClip         *out,
               const gssize   *tip,
               const gboolean *copy)
{
  gsize ns = src->n_joints, no = out->n_joints;
  g_autofree gsize *src_order = g_new (gsize, MAX (ns, 1));
  g_autofree gsize *tgt_order = g_new (gsize, MAX (no, 1));
  g_autofree double (*world)[4] = g_malloc_n (MAX (ns, 1), sizeof *world);
  g_autofree double (*place)[3] = g_malloc_n (MAX (ns, 1), sizeof *place);
  g_autofree double (*out_world)[4] = g_malloc_n (MAX (no, 1), sizeof *out_world);
  g_autofree guint8 *done = g_new0 (guint8, MAX (ns, 1));
  g_autofree double (*src_rest_w)[4] = g_malloc_n (MAX (ns, 1), sizeof *src_rest_w);
  g_autofree double (*tgt_rest_w)[4] = g_malloc_n (MAX (no, 1), sizeof *tgt_rest_w);
  g_autofree double (*scratch)[3] = g_malloc_n (MAX (MAX (ns, no), 1), sizeof *scratch);
  Posed p = { src, a->src_rest, a->tgt_rest, space, a->src_index, a->align, tip, a->tgt_pos,
              src_rest_w, tgt_rest_w, src_order, tgt_order, world, place, out_world, done };

  rest_world (a->src_rest, scratch, src_rest_w);
  rest_world (a->tgt_rest, scratch, tgt_rest_w);
  parents_first (a->src_rest, src_order);
  parents_first (a->tgt_rest, tgt_order);
  resample (&p, out, copy);
}

guint
_sq_retarget (const SqClip  *src,
              const SqRest  *src_rest,
              const SqSpace *space,
              SqClip        *out,
              const gint32  *src_index,
              const SqRest  *tgt_rest)
{
  gsize ns = src->n_joints, no = out->n_joints;
  g_autofree const char **src_concept = concepts_of (src);
  g_autofree const char **tgt_concept = g_new0 (const char *, MAX (no, 1));
  g_autofree double (*src_pos)[3] = g_malloc_n (MAX (ns, 1), sizeof *src_pos);
  g_autofree double (*tgt_pos)[3] = g_malloc_n (MAX (no, 1), sizeof *tgt_pos);
  g_autofree double (*align)[4] = g_malloc_n (MAX (no, 1), sizeof *align);
  g_autofree guint8 *state = g_new0 (guint8, MAX (MAX (no, ns), 1));
  g_autofree gboolean *copy = g_new0 (gboolean, MAX (no, 1));
  g_autofree gssize *tip = g_new (gssize, MAX (no, 1));
  Align a = { src_rest, tgt_rest, src_concept, tgt_concept, src_index, src_pos, tgt_pos, align, state };
  guint changed = 0;

  if (no == 0 || ns == 0 || tgt_rest->n != no || src_rest->n != ns)
    return 0;
  /* a joint a user's map names (a rig the table does not know) stands for
   * what its new name stands for */
  for (gsize k = 0; k < no; k++)
    {
      SqJointConcept c;

      if (src_index[k] >= 0 && (gsize) src_index[k] < ns && src_concept[src_index[k]] == NULL
          && sq_joint_concept_lookup (out->joints[k].name, 0, &c))
        src_concept[src_index[k]] = c.sl_bone;
    }
  for (gsize k = 0; k < no; k++)
    tgt_concept[k] = src_index[k] >= 0 && (gsize) src_index[k] < ns ? src_concept[src_index[k]] : NULL;
  rest_world (src_rest, src_pos, NULL);
  rest_world (tgt_rest, tgt_pos, NULL);
  for (gsize k = 0; k < no; k++)
    alignment (&a, k);
  chord_tips (&a, tip);
  if (copies (&a, tip, copy))
    return 0;

  retarget_keys (&a, src, space, out, tip, copy);
  for (gsize k = 0; k < no; k++)
    if (!copy[k])
      {
        sq_props_set (out->joints[k].extra, "retargeted", g_variant_new_boolean (TRUE));
        changed++;
      }
  return changed;
}

/* ---- root motion ---------------------------------------------------------- */

/* Source joint j and the joints above it, from the root down; returns how
 * many (a loop of parents ends where it closes) */
static gsize
chain_down (const SqRest *rest,
            gsize         j,
            gsize        *chain)
{
  gsize len = 0;

  for (gint32 p = (gint32) j; p >= 0 && (gsize) p < rest->n && len < rest->n; p = rest->parent[p])
    chain[len++] = (gsize) p;
  for (gsize i = 0; i < len / 2; i++)
    {
      gsize t = chain[i];
      chain[i] = chain[len - 1 - i];
      chain[len - 1 - i] = t;
    }
  return len;
}

/* The key times that move the place of the joint at the chain's end: the
 * translations of the chain, the rotations of the joints above it */
static GArray *
chain_times (const SqClip *src,
             const gsize  *chain,
             gsize         len)
{
  GArray *times = g_array_new (FALSE, FALSE, sizeof (double));

  for (gsize i = 0; i < len; i++)
    {
      add_times (times, &src->joints[chain[i]].tracks[SQ_CHANNEL_TRANSLATION]);
      if (i + 1 < len)
        add_times (times, &src->joints[chain[i]].tracks[SQ_CHANNEL_ROTATION]);
    }
  sort_unique (times);
  return times;
}

/* The place in the world (metres, SL axes) of the chain's end at `time`
 * when the translations are whole offsets, or at rest (keyed FALSE) */
static void
chain_place (const SqClip  *src,
             const SqRest  *rest,
             const SqSpace *space,
             const gsize   *chain,
             gsize          len,
             double         time,
             gboolean       keyed,
             double         out[3])
{
  double w[4] = { 1, 0, 0, 0 };

  out[0] = out[1] = out[2] = 0;
  for (gsize i = 0; i < len; i++)
    {
      const SqJoint *joint = &src->joints[chain[i]];
      double off[3], moved[3], local[4], next[4], v[4];

      memcpy (off, rest->offset[chain[i]], sizeof off);
      memcpy (local, rest->rotation[chain[i]], sizeof local);
      if (keyed && joint->tracks[SQ_CHANNEL_TRANSLATION].n_keys > 0)
        {
          sq_track_sample (&joint->tracks[SQ_CHANNEL_TRANSLATION], SQ_CHANNEL_TRANSLATION, time, v);
          sq_space_vector_to_sl (space, v, off);
        }
      if (keyed && joint->tracks[SQ_CHANNEL_ROTATION].n_keys > 0)
        {
          sq_track_sample (&joint->tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, time, v);
          sq_space_rotation_to_sl (space, v, local);
        }
      sq_quat_rotate (w, off, moved);
      for (int k = 0; k < 3; k++)
        out[k] += moved[k];
      sq_quat_multiply (w, local, next);
      sq_quat_normalize (next);
      memcpy (w, next, sizeof w);
    }
}

void
_sq_retarget_root_motion (const SqClip  *src,
                          const SqRest  *src_rest,
                          const SqSpace *space,
                          SqClip        *out,
                          const gint32  *src_index,
                          const SqRest  *tgt_rest,
                          double         factor)
{
  gssize k0 = tgt_rest->root;
  gint32 s0;
  SqTrack *track;

  if (k0 < 0 || (gsize) k0 >= out->n_joints || tgt_rest->n != out->n_joints)
    return;
  s0 = src_index[k0];
  if (s0 < 0 || (gsize) s0 >= src->n_joints || src_rest->n != src->n_joints)
    return;
  track = &out->joints[k0].tracks[SQ_CHANNEL_TRANSLATION];
  if (src_rest->absolute)
    {
      g_autofree gsize *chain = g_new (gsize, MAX (src_rest->n, 1));
      gsize len = chain_down (src_rest, (gsize) s0, chain);
      g_autoptr(GArray) times = chain_times (src, chain, len);
      double at_rest[3];

      chain_place (src, src_rest, space, chain, len, 0, FALSE, at_rest);
      sq_track_clear (track);
      for (guint i = 0; i < times->len; i++)
        {
          double t = g_array_index (times, double, i), now[3], sl[3];

          chain_place (src, src_rest, space, chain, len, t, TRUE, now);
          for (int k = 0; k < 3; k++)
            sl[k] = (now[k] - at_rest[k]) * factor
                    + (tgt_rest->absolute ? tgt_rest->offset[k0][k] : 0);
          sq_space_vector_from_sl (space, sl, sq_track_append (track, t)->v);
        }
      return;
    }
  {
    SqKey *keys = sq_track_unpack (track);

    for (gsize i = 0; i < track->n_keys; i++)
      {
        double sl[3];

        sq_space_vector_to_sl (space, keys[i].v, sl);
        for (int k = 0; k < 3; k++)
          sl[k] = sl[k] * factor + (tgt_rest->absolute ? tgt_rest->offset[k0][k] : 0);
        sq_space_vector_from_sl (space, sl, keys[i].v);
      }
    g_clear_pointer (&track->alt, g_free);
    g_clear_pointer (&track->present, g_free);
  }
}
