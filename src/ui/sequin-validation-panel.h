/* sequin-validation-panel.h: what a target world would say about the clip
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sequin-document.h"

G_BEGIN_DECLS

#define SEQUIN_TYPE_VALIDATION_PANEL (sequin_validation_panel_get_type ())

G_DECLARE_FINAL_TYPE (SequinValidationPanel, sequin_validation_panel, SEQUIN, VALIDATION_PANEL, GtkWidget)

/* Clips with more keys than this are validated in a worker thread, on a copy */
#define SEQUIN_VALIDATION_THREAD_KEYS 100000

GtkWidget  *sequin_validation_panel_new          (void);
void        sequin_validation_panel_set_document (SequinValidationPanel *self,
                                                  SequinDocument        *document);
/* "aw", "sl", … as sq_validate_targets() lists them */
void        sequin_validation_panel_set_target   (SequinValidationPanel *self,
                                                  const char            *target);
const char *sequin_validation_panel_get_target   (SequinValidationPanel *self);
GtkDropDown *sequin_validation_panel_get_target_chooser (SequinValidationPanel *self);
/* The findings shown (SqFinding*), or NULL while they are being made */
GPtrArray  *sequin_validation_panel_get_findings (SequinValidationPanel *self);
/* TRUE once the findings shown are those of the clip as it is now */
gboolean    sequin_validation_panel_is_current   (SequinValidationPanel *self);
const char *sequin_validation_panel_get_summary  (SequinValidationPanel *self);
GtkListView *sequin_validation_panel_get_list    (SequinValidationPanel *self);
/* What activating finding `position` (an index into the findings) does:
 * shows its row (expanding its joint's) and emits ::finding-activated */
void        sequin_validation_panel_activate     (SequinValidationPanel *self,
                                                  guint                  position);
/* The rows of the save's loss per joint (a GtkListBox, a row per joint
 * whose motion the quantised format moves), or NULL while none is shown */
GtkListBox *sequin_validation_panel_get_loss_list (SequinValidationPanel *self);
/* The target the panel picks for a format: its world (Second Life for
 * .anim and BVH), else the first */
const char *sequin_validation_default_target     (const SqFormat        *format);

G_END_DECLS
