/* sequin-pose-list.h: the poses of a SimPose-ium pose library, editable
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sequin-document.h"

G_BEGIN_DECLS

#define SEQUIN_TYPE_POSE_LIST (sequin_pose_list_get_type ())

G_DECLARE_FINAL_TYPE (SequinPoseList, sequin_pose_list, SEQUIN, POSE_LIST, GtkWidget)

GtkWidget  *sequin_pose_list_new          (void);
/* The list follows the document; the sidebar page holding it is shown
 * only while the document is a pose library */
void        sequin_pose_list_set_document (SequinPoseList *self,
                                           SequinDocument *document);
/* The selected pose, -1 for none */
int         sequin_pose_list_get_selected (SequinPoseList *self);
/* The last refusal shown, or NULL */
const char *sequin_pose_list_get_error    (SequinPoseList *self);

G_END_DECLS
