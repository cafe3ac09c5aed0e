/* sequin-cli-layers.c: `layers A B … --at T`: which animation sets each
 * joint when they play together (sq-layers.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sequin-cli"

#include "config.h"

#include <math.h>
#include <stdio.h>

#include "sequin-cli-private.h"

static gboolean
set_at (const CliOption *option,
        const char      *value,
        CliRequest      *request,
        GError         **error)
{
  double v;
  guint n;

  if (!cli_parse_numbers (value, ',', &v, 1, 1, &n) || v < 0)
    return cli_refuse (option, error);
  request->at = v;
  request->at_given = TRUE;
  return TRUE;
}

/* One line per joint any file animates: the joint, the winning file, why */
static int
cmd_layers (CliRequest *request)
{
  g_autoptr(SqLayers) layers = sq_layers_new ();
  g_autoptr(GArray) joints = NULL;

  if (request->files->len < 1)
    return usage_error ("layers needs at least one FILE");
  for (guint i = 0; i < request->files->len; i++)
    {
      const char *path = request->files->pdata[i];
      g_autoptr(SqClip) clip = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *name = g_path_get_basename (path);

      if ((clip = load_file (path, 0, &error)) == NULL || !cli_skip_frames (request, clip, &error)
          || !sq_layers_add (layers, clip, name, 0.0, &error))
        return fail_file (path, error);
      print_warnings (path, clip);
    }
  joints = sq_layers_resolve (layers, request->at);
  for (guint i = 0; i < joints->len; i++)
    {
      const SqLayerJoint *j = &g_array_index (joints, SqLayerJoint, i);
      g_autofree char *why = sq_layers_explain (layers, j);

      printf ("%-18s %-16s %s\n", j->joint, j->winner >= 0 ? sq_layers_get_name (layers, j->winner) : "-", why);
    }
  return 0;
}

static const CliOption layers_options[] = {
  { "at", 0, CLI_ARG_REQUIRED, "T", "the time in seconds, from when they all start (default 0)", set_at, 0,
    NULL, 0, 0, "--at needs T, a time in seconds from 0" },
};

static const CliSection layers_sections[] = {
  { NULL, layers_options, G_N_ELEMENTS (layers_options) },
  { NULL, &cli_skip_frames_option, 1 },
  { NULL, &cli_help_option, 1 },
};

const CliCommandSpec cli_layers_command = {
  "layers", "FILE… [--at T]", (const char *[]) { "layers [--at T] FILE…", NULL },
  "Plays the files together on one Second Life avatar, started in the order given, and tells per joint which "
  "one the viewer shows at T.",
  "Each line: the joint, the file that sets it, and why (its priority over the next file's, the joint's own\n"
  "priority, or at equal priority the file started last; while a file eases in or out the others blend in).\n"
  "The viewer's own abdomen motion, breathing, hands and face are not simulated.",
  layers_sections, G_N_ELEMENTS (layers_sections), cmd_layers,
};
