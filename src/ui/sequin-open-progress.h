/* sequin-open-progress.h: how far the files being opened or saved are, with Cancel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sequin-document.h"

G_BEGIN_DECLS

#define SEQUIN_TYPE_OPEN_PROGRESS (sequin_open_progress_get_type ())
G_DECLARE_FINAL_TYPE (SequinOpenProgress, sequin_open_progress, SEQUIN, OPEN_PROGRESS, GtkWidget)

GtkWidget *sequin_open_progress_new   (void);
/* Follows the load of `file` into `document` (sequin_document_load_async
 * with `cancellable`): once it has taken SEQUIN_OPEN_PROGRESS_DELAY_MS,
 * the bar shows the bytes read, then that the keys are being read, until
 * it ends; its Cancel button cancels `cancellable` */
void       sequin_open_progress_watch (SequinOpenProgress *self,
                                       SequinDocument     *document,
                                       GFile              *file,
                                       GCancellable       *cancellable);

/* The same for the save of `document` as `file` in `format`
 * (sequin_document_save_async with `cancellable`): its stage, and Cancel
 * until its files are being written */
void       sequin_open_progress_watch_save (SequinOpenProgress *self,
                                            SequinDocument     *document,
                                            GFile              *file,
                                            const SqFormat     *format,
                                            GCancellable       *cancellable);

#define SEQUIN_OPEN_PROGRESS_DELAY_MS 500

/* How long an open or a save runs before it shows (the default above) */
void       sequin_open_progress_set_delay  (SequinOpenProgress *self,
                                            guint               ms);

G_END_DECLS
