/* sequin-cli-tools.c: the animator's tools on the command line: the motion
 * `diff`, validate --loss and the batches of convert and edit
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

void
cli_print_report (const char   *path,
                  const SqEdit *edit)
{
  const char *report = sq_edit_get_report (edit);

  if (report != NULL)
    printf ("%s: note: %s: %s\n", path, sq_edit_get_label (edit), report);
}

/* The clip against the file of `world`'s format written from it and read
 * back (the world's save_loss): its notes (the file's size against the
 * world's limit among them), then its losses */
gboolean
cli_print_loss (CliSink           *sink,
                const char        *path,
                const SqClip      *clip,
                const SqWorldHome *world)
{
  g_autoptr(GPtrArray) losses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(SqDiff) diff = NULL;

  if ((diff = world->save_loss (clip, losses, notes, NULL, &error)) == NULL)
    {
      cli_sink_fail (sink, path, error);
      return FALSE;
    }
  for (guint i = 0; i < notes->len; i++)
    cli_sink_printf (sink, FALSE, "%s: note: %s\n", path, (const char *) notes->pdata[i]);
  for (guint i = 0; i < losses->len; i++)
    cli_sink_printf (sink, FALSE, "%s: loss: %s\n", path, (const char *) losses->pdata[i]);
  cli_sink_printf (sink, FALSE, "%s: loss: largest rotation error %.4g°, position error %.4g m\n", path,
                   diff->rotation, diff->translation);
  for (guint i = 0; i < diff->joints->len; i++)
    {
      const SqJointDiff *d = &g_array_index (diff->joints, SqJointDiff, i);

      if (d->in_a && d->in_b)
        cli_sink_printf (sink, FALSE, "%s: loss: %s: rotation %.4g° at %.4g s, position %.4g m at %.4g s\n", path,
                         d->name, d->rotation, d->rotation_time, d->translation, d->translation_time);
      else
        cli_sink_printf (sink, FALSE, "%s: loss: %s: %s\n", path, d->name, d->in_a ? "left out" : "added");
    }
  return TRUE;
}

/* Compares A's take (the request's --take) with B's and prints the report
 * (text after a "== A B" line, JSON naming both, after "," when not the
 * first, when `many`); 0 within the tolerance, 1 not or when a file cannot
 * be read */
static int
diff_pair (const CliRequest *request,
           const char       *path_a,
           const char       *path_b,
           gboolean          many,
           gboolean         *first)
{
  const char *paths[2] = { path_a, path_b };
  const guint takes[2] = { request->take, request->take_b };
  gboolean json = request->json;
  g_autoptr(SqClip) a = NULL;
  g_autoptr(SqClip) b = NULL;
  g_autoptr(SqDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  for (guint k = 0; k < 2; k++)
    {
      SqClip *clip = load_file (paths[k], takes[k], &error);

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
  return sq_diff_within (diff, request->tolerance[0], request->tolerance[1]) ? 0 : EXIT_BAD_INPUT;
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

/* diff --tolerance DEG[,DIST]: numbers ≥ 0, DIST 0 when not given */
static gboolean
set_tolerance (const CliOption *option,
               const char      *value,
               CliRequest      *request,
               GError         **error)
{
  double v[2] = { 0, 0 };
  guint n;

  if (!cli_parse_numbers (value, ',', v, 1, 2, &n) || v[0] < 0 || v[1] < 0)
    return cli_refuse (option, error);
  request->tolerance[0] = v[0];
  request->tolerance[1] = v[1];
  return TRUE;
}

/* diff --take N[,M]: take N of the first file, M (without it N) of the
 * second; from 1, stored from 0 */
static gboolean
set_diff_take (const CliOption *option,
               const char      *value,
               CliRequest      *request,
               GError         **error)
{
  g_auto(GStrv) parts = g_strsplit (value, ",", -1);
  guint n = g_strv_length (parts);
  guint takes[2];

  if (n < 1 || n > 2)
    return cli_refuse (option, error);
  for (guint k = 0; k < n; k++)
    {
      gint64 v;

      if (!cli_parse_int (parts[k], &v) || v < 1 || v > G_MAXUINT)
        return cli_refuse (option, error);
      takes[k] = (guint) (v - 1);
    }
  request->take = takes[0];
  request->take_b = takes[n - 1];
  return TRUE;
}

/* sequin-cli diff [--json] [--tolerance DEG[,DIST]] [--take N[,M]] A B
 * sequin-cli diff [--json] [--tolerance DEG[,DIST]] [--take N[,M]] --against DIR FILE… */
static int
cmd_diff (CliRequest *request)
{
  GPtrArray *paths = request->files;
  guint n_failed = 0;
  gboolean json = request->json;
  const char *against = request->against;
  gboolean first = TRUE;

  if (against == NULL)
    {
      if (paths->len != 2)
        return usage_error ("diff takes two files, A and B (or --against DIR FILE…)");
      return diff_pair (request, paths->pdata[0], paths->pdata[1], FALSE, &first);
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
      n_failed += diff_pair (request, paths->pdata[f], other, TRUE, &first) != 0;
    }
  if (json)
    fputs ("]\n", stdout);
  if (n_failed > 0)
    g_printerr ("sequin-cli: %u of %u pairs differ or could not be compared\n", n_failed, paths->len);
  return n_failed > 0 ? EXIT_BAD_INPUT : 0;
}

static const CliOption diff_options[] = {
  { "json", 0, CLI_ARG_NONE, NULL, "the report as JSON", cli_set_flag, G_STRUCT_OFFSET (CliRequest, json) },
  { "tolerance", 0, CLI_ARG_REQUIRED, "DEG[,DIST]",
    "the largest difference in degrees and file units that passes (default 0,0)",
    set_tolerance, 0, NULL, 0, 0, "--tolerance needs DEG[,DIST] (numbers ≥ 0)" },
  { "against", 0, CLI_ARG_REQUIRED, "DIR", "compare each FILE with the file of its name in DIR",
    cli_set_path, G_STRUCT_OFFSET (CliRequest, against), NULL, 0, 0, "--against needs a DIR" },
  { "take", 0, CLI_ARG_REQUIRED, "N[,M]",
    "compare take N of the first file with take M of the second, from 1 (N alone: of both; `info` lists them)",
    set_diff_take, 0, NULL, 0, 0, "--take needs N[,M], whole numbers from 1" },
};

static const CliSection diff_sections[] = {
  { NULL, diff_options, G_N_ELEMENTS (diff_options) },
  { NULL, &cli_help_option, 1 },
};

const CliCommandSpec cli_diff_command = {
  "diff", "A B | --against DIR FILE…",
  (const char *[]) { "diff [--json] [--tolerance DEG[,DIST]] [--take N[,M]] A B",
                     "diff [--json] [--tolerance DEG[,DIST]] [--take N[,M]] --against DIR FILE…", NULL },
  "Compares two clips joint by joint.",
  "diff compares each joint over both clips' key times (B converted to A's format):\n"
  "exit 0 when within the tolerance (default: identical), 1 when not.\n"
  "--take N,M compares take N of A (of each FILE) with take M of B (of its file in DIR), so\n"
  "`diff --take 1,2 F.x F.x` compares two AnimationSets of one file; --take N reads take N of both.",
  diff_sections, G_N_ELEMENTS (diff_sections), cmd_diff,
};

/* ---- output kept per file, printed in order -------------------------------- */

/* A run of text for one stream: its first byte says which (1 stdout, 2
 * stderr) */
struct _CliSink
{
  GPtrArray *chunks;        /* GString * */
};

CliSink *
cli_sink_new (void)
{
  CliSink *sink = g_new0 (CliSink, 1);

  sink->chunks = g_ptr_array_new ();
  return sink;
}

static void
sink_free (CliSink *sink)
{
  for (guint i = 0; i < sink->chunks->len; i++)
    g_string_free (sink->chunks->pdata[i], TRUE);
  g_ptr_array_unref (sink->chunks);
  g_free (sink);
}

void
cli_sink_printf (CliSink    *sink,
                 gboolean    to_stderr,
                 const char *format,
                 ...)
{
  char tag = to_stderr ? '2' : '1';
  GString *last = sink->chunks->len > 0 ? sink->chunks->pdata[sink->chunks->len - 1] : NULL;
  va_list args;

  if (last == NULL || last->str[0] != tag)
    {
      last = g_string_new (NULL);
      g_string_append_c (last, tag);
      g_ptr_array_add (sink->chunks, last);
    }
  va_start (args, format);
  g_string_append_vprintf (last, format, args);
  va_end (args);
}

int
cli_sink_fail (CliSink      *sink,
               const char   *path,
               const GError *error)
{
  cli_sink_printf (sink, TRUE, "sequin-cli: %s: %s\n", path, error->message);
  return EXIT_BAD_INPUT;
}

void
cli_sink_warnings (CliSink      *sink,
                   const char   *path,
                   const SqClip *clip)
{
  for (guint i = 0; i < clip->warnings->len; i++)
    cli_sink_printf (sink, TRUE, "sequin-cli: %s: warning: %s\n", path, (const char *) clip->warnings->pdata[i]);
}

/* Prints the sink's text, each stream's part in turn (stdout flushed
 * before stderr is written), and frees it */
void
cli_sink_flush (CliSink *sink)
{
  for (guint i = 0; i < sink->chunks->len; i++)
    {
      GString *chunk = sink->chunks->pdata[i];

      if (chunk->str[0] == '1')
        fputs (chunk->str + 1, stdout);
      else
        {
          fflush (stdout);
          fputs (chunk->str + 1, stderr);
        }
    }
  fflush (stdout);
  sink_free (sink);
}

/* ---- running per file over all cores --------------------------------------- */

typedef struct
{
  CliEachFunc run, done;
  gpointer    data;
  GMutex      lock;
} Each;

static void
each_one (gpointer item,
          gpointer user_data)
{
  Each *each = user_data;
  guint index = GPOINTER_TO_UINT (item) - 1;

  each->run (index, each->data);
  g_mutex_lock (&each->lock);
  each->done (index, each->data);
  g_mutex_unlock (&each->lock);
}

/* `run (i, data)` for every i below n over all cores (one after another
 * when no thread can be made); `done (i, data)` after each, one at a time */
static void
cli_each (guint       n,
          CliEachFunc run,
          CliEachFunc done,
          gpointer    data)
{
  g_autoptr(GError) error = NULL;
  guint threads = MAX (1, MIN ((guint) g_get_num_processors (), n));
  Each each = { run, done, data };
  GThreadPool *pool;

  g_mutex_init (&each.lock);
  pool = g_thread_pool_new (each_one, &each, (gint) threads, TRUE, &error);
  if (pool == NULL)
    {
      for (guint i = 0; i < n; i++)
        each_one (GUINT_TO_POINTER (i + 1), &each);
    }
  else
    {
      for (guint i = 0; i < n; i++)
        g_thread_pool_push (pool, GUINT_TO_POINTER (i + 1), NULL);
      g_thread_pool_free (pool, FALSE, TRUE);
    }
  g_mutex_clear (&each.lock);
}

/* ---- many files read, their output in the order given (info, validate) ---- */

typedef struct
{
  CliSinkFunc one;
  gpointer    data;
  CliSink   **sinks;        /* per file, until printed */
  int        *status;
  gboolean   *finished;
  guint       next, n;      /* the first file not yet printed */
} Ordered;

static void
ordered_run (guint    index,
             gpointer data)
{
  Ordered *o = data;

  o->sinks[index] = cli_sink_new ();
  o->status[index] = o->one (index, o->sinks[index], o->data);
}

/* (under the lock) prints every finished file whose earlier files are
 * printed */
static void
ordered_done (guint    index,
              gpointer data)
{
  Ordered *o = data;

  o->finished[index] = TRUE;
  while (o->next < o->n && o->finished[o->next])
    {
      cli_sink_flush (o->sinks[o->next]);
      o->sinks[o->next++] = NULL;
    }
}

int
cli_each_in_order (guint       n,
                   CliSinkFunc one,
                   gpointer    data)
{
  Ordered o = { one, data, g_new0 (CliSink *, MAX (n, 1)), g_new0 (int, MAX (n, 1)),
                g_new0 (gboolean, MAX (n, 1)), 0, n };
  int status = 0;

  cli_each (n, ordered_run, ordered_done, &o);
  for (guint i = 0; i < n; i++)
    if (o.status[i] != 0)
      status = EXIT_BAD_INPUT;
  g_free (o.sinks);
  g_free (o.status);
  g_free (o.finished);
  return status;
}

/* ---- batch: convert and edit over many files ------------------------------ */

typedef struct
{
  const CliRequest *request;
  CliOneFunc  one;
  GPtrArray  *outputs;      /* per input: its output's path */
  int        *status;       /* per input */
  guint       done, total;
  gboolean    progress;     /* stderr is a terminal */
} Batch;

static void
batch_run_one (guint    index,
               gpointer data)
{
  Batch *batch = data;

  /* an input refused before (a second one of an output name) is not run */
  if (batch->status[index] == 0)
    batch->status[index] = batch->one (batch->request, batch->request->files->pdata[index],
                                       batch->outputs->pdata[index]);
}

static void
batch_done_one (guint    index,
                gpointer data)
{
  Batch *batch = data;

  batch->done++;
  if (batch->progress)
    g_printerr ("\r\033[Ksequin-cli: %u of %u files", batch->done, batch->total);
}

/* Runs the per-input commands over all cores, their exit status in
 * `status` */
static void
batch_run (Batch *batch)
{
  batch->progress = isatty (STDERR_FILENO);
  cli_each (batch->total, batch_run_one, batch_done_one, batch);
  if (batch->progress && batch->total > 0)
    g_printerr ("\n");
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

/* `convert --to FORMAT --out-dir DIR FILE…` and `edit --out-dir DIR
 * [--to FORMAT] FILE… OPERATION…`: `one` runs once per FILE with the
 * request's options and the output in DIR; a bad file is reported by it
 * and the others are still done. */
int
cli_batch (const CliRequest *request,
           CliOneFunc        one,
           gboolean          edit)
{
  GPtrArray *inputs = request->files;
  g_autoptr(GPtrArray) outputs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GString) failed = g_string_new (NULL);
  g_autofree int *status = NULL;
  const char *out_dir = request->out_dir;
  guint n_failed = 0;
  Batch batch = { 0 };

  if (request->out != NULL)
    return usage_error ("--out-dir names the outputs: -o has no place beside it");
  if (inputs->len == 0)
    return usage_error ("--out-dir needs at least one FILE");
  if (!edit && request->format == NULL)
    return usage_error ("convert --out-dir needs --to FORMAT");
  if (g_mkdir_with_parents (out_dir, 0777) != 0)
    {
      g_printerr ("sequin-cli: %s: cannot create the folder: %s\n", out_dir, g_strerror (errno));
      return EXIT_BAD_INPUT;
    }

  status = g_new0 (int, inputs->len);
  for (guint f = 0; f < inputs->len; f++)
    {
      char *out = batch_output (out_dir, inputs->pdata[f], request->format);

      g_ptr_array_add (outputs, out);
      /* two inputs of one base name would write one output */
      if (!g_hash_table_add (seen, out))
        {
          g_printerr ("sequin-cli: %s: %s is the output of an earlier file too; not written\n",
                      (const char *) inputs->pdata[f], out);
          status[f] = -1;
        }
    }

  batch.request = request;
  batch.one = one;
  batch.outputs = outputs;
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
