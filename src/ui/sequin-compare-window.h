/* sequin-compare-window.h: Compare With…, the per-joint differences between
 * the window's animation and another file (sq-diff.h)
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sequin-window.h"

G_BEGIN_DECLS

#define SEQUIN_TYPE_COMPARE_WINDOW (sequin_compare_window_get_type ())

G_DECLARE_FINAL_TYPE (SequinCompareWindow, sequin_compare_window, SEQUIN, COMPARE_WINDOW, GtkWindow)

/* The differences between the window's animation (as it is, and after
 * every change) and `other` (copied; named `other_name`), computed on a
 * worker: the rows come when it is done (sequin_compare_window_is_current).
 * A row per joint; activating one selects that joint in the window and
 * puts the playhead where its largest difference is. It replaces the
 * window's comparison if there is one. */
SequinCompareWindow *sequin_compare_window_new          (SequinWindow        *window,
                                                         const SqClip        *other,
                                                         const char          *other_name);
/* Reads `file` (on a worker), then shows the window compared with it, or
 * an error dialog */
void                 sequin_compare_window_open_file    (SequinWindow        *window,
                                                         GFile               *file);
/* Another document in the window (another take, another file) */
void                 sequin_compare_window_set_document (SequinCompareWindow *self,
                                                         SequinDocument      *document);
/* TRUE when what is shown is of the document as it is now */
gboolean             sequin_compare_window_is_current   (SequinCompareWindow *self);
guint                sequin_compare_window_get_n_rows   (SequinCompareWindow *self);
const char          *sequin_compare_window_get_row_text (SequinCompareWindow *self,
                                                         guint                row);
const char          *sequin_compare_window_get_summary  (SequinCompareWindow *self);
void                 sequin_compare_window_activate_row (SequinCompareWindow *self,
                                                         guint                row);
/* The chooser of the file's animation set, visible when a file read by
 * sequin_compare_window_open_file holds several */
GtkDropDown         *sequin_compare_window_get_take_chooser (SequinCompareWindow *self);
/* Asks for a file, then shows the window (the "compare" motion action) */
void                 sequin_compare_window_choose       (SequinWindow        *window);

G_END_DECLS
