/* fuzz-load.c: every reader on arbitrary bytes; what loads must pass the
 * model's invariants and survive dumping and validation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include "sq-core.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  gsize n_formats;
  const SqFormat * const *formats = sq_formats (&n_formats);

  for (gsize f = 0; f <= n_formats; f++)
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
      g_free (sq_dump_json (clip));
      g_free (sq_dump_text (clip));
      g_ptr_array_unref (sq_validate (clip, "aw", NULL));
    }
  return 0;
}
