/* fuzz-roundtrip.c: read → write → read back; writing what was read back
 * gives the same bytes again (the writers are stable). Nothing is dumped
 * (fuzz-load dumps what each reader read), and the coverage that guides it
 * is the writers' only (fuzz/roundtrip-coverage.txt, fuzz/meson.build).
 *
 * The input is one byte that picks the format written (its value modulo
 * the number of writable formats, in the registry's order) and then the
 * file. One writer an input, not all ten: an input then costs a tenth, and
 * the fuzzer pairs each file with each writer by changing that byte (the
 * seeds come with every byte: fuzz/run-fuzzers.sh). Writing a clip in all
 * formats was 20 reads and writes an input, about 200 executions a second.
 * The robustness test replays a finding's file (without the byte) through
 * every writer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sq-core.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

/* the writable format that byte picks */
static const SqFormat *
pick_writer (guint8 byte)
{
  gsize n_formats, n_writers = 0;
  const SqFormat * const *formats = sq_formats (&n_formats);
  guint pick;

  for (gsize f = 0; f < n_formats; f++)
    n_writers += sq_format_can_write (formats[f]) ? 1 : 0;
  pick = byte % n_writers;
  for (gsize f = 0; f < n_formats; f++)
    if (sq_format_can_write (formats[f]) && pick-- == 0)
      return formats[f];
  abort ();
}

/* the latest key: BVH writes every frame up to it */
static double
last_key_time (const SqClip *clip)
{
  double last = 0;

  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *t = &clip->joints[j].tracks[c];
        if (t->n_keys > 0 && sq_track_time (t, t->n_keys - 1) > last)
          last = sq_track_time (t, t->n_keys - 1);
      }
  return last;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SqClip) clip = NULL;
  SqSaveOptions opts = { .no_source_copy = TRUE };
  const SqFormat *format;
  g_autoptr(GBytes) once = NULL, twice = NULL;
  g_autoptr(SqClip) back = NULL;
  g_autoptr(GError) error = NULL;

  if (size < 1)
    return 0;
  format = pick_writer (data[0]);
  bytes = g_bytes_new_static (data + 1, size - 1);
  clip = sq_load_bytes (bytes, NULL, NULL, NULL, NULL);
  if (clip == NULL)
    return 0;
  /* a key far out in time makes a frame grid of that many frames: a large
   * output that is right but slow to write, read and write again under the
   * sanitizers (a binary SEQ key at frame 20,000 gives a 29 MB BVH); such
   * inputs skip BVH here and stay in the robustness test's reach */
  if (strcmp (format->id, "bvh") == 0
      && MAX (clip->duration, last_key_time (clip)) * MAX (clip->fps, 30.0) * (clip->n_joints + 1) > 400000.0)
    return 0;
  once = sq_save_bytes (clip, format, &opts, NULL, &error);
  if (once == NULL)
    {
      if (error == NULL || error->domain != SQ_ERROR)
        abort ();
      return 0;
    }
  back = sq_load_bytes (once, NULL, format, NULL, &error);
  if (back == NULL)
    {
      fprintf (stderr, "%s wrote what it cannot read: %s\n", format->id, error->message);
      abort ();
    }
  if (!sq_clip_check (back, NULL))
    abort ();
  twice = sq_save_bytes (back, format, &opts, NULL, NULL);
  /* glTF writes any world's clip with that world's rest skeleton; what it
   * reads back is a glTF clip with a save of its own (fuzz-load-gltf and
   * test-gltf.c check it) */
  if (twice != NULL && (format->flags & SQ_FORMAT_ANY_WORLD))
    return 0;
  if (twice == NULL || !g_bytes_equal (once, twice))
    {
      fprintf (stderr, "%s: writing what was read back changes the bytes\n", format->id);
      abort ();
    }
  return 0;
}
