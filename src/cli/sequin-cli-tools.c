/* sequin-cli-tools.c: the animator's tools on the command line: the motion
 * edit options and `diff`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sequin-cli"

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sq-core.h"
#include "sq-diff.h"
#include "sequin-cli-private.h"

/* "A" or "A,B", finite numbers; *n gets how many */
static gboolean
parse_numbers (const char *text,
               double      v[2],
               guint       max,
               guint      *n)
{
  g_auto(GStrv) parts = NULL;

  if (text == NULL)
    return FALSE;
  parts = g_strsplit (text, ",", -1);
  *n = g_strv_length (parts);
  if (*n < 1 || *n > max)
    return FALSE;
  for (guint k = 0; k < *n; k++)
    {
      char *end = NULL;

      if (parts[k][0] == '\0')
        return FALSE;
      v[k] = g_ascii_strtod (parts[k], &end);
      if (*end != '\0' || !isfinite (v[k]))
        return FALSE;
    }
  return TRUE;
}

/* The value of option `name` at argv[*i] ("--name=V" or "--name V") */
static const char *
value_of (int         argc,
          char      **argv,
          int        *i,
          const char *name)
{
  gsize n = strlen (name);

  if (argv[*i][n] == '=')
    return argv[*i] + n + 1;
  if (*i + 1 < argc)
    return argv[++*i];
  return NULL;
}

static gboolean
is_option (const char *arg,
           const char *name,
           gboolean    takes_value)
{
  gsize n = strlen (name);

  return strncmp (arg, name, n) == 0 && (arg[n] == '\0' || (takes_value && arg[n] == '='));
}

gboolean
cli_motion_option (int        argc,
                   char     **argv,
                   int       *i,
                   GPtrArray *edits,
                   gboolean  *bad)
{
  static const struct
  {
    const char *name;
    guint       min, max;     /* numbers the value holds; 0: no value */
    const char *usage;
  } options[] = {
    { "--mirror", 0, 0, NULL },
    { "--resample", 1, 1, "--resample needs FPS (frames per second)" },
    { "--speed", 1, 1, "--speed needs FACTOR (a number)" },
    { "--trim", 2, 2, "--trim needs START,END (seconds)" },
    { "--reverse", 0, 0, NULL },
    { "--reduce", 1, 2, "--reduce needs DEG[,DIST] (degrees, file units)" },
    { "--close-loop", 0, 0, NULL },
  };
  const char *a = argv[*i];
  double v[2] = { 0, 0 };
  guint n = 0, o;

  *bad = FALSE;
  for (o = 0; o < G_N_ELEMENTS (options); o++)
    if (is_option (a, options[o].name, options[o].max > 0))
      break;
  if (o == G_N_ELEMENTS (options))
    return FALSE;
  if (options[o].max > 0)
    {
      const char *text = value_of (argc, argv, i, options[o].name);

      if (!parse_numbers (text, v, options[o].max, &n) || n < options[o].min)
        {
          usage_error ("%s", options[o].usage);
          *bad = TRUE;
          return TRUE;
        }
    }
  switch (o)
    {
    case 0: g_ptr_array_add (edits, sq_edit_mirror_new ()); break;
    case 1: g_ptr_array_add (edits, sq_edit_resample_new (v[0])); break;
    case 2: g_ptr_array_add (edits, sq_edit_speed_new (v[0])); break;
    case 3: g_ptr_array_add (edits, sq_edit_trim_new (v[0], v[1])); break;
    case 4: g_ptr_array_add (edits, sq_edit_reverse_new ()); break;
    case 5: g_ptr_array_add (edits, sq_edit_reduce_new (v[0], v[1])); break;
    case 6: g_ptr_array_add (edits, sq_edit_close_loop_new ()); break;
    default: g_assert_not_reached ();
    }
  return TRUE;
}

void
cli_print_report (const char   *path,
                  const SqEdit *edit)
{
  const char *report = sq_edit_get_report (edit);

  if (report != NULL)
    printf ("%s: %s: %s\n", path, sq_edit_get_label (edit), report);
}

gboolean
cli_print_loss (const char   *path,
                const SqClip *clip)
{
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(SqDiff) diff = sq_diff_sl_loss (clip, losses, &error);

  if (diff == NULL)
    {
      fail_file (path, error);
      return FALSE;
    }
  for (guint i = 0; i < losses->len; i++)
    printf ("%s: loss: %s\n", path, (const char *) losses->pdata[i]);
  printf ("%s: loss: largest rotation error %.4g°, position error %.4g m\n", path, diff->rotation,
          diff->translation);
  for (guint i = 0; i < diff->joints->len; i++)
    {
      const SqJointDiff *d = &g_array_index (diff->joints, SqJointDiff, i);

      if (d->in_a && d->in_b)
        printf ("%s: loss: %s: rotation %.4g° at %.4g s, position %.4g m at %.4g s\n", path, d->name,
                d->rotation, d->rotation_time, d->translation, d->translation_time);
      else
        printf ("%s: loss: %s: %s\n", path, d->name, d->in_a ? "left out" : "added");
    }
  return TRUE;
}

/* sequin-cli diff [--json] [--tolerance DEG[,DIST]] A B */
int
cli_diff (int    argc,
          char **argv)
{
  const char *paths[2] = { NULL, NULL };
  guint n_paths = 0, n;
  gboolean json = FALSE;
  double tolerance[2] = { 0, 0 };
  g_autoptr(SqClip) a = NULL;
  g_autoptr(SqClip) b = NULL;
  g_autoptr(SqDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  for (int i = 0; i < argc; i++)
    {
      if (strcmp (argv[i], "--json") == 0)
        json = TRUE;
      else if (is_option (argv[i], "--tolerance", TRUE))
        {
          if (!parse_numbers (value_of (argc, argv, &i, "--tolerance"), tolerance, 2, &n)
              || tolerance[0] < 0 || tolerance[1] < 0)
            return usage_error ("--tolerance needs DEG[,DIST] (numbers ≥ 0)");
        }
      else if (argv[i][0] == '-' && argv[i][1] != '\0')
        return usage_error ("diff: unknown option “%s”", argv[i]);
      else if (n_paths < 2)
        paths[n_paths++] = argv[i];
      else
        return usage_error ("diff takes two files, A and B");
    }
  if (n_paths != 2)
    return usage_error ("diff takes two files, A and B");

  for (guint k = 0; k < 2; k++)
    {
      SqClip *clip = load_file (paths[k], &error);

      if (clip == NULL)
        return fail_file (paths[k], error);
      *(k ? &b : &a) = clip;
    }
  if ((diff = sq_diff_clips (a, b, &error)) == NULL)
    return fail_file (paths[1], error);
  text = json ? sq_diff_to_json (diff) : sq_diff_to_text (diff);
  fputs (text, stdout);
  return sq_diff_within (diff, tolerance[0], tolerance[1]) ? 0 : EXIT_BAD_INPUT;
}
