/* sq-convert.c: a clip in one world's conventions, converted to another's
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The common space is Second Life's: metres, +X forward, +Y left, +Z up,
 * rotation keys as column-vector quaternions w, x, y, z. A format's space
 * (sq-convert.h) says how its numbers relate to that one:
 *
 *   Second Life .anim   metres, SL axes, quaternions as is        (formats.md 1.8)
 *   BVH                 inches (0.02540005 m, the viewer's factor), Y up:
 *                       SL (x, y, z) = BVH (z, x, y)               (formats.md 1.9)
 *   ActiveWorlds SEQ    metres (the SEQ spec), Y up, the avatar facing -Z:
 *                       SL (x, y, z) = SEQ (-z, x, y)              (formats.md 4.1)
 *   ActiveWorlds .x     the same avatar and axes, quaternions stored
 *                       conjugated (formats.md 3.5, 4.1)
 *
 * ASSUMPTION (UNCONFIRMED in formats.md): AW DirectX locations are taken in
 * metres like SEQ's.
 *
 * A basis change T maps a vector v to T v and a rotation q to T q T⁻¹; for a
 * proper T that keeps w and maps the vector part like any vector (for SL ⇄
 * BVH a cyclic permutation: (w, x, y, z)_bvh → (w, z, x, y)_sl); a mirror
 * (ActiveWorlds) negates it as well: (w, x, y, z)_seq → (w, z, -x, -y)_sl.
 */
#define G_LOG_DOMAIN "sq-convert"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "sq-convert.h"
#include "sq-fields.h"
#include "sq-math.h"
#include "sq-private.h"
#include "sq-retarget.h"
#include "sq-world.h"

/* The spaces themselves are defined in the worlds' homes (worlds/). */

/* ---- spaces ---------------------------------------------------------------- */

static int
space_det (const SqSpace *s)
{
  /* sign product times the parity of the permutation */
  int det = s->sign[0] * s->sign[1] * s->sign[2];
  int inversions = (s->axis[0] > s->axis[1]) + (s->axis[0] > s->axis[2]) + (s->axis[1] > s->axis[2]);
  return inversions % 2 ? -det : det;
}

void
sq_space_vector_to_sl (const SqSpace *space,
                       const double   in[3],
                       double         out[3])
{
  double v[3];

  for (int i = 0; i < 3; i++)
    v[space->axis[i]] = space->sign[i] * in[i] * space->metres_per_unit;
  memcpy (out, v, sizeof v);
}

void
sq_space_vector_from_sl (const SqSpace *space,
                         const double   in[3],
                         double         out[3])
{
  double v[3];

  for (int i = 0; i < 3; i++)
    v[i] = space->sign[i] * in[space->axis[i]] / space->metres_per_unit;
  memcpy (out, v, sizeof v);
}

void
sq_space_rotation_to_sl (const SqSpace *space,
                         const double   in[4],
                         double         out[4])
{
  double q[4];
  int det = space_det (space);

  q[0] = in[0];
  for (int i = 0; i < 3; i++)
    q[1 + space->axis[i]] = det * space->sign[i] * (space->conjugate ? -in[1 + i] : in[1 + i]);
  memcpy (out, q, sizeof q);
}

void
sq_space_rotation_from_sl (const SqSpace *space,
                           const double   in[4],
                           double         out[4])
{
  double q[4];
  int det = space_det (space);

  q[0] = in[0];
  for (int i = 0; i < 3; i++)
    {
      q[1 + i] = det * space->sign[i] * in[1 + space->axis[i]];
      if (space->conjugate)
        q[1 + i] = -q[1 + i];
    }
  memcpy (out, q, sizeof q);
}

static gboolean
spaces_equal (const SqSpace *a,
              const SqSpace *b)
{
  return a->metres_per_unit == b->metres_per_unit && a->conjugate == b->conjugate
         && memcmp (a->axis, b->axis, sizeof a->axis) == 0 && memcmp (a->sign, b->sign, sizeof a->sign) == 0;
}

static const char *
world_name (const SqSpace *space)
{
  return g_dgettext (GETTEXT_PACKAGE, space->world);
}

/* ---- joints ---------------------------------------------------------------- */

static gint32
joint_parent (const SqJoint *joint)
{
  GVariant *v = sq_props_get (joint->extra, "parent");

  if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_INT32))
    return g_variant_get_int32 (v);
  return -1;
}

/* Removes joint `index`, keeping the "parent" extras of the others pointing
 * at the same joints (its children move to its parent). */
static void
remove_joint_keep_tree (SqClip *clip,
                        gsize   index)
{
  gint32 gone_parent = joint_parent (&clip->joints[index]);
  gboolean tree = sq_props_get (clip->joints[index].extra, "parent") != NULL;

  sq_clip_remove_joint (clip, index);
  if (!tree)
    return;
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      gint32 p = joint_parent (&clip->joints[j]);
      if (sq_props_get (clip->joints[j].extra, "parent") == NULL)
        continue;
      if (p == (gint32) index)
        p = gone_parent;
      else if (p > (gint32) index)
        p--;
      sq_props_set (clip->joints[j].extra, "parent", g_variant_new_int32 (p));
    }
}

const char *
sq_loss_note (const char *line)
{
  if (line == NULL || !g_str_has_prefix (line, SQ_LOSS_NOTE))
    return NULL;
  return line + strlen (SQ_LOSS_NOTE);
}

const char *
sq_loss_renamed (const char *line)
{
  if (line == NULL || !g_str_has_prefix (line, SQ_LOSS_RENAMED))
    return NULL;
  return line + strlen (SQ_LOSS_RENAMED);
}

/* The name the conventions give a joint going from `source` to `target`
 * (the user map aside): NULL when the target has no counterpart. Within one
 * naming scheme every name stays; between the two ActiveWorlds schemes only
 * the spelling of a limb the ActiveWorlds tag table knows changes; across
 * worlds the joint table applies. */
static const char *
conventional_name (const char         *name,
                   const SqSpace      *source,
                   const SqSpace      *target,
                   const SqWorldHome  *world,
                   SqJointLookupFlags  flags)
{
  SqJointScheme scheme = target ? target->scheme : SQ_JOINT_SCHEME_NONE;

  if (scheme == SQ_JOINT_SCHEME_NONE || (source != NULL && source->scheme == scheme))
    return name;
  /* another spelling of one world's names (its home knows them) */
  if (source != NULL && source->world_id == target->world_id)
    return world != NULL && world->respell != NULL ? world->respell (name, scheme) : name;
  /* a name of the source's own scheme stands for its concept, even where
   * the target would take it as spelled (the Sims' NECK is ActiveWorlds'
   * neck, whose names ignore case) */
  if (source != NULL && source->scheme != SQ_JOINT_SCHEME_NONE && sq_joint_name_in_scheme (name, source->scheme))
    {
      SqJointConcept c;

      return sq_joint_concept_lookup (name, flags, &c) ? sq_joint_concept_name (&c, scheme) : NULL;
    }
  return sq_joint_name_for_scheme (name, scheme, flags);
}

static void
report_missing (const char    *name,
                const SqSpace *target,
                GPtrArray     *losses)
{
  _sq_loss (losses, _("joint “%s” has no %s counterpart; kept as “%s”"), name, world_name (target), name);
}

/* Renames the joints into the target's conventions (the user map first),
 * drops what the map drops and the later of two joints that end with one
 * name; every rename gets a line. */
static void
map_joint_names (SqClip            *clip,
                 const SqSpace     *source,
                 const SqSpace     *target,
                 const SqWorldHome *world,
                 const SqJointMap  *map,
                 gboolean          defer_missing,
                 GPtrArray        *losses)
{
  SqJointLookupFlags flags = sq_joint_lookup_flags (clip);
  g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *old_root = g_strdup (sq_clip_get_effective_root (clip));
  char *new_root = NULL;
  gsize j = 0;

  while (j < clip->n_joints)
    {
      SqJoint *joint = &clip->joints[j];
      const char *target_name = NULL;
      gboolean from_map = sq_joint_map_lookup (map, joint->name, &target_name);

      if (from_map && target_name == NULL)
        {
          _sq_loss (losses, _("joint “%s” left out (the joint map drops it)"), joint->name);
          remove_joint_keep_tree (clip, j);
          continue;
        }
      if (!from_map)
        {
          target_name = conventional_name (joint->name, source, target, world, flags);
          if (target_name == NULL)
            {
              /* a retarget may carry its turn into the joints below it */
              if (defer_missing)
                sq_props_set (joint->extra, "no-counterpart", g_variant_new_boolean (TRUE));
              else
                report_missing (joint->name, target, losses);
              target_name = joint->name;
            }
        }
      if (g_hash_table_contains (used, target_name))
        {
          _sq_loss (losses, _("joint “%s” would also be written as “%s”; the first joint with that name is kept and this one left out"),
                    joint->name, target_name);
          remove_joint_keep_tree (clip, j);
          continue;
        }
      g_hash_table_add (used, g_strdup (target_name));
      if (old_root != NULL && new_root == NULL && strcmp (joint->name, old_root) == 0)
        new_root = g_strdup (target_name);
      if (strcmp (target_name, joint->name) != 0)
        {
          char *name = g_strdup (target_name);
          _sq_loss (losses, SQ_LOSS_RENAMED "%s → %s", joint->name, name);
          g_free (joint->name);
          joint->name = name;
        }
      j++;
    }
  /* the header's root follows its joint */
  if (new_root != NULL && clip->root != NULL && clip->root[0] != '\0')
    {
      g_free (clip->root);
      clip->root = new_root;
    }
  else
    g_free (new_root);
}

/* ---- values ---------------------------------------------------------------- */

static void
convert_values (SqClip        *clip,
                const SqSpace *from,
                const SqSpace *to)
{
  if (spaces_equal (from, to))
    return;
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      SqJoint *joint = &clip->joints[j];

      for (guint c = 0; c < SQ_N_CHANNELS; c++)
        {
          SqTrack *track = &joint->tracks[c];
          SqKey *keys = sq_track_unpack (track);

          for (gsize k = 0; k < track->n_keys; k++)
            {
              double *v = keys[k].v;
              double sl[4];

              if (c == SQ_CHANNEL_ROTATION)
                {
                  sq_space_rotation_to_sl (from, v, sl);
                  sq_space_rotation_from_sl (to, sl, v);
                }
              else if (c == SQ_CHANNEL_TRANSLATION)
                {
                  sq_space_vector_to_sl (from, v, sl);
                  sq_space_vector_from_sl (to, sl, v);
                }
              else
                {
                  /* scale factors follow the axes, without unit or sign */
                  double s[3];
                  for (int i = 0; i < 3; i++)
                    s[from->axis[i]] = v[i];
                  for (int i = 0; i < 3; i++)
                    v[i] = s[to->axis[i]];
                }
            }
          /* the format's own notation no longer says these values */
          g_clear_pointer (&track->alt, g_free);
          if (track->present != NULL && c != SQ_CHANNEL_ROTATION)
            for (gsize k = 0; k < track->n_keys; k++)
              {
                guint8 sl_bits = 0, out = 0;
                for (int i = 0; i < 3; i++)
                  if (track->present[k] & (1u << i))
                    sl_bits |= 1u << from->axis[i];
                for (int i = 0; i < 3; i++)
                  if (sl_bits & (1u << to->axis[i]))
                    out |= 1u << i;
                track->present[k] = out;
              }
        }
    }
}

/* Rest offsets and End Sites between two formats that both keep a
 * hierarchy (glTF's metres into BVH's inches, say) */
static void
convert_rest_offsets (SqClip        *clip,
                      const SqSpace *from,
                      const SqSpace *to)
{
  static const char * const keys[] = { "offset", "end-site" };

  if (spaces_equal (from, to))
    return;
  for (gsize j = 0; j < clip->n_joints; j++)
    for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
      {
        GVariant *v = sq_props_get (clip->joints[j].extra, keys[i]);
        double in[3], sl[3], out[3];

        if (v == NULL || !g_variant_is_of_type (v, G_VARIANT_TYPE ("(ddd)")))
          continue;
        g_variant_get (v, "(ddd)", &in[0], &in[1], &in[2]);
        sq_space_vector_to_sl (from, in, sl);
        sq_space_vector_from_sl (to, sl, out);
        sq_props_set (clip->joints[j].extra, keys[i], g_variant_new ("(ddd)", out[0], out[1], out[2]));
      }
}

/* ---- hierarchy ------------------------------------------------------------- */

/* A joint no source places (no frame, no Second Life bone) gets this bone:
 * 10 cm along its parent's own bone, or straight up (+Z, Second Life axes)
 * from a parent that has none (the root), so no skeleton Sequin writes or
 * shows is degenerate; so does the End Site of every leaf of a hierarchy
 * Sequin builds (along the leaf's own bone). */
#define DEFAULT_BONE_METRES 0.1

/* The world whose limbs the joint table numbers (SqJointConcept.aw_tag),
 * NULL for none */
static const SqWorldHome *
tag_world (void)
{
  gsize n;
  const SqWorldHome * const *worlds = sq_worlds (&n);

  for (gsize i = 0; i < n; i++)
    if (worlds[i]->tag_parent != NULL)
      return worlds[i];
  return NULL;
}

/* Where each joint of a clip without a hierarchy sits, by its name: its
 * parent (the nearest ancestor the clip has, by the Second Life bone or the
 * ActiveWorlds tag its name stands for) and its rest offset from that
 * parent in metres, Second Life axes (the SL rest skeleton; `placed` FALSE
 * where the SL skeleton has no bone for it). Joints with no known place
 * hang from the root; their names go to `loose` (may be NULL), their count
 * to `n_loose`. Returns the root. */
static gssize
skeleton_guess (const SqClip *clip,
                gint32       *parent,
                double      (*offset)[3],
                gboolean     *placed,
                GString      *loose,
                guint        *n_loose)
{
  gsize n = clip->n_joints;
  g_autofree SqJointConcept *concepts = g_new0 (SqJointConcept, MAX (n, 1));
  g_autoptr(GHashTable) by_bone = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) by_tag = g_hash_table_new (NULL, NULL);
  SqJointLookupFlags flags = sq_joint_lookup_flags (clip);
  const SqWorldHome *bones = sq_world_common (), *tags = tag_world ();
  gint32 root = -1;

  if (n == 0)
    return -1;
  for (gsize j = 0; j < n; j++)
    {
      sq_joint_concept_lookup (clip->joints[j].name, flags, &concepts[j]);
      if (concepts[j].sl_bone != NULL && !g_hash_table_contains (by_bone, concepts[j].sl_bone))
        g_hash_table_insert (by_bone, (gpointer) concepts[j].sl_bone, GINT_TO_POINTER (j + 1));
      if (concepts[j].aw_tag != 0 && !g_hash_table_contains (by_tag, GUINT_TO_POINTER (concepts[j].aw_tag)))
        g_hash_table_insert (by_tag, GUINT_TO_POINTER (concepts[j].aw_tag), GINT_TO_POINTER (j + 1));
      if (root < 0 && ((concepts[j].sl_bone != NULL && g_strcmp0 (concepts[j].sl_bone, bones->root_bone) == 0)
                       || (tags != NULL && concepts[j].aw_tag == tags->root_tag)))
        root = (gint32) j;
    }
  if (root < 0)
    {
      gssize r = sq_clip_get_root_index (clip);
      root = r >= 0 && (gsize) r < n ? (gint32) r : 0;
    }

  for (gsize j = 0; j < n; j++)
    {
      double a[3], b[3];

      parent[j] = -1;
      offset[j][0] = offset[j][1] = offset[j][2] = 0;
      placed[j] = FALSE;
      if ((gint32) j == root)
        {
          placed[j] = TRUE;
          /* the pelvis at its rest height, so players show it standing */
          if (!bones->bone_rest_position (concepts[j].sl_bone, offset[j]))
            bones->bone_rest_position (bones->root_bone, offset[j]);
          continue;
        }
      if (concepts[j].sl_bone != NULL)
        for (const char *bone = bones->bone_parent (concepts[j].sl_bone); bone != NULL && parent[j] < 0;
             bone = bones->bone_parent (bone))
          parent[j] = GPOINTER_TO_INT (g_hash_table_lookup (by_bone, bone)) - 1;
      if (parent[j] < 0 && concepts[j].sl_bone == NULL && concepts[j].aw_tag != 0 && tags != NULL)
        {
          guint depth = 0;
          for (guint t = tags->tag_parent (concepts[j].aw_tag); t != 0 && parent[j] < 0 && depth++ < tags->max_tag;
               t = tags->tag_parent (t))
            parent[j] = GPOINTER_TO_INT (g_hash_table_lookup (by_tag, GUINT_TO_POINTER (t))) - 1;
        }
      if (parent[j] == (gint32) j)
        parent[j] = -1;
      if (parent[j] < 0)
        {
          parent[j] = root;
          (*n_loose)++;
          if (loose != NULL)
            g_string_append_printf (loose, "%s“%s”", loose->len > 0 ? ", " : "", clip->joints[j].name);
        }
      if (concepts[j].sl_bone != NULL && concepts[parent[j]].sl_bone != NULL
          && bones->bone_rest_position (concepts[j].sl_bone, a)
          && bones->bone_rest_position (concepts[parent[j]].sl_bone, b))
        {
          for (int k = 0; k < 3; k++)
            offset[j][k] = a[k] - b[k];
          placed[j] = TRUE;
        }
    }
  return root;
}

/* a 4×4 row-vector matrix product a·b (a applied first) */
static void
matrix_multiply (const double a[16],
                 const double b[16],
                 double       out[16])
{
  double m[16];

  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 4; c++)
      m[r * 4 + c] = a[r * 4] * b[c] + a[r * 4 + 1] * b[4 + c] + a[r * 4 + 2] * b[8 + c] + a[r * 4 + 3] * b[12 + c];
  memcpy (out, m, sizeof m);
}

static gboolean
matrix_turns (const double m[16])
{
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      if (fabs (m[r * 4 + c] - (r == c ? 1.0 : 0.0)) > 1e-6)
        return TRUE;
  return FALSE;
}

static void
append_name (GString    *list,
             guint      *count,
             const char *name)
{
  g_string_append_printf (list, "%s“%s”", list->len > 0 ? ", " : "", name);
  (*count)++;
}

/* The name a joint had in the source (sq_convert() keeps it in the
 * "source-name" extra while the joints are renamed): the name its frame has */
static const char *
source_name (const SqJoint *joint)
{
  GVariant *v = sq_props_get (joint->extra, "source-name");

  return v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_STRING) ? g_variant_get_string (v, NULL) : joint->name;
}

/* TRUE when a frame above frame `f` is a joint (a frame above the top
 * joint does not turn it away from its parent: it has none) */
static gboolean
parent_is_joint (const gint32 *fparent,
                 const gint32 *joint_of,
                 gint32        f)
{
  for (gint32 g = fparent[f]; g >= 0; g = fparent[g])
    if (joint_of[g] >= 0)
      return TRUE;
  return FALSE;
}

/* The root of a skeleton from a .x's frames: the top joint with the most
 * joints below it; the other top joints and the joints without a frame
 * hang from it, each reported. Returns -1 when no joint has a frame. */
static gssize
frames_root (const SqClip   *clip,
             gint32         *parent,
             double        (*offset)[3],
             const gboolean *placed,
             GPtrArray      *losses)
{
  gsize n = clip->n_joints;
  g_autofree gsize *below = NULL;
  g_autoptr(GString) frameless = g_string_new (NULL);
  g_autoptr(GString) tops = g_string_new (NULL);
  guint n_frameless = 0, n_tops = 0;
  gssize root = -1;

  below = g_new0 (gsize, n);
  for (gsize j = 0; j < n; j++)
    for (gint32 p = parent[j], d = 0; p >= 0 && d < (gint32) n; p = parent[p], d++)
      below[p]++;
  for (gsize j = 0; j < n; j++)
    if (placed[j] && parent[j] < 0 && (root < 0 || below[j] > below[root]))
      root = (gssize) j;
  if (root < 0)
    return -1;
  for (gsize j = 0; j < n; j++)
    {
      if ((gssize) j == root || parent[j] >= 0)
        continue;
      parent[j] = (gint32) root;
      if (!placed[j])
        append_name (frameless, &n_frameless, clip->joints[j].name);
      else
        {
          /* at its own place, seen from the root's */
          for (int k = 0; k < 3; k++)
            offset[j][k] -= offset[root][k];
          append_name (tops, &n_tops, clip->joints[j].name);
        }
    }
  if (n_tops > 0)
    _sq_loss (losses, ngettext ("joint %s is at the top of the file's frames, beside the ROOT “%s”: it is written under the ROOT, at its own place",
                                "joints %s are at the top of the file's frames, beside the ROOT “%s”: they are written under the ROOT, at their own places",
                                n_tops),
              tops->str, clip->joints[root].name);
  if (n_frameless > 0)
    _sq_loss (losses, ngettext ("joint %s has no frame in the file; it is written under the ROOT “%s”",
                                "joints %s have no frame in the file; they are written under the ROOT “%s”",
                                n_frameless),
              frameless->str, clip->joints[root].name);
  return root;
}

/* The skeleton of a DirectX file's own frames ("frames" extra of the .x
 * reader): a joint's parent is the nearest frame above its own that is a
 * joint too; its offset is the translation of its FrameTransformMatrix
 * composed with those of the frames in between (metres, Second Life axes).
 * The root is the top joint with the most joints below it; the other top
 * joints and the joints with no frame hang from it. Returns -1 when no
 * joint names a frame. */
static gssize
skeleton_from_frames (const SqClip *clip,
                      gint32       *parent,
                      double      (*offset)[3],
                      gboolean     *placed,
                      GPtrArray    *losses)
{
  GVariant *v = sq_props_get (clip->extra, "frames");
  gsize n = clip->n_joints, nf;
  g_autofree gint32 *fparent = NULL;
  g_autofree const double **fm = NULL;
  g_autofree double *matrices = NULL;
  g_autofree gint32 *joint_of = NULL;
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) turning = g_hash_table_new (NULL, NULL);
  g_autoptr(GString) turned = g_string_new (NULL);
  guint n_turned = 0;

  if (v == NULL || !g_variant_is_of_type (v, G_VARIANT_TYPE ("a(siad)")) || n == 0
      || clip->format == NULL || clip->format->space == NULL)
    return -1;
  nf = g_variant_n_children (v);
  fparent = g_new (gint32, MAX (nf, 1));
  fm = g_new0 (const double *, MAX (nf, 1));
  matrices = g_new (double, 16 * MAX (nf, 1));
  joint_of = g_new (gint32, MAX (nf, 1));
  for (gsize f = 0; f < nf; f++)
    {
      const char *name;
      g_autoptr(GVariant) m = NULL;
      gsize len;

      g_variant_get_child (v, f, "(&si@ad)", &name, &fparent[f], &m);
      fm[f] = NULL;
      if (g_variant_n_children (m) == 16)
        {
          memcpy (&matrices[16 * f], g_variant_get_fixed_array (m, &len, sizeof (double)), 16 * sizeof (double));
          fm[f] = &matrices[16 * f];
        }
      if (fparent[f] >= (gint32) f)
        fparent[f] = -1;   /* parents come first: no cycle */
      joint_of[f] = -1;
      if (!g_hash_table_contains (by_name, name))
        g_hash_table_insert (by_name, (gpointer) name, GSIZE_TO_POINTER (f + 1));
    }
  for (gsize j = 0; j < n; j++)
    {
      gsize f = GPOINTER_TO_SIZE (g_hash_table_lookup (by_name, source_name (&clip->joints[j])));
      if (f > 0 && joint_of[f - 1] < 0)
        joint_of[f - 1] = (gint32) j;
    }

  for (gsize j = 0; j < n; j++)
    {
      static const double identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
      gsize f = GPOINTER_TO_SIZE (g_hash_table_lookup (by_name, source_name (&clip->joints[j])));
      double m[16];
      gint32 g;

      parent[j] = -1;
      placed[j] = FALSE;
      offset[j][0] = offset[j][1] = offset[j][2] = 0;
      if (f == 0 || joint_of[f - 1] != (gint32) j)
        continue;
      memcpy (m, fm[f - 1] ? fm[f - 1] : identity, sizeof m);
      for (g = fparent[f - 1]; g >= 0 && joint_of[g] < 0; g = fparent[g])
        if (fm[g] != NULL)
          {
            /* a frame between two joints that turns them: only its
             * translation goes into the offset (each named once) */
            if (matrix_turns (fm[g]) && parent_is_joint (fparent, joint_of, g)
                && g_hash_table_add (turning, GINT_TO_POINTER (g + 1)))
              {
                const char *name;
                g_variant_get_child (v, g, "(&si@ad)", &name, NULL, NULL);
                append_name (turned, &n_turned, name);
              }
            matrix_multiply (m, fm[g], m);
          }
      parent[j] = g >= 0 ? joint_of[g] : -1;
      sq_space_vector_to_sl (clip->format->space, &m[12], offset[j]);
      placed[j] = TRUE;
    }
  if (n_turned > 0)
    _sq_loss (losses, ngettext ("frame %s is not animated and turns the joints below it: its place goes into their offsets, its turn is not kept",
                                "frames %s are not animated and turn the joints below them: their places go into the offsets, their turns are not kept",
                                n_turned),
              turned->str);

  return frames_root (clip, parent, offset, placed, losses);
}

/* Where each joint of a clip without a hierarchy of its own sits: its
 * parent and its rest offset from it (metres, Second Life axes), from the
 * file's frames (DirectX) when its joints name them, else from the names
 * (the Second Life skeleton); a joint neither places gets the default bone.
 * `from_frames` (may be NULL) says whether the frames gave it; `losses`
 * (may be NULL) gets a line for what was guessed. Returns the root. */
static gssize
skeleton_rest (const SqClip *clip,
               gboolean      use_frames,
               gint32       *parent,
               double      (*offset)[3],
               gboolean     *from_frames,
               GPtrArray    *losses)
{
  gsize n = clip->n_joints;
  g_autofree gboolean *placed = g_new0 (gboolean, MAX (n, 1));
  g_autofree double (*own)[3] = NULL;
  g_autoptr(GString) loose = g_string_new (NULL);
  g_autoptr(GString) defaulted = g_string_new (NULL);
  guint n_loose = 0, n_defaulted = 0;
  gssize root;

  if (n == 0)
    return -1;
  root = use_frames ? skeleton_from_frames (clip, parent, offset, placed, losses) : -1;
  if (from_frames != NULL)
    *from_frames = root >= 0;
  if (root < 0)
    {
      root = skeleton_guess (clip, parent, offset, placed, loose, &n_loose);
      if (n_loose > 0)
        _sq_loss (losses, ngettext ("joint %s has no known place in the skeleton; it is written under the ROOT “%s”",
                                    "joints %s have no known place in the skeleton; they are written under the ROOT “%s”",
                                    n_loose),
                  loose->str, clip->joints[root].name);
    }

  /* the default bone, along the parent's own bone as the sources gave it */
  own = g_memdup2 (offset, n * sizeof *offset);
  for (gsize j = 0; j < n; j++)
    {
      double dir[3] = { 0, 0, 1 }, len;
      gint32 p = parent[j];

      if (placed[j] || (gssize) j == root)
        continue;
      if (p >= 0 && p != root && placed[p]
          && (len = sqrt (own[p][0] * own[p][0] + own[p][1] * own[p][1] + own[p][2] * own[p][2])) > 1e-9)
        for (int k = 0; k < 3; k++)
          dir[k] = own[p][k] / len;
      for (int k = 0; k < 3; k++)
        offset[j][k] = DEFAULT_BONE_METRES * dir[k];
      append_name (defaulted, &n_defaulted, clip->joints[j].name);
    }
  if (n_defaulted > 0)
    _sq_loss (losses, ngettext ("joint %s has no rest offset from the file or the Second Life skeleton: it gets the default bone of 10 cm along its parent's bone (up from the ROOT)",
                                "joints %s have no rest offset from the file or the Second Life skeleton: each gets the default bone of 10 cm along its parent's bone (up from the ROOT)",
                                n_defaulted),
              defaulted->str);
  return root;
}

gssize
_sq_skeleton_rest (const SqClip *clip,
                   gint32       *parent,
                   double      (*offset)[3],
                   gboolean     *from_frames,
                   GPtrArray    *losses)
{
  return skeleton_rest (clip, TRUE, parent, offset, from_frames, losses);
}

gssize
_sq_skeleton_by_names (const SqClip *clip,
                       gint32       *parent,
                       double      (*offset)[3])
{
  return skeleton_rest (clip, FALSE, parent, offset, NULL, NULL);
}

gssize
_sq_skeleton_from_tree (const SqClip  *clip,
                        const SqSpace *space,
                        gint32        *parent,
                        double       (*offset)[3])
{
  gsize n = clip->n_joints;
  gssize root = -1;

  for (gsize j = 0; j < n; j++)
    {
      GVariant *off = sq_props_get (clip->joints[j].extra, "offset");
      double v[3] = { 0, 0, 0 };

      if (sq_props_get (clip->joints[j].extra, "parent") == NULL)
        return -1;
      parent[j] = joint_parent (&clip->joints[j]);
      if (parent[j] >= (gint32) n || parent[j] == (gint32) j)
        parent[j] = -1;
      if (parent[j] < 0 && root < 0)
        root = (gssize) j;
      if (off != NULL && g_variant_is_of_type (off, G_VARIANT_TYPE ("(ddd)")))
        g_variant_get (off, "(ddd)", &v[0], &v[1], &v[2]);
      sq_space_vector_to_sl (space, v, offset[j]);
    }
  return root;
}

/* Gives a clip without a hierarchy one (_sq_skeleton_rest: the file's
 * frames, else the Second Life skeleton its names stand for), rest offsets
 * in the target's units. The joints are reordered so every parent comes
 * before its children. */
static void
build_hierarchy (SqClip        *clip,
                 const SqSpace *to,
                 GPtrArray     *losses)
{
  gsize n = clip->n_joints;
  g_autofree gint32 *parent = g_new (gint32, MAX (n, 1));
  g_autofree double (*offset)[3] = g_malloc_n (MAX (n, 1), sizeof *offset);
  g_autofree gint32 *order = g_new (gint32, MAX (n, 1));
  g_autofree gint32 *new_index = g_new (gint32, MAX (n, 1));
  g_autofree SqJoint *joints = NULL;
  gint32 root;
  gsize w = 0;

  if (n == 0)
    return;
  root = (gint32) _sq_skeleton_rest (clip, parent, offset, NULL, losses);
  for (gsize j = 0; j < n; j++)
    sq_props_remove (clip->joints[j].extra, "source-name");

  /* parents first: depth-first from the root, children in clip order; a
   * joint that cannot be reached (a cycle) goes under the root */
  for (gsize j = 0; j < n; j++)
    new_index[j] = -1;
  {
    g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (gint32));
    g_array_append_val (stack, root);
    while (w < n)
      {
        gint32 j;
        if (stack->len == 0)
          {
            /* unreachable joints: under the root */
            for (gsize k = 0; k < n; k++)
              if (new_index[k] < 0)
                {
                  parent[k] = root;
                  j = (gint32) k;
                  g_array_append_val (stack, j);
                  break;
                }
          }
        j = g_array_index (stack, gint32, stack->len - 1);
        g_array_set_size (stack, stack->len - 1);
        if (new_index[j] >= 0)
          continue;
        new_index[j] = (gint32) w;
        order[w++] = j;
        for (gsize k = n; k > 0; k--)
          if (parent[k - 1] == j && new_index[k - 1] < 0 && (gint32) (k - 1) != root)
            {
              gint32 c = (gint32) (k - 1);
              g_array_append_val (stack, c);
            }
      }
  }

  /* offsets and the new order */
  joints = g_new (SqJoint, n);
  for (gsize i = 0; i < n; i++)
    {
      gint32 j = order[i];
      double off[3];

      joints[i] = clip->joints[j];
      sq_space_vector_from_sl (to, offset[j], off);
      sq_props_set (joints[i].extra, "parent",
                    g_variant_new_int32 (j == root ? -1 : new_index[parent[j]]));
      sq_props_set (joints[i].extra, "offset", g_variant_new ("(ddd)", off[0], off[1], off[2]));
    }
  memcpy (clip->joints, joints, n * sizeof (SqJoint));

  /* a leaf ends in an End Site: the default bone along its own bone (up
   * from a root that is a leaf), so not even a one-joint skeleton has no
   * length */
  {
    g_autofree gboolean *has_child = g_new0 (gboolean, n);

    for (gsize j = 0; j < n; j++)
      if (parent[j] >= 0 && (gint32) j != root)
        has_child[parent[j]] = TRUE;
    for (gsize j = 0; j < n; j++)
      {
        double dir[3] = { 0, 0, 1 }, end[3], len;

        if (has_child[j])
          continue;
        len = sqrt (offset[j][0] * offset[j][0] + offset[j][1] * offset[j][1] + offset[j][2] * offset[j][2]);
        if ((gint32) j != root && len > 1e-9)
          for (int k = 0; k < 3; k++)
            dir[k] = offset[j][k] / len;
        for (int k = 0; k < 3; k++)
          dir[k] *= DEFAULT_BONE_METRES;
        sq_space_vector_from_sl (to, dir, end);
        sq_props_set (clip->joints[new_index[j]].extra, "end-site", g_variant_new ("(ddd)", end[0], end[1], end[2]));
      }
  }
}

/* ---- time ------------------------------------------------------------------ */

/* Moves the keys onto the target's grid, once for the whole clip; keys that
 * land on a step already taken are dropped. */
static gboolean
on_grid (double t,
         double rate)
{
  return rate > 0 && fabs (t * rate - floor (t * rate + 0.5)) <= 1e-9 * MAX (1.0, fabs (t * rate));
}

/* Keys on a grid of `lossless` steps per second are left alone: the writer
 * keeps them recoverable (1/30 s frames written as whole milliseconds). */
static void
snap_times (SqClip     *clip,
            double      rate,
            double      lossless,
            const char *format_name,
            GPtrArray  *losses)
{
  guint moved = 0, dropped = 0;
  double max_shift = 0;

  if (!(rate > 0) || !isfinite (rate))
    return;
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        SqTrack *track = &clip->joints[j].tracks[c];
        SqKey *keys = sq_track_unpack (track);
        gsize out = 0;
        double last = -INFINITY, last_shift = 0;

        for (gsize k = 0; k < track->n_keys; k++)
          {
            double t = keys[k].time;
            double s = on_grid (t, lossless) ? t : floor (t * rate + 0.5) / rate;

            if (!isfinite (s))
              s = t;
            /* of the keys on one step the nearest stays (a 120 fps source
             * on 30 fps steps keeps frame 4 there, not frame 3, whose pose
             * would play a source frame late) */
            if (out > 0 && s == last && fabs (s - t) < last_shift)
              {
                out--;   /* this key takes the place of the one before */
                dropped++;
                moved -= last_shift > 1e-9;
              }
            else if (out > 0 && s <= last)
              {
                dropped++;
                continue;
              }
            last_shift = fabs (s - t);
            if (last_shift > 1e-9)
              {
                moved++;
                max_shift = MAX (max_shift, last_shift);
              }
            keys[out] = keys[k];
            keys[out].time = s;
            if (track->present != NULL)
              track->present[out] = track->present[k];
            if (track->alt != NULL)
              memmove (&track->alt[out * 4], &track->alt[k * 4], 4 * sizeof (double));
            last = s;
            out++;
          }
        track->n_keys = out;
      }
  if (clip->duration > 0 && !on_grid (clip->duration, lossless))
    {
      double d = floor (clip->duration * rate + 0.5) / rate;
      if (isfinite (d) && fabs (d - clip->duration) > 1e-6)
        {
          _sq_loss (losses, _("the duration %.6g s is rounded to %.6g s (steps of 1/%g s in %s)"),
                    clip->duration, d, rate, format_name);
          clip->duration = d;
        }
    }
  if (moved > 0)
    _sq_loss (losses, ngettext ("%u key time rounded to the nearest 1/%g s (the time steps of %s), moved by up to %.3g ms",
                                "%u key times rounded to the nearest 1/%g s (the time steps of %s), moved by up to %.3g ms",
                                moved),
              moved, rate, format_name, max_shift * 1000.0);
  if (dropped > 0)
    _sq_loss (losses, ngettext ("%u key left out: it would fall on the same step of %s as the key before",
                                "%u keys left out: they would fall on the same step of %s as the key before",
                                dropped),
              dropped, format_name);
}

/* ---- the conversion -------------------------------------------------------- */

/* The frame rate a clip's keys sit on, for a target that numbers frames
 * (BVH, .x): the clip's own when its keys fit it, else the smallest common
 * rate they all fall on (a .anim has no rate: its keys sit on 16-bit steps
 * of the duration; text SEQ keeps milliseconds), else 30. Within the
 * source's own time quantum. */
static gboolean
keys_fit_rate (const SqClip *clip,
               double        rate,
               double        tol)
{
  double d = clip->duration * rate;

  if (fabs (d - floor (d + 0.5)) > MAX (tol * rate, 1e-6 * MAX (1.0, d)))
    return FALSE;
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      for (gsize k = 0; k < clip->joints[j].tracks[c].n_keys; k++)
        {
          double t = sq_track_time (&clip->joints[j].tracks[c], k) * rate;
          if (fabs (t - floor (t + 0.5)) > MAX (tol * rate, 1e-6 * MAX (1.0, t)))
            return FALSE;
        }
  return TRUE;
}

static double
target_fps (const SqClip   *clip,
            const SqFormat *target)
{
  static const double rates[] = { 10, 12, 15, 20, 24, 25, 30, 48, 50, 60, 100, 120 };
  const SqSpace *from = clip->format->space, *to = target->space;
  double tol = 1e-9, fps = clip->fps;

  if (from->duration_steps > 0)
    tol = clip->duration / from->duration_steps + 1e-6;
  else if (from->time_grid > 120)
    tol = 0.5 / from->time_grid + 1e-9;   /* text SEQ's milliseconds */
  if (to->fps_max > 0)
    {
      /* whole numbers of frames a second, in the format's range */
      double r = floor (fps + 0.5);
      if (fps > 0 && isfinite (fps) && r >= to->fps_min && r <= to->fps_max && fabs (r - fps) < 1e-3
          && keys_fit_rate (clip, r, tol))
        return r;
    }
  else if (fps >= 1 && fps <= 1000 && isfinite (fps) && !(from->duration_steps > 0)
           && keys_fit_rate (clip, fps, tol))
    return fps;
  for (gsize r = 0; r < G_N_ELEMENTS (rates); r++)
    if (keys_fit_rate (clip, rates[r], tol))
      return rates[r];
  return 30.0;
}

/* ---- retargeting (sq-retarget.h) ----------------------------------------- */

/* The name the user's map gives joint j when the joint table does not
 * know its own (a rig's own "Kopf" → HEAD stands where HEAD's concept
 * stands), NULL when it gives none such */
static const char *
mapped_name (const SqClip       *clip,
             const SqJointMap   *map,
             SqJointLookupFlags  flags,
             gsize               j)
{
  const char *to = NULL;
  SqJointConcept c;

  if (sq_joint_map_lookup (map, clip->joints[j].name, &to) && to != NULL
      && !sq_joint_concept_lookup (clip->joints[j].name, flags, &c) && sq_joint_concept_lookup (to, 0, &c))
    return to;
  return NULL;
}

/* The clip's joints without their keys, named as mapped_name names them;
 * NULL when the map renames none */
static SqClip *
skeleton_as_mapped (const SqClip     *clip,
                    const SqJointMap *map)
{
  SqJointLookupFlags flags = sq_joint_lookup_flags (clip);
  gboolean any = FALSE;
  SqClip *names;

  for (gsize j = 0; j < clip->n_joints && !any; j++)
    any = mapped_name (clip, map, flags, j) != NULL;
  if (!any)
    return NULL;
  names = sq_clip_new ();
  names->format = clip->format;
  sq_props_free (names->extra);
  names->extra = sq_props_copy (clip->extra);
  g_free (names->root);
  names->root = g_strdup (clip->root);
  for (gsize j = 0; j < clip->n_joints; j++)
    {
      const char *to = mapped_name (clip, map, flags, j);
      SqJoint *joint = sq_clip_add_joint (names, to != NULL ? to : clip->joints[j].name);

      sq_props_free (joint->extra);
      joint->extra = sq_props_copy (clip->joints[j].extra);
    }
  return names;
}

/* The rest skeleton of the source when a conversion retargets, NULL when
 * it does not: within one world the rest poses are one, unless the source
 * brings a hierarchy of its own (motion capture). A format of no world
 * stands on Second Life's skeleton by its names where the other side is a
 * world of fixed bones; else it is not retargeted. */
static SqRest *
retarget_source_rest (const SqClip     *clip,
                      const SqFormat   *target,
                      const SqJointMap *map)
{
  g_autoptr(SqClip) mapped = NULL;
  const SqWorldHome *from = sq_format_get_world (clip->format), *to = sq_format_get_world (target);
  gboolean fixed = (from != NULL && from->fixed_skeleton) || (to != NULL && to->fixed_skeleton);
  g_autoptr(SqRest) rest = NULL;

  if ((from == NULL || to == NULL) && !fixed)
    return NULL;   /* both without a world, too */
  if ((from != NULL && from->rest_skeleton == NULL) || (to != NULL && to->rest_skeleton == NULL))
    return NULL;
  rest = _sq_rest_new (clip, clip->format);
  /* a rest by the names: by the names the map gives */
  if (!rest->from_file && (mapped = skeleton_as_mapped (clip, map)) != NULL)
    {
      _sq_rest_free (rest);
      rest = _sq_rest_new (mapped, clip->format);
    }
  if (from == to && !(rest->from_file && clip->format->space->hierarchy))
    return NULL;
  return g_steal_pointer (&rest);
}

static gint32
source_index (const SqJoint *joint)
{
  GVariant *v = sq_props_get (joint->extra, "source-index");

  return v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_INT32) ? g_variant_get_int32 (v) : -1;
}

/* Whether kept joint m (out's) has, in the source, source joint `s` above
 * it before any kept joint: it carries s's turn */
static gboolean
carries (const SqClip   *out,
         const SqRest   *src_rest,
         const gboolean *keep,
         gsize           m,
         gint32          s)
{
  gint32 n = (gint32) src_rest->n, c = source_index (&out->joints[m]), steps = 0;

  if (c < 0 || c >= n || !keep[c])
    return FALSE;
  for (gint32 p = src_rest->parent[c]; p >= 0 && p < n && steps++ < n; p = src_rest->parent[p])
    {
      if (p == s)
        return TRUE;
      if (keep[p])
        break;
    }
  return FALSE;
}

/* The kept joints that carry source joint `s`'s turn, named in a list */
static char *
carried_into (const SqClip   *out,
              const SqRest   *src_rest,
              const gboolean *keep,
              gint32          s)
{
  GString *into = g_string_new (NULL);

  for (gsize m = 0; m < out->n_joints; m++)
    if (carries (out, src_rest, keep, m, s))
      g_string_append_printf (into, "%s“%s”", into->len > 0 ? ", " : "", out->joints[m].name);
  return g_string_free (into, FALSE);
}

/* Whether source joint s ever turns from its rest */
static gboolean
turns_from_rest (const SqClip  *clip,
                 const SqRest  *rest,
                 gsize          s)
{
  const SqTrack *track = &clip->joints[s].tracks[SQ_CHANNEL_ROTATION];

  for (gsize k = 0; k < track->n_keys; k++)
    {
      double sl[4], dot = 0;

      sq_space_rotation_to_sl (clip->format->space, sq_track_key (track, k).v, sl);
      sq_quat_normalize (sl);
      for (int c = 0; c < 4; c++)
        dot += sl[c] * rest->rotation[s][c];
      if (fabs (dot) < 1 - 1e-6)
        return TRUE;
    }
  return FALSE;
}

/* A joint without a counterpart that no joint below carries: kept by its
 * name (reported), or left out when the target keeps its world's bones
 * only, or when it is a bone of a source world of fixed bones (reported
 * when it turns from its rest). Returns whether it stays. */
static gboolean
keep_uncarried (const SqClip       *clip,
                const SqRest       *src_rest,
                gint32              s,
                const char         *name,
                const SqSpace      *to,
                const SqWorldHome  *to_world,
                GPtrArray          *losses)
{
  const SqWorldHome *from_world = sq_format_get_world (clip->format);
  gboolean known = s >= 0 && (gsize) s < clip->n_joints;

  if (to_world != NULL && to_world->fixed_skeleton)
    _sq_loss (losses, _("joint “%s” has no place on the skeleton of %s: left out"), name, world_name (to));
  else if (known && from_world != NULL && from_world->fixed_skeleton)
    {
      if (turns_from_rest (clip, src_rest, (gsize) s))
        _sq_loss (losses, _("joint “%s” has no %s counterpart: its own turns are left out"),
                  name, world_name (to));
    }
  else
    {
      report_missing (name, to, losses);
      return TRUE;
    }
  return FALSE;
}

/* The joints without a counterpart: left out where the joints below them
 * carry their turn, else as keep_uncarried says; each reported */
static void
leave_out_carried (const SqClip      *clip,
                   const SqRest      *src_rest,
                   SqClip            *out,
                   const SqSpace     *to,
                   const SqWorldHome *to_world,
                   GPtrArray         *losses)
{
  gsize n = clip->n_joints;
  g_autofree gboolean *keep = g_new0 (gboolean, MAX (n, 1));
  g_autofree gboolean *carried = g_new0 (gboolean, MAX (n, 1));
  gsize k = 0;

  for (gsize j = 0; j < out->n_joints; j++)
    {
      gint32 s = source_index (&out->joints[j]);
      if (s >= 0 && (gsize) s < n && sq_props_get (out->joints[j].extra, "no-counterpart") == NULL)
        keep[s] = TRUE;
    }
  _sq_rest_carried (src_rest, keep, carried);
  while (k < out->n_joints)
    {
      gint32 s = source_index (&out->joints[k]);
      g_autofree char *into = NULL;

      if (sq_props_get (out->joints[k].extra, "no-counterpart") == NULL)
        {
          k++;
          continue;
        }
      if (s < 0 || (gsize) s >= n || !carried[s])
        {
          if (keep_uncarried (clip, src_rest, s, out->joints[k].name, to, to_world, losses))
            k++;
          else
            remove_joint_keep_tree (out, k);
          continue;
        }
      into = carried_into (out, src_rest, keep, s);
      _sq_loss (losses, _("joint “%s” has no %s counterpart: left out, its turn carried into %s"),
                out->joints[k].name, world_name (to), into);
      /* the header's root goes to the joint that carries it */
      if (g_strcmp0 (out->root, out->joints[k].name) == 0)
        {
          gsize m = 0;

          while (m < out->n_joints && !carries (out, src_rest, keep, m, s))
            m++;
          g_free (out->root);
          out->root = g_strdup (m < out->n_joints ? out->joints[m].name : "");
        }
      remove_joint_keep_tree (out, k);
    }
}

/* The translations of the joint of `out` from source joint `root`, times f */
static void
scale_root (SqClip *out,
            gssize  root,
            double  f)
{
  for (gsize k = 0; k < out->n_joints && f != 1.0; k++)
    if (source_index (&out->joints[k]) == (gint32) root)
      {
        SqTrack *track = &out->joints[k].tracks[SQ_CHANNEL_TRANSLATION];
        SqKey *keys = sq_track_unpack (track);

        for (gsize i = 0; i < track->n_keys; i++)
          for (int c = 0; c < 3; c++)
            keys[i].v[c] *= f;
        g_clear_pointer (&track->alt, g_free);
      }
}

/* Root motion from one avatar's size to the other's (and, where a world's
 * translations are whole offsets, from one rest place to the other) */
static void
scale_root_motion (const SqClip   *clip,
                   SqClip         *out,
                   const SqRest   *src_rest,
                   const SqRest   *tgt_rest,
                   const gint32   *index,
                   const SqFormat *target,
                   GPtrArray      *losses)
{
  double f = 1.0;

  if (src_rest->hip_height > 1e-6 && tgt_rest->hip_height > 1e-6 && src_rest->root >= 0)
    f = tgt_rest->hip_height / src_rest->hip_height;
  if (fabs (f - 1.0) < 1e-3)
    f = 1.0;
  if (src_rest->absolute || tgt_rest->absolute)
    _sq_retarget_root_motion (clip, src_rest, clip->format->space, out, index, tgt_rest, f);
  else
    scale_root (out, src_rest->root, f);
  if (f != 1.0)
    _sq_note (losses, _("root motion scaled by %.4g, the ratio of the hip heights (%.3g m in %s, %.3g m in the source)"),
              f, tgt_rest->hip_height, sq_format_get_name (target), src_rest->hip_height);
}

/* Moves the rotations of `out` (the source's joints renamed) from the
 * source's rest pose onto the target's */
static void
retarget_clip (const SqClip   *clip,
               const SqRest   *src_rest,
               SqClip         *out,
               const SqFormat *target,
               GPtrArray      *losses)
{
  g_autoptr(SqRest) tgt_rest = NULL;
  g_autofree gint32 *index = NULL;
  guint changed;

  leave_out_carried (clip, src_rest, out, target->space, sq_format_get_world (target), losses);
  tgt_rest = _sq_rest_new (out, target);
  index = g_new (gint32, MAX (out->n_joints, 1));
  for (gsize k = 0; k < out->n_joints; k++)
    {
      index[k] = source_index (&out->joints[k]);
      if (index[k] < 0 || (gsize) index[k] >= clip->n_joints)
        return;   /* cannot happen: every joint comes from the source */
    }
  changed = _sq_retarget (clip, src_rest, clip->format->space, out, index, tgt_rest);
  if (changed > 0)
    _sq_note (losses, ngettext ("%u joint retargeted from the rest pose of %s onto that of %s: its limb points the same way in the world",
                                "%u joints retargeted from the rest pose of %s onto that of %s: their limbs point the same way in the world",
                                changed),
              changed, sq_format_get_name (clip->format), sq_format_get_name (target));
  scale_root_motion (clip, out, src_rest, tgt_rest, index, target, losses);
}

/* Whether `out`, a copy of a clip of `from` (a format of `from_world`)
 * about to be converted to a format of `to_world`, keeps a hierarchy of
 * its own: a world of fixed bones keeps its world's, not the file's (it
 * goes with its rest rotations, which the retarget undoes), so its
 * "parent" and "offset" extras go */
static gboolean
own_hierarchy (SqClip            *out,
               const SqWorldHome *from_world,
               const SqWorldHome *to_world)
{
  const SqSpace *from = out->format->space;

  if (!from->hierarchy)
    return FALSE;
  if (from_world == NULL || !from_world->fixed_skeleton || from_world == to_world)
    return TRUE;
  for (gsize j = 0; j < out->n_joints; j++)
    {
      sq_props_remove (out->joints[j].extra, "parent");
      sq_props_remove (out->joints[j].extra, "offset");
    }
  return FALSE;
}

/* The name of the root of the clip's own hierarchy, NULL for none */
static char *
hierarchy_root (const SqClip *clip)
{
  for (gsize j = 0; j < clip->n_joints; j++)
    if (joint_parent (&clip->joints[j]) < 0 && sq_props_get (clip->joints[j].extra, "parent") != NULL)
      return g_strdup (clip->joints[j].name);
  return NULL;
}

static SqClip *
convert_clip (const SqClip     *clip,
              const SqFormat   *target,
              const SqJointMap *map,
              GPtrArray        *losses,
              GError          **error)
{
  g_autoptr(SqClip) out = NULL;
  g_autoptr(SqRest) src_rest = NULL;
  const SqSpace *from, *to;
  const SqWorldHome *to_world = sq_format_get_world (target);
  const SqWorldHome *from_world = sq_format_get_world (clip->format);
  g_autofree char *root_source = NULL;
  gboolean from_hierarchy;
  SqClip *imported;

  out = sq_clip_copy (clip);
  g_clear_pointer (&out->source, g_bytes_unref);

  from = clip->format ? clip->format->space : NULL;
  to = target->space;
  if (clip->format == NULL || clip->format == target || from == NULL || to == NULL)
    {
      /* the user's map only */
      if (sq_joint_map_size (map) > 0)
        map_joint_names (out, NULL, NULL, NULL, map, FALSE, losses);
      return g_steal_pointer (&out);
    }
  /* the target's own rule says how its translations move a joint */
  sq_props_remove (out->extra, SQ_TRANSLATIONS_ADD);
  from_hierarchy = own_hierarchy (out, from_world, to_world);
  root_source = hierarchy_root (clip);

  /* a DirectX file's frames give the rest skeleton: they go by the
   * joints' names in the file */
  if (to->hierarchy && !from_hierarchy && sq_props_get (clip->extra, "frames") != NULL)
    for (gsize j = 0; j < out->n_joints; j++)
      sq_props_set (out->joints[j].extra, "source-name", g_variant_new_string (out->joints[j].name));

  src_rest = retarget_source_rest (clip, target, map);
  for (gsize j = 0; j < out->n_joints && src_rest != NULL; j++)
    sq_props_set (out->joints[j].extra, "source-index", g_variant_new_int32 ((gint32) j));
  map_joint_names (out, from, to, sq_format_get_world (target), map, src_rest != NULL, losses);
  if (src_rest != NULL)
    retarget_clip (clip, src_rest, out, target, losses);
  for (gsize j = 0; j < out->n_joints; j++)
    {
      sq_props_remove (out->joints[j].extra, "source-index");
      sq_props_remove (out->joints[j].extra, "no-counterpart");
    }
  /* the target world's own importer, when it has one for the source */
  if (to_world != NULL && to_world->import_clip != NULL
      && (imported = to_world->import_clip (out, clip->format, target, root_source, losses)) != NULL)
    return imported;
  for (gsize j = 0; j < out->n_joints; j++)
    sq_props_remove (out->joints[j].extra, "retargeted");

  if (from_hierarchy && !to->hierarchy)
    _sq_loss (losses, _("the joint hierarchy (parents, rest OFFSETs, channel orders, End Sites) has no place in %s"),
              sq_format_get_name (target));

  convert_values (out, from, to);
  if (to->hierarchy && from_hierarchy)
    convert_rest_offsets (out, from, to);

  if (to->hierarchy && !from_hierarchy)
    build_hierarchy (out, to, losses);

  /* frame numbering and the time grid (a world that completes a clip
   * samples it on its own frames: sq_convert) */
  out->frame_base = to->frame_base;
  if (to_world != NULL && to_world->complete_clip != NULL && to_world != from_world)
    return g_steal_pointer (&out);
  if (to->time_grid < 0)
    {
      double fps = target_fps (clip, target);
      if (fps != out->fps || from_hierarchy != to->hierarchy)
        sq_props_remove (out->extra, "frame-time");
      out->fps = fps;
      if (to_world != NULL && to_world->after_frames != NULL)
        to_world->after_frames (out, clip->format, target, fps, losses);
      snap_times (out, fps, 0, sq_format_get_name (target), losses);
    }
  else if (to->time_grid > 0)
    {
      out->fps = 30.0;
      snap_times (out, to->time_grid, to->time_grid > 30 ? 30 : 0, sq_format_get_name (target), losses);
    }
  (void) error;
  return g_steal_pointer (&out);
}

SqClip *
sq_convert (const SqClip     *clip,
            const SqFormat   *target,
            const SqJointMap *map,
            GPtrArray        *losses,
            GError          **error)
{
  const SqWorldHome *from, *to;

  g_return_val_if_fail (clip != NULL, NULL);
  g_return_val_if_fail (target != NULL, NULL);

  from = sq_format_get_world (clip->format);
  to = sq_format_get_world (target);
  if (clip->format != NULL && clip->format != target && from != to)
    {
      g_autoptr(SqClip) out = NULL;

      if (from != NULL && from->check_convert != NULL && !from->check_convert (clip, target, error))
        return NULL;
      out = convert_clip (clip, target, map, losses, error);
      /* the target world makes it a whole clip of its own */
      if (out != NULL && to != NULL && to->complete_clip != NULL)
        return to->complete_clip (out, target, losses, error);
      return g_steal_pointer (&out);
    }
  return convert_clip (clip, target, map, losses, error);
}

SqClip *
_sq_convert_for_save (const SqClip        *clip,
                      const SqFormat      *format,
                      const SqSaveOptions *options,
                      GPtrArray           *losses,
                      GError             **error)
{
  const SqWorldHome *home = sq_format_get_world (format);
  g_autoptr(SqClip) instead = NULL;
  g_autoptr(GPtrArray) own_losses = NULL;
  SqClip *converted;

  if (home != NULL && home->before_convert != NULL)
    instead = home->before_convert (clip, format, options, losses);
  /* the world's after_convert reads the conversion's lines */
  if (losses == NULL && home != NULL && home->after_convert != NULL)
    losses = own_losses = g_ptr_array_new_with_free_func (g_free);
  converted = sq_convert (instead != NULL ? instead : clip, format, options->map, losses, error);
  if (converted != NULL && home != NULL && home->after_convert != NULL)
    home->after_convert (clip, format, converted, options, losses);
  return converted;
}
