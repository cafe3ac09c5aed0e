/* sequin-play-over.h: Play Over…: other animations played with the open one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Play Over… picks animations (an AO's stand or walk, a tail's, Second
 * Life's own motions as files) to play with the window's clip in the
 * preview, combined per joint as the Second Life viewer combines them (the
 * core's sq-layers.h): the others start first, in the order added, the
 * open clip last. A dialog lists them (Add…, a Remove button each); while
 * any plays, the preview shows the combined motion and a strip under the
 * timeline (SequinLayerStrip) shows per joint which animation wins at the
 * playhead. The combined motion follows every edit, undo and redo.
 */
#pragma once

#include <gtk/gtk.h>

#include "sequin-window.h"

G_BEGIN_DECLS

/* Opens the Play Over dialog of `window` (one a window) */
void          sequin_play_over_choose        (SequinWindow  *window);
/* Plays `file` with the window's clip once a worker has read it; what
 * cannot be read or taken as a Second Life animation is said in the
 * dialog (when it is open) */
void          sequin_play_over_add_file_async (SequinWindow *window,
                                               GFile        *file);
void          sequin_play_over_remove        (SequinWindow  *window,
                                              guint          index);
guint         sequin_play_over_get_n         (SequinWindow  *window);
/* The clip the preview shows at the playhead: the combined motion while
 * other animations play over `clip`, else `clip`; *selected (a joint of
 * `clip`, -1 for none) becomes the same joint of what it returns */
const SqClip *sequin_play_over_preview_clip  (SequinWindow  *window,
                                              const SqClip  *clip,
                                              gssize        *selected);
/* for tests: the strip (NULL before anything plays over) and the dialog
 * (NULL when closed) */
GtkWidget    *sequin_play_over_get_strip     (SequinWindow  *window);
GtkWidget    *sequin_play_over_get_dialog    (SequinWindow  *window);

G_END_DECLS
