/* sequin-motion-dialog.h: the Animation menu and its dialogs (mirror,
 * resample, speed, trim, reverse, reduce, close the loop)
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sequin-document.h"

G_BEGIN_DECLS

typedef enum
{
  SEQUIN_MOTION_MIRROR,
  SEQUIN_MOTION_RESAMPLE,
  SEQUIN_MOTION_SPEED,
  SEQUIN_MOTION_TRIM,
  SEQUIN_MOTION_REVERSE,
  SEQUIN_MOTION_REDUCE,
  SEQUIN_MOTION_CLOSE_LOOP,
  SEQUIN_MOTION_SKIP_FRAMES,
  SEQUIN_MOTION_N_KINDS
} SequinMotionKind;

#define SEQUIN_TYPE_MOTION_DIALOG (sequin_motion_dialog_get_type ())

G_DECLARE_FINAL_TYPE (SequinMotionDialog, sequin_motion_dialog, SEQUIN, MOTION_DIALOG, GtkWindow)

SequinMotionDialog *sequin_motion_dialog_new         (GtkWindow          *parent,
                                                      SequinDocument     *document,
                                                      SequinMotionKind    kind);
/* The number fields (0, 1 or 2): resample FPS; speed FACTOR; trim START,
 * END; reduce DEG, DIST */
guint               sequin_motion_dialog_get_n_fields (SequinMotionDialog *self);
void                sequin_motion_dialog_set_text     (SequinMotionDialog *self,
                                                       guint               field,
                                                       const char         *text);
const char         *sequin_motion_dialog_get_text     (SequinMotionDialog *self,
                                                       guint               field);
/* Whether Apply is enabled, and if not, why (NULL when there is nothing to
 * say); after an apply, the edit's report (reduce: keys before and after) */
gboolean            sequin_motion_dialog_can_apply    (SequinMotionDialog *self);
/* Trim: the playhead's time (the window gives it when it opens the
 * dialog), the fields in frames (TRUE) or seconds, the start set to the
 * playhead ("From the Playhead") */
void                sequin_motion_dialog_set_playhead (SequinMotionDialog *self,
                                                       double              seconds);
void                sequin_motion_dialog_set_in_frames (SequinMotionDialog *self,
                                                        gboolean            frames);
void                sequin_motion_dialog_start_at_playhead (SequinMotionDialog *self);
const char         *sequin_motion_dialog_get_message  (SequinMotionDialog *self);
/* What Apply does: the edit goes to the document (undoable); the dialog
 * closes, or stays to show the edit's report; on error it stays and shows
 * why. */
gboolean            sequin_motion_dialog_apply        (SequinMotionDialog *self,
                                                       GError            **error);

/* The window's hook: the "win.motion" action, whose string parameter is
 * "mirror", "resample", "speed", "trim", "reverse", "reduce" or
 * "close-loop", opens that dialog on the SequinWindow's document;
 * "compare" asks for a file to compare with (sequin-compare-window.h). The
 * Animation submenu of the Edit menu lists them. */
void                sequin_motion_install_actions     (GtkWidgetClass     *widget_class);

G_END_DECLS
