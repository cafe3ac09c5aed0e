/* sq-pose.c: a clip's skeleton posed at a time, for previews
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-pose"

#include "config.h"

#include <math.h>

#include "sq-convert.h"
#include "sq-math.h"
#include "sq-pose.h"
#include "sq-retarget.h"
#include "sq-private.h"
#include "sq-world.h"

struct _SqPose
{
  gsize          n;
  gssize        *parent;
  double       (*rest)[3];      /* offset from the parent (a root: from the origin), metres, SL axes */
  gsize         *order;         /* parents before children */
  const SqSpace *space;
  /* translation keys replace the rest offset (BVH channels, .anim
   * positions) rather than move the joint from it (ActiveWorlds) */
  gboolean       replace;
};

static gboolean
hierarchy_parent (const SqJoint *joint,
                  gint32        *parent)
{
  GVariant *v = sq_props_get (joint->extra, "parent");

  if (v == NULL || !g_variant_is_of_type (v, G_VARIANT_TYPE_INT32))
    return FALSE;
  *parent = g_variant_get_int32 (v);
  return TRUE;
}

SqPose *
sq_pose_new (const SqClip *clip)
{
  SqPose *pose = g_new0 (SqPose, 1);
  gsize n = clip->n_joints, w = 0;
  g_autofree gint32 *parent = g_new (gint32, MAX (n, 1));
  g_autofree guint8 *state = g_new0 (guint8, MAX (n, 1));
  gboolean tree = n > 0;

  pose->n = n;
  pose->parent = g_new (gssize, MAX (n, 1));
  pose->rest = g_malloc_n (MAX (n, 1), sizeof *pose->rest);
  pose->order = g_new (gsize, MAX (n, 1));
  pose->space = clip->format != NULL && clip->format->space != NULL
                ? clip->format->space : &sq_space_second_life;
  pose->replace = (pose->space->hierarchy || pose->space == &sq_space_second_life)
                  && sq_props_get (clip->extra, SQ_TRANSLATIONS_ADD) == NULL;

  for (gsize j = 0; j < n && tree; j++)
    tree = hierarchy_parent (&clip->joints[j], &parent[j]);
  if (tree)
    {
      for (gsize j = 0; j < n; j++)
        {
          GVariant *off = sq_props_get (clip->joints[j].extra, "offset");
          double v[3] = { 0, 0, 0 };

          if (off != NULL && g_variant_is_of_type (off, G_VARIANT_TYPE ("(ddd)")))
            g_variant_get (off, "(ddd)", &v[0], &v[1], &v[2]);
          if (parent[j] < 0 || (gsize) parent[j] >= n)
            parent[j] = -1;
          sq_space_vector_to_sl (pose->space, v, pose->rest[j]);
        }
    }
  else if (n > 0)
    {
      const SqWorldHome *world = sq_format_get_world (clip->format);
      gboolean from_file = FALSE;
      gssize root;

      /* the world's rest skeleton (ActiveWorlds' stands with its arms
       * down; the worlds' whose keys are turns from it: a clip with no
       * hierarchy of its own), or the file's own frames */
      if (world != NULL && world->rest_skeleton != NULL)
        {
          g_autoptr(SqRest) rest = _sq_rest_new (clip, clip->format);

          root = rest->root;
          from_file = rest->from_file;
          memcpy (parent, rest->parent, n * sizeof *parent);
          memcpy (pose->rest, rest->offset, n * sizeof *pose->rest);
        }
      else
        root = _sq_skeleton_rest (clip, parent, pose->rest, &from_file, NULL);
      if (root >= 0)
        parent[root] = -1;
      /* a DirectX file's position keys replace its frames' translations */
      if (from_file)
        pose->replace = TRUE;
    }

  /* parents first; a joint whose parents lead back to it becomes a root */
  {
    g_autofree gsize *chain = g_new (gsize, MAX (n, 1));

    for (gsize j = 0; j < n; j++)
      {
        gsize len = 0, p = j;

        if (state[j] != 0)
          continue;
        for (;;)
          {
            gint32 q = parent[p];

            state[p] = 1;
            chain[len++] = p;
            if (q < 0 || state[q] == 2)
              break;
            if (state[q] == 1)
              {
                parent[p] = -1;
                break;
              }
            p = (gsize) q;
          }
        while (len > 0)
          {
            p = chain[--len];
            state[p] = 2;
            pose->order[w++] = p;
          }
      }
  }
  for (gsize j = 0; j < n; j++)
    pose->parent[j] = parent[j];
  return pose;
}

void
sq_pose_free (SqPose *pose)
{
  if (pose == NULL)
    return;
  g_free (pose->parent);
  g_free (pose->rest);
  g_free (pose->order);
  g_free (pose);
}

gsize
sq_pose_get_n_joints (const SqPose *pose)
{
  return pose->n;
}

const gssize *
sq_pose_get_parents (const SqPose *pose)
{
  return pose->parent;
}

gboolean
sq_pose_translations_replace (const SqPose *pose)
{
  return pose->replace;
}

/* joint `j`'s own rotation at `time` on Second Life's axes, and its
 * offset from its parent (metres, in the parent's frame), `o` standing in
 * for its keys when it names the joint */
static void
joint_local (const SqPose         *pose,
             const SqClip         *clip,
             double                time,
             gsize                 j,
             const SqPoseOverride *o,
             double                local[4],
             double                off[3])
{
  const SqJoint *joint = &clip->joints[j];
  gboolean mine = o != NULL && o->joint >= 0 && (gsize) o->joint == j;
  double v[4];

  if (mine && o->rotation != NULL)
    memcpy (v, o->rotation, sizeof v);
  else
    sq_track_sample (&joint->tracks[SQ_CHANNEL_ROTATION], SQ_CHANNEL_ROTATION, time, v);
  sq_space_rotation_to_sl (pose->space, v, local);
  sq_quat_normalize (local);

  memcpy (off, pose->rest[j], 3 * sizeof (double));
  if (joint->tracks[SQ_CHANNEL_TRANSLATION].n_keys > 0 || (mine && o->position != NULL))
    {
      double t[3];

      if (mine && o->position != NULL)
        memcpy (v, o->position, 3 * sizeof (double));
      else
        sq_track_sample (&joint->tracks[SQ_CHANNEL_TRANSLATION], SQ_CHANNEL_TRANSLATION, time, v);
      sq_space_vector_to_sl (pose->space, v, t);
      for (int k = 0; k < 3; k++)
        off[k] = pose->replace ? t[k] : off[k] + t[k];
    }
}

void
sq_pose_evaluate_with (const SqPose         *pose,
                       const SqClip         *clip,
                       double                time,
                       const SqPoseOverride *override,
                       double               *points)
{
  g_autofree double (*rot)[4] = g_malloc_n (MAX (pose->n, 1), sizeof *rot);

  g_return_if_fail (clip->n_joints == pose->n);

  for (gsize i = 0; i < pose->n; i++)
    {
      gsize j = pose->order[i];
      gssize p = pose->parent[j];
      double local[4], off[3];

      joint_local (pose, clip, time, j, override, local, off);
      if (p < 0)
        {
          memcpy (rot[j], local, sizeof local);
          memcpy (&points[j * 3], off, sizeof off);
        }
      else
        {
          sq_quat_multiply (rot[p], local, rot[j]);
          sq_quat_rotate (rot[p], off, off);
          for (int k = 0; k < 3; k++)
            points[j * 3 + k] = points[p * 3 + k] + off[k];
        }
    }
}

void
sq_pose_evaluate (const SqPose *pose,
                  const SqClip *clip,
                  double        time,
                  double       *points)
{
  sq_pose_evaluate_with (pose, clip, time, NULL, points);
}

void
sq_pose_parent_rotation (const SqPose *pose,
                         const SqClip *clip,
                         double        time,
                         gsize         joint,
                         double        q[4])
{
  double local[4], off[3], r[4];
  gsize depth = 0;

  q[0] = 1;
  q[1] = q[2] = q[3] = 0;
  g_return_if_fail (clip->n_joints == pose->n && joint < pose->n);
  /* from the parent up to the root: q = local(root) … local(parent); the
   * parents lead to a root (sq_pose_new broke every circle), and a chain
   * is never longer than the joints */
  for (gssize p = pose->parent[joint]; p >= 0 && depth < pose->n; p = pose->parent[p], depth++)
    {
      joint_local (pose, clip, time, (gsize) p, NULL, local, off);
      sq_quat_multiply (local, q, r);
      memcpy (q, r, sizeof r);
    }
}

void
sq_pose_position_value (const SqPose *pose,
                        const SqClip *clip,
                        double        time,
                        gsize         joint,
                        double        v[3])
{
  const SqTrack *track;

  v[0] = v[1] = v[2] = 0;
  g_return_if_fail (clip->n_joints == pose->n && joint < pose->n);
  track = &clip->joints[joint].tracks[SQ_CHANNEL_TRANSLATION];
  if (track->n_keys > 0)
    {
      double k[4];

      sq_track_sample (track, SQ_CHANNEL_TRANSLATION, time, k);
      memcpy (v, k, 3 * sizeof (double));
    }
  else if (pose->replace)
    sq_space_vector_from_sl (pose->space, pose->rest[joint], v);
}
