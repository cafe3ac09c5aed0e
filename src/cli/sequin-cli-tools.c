/* sequin-cli-tools.c: the animator's tools on the command line: the motion
 * edit options and `diff`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sequin-cli"

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
    if (options[o].max > 0 ? option_is (a, options[o].name) : strcmp (a, options[o].name) == 0)
      break;
  if (o == G_N_ELEMENTS (options))
    return FALSE;
  if (options[o].max > 0)
    {
      const char *text = option_value (argc, argv, i, options[o].name);

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

/* Compares A with B and prints the report (text after a "== A B" line,
 * JSON naming both, after "," when not the first, when `many`); 0 within
 * the tolerance, 1 not or when a file cannot be read */
static int
diff_pair (const char   *path_a,
           const char   *path_b,
           gboolean      json,
           const double  tolerance[2],
           gboolean      many,
           gboolean     *first)
{
  const char *paths[2] = { path_a, path_b };
  g_autoptr(SqClip) a = NULL;
  g_autoptr(SqClip) b = NULL;
  g_autoptr(SqDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  for (guint k = 0; k < 2; k++)
    {
      SqClip *clip = load_file (paths[k], &error);

      if (clip == NULL)
        return fail_file (paths[k], error);
      *(k ? &b : &a) = clip;
    }
  if ((diff = sq_diff_clips (a, b, &error)) == NULL)
    return fail_file (path_b, error);
  if (many && json)
    {
      diff->label_a = g_strdup (path_a);
      diff->label_b = g_strdup (path_b);
      fputs (*first ? "" : ",\n", stdout);
    }
  else if (many)
    printf ("== %s %s\n", path_a, path_b);
  *first = FALSE;
  text = json ? sq_diff_to_json (diff) : sq_diff_to_text (diff);
  if (many && json)
    g_strchomp (text);
  fputs (text, stdout);
  return sq_diff_within (diff, tolerance[0], tolerance[1]) ? 0 : EXIT_BAD_INPUT;
}

/* The file of DIR that `path` is compared with: the same base name, else
 * the only file with the same name before the extension; NULL if none */
static char *
counterpart (const char *dir,
             const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *same = g_build_filename (dir, base, NULL);
  g_autoptr(GDir) d = NULL;
  const char *name, *dot = strrchr (base, '.');
  gsize stem = dot != NULL && dot != base ? (gsize) (dot - base) : strlen (base);
  char *found = NULL;

  if (g_file_test (same, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&same);
  if ((d = g_dir_open (dir, 0, NULL)) == NULL)
    return NULL;
  while ((name = g_dir_read_name (d)) != NULL)
    if (strncmp (name, base, stem) == 0 && name[stem] == '.' && strchr (name + stem + 1, '.') == NULL)
      {
        if (found != NULL)
          {
            g_free (found);   /* two candidates: no answer */
            return NULL;
          }
        found = g_build_filename (dir, name, NULL);
      }
  return found;
}

/* sequin-cli diff [--json] [--tolerance DEG[,DIST]] A B
 * sequin-cli diff [--json] [--tolerance DEG[,DIST]] --against DIR FILE… */
int
cli_diff (int    argc,
          char **argv)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  guint n, n_failed = 0;
  gboolean json = FALSE;
  double tolerance[2] = { 0, 0 };
  const char *against = NULL;
  gboolean first = TRUE;

  for (int i = 0; i < argc; i++)
    {
      if (strcmp (argv[i], "--json") == 0)
        json = TRUE;
      else if (option_is (argv[i], "--tolerance"))
        {
          if (!parse_numbers (option_value (argc, argv, &i, "--tolerance"), tolerance, 2, &n)
              || tolerance[0] < 0 || tolerance[1] < 0)
            return usage_error ("--tolerance needs DEG[,DIST] (numbers ≥ 0)");
        }
      else if (option_is (argv[i], "--against"))
        {
          if ((against = option_value (argc, argv, &i, "--against")) == NULL || *against == '\0')
            return usage_error ("--against needs a DIR");
        }
      else if (argv[i][0] == '-' && argv[i][1] != '\0')
        return usage_error ("diff: unknown option “%s”", argv[i]);
      else
        g_ptr_array_add (paths, argv[i]);
    }
  if (against == NULL)
    {
      if (paths->len != 2)
        return usage_error ("diff takes two files, A and B (or --against DIR FILE…)");
      return diff_pair (paths->pdata[0], paths->pdata[1], json, tolerance, FALSE, &first);
    }
  if (paths->len == 0)
    return usage_error ("diff --against DIR needs at least one FILE");

  /* each FILE against its counterpart in DIR, one report after the other
   * (JSON: one array) */
  if (json)
    fputs ("[", stdout);
  for (guint f = 0; f < paths->len; f++)
    {
      g_autofree char *other = counterpart (against, paths->pdata[f]);

      if (other == NULL)
        {
          g_printerr ("sequin-cli: %s: no file of the same name in %s\n", (const char *) paths->pdata[f], against);
          n_failed++;
          continue;
        }
      n_failed += diff_pair (paths->pdata[f], other, json, tolerance, TRUE, &first) != 0;
    }
  if (json)
    fputs ("]\n", stdout);
  if (n_failed > 0)
    g_printerr ("sequin-cli: %u of %u pairs differ or could not be compared\n", n_failed, paths->len);
  return n_failed > 0 ? EXIT_BAD_INPUT : 0;
}

/* ---- batch: convert and edit over many files ------------------------------ */

typedef struct
{
  CliCommand  command;
  GPtrArray  *args;         /* per input: a NULL-ended argv (GStrv) */
  int        *status;       /* per input */
  guint       done, total;
  gboolean    progress;     /* stderr is a terminal */
  GMutex      lock;
} Batch;

static void
batch_run_one (gpointer data,
               gpointer user_data)
{
  Batch *batch = user_data;
  guint index = GPOINTER_TO_UINT (data) - 1;
  char **argv = batch->args->pdata[index];

  /* an input refused before (a second one of an output name) is not run */
  if (batch->status[index] == 0)
    batch->status[index] = batch->command ((int) g_strv_length (argv), argv);
  g_mutex_lock (&batch->lock);
  batch->done++;
  if (batch->progress)
    g_printerr ("\r\033[Ksequin-cli: %u of %u files", batch->done, batch->total);
  g_mutex_unlock (&batch->lock);
}

/* Runs the per-input commands over all cores, their exit status in
 * `status` */
static void
batch_run (Batch *batch)
{
  g_autoptr(GError) error = NULL;
  guint threads = MAX (1, MIN ((guint) g_get_num_processors (), batch->total));
  GThreadPool *pool;

  g_mutex_init (&batch->lock);
  batch->progress = isatty (STDERR_FILENO);
  pool = g_thread_pool_new (batch_run_one, batch, (gint) threads, TRUE, &error);
  if (pool == NULL)
    {
      /* no threads: one after another */
      for (guint i = 0; i < batch->total; i++)
        batch_run_one (GUINT_TO_POINTER (i + 1), batch);
    }
  else
    {
      for (guint i = 0; i < batch->total; i++)
        g_thread_pool_push (pool, GUINT_TO_POINTER (i + 1), NULL);
      g_thread_pool_free (pool, FALSE, TRUE);
    }
  if (batch->progress && batch->total > 0)
    g_printerr ("\n");
  g_mutex_clear (&batch->lock);
}

/* The output of `input` in `dir`: its base name, with the extension of
 * `format` when given */
static char *
batch_output (const char     *dir,
              const char     *input,
              const SqFormat *format)
{
  g_autofree char *base = g_path_get_basename (input);

  if (format != NULL)
    {
      char *dot = strrchr (base, '.');

      if (dot != NULL && dot != base)
        *dot = '\0';
      return g_strdup_printf ("%s%s%s.%s", dir, G_DIR_SEPARATOR_S, base, format->extensions[0]);
    }
  return g_build_filename (dir, base, NULL);
}

/* Whether option `arg` of `convert` or `edit` takes the next argument as
 * its value (not when given as --name=VALUE): the options known to; an
 * option this list does not know takes it unless it is a file */
static gboolean
takes_value (const char *arg,
             const char *next)
{
  static const char * const with_value[] = {
    "-o", "--to", "--map", "--rename-joint", "--delete-joint", "--delete-keys", "--rename-root", "--rescale",
    "--priority", "--joint-priority", "--loop", "--ease", "--hand-pose", "--emote", "--delete-constraint",
    "--set-constraint", "--add-constraint", "--frame-rate", "--frame-time", "--set-name", "--resample",
    "--speed", "--trim", "--reduce", "--rename-pose", "--duplicate-pose", "--delete-pose", "--move-pose",
    "--start-pose", "--end-pose", "--skill-name", "--skill-duration", NULL,
  };
  static const char * const without[] = {
    "--invert-xz", "--no-loop", "--mirror", "--reverse", "--close-loop", "--bounce", "--no-bounce", NULL,
  };

  if (strchr (arg, '=') != NULL || next == NULL || g_strv_contains (without, arg))
    return FALSE;
  if (strcmp (arg, "--set-first-frame") == 0)
    return strchr (next, ',') != NULL;
  if (g_strv_contains (with_value, arg))
    return TRUE;
  return !g_file_test (next, G_FILE_TEST_EXISTS);
}

gboolean
cli_is_batch (int    argc,
              char **argv)
{
  for (int i = 0; i < argc; i++)
    if (option_is (argv[i], "--out-dir"))
      return TRUE;
  return FALSE;
}

/* `convert --to FORMAT --out-dir DIR FILE…` and `edit --out-dir DIR
 * [--to FORMAT] FILE… OPERATION…`: `command` (cmd_convert, cmd_edit) runs
 * once per FILE with the other arguments and the output in DIR; a bad file
 * is reported by it and the others are still done. */
int
cli_batch (CliCommand  command,
           gboolean    edit,
           int         argc,
           char      **argv)
{
  g_autoptr(GPtrArray) inputs = g_ptr_array_new ();
  g_autoptr(GPtrArray) options = g_ptr_array_new ();
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(GHashTable) outputs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GString) failed = g_string_new (NULL);
  g_autofree int *status = NULL;
  const char *out_dir = NULL;
  const SqFormat *format = NULL;
  guint n_failed = 0;
  Batch batch = { 0 };

  for (int i = 0; i < argc; i++)
    {
      const char *a = argv[i];

      if (option_is (a, "--out-dir"))
        {
          if ((out_dir = option_value (argc, argv, &i, "--out-dir")) == NULL || *out_dir == '\0')
            return usage_error ("--out-dir needs a DIR");
          continue;
        }
      if (strcmp (a, "-o") == 0 || g_str_has_prefix (a, "--output"))
        return usage_error ("--out-dir names the outputs: -o has no place beside it");
      if (a[0] != '-' || a[1] == '\0')
        {
          g_ptr_array_add (inputs, (char *) a);
          continue;
        }
      g_ptr_array_add (options, (char *) a);
      if (strcmp (a, "--to") == 0 && i + 1 < argc)
        format = sq_format_by_id (argv[i + 1]);
      else if (g_str_has_prefix (a, "--to="))
        format = sq_format_by_id (a + 5);
      if (takes_value (a, i + 1 < argc ? argv[i + 1] : NULL))
        g_ptr_array_add (options, argv[++i]);
    }
  if (inputs->len == 0)
    return usage_error ("--out-dir needs at least one FILE");
  if (!edit && format == NULL)
    return usage_error ("convert --out-dir needs --to FORMAT");
  if (g_mkdir_with_parents (out_dir, 0777) != 0)
    {
      g_printerr ("sequin-cli: %s: cannot create the folder: %s\n", out_dir, g_strerror (errno));
      return EXIT_BAD_INPUT;
    }

  status = g_new0 (int, inputs->len);
  for (guint f = 0; f < inputs->len; f++)
    {
      GPtrArray *v = g_ptr_array_new ();
      char *out = batch_output (out_dir, inputs->pdata[f], format);

      for (guint k = 0; k < options->len; k++)
        g_ptr_array_add (v, g_strdup (options->pdata[k]));
      g_ptr_array_add (v, g_strdup (inputs->pdata[f]));
      if (edit)
        g_ptr_array_add (v, g_strdup ("-o"));
      g_ptr_array_add (v, out);
      g_ptr_array_add (v, NULL);
      g_ptr_array_add (args, g_ptr_array_free (v, FALSE));
      /* two inputs of one base name would write one output */
      if (!g_hash_table_insert (outputs, g_strdup (out), NULL))
        {
          g_printerr ("sequin-cli: %s: %s is the output of an earlier file too; not written\n",
                      (const char *) inputs->pdata[f], out);
          status[f] = -1;
        }
    }

  batch.command = command;
  batch.args = args;
  batch.status = status;
  batch.total = inputs->len;
  batch_run (&batch);
  for (guint f = 0; f < inputs->len; f++)
    if (status[f] != 0)
      {
        g_string_append_printf (failed, "%s%s", n_failed ? ", " : "", (const char *) inputs->pdata[f]);
        n_failed++;
      }
  if (n_failed > 0)
    g_printerr ("sequin-cli: %u %s, %u failed: %s\n", inputs->len - n_failed, edit ? "edited" : "converted",
                n_failed, failed->str);
  else
    g_printerr ("sequin-cli: %u %s\n", inputs->len, edit ? "edited" : "converted");
  return n_failed > 0 ? EXIT_BAD_INPUT : 0;
}

/* `info FILE…`: each file's summary after a "File:" line, in the order
 * given; 1 when any could not be read, the others still shown */
int
cli_each_file (CliCommand  command,
               int         argc,
               char      **argv)
{
  int status = 0;

  for (int i = 0; i < argc; i++)
    {
      char *one[2] = { argv[i], NULL };

      if (argv[i][0] == '-' && argv[i][1] != '\0')
        return usage_error ("unknown option “%s”", argv[i]);
      printf ("%sFile:      %s\n", i ? "\n" : "", argv[i]);
      fflush (stdout);
      if (command (1, one) != 0)
        status = EXIT_BAD_INPUT;
    }
  return status;
}
