/* sequin-joint-tree.h: joints that expand into their keyframes, in columns
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sequin-document.h"

G_BEGIN_DECLS

#define SEQUIN_TYPE_JOINT_TREE (sequin_joint_tree_get_type ())

G_DECLARE_FINAL_TYPE (SequinJointTree, sequin_joint_tree, SEQUIN, JOINT_TREE, GtkWidget)

GtkWidget      *sequin_joint_tree_new                  (void);
void            sequin_joint_tree_set_document         (SequinJointTree *self,
                                                        SequinDocument  *document);
void            sequin_joint_tree_set_context_menu     (SequinJointTree *self,
                                                        GMenuModel      *menu);
/* The rows as shown: a GtkTreeListModel of joints whose rows expand into keys */
GListModel     *sequin_joint_tree_get_rows             (SequinJointTree *self);
GtkSelectionModel *sequin_joint_tree_get_selection     (SequinJointTree *self);
gboolean        sequin_joint_tree_expand_joint         (SequinJointTree *self,
                                                        gsize            joint,
                                                        gboolean         expanded);
void            sequin_joint_tree_select_joint         (SequinJointTree *self,
                                                        gsize            joint);
/* Expands the joint, selects the key's row and scrolls to it */
gboolean        sequin_joint_tree_select_key           (SequinJointTree *self,
                                                        gsize            joint,
                                                        SqChannel        channel,
                                                        gsize            key);
/* The joints of the selected rows (a key row counts for its joint); NULL-terminated */
char          **sequin_joint_tree_dup_selected_joints  (SequinJointTree *self);
/* The one joint of the selection, or -1 */
gssize          sequin_joint_tree_get_current_joint    (SequinJointTree *self);
/* TRUE when exactly one key row is selected */
gboolean        sequin_joint_tree_get_selected_key     (SequinJointTree *self,
                                                        gssize          *joint,
                                                        SqChannel       *channel,
                                                        gssize          *key,
                                                        double          *time);

/* Child joints under their parents (the default), or every joint at the top */
void               sequin_joint_tree_set_hierarchy (SequinJointTree *self,
                                                    gboolean         hierarchy);
gboolean           sequin_joint_tree_get_hierarchy (SequinJointTree *self);
/* The parent of `joint` as the tree shows it, -1 for a top row */
gssize             sequin_joint_tree_get_parent    (SequinJointTree *self,
                                                    gsize            joint);

G_END_DECLS
