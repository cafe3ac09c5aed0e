/* test-aw-skeleton.c: ActiveWorlds limb names and tags
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "worlds/sq-aw-skeleton.h"

static void
test_spellings (void)
{
  /* classic, aw_ frame name and the DX example's spelling meet on one tag */
  g_assert_cmpuint (sq_aw_tag_for_name ("lfhip"), ==, 19);
  g_assert_cmpuint (sq_aw_tag_for_name ("aw_lfhip"), ==, 19);
  g_assert_cmpuint (sq_aw_tag_for_name ("aw_hip_l"), ==, 19);
  g_assert_cmpuint (sq_aw_tag_for_name ("AW_Hip_L"), ==, 19);
  g_assert_cmpuint (sq_aw_tag_for_name ("aw_wrist_r"), ==, 8);
  g_assert_cmpuint (sq_aw_tag_for_name ("obj"), ==, 28);
  g_assert_cmpuint (sq_aw_tag_for_name ("obj1"), ==, 28);
  g_assert_cmpuint (sq_aw_tag_for_name ("aw_neck2"), ==, 23);
  g_assert_cmpuint (sq_aw_tag_for_name ("aw_lipupper"), ==, 39);
  g_assert_cmpuint (sq_aw_tag_for_name ("aw_lf5finger2"), ==, 78);
  g_assert_cmpuint (sq_aw_tag_for_name ("mPelvis"), ==, 0);
  g_assert_cmpuint (sq_aw_tag_for_name ("aw_"), ==, 0);
  g_assert_cmpuint (sq_aw_tag_for_name (""), ==, 0);
  g_assert_cmpuint (sq_aw_tag_for_name (NULL), ==, 0);

  /* the classic lookup ignores aw_ names */
  g_assert_cmpuint (sq_aw_joint_tag ("aw_lfhip"), ==, 0);
  g_assert_cmpstr (sq_aw_joint_name (1), ==, "pelvis");
  g_assert_cmpstr (sq_aw_joint_name (42), ==, "lfear");
  g_assert_null (sq_aw_joint_name (43));
  g_assert_null (sq_aw_joint_name (0));
}

static void
test_hierarchy (void)
{
  /* every tag with a parent reaches the pelvis without a cycle */
  for (guint t = 1; t <= SQ_AW_MAX_TAG; t++)
    {
      guint p = t, steps = 0;

      if (sq_aw_seq_name (t) == NULL && sq_aw_dx_name (t) == NULL)
        {
          g_assert_cmpuint (sq_aw_parent_tag (t), ==, 0);
          continue;
        }
      while (p != 1 && steps++ < SQ_AW_MAX_TAG)
        {
          p = sq_aw_parent_tag (p);
          g_assert_cmpuint (p, !=, 0);
        }
      g_assert_cmpuint (p, ==, 1);
    }
  g_assert_cmpuint (sq_aw_parent_tag (1), ==, 0);
  g_assert_cmpuint (sq_aw_parent_tag (56), ==, 55);
  g_assert_cmpstr (sq_aw_dx_name (55), ==, "aw_back2");
  g_assert_null (sq_aw_dx_name (51));
  g_assert_null (sq_aw_dx_name (SQ_AW_MAX_TAG + 1));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/aw-skeleton/spellings", test_spellings);
  g_test_add_func ("/aw-skeleton/hierarchy", test_hierarchy);
  return g_test_run ();
}
