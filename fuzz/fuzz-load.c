/* fuzz-load.c: the readers on arbitrary bytes; what loads must pass the
 * model's invariants and survive dumping and validation. Built once per
 * reader (fuzz-load-ID, with SQ_FUZZ_FORMAT defined to the format's id)
 * and once for every reader plus detection (fuzz-load).
 *
 * Speed: the dumps cost a printf or three a number, so on a file of many
 * keys they were most of a run. They are made here of the clip with each
 * track cut to its first FUZZ_DUMP_KEYS keys (every field, joint and
 * warning, and keys enough for every kind of line); fuzz-roundtrip dumps
 * whole clips.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include "sq-core.h"

#define FUZZ_DUMP_KEYS 8

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  gsize n_formats;
#ifdef SQ_FUZZ_FORMAT
  const SqFormat *one = sq_format_by_id (SQ_FUZZ_FORMAT);
  const SqFormat * const *formats = &one;

  if (one == NULL)
    abort ();
  /* only this reader: no detection pass */
  n_formats = 1;
  for (gsize f = 0; f < n_formats; f++)
#else
  const SqFormat * const *formats = sq_formats (&n_formats);

  for (gsize f = 0; f <= n_formats; f++)
#endif
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SqClip) clip = sq_load_bytes (bytes, NULL, f < n_formats ? formats[f] : NULL, NULL, &error);

      if (clip == NULL)
        {
          if (error == NULL || error->domain != SQ_ERROR || error->message[0] == '\0')
            abort ();
          continue;
        }
      if (!sq_clip_check (clip, NULL))
        abort ();
      g_ptr_array_unref (sq_validate (clip, "aw", NULL));
      for (gsize j = 0; j < clip->n_joints; j++)
        for (guint c = 0; c < SQ_N_CHANNELS; c++)
          clip->joints[j].tracks[c].n_keys = MIN (clip->joints[j].tracks[c].n_keys, FUZZ_DUMP_KEYS);
      g_free (sq_dump_json (clip));
      g_free (sq_dump_text (clip));
    }
  return 0;
}
