/* fuzz-roundtrip.c: read → write in every format → read back; writing what
 * was read back gives the same bytes again (the writers are stable)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

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

  if (clip == NULL)
    return 0;

  for (gsize f = 0; f < n_formats; f++)
    {
      g_autoptr(GBytes) once = NULL, twice = NULL;
      g_autoptr(SqClip) back = NULL;
      g_autoptr(GError) error = NULL;

      if (!sq_format_can_write (formats[f]))
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
      if (twice == NULL || !g_bytes_equal (once, twice))
        {
          fprintf (stderr, "%s: writing what was read back changes the bytes\n", formats[f]->id);
          abort ();
        }
    }
  return 0;
}
