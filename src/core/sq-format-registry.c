/* sq-format-registry.c: the one list of formats, lookup and detection
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Adding a format: write formats/sq-format-<id>.c with its SqFormat, add it to
 * the list below, and to the round-trip tables of the tests. Loading and
 * saving (sq-load-save.c) and conversion (sq-convert.c) sit above this table.
 */
#define G_LOG_DOMAIN "sq-format"

#include "config.h"

#include <string.h>

#include "sq-private.h"
#include "worlds/sq-world-sims.h"

static const SqFormat * const formats[] = {
  &_sq_format_seq_binary,
  &_sq_format_seq_text,
  &_sq_format_bvh,
  &_sq_format_dx,
  &_sq_format_sl_anim,
  &_sq_format_sims_cmx,
  &_sq_format_simpose_psl,
  &_sq_format_simpose_kfd,
  &_sq_format_simpose_sps,
  &_sq_format_gltf,
};

const SqFormat * const *
sq_formats (gsize *n_formats)
{
  *n_formats = G_N_ELEMENTS (formats);
  return formats;
}

const SqFormat *
sq_format_common (void)
{
  return &_sq_format_sl_anim;
}

const SqFormat *
sq_format_with_flags (SqFormatFlags flags)
{
  for (gsize i = 0; i < G_N_ELEMENTS (formats); i++)
    if ((formats[i]->flags & flags) == flags)
      return formats[i];
  return NULL;
}

const SqFormat *
sq_format_by_id (const char *id)
{
  for (gsize i = 0; i < G_N_ELEMENTS (formats); i++)
    if (g_ascii_strcasecmp (formats[i]->id, id) == 0)
      return formats[i];
  return NULL;
}

const SqFormat *
sq_format_default (void)
{
  return formats[0];
}

const char *
sq_format_get_name (const SqFormat *format)
{
  return g_dgettext (GETTEXT_PACKAGE, format->name);
}

gboolean
sq_format_can_write (const SqFormat *format)
{
  return (format->flags & SQ_FORMAT_WRITE) != 0 && format->write != NULL;
}

static gboolean
has_extension (const SqFormat *format,
               const char     *ext)
{
  for (guint i = 0; format->extensions[i] != NULL; i++)
    if (g_ascii_strcasecmp (format->extensions[i], ext) == 0)
      return TRUE;
  return FALSE;
}

/* The format a file name asks for. Where several formats share the
 * extension (.seq is binary and text SEQ), `preferred` wins if it is one of
 * them, else the first registered. */
const SqFormat *
sq_format_for_filename (const char     *filename,
                        const SqFormat *preferred)
{
  const char *dot;

  if (filename == NULL)
    return NULL;
  dot = strrchr (filename, '.');
  if (dot == NULL || strchr (dot, '/') != NULL)
    return NULL;
  if (preferred != NULL && has_extension (preferred, dot + 1))
    return preferred;
  for (gsize i = 0; i < G_N_ELEMENTS (formats); i++)
    if (has_extension (formats[i], dot + 1))
      return formats[i];
  return NULL;
}

/* Content first, then the name. */
const SqFormat *
sq_format_detect (GBytes     *bytes,
                  const char *filename)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  const SqFormat *best = NULL;
  int best_score = 0;

  for (gsize i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      int score = formats[i]->probe ? formats[i]->probe (data, len) : 0;
      if (score > best_score)
        {
          best = formats[i];
          best_score = score;
        }
    }
  if (best != NULL && best_score >= 50)
    return best;
  return sq_format_for_filename (filename, NULL);
}
