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
#include <sys/stat.h>

#include "sq-core.h"

#define EXIT_BAD_INPUT 1
#define EXIT_USAGE     2

static const char *usage_text =
  "Usage:\n"
  "  sequin-cli info FILE\n"
  "  sequin-cli dump [--json] FILE\n"
  "  sequin-cli convert [--to FORMAT] IN OUT\n"
  "  sequin-cli edit IN -o OUT [--to FORMAT] OPERATION…\n"
  "  sequin-cli validate [--target aw|sl] FILE…\n"
  "  sequin-cli formats\n"
  "  sequin-cli --help | --version\n"
  "\n"
  "Edit operations, applied in the order given:\n"
  "  --invert-xz[=J1,J2,…]     invert the sign of quaternion X and Z (all joints, or those named)\n"
  "  --rename-joint OLD=NEW    rename a joint (refused when NEW exists)\n"
  "  --delete-joint NAME       delete a joint\n"
  "  --rename-root NAME        rename the root joint (the header's root and its joint)\n"
  "  --rescale FACTOR          multiply the root's locations by FACTOR\n"
  "  --set-first-frame[=X,Y,Z] set the root's location at the first frame (default 0,0,0)\n"
  "Second Life (.anim) fields, kept when the clip is saved as sl-anim:\n"
  "  --priority N              base priority, -1 to 6\n"
  "  --joint-priority JOINT=N  one joint's priority, -1 to 6\n"
  "  --loop IN,OUT | --no-loop loop between IN and OUT seconds (0 ≤ IN ≤ OUT ≤ duration), or not\n"
  "  --ease IN,OUT             ease in and ease out times in seconds (≥ 0)\n"
  "  --hand-pose N             hand pose, 0 to 13\n"
  "  --emote NAME              emote name (Latin-1; \"\" for none)\n"
  "  --delete-constraint N     delete constraint N (1 = the first, as `dump` lists them)\n"
  "\n"
  "FORMAT ids: see `sequin-cli formats`. Without --to, convert picks the format from OUT's\n"
  "extension; .seq means the input's own kind of SEQ (binary or text).\n"
  "\n"
  "Exit status: 0 success, 1 bad input or failed validation, 2 bad usage.\n";

static int
usage_error (const char *format,
             ...) G_GNUC_PRINTF (1, 2);

static int
usage_error (const char *format,
             ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_printerr ("sequin-cli: %s\n", msg);
  g_printerr ("Try “sequin-cli --help”.\n");
  return EXIT_USAGE;
}

static SqClip *
load_file (const char *path,
           GError    **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) local = NULL;

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

  return sq_load_bytes (bytes, path, NULL, NULL, error);
}

/* Atomic: a temporary file beside OUT, then rename; OUT is untouched on any error. */
static gboolean
save_file (const char *path,
           GBytes     *bytes,
           GError    **error)
{
  struct stat st;
  int mode = 0666;
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  if (g_stat (path, &st) == 0)
    mode = st.st_mode & 0777;
  return g_file_set_contents_full (path, data, len,
                                   G_FILE_SET_CONTENTS_CONSISTENT,
                                   mode, error);
}

static void
print_warnings (const char *path,
                const SqClip *clip)
{
  for (guint i = 0; i < clip->warnings->len; i++)
    g_printerr ("sequin-cli: %s: warning: %s\n", path, (const char *) clip->warnings->pdata[i]);
}

static int
fail_file (const char   *path,
           const GError *error)
{
  g_printerr ("sequin-cli: %s: %s\n", path, error->message);
  return EXIT_BAD_INPUT;
}

static int
cmd_info (int    argc,
          char **argv)
{
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (argc != 1)
    return usage_error ("info takes one FILE");
  if ((clip = load_file (argv[0], &error)) == NULL)
    return fail_file (argv[0], error);
  text = sq_dump_summary (clip);
  fputs (text, stdout);
  print_warnings (argv[0], clip);
  return 0;
}

static int
cmd_dump (int    argc,
          char **argv)
{
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gboolean json = FALSE;
  const char *path = NULL;

  for (int i = 0; i < argc; i++)
    {
      if (strcmp (argv[i], "--json") == 0)
        json = TRUE;
      else if (argv[i][0] == '-' && argv[i][1] != '\0')
        return usage_error ("dump: unknown option “%s”", argv[i]);
      else if (path == NULL)
        path = argv[i];
      else
        return usage_error ("dump takes one FILE");
    }
  if (path == NULL)
    return usage_error ("dump needs a FILE");
  if ((clip = load_file (path, &error)) == NULL)
    return fail_file (path, error);
  text = json ? sq_dump_json (clip) : sq_dump_text (clip);
  fputs (text, stdout);
  return 0;
}

static const SqFormat *
parse_format (const char *id)
{
  return sq_format_by_id (id);
}

static int
write_clip (const SqClip   *clip,
            const SqFormat *format,
            const char     *out_path)
{
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  bytes = sq_save_bytes (clip, format, NULL, losses, &error);
  for (guint i = 0; i < losses->len; i++)
    g_printerr ("sequin-cli: %s: lost: %s\n", out_path, (const char *) losses->pdata[i]);
  if (bytes == NULL)
    return fail_file (out_path, error);
  if (!save_file (out_path, bytes, &error))
    return fail_file (out_path, error);
  return 0;
}

static int
cmd_convert (int    argc,
             char **argv)
{
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GError) error = NULL;
  const SqFormat *format = NULL;
  const char *paths[2] = { NULL, NULL };
  guint n_paths = 0;

  for (int i = 0; i < argc; i++)
    {
      if (strcmp (argv[i], "--to") == 0 || g_str_has_prefix (argv[i], "--to="))
        {
          const char *id = argv[i][4] == '=' ? argv[i] + 5 : (i + 1 < argc ? argv[++i] : NULL);
          if (id == NULL)
            return usage_error ("--to needs a FORMAT");
          if ((format = parse_format (id)) == NULL)
            return usage_error ("unknown format “%s” (see “sequin-cli formats”)", id);
          if (!sq_format_can_write (format))
            return usage_error ("format “%s” cannot be written", id);
        }
      else if (argv[i][0] == '-' && argv[i][1] != '\0')
        return usage_error ("convert: unknown option “%s”", argv[i]);
      else if (n_paths < 2)
        paths[n_paths++] = argv[i];
      else
        return usage_error ("convert takes IN and OUT");
    }
  if (n_paths != 2)
    return usage_error ("convert takes IN and OUT");

  if ((clip = load_file (paths[0], &error)) == NULL)
    return fail_file (paths[0], error);
  print_warnings (paths[0], clip);
  if (format == NULL && (format = sq_format_for_filename (paths[1], clip->format)) == NULL)
    return usage_error ("cannot tell the format from “%s”: use --to FORMAT", paths[1]);
  return write_clip (clip, format, paths[1]);
}

static gboolean
parse_number (const char *text,
              double     *out)
{
  char *end = NULL;
  double v;

  if (text == NULL || *text == '\0')
    return FALSE;
  v = g_ascii_strtod (text, &end);
  if (*end != '\0' || !isfinite (v))
    return FALSE;
  *out = v;
  return TRUE;
}

static gboolean
parse_int (const char *text,
           gint64     *out)
{
  char *end = NULL;
  gint64 v;

  if (text == NULL || *text == '\0')
    return FALSE;
  errno = 0;
  v = g_ascii_strtoll (text, &end, 10);
  if (*end != '\0' || errno != 0)
    return FALSE;
  *out = v;
  return TRUE;
}

static gboolean
parse_pair (const char *text,
            double      v[2])
{
  g_auto(GStrv) parts = NULL;

  if (text == NULL)
    return FALSE;
  parts = g_strsplit (text, ",", -1);
  return g_strv_length (parts) == 2 && parse_number (parts[0], &v[0]) && parse_number (parts[1], &v[1]);
}

static gboolean
parse_xyz (const char *text,
           double      v[3])
{
  g_auto(GStrv) parts = NULL;

  if (text == NULL)
    return FALSE;
  parts = g_strsplit (text, ",", -1);
  return g_strv_length (parts) == 3 && parse_number (parts[0], &v[0])
         && parse_number (parts[1], &v[1]) && parse_number (parts[2], &v[2]);
}

/* "--name=value" or "--name value" */
static const char *
option_value (int    argc,
              char **argv,
              int   *i,
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
option_is (const char *arg,
           const char *name)
{
  gsize n = strlen (name);
  return strncmp (arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

static int
cmd_edit (int    argc,
          char **argv)
{
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) edits = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_edit_free);
  const char *in = NULL, *out = NULL;
  const SqFormat *format = NULL;

  for (int i = 0; i < argc; i++)
    {
      const char *a = argv[i];
      const char *v;

      if (strcmp (a, "-o") == 0 || option_is (a, "--output"))
        {
          if ((out = option_value (argc, argv, &i, strcmp (a, "-o") == 0 ? "-o" : "--output")) == NULL)
            return usage_error ("-o needs OUT");
        }
      else if (option_is (a, "--to"))
        {
          if ((v = option_value (argc, argv, &i, "--to")) == NULL)
            return usage_error ("--to needs a FORMAT");
          if ((format = parse_format (v)) == NULL || !sq_format_can_write (format))
            return usage_error ("unknown or read-only format “%s”", v);
        }
      else if (option_is (a, "--invert-xz"))
        {
          if (a[strlen ("--invert-xz")] == '=')
            {
              g_auto(GStrv) names = g_strsplit (a + strlen ("--invert-xz="), ",", -1);
              if (names[0] == NULL)
                return usage_error ("--invert-xz= needs joint names");
              g_ptr_array_add (edits, sq_edit_invert_xz_new ((const char * const *) names));
            }
          else
            g_ptr_array_add (edits, sq_edit_invert_xz_new (NULL));
        }
      else if (option_is (a, "--rename-joint"))
        {
          g_autofree char *old_name = NULL;
          const char *eq;

          if ((v = option_value (argc, argv, &i, "--rename-joint")) == NULL || (eq = strchr (v, '=')) == NULL)
            return usage_error ("--rename-joint needs OLD=NEW");
          old_name = g_strndup (v, eq - v);
          g_ptr_array_add (edits, sq_edit_rename_joint_new (old_name, eq + 1));
        }
      else if (option_is (a, "--delete-joint"))
        {
          if ((v = option_value (argc, argv, &i, "--delete-joint")) == NULL)
            return usage_error ("--delete-joint needs NAME");
          g_ptr_array_add (edits, sq_edit_delete_joint_new (v));
        }
      else if (option_is (a, "--rename-root"))
        {
          if ((v = option_value (argc, argv, &i, "--rename-root")) == NULL)
            return usage_error ("--rename-root needs NAME");
          g_ptr_array_add (edits, sq_edit_rename_root_new (v));
        }
      else if (option_is (a, "--rescale"))
        {
          double f;
          if ((v = option_value (argc, argv, &i, "--rescale")) == NULL || !parse_number (v, &f))
            return usage_error ("--rescale needs a finite number");
          g_ptr_array_add (edits, sq_edit_rescale_new (f));
        }
      else if (option_is (a, "--set-first-frame"))
        {
          double xyz[3] = { 0, 0, 0 };

          if (a[strlen ("--set-first-frame")] == '=')
            {
              if (!parse_xyz (a + strlen ("--set-first-frame="), xyz))
                return usage_error ("--set-first-frame needs X,Y,Z (finite numbers)");
            }
          else if (i + 1 < argc && parse_xyz (argv[i + 1], xyz))
            i++;
          else if (i + 1 < argc && strchr (argv[i + 1], ',') != NULL)
            return usage_error ("--set-first-frame needs X,Y,Z (finite numbers), not “%s”", argv[i + 1]);
          g_ptr_array_add (edits, sq_edit_set_first_frame_new (xyz[0], xyz[1], xyz[2]));
        }
      else if (option_is (a, "--priority"))
        {
          gint64 n;
          if ((v = option_value (argc, argv, &i, "--priority")) == NULL || !parse_int (v, &n)
              || n < G_MININT32 || n > G_MAXINT32)
            return usage_error ("--priority needs a whole number");
          g_ptr_array_add (edits, sq_edit_sl_priority_new ((gint32) n));
        }
      else if (option_is (a, "--joint-priority"))
        {
          g_autofree char *joint = NULL;
          const char *eq;
          gint64 n;

          if ((v = option_value (argc, argv, &i, "--joint-priority")) == NULL || (eq = strrchr (v, '=')) == NULL
              || !parse_int (eq + 1, &n) || n < G_MININT32 || n > G_MAXINT32)
            return usage_error ("--joint-priority needs JOINT=N");
          joint = g_strndup (v, eq - v);
          g_ptr_array_add (edits, sq_edit_sl_joint_priority_new (joint, (gint32) n));
        }
      else if (option_is (a, "--loop"))
        {
          double io[2];
          if ((v = option_value (argc, argv, &i, "--loop")) == NULL || !parse_pair (v, io))
            return usage_error ("--loop needs IN,OUT (seconds)");
          g_ptr_array_add (edits, sq_edit_sl_loop_new (TRUE, io[0], io[1]));
        }
      else if (strcmp (a, "--no-loop") == 0)
        g_ptr_array_add (edits, sq_edit_sl_loop_new (FALSE, 0, 0));
      else if (option_is (a, "--ease"))
        {
          double io[2];
          if ((v = option_value (argc, argv, &i, "--ease")) == NULL || !parse_pair (v, io))
            return usage_error ("--ease needs IN,OUT (seconds)");
          g_ptr_array_add (edits, sq_edit_sl_ease_new (io[0], io[1]));
        }
      else if (option_is (a, "--hand-pose"))
        {
          gint64 n;
          if ((v = option_value (argc, argv, &i, "--hand-pose")) == NULL || !parse_int (v, &n)
              || n < 0 || n > G_MAXUINT32)
            return usage_error ("--hand-pose needs a number from 0 to 13");
          g_ptr_array_add (edits, sq_edit_sl_hand_pose_new ((guint32) n));
        }
      else if (option_is (a, "--emote"))
        {
          if ((v = option_value (argc, argv, &i, "--emote")) == NULL)
            return usage_error ("--emote needs NAME (\"\" for none)");
          g_ptr_array_add (edits, sq_edit_sl_emote_new (v));
        }
      else if (option_is (a, "--delete-constraint"))
        {
          gint64 n;
          if ((v = option_value (argc, argv, &i, "--delete-constraint")) == NULL || !parse_int (v, &n)
              || n < 1 || n > G_MAXUINT)
            return usage_error ("--delete-constraint needs N (1 = the first constraint)");
          g_ptr_array_add (edits, sq_edit_sl_delete_constraint_new ((guint) (n - 1)));
        }
      else if (a[0] == '-' && a[1] != '\0')
        return usage_error ("edit: unknown option “%s”", a);
      else if (in == NULL)
        in = a;
      else
        return usage_error ("edit takes one IN (and -o OUT)");
    }
  if (in == NULL || out == NULL)
    return usage_error ("edit needs IN and -o OUT");

  if ((clip = load_file (in, &error)) == NULL)
    return fail_file (in, error);
  print_warnings (in, clip);
  for (guint i = 0; i < edits->len; i++)
    if (!sq_edit_apply (edits->pdata[i], clip, &error))
      {
        g_autofree char *what = sq_edit_describe (edits->pdata[i]);
        g_printerr ("sequin-cli: %s: %s: %s\n", in, what, error->message);
        return EXIT_BAD_INPUT;
      }
  return write_clip (clip, format ? format : clip->format, out);
}

static int
cmd_validate (int    argc,
              char **argv)
{
  const char *target = "aw";
  int status = 0;
  guint n_files = 0;

  for (int i = 0; i < argc; i++)
    if (option_is (argv[i], "--target"))
      {
        if ((target = option_value (argc, argv, &i, "--target")) == NULL)
          return usage_error ("--target needs a world (aw, sl)");
        if (!g_strv_contains (sq_validate_targets (), target))
          return usage_error ("unknown target “%s” (known: aw, sl)", target);
      }

  for (int i = 0; i < argc; i++)
    {
      g_autoptr(SqClip) clip = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) findings = NULL;

      if (option_is (argv[i], "--target"))
        {
          if (argv[i][strlen ("--target")] != '=')
            i++;
          continue;
        }
      if (argv[i][0] == '-' && argv[i][1] != '\0')
        return usage_error ("validate: unknown option “%s”", argv[i]);
      n_files++;
      if ((clip = load_file (argv[i], &error)) == NULL)
        {
          status = fail_file (argv[i], error);
          continue;
        }
      for (guint w = 0; w < clip->warnings->len; w++)
        printf ("%s: warning: %s\n", argv[i], (const char *) clip->warnings->pdata[w]);
      findings = sq_validate (clip, target, &error);
      for (guint f = 0; f < findings->len; f++)
        {
          const SqFinding *finding = findings->pdata[f];
          static const char *kinds[] = { "note", "warning", "error" };
          printf ("%s: %s: %s\n", argv[i], kinds[finding->severity], finding->message);
        }
      if (sq_findings_have_errors (findings) || clip->warnings->len > 0)
        status = EXIT_BAD_INPUT;
      else
        printf ("%s: OK for %s\n", argv[i], target);
    }
  if (n_files == 0)
    return usage_error ("validate needs at least one FILE");
  return status;
}

static int
cmd_formats (void)
{
  gsize n;
  const SqFormat * const *formats = sq_formats (&n);

  for (gsize i = 0; i < n; i++)
    printf ("%-12s %-5s %s (.%s)\n", formats[i]->id,
            sq_format_can_write (formats[i]) ? "rw" : "r", sq_format_get_name (formats[i]),
            formats[i]->extensions[0]);
  return 0;
}

int
main (int    argc,
      char **argv)
{
  const char *cmd;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_prgname ("sequin-cli");

  if (argc < 2)
    {
      fputs (usage_text, stderr);
      return EXIT_USAGE;
    }
  cmd = argv[1];
  if (strcmp (cmd, "--help") == 0 || strcmp (cmd, "-h") == 0 || strcmp (cmd, "help") == 0)
    {
      fputs (usage_text, stdout);
      return 0;
    }
  if (strcmp (cmd, "--version") == 0)
    {
      printf ("sequin-cli %s\n", PACKAGE_VERSION);
      return 0;
    }
  if (strcmp (cmd, "info") == 0)
    return cmd_info (argc - 2, argv + 2);
  if (strcmp (cmd, "dump") == 0)
    return cmd_dump (argc - 2, argv + 2);
  if (strcmp (cmd, "convert") == 0)
    return cmd_convert (argc - 2, argv + 2);
  if (strcmp (cmd, "edit") == 0)
    return cmd_edit (argc - 2, argv + 2);
  if (strcmp (cmd, "validate") == 0)
    return cmd_validate (argc - 2, argv + 2);
  if (strcmp (cmd, "formats") == 0)
    return cmd_formats ();
  return usage_error ("unknown command “%s”", cmd);
}
