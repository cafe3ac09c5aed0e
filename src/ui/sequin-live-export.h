/* sequin-live-export.h: Export Continuously To…
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Export Continuously To… picks a file (a .anim, or a .bvh: the extension
 * chooses), for instance in the folder a viewer's Local Assets watch and
 * reload on the in-world avatar. After every edit, undo and redo that
 * leaves the clip valid for Second Life (no error in its validation), the
 * clip is written there through the core's save (sq_save_pieces, as Save
 * As does) into a temporary file beside it, then renamed over it: a
 * reader sees the old file or the new one, never part of one, and never an
 * invalid clip. Writes never overlap; the last edit is always written. An
 * indicator in the header bar tells the last export's time, or why one
 * waits (the validation error), with a button to stop.
 */
#pragma once

#include <gtk/gtk.h>

#include "sequin-window.h"

G_BEGIN_DECLS

/* Asks for the file, then starts */
void        sequin_live_export_choose     (SequinWindow *window);
/* Starts exporting to `file` (exports once now); FALSE with an error when
 * its extension is neither .anim nor .bvh or it is not a local file */
gboolean    sequin_live_export_start      (SequinWindow *window,
                                           GFile        *file,
                                           GError      **error);
void        sequin_live_export_stop       (SequinWindow *window);
/* for tests: the indicator's text (NULL when not exporting), how many
 * files were written, whether a write is under way or waits for one */
const char *sequin_live_export_get_status (SequinWindow *window);
guint       sequin_live_export_get_count  (SequinWindow *window);
gboolean    sequin_live_export_is_busy    (SequinWindow *window);
/* for tests: the indicator's label (NULL before the first start) */
GtkWidget  *sequin_live_export_get_indicator (SequinWindow *window);

G_END_DECLS
