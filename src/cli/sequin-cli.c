/* sequin-cli.c: the command-line tool, on the same core as the editor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Exit status: 0 success, 1 bad input / failed validation / failed write,
 * 2 bad usage.
 */
#define G_LOG_DOMAIN "sequin-cli"

#include "config.h"

#include <errno.h>
#include <glib.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sq-core.h"
#include "sq-io.h"
#include "sequin-cli-private.h"

/* the command being run, for the hint after a usage error */
static const char *help_command;

int
usage_error (const char *format,
             ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_printerr ("sequin-cli: %s\n", msg);
  g_printerr ("Try “sequin-cli%s%s --help”.\n", help_command ? " " : "", help_command ? help_command : "");
  return EXIT_USAGE;
}

/* A companion file (a CMX skill's CFP) beside the file being read: the
 * name as given, else the one entry of the folder that matches it ignoring
 * case (the game's file names vary in case) */
static GBytes *
read_companion (const char *name,
                gpointer    user_data,
                GError    **error)
{
  g_autofree char *dir = g_path_get_dirname (user_data);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GDir) d = NULL;
  char *contents = NULL;
  gsize len = 0;
  const char *entry;

  if (strchr (name, '/') != NULL || g_str_equal (name, "..") || g_str_equal (name, "."))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "the name “%s” is not a file beside it", name);
      return NULL;
    }
  if (!g_file_test (path, G_FILE_TEST_EXISTS) && (d = g_dir_open (dir, 0, NULL)) != NULL)
    while ((entry = g_dir_read_name (d)) != NULL)
      if (g_ascii_strcasecmp (entry, name) == 0)
        {
          g_free (path);
          path = g_build_filename (dir, entry, NULL);
          break;
        }
  if (!g_file_get_contents (path, &contents, &len, error))
    return NULL;
  return g_bytes_new_take (contents, len);
}

SqClip *
load_file (const char *path,
           guint       take,
           GError    **error)
{
  SqLoadOptions options = { 0 };
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *dir = g_path_get_dirname (path);

  /* a save of a skill killed half way there is finished first */
  sq_io_finish_saves (dir);
  mapped = g_mapped_file_new (path, FALSE, &local);
  if (mapped == NULL)
    {
      /* empty files and pipes cannot be mapped: read them */
      char *contents = NULL;
      gsize len = 0;

      if (!g_file_get_contents (path, &contents, &len, error))
        return NULL;
      bytes = g_bytes_new_take (contents, len);
    }
  else
    bytes = g_mapped_file_get_bytes (mapped);

  options.take = take;
  options.companion = read_companion;
  options.companion_data = (gpointer) path;
  return sq_load_bytes (bytes, path, NULL, &options, error);
}

void
print_warnings (const char *path,
                const SqClip *clip)
{
  for (guint i = 0; i < clip->warnings->len; i++)
    g_printerr ("sequin-cli: %s: warning: %s\n", path, (const char *) clip->warnings->pdata[i]);
}

int
fail_file (const char   *path,
           const GError *error)
{
  g_printerr ("sequin-cli: %s: %s\n", path, error->message);
  return EXIT_BAD_INPUT;
}

SqJointMap *
load_map (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  char *contents = NULL;
  gsize len = 0;
  SqJointMap *map;

  if (!g_file_get_contents (path, &contents, &len, &error))
    {
      fail_file (path, error);
      return NULL;
    }
  bytes = g_bytes_new_take (contents, len);
  if ((map = sq_joint_map_parse (bytes, &error)) == NULL)
    fail_file (path, error);
  return map;
}

int
write_clip (const SqClip     *clip,
            const SqFormat   *format,
            const SqJointMap *map,
            const char       *out_path,
            const CliRequest *request)
{
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = NULL;
  SqSaveOptions options = { 0 };

  options.map = map;
  options.notes = notes;
  options.no_reference_frame = request != NULL && request->no_reference;
  options.literal_pose = request != NULL && request->literal_pose;
  /* the one rule of every save: OUT and the companions of OUT's name */
  files = sq_io_save (out_path, clip, format, &options, losses, request != NULL && request->overwrite_companions, &error);
  if (g_error_matches (error, SQ_IO_ERROR, SQ_IO_ERROR_COMPANION_TAKEN))
    {
      g_printerr ("sequin-cli: %s: %s: nothing written (--overwrite-companions replaces it)\n",
                  out_path, error->message);
      return EXIT_BAD_INPUT;
    }
  /* what is worth knowing but no loss (a .anim's size, a skill's new CFP) */
  for (guint i = 0; i < notes->len; i++)
    g_printerr ("sequin-cli: %s: note: %s\n", out_path, (const char *) notes->pdata[i]);
  /* the report: what the target cannot hold ("lost:") and every joint
   * renamed on the way ("renamed: OLD → NEW", as the core words it) */
  for (guint i = 0; i < losses->len; i++)
    {
      const char *line = losses->pdata[i];
      if (sq_loss_renamed (line) != NULL)
        g_printerr ("sequin-cli: %s: %s\n", out_path, line);
      else
        g_printerr ("sequin-cli: %s: lost: %s\n", out_path, line);
    }
  if (files == NULL)
    return fail_file (out_path, error);
  return 0;
}

/* ---- the commands ---- */

/* One file's summary (after a "File:" line when there are more), its
 * reader's warnings on stderr */
static int
info_one (guint    index,
          CliSink *sink,
          gpointer data)
{
  const CliRequest *request = data;
  const char *path = request->files->pdata[index];
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (request->files->len > 1)
    cli_sink_printf (sink, FALSE, "%sFile:      %s\n", index ? "\n" : "", path);
  if ((clip = load_file (path, request->take, &error)) == NULL || !cli_skip_frames (request, clip, &error))
    return cli_sink_fail (sink, path, error);
  text = sq_dump_summary (clip);
  cli_sink_printf (sink, FALSE, "%s", text);
  /* a BVH: whether frame 0 is the reference pose the Second Life upload skips */
  {
    g_autofree char *why = sq_bvh_reference_describe (clip);

    if (why != NULL)
      cli_sink_printf (sink, FALSE, "Frame 0:   %s\n", why);
  }
  cli_sink_warnings (sink, path, clip);
  return 0;
}

/* `info FILE…`: one file's summary; of more, each after a "File:" line,
 * read on all cores and shown in the order given; 1 when any could not be
 * read, the others still shown */
static int
cmd_info (CliRequest *request)
{
  if (request->files->len == 0)
    return usage_error ("info takes a FILE");
  return cli_each_in_order (request->files->len, info_one, request);
}

static int
cmd_dump (CliRequest *request)
{
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  const char *path;

  if (request->files->len == 0)
    return usage_error ("dump needs a FILE");
  if (request->files->len > 1)
    return usage_error ("dump takes one FILE");
  path = request->files->pdata[0];
  if ((clip = load_file (path, request->take, &error)) == NULL || !cli_skip_frames (request, clip, &error))
    return fail_file (path, error);
  text = request->json ? sq_dump_json (clip) : sq_dump_text (clip);
  fputs (text, stdout);
  return 0;
}

static int
convert_one (const CliRequest *request,
             const char       *in,
             const char       *out)
{
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SqJointMap) map = NULL;
  const SqFormat *format = request->format;

  if ((clip = load_file (in, request->take, &error)) == NULL || !cli_skip_frames (request, clip, &error))
    return fail_file (in, error);
  print_warnings (in, clip);
  if (format == NULL && (format = sq_format_for_filename (out, clip->format)) == NULL)
    return usage_error ("cannot tell the format from “%s”: use --to FORMAT", out);
  if (request->map_path != NULL && (map = load_map (request->map_path)) == NULL)
    return EXIT_BAD_INPUT;
  return write_clip (clip, format, map, out, request);
}

static int
cmd_convert (CliRequest *request)
{
  if (request->out_dir != NULL)
    return cli_batch (request, convert_one, FALSE);
  if (request->files->len != 2)
    return usage_error ("convert takes IN and OUT");
  return convert_one (request, request->files->pdata[0], request->files->pdata[1]);
}

/* One file against the target's rules: the reader's warnings, the
 * findings, --loss, then "OK" when nothing failed */
static int
validate_one (guint    index,
              CliSink *sink,
              gpointer data)
{
  const CliRequest *request = data;
  const char *target = request->target ? request->target : "aw";
  const char *path = request->files->pdata[index];
  static const char *kinds[] = { "note", "warning", "error" };
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) findings = NULL;
  int status = 0;

  if ((clip = load_file (path, request->take, &error)) == NULL || !cli_skip_frames (request, clip, &error))
    return cli_sink_fail (sink, path, error);
  for (guint w = 0; w < clip->warnings->len; w++)
    cli_sink_printf (sink, FALSE, "%s: warning: %s\n", path, (const char *) clip->warnings->pdata[w]);
  findings = sq_validate (clip, target, &error);
  for (guint f = 0; f < findings->len; f++)
    {
      const SqFinding *finding = findings->pdata[f];

      cli_sink_printf (sink, FALSE, "%s: %s: %s\n", path, kinds[finding->severity], finding->message);
    }
  if (request->loss && !cli_print_loss (sink, path, clip, sq_world_by_id (target)))
    status = EXIT_BAD_INPUT;
  if (sq_findings_have_errors (findings) || clip->warnings->len > 0)
    status = EXIT_BAD_INPUT;
  else
    cli_sink_printf (sink, FALSE, "%s: OK for %s\n", path, target);
  return status;
}

/* `validate FILE…`: the files on all cores, the output in the order given */
static int
cmd_validate (CliRequest *request)
{
  const char *target = request->target ? request->target : "aw";
  const SqWorldHome *world = sq_world_by_id (target);

  if (request->files->len == 0)
    return usage_error ("validate needs at least one FILE");
  /* the worlds whose save loss is known (Second Life's) */
  if (request->loss && (world == NULL || world->save_loss == NULL))
    return usage_error ("--loss goes with --target sl");
  return cli_each_in_order (request->files->len, validate_one, request);
}

static int
cmd_formats (CliRequest *request)
{
  gsize n;
  const SqFormat * const *formats = sq_formats (&n);

  for (gsize i = 0; i < n; i++)
    printf ("%-12s %-5s %s (.%s)\n", formats[i]->id,
            sq_format_can_write (formats[i]) ? "rw" : "r", sq_format_get_name (formats[i]),
            formats[i]->extensions[0]);
  return 0;
}

/* ---- the option tables ---- */

const CliOption cli_help_option =
  { "help", 'h', CLI_ARG_NONE, NULL, "show the command's options", cli_set_flag,
    G_STRUCT_OFFSET (CliRequest, help) };

/* --take N: N from 1, stored from 0 */
static gboolean
set_take (const CliOption *option,
          const char      *value,
          CliRequest      *request,
          GError         **error)
{
  gint64 n;

  if (!cli_parse_int (value, &n) || n < 1 || n > G_MAXUINT)
    return cli_refuse (option, error);
  request->take = (guint) (n - 1);
  return TRUE;
}

const CliOption cli_take_option =
  { "take", 0, CLI_ARG_REQUIRED, "N",
    "read the file's Nth animation, from 1 (a .x's AnimationSets, a CMX's skills; `info` lists them)", set_take, 0,
    NULL, 0, 0, "--take needs N, a whole number from 1" };

const CliOption cli_output_options[CLI_N_OUTPUT_OPTIONS] = {
  { "to", 0, CLI_ARG_REQUIRED, "FORMAT", "write FORMAT (an id `sequin-cli formats` lists)",
    cli_set_format, 0 },
  { "map", 0, CLI_ARG_REQUIRED, "FILE", "joint names to use, before the built-in table",
    cli_set_path, G_STRUCT_OFFSET (CliRequest, map_path), NULL, 0, 0, "--map needs a FILE" },
  { "out-dir", 0, CLI_ARG_REQUIRED, "DIR", "every FILE into DIR under its own base name, on all cores",
    cli_set_path, G_STRUCT_OFFSET (CliRequest, out_dir), NULL, 0, 0, "--out-dir needs a DIR" },
  { "overwrite-companions", 0, CLI_ARG_NONE, NULL,
    "replace a companion file (a skill's CFP) that exists and belongs to another file",
    cli_set_flag, G_STRUCT_OFFSET (CliRequest, overwrite_companions) },
};

static const CliOption dump_options[] = {
  { "json", 0, CLI_ARG_NONE, NULL, "the whole clip as JSON", cli_set_flag, G_STRUCT_OFFSET (CliRequest, json) },
};

static const CliOption validate_options[] = {
  { "target", 0, CLI_ARG_REQUIRED, "WORLD", "the world whose rules apply: aw (the default), sl or sims",
    cli_set_target, G_STRUCT_OFFSET (CliRequest, target) },
  { "loss", 0, CLI_ARG_NONE, NULL,
    "with --target sl: per joint, the error the .anim encoding brings",
    cli_set_flag, G_STRUCT_OFFSET (CliRequest, loss) },
};

#define HELP_SECTION { NULL, &cli_help_option, 1 }
#define TAKE_SECTION { NULL, &cli_take_option, 1 }, { NULL, &cli_skip_frames_option, 1 }

/* --skip-frames N */
static gboolean
set_skip_frames (const CliOption *option,
                 const char      *value,
                 CliRequest      *request,
                 GError         **error)
{
  gint64 n;

  if (!cli_parse_int (value, &n) || n < 0 || n > G_MAXINT)
    return cli_refuse (option, error);
  request->skip_frames = (guint) n;
  return TRUE;
}

const CliOption cli_skip_frames_option =
  { "skip-frames", 0, CLI_ARG_REQUIRED, "N",
    "drop the file's first N frames (a BVH's reference frame, which the Second Life upload does not play)",
    set_skip_frames, 0, NULL, 0, 0, "--skip-frames needs N, a whole number from 0" };

const CliOption cli_reference_options[CLI_N_REFERENCE_OPTIONS] = {
  { "no-reference-frame", 0, CLI_ARG_NONE, NULL,
    "a BVH written from a .anim without the reference frame (the rest pose) before it",
    cli_set_flag, G_STRUCT_OFFSET (CliRequest, no_reference) },
  { "literal-pose", 0, CLI_ARG_NONE, NULL,
    "a BVH pose (every frame the same) to .anim as the viewer's upload does it: with no joints",
    cli_set_flag, G_STRUCT_OFFSET (CliRequest, literal_pose) },
};

gboolean
cli_skip_frames (const CliRequest *request,
                 SqClip           *clip,
                 GError          **error)
{
  g_autoptr(SqEdit) edit = NULL;

  if (request->skip_frames == 0)
    return TRUE;
  if ((edit = sq_edit_skip_frames_new (clip, request->skip_frames, error)) == NULL)
    return FALSE;
  return sq_edit_apply (edit, clip, error);
}

static const CliSection formats_sections[] = { HELP_SECTION };
static const CliSection info_sections[] = { TAKE_SECTION, HELP_SECTION };
static const CliSection dump_sections[] = {
  { NULL, dump_options, G_N_ELEMENTS (dump_options) }, TAKE_SECTION, HELP_SECTION,
};
static const CliSection convert_sections[] = {
  { NULL, cli_output_options, CLI_N_OUTPUT_OPTIONS }, TAKE_SECTION,
  { NULL, cli_reference_options, CLI_N_REFERENCE_OPTIONS }, HELP_SECTION,
};
static const CliSection validate_sections[] = {
  { NULL, validate_options, G_N_ELEMENTS (validate_options) }, TAKE_SECTION, HELP_SECTION,
};

static const CliCommandSpec info_command = {
  "info", "FILE…", (const char *[]) { "info [--take N] FILE…", NULL },
  "Shows what a file holds: its format, joints, frames, duration and fields.",
  "A file of several animations (a .x's AnimationSets, a CMX's skills) lists them as Takes;\n"
  "--take N shows the Nth (from 1) instead of the first, in every command that reads one.\n"
  "Of many FILEs, each is read on its own core; the output comes in the order given.", info_sections, G_N_ELEMENTS (info_sections), cmd_info,
};

static const CliCommandSpec dump_command = {
  "dump", "FILE", (const char *[]) { "dump [--json] [--take N] FILE", NULL },
  "Lists every joint and key of a file, as text or JSON.",
  NULL, dump_sections, G_N_ELEMENTS (dump_sections), cmd_dump,
};

static const CliCommandSpec convert_command = {
  "convert", "IN OUT | --out-dir DIR FILE…",
  (const char *[]) { "convert [--to FORMAT] [--map FILE] IN OUT",
                     "convert --to FORMAT [--map FILE] --out-dir DIR FILE…", NULL },
  "Writes a file in another format.",
  "Without --to, convert picks the format from OUT's extension; .seq means the input's own kind of\n"
  "SEQ (binary or text). Converting to another format maps joint names (pelvis ⇄ aw_pelvis ⇄\n"
  "mPelvis ⇄ hip ⇄ Hips …), units, axes and time steps. --map FILE overrides the joint names:\n"
  "UTF-8 text, one `source = target` per line (`target` - leaves the joint out), `#` comments.\n"
  "--out-dir DIR: every FILE, on all cores, written to DIR under its own base name (with\n"
  "FORMAT's extension); a bad file is reported, the others are done; exit 1 if any failed.",
  convert_sections, G_N_ELEMENTS (convert_sections), cmd_convert,
};

static const CliCommandSpec validate_command = {
  "validate", "FILE…", (const char *[]) { "validate [--target aw|sl|sims] [--loss] FILE…", NULL },
  "Checks files against a world's rules; exit 1 when any has an error.",
  "validate --target sl --loss also lists, per joint, the largest rotation and position\n"
  "error the .anim encoding brings (U16 keys; for BVH the viewer's import), and the .anim's\n"
  "size against the upload limit as a note.\n"
  "Of many FILEs, each is checked on its own core; the output comes in the order given.",
  validate_sections, G_N_ELEMENTS (validate_sections), cmd_validate,
};

static const CliCommandSpec formats_command = {
  "formats", "", (const char *[]) { "formats", NULL },
  "Lists the formats: id, read (r) or read and write (rw), name and extension.",
  NULL, formats_sections, G_N_ELEMENTS (formats_sections), cmd_formats,
};

static const CliCommandSpec * const commands[] = {
  &info_command, &dump_command, &convert_command, &cli_edit_command, &validate_command, &formats_command,
  &cli_diff_command, &cli_layers_command, &cli_new_command,
};

static const char epilogue[] =
  "FORMAT ids: see `sequin-cli formats`. `sequin-cli COMMAND --help` shows a command's options.\n"
  "Exit status: 0 success, 1 bad input or failed validation, 2 bad usage.\n";

static const CliCommandSpec *
find_command (const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (commands[i]->name, name) == 0)
      return commands[i];
  return NULL;
}

static int
run_command (const CliCommandSpec *command,
             int                   argc,
             char                **argv)
{
  g_autoptr(CliRequest) request = cli_request_new ();
  g_autofree char *prgname = g_strconcat ("sequin-cli ", command->name, NULL);

  g_set_prgname (prgname);   /* GOption's "Usage:" line */
  help_command = command->name;
  if (!cli_parse (command, argc, argv, request))
    return EXIT_USAGE;
  if (request->help)
    {
      g_autofree char *help = cli_command_help (command);

      fputs (help, stdout);
      return 0;
    }
  return command->run (request);
}

int
main (int    argc,
      char **argv)
{
  const CliCommandSpec *command;
  const char *cmd;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  cmd = argc < 2 ? "" : argv[1];
  if (argc < 2 || strcmp (cmd, "--help") == 0 || strcmp (cmd, "-h") == 0 || strcmp (cmd, "help") == 0)
    {
      g_autofree char *help = NULL;

      if (argc > 2 && (command = find_command (argv[2])) != NULL)
        {
          g_autofree char *prgname = g_strconcat ("sequin-cli ", command->name, NULL);

          g_set_prgname (prgname);
          help = cli_command_help (command);
        }
      else
        help = cli_full_help (commands, G_N_ELEMENTS (commands), epilogue);
      fputs (help, argc < 2 ? stderr : stdout);
      return argc < 2 ? EXIT_USAGE : 0;
    }
  if (strcmp (cmd, "--version") == 0)
    {
      printf ("sequin-cli %s\n", PACKAGE_VERSION);
      return 0;
    }
  /* for the build: the man page, from the same tables as the help */
  if (strcmp (cmd, "--man-page") == 0)
    {
      g_autofree char *page = cli_man_page (commands, G_N_ELEMENTS (commands), epilogue);

      fputs (page, stdout);
      return 0;
    }
  if ((command = find_command (cmd)) != NULL)
    return run_command (command, argc - 2, argv + 2);
  return usage_error ("unknown command “%s”", cmd);
}
