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
#include "sequin-cli-private.h"

static const char *usage_text =
  "Usage:\n"
  "  sequin-cli info FILE…\n"
  "  sequin-cli dump [--json] FILE\n"
  "  sequin-cli convert [--to FORMAT] [--map FILE] IN OUT\n"
  "  sequin-cli convert --to FORMAT [--map FILE] --out-dir DIR FILE…\n"
  "  sequin-cli edit IN -o OUT [--to FORMAT] [--map FILE] OPERATION…\n"
  "  sequin-cli edit --out-dir DIR [--to FORMAT] [--map FILE] FILE… OPERATION…\n"
  "  sequin-cli validate [--target aw|sl|sims] [--loss] FILE…\n"
  "  sequin-cli formats\n"
  "  sequin-cli diff [--json] [--tolerance DEG[,DIST]] A B\n"
  "  sequin-cli diff [--json] [--tolerance DEG[,DIST]] --against DIR FILE…\n"
  "  sequin-cli --help | --version\n"
  "\n"
  "Edit operations, applied in the order given:\n"
  "  --invert-xz[=J1,J2,…]     invert the sign of quaternion X and Z (all joints, or those named)\n"
  "  --rename-joint OLD=NEW    rename a joint (refused when NEW exists)\n"
  "  --delete-joint NAME       delete a joint\n"
  "  --delete-keys NAME@TIME   delete a joint's keys at TIME seconds (within half a frame)\n"
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
  "  --set-constraint N:SPEC   change fields of constraint N (1 = the first); the others stay\n"
  "  --add-constraint SPEC     append a constraint (at most 10); fields not given are 0, point\n"
  "      SPEC is FIELD=VALUE[,FIELD=VALUE…] with the fields chain=0..3, type=point|plane,\n"
  "      source=VOLUME, source-offset=X:Y:Z, target=VOLUME|GROUND, target-offset=X:Y:Z,\n"
  "      dir=X:Y:Z, ease-in=START:STOP, ease-out=START:STOP (seconds); VOLUME is a collision\n"
  "      volume (PELVIS, BELLY, CHEST, HEAD, L_HAND, R_FOOT, …). Example:\n"
  "      --add-constraint chain=2,source=L_HAND,target=GROUND,ease-in=0:0.5,ease-out=1.5:2\n"
  "BVH and DirectX (.x) fields (SEQ and .anim have a fixed time base):\n"
  "  --frame-rate FPS          frames (.x: ticks) per second; keys keep their frame numbers, so\n"
  "                            the animation plays faster or slower (.x: a whole number)\n"
  "  --frame-time SECONDS      the same as BVH's Frame Time (0.001 to 10 s)\n"
  "  --set-name NAME           the .x AnimationSet name (\"\" for none)\n"
  "Motion (every format):\n"
  "  --mirror                  swap left and right, reflect across the sagittal plane\n"
  "  --resample FPS            keys on a grid at FPS from the first key to the last\n"
  "  --speed FACTOR            play FACTOR (> 0) times as fast; loop points and ease follow\n"
  "  --trim START,END          keep START to END seconds, shifted to start at 0\n"
  "  --reverse                 play backwards\n"
  "  --reduce DEG[,DIST]       remove keys while the motion stays within DEG degrees and\n"
  "                            DIST (file units, default 0) at every original key\n"
  "  --close-loop              end on the first pose (at the loop points when looping)\n"
  "The Sims (pose libraries, KFD, CMX skills):\n"
  "  --rename-pose OLD=NEW     rename a pose of a pose library (.psl)\n"
  "  --duplicate-pose NAME=NEW copy pose NAME as NEW, right after it\n"
  "  --delete-pose NAME        delete a pose (a library keeps at least one)\n"
  "  --move-pose NAME=PLACE    move a pose to PLACE (1 = the first)\n"
  "  --bounce | --no-bounce    a KFD's SequenceLength: twice Frames (forward then back), or Frames\n"
  "  --start-pose NAME         a KFD's start pose name (\"\" for none); --end-pose NAME likewise\n"
  "  --skill-name NAME         a CMX skill's name; --skill-duration MS its duration (milliseconds)\n"
  "\n"
  "FORMAT ids: see `sequin-cli formats`. Without --to, convert picks the format from OUT's\n"
  "extension; .seq means the input's own kind of SEQ (binary or text).\n"
  "Converting to another format maps joint names (pelvis ⇄ aw_pelvis ⇄ mPelvis ⇄ hip ⇄\n"
  "Hips …), units, axes and time steps. --map FILE overrides the joint names: UTF-8 text,\n"
  "one `source = target` per line (`target` - leaves the joint out), `#` comments.\n"
  "\n"
  "--out-dir DIR: every FILE, on all cores, written to DIR under its own base name (with\n"
  "FORMAT's extension); a bad file is reported, the others are done; exit 1 if any failed.\n"
  "validate --target sl --loss also lists, per joint, the largest rotation and position\n"
  "error the .anim encoding brings (U16 keys; for BVH the viewer's import).\n"
  "diff compares each joint over both clips' key times (B converted to A's format):\n"
  "exit 0 when within the tolerance (default: identical), 1 when not.\n"
  "\n"
  "Exit status: 0 success, 1 bad input or failed validation, 2 bad usage.\n";

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
  g_printerr ("Try “sequin-cli --help”.\n");
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
           GError    **error)
{
  SqLoadOptions options = { 0 };
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

  options.companion = read_companion;
  options.companion_data = (gpointer) path;
  return sq_load_bytes (bytes, path, NULL, &options, error);
}

static gboolean
write_all (int           fd,
           const guint8 *data,
           gsize         len)
{
  while (len > 0)
    {
      gssize n = write (fd, data, MIN (len, (gsize) G_MAXSSIZE));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (n == 0)
            errno = EIO;
          return FALSE;
        }
      data += n;
      len -= (gsize) n;
    }
  return TRUE;
}

/* Atomic: the pieces (sq_save_pieces) one after another into a temporary
 * file beside OUT, then rename; OUT is untouched on any error. When OUT
 * exists the data reaches the disk before the rename, so that a crash
 * leaves the old file or the new one, never an empty one. */
static gboolean
write_temp (const char *path,
            GPtrArray  *pieces,
            char      **tmp_out,
            GError    **error)
{
  struct stat st;
  int mode = 0666, fd, saved;
  gboolean exists = g_stat (path, &st) == 0;
  g_autofree char *tmp = g_strconcat (path, ".XXXXXX", NULL);

  if (exists)
    mode = st.st_mode & 0777;
  fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, mode);
  if (fd < 0)
    {
      saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "cannot create a temporary file beside it: %s", g_strerror (saved));
      return FALSE;
    }
  for (guint i = 0; i < pieces->len; i++)
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (pieces->pdata[i], &len);

      if (!write_all (fd, data, len))
        goto failed;
    }
  if (exists && fsync (fd) != 0)
    goto failed;
  if (close (fd) != 0)
    {
      fd = -1;
      goto failed;
    }
  fd = -1;
  *tmp_out = g_steal_pointer (&tmp);
  return TRUE;

failed:
  saved = errno;
  if (fd >= 0)
    close (fd);
  g_unlink (tmp);
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
               "cannot write it: %s", g_strerror (saved));
  return FALSE;
}

/* OUT and its companions (a CMX's CFP, beside it): every file is written
 * to its temporary first, then all are renamed, the companions before OUT;
 * a failure before the renames leaves every file untouched */
static gboolean
save_file (const char *path,
           GPtrArray  *pieces,
           GPtrArray  *companions,
           GError    **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) tmps = g_ptr_array_new_with_free_func (g_free);
  gboolean ok = TRUE;

  for (guint i = 0; ok && companions != NULL && i < companions->len; i++)
    {
      const SqCompanion *c = companions->pdata[i];
      g_autoptr(GPtrArray) one = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      g_autoptr(GError) local = NULL;
      char *tmp = NULL;

      if (strchr (c->name, '/') != NULL || c->name[0] == '.' || c->name[0] == '\0')
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "the companion name “%s” is not a file beside it", c->name);
          ok = FALSE;
          break;
        }
      g_ptr_array_add (paths, g_build_filename (dir, c->name, NULL));
      g_ptr_array_add (one, g_bytes_ref (c->bytes));
      ok = write_temp (paths->pdata[i], one, &tmp, &local);
      if (!ok)
        g_set_error (error, G_FILE_ERROR, local->code, "%s: %s", c->name, local->message);
      else
        g_ptr_array_add (tmps, tmp);
    }
  if (ok)
    {
      char *tmp = NULL;

      g_ptr_array_add (paths, g_strdup (path));
      if ((ok = write_temp (path, pieces, &tmp, error)))
        g_ptr_array_add (tmps, tmp);
    }
  for (guint i = 0; ok && i < tmps->len; i++)
    if (g_rename (tmps->pdata[i], paths->pdata[i]) != 0)
      {
        int saved = errno;
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                     "cannot write it: %s", g_strerror (saved));
        ok = FALSE;
      }
    else
      g_clear_pointer (&tmps->pdata[i], g_free);
  for (guint i = 0; i < tmps->len; i++)
    if (tmps->pdata[i] != NULL)
      g_unlink (tmps->pdata[i]);
  return ok;
}

static void
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

static int
cmd_info (int    argc,
          char **argv)
{
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (argc > 1)
    return cli_each_file (cmd_info, argc, argv);
  if (argc != 1)
    return usage_error ("info takes a FILE");
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

/* A --map FILE (sq-joint-map.h); errors name the file and line:column */
static SqJointMap *
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

static int
write_clip (const SqClip     *clip,
            const SqFormat   *format,
            const SqJointMap *map,
            const char       *out_path)
{
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) pieces = NULL;
  g_autoptr(GPtrArray) companions = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_companion_free);
  SqSaveOptions options = { 0 };

  options.map = map;
  options.companions = companions;
  pieces = sq_save_pieces (clip, format, &options, losses, &error);
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
  if (pieces == NULL)
    return fail_file (out_path, error);
  if (!save_file (out_path, pieces, companions, &error))
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
  const char *map_path = NULL;
  g_autoptr(SqJointMap) map = NULL;

  if (cli_is_batch (argc, argv))
    return cli_batch (cmd_convert, FALSE, argc, argv);
  for (int i = 0; i < argc; i++)
    {
      if (strcmp (argv[i], "--map") == 0 || g_str_has_prefix (argv[i], "--map="))
        {
          map_path = argv[i][5] == '=' ? argv[i] + 6 : (i + 1 < argc ? argv[++i] : NULL);
          if (map_path == NULL || *map_path == '\0')
            return usage_error ("--map needs a FILE");
        }
      else if (strcmp (argv[i], "--to") == 0 || g_str_has_prefix (argv[i], "--to="))
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
  if (map_path != NULL && (map = load_map (map_path)) == NULL)
    return EXIT_BAD_INPUT;
  return write_clip (clip, format, map, paths[1]);
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

/* --set-constraint / --add-constraint: the fields a spec gives, applied to
 * the constraint as it is when the edit runs (or to a new one) */
typedef struct
{
  guint          index;     /* 0-based; G_MAXUINT: append */
  guint          given;     /* CF_* bits */
  SqSlConstraint c;
} ConstraintSpec;

enum
{
  CF_CHAIN = 1 << 0, CF_TYPE = 1 << 1, CF_SOURCE = 1 << 2, CF_SOURCE_OFFSET = 1 << 3, CF_TARGET = 1 << 4,
  CF_TARGET_OFFSET = 1 << 5, CF_DIR = 1 << 6, CF_EASE_IN = 1 << 7, CF_EASE_OUT = 1 << 8,
};

static gboolean
parse_colon_numbers (const char *text,
                     double     *v,
                     guint       n)
{
  g_auto(GStrv) parts = g_strsplit (text, ":", -1);

  if (g_strv_length (parts) != n)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (!parse_number (parts[i], &v[i]))
      return FALSE;
  return TRUE;
}

static gboolean
parse_volume (const char *text,
              char        out[17])
{
  if (strlen (text) > 16)
    return FALSE;
  g_strlcpy (out, text, 17);
  return TRUE;
}

/* "FIELD=VALUE,FIELD=VALUE…"; FALSE with a message for a bad field */
static gboolean
parse_constraint_fields (const char     *text,
                         ConstraintSpec *spec,
                         char          **message)
{
  g_auto(GStrv) fields = g_strsplit (text, ",", -1);

  for (guint i = 0; fields[i] != NULL; i++)
    {
      char *eq = strchr (fields[i], '=');
      const char *key, *val;
      gint64 n = -1;
      double ease[2];
      gboolean ok;

      if (eq == NULL)
        {
          *message = g_strdup_printf ("“%s” is not FIELD=VALUE", fields[i]);
          return FALSE;
        }
      *eq = '\0';
      key = fields[i];
      val = eq + 1;
      if (strcmp (key, "chain") == 0)
        {
          ok = parse_int (val, &n) && n >= 0 && n <= 255;
          spec->c.chain_length = (guint8) n;
          spec->given |= CF_CHAIN;
        }
      else if (strcmp (key, "type") == 0)
        {
          ok = TRUE;
          if (strcmp (val, "point") == 0 || strcmp (val, "0") == 0)
            spec->c.type = SQ_SL_CONSTRAINT_POINT;
          else if (strcmp (val, "plane") == 0 || strcmp (val, "planar") == 0 || strcmp (val, "1") == 0)
            spec->c.type = SQ_SL_CONSTRAINT_PLANE;
          else
            ok = FALSE;
          spec->given |= CF_TYPE;
        }
      else if (strcmp (key, "source") == 0)
        {
          ok = parse_volume (val, spec->c.source_volume);
          spec->given |= CF_SOURCE;
        }
      else if (strcmp (key, "target") == 0)
        {
          ok = parse_volume (val, spec->c.target_volume);
          spec->given |= CF_TARGET;
        }
      else if (strcmp (key, "source-offset") == 0)
        {
          ok = parse_colon_numbers (val, spec->c.source_offset, 3);
          spec->given |= CF_SOURCE_OFFSET;
        }
      else if (strcmp (key, "target-offset") == 0)
        {
          ok = parse_colon_numbers (val, spec->c.target_offset, 3);
          spec->given |= CF_TARGET_OFFSET;
        }
      else if (strcmp (key, "dir") == 0 || strcmp (key, "target-dir") == 0)
        {
          ok = parse_colon_numbers (val, spec->c.target_dir, 3);
          spec->given |= CF_DIR;
        }
      else if (strcmp (key, "ease-in") == 0 || strcmp (key, "ease-out") == 0)
        {
          gboolean in = strcmp (key, "ease-in") == 0;

          ok = parse_colon_numbers (val, ease, 2);
          if (in)
            spec->c.ease_in_start = ease[0], spec->c.ease_in_stop = ease[1];
          else
            spec->c.ease_out_start = ease[0], spec->c.ease_out_stop = ease[1];
          spec->given |= in ? CF_EASE_IN : CF_EASE_OUT;
        }
      else
        {
          *message = g_strdup_printf ("unknown constraint field “%s”", key);
          return FALSE;
        }
      if (!ok)
        {
          *message = g_strdup_printf ("bad value “%s” for %s", val, key);
          return FALSE;
        }
    }
  return TRUE;
}

/* The edit a spec makes on `clip`: the given fields over the constraint's
 * current ones */
static SqEdit *
constraint_edit (const ConstraintSpec *spec,
                 const SqClip         *clip)
{
  SqSlConstraint c = { 0 };
  const SqSlConstraint *s = &spec->c;
  guint index = spec->index == G_MAXUINT ? sq_sl_constraint_count (clip) : spec->index;

  if (spec->index != G_MAXUINT && !sq_sl_constraint_get (clip, index, &c))
    return sq_edit_sl_constraint_new (index, s);   /* refused with a message */
  if (spec->given & CF_CHAIN)
    c.chain_length = s->chain_length;
  if (spec->given & CF_TYPE)
    c.type = s->type;
  if (spec->given & CF_SOURCE)
    memcpy (c.source_volume, s->source_volume, sizeof c.source_volume);
  if (spec->given & CF_TARGET)
    memcpy (c.target_volume, s->target_volume, sizeof c.target_volume);
  if (spec->given & CF_SOURCE_OFFSET)
    memcpy (c.source_offset, s->source_offset, sizeof c.source_offset);
  if (spec->given & CF_TARGET_OFFSET)
    memcpy (c.target_offset, s->target_offset, sizeof c.target_offset);
  if (spec->given & CF_DIR)
    memcpy (c.target_dir, s->target_dir, sizeof c.target_dir);
  if (spec->given & CF_EASE_IN)
    c.ease_in_start = s->ease_in_start, c.ease_in_stop = s->ease_in_stop;
  if (spec->given & CF_EASE_OUT)
    c.ease_out_start = s->ease_out_start, c.ease_out_stop = s->ease_out_stop;
  return sq_edit_sl_constraint_new (index, &c);
}

/* "--name=value" or "--name value" */
const char *
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

gboolean
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
  /* per edit: NULL, or a constraint spec whose edit is made when it runs */
  g_autoptr(GPtrArray) specs = g_ptr_array_new_with_free_func (g_free);
  const char *in = NULL, *out = NULL;
  const SqFormat *format = NULL;
  const char *map_path = NULL;
  g_autoptr(SqJointMap) map = NULL;
  gboolean bad = FALSE;

  if (cli_is_batch (argc, argv))
    return cli_batch (cmd_edit, TRUE, argc, argv);
  for (int i = 0; i < argc; i++)
    {
      const char *a = argv[i];
      const char *v;

      if (strcmp (a, "-o") == 0 || option_is (a, "--output"))
        {
          if ((out = option_value (argc, argv, &i, strcmp (a, "-o") == 0 ? "-o" : "--output")) == NULL)
            return usage_error ("-o needs OUT");
        }
      else if (option_is (a, "--map"))
        {
          if ((map_path = option_value (argc, argv, &i, "--map")) == NULL || *map_path == '\0')
            return usage_error ("--map needs a FILE");
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
      else if (option_is (a, "--delete-keys"))
        {
          g_autofree char *joint = NULL;
          const char *at;
          double t;

          if ((v = option_value (argc, argv, &i, "--delete-keys")) == NULL || (at = strrchr (v, '@')) == NULL
              || !parse_number (at + 1, &t))
            return usage_error ("--delete-keys needs NAME@TIME (seconds)");
          joint = g_strndup (v, at - v);
          g_ptr_array_add (edits, sq_edit_delete_keys_new (joint, t));
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
      else if (option_is (a, "--set-constraint") || option_is (a, "--add-constraint"))
        {
          gboolean add = option_is (a, "--add-constraint");
          const char *name = add ? "--add-constraint" : "--set-constraint";
          g_autofree ConstraintSpec *spec = g_new0 (ConstraintSpec, 1);
          g_autofree char *message = NULL;
          const char *fields;
          gint64 n;

          if ((v = option_value (argc, argv, &i, name)) == NULL)
            return usage_error (add ? "--add-constraint needs SPEC (see --help)"
                                    : "--set-constraint needs N:SPEC (see --help)");
          spec->index = G_MAXUINT;
          fields = v;
          if (!add)
            {
              const char *colon = strchr (v, ':');
              g_autofree char *num = colon ? g_strndup (v, colon - v) : NULL;

              if (colon == NULL || !parse_int (num, &n) || n < 1 || n >= G_MAXUINT)
                return usage_error ("--set-constraint needs N:SPEC with N = 1 for the first constraint");
              spec->index = (guint) (n - 1);
              fields = colon + 1;
            }
          if (!parse_constraint_fields (fields, spec, &message))
            return usage_error ("%s: %s", name, message);
          g_ptr_array_add (edits, NULL);
          g_ptr_array_set_size (specs, edits->len - 1);
          g_ptr_array_add (specs, g_steal_pointer (&spec));
        }
      else if (option_is (a, "--frame-rate") || option_is (a, "--frame-time"))
        {
          gboolean rate = option_is (a, "--frame-rate");
          double f;

          if ((v = option_value (argc, argv, &i, rate ? "--frame-rate" : "--frame-time")) == NULL
              || !parse_number (v, &f))
            return usage_error (rate ? "--frame-rate needs FPS (a number)" : "--frame-time needs SECONDS (a number)");
          g_ptr_array_add (edits, rate ? sq_edit_set_frame_rate_new (f) : sq_edit_set_frame_time_new (f));
        }
      else if (option_is (a, "--set-name"))
        {
          if ((v = option_value (argc, argv, &i, "--set-name")) == NULL)
            return usage_error ("--set-name needs NAME (\"\" for none)");
          g_ptr_array_add (edits, sq_edit_dx_set_name_new (v));
        }
      else if (cli_motion_option (argc, argv, &i, edits, &bad) || cli_sims_option (argc, argv, &i, edits, &bad))
        {
          if (bad)
            return EXIT_USAGE;
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
    {
      if (i < specs->len && specs->pdata[i] != NULL)
        edits->pdata[i] = constraint_edit (specs->pdata[i], clip);
      if (!sq_edit_apply (edits->pdata[i], clip, &error))
        {
          g_autofree char *what = sq_edit_describe (edits->pdata[i]);
          g_printerr ("sequin-cli: %s: %s: %s\n", in, what, error->message);
          return EXIT_BAD_INPUT;
        }
      cli_print_report (in, edits->pdata[i]);
    }
  if (map_path != NULL && (map = load_map (map_path)) == NULL)
    return EXIT_BAD_INPUT;
  return write_clip (clip, format ? format : clip->format, map, out);
}

static int
cmd_validate (int    argc,
              char **argv)
{
  const char *target = "aw";
  int status = 0;
  guint n_files = 0;
  gboolean loss = FALSE;

  for (int i = 0; i < argc; i++)
    if (strcmp (argv[i], "--loss") == 0)
      loss = TRUE;
    else if (option_is (argv[i], "--target"))
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
      if (strcmp (argv[i], "--loss") == 0)
        continue;
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
      if (loss && !cli_print_loss (argv[i], clip))
        status = EXIT_BAD_INPUT;
      if (sq_findings_have_errors (findings) || clip->warnings->len > 0)
        status = EXIT_BAD_INPUT;
      else
        printf ("%s: OK for %s\n", argv[i], target);
    }
  if (n_files == 0)
    return usage_error ("validate needs at least one FILE");
  if (loss && strcmp (target, "sl") != 0)
    return usage_error ("--loss goes with --target sl");
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
  if (strcmp (cmd, "diff") == 0)
    return cli_diff (argc - 2, argv + 2);
  return usage_error ("unknown command “%s”", cmd);
}
