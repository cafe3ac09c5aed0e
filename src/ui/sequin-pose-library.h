/* sequin-pose-library.h: the pose library dialog
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sequin-window.h"

G_BEGIN_DECLS

/* Shows the window's pose library: the user's poses (one .pose file each
 * in sequin_posing_library_dir ()), the installed presets, and the poses
 * of SimPose-ium pose lists (.psl) opened into it */
void sequin_pose_library_show (SequinWindow *window);

G_END_DECLS
