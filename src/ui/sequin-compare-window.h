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

/* The differences between the window's animation (as it is now) and
 * `other` (named `other_name`); NULL with an error when they cannot be
 * compared. A row per joint; activating one selects that joint in the
 * window and puts the playhead where its largest difference is. */
SequinCompareWindow *sequin_compare_window_new          (SequinWindow        *window,
                                                         const SqClip        *other,
                                                         const char          *other_name,
                                                         GError             **error);
guint                sequin_compare_window_get_n_rows   (SequinCompareWindow *self);
const char          *sequin_compare_window_get_row_text (SequinCompareWindow *self,
                                                         guint                row);
const char          *sequin_compare_window_get_summary  (SequinCompareWindow *self);
void                 sequin_compare_window_activate_row (SequinCompareWindow *self,
                                                         guint                row);
/* Asks for a file, then shows the window (the "compare" motion action) */
void                 sequin_compare_window_choose       (SequinWindow        *window);

G_END_DECLS
