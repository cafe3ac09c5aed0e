/* fuzz-load-gltf.c: the glTF reader on arbitrary bytes (a .glb, or a
 * .gltf whose buffer is a data: URI; an external buffer name gets the
 * bytes after the input's first NUL, if any). What loads must pass the
 * model's invariants, survive dumping and validation, and write as a .glb
 * that reads again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sq-core.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static GBytes *
give_bin (const char *name,
          gpointer    user_data,
          GError    **error)
{
  GBytes *bin = user_data;

  if (bin == NULL)
    {
      g_set_error (error, SQ_ERROR, SQ_ERROR_NOT_FOUND, "no %s", name);
      return NULL;
    }
  return g_bytes_ref (bin);
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  const guint8 *nul = memchr (data, 0, size);
  /* a .glb holds NULs of its own: split only text */
  gboolean glb = size >= 4 && memcmp (data, "glTF", 4) == 0;
  gsize main_len = nul != NULL && !glb ? (gsize) (nul - data) : size;
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, main_len);
  g_autoptr(GBytes) bin = nul != NULL && !glb ? g_bytes_new_static (nul + 1, size - main_len - 1) : NULL;
  const SqFormat *gltf = sq_format_by_id ("gltf");
  SqLoadOptions lo = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GBytes) out = NULL;
  SqSaveOptions so = { .no_source_copy = TRUE };

  if (gltf == NULL)
    abort ();
  lo.companion = give_bin;
  lo.companion_data = bin;
  clip = sq_load_bytes (bytes, NULL, gltf, &lo, &error);
  if (clip == NULL)
    {
      if (error == NULL || error->domain != SQ_ERROR || error->message[0] == '\0')
        abort ();
      return 0;
    }
  if (!sq_clip_check (clip, NULL))
    abort ();
  g_free (sq_dump_json (clip));
  g_free (sq_dump_text (clip));
  g_ptr_array_unref (sq_validate (clip, "sl", NULL));
  out = sq_save_bytes (clip, gltf, &so, NULL, &error);
  if (out != NULL)
    {
      g_autoptr(GError) again_error = NULL;
      g_autoptr(SqClip) again = sq_load_bytes (out, NULL, gltf, &lo, &again_error);
      if (again == NULL || !sq_clip_check (again, NULL) || again->n_joints != clip->n_joints)
        {
          fprintf (stderr, "the .glb written does not read back as %zu joints: %s\n", clip->n_joints,
                   again == NULL ? again_error->message : "");
          if (again != NULL)
            fprintf (stderr, "it reads as %zu joints\n", again->n_joints);
          abort ();
        }
    }
  return 0;
}
