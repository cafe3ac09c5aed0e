/* sequin-cli-sims.c: `edit`'s options for the Sims world's own edits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Pose library poses (rename, duplicate, delete, move), the KFD's bounce
 * and start/end pose names, a CMX skill's name and duration: each option
 * makes the core's edit (worlds/sq-sims-edit.h), as the editor does.
 */
#include "config.h"

#include <string.h>

#include "sequin-cli-private.h"

/* "A=B" split at the first '=' (`last`: the last one) */
static gboolean
split_pair (const char *v,
            gboolean    last,
            char      **a,
            const char **b)
{
  const char *eq = v == NULL ? NULL : last ? strrchr (v, '=') : strchr (v, '=');

  if (eq == NULL)
    return FALSE;
  *a = g_strndup (v, eq - v);
  *b = eq + 1;
  return TRUE;
}

gboolean
cli_sims_option (int        argc,
                 char     **argv,
                 int       *i,
                 GPtrArray *edits,
                 gboolean  *bad)
{
  const char *a = argv[*i], *v = NULL, *b = NULL;
  g_autofree char *name = NULL;
  char *end = NULL;

  *bad = FALSE;
  if (strcmp (a, "--bounce") == 0 || strcmp (a, "--no-bounce") == 0)
    g_ptr_array_add (edits, sq_edit_sims_kfd_bounce_new (strcmp (a, "--bounce") == 0));
  else if (option_is (a, "--rename-pose") || option_is (a, "--duplicate-pose"))
    {
      gboolean dup = option_is (a, "--duplicate-pose");

      if (!split_pair (option_value (argc, argv, i, dup ? "--duplicate-pose" : "--rename-pose"), FALSE, &name, &b))
        *bad = usage_error (dup ? "--duplicate-pose needs NAME=NEW" : "--rename-pose needs OLD=NEW") != 0;
      else
        g_ptr_array_add (edits, dup ? sq_edit_sims_duplicate_pose_new (name, b) : sq_edit_sims_rename_pose_new (name, b));
    }
  else if (option_is (a, "--move-pose"))
    {
      guint64 n = 0;

      if (!split_pair (option_value (argc, argv, i, "--move-pose"), TRUE, &name, &b)
          || !g_ascii_string_to_unsigned (b, 10, 1, G_MAXUINT, &n, NULL))
        *bad = usage_error ("--move-pose needs NAME=PLACE (1 = the first)") != 0;
      else
        g_ptr_array_add (edits, sq_edit_sims_move_pose_new (name, (guint) (n - 1)));
    }
  else if (option_is (a, "--delete-pose"))
    {
      if ((v = option_value (argc, argv, i, "--delete-pose")) == NULL)
        *bad = usage_error ("--delete-pose needs NAME") != 0;
      else
        g_ptr_array_add (edits, sq_edit_sims_delete_pose_new (v));
    }
  else if (option_is (a, "--start-pose") || option_is (a, "--end-pose"))
    {
      gboolean is_end = option_is (a, "--end-pose");

      if ((v = option_value (argc, argv, i, is_end ? "--end-pose" : "--start-pose")) == NULL)
        *bad = usage_error (is_end ? "--end-pose needs NAME (\"\" for none)" : "--start-pose needs NAME (\"\" for none)") != 0;
      else
        g_ptr_array_add (edits, sq_edit_sims_kfd_pose_name_new (is_end, v));
    }
  else if (option_is (a, "--skill-name"))
    {
      if ((v = option_value (argc, argv, i, "--skill-name")) == NULL)
        *bad = usage_error ("--skill-name needs NAME") != 0;
      else
        g_ptr_array_add (edits, sq_edit_sims_skill_name_new (v));
    }
  else if (option_is (a, "--skill-duration"))
    {
      double ms = 0;

      if ((v = option_value (argc, argv, i, "--skill-duration")) == NULL || *v == '\0'
          || ((ms = g_ascii_strtod (v, &end)), *end != '\0'))
        *bad = usage_error ("--skill-duration needs MS (milliseconds)") != 0;
      else
        g_ptr_array_add (edits, sq_edit_sims_skill_duration_new (ms));
    }
  else
    return FALSE;
  return TRUE;
}
