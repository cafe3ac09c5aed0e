/* sequin-posing.h: making an animation in the window: New, the Pose page
 * (the selected joint's rotation and position at the playhead), keys,
 * copying and pasting poses, and the pose library
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sequin-window.h"

G_BEGIN_DECLS

/* the win.* actions: new-animation, insert-keys, copy-pose, paste-pose,
 * paste-pose-flipped, symmetrize, pose-library */
void       sequin_posing_install_actions (GtkWidgetClass *widget_class);
/* the Pose page in the sidebar and the posing keys (K, Ctrl+C, Ctrl+V,
 * Ctrl+Shift+V) on the timeline, tree and preview */
void       sequin_posing_window_init     (SequinWindow   *window);
/* follows the document, the selected joint and the playhead: the page's
 * values and which actions are enabled */
void       sequin_posing_update          (SequinWindow   *window);

/* the preview's gizmo edits the document when the clip it shows is the
 * document's own (`own_clip`; not Play Over's mix) */
void       sequin_posing_follow_preview  (SequinWindow   *window,
                                          gboolean        own_clip);

/* The Pose page's spin buttons (for tests and screenshots): rotation in
 * the joint's channel order (0..2), position X, Y, Z (3..5) */
GtkWidget *sequin_posing_get_value_spin  (SequinWindow   *window,
                                          guint           index);

/* The pose library folder: g_get_user_data_dir ()/sequin/poses */
char      *sequin_posing_library_dir     (void);
/* The folder of the installed presets (the source tree's when run from
 * the build tree), or NULL */
char      *sequin_posing_presets_dir     (void);

G_END_DECLS
