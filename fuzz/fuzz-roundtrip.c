/* fuzz-roundtrip.c: read → write in every format → read back; writing what
 * was read back gives the same bytes again (the writers are stable). What
 * was read is dumped whole, every key (fuzz-load dumps the first keys of
 * each track only).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sq-core.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(SqClip) clip = sq_load_bytes (bytes, NULL, NULL, NULL, NULL);
  SqSaveOptions opts = { .no_source_copy = TRUE };
  gsize n_formats;
  const SqFormat * const *formats = sq_formats (&n_formats);

  double last = 0;

  if (clip == NULL)
    return 0;
  g_free (sq_dump_json (clip));
  g_free (sq_dump_text (clip));
  /* the latest key: BVH writes every frame up to it */
  for (gsize j = 0; j < clip->n_joints; j++)
    for (guint c = 0; c < SQ_N_CHANNELS; c++)
      {
        const SqTrack *t = &clip->joints[j].tracks[c];
        if (t->n_keys > 0 && sq_track_time (t, t->n_keys - 1) > last)
          last = sq_track_time (t, t->n_keys - 1);
      }

  for (gsize f = 0; f < n_formats; f++)
    {
      g_autoptr(GBytes) once = NULL, twice = NULL;
      g_autoptr(SqClip) back = NULL;
      g_autoptr(GError) error = NULL;

      if (!sq_format_can_write (formats[f]))
        continue;
      /* a key far out in time makes a frame grid of that many frames: a
       * large output that is right but slow to write, read and write
       * again under the sanitizers (a binary SEQ key at frame 20,000 gives
       * a 29 MB BVH); such inputs skip BVH here and stay in the robustness
       * test's reach */
      if (strcmp (formats[f]->id, "bvh") == 0 && MAX (clip->duration, last) * MAX (clip->fps, 30.0) * (clip->n_joints + 1) > 400000.0)
        continue;
      once = sq_save_bytes (clip, formats[f], &opts, NULL, &error);
      if (once == NULL)
        {
          if (error == NULL || error->domain != SQ_ERROR)
            abort ();
          continue;
        }
      back = sq_load_bytes (once, NULL, formats[f], NULL, &error);
      if (back == NULL)
        {
          fprintf (stderr, "%s wrote what it cannot read: %s\n", formats[f]->id, error->message);
          abort ();
        }
      if (!sq_clip_check (back, NULL))
        abort ();
      twice = sq_save_bytes (back, formats[f], &opts, NULL, NULL);
      /* glTF writes any world's clip with that world's rest skeleton; what
       * it reads back is a glTF clip with a save of its own (fuzz-load-gltf
       * and test-gltf.c check it) */
      if (twice != NULL && (formats[f]->flags & SQ_FORMAT_ANY_WORLD))
        continue;
      if (twice == NULL || !g_bytes_equal (once, twice))
        {
          fprintf (stderr, "%s: writing what was read back changes the bytes\n", formats[f]->id);
          abort ();
        }
    }
  return 0;
}
