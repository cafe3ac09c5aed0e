/* sq-layers.c: several animations played together on one Second Life avatar
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Facts (SLV, read for this, no code taken): LLJointStateBlender::
 * addJointState keeps a joint's states sorted by priority, a state of equal
 * priority behind the ones already there, and the motion controller adds
 * the newest motion first (push_front), so at equal priority the motion
 * started last comes first; blendJointStates copies the first state's value
 * with its weight as the sum, and each next state of the same channel
 * blends in with nlerp(sum / new_sum) where new_sum = min(1, sum + weight).
 * LLMotionController::updateMotionsByType sets a starting motion's weight
 * to cubic_step(elapsed / ease_in), a stopping one's to its weight at the
 * stop times cubic_step(1 − since_stop / ease_out); activateMotionInstance
 * stops a motion that does not loop at max(duration − ease_out, 0).
 */
#define G_LOG_DOMAIN "sq-layers"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "sq-convert.h"
#include "sq-fields.h"
#include "sq-private.h"
#include "worlds/sq-layers.h"
#include "worlds/sq-sl-skeleton.h"

typedef struct
{
  SqClip  *clip;          /* as .anim */
  char    *name;
  double   start;
  SqSlFields f;
  GHashTable *bones;      /* bone name → joint index + 1 */
} Layer;

struct _SqLayers
{
  GPtrArray *layers;      /* Layer * */
};

static void
layer_free (Layer *layer)
{
  sq_clip_free (layer->clip);
  g_hash_table_unref (layer->bones);
  g_free (layer->name);
  g_free (layer);
}

SqLayers *
sq_layers_new (void)
{
  SqLayers *layers = g_new0 (SqLayers, 1);

  layers->layers = g_ptr_array_new_with_free_func ((GDestroyNotify) layer_free);
  return layers;
}

void
sq_layers_free (SqLayers *layers)
{
  if (layers == NULL)
    return;
  g_ptr_array_unref (layers->layers);
  g_free (layers);
}

gboolean
sq_layers_add (SqLayers     *layers,
               const SqClip *clip,
               const char   *name,
               double        start,
               GError      **error)
{
  /* as a save converts it (a BVH pose keeps its pose: sq-bvh-reference.c) */
  static const SqSaveOptions defaults = { 0 };
  SqClip *sl = _sq_convert_for_save (clip, &_sq_format_sl_anim, &defaults, NULL, error);
  Layer *layer;

  if (sl == NULL)
    return FALSE;
  layer = g_new0 (Layer, 1);
  layer->clip = sl;
  layer->name = g_strdup (name);
  layer->start = isfinite (start) ? start : 0;
  sq_sl_fields_get (sl, &layer->f);
  layer->bones = g_hash_table_new (g_str_hash, g_str_equal);
  for (gsize j = sl->n_joints; j > 0; j--)
    g_hash_table_insert (layer->bones, (gpointer) sq_layers_bone_of (sl->joints[j - 1].name), GSIZE_TO_POINTER (j));
  g_ptr_array_add (layers->layers, layer);
  return TRUE;
}

gsize
sq_layers_get_n (const SqLayers *layers)
{
  return layers->layers->len;
}

const char *
sq_layers_get_name (const SqLayers *layers,
                    gsize           index)
{
  return index < layers->layers->len ? ((Layer *) layers->layers->pdata[index])->name : NULL;
}

static double
cubic_step (double x)
{
  x = CLAMP (x, 0.0, 1.0);
  return x * x * (3.0 - 2.0 * x);
}

static double
ease_in_weight (const Layer *l,
                double       t)
{
  return l->f.ease_in > 0 && t < l->f.ease_in ? cubic_step (t / l->f.ease_in) : 1.0;
}

double
sq_layers_weight (const SqLayers *layers,
                  gsize           index,
                  double          time)
{
  const Layer *l;
  double t, stop;

  g_return_val_if_fail (index < layers->layers->len, 0.0);
  l = layers->layers->pdata[index];
  t = time - l->start;
  if (t < 0)
    return 0.0;
  if (l->f.loop || l->clip->duration == 0)
    return ease_in_weight (l, t);
  stop = MAX (l->clip->duration - l->f.ease_out, 0.0);
  if (t <= stop)
    return ease_in_weight (l, t);
  if (l->f.ease_out <= 0 || t >= stop + l->f.ease_out)
    return 0.0;
  return ease_in_weight (l, stop) * cubic_step (1.0 - (t - stop) / l->f.ease_out);
}

/* The time inside the animation at `time`: looping between the loop
 * points, held at the end */
static double
motion_time (const Layer *l,
             double       time)
{
  double t = time - l->start, span = l->f.loop_out - l->f.loop_in;

  if (l->f.loop && t > l->f.loop_out)
    t = span > 0 ? l->f.loop_in + fmod (t - l->f.loop_in, span) : l->f.loop_in;
  return CLAMP (t, 0.0, MAX (l->clip->duration, 0.0));
}

const char *
sq_layers_bone_of (const char *name)
{
  const char *bone = NULL;
  SqSlNameKind kind = sq_sl_lookup_name (name, &bone);

  return (kind == SQ_SL_NAME_BONE || kind == SQ_SL_NAME_ALIAS) && bone != NULL ? bone : name;
}

static guint
bone_order (const char *bone)
{
  for (guint i = 0; i < SQ_SL_N_BONES; i++)
    if (strcmp (sq_sl_bone_name (i), bone) == 0)
      return i;
  return SQ_SL_N_BONES;
}

static int
compare_bones (gconstpointer a,
               gconstpointer b)
{
  const char *x = *(const char * const *) a, *y = *(const char * const *) b;
  guint ox = bone_order (x), oy = bone_order (y);

  return ox != oy ? (ox < oy ? -1 : 1) : strcmp (x, y);
}

/* Every bone any layer animates, in skeleton order */
static GPtrArray *
layer_bones (const SqLayers *layers)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *bones = g_ptr_array_new ();

  for (guint i = 0; i < layers->layers->len; i++)
    {
      const Layer *l = layers->layers->pdata[i];

      for (gsize j = 0; j < l->clip->n_joints; j++)
        {
          const char *bone = sq_layers_bone_of (l->clip->joints[j].name);

          if (g_hash_table_add (seen, (gpointer) bone))
            g_ptr_array_add (bones, (gpointer) bone);
        }
    }
  g_ptr_array_sort (bones, compare_bones);
  return bones;
}

typedef struct
{
  guint   layer;
  gsize   joint;
  gint32  priority;
  double  start;
  double  weight;
  gboolean own;           /* the priority is the joint's own */
} Contender;

static int
compare_contenders (gconstpointer a,
                    gconstpointer b)
{
  const Contender *x = a, *y = b;

  if (x->priority != y->priority)
    return x->priority > y->priority ? -1 : 1;
  /* equal priority: the one started last first */
  if (x->start != y->start)
    return x->start > y->start ? -1 : 1;
  return x->layer > y->layer ? -1 : (x->layer < y->layer ? 1 : 0);
}

static gint32
joint_priority (const Layer *l,
                gsize        joint,
                gboolean    *own)
{
  gint32 base = l->f.priority, p = sq_sl_joint_priority (l->clip, joint);

  if (p == SQ_SL_MIN_PRIORITY)   /* USE_MOTION_PRIORITY */
    p = base;
  *own = p != base;
  return p;
}

/* LL's nlerp: from a (t = 0) to b (t = 1), the shorter way, normalised */
static void
nlerp (double       t,
       const double a[4],
       const double b[4],
       double       out[4])
{
  double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  double s = dot < 0 ? -(1 - t) : 1 - t, len = 0;

  for (int i = 0; i < 4; i++)
    {
      out[i] = a[i] * s + b[i] * t;
      len += out[i] * out[i];
    }
  len = sqrt (len);
  for (int i = 0; i < 4 && len > 0; i++)
    out[i] /= len;
}

/* Blends one channel of the contenders in order, as blendJointStates; the
 * share of the first one that has the channel in *share */
static gboolean
blend_channel (const SqLayers  *layers,
               const Contender *c,
               guint            n,
               SqChannel        channel,
               double           time,
               double           out[4],
               int             *first,
               double          *share)
{
  double sum = 0;
  gboolean any = FALSE;

  *first = -1;
  *share = 0;
  for (guint i = 0; i < n; i++)
    {
      const Layer *l = layers->layers->pdata[c[i].layer];
      const SqTrack *t = &l->clip->joints[c[i].joint].tracks[channel];
      double v[4], new_sum;

      if (t->n_keys == 0)
        continue;
      sq_track_sample (t, channel, motion_time (l, time), v);
      if (!any)
        {
          memcpy (out, v, sizeof v);
          sum = c[i].weight;
          *first = (int) i;
          *share = 1;
          any = TRUE;
          continue;
        }
      new_sum = MIN (1.0, sum + c[i].weight);
      if (channel == SQ_CHANNEL_ROTATION)
        nlerp (sum / new_sum, v, out, out);
      else
        for (int k = 0; k < 3; k++)
          out[k] = v[k] + (out[k] - v[k]) * (sum / new_sum);
      *share *= sum / new_sum;
      sum = new_sum;
    }
  return any;
}

static void
resolve_bone (const SqLayers *layers,
              const char     *bone,
              double          time,
              SqLayerJoint   *out)
{
  Contender c[64];
  guint n = 0;
  int first_rot = -1, first_pos = -1, win;
  double share_pos = 0;

  memset (out, 0, sizeof *out);
  out->joint = bone;
  out->winner = out->rival = -1;
  out->rotation[0] = 1;
  for (guint i = 0; i < layers->layers->len && n < G_N_ELEMENTS (c); i++)
    {
      const Layer *l = layers->layers->pdata[i];
      double w = sq_layers_weight (layers, i, time);

      gsize j = GPOINTER_TO_SIZE (g_hash_table_lookup (l->bones, bone));

      if (j-- == 0 || w <= 0)
        continue;
      c[n] = (Contender) { i, j, 0, l->start, w, FALSE };
      c[n].priority = joint_priority (l, j, &c[n].own);
      n++;
    }
  if (n == 0)
    {
      out->reason = SQ_LAYER_NOT_PLAYING;
      return;
    }
  qsort (c, n, sizeof c[0], compare_contenders);
  n = MIN (n, SQ_LAYERS_MAX_PER_JOINT);
  blend_channel (layers, c, n, SQ_CHANNEL_ROTATION, time, out->rotation, &first_rot, &out->share);
  {
    double p[4];

    out->has_position = blend_channel (layers, c, n, SQ_CHANNEL_TRANSLATION, time, p, &first_pos, &share_pos);
    memcpy (out->position, p, sizeof out->position);
  }
  win = first_rot >= 0 ? first_rot : first_pos;
  if (first_rot < 0)
    out->share = share_pos;
  out->winner = (int) c[win].layer;
  out->priority = c[win].priority;
  out->joint_priority = c[win].own;
  out->weight = c[win].weight;
  for (guint i = 0; i < n && out->rival < 0; i++)
    if ((int) i != win)
      {
        out->rival = (int) c[i].layer;
        out->rival_priority = c[i].priority;
      }
  if (out->rival < 0)
    out->reason = SQ_LAYER_ONLY;
  else
    out->reason = out->priority > out->rival_priority ? SQ_LAYER_PRIORITY : SQ_LAYER_STARTED_LAST;
}

GArray *
sq_layers_resolve (const SqLayers *layers,
                   double          time)
{
  g_autoptr(GPtrArray) bones = layer_bones (layers);
  GArray *out = g_array_sized_new (FALSE, TRUE, sizeof (SqLayerJoint), bones->len);

  g_array_set_size (out, bones->len);
  for (guint b = 0; b < bones->len; b++)
    resolve_bone (layers, bones->pdata[b], time, &g_array_index (out, SqLayerJoint, b));
  return out;
}

char *
sq_layers_explain (const SqLayers     *layers,
                   const SqLayerJoint *joint)
{
  const char *rival = joint->rival >= 0 ? sq_layers_get_name (layers, joint->rival) : NULL;
  g_autofree char *why = NULL;

  switch (joint->reason)
    {
    case SQ_LAYER_NOT_PLAYING:
      return g_strdup (_("(none of them plays at this time)"));
    case SQ_LAYER_ONLY:
      why = g_strdup (_("only it moves the joint"));
      break;
    case SQ_LAYER_PRIORITY:
      why = joint->joint_priority
            ? g_strdup_printf (_("joint priority %d over %s's %d"), joint->priority, rival, joint->rival_priority)
            : g_strdup_printf (_("priority %d over %s's %d"), joint->priority, rival, joint->rival_priority);
      break;
    case SQ_LAYER_STARTED_LAST:
      why = g_strdup_printf (_("priority %d as %s's, started last"), joint->priority, rival);
      break;
    }
  if (joint->share < 0.995)
    /* TRANSLATORS: the winner of a joint is blended with the others while it eases in or out */
    return g_strdup_printf (_("(%s; easing, %.0f %% of the joint's turn)"), why, joint->share * 100);
  return g_strdup_printf ("(%s)", why);
}

SqClip *
sq_layers_bake (const SqLayers *layers,
                double          fps,
                double          duration)
{
  g_autoptr(GPtrArray) bones = layer_bones (layers);
  SqClip *clip = sq_clip_new ();
  guint frames;

  if (!(fps > 0) || !isfinite (fps))
    fps = 30;
  duration = isfinite (duration) && duration > 0 ? duration : 0;
  frames = (guint) MIN (ceil (duration * fps - 1e-9), 100000.0) + 1;
  clip->duration = duration;
  clip->fps = fps;
  for (guint b = 0; b < bones->len; b++)
    sq_clip_add_joint (clip, bones->pdata[b]);
  for (guint f = 0; f < frames; f++)
    {
      double t = MIN (f / fps, duration);
      g_autoptr(GArray) joints = sq_layers_resolve (layers, t);

      for (guint b = 0; b < joints->len; b++)
        {
          const SqLayerJoint *lj = &g_array_index (joints, SqLayerJoint, b);
          SqJoint *joint = &clip->joints[b];
          SqKey *key;
          const SqTrack *rot = &joint->tracks[SQ_CHANNEL_ROTATION];

          if (rot->n_keys > 0 && t <= sq_track_time (rot, rot->n_keys - 1))
            continue;
          key = sq_track_append (&joint->tracks[SQ_CHANNEL_ROTATION], t);
          memcpy (key->v, lj->rotation, sizeof lj->rotation);
          if (lj->has_position)
            {
              key = sq_track_append (&joint->tracks[SQ_CHANNEL_TRANSLATION], t);
              memcpy (key->v, lj->position, sizeof lj->position);
              key->v[3] = 0;
            }
        }
    }
  return clip;
}
