/* sq-dump.h: the document as readable text and as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sq-clip.h"

G_BEGIN_DECLS

typedef struct
{
  const char *format_name;
  gsize       n_joints;
  gsize       n_keys;
  gsize       n_rotation_keys;
  gsize       n_translation_keys;
  gsize       n_scale_keys;
  double      duration;
  guint       frames;
} SqClipSummary;

void   sq_clip_summarize  (const SqClip  *clip,
                           SqClipSummary *summary);
/* `sq-cli info` */
char  *sq_dump_summary    (const SqClip *clip);
/* The whole structure: header, every joint, every key. Shown by `sequin-cli
 * dump` and the editor's structure view. */
char  *sq_dump_text       (const SqClip *clip);
/* The scripts' contract: one JSON object (see README). */
char  *sq_dump_json       (const SqClip *clip);

G_END_DECLS
