/* sequin-bench.c: read and write throughput of every format, and peak memory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   sequin-bench [--sizes 10k,1m,50m] [--runs N] [--write-dir DIR] [--only read|write] [--clock wall|cpu] [--decode] [FILE…]
 *
 * Without FILEs it generates deterministic files of each writable format at
 * each size (a clip of 40 joints with random rotations and root locations,
 * written by the core) and measures them; with FILEs it measures those.
 * Times are the median of N runs; small files are read in a loop until a
 * run lasts 50 ms. A write is what saving does before the file itself is
 * written: the file's pieces (sq_save_pieces), where records kept as read
 * are slices of the bytes read; "one buffer" is the same write copied into
 * one block of memory (sq_save_bytes). Peak memory is the rise of the process's peak resident
 * size (VmHWM, reset through /proc/self/clear_refs) while reading one copy.
 */
#include "config.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sq-core.h"

static long
read_status_kb (const char *field)
{
  g_autofree char *status = NULL;
  const char *p;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1;
  if ((p = strstr (status, field)) == NULL)
    return -1;
  return strtol (p + strlen (field) + 1, NULL, 10);
}

static void
reset_peak (void)
{
  /* written in place: g_file_set_contents would replace the file */
  FILE *f = fopen ("/proc/self/clear_refs", "w");

  if (f != NULL)
    {
      fputs ("5", f);
      fclose (f);
    }
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* --clock cpu: the process's CPU time instead of the wall clock, for a
 * machine that other work shares (time spent descheduled is not counted) */
static gboolean cpu_clock;

static gint64
now_us (void)
{
  struct timespec ts;

  if (!cpu_clock)
    return g_get_monotonic_time ();
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* seconds per operation, median over runs */
static double
measure (gboolean (*op) (gpointer), gpointer data, guint runs)
{
  g_autofree double *t = g_new (double, runs);

  for (guint r = 0; r < runs; r++)
    {
      guint n = 0;
      gint64 start = now_us (), now;
      do
        {
          if (!op (data))
            return NAN;
          n++;
          now = now_us ();
        }
      while (now - start < 50000);
      t[r] = (now - start) / 1e6 / n;
    }
  qsort (t, runs, sizeof (double), compare_double);
  return t[runs / 2];
}

/* --only read|write: one side alone, for profiling */
static gboolean only_read, only_write;
/* --decode: a read also asks for every key once (packed tracks, see
 * SqKeyCodec, decode keys when they are asked for) */
static gboolean decode_all;
static volatile double decode_sink;

typedef struct
{
  GBytes         *bytes;
  const SqFormat *format;
  SqClip         *clip;
  gboolean        one_buffer;   /* op_write: sq_save_bytes instead of the pieces */
  /* the companion files (a Sims skill's CFP) the main file names, as
   * SqCompanion*s: a read is served them, a write gives them anew */
  GPtrArray      *companions;
  const char     *folder;       /* else they are read from here */
} Job;

/* A companion file for a load: from the job's own, else from the folder */
static GBytes *
give_companion (const char *name,
                gpointer    data,
                GError    **error)
{
  Job *job = data;
  g_autofree char *path = NULL;
  char *text = NULL;
  gsize len = 0;

  for (guint i = 0; job->companions != NULL && i < job->companions->len; i++)
    {
      SqCompanion *c = job->companions->pdata[i];

      if (g_strcmp0 (c->name, name) == 0)
        return g_bytes_ref (c->bytes);
    }
  if (job->folder == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "no companion file “%s”", name);
      return NULL;
    }
  path = g_build_filename (job->folder, name, NULL);
  if (!g_file_get_contents (path, &text, &len, error))
    return NULL;
  return g_bytes_new_take (text, len);
}

static SqClip *
job_load (Job *job)
{
  SqLoadOptions options = { .companion = give_companion, .companion_data = job };

  return sq_load_bytes (job->bytes, NULL, job->format, &options, NULL);
}

/* The bytes of the main file and its companions */
static gsize
job_size (const Job *job)
{
  gsize size = g_bytes_get_size (job->bytes);

  for (guint i = 0; job->companions != NULL && i < job->companions->len; i++)
    size += g_bytes_get_size (((SqCompanion *) job->companions->pdata[i])->bytes);
  return size;
}

static gboolean
op_read (gpointer data)
{
  Job *job = data;
  SqClip *clip = job_load (job);
  if (clip == NULL)
    return FALSE;
  if (decode_all)
    {
      double sum = 0;

      for (gsize j = 0; j < clip->n_joints; j++)
        for (guint c = 0; c < SQ_N_CHANNELS; c++)
          for (gsize k = 0; k < clip->joints[j].tracks[c].n_keys; k++)
            {
              SqKey key = sq_track_key (&clip->joints[j].tracks[c], k);
              sum += key.time + key.v[0] + key.v[1] + key.v[2] + key.v[3];
            }
      decode_sink = sum;
    }
  sq_clip_free (clip);
  return TRUE;
}

/* a write as the CLI saves: the file's pieces (sq_save_pieces), records
 * kept as read among them as slices of the bytes read; or the same as one
 * buffer (sq_save_bytes), as the editor saves */
static gboolean
op_write (gpointer data)
{
  Job *job = data;
  SqSaveOptions opts = { .no_source_copy = TRUE };
  g_autoptr(GBytes) joined = NULL;
  g_autoptr(GPtrArray) pieces = NULL;
  g_autoptr(GPtrArray) companions = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_companion_free);

  opts.companions = companions;
  if (job->one_buffer)
    joined = sq_save_bytes (job->clip, job->format, &opts, NULL, NULL);
  else
    pieces = sq_save_pieces (job->clip, job->format, &opts, NULL, NULL);
  return joined != NULL || pieces != NULL;
}

/* A deterministic clip with about `keys` rotation keys. */
static SqClip *
make_clip (gsize keys)
{
  SqClip *clip = sq_clip_new ();
  const guint n_joints = 40;
  gsize per_joint = MAX (2, keys / n_joints);
  GRand *rand = g_rand_new_with_seed (1999);

  g_free (clip->root);
  clip->root = g_strdup ("pelvis");
  g_free (clip->name);
  clip->name = g_strdup ("bench");
  per_joint = MIN (per_joint, 60000);    /* binary SEQ counts frames in 16 bits */
  clip->duration = (per_joint - 1) / 30.0;
  for (guint j = 0; j < n_joints; j++)
    {
      g_autofree char *name = j == 0 ? g_strdup ("pelvis") : g_strdup_printf ("joint%02u", j);
      SqJoint *joint = sq_clip_add_joint (clip, name);
      SqTrack *rot = &joint->tracks[SQ_CHANNEL_ROTATION];

      sq_track_reserve (rot, per_joint);
      for (gsize k = 0; k < per_joint; k++)
        {
          SqKey *key = sq_track_append (rot, k / 30.0);
          double q[4] = { g_rand_double_range (rand, -1, 1), g_rand_double_range (rand, -1, 1),
                          g_rand_double_range (rand, -1, 1), g_rand_double_range (rand, -1, 1) };
          sq_quat_normalize (q);
          /* values a float holds, as binary SEQ stores them */
          for (guint c = 0; c < 4; c++)
            key->v[c] = (float) q[c];
        }
      if (j == 0)
        for (gsize k = 0; k < per_joint; k++)
          {
            SqKey *key = sq_track_append (&joint->tracks[SQ_CHANNEL_TRANSLATION], k / 30.0);
            key->v[0] = (float) g_rand_double_range (rand, -0.1, 0.1);
            key->v[1] = (float) g_rand_double_range (rand, 0.9, 1.1);
            key->v[2] = (float) g_rand_double_range (rand, -0.1, 0.1);
          }
    }
  g_rand_free (rand);
  return clip;
}

/* A file of `format` near `target` bytes (with its companions, which go
 * to `companions`, named after `label`), or NULL with the reason why not */
static GBytes *
generate (const SqFormat *format,
          gsize           target,
          const char     *label,
          GPtrArray      *companions,
          const char    **why_not)
{
  g_autoptr(SqClip) probe = make_clip (4000);
  SqSaveOptions opts = { .no_source_copy = TRUE, .companions = companions };
  g_autoptr(GBytes) small = sq_save_bytes (probe, format, &opts, NULL, NULL);
  Job sized = { small, format, NULL, FALSE, companions, NULL };
  double per_key;
  g_autoptr(SqClip) read_back = small != NULL ? job_load (&sized) : NULL;

  if (small == NULL || read_back == NULL)
    {
      *why_not = "the bench's clip does not save in it";
      return NULL;
    }
  if (sq_clip_count_keys (read_back) == 0)
    {
      *why_not = "it holds no keys (nothing to measure)";
      return NULL;
    }
  /* bytes per key of the clip, companions included (read back to be sure
   * the pair is whole) */
  per_key = (double) job_size (&sized) / sq_clip_count_keys (probe);
  g_ptr_array_set_size (companions, 0);
  gsize keys = (gsize) (target / per_key);
  g_autoptr(SqClip) clip = NULL;

  /* binary SEQ holds 65,535 frames: widen with joints instead (40 joints * 60,000 keys caps
   * a file near 48 MB; beyond that the joint count grows) */
  clip = make_clip (keys);
  if (format->flags & SQ_FORMAT_COMPANIONS)
    {
      /* the companion's name comes from the clip's: one per size */
      g_free (clip->name);
      clip->name = g_strdup_printf ("bench-%s", label);
    }
  while (sq_clip_count_keys (clip) * per_key < target * 0.9 && clip->n_joints < 4000)
    {
      /* copy joints until the size is reached */
      gsize n = clip->n_joints;
      for (gsize j = 1; j < n && sq_clip_count_keys (clip) * per_key < target; j++)
        {
          g_autofree char *name = g_strdup_printf ("%s_%" G_GSIZE_FORMAT, clip->joints[j].name, clip->n_joints);
          SqJoint *joint = sq_clip_add_joint (clip, name);
          sq_track_copy (&joint->tracks[SQ_CHANNEL_ROTATION], &clip->joints[j].tracks[SQ_CHANNEL_ROTATION]);
        }
    }
  return sq_save_bytes (clip, format, &opts, NULL, NULL);
}

static gsize
parse_size (const char *s)
{
  char *end;
  double v = g_ascii_strtod (s, &end);

  if (*end == 'k' || *end == 'K')
    v *= 1e3;
  else if (*end == 'm' || *end == 'M')
    v *= 1e6;
  else if (*end == 'g' || *end == 'G')
    v *= 1e9;
  return (gsize) v;
}

static void
bench_one (const char     *label,
           GBytes         *bytes,
           const SqFormat *format,
           GPtrArray      *companions,
           const char     *folder,
           guint           runs)
{
  Job job = { bytes, format, NULL, FALSE, companions, folder };
  double mb;
  double t_read, t_write = NAN, t_joined = NAN;
  long before, peak;
  gsize keys;

  /* freed memory of earlier runs back to the system first, or a read that
   * reuses it would show no rise */
  malloc_trim (0);
  reset_peak ();
  before = read_status_kb ("VmRSS:");
  job.clip = job_load (&job);
  peak = read_status_kb ("VmHWM:");
  if (job.clip == NULL)
    {
      printf ("%-11s %-28s cannot be read\n", format ? format->id : "?", label);
      return;
    }
  format = job.format = job.clip->format;
  if (folder != NULL && (format->flags & SQ_FORMAT_COMPANIONS))
    {
      /* read once, then served from memory as a generated file's are */
      SqSaveOptions opts = { .companions = job.companions = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_companion_free) };
      g_autoptr(GBytes) again = sq_save_bytes (job.clip, format, &opts, NULL, NULL);

      job.folder = NULL;
      if (again == NULL)
        {
          printf ("%-11s %-28s its companion files cannot be saved\n", format->id, label);
          g_ptr_array_unref (job.companions);
          sq_clip_free (job.clip);
          return;
        }
    }
  /* the size counts the companion files with the main one */
  mb = job_size (&job) / 1e6;
  keys = sq_clip_count_keys (job.clip);
  t_read = only_write ? NAN : measure (op_read, &job, runs);
  if (sq_format_can_write (format) && !only_read)
    {
      t_write = measure (op_write, &job, runs);
      job.one_buffer = TRUE;
      t_joined = measure (op_write, &job, runs);
    }
  printf ("%-11s %-28s %9.2f MB %11" G_GSIZE_FORMAT " keys  read %8.1f MB/s %7.1f Mkeys/s  write %8.1f MB/s  peak +%.2fx (+%ld kB)  one buffer %8.1f MB/s\n",
          format->id, label, mb, keys, mb / t_read, keys / t_read / 1e6, mb / t_write,
          (peak - before) * 1024.0 / (mb * 1e6), peak - before, mb / t_joined);
  fflush (stdout);
  sq_clip_free (job.clip);
  if (job.companions != companions)
    g_ptr_array_unref (job.companions);
}

int
main (int    argc,
      char **argv)
{
  const char *sizes = "10k,1m,50m";
  const char *write_dir = NULL;
  guint runs = 5;
  g_autoptr(GPtrArray) files = g_ptr_array_new ();

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--sizes") == 0 && i + 1 < argc)
        sizes = argv[++i];
      else if (strcmp (argv[i], "--runs") == 0 && i + 1 < argc)
        {
          int n = atoi (argv[++i]);
          runs = n > 0 ? (guint) n : 1;
        }
      else if (strcmp (argv[i], "--write-dir") == 0 && i + 1 < argc)
        write_dir = argv[++i];
      else if (strcmp (argv[i], "--clock") == 0 && i + 1 < argc)
        cpu_clock = strcmp (argv[++i], "cpu") == 0;
      else if (strcmp (argv[i], "--only") == 0 && i + 1 < argc)
        {
          i++;
          only_read = strcmp (argv[i], "read") == 0;
          only_write = strcmp (argv[i], "write") == 0;
        }
      else if (strcmp (argv[i], "--decode") == 0)
        decode_all = TRUE;
      else if (strcmp (argv[i], "--help") == 0)
        {
          printf ("Usage: sequin-bench [--sizes 10k,1m,50m] [--runs N] [--write-dir DIR] [--only read|write] [--clock wall|cpu] [--decode] [FILE…]\n");
          return 0;
        }
      else
        g_ptr_array_add (files, argv[i]);
    }

  printf ("# sequin-bench %s: median of %u runs (%s time); peak = rise of peak RSS while reading / file size\n",
          PACKAGE_VERSION, runs, cpu_clock ? "CPU" : "wall");
  if (files->len > 0)
    {
      for (guint i = 0; i < files->len; i++)
        {
          g_autoptr(GMappedFile) map = g_mapped_file_new (files->pdata[i], FALSE, NULL);
          g_autoptr(GBytes) bytes = NULL;
          g_autofree char *base = g_path_get_basename (files->pdata[i]);

          if (map == NULL)
            {
              fprintf (stderr, "sequin-bench: cannot read %s\n", (char *) files->pdata[i]);
              return 1;
            }
          /* a private copy, so page faults of the mapping are not timed */
          bytes = g_bytes_new (g_mapped_file_get_contents (map), g_mapped_file_get_length (map));
          {
            g_autofree char *folder = g_path_get_dirname (files->pdata[i]);

            bench_one (base, bytes, sq_format_detect (bytes, files->pdata[i]), NULL, folder, runs);
          }
        }
      return 0;
    }

  {
    g_auto(GStrv) size_list = g_strsplit (sizes, ",", -1);
    gsize n_formats;
    const SqFormat * const *formats = sq_formats (&n_formats);

    for (gsize f = 0; f < n_formats; f++)
      {
        if (!sq_format_can_write (formats[f]))
          continue;
        for (guint s = 0; size_list[s] != NULL; s++)
          {
            g_autoptr(GPtrArray) companions = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_companion_free);
            const char *why_not = NULL;
            g_autoptr(GBytes) bytes = generate (formats[f], parse_size (size_list[s]), size_list[s], companions,
                                                &why_not);
            g_autofree char *label = g_strdup_printf ("generated-%s", size_list[s]);

            if (bytes == NULL)
              {
                /* said, not written as an empty file */
                printf ("%s%-11s %-28s skipped: %s\n", write_dir != NULL ? "# " : "", formats[f]->id, label, why_not);
                continue;
              }
            if (write_dir != NULL)
              {
                g_autofree char *name = g_strdup_printf ("%s-%s.%s", formats[f]->id, size_list[s],
                                                         formats[f]->extensions[0]);
                g_autofree char *path = g_build_filename (write_dir, name, NULL);
                g_autoptr(GError) error = NULL;

                if (!g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error))
                  {
                    fprintf (stderr, "sequin-bench: %s\n", error->message);
                    return 1;
                  }
                printf ("# wrote %s\n", path);
                /* a companion file beside it, by the name the main file gives it */
                for (guint c = 0; c < companions->len; c++)
                  {
                    SqCompanion *companion = companions->pdata[c];
                    g_autofree char *beside = g_build_filename (write_dir, companion->name, NULL);

                    if (!g_file_set_contents (beside, g_bytes_get_data (companion->bytes, NULL),
                                              g_bytes_get_size (companion->bytes), &error))
                      {
                        fprintf (stderr, "sequin-bench: %s\n", error->message);
                        return 1;
                      }
                    printf ("# wrote %s\n", beside);
                  }
                continue;
              }
            bench_one (label, bytes, formats[f], companions, NULL, runs);
          }
      }
  }
  return 0;
}
