/* sq-aw-skeleton.c: the ActiveWorlds avatar's limb names and tags
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The table is formats.md 4 (AW 5.1 RWX help "Tag", the SEQ spec's joint
 * table, wiki "Skinned avatars") and 3.6 (the DX example's limb names).
 */
#include "config.h"

#include <string.h>

#include "worlds/sq-aw-skeleton.h"

typedef struct
{
  const char *seq;              /* classic SEQ name, NULL for none */
  const char *dx;               /* skinned frame name, NULL for none known */
  guint8      parent;           /* skinned hierarchy parent tag, 0 for none */
} Limb;

static const Limb limbs[SQ_AW_MAX_TAG + 1] = {
  [1] = { "pelvis", "aw_pelvis", 0 },
  [2] = { "back", "aw_back", 1 },
  [3] = { "neck", "aw_neck", 55 },
  [4] = { "head", "aw_head", 3 },
  [5] = { "rtsternum", "aw_rtsternum", 55 },
  [6] = { "rtshoulder", "aw_rtshoulder", 5 },
  [7] = { "rtelbow", "aw_rtelbow", 6 },
  [8] = { "rtwrist", "aw_rtwrist", 7 },
  [9] = { "rtfingers", NULL, 8 },
  [10] = { "lfsternum", "aw_lfsternum", 55 },
  [11] = { "lfshoulder", "aw_lfshoulder", 10 },
  [12] = { "lfelbow", "aw_lfelbow", 11 },
  [13] = { "lfwrist", "aw_lfwrist", 12 },
  [14] = { "lffingers", NULL, 13 },
  [15] = { "rthip", "aw_rthip", 1 },
  [16] = { "rtknee", "aw_rtknee", 15 },
  [17] = { "rtankle", "aw_rtankle", 16 },
  [18] = { "rttoes", "aw_rttoes", 17 },
  [19] = { "lfhip", "aw_lfhip", 1 },
  [20] = { "lfknee", "aw_lfknee", 19 },
  [21] = { "lfankle", "aw_lfankle", 20 },
  [22] = { "lftoes", "aw_lftoes", 21 },
  /* 23-30: the SEQ spec gives their usual parents (neck2 hinges the neck,
   * the tail hangs from the pelvis, props from any limb: pelvis here) */
  [23] = { "neck2", NULL, 3 },
  [24] = { "tail", NULL, 1 },
  [25] = { "tail2", NULL, 24 },
  [26] = { "tail3", NULL, 25 },
  [27] = { "tail4", NULL, 26 },
  [28] = { "obj1", NULL, 1 },
  [29] = { "obj2", NULL, 1 },
  [30] = { "obj3", NULL, 1 },
  [31] = { "hair", "aw_hair", 4 },
  [32] = { "hair2", "aw_hair2", 31 },
  [33] = { "hair3", "aw_hair3", 32 },
  [34] = { "hair4", NULL, 33 },
  [35] = { "rtbreast", "aw_rtbreast", 56 },
  [36] = { "lfbreast", "aw_lfbreast", 56 },
  [37] = { "rteye", "aw_rteye", 4 },
  [38] = { "lfeye", NULL, 4 },
  [39] = { "lips", "aw_lipupper", 4 },
  [40] = { "nose", NULL, 4 },
  [41] = { "rtear", NULL, 4 },
  [42] = { "lfear", NULL, 4 },
  [43] = { NULL, "aw_rtbrow", 4 },
  [44] = { NULL, "aw_lfbrow", 4 },
  [45] = { NULL, "aw_rtlid", 4 },
  [46] = { NULL, "aw_lflid", 4 },
  [47] = { NULL, "aw_rtcheek", 4 },
  [48] = { NULL, "aw_lfcheek", 4 },
  [49] = { NULL, "aw_rtlipupper", 47 },
  [50] = { NULL, "aw_lflipupper", 48 },
  [54] = { NULL, "aw_chin", 4 },
  [55] = { NULL, "aw_back2", 2 },
  [56] = { NULL, "aw_chest", 55 },
  [57] = { NULL, "aw_rtbrowouter", 4 },
  [58] = { NULL, "aw_lfbrowouter", 4 },
  [59] = { NULL, "aw_rt1finger1", 8 },
  [60] = { NULL, "aw_rt1finger2", 59 },
  [61] = { NULL, "aw_rt2finger1", 8 },
  [62] = { NULL, "aw_rt2finger2", 61 },
  [63] = { NULL, "aw_rt3finger1", 8 },
  [64] = { NULL, "aw_rt3finger2", 63 },
  [65] = { NULL, "aw_rt4finger1", 8 },
  [66] = { NULL, "aw_rt4finger2", 65 },
  [67] = { NULL, "aw_rt5finger1", 8 },
  [68] = { NULL, "aw_rt5finger2", 67 },
  [69] = { NULL, "aw_lf1finger1", 13 },
  [70] = { NULL, "aw_lf1finger2", 69 },
  [71] = { NULL, "aw_lf2finger1", 13 },
  [72] = { NULL, "aw_lf2finger2", 71 },
  [73] = { NULL, "aw_lf3finger1", 13 },
  [74] = { NULL, "aw_lf3finger2", 73 },
  [75] = { NULL, "aw_lf4finger1", 13 },
  [76] = { NULL, "aw_lf4finger2", 75 },
  [77] = { NULL, "aw_lf5finger1", 13 },
  [78] = { NULL, "aw_lf5finger2", 77 },
};

/* The DX example's spellings (formats.md 3.6): aw_<limb>_<side> */
static const struct { const char *name; guint8 tag; } dx_example_names[] = {
  { "aw_hip_l", 19 }, { "aw_knee_l", 20 }, { "aw_ankle_l", 21 }, { "aw_toes_l", 22 },
  { "aw_hip_r", 15 }, { "aw_knee_r", 16 }, { "aw_ankle_r", 17 }, { "aw_toes_r", 18 },
  { "aw_sternum_l", 10 }, { "aw_shoulder_l", 11 }, { "aw_elbow_l", 12 }, { "aw_wrist_l", 13 },
  { "aw_sternum_r", 5 }, { "aw_shoulder_r", 6 }, { "aw_elbow_r", 7 }, { "aw_wrist_r", 8 },
};

guint
sq_aw_joint_tag (const char *name)
{
  if (name == NULL)
    return 0;
  /* tag 28 is "obj" in the AW 5.1 help and "obj1" in the SEQ page */
  if (g_ascii_strcasecmp (name, "obj") == 0)
    return 28;
  for (guint t = 1; t <= 42; t++)
    if (g_ascii_strcasecmp (limbs[t].seq, name) == 0)
      return t;
  return 0;
}

guint
sq_aw_tag_for_name (const char *name)
{
  guint tag = sq_aw_joint_tag (name);

  if (tag != 0 || name == NULL || g_ascii_strncasecmp (name, "aw_", 3) != 0)
    return tag;
  for (guint t = 1; t <= SQ_AW_MAX_TAG; t++)
    if (limbs[t].dx != NULL && g_ascii_strcasecmp (limbs[t].dx, name) == 0)
      return t;
  for (gsize i = 0; i < G_N_ELEMENTS (dx_example_names); i++)
    if (g_ascii_strcasecmp (dx_example_names[i].name, name) == 0)
      return dx_example_names[i].tag;
  /* "aw_" + a classic name: aw_neck2, aw_tail, aw_obj1 … */
  return sq_aw_joint_tag (name + 3);
}

const char *
sq_aw_seq_name (guint tag)
{
  return tag >= 1 && tag <= SQ_AW_MAX_TAG ? limbs[tag].seq : NULL;
}

const char *
sq_aw_joint_name (guint tag)
{
  return sq_aw_seq_name (tag);
}

const char *
sq_aw_dx_name (guint tag)
{
  return tag >= 1 && tag <= SQ_AW_MAX_TAG ? limbs[tag].dx : NULL;
}

guint
sq_aw_parent_tag (guint tag)
{
  return tag >= 1 && tag <= SQ_AW_MAX_TAG ? limbs[tag].parent : 0;
}

/* +1: joint j hangs from the left shoulder, -1: from the right, 0: neither */
static int
arm_side (gsize         n,
          const guint  *tags,
          const gint32 *parent,
          gsize         j)
{
  gsize steps = 0;

  for (gint32 p = parent[j]; p >= 0 && (gsize) p < n && steps++ < n; p = parent[p])
    {
      if (tags[p] == 11)
        return 1;
      if (tags[p] == 6)
        return -1;
    }
  return 0;
}

void
sq_aw_rest_arms_down (gsize         n,
                      const guint  *tags,
                      const gint32 *parent,
                      double      (*offset)[3])
{
  for (gsize j = 0; j < n; j++)
    {
      int side = arm_side (n, tags, parent, j);
      double y = offset[j][1], z = offset[j][2];

      /* left arm: +Y (out to the side) becomes -Z (down), a turn of -90°
       * about +X; right arm: -Y becomes -Z, +90° */
      if (side > 0)
        {
          offset[j][1] = z;
          offset[j][2] = -y;
        }
      else if (side < 0)
        {
          offset[j][1] = -z;
          offset[j][2] = y;
        }
    }
}
