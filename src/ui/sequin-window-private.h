/* sequin-window-private.h: what the window's files (and the tests) share
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sequin-compare-window.h"
#include "sequin-diff-lane.h"
#include "sequin-edit-dialog.h"
#include "sequin-joint-tree.h"
#include "sequin-line-model.h"
#include "sequin-open-progress.h"
#include "sequin-playback.h"
#include "sequin-pose-list.h"
#include "sequin-preview.h"
#include "sequin-properties-panel.h"
#include "sequin-timeline.h"
#include "sequin-validation-panel.h"
#include "sequin-window.h"

G_BEGIN_DECLS

/* the playback speeds the window offers, as its rate drop-down lists them */
#define SEQUIN_WINDOW_RATES { 0.1, 0.25, 0.5, 1.0, 2.0 }

struct _SequinWindow
{
  GtkApplicationWindow parent_instance;

  /* Template widgets */
  GtkHeaderBar        *header_bar;
  GtkLabel            *title_label;
  GtkLabel            *subtitle_label;
  GtkButton           *undo_button;
  GtkButton           *redo_button;
  GtkMenuButton       *save_as_button;
  GtkMenuButton       *edit_menu_button;
  GMenu               *primary_menu;
  GtkStack            *main_stack;
  SequinOpenProgress  *open_progress;    /* above main_stack: opens that take a while */
  GtkStack            *view_stack;
  SequinJointTree     *joint_tree;
  GtkListView         *structure_view;
  GtkBox              *timeline_box;
  GtkLabel            *format_value;
  GtkLabel            *model_value;
  GtkLabel            *root_value;
  GtkLabel            *joints_value;
  GtkLabel            *keys_value;
  GtkLabel            *frames_key;
  GtkLabel            *frames_value;
  GtkLabel            *duration_value;
  GtkWidget           *warnings_box;
  GtkLabel            *warnings_label;
  GtkPaned            *header_paned;
  GtkPaned            *content_paned;
  GtkPaned            *sidebar_paned;
  GtkWidget           *sidebar;
  GtkStack            *sidebar_stack;
  SequinPropertiesPanel *properties_panel;
  SequinValidationPanel *validation_panel;
  SequinPoseList      *pose_list;        /* the Poses page, shown for pose libraries */
  SequinPreview       *preview;
  GtkToggleButton     *play_button;
  GtkLabel            *play_time_label;
  GtkToggleButton     *loop_button;
  GtkDropDown         *rate_dropdown;    /* SEQUIN_WINDOW_RATES, in order */
  GMenuModel          *context_menu;

  /* Borrowed references */
  GtkWidget           *timeline;         /* SequinTimeline, in timeline_box */
  GtkWidget           *diff_lane;        /* SequinDiffLane under it, shown while comparing */
  SequinCompareWindow *compare;          /* the comparison open now, if any (it clears this) */
  GtkWidget           *message_dialog;   /* the question or error shown now, if any */
  SequinEditDialog    *edit_dialog;      /* the edit dialog open now, if any */

  /* Owned references */
  SequinDocument      *document;
  GCancellable        *cancellable;      /* cancelled when the window goes */
  GSettings           *settings;         /* NULL when the schema is not installed */
  GtkNativeDialog     *file_chooser;
  SequinLineModel     *structure_lines;
  SequinPlayback      *playback;         /* the playhead: the timeline's time is bound to its position */
  GSignalGroup        *document_signals; /* the window's handlers on the document */

  guint64              structure_generation;
  guint                loading;          /* loads that may still open here */
  guint                layout_idle;      /* places the panes once the document page has a size */
  int                  sidebar_width;    /* remembered sizes of the panes, in pixels */
  int                  timeline_height;
  int                  diff_lane_room;   /* what the timeline's pane grew by for the difference lane */
  guint                laid_out : 1;     /* the panes were placed */
  guint                syncing : 1;      /* tree and timeline follow each other */
  guint                close_after_save : 1;
  guint                force_close : 1;
  guint                structure_stale : 1;
};

/* sequin-window-actions.c: the window's actions and what they share with
 * the window. sequin-window.c calls these; the actions file calls only
 * the window's public API (sequin-window.h), never back into
 * sequin-window.c's own functions. */
void _sequin_window_class_actions_init (SequinWindowClass *klass);
void _sequin_window_actions_update     (SequinWindow      *self);
void _sequin_window_show_message       (SequinWindow      *self,
                                        GtkWidget         *dialog);
void _sequin_window_save               (SequinWindow      *self,
                                        gboolean           ask_for_file,
                                        const SqFormat    *format);

/* Applies `edit` (taken) to the document; a refusal is shown in a message
 * ("Could Not Move Keys" and why); FALSE then */
gboolean _sequin_window_apply_edit     (SequinWindow      *self,
                                        SqEdit            *edit);

/* sequin-window-keys.c: the keys selected in the timeline: moving them
 * (a drag), deleting them (Delete), copying and pasting them (win.copy,
 * win.paste, win.paste-flipped: Ctrl+C, Ctrl+V, Ctrl+Shift+V, which copy
 * and paste the pose when the timeline has no keys selected or not the
 * focus), selecting all of the selected joints' (Ctrl+A), each one core
 * edit */
void     _sequin_window_keys_install_actions (GtkWidgetClass *widget_class);
void     _sequin_window_keys_init      (SequinWindow      *self);

/* how many keys the timeline has selected (0 without a clip) */
gsize    _sequin_window_keys_selected  (SequinWindow      *self);
/* Delete with the timeline focused and keys selected there: one edit
 * deleting them; FALSE when that is not the case */
gboolean _sequin_window_keys_delete    (SequinWindow      *self);
/* a pose was copied: Ctrl+V pastes it, not the keys copied before */
void     _sequin_window_keys_forget    (void);

/* A signal group whose "changed" handler follows the window's document,
 * whichever it is (its owner unrefs it) */
GSignalGroup *_sequin_window_follow_document (SequinWindow *self,
                                              GCallback     changed,
                                              gpointer      data);

G_END_DECLS
