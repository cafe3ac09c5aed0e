/* fuzz-load-sims-cmx.c: the CMX reader with its CFP companion on
 * arbitrary bytes. The input is the CMX text, a NUL byte, then the bytes
 * the companion hook gives for any CFP name (no NUL: no CFP, the hook
 * fails). What loads must pass the model's invariants, survive validation
 * (the Sims' own), save through the writer (CMX and CFP) to bytes that load
 * again, and survive dumping.
 *
 * Speed: every CMX clip starts from the 29 bones of the adult skeleton,
 * whose parent and offset values are the same whatever the input; dumping
 * them (a printf a number) was a third of an execution, and validating for
 * Second Life (a conversion and an .anim written) another third. The dumps
 * are of the bones the input gave a motion; the validation is the Sims'
 * (fuzz-roundtrip converts and writes every format).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sq-core.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static GBytes *
give_cfp (const char *name,
          gpointer    user_data,
          GError    **error)
{
  (void) name;
  if (user_data == NULL)
    {
      g_set_error_literal (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "no CFP in this input");
      return NULL;
    }
  return g_bytes_ref (user_data);
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  const guint8 *nul = memchr (data, '\0', size);
  gsize cmx_len = nul != NULL ? (gsize) (nul - data) : size;
  g_autoptr(GBytes) cmx = g_bytes_new_static (data, cmx_len);
  g_autoptr(GBytes) cfp = nul != NULL ? g_bytes_new_static (nul + 1, size - cmx_len - 1) : NULL;
  SqLoadOptions options = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(SqClip) clip = NULL;
  g_autoptr(GPtrArray) companions = NULL;
  SqSaveOptions save = { 0 };
  g_autoptr(GBytes) out = NULL;
  g_autoptr(SqClip) back = NULL;

  options.companion = give_cfp;
  options.companion_data = cfp;
  clip = sq_load_bytes (cmx, NULL, sq_format_by_id ("sims-cmx"), &options, &error);
  if (clip == NULL)
    {
      if (error == NULL || error->message[0] == '\0')
        abort ();
      return 0;
    }
  if (!sq_clip_check (clip, NULL))
    abort ();
  g_ptr_array_unref (sq_validate (clip, "sims", NULL));
  /* what the writer gives (CMX and CFP), the reader takes back */
  companions = g_ptr_array_new_with_free_func ((GDestroyNotify) sq_companion_free);
  save.companions = companions;
  save.no_source_copy = TRUE;
  out = sq_save_bytes (clip, clip->format, &save, NULL, NULL);
  if (out == NULL || companions->len > 1)
    abort ();
  options.companion_data = companions->len == 1 ? ((SqCompanion *) companions->pdata[0])->bytes : NULL;
  back = sq_load_bytes (out, NULL, clip->format, &options, &error);
  if (back == NULL || sq_clip_count_keys (back) != sq_clip_count_keys (clip))
    abort ();
  /* the dumps: the bones with a motion of the input's */
  for (gsize j = clip->n_joints; j-- > 0;)
    if (sq_props_get (clip->joints[j].extra, "motion") == NULL)
      sq_clip_remove_joint (clip, j);
  g_free (sq_dump_json (clip));
  g_free (sq_dump_text (clip));
  return 0;
}
